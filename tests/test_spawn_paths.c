/* Paths for speed: spawning straight into an archetype got ahead, batches into recycled
   indices, several components of one entity with one lookup. Each gives what the plain
   calls give. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ecs_sched.h"

#include <cmocka.h>

#include "world_fixture.h"

static void spawn_in_gives_each_id_its_value_whatever_the_order(void **state) {
    world_setup s;
    const ecs_sched_archetype *a;
    ecs_sched_id ids[3];
    Velocity v = {3, 4};
    Position p = {1, 2};
    Health h = {9};
    const void *values[3];
    ecs_sched_entity e;
    (void)state;
    setup_world(&s);
    ids[0] = s.velocity;   /* not in id order */
    ids[1] = s.health;
    ids[2] = s.position;
    a = ecs_sched_archetype_get(s.world, 3, ids);
    assert_non_null(a);
    values[0] = &v;
    values[1] = &h;
    values[2] = &p;
    e = ecs_sched_spawn_in(s.world, a, values);
    assert_true(ecs_sched_is_alive(s.world, e));
    assert_true(get_position(&s, e)->x == 1 && get_position(&s, e)->y == 2);
    assert_true(get_velocity(&s, e)->x == 3 && get_velocity(&s, e)->y == 4);
    assert_int_equal(((const Health *)ecs_sched_get(s.world, e, s.health))->hp, 9);
    check_and_destroy(s.world);
}

static void spawn_in_and_spawn_with_fill_the_same_table(void **state) {
    world_setup s;
    ecs_sched_id ids[3];
    const ecs_sched_archetype *a;
    const void *values[3] = {NULL, NULL, NULL};
    ecs_sched_entity by_in, by_with;
    int32_t tables;
    (void)state;
    setup_world(&s);
    ids[0] = s.position;
    ids[1] = s.frozen;     /* a tag: no value */
    ids[2] = s.velocity;
    a = ecs_sched_archetype_get(s.world, 3, ids);
    tables = ecs_sched_archetype_count(s.world);
    by_in = ecs_sched_spawn_in(s.world, a, values);
    by_with = ecs_sched_spawn_with(s.world, 3, ids, values);
    assert_int_equal(ecs_sched_archetype_count(s.world), tables);
    assert_true(ecs_sched_has(s.world, by_in, s.frozen));
    assert_true(ecs_sched_has(s.world, by_with, s.frozen));
    /* defaults: zeroed */
    assert_true(get_position(&s, by_in)->x == 0 && get_velocity(&s, by_in)->y == 0);
    assert_true(ecs_sched_spawn_in(s.world, a, NULL) != ECS_SCHED_NULL_ENTITY);   /* all defaults */
    check_and_destroy(s.world);
}

static int g_added;

static void count_added(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *trigger) {
    (void)ctx;
    (void)trigger;
    g_added++;
}

static void spawn_in_calls_the_observers_like_spawn_with(void **state) {
    world_setup s;
    const ecs_sched_archetype *a;
    ecs_sched_observer_desc d;
    Position p = {5, 6};
    const void *values[1];
    (void)state;
    setup_world(&s);
    memset(&d, 0, sizeof d);
    d.event = ECS_SCHED_ON_ADD;
    d.component = s.position;
    d.fn = count_added;
    assert_true(ecs_sched_observer_add(s.world, &d) != 0);
    g_added = 0;
    a = ecs_sched_archetype_get(s.world, 1, &s.position);
    values[0] = &p;
    ecs_sched_spawn_in(s.world, a, values);
    ecs_sched_spawn_in(s.world, a, values);
    assert_int_equal(g_added, 2);
    check_and_destroy(s.world);
}

static void bad_archetypes_are_refused_with_what_is_wrong(void **state) {
    world_setup s;
    captured_log other_log;
    ecs_sched_world *other;
    const ecs_sched_archetype *a;
    ecs_sched_id twice[2];
    (void)state;
    setup_world(&s);
    twice[0] = twice[1] = s.position;
    assert_null(ecs_sched_archetype_get(s.world, 2, twice));
    assert_non_null(strstr(ecs_sched_last_error(s.world), "archetype_get"));
    assert_non_null(strstr(ecs_sched_last_error(s.world), "twice"));
    assert_null(ecs_sched_archetype_get(s.world, 1, (ecs_sched_id[]){9999}));
    assert_int_equal(ecs_sched_spawn_in(s.world, NULL, NULL), ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_last_result(s.world), ECS_SCHED_ERR_INVALID_ARGUMENT);
    other = new_world(&other_log);
    a = ecs_sched_archetype_get(other, 0, NULL);
    assert_non_null(a);
    assert_int_equal(ecs_sched_spawn_in(s.world, a, NULL), ECS_SCHED_NULL_ENTITY);
    assert_non_null(strstr(ecs_sched_last_error(s.world), "another world"));
    assert_int_equal(ecs_sched_entity_count(s.world), 0);
    ecs_sched_world_destroy(other);
    check_and_destroy(s.world);
}

/* ---- batches into recycled indices ---- */

static void a_batch_reuses_every_freed_index_newest_first_with_new_generations(void **state) {
    world_setup s;
    ecs_sched_entity first[100], second[100];
    int i;
    (void)state;
    setup_world(&s);
    assert_int_equal(ecs_sched_spawn_batch(s.world, 100, 1, &s.position, NULL, first),
                     ECS_SCHED_OK);
    for (i = 0; i < 100; i++) assert_int_equal(ecs_sched_despawn(s.world, first[i]), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_spawn_batch(s.world, 100, 1, &s.velocity, NULL, second),
                     ECS_SCHED_OK);
    for (i = 0; i < 100; i++) {
        /* the last despawned comes back first */
        assert_int_equal(ECS_SCHED_ENTITY_INDEX(second[i]), ECS_SCHED_ENTITY_INDEX(first[99 - i]));
        assert_int_equal(ECS_SCHED_ENTITY_GENERATION(second[i]),
                         ECS_SCHED_ENTITY_GENERATION(first[99 - i]) + 1);
        assert_false(ecs_sched_is_alive(s.world, first[99 - i]));
    }
    assert_int_equal(ecs_sched_entity_count(s.world), 100);
    check_and_destroy(s.world);
}

/* The entities spawned after `snap` is restored take the indices of those spawned right
   after it was taken, in their order: the free indices come back in their order (with newer
   generations: the handles of the abandoned timeline stay stale). */
static void a_restore_gives_back_the_free_indices_in_their_order(void **state) {
    world_setup s;
    ecs_sched_entity made[50], after[20], again[20];
    ecs_sched_snapshot *snap;
    int i;
    (void)state;
    setup_world(&s);
    assert_int_equal(ecs_sched_spawn_batch(s.world, 50, 1, &s.position, NULL, made), ECS_SCHED_OK);
    for (i = 0; i < 50; i += 3) ecs_sched_despawn(s.world, made[i]);
    snap = ecs_sched_snapshot_take(s.world);
    assert_non_null(snap);
    assert_int_equal(ecs_sched_spawn_batch(s.world, 20, 0, NULL, NULL, after), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_snapshot_restore(s.world, snap), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_world_check(s.world), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_spawn_batch(s.world, 20, 0, NULL, NULL, again), ECS_SCHED_OK);
    for (i = 0; i < 20; i++) {
        assert_int_equal(ECS_SCHED_ENTITY_INDEX(again[i]), ECS_SCHED_ENTITY_INDEX(after[i]));
        assert_true(ECS_SCHED_ENTITY_GENERATION(again[i]) > ECS_SCHED_ENTITY_GENERATION(after[i]));
        assert_false(ecs_sched_is_alive(s.world, after[i]));
    }
    ecs_sched_snapshot_free(snap);
    check_and_destroy(s.world);
}

/* ---- several components of one entity ---- */

static void get_many_gives_what_get_gives_for_each_id(void **state) {
    world_setup s;
    Position p = {1, 2};
    Velocity v = {3, 4};
    ecs_sched_id ids[2];
    const void *values[2];
    const void *out[2];
    void *mut[2];
    ecs_sched_entity e;
    (void)state;
    setup_world(&s);
    ids[0] = s.velocity; ids[1] = s.position;
    values[0] = &v; values[1] = &p;
    e = ecs_sched_spawn_with(s.world, 2, ids, values);
    assert_int_equal(ecs_sched_get_many(s.world, e, 2, ids, out), ECS_SCHED_OK);
    assert_ptr_equal(out[0], ecs_sched_get(s.world, e, s.velocity));
    assert_ptr_equal(out[1], ecs_sched_get(s.world, e, s.position));
    assert_int_equal(ecs_sched_get_mut_many(s.world, e, 2, ids, mut), ECS_SCHED_OK);
    assert_ptr_equal(mut[0], out[0]);
    assert_ptr_equal(mut[1], out[1]);
    check_and_destroy(s.world);
}

static void get_mut_many_overrides_an_inherited_value_before_taking_any_pointer(void **state) {
    world_setup s;
    Health h = {50};
    Position p = {7, 8};
    ecs_sched_entity base, e;
    ecs_sched_id ids[2];
    void *out[2];
    (void)state;
    setup_world(&s);
    base = ecs_sched_spawn_with(s.world, 1, &s.health, (const void *[]){&h});
    e = ecs_sched_spawn_with(s.world, 1, &s.position, (const void *[]){&p});
    assert_int_equal(ecs_sched_relate(s.world, e, ecs_sched_is_a(s.world), base, NULL),
                     ECS_SCHED_OK);
    ids[0] = s.position; ids[1] = s.health;
    assert_int_equal(ecs_sched_get_mut_many(s.world, e, 2, ids, out), ECS_SCHED_OK);
    assert_true(ecs_sched_owns(s.world, e, s.health));     /* overridden: a copy of its own */
    assert_int_equal(((Health *)out[1])->hp, 50);
    assert_true(((Position *)out[0])->x == 7);              /* not left behind by the move */
    assert_ptr_equal(out[0], ecs_sched_get(s.world, e, s.position));
    ((Health *)out[1])->hp = 10;
    assert_int_equal(((const Health *)ecs_sched_get(s.world, base, s.health))->hp, 50);
    check_and_destroy(s.world);
}

static void get_many_answers_missing_component_for_a_component_an_entity_lacks(void **state) {
    world_setup s;
    ecs_sched_id ids[2];
    const void *out[2];
    ecs_sched_entity e;
    (void)state;
    setup_world(&s);
    e = ecs_sched_spawn_with(s.world, 1, &s.position, NULL);
    ids[0] = s.position; ids[1] = s.velocity;
    assert_int_equal(ecs_sched_get_many(s.world, e, 2, ids, out), ECS_SCHED_ERR_MISSING_COMPONENT);
    assert_string_equal(ecs_sched_last_error(s.world), "");   /* a miss: nothing recorded */
    assert_int_equal(ecs_sched_get_many(s.world, e, -1, ids, out), ECS_SCHED_ERR_INVALID_ARGUMENT);
    ecs_sched_despawn(s.world, e);
    assert_int_equal(ecs_sched_get_many(s.world, e, 1, ids, out), ECS_SCHED_ERR_STALE_ENTITY);
    check_and_destroy(s.world);
}

/* Growth moves blocks through the allocator's realloc: every value and its alignment survive
   each doubling, for a column of over-aligned values and for one whose move hook relocates. */
typedef struct Wide {
    int64_t a, b, c, d, e, f, g, h;
} Wide;

static int moves;
static void count_moves(void *dst, void *src, int32_t n, void *ctx) {
    (void)ctx;
    memcpy(dst, src, (size_t)n * sizeof(Health));
    moves += n;
}

static void a_growing_table_keeps_every_value_and_its_alignment(void **state) {
    world_setup s;
    ecs_sched_component_desc desc;
    ecs_sched_id wide, moved, ids[3];
    ecs_sched_entity e[20000];
    int i, wrong = 0;
    (void)state;
    setup_world(&s);
    memset(&desc, 0, sizeof desc);
    desc.name = "Wide";
    desc.size = sizeof(Wide);
    desc.alignment = 64;
    wide = ecs_sched_component_register(s.world, &desc);
    memset(&desc, 0, sizeof desc);
    desc.name = "Moved";
    desc.size = sizeof(Health);
    desc.hooks.move = count_moves;
    moved = ecs_sched_component_register(s.world, &desc);
    ids[0] = wide;
    ids[1] = moved;
    ids[2] = s.position;
    moves = 0;
    for (i = 0; i < 20000; i++) {
        Wide w;
        Health h;
        Position p;
        const void *values[3];
        memset(&w, 0, sizeof w);
        w.a = i;
        w.h = -i;
        h.hp = i * 3;
        p.x = (float)i;
        p.y = 0;
        values[0] = &w;
        values[1] = &h;
        values[2] = &p;
        e[i] = ecs_sched_spawn_with(s.world, 3, ids, values);
    }
    for (i = 0; i < 20000; i++) {
        const Wide *w = (const Wide *)ecs_sched_get(s.world, e[i], wide);
        const Health *h = (const Health *)ecs_sched_get(s.world, e[i], moved);
        wrong += ((uintptr_t)w % 64) != 0 || w->a != i || w->h != -i || h->hp != i * 3 ||
                 get_position(&s, e[i])->x != (float)i;
    }
    assert_int_equal(wrong, 0);
    assert_true(moves > 0);   /* the hooked column was relocated by its hook */
    check_and_destroy(s.world);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spawn_in_gives_each_id_its_value_whatever_the_order),
        cmocka_unit_test(spawn_in_and_spawn_with_fill_the_same_table),
        cmocka_unit_test(spawn_in_calls_the_observers_like_spawn_with),
        cmocka_unit_test(bad_archetypes_are_refused_with_what_is_wrong),
        cmocka_unit_test(a_batch_reuses_every_freed_index_newest_first_with_new_generations),
        cmocka_unit_test(a_restore_gives_back_the_free_indices_in_their_order),
        cmocka_unit_test(get_many_gives_what_get_gives_for_each_id),
        cmocka_unit_test(get_mut_many_overrides_an_inherited_value_before_taking_any_pointer),
        cmocka_unit_test(get_many_answers_missing_component_for_a_component_an_entity_lacks),
        cmocka_unit_test(a_growing_table_keeps_every_value_and_its_alignment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
