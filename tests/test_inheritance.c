/* Prefabs and inheritance (IsA). An instance sees the components of its bases it does not
   own; writing one through get_mut or insert overrides it with a copy; removing the override
   shares the base's value again. Bases nest, the nearest base wins, auto-overrides are copied
   into each new instance, and instantiating a prefab makes its children too. Queries read
   inherited values only when a term asks (ecs_sched_inherited), one shared value per table. */
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

static ecs_sched_entity spawn_position(world_setup *s, float x, float y) {
    Position p;
    ecs_sched_entity e = ecs_sched_spawn(s->world);
    p.x = x;
    p.y = y;
    assert_int_equal(ecs_sched_insert(s->world, e, s->position, &p), ECS_SCHED_OK);
    return e;
}

static ecs_sched_entity prefab_with_position(world_setup *s, float x, float y) {
    ecs_sched_entity e = spawn_position(s, x, y);
    assert_int_equal(ecs_sched_insert(s->world, e, ecs_sched_prefab_tag(s->world), NULL), ECS_SCHED_OK);
    return e;
}

static void make_instance(world_setup *s, ecs_sched_entity instance, ecs_sched_entity base) {
    assert_int_equal(ecs_sched_relate(s->world, instance, ecs_sched_is_a(s->world), base, NULL),
                     ECS_SCHED_OK);
}

static void instance_reads_its_base_value_through_get(void **state) {
    world_setup s;
    ecs_sched_entity base, instance;
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 3.0f, 4.0f);
    instance = ecs_sched_spawn(s.world);
    make_instance(&s, instance, base);
    assert_ptr_equal(ecs_sched_get(s.world, instance, s.position), ecs_sched_get(s.world, base, s.position));
    assert_true(get_position(&s, instance)->y > 3.5f);
    check_and_destroy(s.world);
}

static void has_counts_inherited_components_and_owns_does_not(void **state) {
    world_setup s;
    ecs_sched_entity base, instance;
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 1.0f, 2.0f);
    instance = ecs_sched_spawn(s.world);
    make_instance(&s, instance, base);
    assert_true(ecs_sched_has(s.world, instance, s.position));
    assert_false(ecs_sched_owns(s.world, instance, s.position));
    assert_true(ecs_sched_owns(s.world, base, s.position));
    assert_true(ecs_sched_owner(s.world, instance, s.position) == base);
    assert_true(ecs_sched_owner(s.world, base, s.position) == base);
    assert_true(ecs_sched_owner(s.world, instance, s.velocity) == ECS_SCHED_NULL_ENTITY);
    assert_false(ecs_sched_has(s.world, instance, s.velocity));
    check_and_destroy(s.world);
}

static void an_instance_of_a_prefab_is_no_prefab(void **state) {
    world_setup s;
    ecs_sched_entity base, instance;
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 1.0f, 2.0f);
    instance = ecs_sched_spawn(s.world);
    make_instance(&s, instance, base);
    assert_true(ecs_sched_has(s.world, base, ecs_sched_prefab_tag(s.world)));
    assert_false(ecs_sched_has(s.world, instance, ecs_sched_prefab_tag(s.world)));
    check_and_destroy(s.world);
}

static void get_mut_on_an_instance_overrides_with_a_copy_of_the_base_value(void **state) {
    world_setup s;
    ecs_sched_entity base, instance;
    Position *own;
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 5.0f, 6.0f);
    instance = ecs_sched_spawn(s.world);
    make_instance(&s, instance, base);
    own = (Position *)ecs_sched_get_mut(s.world, instance, s.position);
    assert_non_null(own);
    assert_true(ecs_sched_owns(s.world, instance, s.position));
    assert_true(own->x > 4.5f && own->x < 5.5f);   /* the copy starts as the base's value */
    own->x = 50.0f;
    assert_true(get_position(&s, base)->x < 5.5f);
    assert_true(get_position(&s, instance)->x > 49.0f);
    check_and_destroy(s.world);
}

static void insert_on_an_instance_overrides_and_remove_shares_again(void **state) {
    world_setup s;
    ecs_sched_entity base, instance;
    Position mine = {9.0f, 9.0f};
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 1.0f, 1.0f);
    instance = ecs_sched_spawn(s.world);
    make_instance(&s, instance, base);
    assert_int_equal(ecs_sched_insert(s.world, instance, s.position, &mine), ECS_SCHED_OK);
    assert_true(get_position(&s, instance)->x > 8.5f);
    assert_int_equal(ecs_sched_remove(s.world, instance, s.position), ECS_SCHED_OK);
    assert_false(ecs_sched_owns(s.world, instance, s.position));
    assert_ptr_equal(ecs_sched_get(s.world, instance, s.position), ecs_sched_get(s.world, base, s.position));
    check_and_destroy(s.world);
}

static void get_mut_many_with_a_component_missing_overrides_nothing(void **state) {
    world_setup s;
    ecs_sched_entity base, instance;
    ecs_sched_id ids[2];
    void *out[2];
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 1.0f, 1.0f);
    instance = ecs_sched_spawn(s.world);
    make_instance(&s, instance, base);
    ids[0] = s.position;
    ids[1] = s.health;   /* neither the instance nor its base has it */
    assert_int_equal(ecs_sched_get_mut_many(s.world, instance, 2, ids, out), ECS_SCHED_ERR_MISSING_COMPONENT);
    assert_false(ecs_sched_owns(s.world, instance, s.position));
    assert_true(ecs_sched_owner(s.world, instance, s.position) == base);
    check_and_destroy(s.world);
}

static void a_change_to_the_base_is_seen_by_its_instances(void **state) {
    world_setup s;
    ecs_sched_entity base, instance;
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 1.0f, 1.0f);
    instance = ecs_sched_spawn(s.world);
    make_instance(&s, instance, base);
    ((Position *)ecs_sched_get_mut(s.world, base, s.position))->x = 7.0f;
    assert_true(get_position(&s, instance)->x > 6.5f);
    check_and_destroy(s.world);
}

static void bases_nest_and_the_nearest_base_wins(void **state) {
    world_setup s;
    ecs_sched_entity far, near, instance;
    Health h = {10};
    (void)state;
    setup_world(&s);
    far = prefab_with_position(&s, 1.0f, 1.0f);
    assert_int_equal(ecs_sched_insert(s.world, far, s.health, &h), ECS_SCHED_OK);
    near = prefab_with_position(&s, 2.0f, 2.0f);
    make_instance(&s, near, far);
    instance = ecs_sched_spawn(s.world);
    make_instance(&s, instance, near);
    assert_true(ecs_sched_owner(s.world, instance, s.position) == near);   /* one step up */
    assert_true(ecs_sched_owner(s.world, instance, s.health) == far);      /* two steps up */
    assert_int_equal(get_health(&s, instance)->hp, 10);
    check_and_destroy(s.world);
}

static void among_bases_as_near_the_one_made_a_base_first_wins(void **state) {
    world_setup s;
    ecs_sched_entity first, second, deep, a, b;
    Health h = {1};
    (void)state;
    setup_world(&s);
    first = prefab_with_position(&s, 1.0f, 1.0f);
    second = prefab_with_position(&s, 2.0f, 2.0f);
    deep = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_insert(s.world, deep, s.health, &h), ECS_SCHED_OK);
    a = ecs_sched_spawn(s.world);
    make_instance(&s, a, first);
    make_instance(&s, a, second);
    b = ecs_sched_spawn(s.world);
    make_instance(&s, b, second);
    make_instance(&s, b, first);
    /* the same rule whatever the order the bases were given in */
    assert_true(ecs_sched_owner(s.world, a, s.position) == first);
    assert_true(ecs_sched_owner(s.world, b, s.position) == first);
    /* a base one step up wins over a base of a base with the same component */
    make_instance(&s, first, deep);
    assert_int_equal(ecs_sched_insert(s.world, second, s.health, &h), ECS_SCHED_OK);
    assert_true(ecs_sched_owner(s.world, a, s.health) == second);
    check_and_destroy(s.world);
}

static void auto_overrides_are_copied_into_each_new_instance(void **state) {
    world_setup s;
    ecs_sched_entity base, instance, later;
    Health h = {3};
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 1.0f, 1.0f);
    assert_int_equal(ecs_sched_insert(s.world, base, s.health, &h), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_auto_override(s.world, base, s.health), ECS_SCHED_OK);
    instance = ecs_sched_instantiate(s.world, base);
    assert_true(instance != ECS_SCHED_NULL_ENTITY);
    assert_true(ecs_sched_owns(s.world, instance, s.health));
    assert_false(ecs_sched_owns(s.world, instance, s.position));
    assert_int_equal(get_health(&s, instance)->hp, 3);
    ((Health *)ecs_sched_get_mut(s.world, instance, s.health))->hp = 30;
    assert_int_equal(get_health(&s, base)->hp, 3);
    /* relating an existing entity copies them too */
    later = ecs_sched_spawn(s.world);
    make_instance(&s, later, base);
    assert_true(ecs_sched_owns(s.world, later, s.health));
    check_and_destroy(s.world);
}

static void auto_overrides_of_a_base_of_the_base_are_copied_too(void **state) {
    world_setup s;
    ecs_sched_entity root, mid, instance;
    Health h = {4};
    (void)state;
    setup_world(&s);
    root = prefab_with_position(&s, 1.0f, 1.0f);
    assert_int_equal(ecs_sched_insert(s.world, root, s.health, &h), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_auto_override(s.world, root, s.health), ECS_SCHED_OK);
    mid = ecs_sched_spawn(s.world);
    make_instance(&s, mid, root);
    instance = ecs_sched_instantiate(s.world, mid);
    assert_true(ecs_sched_owns(s.world, instance, s.health));
    assert_int_equal(get_health(&s, instance)->hp, 4);
    check_and_destroy(s.world);
}

static void auto_override_of_a_component_the_base_lacks_is_refused(void **state) {
    world_setup s;
    ecs_sched_entity base;
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 1.0f, 1.0f);
    assert_int_equal(ecs_sched_auto_override(s.world, base, s.health), ECS_SCHED_ERR_MISSING_COMPONENT);
    assert_failed_with(s.world, &s.log, ECS_SCHED_ERR_MISSING_COMPONENT);
    assert_non_null(strstr(ecs_sched_last_error(s.world), "Health"));
    check_and_destroy(s.world);
}

/* A prefab: a ship with an engine and a turret, the turret with a barrel. */
typedef struct ship_prefab {
    ecs_sched_entity ship, engine, turret, barrel;
} ship_prefab;

static ship_prefab make_ship(world_setup *s) {
    ship_prefab p;
    p.ship = prefab_with_position(s, 0.0f, 0.0f);
    p.engine = prefab_with_position(s, -1.0f, 0.0f);
    p.turret = prefab_with_position(s, 1.0f, 0.0f);
    p.barrel = prefab_with_position(s, 1.5f, 0.0f);
    assert_int_equal(ecs_sched_set_parent(s->world, p.engine, p.ship), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(s->world, p.turret, p.ship), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(s->world, p.barrel, p.turret), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(s->world, p.engine, "engine"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(s->world, p.turret, "turret"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(s->world, p.barrel, "barrel"), ECS_SCHED_OK);
    return p;
}

static void instantiating_a_prefab_makes_its_children_with_names_order_and_bases(void **state) {
    world_setup s;
    ship_prefab p;
    ecs_sched_entity ship, engine, turret, barrel;
    const ecs_sched_entity *children;
    int32_t count;
    (void)state;
    setup_world(&s);
    p = make_ship(&s);
    ship = ecs_sched_instantiate(s.world, p.ship);
    assert_true(ship != ECS_SCHED_NULL_ENTITY);
    children = ecs_sched_children(s.world, ship, &count);
    assert_int_equal(count, 2);
    engine = children[0];
    turret = children[1];
    assert_string_equal(ecs_sched_name(s.world, engine), "engine");
    assert_string_equal(ecs_sched_name(s.world, turret), "turret");
    barrel = ecs_sched_lookup_path(s.world, ship, "turret.barrel", ".");
    assert_true(barrel != ECS_SCHED_NULL_ENTITY);
    assert_true(ecs_sched_parent_of(s.world, barrel) == turret);
    assert_true(ecs_sched_has_relation(s.world, ship, ecs_sched_is_a(s.world), p.ship));
    assert_true(ecs_sched_has_relation(s.world, engine, ecs_sched_is_a(s.world), p.engine));
    assert_true(ecs_sched_has_relation(s.world, barrel, ecs_sched_is_a(s.world), p.barrel));
    assert_true(get_position(&s, barrel)->x > 1.4f);
    assert_null(ecs_sched_name(s.world, ship));   /* the root is not named after the prefab */
    assert_false(ecs_sched_has(s.world, barrel, ecs_sched_prefab_tag(s.world)));
    check_and_destroy(s.world);
}

static void instances_of_one_prefab_are_independent(void **state) {
    world_setup s;
    ship_prefab p;
    ecs_sched_entity a, b, turret_a, turret_b;
    (void)state;
    setup_world(&s);
    p = make_ship(&s);
    a = ecs_sched_instantiate(s.world, p.ship);
    b = ecs_sched_instantiate(s.world, p.ship);
    turret_a = ecs_sched_lookup(s.world, a, "turret");
    turret_b = ecs_sched_lookup(s.world, b, "turret");
    assert_true(turret_a && turret_b && turret_a != turret_b);
    ((Position *)ecs_sched_get_mut(s.world, turret_a, s.position))->y = 8.0f;
    assert_true(get_position(&s, turret_b)->y < 0.5f);
    assert_true(get_position(&s, p.turret)->y < 0.5f);
    assert_int_equal(ecs_sched_despawn(s.world, a), ECS_SCHED_OK);
    assert_false(ecs_sched_is_alive(s.world, turret_a));
    assert_true(ecs_sched_is_alive(s.world, turret_b));
    check_and_destroy(s.world);
}

static int32_t count_rows(ecs_sched_query *q) {
    ecs_sched_iter it = ecs_sched_query_iter(q);
    int32_t n = 0;
    while (ecs_sched_iter_next(&it)) n += it.count;
    return n;
}

static ecs_sched_term no_term(void) {
    ecs_sched_term t;
    memset(&t, 0, sizeof t);
    return t;
}

static ecs_sched_query *query_of(world_setup *s, ecs_sched_term a, ecs_sched_term b) {
    ecs_sched_query_desc d;
    ecs_sched_query *q;
    memset(&d, 0, sizeof d);
    d.terms[0] = a;
    d.terms[1] = b;
    q = ecs_sched_query_create(s->world, &d);
    assert_non_null(q);
    return q;
}

static void a_read_term_matches_owned_values_only(void **state) {
    world_setup s;
    ecs_sched_entity base, instance;
    ecs_sched_query *q;
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 1.0f, 1.0f);
    instance = ecs_sched_spawn(s.world);
    make_instance(&s, instance, base);
    q = query_of(&s, ecs_sched_read(s.position), no_term());
    assert_int_equal(count_rows(q), 0);   /* the prefab is hidden, the instance owns nothing */
    assert_int_equal(ecs_sched_query_count(q), 0);
    check_and_destroy(s.world);
}

static void an_inherited_term_hands_out_one_shared_value_per_table(void **state) {
    world_setup s;
    ecs_sched_entity base, e[3];
    ecs_sched_query *q;
    ecs_sched_iter it;
    Velocity v = {1.0f, 0.0f};
    int i, tables = 0;
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 4.0f, 0.0f);
    for (i = 0; i < 3; i++) {
        e[i] = ecs_sched_spawn(s.world);
        assert_int_equal(ecs_sched_insert(s.world, e[i], s.velocity, &v), ECS_SCHED_OK);
        make_instance(&s, e[i], base);
    }
    q = query_of(&s, ecs_sched_inherited(s.position), ecs_sched_write(s.velocity));
    assert_int_equal(ecs_sched_query_count(q), 3);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        Velocity *vel = ECS_SCHED_FIELD(&it, Velocity, 1);
        tables++;
        assert_true(ecs_sched_field_is_shared(&it, 0));
        assert_false(ecs_sched_field_is_shared(&it, 1));
        assert_ptr_equal(p, ecs_sched_get(s.world, base, s.position));
        for (i = 0; i < it.count; i++) vel[i].x = ECS_SCHED_FIELD_AT(&it, Position, 0, i)->x;
    }
    assert_int_equal(tables, 1);
    for (i = 0; i < 3; i++) assert_true(get_velocity(&s, e[i])->x > 3.5f);
    check_and_destroy(s.world);
}

static void an_inherited_term_hands_out_owned_values_row_by_row(void **state) {
    world_setup s;
    ecs_sched_entity base, shared, owner;
    ecs_sched_query *q;
    ecs_sched_iter it;
    Position mine = {9.0f, 0.0f};
    float seen_shared = 0.0f, seen_owned = 0.0f;
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 2.0f, 0.0f);
    shared = ecs_sched_spawn(s.world);
    make_instance(&s, shared, base);
    owner = ecs_sched_spawn(s.world);
    make_instance(&s, owner, base);
    assert_int_equal(ecs_sched_insert(s.world, owner, s.position, &mine), ECS_SCHED_OK);
    q = query_of(&s, ecs_sched_inherited(s.position), no_term());
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        int32_t i;
        for (i = 0; i < it.count; i++) {
            float x = ECS_SCHED_FIELD_AT(&it, Position, 0, i)->x;
            if (it.entities[i] == shared) {
                assert_true(ecs_sched_field_is_shared(&it, 0));
                seen_shared = x;
            }
            if (it.entities[i] == owner) {
                assert_false(ecs_sched_field_is_shared(&it, 0));
                seen_owned = x;
            }
        }
    }
    assert_true(seen_shared > 1.5f && seen_shared < 2.5f);
    assert_true(seen_owned > 8.5f);
    check_and_destroy(s.world);
}

static void a_table_whose_base_lost_the_component_is_passed_over(void **state) {
    world_setup s;
    ecs_sched_entity base, instance;
    ecs_sched_query *q;
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 2.0f, 0.0f);
    instance = ecs_sched_spawn(s.world);
    make_instance(&s, instance, base);
    q = query_of(&s, ecs_sched_inherited(s.position), no_term());
    assert_int_equal(count_rows(q), 1);
    assert_int_equal(ecs_sched_remove(s.world, base, s.position), ECS_SCHED_OK);
    assert_int_equal(count_rows(q), 0);
    assert_int_equal(ecs_sched_query_count(q), 0);
    assert_false(ecs_sched_has(s.world, instance, s.position));
    check_and_destroy(s.world);
}

static void an_inherited_term_is_a_read_for_the_scheduler(void **state) {
    world_setup s;
    ecs_sched_query *q;
    ecs_sched_access a;
    (void)state;
    setup_world(&s);
    q = query_of(&s, ecs_sched_inherited(s.position), ecs_sched_write(s.velocity));
    a = ecs_sched_query_access(q);
    assert_int_equal(a.read_count, 1);
    assert_int_equal(a.reads[0], s.position);
    assert_int_equal(a.write_count, 1);
    check_and_destroy(s.world);
}

static void inheriting_a_relationship_or_a_hidden_tag_is_refused(void **state) {
    world_setup s;
    ecs_sched_query_desc d;
    (void)state;
    setup_world(&s);
    memset(&d, 0, sizeof d);
    d.terms[0] = ecs_sched_inherited(ecs_sched_child_of(s.world));
    assert_null(ecs_sched_query_create(s.world, &d));
    assert_failed_with(s.world, &s.log, ECS_SCHED_ERR_INVALID_QUERY);
    d.terms[0] = ecs_sched_inherited(ecs_sched_prefab_tag(s.world));
    assert_null(ecs_sched_query_create(s.world, &d));
    assert_failed_with(s.world, &s.log, ECS_SCHED_ERR_INVALID_QUERY);
    check_and_destroy(s.world);
}

static void an_isa_cycle_is_refused_and_changes_nothing(void **state) {
    world_setup s;
    ecs_sched_entity a, b;
    (void)state;
    setup_world(&s);
    a = prefab_with_position(&s, 1.0f, 1.0f);
    b = ecs_sched_spawn(s.world);
    make_instance(&s, b, a);
    assert_int_equal(ecs_sched_relate(s.world, a, ecs_sched_is_a(s.world), b, NULL),
                     ECS_SCHED_ERR_RELATION_CYCLE);
    assert_failed_with(s.world, &s.log, ECS_SCHED_ERR_RELATION_CYCLE);
    assert_false(ecs_sched_has_relation(s.world, a, ecs_sched_is_a(s.world), b));
    assert_int_equal(ecs_sched_relate(s.world, a, ecs_sched_is_a(s.world), a, NULL),
                     ECS_SCHED_ERR_RELATION_CYCLE);
    check_and_destroy(s.world);
}

static void despawning_a_base_with_instances_is_refused(void **state) {
    world_setup s;
    ecs_sched_entity base, instance;
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 1.0f, 1.0f);
    instance = ecs_sched_instantiate(s.world, base);
    assert_int_equal(ecs_sched_despawn(s.world, base), ECS_SCHED_ERR_REFUSED);
    assert_failed_with(s.world, &s.log, ECS_SCHED_ERR_REFUSED);
    assert_true(mentions_number(ecs_sched_last_error(s.world), ECS_SCHED_ENTITY_INDEX(instance)));
    assert_true(ecs_sched_is_alive(s.world, base));
    assert_int_equal(ecs_sched_despawn(s.world, instance), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(s.world, base), ECS_SCHED_OK);
    check_and_destroy(s.world);
}

static void unrelating_from_the_base_stops_inheriting(void **state) {
    world_setup s;
    ecs_sched_entity base, instance;
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 1.0f, 1.0f);
    instance = ecs_sched_instantiate(s.world, base);
    assert_int_equal(ecs_sched_unrelate(s.world, instance, ecs_sched_is_a(s.world), base), ECS_SCHED_OK);
    assert_false(ecs_sched_has(s.world, instance, s.position));
    assert_null(ecs_sched_get(s.world, instance, s.position));
    assert_int_equal(ecs_sched_despawn(s.world, base), ECS_SCHED_OK);
    check_and_destroy(s.world);
}

static void instantiating_a_dead_prefab_fails_and_makes_nothing(void **state) {
    world_setup s;
    ecs_sched_entity base;
    int32_t before;
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 1.0f, 1.0f);
    assert_int_equal(ecs_sched_despawn(s.world, base), ECS_SCHED_OK);
    before = ecs_sched_entity_count(s.world);
    assert_true(ecs_sched_instantiate(s.world, base) == ECS_SCHED_NULL_ENTITY);
    assert_failed_with(s.world, &s.log, ECS_SCHED_ERR_STALE_ENTITY);
    assert_non_null(strstr(ecs_sched_last_error(s.world), "prefab"));
    assert_int_equal(ecs_sched_entity_count(s.world), before);
    check_and_destroy(s.world);
}

static void instantiation_through_commands_happens_when_applied(void **state) {
    world_setup s;
    ship_prefab p;
    ecs_sched_commands *cmd;
    ecs_sched_entity ship, gone, dead;
    int32_t count;
    (void)state;
    setup_world(&s);
    p = make_ship(&s);
    dead = prefab_with_position(&s, 0.0f, 0.0f);
    cmd = ecs_sched_commands_create(s.world);
    ship = ecs_sched_commands_instantiate(cmd, p.ship);
    gone = ecs_sched_commands_instantiate(cmd, dead);
    assert_true(ship != ECS_SCHED_NULL_ENTITY && gone != ECS_SCHED_NULL_ENTITY);
    assert_false(ecs_sched_is_alive(s.world, ship));
    assert_int_equal(ecs_sched_despawn(s.world, dead), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_true(ecs_sched_is_alive(s.world, ship));
    assert_false(ecs_sched_is_alive(s.world, gone));   /* its prefab went first: skipped */
    assert_int_equal(ecs_sched_commands_skipped(cmd), 1);
    ecs_sched_children(s.world, ship, &count);
    assert_int_equal(count, 2);
    ecs_sched_commands_destroy(cmd);
    check_and_destroy(s.world);
}

static void unapplied_instantiations_give_their_handles_back(void **state) {
    world_setup s;
    ecs_sched_commands *cmd;
    ecs_sched_entity base, made;
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 0.0f, 0.0f);
    cmd = ecs_sched_commands_create(s.world);
    made = ecs_sched_commands_instantiate(cmd, base);
    ecs_sched_commands_destroy(cmd);
    assert_false(ecs_sched_is_alive(s.world, made));
    assert_true(ecs_sched_spawn(s.world) != ECS_SCHED_NULL_ENTITY);
    check_and_destroy(s.world);
}

static void marks_cannot_be_inserted_or_removed_by_hand(void **state) {
    world_setup s;
    ecs_sched_entity base, instance, other;
    ecs_sched_id mark = 0;
    uint32_t id;
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 0.0f, 0.0f);
    instance = ecs_sched_instantiate(s.world, base);
    for (id = 1; id < 64 && !mark; id++) {
        const char *name = ecs_sched_component_name(s.world, id);
        if (name && strstr(name, "ecs_sched.IsA(")) mark = id;
    }
    assert_true(mark != 0);
    other = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_insert(s.world, other, mark, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(s.world), "ecs_sched_is_a"));
    assert_int_equal(ecs_sched_remove(s.world, instance, mark), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_true(ecs_sched_has(s.world, instance, s.position));
    check_and_destroy(s.world);
}

static void add_system(ecs_sched_world *w, const char *name, ecs_sched_term a, ecs_sched_term b) {
    ecs_sched_system_desc d;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.fn = noop;
    d.queries[0].terms[0] = a;
    d.queries[0].terms[1] = b;
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &d), ECS_SCHED_OK);
}

static void error_on_ambiguity(ecs_sched_world *w) {
    ecs_sched_schedule_desc d;
    memset(&d, 0, sizeof d);
    d.ambiguities = ECS_SCHED_REPORT_ERROR;
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &d), ECS_SCHED_OK);
}

static void a_writer_of_the_base_conflicts_with_a_reader_of_inherited_values(void **state) {
    world_setup s;
    (void)state;
    setup_world(&s);
    error_on_ambiguity(s.world);
    /* the writer touches only frozen entities, the reader none: but the reader's bases may
       be frozen */
    add_system(s.world, "tune_frozen", ecs_sched_write(s.position), ecs_sched_read(s.frozen));
    add_system(s.world, "follow_base", ecs_sched_inherited(s.position), ecs_sched_without(s.frozen));
    assert_int_equal(ecs_sched_schedule_build(s.world, UPDATE), ECS_SCHED_ERR_AMBIGUITY);
    assert_non_null(strstr(ecs_sched_last_error(s.world), "'tune_frozen'"));
    assert_non_null(strstr(ecs_sched_last_error(s.world), "'follow_base'"));
    ecs_sched_world_destroy(s.world);
}

static void readers_of_owned_values_of_disjoint_entities_stay_apart(void **state) {
    world_setup s;
    (void)state;
    setup_world(&s);
    error_on_ambiguity(s.world);
    add_system(s.world, "tune_frozen", ecs_sched_write(s.position), ecs_sched_read(s.frozen));
    add_system(s.world, "move_others", ecs_sched_write(s.position), ecs_sched_without(s.frozen));
    assert_int_equal(ecs_sched_schedule_build(s.world, UPDATE), ECS_SCHED_OK);
    ecs_sched_world_destroy(s.world);
}

/* Each piece writes into its own rows only (pieces run at once): the value it saw, and
   whether it was shared. */
static void copy_inherited_x(ecs_sched_iter *it, void *arg) {
    Velocity *v = ECS_SCHED_FIELD(it, Velocity, 1);
    int32_t i;
    (void)arg;
    for (i = 0; i < it->count; i++) {
        v[i].x = ECS_SCHED_FIELD_AT(it, Position, 0, i)->x;
        v[i].y = ecs_sched_field_is_shared(it, 0) ? 1.0f : 0.0f;
    }
}

static void parallel_iteration_hands_out_shared_fields_too(void **state) {
    world_setup s;
    ecs_sched_entity base, e[11];
    ecs_sched_query *q;
    Velocity zero = {0.0f, 0.0f};
    float sum = 0.0f, shared = 0.0f;
    int i;
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 2.0f, 0.0f);
    for (i = 0; i < 10; i++) {
        e[i] = ecs_sched_spawn(s.world);
        assert_int_equal(ecs_sched_insert(s.world, e[i], s.velocity, &zero), ECS_SCHED_OK);
        make_instance(&s, e[i], base);
    }
    e[10] = spawn_position(&s, 1.0f, 0.0f);
    assert_int_equal(ecs_sched_insert(s.world, e[10], s.velocity, &zero), ECS_SCHED_OK);
    q = query_of(&s, ecs_sched_inherited(s.position), ecs_sched_write(s.velocity));
    ecs_sched_query_par_iter(q, ecs_sched_world_pool(s.world), 1, copy_inherited_x, NULL);
    for (i = 0; i < 11; i++) {
        sum += get_velocity(&s, e[i])->x;
        shared += get_velocity(&s, e[i])->y;
    }
    assert_true(sum > 20.5f && sum < 21.5f);       /* ten shared 2s and one own 1 */
    assert_true(shared > 9.5f && shared < 10.5f);  /* the ten instances saw a shared field */
    check_and_destroy(s.world);
}

static void a_cycle_through_a_second_base_is_refused(void **state) {
    world_setup s;
    ecs_sched_entity a, b, c;
    (void)state;
    setup_world(&s);
    a = ecs_sched_spawn(s.world);
    b = ecs_sched_spawn(s.world);
    c = ecs_sched_spawn(s.world);
    make_instance(&s, a, b);
    make_instance(&s, a, c);   /* c is a's second base */
    assert_int_equal(ecs_sched_relate(s.world, c, ecs_sched_is_a(s.world), a, NULL),
                     ECS_SCHED_ERR_RELATION_CYCLE);
    assert_failed_with(s.world, &s.log, ECS_SCHED_ERR_RELATION_CYCLE);
    assert_false(ecs_sched_has_relation(s.world, c, ecs_sched_is_a(s.world), a));
    check_and_destroy(s.world);
}

static void a_base_despawned_after_its_instances_leaves_queries_working(void **state) {
    world_setup s;
    ecs_sched_entity base, instance;
    ecs_sched_query *q;
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 1.0f, 0.0f);
    q = query_of(&s, ecs_sched_inherited(s.position), no_term());
    instance = ecs_sched_instantiate(s.world, base);
    assert_int_equal(ecs_sched_despawn(s.world, instance), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(s.world, base), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_query_count(q), 0);
    assert_int_equal(count_rows(q), 0);
    spawn_position(&s, 2.0f, 0.0f);
    assert_int_equal(ecs_sched_query_count(q), 1);
    check_and_destroy(s.world);
}

static void marks_cannot_be_recorded_in_commands_either(void **state) {
    world_setup s;
    ecs_sched_entity base, instance;
    ecs_sched_commands *cmd;
    ecs_sched_id mark = 0;
    uint32_t id;
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 0.0f, 0.0f);
    instance = ecs_sched_instantiate(s.world, base);
    for (id = 1; id < 64 && !mark; id++) {
        const char *name = ecs_sched_component_name(s.world, id);
        if (name && strstr(name, "ecs_sched.IsA(")) mark = id;
    }
    cmd = ecs_sched_commands_create(s.world);
    assert_int_equal(ecs_sched_commands_insert(cmd, ecs_sched_spawn(s.world), mark, NULL),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_commands_remove(cmd, instance, mark), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_commands_pending(cmd), 0);
    ecs_sched_commands_destroy(cmd);
    check_and_destroy(s.world);
}

static int by_x(ecs_sched_entity a, const void *va, ecs_sched_entity b, const void *vb) {
    float x = ((const Position *)va)->x, y = ((const Position *)vb)->x;
    (void)a;
    (void)b;
    return (x > y) - (x < y);
}

static void an_inheriting_query_cannot_be_sorted(void **state) {
    world_setup s;
    ecs_sched_query *q;
    (void)state;
    setup_world(&s);
    q = query_of(&s, ecs_sched_inherited(s.position), ecs_sched_read(s.velocity));
    assert_int_equal(ecs_sched_query_order_by(q, s.velocity, by_x), ECS_SCHED_ERR_INVALID_QUERY);
    assert_failed_with(s.world, &s.log, ECS_SCHED_ERR_INVALID_QUERY);
    assert_int_equal(ecs_sched_query_group_by(q, ecs_sched_child_of(s.world)), ECS_SCHED_ERR_INVALID_QUERY);
    check_and_destroy(s.world);
}

static void an_auto_override_the_prefab_no_longer_has_is_not_copied(void **state) {
    world_setup s;
    ecs_sched_entity base, instance;
    Health h = {2};
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 0.0f, 0.0f);
    assert_int_equal(ecs_sched_insert(s.world, base, s.health, &h), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_auto_override(s.world, base, s.health), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_remove(s.world, base, s.health), ECS_SCHED_OK);
    instance = ecs_sched_instantiate(s.world, base);
    assert_false(ecs_sched_has(s.world, instance, s.health));
    check_and_destroy(s.world);
}

static void a_new_base_copies_only_its_own_auto_overrides(void **state) {
    world_setup s;
    ecs_sched_entity first, second, instance;
    Health h = {2};
    (void)state;
    setup_world(&s);
    first = prefab_with_position(&s, 0.0f, 0.0f);
    assert_int_equal(ecs_sched_insert(s.world, first, s.health, &h), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_auto_override(s.world, first, s.health), ECS_SCHED_OK);
    second = prefab_with_position(&s, 1.0f, 0.0f);
    instance = ecs_sched_instantiate(s.world, first);
    assert_int_equal(ecs_sched_remove(s.world, instance, s.health), ECS_SCHED_OK);   /* shared again */
    make_instance(&s, instance, second);
    assert_false(ecs_sched_owns(s.world, instance, s.health));
    check_and_destroy(s.world);
}

static void changes_to_a_prefab_between_instantiations_are_followed(void **state) {
    world_setup s;
    ecs_sched_entity root, prefab, a, b, c, d;
    Health h = {6};
    Velocity v = {1.0f, 2.0f};
    (void)state;
    setup_world(&s);
    root = prefab_with_position(&s, 0.0f, 0.0f);
    assert_int_equal(ecs_sched_insert(s.world, root, s.health, &h), ECS_SCHED_OK);
    prefab = prefab_with_position(&s, 1.0f, 0.0f);
    make_instance(&s, prefab, root);
    a = ecs_sched_instantiate(s.world, prefab);
    assert_false(ecs_sched_owns(s.world, a, s.velocity));
    /* a component and its auto-override on the prefab itself */
    assert_int_equal(ecs_sched_insert(s.world, prefab, s.velocity, &v), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_auto_override(s.world, prefab, s.velocity), ECS_SCHED_OK);
    b = ecs_sched_instantiate(s.world, prefab);
    assert_true(ecs_sched_owns(s.world, b, s.velocity));
    /* an auto-override on the prefab's base, of what the base has */
    assert_int_equal(ecs_sched_auto_override(s.world, root, s.health), ECS_SCHED_OK);
    c = ecs_sched_instantiate(s.world, prefab);
    assert_true(ecs_sched_owns(s.world, c, s.health));
    /* the base loses it: the prefab no longer sees it, nor copies it */
    assert_int_equal(ecs_sched_remove(s.world, root, s.health), ECS_SCHED_OK);
    d = ecs_sched_instantiate(s.world, prefab);
    assert_false(ecs_sched_has(s.world, d, s.health));
    assert_true(ecs_sched_owns(s.world, d, s.velocity));
    check_and_destroy(s.world);
}

static void a_null_insert_of_an_inherited_component_copies_the_base_value(void **state) {
    world_setup s;
    ecs_sched_entity base, instance;
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 3.0f, 4.0f);
    instance = ecs_sched_spawn(s.world);
    make_instance(&s, instance, base);
    assert_int_equal(ecs_sched_insert(s.world, instance, s.position, NULL), ECS_SCHED_OK);
    assert_true(ecs_sched_owns(s.world, instance, s.position));
    assert_ptr_not_equal(ecs_sched_get(s.world, instance, s.position), ecs_sched_get(s.world, base, s.position));
    assert_true(get_position(&s, instance)->x > 2.5f && get_position(&s, instance)->x < 3.5f);
    assert_true(get_position(&s, instance)->y > 3.5f);
    check_and_destroy(s.world);
}

typedef struct Burning {
    float heat;
    int32_t turns;
} Burning;

static void relating_to_a_base_copies_its_sparse_values(void **state) {
    world_setup s;
    ecs_sched_id burning;
    ecs_sched_entity base, instance;
    Burning b = {2.5f, 7};
    const Burning *copy;
    (void)state;
    setup_world(&s);
    burning = ECS_SCHED_SPARSE_COMPONENT(s.world, Burning);
    base = prefab_with_position(&s, 0.0f, 0.0f);
    assert_int_equal(ecs_sched_insert(s.world, base, burning, &b), ECS_SCHED_OK);
    instance = ecs_sched_spawn(s.world);
    make_instance(&s, instance, base);
    assert_true(ecs_sched_owns(s.world, instance, burning));
    copy = (const Burning *)ecs_sched_get(s.world, instance, burning);
    assert_non_null(copy);
    assert_ptr_not_equal(copy, ecs_sched_get(s.world, base, burning));
    assert_int_equal(copy->turns, 7);
    check_and_destroy(s.world);
}

static void relating_to_a_base_keeps_the_sparse_values_the_instance_owns(void **state) {
    world_setup s;
    ecs_sched_id burning;
    ecs_sched_entity base, instance;
    Burning b = {2.5f, 7}, own = {1.0f, 3};
    (void)state;
    setup_world(&s);
    burning = ECS_SCHED_SPARSE_COMPONENT(s.world, Burning);
    base = prefab_with_position(&s, 0.0f, 0.0f);
    assert_int_equal(ecs_sched_insert(s.world, base, burning, &b), ECS_SCHED_OK);
    instance = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_insert(s.world, instance, burning, &own), ECS_SCHED_OK);
    make_instance(&s, instance, base);
    assert_int_equal(((const Burning *)ecs_sched_get(s.world, instance, burning))->turns, 3);
    check_and_destroy(s.world);
}

static void a_child_of_a_prefab_is_a_prefab_with_its_subtree(void **state) {
    world_setup s;
    ecs_sched_entity ship, turret, barrel;
    ecs_sched_id prefab;
    (void)state;
    setup_world(&s);
    prefab = ecs_sched_prefab_tag(s.world);
    ship = prefab_with_position(&s, 0.0f, 0.0f);
    turret = spawn_position(&s, 1.0f, 0.0f);
    barrel = spawn_position(&s, 1.5f, 0.0f);
    assert_int_equal(ecs_sched_set_parent(s.world, barrel, turret), ECS_SCHED_OK);
    assert_false(ecs_sched_has(s.world, barrel, prefab));
    assert_int_equal(ecs_sched_set_parent(s.world, turret, ship), ECS_SCHED_OK);
    assert_true(ecs_sched_has(s.world, turret, prefab));
    assert_true(ecs_sched_has(s.world, barrel, prefab));
    check_and_destroy(s.world);
}

static void children_of_a_prefab_are_hidden_from_queries_but_instances_get_copies(void **state) {
    world_setup s;
    ship_prefab p;
    ecs_sched_entity ship, turret;
    ecs_sched_query *q;
    (void)state;
    setup_world(&s);
    p.ship = prefab_with_position(&s, 0.0f, 0.0f);
    p.turret = spawn_position(&s, 1.0f, 0.0f);
    assert_int_equal(ecs_sched_set_parent(s.world, p.turret, p.ship), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(s.world, p.turret, "turret"), ECS_SCHED_OK);
    q = query_of(&s, ecs_sched_read(s.position), no_term());
    assert_int_equal(count_rows(q), 0);
    ship = ecs_sched_instantiate(s.world, p.ship);
    turret = ecs_sched_lookup(s.world, ship, "turret");
    assert_true(turret != ECS_SCHED_NULL_ENTITY);
    assert_false(ecs_sched_has(s.world, turret, ecs_sched_prefab_tag(s.world)));
    assert_int_equal(ecs_sched_insert(s.world, ship, s.position, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(s.world, turret, s.position, NULL), ECS_SCHED_OK);
    assert_int_equal(count_rows(q), 2);   /* the instance and its turret, not the prefab's */
    check_and_destroy(s.world);
}

static void an_entity_may_be_an_instance_of_its_own_parent(void **state) {
    world_setup s;
    ecs_sched_entity parent, child, copy, copied_child;
    (void)state;
    setup_world(&s);
    parent = prefab_with_position(&s, 2.0f, 0.0f);
    child = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_set_parent(s.world, child, parent), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(s.world, child, "child"), ECS_SCHED_OK);
    make_instance(&s, child, parent);
    assert_true(ecs_sched_owner(s.world, child, s.position) == parent);
    copy = ecs_sched_instantiate(s.world, parent);
    copied_child = ecs_sched_lookup(s.world, copy, "child");
    assert_true(ecs_sched_has_relation(s.world, copied_child, ecs_sched_is_a(s.world), child));
    assert_true(ecs_sched_owner(s.world, copied_child, s.position) == parent);
    assert_int_equal(ecs_sched_despawn(s.world, copy), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(s.world, parent), ECS_SCHED_OK);   /* takes its instance along */
    assert_false(ecs_sched_is_alive(s.world, child));
    check_and_destroy(s.world);
}

static void a_refused_move_under_a_prefab_leaves_the_subtree_no_prefab(void **state) {
    world_setup s;
    ecs_sched_entity ship, turret, other, barrel;
    ecs_sched_id prefab;
    (void)state;
    setup_world(&s);
    prefab = ecs_sched_prefab_tag(s.world);
    ship = prefab_with_position(&s, 0.0f, 0.0f);
    turret = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_set_parent(s.world, turret, ship), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(s.world, turret, "turret"), ECS_SCHED_OK);
    other = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_set_name(s.world, other, "turret"), ECS_SCHED_OK);
    barrel = spawn_position(&s, 1.0f, 0.0f);
    assert_int_equal(ecs_sched_set_parent(s.world, barrel, other), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(s.world, other, ship), ECS_SCHED_ERR_NAME_CLASH);
    assert_false(ecs_sched_has(s.world, other, prefab));
    assert_false(ecs_sched_has(s.world, barrel, prefab));
    assert_true(get_position(&s, barrel)->x > 0.5f);
    check_and_destroy(s.world);
}


static void auto_override_of_a_relationship_is_refused_it_is_never_inherited(void **state) {
    world_setup s;
    ecs_sched_entity base, parent;
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 1.0f, 1.0f);
    parent = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_set_parent(s.world, base, parent), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_auto_override(s.world, base, ecs_sched_child_of(s.world)),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_failed_with(s.world, &s.log, ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(s.world), "is not inherited"));
    check_and_destroy(s.world);
}

static void auto_override_asked_twice_copies_the_component_once(void **state) {
    world_setup s;
    ecs_sched_entity base, instance;
    Health h = {8};
    (void)state;
    setup_world(&s);
    base = prefab_with_position(&s, 1.0f, 1.0f);
    assert_int_equal(ecs_sched_insert(s.world, base, s.health, &h), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_auto_override(s.world, base, s.health), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_auto_override(s.world, base, s.health), ECS_SCHED_OK);
    instance = ecs_sched_instantiate(s.world, base);
    assert_true(ecs_sched_owns(s.world, instance, s.health));
    assert_int_equal(get_health(&s, instance)->hp, 8);
    check_and_destroy(s.world);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(instance_reads_its_base_value_through_get),
        cmocka_unit_test(has_counts_inherited_components_and_owns_does_not),
        cmocka_unit_test(an_instance_of_a_prefab_is_no_prefab),
        cmocka_unit_test(get_mut_on_an_instance_overrides_with_a_copy_of_the_base_value),
        cmocka_unit_test(insert_on_an_instance_overrides_and_remove_shares_again),
        cmocka_unit_test(get_mut_many_with_a_component_missing_overrides_nothing),
        cmocka_unit_test(a_change_to_the_base_is_seen_by_its_instances),
        cmocka_unit_test(bases_nest_and_the_nearest_base_wins),
        cmocka_unit_test(among_bases_as_near_the_one_made_a_base_first_wins),
        cmocka_unit_test(auto_overrides_are_copied_into_each_new_instance),
        cmocka_unit_test(auto_overrides_of_a_base_of_the_base_are_copied_too),
        cmocka_unit_test(auto_override_of_a_component_the_base_lacks_is_refused),
        cmocka_unit_test(instantiating_a_prefab_makes_its_children_with_names_order_and_bases),
        cmocka_unit_test(instances_of_one_prefab_are_independent),
        cmocka_unit_test(a_read_term_matches_owned_values_only),
        cmocka_unit_test(an_inherited_term_hands_out_one_shared_value_per_table),
        cmocka_unit_test(an_inherited_term_hands_out_owned_values_row_by_row),
        cmocka_unit_test(a_table_whose_base_lost_the_component_is_passed_over),
        cmocka_unit_test(an_inherited_term_is_a_read_for_the_scheduler),
        cmocka_unit_test(parallel_iteration_hands_out_shared_fields_too),
        cmocka_unit_test(a_writer_of_the_base_conflicts_with_a_reader_of_inherited_values),
        cmocka_unit_test(readers_of_owned_values_of_disjoint_entities_stay_apart),
        cmocka_unit_test(inheriting_a_relationship_or_a_hidden_tag_is_refused),
        cmocka_unit_test(an_isa_cycle_is_refused_and_changes_nothing),
        cmocka_unit_test(a_cycle_through_a_second_base_is_refused),
        cmocka_unit_test(a_base_despawned_after_its_instances_leaves_queries_working),
        cmocka_unit_test(marks_cannot_be_recorded_in_commands_either),
        cmocka_unit_test(an_inheriting_query_cannot_be_sorted),
        cmocka_unit_test(an_auto_override_the_prefab_no_longer_has_is_not_copied),
        cmocka_unit_test(a_new_base_copies_only_its_own_auto_overrides),
        cmocka_unit_test(changes_to_a_prefab_between_instantiations_are_followed),
        cmocka_unit_test(despawning_a_base_with_instances_is_refused),
        cmocka_unit_test(unrelating_from_the_base_stops_inheriting),
        cmocka_unit_test(instantiating_a_dead_prefab_fails_and_makes_nothing),
        cmocka_unit_test(instantiation_through_commands_happens_when_applied),
        cmocka_unit_test(unapplied_instantiations_give_their_handles_back),
        cmocka_unit_test(marks_cannot_be_inserted_or_removed_by_hand),
        cmocka_unit_test(a_null_insert_of_an_inherited_component_copies_the_base_value),
        cmocka_unit_test(relating_to_a_base_copies_its_sparse_values),
        cmocka_unit_test(relating_to_a_base_keeps_the_sparse_values_the_instance_owns),
        cmocka_unit_test(a_child_of_a_prefab_is_a_prefab_with_its_subtree),
        cmocka_unit_test(children_of_a_prefab_are_hidden_from_queries_but_instances_get_copies),
        cmocka_unit_test(an_entity_may_be_an_instance_of_its_own_parent),
        cmocka_unit_test(a_refused_move_under_a_prefab_leaves_the_subtree_no_prefab),
        cmocka_unit_test(auto_override_of_a_relationship_is_refused_it_is_never_inherited),
        cmocka_unit_test(auto_override_asked_twice_copies_the_component_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
