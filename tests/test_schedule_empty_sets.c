/* Sets without systems: an ordering that passes through a set with nothing in it (a plugin's
   set nobody filled, a feature switched off) still orders what comes before the set against
   what comes after it, at any depth and through any number of such sets in a row; the
   contradictions this reveals fail the build and name the path through the set; sync points,
   ambiguities and the drawing follow the orderings through it. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "schedule_fixture.h"

static void record_with_commands(ecs_sched_system_ctx *ctx) {
    (void)ecs_sched_ctx_commands(ctx);
    record(ctx);
}

/* ---- a schedule with no system ---- */

static void a_schedule_that_ran_empty_runs_the_systems_added_since(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_trace, "");
    ADD_SYSTEM(w, .name = "late", .fn = record);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_trace, "late");
    check_and_destroy(w);
}

/* ---- orderings pass through ---- */

static void chained_sets_order_through_an_empty_set(void **state) {
    ecs_sched_world *w = new_world();
    const char *sets[] = {"Input", "Physics", "Render"};
    (void)state;
    assert_int_equal(ecs_sched_chain_sets(w, UPDATE, 3, sets, false), ECS_SCHED_OK);
    ADD_SYSTEM(w, .name = "render", .fn = record, .in_set = {"Render"});
    ADD_SYSTEM(w, .name = "input", .fn = record, .in_set = {"Input"});
    assert_string_equal(plan_of(w, UPDATE), "input render");
    assert_run_traces(w, "input render");
    check_and_destroy(w);
}

static void set_edges_order_through_an_empty_set(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "A", .before = {"B"});
    CONFIGURE_SET(w, .name = "B", .before = {"C"});
    ADD_SYSTEM(w, .name = "c_sys", .fn = record, .in_set = {"C"});
    ADD_SYSTEM(w, .name = "a_sys", .fn = record, .in_set = {"A"});
    assert_string_equal(plan_of(w, UPDATE), "a_sys c_sys");
    assert_run_traces(w, "a_sys c_sys");
    check_and_destroy(w);
}

static void systems_order_through_an_empty_set(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "Hooks");
    ADD_SYSTEM(w, .name = "late", .fn = record, .after = {"Hooks"});
    ADD_SYSTEM(w, .name = "early", .fn = record, .before = {"Hooks"});
    assert_string_equal(plan_of(w, UPDATE), "early late");
    check_and_destroy(w);
}

static void orderings_pass_through_several_empty_sets_in_a_row(void **state) {
    ecs_sched_world *w = new_world();
    const char *sets[] = {"First", "E1", "E2", "E3", "Last"};
    (void)state;
    assert_int_equal(ecs_sched_chain_sets(w, UPDATE, 5, sets, false), ECS_SCHED_OK);
    ADD_SYSTEM(w, .name = "last", .fn = record, .in_set = {"Last"});
    ADD_SYSTEM(w, .name = "first", .fn = record, .in_set = {"First"});
    assert_string_equal(plan_of(w, UPDATE), "first last");
    check_and_destroy(w);
}

/* Outer holds only the set Inner, so neither has a system under it. */
static void a_set_holding_only_empty_sets_is_empty_too(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "Inner", .in_set = {"Outer"});
    CONFIGURE_SET(w, .name = "Outer", .after = {"A"}, .before = {"B"});
    ADD_SYSTEM(w, .name = "b", .fn = record, .in_set = {"B"});
    ADD_SYSTEM(w, .name = "a", .fn = record, .in_set = {"A"});
    assert_string_equal(plan_of(w, UPDATE), "a b");
    check_and_destroy(w);
}

static void an_empty_set_nested_in_a_full_one_passes_its_own_orderings_only(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    /* Inner (empty) is in Outer (which holds "o"); x before Inner before y */
    CONFIGURE_SET(w, .name = "Inner", .in_set = {"Outer"}, .after = {"x"}, .before = {"y"});
    ADD_SYSTEM(w, .name = "y", .fn = record);
    ADD_SYSTEM(w, .name = "o", .fn = record, .in_set = {"Outer"});
    ADD_SYSTEM(w, .name = "x", .fn = record);
    assert_string_equal(plan_of(w, UPDATE), "o x y");
    check_and_destroy(w);
}

static void an_empty_set_between_full_sets_orders_their_members(void **state) {
    ecs_sched_world *w = new_world();
    const char *sets[] = {"A", "Gap", "B"};
    (void)state;
    assert_int_equal(ecs_sched_chain_sets(w, UPDATE, 3, sets, false), ECS_SCHED_OK);
    ADD_SYSTEM(w, .name = "b1", .fn = record, .in_set = {"B"});
    ADD_SYSTEM(w, .name = "b2", .fn = record, .in_set = {"B"});
    ADD_SYSTEM(w, .name = "a1", .fn = record, .in_set = {"A"});
    ADD_SYSTEM(w, .name = "a2", .fn = record, .in_set = {"A"});
    assert_string_equal(plan_of(w, UPDATE), "a1 a2 b1 b2");
    check_and_destroy(w);
}

/* ---- contradictions through an empty set ---- */

static void system_in_two_sets_ordered_through_an_empty_set_is_a_cycle(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "A", .before = {"B"});
    CONFIGURE_SET(w, .name = "B", .before = {"C"});
    ADD_SYSTEM(w, .name = "foo", .fn = record, .in_set = {"A", "C"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    assert_string_equal(g_trace, "");
    assert_non_null(strstr(ecs_sched_last_error(w),
                           "system 'foo' is in set 'A', set 'A' runs before set 'B' (which has "
                           "no systems), set 'B' runs before set 'C', system 'foo' is in set "
                           "'C'"));
    assert_non_null(strstr(ecs_sched_last_error(w), "system 'foo' must run after itself"));
    check_and_destroy(w);
}

static void system_after_an_empty_set_that_follows_its_own_set_is_a_cycle(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "T3", .before = {"T4"});
    CONFIGURE_SET(w, .name = "T4");
    ADD_SYSTEM(w, .name = "s0", .fn = record, .in_set = {"T3"}, .after = {"T4"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    assert_non_null(strstr(ecs_sched_last_error(w),
                           "system 's0' is in set 'T3', set 'T3' runs before set 'T4' (which "
                           "has no systems), set 'T4' runs before system 's0'"));
    check_and_destroy(w);
}

static void cycle_through_an_empty_set_among_the_orderings_names_the_set(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "Gap", .after = {"a"}, .before = {"b"});
    ADD_SYSTEM(w, .name = "b", .fn = record, .before = {"a"});
    ADD_SYSTEM(w, .name = "a", .fn = record);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    assert_non_null(strstr(ecs_sched_last_error(w),
                           "system 'b' runs before system 'a' runs before set 'Gap' runs before "
                           "system 'b'"));
    check_and_destroy(w);
}

static void cycle_among_empty_sets_names_the_sets(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "E1", .before = {"E2"});
    CONFIGURE_SET(w, .name = "E2", .before = {"E1"});
    ADD_SYSTEM(w, .name = "x", .fn = record);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    assert_non_null(strstr(ecs_sched_last_error(w),
                           "set 'E1' runs before set 'E2' runs before set 'E1'"));
    check_and_destroy(w);
}

static void a_failed_build_through_an_empty_set_leaves_the_schedule_unbuilt(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "A", .before = {"B"});
    CONFIGURE_SET(w, .name = "B", .before = {"C"});
    ADD_SYSTEM(w, .name = "foo", .fn = record, .in_set = {"A", "C"});
    assert_int_equal(ecs_sched_schedule_build(w, UPDATE), ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    assert_string_equal(plan_of(w, UPDATE), "(not built)");
    check_and_destroy(w);
}

/* ---- what follows the flattened orderings ---- */

static void commands_before_an_empty_set_get_a_sync_point_before_what_follows_it(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "Gap", .after = {"writer"}, .before = {"reader"});
    ADD_SYSTEM(w, .name = "reader", .fn = record);
    ADD_SYSTEM(w, .name = "writer", .fn = record_with_commands, .commands = true);
    assert_string_equal(plan_of(w, UPDATE), "writer apply_deferred reader");
    check_and_destroy(w);
}

static void orderings_through_an_empty_set_ignore_the_sync_point_only_when_both_halves_do(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "Quiet", .after_ignore_deferred = {"w1"}, .before_ignore_deferred = {"r1"});
    CONFIGURE_SET(w, .name = "Half", .after_ignore_deferred = {"w2"}, .before = {"r2"});
    ADD_SYSTEM(w, .name = "r1", .fn = record);
    ADD_SYSTEM(w, .name = "r2", .fn = record);
    ADD_SYSTEM(w, .name = "w1", .fn = record_with_commands, .commands = true);
    ADD_SYSTEM(w, .name = "w2", .fn = record_with_commands, .commands = true);
    assert_string_equal(plan_of(w, UPDATE), "w1 r1 w2 apply_deferred r2");
    check_and_destroy(w);
}

static void systems_ordered_through_an_empty_set_are_not_ambiguous(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &(ecs_sched_schedule_desc){
                                                              .ambiguities = ECS_SCHED_REPORT_ERROR}),
                     ECS_SCHED_OK);
    CONFIGURE_SET(w, .name = "Gap", .after = {"first"}, .before = {"second"});
    ADD_SYSTEM(w, .name = "second", .fn = record, .queries = {{{ecs_sched_write(c.position)}}});
    ADD_SYSTEM(w, .name = "first", .fn = record, .queries = {{{ecs_sched_write(c.position)}}});
    assert_int_equal(ecs_sched_schedule_build(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(plan_of(w, UPDATE), "first second");
    check_and_destroy(w);
}

static void dot_text_append(const char *text, void *user_data) {
    char *out = (char *)user_data;
    size_t n = strlen(out);
    snprintf(out + n, 8192 - n, "%s", text);
}

static void the_drawing_shows_the_ordering_through_an_empty_set(void **state) {
    ecs_sched_world *w = new_world();
    static char dot[8192];
    const char *sets[] = {"Input", "Physics", "Render"};
    (void)state;
    assert_int_equal(ecs_sched_chain_sets(w, UPDATE, 3, sets, false), ECS_SCHED_OK);
    ADD_SYSTEM(w, .name = "render", .fn = record, .in_set = {"Render"});
    ADD_SYSTEM(w, .name = "input", .fn = record, .in_set = {"Input"});
    dot[0] = '\0';
    assert_int_equal(ecs_sched_schedule_write_dot(w, UPDATE, dot_text_append, dot), ECS_SCHED_OK);
    /* plan positions: input is n0, render n1 */
    assert_non_null(strstr(dot, "n0 -> n1;"));
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_schedule_that_ran_empty_runs_the_systems_added_since),
        cmocka_unit_test(chained_sets_order_through_an_empty_set),
        cmocka_unit_test(set_edges_order_through_an_empty_set),
        cmocka_unit_test(systems_order_through_an_empty_set),
        cmocka_unit_test(orderings_pass_through_several_empty_sets_in_a_row),
        cmocka_unit_test(a_set_holding_only_empty_sets_is_empty_too),
        cmocka_unit_test(an_empty_set_nested_in_a_full_one_passes_its_own_orderings_only),
        cmocka_unit_test(an_empty_set_between_full_sets_orders_their_members),
        cmocka_unit_test(system_in_two_sets_ordered_through_an_empty_set_is_a_cycle),
        cmocka_unit_test(system_after_an_empty_set_that_follows_its_own_set_is_a_cycle),
        cmocka_unit_test(cycle_through_an_empty_set_among_the_orderings_names_the_set),
        cmocka_unit_test(cycle_among_empty_sets_names_the_sets),
        cmocka_unit_test(a_failed_build_through_an_empty_set_leaves_the_schedule_unbuilt),
        cmocka_unit_test(commands_before_an_empty_set_get_a_sync_point_before_what_follows_it),
        cmocka_unit_test(orderings_through_an_empty_set_ignore_the_sync_point_only_when_both_halves_do),
        cmocka_unit_test(systems_ordered_through_an_empty_set_are_not_ambiguous),
        cmocka_unit_test(the_drawing_shows_the_ordering_through_an_empty_set),
    };
    return cmocka_run_group_tests_name("schedule empty sets", tests, NULL, destroy_leftover_world);
}
