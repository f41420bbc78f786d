/* Schedules given arguments they refuse: no label, NULL names and descs, negative counts,
   executors and error policies out of range, systems whose queries reach one value twice;
   each refusal names what it refused and changes nothing. Also the world's error policy by
   default with and without a hook, and the apply_deferred marker called as a function. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schedule_fixture.h"

static void expect_error(ecs_sched_world *w, ecs_sched_result got, ecs_sched_result code,
                         const char *words) {
    assert_int_equal(got, code);
    assert_int_equal(ecs_sched_last_result(w), code);
    assert_non_null(strstr(ecs_sched_last_error(w), words));
    ecs_sched_clear_error(w);
}

static void a_schedule_needs_a_label(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_system_desc d;
    ecs_sched_set_desc set;
    (void)state;
    memset(&d, 0, sizeof d);
    d.name = "s";
    d.fn = record;
    memset(&set, 0, sizeof set);
    set.name = "group";
    expect_error(w, ecs_sched_add_system(w, "", &d), ECS_SCHED_ERR_INVALID_ARGUMENT,
                 "a schedule needs a label");
    expect_error(w, ecs_sched_add_system(w, NULL, &d), ECS_SCHED_ERR_INVALID_ARGUMENT,
                 "a schedule needs a label");
    expect_error(w, ecs_sched_configure_set(w, "", &set), ECS_SCHED_ERR_INVALID_ARGUMENT,
                 "a schedule needs a label");
    assert_false(ecs_sched_schedule_exists(w, ""));
    expect_error(w, ecs_sched_run_schedule(w, NULL), ECS_SCHED_ERR_UNKNOWN_SCHEDULE,
                 "there is no schedule '(null)'");
    check_and_destroy(w);
}

static void removing_a_system_needs_a_schedule_and_a_name_it_knows(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    trace_in(w, UPDATE, "kept");
    expect_error(w, ecs_sched_remove_system(w, NULL, "kept"), ECS_SCHED_ERR_INVALID_ARGUMENT,
                 "remove_system: give a schedule and a system's name");
    expect_error(w, ecs_sched_remove_system(w, UPDATE, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT,
                 "remove_system: give a schedule and a system's name");
    expect_error(w, ecs_sched_remove_system(w, "Nowhere", "kept"), ECS_SCHED_ERR_NOT_FOUND,
                 "remove_system: schedule 'Nowhere' has no system named 'kept'");
    expect_error(w, ecs_sched_remove_system(w, UPDATE, "ghost"), ECS_SCHED_ERR_NOT_FOUND,
                 "remove_system: schedule 'Update' has no system named 'ghost'");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_trace, "kept");
    check_and_destroy(w);
}

static void a_group_of_systems_needs_as_many_systems_as_it_counts(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_systems_desc group;
    (void)state;
    memset(&group, 0, sizeof group);
    expect_error(w, ecs_sched_add_systems(w, UPDATE, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT,
                 "add_systems: desc needs `count` systems");
    group.count = -1;
    expect_error(w, ecs_sched_add_systems(w, UPDATE, &group), ECS_SCHED_ERR_INVALID_ARGUMENT,
                 "add_systems: desc needs `count` systems");
    group.count = 2;
    expect_error(w, ecs_sched_add_systems(w, UPDATE, &group), ECS_SCHED_ERR_INVALID_ARGUMENT,
                 "add_systems: desc needs `count` systems");
    assert_false(ecs_sched_schedule_exists(w, UPDATE));
    group.count = 0;
    assert_int_equal(ecs_sched_add_systems(w, UPDATE, &group), ECS_SCHED_OK);
    check_and_destroy(w);
}

static void a_set_needs_a_name(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_set_desc set;
    (void)state;
    memset(&set, 0, sizeof set);
    expect_error(w, ecs_sched_configure_set(w, UPDATE, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT,
                 "configure_set: a set needs a name");
    expect_error(w, ecs_sched_configure_set(w, UPDATE, &set), ECS_SCHED_ERR_INVALID_ARGUMENT,
                 "configure_set: a set needs a name");
    set.name = "";
    expect_error(w, ecs_sched_configure_set(w, UPDATE, &set), ECS_SCHED_ERR_INVALID_ARGUMENT,
                 "configure_set: a set needs a name");
    check_and_destroy(w);
}

static void chaining_sets_needs_every_name_and_a_null_one_changes_nothing(void **state) {
    ecs_sched_world *w = new_world();
    const char *with_hole[3] = {"first", NULL, "third"};
    const char *two[2] = {"late", "early"};
    (void)state;
    expect_error(w, ecs_sched_chain_sets(w, UPDATE, -1, two, false), ECS_SCHED_ERR_INVALID_ARGUMENT,
                 "chain_sets: needs `count` set names");
    expect_error(w, ecs_sched_chain_sets(w, UPDATE, 2, NULL, false), ECS_SCHED_ERR_INVALID_ARGUMENT,
                 "chain_sets: needs `count` set names");
    expect_error(w, ecs_sched_chain_sets(w, NULL, 2, two, false), ECS_SCHED_ERR_INVALID_ARGUMENT,
                 "a schedule needs a label");
    expect_error(w, ecs_sched_chain_sets(w, UPDATE, 3, with_hole, false),
                 ECS_SCHED_ERR_INVALID_ARGUMENT, "chain_sets: set name 1 is NULL");
    /* "late" before "early": the two systems run in that order */
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                         .name = "e", .fn = record, .in_set = {"early"}}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                         .name = "l", .fn = record, .in_set = {"late"}}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_chain_sets(w, UPDATE, 2, two, false), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_trace, "l e");
    check_and_destroy(w);
}

static void a_schedule_desc_out_of_range_is_refused_naming_the_schedule(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_schedule_desc d;
    (void)state;
    memset(&d, 0, sizeof d);
    d.executor = (ecs_sched_executor)7;
    expect_error(w, ecs_sched_schedule_configure(w, UPDATE, &d), ECS_SCHED_ERR_INVALID_ARGUMENT,
                 "schedule_configure(\"Update\"): executor 7 is not one of");
    expect_error(w, ecs_sched_schedule_configure(w, NULL, &d), ECS_SCHED_ERR_INVALID_ARGUMENT,
                 "schedule_configure(\"(null)\"): executor 7");
    d.executor = ECS_SCHED_EXECUTOR_DEFAULT;
    d.on_error = (ecs_sched_error_policy)9;
    expect_error(w, ecs_sched_schedule_configure(w, UPDATE, &d), ECS_SCHED_ERR_INVALID_ARGUMENT,
                 "schedule_configure(\"Update\"): on_error 9 is not one of");
    expect_error(w, ecs_sched_schedule_configure(w, NULL, &d), ECS_SCHED_ERR_INVALID_ARGUMENT,
                 "schedule_configure(\"(null)\"): on_error 9");
    assert_false(ecs_sched_schedule_exists(w, UPDATE));
    check_and_destroy(w);
}

/* ---- queries of one system that reach one value twice ---- */

static void queries_reaching_one_value_twice_are_refused_with_a_hint(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    expect_error(w, ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                     .name = "twice", .fn = record,
                     .queries = {{{ecs_sched_write(c.position), ecs_sched_read(c.velocity)}},
                                 {{ecs_sched_read(c.position)}}}}),
                 ECS_SCHED_ERR_INVALID_QUERY,
                 "system 'twice': query 0 writes 'Position' and query 1 reads it");
    expect_error(w, ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                     .name = "twice", .fn = record,
                     .queries = {{{ecs_sched_write(c.position), ecs_sched_read(c.velocity)}},
                                 {{ecs_sched_read(c.position)}}}}),
                 ECS_SCHED_ERR_INVALID_QUERY, "(here: ecs_sched_without(Velocity) in query 1)");
    expect_error(w, ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                     .name = "again", .fn = record,
                     .queries = {{{ecs_sched_read(c.position)}},
                                 {{ecs_sched_write(c.position), ecs_sched_read(c.score)}}}}),
                 ECS_SCHED_ERR_INVALID_QUERY, "(here: ecs_sched_without(Score) in query 0)");
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                         .name = "optional", .fn = record,
                         .queries = {{{ecs_sched_write(c.position),
                                       ecs_sched_optional_read(c.velocity)}},
                                     {{ecs_sched_read(c.position)}}}}),
                     ECS_SCHED_ERR_INVALID_QUERY);
    assert_non_null(strstr(ecs_sched_last_error(w), "or join them into one query"));
    assert_null(strstr(ecs_sched_last_error(w), "(here:"));   /* an optional term separates nothing */
    expect_error(w, ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                     .name = "same", .fn = record,
                     .queries = {{{ecs_sched_write(c.position)}}, {{ecs_sched_write(c.position)}}}}),
                 ECS_SCHED_ERR_INVALID_QUERY, "or join them into one query");
    assert_int_equal(ecs_sched_remove_system(w, UPDATE, "same"), ECS_SCHED_ERR_NOT_FOUND);
    check_and_destroy(w);
}

/* ---- the world's error policy ---- */

static int g_hook_calls;

static ecs_sched_failure_action count_and_continue(const ecs_sched_failure *failure, void *user_data) {
    (void)user_data;
    assert_string_equal(failure->name, "fails");
    g_hook_calls++;
    return ECS_SCHED_FAILURE_CONTINUE;
}

static void fail_now(ecs_sched_system_ctx *ctx) {
    ecs_sched_ctx_fail(ctx, ECS_SCHED_ERR_SYSTEM_FAILED, "on purpose");
}

static void the_default_error_policy_is_the_hook_when_there_is_one_else_stop(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_error_hook hook, none;
    (void)state;
    memset(&hook, 0, sizeof hook);
    memset(&none, 0, sizeof none);
    hook.fn = count_and_continue;
    g_hook_calls = 0;
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                         .name = "fails", .fn = fail_now}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                         .name = "after", .fn = record, .after = {"fails"}}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_world_set_error_policy(w, ECS_SCHED_ON_ERROR_DEFAULT, hook), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SYSTEM_FAILED);
    assert_int_equal(g_hook_calls, 1);
    assert_string_equal(g_trace, "after");
    g_trace[0] = '\0';
    assert_int_equal(ecs_sched_world_set_error_policy(w, ECS_SCHED_ON_ERROR_DEFAULT, none), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SYSTEM_FAILED);
    assert_int_equal(g_hook_calls, 1);
    assert_string_equal(g_trace, "");
    expect_error(w, ecs_sched_world_set_error_policy(w, (ecs_sched_error_policy)8, none),
                 ECS_SCHED_ERR_INVALID_ARGUMENT, "world_set_error_policy: the policy is not one of");
    expect_error(w, ecs_sched_world_set_error_policy(w, ECS_SCHED_ON_ERROR_HOOK, none),
                 ECS_SCHED_ERR_INVALID_ARGUMENT, "_HOOK without hook.fn");
    ecs_sched_world_destroy(w);
    g_world = NULL;
}

/* ---- apply_deferred called as a function ---- */

static int32_t g_pending;

static void spawn_then_call_apply_deferred(ecs_sched_system_ctx *ctx) {
    ecs_sched_commands *cmd = ecs_sched_ctx_commands(ctx);
    ecs_sched_commands_spawn(cmd);
    ecs_sched_apply_deferred(ctx);
    g_pending = ecs_sched_commands_pending(cmd);
}

static void calling_apply_deferred_in_a_system_applies_nothing_then(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_pending = -1;
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                         .name = "spawner", .fn = spawn_then_call_apply_deferred,
                         .commands = true}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_entity_count(w), 0);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_pending, 1);
    assert_int_equal(ecs_sched_entity_count(w), 1);
    check_and_destroy(w);
}

/* ---- removals and groups keep what the others declared ---- */

static ecs_sched_condition condition_of(const char *name, bool (*fn)(ecs_sched_system_ctx *)) {
    ecs_sched_condition c;
    memset(&c, 0, sizeof c);
    c.name = name;
    c.fn = fn;
    return c;
}

static void removing_a_system_keeps_the_conditions_of_the_others(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_condition no = condition_of("no", always_false);
    ecs_sched_condition yes = condition_of("yes", always_true);
    (void)state;
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                         .name = "a", .fn = record, .run_if = {&yes}}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                         .name = "b", .fn = record, .run_if = {&no}, .after = {"a"}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                         .name = "c", .fn = record, .run_if = {&yes}, .after = {"b"}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_trace, "a c");
    assert_int_equal(ecs_sched_remove_system(w, UPDATE, "c"), ECS_SCHED_OK);
    g_trace[0] = '\0';
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_trace, "a");   /* b is still held by its condition */
    check_and_destroy(w);
}

static void a_group_sharing_only_an_order_without_sync_point_is_ordered_by_it(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_system_desc pair[2];
    ecs_sched_systems_desc group;
    (void)state;
    trace_in(w, UPDATE, "first");
    trace_in(w, UPDATE, "last");
    memset(pair, 0, sizeof pair);
    pair[0].name = "x";
    pair[0].fn = record;
    pair[1].name = "y";
    pair[1].fn = record;
    memset(&group, 0, sizeof group);
    group.systems = pair;
    group.count = 2;
    group.chain = true;
    group.after_ignore_deferred[0] = "first";
    group.before_ignore_deferred[0] = "last";
    assert_int_equal(ecs_sched_add_systems(w, UPDATE, &group), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_trace, "first x y last");
    check_and_destroy(w);
}

static void a_group_sharing_only_an_ambiguity_is_grouped(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_system_desc pair[2];
    ecs_sched_systems_desc group;
    (void)state;
    trace_in(w, UPDATE, "other");
    memset(pair, 0, sizeof pair);
    pair[0].name = "x";
    pair[0].fn = record;
    pair[1].name = "y";
    pair[1].fn = record;
    memset(&group, 0, sizeof group);
    group.systems = pair;
    group.count = 2;
    group.chain = true;
    group.ambiguous_with[0] = "other";
    assert_int_equal(ecs_sched_add_systems(w, UPDATE, &group), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_non_null(strstr(g_trace, "x y"));
    assert_non_null(strstr(g_trace, "other"));
    check_and_destroy(w);
}

/* ---- resources a system's queries name ---- */

static void resources_named_by_queries_count_with_the_declared_ones(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    ecs_sched_id res[9];
    ecs_sched_system_desc d;
    char name[16];
    int i;
    (void)state;
    for (i = 0; i < 9; i++) {
        snprintf(name, sizeof name, "R%d", i);
        res[i] = ecs_sched_component_register_type(w, name, sizeof(int), 0);
        assert_int_equal(ecs_sched_resource_insert(w, res[i], NULL), ECS_SCHED_OK);
    }
    memset(&d, 0, sizeof d);
    d.name = "greedy";
    d.fn = record;
    for (i = 0; i < ECS_SCHED_MAX_RESOURCES; i++) d.reads[i] = res[i];
    d.queries[0].terms[0] = ecs_sched_read(c.position);
    d.queries[0].terms[1] = ecs_sched_resource_read(res[0]);   /* declared already: counted once */
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &d), ECS_SCHED_OK);
    d.name = "too_greedy";
    d.queries[0].terms[1] = ecs_sched_resource_read(res[8]);
    expect_error(w, ecs_sched_add_system(w, UPDATE, &d), ECS_SCHED_ERR_LIMIT,
                 "add_system: system 'too_greedy' names more resources than it can hold");
    d.name = "writer";
    memset(d.reads, 0, sizeof d.reads);
    d.writes[0] = res[1];
    d.queries[0].terms[1] = ecs_sched_resource_write(res[1]);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &d), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_remove_system(w, UPDATE, "too_greedy"), ECS_SCHED_ERR_NOT_FOUND);
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(removing_a_system_keeps_the_conditions_of_the_others),
        cmocka_unit_test(a_group_sharing_only_an_order_without_sync_point_is_ordered_by_it),
        cmocka_unit_test(a_group_sharing_only_an_ambiguity_is_grouped),
        cmocka_unit_test(resources_named_by_queries_count_with_the_declared_ones),
        cmocka_unit_test(a_schedule_needs_a_label),
        cmocka_unit_test(removing_a_system_needs_a_schedule_and_a_name_it_knows),
        cmocka_unit_test(a_group_of_systems_needs_as_many_systems_as_it_counts),
        cmocka_unit_test(a_set_needs_a_name),
        cmocka_unit_test(chaining_sets_needs_every_name_and_a_null_one_changes_nothing),
        cmocka_unit_test(a_schedule_desc_out_of_range_is_refused_naming_the_schedule),
        cmocka_unit_test(queries_reaching_one_value_twice_are_refused_with_a_hint),
        cmocka_unit_test(the_default_error_policy_is_the_hook_when_there_is_one_else_stop),
        cmocka_unit_test(calling_apply_deferred_in_a_system_applies_nothing_then),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
