/* Observers with a query (flecs's multi-term observers): called when the event happens to one
   of the query's components on an entity that matches the whole query; and yield_existing,
   which calls a new observer for the entities that match already. */
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

typedef struct fixture {
    ecs_sched_world *w;
    ecs_sched_id position, velocity, frozen, health;
} fixture;

static fixture make_fixture(void) {
    fixture f;
    f.w = new_world();
    f.position = ECS_SCHED_COMPONENT(f.w, Position);
    f.velocity = ECS_SCHED_COMPONENT(f.w, Velocity);
    f.frozen = ecs_sched_component_register_type(f.w, "Frozen", 0, 0);
    f.health = ECS_SCHED_COMPONENT(f.w, Health);
    return f;
}

/* Writes "<component name>" of each call to the trace. */
static void note(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    (void)ctx;
    trace_add(t->component == ecs_sched_component_lookup(g_world, "Position") ? "pos"
              : t->component == ecs_sched_component_lookup(g_world, "Velocity") ? "vel"
              : t->component == 0 ? "despawn" : "other");
}

static uint32_t add_observer(ecs_sched_world *w, ecs_sched_observer_event event, const char *text,
                             bool yield) {
    uint32_t id = ecs_sched_observer_add(w, &(ecs_sched_observer_desc){
        .name = "moving", .event = event, .fn = note, .query_text = text,
        .yield_existing = yield});
    assert_int_not_equal(id, 0);
    return id;
}

static void an_observer_with_a_query_hears_when_an_entity_comes_to_match_it(void **state) {
    fixture f = make_fixture();
    ecs_sched_entity e;
    (void)state;
    add_observer(f.w, ECS_SCHED_ON_ADD, "Position, Velocity, !Frozen", false);
    e = SPAWN(f.w, {f.position, NULL});
    assert_string_equal(g_trace, "");   /* matches not yet: no Velocity */
    assert_int_equal(ecs_sched_insert(f.w, e, f.velocity, NULL), ECS_SCHED_OK);
    assert_string_equal(g_trace, "vel");   /* the event on Velocity, now it matches */
    check_and_destroy(f.w);
}

static void an_event_on_an_entity_that_does_not_match_the_whole_query_is_not_heard(void **state) {
    fixture f = make_fixture();
    (void)state;
    add_observer(f.w, ECS_SCHED_ON_ADD, "Position, Velocity, !Frozen", false);
    (void)SPAWN(f.w, {f.position, NULL}, {f.velocity, NULL}, {f.frozen, NULL});
    (void)SPAWN(f.w, {f.velocity, NULL});
    assert_string_equal(g_trace, "");
    (void)SPAWN(f.w, {f.position, NULL}, {f.velocity, NULL});
    assert_string_equal(g_trace, "pos vel");   /* a spawn with both: each component's event */
    check_and_destroy(f.w);
}

static void an_event_on_a_component_the_query_does_not_watch_is_not_heard(void **state) {
    fixture f = make_fixture();
    ecs_sched_entity e;
    (void)state;
    e = SPAWN(f.w, {f.position, NULL}, {f.velocity, NULL});
    add_observer(f.w, ECS_SCHED_ON_INSERT, "Position, Velocity", false);
    assert_int_equal(ecs_sched_insert(f.w, e, f.health, &(Health){3}), ECS_SCHED_OK);
    assert_string_equal(g_trace, "");
    assert_int_equal(ecs_sched_insert(f.w, e, f.position, &(Position){1, 1}), ECS_SCHED_OK);
    assert_string_equal(g_trace, "pos");
    check_and_destroy(f.w);
}

static void on_remove_hears_an_entity_that_matched_before_the_removal(void **state) {
    fixture f = make_fixture();
    ecs_sched_entity e;
    (void)state;
    e = SPAWN(f.w, {f.position, NULL}, {f.velocity, NULL});
    add_observer(f.w, ECS_SCHED_ON_REMOVE, "Position, Velocity", false);
    assert_int_equal(ecs_sched_remove(f.w, e, f.velocity), ECS_SCHED_OK);
    assert_string_equal(g_trace, "vel");
    assert_int_equal(ecs_sched_remove(f.w, e, f.position), ECS_SCHED_OK);
    assert_string_equal(g_trace, "vel");   /* it no longer matched */
    check_and_destroy(f.w);
}

static void on_despawn_with_a_query_hears_matching_entities_only(void **state) {
    fixture f = make_fixture();
    ecs_sched_entity a, b;
    (void)state;
    a = SPAWN(f.w, {f.position, NULL}, {f.velocity, NULL});
    b = SPAWN(f.w, {f.position, NULL});
    add_observer(f.w, ECS_SCHED_ON_DESPAWN, "Position, Velocity", false);
    assert_int_equal(ecs_sched_despawn(f.w, b), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(f.w, a), ECS_SCHED_OK);
    assert_string_equal(g_trace, "despawn");
    check_and_destroy(f.w);
}

static void removing_an_observer_with_a_query_stops_the_calls(void **state) {
    fixture f = make_fixture();
    uint32_t id;
    (void)state;
    id = add_observer(f.w, ECS_SCHED_ON_ADD, "Position, Velocity", false);
    assert_int_equal(ecs_sched_observer_remove(f.w, id), ECS_SCHED_OK);
    (void)SPAWN(f.w, {f.position, NULL}, {f.velocity, NULL});
    assert_string_equal(g_trace, "");
    check_and_destroy(f.w);
}

static void a_query_that_picks_rows_within_a_table_is_refused(void **state) {
    fixture f = make_fixture();
    ecs_sched_id tracked = ecs_sched_tracked_component_register_type(f.w, "Mana", 4, 4);
    (void)state;
    (void)tracked;
    assert_int_equal(ecs_sched_observer_add(f.w, &(ecs_sched_observer_desc){
                         .name = "picky", .event = ECS_SCHED_ON_ADD, .fn = note,
                         .query_text = "Position, [changed] Mana"}),
                     0);
    assert_int_equal(ecs_sched_last_result(f.w), ECS_SCHED_ERR_INVALID_QUERY);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "observer 'picky' has a query with a term "
                                                      "that picks rows within a table"));
    assert_int_equal(ecs_sched_observer_add(f.w, &(ecs_sched_observer_desc){
                         .name = "both", .event = ECS_SCHED_ON_ADD, .fn = note,
                         .component = f.position, .query_text = "Velocity"}),
                     0);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "has both a component and a query"));
    assert_int_equal(ecs_sched_observer_add(f.w, &(ecs_sched_observer_desc){
                         .name = "typo", .event = ECS_SCHED_ON_ADD, .fn = note,
                         .query_text = "Position, Veloctiy"}),
                     0);
    assert_int_equal(ecs_sched_last_result(f.w), ECS_SCHED_ERR_QUERY_SYNTAX);
    check_and_destroy(f.w);
}

static void an_observer_s_query_may_be_given_as_terms(void **state) {
    fixture f = make_fixture();
    (void)state;
    assert_int_not_equal(ecs_sched_observer_add(f.w, &(ecs_sched_observer_desc){
                             .name = "terms", .event = ECS_SCHED_ON_ADD, .fn = note,
                             .query = {{ecs_sched_read(f.position), ecs_sched_read(f.velocity)}}}),
                         0);
    (void)SPAWN(f.w, {f.velocity, NULL});
    (void)SPAWN(f.w, {f.velocity, NULL}, {f.position, NULL});
    assert_string_equal(g_trace, "vel pos");
    check_and_destroy(f.w);
}

static void yield_existing_calls_a_new_observer_for_the_entities_that_match_already(void **state) {
    fixture f = make_fixture();
    (void)state;
    (void)SPAWN(f.w, {f.position, NULL}, {f.velocity, NULL});
    (void)SPAWN(f.w, {f.position, NULL}, {f.velocity, NULL}, {f.health, NULL});
    (void)SPAWN(f.w, {f.position, NULL}, {f.velocity, NULL}, {f.frozen, NULL});
    (void)SPAWN(f.w, {f.position, NULL});
    add_observer(f.w, ECS_SCHED_ON_ADD, "Velocity, Position, !Frozen", true);
    assert_string_equal(g_trace, "vel vel");
    check_and_destroy(f.w);
}

static void yield_existing_of_a_component_observer_calls_it_for_each_owner(void **state) {
    fixture f = make_fixture();
    (void)state;
    (void)SPAWN(f.w, {f.position, NULL});
    (void)SPAWN(f.w, {f.position, NULL}, {f.velocity, NULL});
    (void)SPAWN(f.w, {f.velocity, NULL});
    assert_int_not_equal(ecs_sched_observer_add(f.w, &(ecs_sched_observer_desc){
                             .name = "positions", .event = ECS_SCHED_ON_INSERT, .fn = note,
                             .component = f.position, .yield_existing = true}),
                         0);
    assert_string_equal(g_trace, "pos pos");
    check_and_destroy(f.w);
}

static void tag_frozen(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    assert_int_equal(ecs_sched_insert(w, t->entity, ecs_sched_component_lookup(w, "Frozen"), NULL),
                     ECS_SCHED_OK);
}

static void what_a_yielded_call_changes_is_applied_before_observer_add_returns(void **state) {
    fixture f = make_fixture();
    ecs_sched_entity a = SPAWN(f.w, {f.position, NULL}), b = SPAWN(f.w, {f.position, NULL});
    (void)state;
    assert_int_not_equal(ecs_sched_observer_add(f.w, &(ecs_sched_observer_desc){
                             .name = "freezer", .event = ECS_SCHED_ON_ADD, .fn = tag_frozen,
                             .component = f.position, .yield_existing = true}),
                         0);
    assert_true(ecs_sched_has(f.w, a, f.frozen));
    assert_true(ecs_sched_has(f.w, b, f.frozen));
    check_and_destroy(f.w);
}

static void yield_existing_is_refused_where_nothing_can_be_yielded(void **state) {
    fixture f = make_fixture();
    (void)state;
    assert_int_equal(ecs_sched_observer_add(f.w, &(ecs_sched_observer_desc){
                         .name = "gone", .event = ECS_SCHED_ON_REMOVE, .fn = note,
                         .component = f.position, .yield_existing = true}),
                     0);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "which ON_ADD and ON_INSERT observers do"));
    check_and_destroy(f.w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(an_observer_with_a_query_hears_when_an_entity_comes_to_match_it),
        cmocka_unit_test(an_event_on_an_entity_that_does_not_match_the_whole_query_is_not_heard),
        cmocka_unit_test(an_event_on_a_component_the_query_does_not_watch_is_not_heard),
        cmocka_unit_test(on_remove_hears_an_entity_that_matched_before_the_removal),
        cmocka_unit_test(on_despawn_with_a_query_hears_matching_entities_only),
        cmocka_unit_test(removing_an_observer_with_a_query_stops_the_calls),
        cmocka_unit_test(a_query_that_picks_rows_within_a_table_is_refused),
        cmocka_unit_test(an_observer_s_query_may_be_given_as_terms),
        cmocka_unit_test(yield_existing_calls_a_new_observer_for_the_entities_that_match_already),
        cmocka_unit_test(yield_existing_of_a_component_observer_calls_it_for_each_owner),
        cmocka_unit_test(what_a_yielded_call_changes_is_applied_before_observer_add_returns),
        cmocka_unit_test(yield_existing_is_refused_where_nothing_can_be_yielded),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
