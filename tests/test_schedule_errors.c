/* Schedule build errors. Contradictions (cycles, hierarchy cycles and redundancy, ordering
   against a containing set, a name used for systems and a set, ordering against a name several
   systems share, ordering against a name that names nothing) fail the build by default;
   cross-set dependencies and ambiguities warn by default; each reported rule can be ignored,
   made a warning or an error. A failed build runs nothing and changes nothing;
   the message names the culprits. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "schedule_fixture.h"

static void configure_levels(ecs_sched_world *w, ecs_sched_report cross_set, ecs_sched_report unknown,
                             ecs_sched_report ambiguities, ecs_sched_report duplicates) {
    ecs_sched_schedule_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.cross_set_dependencies = cross_set;
    desc.unknown_sets = unknown;
    desc.ambiguities = ambiguities;
    desc.duplicate_names = duplicates;
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &desc), ECS_SCHED_OK);
}

/* A failed build: the run returns the code, no system runs, and the message is kept and logged
   as an error. */
static void expect_build_failure(ecs_sched_world *w, ecs_sched_result code) {
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), code);
    assert_string_equal(g_trace, "");
    assert_int_equal(ecs_sched_last_result(w), code);
    assert_true(g_log.errors >= 1);
    assert_contains(g_log.text, ecs_sched_last_error(w));
    assert_int_equal(ecs_sched_schedule_build(w, UPDATE), code);
}

/* ---- contradictions: always errors ---- */

static void dependency_cycle_fails_and_shows_the_path(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "a", .fn = record, .before = {"b"});
    ADD_SYSTEM(w, .name = "b", .fn = record, .before = {"c"});
    ADD_SYSTEM(w, .name = "c", .fn = record, .before = {"a"});
    ADD_SYSTEM(w, .name = "bystander", .fn = record);
    expect_build_failure(w, ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    assert_contains(ecs_sched_last_error(w), "system 'a' runs before system 'b'");
    assert_contains(ecs_sched_last_error(w), "system 'b' runs before system 'c'");
    assert_contains(ecs_sched_last_error(w), "system 'c' runs before system 'a'");
    check_and_destroy(w);
}

static void system_ordered_before_and_after_another_is_a_cycle(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "a", .fn = record, .before = {"b"}, .after = {"b"});
    ADD_SYSTEM(w, .name = "b", .fn = record);
    expect_build_failure(w, ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    assert_contains(ecs_sched_last_error(w), "'a'");
    assert_contains(ecs_sched_last_error(w), "'b'");
    check_and_destroy(w);
}

static void cycle_between_sets_fails_and_names_them(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "physics", .before = {"render"});
    CONFIGURE_SET(w, .name = "render", .before = {"physics"});
    ADD_SYSTEM(w, .name = "integrate", .fn = record, .in_set = {"physics"});
    ADD_SYSTEM(w, .name = "draw", .fn = record, .in_set = {"render"});
    expect_build_failure(w, ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    assert_contains(ecs_sched_last_error(w), "set 'physics' runs before set 'render'");
    assert_contains(ecs_sched_last_error(w), "set 'render' runs before set 'physics'");
    check_and_destroy(w);
}

/* Sets with no systems in them leave no trace once flattened: the cycle is found between the
   sets as configured. */
static void cycle_between_sets_without_systems_fails_and_names_them(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "loading", .before = {"saving"});
    CONFIGURE_SET(w, .name = "saving", .before = {"loading"});
    ADD_SYSTEM(w, .name = "bystander", .fn = record);
    expect_build_failure(w, ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    assert_contains(ecs_sched_last_error(w), "set 'loading' runs before set 'saving'");
    assert_contains(ecs_sched_last_error(w), "set 'saving' runs before set 'loading'");
    check_and_destroy(w);
}

static void cycle_that_appears_once_sets_are_flattened_fails(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    configure_levels(w, ECS_SCHED_REPORT_IGNORE, ECS_SCHED_REPORT_DEFAULT, ECS_SCHED_REPORT_DEFAULT,
                     ECS_SCHED_REPORT_DEFAULT);
    CONFIGURE_SET(w, .name = "early", .before = {"late"});
    ADD_SYSTEM(w, .name = "x", .fn = record, .in_set = {"early"});
    ADD_SYSTEM(w, .name = "y", .fn = record, .in_set = {"late"}, .before = {"x"});
    expect_build_failure(w, ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    assert_contains(ecs_sched_last_error(w), "system 'x' runs before system 'y'");
    assert_contains(ecs_sched_last_error(w), "system 'y' runs before system 'x'");
    check_and_destroy(w);
}

static void system_in_two_sets_ordered_against_each_other_is_a_cycle(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "first", .before = {"second"});
    ADD_SYSTEM(w, .name = "torn", .fn = record, .in_set = {"first", "second"});
    expect_build_failure(w, ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    assert_contains(ecs_sched_last_error(w), "torn");
    check_and_destroy(w);
}

static void hierarchy_cycle_fails_and_names_the_sets(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "outer", .in_set = {"inner"});
    CONFIGURE_SET(w, .name = "inner", .in_set = {"outer"});
    ADD_SYSTEM(w, .name = "member", .fn = record, .in_set = {"inner"});
    expect_build_failure(w, ECS_SCHED_ERR_HIERARCHY_CYCLE);
    assert_contains(ecs_sched_last_error(w), "set 'outer' is in set 'inner'");
    assert_contains(ecs_sched_last_error(w), "set 'inner' is in set 'outer'");
    check_and_destroy(w);
}

static void set_inside_itself_is_a_hierarchy_cycle(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "ouroboros", .in_set = {"ouroboros"});
    expect_build_failure(w, ECS_SCHED_ERR_HIERARCHY_CYCLE);
    assert_contains(ecs_sched_last_error(w), "ouroboros");
    check_and_destroy(w);
}

static void set_in_a_set_both_directly_and_through_another_is_redundant(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "A");
    CONFIGURE_SET(w, .name = "B", .in_set = {"A"});
    CONFIGURE_SET(w, .name = "C", .in_set = {"B", "A"});
    ADD_SYSTEM(w, .name = "member", .fn = record, .in_set = {"C"});
    expect_build_failure(w, ECS_SCHED_ERR_HIERARCHY_REDUNDANT);
    assert_contains(ecs_sched_last_error(w), "set 'C'");
    assert_contains(ecs_sched_last_error(w), "set 'A'");
    assert_contains(ecs_sched_last_error(w), "set 'B'");
    check_and_destroy(w);
}

static void system_in_a_set_both_directly_and_through_another_is_redundant(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "inner", .in_set = {"outer"});
    ADD_SYSTEM(w, .name = "doubly_placed", .fn = record, .in_set = {"inner", "outer"});
    expect_build_failure(w, ECS_SCHED_ERR_HIERARCHY_REDUNDANT);
    assert_contains(ecs_sched_last_error(w), "system 'doubly_placed'");
    assert_contains(ecs_sched_last_error(w), "set 'outer'");
    assert_contains(ecs_sched_last_error(w), "set 'inner'");
    check_and_destroy(w);
}

static void ordering_a_system_against_its_own_set_fails(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "member", .fn = record, .in_set = {"work"}, .after = {"work"});
    expect_build_failure(w, ECS_SCHED_ERR_ORDER_AGAINST_PARENT);
    assert_contains(ecs_sched_last_error(w), "system 'member'");
    assert_contains(ecs_sched_last_error(w), "set 'work'");
    check_and_destroy(w);
}

static void ordering_a_set_against_a_set_containing_it_fails(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "inner", .in_set = {"outer"}, .before = {"outer"});
    ADD_SYSTEM(w, .name = "member", .fn = record, .in_set = {"inner"});
    expect_build_failure(w, ECS_SCHED_ERR_ORDER_AGAINST_PARENT);
    assert_contains(ecs_sched_last_error(w), "set 'inner'");
    assert_contains(ecs_sched_last_error(w), "set 'outer'");
    check_and_destroy(w);
}

static void ordering_a_system_against_a_set_containing_its_set_fails(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "inner", .in_set = {"outer"});
    CONFIGURE_SET(w, .name = "outer", .after = {"member"});
    ADD_SYSTEM(w, .name = "member", .fn = record, .in_set = {"inner"});
    expect_build_failure(w, ECS_SCHED_ERR_ORDER_AGAINST_PARENT);
    assert_contains(ecs_sched_last_error(w), "system 'member'");
    assert_contains(ecs_sched_last_error(w), "set 'outer'");
    check_and_destroy(w);
}

/* ---- names ---- */

static void ordering_against_a_name_several_systems_share_fails(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "foo", .fn = record);
    ADD_SYSTEM(w, .name = "foo", .fn = record);
    ADD_SYSTEM(w, .name = "bar", .fn = record, .after = {"foo"});
    expect_build_failure(w, ECS_SCHED_ERR_DUPLICATE_NAME);
    assert_contains(ecs_sched_last_error(w), "'foo'");
    assert_contains(ecs_sched_last_error(w), "bar");
    assert_contains(ecs_sched_last_error(w), "set"); /* the suggested fix */
    check_and_destroy(w);
}

static void ordering_before_a_name_several_systems_share_fails(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "bar", .fn = record, .before = {"foo"});
    ADD_SYSTEM(w, .name = "foo", .fn = record);
    ADD_SYSTEM(w, .name = "foo", .fn = record);
    expect_build_failure(w, ECS_SCHED_ERR_DUPLICATE_NAME);
    assert_contains(ecs_sched_last_error(w), "'foo'");
    check_and_destroy(w);
}

static void set_ordered_against_a_shared_name_fails_too(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "late", .after = {"foo"});
    ADD_SYSTEM(w, .name = "foo", .fn = record);
    ADD_SYSTEM(w, .name = "foo", .fn = record);
    ADD_SYSTEM(w, .name = "member", .fn = record, .in_set = {"late"});
    expect_build_failure(w, ECS_SCHED_ERR_DUPLICATE_NAME);
    assert_contains(ecs_sched_last_error(w), "'foo'");
    check_and_destroy(w);
}

static void putting_one_instance_in_a_set_and_ordering_against_the_set_works(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "bar", .fn = record, .after = {"X"});
    ADD_SYSTEM(w, .name = "foo", .fn = record, .user_data = "foo_in_X", .in_set = {"X"});
    ADD_SYSTEM(w, .name = "foo", .fn = record, .user_data = "free_foo");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    /* bar waits for the foo in X only */
    assert_string_equal(g_trace, "foo_in_X bar free_foo");
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void chaining_one_instance_with_the_system_that_needs_it_works(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "foo", .fn = record, .user_data = "chained_foo"},
                                      {.name = "bar", .fn = record}),
                .count = 2, .chain = true);
    ADD_SYSTEM(w, .name = "foo", .fn = record, .user_data = "free_foo");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    /* bar waits for the foo it is chained to only */
    assert_string_equal(g_trace, "chained_foo bar free_foo");
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void ordering_from_the_instance_side_works(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "foo", .fn = record, .user_data = "ordered_foo", .before = {"bar"});
    ADD_SYSTEM(w, .name = "bar", .fn = record);
    ADD_SYSTEM(w, .name = "foo", .fn = record, .user_data = "free_foo");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    /* bar waits for the foo that asked to run before it only */
    assert_string_equal(g_trace, "ordered_foo bar free_foo");
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void shared_name_at_warn_level_orders_against_every_instance(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    configure_levels(w, 0, 0, 0, ECS_SCHED_REPORT_WARN);
    ADD_SYSTEM(w, .name = "bar", .fn = record, .after = {"foo"});
    ADD_SYSTEM(w, .name = "foo", .fn = record, .user_data = "foo1");
    ADD_SYSTEM(w, .name = "foo", .fn = record, .user_data = "foo2");
    assert_run_traces(w, "foo1 foo2 bar");
    assert_int_equal(g_log.warnings, 1);
    assert_int_equal(g_log.errors, 0);
    assert_contains(g_log.text, "warn: ");
    assert_contains(g_log.text, "'foo'");
    check_and_destroy(w);
}

static void shared_name_at_ignore_level_builds_silently(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    configure_levels(w, 0, 0, 0, ECS_SCHED_REPORT_IGNORE);
    ADD_SYSTEM(w, .name = "foo", .fn = record);
    ADD_SYSTEM(w, .name = "foo", .fn = record);
    ADD_SYSTEM(w, .name = "bar", .fn = record, .after = {"foo"});
    assert_run_traces(w, "foo foo bar");
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void ambiguous_with_a_name_several_systems_share_fails(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "foo", .fn = record, .writes = {c.score});
    ADD_SYSTEM(w, .name = "foo", .fn = record, .writes = {c.score});
    ADD_SYSTEM(w, .name = "bar", .fn = record, .writes = {c.score}, .ambiguous_with = {"foo"});
    expect_build_failure(w, ECS_SCHED_ERR_DUPLICATE_NAME);
    assert_contains(ecs_sched_last_error(w), "system 'bar' is declared ambiguous_with 'foo', but 2 "
                                             "systems are named 'foo' (#1, #2)");
    assert_contains(ecs_sched_last_error(w), "name the set");
    check_and_destroy(w);
}

static void ambiguous_with_a_shared_name_at_warn_level_covers_every_instance(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    configure_levels(w, 0, 0, ECS_SCHED_REPORT_ERROR, ECS_SCHED_REPORT_WARN);
    ADD_SYSTEM(w, .name = "foo", .fn = record, .reads = {c.score});
    ADD_SYSTEM(w, .name = "foo", .fn = record, .reads = {c.score});
    ADD_SYSTEM(w, .name = "bar", .fn = record, .writes = {c.score}, .ambiguous_with = {"foo"});
    assert_int_equal(ecs_sched_schedule_build(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_log.warnings, 1);
    assert_contains(g_log.text, "ambiguous_with 'foo'");
    check_and_destroy(w);
}

static void name_configured_as_a_set_and_given_to_a_system_conflicts(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "physics");
    ADD_SYSTEM(w, .name = "physics", .fn = record);
    expect_build_failure(w, ECS_SCHED_ERR_NAME_CONFLICT);
    assert_contains(ecs_sched_last_error(w), "'physics'");
    check_and_destroy(w);
}

static void system_name_used_as_a_set_to_join_conflicts(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "render", .fn = record);
    ADD_SYSTEM(w, .name = "draw_sprites", .fn = record, .in_set = {"render"});
    expect_build_failure(w, ECS_SCHED_ERR_NAME_CONFLICT);
    assert_contains(ecs_sched_last_error(w), "'render'");
    check_and_destroy(w);
}

/* ---- reports that do not make the graph unsolvable: ignore, warn (default) or error ---- */

static void add_cross_set_pair(ecs_sched_world *w) {
    ADD_SYSTEM(w, .name = "shoot", .fn = record, .in_set = {"combat"});
    ADD_SYSTEM(w, .name = "play_sound", .fn = record, .in_set = {"audio"}, .after = {"shoot"});
}

static void cross_set_dependency_warns_by_default_and_builds(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    add_cross_set_pair(w);
    assert_run_traces(w, "shoot play_sound");
    assert_int_equal(g_log.warnings, 1);
    assert_int_equal(g_log.errors, 0);
    assert_contains(g_log.text, "warn: ");
    assert_contains(g_log.text, "'shoot'");
    assert_contains(g_log.text, "'play_sound'");
    check_and_destroy(w);
}

static void cross_set_dependency_at_error_level_fails(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    configure_levels(w, ECS_SCHED_REPORT_ERROR, 0, 0, 0);
    add_cross_set_pair(w);
    expect_build_failure(w, ECS_SCHED_ERR_CROSS_SET_DEPENDENCY);
    assert_contains(ecs_sched_last_error(w), "'shoot'");
    assert_contains(ecs_sched_last_error(w), "'play_sound'");
    check_and_destroy(w);
}

static void cross_set_dependency_at_ignore_level_logs_nothing(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    configure_levels(w, ECS_SCHED_REPORT_IGNORE, 0, 0, 0);
    add_cross_set_pair(w);
    assert_run_traces(w, "shoot play_sound");
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void ordering_against_a_name_that_names_nothing_fails_by_default(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "tick", .fn = record);
    ADD_SYSTEM(w, .name = "render", .fn = record, .after = {"tik"});
    expect_build_failure(w, ECS_SCHED_ERR_UNKNOWN_SET);
    assert_contains(ecs_sched_last_error(w), "system 'render' is ordered after 'tik', which names "
                                             "nothing in this schedule");
    assert_contains(ecs_sched_last_error(w), "Did you mean 'tick'?");
    check_and_destroy(w);
}

static void unknown_name_suggests_a_configured_set_too(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "Physics");
    ADD_SYSTEM(w, .name = "draw", .fn = record, .before_ignore_deferred = {"physic"});
    expect_build_failure(w, ECS_SCHED_ERR_UNKNOWN_SET);
    assert_contains(ecs_sched_last_error(w), "system 'draw' is ordered before 'physic'");
    assert_contains(ecs_sched_last_error(w), "Did you mean 'Physics'?");
    check_and_destroy(w);
}

static void unknown_name_far_from_every_name_suggests_nothing(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "tick", .fn = record);
    ADD_SYSTEM(w, .name = "render", .fn = record, .ambiguous_with = {"completely_else"});
    expect_build_failure(w, ECS_SCHED_ERR_UNKNOWN_SET);
    assert_contains(ecs_sched_last_error(w), "system 'render' is declared ambiguous_with "
                                             "'completely_else'");
    assert_null(strstr(ecs_sched_last_error(w), "Did you mean"));
    check_and_destroy(w);
}

static void unknown_set_at_warn_level_builds(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    configure_levels(w, 0, ECS_SCHED_REPORT_WARN, 0, 0);
    ADD_SYSTEM(w, .name = "consumer", .fn = record, .after = {"misspelled_set"});
    ADD_SYSTEM(w, .name = "other", .fn = record);
    assert_run_traces(w, "consumer other");
    assert_int_equal(g_log.warnings, 1);
    assert_int_equal(g_log.errors, 0);
    assert_contains(g_log.text, "warn: ");
    assert_contains(g_log.text, "'misspelled_set'");
    check_and_destroy(w);
}

static void unknown_set_at_error_level_fails(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    configure_levels(w, 0, ECS_SCHED_REPORT_ERROR, 0, 0);
    ADD_SYSTEM(w, .name = "consumer", .fn = record, .after = {"misspelled_set"});
    expect_build_failure(w, ECS_SCHED_ERR_UNKNOWN_SET);
    assert_contains(ecs_sched_last_error(w), "'misspelled_set'");
    check_and_destroy(w);
}

static void unknown_set_at_ignore_level_logs_nothing(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    configure_levels(w, 0, ECS_SCHED_REPORT_IGNORE, 0, 0);
    ADD_SYSTEM(w, .name = "consumer", .fn = record, .after = {"misspelled_set"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void configured_set_without_members_is_not_unknown(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    configure_levels(w, 0, ECS_SCHED_REPORT_ERROR, 0, 0);
    CONFIGURE_SET(w, .name = "reserved_for_plugins");
    ADD_SYSTEM(w, .name = "consumer", .fn = record, .after = {"reserved_for_plugins"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void write_position(ecs_sched_system_ctx *ctx) {
    trace_add(ecs_sched_ctx_name(ctx));
}

static void add_conflicting_writers(ecs_sched_world *w, ecs_sched_id position) {
    ADD_SYSTEM(w, .name = "mover", .fn = write_position, .in_set = {"A"},
               .queries = {{{ecs_sched_write(position)}}});
    ADD_SYSTEM(w, .name = "teleporter", .fn = write_position, .in_set = {"B"},
               .queries = {{{ecs_sched_write(position)}}});
}

static void ambiguity_warns_by_default_and_builds(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    add_conflicting_writers(w, ECS_SCHED_COMPONENT(w, Position));
    assert_run_traces(w, "mover teleporter");
    assert_int_equal(g_log.warnings, 1);
    assert_int_equal(g_log.errors, 0);
    assert_contains(g_log.text, "warn: ");
    assert_contains(g_log.text, "'mover'");
    assert_contains(g_log.text, "'teleporter'");
    assert_contains(g_log.text, "'Position'");
    check_and_destroy(w);
}

static void ambiguity_at_ignore_level_logs_nothing(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    configure_levels(w, 0, 0, ECS_SCHED_REPORT_IGNORE, 0);
    add_conflicting_writers(w, ECS_SCHED_COMPONENT(w, Position));
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

/* ---- a failed build changes nothing, and more configuration can fix it ---- */

static void spawn_and_score(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *world = ecs_sched_ctx_world(ctx);
    trace_add(ecs_sched_ctx_name(ctx));
    if (world) {
        Score s = {100};
        ecs_sched_spawn(world);
        ecs_sched_resource_insert(world, ecs_sched_component_lookup(world, "Score"), &s);
    }
}

static void failed_build_runs_nothing_and_leaves_the_world_unchanged(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id position = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_id score = ECS_SCHED_COMPONENT(w, Score);
    Score s = {7};
    int32_t archetypes;
    (void)state;
    ecs_sched_spawn_with(w, 1, &position, NULL);
    ecs_sched_spawn(w);
    ecs_sched_resource_insert(w, score, &s);
    archetypes = ecs_sched_archetype_count(w);
    ADD_SYSTEM(w, .name = "world_changer", .fn = spawn_and_score, .exclusive = true);
    ADD_SYSTEM(w, .name = "a", .fn = record, .before = {"b"});
    ADD_SYSTEM(w, .name = "b", .fn = record, .before = {"a"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    assert_string_equal(g_trace, "");
    assert_int_equal(ecs_sched_entity_count(w), 2);
    assert_int_equal(ecs_sched_archetype_count(w), archetypes);
    assert_int_equal(((const Score *)ecs_sched_resource_get(w, score))->value, 7);
    assert_int_equal(ecs_sched_world_check(w), ECS_SCHED_OK);
    check_and_destroy(w);
}

static void failed_build_fails_again_on_every_run(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "a", .fn = record, .before = {"a_set"}, .in_set = {"a_set"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ORDER_AGAINST_PARENT);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ORDER_AGAINST_PARENT);
    assert_string_equal(g_trace, "");
    check_and_destroy(w);
}

static void more_configuration_fixes_a_failed_build(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    configure_levels(w, 0, 0, ECS_SCHED_REPORT_ERROR, 0);
    add_conflicting_writers(w, ECS_SCHED_COMPONENT(w, Position));
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_AMBIGUITY);
    assert_contains(ecs_sched_last_error(w), "'mover'");
    assert_contains(ecs_sched_last_error(w), "'teleporter'");
    assert_string_equal(g_trace, "");
    CONFIGURE_SET(w, .name = "B", .before = {"A"});
    assert_run_traces(w, "teleporter mover");
    check_and_destroy(w);
}

static void filling_an_unknown_set_fixes_a_failed_build(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    configure_levels(w, 0, ECS_SCHED_REPORT_ERROR, 0, 0);
    ADD_SYSTEM(w, .name = "consumer", .fn = record, .after = {"producers"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_UNKNOWN_SET);
    ADD_SYSTEM(w, .name = "producer", .fn = record, .in_set = {"producers"});
    assert_run_traces(w, "producer consumer");
    check_and_destroy(w);
}

/* A refused call adds nothing: the names its relations gave (a set to join, a set to run
   after) are not sets because of it, so the first can still name a system and the second is
   not an unknown set. */
static void refused_group_leaves_no_sets_behind(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    configure_levels(w, 0, ECS_SCHED_REPORT_ERROR, 0, 0);
    assert_int_equal(ecs_sched_add_systems(w, UPDATE, &(ecs_sched_systems_desc){
                         .systems = SYSTEMS({.name = "first", .fn = record, .in_set = {"joined"},
                                             .after = {"awaited"}},
                                            {.name = "without_fn"}),
                         .count = 2}),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    ADD_SYSTEM(w, .name = "joined", .fn = record);
    assert_run_traces(w, "joined");
    check_and_destroy(w);
}

static void breaking_a_built_schedule_stops_it_from_running_the_old_plan(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "a", .fn = record);
    ADD_SYSTEM(w, .name = "b", .fn = record, .after = {"a"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    ADD_SYSTEM(w, .name = "c", .fn = record, .after = {"b"}, .before = {"a"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    assert_string_equal(g_trace, "a b");
    check_and_destroy(w);
}

static void ignore_write(const char *text, void *user_data) {
    (void)text;
    (void)user_data;
}

static void plan_queries_report_a_failed_build(void **state) {
    ecs_sched_world *w = new_world();
    const char *names[4];
    (void)state;
    ADD_SYSTEM(w, .name = "a", .fn = record, .after = {"a"});
    assert_int_equal(ecs_sched_schedule_order(w, UPDATE, names, 4), -1);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    assert_int_equal(ecs_sched_schedule_write_dot(w, UPDATE, ignore_write, NULL),
                     ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dependency_cycle_fails_and_shows_the_path),
        cmocka_unit_test(system_ordered_before_and_after_another_is_a_cycle),
        cmocka_unit_test(cycle_between_sets_fails_and_names_them),
        cmocka_unit_test(cycle_between_sets_without_systems_fails_and_names_them),
        cmocka_unit_test(cycle_that_appears_once_sets_are_flattened_fails),
        cmocka_unit_test(system_in_two_sets_ordered_against_each_other_is_a_cycle),
        cmocka_unit_test(hierarchy_cycle_fails_and_names_the_sets),
        cmocka_unit_test(set_inside_itself_is_a_hierarchy_cycle),
        cmocka_unit_test(set_in_a_set_both_directly_and_through_another_is_redundant),
        cmocka_unit_test(system_in_a_set_both_directly_and_through_another_is_redundant),
        cmocka_unit_test(ordering_a_system_against_its_own_set_fails),
        cmocka_unit_test(ordering_a_set_against_a_set_containing_it_fails),
        cmocka_unit_test(ordering_a_system_against_a_set_containing_its_set_fails),
        cmocka_unit_test(ordering_against_a_name_several_systems_share_fails),
        cmocka_unit_test(ordering_before_a_name_several_systems_share_fails),
        cmocka_unit_test(set_ordered_against_a_shared_name_fails_too),
        cmocka_unit_test(putting_one_instance_in_a_set_and_ordering_against_the_set_works),
        cmocka_unit_test(chaining_one_instance_with_the_system_that_needs_it_works),
        cmocka_unit_test(ordering_from_the_instance_side_works),
        cmocka_unit_test(shared_name_at_warn_level_orders_against_every_instance),
        cmocka_unit_test(shared_name_at_ignore_level_builds_silently),
        cmocka_unit_test(ambiguous_with_a_name_several_systems_share_fails),
        cmocka_unit_test(ambiguous_with_a_shared_name_at_warn_level_covers_every_instance),
        cmocka_unit_test(name_configured_as_a_set_and_given_to_a_system_conflicts),
        cmocka_unit_test(system_name_used_as_a_set_to_join_conflicts),
        cmocka_unit_test(cross_set_dependency_warns_by_default_and_builds),
        cmocka_unit_test(cross_set_dependency_at_error_level_fails),
        cmocka_unit_test(cross_set_dependency_at_ignore_level_logs_nothing),
        cmocka_unit_test(ordering_against_a_name_that_names_nothing_fails_by_default),
        cmocka_unit_test(unknown_name_suggests_a_configured_set_too),
        cmocka_unit_test(unknown_name_far_from_every_name_suggests_nothing),
        cmocka_unit_test(unknown_set_at_warn_level_builds),
        cmocka_unit_test(unknown_set_at_error_level_fails),
        cmocka_unit_test(unknown_set_at_ignore_level_logs_nothing),
        cmocka_unit_test(configured_set_without_members_is_not_unknown),
        cmocka_unit_test(ambiguity_warns_by_default_and_builds),
        cmocka_unit_test(ambiguity_at_ignore_level_logs_nothing),
        cmocka_unit_test(failed_build_runs_nothing_and_leaves_the_world_unchanged),
        cmocka_unit_test(failed_build_fails_again_on_every_run),
        cmocka_unit_test(more_configuration_fixes_a_failed_build),
        cmocka_unit_test(filling_an_unknown_set_fixes_a_failed_build),
        cmocka_unit_test(refused_group_leaves_no_sets_behind),
        cmocka_unit_test(breaking_a_built_schedule_stops_it_from_running_the_old_plan),
        cmocka_unit_test(plan_queries_report_a_failed_build),
    };
    return cmocka_run_group_tests_name("schedule errors", tests, NULL, destroy_leftover_world);
}
