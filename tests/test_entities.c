/* Entities: handles are index + generation, indices are recycled with a new generation, and a
   stale handle is detected by every operation, never misread as the entity that now holds its
   index. */
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

/* The last call failed with ERR_STALE_ENTITY, its message was logged at error level, and it
   names the entity by index. */
static void assert_stale_reported(ecs_sched_world *world, const captured_log *log,
                                  ecs_sched_entity entity) {
    assert_failed_with(world, log, ECS_SCHED_ERR_STALE_ENTITY);
    assert_true(mentions_number(ecs_sched_last_error(world), ECS_SCHED_ENTITY_INDEX(entity)));
}

/* A world where `stale` is a despawned handle whose index now belongs to `fresh`, an entity
   holding Position {7, 8} and Velocity {1, 2}: any misread of the stale handle would find
   those values. The index is well away from 0 so that the message test is meaningful. */
typedef struct stale_setup {
    captured_log log;
    ecs_sched_world *world;
    ecs_sched_id position, velocity;
    ecs_sched_entity stale, fresh;
} stale_setup;

static void make_stale(stale_setup *s) {
    ecs_sched_entity spawned[40];
    Position p = {7, 8};
    Velocity v = {1, 2};
    int i;
    s->world = new_world(&s->log);
    s->position = ECS_SCHED_COMPONENT(s->world, Position);
    s->velocity = ECS_SCHED_COMPONENT(s->world, Velocity);
    for (i = 0; i < 40; i++) spawned[i] = ecs_sched_spawn(s->world);
    s->stale = spawned[37];
    assert_int_equal(ecs_sched_despawn(s->world, s->stale), ECS_SCHED_OK);
    s->fresh = ecs_sched_spawn(s->world);
    assert_int_equal(ECS_SCHED_ENTITY_INDEX(s->fresh), ECS_SCHED_ENTITY_INDEX(s->stale));
    assert_int_equal(ecs_sched_insert(s->world, s->fresh, s->position, &p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(s->world, s->fresh, s->velocity, &v), ECS_SCHED_OK);
    ecs_sched_clear_error(s->world);
    s->log.errors = 0;
}

/* The entity that now holds the index is untouched. */
static void assert_fresh_untouched(stale_setup *s) {
    const Position *p;
    const Velocity *v;
    assert_true(ecs_sched_is_alive(s->world, s->fresh));
    assert_false(ecs_sched_is_alive(s->world, s->stale));
    p = (const Position *)ecs_sched_get(s->world, s->fresh, s->position);
    v = (const Velocity *)ecs_sched_get(s->world, s->fresh, s->velocity);
    assert_non_null(p);
    assert_non_null(v);
    assert_true(p->x == 7 && p->y == 8);
    assert_true(v->x == 1 && v->y == 2);
    assert_int_equal(ecs_sched_entity_count(s->world), 40);
}

/* A command aimed at the stale handle was refused when recorded (`recorded` is what the
   recording call returned): nothing is pending, and applying the buffer leaves the new holder
   untouched. */
static void assert_refused_when_recorded(stale_setup *s, ecs_sched_commands *cmd,
                                         ecs_sched_result recorded) {
    assert_int_equal(recorded, ECS_SCHED_ERR_STALE_ENTITY);
    assert_stale_reported(s->world, &s->log, s->stale);
    assert_int_equal(ecs_sched_commands_pending(cmd), 0);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_fresh_untouched(s);
}

/* ---- handles ---- */

static void fresh_world_has_no_entities(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    (void)state;
    assert_int_equal(ecs_sched_entity_count(w), 0);
    assert_false(ecs_sched_is_alive(w, ECS_SCHED_NULL_ENTITY));
    assert_int_equal(log.errors, 0);
    check_and_destroy(w);
}

static void spawned_entities_are_alive_distinct_and_counted(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity a, b, c;
    (void)state;
    a = ecs_sched_spawn(w);
    b = ecs_sched_spawn(w);
    c = ecs_sched_spawn(w);
    assert_true(a != ECS_SCHED_NULL_ENTITY && b != ECS_SCHED_NULL_ENTITY &&
                c != ECS_SCHED_NULL_ENTITY);
    assert_true(a != b && b != c && a != c);
    assert_true(ecs_sched_is_alive(w, a));
    assert_true(ecs_sched_is_alive(w, b));
    assert_true(ecs_sched_is_alive(w, c));
    assert_int_equal(ecs_sched_entity_count(w), 3);
    assert_int_equal(log.errors, 0);
    check_and_destroy(w);
}

static void live_entities_have_distinct_indices(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity e[64];
    int i, j;
    (void)state;
    for (i = 0; i < 64; i++) e[i] = ecs_sched_spawn(w);
    for (i = 0; i < 64; i++) {
        assert_int_equal(e[i], ((uint64_t)ECS_SCHED_ENTITY_GENERATION(e[i]) << 32) |
                                   ECS_SCHED_ENTITY_INDEX(e[i]));
        for (j = i + 1; j < 64; j++)
            assert_int_not_equal(ECS_SCHED_ENTITY_INDEX(e[i]), ECS_SCHED_ENTITY_INDEX(e[j]));
    }
    check_and_destroy(w);
}

static void despawn_kills_the_entity_and_only_it(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity a, b;
    (void)state;
    a = ecs_sched_spawn(w);
    b = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_despawn(w, a), ECS_SCHED_OK);
    assert_false(ecs_sched_is_alive(w, a));
    assert_true(ecs_sched_is_alive(w, b));
    assert_int_equal(ecs_sched_entity_count(w), 1);
    check_and_destroy(w);
}

static void despawned_index_is_reused_with_a_new_generation(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity a, b, c;
    (void)state;
    a = ecs_sched_spawn(w);
    b = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_despawn(w, a), ECS_SCHED_OK);
    c = ecs_sched_spawn(w);
    assert_int_equal(ECS_SCHED_ENTITY_INDEX(c), ECS_SCHED_ENTITY_INDEX(a));
    assert_int_not_equal(ECS_SCHED_ENTITY_GENERATION(c), ECS_SCHED_ENTITY_GENERATION(a));
    assert_true(ecs_sched_is_alive(w, c));
    assert_false(ecs_sched_is_alive(w, a));
    assert_true(ecs_sched_is_alive(w, b));
    assert_int_equal(ecs_sched_entity_count(w), 2);
    check_and_destroy(w);
}

static void every_reuse_of_an_index_gets_a_handle_never_seen_before(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity handles[50];
    int i, j;
    (void)state;
    for (i = 0; i < 50; i++) {
        handles[i] = ecs_sched_spawn(w);
        assert_int_equal(ECS_SCHED_ENTITY_INDEX(handles[i]), ECS_SCHED_ENTITY_INDEX(handles[0]));
        if (i < 49) assert_int_equal(ecs_sched_despawn(w, handles[i]), ECS_SCHED_OK);
    }
    for (i = 0; i < 50; i++) {
        assert_true(ecs_sched_is_alive(w, handles[i]) == (i == 49));
        for (j = i + 1; j < 50; j++) assert_int_not_equal(handles[i], handles[j]);
    }
    check_and_destroy(w);
}

static void spawned_handles_are_never_the_null_entity(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity e[100];
    int round, i;
    (void)state;
    for (round = 0; round < 3; round++) {
        for (i = 0; i < 100; i++) {
            e[i] = ecs_sched_spawn(w);
            assert_int_not_equal(e[i], ECS_SCHED_NULL_ENTITY);
        }
        for (i = 0; i < 100; i++) assert_int_equal(ecs_sched_despawn(w, e[i]), ECS_SCHED_OK);
    }
    assert_int_equal(ecs_sched_entity_count(w), 0);
    check_and_destroy(w);
}

static void entity_capacity_only_reserves_room(void **state) {
    captured_log log;
    ecs_sched_world_desc desc = logged_world_desc(&log);
    ecs_sched_world *w;
    ecs_sched_entity e[300];
    int i;
    (void)state;
    desc.entity_capacity = 256;
    w = ecs_sched_world_create(&desc);
    assert_non_null(w);
    assert_int_equal(ecs_sched_entity_count(w), 0);
    for (i = 0; i < 300; i++) e[i] = ecs_sched_spawn(w);
    for (i = 0; i < 300; i++) assert_true(ecs_sched_is_alive(w, e[i]));
    assert_int_equal(ecs_sched_entity_count(w), 300);
    check_and_destroy(w);
}

/* ---- stale handles ---- */

static void despawning_twice_fails_the_second_time(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity a, b;
    (void)state;
    a = ecs_sched_spawn(w);
    b = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_despawn(w, a), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, a), ECS_SCHED_ERR_STALE_ENTITY);
    assert_stale_reported(w, &log, a);
    assert_true(ecs_sched_is_alive(w, b));
    assert_int_equal(ecs_sched_entity_count(w), 1);
    check_and_destroy(w);
}

static void stale_handle_is_not_alive(void **state) {
    stale_setup s;
    (void)state;
    make_stale(&s);
    assert_false(ecs_sched_is_alive(s.world, s.stale));
    assert_true(ecs_sched_is_alive(s.world, s.fresh));
    check_and_destroy(s.world);
}

static void despawn_of_a_stale_handle_fails_and_spares_the_new_holder(void **state) {
    stale_setup s;
    (void)state;
    make_stale(&s);
    assert_int_equal(ecs_sched_despawn(s.world, s.stale), ECS_SCHED_ERR_STALE_ENTITY);
    assert_stale_reported(s.world, &s.log, s.stale);
    assert_fresh_untouched(&s);
    check_and_destroy(s.world);
}

static void insert_with_a_stale_handle_fails_and_spares_the_new_holder(void **state) {
    stale_setup s;
    Position p = {100, 200};
    (void)state;
    make_stale(&s);
    assert_int_equal(ecs_sched_insert(s.world, s.stale, s.position, &p),
                     ECS_SCHED_ERR_STALE_ENTITY);
    assert_stale_reported(s.world, &s.log, s.stale);
    assert_fresh_untouched(&s);
    check_and_destroy(s.world);
}

static void insert_many_with_a_stale_handle_fails_and_spares_the_new_holder(void **state) {
    stale_setup s;
    Position p = {100, 200};
    Velocity v = {300, 400};
    ecs_sched_id ids[2];
    const void *values[2];
    (void)state;
    make_stale(&s);
    ids[0] = s.position;
    ids[1] = s.velocity;
    values[0] = &p;
    values[1] = &v;
    assert_int_equal(ecs_sched_insert_many(s.world, s.stale, 2, ids, values),
                     ECS_SCHED_ERR_STALE_ENTITY);
    assert_stale_reported(s.world, &s.log, s.stale);
    assert_fresh_untouched(&s);
    check_and_destroy(s.world);
}

static void remove_with_a_stale_handle_fails_and_spares_the_new_holder(void **state) {
    stale_setup s;
    (void)state;
    make_stale(&s);
    assert_int_equal(ecs_sched_remove(s.world, s.stale, s.velocity), ECS_SCHED_ERR_STALE_ENTITY);
    assert_stale_reported(s.world, &s.log, s.stale);
    assert_true(ecs_sched_has(s.world, s.fresh, s.velocity));
    assert_fresh_untouched(&s);
    check_and_destroy(s.world);
}

static void get_with_a_stale_handle_returns_null(void **state) {
    stale_setup s;
    (void)state;
    make_stale(&s);
    assert_null(ecs_sched_get(s.world, s.stale, s.position));
    assert_stale_reported(s.world, &s.log, s.stale);
    assert_fresh_untouched(&s);
    check_and_destroy(s.world);
}

static void get_mut_with_a_stale_handle_returns_null(void **state) {
    stale_setup s;
    (void)state;
    make_stale(&s);
    assert_null(ecs_sched_get_mut(s.world, s.stale, s.position));
    assert_stale_reported(s.world, &s.log, s.stale);
    assert_fresh_untouched(&s);
    check_and_destroy(s.world);
}

static void has_with_a_stale_handle_is_false(void **state) {
    stale_setup s;
    (void)state;
    make_stale(&s);
    assert_false(ecs_sched_has(s.world, s.stale, s.position));
    assert_false(ecs_sched_has(s.world, s.stale, s.velocity));
    assert_true(ecs_sched_has(s.world, s.fresh, s.position));
    assert_fresh_untouched(&s);
    check_and_destroy(s.world);
}

static void commands_insert_with_a_stale_handle_is_rejected_when_recorded(void **state) {
    stale_setup s;
    ecs_sched_commands *cmd;
    Position p = {100, 200};
    (void)state;
    make_stale(&s);
    cmd = new_commands(s.world);
    assert_refused_when_recorded(&s, cmd, ecs_sched_commands_insert(cmd, s.stale, s.position, &p));
    ecs_sched_commands_destroy(cmd);
    check_and_destroy(s.world);
}

static void commands_remove_with_a_stale_handle_is_rejected_when_recorded(void **state) {
    stale_setup s;
    ecs_sched_commands *cmd;
    (void)state;
    make_stale(&s);
    cmd = new_commands(s.world);
    assert_refused_when_recorded(&s, cmd, ecs_sched_commands_remove(cmd, s.stale, s.velocity));
    assert_true(ecs_sched_has(s.world, s.fresh, s.velocity));
    ecs_sched_commands_destroy(cmd);
    check_and_destroy(s.world);
}

static void commands_despawn_with_a_stale_handle_is_rejected_when_recorded(void **state) {
    stale_setup s;
    ecs_sched_commands *cmd;
    (void)state;
    make_stale(&s);
    cmd = new_commands(s.world);
    assert_refused_when_recorded(&s, cmd, ecs_sched_commands_despawn(cmd, s.stale));
    ecs_sched_commands_destroy(cmd);
    check_and_destroy(s.world);
}

static void handle_with_a_generation_never_issued_is_stale(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    Position p = {1, 2};
    ecs_sched_entity e, forged;
    (void)state;
    e = SPAWN(w, {pos, NULL});
    forged = e + ((uint64_t)1 << 32);
    assert_false(ecs_sched_is_alive(w, forged));
    assert_false(ecs_sched_has(w, forged, pos));
    assert_null(ecs_sched_get(w, forged, pos));
    assert_stale_reported(w, &log, forged);
    assert_int_equal(ecs_sched_insert(w, forged, pos, &p), ECS_SCHED_ERR_STALE_ENTITY);
    assert_int_equal(ecs_sched_despawn(w, forged), ECS_SCHED_ERR_STALE_ENTITY);
    assert_true(ecs_sched_is_alive(w, e));
    assert_true(((const Position *)ecs_sched_get(w, e, pos))->x == 0);
    check_and_destroy(w);
}

static void handle_with_an_index_never_issued_is_stale(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_entity forged = ((uint64_t)1 << 32) | 100000u;
    Position p = {1, 2};
    (void)state;
    ecs_sched_spawn(w);
    assert_false(ecs_sched_is_alive(w, forged));
    assert_false(ecs_sched_has(w, forged, pos));
    assert_int_equal(ecs_sched_despawn(w, forged), ECS_SCHED_ERR_STALE_ENTITY);
    assert_stale_reported(w, &log, forged);
    assert_int_equal(ecs_sched_insert(w, forged, pos, &p), ECS_SCHED_ERR_STALE_ENTITY);
    assert_int_equal(ecs_sched_remove(w, forged, pos), ECS_SCHED_ERR_STALE_ENTITY);
    assert_null(ecs_sched_get(w, forged, pos));
    assert_null(ecs_sched_get_mut(w, forged, pos));
    assert_int_equal(ecs_sched_entity_count(w), 1);
    check_and_destroy(w);
}

/* The null handle was never spawned. Whether it is reported as stale or as an invalid
   argument, it must fail without touching the entity that may use index 0. */
static void assert_null_entity_rejected(ecs_sched_result result) {
    assert_true(result == ECS_SCHED_ERR_STALE_ENTITY || result == ECS_SCHED_ERR_INVALID_ARGUMENT);
}

static void null_entity_is_rejected_by_every_operation(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_id vel = ECS_SCHED_COMPONENT(w, Velocity);
    ecs_sched_id ids[2];
    const void *values[2];
    Position p = {5, 6};
    Velocity v = {7, 8};
    ecs_sched_entity first;
    ecs_sched_commands *cmd;
    (void)state;
    ids[0] = pos;
    ids[1] = vel;
    values[0] = &p;
    values[1] = &v;
    first = ecs_sched_spawn_with(w, 2, ids, values);
    assert_int_not_equal(first, ECS_SCHED_NULL_ENTITY);

    assert_false(ecs_sched_is_alive(w, ECS_SCHED_NULL_ENTITY));
    assert_null_entity_rejected(ecs_sched_despawn(w, ECS_SCHED_NULL_ENTITY));
    assert_null_entity_rejected(ecs_sched_insert(w, ECS_SCHED_NULL_ENTITY, pos, &p));
    assert_null_entity_rejected(ecs_sched_insert_many(w, ECS_SCHED_NULL_ENTITY, 2, ids, values));
    assert_null_entity_rejected(ecs_sched_remove(w, ECS_SCHED_NULL_ENTITY, pos));
    assert_null(ecs_sched_get(w, ECS_SCHED_NULL_ENTITY, pos));
    assert_null(ecs_sched_get_mut(w, ECS_SCHED_NULL_ENTITY, pos));
    assert_false(ecs_sched_has(w, ECS_SCHED_NULL_ENTITY, pos));

    cmd = new_commands(w);
    assert_null_entity_rejected(ecs_sched_commands_insert(cmd, ECS_SCHED_NULL_ENTITY, pos, &p));
    assert_null_entity_rejected(ecs_sched_commands_remove(cmd, ECS_SCHED_NULL_ENTITY, pos));
    assert_null_entity_rejected(ecs_sched_commands_despawn(cmd, ECS_SCHED_NULL_ENTITY));
    assert_int_equal(ecs_sched_commands_pending(cmd), 0);
    ecs_sched_commands_destroy(cmd);

    assert_true(ecs_sched_is_alive(w, first));
    assert_int_equal(ecs_sched_entity_count(w), 1);
    assert_true(((const Position *)ecs_sched_get(w, first, pos))->x == 5);
    assert_true(((const Velocity *)ecs_sched_get(w, first, vel))->y == 8);
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fresh_world_has_no_entities),
        cmocka_unit_test(spawned_entities_are_alive_distinct_and_counted),
        cmocka_unit_test(live_entities_have_distinct_indices),
        cmocka_unit_test(despawn_kills_the_entity_and_only_it),
        cmocka_unit_test(despawned_index_is_reused_with_a_new_generation),
        cmocka_unit_test(every_reuse_of_an_index_gets_a_handle_never_seen_before),
        cmocka_unit_test(spawned_handles_are_never_the_null_entity),
        cmocka_unit_test(entity_capacity_only_reserves_room),
        cmocka_unit_test(despawning_twice_fails_the_second_time),
        cmocka_unit_test(stale_handle_is_not_alive),
        cmocka_unit_test(despawn_of_a_stale_handle_fails_and_spares_the_new_holder),
        cmocka_unit_test(insert_with_a_stale_handle_fails_and_spares_the_new_holder),
        cmocka_unit_test(insert_many_with_a_stale_handle_fails_and_spares_the_new_holder),
        cmocka_unit_test(remove_with_a_stale_handle_fails_and_spares_the_new_holder),
        cmocka_unit_test(get_with_a_stale_handle_returns_null),
        cmocka_unit_test(get_mut_with_a_stale_handle_returns_null),
        cmocka_unit_test(has_with_a_stale_handle_is_false),
        cmocka_unit_test(commands_insert_with_a_stale_handle_is_rejected_when_recorded),
        cmocka_unit_test(commands_remove_with_a_stale_handle_is_rejected_when_recorded),
        cmocka_unit_test(commands_despawn_with_a_stale_handle_is_rejected_when_recorded),
        cmocka_unit_test(handle_with_a_generation_never_issued_is_stale),
        cmocka_unit_test(handle_with_an_index_never_issued_is_stale),
        cmocka_unit_test(null_entity_is_rejected_by_every_operation),
    };
    return cmocka_run_group_tests_name("entities", tests, NULL, NULL);
}
