/* app_fixture.h: what the time, app and plugin tests share. Include it after ecs_sched.h and
   cmocka.h.

   An app whose clock is a counter the test moves (g_clock_ns; its sleep hook moves it too, and
   counts the sleeps), its messages captured in g_log (debug messages included), the trace of
   schedule_fixture.h, and a system that traces "label@step" with the "Time" it reads. */
#ifndef APP_FIXTURE_H
#define APP_FIXTURE_H

#include "schedule_fixture.h"

static int64_t g_clock_ns;           /* what the app's clock hook reads */
static int64_t g_slept_ns;           /* the sum of the sleeps asked of the sleep hook */
static int g_sleeps;

static inline int64_t test_clock(void *user_data) {
    (void)user_data;
    return g_clock_ns;
}

static inline void test_sleep(int64_t duration_ns, void *user_data) {
    (void)user_data;
    g_sleeps++;
    g_slept_ns += duration_ns;
    g_clock_ns += duration_ns;
}

/* The app of the running test, destroyed by the next new_app or the group teardown. */
static ecs_sched_app *g_app;

static inline ecs_sched_app_desc test_app_desc(ecs_sched_executor executor) {
    ecs_sched_app_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.world = logged_world_desc(&g_log);
    desc.world.executor = executor;
    desc.time.clock = test_clock;
    desc.time.sleep = test_sleep;
    return desc;
}

static inline ecs_sched_app *new_app_with(const ecs_sched_app_desc *desc) {
    if (g_app) ecs_sched_app_destroy(g_app);
    g_trace[0] = '\0';
    g_clock_ns = 1000;               /* any origin: only differences count */
    g_slept_ns = 0;
    g_sleeps = 0;
    g_app = ecs_sched_app_create(desc);
    assert_non_null(g_app);
    return g_app;
}

static inline ecs_sched_app *new_app(void) {
    ecs_sched_app_desc desc = test_app_desc(ECS_SCHED_EXECUTOR_SINGLE_THREADED);
    return new_app_with(&desc);
}

static inline void destroy_app(ecs_sched_app *app) {
    assert_int_equal(ecs_sched_world_check(ecs_sched_app_world(app)), ECS_SCHED_OK);
    ecs_sched_app_destroy(app);
    if (app == g_app) g_app = NULL;
}

static inline int destroy_leftover_app(void **state) {
    (void)state;
    if (g_app) ecs_sched_app_destroy(g_app);
    g_app = NULL;
    return 0;
}

/* A system in `schedule` that traces its word (see record in schedule_fixture.h). */
static inline void app_trace_in(ecs_sched_app *app, const char *schedule, const char *word) {
    trace_in(ecs_sched_app_world(app), schedule, word);
}

#endif
