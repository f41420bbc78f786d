/* Command buffers: structural changes recorded now and applied later, in recorded order;
   commands aimed at entities that are dead by then are skipped; nothing is applied twice. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ecs_sched.h"

#include <cmocka.h>

#include "world_fixture.h"

/* A world_setup with a command buffer in s->cmd. */
static void setup_world_and_buffer(world_setup *s) {
    setup_world(s);
    s->cmd = new_commands(s->world);
}

static Health health(int hp) {
    Health h;
    h.hp = hp;
    return h;
}

/* ---- spawn ---- */

static void spawned_entity_comes_alive_only_when_applied(void **state) {
    world_setup s;
    ecs_sched_entity e;
    (void)state;
    setup_world_and_buffer(&s);
    e = ecs_sched_commands_spawn(s.cmd);
    assert_int_not_equal(e, ECS_SCHED_NULL_ENTITY);
    assert_false(ecs_sched_is_alive(s.world, e));
    assert_int_equal(ecs_sched_entity_count(s.world), 0);
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_true(ecs_sched_is_alive(s.world, e));
    assert_int_equal(ecs_sched_entity_count(s.world), 1);
    check_and_destroy(s.world);
}

static void reserved_handles_differ_from_live_and_from_each_other(void **state) {
    world_setup s;
    ecs_sched_entity live, r1, r2, direct;
    (void)state;
    setup_world_and_buffer(&s);
    live = ecs_sched_spawn(s.world);
    r1 = ecs_sched_commands_spawn(s.cmd);
    r2 = ecs_sched_commands_spawn(s.cmd);
    direct = ecs_sched_spawn(s.world);
    assert_true(r1 != live && r2 != live && r1 != r2 && direct != r1 && direct != r2);
    assert_int_not_equal(ECS_SCHED_ENTITY_INDEX(direct), ECS_SCHED_ENTITY_INDEX(r1));
    assert_int_not_equal(ECS_SCHED_ENTITY_INDEX(direct), ECS_SCHED_ENTITY_INDEX(r2));
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_true(ecs_sched_is_alive(s.world, r1) && ecs_sched_is_alive(s.world, r2));
    assert_true(ecs_sched_is_alive(s.world, live) && ecs_sched_is_alive(s.world, direct));
    assert_int_equal(ecs_sched_entity_count(s.world), 4);
    check_and_destroy(s.world);
}

static void reserved_handle_cannot_be_used_directly_before_apply(void **state) {
    world_setup s;
    ecs_sched_entity e;
    Health h = health(3);
    (void)state;
    setup_world_and_buffer(&s);
    e = ecs_sched_commands_spawn(s.cmd);
    assert_int_not_equal(ecs_sched_insert(s.world, e, s.health, &h), ECS_SCHED_OK);
    assert_null(ecs_sched_get(s.world, e, s.health));
    assert_false(ecs_sched_is_alive(s.world, e));
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_true(ecs_sched_is_alive(s.world, e));
    assert_false(ecs_sched_has(s.world, e, s.health));
    check_and_destroy(s.world);
}

static void later_commands_on_a_spawned_handle_apply(void **state) {
    world_setup s;
    ecs_sched_entity e;
    Health h = health(50);
    Position p = {1, 2};
    (void)state;
    setup_world_and_buffer(&s);
    e = ecs_sched_commands_spawn(s.cmd);
    assert_int_equal(ecs_sched_commands_insert(s.cmd, e, s.health, &h), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_insert(s.cmd, e, s.position, &p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_insert(s.cmd, e, s.frozen, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_remove(s.cmd, e, s.position), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_int_equal(get_health(&s, e)->hp, 50);
    assert_true(ecs_sched_has(s.world, e, s.frozen));
    assert_false(ecs_sched_has(s.world, e, s.position));
    assert_int_equal(ecs_sched_commands_skipped(s.cmd), 0);
    check_and_destroy(s.world);
}

static void entity_spawned_and_despawned_in_one_buffer_never_lives(void **state) {
    world_setup s;
    ecs_sched_entity e;
    (void)state;
    setup_world_and_buffer(&s);
    e = ecs_sched_commands_spawn(s.cmd);
    assert_int_equal(ecs_sched_commands_insert(s.cmd, e, s.health, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_despawn(s.cmd, e), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_false(ecs_sched_is_alive(s.world, e));
    assert_int_equal(ecs_sched_entity_count(s.world), 0);
    check_and_destroy(s.world);
}

/* ---- recorded order ---- */

static void insert_then_remove_leaves_the_component_absent(void **state) {
    world_setup s;
    ecs_sched_entity e;
    Health h = health(1);
    (void)state;
    setup_world_and_buffer(&s);
    e = ecs_sched_spawn(s.world);
    ecs_sched_commands_insert(s.cmd, e, s.health, &h);
    ecs_sched_commands_remove(s.cmd, e, s.health);
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_false(ecs_sched_has(s.world, e, s.health));
    check_and_destroy(s.world);
}

static void remove_then_insert_leaves_the_component_present(void **state) {
    world_setup s;
    ecs_sched_entity e;
    Health h = health(1), again = health(2);
    (void)state;
    setup_world_and_buffer(&s);
    e = SPAWN(s.world, {s.health, &h});
    ecs_sched_commands_remove(s.cmd, e, s.health);
    ecs_sched_commands_insert(s.cmd, e, s.health, &again);
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_true(ecs_sched_has(s.world, e, s.health));
    assert_int_equal(get_health(&s, e)->hp, 2);
    check_and_destroy(s.world);
}

static void of_two_inserts_the_last_value_wins(void **state) {
    world_setup s;
    ecs_sched_entity e;
    Health first = health(10), second = health(20);
    (void)state;
    setup_world_and_buffer(&s);
    e = ecs_sched_spawn(s.world);
    ecs_sched_commands_insert(s.cmd, e, s.health, &first);
    ecs_sched_commands_insert(s.cmd, e, s.health, &second);
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_int_equal(get_health(&s, e)->hp, 20);
    check_and_destroy(s.world);
}

static void recorded_value_is_the_one_at_recording_time(void **state) {
    world_setup s;
    ecs_sched_entity e;
    Health h = health(10);
    (void)state;
    setup_world_and_buffer(&s);
    e = ecs_sched_spawn(s.world);
    ecs_sched_commands_insert(s.cmd, e, s.health, &h);
    h.hp = 99;
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_int_equal(get_health(&s, e)->hp, 10);
    check_and_destroy(s.world);
}

static void nothing_changes_before_apply(void **state) {
    world_setup s;
    ecs_sched_entity e, victim;
    Health h = health(10);
    Score sc = {3};
    (void)state;
    setup_world_and_buffer(&s);
    e = ecs_sched_spawn(s.world);
    victim = ecs_sched_spawn(s.world);
    ecs_sched_commands_insert(s.cmd, e, s.health, &h);
    ecs_sched_commands_despawn(s.cmd, victim);
    ecs_sched_commands_set_resource(s.cmd, s.score, &sc);
    assert_false(ecs_sched_has(s.world, e, s.health));
    assert_true(ecs_sched_is_alive(s.world, victim));
    assert_false(ecs_sched_resource_exists(s.world, s.score));
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_int_equal(get_health(&s, e)->hp, 10);
    assert_false(ecs_sched_is_alive(s.world, victim));
    assert_true(ecs_sched_resource_exists(s.world, s.score));
    check_and_destroy(s.world);
}

static void commands_across_entities_apply_in_recorded_order(void **state) {
    world_setup s;
    ecs_sched_entity a, b, c;
    Health ha = health(1), hb = health(2);
    (void)state;
    setup_world_and_buffer(&s);
    a = ecs_sched_spawn(s.world);
    b = ecs_sched_spawn(s.world);
    ecs_sched_commands_insert(s.cmd, a, s.health, &ha);
    c = ecs_sched_commands_spawn(s.cmd);
    ecs_sched_commands_despawn(s.cmd, a);
    ecs_sched_commands_insert(s.cmd, b, s.health, &hb);
    ecs_sched_commands_insert(s.cmd, c, s.health, &ha);
    ecs_sched_commands_remove(s.cmd, b, s.health);
    ecs_sched_commands_insert(s.cmd, b, s.frozen, NULL);
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_false(ecs_sched_is_alive(s.world, a));
    assert_false(ecs_sched_has(s.world, b, s.health));
    assert_true(ecs_sched_has(s.world, b, s.frozen));
    assert_int_equal(get_health(&s, c)->hp, 1);
    assert_int_equal(ecs_sched_commands_skipped(s.cmd), 0);
    check_and_destroy(s.world);
}

/* ---- dead targets ---- */

static void insert_after_despawn_in_one_buffer_is_skipped(void **state) {
    world_setup s;
    ecs_sched_entity e, other;
    Health h = health(5);
    (void)state;
    setup_world_and_buffer(&s);
    e = ecs_sched_spawn(s.world);
    other = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_commands_despawn(s.cmd, e), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_insert(s.cmd, e, s.health, &h), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_insert(s.cmd, other, s.health, &h), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_skipped(s.cmd), 1);
    assert_false(ecs_sched_is_alive(s.world, e));
    assert_int_equal(get_health(&s, other)->hp, 5);
    assert_int_equal(ecs_sched_entity_count(s.world), 1);
    check_and_destroy(s.world);
}

static void skipped_insert_does_not_touch_the_entity_that_reuses_the_index(void **state) {
    world_setup s;
    ecs_sched_entity e, newcomer;
    Health h = health(5);
    (void)state;
    setup_world_and_buffer(&s);
    e = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_commands_insert(s.cmd, e, s.health, &h), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_remove(s.cmd, e, s.frozen), ECS_SCHED_OK);
    ecs_sched_despawn(s.world, e);
    newcomer = SPAWN(s.world, {s.frozen, NULL});
    assert_int_equal(ECS_SCHED_ENTITY_INDEX(newcomer), ECS_SCHED_ENTITY_INDEX(e));
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_skipped(s.cmd), 2);
    assert_false(ecs_sched_has(s.world, newcomer, s.health));
    assert_true(ecs_sched_has(s.world, newcomer, s.frozen));
    check_and_destroy(s.world);
}

static void commands_on_an_entity_despawned_before_apply_are_skipped(void **state) {
    world_setup s;
    ecs_sched_entity e, kept;
    Health h = health(5);
    (void)state;
    setup_world_and_buffer(&s);
    e = ecs_sched_spawn(s.world);
    kept = ecs_sched_spawn(s.world);
    ecs_sched_commands_insert(s.cmd, e, s.health, &h);
    ecs_sched_commands_remove(s.cmd, e, s.health);
    ecs_sched_commands_despawn(s.cmd, e);
    ecs_sched_commands_insert(s.cmd, kept, s.health, &h);
    assert_int_equal(ecs_sched_despawn(s.world, e), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_skipped(s.cmd), 3);
    assert_int_equal(get_health(&s, kept)->hp, 5);
    assert_int_equal(ecs_sched_entity_count(s.world), 1);
    check_and_destroy(s.world);
}

/* ---- resources ---- */

static void set_resource_creates_the_resource_on_apply(void **state) {
    world_setup s;
    Score sc = {7};
    (void)state;
    setup_world_and_buffer(&s);
    assert_int_equal(ecs_sched_commands_set_resource(s.cmd, s.score, &sc), ECS_SCHED_OK);
    sc.value = 100;
    assert_false(ecs_sched_resource_exists(s.world, s.score));
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_int_equal(((const Score *)ecs_sched_resource_get(s.world, s.score))->value, 7);
    check_and_destroy(s.world);
}

static void set_resource_overwrites_in_recorded_order(void **state) {
    world_setup s;
    Score first = {1}, second = {2}, initial = {0};
    (void)state;
    setup_world_and_buffer(&s);
    ecs_sched_resource_insert(s.world, s.score, &initial);
    ecs_sched_commands_set_resource(s.cmd, s.score, &first);
    ecs_sched_commands_set_resource(s.cmd, s.score, &second);
    assert_int_equal(((const Score *)ecs_sched_resource_get(s.world, s.score))->value, 0);
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_int_equal(((const Score *)ecs_sched_resource_get(s.world, s.score))->value, 2);
    check_and_destroy(s.world);
}

/* ---- pending, apply twice, destroy ---- */

static void pending_counts_recorded_commands_until_applied(void **state) {
    world_setup s;
    ecs_sched_entity e;
    Health h = health(1);
    Score sc = {1};
    (void)state;
    setup_world_and_buffer(&s);
    e = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_commands_pending(s.cmd), 0);
    ecs_sched_commands_insert(s.cmd, e, s.health, &h);
    ecs_sched_commands_remove(s.cmd, e, s.frozen);
    ecs_sched_commands_set_resource(s.cmd, s.score, &sc);
    ecs_sched_commands_despawn(s.cmd, e);
    assert_int_equal(ecs_sched_commands_pending(s.cmd), 4);
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_pending(s.cmd), 0);
    check_and_destroy(s.world);
}

static void applying_twice_changes_nothing_the_second_time(void **state) {
    world_setup s;
    ecs_sched_entity e, spawned, victim;
    Health h = health(1);
    Score sc = {1};
    int32_t entities, archetypes;
    (void)state;
    setup_world_and_buffer(&s);
    e = ecs_sched_spawn(s.world);
    victim = ecs_sched_spawn(s.world);
    spawned = ecs_sched_commands_spawn(s.cmd);
    ecs_sched_commands_insert(s.cmd, e, s.health, &h);
    ecs_sched_commands_insert(s.cmd, spawned, s.health, &h);
    ecs_sched_commands_despawn(s.cmd, victim);
    ecs_sched_commands_set_resource(s.cmd, s.score, &sc);
    ecs_sched_commands_despawn(s.cmd, victim); /* dead by then: skipped */
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_skipped(s.cmd), 1);
    assert_int_equal(ecs_sched_commands_pending(s.cmd), 0);
    /* the world moves on between the two applies */
    ((Health *)ecs_sched_get_mut(s.world, e, s.health))->hp = 42;
    ((Score *)ecs_sched_resource_get_mut(s.world, s.score))->value = 42;
    entities = ecs_sched_entity_count(s.world);
    archetypes = ecs_sched_archetype_count(s.world);
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_pending(s.cmd), 0);
    assert_int_equal(ecs_sched_commands_skipped(s.cmd), 0);
    assert_int_equal(ecs_sched_entity_count(s.world), entities);
    assert_int_equal(ecs_sched_archetype_count(s.world), archetypes);
    assert_int_equal(get_health(&s, e)->hp, 42);
    assert_int_equal(((const Score *)ecs_sched_resource_get(s.world, s.score))->value, 42);
    assert_true(ecs_sched_is_alive(s.world, spawned));
    check_and_destroy(s.world);
}

static void buffer_can_be_reused_after_apply(void **state) {
    world_setup s;
    ecs_sched_entity e;
    Health first = health(1), second = health(2);
    (void)state;
    setup_world_and_buffer(&s);
    e = ecs_sched_spawn(s.world);
    ecs_sched_commands_insert(s.cmd, e, s.health, &first);
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    ecs_sched_commands_insert(s.cmd, e, s.health, &second);
    assert_int_equal(ecs_sched_commands_pending(s.cmd), 1);
    assert_int_equal(get_health(&s, e)->hp, 1);
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_int_equal(get_health(&s, e)->hp, 2);
    check_and_destroy(s.world);
}

static void destroying_a_buffer_releases_its_reserved_handles(void **state) {
    world_setup s;
    ecs_sched_entity reserved[3], later[3];
    int i, j, reused = 0;
    (void)state;
    setup_world_and_buffer(&s);
    ecs_sched_spawn(s.world);
    for (i = 0; i < 3; i++) {
        reserved[i] = ecs_sched_commands_spawn(s.cmd);
        ecs_sched_commands_insert(s.cmd, reserved[i], s.health, NULL);
    }
    ecs_sched_commands_destroy(s.cmd);
    for (i = 0; i < 3; i++) assert_false(ecs_sched_is_alive(s.world, reserved[i]));
    assert_int_equal(ecs_sched_entity_count(s.world), 1);
    assert_int_equal(ecs_sched_world_check(s.world), ECS_SCHED_OK);
    /* the indices go back to the world and come back with new generations */
    for (i = 0; i < 3; i++) later[i] = ecs_sched_spawn(s.world);
    for (i = 0; i < 3; i++) {
        for (j = 0; j < 3; j++) {
            assert_int_not_equal(later[i], reserved[j]);
            if (ECS_SCHED_ENTITY_INDEX(later[i]) == ECS_SCHED_ENTITY_INDEX(reserved[j])) reused++;
        }
        assert_false(ecs_sched_is_alive(s.world, reserved[i]));
    }
    assert_int_equal(reused, 3);
    check_and_destroy(s.world);
}

static void reserved_handles_of_a_destroyed_buffer_stay_dead_for_other_buffers(void **state) {
    world_setup s;
    ecs_sched_commands *other;
    ecs_sched_entity reserved;
    (void)state;
    setup_world_and_buffer(&s);
    reserved = ecs_sched_commands_spawn(s.cmd);
    ecs_sched_commands_destroy(s.cmd);
    other = new_commands(s.world);
    assert_int_equal(ecs_sched_commands_insert(other, reserved, s.health, NULL),
                     ECS_SCHED_ERR_STALE_ENTITY);
    assert_int_equal(ecs_sched_commands_apply(other), ECS_SCHED_OK);
    assert_false(ecs_sched_is_alive(s.world, reserved));
    ecs_sched_commands_destroy(other);
    check_and_destroy(s.world);
}

static void world_destroy_frees_unapplied_buffers(void **state) {
    world_setup s;
    ecs_sched_commands *more;
    ecs_sched_entity e;
    Health h = health(1);
    Score sc = {1};
    (void)state;
    setup_world_and_buffer(&s);
    more = new_commands(s.world);
    e = ecs_sched_commands_spawn(s.cmd);
    ecs_sched_commands_insert(s.cmd, e, s.health, &h);
    ecs_sched_commands_set_resource(more, s.score, &sc);
    check_and_destroy(s.world); /* LeakSanitizer reports anything left behind */
}

/* ---- recording while iterating ---- */

static void commands_recorded_while_iterating_apply_afterwards(void **state) {
    world_setup s;
    enum { N = 50 };
    ecs_sched_entity e[N], children[N];
    ecs_sched_query *q;
    ecs_sched_iter it;
    int i, k, spawned = 0;
    (void)state;
    setup_world_and_buffer(&s);
    for (i = 0; i < N; i++) {
        Health h = health(i);
        e[i] = SPAWN(s.world, {s.health, &h});
    }
    q = QUERY(s.world, ecs_sched_read(s.health));
    assert_non_null(q);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        const Health *h = ECS_SCHED_FIELD(&it, const Health, 0);
        for (i = 0; i < it.count; i++) {
            Velocity v;
            v.x = (float)h[i].hp;
            v.y = 0;
            if (h[i].hp % 2) {
                ecs_sched_commands_despawn(s.cmd, it.entities[i]);
            } else {
                ecs_sched_entity child = ecs_sched_commands_spawn(s.cmd);
                Health ch = health(1000 + h[i].hp);
                ecs_sched_commands_insert(s.cmd, it.entities[i], s.velocity, &v);
                ecs_sched_commands_insert(s.cmd, child, s.health, &ch);
                children[spawned++] = child;
            }
        }
    }
    assert_int_equal(ecs_sched_entity_count(s.world), N);
    assert_int_equal(ecs_sched_query_count(q), N);
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_skipped(s.cmd), 0);
    for (i = 0; i < N; i++) {
        if (i % 2) {
            assert_false(ecs_sched_is_alive(s.world, e[i]));
        } else {
            assert_true(get_velocity(&s, e[i])->x == (float)i);
            assert_int_equal(get_health(&s, e[i])->hp, i);
        }
    }
    assert_int_equal(spawned, N / 2);
    for (k = 0; k < spawned; k++) assert_true(get_health(&s, children[k])->hp >= 1000);
    assert_int_equal(ecs_sched_entity_count(s.world), N);
    assert_int_equal(ecs_sched_query_count(q), N);
    check_and_destroy(s.world);
}

static void spawn_with_records_the_entity_and_its_values_in_one_call(void **state) {
    world_setup s;
    Position p;
    Health h = health(42);
    ecs_sched_id ids[2];
    const void *values[2];
    ecs_sched_entity e;
    (void)state;
    setup_world_and_buffer(&s);
    p.x = 1.5f;
    p.y = -2.0f;
    ids[0] = s.position;
    ids[1] = s.health;
    values[0] = &p;
    values[1] = &h;
    e = ecs_sched_commands_spawn_with(s.cmd, 2, ids, values);
    assert_true(e != ECS_SCHED_NULL_ENTITY);
    assert_false(ecs_sched_is_alive(s.world, e));
    assert_int_equal(ecs_sched_commands_pending(s.cmd), 3);
    p.x = 99.0f; /* the value was copied when recorded */
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_true(ecs_sched_is_alive(s.world, e));
    assert_true(get_position(&s, e)->x == 1.5f && get_position(&s, e)->y == -2.0f);
    assert_int_equal(get_health(&s, e)->hp, 42);
    check_and_destroy(s.world);
}

static void spawn_with_bad_ids_records_nothing(void **state) {
    world_setup s;
    ecs_sched_id twice[2], unknown[1];
    (void)state;
    setup_world_and_buffer(&s);
    twice[0] = twice[1] = s.position;
    unknown[0] = 4242;
    assert_true(ecs_sched_commands_spawn_with(s.cmd, 2, twice, NULL) == ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_last_result(s.world), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(s.world), "Position"));
    assert_true(ecs_sched_commands_spawn_with(s.cmd, 1, unknown, NULL) == ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_last_result(s.world), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_int_equal(ecs_sched_commands_pending(s.cmd), 0);
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_entity_count(s.world), 0);
    check_and_destroy(s.world);
}

typedef struct { unsigned char bytes[6000]; } Blob;

/* Commands fill several blocks of the buffer; values bigger than a block still fit. */
static void many_commands_and_large_values_cross_buffer_blocks(void **state) {
    world_setup s;
    ecs_sched_id blob;
    ecs_sched_entity e[300];
    static Blob b;
    int i;
    (void)state;
    setup_world_and_buffer(&s);
    blob = ECS_SCHED_COMPONENT(s.world, Blob);
    for (i = 0; i < 300; i++) {
        Health h = health(i);
        e[i] = ecs_sched_commands_spawn(s.cmd);
        assert_int_equal(ecs_sched_commands_insert(s.cmd, e[i], s.health, &h), ECS_SCHED_OK);
        if (i % 50 == 0) {
            memset(b.bytes, i & 0xff, sizeof b.bytes);
            assert_int_equal(ecs_sched_commands_insert(s.cmd, e[i], blob, &b), ECS_SCHED_OK);
        }
        if (i % 7 == 0) assert_int_equal(ecs_sched_commands_insert(s.cmd, e[i], s.frozen, NULL), ECS_SCHED_OK);
    }
    for (i = 0; i < 300; i += 3) assert_int_equal(ecs_sched_commands_despawn(s.cmd, e[i]), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    for (i = 0; i < 300; i++) {
        if (i % 3 == 0) {
            assert_false(ecs_sched_is_alive(s.world, e[i]));
            continue;
        }
        assert_int_equal(get_health(&s, e[i])->hp, i);
        assert_int_equal(ecs_sched_has(s.world, e[i], s.frozen), i % 7 == 0);
        if (i % 50 == 0) {
            const Blob *got = (const Blob *)ecs_sched_get(s.world, e[i], blob);
            assert_non_null(got);
            assert_int_equal(got->bytes[0], i & 0xff);
            assert_int_equal(got->bytes[sizeof got->bytes - 1], i & 0xff);
        }
    }
    /* the second round reuses the blocks */
    for (i = 1; i < 300; i += 3) assert_int_equal(ecs_sched_commands_despawn(s.cmd, e[i]), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_apply(s.cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_entity_count(s.world), 100);
    check_and_destroy(s.world);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spawned_entity_comes_alive_only_when_applied),
        cmocka_unit_test(reserved_handles_differ_from_live_and_from_each_other),
        cmocka_unit_test(reserved_handle_cannot_be_used_directly_before_apply),
        cmocka_unit_test(later_commands_on_a_spawned_handle_apply),
        cmocka_unit_test(entity_spawned_and_despawned_in_one_buffer_never_lives),
        cmocka_unit_test(insert_then_remove_leaves_the_component_absent),
        cmocka_unit_test(remove_then_insert_leaves_the_component_present),
        cmocka_unit_test(of_two_inserts_the_last_value_wins),
        cmocka_unit_test(recorded_value_is_the_one_at_recording_time),
        cmocka_unit_test(nothing_changes_before_apply),
        cmocka_unit_test(commands_across_entities_apply_in_recorded_order),
        cmocka_unit_test(insert_after_despawn_in_one_buffer_is_skipped),
        cmocka_unit_test(skipped_insert_does_not_touch_the_entity_that_reuses_the_index),
        cmocka_unit_test(commands_on_an_entity_despawned_before_apply_are_skipped),
        cmocka_unit_test(set_resource_creates_the_resource_on_apply),
        cmocka_unit_test(set_resource_overwrites_in_recorded_order),
        cmocka_unit_test(pending_counts_recorded_commands_until_applied),
        cmocka_unit_test(applying_twice_changes_nothing_the_second_time),
        cmocka_unit_test(buffer_can_be_reused_after_apply),
        cmocka_unit_test(destroying_a_buffer_releases_its_reserved_handles),
        cmocka_unit_test(reserved_handles_of_a_destroyed_buffer_stay_dead_for_other_buffers),
        cmocka_unit_test(world_destroy_frees_unapplied_buffers),
        cmocka_unit_test(commands_recorded_while_iterating_apply_afterwards),
        cmocka_unit_test(spawn_with_records_the_entity_and_its_values_in_one_call),
        cmocka_unit_test(spawn_with_bad_ids_records_nothing),
        cmocka_unit_test(many_commands_and_large_values_cross_buffer_blocks),
    };
    return cmocka_run_group_tests_name("commands", tests, NULL, NULL);
}
