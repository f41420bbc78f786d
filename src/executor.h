/* executor: running a built plan on a world, single-threaded and parallel. */
#pragma once
#include "plan.h"
#include "entity_access.h"
#include "change.h"
#include "observer.h"
#include "stepping.h"

/* Runs a stored schedule: builds it first when it is new or changed, then runs its systems in
   plan order, evaluating conditions as it goes, applying commands at sync points and once
   more at the end. Works from an exclusive system too (nested runs), but a schedule cannot
   run while it is already running. */
ECS_SCHED_API ecs_sched_result ecs_sched_run_schedule(ecs_sched_world *world,
                                                     const char *schedule);

/*@@ implementation @@*/
/* executor: running a built plan on a world, single-threaded and parallel. */

/* Whether the world is watched (trace.h): tracing, statistics, outcomes, systems switched off
   or stepping. Without ECS_SCHED_TRACE, never, and the watched paths are compiled out. */
#ifdef ECS_SCHED_TRACE
#define ECS_SCHED__WATCHED(w) (!ECS_SCHED__LIKELY(!(w)->watched))
#else
#define ECS_SCHED__WATCHED(w) false
#endif

/* ---- failures ----

   A node fails when its system, a condition guarding it, or a command it recorded fails (see
   ERRORS in the documentation block). The run keeps the failure first in plan order, so that
   the parallel executor returns what the single-threaded one does, and the policy (or the
   hook) says whether the run stops. */

static ecs_sched_error_policy ecs_sched__error_policy(const ecs_sched_world *w,
                                                      const ecs_sched__schedule *s) {
    ecs_sched_error_policy policy = s->settings.on_error ? s->settings.on_error : w->on_error;
    return policy == ECS_SCHED_ON_ERROR_HOOK && !w->error_hook.fn ? ECS_SCHED_ON_ERROR_STOP
                                                                 : policy;
}

/* A run decides its failures with the policy and hook in force when it starts, as Bevy's
   schedules do: a system that replaces them changes the runs after, not its own. */
static void ecs_sched__error_handling_take(ecs_sched_world *w, ecs_sched__schedule *s) {
    s->run_policy = ecs_sched__error_policy(w, s);
    s->run_hook = w->error_hook;
}

#ifdef ECS_SCHED_THREADS
static void ecs_sched__failure_lock(ecs_sched_world *w) {
    while (atomic_exchange_explicit(&w->failure_lock, 1, memory_order_acquire)) {
        ECS_SCHED__CPU_RELAX();
    }
}
static void ecs_sched__failure_unlock(ecs_sched_world *w) {
    atomic_store_explicit(&w->failure_lock, 0, memory_order_release);
}
#else
#define ecs_sched__failure_lock(w) ((void)(w))
#define ecs_sched__failure_unlock(w) ((void)(w))
#endif

/* What the hook says of a failure. Hooks hear one failure at a time, and a hook that makes
   something fail again (on its own thread) does not wait for itself; outside any running
   context, so that what fails inside it is nobody's failure. */
static ecs_sched_failure_action ecs_sched__ask_hook(ecs_sched_world *w, ecs_sched__schedule *s,
                                                  ecs_sched_system_ctx *ctx, const char *message) {
    static ECS_SCHED__THREAD_LOCAL bool hearing;
    ecs_sched__running *running = ecs_sched__running_now;
    bool serialize = !hearing;
    ecs_sched_failure failure;
    ecs_sched_failure_action said;
    failure.code = ctx->run.failure;
    failure.kind = ctx->run.kind;
    failure.name = ctx->run.name;
    failure.schedule = s->label;
    failure.message = message;
    if (serialize) {
        ecs_sched__failure_lock(w);
        hearing = true;
    }
    ecs_sched__running_now = NULL;
    said = s->run_hook.fn(&failure, s->run_hook.user_data);
    ecs_sched__running_now = running;
    if (serialize) {
        hearing = false;
        ecs_sched__failure_unlock(w);
    }
    return said;
}

/* The node at plan position `at` failed, as the context kept (its system's, a condition's
   guarding it, or its commands'). The hook hears of it and, under the HOOK policy, decides;
   unless ignored, the run keeps it when it is the first in plan order. The context's failure
   is taken. */
static ecs_sched_failure_action ecs_sched__node_failed_as(ecs_sched__schedule *s, int32_t at,
                                                        ecs_sched_system_ctx *ctx) {
    ecs_sched_world *w = ctx->world;
    ecs_sched_error_policy policy = s->run_policy;
    ecs_sched_failure_action action =
        policy == ECS_SCHED_ON_ERROR_CONTINUE ? ECS_SCHED_FAILURE_CONTINUE : ECS_SCHED_FAILURE_STOP;
    char fallback[ECS_SCHED__ERROR_CAPACITY];
    const char *message = ecs_sched__ctx_failure_message(ctx, fallback, sizeof fallback);
    if (s->run_hook.fn) {
        ecs_sched_failure_action said = ecs_sched__ask_hook(w, s, ctx, message);
        if (policy == ECS_SCHED_ON_ERROR_HOOK) action = said;
    }
    ecs_sched__error_lock(&w->env);
    if (action != ECS_SCHED_FAILURE_IGNORE && s->failure_code == ECS_SCHED_OK) {
        s->failure_at = INT32_MAX;   /* the run's first failure */
        s->stopped = false;
    }
    if (action != ECS_SCHED_FAILURE_IGNORE && at < s->failure_at) {
        s->failure_at = at;
        s->failure_code = ctx->run.failure;
        ecs_sched__append(s->failure_message, sizeof s->failure_message, 0, message);
    }
    if (action == ECS_SCHED_FAILURE_STOP) s->stopped = true;
    ecs_sched__error_unlock(&w->env);
#ifdef ECS_SCHED_TRACE
    ecs_sched__note_failure(w, s, ctx->run.name);
#endif
    ctx->run.failure = ECS_SCHED_OK;
    return action;
}

/* The same; returns whether the run stops. */
static bool ecs_sched__node_failed(ecs_sched__schedule *s, int32_t at, ecs_sched_system_ctx *ctx) {
    return ecs_sched__node_failed_as(s, at, ctx) == ECS_SCHED_FAILURE_STOP;
}

/* Applies the pending commands of the schedule's systems, in plan order, each buffer as its
   system's: a command that cannot be applied fails that system (the commands after it stay
   pending for the next sync point). Applying changes the world, which the system's context
   is allowed meanwhile. Returns whether the run stops. */
ECS_SCHED__NOINLINE static bool ecs_sched__apply_pending_of_writers(ecs_sched__schedule *s) {
    ecs_sched__plan *plan = ecs_sched__plan_of(s);
    bool stop = false;
    int32_t i;
    for (i = 0; i < plan->writer_count; i++) {
        ecs_sched__plan_node *writer = plan->writers[i];
        ecs_sched_system_ctx *ctx = &writer->system->ctx;
        ecs_sched__running *outer;
        if (ctx->commands->pending == 0 && ctx->commands->after_count == 0) continue;
        outer = ecs_sched__running_begin(ctx);
        ctx->run.applying = true;
        ecs_sched_commands_apply(ctx->commands);
        ctx->run.applying = false;
        ecs_sched__running_end(outer);
        if (ctx->run.failure != ECS_SCHED_OK &&
            ecs_sched__node_failed(s, (int32_t)(writer - plan->nodes), ctx)) {
            stop = true;
        }
    }
    return stop;
}

#ifdef ECS_SCHED_TRACE
/* The same, traced: a span with the number of commands applied. */
ECS_SCHED__NOINLINE static bool ecs_sched__apply_pending_watched(ecs_sched__schedule *s) {
    const ecs_sched__plan *plan = ecs_sched__plan_of(s);
    int64_t commands = 0, begin;
    bool stop;
    int32_t i;
    if (plan->writer_count == 0) return false;
    if (!ecs_sched__tracing(s->world)) return ecs_sched__apply_pending_of_writers(s);
    for (i = 0; i < plan->writer_count; i++) {
        commands += ecs_sched_commands_pending(plan->writers[i]->system->ctx.commands);
    }
    begin = ecs_sched__trace_ticks();
    stop = ecs_sched__apply_pending_of_writers(s);
    ecs_sched__note_sync(s, begin, ecs_sched__trace_ticks(),
                         commands > INT32_MAX ? INT32_MAX : (int32_t)commands);
    return stop;
}
#endif

/* The same, its common case (a schedule without command writers) kept to a test where it is
   called. */
static bool ecs_sched__apply_pending(ecs_sched__schedule *s) {
#ifdef ECS_SCHED_TRACE
    if (ECS_SCHED__WATCHED(s->world)) return ecs_sched__apply_pending_watched(s);
#endif
    return ecs_sched__plan_of(s)->writer_count != 0 && ecs_sched__apply_pending_of_writers(s);
}

/* Reports every condition function of these trees that failed in this evaluation (in tree
   order). Returns whether one of them was not ignored: then what they guard does not run,
   since a condition that failed could not tell. */
static bool ecs_sched__report_condition_tree(ecs_sched__schedule *s, int32_t index, int32_t at,
                                             bool *stop) {
    ecs_sched__cond *c = s->conds.items[index];
    bool counted = false;
    int32_t k;
    for (k = 0; k < 2; k++) {
        if (c->operands[k] >= 0 && ecs_sched__report_condition_tree(s, c->operands[k], at, stop)) {
            counted = true;
        }
    }
    if (c->fn && c->ctx.run.failure != ECS_SCHED_OK) {
        ecs_sched_failure_action action = ecs_sched__node_failed_as(s, at, &c->ctx);
        if (action == ECS_SCHED_FAILURE_STOP) *stop = true;
        if (action != ECS_SCHED_FAILURE_IGNORE) counted = true;
    }
    return counted;
}

static bool ecs_sched__report_condition_failures(ecs_sched__schedule *s, const int32_t *conds,
                                                 int32_t count, int32_t at, bool *stop) {
    bool counted = false;
    int32_t i;
    for (i = 0; i < count; i++) {
        if (ecs_sched__report_condition_tree(s, conds[i], at, stop)) counted = true;
    }
    return counted;
}

/* All of a node's conditions (`count` indexes into the schedule's conditions) are evaluated,
   each at most once per run, then combined. A failing one fails the node at `at`; *stop
   says whether the run stops. */
static bool ecs_sched__conditions_hold(ecs_sched__schedule *s, const int32_t *conds,
                                       int32_t count, int32_t at, bool *stop) {
    ecs_sched_system_ctx *failed = NULL;
    bool all = true;
    int32_t i;
    for (i = 0; i < count; i++) {
#ifdef ECS_SCHED_TRACE
        if (ECS_SCHED__WATCHED(s->world)) {
            int64_t begin = ecs_sched__trace_ticks();
            bool held = ecs_sched__cond_eval(&s->conds, conds[i], &failed);
            ecs_sched__note_condition(s, conds[i], at, held, begin, ecs_sched__trace_ticks());
            if (!held) all = false;
            continue;
        }
#endif
        if (!ecs_sched__cond_eval(&s->conds, conds[i], &failed)) all = false;
    }
    if (failed && ecs_sched__report_condition_failures(s, conds, count, at, stop)) all = false;
    return all;
}

/* Whether a node runs: the conditions of its sets, outermost first and each set once per run,
   then its own. */
static ECS_SCHED__ALWAYS_INLINE bool ecs_sched__node_may_run(ecs_sched__schedule *s,
                                                             ecs_sched__plan *plan, int32_t at,
                                                             bool *stop) {
    const ecs_sched__plan_node *pn = &plan->nodes[at];
    int32_t i;
    for (i = 0; i < pn->guard_set_count; i++) {
        int32_t set = plan->guard_sets[pn->guard_set_start + i];
        if (plan->set_state[set] == 0) {
            const ecs_sched__plan_set *ps = &plan->sets[set];
            plan->set_state[set] =
                ecs_sched__conditions_hold(s, plan->conds + ps->cond_start, ps->cond_count,
                                           ps->first_node, stop) ? 1 : 2;
        }
        if (plan->set_state[set] == 2) return false;
    }
    return pn->cond_count == 0 ||
           ecs_sched__conditions_hold(s, plan->conds + pn->cond_start, pn->cond_count, at, stop);
}

/* Calls a system, running on this thread meanwhile. */
static ECS_SCHED__ALWAYS_INLINE void ecs_sched__invoke(ecs_sched__schedule *s,
                                                      ecs_sched__system *sys) {
    ecs_sched__running *outer;
#ifdef ECS_SCHED_TRACE
    if (ECS_SCHED__WATCHED(s->world)) {
        ecs_sched__invoke_watched(s, sys);
        return;
    }
#endif
    (void)s;
    outer = ecs_sched__running_begin(&sys->ctx);
    sys->fn(&sys->ctx);
    ecs_sched__running_end(outer);
}

/* Whether a watched world switched this system off (trace.h): it then neither runs, nor has
   its conditions evaluated, nor takes a tick. */
static ECS_SCHED__ALWAYS_INLINE bool ecs_sched__switched_off(const ecs_sched__schedule *s,
                                                            const ecs_sched__system *sys) {
#ifdef ECS_SCHED_TRACE
    return ECS_SCHED__WATCHED(s->world) && sys->watch.disabled;
#else
    (void)s;
    (void)sys;
    return false;
#endif
}

/* A system that did not run (switched off, or a condition false), for the outcomes of a
   watched run. */
static void ecs_sched__not_run(ecs_sched__schedule *s, int32_t p) {
#ifdef ECS_SCHED_TRACE
    if (ECS_SCHED__WATCHED(s->world)) ecs_sched__note_skipped(s, p);
#endif
    (void)s;
    (void)p;
}

/* Runs plan node `p` that is not a plain system: a sync point applies the pending commands; a
   guarded system runs if its conditions hold. Returns whether the run stops. `tracked`: the
   world tracks changes, and a system that runs takes a tick. */
static ECS_SCHED__ALWAYS_INLINE bool ecs_sched__execute_node_as(ecs_sched__schedule *s,
                                                               int32_t p, bool tracked) {
    ecs_sched__plan *plan = ecs_sched__plan_of(s);
    const ecs_sched__plan_node *pn = &plan->nodes[p];
    ecs_sched__system *sys = pn->system;
    bool stop = false;
    if (!sys) return ecs_sched__apply_pending(s);
    if (!pn->sync && ecs_sched__switched_off(s, sys)) {
        ecs_sched__not_run(s, p);
        return false;
    }
    if ((pn->guard_set_count || pn->cond_count) && !ecs_sched__node_may_run(s, plan, p, &stop)) {
        if (!pn->sync) ecs_sched__not_run(s, p);
        return stop;
    }
    if (stop) return true;
    if (pn->sync) return ecs_sched__apply_pending(s);
    if (tracked) ecs_sched__ctx_take_tick(&sys->ctx);
    ecs_sched__invoke(s, sys);
    return sys->ctx.run.failure != ECS_SCHED_OK && ecs_sched__node_failed(s, p, &sys->ctx);
}

/* Where an unwatched run goes on from guarded node `p`: past the nodes that share its
   outermost guarding set when that set's conditions are false (evaluated here if they were
   not yet), else `p` itself. -1: a condition failed under the STOP policy. */
static ECS_SCHED__ALWAYS_INLINE int32_t ecs_sched__past_false_guard(ecs_sched__schedule *s,
                                                                     ecs_sched__plan *plan,
                                                                     int32_t p, int32_t to) {
    const ecs_sched__plan_node *pn = &plan->nodes[p];
    int32_t set = plan->guard_sets[pn->guard_set_start];
    if (plan->set_state[set] == 0) {
        const ecs_sched__plan_set *ps = &plan->sets[set];
        bool stop = false;
        plan->set_state[set] =
            ecs_sched__conditions_hold(s, plan->conds + ps->cond_start, ps->cond_count,
                                       ps->first_node, &stop) ? 1 : 2;
        if (stop) return -1;
    }
    if (plan->set_state[set] == 1) return p;
    return pn->guard_run_end < to ? pn->guard_run_end : to;
}

/* Runs plan nodes [from, to) one by one, each as its kind asks, in a world that tracks
   changes. */
ECS_SCHED__NOINLINE static bool ecs_sched__execute_nodes(ecs_sched__schedule *s, int32_t from,
                                                         int32_t to) {
    ecs_sched__plan *plan = ecs_sched__plan_of(s);
    bool watched = ECS_SCHED__WATCHED(s->world);
    int32_t p = from;
    while (p < to) {
        if (!watched && plan->nodes[p].guard_set_count) {
            int32_t next = ecs_sched__past_false_guard(s, plan, p, to);
            if (next < 0) return true;
            if (next != p) {
                p = next;
                continue;
            }
        }
        if (ecs_sched__execute_node_as(s, p, true)) return true;
        p++;
    }
    return false;
}

#ifdef ECS_SCHED_TRACE
/* The same in a watched world that tracks no changes. */
ECS_SCHED__NOINLINE static bool ecs_sched__execute_nodes_untracked(ecs_sched__schedule *s,
                                                                   int32_t from, int32_t to) {
    int32_t p;
    for (p = from; p < to; p++) {
        if (ecs_sched__execute_node_as(s, p, false)) return true;
    }
    return false;
}
#endif

/* Calls the system of plan node `p`, one with no condition left to evaluate, in a world that
   tracks no changes; `outer`: what ran before. Returns whether the run stops. Its context's
   failure is not reset (a store before the call costs a fifth of an empty system): it is OK,
   since the failure handling that saw it last reset it. */
static ECS_SCHED__ALWAYS_INLINE bool ecs_sched__call_plain(ecs_sched__schedule *s, int32_t p,
                                                          ecs_sched__system *sys,
                                                          ecs_sched__running *outer) {
    ecs_sched_system_ctx *ctx = &sys->ctx;
    ecs_sched__running_now = &ctx->run;
    sys->fn(ctx);
    ecs_sched__running_now = outer;
    return ctx->run.failure != ECS_SCHED_OK && ecs_sched__node_failed(s, p, ctx);
}

/* Whether plan node `pn` is a system whose one guard is its outermost set. */
static inline bool ecs_sched__guarded_only_by_set(const ecs_sched__plan_node *pn) {
    return pn->guard_set_count == 1 && !(pn->cond_count | pn->sync) && pn->system;
}

/* Whether plan node `pn` is a plain system: one with no condition to evaluate. */
static inline bool ecs_sched__plain_node(const ecs_sched__plan_node *pn) {
    return pn->system && !(pn->guard_set_count | pn->cond_count | pn->sync);
}

/* Runs the nodes from `from` on that are not plain systems, up to the next plain system or
   `to`, in a world that tracks no changes. Returns where it stopped, or -1 when the run
   stops. Kept out of the loop of plain systems, whose registers it would otherwise take;
   a group of systems guarded by conditions is run by one call. */
ECS_SCHED__NOINLINE static int32_t ecs_sched__execute_others(ecs_sched__schedule *s,
                                                             int32_t from, int32_t to) {
    ecs_sched__plan *plan = ecs_sched__plan_of(s);
    const ecs_sched__plan_node *nodes = plan->nodes;
    ecs_sched__running *outer = ecs_sched__running_now;
    int32_t p = from;
    while (p < to && !ecs_sched__plain_node(&nodes[p])) {
        const ecs_sched__plan_node *pn = &nodes[p];
        if (pn->guard_set_count) {
            int32_t next = ecs_sched__past_false_guard(s, plan, p, to);
            if (next < 0) return -1;
            if (next != p) {
                p = next;
                continue;
            }
            if (ecs_sched__guarded_only_by_set(pn)) {
                /* its outermost set holds: the run's nodes with no other guard are plain now */
                int32_t end = pn->guard_run_end < to ? pn->guard_run_end : to;
                do {
                    if (ecs_sched__call_plain(s, p, nodes[p].system, outer)) return -1;
                    p++;
                } while (p < end && ecs_sched__guarded_only_by_set(&nodes[p]));
                continue;
            }
        }
        if (ecs_sched__execute_node_as(s, p, false)) return -1;
        p++;
    }
    return p;
}


/* Runs plan nodes [from, to) on the calling thread. Returns whether the run stops (a failure
   under the STOP policy): then no further node starts. A system with no condition, in a world
   that tracks no changes, is the common node; it is called here, with what ran before read
   once for the whole range, and its context's failure not reset (a store before the call
   costs a fifth of an empty system). Whether the world tracks changes is read once too: one
   that starts tracking them in the middle of a range runs the rest of it as before, and those
   systems take their first tick at their next run, whose window then opens at the start, as a
   first run's does. */
static bool ecs_sched__execute_range(ecs_sched__schedule *s, int32_t from, int32_t to) {
    const ecs_sched__plan_node *nodes = ecs_sched__plan_of(s)->nodes;
    ecs_sched__running *outer = ecs_sched__running_now;
    int32_t p;
    if (s->world->ticks_on) return ecs_sched__execute_nodes(s, from, to);
#ifdef ECS_SCHED_TRACE
    if (ECS_SCHED__WATCHED(s->world)) return ecs_sched__execute_nodes_untracked(s, from, to);
#endif
    for (p = from; p < to; p++) {
        const ecs_sched__plan_node *pn = &nodes[p];
        ecs_sched__system *sys = pn->system;
        if (ECS_SCHED__LIKELY(sys && !(pn->guard_set_count | pn->cond_count | pn->sync))) {
            if (ecs_sched__call_plain(s, p, sys, outer)) return true;
        } else {
            int32_t next = ecs_sched__execute_others(s, p, to);
            if (next < 0) return true;
            p = next - 1;   /* on to the next plain system, or to */
        }
    }
    return false;
}

/* What a failed run leaves: the world's last error is its first failure (later ones, and the
   sync point that applied the last commands, wrote theirs since), and a system running it
   (an exclusive system that ran this schedule) fails with it in turn, its name in front. */
static ecs_sched_result ecs_sched__run_failed(ecs_sched_world *w, ecs_sched__schedule *s,
                                              ecs_sched_result result) {
    const ecs_sched__running *outer = ecs_sched__running_in(&w->env);
    if (s->failure_code == ECS_SCHED_OK) return result;   /* the pool could not be made */
    if (outer) return ecs_sched__fail_text(&w->env, s->failure_code, s->failure_message);
    ecs_sched__error_lock(&w->env);
    memcpy(w->env.last_error, s->failure_message, strlen(s->failure_message) + 1);
    w->env.last_result = s->failure_code;
    ecs_sched__error_unlock(&w->env);
    return s->failure_code;
}

/* Whether a run that returned `result` did not go through: it stopped at a failure, or it
   could not start (a build error, a recursive run). Runners of several schedules (an app's
   orders, the fixed steps) stop there; after a failure under CONTINUE they go on. */
static bool ecs_sched__run_cut_short(const ecs_sched__schedule *s, ecs_sched_result result) {
    return result != ECS_SCHED_OK && (s->stopped || s->failure_code == ECS_SCHED_OK);
}

/* A run's failures start afresh: the rest of the record is reset by its first failure
   (ecs_sched__node_failed_as), so that a run without one pays a single store. */
static void ecs_sched__failures_reset(ecs_sched__schedule *s) {
    s->failure_code = ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__execute(ecs_sched_world *w, ecs_sched__schedule *s) {
    ecs_sched__plan *plan = ecs_sched__plan_of(s);
    (void)w;
    if (plan->set_count) memset(plan->set_state, 0, (size_t)plan->set_count);
    ecs_sched__execute_range(s, 0, plan->node_count);
    ecs_sched__apply_pending(s);
    return s->failure_code;
}

/* ---- the parallel executor ----

   How it decides where a system runs. A schedule whose measured cost is small (the time its
   non-exclusive systems and their conditions take, below ECS_SCHED_PARALLEL_MIN_NS) runs on
   the calling thread in plan order, as on the single-threaded executor, and is timed once
   every ECS_SCHED__SAMPLE_EVERY runs: handing work to another thread would cost more than it
   saves. Above, the calling thread starts with every node that has no predecessor (the
   roots, in plan order), and each thread runs what it holds itself: first the nodes it made
   ready, newest first, then its roots in order. Whenever what it holds beyond the node it
   runs next is worth ECS_SCHED_OFFER_MIN_NS, it offers about half of all its work as one
   task: the last of its roots (found by cost, from running sums of the roots' estimates), or
   when it has no roots left the oldest of its ready nodes. A worker that is awake takes the
   offer (and offers half of it in turn when that is worth it); if none is, the thread takes
   it back once it has run the rest. A sleeping worker is woken only for an offer worth
   ECS_SCHED_WAKE_MIN_NS. A node's cost is what its conditions and system took, averaged:
   measured on its first parallel run, on every run once it costs ECS_SCHED__TIMED_ALWAYS_NS,
   and one run in ECS_SCHED__SAMPLE_EVERY otherwise. Where a node runs never changes what it
   sees: every edge that could change the result is in the plan (ecs_sched__bind_plan_order),
   and a node runs only once its predecessors are done. */

#ifdef ECS_SCHED_THREADS

#ifndef ECS_SCHED_PARALLEL_MIN_NS
#define ECS_SCHED_PARALLEL_MIN_NS 4000
#endif
#ifndef ECS_SCHED_OFFER_MIN_NS
#define ECS_SCHED_OFFER_MIN_NS 2000
#endif
#ifndef ECS_SCHED_WAKE_MIN_NS
#define ECS_SCHED_WAKE_MIN_NS 20000
#endif
#define ECS_SCHED__TIMED_ALWAYS_NS 1000
#define ECS_SCHED__SAMPLE_EVERY 32u   /* a power of two */

typedef struct ecs_sched__run ecs_sched__run;

/* A node's part of the run state. The first node of an offered batch also holds the batch,
   and is the task's argument. */
typedef struct ecs_sched__run_slot {
    ecs_sched__run *run;
    int32_t node;
    int32_t newer, older;        /* its neighbours in the ready list that holds it, or -1 */
    int32_t cost_ns;             /* estimated cost; 0 until measured */
    int32_t batch_first;         /* a batch of roots: their positions in run->roots, [first, */
    int32_t batch_last;          /* last); a batch of ready nodes: the oldest and newest */
    int32_t batch_count;         /* ready nodes in the batch; -1 for a batch of roots */
    int64_t batch_cost;
    int32_t main_next;           /* in run->main_ready: the node handed over before it, or -1 */
} ecs_sched__run_slot;

/* What one thread holds: roots not started yet, and the nodes it made ready, linked through
   their slots. */
typedef struct ecs_sched__work {
    int32_t first, end;          /* run->roots[first, end) */
    int32_t newest, oldest, count;
    int64_t ready_cost;          /* the sum of the ready nodes' estimates */
} ecs_sched__work;

/* The state of a plan's parallel runs, one block, made on its first parallel run. Every
   edge that could change the result when ignored is in the plan, so a node runs as soon as
   its predecessors are done, with no access check. An exclusive node (sync points too) is
   left for the calling thread; it is ordered against every other node, so when it is ready,
   nothing else is. */
struct ecs_sched__run {
    ecs_sched__schedule *s;
    ecs_sched_pool *pool;
    ecs_sched__run_slot *slots;      /* per node */
    int32_t *roots;                  /* the nodes without predecessors, in plan order */
    int64_t *root_sums;              /* root_sums[i]: the estimates of roots[0, i) */
    int32_t root_count;
    int32_t *joins;                  /* the nodes with several: they count them down */
    int32_t join_count;
    atomic_int *pending;             /* per node: predecessors not done yet (joins only) */
    atomic_uchar *set_state;         /* per plan set: 0 unknown, 1 evaluating, 2 true, 3 false */
    int64_t clock_ns;                /* what reading the clock costs: taken off each timing */
    struct ecs_sched_task_group group;   /* the batches offered during a run */
    char pad0[ECS_SCHED__CACHE_LINE];    /* the shared words each on a line of their own */
    atomic_int exclusive_ready;      /* an exclusive node for the calling thread, or -1 */
    char pad1[ECS_SCHED__CACHE_LINE];
    atomic_int main_ready;           /* main-thread nodes other threads found ready, newest
                                        first through their slots' main_next; -1: none */
    int32_t caller;                  /* the calling thread's worker index (-1: outside) */
    bool has_main;                   /* the plan has main-thread nodes */
    char pad3[ECS_SCHED__CACHE_LINE];
    atomic_int stop_at;              /* after a failure that stops the run: no node after this
                                        plan position starts; INT32_MAX while none */
    char pad2[ECS_SCHED__CACHE_LINE];
    atomic_int_least64_t cost_ns;    /* the estimates of the nodes run, summed per batch */
    atomic_bool root_sums_stale;     /* a root's estimate changed since they were summed */
};

/* The parallel executor's state for a plan, or NULL. */
static inline ecs_sched__run *ecs_sched__run_of(const ecs_sched__plan *plan) {
    return (ecs_sched__run *)plan->run_state;
}

/* ---- the run state ---- */

#define ECS_SCHED__RUN_ALIGN(size) (((size) + 15) & ~(size_t)15)

/* The least time seen between two readings of the clock: a timing of a system includes it,
   which would make a tiny system look several times its cost. */
static int64_t ecs_sched__clock_cost_ns(void) {
    int64_t least = INT64_MAX;
    int i;
    for (i = 0; i < 16; i++) {
        int64_t a = ecs_sched__now_ns(), b = ecs_sched__now_ns();
        if (b - a < least) least = b - a;
    }
    return least > 0 ? least : 0;
}

/* Where each part of the block goes; returns its size. */
typedef struct ecs_sched__run_layout {
    size_t slots, sums, roots, joins, pending, sets;
} ecs_sched__run_layout;

static size_t ecs_sched__run_layout_of(const ecs_sched__plan *plan, ecs_sched__run_layout *at) {
    size_t n = (size_t)plan->node_count;
    at->slots = ECS_SCHED__RUN_ALIGN(sizeof(ecs_sched__run));
    at->sums = at->slots + ECS_SCHED__RUN_ALIGN(sizeof(ecs_sched__run_slot) * n);
    at->roots = at->sums + sizeof(int64_t) * (n + 1);
    at->joins = at->roots + sizeof(int32_t) * n;
    at->pending = ECS_SCHED__RUN_ALIGN(at->joins + sizeof(int32_t) * n);
    at->sets = at->pending + sizeof(atomic_int) * n;
    return at->sets + sizeof(atomic_uchar) * (size_t)plan->set_count + 1;
}

/* The calling thread starts with the roots in plan order and offers the last ones: with the
   main-thread roots first (in plan order still), what it offers can run elsewhere. The order
   of roots is free: edges alone decide what may run when. */
static void ecs_sched__main_thread_roots_first(ecs_sched__run *r, const ecs_sched__plan *plan) {
    int32_t i, at = 0, moved;
    for (i = 0; i < r->root_count; i++) {
        int32_t node = r->roots[i];
        if (!plan->nodes[node].main_thread) continue;
        for (moved = i; moved > at; moved--) r->roots[moved] = r->roots[moved - 1];
        r->roots[at++] = node;
    }
}

static ecs_sched__run *ecs_sched__run_state_init(unsigned char *block,
                                                 const ecs_sched__run_layout *at,
                                                 ecs_sched__schedule *s, ecs_sched_pool *pool) {
    ecs_sched__plan *plan = ecs_sched__plan_of(s);
    size_t n = (size_t)plan->node_count, i;
    ecs_sched__run *r = (ecs_sched__run *)block;
    r->s = s;
    r->pool = pool;
    r->slots = (ecs_sched__run_slot *)(block + at->slots);
    r->root_sums = (int64_t *)(block + at->sums);
    r->roots = (int32_t *)(block + at->roots);
    r->joins = (int32_t *)(block + at->joins);
    r->pending = (atomic_int *)(block + at->pending);
    r->set_state = (atomic_uchar *)(block + at->sets);
    r->root_count = r->join_count = 0;
    for (i = 0; i < n; i++) {
        int32_t deps = plan->nodes[i].dependency_count;
        ecs_sched__run_slot *slot = &r->slots[i];
        memset(slot, 0, sizeof *slot);
        slot->run = r;
        slot->node = (int32_t)i;
        if (deps == 0) r->roots[r->root_count++] = (int32_t)i;
        if (deps > 1) r->joins[r->join_count++] = (int32_t)i;
        atomic_init(&r->pending[i], 0);
    }
    ecs_sched__main_thread_roots_first(r, plan);
    memset(r->root_sums, 0, sizeof(int64_t) * (n + 1));
    for (i = 0; i < (size_t)plan->set_count; i++) atomic_init(&r->set_state[i], 0);
    r->clock_ns = ecs_sched__clock_cost_ns();
    atomic_init(&r->group.pending, 0);
    r->group.slots = NULL;
    r->group.slot_count = 0;
    atomic_init(&r->exclusive_ready, -1);
    atomic_init(&r->main_ready, -1);
    r->caller = -1;
    r->has_main = false;
    for (i = 0; i < n; i++) r->has_main = r->has_main || plan->nodes[i].main_thread;
    atomic_init(&r->stop_at, INT32_MAX);
    atomic_init(&r->cost_ns, 0);
    atomic_init(&r->root_sums_stale, true);
    return r;
}

static ecs_sched__run *ecs_sched__run_state(ecs_sched_world *w, ecs_sched__schedule *s,
                                            ecs_sched_pool *pool) {
    ecs_sched__plan *plan = ecs_sched__plan_of(s);
    ecs_sched__run_layout at;
    unsigned char *block;
    if (ecs_sched__run_of(plan)) return ecs_sched__run_of(plan);
    block = (unsigned char *)ecs_sched__alloc(&w->env, ecs_sched__run_layout_of(plan, &at));
    if (!block) {
        ecs_sched__out_of_memory(w, "preparing a parallel run");
        return NULL;
    }
    plan->run_state = ecs_sched__run_state_init(block, &at, s, pool);
    return ecs_sched__run_of(plan);
}

/* A failure at plan position `at` stops the run: no node after it starts (those before it
   still run, as they would on one thread). */
static void ecs_sched__run_stop(ecs_sched__run *r, int32_t at) {
    int seen = atomic_load_explicit(&r->stop_at, memory_order_relaxed);
    while (at < seen &&
           !atomic_compare_exchange_weak_explicit(&r->stop_at, &seen, at, memory_order_relaxed,
                                                  memory_order_relaxed)) {
    }
}

static bool ecs_sched__run_stopped_before(ecs_sched__run *r, int32_t node) {
    return node > atomic_load_explicit(&r->stop_at, memory_order_relaxed);
}

/* ---- conditions ---- */

/* A set's conditions, evaluated by the first thread that needs them (for node `node`); the
   others wait for the answer. */
static bool ecs_sched__run_set_holds(ecs_sched__run *r, int32_t set, int32_t node) {
    atomic_uchar *state = &r->set_state[set];
    unsigned char seen = atomic_load_explicit(state, memory_order_acquire), expected = 0;
    if (seen < 2 &&
        atomic_compare_exchange_strong_explicit(state, &expected, 1, memory_order_acq_rel,
                                                memory_order_acquire)) {
        const ecs_sched__plan *plan = ecs_sched__plan_of(r->s);
        const ecs_sched__plan_set *ps = &plan->sets[set];
        bool stop = false;
        bool holds = ecs_sched__conditions_hold(r->s, plan->conds + ps->cond_start, ps->cond_count,
                                                ps->first_node, &stop);
        /* as on one thread, where the set's first node stops the run: nothing from it on */
        if (stop) ecs_sched__run_stop(r, ps->first_node - 1);
        (void)node;
        atomic_store_explicit(state, holds ? 2 : 3, memory_order_release);
        return holds;
    }
    while ((seen = atomic_load_explicit(state, memory_order_acquire)) < 2) ECS_SCHED__CPU_RELAX();
    return seen == 2;
}

static bool ecs_sched__run_node_may_run(ecs_sched__run *r, int32_t node) {
    const ecs_sched__plan *plan = ecs_sched__plan_of(r->s);
    const ecs_sched__plan_node *pn = &plan->nodes[node];
    bool holds, stop = false;
    int32_t i;
    if (!pn->sync && ecs_sched__switched_off(r->s, pn->system)) return false;
    for (i = 0; i < pn->guard_set_count; i++) {
        if (!ecs_sched__run_set_holds(r, plan->guard_sets[pn->guard_set_start + i], node)) {
            return false;
        }
    }
    if (pn->cond_count == 0) return true;
    holds = ecs_sched__conditions_hold(r->s, plan->conds + pn->cond_start, pn->cond_count, node,
                                       &stop);
    if (stop) ecs_sched__run_stop(r, node);
    return holds && !stop;
}

/* ---- what a thread holds ---- */

static void ecs_sched__work_clear(ecs_sched__work *work) {
    work->first = work->end = 0;
    work->newest = work->oldest = -1;
    work->count = 0;
    work->ready_cost = 0;
}

static void ecs_sched__work_push(ecs_sched__run *r, ecs_sched__work *work, int32_t node) {
    ecs_sched__run_slot *slot = &r->slots[node];
    slot->older = work->newest;
    slot->newer = -1;
    if (work->newest >= 0) r->slots[work->newest].newer = node;
    else work->oldest = node;
    work->newest = node;
    work->count++;
    work->ready_cost += slot->cost_ns;
}

/* The newest ready node, else the first root; -1 when nothing is left. */
static int32_t ecs_sched__work_take(ecs_sched__run *r, ecs_sched__work *work) {
    int32_t node = work->newest;
    const ecs_sched__run_slot *slot;
    if (node < 0) return work->first < work->end ? r->roots[work->first++] : -1;
    slot = &r->slots[node];
    work->newest = slot->older;
    if (work->newest >= 0) r->slots[work->newest].newer = -1;
    else work->oldest = -1;
    work->count--;
    work->ready_cost -= slot->cost_ns;
    return node;
}

static int64_t ecs_sched__roots_cost(const ecs_sched__run *r, int32_t first, int32_t end) {
    return r->root_sums[end] - r->root_sums[first];
}

static int64_t ecs_sched__work_cost(const ecs_sched__run *r, const ecs_sched__work *work) {
    return work->ready_cost + ecs_sched__roots_cost(r, work->first, work->end);
}

/* A node is done: its successors lose a predecessor; those left with none join the work, the
   first successor on top, so that it runs next. */
static void ecs_sched__run_successors(ecs_sched__run *r, int32_t node, ecs_sched__work *work) {
    const ecs_sched__plan *plan = ecs_sched__plan_of(r->s);
    const ecs_sched__plan_node *pn = &plan->nodes[node];
    int32_t e = pn->successor_start + pn->successor_count;
    while (e-- > pn->successor_start) {
        int32_t t = plan->successors[e];
        if (plan->nodes[t].dependency_count == 1 ||
            atomic_fetch_sub_explicit(&r->pending[t], 1, memory_order_acq_rel) == 1) {
            ecs_sched__work_push(r, work, t);
        }
    }
}

/* ---- offering work ---- */

static void ecs_sched__run_batch(void *arg);

static void ecs_sched__offer(ecs_sched__run *r, ecs_sched__run_slot *first, int64_t cost) {
    first->batch_cost = cost;
    ecs_sched__pool_offer(r->pool, &r->group, ecs_sched__run_batch, first,
                          cost >= ECS_SCHED_WAKE_MIN_NS);
}

/* Offers the last roots, from the one after which the rest costs no more than `target`
   (at least one root). */
static void ecs_sched__offer_roots(ecs_sched__run *r, ecs_sched__work *work, int64_t target) {
    int32_t low = work->first, high = work->end - 1;
    ecs_sched__run_slot *first;
    while (low < high) {   /* the first position p in [first, end) with sums[end] - sums[p] <= target */
        int32_t mid = low + (high - low) / 2;
        if (ecs_sched__roots_cost(r, mid, work->end) <= target) high = mid;
        else low = mid + 1;
    }
    first = &r->slots[r->roots[low]];
    first->batch_first = low;
    first->batch_last = work->end;
    first->batch_count = -1;
    work->end = low;
    ecs_sched__offer(r, first, ecs_sched__roots_cost(r, low, first->batch_last));
}

/* Offers the oldest ready nodes, up to about `target` (at least one node). */
static void ecs_sched__offer_ready(ecs_sched__run *r, ecs_sched__work *work, int64_t target) {
    ecs_sched__run_slot *first = &r->slots[work->oldest];
    int64_t cost = first->cost_ns;
    int32_t last = work->oldest, count = 1;
    while (cost < target && r->slots[last].newer >= 0) {
        last = r->slots[last].newer;
        cost += r->slots[last].cost_ns;
        count++;
    }
    work->oldest = r->slots[last].newer;
    if (work->oldest >= 0) r->slots[work->oldest].older = -1;
    else work->newest = -1;
    work->count -= count;
    work->ready_cost -= cost;
    r->slots[last].newer = -1;
    first->batch_first = first->node;
    first->batch_last = last;
    first->batch_count = count;
    ecs_sched__offer(r, first, cost);
}

/* Offers about half of all the thread's work: the work left and the node it runs next,
   which costs `running_ns`. Roots go first: they are the oldest. */
static void ecs_sched__offer_half(ecs_sched__run *r, ecs_sched__work *work, int32_t running_ns) {
    int64_t target = (ecs_sched__work_cost(r, work) + running_ns) / 2;
    if (work->first < work->end) ecs_sched__offer_roots(r, work, target);
    else ecs_sched__offer_ready(r, work, target);
}

/* ---- running nodes ---- */

/* Calls the system at plan position `at`, running on this thread meanwhile; returns whether
   the run stops. */
static ECS_SCHED__ALWAYS_INLINE bool ecs_sched__call_system(ecs_sched__schedule *s,
                                                           ecs_sched__system *sys, int32_t at) {
    if (s->world->ticks_on) ecs_sched__ctx_take_tick(&sys->ctx);
    ecs_sched__invoke(s, sys);
    return sys->ctx.run.failure != ECS_SCHED_OK && ecs_sched__node_failed(s, at, &sys->ctx);
}

/* Calls the system of node `node`; a failure that stops the run stops it there. Inlined,
   with call_system, into the node runner: the two calls cost a one-query system a tenth more. */
static ECS_SCHED__ALWAYS_INLINE void ecs_sched__run_system(ecs_sched__run *r,
                                                          ecs_sched__system *sys, int32_t node) {
    if (ecs_sched__switched_off(r->s, sys)) {
        ecs_sched__not_run(r->s, node);
        return;
    }
    if (ecs_sched__call_system(r->s, sys, node)) ecs_sched__run_stop(r, node);
}

static bool ecs_sched__time_this(int32_t cost_ns, uint32_t turn) {
    return cost_ns == 0 || cost_ns >= ECS_SCHED__TIMED_ALWAYS_NS ||
           (turn & (ECS_SCHED__SAMPLE_EVERY - 1u)) == 0;
}

/* The estimate after one more measurement: the first one as it is, then a running average
   that gives the new one half the weight. */
static int32_t ecs_sched__averaged_cost(int32_t estimate, int64_t measured) {
    int64_t sample = measured < 1 ? 1 : measured > INT32_MAX / 4 ? INT32_MAX / 4 : measured;
    return estimate == 0 ? (int32_t)sample : (int32_t)(((int64_t)estimate + sample) / 2);
}

/* An exclusive node whose conditions hold is left for the calling thread (a main-thread
   one with its conditions unevaluated: the calling thread evaluates them). */
static void ecs_sched__leave_exclusive(ecs_sched__run *r, int32_t node, ecs_sched__work *work) {
    const ecs_sched__plan_node *pn = &ecs_sched__plan_of(r->s)->nodes[node];
    if (!pn->main_thread && (pn->guard_set_count || pn->cond_count) &&
        !ecs_sched__run_stopped_before(r, node) && !ecs_sched__run_node_may_run(r, node)) {
        if (!pn->sync) ecs_sched__not_run(r->s, node);
        ecs_sched__run_successors(r, node, work);
    } else {
        atomic_store_explicit(&r->exclusive_ready, node, memory_order_release);
    }
}

/* A main-thread node another thread found ready: the calling thread runs it (and evaluates
   its conditions), when it next looks (between nodes, or while it waits). */
static void ecs_sched__hand_to_caller(ecs_sched__run *r, int32_t node) {
    ecs_sched__run_slot *slot = &r->slots[node];
    int32_t head = atomic_load_explicit(&r->main_ready, memory_order_relaxed);
    do {
        slot->main_next = head;
    } while (!atomic_compare_exchange_weak_explicit(&r->main_ready, &head, node,
                                                    memory_order_release, memory_order_relaxed));
    ecs_sched__event_notify(&r->pool->idle, true);  /* the caller may sleep in its wait */
}

/* The calling thread takes the main-thread nodes handed to it into its work. */
static bool ecs_sched__take_main_ready(ecs_sched__run *r, ecs_sched__work *work) {
    int32_t node;
    if (atomic_load_explicit(&r->main_ready, memory_order_relaxed) < 0) return false;
    node = atomic_exchange_explicit(&r->main_ready, -1, memory_order_acquire);
    while (node >= 0) {
        int32_t next = r->slots[node].main_next;
        ecs_sched__work_push(r, work, node);
        node = next;
    }
    return true;
}

/* Runs a ready node (its conditions, then its system) and adds the nodes it makes ready to
   the work. Returns the node's estimate. */
static int32_t ecs_sched__run_node(ecs_sched__run *r, int32_t node, ecs_sched__work *work) {
    const ecs_sched__plan *plan = ecs_sched__plan_of(r->s);
    const ecs_sched__plan_node *pn = &plan->nodes[node];
    ecs_sched__run_slot *slot = &r->slots[node];
    bool timed;
    int64_t start;
    if (pn->exclusive) {
        ecs_sched__leave_exclusive(r, node, work);
        return 0;
    }
    if (pn->main_thread && ecs_sched__self(r->pool) != r->caller) {
        ecs_sched__hand_to_caller(r, node);
        return 0;
    }
    timed = ecs_sched__time_this(slot->cost_ns, plan->runs + (uint32_t)node);
    start = timed ? ecs_sched__now_ns() : 0;
    if (!ecs_sched__run_stopped_before(r, node) &&
        (!(pn->guard_set_count || pn->cond_count) || ecs_sched__run_node_may_run(r, node))) {
        ecs_sched__run_system(r, pn->system, node);
    }
#ifdef ECS_SCHED_TRACE
    else if (!ecs_sched__run_stopped_before(r, node)) {
        ecs_sched__not_run(r->s, node);
    }
#endif
    if (timed) {
        int32_t was = slot->cost_ns;
        slot->cost_ns = ecs_sched__averaged_cost(was, ecs_sched__now_ns() - start - r->clock_ns);
        if (pn->dependency_count == 0 && slot->cost_ns != was) {
            atomic_store_explicit(&r->root_sums_stale, true, memory_order_relaxed);
        }
    }
    ecs_sched__run_successors(r, node, work);
    return slot->cost_ns;
}

/* Runs the work to its end, offering half of it whenever that is worth a hand-off and the
   last offer was taken: while an offer waits in this thread's deque, no other thread is
   looking for work, and another offer would only cost a push now and a take back later
   (lazy binary splitting). */
static void ecs_sched__run_work(ecs_sched__run *r, ecs_sched__work *work) {
    int32_t self = ecs_sched__self(r->pool);
    bool may_offer = r->pool->count > 1, gathers_main = r->has_main && self == r->caller;
    int64_t spent = 0;
    int32_t node;
    for (;;) {
        if (gathers_main) ecs_sched__take_main_ready(r, work);
        if ((node = ecs_sched__work_take(r, work)) < 0) break;
        if (may_offer && (work->count > 0 || work->first < work->end) &&
            !ecs_sched__pool_holds_tasks(r->pool, self) &&
            ecs_sched__work_cost(r, work) >= ECS_SCHED_OFFER_MIN_NS) {
            ecs_sched__offer_half(r, work, r->slots[node].cost_ns);
        }
        spent += ecs_sched__run_node(r, node, work);
    }
    if (spent) atomic_fetch_add_explicit(&r->cost_ns, spent, memory_order_relaxed);
}

static void ecs_sched__run_batch(void *arg) {
    ecs_sched__run_slot *first = (ecs_sched__run_slot *)arg;
    ecs_sched__work work;
    ecs_sched__work_clear(&work);
    if (first->batch_count < 0) {
        work.first = first->batch_first;
        work.end = first->batch_last;
    } else {
        work.oldest = first->batch_first;
        work.newest = first->batch_last;
        work.count = first->batch_count;
        work.ready_cost = first->batch_cost;
    }
    ecs_sched__run_work(first->run, &work);
}

/* Runs the exclusive node a thread left for the calling thread. */
static void ecs_sched__run_exclusive(ecs_sched__run *r, int32_t node) {
    const ecs_sched__plan_node *pn = &ecs_sched__plan_of(r->s)->nodes[node];
    if (ecs_sched__run_stopped_before(r, node)) return;
    if (pn->sync) {
        if (ecs_sched__apply_pending(r->s)) ecs_sched__run_stop(r, node);
    } else {
        ecs_sched__run_system(r, pn->system, node);
    }
}

static void ecs_sched__sum_root_costs(ecs_sched__run *r) {
    int64_t sum = 0;
    int32_t i;
    for (i = 0; i < r->root_count; i++) {
        r->root_sums[i] = sum;
        sum += r->slots[r->roots[i]].cost_ns;
    }
    r->root_sums[r->root_count] = sum;
}

/* Gets the run state ready for a run; the work of the calling thread: all the roots. */
static void ecs_sched__run_reset(ecs_sched__run *r, ecs_sched__work *work) {
    const ecs_sched__plan *plan = ecs_sched__plan_of(r->s);
    int32_t i;
    for (i = 0; i < r->join_count; i++) {
        int32_t node = r->joins[i];
        atomic_store_explicit(&r->pending[node], plan->nodes[node].dependency_count,
                              memory_order_relaxed);
    }
    for (i = 0; i < plan->set_count; i++) {
        atomic_store_explicit(&r->set_state[i], 0, memory_order_relaxed);
    }
    if (atomic_exchange_explicit(&r->root_sums_stale, false, memory_order_relaxed)) {
        ecs_sched__sum_root_costs(r);
    }
    atomic_store_explicit(&r->exclusive_ready, -1, memory_order_relaxed);
    atomic_store_explicit(&r->stop_at, INT32_MAX, memory_order_relaxed);
    atomic_store_explicit(&r->cost_ns, 0, memory_order_relaxed);
    ecs_sched__work_clear(work);
    work->end = r->root_count;
}

/* Whether a main-thread node waits for the calling thread: its wait stops for it. */
static bool ecs_sched__main_waits(void *arg) {
    ecs_sched__run *r = (ecs_sched__run *)arg;
    return atomic_load_explicit(&r->main_ready, memory_order_acquire) >= 0;
}

static ecs_sched_result ecs_sched__execute_parallel(ecs_sched__run *r) {
    ecs_sched__plan *plan = ecs_sched__plan_of(r->s);
    ecs_sched__work work;
    int32_t node;
    ecs_sched__run_reset(r, &work);
    r->caller = ecs_sched__self(r->pool);
    for (;;) {
        const ecs_sched__plan_node *pn;
        ecs_sched__run_work(r, &work);
        ecs_sched__pool_wait_or(r->pool, &r->group, r->has_main ? ecs_sched__main_waits : NULL, r);
        if (ecs_sched__take_main_ready(r, &work)) continue;
        node = atomic_exchange_explicit(&r->exclusive_ready, -1, memory_order_acq_rel);
        if (node < 0) break;
        pn = &plan->nodes[node];
        if (pn->main_thread && (pn->guard_set_count || pn->cond_count) &&
            !ecs_sched__run_stopped_before(r, node) && !ecs_sched__run_node_may_run(r, node)) {
            if (!pn->sync) ecs_sched__not_run(r->s, node);
            ecs_sched__run_successors(r, node, &work);
            continue;
        }
        ecs_sched__run_exclusive(r, node);
        ecs_sched__run_successors(r, node, &work);
    }
    ecs_sched__apply_pending(r->s);
    return r->s->failure_code;
}

/* ---- choosing, run by run ---- */

#define ECS_SCHED__RETRY_FIRST 16u
#define ECS_SCHED__RETRY_MOST 256u

static void ecs_sched__run_times_add(ecs_sched__run_times *t, int64_t took) {
    t->recent[t->next] = took > 1 ? took : 1;
    t->next = (t->next + 1) % ECS_SCHED__RECENT_RUNS;
}

/* The least recent time; 0 when there is none. */
static int64_t ecs_sched__run_times_best(const ecs_sched__run_times *t) {
    int64_t best = 0;
    int32_t i;
    for (i = 0; i < ECS_SCHED__RECENT_RUNS; i++) {
        if (t->recent[i] > 0 && (best == 0 || t->recent[i] < best)) best = t->recent[i];
    }
    return best;
}

/* A run on the calling thread, timed: the part a parallel run could spread (all but the
   exclusive nodes) goes to plan->work_ns, the whole run to *took. */
static ecs_sched_result ecs_sched__execute_measured(ecs_sched__schedule *s, int64_t *took) {
    ecs_sched__plan *plan = ecs_sched__plan_of(s);
    bool whole = plan->exclusive_count == 0;   /* all of it could be spread: one timing */
    bool stopped = false;
    int64_t began = ecs_sched__now_ns(), work = 0;
    int32_t p = 0, k;
    if (plan->set_count) memset(plan->set_state, 0, (size_t)plan->set_count);
    for (k = 0; k <= plan->exclusive_count && !stopped; k++) {
        int32_t end = k < plan->exclusive_count ? plan->exclusive_at[k] : plan->node_count;
        if (p < end) {
            int64_t start = whole ? 0 : ecs_sched__now_ns();
            stopped = ecs_sched__execute_range(s, p, end);
            if (!whole) work += ecs_sched__now_ns() - start;
        }
        if (!stopped && end < plan->node_count) stopped = ecs_sched__execute_range(s, end, end + 1);
        p = end + 1;
    }
    ecs_sched__apply_pending(s);
    *took = ecs_sched__now_ns() - began;
    if (whole) work = *took;
    plan->work_ns = work > 1 ? work : 1;
    return s->failure_code;
}

/* A parallel run, timed. Its first one, made before any system had an estimate, offered
   nothing, so it says nothing about what threads gain. When the estimates of the systems it
   ran add up to less than ECS_SCHED_PARALLEL_MIN_NS, the schedule is cheap again. */
static ecs_sched_result ecs_sched__execute_parallel_measured(ecs_sched__run *r, bool counts) {
    ecs_sched__plan *plan = ecs_sched__plan_of(r->s);
    int64_t began = ecs_sched__now_ns(), took, estimates;
    ecs_sched_result result = ecs_sched__execute_parallel(r);
    took = ecs_sched__now_ns() - began;
    if (plan->parallel_runs++ > 0 && counts) ecs_sched__run_times_add(&plan->parallel, took);
    estimates = atomic_load_explicit(&r->cost_ns, memory_order_relaxed);
    if (estimates < ECS_SCHED_PARALLEL_MIN_NS) plan->work_ns = estimates > 1 ? estimates : 1;
    return result;
}

/* Before a parallel run that follows runs on the calling thread: node estimates change only
   in parallel runs, so while the calling thread wins they can drift far from what the nodes
   now take (the first ones, made on cold caches, stay for thousands of runs). Their total is
   brought back to the last timing of the whole work when it is off by more than half (too
   high, a run would wake workers for work that is not there; too low, it would keep work it
   should share). */
static void ecs_sched__rescale_estimates(ecs_sched__run *r, int64_t work_ns) {
    const ecs_sched__plan *plan = ecs_sched__plan_of(r->s);
    int64_t total = 0;
    int32_t i;
    for (i = 0; i < plan->node_count; i++) total += r->slots[i].cost_ns;
    if (total <= 0 || (total <= 2 * work_ns && 2 * total >= work_ns)) return;
    for (i = 0; i < plan->node_count; i++) {
        ecs_sched__run_slot *slot = &r->slots[i];
        if (slot->cost_ns > 0) {
            int64_t scaled = (int64_t)((double)slot->cost_ns * (double)work_ns / (double)total);
            slot->cost_ns = scaled > 1 ? (int32_t)scaled : 1;
        }
    }
    atomic_store_explicit(&r->root_sums_stale, true, memory_order_relaxed);
}

static bool ecs_sched__parallel_wins(const ecs_sched__plan *plan) {
    int64_t parallel = ecs_sched__run_times_best(&plan->parallel);
    return parallel > 0 && parallel < ecs_sched__run_times_best(&plan->single);
}

/* Runs the way that has been faster; now and then, the other way, to see whether that has
   changed: soon after a change of winner, less and less often while the winner stays. Until
   a parallel run has been timed, every run is parallel. Trying the parallel way again takes
   two runs, and only the second counts: after many runs on the calling thread the workers
   sleep, and the first run pays for waking them (hundreds of microseconds in some virtual
   machines), which runs back to back would not pay again. */
static ecs_sched_result ecs_sched__execute_faster(ecs_sched__plan *plan, ecs_sched__schedule *s,
                                                  uint32_t turn) {
    bool parallel_known = ecs_sched__run_times_best(&plan->parallel) > 0;
    bool parallel_won = ecs_sched__parallel_wins(plan);
    bool retry = !parallel_known || turn >= plan->retry_at;
    bool warm_up = retry && parallel_known && !parallel_won && plan->warmed_at != turn - 1u;
    ecs_sched_result result;
    if (parallel_won != retry) {
        if (warm_up) ecs_sched__rescale_estimates(ecs_sched__run_of(plan), plan->work_ns);
        result = ecs_sched__execute_parallel_measured(ecs_sched__run_of(plan), !warm_up);
        if (warm_up) {
            plan->warmed_at = turn;
            return result;
        }
    } else {
        int64_t took;
        result = ecs_sched__execute_measured(s, &took);
        ecs_sched__run_times_add(&plan->single, took);
    }
    if (!parallel_known) {
        plan->retry_every = ECS_SCHED__RETRY_FIRST;
        plan->retry_at = turn + ECS_SCHED__RETRY_FIRST;
    } else if (retry) {
        bool changed = ecs_sched__parallel_wins(plan) != parallel_won;
        uint32_t every = plan->retry_every ? plan->retry_every : ECS_SCHED__RETRY_FIRST;
        plan->retry_every = changed ? ECS_SCHED__RETRY_FIRST
                          : every < ECS_SCHED__RETRY_MOST ? 2 * every : every;
        plan->retry_at = turn + plan->retry_every;
    }
    return result;
}

/* A cheap schedule's run on the calling thread, timed. When it is cheap no more, both ways
   are measured afresh. */
static ecs_sched_result ecs_sched__execute_cheap_measured(ecs_sched__plan *plan,
                                                         ecs_sched__schedule *s) {
    int64_t took;
    ecs_sched_result result = ecs_sched__execute_measured(s, &took);
    if (plan->work_ns >= ECS_SCHED_PARALLEL_MIN_NS) {
        memset(&plan->single, 0, sizeof plan->single);
        memset(&plan->parallel, 0, sizeof plan->parallel);
        ecs_sched__run_times_add(&plan->single, took);
        plan->retry_every = 0;
    }
    return result;
}

/* A schedule set to the parallel executor: on the calling thread while it is cheap (timed
   once every ECS_SCHED__SAMPLE_EVERY runs), else the faster way. With
   ECS_SCHED_PARALLEL_MIN_NS 0, every run is parallel. */
static ecs_sched_result ecs_sched__execute_adaptive(ecs_sched_world *w, ecs_sched__schedule *s) {
    ecs_sched__plan *plan = ecs_sched__plan_of(s);
    uint32_t turn = ++plan->runs;
    if (plan->node_count == 0) return ECS_SCHED_OK;
    /* made on the first run, whichever way it goes, so that what a run allocates does not
       depend on how long systems took */
    if (!ecs_sched__run_of(plan)) {
        ecs_sched_pool *pool = ecs_sched_world_pool(w);
        if (!pool || !ecs_sched__run_state(w, s, pool)) return w->env.last_result;
    }
    if (ECS_SCHED_PARALLEL_MIN_NS <= 0) return ecs_sched__execute_parallel(ecs_sched__run_of(plan));
    if (plan->work_ns >= ECS_SCHED_PARALLEL_MIN_NS) return ecs_sched__execute_faster(plan, s, turn);
    if (plan->work_ns == 0 || (turn & (ECS_SCHED__SAMPLE_EVERY - 1u)) == 1u) {
        return ecs_sched__execute_cheap_measured(plan, s);
    }
    return ecs_sched__execute(w, s);
}

#endif /* ECS_SCHED_THREADS */

/* Runs a built schedule with the executor its settings ask for. */
static ecs_sched_result ecs_sched__execute_chosen(ecs_sched_world *w, ecs_sched__schedule *s) {
#ifdef ECS_SCHED_THREADS
    if (ecs_sched__runs_in_parallel(s)) return ecs_sched__execute_adaptive(w, s);
#endif
    return ecs_sched__execute(w, s);
}

#ifdef ECS_SCHED_TRACE
#ifndef ECS_SCHED_NO_STEPPING
/* A run of a stepping schedule: in plan order on the calling thread, each system run or held
   as stepping decides (stepping.h), sync points and conditions as in any run. */
static ecs_sched_result ecs_sched__execute_stepping(ecs_sched__schedule *s) {
    ecs_sched__plan *plan = ecs_sched__plan_of(s);
    uint8_t action = s->step_action;
    bool tracked = s->world->ticks_on, stopped = false;
    int32_t started_at, p;
    ecs_sched__step_cursor_check(s);
    if (ecs_sched__step_next(s) < 0) s->step_cursor = 0;   /* the last frame was stepped through */
    started_at = ecs_sched__step_next(s);
    s->step_action = ECS_SCHED__STEP_WAIT;
    if (plan->set_count) memset(plan->set_state, 0, (size_t)plan->set_count);
    for (p = 0; p < plan->node_count && !stopped; p++) {
        if (ecs_sched__steppable(plan, p) && !ecs_sched__step_runs(s, p, &action, started_at)) {
            ecs_sched__note_held(s, plan->nodes[p].system);
            continue;
        }
        stopped = tracked ? ecs_sched__execute_node_as(s, p, true)
                          : ecs_sched__execute_node_as(s, p, false);
    }
    /* a frame stepped through starts over now, not at the next run: a system given back its
       default behaviour meanwhile must not catch the cursor on its way back */
    if (ecs_sched__step_next(s) < 0) s->step_cursor = 0;
    ecs_sched__apply_pending(s);
    return s->failure_code;
}
#endif

/* A run of a watched world: outcomes belong to a new run of the schedule, which the trace
   shows as a span around what it ran. */
ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__execute_watched(ecs_sched_world *w,
                                                                      ecs_sched__schedule *s) {
    int64_t begin = ecs_sched__trace_ticks();
    ecs_sched_result result;
    s->watch_run++;
#ifdef ECS_SCHED_NO_STEPPING
    result = ecs_sched__execute_chosen(w, s);
#else
    result = s->stepping ? ecs_sched__execute_stepping(s) : ecs_sched__execute_chosen(w, s);
#endif
    ecs_sched__trace_add(w, ECS_SCHED__TRACE_SCHEDULE, s->label, s->label, NULL, begin,
                         ecs_sched__trace_ticks(), 0);
    return result;
}

/* After a run from outside any other: a frame, unless an app update is the frame. */
static ecs_sched_result ecs_sched__top_run_ended(ecs_sched_world *w, int64_t begin,
                                                 ecs_sched_result result) {
    ecs_sched_result ended;
    if (!ecs_sched__tracing(w) || ecs_sched__trace_of(w)->in_app_frame) return result;
    ended = ecs_sched__trace_frame_end(w, begin);
    return result == ECS_SCHED_OK ? ended : result;
}
#endif

/* Runs a stored schedule found already (state transitions keep theirs). */
static ecs_sched_result ecs_sched__run_schedule(ecs_sched_world *w, ecs_sched__schedule *s) {
    ecs_sched__schedules *all = ecs_sched__schedules_of(w);
    ecs_sched_result result;
    if (w->observed && ecs_sched__refused_in_observer(w, "running a schedule")) {
        return ECS_SCHED_ERR_ACCESS;
    }
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
    ecs_sched__failures_reset(s);   /* a run that fails to start has none either */
    if (all->depth >= ECS_SCHED__MAX_NESTED_RUNS) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_LIMIT,
                               "running schedule '%s' would nest more than %d schedule runs",
                               s->label, ECS_SCHED__MAX_NESTED_RUNS);
    }
    result = ecs_sched__ensure_built(w, s);
    if (result != ECS_SCHED_OK) return result;
    if (ecs_sched__plan_of(s)->node_count == 0 && !ECS_SCHED__WATCHED(w)) {
        /* nothing can run or fail (an app's labels that no system uses, every frame): the run
           only counts */
        if (all->depth == 0 && !all->top_runs_held) all->top_runs++;
        return ECS_SCHED_OK;
    }
    ecs_sched__ticks_maybe_check(w);
    ecs_sched__error_handling_take(w, s);
    s->running = true;
#ifdef ECS_SCHED_THREADS
    if (all->depth == 0) w->schedule_thread = pthread_self();
#endif
    if (all->depth == 0 && !all->top_runs_held) all->top_runs++;
    all->stack[all->depth++] = s;
#ifdef ECS_SCHED_TRACE
    if (ECS_SCHED__WATCHED(w)) {
        int64_t begin = ecs_sched__trace_ticks();
        result = ecs_sched__execute_watched(w, s);
        all->depth--;
        s->running = false;
        if (all->depth == 0 && !all->top_runs_held) result = ecs_sched__top_run_ended(w, begin, result);
        if (result == ECS_SCHED_OK) return ECS_SCHED_OK;
        return ecs_sched__run_failed(w, s, result);
    }
#endif
    result = ecs_sched__execute_chosen(w, s);
    all->depth--;
    s->running = false;
    if (result == ECS_SCHED_OK) return ECS_SCHED_OK;
    return ecs_sched__run_failed(w, s, result);
}

ecs_sched_result ecs_sched_run_schedule(ecs_sched_world *w, const char *label) {
    ecs_sched__schedule *s;
    ECS_SCHED__CHECK_WORLD(w);
    s = ecs_sched__schedule_known(w, label);
    if (!s) return w->env.last_result;
    return ecs_sched__run_schedule(w, s);
}
