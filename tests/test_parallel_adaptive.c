/* The parallel executor's default tuning: a schedule too cheap to gain from threads runs on the
   calling thread, one whose systems are worth spreading is spread, and the choice follows the
   measured cost as it changes.

   Compiles the implementation itself, with the default tuning (the other tests link one tuned
   to spread everything). Built without ECS_SCHED_THREADS too, where everything runs on the
   calling thread; with it, also under ThreadSanitizer. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <time.h>
#include <cmocka.h>

#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include "fixture.h"

/* What these tests assert about time (how soon the executor spreads a run, that a cheap one
   stays put) holds on a machine running at its speed. ThreadSanitizer slows every memory
   access several times over, unevenly, and a run now and then crosses the thresholds it
   should not: under it, this file looks for data races only, and the timing is checked by
   the same tests in the other builds (gcc and clang with threads, under ASan+UBSan). */
#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif
#ifdef UNDER_TSAN
#define assert_timing(cond) ((void)(cond))
#else
#define assert_timing(cond) assert_true(cond)
#endif

static double seconds_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void spin_for(double seconds) {
    double until = seconds_now() + seconds;
    while (seconds_now() < until) {
    }
}

/* What the systems of a test do on a run. */
typedef enum behaviour { CHEAP, HEAVY, MEET } behaviour;

typedef struct shared {
    ecs_sched_pool *pool;
    behaviour now;
    int64_t off_caller;   /* runs of a system on a thread other than the caller's */
    int64_t arrived;      /* MEET: systems that arrived */
    int64_t timeouts;     /* MEET: systems that gave up waiting for the other */
} shared;

/* Heavy: 2 ms of work. Meet: wait (up to 50 ms) until both systems of the run have
   started, which happens in time only when they run at the same time (a system that stops
   waiting counts a timeout), then work like a heavy one, so that each looks worth offering
   whichever arrives first. */
static void behave(ecs_sched_system_ctx *ctx) {
    shared *sh = (shared *)ecs_sched_ctx_user_data(ctx);
    if (ecs_sched_pool_worker_index(sh->pool) != 0) {
        __atomic_add_fetch(&sh->off_caller, 1, __ATOMIC_ACQ_REL);
    }
    if (sh->now == HEAVY) spin_for(2e-3);
    if (sh->now == MEET) {
        double deadline = seconds_now() + 0.05;
        __atomic_add_fetch(&sh->arrived, 1, __ATOMIC_ACQ_REL);
        while (__atomic_load_n(&sh->arrived, __ATOMIC_ACQUIRE) < 2) {
            if (seconds_now() > deadline) {
                __atomic_add_fetch(&sh->timeouts, 1, __ATOMIC_ACQ_REL);
                break;
            }
            sched_yield();
        }
        spin_for(2e-3);
    }
}

/* A parallel world of 2 threads with `count` independent systems that behave as sh says. */
static ecs_sched_world *world_of_independent_systems(shared *sh, int count) {
    static const char *const names[] = {"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"};
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_PARALLEL, 2);
    ecs_sched_system_desc desc;
    int i;
    memset(sh, 0, sizeof *sh);
    sh->pool = ecs_sched_world_pool(w);
    assert_non_null(sh->pool);
    memset(&desc, 0, sizeof desc);
    desc.fn = behave;
    desc.user_data = sh;
    for (i = 0; i < count; i++) {
        desc.name = names[i];
        assert_int_equal(ecs_sched_add_system(w, UPDATE, &desc), ECS_SCHED_OK);
    }
    return w;
}

static void spin_range(int64_t begin, int64_t end, void *arg) {
    (void)arg;
    spin_for(1e-4 * (double)(end - begin));
}

/* Runs the schedule right after the pool's workers had work, so that they are awake and
   looking for more while it runs: any work offered would be taken. */
static void run_times_with_workers_awake(ecs_sched_world *w, ecs_sched_pool *pool, int times) {
    int i;
    for (i = 0; i < times; i++) {
        ecs_sched_pool_parallel_for(pool, 0, ecs_sched_pool_thread_count(pool), 1, spin_range, NULL);
        assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    }
}

static void cheap_schedules_stay_on_the_calling_thread(void **state) {
    shared sh;
    ecs_sched_world *w = world_of_independent_systems(&sh, 8);
    (void)state;
    sh.now = CHEAP;
    run_times_with_workers_awake(w, sh.pool, 200);
    assert_timing(sh.off_caller == 0);
    ecs_sched_world_destroy(w);
}

#ifdef ECS_SCHED_THREADS
static void run_times(ecs_sched_world *w, int times) {
    int i;
    for (i = 0; i < times; i++) assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
}

/* Runs the two systems of w as meeting ones, up to `runs` times, until a run where they
   met; returns how many runs that took, or 0 when they never did. */
static int runs_until_they_meet(ecs_sched_world *w, shared *sh, int runs) {
    int i;
    sh->now = MEET;
    for (i = 1; i <= runs; i++) {
        sh->arrived = 0;
        sh->timeouts = 0;
        assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
        if (sh->timeouts == 0 && sh->arrived == 2) return i;
    }
    return 0;
}

/* The first run is measured on the calling thread, the second spread without estimates
   (nothing is offered), the third offers work: by then they run at the same time. */
static void independent_systems_worth_spreading_run_at_the_same_time(void **state) {
    shared sh;
    ecs_sched_world *w = world_of_independent_systems(&sh, 2);
    int met;
    (void)state;
    met = runs_until_they_meet(w, &sh, 10);
    assert_timing(met >= 1 && met <= 3);
    ecs_sched_world_destroy(w);
}

/* A cheap schedule is measured again once every 32 runs. It then meets by the 17th run of
   the meeting kind, unless the worker could not take the offers in time (a loaded machine):
   when a parallel run then looks no faster than the measured one, parallel runs are tried
   again 16 runs later, then 32, 64... so 400 runs hold some five tries of two runs each.
   A machine busy with other work missed all of them once; the scenario is played on up to
   three fresh worlds, and fails only when none of them meets. Without the measuring again,
   the systems never meet. */
static int heavy_after_cheap_meets_within(int runs) {
    shared sh;
    ecs_sched_world *w = world_of_independent_systems(&sh, 2);
    int met;
    sh.now = CHEAP;
    run_times(w, 50);
    assert_timing(sh.off_caller == 0);
    met = runs_until_they_meet(w, &sh, runs);
    ecs_sched_world_destroy(w);
    return met;
}

static void a_schedule_that_becomes_heavy_is_spread(void **state) {
    int attempt, met = 0;
    (void)state;
    for (attempt = 0; attempt < 3 && met == 0; attempt++) met = heavy_after_cheap_meets_within(400);
    assert_timing(met >= 1 && met <= 400);
}

static void a_schedule_that_becomes_cheap_returns_to_the_calling_thread(void **state) {
    shared sh;
    ecs_sched_world *w = world_of_independent_systems(&sh, 2);
    (void)state;
    assert_timing(runs_until_they_meet(w, &sh, 10) > 0);
    assert_timing(sh.off_caller > 0);
    sh.now = CHEAP;
    run_times(w, 100);
    sh.off_caller = 0;
    run_times_with_workers_awake(w, sh.pool, 100);
    assert_timing(sh.off_caller == 0);
    ecs_sched_world_destroy(w);
}

/* A chain of heavy systems: each waits for the one before, so nothing is offered. */
static void a_heavy_chain_runs_on_the_calling_thread(void **state) {
    shared sh;
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_PARALLEL, 2);
    ecs_sched_systems_desc many;
    ecs_sched_system_desc descs[4];
    static const char *const names[] = {"c0", "c1", "c2", "c3"};
    int i;
    (void)state;
    memset(&sh, 0, sizeof sh);
    sh.pool = ecs_sched_world_pool(w);
    memset(descs, 0, sizeof descs);
    for (i = 0; i < 4; i++) {
        descs[i].name = names[i];
        descs[i].fn = behave;
        descs[i].user_data = &sh;
    }
    memset(&many, 0, sizeof many);
    many.systems = descs;
    many.count = 4;
    many.chain = true;
    assert_int_equal(ecs_sched_add_systems(w, UPDATE, &many), ECS_SCHED_OK);
    sh.now = HEAVY;
    run_times(w, 10);
    assert_timing(sh.off_caller == 0);
    ecs_sched_world_destroy(w);
}

static char trace[512];

static void note_letter(ecs_sched_system_ctx *ctx) {
    size_t n = strlen(trace);
    if (n + 1 < sizeof trace) trace[n] = *(const char *)ecs_sched_ctx_user_data(ctx);
}

/* A cheap schedule runs on the calling thread, timed every 32nd run between its exclusive
   nodes: those runs, like the others, run every node once, in plan order. */
static void cheap_runs_with_exclusive_systems_run_every_node_in_order(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_PARALLEL, 2);
    static const char letters[] = "aXbc";
    ecs_sched_system_desc descs[5];
    ecs_sched_systems_desc many;
    char expected[512] = "";
    int i;
    (void)state;
    memset(descs, 0, sizeof descs);
    descs[0].name = "a";
    descs[1].name = "X";
    descs[1].exclusive = true;
    descs[2].name = "b";
    descs[3].fn = ecs_sched_apply_deferred;
    descs[4].name = "c";
    for (i = 0; i < 5; i++) {
        if (i == 3) continue;
        descs[i].fn = note_letter;
        descs[i].user_data = (void *)&letters[i < 3 ? i : 3];
    }
    memset(&many, 0, sizeof many);
    many.systems = descs;
    many.count = 5;
    many.chain = true;
    assert_int_equal(ecs_sched_add_systems(w, UPDATE, &many), ECS_SCHED_OK);
    trace[0] = '\0';
    for (i = 0; i < 100; i++) {
        assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
        strcat(expected, letters);
    }
    assert_string_equal(trace, expected);
    ecs_sched_world_destroy(w);
}

/* The run state of w's Update schedule, made by a parallel run of heavy systems: each has an
   estimate of about 2 ms. */
static ecs_sched__run *run_state_after_heavy_runs(ecs_sched_world *w, shared *sh) {
    ecs_sched__schedule *s;
    sh->now = HEAVY;
    run_times(w, 3);
    s = ecs_sched__schedule_known(w, UPDATE);
    assert_non_null(s);
    assert_non_null(ecs_sched__run_of(ecs_sched__plan_of(s)));
    return ecs_sched__run_of(ecs_sched__plan_of(s));
}

static int64_t estimates_total(const ecs_sched__run *r) {
    int64_t total = 0;
    int32_t i;
    for (i = 0; i < ecs_sched__plan_of(r->s)->node_count; i++) total += r->slots[i].cost_ns;
    return total;
}

/* Estimates change only in parallel runs. While the calling thread wins they can stay far
   from what the systems take now; before the next parallel run they are scaled to the
   calling thread's timing of the whole work, keeping their proportions. */
static void estimates_far_from_the_measured_work_are_scaled_to_it(void **state) {
    shared sh;
    ecs_sched_world *w = world_of_independent_systems(&sh, 4);
    ecs_sched__run *r = run_state_after_heavy_runs(w, &sh);
    int32_t first, second;
    (void)state;
    r->slots[0].cost_ns = 3000000;
    r->slots[1].cost_ns = 1000000;
    r->slots[2].cost_ns = 1000000;
    r->slots[3].cost_ns = 1000000;
    ecs_sched__rescale_estimates(r, 60000);   /* the systems take 60 us now, not 6 ms */
    first = r->slots[0].cost_ns;
    second = r->slots[1].cost_ns;
    assert_true(estimates_total(r) >= 59990 && estimates_total(r) <= 60010);
    assert_true(first >= 29990 && first <= 30010);
    assert_true(second >= 9990 && second <= 10010);
    ecs_sched__rescale_estimates(r, 600000);  /* and the other way */
    assert_true(estimates_total(r) >= 599900 && estimates_total(r) <= 600100);
    ecs_sched_world_destroy(w);
}

/* While the calling thread wins, trying the parallel way again takes two runs: the first
   wakes the workers (and is not counted: runs back to back would not pay for that again),
   the second is timed against the calling thread's. */
static void trying_parallel_again_counts_only_the_second_of_two_parallel_runs(void **state) {
    shared sh;
    ecs_sched_world *w = world_of_independent_systems(&sh, 4);
    ecs_sched__plan *plan;
    int32_t i;
    (void)state;
    (void)run_state_after_heavy_runs(w, &sh);
    plan = ecs_sched__plan_of(ecs_sched__schedule_known(w, UPDATE));
    for (i = 0; i < ECS_SCHED__RECENT_RUNS; i++) {     /* parallel lost: 1 s against 1 ns */
        plan->parallel.recent[i] = 1000000000;
        plan->single.recent[i] = 1;
    }
    plan->retry_at = plan->runs + 1;                   /* the next run tries again */
    sh.off_caller = 0;
    run_times(w, 1);
    assert_int_equal(plan->warmed_at, plan->runs);
    for (i = 0; i < ECS_SCHED__RECENT_RUNS; i++) assert_true(plan->parallel.recent[i] == 1000000000);
    run_times(w, 1);
    for (i = 0; i < ECS_SCHED__RECENT_RUNS; i++) {
        if (plan->parallel.recent[i] != 1000000000) break;
    }
    assert_true(i < ECS_SCHED__RECENT_RUNS);           /* the second run was timed */
    assert_true(plan->retry_at > plan->runs);          /* and the next try is scheduled */
    ecs_sched_world_destroy(w);
}

/* Within a factor of two they are left as they are: per-system timings are noisier than a
   whole run's, but the split they give is still worth more than an even one. */
static void estimates_near_the_measured_work_are_kept(void **state) {
    shared sh;
    ecs_sched_world *w = world_of_independent_systems(&sh, 4);
    ecs_sched__run *r = run_state_after_heavy_runs(w, &sh);
    int64_t before = estimates_total(r);
    (void)state;
    ecs_sched__rescale_estimates(r, before * 3 / 2);
    assert_true(estimates_total(r) == before);
    ecs_sched__rescale_estimates(r, before * 2 / 3);
    assert_true(estimates_total(r) == before);
    ecs_sched_world_destroy(w);
}
#endif

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cheap_schedules_stay_on_the_calling_thread),
#ifdef ECS_SCHED_THREADS
        cmocka_unit_test(independent_systems_worth_spreading_run_at_the_same_time),
        cmocka_unit_test(a_schedule_that_becomes_heavy_is_spread),
        cmocka_unit_test(a_schedule_that_becomes_cheap_returns_to_the_calling_thread),
        cmocka_unit_test(a_heavy_chain_runs_on_the_calling_thread),
        cmocka_unit_test(cheap_runs_with_exclusive_systems_run_every_node_in_order),
        cmocka_unit_test(estimates_far_from_the_measured_work_are_scaled_to_it),
        cmocka_unit_test(estimates_near_the_measured_work_are_kept),
        cmocka_unit_test(trying_parallel_again_counts_only_the_second_of_two_parallel_runs),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
