/* Errors: result codes and their text, the last-error message that names the culprit, the log
   hook that receives it, and the assert hook that catches a NULL world. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <ctype.h>
#include <cmocka.h>

/* Programmer errors reach cmocka, which turns them into checkable failures. */
#define ECS_SCHED_ASSERT(cond) mock_assert((int)(cond), #cond, __FILE__, __LINE__)

/* Messages of worlds created without a logger land here instead of stderr; like the default
   sink, it keeps warnings and worse. */
static int fallback_messages = 0;
static char fallback_last[1024];
#define ECS_SCHED_LOG(level, result, message)                                           \
    do {                                                                          \
        if ((level) >= ECS_SCHED_LOG_WARN) {                                      \
            fallback_messages++;                                                  \
            snprintf(fallback_last, sizeof fallback_last, "%s", (message));       \
        }                                                                         \
    } while (0)

#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include "world_fixture.h"

/* ---- result codes ---- */

static void every_result_code_has_its_own_non_empty_text(void **state) {
    int a, b;
    (void)state;
    for (a = 0; a < ECS_SCHED_RESULT_COUNT; a++) {
        const char *text = ecs_sched_result_string((ecs_sched_result)a);
        assert_non_null(text);
        assert_true(text[0] != '\0');
        for (b = 0; b < a; b++) {
            assert_string_not_equal(text, ecs_sched_result_string((ecs_sched_result)b));
        }
    }
    assert_string_equal(ecs_sched_result_string(ECS_SCHED_OK), "ok");
    assert_non_null(strstr(ecs_sched_result_string(ECS_SCHED_ERR_OUT_OF_MEMORY), "memory"));
    assert_non_null(strstr(ecs_sched_result_string(ECS_SCHED_ERR_STALE_ENTITY), "stale"));
}

static void a_code_out_of_range_still_has_text(void **state) {
    const char *count_text, *negative_text;
    int a;
    (void)state;
    count_text = ecs_sched_result_string(ECS_SCHED_RESULT_COUNT);
    negative_text = ecs_sched_result_string((ecs_sched_result)-1);
    assert_non_null(count_text);
    assert_non_null(negative_text);
    assert_true(count_text[0] != '\0');
    for (a = 0; a < ECS_SCHED_RESULT_COUNT; a++) {
        assert_string_not_equal(count_text, ecs_sched_result_string((ecs_sched_result)a));
    }
}

/* ---- last error ---- */

static void fresh_world_has_no_error(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    (void)state;
    assert_string_equal(ecs_sched_last_error(w), "");
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_OK);
    assert_int_equal(log.errors, 0);
    check_and_destroy(w);
}

static void successful_calls_log_no_error(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id pos;
    ecs_sched_entity e;
    (void)state;
    pos = ECS_SCHED_COMPONENT(w, Position);
    e = SPAWN(w, {pos, NULL});
    ecs_sched_insert(w, e, pos, NULL);
    ecs_sched_get(w, e, pos);
    ecs_sched_resource_insert(w, pos, NULL);
    ecs_sched_despawn(w, e);
    assert_int_equal(log.errors, 0);
    assert_string_equal(ecs_sched_last_error(w), "");
    check_and_destroy(w);
}

static void failure_is_recorded_and_sent_to_the_log_at_error_level(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id pos;
    ecs_sched_entity e;
    (void)state;
    pos = ECS_SCHED_COMPONENT(w, Position);
    e = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_despawn(w, e), ECS_SCHED_OK);
    assert_null(ecs_sched_get(w, e, pos));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_STALE_ENTITY);
    assert_true(ecs_sched_last_error(w)[0] != '\0');
    assert_int_equal(log.errors, 1);
    assert_int_equal(log.last_level, ECS_SCHED_LOG_ERROR);
    assert_non_null(strstr(log.last, ecs_sched_last_error(w)));
    check_and_destroy(w);
}

static void clear_error_forgets_the_last_failure(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    (void)state;
    assert_null(ecs_sched_resource_get(w, ECS_SCHED_COMPONENT(w, Position)));
    assert_int_not_equal(ecs_sched_last_result(w), ECS_SCHED_OK);
    ecs_sched_clear_error(w);
    assert_string_equal(ecs_sched_last_error(w), "");
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_OK);
    check_and_destroy(w);
}

static void a_later_failure_replaces_the_message(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id pos, vel;
    (void)state;
    pos = ECS_SCHED_COMPONENT(w, Position);
    vel = ECS_SCHED_TAG(w, Velocity);
    assert_null(ecs_sched_resource_get(w, pos));
    assert_non_null(strstr(ecs_sched_last_error(w), "Position"));
    assert_null(ecs_sched_get(w, ecs_sched_spawn_with(w, 1, &vel, NULL), vel));   /* a tag */
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "Velocity"));
    assert_null(strstr(ecs_sched_last_error(w), "Position"));
    assert_int_equal(log.errors, 2);
    check_and_destroy(w);
}

static void a_failed_call_leaves_the_world_consistent(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id pos;
    ecs_sched_entity e, dead;
    (void)state;
    pos = ECS_SCHED_COMPONENT(w, Position);
    e = SPAWN(w, {pos, NULL});
    dead = ecs_sched_spawn(w);
    ecs_sched_despawn(w, dead);
    ecs_sched_insert(w, dead, pos, NULL);
    ecs_sched_insert(w, e, 9999, NULL);
    ecs_sched_component_register_type(w, "Position", 1, 1);
    ecs_sched_resource_remove(w, pos);
    assert_int_equal(log.errors, 4);
    assert_int_equal(ecs_sched_world_check(w), ECS_SCHED_OK);
    assert_true(ecs_sched_is_alive(w, e));
    assert_int_equal(ecs_sched_entity_count(w), 1);
    check_and_destroy(w);
}

/* ---- messages name the culprit ---- */

static void stale_entity_message_names_the_entity_index(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity e[30];
    int i;
    (void)state;
    for (i = 0; i < 30; i++) e[i] = ecs_sched_spawn(w);
    ecs_sched_despawn(w, e[23]);
    assert_int_equal(ecs_sched_despawn(w, e[23]), ECS_SCHED_ERR_STALE_ENTITY);
    assert_true(mentions_number(ecs_sched_last_error(w), ECS_SCHED_ENTITY_INDEX(e[23])));
    check_and_destroy(w);
}

static void missing_component_message_names_component_and_entity(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id pos, vel;
    ecs_sched_entity e[20];
    int i;
    (void)state;
    pos = ECS_SCHED_COMPONENT(w, Position);
    vel = ECS_SCHED_COMPONENT(w, Velocity);
    for (i = 0; i < 20; i++) e[i] = SPAWN(w, {pos, NULL});
    assert_int_equal(ecs_sched_auto_override(w, e[17], vel), ECS_SCHED_ERR_MISSING_COMPONENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "Velocity"));
    assert_true(mentions_number(ecs_sched_last_error(w), ECS_SCHED_ENTITY_INDEX(e[17])));
    check_and_destroy(w);
}

static void unknown_component_message_names_the_id(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity e;
    (void)state;
    e = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_insert(w, e, 4242, NULL), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_true(mentions_number(ecs_sched_last_error(w), 4242));
    check_and_destroy(w);
}

static void mismatch_message_names_the_component(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    (void)state;
    ECS_SCHED_COMPONENT(w, Position);
    assert_int_equal(ecs_sched_component_register_type(w, "Position", 16, 4), 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_COMPONENT_MISMATCH);
    assert_non_null(strstr(ecs_sched_last_error(w), "Position"));
    check_and_destroy(w);
}

static void missing_resource_message_names_the_resource(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    (void)state;
    assert_null(ecs_sched_resource_get_mut(w, ECS_SCHED_COMPONENT(w, Velocity)));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_non_null(strstr(ecs_sched_last_error(w), "Velocity"));
    check_and_destroy(w);
}

static void invalid_query_message_names_the_component(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id vel;
    (void)state;
    vel = ECS_SCHED_COMPONENT(w, Velocity);
    assert_null(QUERY(w, ecs_sched_read(ECS_SCHED_COMPONENT(w, Position)), ecs_sched_read(vel),
                      ecs_sched_without(vel)));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_QUERY);
    assert_non_null(strstr(ecs_sched_last_error(w), "Velocity"));
    check_and_destroy(w);
}

/* ---- hooks for messages and programmer errors ---- */

static void world_without_a_logger_sends_messages_to_the_fallback_sink(void **state) {
    ecs_sched_world *w;
    ecs_sched_entity e;
    (void)state;
    w = ecs_sched_world_create(NULL);
    assert_non_null(w);
    fallback_messages = 0;
    fallback_last[0] = '\0';
    e = ecs_sched_spawn(w);
    ecs_sched_despawn(w, e);
    assert_int_equal(ecs_sched_despawn(w, e), ECS_SCHED_ERR_STALE_ENTITY);
    assert_int_equal(fallback_messages, 1);
    assert_string_equal(fallback_last, ecs_sched_last_error(w));
    check_and_destroy(w);
}

static void world_with_a_logger_does_not_use_the_fallback_sink(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity e;
    (void)state;
    fallback_messages = 0;
    e = ecs_sched_spawn(w);
    ecs_sched_despawn(w, e);
    ecs_sched_despawn(w, e);
    assert_int_equal(fallback_messages, 0);
    assert_int_equal(log.errors, 1);
    check_and_destroy(w);
}

static void a_null_world_hits_the_assert_hook(void **state) {
    ecs_sched_query_desc desc;
    (void)state;
    memset(&desc, 0, sizeof desc);
    expect_assert_failure(ecs_sched_spawn(NULL));
    expect_assert_failure(ecs_sched_despawn(NULL, 1));
    expect_assert_failure(ecs_sched_insert(NULL, 1, 1, NULL));
    expect_assert_failure(ecs_sched_get(NULL, 1, 1));
    expect_assert_failure(ecs_sched_component_register_type(NULL, "Position", 8, 4));
    expect_assert_failure(ecs_sched_resource_insert(NULL, 1, NULL));
    expect_assert_failure(ecs_sched_query_create(NULL, &desc));
    expect_assert_failure(ecs_sched_commands_create(NULL));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_result_code_has_its_own_non_empty_text),
        cmocka_unit_test(a_code_out_of_range_still_has_text),
        cmocka_unit_test(fresh_world_has_no_error),
        cmocka_unit_test(successful_calls_log_no_error),
        cmocka_unit_test(failure_is_recorded_and_sent_to_the_log_at_error_level),
        cmocka_unit_test(clear_error_forgets_the_last_failure),
        cmocka_unit_test(a_later_failure_replaces_the_message),
        cmocka_unit_test(a_failed_call_leaves_the_world_consistent),
        cmocka_unit_test(stale_entity_message_names_the_entity_index),
        cmocka_unit_test(missing_component_message_names_component_and_entity),
        cmocka_unit_test(unknown_component_message_names_the_id),
        cmocka_unit_test(mismatch_message_names_the_component),
        cmocka_unit_test(missing_resource_message_names_the_resource),
        cmocka_unit_test(invalid_query_message_names_the_component),
        cmocka_unit_test(world_without_a_logger_sends_messages_to_the_fallback_sink),
        cmocka_unit_test(world_with_a_logger_does_not_use_the_fallback_sink),
        cmocka_unit_test(a_null_world_hits_the_assert_hook),
    };
    return cmocka_run_group_tests_name("errors", tests, NULL, NULL);
}
