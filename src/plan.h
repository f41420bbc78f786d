/* plan: sync points and the built plan. */
#pragma once
#include "access.h"

/* Builds now (a run builds when needed). A failed build leaves the schedule unbuilt. */
ECS_SCHED_API ecs_sched_result ecs_sched_schedule_build(ecs_sched_world *world,
                                                       const char *schedule);
/* The built plan's order: up to `capacity` names (systems, and "apply_deferred" for
   automatic sync points). Returns the number of entries in the plan, or -1 on failure. */
ECS_SCHED_API int32_t ecs_sched_schedule_order(ecs_sched_world *world, const char *schedule,
                                              const char **names, int32_t capacity);

/*@@ implementation @@*/
/* plan: sync points and the built plan. */

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
/* The parallel executor's state for a plan (executor.h). */
typedef struct ecs_sched__run ecs_sched__run;

struct ecs_sched__plan {
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
    ecs_sched__run *run_state;   /* the parallel executor's, one block, made on first use */
};

static void ecs_sched__plan_free(ecs_sched__env *env, ecs_sched__plan *plan) {
    if (!plan) return;
    ecs_sched__free(env, plan->run_state);
    ecs_sched__arena_free(&plan->arena);
    ecs_sched__free(env, plan);
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

/* Every pass of a build, in order, ending with the plan. */
static ecs_sched_result ecs_sched__build_passes(ecs_sched__build *b, ecs_sched__plan *plan) {
    ecs_sched_result result = ecs_sched__resolve_names(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__build_hierarchy(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_duplicate_names(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__collect_dependencies(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_unknown_sets(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_condition_access(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__flatten(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__order_systems(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__compute_access(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_ambiguities(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__make_plan(b, plan);
    return result;
}

static ecs_sched__plan *ecs_sched__plan_create(ecs_sched_world *w) {
    ecs_sched__plan *plan = (ecs_sched__plan *)ecs_sched__calloc(&w->env, sizeof *plan);
    if (plan) ecs_sched__arena_init(&plan->arena, &w->env);
    return plan;
}

/* Builds a schedule's plan. A failed build leaves the schedule as it was. */
static ecs_sched_result ecs_sched__build_schedule(ecs_sched_world *w, ecs_sched__schedule *s) {
    ecs_sched__build b;
    ecs_sched_result result;
    ecs_sched__plan *plan = ecs_sched__plan_create(w);
    if (!plan) return ecs_sched__out_of_memory(w, "building a schedule");
    ecs_sched__build_begin(&b, w, s);
    result = ecs_sched__build_passes(&b, plan);
    ecs_sched__build_end(&b);
    if (result != ECS_SCHED_OK) {
        ecs_sched__plan_free(&w->env, plan);
        return result;
    }
    ecs_sched__plan_free(&w->env, s->plan);
    s->plan = plan;
    s->built = true;
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__ensure_built(ecs_sched_world *w, ecs_sched__schedule *s) {
    if (s->built) return ECS_SCHED_OK;
    if (s->running) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_SCHEDULE_RUNNING,
                               "schedule '%s' was changed while it runs, so it cannot be built "
                               "now; it is rebuilt when its next run starts",
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
    for (i = 0; i < s->plan->node_count && i < capacity; i++) {
        names[i] = ecs_sched__plan_node_name(&s->plan->nodes[i]);
    }
    return s->plan->node_count;
}
