/* world_fixture.h: what the world tests share. Include it after ecs_sched.h (with its
   implementation) and cmocka.h.

   A world whose messages are captured in a captured_log, the same world with the common
   components registered, a check that the world is consistent before it is destroyed, the
   checks of a failed call, and a search for a number in a message. Static inline, so that a
   test file may leave some unused. */
#ifndef WORLD_FIXTURE_H
#define WORLD_FIXTURE_H

#include <ctype.h>

#include "fixture.h"

static inline ecs_sched_world *new_world(captured_log *log) {
    ecs_sched_world_desc desc = logged_world_desc(log);
    ecs_sched_world *world = ecs_sched_world_create(&desc);
    assert_non_null(world);
    return world;
}

static inline void check_and_destroy(ecs_sched_world *world) {
    assert_int_equal(ecs_sched_world_check(world), ECS_SCHED_OK);
    ecs_sched_world_destroy(world);
}

/* A logged world with Position, Velocity, Health, the resource type Score and the tag Frozen
   registered. `cmd` is for the tests that record commands: setup_world leaves it NULL. */
typedef struct world_setup {
    captured_log log;
    ecs_sched_world *world;
    ecs_sched_commands *cmd;
    ecs_sched_id position, velocity, health, frozen, score;
} world_setup;

static inline void setup_world(world_setup *s) {
    s->world = new_world(&s->log);
    s->cmd = NULL;
    s->position = ECS_SCHED_COMPONENT(s->world, Position);
    s->velocity = ECS_SCHED_COMPONENT(s->world, Velocity);
    s->health = ECS_SCHED_COMPONENT(s->world, Health);
    s->frozen = ECS_SCHED_TAG(s->world, Frozen);
    s->score = ECS_SCHED_COMPONENT(s->world, Score);
}

/* The value of component `id` of e, which must have it. */
static inline const void *get_present(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    const void *value = ecs_sched_get(w, e, id);
    assert_non_null(value);
    return value;
}

static inline const Position *get_position(const world_setup *s, ecs_sched_entity e) {
    return (const Position *)get_present(s->world, e, s->position);
}

static inline const Velocity *get_velocity(const world_setup *s, ecs_sched_entity e) {
    return (const Velocity *)get_present(s->world, e, s->velocity);
}

static inline const Health *get_health(const world_setup *s, ecs_sched_entity e) {
    return (const Health *)get_present(s->world, e, s->health);
}

/* The last call failed with `code`: it recorded a message, and that message went to the log at
   error level. */
static inline void assert_failed_with(ecs_sched_world *world, const captured_log *log,
                                      ecs_sched_result code) {
    const char *message = ecs_sched_last_error(world);
    assert_int_equal(ecs_sched_last_result(world), code);
    assert_true(message[0] != '\0');
    assert_true(log->errors > 0);
    assert_int_equal(log->last_level, ECS_SCHED_LOG_ERROR);
    assert_non_null(strstr(log->last, message));
}

/* True when `text` contains `n` as a whole number (not as part of a longer one). */
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
