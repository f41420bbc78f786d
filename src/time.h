/* time: the real, virtual and fixed clocks, and the fixed-timestep runner. */
#pragma once
#include "executor.h"
#include "entity_access.h"
#include "component.h"
#include "timer.h"

#define ECS_SCHED_NS_PER_SECOND INT64_C(1000000000)
/* Durations in integer nanoseconds: ECS_SCHED_MILLISECONDS(250), ECS_SCHED_SECONDS(2). */
#define ECS_SCHED_MILLISECONDS(ms) ((int64_t)(ms) * INT64_C(1000000))
#define ECS_SCHED_SECONDS(s) ((int64_t)(s) * ECS_SCHED_NS_PER_SECOND)
/* The step of a rate: ECS_SCHED_HZ(64) is 15 625 000 ns exactly (a rate that does not divide
   a second is rounded down to whole nanoseconds: ECS_SCHED_HZ(60) is 16 666 666). */
#define ECS_SCHED_HZ(rate) (ECS_SCHED_NS_PER_SECOND / (int64_t)(rate))

/* The schedule the fixed-timestep runner runs once per step. */
#define ECS_SCHED_FIXED_MAIN "FixedMain"

/* The default period of a clock's wrapped elapsed time: one hour. */
#define ECS_SCHED_WRAP_PERIOD_DEFAULT ECS_SCHED_SECONDS(3600)

/* What a clock reads. Times are kept in integer nanoseconds, so that sums are exact; the
   seconds are the same values as doubles, for arithmetic. */
typedef struct ecs_sched_time {
    int64_t delta_ns;             /* since the clock's previous advance (fixed: one step) */
    int64_t elapsed_ns;           /* since the clock started: the sum of its deltas */
    double delta_seconds;
    double elapsed_seconds;
    int64_t wrap_period_ns;       /* of ecs_sched_time_elapsed_wrapped; > 0, default
                                     ECS_SCHED_WRAP_PERIOD_DEFAULT */
} ecs_sched_time;

/* The clock's elapsed time modulo its wrap_period_ns, in nanoseconds and in seconds: a small
   number that keeps its precision as a float however long the game runs (shaders, effects).
   Computed when asked, so that a game that does not ask pays nothing. */
ECS_SCHED_API int64_t ecs_sched_time_elapsed_wrapped(const ecs_sched_time *time);
ECS_SCHED_API double ecs_sched_time_elapsed_seconds_wrapped(const ecs_sched_time *time);

/* Resource "Time<Real>": the wall clock as the clock hook reads it, unaffected by pause,
   speed or the cap on a frame's delta. */
typedef struct ecs_sched_time_real {
    ecs_sched_time time;
    int64_t last_reading_ns;      /* the clock hook's reading at the last clock-driven advance
                                     (ecs_sched_time_advance); 0 before the first */
    int64_t backward_readings;    /* advances whose reading was earlier than the one before:
                                     a clock hook that is not monotonic (each one is logged
                                     as a warning and advances by 0) */
} ecs_sched_time_real;

/* Resource "Time<Virtual>": the game's clock. Its delta is the real delta times
   relative_speed, capped at max_delta_ns, or 0 while paused: the cap comes after the speed,
   so that no frame moves the game by more than max_delta_ns at any speed. A system may change
   the settings through ecs_sched_ctx_resource_mut (declaring the write); the next advance
   checks them. */
typedef struct ecs_sched_time_virtual {
    ecs_sched_time time;
    bool paused;
    double relative_speed;        /* 1: real time; 2: twice as fast; 0: stopped; never < 0 */
    int64_t max_delta_ns;         /* a frame advances the game by at most this; > 0 */
    double effective_speed;       /* the speed of the last advance: relative_speed, less when
                                     the cap cut the frame, 0 while paused */
} ecs_sched_time_virtual;

/* Resource "Time<Fixed>": the fixed-timestep clock. Virtual time accumulates in overstep_ns;
   the runner takes whole steps from it, one run of FixedMain each, and leaves the rest. */
typedef struct ecs_sched_time_fixed {
    ecs_sched_time time;          /* delta_ns is one step, step_ns, from the setup on (a new
                                     step shows at once); elapsed_ns counts steps run */
    int64_t step_ns;              /* > 0; default ECS_SCHED_HZ(64) */
    int64_t overstep_ns;          /* accumulated virtual time not stepped yet */
    double overstep_fraction;     /* overstep_ns / step_ns: in [0, 1) after each runner run;
                                     how far the present is past the last step, for
                                     interpolating between the last two fixed states */
    int32_t max_steps_per_frame;  /* 0: no cap; else whole steps beyond it are dropped */
    int32_t steps_this_frame;     /* the steps the runner's last run took */
    int64_t dropped_steps;        /* whole steps dropped by the cap, in total */
} ecs_sched_time_fixed;

/* The clock hook: a monotonic reading in nanoseconds (any origin). */
typedef int64_t (*ecs_sched_clock_fn)(void *user_data);
/* The sleep hook used to pace frames (ecs_sched_app_run). */
typedef void (*ecs_sched_sleep_fn)(int64_t duration_ns, void *user_data);

typedef struct ecs_sched_time_desc {
    ecs_sched_clock_fn clock;     /* default: the system's monotonic clock */
    ecs_sched_sleep_fn sleep;     /* default: the system's sleep */
    void *clock_user_data;        /* passed to both */
    int64_t fixed_step_ns;        /* default ECS_SCHED_HZ(64) */
    int64_t max_delta_ns;         /* default ECS_SCHED_MILLISECONDS(250) */
    int32_t max_steps_per_frame;  /* default 0: no cap */
    int64_t wrap_period_ns;       /* of every clock's wrapped elapsed time; default one hour */
} ecs_sched_time_desc;

/* Creates the four clock resources ("Time", "Time<Real>", "Time<Virtual>", "Time<Fixed>").
   Every clock starts with elapsed 0 and delta 0, except Time<Fixed>, whose delta is its step
   from the start (a fixed clock's delta is always one step). An app does it when it is
   created; call it yourself to use the clocks in a world without an app. Calling it again
   changes nothing and returns ECS_SCHED_ERR_INVALID_ARGUMENT. */
ECS_SCHED_API ecs_sched_result ecs_sched_time_setup(ecs_sched_world *world,
                                                   const ecs_sched_time_desc *desc);
/* Resource "Time": the clock a system reads. In the main schedules it holds the virtual
   clock; while the fixed-timestep runner runs FixedMain, the fixed clock. Declare it in
   .reads and read it with ecs_sched_ctx_time. 0 before ecs_sched_time_setup. */
ECS_SCHED_API ecs_sched_id ecs_sched_time_id(const ecs_sched_world *world);
ECS_SCHED_API ecs_sched_id ecs_sched_time_real_id(const ecs_sched_world *world);
ECS_SCHED_API ecs_sched_id ecs_sched_time_virtual_id(const ecs_sched_world *world);
ECS_SCHED_API ecs_sched_id ecs_sched_time_fixed_id(const ecs_sched_world *world);
/* The current clock (resource "Time"), or NULL (the read is not declared: ERR_ACCESS). */
ECS_SCHED_API const ecs_sched_time *ecs_sched_ctx_time(ecs_sched_system_ctx *ctx);

/* Advances real and virtual time: by the clock hook's reading since the last advance (0 the
   first time), or by `real_delta_ns`. "Time" becomes the virtual clock. Then applies the
   delayed commands that became due on the virtual clock (ecs_sched_commands_after). Fails
   with ECS_SCHED_ERR_INVALID_ARGUMENT, advancing nothing, when a delta or a setting of
   Time<Virtual> is out of range. An app does this at the start of each update.
   A reading earlier than the previous one (a clock hook that is not monotonic) advances by
   0, is logged as a warning naming both readings, and is counted in
   Time<Real>.backward_readings; the next advance measures from the earlier reading. */
ECS_SCHED_API ecs_sched_result ecs_sched_time_advance(ecs_sched_world *world);
ECS_SCHED_API ecs_sched_result ecs_sched_time_advance_by(ecs_sched_world *world,
                                                        int64_t real_delta_ns);
/* The clock hook's reading now, in nanoseconds; and a sleep through the sleep hook. */
ECS_SCHED_API int64_t ecs_sched_time_now(const ecs_sched_world *world);
ECS_SCHED_API void ecs_sched_time_sleep(const ecs_sched_world *world, int64_t duration_ns);

/* Settings, checked: a bad value is ECS_SCHED_ERR_INVALID_ARGUMENT and changes nothing. */
ECS_SCHED_API ecs_sched_result ecs_sched_time_set_paused(ecs_sched_world *world, bool paused);
ECS_SCHED_API ecs_sched_result ecs_sched_time_set_speed(ecs_sched_world *world,
                                                       double relative_speed);
ECS_SCHED_API ecs_sched_result ecs_sched_time_set_max_delta(ecs_sched_world *world,
                                                           int64_t max_delta_ns);
/* The accumulated overstep is kept as time (it is virtual time not simulated yet), so a new
   step takes effect at the next runner run, which steps that time in the new unit. Time<Fixed>
   shows the new step as its delta at once; inside FixedMain, "Time" shows the step running. */
ECS_SCHED_API ecs_sched_result ecs_sched_time_set_fixed_step(ecs_sched_world *world,
                                                            int64_t step_ns);
ECS_SCHED_API ecs_sched_result ecs_sched_time_set_max_steps_per_frame(ecs_sched_world *world,
                                                                     int32_t max_steps);
/* Forgets the accumulated overstep (after a loading screen, say), so the next frames do not
   catch up on it. */
ECS_SCHED_API ecs_sched_result ecs_sched_time_discard_overstep(ecs_sched_world *world);
/* The period every clock's elapsed time wraps at (> 0; ecs_sched_time_elapsed_wrapped). */
ECS_SCHED_API ecs_sched_result ecs_sched_time_set_wrap_period(ecs_sched_world *world,
                                                             int64_t period_ns);

/* The fixed-timestep runner, an exclusive system: adds the virtual delta to the overstep,
   then runs schedule ECS_SCHED_FIXED_MAIN once per whole step in it, with "Time" holding the
   fixed clock, and leaves the rest as overstep. The app puts it in RunFixedMainLoop. */
ECS_SCHED_API void ecs_sched_run_fixed_main_loop(ecs_sched_system_ctx *ctx);
/* The runner as a system desc (exclusive, named "run_fixed_main_loop"), to add somewhere. */
ECS_SCHED_API ecs_sched_system_desc ecs_sched_fixed_main_loop_system(void);

/* ---- conditions on time (each instance keeps its own timer, fed by "Time"'s delta each
   time it is evaluated: the virtual clock in the main schedules, the fixed clock in the
   fixed ones) ---- */

/* True once each time `period_ns` elapses, like a repeating timer: when several periods
   elapse between two evaluations it is still true once. period_ns > 0. */
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_on_timer(int64_t period_ns);
/* True once, at the first evaluation at which delay_ns has elapsed. */
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_once_after_delay(int64_t delay_ns);
/* True at every evaluation from the one at which delay_ns has elapsed on. */
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_repeating_after_delay(int64_t delay_ns);
/* True while the virtual clock is paused. */
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_time_paused(void);

/*@@ implementation @@*/
/* time: the real, virtual and fixed clocks, and the fixed-timestep runner. */

typedef struct ecs_sched__clocks ecs_sched__clocks;

/* The part of the world this module keeps (registry.h). */
static ecs_sched__part_key ecs_sched__clocks_key;

/* What the world keeps for its clocks. */
struct ecs_sched__clocks {
    ecs_sched_id time, real, virtual_, fixed;
    ecs_sched_clock_fn clock;
    ecs_sched_sleep_fn sleep;
    void *user_data;
    ecs_sched__schedule *fixed_main;     /* found at the runner's first run */
    bool has_reading;                    /* the clock hook was read by an advance */
    int64_t kept_reading_ns;             /* Time<Real>'s reading and its count of backward */
    int64_t kept_backward_readings;      /* ones, kept across a snapshot restore */
    /* delayed command buffers waiting for the virtual and the fixed clock (kept by delay.h) */
    struct ecs_sched_commands **waiting[2];
    uint32_t waiting_count[2], waiting_capacity[2];
    uint64_t delay_serial;               /* buffers handed to the queues so far */
    /* The clocks' hooks, for a later module with work that waits for them (delay.h), which
       sets them when it first has some; NULL until then. `advanced`: clock 0 (the virtual
       one) advanced at the end of ecs_sched_time_advance, or clock 1 (the fixed one) at the
       start of a fixed step, before FixedMain runs, to `now` (its elapsed time); a failure
       is the advance's, or the fixed step's. `closing`: the clocks go. */
    ecs_sched_result (*advanced)(ecs_sched_world *w, int clock, int64_t now);
    void (*closing)(ecs_sched_world *w);
};

static inline ecs_sched__clocks *ecs_sched__clocks_of(const ecs_sched_world *w) {
    return (ecs_sched__clocks *)ecs_sched__part(w, &ecs_sched__clocks_key);
}

/* ---- the clocks in snapshots ----

   The clocks are resources, so a snapshot holds their time (elapsed, overstep, settings) and a
   restore brings it back. What the clock hook read last is not game data: it stays, so that
   the frame after a restore advances by the real time since the frame before it. */

static bool ecs_sched__clocks_take(ecs_sched_world *w, void **copy, size_t *bytes) {
    (void)w;
    (void)bytes;
    *copy = NULL;   /* the resources hold it all */
    return true;
}

static bool ecs_sched__clocks_prepare(ecs_sched_world *w, const void *copy, void **prepared) {
    const ecs_sched_time_real *real = (const ecs_sched_time_real *)w->resources[ecs_sched__clocks_of(w)->real];
    (void)copy;
    *prepared = NULL;
    ecs_sched__clocks_of(w)->kept_reading_ns = real ? real->last_reading_ns : 0;
    ecs_sched__clocks_of(w)->kept_backward_readings = real ? real->backward_readings : 0;
    return true;
}

static void ecs_sched__clocks_apply(ecs_sched_world *w, const void *copy, void *prepared) {
    ecs_sched_time_real *real = (ecs_sched_time_real *)w->resources[ecs_sched__clocks_of(w)->real];
    (void)copy;
    (void)prepared;
    if (!real) return;
    real->last_reading_ns = ecs_sched__clocks_of(w)->kept_reading_ns;
    real->backward_readings = ecs_sched__clocks_of(w)->kept_backward_readings;
}

static void ecs_sched__clocks_discard(ecs_sched_world *w, void *prepared) {
    (void)w;
    (void)prepared;
}

static void ecs_sched__clocks_copy_free(ecs_sched__env *env, void *copy) {
    (void)env;
    (void)copy;
}

static const ecs_sched__snapshot_part ecs_sched__clocks_part = {
    ecs_sched__clocks_take, ecs_sched__clocks_prepare, ecs_sched__clocks_apply,
    ecs_sched__clocks_discard, ecs_sched__clocks_copy_free};

/* ---- the clocks ---- */

static void ecs_sched__time_free(ecs_sched_world *w) {
    if (!ecs_sched__clocks_of(w)) return;
    if (ecs_sched__clocks_of(w)->closing) ecs_sched__clocks_of(w)->closing(w);
    ecs_sched__free(&w->env, ecs_sched__clocks_of(w));
    ecs_sched__part_set(w, &ecs_sched__clocks_key, NULL);
}

static void ecs_sched__clock_advance(ecs_sched_time *t, int64_t delta_ns) {
    t->delta_ns = delta_ns;
    t->elapsed_ns = ecs_sched__add_saturated(t->elapsed_ns, delta_ns);
    t->delta_seconds = (double)delta_ns / 1e9;
    t->elapsed_seconds = (double)t->elapsed_ns / 1e9;
}

int64_t ecs_sched_time_elapsed_wrapped(const ecs_sched_time *t) {
    ECS_SCHED_ASSERT(t != NULL);
    /* a clock copied from before its period was set (or zeroed) has no period: no wrap */
    return t->wrap_period_ns > 0 ? t->elapsed_ns % t->wrap_period_ns : t->elapsed_ns;
}

double ecs_sched_time_elapsed_seconds_wrapped(const ecs_sched_time *t) {
    int64_t wrapped = ecs_sched_time_elapsed_wrapped(t);
    return (double)wrapped / 1e9;
}

/* The clocks, or NULL with `operation`'s failure recorded. */
static ecs_sched__clocks *ecs_sched__clocks_known(ecs_sched_world *w, const char *operation) {
    if (!ecs_sched__clocks_of(w)) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_MISSING_RESOURCE,
                        "%s: this world has no clocks (create an app, or call "
                        "ecs_sched_time_setup first)", operation);
    }
    return ecs_sched__clocks_of(w);
}

/* A resource the library made (a clock), or NULL with `operation`'s failure recorded (it was
   removed). */
ECS_SCHED__NOINLINE static void ecs_sched__required_resource_missing(ecs_sched_world *w,
                                                                     ecs_sched_id id,
                                                                     const char *operation) {
    ecs_sched__fail(&w->env, ECS_SCHED_ERR_MISSING_RESOURCE,
                    "%s: resource '%s' was removed; the library made it and needs it",
                    operation, ecs_sched__component_label(w, id));
}

static inline void *ecs_sched__required_resource(ecs_sched_world *w, ecs_sched_id id,
                                                 const char *operation) {
    /* asked first, so that the failure names the operation, not resource_get's advice to
       insert what the library makes */
    if (!ECS_SCHED__LIKELY(w->resources[id] != NULL)) {
        ecs_sched__required_resource_missing(w, id, operation);
        return NULL;
    }
    return ecs_sched_resource_get_mut(w, id);
}

static ecs_sched_time_virtual *ecs_sched__virtual_clock(ecs_sched_world *w, const char *operation) {
    return ecs_sched__clocks_known(w, operation)
               ? (ecs_sched_time_virtual *)ecs_sched__required_resource(w, ecs_sched__clocks_of(w)->virtual_,
                                                                     operation)
               : NULL;
}

static ecs_sched_time_fixed *ecs_sched__fixed_clock(ecs_sched_world *w, const char *operation) {
    return ecs_sched__clocks_known(w, operation)
               ? (ecs_sched_time_fixed *)ecs_sched__required_resource(w, ecs_sched__clocks_of(w)->fixed, operation)
               : NULL;
}

static ecs_sched_id ecs_sched__register_clock(ecs_sched_world *w, const char *name, size_t size,
                                              const void *initial) {
    ecs_sched_id id = ecs_sched_component_register_type(w, name, size, 8);
    if (id && ecs_sched_resource_insert(w, id, initial) != ECS_SCHED_OK) return 0;
    return id;
}

static bool ecs_sched__speed_valid(double speed) {
    return speed >= 0 && speed <= 1e9;    /* false for NaN too */
}

static ecs_sched_result ecs_sched__bad_setting(ecs_sched_world *w, const char *what,
                                               const char *rule, double value) {
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT, "%s is %g; it must be %s",
                           what, value, rule);
}

static ecs_sched_result ecs_sched__check_time_desc(ecs_sched_world *w,
                                                   const ecs_sched_time_desc *d) {
    if (d->fixed_step_ns < 0) {
        return ecs_sched__bad_setting(w, "time_setup: fixed_step_ns", "> 0 (0: 1/64 s)",
                                      (double)d->fixed_step_ns);
    }
    if (d->max_delta_ns < 0) {
        return ecs_sched__bad_setting(w, "time_setup: max_delta_ns", "> 0 (0: 250 ms)",
                                      (double)d->max_delta_ns);
    }
    if (d->max_steps_per_frame < 0) {
        return ecs_sched__bad_setting(w, "time_setup: max_steps_per_frame", ">= 0 (0: no cap)",
                                      (double)d->max_steps_per_frame);
    }
    if (d->wrap_period_ns < 0) {
        return ecs_sched__bad_setting(w, "time_setup: wrap_period_ns", "> 0 (0: one hour)",
                                      (double)d->wrap_period_ns);
    }
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_time_setup(ecs_sched_world *w, const ecs_sched_time_desc *desc) {
    ecs_sched_time_desc d;
    ecs_sched__clocks *clocks;
    ecs_sched_time_real real;
    ecs_sched_time_virtual virt;
    ecs_sched_time_fixed fixed;
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    if (ecs_sched__clocks_of(w)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "time_setup: this world has its clocks already (an app sets them "
                               "up; change them with the ecs_sched_time_set_... functions)");
    }
    memset(&d, 0, sizeof d);
    if (desc) d = *desc;
    result = ecs_sched__check_time_desc(w, &d);
    if (result != ECS_SCHED_OK) return result;
    clocks = (ecs_sched__clocks *)ecs_sched__calloc(&w->env, sizeof *clocks);
    if (!clocks) return ecs_sched__out_of_memory(w, "setting up the clocks");
    clocks->clock = d.clock ? d.clock : ecs_sched__system_clock;
    clocks->sleep = d.sleep ? d.sleep : ecs_sched__system_sleep;
    clocks->user_data = d.clock_user_data;
    memset(&real, 0, sizeof real);
    real.time.wrap_period_ns = d.wrap_period_ns ? d.wrap_period_ns
                                                : ECS_SCHED_WRAP_PERIOD_DEFAULT;
    memset(&virt, 0, sizeof virt);
    virt.time.wrap_period_ns = real.time.wrap_period_ns;
    virt.relative_speed = 1.0;
    virt.effective_speed = 1.0;
    virt.max_delta_ns = d.max_delta_ns ? d.max_delta_ns : ECS_SCHED_MILLISECONDS(250);
    memset(&fixed, 0, sizeof fixed);
    fixed.time.wrap_period_ns = real.time.wrap_period_ns;
    fixed.step_ns = d.fixed_step_ns ? d.fixed_step_ns : ECS_SCHED_HZ(64);
    fixed.time.delta_ns = fixed.step_ns;
    fixed.time.delta_seconds = (double)fixed.step_ns / 1e9;
    fixed.max_steps_per_frame = d.max_steps_per_frame;
    if (!(clocks->time = ecs_sched__register_clock(w, "Time", sizeof(ecs_sched_time),
                                                   &virt.time)) ||
        !(clocks->real = ecs_sched__register_clock(w, "Time<Real>", sizeof real, &real)) ||
        !(clocks->virtual_ =
              ecs_sched__register_clock(w, "Time<Virtual>", sizeof virt, &virt)) ||
        !(clocks->fixed = ecs_sched__register_clock(w, "Time<Fixed>", sizeof fixed, &fixed))) {
        result = w->env.last_result;
        if (clocks->time) ecs_sched_resource_remove(w, clocks->time);
        if (clocks->real) ecs_sched_resource_remove(w, clocks->real);
        if (clocks->virtual_) ecs_sched_resource_remove(w, clocks->virtual_);
        ecs_sched__free(&w->env, clocks);
        return result != ECS_SCHED_OK ? result : ECS_SCHED_ERR_OUT_OF_MEMORY;
    }
    ecs_sched__part_set(w, &ecs_sched__clocks_key, clocks);
    ecs_sched__snapshot_part_add(w, &ecs_sched__clocks_part);
    return ECS_SCHED_OK;
}

ecs_sched_id ecs_sched_time_id(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__clocks_of(w) ? ecs_sched__clocks_of(w)->time : 0;
}

ecs_sched_id ecs_sched_time_real_id(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__clocks_of(w) ? ecs_sched__clocks_of(w)->real : 0;
}

ecs_sched_id ecs_sched_time_virtual_id(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__clocks_of(w) ? ecs_sched__clocks_of(w)->virtual_ : 0;
}

ecs_sched_id ecs_sched_time_fixed_id(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__clocks_of(w) ? ecs_sched__clocks_of(w)->fixed : 0;
}

const ecs_sched_time *ecs_sched_ctx_time(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *w = ctx->world;
    if (!ecs_sched__clocks_of(w)) {
        ecs_sched__ctx_vfail(ctx, ECS_SCHED_ERR_MISSING_RESOURCE, false,
                             "reads the time, but this world has no clocks (create an app, or "
                             "call ecs_sched_time_setup first)");
        return NULL;
    }
    if (!ecs_sched_resource_exists(w, ecs_sched__clocks_of(w)->time)) {
        ecs_sched__ctx_vfail(ctx, ECS_SCHED_ERR_MISSING_RESOURCE, false,
                             "reads the time, but resource 'Time' was removed");
        return NULL;
    }
    return (const ecs_sched_time *)ecs_sched_ctx_resource(ctx, ecs_sched__clocks_of(w)->time);
}

int64_t ecs_sched_time_now(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__clocks_of(w)) return ecs_sched__system_clock(NULL);
    return ecs_sched__clocks_of(w)->clock(ecs_sched__clocks_of(w)->user_data);
}

void ecs_sched_time_sleep(const ecs_sched_world *w, int64_t duration_ns) {
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__clocks_of(w)) {
        ecs_sched__system_sleep(duration_ns, NULL);
        return;
    }
    ecs_sched__clocks_of(w)->sleep(duration_ns, ecs_sched__clocks_of(w)->user_data);
}

/* The settings a system may have written into Time<Virtual>, checked before they are used. */
static ecs_sched_result ecs_sched__check_virtual(ecs_sched_world *w,
                                                 const ecs_sched_time_virtual *v) {
    if (!ecs_sched__speed_valid(v->relative_speed)) {
        return ecs_sched__bad_setting(w, "Time<Virtual>.relative_speed",
                                      "between 0 and 1e9 (set it with ecs_sched_time_set_speed)",
                                      v->relative_speed);
    }
    if (v->max_delta_ns <= 0) {
        return ecs_sched__bad_setting(w, "Time<Virtual>.max_delta_ns",
                                      "> 0 (set it with ecs_sched_time_set_max_delta)",
                                      (double)v->max_delta_ns);
    }
    return ECS_SCHED_OK;
}

/* The real delta times the speed, then capped (after the speed: at any speed a frame moves
   the game by max_delta_ns at most); the speed that gave is kept as effective_speed. */
static int64_t ecs_sched__virtual_delta(ecs_sched_time_virtual *v, int64_t real_delta) {
    int64_t scaled = real_delta;
    if (v->paused) {
        v->effective_speed = 0;
        return 0;
    }
    if (v->relative_speed < 1.0 || v->relative_speed > 1.0) {
        double product = (double)real_delta * v->relative_speed + 0.5;
        scaled = product >= 9.2e18 ? INT64_MAX : (int64_t)product;
    }
    if (scaled > v->max_delta_ns) {
        v->effective_speed = (double)v->max_delta_ns / (double)real_delta;
        return v->max_delta_ns;
    }
    v->effective_speed = v->relative_speed;
    return scaled;
}

ecs_sched_result ecs_sched_time_advance_by(ecs_sched_world *w, int64_t real_delta_ns) {
    const char *operation = "time_advance";
    ecs_sched_time_real *real;
    ecs_sched_time_virtual *virt;
    ecs_sched_time *now;
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__clocks_known(w, operation)) return w->env.last_result;
    if (real_delta_ns < 0) {
        return ecs_sched__bad_setting(w, "time_advance: the delta", ">= 0 (in nanoseconds)",
                                      (double)real_delta_ns);
    }
    if (!(real = (ecs_sched_time_real *)ecs_sched__required_resource(w, ecs_sched__clocks_of(w)->real, operation)) ||
        !(virt = ecs_sched__virtual_clock(w, operation)) ||
        !(now = (ecs_sched_time *)ecs_sched__required_resource(w, ecs_sched__clocks_of(w)->time, operation))) {
        return w->env.last_result;
    }
    result = ecs_sched__check_virtual(w, virt);
    if (result != ECS_SCHED_OK) return result;
    ecs_sched__clock_advance(&real->time, real_delta_ns);
    ecs_sched__clock_advance(&virt->time, ecs_sched__virtual_delta(virt, real_delta_ns));
    *now = virt->time;
    if (!ecs_sched__clocks_of(w)->advanced) return ECS_SCHED_OK;
    return ecs_sched__clocks_of(w)->advanced(w, 0, virt->time.elapsed_ns);
}

ecs_sched_result ecs_sched_time_advance(ecs_sched_world *w) {
    ecs_sched_time_real *real;
    int64_t reading, delta;
    ecs_sched_result result;
    bool delayed;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__clocks_known(w, "time_advance")) return w->env.last_result;
    real = (ecs_sched_time_real *)ecs_sched__required_resource(w, ecs_sched__clocks_of(w)->real, "time_advance");
    if (!real) return w->env.last_result;
    reading = ecs_sched__clocks_of(w)->clock(ecs_sched__clocks_of(w)->user_data);
    delayed = ecs_sched__clocks_of(w)->waiting_count[0] != 0;
    delta = ecs_sched__clocks_of(w)->has_reading ? reading - real->last_reading_ns : 0;
    if (delta < 0) {
        ecs_sched__logf(&w->env, ECS_SCHED_LOG_WARN, ECS_SCHED_OK,
                        "time_advance: the clock hook read %lld ns, earlier than its previous "
                        "reading, %lld ns: a clock hook must be monotonic; this frame advances "
                        "by 0 and the next measures from the new reading",
                        (long long)reading, (long long)real->last_reading_ns);
        real->backward_readings++;
        delta = 0;
    }
    result = ecs_sched_time_advance_by(w, delta);
    if (result == ECS_SCHED_OK) {
        /* found again when delayed commands ran: one may have set the resource anew */
        if (delayed) real = (ecs_sched_time_real *)ecs_sched_resource_get_mut(w, ecs_sched__clocks_of(w)->real);
        if (real) real->last_reading_ns = reading;
        ecs_sched__clocks_of(w)->has_reading = true;
    }
    return result;
}

ecs_sched_result ecs_sched_time_set_paused(ecs_sched_world *w, bool paused) {
    ecs_sched_time_virtual *virt;
    ECS_SCHED__CHECK_WORLD(w);
    virt = ecs_sched__virtual_clock(w, "time_set_paused");
    if (!virt) return w->env.last_result;
    virt->paused = paused;
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_time_set_speed(ecs_sched_world *w, double relative_speed) {
    ecs_sched_time_virtual *virt;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__speed_valid(relative_speed)) {
        return ecs_sched__bad_setting(w, "time_set_speed: the relative speed",
                                      "between 0 and 1e9 (1: real time; pause with "
                                      "ecs_sched_time_set_paused)", relative_speed);
    }
    virt = ecs_sched__virtual_clock(w, "time_set_speed");
    if (!virt) return w->env.last_result;
    virt->relative_speed = relative_speed;
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_time_set_max_delta(ecs_sched_world *w, int64_t max_delta_ns) {
    ecs_sched_time_virtual *virt;
    ECS_SCHED__CHECK_WORLD(w);
    if (max_delta_ns <= 0) {
        return ecs_sched__bad_setting(w, "time_set_max_delta: the maximum delta",
                                      "> 0 nanoseconds (default 250 ms)", (double)max_delta_ns);
    }
    virt = ecs_sched__virtual_clock(w, "time_set_max_delta");
    if (!virt) return w->env.last_result;
    virt->max_delta_ns = max_delta_ns;
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_time_set_fixed_step(ecs_sched_world *w, int64_t step_ns) {
    ecs_sched_time_fixed *fixed;
    ECS_SCHED__CHECK_WORLD(w);
    if (step_ns <= 0) {
        return ecs_sched__bad_setting(w, "time_set_fixed_step: the step",
                                      "> 0 nanoseconds (ECS_SCHED_HZ(64) is 1/64 s)",
                                      (double)step_ns);
    }
    fixed = ecs_sched__fixed_clock(w, "time_set_fixed_step");
    if (!fixed) return w->env.last_result;
    fixed->step_ns = step_ns;
    fixed->time.delta_ns = step_ns;
    fixed->time.delta_seconds = (double)step_ns / 1e9;
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_time_set_max_steps_per_frame(ecs_sched_world *w, int32_t max_steps) {
    ecs_sched_time_fixed *fixed;
    ECS_SCHED__CHECK_WORLD(w);
    if (max_steps < 0) {
        return ecs_sched__bad_setting(w, "time_set_max_steps_per_frame: the cap",
                                      ">= 0 (0: no cap)", (double)max_steps);
    }
    fixed = ecs_sched__fixed_clock(w, "time_set_max_steps_per_frame");
    if (!fixed) return w->env.last_result;
    fixed->max_steps_per_frame = max_steps;
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_time_set_wrap_period(ecs_sched_world *w, int64_t period_ns) {
    const char *operation = "time_set_wrap_period";
    ecs_sched_time *now;
    ecs_sched_time_real *real;
    ecs_sched_time_virtual *virt;
    ecs_sched_time_fixed *fixed;
    ECS_SCHED__CHECK_WORLD(w);
    if (period_ns <= 0) {
        return ecs_sched__bad_setting(w, "time_set_wrap_period: the period",
                                      "> 0 nanoseconds (default one hour)", (double)period_ns);
    }
    if (!ecs_sched__clocks_known(w, operation) ||
        !(now = (ecs_sched_time *)ecs_sched__required_resource(w, ecs_sched__clocks_of(w)->time, operation)) ||
        !(real = (ecs_sched_time_real *)ecs_sched__required_resource(w, ecs_sched__clocks_of(w)->real,
                                                                      operation)) ||
        !(virt = ecs_sched__virtual_clock(w, operation)) ||
        !(fixed = ecs_sched__fixed_clock(w, operation))) {
        return w->env.last_result;
    }
    now->wrap_period_ns = period_ns;
    real->time.wrap_period_ns = period_ns;
    virt->time.wrap_period_ns = period_ns;
    fixed->time.wrap_period_ns = period_ns;
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_time_discard_overstep(ecs_sched_world *w) {
    ecs_sched_time_fixed *fixed;
    ECS_SCHED__CHECK_WORLD(w);
    fixed = ecs_sched__fixed_clock(w, "time_discard_overstep");
    if (!fixed) return w->env.last_result;
    fixed->overstep_ns = 0;
    fixed->overstep_fraction = 0;
    return ECS_SCHED_OK;
}

/* ---- the fixed-timestep runner ---- */

/* The clocks the runner works on, looked up again after each step: a system of FixedMain may
   have removed one (then NULL, with the failure recorded). */
typedef struct ecs_sched__runner_clocks {
    ecs_sched_time_virtual *virt;
    ecs_sched_time_fixed *fixed;
    ecs_sched_time *now;
} ecs_sched__runner_clocks;

static bool ecs_sched__runner_clocks_find(ecs_sched_world *w, ecs_sched__runner_clocks *c) {
    const char *operation = "run_fixed_main_loop";
    return (c->virt = ecs_sched__virtual_clock(w, operation)) != NULL &&
           (c->fixed = ecs_sched__fixed_clock(w, operation)) != NULL &&
           (c->now = (ecs_sched_time *)ecs_sched__required_resource(w, ecs_sched__clocks_of(w)->time,
                                                                    operation)) != NULL;
}

/* What the runner needs before it takes any time: its clocks, FixedMain, valid settings. */
static ecs_sched_result ecs_sched__runner_ready(ecs_sched_world *w, ecs_sched__runner_clocks *c) {
    const ecs_sched_time_fixed *fixed;
    if (!ecs_sched__runner_clocks_find(w, c)) return w->env.last_result;
    if (!ecs_sched__clocks_of(w)->fixed_main) {
        ecs_sched__clocks_of(w)->fixed_main = ecs_sched__schedule_known(w, ECS_SCHED_FIXED_MAIN);
        if (!ecs_sched__clocks_of(w)->fixed_main) return w->env.last_result;
    }
    fixed = c->fixed;
    if (fixed->step_ns <= 0) {
        return ecs_sched__bad_setting(w, "Time<Fixed>.step_ns",
                                      "> 0 (set it with ecs_sched_time_set_fixed_step)",
                                      (double)fixed->step_ns);
    }
    if (fixed->max_steps_per_frame < 0) {
        return ecs_sched__bad_setting(w, "Time<Fixed>.max_steps_per_frame", ">= 0",
                                      (double)fixed->max_steps_per_frame);
    }
    return ECS_SCHED_OK;
}

/* Drops the whole steps left when the cap stopped the runner; the part of a step stays. */
static void ecs_sched__drop_whole_steps(ecs_sched_time_fixed *fixed, int64_t step) {
    int64_t whole = fixed->overstep_ns / step;
    fixed->overstep_ns -= whole * step;
    fixed->dropped_steps = ecs_sched__add_saturated(fixed->dropped_steps, whole);
}

/* The delayed commands due at this step, applied before FixedMain runs; false when they
   failed (the runner's failure, recorded). */
static bool ecs_sched__fixed_step_delays(ecs_sched_system_ctx *ctx, ecs_sched__runner_clocks *c) {
    ecs_sched_world *w = ctx->world;
    char reason[ECS_SCHED__ERROR_CAPACITY];
    if (!ecs_sched__clocks_of(w)->advanced ||
        ecs_sched__clocks_of(w)->advanced(w, 1, c->fixed->time.elapsed_ns) == ECS_SCHED_OK) {
        /* the commands may have replaced a clock resource */
        return ecs_sched__runner_clocks_find(w, c);
    }
    ecs_sched__append(reason, sizeof reason, 0, w->env.last_error);
    ecs_sched_ctx_fail(ctx, w->env.last_result,
                       "delayed commands due on the fixed clock at %lld ns failed: %s",
                       (long long)c->fixed->time.elapsed_ns, reason);
    return false;
}

/* One step: the fixed clock advances, "Time" shows it, the delayed commands due then are
   applied, and FixedMain runs. *stopped is set when the delayed commands failed. */
static ecs_sched_result ecs_sched__fixed_step(ecs_sched_system_ctx *ctx,
                                              ecs_sched__runner_clocks *c, int64_t step,
                                              bool *stopped) {
    ecs_sched_world *w = ctx->world;
    ecs_sched_time_fixed *fixed = c->fixed;
    fixed->overstep_ns -= step;
    ecs_sched__clock_advance(&fixed->time, step);
    fixed->overstep_fraction = (double)fixed->overstep_ns / (double)step;
    *c->now = fixed->time;
    if (ecs_sched__clocks_of(w)->waiting_count[1] && !ecs_sched__fixed_step_delays(ctx, c)) {
        *stopped = true;
        return w->env.last_result;
    }
    return ecs_sched__run_schedule(w, ecs_sched__clocks_of(w)->fixed_main);
}

/* The step is read once per run: a step set while FixedMain runs applies from the next run. */
void ecs_sched_run_fixed_main_loop(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *w = ctx->world;
    ecs_sched__runner_clocks c = {NULL, NULL, NULL};
    ecs_sched_result result = ecs_sched__runner_ready(w, &c);
    int64_t step;
    int32_t steps = 0;
    bool stopped = false;
    if (result != ECS_SCHED_OK) return;   /* the system's failure already */
    step = c.fixed->step_ns;
    c.fixed->overstep_ns = ecs_sched__add_saturated(c.fixed->overstep_ns, c.virt->time.delta_ns);
    while (c.fixed->overstep_ns >= step) {
        if (c.fixed->max_steps_per_frame && steps >= c.fixed->max_steps_per_frame) {
            ecs_sched__drop_whole_steps(c.fixed, step);
            break;
        }
        steps++;
#ifdef ECS_SCHED_TRACE
        if (ecs_sched__tracing(w)) {
            int64_t begin = ecs_sched__trace_ticks();
            result = ecs_sched__fixed_step(ctx, &c, step, &stopped);
            ecs_sched__trace_add(w, ECS_SCHED__TRACE_FIXED, "fixed step", ECS_SCHED_FIXED_MAIN,
                                 NULL, begin, ecs_sched__trace_ticks(), steps);
        } else
#endif
        result = ecs_sched__fixed_step(ctx, &c, step, &stopped);
        if (stopped) return;
        w->fixed_step_since_update = true;
        if (!ecs_sched__runner_clocks_find(w, &c)) return;   /* a step removed the clocks */
        /* a step that failed is this system's failure already; the steps left run unless
           FixedMain's run stopped at it */
        if (ecs_sched__run_cut_short(ecs_sched__clocks_of(w)->fixed_main, result)) break;
    }
    c.fixed->overstep_fraction = (double)c.fixed->overstep_ns / (double)step;
    c.fixed->steps_this_frame = steps;
    if (c.fixed->time.delta_ns != c.fixed->step_ns) {
        /* a step set while FixedMain ran shows as the delta now, as set_fixed_step promises */
        c.fixed->time.delta_ns = c.fixed->step_ns;
        c.fixed->time.delta_seconds = (double)c.fixed->step_ns / 1e9;
    }
    *c.now = c.virt->time;
}

ecs_sched_system_desc ecs_sched_fixed_main_loop_system(void) {
    ecs_sched_system_desc d;
    memset(&d, 0, sizeof d);
    d.name = "run_fixed_main_loop";
    d.fn = ecs_sched_run_fixed_main_loop;
    d.exclusive = true;
    return d;
}

/* ---- conditions on time ----

   Made as a user makes a condition (condition.h): a fn that feeds the instance's own timer
   with the delta of "Time" (or reads whether Time<Virtual> is paused), and a setup that
   checks the clocks and the duration as each instance is added. */

static const char *ecs_sched__time_condition_name(ecs_sched_condition_kind kind) {
    switch (kind) {
    case ECS_SCHED_CONDITION_ON_TIMER: return "on_timer";
    case ECS_SCHED_CONDITION_ONCE_AFTER_DELAY: return "once_after_delay";
    case ECS_SCHED_CONDITION_REPEATING_AFTER_DELAY: return "repeating_after_delay";
    case ECS_SCHED_CONDITION_TIME_PAUSED: return "time_paused";
    case ECS_SCHED_CONDITION_FN:
    case ECS_SCHED_CONDITION_AND:
    case ECS_SCHED_CONDITION_OR:
    case ECS_SCHED_CONDITION_NOT:
    case ECS_SCHED_CONDITION_RESOURCE_EXISTS:
    case ECS_SCHED_CONDITION_RESOURCE_EQUALS:
    case ECS_SCHED_CONDITION_RUN_ONCE:
    case ECS_SCHED_CONDITION_IN_STATE:
    case ECS_SCHED_CONDITION_STATE_EXISTS:
    case ECS_SCHED_CONDITION_STATE_CHANGED:
    case ECS_SCHED_CONDITION_STATE_IN_STACK:
    case ECS_SCHED_CONDITION_RESOURCE_ADDED:
    case ECS_SCHED_CONDITION_RESOURCE_CHANGED:
    case ECS_SCHED_CONDITION_ON_MESSAGE:
    case ECS_SCHED_CONDITION_ANY_COMPONENT_REMOVED:
        break;
    }
    return "condition";
}

/* Checks a time condition as it is added, points it at the clock it reads, and names it
   after its kind unless it has a name. */
static ecs_sched_result ecs_sched__time_condition_setup(ecs_sched_world *w,
                                                        ecs_sched_system_ctx *instance,
                                                        const ecs_sched_condition *c) {
    ecs_sched__cond *node = ecs_sched__cond_of(instance);
    const char *name = c->name ? c->name : ecs_sched__time_condition_name(c->kind);
    bool periodic = c->kind == ECS_SCHED_CONDITION_ON_TIMER;
    if (!ecs_sched__clocks_of(w)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_MISSING_RESOURCE,
                               "condition '%s' reads the time, but this world has no clocks "
                               "(create an app, or call ecs_sched_time_setup first)", name);
    }
    if (c->duration_ns < 0 || (periodic && c->duration_ns == 0)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "condition '%s': its duration is %lld ns; it must be %s", name,
                               (long long)c->duration_ns, periodic ? "> 0" : ">= 0");
    }
    if (!c->name) {
        char *copy = ecs_sched__strdup(&w->env, name);
        if (!copy) return ecs_sched__out_of_memory(w, "copying a run condition");
        ecs_sched__cond_rename(w, node, copy);
    }
    node->resource = c->kind == ECS_SCHED_CONDITION_TIME_PAUSED ? ecs_sched__clocks_of(w)->virtual_
                                                                : ecs_sched__clocks_of(w)->time;
    node->timer = ecs_sched_timer_make(c->duration_ns, periodic ? ECS_SCHED_TIMER_REPEATING
                                                                : ECS_SCHED_TIMER_ONCE);
    return ECS_SCHED_OK;
}

/* The clock resource the instance reads, or NULL when it was removed. */
static const void *ecs_sched__time_condition_clock(const ecs_sched_world *w,
                                                   const ecs_sched__cond *c) {
    return c->resource < w->component_count ? w->resources[c->resource] : NULL;
}

/* Feeds the instance's timer with the current delta: whether it fired (once_after_delay:
   in this tick; on_timer: at least once in this tick). */
static bool ecs_sched__timer_fired(ecs_sched_system_ctx *ctx) {
    ecs_sched__cond *c = ecs_sched__cond_of(ctx);
    const ecs_sched_time *clock =
        (const ecs_sched_time *)ecs_sched__time_condition_clock(ctx->world, c);
    if (!clock) return false;
    return ecs_sched_timer_tick(&c->timer, clock->delta_ns) > 0;
}

/* The same, true from the tick it finishes on. */
static bool ecs_sched__delay_elapsed(ecs_sched_system_ctx *ctx) {
    ecs_sched__cond *c = ecs_sched__cond_of(ctx);
    const ecs_sched_time *clock =
        (const ecs_sched_time *)ecs_sched__time_condition_clock(ctx->world, c);
    if (!clock) return false;
    ecs_sched_timer_tick(&c->timer, clock->delta_ns);
    return c->timer.finished;
}

static bool ecs_sched__time_is_paused(ecs_sched_system_ctx *ctx) {
    const ecs_sched_time_virtual *clock = (const ecs_sched_time_virtual *)
        ecs_sched__time_condition_clock(ctx->world, ecs_sched__cond_of(ctx));
    return clock && clock->paused;
}

static ecs_sched_condition ecs_sched__time_condition(ecs_sched_condition_kind kind,
                                                     ecs_sched_condition_fn fn,
                                                     int64_t duration_ns) {
    ecs_sched_condition c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.fn = fn;
    c.setup = ecs_sched__time_condition_setup;
    c.duration_ns = duration_ns;
    return c;
}

ecs_sched_condition ecs_sched_condition_on_timer(int64_t period_ns) {
    return ecs_sched__time_condition(ECS_SCHED_CONDITION_ON_TIMER, ecs_sched__timer_fired,
                                     period_ns);
}

ecs_sched_condition ecs_sched_condition_once_after_delay(int64_t delay_ns) {
    return ecs_sched__time_condition(ECS_SCHED_CONDITION_ONCE_AFTER_DELAY,
                                     ecs_sched__timer_fired, delay_ns);
}

ecs_sched_condition ecs_sched_condition_repeating_after_delay(int64_t delay_ns) {
    return ecs_sched__time_condition(ECS_SCHED_CONDITION_REPEATING_AFTER_DELAY,
                                     ecs_sched__delay_elapsed, delay_ns);
}

ecs_sched_condition ecs_sched_condition_time_paused(void) {
    return ecs_sched__time_condition(ECS_SCHED_CONDITION_TIME_PAUSED, ecs_sched__time_is_paused,
                                     0);
}
