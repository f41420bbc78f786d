/* state: state machines, their transitions and the schedules that run on them. */
#pragma once
#include "executor.h"

/* No value: the machine does not exist (yet). */
#define ECS_SCHED_STATE_NONE (-1)

typedef struct ecs_sched_state_desc {
    const char *name;                                 /* required, e.g. "GameState" */
    const char *values[ECS_SCHED_MAX_STATE_VALUES];   /* required: value i is named values[i] */
    int32_t initial;                                  /* entered at the first apply; default 0 */
} ecs_sched_state_desc;

/* The resource that holds a machine's current value; its id is the machine's id. It exists
   from the first apply of transitions on (ecs_sched_condition_state_exists). */
typedef struct ecs_sched_state_current {
    int32_t value;
    uint32_t changes;         /* transitions applied so far, the initial enter included */
} ecs_sched_state_current;

/* A machine's last transition. */
typedef struct ecs_sched_state_transition {
    int32_t from;             /* ECS_SCHED_STATE_NONE for the initial enter */
    int32_t to;               /* ECS_SCHED_STATE_NONE: no transition yet */
    bool this_run;            /* it happened during the current top-level schedule run (or,
                                 between runs, during the last one) */
} ecs_sched_state_transition;

/* Registers a state machine; returns its id, or 0. The same name with the same values gives
   the same id again; with other values it is ECS_SCHED_ERR_STATE_MISMATCH. */
ECS_SCHED_API ecs_sched_id ecs_sched_state_register(ecs_sched_world *world,
                                                    const ecs_sched_state_desc *desc);
/* The id of a machine's pending slot, to declare as a write by systems that queue values. */
ECS_SCHED_API ecs_sched_id ecs_sched_state_next_id(ecs_sched_world *world, ecs_sched_id machine);
/* The current value, or ECS_SCHED_STATE_NONE when the machine has none (or is unknown). */
ECS_SCHED_API int32_t ecs_sched_state_get(ecs_sched_world *world, ecs_sched_id machine);
/* A value's name ("Playing"), or NULL. */
ECS_SCHED_API const char *ecs_sched_state_value_name(ecs_sched_world *world,
                                                     ecs_sched_id machine, int32_t value);
/* Queues `value` for the next apply; queuing again before it replaces the value. Queuing the
   current value does nothing; _reenter asks for its OnExit and OnEnter to run again. */
ECS_SCHED_API ecs_sched_result ecs_sched_state_set(ecs_sched_world *world, ecs_sched_id machine,
                                                   int32_t value);
ECS_SCHED_API ecs_sched_result ecs_sched_state_set_reenter(ecs_sched_world *world,
                                                           ecs_sched_id machine, int32_t value);
/* The same from a running system: reading needs the machine's id in `reads`, queuing its
   ecs_sched_state_next_id in `writes` (else ECS_SCHED_ERR_ACCESS). */
ECS_SCHED_API int32_t ecs_sched_ctx_state(ecs_sched_system_ctx *ctx, ecs_sched_id machine);
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_state_set(ecs_sched_system_ctx *ctx,
                                                       ecs_sched_id machine, int32_t value);
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_state_set_reenter(ecs_sched_system_ctx *ctx,
                                                               ecs_sched_id machine,
                                                               int32_t value);
/* The labels of a machine's transition schedules, owned by the world:
   "OnEnter(GameState::Playing)", "OnExit(GameState::Playing)",
   "OnTransition(GameState::Menu, GameState::Playing)". NULL for an unknown machine or a
   value out of range. Add systems to them like to any schedule. */
ECS_SCHED_API const char *ecs_sched_on_enter(ecs_sched_world *world, ecs_sched_id machine,
                                             int32_t value);
ECS_SCHED_API const char *ecs_sched_on_exit(ecs_sched_world *world, ecs_sched_id machine,
                                            int32_t value);
ECS_SCHED_API const char *ecs_sched_on_transition(ecs_sched_world *world, ecs_sched_id machine,
                                                  int32_t from, int32_t to);
/* The exclusive system that applies the queued transitions of every machine: use it as a
   system's fn (with .exclusive = true), in any schedule, as many times as needed. */
ECS_SCHED_API void ecs_sched_apply_state_transitions(ecs_sched_system_ctx *ctx);
/* A system desc for it, named "apply_state_transitions", for one machine (0: every machine);
   set its ordering fields and add it. */
ECS_SCHED_API ecs_sched_system_desc ecs_sched_state_transitions_system(ecs_sched_id machine);
ECS_SCHED_API ecs_sched_result ecs_sched_state_last_transition(ecs_sched_world *world,
                                                               ecs_sched_id machine,
                                                               ecs_sched_state_transition *out);
/* The same from a running system, which declares the machine's id in `reads`. */
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_state_last_transition(
    ecs_sched_system_ctx *ctx, ecs_sched_id machine, ecs_sched_state_transition *out);
/* Conditions on a machine; each declares a read of the machine's id. state_changed is true
   when the machine changed value (or was re-entered) since this instance last looked. */
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_in_state(ecs_sched_id machine,
                                                               int32_t value);
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_state_exists(ecs_sched_id machine);
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_state_changed(ecs_sched_id machine);

/*@@ implementation @@*/
/* state: state machines, their transitions and the schedules that run on them. */

/* The pending slot of a machine (a resource, so that queuing is a declared write). */
typedef struct ecs_sched__state_next {
    int32_t value;
    int32_t request;                  /* ECS_SCHED__STATE_REQUEST_* */
} ecs_sched__state_next;

enum {
    ECS_SCHED__STATE_REQUEST_NONE,
    ECS_SCHED__STATE_REQUEST_SET,     /* nothing happens when it is the current value */
    ECS_SCHED__STATE_REQUEST_REENTER  /* exit and enter again when it is the current value */
};

/* Where a transition schedule is, found once: schedules are never removed, so a schedule
   found stays; a label not found is looked up again only after new schedules appear. */
typedef struct ecs_sched__schedule_ref {
    ecs_sched__schedule *schedule;
    uint32_t looked_at;               /* the schedule count when looked up, plus 1; 0: never */
} ecs_sched__schedule_ref;

typedef struct ecs_sched__state_machine {
    char *name;
    ecs_sched_id id;                  /* its current value's resource */
    ecs_sched_id next;                /* its pending slot's resource */
    int32_t value_count;
    int32_t initial;
    char **value_names;               /* value_count of each */
    char **enter_labels;
    char **exit_labels;
    char **transition_labels;         /* value_count * value_count, made when first asked */
    ecs_sched__schedule_ref *enter_refs, *exit_refs, *transition_refs;   /* the same shapes */
    bool entered;                     /* the first apply has entered the initial value */
    ecs_sched_state_transition last;
    uint64_t last_run;                /* the top-level run of the last transition */
} ecs_sched__state_machine;

/* What one apply does to one machine, decided before anything runs. */
typedef struct ecs_sched__state_step {
    ecs_sched__state_machine *m;
    int32_t from;                     /* ECS_SCHED_STATE_NONE: the initial enter */
    int32_t to;
    bool moves;                       /* something runs for this machine */
} ecs_sched__state_step;

struct ecs_sched__states {
    ecs_sched__state_machine *items;  /* in registration order */
    uint32_t count;
    uint32_t capacity;
    ecs_sched__state_step *steps;     /* one per machine: what an apply does, made ahead */
    uint32_t step_capacity;
    bool applying;                    /* an apply is running its transition schedules */
};

/* ---- lookups ---- */

static ecs_sched__state_machine *ecs_sched__state_find(const ecs_sched_world *w,
                                                       ecs_sched_id machine) {
    uint32_t i;
    if (!w->states || !machine) return NULL;
    for (i = 0; i < w->states->count; i++) {
        if (w->states->items[i].id == machine) return &w->states->items[i];
    }
    return NULL;
}

/* The machine, or NULL with ECS_SCHED_ERR_UNKNOWN_STATE recorded for `operation`. */
static ecs_sched__state_machine *ecs_sched__state_known(ecs_sched_world *w, ecs_sched_id machine,
                                                        const char *operation) {
    ecs_sched__state_machine *m = ecs_sched__state_find(w, machine);
    if (!m) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_UNKNOWN_STATE,
                        "%s: id %u is not a state machine (register it with "
                        "ecs_sched_state_register)", operation, (unsigned)machine);
    }
    return m;
}

/* Whether `value` is one of m's values; records ECS_SCHED_ERR_INVALID_ARGUMENT if not. */
static bool ecs_sched__state_value_valid(ecs_sched_world *w, const ecs_sched__state_machine *m,
                                         int32_t value, const char *operation) {
    if (value >= 0 && value < m->value_count) return true;
    ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                    "%s: %d is not a value of state machine '%s' (its values are 0 to %d, "
                    "'%s' to '%s')", operation, (int)value, m->name, (int)m->value_count - 1,
                    m->value_names[0], m->value_names[m->value_count - 1]);
    return false;
}

static const ecs_sched_state_current *ecs_sched__state_current(const ecs_sched_world *w,
                                                               ecs_sched_id machine) {
    return machine < w->component_count ? (const ecs_sched_state_current *)w->resources[machine]
                                        : NULL;
}

static bool ecs_sched__state_is(const ecs_sched_world *w, ecs_sched_id machine, int32_t value) {
    const ecs_sched_state_current *current = ecs_sched__state_current(w, machine);
    return current && current->value == value;
}

static uint32_t ecs_sched__state_changes(const ecs_sched_world *w, ecs_sched_id machine) {
    const ecs_sched_state_current *current = ecs_sched__state_current(w, machine);
    return current ? current->changes : 0;
}

/* ---- registration ---- */

static void ecs_sched__strings_free(ecs_sched_world *w, char **strings, int32_t count) {
    int32_t i;
    if (!strings) return;
    for (i = 0; i < count; i++) ecs_sched__free(&w->env, strings[i]);
    ecs_sched__free(&w->env, strings);
}

static void ecs_sched__state_machine_free(ecs_sched_world *w, ecs_sched__state_machine *m) {
    ecs_sched__strings_free(w, m->value_names, m->value_count);
    ecs_sched__strings_free(w, m->enter_labels, m->value_count);
    ecs_sched__strings_free(w, m->exit_labels, m->value_count);
    ecs_sched__strings_free(w, m->transition_labels, m->value_count * m->value_count);
    ecs_sched__free(&w->env, m->enter_refs);
    ecs_sched__free(&w->env, m->exit_refs);
    ecs_sched__free(&w->env, m->transition_refs);
    ecs_sched__free(&w->env, m->name);
}

static void ecs_sched__states_free(ecs_sched_world *w) {
    uint32_t i;
    if (!w->states) return;
    for (i = 0; i < w->states->count; i++) ecs_sched__state_machine_free(w, &w->states->items[i]);
    ecs_sched__free(&w->env, w->states->items);
    ecs_sched__free(&w->env, w->states->steps);
    ecs_sched__free(&w->env, w->states);
    w->states = NULL;
}

/* A string made by printf, owned by the world's allocator; NULL when out of memory. */
static char *ecs_sched__state_format(ecs_sched_world *w, const char *fmt, ...) {
    char buffer[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(buffer, sizeof buffer, fmt, args);
    va_end(args);
    return ecs_sched__strdup(&w->env, buffer);
}

static int32_t ecs_sched__state_desc_value_count(const ecs_sched_state_desc *desc) {
    int32_t n = 0;
    while (n < ECS_SCHED_MAX_STATE_VALUES && desc->values[n]) n++;
    return n;
}

/* Whether an existing machine has exactly the values of desc. */
static bool ecs_sched__state_same_values(const ecs_sched__state_machine *m,
                                         const ecs_sched_state_desc *desc, int32_t count) {
    int32_t i;
    if (count != m->value_count || desc->initial != m->initial) return false;
    for (i = 0; i < count; i++) {
        if (strcmp(desc->values[i], m->value_names[i]) != 0) return false;
    }
    return true;
}

static ecs_sched_result ecs_sched__state_desc_check(ecs_sched_world *w,
                                                    const ecs_sched_state_desc *desc,
                                                    int32_t count) {
    int32_t i, j;
    if (!desc || !desc->name || !desc->name[0]) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "state_register: a state machine needs a name");
    }
    if (count == 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "state_register('%s'): give the names of its values in .values",
                               desc->name);
    }
    for (i = count; i < ECS_SCHED_MAX_STATE_VALUES; i++) {
        if (desc->values[i]) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "state_register('%s'): .values[%d] is NULL but .values[%d] "
                                   "is not; list the values without gaps",
                                   desc->name, (int)count, (int)i);
        }
    }
    for (i = 0; i < count; i++) {
        if (!desc->values[i][0]) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "state_register('%s'): value %d has an empty name",
                                   desc->name, (int)i);
        }
        for (j = 0; j < i; j++) {
            if (strcmp(desc->values[i], desc->values[j]) == 0) {
                return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                       "state_register('%s'): values %d and %d are both named "
                                       "'%s'", desc->name, (int)j, (int)i, desc->values[i]);
            }
        }
    }
    if (desc->initial < 0 || desc->initial >= count) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "state_register('%s'): initial value %d is not one of its %d "
                               "values", desc->name, (int)desc->initial, (int)count);
    }
    return ECS_SCHED_OK;
}

/* The names and labels of m, from desc; false when out of memory (m then half-filled, for
   ecs_sched__state_machine_free). */
static bool ecs_sched__state_machine_fill(ecs_sched_world *w, ecs_sched__state_machine *m,
                                          const ecs_sched_state_desc *desc, int32_t count) {
    int32_t i;
    m->value_count = count;
    m->initial = desc->initial;
    m->last.from = m->last.to = ECS_SCHED_STATE_NONE;
    m->name = ecs_sched__strdup(&w->env, desc->name);
    m->value_names = (char **)ecs_sched__calloc(&w->env, sizeof(char *) * (size_t)count);
    m->enter_labels = (char **)ecs_sched__calloc(&w->env, sizeof(char *) * (size_t)count);
    m->exit_labels = (char **)ecs_sched__calloc(&w->env, sizeof(char *) * (size_t)count);
    m->transition_labels =
        (char **)ecs_sched__calloc(&w->env, sizeof(char *) * (size_t)count * (size_t)count);
    m->enter_refs = (ecs_sched__schedule_ref *)ecs_sched__calloc(
        &w->env, sizeof(ecs_sched__schedule_ref) * (size_t)count);
    m->exit_refs = (ecs_sched__schedule_ref *)ecs_sched__calloc(
        &w->env, sizeof(ecs_sched__schedule_ref) * (size_t)count);
    m->transition_refs = (ecs_sched__schedule_ref *)ecs_sched__calloc(
        &w->env, sizeof(ecs_sched__schedule_ref) * (size_t)count * (size_t)count);
    if (!m->name || !m->value_names || !m->enter_labels || !m->exit_labels ||
        !m->transition_labels || !m->enter_refs || !m->exit_refs || !m->transition_refs) {
        return false;
    }
    for (i = 0; i < count; i++) {
        m->value_names[i] = ecs_sched__strdup(&w->env, desc->values[i]);
        m->enter_labels[i] = ecs_sched__state_format(w, "OnEnter(%s::%s)", desc->name,
                                                     desc->values[i]);
        m->exit_labels[i] = ecs_sched__state_format(w, "OnExit(%s::%s)", desc->name,
                                                    desc->values[i]);
        if (!m->value_names[i] || !m->enter_labels[i] || !m->exit_labels[i]) return false;
    }
    return true;
}

/* The resource types of a machine: "State(GameState)" and "NextState(GameState)". */
static bool ecs_sched__state_register_types(ecs_sched_world *w, ecs_sched__state_machine *m) {
    ecs_sched_component_desc c;
    char name[256];
    memset(&c, 0, sizeof c);
    c.name = name;
    snprintf(name, sizeof name, "State(%s)", m->name);
    c.size = sizeof(ecs_sched_state_current);
    m->id = ecs_sched_component_register(w, &c);
    snprintf(name, sizeof name, "NextState(%s)", m->name);
    c.size = sizeof(ecs_sched__state_next);
    m->next = m->id ? ecs_sched_component_register(w, &c) : 0;
    return m->id && m->next && ecs_sched_resource_insert(w, m->next, NULL) == ECS_SCHED_OK;
}

static ecs_sched__state_machine *ecs_sched__state_find_name(const ecs_sched_world *w,
                                                            const char *name) {
    uint32_t i;
    if (!w->states) return NULL;
    for (i = 0; i < w->states->count; i++) {
        if (strcmp(w->states->items[i].name, name) == 0) return &w->states->items[i];
    }
    return NULL;
}

ecs_sched_id ecs_sched_state_register(ecs_sched_world *w, const ecs_sched_state_desc *desc) {
    ecs_sched__state_machine m, *existing;
    int32_t count;
    ECS_SCHED__CHECK_WORLD(w);
    count = desc ? ecs_sched__state_desc_value_count(desc) : 0;
    if (ecs_sched__state_desc_check(w, desc, count) != ECS_SCHED_OK) return 0;
    if (w->states && w->states->applying) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "state_register('%s'): state transitions are being applied; register "
                        "state machines before (outside OnEnter, OnExit and OnTransition)",
                        desc->name);
        return 0;
    }
    existing = ecs_sched__state_find_name(w, desc->name);
    if (existing) {
        if (ecs_sched__state_same_values(existing, desc, count)) return existing->id;
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_STATE_MISMATCH,
                        "state_register('%s'): a state machine of that name is registered with "
                        "other values or another initial value; register it once, or give "
                        "the other machine another name", desc->name);
        return 0;
    }
    if (!w->states) {
        w->states = (ecs_sched__states *)ecs_sched__calloc(&w->env, sizeof *w->states);
        if (!w->states) {
            ecs_sched__out_of_memory(w, "registering a state machine");
            return 0;
        }
    }
    memset(&m, 0, sizeof m);
    if (!ECS_SCHED__GROW(&w->env, w->states->items, &w->states->capacity,
                         w->states->count + 1) ||
        !ECS_SCHED__GROW(&w->env, w->states->steps, &w->states->step_capacity,
                         w->states->count + 1) ||
        !ecs_sched__state_machine_fill(w, &m, desc, count)) {
        ecs_sched__state_machine_free(w, &m);
        ecs_sched__out_of_memory(w, "registering a state machine");
        return 0;
    }
    if (!ecs_sched__state_register_types(w, &m)) {
        ecs_sched__state_machine_free(w, &m);  /* the world's error says why */
        return 0;
    }
    w->states->items[w->states->count++] = m;
    return m.id;
}

/* ---- reading and queuing ---- */

ecs_sched_id ecs_sched_state_next_id(ecs_sched_world *w, ecs_sched_id machine) {
    const ecs_sched__state_machine *m;
    ECS_SCHED__CHECK_WORLD(w);
    m = ecs_sched__state_known(w, machine, "state_next_id");
    return m ? m->next : 0;
}

int32_t ecs_sched_state_get(ecs_sched_world *w, ecs_sched_id machine) {
    const ecs_sched_state_current *current;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__state_known(w, machine, "state_get")) return ECS_SCHED_STATE_NONE;
    current = ecs_sched__state_current(w, machine);
    return current ? current->value : ECS_SCHED_STATE_NONE;
}

const char *ecs_sched_state_value_name(ecs_sched_world *w, ecs_sched_id machine, int32_t value) {
    const ecs_sched__state_machine *m;
    ECS_SCHED__CHECK_WORLD(w);
    m = ecs_sched__state_known(w, machine, "state_value_name");
    if (!m || !ecs_sched__state_value_valid(w, m, value, "state_value_name")) return NULL;
    return m->value_names[value];
}

/* Writes a request into the pending slot `next` (already reached with the right access). */
static ecs_sched_result ecs_sched__state_queue(ecs_sched_world *w, ecs_sched_id machine,
                                               ecs_sched__state_next *next, int32_t value,
                                               int request, const char *operation) {
    const ecs_sched__state_machine *m = ecs_sched__state_known(w, machine, operation);
    if (!m) return w->env.last_result;
    if (!ecs_sched__state_value_valid(w, m, value, operation)) return w->env.last_result;
    next->value = value;
    next->request = request;
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__state_queue_world(ecs_sched_world *w, ecs_sched_id machine,
                                                     int32_t value, int request,
                                                     const char *operation) {
    const ecs_sched__state_machine *m;
    ECS_SCHED__CHECK_WORLD(w);
    m = ecs_sched__state_known(w, machine, operation);
    if (!m) return w->env.last_result;
    return ecs_sched__state_queue(w, machine,
                                  (ecs_sched__state_next *)w->resources[m->next], value,
                                  request, operation);
}

ecs_sched_result ecs_sched_state_set(ecs_sched_world *w, ecs_sched_id machine, int32_t value) {
    return ecs_sched__state_queue_world(w, machine, value, ECS_SCHED__STATE_REQUEST_SET,
                                        "state_set");
}

ecs_sched_result ecs_sched_state_set_reenter(ecs_sched_world *w, ecs_sched_id machine,
                                             int32_t value) {
    return ecs_sched__state_queue_world(w, machine, value, ECS_SCHED__STATE_REQUEST_REENTER,
                                        "state_set_reenter");
}

/* Whether a running system declared a read (or write) of the machine; refuses it if not. */
static bool ecs_sched__ctx_reads_state(ecs_sched_system_ctx *ctx,
                                       const ecs_sched__state_machine *m) {
    if (ecs_sched__ids_contain(ctx->reads, ctx->read_count, m->id) ||
        ecs_sched__ids_contain(ctx->writes, ctx->write_count, m->id)) {
        return true;
    }
    ecs_sched__ctx_refuse(ctx, "reads state machine '%s' without declaring it: add its id to "
                               "the desc's .reads", m->name);
    return false;
}

int32_t ecs_sched_ctx_state(ecs_sched_system_ctx *ctx, ecs_sched_id machine) {
    const ecs_sched__state_machine *m;
    const ecs_sched_state_current *current;
    ECS_SCHED_ASSERT(ctx != NULL);
    m = ecs_sched__state_known(ctx->world, machine, "ctx_state");
    if (!m || !ecs_sched__ctx_reads_state(ctx, m)) return ECS_SCHED_STATE_NONE;
    current = ecs_sched__state_current(ctx->world, machine);
    return current ? current->value : ECS_SCHED_STATE_NONE;
}

static ecs_sched_result ecs_sched__state_queue_ctx(ecs_sched_system_ctx *ctx,
                                                   ecs_sched_id machine, int32_t value,
                                                   int request, const char *operation) {
    const ecs_sched__state_machine *m;
    ecs_sched__state_next *next;
    ECS_SCHED_ASSERT(ctx != NULL);
    m = ecs_sched__state_known(ctx->world, machine, operation);
    if (!m) return ctx->world->env.last_result;
    next = (ecs_sched__state_next *)ecs_sched_ctx_resource_mut(ctx, m->next);
    if (!next) return ECS_SCHED_ERR_ACCESS;
    return ecs_sched__state_queue(ctx->world, machine, next, value, request, operation);
}

ecs_sched_result ecs_sched_ctx_state_set(ecs_sched_system_ctx *ctx, ecs_sched_id machine,
                                         int32_t value) {
    return ecs_sched__state_queue_ctx(ctx, machine, value, ECS_SCHED__STATE_REQUEST_SET,
                                      "ctx_state_set");
}

ecs_sched_result ecs_sched_ctx_state_set_reenter(ecs_sched_system_ctx *ctx, ecs_sched_id machine,
                                                 int32_t value) {
    return ecs_sched__state_queue_ctx(ctx, machine, value, ECS_SCHED__STATE_REQUEST_REENTER,
                                      "ctx_state_set_reenter");
}

ecs_sched_result ecs_sched_state_last_transition(ecs_sched_world *w, ecs_sched_id machine,
                                                 ecs_sched_state_transition *out) {
    const ecs_sched__state_machine *m;
    const ecs_sched__schedules *all;
    ECS_SCHED__CHECK_WORLD(w);
    m = ecs_sched__state_known(w, machine, "state_last_transition");
    if (!m) return w->env.last_result;
    if (!out) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "state_last_transition('%s'): needs somewhere to write", m->name);
    }
    all = w->schedules;
    *out = m->last;
    out->this_run = m->last.to != ECS_SCHED_STATE_NONE && all && m->last_run == all->top_runs;
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_ctx_state_last_transition(ecs_sched_system_ctx *ctx,
                                                     ecs_sched_id machine,
                                                     ecs_sched_state_transition *out) {
    const ecs_sched__state_machine *m;
    ECS_SCHED_ASSERT(ctx != NULL);
    m = ecs_sched__state_known(ctx->world, machine, "ctx_state_last_transition");
    if (!m) return ctx->world->env.last_result;
    if (!ecs_sched__ctx_reads_state(ctx, m)) return ECS_SCHED_ERR_ACCESS;
    return ecs_sched_state_last_transition(ctx->world, machine, out);
}

/* ---- labels ---- */

const char *ecs_sched_on_enter(ecs_sched_world *w, ecs_sched_id machine, int32_t value) {
    const ecs_sched__state_machine *m;
    ECS_SCHED__CHECK_WORLD(w);
    m = ecs_sched__state_known(w, machine, "on_enter");
    if (!m || !ecs_sched__state_value_valid(w, m, value, "on_enter")) return NULL;
    return m->enter_labels[value];
}

const char *ecs_sched_on_exit(ecs_sched_world *w, ecs_sched_id machine, int32_t value) {
    const ecs_sched__state_machine *m;
    ECS_SCHED__CHECK_WORLD(w);
    m = ecs_sched__state_known(w, machine, "on_exit");
    if (!m || !ecs_sched__state_value_valid(w, m, value, "on_exit")) return NULL;
    return m->exit_labels[value];
}

const char *ecs_sched_on_transition(ecs_sched_world *w, ecs_sched_id machine, int32_t from,
                                    int32_t to) {
    ecs_sched__state_machine *m;
    char **label;
    ECS_SCHED__CHECK_WORLD(w);
    m = ecs_sched__state_known(w, machine, "on_transition");
    if (!m || !ecs_sched__state_value_valid(w, m, from, "on_transition") ||
        !ecs_sched__state_value_valid(w, m, to, "on_transition")) {
        return NULL;
    }
    label = &m->transition_labels[from * m->value_count + to];
    if (!*label) {
        *label = ecs_sched__state_format(w, "OnTransition(%s::%s, %s::%s)", m->name,
                                         m->value_names[from], m->name, m->value_names[to]);
        if (!*label) ecs_sched__out_of_memory(w, "naming a transition schedule");
    }
    return *label;
}

/* ---- applying transitions ---- */

/* The schedule of `label`, or NULL while nobody has added anything to it. */
static ecs_sched__schedule *ecs_sched__schedule_of(ecs_sched_world *w, const char *label,
                                                   ecs_sched__schedule_ref *ref) {
    const ecs_sched__schedules *all = w->schedules;
    uint32_t count = all ? all->count : 0;
    if (ref->schedule || ref->looked_at == count + 1) return ref->schedule;
    ref->schedule = label ? ecs_sched__schedule_find(w, label) : NULL;
    ref->looked_at = count + 1;
    return ref->schedule;
}

/* Runs a transition schedule if anything was ever added to it; keeps the first failure. */
static void ecs_sched__state_run(ecs_sched_world *w, const char *label,
                                 ecs_sched__schedule_ref *ref, ecs_sched_result *first) {
    ecs_sched__schedule *s = ecs_sched__schedule_of(w, label, ref);
    ecs_sched_result result;
    if (!s) return;
    result = ecs_sched__run_schedule(w, s);
    if (result != ECS_SCHED_OK && *first == ECS_SCHED_OK) *first = result;
}

/* Takes m's request (the first apply: the initial value, the request waiting for the next). */
static ecs_sched__state_step ecs_sched__state_take(ecs_sched_world *w,
                                                   ecs_sched__state_machine *m) {
    ecs_sched__state_step step;
    ecs_sched__state_next *next = (ecs_sched__state_next *)w->resources[m->next];
    const ecs_sched_state_current *current = ecs_sched__state_current(w, m->id);
    step.m = m;
    step.from = current ? current->value : ECS_SCHED_STATE_NONE;
    step.to = step.from;
    step.moves = false;
    if (!m->entered) {   /* marked entered once the value is in place */
        step.to = m->initial;
        step.moves = true;
    } else if (next->request != ECS_SCHED__STATE_REQUEST_NONE) {
        step.to = next->value;
        step.moves = step.to != step.from || next->request == ECS_SCHED__STATE_REQUEST_REENTER;
        next->request = ECS_SCHED__STATE_REQUEST_NONE;
    }
    return step;
}

/* The new value in place, counted, and remembered as the last transition. */
static ecs_sched_result ecs_sched__state_change(ecs_sched_world *w, ecs_sched__state_step *step) {
    ecs_sched__state_machine *m = step->m;
    ecs_sched_state_current *current = (ecs_sched_state_current *)w->resources[m->id];
    const ecs_sched__schedules *all = w->schedules;
    if (!current) {
        ecs_sched_result result = ecs_sched_resource_insert(w, m->id, NULL);
        if (result != ECS_SCHED_OK) return result;
        current = (ecs_sched_state_current *)w->resources[m->id];
    }
    current->value = step->to;
    current->changes++;
    m->entered = true;
    m->last.from = step->from;
    m->last.to = step->to;
    m->last_run = all ? all->top_runs : 0;
    return ECS_SCHED_OK;
}

/* Applies the transitions queued when it starts, for one machine or all (NULL): the exits of
   every moving machine, last registered first; then each one's new value and OnTransition;
   then the enters, first registered first. A value queued meanwhile waits for the next apply.
   Returns the first failure of a transition schedule; the others still run. */
static ecs_sched_result ecs_sched__apply_transitions(ecs_sched_world *w,
                                                     const ecs_sched__state_machine *only) {
    ecs_sched__states *states = w->states;
    ecs_sched__state_step *steps;
    ecs_sched_result first = ECS_SCHED_OK;
    int32_t count = 0, i;
    /* an apply inside a transition schedule applies nothing: what was queued meanwhile waits
       for the next apply, as everywhere else */
    if (!states || states->count == 0 || states->applying) return ECS_SCHED_OK;
    steps = states->steps;
    states->applying = true;
    for (i = 0; i < (int32_t)states->count; i++) {
        ecs_sched__state_machine *m = &states->items[i];
        if (only && m != only) continue;
        steps[count] = ecs_sched__state_take(w, m);
        if (steps[count].moves) count++;
    }
    for (i = count - 1; i >= 0; i--) {
        ecs_sched__state_machine *m = steps[i].m;
        if (steps[i].from == ECS_SCHED_STATE_NONE) continue;
        ecs_sched__state_run(w, m->exit_labels[steps[i].from], &m->exit_refs[steps[i].from],
                             &first);
    }
    for (i = 0; i < count; i++) {
        ecs_sched__state_machine *m = steps[i].m;
        ecs_sched_result result = ecs_sched__state_change(w, &steps[i]);
        int32_t pair = steps[i].from * m->value_count + steps[i].to;
        if (result != ECS_SCHED_OK && first == ECS_SCHED_OK) first = result;
        if (steps[i].from == ECS_SCHED_STATE_NONE) continue;
        if (!m->transition_refs[pair].schedule) {   /* the label is made the first time */
            ecs_sched_on_transition(w, m->id, steps[i].from, steps[i].to);
        }
        ecs_sched__state_run(w, m->transition_labels[pair], &m->transition_refs[pair], &first);
    }
    for (i = 0; i < count; i++) {
        ecs_sched__state_machine *m = steps[i].m;
        ecs_sched__state_run(w, m->enter_labels[steps[i].to], &m->enter_refs[steps[i].to],
                             &first);
    }
    states->applying = false;
    return first;
}

/* A failure inside the transition schedules becomes the result of the run that applied them. */
static void ecs_sched__state_report(ecs_sched_system_ctx *ctx, ecs_sched_result result) {
    if (result != ECS_SCHED_OK && ctx->violation == ECS_SCHED_OK) ctx->violation = result;
}

void ecs_sched_apply_state_transitions(ecs_sched_system_ctx *ctx) {
    ECS_SCHED_ASSERT(ctx != NULL);
    ecs_sched__state_report(ctx, ecs_sched__apply_transitions(ctx->world, NULL));
}

static void ecs_sched__apply_state_transitions_of(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *w;
    const ecs_sched__state_machine *m;
    ECS_SCHED_ASSERT(ctx != NULL);
    w = ctx->world;
    m = ecs_sched__state_known(w, (ecs_sched_id)(uintptr_t)ctx->user_data,
                               "apply_state_transitions");
    ecs_sched__state_report(ctx, m ? ecs_sched__apply_transitions(w, m) : w->env.last_result);
}

ecs_sched_system_desc ecs_sched_state_transitions_system(ecs_sched_id machine) {
    ecs_sched_system_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.name = "apply_state_transitions";
    desc.exclusive = true;
    desc.fn = machine ? ecs_sched__apply_state_transitions_of : ecs_sched_apply_state_transitions;
    desc.user_data = (void *)(uintptr_t)machine;
    return desc;
}

/* ---- conditions ---- */

static ecs_sched_condition ecs_sched__state_condition(ecs_sched_condition_kind kind,
                                                      ecs_sched_id machine, int32_t value) {
    ecs_sched_condition c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.resource = machine;
    c.state_value = value;
    return c;
}

ecs_sched_condition ecs_sched_condition_in_state(ecs_sched_id machine, int32_t value) {
    return ecs_sched__state_condition(ECS_SCHED_CONDITION_IN_STATE, machine, value);
}

ecs_sched_condition ecs_sched_condition_state_exists(ecs_sched_id machine) {
    return ecs_sched__state_condition(ECS_SCHED_CONDITION_STATE_EXISTS, machine, 0);
}

ecs_sched_condition ecs_sched_condition_state_changed(ecs_sched_id machine) {
    return ecs_sched__state_condition(ECS_SCHED_CONDITION_STATE_CHANGED, machine, 0);
}

/* Checks a state condition's machine (and value) and names it, unless it has a name:
   "in_state(GameState::Playing)", "state_exists(GameState)", "state_changed(GameState)". */
static ecs_sched_result ecs_sched__state_condition_fill(ecs_sched_world *w, ecs_sched__cond *node,
                                                        const ecs_sched_condition *c) {
    const ecs_sched__state_machine *m = ecs_sched__state_known(w, c->resource, "a state condition");
    char *name;
    if (!m) return w->env.last_result;
    if (c->kind == ECS_SCHED_CONDITION_IN_STATE &&
        !ecs_sched__state_value_valid(w, m, c->state_value, "condition in_state")) {
        return w->env.last_result;
    }
    if (c->name) return ECS_SCHED_OK;
    if (c->kind == ECS_SCHED_CONDITION_IN_STATE) {
        name = ecs_sched__state_format(w, "in_state(%s::%s)", m->name,
                                       m->value_names[c->state_value]);
    } else {
        name = ecs_sched__state_format(w, "%s(%s)",
                                       c->kind == ECS_SCHED_CONDITION_STATE_EXISTS
                                           ? "state_exists" : "state_changed", m->name);
    }
    if (!name) return ecs_sched__out_of_memory(w, "copying a run condition");
    ecs_sched__free(&w->env, node->name);
    node->name = name;
    node->ctx.name = name;
    return ECS_SCHED_OK;
}
