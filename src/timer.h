/* timer: timers and stopwatches, plain values a system ticks with the clock's delta. */
#pragma once
#include "base.h"

/* A stopwatch counts the time it is ticked with, unless paused. The zero value is a running
   stopwatch at 0. Fields may be read and written directly (elapsed_ns is set_elapsed). */
typedef struct ecs_sched_stopwatch {
    int64_t elapsed_ns;
    bool paused;
} ecs_sched_stopwatch;

typedef enum ecs_sched_timer_mode {
    ECS_SCHED_TIMER_ONCE,        /* finishes once, then stays finished until reset */
    ECS_SCHED_TIMER_REPEATING    /* starts over each time it finishes, keeping the rest */
} ecs_sched_timer_mode;

/* A timer: a stopwatch with a duration. Keep one in a component or resource and tick it with
   the delta of "Time" each run:

       Cooldown *c = ECS_SCHED_FIELD(&it, Cooldown, 0);
       if (ecs_sched_timer_tick(&c[i].timer, time->delta_ns)) fire(...);

   The fields may be read directly; setting elapsed_ns, duration_ns or paused directly is
   allowed too (a timer whose elapsed time passes its duration that way finishes at its next
   tick). elapsed_ns stays in [0, duration_ns] while ticked: a once timer stops at its
   duration, a repeating one keeps the remainder of the last period. */
typedef struct ecs_sched_timer {
    int64_t elapsed_ns;
    int64_t duration_ns;          /* >= 0 */
    uint32_t times_finished;      /* in the last tick: 0 or 1 for a once timer; a repeating
                                     timer ticked by 10 periods finished 10 times (a repeating
                                     timer of duration 0 says UINT32_MAX) */
    uint8_t mode;                 /* ecs_sched_timer_mode */
    bool finished;                /* a once timer: since it reached its duration; a
                                     repeating one: in the last tick */
    bool paused;
} ecs_sched_timer;

ECS_SCHED_API ecs_sched_timer ecs_sched_timer_make(int64_t duration_ns,
                                                   ecs_sched_timer_mode mode);
/* Finished in the last tick (times_finished > 0). */
ECS_SCHED_API bool ecs_sched_timer_just_finished(const ecs_sched_timer *timer);
/* duration - elapsed, and the same in seconds. */
ECS_SCHED_API int64_t ecs_sched_timer_remaining(const ecs_sched_timer *timer);
ECS_SCHED_API double ecs_sched_timer_remaining_seconds(const ecs_sched_timer *timer);
ECS_SCHED_API double ecs_sched_timer_elapsed_seconds(const ecs_sched_timer *timer);
/* elapsed / duration in [0, 1] (1 for a duration of 0), and remaining / duration. */
ECS_SCHED_API double ecs_sched_timer_fraction(const ecs_sched_timer *timer);
ECS_SCHED_API double ecs_sched_timer_fraction_remaining(const ecs_sched_timer *timer);
/* Back to 0, not finished; the pause and the mode stay. */
ECS_SCHED_API void ecs_sched_timer_reset(ecs_sched_timer *timer);
/* Turning a finished once timer into a repeating one starts it over. */
ECS_SCHED_API void ecs_sched_timer_set_mode(ecs_sched_timer *timer, ecs_sched_timer_mode mode);
/* A tick by the time remaining (it finishes now), or by 1 ns less (it finishes at the next
   tick of at least 1 ns). Both count as the last tick. */
ECS_SCHED_API void ecs_sched_timer_finish(ecs_sched_timer *timer);
ECS_SCHED_API void ecs_sched_timer_almost_finish(ecs_sched_timer *timer);

/* Advances by delta_ns (< 0 counts as 0) unless paused, stopping at INT64_MAX. */
ECS_SCHED_API void ecs_sched_stopwatch_tick(ecs_sched_stopwatch *stopwatch, int64_t delta_ns);
ECS_SCHED_API double ecs_sched_stopwatch_elapsed_seconds(const ecs_sched_stopwatch *stopwatch);
/* Back to 0; the pause stays. */
ECS_SCHED_API void ecs_sched_stopwatch_reset(ecs_sched_stopwatch *stopwatch);

/* a + b for b >= 0, stopping at INT64_MAX: clocks and timers saturate rather than wrap. */
static inline int64_t ecs_sched__add_saturated(int64_t a, int64_t b) {
    return b > 0 && a > INT64_MAX - b ? INT64_MAX : a + b;
}

/* The periods a repeating timer went through; elapsed keeps the rest. */
static inline uint32_t ecs_sched__timer_wrap(ecs_sched_timer *t) {
    int64_t periods;
    if (t->duration_ns <= 0) {
        t->elapsed_ns = 0;
        return UINT32_MAX;
    }
    periods = t->elapsed_ns / t->duration_ns;
    t->elapsed_ns -= periods * t->duration_ns;
    return periods > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)periods;
}

/* Advances by delta_ns (< 0 counts as 0) unless paused; returns times_finished. A paused
   timer only forgets the last tick: times_finished 0, and a repeating one is not finished.
   Inline, like the term constructors: a system ticks a timer per entity. */
static inline uint32_t ecs_sched_timer_tick(ecs_sched_timer *t, int64_t delta_ns) {
    bool repeating = t->mode == ECS_SCHED_TIMER_REPEATING;
    if (t->paused) {
        t->times_finished = 0;
        if (repeating) t->finished = false;
        return 0;
    }
    if (!repeating && t->finished) {
        t->times_finished = 0;
        return 0;
    }
    t->elapsed_ns = ecs_sched__add_saturated(t->elapsed_ns, delta_ns > 0 ? delta_ns : 0);
    t->finished = t->elapsed_ns >= t->duration_ns;
    if (!t->finished) {
        t->times_finished = 0;
    } else if (repeating) {
        t->times_finished = ecs_sched__timer_wrap(t);
    } else {
        t->times_finished = 1;
        t->elapsed_ns = t->duration_ns;
    }
    return t->times_finished;
}

/*@@ implementation @@*/
/* timer: timers and stopwatches, plain values a system ticks with the clock's delta. */

ecs_sched_timer ecs_sched_timer_make(int64_t duration_ns, ecs_sched_timer_mode mode) {
    ecs_sched_timer t;
    ECS_SCHED_ASSERT(duration_ns >= 0 && "a timer's duration is >= 0 nanoseconds");
    memset(&t, 0, sizeof t);
    t.duration_ns = duration_ns;
    t.mode = (uint8_t)mode;
    return t;
}

bool ecs_sched_timer_just_finished(const ecs_sched_timer *t) {
    return t->times_finished > 0;
}

int64_t ecs_sched_timer_remaining(const ecs_sched_timer *t) {
    return t->duration_ns - t->elapsed_ns;
}

double ecs_sched_timer_remaining_seconds(const ecs_sched_timer *t) {
    return (double)(t->duration_ns - t->elapsed_ns) / 1e9;
}

double ecs_sched_timer_elapsed_seconds(const ecs_sched_timer *t) {
    return (double)t->elapsed_ns / 1e9;
}

/* Each a quotient of two integers, so that it is the double nearest the exact fraction. */
double ecs_sched_timer_fraction(const ecs_sched_timer *t) {
    if (t->duration_ns <= 0) return 1.0;
    return (double)t->elapsed_ns / (double)t->duration_ns;
}

double ecs_sched_timer_fraction_remaining(const ecs_sched_timer *t) {
    if (t->duration_ns <= 0) return 0.0;
    return (double)(t->duration_ns - t->elapsed_ns) / (double)t->duration_ns;
}

void ecs_sched_timer_reset(ecs_sched_timer *t) {
    t->elapsed_ns = 0;
    t->finished = false;
    t->times_finished = 0;
}

void ecs_sched_timer_set_mode(ecs_sched_timer *t, ecs_sched_timer_mode mode) {
    if (t->mode != ECS_SCHED_TIMER_REPEATING && mode == ECS_SCHED_TIMER_REPEATING &&
        t->finished) {
        t->elapsed_ns = 0;
        t->finished = t->times_finished > 0;
    }
    t->mode = (uint8_t)mode;
}

void ecs_sched_timer_finish(ecs_sched_timer *t) {
    ecs_sched_timer_tick(t, ecs_sched_timer_remaining(t));
}

void ecs_sched_timer_almost_finish(ecs_sched_timer *t) {
    ecs_sched_timer_tick(t, ecs_sched_timer_remaining(t) - 1);
}

void ecs_sched_stopwatch_tick(ecs_sched_stopwatch *s, int64_t delta_ns) {
    if (s->paused) return;
    s->elapsed_ns = ecs_sched__add_saturated(s->elapsed_ns, delta_ns > 0 ? delta_ns : 0);
}

double ecs_sched_stopwatch_elapsed_seconds(const ecs_sched_stopwatch *s) {
    return (double)s->elapsed_ns / 1e9;
}

void ecs_sched_stopwatch_reset(ecs_sched_stopwatch *s) {
    s->elapsed_ns = 0;
}
