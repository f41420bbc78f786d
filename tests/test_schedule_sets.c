/* System sets: in_set builds a hierarchy, before/after order systems and sets alike, a set's
   order applies to everything under it, and configuration only ever adds and may come in any
   order. Bulk-added systems share configuration through an anonymous set; chain orders them one
   after the other. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "schedule_fixture.h"

static int g_condition_calls;

static bool counted_true(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    g_condition_calls++;
    return true;
}

/* ---- sets and their order ---- */

static void systems_follow_the_order_of_their_sets(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "physics", .before = {"render"});
    ADD_SYSTEM(w, .name = "draw", .fn = record, .in_set = {"render"});
    ADD_SYSTEM(w, .name = "integrate", .fn = record, .in_set = {"physics"});
    assert_string_equal(plan_of(w, UPDATE), "integrate draw");
    assert_run_traces(w, "integrate draw");
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void system_after_a_set_waits_for_every_member(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "report", .fn = record, .after = {"work"});
    ADD_SYSTEM(w, .name = "w1", .fn = record, .in_set = {"work"});
    ADD_SYSTEM(w, .name = "w2", .fn = record, .in_set = {"work"});
    ADD_SYSTEM(w, .name = "w3", .fn = record, .in_set = {"work"});
    assert_string_equal(plan_of(w, UPDATE), "w1 w2 w3 report");
    check_and_destroy(w);
}

static void system_before_a_set_runs_ahead_of_every_member(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "w1", .fn = record, .in_set = {"work"});
    ADD_SYSTEM(w, .name = "w2", .fn = record, .in_set = {"work"});
    ADD_SYSTEM(w, .name = "prepare", .fn = record, .before = {"work"});
    assert_string_equal(plan_of(w, UPDATE), "prepare w1 w2");
    check_and_destroy(w);
}

static void set_ordered_after_a_system_puts_its_members_after_it(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "work", .after = {"prepare"});
    ADD_SYSTEM(w, .name = "w1", .fn = record, .in_set = {"work"});
    ADD_SYSTEM(w, .name = "prepare", .fn = record);
    assert_string_equal(plan_of(w, UPDATE), "prepare w1");
    check_and_destroy(w);
}

static void system_in_several_sets_obeys_the_order_of_each(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "after_start", .after = {"start"});
    CONFIGURE_SET(w, .name = "before_finish", .before = {"finish"});
    ADD_SYSTEM(w, .name = "finish", .fn = record);
    ADD_SYSTEM(w, .name = "both", .fn = record, .in_set = {"after_start", "before_finish"});
    ADD_SYSTEM(w, .name = "start", .fn = record);
    assert_string_equal(plan_of(w, UPDATE), "start both finish");
    assert_run_traces(w, "start both finish");
    check_and_destroy(w);
}

static void set_in_several_sets_obeys_the_order_of_each(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "after_start", .after = {"start_set"});
    CONFIGURE_SET(w, .name = "before_finish", .before = {"finish_set"});
    CONFIGURE_SET(w, .name = "inner", .in_set = {"after_start", "before_finish"});
    ADD_SYSTEM(w, .name = "finish", .fn = record, .in_set = {"finish_set"});
    ADD_SYSTEM(w, .name = "member", .fn = record, .in_set = {"inner"});
    ADD_SYSTEM(w, .name = "start", .fn = record, .in_set = {"start_set"});
    assert_string_equal(plan_of(w, UPDATE), "start member finish");
    check_and_destroy(w);
}

static void nested_set_inherits_the_order_of_its_parent(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "outer", .after = {"setup"});
    CONFIGURE_SET(w, .name = "inner", .in_set = {"outer"});
    ADD_SYSTEM(w, .name = "deep", .fn = record, .in_set = {"inner"});
    ADD_SYSTEM(w, .name = "setup", .fn = record);
    assert_string_equal(plan_of(w, UPDATE), "setup deep");
    check_and_destroy(w);
}

static void sets_inside_one_parent_can_be_ordered_among_themselves(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "late", .in_set = {"frame"});
    CONFIGURE_SET(w, .name = "early", .in_set = {"frame"}, .before = {"late"});
    ADD_SYSTEM(w, .name = "l", .fn = record, .in_set = {"late"});
    ADD_SYSTEM(w, .name = "e", .fn = record, .in_set = {"early"});
    assert_string_equal(plan_of(w, UPDATE), "e l");
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

/* ---- configuration is additive and order-independent ---- */

static void configure_ordering(ecs_sched_world *w) {
    CONFIGURE_SET(w, .name = "input", .before = {"logic"});
    CONFIGURE_SET(w, .name = "logic", .before = {"render"});
    CONFIGURE_SET(w, .name = "ai", .in_set = {"logic"}, .after = {"movement"});
    CONFIGURE_SET(w, .name = "movement", .in_set = {"logic"});
}

static void add_game_systems(ecs_sched_world *w) {
    ADD_SYSTEM(w, .name = "draw", .fn = record, .in_set = {"render"});
    ADD_SYSTEM(w, .name = "think", .fn = record, .in_set = {"ai"});
    ADD_SYSTEM(w, .name = "walk", .fn = record, .in_set = {"movement"});
    ADD_SYSTEM(w, .name = "read_keys", .fn = record, .in_set = {"input"});
    ADD_SYSTEM(w, .name = "present", .fn = record, .after = {"draw"}, .in_set = {"render"});
}

static void configuring_sets_after_their_systems_gives_the_same_order(void **state) {
    ecs_sched_world *w = new_world();
    char first[4096];
    (void)state;
    configure_ordering(w);
    add_game_systems(w);
    snprintf(first, sizeof first, "%s", plan_of(w, UPDATE));
    assert_string_equal(first, "read_keys walk think draw present");
    check_and_destroy(w);

    w = new_world();
    add_game_systems(w);
    configure_ordering(w);
    assert_string_equal(plan_of(w, UPDATE), first);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_trace, first);
    check_and_destroy(w);
}

static void configuring_a_set_again_adds_to_its_configuration(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "middle", .before = {"end"});
    ADD_SYSTEM(w, .name = "end", .fn = record);
    ADD_SYSTEM(w, .name = "m", .fn = record, .in_set = {"middle"});
    ADD_SYSTEM(w, .name = "begin", .fn = record);
    assert_string_equal(plan_of(w, UPDATE), "m end begin");
    CONFIGURE_SET(w, .name = "middle", .after = {"begin"});
    assert_string_equal(plan_of(w, UPDATE), "begin m end");
    check_and_destroy(w);
}

static void repeating_a_membership_is_harmless(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "inner", .in_set = {"outer"});
    CONFIGURE_SET(w, .name = "inner", .in_set = {"outer"});
    ADD_SYSTEM(w, .name = "a", .fn = record, .in_set = {"inner", "inner"});
    assert_int_equal(ecs_sched_schedule_build(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(plan_of(w, UPDATE), "a");
    check_and_destroy(w);
}

static void naming_an_unknown_set_creates_it(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "consumer", .fn = record, .after = {"fresh"});
    ADD_SYSTEM(w, .name = "producer", .fn = record, .in_set = {"fresh"});
    assert_run_traces(w, "producer consumer");
    assert_int_equal(g_log.count, 0); /* a set something is in is known, not "unknown" */
    check_and_destroy(w);
}

/* ---- the default set ---- */

static void default_set_receives_systems_given_no_set(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &(ecs_sched_schedule_desc){
                                                      .default_set = "Main"}),
                     ECS_SCHED_OK);
    CONFIGURE_SET(w, .name = "Main", .after = {"Input"});
    ADD_SYSTEM(w, .name = "movement", .fn = record);
    ADD_SYSTEM(w, .name = "combat", .fn = record);
    ADD_SYSTEM(w, .name = "read_input", .fn = record, .in_set = {"Input"});
    assert_string_equal(plan_of(w, UPDATE), "read_input movement combat");
    assert_run_traces(w, "read_input movement combat");
    check_and_destroy(w);
}

static void default_set_can_be_named_after_the_systems_are_added(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "movement", .fn = record);
    ADD_SYSTEM(w, .name = "read_input", .fn = record, .in_set = {"Input"});
    CONFIGURE_SET(w, .name = "Main", .after = {"Input"});
    assert_string_equal(plan_of(w, UPDATE), "movement read_input");
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &(ecs_sched_schedule_desc){
                                                      .default_set = "Main"}),
                     ECS_SCHED_OK);
    assert_string_equal(plan_of(w, UPDATE), "read_input movement");
    check_and_destroy(w);
}

static void default_set_leaves_systems_with_a_set_where_they_are(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &(ecs_sched_schedule_desc){
                                                      .default_set = "Main",
                                                      .cross_set_dependencies = ECS_SCHED_REPORT_ERROR}),
                     ECS_SCHED_OK);
    /* were read_input put in Main too, Main after Input would order it against its own set */
    CONFIGURE_SET(w, .name = "Main", .after = {"Input"});
    ADD_SYSTEM(w, .name = "read_input", .fn = record, .in_set = {"Input"});
    ADD_SYSTEM(w, .name = "movement", .fn = record);
    assert_run_traces(w, "read_input movement");
    check_and_destroy(w);
}

static void default_set_conditions_guard_the_systems_given_no_set(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &(ecs_sched_schedule_desc){
                                                      .default_set = "Main"}),
                     ECS_SCHED_OK);
    CONFIGURE_SET(w, .name = "Main", .run_if = {&(ecs_sched_condition){.fn = always_false}});
    ADD_SYSTEM(w, .name = "defaulted", .fn = record);
    ADD_SYSTEM(w, .name = "placed", .fn = record, .in_set = {"Elsewhere"});
    assert_run_traces(w, "placed");
    check_and_destroy(w);
}

static void default_set_no_system_falls_into_is_no_unknown_set(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &(ecs_sched_schedule_desc){
                                                      .default_set = "Main"}),
                     ECS_SCHED_OK);
    ADD_SYSTEM(w, .name = "placed", .fn = record, .in_set = {"Elsewhere"});
    assert_run_traces(w, "placed");
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void replacing_the_default_set_forgets_the_old_one(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &(ecs_sched_schedule_desc){
                                                      .default_set = "Main"}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &(ecs_sched_schedule_desc){
                                                      .default_set = "Game"}),
                     ECS_SCHED_OK);
    ADD_SYSTEM(w, .name = "play", .fn = record);
    assert_run_traces(w, "play");
    assert_int_equal(g_log.count, 0); /* no word about a set 'Main' nobody uses any more */
    check_and_destroy(w);
}

/* ---- several systems at once ---- */

static void shared_configuration_applies_to_every_system_of_the_group(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "g1", .fn = record}, {.name = "g2", .fn = record}),
                .count = 2, .after = {"setup"}, .before = {"teardown"});
    ADD_SYSTEM(w, .name = "teardown", .fn = record);
    ADD_SYSTEM(w, .name = "setup", .fn = record);
    assert_string_equal(plan_of(w, UPDATE), "setup g1 g2 teardown");
    assert_run_traces(w, "setup g1 g2 teardown");
    check_and_destroy(w);
}

static void shared_in_set_puts_every_system_of_the_group_in_the_set(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "late", .after = {"early"});
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "l1", .fn = record}, {.name = "l2", .fn = record}),
                .count = 2, .in_set = {"late"});
    ADD_SYSTEM(w, .name = "e", .fn = record, .in_set = {"early"});
    assert_string_equal(plan_of(w, UPDATE), "e l1 l2");
    check_and_destroy(w);
}

static void group_members_keep_their_own_configuration(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "g1", .fn = record, .after = {"x"}},
                                      {.name = "g2", .fn = record}),
                .count = 2, .in_set = {"group"});
    ADD_SYSTEM(w, .name = "x", .fn = record);
    assert_string_equal(plan_of(w, UPDATE), "g2 x g1");
    check_and_destroy(w);
}

static void shared_run_if_is_evaluated_once_for_the_whole_group(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_condition_calls = 0;
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "g1", .fn = record}, {.name = "g2", .fn = record},
                                      {.name = "g3", .fn = record}),
                .count = 3, .run_if = {&(ecs_sched_condition){.fn = counted_true}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_condition_calls, 1);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_condition_calls, 2);
    assert_string_equal(g_trace, "g1 g2 g3 g1 g2 g3");
    check_and_destroy(w);
}

static void false_shared_run_if_skips_the_group_only(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "outsider", .fn = record);
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "g1", .fn = record}, {.name = "g2", .fn = record}),
                .count = 2, .run_if = {&(ecs_sched_condition){.fn = always_false}});
    ADD_SYSTEM(w, .name = "another", .fn = record);
    assert_run_traces(w, "outsider another");
    check_and_destroy(w);
}

static void groups_without_shared_configuration_add_plain_systems(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "a", .fn = record}, {.name = "b", .fn = record}),
                .count = 2);
    ADD_SYSTEM(w, .name = "c", .fn = record, .before = {"a"});
    assert_string_equal(plan_of(w, UPDATE), "b c a");
    check_and_destroy(w);
}

static void chain_runs_each_system_before_the_next(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    /* without the chain, b would run first: nothing orders it and it was added before c */
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "a", .fn = record}, {.name = "b", .fn = record}),
                .count = 2, .chain = true);
    ADD_SYSTEM(w, .name = "c", .fn = record, .before = {"a"});
    assert_string_equal(plan_of(w, UPDATE), "c a b");
    assert_run_traces(w, "c a b");
    check_and_destroy(w);
}

static void chain_links_every_consecutive_pair(void **state) {
    ecs_sched_world *w = new_world();
    uint64_t seed;
    (void)state;
    ADD_SYSTEM(w, .name = "x", .fn = record);
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "c1", .fn = record}, {.name = "c2", .fn = record},
                                      {.name = "c3", .fn = record}, {.name = "c4", .fn = record}),
                .count = 4, .chain = true);
    ADD_SYSTEM(w, .name = "y", .fn = record);
    for (seed = 1; seed <= 24; seed++) {
        const char *plan;
        assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &(ecs_sched_schedule_desc){
                                                          .shuffle_seed = seed}),
                         ECS_SCHED_OK);
        plan = plan_of(w, UPDATE);
        assert_true(strstr(plan, "c1") < strstr(plan, "c2"));
        assert_true(strstr(plan, "c2") < strstr(plan, "c3"));
        assert_true(strstr(plan, "c3") < strstr(plan, "c4"));
    }
    check_and_destroy(w);
}

static void chained_instances_of_one_system_are_distinct(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "step", .fn = record, .user_data = "step#1"},
                                      {.name = "check", .fn = record},
                                      {.name = "step", .fn = record, .user_data = "step#2"}),
                .count = 3, .chain = true);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(plan_of(w, UPDATE), "step check step");
    assert_string_equal(g_trace, "step#1 check step#2");
    assert_int_equal(g_log.count, 0); /* no duplicate-name complaint */
    check_and_destroy(w);
}

static void chain_with_shared_configuration_orders_the_group_as_a_whole(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "a", .fn = record}, {.name = "b", .fn = record}),
                .count = 2, .chain = true, .in_set = {"middle"}, .after = {"first"});
    CONFIGURE_SET(w, .name = "middle", .before = {"last"});
    ADD_SYSTEM(w, .name = "last", .fn = record);
    ADD_SYSTEM(w, .name = "first", .fn = record);
    assert_string_equal(plan_of(w, UPDATE), "first a b last");
    check_and_destroy(w);
}

static void chain_sets_orders_each_set_before_the_next(void **state) {
    static const char *const stages[] = {"input", "logic", "render"};
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "draw", .fn = record, .in_set = {"render"});
    ADD_SYSTEM(w, .name = "think", .fn = record, .in_set = {"logic"});
    ADD_SYSTEM(w, .name = "poll", .fn = record, .in_set = {"input"});
    assert_int_equal(ecs_sched_chain_sets(w, UPDATE, 3, stages, false), ECS_SCHED_OK);
    assert_string_equal(plan_of(w, UPDATE), "poll think draw");
    assert_run_traces(w, "poll think draw");
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void group_member_may_repeat_the_groups_set(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "a", .fn = record, .in_set = {"X"}},
                                      {.name = "b", .fn = record}),
                .count = 2, .in_set = {"X"});
    ADD_SYSTEM(w, .name = "after_x", .fn = record, .after = {"X"});
    assert_run_traces(w, "a b after_x");
    check_and_destroy(w);
}

static void refused_add_leaves_no_set_name_behind(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id score = ECS_SCHED_COMPONENT(w, Score);
    char too_small = 0;
    (void)state;
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                                              .name = "refused", .fn = record, .in_set = {"ghost"},
                                              .run_if = {ECS_SCHED_COND(ecs_sched_condition_resource_equals(
                                                  score, &too_small, sizeof too_small))}}),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    memset(&g_log, 0, sizeof g_log);
    ADD_SYSTEM(w, .name = "ghost", .fn = record);
    assert_run_traces(w, "ghost");
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void a_group_does_not_join_a_user_set_that_shares_its_internal_name(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "group 1", .run_if = {&(ecs_sched_condition){.fn = always_false}});
    ADD_SYSTEM(w, .name = "guarded", .fn = record, .in_set = {"group 1"});
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "g1", .fn = record}, {.name = "g2", .fn = record}),
                .count = 2, .run_if = {&(ecs_sched_condition){.fn = counted_true}});
    assert_run_traces(w, "g1 g2");
    check_and_destroy(w);
}

/* A group is an array of system descs, often a compound literal on the stack; the default
   limits keep each one about a kilobyte (1032 bytes on 64-bit targets: a kilobyte of
   queries, resources and configuration, and the query text). */
static void a_system_desc_fits_in_about_a_kilobyte(void **state) {
    (void)state;
    assert_true(sizeof(ecs_sched_system_desc) <= 1024 + sizeof(const char *));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(systems_follow_the_order_of_their_sets),
        cmocka_unit_test(system_after_a_set_waits_for_every_member),
        cmocka_unit_test(system_before_a_set_runs_ahead_of_every_member),
        cmocka_unit_test(set_ordered_after_a_system_puts_its_members_after_it),
        cmocka_unit_test(system_in_several_sets_obeys_the_order_of_each),
        cmocka_unit_test(set_in_several_sets_obeys_the_order_of_each),
        cmocka_unit_test(nested_set_inherits_the_order_of_its_parent),
        cmocka_unit_test(sets_inside_one_parent_can_be_ordered_among_themselves),
        cmocka_unit_test(configuring_sets_after_their_systems_gives_the_same_order),
        cmocka_unit_test(configuring_a_set_again_adds_to_its_configuration),
        cmocka_unit_test(repeating_a_membership_is_harmless),
        cmocka_unit_test(naming_an_unknown_set_creates_it),
        cmocka_unit_test(default_set_receives_systems_given_no_set),
        cmocka_unit_test(default_set_can_be_named_after_the_systems_are_added),
        cmocka_unit_test(default_set_leaves_systems_with_a_set_where_they_are),
        cmocka_unit_test(default_set_conditions_guard_the_systems_given_no_set),
        cmocka_unit_test(default_set_no_system_falls_into_is_no_unknown_set),
        cmocka_unit_test(replacing_the_default_set_forgets_the_old_one),
        cmocka_unit_test(shared_configuration_applies_to_every_system_of_the_group),
        cmocka_unit_test(shared_in_set_puts_every_system_of_the_group_in_the_set),
        cmocka_unit_test(group_members_keep_their_own_configuration),
        cmocka_unit_test(shared_run_if_is_evaluated_once_for_the_whole_group),
        cmocka_unit_test(false_shared_run_if_skips_the_group_only),
        cmocka_unit_test(groups_without_shared_configuration_add_plain_systems),
        cmocka_unit_test(chain_runs_each_system_before_the_next),
        cmocka_unit_test(chain_links_every_consecutive_pair),
        cmocka_unit_test(chained_instances_of_one_system_are_distinct),
        cmocka_unit_test(chain_with_shared_configuration_orders_the_group_as_a_whole),
        cmocka_unit_test(chain_sets_orders_each_set_before_the_next),
        cmocka_unit_test(group_member_may_repeat_the_groups_set),
        cmocka_unit_test(refused_add_leaves_no_set_name_behind),
        cmocka_unit_test(a_group_does_not_join_a_user_set_that_shares_its_internal_name),
        cmocka_unit_test(a_system_desc_fits_in_about_a_kilobyte),
    };
    return cmocka_run_group_tests_name("schedule sets", tests, NULL, destroy_leftover_world);
}
