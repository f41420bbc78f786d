/* build: name resolution, hierarchy and dependency checks, flattening, ordering. */
#pragma once
#include "graph.h"

/*@@ implementation @@*/
/* build: name resolution, hierarchy and dependency checks, flattening, ordering. */

/* A directed graph in compressed rows: the successors of v are adj[start[v] .. start[v+1]). */
typedef struct ecs_sched__csr {
    int32_t n;
    int32_t *start;
    int32_t *adj;
} ecs_sched__csr;

/* What one side of a before relation stands for once sets are replaced by the systems under
   them: its systems (those under its set, those of its name, or the system itself), and
   whether every node it names is in no set. A name's side is worked out once per build, since
   thousands of relations can name it; every subject system runs before every object system. */
typedef struct ecs_sched__side {
    const int32_t *systems;
    int32_t count;
    bool at_top;
} ecs_sched__side;

/* Everything one build works out, grouped by the pass that fills it; all of it lives in
   `tmp` and goes when the build ends. Nodes 0 .. S-1 are the systems, S .. S+T-1 the sets. */
/* One query a system runs under, its own or a condition's (which only reads). */
typedef struct ecs_sched__query_use {
    int32_t system;
    bool reads_only;
    const ecs_sched_query *query;
} ecs_sched__query_use;

typedef struct ecs_sched__build {
    ecs_sched_world *w;
    ecs_sched__schedule *s;
    ecs_sched__arena tmp;
    ecs_sched__text text;         /* the message being written */
    bool quiet;                   /* warnings not logged: a rebuild made only to draw */
    int32_t system_count;
    int32_t set_count;
    int32_t node_count;

    /* resolve_names */
    int32_t *set_of_name;         /* name -> set number, or -1 */
    int32_t *name_of_set;
    int32_t *instance;            /* system -> its number among systems of the same name */
    int32_t *instances;           /* systems grouped by name (CSR by name) */
    int32_t *instances_start;
    bool orders_shared_name;      /* a before/after or ambiguous_with names a name several
                                     systems carry */

    /* build_hierarchy */
    ecs_sched__csr parents;       /* node -> the sets it is directly in, first given first */
    int32_t *child_count;         /* set -> direct members */
    int32_t set_words;
    uint64_t *ancestors;          /* node -> bitset of the sets it is in, at any depth */
    int32_t *depth;               /* set -> nesting depth, 0 at the top */
    ecs_sched__csr members;       /* set -> systems under it, at any depth */

    /* collect_dependencies: the dependencies between nodes, flattened to systems as bitsets */
    ecs_sched__side *name_sides;  /* name -> what it stands for, flattened */
    int32_t system_words;         /* words of a bitset over the systems */
    uint64_t *flat;               /* system -> the systems it runs before; NULL without any */
    uint64_t *plain;              /* the same, by a dependency that keeps the sync point; NULL
                                     while no dependency ignores it (flat then says it all) */
    int32_t *flat_in;             /* system -> how many systems run before it */
    int32_t flat_ordered;         /* systems in flat_order: all of them unless flat has a cycle */
    int32_t *flat_order;          /* a topological order of flat */
    int32_t *flat_position;       /* system -> its position in flat_order */
    uint64_t *flat_preds;         /* system -> the positions in flat_order of its predecessors;
                                     of all its ancestors once flatten has run */

    /* flatten */
    ecs_sched__csr successors;    /* systems -> systems, deduplicated; without the edges that
                                     other paths imply and no sync point needs */
    uint8_t *successor_ignore;
    uint8_t *explicit_sync;       /* system -> an apply_deferred that always runs */
    uint8_t *carries;             /* system -> leaves commands pending for its successors */

    /* order_systems */
    int32_t *order;               /* systems in topological order */
    int32_t *key;                 /* tie-break key of each system */

    /* compute_access, check_ambiguities (access.h) */
    int32_t access_words;
    uint64_t *access;             /* system -> 4 bitsets: comp read, comp write, res read, write */
    int32_t ambiguous_count;
    int32_t *ambiguous;           /* pairs of systems */
    uint32_t use_count;           /* the queries of every system and of its conditions, */
    uint32_t use_capacity;        /* grouped by system; kept only when some query has a */
    ecs_sched__query_use *uses;   /* without term (owned, freed after the build) */
    int32_t *use_start;           /* system -> its first use, or NULL */
    uint8_t *excludes;            /* system -> one of its uses has a without term */
    uint32_t serial_count;        /* unordered pairs that must not overlap: conflicting access */
    uint32_t serial_capacity;     /* (silenced or not), or both recording commands */
    int32_t *serial;              /* pairs of systems; owned, freed after the build */

    /* make_plan (plan.h): plan nodes are the systems, then the automatic sync points */
    int32_t plan_node_count;
    int32_t *sync_distance;       /* system -> how many sync points must run before it */
    int32_t *sync_of_distance;    /* distance -> the sync point node for it, or -1 */
    ecs_sched__csr plan_edges;    /* the dependencies between plan nodes, sync points included */
    ecs_sched__csr plan_bound;    /* plan_edges and those that bind the order (or the same) */
    int32_t *plan_order;          /* plan position -> node */
    int32_t *plan_position;       /* node -> plan position */
    int32_t *plan_set_of;         /* set -> its plan set (a set with conditions), or -1 */
} ecs_sched__build;

static void ecs_sched__build_begin(ecs_sched__build *b, ecs_sched_world *w,
                                   ecs_sched__schedule *s) {
    memset(b, 0, sizeof *b);
    b->w = w;
    b->s = s;
    b->system_count = (int32_t)s->system_count;
    ecs_sched__arena_init(&b->tmp, &w->env);
    ecs_sched__text_init(&b->text, &w->env);
}

static void ecs_sched__build_end(ecs_sched__build *b) {
    ecs_sched__text_free(&b->text);
    ecs_sched__arena_free(&b->tmp);
    ecs_sched__free(&b->w->env, b->serial);
    ecs_sched__free(&b->w->env, b->uses);
}

#define ECS_SCHED__ALLOC_N(b, type, n) \
    ((type *)ecs_sched__arena_alloc(&(b)->tmp, sizeof(type) * (size_t)((n) > 0 ? (n) : 1)))

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

/* Edges gathered one by one (room for all of them made first), then made into rows. */
typedef struct ecs_sched__edges {
    int32_t count;
    int32_t capacity;
    int32_t *from;
    int32_t *to;
} ecs_sched__edges;

static bool ecs_sched__edges_begin(ecs_sched__build *b, ecs_sched__edges *list, int64_t capacity) {
    if (capacity > INT32_MAX) return false;
    list->count = 0;
    list->capacity = (int32_t)capacity;
    list->from = ECS_SCHED__ALLOC_N(b, int32_t, capacity);
    list->to = ECS_SCHED__ALLOC_N(b, int32_t, capacity);
    return list->from && list->to;
}

static void ecs_sched__edge_add(ecs_sched__edges *list, int32_t from, int32_t to) {
    ECS_SCHED_ASSERT(list->count < list->capacity);
    list->from[list->count] = from;
    list->to[list->count++] = to;
}

/* Adds every edge of g, or of g reversed. */
static void ecs_sched__edges_add_graph(ecs_sched__edges *list, const ecs_sched__csr *g,
                                       bool reversed) {
    int32_t v, e;
    for (v = 0; v < g->n; v++) {
        for (e = g->start[v]; e < g->start[v + 1]; e++) {
            if (reversed) ecs_sched__edge_add(list, g->adj[e], v);
            else ecs_sched__edge_add(list, v, g->adj[e]);
        }
    }
}

static bool ecs_sched__edges_end(ecs_sched__build *b, const ecs_sched__edges *list, int32_t n,
                                 ecs_sched__csr *g) {
    return ecs_sched__csr_build(b, g, n, list->count, list->from, list->to);
}

/* Drops the repeated edges of each row, keeping the first of each in place. */
static bool ecs_sched__csr_drop_duplicates(ecs_sched__build *b, ecs_sched__csr *g) {
    int32_t *seen_from = ECS_SCHED__ALLOC_N(b, int32_t, g->n), out = 0, v, e;
    if (!seen_from) return false;
    for (v = 0; v < g->n; v++) seen_from[v] = -1;
    for (v = 0; v < g->n; v++) {
        int32_t first = g->start[v];
        g->start[v] = out;
        for (e = first; e < g->start[v + 1]; e++) {
            int32_t t = g->adj[e];
            if (seen_from[t] == v) continue;
            seen_from[t] = v;
            g->adj[out++] = t;
        }
    }
    g->start[g->n] = out;
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
                                          ecs_sched_result code) {
    if (level == ECS_SCHED_REPORT_ERROR) return ecs_sched__build_fail(b, code);
    if (level == ECS_SCHED_REPORT_WARN && !b->quiet) {
        ecs_sched__log(&b->w->env, ECS_SCHED_LOG_WARN, code, ecs_sched__text_get(&b->text));
    }
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__oom(ecs_sched__build *b) {
    return ecs_sched__out_of_memory(b->w, "building a schedule");
}

/* Whether a reference is a name that several systems carry. */
static bool ecs_sched__ref_shared(const ecs_sched__schedule *s, ecs_sched__ref ref) {
    return ref < 0 && s->names[-ref - 1].system_count > 1;
}

/* Which names are sets is decided afresh at each build, from the configuration that stands:
   a name is declared a set by configuring it, by something in it, or by being the default
   set; a name only ordered against (or otherwise named by a relation) is a set while no
   system carries it. */
static bool ecs_sched__declared_set(const ecs_sched__schedule *s, int32_t name) {
    return s->names[name].configured || s->names[name].set_references > 0 ||
           name == s->default_set;
}

static bool ecs_sched__implicit_set(const ecs_sched__schedule *s, int32_t name) {
    return s->names[name].references > 0 && s->names[name].system_count == 0;
}

/* Numbers the sets, groups systems by name, and refuses a name used for both. */
ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__resolve_names(ecs_sched__build *b) {
    ecs_sched__schedule *s = b->s;
    uint32_t i;
    int32_t *fill;
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
        bool declared = ecs_sched__declared_set(s, (int32_t)i);
        b->set_of_name[i] = -1;
        if (declared && n->system_count > 0) {
            ecs_sched__text_begin(b);
            ecs_sched__text_printf(&b->text,
                                   "'%s' names %d system(s) and also a set; systems and sets "
                                   "share one namespace, so rename the set or the system",
                                   n->text, (int)n->system_count);
            return ecs_sched__build_fail(b, ECS_SCHED_ERR_NAME_CONFLICT);
        }
        if (n->orderings > 0 && n->system_count > 1) b->orders_shared_name = true;
        if (declared || ecs_sched__implicit_set(s, (int32_t)i)) {
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

/* The instances of a shared name, "#1, #2, ...", after what names them. */
static void ecs_sched__print_instances(ecs_sched__build *b, const ecs_sched__name *n) {
    int32_t j;
    ecs_sched__text_printf(&b->text, "%d systems are named '%s' (", (int)n->system_count, n->text);
    for (j = 0; j < n->system_count; j++) {
        ecs_sched__text_printf(&b->text, "%s#%d", j ? ", " : "", (int)j + 1);
    }
    ecs_sched__text_printf(&b->text, ")");
}

/* Refuses (as the setting asks) an ordering or an ambiguous_with entry that names several
   systems at once: it ties what names it to every one of them, which is rarely what was
   meant. */
ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__check_duplicate_names(ecs_sched__build *b) {
    ecs_sched__schedule *s = b->s;
    int kind;
    char label[160];
    for (kind = ECS_SCHED__REL_BEFORE; b->orders_shared_name && kind <= ECS_SCHED__REL_AMBIGUOUS;
         kind++) {
        const ecs_sched__relations *list = &s->relations[kind];
        bool ordering = kind == ECS_SCHED__REL_BEFORE;
        uint32_t i;
        for (i = 0; i < list->count; i++) {
            const ecs_sched__relation *r = &list->items[i];
            ecs_sched__ref refs[2];
            int k;
            refs[0] = r->subject;
            refs[1] = r->object;
            for (k = ordering ? 0 : 1; k < 2; k++) {
                const ecs_sched__name *n;
                int32_t single;
                const int32_t *other;
                ecs_sched_result result;
                if (!ecs_sched__ref_shared(s, refs[k])) continue;
                n = &s->names[-refs[k] - 1];
                ecs_sched__ref_nodes(b, refs[1 - k], &single, &other);
                ecs_sched__text_begin(b);
                ecs_sched__text_printf(&b->text, "%s is %s '%s', but ",
                                       ecs_sched__node_label(b, other[0], label, sizeof label),
                                       !ordering ? "declared ambiguous_with"
                                       : k == 0  ? "ordered after"
                                                 : "ordered before",
                                       n->text);
                ecs_sched__print_instances(b, n);
                if (ordering) {
                    ecs_sched__text_printf(&b->text,
                                           ", so the order would tie it to all of them. Put the "
                                           "instance you mean in a set and order against the "
                                           "set, or order from that instance's side (its own "
                                           "before/after), or chain them");
                } else {
                    ecs_sched__text_printf(&b->text,
                                           ", so the allowance would cover all of them. Put the "
                                           "instance you mean in a set and name the set, or "
                                           "declare it from that instance's side (its own "
                                           "ambiguous_with)");
                }
                result = ecs_sched__report(b, s->settings.duplicate_names,
                                           ECS_SCHED_ERR_DUPLICATE_NAME);
                if (result != ECS_SCHED_OK) return result;
            }
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

/* The "is in" edges, node -> set: each in_set relation, and the default set of every system
   given none. The same in_set given twice is one membership. */
static ecs_sched_result ecs_sched__collect_memberships(ecs_sched__build *b) {
    ecs_sched__schedule *s = b->s;
    ecs_sched__edges in_set;
    int32_t i;
    const ecs_sched__relations *list = &s->relations[ECS_SCHED__REL_IN_SET];
    uint32_t r;
    if (!ecs_sched__edges_begin(b, &in_set, (int64_t)list->count + s->system_count)) {
        return ecs_sched__oom(b);
    }
    for (r = 0; r < list->count; r++) {
        const ecs_sched__relation *rel = &list->items[r];
        int32_t single_a, single_b;
        const int32_t *subject, *object;
        ecs_sched__ref_nodes(b, rel->subject, &single_a, &subject);
        ecs_sched__ref_nodes(b, rel->object, &single_b, &object);
        ecs_sched__edge_add(&in_set, subject[0], object[0]);
    }
    if (s->default_set >= 0) {
        for (i = 0; i < b->system_count; i++) {
            if (s->systems[i]->explicit_set) continue;
            ecs_sched__edge_add(&in_set, i, b->system_count + b->set_of_name[s->default_set]);
        }
    }
    if (!ecs_sched__edges_end(b, &in_set, b->node_count, &b->parents) ||
        !ecs_sched__csr_drop_duplicates(b, &b->parents)) {
        return ecs_sched__oom(b);
    }
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__check_hierarchy_cycle(ecs_sched__build *b) {
    int32_t *path = ECS_SCHED__ALLOC_N(b, int32_t, b->node_count + 1), n;
    if (!path) return ecs_sched__oom(b);
    n = ecs_sched__find_cycle(b, &b->parents, path);
    if (n < 0) return ecs_sched__oom(b);
    if (n == 0) return ECS_SCHED_OK;
    ecs_sched__text_begin(b);
    ecs_sched__text_printf(&b->text, "the sets contain each other in a cycle: ");
    ecs_sched__print_path(b, path, n, " is in ");
    ecs_sched__text_printf(&b->text, ". Remove one of these in_set relations");
    return ecs_sched__build_fail(b, ECS_SCHED_ERR_HIERARCHY_CYCLE);
}

/* Ancestors, depth and direct member counts, parents before children: Kahn's order over the
   memberships reversed, a node being ready once all its parents are. */
static ecs_sched_result ecs_sched__compute_ancestors(ecs_sched__build *b) {
    ecs_sched__edges reversed;
    ecs_sched__csr children;
    int32_t N = b->node_count, S = b->system_count, head = 0, tail = 0, i, j, k;
    int32_t *ready = ECS_SCHED__ALLOC_N(b, int32_t, N);
    int32_t *pending = ECS_SCHED__ALLOC_N(b, int32_t, N);
    b->set_words = (b->set_count + 63) / 64;
    b->ancestors = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)N * b->set_words);
    b->depth = ECS_SCHED__ALLOC_N(b, int32_t, b->set_count);
    b->child_count = ECS_SCHED__ALLOC_N(b, int32_t, b->set_count);
    if (!b->ancestors || !b->depth || !b->child_count || !ready || !pending ||
        !ecs_sched__edges_begin(b, &reversed, b->parents.start[N])) {
        return ecs_sched__oom(b);
    }
    ecs_sched__edges_add_graph(&reversed, &b->parents, true);
    if (!ecs_sched__edges_end(b, &reversed, N, &children)) return ecs_sched__oom(b);
    for (i = 0; i < N; i++) {
        pending[i] = b->parents.start[i + 1] - b->parents.start[i];
        if (pending[i] == 0) ready[tail++] = i;
        if (i >= S) b->child_count[i - S] = children.start[i + 1] - children.start[i];
    }
    while (head < tail) {
        int32_t v = ready[head++], set = v - S;
        const uint64_t *va = ecs_sched__row(b->ancestors, b->set_words, v);
        for (j = children.start[v]; j < children.start[v + 1]; j++) {
            int32_t c = children.adj[j];
            uint64_t *ca = ecs_sched__row(b->ancestors, b->set_words, c);
            for (k = 0; k < b->set_words; k++) ca[k] |= va[k];
            ecs_sched__set_bit(ca, set);
            if (c >= S && b->depth[c - S] < b->depth[set] + 1) b->depth[c - S] = b->depth[set] + 1;
            if (--pending[c] == 0) ready[tail++] = c;
        }
    }
    return ECS_SCHED_OK;
}

/* Refuses a direct membership that another membership already implies. A group's own
   (anonymous) set repeats the sets its members are in, and is let through. */
static ecs_sched_result ecs_sched__check_redundant_memberships(ecs_sched__build *b) {
    const ecs_sched__schedule *s = b->s;
    const ecs_sched__csr *p = &b->parents;
    int32_t S = b->system_count, i, j, k;
    for (i = 0; i < b->node_count; i++) {
        for (j = p->start[i]; j < p->start[i + 1]; j++) {
            for (k = p->start[i]; k < p->start[i + 1]; k++) {
                int32_t outer = p->adj[j], inner = p->adj[k];
                char a[160], o[160], q[160];
                if (j == k || s->names[b->name_of_set[inner - S]].anonymous) continue;
                if (!ecs_sched__bit(ecs_sched__row(b->ancestors, b->set_words, inner), outer - S)) {
                    continue;
                }
                ecs_sched__text_begin(b);
                ecs_sched__text_printf(&b->text,
                                       "%s is in %s directly and also through %s, which is in it "
                                       "already: remove the direct in_set of %s",
                                       ecs_sched__node_label(b, i, a, sizeof a),
                                       ecs_sched__node_label(b, outer, o, sizeof o),
                                       ecs_sched__node_label(b, inner, q, sizeof q), o);
                return ecs_sched__build_fail(b, ECS_SCHED_ERR_HIERARCHY_REDUNDANT);
            }
        }
    }
    return ECS_SCHED_OK;
}

/* The systems under each set, at any depth, read from their ancestor bits. */
static ecs_sched_result ecs_sched__collect_members(ecs_sched__build *b) {
    ecs_sched__edges under;
    int64_t total = 0;
    int32_t i, k;
    for (i = 0; i < b->system_count; i++) {
        const uint64_t *bits = ecs_sched__row(b->ancestors, b->set_words, i);
        for (k = 0; k < b->set_words; k++) total += ecs_sched__popcount(bits[k]);
    }
    if (!ecs_sched__edges_begin(b, &under, total)) return ecs_sched__oom(b);
    for (i = 0; i < b->system_count; i++) {
        const uint64_t *bits = ecs_sched__row(b->ancestors, b->set_words, i);
        for (k = 0; k < b->set_words; k++) {
            uint64_t word;
            for (word = bits[k]; word; word &= word - 1) {
                ecs_sched__edge_add(&under, k * 64 + ecs_sched__lowest_bit(word), i);
            }
        }
    }
    if (!ecs_sched__edges_end(b, &under, b->set_count, &b->members)) return ecs_sched__oom(b);
    return ECS_SCHED_OK;
}

/* The set hierarchy: who is in what, checked, with ancestors, depths and members. */
ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__build_hierarchy(ecs_sched__build *b) {
    ecs_sched_result result = ecs_sched__collect_memberships(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_hierarchy_cycle(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__compute_ancestors(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_redundant_memberships(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__collect_members(b);
    return result;
}

static bool ecs_sched__node_under(const ecs_sched__build *b, int32_t node, int32_t set_node) {
    return set_node >= b->system_count &&
           ecs_sched__bit(ecs_sched__row(b->ancestors, b->set_words, node), set_node - b->system_count);
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

static bool ecs_sched__at_top(const ecs_sched__build *b, int32_t node) {
    return b->parents.start[node] == b->parents.start[node + 1];
}

/* The side of every name, for ecs_sched__side_of. */
static bool ecs_sched__side_names(ecs_sched__build *b) {
    const ecs_sched__schedule *s = b->s;
    uint32_t name;
    b->name_sides = ECS_SCHED__ALLOC_N(b, ecs_sched__side, s->name_count);
    if (!b->name_sides) return false;
    for (name = 0; name < s->name_count; name++) {
        ecs_sched__side *side = &b->name_sides[name];
        int32_t set = b->set_of_name[name], k;
        side->at_top = true;
        if (set >= 0) {
            side->systems = b->members.adj + b->members.start[set];
            side->count = b->members.start[set + 1] - b->members.start[set];
            side->at_top = ecs_sched__at_top(b, b->system_count + set);
            continue;
        }
        side->systems = b->instances + b->instances_start[name];
        side->count = b->instances_start[name + 1] - b->instances_start[name];
        for (k = 0; k < side->count; k++) {
            side->at_top = side->at_top && ecs_sched__at_top(b, side->systems[k]);
        }
    }
    return true;
}

/* The side of a relation's subject or object, which ref points at. */
static inline ecs_sched__side ecs_sched__side_of(const ecs_sched__build *b,
                                                const ecs_sched__ref *ref) {
    ecs_sched__side side;
    if (*ref < 0) return b->name_sides[-*ref - 1];
    side.systems = ref;
    side.count = 1;
    side.at_top = ecs_sched__at_top(b, *ref);
    return side;
}

/* Refuses a dependency on a node's own set; reports one that crosses sets, as the setting
   asks. */
static ecs_sched_result ecs_sched__check_dependency(ecs_sched__build *b, int32_t from, int32_t to) {
    char x[160], y[160];
    if (ecs_sched__node_under(b, from, to) || ecs_sched__node_under(b, to, from)) {
        int32_t inner = ecs_sched__node_under(b, from, to) ? from : to;
        int32_t outer = inner == from ? to : from;
        ecs_sched__text_begin(b);
        ecs_sched__text_printf(&b->text,
                               "%s is ordered %s %s, which contains it; a set's members cannot "
                               "run before or after the set itself. Order it against a sibling "
                               "instead",
                               ecs_sched__node_label(b, inner, x, sizeof x),
                               inner == from ? "before" : "after",
                               ecs_sched__node_label(b, outer, y, sizeof y));
        return ecs_sched__build_fail(b, ECS_SCHED_ERR_ORDER_AGAINST_PARENT);
    }
    if (!ecs_sched__siblings(b, from, to)) {
        ecs_sched__text_begin(b);
        ecs_sched__text_printf(&b->text,
                               "%s runs before %s, but they are not in a common set, so this "
                               "order also ties together the sets around them. Order their sets "
                               "instead, or put both in one set",
                               ecs_sched__node_label(b, from, x, sizeof x),
                               ecs_sched__node_label(b, to, y, sizeof y));
        return ecs_sched__report(b, b->s->settings.cross_set_dependencies,
                                 ECS_SCHED_ERR_CROSS_SET_DEPENDENCY);
    }
    return ECS_SCHED_OK;
}

/* Checks the dependencies a relation gives, one for each subject node and object node. Two
   nodes in no set need none: neither holds the other, and they are siblings at the top. */
static ecs_sched_result ecs_sched__check_relation(ecs_sched__build *b,
                                                 const ecs_sched__relation *r) {
    int32_t single_subject, single_object, subject_count, object_count, i, j;
    const int32_t *subjects, *objects;
    subject_count = ecs_sched__ref_nodes(b, r->subject, &single_subject, &subjects);
    object_count = ecs_sched__ref_nodes(b, r->object, &single_object, &objects);
    for (i = 0; i < subject_count; i++) {
        for (j = 0; j < object_count; j++) {
            ecs_sched_result result;
            if (ecs_sched__at_top(b, subjects[i]) && ecs_sched__at_top(b, objects[j])) continue;
            result = ecs_sched__check_dependency(b, subjects[i], objects[j]);
            if (result != ECS_SCHED_OK) return result;
        }
    }
    return ECS_SCHED_OK;
}

/* plain starts as a copy of flat: every dependency before the first that ignores deferred
   commands kept them. */
static bool ecs_sched__begin_plain(ecs_sched__build *b) {
    size_t words = (size_t)b->system_count * (size_t)b->system_words;
    b->plain = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)words);
    if (!b->plain) return false;
    memcpy(b->plain, b->flat, sizeof(uint64_t) * words);
    return true;
}

/* Every system of one side runs before every system of the other. Bits, not edges: the same
   pair given by many relations (sets ordered against sets) costs nothing more. */
static inline void ecs_sched__flatten_relation(ecs_sched__build *b, const ecs_sched__side *from,
                                               const ecs_sched__side *to, bool ignore_deferred) {
    int32_t W = b->system_words, i, j;
    bool plain = b->plain && !ignore_deferred;
    for (i = 0; i < from->count; i++) {
        uint64_t *row = ecs_sched__row(b->flat, W, from->systems[i]);
        for (j = 0; j < to->count; j++) {
            int32_t t = to->systems[j];
            if (!ecs_sched__bit(row, t)) {
                ecs_sched__set_bit(row, t);
                b->flat_in[t]++;
            }
        }
        for (j = 0; plain && j < to->count; j++) {
            ecs_sched__set_bit(ecs_sched__row(b->plain, W, from->systems[i]), to->systems[j]);
        }
    }
}

/* Kahn's order of flat; each system also gets the positions of its predecessors in it.
   Returns how many systems it ordered (fewer when flat has a cycle), or -1. */
static int32_t ecs_sched__order_flat(ecs_sched__build *b) {
    int32_t S = b->system_count, W = b->system_words, head = 0, tail = 0, i;
    int32_t *pending = ECS_SCHED__ALLOC_N(b, int32_t, S);
    b->flat_order = ECS_SCHED__ALLOC_N(b, int32_t, S);
    b->flat_position = ECS_SCHED__ALLOC_N(b, int32_t, S);
    b->flat_preds = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)S * W);
    if (!pending || !b->flat_order || !b->flat_position || !b->flat_preds) return -1;
    for (i = 0; i < S; i++) {
        pending[i] = b->flat_in[i];
        if (pending[i] == 0) b->flat_order[tail++] = i;
    }
    for (head = 0; head < tail; head++) {
        const uint64_t *row = ecs_sched__row(b->flat, W, b->flat_order[head]);
        int32_t k;
        for (k = 0; k < W; k++) {
            uint64_t word;
            for (word = row[k]; word; word &= word - 1) {
                int32_t t = k * 64 + ecs_sched__lowest_bit(word);
                ecs_sched__set_bit(ecs_sched__row(b->flat_preds, W, t), head);
                if (--pending[t] == 0) b->flat_order[tail++] = t;
            }
        }
    }
    for (i = 0; i < tail; i++) b->flat_position[b->flat_order[i]] = i;
    return tail;
}

/* The dependencies between nodes as a graph, an edge for each in the order configured (each
   subject node against each object node, relation by relation). */
static bool ecs_sched__node_graph(ecs_sched__build *b, ecs_sched__csr *g) {
    const ecs_sched__relations *list = &b->s->relations[ECS_SCHED__REL_BEFORE];
    ecs_sched__edges edges;
    int64_t count = 0;
    int32_t single_subject, single_object, subject_count, object_count, i, j;
    const int32_t *subjects, *objects;
    uint32_t r;
    for (r = 0; r < list->count; r++) {
        subject_count = ecs_sched__ref_nodes(b, list->items[r].subject, &single_subject, &subjects);
        object_count = ecs_sched__ref_nodes(b, list->items[r].object, &single_object, &objects);
        count += (int64_t)subject_count * object_count;
    }
    if (!ecs_sched__edges_begin(b, &edges, count)) return false;
    for (r = 0; r < list->count; r++) {
        subject_count = ecs_sched__ref_nodes(b, list->items[r].subject, &single_subject, &subjects);
        object_count = ecs_sched__ref_nodes(b, list->items[r].object, &single_object, &objects);
        for (i = 0; i < subject_count; i++) {
            for (j = 0; j < object_count; j++) ecs_sched__edge_add(&edges, subjects[i], objects[j]);
        }
    }
    return ecs_sched__edges_end(b, &edges, b->node_count, g);
}

/* The first cycle a search finds among the nodes' dependencies; 0 when there is none, -1 when
   out of memory. */
static int32_t ecs_sched__find_node_cycle(ecs_sched__build *b, int32_t *path) {
    ecs_sched__csr g;
    if (!ecs_sched__node_graph(b, &g)) return -1;
    return ecs_sched__find_cycle(b, &g, path);
}

static bool ecs_sched__empty_set(const ecs_sched__build *b, int32_t node) {
    int32_t set = node - b->system_count;
    return set >= 0 && b->members.start[set] == b->members.start[set + 1];
}

/* ---- orderings through sets without systems ----

   A set with no system under it (a plugin's set nobody filled, a feature switched off) still
   orders what comes before it against what comes after it: each system that runs before it
   runs before each system that runs after it, through any number of such sets in a row. The
   edge keeps its sync point unless both halves ignore it. An empty set's predecessors are
   gathered as bits (`all`, and `plain`: those reaching it by a path that keeps the sync point),
   the empty sets taken in an order where each comes after the empty sets before it. */
typedef struct ecs_sched__through {
    int32_t count;                /* empty sets named by a relation */
    int32_t *index;               /* set -> its number among them, or -1 */
    int32_t *order;               /* their numbers, each after those it follows */
    uint64_t *all;                /* number -> the systems that run before it */
    uint64_t *plain;              /* number -> those of them that keep the sync point */
    ecs_sched__csr next;          /* number -> the relations from it, by relation number */
} ecs_sched__through;

/* The empty side of a relation as its number in t, or -1 when the side has systems. */
static int32_t ecs_sched__through_index(const ecs_sched__build *b, const ecs_sched__through *t,
                                        ecs_sched__ref ref) {
    int32_t name;
    if (ref >= 0) return -1;
    name = -ref - 1;
    return b->set_of_name[name] >= 0 ? t->index[b->set_of_name[name]] : -1;
}

static bool ecs_sched__through_begin(ecs_sched__build *b, ecs_sched__through *t) {
    const ecs_sched__relations *list = &b->s->relations[ECS_SCHED__REL_BEFORE];
    int32_t i, words = b->system_words, *from, *to, *in, head, tail = 0;
    uint32_t r, n = 0;
    t->count = 0;
    t->index = ECS_SCHED__ALLOC_N(b, int32_t, b->set_count);
    if (!t->index) return false;
    for (i = 0; i < b->set_count; i++) {
        t->index[i] = ecs_sched__empty_set(b, b->system_count + i) ? t->count++ : -1;
    }
    t->order = ECS_SCHED__ALLOC_N(b, int32_t, t->count);
    t->all = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)t->count * words);
    t->plain = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)t->count * words);
    from = ECS_SCHED__ALLOC_N(b, int32_t, list->count);
    to = ECS_SCHED__ALLOC_N(b, int32_t, list->count);
    in = ECS_SCHED__ALLOC_N(b, int32_t, t->count);
    if (!t->order || !t->all || !t->plain || !from || !to || !in) return false;
    for (r = 0; r < list->count; r++) {
        int32_t x = ecs_sched__through_index(b, t, list->items[r].subject);
        int32_t y = ecs_sched__through_index(b, t, list->items[r].object);
        if (x < 0) continue;
        from[n] = x;
        to[n++] = (int32_t)r;
        if (y >= 0) in[y]++;
    }
    if (!ecs_sched__csr_build(b, &t->next, t->count, (int32_t)n, from, to)) return false;
    for (i = 0; i < t->count; i++) {
        if (in[i] == 0) t->order[tail++] = i;
    }
    for (head = 0; head < tail; head++) {   /* no cycle among them: it was looked for first */
        int32_t e, x = t->order[head];
        for (e = t->next.start[x]; e < t->next.start[x + 1]; e++) {
            int32_t y = ecs_sched__through_index(b, t, list->items[t->next.adj[e]].object);
            if (y >= 0 && --in[y] == 0) t->order[tail++] = y;
        }
    }
    return tail == t->count;
}

/* Each system in `systems` (bits) runs before each system of `to`; `plain` says which of
   them keep the sync point. */
static void ecs_sched__flatten_bits(ecs_sched__build *b, const uint64_t *systems,
                                    const uint64_t *plain, const ecs_sched__side *to) {
    int32_t W = b->system_words, k, j;
    for (k = 0; k < W; k++) {
        uint64_t word;
        for (word = systems[k]; word; word &= word - 1) {
            int32_t u = k * 64 + ecs_sched__lowest_bit(word);
            uint64_t *row = ecs_sched__row(b->flat, W, u);
            bool keeps = b->plain && ecs_sched__bit(plain, u);
            for (j = 0; j < to->count; j++) {
                int32_t v = to->systems[j];
                if (!ecs_sched__bit(row, v)) {
                    ecs_sched__set_bit(row, v);
                    b->flat_in[v]++;
                }
                if (keeps) ecs_sched__set_bit(ecs_sched__row(b->plain, W, u), v);
            }
        }
    }
}

static void ecs_sched__bits_or(uint64_t *into, const uint64_t *bits, int32_t words) {
    int32_t k;
    for (k = 0; k < words; k++) into[k] |= bits[k];
}

/* Joins the systems before each empty set to the systems after it. */
static ecs_sched_result ecs_sched__order_through_empty_sets(ecs_sched__build *b) {
    const ecs_sched__relations *list = &b->s->relations[ECS_SCHED__REL_BEFORE];
    int32_t W = b->system_words, q, e, k;
    ecs_sched__through t;
    uint32_t r;
    if (!ecs_sched__through_begin(b, &t)) return ecs_sched__oom(b);
    for (r = 0; r < list->count; r++) {   /* systems straight before an empty set */
        const ecs_sched__relation *rel = &list->items[r];
        int32_t y = ecs_sched__through_index(b, &t, rel->object);
        ecs_sched__side from = ecs_sched__side_of(b, &rel->subject);
        for (k = 0; y >= 0 && k < from.count; k++) {
            ecs_sched__set_bit(ecs_sched__row(t.all, W, y), from.systems[k]);
            if (!rel->ignore_deferred) ecs_sched__set_bit(ecs_sched__row(t.plain, W, y), from.systems[k]);
        }
    }
    for (q = 0; q < t.count; q++) {
        int32_t x = t.order[q];
        const uint64_t *all = ecs_sched__row(t.all, W, x), *plain = ecs_sched__row(t.plain, W, x);
        for (e = t.next.start[x]; e < t.next.start[x + 1]; e++) {
            const ecs_sched__relation *rel = &list->items[t.next.adj[e]];
            int32_t y = ecs_sched__through_index(b, &t, rel->object);
            const uint64_t *kept = rel->ignore_deferred ? plain : all;
            if (y >= 0) {
                ecs_sched__bits_or(ecs_sched__row(t.all, W, y), all, W);
                ecs_sched__bits_or(ecs_sched__row(t.plain, W, y), kept, W);
            } else {
                ecs_sched__side to = ecs_sched__side_of(b, &rel->object);
                ecs_sched__flatten_bits(b, all, kept, &to);
            }
        }
    }
    return ECS_SCHED_OK;
}

/* A cycle between nodes shows as one between the systems under them, unless it passes through
   a set with none: the nodes are searched first when there is such a set (the orderings
   through it need a graph without cycles among those sets), else only once the systems have a
   cycle, which names the cycle as configured. A cycle that only shows among the systems (one in
   two sets ordered against each other) is named when the systems are ordered. */
static ecs_sched_result ecs_sched__check_dependency_cycle(ecs_sched__build *b, bool empty_set) {
    int32_t *path, n = 0;
    path = ECS_SCHED__ALLOC_N(b, int32_t, b->node_count + 1);
    if (!path) return ecs_sched__oom(b);
    if (empty_set) {
        n = ecs_sched__find_node_cycle(b, path);
        if (n == 0) {
            ecs_sched_result result = ecs_sched__order_through_empty_sets(b);
            if (result != ECS_SCHED_OK) return result;
        }
    }
    if (n == 0) {
        b->flat_ordered = ecs_sched__order_flat(b);
        if (b->flat_ordered < 0) return ecs_sched__oom(b);
        if (b->flat_ordered == b->system_count || empty_set) return ECS_SCHED_OK;
        n = ecs_sched__find_node_cycle(b, path);
    }
    if (n < 0) return ecs_sched__oom(b);
    if (n == 0) return ECS_SCHED_OK;
    ecs_sched__text_begin(b);
    ecs_sched__text_printf(&b->text, "the before/after constraints form a cycle: ");
    ecs_sched__print_path(b, path, n, " runs before ");
    ecs_sched__text_printf(&b->text, ". Remove one of these orderings");
    return ecs_sched__build_fail(b, ECS_SCHED_ERR_DEPENDENCY_CYCLE);
}

/* Checks each dependency and flattens it into flat, then looks for cycles. Half a million
   relations are nothing unusual (each set after every earlier one), so this loop is kept
   tight: a relation at a time, the checks only where a node is in a set. */
ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__collect_dependencies(ecs_sched__build *b) {
    const ecs_sched__relations *list = &b->s->relations[ECS_SCHED__REL_BEFORE];
    bool empty_set = false;
    uint32_t r;
    b->system_words = (b->system_count + 63) / 64;
    b->flat_ordered = b->system_count;
    if (list->count == 0) return ECS_SCHED_OK;
    b->flat = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)b->system_count * b->system_words);
    b->flat_in = ECS_SCHED__ALLOC_N(b, int32_t, b->system_count);
    if (!b->flat || !b->flat_in || !ecs_sched__side_names(b)) return ecs_sched__oom(b);
    for (r = 0; r < list->count; r++) {
        const ecs_sched__relation *rel = &list->items[r];
        ecs_sched__side from = ecs_sched__side_of(b, &rel->subject);
        ecs_sched__side to = ecs_sched__side_of(b, &rel->object);
        if (!from.at_top || !to.at_top) {
            ecs_sched_result result = ecs_sched__check_relation(b, rel);
            if (result != ECS_SCHED_OK) return result;
        }
        if (rel->ignore_deferred && !b->plain && !ecs_sched__begin_plain(b)) {
            return ecs_sched__oom(b);
        }
        if (from.count == 0 || to.count == 0) empty_set = true;
        ecs_sched__flatten_relation(b, &from, &to, rel->ignore_deferred);
    }
    return ecs_sched__check_dependency_cycle(b, empty_set);
}

/* The edit distance between two names, letters compared without case, or a large number
   when either is too long to be a likely typo of the other. */
static int32_t ecs_sched__name_distance(const char *x, const char *y) {
    int32_t row[65], n = (int32_t)strlen(x), m = (int32_t)strlen(y), i, j;
    if (n > 64 || m > 64) return 1000;
    for (j = 0; j <= m; j++) row[j] = j;
    for (i = 1; i <= n; i++) {
        int32_t diagonal = row[0];
        row[0] = i;
        for (j = 1; j <= m; j++) {
            int32_t above = row[j];
            int32_t cost = tolower((unsigned char)x[i - 1]) != tolower((unsigned char)y[j - 1]);
            int32_t best = diagonal + cost;
            if (above + 1 < best) best = above + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[m];
}

/* The name of the schedule closest to `name` (a system's, or a set that exists because it
   is configured or has members), when it is close enough to be what was meant; or NULL. */
static const char *ecs_sched__closest_name(const ecs_sched__build *b, int32_t name) {
    const ecs_sched__schedule *s = b->s;
    const char *text = s->names[name].text, *best = NULL;
    int32_t length = (int32_t)strlen(text), limit = length <= 4 ? 1 : length <= 8 ? 2 : 3;
    int32_t best_distance = limit + 1;
    uint32_t i;
    for (i = 0; i < s->name_count; i++) {
        const ecs_sched__name *n = &s->names[i];
        int32_t set = b->set_of_name[i], distance;
        bool real = n->system_count > 0 ||
                    (set >= 0 && (n->configured || b->child_count[set] > 0));
        if ((int32_t)i == name || n->anonymous || !real) continue;
        distance = ecs_sched__name_distance(text, n->text);
        if (distance < best_distance) {
            best_distance = distance;
            best = n->text;
        }
    }
    return best;
}

/* What first names `name` in an ordering or an ambiguous_with: "system 'x' is ordered after". */
static void ecs_sched__print_first_mention(ecs_sched__build *b, int32_t name) {
    static const char *const verbs[2][2] = {{"is ordered before", "is ordered after"},
                                            {"is declared ambiguous_with", "is named by"}};
    ecs_sched__ref ref = -name - 1;
    char label[160];
    int kind;
    for (kind = ECS_SCHED__REL_BEFORE; kind <= ECS_SCHED__REL_AMBIGUOUS; kind++) {
        const ecs_sched__relations *list = &b->s->relations[kind];
        uint32_t r;
        for (r = 0; r < list->count; r++) {
            const ecs_sched__relation *rel = &list->items[r];
            int32_t single;
            const int32_t *nodes;
            bool object = rel->object == ref;
            if (!object && rel->subject != ref) continue;
            ecs_sched__ref_nodes(b, object ? rel->subject : rel->object, &single, &nodes);
            ecs_sched__text_printf(&b->text, "%s %s ",
                                   ecs_sched__node_label(b, nodes[0], label, sizeof label),
                                   verbs[kind == ECS_SCHED__REL_AMBIGUOUS][!object]);
            return;
        }
    }
    ecs_sched__text_printf(&b->text, "something names ");
}

/* A name that an ordering or ambiguous_with gives, but that nothing in the schedule carries:
   no system has it, no system or set is in it, and it is never configured. Most often a
   typo, which would silently drop the ordering. The default set is configured by the schedule
   itself, so it is never one, even while every system names a set of its own. */
ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__check_unknown_sets(ecs_sched__build *b) {
    ecs_sched__schedule *s = b->s;
    int32_t set;
    for (set = 0; set < b->set_count; set++) {
        int32_t name = b->name_of_set[set];
        const ecs_sched__name *n = &s->names[name];
        const char *closest;
        ecs_sched_result result;
        if (n->configured || b->child_count[set] > 0 || name == s->default_set) continue;
        ecs_sched__text_begin(b);
        ecs_sched__print_first_mention(b, name);
        ecs_sched__text_printf(&b->text, "'%s', which names nothing in this schedule: no system "
                                         "has that name, and no set of that name is configured "
                                         "or has members",
                               n->text);
        closest = ecs_sched__closest_name(b, name);
        if (closest) ecs_sched__text_printf(&b->text, ". Did you mean '%s'?", closest);
        else ecs_sched__text_printf(&b->text, " (a misspelled name?)");
        ecs_sched__text_printf(&b->text, " For a set meant to stay empty for now, configure it "
                                         "(ecs_sched_configure_set); the schedule's unknown_sets "
                                         "setting lowers this error to a warning");
        result = ecs_sched__report(b, s->settings.unknown_sets, ECS_SCHED_ERR_UNKNOWN_SET);
        if (result != ECS_SCHED_OK) return result;
    }
    return ECS_SCHED_OK;
}

/* An apply_deferred that runs whenever the schedule does: no condition on it or on a set it is
   in. Such a sync point counts like an automatic one, and serves where one would go. */
static bool ecs_sched__explicit_sync(const ecs_sched__build *b, int32_t v) {
    const ecs_sched__schedule *s = b->s;
    uint32_t k;
    if (!s->systems[v]->is_apply_deferred) return false;
    for (k = 0; k < s->guard_count; k++) {
        int32_t single, i;
        const int32_t *nodes;
        int32_t n = ecs_sched__ref_nodes(b, s->guards[k].subject, &single, &nodes);
        for (i = 0; i < n; i++) {
            if (nodes[i] == v || ecs_sched__node_under(b, v, nodes[i])) return false;
        }
    }
    return true;
}

/* Which systems leave commands pending for what runs after them: their own (.commands), or
   those an ordering that ignores deferred commands passed on to them. Ignoring them only spares
   that ordering a sync point: what runs after through an ordering that keeps them (or any
   exclusive system) still gets one. An explicit sync point leaves nothing pending. Worked out
   over every edge of flat, in its order, before the implied edges go. */
static bool ecs_sched__find_carriers(ecs_sched__build *b) {
    int32_t S = b->system_count, W = b->system_words, q, k;
    uint64_t *ends = ECS_SCHED__ALLOC_N(b, uint64_t, W);   /* exclusive systems, apply_deferred */
    b->explicit_sync = ECS_SCHED__ALLOC_N(b, uint8_t, S);
    b->carries = ECS_SCHED__ALLOC_N(b, uint8_t, S);
    if (!ends || !b->explicit_sync || !b->carries) return false;
    for (q = 0; q < S; q++) {
        const ecs_sched__system *system = b->s->systems[q];
        b->explicit_sync[q] = ecs_sched__explicit_sync(b, q) ? 1 : 0;
        b->carries[q] = !b->s->settings.no_auto_sync && system->ctx.commands != NULL;
        if (system->ctx.run.exclusive || system->is_apply_deferred) ecs_sched__set_bit(ends, q);
    }
    if (!b->flat || !b->plain || b->flat_ordered != S) return true;
    for (q = 0; q < S; q++) {
        int32_t v = b->flat_order[q];
        const uint64_t *row = ecs_sched__row(b->flat, W, v), *plain = ecs_sched__row(b->plain, W, v);
        if (b->explicit_sync[v]) b->carries[v] = 0;
        if (!b->carries[v]) continue;
        for (k = 0; k < W; k++) {
            uint64_t word;
            for (word = row[k] & ~plain[k] & ~ends[k]; word; word &= word - 1) {
                b->carries[k * 64 + ecs_sched__lowest_bit(word)] = 1;
            }
        }
    }
    return true;
}

/* Leaves in each row of flat only the edges that need a sync point of their own (the rule of
   ecs_sched__needs_sync, by rows of bits). */
static bool ecs_sched__keep_sync_edges(ecs_sched__build *b) {
    int32_t S = b->system_count, W = b->system_words, v, k;
    uint64_t *deferred = ECS_SCHED__ALLOC_N(b, uint64_t, W);   /* apply_deferred systems */
    uint64_t *exclusive = ECS_SCHED__ALLOC_N(b, uint64_t, W);  /* see commands regardless */
    if (!deferred || !exclusive) return false;
    for (v = 0; v < S; v++) {
        if (b->s->systems[v]->is_apply_deferred) ecs_sched__set_bit(deferred, v);
        if (b->s->systems[v]->ctx.run.exclusive) ecs_sched__set_bit(exclusive, v);
    }
    for (v = 0; v < S; v++) {
        uint64_t *row = ecs_sched__row(b->flat, W, v);
        const uint64_t *plain = b->plain ? ecs_sched__row(b->plain, W, v) : row;
        for (k = 0; k < W; k++) {
            row[k] = b->carries[v] ? row[k] & (plain[k] | exclusive[k]) & ~deferred[k] : 0;
        }
    }
    return true;
}

/* Adds to flat the edges no other path implies (the transitive reduction). The systems go in
   flat_order; a system's predecessors from the latest back, so that one an ancestor of a later
   predecessor reaches is seen to be implied. Each row of flat_preds becomes the positions of
   the system's ancestors, which the systems after it read. */
static bool ecs_sched__keep_unimplied_edges(ecs_sched__build *b) {
    int32_t S = b->system_count, W = b->system_words, q, k, j;
    uint64_t *reached = ECS_SCHED__ALLOC_N(b, uint64_t, W);
    if (!reached) return false;
    for (q = 0; q < S; q++) {
        int32_t t = b->flat_order[q];
        uint64_t *row = ecs_sched__row(b->flat_preds, W, t);
        memset(reached, 0, sizeof(uint64_t) * (size_t)W);
        for (k = q / 64; k >= 0; k--) {
            uint64_t fresh;
            while ((fresh = row[k] & ~reached[k]) != 0) {
                int32_t p = k * 64 + ecs_sched__highest_bit(fresh), u = b->flat_order[p];
                const uint64_t *theirs = ecs_sched__row(b->flat_preds, W, u);
                ecs_sched__set_bit(ecs_sched__row(b->flat, W, u), t);
                for (j = 0; j <= k; j++) reached[j] |= theirs[j];
                ecs_sched__set_bit(reached, p);
            }
        }
        memcpy(row, reached, sizeof(uint64_t) * (size_t)W);
    }
    return true;
}

/* Places successor y of system x, the edge left in flat, at the next place of x's row. */
static void ecs_sched__place_successor(ecs_sched__build *b, int32_t *fill, int32_t x, int32_t y) {
    int32_t W = b->system_words, e = b->successors.start[x] + fill[x]++;
    ecs_sched__clear_bit(ecs_sched__row(b->flat, W, x), y);
    b->successors.adj[e] = y;
    /* ignored only when every dependency giving the edge ignores it */
    b->successor_ignore[e] = b->plain && !ecs_sched__bit(ecs_sched__row(b->plain, W, x), y);
}

/* Places the edges left in flat that a relation gives, in the rows not yet complete; returns
   how many. Each row sees its edges in the order of the object's systems, as it would
   dependency by dependency. */
static int32_t ecs_sched__place_relation(ecs_sched__build *b, int32_t *fill,
                                         const ecs_sched__relation *r) {
    const ecs_sched__csr *g = &b->successors;
    ecs_sched__side from = ecs_sched__side_of(b, &r->subject);
    ecs_sched__side to = ecs_sched__side_of(b, &r->object);
    int32_t placed = 0, i, j;
    for (i = 0; i < from.count; i++) {
        int32_t x = from.systems[i];
        const uint64_t *row = ecs_sched__row(b->flat, b->system_words, x);
        for (j = 0; j < to.count && fill[x] < g->start[x + 1] - g->start[x]; j++) {
            if (!ecs_sched__bit(row, to.systems[j])) continue;
            ecs_sched__place_successor(b, fill, x, to.systems[j]);
            placed++;
        }
    }
    return placed;
}

/* How many edges of row v are left in flat. */
static int32_t ecs_sched__flat_count(const ecs_sched__build *b, int32_t v) {
    const uint64_t *row;
    int32_t k, n = 0;
    if (!b->flat) return 0;
    row = ecs_sched__row(b->flat, b->system_words, v);
    for (k = 0; k < b->system_words; k++) n += ecs_sched__popcount(row[k]);
    return n;
}

/* The edges left in flat become the successors, each row in the order the dependencies that
   give them come: an edge takes the place of its first; the edges only an empty set gives
   come last, by system number. A row of one edge needs no walk over the dependencies, and a
   walk ends once every longer row is placed. */
static ecs_sched_result ecs_sched__successors_from_flat(ecs_sched__build *b) {
    const ecs_sched__relations *list = &b->s->relations[ECS_SCHED__REL_BEFORE];
    int32_t S = b->system_count, W = b->system_words, v, k, remaining = 0;
    int32_t *fill = ECS_SCHED__ALLOC_N(b, int32_t, S);
    ecs_sched__csr *g = &b->successors;
    const uint64_t *row;
    uint32_t r;
    g->n = S;
    g->start = ECS_SCHED__ALLOC_N(b, int32_t, S + 1);
    if (!fill || !g->start) return ecs_sched__oom(b);
    for (v = 0; v < S; v++) g->start[v + 1] = g->start[v] + ecs_sched__flat_count(b, v);
    g->adj = ECS_SCHED__ALLOC_N(b, int32_t, g->start[S]);
    b->successor_ignore = ECS_SCHED__ALLOC_N(b, uint8_t, g->start[S]);
    if (!g->adj || !b->successor_ignore) return ecs_sched__oom(b);
    for (v = 0; v < S; v++) {
        int32_t count = g->start[v + 1] - g->start[v];
        if (count != 1) {
            remaining += count;
            continue;
        }
        row = ecs_sched__row(b->flat, W, v);
        for (k = 0; k < W; k++) {
            if (row[k]) {
                ecs_sched__place_successor(b, fill, v, k * 64 + ecs_sched__lowest_bit(row[k]));
            }
        }
    }
    for (r = 0; remaining > 0 && r < list->count; r++) {
        remaining -= ecs_sched__place_relation(b, fill, &list->items[r]);
    }
    for (v = 0; remaining > 0 && v < S; v++) {   /* edges through empty sets, by number */
        row = ecs_sched__row(b->flat, W, v);
        for (k = 0; k < W; k++) {
            for (; row[k]; remaining--) {
                ecs_sched__place_successor(b, fill, v, k * 64 + ecs_sched__lowest_bit(row[k]));
            }
        }
    }
    return ECS_SCHED_OK;
}

/* Whether some path leads from system x to system y or back (once the edges are flattened,
   and in a schedule without a cycle). */
static bool ecs_sched__ordered(const ecs_sched__build *b, int32_t x, int32_t y) {
    const uint64_t *ancestors_x, *ancestors_y;
    if (!b->flat) return false;
    ancestors_x = b->flat_preds + (size_t)x * (size_t)b->system_words;
    ancestors_y = b->flat_preds + (size_t)y * (size_t)b->system_words;
    return ecs_sched__bit(ancestors_y, b->flat_position[x]) ||
           ecs_sched__bit(ancestors_x, b->flat_position[y]);
}

/* Node-level dependencies become system-level ones: every system under the first node runs
   before every system under the second. Duplicates are dropped, and so is every edge that
   another path implies and that places no sync point of its own: the order, the sync points
   and the plan's edges come out the same, and dense orderings (each set after all the earlier
   ones) stay small. With a cycle every edge is kept, for the search that names it. */
ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__flatten(ecs_sched__build *b) {
    if (!ecs_sched__find_carriers(b)) return ecs_sched__oom(b);
    if (b->flat && b->flat_ordered == b->system_count &&
        (!ecs_sched__keep_sync_edges(b) || !ecs_sched__keep_unimplied_edges(b))) {
        return ecs_sched__oom(b);
    }
    return ecs_sched__successors_from_flat(b);
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

/* Whether node stands for system v: it is v, or a set v is in. */
static bool ecs_sched__holds(const ecs_sched__build *b, int32_t node, int32_t v) {
    return node == v || ecs_sched__node_under(b, v, node);
}

/* The shortest chain of orderings from system x (or a set it is in) to system y (or a set it
   is in) whose inner nodes are sets without systems: how the build came to order x before y.
   Writes its nodes to path and returns how many, or 0 (-1 when out of memory). */
static int32_t ecs_sched__ordering_path(ecs_sched__build *b, const ecs_sched__csr *g, int32_t x,
                                        int32_t y, int32_t *path) {
    int32_t N = b->node_count, head = 0, tail = 0, v, e, n;
    int32_t *from = ECS_SCHED__ALLOC_N(b, int32_t, N), *queue = ECS_SCHED__ALLOC_N(b, int32_t, N);
    if (!from || !queue) return -1;
    for (v = 0; v < N; v++) {
        from[v] = -2;   /* not reached */
        if (ecs_sched__holds(b, v, x)) {
            from[v] = -1;
            queue[tail++] = v;
        }
    }
    for (head = 0; head < tail; head++) {
        v = queue[head];
        for (e = g->start[v]; e < g->start[v + 1]; e++) {
            int32_t u = g->adj[e];
            if (ecs_sched__holds(b, u, y)) {
                for (n = 1, path[0] = u; v >= 0; v = from[v]) path[n++] = v;
                for (e = 0; e < n / 2; e++) {
                    int32_t t = path[e];
                    path[e] = path[n - 1 - e];
                    path[n - 1 - e] = t;
                }
                return n;
            }
            if (from[u] == -2 && ecs_sched__empty_set(b, u)) {
                from[u] = v;
                queue[tail++] = u;
            }
        }
    }
    return 0;
}

/* "system 'x' is in set 'A', set 'A' runs before set 'B' (which has no systems), ...". */
static void ecs_sched__print_ordering(ecs_sched__build *b, const int32_t *path, int32_t n,
                                      int32_t x, int32_t y) {
    char one[160], two[160];
    int32_t i;
    if (n == 0) {
        ecs_sched__text_printf(&b->text, "%s runs before %s",
                               ecs_sched__node_label(b, x, one, sizeof one),
                               ecs_sched__node_label(b, y, two, sizeof two));
        return;
    }
    if (path[0] != x) {
        ecs_sched__text_printf(&b->text, "%s is in %s, ", ecs_sched__node_label(b, x, one, sizeof one),
                               ecs_sched__node_label(b, path[0], two, sizeof two));
    }
    for (i = 0; i + 1 < n; i++) {
        ecs_sched__text_printf(&b->text, "%s%s runs before %s%s", i ? ", " : "",
                               ecs_sched__node_label(b, path[i], one, sizeof one),
                               ecs_sched__node_label(b, path[i + 1], two, sizeof two),
                               ecs_sched__empty_set(b, path[i + 1]) ? " (which has no systems)" : "");
    }
    if (path[n - 1] != y) {
        ecs_sched__text_printf(&b->text, ", %s is in %s", ecs_sched__node_label(b, y, one, sizeof one),
                               ecs_sched__node_label(b, path[n - 1], two, sizeof two));
    }
}

/* A cycle among the systems that no cycle among the nodes shows: each step of it explained by
   the orderings and memberships that give it. */
static ecs_sched_result ecs_sched__report_flattened_cycle(ecs_sched__build *b, const int32_t *cycle,
                                                          int32_t length) {
    int32_t *path = ECS_SCHED__ALLOC_N(b, int32_t, b->node_count + 1), i, n;
    ecs_sched__csr g;
    char label[160];
    if (!path || !ecs_sched__node_graph(b, &g)) return ecs_sched__oom(b);
    ecs_sched__text_begin(b);
    ecs_sched__text_printf(&b->text, "once sets are replaced by their systems, the order has a "
                                     "cycle: ");
    for (i = 0; i + 1 < length; i++) {
        n = ecs_sched__ordering_path(b, &g, cycle[i], cycle[i + 1], path);
        if (n < 0) return ecs_sched__oom(b);
        if (i) ecs_sched__text_printf(&b->text, "; ");
        ecs_sched__print_ordering(b, path, n, cycle[i], cycle[i + 1]);
    }
    if (length == 2) {
        ecs_sched__text_printf(&b->text, "; so %s must run after itself",
                               ecs_sched__node_label(b, cycle[0], label, sizeof label));
    } else {
        ecs_sched__text_printf(&b->text, "; so ");
        ecs_sched__print_path(b, cycle, length, " runs before ");
    }
    ecs_sched__text_printf(&b->text, ". A system in two sets that are ordered against each other "
                                     "(directly or through sets without systems), or a system "
                                     "ordered against a set it shares members with, causes this; "
                                     "remove one of the orderings or memberships");
    return ecs_sched__build_fail(b, ECS_SCHED_ERR_DEPENDENCY_CYCLE);
}

ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__order_systems(ecs_sched__build *b) {
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
        return ecs_sched__report_flattened_cycle(b, path, len);
    }
    return ECS_SCHED_OK;
}
