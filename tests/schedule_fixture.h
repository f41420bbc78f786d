/* schedule_fixture.h: what the schedule tests share. Include it after ecs_sched.h (with its
   implementation) and cmocka.h.

   A world whose messages are captured in g_log, a trace of the systems that ran in g_trace,
   shorthands to add systems and sets to the schedule "Update", to run it and check the trace,
   and to print a built plan, and the components the systems declare. The functions are static
   inline so that a test file may leave some unused. */
#ifndef SCHEDULE_FIXTURE_H
#define SCHEDULE_FIXTURE_H

#include "fixture.h"

static captured_log g_log;
static char g_trace[4096];

/* The world of the running test; a test that fails before destroying it leaves it to the next
   new_world (or to the group teardown), so a failure does not also report leaks. */
static ecs_sched_world *g_world;

static inline ecs_sched_world *new_world(void) {
    ecs_sched_world_desc desc = logged_world_desc(&g_log);
    if (g_world) ecs_sched_world_destroy(g_world);
    g_trace[0] = '\0';
    /* these tests pin the plan order; the parallel executor has tests of its own */
    desc.executor = ECS_SCHED_EXECUTOR_SINGLE_THREADED;
    g_world = ecs_sched_world_create(&desc);
    assert_non_null(g_world);
    return g_world;
}

static inline void check_and_destroy(ecs_sched_world *world) {
    assert_int_equal(ecs_sched_world_check(world), ECS_SCHED_OK);
    ecs_sched_world_destroy(world);
    if (world == g_world) g_world = NULL;
}

static inline int destroy_leftover_world(void **state) {
    (void)state;
    if (g_world) ecs_sched_world_destroy(g_world);
    g_world = NULL;
    return 0;
}

static inline void trace_add(const char *word) {
    size_t n = strlen(g_trace);
    snprintf(g_trace + n, sizeof g_trace - n, "%s%s", n ? " " : "", word);
}

/* A system that writes its label (its user_data when given, else its name) to the trace. */
static inline void record(ecs_sched_system_ctx *ctx) {
    const char *label = (const char *)ecs_sched_ctx_user_data(ctx);
    trace_add(label ? label : ecs_sched_ctx_name(ctx));
}

/* A system in `schedule` that writes `word` to the trace (names are copied). */
static inline void trace_in(ecs_sched_world *w, const char *schedule, const char *word) {
    assert_non_null(schedule);
    assert_int_equal(ecs_sched_add_system(w, schedule,
                                          &(ecs_sched_system_desc){.name = word, .fn = record}),
                     ECS_SCHED_OK);
}

#define ADD_SYSTEM(world, ...)                                                                  \
    assert_int_equal(ecs_sched_add_system((world), UPDATE, &(ecs_sched_system_desc){__VA_ARGS__}), \
                     ECS_SCHED_OK)
#define ADD_SYSTEMS(world, ...)                                                                 \
    assert_int_equal(ecs_sched_add_systems((world), UPDATE, &(ecs_sched_systems_desc){__VA_ARGS__}), \
                     ECS_SCHED_OK)
#define SYSTEMS(...) (ecs_sched_system_desc[]){__VA_ARGS__}
#define CONFIGURE_SET(world, ...)                                                               \
    assert_int_equal(ecs_sched_configure_set((world), UPDATE, &(ecs_sched_set_desc){__VA_ARGS__}), \
                     ECS_SCHED_OK)

/* One run of "Update" succeeds, and the trace is then `expected`. A macro, so that a failure
   points at the test. */
#define assert_run_traces(world, expected)                                                      \
    do {                                                                                        \
        assert_int_equal(ecs_sched_run_schedule((world), UPDATE), ECS_SCHED_OK);                \
        assert_string_equal(g_trace, (expected));                                              \
    } while (0)

/* The built plan of a schedule as one line: "a b apply_deferred c". */
static inline const char *plan_of(ecs_sched_world *w, const char *schedule) {
    static char text[4096];
    const char *names[256];
    int32_t n = ecs_sched_schedule_order(w, schedule, names, 256), i;
    size_t length = 0;
    if (n < 0) return "(not built)";
    text[0] = '\0';
    for (i = 0; i < n && i < 256 && length < sizeof text; i++) {
        int k = snprintf(text + length, sizeof text - length, "%s%s", i ? " " : "", names[i]);
        if (k > 0) length += (size_t)k;
    }
    return text;
}

/* The components the systems of these tests declare access to. */
typedef struct ids {
    ecs_sched_id position, velocity, score;
} ids;

static inline ids register_components(ecs_sched_world *w) {
    ids c;
    c.position = ECS_SCHED_COMPONENT(w, Position);
    c.velocity = ECS_SCHED_COMPONENT(w, Velocity);
    c.score = ECS_SCHED_COMPONENT(w, Score);
    return c;
}

#endif
