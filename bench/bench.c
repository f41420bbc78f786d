/* bench.c: performance figures of ecs_sched.h, each next to a baseline measured in the same run.

   Build and run from the repository root (without ECS_SCHED_THREADS, as C99 and without
   -lpthread, it builds too, with every row but the thread rows):
       gcc -std=c11 -O2 -DECS_SCHED_THREADS -I. -I/usr/include/stb bench/bench.c \
           bench/game_loop_row.c -lstb -lpthread -o build/bench
       ./build/bench [--json=PATH] [FILTER...]
   With FILTER arguments only the rows whose name contains one of them run; --json writes the
   figures to PATH instead of build/bench.json.

   Prints a table (name, value, unit, baseline, ratio, goal, met) and writes build/bench.json:
   an array of {"name", "value", "unit", "baseline", "ratio"}; lower is better, ratio is
   value / baseline. A timed figure is the median of REPS samples taken after WARMUP samples;
   where a row has a timed baseline, baseline and measured samples alternate. A missed goal is
   reported, not an error; the exit status is 1 only when a row could not be measured. */
#define _POSIX_C_SOURCE 200809L

#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/types.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#define WARMUP 2
#define REPS 11
#define COMPILE_REPS 3
#define MAX_SAMPLES 32

#define ITER_MIN_SAMPLE_NS 1e7  /* a sample of the iteration rows lasts at least this long */
#define SPAWN_COUNT 100000
#define MEMORY_COUNT 1000000
#define FRAGMENTS 64

typedef struct { float x, y; } Position;
typedef struct { float x, y; } Velocity;
typedef struct { float value; } Mass;

typedef enum goal_kind { GOAL_RATIO, GOAL_VALUE, GOAL_NONE } goal_kind;

typedef struct bench_row bench_row;
struct bench_row {
    const char *name;
    const char *unit;
    goal_kind goal;
    double limit;
    const char *baseline_text;
    void (*run)(bench_row *row);
    int selected;
    int measured;
    double value;
    double baseline;
    char note[1024];
};

/* ---- helpers ---- */

static double ratio_of(const bench_row *row);

static volatile double bench_sink;

/* Makes the compiler assume the memory behind p (and all other memory) was read and may have
   changed, so work on either side of it cannot be merged or dropped. */
#if defined(__GNUC__) || defined(__clang__)
#define BENCH_CLOBBER(p) __asm__ __volatile__("" : : "r"(p) : "memory")
/* Hides where a pointer came from, so the compiler cannot use what it knows about it (for
   example that two malloc results never overlap) on one side of a comparison only. */
#define BENCH_LAUNDER(p) __asm__("" : "+r"(p))
/* A kernel both sides of a row call: one copy, starting on a 64-byte boundary, so that where
   the linker happens to put its loop (across a fetch boundary or not) cannot favour a side.
   Inlined copies at different offsets made par_iter_1m's kernel 1.5x slower in one build than
   in another with the same library code. */
#define BENCH_KERNEL __attribute__((noinline, aligned(64)))
#else
#define BENCH_KERNEL
static void *volatile bench_escape;
#define BENCH_CLOBBER(p) (bench_escape = (void *)(p))
#define BENCH_LAUNDER(p) ((void)0)
#endif

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *samples, int count) {
    double sorted[MAX_SAMPLES];
    memcpy(sorted, samples, (size_t)count * sizeof *sorted);
    qsort(sorted, (size_t)count, sizeof *sorted, compare_doubles);
    if (count % 2) return sorted[count / 2];
    return 0.5 * (sorted[count / 2 - 1] + sorted[count / 2]);
}

static void appendf(bench_row *row, const char *fmt, ...) {
    size_t used = strlen(row->note);
    va_list args;
    if (used + 1 >= sizeof row->note) return;
    va_start(args, fmt);
    vsnprintf(row->note + used, sizeof row->note - used, fmt, args);
    va_end(args);
}

/* Marks the row as not measured, with the reason (and the world's last error). */
static void fail(bench_row *row, const char *what, const ecs_sched_world *world) {
    row->measured = 0;
    snprintf(row->note, sizeof row->note, "FAILED: %s%s%s", what, world ? ": " : "",
             world ? ecs_sched_last_error(world) : "");
}

static void *xmalloc(size_t size) {
    void *p = malloc(size ? size : 1);
    if (!p) {
        fprintf(stderr, "bench: out of memory (%lu bytes)\n", (unsigned long)size);
        exit(2);
    }
    return p;
}

/* ---- the sampler: every timed row takes its samples through bench_sample ---- */

/* A side's work comes in one of two kinds. A loop runs `reps` repetitions in one call, which
   the sampler times whole, so that a tight loop (frames, tasks) stays free of the sampler's
   calls; it returns 0 after calling fail() when the work went wrong. A timed side runs one
   repetition and returns the nanoseconds of the part it times, leaving out the setup and the
   checks around it (a fresh world, a read-back); the sampler calls it `reps` times a sample
   and adds up. It returns a negative value after calling fail() when the work went wrong. */
typedef int (*bench_loop)(bench_row *row, void *state, int32_t reps);
typedef double (*bench_timed)(bench_row *row, void *state);

typedef struct bench_side {
    bench_loop loop;                 /* one of the two; neither: no such side (extras only) */
    bench_timed timed;
    void *state;
} bench_side;

#define BENCH_EXTRAS 3

typedef struct bench_sampling {
    bench_side baseline, measured;
    bench_side extras[BENCH_EXTRAS]; /* figures for a row's note, taken in the same samples */
    int32_t reps;                    /* repetitions per sample */
    double per;                      /* a figure is ns / reps / per: per turns nanoseconds per
                                        repetition into the row's unit */
    int warmup, samples;             /* samples thrown away first, then samples kept */
    /* Interleaved: each sample runs baseline, measured, then the extras, so that a change in
       the machine's load reaches every side alike. Otherwise all samples of measured come
       first, then all of baseline, then of each extra: the schedule build rows, whose samples
       are single builds of up to tens of milliseconds, are taken that way. */
    int interleaved;
} bench_sampling;

typedef struct bench_medians {
    double value, baseline, extras[BENCH_EXTRAS];
} bench_medians;

/* The row's usual sampling: WARMUP samples, then REPS, interleaved. */
static bench_sampling sampling(int32_t reps, double per) {
    bench_sampling s;
    memset(&s, 0, sizeof s);
    s.reps = reps;
    s.per = per;
    s.warmup = WARMUP;
    s.samples = REPS;
    s.interleaved = 1;
    return s;
}

static bench_side timed(bench_timed fn, void *state) {
    bench_side d;
    d.loop = NULL;
    d.timed = fn;
    d.state = state;
    return d;
}

static bench_side looped(bench_loop loop, void *state) {
    bench_side d = timed(NULL, state);
    d.loop = loop;
    return d;
}

/* The nanoseconds of one sample of a side, or -1 when its work failed. */
static double take_sample(bench_row *row, const bench_side *d, int32_t reps) {
    double t0, t1, ns = 0.0;
    int32_t r;
    int ok;
    if (d->timed) {
        for (r = 0; r < reps; r++) {
            double t = d->timed(row, d->state);
            if (t < 0) return -1.0;
            ns += t;
        }
        return ns;
    }
    t0 = now_ns();
    ok = d->loop(row, d->state, reps);
    t1 = now_ns();
    return ok ? t1 - t0 : -1.0;
}

/* Fills *out with the median figure of each side; 0 (the row already failed) when a side did. */
static int bench_sample(bench_row *row, const bench_sampling *s, bench_medians *out) {
    const bench_side *order[2 + BENCH_EXTRAS];
    double *median_of[2 + BENCH_EXTRAS];
    double figures[2 + BENCH_EXTRAS][MAX_SAMPLES];
    int sides = 0, runs = s->warmup + s->samples, i, k;
    if (s->samples < 1 || s->samples > MAX_SAMPLES) {
        fail(row, "sample count out of range", NULL);
        return 0;
    }
    order[sides] = s->interleaved ? &s->baseline : &s->measured;
    median_of[sides++] = s->interleaved ? &out->baseline : &out->value;
    order[sides] = s->interleaved ? &s->measured : &s->baseline;
    median_of[sides++] = s->interleaved ? &out->value : &out->baseline;
    for (i = 0; i < BENCH_EXTRAS; i++) {
        out->extras[i] = 0.0;
        if (!s->extras[i].loop && !s->extras[i].timed) continue;
        order[sides] = &s->extras[i];
        median_of[sides++] = &out->extras[i];
    }
    for (k = 0; k < sides * runs; k++) {
        int which = s->interleaved ? k % sides : k / runs;
        int r = s->interleaved ? k / sides : k % runs;
        double ns = take_sample(row, order[which], s->reps);
        if (ns < 0) return 0;
        if (r >= s->warmup) figures[which][r - s->warmup] = ns / s->reps / s->per;
    }
    for (i = 0; i < sides; i++) *median_of[i] = median(figures[i], s->samples);
    return 1;
}

/* bench_sample, whose medians of measured and baseline then become the row's figures. */
static int sample_row(bench_row *row, const bench_sampling *s, bench_medians *out) {
    if (!bench_sample(row, s, out)) return 0;
    row->value = out->value;
    row->baseline = out->baseline;
    row->measured = 1;
    return 1;
}

/* Integer-valued floats: every sum stays exact, so checksums do not depend on order. */
static Position initial_position(int32_t i) {
    Position p;
    p.x = (float)(i % 1000);
    p.y = (float)(i % 7);
    return p;
}

static Velocity initial_velocity(int32_t i) {
    Velocity v;
    v.x = (float)(i % 5);
    v.y = 1.0f;
    return v;
}

static void fill_values(Position *pos, Velocity *vel, int32_t n) {
    int32_t i;
    for (i = 0; i < n; i++) {
        pos[i] = initial_position(i);
        vel[i] = initial_velocity(i);
    }
}

/* A world with Position (tracked: with change ticks) and Velocity. */
static ecs_sched_world *make_world_tracking(const ecs_sched_allocator *allocator, int tracked,
                                            ecs_sched_id *pos, ecs_sched_id *vel) {
    ecs_sched_world_desc desc;
    ecs_sched_world *world;
    memset(&desc, 0, sizeof desc);
    if (allocator) desc.allocator = *allocator;
    world = ecs_sched_world_create(&desc);
    if (!world) return NULL;
#ifndef BENCH_WITHOUT_EVENT_ROWS   /* the only rows of tracked components */
    *pos = tracked ? ECS_SCHED_TRACKED_COMPONENT(world, Position)
                   : ECS_SCHED_COMPONENT(world, Position);
#else
    (void)tracked;
    *pos = ECS_SCHED_COMPONENT(world, Position);
#endif
    *vel = ECS_SCHED_COMPONENT(world, Velocity);
    if (!*pos || !*vel) {
        ecs_sched_world_destroy(world);
        return NULL;
    }
    return world;
}

static ecs_sched_world *make_world(const ecs_sched_allocator *allocator, ecs_sched_id *pos,
                                   ecs_sched_id *vel) {
    return make_world_tracking(allocator, 0, pos, vel);
}

static ecs_sched_query *make_move_query(ecs_sched_world *world, ecs_sched_id pos,
                                        ecs_sched_id vel) {
    ecs_sched_query_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.terms[0] = ecs_sched_write(pos);
    desc.terms[1] = ecs_sched_read(vel);
    return ecs_sched_query_create(world, &desc);
}

static double position_checksum(const Position *p, int32_t n) {
    double sum = 0.0;
    int32_t i;
    for (i = 0; i < n; i++) sum += (double)p[i].x + 2.0 * (double)p[i].y;
    return sum;
}

static double query_checksum(const ecs_sched_query *query) {
    double sum = 0.0;
    ecs_sched_iter it = ecs_sched_query_iter(query);
    while (ecs_sched_iter_next(&it))
        sum += position_checksum(ECS_SCHED_FIELD(&it, const Position, 0), it.count);
    return sum;
}

/* The checksum of entities 0..n-1 after `frames` frames of p += v. */
static double expected_checksum(int32_t n, double frames) {
    double sum = 0.0;
    int32_t i;
    for (i = 0; i < n; i++) {
        Position p = initial_position(i);
        Velocity v = initial_velocity(i);
        sum += ((double)p.x + frames * (double)v.x) + 2.0 * ((double)p.y + frames * (double)v.y);
    }
    return sum;
}

/* ---- iteration: iter_1m, iter_10k, iter_fragmented ---- */

/* The one kernel both sides run. */
static BENCH_KERNEL void move_kernel(Position *p, const Velocity *v, int32_t n) {
    int32_t i;
    for (i = 0; i < n; i++) {
        p[i].x += v[i].x;
        p[i].y += v[i].y;
    }
}

static void raw_frames(Position *p, const Velocity *v, int32_t n, int frames) {
    int f;
    BENCH_LAUNDER(p);
    BENCH_LAUNDER(v);
    for (f = 0; f < frames; f++) {
        move_kernel(p, v, n);
        BENCH_CLOBBER(p);
    }
}

static void query_frames(const ecs_sched_query *query, int frames) {
    int f;
    for (f = 0; f < frames; f++) {
        ecs_sched_iter it = ecs_sched_query_iter(query);
        while (ecs_sched_iter_next(&it))
            move_kernel(ECS_SCHED_FIELD(&it, Position, 0), ECS_SCHED_FIELD(&it, const Velocity, 1),
                        it.count);
        BENCH_CLOBBER(&it);
    }
}

/* One side of an iteration row: frames through the query when it is set, otherwise the raw
   loop over p and v. `frames` counts what the side ran into the counter of the data it ran on,
   for the checksums. */
typedef struct move_side {
    const ecs_sched_query *query;
    Position *p;
    const Velocity *v;
    int32_t n;
    double *frames;
} move_side;

static move_side moving(const ecs_sched_query *query, Position *p, const Velocity *v, int32_t n,
                        double *frames) {
    move_side s;
    s.query = query;
    s.p = p;
    s.v = v;
    s.n = n;
    s.frames = frames;
    return s;
}

static int move_frames(bench_row *row, void *state, int32_t reps) {
    move_side *s = (move_side *)state;
    (void)row;
    if (s->query) query_frames(s->query, reps);
    else raw_frames(s->p, s->v, s->n, reps);
    *s->frames += reps;
    return 1;
}

/* How far apart two arrays start, modulo 4096: 0 means each load of v[i] can be held up by
   the store to p[i] (4K aliasing). */
static long offset_mod_4k(const void *p, const void *v) {
    return (long)(((uintptr_t)v - (uintptr_t)p) & 4095u);
}

/* n entities, spread round-robin over `archetypes` tag archetypes when above 1, Position
   tracked or not. unit_ns converts a frame's nanoseconds into the row's unit. The two
   baseline arrays are carved from one malloc block, so where they sit does not depend on the
   state of the heap. */
static void run_iteration_of(bench_row *row, int32_t n, int archetypes, int tracked,
                             double unit_ns) {
    static char tag_names[FRAGMENTS][16];
    unsigned char *block = (unsigned char *)xmalloc((size_t)n * (sizeof(Position) + sizeof(Velocity)));
    Position *raw_pos = (Position *)block;
    Velocity *raw_vel = (Velocity *)(block + (size_t)n * sizeof(Position));
    Position *col_pos = NULL;
    const Velocity *col_vel = NULL;
    ecs_sched_world *world;
    ecs_sched_query *query = NULL;
    ecs_sched_id pos, vel;
    move_side hand_side, query_side, col_side;
    bench_sampling s;
    bench_medians med, diag;
    double t0, t1, first, raw_frames_done, ecs_frames_done, raw_sum, ecs_sum;
    int frames, ok;

    fill_values(raw_pos, raw_vel, n);
    world = make_world_tracking(NULL, tracked, &pos, &vel);
    if (!world) {
        fail(row, "world creation", NULL);
        goto done;
    }
    if (archetypes <= 1) {
        ecs_sched_id ids[2];
        const void *arrays[2];
        ids[0] = pos; ids[1] = vel;
        arrays[0] = raw_pos; arrays[1] = raw_vel;
        if (ecs_sched_spawn_batch(world, n, 2, ids, arrays, NULL) != ECS_SCHED_OK) {
            fail(row, "ecs_sched_spawn_batch", world);
            goto done;
        }
    } else {
        int32_t per = n / archetypes + 1, m, i;
        Position *part_pos = (Position *)xmalloc((size_t)per * sizeof *part_pos);
        Velocity *part_vel = (Velocity *)xmalloc((size_t)per * sizeof *part_vel);
        int k;
        ok = 1;
        for (k = 0; k < archetypes && ok; k++) {
            ecs_sched_component_desc desc;
            ecs_sched_id ids[3];
            const void *arrays[3];
            memset(&desc, 0, sizeof desc);
            snprintf(tag_names[k], sizeof tag_names[k], "Tag%02d", k);
            desc.name = tag_names[k];
            desc.size = 0;
            ids[0] = pos; ids[1] = vel;
            ids[2] = ecs_sched_component_register(world, &desc);
            if (!ids[2]) {
                fail(row, "ecs_sched_component_register (tag)", world);
                ok = 0;
                break;
            }
            for (m = 0, i = k; i < n; i += archetypes, m++) {
                part_pos[m] = raw_pos[i];
                part_vel[m] = raw_vel[i];
            }
            arrays[0] = part_pos; arrays[1] = part_vel; arrays[2] = NULL;
            if (ecs_sched_spawn_batch(world, m, 3, ids, arrays, NULL) != ECS_SCHED_OK) {
                fail(row, "ecs_sched_spawn_batch (tagged)", world);
                ok = 0;
            }
        }
        free(part_pos);
        free(part_vel);
        if (!ok) goto done;
    }
    query = make_move_query(world, pos, vel);
    if (!query) {
        fail(row, "ecs_sched_query_create", world);
        goto done;
    }
    if (ecs_sched_query_count(query) != n) {
        fail(row, "the query does not match every entity", world);
        goto done;
    }
    if (archetypes <= 1) {
        /* The world's own columns, for a third, diagnostic, measurement: the same raw loop on
           them tells column placement apart from the cost of iterating. */
        ecs_sched_iter it = ecs_sched_query_iter(query);
        if (ecs_sched_iter_next(&it) && it.count == n) {
            col_pos = ECS_SCHED_FIELD(&it, Position, 0);
            col_vel = ECS_SCHED_FIELD(&it, const Velocity, 1);
        }
    }

    /* One frame each way, to size a sample. */
    t0 = now_ns();
    raw_frames(raw_pos, raw_vel, n, 1);
    t1 = now_ns();
    query_frames(query, 1);
    first = t1 - t0;
    frames = first >= ITER_MIN_SAMPLE_NS ? 1 : (int)(ITER_MIN_SAMPLE_NS / (first > 1.0 ? first : 1.0)) + 1;
    if (frames > 100000) frames = 100000;
    raw_frames_done = ecs_frames_done = 1.0;

    hand_side = moving(NULL, raw_pos, raw_vel, n, &raw_frames_done);
    query_side = moving(query, NULL, NULL, n, &ecs_frames_done);
    col_side = moving(NULL, col_pos, col_vel, n, &ecs_frames_done);
    s = sampling(frames, unit_ns);
    s.baseline = looped(move_frames, &hand_side);
    s.measured = looped(move_frames, &query_side);
    if (!sample_row(row, &s, &med)) goto done;
    /* A separate pass, so that the measured pass above alternates over two data sets only
       (with 1M entities, which data a cache keeps depends on the order of the passes). */
    s.measured = looped(move_frames, &col_side);
    if (col_pos && !bench_sample(row, &s, &diag)) goto done;

    raw_sum = position_checksum(raw_pos, n);
    ecs_sum = query_checksum(query);
    bench_sink = raw_sum + ecs_sum;
    ok = raw_sum == expected_checksum(n, raw_frames_done) &&
         ecs_sum == expected_checksum(n, ecs_frames_done);
    row->measured = ok;
    appendf(row, "%d frame(s) per sample; checksums %.0f (raw) and %.0f (query) %s", frames,
            raw_sum, ecs_sum, ok ? "as expected" : "WRONG: figure withheld");
    if (col_pos) {
        double c = diag.value / diag.baseline;
        appendf(row, "; diagnostic (a second interleaved pass): the same raw loop on the world's "
                "own columns takes %.3f x the baseline, so of the ratio, column placement accounts "
                "for about %.3f x and iterating for %.3f x; start of Velocity minus start of "
                "Position, mod 4096: %ld in the world, %ld in the baseline",
                c, c, ratio_of(row) / c, offset_mod_4k(col_pos, col_vel),
                offset_mod_4k(raw_pos, raw_vel));
    }
    if (archetypes > 1) appendf(row, "; %d archetypes in the world", ecs_sched_archetype_count(world));

done:
    if (world) ecs_sched_world_destroy(world);
    free(block);
}

static void run_iteration(bench_row *row, int32_t n, int archetypes, double unit_ns) {
    run_iteration_of(row, n, archetypes, 0, unit_ns);
}

static void run_iter_1m(bench_row *row) { run_iteration(row, 1000000, 1, 1e6); }
static void run_iter_10k(bench_row *row) { run_iteration(row, 10000, 1, 1e3); }
static void run_iter_fragmented(bench_row *row) { run_iteration(row, 1000000, FRAGMENTS, 1e6); }

/* ---- spawning and despawning ---- */

static int check_value(ecs_sched_world *world, ecs_sched_entity e, ecs_sched_id pos,
                       ecs_sched_id vel, int32_t i) {
    const Position *p = (const Position *)ecs_sched_get(world, e, pos);
    const Velocity *v = (const Velocity *)ecs_sched_get(world, e, vel);
    Position wp = initial_position(i);
    Velocity wv = initial_velocity(i);
    return p && v && p->x == wp.x && p->y == wp.y && v->x == wv.x && v->y == wv.y;
}

/* What the sides of the spawning rows work on: the values to spawn, room for the handles, and
   a world (and a command buffer) kept across samples; a side given no world makes a fresh one
   per sample, untimed. A repetition of these sides is one pass over SPAWN_COUNT entities, a
   constant the compiler sees, as it would in a plain program. */
typedef struct spawn_job {
    const Position *pv;
    const Velocity *vv;
    ecs_sched_entity *ents;
    unsigned char **blocks;          /* the malloc baseline's blocks */
    ecs_sched_world *world;
    ecs_sched_commands *commands;
    ecs_sched_id pos, vel;
    int separate_inserts;
    const char *what;                /* what a failure of the side says */
} spawn_job;

/* Spawns n entities with ecs_sched_spawn_with, then despawns them; the nanoseconds of both
   phases, or -1 on failure. */
static double time_direct(ecs_sched_world *world, ecs_sched_id pos, ecs_sched_id vel,
                          const Position *pv, const Velocity *vv, ecs_sched_entity *ents,
                          int32_t n) {
    ecs_sched_id ids[2];
    const void *values[2];
    double t0, spawn_ns, despawn_ns;
    int32_t i;
    ids[0] = pos; ids[1] = vel;
    t0 = now_ns();
    for (i = 0; i < n; i++) {
        values[0] = &pv[i];
        values[1] = &vv[i];
        ents[i] = ecs_sched_spawn_with(world, 2, ids, values);
        if (ents[i] == ECS_SCHED_NULL_ENTITY) return -1.0;
    }
    spawn_ns = now_ns() - t0;
    if (ecs_sched_entity_count(world) != n || !check_value(world, ents[n / 2], pos, vel, n / 2))
        return -1.0;
    t0 = now_ns();
    for (i = 0; i < n; i++)
        if (ecs_sched_despawn(world, ents[i]) != ECS_SCHED_OK) return -1.0;
    despawn_ns = now_ns() - t0;
    if (ecs_sched_entity_count(world) != 0) return -1.0;
    return spawn_ns + despawn_ns;
}

static double direct_side(bench_row *row, void *state) {
    const spawn_job *job = (const spawn_job *)state;
    ecs_sched_world *world = job->world;
    ecs_sched_id pos = job->pos, vel = job->vel;
    double ns;
    if (!world && !(world = make_world(NULL, &pos, &vel))) {
        fail(row, "world creation", NULL);
        return -1.0;
    }
    ns = time_direct(world, pos, vel, job->pv, job->vv, job->ents, SPAWN_COUNT);
    if (ns < 0) fail(row, job->what, world);
    if (world != job->world) ecs_sched_world_destroy(world);
    return ns;
}

/* The same through a command buffer: spawn + two inserts each, apply; despawns, apply. */
static double time_commands(ecs_sched_world *world, ecs_sched_commands *commands,
                            ecs_sched_id pos, ecs_sched_id vel, const Position *pv,
                            const Velocity *vv, ecs_sched_entity *ents, int32_t n,
                            int separate_inserts) {
    double t0, spawn_ns, despawn_ns;
    int32_t i;
    ecs_sched_id ids[2];
    ids[0] = pos;
    ids[1] = vel;
    t0 = now_ns();
    for (i = 0; i < n; i++) {
        ecs_sched_entity e;
        if (separate_inserts) {
            e = ecs_sched_commands_spawn(commands);
            if (e == ECS_SCHED_NULL_ENTITY) return -1.0;
            if (ecs_sched_commands_insert(commands, e, pos, &pv[i]) != ECS_SCHED_OK) return -1.0;
            if (ecs_sched_commands_insert(commands, e, vel, &vv[i]) != ECS_SCHED_OK) return -1.0;
        } else {
            const void *values[2];
            values[0] = &pv[i];
            values[1] = &vv[i];
            e = ecs_sched_commands_spawn_with(commands, 2, ids, values);
            if (e == ECS_SCHED_NULL_ENTITY) return -1.0;
        }
        ents[i] = e;
    }
    if (ecs_sched_commands_apply(commands) != ECS_SCHED_OK) return -1.0;
    spawn_ns = now_ns() - t0;
    if (ecs_sched_entity_count(world) != n || !check_value(world, ents[n / 2], pos, vel, n / 2))
        return -1.0;
    t0 = now_ns();
    for (i = 0; i < n; i++)
        if (ecs_sched_commands_despawn(commands, ents[i]) != ECS_SCHED_OK) return -1.0;
    if (ecs_sched_commands_apply(commands) != ECS_SCHED_OK) return -1.0;
    despawn_ns = now_ns() - t0;
    if (ecs_sched_entity_count(world) != 0) return -1.0;
    return spawn_ns + despawn_ns;
}

static double commands_side(bench_row *row, void *state) {
    const spawn_job *job = (const spawn_job *)state;
    double ns = time_commands(job->world, job->commands, job->pos, job->vel, job->pv, job->vv,
                              job->ents, SPAWN_COUNT, job->separate_inserts);
    if (ns < 0) fail(row, job->what, job->world);
    return ns;
}

/* A 16-byte block per entity with the values copied in, then a free of each. restrict: the
   arrays are separate malloc blocks, which a plain program that made them next to this loop
   would let the compiler see; knowing it, the compiler merges the two copies into one store. */
static double malloc_blocks(bench_row *row, const Position *restrict pv,
                            const Velocity *restrict vv, unsigned char **restrict blocks) {
    const int32_t n = SPAWN_COUNT;
    double t0 = now_ns();
    int32_t i;
    for (i = 0; i < n; i++) {
        unsigned char *b = (unsigned char *)malloc(sizeof(Position) + sizeof(Velocity));
        if (!b) { fail(row, "malloc in the baseline", NULL); return -1.0; }
        memcpy(b, &pv[i], sizeof(Position));
        memcpy(b + sizeof(Position), &vv[i], sizeof(Velocity));
        blocks[i] = b;
    }
    BENCH_CLOBBER(blocks);
    bench_sink = blocks[n - 1][0];
    for (i = 0; i < n; i++) free(blocks[i]);
    return now_ns() - t0;
}

static double malloc_side(bench_row *row, void *state) {
    const spawn_job *job = (const spawn_job *)state;
    return malloc_blocks(row, job->pv, job->vv, job->blocks);
}

static void run_spawn_despawn(bench_row *row) {
    const int32_t n = SPAWN_COUNT;
    Position *pv = (Position *)xmalloc((size_t)n * sizeof *pv);
    Velocity *vv = (Velocity *)xmalloc((size_t)n * sizeof *vv);
    ecs_sched_entity *ents = (ecs_sched_entity *)xmalloc((size_t)n * sizeof *ents);
    unsigned char **blocks = (unsigned char **)xmalloc((size_t)n * sizeof *blocks);
    spawn_job job;
    bench_sampling s = sampling(1, n);
    bench_medians m;
    fill_values(pv, vv, n);
    memset(&job, 0, sizeof job);
    job.pv = pv;
    job.vv = vv;
    job.ents = ents;
    job.blocks = blocks;
    job.what = "spawn_with/despawn";
    s.baseline = timed(malloc_side, &job);
    s.measured = timed(direct_side, &job);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d entities, ecs_sched_spawn_with then ecs_sched_despawn, a fresh world per "
                "sample", n);
    }
    free(pv); free(vv); free(ents); free(blocks);
}

/* malloc of two fresh arrays and a copy of the values into them; read back and freed untimed. */
static double copy_side(bench_row *row, void *state) {
    const spawn_job *job = (const spawn_job *)state;
    const int32_t n = SPAWN_COUNT;
    Position *cp;
    Velocity *cv;
    double t0 = now_ns(), ns;
    cp = (Position *)malloc((size_t)n * sizeof *cp);
    cv = (Velocity *)malloc((size_t)n * sizeof *cv);
    if (!cp || !cv) { free(cp); free(cv); fail(row, "malloc in the baseline", NULL); return -1.0; }
    memcpy(cp, job->pv, (size_t)n * sizeof *cp);
    memcpy(cv, job->vv, (size_t)n * sizeof *cv);
    ns = now_ns() - t0;
    bench_sink = position_checksum(cp, n) + (double)cv[n - 1].x;
    free(cp);
    free(cv);
    return ns;
}

/* One ecs_sched_spawn_batch into a fresh world, made, checked and destroyed untimed. */
static double batch_side(bench_row *row, void *state) {
    const spawn_job *job = (const spawn_job *)state;
    const int32_t n = SPAWN_COUNT;
    ecs_sched_world *world;
    ecs_sched_query *query;
    ecs_sched_id pos, vel, ids[2];
    const void *arrays[2];
    double t0, ns = -1.0;
    world = make_world(NULL, &pos, &vel);
    if (!world) { fail(row, "world creation", NULL); return -1.0; }
    ids[0] = pos; ids[1] = vel;
    arrays[0] = job->pv; arrays[1] = job->vv;
    t0 = now_ns();
    if (ecs_sched_spawn_batch(world, n, 2, ids, arrays, NULL) != ECS_SCHED_OK) {
        fail(row, "ecs_sched_spawn_batch", world);
        goto done;
    }
    ns = now_ns() - t0;
    query = make_move_query(world, pos, vel);
    if (ecs_sched_entity_count(world) != n || !query ||
        query_checksum(query) != expected_checksum(n, 0.0)) {
        fail(row, "the batch did not spawn the right entities", world);
        ns = -1.0;
    }
done:
    ecs_sched_world_destroy(world);
    return ns;
}

static void run_spawn_batch(bench_row *row) {
    const int32_t n = SPAWN_COUNT;
    Position *pv = (Position *)xmalloc((size_t)n * sizeof *pv);
    Velocity *vv = (Velocity *)xmalloc((size_t)n * sizeof *vv);
    spawn_job job;
    bench_sampling s = sampling(1, n);
    bench_medians m;
    fill_values(pv, vv, n);
    memset(&job, 0, sizeof job);
    job.pv = pv;
    job.vv = vv;
    s.baseline = timed(copy_side, &job);
    s.measured = timed(batch_side, &job);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d entities in one call, handles not requested, a fresh world per sample "
                "(created and destroyed untimed); values checked", n);
    }
    free(pv); free(vv);
}

/* The baseline of add_remove: the same two archetypes written by hand for these three types
   (what any archetype store does to move a row, with the sizes known to the compiler): table
   0 holds Position and Velocity, table 1 also Mass; a record per entity index gives its table,
   row and generation. */
typedef struct hand_record {
    uint32_t table, row, generation;
} hand_record;

typedef struct hand_archetype {
    Position *pos;
    Velocity *vel;
    Mass *mass;                      /* table 1 only */
    uint32_t *index;                 /* by row: the entity index */
    int32_t count;
} hand_archetype;

typedef struct add_remove_job {
    ecs_sched_world *world;
    const ecs_sched_entity *ents;
    ecs_sched_id pos, vel, mass;
    hand_archetype raw[2];            /* the baseline */
    hand_record *records;
} add_remove_job;

/* Moves the row of entity `index` from table `from` to the other one, the last row of `from`
   into the hole; returns its row in the other table. */
static inline uint32_t hand_move(hand_archetype *tables, hand_record *records, uint32_t index,
                                uint32_t from) {
    hand_archetype *src = &tables[from], *dst = &tables[from ^ 1u];
    hand_record *r = &records[index];
    uint32_t row = r->row, to = (uint32_t)dst->count++, last = (uint32_t)--src->count;
    dst->pos[to] = src->pos[row];
    dst->vel[to] = src->vel[row];
    dst->index[to] = index;
    if (row != last) {
        src->pos[row] = src->pos[last];
        src->vel[row] = src->vel[last];
        if (from == 1) src->mass[row] = src->mass[last];
        src->index[row] = src->index[last];
        records[src->index[row]].row = row;
    }
    r->table = from ^ 1u;
    r->row = to;
    return to;
}

/* Mass given to each entity (a move to table 1, the value written), by handle. */
static BENCH_KERNEL int32_t hand_insert_mass(hand_archetype *tables, hand_record *records,
                                            const ecs_sched_entity *ents, int32_t n) {
    int32_t i;
    for (i = 0; i < n; i++) {
        uint32_t index = ECS_SCHED_ENTITY_INDEX(ents[i]);
        const hand_record *r = &records[index];
        if (r->generation != ECS_SCHED_ENTITY_GENERATION(ents[i])) return 0;
        if (r->table == 1) tables[1].mass[r->row].value = (float)i;
        else tables[1].mass[hand_move(tables, records, index, 0)].value = (float)i;
    }
    return 1;
}

/* Mass taken from each entity (a move back to table 0), by handle. */
static BENCH_KERNEL int32_t hand_remove_mass(hand_archetype *tables, hand_record *records,
                                            const ecs_sched_entity *ents, int32_t n) {
    int32_t i;
    for (i = 0; i < n; i++) {
        uint32_t index = ECS_SCHED_ENTITY_INDEX(ents[i]);
        const hand_record *r = &records[index];
        if (r->generation != ECS_SCHED_ENTITY_GENERATION(ents[i])) return 0;
        if (r->table == 1) hand_move(tables, records, index, 1);
    }
    return 1;
}

/* The hand-written store of the same entities, all in table 0. */
static void hand_store_make(add_remove_job *job, const Position *pv, const Velocity *vv,
                           int32_t n) {
    uint32_t max_index = 0;
    int32_t i, t;
    for (i = 0; i < n; i++) {
        uint32_t index = ECS_SCHED_ENTITY_INDEX(job->ents[i]);
        if (index > max_index) max_index = index;
    }
    job->records = (hand_record *)xmalloc((max_index + 1) * sizeof *job->records);
    for (t = 0; t < 2; t++) {
        hand_archetype *a = &job->raw[t];
        a->pos = (Position *)xmalloc((size_t)n * sizeof *a->pos);
        a->vel = (Velocity *)xmalloc((size_t)n * sizeof *a->vel);
        a->mass = t == 1 ? (Mass *)xmalloc((size_t)n * sizeof *a->mass) : NULL;
        a->index = (uint32_t *)xmalloc((size_t)n * sizeof *a->index);
        a->count = 0;
    }
    for (i = 0; i < n; i++) {
        uint32_t index = ECS_SCHED_ENTITY_INDEX(job->ents[i]);
        job->raw[0].pos[i] = pv[i];
        job->raw[0].vel[i] = vv[i];
        job->raw[0].index[i] = index;
        job->records[index].table = 0;
        job->records[index].row = (uint32_t)i;
        job->records[index].generation = ECS_SCHED_ENTITY_GENERATION(job->ents[i]);
    }
    job->raw[0].count = n;
}

static void hand_store_free(add_remove_job *job) {
    int32_t t;
    for (t = 0; t < 2; t++) {
        free(job->raw[t].pos); free(job->raw[t].vel); free(job->raw[t].mass); free(job->raw[t].index);
    }
    free(job->records);
}

/* The hand-written inserts, then removes, timed; each checked untimed like the world's. */
static double hand_side(bench_row *row, void *state) {
    add_remove_job *job = (add_remove_job *)state;
    const int32_t n = SPAWN_COUNT;
    uint32_t probe = ECS_SCHED_ENTITY_INDEX(job->ents[n / 3]);
    const hand_record *r = &job->records[probe];
    double t0, ns;
    int ok;
    t0 = now_ns();
    ok = hand_insert_mass(job->raw, job->records, job->ents, n);
    ns = now_ns() - t0;
    if (!ok || r->table != 1 || job->raw[1].mass[r->row].value != (float)(n / 3) ||
        job->raw[1].vel[r->row].x != initial_velocity(n / 3).x) {
        fail(row, "hand-written store: inserted value not found", NULL);
        return -1.0;
    }
    t0 = now_ns();
    ok = hand_remove_mass(job->raw, job->records, job->ents, n);
    ns += now_ns() - t0;
    if (!ok || r->table != 0 || job->raw[0].pos[r->row].x != initial_position(n / 3).x) {
        fail(row, "hand-written store: removal not seen", NULL);
        return -1.0;
    }
    return ns;
}

/* ecs_sched_insert of Mass on each entity, then ecs_sched_remove on each; checked untimed. */
static double insert_remove_side(bench_row *row, void *state) {
    const add_remove_job *job = (const add_remove_job *)state;
    const int32_t n = SPAWN_COUNT;
    ecs_sched_world *world = job->world;
    const ecs_sched_entity *ents = job->ents;
    ecs_sched_id mass = job->mass;
    const Mass *got;
    double t0, ns;
    int32_t i;
    t0 = now_ns();
    for (i = 0; i < n; i++) {
        Mass m;
        m.value = (float)i;
        if (ecs_sched_insert(world, ents[i], mass, &m) != ECS_SCHED_OK) {
            fail(row, "ecs_sched_insert", world);
            return -1.0;
        }
    }
    ns = now_ns() - t0;
    got = (const Mass *)ecs_sched_get(world, ents[n / 3], mass);
    if (!got || got->value != (float)(n / 3) ||
        !check_value(world, ents[n / 3], job->pos, job->vel, n / 3)) {
        fail(row, "inserted value not found", world);
        return -1.0;
    }
    t0 = now_ns();
    for (i = 0; i < n; i++) {
        if (ecs_sched_remove(world, ents[i], mass) != ECS_SCHED_OK) {
            fail(row, "ecs_sched_remove", world);
            return -1.0;
        }
    }
    ns += now_ns() - t0;
    if (ecs_sched_has(world, ents[n / 3], mass) ||
        !check_value(world, ents[n / 3], job->pos, job->vel, n / 3)) {
        fail(row, "removal not seen", world);
        return -1.0;
    }
    return ns;
}

static void run_add_remove(bench_row *row) {
    const int32_t n = SPAWN_COUNT;
    Position *pv = (Position *)xmalloc((size_t)n * sizeof *pv);
    Velocity *vv = (Velocity *)xmalloc((size_t)n * sizeof *vv);
    ecs_sched_entity *ents = (ecs_sched_entity *)xmalloc((size_t)n * sizeof *ents);
    add_remove_job job;
    bench_sampling s = sampling(1, 2.0 * n);   /* two operations per entity */
    bench_medians m;
    ecs_sched_id ids[2];
    const void *arrays[2];

    fill_values(pv, vv, n);
    memset(&job, 0, sizeof job);
    job.ents = ents;
    job.world = make_world(NULL, &job.pos, &job.vel);
    if (!job.world) { fail(row, "world creation", NULL); goto done; }
    job.mass = ECS_SCHED_COMPONENT(job.world, Mass);
    ids[0] = job.pos; ids[1] = job.vel;
    arrays[0] = pv; arrays[1] = vv;
    if (!job.mass || ecs_sched_spawn_batch(job.world, n, 2, ids, arrays, ents) != ECS_SCHED_OK) {
        fail(row, "setup", job.world);
        goto done;
    }
    hand_store_make(&job, pv, vv, n);
    s.baseline = timed(hand_side, &job);
    s.measured = timed(insert_remove_side, &job);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d entities: ecs_sched_insert of Mass on each, then ecs_sched_remove on "
                "each; the same world throughout", n);
    }
    hand_store_free(&job);
done:
    if (job.world) ecs_sched_world_destroy(job.world);
    free(pv); free(vv); free(ents);
}

static void run_commands(bench_row *row) {
    const int32_t n = SPAWN_COUNT;
    Position *pv = (Position *)xmalloc((size_t)n * sizeof *pv);
    Velocity *vv = (Velocity *)xmalloc((size_t)n * sizeof *vv);
    ecs_sched_entity *ents = (ecs_sched_entity *)xmalloc((size_t)n * sizeof *ents);
    spawn_job direct, together, separate;
    bench_sampling s = sampling(1, n);
    bench_medians m;
    fill_values(pv, vv, n);
    memset(&direct, 0, sizeof direct);
    direct.pv = pv;
    direct.vv = vv;
    direct.ents = ents;
    together = direct;
    /* Both sides run in a world (and buffer) that lives across samples, as a game's world and
       its systems' buffers live across frames; the warm-up samples grow them first. */
    direct.world = make_world(NULL, &direct.pos, &direct.vel);
    together.world = make_world(NULL, &together.pos, &together.vel);
    if (!direct.world || !together.world) { fail(row, "world creation", NULL); goto done; }
    together.commands = ecs_sched_commands_create(together.world);
    if (!together.commands) { fail(row, "ecs_sched_commands_create", together.world); goto done; }
    direct.what = "spawn_with/despawn (baseline)";
    together.what = "command buffer spawn/despawn";
    separate = together;
    separate.separate_inserts = 1;
    separate.what = "command buffer spawn + inserts/despawn";
    s.baseline = timed(direct_side, &direct);
    s.measured = timed(commands_side, &together);
    s.extras[0] = timed(commands_side, &separate);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d entities: commands_spawn_with (both values) each, apply; commands_despawn "
                "each, apply; one world and buffer across samples (a world of its own for the "
                "direct calls), warmed up first; with commands_spawn + 2 commands_insert instead: "
                "%.1f ns/entity, ratio %.2f", n, m.extras[0], m.extras[0] / row->baseline);
    }
done:
    if (direct.world) ecs_sched_world_destroy(direct.world);
    if (together.world) ecs_sched_world_destroy(together.world);
    free(pv); free(vv); free(ents);
}

/* ---- memory ---- */

/* Every block carries its size in a header; a reallocation counts the new block while the old
   one still lives. */
#define COUNT_HEADER 16

typedef struct mem_counter {
    size_t live;
    size_t peak;
    size_t calls;
} mem_counter;

static void *count_realloc(void *ptr, size_t size, void *user_data) {
    mem_counter *c = (mem_counter *)user_data;
    unsigned char *base = NULL, *block;
    size_t old = 0;
    if (ptr) {
        base = (unsigned char *)ptr - COUNT_HEADER;
        memcpy(&old, base, sizeof old);
    }
    c->calls++;
    c->live += size;
    if (c->live > c->peak) c->peak = c->live;
    block = (unsigned char *)realloc(base, size + COUNT_HEADER);
    if (!block) {
        c->live -= size;
        return NULL;
    }
    c->live -= old;
    memcpy(block, &size, sizeof size);
    return block + COUNT_HEADER;
}

static void count_free(void *ptr, void *user_data) {
    mem_counter *c = (mem_counter *)user_data;
    unsigned char *base;
    size_t old;
    if (!ptr) return;
    base = (unsigned char *)ptr - COUNT_HEADER;
    memcpy(&old, base, sizeof old);
    c->live -= old;
    free(base);
}

static void run_memory(bench_row *row) {
    const int32_t n = MEMORY_COUNT;
    const double data = (double)(sizeof(Position) + sizeof(Velocity));
    Position *pv = (Position *)xmalloc((size_t)n * sizeof *pv);
    Velocity *vv = (Velocity *)xmalloc((size_t)n * sizeof *vv);
    mem_counter batch, single;
    ecs_sched_allocator allocator;
    ecs_sched_world *world;
    ecs_sched_id pos, vel, ids[2];
    const void *arrays[2];
    int32_t i;

    fill_values(pv, vv, n);
    memset(&batch, 0, sizeof batch);
    memset(&single, 0, sizeof single);
    allocator.realloc_fn = count_realloc;
    allocator.free_fn = count_free;

    allocator.user_data = &batch;
    world = make_world(&allocator, &pos, &vel);
    if (!world) { fail(row, "world creation", NULL); goto done; }
    ids[0] = pos; ids[1] = vel;
    arrays[0] = pv; arrays[1] = vv;
    if (ecs_sched_spawn_batch(world, n, 2, ids, arrays, NULL) != ECS_SCHED_OK ||
        ecs_sched_entity_count(world) != n) {
        fail(row, "ecs_sched_spawn_batch", world);
        ecs_sched_world_destroy(world);
        goto done;
    }
    ecs_sched_world_destroy(world);

    allocator.user_data = &single;
    world = make_world(&allocator, &pos, &vel);
    if (!world) { fail(row, "world creation", NULL); goto done; }
    for (i = 0; i < n; i++) {
        const void *values[2];
        values[0] = &pv[i];
        values[1] = &vv[i];
        if (ecs_sched_spawn_with(world, 2, ids, values) == ECS_SCHED_NULL_ENTITY) {
            fail(row, "ecs_sched_spawn_with", world);
            ecs_sched_world_destroy(world);
            goto done;
        }
    }
    ecs_sched_world_destroy(world);

    row->value = (double)batch.peak / n - data;
    row->baseline = data;
    row->measured = 1;
    appendf(row, "1M entities by spawn_batch: peak %.1f MB, %lu allocator calls; by spawn_with one "
            "at a time: %.2f bytes/entity beyond the data (peak %.1f MB, %lu calls); "
            "left allocated after world_destroy: %lu and %lu bytes; counted: requested sizes "
            "through the world allocator (stb_ds name maps and malloc overhead not included)",
            (double)batch.peak / 1e6, (unsigned long)batch.calls,
            (double)single.peak / n - data, (double)single.peak / 1e6,
            (unsigned long)single.calls, (unsigned long)batch.live, (unsigned long)single.live);
done:
    free(pv); free(vv);
}

/* ---- compile time ---- */

static int write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (!f) return 0;
    fputs(text, f);
    return fclose(f) == 0;
}

/* One compile; the sampler times the whole call, process start included. */
typedef struct compile_job {
    const char *command;
    const char *failure;
} compile_job;

static int compile_side(bench_row *row, void *state, int32_t reps) {
    const compile_job *job = (const compile_job *)state;
    int32_t r;
    for (r = 0; r < reps; r++) {
        if (system(job->command) != 0) {
            fail(row, job->failure, NULL);
            return 0;
        }
    }
    return 1;
}

/* The directory of the ecs_sched.h the compile row compiles: BENCH_HEADER_DIR, or the
   repository root (tools/bench_compare.py points each of its two programs at its header). */
static const char *header_dir(void) {
    const char *dir = getenv("BENCH_HEADER_DIR");
    return dir && *dir ? dir : ".";
}

/* Seconds to compile the implementation with `defines` (e.g. -DECS_SCHED_MINIMAL), against
   the same file without ECS_SCHED_IMPLEMENTATION. */
static void run_compile_with(bench_row *row, const char *defines) {
    static char impl_command[512], api_command[512], header_path[512];
    static compile_job impl = {impl_command, "compiling build/bench_compile_impl.c failed"};
    static compile_job api = {api_command, "compiling build/bench_compile_api.c failed"};
    bench_sampling s = sampling(1, 1e9);
    bench_medians m;
    FILE *header;
    snprintf(header_path, sizeof header_path, "%s/ecs_sched.h", header_dir());
    snprintf(impl_command, sizeof impl_command,
             "gcc -std=c99 -O2 %s -c -I%s -I/usr/include/stb build/bench_compile_impl.c "
             "-o build/bench_compile_impl.o", defines, header_dir());
    snprintf(api_command, sizeof api_command,
             "gcc -std=c99 -O2 %s -c -I%s -I/usr/include/stb build/bench_compile_api.c "
             "-o build/bench_compile_api.o", defines, header_dir());
    header = fopen(header_path, "r");
    if (!header) {
        fail(row, "ecs_sched.h not found: run from the repository root", NULL);
        return;
    }
    fclose(header);
    if (!write_text("build/bench_compile_impl.c",
                    "#define ECS_SCHED_IMPLEMENTATION\n#include \"ecs_sched.h\"\n") ||
        !write_text("build/bench_compile_api.c", "#include \"ecs_sched.h\"\n")) {
        fail(row, "cannot write build/bench_compile_*.c", NULL);
        return;
    }
    s.warmup = 1;
    s.samples = COMPILE_REPS;
    s.baseline = looped(compile_side, &api);
    s.measured = looped(compile_side, &impl);
    if (!sample_row(row, &s, &m)) return;
    remove("build/bench_compile_impl.o");
    remove("build/bench_compile_api.o");
    appendf(row, "median of %d compiles each after one untimed pair; process start included%s%s",
            COMPILE_REPS, *defines ? "; with " : "", defines);
}

static void run_compile(bench_row *row) { run_compile_with(row, ""); }

#ifdef BENCH_FLECS_DIR
/* Seconds to compile the implementation, against compiling flecs.c (the directory make bench
   FLECS_DIR=... names) with the same compiler and optimization, interleaved: the ratio holds
   on a faster or slower machine. flecs.c is compiled in C99 with GNU extensions, as its
   sources ask, without its object (the bench links the one make built). */
static void run_flecs_compile_impl(bench_row *row) {
    static char impl_command[512], flecs_command[512];
    static compile_job impl = {impl_command, "compiling build/bench_compile_impl.c failed"};
    static compile_job flecs = {flecs_command, "compiling flecs.c failed"};
    bench_sampling s = sampling(1, 1e9);
    bench_medians m;
    snprintf(impl_command, sizeof impl_command,
             "gcc -std=c99 -O2 -c -I%s -I/usr/include/stb build/bench_compile_impl.c "
             "-o build/bench_compile_impl.o", header_dir());
    snprintf(flecs_command, sizeof flecs_command,
             "gcc -std=gnu99 -O2 -c -I%s %s/flecs.c -o build/bench_compile_flecs.o",
             BENCH_FLECS_DIR, BENCH_FLECS_DIR);
    if (!write_text("build/bench_compile_impl.c",
                    "#define ECS_SCHED_IMPLEMENTATION\n#include \"ecs_sched.h\"\n")) {
        fail(row, "cannot write build/bench_compile_impl.c", NULL);
        return;
    }
    s.warmup = 0;
    s.samples = COMPILE_REPS;
    s.baseline = looped(compile_side, &flecs);
    s.measured = looped(compile_side, &impl);
    if (!sample_row(row, &s, &m)) return;
    remove("build/bench_compile_impl.o");
    remove("build/bench_compile_flecs.o");
    appendf(row, "median of %d compiles each, interleaved; baseline: flecs.c from %s, gcc "
                 "-std=gnu99 -O2", COMPILE_REPS, BENCH_FLECS_DIR);
}
#endif

/* Every optional feature left out (an older header, which has no switch, compiles whole). */
static void run_compile_minimal(bench_row *row) { run_compile_with(row, "-DECS_SCHED_MINIMAL"); }

#ifndef BENCH_WITHOUT_SPAWN_ROWS
#include "spawn_rows.c"
#endif
#ifndef BENCH_WITHOUT_UNPACK_ROWS
#include "unpack_rows.c"
#endif
/* Beside flecs: only with BENCH_FLECS (make bench FLECS_DIR=...), and on the unpack rows. */
#if defined(BENCH_FLECS) && !defined(BENCH_WITHOUT_FLECS_ROWS) && !defined(BENCH_WITHOUT_UNPACK_ROWS)
#define BENCH_FLECS_ROWS
#include "flecs_rows.c"
#endif
#ifndef BENCH_WITHOUT_SPARSE_ROWS
#include "sparse_rows.c"
#endif
#ifndef BENCH_WITHOUT_SCHEDULE_ROWS
#include "schedule_rows.c"
#ifndef BENCH_WITHOUT_FAILURE_ROWS
#include "failure_rows.c"
#endif
#endif
#ifndef BENCH_WITHOUT_STATE_ROWS
#include "state_rows.c"
#endif
#ifndef BENCH_WITHOUT_APP_ROWS
#include "app_rows.c"
#endif
#ifndef BENCH_WITHOUT_EVENT_ROWS
#include "event_rows.c"
#endif
#ifndef BENCH_WITHOUT_HIERARCHY_ROWS
#include "hierarchy_rows.c"
#endif
#ifndef BENCH_WITHOUT_PREFAB_ROWS
#include "prefab_rows.c"
#endif
#ifndef BENCH_WITHOUT_SNAPSHOT_ROWS
#include "snapshot_rows.c"
#endif
#ifndef BENCH_WITHOUT_JSON_ROWS
#include "json_rows.c"
#endif
#ifndef BENCH_WITHOUT_TRACE_ROWS
#include "trace_rows.c"
#endif
#ifndef BENCH_WITHOUT_TIMER_ROWS
#include "timer_rows.c"
#endif
#ifndef BENCH_WITHOUT_QUERY_ROWS
#include "query_rows.c"
#endif
#ifndef BENCH_WITHOUT_OBSERVER_ROWS
#include "observer_rows.c"
#endif
#ifndef BENCH_WITHOUT_BULK_ROWS
#include "bulk_rows.c"
#endif
#if defined(ECS_SCHED_NATIVE_SCRIPTS) && !defined(BENCH_WITHOUT_SCRIPT_ROWS)
#include "script_rows.c"
#endif
#if defined(ECS_SCHED_REMOTE) && !defined(BENCH_WITHOUT_REMOTE_ROWS)
#include "remote_rows.c"
#endif
#if defined(ECS_SCHED_LUA) && !defined(BENCH_WITHOUT_LUA_ROWS) && \
    !defined(BENCH_WITHOUT_SCHEDULE_ROWS)
#include "lua_rows.c"
#endif
#ifdef ECS_SCHED_THREADS
#ifndef BENCH_WITHOUT_PARALLEL_ROWS
#include "parallel_rows.c"
#endif
#endif

/* ---- the table ---- */

static bench_row rows[] = {
    {"iter_1m", "ms/frame", GOAL_RATIO, 1.03,
     "raw loop over two malloc'd arrays of 1M structs, same kernel, interleaved",
     run_iter_1m, 0, 0, 0, 0, ""},
    {"iter_10k", "us/frame", GOAL_RATIO, 1.05,
     "raw loop over two malloc'd arrays of 10k structs, same kernel, interleaved",
     run_iter_10k, 0, 0, 0, 0, ""},
    {"iter_fragmented", "ms/frame", GOAL_RATIO, 1.15,
     "raw loop over two malloc'd arrays of 1M structs, same kernel, interleaved; the world "
     "spreads the 1M entities over 64 tag archetypes",
     run_iter_fragmented, 0, 0, 0, 0, ""},
#ifndef BENCH_WITHOUT_EVENT_ROWS
    {"iter_1m_tracked", "ms/frame", GOAL_RATIO, 1.15,
     "raw loop over two malloc'd arrays of 1M structs, same kernel, interleaved",
     run_iter_1m_tracked, 0, 0, 0, 0, ""},
    {"iter_1m_tracked_manual", "ms/frame", GOAL_NONE, 0,
     "raw loop over two malloc'd arrays of 1M structs, same kernel, interleaved",
     run_iter_1m_tracked_manual, 0, 0, 0, 0, ""},
    {"changed_query_sparse", "ns/changed", GOAL_VALUE, 5.0,
     "a plain query over all 1M entities, per changed entity",
     run_changed_query_sparse, 0, 0, 0, 0, ""},
    {"observer_insert", "ns/insert", GOAL_RATIO, 1.3,
     "the same inserts in a world without observers, interleaved",
     run_observer_insert, 0, 0, 0, 0, ""},
    {"messages_send_read", "ms/frame", GOAL_RATIO, 2.0,
     "1M appends of the same 16 bytes to a growing array kept across frames, then two loops over it",
     run_messages_send_read, 0, 0, 0, 0, ""},
#endif
#ifndef BENCH_WITHOUT_HIERARCHY_ROWS
    {"iter_hierarchy", "ms/frame", GOAL_RATIO, 1.2,
     "the same entities without the hierarchy, the same query and kernel, interleaved",
     run_iter_hierarchy, 0, 0, 0, 0, ""},
    {"propagate_transforms", "us/frame", GOAL_RATIO, 1.5,
     "a hand-written loop over arrays in parent-before-child order with parent indices",
     run_propagate_transforms, 0, 0, 0, 0, ""},
    {"children_iter", "ns/parent", GOAL_RATIO, 2.0,
     "the same sums over a plain array of children per parent, interleaved",
     run_children_iter, 0, 0, 0, 0, ""},
    {"despawn_recursive", "ns/entity", GOAL_RATIO, 1.5,
     "ecs_sched_despawn of each of 100k flat entities, interleaved",
     run_despawn_recursive, 0, 0, 0, 0, ""},
#ifndef BENCH_WITHOUT_QUERY_ROWS
    {"query_parse", "us/parse", GOAL_NONE, 0,
     "ecs_sched_query_create (and destroy) of the query it describes, over 1000 entities' "
     "tables, interleaved",
     run_query_parse, 0, 0, 0, 0, ""},
#endif
#ifndef BENCH_WITHOUT_OBSERVER_ROWS
    {"monitor", "ns/change", GOAL_NONE, 0,
     "ON_ADD and ON_REMOVE observers of Velocity that ask for Position by hand, interleaved",
     run_monitor, 0, 0, 0, 0, ""},
    {"observer_query", "ns/op", GOAL_NONE, 0,
     "an ON_ADD observer of Velocity alone (1 term), interleaved",
     run_observer_query, 0, 0, 0, 0, ""},
    {"event_propagate", "ns/event", GOAL_NONE, 0,
     "the event sent to each of the 9 entities in turn, without travelling, interleaved",
     run_event_propagate, 0, 0, 0, 0, ""},
#endif
    {"lookup_path", "ns/lookup", GOAL_VALUE, 150.0,
     "one FNV-1a pass over each path string (the floor of a hashed lookup)",
     run_lookup_path, 0, 0, 0, 0, ""},
    {"sorted_query_unchanged", "us/iter", GOAL_RATIO, 1.1,
     "the same query unsorted, read the same way, interleaved",
     run_sorted_query_unchanged, 0, 0, 0, 0, ""},
#endif
#ifndef BENCH_WITHOUT_PREFAB_ROWS
    {"instantiate_prefab", "ns/entity", GOAL_RATIO, 1.2,
     "the same 100k entities by hand (spawn_with with the 3 values, set_parent), interleaved",
     run_instantiate_prefab, 0, 0, 0, 0, ""},
    {"iter_inherited", "ms/frame", GOAL_RATIO, 1.2,
     "1M entities owning Mass and Velocity, a query reading Mass, the same loop, interleaved",
     run_iter_inherited, 0, 0, 0, 0, ""},
#endif
#ifndef BENCH_WITHOUT_SNAPSHOT_ROWS
    {"snapshot_restore_1m", "ms/1M", GOAL_RATIO, 3.0,
     "memcpy of the same bytes to a block and back (allocated before), interleaved",
     run_snapshot_restore_1m, 0, 0, 0, 0, ""},
#endif
#ifdef ECS_SCHED_JSON
#ifndef BENCH_WITHOUT_JSON_ROWS
    {"json_load_10k", "ns/entity", GOAL_RATIO, 2.5,
     "cJSON_Parse of the same text alone (then cJSON_Delete), interleaved",
     run_json_load_10k, 0, 0, 0, 0, ""},
#endif
#endif
    {"spawn_despawn", "ns/entity", GOAL_VALUE, 60.0,
     "malloc of a 16-byte block per entity (values copied in), then free of each",
     run_spawn_despawn, 0, 0, 0, 0, ""},
    {"spawn_batch", "ns/entity", GOAL_VALUE, 5.0,
     "malloc of two fresh arrays and memcpy of the same 100k x 16 bytes into them",
     run_spawn_batch, 0, 0, 0, 0, ""},
#ifndef BENCH_WITHOUT_SPAWN_ROWS
    {"spawn_known_archetype", "ns/entity", GOAL_VALUE, 16.0,
     "ecs_sched_spawn_with of the same entities into the same warm world, interleaved",
     run_spawn_known_archetype, 0, 0, 0, 0, ""},
    {"spawn_batch_recycled", "ns/entity", GOAL_VALUE, 1.5,
     "the same batch into fresh indices (the table's room made alike), interleaved",
     run_spawn_batch_recycled, 0, 0, 0, 0, ""},
    {"spawn_cold", "ns/entity", GOAL_RATIO, 4.0,
     "the same spawns into a warm world (indices recycled, the table's room there), interleaved",
     run_spawn_cold, 0, 0, 0, 0, ""},
#endif
#ifndef BENCH_WITHOUT_UNPACK_ROWS
    {"get_by_handle", "ns/component", GOAL_VALUE, 2.8,
     "the same values in arrays reached through a handle table by hand (index, generation "
     "check, row), interleaved",
     run_get_by_handle, 0, 0, 0, 0, ""},
    {"get_by_handle_3", "ns/entity", GOAL_VALUE, 8.0,
     "the same three values in arrays reached through a handle table by hand, interleaved",
     run_get_by_handle_3, 0, 0, 0, 0, ""},
    {"has_missing", "ns/entity", GOAL_VALUE, 2.0,
     "the same question by hand: index, generation check, the entity's table, the table's "
     "flag for the component, interleaved",
     run_has_missing, 0, 0, 0, 0, ""},
#endif
#ifndef BENCH_WITHOUT_BULK_ROWS
    {"remove_all_1m", "ms/1M", GOAL_RATIO, 0.1,
     "ecs_sched_remove of the component from each of the same 1M entities, interleaved",
     run_remove_all_1m, 0, 0, 0, 0, ""},
#endif
#if defined(ECS_SCHED_REMOTE) && !defined(BENCH_WITHOUT_REMOTE_ROWS)
    {"remote_idle", "ns/update", GOAL_VALUE, 1000,
     "the same app without a remote (RemoteLast there, empty), interleaved; the row is the "
     "difference",
     run_remote_idle, 0, 0, 0, 0, ""},
    {"remote_query_1k", "ms/request", GOAL_VALUE, 2.0,
     "the request parsed by cJSON, the same query iterated in C and the same JSON built and "
     "printed with cJSON, interleaved",
     run_remote_query_1k, 0, 0, 0, 0, ""},
#endif
#if defined(ECS_SCHED_NATIVE_SCRIPTS) && !defined(BENCH_WITHOUT_SCRIPT_ROWS)
    {"native_reload", "ms", GOAL_NONE, 0,
     "dlopen and dlclose of the same library, interleaved (the floor of any reload)",
     run_native_reload, 0, 0, 0, 0, ""},
#endif
#if defined(ECS_SCHED_LUA) && !defined(BENCH_WITHOUT_LUA_ROWS) && \
    !defined(BENCH_WITHOUT_SCHEDULE_ROWS)
#if LUA_VERSION_NUM < 502
    {LUA_ROW("iter_1m"), "ms/frame", GOAL_RATIO, 2.0,
#else
    {LUA_ROW("iter_1m"), "ms/frame", GOAL_RATIO, 30.0,
#endif
     "the same system written in C, in the same world, interleaved",
     run_lua_iter_1m, 0, 0, 0, 0, ""},
    {LUA_ROW("dispatch"), "ns/system", GOAL_VALUE, 200.0,
     "the same number of empty C systems in the same world, interleaved",
     run_lua_dispatch, 0, 0, 0, 0, ""},
    {LUA_ROW("script_reload"), "ms", GOAL_VALUE, 5.0,
     "compiling the same text in a fresh Lua state, interleaved",
     run_lua_script_reload, 0, 0, 0, 0, ""},
#endif
    {"add_remove", "ns/op", GOAL_RATIO, 1.5,
     "the same moves in two archetypes written by hand for these types (records by entity "
     "index, the last row into the hole), interleaved",
     run_add_remove, 0, 0, 0, 0, ""},
#ifdef BENCH_FLECS_ROWS
    {"flecs_get_by_handle", "ns/entity", GOAL_RATIO, 1.0,
     "flecs: the same gets through ecs_get_mut_id, interleaved",
     run_flecs_get_by_handle, 0, 0, 0, 0, ""},
    {"flecs_get_by_handle_3", "ns/entity", GOAL_RATIO, 1.0,
     "flecs: the same gets through ecs_get_mut_id, interleaved",
     run_flecs_get_by_handle_3, 0, 0, 0, 0, ""},
    {"flecs_has_missing", "ns/entity", GOAL_RATIO, 1.0,
     "flecs: the same question through ecs_has_id, interleaved",
     run_flecs_has_missing, 0, 0, 0, 0, ""},
    {"flecs_add_remove", "ns/op", GOAL_RATIO, 1.0,
     "flecs: the same through ecs_set_id and ecs_remove_id, interleaved",
     run_flecs_add_remove, 0, 0, 0, 0, ""},
    {"flecs_compile_impl", "s", GOAL_RATIO, 0.2,
     "flecs: compiling flecs.c, interleaved", run_flecs_compile_impl, 0, 0, 0, 0, ""},
    {"flecs_spawn_with", "ns/entity", GOAL_NONE, 0,
     "flecs: ecs_new, then ecs_set_id of each value, into a fresh world, interleaved",
     run_flecs_spawn_with, 0, 0, 0, 0, ""},
#endif
#ifndef BENCH_WITHOUT_SPARSE_ROWS
    {"add_remove_sparse", "ns/op", GOAL_VALUE, 7.0,
     "the same tag kept in tables (the add_remove path), same entities, interleaved",
     run_add_remove_sparse, 0, 0, 0, 0, ""},
    {"iter_sparse_filter", "ns/entity", GOAL_RATIO, 2.0,
     "the same query with the tag kept in tables, read with ecs_sched_iter_next, interleaved",
     run_iter_sparse_filter, 0, 0, 0, 0, ""},
#endif
    {"commands", "ns/entity", GOAL_RATIO, 1.5,
     "the direct calls of spawn_despawn (spawn_with, despawn), interleaved",
     run_commands, 0, 0, 0, 0, ""},
    {"memory_per_entity", "bytes", GOAL_VALUE, 24.0,
     "the 16 bytes of component data per entity",
     run_memory, 0, 0, 0, 0, ""},
    {"compile_impl", "s", GOAL_VALUE, 5.0,
     "compiling the same file without ECS_SCHED_IMPLEMENTATION",
     run_compile, 0, 0, 0, 0, ""},
    {"compile_impl_minimal", "s", GOAL_VALUE, 3.4,
     "compiling the same file without ECS_SCHED_IMPLEMENTATION",
     run_compile_minimal, 0, 0, 0, 0, ""},
#ifndef BENCH_WITHOUT_SCHEDULE_ROWS
    {"empty_systems_10", "ns/system", GOAL_NONE, 0,
     "a plain loop calling the same function pointers, interleaved",
     run_empty_systems_10, 0, 0, 0, 0, ""},
    {"empty_systems_100", "ns/system", GOAL_NONE, 0,
     "a plain loop calling the same function pointers, interleaved",
     run_empty_systems_100, 0, 0, 0, 0, ""},
    {"empty_systems_1000", "ns/system", GOAL_RATIO, 4.0,
     "a plain loop calling the same function pointers, interleaved",
     run_empty_systems_1000, 0, 0, 0, 0, ""},
#endif
#ifndef BENCH_WITHOUT_TRACE_ROWS
    {"trace_off", "ns/system", GOAL_RATIO, 1.02,
     "the same 1000 empty systems on a copy of the library built without ECS_SCHED_TRACE "
     "(the measured side is a copy built with it, alike), interleaved",
     run_trace_off, 0, 0, 0, 0, ""},
    {"trace_on", "ns/system", GOAL_VALUE, 40.0,
     "the same world with the trace off, interleaved; the value is the whole cost of a "
     "recorded system run",
     run_trace_on, 0, 0, 0, 0, ""},
#endif
#ifndef BENCH_WITHOUT_SCHEDULE_ROWS
#ifndef BENCH_WITHOUT_FAILURE_ROWS
    {"failing_system", "ns/system", GOAL_RATIO, 1.05,
     "the same schedule with none failing, interleaved",
     run_failing_system, 0, 0, 0, 0, ""},
#endif
    {"query_systems_1000", "ns/system", GOAL_VALUE, 10.0,
     "see the note", run_query_systems_1000, 0, 0, 0, 0, ""},
    {"run_condition_no_1000", "ns/system", GOAL_VALUE, 5.0,
     "see the note", run_condition_no_1000, 0, 0, 0, 0, ""},
    {"run_condition_yes_1000", "ns/system", GOAL_VALUE, 10.0,
     "see the note", run_condition_yes_1000, 0, 0, 0, 0, ""},
#endif
#ifndef BENCH_WITHOUT_STATE_ROWS
    {"state_transition", "ns/transition", GOAL_RATIO, 1.5,
     "two runs of schedules of one empty system, interleaved",
     run_state_transition, 0, 0, 0, 0, ""},
#endif
#ifndef BENCH_WITHOUT_APP_ROWS
    {"app_update_empty", "ns/update", GOAL_VALUE, 1000,
     "the same number of runs of empty schedules by label (14)",
     run_app_update_empty, 0, 0, 0, 0, ""},
#endif
#ifndef BENCH_WITHOUT_TIMER_ROWS
    {"timer_tick", "ms/frame", GOAL_RATIO, 1.3,
     "a raw loop doing the same arithmetic on an array of the same 1M timers, interleaved",
     run_timer_tick, 0, 0, 0, 0, ""},
#endif
#ifndef BENCH_WITHOUT_APP_ROWS
    {"fixed_step", "ns/step", GOAL_VALUE, 300,
     "one run of an empty schedule by label",
     run_fixed_step, 0, 0, 0, 0, ""},
    {"game_loop_frame", "us/frame", GOAL_RATIO, 1.5,
     "the example's kernels over the same queries on the same world, by hand",
     run_game_loop_frame, 0, 0, 0, 0, ""},
#endif
#ifndef BENCH_WITHOUT_STATE_ROWS
    {"state_transition_scheduled", "ns/transition", GOAL_NONE, 0,
     "two runs of schedules of one empty system, interleaved",
     run_state_transition_scheduled, 0, 0, 0, 0, ""},
    {"in_state_condition", "ns/system", GOAL_RATIO, 1.2,
     "the run_condition_yes_1000 schedule, interleaved",
     run_in_state_condition, 0, 0, 0, 0, ""},
#endif
#ifndef BENCH_WITHOUT_SCHEDULE_ROWS
    {"build_schedule_100", "ms", GOAL_NONE, 0,
     "see the note", run_build_schedule_100, 0, 0, 0, 0, ""},
    {"build_schedule_500", "ms", GOAL_NONE, 0,
     "see the note", run_build_schedule_500, 0, 0, 0, 0, ""},
    {"build_schedule_1000", "ms", GOAL_VALUE, 10.0,
     "see the note", run_build_schedule_1000, 0, 0, 0, 0, ""},
    {"build_schedule_1000_no_constraints", "ms", GOAL_VALUE, 5.0,
     "see the note", run_build_no_constraints, 0, 0, 0, 0, ""},
#endif
#ifdef ECS_SCHED_THREADS
#ifndef BENCH_WITHOUT_PARALLEL_ROWS
    {"empty_systems_mt_10", "ns/system", GOAL_VALUE, 50.0,
     "the same schedule on the single-threaded executor, interleaved",
     run_empty_systems_mt_10, 0, 0, 0, 0, ""},
    {"empty_systems_mt_100", "ns/system", GOAL_NONE, 0,
     "the same schedule on the single-threaded executor, interleaved",
     run_empty_systems_mt_100, 0, 0, 0, 0, ""},
    {"empty_systems_mt_1000", "ns/system", GOAL_VALUE, 5.0,
     "the same schedule on the single-threaded executor, interleaved",
     run_empty_systems_mt_1000, 0, 0, 0, 0, ""},
    {"busy_systems", "us/frame", GOAL_RATIO, 1.05,
     "the same 16 kernels over plain arrays, 8 on each of two raw threads, interleaved",
     run_busy_systems, 0, 0, 0, 0, ""},
    {"busy_systems_speedup", "us/frame", GOAL_NONE, 0,
     "the same schedule on the single-threaded executor, interleaved",
     run_busy_systems_speedup, 0, 0, 0, 0, ""},
    {"busy_systems_oversubscribed", "us/frame", GOAL_RATIO, 1.10,
     "the same world with 2 threads, interleaved",
     run_busy_systems_oversubscribed, 0, 0, 0, 0, ""},
    {"contended", "us/frame", GOAL_RATIO, 1.15,
     "the same schedule on the single-threaded executor, interleaved",
     run_contended, 0, 0, 0, 0, ""},
    {"par_iter_1m", "ms/frame", GOAL_RATIO, 1.10,
     "the same kernel over two plain arrays, one half on each of two raw threads, interleaved",
     run_par_iter_1m, 0, 0, 0, 0, ""},
    {"query_systems_mt_1000", "ns/system", GOAL_RATIO, 1.00,
     "the same schedule in a world on the single-threaded executor, interleaved",
     run_query_systems_mt_1000, 0, 0, 0, 0, ""},
    {"mixed_frame", "us/frame", GOAL_RATIO, 0.60,
     "the same schedule in a world on the single-threaded executor, interleaved",
     run_mixed_frame, 0, 0, 0, 0, ""},
    {"app_update_empty_mt", "ns/update", GOAL_RATIO, 1.20,
     "the same app with its world on the single-threaded executor, interleaved",
     run_app_update_empty_mt, 0, 0, 0, 0, ""},
    {"pool_overhead", "ns/task", GOAL_VALUE, 30.0,
     "1M calls of the same empty task through a function pointer on one thread",
     run_pool_overhead, 0, 0, 0, 0, ""},
    {"pool_overhead_queued", "ns/task", GOAL_VALUE, 30.0,
     "1M calls of the same empty task through a function pointer on one thread",
     run_pool_overhead_queued, 0, 0, 0, 0, ""},
#endif
#endif
};

#define ROW_COUNT ((int)(sizeof rows / sizeof rows[0]))

static int is_finite(double x) { return x == x && x < 1e300 && x > -1e300; }

static double ratio_of(const bench_row *row) {
    return row->baseline != 0.0 ? row->value / row->baseline : 0.0;
}

static int goal_met(const bench_row *row) {
    double x = row->goal == GOAL_RATIO ? ratio_of(row) : row->value;
    if (row->goal == GOAL_NONE) return 1;
    return x <= row->limit;
}

static void print_table(void) {
    int i;
    printf("\n%-34s %12s %-10s %12s %9s  %-18s %s\n", "name", "value", "unit", "baseline",
           "ratio", "goal", "met");
    for (i = 0; i < ROW_COUNT; i++) {
        const bench_row *row = &rows[i];
        char goal[32];
        if (!row->selected) continue;
        if (row->goal == GOAL_RATIO) snprintf(goal, sizeof goal, "ratio <= %g", row->limit);
        else if (row->goal == GOAL_VALUE) snprintf(goal, sizeof goal, "value <= %g", row->limit);
        else snprintf(goal, sizeof goal, "-");
        if (row->measured)
            printf("%-34s %12.3f %-10s %12.3f %9.3f  %-18s %s\n", row->name, row->value, row->unit,
                   row->baseline, ratio_of(row), goal, goal_met(row) ? "yes" : "NO");
        else
            printf("%-34s %12s %-10s %12s %9s  %-18s %s\n", row->name, "-", row->unit, "-", "-",
                   goal, "not measured");
    }
    printf("\nnotes:\n");
    for (i = 0; i < ROW_COUNT; i++) {
        const bench_row *row = &rows[i];
        if (!row->selected) continue;
        printf("  %s: baseline: %s.\n    %s\n", row->name, row->baseline_text, row->note);
    }
}

static int write_json(const char *path) {
    FILE *f = fopen(path, "w");
    int i, first = 1;
    if (!f) return 0;
    fputs("[\n", f);
    for (i = 0; i < ROW_COUNT; i++) {
        const bench_row *row = &rows[i];
        if (!row->selected || !row->measured || !is_finite(row->value) ||
            !is_finite(row->baseline) || !is_finite(ratio_of(row)))
            continue;
        fprintf(f, "%s  {\"name\": \"%s\", \"value\": %.6g, \"unit\": \"%s\", \"baseline\": %.6g, "
                   "\"ratio\": %.6g}",
                first ? "" : ",\n", row->name, row->value, row->unit, row->baseline,
                ratio_of(row));
        first = 0;
    }
    fputs("\n]\n", f);
    return fclose(f) == 0;
}

int main(int argc, char **argv) {
    int i, j, failed = 0, any = 0, filters = 0;
    const char *json_path = "build/bench.json";
    for (j = 1; j < argc; j++) {
        if (strncmp(argv[j], "--json=", 7) == 0) json_path = argv[j] + 7;
        else filters++;
    }
    for (i = 0; i < ROW_COUNT; i++) {
        rows[i].selected = filters == 0;
        for (j = 1; j < argc; j++)
            if (strncmp(argv[j], "--json=", 7) != 0 && strstr(rows[i].name, argv[j]))
                rows[i].selected = 1;
        any |= rows[i].selected;
    }
    if (!any) {
        fprintf(stderr, "bench: no row matches; rows are:");
        for (i = 0; i < ROW_COUNT; i++) fprintf(stderr, " %s", rows[i].name);
        fprintf(stderr, "\n");
        return 1;
    }
    mkdir("build", 0777);
#if defined(__GLIBC__)
    /* Memory freed stays in the process, and blocks up to 32 MB come from the heap: otherwise
       glibc returns a fresh world's arrays to the kernel when it is destroyed, and the next
       sample's first writes to them are page faults, whose cost (a third of a spawn row's
       time on a virtual machine) depends on the machine and on which rows ran before, not on
       the library. */
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
    for (i = 0; i < ROW_COUNT; i++) {
        if (!rows[i].selected) continue;
        fprintf(stderr, "bench: %s...\n", rows[i].name);
        rows[i].run(&rows[i]);
        if (!rows[i].measured) failed = 1;
    }
    print_table();
    printf("  checksum sink: %g\n", (double)bench_sink);
    if (!write_json(json_path)) {
        fprintf(stderr, "bench: cannot write %s\n", json_path);
        return 1;
    }
    printf("wrote %s\n", json_path);
    return failed;
}
