/* trace_events: the timed events a trace records, kept in one buffer per world (trace.h
   starts, stops and writes a trace; what runs records itself here). */
#pragma once
#include "registry.h"

/*@@ implementation @@*/
/* trace_events: recording timed events. Low in the order so that what runs (observers,
   systems, transitions) can record itself without knowing who reads the recording. */

#ifdef ECS_SCHED_TRACE

#define ECS_SCHED__TRACE_DEFAULT_CAPACITY 65536

typedef enum ecs_sched__trace_kind {
    ECS_SCHED__TRACE_FRAME,
    ECS_SCHED__TRACE_SCHEDULE,
    ECS_SCHED__TRACE_SYSTEM,
    ECS_SCHED__TRACE_CONDITION,
    ECS_SCHED__TRACE_SYNC,
    ECS_SCHED__TRACE_FIXED,
    ECS_SCHED__TRACE_TRANSITION,
    ECS_SCHED__TRACE_OBSERVER,
    ECS_SCHED__TRACE_FAILURE,      /* instants from here on */
    ECS_SCHED__TRACE_SKIPPED,
    ECS_SCHED__TRACE_DISABLED,
    ECS_SCHED__TRACE_HELD,
    ECS_SCHED__TRACE_MESSAGES,
    ECS_SCHED__TRACE_KIND_COUNT
} ecs_sched__trace_kind;

/* One recorded event. Its strings are the world's (system, schedule, condition, set and
   state names), which live as long as it does. */
typedef struct ecs_sched__trace_event {
    int64_t begin, end;          /* trace clock ticks */
    const char *name;
    const char *schedule;
    const char *detail;          /* a condition: what it guards; a transition: "from -> to" parts */
    int32_t arg;                 /* commands applied, a condition's result, a step number */
    int16_t thread;
    uint8_t kind;
    uint8_t pad;
} ecs_sched__trace_event;

typedef struct ecs_sched__trace ecs_sched__trace;
struct ecs_sched__trace {
    ecs_sched__trace_event *events;
    int32_t capacity;
#ifdef ECS_SCHED_THREADS
    atomic_int_least64_t next;   /* events asked for: past capacity, dropped */
#else
    int64_t next;
#endif
    int32_t frames_wanted, frames;
    char *path;
    int64_t start_ticks, start_ns;   /* the clock's pairing, for ticks to nanoseconds */
    int64_t stop_ticks, stop_ns;
    bool running;
    bool in_app_frame;           /* an app update is on: it, not its schedules, is the frame */
};

/* A world's recording is a part of it (registry.h). */
static ecs_sched__part_key ecs_sched__trace_key;

static inline ecs_sched__trace *ecs_sched__trace_of(const ecs_sched_world *w) {
    return (ecs_sched__trace *)ecs_sched__part(w, &ecs_sched__trace_key);
}

/* ---- the clock ----

   The time stamp counter where there is one (a tenth of the cost of clock_gettime, which
   would take most of the budget of a recorded system), paired with the monotonic clock at the
   start and at the end of the recording (ecs_sched__system_clock, base.h) to turn ticks into
   nanoseconds. */

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
static inline int64_t ecs_sched__trace_ticks(void) {
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return (int64_t)(((uint64_t)hi << 32) | lo);
}
#else
static inline int64_t ecs_sched__trace_ticks(void) {
    return ecs_sched__system_clock(NULL);
}
#endif

/* ---- recording ---- */

static int16_t ecs_sched__trace_thread(const ecs_sched_world *w) {
#ifdef ECS_SCHED_THREADS
    if (w->pool) {
        int32_t self = ecs_sched__self(w->pool);
        return (int16_t)(self > 0 ? self : 0);
    }
#endif
    (void)w;
    return 0;
}

static int64_t ecs_sched__trace_take_slot(ecs_sched__trace *t) {
#ifdef ECS_SCHED_THREADS
    return atomic_fetch_add_explicit(&t->next, 1, memory_order_relaxed);
#else
    return t->next++;
#endif
}

static int64_t ecs_sched__trace_asked(ecs_sched__trace *t) {
#ifdef ECS_SCHED_THREADS
    return atomic_load_explicit(&t->next, memory_order_relaxed);
#else
    return t->next;
#endif
}

/* Records one event, or counts it as dropped when the buffer is full. */
static void ecs_sched__trace_add(ecs_sched_world *w, ecs_sched__trace_kind kind,
                                 const char *name, const char *schedule, const char *detail,
                                 int64_t begin, int64_t end, int32_t arg) {
    ecs_sched__trace *t = ecs_sched__trace_of(w);
    int64_t slot;
    ecs_sched__trace_event *e;
    if (!t || !t->running) return;
    slot = ecs_sched__trace_take_slot(t);
    if (slot >= t->capacity) return;
    e = &t->events[slot];
    e->begin = begin;
    e->end = end;
    e->name = name;
    e->schedule = schedule;
    e->detail = detail;
    e->arg = arg;
    e->thread = ecs_sched__trace_thread(w);
    e->kind = (uint8_t)kind;
    e->pad = 0;
}

static bool ecs_sched__tracing(const ecs_sched_world *w) {
    return ecs_sched__trace_of(w) && ecs_sched__trace_of(w)->running;
}

#endif /* ECS_SCHED_TRACE */
