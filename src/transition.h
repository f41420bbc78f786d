/* transition: applying queued state transitions, and the schedules that run on them. */
#pragma once
#include "state.h"
#include "iter.h"

/* The exclusive system that applies the queued transitions of every machine: use it as a
   system's fn (with .exclusive = true), in any schedule, as many times as needed. */
ECS_SCHED_API void ecs_sched_apply_state_transitions(ecs_sched_system_ctx *ctx);
/* A system desc for it, named "apply_state_transitions", for one machine and the machines
   that depend on it (0: every machine); set its ordering fields and add it. */
ECS_SCHED_API ecs_sched_system_desc ecs_sched_state_transitions_system(ecs_sched_id machine);
/* Applies the queued transitions from outside any schedule (for a user who runs schedules by
   hand, or a loader), for one machine and the machines that depend on it (0: every machine).
   Returns the first failure of a transition schedule. A transition applied outside any run
   counts as "this run" for the next one (ecs_sched_state_transition.this_run). */
ECS_SCHED_API ecs_sched_result ecs_sched_state_apply(ecs_sched_world *world, ecs_sched_id machine);

/*@@ implementation @@*/
/* transition: applying queued state transitions, and the schedules that run on them. */

/* ---- applying transitions ---- */

/* The schedule of `label`, or NULL while nobody has added anything to it. */
static ecs_sched__schedule *ecs_sched__schedule_of(ecs_sched_world *w, const char *label,
                                                   ecs_sched__schedule_ref *ref) {
    const ecs_sched__schedules *all = ecs_sched__schedules_of(w);
    uint32_t count = all ? all->count : 0;
    if (ref->schedule || ref->looked_at == count + 1) return ref->schedule;
    ref->schedule = label ? ecs_sched__schedule_find(w, label) : NULL;
    ref->looked_at = count + 1;
    return ref->schedule;
}

static void ecs_sched__keep_first(ecs_sched_result *first, ecs_sched_result result) {
    if (result != ECS_SCHED_OK && *first == ECS_SCHED_OK) *first = result;
}

/* Runs a transition schedule if anything was ever added to it; keeps the first failure. */
static void ecs_sched__state_run(ecs_sched_world *w, const char *label,
                                 ecs_sched__schedule_ref *ref, ecs_sched_result *first) {
    ecs_sched__schedule *s = ecs_sched__schedule_of(w, label, ref);
    ecs_sched_result result;
    if (!s) return;
    result = ecs_sched__run_schedule(w, s);
    if (result != ECS_SCHED_OK && *first == ECS_SCHED_OK) *first = result;
}

/* ---- deciding what an apply does ---- */

/* m as it is: nothing moves. */
static ecs_sched__state_step ecs_sched__state_stays(const ecs_sched_world *w,
                                                    const ecs_sched__state_machine *m) {
    ecs_sched__state_step step;
    const ecs_sched_state_current *current = ecs_sched__state_current(w, m->id);
    step.from = current ? current->value : ECS_SCHED_STATE_NONE;
    step.to = step.from;
    step.request = ECS_SCHED__STATE_REQUEST_SET;
    step.moves = false;
    step.unwinds = false;
    step.restarts = false;
    step.included = false;
    return step;
}

static ecs_sched__state_next *ecs_sched__state_pending(const ecs_sched_world *w,
                                                       const ecs_sched__state_machine *m) {
    return (ecs_sched__state_next *)w->resources[m->next];
}

/* Whether a push or pop queued earlier still fits the stack: one queued by a transition
   schedule was checked against the stack as it stood before that apply changed it. */
static bool ecs_sched__state_request_fits(ecs_sched_world *w, const ecs_sched__state_machine *m,
                                          int request, ecs_sched_result *first) {
    if (request == ECS_SCHED__STATE_REQUEST_PUSH && m->depth >= m->stack_capacity) {
        ecs_sched__keep_first(first, ecs_sched__fail(
            &w->env, ECS_SCHED_ERR_LIMIT,
            "state machine '%s': a push queued during the previous apply no longer fits (the "
            "stack covers %d values, its stack_capacity) and is dropped", m->name,
            (int)m->depth));
        return false;
    }
    if (request == ECS_SCHED__STATE_REQUEST_POP && m->depth == 0) {
        ecs_sched__keep_first(first, ecs_sched__fail(
            &w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
            "state machine '%s': a pop queued during the previous apply has nothing to pop "
            "back from now (that apply emptied the stack) and is dropped", m->name));
        return false;
    }
    return true;
}

/* Takes the request waiting in m's pending slot, if any. */
static void ecs_sched__state_take(ecs_sched_world *w, const ecs_sched__state_machine *m,
                                  ecs_sched__state_step *step, ecs_sched_result *first) {
    ecs_sched__state_next *next = ecs_sched__state_pending(w, m);
    if (!ecs_sched__state_request_fits(w, m, next->request, first)) {
        next->request = ECS_SCHED__STATE_REQUEST_NONE;
        return;
    }
    if (next->request == ECS_SCHED__STATE_REQUEST_PUSH ||
        next->request == ECS_SCHED__STATE_REQUEST_POP) {
        step->request = next->request;
        step->to = next->request == ECS_SCHED__STATE_REQUEST_PUSH ? next->value
                                                                  : m->stack[m->depth - 1];
        step->moves = true;
    } else if (next->request != ECS_SCHED__STATE_REQUEST_NONE) {
        step->to = next->value;
        step->moves = step->to != step->from || next->request == ECS_SCHED__STATE_REQUEST_REENTER;
        step->restarts = step->to == step->from && step->moves;
    }
    next->request = ECS_SCHED__STATE_REQUEST_NONE;
}

/* A root machine: its initial value at the first apply, then what is queued (a request
   queued before the first apply waits for the second). */
static void ecs_sched__state_plan_root(ecs_sched_world *w, ecs_sched__state_machine *m,
                                       ecs_sched__state_step *step, ecs_sched_result *first) {
    if (m->entered) {
        ecs_sched__state_take(w, m, step, first);
        return;
    }
    step->to = m->initial;   /* m is marked entered once the value is in place */
    step->moves = true;
}

/* A computed state: compute() of its sources' new values, when one of them moves (or at the
   first apply). A value out of range is refused and the machine keeps its value. */
static void ecs_sched__state_plan_computed(ecs_sched_world *w, ecs_sched__state_machine *m,
                                           const ecs_sched__state_step *steps,
                                           ecs_sched__state_step *step, ecs_sched_result *first) {
    int32_t values[ECS_SCHED_MAX_STATE_SOURCES], to, i;
    bool moved = false, restarted = false;
    for (i = 0; i < m->source_count; i++) {
        const ecs_sched__state_step *source = &steps[m->sources[i]];
        values[i] = source->to;
        moved = moved || source->moves;
        restarted = restarted || source->restarts;
    }
    if (m->entered && !moved) return;
    m->entered = true;
    to = m->compute(values, m->user_data);
    if (to != ECS_SCHED_STATE_NONE && (to < 0 || to >= m->value_count)) {
        ecs_sched__keep_first(first, ecs_sched__fail(
            &w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
            "computed state '%s': its compute function returned %d, which is neither one of "
            "its values (0 to %d) nor ECS_SCHED_STATE_NONE; it keeps its value", m->name,
            (int)to, (int)m->value_count - 1));
        return;
    }
    step->to = to;
    step->restarts = restarted && to == step->from && to != ECS_SCHED_STATE_NONE;
    step->moves = to != step->from || step->restarts;
}

/* A sub-state: it takes its own requests while its parent stays among its parent values; it
   starts at its initial value when the parent reaches them, restarts there when the parent
   restarts, and stops existing when the parent leaves them. Starting, restarting or stopping
   drops a queued request and exits the values its stack covers. */
static void ecs_sched__state_plan_sub(ecs_sched_world *w, ecs_sched__state_machine *m,
                                      const ecs_sched__state_step *steps,
                                      ecs_sched__state_step *step, ecs_sched_result *first) {
    const ecs_sched__state_step *parent = &steps[m->sources[0]];
    bool exists = parent->to != ECS_SCHED_STATE_NONE && m->parent_values[parent->to];
    if (exists && step->from != ECS_SCHED_STATE_NONE && !parent->restarts) {
        ecs_sched__state_take(w, m, step, first);
        return;
    }
    ecs_sched__state_pending(w, m)->request = ECS_SCHED__STATE_REQUEST_NONE;
    step->to = exists ? m->initial : ECS_SCHED_STATE_NONE;
    step->moves = exists || step->from != ECS_SCHED_STATE_NONE;
    step->restarts = exists && step->from != ECS_SCHED_STATE_NONE;
    step->unwinds = step->moves && m->depth > 0;
}

/* Whether the apply is for m: every machine, `only`, or one that depends on it. */
static bool ecs_sched__state_included(const ecs_sched__state_machine *m,
                                      const ecs_sched__state_step *steps,
                                      const ecs_sched__state_machine *only) {
    int32_t i;
    if (!only || m == only) return true;
    for (i = 0; i < m->source_count; i++) {
        if (steps[m->sources[i]].included) return true;
    }
    return false;
}

/* Decides every machine's step, sources before the machines that depend on them (the
   registration order), so that each sees its sources' new values. `only` limits the apply to
   one machine and those that depend on it. */
static void ecs_sched__plan_transitions(ecs_sched_world *w, const ecs_sched__state_machine *only,
                                        ecs_sched_result *first) {
    ecs_sched__states *states = ecs_sched__states_of(w);
    uint32_t i;
    for (i = 0; i < states->count; i++) {
        ecs_sched__state_machine *m = &states->items[i];
        ecs_sched__state_step *step = &states->steps[i];
        *step = ecs_sched__state_stays(w, m);
        step->included = ecs_sched__state_included(m, states->steps, only);
        if (!step->included) continue;
        if (m->kind == ECS_SCHED__STATE_ROOT) ecs_sched__state_plan_root(w, m, step, first);
        if (m->kind == ECS_SCHED__STATE_COMPUTED) {
            ecs_sched__state_plan_computed(w, m, states->steps, step, first);
        }
        if (m->kind == ECS_SCHED__STATE_SUB) {
            ecs_sched__state_plan_sub(w, m, states->steps, step, first);
        }
    }
}

/* ---- carrying it out ---- */

/* The new value in place, counted, and remembered as the last transition. */
static ecs_sched_result ecs_sched__state_change(ecs_sched_world *w, ecs_sched__state_machine *m,
                                                const ecs_sched__state_step *step) {
    ecs_sched_state_current *current = (ecs_sched_state_current *)w->resources[m->id];
    if (!current) {
        ecs_sched_result result = ecs_sched_resource_insert(w, m->id, NULL);
        if (result != ECS_SCHED_OK) {
            m->entered = false;   /* it has no value yet: the next apply tries again */
            return result;
        }
        current = (ecs_sched_state_current *)w->resources[m->id];
    }
    if (step->request == ECS_SCHED__STATE_REQUEST_PUSH) m->stack[m->depth++] = step->from;
    if (step->request == ECS_SCHED__STATE_REQUEST_POP) m->depth--;
    if (step->unwinds) m->depth = 0;
    current->value = step->to;
    current->changes++;
    m->entered = true;
    m->last.from = step->from;
    m->last.to = step->to;
    m->last_run = ecs_sched__states_of(w)->run;
    return ECS_SCHED_OK;
}

/* Despawns the entities scoped to leaving (on_exit) or reaching (on_enter) `value`. The
   matches are gathered first: despawning while iterating would move rows under the
   iterator. */
ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__despawn_scoped_matches(
    ecs_sched_world *w, const ecs_sched__state_machine *m, int32_t value, bool on_exit) {
    ecs_sched_entity *doomed;
    ecs_sched_iter it;
    int32_t count = 0, n, i;
    ecs_sched_result result = ECS_SCHED_OK;
    n = ecs_sched_query_count(m->scoped);
    if (n == 0) return ECS_SCHED_OK;
    doomed = (ecs_sched_entity *)ecs_sched__alloc(&w->env, sizeof *doomed * (size_t)n);
    if (!doomed) return ecs_sched__out_of_memory(w, "despawning state-scoped entities");
    it = ecs_sched_query_iter(m->scoped);
    while (ecs_sched_iter_next(&it)) {
        const ecs_sched_state_scoped *scope = ECS_SCHED_FIELD(&it, const ecs_sched_state_scoped, 0);
        for (i = 0; i < it.count; i++) {
            if ((on_exit ? scope[i].on_exit : scope[i].on_enter) == value) {
                doomed[count++] = it.entities[i];
            }
        }
    }
    for (i = 0; i < count && result == ECS_SCHED_OK; i++) result = ecs_sched_despawn(w, doomed[i]);
    ecs_sched__free(&w->env, doomed);
    return result;
}

static inline ecs_sched_result ecs_sched__despawn_scoped(ecs_sched_world *w,
                                                        const ecs_sched__state_machine *m,
                                                        int32_t value, bool on_exit) {
    if (m->scoped->match_count == 0) return ECS_SCHED_OK;   /* the component is on no entity */
    return ecs_sched__despawn_scoped_matches(w, m, value, on_exit);
}

/* Runs one of a value's schedules (ECS_SCHED__ON_*). */
static void ecs_sched__state_run_value(ecs_sched_world *w, ecs_sched__state_machine *m, int kind,
                                       int32_t value, ecs_sched_result *first) {
    ecs_sched__state_run(w, m->labels[kind][value], &m->refs[kind][value], first);
}

/* Leaving a value: OnExit and the despawns of its scoped entities (then, when the stack
   unwinds, the same for each covered value, top first), or OnPause for a push. */
static void ecs_sched__state_leave(ecs_sched_world *w, ecs_sched__state_machine *m,
                                   const ecs_sched__state_step *step, ecs_sched_result *first) {
    int32_t d;
    if (step->from == ECS_SCHED_STATE_NONE) return;
    if (step->request == ECS_SCHED__STATE_REQUEST_PUSH) {
        ecs_sched__state_run_value(w, m, ECS_SCHED__ON_PAUSE, step->from, first);
        return;
    }
    ecs_sched__state_run_value(w, m, ECS_SCHED__ON_EXIT, step->from, first);
    ecs_sched__keep_first(first, ecs_sched__despawn_scoped(w, m, step->from, true));
    ecs_sched__messages_state_moved(w, m->id, step->from, false);
    for (d = step->unwinds ? m->depth - 1 : -1; d >= 0; d--) {
        ecs_sched__state_run_value(w, m, ECS_SCHED__ON_EXIT, m->stack[d], first);
        ecs_sched__keep_first(first, ecs_sched__despawn_scoped(w, m, m->stack[d], true));
        ecs_sched__messages_state_moved(w, m->id, m->stack[d], false);
    }
}

/* The new value, then OnTransition for a set between two values. A value that cannot be put
   in place (out of memory) enters nothing. */
static void ecs_sched__state_move(ecs_sched_world *w, ecs_sched__state_machine *m,
                                  ecs_sched__state_step *step, ecs_sched_result *first) {
    int32_t pair = step->from * m->value_count + step->to;
    ecs_sched_result result = ecs_sched__state_change(w, m, step);
    if (result != ECS_SCHED_OK) {
        ecs_sched__keep_first(first, result);
        step->moves = false;
        return;
    }
    if (step->from == ECS_SCHED_STATE_NONE || step->to == ECS_SCHED_STATE_NONE ||
        step->request != ECS_SCHED__STATE_REQUEST_SET) {
        return;
    }
    if (!m->transition_labels[pair]) {   /* the label is made the first time */
        ecs_sched_on_transition(w, m->id, step->from, step->to);
    }
    ecs_sched__state_run(w, m->transition_labels[pair], &m->transition_refs[pair], first);
}

/* Reaching a value: the despawns of entities scoped to entering it, then OnEnter; or
   OnResume after a pop. */
static void ecs_sched__state_reach(ecs_sched_world *w, ecs_sched__state_machine *m,
                                   const ecs_sched__state_step *step, ecs_sched_result *first) {
    if (step->to == ECS_SCHED_STATE_NONE) return;
    if (step->request == ECS_SCHED__STATE_REQUEST_POP) {
        ecs_sched__state_run_value(w, m, ECS_SCHED__ON_RESUME, step->to, first);
        return;
    }
    ecs_sched__keep_first(first, ecs_sched__despawn_scoped(w, m, step->to, false));
    ecs_sched__messages_state_moved(w, m->id, step->to, true);
    ecs_sched__state_run_value(w, m, ECS_SCHED__ON_ENTER, step->to, first);
}

#ifdef ECS_SCHED_TRACE
/* Each machine that moved in the apply that began at `begin`: a span over the apply, with the
   values it left and reached. */
static void ecs_sched__note_transitions(ecs_sched_world *w, int64_t begin) {
    ecs_sched__states *states = ecs_sched__states_of(w);
    int64_t end;
    uint32_t i;
    if (!ecs_sched__tracing(w)) return;
    end = ecs_sched__trace_ticks();
    for (i = 0; i < states->count; i++) {
        const ecs_sched__state_machine *m = &states->items[i];
        const ecs_sched__state_step *step = &states->steps[i];
        if (!step->moves) continue;
        ecs_sched__trace_add(w, ECS_SCHED__TRACE_TRANSITION, m->name,
                             step->from >= 0 ? m->value_names[step->from] : "none",
                             step->to >= 0 ? m->value_names[step->to] : "none", begin, end, 0);
    }
}
#endif

/* Applies the transitions queued when it starts, for one machine and those that depend on
   it, or for all (NULL). Every step is decided first; then the exits of all moving machines,
   the most dependent first (the reverse registration order); then each one's new value and
   OnTransition, sources first; then the enters, sources first. A value queued meanwhile
   waits for the next apply. Returns the first failure; the rest still runs. */
static ecs_sched_result ecs_sched__apply_transitions(ecs_sched_world *w,
                                                     const ecs_sched__state_machine *only) {
    ecs_sched__states *states = ecs_sched__states_of(w);
    ecs_sched__schedules *held;
    ecs_sched_result first = ECS_SCHED_OK;
    int32_t count, i;
#ifdef ECS_SCHED_TRACE
    int64_t begin;
#endif
    /* an apply inside a transition schedule applies nothing: what was queued meanwhile waits
       for the next apply, as everywhere else */
    if (!states || states->count == 0 || states->applying) return ECS_SCHED_OK;
    count = (int32_t)states->count;
#ifdef ECS_SCHED_TRACE
    begin = ecs_sched__tracing(w) ? ecs_sched__trace_ticks() : 0;
#endif
    /* outside any run, the transitions count for the next run, and the transition schedules
       they run are part of them rather than runs of their own */
    held = ecs_sched__schedules_of(w) && ecs_sched__schedules_of(w)->depth == 0 ? ecs_sched__schedules_of(w) : NULL;
    states->applying = true;
    states->run = ecs_sched__transition_run(w);
    if (held) held->top_runs_held = true;
    ecs_sched__plan_transitions(w, only, &first);
    for (i = count - 1; i >= 0; i--) {
        if (states->steps[i].moves) {
            ecs_sched__state_leave(w, &states->items[i], &states->steps[i], &first);
        }
    }
    for (i = 0; i < count; i++) {
        if (states->steps[i].moves) {
            ecs_sched__state_move(w, &states->items[i], &states->steps[i], &first);
        }
    }
    for (i = 0; i < count; i++) {
        if (states->steps[i].moves) {
            ecs_sched__state_reach(w, &states->items[i], &states->steps[i], &first);
        }
    }
    states->applying = false;
    if (held) held->top_runs_held = false;
#ifdef ECS_SCHED_TRACE
    ecs_sched__note_transitions(w, begin);
#endif
    return first;
}

/* A failing transition schedule is this system's failure already (a nested run). */
void ecs_sched_apply_state_transitions(ecs_sched_system_ctx *ctx) {
    ECS_SCHED_ASSERT(ctx != NULL);
    ecs_sched__apply_transitions(ctx->world, NULL);
}

static void ecs_sched__apply_state_transitions_of(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *w;
    const ecs_sched__state_machine *m;
    ECS_SCHED_ASSERT(ctx != NULL);
    w = ctx->world;
    m = ecs_sched__state_known(w, (ecs_sched_id)(uintptr_t)ctx->user_data,
                               "apply_state_transitions");
    if (m) ecs_sched__apply_transitions(w, m);
}

ecs_sched_system_desc ecs_sched_state_transitions_system(ecs_sched_id machine) {
    ecs_sched_system_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.name = "apply_state_transitions";
    desc.exclusive = true;
    desc.fn = machine ? ecs_sched__apply_state_transitions_of : ecs_sched_apply_state_transitions;
    desc.user_data = (void *)(uintptr_t)machine;
    return desc;
}

ecs_sched_result ecs_sched_state_apply(ecs_sched_world *w, ecs_sched_id machine) {
    const ecs_sched__state_machine *m = NULL;
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observed && ecs_sched__refused_in_observer(w, "applying state transitions")) {
        return ECS_SCHED_ERR_ACCESS;
    }
    if (machine) {
        m = ecs_sched__state_known(w, machine, "state_apply");
        if (!m) return w->env.last_result;
    }
    return ecs_sched__apply_transitions(w, m);
}

