/* world_fixture.h: what the world tests share. Include it after ecs_sched.h (with its
   implementation) and cmocka.h.

   A world whose messages are captured in a captured_log, a check that the world is consistent
   before it is destroyed, and a search for a number in a message. Static inline, so that a
   test file may leave some unused. */
#ifndef WORLD_FIXTURE_H
#define WORLD_FIXTURE_H

#include <ctype.h>

typedef struct captured_log {
    int count;
    int errors;
    ecs_sched_log_level last_level;
    ecs_sched_result last_result;
    char last[1024];
} captured_log;

static inline void capture_message(ecs_sched_log_level level, ecs_sched_result result,
                                   const char *message, void *user_data) {
    captured_log *log = (captured_log *)user_data;
    log->count++;
    if (level >= ECS_SCHED_LOG_ERROR) log->errors++;
    log->last_level = level;
    log->last_result = result;
    snprintf(log->last, sizeof log->last, "%s", message);
}

static inline ecs_sched_world *new_world(captured_log *log) {
    ecs_sched_world_desc desc;
    ecs_sched_world *world;
    memset(log, 0, sizeof *log);
    memset(&desc, 0, sizeof desc);
    desc.logger.fn = capture_message;
    desc.logger.user_data = log;
    world = ecs_sched_world_create(&desc);
    assert_non_null(world);
    return world;
}

static inline void check_and_destroy(ecs_sched_world *world) {
    assert_int_equal(ecs_sched_world_check(world), ECS_SCHED_OK);
    ecs_sched_world_destroy(world);
}

static inline bool mentions_number(const char *text, unsigned long long n) {
    char digits[32];
    const char *p;
    size_t len;
    snprintf(digits, sizeof digits, "%llu", n);
    len = strlen(digits);
    for (p = strstr(text, digits); p; p = strstr(p + 1, digits)) {
        bool digit_before = p > text && isdigit((unsigned char)p[-1]);
        bool digit_after = isdigit((unsigned char)p[len]) != 0;
        if (!digit_before && !digit_after) return true;
    }
    return false;
}

#endif
