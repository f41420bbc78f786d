/* Prefab data: a list of future entities, each entry with an optional parent entry, a name
   and component values; instantiated onto a main entity plus one new entity per other entry,
   in one go, all or nothing, directly or through commands. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "world_fixture.h"

/* A ship (entry 0) with an engine and a turret, the turret with a barrel. */
static ecs_sched_prefab_data *ship_data(world_setup *s) {
    ecs_sched_prefab_data *d = ecs_sched_prefab_data_create(s->world);
    Position p = {1.0f, 2.0f};
    Health h = {50};
    int32_t ship, engine, turret, barrel;
    assert_non_null(d);
    ship = ecs_sched_prefab_data_add(d, -1);
    engine = ecs_sched_prefab_data_add(d, ship);
    turret = ecs_sched_prefab_data_add(d, ship);
    barrel = ecs_sched_prefab_data_add(d, turret);
    assert_int_equal(ship, 0);
    assert_int_equal(ecs_sched_prefab_data_set(d, ship, s->health, &h), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_set(d, engine, s->position, &p), ECS_SCHED_OK);
    p.x = 5.0f;
    assert_int_equal(ecs_sched_prefab_data_set(d, turret, s->position, &p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_set(d, barrel, s->frozen, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_set_name(d, engine, "engine"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_set_name(d, turret, "turret"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_set_name(d, barrel, "barrel"), ECS_SCHED_OK);
    return d;
}

static void instantiating_onto_a_main_entity_makes_one_entity_per_other_entry(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_entity main, made[4], barrel;
    Velocity v = {3.0f, 0.0f};
    (void)state;
    setup_world(&s);
    d = ship_data(&s);
    main = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_insert(s.world, main, s.velocity, &v), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, main, made), ECS_SCHED_OK);
    assert_true(made[0] == main);
    assert_int_equal(get_health(&s, main)->hp, 50);
    assert_true(get_velocity(&s, main)->x > 2.5f);   /* what it had stays */
    assert_int_equal(ecs_sched_entity_count(s.world), 4);
    assert_true(ecs_sched_parent_of(s.world, made[1]) == main);
    assert_true(ecs_sched_parent_of(s.world, made[3]) == made[2]);
    barrel = ecs_sched_lookup_path(s.world, main, "turret.barrel", ".");
    assert_true(barrel == made[3]);
    assert_true(ecs_sched_has(s.world, barrel, s.frozen));
    assert_true(get_position(&s, made[2])->x > 4.5f);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void instantiating_without_a_main_entity_makes_it_too(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_entity made[4];
    int i;
    (void)state;
    setup_world(&s);
    d = ship_data(&s);
    for (i = 0; i < 3; i++) {
        assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, ECS_SCHED_NULL_ENTITY, made), ECS_SCHED_OK);
        assert_int_equal(get_health(&s, made[0])->hp, 50);
        assert_true(ecs_sched_parent_of(s.world, made[0]) == ECS_SCHED_NULL_ENTITY);
    }
    assert_int_equal(ecs_sched_entity_count(s.world), 12);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void instantiating_again_makes_no_new_tables(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    int32_t tables_before;
    ecs_sched_entity made[4];
    (void)state;
    setup_world(&s);
    d = ship_data(&s);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, 0, made), ECS_SCHED_OK);
    tables_before = ecs_sched_archetype_count(s.world);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, 0, made), ECS_SCHED_OK);
    /* the second time finds every table the first made */
    assert_int_equal(ecs_sched_archetype_count(s.world), tables_before);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void a_parent_cycle_is_refused_naming_the_entries_and_nothing_is_made(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    (void)state;
    setup_world(&s);
    d = ecs_sched_prefab_data_create(s.world);
    ecs_sched_prefab_data_add(d, -1);
    ecs_sched_prefab_data_add(d, -1);
    ecs_sched_prefab_data_add(d, 1);
    assert_int_equal(ecs_sched_prefab_data_set_parent(d, 1, 2), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, 0, NULL), ECS_SCHED_ERR_RELATION_CYCLE);
    assert_failed_with(s.world, &s.log, ECS_SCHED_ERR_RELATION_CYCLE);
    assert_non_null(strstr(ecs_sched_last_error(s.world), "1 -> 2"));
    assert_int_equal(ecs_sched_entity_count(s.world), 0);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void a_parent_index_out_of_range_is_refused(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    (void)state;
    setup_world(&s);
    d = ecs_sched_prefab_data_create(s.world);
    assert_int_equal(ecs_sched_prefab_data_add(d, 3), -1);
    assert_failed_with(s.world, &s.log, ECS_SCHED_ERR_INVALID_ARGUMENT);
    ecs_sched_prefab_data_add(d, -1);
    assert_int_equal(ecs_sched_prefab_data_set_parent(d, 0, 7), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_true(mentions_number(ecs_sched_last_error(s.world), 7));
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void sibling_entries_with_one_name_are_refused(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    (void)state;
    setup_world(&s);
    d = ecs_sched_prefab_data_create(s.world);
    ecs_sched_prefab_data_add(d, -1);
    ecs_sched_prefab_data_add(d, 0);
    ecs_sched_prefab_data_add(d, 0);
    ecs_sched_prefab_data_set_name(d, 1, "gun");
    ecs_sched_prefab_data_set_name(d, 2, "gun");
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, 0, NULL), ECS_SCHED_ERR_NAME_CLASH);
    assert_non_null(strstr(ecs_sched_last_error(s.world), "'gun'"));
    assert_int_equal(ecs_sched_entity_count(s.world), 0);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void a_root_name_taken_in_the_world_is_refused(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_entity taken;
    (void)state;
    setup_world(&s);
    taken = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_set_name(s.world, taken, "ship"), ECS_SCHED_OK);
    d = ecs_sched_prefab_data_create(s.world);
    ecs_sched_prefab_data_add(d, -1);
    ecs_sched_prefab_data_set_name(d, 0, "ship");
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, 0, NULL), ECS_SCHED_ERR_NAME_CLASH);
    assert_int_equal(ecs_sched_entity_count(s.world), 1);
    /* onto the entity that has the name, it is no clash */
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, taken, NULL), ECS_SCHED_OK);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void a_main_entry_with_a_parent_is_refused_onto_a_main_entity(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    (void)state;
    setup_world(&s);
    d = ecs_sched_prefab_data_create(s.world);
    ecs_sched_prefab_data_add(d, -1);
    ecs_sched_prefab_data_add(d, 0);
    ecs_sched_prefab_data_set_parent(d, 0, 1);
    ecs_sched_prefab_data_set_parent(d, 1, -1);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, ecs_sched_spawn(s.world), NULL),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(s.world), "main entry"));
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void relationships_and_marks_cannot_be_values(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    (void)state;
    setup_world(&s);
    d = ecs_sched_prefab_data_create(s.world);
    ecs_sched_prefab_data_add(d, -1);
    assert_int_equal(ecs_sched_prefab_data_set(d, 0, ecs_sched_child_of(s.world), NULL),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_prefab_data_set(d, 0, 9999, NULL), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_int_equal(ecs_sched_prefab_data_set(d, 3, s.position, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void a_dead_main_entity_is_refused(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_entity gone;
    (void)state;
    setup_world(&s);
    d = ship_data(&s);
    gone = ecs_sched_spawn(s.world);
    ecs_sched_despawn(s.world, gone);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, gone, NULL), ECS_SCHED_ERR_STALE_ENTITY);
    assert_int_equal(ecs_sched_entity_count(s.world), 0);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void data_of_another_world_is_refused(void **state) {
    world_setup s, t;
    ecs_sched_prefab_data *d;
    (void)state;
    setup_world(&s);
    setup_world(&t);
    d = ship_data(&s);
    assert_int_equal(ecs_sched_prefab_data_instantiate(t.world, d, 0, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_entity_count(t.world), 0);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
    check_and_destroy(t.world);
}

static void commands_instantiate_prefab_data_when_applied(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_commands *cmd;
    ecs_sched_entity made, main;
    int32_t count;
    (void)state;
    setup_world(&s);
    d = ship_data(&s);
    main = ecs_sched_spawn(s.world);
    cmd = ecs_sched_commands_create(s.world);
    made = ecs_sched_commands_prefab_data_instantiate(cmd, d, 0);
    assert_true(ecs_sched_commands_prefab_data_instantiate(cmd, d, main) == main);
    assert_false(ecs_sched_is_alive(s.world, made));
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_true(ecs_sched_is_alive(s.world, made));
    assert_int_equal(get_health(&s, made)->hp, 50);
    assert_int_equal(get_health(&s, main)->hp, 50);
    ecs_sched_children(s.world, main, &count);
    assert_int_equal(count, 2);
    assert_int_equal(ecs_sched_entity_count(s.world), 8);
    ecs_sched_commands_destroy(cmd);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void an_unapplied_instantiation_gives_its_handle_back(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_commands *cmd;
    (void)state;
    setup_world(&s);
    d = ship_data(&s);
    cmd = ecs_sched_commands_create(s.world);
    assert_true(ecs_sched_commands_prefab_data_instantiate(cmd, d, 0) != ECS_SCHED_NULL_ENTITY);
    ecs_sched_commands_destroy(cmd);   /* never applied: its handle goes back */
    assert_int_equal(ecs_sched_entity_count(s.world), 0);
    assert_true(ecs_sched_spawn(s.world) != ECS_SCHED_NULL_ENTITY);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static int live_values = 0;

static void counted_ctor(void *dst, int32_t n, void *ctx) {
    (void)ctx;
    memset(dst, 0, (size_t)n * sizeof(int));
    live_values += n;
}

static void counted_dtor(void *ptr, int32_t n, void *ctx) {
    (void)ptr;
    (void)ctx;
    live_values -= n;
}

static void values_are_copies_with_the_type_hooks(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_component_desc desc;
    ecs_sched_id counted;
    int one = 1;
    (void)state;
    live_values = 0;
    setup_world(&s);
    memset(&desc, 0, sizeof desc);
    desc.name = "Counted";
    desc.size = sizeof(int);
    desc.hooks.ctor = counted_ctor;
    desc.hooks.dtor = counted_dtor;
    counted = ecs_sched_component_register(s.world, &desc);
    d = ecs_sched_prefab_data_create(s.world);
    ecs_sched_prefab_data_add(d, -1);
    assert_int_equal(ecs_sched_prefab_data_set(d, 0, counted, &one), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_set(d, 0, counted, &one), ECS_SCHED_OK);   /* replaced */
    assert_int_equal(live_values, 1);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, 0, NULL), ECS_SCHED_OK);
    assert_int_equal(live_values, 2);
    ecs_sched_prefab_data_free(d);
    assert_int_equal(live_values, 1);
    check_and_destroy(s.world);
    assert_int_equal(live_values, 0);
}

typedef struct { ecs_sched_entity target; float range; } Aim;

static void entity_fields_and_relationships_name_other_entries(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_id aim;
    ecs_sched_entity made[3];
    ecs_sched_member aim_fields[] = {ECS_SCHED_MEMBER(Aim, target, ECS_SCHED_TYPE_ENTITY),
                                     ECS_SCHED_MEMBER(Aim, range, ECS_SCHED_TYPE_F32)};
    Aim a = {0, 10.0f};
    Health h = {9};
    (void)state;
    setup_world(&s);
    aim = ECS_SCHED_COMPONENT(s.world, Aim);
    assert_int_equal(ecs_sched_describe(s.world, aim, 2, aim_fields), ECS_SCHED_OK);
    d = ecs_sched_prefab_data_create(s.world);
    ecs_sched_prefab_data_add(d, -1);   /* a template */
    ecs_sched_prefab_data_add(d, -1);   /* an instance of it, aiming at the third */
    ecs_sched_prefab_data_add(d, -1);
    assert_int_equal(ecs_sched_prefab_data_set(d, 0, s.health, &h), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_set(d, 1, aim, &a), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_set_entity(d, 1, aim, "target", 2), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_relate(d, 1, ecs_sched_is_a(s.world), 0), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, 0, made), ECS_SCHED_OK);
    assert_true(((const Aim *)ecs_sched_get(s.world, made[1], aim))->target == made[2]);
    assert_true(ecs_sched_owner(s.world, made[1], s.health) == made[0]);
    assert_int_equal(ecs_sched_prefab_data_set_entity(d, 1, aim, "range", 2), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_prefab_data_relate(d, 1, ecs_sched_child_of(s.world), 0),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

/* Aim kept in a sparse set, its entity field described, and Health (in tables) beside it. */
static ecs_sched_id sparse_aim(ecs_sched_world *w) {
    ecs_sched_member aim_fields[] = {ECS_SCHED_MEMBER(Aim, target, ECS_SCHED_TYPE_ENTITY),
                                     ECS_SCHED_MEMBER(Aim, range, ECS_SCHED_TYPE_F32)};
    ecs_sched_id aim = ECS_SCHED_SPARSE_COMPONENT(w, Aim);
    assert_int_equal(ecs_sched_describe(w, aim, 2, aim_fields), ECS_SCHED_OK);
    return aim;
}

static void an_entity_field_of_a_sparse_component_names_the_entity_made(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_id aim;
    ecs_sched_entity made[2];
    Aim a = {0, 10.0f};
    Health h = {9};
    (void)state;
    setup_world(&s);
    aim = sparse_aim(s.world);
    d = ecs_sched_prefab_data_create(s.world);
    ecs_sched_prefab_data_add(d, -1);
    ecs_sched_prefab_data_add(d, -1);
    assert_int_equal(ecs_sched_prefab_data_set(d, 1, s.health, &h), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_set(d, 1, aim, &a), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_set_entity(d, 1, aim, "target", 0), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, 0, made), ECS_SCHED_OK);
    assert_true(((const Aim *)ecs_sched_get(s.world, made[1], aim))->target == made[0]);
    assert_true(((const Aim *)ecs_sched_get(s.world, made[1], aim))->range == 10.0f);
    assert_int_equal(((const Health *)ecs_sched_get(s.world, made[1], s.health))->hp, 9);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void a_json_entity_field_of_a_sparse_component_names_the_entity_made(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_id aim;
    ecs_sched_entity made[2];
    (void)state;
    setup_world(&s);
    aim = sparse_aim(s.world);
    d = ecs_sched_prefab_data_from_json(s.world, "{\"entities\": [{}, {\"components\": "
                                        "{\"Aim\": {\"target\": 0, \"range\": 3}}}]}", NULL);
    assert_non_null(d);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, 0, made), ECS_SCHED_OK);
    assert_true(((const Aim *)ecs_sched_get(s.world, made[1], aim))->target == made[0]);
    assert_true(((const Aim *)ecs_sched_get(s.world, made[1], aim))->range == 3.0f);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void a_relationship_cycle_between_entries_undoes_the_instantiation(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    (void)state;
    setup_world(&s);
    d = ecs_sched_prefab_data_create(s.world);
    ecs_sched_prefab_data_add(d, -1);
    ecs_sched_prefab_data_add(d, -1);
    ecs_sched_prefab_data_relate(d, 0, ecs_sched_is_a(s.world), 1);
    ecs_sched_prefab_data_relate(d, 1, ecs_sched_is_a(s.world), 0);
    s.log.count = 0;
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, 0, NULL), ECS_SCHED_ERR_RELATION_CYCLE);
    assert_int_equal(s.log.count, 1);   /* one failure, told once */
    assert_int_equal(ecs_sched_entity_count(s.world), 0);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void a_parent_entry_may_come_after_its_children(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_entity made[4];
    int32_t count;
    (void)state;
    setup_world(&s);
    d = ecs_sched_prefab_data_create(s.world);
    ecs_sched_prefab_data_add(d, -1);
    ecs_sched_prefab_data_add(d, -1);
    ecs_sched_prefab_data_add(d, -1);
    ecs_sched_prefab_data_add(d, -1);
    assert_int_equal(ecs_sched_prefab_data_set_parent(d, 1, 3), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_set_parent(d, 2, 3), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_set_parent(d, 3, 0), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, 0, made), ECS_SCHED_OK);
    ecs_sched_children(s.world, made[3], &count);
    assert_int_equal(count, 2);
    assert_true(ecs_sched_parent_of(s.world, made[3]) == made[0]);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void a_failed_relationship_onto_a_main_entity_leaves_it_as_it_was(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_entity main;
    Health h = {50};
    (void)state;
    setup_world(&s);
    main = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_set_name(s.world, main, "player"), ECS_SCHED_OK);
    d = ecs_sched_prefab_data_create(s.world);
    ecs_sched_prefab_data_add(d, -1);
    ecs_sched_prefab_data_add(d, 0);
    assert_int_equal(ecs_sched_prefab_data_set(d, 0, s.health, &h), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_set_name(d, 0, "ship"), ECS_SCHED_OK);
    ecs_sched_prefab_data_relate(d, 0, ecs_sched_is_a(s.world), 0);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, main, NULL), ECS_SCHED_ERR_RELATION_CYCLE);
    assert_false(ecs_sched_has(s.world, main, s.health));
    assert_string_equal(ecs_sched_name(s.world, main), "player");
    assert_int_equal(ecs_sched_entity_count(s.world), 1);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void a_relationship_cycle_through_the_main_entity_leaves_it_as_it_was(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_entity main;
    Health h = {50};
    (void)state;
    setup_world(&s);
    main = ecs_sched_spawn(s.world);
    d = ecs_sched_prefab_data_create(s.world);
    ecs_sched_prefab_data_add(d, -1);
    ecs_sched_prefab_data_add(d, 0);
    assert_int_equal(ecs_sched_prefab_data_set(d, 0, s.health, &h), ECS_SCHED_OK);
    ecs_sched_prefab_data_relate(d, 0, ecs_sched_is_a(s.world), 1);
    ecs_sched_prefab_data_relate(d, 1, ecs_sched_is_a(s.world), 0);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, main, NULL), ECS_SCHED_ERR_RELATION_CYCLE);
    assert_non_null(strstr(ecs_sched_last_error(s.world), "entry 1"));
    assert_false(ecs_sched_has(s.world, main, s.health));
    assert_int_equal(ecs_sched_target_count(s.world, main, ecs_sched_is_a(s.world)), 0);
    assert_int_equal(ecs_sched_entity_count(s.world), 1);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void an_entry_named_like_a_child_of_the_main_entity_is_refused(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_entity main, kid;
    (void)state;
    setup_world(&s);
    main = ecs_sched_spawn(s.world);
    kid = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_set_parent(s.world, kid, main), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(s.world, kid, "kid"), ECS_SCHED_OK);
    d = ecs_sched_prefab_data_create(s.world);
    ecs_sched_prefab_data_add(d, -1);
    ecs_sched_prefab_data_add(d, 0);
    assert_int_equal(ecs_sched_prefab_data_set_name(d, 1, "kid"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, main, NULL), ECS_SCHED_ERR_NAME_CLASH);
    assert_failed_with(s.world, &s.log, ECS_SCHED_ERR_NAME_CLASH);
    assert_non_null(strstr(ecs_sched_last_error(s.world), "kid"));
    assert_int_equal(ecs_sched_entity_count(s.world), 2);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void the_entries_under_a_prefab_entry_are_prefabs(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_entity made[3];
    ecs_sched_id prefab;
    (void)state;
    setup_world(&s);
    prefab = ecs_sched_prefab_tag(s.world);
    d = ecs_sched_prefab_data_create(s.world);
    ecs_sched_prefab_data_add(d, -1);
    ecs_sched_prefab_data_add(d, -1);
    ecs_sched_prefab_data_add(d, -1);
    assert_int_equal(ecs_sched_prefab_data_set_parent(d, 1, 2), ECS_SCHED_OK);   /* a grandchild first */
    assert_int_equal(ecs_sched_prefab_data_set_parent(d, 2, 0), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_set(d, 0, prefab, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_set(d, 1, s.position, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, 0, made), ECS_SCHED_OK);
    assert_true(ecs_sched_has(s.world, made[1], prefab));
    assert_true(ecs_sched_has(s.world, made[2], prefab));
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void the_entries_under_a_prefab_main_entity_are_prefabs(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_entity main, made[2];
    ecs_sched_id prefab;
    (void)state;
    setup_world(&s);
    prefab = ecs_sched_prefab_tag(s.world);
    main = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_insert(s.world, main, prefab, NULL), ECS_SCHED_OK);
    d = ecs_sched_prefab_data_create(s.world);
    ecs_sched_prefab_data_add(d, -1);
    ecs_sched_prefab_data_add(d, 0);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, main, made), ECS_SCHED_OK);
    assert_true(ecs_sched_has(s.world, made[1], prefab));
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

/* ---- entries checked one by one ---- */

static void an_entry_cannot_be_its_own_parent(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    (void)state;
    setup_world(&s);
    d = ecs_sched_prefab_data_create(s.world);
    assert_int_equal(ecs_sched_prefab_data_add(d, -1), 0);
    assert_int_equal(ecs_sched_prefab_data_add(d, 0), 1);
    assert_int_equal(ecs_sched_prefab_data_set_parent(d, 1, 1), ECS_SCHED_ERR_RELATION_CYCLE);
    assert_string_equal(ecs_sched_last_error(s.world), "prefab_data_set_parent: entry 1 cannot be its own parent");
    assert_int_equal(ecs_sched_prefab_data_parent(d, 1), 0);   /* as it was */
    assert_int_equal(ecs_sched_prefab_data_set_parent(d, 2, 0), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_string_equal(ecs_sched_last_error(s.world),
                        "prefab_data_set_parent: entry 2 is out of range (the data has 2 entries)");
    assert_int_equal(ecs_sched_prefab_data_set_parent(d, 1, -1), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_parent(d, 1), -1);
    assert_int_equal(ecs_sched_prefab_data_parent(d, 5), -1);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void an_entry_s_name_is_not_empty_and_null_takes_it_away(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    (void)state;
    setup_world(&s);
    d = ecs_sched_prefab_data_create(s.world);
    ecs_sched_prefab_data_add(d, -1);
    assert_int_equal(ecs_sched_prefab_data_set_name(d, 0, "ship"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_set_name(d, 0, ""), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(s.world), "prefab_data_set_name");
    assert_string_equal(ecs_sched_prefab_data_name(d, 0), "ship");
    assert_int_equal(ecs_sched_prefab_data_set_name(d, 0, NULL), ECS_SCHED_OK);
    assert_null(ecs_sched_prefab_data_name(d, 0));
    assert_null(ecs_sched_prefab_data_name(d, 1));
    assert_int_equal(ecs_sched_prefab_data_set_name(d, 1, "x"), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_string_equal(ecs_sched_last_error(s.world),
                        "prefab_data_set_name: entry 1 is out of range (the data has 1 entries)");
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void an_entry_has_the_values_set_on_it_only(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    Health h = {3};
    (void)state;
    setup_world(&s);
    d = ecs_sched_prefab_data_create(s.world);
    ecs_sched_prefab_data_add(d, -1);
    ecs_sched_prefab_data_add(d, -1);
    assert_int_equal(ecs_sched_prefab_data_set(d, 0, s.health, &h), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_set(d, 1, s.frozen, NULL), ECS_SCHED_OK);
    assert_true(ecs_sched_prefab_data_has(d, 0, s.health));
    assert_false(ecs_sched_prefab_data_has(d, 0, s.frozen));
    assert_true(ecs_sched_prefab_data_has(d, 1, s.frozen));
    assert_false(ecs_sched_prefab_data_has(d, 1, s.health));
    assert_null(ecs_sched_prefab_data_get(d, 1, s.health));
    assert_false(ecs_sched_prefab_data_has(d, 2, s.health));
    assert_false(ecs_sched_prefab_data_has(d, -1, s.health));
    assert_null(ecs_sched_prefab_data_get(d, 2, s.health));
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

typedef struct { ecs_sched_entity who; ecs_sched_entity pair[2]; int32_t n; } Pointer;

static ecs_sched_id describe_pointer(world_setup *s) {
    ecs_sched_id pointer = ECS_SCHED_COMPONENT(s->world, Pointer);
    ecs_sched_member f[] = {ECS_SCHED_MEMBER(Pointer, who, ECS_SCHED_TYPE_ENTITY),
                            ECS_SCHED_MEMBER(Pointer, pair, ECS_SCHED_TYPE_ENTITY),
                            ECS_SCHED_MEMBER(Pointer, n, ECS_SCHED_TYPE_I32)};
    assert_int_equal(ecs_sched_describe(s->world, pointer, 3, f), ECS_SCHED_OK);
    return pointer;
}

static void an_entity_link_needs_a_value_and_one_entity_member(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_id pointer;
    Pointer p;
    ecs_sched_entity made[2];
    const Pointer *got;
    (void)state;
    setup_world(&s);
    pointer = describe_pointer(&s);
    memset(&p, 0, sizeof p);
    d = ecs_sched_prefab_data_create(s.world);
    ecs_sched_prefab_data_add(d, -1);
    ecs_sched_prefab_data_add(d, -1);
    assert_int_equal(ecs_sched_prefab_data_set_entity(d, 0, pointer, "who", 1), ECS_SCHED_ERR_MISSING_COMPONENT);
    assert_string_equal(ecs_sched_last_error(s.world), "prefab_data_set_entity: entry 0 has no value "
                                                       "of 'Pointer' to hold the entity; set it first");
    assert_int_equal(ecs_sched_prefab_data_set(d, 0, pointer, &p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_set_entity(d, 0, pointer, "n", 1), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_string_equal(ecs_sched_last_error(s.world), "prefab_data_set_entity: 'n' of 'Pointer' is not one entity member");
    assert_int_equal(ecs_sched_prefab_data_set_entity(d, 0, pointer, "pair", 1), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_string_equal(ecs_sched_last_error(s.world), "prefab_data_set_entity: 'pair' of 'Pointer' is not one entity member");
    assert_int_equal(ecs_sched_prefab_data_set_entity(d, 0, pointer, "where", 1), ECS_SCHED_ERR_NOT_FOUND);
    assert_contains(ecs_sched_last_error(s.world), "'Pointer' has no member 'where'");
    assert_int_equal(ecs_sched_prefab_data_set_entity(d, 2, pointer, "who", 1), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_string_equal(ecs_sched_last_error(s.world), "prefab_data_set_entity: entry 2 is out of range (the data has 2 entries)");
    assert_int_equal(ecs_sched_prefab_data_set_entity(d, 0, pointer, "who", 2), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_string_equal(ecs_sched_last_error(s.world), "prefab_data_set_entity (target): entry 2 is out of range (the data has 2 entries)");
    assert_int_equal(ecs_sched_prefab_data_set_entity(d, 0, pointer, "who", 1), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_set_entity(d, 0, pointer, "pair[1]", 0), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, 0, made), ECS_SCHED_OK);
    got = (const Pointer *)ecs_sched_get(s.world, made[0], pointer);
    assert_true(got->who == made[1]);
    assert_true(got->pair[0] == ECS_SCHED_NULL_ENTITY);
    assert_true(got->pair[1] == made[0]);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void relating_entries_checks_both_entries_and_the_kind(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    (void)state;
    setup_world(&s);
    d = ecs_sched_prefab_data_create(s.world);
    ecs_sched_prefab_data_add(d, -1);
    assert_int_equal(ecs_sched_prefab_data_relate(d, 1, ecs_sched_is_a(s.world), 0), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_string_equal(ecs_sched_last_error(s.world), "prefab_data_relate: entry 1 is out of range (the data has 1 entries)");
    assert_int_equal(ecs_sched_prefab_data_relate(d, 0, ecs_sched_is_a(s.world), -1), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_string_equal(ecs_sched_last_error(s.world), "prefab_data_relate (target): entry -1 is out of range (the data has 1 entries)");
    assert_int_equal(ecs_sched_prefab_data_relate(d, 0, s.health, 0), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(s.world), "prefab_data_relate");
    assert_contains(ecs_sched_last_error(s.world), "Health");
    assert_int_equal(ecs_sched_prefab_data_relate(d, 0, ecs_sched_child_of(s.world), 0), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(s.world), "use ecs_sched_prefab_data_set_parent");
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void data_without_entries_is_refused(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    (void)state;
    setup_world(&s);
    d = ecs_sched_prefab_data_create(s.world);
    assert_int_equal(ecs_sched_prefab_data_count(d), 0);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, 0, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_string_equal(ecs_sched_last_error(s.world), "prefab_data_instantiate: the data has no entries");
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, NULL, 0, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_string_equal(ecs_sched_last_error(s.world), "prefab_data_instantiate: data is NULL");
    assert_int_equal(ecs_sched_entity_count(s.world), 0);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void commands_refuse_no_data_and_a_dead_main_entity(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_commands *cmd;
    ecs_sched_entity gone;
    (void)state;
    setup_world(&s);
    d = ship_data(&s);
    gone = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_despawn(s.world, gone), ECS_SCHED_OK);
    cmd = ecs_sched_commands_create(s.world);
    assert_true(ecs_sched_commands_prefab_data_instantiate(cmd, NULL, 0) == ECS_SCHED_NULL_ENTITY);
    assert_string_equal(ecs_sched_last_error(s.world), "commands_prefab_data_instantiate: data is NULL");
    assert_true(ecs_sched_commands_prefab_data_instantiate(cmd, d, gone) == ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_last_result(s.world), ECS_SCHED_ERR_STALE_ENTITY);
    assert_contains(ecs_sched_last_error(s.world), "commands_prefab_data_instantiate");
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_entity_count(s.world), 0);
    ecs_sched_commands_destroy(cmd);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void a_command_whose_data_no_longer_fits_makes_nothing(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_commands *cmd;
    ecs_sched_entity made;
    (void)state;
    setup_world(&s);
    d = ecs_sched_prefab_data_create(s.world);   /* no entries: refused when applied */
    cmd = ecs_sched_commands_create(s.world);
    made = ecs_sched_commands_prefab_data_instantiate(cmd, d, 0);
    assert_true(made != ECS_SCHED_NULL_ENTITY);
    ecs_sched_commands_apply(cmd);
    assert_false(ecs_sched_is_alive(s.world, made));
    assert_int_equal(ecs_sched_entity_count(s.world), 0);
    assert_true(ecs_sched_spawn(s.world) != ECS_SCHED_NULL_ENTITY);   /* the handle went back */
    assert_int_equal(ecs_sched_entity_count(s.world), 1);
    ecs_sched_commands_destroy(cmd);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void a_main_entry_named_like_another_root_is_refused(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_entity main, other;
    (void)state;
    setup_world(&s);
    other = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_set_name(s.world, other, "ship"), ECS_SCHED_OK);
    main = ecs_sched_spawn(s.world);
    d = ecs_sched_prefab_data_create(s.world);
    ecs_sched_prefab_data_add(d, -1);
    assert_int_equal(ecs_sched_prefab_data_set_name(d, 0, "ship"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, main, NULL), ECS_SCHED_ERR_NAME_CLASH);
    assert_contains(ecs_sched_last_error(s.world), "prefab_data_instantiate");
    assert_contains(ecs_sched_last_error(s.world), "'ship'");
    assert_null(ecs_sched_name(s.world, main));
    assert_int_equal(ecs_sched_entity_count(s.world), 2);
    /* onto the entity of that name: its own name, no clash */
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, other, NULL), ECS_SCHED_OK);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

/* An acyclic kind `exclusive` or not, registered. */
static ecs_sched_id acyclic_kind(world_setup *s, const char *name, bool exclusive) {
    ecs_sched_relation_desc r;
    ecs_sched_id kind;
    memset(&r, 0, sizeof r);
    r.name = name;
    r.acyclic = true;
    r.exclusive = exclusive;
    kind = ecs_sched_relation_register(s->world, &r);
    assert_true(kind != 0);
    return kind;
}

/* Data of `n` entries related by kind as pairs (from, to) in order. */
static ecs_sched_prefab_data *related(world_setup *s, ecs_sched_id kind, int32_t n, const int32_t *pairs,
                                      int32_t count) {
    ecs_sched_prefab_data *d = ecs_sched_prefab_data_create(s->world);
    int32_t i;
    for (i = 0; i < n; i++) ecs_sched_prefab_data_add(d, -1);
    for (i = 0; i < count; i++) {
        assert_int_equal(ecs_sched_prefab_data_relate(d, pairs[2 * i], kind, pairs[2 * i + 1]), ECS_SCHED_OK);
    }
    return d;
}

static void a_cycle_through_three_entries_of_an_acyclic_kind_is_refused(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_id depends;
    static const int32_t ring[] = {0, 1, 1, 2, 0, 3, 2, 0};
    static const int32_t chain[] = {0, 1, 1, 2, 0, 2, 3, 0};
    ecs_sched_entity made[4];
    (void)state;
    setup_world(&s);
    depends = acyclic_kind(&s, "DependsOn", false);
    d = related(&s, depends, 4, ring, 4);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, 0, NULL), ECS_SCHED_ERR_RELATION_CYCLE);
    assert_string_equal(ecs_sched_last_error(s.world),
                        "prefab_data_instantiate: relating entry 2 to entry 0 with 'DependsOn' would "
                        "make a cycle: entry 0 reaches entry 2 through the relationships given before, "
                        "and 'DependsOn' is acyclic (nothing was made)");
    assert_int_equal(ecs_sched_entity_count(s.world), 0);
    ecs_sched_prefab_data_free(d);
    d = related(&s, depends, 4, chain, 4);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, 0, made), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_target_count(s.world, made[0], depends), 2);
    assert_true(ecs_sched_has_relation(s.world, made[3], depends, made[0]));
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void an_exclusive_acyclic_kind_counts_each_entry_s_last_target_only(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_id follows;
    /* 0 follows 1, then 2 (which replaces 1): 1 may follow 0 */
    static const int32_t replaced[] = {0, 1, 0, 2, 1, 0};
    /* 0 follows 1, 1 follows 2: 2 may not follow 0 */
    static const int32_t chain[] = {0, 1, 1, 2, 2, 0};
    ecs_sched_entity made[3];
    (void)state;
    setup_world(&s);
    follows = acyclic_kind(&s, "Follows", true);
    d = related(&s, follows, 3, replaced, 3);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, 0, made), ECS_SCHED_OK);
    assert_true(ecs_sched_target(s.world, made[0], follows, 0) == made[2]);
    assert_true(ecs_sched_target(s.world, made[1], follows, 0) == made[0]);
    ecs_sched_prefab_data_free(d);
    d = related(&s, follows, 3, chain, 3);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, 0, NULL), ECS_SCHED_ERR_RELATION_CYCLE);
    assert_contains(ecs_sched_last_error(s.world), "relating entry 2 to entry 0 with 'Follows' would make a cycle");
    assert_int_equal(ecs_sched_entity_count(s.world), 3);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

/* An observer instantiating the data in its user data onto the entity that got Velocity. */
static void instantiate_on_velocity(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    const ecs_sched_prefab_data *d = (const ecs_sched_prefab_data *)ecs_sched_ctx_user_data(ctx);
    assert_int_equal(ecs_sched_prefab_data_instantiate(w, d, t->entity, NULL), ECS_SCHED_OK);
}

static void an_instantiation_inside_an_observer_is_applied_after_it(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_observer_desc o;
    ecs_sched_entity e;
    Velocity v = {1.0f, 2.0f};
    int32_t count;
    (void)state;
    setup_world(&s);
    d = ship_data(&s);
    memset(&o, 0, sizeof o);
    o.name = "equip";
    o.event = ECS_SCHED_ON_ADD;
    o.component = s.velocity;
    o.fn = instantiate_on_velocity;
    o.user_data = d;
    assert_true(ecs_sched_observer_add(s.world, &o) != 0);
    e = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_insert(s.world, e, s.velocity, &v), ECS_SCHED_OK);
    assert_int_equal(get_health(&s, e)->hp, 50);
    assert_true(get_velocity(&s, e)->y > 1.5f);
    ecs_sched_children(s.world, e, &count);
    assert_int_equal(count, 2);
    assert_true(ecs_sched_has(s.world, ecs_sched_lookup_path(s.world, e, "turret.barrel", "."), s.frozen));
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void an_entity_link_into_a_tag_is_refused(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    (void)state;
    setup_world(&s);
    d = ecs_sched_prefab_data_create(s.world);
    ecs_sched_prefab_data_add(d, -1);
    assert_int_equal(ecs_sched_prefab_data_set(d, 0, s.frozen, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_set_entity(d, 0, s.frozen, "who", 0), ECS_SCHED_ERR_MISSING_COMPONENT);
    assert_string_equal(ecs_sched_last_error(s.world), "prefab_data_set_entity: entry 0 has no value "
                                                       "of 'Frozen' to hold the entity; set it first");
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

static void a_cycle_check_follows_its_own_kind_only(void **state) {
    world_setup s;
    ecs_sched_prefab_data *d;
    ecs_sched_id depends, likes, pointer;
    ecs_sched_relation_desc r;
    Pointer p;
    ecs_sched_entity made[3];
    (void)state;
    setup_world(&s);
    depends = acyclic_kind(&s, "DependsOn", false);
    pointer = describe_pointer(&s);
    memset(&r, 0, sizeof r);
    r.name = "Likes";
    likes = ecs_sched_relation_register(s.world, &r);
    memset(&p, 0, sizeof p);
    d = ecs_sched_prefab_data_create(s.world);
    ecs_sched_prefab_data_add(d, -1);
    ecs_sched_prefab_data_add(d, -1);
    ecs_sched_prefab_data_add(d, -1);
    assert_int_equal(ecs_sched_prefab_data_set(d, 0, pointer, &p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_set_entity(d, 0, pointer, "who", 2), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_relate(d, 0, likes, 1), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_relate(d, 0, depends, 1), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_relate(d, 1, likes, 0), ECS_SCHED_OK);   /* Likes may cycle */
    assert_int_equal(ecs_sched_prefab_data_relate(d, 1, depends, 2), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, 0, made), ECS_SCHED_OK);
    assert_true(ecs_sched_has_relation(s.world, made[1], likes, made[0]));
    assert_true(ecs_sched_has_relation(s.world, made[1], depends, made[2]));
    assert_true(((const Pointer *)ecs_sched_get(s.world, made[0], pointer))->who == made[2]);
    ecs_sched_prefab_data_free(d);
    d = ecs_sched_prefab_data_create(s.world);
    ecs_sched_prefab_data_add(d, -1);
    ecs_sched_prefab_data_add(d, -1);
    assert_int_equal(ecs_sched_prefab_data_relate(d, 0, likes, 1), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_relate(d, 0, depends, 1), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_relate(d, 1, depends, 0), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.world, d, 0, NULL), ECS_SCHED_ERR_RELATION_CYCLE);
    assert_contains(ecs_sched_last_error(s.world), "relating entry 1 to entry 0 with 'DependsOn' would make a cycle");
    assert_int_equal(ecs_sched_entity_count(s.world), 3);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(s.world);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(instantiating_onto_a_main_entity_makes_one_entity_per_other_entry),
        cmocka_unit_test(instantiating_without_a_main_entity_makes_it_too),
        cmocka_unit_test(instantiating_again_makes_no_new_tables),
        cmocka_unit_test(an_entity_field_of_a_sparse_component_names_the_entity_made),
        cmocka_unit_test(a_json_entity_field_of_a_sparse_component_names_the_entity_made),
        cmocka_unit_test(a_parent_cycle_is_refused_naming_the_entries_and_nothing_is_made),
        cmocka_unit_test(a_parent_index_out_of_range_is_refused),
        cmocka_unit_test(sibling_entries_with_one_name_are_refused),
        cmocka_unit_test(a_root_name_taken_in_the_world_is_refused),
        cmocka_unit_test(a_main_entry_with_a_parent_is_refused_onto_a_main_entity),
        cmocka_unit_test(relationships_and_marks_cannot_be_values),
        cmocka_unit_test(a_dead_main_entity_is_refused),
        cmocka_unit_test(data_of_another_world_is_refused),
        cmocka_unit_test(commands_instantiate_prefab_data_when_applied),
        cmocka_unit_test(an_unapplied_instantiation_gives_its_handle_back),
        cmocka_unit_test(values_are_copies_with_the_type_hooks),
        cmocka_unit_test(a_parent_entry_may_come_after_its_children),
        cmocka_unit_test(entity_fields_and_relationships_name_other_entries),
        cmocka_unit_test(a_relationship_cycle_between_entries_undoes_the_instantiation),
        cmocka_unit_test(a_failed_relationship_onto_a_main_entity_leaves_it_as_it_was),
        cmocka_unit_test(a_relationship_cycle_through_the_main_entity_leaves_it_as_it_was),
        cmocka_unit_test(an_entry_named_like_a_child_of_the_main_entity_is_refused),
        cmocka_unit_test(the_entries_under_a_prefab_entry_are_prefabs),
        cmocka_unit_test(the_entries_under_a_prefab_main_entity_are_prefabs),
        cmocka_unit_test(an_entry_cannot_be_its_own_parent),
        cmocka_unit_test(an_entry_s_name_is_not_empty_and_null_takes_it_away),
        cmocka_unit_test(an_entry_has_the_values_set_on_it_only),
        cmocka_unit_test(an_entity_link_needs_a_value_and_one_entity_member),
        cmocka_unit_test(relating_entries_checks_both_entries_and_the_kind),
        cmocka_unit_test(data_without_entries_is_refused),
        cmocka_unit_test(commands_refuse_no_data_and_a_dead_main_entity),
        cmocka_unit_test(a_command_whose_data_no_longer_fits_makes_nothing),
        cmocka_unit_test(a_main_entry_named_like_another_root_is_refused),
        cmocka_unit_test(a_cycle_through_three_entries_of_an_acyclic_kind_is_refused),
        cmocka_unit_test(an_exclusive_acyclic_kind_counts_each_entry_s_last_target_only),
        cmocka_unit_test(an_instantiation_inside_an_observer_is_applied_after_it),
        cmocka_unit_test(an_entity_link_into_a_tag_is_refused),
        cmocka_unit_test(a_cycle_check_follows_its_own_kind_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
