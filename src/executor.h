/* executor: running a built plan on a world, single-threaded and parallel. */
#pragma once
#include "plan.h"

/* Runs a stored schedule: builds it first when it is new or changed, then runs its systems in
   plan order, evaluating conditions as it goes, applying commands at sync points and once
   more at the end. Works from an exclusive system too (nested runs), but a schedule cannot
   run while it is already running. */
ECS_SCHED_API ecs_sched_result ecs_sched_run_schedule(ecs_sched_world *world,
                                                     const char *schedule);

/*@@ implementation @@*/
/* executor: running a built plan on a world, single-threaded and parallel. */

/* Applies the pending commands of the schedule's systems, in plan order. The first failure is
   kept in *first_error; the commands it left stay pending for the next sync point. */
static void ecs_sched__apply_pending(ecs_sched__plan *plan, ecs_sched_result *first_error) {
    int32_t i;
    for (i = 0; i < plan->writer_count; i++) {
        ecs_sched_commands *cmd = plan->writers[i]->system->ctx.commands;
        ecs_sched_result result;
        if (ecs_sched_commands_pending(cmd) == 0) continue;
        result = ecs_sched_commands_apply(cmd);
        if (result != ECS_SCHED_OK && *first_error == ECS_SCHED_OK) *first_error = result;
    }
}

/* All of a node's conditions (`count` indexes into the schedule's conditions) are evaluated,
   each at most once per run, then combined. */
static bool ecs_sched__conditions_hold(const ecs_sched__schedule *s, const int32_t *conds,
                                       int32_t count, ecs_sched_result *violation) {
    bool all = true;
    int32_t i;
    for (i = 0; i < count; i++) {
        if (!ecs_sched__cond_eval(&s->conds, conds[i], violation)) all = false;
    }
    return all;
}

/* Whether a node runs: the conditions of its sets, outermost first and each set once per run,
   then its own. */
static bool ecs_sched__node_may_run(ecs_sched__schedule *s, ecs_sched__plan *plan,
                                    const ecs_sched__plan_node *pn, ecs_sched_result *violation) {
    int32_t i;
    for (i = 0; i < pn->guard_set_count; i++) {
        int32_t set = plan->guard_sets[pn->guard_set_start + i];
        if (plan->set_state[set] == 0) {
            const ecs_sched__plan_set *ps = &plan->sets[set];
            plan->set_state[set] =
                ecs_sched__conditions_hold(s, plan->conds + ps->cond_start, ps->cond_count,
                                           violation) ? 1 : 2;
        }
        if (plan->set_state[set] == 2) return false;
    }
    return pn->cond_count == 0 ||
           ecs_sched__conditions_hold(s, plan->conds + pn->cond_start, pn->cond_count, violation);
}

static void ecs_sched__take_violation(ecs_sched_system_ctx *ctx, ecs_sched_result *violation) {
    if (ctx->violation != ECS_SCHED_OK) {
        if (*violation == ECS_SCHED_OK) *violation = ctx->violation;
        ctx->violation = ECS_SCHED_OK;
    }
}

static ecs_sched_result ecs_sched__execute(ecs_sched_world *w, ecs_sched__schedule *s) {
    ecs_sched__plan *plan = s->plan;
    ecs_sched_result error = ECS_SCHED_OK, violation = ECS_SCHED_OK;
    int32_t p;
    (void)w;
    if (plan->set_count) memset(plan->set_state, 0, (size_t)plan->set_count);
    for (p = 0; p < plan->node_count; p++) {
        const ecs_sched__plan_node *pn = &plan->nodes[p];
        ecs_sched__system *sys = pn->system;
        if (!sys) {
            ecs_sched__apply_pending(plan, &error);
            continue;
        }
        if ((pn->guard_set_count || pn->cond_count) && !ecs_sched__node_may_run(s, plan, pn, &violation)) {
            continue;
        }
        if (pn->sync) {
            ecs_sched__apply_pending(plan, &error);
            continue;
        }
        sys->fn(&sys->ctx);
        ecs_sched__take_violation(&sys->ctx, &violation);
    }
    ecs_sched__apply_pending(plan, &error);
    return error != ECS_SCHED_OK ? error : violation;
}

/* ---- the parallel executor ---- */

#ifdef ECS_SCHED_THREADS

typedef struct ecs_sched__run ecs_sched__run;

/* One run of a plan on the pool. Every edge that could change the result when ignored is in
   the plan (see ecs_sched__bind_plan_order), so a node runs as soon as its predecessors are
   done, with no access check. The thread that finishes a node's last predecessor runs it, and
   waits for whatever it starts, so when the roots' run returns, every node has run except
   an exclusive one that was left for the calling thread; an exclusive node is a barrier, so
   there is at most one. */
struct ecs_sched__run {
    ecs_sched__schedule *s;
    ecs_sched_pool *pool;
    int32_t *roots;                  /* the nodes without predecessors */
    int32_t root_count;
    atomic_int *pending;             /* per node: predecessors not done yet */
    atomic_uchar *set_state;         /* per plan set: 0 unknown, 1 evaluating, 2 true, 3 false */
    char pad0[ECS_SCHED__CACHE_LINE];    /* the shared words each on a line of their own */
    atomic_int exclusive_ready;      /* an exclusive node for the calling thread, or -1 */
    char pad1[ECS_SCHED__CACHE_LINE];
    atomic_int violation;            /* the first failure a system or condition reported (an
                                        undeclared access, a failing nested run), or 0 */
};

/* The run state of a plan, one block, made on the plan's first parallel run. */
static ecs_sched__run *ecs_sched__run_state(ecs_sched_world *w, ecs_sched__schedule *s,
                                            ecs_sched_pool *pool) {
    ecs_sched__plan *plan = s->plan;
    size_t n = (size_t)plan->node_count, sets = (size_t)plan->set_count;
    size_t roots_at = (sizeof(ecs_sched__run) + 15) & ~(size_t)15;
    size_t pending_at = roots_at + sizeof(int32_t) * n;
    size_t sets_at = pending_at + sizeof(atomic_int) * n;
    unsigned char *block;
    ecs_sched__run *r;
    size_t i;
    if (plan->run_state) return (ecs_sched__run *)plan->run_state;
    block = (unsigned char *)ecs_sched__alloc(&w->env, sets_at + sizeof(atomic_uchar) * sets + 1);
    if (!block) {
        ecs_sched__out_of_memory(w, "preparing a parallel run");
        return NULL;
    }
    r = (ecs_sched__run *)block;
    r->s = s;
    r->pool = pool;
    r->roots = (int32_t *)(block + roots_at);
    r->root_count = 0;
    r->pending = (atomic_int *)(block + pending_at);
    r->set_state = (atomic_uchar *)(block + sets_at);
    for (i = 0; i < n; i++) {
        if (plan->nodes[i].dependency_count == 0) r->roots[r->root_count++] = (int32_t)i;
        atomic_init(&r->pending[i], 0);
    }
    for (i = 0; i < sets; i++) atomic_init(&r->set_state[i], 0);
    atomic_init(&r->exclusive_ready, -1);
    atomic_init(&r->violation, 0);
    plan->run_state = r;
    return r;
}

static void ecs_sched__run_note_violation(ecs_sched__run *r, ecs_sched_result violation) {
    int none = ECS_SCHED_OK;
    if (violation == ECS_SCHED_OK) return;
    atomic_compare_exchange_strong_explicit(&r->violation, &none, (int)violation,
                                            memory_order_relaxed, memory_order_relaxed);
}

/* A set's conditions, evaluated by the first thread that needs them; the others wait for the
   answer. */
static bool ecs_sched__run_set_holds(ecs_sched__run *r, int32_t set) {
    atomic_uchar *state = &r->set_state[set];
    unsigned char seen = atomic_load_explicit(state, memory_order_acquire), expected = 0;
    if (seen < 2 &&
        atomic_compare_exchange_strong_explicit(state, &expected, 1, memory_order_acq_rel,
                                                memory_order_acquire)) {
        const ecs_sched__plan *plan = r->s->plan;
        const ecs_sched__plan_set *ps = &plan->sets[set];
        ecs_sched_result violation = ECS_SCHED_OK;
        bool holds = ecs_sched__conditions_hold(r->s, plan->conds + ps->cond_start, ps->cond_count,
                                                &violation);
        ecs_sched__run_note_violation(r, violation);
        atomic_store_explicit(state, holds ? 2 : 3, memory_order_release);
        return holds;
    }
    while ((seen = atomic_load_explicit(state, memory_order_acquire)) < 2) ECS_SCHED__CPU_RELAX();
    return seen == 2;
}

static bool ecs_sched__run_node_may_run(ecs_sched__run *r, const ecs_sched__plan_node *pn) {
    const ecs_sched__plan *plan = r->s->plan;
    ecs_sched_result violation = ECS_SCHED_OK;
    bool holds;
    int32_t i;
    for (i = 0; i < pn->guard_set_count; i++) {
        if (!ecs_sched__run_set_holds(r, plan->guard_sets[pn->guard_set_start + i])) return false;
    }
    if (pn->cond_count == 0) return true;
    holds = ecs_sched__conditions_hold(r->s, plan->conds + pn->cond_start, pn->cond_count,
                                       &violation);
    ecs_sched__run_note_violation(r, violation);
    return holds;
}

#define ECS_SCHED__READY_BATCH 64

static void ecs_sched__run_ready(ecs_sched__run *r, const int32_t *nodes, int32_t count);

/* A node is done: its successors lose a predecessor. Those left with none are returned in
   next[0..*count) when they fit, else run from here in batches. */
static void ecs_sched__run_successors(ecs_sched__run *r, int32_t node, int32_t *next,
                                      int32_t *count) {
    const ecs_sched__plan *plan = r->s->plan;
    const ecs_sched__plan_node *pn = &plan->nodes[node];
    int32_t e;
    for (e = pn->successor_start; e < pn->successor_start + pn->successor_count; e++) {
        int32_t t = plan->successors[e];
        if (atomic_fetch_sub_explicit(&r->pending[t], 1, memory_order_acq_rel) != 1) continue;
        if (*count == ECS_SCHED__READY_BATCH) {
            ecs_sched__run_ready(r, next, *count);
            *count = 0;
        }
        next[(*count)++] = t;
    }
}

/* Runs a ready node and then, on the same thread, whatever it alone makes ready, until a node
   makes none or several ready (those go to the pool, and are waited for) or is exclusive (it
   is left for the calling thread). Conditions are evaluated here; a skipped node is done
   without being called. */
static void ecs_sched__run_chain(ecs_sched__run *r, int32_t node) {
    const ecs_sched__plan *plan = r->s->plan;
    int32_t next[ECS_SCHED__READY_BATCH], count;
    for (;;) {
        const ecs_sched__plan_node *pn = &plan->nodes[node];
        bool runs = !(pn->guard_set_count || pn->cond_count) || ecs_sched__run_node_may_run(r, pn);
        if (runs && pn->exclusive) {
            atomic_store_explicit(&r->exclusive_ready, node, memory_order_release);
            break;
        }
        if (runs) {
            ecs_sched_result violation = ECS_SCHED_OK;
            pn->system->fn(&pn->system->ctx);
            ecs_sched__take_violation(&pn->system->ctx, &violation);
            ecs_sched__run_note_violation(r, violation);
        }
        count = 0;
        ecs_sched__run_successors(r, node, next, &count);
        if (count != 1) {
            if (count > 1) ecs_sched__run_ready(r, next, count);
            break;
        }
        node = next[0];
    }
}

typedef struct ecs_sched__ready_list {
    ecs_sched__run *run;
    const int32_t *nodes;
} ecs_sched__ready_list;

static void ecs_sched__run_ready_range(int64_t begin, int64_t end, void *arg) {
    const ecs_sched__ready_list *list = (const ecs_sched__ready_list *)arg;
    int64_t i;
    for (i = begin; i < end; i++) ecs_sched__run_chain(list->run, list->nodes[i]);
}

/* Runs nodes that are ready at once: split over the pool in pieces, so that many small
   systems share a task while large ones each get their own. Returns when all are done. */
static void ecs_sched__run_ready(ecs_sched__run *r, const int32_t *nodes, int32_t count) {
    ecs_sched__ready_list list;
    int64_t grain = count / ((int64_t)r->pool->count * 8);
    if (count == 1) {
        ecs_sched__run_chain(r, nodes[0]);
        return;
    }
    list.run = r;
    list.nodes = nodes;
    ecs_sched_pool_parallel_for(r->pool, 0, count, grain > 0 ? grain : 1,
                                ecs_sched__run_ready_range, &list);
}

static ecs_sched_result ecs_sched__execute_parallel(ecs_sched_world *w, ecs_sched__schedule *s,
                                                    ecs_sched_pool *pool) {
    ecs_sched__plan *plan = s->plan;
    ecs_sched__run *r = ecs_sched__run_state(w, s, pool);
    ecs_sched_result error = ECS_SCHED_OK;
    int32_t i, node;
    if (!r) return w->env.last_result;
    if (plan->node_count == 0) return ECS_SCHED_OK;
    for (i = 0; i < plan->node_count; i++) {
        atomic_store_explicit(&r->pending[i], plan->nodes[i].dependency_count, memory_order_relaxed);
    }
    for (i = 0; i < plan->set_count; i++) {
        atomic_store_explicit(&r->set_state[i], 0, memory_order_relaxed);
    }
    atomic_store_explicit(&r->exclusive_ready, -1, memory_order_relaxed);
    atomic_store_explicit(&r->violation, 0, memory_order_relaxed);
    ecs_sched__run_ready(r, r->roots, r->root_count);
    while ((node = atomic_exchange_explicit(&r->exclusive_ready, -1, memory_order_acq_rel)) >= 0) {
        const ecs_sched__plan_node *pn = &plan->nodes[node];
        int32_t next[ECS_SCHED__READY_BATCH], count = 0;
        if (pn->sync) {
            ecs_sched__apply_pending(plan, &error);
        } else {
            ecs_sched_result violation = ECS_SCHED_OK;
            pn->system->fn(&pn->system->ctx);
            ecs_sched__take_violation(&pn->system->ctx, &violation);
            ecs_sched__run_note_violation(r, violation);
        }
        ecs_sched__run_successors(r, node, next, &count);
        if (count > 0) ecs_sched__run_ready(r, next, count);
    }
    ecs_sched__apply_pending(plan, &error);
    if (error != ECS_SCHED_OK) return error;
    return (ecs_sched_result)atomic_load_explicit(&r->violation, memory_order_relaxed);
}

#endif /* ECS_SCHED_THREADS */

/* Runs a built schedule with the executor its settings ask for. */
static ecs_sched_result ecs_sched__execute_chosen(ecs_sched_world *w, ecs_sched__schedule *s) {
#ifdef ECS_SCHED_THREADS
    if (ecs_sched__runs_in_parallel(s)) {
        ecs_sched_pool *pool = ecs_sched_world_pool(w);
        if (!pool) return w->env.last_result;
        return ecs_sched__execute_parallel(w, s, pool);
    }
#endif
    return ecs_sched__execute(w, s);
}

/* Runs a stored schedule found already (state transitions keep theirs). */
static ecs_sched_result ecs_sched__run_schedule(ecs_sched_world *w, ecs_sched__schedule *s) {
    ecs_sched__schedules *all = w->schedules;
    ecs_sched_result result;
    if (s->running) {
        ecs_sched__text text;
        int32_t i;
        ecs_sched__text_init(&text, &w->env);
        ecs_sched__text_printf(&text, "schedule '%s' is run while it is already running (", s->label);
        for (i = 0; i < all->depth; i++) ecs_sched__text_printf(&text, "%s -> ", all->stack[i]->label);
        ecs_sched__text_printf(&text, "%s); a schedule cannot run itself, directly or through "
                                      "other schedules",
                               s->label);
        result = ecs_sched__fail_text(&w->env, ECS_SCHED_ERR_RECURSIVE_RUN,
                                      text.data ? text.data : "schedule runs itself");
        ecs_sched__text_free(&text);
        return result;
    }
    if (all->depth >= ECS_SCHED__MAX_NESTED_RUNS) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_LIMIT,
                               "running schedule '%s' would nest more than %d schedule runs",
                               s->label, ECS_SCHED__MAX_NESTED_RUNS);
    }
    result = ecs_sched__ensure_built(w, s);
    if (result != ECS_SCHED_OK) return result;
    s->running = true;
    if (all->depth == 0 && !all->top_runs_held) all->top_runs++;
    all->stack[all->depth++] = s;
    result = ecs_sched__execute_chosen(w, s);
    all->depth--;
    s->running = false;
    return result;
}

ecs_sched_result ecs_sched_run_schedule(ecs_sched_world *w, const char *label) {
    ecs_sched__schedule *s;
    ECS_SCHED__CHECK_WORLD(w);
    s = ecs_sched__schedule_known(w, label);
    if (!s) return w->env.last_result;
    return ecs_sched__run_schedule(w, s);
}
