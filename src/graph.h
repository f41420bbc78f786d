/* graph: schedules as stored: systems, sets, their configuration, labels. */
#pragma once
#include "condition.h"

/* How a build reports a problem that does not make the graph unsolvable. */
typedef enum ecs_sched_report {
    ECS_SCHED_REPORT_DEFAULT = 0,    /* the rule's default */
    ECS_SCHED_REPORT_IGNORE,
    ECS_SCHED_REPORT_WARN,           /* log a warning, build anyway */
    ECS_SCHED_REPORT_ERROR           /* fail the build */
} ecs_sched_report;

/* Where a system or set sits: the sets it is in, what it runs before and after (systems or
   sets, by name), its run conditions, and which conflicts with it are known to be harmless.
   Configuration only ever adds; it is solved when the schedule is built.
   Run conditions are given by address (NULL entries are skipped) and copied when added, so a
   condition can be defined once and used by many systems:
       static const ecs_sched_condition not_paused = {.fn = is_running, .reads = {paused_id}};
       ... .run_if = {&not_paused} ...
       ... .run_if = {&(ecs_sched_condition){.fn = every_other_frame}} ...      (C99)
       ... .run_if = {ECS_SCHED_COND(ecs_sched_condition_run_once())} ...      (C99) */
#define ECS_SCHED__NODE_CONFIG                                                              \
    bool ambiguous_with_all;                                                                \
    const char *in_set[ECS_SCHED_MAX_REFS];                                                 \
    const char *before[ECS_SCHED_MAX_REFS];                                                 \
    const char *after[ECS_SCHED_MAX_REFS];                                                  \
    /* the same, without an automatic sync point for this edge */                           \
    const char *before_ignore_deferred[ECS_SCHED_MAX_REFS];                                 \
    const char *after_ignore_deferred[ECS_SCHED_MAX_REFS];                                  \
    const ecs_sched_condition *run_if[ECS_SCHED_MAX_CONDITIONS];                            \
    const char *ambiguous_with[ECS_SCHED_MAX_REFS]

typedef struct ecs_sched_system_desc {
    const char *name;                /* default: "system" */
    ecs_sched_system_fn fn;          /* ecs_sched_apply_deferred makes a sync point */
    void *user_data;
    ecs_sched_query_desc queries[ECS_SCHED_MAX_QUERIES];
    const char *query_text;          /* the first query written as text (see QUERIES AS TEXT),
                                        with queries[0] left empty */
    ecs_sched_id reads[ECS_SCHED_MAX_RESOURCES];    /* resources read */
    ecs_sched_id writes[ECS_SCHED_MAX_RESOURCES];   /* resources written */
    bool exclusive;                  /* gets the whole world, runs alone */
    bool commands;                   /* records commands in its own buffer */
    bool main_thread;                /* runs on the thread that runs the schedule (for APIs
                                        bound to the thread that made a window or context);
                                        unlike exclusive, others run meanwhile */
    ECS_SCHED__NODE_CONFIG;
} ecs_sched_system_desc;

typedef struct ecs_sched_set_desc {
    const char *name;                /* required */
    ECS_SCHED__NODE_CONFIG;
} ecs_sched_set_desc;

/* Several systems at once. A shared in_set puts each system in those sets; the rest of the
   shared configuration (before, after, run_if, ...) applies to the group as a whole, through an
   anonymous set holding them: its conditions are evaluated once for the group. With chain,
   each system runs before the next. */
typedef struct ecs_sched_systems_desc {
    const ecs_sched_system_desc *systems;
    int32_t count;
    bool chain;
    bool chain_ignore_deferred;      /* chain without automatic sync points (implies chain) */
    ECS_SCHED__NODE_CONFIG;
} ecs_sched_systems_desc;

typedef struct ecs_sched_schedule_desc {
    const char *default_set;         /* systems added without in_set go in this set */
    ecs_sched_report cross_set_dependencies;  /* default warn */
    ecs_sched_report unknown_sets;            /* default error */
    ecs_sched_report ambiguities;             /* default warn */
    ecs_sched_report duplicate_names;         /* default error */
    bool no_auto_sync;               /* do not insert sync points after command writers */
    uint64_t shuffle_seed;           /* nonzero: shuffle the unconstrained order with it */
    ecs_sched_executor executor;     /* default: the world's (ecs_sched_world_desc.executor) */
    ecs_sched_error_policy on_error; /* default: the world's; HOOK uses the world's hook */
} ecs_sched_schedule_desc;

/* The sync-point system: use it as a system's fn. When it runs, the pending commands of every
   system of the schedule are applied, in plan order. */
ECS_SCHED_API void ecs_sched_apply_deferred(ecs_sched_system_ctx *ctx);

/* Each of these creates the schedule when the label is new, and marks a built schedule for
   rebuilding before its next run. In an app, a schedule made (or set) with
   ecs_sched_schedule_configure is one your code runs: the app does not ask that it is in
   one of its orders (see THE APP). */
ECS_SCHED_API ecs_sched_result ecs_sched_schedule_configure(ecs_sched_world *world,
                                                           const char *schedule,
                                                           const ecs_sched_schedule_desc *desc);
ECS_SCHED_API ecs_sched_result ecs_sched_add_system(ecs_sched_world *world, const char *schedule,
                                                   const ecs_sched_system_desc *desc);
ECS_SCHED_API ecs_sched_result ecs_sched_add_systems(ecs_sched_world *world, const char *schedule,
                                                    const ecs_sched_systems_desc *desc);
ECS_SCHED_API ecs_sched_result ecs_sched_configure_set(ecs_sched_world *world,
                                                      const char *schedule,
                                                      const ecs_sched_set_desc *desc);
/* Removes every system named `name` from the schedule, with what they were configured with
   (their sets, orderings and run conditions); what others say of the name stays, as it would
   for a name never added. The schedule is rebuilt before its next run. A schedule that is
   running is ECS_SCHED_ERR_SCHEDULE_RUNNING; a name no system has is ECS_SCHED_ERR_NOT_FOUND. */
ECS_SCHED_API ecs_sched_result ecs_sched_remove_system(ecs_sched_world *world, const char *schedule,
                                                      const char *name);
/* Orders sets one after the other: sets[0] before sets[1] before ... */
ECS_SCHED_API ecs_sched_result ecs_sched_chain_sets(ecs_sched_world *world, const char *schedule,
                                                   int32_t count, const char *const *sets,
                                                   bool ignore_deferred);
ECS_SCHED_API bool ecs_sched_schedule_exists(const ecs_sched_world *world, const char *schedule);

/*@@ implementation @@*/
/* graph: schedules as stored: systems, sets, their configuration, labels. */

#define ECS_SCHED__MAX_NESTED_RUNS 64


enum {
    ECS_SCHED__REL_IN_SET,
    ECS_SCHED__REL_BEFORE,
    ECS_SCHED__REL_AMBIGUOUS,
    ECS_SCHED__REL_KINDS
};

/* A reference to a node before the build resolves names: a system instance (>= 0), or a name
   (-(name index) - 1) that the build resolves to a set or to the systems of that name. */
typedef int32_t ecs_sched__ref;

/* One piece of configuration: subject in_set / before / ambiguous_with object. ("a after b"
   is stored as "b before a".) */
typedef struct ecs_sched__relation {
    ecs_sched__ref subject;
    ecs_sched__ref object;
    bool ignore_deferred;
} ecs_sched__relation;

/* The relations of one kind, in the order configured. Each pass of a build reads one kind,
   and a schedule can hold hundreds of thousands of orderings against a few in_set. */
typedef struct ecs_sched__relations {
    ecs_sched__relation *items;
    uint32_t count;
    uint32_t capacity;
} ecs_sched__relations;

/* A run condition instance attached to a system or a set. */
typedef struct ecs_sched__guard {
    ecs_sched__ref subject;
    int32_t cond;
} ecs_sched__guard;

typedef struct ecs_sched__name {
    char *text;
    bool configured;          /* configure_set, chain_sets, or an anonymous group */
    bool anonymous;           /* a group's set: not reachable by name */
    bool ambiguous_with_all;
    int32_t system_count;     /* systems with this name */
    int32_t first_system;
    /* relations naming it, counted as they come and go so that a build need not read them
       all to tell which names are sets */
    int32_t references;       /* as subject or object, of any kind */
    int32_t set_references;   /* as the set of an in_set */
    int32_t orderings;        /* in a before/after or an ambiguous_with */
} ecs_sched__name;

#ifdef ECS_SCHED_TRACE
/* What trace.h and stepping.h keep of a system: its outcome in its schedule's last watched
   run, its statistics, whether it is switched off, how stepping treats it. */
typedef struct ecs_sched__system_watch {
    uint64_t run;                /* the schedule's watched run the outcome belongs to */
    int64_t ticks;               /* what it took, in trace clock ticks; -1: not timed */
    const char *condition;       /* skipped: the condition found false */
    const char *set;             /* and the set that has it, or NULL */
    struct {
        int64_t runs, total, min, max;   /* trace clock ticks */
    } stats;
    int32_t thread;
    uint8_t outcome;             /* ecs_sched_outcome */
    uint8_t step;                /* ecs_sched_step_behaviour */
    bool disabled;
} ecs_sched__system_watch;
#endif

typedef struct ecs_sched__system {
    ecs_sched_system_fn fn;   /* next to the start of ctx, which a run reads */
    ecs_sched_system_ctx ctx;
    int32_t name;
    bool is_apply_deferred;
    bool ambiguous_with_all;
    bool explicit_set;        /* its desc (or its group's) named a set */
    bool main_thread;         /* asked for; a non-send resource in its access also makes it so */
#ifdef ECS_SCHED_TRACE
    ecs_sched__system_watch watch;
#endif
} ecs_sched__system;


typedef struct ecs_sched__schedule {
    char *label;
    ecs_sched_world *world;
    ecs_sched_schedule_desc settings;
    int32_t default_set;                 /* name index, -1 for none */
    ecs_sched__system **systems;
    uint32_t system_count;
    uint32_t system_capacity;
    ecs_sched__name *names;
    uint32_t name_count;
    uint32_t name_capacity;
    ecs_sched__name_map name_index;      /* name text -> names[] */
    ecs_sched__relations relations[ECS_SCHED__REL_KINDS];
    ecs_sched__guard *guards;
    uint32_t guard_count;
    uint32_t guard_capacity;
    ecs_sched__conds conds;
    int32_t group_count;
    bool built;                          /* the plan matches the configuration */
    bool running;
    bool declared;                       /* made or set by ecs_sched_schedule_configure: its
                                            owner's code runs it (an app asks no more, app.h) */
    void *plan;                          /* the built plan (plan.h's: ecs_sched__plan_of), NULL
                                            until the first build; plan.h frees it */
    /* the failures of the current (or last) run, kept by executor.h */
    int32_t failure_at;                  /* plan position of the first in plan order */
    ecs_sched_result failure_code;       /* OK: none */
    bool stopped;                        /* the run stopped at a failure */
    ecs_sched_error_policy run_policy;   /* the policy and hook the run started with: one */
    ecs_sched_error_hook run_hook;       /* set during the run applies from the next run */
    char failure_message[ECS_SCHED__ERROR_CAPACITY];
#ifdef ECS_SCHED_TRACE
    uint64_t watch_run;                  /* watched runs so far (trace.h) */
    bool stepping;                       /* stepping.h */
    uint8_t step_action;
    int32_t step_cursor;                 /* the plan position the next step starts from */
    const void *step_plan;               /* the plan the cursor is a position of */
#endif
} ecs_sched__schedule;

typedef struct ecs_sched__schedules ecs_sched__schedules;

/* The part of the world this module keeps (registry.h). */
static ecs_sched__part_key ecs_sched__schedules_key;

struct ecs_sched__schedules {
    ecs_sched__schedule **items;
    uint32_t count;
    uint32_t capacity;
    ecs_sched__name_map by_label;        /* label -> items[] */
    ecs_sched__schedule *stack[ECS_SCHED__MAX_NESTED_RUNS];  /* schedules now running */
    int32_t depth;
    uint32_t systems_added;              /* systems ever added, to any schedule: how the app
                                            tells its checks are due again (app.h) */
    uint64_t top_runs;                   /* runs started with no other schedule running */
    bool top_runs_held;                  /* an apply of state transitions outside any run is
                                            running: its schedules are not counted (state.h) */
};

static inline ecs_sched__schedules *ecs_sched__schedules_of(const ecs_sched_world *w) {
    return (ecs_sched__schedules *)ecs_sched__part(w, &ecs_sched__schedules_key);
}

/* ---- storage ---- */

/* Every zero field of a schedule desc resolved, the executor against the world's; `desc` may
   be NULL. The default set is kept interned by the schedule instead. */
static ecs_sched_schedule_desc ecs_sched__schedule_desc_defaults(
    const ecs_sched_world *w, const ecs_sched_schedule_desc *desc) {
    ecs_sched_schedule_desc d;
    if (desc) d = *desc;
    else memset(&d, 0, sizeof d);
    d.default_set = NULL;
    if (!d.cross_set_dependencies) d.cross_set_dependencies = ECS_SCHED_REPORT_WARN;
    if (!d.unknown_sets) d.unknown_sets = ECS_SCHED_REPORT_ERROR;
    if (!d.ambiguities) d.ambiguities = ECS_SCHED_REPORT_WARN;
    if (!d.duplicate_names) d.duplicate_names = ECS_SCHED_REPORT_ERROR;
    if (!d.executor) d.executor = w->executor;
    return d;
}

/* Where the executor choice is read: the parallel executor exists only with threads. */
static bool ecs_sched__runs_in_parallel(const ecs_sched__schedule *s) {
#ifdef ECS_SCHED_THREADS
    return s->settings.executor == ECS_SCHED_EXECUTOR_PARALLEL;
#else
    (void)s;
    return false;
#endif
}

void ecs_sched_apply_deferred(ecs_sched_system_ctx *ctx) {
    (void)ctx;  /* the executor applies the buffers when it reaches this system */
}

/* A system's memory, on a cache line of its own: every run reads its fn and, in its context,
   its queries and its failure, which then share that line (the allocator's spacing would
   split them over two for some systems). */
static ecs_sched__system *ecs_sched__system_alloc(ecs_sched_world *w) {
    ecs_sched__system *sys = (ecs_sched__system *)ecs_sched__aligned_alloc(
        &w->env, sizeof *sys, 64 /* a cache line */);
    if (sys) memset(sys, 0, sizeof *sys);
    return sys;
}

static void ecs_sched__system_free(ecs_sched_world *w, ecs_sched__system *s) {
    int32_t i;
    for (i = 0; i < s->ctx.query_count; i++) ecs_sched_query_destroy(s->ctx.queries[i]);
    ecs_sched_commands_destroy(s->ctx.commands);
    ecs_sched__free(&w->env, s->ctx.run.failure_message);
    ecs_sched__free(&w->env, s->ctx.cursors);
    ecs_sched__aligned_free(&w->env, s);
}

/* A schedule goes, but for its plan (see ecs_sched__schedules_free in plan.h). */
static void ecs_sched__schedule_free(ecs_sched_world *w, ecs_sched__schedule *s) {
    uint32_t i;
    for (i = 0; i < s->system_count; i++) ecs_sched__system_free(w, s->systems[i]);
    ecs_sched__name_map_free(&s->name_index);
    for (i = 0; i < s->name_count; i++) ecs_sched__free(&w->env, s->names[i].text);
    ecs_sched__conds_free(w, &s->conds);
    ecs_sched__free(&w->env, s->systems);
    ecs_sched__free(&w->env, s->names);
    for (i = 0; i < ECS_SCHED__REL_KINDS; i++) ecs_sched__free(&w->env, s->relations[i].items);
    ecs_sched__free(&w->env, s->guards);
    ecs_sched__free(&w->env, s->label);
    ecs_sched__free(&w->env, s);
}

static ecs_sched__schedule *ecs_sched__schedule_find(const ecs_sched_world *w, const char *label) {
    ecs_sched__schedules *all = ecs_sched__schedules_of(w);
    int32_t i;
    if (!all) return NULL;
    i = ecs_sched__name_map_get(&all->by_label, label);
    return i < 0 ? NULL : all->items[i];
}

static ecs_sched__schedule *ecs_sched__schedule_get(ecs_sched_world *w, const char *label) {
    ecs_sched__schedules *all;
    ecs_sched__schedule *s;
    if (!label || !label[0]) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT, "a schedule needs a label");
        return NULL;
    }
    s = ecs_sched__schedule_find(w, label);
    if (s) return s;
    if (!ecs_sched__schedules_of(w)) {
        ecs_sched__part_set(w, &ecs_sched__schedules_key, (ecs_sched__schedules *)ecs_sched__calloc(&w->env, sizeof *ecs_sched__schedules_of(w)));
        if (!ecs_sched__schedules_of(w)) {
            ecs_sched__out_of_memory(w, "creating a schedule");
            return NULL;
        }
    }
    all = ecs_sched__schedules_of(w);
    if (!ECS_SCHED__GROW(&w->env, all->items, &all->capacity, all->count + 1) ||
        !(s = (ecs_sched__schedule *)ecs_sched__calloc(&w->env, sizeof *s))) {
        ecs_sched__out_of_memory(w, "creating a schedule");
        return NULL;
    }
    s->label = ecs_sched__strdup(&w->env, label);
    if (!s->label) {
        ecs_sched__free(&w->env, s);
        ecs_sched__out_of_memory(w, "creating a schedule");
        return NULL;
    }
    s->world = w;
    s->default_set = -1;
    s->settings = ecs_sched__schedule_desc_defaults(w, NULL);
    all->items[all->count] = s;
    ecs_sched__name_map_put(&all->by_label, s->label, (int32_t)all->count);
    all->count++;
    return s;
}

/* A new name entry; -1 when out of memory. */
static int32_t ecs_sched__name_new(ecs_sched_world *w, ecs_sched__schedule *s, const char *text) {
    ecs_sched__name *n;
    if (!ECS_SCHED__GROW(&w->env, s->names, &s->name_capacity, s->name_count + 1)) {
        ecs_sched__out_of_memory(w, "naming a system or set");
        return -1;
    }
    n = &s->names[s->name_count];
    memset(n, 0, sizeof *n);
    n->first_system = -1;
    n->text = ecs_sched__strdup(&w->env, text);
    if (!n->text) {
        ecs_sched__out_of_memory(w, "naming a system or set");
        return -1;
    }
    return (int32_t)s->name_count++;
}

/* The index of a name, interned on first use; -1 when out of memory. */
static int32_t ecs_sched__intern(ecs_sched_world *w, ecs_sched__schedule *s, const char *text) {
    int32_t name = ecs_sched__name_map_get(&s->name_index, text);
    if (name >= 0) return name;
    name = ecs_sched__name_new(w, s, text);
    if (name >= 0) ecs_sched__name_map_put(&s->name_index, s->names[name].text, name);
    return name;
}

static ecs_sched__ref ecs_sched__name_ref(int32_t name) {
    return -name - 1;
}

/* Counts the names a relation refers to (delta 1), or stops counting them (-1). */
static void ecs_sched__count_references(ecs_sched__schedule *s, int kind,
                                        const ecs_sched__relation *r, int32_t delta) {
    if (r->subject < 0) {
        ecs_sched__name *n = &s->names[-r->subject - 1];
        n->references += delta;
        if (kind != ECS_SCHED__REL_IN_SET) n->orderings += delta;
    }
    if (r->object < 0) {
        ecs_sched__name *n = &s->names[-r->object - 1];
        n->references += delta;
        if (kind != ECS_SCHED__REL_IN_SET) n->orderings += delta;
        if (kind == ECS_SCHED__REL_IN_SET) n->set_references += delta;
    }
}

static bool ecs_sched__add_relation(ecs_sched_world *w, ecs_sched__schedule *s, int kind,
                                    ecs_sched__ref subject, ecs_sched__ref object,
                                    bool ignore_deferred) {
    ecs_sched__relations *list = &s->relations[kind];
    ecs_sched__relation *r;
    if (!ECS_SCHED__GROW(&w->env, list->items, &list->capacity, list->count + 1)) {
        ecs_sched__out_of_memory(w, "configuring a schedule");
        return false;
    }
    r = &list->items[list->count++];
    r->subject = subject;
    r->object = object;
    r->ignore_deferred = ignore_deferred;
    ecs_sched__count_references(s, kind, r, 1);
    return true;
}

/* Adds "subject <kind> name" for each name of a list. */
static bool ecs_sched__relate_names(ecs_sched_world *w, ecs_sched__schedule *s, int kind,
                                    ecs_sched__ref subject, const char *const *names,
                                    bool reversed, bool ignore_deferred) {
    int32_t i;
    for (i = 0; i < ECS_SCHED_MAX_REFS && names[i]; i++) {
        int32_t name = ecs_sched__intern(w, s, names[i]);
        ecs_sched__ref object;
        if (name < 0) return false;
        object = ecs_sched__name_ref(name);
        if (!ecs_sched__add_relation(w, s, kind, reversed ? object : subject,
                                     reversed ? subject : object, ignore_deferred)) {
            return false;
        }
    }
    return true;
}

/* The configuration shared by systems, sets and groups. Everything is validated before the
   schedule changes, so a refused call adds nothing. */
typedef struct ecs_sched__node_config {
    const char *const *in_set;
    const char *const *before;
    const char *const *after;
    const char *const *before_ignore_deferred;
    const char *const *after_ignore_deferred;
    const ecs_sched_condition *const *run_if;
    const char *const *ambiguous_with;
    bool ambiguous_with_all;
} ecs_sched__node_config;

#define ECS_SCHED__CONFIG_OF(desc, config)                                   \
    do {                                                                     \
        (config).in_set = (desc)->in_set;                                    \
        (config).before = (desc)->before;                                    \
        (config).after = (desc)->after;                                      \
        (config).before_ignore_deferred = (desc)->before_ignore_deferred;    \
        (config).after_ignore_deferred = (desc)->after_ignore_deferred;      \
        (config).run_if = (desc)->run_if;                                    \
        (config).ambiguous_with = (desc)->ambiguous_with;                    \
        (config).ambiguous_with_all = (desc)->ambiguous_with_all;            \
    } while (0)

static bool ecs_sched__config_is_empty(const ecs_sched__node_config *c) {
    int32_t i;
    if (c->ambiguous_with_all || c->in_set[0] || c->before[0] || c->after[0] ||
        c->before_ignore_deferred[0] || c->after_ignore_deferred[0] || c->ambiguous_with[0]) {
        return false;
    }
    for (i = 0; i < ECS_SCHED_MAX_CONDITIONS; i++) {
        if (c->run_if[i]) return false;
    }
    return true;
}

static bool ecs_sched__apply_config(ecs_sched_world *w, ecs_sched__schedule *s,
                                    ecs_sched__ref subject, const ecs_sched__node_config *c) {
    int32_t i;
    uint32_t first;
    if (!ecs_sched__relate_names(w, s, ECS_SCHED__REL_IN_SET, subject, c->in_set, false, false) ||
        !ecs_sched__relate_names(w, s, ECS_SCHED__REL_BEFORE, subject, c->before, false, false) ||
        !ecs_sched__relate_names(w, s, ECS_SCHED__REL_BEFORE, subject, c->after, true, false) ||
        !ecs_sched__relate_names(w, s, ECS_SCHED__REL_BEFORE, subject, c->before_ignore_deferred,
                                 false, true) ||
        !ecs_sched__relate_names(w, s, ECS_SCHED__REL_BEFORE, subject, c->after_ignore_deferred,
                                 true, true) ||
        !ecs_sched__relate_names(w, s, ECS_SCHED__REL_AMBIGUOUS, subject, c->ambiguous_with,
                                 false, false)) {
        return false;
    }
    for (i = 0; i < ECS_SCHED_MAX_CONDITIONS; i++) {
        int32_t cond;
        if (!c->run_if[i]) continue;
        if (!ECS_SCHED__GROW(&w->env, s->guards, &s->guard_capacity, s->guard_count + 1)) {
            ecs_sched__out_of_memory(w, "adding a run condition");
            return false;
        }
        first = s->conds.count;
        cond = ecs_sched__cond_copy(w, &s->conds, c->run_if[i]);
        if (cond < 0) return false;
        ecs_sched__conds_guard(&s->conds, first, subject >= 0 ? "system" : "set",
                               s->names[subject >= 0 ? s->systems[subject]->name : -subject - 1].text,
                               s->label);
        s->guards[s->guard_count].subject = subject;
        s->guards[s->guard_count].cond = cond;
        s->guard_count++;
    }
    if (c->ambiguous_with_all) {
        if (subject >= 0) s->systems[subject]->ambiguous_with_all = true;
        else s->names[-subject - 1].ambiguous_with_all = true;
    }
    return true;
}

/* What add/configure calls leave behind when they fail half way: the counts to return to. */
typedef struct ecs_sched__mark {
    uint32_t systems, relations[ECS_SCHED__REL_KINDS], guards, conds;
} ecs_sched__mark;

static ecs_sched__mark ecs_sched__mark_of(const ecs_sched__schedule *s) {
    ecs_sched__mark m;
    int kind;
    m.systems = s->system_count;
    for (kind = 0; kind < ECS_SCHED__REL_KINDS; kind++) {
        m.relations[kind] = s->relations[kind].count;
    }
    m.guards = s->guard_count;
    m.conds = s->conds.count;
    return m;
}

static void ecs_sched__rollback(ecs_sched_world *w, ecs_sched__schedule *s, ecs_sched__mark m) {
    int kind;
    for (kind = 0; kind < ECS_SCHED__REL_KINDS; kind++) {
        ecs_sched__relations *list = &s->relations[kind];
        while (list->count > m.relations[kind]) {
            ecs_sched__count_references(s, kind, &list->items[--list->count], -1);
        }
    }
    while (s->system_count > m.systems) {
        ecs_sched__system *sys = s->systems[--s->system_count];
        ecs_sched__name *n = &s->names[sys->name];
        if (--n->system_count == 0) n->first_system = -1;
        ecs_sched__system_free(w, sys);
    }
    s->guard_count = m.guards;
    ecs_sched__conds_truncate(w, &s->conds, m.conds);
}

static void ecs_sched__mark_changed(ecs_sched__schedule *s) {
    s->built = false;
}

/* ---- removing systems ---- */

/* A system reference after the systems `gone` marks were taken out: its new index, or -1
   when it went (names are kept as they are). */
static ecs_sched__ref ecs_sched__ref_after_removal(ecs_sched__ref ref, const int32_t *new_index) {
    return ref < 0 ? ref : new_index[ref];
}

static void ecs_sched__relations_after_removal(ecs_sched__schedule *s, const int32_t *new_index) {
    int kind;
    for (kind = 0; kind < ECS_SCHED__REL_KINDS; kind++) {
        ecs_sched__relations *list = &s->relations[kind];
        uint32_t i, kept = 0;
        for (i = 0; i < list->count; i++) {
            ecs_sched__relation r = list->items[i];
            ecs_sched__ref subject = ecs_sched__ref_after_removal(r.subject, new_index);
            ecs_sched__ref object = ecs_sched__ref_after_removal(r.object, new_index);
            if ((r.subject >= 0 && subject < 0) || (r.object >= 0 && object < 0)) {
                ecs_sched__count_references(s, kind, &r, -1);
                continue;
            }
            r.subject = subject;
            r.object = object;
            list->items[kept++] = r;
        }
        list->count = kept;
    }
}

static void ecs_sched__guards_after_removal(ecs_sched__schedule *s, const int32_t *new_index) {
    uint32_t i, kept = 0;
    for (i = 0; i < s->guard_count; i++) {
        ecs_sched__guard g = s->guards[i];
        if (g.subject >= 0 && (g.subject = new_index[g.subject]) < 0) continue;
        s->guards[kept++] = g;
    }
    s->guard_count = kept;
}

/* Takes out the systems for which gone(system, data) holds, with their relations and
   guards; the others keep their order. False when out of memory (nothing changed). */
static bool ecs_sched__remove_systems_if(ecs_sched_world *w, ecs_sched__schedule *s,
                                         bool (*gone)(const ecs_sched__system *, const void *),
                                         const void *data) {
    int32_t *new_index =
        (int32_t *)ecs_sched__alloc(&w->env, ((size_t)s->system_count + 1) * sizeof *new_index);
    uint32_t i, kept = 0;
    if (!new_index) {
        ecs_sched__out_of_memory(w, "removing systems");
        return false;
    }
    for (i = 0; i < s->system_count; i++) {
        new_index[i] = gone(s->systems[i], data) ? -1 : (int32_t)kept++;
    }
    ecs_sched__relations_after_removal(s, new_index);
    ecs_sched__guards_after_removal(s, new_index);
    for (i = 0; i < s->name_count; i++) {
        s->names[i].system_count = 0;
        s->names[i].first_system = -1;
    }
    for (i = 0, kept = 0; i < s->system_count; i++) {
        ecs_sched__system *sys = s->systems[i];
        ecs_sched__name *n = &s->names[sys->name];
        if (new_index[i] < 0) {
            ecs_sched__system_free(w, sys);
            continue;
        }
        if (n->system_count++ == 0) n->first_system = (int32_t)kept;
        s->systems[kept++] = sys;
    }
    s->system_count = kept;
    ecs_sched__free(&w->env, new_index);
    ecs_sched__mark_changed(s);
    return true;
}

static bool ecs_sched__system_has_name(const ecs_sched__system *sys, const void *name) {
    return sys->name == *(const int32_t *)name;
}

ecs_sched_result ecs_sched_remove_system(ecs_sched_world *w, const char *label, const char *name) {
    ecs_sched__schedule *s;
    int32_t index;
    ECS_SCHED__CHECK_WORLD(w);
    if (!label || !name) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "remove_system: give a schedule and a system's name");
    }
    s = ecs_sched__schedule_find(w, label);
    index = s ? ecs_sched__name_map_get(&s->name_index, name) : -1;
    if (index < 0 || s->names[index].system_count == 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_NOT_FOUND,
                               "remove_system: schedule '%s' has no system named '%s'", label,
                               name);
    }
    if (s->running) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_SCHEDULE_RUNNING,
                               "remove_system: schedule '%s' is running; remove '%s' between "
                               "its runs", label, name);
    }
    return ecs_sched__remove_systems_if(w, s, ecs_sched__system_has_name, &index)
               ? ECS_SCHED_OK : w->env.last_result;
}

static bool ecs_sched__check_resources(ecs_sched_world *w, const ecs_sched_id *ids,
                                       const char *who) {
    int32_t i;
    for (i = 0; i < ECS_SCHED_MAX_RESOURCES; i++) {
        if (ids[i] && !ecs_sched__component_valid(w, ids[i])) {
            ecs_sched__unknown_component(w, ids[i], who);
            return false;
        }
    }
    return true;
}

/* A component query `b` requires on its entities and `a` does not name: a without() term on
   it in `a` would make the two disjoint (0: none). */
static ecs_sched_id ecs_sched__separating_component(const ecs_sched_query *a,
                                                    const ecs_sched_query *b) {
    int32_t i, j;
    for (i = 0; i < b->term_count; i++) {
        bool named = false;
        if (!ecs_sched__term_required_in(b, i) || !ecs_sched__term_on_self(b->terms[i].kind)) {
            continue;
        }
        for (j = 0; j < a->term_count; j++) named = named || a->terms[j].id == b->terms[i].id;
        if (!named) return b->terms[i].id;
    }
    return 0;
}

/* A system's queries must not reach one value twice, once to write it: an entity that both
   match would come to the system through two pointers to one value, one of them written
   (Bevy refuses such a system too). */
static bool ecs_sched__own_queries_apart(ecs_sched_world *w, const char *name,
                                         const ecs_sched_system_ctx *ctx) {
    int32_t x, y, tx, ty;
    for (x = 0; x < ctx->query_count; x++) {
        for (y = x + 1; y < ctx->query_count; y++) {
            const ecs_sched_query *a = ctx->queries[x], *b = ctx->queries[y];
            ecs_sched_id apart;
            char hint[160];
            if (!ecs_sched__queries_clash(a, true, b, true, &tx, &ty)) continue;
            if ((apart = ecs_sched__separating_component(a, b)) != 0) {
                snprintf(hint, sizeof hint, " (here: ecs_sched_without(%s) in query %d)",
                         w->components[apart].name, (int)x);
            } else if ((apart = ecs_sched__separating_component(b, a)) != 0) {
                snprintf(hint, sizeof hint, " (here: ecs_sched_without(%s) in query %d)",
                         w->components[apart].name, (int)y);
            } else {
                hint[0] = '\0';
            }
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                            "add_system: system '%s': query %d %s '%s' and query %d %s it, and "
                            "an entity can match both, so the system would get two pointers to "
                            "one value; make the queries disjoint with a without() term in one "
                            "on a component the other requires%s, or join them into one query",
                            name, (int)x, ecs_sched__term_writes(a->terms[tx].kind) ? "writes" : "reads",
                            w->components[a->terms[tx].id].name, (int)y,
                            ecs_sched__term_writes(b->terms[ty].kind) ? "writes" : "reads", hint);
            return false;
        }
    }
    return true;
}

/* Adds id to a system's list of resources (reads or writes), once; false when the list is
   full. */
static bool ecs_sched__declare_resource(ecs_sched_id *ids, int32_t *count, ecs_sched_id id) {
    int32_t i;
    for (i = 0; i < *count; i++) {
        if (ids[i] == id) return true;
    }
    if (*count == ECS_SCHED_MAX_RESOURCES) return false;
    ids[(*count)++] = id;
    return true;
}

/* The resources a system's queries name (ecs_sched_resource_read / _write terms) are
   resources the system reads or writes, as if its desc listed them. */
static bool ecs_sched__declare_query_resources(ecs_sched_world *w, const char *name,
                                               ecs_sched_system_ctx *ctx) {
    int32_t i, k;
    for (i = 0; i < ctx->query_count; i++) {
        const ecs_sched_query *q = ctx->queries[i];
        for (k = 0; k < q->term_count; k++) {
            ecs_sched_term_kind kind = q->terms[k].kind;
            bool declared;
            if (!ecs_sched__term_on_resource(kind)) continue;
            declared = kind == ECS_SCHED_TERM_RESOURCE_WRITE
                           ? ecs_sched__declare_resource(ctx->writes, &ctx->write_count, q->terms[k].id)
                           : ecs_sched__declare_resource(ctx->reads, &ctx->read_count, q->terms[k].id);
            if (!declared) {
                ecs_sched__fail(&w->env, ECS_SCHED_ERR_LIMIT,
                                "add_system: system '%s' names more resources than it can hold "
                                "(ECS_SCHED_MAX_RESOURCES, %d, for its reads and as many for its "
                                "writes, with those its queries name)", name,
                                (int)ECS_SCHED_MAX_RESOURCES);
                return false;
            }
        }
    }
    return true;
}

/* The desc of a system's query i: .query_text stands for the first one, read through the
   parser query_text.h installs; NULL on failure. */
static const ecs_sched_query_desc *ecs_sched__system_query_desc(ecs_sched_world *w,
                                                                const ecs_sched_system_desc *d,
                                                                int32_t i,
                                                                ecs_sched_query_desc *parsed) {
    const ecs_sched__queries *queries = ecs_sched__queries_of(w);
    if (i != 0 || !d->query_text) return &d->queries[i];
    if (!queries || !queries->from_text) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                        "the query is given as text (\"%s\"), but this build of ecs_sched.h "
                        "leaves queries as text out (ECS_SCHED_NO_QUERY_TEXT); give its terms "
                        "in .queries instead", d->query_text);
        return NULL;
    }
    return queries->from_text(w, d->query_text, parsed) == ECS_SCHED_OK ? parsed : NULL;
}

/* A system named while a scope is set (a module's import) is named after the scope, as its
   components are ("physics.integrate", scope.h); what it is ordered against is named in full. */
static const char *ecs_sched__system_name(ecs_sched_world *w, const ecs_sched_system_desc *d,
                                          char *scoped, size_t capacity) {
    if (!d->name) return d->fn == ecs_sched_apply_deferred ? "apply_deferred" : "system";
    if (!w->scope) return d->name;
    if (!w->hooks.scoped_name(w, d->name, scoped, capacity)) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_LIMIT,
                        "add_system: '%s' in the current scope makes a name longer than %lu "
                        "bytes", d->name, (unsigned long)capacity - 1);
        return NULL;
    }
    return scoped;
}

/* Creates a system instance from its desc (queries, command buffer), not yet configured. */
static ecs_sched__system *ecs_sched__system_create(ecs_sched_world *w, ecs_sched__schedule *s,
                                                   const ecs_sched_system_desc *d) {
    ecs_sched__system *sys;
    char scoped[256];
    const char *name = ecs_sched__system_name(w, d, scoped, sizeof scoped);
    int32_t i, name_index;
    if (!name) return NULL;
    if (!d->fn) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "add_system: system '%s' has no function", name);
        return NULL;
    }
    if (d->query_text && !ecs_sched__term_ends(&d->queries[0].terms[0])) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "add_system: system '%s' has both .query_text and terms in .queries[0], "
                        "which are the same query; give one", name);
        return NULL;
    }
    if (!ecs_sched__check_resources(w, d->reads, name) ||
        !ecs_sched__check_resources(w, d->writes, name)) {
        return NULL;
    }
    name_index = ecs_sched__intern(w, s, name);
    if (name_index < 0) return NULL;
    if (!ECS_SCHED__GROW(&w->env, s->systems, &s->system_capacity, s->system_count + 1) ||
        !(sys = ecs_sched__system_alloc(w))) {
        ecs_sched__out_of_memory(w, "adding a system");
        return NULL;
    }
    sys->name = name_index;
    sys->fn = d->fn;
    sys->is_apply_deferred = d->fn == ecs_sched_apply_deferred;
    sys->ctx.world = w;
    sys->ctx.run.env = &w->env;
    sys->ctx.run.owner = &sys->ctx;
    sys->ctx.run.kind = "system";
    sys->ctx.run.schedule = s->label;
    sys->ctx.user_data = d->user_data;
    sys->ctx.run.exclusive = d->exclusive || sys->is_apply_deferred;
    sys->main_thread = d->main_thread;
    for (i = 0; i < ECS_SCHED_MAX_RESOURCES; i++) {
        if (d->reads[i]) sys->ctx.reads[sys->ctx.read_count++] = d->reads[i];
        if (d->writes[i]) sys->ctx.writes[sys->ctx.write_count++] = d->writes[i];
    }
    for (i = 0; i < ECS_SCHED_MAX_QUERIES; i++) {
        ecs_sched_query_desc parsed;
        const ecs_sched_query_desc *qd;
        ecs_sched_query *q = NULL;
        ecs_sched__hush_depth++;   /* a failure is told once, naming the system (below) */
        qd = ecs_sched__system_query_desc(w, d, i, &parsed);
        if (qd && !ecs_sched__term_ends(&qd->terms[0])) q = ecs_sched_query_create(w, qd);
        ecs_sched__hush_depth--;
        if (qd && ecs_sched__term_ends(&qd->terms[0])) break;
        if (!q) {
            char who[300];
            snprintf(who, sizeof who, "add_system('%s'), query %d", name, (int)i);
            ecs_sched__fail_again_for(w, who);
            ecs_sched__system_free(w, sys);
            return NULL;
        }
        sys->ctx.queries[sys->ctx.query_count++] = q;
    }
    if (!ecs_sched__own_queries_apart(w, name, &sys->ctx) ||
        !ecs_sched__declare_query_resources(w, name, &sys->ctx)) {
        ecs_sched__system_free(w, sys);
        return NULL;
    }
    if (d->commands && !(sys->ctx.commands = ecs_sched_commands_create(w))) {
        ecs_sched__system_free(w, sys);
        return NULL;
    }
    s->systems[s->system_count] = sys;
    {
        ecs_sched__name *n = &s->names[name_index];
        if (n->system_count++ == 0) n->first_system = (int32_t)s->system_count;
    }
    s->system_count++;
    ecs_sched__schedules_of(s->world)->systems_added++;
    sys->ctx.run.name = s->names[name_index].text;
    return sys;
}

static bool ecs_sched__refs_present(const char *const *names) {
    return names[0] != NULL;
}

static ecs_sched_result ecs_sched__add_one_system(ecs_sched_world *w, ecs_sched__schedule *s,
                                                  const ecs_sched_system_desc *d,
                                                  bool group_names_set) {
    ecs_sched__node_config config;
    ecs_sched__system *sys = ecs_sched__system_create(w, s, d);
    if (!sys) return w->env.last_result;
    sys->explicit_set = group_names_set || ecs_sched__refs_present(d->in_set);
    ECS_SCHED__CONFIG_OF(d, config);
    if (!ecs_sched__apply_config(w, s, (ecs_sched__ref)(s->system_count - 1), &config)) {
        return w->env.last_result;
    }
    return ECS_SCHED_OK;
}

/* Whether a group has configuration beyond in_set, which its members carry themselves. */
static bool ecs_sched__group_needs_set(const ecs_sched__node_config *shared) {
    static const char *const no_refs[1] = {NULL};
    ecs_sched__node_config rest = *shared;
    rest.in_set = no_refs;
    return !ecs_sched__config_is_empty(&rest);
}

/* The rest of a group's configuration lives on an anonymous set holding its systems, so its
   conditions are evaluated once for the group and its order applies to the group as a whole.
   The set is in the group's sets too, so it is a sibling of what it is ordered against. */
static ecs_sched_result ecs_sched__add_group_set(ecs_sched_world *w, ecs_sched__schedule *s,
                                                 uint32_t first, int32_t count,
                                                 const ecs_sched__node_config *shared) {
    char text[48];
    int32_t group, i;
    snprintf(text, sizeof text, "(group %d)", (int)++s->group_count);
    group = ecs_sched__name_new(w, s, text);
    if (group < 0) return w->env.last_result;
    s->names[group].configured = s->names[group].anonymous = true;
    for (i = 0; i < count; i++) {
        if (!ecs_sched__add_relation(w, s, ECS_SCHED__REL_IN_SET, (ecs_sched__ref)first + i,
                                     ecs_sched__name_ref(group), false)) {
            return w->env.last_result;
        }
    }
    if (!ecs_sched__apply_config(w, s, ecs_sched__name_ref(group), shared)) {
        return w->env.last_result;
    }
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_add_system(ecs_sched_world *w, const char *label,
                                      const ecs_sched_system_desc *desc) {
    ecs_sched_systems_desc group;
    ECS_SCHED__CHECK_WORLD(w);
    memset(&group, 0, sizeof group);
    group.systems = desc;
    group.count = 1;
    return ecs_sched_add_systems(w, label, &group);
}

ecs_sched_result ecs_sched_add_systems(ecs_sched_world *w, const char *label,
                                       const ecs_sched_systems_desc *desc) {
    ecs_sched__schedule *s;
    ecs_sched__node_config shared;
    ecs_sched__mark mark;
    ecs_sched_result result = ECS_SCHED_OK;
    uint32_t first;
    int32_t i;
    ECS_SCHED__CHECK_WORLD(w);
    if (!desc || desc->count < 0 || (desc->count > 0 && !desc->systems)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "add_systems: desc needs `count` systems");
    }
    s = ecs_sched__schedule_get(w, label);
    if (!s) return w->env.last_result;
    mark = ecs_sched__mark_of(s);
    first = s->system_count;
    ECS_SCHED__CONFIG_OF(desc, shared);
    for (i = 0; i < desc->count && result == ECS_SCHED_OK; i++) {
        result = ecs_sched__add_one_system(w, s, &desc->systems[i],
                                           ecs_sched__refs_present(desc->in_set));
        /* the group's sets are each member's own, so a member may also name one of them */
        if (result == ECS_SCHED_OK &&
            !ecs_sched__relate_names(w, s, ECS_SCHED__REL_IN_SET, (ecs_sched__ref)first + i,
                                     desc->in_set, false, false)) {
            result = w->env.last_result;
        }
    }
    for (i = 1; i < desc->count && result == ECS_SCHED_OK &&
                (desc->chain || desc->chain_ignore_deferred); i++) {
        if (!ecs_sched__add_relation(w, s, ECS_SCHED__REL_BEFORE, (ecs_sched__ref)first + i - 1,
                                     (ecs_sched__ref)first + i, desc->chain_ignore_deferred)) {
            result = w->env.last_result;
        }
    }
    if (result == ECS_SCHED_OK && ecs_sched__group_needs_set(&shared)) {
        result = ecs_sched__add_group_set(w, s, first, desc->count, &shared);
    }
    if (result != ECS_SCHED_OK) {
        ecs_sched__rollback(w, s, mark);
        return result;
    }
    ecs_sched__mark_changed(s);
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_configure_set(ecs_sched_world *w, const char *label,
                                         const ecs_sched_set_desc *desc) {
    ecs_sched__schedule *s;
    ecs_sched__node_config config;
    ecs_sched__mark mark;
    int32_t name;
    ECS_SCHED__CHECK_WORLD(w);
    if (!desc || !desc->name || !desc->name[0]) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "configure_set: a set needs a name");
    }
    s = ecs_sched__schedule_get(w, label);
    if (!s) return w->env.last_result;
    mark = ecs_sched__mark_of(s);
    name = ecs_sched__intern(w, s, desc->name);
    if (name < 0) return w->env.last_result;
    ECS_SCHED__CONFIG_OF(desc, config);
    if (!ecs_sched__apply_config(w, s, ecs_sched__name_ref(name), &config)) {
        ecs_sched__rollback(w, s, mark);
        return w->env.last_result;
    }
    s->names[name].configured = true;
    ecs_sched__mark_changed(s);
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_chain_sets(ecs_sched_world *w, const char *label,
                                      int32_t count, const char *const *sets,
                                      bool ignore_deferred) {
    ecs_sched__schedule *s;
    ecs_sched__mark mark;
    int32_t i, previous = -1;
    ECS_SCHED__CHECK_WORLD(w);
    if (count < 0 || (count > 0 && !sets)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "chain_sets: needs `count` set names");
    }
    s = ecs_sched__schedule_get(w, label);
    if (!s) return w->env.last_result;
    mark = ecs_sched__mark_of(s);
    for (i = 0; i < count; i++) {
        int32_t name = sets[i] ? ecs_sched__intern(w, s, sets[i]) : -1;
        if (name < 0 ||
            (previous >= 0 &&
             !ecs_sched__add_relation(w, s, ECS_SCHED__REL_BEFORE, ecs_sched__name_ref(previous),
                                      ecs_sched__name_ref(name), ignore_deferred))) {
            ecs_sched__rollback(w, s, mark);
            if (!sets[i]) {
                return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                       "chain_sets: set name %d is NULL", (int)i);
            }
            return w->env.last_result;
        }
        previous = name;
    }
    for (i = 0; i < count; i++) s->names[ecs_sched__intern(w, s, sets[i])].configured = true;
    ecs_sched__mark_changed(s);
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_schedule_configure(ecs_sched_world *w, const char *label,
                                              const ecs_sched_schedule_desc *desc) {
    ecs_sched__schedule *s;
    int32_t default_set = -1;
    ECS_SCHED__CHECK_WORLD(w);
    if (desc && (unsigned)desc->executor > (unsigned)ECS_SCHED_EXECUTOR_PARALLEL) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "schedule_configure(\"%s\"): executor %d is not one of "
                               "ECS_SCHED_EXECUTOR_DEFAULT, _SINGLE_THREADED or _PARALLEL",
                               label ? label : "(null)", (int)desc->executor);
    }
    if (desc && (unsigned)desc->on_error > (unsigned)ECS_SCHED_ON_ERROR_HOOK) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "schedule_configure(\"%s\"): on_error %d is not one of "
                               "ECS_SCHED_ON_ERROR_DEFAULT, _STOP, _CONTINUE or _HOOK",
                               label ? label : "(null)", (int)desc->on_error);
    }
    s = ecs_sched__schedule_get(w, label);
    if (!s) return w->env.last_result;
    if (desc && desc->default_set) {
        default_set = ecs_sched__intern(w, s, desc->default_set);
        if (default_set < 0) return w->env.last_result;
    }
    s->settings = ecs_sched__schedule_desc_defaults(w, desc);
    s->default_set = default_set;
    s->declared = true;
    ecs_sched__mark_changed(s);
    return ECS_SCHED_OK;
}

bool ecs_sched_schedule_exists(const ecs_sched_world *w, const char *label) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__schedule_find(w, label) != NULL;
}

static ecs_sched__schedule *ecs_sched__schedule_known(ecs_sched_world *w, const char *label) {
    ecs_sched__schedule *s = ecs_sched__schedule_find(w, label);
    if (!s) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_UNKNOWN_SCHEDULE,
                        "there is no schedule '%s': add a system to it first",
                        label ? label : "(null)");
    }
    return s;
}
