/* A libFuzzer target for the schedule builder, against a reference model. The bytes decode into
   a schedule: systems (plain ones reading and writing components and resources through a query
   that may require or exclude a tag, exclusive ones, ecs_sched_apply_deferred sync points, some
   recording commands, some named like another system or like a set), groups added together
   (chained or not, with shared configuration or not), set configurations, chains of sets, and
   the configuration every node may carry: in_set (sets nest, cycles and redundant memberships
   happen), before/after (plain or ignoring deferred commands), ambiguous_with,
   ambiguous_with_all and run conditions (reading resources or components, or asking to write).
   Systems are also removed by name (ecs_sched_remove_system). The schedule's report levels
   (unknown sets, ambiguities, duplicate names, cross-set dependencies), no_auto_sync, the
   default set and the shuffle seed come from the bytes too. Then the schedule is built.

   The model resolves the configuration naively (boolean matrices, fixed points) by the rules of
   SCHEDULES in the header's documentation: which names are sets, the hierarchy, the orderings
   flattened to systems (through nested sets, and through sets with no system under them, an
   edge keeping its sync point unless every hop of it ignores it). The build must fail exactly
   when the model finds an error, with the code the model expects. When several errors are
   present the library reports them in the order of its passes, which the model follows:
   NAME_CONFLICT, HIERARCHY_CYCLE, HIERARCHY_REDUNDANT, DUPLICATE_NAME (at the error level),
   then ORDER_AGAINST_PARENT and CROSS_SET_DEPENDENCY (at the error level; these two are checked
   relation by relation in an order the public API does not show, so either is accepted when
   both are present), DEPENDENCY_CYCLE among the nodes as configured, UNKNOWN_SET (at the error
   level), CONDITION_WRITES, DEPENDENCY_CYCLE that only the flattened systems show, and last
   AMBIGUITY (at the error level).

   When the build succeeds the plan is read through the public API (ecs_sched_schedule_order,
   one single-threaded run that records which system instance runs where, and the DOT export
   for the ambiguous pairs), and:
     - every system is in the plan once, and every flattened ordering holds in it; without a
       shuffle seed, systems that nothing orders keep the order they were added in;
     - the ambiguous pairs are exactly the conflicting, unordered (transitively), not silenced
       pairs of systems;
     - a sync point (an automatic one, or an ecs_sched_apply_deferred without run conditions on
       it or its sets) lies between a system that leaves commands pending and each system
       directly after it by an ordering that keeps them (or an exclusive one), where a system
       after an ignoring ordering passes the commands on; and there are as many automatic sync
       points as the longest chains need (one per step, an unconditioned apply_deferred serving
       its step), none with no_auto_sync.
   A disagreement prints the schedule and what differed, then aborts.

   make fuzz-schedule-smoke (a short run over tests/fuzz/corpus/schedule, part of make test);
   make fuzz-schedule (a minute). */
/* Built by make against the fuzz targets' shared implementation object, which has every
   optional module (the Makefile's fuzzing section). */
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UPDATE "Update"
#define MAX_SYS 12
#define SET_NAMES 6
#define EXTRA_NAMES 2
#define TABLE_NAMES (MAX_SYS + SET_NAMES + EXTRA_NAMES)   /* names the bytes can pick */
#define MAX_GROUPS 4
#define MAX_NAMES (TABLE_NAMES + MAX_GROUPS)
#define MAX_NODES (MAX_SYS + MAX_NAMES)
#define MAX_RELS 1024
#define MAX_GUARDS 256
#define MAX_OPS 24
#define COMPS 3
#define RESS 2
#define PER_KIND 3   /* names per in_set / before / ... list in one desc */

enum { REL_IN_SET, REL_BEFORE, REL_AMBIGUOUS };
enum { PLAIN, EXCLUSIVE, SYNC };
enum { COND_TRUE, COND_READS_R0, COND_QUERIES_C1, COND_WRITES_R1, COND_READS_R1, COND_KINDS };

/* ---- the schedule as configured: what the model knows ---- */

typedef int ref;   /* a system instance (>= 0), or a name (-name - 1) */

typedef struct relation {
    int kind;
    ref subject, object;
    bool ignore;   /* REL_BEFORE: ignores deferred commands */
} relation;

typedef struct guard {
    ref subject;
    int cond;
} guard;

typedef struct sys_spec {
    int name;
    int kind;
    bool commands;
    unsigned reads, writes;         /* components, a bit each */
    unsigned res_reads, res_writes; /* resources, a bit each */
    int lane;                       /* -1: none; 1: requires the tag; 0: excludes it */
    bool with_all;
    bool explicit_set;              /* its desc or its group's named a set */
    int id;                         /* its user_data: stays when systems before it go */
} sys_spec;

typedef struct name_spec {
    int system_count;
    bool configured, anonymous, with_all;
    int references, set_references, orderings;
} name_spec;

typedef struct model {
    int systems;
    sys_spec sys[MAX_SYS];
    int names;                       /* TABLE_NAMES + groups so far */
    name_spec name[MAX_NAMES];
    char text[MAX_NAMES][16];
    int rel_count;
    relation rel[MAX_RELS];
    int guard_count;
    guard guards[MAX_GUARDS];
    int groups;
    int default_set;                 /* a name, or -1 */
    int next_id;
    ecs_sched_schedule_desc settings;
} model;

/* ---- decoding ---- */

typedef struct reader {
    const uint8_t *data;
    size_t size, at;
} reader;

static unsigned next_byte(reader *r) {
    return r->at < r->size ? r->data[r->at++] : 0u;
}

static bool more(const reader *r) {
    return r->at < r->size;
}

static ecs_sched_world *g_world;
static ecs_sched_id g_comp[COMPS], g_res[RESS], g_tag;
static ecs_sched_condition g_cond[COND_KINDS];
static int g_ran[MAX_SYS * 2], g_ran_count;

static void record(ecs_sched_system_ctx *ctx) {
    int index = (int)(intptr_t)ecs_sched_ctx_user_data(ctx);
    if (g_ran_count < MAX_SYS * 2) g_ran[g_ran_count++] = index;
}

static bool always(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    return true;
}

static void quiet(ecs_sched_log_level level, ecs_sched_result result, const char *message,
                  void *user_data) {
    (void)level;
    (void)result;
    (void)message;
    (void)user_data;
}

static void make_conditions(void) {
    int k;
    memset(g_cond, 0, sizeof g_cond);
    for (k = 0; k < COND_KINDS; k++) {
        g_cond[k].kind = ECS_SCHED_CONDITION_FN;
        g_cond[k].fn = always;
    }
    g_cond[COND_READS_R0].reads[0] = g_res[0];
    g_cond[COND_QUERIES_C1].queries[0].terms[0] = ecs_sched_read(g_comp[1]);
    g_cond[COND_WRITES_R1].writes[0] = g_res[1];
    g_cond[COND_READS_R1].reads[0] = g_res[1];
}

static void count_reference(model *m, ref x, int kind, bool as_object) {
    if (x >= 0) return;
    m->name[-x - 1].references++;
    if (kind != REL_IN_SET) m->name[-x - 1].orderings++;
    if (kind == REL_IN_SET && as_object) m->name[-x - 1].set_references++;
}

static void add_relation(model *m, int kind, ref subject, ref object, bool ignore) {
    relation *r;
    if (m->rel_count >= MAX_RELS) abort();
    r = &m->rel[m->rel_count++];
    r->kind = kind;
    r->subject = subject;
    r->object = object;
    r->ignore = ignore;
    count_reference(m, subject, kind, false);
    count_reference(m, object, kind, true);
}

/* The configuration every node may carry, drawn into the desc's arrays and recorded in the
   model against `self`. */
typedef struct config {
    const char *in_set[ECS_SCHED_MAX_REFS], *before[ECS_SCHED_MAX_REFS], *after[ECS_SCHED_MAX_REFS];
    const char *before_ignore[ECS_SCHED_MAX_REFS], *after_ignore[ECS_SCHED_MAX_REFS];
    const char *ambiguous[ECS_SCHED_MAX_REFS];
    const ecs_sched_condition *run_if[ECS_SCHED_MAX_CONDITIONS];
    bool with_all;
    int in_set_names[ECS_SCHED_MAX_REFS], in_set_count;
} config;

static void put_name(const char **list, const char *name) {
    int k;
    for (k = 0; k < PER_KIND; k++) {
        if (!list[k]) {
            list[k] = name;
            return;
        }
    }
}

static int list_length(const char *const *list) {
    int k = 0;
    while (k < ECS_SCHED_MAX_REFS && list[k]) k++;
    return k;
}

static void draw_config(reader *r, model *m, config *c, bool allow_in_set) {
    unsigned head = next_byte(r), k, entries = head % 6;
    memset(c, 0, sizeof *c);
    c->with_all = (head >> 3) % 8 == 1;
    for (k = 0; k < entries; k++) {
        unsigned what = next_byte(r), pick = next_byte(r) % TABLE_NAMES;
        const char *name = m->text[pick];
        switch (what % 7) {
        case 0:
        case 1:   /* mostly a set's name: a system's makes a name conflict */
            if ((what >> 3) % 32 != 1) pick = MAX_SYS + pick % (SET_NAMES + EXTRA_NAMES);
            name = m->text[pick];
            if (allow_in_set && c->in_set_count < PER_KIND) {
                put_name(c->in_set, name);
                c->in_set_names[c->in_set_count++] = (int)pick;
            }
            break;
        case 2: put_name(c->before, name); break;
        case 3: put_name(c->after, name); break;
        case 4: put_name(c->before_ignore, name); break;
        case 5: put_name(c->after_ignore, name); break;
        default: put_name(c->ambiguous, name); break;
        }
    }
    if ((head >> 6) != 0) {
        unsigned conds = next_byte(r);
        c->run_if[0] = &g_cond[conds % COND_KINDS];
        if ((head >> 6) == 3) c->run_if[1] = &g_cond[(conds / COND_KINDS) % COND_KINDS];
    }
}

static int name_index(const model *m, const char *text) {
    int i;
    for (i = 0; i < m->names; i++) if (strcmp(m->text[i], text) == 0) return i;
    abort();
}

/* What a desc says of `self`, as the library stores it: "x after y" is "y before x". */
static void record_config(model *m, ref self, const config *c, bool with_in_set) {
    int k;
    for (k = 0; with_in_set && k < list_length(c->in_set); k++) {
        add_relation(m, REL_IN_SET, self, -name_index(m, c->in_set[k]) - 1, false);
    }
    for (k = 0; k < list_length(c->before); k++) {
        add_relation(m, REL_BEFORE, self, -name_index(m, c->before[k]) - 1, false);
    }
    for (k = 0; k < list_length(c->after); k++) {
        add_relation(m, REL_BEFORE, -name_index(m, c->after[k]) - 1, self, false);
    }
    for (k = 0; k < list_length(c->before_ignore); k++) {
        add_relation(m, REL_BEFORE, self, -name_index(m, c->before_ignore[k]) - 1, true);
    }
    for (k = 0; k < list_length(c->after_ignore); k++) {
        add_relation(m, REL_BEFORE, -name_index(m, c->after_ignore[k]) - 1, self, true);
    }
    for (k = 0; k < list_length(c->ambiguous); k++) {
        add_relation(m, REL_AMBIGUOUS, self, -name_index(m, c->ambiguous[k]) - 1, false);
    }
    for (k = 0; k < ECS_SCHED_MAX_CONDITIONS && c->run_if[k]; k++) {
        if (m->guard_count >= MAX_GUARDS) abort();
        m->guards[m->guard_count].subject = self;
        m->guards[m->guard_count++].cond = (int)(c->run_if[k] - g_cond);
    }
}

static bool config_empty_but_in_set(const config *c) {
    return !c->with_all && !c->before[0] && !c->after[0] && !c->before_ignore[0] &&
           !c->after_ignore[0] && !c->ambiguous[0] && !c->run_if[0];
}

#define COPY_CONFIG(desc, c)                                                             \
    do {                                                                                 \
        memcpy((desc)->in_set, (c)->in_set, sizeof (c)->in_set);                         \
        memcpy((desc)->before, (c)->before, sizeof (c)->before);                         \
        memcpy((desc)->after, (c)->after, sizeof (c)->after);                            \
        memcpy((desc)->before_ignore_deferred, (c)->before_ignore, sizeof (c)->before_ignore); \
        memcpy((desc)->after_ignore_deferred, (c)->after_ignore, sizeof (c)->after_ignore); \
        memcpy((desc)->ambiguous_with, (c)->ambiguous, sizeof (c)->ambiguous);           \
        memcpy((desc)->run_if, (c)->run_if, sizeof (c)->run_if);                         \
        (desc)->ambiguous_with_all = (c)->with_all;                                      \
    } while (0)

/* s<index>, or when a removal left that name to another system, the first no system has
   (apply_deferred systems are told apart by their names, which no other system takes). */
static int free_system_name(const model *m, int index) {
    int k;
    if (m->name[index].system_count == 0) return index;
    for (k = 0; k < MAX_SYS; k++) if (m->name[k].system_count == 0) return k;
    abort();
}

/* One system desc, drawn; its own configuration recorded in the model. */
static void draw_system(reader *r, model *m, ecs_sched_system_desc *d, config *own) {
    int index = m->systems++, c, t = 0;
    sys_spec *s = &m->sys[index];
    unsigned kind = next_byte(r), access = next_byte(r), res = next_byte(r);
    memset(d, 0, sizeof *d);
    memset(s, 0, sizeof *s);
    s->id = m->next_id++;
    s->kind = kind % 16 == 0 ? EXCLUSIVE : kind % 16 == 1 ? SYNC : PLAIN;
    s->commands = s->kind != SYNC && (kind >> 4) % 3 == 0;
    s->name = free_system_name(m, index);
    if (s->kind != SYNC && (kind >> 6) == 3) {   /* named like another system, or a set */
        unsigned byte = next_byte(r), pick = byte % (MAX_SYS + SET_NAMES);
        if (pick >= MAX_SYS && byte / 32 == 1) s->name = (int)pick;
        else if ((int)pick < index && m->sys[pick].kind != SYNC) s->name = m->sys[pick].name;
    }
    s->lane = -1;
    if (s->kind == PLAIN) {
        for (c = 0; c < COMPS; c++) {
            unsigned bits = (access >> (2 * c)) & 3u;
            if (bits == 1) s->reads |= 1u << c;
            if (bits == 2) s->writes |= 1u << c;
        }
        s->lane = (access >> 6) == 1 ? 1 : (access >> 6) == 2 ? 0 : -1;
        for (c = 0; c < RESS; c++) {
            unsigned bits = (res >> (2 * c)) & 3u;
            if (bits == 1) s->res_reads |= 1u << c;
            if (bits == 2) s->res_writes |= 1u << c;
        }
        for (c = 0; c < COMPS; c++) {
            if (s->writes >> c & 1u) d->queries[0].terms[t++] = ecs_sched_write(g_comp[c]);
            else if (s->reads >> c & 1u) d->queries[0].terms[t++] = ecs_sched_read(g_comp[c]);
        }
        if (s->lane == 1) d->queries[0].terms[t++] = ecs_sched_read(g_tag);
        if (s->lane == 0) {
            if (t == 0) s->lane = -1;   /* a query of only a without term: left out */
            else d->queries[0].terms[t++] = ecs_sched_without(g_tag);
        }
        for (c = 0, t = 0; c < RESS; c++) {
            if (s->res_writes >> c & 1u) d->writes[t++] = g_res[c];
        }
        for (c = 0, t = 0; c < RESS; c++) {
            if (s->res_reads >> c & 1u) d->reads[t++] = g_res[c];
        }
    }
    m->name[s->name].system_count++;
    d->name = m->text[s->name];
    d->fn = s->kind == SYNC ? ecs_sched_apply_deferred : record;
    d->user_data = (void *)(intptr_t)s->id;
    d->exclusive = s->kind == EXCLUSIVE;
    d->commands = s->commands;
    draw_config(r, m, own, true);
    COPY_CONFIG(d, own);
    s->with_all = own->with_all;
}

static bool add_one_system(reader *r, model *m) {
    ecs_sched_system_desc d;
    config own;
    int index = m->systems;
    draw_system(r, m, &d, &own);
    if (ecs_sched_add_system(g_world, UPDATE, &d) != ECS_SCHED_OK) return false;
    m->sys[index].explicit_set = own.in_set_count > 0;
    record_config(m, index, &own, true);
    return true;
}

static bool add_group(reader *r, model *m) {
    ecs_sched_system_desc d[3];
    config own[3], shared;
    ecs_sched_systems_desc group;
    unsigned head = next_byte(r);
    int count = 2 + (int)(head % 2), first = m->systems, i, k;
    if (m->systems + count > MAX_SYS) return true;
    for (i = 0; i < count; i++) draw_system(r, m, &d[i], &own[i]);
    draw_config(r, m, &shared, true);
    memset(&group, 0, sizeof group);
    group.systems = d;
    group.count = count;
    group.chain = (head >> 1) % 3 == 1;
    group.chain_ignore_deferred = (head >> 1) % 3 == 2;
    COPY_CONFIG(&group, &shared);
    if (!config_empty_but_in_set(&shared) && m->groups >= MAX_GROUPS) {
        for (i = 0; i < count; i++) m->name[m->sys[first + i].name].system_count--;
        m->systems = first;
        return true;
    }
    if (ecs_sched_add_systems(g_world, UPDATE, &group) != ECS_SCHED_OK) return false;
    for (i = 0; i < count; i++) {
        m->sys[first + i].explicit_set = own[i].in_set_count > 0 || shared.in_set_count > 0;
        record_config(m, first + i, &own[i], true);
        for (k = 0; k < shared.in_set_count; k++) {
            add_relation(m, REL_IN_SET, first + i, -shared.in_set_names[k] - 1, false);
        }
    }
    for (i = 1; i < count && (group.chain || group.chain_ignore_deferred); i++) {
        add_relation(m, REL_BEFORE, first + i - 1, first + i, group.chain_ignore_deferred);
    }
    if (!config_empty_but_in_set(&shared)) {
        int g = m->names++;
        snprintf(m->text[g], sizeof m->text[g], "(group %d)", ++m->groups);
        m->name[g].configured = m->name[g].anonymous = true;
        m->name[g].with_all = shared.with_all;
        for (i = 0; i < count; i++) add_relation(m, REL_IN_SET, first + i, -g - 1, false);
        record_config(m, -g - 1, &shared, true);
    }
    return true;
}

static bool configure_set(reader *r, model *m) {
    ecs_sched_set_desc d;
    config c;
    int name = (int)(next_byte(r) % TABLE_NAMES);
    if (name < MAX_SYS && next_byte(r) % 16 != 1) name = MAX_SYS + name % SET_NAMES;
    draw_config(r, m, &c, true);
    memset(&d, 0, sizeof d);
    d.name = m->text[name];
    COPY_CONFIG(&d, &c);
    if (ecs_sched_configure_set(g_world, UPDATE, &d) != ECS_SCHED_OK) return false;
    m->name[name].configured = true;
    m->name[name].with_all = m->name[name].with_all || c.with_all;
    record_config(m, -name - 1, &c, true);
    return true;
}

static bool chain_sets(reader *r, model *m) {
    const char *names[4];
    int picked[4], count = 2 + (int)(next_byte(r) % 3), k;
    bool ignore = next_byte(r) % 3 == 0;
    for (k = 0; k < count; k++) {
        unsigned pick = next_byte(r);
        picked[k] = pick % 16 == 1 ? (int)(pick / 4 % TABLE_NAMES) : MAX_SYS + (int)(pick / 4 % SET_NAMES);
        names[k] = m->text[picked[k]];
    }
    if (ecs_sched_chain_sets(g_world, UPDATE, count, names, ignore) != ECS_SCHED_OK) return false;
    for (k = 0; k + 1 < count; k++) add_relation(m, REL_BEFORE, -picked[k] - 1, -picked[k + 1] - 1, ignore);
    for (k = 0; k < count; k++) m->name[picked[k]].configured = true;   /* names of sets */
    return true;
}

static void describe(const model *m);

#define FAIL(m, ...)                         \
    do {                                     \
        describe(m);                         \
        fprintf(stderr, __VA_ARGS__);        \
        fprintf(stderr, "\nlast error: %s\n", ecs_sched_last_error(g_world)); \
        abort();                             \
    } while (0)

static void uncount_reference(model *m, ref x, int kind, bool as_object) {
    if (x >= 0) return;
    m->name[-x - 1].references--;
    if (kind != REL_IN_SET) m->name[-x - 1].orderings--;
    if (kind == REL_IN_SET && as_object) m->name[-x - 1].set_references--;
}

/* ecs_sched_remove_system: every system of the name goes, with the relations and guards that
   name it by instance; what names it by name stays. */
static bool remove_systems(reader *r, model *m) {
    int name = (int)(next_byte(r) % MAX_SYS), new_index[MAX_SYS], kept = 0, i, e;
    ecs_sched_result expected, got = ecs_sched_remove_system(g_world, UPDATE, m->text[name]);
    expected = m->name[name].system_count > 0 ? ECS_SCHED_OK : ECS_SCHED_ERR_NOT_FOUND;
    if (got != expected) {
        FAIL(m, "removing '%s' returned %s, the model expects %s", m->text[name],
             ecs_sched_result_string(got), ecs_sched_result_string(expected));
    }
    for (i = 0; i < m->systems; i++) new_index[i] = m->sys[i].name == name ? -1 : kept++;
    for (e = 0, kept = 0; e < m->rel_count; e++) {
        relation x = m->rel[e];
        if ((x.subject >= 0 && new_index[x.subject] < 0) || (x.object >= 0 && new_index[x.object] < 0)) {
            uncount_reference(m, x.subject, x.kind, false);
            uncount_reference(m, x.object, x.kind, true);
            continue;
        }
        if (x.subject >= 0) x.subject = new_index[x.subject];
        if (x.object >= 0) x.object = new_index[x.object];
        m->rel[kept++] = x;
    }
    m->rel_count = kept;
    for (e = 0, kept = 0; e < m->guard_count; e++) {
        guard g = m->guards[e];
        if (g.subject >= 0 && (g.subject = new_index[g.subject]) < 0) continue;
        m->guards[kept++] = g;
    }
    m->guard_count = kept;
    for (i = 0, kept = 0; i < m->systems; i++) {
        if (new_index[i] >= 0) m->sys[kept++] = m->sys[i];
    }
    m->systems = kept;
    m->name[name].system_count = 0;
    return true;
}

static const ecs_sched_report g_levels[4] = {ECS_SCHED_REPORT_DEFAULT, ECS_SCHED_REPORT_IGNORE,
                                             ECS_SCHED_REPORT_WARN, ECS_SCHED_REPORT_ERROR};

static void draw_settings(reader *r, model *m) {
    unsigned levels = next_byte(r), flags = next_byte(r);
    ecs_sched_schedule_desc *sd = &m->settings;
    memset(sd, 0, sizeof *sd);
    sd->unknown_sets = g_levels[levels & 3u];
    sd->ambiguities = g_levels[(levels >> 2) & 3u];
    sd->duplicate_names = g_levels[(levels >> 4) & 3u];
    sd->cross_set_dependencies = g_levels[1 + (levels >> 6) % 3];
    sd->no_auto_sync = flags % 8 == 7;
    sd->shuffle_seed = (flags >> 3) * 0x9E3779B97F4A7C15ull;
    m->default_set = -1;
    if (((flags >> 3) & 3u) == 1) {   /* a set's name, now and then a system's */
        m->default_set = (flags >> 5) == 7 ? 0 : MAX_SYS + (int)(flags >> 5) % SET_NAMES;
        sd->default_set = m->text[m->default_set];
    }
    sd->executor = ECS_SCHED_EXECUTOR_SINGLE_THREADED;
}

/* ---- the reference ---- */

typedef struct solved {
    int N;                           /* systems, then the sets */
    int set_name[MAX_NODES];         /* node -> its name (sets) */
    int set_of_name[MAX_NAMES];      /* name -> node, or -1 */
    bool parent[MAX_NODES][MAX_NODES];      /* x is directly in set y */
    bool ancestor[MAX_NODES][MAX_NODES];    /* x is in set y at any depth */
    bool dep[MAX_NODES][MAX_NODES];         /* node orderings as configured */
    bool flat[MAX_SYS][MAX_SYS];            /* system orderings, flattened */
    bool plain[MAX_SYS][MAX_SYS];           /* ... by an ordering that keeps commands */
    bool reach[MAX_SYS][MAX_SYS];           /* transitive closure of flat */
    bool empty[MAX_NODES];                  /* a set with no system under it */
    bool node_cycle, flat_cycle;
} solved;

/* Configured, something is in it, or it is the default set. */
static bool declared_set(const model *m, int name) {
    const name_spec *n = &m->name[name];
    return n->configured || n->set_references > 0 || name == m->default_set;
}

static bool is_set_name(const model *m, int name) {
    const name_spec *n = &m->name[name];
    bool declared = declared_set(m, name);
    return declared || (n->references > 0 && n->system_count == 0);
}

/* The nodes a reference stands for: one system, one set, or every system of a name. */
static int ref_nodes(const model *m, const solved *v, ref x, int *nodes) {
    int i, n = 0;
    if (x >= 0) {
        nodes[0] = x;
        return 1;
    }
    if (v->set_of_name[-x - 1] >= 0) {
        nodes[0] = v->set_of_name[-x - 1];
        return 1;
    }
    for (i = 0; i < m->systems; i++) if (m->sys[i].name == -x - 1) nodes[n++] = i;
    return n;
}

static bool under(const solved *v, int node, int set) {
    return set >= 0 && v->ancestor[node][set];
}

static bool is_or_under(const solved *v, int system, int node) {
    return system == node || under(v, system, node);
}

static bool at_top(const solved *v, int node) {
    int k;
    for (k = 0; k < v->N; k++) if (v->parent[node][k]) return false;
    return true;
}

static bool siblings(const solved *v, int x, int y) {
    int k;
    if (at_top(v, x) && at_top(v, y)) return true;
    for (k = 0; k < v->N; k++) if (v->parent[x][k] && v->parent[y][k]) return true;
    return false;
}

static bool empty_set(const model *m, const solved *v, int node) {
    (void)m;
    return v->empty[node];
}

/* Whether a graph of n nodes has a cycle (a node on a path back to itself). */
static bool graph_cycle(int n, bool g[MAX_NODES][MAX_NODES]) {
    static bool r[MAX_NODES][MAX_NODES];
    int i, j, k;
    for (i = 0; i < n; i++) for (j = 0; j < n; j++) r[i][j] = g[i][j];
    for (k = 0; k < n; k++) {
        for (i = 0; i < n; i++) {
            if (!r[i][k]) continue;
            for (j = 0; j < n; j++) if (r[k][j]) r[i][j] = true;
        }
    }
    for (i = 0; i < n; i++) if (r[i][i]) return true;
    return false;
}

static void resolve_nodes(const model *m, solved *v) {
    int i, n = m->systems;
    for (i = 0; i < m->names; i++) {
        v->set_of_name[i] = -1;
        if (is_set_name(m, i)) {
            v->set_name[n] = i;
            v->set_of_name[i] = n++;
        }
    }
    v->N = n;
}

static void resolve_hierarchy(const model *m, solved *v) {
    int e, i, j, k, a[MAX_SYS], b[MAX_SYS];
    for (e = 0; e < m->rel_count; e++) {
        const relation *r = &m->rel[e];
        if (r->kind != REL_IN_SET) continue;
        if (ref_nodes(m, v, r->subject, a) > 0 && ref_nodes(m, v, r->object, b) > 0) {
            v->parent[a[0]][b[0]] = true;
        }
    }
    for (i = 0; i < m->systems && m->default_set >= 0; i++) {
        if (!m->sys[i].explicit_set) v->parent[i][v->set_of_name[m->default_set]] = true;
    }
    for (i = 0; i < v->N; i++) for (j = 0; j < v->N; j++) v->ancestor[i][j] = v->parent[i][j];
    for (k = 0; k < v->N; k++) {
        for (i = 0; i < v->N; i++) {
            if (!v->ancestor[i][k]) continue;
            for (j = 0; j < v->N; j++) if (v->ancestor[k][j]) v->ancestor[i][j] = true;
        }
    }
    for (k = m->systems; k < v->N; k++) {
        v->empty[k] = true;
        for (i = 0; i < m->systems; i++) if (v->ancestor[i][k]) v->empty[k] = false;
    }
}

static bool hierarchy_redundant(const model *m, const solved *v) {
    int i, outer, inner;
    for (i = 0; i < v->N; i++) {
        for (outer = 0; outer < v->N; outer++) {
            for (inner = 0; inner < v->N; inner++) {
                if (outer == inner || !v->parent[i][outer] || !v->parent[i][inner]) continue;
                if (m->name[v->set_name[inner]].anonymous) continue;
                if (v->ancestor[inner][outer]) return true;
            }
        }
    }
    return false;
}

static bool shared_name_ref(const model *m, const solved *v, ref x) {
    return x < 0 && v->set_of_name[-x - 1] < 0 && m->name[-x - 1].system_count > 1;
}

static bool duplicate_names(const model *m, const solved *v) {
    int e;
    for (e = 0; e < m->rel_count; e++) {
        const relation *r = &m->rel[e];
        if (r->kind == REL_BEFORE && (shared_name_ref(m, v, r->subject) || shared_name_ref(m, v, r->object))) return true;
        if (r->kind == REL_AMBIGUOUS && shared_name_ref(m, v, r->object)) return true;
    }
    return false;
}

/* Orderings against a containing set, and between nodes that are not siblings. */
static void check_orderings(const model *m, const solved *v, bool *against_parent, bool *cross_set) {
    int e, i, j, a[MAX_SYS], b[MAX_SYS], na, nb;
    *against_parent = *cross_set = false;
    for (e = 0; e < m->rel_count; e++) {
        const relation *r = &m->rel[e];
        if (r->kind != REL_BEFORE) continue;
        na = ref_nodes(m, v, r->subject, a);
        nb = ref_nodes(m, v, r->object, b);
        for (i = 0; i < na; i++) {
            for (j = 0; j < nb; j++) {
                if (at_top(v, a[i]) && at_top(v, b[j])) continue;
                if (under(v, a[i], b[j]) || under(v, b[j], a[i])) *against_parent = true;
                else if (!siblings(v, a[i], b[j])) *cross_set = true;
            }
        }
    }
}

/* Node orderings as configured, then flattened to systems: each system under the first node
   before each under the second; through sets with no system, from the systems before to the
   systems after, keeping commands when some hop does. */
static void resolve_orderings(const model *m, solved *v) {
    static bool kind_plain[MAX_NODES][MAX_NODES];
    static bool path[MAX_NODES][MAX_NODES][2];   /* from a non-empty node through empty sets */
    int S = m->systems, e, i, j, x, y, a[MAX_SYS], b[MAX_SYS], na, nb, changed;
    memset(kind_plain, 0, sizeof kind_plain);
    memset(path, 0, sizeof path);
    for (e = 0; e < m->rel_count; e++) {
        const relation *r = &m->rel[e];
        if (r->kind != REL_BEFORE) continue;
        na = ref_nodes(m, v, r->subject, a);
        nb = ref_nodes(m, v, r->object, b);
        for (i = 0; i < na; i++) {
            for (j = 0; j < nb; j++) {
                v->dep[a[i]][b[j]] = true;
                if (!r->ignore) kind_plain[a[i]][b[j]] = true;
            }
        }
    }
    v->node_cycle = graph_cycle(v->N, v->dep);
    /* path[x][y][k]: non-empty x reaches y by hops whose every middle node is an empty set;
       k: some hop keeps commands */
    for (x = 0; x < v->N; x++) {
        if (empty_set(m, v, x)) continue;
        for (y = 0; y < v->N; y++) {
            if (v->dep[x][y]) path[x][y][kind_plain[x][y]] = true;
        }
    }
    do {
        changed = 0;
        for (x = 0; x < v->N; x++) {
            for (y = 0; y < v->N; y++) {
                int k;
                if (!empty_set(m, v, y)) continue;
                for (k = 0; k < 2; k++) {
                    int z;
                    if (!path[x][y][k]) continue;
                    for (z = 0; z < v->N; z++) {
                        int keeps;
                        if (!v->dep[y][z]) continue;
                        keeps = k || kind_plain[y][z];
                        if (!path[x][z][keeps]) {
                            path[x][z][keeps] = true;
                            changed = 1;
                        }
                    }
                }
            }
        }
    } while (changed && !v->node_cycle);
    for (x = 0; x < v->N; x++) {
        for (y = 0; y < v->N; y++) {
            int s, t;
            if (!path[x][y][0] && !path[x][y][1]) continue;
            if (empty_set(m, v, y)) continue;
            for (s = 0; s < S; s++) {
                if (!is_or_under(v, s, x)) continue;
                for (t = 0; t < S; t++) {
                    if (!is_or_under(v, t, y)) continue;
                    v->flat[s][t] = true;
                    if (path[x][y][1]) v->plain[s][t] = true;
                }
            }
        }
    }
    {
        static bool g[MAX_NODES][MAX_NODES];
        memset(g, 0, sizeof g);
        for (x = 0; x < S; x++) for (y = 0; y < S; y++) g[x][y] = v->flat[x][y];
        v->flat_cycle = graph_cycle(S, g);
    }
    for (x = 0; x < S; x++) for (y = 0; y < S; y++) v->reach[x][y] = v->flat[x][y];
    for (e = 0; e < S; e++) {
        for (x = 0; x < S; x++) {
            if (!v->reach[x][e]) continue;
            for (y = 0; y < S; y++) if (v->reach[e][y]) v->reach[x][y] = true;
        }
    }
}

static bool unknown_set(const model *m, const solved *v) {
    int n, i;
    for (n = m->systems; n < v->N; n++) {
        bool members = false;
        /* the default set is declared by the schedule's configuration: never a typo */
        if (m->name[v->set_name[n]].configured || v->set_name[n] == m->default_set) continue;
        for (i = 0; i < v->N; i++) members = members || v->parent[i][n];
        if (!members) return true;
    }
    return false;
}

static bool guards_node(const model *m, const solved *v, const guard *g, int node) {
    int nodes[MAX_SYS], n = ref_nodes(m, v, g->subject, nodes), k;
    for (k = 0; k < n; k++) if (is_or_under(v, node, nodes[k])) return true;
    return false;
}

/* ---- ambiguities ---- */

typedef struct use {
    unsigned reads, writes;   /* components */
    int lane;
} use;

static int uses_of(const model *m, const solved *v, int x, use *u, unsigned *res_reads,
                   unsigned *res_writes) {
    const sys_spec *s = &m->sys[x];
    int n = 0, g;
    *res_reads = s->res_reads;
    *res_writes = s->res_writes;
    if (s->reads | s->writes | (s->lane == 1)) {
        u[n].reads = s->reads;
        u[n].writes = s->writes;
        u[n++].lane = s->lane;
    }
    for (g = 0; g < m->guard_count; g++) {
        int c = m->guards[g].cond;
        if (!guards_node(m, v, &m->guards[g], x)) continue;
        if (c == COND_READS_R0) *res_reads |= 1u;
        if (c == COND_READS_R1) *res_reads |= 2u;
        if (c == COND_QUERIES_C1) {
            u[n].reads = 2u;
            u[n].writes = 0;
            u[n++].lane = -1;
        }
    }
    return n;
}

static bool conflict(const model *m, const solved *v, int x, int y) {
    use ux[1 + MAX_GUARDS], uy[1 + MAX_GUARDS];
    unsigned rrx, rwx, rry, rwy;
    int nx, ny, i, j;
    if (m->sys[x].kind == EXCLUSIVE || m->sys[y].kind == EXCLUSIVE) return true;
    nx = uses_of(m, v, x, ux, &rrx, &rwx);
    ny = uses_of(m, v, y, uy, &rry, &rwy);
    if ((rwx & (rry | rwy)) || (rwy & rrx)) return true;
    for (i = 0; i < nx; i++) {
        for (j = 0; j < ny; j++) {
            bool disjoint = ux[i].lane >= 0 && uy[j].lane >= 0 && ux[i].lane != uy[j].lane;
            if (disjoint) continue;
            if ((ux[i].writes & (uy[j].reads | uy[j].writes)) || (uy[j].writes & ux[i].reads)) return true;
        }
    }
    return false;
}

static bool with_all(const model *m, const solved *v, int x) {
    int n;
    if (m->sys[x].with_all || m->sys[x].kind == SYNC) return true;
    for (n = m->systems; n < v->N; n++) {
        if (v->ancestor[x][n] && m->name[v->set_name[n]].with_all) return true;
    }
    return false;
}

static bool silenced(const model *m, const solved *v, int x, int y) {
    int e, i, j, a[MAX_SYS], b[MAX_SYS], na, nb;
    if (with_all(m, v, x) || with_all(m, v, y)) return true;
    for (e = 0; e < m->rel_count; e++) {
        const relation *r = &m->rel[e];
        if (r->kind != REL_AMBIGUOUS) continue;
        na = ref_nodes(m, v, r->subject, a);
        nb = ref_nodes(m, v, r->object, b);
        for (i = 0; i < na; i++) {
            for (j = 0; j < nb; j++) {
                if ((is_or_under(v, x, a[i]) && is_or_under(v, y, b[j])) ||
                    (is_or_under(v, y, a[i]) && is_or_under(v, x, b[j]))) {
                    return true;
                }
            }
        }
    }
    return false;
}

static bool ambiguous(const model *m, const solved *v, int x, int y) {
    return x != y && !v->reach[x][y] && !v->reach[y][x] && conflict(m, v, x, y) && !silenced(m, v, x, y);
}

/* ---- sync points ---- */

static bool explicit_sync(const model *m, const solved *v, int x) {
    int g;
    if (m->sys[x].kind != SYNC) return false;
    for (g = 0; g < m->guard_count; g++) if (guards_node(m, v, &m->guards[g], x)) return false;
    return true;
}

typedef struct syncs {
    bool carries[MAX_SYS];
    bool needs[MAX_SYS][MAX_SYS];
    int distance[MAX_SYS];
    int automatic;
} syncs;

static void resolve_syncs(const model *m, const solved *v, syncs *y) {
    int S = m->systems, a, b, round, d;
    bool used[MAX_SYS + 1], served[MAX_SYS + 1];
    memset(y, 0, sizeof *y);
    for (a = 0; a < S; a++) y->carries[a] = !m->settings.no_auto_sync && m->sys[a].commands;
    for (round = 0; round < S; round++) {   /* passed on through orderings that ignore them */
        for (a = 0; a < S; a++) {
            for (b = 0; b < S; b++) {
                if (y->carries[a] && v->flat[a][b] && !v->plain[a][b] && m->sys[b].kind == PLAIN) {
                    y->carries[b] = true;
                }
            }
        }
    }
    for (a = 0; a < S; a++) if (explicit_sync(m, v, a)) y->carries[a] = false;
    for (a = 0; a < S; a++) {
        for (b = 0; b < S; b++) {
            y->needs[a][b] = v->flat[a][b] && y->carries[a] && m->sys[b].kind != SYNC &&
                             (v->plain[a][b] || m->sys[b].kind == EXCLUSIVE);
        }
    }
    for (round = 0; round < S; round++) {
        for (a = 0; a < S; a++) {
            for (b = 0; b < S; b++) {
                if (!v->flat[a][b]) continue;
                d = y->distance[a] + (y->needs[a][b] || explicit_sync(m, v, b));
                if (d > y->distance[b]) y->distance[b] = d;
            }
        }
    }
    memset(used, 0, sizeof used);
    memset(served, 0, sizeof served);
    for (a = 0; a < S; a++) {
        if (explicit_sync(m, v, a)) served[y->distance[a]] = true;
        for (b = 0; b < S; b++) if (y->needs[a][b]) used[y->distance[b]] = true;
    }
    for (d = 0; d <= MAX_SYS; d++) y->automatic += used[d] && !served[d];
}

/* ---- reporting a disagreement ---- */

static void describe(const model *m) {
    int i, e;
    static const char *const kinds[] = {"plain", "exclusive", "apply_deferred"};
    static const char *const levels[] = {"default", "ignore", "warn", "error"};
    fprintf(stderr, "schedule: unknown_sets %s, ambiguities %s, duplicate_names %s, cross_set %s%s\n",
            levels[m->settings.unknown_sets], levels[m->settings.ambiguities],
            levels[m->settings.duplicate_names], levels[m->settings.cross_set_dependencies],
            m->settings.no_auto_sync ? ", no_auto_sync" : "");
    if (m->default_set >= 0) fprintf(stderr, "  default set '%s'\n", m->text[m->default_set]);
    for (i = 0; i < m->systems; i++) {
        const sys_spec *s = &m->sys[i];
        fprintf(stderr, "  #%d '%s' %s%s%s reads %x writes %x res r%x w%x lane %d%s\n", i,
                m->text[s->name], kinds[s->kind], s->commands ? " commands" : "",
                s->explicit_set ? " (explicit set)" : "", s->reads,
                s->writes, s->res_reads, s->res_writes, s->lane, s->with_all ? " ambiguous_with_all" : "");
    }
    for (i = 0; i < m->names; i++) {
        const name_spec *n = &m->name[i];
        if (n->configured || n->references) {
            fprintf(stderr, "  name '%s': %d systems%s%s%s\n", m->text[i], n->system_count,
                    n->configured ? " configured" : "", n->anonymous ? " anonymous" : "",
                    n->with_all ? " ambiguous_with_all" : "");
        }
    }
    for (e = 0; e < m->rel_count; e++) {
        const relation *r = &m->rel[e];
        char a[24], b[24];
        if (r->subject >= 0) snprintf(a, sizeof a, "#%d", r->subject);
        else snprintf(a, sizeof a, "'%s'", m->text[-r->subject - 1]);
        if (r->object >= 0) snprintf(b, sizeof b, "#%d", r->object);
        else snprintf(b, sizeof b, "'%s'", m->text[-r->object - 1]);
        fprintf(stderr, "  %s %s %s%s\n", a,
                r->kind == REL_IN_SET ? "in_set" : r->kind == REL_BEFORE ? "before" : "ambiguous_with", b,
                r->ignore ? " (ignore deferred)" : "");
    }
    for (e = 0; e < m->guard_count; e++) {
        const guard *g = &m->guards[e];
        if (g->subject >= 0) fprintf(stderr, "  #%d run_if cond %d\n", g->subject, g->cond);
        else fprintf(stderr, "  '%s' run_if cond %d\n", m->text[-g->subject - 1], g->cond);
    }
}


/* ---- the expected result ---- */

static bool level_errs(ecs_sched_report level, bool error_by_default) {
    return level == ECS_SCHED_REPORT_ERROR || (level == ECS_SCHED_REPORT_DEFAULT && error_by_default);
}

/* The codes the build may return (usually one); OK when the model finds nothing wrong. */
static int expected_codes(const model *m, solved *v, ecs_sched_result *codes) {
    int i, n, S = m->systems;
    bool against_parent, cross_set;
    for (i = 0; i < m->names; i++) {
        if (declared_set(m, i) && m->name[i].system_count > 0) {
            codes[0] = ECS_SCHED_ERR_NAME_CONFLICT;
            return 1;
        }
    }
    resolve_nodes(m, v);
    resolve_hierarchy(m, v);
    for (i = m->systems; i < v->N; i++) {
        if (v->ancestor[i][i]) {
            codes[0] = ECS_SCHED_ERR_HIERARCHY_CYCLE;
            return 1;
        }
    }
    if (hierarchy_redundant(m, v)) {
        codes[0] = ECS_SCHED_ERR_HIERARCHY_REDUNDANT;
        return 1;
    }
    if (level_errs(m->settings.duplicate_names, true) && duplicate_names(m, v)) {
        codes[0] = ECS_SCHED_ERR_DUPLICATE_NAME;
        return 1;
    }
    check_orderings(m, v, &against_parent, &cross_set);
    n = 0;
    if (against_parent) codes[n++] = ECS_SCHED_ERR_ORDER_AGAINST_PARENT;
    if (cross_set && level_errs(m->settings.cross_set_dependencies, false)) {
        codes[n++] = ECS_SCHED_ERR_CROSS_SET_DEPENDENCY;
    }
    if (n) return n;
    resolve_orderings(m, v);
    if (v->node_cycle) {
        codes[0] = ECS_SCHED_ERR_DEPENDENCY_CYCLE;
        return 1;
    }
    if (level_errs(m->settings.unknown_sets, true) && unknown_set(m, v)) {
        codes[0] = ECS_SCHED_ERR_UNKNOWN_SET;
        return 1;
    }
    for (i = 0; i < m->guard_count; i++) {
        int nodes[MAX_SYS];
        if (m->guards[i].cond == COND_WRITES_R1 && ref_nodes(m, v, m->guards[i].subject, nodes) > 0) {
            codes[0] = ECS_SCHED_ERR_CONDITION_WRITES;
            return 1;
        }
    }
    if (v->flat_cycle) {
        codes[0] = ECS_SCHED_ERR_DEPENDENCY_CYCLE;
        return 1;
    }
    if (level_errs(m->settings.ambiguities, false)) {
        int x, y;
        for (x = 0; x < S; x++) {
            for (y = x + 1; y < S; y++) {
                if (ambiguous(m, v, x, y)) {
                    codes[0] = ECS_SCHED_ERR_AMBIGUITY;
                    return 1;
                }
            }
        }
    }
    codes[0] = ECS_SCHED_OK;
    return 1;
}

/* ---- reading the plan ---- */

typedef struct text_buffer {
    char *text;
    size_t length, capacity;
} text_buffer;

static void collect(const char *text, void *user_data) {
    text_buffer *t = (text_buffer *)user_data;
    size_t n = strlen(text);
    if (t->length + n + 1 > t->capacity) {
        t->capacity = (t->length + n + 1) * 2;
        t->text = (char *)realloc(t->text, t->capacity);
        if (!t->text) abort();
    }
    memcpy(t->text + t->length, text, n + 1);
    t->length += n;
}

/* The plan, each entry a system (its model index) or -1 for an automatic sync point. */
static int read_plan(const model *m, int *plan) {
    const char *names[MAX_SYS * 3];
    int32_t n = ecs_sched_schedule_order(g_world, UPDATE, names, MAX_SYS * 3);
    int k, i, next = 0;
    ecs_sched_result run;
    if (n < m->systems || n > MAX_SYS * 3) FAIL(m, "the plan has %d entries for %d systems", (int)n, m->systems);
    g_ran_count = 0;
    run = ecs_sched_run_schedule(g_world, UPDATE);
    if (run != ECS_SCHED_OK) FAIL(m, "running the built schedule returned %s", ecs_sched_result_string(run));
    for (k = 0; k < n; k++) {
        plan[k] = -2;
        if (strcmp(names[k], "apply_deferred") == 0) {
            plan[k] = -1;
            continue;
        }
        for (i = 0; i < m->systems; i++) {
            if (m->sys[i].kind == SYNC && strcmp(names[k], m->text[m->sys[i].name]) == 0) plan[k] = i;
        }
        if (plan[k] >= 0) continue;
        if (next >= g_ran_count) FAIL(m, "plan entry %d ('%s') did not run", k, names[k]);
        for (i = 0, plan[k] = -2; i < m->systems; i++) if (m->sys[i].id == g_ran[next]) plan[k] = i;
        next++;
        if (plan[k] < 0) FAIL(m, "plan entry %d ('%s') ran a system the model does not have", k, names[k]);
        if (strcmp(names[k], m->text[m->sys[plan[k]].name]) != 0) {
            FAIL(m, "plan entry %d is '%s' but system #%d ran there", k, names[k], plan[k]);
        }
    }
    if (next != g_ran_count) FAIL(m, "%d systems ran, the plan has %d", g_ran_count, next);
    return (int)n;
}

static bool isolated(const model *m, const solved *v, int x) {
    int k;
    for (k = 0; k < m->systems; k++) if (v->flat[x][k] || v->flat[k][x]) return false;
    return true;
}

static void check_plan(const model *m, const solved *v) {
    int plan[MAX_SYS * 3], position[MAX_SYS], n = read_plan(m, plan), k, a, b, autos = 0;
    syncs y;
    for (a = 0; a < m->systems; a++) position[a] = -1;
    for (k = 0; k < n; k++) {
        if (plan[k] == -1) {
            autos++;
            continue;
        }
        if (position[plan[k]] >= 0) FAIL(m, "system #%d is in the plan twice", plan[k]);
        position[plan[k]] = k;
    }
    for (a = 0; a < m->systems; a++) if (position[a] < 0) FAIL(m, "system #%d is not in the plan", a);
    for (a = 0; a < m->systems; a++) {
        for (b = 0; b < m->systems; b++) {
            if (v->flat[a][b] && position[a] >= position[b]) {
                FAIL(m, "#%d must run before #%d: plan positions %d and %d", a, b, position[a], position[b]);
            }
        }
    }
    for (a = 0; a < m->systems && m->settings.shuffle_seed == 0; a++) {
        for (b = a + 1; b < m->systems; b++) {   /* nothing orders them: the order added */
            if (isolated(m, v, a) && isolated(m, v, b) && position[a] > position[b]) {
                FAIL(m, "#%d and #%d, which nothing orders, run in the other order than added", a, b);
            }
        }
    }
    resolve_syncs(m, v, &y);
    for (a = 0; a < m->systems; a++) {
        for (b = 0; b < m->systems; b++) {
            bool found = false;
            if (!y.needs[a][b]) continue;
            for (k = position[a] + 1; k < position[b] && !found; k++) {
                found = plan[k] == -1 || explicit_sync(m, v, plan[k]);
            }
            if (!found) FAIL(m, "no sync point between #%d (commands pending) and #%d", a, b);
        }
    }
    if (autos != y.automatic) FAIL(m, "the plan has %d automatic sync points, the model %d", autos, y.automatic);
}

static void check_ambiguities(const model *m, const solved *v) {
    text_buffer dot = {NULL, 0, 0};
    int plan[MAX_SYS * 3], n, x, y, found[MAX_SYS][MAX_SYS];
    const char *line;
    ecs_sched_result r = ecs_sched_schedule_write_dot(g_world, UPDATE, collect, &dot);
    if (r != ECS_SCHED_OK) FAIL(m, "write_dot returned %s", ecs_sched_result_string(r));
    n = read_plan(m, plan);
    memset(found, 0, sizeof found);
    for (line = dot.text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        int p, q;
        const char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line) : strlen(line);
        char copy[256];
        if (length >= sizeof copy) continue;
        memcpy(copy, line, length);
        copy[length] = 0;
        if (!strstr(copy, "dashed") || sscanf(copy, " n%d -> n%d", &p, &q) != 2) continue;
        if (p < 0 || q < 0 || p >= n || q >= n || plan[p] < 0 || plan[q] < 0) {
            FAIL(m, "an ambiguous pair names plan entries %d and %d, not systems", p, q);
        }
        found[plan[p]][plan[q]]++;
        found[plan[q]][plan[p]]++;
    }
    free(dot.text);
    for (x = 0; x < m->systems; x++) {
        for (y = x + 1; y < m->systems; y++) {
            bool expected = ambiguous(m, v, x, y);
            if (found[x][y] > 1) FAIL(m, "#%d and #%d are reported ambiguous twice", x, y);
            if (expected != (found[x][y] == 1)) {
                FAIL(m, "#%d and #%d: the model %s them ambiguous, the report %s", x, y,
                     expected ? "finds" : "does not find", found[x][y] ? "does" : "does not");
            }
        }
    }
}

/* ---- one input ---- */

static void setup_world(model *m) {
    ecs_sched_world_desc wd;
    int i;
    memset(&wd, 0, sizeof wd);
    wd.logger.fn = quiet;
    wd.executor = ECS_SCHED_EXECUTOR_SINGLE_THREADED;
    wd.thread_count = 1;   /* no pool to start and stop for every input */
    g_world = ecs_sched_world_create(&wd);
    if (!g_world) abort();
    for (i = 0; i < COMPS; i++) {
        char name[8];
        snprintf(name, sizeof name, "C%d", i);
        g_comp[i] = ecs_sched_component_register_type(g_world, name, sizeof(int), 4);
    }
    for (i = 0; i < RESS; i++) {
        char name[8];
        int zero = 0;
        snprintf(name, sizeof name, "R%d", i);
        g_res[i] = ecs_sched_component_register_type(g_world, name, sizeof(int), 4);
        if (ecs_sched_resource_insert(g_world, g_res[i], &zero) != ECS_SCHED_OK) abort();
    }
    g_tag = ECS_SCHED_TAG(g_world, Marked);
    make_conditions();
    memset(m, 0, sizeof *m);
    for (i = 0; i < MAX_SYS; i++) snprintf(m->text[i], sizeof m->text[i], "s%d", i);
    for (i = 0; i < SET_NAMES; i++) snprintf(m->text[MAX_SYS + i], sizeof m->text[0], "T%d", i);
    for (i = 0; i < EXTRA_NAMES; i++) {
        snprintf(m->text[MAX_SYS + SET_NAMES + i], sizeof m->text[0], "X%d", i);
    }
    m->names = TABLE_NAMES;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static model m;
    static solved v;
    reader r;
    ecs_sched_result codes[2], built;
    int ops, code_count, k;
    bool added = true, matched = false;
    r.data = data;
    r.size = size;
    r.at = 0;
    setup_world(&m);
    draw_settings(&r, &m);
    if (ecs_sched_schedule_configure(g_world, UPDATE, &m.settings) != ECS_SCHED_OK) abort();
    for (ops = 0; ops < MAX_OPS && more(&r) && added; ops++) {
        unsigned op = next_byte(&r) % 8;
        if (op <= 2 && m.systems < MAX_SYS) added = add_one_system(&r, &m);
        else if (op == 3) added = add_group(&r, &m);
        else if (op == 7 && m.systems > 0 && next_byte(&r) % 3 == 0) added = remove_systems(&r, &m);
        else if (op == 4 || op == 5 || op == 7) added = configure_set(&r, &m);
        else if (op == 6) added = chain_sets(&r, &m);
    }
    if (!added) FAIL(&m, "an add or configure call was refused: %s", ecs_sched_result_string(ecs_sched_last_result(g_world)));
    memset(&v, 0, sizeof v);
    code_count = expected_codes(&m, &v, codes);
    built = ecs_sched_schedule_build(g_world, UPDATE);
    for (k = 0; k < code_count; k++) matched = matched || built == codes[k];
    if (!matched) {
        FAIL(&m, "the build returned %s, the model expects %s%s%s", ecs_sched_result_string(built),
             ecs_sched_result_string(codes[0]), code_count > 1 ? " or " : "",
             code_count > 1 ? ecs_sched_result_string(codes[1]) : "");
    }
    if (built == ECS_SCHED_OK) {
        check_plan(&m, &v);
        check_ambiguities(&m, &v);
    }
    ecs_sched_world_destroy(g_world);
    g_world = NULL;
    return 0;
}
