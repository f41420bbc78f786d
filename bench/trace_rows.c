/* trace_rows.c: what the trace costs (included by bench.c). 1000 empty systems, as
   empty_systems_1000, on private copies of the library (schedule_copy.h; the rest of the
   benchmarks use one built without ECS_SCHED_TRACE): trace_off runs them on a copy built with
   it and nothing watching, against a copy built without it; trace_on records every run,
   against the same world with the trace off. */

#include "schedule_copy.h"

#define TRACE_SYSTEMS 1000

static ecs_sched_world *empty_systems_world(bench_row *row, int32_t n) {
    ecs_sched_world *w = quiet_world();
    ecs_sched_system_desc desc;
    int32_t i;
    if (!w) {
        fail(row, "world creation", NULL);
        return NULL;
    }
    memset(&desc, 0, sizeof desc);
    desc.name = "empty";
    desc.fn = empty_system;
    for (i = 0; i < n; i++) {
        if (ecs_sched_add_system(w, "Update", &desc) != ECS_SCHED_OK) {
            fail(row, "add_system", w);
            ecs_sched_world_destroy(w);
            return NULL;
        }
    }
    if (ecs_sched_run_schedule(w, "Update") != ECS_SCHED_OK) {
        fail(row, "run_schedule", w);
        ecs_sched_world_destroy(w);
        return NULL;
    }
    return w;
}

/* Frames per sample: as the schedule rows take them, from a probe of 100 frames. */
static int32_t trace_frames_per_sample(ecs_sched_world *w) {
    double t0 = now_ns();
    int32_t f;
    for (f = 0; f < 100; f++) ecs_sched_run_schedule(w, "Update");
    return frames_for(SYSTEMS_MIN_SAMPLE_NS, (now_ns() - t0) / 100);
}

static int untraced_frames(bench_row *row, void *state, int32_t reps) {
    if (untraced_copy_run((schedule_copy *)state, reps)) return 1;
    fail(row, "untraced run_schedule", NULL);
    return 0;
}

static int traced_off_frames(bench_row *row, void *state, int32_t reps) {
    if (traced_copy_run((schedule_copy *)state, reps)) return 1;
    fail(row, "traced run_schedule", NULL);
    return 0;
}

/* Both sides on private copies of the library compiled alike (schedule_copy.inc), so that the
   row sees what ECS_SCHED_TRACE changes and nothing of how a copy is linked. */
static void run_trace_off(bench_row *row) {
    schedule_copy *untraced = untraced_copy_create(TRACE_SYSTEMS);
    schedule_copy *traced = traced_copy_create(TRACE_SYSTEMS);
    ecs_sched_world *probe = empty_systems_world(row, TRACE_SYSTEMS);
    bench_sampling s;
    bench_medians m;
    int32_t frames;
    if (!untraced || !traced || !probe) {
        if (!untraced || !traced) fail(row, "a copy's world", NULL);
        if (probe) ecs_sched_world_destroy(probe);
        untraced_copy_destroy(untraced);
        traced_copy_destroy(traced);
        return;
    }
    frames = trace_frames_per_sample(probe);
    ecs_sched_world_destroy(probe);
    s = sampling(frames, TRACE_SYSTEMS);
    s.baseline = looped(untraced_frames, untraced);
    s.measured = looped(traced_off_frames, traced);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d systems, %d frame(s) per sample", TRACE_SYSTEMS, (int)frames);
    }
    untraced_copy_destroy(untraced);
    traced_copy_destroy(traced);
}

/* A sample of traced frames: the trace starts on the buffer the row filled once (so that no
   page is touched for the first time while timed), records `reps` frames, and stops. */
typedef struct traced_runs {
    schedule_copy *copy;
    int32_t capacity;
} traced_runs;

static int traced_frames(bench_row *row, void *state, int32_t reps) {
    const traced_runs *t = (const traced_runs *)state;
    int64_t dropped;
    int ok;
    if (!traced_copy_trace_start(t->copy, t->capacity)) {
        fail(row, "trace_start", NULL);
        return 0;
    }
    ok = traced_copy_run(t->copy, reps);
    dropped = traced_copy_trace_stop(t->copy);
    if (!ok || dropped != 0) {
        fail(row, ok ? "the trace dropped events: its buffer is too small" : "traced run", NULL);
        return 0;
    }
    return 1;
}

static void run_trace_on(bench_row *row) {
    schedule_copy *copy = traced_copy_create(TRACE_SYSTEMS);
    ecs_sched_world *probe = empty_systems_world(row, TRACE_SYSTEMS);
    traced_runs traced;
    bench_sampling s;
    bench_medians m;
    int32_t frames;
    if (!copy || !probe) {
        if (!copy) fail(row, "the traced copy's world", NULL);
        if (probe) ecs_sched_world_destroy(probe);
        traced_copy_destroy(copy);
        return;
    }
    frames = trace_frames_per_sample(probe);
    ecs_sched_world_destroy(probe);
    /* each frame records its systems, the schedule and the frame */
    traced.copy = copy;
    traced.capacity = frames * (TRACE_SYSTEMS + 2);
    if (traced_frames(row, &traced, frames)) {   /* fills the buffer once, untimed */
        s = sampling(frames, TRACE_SYSTEMS);
        s.baseline = looped(traced_off_frames, copy);
        s.measured = looped(traced_frames, &traced);
        if (sample_row(row, &s, &m)) {
            appendf(row, "%d systems, %d frame(s) per sample, %.1f ns/system more than the "
                         "trace off; a buffer of %d events",
                    TRACE_SYSTEMS, (int)frames, m.value - m.baseline, (int)traced.capacity);
        }
    }
    traced_copy_destroy(copy);
}
