/* Resources: one value per component type, owned by the world, independent of entities. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ecs_sched.h"

#include <cmocka.h>

#include "world_fixture.h"

/* The last call failed because resource `name` does not exist, and said so in the log. */
static void assert_missing_resource_reported(ecs_sched_world *world, const captured_log *log,
                                             const char *name) {
    assert_failed_with(world, log, ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_non_null(strstr(ecs_sched_last_error(world), name));
}

typedef struct { float x, y, z; } Gravity;
typedef struct { double seconds; int frames; } Clock;

/* ---- values ---- */

static void inserted_resource_exists_and_reads_back(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id gravity = ECS_SCHED_COMPONENT(w, Gravity);
    Gravity g = {0, -9.81f, 0};
    const Gravity *stored;
    (void)state;
    assert_false(ecs_sched_resource_exists(w, gravity));
    assert_int_equal(ecs_sched_resource_insert(w, gravity, &g), ECS_SCHED_OK);
    assert_true(ecs_sched_resource_exists(w, gravity));
    stored = (const Gravity *)ecs_sched_resource_get(w, gravity);
    assert_non_null(stored);
    assert_true(stored->x == 0 && stored->y == -9.81f && stored->z == 0);
    assert_int_equal(log.errors, 0);
    check_and_destroy(w);
}

static void inserted_value_is_copied_by_the_world(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id gravity = ECS_SCHED_COMPONENT(w, Gravity);
    Gravity g = {1, 2, 3};
    (void)state;
    ecs_sched_resource_insert(w, gravity, &g);
    g.x = 100;
    assert_true(((const Gravity *)ecs_sched_resource_get(w, gravity))->x == 1);
    check_and_destroy(w);
}

static void inserting_without_a_value_zeroes_the_resource(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id clock = ECS_SCHED_COMPONENT(w, Clock);
    const Clock *c;
    (void)state;
    assert_int_equal(ecs_sched_resource_insert(w, clock, NULL), ECS_SCHED_OK);
    c = (const Clock *)ecs_sched_resource_get(w, clock);
    assert_non_null(c);
    assert_true(c->seconds == 0 && c->frames == 0);
    check_and_destroy(w);
}

static void writes_through_get_mut_are_seen_by_get(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id clock = ECS_SCHED_COMPONENT(w, Clock);
    Clock *c;
    (void)state;
    ecs_sched_resource_insert(w, clock, NULL);
    c = (Clock *)ecs_sched_resource_get_mut(w, clock);
    assert_non_null(c);
    c->frames = 12;
    c->seconds = 0.5;
    assert_int_equal(((const Clock *)ecs_sched_resource_get(w, clock))->frames, 12);
    assert_true(((const Clock *)ecs_sched_resource_get(w, clock))->seconds == 0.5);
    check_and_destroy(w);
}

static void inserting_again_overwrites_the_value(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id gravity = ECS_SCHED_COMPONENT(w, Gravity);
    Gravity first = {1, 1, 1}, second = {2, 3, 4};
    const Gravity *g;
    (void)state;
    ecs_sched_resource_insert(w, gravity, &first);
    assert_int_equal(ecs_sched_resource_insert(w, gravity, &second), ECS_SCHED_OK);
    g = (const Gravity *)ecs_sched_resource_get(w, gravity);
    assert_true(g->x == 2 && g->y == 3 && g->z == 4);
    assert_true(ecs_sched_resource_exists(w, gravity));
    check_and_destroy(w);
}

static void each_type_holds_its_own_resource(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id gravity = ECS_SCHED_COMPONENT(w, Gravity);
    ecs_sched_id clock = ECS_SCHED_COMPONENT(w, Clock);
    Gravity g = {1, 2, 3};
    Clock c = {4.0, 5};
    (void)state;
    ecs_sched_resource_insert(w, gravity, &g);
    assert_false(ecs_sched_resource_exists(w, clock));
    ecs_sched_resource_insert(w, clock, &c);
    assert_true(((const Gravity *)ecs_sched_resource_get(w, gravity))->z == 3);
    assert_int_equal(((const Clock *)ecs_sched_resource_get(w, clock))->frames, 5);
    ecs_sched_resource_remove(w, gravity);
    assert_int_equal(((const Clock *)ecs_sched_resource_get(w, clock))->frames, 5);
    check_and_destroy(w);
}

static void resources_are_independent_of_entity_components(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id position = ECS_SCHED_COMPONENT(w, Position);
    Position resource = {10, 20}, component = {1, 2};
    ecs_sched_entity e;
    ecs_sched_query *q;
    (void)state;
    e = SPAWN(w, {position, &component});
    ecs_sched_resource_insert(w, position, &resource);
    q = QUERY(w, ecs_sched_read(position));
    assert_non_null(q);
    assert_int_equal(ecs_sched_query_count(q), 1);
    assert_true(((const Position *)ecs_sched_get(w, e, position))->x == 1);
    assert_true(((const Position *)ecs_sched_resource_get(w, position))->x == 10);
    assert_int_equal(ecs_sched_despawn(w, e), ECS_SCHED_OK);
    assert_true(((const Position *)ecs_sched_resource_get(w, position))->y == 20);
    assert_int_equal(ecs_sched_entity_count(w), 0);
    check_and_destroy(w);
}

static void resource_storage_honours_alignment(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id big = ecs_sched_component_register_type(w, "Aligned64", 64, 64);
    ecs_sched_id small = ecs_sched_component_register_type(w, "Byte", 1, 1);
    (void)state;
    ecs_sched_resource_insert(w, small, NULL);
    ecs_sched_resource_insert(w, big, NULL);
    assert_int_equal((uintptr_t)ecs_sched_resource_get(w, big) % 64, 0);
    check_and_destroy(w);
}

/* ---- removal and missing resources ---- */

static void removed_resource_no_longer_exists(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id gravity = ECS_SCHED_COMPONENT(w, Gravity);
    (void)state;
    ecs_sched_resource_insert(w, gravity, NULL);
    assert_int_equal(ecs_sched_resource_remove(w, gravity), ECS_SCHED_OK);
    assert_false(ecs_sched_resource_exists(w, gravity));
    assert_null(ecs_sched_resource_get(w, gravity));
    check_and_destroy(w);
}

static void removed_resource_can_be_inserted_again(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id gravity = ECS_SCHED_COMPONENT(w, Gravity);
    Gravity g = {7, 8, 9};
    (void)state;
    ecs_sched_resource_insert(w, gravity, NULL);
    ecs_sched_resource_remove(w, gravity);
    assert_int_equal(ecs_sched_resource_insert(w, gravity, &g), ECS_SCHED_OK);
    assert_true(((const Gravity *)ecs_sched_resource_get(w, gravity))->y == 8);
    check_and_destroy(w);
}

static void get_of_a_missing_resource_returns_null_and_names_it(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id gravity = ECS_SCHED_COMPONENT(w, Gravity);
    (void)state;
    assert_null(ecs_sched_resource_get(w, gravity));
    assert_missing_resource_reported(w, &log, "Gravity");
    check_and_destroy(w);
}

static void get_mut_of_a_missing_resource_returns_null_and_names_it(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id gravity = ECS_SCHED_COMPONENT(w, Gravity);
    (void)state;
    assert_null(ecs_sched_resource_get_mut(w, gravity));
    assert_missing_resource_reported(w, &log, "Gravity");
    check_and_destroy(w);
}

static void remove_of_a_missing_resource_fails_and_names_it(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id clock = ECS_SCHED_COMPONENT(w, Clock);
    (void)state;
    assert_int_equal(ecs_sched_resource_remove(w, clock), ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_missing_resource_reported(w, &log, "Clock");
    ecs_sched_resource_insert(w, clock, NULL);
    ecs_sched_resource_remove(w, clock);
    assert_int_equal(ecs_sched_resource_remove(w, clock), ECS_SCHED_ERR_MISSING_RESOURCE);
    check_and_destroy(w);
}

static void exists_of_a_missing_resource_is_false_without_an_error(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id clock = ECS_SCHED_COMPONENT(w, Clock);
    (void)state;
    assert_false(ecs_sched_resource_exists(w, clock));
    assert_int_equal(log.errors, 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_OK);
    check_and_destroy(w);
}

/* ---- hooks ---- */

typedef struct Counted {
    int constructed;
    int value;
} Counted;

typedef struct hook_counts {
    int ctors, dtors, copies, moves;
} hook_counts;

static void counted_ctor(void *dst, int32_t count, void *ctx) {
    Counted *c = (Counted *)dst;
    int32_t i;
    for (i = 0; i < count; i++) {
        c[i].constructed = 1;
        c[i].value = -1;
    }
    ((hook_counts *)ctx)->ctors += count;
}

static void counted_dtor(void *ptr, int32_t count, void *ctx) {
    Counted *c = (Counted *)ptr;
    int32_t i;
    for (i = 0; i < count; i++) c[i].constructed = 0;
    ((hook_counts *)ctx)->dtors += count;
}

static void counted_copy(void *dst, const void *src, int32_t count, void *ctx) {
    Counted *d = (Counted *)dst;
    const Counted *s = (const Counted *)src;
    int32_t i;
    for (i = 0; i < count; i++) d[i].value = s[i].value;
    ((hook_counts *)ctx)->copies += count;
}

static void counted_move(void *dst, void *src, int32_t count, void *ctx) {
    memcpy(dst, src, sizeof(Counted) * (size_t)count);
    ((hook_counts *)ctx)->moves += count;
}

static ecs_sched_id register_counted(ecs_sched_world *w, hook_counts *counts) {
    ecs_sched_component_desc desc;
    memset(counts, 0, sizeof *counts);
    memset(&desc, 0, sizeof desc);
    desc.name = "Counted";
    desc.size = sizeof(Counted);
    desc.hooks.ctor = counted_ctor;
    desc.hooks.dtor = counted_dtor;
    desc.hooks.copy = counted_copy;
    desc.hooks.move = counted_move;
    desc.hooks.ctx = counts;
    return ecs_sched_component_register(w, &desc);
}

static void inserting_a_resource_constructs_it_and_copies_the_value(void **state) {
    captured_log log;
    hook_counts counts;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id counted = register_counted(w, &counts);
    Counted value = {1, 5};
    const Counted *stored;
    (void)state;
    assert_int_equal(ecs_sched_resource_insert(w, counted, &value), ECS_SCHED_OK);
    assert_int_equal(counts.ctors, 1);
    assert_int_equal(counts.copies, 1);
    assert_int_equal(counts.dtors, 0);
    stored = (const Counted *)ecs_sched_resource_get(w, counted);
    assert_int_equal(stored->constructed, 1);
    assert_int_equal(stored->value, 5);
    check_and_destroy(w);
}

static void inserting_a_resource_without_a_value_only_constructs_it(void **state) {
    captured_log log;
    hook_counts counts;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id counted = register_counted(w, &counts);
    (void)state;
    assert_int_equal(ecs_sched_resource_insert(w, counted, NULL), ECS_SCHED_OK);
    assert_int_equal(counts.ctors, 1);
    assert_int_equal(counts.copies, 0);
    assert_int_equal(((const Counted *)ecs_sched_resource_get(w, counted))->value, -1);
    check_and_destroy(w);
}

static void overwriting_a_resource_copy_assigns_it(void **state) {
    captured_log log;
    hook_counts counts;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id counted = register_counted(w, &counts);
    Counted first = {1, 5}, second = {1, 6};
    (void)state;
    ecs_sched_resource_insert(w, counted, &first);
    assert_int_equal(ecs_sched_resource_insert(w, counted, &second), ECS_SCHED_OK);
    assert_int_equal(counts.ctors, 1);
    assert_int_equal(counts.dtors, 0);
    assert_int_equal(counts.copies, 2);
    assert_int_equal(((const Counted *)ecs_sched_resource_get(w, counted))->value, 6);
    check_and_destroy(w);
}

static void removing_a_resource_destroys_it_once(void **state) {
    captured_log log;
    hook_counts counts;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id counted = register_counted(w, &counts);
    (void)state;
    ecs_sched_resource_insert(w, counted, NULL);
    assert_int_equal(ecs_sched_resource_remove(w, counted), ECS_SCHED_OK);
    assert_int_equal(counts.dtors, 1);
    ecs_sched_resource_remove(w, counted);
    assert_int_equal(counts.dtors, 1);
    check_and_destroy(w);
    assert_int_equal(counts.ctors, counts.dtors);
}

static void world_destroy_destroys_the_resources(void **state) {
    captured_log log;
    hook_counts counts;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id counted = register_counted(w, &counts);
    (void)state;
    ecs_sched_resource_insert(w, counted, NULL);
    assert_int_equal(counts.dtors, 0);
    check_and_destroy(w);
    assert_int_equal(counts.ctors, 1);
    assert_int_equal(counts.dtors, 1);
}

/* ---- inside observers, main-thread-only flags, unknown ids ---- */

static ecs_sched_world *g_observed;
static ecs_sched_id g_gravity;
static ecs_sched_result g_result;

static void insert_gravity_inside(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    Gravity g = {0, -9.8f, 0};
    (void)ctx;
    (void)t;
    g_result = ecs_sched_resource_insert(g_observed, g_gravity, &g);
}

static void remove_gravity_inside(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    (void)ctx;
    (void)t;
    g_result = ecs_sched_resource_remove(g_observed, g_gravity);
}

static void observe_position(ecs_sched_world *w, ecs_sched_observer_fn fn) {
    ecs_sched_observer_desc d;
    memset(&d, 0, sizeof d);
    d.name = "keeper";
    d.event = ECS_SCHED_ON_ADD;
    d.component = ecs_sched_component_lookup(w, "Position");
    d.fn = fn;
    assert_true(ecs_sched_observer_add(w, &d) != 0);
}

static void a_resource_inserted_inside_an_observer_is_there_once_the_change_is_done(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    Position p = {1, 2};
    (void)state;
    g_observed = w;
    g_gravity = ECS_SCHED_COMPONENT(w, Gravity);
    g_result = ECS_SCHED_ERR_INVALID_ARGUMENT;
    observe_position(w, insert_gravity_inside);
    assert_true(ecs_sched_spawn_with(w, 1, &pos, (const void *const[]){&p}) != ECS_SCHED_NULL_ENTITY);
    assert_int_equal(g_result, ECS_SCHED_OK);
    assert_true(ecs_sched_resource_exists(w, g_gravity));
    assert_true(((const Gravity *)ecs_sched_resource_get(w, g_gravity))->y == -9.8f);
    check_and_destroy(w);
}

static void removing_a_resource_inside_an_observer_is_refused(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    Position p = {1, 2};
    (void)state;
    g_observed = w;
    g_gravity = ECS_SCHED_COMPONENT(w, Gravity);
    assert_int_equal(ecs_sched_resource_insert(w, g_gravity, NULL), ECS_SCHED_OK);
    g_result = ECS_SCHED_OK;
    observe_position(w, remove_gravity_inside);
    ecs_sched_spawn_with(w, 1, &pos, (const void *const[]){&p});
    assert_int_equal(g_result, ECS_SCHED_ERR_ACCESS);
    assert_non_null(strstr(log.text, "removing a resource inside an observer"));
    assert_true(ecs_sched_resource_exists(w, g_gravity));
    ecs_sched_world_destroy(w);
}

static void only_a_registered_resource_can_be_main_thread_only(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id gravity = ECS_SCHED_COMPONENT(w, Gravity);
    (void)state;
    assert_false(ecs_sched_resource_is_non_send(w, 4000));
    assert_false(ecs_sched_resource_is_non_send(w, gravity));
    assert_int_equal(ecs_sched_resource_insert_non_send(w, 4000, NULL), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_false(ecs_sched_resource_is_non_send(w, 4000));
    assert_int_equal(ecs_sched_resource_insert_non_send(w, gravity, NULL), ECS_SCHED_OK);
    assert_true(ecs_sched_resource_is_non_send(w, gravity));
    check_and_destroy(w);
}

static ecs_sched_result g_inserted, g_removed;

static void change_resources_through_the_world(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    g_inserted = ecs_sched_resource_insert(g_observed, g_gravity, NULL);
    g_removed = ecs_sched_resource_remove(g_observed, g_gravity);
}

static void changing_resources_through_the_world_from_a_plain_system_is_refused(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    Gravity g = {0, -1, 0};
    (void)state;
    g_observed = w;
    g_gravity = ECS_SCHED_COMPONENT(w, Gravity);
    assert_int_equal(ecs_sched_resource_insert(w, g_gravity, &g), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
                         .name = "sneaky", .fn = change_resources_through_the_world}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, "Update"), ECS_SCHED_ERR_ACCESS);
    assert_int_equal(g_inserted, ECS_SCHED_ERR_ACCESS);
    assert_int_equal(g_removed, ECS_SCHED_ERR_ACCESS);
    assert_non_null(strstr(ecs_sched_last_error(w), "resource_insert through the world"));
    assert_non_null(strstr(log.text, "resource_remove through the world"));
    assert_true(((const Gravity *)ecs_sched_resource_get(w, g_gravity))->y == -1);
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_resource_inserted_inside_an_observer_is_there_once_the_change_is_done),
        cmocka_unit_test(removing_a_resource_inside_an_observer_is_refused),
        cmocka_unit_test(only_a_registered_resource_can_be_main_thread_only),
        cmocka_unit_test(changing_resources_through_the_world_from_a_plain_system_is_refused),
        cmocka_unit_test(inserted_resource_exists_and_reads_back),
        cmocka_unit_test(inserted_value_is_copied_by_the_world),
        cmocka_unit_test(inserting_without_a_value_zeroes_the_resource),
        cmocka_unit_test(writes_through_get_mut_are_seen_by_get),
        cmocka_unit_test(inserting_again_overwrites_the_value),
        cmocka_unit_test(each_type_holds_its_own_resource),
        cmocka_unit_test(resources_are_independent_of_entity_components),
        cmocka_unit_test(resource_storage_honours_alignment),
        cmocka_unit_test(removed_resource_no_longer_exists),
        cmocka_unit_test(removed_resource_can_be_inserted_again),
        cmocka_unit_test(get_of_a_missing_resource_returns_null_and_names_it),
        cmocka_unit_test(get_mut_of_a_missing_resource_returns_null_and_names_it),
        cmocka_unit_test(remove_of_a_missing_resource_fails_and_names_it),
        cmocka_unit_test(exists_of_a_missing_resource_is_false_without_an_error),
        cmocka_unit_test(inserting_a_resource_constructs_it_and_copies_the_value),
        cmocka_unit_test(inserting_a_resource_without_a_value_only_constructs_it),
        cmocka_unit_test(overwriting_a_resource_copy_assigns_it),
        cmocka_unit_test(removing_a_resource_destroys_it_once),
        cmocka_unit_test(world_destroy_destroys_the_resources),
    };
    return cmocka_run_group_tests_name("resources", tests, NULL, NULL);
}
