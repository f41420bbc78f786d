/* Entity ids made elsewhere and the range of those made here: ecs_sched_spawn_at makes exactly
   the handle it is given alive (a server's entity mirrored on a client), and
   ecs_sched_set_entity_range keeps the indices a world hands out itself in [first, last], so
   that the two sources of ids never collide. */
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

static ecs_sched_entity handle(uint32_t index, uint32_t generation) {
    return (ecs_sched_entity)index | ((ecs_sched_entity)generation << 32);
}

static void assert_consistent(ecs_sched_world *w) {
    assert_int_equal(ecs_sched_world_check(w), ECS_SCHED_OK);
}

static void assert_index_in(ecs_sched_entity e, uint32_t first, uint32_t last) {
    assert_true(ECS_SCHED_ENTITY_INDEX(e) >= first);
    assert_true(ECS_SCHED_ENTITY_INDEX(e) <= last);
}

/* ---- spawn_at ---- */

static void spawn_at_makes_exactly_that_handle_alive(void **state) {
    world_setup s;
    ecs_sched_entity e = handle(42, 7);
    Position p = {3, 4};
    (void)state;
    setup_world(&s);
    assert_int_equal(ecs_sched_spawn_at(s.world, e), ECS_SCHED_OK);
    assert_true(ecs_sched_is_alive(s.world, e));
    assert_false(ecs_sched_is_alive(s.world, handle(42, 6)));
    assert_false(ecs_sched_is_alive(s.world, handle(42, 8)));
    assert_int_equal(ecs_sched_entity_count(s.world), 1);
    assert_false(ecs_sched_has(s.world, e, s.position));
    assert_int_equal(ecs_sched_insert(s.world, e, s.position, &p), ECS_SCHED_OK);
    assert_true(get_position(&s, e)->y == 4);
    check_and_destroy(s.world);
}

static void spawn_at_accepts_generation_zero_like_a_first_spawn(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity first;
    (void)state;
    assert_int_equal(ecs_sched_spawn_at(w, handle(3, 0)), ECS_SCHED_OK);
    assert_true(ecs_sched_is_alive(w, handle(3, 0)));
    first = ecs_sched_spawn(w);
    assert_int_equal(ECS_SCHED_ENTITY_GENERATION(first), 0);
    check_and_destroy(w);
}

static void spawn_at_far_index_in_an_empty_world_works(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity far = handle(1000000, 2), spawned[16];
    int i, j;
    (void)state;
    assert_int_equal(ecs_sched_spawn_at(w, far), ECS_SCHED_OK);
    assert_true(ecs_sched_is_alive(w, far));
    assert_consistent(w);
    for (i = 0; i < 16; i++) {
        spawned[i] = ecs_sched_spawn(w);
        assert_true(ecs_sched_is_alive(w, spawned[i]));
        assert_int_not_equal(ECS_SCHED_ENTITY_INDEX(spawned[i]), 1000000);
        for (j = 0; j < i; j++) {
            assert_int_not_equal(ECS_SCHED_ENTITY_INDEX(spawned[i]), ECS_SCHED_ENTITY_INDEX(spawned[j]));
        }
    }
    assert_int_equal(ecs_sched_entity_count(w), 17);
    check_and_destroy(w);
}

static void indices_skipped_by_spawn_at_are_handed_out_once_each(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    bool seen[51] = {false};
    ecs_sched_entity next;
    int i;
    (void)state;
    assert_int_equal(ecs_sched_spawn_at(w, handle(50, 0)), ECS_SCHED_OK);
    for (i = 0; i < 49; i++) {
        uint32_t index = ECS_SCHED_ENTITY_INDEX(ecs_sched_spawn(w));
        assert_true(index >= 1 && index < 50);
        assert_false(seen[index]);
        seen[index] = true;
    }
    next = ecs_sched_spawn(w);
    assert_int_equal(ECS_SCHED_ENTITY_INDEX(next), 51);
    assert_int_equal(ecs_sched_entity_count(w), 51);
    check_and_destroy(w);
}

static void spawn_at_of_an_index_in_use_is_refused_naming_the_holder(void **state) {
    world_setup s;
    ecs_sched_entity holder;
    (void)state;
    setup_world(&s);
    ecs_sched_spawn(s.world);
    holder = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_set_name(s.world, holder, "turret"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_spawn_at(s.world, handle(ECS_SCHED_ENTITY_INDEX(holder), 5)),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_failed_with(s.world, &s.log, ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(s.world), "'turret'");
    assert_true(mentions_number(ecs_sched_last_error(s.world), ECS_SCHED_ENTITY_INDEX(holder)));
    assert_true(ecs_sched_is_alive(s.world, holder));
    assert_int_equal(ecs_sched_entity_count(s.world), 2);
    check_and_destroy(s.world);
}

static void spawn_at_of_the_same_live_handle_is_refused(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity e = ecs_sched_spawn(w);
    (void)state;
    assert_int_equal(ecs_sched_spawn_at(w, e), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_entity_count(w), 1);
    check_and_destroy(w);
}

static void spawn_at_of_an_index_a_command_buffer_reserved_is_refused(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_commands *cmd = new_commands(w);
    ecs_sched_entity reserved = ecs_sched_commands_spawn(cmd);
    (void)state;
    assert_int_equal(ecs_sched_spawn_at(w, handle(ECS_SCHED_ENTITY_INDEX(reserved), 3)),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "reserved by a command buffer");
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_true(ecs_sched_is_alive(w, reserved));
    check_and_destroy(w);
}

static void spawn_at_takes_a_dead_index_with_a_newer_generation(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity a = ecs_sched_spawn(w), b = ecs_sched_spawn(w), c = ecs_sched_spawn(w);
    ecs_sched_entity taken = handle(ECS_SCHED_ENTITY_INDEX(b), 9);
    (void)state;
    assert_int_equal(ecs_sched_despawn(w, b), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_spawn_at(w, taken), ECS_SCHED_OK);
    assert_true(ecs_sched_is_alive(w, taken));
    assert_false(ecs_sched_is_alive(w, b));
    assert_true(ecs_sched_is_alive(w, a) && ecs_sched_is_alive(w, c));
    assert_consistent(w);
    assert_int_equal(ecs_sched_despawn(w, taken), ECS_SCHED_OK);   /* and goes as any other */
    assert_false(ecs_sched_is_alive(w, taken));
    check_and_destroy(w);
}

static void spawn_at_of_an_older_generation_than_the_index_reached_is_refused(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity e = ecs_sched_spawn(w);
    (void)state;
    assert_int_equal(ecs_sched_despawn(w, e), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_spawn_at(w, e), ECS_SCHED_ERR_STALE_ENTITY);
    assert_failed_with(w, &log, ECS_SCHED_ERR_STALE_ENTITY);
    assert_true(mentions_number(ecs_sched_last_error(w), ECS_SCHED_ENTITY_INDEX(e)));
    assert_false(ecs_sched_is_alive(w, e));
    assert_int_equal(ecs_sched_entity_count(w), 0);
    check_and_destroy(w);
}

static void spawn_at_of_the_null_entity_or_an_index_past_the_largest_is_refused(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    (void)state;
    assert_int_equal(ecs_sched_spawn_at(w, ECS_SCHED_NULL_ENTITY), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_spawn_at(w, handle(0, 4)), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_spawn_at(w, handle(UINT32_MAX, 0)), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_spawn_at(w, handle(UINT32_MAX - 1u, 0)), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_entity_count(w), 0);
    check_and_destroy(w);
}

static void later_spawns_never_hand_out_an_index_spawn_at_made_alive(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity first[12], taken[3];
    int i, k;
    (void)state;
    for (i = 0; i < 12; i++) first[i] = ecs_sched_spawn(w);
    for (i = 0; i < 12; i++) assert_int_equal(ecs_sched_despawn(w, first[i]), ECS_SCHED_OK);
    /* from the bottom, the middle and the top of the free indices */
    taken[0] = handle(ECS_SCHED_ENTITY_INDEX(first[0]), 1);
    taken[1] = handle(ECS_SCHED_ENTITY_INDEX(first[6]), 1);
    taken[2] = handle(ECS_SCHED_ENTITY_INDEX(first[11]), 1);
    for (k = 0; k < 3; k++) assert_int_equal(ecs_sched_spawn_at(w, taken[k]), ECS_SCHED_OK);
    assert_consistent(w);
    for (i = 0; i < 20; i++) {
        ecs_sched_entity e = ecs_sched_spawn(w);
        for (k = 0; k < 3; k++) assert_int_not_equal(ECS_SCHED_ENTITY_INDEX(e), ECS_SCHED_ENTITY_INDEX(taken[k]));
    }
    for (k = 0; k < 3; k++) assert_true(ecs_sched_is_alive(w, taken[k]));
    assert_int_equal(ecs_sched_entity_count(w), 23);
    check_and_destroy(w);
}

static void later_batches_never_hand_out_an_index_spawn_at_made_alive(void **state) {
    world_setup s;
    ecs_sched_entity out[40];
    int i;
    (void)state;
    setup_world(&s);
    assert_int_equal(ecs_sched_spawn_at(s.world, handle(20, 0)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_spawn_batch(s.world, 40, 1, &s.position, NULL, out), ECS_SCHED_OK);
    for (i = 0; i < 40; i++) assert_int_not_equal(ECS_SCHED_ENTITY_INDEX(out[i]), 20);
    check_and_destroy(s.world);
}

/* What a system or an observer tried, and what it got. A system that is not exclusive gets
   no world from its context: it reaches for one it kept. */
static ecs_sched_result g_result;
static ecs_sched_world *g_world;

static void spawn_at_from_a_system(ecs_sched_system_ctx *ctx) {
    g_result = ecs_sched_spawn_at(g_world, handle(77, 0));
    ecs_sched_ctx_clear_error(ctx);
}

static void spawn_at_from_a_system_that_is_not_exclusive_is_refused(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_system_desc desc;
    (void)state;
    memset(&desc, 0, sizeof desc);
    desc.name = "mirror";
    desc.fn = spawn_at_from_a_system;
    assert_int_equal(ecs_sched_add_system(w, "Update", &desc), ECS_SCHED_OK);
    g_world = w;
    g_result = ECS_SCHED_OK;
    ecs_sched_run_schedule(w, "Update");
    assert_int_equal(g_result, ECS_SCHED_ERR_ACCESS);
    assert_false(ecs_sched_is_alive(w, handle(77, 0)));
    check_and_destroy(w);
}

static void spawn_at_from_an_observer(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    (void)t;
    g_result = ecs_sched_spawn_at(ecs_sched_ctx_world(ctx), handle(77, 0));
    ecs_sched_ctx_clear_error(ctx);
}

static void spawn_at_inside_an_observer_is_refused(void **state) {
    world_setup s;
    ecs_sched_observer_desc d;
    (void)state;
    setup_world(&s);
    memset(&d, 0, sizeof d);
    d.event = ECS_SCHED_ON_ADD;
    d.component = s.position;
    d.fn = spawn_at_from_an_observer;
    assert_int_not_equal(ecs_sched_observer_add(s.world, &d), 0);
    g_result = ECS_SCHED_OK;
    ecs_sched_spawn_with(s.world, 1, &s.position, NULL);
    assert_int_equal(g_result, ECS_SCHED_ERR_ACCESS);
    assert_false(ecs_sched_is_alive(s.world, handle(77, 0)));
    check_and_destroy(s.world);
}

/* ---- the entity range ---- */

static void range_limits_spawn(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity e;
    int i;
    (void)state;
    assert_int_equal(ecs_sched_set_entity_range(w, 100, 199), ECS_SCHED_OK);
    e = ecs_sched_spawn(w);
    assert_int_equal(ECS_SCHED_ENTITY_INDEX(e), 100);
    for (i = 0; i < 50; i++) assert_index_in(ecs_sched_spawn(w), 100, 199);
    check_and_destroy(w);
}

static void range_limits_spawn_with(void **state) {
    world_setup s;
    Position p = {1, 2};
    const void *values[] = {&p};
    int i;
    (void)state;
    setup_world(&s);
    assert_int_equal(ecs_sched_set_entity_range(s.world, 300, 399), ECS_SCHED_OK);
    for (i = 0; i < 20; i++) {
        ecs_sched_entity e = ecs_sched_spawn_with(s.world, 1, &s.position, values);
        assert_index_in(e, 300, 399);
        assert_true(get_position(&s, e)->y == 2);
    }
    check_and_destroy(s.world);
}

static void range_limits_spawn_batch(void **state) {
    world_setup s;
    ecs_sched_entity out[64];
    int i;
    (void)state;
    setup_world(&s);
    for (i = 0; i < 10; i++) ecs_sched_spawn(s.world);   /* indices below the range exist */
    assert_int_equal(ecs_sched_set_entity_range(s.world, 500, 599), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_spawn_batch(s.world, 64, 1, &s.position, NULL, out), ECS_SCHED_OK);
    for (i = 0; i < 64; i++) assert_index_in(out[i], 500, 599);
    check_and_destroy(s.world);
}

static void range_limits_command_buffer_spawns(void **state) {
    world_setup s;
    ecs_sched_commands *cmd;
    ecs_sched_entity made[8];
    int i;
    (void)state;
    setup_world(&s);
    cmd = new_commands(s.world);
    assert_int_equal(ecs_sched_set_entity_range(s.world, 700, 799), ECS_SCHED_OK);
    for (i = 0; i < 4; i++) made[i] = ecs_sched_commands_spawn(cmd);
    for (i = 4; i < 8; i++) made[i] = ecs_sched_commands_spawn_with(cmd, 1, &s.position, NULL);
    for (i = 0; i < 8; i++) assert_index_in(made[i], 700, 799);   /* reserved in the range */
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    for (i = 0; i < 8; i++) assert_true(ecs_sched_is_alive(s.world, made[i]));
    check_and_destroy(s.world);
}

static void range_limits_prefab_instances(void **state) {
    world_setup s;
    ecs_sched_entity prefab, instance;
    (void)state;
    setup_world(&s);
    prefab = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_set_entity_range(s.world, 40, 49), ECS_SCHED_OK);
    instance = ecs_sched_instantiate(s.world, prefab);
    assert_true(ecs_sched_is_alive(s.world, instance));
    assert_index_in(instance, 40, 49);
    check_and_destroy(s.world);
}

static void exhausted_range_fails_spawn_with_limit_naming_the_range(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    int i;
    (void)state;
    assert_int_equal(ecs_sched_set_entity_range(w, 10, 12), ECS_SCHED_OK);
    for (i = 0; i < 3; i++) assert_index_in(ecs_sched_spawn(w), 10, 12);
    assert_int_equal(ecs_sched_spawn(w), ECS_SCHED_NULL_ENTITY);
    assert_failed_with(w, &log, ECS_SCHED_ERR_LIMIT);
    assert_contains(ecs_sched_last_error(w), "[10, 12]");
    assert_int_equal(ecs_sched_entity_count(w), 3);
    check_and_destroy(w);
}

static void exhausted_range_fails_a_batch_whole(void **state) {
    world_setup s;
    ecs_sched_entity out[3];
    (void)state;
    setup_world(&s);
    assert_int_equal(ecs_sched_set_entity_range(s.world, 10, 12), ECS_SCHED_OK);
    ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_spawn_batch(s.world, 3, 1, &s.position, NULL, out), ECS_SCHED_ERR_LIMIT);
    assert_contains(ecs_sched_last_error(s.world), "[10, 12]");
    assert_int_equal(ecs_sched_entity_count(s.world), 1);
    assert_int_equal(ecs_sched_spawn_batch(s.world, 2, 1, &s.position, NULL, out), ECS_SCHED_OK);
    check_and_destroy(s.world);
}

static void exhausted_range_fails_a_command_spawn(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_commands *cmd = new_commands(w);
    (void)state;
    assert_int_equal(ecs_sched_set_entity_range(w, 5, 5), ECS_SCHED_OK);
    assert_index_in(ecs_sched_commands_spawn(cmd), 5, 5);
    assert_int_equal(ecs_sched_commands_spawn(cmd), ECS_SCHED_NULL_ENTITY);
    assert_failed_with(w, &log, ECS_SCHED_ERR_LIMIT);
    assert_contains(ecs_sched_last_error(w), "[5, 5]");
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_entity_count(w), 1);
    check_and_destroy(w);
}

static void despawned_index_in_the_range_is_reused(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity e[3], again;
    int i;
    (void)state;
    assert_int_equal(ecs_sched_set_entity_range(w, 10, 12), ECS_SCHED_OK);
    for (i = 0; i < 3; i++) e[i] = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_despawn(w, e[1]), ECS_SCHED_OK);
    assert_consistent(w);
    again = ecs_sched_spawn(w);
    assert_int_equal(ECS_SCHED_ENTITY_INDEX(again), ECS_SCHED_ENTITY_INDEX(e[1]));
    assert_int_equal(ECS_SCHED_ENTITY_GENERATION(again), ECS_SCHED_ENTITY_GENERATION(e[1]) + 1);
    check_and_destroy(w);
}

static void indices_freed_outside_a_new_range_are_not_handed_out(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity e[5];
    int i;
    (void)state;
    for (i = 0; i < 5; i++) e[i] = ecs_sched_spawn(w);
    for (i = 0; i < 5; i++) ecs_sched_despawn(w, e[i]);
    assert_int_equal(ecs_sched_set_entity_range(w, 100, 199), ECS_SCHED_OK);
    assert_consistent(w);
    for (i = 0; i < 8; i++) assert_index_in(ecs_sched_spawn(w), 100, 199);
    check_and_destroy(w);
}

static void despawned_index_outside_the_range_is_not_handed_out(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity mirrored = handle(7, 0);
    int i;
    (void)state;
    assert_int_equal(ecs_sched_set_entity_range(w, 100, 199), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_spawn_at(w, mirrored), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, mirrored), ECS_SCHED_OK);
    assert_consistent(w);
    for (i = 0; i < 8; i++) assert_index_in(ecs_sched_spawn(w), 100, 199);
    assert_int_equal(ecs_sched_spawn_at(w, handle(7, 1)), ECS_SCHED_OK);   /* still its own */
    check_and_destroy(w);
}

static void lifting_the_range_hands_out_the_indices_outside_it_again(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity low[4], e;
    int i;
    (void)state;
    for (i = 0; i < 4; i++) low[i] = ecs_sched_spawn(w);
    for (i = 0; i < 4; i++) ecs_sched_despawn(w, low[i]);
    assert_int_equal(ecs_sched_set_entity_range(w, 100, 199), ECS_SCHED_OK);
    ecs_sched_spawn(w);   /* steps over 5..99 */
    assert_int_equal(ecs_sched_set_entity_range(w, 0, 0), ECS_SCHED_OK);
    assert_consistent(w);
    e = ecs_sched_spawn(w);
    assert_true(ECS_SCHED_ENTITY_INDEX(e) < 100);
    check_and_destroy(w);
}

static void range_with_last_zero_has_no_upper_bound(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    (void)state;
    assert_int_equal(ecs_sched_set_entity_range(w, 5000, 0), ECS_SCHED_OK);
    assert_int_equal(ECS_SCHED_ENTITY_INDEX(ecs_sched_spawn(w)), 5000);
    assert_int_equal(ECS_SCHED_ENTITY_INDEX(ecs_sched_spawn(w)), 5001);
    check_and_destroy(w);
}

static void a_range_that_is_empty_or_starts_at_zero_is_refused(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    (void)state;
    assert_int_equal(ecs_sched_set_entity_range(w, 20, 10), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_failed_with(w, &log, ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_set_entity_range(w, 0, 10), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_set_entity_range(w, 1, UINT32_MAX), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ECS_SCHED_ENTITY_INDEX(ecs_sched_spawn(w)), 1);   /* no range was set */
    check_and_destroy(w);
}

static void spawn_at_inside_the_range_is_refused_naming_the_range(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    (void)state;
    assert_int_equal(ecs_sched_set_entity_range(w, 100, 199), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_spawn_at(w, handle(150, 0)), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_failed_with(w, &log, ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "[100, 199]");
    assert_int_equal(ecs_sched_entity_count(w), 0);
    check_and_destroy(w);
}

static void spawn_at_outside_the_range_is_allowed(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    (void)state;
    assert_int_equal(ecs_sched_set_entity_range(w, 100, 199), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_spawn_at(w, handle(99, 3)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_spawn_at(w, handle(200, 0)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_spawn_at(w, handle(5000, 1)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_entity_count(w), 3);
    check_and_destroy(w);
}

static void spawn_at_past_the_range_leaves_the_whole_range_to_spawns(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    bool seen[21] = {false};
    int i;
    (void)state;
    assert_int_equal(ecs_sched_set_entity_range(w, 10, 20), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_spawn_at(w, handle(30, 0)), ECS_SCHED_OK);
    assert_consistent(w);
    for (i = 0; i < 11; i++) {
        uint32_t index = ECS_SCHED_ENTITY_INDEX(ecs_sched_spawn(w));
        assert_true(index >= 10 && index <= 20);
        assert_false(seen[index]);
        seen[index] = true;
    }
    assert_int_equal(ecs_sched_spawn(w), ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_LIMIT);
    check_and_destroy(w);
}

/* ---- mirroring, snapshots ---- */

#define MIRRORED 300

/* B holds every live entity of A at A's handle, and nothing else of A's. */
static void assert_mirrors(ecs_sched_world *b, const ecs_sched_entity *a_live, int count) {
    int i;
    for (i = 0; i < count; i++) assert_true(ecs_sched_is_alive(b, a_live[i]));
    assert_consistent(b);
}

static void a_world_mirrors_another_worlds_ids_beside_its_own(void **state) {
    captured_log log_a, log_b;
    ecs_sched_world *a = new_world(&log_a), *b = new_world(&log_b);
    ecs_sched_entity server[MIRRORED], own[100];
    int i;
    (void)state;
    assert_int_equal(ecs_sched_set_entity_range(b, 10000, 10999), ECS_SCHED_OK);
    for (i = 0; i < MIRRORED; i++) server[i] = ecs_sched_spawn(a);
    for (i = 0; i < MIRRORED; i += 3) ecs_sched_despawn(a, server[i]);
    for (i = 0; i < MIRRORED; i += 3) server[i] = ecs_sched_spawn(a);   /* newer generations */
    for (i = MIRRORED - 1; i >= 0; i--) assert_int_equal(ecs_sched_spawn_at(b, server[i]), ECS_SCHED_OK);
    for (i = 0; i < 100; i++) {
        own[i] = ecs_sched_spawn(b);
        assert_index_in(own[i], 10000, 10999);
    }
    assert_mirrors(b, server, MIRRORED);
    /* A replaces some of its entities: B follows, its own entities come and go meanwhile */
    for (i = 1; i < MIRRORED; i += 4) {
        assert_int_equal(ecs_sched_despawn(a, server[i]), ECS_SCHED_OK);
        assert_int_equal(ecs_sched_despawn(b, server[i]), ECS_SCHED_OK);
        assert_int_equal(ecs_sched_despawn(b, own[i % 100]), ECS_SCHED_OK);
        own[i % 100] = ecs_sched_spawn(b);
        assert_index_in(own[i % 100], 10000, 10999);
    }
    for (i = 1; i < MIRRORED; i += 4) {
        server[i] = ecs_sched_spawn(a);
        assert_int_equal(ecs_sched_spawn_at(b, server[i]), ECS_SCHED_OK);
    }
    assert_mirrors(b, server, MIRRORED);
    assert_int_equal(ecs_sched_entity_count(b), MIRRORED + 100);
    check_and_destroy(a);
    check_and_destroy(b);
}

static void restore_keeps_the_range_the_world_has_now(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity e[6];
    ecs_sched_snapshot *before;
    int i;
    (void)state;
    for (i = 0; i < 6; i++) e[i] = ecs_sched_spawn(w);
    for (i = 0; i < 6; i += 2) ecs_sched_despawn(w, e[i]);
    before = ecs_sched_snapshot_take(w);   /* free indices below the range to come */
    assert_non_null(before);
    assert_int_equal(ecs_sched_set_entity_range(w, 50, 59), ECS_SCHED_OK);
    ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_snapshot_restore(w, before), ECS_SCHED_OK);
    assert_consistent(w);
    for (i = 0; i < 10; i++) assert_index_in(ecs_sched_spawn(w), 50, 59);
    ecs_sched_snapshot_free(before);
    check_and_destroy(w);
}

static void restore_after_the_range_is_lifted_hands_out_every_index(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity mirrored = handle(3, 0), e;
    ecs_sched_snapshot *ranged;
    (void)state;
    assert_int_equal(ecs_sched_set_entity_range(w, 50, 59), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_spawn_at(w, mirrored), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, mirrored), ECS_SCHED_OK);
    ranged = ecs_sched_snapshot_take(w);   /* indices 1..3 dead and off the free lists */
    assert_non_null(ranged);
    assert_int_equal(ecs_sched_set_entity_range(w, 0, 0), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_snapshot_restore(w, ranged), ECS_SCHED_OK);
    assert_consistent(w);
    e = ecs_sched_spawn(w);
    assert_true(ECS_SCHED_ENTITY_INDEX(e) <= 3);
    ecs_sched_snapshot_free(ranged);
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spawn_at_makes_exactly_that_handle_alive),
        cmocka_unit_test(spawn_at_accepts_generation_zero_like_a_first_spawn),
        cmocka_unit_test(spawn_at_far_index_in_an_empty_world_works),
        cmocka_unit_test(indices_skipped_by_spawn_at_are_handed_out_once_each),
        cmocka_unit_test(spawn_at_of_an_index_in_use_is_refused_naming_the_holder),
        cmocka_unit_test(spawn_at_of_the_same_live_handle_is_refused),
        cmocka_unit_test(spawn_at_of_an_index_a_command_buffer_reserved_is_refused),
        cmocka_unit_test(spawn_at_takes_a_dead_index_with_a_newer_generation),
        cmocka_unit_test(spawn_at_of_an_older_generation_than_the_index_reached_is_refused),
        cmocka_unit_test(spawn_at_of_the_null_entity_or_an_index_past_the_largest_is_refused),
        cmocka_unit_test(later_spawns_never_hand_out_an_index_spawn_at_made_alive),
        cmocka_unit_test(later_batches_never_hand_out_an_index_spawn_at_made_alive),
        cmocka_unit_test(spawn_at_from_a_system_that_is_not_exclusive_is_refused),
        cmocka_unit_test(spawn_at_inside_an_observer_is_refused),
        cmocka_unit_test(range_limits_spawn),
        cmocka_unit_test(range_limits_spawn_with),
        cmocka_unit_test(range_limits_spawn_batch),
        cmocka_unit_test(range_limits_command_buffer_spawns),
        cmocka_unit_test(range_limits_prefab_instances),
        cmocka_unit_test(exhausted_range_fails_spawn_with_limit_naming_the_range),
        cmocka_unit_test(exhausted_range_fails_a_batch_whole),
        cmocka_unit_test(exhausted_range_fails_a_command_spawn),
        cmocka_unit_test(despawned_index_in_the_range_is_reused),
        cmocka_unit_test(indices_freed_outside_a_new_range_are_not_handed_out),
        cmocka_unit_test(despawned_index_outside_the_range_is_not_handed_out),
        cmocka_unit_test(lifting_the_range_hands_out_the_indices_outside_it_again),
        cmocka_unit_test(range_with_last_zero_has_no_upper_bound),
        cmocka_unit_test(a_range_that_is_empty_or_starts_at_zero_is_refused),
        cmocka_unit_test(spawn_at_inside_the_range_is_refused_naming_the_range),
        cmocka_unit_test(spawn_at_outside_the_range_is_allowed),
        cmocka_unit_test(spawn_at_past_the_range_leaves_the_whole_range_to_spawns),
        cmocka_unit_test(a_world_mirrors_another_worlds_ids_beside_its_own),
        cmocka_unit_test(restore_keeps_the_range_the_world_has_now),
        cmocka_unit_test(restore_after_the_range_is_lifted_hands_out_every_index),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
