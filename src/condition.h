/* condition: run conditions, their combinators, and the built-in conditions. */

#pragma once
#include "message.h"
#include "entity_access.h"
#include "timer.h"

/* A condition reads the world through its context (its queries and declared resources) and
   says whether what it guards runs. It must not write: a condition that declares write
   access is refused when the schedule is built. */
typedef bool (*ecs_sched_condition_fn)(ecs_sched_system_ctx *ctx);
/* For ECS_SCHED_CONDITION_RESOURCE_EQUALS: true when the resource equals the value. */
typedef bool (*ecs_sched_equals_fn)(const void *resource, const void *value, void *user_data);

typedef enum ecs_sched_condition_kind {
    ECS_SCHED_CONDITION_FN = 0,           /* fn(ctx) */
    ECS_SCHED_CONDITION_AND,              /* operands[0] && operands[1], short-circuit */
    ECS_SCHED_CONDITION_OR,               /* operands[0] || operands[1], short-circuit */
    ECS_SCHED_CONDITION_NOT,              /* !operands[0] */
    ECS_SCHED_CONDITION_RESOURCE_EXISTS,  /* the resource `resource` exists */
    ECS_SCHED_CONDITION_RESOURCE_EQUALS,  /* it exists and equals `value` */
    ECS_SCHED_CONDITION_RUN_ONCE,         /* true the first time it is evaluated only */
    /* Conditions of later modules, made by their constructors (state.h, time.h) with a fn
       and a setup, as a user may make one (see ecs_sched_condition_setup_fn): */
    ECS_SCHED_CONDITION_IN_STATE,         /* state machine `resource` is at `state_value` */
    ECS_SCHED_CONDITION_STATE_EXISTS,     /* state machine `resource` has a value */
    ECS_SCHED_CONDITION_STATE_CHANGED,    /* its value changed since this instance last looked */
    ECS_SCHED_CONDITION_STATE_IN_STACK,   /* `state_value` is current or covered by a push */
    ECS_SCHED_CONDITION_ON_TIMER,         /* each time `duration_ns` elapses */
    ECS_SCHED_CONDITION_ONCE_AFTER_DELAY, /* once, when `duration_ns` has elapsed */
    ECS_SCHED_CONDITION_REPEATING_AFTER_DELAY, /* always, once `duration_ns` elapsed */
    ECS_SCHED_CONDITION_TIME_PAUSED,      /* the virtual clock is paused */
    /* Conditions of this module again: */
    ECS_SCHED_CONDITION_RESOURCE_ADDED,   /* `resource` was added since this instance looked */
    ECS_SCHED_CONDITION_RESOURCE_CHANGED, /* it exists and changed (or was added) since */
    ECS_SCHED_CONDITION_ON_MESSAGE,       /* messages of type `resource` came since it looked */
    ECS_SCHED_CONDITION_ANY_COMPONENT_REMOVED /* tracked component `resource` was removed
                                                 from an entity since it looked */
} ecs_sched_condition_kind;

struct ecs_sched_condition;
/* A condition that checks itself against the world when it is added, before fn ever runs:
   called once per instance (each run_if entry, as it is copied), with the instance's
   context. Anything but ECS_SCHED_OK refuses the add, which returns it (with the message of
   the failure that made it, or one naming the condition). The state and time conditions are
   made this way: their constructor sets fn, setup and the parameters (resource, state_value,
   duration_ns), and their setup checks the machine or the clocks. */
typedef ecs_sched_result (*ecs_sched_condition_setup_fn)(ecs_sched_world *world,
                                                         ecs_sched_system_ctx *instance,
                                                         const struct ecs_sched_condition *c);

/* A condition, by value. Adding it to a system or set copies it (operands, value bytes and
   all), so the originals may go out of scope afterwards. Each run_if entry is its own
   instance: evaluated at most once per schedule run, right before the first system it
   guards would run. */
typedef struct ecs_sched_condition {
    ecs_sched_condition_kind kind;
    const char *name;                 /* for messages and graphs; a default is derived */
    ecs_sched_condition_fn fn;
    void *user_data;                  /* for fn, and for equals */
    ecs_sched_query_desc queries[ECS_SCHED_MAX_QUERIES];
    ecs_sched_id reads[ECS_SCHED_MAX_RESOURCES];
    ecs_sched_id writes[ECS_SCHED_MAX_RESOURCES];   /* must stay empty */
    ecs_sched_id resource;            /* RESOURCE_*; the machine of STATE_* */
    int32_t state_value;              /* IN_STATE, STATE_IN_STACK */
    int64_t duration_ns;              /* ON_TIMER, ONCE_AFTER_DELAY, REPEATING_AFTER_DELAY */
    const void *value;                /* RESOURCE_EQUALS: value_size bytes, copied */
    size_t value_size;
    ecs_sched_equals_fn equals;       /* RESOURCE_EQUALS: NULL compares bytes */
    const struct ecs_sched_condition *operands[2];  /* AND, OR, NOT */
    ecs_sched_condition_setup_fn setup;   /* NULL, or the check of each instance as it is
                                             added (with fn) */
} ecs_sched_condition;

ECS_SCHED_API ecs_sched_condition ecs_sched_condition_and(const ecs_sched_condition *a,
                                                         const ecs_sched_condition *b);
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_or(const ecs_sched_condition *a,
                                                        const ecs_sched_condition *b);
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_not(const ecs_sched_condition *a);
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_resource_exists(ecs_sched_id resource);
/* value_size must be the resource's size. */
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_resource_equals(ecs_sched_id resource,
                                                                     const void *value,
                                                                     size_t value_size);
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_resource_equals_with(
    ecs_sched_id resource, const void *value, size_t value_size, ecs_sched_equals_fn equals,
    void *user_data);
/* The same for a main-thread-only resource (ecs_sched_resource_insert_non_send): they are
   evaluated on the thread that runs the schedule, as every condition that reads one is. */
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_non_send_resource_exists(ecs_sched_id resource);
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_non_send_resource_equals(ecs_sched_id resource,
                                                                              const void *value,
                                                                              size_t value_size);
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_run_once(void);
/* True when the resource was inserted (added), or written through resource_insert,
   resource_get_mut, ecs_sched_ctx_resource_mut or a command (changed), since this
   condition's previous evaluation; false while it does not exist. The first evaluation sees
   everything before it. (CHANGE DETECTION) */
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_resource_added(ecs_sched_id resource);
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_resource_changed(ecs_sched_id resource);
/* True when messages of the type were sent since this condition last looked (it reads them
   with a cursor of its own, so a system it guards still reads them all). */
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_on_message(ecs_sched_id message);
/* True when a tracked component was removed from an entity (or despawned with it) since this
   condition last looked. */
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_any_component_removed(ecs_sched_id component);

/* (C99) The address of a condition made by an expression, for run_if lists:
       .run_if = {ECS_SCHED_COND(ecs_sched_condition_resource_exists(score_id))}
   It lives until the end of the enclosing block, long enough for the add call, which copies
   it. In C++, keep the condition in a variable and take its address instead. */
#define ECS_SCHED_COND(condition) ((const ecs_sched_condition[1]){condition})

/*@@ implementation @@*/
/* condition: run conditions, their combinators, and the built-in conditions. */

#define ECS_SCHED__CONDITION_DEPTH 32

/* One node of a condition tree, copied into a schedule. */
typedef struct ecs_sched__cond {
    ecs_sched_condition_kind kind;
    int32_t operands[2];
    ecs_sched_condition_fn fn;
    ecs_sched_id resource;            /* read by it (access.h) */
    int32_t state_value;
    uint32_t seen;                    /* for a fn: a count it saw at its last evaluation */
    ecs_sched_timer timer;            /* for a fn: a period or a delay of its own */
    ecs_sched_id first_write;         /* a write it asked for, refused at build */
    bool first_write_is_resource;
    bool has_run;
    ecs_sched_equals_fn equals;
    unsigned char *value;
    size_t value_size;
    char *name;
#ifdef ECS_SCHED_TRACE
    uint64_t watch_run;               /* the watched run of its last evaluation (trace.h) */
    bool watch_held;                  /* and its result */
#endif
    ecs_sched_system_ctx ctx;         /* read-only view for fn */
} ecs_sched__cond;

/* The conditions of one schedule: nodes live at stable addresses. */
typedef struct ecs_sched__conds {
    ecs_sched__cond **items;
    uint32_t count;
    uint32_t capacity;
} ecs_sched__conds;

/* The node of an instance, from its context: what the fn and setup of a condition made by a
   later module (the state and time conditions) keep per instance. */
static ecs_sched__cond *ecs_sched__cond_of(ecs_sched_system_ctx *ctx) {
    return (ecs_sched__cond *)(void *)((char *)ctx - offsetof(ecs_sched__cond, ctx));
}

/* Names an instance (a setup's name for a condition given none): takes `name`, made with
   the world's allocator. */
static void ecs_sched__cond_rename(ecs_sched_world *w, ecs_sched__cond *node, char *name) {
    ecs_sched__free(&w->env, node->name);
    node->name = name;
    node->ctx.run.name = name;
}

/* Whether this module evaluates the kind itself; the others call their fn. */
static bool ecs_sched__condition_built_in(ecs_sched_condition_kind kind) {
    return (kind >= ECS_SCHED_CONDITION_AND && kind <= ECS_SCHED_CONDITION_RUN_ONCE) ||
           (kind >= ECS_SCHED_CONDITION_RESOURCE_ADDED &&
            kind <= ECS_SCHED_CONDITION_ANY_COMPONENT_REMOVED);
}

static ecs_sched_condition ecs_sched__condition_of(ecs_sched_condition_kind kind) {
    ecs_sched_condition c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    return c;
}

ecs_sched_condition ecs_sched_condition_and(const ecs_sched_condition *a,
                                            const ecs_sched_condition *b) {
    ecs_sched_condition c = ecs_sched__condition_of(ECS_SCHED_CONDITION_AND);
    c.operands[0] = a;
    c.operands[1] = b;
    return c;
}

ecs_sched_condition ecs_sched_condition_or(const ecs_sched_condition *a,
                                           const ecs_sched_condition *b) {
    ecs_sched_condition c = ecs_sched__condition_of(ECS_SCHED_CONDITION_OR);
    c.operands[0] = a;
    c.operands[1] = b;
    return c;
}

ecs_sched_condition ecs_sched_condition_not(const ecs_sched_condition *a) {
    ecs_sched_condition c = ecs_sched__condition_of(ECS_SCHED_CONDITION_NOT);
    c.operands[0] = a;
    return c;
}

ecs_sched_condition ecs_sched_condition_resource_exists(ecs_sched_id resource) {
    ecs_sched_condition c = ecs_sched__condition_of(ECS_SCHED_CONDITION_RESOURCE_EXISTS);
    c.resource = resource;
    return c;
}

ecs_sched_condition ecs_sched_condition_resource_equals(ecs_sched_id resource, const void *value,
                                                        size_t value_size) {
    return ecs_sched_condition_resource_equals_with(resource, value, value_size, NULL, NULL);
}

/* The resource's mark, not the condition, keeps these on the calling thread. */
ecs_sched_condition ecs_sched_condition_non_send_resource_exists(ecs_sched_id resource) {
    return ecs_sched_condition_resource_exists(resource);
}

ecs_sched_condition ecs_sched_condition_non_send_resource_equals(ecs_sched_id resource,
                                                                const void *value,
                                                                size_t value_size) {
    return ecs_sched_condition_resource_equals(resource, value, value_size);
}

ecs_sched_condition ecs_sched_condition_resource_equals_with(ecs_sched_id resource,
                                                             const void *value, size_t value_size,
                                                             ecs_sched_equals_fn equals,
                                                             void *user_data) {
    ecs_sched_condition c = ecs_sched__condition_of(ECS_SCHED_CONDITION_RESOURCE_EQUALS);
    c.resource = resource;
    c.value = value;
    c.value_size = value_size;
    c.equals = equals;
    c.user_data = user_data;
    return c;
}

ecs_sched_condition ecs_sched_condition_run_once(void) {
    return ecs_sched__condition_of(ECS_SCHED_CONDITION_RUN_ONCE);
}

ecs_sched_condition ecs_sched_condition_resource_added(ecs_sched_id resource) {
    ecs_sched_condition c = ecs_sched__condition_of(ECS_SCHED_CONDITION_RESOURCE_ADDED);
    c.resource = resource;
    return c;
}

ecs_sched_condition ecs_sched_condition_resource_changed(ecs_sched_id resource) {
    ecs_sched_condition c = ecs_sched__condition_of(ECS_SCHED_CONDITION_RESOURCE_CHANGED);
    c.resource = resource;
    return c;
}

ecs_sched_condition ecs_sched_condition_on_message(ecs_sched_id message) {
    ecs_sched_condition c = ecs_sched__condition_of(ECS_SCHED_CONDITION_ON_MESSAGE);
    c.resource = message;
    return c;
}

ecs_sched_condition ecs_sched_condition_any_component_removed(ecs_sched_id component) {
    ecs_sched_condition c = ecs_sched__condition_of(ECS_SCHED_CONDITION_ANY_COMPONENT_REMOVED);
    c.resource = component;
    return c;
}

/* A condition's name when it is given none, by kind (a condition with a setup may name
   itself there, as the state and time conditions do). */
static const char *ecs_sched__condition_default_name(ecs_sched_condition_kind kind) {
    static const char *const names[] = {
        "condition", "and", "or", "not", "resource_exists", "resource_equals", "run_once",
        "condition", "condition", "condition", "condition",
        "condition", "condition", "condition", "condition",
        "resource_added", "resource_changed", "on_message", "any_component_removed"};
    int index = (int)kind;
    return index >= 0 && index < (int)(sizeof names / sizeof names[0]) ? names[index]
                                                                       : "condition";
}

static void ecs_sched__cond_free(ecs_sched_world *w, ecs_sched__cond *c) {
    int32_t i;
    if (!c) return;
    for (i = 0; i < c->ctx.query_count; i++) ecs_sched_query_destroy(c->ctx.queries[i]);
    ecs_sched__free(&w->env, c->ctx.run.failure_message);
    ecs_sched__free(&w->env, c->ctx.cursors);
    ecs_sched__free(&w->env, c->value);
    ecs_sched__free(&w->env, c->name);
    ecs_sched__free(&w->env, c);
}

static void ecs_sched__conds_free(ecs_sched_world *w, ecs_sched__conds *conds) {
    uint32_t i;
    for (i = 0; i < conds->count; i++) ecs_sched__cond_free(w, conds->items[i]);
    ecs_sched__free(&w->env, conds->items);
    memset(conds, 0, sizeof *conds);
}

/* Tells the nodes from `first` on (one condition tree) what they guard, for messages. */
static void ecs_sched__conds_guard(ecs_sched__conds *conds, uint32_t first, const char *kind,
                                   const char *name, const char *schedule) {
    uint32_t i;
    for (i = first; i < conds->count; i++) {
        conds->items[i]->ctx.run.guards_kind = kind;
        conds->items[i]->ctx.run.guards_name = name;
        conds->items[i]->ctx.run.schedule = schedule;
    }
}

/* Drops the nodes added after `count` (a half-copied tree). */
static void ecs_sched__conds_truncate(ecs_sched_world *w, ecs_sched__conds *conds, uint32_t count) {
    while (conds->count > count) ecs_sched__cond_free(w, conds->items[--conds->count]);
}

static ecs_sched_result ecs_sched__cond_fill(ecs_sched_world *w, ecs_sched__cond *node,
                                             const ecs_sched_condition *c) {
    int32_t i, t;
    const char *name = c->name ? c->name : ecs_sched__condition_default_name(c->kind);
    node->kind = c->kind;
    node->fn = ecs_sched__condition_built_in(c->kind) ? NULL : c->fn;   /* NULL: no call */
    node->resource = c->resource;
    node->state_value = c->state_value;
    node->equals = c->equals;
    node->operands[0] = node->operands[1] = -1;
    node->name = ecs_sched__strdup(&w->env, name);
    if (!node->name) return ecs_sched__out_of_memory(w, "copying a run condition");
    node->ctx.world = w;
    node->ctx.run.env = &w->env;
    node->ctx.run.owner = &node->ctx;
    node->ctx.run.name = node->name;
    node->ctx.run.kind = "condition";
    node->ctx.user_data = c->user_data;
    node->ctx.read_only = true;
    if (!ecs_sched__condition_built_in(c->kind) && !c->fn) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "condition '%s' has no function", name);
    }
    if ((c->kind == ECS_SCHED_CONDITION_RESOURCE_EXISTS ||
         c->kind == ECS_SCHED_CONDITION_RESOURCE_EQUALS ||
         c->kind == ECS_SCHED_CONDITION_RESOURCE_ADDED ||
         c->kind == ECS_SCHED_CONDITION_RESOURCE_CHANGED) &&
        !ecs_sched__component_valid(w, c->resource)) {
        return ecs_sched__unknown_component(w, c->resource, name);
    }
    if (c->kind == ECS_SCHED_CONDITION_RESOURCE_ADDED ||
        c->kind == ECS_SCHED_CONDITION_RESOURCE_CHANGED) {
        ecs_sched__ticks_turn_on(w);
    }
    if (c->kind == ECS_SCHED_CONDITION_ON_MESSAGE && !ecs_sched_is_message(w, c->resource)) {
        return ecs_sched__not_a_message(w, c->resource, name);
    }
    if (c->kind == ECS_SCHED_CONDITION_ANY_COMPONENT_REMOVED &&
        (!ecs_sched__component_valid(w, c->resource) || !w->components[c->resource].removals)) {
        return ecs_sched__removals_of_untracked(w, c->resource, name);
    }
    if (c->setup) {
        ecs_sched_result result = c->setup(w, &node->ctx, c);
        if (result != ECS_SCHED_OK && result != w->env.last_result) {   /* said nothing */
            return ecs_sched__fail(&w->env, result, "condition '%s': its setup refused it (%s)",
                                   name, ecs_sched_result_string(result));
        }
        if (result != ECS_SCHED_OK) return result;
    }
    if (c->kind == ECS_SCHED_CONDITION_RESOURCE_EQUALS) {
        if (!c->value || c->value_size != w->components[c->resource].size || c->value_size == 0) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "condition '%s': the value to compare with resource '%s' must "
                                   "be %u bytes, the resource's size (got %lu)",
                                   name, w->components[c->resource].name,
                                   (unsigned)w->components[c->resource].size,
                                   (unsigned long)c->value_size);
        }
        node->value = (unsigned char *)ecs_sched__alloc(&w->env, c->value_size);
        if (!node->value) return ecs_sched__out_of_memory(w, "copying a run condition");
        memcpy(node->value, c->value, c->value_size);
        node->value_size = c->value_size;
    }
    for (i = 0; i < ECS_SCHED_MAX_RESOURCES; i++) {
        if (c->reads[i] && !ecs_sched__component_valid(w, c->reads[i])) {
            return ecs_sched__unknown_component(w, c->reads[i], name);
        }
        if (c->reads[i]) node->ctx.reads[node->ctx.read_count++] = c->reads[i];
        if (c->writes[i] && !node->first_write) {
            node->first_write = c->writes[i];
            node->first_write_is_resource = true;
        }
    }
    for (i = 0; i < ECS_SCHED_MAX_QUERIES && !ecs_sched__term_ends(&c->queries[i].terms[0]); i++) {
        ecs_sched_query *q = ecs_sched_query_create(w, &c->queries[i]);
        if (!q) {
            char who[200];
            snprintf(who, sizeof who, "condition '%s', query %d", name, (int)i);
            return ecs_sched__fail_again_for(w, who);
        }
        node->ctx.queries[node->ctx.query_count++] = q;
        for (t = 0; t < q->term_count; t++) {
            if (ecs_sched__term_writes(q->terms[t].kind) && !node->first_write) {
                node->first_write = q->terms[t].id;
            }
        }
    }
    return ECS_SCHED_OK;
}

/* Copies a condition tree into `conds`; returns the root's index, or -1 with the world's
   error set (and nothing added). */
static int32_t ecs_sched__cond_copy_at(ecs_sched_world *w, ecs_sched__conds *conds,
                                       const ecs_sched_condition *c, int depth) {
    ecs_sched__cond *node;
    int32_t index, operands = 0, i;
    if (depth > ECS_SCHED__CONDITION_DEPTH) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "a condition nests deeper than %d levels (does an operand point back at "
                        "its own condition?)", ECS_SCHED__CONDITION_DEPTH);
        return -1;
    }
    if (!ECS_SCHED__GROW(&w->env, conds->items, &conds->capacity, conds->count + 1) ||
        !(node = (ecs_sched__cond *)ecs_sched__calloc(&w->env, sizeof *node))) {
        ecs_sched__out_of_memory(w, "copying a run condition");
        return -1;
    }
    index = (int32_t)conds->count;
    conds->items[conds->count++] = node;
    if (ecs_sched__cond_fill(w, node, c) != ECS_SCHED_OK) return -1;
    if (c->kind == ECS_SCHED_CONDITION_AND || c->kind == ECS_SCHED_CONDITION_OR) operands = 2;
    if (c->kind == ECS_SCHED_CONDITION_NOT) operands = 1;
    for (i = 0; i < operands; i++) {
        int32_t child;
        if (!c->operands[i]) {
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                            "condition '%s' needs %d operand(s)", node->name, (int)operands);
            return -1;
        }
        child = ecs_sched__cond_copy_at(w, conds, c->operands[i], depth + 1);
        if (child < 0) return -1;
        conds->items[index]->operands[i] = child;
    }
    return index;
}

static int32_t ecs_sched__cond_copy(ecs_sched_world *w, ecs_sched__conds *conds,
                                    const ecs_sched_condition *c) {
    uint32_t before = conds->count;
    int32_t root = ecs_sched__cond_copy_at(w, conds, c, 0);
    if (root < 0) ecs_sched__conds_truncate(w, conds, before);
    return root;
}

/* The first write access anywhere in the tree (0 when read-only). */
static const ecs_sched__cond *ecs_sched__cond_find_write(const ecs_sched__conds *conds,
                                                         int32_t index) {
    const ecs_sched__cond *c = conds->items[index];
    int32_t i;
    if (c->first_write) return c;
    for (i = 0; i < 2; i++) {
        if (c->operands[i] >= 0) {
            const ecs_sched__cond *found = ecs_sched__cond_find_write(conds, c->operands[i]);
            if (found) return found;
        }
    }
    return NULL;
}

/* Evaluates a condition tree; AND and OR short-circuit. The context of the first condition
   function that fails (see ecs_sched_ctx_fail) goes to *failed, NULL until then. */
static bool ecs_sched__cond_eval(const ecs_sched__conds *conds, int32_t index,
                                 ecs_sched_system_ctx **failed) {
    ecs_sched__cond *c = conds->items[index];
    ecs_sched_world *w = c->ctx.world;
    bool result = false;
    if (w->ticks_on) ecs_sched__ctx_take_tick(&c->ctx);
    if (c->fn) {   /* a condition function, or a kind of a later module made as users make theirs */
        ecs_sched__running *outer = ecs_sched__running_begin(&c->ctx);
        result = c->fn(&c->ctx);
        ecs_sched__running_end(outer);
        if (c->ctx.run.failure != ECS_SCHED_OK && !*failed) *failed = &c->ctx;
        return result;
    }
    switch (c->kind) {
    case ECS_SCHED_CONDITION_FN:   /* not reached: these have a fn */
    case ECS_SCHED_CONDITION_IN_STATE:
    case ECS_SCHED_CONDITION_STATE_EXISTS:
    case ECS_SCHED_CONDITION_STATE_CHANGED:
    case ECS_SCHED_CONDITION_STATE_IN_STACK:
    case ECS_SCHED_CONDITION_ON_TIMER:
    case ECS_SCHED_CONDITION_ONCE_AFTER_DELAY:
    case ECS_SCHED_CONDITION_REPEATING_AFTER_DELAY:
    case ECS_SCHED_CONDITION_TIME_PAUSED:
        break;
    case ECS_SCHED_CONDITION_AND:
        result = ecs_sched__cond_eval(conds, c->operands[0], failed) &&
                 ecs_sched__cond_eval(conds, c->operands[1], failed);
        break;
    case ECS_SCHED_CONDITION_OR:
        result = ecs_sched__cond_eval(conds, c->operands[0], failed) ||
                 ecs_sched__cond_eval(conds, c->operands[1], failed);
        break;
    case ECS_SCHED_CONDITION_NOT:
        result = !ecs_sched__cond_eval(conds, c->operands[0], failed);
        break;
    case ECS_SCHED_CONDITION_RESOURCE_EXISTS:
        result = ecs_sched_resource_exists(w, c->resource);
        break;
    case ECS_SCHED_CONDITION_RESOURCE_EQUALS:
        if (ecs_sched_resource_exists(w, c->resource)) {
            const void *current = w->resources[c->resource];
            result = c->equals ? c->equals(current, c->value, c->ctx.user_data)
                               : memcmp(current, c->value, c->value_size) == 0;
        }
        break;
    case ECS_SCHED_CONDITION_RESOURCE_ADDED:
    case ECS_SCHED_CONDITION_RESOURCE_CHANGED:
        if (ecs_sched_resource_exists(w, c->resource)) {
            const ecs_sched__stamp *stamp = &w->resource_stamps[c->resource];
            uint32_t tick = c->kind == ECS_SCHED_CONDITION_RESOURCE_ADDED ? stamp->added
                                                                           : stamp->changed;
            result = ecs_sched__tick_newer(tick, c->ctx.last_run, c->ctx.run.this_run);
        }
        break;
    case ECS_SCHED_CONDITION_ON_MESSAGE:
        result = ecs_sched__ctx_take_unread(&c->ctx, w->components[c->resource].queue);
        break;
    case ECS_SCHED_CONDITION_ANY_COMPONENT_REMOVED:
        result = ecs_sched__ctx_take_unread(&c->ctx, w->components[c->resource].removals);
        break;
    case ECS_SCHED_CONDITION_RUN_ONCE:
        result = !c->has_run;
        c->has_run = true;
        break;
    }
    return result;
}
