/* A libFuzzer target for the executors: the bytes describe a schedule in the terms of
   tests/random_schedule_fixture.h (systems with random component and resource access, read or
   written, queries limited to one of two disjoint lanes, sets with conditions, chained sets,
   edges with and without the implicit sync, run conditions on systems and sets, command buffers
   that spawn, despawn, insert, remove and set resources, exclusive systems, explicit sync
   points, main-thread systems and a main-thread-only resource, a shuffle seed for the plan),
   how many frames to run (1 to 8), how many threads the parallel world's pool has (2 to 4)
   and whether its systems take a little while (so that those allowed to overlap do).

   Two worlds are built from it the same way, one on the single-threaded executor and one on
   the parallel executor. After every frame: each world's recorded events keep every ordering,
   access, condition and main-thread rule (the fixture's check_frame); each system ran as many
   times in both worlds and each condition answered the same; and the two worlds are identical,
   every entity and every value, resources included. The library promises the last one for any
   schedule, ambiguous ones too: systems with conflicting access run in the plan's order on both
   executors, and the plan does not depend on the executor. On a disagreement it prints the
   frame and what differed, and aborts.

   make fuzz-executor-smoke (a short run over tests/fuzz/corpus/executor, part of make test);
   make fuzz-executor (a minute). */
/* Built by make against the fuzz targets' shared implementation object, which has every
   optional module (the Makefile's fuzzing section). */
#define _POSIX_C_SOURCE 200809L
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fixtures are written for cmocka; here a failed check prints where and aborts, so that
   libFuzzer keeps the input. */
static int g_frame = -1;

static void check_failed(const char *file, int line, const char *what) {
    fprintf(stderr, "fuzz_executor: frame %d: %s:%d: %s\n", g_frame, file, line, what);
    abort();
}

#define assert_true(c) ((c) ? (void)0 : check_failed(__FILE__, __LINE__, #c))
#define assert_int_equal(a, b) assert_true((a) == (b))
#define assert_int_not_equal(a, b) assert_true((a) != (b))
#define assert_non_null(p) assert_true((p) != NULL)
#define print_error(...) fprintf(stderr, __VA_ARGS__)
#define _fail(file, line) check_failed(file, line, "a check of the fixture")
#define fail_msg(...) (fprintf(stderr, "fuzz_executor: " __VA_ARGS__), fputc('\n', stderr), abort())

#include "tests/fixture.h"
#include "tests/random_schedule_fixture.h"

#define MAX_FUZZ_SYSTEMS 24
#define MAX_FRAMES 8

typedef struct reader {
    const uint8_t *data;
    size_t size, at;
} reader;

static uint8_t take(reader *r) {
    return r->at < r->size ? r->data[r->at++] : 0;
}

static int take_cond(schedule_spec *spec, reader *r) {
    cond_spec *c = &spec->conds[spec->cond_count];
    uint8_t b = take(r);
    int roll = b % 10;
    c->kind = roll < 6 ? COND_RESOURCE_BIT : roll < 9 ? COND_QUERY_COUNT : COND_RUN_ONCE;
    c->resource = (b / 10) % RESOURCES;
    c->component = (b / 10) % COMPONENTS;
    c->bit = (b / 40) % 3;
    return spec->cond_count++;
}

/* Like draw_schedule, with the input's bytes for the random numbers: edges go from a lower to
   a higher index and sets cover ranges of indices in their order, so the schedule has no
   cycle. */
static void read_schedule(schedule_spec *spec, reader *r, int system_count) {
    int i, k;
    uint8_t flags = take(r);
    memset(spec, 0, sizeof *spec);
    spec->seed = take(r);
    spec->system_count = system_count;
    for (k = 0; k < SETS; k++) spec->set_cond[k] = (flags >> k & 1u) ? take_cond(spec, r) : -1;
    spec->chained_sets = (flags >> 4 & 1u) != 0;
    spec->shuffle_seed = (flags >> 5 & 1u) ? (uint64_t)take(r) * 0x9E3779B97F4A7C15ull + 1 : 0;
    for (i = 0; i < system_count; i++) {
        system_spec *s = &spec->systems[i];
        uint8_t kind = take(r), shape = take(r);
        snprintf(s->name, sizeof s->name, "s%02d", i);
        s->kind = kind % 100 < 6 ? KIND_EXCLUSIVE : kind % 100 < 10 ? KIND_SYNC : KIND_QUERY;
        s->set = (shape & 3u) ? i * SETS / system_count : -1;
        s->cond = -1;
        s->lane = -1;
        if (s->kind == KIND_QUERY) {
            /* two bits per component: 2 reads it, 3 writes it, else neither; per resource:
               3 reads it, 2 writes it if a bit of `more` agrees (writes to resources serialize
               much of a schedule, so they are rarer) */
            unsigned access = take(r), resources = take(r), more = take(r);
            int c, lane = (shape >> 2) % 4;
            access |= (unsigned)take(r) << 8;
            for (c = 0; c < COMPONENTS; c++) {
                unsigned roll = access >> (2 * c) & 3u;
                if (roll == 3) s->writes |= 1u << c;
                else if (roll == 2) s->reads |= 1u << c;
            }
            if (!s->reads && !s->writes) s->writes = 1u << (kind % COMPONENTS);
            for (c = 0; c < RESOURCES; c++) {
                unsigned roll = resources >> (2 * c) & 3u;
                if (roll == 2 && (more >> c & 1u)) s->res_writes |= 1u << c;
                else if (roll == 3) s->res_reads |= 1u << c;
            }
            s->commands = (more >> 4 & 3u) == 3u;
            if ((more >> 6 & 3u) == 3u) s->cond = take_cond(spec, r);
            s->lane = lane == 0 ? 1 : lane == 1 ? 0 : -1;
            s->main_thread = (shape >> 6 & 1u) && (kind & 3u) == 3u;
        }
        /* edges: a byte says how many (0 to 3), one byte each says which earlier system */
        if (i > 0 && (shape >> 7 & 1u)) {
            int edges = 1 + take(r) % 3;
            for (k = 0; k < edges && s->after_count < ECS_SCHED_MAX_REFS; k++) {
                uint8_t b = take(r);
                int other = b % i, j;
                bool duplicate = false;
                for (j = 0; j < s->after_count; j++) duplicate = duplicate || s->after[j] == other;
                if (duplicate) continue;
                s->after_ignore_deferred[s->after_count] = (b & 0x80u) != 0;
                s->after[s->after_count++] = other;
            }
        }
    }
}

static fixture worlds[2];
static snapshot shots[2];
static int total_runs[2][MAX_SYSTEMS];

static void compare_frame(const schedule_spec *spec, int threads) {
    int i;
    for (i = 0; i < spec->system_count; i++) {
        const event *a = &worlds[0].system_events[i], *b = &worlds[1].system_events[i];
        total_runs[0][i] += a->runs;
        total_runs[1][i] += b->runs;
        if (total_runs[0][i] != total_runs[1][i]) {
            fail_msg("frame %d: system %s ran %d times on the single-threaded executor, %d on "
                     "the parallel one (%d threads)", g_frame, spec->systems[i].name,
                     total_runs[0][i], total_runs[1][i], threads);
        }
    }
    for (i = 0; i < spec->cond_count; i++) {
        const event *a = &worlds[0].cond_events[i], *b = &worlds[1].cond_events[i];
        if (a->runs != b->runs || (a->runs && a->result != b->result)) {
            fail_msg("frame %d: condition %d was evaluated %d times (last %d) on the "
                     "single-threaded executor, %d times (last %d) on the parallel one",
                     g_frame, i, a->runs, a->result, b->runs, b->result);
        }
    }
    take_snapshot(&worlds[0], &shots[0]);
    take_snapshot(&worlds[1], &shots[1]);
    if (!same_snapshot(&shots[0], &shots[1])) {
        fail_msg("frame %d: the world on the parallel executor (%d threads) differs from the "
                 "one on the single-threaded executor", g_frame, threads);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static schedule_spec spec;
    reader r;
    int frames, threads, w, overlaps = 0;
    uint8_t head;
    r.data = data;
    r.size = size;
    r.at = 0;
    if (size < 4) return 0;
    head = take(&r);
    frames = 1 + head % MAX_FRAMES;
    threads = 2 + (head / MAX_FRAMES) % 3;
    read_schedule(&spec, &r, 1 + take(&r) % MAX_FUZZ_SYSTEMS);
    g_frame = -1;
    memset(total_runs, 0, sizeof total_runs);
    fixture_init(&worlds[0], &spec, ECS_SCHED_EXECUTOR_SINGLE_THREADED, 1);
    fixture_init(&worlds[1], &spec, ECS_SCHED_EXECUTOR_PARALLEL, threads);
    /* now and then each system takes a little while, so that the ones allowed to overlap do */
    if (head >= 128) worlds[1].busy_seconds = 200e-6;
    for (g_frame = 0; g_frame < frames; g_frame++) {
        for (w = 0; w < 2; w++) {
            run_frame(&worlds[w]);
            check_frame(&worlds[w], g_frame);
        }
        overlaps += overlaps_in_frame(&worlds[1]);
        compare_frame(&spec, threads);
    }
    for (w = 0; w < 2; w++) fixture_destroy(&worlds[w]);
    if (getenv("FUZZ_VERBOSE")) {   /* how much really ran at once */
        fprintf(stderr, "fuzz_executor: %d systems, %d frames, %d threads: %d overlaps\n",
                spec.system_count, frames, threads, overlaps);
    }
    return 0;
}
