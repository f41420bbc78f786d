/* A libFuzzer target for state machines: the first bytes describe up to four machines (plain
   machines, computed states over one or two earlier machines with a lookup table for a compute
   function, sub-states of an earlier machine) and up to three systems that queue a set, a
   re-enter, a push, a pop, a nested apply (which applies nothing) or a command that spawns a
   scoped entity from inside a transition schedule; the rest is a sequence of operations: queue a set, a re-enter, a push or a pop
   from outside, apply every machine or one machine (and the machines that depend on it) with
   ecs_sched_state_apply, run a schedule that holds the apply system (followed by systems
   guarded by each state condition), spawn entities scoped to a machine's value (one or two
   scopes), despawn them, and register a machine again with another initial value.

   Every OnEnter, OnExit, OnPause, OnResume and OnTransition schedule of every machine holds an
   exclusive system that logs which schedule ran, the machine's value as it saw it and how many
   entities were alive. A deliberately plain reference model written below (arrays, the rules
   of the STATES section spelled out one by one) predicts, after every operation: the result
   code, the log of the apply (which schedules ran, in which order, what each saw), what each
   queuing system got back, every machine's value, stack depth, count of changes and last
   transition, and which scoped entities are alive. On a disagreement it prints the operation
   and what differed, and aborts.

   make fuzz-states-smoke (a short run over tests/fuzz/corpus/states, part of make test);
   make fuzz-states (a minute). */
/* Built by make against the fuzz targets' shared implementation object, which has every
   optional module (the Makefile's fuzzing section). */
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MACHINES 4
#define VALUES 3
#define MAX_OPS 200
#define MAX_ENTITIES 24
#define MAX_SPAWNED 40           /* entities the queuing systems spawn, at most */
#define MAX_EVENTS 512
#define MAX_REACTORS 3
#define TABLE ((VALUES + 1) * (VALUES + 1))
#define NONE ECS_SCHED_STATE_NONE

enum { ROOT, COMPUTED, SUB };
enum { EV_ENTER, EV_EXIT, EV_PAUSE, EV_RESUME, EV_TRANSITION };
enum {
    REQ_NONE, REQ_SET, REQ_REENTER, REQ_PUSH, REQ_POP,
    REQ_APPLY,   /* an apply inside a transition schedule */
    REQ_SPAWN,   /* a command that spawns an entity scoped to the target's request_value */
    REQUESTS
};

static const char *const event_names[] = {"OnEnter", "OnExit", "OnPause", "OnResume",
                                          "OnTransition"};

/* ---- the input ---- */

typedef struct reader {
    const uint8_t *data;
    size_t size, at;
} reader;

static uint8_t take(reader *r) {
    return r->at < r->size ? r->data[r->at++] : 0;
}

/* ---- what the schedules log ---- */

typedef struct event {
    int kind, machine, a, b;   /* b: OnTransition's target value */
    int seen;                  /* the machine's value as the system saw it */
    int alive;                 /* entities alive when it ran */
} event;

typedef struct event_log {
    event items[MAX_EVENTS];
    int count;
} event_log;

static void log_add(event_log *log, event e) {
    if (log->count < MAX_EVENTS) log->items[log->count++] = e;
}

/* ---- the reference model ---- */

typedef struct model_machine {
    int kind, count, initial, capacity;
    int sources[2], source_count;          /* computed: sources; sub: sources[0] is the parent */
    bool parent_values[VALUES];
    int table[TABLE];                      /* computed: the value for each source combination */
    int value;                             /* NONE: none */
    bool entered;
    int stack[8], depth;
    int request, request_value;
    uint32_t changes;
    int last_from, last_to;
} model_machine;

typedef struct reactor {
    int machine, kind, value, to;          /* the schedule it is in */
    int target, request, request_value;    /* what it queues */
} reactor;

typedef struct model_entity {
    ecs_sched_entity id;
    bool alive;
    int scopes;
    int machine[2], on_exit[2], on_enter[2];
} model_entity;

typedef struct step {
    int from, to, request;
    bool moves, unwinds, restarts, included;
} step;

typedef struct fuzz {
    ecs_sched_world *w;
    int machine_count;
    model_machine m[MACHINES];
    ecs_sched_id ids[MACHINES];
    int reactor_count;
    reactor reactors[MAX_REACTORS];
    model_entity entities[MAX_ENTITIES + MAX_SPAWNED];
    int model_spawned;                   /* by the model's queuing systems */
    int library_spawned;                 /* by the library's */
    ecs_sched_entity spawned[MAX_SPAWNED];   /* by the library's in the last apply, in order */
    int spawned_count;
    int entity_count;
    event_log got, expected;
    int got_results[64], got_result_count;
    int expected_results[64], expected_result_count;
    int op;
    ecs_sched_result schedule_failure;   /* the model's: a queuing system's first failure */
    int watched[MACHINES];               /* the value the in_state and in_stack systems ask */
    uint32_t seen_changes[MACHINES];     /* the model of state_changed's memory */
    unsigned ran;                        /* the guarded systems that ran, a bit each */
} fuzz;

static fuzz F;

static void fail(const char *what, long expected, long got) {
    fprintf(stderr, "fuzz_states: operation %d: %s: expected %ld, got %ld\n", F.op, what,
            expected, got);
    abort();
}

static int model_alive(void) {
    int i, n = 0;
    for (i = 0; i < F.entity_count; i++) n += F.entities[i].alive;
    return n;
}

/* Queuing, as checked when it is asked for. */
static ecs_sched_result model_queue(int i, int request, int value) {
    model_machine *m = &F.m[i];
    if (m->kind == COMPUTED) return ECS_SCHED_ERR_INVALID_ARGUMENT;
    if (m->kind == SUB && m->value == NONE) return ECS_SCHED_ERR_STATE_ABSENT;
    if (request == REQ_PUSH && m->depth >= m->capacity) return ECS_SCHED_ERR_LIMIT;
    if (request == REQ_POP && m->depth == 0) return ECS_SCHED_ERR_INVALID_ARGUMENT;
    m->request = request;
    m->request_value = value;
    return ECS_SCHED_OK;
}

static void keep_first(ecs_sched_result *first, ecs_sched_result r) {
    if (*first == ECS_SCHED_OK) *first = r;
}

/* The request waiting in the machine's slot, if it still fits the stack. */
static void model_take(int i, step *s, ecs_sched_result *first) {
    model_machine *m = &F.m[i];
    int request = m->request;
    m->request = REQ_NONE;
    if (request == REQ_PUSH && m->depth >= m->capacity) {
        keep_first(first, ECS_SCHED_ERR_LIMIT);
        return;
    }
    if (request == REQ_POP && m->depth == 0) {
        keep_first(first, ECS_SCHED_ERR_INVALID_ARGUMENT);
        return;
    }
    if (request == REQ_PUSH) {
        s->request = REQ_PUSH;
        s->to = m->request_value;
        s->moves = true;
    } else if (request == REQ_POP) {
        s->request = REQ_POP;
        s->to = m->stack[m->depth - 1];
        s->moves = true;
    } else if (request == REQ_SET || request == REQ_REENTER) {
        s->to = m->request_value;
        if (s->to != s->from) {
            s->moves = true;
        } else if (request == REQ_REENTER) {
            s->moves = true;
            s->restarts = true;
        }
    }
}

static int table_index(const model_machine *m, const int *values) {
    int k, index = 0;
    for (k = 0; k < m->source_count; k++) index = index * (VALUES + 1) + (values[k] + 1);
    return index;
}

static void model_plan(int only, step *steps, ecs_sched_result *first) {
    int i, k;
    for (i = 0; i < F.machine_count; i++) {
        model_machine *m = &F.m[i];
        step *s = &steps[i];
        memset(s, 0, sizeof *s);
        s->from = s->to = m->value;
        s->request = REQ_SET;
        s->included = only < 0 || only == i;
        for (k = 0; k < m->source_count; k++) {
            if (steps[m->sources[k]].included) s->included = true;
        }
        if (!s->included) continue;
        if (m->kind == ROOT) {
            if (m->entered) {
                model_take(i, s, first);
            } else {
                s->to = m->initial;
                s->moves = true;
            }
        } else if (m->kind == COMPUTED) {
            int values[2], to;
            bool moved = false, restarted = false;
            for (k = 0; k < m->source_count; k++) {
                values[k] = steps[m->sources[k]].to;
                if (steps[m->sources[k]].moves) moved = true;
                if (steps[m->sources[k]].restarts) restarted = true;
            }
            if (m->entered && !moved) continue;
            m->entered = true;
            to = m->table[table_index(m, values)];
            if (to != NONE && (to < 0 || to >= m->count)) {
                keep_first(first, ECS_SCHED_ERR_INVALID_ARGUMENT);
                continue;
            }
            s->to = to;
            if (to != s->from) s->moves = true;
            if (to == s->from && to != NONE && restarted) s->moves = s->restarts = true;
        } else {
            const step *parent = &steps[m->sources[0]];
            bool exists = parent->to != NONE && m->parent_values[parent->to];
            if (exists && s->from != NONE && !parent->restarts) {
                model_take(i, s, first);
                continue;
            }
            m->request = REQ_NONE;
            s->to = exists ? m->initial : NONE;
            s->moves = exists || s->from != NONE;
            s->restarts = exists && s->from != NONE;
            s->unwinds = s->moves && m->depth > 0;
        }
    }
}

/* A spawn command of a system in a transition schedule: the entity is there when the
   schedule's run ends, that is before the next schedule runs (one system logs, one queues). */
static void model_spawn_scoped(int machine, int on_exit) {
    model_entity *e;
    if (F.model_spawned == MAX_SPAWNED) return;
    F.model_spawned++;
    e = &F.entities[F.entity_count++];
    memset(e, 0, sizeof *e);
    e->id = ECS_SCHED_NULL_ENTITY;   /* known once the library's apply has run */
    e->alive = true;
    e->scopes = 1;
    e->machine[0] = machine;
    e->on_exit[0] = on_exit;
    e->on_enter[0] = NONE;
}

static void model_event(int kind, int machine, int a, int b) {
    event e;
    int r;
    bool found = false;
    e.kind = kind;
    e.machine = machine;
    e.a = a;
    e.b = b;
    e.seen = F.m[machine].value;
    e.alive = model_alive();
    log_add(&F.expected, e);
    for (r = 0; r < F.reactor_count; r++) {
        const reactor *x = &F.reactors[r];
        if (found || x->machine != machine || x->kind != kind || x->value != a ||
            (kind == EV_TRANSITION && x->to != b)) {
            continue;
        }
        found = true;   /* one queuing system per schedule */
        {
            /* a refused queuing is the system's failure, and so the schedule's; an apply
               inside a transition schedule applies nothing */
            ecs_sched_result result = ECS_SCHED_OK;
            if (x->request == REQ_SPAWN) {
                model_spawn_scoped(x->target, x->request_value);
            } else if (x->request != REQ_APPLY) {
                result = model_queue(x->target, x->request, x->request_value);
            }
            keep_first(&F.schedule_failure, result);
            if (F.expected_result_count < 64) {
                F.expected_results[F.expected_result_count++] = r * 100 - (int)result;
            }
        }
    }
}

static void model_despawn_scoped(int machine, int value, bool on_exit) {
    int i, k;
    for (i = 0; i < F.entity_count; i++) {
        model_entity *e = &F.entities[i];
        if (!e->alive) continue;
        for (k = 0; k < e->scopes; k++) {
            if (e->machine[k] == machine && (on_exit ? e->on_exit[k] : e->on_enter[k]) == value) {
                e->alive = false;
            }
        }
    }
}

static void model_exit_value(int i, int value) {
    model_event(EV_EXIT, i, value, 0);
    model_despawn_scoped(i, value, true);
}

static ecs_sched_result model_apply(int only) {
    step steps[MACHINES];
    ecs_sched_result first = ECS_SCHED_OK;
    int i, d;
    F.schedule_failure = ECS_SCHED_OK;
    model_plan(only, steps, &first);
    for (i = F.machine_count - 1; i >= 0; i--) {
        const step *s = &steps[i];
        if (!s->moves || s->from == NONE) continue;
        if (s->request == REQ_PUSH) {
            model_event(EV_PAUSE, i, s->from, 0);
            continue;
        }
        model_exit_value(i, s->from);
        if (s->unwinds) {
            for (d = F.m[i].depth - 1; d >= 0; d--) model_exit_value(i, F.m[i].stack[d]);
        }
    }
    for (i = 0; i < F.machine_count; i++) {
        const step *s = &steps[i];
        model_machine *m = &F.m[i];
        if (!s->moves) continue;
        if (s->request == REQ_PUSH) m->stack[m->depth++] = s->from;
        if (s->request == REQ_POP) m->depth--;
        if (s->unwinds) m->depth = 0;
        m->value = s->to;
        m->changes++;
        m->entered = true;
        m->last_from = s->from;
        m->last_to = s->to;
        if (s->from != NONE && s->to != NONE && s->request == REQ_SET) {
            model_event(EV_TRANSITION, i, s->from, s->to);
        }
    }
    for (i = 0; i < F.machine_count; i++) {
        const step *s = &steps[i];
        if (!s->moves || s->to == NONE) continue;
        if (s->request == REQ_POP) {
            model_event(EV_RESUME, i, s->to, 0);
            continue;
        }
        model_despawn_scoped(i, s->to, false);
        model_event(EV_ENTER, i, s->to, 0);
    }
    keep_first(&first, F.schedule_failure);
    return first;
}

/* ---- the systems in the library's world ---- */

typedef struct logger {
    int kind, machine, a, b;
} logger;

static logger loggers[MACHINES * VALUES * 4 + MACHINES * VALUES * VALUES];

static void log_system(ecs_sched_system_ctx *ctx) {
    const logger *l = (const logger *)ecs_sched_ctx_user_data(ctx);
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    event e;
    e.kind = l->kind;
    e.machine = l->machine;
    e.a = l->a;
    e.b = l->b;
    e.seen = w ? ecs_sched_state_get(w, F.ids[l->machine]) : -100;
    e.alive = w ? ecs_sched_entity_count(w) : -100;
    log_add(&F.got, e);
}

static void react_system(ecs_sched_system_ctx *ctx) {
    int r = (int)(intptr_t)ecs_sched_ctx_user_data(ctx);
    const reactor *x = &F.reactors[r];
    ecs_sched_id id = F.ids[x->target];
    ecs_sched_result result;
    if (x->request == REQ_SPAWN) {
        ecs_sched_state_scoped scope = ecs_sched_despawn_on_exit(x->request_value);
        ecs_sched_id scope_id = ecs_sched_state_scope_id(F.w, id);
        const void *values[1];
        ecs_sched_entity e;
        values[0] = &scope;
        result = ECS_SCHED_OK;
        if (F.library_spawned < MAX_SPAWNED) {
            F.library_spawned++;
            e = ecs_sched_commands_spawn_with(ecs_sched_ctx_commands(ctx), 1, &scope_id, values);
            if (e == ECS_SCHED_NULL_ENTITY) result = ECS_SCHED_ERR_INVALID_ARGUMENT;
            else F.spawned[F.spawned_count++] = e;
        }
        if (F.got_result_count < 64) F.got_results[F.got_result_count++] = r * 100 - (int)result;
        return;
    }
    switch (x->request) {
    case REQ_APPLY: result = ecs_sched_state_apply(ecs_sched_ctx_world(ctx), 0); break;
    case REQ_SET: result = ecs_sched_ctx_state_set(ctx, id, x->request_value); break;
    case REQ_REENTER: result = ecs_sched_ctx_state_set_reenter(ctx, id, x->request_value); break;
    case REQ_PUSH: result = ecs_sched_ctx_state_push(ctx, id, x->request_value); break;
    default: result = ecs_sched_ctx_state_pop(ctx, id); break;
    }
    if (F.got_result_count < 64) F.got_results[F.got_result_count++] = r * 100 - (int)result;
}

/* In the frame, after the apply: one system per state condition and machine, noting that it
   ran. */
enum { COND_IN_STATE, COND_IN_STACK, COND_CHANGED, COND_EXISTS, CONDS };

static void note_ran(ecs_sched_system_ctx *ctx) {
    F.ran |= 1u << (int)(intptr_t)ecs_sched_ctx_user_data(ctx);
}

static void add_guarded(int i) {
    static const char *const names[CONDS] = {"in_state", "in_stack", "changed", "exists"};
    ecs_sched_id id = F.ids[i];
    int k;
    for (k = 0; k < CONDS; k++) {
        ecs_sched_system_desc desc;
        ecs_sched_condition cond = k == COND_IN_STATE ? ecs_sched_condition_in_state(id, F.watched[i])
                                 : k == COND_IN_STACK ? ecs_sched_condition_state_in_stack(id, F.watched[i])
                                 : k == COND_CHANGED ? ecs_sched_condition_state_changed(id)
                                 : ecs_sched_condition_state_exists(id);
        memset(&desc, 0, sizeof desc);
        desc.name = names[k];
        desc.fn = note_ran;
        desc.user_data = (void *)(intptr_t)(i * CONDS + k);
        desc.run_if[0] = &cond;
        desc.after[0] = "apply_state_transitions";
        if (ecs_sched_add_system(F.w, "Frame", &desc) != ECS_SCHED_OK) abort();
    }
}

/* What the guarded systems of the frame should do, after the model's apply. */
static unsigned model_guarded(void) {
    unsigned ran = 0;
    int i, d;
    for (i = 0; i < F.machine_count; i++) {
        const model_machine *m = &F.m[i];
        bool in_stack = m->value == F.watched[i];
        for (d = 0; d < m->depth; d++) in_stack = in_stack || m->stack[d] == F.watched[i];
        if (m->value == F.watched[i]) ran |= 1u << (i * CONDS + COND_IN_STATE);
        if (in_stack) ran |= 1u << (i * CONDS + COND_IN_STACK);
        if (m->changes != F.seen_changes[i]) ran |= 1u << (i * CONDS + COND_CHANGED);
        if (m->value != NONE) ran |= 1u << (i * CONDS + COND_EXISTS);
        F.seen_changes[i] = m->changes;
    }
    return ran;
}

static const char *schedule_label(int kind, int machine, int a, int b) {
    ecs_sched_id id = F.ids[machine];
    switch (kind) {
    case EV_ENTER: return ecs_sched_on_enter(F.w, id, a);
    case EV_EXIT: return ecs_sched_on_exit(F.w, id, a);
    case EV_PAUSE: return ecs_sched_on_pause(F.w, id, a);
    case EV_RESUME: return ecs_sched_on_resume(F.w, id, a);
    default: return ecs_sched_on_transition(F.w, id, a, b);
    }
}

static void add_logger(int *n, int kind, int machine, int a, int b) {
    ecs_sched_system_desc desc;
    const char *label = schedule_label(kind, machine, a, b);
    logger *l = &loggers[(*n)++];
    l->kind = kind;
    l->machine = machine;
    l->a = a;
    l->b = b;
    memset(&desc, 0, sizeof desc);
    desc.name = "log";
    desc.fn = log_system;
    desc.exclusive = true;
    desc.user_data = l;
    if (!label || ecs_sched_add_system(F.w, label, &desc) != ECS_SCHED_OK) {
        fprintf(stderr, "fuzz_states: adding a logging system failed\n");
        abort();
    }
}

static void add_reactor(int r) {
    const reactor *x = &F.reactors[r];
    ecs_sched_system_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.name = "react";
    desc.fn = react_system;
    desc.user_data = (void *)(intptr_t)r;
    desc.writes[0] = ecs_sched_state_next_id(F.w, F.ids[x->target]);
    desc.exclusive = x->request == REQ_APPLY;
    desc.commands = x->request == REQ_SPAWN;
    desc.after[0] = "log";   /* an exclusive system: the order between them would be free */
    if (ecs_sched_add_system(F.w, schedule_label(x->kind, x->machine, x->value, x->to), &desc) !=
        ECS_SCHED_OK) {
        fprintf(stderr, "fuzz_states: adding a queuing system failed\n");
        abort();
    }
}

static int32_t compute_from_table(const int32_t *sources, void *user_data) {
    const model_machine *m = (const model_machine *)user_data;
    int values[2], k;
    for (k = 0; k < m->source_count; k++) values[k] = sources[k];
    return m->table[table_index(m, values)];
}

/* Quiet, unless FUZZ_VERBOSE is set in the environment (to read a failing input's story). */
static void quiet(ecs_sched_log_level level, ecs_sched_result result, const char *message,
                  void *user_data) {
    (void)level;
    (void)user_data;
    if (getenv("FUZZ_VERBOSE")) {
        fprintf(stderr, "  [%s] %s\n", ecs_sched_result_string(result), message);
    }
}

/* ---- building the world from the header ---- */

static const char *const machine_names[MACHINES] = {"A", "B", "C", "D"};
static const char *const value_names[VALUES] = {"V0", "V1", "V2"};

static void read_machine(reader *r, int i) {
    model_machine *m = &F.m[i];
    int kind = i == 0 ? ROOT : take(r) % 3, k;
    memset(m, 0, sizeof *m);
    m->kind = kind;
    m->count = 1 + take(r) % VALUES;
    m->value = NONE;
    m->last_from = m->last_to = NONE;
    if (kind == ROOT || kind == SUB) {
        m->initial = take(r) % m->count;
        m->capacity = 1 + take(r) % 3;
    }
    if (kind == COMPUTED) {
        m->source_count = 1 + take(r) % 2;
        for (k = 0; k < m->source_count; k++) m->sources[k] = take(r) % i;
        for (k = 0; k < TABLE; k++) {
            uint8_t b = take(r);
            /* now and then a result that is not one of its values: refused by the apply */
            m->table[k] = b == 0xff ? m->count : (int)(b % (m->count + 1)) - 1;
        }
    }
    if (kind == SUB) {
        uint8_t mask = take(r);
        m->source_count = 1;
        m->sources[0] = take(r) % i;
        for (k = 0; k < F.m[m->sources[0]].count; k++) m->parent_values[k] = (mask >> k) & 1u;
        if (!(mask & ((1u << F.m[m->sources[0]].count) - 1))) m->parent_values[0] = true;
    }
}

static ecs_sched_id *register_again_id;   /* set: registering again, the id goes there */

static void register_machine(int i) {
    const model_machine *m = &F.m[i];
    ecs_sched_state_desc desc;
    int k;
    memset(&desc, 0, sizeof desc);
    desc.name = machine_names[i];
    for (k = 0; k < m->count; k++) desc.values[k] = value_names[k];
    if (m->kind != COMPUTED) {
        desc.initial = m->initial;
        desc.stack_capacity = m->capacity;
    }
    if (m->kind == COMPUTED) {
        for (k = 0; k < m->source_count; k++) desc.sources[k] = F.ids[m->sources[k]];
        desc.compute = compute_from_table;
        desc.user_data = (void *)m;
    }
    if (m->kind == SUB) {
        desc.parent = F.ids[m->sources[0]];
        for (k = 0; k < VALUES; k++) desc.parent_values[k] = m->parent_values[k];
    }
    if (register_again_id) {
        *register_again_id = ecs_sched_state_register(F.w, &desc);
        return;
    }
    F.ids[i] = ecs_sched_state_register(F.w, &desc);
    if (!F.ids[i]) {
        fprintf(stderr, "fuzz_states: registering machine %s failed\n", machine_names[i]);
        abort();
    }
}

static void read_reactor(reader *r) {
    reactor *x = &F.reactors[F.reactor_count];
    const model_machine *m;
    x->machine = take(r) % F.machine_count;
    m = &F.m[x->machine];
    x->kind = take(r) % 5;
    x->value = take(r) % m->count;
    x->to = take(r) % m->count;
    x->target = take(r) % F.machine_count;
    x->request = 1 + take(r) % (REQUESTS - 1);
    x->request_value = take(r) % F.m[x->target].count;
    if (x->kind != EV_TRANSITION) x->to = 0;
    F.reactor_count++;
}

static void build(reader *r) {
    int i, a, b, kind, n = 0, count;
    ecs_sched_world_desc wd;
    ecs_sched_system_desc apply;
    ecs_sched_schedule_desc frame;
    memset(&wd, 0, sizeof wd);
    wd.logger.fn = quiet;
    /* no pool: threads would make each input slow, and states do not need them */
    wd.executor = ECS_SCHED_EXECUTOR_SINGLE_THREADED;
    wd.thread_count = 1;
    F.w = ecs_sched_world_create(&wd);
    if (!F.w) abort();
    F.machine_count = 1 + take(r) % MACHINES;
    for (i = 0; i < F.machine_count; i++) read_machine(r, i);
    for (i = 0; i < F.machine_count; i++) register_machine(i);
    count = take(r) % (MAX_REACTORS + 1);
    for (i = 0; i < count; i++) read_reactor(r);
    for (i = 0; i < F.machine_count; i++) {
        for (a = 0; a < F.m[i].count; a++) {
            for (kind = EV_ENTER; kind <= EV_RESUME; kind++) add_logger(&n, kind, i, a, 0);
            for (b = 0; b < F.m[i].count; b++) add_logger(&n, EV_TRANSITION, i, a, b);
        }
    }
    for (i = 0; i < F.reactor_count; i++) {
        int j;
        bool taken = false;   /* one queuing system per schedule: their order would be free */
        for (j = 0; j < i; j++) {
            taken = taken || (F.reactors[j].machine == F.reactors[i].machine &&
                              F.reactors[j].kind == F.reactors[i].kind &&
                              F.reactors[j].value == F.reactors[i].value &&
                              F.reactors[j].to == F.reactors[i].to);
        }
        if (taken) F.reactors[i].kind = -1;   /* never matches a schedule the model runs */
        else add_reactor(i);
    }
    /* the apply system's failure does not keep the guarded systems after it from running */
    memset(&frame, 0, sizeof frame);
    frame.on_error = ECS_SCHED_ON_ERROR_CONTINUE;
    if (ecs_sched_schedule_configure(F.w, "Frame", &frame) != ECS_SCHED_OK) abort();
    apply = ecs_sched_state_transitions_system(0);
    if (ecs_sched_add_system(F.w, "Frame", &apply) != ECS_SCHED_OK) abort();
    for (i = 0; i < F.machine_count; i++) {
        F.watched[i] = take(r) % F.m[i].count;
        add_guarded(i);
    }
}

/* ---- comparing ---- */

static void compare_logs(void) {
    int i;
    for (i = 0; i < F.expected.count || i < F.got.count; i++) {
        const event *e = i < F.expected.count ? &F.expected.items[i] : NULL;
        const event *g = i < F.got.count ? &F.got.items[i] : NULL;
        if (e && g && e->kind == g->kind && e->machine == g->machine && e->a == g->a &&
            e->b == g->b && e->seen == g->seen && e->alive == g->alive) {
            continue;
        }
        fprintf(stderr, "fuzz_states: operation %d: event %d of the apply differs:\n", F.op, i);
        if (e) {
            fprintf(stderr, "  expected %s(%s::%d%s%d) seeing %d with %d alive\n",
                    event_names[e->kind], machine_names[e->machine], e->a,
                    e->kind == EV_TRANSITION ? ", " : "", e->kind == EV_TRANSITION ? e->b : 0,
                    e->seen, e->alive);
        } else {
            fprintf(stderr, "  expected nothing more\n");
        }
        if (g) {
            fprintf(stderr, "  got      %s(%s::%d%s%d) seeing %d with %d alive\n",
                    event_names[g->kind], machine_names[g->machine], g->a,
                    g->kind == EV_TRANSITION ? ", " : "", g->kind == EV_TRANSITION ? g->b : 0,
                    g->seen, g->alive);
        } else {
            fprintf(stderr, "  got nothing more\n");
        }
        abort();
    }
    if (F.expected_result_count != F.got_result_count) {
        fail("systems that queued", F.expected_result_count, F.got_result_count);
    }
    for (i = 0; i < F.got_result_count; i++) {
        if (F.expected_results[i] != F.got_results[i]) {
            fail("queuing system and result (system * 100 - result)", F.expected_results[i],
                 F.got_results[i]);
        }
    }
}

static void compare_world(void) {
    int i;
    char what[96];
    for (i = 0; i < F.machine_count; i++) {
        const model_machine *m = &F.m[i];
        const ecs_sched_state_current *current =
            (const ecs_sched_state_current *)ecs_sched_resource_get(F.w, F.ids[i]);
        ecs_sched_state_transition last;
        snprintf(what, sizeof what, "machine %s: value", machine_names[i]);
        if (ecs_sched_state_get(F.w, F.ids[i]) != m->value) {
            fail(what, m->value, ecs_sched_state_get(F.w, F.ids[i]));
        }
        snprintf(what, sizeof what, "machine %s: stack depth", machine_names[i]);
        if (ecs_sched_state_depth(F.w, F.ids[i]) != m->depth) {
            fail(what, m->depth, ecs_sched_state_depth(F.w, F.ids[i]));
        }
        snprintf(what, sizeof what, "machine %s: changes (0: no State resource)",
                 machine_names[i]);
        if ((current ? (long)current->changes : 0) != (long)m->changes) {
            fail(what, (long)m->changes, current ? (long)current->changes : 0);
        }
        if (ecs_sched_state_last_transition(F.w, F.ids[i], &last) != ECS_SCHED_OK) {
            fail("state_last_transition's result", ECS_SCHED_OK, -1);
        }
        snprintf(what, sizeof what, "machine %s: last transition from*10+to", machine_names[i]);
        if (last.from * 10 + last.to != m->last_from * 10 + m->last_to) {
            fail(what, m->last_from * 10 + m->last_to, last.from * 10 + last.to);
        }
    }
    for (i = 0; i < F.entity_count; i++) {
        snprintf(what, sizeof what, "entity %d (index in the model) alive", i);
        if (ecs_sched_is_alive(F.w, F.entities[i].id) != F.entities[i].alive) {
            fail(what, F.entities[i].alive, !F.entities[i].alive);
        }
    }
    if (ecs_sched_entity_count(F.w) != model_alive()) {
        fail("entities alive", model_alive(), ecs_sched_entity_count(F.w));
    }
}

/* ---- operations ---- */

static void check_result(const char *what, ecs_sched_result expected, ecs_sched_result got) {
    if (expected != got) fail(what, (long)expected, (long)got);
}

static void op_queue(reader *r, int request) {
    int i = take(r) % F.machine_count;
    int value = take(r) % F.m[i].count;
    ecs_sched_id id = F.ids[i];
    ecs_sched_result got;
    switch (request) {
    case REQ_SET: got = ecs_sched_state_set(F.w, id, value); break;
    case REQ_REENTER: got = ecs_sched_state_set_reenter(F.w, id, value); break;
    case REQ_PUSH: got = ecs_sched_state_push(F.w, id, value); break;
    default: got = ecs_sched_state_pop(F.w, id); break;
    }
    check_result("queuing's result", model_queue(i, request, value), got);
}

/* The entities the queuing systems spawned, in the order the model spawned them. */
static void name_spawned(void) {
    int i, k = 0;
    for (i = 0; i < F.entity_count; i++) {
        if (F.entities[i].id != ECS_SCHED_NULL_ENTITY) continue;
        if (k == F.spawned_count) fail("entities spawned by systems", k + 1, F.spawned_count);
        F.entities[i].id = F.spawned[k++];
    }
    if (k != F.spawned_count) fail("entities spawned by systems", k, F.spawned_count);
    if (getenv("FUZZ_VERBOSE") && F.spawned_count) fprintf(stderr, "  spawned %d\n", F.spawned_count);
    F.spawned_count = 0;
}

static void op_apply(reader *r, int how) {
    int only = how == 1 ? take(r) % F.machine_count : -1;
    ecs_sched_result expected, got;
    F.got.count = F.expected.count = 0;
    F.got_result_count = F.expected_result_count = 0;
    expected = model_apply(only);
    if (how == 2) {
        /* the apply's failure is the apply system's, so the run's */
        unsigned ran;
        F.ran = 0;
        got = ecs_sched_run_schedule(F.w, "Frame");
        check_result("running the schedule with the apply system", expected, got);
        ran = model_guarded();
        if (F.ran != ran) {
            fail("systems guarded by state conditions that ran (a bit per machine * 4 + "
                 "in_state, in_stack, changed, exists)", (long)ran, (long)F.ran);
        }
    } else {
        got = ecs_sched_state_apply(F.w, only >= 0 ? F.ids[only] : 0);
        check_result("state_apply's result", expected, got);
    }
    compare_logs();
    name_spawned();
}

static void op_spawn(reader *r) {
    model_entity *e;
    int k;
    if (F.entity_count - F.model_spawned >= MAX_ENTITIES) return;
    e = &F.entities[F.entity_count];
    memset(e, 0, sizeof *e);
    e->id = ecs_sched_spawn(F.w);
    e->alive = e->id != ECS_SCHED_NULL_ENTITY;
    if (!e->alive) fail("spawn", 1, 0);
    e->scopes = 1 + take(r) % 2;
    for (k = 0; k < e->scopes; k++) {
        ecs_sched_state_scoped scope;
        int i = take(r) % F.machine_count;
        uint8_t b = take(r);
        e->machine[k] = i;
        e->on_exit[k] = (int)(b % (F.m[i].count + 1)) - 1;
        e->on_enter[k] = (int)((b / 4) % (F.m[i].count + 1)) - 1;
        if (k == 1 && i == e->machine[0]) {   /* a component once per entity: the second replaces */
            e->machine[0] = i;
            e->on_exit[0] = e->on_exit[1];
            e->on_enter[0] = e->on_enter[1];
            e->scopes = 1;
        }
        scope.on_exit = e->on_exit[k];
        scope.on_enter = e->on_enter[k];
        check_result("inserting a scope", ECS_SCHED_OK,
                     ecs_sched_insert(F.w, e->id, ecs_sched_state_scope_id(F.w, F.ids[i]), &scope));
    }
    F.entity_count++;
}

/* Registering a machine again with another initial value: it replaces the first until the
   machine has had a value, then it is refused. */
static void op_register_again(reader *r) {
    int i = take(r) % F.machine_count, initial, old;
    ecs_sched_id id, expected;
    if (F.m[i].kind == COMPUTED) return;
    initial = take(r) % F.m[i].count;
    old = F.m[i].initial;
    expected = initial == old || !F.m[i].entered ? F.ids[i] : 0;
    F.m[i].initial = initial;
    register_again_id = &id;
    register_machine(i);
    register_again_id = NULL;
    if (!expected) F.m[i].initial = old;
    if (id != expected) fail("the id registering a machine again gives", (long)expected, (long)id);
}

static void op_despawn(reader *r) {
    model_entity *e;
    if (F.entity_count == 0) return;
    e = &F.entities[take(r) % F.entity_count];
    if (!e->alive) return;
    check_result("despawn", ECS_SCHED_OK, ecs_sched_despawn(F.w, e->id));
    e->alive = false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r;
    r.data = data;
    r.size = size;
    r.at = 0;
    memset(&F, 0, sizeof F);
    build(&r);
    for (F.op = 0; F.op < MAX_OPS && r.at < r.size; F.op++) {
        uint8_t op = take(&r);
        switch (op % 13) {
        case 0: case 1: op_queue(&r, REQ_SET); break;
        case 2: op_queue(&r, REQ_REENTER); break;
        case 3: op_queue(&r, REQ_PUSH); break;
        case 4: op_queue(&r, REQ_POP); break;
        case 5: case 6: op_apply(&r, 0); break;
        case 7: op_apply(&r, 1); break;
        case 8: op_apply(&r, 2); break;
        case 9: case 10: op_spawn(&r); break;
        case 11: op_despawn(&r); break;
        default: op_register_again(&r); break;
        }
        compare_world();
    }
    ecs_sched_world_destroy(F.w);
    return 0;
}
