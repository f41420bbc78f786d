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
    int32_t guard_run_end;       /* one past the last node of the run of nodes right after it
                                    whose outermost guarding set is its own: when that set's
                                    conditions are false, the executor skips to there */
    int32_t cond_start;          /* its own conditions */
    int32_t cond_count;
    bool sync;                   /* applies pending commands: automatic, or apply_deferred */
    bool exclusive;
    bool main_thread;            /* runs (and its conditions are evaluated) on the calling thread */
} ecs_sched__plan_node;

typedef struct ecs_sched__plan_set {
    int32_t name;
    int32_t cond_start;
    int32_t cond_count;
    int32_t first_node;          /* the first plan position it guards: where a failure of its
                                    conditions counts, whichever node had them evaluated */
} ecs_sched__plan_set;

/* A built schedule, in an order that respects every dependency. Per node: dependency count,
   successors, guarding sets, conditions and access, so an executor can run it in order or
   dispatch ready nodes in parallel. */

/* The last few times of whole runs made one way. The parallel executor compares the least of
   each way's: noise (another process, a late wake-up) only ever adds time. */
#define ECS_SCHED__RECENT_RUNS 4
typedef struct ecs_sched__run_times {
    int64_t recent[ECS_SCHED__RECENT_RUNS];  /* nanoseconds; 0: not measured */
    int32_t next;
} ecs_sched__run_times;

typedef struct ecs_sched__plan ecs_sched__plan;

struct ecs_sched__plan {
    ecs_sched__arena arena;
    int32_t node_count;
    ecs_sched__plan_node *nodes;
    int32_t *successors;          /* those no other path implies, binding edges included */
    int32_t *guard_sets;
    int32_t *conds;
    int32_t set_count;
    ecs_sched__plan_set *sets;
    uint8_t *set_state;          /* per run: 0 not evaluated, 1 true, 2 false */
    int32_t access_words;        /* per node: component reads, writes, resource reads, writes */
    uint64_t *access;
    int32_t exclusive_count;     /* exclusive nodes (sync points too), their positions in */
    int32_t *exclusive_at;       /* plan order: the runs between them can be spread */
    int32_t writer_count;        /* systems with command buffers, in plan order */
    ecs_sched__plan_node **writers;
    int32_t ambiguous_count;     /* unordered conflicting pairs, as plan positions */
    int32_t *ambiguous;
    void *run_state;             /* the parallel executor's (executor.h: ecs_sched__run_of), one
                                    block, made on first use */
    /* how the parallel executor chooses (executor.h); nanoseconds, 0 until measured */
    int64_t work_ns;             /* what its non-exclusive nodes take, run in plan order */
    ecs_sched__run_times single;    /* whole runs on the calling thread */
    ecs_sched__run_times parallel;  /* whole parallel runs */
    uint32_t runs;               /* runs so far: measurements are taken on some of them */
    uint32_t parallel_runs;
    uint32_t retry_at;           /* the run that tries again the way that lost */
    uint32_t retry_every;
    uint32_t warmed_at;          /* the run that woke the workers for a parallel retry */
};

/* A schedule's built plan, or NULL. */
static inline ecs_sched__plan *ecs_sched__plan_of(const ecs_sched__schedule *s) {
    return (ecs_sched__plan *)s->plan;
}

static void ecs_sched__plan_free(ecs_sched__env *env, ecs_sched__plan *plan) {
    if (!plan) return;
    ecs_sched__free(env, plan->run_state);
    ecs_sched__arena_free(&plan->arena);
    ecs_sched__free(env, plan);
}

/* For world.h: its schedules go, each with its plan. */
static void ecs_sched__schedules_free(ecs_sched_world *w) {
    ecs_sched__schedules *all = ecs_sched__schedules_of(w);
    uint32_t i;
    if (!all) return;
    for (i = 0; i < all->count; i++) {
        ecs_sched__plan_free(&w->env, ecs_sched__plan_of(all->items[i]));
        ecs_sched__schedule_free(w, all->items[i]);
    }
    ecs_sched__name_map_free(&all->by_label);
    ecs_sched__free(&w->env, all->items);
    ecs_sched__free(&w->env, all);
    ecs_sched__part_set(w, &ecs_sched__schedules_key, NULL);
}

/* ---- helpers of the plan ---- */

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
        uint64_t *mine = ecs_sched__row(reach, words, p);
        for (e = g->start[v + 1] - 1; e >= g->start[v]; e--) {  /* the first of duplicates wins */
            ecs_sched__set_bit(next, position[g->adj[e]]);
            edge_of[position[g->adj[e]]] = e;
        }
        for (k = 0; k < words; k++) {
            while (next[k]) {
                int32_t t = k * 64 + ecs_sched__lowest_bit(next[k]), j;
                const uint64_t *theirs = ecs_sched__row(reach, words, t);
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

/* ---- the plan, step by step ----

   make_plan turns the ordered systems into the plan the executors run: automatic sync points
   placed, the order fixed and (for the parallel executor) made binding, conditions, guarding
   sets, access and the reduced edges copied out in plan order. Its steps fill the plan_ part
   of the build, which the DOT export reads too. */

/* Whether successor edge e of system v needs an automatic sync point: v leaves commands
   pending (ecs_sched__find_carriers), the edge keeps them (or leads to an exclusive system,
   which has the whole world and so must see them), and the successor is not an apply_deferred
   of its own. */
static bool ecs_sched__needs_sync(const ecs_sched__build *b, int32_t v, int32_t e) {
    const ecs_sched__system *t = b->s->systems[b->successors.adj[e]];
    return b->carries[v] && !t->is_apply_deferred && (!b->successor_ignore[e] || t->ctx.run.exclusive);
}

/* Each system gets the number of sync points that must run before it (its distance): one more
   than a predecessor whose edge needs a sync point, or that it is itself an explicit sync
   point. The edges that need a sync point for distance d share one: the first explicit sync
   point at that distance, else an automatic one, numbered after the systems. */
ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__place_sync_points(ecs_sched__build *b) {
    const ecs_sched__csr *g = &b->successors;
    int32_t S = b->system_count, i, e;
    const uint8_t *explicit_sync = b->explicit_sync;
    b->sync_distance = ECS_SCHED__ALLOC_N(b, int32_t, S);
    b->sync_of_distance = ECS_SCHED__ALLOC_N(b, int32_t, S + 1);
    if (!b->sync_distance || !b->sync_of_distance) return ecs_sched__oom(b);
    b->plan_node_count = S;
    for (i = 0; i < S; i++) {
        int32_t v = b->order[i];
        for (e = g->start[v]; e < g->start[v + 1]; e++) {
            int32_t t = g->adj[e];
            int32_t d = b->sync_distance[v] + (ecs_sched__needs_sync(b, v, e) || explicit_sync[t]);
            if (d > b->sync_distance[t]) b->sync_distance[t] = d;
        }
    }
    for (i = 0; i <= S; i++) b->sync_of_distance[i] = -1;
    for (i = 0; i < S; i++) {
        int32_t v = b->order[i];
        if (explicit_sync[v] && b->sync_of_distance[b->sync_distance[v]] < 0) {
            b->sync_of_distance[b->sync_distance[v]] = v;
        }
    }
    for (i = 0; i < S; i++) {
        int32_t v = b->order[i];
        for (e = g->start[v]; e < g->start[v + 1]; e++) {
            int32_t d = b->sync_distance[g->adj[e]];
            if (ecs_sched__needs_sync(b, v, e) && b->sync_of_distance[d] < 0) {
                b->sync_of_distance[d] = b->plan_node_count++;
            }
        }
    }
    return ECS_SCHED_OK;
}

/* The dependencies between plan nodes: each one between systems, and the same through the
   sync point it needs. Many edges share a sync point: the repeats are dropped. */
ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__connect_plan_nodes(ecs_sched__build *b) {
    const ecs_sched__csr *g = &b->successors;
    ecs_sched__edges list;
    int64_t count = 0;
    int32_t v, e;
    for (v = 0; v < b->system_count; v++) {
        for (e = g->start[v]; e < g->start[v + 1]; e++) count += ecs_sched__needs_sync(b, v, e) ? 3 : 1;
    }
    if (!ecs_sched__edges_begin(b, &list, count)) return ecs_sched__oom(b);
    for (v = 0; v < b->system_count; v++) {
        for (e = g->start[v]; e < g->start[v + 1]; e++) {
            int32_t t = g->adj[e];
            ecs_sched__edge_add(&list, v, t);
            if (ecs_sched__needs_sync(b, v, e)) {
                int32_t sync = b->sync_of_distance[b->sync_distance[t]];
                ecs_sched__edge_add(&list, v, sync);
                ecs_sched__edge_add(&list, sync, t);
            }
        }
    }
    if (!ecs_sched__edges_end(b, &list, b->plan_node_count, &b->plan_edges) ||
        !ecs_sched__csr_drop_duplicates(b, &b->plan_edges)) {
        return ecs_sched__oom(b);
    }
    return ECS_SCHED_OK;
}

/* Asked for, or a main-thread-only resource among what it (or a condition guarding it)
   declares. */
static bool ecs_sched__runs_on_main_thread(const ecs_sched__build *b, int32_t system) {
    const ecs_sched_world *w = b->w;
    const uint64_t *reads = ecs_sched__access_of(b, system, ECS_SCHED__RES_READ);
    const uint64_t *writes = ecs_sched__access_of(b, system, ECS_SCHED__RES_WRITE);
    uint32_t id;
    if (b->s->systems[system]->main_thread) return true;
    for (id = 1; id < w->component_count; id++) {
        if (w->components[id].non_send &&
            (ecs_sched__bit(reads, (int32_t)id) || ecs_sched__bit(writes, (int32_t)id))) {
            return true;
        }
    }
    return false;
}

static bool ecs_sched__plan_node_exclusive(const ecs_sched__build *b, int32_t node) {
    return node >= b->system_count || b->s->systems[node]->ctx.run.exclusive;
}

/* plan_bound: plan_edges and the edges that make the plan's order binding wherever running at
   once could change the result: each serial pair in plan order, and each exclusive node
   (exclusive systems, apply_deferred, sync points) after everything before it and before
   everything after it. The order does not change. A parallel executor then needs no access
   checks at run time and gives the single-threaded result. */
static bool ecs_sched__bind_plan_order(ecs_sched__build *b) {
    const int32_t *order = b->plan_order, *position = b->plan_position;
    int32_t N = b->plan_node_count, i, q;
    int64_t exclusive = 0;
    uint32_t k;
    ecs_sched__edges list;
    for (i = 0; i < N; i++) exclusive += ecs_sched__plan_node_exclusive(b, i);
    if (exclusive == 0 && b->serial_count == 0) return true;  /* nothing to bind */
    if (!ecs_sched__edges_begin(b, &list, (int64_t)b->plan_edges.start[N] + b->serial_count +
                                              exclusive * N)) {
        return false;
    }
    ecs_sched__edges_add_graph(&list, &b->plan_edges, false);
    for (k = 0; k < b->serial_count; k++) {
        int32_t x = b->serial[2 * k], y = b->serial[2 * k + 1];
        bool x_first = position[x] < position[y];
        ecs_sched__edge_add(&list, x_first ? x : y, x_first ? y : x);
    }
    for (i = 0; i < N; i++) {
        if (!ecs_sched__plan_node_exclusive(b, i)) continue;
        for (q = 0; q < N; q++) {
            if (q < position[i]) ecs_sched__edge_add(&list, order[q], i);
            if (q > position[i]) ecs_sched__edge_add(&list, i, order[q]);
        }
    }
    return ecs_sched__edges_end(b, &list, N, &b->plan_bound);
}

/* The plan's order: the systems' tie-break keys, the sync points after them in the order
   they were numbered; then, when the executor may run nodes at once, the binding edges. */
ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__order_plan(ecs_sched__build *b) {
    int32_t N = b->plan_node_count, S = b->system_count, i;
    int32_t *key = ECS_SCHED__ALLOC_N(b, int32_t, N);
    b->plan_order = ECS_SCHED__ALLOC_N(b, int32_t, N);
    b->plan_position = ECS_SCHED__ALLOC_N(b, int32_t, N);
    if (!key || !b->plan_order || !b->plan_position) return ecs_sched__oom(b);
    for (i = 0; i < S; i++) key[i] = b->key[i];
    for (i = S; i < N; i++) key[i] = S + i;
    if (ecs_sched__toposort(b, &b->plan_edges, key, b->plan_order) != N) return ecs_sched__oom(b);
    for (i = 0; i < N; i++) b->plan_position[b->plan_order[i]] = i;
    b->plan_bound = b->plan_edges;
    if (ecs_sched__binds_order(b) && !ecs_sched__bind_plan_order(b)) return ecs_sched__oom(b);
    return ECS_SCHED_OK;
}

/* The sets with conditions become the plan's sets, numbered in the order their first
   condition was added. */
ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__number_plan_sets(ecs_sched__build *b,
                                                                        ecs_sched__plan *plan) {
    const ecs_sched__schedule *s = b->s;
    int32_t S = b->system_count, i;
    uint32_t k;
    b->plan_set_of = ECS_SCHED__ALLOC_N(b, int32_t, b->set_count);
    if (!b->plan_set_of) return ecs_sched__oom(b);
    for (i = 0; i < b->set_count; i++) b->plan_set_of[i] = -1;
    for (k = 0; k < s->guard_count; k++) {
        int32_t single;
        const int32_t *node;
        ecs_sched__ref_nodes(b, s->guards[k].subject, &single, &node);
        if (node[0] >= S && b->plan_set_of[node[0] - S] < 0) {
            b->plan_set_of[node[0] - S] = plan->set_count++;
        }
    }
    return ECS_SCHED_OK;
}

/* n items of type in the plan's own arena (the plan outlives the build), zeroed. */
#define ECS_SCHED__PLAN_ALLOC_N(plan, type, n) \
    ((type *)ecs_sched__arena_alloc(&(plan)->arena, sizeof(type) * ((size_t)(n) + 1)))

ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__allocate_plan(ecs_sched__build *b,
                                                                     ecs_sched__plan *plan) {
    int32_t N = b->plan_node_count;
    plan->node_count = N;
    plan->nodes = ECS_SCHED__PLAN_ALLOC_N(plan, ecs_sched__plan_node, N);
    plan->successors = ECS_SCHED__PLAN_ALLOC_N(plan, int32_t, b->plan_bound.start[N]);
    plan->sets = ECS_SCHED__PLAN_ALLOC_N(plan, ecs_sched__plan_set, plan->set_count);
    plan->set_state = ECS_SCHED__PLAN_ALLOC_N(plan, uint8_t, plan->set_count);
    plan->conds = ECS_SCHED__PLAN_ALLOC_N(plan, int32_t, b->s->guard_count);
    plan->access_words = b->access_words;
    plan->access = ECS_SCHED__PLAN_ALLOC_N(plan, uint64_t, 4 * (size_t)b->access_words * (size_t)N);
    plan->writers = ECS_SCHED__PLAN_ALLOC_N(plan, ecs_sched__plan_node *, b->system_count);
    plan->exclusive_at = ECS_SCHED__PLAN_ALLOC_N(plan, int32_t, N);
    plan->ambiguous = ECS_SCHED__PLAN_ALLOC_N(plan, int32_t, 2 * (size_t)b->ambiguous_count);
    if (!plan->nodes || !plan->successors || !plan->sets || !plan->set_state || !plan->conds ||
        !plan->access || !plan->writers || !plan->exclusive_at || !plan->ambiguous) {
        return ecs_sched__oom(b);
    }
    return ECS_SCHED_OK;
}

/* The conditions, in one array: those of the plan sets first, grouped per set, then each
   system's own. Each node gets its system, its flags and its access. */
ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__describe_plan_nodes(ecs_sched__build *b,
                                                                           ecs_sched__plan *plan) {
    const ecs_sched__schedule *s = b->s;
    int32_t S = b->system_count, at = 0, set, i;
    size_t words = 4 * (size_t)b->access_words;   /* per node */
    uint32_t k;
    for (set = 0; set < b->set_count; set++) {
        ecs_sched__plan_set *ps;
        if (b->plan_set_of[set] < 0) continue;
        ps = &plan->sets[b->plan_set_of[set]];
        ps->name = b->name_of_set[set];
        ps->cond_start = at;
        for (k = 0; k < s->guard_count; k++) {
            int32_t single;
            const int32_t *node;
            ecs_sched__ref_nodes(b, s->guards[k].subject, &single, &node);
            if (node[0] == S + set) plan->conds[at++] = s->guards[k].cond;
        }
        ps->cond_count = at - ps->cond_start;
    }
    for (i = 0; i < b->plan_node_count; i++) {
        int32_t p = b->plan_position[i];
        ecs_sched__plan_node *pn = &plan->nodes[p];
        if (i >= S) {   /* an automatic sync point */
            pn->sync = true;
            pn->exclusive = true;
            continue;
        }
        pn->system = s->systems[i];
        pn->sync = pn->system->is_apply_deferred;
        pn->exclusive = pn->system->ctx.run.exclusive;
        pn->main_thread = ecs_sched__runs_on_main_thread(b, i);
        pn->cond_start = at;
        for (k = 0; k < s->guard_count; k++) {
            if (s->guards[k].subject == i) plan->conds[at++] = s->guards[k].cond;
        }
        pn->cond_count = at - pn->cond_start;
        memcpy(plan->access + (size_t)p * words, b->access + (size_t)i * words,
               sizeof(uint64_t) * words);
    }
    plan->exclusive_count = 0;
    for (i = 0; i < plan->node_count; i++) {
        if (plan->nodes[i].exclusive) plan->exclusive_at[plan->exclusive_count++] = i;
    }
    return ECS_SCHED_OK;
}

/* The plan sets that guard system i (the sets with conditions it is under) in set order, read
   from its ancestor bits; written to out unless it is NULL. Returns how many. */
static int32_t ecs_sched__guard_sets_of(const ecs_sched__build *b, int32_t i, int32_t *out) {
    const uint64_t *bits = ecs_sched__row(b->ancestors, b->set_words, i);
    int32_t n = 0, k;
    for (k = 0; k < b->set_words; k++) {
        uint64_t word;
        for (word = bits[k]; word; word &= word - 1) {
            int32_t plan_set = b->plan_set_of[k * 64 + ecs_sched__lowest_bit(word)];
            if (plan_set < 0) continue;
            if (out) out[n] = plan_set;
            n++;
        }
    }
    return n;
}

/* Each node's guard_run_end: nodes in a row that share their outermost guarding set are
   skipped together when its conditions are false (systems added as one group, a state's
   systems), as each of them would be, one by one, without evaluating anything else. */
static void ecs_sched__plan_guard_runs(ecs_sched__plan *plan) {
    int32_t p;
    for (p = plan->node_count - 1; p >= 0; p--) {
        ecs_sched__plan_node *pn = &plan->nodes[p];
        const ecs_sched__plan_node *next = p + 1 < plan->node_count ? pn + 1 : NULL;
        pn->guard_run_end = p + 1;
        if (pn->guard_set_count && next && next->guard_set_count &&
            plan->guard_sets[next->guard_set_start] == plan->guard_sets[pn->guard_set_start]) {
            pn->guard_run_end = next->guard_run_end;
        }
    }
}

/* Each system's guarding plan sets, outermost first. */
ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__plan_guard_sets(ecs_sched__build *b,
                                                                       ecs_sched__plan *plan) {
    int32_t S = b->system_count, total = 0, at = 0, set, i;
    int32_t *depth_of_plan_set = ECS_SCHED__ALLOC_N(b, int32_t, plan->set_count);
    if (!depth_of_plan_set) return ecs_sched__oom(b);
    for (set = 0; set < b->set_count; set++) {
        if (b->plan_set_of[set] >= 0) depth_of_plan_set[b->plan_set_of[set]] = b->depth[set];
    }
    for (i = 0; i < S; i++) total += ecs_sched__guard_sets_of(b, i, NULL);
    plan->guard_sets = ECS_SCHED__PLAN_ALLOC_N(plan, int32_t, total);
    if (!plan->guard_sets) return ecs_sched__oom(b);
    for (set = 0; set < plan->set_count; set++) plan->sets[set].first_node = INT32_MAX;
    for (i = 0; i < S; i++) {
        int32_t p = b->plan_position[i], k;
        ecs_sched__plan_node *pn = &plan->nodes[p];
        pn->guard_set_start = at;
        pn->guard_set_count = ecs_sched__guard_sets_of(b, i, plan->guard_sets + at);
        for (k = 0; k < pn->guard_set_count; k++) {
            ecs_sched__plan_set *ps = &plan->sets[plan->guard_sets[at + k]];
            if (p < ps->first_node) ps->first_node = p;
        }
        at += pn->guard_set_count;
        ecs_sched__sort_guard_sets(plan->guard_sets + pn->guard_set_start, pn->guard_set_count,
                                   depth_of_plan_set);
    }
    ecs_sched__plan_guard_runs(plan);
    return ECS_SCHED_OK;
}

/* The bound edges no other path implies, as plan positions, and each node's dependency count;
   the systems with command buffers, in plan order. */
ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__plan_successors(ecs_sched__build *b,
                                                                       ecs_sched__plan *plan) {
    const ecs_sched__csr *g = &b->plan_bound;
    const uint8_t *keep = ecs_sched__reduced_edges(b, g, b->plan_order, b->plan_position,
                                                   b->plan_node_count);
    int32_t at = 0, p, e;
    if (!keep) return ecs_sched__oom(b);
    for (p = 0; p < plan->node_count; p++) {
        int32_t v = b->plan_order[p];
        ecs_sched__plan_node *pn = &plan->nodes[p];
        pn->successor_start = at;
        for (e = g->start[v]; e < g->start[v + 1]; e++) {
            int32_t t = b->plan_position[g->adj[e]];
            if (!keep[e]) continue;
            plan->successors[at++] = t;
            plan->nodes[t].dependency_count++;
        }
        pn->successor_count = at - pn->successor_start;
        if (pn->system && pn->system->ctx.commands) plan->writers[plan->writer_count++] = pn;
    }
    return ECS_SCHED_OK;
}

ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__plan_ambiguities(ecs_sched__build *b,
                                                                        ecs_sched__plan *plan) {
    int32_t i;
    for (i = 0; i < 2 * b->ambiguous_count; i++) {
        plan->ambiguous[i] = b->plan_position[b->ambiguous[i]];
    }
    plan->ambiguous_count = b->ambiguous_count;
    return ECS_SCHED_OK;
}

ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__make_plan(ecs_sched__build *b,
                                                                 ecs_sched__plan *plan) {
    ecs_sched_result result = ecs_sched__place_sync_points(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__connect_plan_nodes(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__order_plan(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__number_plan_sets(b, plan);
    if (result == ECS_SCHED_OK) result = ecs_sched__allocate_plan(b, plan);
    if (result == ECS_SCHED_OK) result = ecs_sched__describe_plan_nodes(b, plan);
    if (result == ECS_SCHED_OK) result = ecs_sched__plan_guard_sets(b, plan);
    if (result == ECS_SCHED_OK) result = ecs_sched__plan_successors(b, plan);
    if (result == ECS_SCHED_OK) result = ecs_sched__plan_ambiguities(b, plan);
    return result;
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
    ecs_sched__plan_free(&w->env, ecs_sched__plan_of(s));
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
    return pn->system ? pn->system->ctx.run.name : "apply_deferred";
}

int32_t ecs_sched_schedule_order(ecs_sched_world *w, const char *label, const char **names,
                                 int32_t capacity) {
    ecs_sched__schedule *s;
    int32_t i;
    ECS_SCHED__CHECK_WORLD(w);
    s = ecs_sched__schedule_known(w, label);
    if (!s || ecs_sched__ensure_built(w, s) != ECS_SCHED_OK) return -1;
    for (i = 0; i < ecs_sched__plan_of(s)->node_count && i < capacity; i++) {
        names[i] = ecs_sched__plan_node_name(&ecs_sched__plan_of(s)->nodes[i]);
    }
    return ecs_sched__plan_of(s)->node_count;
}
