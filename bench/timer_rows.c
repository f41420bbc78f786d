/* Timers: 1M timers in a component ticked by one system, against a raw loop doing the same
   arithmetic on an array. Included by bench.c. */

#define TIMER_COUNT 1000000
#define TIMER_FRAMES 4
#define TIMER_DELTA_NS 16666667   /* a 60 Hz frame */

/* The baseline's timer: the same fields as ecs_sched_timer, ticked by hand. */
typedef struct raw_timer {
    int64_t elapsed_ns;
    int64_t duration_ns;
    uint32_t times_finished;
    uint8_t repeating;
    bool finished;
    bool paused;
} raw_timer;

typedef struct timer_job {
    ecs_sched_world *world;
    raw_timer *raw;
    uint64_t fired;              /* times finished, summed over every tick */
} timer_job;

static uint64_t g_timer_fired;

/* The arithmetic of ecs_sched_timer_tick, written out: pause, a finished once timer, the
   saturating add, the periods of a repeating one. */
static BENCH_KERNEL uint64_t raw_timers_tick(raw_timer *t, int32_t n, int64_t delta) {
    uint64_t fired = 0;
    int32_t i;
    for (i = 0; i < n; i++) {
        raw_timer *r = &t[i];
        if (r->paused) {
            r->times_finished = 0;
            if (r->repeating) r->finished = false;
            continue;
        }
        if (!r->repeating && r->finished) {
            r->times_finished = 0;
            continue;
        }
        r->elapsed_ns = r->elapsed_ns > INT64_MAX - delta ? INT64_MAX : r->elapsed_ns + delta;
        r->finished = r->elapsed_ns >= r->duration_ns;
        if (!r->finished) {
            r->times_finished = 0;
        } else if (r->repeating) {
            int64_t periods = r->elapsed_ns / r->duration_ns;
            r->elapsed_ns -= periods * r->duration_ns;
            r->times_finished = (uint32_t)periods;
        } else {
            r->times_finished = 1;
            r->elapsed_ns = r->duration_ns;
        }
        fired += r->times_finished;
    }
    return fired;
}

/* The system's loop over one table, placed like the baseline's kernel (on a 64-byte
   boundary, not inlined) so that where the linker puts either loop cannot favour a side. */
static BENCH_KERNEL uint64_t library_timers_tick(ecs_sched_timer *t, int32_t n, int64_t delta) {
    uint64_t fired = 0;
    int32_t i;
    for (i = 0; i < n; i++) fired += ecs_sched_timer_tick(&t[i], delta);
    return fired;
}

static void tick_timers_system(ecs_sched_system_ctx *ctx) {
    int64_t delta = ecs_sched_ctx_time(ctx)->delta_ns;
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    uint64_t fired = 0;
    while (ecs_sched_iter_next(&it)) {
        fired += library_timers_tick(ECS_SCHED_FIELD(&it, ecs_sched_timer, 0), it.count, delta);
    }
    g_timer_fired += fired;
}

/* Timer i: 100 ms to 590 ms, every fourth one a once timer. */
static ecs_sched_timer timer_number(int32_t i) {
    return ecs_sched_timer_make(ECS_SCHED_MILLISECONDS(100 + 10 * (i % 50)),
                                i % 4 == 3 ? ECS_SCHED_TIMER_ONCE : ECS_SCHED_TIMER_REPEATING);
}

static int timer_job_make(bench_row *row, timer_job *job) {
    ecs_sched_timer *values = (ecs_sched_timer *)xmalloc(TIMER_COUNT * sizeof *values);
    ecs_sched_id timer;
    const void *arrays[1];
    int32_t i;
    job->raw = (raw_timer *)xmalloc(TIMER_COUNT * sizeof *job->raw);
    for (i = 0; i < TIMER_COUNT; i++) {
        values[i] = timer_number(i);
        memset(&job->raw[i], 0, sizeof job->raw[i]);
        job->raw[i].duration_ns = values[i].duration_ns;
        job->raw[i].repeating = values[i].mode == ECS_SCHED_TIMER_REPEATING;
    }
    job->world = ecs_sched_world_create(NULL);
    timer = ecs_sched_component_register_type(job->world, "Timer", sizeof(ecs_sched_timer),
                                              ECS_SCHED_ALIGNOF(ecs_sched_timer));
    arrays[0] = values;
    if (ecs_sched_time_setup(job->world, NULL) != ECS_SCHED_OK ||
        ecs_sched_time_advance_by(job->world, TIMER_DELTA_NS) != ECS_SCHED_OK ||
        ecs_sched_spawn_batch(job->world, TIMER_COUNT, 1, &timer, arrays, NULL) != ECS_SCHED_OK) {
        fail(row, "setting up the timers' world", job->world);
        free(values);
        return 0;
    }
    free(values);
    {
        ecs_sched_system_desc d;
        memset(&d, 0, sizeof d);
        d.name = "tick_timers";
        d.fn = tick_timers_system;
        d.reads[0] = ecs_sched_time_id(job->world);
        d.queries[0].terms[0] = ecs_sched_write(timer);
        if (ecs_sched_add_system(job->world, "Update", &d) != ECS_SCHED_OK) {
            fail(row, "ecs_sched_add_system", job->world);
            return 0;
        }
    }
    return 1;
}

static int timer_world_frames(bench_row *row, void *state, int32_t reps) {
    timer_job *job = (timer_job *)state;
    int32_t f;
    for (f = 0; f < reps; f++) {
        if (ecs_sched_run_schedule(job->world, "Update") != ECS_SCHED_OK) {
            fail(row, "ecs_sched_run_schedule", job->world);
            return 0;
        }
    }
    return 1;
}

static int timer_raw_frames(bench_row *row, void *state, int32_t reps) {
    timer_job *job = (timer_job *)state;
    int64_t delta = TIMER_DELTA_NS;   /* read at run time, as the system reads Time */
    int32_t f, n = TIMER_COUNT;
    (void)row;
    BENCH_LAUNDER(job->raw);
    BENCH_LAUNDER(delta);
    BENCH_LAUNDER(n);
    for (f = 0; f < reps; f++) {
        job->fired += raw_timers_tick(job->raw, n, delta);
        BENCH_CLOBBER(job->raw);
    }
    return 1;
}

static void run_timer_tick(bench_row *row) {
    timer_job job;
    bench_sampling s = sampling(TIMER_FRAMES, 1e6);
    bench_medians m;
    memset(&job, 0, sizeof job);
    g_timer_fired = 0;
    if (!timer_job_make(row, &job)) goto done;
    s.baseline = looped(timer_raw_frames, &job);
    s.measured = looped(timer_world_frames, &job);
    if (sample_row(row, &s, &m)) {
        /* both sides ticked the same timers the same number of times: the same count */
        int same = g_timer_fired == job.fired && job.fired > 0;
        bench_sink += (double)job.fired;
        appendf(row, "%d timers (100-590 ms, 3 in 4 repeating) in one component, one system "
                     "calling ecs_sched_timer_tick with Time's delta (16.7 ms) per timer; %d "
                     "frames per sample; times finished: %llu by the system, %llu by the raw "
                     "loop, %s",
                TIMER_COUNT, TIMER_FRAMES, (unsigned long long)g_timer_fired,
                (unsigned long long)job.fired,
                same ? "equal" : "DIFFERENT: figure withheld");
        if (!same) row->measured = 0;
    }
done:
    if (job.world) ecs_sched_world_destroy(job.world);
    free(job.raw);
}
