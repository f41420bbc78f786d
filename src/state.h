/* state: state machines, their transitions and the schedules that run on them. */
#pragma once
#include "executor.h"
#include "entity_access.h"
#include "component.h"

/* No value: the machine does not exist (yet). */
#define ECS_SCHED_STATE_NONE (-1)

/* A computed state's value from the current values of its sources (in the order of
   .sources; ECS_SCHED_STATE_NONE for a source that has no value): one of its own values, or
   ECS_SCHED_STATE_NONE for "does not exist". It must depend on those values only. */
typedef int32_t (*ecs_sched_state_compute_fn)(const int32_t *source_values, void *user_data);

typedef struct ecs_sched_state_desc {
    const char *name;                                 /* required, e.g. "GameState" */
    const char *values[ECS_SCHED_MAX_STATE_VALUES];   /* required: value i is named values[i] */
    int32_t initial;              /* entered at the first apply (a sub-state: each time it
                                     starts to exist); default 0; a computed state has none */
    int32_t stack_capacity;           /* how many values pushes may cover at once; default 8 */
    /* A computed state: its value is compute(values of .sources) and follows them; it cannot
       be queued. The sources are machines registered before, listed without gaps. */
    ecs_sched_id sources[ECS_SCHED_MAX_STATE_SOURCES];
    ecs_sched_state_compute_fn compute;
    void *user_data;                  /* passed to compute */
    /* A sub-state: it exists only while machine .parent has a value v with parent_values[v]
       true; it starts at .initial when the parent reaches one of them, and stops existing
       when the parent leaves them. */
    ecs_sched_id parent;
    bool parent_values[ECS_SCHED_MAX_STATE_VALUES];
} ecs_sched_state_desc;

/* The resource that holds a machine's current value; its id is the machine's id. It exists
   from the machine's first value on; a sub-state or computed state that stops existing keeps
   it with value ECS_SCHED_STATE_NONE (ecs_sched_condition_state_exists tells). */
typedef struct ecs_sched_state_current {
    int32_t value;
    uint32_t changes;         /* transitions applied so far, the initial enter included */
} ecs_sched_state_current;

/* A machine's last transition. Both values ECS_SCHED_STATE_NONE: none yet. */
typedef struct ecs_sched_state_transition {
    int32_t from;             /* ECS_SCHED_STATE_NONE: the machine started to exist */
    int32_t to;               /* ECS_SCHED_STATE_NONE: it stopped existing (a sub-state, a
                                 computed state) */
    bool this_run;            /* it happened during the current top-level schedule run (or,
                                 between runs, during the last one); one applied outside any
                                 run (ecs_sched_state_apply) counts for the next run */
} ecs_sched_state_transition;

/* Registers a state machine; returns its id, or 0. The same name with the same desc gives
   the same id again; with another .initial it replaces the initial value until the machine's
   first value (then ECS_SCHED_ERR_STATE_MISMATCH); with other values, stack capacity,
   sources, parent or compute function it is ECS_SCHED_ERR_STATE_MISMATCH, and with sources
   that lead back to it ECS_SCHED_ERR_STATE_CYCLE. Register a machine's sources or parent
   before it. */
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
/* The stack: queues pushing `value` over the current one (OnPause(current), then
   OnEnter(value)), or popping back (OnExit(top), then OnResume(revealed)). A covered value is
   neither exited nor entered again. A push past stack_capacity is ECS_SCHED_ERR_LIMIT, a pop
   with nothing covered ECS_SCHED_ERR_INVALID_ARGUMENT; a queued push, pop or set replaces the
   one queued before. */
ECS_SCHED_API ecs_sched_result ecs_sched_state_push(ecs_sched_world *world, ecs_sched_id machine,
                                                    int32_t value);
ECS_SCHED_API ecs_sched_result ecs_sched_state_pop(ecs_sched_world *world, ecs_sched_id machine);
/* How many values pushes cover now (0: none), or -1 for an unknown machine. */
ECS_SCHED_API int32_t ecs_sched_state_depth(ecs_sched_world *world, ecs_sched_id machine);
/* The same from a running system: reading needs the machine's id in `reads`, queuing its
   ecs_sched_state_next_id in `writes` (else ECS_SCHED_ERR_ACCESS). */
ECS_SCHED_API int32_t ecs_sched_ctx_state(ecs_sched_system_ctx *ctx, ecs_sched_id machine);
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_state_set(ecs_sched_system_ctx *ctx,
                                                       ecs_sched_id machine, int32_t value);
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_state_set_reenter(ecs_sched_system_ctx *ctx,
                                                               ecs_sched_id machine,
                                                               int32_t value);
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_state_push(ecs_sched_system_ctx *ctx,
                                                        ecs_sched_id machine, int32_t value);
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_state_pop(ecs_sched_system_ctx *ctx,
                                                       ecs_sched_id machine);
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
/* "OnPause(GameState::Playing)", "OnResume(GameState::Playing)": the stack's schedules. */
ECS_SCHED_API const char *ecs_sched_on_pause(ecs_sched_world *world, ecs_sched_id machine,
                                             int32_t value);
ECS_SCHED_API const char *ecs_sched_on_resume(ecs_sched_world *world, ecs_sched_id machine,
                                              int32_t value);
/* The machine's last transition, into *out. */
ECS_SCHED_API ecs_sched_result ecs_sched_state_last_transition(ecs_sched_world *world,
                                                               ecs_sched_id machine,
                                                               ecs_sched_state_transition *out);
/* The same from a running system, which declares the machine's id in `reads`. */
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_state_last_transition(
    ecs_sched_system_ctx *ctx, ecs_sched_id machine, ecs_sched_state_transition *out);
/* State-scoped entities: an entity with a machine's scope component (ecs_sched_state_scope_id)
   is despawned when the machine exits `on_exit` (right after OnExit of it; a value covered by
   a push is not exited) or enters `on_enter` (right before OnEnter of it); either may be
   ECS_SCHED_STATE_NONE. Insert it like any component, from systems through commands. */
typedef struct ecs_sched_state_scoped {
    int32_t on_exit;
    int32_t on_enter;
} ecs_sched_state_scoped;

ECS_SCHED_API ecs_sched_state_scoped ecs_sched_despawn_on_exit(int32_t value);
ECS_SCHED_API ecs_sched_state_scoped ecs_sched_despawn_on_enter(int32_t value);
/* The id of the component "StateScoped(GameState)", or 0 for an unknown machine. */
ECS_SCHED_API ecs_sched_id ecs_sched_state_scope_id(ecs_sched_world *world, ecs_sched_id machine);
/* State-scoped messages: the messages of this type (message.h) are dropped when state
   machine `machine` leaves `value` (on_enter false) or reaches it (true), so that, say, a
   menu's clicks do not reach the game. Readers do not count them as missed. */
ECS_SCHED_API ecs_sched_result ecs_sched_message_scope_to_state(ecs_sched_world *world,
                                                               ecs_sched_id message,
                                                               ecs_sched_id machine,
                                                               int32_t value, bool on_enter);

/* Conditions on a machine; each declares a read of the machine's id. state_changed is true
   when the machine changed value (or was re-entered) since this instance last looked. */
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_in_state(ecs_sched_id machine,
                                                               int32_t value);
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_state_exists(ecs_sched_id machine);
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_state_changed(ecs_sched_id machine);
/* True when `value` is the current value or one a push covers. */
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_state_in_stack(ecs_sched_id machine,
                                                                     int32_t value);

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
    ECS_SCHED__STATE_REQUEST_REENTER, /* exit and enter again when it is the current value */
    ECS_SCHED__STATE_REQUEST_PUSH,    /* cover the current value with `value` */
    ECS_SCHED__STATE_REQUEST_POP      /* back to the value the top covers */
};

/* The schedules each value has, and how their labels start. */
enum {
    ECS_SCHED__ON_ENTER,
    ECS_SCHED__ON_EXIT,
    ECS_SCHED__ON_PAUSE,
    ECS_SCHED__ON_RESUME,
    ECS_SCHED__VALUE_SCHEDULES
};

static const char *const ecs_sched__value_schedule_names[ECS_SCHED__VALUE_SCHEDULES] = {
    "OnEnter", "OnExit", "OnPause", "OnResume"};

#define ECS_SCHED__DEFAULT_STATE_STACK 8

/* Where a transition schedule is, found once: schedules are never removed, so a schedule
   found stays; a label not found is looked up again only after new schedules appear. */
typedef struct ecs_sched__schedule_ref {
    ecs_sched__schedule *schedule;
    uint32_t looked_at;               /* the schedule count when looked up, plus 1; 0: never */
} ecs_sched__schedule_ref;

/* What decides a machine's value. */
enum {
    ECS_SCHED__STATE_ROOT,            /* queued values */
    ECS_SCHED__STATE_COMPUTED,        /* compute(its sources' values) */
    ECS_SCHED__STATE_SUB              /* queued values, while its parent is in parent_values */
};

typedef struct ecs_sched__state_machine {
    char *name;
    ecs_sched_id id;                  /* its current value's resource */
    ecs_sched_id next;                /* its pending slot's resource */
    ecs_sched_id scope;               /* its StateScoped component */
    ecs_sched_query *scoped;          /* the entities that have it */
    int32_t value_count;
    int32_t initial;
    char **value_names;               /* value_count of each */
    char **labels[ECS_SCHED__VALUE_SCHEDULES];   /* per value: "OnEnter(GameState::Menu)", ... */
    ecs_sched__schedule_ref *refs[ECS_SCHED__VALUE_SCHEDULES];
    char **transition_labels;         /* value_count * value_count, made when first asked */
    ecs_sched__schedule_ref *transition_refs;
    int32_t *stack;                   /* the values pushes cover, bottom first */
    int32_t depth;
    int32_t stack_capacity;
    bool entered;                     /* the first apply has given it its value */
    ecs_sched_state_transition last;
    uint64_t last_run;                /* the top-level run of the last transition */
    int kind;                         /* ECS_SCHED__STATE_ROOT, _COMPUTED or _SUB */
    /* the machines it depends on, as indexes into the registration order (always earlier):
       a computed state's sources, a sub-state's parent */
    uint32_t sources[ECS_SCHED_MAX_STATE_SOURCES];
    int32_t source_count;
    ecs_sched_state_compute_fn compute;
    void *user_data;
    bool parent_values[ECS_SCHED_MAX_STATE_VALUES];
} ecs_sched__state_machine;

/* What one apply does to one machine, decided before anything runs. */
typedef struct ecs_sched__state_step {
    int32_t from;                     /* ECS_SCHED_STATE_NONE: it starts to exist */
    int32_t to;                       /* ECS_SCHED_STATE_NONE: it stops existing */
    int request;                      /* ECS_SCHED__STATE_REQUEST_SET, _PUSH or _POP */
    bool moves;                       /* something runs for this machine */
    bool unwinds;                     /* the values its stack covers are exited too */
    bool restarts;                    /* exited and entered afresh: a re-enter, or a restart
                                         of a dependent machine; its dependents restart too */
    bool included;                    /* the apply is for this machine (or one it depends on) */
} ecs_sched__state_step;

typedef struct ecs_sched__states ecs_sched__states;

/* The part of the world this module keeps (registry.h). */
static ecs_sched__part_key ecs_sched__states_key;

struct ecs_sched__states {
    ecs_sched__state_machine *items;  /* in registration order */
    uint32_t count;
    uint32_t capacity;
    ecs_sched__state_step *steps;     /* per machine, in registration order: what an apply
                                         does, decided ahead */
    uint32_t step_capacity;
    bool applying;                    /* an apply is running its transition schedules */
    uint64_t run;                     /* the top-level run the running apply counts for */
};

static inline ecs_sched__states *ecs_sched__states_of(const ecs_sched_world *w) {
    return (ecs_sched__states *)ecs_sched__part(w, &ecs_sched__states_key);
}

/* ---- lookups ---- */

static ecs_sched__state_machine *ecs_sched__state_find(const ecs_sched_world *w,
                                                       ecs_sched_id machine) {
    uint32_t i;
    if (!ecs_sched__states_of(w) || !machine) return NULL;
    for (i = 0; i < ecs_sched__states_of(w)->count; i++) {
        if (ecs_sched__states_of(w)->items[i].id == machine) return &ecs_sched__states_of(w)->items[i];
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

static bool ecs_sched__state_exists(const ecs_sched_world *w, ecs_sched_id machine) {
    const ecs_sched_state_current *current = ecs_sched__state_current(w, machine);
    return current && current->value != ECS_SCHED_STATE_NONE;
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
    int k;
    ecs_sched__strings_free(w, m->value_names, m->value_count);
    for (k = 0; k < ECS_SCHED__VALUE_SCHEDULES; k++) {
        ecs_sched__strings_free(w, m->labels[k], m->value_count);
        ecs_sched__free(&w->env, m->refs[k]);
    }
    ecs_sched__strings_free(w, m->transition_labels, m->value_count * m->value_count);
    ecs_sched__free(&w->env, m->transition_refs);
    ecs_sched__free(&w->env, m->stack);
    if (m->scoped && ecs_sched__queries_of(w)) ecs_sched_query_destroy(m->scoped);
    ecs_sched__free(&w->env, m->name);
}

static void ecs_sched__states_free(ecs_sched_world *w) {
    uint32_t i;
    if (!ecs_sched__states_of(w)) return;
    for (i = 0; i < ecs_sched__states_of(w)->count; i++) ecs_sched__state_machine_free(w, &ecs_sched__states_of(w)->items[i]);
    ecs_sched__free(&w->env, ecs_sched__states_of(w)->items);
    ecs_sched__free(&w->env, ecs_sched__states_of(w)->steps);
    ecs_sched__free(&w->env, ecs_sched__states_of(w));
    ecs_sched__part_set(w, &ecs_sched__states_key, NULL);
}

/* A string made by printf, owned by the world's allocator; NULL when out of memory. */
static char *ecs_sched__state_format(ecs_sched_world *w, const char *fmt, ...)
    ECS_SCHED__PRINTF(2, 3);
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

static int32_t ecs_sched__state_stack_capacity(const ecs_sched_state_desc *desc) {
    return desc->stack_capacity > 0 ? desc->stack_capacity : ECS_SCHED__DEFAULT_STATE_STACK;
}

/* Whether an existing machine has exactly the values (and stack capacity) of desc; its
   initial value may differ. */
static bool ecs_sched__state_same_values(const ecs_sched__state_machine *m,
                                         const ecs_sched_state_desc *desc, int32_t count) {
    int32_t i;
    if (count != m->value_count || ecs_sched__state_stack_capacity(desc) != m->stack_capacity) {
        return false;
    }
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
    if (desc->stack_capacity < 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "state_register('%s'): stack_capacity %d is negative (0 means "
                               "the default, %d)", desc->name, (int)desc->stack_capacity,
                               ECS_SCHED__DEFAULT_STATE_STACK);
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
    ecs_sched__env *env = &w->env;
    size_t n = (size_t)count;
    int32_t i, k;
    m->value_count = count;
    m->initial = desc->initial;
    m->stack_capacity = ecs_sched__state_stack_capacity(desc);
    m->last.from = m->last.to = ECS_SCHED_STATE_NONE;
    m->name = ecs_sched__strdup(env, desc->name);
    m->value_names = (char **)ecs_sched__calloc(env, sizeof(char *) * n);
    m->transition_labels = (char **)ecs_sched__calloc(env, sizeof(char *) * n * n);
    m->transition_refs =
        (ecs_sched__schedule_ref *)ecs_sched__calloc(env, sizeof(ecs_sched__schedule_ref) * n * n);
    m->stack = (int32_t *)ecs_sched__calloc(env, sizeof(int32_t) * (size_t)m->stack_capacity);
    if (!m->name || !m->value_names || !m->transition_labels || !m->transition_refs ||
        !m->stack) {
        return false;
    }
    for (k = 0; k < ECS_SCHED__VALUE_SCHEDULES; k++) {
        m->labels[k] = (char **)ecs_sched__calloc(env, sizeof(char *) * n);
        m->refs[k] = (ecs_sched__schedule_ref *)ecs_sched__calloc(
            env, sizeof(ecs_sched__schedule_ref) * n);
        if (!m->labels[k] || !m->refs[k]) return false;
    }
    for (i = 0; i < count; i++) {
        m->value_names[i] = ecs_sched__strdup(env, desc->values[i]);
        if (!m->value_names[i]) return false;
        for (k = 0; k < ECS_SCHED__VALUE_SCHEDULES; k++) {
            m->labels[k][i] = ecs_sched__state_format(w, "%s(%s::%s)",
                                                      ecs_sched__value_schedule_names[k],
                                                      desc->name, desc->values[i]);
            if (!m->labels[k][i]) return false;
        }
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
    snprintf(name, sizeof name, "StateScoped(%s)", m->name);
    c.size = sizeof(ecs_sched_state_scoped);
    m->scope = m->next ? ecs_sched_component_register(w, &c) : 0;
    if (m->scope) {
        ecs_sched_query_desc q;
        memset(&q, 0, sizeof q);
        q.terms[0] = ecs_sched_read(m->scope);
        m->scoped = ecs_sched_query_create(w, &q);
    }
    return m->scoped && ecs_sched_resource_insert(w, m->next, NULL) == ECS_SCHED_OK;
}

static ecs_sched__state_machine *ecs_sched__state_find_name(const ecs_sched_world *w,
                                                            const char *name) {
    uint32_t i;
    if (!ecs_sched__states_of(w)) return NULL;
    for (i = 0; i < ecs_sched__states_of(w)->count; i++) {
        if (strcmp(ecs_sched__states_of(w)->items[i].name, name) == 0) return &ecs_sched__states_of(w)->items[i];
    }
    return NULL;
}

/* ---- state machines in snapshots ----

   A machine's value and its pending transition are resources, which a snapshot holds; the
   rest of what game logic reads of it lives here and is kept as a part of the snapshot
   (world.h): the values its stack covers, whether it has had its first value, and its last
   transition. Machines registered after the snapshot keep theirs. */

typedef struct ecs_sched__machine_copy {
    int32_t depth;
    bool entered;
    ecs_sched_state_transition last;
    uint64_t last_run;
} ecs_sched__machine_copy;

typedef struct ecs_sched__states_copy {
    uint32_t count;
    ecs_sched__machine_copy *machines;
    int32_t *stacks;                  /* each machine's depth values, one after the other */
} ecs_sched__states_copy;

static void ecs_sched__states_copy_free(ecs_sched__env *env, void *copy) {
    ecs_sched__states_copy *c = (ecs_sched__states_copy *)copy;
    ecs_sched__free(env, c->machines);
    ecs_sched__free(env, c->stacks);
    ecs_sched__free(env, c);
}

static bool ecs_sched__states_take(ecs_sched_world *w, void **copy, size_t *bytes) {
    ecs_sched__states_copy *c;
    uint32_t i, values = 0, at = 0;
    *copy = NULL;
    for (i = 0; i < ecs_sched__states_of(w)->count; i++) values += (uint32_t)ecs_sched__states_of(w)->items[i].depth;
    c = (ecs_sched__states_copy *)ecs_sched__calloc(&w->env, sizeof *c);
    if (!c) return false;
    c->count = ecs_sched__states_of(w)->count;
    c->machines = (ecs_sched__machine_copy *)ecs_sched__calloc(&w->env, c->count * sizeof *c->machines);
    c->stacks = (int32_t *)ecs_sched__calloc(&w->env, (values + 1) * sizeof *c->stacks);
    if (!c->machines || !c->stacks) {
        ecs_sched__states_copy_free(&w->env, c);
        return false;
    }
    for (i = 0; i < c->count; i++) {
        const ecs_sched__state_machine *m = &ecs_sched__states_of(w)->items[i];
        c->machines[i].depth = m->depth;
        c->machines[i].entered = m->entered;
        c->machines[i].last = m->last;
        c->machines[i].last_run = m->last_run;
        memcpy(c->stacks + at, m->stack, (size_t)m->depth * sizeof *m->stack);
        at += (uint32_t)m->depth;
    }
    *bytes += sizeof *c + c->count * sizeof *c->machines + values * sizeof *c->stacks;
    *copy = c;
    return true;
}

/* Nothing to allocate: each machine's stack has its capacity from the start. */
static bool ecs_sched__states_prepare(ecs_sched_world *w, const void *copy, void **prepared) {
    (void)w;
    (void)copy;
    *prepared = NULL;
    return true;
}

static void ecs_sched__states_apply(ecs_sched_world *w, const void *copy, void *prepared) {
    const ecs_sched__states_copy *c = (const ecs_sched__states_copy *)copy;
    uint32_t i, at = 0;
    (void)prepared;
    for (i = 0; c && i < c->count && i < ecs_sched__states_of(w)->count; i++) {
        ecs_sched__state_machine *m = &ecs_sched__states_of(w)->items[i];
        const ecs_sched__machine_copy *from = &c->machines[i];
        m->depth = from->depth;
        memcpy(m->stack, c->stacks + at, (size_t)from->depth * sizeof *m->stack);
        at += (uint32_t)from->depth;
        m->entered = from->entered;
        m->last = from->last;
        m->last_run = from->last_run;
    }
}

static void ecs_sched__states_discard(ecs_sched_world *w, void *prepared) {
    (void)w;
    (void)prepared;
}

static const ecs_sched__snapshot_part ecs_sched__states_part = {
    ecs_sched__states_take, ecs_sched__states_prepare, ecs_sched__states_apply,
    ecs_sched__states_discard, ecs_sched__states_copy_free};

/* ---- computed states and sub-states ---- */

/* The machines desc depends on, as ids: a computed state's sources, a sub-state's parent. */
static int32_t ecs_sched__state_desc_dependencies(const ecs_sched_state_desc *desc,
                                                  ecs_sched_id *out) {
    int32_t n = 0;
    if (desc->parent) {
        out[0] = desc->parent;
        return 1;
    }
    while (n < ECS_SCHED_MAX_STATE_SOURCES && desc->sources[n]) {
        out[n] = desc->sources[n];
        n++;
    }
    return n;
}

static int32_t ecs_sched__state_index(const ecs_sched_world *w, const ecs_sched__state_machine *m) {
    return (int32_t)(m - ecs_sched__states_of(w)->items);
}

static bool ecs_sched__state_any_parent_value(const ecs_sched_state_desc *desc) {
    int32_t i;
    for (i = 0; i < ECS_SCHED_MAX_STATE_VALUES; i++) {
        if (desc->parent_values[i]) return true;
    }
    return false;
}

static ecs_sched_result ecs_sched__state_computed_check(ecs_sched_world *w,
                                                        const ecs_sched_state_desc *desc) {
    ecs_sched_id sources[ECS_SCHED_MAX_STATE_SOURCES];
    int32_t n = ecs_sched__state_desc_dependencies(desc, sources), i;
    for (i = n; i < ECS_SCHED_MAX_STATE_SOURCES; i++) {
        if (desc->sources[i]) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "state_register('%s'): .sources[%d] is 0 but .sources[%d] is "
                                   "not; list the sources without gaps",
                                   desc->name, (int)n, (int)i);
        }
    }
    if (!desc->compute) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "state_register('%s'): .sources is given without .compute; a "
                               "computed state needs the function that computes its value",
                               desc->name);
    }
    if (n == 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "state_register('%s'): .compute is given without .sources; list "
                               "the machines its value is computed from", desc->name);
    }
    for (i = 0; i < n; i++) {
        if (!ecs_sched__state_find(w, sources[i])) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_UNKNOWN_STATE,
                                   "state_register('%s'): .sources[%d], id %u, is not a state "
                                   "machine; register the sources before the states computed "
                                   "from them", desc->name, (int)i, (unsigned)sources[i]);
        }
    }
    if (desc->parent || ecs_sched__state_any_parent_value(desc) || desc->initial != 0 ||
        desc->stack_capacity != 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "state_register('%s'): a computed state takes no .parent, "
                               ".parent_values, .initial or .stack_capacity: its value is always "
                               "what .compute makes of its sources' values", desc->name);
    }
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__state_sub_check(ecs_sched_world *w,
                                                   const ecs_sched_state_desc *desc) {
    const ecs_sched__state_machine *parent = ecs_sched__state_find(w, desc->parent);
    int32_t i;
    if (!parent) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_UNKNOWN_STATE,
                               "state_register('%s'): .parent, id %u, is not a state machine; "
                               "register the parent before its sub-states", desc->name,
                               (unsigned)desc->parent);
    }
    if (!ecs_sched__state_any_parent_value(desc)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "state_register('%s'): a sub-state needs .parent_values: set "
                               ".parent_values[v] = true for each value v of '%s' it exists in",
                               desc->name, parent->name);
    }
    for (i = parent->value_count; i < ECS_SCHED_MAX_STATE_VALUES; i++) {
        if (desc->parent_values[i]) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "state_register('%s'): .parent_values[%d] is set, but parent "
                                   "'%s' has only %d values", desc->name, (int)i, parent->name,
                                   (int)parent->value_count);
        }
    }
    return ECS_SCHED_OK;
}

/* Checks what makes desc a computed state or a sub-state, if anything does. */
static ecs_sched_result ecs_sched__state_derived_check(ecs_sched_world *w,
                                                       const ecs_sched_state_desc *desc) {
    int32_t i;
    bool sources = desc->compute != NULL;
    for (i = 0; i < ECS_SCHED_MAX_STATE_SOURCES; i++) sources = sources || desc->sources[i];
    if (sources) return ecs_sched__state_computed_check(w, desc);
    if (desc->parent) return ecs_sched__state_sub_check(w, desc);
    if (ecs_sched__state_any_parent_value(desc)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "state_register('%s'): .parent_values is given without .parent; "
                               "a sub-state names its parent machine", desc->name);
    }
    return ECS_SCHED_OK;
}

/* Whether machine `from` depends on machine `target` (or is it), through its sources. */
static bool ecs_sched__state_depends(const ecs_sched_world *w, uint32_t from, uint32_t target) {
    const ecs_sched__state_machine *m = &ecs_sched__states_of(w)->items[from];
    int32_t i;
    if (from == target) return true;
    for (i = 0; i < m->source_count; i++) {
        if (ecs_sched__state_depends(w, m->sources[i], target)) return true;
    }
    return false;
}

/* Registering desc again under the name of `existing` must not make it depend on itself
   (machines depend on machines registered before them, so that is the only way to a cycle).
   The message follows one path of the cycle. */
static ecs_sched_result ecs_sched__state_cycle_check(ecs_sched_world *w,
                                                     const ecs_sched_state_desc *desc,
                                                     const ecs_sched__state_machine *existing) {
    ecs_sched_id deps[ECS_SCHED_MAX_STATE_SOURCES];
    uint32_t target = (uint32_t)ecs_sched__state_index(w, existing), at = target;
    int32_t n = ecs_sched__state_desc_dependencies(desc, deps), i, k;
    ecs_sched__text text;
    ecs_sched_result result;
    for (i = 0; i < n; i++) {
        at = (uint32_t)ecs_sched__state_index(w, ecs_sched__state_find(w, deps[i]));
        if (ecs_sched__state_depends(w, at, target)) break;
    }
    if (i == n) return ECS_SCHED_OK;
    ecs_sched__text_init(&text, &w->env);
    ecs_sched__text_printf(&text, "state_register('%s'): the state machines would be computed "
                                  "from each other: %s", desc->name, desc->name);
    for (;;) {
        const ecs_sched__state_machine *m = &ecs_sched__states_of(w)->items[at];
        ecs_sched__text_printf(&text, " -> %s", m->name);
        if (at == target) break;
        for (k = 0; !ecs_sched__state_depends(w, m->sources[k], target); k++) continue;
        at = m->sources[k];
    }
    ecs_sched__text_printf(&text, " (each depends on the next); a machine can depend only on "
                                  "machines registered before it");
    result = ecs_sched__fail_text(&w->env, ECS_SCHED_ERR_STATE_CYCLE,
                                  text.data ? text.data : "state machines in a cycle");
    ecs_sched__text_free(&text);
    return result;
}

/* Whether an existing machine depends on the same machines, the same way, as desc. */
static bool ecs_sched__state_same_dependencies(const ecs_sched_world *w,
                                               const ecs_sched__state_machine *m,
                                               const ecs_sched_state_desc *desc) {
    ecs_sched_id deps[ECS_SCHED_MAX_STATE_SOURCES];
    int32_t n = ecs_sched__state_desc_dependencies(desc, deps), i;
    if (n != m->source_count || m->compute != desc->compute || m->user_data != desc->user_data ||
        memcmp(m->parent_values, desc->parent_values, sizeof m->parent_values) != 0) {
        return false;
    }
    for (i = 0; i < n; i++) {
        if (ecs_sched__states_of(w)->items[m->sources[i]].id != deps[i]) return false;
    }
    return true;
}

/* What decides m's value, from desc (already checked). */
static void ecs_sched__state_machine_link(const ecs_sched_world *w, ecs_sched__state_machine *m,
                                          const ecs_sched_state_desc *desc) {
    ecs_sched_id deps[ECS_SCHED_MAX_STATE_SOURCES];
    int32_t i;
    m->kind = desc->compute ? ECS_SCHED__STATE_COMPUTED
              : desc->parent ? ECS_SCHED__STATE_SUB : ECS_SCHED__STATE_ROOT;
    m->source_count = ecs_sched__state_desc_dependencies(desc, deps);
    for (i = 0; i < m->source_count; i++) {
        m->sources[i] = (uint32_t)ecs_sched__state_index(w, ecs_sched__state_find(w, deps[i]));
    }
    m->compute = desc->compute;
    m->user_data = desc->user_data;
    memcpy(m->parent_values, desc->parent_values, sizeof m->parent_values);
}

ecs_sched_id ecs_sched_state_register(ecs_sched_world *w, const ecs_sched_state_desc *desc) {
    ecs_sched__state_machine m, *existing;
    int32_t count;
    ECS_SCHED__CHECK_WORLD(w);
    count = desc ? ecs_sched__state_desc_value_count(desc) : 0;
    if (ecs_sched__state_desc_check(w, desc, count) != ECS_SCHED_OK ||
        ecs_sched__state_derived_check(w, desc) != ECS_SCHED_OK) {
        return 0;
    }
    if (ecs_sched__states_of(w) && ecs_sched__states_of(w)->applying) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "state_register('%s'): state transitions are being applied; register "
                        "state machines before (outside OnEnter, OnExit and OnTransition)",
                        desc->name);
        return 0;
    }
    existing = ecs_sched__state_find_name(w, desc->name);
    if (existing) {
        if (ecs_sched__state_cycle_check(w, desc, existing) != ECS_SCHED_OK) return 0;
        if (ecs_sched__state_same_values(existing, desc, count) &&
            ecs_sched__state_same_dependencies(w, existing, desc)) {
            /* another initial value replaces the first until the machine has had a value,
               so a game can override a plugin's default */
            if (desc->initial == existing->initial || !existing->entered) {
                existing->initial = desc->initial;
                return existing->id;
            }
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_STATE_MISMATCH,
                            "state_register('%s'): another initial value (%s, was %s) comes "
                            "too late: the machine has had its first value; register it again "
                            "before the first apply", desc->name,
                            existing->value_names[desc->initial],
                            existing->value_names[existing->initial]);
            return 0;
        }
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_STATE_MISMATCH,
                        "state_register('%s'): a state machine of that name is registered with "
                        "other values, another stack capacity or other sources, parent or "
                        "compute function; register it once, or give the other machine another "
                        "name", desc->name);
        return 0;
    }
    if (!ecs_sched__states_of(w)) {
        ecs_sched__part_set(w, &ecs_sched__states_key, (ecs_sched__states *)ecs_sched__calloc(&w->env, sizeof *ecs_sched__states_of(w)));
        if (!ecs_sched__states_of(w)) {
            ecs_sched__out_of_memory(w, "registering a state machine");
            return 0;
        }
    }
    memset(&m, 0, sizeof m);
    if (!ECS_SCHED__GROW(&w->env, ecs_sched__states_of(w)->items, &ecs_sched__states_of(w)->capacity,
                         ecs_sched__states_of(w)->count + 1) ||
        !ECS_SCHED__GROW(&w->env, ecs_sched__states_of(w)->steps, &ecs_sched__states_of(w)->step_capacity,
                         ecs_sched__states_of(w)->count + 1) ||
        !ecs_sched__state_machine_fill(w, &m, desc, count)) {
        ecs_sched__state_machine_free(w, &m);
        ecs_sched__out_of_memory(w, "registering a state machine");
        return 0;
    }
    if (!ecs_sched__state_register_types(w, &m)) {
        ecs_sched__state_machine_free(w, &m);  /* the world's error says why */
        return 0;
    }
    ecs_sched__state_machine_link(w, &m, desc);
    ecs_sched__states_of(w)->items[ecs_sched__states_of(w)->count++] = m;
    ecs_sched__snapshot_part_add(w, &ecs_sched__states_part);
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

/* Whether the stack allows the request, as it will stand at the next apply (only applies
   change it, and the request replaces any queued before). */
static bool ecs_sched__state_stack_allows(ecs_sched_world *w, const ecs_sched__state_machine *m,
                                          int request, const char *operation) {
    if (request == ECS_SCHED__STATE_REQUEST_PUSH && m->depth >= m->stack_capacity) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_LIMIT,
                        "%s: state machine '%s' already covers %d values, its stack_capacity; "
                        "pop first, or register it with a larger .stack_capacity",
                        operation, m->name, (int)m->depth);
        return false;
    }
    if (request == ECS_SCHED__STATE_REQUEST_POP && m->depth == 0) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "%s: state machine '%s' has nothing pushed to pop back from", operation,
                        m->name);
        return false;
    }
    return true;
}

/* Whether m takes queued values now: a computed state never does, a sub-state only while it
   exists. */
static bool ecs_sched__state_queueable(ecs_sched_world *w, const ecs_sched__state_machine *m,
                                       int32_t value, int request, const char *operation) {
    const ecs_sched__state_machine *parent;
    ecs_sched__text text;
    char what[160];
    int32_t v;
    const char *separator = " ";
    if (m->kind == ECS_SCHED__STATE_ROOT) return true;
    if (m->kind == ECS_SCHED__STATE_SUB && ecs_sched__state_exists(w, m->id)) return true;
    if (request == ECS_SCHED__STATE_REQUEST_POP) {
        snprintf(what, sizeof what, "%s(%s)", operation, m->name);
    } else {
        snprintf(what, sizeof what, "%s(%s::%s)", operation, m->name, m->value_names[value]);
    }
    if (m->kind == ECS_SCHED__STATE_COMPUTED) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "%s: '%s' is a computed state, its value follows its sources; queue "
                        "values for them instead", what, m->name);
        return false;
    }
    parent = &ecs_sched__states_of(w)->items[m->sources[0]];
    ecs_sched__text_init(&text, &w->env);
    ecs_sched__text_printf(&text, "%s: sub-state '%s' does not exist now: it exists only "
                                  "while '%s' is", what, m->name, parent->name);
    for (v = 0; v < parent->value_count; v++) {
        if (!m->parent_values[v]) continue;
        ecs_sched__text_printf(&text, "%s%s", separator, parent->value_names[v]);
        separator = " or ";
    }
    ecs_sched__text_printf(&text, ", from the apply that gets it there on; queue its values "
                                  "while it exists");
    ecs_sched__fail_text(&w->env, ECS_SCHED_ERR_STATE_ABSENT,
                         text.data ? text.data : "the sub-state does not exist now");
    ecs_sched__text_free(&text);
    return false;
}

/* Writes a request into m's pending slot `next` (already reached with the right access). */
static ecs_sched_result ecs_sched__state_queue(ecs_sched_world *w,
                                               const ecs_sched__state_machine *m,
                                               ecs_sched__state_next *next, int32_t value,
                                               int request, const char *operation) {
    if (request != ECS_SCHED__STATE_REQUEST_POP &&
        !ecs_sched__state_value_valid(w, m, value, operation)) {
        return w->env.last_result;
    }
    if (!ecs_sched__state_queueable(w, m, value, request, operation) ||
        !ecs_sched__state_stack_allows(w, m, request, operation)) {
        return w->env.last_result;
    }
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
    return ecs_sched__state_queue(w, m,
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

ecs_sched_result ecs_sched_state_push(ecs_sched_world *w, ecs_sched_id machine, int32_t value) {
    return ecs_sched__state_queue_world(w, machine, value, ECS_SCHED__STATE_REQUEST_PUSH,
                                        "state_push");
}

ecs_sched_result ecs_sched_state_pop(ecs_sched_world *w, ecs_sched_id machine) {
    return ecs_sched__state_queue_world(w, machine, 0, ECS_SCHED__STATE_REQUEST_POP,
                                        "state_pop");
}

int32_t ecs_sched_state_depth(ecs_sched_world *w, ecs_sched_id machine) {
    const ecs_sched__state_machine *m;
    ECS_SCHED__CHECK_WORLD(w);
    m = ecs_sched__state_known(w, machine, "state_depth");
    return m ? m->depth : -1;
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
    return ecs_sched__state_queue(ctx->world, m, next, value, request, operation);
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

ecs_sched_result ecs_sched_ctx_state_push(ecs_sched_system_ctx *ctx, ecs_sched_id machine,
                                          int32_t value) {
    return ecs_sched__state_queue_ctx(ctx, machine, value, ECS_SCHED__STATE_REQUEST_PUSH,
                                      "ctx_state_push");
}

ecs_sched_result ecs_sched_ctx_state_pop(ecs_sched_system_ctx *ctx, ecs_sched_id machine) {
    return ecs_sched__state_queue_ctx(ctx, machine, 0, ECS_SCHED__STATE_REQUEST_POP,
                                      "ctx_state_pop");
}

/* The number of the current top-level schedule run (between runs: of the last one). */
static uint64_t ecs_sched__top_run(const ecs_sched_world *w) {
    return ecs_sched__schedules_of(w) ? ecs_sched__schedules_of(w)->top_runs : 0;
}

/* The run a transition applied now counts for: the current one, or, outside any run, the
   next. */
static uint64_t ecs_sched__transition_run(const ecs_sched_world *w) {
    bool running = ecs_sched__schedules_of(w) && ecs_sched__schedules_of(w)->depth > 0;
    return ecs_sched__top_run(w) + (running ? 0 : 1);
}

ecs_sched_result ecs_sched_state_last_transition(ecs_sched_world *w, ecs_sched_id machine,
                                                 ecs_sched_state_transition *out) {
    const ecs_sched__state_machine *m;
    ECS_SCHED__CHECK_WORLD(w);
    m = ecs_sched__state_known(w, machine, "state_last_transition");
    if (!m) return w->env.last_result;
    if (!out) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "state_last_transition('%s'): needs somewhere to write", m->name);
    }
    *out = m->last;
    out->this_run = (m->last.from != ECS_SCHED_STATE_NONE || m->last.to != ECS_SCHED_STATE_NONE) &&
                    (m->last_run == ecs_sched__top_run(w) ||
                     m->last_run == ecs_sched__transition_run(w) ||
                     (ecs_sched__states_of(w)->applying && m->last_run == ecs_sched__states_of(w)->run));
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

/* The label of one of a value's schedules (ECS_SCHED__ON_*), or NULL. */
static const char *ecs_sched__value_schedule(ecs_sched_world *w, ecs_sched_id machine,
                                             int32_t value, int kind, const char *operation) {
    const ecs_sched__state_machine *m;
    ECS_SCHED__CHECK_WORLD(w);
    m = ecs_sched__state_known(w, machine, operation);
    if (!m || !ecs_sched__state_value_valid(w, m, value, operation)) return NULL;
    return m->labels[kind][value];
}

const char *ecs_sched_on_enter(ecs_sched_world *w, ecs_sched_id machine, int32_t value) {
    return ecs_sched__value_schedule(w, machine, value, ECS_SCHED__ON_ENTER, "on_enter");
}

const char *ecs_sched_on_exit(ecs_sched_world *w, ecs_sched_id machine, int32_t value) {
    return ecs_sched__value_schedule(w, machine, value, ECS_SCHED__ON_EXIT, "on_exit");
}

const char *ecs_sched_on_pause(ecs_sched_world *w, ecs_sched_id machine, int32_t value) {
    return ecs_sched__value_schedule(w, machine, value, ECS_SCHED__ON_PAUSE, "on_pause");
}

const char *ecs_sched_on_resume(ecs_sched_world *w, ecs_sched_id machine, int32_t value) {
    return ecs_sched__value_schedule(w, machine, value, ECS_SCHED__ON_RESUME, "on_resume");
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

/* ---- state-scoped entities ---- */

ecs_sched_state_scoped ecs_sched_despawn_on_exit(int32_t value) {
    ecs_sched_state_scoped scope;
    scope.on_exit = value;
    scope.on_enter = ECS_SCHED_STATE_NONE;
    return scope;
}

ecs_sched_state_scoped ecs_sched_despawn_on_enter(int32_t value) {
    ecs_sched_state_scoped scope;
    scope.on_exit = ECS_SCHED_STATE_NONE;
    scope.on_enter = value;
    return scope;
}

ecs_sched_id ecs_sched_state_scope_id(ecs_sched_world *w, ecs_sched_id machine) {
    const ecs_sched__state_machine *m;
    ECS_SCHED__CHECK_WORLD(w);
    m = ecs_sched__state_known(w, machine, "state_scope_id");
    return m ? m->scope : 0;
}

ecs_sched_result ecs_sched_message_scope_to_state(ecs_sched_world *w, ecs_sched_id message,
                                                  ecs_sched_id machine, int32_t value,
                                                  bool on_enter) {
    const ecs_sched__state_machine *m;
    const char *operation = "message_scope_to_state";
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched_is_message(w, message)) return ecs_sched__not_a_message(w, message, operation);
    m = ecs_sched__state_known(w, machine, operation);
    if (!m) return w->env.last_result;
    if (!ecs_sched__state_value_valid(w, m, value, operation)) return w->env.last_result;
    return ecs_sched__message_scope_add(w, message, machine, value, on_enter);
}

/* ---- conditions ----

   Made as a user makes a condition (condition.h): a fn that reads the machine, and a setup
   that checks the machine (and value) as each instance is added and names it. */

static bool ecs_sched__in_state_holds(ecs_sched_system_ctx *ctx) {
    const ecs_sched__cond *c = ecs_sched__cond_of(ctx);
    return ecs_sched__state_is(ctx->world, c->resource, c->state_value);
}

static bool ecs_sched__state_exists_holds(ecs_sched_system_ctx *ctx) {
    return ecs_sched__state_exists(ctx->world, ecs_sched__cond_of(ctx)->resource);
}

/* True when the machine's count of changes moved since this instance last looked. */
static bool ecs_sched__state_changed_holds(ecs_sched_system_ctx *ctx) {
    ecs_sched__cond *c = ecs_sched__cond_of(ctx);
    uint32_t changes = ecs_sched__state_changes(ctx->world, c->resource);
    bool changed = changes != c->seen;
    c->seen = changes;
    return changed;
}

static bool ecs_sched__state_in_stack(const ecs_sched_world *w, ecs_sched_id machine,
                                      int32_t value) {
    const ecs_sched__state_machine *m;
    int32_t i;
    if (ecs_sched__state_is(w, machine, value)) return true;
    m = ecs_sched__state_find(w, machine);
    for (i = 0; m && i < m->depth; i++) {
        if (m->stack[i] == value) return true;
    }
    return false;
}

static bool ecs_sched__in_stack_holds(ecs_sched_system_ctx *ctx) {
    const ecs_sched__cond *c = ecs_sched__cond_of(ctx);
    return ecs_sched__state_in_stack(ctx->world, c->resource, c->state_value);
}

/* Checks a state condition's machine (and value) and names it, unless it has a name:
   "in_state(GameState::Playing)", "state_exists(GameState)", "state_changed(GameState)". */
static ecs_sched_result ecs_sched__state_condition_setup(ecs_sched_world *w,
                                                         ecs_sched_system_ctx *instance,
                                                         const ecs_sched_condition *c) {
    const ecs_sched__state_machine *m = ecs_sched__state_known(w, c->resource, "a state condition");
    bool valued = c->kind == ECS_SCHED_CONDITION_IN_STATE ||
                  c->kind == ECS_SCHED_CONDITION_STATE_IN_STACK;
    char *name;
    if (!m) return w->env.last_result;
    if (valued && !ecs_sched__state_value_valid(w, m, c->state_value, "a state condition")) {
        return w->env.last_result;
    }
    if (c->name) return ECS_SCHED_OK;
    if (valued) {
        name = ecs_sched__state_format(w, "%s(%s::%s)",
                                       c->kind == ECS_SCHED_CONDITION_IN_STATE ? "in_state"
                                                                                : "state_in_stack",
                                       m->name, m->value_names[c->state_value]);
    } else {
        name = ecs_sched__state_format(w, "%s(%s)",
                                       c->kind == ECS_SCHED_CONDITION_STATE_EXISTS
                                           ? "state_exists" : "state_changed", m->name);
    }
    if (!name) return ecs_sched__out_of_memory(w, "copying a run condition");
    ecs_sched__cond_rename(w, ecs_sched__cond_of(instance), name);
    return ECS_SCHED_OK;
}

static ecs_sched_condition ecs_sched__state_condition(ecs_sched_condition_kind kind,
                                                      ecs_sched_condition_fn fn,
                                                      ecs_sched_id machine, int32_t value) {
    ecs_sched_condition c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.fn = fn;
    c.setup = ecs_sched__state_condition_setup;
    c.resource = machine;
    c.state_value = value;
    return c;
}

ecs_sched_condition ecs_sched_condition_in_state(ecs_sched_id machine, int32_t value) {
    return ecs_sched__state_condition(ECS_SCHED_CONDITION_IN_STATE, ecs_sched__in_state_holds,
                                      machine, value);
}

ecs_sched_condition ecs_sched_condition_state_exists(ecs_sched_id machine) {
    return ecs_sched__state_condition(ECS_SCHED_CONDITION_STATE_EXISTS,
                                      ecs_sched__state_exists_holds, machine, 0);
}

ecs_sched_condition ecs_sched_condition_state_changed(ecs_sched_id machine) {
    return ecs_sched__state_condition(ECS_SCHED_CONDITION_STATE_CHANGED,
                                      ecs_sched__state_changed_holds, machine, 0);
}

ecs_sched_condition ecs_sched_condition_state_in_stack(ecs_sched_id machine, int32_t value) {
    return ecs_sched__state_condition(ECS_SCHED_CONDITION_STATE_IN_STACK,
                                      ecs_sched__in_stack_holds, machine, value);
}
