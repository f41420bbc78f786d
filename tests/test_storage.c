/* Storage: spawning with values, inserting, overwriting and removing components, values that
   survive archetype moves and the swap-removes of other rows, column alignment, and the
   archetype graph. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <ctype.h>

#include "ecs_sched.h"

#include <cmocka.h>

#include "world_fixture.h"

typedef struct { char c; } Byte;   /* the smallest alignment, next to wider columns */

/* ---- spawning with values ---- */

static void spawn_with_stores_every_given_value(void **state) {
    world_setup s;
    Position p = {1.5f, 2.5f};
    Velocity v = {-3, 4};
    Health h = {77};
    ecs_sched_id ids[3];
    const void *values[3];
    ecs_sched_entity e;
    (void)state;
    setup_world(&s);
    ids[0] = s.position;
    ids[1] = s.velocity;
    ids[2] = s.health;
    values[0] = &p;
    values[1] = &v;
    values[2] = &h;
    e = ecs_sched_spawn_with(s.world, 3, ids, values);
    assert_true(ecs_sched_is_alive(s.world, e));
    assert_true(get_position(&s, e)->x == 1.5f && get_position(&s, e)->y == 2.5f);
    assert_true(get_velocity(&s, e)->x == -3 && get_velocity(&s, e)->y == 4);
    assert_int_equal(get_health(&s, e)->hp, 77);
    assert_false(ecs_sched_has(s.world, e, s.frozen));
    assert_int_equal(ecs_sched_entity_count(s.world), 1);
    check_and_destroy(s.world);
}

static void spawn_with_copies_the_values_it_is_given(void **state) {
    world_setup s;
    Position p = {1, 2};
    ecs_sched_entity e;
    const void *values[1];
    (void)state;
    setup_world(&s);
    values[0] = &p;
    e = ecs_sched_spawn_with(s.world, 1, &s.position, values);
    p.x = 100;
    assert_true(get_position(&s, e)->x == 1);
    check_and_destroy(s.world);
}

static void spawn_with_null_values_zeroes_the_components(void **state) {
    world_setup s;
    Velocity v = {5, 6};
    ecs_sched_id ids[2];
    const void *values[2];
    ecs_sched_entity all_default, one_default;
    (void)state;
    setup_world(&s);
    ids[0] = s.position;
    ids[1] = s.velocity;
    all_default = ecs_sched_spawn_with(s.world, 2, ids, NULL);
    values[0] = NULL;
    values[1] = &v;
    one_default = ecs_sched_spawn_with(s.world, 2, ids, values);
    assert_true(get_position(&s, all_default)->x == 0 && get_position(&s, all_default)->y == 0);
    assert_true(get_velocity(&s, all_default)->x == 0 && get_velocity(&s, all_default)->y == 0);
    assert_true(get_position(&s, one_default)->x == 0 && get_position(&s, one_default)->y == 0);
    assert_true(get_velocity(&s, one_default)->x == 5 && get_velocity(&s, one_default)->y == 6);
    check_and_destroy(s.world);
}

static void spawn_with_no_components_spawns_an_empty_entity(void **state) {
    world_setup s;
    ecs_sched_entity e;
    (void)state;
    setup_world(&s);
    e = ecs_sched_spawn_with(s.world, 0, NULL, NULL);
    assert_true(ecs_sched_is_alive(s.world, e));
    assert_false(ecs_sched_has(s.world, e, s.position));
    check_and_destroy(s.world);
}

static void spawn_batch_gives_each_entity_its_own_values_and_reports_the_handles(void **state) {
    world_setup s;
    enum { N = 100 };
    Position positions[N];
    Health healths[N];
    ecs_sched_entity out[N];
    ecs_sched_id ids[2];
    const void *arrays[2];
    int i, j;
    (void)state;
    setup_world(&s);
    for (i = 0; i < N; i++) {
        positions[i].x = (float)i;
        positions[i].y = (float)(2 * i);
        healths[i].hp = 1000 + i;
    }
    ids[0] = s.position;
    ids[1] = s.health;
    arrays[0] = positions;
    arrays[1] = healths;
    assert_int_equal(ecs_sched_spawn_batch(s.world, N, 2, ids, arrays, out), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_entity_count(s.world), N);
    for (i = 0; i < N; i++) {
        assert_true(ecs_sched_is_alive(s.world, out[i]));
        assert_true(get_position(&s, out[i])->x == (float)i);
        assert_true(get_position(&s, out[i])->y == (float)(2 * i));
        assert_int_equal(get_health(&s, out[i])->hp, 1000 + i);
        for (j = i + 1; j < N; j++) assert_int_not_equal(out[i], out[j]);
    }
    check_and_destroy(s.world);
}

static void spawn_batch_with_a_null_array_zeroes_that_component(void **state) {
    world_setup s;
    Health healths[3] = {{1}, {2}, {3}};
    ecs_sched_entity out[3];
    ecs_sched_id ids[2];
    const void *arrays[2];
    int i;
    (void)state;
    setup_world(&s);
    ids[0] = s.position;
    ids[1] = s.health;
    arrays[0] = NULL;
    arrays[1] = healths;
    assert_int_equal(ecs_sched_spawn_batch(s.world, 3, 2, ids, arrays, out), ECS_SCHED_OK);
    for (i = 0; i < 3; i++) {
        assert_true(get_position(&s, out[i])->x == 0 && get_position(&s, out[i])->y == 0);
        assert_int_equal(get_health(&s, out[i])->hp, i + 1);
    }
    check_and_destroy(s.world);
}

static void spawn_batch_without_out_handles_still_spawns(void **state) {
    world_setup s;
    (void)state;
    setup_world(&s);
    assert_int_equal(ecs_sched_spawn_batch(s.world, 50, 1, &s.position, NULL, NULL),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_entity_count(s.world), 50);
    check_and_destroy(s.world);
}

/* ---- insert, overwrite, remove ---- */

static void insert_adds_a_component_with_its_value(void **state) {
    world_setup s;
    Velocity v = {9, 10};
    ecs_sched_entity e;
    (void)state;
    setup_world(&s);
    e = ecs_sched_spawn(s.world);
    assert_false(ecs_sched_has(s.world, e, s.velocity));
    assert_int_equal(ecs_sched_insert(s.world, e, s.velocity, &v), ECS_SCHED_OK);
    assert_true(ecs_sched_has(s.world, e, s.velocity));
    assert_true(get_velocity(&s, e)->x == 9 && get_velocity(&s, e)->y == 10);
    check_and_destroy(s.world);
}

static void insert_of_a_new_component_without_a_value_zeroes_it(void **state) {
    world_setup s;
    ecs_sched_entity e;
    (void)state;
    setup_world(&s);
    e = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_insert(s.world, e, s.health, NULL), ECS_SCHED_OK);
    assert_int_equal(get_health(&s, e)->hp, 0);
    check_and_destroy(s.world);
}

static void insert_of_a_present_component_overwrites_its_value(void **state) {
    world_setup s;
    Position first = {1, 2}, second = {3, 4};
    Health h = {5};
    ecs_sched_entity e;
    int32_t archetypes;
    (void)state;
    setup_world(&s);
    e = SPAWN(s.world, {s.position, &first}, {s.health, &h});
    archetypes = ecs_sched_archetype_count(s.world);
    assert_int_equal(ecs_sched_insert(s.world, e, s.position, &second), ECS_SCHED_OK);
    assert_true(get_position(&s, e)->x == 3 && get_position(&s, e)->y == 4);
    assert_int_equal(get_health(&s, e)->hp, 5);
    assert_int_equal(ecs_sched_archetype_count(s.world), archetypes);
    check_and_destroy(s.world);
}

static void insert_of_a_present_component_without_a_value_keeps_the_value(void **state) {
    world_setup s;
    Position p = {1, 2};
    ecs_sched_entity e;
    (void)state;
    setup_world(&s);
    e = SPAWN(s.world, {s.position, &p});
    assert_int_equal(ecs_sched_insert(s.world, e, s.position, NULL), ECS_SCHED_OK);
    assert_true(get_position(&s, e)->x == 1 && get_position(&s, e)->y == 2);
    check_and_destroy(s.world);
}

static void insert_many_adds_and_overwrites_in_one_call(void **state) {
    world_setup s;
    Position p0 = {1, 1}, p1 = {2, 2};
    Velocity v = {3, 3};
    Health h = {4};
    ecs_sched_id ids[3];
    const void *values[3];
    ecs_sched_entity e;
    (void)state;
    setup_world(&s);
    e = SPAWN(s.world, {s.position, &p0});
    ids[0] = s.velocity;
    ids[1] = s.position;
    ids[2] = s.health;
    values[0] = &v;
    values[1] = &p1;
    values[2] = &h;
    assert_int_equal(ecs_sched_insert_many(s.world, e, 3, ids, values), ECS_SCHED_OK);
    assert_true(get_position(&s, e)->x == 2);
    assert_true(get_velocity(&s, e)->x == 3);
    assert_int_equal(get_health(&s, e)->hp, 4);
    check_and_destroy(s.world);
}

/* Whichever way a combination is reached, its entities share one table: a query over it
   finds both in the same chunk. */
static void insert_many_and_single_inserts_reach_the_same_archetype(void **state) {
    world_setup s;
    ecs_sched_id ids[3];
    ecs_sched_entity by_many, by_single;
    ecs_sched_query *q;
    ecs_sched_iter it;
    int chunks = 0;
    (void)state;
    setup_world(&s);
    by_many = SPAWN(s.world, {s.position, NULL});
    by_single = SPAWN(s.world, {s.position, NULL});
    ids[0] = s.velocity;
    ids[1] = s.health;
    ids[2] = s.frozen;
    assert_int_equal(ecs_sched_insert_many(s.world, by_many, 3, ids, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(s.world, by_single, s.frozen, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(s.world, by_single, s.health, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(s.world, by_single, s.velocity, NULL), ECS_SCHED_OK);
    q = QUERY(s.world, ecs_sched_read(s.position), ecs_sched_read(s.velocity),
              ecs_sched_read(s.health), ecs_sched_read(s.frozen));
    assert_non_null(q);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        chunks++;
        assert_int_equal(it.count, 2);
        assert_true((it.entities[0] == by_many && it.entities[1] == by_single) ||
                    (it.entities[0] == by_single && it.entities[1] == by_many));
    }
    assert_int_equal(chunks, 1);
    check_and_destroy(s.world);
}

static void insert_many_of_present_components_only_overwrites(void **state) {
    world_setup s;
    Position p0 = {1, 1}, p1 = {7, 8};
    Health h0 = {1}, h1 = {9};
    ecs_sched_id ids[2];
    const void *values[2];
    ecs_sched_entity e;
    int32_t archetypes;
    (void)state;
    setup_world(&s);
    e = SPAWN(s.world, {s.position, &p0}, {s.health, &h0});
    archetypes = ecs_sched_archetype_count(s.world);
    ids[0] = s.position;
    ids[1] = s.health;
    values[0] = &p1;
    values[1] = &h1;
    assert_int_equal(ecs_sched_insert_many(s.world, e, 2, ids, values), ECS_SCHED_OK);
    assert_true(get_position(&s, e)->x == 7 && get_position(&s, e)->y == 8);
    assert_int_equal(get_health(&s, e)->hp, 9);
    assert_int_equal(ecs_sched_archetype_count(s.world), archetypes);
    check_and_destroy(s.world);
}

static void remove_drops_only_that_component(void **state) {
    world_setup s;
    Position p = {1, 2};
    Velocity v = {3, 4};
    Health h = {5};
    ecs_sched_entity e;
    (void)state;
    setup_world(&s);
    e = SPAWN(s.world, {s.position, &p}, {s.velocity, &v}, {s.health, &h});
    assert_int_equal(ecs_sched_remove(s.world, e, s.velocity), ECS_SCHED_OK);
    assert_false(ecs_sched_has(s.world, e, s.velocity));
    assert_true(ecs_sched_has(s.world, e, s.position));
    assert_true(get_position(&s, e)->x == 1 && get_position(&s, e)->y == 2);
    assert_int_equal(get_health(&s, e)->hp, 5);
    assert_true(ecs_sched_is_alive(s.world, e));
    check_and_destroy(s.world);
}

static void removing_the_last_component_keeps_the_entity_alive(void **state) {
    world_setup s;
    ecs_sched_entity e;
    (void)state;
    setup_world(&s);
    e = SPAWN(s.world, {s.health, NULL});
    assert_int_equal(ecs_sched_remove(s.world, e, s.health), ECS_SCHED_OK);
    assert_true(ecs_sched_is_alive(s.world, e));
    assert_false(ecs_sched_has(s.world, e, s.health));
    assert_int_equal(ecs_sched_entity_count(s.world), 1);
    check_and_destroy(s.world);
}

static void remove_of_an_absent_component_leaves_the_entity_as_it_was(void **state) {
    world_setup s;
    Position p = {1, 2};
    ecs_sched_entity e;
    ecs_sched_result r;
    (void)state;
    setup_world(&s);
    e = SPAWN(s.world, {s.position, &p});
    r = ecs_sched_remove(s.world, e, s.velocity);
    assert_true(r == ECS_SCHED_OK || r == ECS_SCHED_ERR_MISSING_COMPONENT);
    assert_true(ecs_sched_has(s.world, e, s.position));
    assert_false(ecs_sched_has(s.world, e, s.velocity));
    assert_true(get_position(&s, e)->x == 1 && get_position(&s, e)->y == 2);
    check_and_destroy(s.world);
}

static void get_of_an_absent_component_is_null_with_nothing_recorded(void **state) {
    world_setup s;
    ecs_sched_entity e, others[12];
    int i, logged;
    (void)state;
    setup_world(&s);
    for (i = 0; i < 12; i++) others[i] = ecs_sched_spawn(s.world);
    e = SPAWN(s.world, {s.position, NULL});
    (void)others;
    logged = s.log.count;
    assert_null(ecs_sched_get(s.world, e, s.velocity));
    assert_null(ecs_sched_get_mut(s.world, e, s.velocity));
    assert_int_equal(ecs_sched_last_result(s.world), ECS_SCHED_OK);
    assert_int_equal(s.log.count, logged);
    check_and_destroy(s.world);
}

static void writes_through_get_mut_are_seen_by_get(void **state) {
    world_setup s;
    ecs_sched_entity e;
    Health *h;
    (void)state;
    setup_world(&s);
    e = SPAWN(s.world, {s.health, NULL});
    h = (Health *)ecs_sched_get_mut(s.world, e, s.health);
    assert_non_null(h);
    h->hp = 42;
    assert_int_equal(get_health(&s, e)->hp, 42);
    check_and_destroy(s.world);
}

/* ---- values survive moves ---- */

static void despawn_keeps_the_moved_entity_readable(void **state) {
    world_setup s;
    Position p[3] = {{1, 1}, {2, 2}, {3, 3}};
    ecs_sched_entity e[3];
    const void *arrays[1];
    (void)state;
    setup_world(&s);
    arrays[0] = p;
    assert_int_equal(ecs_sched_spawn_batch(s.world, 3, 1, &s.position, arrays, e), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(s.world, e[0]), ECS_SCHED_OK);
    assert_true(get_position(&s, e[1])->x == 2);
    assert_true(get_position(&s, e[2])->x == 3);
    assert_int_equal(ecs_sched_despawn(s.world, e[2]), ECS_SCHED_OK);
    assert_true(get_position(&s, e[1])->x == 2);
    check_and_destroy(s.world);
}

static void values_survive_despawns_in_the_middle_of_a_table(void **state) {
    world_setup s;
    enum { N = 300 };
    ecs_sched_entity e[N];
    ecs_sched_id byte;
    int i;
    (void)state;
    setup_world(&s);
    byte = ECS_SCHED_COMPONENT(s.world, Byte);
    for (i = 0; i < N; i++) {
        Position p;
        Health h;
        Byte b;
        p.x = (float)i;
        p.y = (float)-i;
        h.hp = i * 3;
        b.c = (char)(i % 100);
        e[i] = SPAWN(s.world, {s.position, &p}, {s.health, &h}, {byte, &b});
    }
    for (i = 1; i < N; i += 3) assert_int_equal(ecs_sched_despawn(s.world, e[i]), ECS_SCHED_OK);
    for (i = 0; i < N; i++) {
        if (i % 3 == 1) {
            assert_false(ecs_sched_is_alive(s.world, e[i]));
            continue;
        }
        assert_true(get_position(&s, e[i])->x == (float)i);
        assert_true(get_position(&s, e[i])->y == (float)-i);
        assert_int_equal(get_health(&s, e[i])->hp, i * 3);
        assert_int_equal(((const Byte *)ecs_sched_get(s.world, e[i], byte))->c, i % 100);
    }
    assert_int_equal(ecs_sched_entity_count(s.world), N - N / 3);
    check_and_destroy(s.world);
}

static void values_survive_archetype_moves_of_the_entity_and_its_neighbours(void **state) {
    world_setup s;
    enum { N = 120 };
    ecs_sched_entity e[N];
    int i;
    (void)state;
    setup_world(&s);
    for (i = 0; i < N; i++) {
        Position p;
        Health h;
        p.x = (float)i;
        p.y = (float)(i + 1);
        h.hp = i;
        e[i] = SPAWN(s.world, {s.position, &p}, {s.health, &h});
    }
    /* every second entity gains Velocity, every third gains Frozen, every fifth loses Health */
    for (i = 0; i < N; i += 2) {
        Velocity v;
        v.x = (float)(10 * i);
        v.y = 0;
        assert_int_equal(ecs_sched_insert(s.world, e[i], s.velocity, &v), ECS_SCHED_OK);
    }
    for (i = 0; i < N; i += 3)
        assert_int_equal(ecs_sched_insert(s.world, e[i], s.frozen, NULL), ECS_SCHED_OK);
    for (i = 0; i < N; i += 5)
        assert_int_equal(ecs_sched_remove(s.world, e[i], s.health), ECS_SCHED_OK);
    for (i = 0; i < N; i++) {
        assert_true(get_position(&s, e[i])->x == (float)i);
        assert_true(get_position(&s, e[i])->y == (float)(i + 1));
        assert_true(ecs_sched_has(s.world, e[i], s.velocity) == (i % 2 == 0));
        assert_true(ecs_sched_has(s.world, e[i], s.frozen) == (i % 3 == 0));
        assert_true(ecs_sched_has(s.world, e[i], s.health) == (i % 5 != 0));
        if (i % 2 == 0) assert_true(get_velocity(&s, e[i])->x == (float)(10 * i));
        if (i % 5 != 0) assert_int_equal(get_health(&s, e[i])->hp, i);
    }
    check_and_destroy(s.world);
}

static void reused_slots_never_show_old_values(void **state) {
    world_setup s;
    Health h = {123};
    ecs_sched_entity a, b;
    (void)state;
    setup_world(&s);
    a = SPAWN(s.world, {s.health, &h});
    assert_int_equal(ecs_sched_despawn(s.world, a), ECS_SCHED_OK);
    b = SPAWN(s.world, {s.health, NULL});
    assert_int_equal(get_health(&s, b)->hp, 0);
    check_and_destroy(s.world);
}

/* ---- alignment ---- */

static void columns_honour_32_and_64_byte_alignment_across_growth(void **state) {
    world_setup s;
    enum { N = 1000 };
    ecs_sched_id byte, a32, a64;
    ecs_sched_entity e[N];
    ecs_sched_query *q;
    ecs_sched_iter it;
    int i;
    (void)state;
    setup_world(&s);
    byte = ECS_SCHED_COMPONENT(s.world, Byte);
    a32 = ecs_sched_component_register_type(s.world, "Aligned32", 32, 32);
    a64 = ecs_sched_component_register_type(s.world, "Aligned64", 64, 64);
    assert_true(a32 != 0 && a64 != 0);
    for (i = 0; i < N; i++) {
        unsigned char v32[32], v64[64];
        const unsigned char *p32, *p64;
        memset(v32, i & 0xff, sizeof v32);
        memset(v64, (i * 7) & 0xff, sizeof v64);
        e[i] = SPAWN(s.world, {byte, NULL}, {a32, v32}, {a64, v64});
        /* a fresh table, and tables of every size the columns grow through */
        p32 = (const unsigned char *)ecs_sched_get(s.world, e[i], a32);
        p64 = (const unsigned char *)ecs_sched_get(s.world, e[i], a64);
        assert_int_equal((uintptr_t)p32 % 32, 0);
        assert_int_equal((uintptr_t)p64 % 64, 0);
    }
    for (i = 0; i < N; i++) {
        const unsigned char *p32 = (const unsigned char *)ecs_sched_get(s.world, e[i], a32);
        const unsigned char *p64 = (const unsigned char *)ecs_sched_get(s.world, e[i], a64);
        assert_int_equal((uintptr_t)p32 % 32, 0);
        assert_int_equal((uintptr_t)p64 % 64, 0);
        assert_int_equal(p32[0], i & 0xff);
        assert_int_equal(p32[31], i & 0xff);
        assert_int_equal(p64[63], (i * 7) & 0xff);
    }
    /* moved to another table */
    for (i = 0; i < N; i += 7) {
        const unsigned char *p64;
        assert_int_equal(ecs_sched_remove(s.world, e[i], byte), ECS_SCHED_OK);
        p64 = (const unsigned char *)ecs_sched_get(s.world, e[i], a64);
        assert_int_equal((uintptr_t)p64 % 64, 0);
        assert_int_equal(p64[0], (i * 7) & 0xff);
    }
    q = QUERY(s.world, ecs_sched_read(a32), ecs_sched_read(a64));
    assert_non_null(q);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        assert_int_equal((uintptr_t)it.fields[0] % 32, 0);
        assert_int_equal((uintptr_t)it.fields[1] % 64, 0);
    }
    check_and_destroy(s.world);
}

static void default_alignment_follows_the_size(void **state) {
    world_setup s;
    ecs_sched_id s16, s48, s64, s12;
    ecs_sched_entity e[50];
    ecs_sched_id ids[5];
    int i;
    (void)state;
    setup_world(&s);
    ids[0] = ECS_SCHED_COMPONENT(s.world, Byte);
    s16 = ecs_sched_component_register_type(s.world, "Size16", 16, 0);
    s48 = ecs_sched_component_register_type(s.world, "Size48", 48, 0);
    s64 = ecs_sched_component_register_type(s.world, "Size64", 64, 0);
    s12 = ecs_sched_component_register_type(s.world, "Size12", 12, 0);
    ids[1] = s16;
    ids[2] = s48;
    ids[3] = s64;
    ids[4] = s12;
    for (i = 0; i < 50; i++) e[i] = ecs_sched_spawn_with(s.world, 5, ids, NULL);
    for (i = 0; i < 50; i++) {
        assert_int_equal((uintptr_t)ecs_sched_get(s.world, e[i], s16) % 16, 0);
        assert_int_equal((uintptr_t)ecs_sched_get(s.world, e[i], s48) % 16, 0);
        assert_int_equal((uintptr_t)ecs_sched_get(s.world, e[i], s64) % 16, 0);
        assert_int_equal((uintptr_t)ecs_sched_get(s.world, e[i], s12) % 4, 0);
    }
    check_and_destroy(s.world);
}

/* ---- archetypes ---- */

/* A combination never seen before adds an archetype; one seen before does not. */
static void archetype_count_grows_only_for_new_combinations(void **state) {
    world_setup s;
    int32_t count;
    ecs_sched_id ids[2];
    (void)state;
    setup_world(&s);
    count = ecs_sched_archetype_count(s.world);
    ecs_sched_spawn_with(s.world, 1, &s.position, NULL);
    assert_true(ecs_sched_archetype_count(s.world) > count);
    count = ecs_sched_archetype_count(s.world);
    ecs_sched_spawn_with(s.world, 1, &s.position, NULL);
    assert_int_equal(ecs_sched_archetype_count(s.world), count);
    ids[0] = s.position;
    ids[1] = s.velocity;
    ecs_sched_spawn_with(s.world, 2, ids, NULL);
    assert_true(ecs_sched_archetype_count(s.world) > count);
    count = ecs_sched_archetype_count(s.world);
    ecs_sched_spawn_with(s.world, 2, ids, NULL);
    ecs_sched_spawn_with(s.world, 2, ids, NULL);
    assert_int_equal(ecs_sched_archetype_count(s.world), count);
    ecs_sched_spawn_with(s.world, 1, &s.health, NULL);
    assert_true(ecs_sched_archetype_count(s.world) > count);
    count = ecs_sched_archetype_count(s.world);
    ecs_sched_spawn_with(s.world, 1, &s.frozen, NULL);
    assert_true(ecs_sched_archetype_count(s.world) > count);
    count = ecs_sched_archetype_count(s.world);
    ecs_sched_spawn_with(s.world, 1, &s.frozen, NULL);
    ecs_sched_spawn_with(s.world, 1, &s.health, NULL);
    ecs_sched_spawn_with(s.world, 1, &s.position, NULL);
    assert_int_equal(ecs_sched_archetype_count(s.world), count);
    check_and_destroy(s.world);
}

static void adding_and_removing_a_component_returns_to_the_same_archetype(void **state) {
    world_setup s;
    ecs_sched_entity e;
    int32_t with_both;
    int round;
    (void)state;
    setup_world(&s);
    e = SPAWN(s.world, {s.position, NULL});
    assert_int_equal(ecs_sched_insert(s.world, e, s.velocity, NULL), ECS_SCHED_OK);
    with_both = ecs_sched_archetype_count(s.world);
    for (round = 0; round < 5; round++) {
        assert_int_equal(ecs_sched_remove(s.world, e, s.velocity), ECS_SCHED_OK);
        assert_int_equal(ecs_sched_archetype_count(s.world), with_both);
        assert_int_equal(ecs_sched_insert(s.world, e, s.velocity, NULL), ECS_SCHED_OK);
        assert_int_equal(ecs_sched_archetype_count(s.world), with_both);
    }
    check_and_destroy(s.world);
}

static void the_order_components_are_added_in_does_not_make_a_new_archetype(void **state) {
    world_setup s;
    ecs_sched_entity a, b;
    int32_t after_a;
    (void)state;
    setup_world(&s);
    a = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_insert(s.world, a, s.position, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(s.world, a, s.velocity, NULL), ECS_SCHED_OK);
    after_a = ecs_sched_archetype_count(s.world);
    b = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_insert(s.world, b, s.velocity, NULL), ECS_SCHED_OK);
    assert_true(ecs_sched_archetype_count(s.world) > after_a); /* {Velocity} alone is new */
    after_a = ecs_sched_archetype_count(s.world);
    assert_int_equal(ecs_sched_insert(s.world, b, s.position, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_archetype_count(s.world), after_a);
    check_and_destroy(s.world);
}

static void failed_operations_create_no_archetype(void **state) {
    world_setup s;
    ecs_sched_entity e, dead;
    int32_t before;
    (void)state;
    setup_world(&s);
    e = SPAWN(s.world, {s.position, NULL});
    dead = ecs_sched_spawn(s.world);
    ecs_sched_despawn(s.world, dead);
    before = ecs_sched_archetype_count(s.world);
    assert_int_equal(ecs_sched_insert(s.world, dead, s.velocity, NULL), ECS_SCHED_ERR_STALE_ENTITY);
    assert_int_equal(ecs_sched_insert(s.world, e, 9999, NULL), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_int_equal(ecs_sched_archetype_count(s.world), before);
    check_and_destroy(s.world);
}

/* ---- many components: each archetype step and each question about an id ---- */

#define MANY 40

/* Registers MANY components named C0, C1...: the even ones hold a float, the odd ones are
   tags. Their ids are consecutive, so some differ by 32 and by every smaller power of two. */
static void register_many(ecs_sched_world *w, ecs_sched_id *ids) {
    char name[16];
    int k;
    for (k = 0; k < MANY; k++) {
        snprintf(name, sizeof name, "C%d", k);
        ids[k] = ecs_sched_component_register_type(w, name, k % 2 == 0 ? sizeof(float) : 0,
                                                   k % 2 == 0 ? sizeof(float) : 0);
        assert_int_not_equal(ids[k], 0);
        if (k > 0) assert_int_equal(ids[k], ids[k - 1] + 1);
    }
}

/* e holds exactly the components `held` marks among ids, each float one with value k. */
static void assert_holds_exactly(ecs_sched_world *w, ecs_sched_entity e, const ecs_sched_id *ids,
                                 const bool *held) {
    int k;
    for (k = 0; k < MANY; k++) {
        assert_int_equal(ecs_sched_has(w, e, ids[k]), held[k]);
        if (k % 2 == 0) {
            const float *value = (const float *)ecs_sched_get(w, e, ids[k]);
            if (held[k]) {
                assert_non_null(value);
                assert_true(*value == (float)k);
            } else {
                assert_null(value);
            }
        }
    }
}

static ecs_sched_result insert_numbered(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id,
                                        int k) {
    float value = (float)k;
    return ecs_sched_insert(w, e, id, k % 2 == 0 ? &value : NULL);
}

static void gaining_and_losing_each_of_many_components_in_turn_keeps_exactly_what_was_given(
    void **state) {
    world_setup s;
    ecs_sched_id ids[MANY];
    bool held[MANY];
    ecs_sched_entity e, neighbour;
    Position p = {3, 4};
    int k;
    (void)state;
    setup_world(&s);
    register_many(s.world, ids);
    memset(held, 0, sizeof held);
    e = SPAWN(s.world, {s.position, &p});
    neighbour = SPAWN(s.world, {s.position, &p});
    for (k = 0; k < MANY; k++) {   /* one at a time, each step a way out of the same table */
        assert_int_equal(insert_numbered(s.world, e, ids[k], k), ECS_SCHED_OK);
        held[k] = true;
        assert_holds_exactly(s.world, e, ids, held);
        assert_int_equal(ecs_sched_remove(s.world, e, ids[k]), ECS_SCHED_OK);
        held[k] = false;
        assert_holds_exactly(s.world, e, ids, held);
    }
    for (k = 0; k < MANY; k++) {   /* all of them, then all gone in the other order */
        assert_int_equal(insert_numbered(s.world, e, ids[k], k), ECS_SCHED_OK);
        held[k] = true;
        assert_holds_exactly(s.world, e, ids, held);
    }
    for (k = MANY - 1; k >= 0; k--) {
        assert_int_equal(ecs_sched_remove(s.world, e, ids[k]), ECS_SCHED_OK);
        held[k] = false;
        assert_holds_exactly(s.world, e, ids, held);
    }
    assert_true(get_position(&s, e)->x == 3 && get_position(&s, e)->y == 4);
    assert_true(get_position(&s, neighbour)->x == 3 && get_position(&s, neighbour)->y == 4);
    assert_holds_exactly(s.world, neighbour, ids, held);
    check_and_destroy(s.world);
}

static void has_tells_apart_components_whose_ids_differ_by_32(void **state) {
    world_setup s;
    ecs_sched_id ids[MANY];
    bool held[MANY];
    ecs_sched_entity low, high;
    int32_t archetypes;
    int k;
    (void)state;
    setup_world(&s);
    register_many(s.world, ids);
    memset(held, 0, sizeof held);
    low = ecs_sched_spawn(s.world);
    high = ecs_sched_spawn(s.world);
    for (k = 0; k < 8; k++) {   /* low holds C0..C7, high C32..C39 */
        assert_int_equal(insert_numbered(s.world, low, ids[k], k), ECS_SCHED_OK);
        assert_int_equal(insert_numbered(s.world, high, ids[k + 32], k + 32), ECS_SCHED_OK);
        held[k] = true;
    }
    assert_holds_exactly(s.world, low, ids, held);
    archetypes = ecs_sched_archetype_count(s.world);
    for (k = 32; k < 40; k++) {   /* removing what low lacks changes nothing */
        assert_int_equal(ecs_sched_remove(s.world, low, ids[k]), ECS_SCHED_OK);
    }
    assert_holds_exactly(s.world, low, ids, held);
    assert_int_equal(ecs_sched_archetype_count(s.world), archetypes);
    for (k = 0; k < 8; k++) {
        held[k] = false;
        held[k + 32] = true;
    }
    assert_holds_exactly(s.world, high, ids, held);
    check_and_destroy(s.world);
}

/* Ids past the first few thousand: a table whose components have such ids has no map from id
   to column, and a table with a map is asked about ids past its end. */
static void components_with_ids_in_the_thousands_are_stored_found_and_removed(void **state) {
    world_setup s;
    ecs_sched_id low, high = 0;
    ecs_sched_entity e, other;
    float value = 5.0f, bigger = 6.0f;
    char name[16];
    int k;
    (void)state;
    setup_world(&s);
    low = ecs_sched_component_register_type(s.world, "Low", sizeof(float), sizeof(float));
    for (k = 0; k < 5000; k++) {
        snprintf(name, sizeof name, "Filler%d", k);
        high = ecs_sched_component_register_type(s.world, name, sizeof(float), sizeof(float));
        assert_int_not_equal(high, 0);
    }
    assert_true(high > 5000);
    e = SPAWN(s.world, {low, &value});
    other = SPAWN(s.world, {low, &value});
    assert_false(ecs_sched_has(s.world, e, high));
    assert_null(ecs_sched_get(s.world, e, high));
    assert_int_equal(ecs_sched_insert(s.world, e, high, &bigger), ECS_SCHED_OK);
    assert_true(ecs_sched_has(s.world, e, high));
    assert_true(*(const float *)get_present(s.world, e, high) == 6.0f);
    assert_true(*(float *)ecs_sched_get_mut(s.world, e, low) == 5.0f);
    assert_int_equal(ecs_sched_remove(s.world, e, low), ECS_SCHED_OK);
    assert_false(ecs_sched_has(s.world, e, low));
    assert_true(*(float *)ecs_sched_get_mut(s.world, e, high) == 6.0f);
    assert_int_equal(ecs_sched_remove(s.world, e, high), ECS_SCHED_OK);
    assert_false(ecs_sched_has(s.world, e, high));
    assert_true(*(const float *)get_present(s.world, other, low) == 5.0f);
    check_and_destroy(s.world);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spawn_with_stores_every_given_value),
        cmocka_unit_test(spawn_with_copies_the_values_it_is_given),
        cmocka_unit_test(spawn_with_null_values_zeroes_the_components),
        cmocka_unit_test(spawn_with_no_components_spawns_an_empty_entity),
        cmocka_unit_test(spawn_batch_gives_each_entity_its_own_values_and_reports_the_handles),
        cmocka_unit_test(spawn_batch_with_a_null_array_zeroes_that_component),
        cmocka_unit_test(spawn_batch_without_out_handles_still_spawns),
        cmocka_unit_test(insert_adds_a_component_with_its_value),
        cmocka_unit_test(insert_of_a_new_component_without_a_value_zeroes_it),
        cmocka_unit_test(insert_of_a_present_component_overwrites_its_value),
        cmocka_unit_test(insert_of_a_present_component_without_a_value_keeps_the_value),
        cmocka_unit_test(insert_many_adds_and_overwrites_in_one_call),
        cmocka_unit_test(insert_many_and_single_inserts_reach_the_same_archetype),
        cmocka_unit_test(insert_many_of_present_components_only_overwrites),
        cmocka_unit_test(remove_drops_only_that_component),
        cmocka_unit_test(removing_the_last_component_keeps_the_entity_alive),
        cmocka_unit_test(remove_of_an_absent_component_leaves_the_entity_as_it_was),
        cmocka_unit_test(get_of_an_absent_component_is_null_with_nothing_recorded),
        cmocka_unit_test(writes_through_get_mut_are_seen_by_get),
        cmocka_unit_test(despawn_keeps_the_moved_entity_readable),
        cmocka_unit_test(values_survive_despawns_in_the_middle_of_a_table),
        cmocka_unit_test(values_survive_archetype_moves_of_the_entity_and_its_neighbours),
        cmocka_unit_test(reused_slots_never_show_old_values),
        cmocka_unit_test(columns_honour_32_and_64_byte_alignment_across_growth),
        cmocka_unit_test(default_alignment_follows_the_size),
        cmocka_unit_test(archetype_count_grows_only_for_new_combinations),
        cmocka_unit_test(adding_and_removing_a_component_returns_to_the_same_archetype),
        cmocka_unit_test(the_order_components_are_added_in_does_not_make_a_new_archetype),
        cmocka_unit_test(failed_operations_create_no_archetype),
        cmocka_unit_test(gaining_and_losing_each_of_many_components_in_turn_keeps_exactly_what_was_given),
        cmocka_unit_test(has_tells_apart_components_whose_ids_differ_by_32),
        cmocka_unit_test(components_with_ids_in_the_thousands_are_stored_found_and_removed),
    };
    return cmocka_run_group_tests_name("storage", tests, NULL, NULL);
}
