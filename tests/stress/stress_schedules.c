/* stress_schedules.c: random schedules on a pool of 8 threads under ThreadSanitizer, new
   seeds until the time is up (make stress).

   Each seed draws a schedule (random_schedule_fixture.h: random access, edges, sets, run
   conditions, command buffers, exclusive systems, sync points) and runs it for FRAMES frames
   in two worlds: one on the parallel executor with the pool's threads, one on the
   single-threaded executor. Every frame of each is checked as the parallel executor's tests
   check them (tests/test_parallel_executor.c): the events of its systems against the order,
   access and condition rules, and the parallel world byte for byte against the
   single-threaded one. On odd seeds the systems keep their thread busy for a while, so that
   those allowed to overlap do. ThreadSanitizer stops the run at its first report
   (TSAN_OPTIONS=halt_on_error=1), a check at its first failure; either way the seed is
   printed.

   Environment: STRESS_SECONDS (default 120), STRESS_THREADS (default 8), STRESS_SEED (the
   first seed; default: drawn from the clock, so that each run tries new ones), STRESS_COUNT
   (stop after that many seeds; 0: when the time is up). A failing seed runs alone again with
   STRESS_SEED=<seed> STRESS_COUNT=1. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE   /* syscall */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "ecs_sched.h"

#include "../fixture.h"
#include "../random_schedule_fixture.h"

#if defined(__SANITIZE_THREAD__)
#define STRESS_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define STRESS_UNDER_TSAN 1
#endif
#endif
#ifdef STRESS_UNDER_TSAN
#include <sanitizer/common_interface_defs.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#define FRAMES 30

static uint64_t g_seed;           /* the seed running now */
static uint64_t g_first_seed, g_seeds_run, g_frames_run;
static double g_seconds = 120.0, g_started;
static long g_count;
static int32_t g_threads = 8;

static long env_number(const char *name, long fallback) {
    const char *text = getenv(name);
    return text && *text ? strtol(text, NULL, 10) : fallback;
}

/* What to say when the run fails on the seed running now; written before each seed. */
static char g_failing[160];

static void note_seed(uint64_t seed) {
    g_seed = seed;
    snprintf(g_failing, sizeof g_failing, "stress: failed on seed %llu; run it alone with: "
             "make stress STRESS_SEED=%llu STRESS_COUNT=1\n", (unsigned long long)seed,
             (unsigned long long)seed);
}

static void say_failing_seed(void) {
    fputs(g_failing, stderr);
}

#ifdef STRESS_UNDER_TSAN
/* Called by ThreadSanitizer as it stops the run after its report, on the thread that raced:
   uninstrumented and through the bare system call, so that reading what the main thread
   wrote is not reported in turn (a report inside a report deadlocks). */
__attribute__((no_sanitize_thread)) static void say_failing_seed_at_death(void) {
    size_t length = 0;
    while (length < sizeof g_failing && g_failing[length]) length++;
    if (syscall(SYS_write, 2, g_failing, length) < 0) return;
}
#endif

/* One drawn schedule, parallel and single-threaded side by side, every frame checked. */
static void run_seed(uint64_t seed) {
    static schedule_spec spec;
    static fixture parallel, single;
    snapshot expected = {NULL, 0, 0}, actual = {NULL, 0, 0};
    int frame;
    draw_schedule(&spec, seed, 16 + (int)(seed % 24));
    fixture_init(&single, &spec, ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    fixture_init(&parallel, &spec, ECS_SCHED_EXECUTOR_PARALLEL, g_threads);
    parallel.busy_seconds = seed % 2 ? 20e-6 : 0.0;
    for (frame = 0; frame < FRAMES; frame++) {
        run_frame(&single);
        check_frame(&single, frame);
        assert_int_equal(overlaps_in_frame(&single), 0);
        take_snapshot(&single, &expected);
        run_frame(&parallel);
        check_frame(&parallel, frame);
        take_snapshot(&parallel, &actual);
        if (!same_snapshot(&expected, &actual)) {
            fail_msg("seed %llu, frame %d: the world with %d threads differs from the "
                     "single-threaded one", (unsigned long long)seed, frame, (int)g_threads);
        }
        g_frames_run++;
    }
    fixture_destroy(&single);
    fixture_destroy(&parallel);
    free(expected.bytes);
    free(actual.bytes);
}

static void random_schedules_keep_every_rule_on_the_pool_until_time_is_up(void **state) {
    double last_report;
    (void)state;
    g_started = last_report = now_seconds();
    for (g_seed = g_first_seed; g_count ? (long)g_seeds_run < g_count
                                        : now_seconds() - g_started < g_seconds;
         g_seed++) {
        note_seed(g_seed);
        run_seed(g_seed);
        g_seeds_run++;
        if (now_seconds() - last_report >= 30.0) {
            last_report = now_seconds();
            printf("stress: %llu seeds in %.0f s\n", (unsigned long long)g_seeds_run,
                   last_report - g_started);
            fflush(stdout);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_schedules_keep_every_rule_on_the_pool_until_time_is_up),
    };
    double seconds;
    int failed;
    g_seconds = (double)env_number("STRESS_SECONDS", 120);
    g_threads = (int32_t)env_number("STRESS_THREADS", 8);
    g_count = env_number("STRESS_COUNT", 0);
    g_first_seed = (uint64_t)env_number("STRESS_SEED", 0);
    if (!g_first_seed) g_first_seed = (uint64_t)time(NULL) % 1000000000u * 1000u + 1u;
    note_seed(g_first_seed);
#ifdef STRESS_UNDER_TSAN
    __sanitizer_set_death_callback(say_failing_seed_at_death);
#endif
    printf("stress: random schedules, %d frames each, on %d threads (ThreadSanitizer: %s), "
           "seeds from %llu, %s\n", FRAMES, (int)g_threads,
#ifdef STRESS_UNDER_TSAN
           "yes",
#else
           "no",
#endif
           (unsigned long long)g_first_seed, g_count ? "a fixed count" : "until time is up");
    fflush(stdout);
    failed = cmocka_run_group_tests(tests, NULL, NULL);
    seconds = now_seconds() - g_started;
    if (failed) say_failing_seed();
    printf("stress: %llu seeds (schedules) and %llu frames in %.1f s: %.2f schedules/s; seeds "
           "%llu to %llu; %s\n", (unsigned long long)g_seeds_run, (unsigned long long)g_frames_run,
           seconds, seconds > 0 ? (double)g_seeds_run / seconds : 0.0,
           (unsigned long long)g_first_seed, (unsigned long long)(g_first_seed + g_seeds_run - 1),
           failed ? "FAILED" : "passed");
    return failed ? 1 : 0;
}
