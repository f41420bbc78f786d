/* parallel_rows.c: the thread pool and parallel executor rows of bench.c (included by it, in
   builds with ECS_SCHED_THREADS). Every row uses BENCH_THREADS threads, the calling one
   included, and compares against the single-threaded executor or against the same work split
   by hand over as many raw pthreads, measured in alternation. */

#include <pthread.h>
#include <stdatomic.h>

#define BENCH_THREADS 2
#define PARALLEL_MIN_SAMPLE_NS 2e7   /* a sample of the busy rows lasts at least this long */
#define LANES 16                     /* components, and systems, of busy_systems and contended */
#define LANE_ENTITIES 50000
#define POOL_TASKS 1000000

/* ---- two raw threads: the hand-written baseline ---- */

/* The calling thread and one helper run work(half, arg) for halves 0 and 1 of each job. The
   helper spins a little between jobs, then sleeps on a condition variable, so it does not take
   a core from the library while the library's samples run. */
typedef void (*duo_work)(int half, void *arg);

typedef struct duo {
    pthread_t helper;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    atomic_int job;                  /* jobs started; the helper runs each once */
    atomic_int done;                 /* jobs the helper finished */
    atomic_bool quit;
    duo_work work;
    void *arg;
} duo;

static void *duo_helper(void *p) {
    duo *d = (duo *)p;
    int seen = 0;
    for (;;) {
        int spins = 0, job;
        while ((job = atomic_load_explicit(&d->job, memory_order_acquire)) == seen &&
               !atomic_load(&d->quit) && ++spins < 20000) {
        }
        if (job == seen && !atomic_load(&d->quit)) {
            pthread_mutex_lock(&d->lock);
            while ((job = atomic_load(&d->job)) == seen && !atomic_load(&d->quit)) {
                pthread_cond_wait(&d->wake, &d->lock);
            }
            pthread_mutex_unlock(&d->lock);
        }
        if (atomic_load(&d->quit)) return NULL;
        d->work(1, d->arg);
        seen = job;
        atomic_store_explicit(&d->done, job, memory_order_release);
    }
}

static int duo_start(duo *d) {
    memset(d, 0, sizeof *d);
    atomic_init(&d->job, 0);
    atomic_init(&d->done, 0);
    atomic_init(&d->quit, false);
    pthread_mutex_init(&d->lock, NULL);
    pthread_cond_init(&d->wake, NULL);
    return pthread_create(&d->helper, NULL, duo_helper, d) == 0;
}

/* Runs one job on both threads and returns when both halves are done. */
static void duo_run(duo *d, duo_work work, void *arg) {
    int job = atomic_load(&d->job) + 1;
    d->work = work;
    d->arg = arg;
    pthread_mutex_lock(&d->lock);
    atomic_store_explicit(&d->job, job, memory_order_release);
    pthread_cond_signal(&d->wake);
    pthread_mutex_unlock(&d->lock);
    work(0, arg);
    while (atomic_load_explicit(&d->done, memory_order_acquire) != job) {
    }
}

static void duo_stop(duo *d) {
    pthread_mutex_lock(&d->lock);
    atomic_store(&d->quit, true);
    pthread_cond_signal(&d->wake);
    pthread_mutex_unlock(&d->lock);
    pthread_join(d->helper, NULL);
    pthread_cond_destroy(&d->wake);
    pthread_mutex_destroy(&d->lock);
}

/* ---- timing: a schedule against another frame function, interleaved ---- */

static ecs_sched_result baseline_schedule_result;   /* the first failure of schedule_frame */

static void schedule_frame(void *state) {
    ecs_sched_result result = ecs_sched_run_schedule((ecs_sched_world *)state, "Update");
    if (result != ECS_SCHED_OK && baseline_schedule_result == ECS_SCHED_OK)
        baseline_schedule_result = result;
}

/* Times frames of measured and baseline, alternating samples of at least min_sample_ns, after
   checking that one frame of the measured schedule succeeds. Values are ns per frame divided
   by `per`; *frames_run receives the frames each side ran in all. */
static int time_frames(bench_row *row, ecs_sched_world *measured, baseline_fn baseline,
                       void *baseline_state, double min_sample_ns, double per,
                       int64_t *frames_run) {
    double t0, probe;
    int32_t frames, f;
    if (ecs_sched_run_schedule(measured, "Update") != ECS_SCHED_OK) {
        fail(row, "run_schedule", measured);
        return 0;
    }
    t0 = now_ns();
    for (f = 0; f < 3; f++) ecs_sched_run_schedule(measured, "Update");
    probe = (now_ns() - t0) / 3;
    for (f = 0; f < 4; f++) baseline(baseline_state);   /* both sides run as many frames */
    frames = frames_for(min_sample_ns, probe);
    *frames_run = 4 + (int64_t)frames * (WARMUP + REPS);   /* on each side */
    baseline_schedule_result = ECS_SCHED_OK;
    if (!sample_schedule(row, measured, "Update", baseline, baseline_state, frames, per))
        return 0;
    if (baseline_schedule_result != ECS_SCHED_OK) {
        fail(row, "run_schedule (baseline world)", NULL);
        appendf(row, ": %s", ecs_sched_result_string(baseline_schedule_result));
        return 0;
    }
    appendf(row, "%d frame(s) per sample, %d threads", (int)frames, BENCH_THREADS);
    return 1;
}

/* ---- empty_systems_mt_* ---- */

static void run_empty_systems_mt(bench_row *row, int32_t n) {
    ecs_sched_world *parallel = quiet_world_on(ECS_SCHED_EXECUTOR_PARALLEL, BENCH_THREADS);
    ecs_sched_world *single = quiet_world();
    ecs_sched_system_desc desc;
    int64_t frames;
    int32_t i;
    if (!parallel || !single) {
        fail(row, "world creation", NULL);
    } else {
        memset(&desc, 0, sizeof desc);
        desc.name = "empty";
        desc.fn = empty_system;
        for (i = 0; i < n; i++) {
            if (ecs_sched_add_system(parallel, "Update", &desc) != ECS_SCHED_OK) {
                fail(row, "add_system", parallel);
                break;
            }
            if (ecs_sched_add_system(single, "Update", &desc) != ECS_SCHED_OK) {
                fail(row, "add_system (single-threaded world)", single);
                break;
            }
        }
        if (i == n && ecs_sched_run_schedule(single, "Update") != ECS_SCHED_OK) {
            fail(row, "run_schedule", single);
        } else if (i == n && time_frames(row, parallel, schedule_frame, single,
                                         SYSTEMS_MIN_SAMPLE_NS, n, &frames)) {
            appendf(row, "; %d systems without access, so all may run at once", (int)n);
        }
    }
    if (parallel) ecs_sched_world_destroy(parallel);
    if (single) ecs_sched_world_destroy(single);
}

static void run_empty_systems_mt_10(bench_row *row) { run_empty_systems_mt(row, 10); }
static void run_empty_systems_mt_100(bench_row *row) { run_empty_systems_mt(row, 100); }
static void run_empty_systems_mt_1000(bench_row *row) { run_empty_systems_mt(row, 1000); }

/* ---- busy_systems, busy_systems_speedup, contended: 16 kernels over 50k entities ---- */

typedef struct { float v[4]; } Lane;

/* Read through volatiles, so the compiler cannot fold the kernels. busy_systems: x = x + 1.
   contended: x = y + 1, y being the next lane, so that the result depends on the order the
   chain runs in and a system run out of order, or not at all, shows in the values. */
static volatile float lane_scale = 1.0f, lane_step = 1.0f;
static volatile float chain_scale = 0.0f, chain_mix = 1.0f;

static BENCH_KERNEL void lane_kernel(Lane *x, int32_t n, float scale, float step) {
    int32_t i, k;
    for (i = 0; i < n; i++)
        for (k = 0; k < 4; k++) x[i].v[k] = x[i].v[k] * scale + step;
}

/* The contended form: x = x * scale + y * mix + step, y being the next lane. */
static BENCH_KERNEL void lane_mix_kernel(Lane *x, const Lane *y, int32_t n, float scale, float mix,
                            float step) {
    int32_t i, k;
    for (i = 0; i < n; i++)
        for (k = 0; k < 4; k++) x[i].v[k] = x[i].v[k] * scale + y[i].v[k] * mix + step;
}

static float lane_initial(int32_t lane, int32_t i) {
    return (float)((i + lane) % 100);
}

typedef struct lane_world {
    ecs_sched_world *world;
    ecs_sched_id ids[LANES];
} lane_world;

static void lane_system(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    float scale = lane_scale, step = lane_step;
    while (ecs_sched_iter_next(&it)) lane_kernel(ECS_SCHED_FIELD(&it, Lane, 0), it.count, scale, step);
}

static void lane_mix_system(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    float scale = chain_scale, mix = chain_mix, step = lane_step;
    while (ecs_sched_iter_next(&it))
        lane_mix_kernel(ECS_SCHED_FIELD(&it, Lane, 0), ECS_SCHED_FIELD(&it, const Lane, 1),
                        it.count, scale, mix, step);
}

/* 50k entities that each have all 16 lanes; system i writes lane i, and with `chained` also
   reads lane i + 1 (wrapping), so that each system conflicts with its two neighbours. */
static int make_lane_world(lane_world *lw, ecs_sched_executor executor, bool chained,
                           int32_t threads) {
    static char names[LANES][8];
    Lane *values = (Lane *)xmalloc(sizeof(Lane) * LANE_ENTITIES * LANES);
    const void *arrays[LANES];
    int32_t l, i, k, ok;
    ecs_sched_world_desc wd;
    memset(&wd, 0, sizeof wd);
    wd.executor = executor;
    wd.thread_count = threads;
    wd.logger.fn = quiet_log;   /* the chain's conflicts are unordered on purpose: no warning */
    lw->world = ecs_sched_world_create(&wd);
    if (!lw->world) {
        free(values);
        return 0;
    }
    for (l = 0; l < LANES; l++) {
        snprintf(names[l], sizeof names[l], "K%d", (int)l);
        lw->ids[l] = ecs_sched_component_register_type(lw->world, names[l], sizeof(Lane),
                                                       ECS_SCHED_ALIGNOF(Lane));
        for (i = 0; i < LANE_ENTITIES; i++)
            for (k = 0; k < 4; k++) values[l * LANE_ENTITIES + i].v[k] = lane_initial(l, i);
        arrays[l] = &values[l * LANE_ENTITIES];
    }
    ok = ecs_sched_spawn_batch(lw->world, LANE_ENTITIES, LANES, lw->ids, arrays, NULL) == ECS_SCHED_OK;
    for (l = 0; ok && l < LANES; l++) {
        ecs_sched_system_desc desc;
        memset(&desc, 0, sizeof desc);
        desc.name = names[l];
        desc.fn = chained ? lane_mix_system : lane_system;
        desc.queries[0].terms[0] = ecs_sched_write(lw->ids[l]);
        if (chained) desc.queries[0].terms[1] = ecs_sched_read(lw->ids[(l + 1) % LANES]);
        ok = ecs_sched_add_system(lw->world, "Update", &desc) == ECS_SCHED_OK;
    }
    free(values);
    return ok;
}

/* The sum of every lane value of the world. */
static double lane_world_sum(const lane_world *lw) {
    ecs_sched_query_desc desc;
    ecs_sched_query *q;
    ecs_sched_iter it;
    double sum = 0.0;
    int32_t l, i, k;
    for (l = 0; l < LANES; l++) {
        memset(&desc, 0, sizeof desc);
        desc.terms[0] = ecs_sched_read(lw->ids[l]);
        q = ecs_sched_query_create(lw->world, &desc);
        if (!q) return -1.0;
        it = ecs_sched_query_iter(q);
        while (ecs_sched_iter_next(&it)) {
            const Lane *x = ECS_SCHED_FIELD(&it, const Lane, 0);
            for (i = 0; i < it.count; i++)
                for (k = 0; k < 4; k++) sum += x[i].v[k];
        }
        ecs_sched_query_destroy(q);
    }
    return sum;
}

/* Copies lane l of every entity, in iteration order, into out (LANE_ENTITIES values); 0 when
   the world does not hold exactly that many. */
static int lane_copy(const lane_world *lw, int32_t l, Lane *out) {
    ecs_sched_query_desc desc;
    ecs_sched_query *q;
    ecs_sched_iter it;
    int32_t copied = 0;
    memset(&desc, 0, sizeof desc);
    desc.terms[0] = ecs_sched_read(lw->ids[l]);
    q = ecs_sched_query_create(lw->world, &desc);
    if (!q) return 0;
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it) && copied + it.count <= LANE_ENTITIES) {
        memcpy(out + copied, ECS_SCHED_FIELD(&it, const Lane, 0), sizeof(Lane) * (size_t)it.count);
        copied += it.count;
    }
    ecs_sched_query_destroy(q);
    return copied == LANE_ENTITIES;
}

/* Whether two lane worlds built alike hold the same values, entity for entity. */
static int lanes_equal(const lane_world *a, const lane_world *b) {
    Lane *x = (Lane *)xmalloc(sizeof(Lane) * LANE_ENTITIES * 2), *y = x + LANE_ENTITIES;
    int32_t l;
    int equal = 1;
    for (l = 0; l < LANES && equal; l++)
        equal = lane_copy(a, l, x) && lane_copy(b, l, y) &&
                memcmp(x, y, sizeof(Lane) * LANE_ENTITIES) == 0;
    free(x);
    return equal;
}

/* The sum after `frames` frames of x = x + 1 from lane_initial. */
static double lane_expected_sum(int64_t frames) {
    double sum = 0.0;
    int32_t l, i;
    for (l = 0; l < LANES; l++)
        for (i = 0; i < LANE_ENTITIES; i++) sum += 4.0 * ((double)lane_initial(l, i) + (double)frames);
    return sum;
}

/* The same 16 lanes in plain arrays, for the two raw threads: 8 kernels each. */
typedef struct raw_lanes {
    Lane *lanes[LANES];
    duo threads;
    int64_t frames;
} raw_lanes;

static void raw_lanes_half(int half, void *arg) {
    raw_lanes *raw = (raw_lanes *)arg;
    float scale = lane_scale, step = lane_step;
    int32_t l;
    for (l = half * (LANES / 2); l < (half + 1) * (LANES / 2); l++) {
        Lane *x = raw->lanes[l];
        BENCH_LAUNDER(x);
        lane_kernel(x, LANE_ENTITIES, scale, step);
        BENCH_CLOBBER(x);
    }
}

static void raw_lanes_frame(void *state) {
    raw_lanes *raw = (raw_lanes *)state;
    duo_run(&raw->threads, raw_lanes_half, raw);
    raw->frames++;
}

static double raw_lanes_sum(const raw_lanes *raw) {
    double sum = 0.0;
    int32_t l, i, k;
    for (l = 0; l < LANES; l++)
        for (i = 0; i < LANE_ENTITIES; i++)
            for (k = 0; k < 4; k++) sum += raw->lanes[l][i].v[k];
    return sum;
}

static void run_busy_systems(bench_row *row) {
    lane_world lw;
    raw_lanes *raw = (raw_lanes *)calloc(1, sizeof *raw);
    Lane *block = (Lane *)xmalloc(sizeof(Lane) * LANE_ENTITIES * LANES);
    int64_t frames = 0;
    int32_t l, i, k;
    if (!raw) { fail(row, "out of memory", NULL); free(block); return; }
    for (l = 0; l < LANES; l++) {
        raw->lanes[l] = block + (size_t)l * LANE_ENTITIES;
        for (i = 0; i < LANE_ENTITIES; i++)
            for (k = 0; k < 4; k++) raw->lanes[l][i].v[k] = lane_initial(l, i);
    }
    if (!duo_start(&raw->threads)) {
        fail(row, "pthread_create", NULL);
    } else {
        if (!make_lane_world(&lw, ECS_SCHED_EXECUTOR_PARALLEL, false, BENCH_THREADS)) {
            fail(row, "building the world", lw.world);
        } else if (time_frames(row, lw.world, raw_lanes_frame, raw, PARALLEL_MIN_SAMPLE_NS, 1e3,
                               &frames)) {
            if (lane_world_sum(&lw) != lane_expected_sum(frames) ||
                raw_lanes_sum(raw) != lane_expected_sum(raw->frames)) {
                fail(row, "wrong lane values after the run", NULL);
            } else {
                appendf(row, "; 16 systems, each x = x * a + b over its own component of 50k "
                             "entities (4 floats each); sums checked on both sides");
            }
        }
        if (lw.world) ecs_sched_world_destroy(lw.world);
        duo_stop(&raw->threads);
    }
    free(block);
    free(raw);
}

/* Times a parallel lane world against a single-threaded one; both must end equal. */
static void run_lanes_against_single(bench_row *row, bool chained) {
    lane_world parallel, single;
    int64_t frames = 0;
    int ok_parallel = make_lane_world(&parallel, ECS_SCHED_EXECUTOR_PARALLEL, chained, BENCH_THREADS);
    int ok_single = make_lane_world(&single, ECS_SCHED_EXECUTOR_SINGLE_THREADED, chained, 1);
    if (!ok_parallel || !ok_single) {
        fail(row, "building the worlds", ok_parallel ? single.world : parallel.world);
    } else if (time_frames(row, parallel.world, schedule_frame, single.world,
                           PARALLEL_MIN_SAMPLE_NS, 1e3, &frames)) {
        double a = lane_world_sum(&parallel), b = lane_world_sum(&single);
        if (a != b || a < 0) fail(row, "the two worlds differ after the run", NULL);
        else if (!chained && a != lane_expected_sum(frames)) fail(row, "wrong lane values", NULL);
        else if (chained && !lanes_equal(&parallel, &single))
            fail(row, "the two worlds differ after the run", NULL);
        else if (chained && a == lane_expected_sum(0))
            fail(row, "the lanes did not change", NULL);
        else
            appendf(row, chained ? "; 16 systems, system i does x = x * 0 + y * 1 + 1 over 50k "
                                   "entities, x its own lane i and y lane i + 1 (wrapping), so "
                                   "every neighbour pair conflicts and the plan is one chain; "
                                   "both worlds checked equal value for value"
                                 : "; the systems of busy_systems; both worlds checked equal to "
                                   "the expected sum");
    }
    if (parallel.world) ecs_sched_world_destroy(parallel.world);
    if (single.world) ecs_sched_world_destroy(single.world);
}

static void run_busy_systems_speedup(bench_row *row) { run_lanes_against_single(row, false); }

/* busy_systems on a pool of twice as many threads as the machine has cores, against the same
   world with BENCH_THREADS threads. */
static void run_busy_systems_oversubscribed(bench_row *row) {
    lane_world crowded, fitting;
    int64_t frames = 0;
    int ok_crowded = make_lane_world(&crowded, ECS_SCHED_EXECUTOR_PARALLEL, false, 2 * BENCH_THREADS);
    int ok_fitting = make_lane_world(&fitting, ECS_SCHED_EXECUTOR_PARALLEL, false, BENCH_THREADS);
    if (!ok_crowded || !ok_fitting) {
        fail(row, "building the worlds", ok_crowded ? fitting.world : crowded.world);
    } else if (time_frames(row, crowded.world, schedule_frame, fitting.world,
                           PARALLEL_MIN_SAMPLE_NS, 1e3, &frames)) {
        double a = lane_world_sum(&crowded), b = lane_world_sum(&fitting);
        if (a != b || a != lane_expected_sum(frames)) {
            fail(row, "wrong lane values after the run", NULL);
        } else {
            appendf(row, "; the systems of busy_systems, in a world of %d threads (on %d cores) "
                         "against one of %d; both checked equal to the expected sum",
                    2 * BENCH_THREADS, BENCH_THREADS, BENCH_THREADS);
        }
    }
    if (crowded.world) ecs_sched_world_destroy(crowded.world);
    if (fitting.world) ecs_sched_world_destroy(fitting.world);
}
static void run_contended(bench_row *row) { run_lanes_against_single(row, true); }

/* ---- par_iter_1m ---- */

static void move_piece(ecs_sched_iter *it, void *arg) {
    (void)arg;
    move_kernel(ECS_SCHED_FIELD(it, Position, 0), ECS_SCHED_FIELD(it, const Velocity, 1), it->count);
}

static void par_move_system(ecs_sched_system_ctx *ctx) {
    ecs_sched_ctx_par_iter(ctx, 0, 0, move_piece, NULL);
}

typedef struct raw_move {
    Position *p;
    Velocity *v;
    duo threads;
    int64_t frames;
} raw_move;

static void raw_move_half(int half, void *arg) {
    raw_move *raw = (raw_move *)arg;
    int32_t begin = half * (MEMORY_COUNT / 2), end = half ? MEMORY_COUNT : MEMORY_COUNT / 2;
    Position *p = raw->p;
    Velocity *v = raw->v;
    BENCH_LAUNDER(p);
    BENCH_LAUNDER(v);
    move_kernel(p + begin, v + begin, end - begin);
    BENCH_CLOBBER(p);
}

static void raw_move_frame(void *state) {
    raw_move *raw = (raw_move *)state;
    duo_run(&raw->threads, raw_move_half, raw);
    raw->frames++;
}

static void run_par_iter_1m(bench_row *row) {
    const int32_t n = MEMORY_COUNT;
    unsigned char *block = (unsigned char *)xmalloc((size_t)n * (sizeof(Position) + sizeof(Velocity)));
    raw_move *raw = (raw_move *)calloc(1, sizeof *raw);
    ecs_sched_world *w = quiet_world_on(ECS_SCHED_EXECUTOR_PARALLEL, BENCH_THREADS);
    ecs_sched_id ids[2];
    ecs_sched_query *q = NULL;
    int64_t frames = 0;
    if (!raw || !w) { fail(row, "setup", NULL); goto done; }
    raw->p = (Position *)block;
    raw->v = (Velocity *)(block + (size_t)n * sizeof(Position));
    fill_values(raw->p, raw->v, n);
    ids[0] = ECS_SCHED_COMPONENT(w, Position);
    ids[1] = ECS_SCHED_COMPONENT(w, Velocity);
    {
        const void *arrays[2];
        ecs_sched_system_desc desc;
        arrays[0] = raw->p;
        arrays[1] = raw->v;
        memset(&desc, 0, sizeof desc);
        desc.name = "move";
        desc.fn = par_move_system;
        desc.queries[0].terms[0] = ecs_sched_write(ids[0]);
        desc.queries[0].terms[1] = ecs_sched_read(ids[1]);
        if (ecs_sched_spawn_batch(w, n, 2, ids, arrays, NULL) != ECS_SCHED_OK ||
            ecs_sched_add_system(w, "Update", &desc) != ECS_SCHED_OK) {
            fail(row, "building the world", w);
            goto done;
        }
        q = make_move_query(w, ids[0], ids[1]);
    }
    if (!q || !duo_start(&raw->threads)) { fail(row, "setup", w); goto done; }
    if (time_frames(row, w, raw_move_frame, raw, PARALLEL_MIN_SAMPLE_NS, 1e6, &frames)) {
        if (query_checksum(q) != expected_checksum(n, (double)frames) ||
            position_checksum(raw->p, n) != expected_checksum(n, (double)raw->frames)) {
            fail(row, "wrong positions after the run", NULL);
        } else {
            appendf(row, "; one system, ecs_sched_ctx_par_iter with the default grain (about four "
                         "pieces per thread) over 1M entities; checksums checked on both sides");
        }
    }
    duo_stop(&raw->threads);
done:
    if (w) ecs_sched_world_destroy(w);
    free(raw);
    free(block);
}

/* ---- pool_overhead ---- */

#define POOL_DEEP_CAPACITY (1 << 20)   /* a deque that holds all POOL_TASKS at once */

static void empty_task(void *arg) {
    BENCH_CLOBBER(arg);
}

typedef void (*task_fn)(void *arg);

static void call_tasks(task_fn fn, int32_t n) {
    int32_t i;
    BENCH_LAUNDER(fn);
    for (i = 0; i < n; i++) fn(&i);
}

/* Where the tasks of a counting pass ran: on worker 0 inside a submit (its deque was full),
   on worker 0 during the wait (taken back from its deque), on another worker (stolen), on a
   thread that is not a worker (never, when all is well). Each count has cache lines of its
   own and one writer: the worker it counts for (worker 0 for the first two). */
enum { RAN_AT_SUBMIT, RAN_AT_WAIT, RAN_STOLEN, RAN_OUTSIDE, RAN_KINDS };

typedef struct task_census {
    ecs_sched_pool *pool;
    bool submitting;                 /* read and written by worker 0 only */
    struct {
        atomic_long ran;
        char pad[120];
    } kind[RAN_KINDS];
} task_census;

static void counting_task(void *arg) {
    task_census *census = (task_census *)arg;
    int32_t w = ecs_sched_pool_worker_index(census->pool);
    int kind = w == 0 ? (census->submitting ? RAN_AT_SUBMIT : RAN_AT_WAIT)
             : w > 0 ? RAN_STOLEN : RAN_OUTSIDE;
    atomic_long *ran = &census->kind[kind].ran;
    /* one writer: a plain increment, not a locked one */
    atomic_store_explicit(ran, atomic_load_explicit(ran, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}

/* An untimed pass of POOL_TASKS counting tasks submitted like the timed ones: each must have
   run once, on one of the pool's workers, by the time the wait returns. Fills the share of
   each kind; 0 when the counts are wrong. */
static int pool_census(ecs_sched_pool *pool, ecs_sched_task_group *group, double share[RAN_KINDS]) {
    static task_census census;
    long total = 0;
    int32_t i;
    census.pool = pool;
    for (i = 0; i < RAN_KINDS; i++) atomic_store(&census.kind[i].ran, 0);
    census.submitting = true;
    for (i = 0; i < POOL_TASKS; i++) ecs_sched_pool_submit(pool, group, counting_task, &census);
    census.submitting = false;
    ecs_sched_pool_wait(pool, group);
    for (i = 0; i < RAN_KINDS; i++) total += atomic_load(&census.kind[i].ran);
    for (i = 0; i < RAN_KINDS; i++)
        share[i] = 100.0 * (double)atomic_load(&census.kind[i].ran) / POOL_TASKS;
    return total == POOL_TASKS && share[RAN_OUTSIDE] == 0.0;
}

/* A pool of `threads` workers and a group in it, made on this thread (its worker 0). */
typedef struct bench_pool {
    ecs_sched_pool *pool;
    ecs_sched_task_group *group;
    double share[RAN_KINDS];         /* from a counting pass, in percent */
} bench_pool;

static int bench_pool_create(bench_pool *p, int32_t threads, int32_t queue_capacity) {
    ecs_sched_pool_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.thread_count = threads;
    desc.queue_capacity = queue_capacity;
    p->pool = ecs_sched_pool_create(&desc);
    p->group = p->pool ? ecs_sched_pool_group_create(p->pool) : NULL;
    if (!p->group || ecs_sched_pool_worker_index(p->pool) != 0) return 0;
    return pool_census(p->pool, p->group, p->share);
}

static void bench_pool_destroy(bench_pool *p) {
    if (!p->pool) return;
    ecs_sched_pool_group_destroy(p->pool, p->group);
    ecs_sched_pool_destroy(p->pool);
}

static void append_census(bench_row *row, const bench_pool *p) {
    appendf(row, "%.0f%% ran at once inside submit (a full deque), %.0f%% were taken back by "
                 "worker 0 during the wait, %.0f%% were stolen by worker 1",
            p->share[RAN_AT_SUBMIT], p->share[RAN_AT_WAIT], p->share[RAN_STOLEN]);
}

/* reps calls of the empty task through a function pointer, on this thread. */
static int task_calls(bench_row *row, void *state, int32_t reps) {
    (void)row;
    (void)state;
    call_tasks(empty_task, reps);
    return 1;
}

/* reps empty tasks submitted into the pool's group from worker 0, then a wait. */
static int pool_tasks(bench_row *row, void *state, int32_t reps) {
    const bench_pool *p = (const bench_pool *)state;
    ecs_sched_pool *pool = p->pool;  /* in registers: nothing to reload between submits */
    ecs_sched_task_group *group = p->group;
    int32_t i;
    (void)row;
    for (i = 0; i < reps; i++) ecs_sched_pool_submit(pool, group, empty_task, &i);
    ecs_sched_pool_wait(pool, group);
    return 1;
}

static void run_pool_overhead(bench_row *row) {
    bench_pool shallow, deep, alone;
    bench_sampling s = sampling(POOL_TASKS, 1.0);
    bench_medians m;
    memset(&shallow, 0, sizeof shallow);
    memset(&deep, 0, sizeof deep);
    memset(&alone, 0, sizeof alone);
    if (!bench_pool_create(&shallow, BENCH_THREADS, 0) ||
        !bench_pool_create(&deep, BENCH_THREADS, POOL_DEEP_CAPACITY) ||
        !bench_pool_create(&alone, 1, 0)) {
        fail(row, "pool or group creation, or a counting pass that did not run every task "
                  "once on a worker", NULL);
        goto done;
    }
    s.baseline = looped(task_calls, NULL);
    s.measured = looped(pool_tasks, &shallow);
    s.extras[0] = looped(pool_tasks, &deep);
    s.extras[1] = looped(pool_tasks, &alone);
    if (!sample_row(row, &s, &m)) goto done;
    appendf(row, "1M empty tasks submitted from worker 0 into one group, then a wait, on a "
                 "%d-thread pool as created by default (a deque of 4096 tasks per worker, and "
                 "submitting to a full deque runs the task at once); in an untimed pass of "
                 "counting tasks submitted the same way, ", BENCH_THREADS);
    append_census(row, &shallow);
    appendf(row, "; with queue_capacity 2^20, so that every task can queue: %.1f ns per task (",
            m.extras[0]);
    append_census(row, &deep);
    appendf(row, "); on a 1-thread pool as created by default: %.1f ns per task",
            m.extras[1]);
done:
    bench_pool_destroy(&alone);
    bench_pool_destroy(&deep);
    bench_pool_destroy(&shallow);
}

/* ---- query_systems_mt_1000: the query_systems_1000 schedule on the parallel executor ---- */

/* Each system counts into its own slot, a cache line apart, so that systems running at once
   share nothing. */
typedef struct count_slot {
    int64_t count;
    char pad[56];
} count_slot;

static void count_into_slot(ecs_sched_system_ctx *ctx) {
    count_slot *slot = (count_slot *)ecs_sched_ctx_user_data(ctx);
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    int64_t n = 0;
    while (ecs_sched_iter_next(&it)) n += it.count;
    slot->count += n;
}

/* 1000 tags, one entity each, and a system per tag that counts its query's entities. */
static int make_query_systems(ecs_sched_world *w, count_slot *slots) {
    int32_t i;
    for (i = 0; i < MAX_SYSTEMS; i++) {
        char name[32];
        ecs_sched_id tag;
        ecs_sched_system_desc desc;
        snprintf(name, sizeof name, "Tag%d", (int)i);
        tag = ecs_sched_component_register_type(w, name, 0, 0);
        if (!tag || ecs_sched_spawn_with(w, 1, &tag, NULL) == ECS_SCHED_NULL_ENTITY) return 0;
        memset(&desc, 0, sizeof desc);
        desc.name = name;
        desc.fn = count_into_slot;
        desc.user_data = &slots[i];
        desc.queries[0].terms[0] = ecs_sched_read(tag);
        if (ecs_sched_add_system(w, "Update", &desc) != ECS_SCHED_OK) return 0;
    }
    return 1;
}

static int64_t slot_total(const count_slot *slots) {
    int64_t total = 0;
    int32_t i;
    for (i = 0; i < MAX_SYSTEMS; i++) total += slots[i].count;
    return total;
}

static void run_query_systems_mt_1000(bench_row *row) {
    ecs_sched_world *parallel = quiet_world_on(ECS_SCHED_EXECUTOR_PARALLEL, BENCH_THREADS);
    ecs_sched_world *single = quiet_world();
    count_slot *slots = (count_slot *)calloc(2 * MAX_SYSTEMS, sizeof *slots);
    int64_t frames = 0;
    if (!parallel || !single || !slots) {
        fail(row, "setup", NULL);
    } else if (!make_query_systems(parallel, slots) ||
               !make_query_systems(single, slots + MAX_SYSTEMS)) {
        fail(row, "building the worlds", NULL);
    } else if (ecs_sched_run_schedule(single, "Update") != ECS_SCHED_OK) {
        fail(row, "run_schedule", single);
    } else if (time_frames(row, parallel, schedule_frame, single, SYSTEMS_MIN_SAMPLE_NS,
                           MAX_SYSTEMS, &frames)) {
        /* the single-threaded world ran one frame more, before time_frames */
        if (slot_total(slots) != frames * MAX_SYSTEMS ||
            slot_total(slots + MAX_SYSTEMS) != (frames + 1) * MAX_SYSTEMS) {
            fail(row, "wrong counts after the run", NULL);
        } else {
            appendf(row, "; the query_systems_1000 schedule (1000 systems, each a query over "
                         "its own tag's one entity), each counting into a slot of its own; "
                         "counts checked on both sides");
        }
    }
    free(slots);
    if (parallel) ecs_sched_world_destroy(parallel);
    if (single) ecs_sched_world_destroy(single);
}

/* ---- mixed_frame: 190 tiny systems and 10 heavy ones, none conflicting ---- */

#define MIXED_SYSTEMS 200
#define MIXED_HEAVY 10
#define MIXED_SHARED 8        /* read-only components the tiny systems read at random */
#define MIXED_TINY_ENTITIES 4

typedef struct { float v; } Tiny;

typedef struct mixed_world {
    ecs_sched_world *world;
    ecs_sched_id lanes[MIXED_HEAVY];
    ecs_sched_id tiny[MIXED_SYSTEMS];
    ecs_sched_id shared[MIXED_SHARED];
} mixed_world;

/* Tiny: x = x + r over its few entities, x its own component, r a shared one. */
static void tiny_system(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        Tiny *x = ECS_SCHED_FIELD(&it, Tiny, 0);
        const Tiny *r = ECS_SCHED_FIELD(&it, const Tiny, 1);
        int32_t i;
        for (i = 0; i < it.count; i++) x[i].v += r[i].v;
    }
}

static uint64_t mixed_random(uint64_t *state) {
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return *state >> 33;
}

static int mixed_components(mixed_world *mw) {
    static char names[MIXED_SYSTEMS + MIXED_HEAVY + MIXED_SHARED][12];
    int32_t i, n = 0;
    for (i = 0; i < MIXED_HEAVY; i++, n++) {
        snprintf(names[n], sizeof names[n], "Lane%d", (int)i);
        mw->lanes[i] = ecs_sched_component_register_type(mw->world, names[n], sizeof(Lane),
                                                         ECS_SCHED_ALIGNOF(Lane));
    }
    for (i = 0; i < MIXED_SHARED; i++, n++) {
        snprintf(names[n], sizeof names[n], "R%d", (int)i);
        mw->shared[i] = ecs_sched_component_register_type(mw->world, names[n], sizeof(Tiny),
                                                          ECS_SCHED_ALIGNOF(Tiny));
    }
    for (i = 0; i < MIXED_SYSTEMS; i++, n++) {
        snprintf(names[n], sizeof names[n], "T%d", (int)i);
        mw->tiny[i] = ecs_sched_component_register_type(mw->world, names[n], sizeof(Tiny),
                                                        ECS_SCHED_ALIGNOF(Tiny));
    }
    return 1;
}

/* The heavy systems' 50k entities with all the lanes; per tiny system, a few entities with
   its own component and one shared one (drawn from seed). */
static int mixed_entities(mixed_world *mw, const int32_t *reads) {
    Lane *values = (Lane *)xmalloc(sizeof(Lane) * LANE_ENTITIES * MIXED_HEAVY);
    const void *arrays[MIXED_HEAVY];
    int32_t l, i, k, ok;
    for (l = 0; l < MIXED_HEAVY; l++) {
        for (i = 0; i < LANE_ENTITIES; i++)
            for (k = 0; k < 4; k++) values[l * LANE_ENTITIES + i].v[k] = lane_initial(l, i);
        arrays[l] = &values[l * LANE_ENTITIES];
    }
    ok = ecs_sched_spawn_batch(mw->world, LANE_ENTITIES, MIXED_HEAVY, mw->lanes, arrays, NULL) ==
         ECS_SCHED_OK;
    free(values);
    for (i = 0; ok && i < MIXED_SYSTEMS - MIXED_HEAVY; i++) {
        ecs_sched_id ids[2];
        Tiny own = {0.0f}, shared = {1.0f};
        const void *both[2];
        ids[0] = mw->tiny[i];
        ids[1] = mw->shared[reads[i]];
        both[0] = &own;
        both[1] = &shared;
        for (k = 0; ok && k < MIXED_TINY_ENTITIES; k++)
            ok = ecs_sched_spawn_with(mw->world, 2, ids, both) != ECS_SCHED_NULL_ENTITY;
    }
    return ok;
}

/* The 200 systems, heavy ones at random places among the tiny ones: same seed, same world. */
static int make_mixed_world(mixed_world *mw, ecs_sched_executor executor) {
    uint64_t seed = 12345;
    int32_t reads[MIXED_SYSTEMS], heavy_at[MIXED_SYSTEMS], i, tiny = 0, heavy = 0;
    memset(mw, 0, sizeof *mw);
    mw->world = quiet_world_on(executor, BENCH_THREADS);
    if (!mw->world || !mixed_components(mw)) return 0;
    for (i = 0; i < MIXED_SYSTEMS; i++) {
        reads[i] = (int32_t)(mixed_random(&seed) % MIXED_SHARED);
        heavy_at[i] = 0;
    }
    for (i = 0; i < MIXED_HEAVY;) {
        int32_t at = (int32_t)(mixed_random(&seed) % MIXED_SYSTEMS);
        if (!heavy_at[at]) heavy_at[at] = 1, i++;
    }
    if (!mixed_entities(mw, reads)) return 0;
    for (i = 0; i < MIXED_SYSTEMS; i++) {
        ecs_sched_system_desc desc;
        char name[16];
        memset(&desc, 0, sizeof desc);
        desc.name = name;
        if (heavy_at[i]) {
            snprintf(name, sizeof name, "heavy%d", (int)heavy);
            desc.fn = lane_system;
            desc.queries[0].terms[0] = ecs_sched_write(mw->lanes[heavy++]);
        } else {
            snprintf(name, sizeof name, "tiny%d", (int)tiny);
            desc.fn = tiny_system;
            desc.queries[0].terms[0] = ecs_sched_write(mw->tiny[tiny]);
            desc.queries[0].terms[1] = ecs_sched_read(mw->shared[reads[tiny]]);
            tiny++;
        }
        if (ecs_sched_add_system(mw->world, "Update", &desc) != ECS_SCHED_OK) return 0;
    }
    return 1;
}

/* The sum of the lanes and of the tiny systems' own values. */
static double mixed_sum(const mixed_world *mw) {
    ecs_sched_query_desc desc;
    double sum = 0.0;
    int32_t c, i, k;
    for (c = 0; c < MIXED_HEAVY + MIXED_SYSTEMS - MIXED_HEAVY; c++) {
        bool lane = c < MIXED_HEAVY;
        ecs_sched_query *q;
        ecs_sched_iter it;
        memset(&desc, 0, sizeof desc);
        desc.terms[0] = ecs_sched_read(lane ? mw->lanes[c] : mw->tiny[c - MIXED_HEAVY]);
        q = ecs_sched_query_create(mw->world, &desc);
        if (!q) return -1.0;
        it = ecs_sched_query_iter(q);
        while (ecs_sched_iter_next(&it)) {
            for (i = 0; i < it.count; i++) {
                if (lane) {
                    for (k = 0; k < 4; k++) sum += ECS_SCHED_FIELD(&it, const Lane, 0)[i].v[k];
                } else {
                    sum += ECS_SCHED_FIELD(&it, const Tiny, 0)[i].v;
                }
            }
        }
        ecs_sched_query_destroy(q);
    }
    return sum;
}

static void run_mixed_frame(bench_row *row) {
    mixed_world parallel, single;
    int64_t frames = 0;
    int ok_parallel = make_mixed_world(&parallel, ECS_SCHED_EXECUTOR_PARALLEL);
    int ok_single = make_mixed_world(&single, ECS_SCHED_EXECUTOR_SINGLE_THREADED);
    if (!ok_parallel || !ok_single) {
        fail(row, "building the worlds", ok_parallel ? single.world : parallel.world);
    } else if (time_frames(row, parallel.world, schedule_frame, single.world,
                           PARALLEL_MIN_SAMPLE_NS, 1e3, &frames)) {
        double a = mixed_sum(&parallel), b = mixed_sum(&single);
        if (a != b || a < 0) {
            fail(row, "the two worlds differ after the run", NULL);
        } else {
            appendf(row, "; 200 systems in random order: 190 tiny ones (x += r over %d entities "
                         "of their own, r one of %d shared read-only components drawn at "
                         "random) and 10 heavy ones (the busy_systems kernel over 50k "
                         "entities, each its own lane); nothing conflicts; both worlds "
                         "checked equal", MIXED_TINY_ENTITIES, MIXED_SHARED);
        }
    }
    if (parallel.world) ecs_sched_world_destroy(parallel.world);
    if (single.world) ecs_sched_world_destroy(single.world);
}

/* ---- app_update_empty_mt: app_update_empty on the parallel executor ---- */

static ecs_sched_app *quiet_app_on(ecs_sched_executor executor) {
    ecs_sched_app_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.world.executor = executor;
    desc.world.thread_count = BENCH_THREADS;
    desc.world.logger.fn = quiet_log;
    return ecs_sched_app_create(&desc);
}

static void run_app_update_empty_mt(bench_row *row) {
    static const int32_t reps = 20000;
    app_updates parallel, single;
    bench_sampling s = sampling(reps, 1.0);
    bench_medians m;
    parallel.app = quiet_app_on(ECS_SCHED_EXECUTOR_PARALLEL);
    single.app = quiet_app_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED);
    parallel.delta_ns = single.delta_ns = ECS_SCHED_HZ(64);
    if (!parallel.app || !single.app) {
        fail(row, "creation", NULL);
    } else if (run_app_updates(row, &parallel, 2) && run_app_updates(row, &single, 2)) {
        s.baseline = looped(run_app_updates, &single);
        s.measured = looped(run_app_updates, &parallel);
        if (sample_row(row, &s, &m)) {
            appendf(row, "%d updates a sample, each of 1/64 s, the app_update_empty update "
                         "(14 schedule runs, all empty but the app's own systems) with the "
                         "world on the parallel executor, %d threads", (int)reps,
                    BENCH_THREADS);
        }
    }
    if (parallel.app) ecs_sched_app_destroy(parallel.app);
    if (single.app) ecs_sched_app_destroy(single.app);
}

/* ---- pool_overhead_queued: pool_overhead with a deque deep enough for every task ---- */

static void run_pool_overhead_queued(bench_row *row) {
    bench_pool deep;
    bench_sampling s = sampling(POOL_TASKS, 1.0);
    bench_medians m;
    memset(&deep, 0, sizeof deep);
    if (!bench_pool_create(&deep, BENCH_THREADS, POOL_DEEP_CAPACITY)) {
        fail(row, "pool or group creation, or a counting pass that did not run every task "
                  "once on a worker", NULL);
    } else {
        s.baseline = looped(task_calls, NULL);
        s.measured = looped(pool_tasks, &deep);
        if (sample_row(row, &s, &m)) {
            appendf(row, "1M empty tasks submitted from worker 0 into one group, then a wait, "
                         "on a %d-thread pool whose deques hold 2^20 tasks, so that every task "
                         "queues; in an untimed pass of counting tasks submitted the same way, ",
                    BENCH_THREADS);
            append_census(row, &deep);
        }
    }
    bench_pool_destroy(&deep);
}
