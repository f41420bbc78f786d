/* Events the program sends (ecs_sched_emit) to ON_EVENT observers, entity observers (an
   observer of one entity), and events that travel up a hierarchy until an observer stops
   them. */
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

typedef struct { int damage; } Hit;

typedef struct fixture {
    ecs_sched_world *w;
    ecs_sched_id hit, position;
    ecs_sched_entity ship, turret, barrel;
} fixture;

static ecs_sched_entity named(ecs_sched_world *w, const char *name, ecs_sched_entity parent) {
    ecs_sched_entity e = ecs_sched_spawn(w);
    if (parent) assert_int_equal(ecs_sched_set_parent(w, e, parent), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(w, e, name), ECS_SCHED_OK);
    return e;
}

static fixture make_fixture(void) {
    fixture f;
    f.w = new_world();
    f.hit = ECS_SCHED_COMPONENT(f.w, Hit);
    f.position = ECS_SCHED_COMPONENT(f.w, Position);
    f.ship = named(f.w, "ship", 0);
    f.turret = named(f.w, "turret", f.ship);
    f.barrel = named(f.w, "barrel", f.turret);
    return f;
}

/* "<observer name>:<entity>/<origin>:<damage>" per call. */
static void note(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    char word[96];
    const char *at = t->entity ? ecs_sched_name(w, t->entity) : "-";
    const char *origin = t->origin ? ecs_sched_name(w, t->origin) : "-";
    snprintf(word, sizeof word, "%s:%s/%s:%d", ecs_sched_ctx_name(ctx), at ? at : "?",
             origin ? origin : "?", t->payload ? ((const Hit *)t->payload)->damage : -1);
    trace_add(word);
}

static void stop_here(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    note(ctx, t);
    ecs_sched_stop_propagation(ctx);
}

static void listen(ecs_sched_world *w, const char *name, ecs_sched_id event, ecs_sched_entity e,
                   ecs_sched_observer_fn fn) {
    assert_int_not_equal(ecs_sched_observer_add(w, &(ecs_sched_observer_desc){
                             .name = name, .event = ECS_SCHED_ON_EVENT, .component = event,
                             .entity = e, .fn = fn}),
                         0);
}

static void an_event_sent_to_no_entity_reaches_the_observers_of_no_entity(void **state) {
    fixture f = make_fixture();
    (void)state;
    listen(f.w, "all", f.hit, 0, note);
    listen(f.w, "ship", f.hit, f.ship, note);
    assert_int_equal(ecs_sched_emit(f.w, &(ecs_sched_event_desc){.event = f.hit,
                                                                 .payload = &(Hit){3}}),
                     ECS_SCHED_OK);
    assert_string_equal(g_trace, "all:-/-:3");
    check_and_destroy(f.w);
}

static void an_event_sent_to_an_entity_reaches_its_observers_and_those_of_no_entity(void **state) {
    fixture f = make_fixture();
    (void)state;
    listen(f.w, "all", f.hit, 0, note);
    listen(f.w, "turret", f.hit, f.turret, note);
    listen(f.w, "ship", f.hit, f.ship, note);
    assert_int_equal(ecs_sched_emit(f.w, &(ecs_sched_event_desc){.event = f.hit, .entity = f.turret,
                                                                 .payload = &(Hit){5}}),
                     ECS_SCHED_OK);
    assert_string_equal(g_trace, "all:turret/turret:5 turret:turret/turret:5");
    check_and_destroy(f.w);
}

static void an_event_without_a_value_has_no_payload(void **state) {
    fixture f = make_fixture();
    (void)state;
    listen(f.w, "all", f.hit, 0, note);
    assert_int_equal(ecs_sched_emit(f.w, &(ecs_sched_event_desc){.event = f.hit}), ECS_SCHED_OK);
    assert_string_equal(g_trace, "all:-/-:-1");
    check_and_destroy(f.w);
}

static void a_travelling_event_goes_up_the_ancestors(void **state) {
    fixture f = make_fixture();
    (void)state;
    listen(f.w, "ship", f.hit, f.ship, note);
    listen(f.w, "barrel", f.hit, f.barrel, note);
    listen(f.w, "turret", f.hit, f.turret, note);
    assert_int_equal(ecs_sched_emit(f.w, &(ecs_sched_event_desc){.event = f.hit, .entity = f.barrel,
                                                                 .payload = &(Hit){1},
                                                                 .propagate = true}),
                     ECS_SCHED_OK);
    assert_string_equal(g_trace, "barrel:barrel/barrel:1 turret:turret/barrel:1 ship:ship/barrel:1");
    check_and_destroy(f.w);
}

static void an_observer_that_stops_the_event_keeps_it_from_going_further_up(void **state) {
    fixture f = make_fixture();
    (void)state;
    listen(f.w, "turret_stops", f.hit, f.turret, stop_here);
    listen(f.w, "turret_too", f.hit, f.turret, note);
    listen(f.w, "ship", f.hit, f.ship, note);
    assert_int_equal(ecs_sched_emit(f.w, &(ecs_sched_event_desc){.event = f.hit, .entity = f.barrel,
                                                                 .payload = &(Hit){2},
                                                                 .propagate = true}),
                     ECS_SCHED_OK);
    assert_string_equal(g_trace, "turret_stops:turret/barrel:2 turret_too:turret/barrel:2");
    check_and_destroy(f.w);
}

static void an_event_that_does_not_travel_stays_at_its_entity(void **state) {
    fixture f = make_fixture();
    (void)state;
    listen(f.w, "ship", f.hit, f.ship, note);
    assert_int_equal(ecs_sched_emit(f.w, &(ecs_sched_event_desc){.event = f.hit, .entity = f.barrel}),
                     ECS_SCHED_OK);
    assert_string_equal(g_trace, "");
    check_and_destroy(f.w);
}

static void an_entity_observer_hears_only_its_entity_s_changes(void **state) {
    fixture f = make_fixture();
    (void)state;
    assert_int_not_equal(ecs_sched_observer_add(f.w, &(ecs_sched_observer_desc){
                             .name = "turret_moves", .event = ECS_SCHED_ON_ADD,
                             .component = f.position, .entity = f.turret, .fn = note}),
                         0);
    assert_int_equal(ecs_sched_insert(f.w, f.ship, f.position, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(f.w, f.turret, f.position, NULL), ECS_SCHED_OK);
    assert_string_equal(g_trace, "turret_moves:turret/turret:-1");
    check_and_destroy(f.w);
}

static void an_up_observer_hears_the_events_of_its_entity_s_ancestors(void **state) {
    fixture f = make_fixture();
    (void)state;
    assert_int_not_equal(ecs_sched_observer_add(f.w, &(ecs_sched_observer_desc){
                             .name = "barrel_up", .event = ECS_SCHED_ON_EVENT, .component = f.hit,
                             .entity = f.barrel, .up = true, .fn = note}),
                         0);
    assert_int_equal(ecs_sched_emit(f.w, &(ecs_sched_event_desc){.event = f.hit, .entity = f.ship,
                                                                 .payload = &(Hit){4}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_emit(f.w, &(ecs_sched_event_desc){.event = f.hit, .entity = f.turret,
                                                                 .payload = &(Hit){6},
                                                                 .propagate = true}),
                     ECS_SCHED_OK);
    assert_string_equal(g_trace, "barrel_up:ship/ship:4 barrel_up:turret/turret:6 "
                                 "barrel_up:ship/turret:6");
    assert_int_equal(ecs_sched_observer_add(f.w, &(ecs_sched_observer_desc){
                         .name = "no_entity", .event = ECS_SCHED_ON_EVENT, .component = f.hit,
                         .up = true, .fn = note}),
                     0);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "which an entity observer of"));
    assert_int_equal(ecs_sched_observer_add(f.w, &(ecs_sched_observer_desc){
                         .name = "despawns_up", .event = ECS_SCHED_ON_DESPAWN,
                         .entity = f.barrel, .up = true, .fn = note}),
                     0);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "'despawns_up'"));
    check_and_destroy(f.w);
}

static void an_up_observer_hears_its_ancestors_components_change(void **state) {
    fixture f = make_fixture();
    ecs_sched_entity stranger = named(f.w, "stranger", 0);
    (void)state;
    assert_int_not_equal(ecs_sched_observer_add(f.w, &(ecs_sched_observer_desc){
                             .name = "set_up", .event = ECS_SCHED_ON_SET,
                             .component = f.position, .entity = f.barrel, .up = true,
                             .fn = note}),
                         0);
    assert_int_not_equal(ecs_sched_observer_add(f.w, &(ecs_sched_observer_desc){
                             .name = "removed_up", .event = ECS_SCHED_ON_REMOVE,
                             .component = f.position, .entity = f.turret, .up = true,
                             .fn = note}),
                         0);
    assert_int_equal(ecs_sched_insert(f.w, f.ship, f.position, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(f.w, stranger, f.position, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(f.w, f.barrel, f.position, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_remove(f.w, f.barrel, f.position), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_remove(f.w, f.ship, f.position), ECS_SCHED_OK);
    /* the barrel's own change is its own; its removal is below the turret, not above */
    assert_string_equal(g_trace, "set_up:ship/ship:-1 set_up:barrel/barrel:-1 "
                                 "removed_up:ship/ship:-1");
    check_and_destroy(f.w);
}

static void despawn_in_observer(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    assert_int_equal(ecs_sched_despawn(ecs_sched_ctx_world(ctx), t->entity), ECS_SCHED_OK);
}

static void what_the_observers_change_is_applied_before_emit_returns(void **state) {
    fixture f = make_fixture();
    (void)state;
    listen(f.w, "killer", f.hit, f.barrel, despawn_in_observer);
    assert_int_equal(ecs_sched_emit(f.w, &(ecs_sched_event_desc){.event = f.hit, .entity = f.barrel}),
                     ECS_SCHED_OK);
    assert_false(ecs_sched_is_alive(f.w, f.barrel));
    check_and_destroy(f.w);
}

static void bad_events_are_refused_naming_what_is_wrong(void **state) {
    fixture f = make_fixture();
    ecs_sched_entity dead = ecs_sched_spawn(f.w);
    ecs_sched_id likes = ecs_sched_relation_register(f.w, &(ecs_sched_relation_desc){.name = "Likes"});
    (void)state;
    assert_int_equal(ecs_sched_despawn(f.w, dead), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_emit(f.w, &(ecs_sched_event_desc){.event = 9999}),
                     ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_int_equal(ecs_sched_emit(f.w, &(ecs_sched_event_desc){.event = f.hit, .entity = dead}),
                     ECS_SCHED_ERR_STALE_ENTITY);
    assert_int_equal(ecs_sched_emit(f.w, &(ecs_sched_event_desc){.event = f.hit, .propagate = true}),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "sent to no entity"));
    assert_int_equal(ecs_sched_emit(f.w, &(ecs_sched_event_desc){.event = f.hit, .entity = f.barrel,
                                                                 .propagate = true,
                                                                 .traverse = likes}),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "'Likes', which is not an exclusive, acyclic"));
    assert_int_equal(ecs_sched_observer_add(f.w, &(ecs_sched_observer_desc){
                         .name = "gone", .event = ECS_SCHED_ON_EVENT, .component = f.hit,
                         .entity = dead, .fn = note}),
                     0);
    assert_int_equal(ecs_sched_last_result(f.w), ECS_SCHED_ERR_STALE_ENTITY);
    check_and_destroy(f.w);
}

static ecs_sched_id g_hit;

static void emit_from_system(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    if (w) (void)ecs_sched_emit(w, &(ecs_sched_event_desc){.event = g_hit});
}

static void an_exclusive_system_may_emit(void **state) {
    fixture f = make_fixture();
    (void)state;
    g_hit = f.hit;
    listen(f.w, "all", f.hit, 0, note);
    assert_int_equal(ecs_sched_add_system(f.w, UPDATE,
                                          &(ecs_sched_system_desc){.name = "emitter",
                                                                   .fn = emit_from_system,
                                                                   .exclusive = true}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(f.w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_trace, "all:-/-:-1");
    check_and_destroy(f.w);
}

/* ---- rarer cases ---- */

static void an_up_observer_that_stops_the_event_keeps_it_from_the_ancestors(void **state) {
    fixture f = make_fixture();
    (void)state;
    assert_int_not_equal(ecs_sched_observer_add(f.w, &(ecs_sched_observer_desc){
                             .name = "other_event_up", .event = ECS_SCHED_ON_EVENT,
                             .component = f.position, .entity = f.barrel, .up = true,
                             .fn = note}),
                         0);
    assert_int_not_equal(ecs_sched_observer_add(f.w, &(ecs_sched_observer_desc){
                             .name = "set_up", .event = ECS_SCHED_ON_SET,
                             .component = f.position, .entity = f.barrel, .up = true,
                             .fn = note}),
                         0);
    assert_int_not_equal(ecs_sched_observer_add(f.w, &(ecs_sched_observer_desc){
                             .name = "barrel_up", .event = ECS_SCHED_ON_EVENT, .component = f.hit,
                             .entity = f.barrel, .up = true, .fn = stop_here}),
                         0);
    listen(f.w, "ship", f.hit, f.ship, note);
    assert_int_equal(ecs_sched_emit(f.w, &(ecs_sched_event_desc){.event = f.hit, .entity = f.turret,
                                                                 .payload = &(Hit){6},
                                                                 .propagate = true}),
                     ECS_SCHED_OK);
    assert_string_equal(g_trace, "barrel_up:turret/turret:6");
    check_and_destroy(f.w);
}

static void emitting_without_a_desc_or_along_a_component_is_refused(void **state) {
    fixture f = make_fixture();
    (void)state;
    assert_int_equal(ecs_sched_emit(f.w, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "emit: desc is NULL"));
    assert_int_equal(ecs_sched_emit(f.w, &(ecs_sched_event_desc){.event = f.hit, .entity = f.barrel,
                                                                 .propagate = true,
                                                                 .traverse = f.position}),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "along 'Position', which is not an exclusive"));
    check_and_destroy(f.w);
}

static ecs_sched_world *g_emitting_world;
static ecs_sched_result g_emitted;

static void emit_through_the_world_pointer(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    g_emitted = ecs_sched_emit(g_emitting_world, &(ecs_sched_event_desc){.event = g_hit});
}

static void a_system_that_is_not_exclusive_may_not_emit(void **state) {
    fixture f = make_fixture();
    (void)state;
    g_hit = f.hit;
    g_emitting_world = f.w;
    g_emitted = ECS_SCHED_OK;
    listen(f.w, "all", f.hit, 0, note);
    assert_int_equal(ecs_sched_add_system(f.w, UPDATE,
                                          &(ecs_sched_system_desc){.name = "sneaky",
                                                                   .fn = emit_through_the_world_pointer}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(f.w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_int_equal(g_emitted, ECS_SCHED_ERR_ACCESS);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "sneaky"));
    assert_non_null(strstr(ecs_sched_last_error(f.w), "emit"));
    assert_string_equal(g_trace, "");
    check_and_destroy(f.w);
}

static void an_event_no_observer_hears_is_sent_all_the_same(void **state) {
    fixture f = make_fixture();
    (void)state;
    assert_int_equal(ecs_sched_emit(f.w, &(ecs_sched_event_desc){.event = f.hit, .entity = f.barrel,
                                                                 .payload = &(Hit){1},
                                                                 .propagate = true}),
                     ECS_SCHED_OK);
    assert_string_equal(g_trace, "");
    assert_true(ecs_sched_is_alive(f.w, f.barrel));
    check_and_destroy(f.w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(an_event_no_observer_hears_is_sent_all_the_same),
        cmocka_unit_test(an_up_observer_that_stops_the_event_keeps_it_from_the_ancestors),
        cmocka_unit_test(emitting_without_a_desc_or_along_a_component_is_refused),
        cmocka_unit_test(a_system_that_is_not_exclusive_may_not_emit),
        cmocka_unit_test(an_event_sent_to_no_entity_reaches_the_observers_of_no_entity),
        cmocka_unit_test(an_event_sent_to_an_entity_reaches_its_observers_and_those_of_no_entity),
        cmocka_unit_test(an_event_without_a_value_has_no_payload),
        cmocka_unit_test(a_travelling_event_goes_up_the_ancestors),
        cmocka_unit_test(an_observer_that_stops_the_event_keeps_it_from_going_further_up),
        cmocka_unit_test(an_event_that_does_not_travel_stays_at_its_entity),
        cmocka_unit_test(an_entity_observer_hears_only_its_entity_s_changes),
        cmocka_unit_test(an_up_observer_hears_the_events_of_its_entity_s_ancestors),
        cmocka_unit_test(an_up_observer_hears_its_ancestors_components_change),
        cmocka_unit_test(what_the_observers_change_is_applied_before_emit_returns),
        cmocka_unit_test(bad_events_are_refused_naming_what_is_wrong),
        cmocka_unit_test(an_exclusive_system_may_emit),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
