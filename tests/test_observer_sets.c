/* OnSet and UnSet (ON_SET, ON_UNSET), monitors (ON_MATCH, ON_UNMATCH), and the calls that
   write values in place: ecs_sched_ensure (get or add), ecs_sched_emplace (construct in place)
   and ecs_sched_modified (a write through a pointer becomes a change). */
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
    ecs_sched_id position, velocity, mass;
} fixture;

static fixture make_fixture(void) {
    fixture f;
    f.w = new_world();
    f.position = ECS_SCHED_COMPONENT(f.w, Position);
    f.velocity = ECS_SCHED_COMPONENT(f.w, Velocity);
    f.mass = ecs_sched_component_register_type(f.w, "Mass", sizeof(float), sizeof(float));
    return f;
}

/* Writes the event and, for ON_SET / ON_UNSET of Position, its x as the observer sees it. */
static void note(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    static const char *const names[] = {"?", "add", "insert", "remove", "despawn",
                                        "set", "unset", "match", "unmatch"};
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    char word[32];
    ecs_sched_id position = ecs_sched_component_lookup(w, "Position");
    if ((t->event == ECS_SCHED_ON_SET || t->event == ECS_SCHED_ON_UNSET) && t->component == position) {
        const Position *p = (const Position *)ecs_sched_get(w, t->entity, position);
        snprintf(word, sizeof word, "%s(%g)", names[t->event], p ? (double)p->x : -1.0);
    } else {
        snprintf(word, sizeof word, "%s", names[t->event]);
    }
    trace_add(word);
}

static void observe(ecs_sched_world *w, ecs_sched_observer_event event, ecs_sched_id component) {
    assert_int_not_equal(ecs_sched_observer_add(w, &(ecs_sched_observer_desc){
                             .name = "note", .event = event, .component = component, .fn = note}),
                         0);
}

static void monitor(ecs_sched_world *w, ecs_sched_observer_event event, const char *text) {
    assert_int_not_equal(ecs_sched_observer_add(w, &(ecs_sched_observer_desc){
                             .name = "monitor", .event = event, .query_text = text, .fn = note}),
                         0);
}

/* ---- ON_SET, ON_UNSET ---- */

static void on_set_hears_inserts_after_on_insert(void **state) {
    fixture f = make_fixture();
    ecs_sched_entity e = ecs_sched_spawn(f.w);
    (void)state;
    observe(f.w, ECS_SCHED_ON_INSERT, f.position);
    observe(f.w, ECS_SCHED_ON_SET, f.position);
    assert_int_equal(ecs_sched_insert(f.w, e, f.position, &(Position){3, 0}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(f.w, e, f.position, &(Position){4, 0}), ECS_SCHED_OK);
    (void)SPAWN(f.w, {f.position, &(Position){5, 0}});
    assert_string_equal(g_trace, "insert set(3) insert set(4) insert set(5)");
    check_and_destroy(f.w);
}

static void on_unset_hears_a_removal_before_the_value_goes(void **state) {
    fixture f = make_fixture();
    ecs_sched_entity e = SPAWN(f.w, {f.position, &(Position){7, 0}});
    (void)state;
    observe(f.w, ECS_SCHED_ON_UNSET, f.position);
    assert_int_equal(ecs_sched_remove(f.w, e, f.position), ECS_SCHED_OK);
    assert_string_equal(g_trace, "unset(7)");
    check_and_destroy(f.w);
}

static void on_unset_hears_a_despawn(void **state) {
    fixture f = make_fixture();
    ecs_sched_entity e = SPAWN(f.w, {f.position, &(Position){8, 0}});
    (void)state;
    observe(f.w, ECS_SCHED_ON_UNSET, f.position);
    assert_int_equal(ecs_sched_despawn(f.w, e), ECS_SCHED_OK);
    assert_string_equal(g_trace, "unset(8)");
    check_and_destroy(f.w);
}

static void removing_an_owned_value_over_a_base_s_one_is_a_set_not_an_unset(void **state) {
    fixture f = make_fixture();
    ecs_sched_entity base = SPAWN(f.w, {f.position, &(Position){1, 0}});
    ecs_sched_entity e = ecs_sched_spawn(f.w);
    (void)state;
    assert_int_equal(ecs_sched_relate(f.w, e, ecs_sched_component_lookup(f.w, "ecs_sched.IsA"), base,
                                      NULL),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(f.w, e, f.position, &(Position){9, 0}), ECS_SCHED_OK);
    observe(f.w, ECS_SCHED_ON_SET, f.position);
    observe(f.w, ECS_SCHED_ON_UNSET, f.position);
    assert_int_equal(ecs_sched_remove(f.w, e, f.position), ECS_SCHED_OK);
    assert_string_equal(g_trace, "set(1)");   /* the base's value shows, after the removal */
    check_and_destroy(f.w);
}

static ecs_sched_result make_instance(ecs_sched_world *w, ecs_sched_entity instance,
                                      ecs_sched_entity base) {
    return ecs_sched_relate(w, instance, ecs_sched_is_a(w), base, NULL);
}

static void a_base_that_loses_a_value_its_instances_show_is_an_unset_for_them(void **state) {
    fixture f = make_fixture();
    ecs_sched_entity base = SPAWN(f.w, {f.position, &(Position){2, 0}});
    ecs_sched_entity shows = ecs_sched_spawn(f.w), owns = SPAWN(f.w, {f.position, &(Position){5, 0}});
    (void)state;
    assert_int_equal(make_instance(f.w, shows, base), ECS_SCHED_OK);
    assert_int_equal(make_instance(f.w, owns, base), ECS_SCHED_OK);
    observe(f.w, ECS_SCHED_ON_UNSET, f.position);
    assert_int_equal(ecs_sched_remove(f.w, base, f.position), ECS_SCHED_OK);
    assert_string_equal(g_trace, "unset(2) unset(2)");   /* the base's own, then its instance's */
    check_and_destroy(f.w);
}

static void a_base_that_gains_a_value_is_a_set_for_the_instances_that_do_not_own_it(void **state) {
    fixture f = make_fixture();
    ecs_sched_entity base = ecs_sched_spawn(f.w);
    ecs_sched_entity shows = ecs_sched_spawn(f.w), owns = SPAWN(f.w, {f.position, &(Position){5, 0}});
    ecs_sched_entity nested = ecs_sched_spawn(f.w);
    (void)state;
    assert_int_equal(make_instance(f.w, shows, base), ECS_SCHED_OK);
    assert_int_equal(make_instance(f.w, owns, base), ECS_SCHED_OK);
    assert_int_equal(make_instance(f.w, nested, shows), ECS_SCHED_OK);
    observe(f.w, ECS_SCHED_ON_SET, f.position);
    assert_int_equal(ecs_sched_insert(f.w, base, f.position, &(Position){3, 0}), ECS_SCHED_OK);
    assert_string_equal(g_trace, "set(3) set(3) set(3)");   /* base, shows, nested */
    check_and_destroy(f.w);
}

static void an_instance_hears_a_set_when_it_gains_a_base_and_an_unset_when_it_loses_it(void **state) {
    fixture f = make_fixture();
    ecs_sched_entity base = SPAWN(f.w, {f.position, &(Position){4, 0}});
    ecs_sched_entity e = ecs_sched_spawn(f.w);
    (void)state;
    observe(f.w, ECS_SCHED_ON_SET, f.position);
    observe(f.w, ECS_SCHED_ON_UNSET, f.position);
    assert_int_equal(make_instance(f.w, e, base), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_unrelate(f.w, e, ecs_sched_is_a(f.w), base), ECS_SCHED_OK);
    assert_string_equal(g_trace, "set(4) unset(4)");
    check_and_destroy(f.w);
}

/* ---- ensure, emplace, modified ---- */

static void ensure_adds_a_default_value_once_and_returns_the_entity_s_own(void **state) {
    fixture f = make_fixture();
    ecs_sched_entity e = ecs_sched_spawn(f.w);
    Position *p;
    (void)state;
    observe(f.w, ECS_SCHED_ON_ADD, f.position);
    observe(f.w, ECS_SCHED_ON_SET, f.position);
    p = (Position *)ecs_sched_ensure(f.w, e, f.position);
    assert_non_null(p);
    assert_true(p->x == 0 && p->y == 0);
    p->x = 5;
    p = (Position *)ecs_sched_ensure(f.w, e, f.position);
    assert_true(p->x == 5);
    assert_string_equal(g_trace, "add");
    check_and_destroy(f.w);
}

static void ensure_of_a_sparse_component_adds_it_heard_by_on_add_only(void **state) {
    fixture f = make_fixture();
    ecs_sched_entity e = ecs_sched_spawn(f.w);
    ecs_sched_id heat = ecs_sched_component_register(f.w, &(ecs_sched_component_desc){
        .name = "Heat", .size = sizeof(float), .storage = ECS_SCHED_STORAGE_SPARSE});
    float *p;
    (void)state;
    observe(f.w, ECS_SCHED_ON_ADD, heat);
    observe(f.w, ECS_SCHED_ON_INSERT, heat);
    observe(f.w, ECS_SCHED_ON_SET, heat);
    p = (float *)ecs_sched_ensure(f.w, e, heat);
    assert_non_null(p);
    assert_true(*p == 0);
    *p = 5;
    p = (float *)ecs_sched_ensure(f.w, e, heat);
    assert_true(*p == 5);
    assert_string_equal(g_trace, "add");
    check_and_destroy(f.w);
}

static void ensure_of_a_tag_is_refused(void **state) {
    fixture f = make_fixture();
    ecs_sched_id tag = ecs_sched_component_register_type(f.w, "Tag", 0, 0);
    (void)state;
    assert_null(ecs_sched_ensure(f.w, ecs_sched_spawn(f.w), tag));
    assert_int_equal(ecs_sched_last_result(f.w), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "ensure: 'Tag' is a tag"));
    check_and_destroy(f.w);
}

static void emplace_adds_without_a_set_until_modified_publishes_it(void **state) {
    fixture f = make_fixture();
    ecs_sched_entity e = ecs_sched_spawn(f.w);
    Position *p;
    bool is_new = false;
    (void)state;
    observe(f.w, ECS_SCHED_ON_ADD, f.position);
    observe(f.w, ECS_SCHED_ON_INSERT, f.position);
    observe(f.w, ECS_SCHED_ON_SET, f.position);
    p = (Position *)ecs_sched_emplace(f.w, e, f.position, &is_new);
    assert_non_null(p);
    assert_true(is_new);
    p->x = 6;
    assert_string_equal(g_trace, "add");
    assert_int_equal(ecs_sched_modified(f.w, e, f.position), ECS_SCHED_OK);
    assert_string_equal(g_trace, "add set(6)");
    p = (Position *)ecs_sched_emplace(f.w, e, f.position, &is_new);
    assert_false(is_new);
    assert_true(p->x == 6);
    check_and_destroy(f.w);
}

static int32_t g_ctors;
static void counting_ctor(void *ptr, int32_t count, void *ctx) {
    (void)ctx;
    memset(ptr, 0, (size_t)count * sizeof(Position));
    g_ctors += count;
}

static void emplace_leaves_constructing_to_the_caller_and_ensure_does_not(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id id = ecs_sched_component_register(
        w, &(ecs_sched_component_desc){.name = "Built", .size = sizeof(Position),
                                       .alignment = sizeof(float),
                                       .hooks = {.ctor = counting_ctor}});
    (void)state;
    g_ctors = 0;
    assert_non_null(ecs_sched_emplace(w, ecs_sched_spawn(w), id, NULL));
    assert_int_equal(g_ctors, 0);
    assert_non_null(ecs_sched_ensure(w, ecs_sched_spawn(w), id));
    assert_int_equal(g_ctors, 1);
    check_and_destroy(w);
}

/* Rows a query hands out now (outside systems: changes since its previous iteration). */
static int32_t rows_now(ecs_sched_query *q) {
    ecs_sched_iter it = ecs_sched_query_iter(q);
    int32_t rows = 0;
    while (ecs_sched_iter_next(&it)) rows += it.count;
    return rows;
}

static void modified_marks_a_tracked_value_changed(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id health = ecs_sched_tracked_component_register_type(w, "Health", sizeof(Health),
                                                                    sizeof(int));
    ecs_sched_entity e = SPAWN(w, {health, &(Health){1}});
    ecs_sched_query *changed = ecs_sched_query_create(
        w, &(ecs_sched_query_desc){.terms = {ecs_sched_changed(health)}});
    (void)state;
    assert_int_equal(rows_now(changed), 1);   /* added counts as changed */
    assert_int_equal(rows_now(changed), 0);
    assert_int_equal(ecs_sched_modified(w, e, health), ECS_SCHED_OK);
    assert_int_equal(rows_now(changed), 1);
    check_and_destroy(w);
}

static void modified_of_a_value_the_entity_does_not_own_is_a_missing_component(void **state) {
    fixture f = make_fixture();
    (void)state;
    assert_int_equal(ecs_sched_modified(f.w, ecs_sched_spawn(f.w), f.position),
                     ECS_SCHED_ERR_MISSING_COMPONENT);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "no value of 'Position' of its own"));
    check_and_destroy(f.w);
}

/* ---- monitors ---- */

static void a_monitor_hears_an_entity_start_and_stop_matching_once_each(void **state) {
    fixture f = make_fixture();
    ecs_sched_entity e;
    (void)state;
    monitor(f.w, ECS_SCHED_ON_MATCH, "Position, Velocity");
    monitor(f.w, ECS_SCHED_ON_UNMATCH, "Position, Velocity");
    e = SPAWN(f.w, {f.position, NULL});                                  /* not yet */
    assert_int_equal(ecs_sched_insert(f.w, e, f.velocity, NULL), ECS_SCHED_OK);   /* match */
    assert_int_equal(ecs_sched_insert(f.w, e, f.mass, NULL), ECS_SCHED_OK);       /* still */
    assert_int_equal(ecs_sched_remove(f.w, e, f.position), ECS_SCHED_OK);         /* unmatch */
    assert_int_equal(ecs_sched_insert(f.w, e, f.position, NULL), ECS_SCHED_OK);   /* match */
    assert_string_equal(g_trace, "match unmatch match");
    check_and_destroy(f.w);
}

static void a_spawn_with_every_component_is_one_match(void **state) {
    fixture f = make_fixture();
    (void)state;
    monitor(f.w, ECS_SCHED_ON_MATCH, "Position, Velocity");
    (void)SPAWN(f.w, {f.position, NULL}, {f.velocity, NULL}, {f.mass, NULL});
    assert_string_equal(g_trace, "match");
    check_and_destroy(f.w);
}

static void a_component_the_query_excludes_makes_an_entity_stop_and_start_matching(void **state) {
    fixture f = make_fixture();
    ecs_sched_entity e;
    (void)state;
    e = SPAWN(f.w, {f.position, NULL});
    monitor(f.w, ECS_SCHED_ON_MATCH, "Position, !Mass");
    monitor(f.w, ECS_SCHED_ON_UNMATCH, "Position, !Mass");
    assert_int_equal(ecs_sched_insert(f.w, e, f.mass, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_remove(f.w, e, f.mass), ECS_SCHED_OK);
    assert_string_equal(g_trace, "unmatch match");
    check_and_destroy(f.w);
}

static void despawning_a_matching_entity_is_an_unmatch(void **state) {
    fixture f = make_fixture();
    ecs_sched_entity a = SPAWN(f.w, {f.position, NULL}, {f.velocity, NULL});
    ecs_sched_entity b = SPAWN(f.w, {f.position, NULL});
    (void)state;
    monitor(f.w, ECS_SCHED_ON_UNMATCH, "Position, Velocity");
    assert_int_equal(ecs_sched_despawn(f.w, b), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(f.w, a), ECS_SCHED_OK);
    assert_string_equal(g_trace, "unmatch");
    check_and_destroy(f.w);
}

static void a_monitor_needs_a_query(void **state) {
    fixture f = make_fixture();
    (void)state;
    assert_int_equal(ecs_sched_observer_add(f.w, &(ecs_sched_observer_desc){
                         .name = "lonely", .event = ECS_SCHED_ON_MATCH, .component = f.position,
                         .fn = note}),
                     0);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "is a monitor (ON_MATCH or ON_UNMATCH) "
                                                      "without a query"));
    check_and_destroy(f.w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(on_set_hears_inserts_after_on_insert),
        cmocka_unit_test(on_unset_hears_a_removal_before_the_value_goes),
        cmocka_unit_test(on_unset_hears_a_despawn),
        cmocka_unit_test(removing_an_owned_value_over_a_base_s_one_is_a_set_not_an_unset),
        cmocka_unit_test(a_base_that_loses_a_value_its_instances_show_is_an_unset_for_them),
        cmocka_unit_test(a_base_that_gains_a_value_is_a_set_for_the_instances_that_do_not_own_it),
        cmocka_unit_test(an_instance_hears_a_set_when_it_gains_a_base_and_an_unset_when_it_loses_it),
        cmocka_unit_test(ensure_adds_a_default_value_once_and_returns_the_entity_s_own),
        cmocka_unit_test(ensure_of_a_sparse_component_adds_it_heard_by_on_add_only),
        cmocka_unit_test(ensure_of_a_tag_is_refused),
        cmocka_unit_test(emplace_adds_without_a_set_until_modified_publishes_it),
        cmocka_unit_test(emplace_leaves_constructing_to_the_caller_and_ensure_does_not),
        cmocka_unit_test(modified_marks_a_tracked_value_changed),
        cmocka_unit_test(modified_of_a_value_the_entity_does_not_own_is_a_missing_component),
        cmocka_unit_test(a_monitor_hears_an_entity_start_and_stop_matching_once_each),
        cmocka_unit_test(a_spawn_with_every_component_is_one_match),
        cmocka_unit_test(a_component_the_query_excludes_makes_an_entity_stop_and_start_matching),
        cmocka_unit_test(despawning_a_matching_entity_is_an_unmatch),
        cmocka_unit_test(a_monitor_needs_a_query),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
