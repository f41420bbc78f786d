/* Reading and writing one entity's components in place: ensure, emplace, modified, get_many
   and get_mut_many with the arguments they refuse (a tag, a relationship kind, an unknown id,
   a sparse component where a table one is needed, a negative count), inside an observer, and
   with tracked and sparse components. */
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

static ecs_sched_id g_pos, g_vel, g_frozen, g_likes, g_score;

static ecs_sched_world *access_world(void) {
    ecs_sched_world *w = new_world();
    ecs_sched_relation_desc d;
    g_pos = ECS_SCHED_COMPONENT(w, Position);
    g_vel = ECS_SCHED_COMPONENT(w, Velocity);
    g_frozen = ECS_SCHED_TAG(w, Frozen);
    g_score = ECS_SCHED_SPARSE_COMPONENT(w, Score);
    memset(&d, 0, sizeof d);
    d.name = "Likes";
    g_likes = ecs_sched_relation_register(w, &d);
    assert_true(g_likes != 0);
    return w;
}

static void expect_error(ecs_sched_world *w, ecs_sched_result code, const char *words) {
    assert_int_equal(ecs_sched_last_result(w), code);
    assert_non_null(strstr(ecs_sched_last_error(w), words));
    ecs_sched_clear_error(w);
}

static void a_tag_or_a_relationship_kind_has_no_value_to_write_in_place(void **state) {
    ecs_sched_world *w = access_world();
    ecs_sched_entity e = ecs_sched_spawn(w);
    bool is_new = true;
    (void)state;
    assert_null(ecs_sched_ensure(w, e, g_frozen));
    expect_error(w, ECS_SCHED_ERR_INVALID_ARGUMENT,
                 "ensure: 'Frozen' is a tag and has no value of its own to write; use "
                 "ecs_sched_insert and ecs_sched_has");
    assert_null(ecs_sched_emplace(w, e, g_likes, &is_new));
    assert_false(is_new);
    expect_error(w, ECS_SCHED_ERR_INVALID_ARGUMENT,
                 "emplace: 'Likes' is a relationship kind and has no value of its own to write; "
                 "use ecs_sched_relate and ecs_sched_relation_payload");
    assert_int_equal(ecs_sched_modified(w, e, g_frozen), ECS_SCHED_ERR_INVALID_ARGUMENT);
    expect_error(w, ECS_SCHED_ERR_INVALID_ARGUMENT, "modified: 'Frozen' is a tag");
    assert_false(ecs_sched_has(w, e, g_frozen));
    check_and_destroy(w);
}

static void an_unknown_component_is_named_by_the_call_that_met_it(void **state) {
    ecs_sched_world *w = access_world();
    ecs_sched_entity e = ecs_sched_spawn(w);
    (void)state;
    assert_null(ecs_sched_ensure(w, e, 4000));
    expect_error(w, ECS_SCHED_ERR_UNKNOWN_COMPONENT, "ensure");
    assert_null(ecs_sched_emplace(w, e, 4000, NULL));
    expect_error(w, ECS_SCHED_ERR_UNKNOWN_COMPONENT, "emplace");
    assert_int_equal(ecs_sched_modified(w, e, 4000), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    expect_error(w, ECS_SCHED_ERR_UNKNOWN_COMPONENT, "modified");
    check_and_destroy(w);
}

static void emplacing_a_sparse_component_is_refused_and_ensure_suggested(void **state) {
    ecs_sched_world *w = access_world();
    ecs_sched_entity e = ecs_sched_spawn(w);
    Score *s;
    (void)state;
    assert_null(ecs_sched_emplace(w, e, g_score, NULL));
    expect_error(w, ECS_SCHED_ERR_INVALID_ARGUMENT,
                 "emplace: 'Score' is sparse; emplace constructs a table component in place: "
                 "use ecs_sched_ensure");
    assert_false(ecs_sched_has(w, e, g_score));
    s = (Score *)ecs_sched_ensure(w, e, g_score);
    assert_non_null(s);
    assert_int_equal(s->value, 0);
    s->value = 9;
    assert_ptr_equal(ecs_sched_ensure(w, e, g_score), s);
    assert_int_equal(((const Score *)ecs_sched_get(w, e, g_score))->value, 9);
    check_and_destroy(w);
}

static void emplace_without_is_new_still_adds_a_zeroed_value(void **state) {
    ecs_sched_world *w = access_world();
    ecs_sched_entity e = ecs_sched_spawn(w);
    Position *p;
    (void)state;
    p = (Position *)ecs_sched_emplace(w, e, g_pos, NULL);
    assert_non_null(p);
    assert_true(p->x == 0 && p->y == 0);
    p->x = 4;
    assert_ptr_equal(ecs_sched_emplace(w, e, g_pos, NULL), p);
    assert_true(((const Position *)ecs_sched_get(w, e, g_pos))->x == 4);
    check_and_destroy(w);
}

static void modified_of_a_sparse_component_needs_the_entity_to_have_it(void **state) {
    ecs_sched_world *w = access_world();
    ecs_sched_entity e = ecs_sched_spawn(w);
    Score s = {3};
    (void)state;
    assert_int_equal(ecs_sched_modified(w, e, g_score), ECS_SCHED_ERR_MISSING_COMPONENT);
    expect_error(w, ECS_SCHED_ERR_MISSING_COMPONENT,
                 "modified: the entity has no value of 'Score' of its own");
    assert_int_equal(ecs_sched_insert(w, e, g_score, &s), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_modified(w, e, g_score), ECS_SCHED_OK);
    check_and_destroy(w);
}

/* ---- inside observers ---- */

static ecs_sched_world *g_observed;
static void *g_pointer;

static void ensure_inside(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    (void)ctx;
    g_pointer = ecs_sched_ensure(g_observed, t->entity, g_vel);
}

static void remove_what_was_added(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    (void)ctx;
    assert_int_equal(ecs_sched_remove(g_observed, t->entity, t->component), ECS_SCHED_OK);
}

static void add_observer(ecs_sched_world *w, ecs_sched_id component, ecs_sched_observer_fn fn) {
    ecs_sched_observer_desc d;
    memset(&d, 0, sizeof d);
    d.name = "watcher";
    d.event = ECS_SCHED_ON_ADD;
    d.component = component;
    d.fn = fn;
    assert_true(ecs_sched_observer_add(w, &d) != 0);
}

static void ensure_inside_an_observer_has_no_value_to_point_to(void **state) {
    ecs_sched_world *w = access_world();
    ecs_sched_entity e = ecs_sched_spawn(w);
    Position p = {1, 1};
    (void)state;
    g_observed = w;
    g_pointer = &g_pointer;
    add_observer(w, g_pos, ensure_inside);
    assert_int_equal(ecs_sched_insert(w, e, g_pos, &p), ECS_SCHED_OK);
    assert_null(g_pointer);
    assert_non_null(strstr(ecs_sched_last_error(w),
                           "ensure of 'Velocity' inside an observer, whose inserts are deferred"));
    assert_false(ecs_sched_has(w, e, g_vel));
    check_and_destroy(w);
}

static void ensure_fails_when_an_observer_takes_the_new_component_away(void **state) {
    ecs_sched_world *w = access_world();
    ecs_sched_entity e = ecs_sched_spawn(w);
    (void)state;
    g_observed = w;
    add_observer(w, g_vel, remove_what_was_added);
    assert_null(ecs_sched_ensure(w, e, g_vel));
    expect_error(w, ECS_SCHED_ERR_MISSING_COMPONENT,
                 "ensure: an observer of 'Velocity' took it (or the entity) away before it "
                 "could be written");
    assert_false(ecs_sched_has(w, e, g_vel));
    assert_true(ecs_sched_is_alive(w, e));
    check_and_destroy(w);
}

static void ensure_of_a_sparse_component_is_heard_by_on_add_observers(void **state) {
    ecs_sched_world *w = access_world();
    ecs_sched_entity e = ecs_sched_spawn(w);
    (void)state;
    g_observed = w;
    add_observer(w, g_score, remove_what_was_added);
    assert_null(ecs_sched_ensure(w, e, g_score));   /* the observer took it back */
    assert_false(ecs_sched_has(w, e, g_score));
    check_and_destroy(w);
}

/* ---- many at once ---- */

static void get_many_refuses_a_negative_count_or_missing_ids(void **state) {
    ecs_sched_world *w = access_world();
    ecs_sched_entity e = ecs_sched_spawn(w);
    const void *out[2];
    void *mut[2];
    (void)state;
    assert_int_equal(ecs_sched_get_many(w, e, -1, NULL, out), ECS_SCHED_ERR_INVALID_ARGUMENT);
    expect_error(w, ECS_SCHED_ERR_INVALID_ARGUMENT, "get_many: -1 components (ids must not be NULL)");
    assert_int_equal(ecs_sched_get_many(w, e, 2, NULL, out), ECS_SCHED_ERR_INVALID_ARGUMENT);
    expect_error(w, ECS_SCHED_ERR_INVALID_ARGUMENT, "get_many: 2 components");
    assert_int_equal(ecs_sched_get_mut_many(w, e, -3, NULL, mut), ECS_SCHED_ERR_INVALID_ARGUMENT);
    expect_error(w, ECS_SCHED_ERR_INVALID_ARGUMENT, "get_mut_many: -3 components");
    assert_int_equal(ecs_sched_get_many(w, e, 0, NULL, out), ECS_SCHED_OK);
    check_and_destroy(w);
}

static void get_many_tells_a_missing_component_from_a_stale_entity(void **state) {
    ecs_sched_world *w = access_world();
    Position p = {1, 2};
    ecs_sched_entity e = ecs_sched_spawn_with(w, 1, &g_pos, (const void *const[]){&p});
    ecs_sched_entity gone = ecs_sched_spawn(w);
    ecs_sched_id both[2];
    const void *out[2];
    void *mut[2];
    (void)state;
    both[0] = g_pos;
    both[1] = g_vel;
    assert_int_equal(ecs_sched_get_many(w, e, 2, both, out), ECS_SCHED_ERR_MISSING_COMPONENT);
    assert_int_equal(ecs_sched_get_mut_many(w, e, 2, both, mut), ECS_SCHED_ERR_MISSING_COMPONENT);
    assert_int_equal(ecs_sched_despawn(w, gone), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_get_many(w, gone, 1, both, out), ECS_SCHED_ERR_STALE_ENTITY);
    assert_int_equal(ecs_sched_get_mut_many(w, gone, 1, both, mut), ECS_SCHED_ERR_STALE_ENTITY);
    both[1] = 4000;
    assert_int_equal(ecs_sched_get_many(w, e, 2, both, out), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    check_and_destroy(w);
}

static void get_mut_many_of_a_tracked_component_points_at_its_values(void **state) {
    ecs_sched_world *w = access_world();
    ecs_sched_id armor = ecs_sched_tracked_component_register_type(w, "Armor", sizeof(int32_t), 0);
    int32_t a = 5;
    Position p = {1, 2};
    ecs_sched_entity e = ecs_sched_spawn_with(w, 1, &g_pos, (const void *const[]){&p});
    ecs_sched_id ids[2];
    void *out[2];
    (void)state;
    assert_int_equal(ecs_sched_insert(w, e, armor, &a), ECS_SCHED_OK);
    ids[0] = armor;
    ids[1] = g_pos;
    assert_int_equal(ecs_sched_get_mut_many(w, e, 2, ids, out), ECS_SCHED_OK);
    assert_int_equal(*(int32_t *)out[0], 5);
    assert_true(((Position *)out[1])->y == 2);
    *(int32_t *)out[0] = 6;
    assert_int_equal(*(const int32_t *)ecs_sched_get(w, e, armor), 6);
    check_and_destroy(w);
}

static void ensure_of_a_tracked_component_adds_a_zeroed_value(void **state) {
    ecs_sched_world *w = access_world();
    ecs_sched_id armor = ecs_sched_tracked_component_register_type(w, "Armor", sizeof(int32_t), 0);
    ecs_sched_entity e = ecs_sched_spawn(w);
    int32_t *value;
    (void)state;
    value = (int32_t *)ecs_sched_ensure(w, e, armor);
    assert_non_null(value);
    assert_int_equal(*value, 0);
    assert_true(ecs_sched_has(w, e, armor));
    assert_int_equal(ecs_sched_modified(w, e, armor), ECS_SCHED_OK);
    check_and_destroy(w);
}

/* ---- values given as NULL, counts of zero, worlds with sparse components ---- */

static void inserting_no_value_over_a_present_one_keeps_it(void **state) {
    ecs_sched_world *w = access_world();
    Position p = {3, 4};
    ecs_sched_entity e = ecs_sched_spawn_with(w, 1, &g_pos, (const void *const[]){&p});
    const Position *now;
    (void)state;
    assert_int_equal(ecs_sched_insert(w, e, g_pos, NULL), ECS_SCHED_OK);
    now = (const Position *)ecs_sched_get(w, e, g_pos);
    assert_true(now->x == 3 && now->y == 4);
    check_and_destroy(w);
}

static void a_batch_of_no_entities_spawns_nothing(void **state) {
    ecs_sched_world *w = access_world();
    Position p = {1, 1};
    const void *arrays[1];
    (void)state;
    arrays[0] = &p;
    assert_int_equal(ecs_sched_spawn_batch(w, 0, 1, &g_pos, arrays, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_entity_count(w), 0);
    check_and_destroy(w);
}

static void table_components_spawn_as_usual_in_a_world_with_sparse_ones(void **state) {
    ecs_sched_world *w = access_world();
    Position p = {1, 2};
    Velocity v = {3, 4};
    ecs_sched_id ids[2];
    const void *values[2];
    ecs_sched_entity e;
    (void)state;
    ids[0] = g_pos;
    ids[1] = g_vel;
    values[0] = &p;
    values[1] = &v;
    e = ecs_sched_spawn_with(w, 2, ids, values);
    assert_true(e != ECS_SCHED_NULL_ENTITY);
    assert_true(((const Velocity *)ecs_sched_get(w, e, g_vel))->y == 4);
    assert_false(ecs_sched_has(w, e, g_score));
    assert_int_equal(ecs_sched_component_storage(w, g_pos), ECS_SCHED_STORAGE_TABLE);
    check_and_destroy(w);
}

static void insert_many_without_ids_is_refused(void **state) {
    ecs_sched_world *w = access_world();
    ecs_sched_entity e = ecs_sched_spawn(w);
    (void)state;
    assert_int_equal(ecs_sched_insert_many(w, e, 2, NULL, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    expect_error(w, ECS_SCHED_ERR_INVALID_ARGUMENT, "2 components (at most");
    assert_int_equal(ecs_sched_insert_many(w, e, -1, NULL, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    expect_error(w, ECS_SCHED_ERR_INVALID_ARGUMENT, "-1 components");
    assert_false(ecs_sched_has(w, e, g_pos));
    check_and_destroy(w);
}

/* ---- a bulk failure inside a system names the system once ---- */

static ecs_sched_result g_deleted;

static void delete_the_frozen(ecs_sched_system_ctx *ctx) {
    g_deleted = ecs_sched_delete_with(ecs_sched_ctx_world(ctx), g_frozen);
}

static void a_refused_bulk_despawn_in_a_system_names_the_system_once(void **state) {
    ecs_sched_world *w = access_world();
    ecs_sched_relation_desc rd;
    ecs_sched_id guards;
    ecs_sched_entity kept = ecs_sched_spawn(w), guard = ecs_sched_spawn(w);
    const char *error, *prefix = "system 'purge' in schedule 'Update': ";
    (void)state;
    memset(&rd, 0, sizeof rd);
    rd.name = "Guards";
    rd.on_target_despawn = ECS_SCHED_TARGET_REFUSE;
    guards = ecs_sched_relation_register(w, &rd);
    assert_int_equal(ecs_sched_relate(w, guard, guards, kept, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(w, kept, g_frozen, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                         .name = "purge", .fn = delete_the_frozen, .exclusive = true}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_REFUSED);
    assert_int_equal(g_deleted, ECS_SCHED_ERR_REFUSED);
    error = ecs_sched_last_error(w);
    assert_non_null(strstr(error, prefix));
    assert_null(strstr(strstr(error, prefix) + strlen(prefix), prefix));   /* once */
    assert_non_null(strstr(error, "despawn: entity"));
    assert_non_null(strstr(error, "'Guards' refuses the despawn of its targets"));
    assert_true(ecs_sched_is_alive(w, kept));
    check_and_destroy(w);
}

/* ---- from a system that may not change the world, from a base, heard on set ---- */

static ecs_sched_entity g_target;
static void *g_values[3];

static void write_in_place_through_the_world(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    g_values[0] = ecs_sched_ensure(g_observed, g_target, g_vel);
    g_values[1] = ecs_sched_emplace(g_observed, g_target, g_vel, NULL);
    g_values[2] = ecs_sched_ensure(g_observed, g_target, g_score);
}

static void adding_in_place_from_a_plain_system_is_refused(void **state) {
    ecs_sched_world *w = access_world();
    (void)state;
    g_observed = w;
    g_target = ecs_sched_spawn(w);
    g_values[0] = g_values[1] = g_values[2] = &g_target;
    ADD_SYSTEM(w, .name = "sneaky", .fn = write_in_place_through_the_world);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_null(g_values[0]);
    assert_null(g_values[1]);
    assert_null(g_values[2]);
    assert_non_null(strstr(ecs_sched_last_error(w), "system 'sneaky'"));
    assert_non_null(strstr(ecs_sched_last_error(w), "ensure through the world"));
    assert_false(ecs_sched_has(w, g_target, g_vel));
    assert_false(ecs_sched_has(w, g_target, g_score));
    check_and_destroy(w);
}

static void ensure_on_an_instance_starts_from_its_bases_value(void **state) {
    ecs_sched_world *w = access_world();
    Position p = {5, 6};
    ecs_sched_entity base = ecs_sched_spawn_with(w, 1, &g_pos, (const void *const[]){&p});
    ecs_sched_entity instance = ecs_sched_spawn(w);
    Position *own;
    (void)state;
    assert_int_equal(ecs_sched_relate(w, instance, ecs_sched_is_a(w), base, NULL), ECS_SCHED_OK);
    own = (Position *)ecs_sched_ensure(w, instance, g_pos);
    assert_non_null(own);
    assert_true(own->x == 5 && own->y == 6);
    own->x = 9;
    assert_true(((const Position *)ecs_sched_get(w, base, g_pos))->x == 5);
    assert_true(((const Position *)ecs_sched_get(w, instance, g_pos))->x == 9);
    check_and_destroy(w);
}

static int g_sets;

static void count_sets(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    (void)ctx;
    (void)t;
    g_sets++;
}

static void modified_is_heard_by_on_set_observers(void **state) {
    ecs_sched_world *w = access_world();
    ecs_sched_observer_desc d;
    ecs_sched_entity e = ecs_sched_spawn(w);
    bool is_new = false;
    Position *p;
    (void)state;
    memset(&d, 0, sizeof d);
    d.name = "setter";
    d.event = ECS_SCHED_ON_SET;
    d.component = g_pos;
    d.fn = count_sets;
    assert_true(ecs_sched_observer_add(w, &d) != 0);
    g_sets = 0;
    p = (Position *)ecs_sched_emplace(w, e, g_pos, &is_new);
    assert_non_null(p);
    assert_true(is_new);
    assert_int_equal(g_sets, 0);   /* emplace publishes nothing */
    p->x = 2;
    assert_int_equal(ecs_sched_modified(w, e, g_pos), ECS_SCHED_OK);
    assert_int_equal(g_sets, 1);
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_tag_or_a_relationship_kind_has_no_value_to_write_in_place),
        cmocka_unit_test(an_unknown_component_is_named_by_the_call_that_met_it),
        cmocka_unit_test(emplacing_a_sparse_component_is_refused_and_ensure_suggested),
        cmocka_unit_test(emplace_without_is_new_still_adds_a_zeroed_value),
        cmocka_unit_test(modified_of_a_sparse_component_needs_the_entity_to_have_it),
        cmocka_unit_test(ensure_inside_an_observer_has_no_value_to_point_to),
        cmocka_unit_test(ensure_fails_when_an_observer_takes_the_new_component_away),
        cmocka_unit_test(ensure_of_a_sparse_component_is_heard_by_on_add_observers),
        cmocka_unit_test(get_many_refuses_a_negative_count_or_missing_ids),
        cmocka_unit_test(get_many_tells_a_missing_component_from_a_stale_entity),
        cmocka_unit_test(get_mut_many_of_a_tracked_component_points_at_its_values),
        cmocka_unit_test(ensure_of_a_tracked_component_adds_a_zeroed_value),
        cmocka_unit_test(inserting_no_value_over_a_present_one_keeps_it),
        cmocka_unit_test(a_batch_of_no_entities_spawns_nothing),
        cmocka_unit_test(table_components_spawn_as_usual_in_a_world_with_sparse_ones),
        cmocka_unit_test(insert_many_without_ids_is_refused),
        cmocka_unit_test(a_refused_bulk_despawn_in_a_system_names_the_system_once),
        cmocka_unit_test(adding_in_place_from_a_plain_system_is_refused),
        cmocka_unit_test(ensure_on_an_instance_starts_from_its_bases_value),
        cmocka_unit_test(modified_is_heard_by_on_set_observers),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
