/* stepping: running a schedule one system at a time under the caller's control, when
   ECS_SCHED_TRACE is defined. */
#pragma once
#include "trace.h"

#ifdef ECS_SCHED_TRACE

/* How stepping treats a system. */
typedef enum ecs_sched_step_behaviour {
    ECS_SCHED_STEP_DEFAULT = 0,    /* runs when a step or a continue reaches it */
    ECS_SCHED_STEP_ALWAYS_RUN,     /* runs in every run, whatever the cursor */
    ECS_SCHED_STEP_NEVER_RUN,      /* never runs while the schedule steps */
    ECS_SCHED_STEP_BREAKPOINT      /* a continue stops before it (a step runs it) */
} ecs_sched_step_behaviour;

/* From its next run on, the schedule steps: each run goes through the plan in order on the
   calling thread (sync points and conditions as usual) and runs only its always-run systems,
   plus what ecs_sched_step_one or ecs_sched_step_continue asked for since the last run; the
   others are held. The cursor starts at the first system. */
ECS_SCHED_API ecs_sched_result ecs_sched_stepping_enable(ecs_sched_world *world,
                                                        const char *schedule);
ECS_SCHED_API ecs_sched_result ecs_sched_stepping_disable(ecs_sched_world *world,
                                                         const char *schedule);
/* The next run also runs the system at the cursor (never-run ones passed over), and the
   cursor moves past it; past the last system, it goes back to the first. */
ECS_SCHED_API ecs_sched_result ecs_sched_step_one(ecs_sched_world *world, const char *schedule);
/* The next run also runs every system from the cursor to the end of the plan, stopping
   before a breakpoint (the cursor stays on it); the cursor then goes back to the first. */
ECS_SCHED_API ecs_sched_result ecs_sched_step_continue(ecs_sched_world *world,
                                                      const char *schedule);
ECS_SCHED_API ecs_sched_result ecs_sched_stepping_set(ecs_sched_world *world,
                                                     const char *schedule, const char *system,
                                                     ecs_sched_step_behaviour behaviour);
/* The system the next step runs, or NULL (the schedule does not step, has not run yet, or
   has no system to step). */
ECS_SCHED_API const char *ecs_sched_stepping_cursor(ecs_sched_world *world,
                                                   const char *schedule);

#endif /* ECS_SCHED_TRACE */

/*@@ implementation @@*/
/* stepping: what a run of a stepping schedule runs, and the controls. */

#ifdef ECS_SCHED_TRACE

enum { ECS_SCHED__STEP_WAIT, ECS_SCHED__STEP_ONE, ECS_SCHED__STEP_CONTINUE };

/* Whether plan node `p` is a system stepping goes through (not a sync point). */
static bool ecs_sched__steppable(const ecs_sched__plan *plan, int32_t p) {
    const ecs_sched__plan_node *pn = &plan->nodes[p];
    return pn->system && !pn->sync;
}

/* The cursor of a plan that changed since it was set goes back to the start. */
static void ecs_sched__step_cursor_check(ecs_sched__schedule *s) {
    if (s->step_plan != ecs_sched__plan_of(s)) {
        s->step_plan = ecs_sched__plan_of(s);
        s->step_cursor = 0;
    }
}

/* The first system at or after plan position `from` that a step would run (always-run and
   never-run systems are not stepped); -1 when none. */
static int32_t ecs_sched__step_next_from(const ecs_sched__schedule *s, int32_t from) {
    const ecs_sched__plan *plan = ecs_sched__plan_of(s);
    int32_t p;
    if (!plan) return -1;
    for (p = from; p < plan->node_count; p++) {
        uint8_t step;
        if (!ecs_sched__steppable(plan, p)) continue;
        step = plan->nodes[p].system->watch.step;
        if (step != ECS_SCHED_STEP_NEVER_RUN && step != ECS_SCHED_STEP_ALWAYS_RUN) return p;
    }
    return -1;
}

static int32_t ecs_sched__step_next(const ecs_sched__schedule *s) {
    return ecs_sched__step_next_from(s, s->step_cursor);
}

/* Whether this run of a stepping schedule runs the system at `p`; moves the cursor and the
   action as the run goes. *action: what the caller asked for, spent as it is used. */
static bool ecs_sched__step_runs(ecs_sched__schedule *s, int32_t p, uint8_t *action,
                                 int32_t started_at) {
    uint8_t step = ecs_sched__plan_of(s)->nodes[p].system->watch.step;
    if (step == ECS_SCHED_STEP_ALWAYS_RUN) return true;
    if (step == ECS_SCHED_STEP_NEVER_RUN || p < s->step_cursor) return false;
    if (*action == ECS_SCHED__STEP_ONE) {
        *action = ECS_SCHED__STEP_WAIT;
        s->step_cursor = p + 1;
        return true;
    }
    if (*action == ECS_SCHED__STEP_CONTINUE) {
        if (step == ECS_SCHED_STEP_BREAKPOINT && p != started_at) {
            *action = ECS_SCHED__STEP_WAIT;
            s->step_cursor = p;
            return false;
        }
        s->step_cursor = p + 1;
        return true;
    }
    return false;
}

/* A system stepping held back this run. */
static void ecs_sched__note_held(ecs_sched__schedule *s, ecs_sched__system *sys) {
    ecs_sched__note_outcome(s, sys, ECS_SCHED_OUTCOME_HELD);
    if (ecs_sched__tracing(s->world)) {
        int64_t now = ecs_sched__trace_ticks();
        ecs_sched__trace_add(s->world, ECS_SCHED__TRACE_HELD, sys->ctx.run.name, s->label, NULL, now,
                             now, 0);
    }
}

/* ---- the controls ---- */

/* The schedule, when it exists and is not running. */
static ecs_sched__schedule *ecs_sched__step_target(ecs_sched_world *w, const char *schedule,
                                                   const char *what) {
    ecs_sched__schedule *s = ecs_sched__schedule_known(w, schedule);
    if (s && s->running) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_SCHEDULE_RUNNING,
                        "%s: schedule '%s' is running; stepping is controlled between its runs",
                        what, schedule);
        return NULL;
    }
    return s;
}

static ecs_sched_result ecs_sched__stepping_switch(ecs_sched_world *w, const char *schedule,
                                                   bool on, const char *what) {
    ecs_sched__schedule *s = ecs_sched__step_target(w, schedule, what);
    if (!s) return w->env.last_result;
    if (s->stepping != on) w->stepping_schedules += on ? 1 : -1;
    s->stepping = on;
    s->step_action = ECS_SCHED__STEP_WAIT;
    s->step_cursor = 0;
    s->step_plan = ecs_sched__plan_of(s);
    ecs_sched__watch_update(w);
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_stepping_enable(ecs_sched_world *w, const char *schedule) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__stepping_switch(w, schedule, true, "stepping_enable");
}

ecs_sched_result ecs_sched_stepping_disable(ecs_sched_world *w, const char *schedule) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__stepping_switch(w, schedule, false, "stepping_disable");
}

static ecs_sched_result ecs_sched__step_ask(ecs_sched_world *w, const char *schedule,
                                            uint8_t action, const char *what) {
    ecs_sched__schedule *s = ecs_sched__step_target(w, schedule, what);
    if (!s) return w->env.last_result;
    if (!s->stepping) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "%s: schedule '%s' does not step; call stepping_enable first",
                               what, schedule);
    }
    s->step_action = action;
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_step_one(ecs_sched_world *w, const char *schedule) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__step_ask(w, schedule, ECS_SCHED__STEP_ONE, "step_one");
}

ecs_sched_result ecs_sched_step_continue(ecs_sched_world *w, const char *schedule) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__step_ask(w, schedule, ECS_SCHED__STEP_CONTINUE, "step_continue");
}

ecs_sched_result ecs_sched_stepping_set(ecs_sched_world *w, const char *schedule,
                                       const char *system, ecs_sched_step_behaviour behaviour) {
    ecs_sched__system *sys;
    ECS_SCHED__CHECK_WORLD(w);
    if ((unsigned)behaviour > (unsigned)ECS_SCHED_STEP_BREAKPOINT) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "stepping_set: %d is not a step behaviour", (int)behaviour);
    }
    sys = ecs_sched__system_named(w, schedule, system, "stepping_set", NULL);
    if (!sys) return w->env.last_result;
    if (sys->is_apply_deferred) return ecs_sched__refuse_sync_point(w, schedule, system,
                                                                    "stepping_set");
    sys->watch.step = (uint8_t)behaviour;
    return ECS_SCHED_OK;
}

const char *ecs_sched_stepping_cursor(ecs_sched_world *w, const char *schedule) {
    ecs_sched__schedule *s;
    int32_t p;
    ECS_SCHED__CHECK_WORLD(w);
    s = ecs_sched__schedule_known(w, schedule);
    if (!s || !s->stepping || !ecs_sched__plan_of(s)) return NULL;
    /* as the next run will find it: a changed plan, or a frame stepped through, starts over */
    p = s->step_plan == ecs_sched__plan_of(s) ? ecs_sched__step_next(s) : -1;
    if (p < 0) p = ecs_sched__step_next_from(s, 0);
    return p < 0 ? NULL : ecs_sched__plan_of(s)->nodes[p].system->ctx.run.name;
}

#endif /* ECS_SCHED_TRACE */
