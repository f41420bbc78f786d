/* The error rule (the ERRORS section of the header's documentation block): what each kind of
   public call returns when it fails, what it records, what the logger receives, and what
   asserts. One failing call of each kind. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

/* Programmer errors reach cmocka's assert check, so expect_assert_failure can see them. */
#define ECS_SCHED_ASSERT(cond) mock_assert((int)(cond), #cond, __FILE__, __LINE__)
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include "world_fixture.h"

/* ---- 1. actions return a result code ---- */

static void a_failing_action_returns_its_code_and_records_it(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity e = ecs_sched_spawn(w);
    (void)state;
    assert_int_equal(ecs_sched_despawn(w, e), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, e), ECS_SCHED_ERR_STALE_ENTITY);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_STALE_ENTITY);
    assert_true(ecs_sched_last_error(w)[0] != '\0');
    check_and_destroy(w);
}

/* ---- 2. makers return NULL / 0 / the null entity ---- */

static void a_failing_maker_returns_null_and_records_why(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id unknown = 4242;
    (void)state;
    assert_null(QUERY(w, ecs_sched_read(unknown)));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_spawn_with(w, 1, &unknown, NULL), ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_component_register_type(w, NULL, 4, 4), 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_ARGUMENT);
    check_and_destroy(w);
}

/* ---- 3. counts return -1 ---- */

static void a_failing_count_returns_minus_one_and_records_why(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    const char *names[4];
    (void)state;
    assert_int_equal(ecs_sched_schedule_order(w, "Nowhere", names, 4), -1);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_UNKNOWN_SCHEDULE);
    check_and_destroy(w);
}

/* ---- 4. questions never fail ---- */

static void a_question_about_something_missing_answers_no_and_records_nothing(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity gone = ecs_sched_spawn(w);
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    (void)state;
    assert_int_equal(ecs_sched_despawn(w, gone), ECS_SCHED_OK);
    assert_false(ecs_sched_is_alive(w, gone));
    assert_false(ecs_sched_has(w, gone, pos));
    assert_false(ecs_sched_resource_exists(w, pos));
    assert_false(ecs_sched_schedule_exists(w, "Nowhere"));
    assert_int_equal(ecs_sched_component_lookup(w, "Nothing"), 0);
    assert_null(ecs_sched_component_name(w, 4242));
    assert_int_equal(ecs_sched_component_size(w, 4242), 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_OK);
    assert_int_equal(log.count, 0);
    check_and_destroy(w);
}

/* ---- 5. the record stays; the logger learns the code ---- */

static void a_success_does_not_clear_the_last_failure(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    (void)state;
    assert_int_equal(ecs_sched_despawn(w, 12345), ECS_SCHED_ERR_STALE_ENTITY);
    assert_true(ecs_sched_spawn(w) != ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_STALE_ENTITY);
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_OK);
    assert_string_equal(ecs_sched_last_error(w), "");
    check_and_destroy(w);
}

static void the_logger_receives_the_code_of_each_error(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    (void)state;
    assert_int_equal(ecs_sched_despawn(w, 12345), ECS_SCHED_ERR_STALE_ENTITY);
    assert_int_equal(log.last_level, ECS_SCHED_LOG_ERROR);
    assert_int_equal(log.last_result, ECS_SCHED_ERR_STALE_ENTITY);
    assert_int_equal(ecs_sched_run_schedule(w, "Nowhere"), ECS_SCHED_ERR_UNKNOWN_SCHEDULE);
    assert_int_equal(log.last_result, ECS_SCHED_ERR_UNKNOWN_SCHEDULE);
    check_and_destroy(w);
}

static void a_warning_carries_the_code_of_the_rule_that_warns(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_system_desc a, b;
    (void)state;
    memset(&a, 0, sizeof a);
    a.name = "a";
    a.fn = noop;
    a.queries[0].terms[0] = ecs_sched_write(pos);
    b = a;
    b.name = "b";
    assert_int_equal(ecs_sched_add_system(w, "Update", &a), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, "Update", &b), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_schedule_build(w, "Update"), ECS_SCHED_OK);
    assert_int_equal(log.last_level, ECS_SCHED_LOG_WARN);
    assert_int_equal(log.last_result, ECS_SCHED_ERR_AMBIGUITY);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_OK);  /* a warning is no failure */
    check_and_destroy(w);
}

static void world_create_failures_reach_the_descs_logger_with_their_code(void **state) {
    captured_log log;
    ecs_sched_world_desc desc = logged_world_desc(&log);
    (void)state;
    desc.thread_count = -1;
    assert_null(ecs_sched_world_create(&desc));
    assert_int_equal(log.errors, 1);
    assert_int_equal(log.last_result, ECS_SCHED_ERR_INVALID_ARGUMENT);
}

/* ---- 6. programmer errors with nothing to report to assert ---- */

static void null_handles_and_missing_functions_hit_the_assert_hook(void **state) {
    ecs_sched_pool *pool = ecs_sched_pool_create(NULL);
    (void)state;
    assert_non_null(pool);
    expect_assert_failure(ecs_sched_entity_count(NULL));
    expect_assert_failure(ecs_sched_query_count(NULL));
    expect_assert_failure(ecs_sched_commands_pending(NULL));
    expect_assert_failure(ecs_sched_ctx_name(NULL));
    expect_assert_failure(ecs_sched_pool_submit(pool, NULL, NULL, NULL));
    ecs_sched_pool_destroy(pool);
}

/* ---- 7. a schedule changed by its own system ---- */

static void add_and_build_own_schedule(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    ecs_sched_system_desc late;
    ecs_sched_result *seen = (ecs_sched_result *)ecs_sched_ctx_user_data(ctx);
    if (*seen != ECS_SCHED_OK) return;  /* once */
    memset(&late, 0, sizeof late);
    late.name = "late";
    late.fn = noop;
    assert_int_equal(ecs_sched_add_system(w, "Main", &late), ECS_SCHED_OK);
    *seen = ecs_sched_schedule_build(w, "Main");
    ecs_sched_ctx_clear_error(ctx);   /* handled: the test looks at it */
}

static void building_a_schedule_from_its_own_run_gives_err_schedule_running(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_result seen = ECS_SCHED_OK;
    ecs_sched_system_desc changer;
    const char *names[4];
    (void)state;
    memset(&changer, 0, sizeof changer);
    changer.name = "changer";
    changer.fn = add_and_build_own_schedule;
    changer.exclusive = true;
    changer.user_data = &seen;
    assert_int_equal(ecs_sched_add_system(w, "Main", &changer), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, "Main"), ECS_SCHED_OK);
    assert_int_equal(seen, ECS_SCHED_ERR_SCHEDULE_RUNNING);
    assert_true(strstr(ecs_sched_last_error(w), "'Main'") != NULL);
    /* the next run starts with a rebuild that holds the new system */
    assert_int_equal(ecs_sched_run_schedule(w, "Main"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_schedule_order(w, "Main", names, 4), 2);
    assert_string_equal(names[1], "late");
    check_and_destroy(w);
}

/* ---- desc size ---- */

static void a_system_desc_with_default_limits_fits_in_two_kilobytes(void **state) {
    (void)state;
    /* descs are built on the stack, often fifty at a time for add_systems; a term is 16 bytes
       (a related term carries its target), so four queries of sixteen terms take 1 KiB */
    assert_true(sizeof(ecs_sched_system_desc) <= 2048);
    assert_true(sizeof(ecs_sched_set_desc) <= 1024);
    assert_true(sizeof(ecs_sched_systems_desc) <= 1024);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_failing_action_returns_its_code_and_records_it),
        cmocka_unit_test(a_failing_maker_returns_null_and_records_why),
        cmocka_unit_test(a_failing_count_returns_minus_one_and_records_why),
        cmocka_unit_test(a_question_about_something_missing_answers_no_and_records_nothing),
        cmocka_unit_test(a_success_does_not_clear_the_last_failure),
        cmocka_unit_test(the_logger_receives_the_code_of_each_error),
        cmocka_unit_test(a_warning_carries_the_code_of_the_rule_that_warns),
        cmocka_unit_test(world_create_failures_reach_the_descs_logger_with_their_code),
        cmocka_unit_test(null_handles_and_missing_functions_hit_the_assert_hook),
        cmocka_unit_test(building_a_schedule_from_its_own_run_gives_err_schedule_running),
        cmocka_unit_test(a_system_desc_with_default_limits_fits_in_two_kilobytes),
    };
    return cmocka_run_group_tests_name("error rule", tests, NULL, NULL);
}
