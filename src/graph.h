/* graph: systems, sets and their configuration, stored schedules, validation, flattening,
   ordering, and the built plan. */

#ifndef ECS_SCHED_MAX_REFS
#define ECS_SCHED_MAX_REFS 8         /* names per in_set / before / after / ambiguous_with */
#endif

/* How a build reports a problem that does not make the graph unsolvable. */
typedef enum ecs_sched_report {
    ECS_SCHED_REPORT_DEFAULT = 0,    /* the rule's default */
    ECS_SCHED_REPORT_IGNORE,
    ECS_SCHED_REPORT_WARN,           /* log a warning, build anyway */
    ECS_SCHED_REPORT_ERROR           /* fail the build */
} ecs_sched_report;

/* Where a system or set sits: the sets it is in, what it runs before and after (systems or
   sets, by name), its run conditions, and which conflicts with it are known to be harmless.
   Configuration only ever adds; it is solved when the schedule is built. */
#define ECS_SCHED__NODE_CONFIG                                                              \
    const char *in_set[ECS_SCHED_MAX_REFS];                                                 \
    const char *before[ECS_SCHED_MAX_REFS];                                                 \
    const char *after[ECS_SCHED_MAX_REFS];                                                  \
    /* the same, without an automatic sync point for this edge */                           \
    const char *before_ignore_deferred[ECS_SCHED_MAX_REFS];                                 \
    const char *after_ignore_deferred[ECS_SCHED_MAX_REFS];                                  \
    ecs_sched_condition run_if[ECS_SCHED_MAX_CONDITIONS];                                   \
    const char *ambiguous_with[ECS_SCHED_MAX_REFS];                                         \
    bool ambiguous_with_all

typedef struct ecs_sched_system_desc {
    const char *name;                /* default: "system" */
    ecs_sched_system_fn fn;          /* ecs_sched_apply_deferred makes a sync point */
    void *user_data;
    ecs_sched_query_desc queries[ECS_SCHED_MAX_QUERIES];
    ecs_sched_id reads[ECS_SCHED_MAX_RESOURCES];    /* resources read */
    ecs_sched_id writes[ECS_SCHED_MAX_RESOURCES];   /* resources written */
    bool exclusive;                  /* gets the whole world, runs alone */
    bool commands;                   /* records commands in its own buffer */
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
    bool chain_ignore_deferred;      /* chain without automatic sync points */
    ECS_SCHED__NODE_CONFIG;
} ecs_sched_systems_desc;

typedef struct ecs_sched_schedule_desc {
    const char *default_set;         /* systems added without in_set go in this set */
    ecs_sched_report cross_set_dependencies;  /* default warn */
    ecs_sched_report unknown_sets;            /* default warn */
    ecs_sched_report ambiguities;             /* default warn */
    ecs_sched_report duplicate_names;         /* default error */
    bool no_auto_sync;               /* do not insert sync points after command writers */
    uint64_t shuffle_seed;           /* nonzero: shuffle the unconstrained order with it */
    ecs_sched_executor executor;     /* default: the world's (ecs_sched_world_desc.executor) */
} ecs_sched_schedule_desc;

/* Each of these creates the schedule when the label is new, and marks a built schedule for
   rebuilding before its next run. */
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
/* Orders sets one after the other: sets[0] before sets[1] before ... */
ECS_SCHED_API ecs_sched_result ecs_sched_chain_sets(ecs_sched_world *world, const char *schedule,
                                                   const char *const *sets, int32_t count,
                                                   bool ignore_deferred);
ECS_SCHED_API bool ecs_sched_schedule_exists(const ecs_sched_world *world, const char *schedule);
/* Builds now (a run builds when needed). A failed build leaves the schedule unbuilt. */
ECS_SCHED_API ecs_sched_result ecs_sched_schedule_build(ecs_sched_world *world,
                                                       const char *schedule);
/* The built plan's order: up to `capacity` names (systems, and "apply_deferred" for
   automatic sync points). Returns the number of entries in the plan, or -1 on failure. */
ECS_SCHED_API int32_t ecs_sched_schedule_order(ecs_sched_world *world, const char *schedule,
                                              const char **names, int32_t capacity);
/* Writes the built schedule as a Graphviz digraph, piece by piece, through `write`. */
ECS_SCHED_API ecs_sched_result ecs_sched_schedule_write_dot(
    ecs_sched_world *world, const char *schedule,
    void (*write)(const char *text, void *user_data), void *user_data);

/*@@ implementation @@*/
/* graph: systems, sets and their configuration, stored schedules, validation, flattening,
   ordering, and the built plan. */

#define ECS_SCHED__MAX_NESTED_RUNS 64
#define ECS_SCHED__MAX_REPORTED_PAIRS 64  /* ambiguous pairs listed in one message */

enum {
    ECS_SCHED__REL_IN_SET,
    ECS_SCHED__REL_BEFORE,
    ECS_SCHED__REL_AMBIGUOUS
};

/* A reference to a node before the build resolves names: a system instance (>= 0), or a name
   (-(name index) - 1) that the build resolves to a set or to the systems of that name. */
typedef int32_t ecs_sched__ref;

/* One piece of configuration: subject in_set / before / ambiguous_with object. ("a after b"
   is stored as "b before a".) */
typedef struct ecs_sched__relation {
    ecs_sched__ref subject;
    ecs_sched__ref object;
    uint8_t kind;
    bool ignore_deferred;
} ecs_sched__relation;

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
} ecs_sched__name;

typedef struct ecs_sched__system {
    int32_t name;
    ecs_sched_system_fn fn;
    bool is_apply_deferred;
    bool ambiguous_with_all;
    bool explicit_set;        /* its desc (or its group's) named a set */
    ecs_sched_system_ctx ctx;
} ecs_sched__system;

typedef struct ecs_sched__plan_node {
    ecs_sched__system *system;   /* NULL for an automatic sync point */
    int32_t dependency_count;    /* predecessors in the plan */
    int32_t successor_start;
    int32_t successor_count;
    int32_t guard_set_start;     /* sets whose conditions guard it, outermost first */
    int32_t guard_set_count;
    int32_t cond_start;          /* its own conditions */
    int32_t cond_count;
    bool sync;                   /* applies pending commands: automatic, or apply_deferred */
    bool exclusive;
} ecs_sched__plan_node;

typedef struct ecs_sched__plan_set {
    int32_t name;
    int32_t cond_start;
    int32_t cond_count;
} ecs_sched__plan_set;

/* A built schedule, in an order that respects every dependency. Per node: dependency count,
   successors, guarding sets, conditions and access, so an executor can run it in order or
   dispatch ready nodes in parallel. */
typedef struct ecs_sched__plan {
    ecs_sched__arena arena;
    int32_t node_count;
    ecs_sched__plan_node *nodes;
    int32_t *successors;          /* those no other path implies, binding edges included */
    int32_t drawn_count;          /* the configured edges no other of them implies, for drawing */
    int32_t *drawn;               /* pairs of plan positions */
    int32_t *guard_sets;
    int32_t *conds;
    int32_t set_count;
    ecs_sched__plan_set *sets;
    uint8_t *set_state;          /* per run: 0 not evaluated, 1 true, 2 false */
    int32_t access_words;        /* per node: component reads, writes, resource reads, writes */
    uint64_t *access;
    int32_t writer_count;        /* systems with command buffers, in plan order */
    ecs_sched__plan_node **writers;
    int32_t ambiguous_count;     /* unordered conflicting pairs, as plan positions */
    int32_t *ambiguous;
    int32_t cluster_count;       /* every set, for drawing: its name and first parent */
    int32_t *cluster_name;
    int32_t *cluster_parent;
    int32_t *node_cluster;       /* per plan node: the first set it is in, or -1 */
    void *run_state;             /* the parallel executor's, one block, made on first use */
} ecs_sched__plan;

typedef struct ecs_sched__name_index {
    char *key;
    int32_t value;
} ecs_sched__name_index;

typedef struct ecs_sched__schedule {
    char *label;
    ecs_sched_schedule_desc settings;
    int32_t default_set;                 /* name index, -1 for none */
    ecs_sched__system **systems;
    uint32_t system_count;
    uint32_t system_capacity;
    ecs_sched__name *names;
    uint32_t name_count;
    uint32_t name_capacity;
    ecs_sched__name_index *name_index;   /* stb_ds string map */
    ecs_sched__relation *relations;
    uint32_t relation_count;
    uint32_t relation_capacity;
    ecs_sched__guard *guards;
    uint32_t guard_count;
    uint32_t guard_capacity;
    ecs_sched__conds conds;
    int32_t group_count;
    bool built;
    bool running;
    ecs_sched__plan plan;
} ecs_sched__schedule;

typedef struct ecs_sched__schedules {
    ecs_sched__schedule **items;
    uint32_t count;
    uint32_t capacity;
    ecs_sched__name_index *by_label;     /* stb_ds string map */
    ecs_sched__schedule *stack[ECS_SCHED__MAX_NESTED_RUNS];  /* schedules now running */
    int32_t depth;
} ecs_sched__schedules;

/* ---- storage ---- */

static void ecs_sched__plan_free(ecs_sched__plan *plan) {
    if (plan->run_state) ecs_sched__free(plan->arena.env, plan->run_state);
    ecs_sched__arena_free(&plan->arena);
    memset(plan, 0, sizeof *plan);
}

static void ecs_sched__system_free(ecs_sched_world *w, ecs_sched__system *s) {
    int32_t i;
    for (i = 0; i < s->ctx.query_count; i++) ecs_sched_query_destroy(s->ctx.queries[i]);
    ecs_sched_commands_destroy(s->ctx.commands);
    ecs_sched__free(&w->env, s);
}

static void ecs_sched__schedule_free(ecs_sched_world *w, ecs_sched__schedule *s) {
    uint32_t i;
    ecs_sched__plan_free(&s->plan);
    for (i = 0; i < s->system_count; i++) ecs_sched__system_free(w, s->systems[i]);
    if (s->name_index) stbds_shfree(s->name_index);
    for (i = 0; i < s->name_count; i++) ecs_sched__free(&w->env, s->names[i].text);
    ecs_sched__conds_free(w, &s->conds);
    ecs_sched__free(&w->env, s->systems);
    ecs_sched__free(&w->env, s->names);
    ecs_sched__free(&w->env, s->relations);
    ecs_sched__free(&w->env, s->guards);
    ecs_sched__free(&w->env, s->label);
    ecs_sched__free(&w->env, s);
}

static void ecs_sched__schedules_free(ecs_sched_world *w) {
    ecs_sched__schedules *all = (ecs_sched__schedules *)w->schedules;
    uint32_t i;
    if (!all) return;
    for (i = 0; i < all->count; i++) ecs_sched__schedule_free(w, all->items[i]);
    if (all->by_label) stbds_shfree(all->by_label);
    ecs_sched__free(&w->env, all->items);
    ecs_sched__free(&w->env, all);
    w->schedules = NULL;
}

static ecs_sched__schedule *ecs_sched__schedule_find(const ecs_sched_world *w, const char *label) {
    ecs_sched__schedules *all = (ecs_sched__schedules *)w->schedules;
    ptrdiff_t i;
    if (!all || !all->by_label || !label) return NULL;
    i = stbds_shgeti(all->by_label, label);
    return i < 0 ? NULL : all->items[all->by_label[i].value];
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
    if (!w->schedules) {
        w->schedules = ecs_sched__calloc(&w->env, sizeof(ecs_sched__schedules));
        if (!w->schedules) {
            ecs_sched__out_of_memory(w, "creating a schedule");
            return NULL;
        }
        w->free_schedules = ecs_sched__schedules_free;
    }
    all = (ecs_sched__schedules *)w->schedules;
    if (!ecs_sched__grow(&w->env, (void **)&all->items, &all->capacity, all->count + 1,
                         sizeof *all->items) ||
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
    s->default_set = -1;
    ecs_sched__arena_init(&s->plan.arena, &w->env);
    all->items[all->count] = s;
    stbds_shput(all->by_label, s->label, (int32_t)all->count);
    all->count++;
    return s;
}

/* A new name entry; -1 when out of memory. */
static int32_t ecs_sched__name_new(ecs_sched_world *w, ecs_sched__schedule *s, const char *text) {
    ecs_sched__name *n;
    if (!ecs_sched__grow(&w->env, (void **)&s->names, &s->name_capacity, s->name_count + 1,
                         sizeof *s->names)) {
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
    ptrdiff_t found = s->name_index ? stbds_shgeti(s->name_index, text) : -1;
    int32_t name;
    if (found >= 0) return s->name_index[found].value;
    name = ecs_sched__name_new(w, s, text);
    if (name >= 0) stbds_shput(s->name_index, s->names[name].text, name);
    return name;
}

static ecs_sched__ref ecs_sched__name_ref(int32_t name) {
    return -name - 1;
}

static bool ecs_sched__add_relation(ecs_sched_world *w, ecs_sched__schedule *s, uint8_t kind,
                                    ecs_sched__ref subject, ecs_sched__ref object,
                                    bool ignore_deferred) {
    ecs_sched__relation *r;
    if (!ecs_sched__grow(&w->env, (void **)&s->relations, &s->relation_capacity,
                         s->relation_count + 1, sizeof *s->relations)) {
        ecs_sched__out_of_memory(w, "configuring a schedule");
        return false;
    }
    r = &s->relations[s->relation_count++];
    r->kind = kind;
    r->subject = subject;
    r->object = object;
    r->ignore_deferred = ignore_deferred;
    return true;
}

/* Adds "subject <kind> name" for each name of a list. */
static bool ecs_sched__relate_names(ecs_sched_world *w, ecs_sched__schedule *s, uint8_t kind,
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
    const ecs_sched_condition *run_if;
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
        if (ecs_sched__condition_present(&c->run_if[i])) return false;
    }
    return true;
}

static bool ecs_sched__apply_config(ecs_sched_world *w, ecs_sched__schedule *s,
                                    ecs_sched__ref subject, const ecs_sched__node_config *c) {
    int32_t i;
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
        if (!ecs_sched__condition_present(&c->run_if[i])) continue;
        if (!ecs_sched__grow(&w->env, (void **)&s->guards, &s->guard_capacity,
                             s->guard_count + 1, sizeof *s->guards)) {
            ecs_sched__out_of_memory(w, "adding a run condition");
            return false;
        }
        cond = ecs_sched__cond_copy(w, &s->conds, &c->run_if[i]);
        if (cond < 0) return false;
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
    uint32_t systems, relations, guards, conds;
} ecs_sched__mark;

static ecs_sched__mark ecs_sched__mark_of(const ecs_sched__schedule *s) {
    ecs_sched__mark m;
    m.systems = s->system_count;
    m.relations = s->relation_count;
    m.guards = s->guard_count;
    m.conds = s->conds.count;
    return m;
}

static void ecs_sched__rollback(ecs_sched_world *w, ecs_sched__schedule *s, ecs_sched__mark m) {
    while (s->system_count > m.systems) {
        ecs_sched__system *sys = s->systems[--s->system_count];
        ecs_sched__name *n = &s->names[sys->name];
        if (--n->system_count == 0) n->first_system = -1;
        ecs_sched__system_free(w, sys);
    }
    s->relation_count = m.relations;
    s->guard_count = m.guards;
    ecs_sched__conds_truncate(w, &s->conds, m.conds);
}

static void ecs_sched__mark_changed(ecs_sched__schedule *s) {
    s->built = false;
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

/* Creates a system instance from its desc (queries, command buffer), not yet configured. */
static ecs_sched__system *ecs_sched__system_create(ecs_sched_world *w, ecs_sched__schedule *s,
                                                   const ecs_sched_system_desc *d) {
    ecs_sched__system *sys;
    const char *name = d->name ? d->name : (d->fn == ecs_sched_apply_deferred ? "apply_deferred"
                                                                              : "system");
    int32_t i, name_index;
    if (!d->fn) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "add_system: system '%s' has no function", name);
        return NULL;
    }
    if (!ecs_sched__check_resources(w, d->reads, name) ||
        !ecs_sched__check_resources(w, d->writes, name)) {
        return NULL;
    }
    name_index = ecs_sched__intern(w, s, name);
    if (name_index < 0) return NULL;
    if (!ecs_sched__grow(&w->env, (void **)&s->systems, &s->system_capacity, s->system_count + 1,
                         sizeof *s->systems) ||
        !(sys = (ecs_sched__system *)ecs_sched__calloc(&w->env, sizeof *sys))) {
        ecs_sched__out_of_memory(w, "adding a system");
        return NULL;
    }
    sys->name = name_index;
    sys->fn = d->fn;
    sys->is_apply_deferred = d->fn == ecs_sched_apply_deferred;
    sys->ctx.world = w;
    sys->ctx.kind = "system";
    sys->ctx.user_data = d->user_data;
    sys->ctx.exclusive = d->exclusive || sys->is_apply_deferred;
    for (i = 0; i < ECS_SCHED_MAX_RESOURCES; i++) {
        if (d->reads[i]) sys->ctx.reads[sys->ctx.read_count++] = d->reads[i];
        if (d->writes[i]) sys->ctx.writes[sys->ctx.write_count++] = d->writes[i];
    }
    for (i = 0; i < ECS_SCHED_MAX_QUERIES && d->queries[i].terms[0].id; i++) {
        ecs_sched_query *q = ecs_sched_query_create(w, &d->queries[i]);
        if (!q) {
            ecs_sched__system_free(w, sys);
            return NULL;
        }
        sys->ctx.queries[sys->ctx.query_count++] = q;
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
    sys->ctx.name = s->names[name_index].text;
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
        if (!ecs_sched__add_relation(w, s, ECS_SCHED__REL_IN_SET, (ecs_sched__ref)(first + i),
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
            !ecs_sched__relate_names(w, s, ECS_SCHED__REL_IN_SET, (ecs_sched__ref)(first + i),
                                     desc->in_set, false, false)) {
            result = w->env.last_result;
        }
    }
    for (i = 1; i < desc->count && result == ECS_SCHED_OK && desc->chain; i++) {
        if (!ecs_sched__add_relation(w, s, ECS_SCHED__REL_BEFORE, (ecs_sched__ref)(first + i - 1),
                                     (ecs_sched__ref)(first + i), desc->chain_ignore_deferred)) {
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
                                      const char *const *sets, int32_t count,
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
    s = ecs_sched__schedule_get(w, label);
    if (!s) return w->env.last_result;
    if (desc && desc->default_set) {
        default_set = ecs_sched__intern(w, s, desc->default_set);
        if (default_set < 0) return w->env.last_result;
    }
    if (desc) s->settings = *desc;
    else memset(&s->settings, 0, sizeof s->settings);
    s->settings.default_set = NULL;  /* the interned copy is used instead */
    s->default_set = default_set;
    ecs_sched__mark_changed(s);
    return ECS_SCHED_OK;
}

bool ecs_sched_schedule_exists(const ecs_sched_world *w, const char *label) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__schedule_find(w, label) != NULL;
}

/* ---- build: resolve names, check the graphs, flatten, order, plan ---- */

/* A directed graph in compressed rows: the successors of v are adj[start[v] .. start[v+1]). */
typedef struct ecs_sched__csr {
    int32_t n;
    int32_t *start;
    int32_t *adj;
} ecs_sched__csr;

typedef struct ecs_sched__build {
    ecs_sched_world *w;
    ecs_sched__schedule *s;
    ecs_sched__arena tmp;
    ecs_sched__text text;         /* the message being written */
    int32_t system_count;         /* nodes 0 .. S-1 are systems */
    int32_t set_count;            /* nodes S .. S+T-1 are sets */
    int32_t node_count;
    int32_t *set_of_name;         /* name -> set number, or -1 */
    int32_t *name_of_set;
    int32_t *instance;            /* system -> its number among systems of the same name */
    int32_t *instances;           /* systems grouped by name (CSR by name) */
    int32_t *instances_start;
    ecs_sched__csr parents;       /* node -> the sets it is directly in */
    int32_t *child_count;         /* set -> direct members */
    int32_t set_words;
    uint64_t *ancestors;          /* node -> bitset of the sets it is in, at any depth */
    int32_t *depth;               /* set -> nesting depth, 0 at the top */
    ecs_sched__csr members;       /* set -> systems under it, at any depth */
    int32_t dep_count;            /* node-level dependencies */
    int32_t *dep_from, *dep_to;
    uint8_t *dep_ignore;
    int32_t edge_count;           /* flattened system-level dependencies */
    int32_t *edge_from, *edge_to;
    uint8_t *edge_ignore;
    ecs_sched__csr successors;    /* systems -> systems, deduplicated */
    uint8_t *successor_ignore;
    int32_t *order;               /* systems in topological order */
    int32_t *key;                 /* tie-break key of each system */
    int32_t access_words;
    uint64_t *access;             /* system -> 4 bitsets: comp read, comp write, res read, write */
    int32_t ambiguous_count;
    int32_t *ambiguous;           /* pairs of systems */
    uint32_t serial_count;        /* unordered pairs that must not overlap: conflicting access */
    uint32_t serial_capacity;     /* (silenced or not), or both recording commands */
    int32_t *serial;              /* pairs of systems; owned, freed after the build */
} ecs_sched__build;

#define ECS_SCHED__ALLOC_N(b, type, n) \
    ((type *)ecs_sched__arena_alloc(&(b)->tmp, sizeof(type) * (size_t)((n) > 0 ? (n) : 1)))

static bool ecs_sched__bit(const uint64_t *bits, int32_t i) {
    return (bits[i >> 6] >> (i & 63)) & 1u;
}

/* The index of the lowest set bit of a non-zero word. */
static int32_t ecs_sched__lowest_bit(uint64_t word) {
#if defined(__GNUC__) || defined(__clang__)
    return (int32_t)__builtin_ctzll(word);
#else
    int32_t bit = 0;
    while (!((word >> bit) & 1u)) bit++;
    return bit;
#endif
}

static void ecs_sched__set_bit(uint64_t *bits, int32_t i) {
    bits[i >> 6] |= (uint64_t)1 << (i & 63);
}

static bool ecs_sched__csr_build(ecs_sched__build *b, ecs_sched__csr *g, int32_t n, int32_t count,
                                 const int32_t *from, const int32_t *to) {
    int32_t i, *fill;
    g->n = n;
    g->start = ECS_SCHED__ALLOC_N(b, int32_t, n + 1);
    g->adj = ECS_SCHED__ALLOC_N(b, int32_t, count);
    fill = ECS_SCHED__ALLOC_N(b, int32_t, n);
    if (!g->start || !g->adj || !fill) return false;
    for (i = 0; i < count; i++) g->start[from[i] + 1]++;
    for (i = 0; i < n; i++) g->start[i + 1] += g->start[i];
    for (i = 0; i < count; i++) g->adj[g->start[from[i]] + fill[from[i]]++] = to[i];
    return true;
}

/* "system 'x'", "system 'x' #2" (when several share the name) or "set 'y'". */
static const char *ecs_sched__node_label(ecs_sched__build *b, int32_t node, char *buf, size_t n) {
    const ecs_sched__schedule *s = b->s;
    if (node < b->system_count) {
        const ecs_sched__name *name = &s->names[s->systems[node]->name];
        if (name->system_count > 1) {
            snprintf(buf, n, "system '%s' #%d", name->text, (int)b->instance[node] + 1);
        } else {
            snprintf(buf, n, "system '%s'", name->text);
        }
    } else {
        snprintf(buf, n, "set '%s'", s->names[b->name_of_set[node - b->system_count]].text);
    }
    return buf;
}

static ecs_sched_result ecs_sched__build_fail(ecs_sched__build *b, ecs_sched_result code) {
    return ecs_sched__fail_text(&b->w->env, code, ecs_sched__text_get(&b->text));
}

static void ecs_sched__text_begin(ecs_sched__build *b) {
    b->text.length = 0;
    if (b->text.data) b->text.data[0] = '\0';
    ecs_sched__text_printf(&b->text, "schedule '%s': ", b->s->label);
}

/* Sends the message in b->text as the setting asks; returns an error only for ERROR. */
static ecs_sched_result ecs_sched__report(ecs_sched__build *b, ecs_sched_report level,
                                          ecs_sched_report default_level, ecs_sched_result code) {
    if (level == ECS_SCHED_REPORT_DEFAULT) level = default_level;
    if (level == ECS_SCHED_REPORT_ERROR) return ecs_sched__build_fail(b, code);
    if (level == ECS_SCHED_REPORT_WARN) {
        ecs_sched__log(&b->w->env, ECS_SCHED_LOG_WARN, ecs_sched__text_get(&b->text));
    }
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__oom(ecs_sched__build *b) {
    return ecs_sched__out_of_memory(b->w, "building a schedule");
}

/* Numbers the sets, groups systems by name, and refuses a name used for both. */
static ecs_sched_result ecs_sched__resolve_names(ecs_sched__build *b) {
    ecs_sched__schedule *s = b->s;
    uint32_t i;
    int32_t *fill;
    /* Which names are sets is decided afresh at each build, from the configuration that
       stands: a name is declared a set by configuring it, by something in it, or by being the
       default set; a name only ordered against is a set while no system carries it. */
    uint8_t *declared_set = ECS_SCHED__ALLOC_N(b, uint8_t, s->name_count);
    uint8_t *implicit_set = ECS_SCHED__ALLOC_N(b, uint8_t, s->name_count);
    if (!declared_set || !implicit_set) return ecs_sched__oom(b);
    for (i = 0; i < s->name_count; i++) declared_set[i] = s->names[i].configured;
    if (s->default_set >= 0) declared_set[s->default_set] = 1;
    for (i = 0; i < s->relation_count; i++) {
        const ecs_sched__relation *r = &s->relations[i];
        if (r->kind == ECS_SCHED__REL_IN_SET && r->object < 0) declared_set[-r->object - 1] = 1;
        if (r->subject < 0 && s->names[-r->subject - 1].system_count == 0) {
            implicit_set[-r->subject - 1] = 1;
        }
        if (r->object < 0 && s->names[-r->object - 1].system_count == 0) {
            implicit_set[-r->object - 1] = 1;
        }
    }
    b->set_of_name = ECS_SCHED__ALLOC_N(b, int32_t, s->name_count);
    b->name_of_set = ECS_SCHED__ALLOC_N(b, int32_t, s->name_count);
    b->instances_start = ECS_SCHED__ALLOC_N(b, int32_t, s->name_count + 1);
    b->instances = ECS_SCHED__ALLOC_N(b, int32_t, s->system_count);
    b->instance = ECS_SCHED__ALLOC_N(b, int32_t, s->system_count);
    fill = ECS_SCHED__ALLOC_N(b, int32_t, s->name_count);
    if (!b->set_of_name || !b->name_of_set || !b->instances_start || !b->instances ||
        !b->instance || !fill) {
        return ecs_sched__oom(b);
    }
    for (i = 0; i < s->name_count; i++) {
        const ecs_sched__name *n = &s->names[i];
        b->set_of_name[i] = -1;
        if (declared_set[i] && n->system_count > 0) {
            ecs_sched__text_begin(b);
            ecs_sched__text_printf(&b->text,
                                   "'%s' names %d system(s) and also a set; systems and sets "
                                   "share one namespace, so rename the set or the system",
                                   n->text, (int)n->system_count);
            return ecs_sched__build_fail(b, ECS_SCHED_ERR_NAME_CONFLICT);
        }
        if (declared_set[i] || implicit_set[i]) {
            b->name_of_set[b->set_count] = (int32_t)i;
            b->set_of_name[i] = b->set_count++;
        }
        b->instances_start[i + 1] = b->instances_start[i] + n->system_count;
    }
    for (i = 0; i < s->system_count; i++) {
        int32_t name = s->systems[i]->name;
        b->instance[i] = fill[name];
        b->instances[b->instances_start[name] + fill[name]++] = (int32_t)i;
    }
    b->node_count = b->system_count + b->set_count;
    return ECS_SCHED_OK;
}

/* The nodes a reference stands for: one system, one set, or every system of a name. */
static int32_t ecs_sched__ref_nodes(const ecs_sched__build *b, ecs_sched__ref ref,
                                    int32_t *single, const int32_t **nodes) {
    int32_t name;
    if (ref >= 0) {
        *single = ref;
        *nodes = single;
        return 1;
    }
    name = -ref - 1;
    if (b->set_of_name[name] >= 0) {
        *single = b->system_count + b->set_of_name[name];
        *nodes = single;
        return 1;
    }
    *nodes = b->instances + b->instances_start[name];
    return b->instances_start[name + 1] - b->instances_start[name];
}

static ecs_sched_result ecs_sched__check_duplicate_names(ecs_sched__build *b) {
    ecs_sched__schedule *s = b->s;
    uint32_t i;
    char label[160];
    for (i = 0; i < s->relation_count; i++) {
        const ecs_sched__relation *r = &s->relations[i];
        ecs_sched__ref refs[2];
        int k;
        if (r->kind != ECS_SCHED__REL_BEFORE) continue;
        refs[0] = r->subject;
        refs[1] = r->object;
        for (k = 0; k < 2; k++) {
            const ecs_sched__name *n;
            int32_t j, single;
            const int32_t *other;
            ecs_sched_result result;
            if (refs[k] >= 0 || s->names[-refs[k] - 1].system_count < 2) continue;
            n = &s->names[-refs[k] - 1];
            ecs_sched__ref_nodes(b, refs[1 - k], &single, &other);
            ecs_sched__text_begin(b);
            ecs_sched__text_printf(&b->text, "%s is ordered %s '%s', but %d systems are named "
                                   "'%s' (",
                                   ecs_sched__node_label(b, other[0], label, sizeof label),
                                   k == 0 ? "after" : "before", n->text, (int)n->system_count,
                                   n->text);
            for (j = 0; j < n->system_count; j++) {
                ecs_sched__text_printf(&b->text, "%s#%d", j ? ", " : "", (int)j + 1);
            }
            ecs_sched__text_printf(&b->text,
                                   "), so the order would tie it to all of them. Put the instance "
                                   "you mean in a set and order against the set, or order from "
                                   "that instance's side (its own before/after), or chain them");
            result = ecs_sched__report(b, s->settings.duplicate_names, ECS_SCHED_REPORT_ERROR,
                                       ECS_SCHED_ERR_DUPLICATE_NAME);
            if (result != ECS_SCHED_OK) return result;
        }
    }
    return ECS_SCHED_OK;
}

/* Finds a cycle in g among the nodes not yet `done`; writes its nodes to path (first node
   repeated at the end) and returns the length, or 0 when there is none. */
static int32_t ecs_sched__find_cycle(ecs_sched__build *b, const ecs_sched__csr *g,
                                     int32_t *path) {
    uint8_t *color = ECS_SCHED__ALLOC_N(b, uint8_t, g->n);
    int32_t *stack = ECS_SCHED__ALLOC_N(b, int32_t, g->n);
    int32_t *next = ECS_SCHED__ALLOC_N(b, int32_t, g->n);
    int32_t root, top, i;
    if (!color || !stack || !next) return -1;
    for (root = 0; root < g->n; root++) {
        if (color[root]) continue;
        top = 0;
        stack[top++] = root;
        color[root] = 1;
        next[root] = g->start[root];
        while (top > 0) {
            int32_t v = stack[top - 1];
            if (next[v] < g->start[v + 1]) {
                int32_t u = g->adj[next[v]++];
                if (color[u] == 1) {
                    int32_t n = 0, at = top - 1;
                    while (stack[at] != u) at--;
                    for (i = at; i < top; i++) path[n++] = stack[i];
                    path[n++] = u;
                    return n;
                }
                if (color[u] == 0) {
                    color[u] = 1;
                    next[u] = g->start[u];
                    stack[top++] = u;
                }
            } else {
                color[v] = 2;
                top--;
            }
        }
    }
    return 0;
}

static void ecs_sched__print_path(ecs_sched__build *b, const int32_t *path, int32_t n,
                                  const char *arrow) {
    char label[160];
    int32_t i;
    for (i = 0; i < n; i++) {
        ecs_sched__text_printf(&b->text, "%s%s", i ? arrow : "",
                               ecs_sched__node_label(b, path[i], label, sizeof label));
    }
}

static ecs_sched_result ecs_sched__build_hierarchy(ecs_sched__build *b) {
    ecs_sched__schedule *s = b->s;
    int32_t count = 0, i, j, k, n, *from, *to, *path, *order, *pending;
    uint32_t r;
    from = ECS_SCHED__ALLOC_N(b, int32_t, s->relation_count + s->system_count);
    to = ECS_SCHED__ALLOC_N(b, int32_t, s->relation_count + s->system_count);
    if (!from || !to) return ecs_sched__oom(b);
    for (r = 0; r < s->relation_count; r++) {
        const ecs_sched__relation *rel = &s->relations[r];
        int32_t single_a, single_b;
        const int32_t *subject, *object;
        if (rel->kind != ECS_SCHED__REL_IN_SET) continue;
        ecs_sched__ref_nodes(b, rel->subject, &single_a, &subject);
        ecs_sched__ref_nodes(b, rel->object, &single_b, &object);
        from[count] = subject[0];
        to[count++] = object[0];
    }
    if (s->default_set >= 0) {
        for (i = 0; i < b->system_count; i++) {
            if (s->systems[i]->explicit_set) continue;
            from[count] = i;
            to[count++] = b->system_count + b->set_of_name[s->default_set];
        }
    }
    if (!ecs_sched__csr_build(b, &b->parents, b->node_count, count, from, to)) return ecs_sched__oom(b);
    /* the same in_set given twice is one membership */
    for (i = 0; i < b->node_count; i++) {
        int32_t *p = b->parents.adj + b->parents.start[i], m = b->parents.start[i + 1] - b->parents.start[i];
        for (j = 0; j < m; j++) {
            for (k = j + 1; k < m; k++) {
                if (p[k] == p[j]) p[k] = -1;
            }
        }
    }
    path = ECS_SCHED__ALLOC_N(b, int32_t, b->node_count + 1);
    if (!path) return ecs_sched__oom(b);
    {
        /* a cycle check on the "is in" graph, without the removed duplicates */
        ecs_sched__csr clean;
        int32_t *cf = ECS_SCHED__ALLOC_N(b, int32_t, count), *ct = ECS_SCHED__ALLOC_N(b, int32_t, count), c = 0;
        if (!cf || !ct) return ecs_sched__oom(b);
        for (i = 0; i < b->node_count; i++) {
            for (j = b->parents.start[i]; j < b->parents.start[i + 1]; j++) {
                if (b->parents.adj[j] < 0) continue;
                cf[c] = i;
                ct[c++] = b->parents.adj[j];
            }
        }
        if (!ecs_sched__csr_build(b, &clean, b->node_count, c, cf, ct)) return ecs_sched__oom(b);
        b->parents = clean;
        n = ecs_sched__find_cycle(b, &b->parents, path);
        if (n < 0) return ecs_sched__oom(b);
        if (n > 0) {
            ecs_sched__text_begin(b);
            ecs_sched__text_printf(&b->text, "the sets contain each other in a cycle: ");
            ecs_sched__print_path(b, path, n, " is in ");
            ecs_sched__text_printf(&b->text, ". Remove one of these in_set relations");
            return ecs_sched__build_fail(b, ECS_SCHED_ERR_HIERARCHY_CYCLE);
        }
    }
    /* ancestors and depth, parents before children */
    b->set_words = (b->set_count + 63) / 64;
    b->ancestors = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)b->node_count * b->set_words);
    b->depth = ECS_SCHED__ALLOC_N(b, int32_t, b->set_count);
    b->child_count = ECS_SCHED__ALLOC_N(b, int32_t, b->set_count);
    order = ECS_SCHED__ALLOC_N(b, int32_t, b->node_count);
    pending = ECS_SCHED__ALLOC_N(b, int32_t, b->node_count);
    if (!b->ancestors || !b->depth || !b->child_count || !order || !pending) return ecs_sched__oom(b);
    {
        /* Kahn over child -> parent edges reversed: a node is ready once its parents are */
        ecs_sched__csr children;
        int32_t head = 0, tail = 0;
        {
            int32_t e = 0, total = b->parents.start[b->node_count];
            int32_t *pf = ECS_SCHED__ALLOC_N(b, int32_t, total), *pt = ECS_SCHED__ALLOC_N(b, int32_t, total);
            if (!pf || !pt) return ecs_sched__oom(b);
            for (i = 0; i < b->node_count; i++) {
                for (j = b->parents.start[i]; j < b->parents.start[i + 1]; j++) {
                    pf[e] = b->parents.adj[j];
                    pt[e++] = i;
                }
            }
            if (!ecs_sched__csr_build(b, &children, b->node_count, total, pf, pt)) return ecs_sched__oom(b);
        }
        for (i = 0; i < b->node_count; i++) {
            pending[i] = b->parents.start[i + 1] - b->parents.start[i];
            if (pending[i] == 0) order[tail++] = i;
            if (i >= b->system_count) b->child_count[i - b->system_count] = children.start[i + 1] - children.start[i];
        }
        while (head < tail) {
            int32_t v = order[head++];
            for (j = children.start[v]; j < children.start[v + 1]; j++) {
                int32_t c = children.adj[j];
                uint64_t *ca = b->ancestors + (size_t)c * b->set_words;
                const uint64_t *va = b->ancestors + (size_t)v * b->set_words;
                int32_t set = v - b->system_count;
                for (k = 0; k < b->set_words; k++) ca[k] |= va[k];
                ecs_sched__set_bit(ca, set);
                if (c >= b->system_count && b->depth[c - b->system_count] < b->depth[set] + 1) {
                    b->depth[c - b->system_count] = b->depth[set] + 1;
                }
                if (--pending[c] == 0) order[tail++] = c;
            }
        }
    }
    /* a direct membership that another membership already implies */
    for (i = 0; i < b->node_count; i++) {
        for (j = b->parents.start[i]; j < b->parents.start[i + 1]; j++) {
            for (k = b->parents.start[i]; k < b->parents.start[i + 1]; k++) {
                int32_t outer = b->parents.adj[j], inner = b->parents.adj[k];
                char a[160], p[160], q[160];
                /* a group's own set repeats the sets its members are in */
                if (j == k || s->names[b->name_of_set[inner - b->system_count]].anonymous) continue;
                if (!ecs_sched__bit(b->ancestors + (size_t)inner * b->set_words, outer - b->system_count)) {
                    continue;
                }
                ecs_sched__text_begin(b);
                ecs_sched__text_printf(&b->text,
                                       "%s is in %s directly and also through %s, which is in it "
                                       "already: remove the direct in_set of %s",
                                       ecs_sched__node_label(b, i, a, sizeof a),
                                       ecs_sched__node_label(b, outer, p, sizeof p),
                                       ecs_sched__node_label(b, inner, q, sizeof q), p);
                return ecs_sched__build_fail(b, ECS_SCHED_ERR_HIERARCHY_REDUNDANT);
            }
        }
    }
    /* the systems under each set */
    {
        int32_t total = 0, e = 0;
        int32_t *mf, *mt;
        for (i = 0; i < b->system_count; i++) {
            const uint64_t *bits = b->ancestors + (size_t)i * b->set_words;
            for (k = 0; k < b->set_words; k++) {
                uint64_t word = bits[k];
                for (; word; word &= word - 1) total++;
            }
        }
        mf = ECS_SCHED__ALLOC_N(b, int32_t, total);
        mt = ECS_SCHED__ALLOC_N(b, int32_t, total);
        if (!mf || !mt) return ecs_sched__oom(b);
        for (i = 0; i < b->system_count; i++) {
            const uint64_t *bits = b->ancestors + (size_t)i * b->set_words;
            for (k = 0; k < b->set_words; k++) {
                uint64_t word = bits[k];
                while (word) {
                    int32_t bit = ecs_sched__lowest_bit(word);
                    word &= word - 1;
                    mf[e] = k * 64 + bit;
                    mt[e++] = i;
                }
            }
        }
        if (!ecs_sched__csr_build(b, &b->members, b->set_count, total, mf, mt)) return ecs_sched__oom(b);
    }
    return ECS_SCHED_OK;
}

static bool ecs_sched__node_under(const ecs_sched__build *b, int32_t node, int32_t set_node) {
    return set_node >= b->system_count &&
           ecs_sched__bit(b->ancestors + (size_t)node * b->set_words, set_node - b->system_count);
}

/* Siblings share a parent set, or both are at the top. */
static bool ecs_sched__siblings(const ecs_sched__build *b, int32_t x, int32_t y) {
    int32_t i, j;
    const ecs_sched__csr *p = &b->parents;
    if (p->start[x] == p->start[x + 1] && p->start[y] == p->start[y + 1]) return true;
    for (i = p->start[x]; i < p->start[x + 1]; i++) {
        for (j = p->start[y]; j < p->start[y + 1]; j++) {
            if (p->adj[i] == p->adj[j]) return true;
        }
    }
    return false;
}

static ecs_sched_result ecs_sched__collect_dependencies(ecs_sched__build *b) {
    ecs_sched__schedule *s = b->s;
    uint32_t r;
    int32_t count = 0, n, *path;
    ecs_sched__csr g;
    char x[160], y[160];
    for (r = 0; r < s->relation_count; r++) {
        int32_t sa, sb;
        const int32_t *a, *c;
        if (s->relations[r].kind != ECS_SCHED__REL_BEFORE) continue;
        count += ecs_sched__ref_nodes(b, s->relations[r].subject, &sa, &a) *
                 ecs_sched__ref_nodes(b, s->relations[r].object, &sb, &c);
    }
    b->dep_from = ECS_SCHED__ALLOC_N(b, int32_t, count);
    b->dep_to = ECS_SCHED__ALLOC_N(b, int32_t, count);
    b->dep_ignore = ECS_SCHED__ALLOC_N(b, uint8_t, count);
    path = ECS_SCHED__ALLOC_N(b, int32_t, b->node_count + 1);
    if (!b->dep_from || !b->dep_to || !b->dep_ignore || !path) return ecs_sched__oom(b);
    for (r = 0; r < s->relation_count; r++) {
        const ecs_sched__relation *rel = &s->relations[r];
        int32_t sa, sb, na, nb, i, j;
        const int32_t *a, *c;
        if (rel->kind != ECS_SCHED__REL_BEFORE) continue;
        na = ecs_sched__ref_nodes(b, rel->subject, &sa, &a);
        nb = ecs_sched__ref_nodes(b, rel->object, &sb, &c);
        for (i = 0; i < na; i++) {
            for (j = 0; j < nb; j++) {
                int32_t from = a[i], to = c[j];
                ecs_sched_result result;
                if (ecs_sched__node_under(b, from, to) || ecs_sched__node_under(b, to, from)) {
                    int32_t inner = ecs_sched__node_under(b, from, to) ? from : to;
                    int32_t outer = inner == from ? to : from;
                    ecs_sched__text_begin(b);
                    ecs_sched__text_printf(&b->text,
                                           "%s is ordered %s %s, which contains it; a set's "
                                           "members cannot run before or after the set itself. "
                                           "Order it against a sibling instead",
                                           ecs_sched__node_label(b, inner, x, sizeof x),
                                           inner == from ? "before" : "after",
                                           ecs_sched__node_label(b, outer, y, sizeof y));
                    return ecs_sched__build_fail(b, ECS_SCHED_ERR_ORDER_AGAINST_PARENT);
                }
                if (!ecs_sched__siblings(b, from, to)) {
                    ecs_sched__text_begin(b);
                    ecs_sched__text_printf(&b->text,
                                           "%s runs before %s, but they are not in a common set, "
                                           "so this order also ties together the sets around "
                                           "them. Order their sets instead, or put both in one "
                                           "set",
                                           ecs_sched__node_label(b, from, x, sizeof x),
                                           ecs_sched__node_label(b, to, y, sizeof y));
                    result = ecs_sched__report(b, s->settings.cross_set_dependencies,
                                               ECS_SCHED_REPORT_WARN,
                                               ECS_SCHED_ERR_CROSS_SET_DEPENDENCY);
                    if (result != ECS_SCHED_OK) return result;
                }
                b->dep_from[b->dep_count] = from;
                b->dep_to[b->dep_count] = to;
                b->dep_ignore[b->dep_count++] = rel->ignore_deferred;
            }
        }
    }
    if (!ecs_sched__csr_build(b, &g, b->node_count, b->dep_count, b->dep_from, b->dep_to)) {
        return ecs_sched__oom(b);
    }
    n = ecs_sched__find_cycle(b, &g, path);
    if (n < 0) return ecs_sched__oom(b);
    if (n > 0) {
        ecs_sched__text_begin(b);
        ecs_sched__text_printf(&b->text, "the before/after constraints form a cycle: ");
        ecs_sched__print_path(b, path, n, " runs before ");
        ecs_sched__text_printf(&b->text, ". Remove one of these orderings");
        return ecs_sched__build_fail(b, ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    }
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__check_unknown_sets(ecs_sched__build *b) {
    ecs_sched__schedule *s = b->s;
    int32_t set;
    for (set = 0; set < b->set_count; set++) {
        const ecs_sched__name *n = &s->names[b->name_of_set[set]];
        ecs_sched_result result;
        if (n->configured || b->child_count[set] > 0) continue;
        ecs_sched__text_begin(b);
        ecs_sched__text_printf(&b->text,
                               "set '%s' is referenced, but nothing is in it and it is never "
                               "configured (a misspelled name?)",
                               n->text);
        result = ecs_sched__report(b, s->settings.unknown_sets, ECS_SCHED_REPORT_WARN,
                                   ECS_SCHED_ERR_UNKNOWN_SET);
        if (result != ECS_SCHED_OK) return result;
    }
    return ECS_SCHED_OK;
}

/* Node-level dependencies become system-level ones: every system under the first node runs
   before every system under the second. Duplicates are dropped. */
static ecs_sched_result ecs_sched__flatten(ecs_sched__build *b) {
    int32_t i, count = 0, S = b->system_count;
    int32_t *stamp;
    ecs_sched__csr all;
    for (i = 0; i < b->dep_count; i++) {
        int32_t f = b->dep_from[i], t = b->dep_to[i];
        int32_t nf = f < S ? 1 : b->members.start[f - S + 1] - b->members.start[f - S];
        int32_t nt = t < S ? 1 : b->members.start[t - S + 1] - b->members.start[t - S];
        count += nf * nt;
    }
    b->edge_from = ECS_SCHED__ALLOC_N(b, int32_t, count);
    b->edge_to = ECS_SCHED__ALLOC_N(b, int32_t, count);
    b->edge_ignore = ECS_SCHED__ALLOC_N(b, uint8_t, count);
    stamp = ECS_SCHED__ALLOC_N(b, int32_t, S);
    if (!b->edge_from || !b->edge_to || !b->edge_ignore || !stamp) return ecs_sched__oom(b);
    for (i = 0; i < b->dep_count; i++) {
        int32_t f = b->dep_from[i], t = b->dep_to[i], a, c;
        const int32_t *fs = f < S ? &b->dep_from[i] : b->members.adj + b->members.start[f - S];
        const int32_t *ts = t < S ? &b->dep_to[i] : b->members.adj + b->members.start[t - S];
        int32_t nf = f < S ? 1 : b->members.start[f - S + 1] - b->members.start[f - S];
        int32_t nt = t < S ? 1 : b->members.start[t - S + 1] - b->members.start[t - S];
        for (a = 0; a < nf; a++) {
            for (c = 0; c < nt; c++) {
                b->edge_from[b->edge_count] = fs[a];
                b->edge_to[b->edge_count] = ts[c];
                b->edge_ignore[b->edge_count++] = b->dep_ignore[i];
            }
        }
    }
    if (!ecs_sched__csr_build(b, &all, S, b->edge_count, b->edge_from, b->edge_to)) {
        return ecs_sched__oom(b);
    }
    {
        /* the ignore flag of an edge: ignored only if every duplicate ignores it */
        uint8_t *flags = ECS_SCHED__ALLOC_N(b, uint8_t, b->edge_count);
        int32_t *fill = ECS_SCHED__ALLOC_N(b, int32_t, S), *where = ECS_SCHED__ALLOC_N(b, int32_t, S);
        int32_t e, out = 0;
        if (!flags || !fill || !where) return ecs_sched__oom(b);
        for (e = 0; e < b->edge_count; e++) {
            int32_t f = b->edge_from[e];
            flags[all.start[f] + fill[f]++] = b->edge_ignore[e];
        }
        b->successors.n = S;
        b->successors.start = ECS_SCHED__ALLOC_N(b, int32_t, S + 1);
        b->successors.adj = ECS_SCHED__ALLOC_N(b, int32_t, b->edge_count);
        b->successor_ignore = ECS_SCHED__ALLOC_N(b, uint8_t, b->edge_count);
        if (!b->successors.start || !b->successors.adj || !b->successor_ignore) return ecs_sched__oom(b);
        for (i = 0; i < S; i++) stamp[i] = -1;
        for (i = 0; i < S; i++) {
            b->successors.start[i] = out;
            for (e = all.start[i]; e < all.start[i + 1]; e++) {
                int32_t t = all.adj[e];
                if (stamp[t] == i) {
                    b->successor_ignore[where[t]] &= flags[e];
                    continue;
                }
                stamp[t] = i;
                where[t] = out;
                b->successors.adj[out] = t;
                b->successor_ignore[out++] = flags[e];
            }
        }
        b->successors.start[S] = out;
    }
    return ECS_SCHED_OK;
}

/* A min-heap of node numbers ordered by key. */
typedef struct ecs_sched__heap {
    int32_t *items;
    int32_t count;
    const int32_t *key;
} ecs_sched__heap;

static void ecs_sched__heap_push(ecs_sched__heap *h, int32_t v) {
    int32_t i = h->count++;
    while (i > 0) {
        int32_t parent = (i - 1) / 2;
        if (h->key[h->items[parent]] <= h->key[v]) break;
        h->items[i] = h->items[parent];
        i = parent;
    }
    h->items[i] = v;
}

static int32_t ecs_sched__heap_pop(ecs_sched__heap *h) {
    int32_t top = h->items[0], last = h->items[--h->count], i = 0;
    for (;;) {
        int32_t child = 2 * i + 1;
        if (child >= h->count) break;
        if (child + 1 < h->count && h->key[h->items[child + 1]] < h->key[h->items[child]]) child++;
        if (h->key[last] <= h->key[h->items[child]]) break;
        h->items[i] = h->items[child];
        i = child;
    }
    if (h->count > 0) h->items[i] = last;
    return top;
}

/* Topological order of g, ties broken by the smallest key; returns how many nodes it
   ordered (fewer than g->n when there is a cycle). */
static int32_t ecs_sched__toposort(ecs_sched__build *b, const ecs_sched__csr *g, const int32_t *key,
                                   int32_t *order) {
    int32_t *pending = ECS_SCHED__ALLOC_N(b, int32_t, g->n), i, e, n = 0;
    ecs_sched__heap heap;
    heap.items = ECS_SCHED__ALLOC_N(b, int32_t, g->n);
    heap.count = 0;
    heap.key = key;
    if (!pending || !heap.items) return -1;
    for (e = 0; e < g->start[g->n]; e++) pending[g->adj[e]]++;
    for (i = 0; i < g->n; i++) {
        if (pending[i] == 0) ecs_sched__heap_push(&heap, i);
    }
    while (heap.count > 0) {
        int32_t v = ecs_sched__heap_pop(&heap);
        order[n++] = v;
        for (e = g->start[v]; e < g->start[v + 1]; e++) {
            if (--pending[g->adj[e]] == 0) ecs_sched__heap_push(&heap, g->adj[e]);
        }
    }
    return n;
}

/* The order in which unconstrained systems run: the order they were added, or a shuffle. */
static void ecs_sched__make_keys(ecs_sched__build *b) {
    int32_t i;
    uint64_t state = b->s->settings.shuffle_seed;
    for (i = 0; i < b->system_count; i++) b->key[i] = i;
    if (!state) return;
    for (i = b->system_count - 1; i > 0; i--) {
        int32_t j, tmp;
        state ^= state << 13;  /* xorshift64 */
        state ^= state >> 7;
        state ^= state << 17;
        j = (int32_t)(state % (uint64_t)(i + 1));
        tmp = b->key[i];
        b->key[i] = b->key[j];
        b->key[j] = tmp;
    }
}

static ecs_sched_result ecs_sched__order_systems(ecs_sched__build *b) {
    int32_t n, *path;
    b->order = ECS_SCHED__ALLOC_N(b, int32_t, b->system_count);
    b->key = ECS_SCHED__ALLOC_N(b, int32_t, b->system_count + 64);
    path = ECS_SCHED__ALLOC_N(b, int32_t, b->system_count + 1);
    if (!b->order || !b->key || !path) return ecs_sched__oom(b);
    ecs_sched__make_keys(b);
    n = ecs_sched__toposort(b, &b->successors, b->key, b->order);
    if (n < 0) return ecs_sched__oom(b);
    if (n < b->system_count) {
        int32_t len = ecs_sched__find_cycle(b, &b->successors, path);
        if (len < 0) return ecs_sched__oom(b);
        ecs_sched__text_begin(b);
        ecs_sched__text_printf(&b->text, "once sets are replaced by their systems, the order has a "
                                         "cycle: ");
        ecs_sched__print_path(b, path, len, " runs before ");
        ecs_sched__text_printf(&b->text, ". A system in two sets that are ordered against each "
                                         "other, or a system ordered against a set it shares "
                                         "members with, causes this; remove one of the orderings "
                                         "or memberships");
        return ecs_sched__build_fail(b, ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    }
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__check_condition_access(ecs_sched__build *b) {
    ecs_sched__schedule *s = b->s;
    uint32_t g;
    char label[160];
    for (g = 0; g < s->guard_count; g++) {
        const ecs_sched__cond *c = ecs_sched__cond_find_write(&s->conds, s->guards[g].cond);
        int32_t single;
        const int32_t *node;
        if (!c) continue;
        ecs_sched__ref_nodes(b, s->guards[g].subject, &single, &node);
        ecs_sched__text_begin(b);
        ecs_sched__text_printf(&b->text,
                               "condition '%s' of %s asks to write %s '%s'; conditions only read. "
                               "Declare it as a read, or move the write into a system",
                               c->name, ecs_sched__node_label(b, node[0], label, sizeof label),
                               c->first_write_is_resource ? "resource" : "component",
                               ecs_sched__component_label(b->w, c->first_write));
        return ecs_sched__build_fail(b, ECS_SCHED_ERR_CONDITION_WRITES);
    }
    return ECS_SCHED_OK;
}

enum { ECS_SCHED__COMP_READ, ECS_SCHED__COMP_WRITE, ECS_SCHED__RES_READ, ECS_SCHED__RES_WRITE };

static uint64_t *ecs_sched__access_of(const ecs_sched__build *b, int32_t system, int kind) {
    return b->access + ((size_t)system * 4 + (size_t)kind) * (size_t)b->access_words;
}

static void ecs_sched__add_ctx_access(ecs_sched__build *b, int32_t system,
                                      const ecs_sched_system_ctx *ctx, bool reads_only) {
    int32_t i, q;
    for (i = 0; i < ctx->read_count; i++) {
        ecs_sched__set_bit(ecs_sched__access_of(b, system, ECS_SCHED__RES_READ), (int32_t)ctx->reads[i]);
    }
    for (i = 0; i < ctx->write_count; i++) {
        ecs_sched__set_bit(ecs_sched__access_of(b, system, reads_only ? ECS_SCHED__RES_READ
                                                                      : ECS_SCHED__RES_WRITE),
                           (int32_t)ctx->writes[i]);
    }
    for (q = 0; q < ctx->query_count; q++) {
        ecs_sched_access a = ecs_sched_query_access(ctx->queries[q]);
        for (i = 0; i < a.read_count; i++) {
            ecs_sched__set_bit(ecs_sched__access_of(b, system, ECS_SCHED__COMP_READ), (int32_t)a.reads[i]);
        }
        for (i = 0; i < a.write_count; i++) {
            ecs_sched__set_bit(ecs_sched__access_of(b, system, reads_only ? ECS_SCHED__COMP_READ
                                                                          : ECS_SCHED__COMP_WRITE),
                               (int32_t)a.writes[i]);
        }
    }
}

static void ecs_sched__add_cond_access(ecs_sched__build *b, int32_t system, int32_t cond) {
    const ecs_sched__cond *c = b->s->conds.items[cond];
    int32_t i;
    ecs_sched__add_ctx_access(b, system, &c->ctx, true);
    if (c->resource) {
        ecs_sched__set_bit(ecs_sched__access_of(b, system, ECS_SCHED__RES_READ), (int32_t)c->resource);
    }
    for (i = 0; i < 2; i++) {
        if (c->operands[i] >= 0) ecs_sched__add_cond_access(b, system, c->operands[i]);
    }
}

/* What each system touches, its conditions and those of its sets included. */
static ecs_sched_result ecs_sched__compute_access(ecs_sched__build *b) {
    ecs_sched__schedule *s = b->s;
    int32_t i;
    uint32_t g;
    b->access_words = (int32_t)((b->w->component_count + 63) / 64);
    b->access = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)b->system_count * 4 * b->access_words);
    if (!b->access) return ecs_sched__oom(b);
    for (i = 0; i < b->system_count; i++) ecs_sched__add_ctx_access(b, i, &s->systems[i]->ctx, false);
    for (g = 0; g < s->guard_count; g++) {
        int32_t single, n, k;
        const int32_t *node;
        n = ecs_sched__ref_nodes(b, s->guards[g].subject, &single, &node);
        for (k = 0; k < n; k++) {
            if (node[k] < b->system_count) {
                ecs_sched__add_cond_access(b, node[k], s->guards[g].cond);
            } else {
                int32_t set = node[k] - b->system_count, m;
                for (m = b->members.start[set]; m < b->members.start[set + 1]; m++) {
                    ecs_sched__add_cond_access(b, b->members.adj[m], s->guards[g].cond);
                }
            }
        }
    }
    return ECS_SCHED_OK;
}

/* Per system, for the pairwise check: its writes and everything it touches, components and
   resources side by side (2 * access_words words each), and whether it can conflict at all. */
typedef struct ecs_sched__conflict_table {
    int32_t words;
    uint64_t *writes;
    uint64_t *touches;
    uint8_t *kind;        /* 0 reads only (or nothing), 1 writes, 2 exclusive */
} ecs_sched__conflict_table;

static bool ecs_sched__conflict_table_make(ecs_sched__build *b, ecs_sched__conflict_table *t) {
    int32_t S = b->system_count, W = b->access_words, i, k;
    t->words = 2 * W;
    t->writes = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)S * t->words);
    t->touches = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)S * t->words);
    t->kind = ECS_SCHED__ALLOC_N(b, uint8_t, S);
    if (!t->writes || !t->touches || !t->kind) return false;
    for (i = 0; i < S; i++) {
        uint64_t *wr = t->writes + (size_t)i * t->words, *to = t->touches + (size_t)i * t->words;
        for (k = 0; k < W; k++) {
            wr[k] = ecs_sched__access_of(b, i, ECS_SCHED__COMP_WRITE)[k];
            wr[W + k] = ecs_sched__access_of(b, i, ECS_SCHED__RES_WRITE)[k];
            to[k] = wr[k] | ecs_sched__access_of(b, i, ECS_SCHED__COMP_READ)[k];
            to[W + k] = wr[W + k] | ecs_sched__access_of(b, i, ECS_SCHED__RES_READ)[k];
            if (wr[k] | wr[W + k]) t->kind[i] = 1;
        }
        if (b->s->systems[i]->ctx.exclusive) t->kind[i] = 2;
    }
    return true;
}

static bool ecs_sched__conflict(const ecs_sched__conflict_table *t, int32_t x, int32_t y) {
    const uint64_t *wx = t->writes + (size_t)x * t->words, *wy = t->writes + (size_t)y * t->words;
    const uint64_t *tx = t->touches + (size_t)x * t->words, *ty = t->touches + (size_t)y * t->words;
    uint64_t any = 0;
    int32_t k;
    if ((t->kind[x] | t->kind[y]) == 0) return false;
    if (t->kind[x] == 2 || t->kind[y] == 2) return true;
    for (k = 0; k < t->words; k++) any |= (wx[k] & ty[k]) | (wy[k] & tx[k]);
    return any != 0;
}

/* A node, or any set it is in, is ambiguous with everything. */
static bool ecs_sched__ambiguous_with_all(const ecs_sched__build *b, int32_t system) {
    const ecs_sched__system *sys = b->s->systems[system];
    int32_t set;
    if (sys->ambiguous_with_all || sys->is_apply_deferred) return true;
    for (set = 0; set < b->set_count; set++) {
        if (b->s->names[b->name_of_set[set]].ambiguous_with_all &&
            ecs_sched__node_under(b, system, b->system_count + set)) {
            return true;
        }
    }
    return false;
}

static bool ecs_sched__is_or_under(const ecs_sched__build *b, int32_t system, int32_t node) {
    return system == node || ecs_sched__node_under(b, system, node);
}

/* Declared harmless with ambiguous_with: a pair, a system or a whole set. */
static bool ecs_sched__silenced(const ecs_sched__build *b, int32_t x, int32_t y) {
    const ecs_sched__schedule *s = b->s;
    uint32_t r;
    if (ecs_sched__ambiguous_with_all(b, x) || ecs_sched__ambiguous_with_all(b, y)) return true;
    for (r = 0; r < s->relation_count; r++) {
        const ecs_sched__relation *rel = &s->relations[r];
        int32_t sa, sb, na, nb, i, j;
        const int32_t *a, *c;
        if (rel->kind != ECS_SCHED__REL_AMBIGUOUS) continue;
        na = ecs_sched__ref_nodes(b, rel->subject, &sa, &a);
        nb = ecs_sched__ref_nodes(b, rel->object, &sb, &c);
        for (i = 0; i < na; i++) {
            for (j = 0; j < nb; j++) {
                if ((ecs_sched__is_or_under(b, x, a[i]) && ecs_sched__is_or_under(b, y, c[j])) ||
                    (ecs_sched__is_or_under(b, y, a[i]) && ecs_sched__is_or_under(b, x, c[j]))) {
                    return true;
                }
            }
        }
    }
    return false;
}

/* The outermost set that holds x but not y, or x itself: how the report groups pairs. */
static int32_t ecs_sched__group_of(const ecs_sched__build *b, int32_t x, int32_t y) {
    int32_t set, best = x;
    for (set = 0; set < b->set_count; set++) {
        int32_t node = b->system_count + set;
        if (!ecs_sched__node_under(b, x, node) || ecs_sched__node_under(b, y, node)) continue;
        if (best == x || b->depth[set] < b->depth[best - b->system_count]) best = node;
    }
    return best;
}

static void ecs_sched__describe_conflict(ecs_sched__build *b, int32_t x, int32_t y) {
    static const char *const what[] = {"component", "component", "resource", "resource"};
    int32_t id, shown = 0, W = b->access_words;
    const ecs_sched_system_ctx *cx = &b->s->systems[x]->ctx, *cy = &b->s->systems[y]->ctx;
    if (cx->exclusive || cy->exclusive) {
        ecs_sched__text_printf(&b->text, "%s is exclusive", cx->exclusive ? "the first" : "the second");
        return;
    }
    for (id = 1; id < (int32_t)b->w->component_count && shown < 4; id++) {
        int k;
        for (k = 0; k < 4; k += 2) {
            bool xw = ecs_sched__bit(ecs_sched__access_of(b, x, k + 1), id);
            bool yw = ecs_sched__bit(ecs_sched__access_of(b, y, k + 1), id);
            bool xr = xw || ecs_sched__bit(ecs_sched__access_of(b, x, k), id);
            bool yr = yw || ecs_sched__bit(ecs_sched__access_of(b, y, k), id);
            if (!((xw && yr) || (yw && xr))) continue;
            ecs_sched__text_printf(&b->text, "%s%s '%s' (%s)", shown++ ? ", " : "", what[k],
                                   b->w->components[id].name,
                                   xw && yw ? "both write" : xw ? "first writes, second reads"
                                                               : "first reads, second writes");
        }
    }
    (void)W;
}

static int ecs_sched__compare_pairs(const void *pa, const void *pb) {
    const int32_t *a = (const int32_t *)pa, *c = (const int32_t *)pb;
    int i;
    for (i = 0; i < 4; i++) {
        if (a[i] != c[i]) return a[i] < c[i] ? -1 : 1;
    }
    return 0;
}

static ecs_sched_result ecs_sched__report_ambiguities(ecs_sched__build *b, int32_t *pairs,
                                                     int32_t found, ecs_sched_report level) {
    int32_t k;
    if (found == 0 || level == ECS_SCHED_REPORT_IGNORE) return ECS_SCHED_OK;
    /* without sets, pairs come out already grouped (by system) and in order */
    if (b->set_count > 0) qsort(pairs, (size_t)found, 4 * sizeof(int32_t), ecs_sched__compare_pairs);
    ecs_sched__text_begin(b);
    ecs_sched__text_printf(&b->text, "%d pair(s) of systems access the same data in conflicting "
                                     "ways and nothing orders them:",
                           (int)found);
    for (k = 0; k < found; k++) {
        const int32_t *p = pairs + 4 * k;
        char x[160], y[160];
        if (k == ECS_SCHED__MAX_REPORTED_PAIRS) {
            ecs_sched__text_printf(&b->text, "\n  ... and %d more pair(s)", (int)(found - k));
            break;
        }
        if (p[0] == p[2] && p[1] == p[3]) {
            ecs_sched__text_printf(&b->text, "\n  %s and %s: ",
                                   ecs_sched__node_label(b, p[2], x, sizeof x),
                                   ecs_sched__node_label(b, p[3], y, sizeof y));
            ecs_sched__describe_conflict(b, p[2], p[3]);
            continue;
        }
        if (k == 0 || p[0] != p[-4] || p[1] != p[-3]) {
            ecs_sched__text_printf(&b->text, "\n  between %s and %s:",
                                   ecs_sched__node_label(b, p[0], x, sizeof x),
                                   ecs_sched__node_label(b, p[1], y, sizeof y));
        }
        ecs_sched__text_printf(&b->text, "\n    %s and %s: ",
                               ecs_sched__node_label(b, p[2], x, sizeof x),
                               ecs_sched__node_label(b, p[3], y, sizeof y));
        ecs_sched__describe_conflict(b, p[2], p[3]);
    }
    ecs_sched__text_printf(&b->text, "\nOrder each pair (or their sets) with before/after, or, "
                                     "when either order is fine, declare them ambiguous_with "
                                     "each other");
    return ecs_sched__report(b, level, ECS_SCHED_REPORT_WARN, ECS_SCHED_ERR_AMBIGUITY);
}

/* Whether the plan must bind its order for a parallel executor (see ecs_sched__bind_plan_order);
   a schedule that runs on one thread needs none of it. */
static bool ecs_sched__binds_order(const ecs_sched__build *b) {
#ifdef ECS_SCHED_THREADS
    ecs_sched_executor chosen = b->s->settings.executor ? b->s->settings.executor : b->w->executor;
    return chosen != ECS_SCHED_EXECUTOR_SINGLE_THREADED;
#else
    (void)b;
    return false;
#endif
}

static bool ecs_sched__add_serial_pair(ecs_sched__build *b, int32_t x, int32_t y) {
    if (!ecs_sched__grow(&b->w->env, (void **)&b->serial, &b->serial_capacity,
                         2 * (b->serial_count + 1), sizeof *b->serial)) {
        return false;
    }
    b->serial[2 * b->serial_count] = x;
    b->serial[2 * b->serial_count + 1] = y;
    b->serial_count++;
    return true;
}

/* Finds the pairs of systems that no path orders and that must not run at once; reports those
   whose access conflicts as ambiguities, unless silenced. */
static ecs_sched_result ecs_sched__check_ambiguities(ecs_sched__build *b) {
    ecs_sched__schedule *s = b->s;
    int32_t S = b->system_count, words = (S + 63) / 64, i, j, e, k, found = 0;
    uint32_t capacity = 0;
    uint64_t *reach;
    int32_t *pairs = NULL;   /* group x, group y, x, y */
    ecs_sched__conflict_table table;
    ecs_sched_report level = s->settings.ambiguities;
    ecs_sched_result result;
    bool serial = ecs_sched__binds_order(b);
    if (level == ECS_SCHED_REPORT_DEFAULT) level = ECS_SCHED_REPORT_WARN;
    reach = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)S * words);
    if (!reach || !ecs_sched__conflict_table_make(b, &table)) return ecs_sched__oom(b);
    /* reach[v]: every system some path from v leads to */
    for (i = S - 1; i >= 0; i--) {
        int32_t v = b->order[i];
        uint64_t *rv = reach + (size_t)v * words;
        for (e = b->successors.start[v]; e < b->successors.start[v + 1]; e++) {
            int32_t t = b->successors.adj[e];
            const uint64_t *rt = reach + (size_t)t * words;
            for (k = 0; k < words; k++) rv[k] |= rt[k];
            ecs_sched__set_bit(rv, t);
        }
    }
    for (i = 0; i < S; i++) {
        const uint64_t *ri = reach + (size_t)i * words;
        bool commands_i = serial && s->systems[i]->ctx.commands != NULL;
        for (j = i + 1; j < S; j++) {
            int32_t *p;
            bool conflict = ecs_sched__conflict(&table, i, j);
            /* buffers reserve entities in the world as they record, so writers of commands
               take turns too; that is not reported as an ambiguity */
            if (!conflict && !(commands_i && s->systems[j]->ctx.commands)) continue;
            if (ecs_sched__bit(ri, j) || ecs_sched__bit(reach + (size_t)j * words, i)) continue;
            if (serial && !ecs_sched__add_serial_pair(b, i, j)) {
                ecs_sched__free(&b->w->env, pairs);
                return ecs_sched__oom(b);
            }
            if (!conflict || ecs_sched__silenced(b, i, j)) continue;
            if (!ecs_sched__grow(&b->w->env, (void **)&pairs, &capacity, 4 * (uint32_t)(found + 1),
                                 sizeof *pairs)) {
                ecs_sched__free(&b->w->env, pairs);
                return ecs_sched__oom(b);
            }
            p = pairs + 4 * found++;
            p[0] = ecs_sched__group_of(b, i, j);
            p[1] = ecs_sched__group_of(b, j, i);
            p[2] = i;
            p[3] = j;
        }
    }
    b->ambiguous_count = found;
    b->ambiguous = ECS_SCHED__ALLOC_N(b, int32_t, found * 2);
    if (!b->ambiguous) {
        ecs_sched__free(&b->w->env, pairs);
        return ecs_sched__oom(b);
    }
    for (k = 0; k < found; k++) {
        b->ambiguous[2 * k] = pairs[4 * k + 2];
        b->ambiguous[2 * k + 1] = pairs[4 * k + 3];
    }
    result = ecs_sched__report_ambiguities(b, pairs, found, level);
    ecs_sched__free(&b->w->env, pairs);
    return result;
}


/* ---- sync points and the plan ---- */

/* Inserts automatic sync points: a system that records commands, ordered before another,
   gets a sync point between them. Each system is given the number of sync points that must
   precede it (its distance); all edges that need the sync point for distance d share one. */
static ecs_sched_result ecs_sched__plan_nodes(ecs_sched__build *b, int32_t *node_count,
                                              int32_t **sync_of_distance, int32_t **distance,
                                              int32_t *extra_edges) {
    ecs_sched__schedule *s = b->s;
    int32_t S = b->system_count, i, e;
    *distance = ECS_SCHED__ALLOC_N(b, int32_t, S);
    *sync_of_distance = ECS_SCHED__ALLOC_N(b, int32_t, S + 1);
    if (!*distance || !*sync_of_distance) return ecs_sched__oom(b);
    *node_count = S;
    *extra_edges = 0;
    if (s->settings.no_auto_sync) return ECS_SCHED_OK;
    for (i = 0; i < S; i++) {
        int32_t v = b->order[i];
        bool writes = s->systems[v]->ctx.commands != NULL;
        for (e = b->successors.start[v]; e < b->successors.start[v + 1]; e++) {
            int32_t t = b->successors.adj[e];
            bool needs = writes && !b->successor_ignore[e] && !s->systems[t]->is_apply_deferred;
            int32_t d = (*distance)[v] + (needs ? 1 : 0);
            if (d > (*distance)[t]) (*distance)[t] = d;
            if (needs) *extra_edges += 2;
        }
    }
    for (i = 0; i <= S; i++) (*sync_of_distance)[i] = -1;
    for (i = 0; i < S; i++) {
        int32_t v = b->order[i];
        for (e = b->successors.start[v]; e < b->successors.start[v + 1]; e++) {
            int32_t t = b->successors.adj[e];
            if (s->systems[v]->ctx.commands && !b->successor_ignore[e] &&
                !s->systems[t]->is_apply_deferred && (*sync_of_distance)[(*distance)[t]] < 0) {
                (*sync_of_distance)[(*distance)[t]] = (*node_count)++;
            }
        }
    }
    return ECS_SCHED_OK;
}

static int ecs_sched__compare_guard_sets(const void *pa, const void *pb, const int32_t *depth) {
    int32_t a = *(const int32_t *)pa, c = *(const int32_t *)pb;
    if (depth[a] != depth[c]) return depth[a] < depth[c] ? -1 : 1;
    return a < c ? -1 : a > c;
}

/* Outermost first: by depth, then by set number. */
static void ecs_sched__sort_guard_sets(int32_t *sets, int32_t n, const int32_t *depth) {
    int32_t i, j;
    for (i = 1; i < n; i++) {
        int32_t x = sets[i];
        for (j = i; j > 0 && ecs_sched__compare_guard_sets(&sets[j - 1], &x, depth) > 0; j--) {
            sets[j] = sets[j - 1];
        }
        sets[j] = x;
    }
}

#define ECS_SCHED__MAX_REDUCED_NODES 8192   /* above: N*N bits is too much; keep every edge */

/* Marks the plan edges that no other path implies (a transitive reduction). Dropping the rest
   keeps the order, leaves the executors fewer dependencies to count and the drawing readable.
   Nodes go from last to first in plan order; a node's successors in ascending position, so a
   successor that another one reaches is always seen after it. */
static uint8_t *ecs_sched__reduced_edges(ecs_sched__build *b, const ecs_sched__csr *g,
                                         const int32_t *order, const int32_t *position,
                                         int32_t N) {
    int32_t words = (N + 63) / 64, p, e, k;
    uint8_t *keep = ECS_SCHED__ALLOC_N(b, uint8_t, g->start[N]);
    uint64_t *reach, *next;
    int32_t *edge_of;
    if (!keep) return NULL;
    if (N > ECS_SCHED__MAX_REDUCED_NODES) {
        memset(keep, 1, (size_t)g->start[N]);
        return keep;
    }
    reach = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)words * N);
    next = ECS_SCHED__ALLOC_N(b, uint64_t, words);
    edge_of = ECS_SCHED__ALLOC_N(b, int32_t, N);
    if (!reach || !next || !edge_of) return NULL;
    for (p = N - 1; p >= 0; p--) {
        int32_t v = order[p];
        uint64_t *mine = reach + (size_t)p * words;
        for (e = g->start[v + 1] - 1; e >= g->start[v]; e--) {  /* the first of duplicates wins */
            ecs_sched__set_bit(next, position[g->adj[e]]);
            edge_of[position[g->adj[e]]] = e;
        }
        for (k = 0; k < words; k++) {
            while (next[k]) {
                int32_t t = k * 64 + ecs_sched__lowest_bit(next[k]), j;
                const uint64_t *theirs = reach + (size_t)t * words;
                next[k] &= next[k] - 1;
                if (ecs_sched__bit(mine, t)) continue;
                keep[edge_of[t]] = 1;
                ecs_sched__set_bit(mine, t);
                for (j = t / 64; j < words; j++) mine[j] |= theirs[j];
            }
        }
    }
    return keep;
}

static bool ecs_sched__plan_node_exclusive(const ecs_sched__build *b, int32_t node) {
    return node >= b->system_count || b->s->systems[node]->ctx.exclusive;
}

/* Adds the edges that make the plan's order binding wherever running at once could change the
   result: each serial pair in plan order, and each exclusive node (exclusive systems,
   apply_deferred, sync points) after everything before it and before everything after it. The
   order does not change. A parallel executor then needs no access checks at run time and
   gives the single-threaded result. The added edges come after the declared ones in g. */
static bool ecs_sched__bind_plan_order(ecs_sched__build *b, ecs_sched__csr *g,
                                       const int32_t *order, const int32_t *position, int32_t N) {
    int64_t exclusive = 0, total;
    int32_t i, e, q, count = 0, *from, *to;
    uint32_t k;
    for (i = 0; i < N; i++) exclusive += ecs_sched__plan_node_exclusive(b, i);
    if (exclusive == 0 && b->serial_count == 0) return true;  /* nothing to bind */
    total = (int64_t)g->start[N] + b->serial_count + exclusive * N;
    if (total > INT32_MAX) return false;
    from = ECS_SCHED__ALLOC_N(b, int32_t, total);
    to = ECS_SCHED__ALLOC_N(b, int32_t, total);
    if (!from || !to) return false;
    for (i = 0; i < N; i++) {
        for (e = g->start[i]; e < g->start[i + 1]; e++) {
            from[count] = i;
            to[count++] = g->adj[e];
        }
    }
    for (k = 0; k < b->serial_count; k++) {
        int32_t x = b->serial[2 * k], y = b->serial[2 * k + 1];
        bool x_first = position[x] < position[y];
        from[count] = x_first ? x : y;
        to[count++] = x_first ? y : x;
    }
    for (i = 0; i < N; i++) {
        if (!ecs_sched__plan_node_exclusive(b, i)) continue;
        for (q = 0; q < N; q++) {
            if (q == position[i]) continue;
            from[count] = q < position[i] ? order[q] : i;
            to[count++] = q < position[i] ? i : order[q];
        }
    }
    return ecs_sched__csr_build(b, g, N, count, from, to);
}

static ecs_sched_result ecs_sched__make_plan(ecs_sched__build *b, ecs_sched__plan *plan) {
    ecs_sched__schedule *s = b->s;
    ecs_sched__arena *pa = &plan->arena;
    int32_t S = b->system_count, N = 0, i, e, k, extra = 0, edge = 0;
    int32_t *sync_of_distance, *distance, *from, *to, *key, *order, *position;
    int32_t *plan_set_of, cond_total = 0, guard_total = 0;
    ecs_sched__csr g, declared;
    ecs_sched_result result = ecs_sched__plan_nodes(b, &N, &sync_of_distance, &distance, &extra);
    if (result != ECS_SCHED_OK) return result;
    from = ECS_SCHED__ALLOC_N(b, int32_t, b->successors.start[S] + extra);
    to = ECS_SCHED__ALLOC_N(b, int32_t, b->successors.start[S] + extra);
    key = ECS_SCHED__ALLOC_N(b, int32_t, N);
    order = ECS_SCHED__ALLOC_N(b, int32_t, N);
    position = ECS_SCHED__ALLOC_N(b, int32_t, N);
    plan_set_of = ECS_SCHED__ALLOC_N(b, int32_t, b->set_count);
    if (!from || !to || !key || !order || !position || !plan_set_of) return ecs_sched__oom(b);
    for (i = 0; i < S; i++) {
        for (e = b->successors.start[i]; e < b->successors.start[i + 1]; e++) {
            int32_t t = b->successors.adj[e];
            from[edge] = i;
            to[edge++] = t;
            if (N > S && s->systems[i]->ctx.commands && !b->successor_ignore[e] &&
                !s->systems[t]->is_apply_deferred) {
                int32_t sync = sync_of_distance[distance[t]];
                from[edge] = i;
                to[edge++] = sync;
                from[edge] = sync;
                to[edge++] = t;
            }
        }
    }
    for (i = 0; i < S; i++) key[i] = b->key[i];
    for (i = S; i < N; i++) key[i] = S + i;
    if (!ecs_sched__csr_build(b, &g, N, edge, from, to)) return ecs_sched__oom(b);
    {
        /* drop the duplicate sync edges */
        int32_t *stamp = ECS_SCHED__ALLOC_N(b, int32_t, N), out = 0, *start = ECS_SCHED__ALLOC_N(b, int32_t, N + 1);
        if (!stamp || !start) return ecs_sched__oom(b);
        for (i = 0; i < N; i++) stamp[i] = -1;
        for (i = 0; i < N; i++) {
            start[i] = out;
            for (e = g.start[i]; e < g.start[i + 1]; e++) {
                if (stamp[g.adj[e]] == i) continue;
                stamp[g.adj[e]] = i;
                g.adj[out++] = g.adj[e];
            }
        }
        start[N] = out;
        g.start = start;
    }
    if (ecs_sched__toposort(b, &g, key, order) != N) return ecs_sched__oom(b);
    for (i = 0; i < N; i++) position[order[i]] = i;
    declared = g;
    if (ecs_sched__binds_order(b) && !ecs_sched__bind_plan_order(b, &g, order, position, N)) {
        return ecs_sched__oom(b);
    }

    /* sets with conditions become plan sets */
    for (i = 0; i < b->set_count; i++) plan_set_of[i] = -1;
    for (k = 0; k < (int32_t)s->guard_count; k++) {
        int32_t single;
        const int32_t *node;
        ecs_sched__ref_nodes(b, s->guards[k].subject, &single, &node);
        cond_total++;
        if (node[0] >= S && plan_set_of[node[0] - S] < 0) plan_set_of[node[0] - S] = plan->set_count++;
    }
    plan->node_count = N;
    plan->nodes = (ecs_sched__plan_node *)ecs_sched__arena_alloc(pa, sizeof *plan->nodes * (size_t)N + 1);
    plan->successors = (int32_t *)ecs_sched__arena_alloc(pa, sizeof(int32_t) * ((size_t)g.start[N] + 1));
    plan->sets = (ecs_sched__plan_set *)ecs_sched__arena_alloc(pa, sizeof *plan->sets * ((size_t)plan->set_count + 1));
    plan->set_state = (uint8_t *)ecs_sched__arena_alloc(pa, (size_t)plan->set_count + 1);
    plan->conds = (int32_t *)ecs_sched__arena_alloc(pa, sizeof(int32_t) * ((size_t)cond_total + 1));
    plan->access_words = b->access_words;
    plan->access = (uint64_t *)ecs_sched__arena_alloc(pa, sizeof(uint64_t) * 4 * (size_t)b->access_words * (size_t)N + 1);
    plan->writers = (ecs_sched__plan_node **)ecs_sched__arena_alloc(pa, sizeof(void *) * ((size_t)S + 1));
    plan->ambiguous = (int32_t *)ecs_sched__arena_alloc(pa, sizeof(int32_t) * (2 * (size_t)b->ambiguous_count + 1));
    if (!plan->nodes || !plan->successors || !plan->sets || !plan->set_state || !plan->conds ||
        !plan->access || !plan->writers || !plan->ambiguous) {
        return ecs_sched__oom(b);
    }
    /* conditions: those of plan sets first, grouped per set, then per system */
    {
        int32_t at = 0, set;
        for (set = 0; set < b->set_count; set++) {
            ecs_sched__plan_set *ps;
            if (plan_set_of[set] < 0) continue;
            ps = &plan->sets[plan_set_of[set]];
            ps->name = b->name_of_set[set];
            ps->cond_start = at;
            for (k = 0; k < (int32_t)s->guard_count; k++) {
                int32_t single;
                const int32_t *node;
                ecs_sched__ref_nodes(b, s->guards[k].subject, &single, &node);
                if (node[0] == S + set) plan->conds[at++] = s->guards[k].cond;
            }
            ps->cond_count = at - ps->cond_start;
        }
        for (i = 0; i < N; i++) {
            ecs_sched__plan_node *pn = &plan->nodes[position[i]];
            int32_t p = 0;
            if (i >= S) {
                pn->sync = true;
                pn->exclusive = true;
                continue;
            }
            pn->system = s->systems[i];
            pn->sync = pn->system->is_apply_deferred;
            pn->exclusive = pn->system->ctx.exclusive;
            pn->cond_start = at;
            for (k = 0; k < (int32_t)s->guard_count; k++) {
                if (s->guards[k].subject == i) plan->conds[at++] = s->guards[k].cond;
            }
            pn->cond_count = at - pn->cond_start;
            for (set = 0; set < b->set_count; set++) {
                if (plan_set_of[set] >= 0 && ecs_sched__node_under(b, i, S + set)) p++;
            }
            pn->guard_set_count = p;
            guard_total += p;
            memcpy(plan->access + (size_t)position[i] * 4 * (size_t)b->access_words,
                   b->access + (size_t)i * 4 * (size_t)b->access_words,
                   sizeof(uint64_t) * 4 * (size_t)b->access_words);
        }
    }
    plan->guard_sets = (int32_t *)ecs_sched__arena_alloc(pa, sizeof(int32_t) * ((size_t)guard_total + 1));
    if (!plan->guard_sets) return ecs_sched__oom(b);
    {
        int32_t at = 0, set, *depth_of_plan_set = ECS_SCHED__ALLOC_N(b, int32_t, plan->set_count);
        if (!depth_of_plan_set) return ecs_sched__oom(b);
        for (set = 0; set < b->set_count; set++) {
            if (plan_set_of[set] >= 0) depth_of_plan_set[plan_set_of[set]] = b->depth[set];
        }
        for (i = 0; i < S; i++) {
            ecs_sched__plan_node *pn = &plan->nodes[position[i]];
            pn->guard_set_start = at;
            for (set = 0; set < b->set_count; set++) {
                if (plan_set_of[set] >= 0 && ecs_sched__node_under(b, i, S + set)) {
                    plan->guard_sets[at++] = plan_set_of[set];
                }
            }
            ecs_sched__sort_guard_sets(plan->guard_sets + pn->guard_set_start, pn->guard_set_count,
                                       depth_of_plan_set);
        }
    }
    /* edges, as plan positions */
    {
        int32_t at = 0, p;
        const uint8_t *keep = ecs_sched__reduced_edges(b, &g, order, position, N);
        const uint8_t *drawn = declared.adj == g.adj
                                   ? keep
                                   : ecs_sched__reduced_edges(b, &declared, order, position, N);
        if (!keep || !drawn) return ecs_sched__oom(b);
        for (e = 0; e < declared.start[N]; e++) plan->drawn_count += drawn[e];
        plan->drawn = (int32_t *)ecs_sched__arena_alloc(pa, sizeof(int32_t) * (2 * (size_t)plan->drawn_count + 1));
        if (!plan->drawn) return ecs_sched__oom(b);
        for (p = 0, at = 0; p < N; p++) {
            int32_t v = order[p];
            for (e = declared.start[v]; e < declared.start[v + 1]; e++) {
                if (!drawn[e]) continue;
                plan->drawn[at++] = p;
                plan->drawn[at++] = position[declared.adj[e]];
            }
        }
        for (p = 0, at = 0; p < N; p++) {
            int32_t v = order[p];
            ecs_sched__plan_node *pn = &plan->nodes[p];
            pn->successor_start = at;
            for (e = g.start[v]; e < g.start[v + 1]; e++) {
                int32_t t = position[g.adj[e]];
                if (!keep[e]) continue;
                plan->successors[at++] = t;
                plan->nodes[t].dependency_count++;
            }
            pn->successor_count = at - pn->successor_start;
            if (pn->system && pn->system->ctx.commands) plan->writers[plan->writer_count++] = pn;
        }
    }
    for (i = 0; i < b->ambiguous_count; i++) {
        plan->ambiguous[2 * i] = position[b->ambiguous[2 * i]];
        plan->ambiguous[2 * i + 1] = position[b->ambiguous[2 * i + 1]];
    }
    plan->ambiguous_count = b->ambiguous_count;
    /* the hierarchy, as a tree of first parents, for drawing */
    plan->cluster_count = b->set_count;
    plan->cluster_name = (int32_t *)ecs_sched__arena_alloc(pa, sizeof(int32_t) * ((size_t)b->set_count + 1));
    plan->cluster_parent = (int32_t *)ecs_sched__arena_alloc(pa, sizeof(int32_t) * ((size_t)b->set_count + 1));
    plan->node_cluster = (int32_t *)ecs_sched__arena_alloc(pa, sizeof(int32_t) * ((size_t)N + 1));
    if (!plan->cluster_name || !plan->cluster_parent || !plan->node_cluster) return ecs_sched__oom(b);
    for (i = 0; i < b->set_count; i++) {
        int32_t node = S + i;
        plan->cluster_name[i] = b->name_of_set[i];
        plan->cluster_parent[i] = b->parents.start[node] < b->parents.start[node + 1]
                                      ? b->parents.adj[b->parents.start[node]] - S
                                      : -1;
    }
    for (i = 0; i < N; i++) {
        plan->node_cluster[position[i]] =
            i < S && b->parents.start[i] < b->parents.start[i + 1] ? b->parents.adj[b->parents.start[i]] - S
                                                                    : -1;
    }
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__build_schedule(ecs_sched_world *w, ecs_sched__schedule *s) {
    ecs_sched__build b;
    ecs_sched__plan plan;
    ecs_sched_result result;
    memset(&b, 0, sizeof b);
    memset(&plan, 0, sizeof plan);
    b.w = w;
    b.s = s;
    b.system_count = (int32_t)s->system_count;
    ecs_sched__arena_init(&b.tmp, &w->env);
    ecs_sched__arena_init(&plan.arena, &w->env);
    ecs_sched__text_init(&b.text, &w->env);
    result = ecs_sched__resolve_names(&b);
    if (result == ECS_SCHED_OK) result = ecs_sched__build_hierarchy(&b);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_duplicate_names(&b);
    if (result == ECS_SCHED_OK) result = ecs_sched__collect_dependencies(&b);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_unknown_sets(&b);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_condition_access(&b);
    if (result == ECS_SCHED_OK) result = ecs_sched__flatten(&b);
    if (result == ECS_SCHED_OK) result = ecs_sched__order_systems(&b);
    if (result == ECS_SCHED_OK) result = ecs_sched__compute_access(&b);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_ambiguities(&b);
    if (result == ECS_SCHED_OK) result = ecs_sched__make_plan(&b, &plan);
    ecs_sched__text_free(&b.text);
    ecs_sched__arena_free(&b.tmp);
    ecs_sched__free(&w->env, b.serial);
    if (result != ECS_SCHED_OK) {
        ecs_sched__arena_free(&plan.arena);
        return result;
    }
    ecs_sched__plan_free(&s->plan);
    s->plan = plan;
    s->built = true;
    return ECS_SCHED_OK;
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

static ecs_sched_result ecs_sched__ensure_built(ecs_sched_world *w, ecs_sched__schedule *s) {
    if (s->built) return ECS_SCHED_OK;
    if (s->running) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_RECURSIVE_RUN,
                               "schedule '%s' changed while it runs; it is rebuilt on its next run",
                               s->label);
    }
    return ecs_sched__build_schedule(w, s);
}

ecs_sched_result ecs_sched_schedule_build(ecs_sched_world *w, const char *label) {
    ecs_sched__schedule *s;
    ECS_SCHED__CHECK_WORLD(w);
    s = ecs_sched__schedule_known(w, label);
    if (!s) return w->env.last_result;
    return ecs_sched__ensure_built(w, s);
}

static const char *ecs_sched__plan_node_name(const ecs_sched__plan_node *pn) {
    return pn->system ? pn->system->ctx.name : "apply_deferred";
}

int32_t ecs_sched_schedule_order(ecs_sched_world *w, const char *label, const char **names,
                                 int32_t capacity) {
    ecs_sched__schedule *s;
    int32_t i;
    ECS_SCHED__CHECK_WORLD(w);
    s = ecs_sched__schedule_known(w, label);
    if (!s || ecs_sched__ensure_built(w, s) != ECS_SCHED_OK) return -1;
    for (i = 0; i < s->plan.node_count && i < capacity; i++) {
        names[i] = ecs_sched__plan_node_name(&s->plan.nodes[i]);
    }
    return s->plan.node_count;
}

/* ---- Graphviz export ---- */

typedef struct ecs_sched__dot {
    void (*write)(const char *text, void *user_data);
    void *user_data;
} ecs_sched__dot;

static void ecs_sched__dot_printf(ecs_sched__dot *d, const char *fmt, ...) {
    char text[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    d->write(text, d->user_data);
}

/* A name as a DOT string body: quotes and backslashes escaped. */
static const char *ecs_sched__dot_escape(const char *name, char *out, size_t n) {
    size_t o = 0;
    for (; *name && o + 2 < n; name++) {
        if (*name == '"' || *name == '\\') out[o++] = '\\';
        out[o++] = *name;
    }
    out[o] = '\0';
    return out;
}

static void ecs_sched__dot_conditions(ecs_sched__dot *d, const ecs_sched__schedule *s,
                                      int32_t start, int32_t count) {
    char name[128];
    int32_t i;
    for (i = 0; i < count; i++) {
        ecs_sched__dot_printf(d, "%s%s", i ? ", " : "\\nrun_if: ",
                              ecs_sched__dot_escape(s->conds.items[s->plan.conds[start + i]]->name,
                                                    name, sizeof name));
    }
}

static void ecs_sched__dot_node(ecs_sched__dot *d, const ecs_sched__schedule *s, int32_t p) {
    const ecs_sched__plan_node *pn = &s->plan.nodes[p];
    char name[128];
    if (!pn->system) {
        ecs_sched__dot_printf(d, "    n%d [label=\"apply_deferred\\n(automatic sync point)\", "
                                 "shape=octagon, style=filled, fillcolor=gold];\n", (int)p);
        return;
    }
    ecs_sched__dot_printf(d, "    n%d [label=\"%s", (int)p,
                          ecs_sched__dot_escape(pn->system->ctx.name, name, sizeof name));
    if (pn->exclusive && !pn->sync) ecs_sched__dot_printf(d, "\\n(exclusive)");
    if (pn->system->ctx.commands) ecs_sched__dot_printf(d, "\\n(records commands)");
    ecs_sched__dot_conditions(d, s, pn->cond_start, pn->cond_count);
    ecs_sched__dot_printf(d, "\"%s];\n", pn->sync ? ", shape=octagon, style=filled, fillcolor=gold"
                                                  : "");
}

static void ecs_sched__dot_cluster(ecs_sched__dot *d, const ecs_sched__schedule *s, int32_t c,
                                   int depth) {
    const ecs_sched__plan *plan = &s->plan;
    char name[128];
    int32_t i, k;
    if (depth > 64) return;
    ecs_sched__dot_printf(d, "  subgraph cluster_%d {\n    label=\"%s", (int)c,
                          ecs_sched__dot_escape(s->names[plan->cluster_name[c]].text, name,
                                                sizeof name));
    for (k = 0; k < plan->set_count; k++) {
        if (plan->sets[k].name == plan->cluster_name[c]) {
            ecs_sched__dot_conditions(d, s, plan->sets[k].cond_start, plan->sets[k].cond_count);
        }
    }
    ecs_sched__dot_printf(d, "\";\n    style=rounded;\n");
    for (i = 0; i < plan->cluster_count; i++) {
        if (plan->cluster_parent[i] == c) ecs_sched__dot_cluster(d, s, i, depth + 1);
    }
    for (i = 0; i < plan->node_count; i++) {
        if (plan->node_cluster[i] == c) ecs_sched__dot_node(d, s, i);
    }
    ecs_sched__dot_printf(d, "  }\n");
}

ecs_sched_result ecs_sched_schedule_write_dot(ecs_sched_world *w, const char *label,
                                              void (*write)(const char *text, void *user_data),
                                              void *user_data) {
    ecs_sched__schedule *s;
    const ecs_sched__plan *plan;
    ecs_sched__dot d;
    char name[128];
    int32_t i, e;
    ECS_SCHED__CHECK_WORLD(w);
    if (!write) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "schedule_write_dot: needs a write function");
    }
    s = ecs_sched__schedule_known(w, label);
    if (!s) return w->env.last_result;
    if (ecs_sched__ensure_built(w, s) != ECS_SCHED_OK) return w->env.last_result;
    plan = &s->plan;
    d.write = write;
    d.user_data = user_data;
    ecs_sched__dot_printf(&d, "digraph \"%s\" {\n  compound=true;\n  rankdir=LR;\n"
                              "  node [shape=box, fontname=\"Helvetica\"];\n",
                          ecs_sched__dot_escape(s->label, name, sizeof name));
    for (i = 0; i < plan->cluster_count; i++) {
        if (plan->cluster_parent[i] < 0) ecs_sched__dot_cluster(&d, s, i, 0);
    }
    for (i = 0; i < plan->node_count; i++) {
        if (plan->node_cluster[i] < 0) ecs_sched__dot_node(&d, s, i);
    }
    for (e = 0; e < plan->drawn_count; e++) {
        ecs_sched__dot_printf(&d, "  n%d -> n%d;\n", (int)plan->drawn[2 * e],
                              (int)plan->drawn[2 * e + 1]);
    }
    for (i = 0; i < plan->ambiguous_count; i++) {
        ecs_sched__dot_printf(&d, "  n%d -> n%d [dir=none, style=dashed, color=red, "
                                  "constraint=false, label=\"ambiguous\", fontcolor=red];\n",
                              (int)plan->ambiguous[2 * i], (int)plan->ambiguous[2 * i + 1]);
    }
    ecs_sched__dot_printf(&d, "}\n");
    return ECS_SCHED_OK;
}
