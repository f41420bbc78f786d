/* The parallel executor: ordering and access rules hold while systems really run at once, and
   the world after every run is byte for byte what the single-threaded executor makes.

   Most of these tests draw random schedules (random_schedule_fixture.h) and check each frame's
   recorded events against the rules, or compare the worlds two executors leave.

   Built without ECS_SCHED_THREADS (the parallel executor then runs inline and the determinism
   tests still apply), with it, and with it under ThreadSanitizer, where any two systems that
   touch the same data without an order between them are also reported as a race. */
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

#include "ecs_sched.h"

#include "fixture.h"
#include "random_schedule_fixture.h"

/* ---- tests: rules ---- */

static void events_never_break_order_access_or_condition_rules(void **state) {
    static const int32_t thread_counts[] = {2, 4};
    int seed, t, frame, overlaps = 0;
    (void)state;
    for (seed = 1; seed <= 20; seed++) {
        schedule_spec spec;
        draw_schedule(&spec, (uint64_t)seed, 24);
        for (t = 0; t < 2; t++) {
            fixture fx;
            fixture_init(&fx, &spec, ECS_SCHED_EXECUTOR_PARALLEL, thread_counts[t]);
            fx.busy_seconds = 50e-6;
            for (frame = 0; frame < 6; frame++) {
                run_frame(&fx);
                check_frame(&fx, frame);
                overlaps += overlaps_in_frame(&fx);
            }
            fixture_destroy(&fx);
        }
    }
#ifdef ECS_SCHED_THREADS
    assert_true(overlaps > 0);   /* the checks above saw systems that really ran at once */
#else
    assert_int_equal(overlaps, 0);
#endif
}

static void the_single_threaded_executor_follows_the_same_rules(void **state) {
    int seed, frame;
    (void)state;
    for (seed = 20; seed < 26; seed++) {
        schedule_spec spec;
        fixture fx;
        draw_schedule(&spec, (uint64_t)seed, 24);
        fixture_init(&fx, &spec, ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
        for (frame = 0; frame < 4; frame++) {
            run_frame(&fx);
            check_frame(&fx, frame);
            assert_int_equal(overlaps_in_frame(&fx), 0);
        }
        fixture_destroy(&fx);
    }
}

/* ---- tests: determinism ---- */

static void parallel_runs_leave_the_world_the_single_threaded_executor_leaves(void **state) {
    static const int32_t thread_counts[] = {1, 2, 4, 8};
    enum { RUNNERS = 5, FRAMES = 100 };
    int seed, frame, r;
    (void)state;
    for (seed = 100; seed < 130; seed++) {
        schedule_spec spec;
        fixture *fx = (fixture *)calloc(RUNNERS, sizeof *fx);
        snapshot expected = {NULL, 0, 0}, actual = {NULL, 0, 0};
        assert_non_null(fx);
        draw_schedule(&spec, (uint64_t)seed, 16 + seed % 24);
        fixture_init(&fx[0], &spec, ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
        for (r = 1; r < RUNNERS; r++) {
            fixture_init(&fx[r], &spec, ECS_SCHED_EXECUTOR_PARALLEL, thread_counts[r - 1]);
        }
        for (frame = 0; frame < FRAMES; frame++) {
            run_frame(&fx[0]);
            take_snapshot(&fx[0], &expected);
            for (r = 1; r < RUNNERS; r++) {
                run_frame(&fx[r]);
                take_snapshot(&fx[r], &actual);
                if (!same_snapshot(&expected, &actual)) {
                    fail_msg("schedule %d, frame %d: the world with %d threads differs from the "
                             "single-threaded one", seed, frame, (int)thread_counts[r - 1]);
                }
            }
        }
        for (r = 0; r < RUNNERS; r++) fixture_destroy(&fx[r]);
        free(expected.bytes);
        free(actual.bytes);
        free(fx);
    }
}

static void both_executors_build_the_same_plan(void **state) {
    int seed, i;
    (void)state;
    for (seed = 200; seed < 210; seed++) {
        schedule_spec spec;
        fixture single, parallel;
        draw_schedule(&spec, (uint64_t)seed, 30);
        fixture_init(&single, &spec, ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
        fixture_init(&parallel, &spec, ECS_SCHED_EXECUTOR_PARALLEL, 2);
        for (i = 0; i < spec.system_count; i++) {
            assert_int_equal(single.plan_position[i], parallel.plan_position[i]);
        }
        fixture_destroy(&single);
        fixture_destroy(&parallel);
    }
}

/* ---- tests: what runs at once ---- */

#ifdef ECS_SCHED_THREADS
static void independent_systems_run_at_the_same_time(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_PARALLEL, 2);
    ecs_sched_id a = ecs_sched_component_register_type(w, "A", 4, 4);
    ecs_sched_id b = ecs_sched_component_register_type(w, "B", 4, 4);
    ecs_sched_system_desc desc;
    meeting m = {0, 0};
    (void)state;
    memset(&desc, 0, sizeof desc);
    desc.fn = meet;
    desc.user_data = &m;
    desc.name = "left";
    desc.queries[0].terms[0] = ecs_sched_write(a);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &desc), ECS_SCHED_OK);
    desc.name = "right";
    desc.queries[0].terms[0] = ecs_sched_write(b);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &desc), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(m.timeouts, 0);
    assert_int_equal(m.arrived, 2);
    ecs_sched_world_destroy(w);
}

/* Both write Position, but one only on entities with Player and the other only on those
   without: they run at the same time (and the build reports nothing at error level). */
static void disjoint_writers_run_at_the_same_time(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_PARALLEL, 2);
    ecs_sched_id position = ecs_sched_component_register_type(w, "Position", 8, 4);
    ecs_sched_id player = ECS_SCHED_TAG(w, Player);
    ecs_sched_system_desc desc;
    meeting m = {0, 0};
    (void)state;
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &(ecs_sched_schedule_desc){
                         .ambiguities = ECS_SCHED_REPORT_ERROR}), ECS_SCHED_OK);
    memset(&desc, 0, sizeof desc);
    desc.fn = meet;
    desc.user_data = &m;
    desc.name = "move_player";
    desc.queries[0].terms[0] = ecs_sched_write(position);
    desc.queries[0].terms[1] = ecs_sched_read(player);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &desc), ECS_SCHED_OK);
    desc.name = "move_others";
    desc.queries[0].terms[1] = ecs_sched_without(player);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &desc), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(m.timeouts, 0);
    assert_int_equal(m.arrived, 2);
    ecs_sched_world_destroy(w);
}
#endif

/* Which thread ran each system, as a worker index of the world's pool. */
typedef struct where_ran {
    ecs_sched_pool *pool;
    int32_t worker[4];
    int count;
} where_ran;

static void note_worker(ecs_sched_system_ctx *ctx) {
    where_ran *wr = (where_ran *)ecs_sched_ctx_user_data(ctx);
    int slot = __atomic_fetch_add(&wr->count, 1, __ATOMIC_ACQ_REL);
    if (slot < 4) wr->worker[slot] = ecs_sched_pool_worker_index(wr->pool);
}

static void add_noting_systems(ecs_sched_world *w, const char *schedule, where_ran *wr,
                               bool exclusive) {
    ecs_sched_system_desc desc;
    int i;
    static const char *const names[] = {"n0", "n1", "n2", "n3"};
    memset(&desc, 0, sizeof desc);
    desc.fn = note_worker;
    desc.user_data = wr;
    desc.exclusive = exclusive;
    for (i = 0; i < 4; i++) {
        desc.name = names[i];
        assert_int_equal(ecs_sched_add_system(w, schedule, &desc), ECS_SCHED_OK);
    }
}

/* Runs four systems (exclusive or not) once on w and notes the worker each ran on. */
static void run_noting(ecs_sched_world *w, bool exclusive, where_ran *wr) {
    memset(wr, 0, sizeof *wr);
    wr->pool = ecs_sched_world_pool(w);
    assert_non_null(wr->pool);
    add_noting_systems(w, UPDATE, wr, exclusive);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(wr->count, 4);
}

static void a_schedule_can_choose_the_single_threaded_executor(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_DEFAULT, 4);
    ecs_sched_schedule_desc sd;
    where_ran wr;
    int i;
    (void)state;
    memset(&sd, 0, sizeof sd);
    sd.executor = ECS_SCHED_EXECUTOR_SINGLE_THREADED;
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &sd), ECS_SCHED_OK);
    run_noting(w, false, &wr);
    for (i = 0; i < 4; i++) assert_int_equal(wr.worker[i], 0);   /* the calling thread */
    ecs_sched_world_destroy(w);
}

static void exclusive_systems_run_on_the_calling_thread(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_PARALLEL, 4);
    where_ran wr;
    int i;
    (void)state;
    run_noting(w, true, &wr);
    for (i = 0; i < 4; i++) assert_int_equal(wr.worker[i], 0);
    ecs_sched_world_destroy(w);
}

static void systems_of_a_parallel_schedule_run_on_the_pools_workers(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_PARALLEL, 2);
    where_ran wr;
    int i;
    (void)state;
    run_noting(w, false, &wr);
    for (i = 0; i < 4; i++) {
        assert_true(wr.worker[i] >= 0);
        assert_true(wr.worker[i] < ecs_sched_pool_thread_count(wr.pool));
    }
    ecs_sched_world_destroy(w);
}

static void an_unknown_executor_is_refused_by_name(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_DEFAULT, 1);
    ecs_sched_schedule_desc sd;
    (void)state;
    memset(&sd, 0, sizeof sd);
    sd.executor = (ecs_sched_executor)7;
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &sd), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "executor 7"));
    assert_false(ecs_sched_schedule_exists(w, UPDATE));
    ecs_sched_world_destroy(w);
}

static void a_world_with_a_negative_thread_count_is_refused(void **state) {
    captured_log log;
    ecs_sched_world_desc desc = logged_world_desc(&log);
    (void)state;
    desc.thread_count = -2;
    assert_null(ecs_sched_world_create(&desc));
    assert_int_equal(log.errors, 1);
    assert_int_equal(log.last_level, ECS_SCHED_LOG_ERROR);
    assert_non_null(strstr(log.last, "thread_count"));
}

/* ---- tests: nested runs ---- */

typedef struct nested_state {
    int64_t inner_runs;
    ecs_sched_result inner_result;
} nested_state;

static void count_inner(ecs_sched_system_ctx *ctx) {
    nested_state *ns = (nested_state *)ecs_sched_ctx_user_data(ctx);
    __atomic_add_fetch(&ns->inner_runs, 1, __ATOMIC_ACQ_REL);
}

static void run_inner_schedule(ecs_sched_system_ctx *ctx) {
    nested_state *ns = (nested_state *)ecs_sched_ctx_user_data(ctx);
    ns->inner_result = ecs_sched_run_schedule(ecs_sched_ctx_world(ctx), "Inner");
}

static void an_exclusive_system_runs_a_parallel_schedule_inside_a_parallel_one(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_PARALLEL, 2);
    ecs_sched_system_desc desc;
    nested_state ns = {0, ECS_SCHED_ERR_INVALID_ARGUMENT};
    static const char *const names[] = {"i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7"};
    int i;
    (void)state;
    memset(&desc, 0, sizeof desc);
    desc.fn = count_inner;
    desc.user_data = &ns;
    for (i = 0; i < 8; i++) {
        desc.name = names[i];
        assert_int_equal(ecs_sched_add_system(w, "Inner", &desc), ECS_SCHED_OK);
        assert_int_equal(ecs_sched_add_system(w, UPDATE, &desc), ECS_SCHED_OK);
    }
    memset(&desc, 0, sizeof desc);
    desc.name = "driver";
    desc.fn = run_inner_schedule;
    desc.user_data = &ns;
    desc.exclusive = true;
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &desc), ECS_SCHED_OK);
    for (i = 1; i <= 10; i++) {
        assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
        assert_int_equal(ns.inner_result, ECS_SCHED_OK);
        assert_int_equal(ns.inner_runs, 16 * i);
    }
    ecs_sched_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(events_never_break_order_access_or_condition_rules),
        cmocka_unit_test(the_single_threaded_executor_follows_the_same_rules),
        cmocka_unit_test(parallel_runs_leave_the_world_the_single_threaded_executor_leaves),
        cmocka_unit_test(both_executors_build_the_same_plan),
#ifdef ECS_SCHED_THREADS
        cmocka_unit_test(independent_systems_run_at_the_same_time),
        cmocka_unit_test(disjoint_writers_run_at_the_same_time),
#endif
        cmocka_unit_test(a_schedule_can_choose_the_single_threaded_executor),
        cmocka_unit_test(exclusive_systems_run_on_the_calling_thread),
        cmocka_unit_test(systems_of_a_parallel_schedule_run_on_the_pools_workers),
        cmocka_unit_test(an_unknown_executor_is_refused_by_name),
        cmocka_unit_test(a_world_with_a_negative_thread_count_is_refused),
        cmocka_unit_test(an_exclusive_system_runs_a_parallel_schedule_inside_a_parallel_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
