/* Delayed commands: a buffer made by ecs_sched_commands_after is applied once the virtual or
   the fixed clock has advanced by its delay, at a defined point of the app's frame, in an
   order that is the same on every executor. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "app_fixture.h"

#define MS(n) ECS_SCHED_MILLISECONDS(n)

typedef struct Points {
    int value;
} Points;

static struct {
    ecs_sched_id points;
    ecs_sched_id burning;
    ecs_sched_entity target;
    int64_t delay_ns;
    ecs_sched_clock clock;
    int runs;
} g;

static ecs_sched_world *world_of(ecs_sched_app *app) {
    return ecs_sched_app_world(app);
}

static void update_by(ecs_sched_app *app, int64_t delta_ns) {
    assert_int_equal(ecs_sched_app_update_by(app, delta_ns), ECS_SCHED_OK);
}

static ecs_sched_app *app_on(ecs_sched_executor executor) {
    ecs_sched_app_desc desc = test_app_desc(executor);
    ecs_sched_app *app = new_app_with(&desc);
    ecs_sched_world *w = world_of(app);
    Points zero = {0};
    memset(&g, 0, sizeof g);
    g.points = ECS_SCHED_COMPONENT(w, Points);
    g.burning = ecs_sched_component_register(w, &(ecs_sched_component_desc){.name = "Burning"});
    assert_int_equal(ecs_sched_resource_insert(w, g.points, &zero), ECS_SCHED_OK);
    g.target = ecs_sched_spawn(w);
    return app;
}

static int points(ecs_sched_app *app) {
    return ((const Points *)ecs_sched_resource_get(world_of(app), g.points))->value;
}

/* Records, at its first run only, a despawn of g.target after g.delay_ns on g.clock. */
static void despawn_later(ecs_sched_system_ctx *ctx) {
    ecs_sched_commands *later;
    if (g.runs++) return;
    later = ecs_sched_commands_after(ecs_sched_ctx_commands(ctx), g.clock, g.delay_ns);
    assert_non_null(later);
    assert_int_equal(ecs_sched_commands_despawn(later, g.target), ECS_SCHED_OK);
}

static void add_despawn_later(ecs_sched_app *app, const char *schedule) {
    assert_int_equal(ecs_sched_add_system(world_of(app), schedule,
                                          &(ecs_sched_system_desc){.name = "despawn_later",
                                                                   .fn = despawn_later,
                                                                   .commands = true}),
                     ECS_SCHED_OK);
}

static void a_delayed_despawn_applies_once_the_virtual_clock_has_advanced_by_the_delay(
    void **state) {
    ecs_sched_app *app = app_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED);
    ecs_sched_world *w = world_of(app);
    int frame;
    (void)state;
    g.delay_ns = MS(100);
    add_despawn_later(app, ECS_SCHED_UPDATE);
    update_by(app, MS(30));   /* recorded at 30 ms: due at 130 ms */
    assert_int_equal(ecs_sched_commands_waiting(w, ECS_SCHED_CLOCK_VIRTUAL), 1);
    for (frame = 2; frame <= 4; frame++) {   /* 60, 90, 120 ms */
        update_by(app, MS(30));
        assert_true(ecs_sched_is_alive(w, g.target));
    }
    update_by(app, MS(30));   /* 150 ms: applied when the clocks advanced, before First */
    assert_false(ecs_sched_is_alive(w, g.target));
    assert_int_equal(ecs_sched_commands_waiting(w, ECS_SCHED_CLOCK_VIRTUAL), 0);
    destroy_app(app);
}

static void a_delay_on_the_virtual_clock_waits_while_the_game_is_paused(void **state) {
    ecs_sched_app *app = app_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED);
    ecs_sched_world *w = world_of(app);
    (void)state;
    g.delay_ns = MS(50);
    add_despawn_later(app, ECS_SCHED_UPDATE);
    update_by(app, MS(10));
    assert_int_equal(ecs_sched_time_set_paused(w, true), ECS_SCHED_OK);
    update_by(app, MS(100));
    update_by(app, MS(100));
    assert_true(ecs_sched_is_alive(w, g.target));
    assert_int_equal(ecs_sched_time_set_paused(w, false), ECS_SCHED_OK);
    update_by(app, MS(60));
    assert_false(ecs_sched_is_alive(w, g.target));
    destroy_app(app);
}

static void a_delay_of_zero_applies_at_the_next_frame(void **state) {
    ecs_sched_app *app = app_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED);
    ecs_sched_world *w = world_of(app);
    (void)state;
    g.delay_ns = 0;
    add_despawn_later(app, ECS_SCHED_UPDATE);
    update_by(app, MS(10));
    assert_true(ecs_sched_is_alive(w, g.target));
    update_by(app, 0);        /* the clock did not move, but it has reached the due time */
    assert_false(ecs_sched_is_alive(w, g.target));
    destroy_app(app);
}

/* In FixedUpdate: records an insert of Burning two steps ahead, and notes at each step
   whether the target burns already. */
static void burn_two_steps_later(ecs_sched_system_ctx *ctx) {
    char word[16];
    bool burning = ecs_sched_has(ecs_sched_ctx_world(ctx), g.target, g.burning);
    snprintf(word, sizeof word, "%d%s", g.runs, burning ? "b" : "");
    trace_add(word);
    if (g.runs++ == 0) {
        ecs_sched_commands *later = ecs_sched_commands_after(
            ecs_sched_ctx_commands(ctx), ECS_SCHED_CLOCK_FIXED, 2 * ECS_SCHED_HZ(64));
        assert_non_null(later);
        assert_int_equal(ecs_sched_commands_insert(later, g.target, g.burning, NULL),
                         ECS_SCHED_OK);
    }
}

static void a_delay_on_the_fixed_clock_applies_at_the_start_of_the_step_it_falls_due(
    void **state) {
    ecs_sched_app *app = app_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED);
    ecs_sched_world *w = world_of(app);
    (void)state;
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_FIXED_UPDATE,
                                          &(ecs_sched_system_desc){.name = "burn",
                                                                   .fn = burn_two_steps_later,
                                                                   .commands = true,
                                                                   .exclusive = true}),
                     ECS_SCHED_OK);
    /* exclusive: ecs_sched_has from inside; its commands still go through its buffer */
    update_by(app, 5 * ECS_SCHED_HZ(64));   /* five steps in one frame */
    /* recorded at step 1 (fixed elapsed 1 step): due at 3 steps, before FixedUpdate runs */
    assert_string_equal(g_trace, "0 1 2b 3b 4b");
    assert_int_equal(ecs_sched_commands_waiting(w, ECS_SCHED_CLOCK_FIXED), 0);
    destroy_app(app);
}

/* Two systems that each set the score later, by the same delay. */
static void set_one_later(ecs_sched_system_ctx *ctx) {
    Points one = {1};
    ecs_sched_commands_set_resource(
        ecs_sched_commands_after(ecs_sched_ctx_commands(ctx), ECS_SCHED_CLOCK_VIRTUAL, MS(20)),
        g.points, &one);
}

static void set_two_later(ecs_sched_system_ctx *ctx) {
    Points two = {2};
    ecs_sched_commands_set_resource(
        ecs_sched_commands_after(ecs_sched_ctx_commands(ctx), ECS_SCHED_CLOCK_VIRTUAL, MS(20)),
        g.points, &two);
}

static int last_write_with(ecs_sched_executor executor, bool one_first) {
    ecs_sched_app *app = app_on(executor);
    ecs_sched_world *w = world_of(app);
    int result;
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_UPDATE,
                                          &(ecs_sched_system_desc){
                                              .name = "one", .fn = set_one_later,
                                              .commands = true,
                                              .after = {one_first ? NULL : "two"}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_UPDATE,
                                          &(ecs_sched_system_desc){
                                              .name = "two", .fn = set_two_later,
                                              .commands = true,
                                              .after = {one_first ? "one" : NULL}}),
                     ECS_SCHED_OK);
    update_by(app, MS(10));   /* recorded at 10 ms: due at 30 */
    update_by(app, MS(20));   /* the first frame's are due; the second frame's wait */
    result = points(app);
    destroy_app(app);
    return result;
}

static void buffers_due_together_apply_in_the_order_their_systems_are_planned(void **state) {
    int i;
    (void)state;
    assert_int_equal(last_write_with(ECS_SCHED_EXECUTOR_SINGLE_THREADED, true), 2);
    assert_int_equal(last_write_with(ECS_SCHED_EXECUTOR_SINGLE_THREADED, false), 1);
    for (i = 0; i < 50; i++) {   /* the parallel executor runs them at once: same order */
        assert_int_equal(last_write_with(ECS_SCHED_EXECUTOR_PARALLEL, true), 2);
        assert_int_equal(last_write_with(ECS_SCHED_EXECUTOR_PARALLEL, false), 1);
    }
}

static void buffers_apply_in_the_order_they_fall_due(void **state) {
    ecs_sched_app *app = app_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED);
    ecs_sched_world *w = world_of(app);
    ecs_sched_commands *cmd = ecs_sched_commands_create(w);
    Points one = {1}, two = {2};
    (void)state;
    update_by(app, MS(10));
    /* recorded first but due later */
    ecs_sched_commands_set_resource(ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, MS(30)),
                                    g.points, &one);
    ecs_sched_commands_set_resource(ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, MS(20)),
                                    g.points, &two);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_waiting(w, ECS_SCHED_CLOCK_VIRTUAL), 2);
    update_by(app, MS(25));   /* 35 ms: the second is due (at 30), the first not (40) */
    assert_int_equal(points(app), 2);
    assert_int_equal(ecs_sched_commands_waiting(w, ECS_SCHED_CLOCK_VIRTUAL), 1);
    update_by(app, MS(10));
    assert_int_equal(points(app), 1);
    /* both due by the same frame: the earlier due time first, whatever the recording order */
    ecs_sched_commands_set_resource(ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, MS(10)),
                                    g.points, &one);
    ecs_sched_commands_set_resource(ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, MS(5)),
                                    g.points, &two);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    update_by(app, MS(50));
    assert_int_equal(points(app), 1);
    destroy_app(app);
}

static void the_delay_counts_from_when_the_owner_is_applied(void **state) {
    ecs_sched_app *app = app_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED);
    ecs_sched_world *w = world_of(app);
    ecs_sched_commands *cmd = ecs_sched_commands_create(w);
    (void)state;
    update_by(app, MS(10));
    ecs_sched_commands_despawn(ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, MS(20)),
                               g.target);
    update_by(app, MS(40));   /* 50 ms: recorded 40 ms ago, but not handed over yet */
    assert_true(ecs_sched_is_alive(w, g.target));
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);   /* due at 70 ms */
    update_by(app, MS(19));
    assert_true(ecs_sched_is_alive(w, g.target));
    update_by(app, MS(1));
    assert_false(ecs_sched_is_alive(w, g.target));
    destroy_app(app);
}

static void the_same_clock_and_delay_give_the_same_buffer(void **state) {
    ecs_sched_app *app = app_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED);
    ecs_sched_world *w = world_of(app);
    ecs_sched_commands *cmd = ecs_sched_commands_create(w);
    ecs_sched_commands *a = ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, MS(5));
    (void)state;
    assert_non_null(a);
    assert_ptr_equal(ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, MS(5)), a);
    assert_ptr_not_equal(ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, MS(6)), a);
    assert_ptr_not_equal(ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_FIXED, MS(5)), a);
    ecs_sched_commands_destroy(cmd);
    destroy_app(app);
}

static void a_delayed_spawn_keeps_its_handle_reserved_until_it_is_applied(void **state) {
    ecs_sched_app *app = app_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED);
    ecs_sched_world *w = world_of(app);
    ecs_sched_commands *cmd = ecs_sched_commands_create(w);
    ecs_sched_commands *later = ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, MS(10));
    Points seven = {7};
    const void *values[] = {&seven};
    ecs_sched_entity made;
    ecs_sched_entity now_made = ecs_sched_commands_spawn(cmd);
    int32_t alive_before = ecs_sched_entity_count(w);
    (void)state;
    made = ecs_sched_commands_spawn_with(later, 1, &g.points, values);
    /* a delayed buffer may use a handle its owner spawns */
    assert_int_equal(ecs_sched_commands_insert(later, now_made, g.burning, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_true(ecs_sched_is_alive(w, now_made));
    assert_false(ecs_sched_is_alive(w, made));
    assert_int_equal(ecs_sched_entity_count(w), alive_before + 1);
    assert_null(ecs_sched_snapshot_take(w));   /* a handle is reserved */
    update_by(app, MS(10));
    assert_true(ecs_sched_is_alive(w, made));
    assert_int_equal(((const Points *)ecs_sched_get(w, made, g.points))->value, 7);
    assert_true(ecs_sched_has(w, now_made, g.burning));
    destroy_app(app);
}

static void destroying_the_owner_drops_its_delayed_buffers_and_their_handles(void **state) {
    ecs_sched_app *app = app_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED);
    ecs_sched_world *w = world_of(app);
    ecs_sched_commands *cmd = ecs_sched_commands_create(w);
    ecs_sched_commands *later = ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, MS(10));
    ecs_sched_entity made = ecs_sched_commands_spawn(later);
    (void)state;
    assert_int_equal(ecs_sched_commands_despawn(later, g.target), ECS_SCHED_OK);
    ecs_sched_commands_destroy(cmd);
    assert_int_equal(ecs_sched_world_check(w), ECS_SCHED_OK);   /* the handle is released */
    update_by(app, MS(20));
    assert_false(ecs_sched_is_alive(w, made));
    assert_true(ecs_sched_is_alive(w, g.target));
    destroy_app(app);
}

static void a_world_with_waiting_buffers_is_destroyed_whole(void **state) {
    ecs_sched_app *app = app_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED);
    ecs_sched_world *w = world_of(app);
    ecs_sched_commands *cmd = ecs_sched_commands_create(w);
    (void)state;
    ecs_sched_commands_spawn(ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, MS(10)));
    ecs_sched_commands_spawn(ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_FIXED, MS(10)));
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    ecs_sched_commands_spawn(ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, MS(10)));
    assert_int_equal(ecs_sched_commands_waiting(w, ECS_SCHED_CLOCK_VIRTUAL), 1);
    assert_int_equal(ecs_sched_commands_waiting(w, ECS_SCHED_CLOCK_FIXED), 1);
    destroy_app(app);   /* the sanitizers tell a leak */
}

static void delayed_commands_work_in_a_world_without_an_app(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_commands *cmd;
    ecs_sched_entity e;
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_OK);
    e = ecs_sched_spawn(w);
    cmd = ecs_sched_commands_create(w);
    ecs_sched_commands_despawn(ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, MS(100)), e);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_advance_by(w, MS(99)), ECS_SCHED_OK);
    assert_true(ecs_sched_is_alive(w, e));
    assert_int_equal(ecs_sched_time_advance_by(w, MS(1)), ECS_SCHED_OK);
    assert_false(ecs_sched_is_alive(w, e));
    check_and_destroy(w);
}

static void bad_requests_are_refused_with_what_is_wrong(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_commands *cmd = ecs_sched_commands_create(w);
    ecs_sched_commands *later;
    (void)state;
    assert_null(ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, MS(1)));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_non_null(strstr(ecs_sched_last_error(w), "no clocks"));
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_OK);
    assert_null(ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, -1));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "-1 ns"));
    assert_null(ecs_sched_commands_after(cmd, (ecs_sched_clock)7, 0));
    assert_non_null(strstr(ecs_sched_last_error(w), "clock 7"));
    later = ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, 0);
    assert_non_null(later);
    assert_int_equal(ecs_sched_commands_apply(later), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "ecs_sched_commands_after"));
    assert_int_equal(ecs_sched_commands_waiting(w, (ecs_sched_clock)7), 0);
    check_and_destroy(w);
}

/* ---- a delayed buffer destroyed on its own, a clock removed, no clocks ---- */

static void a_delayed_buffer_destroyed_before_its_owner_is_applied_is_dropped(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_commands *cmd;
    ecs_sched_commands *later, *other;
    ecs_sched_entity e, f;
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_OK);
    e = ecs_sched_spawn(w);
    f = ecs_sched_spawn(w);
    cmd = ecs_sched_commands_create(w);
    later = ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, MS(10));
    other = ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, MS(20));
    assert_non_null(later);
    assert_non_null(other);
    assert_int_equal(ecs_sched_commands_despawn(later, e), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_despawn(other, f), ECS_SCHED_OK);
    ecs_sched_commands_destroy(later);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_waiting(w, ECS_SCHED_CLOCK_VIRTUAL), 1);
    assert_int_equal(ecs_sched_time_advance_by(w, MS(30)), ECS_SCHED_OK);
    assert_true(ecs_sched_is_alive(w, e));
    assert_false(ecs_sched_is_alive(w, f));
    ecs_sched_commands_destroy(cmd);
    check_and_destroy(w);
}

static void a_waiting_buffer_destroyed_leaves_the_queue(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_commands *cmd;
    ecs_sched_commands *later;
    ecs_sched_entity e;
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_OK);
    e = ecs_sched_spawn(w);
    cmd = ecs_sched_commands_create(w);
    later = ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_FIXED, MS(10));
    assert_int_equal(ecs_sched_commands_despawn(later, e), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_waiting(w, ECS_SCHED_CLOCK_FIXED), 1);
    ecs_sched_commands_destroy(later);
    assert_int_equal(ecs_sched_commands_waiting(w, ECS_SCHED_CLOCK_FIXED), 0);
    ecs_sched_commands_destroy(cmd);
    assert_true(ecs_sched_is_alive(w, e));
    check_and_destroy(w);
}

static void applying_a_delay_whose_clock_was_removed_fails_naming_it(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_commands *cmd;
    ecs_sched_entity e;
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_OK);
    e = ecs_sched_spawn(w);
    cmd = ecs_sched_commands_create(w);
    assert_int_equal(ecs_sched_commands_despawn(ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_FIXED,
                                                                         MS(5)), e),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_resource_remove(w, ecs_sched_time_fixed_id(w)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_non_null(strstr(ecs_sched_last_error(w), "delayed commands count on resource "
                                                    "'Time<Fixed>', which was removed"));
    assert_int_equal(ecs_sched_commands_waiting(w, ECS_SCHED_CLOCK_FIXED), 0);
    assert_true(ecs_sched_is_alive(w, e));
    ecs_sched_commands_destroy(cmd);
    check_and_destroy(w);
}

static void a_world_without_clocks_has_no_waiting_buffers(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(ecs_sched_commands_waiting(w, ECS_SCHED_CLOCK_VIRTUAL), 0);
    assert_int_equal(ecs_sched_commands_waiting(w, ECS_SCHED_CLOCK_FIXED), 0);
    check_and_destroy(w);
}

static void waiting_buffers_and_their_own_delayed_buffers_come_back_with_a_snapshot(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_commands *cmd, *later, *much_later;
    ecs_sched_snapshot *snap;
    ecs_sched_entity e[43];
    int i;
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_OK);
    for (i = 0; i < 43; i++) e[i] = ecs_sched_spawn(w);
    cmd = ecs_sched_commands_create(w);
    later = ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, MS(10));
    for (i = 0; i < 40; i++) ecs_sched_commands_despawn(later, e[i]);   /* more than one block */
    much_later = ecs_sched_commands_after(later, ECS_SCHED_CLOCK_VIRTUAL, MS(10));
    ecs_sched_commands_despawn(much_later, e[40]);
    ecs_sched_commands_despawn(ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_FIXED, MS(5)), e[41]);
    ecs_sched_commands_despawn(ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, MS(30)), e[42]);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_waiting(w, ECS_SCHED_CLOCK_VIRTUAL), 2);
    assert_int_equal(ecs_sched_commands_waiting(w, ECS_SCHED_CLOCK_FIXED), 1);
    snap = ecs_sched_snapshot_take(w);
    assert_non_null(snap);
    assert_int_equal(ecs_sched_time_advance_by(w, MS(10)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_entity_count(w), 3);
    assert_int_equal(ecs_sched_time_advance_by(w, MS(10)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_entity_count(w), 2);
    assert_int_equal(ecs_sched_snapshot_restore(w, snap), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_entity_count(w), 43);
    assert_int_equal(ecs_sched_commands_waiting(w, ECS_SCHED_CLOCK_VIRTUAL), 2);
    assert_int_equal(ecs_sched_commands_waiting(w, ECS_SCHED_CLOCK_FIXED), 1);
    assert_int_equal(ecs_sched_time_advance_by(w, MS(10)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_entity_count(w), 3);
    assert_int_equal(ecs_sched_time_advance_by(w, MS(20)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_entity_count(w), 1);
    assert_true(ecs_sched_is_alive(w, e[41]));   /* the fixed clock has not moved */
    assert_int_equal(ecs_sched_commands_waiting(w, ECS_SCHED_CLOCK_VIRTUAL), 0);
    assert_int_equal(ecs_sched_commands_waiting(w, ECS_SCHED_CLOCK_FIXED), 1);
    ecs_sched_snapshot_free(snap);
    ecs_sched_commands_destroy(cmd);
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(waiting_buffers_and_their_own_delayed_buffers_come_back_with_a_snapshot),
        cmocka_unit_test(a_delayed_buffer_destroyed_before_its_owner_is_applied_is_dropped),
        cmocka_unit_test(a_waiting_buffer_destroyed_leaves_the_queue),
        cmocka_unit_test(applying_a_delay_whose_clock_was_removed_fails_naming_it),
        cmocka_unit_test(a_world_without_clocks_has_no_waiting_buffers),
        cmocka_unit_test(a_delayed_despawn_applies_once_the_virtual_clock_has_advanced_by_the_delay),
        cmocka_unit_test(a_delay_on_the_virtual_clock_waits_while_the_game_is_paused),
        cmocka_unit_test(a_delay_of_zero_applies_at_the_next_frame),
        cmocka_unit_test(a_delay_on_the_fixed_clock_applies_at_the_start_of_the_step_it_falls_due),
        cmocka_unit_test(buffers_due_together_apply_in_the_order_their_systems_are_planned),
        cmocka_unit_test(buffers_apply_in_the_order_they_fall_due),
        cmocka_unit_test(the_delay_counts_from_when_the_owner_is_applied),
        cmocka_unit_test(the_same_clock_and_delay_give_the_same_buffer),
        cmocka_unit_test(a_delayed_spawn_keeps_its_handle_reserved_until_it_is_applied),
        cmocka_unit_test(destroying_the_owner_drops_its_delayed_buffers_and_their_handles),
        cmocka_unit_test(a_world_with_waiting_buffers_is_destroyed_whole),
        cmocka_unit_test(delayed_commands_work_in_a_world_without_an_app),
        cmocka_unit_test(bad_requests_are_refused_with_what_is_wrong),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_app);
}
