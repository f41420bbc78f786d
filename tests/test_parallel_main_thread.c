/* Main-thread systems and main-thread-only ("non-send") resources: such systems, and the
   conditions that read such resources, run on the thread that runs the schedule, while other
   systems still run beside them; a system context refuses such a resource on any other
   thread.

   Linked with tests/impl.c, whose tuning spreads every run as far as it goes, so that every
   system that may leave the calling thread does. Built without ECS_SCHED_THREADS too, where
   everything runs on the calling thread; with it, also under ThreadSanitizer. */
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

#ifdef ECS_SCHED_THREADS
#include <pthread.h>
#endif

#include "fixture.h"

#define UPDATE "Update"
#define RUNS 200
#define SYSTEMS 8

/* Where each system and condition ran: counts of runs on the calling thread and off it. */
typedef struct tally {
    ecs_sched_pool *pool;
    int64_t on_caller[SYSTEMS + 1];
    int64_t elsewhere[SYSTEMS + 1];
} tally;

typedef struct member {
    tally *t;
    int slot;
} member;

static void count_where(tally *t, int slot) {
    if (ecs_sched_pool_worker_index(t->pool) == 0) __atomic_add_fetch(&t->on_caller[slot], 1, __ATOMIC_RELAXED);
    else __atomic_add_fetch(&t->elsewhere[slot], 1, __ATOMIC_RELAXED);
}

static double seconds_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* 50 us of work: long enough for a sleeping worker to wake and take some, so that every run
   tests the rule. */
static void noting_system(ecs_sched_system_ctx *ctx) {
    member *m = (member *)ecs_sched_ctx_user_data(ctx);
    double until = seconds_now() + 50e-6;
    while (seconds_now() < until) {
    }
    count_where(m->t, m->slot);
}

static bool noting_condition(ecs_sched_system_ctx *ctx) {
    member *m = (member *)ecs_sched_ctx_user_data(ctx);
    count_where(m->t, m->slot);
    return true;
}

/* A parallel world of 2 threads with SYSTEMS noting systems; main_thread[i] asks system i to
   run on the main thread (and then runs it after s7 or s6, which must not ask). */
static ecs_sched_world *world_of_noting_systems(tally *t, member *members, const bool *main_thread) {
    static const char *const names[SYSTEMS] = {"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"};
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_PARALLEL, 2);
    int i;
    memset(t, 0, sizeof *t);
    t->pool = ecs_sched_world_pool(w);
    assert_non_null(t->pool);
    for (i = 0; i < SYSTEMS; i++) {
        ecs_sched_system_desc desc;
        memset(&desc, 0, sizeof desc);
        members[i].t = t;
        members[i].slot = i;
        desc.name = names[i];
        desc.fn = noting_system;
        desc.user_data = &members[i];
        desc.main_thread = main_thread && main_thread[i];
        /* after one of the last systems, which the calling thread offers to the others: the
           main-thread one is then made ready on a worker, which must hand it over */
        if (desc.main_thread) desc.after[0] = names[SYSTEMS - 1 - i % 2];
        assert_int_equal(ecs_sched_add_system(w, UPDATE, &desc), ECS_SCHED_OK);
    }
    return w;
}

static void run_times(ecs_sched_world *w, int times) {
    int i;
    for (i = 0; i < times; i++) assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
}

typedef struct { int value; } Window;

static void a_main_thread_system_runs_on_the_thread_that_runs_the_schedule(void **state) {
    tally t;
    member members[SYSTEMS];
    bool main_thread[SYSTEMS] = {false, false, true, false, false, true, false, false};
    ecs_sched_world *w = world_of_noting_systems(&t, members, main_thread);
    int64_t others_elsewhere = 0;
    int i;
    (void)state;
    run_times(w, RUNS);
    for (i = 0; i < SYSTEMS; i++) {
        assert_int_equal(t.on_caller[i] + t.elsewhere[i], RUNS);
        if (main_thread[i]) assert_int_equal(t.elsewhere[i], 0);
        else others_elsewhere += t.elsewhere[i];
    }
#ifdef ECS_SCHED_THREADS
    assert_true(others_elsewhere > 0);   /* the run was spread: the rule was put to the test */
#else
    assert_int_equal(others_elsewhere, 0);
#endif
    ecs_sched_world_destroy(w);
}

static void a_system_that_declares_a_non_send_resource_runs_on_the_main_thread(void **state) {
    tally t;
    member members[SYSTEMS], drawer;
    ecs_sched_world *w = world_of_noting_systems(&t, members, NULL);
    ecs_sched_id window = ECS_SCHED_COMPONENT(w, Window);
    Window value = {7};
    ecs_sched_system_desc desc;
    (void)state;
    assert_int_equal(ecs_sched_resource_insert_non_send(w, window, &value), ECS_SCHED_OK);
    assert_true(ecs_sched_resource_is_non_send(w, window));
    memset(&desc, 0, sizeof desc);
    drawer.t = &t;
    drawer.slot = SYSTEMS;   /* a ninth system, which declares the window */
    desc.name = "draw";
    desc.fn = noting_system;
    desc.user_data = &drawer;
    desc.writes[0] = window;
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &desc), ECS_SCHED_OK);
    run_times(w, RUNS);
    assert_int_equal(t.on_caller[SYSTEMS], RUNS);
    assert_int_equal(t.elsewhere[SYSTEMS], 0);
    ecs_sched_world_destroy(w);
}

static void a_condition_that_reads_a_non_send_resource_is_evaluated_on_the_main_thread(void **state) {
    tally t;
    member members[SYSTEMS], cond_member;
    ecs_sched_world *w = world_of_noting_systems(&t, members, NULL);
    ecs_sched_id window = ECS_SCHED_COMPONENT(w, Window);
    Window value = {1};
    ecs_sched_system_desc desc;
    ecs_sched_condition cond;
    (void)state;
    assert_int_equal(ecs_sched_resource_insert_non_send(w, window, &value), ECS_SCHED_OK);
    memset(&cond, 0, sizeof cond);
    cond.fn = noting_condition;
    cond_member.t = &t;
    cond_member.slot = SYSTEMS;
    cond.user_data = &cond_member;
    cond.reads[0] = window;
    memset(&desc, 0, sizeof desc);
    desc.name = "guarded";
    desc.fn = noting_system;
    desc.user_data = &members[0];   /* counts with s0, which is not main-thread */
    desc.run_if[0] = &cond;
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &desc), ECS_SCHED_OK);
    run_times(w, RUNS);
    assert_int_equal(t.on_caller[SYSTEMS], RUNS);
    assert_int_equal(t.elsewhere[SYSTEMS], 0);
    ecs_sched_world_destroy(w);
}

static void non_send_resource_conditions_hold_like_the_resource_ones(void **state) {
    tally t;
    member members[SYSTEMS], extra[2];
    ecs_sched_world *w = world_of_noting_systems(&t, members, NULL);
    ecs_sched_id window = ECS_SCHED_COMPONENT(w, Window);
    ecs_sched_id missing = ECS_SCHED_COMPONENT(w, Position);
    Window value = {3}, other = {4};
    ecs_sched_system_desc desc;
    (void)state;
    assert_int_equal(ecs_sched_resource_insert_non_send(w, window, &value), ECS_SCHED_OK);
    memset(&desc, 0, sizeof desc);
    extra[0].t = extra[1].t = &t;
    extra[0].slot = SYSTEMS;
    extra[1].slot = 0;   /* counted with s0 if it ever ran: it must not */
    desc.name = "shown";
    desc.fn = noting_system;
    desc.user_data = &extra[0];
    {
        ecs_sched_condition same = ecs_sched_condition_non_send_resource_equals(window, &value,
                                                                                sizeof value);
        desc.run_if[0] = &same;
        assert_int_equal(ecs_sched_add_system(w, UPDATE, &desc), ECS_SCHED_OK);
    }
    {
        ecs_sched_condition exists = ecs_sched_condition_non_send_resource_exists(missing);
        ecs_sched_condition equals = ecs_sched_condition_non_send_resource_equals(window, &other,
                                                                                  sizeof other);
        ecs_sched_condition either = ecs_sched_condition_or(&exists, &equals);
        desc.name = "hidden";
        desc.user_data = &extra[1];
        desc.run_if[0] = &either;
        assert_int_equal(ecs_sched_add_system(w, UPDATE, &desc), ECS_SCHED_OK);
    }
    run_times(w, 10);
    assert_int_equal(t.on_caller[SYSTEMS] + t.elsewhere[SYSTEMS], 10);
    assert_int_equal(t.on_caller[0] + t.elsewhere[0], 10);   /* s0 alone: "hidden" never ran */
    ecs_sched_world_destroy(w);
}

#ifdef ECS_SCHED_THREADS
static void a_main_thread_system_still_runs_beside_others(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_PARALLEL, 2);
    ecs_sched_system_desc desc;
    meeting m = {0, 0};
    static const char *const order[2][2] = {{"on_main", "anywhere"}, {"anywhere", "on_main"}};
    int k;
    (void)state;
    /* either one first in plan order: a worker may hand the main-thread one over */
    for (k = 0; k < 2; k++) {
        ecs_sched_world *world = k == 0 ? w : world_on(ECS_SCHED_EXECUTOR_PARALLEL, 2);
        int i;
        memset(&m, 0, sizeof m);
        for (i = 0; i < 2; i++) {
            memset(&desc, 0, sizeof desc);
            desc.fn = meet;
            desc.user_data = &m;
            desc.name = order[k][i];
            desc.main_thread = strcmp(order[k][i], "on_main") == 0;
            assert_int_equal(ecs_sched_add_system(world, UPDATE, &desc), ECS_SCHED_OK);
        }
        assert_int_equal(ecs_sched_run_schedule(world, UPDATE), ECS_SCHED_OK);
        assert_int_equal(m.timeouts, 0);
        assert_int_equal(m.arrived, 2);
        ecs_sched_world_destroy(world);
    }
}

typedef struct off_thread_read {
    ecs_sched_system_ctx *ctx;
    ecs_sched_id window;
    const void *got;
} off_thread_read;

static void *read_window_elsewhere(void *arg) {
    off_thread_read *r = (off_thread_read *)arg;
    r->got = ecs_sched_ctx_resource(r->ctx, r->window);
    return NULL;
}

static ecs_sched_id g_window;

/* Runs on the main thread (it declares the window), and asks for it from a thread of its own. */
static void hands_the_window_to_another_thread(ecs_sched_system_ctx *ctx) {
    off_thread_read r;
    pthread_t thread;
    r.ctx = ctx;
    r.window = g_window;
    r.got = (const void *)&r;
    assert_non_null(ecs_sched_ctx_resource(ctx, g_window));
    assert_int_equal(pthread_create(&thread, NULL, read_window_elsewhere, &r), 0);
    pthread_join(thread, NULL);
    assert_null(r.got);
}

static void a_non_send_resource_asked_for_on_another_thread_is_an_access_error(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_PARALLEL, 2);
    Window value = {9};
    ecs_sched_system_desc desc;
    (void)state;
    g_window = ECS_SCHED_COMPONENT(w, Window);
    assert_int_equal(ecs_sched_resource_insert_non_send(w, g_window, &value), ECS_SCHED_OK);
    memset(&desc, 0, sizeof desc);
    desc.name = "render";
    desc.fn = hands_the_window_to_another_thread;
    desc.reads[0] = g_window;
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &desc), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_non_null(strstr(ecs_sched_last_error(w), "main-thread-only resource 'Window'"));
    assert_non_null(strstr(ecs_sched_last_error(w), "system 'render'"));
    ecs_sched_world_destroy(w);
}
#endif

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_main_thread_system_runs_on_the_thread_that_runs_the_schedule),
        cmocka_unit_test(a_system_that_declares_a_non_send_resource_runs_on_the_main_thread),
        cmocka_unit_test(a_condition_that_reads_a_non_send_resource_is_evaluated_on_the_main_thread),
        cmocka_unit_test(non_send_resource_conditions_hold_like_the_resource_ones),
#ifdef ECS_SCHED_THREADS
        cmocka_unit_test(a_main_thread_system_still_runs_beside_others),
        cmocka_unit_test(a_non_send_resource_asked_for_on_another_thread_is_an_access_error),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
