/* Observers: functions called the moment a component is added (ON_ADD), written by an insert
   (ON_INSERT), about to be removed (ON_REMOVE), or an entity about to be despawned
   (ON_DESPAWN); in direct world calls, command application and batch spawns, in the order
   they were added. Structural changes inside one are deferred to the end of the operation
   that called it; what cannot be deferred is refused; a failure names the observer. */
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

static ecs_sched_id g_pos, g_vel, g_tag;

static ecs_sched_world *observed_world(void) {
    ecs_sched_world *w = new_world();
    g_pos = ECS_SCHED_COMPONENT(w, Position);
    g_vel = ECS_SCHED_COMPONENT(w, Velocity);
    g_tag = ECS_SCHED_TAG(w, Frozen);
    return w;
}

static const char *event_name(ecs_sched_observer_event e) {
    return e == ECS_SCHED_ON_ADD ? "add" : e == ECS_SCHED_ON_INSERT ? "insert"
           : e == ECS_SCHED_ON_REMOVE ? "remove" : "despawn";
}

/* Traces "<name>:<event>" and, for a Position still there, its x. */
static void trace_event(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    char word[96];
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    const Position *p = t->component == g_pos && ecs_sched_has(w, t->entity, g_pos)
                            ? (const Position *)ecs_sched_get(w, t->entity, g_pos) : NULL;
    if (p) snprintf(word, sizeof word, "%s:%s=%g", ecs_sched_ctx_name(ctx), event_name(t->event), (double)p->x);
    else snprintf(word, sizeof word, "%s:%s", ecs_sched_ctx_name(ctx), event_name(t->event));
    trace_add(word);
}

static uint32_t observe(ecs_sched_world *w, const char *name, ecs_sched_observer_event event,
                        ecs_sched_id component, ecs_sched_observer_fn fn) {
    ecs_sched_observer_desc d;
    uint32_t id;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.event = event;
    d.component = component;
    d.fn = fn;
    id = ecs_sched_observer_add(w, &d);
    assert_true(id != 0);
    return id;
}

static void adding_a_component_calls_on_add_then_on_insert_and_an_overwrite_on_insert(void **state) {
    ecs_sched_world *w = observed_world();
    ecs_sched_entity e;
    Position p = {1, 0}, q = {2, 0};
    (void)state;
    observe(w, "i", ECS_SCHED_ON_INSERT, g_pos, trace_event);
    observe(w, "a", ECS_SCHED_ON_ADD, g_pos, trace_event);
    e = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_insert(w, e, g_pos, &p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(w, e, g_pos, &q), ECS_SCHED_OK);
    assert_string_equal(g_trace, "a:add=1 i:insert=1 i:insert=2");
    check_and_destroy(w);
}

static void on_remove_runs_before_the_value_goes_and_despawn_comes_first(void **state) {
    ecs_sched_world *w = observed_world();
    ecs_sched_entity e, f;
    Position p = {3, 0};
    ecs_sched_id both[2];
    const void *values[2];
    (void)state;
    observe(w, "r", ECS_SCHED_ON_REMOVE, g_pos, trace_event);
    observe(w, "d", ECS_SCHED_ON_DESPAWN, 0, trace_event);
    e = ecs_sched_spawn_with(w, 1, &g_pos, (const void *const[]){&p});
    assert_int_equal(ecs_sched_remove(w, e, g_pos), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_remove(w, e, g_pos), ECS_SCHED_OK);   /* not there: nothing */
    both[0] = g_vel;
    both[1] = g_pos;
    values[0] = NULL;
    values[1] = &p;
    f = ecs_sched_spawn_with(w, 2, both, values);
    assert_int_equal(ecs_sched_despawn(w, f), ECS_SCHED_OK);
    assert_string_equal(g_trace, "r:remove=3 d:despawn r:remove=3");
    check_and_destroy(w);
}

static void observers_of_one_event_run_in_the_order_they_were_added(void **state) {
    ecs_sched_world *w = observed_world();
    (void)state;
    observe(w, "first", ECS_SCHED_ON_ADD, g_pos, trace_event);
    observe(w, "second", ECS_SCHED_ON_ADD, g_pos, trace_event);
    observe(w, "third", ECS_SCHED_ON_ADD, g_pos, trace_event);
    ecs_sched_spawn_with(w, 1, &g_pos, NULL);
    assert_string_equal(g_trace, "first:add=0 second:add=0 third:add=0");
    check_and_destroy(w);
}

static void with_and_without_filter_the_entities_an_observer_hears_of(void **state) {
    ecs_sched_world *w = observed_world();
    ecs_sched_observer_desc d;
    ecs_sched_entity moving, frozen;
    (void)state;
    memset(&d, 0, sizeof d);
    d.name = "moving";
    d.event = ECS_SCHED_ON_INSERT;
    d.component = g_pos;
    d.fn = trace_event;
    d.with[0] = g_vel;
    d.without[0] = g_tag;
    assert_true(ecs_sched_observer_add(w, &d) != 0);
    moving = ecs_sched_spawn_with(w, 1, &g_vel, NULL);
    frozen = ecs_sched_spawn_with(w, 2, (const ecs_sched_id[]){g_vel, g_tag}, NULL);
    assert_int_equal(ecs_sched_insert(w, moving, g_pos, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(w, frozen, g_pos, NULL), ECS_SCHED_OK);
    ecs_sched_spawn_with(w, 1, &g_pos, NULL);                 /* no Velocity */
    assert_string_equal(g_trace, "moving:insert=0");
    check_and_destroy(w);
}

static void a_batch_spawn_calls_the_observers_for_each_entity(void **state) {
    ecs_sched_world *w = observed_world();
    Position values[3] = {{1, 0}, {2, 0}, {3, 0}};
    const void *arrays[1];
    (void)state;
    arrays[0] = values;
    observe(w, "a", ECS_SCHED_ON_ADD, g_pos, trace_event);
    assert_int_equal(ecs_sched_spawn_batch(w, 3, 1, &g_pos, arrays, NULL), ECS_SCHED_OK);
    assert_string_equal(g_trace, "a:add=1 a:add=2 a:add=3");
    check_and_destroy(w);
}

/* ---- deferred changes ---- */

static ecs_sched_entity g_spawned;
static bool g_alive_inside;

/* Gives every new Position a Velocity and spawns a marker entity, through the world. */
static void add_velocity_directly(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    trace_add("observer");
    assert_int_equal(ecs_sched_insert(w, t->entity, g_vel, NULL), ECS_SCHED_OK);
    g_spawned = ecs_sched_spawn(w);
    g_alive_inside = ecs_sched_is_alive(w, g_spawned);
    assert_false(ecs_sched_has(w, t->entity, g_vel));      /* not yet: deferred */
}

static void structural_changes_inside_an_observer_happen_after_the_operation(void **state) {
    ecs_sched_world *w = observed_world();
    ecs_sched_entity e;
    (void)state;
    observe(w, "o", ECS_SCHED_ON_ADD, g_pos, add_velocity_directly);
    e = ecs_sched_spawn_with(w, 1, &g_pos, NULL);
    assert_true(ecs_sched_has(w, e, g_vel));
    assert_false(g_alive_inside);
    assert_true(ecs_sched_is_alive(w, g_spawned));
    assert_int_equal(ecs_sched_entity_count(w), 2);
    check_and_destroy(w);
}

/* Spawns two entities with Velocity values for each new Position, in one batch. */
static ecs_sched_entity g_batch[2];

static void spawn_velocity_batch(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    Velocity values[2] = {{1, 2}, {3, 4}};
    const void *arrays[1];
    (void)t;
    arrays[0] = values;
    assert_int_equal(ecs_sched_spawn_batch(ecs_sched_ctx_world(ctx), 2, 1, &g_vel, arrays, g_batch),
                     ECS_SCHED_OK);
}

static void a_batch_spawned_inside_an_observer_is_spawned_after_the_operation(void **state) {
    ecs_sched_world *w = observed_world();
    const Velocity *v;
    (void)state;
    observe(w, "o", ECS_SCHED_ON_ADD, g_pos, spawn_velocity_batch);
    ecs_sched_spawn_with(w, 1, &g_pos, NULL);
    assert_int_equal(ecs_sched_entity_count(w), 3);
    v = (const Velocity *)ecs_sched_get(w, g_batch[1], g_vel);
    assert_non_null(v);
    assert_true(v->x == 3 && v->y == 4);
    v = (const Velocity *)ecs_sched_get(w, g_batch[0], g_vel);
    assert_non_null(v);
    assert_true(v->x == 1 && v->y == 2);
    check_and_destroy(w);
}

/* Removes Velocity when Position is added, with its commands. */
static void remove_velocity_by_command(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    assert_int_equal(ecs_sched_commands_remove(ecs_sched_ctx_commands(ctx), t->entity, g_vel),
                     ECS_SCHED_OK);
}

static void an_observers_commands_are_applied_after_the_operation(void **state) {
    ecs_sched_world *w = observed_world();
    ecs_sched_entity e;
    (void)state;
    observe(w, "o", ECS_SCHED_ON_ADD, g_pos, remove_velocity_by_command);
    e = ecs_sched_spawn_with(w, 1, &g_vel, NULL);
    assert_int_equal(ecs_sched_insert(w, e, g_pos, NULL), ECS_SCHED_OK);
    assert_false(ecs_sched_has(w, e, g_vel));
    assert_true(ecs_sched_has(w, e, g_pos));
    check_and_destroy(w);
}

/* Observers chained through deferred changes: adding Velocity removes Frozen. */
static void unfreeze(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    trace_add("unfreeze");
    ecs_sched_remove(ecs_sched_ctx_world(ctx), t->entity, g_tag);
}

static void deferred_changes_call_observers_in_turn(void **state) {
    ecs_sched_world *w = observed_world();
    ecs_sched_entity e;
    (void)state;
    observe(w, "o", ECS_SCHED_ON_ADD, g_pos, add_velocity_directly);
    observe(w, "u", ECS_SCHED_ON_ADD, g_vel, unfreeze);
    observe(w, "r", ECS_SCHED_ON_REMOVE, g_tag, trace_event);
    e = ecs_sched_spawn_with(w, 1, &g_tag, NULL);
    assert_int_equal(ecs_sched_insert(w, e, g_pos, NULL), ECS_SCHED_OK);
    assert_string_equal(g_trace, "observer unfreeze r:remove");
    assert_false(ecs_sched_has(w, e, g_tag));
    check_and_destroy(w);
}

/* ---- inside schedules: commands at sync points ---- */

static ecs_sched_entity g_target;

static void add_then_remove(ecs_sched_system_ctx *ctx) {
    ecs_sched_commands *cmd = ecs_sched_ctx_commands(ctx);
    Position p = {5, 0};
    ecs_sched_commands_insert(cmd, g_target, g_pos, &p);
    ecs_sched_commands_remove(cmd, g_target, g_pos);
    ecs_sched_commands_insert(cmd, g_target, g_pos, &p);
}

static void observers_hear_each_command_of_a_buffer_in_order(void **state) {
    ecs_sched_world *w = observed_world();
    (void)state;
    g_target = ecs_sched_spawn(w);
    observe(w, "a", ECS_SCHED_ON_ADD, g_pos, trace_event);
    observe(w, "i", ECS_SCHED_ON_INSERT, g_pos, trace_event);
    observe(w, "r", ECS_SCHED_ON_REMOVE, g_pos, trace_event);
    ADD_SYSTEM(w, .name = "flip", .fn = add_then_remove, .commands = true);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_trace, "a:add=5 i:insert=5 r:remove=5 a:add=5 i:insert=5");
    check_and_destroy(w);
}

/* ---- what an observer may not do, and failures ---- */

static ecs_sched_result g_inner;
static void run_a_schedule(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    (void)t;
    g_inner = ecs_sched_run_schedule(ecs_sched_ctx_world(ctx), UPDATE);
    ecs_sched_ctx_clear_error(ctx);
}

static void running_a_schedule_inside_an_observer_is_refused(void **state) {
    ecs_sched_world *w = observed_world();
    (void)state;
    observe(w, "runner", ECS_SCHED_ON_ADD, g_pos, run_a_schedule);
    ADD_SYSTEM(w, .name = "s", .fn = record);
    ecs_sched_spawn_with(w, 1, &g_pos, NULL);
    assert_int_equal(g_inner, ECS_SCHED_ERR_ACCESS);
    assert_non_null(strstr(ecs_sched_last_error(w), "observer 'runner': running a schedule inside an observer"));
    check_and_destroy(w);
}

static void running_an_empty_schedule_inside_an_observer_is_refused_too(void **state) {
    ecs_sched_world *w = observed_world();
    (void)state;
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* built, no system */
    observe(w, "runner", ECS_SCHED_ON_ADD, g_pos, run_a_schedule);
    g_inner = ECS_SCHED_OK;
    ecs_sched_spawn_with(w, 1, &g_pos, NULL);
    assert_int_equal(g_inner, ECS_SCHED_ERR_ACCESS);
    assert_non_null(strstr(ecs_sched_last_error(w), "observer 'runner': running a schedule inside an observer"));
    check_and_destroy(w);
}

static void add_an_observer(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    ecs_sched_observer_desc d;
    (void)t;
    memset(&d, 0, sizeof d);
    d.event = ECS_SCHED_ON_ADD;
    d.component = g_vel;
    d.fn = trace_event;
    assert_int_equal(ecs_sched_observer_add(ecs_sched_ctx_world(ctx), &d), 0);
    ecs_sched_ctx_clear_error(ctx);
}

static void adding_an_observer_while_observers_run_is_refused(void **state) {
    ecs_sched_world *w = observed_world();
    (void)state;
    observe(w, "adder", ECS_SCHED_ON_ADD, g_pos, add_an_observer);
    ecs_sched_spawn_with(w, 1, &g_pos, NULL);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_ACCESS);
    assert_non_null(strstr(ecs_sched_last_error(w), "adding an observer inside an observer"));
    check_and_destroy(w);
}

static void fail_on_purpose(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    (void)t;
    ecs_sched_ctx_fail(ctx, ECS_SCHED_ERR_SYSTEM_FAILED, "no room for it");
}

static void a_failing_observer_outside_systems_leaves_its_name_in_the_last_error(void **state) {
    ecs_sched_world *w = observed_world();
    (void)state;
    observe(w, "picky", ECS_SCHED_ON_ADD, g_pos, fail_on_purpose);
    assert_true(ecs_sched_spawn_with(w, 1, &g_pos, NULL) != ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_SYSTEM_FAILED);
    assert_string_equal(ecs_sched_last_error(w), "observer 'picky': no room for it");
    check_and_destroy(w);
}

static void spawn_a_position(ecs_sched_system_ctx *ctx) {
    ecs_sched_spawn_with(ecs_sched_ctx_world(ctx), 1, &g_pos, NULL);
}

static void a_failing_observer_fails_the_system_that_made_the_change(void **state) {
    ecs_sched_world *w = observed_world();
    (void)state;
    observe(w, "picky", ECS_SCHED_ON_ADD, g_pos, fail_on_purpose);
    ADD_SYSTEM(w, .name = "spawner", .fn = spawn_a_position, .exclusive = true);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SYSTEM_FAILED);
    assert_string_equal(ecs_sched_last_error(w),
                        "system 'spawner' in schedule 'Update': observer 'picky': no room for it");
    check_and_destroy(w);
}

static void removing_an_observer_twice_is_an_error(void **state) {
    ecs_sched_world *w = observed_world();
    uint32_t id;
    (void)state;
    id = observe(w, "o", ECS_SCHED_ON_ADD, g_pos, trace_event);
    assert_int_equal(ecs_sched_observer_remove(w, id), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_observer_remove(w, id), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "removed already"));
    ecs_sched_spawn_with(w, 1, &g_pos, NULL);
    assert_string_equal(g_trace, "");
    check_and_destroy(w);
}

static void an_observer_of_an_unknown_component_is_refused(void **state) {
    ecs_sched_world *w = observed_world();
    ecs_sched_observer_desc d;
    (void)state;
    memset(&d, 0, sizeof d);
    d.name = "ghost";
    d.event = ECS_SCHED_ON_ADD;
    d.component = 12345;
    d.fn = trace_event;
    assert_int_equal(ecs_sched_observer_add(w, &d), 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "observer 'ghost' watches component id 12345"));
    check_and_destroy(w);
}

static int g_removed_at_end;
static void count_removal(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    (void)ctx;
    (void)t;
    g_removed_at_end++;
}

static void destroying_the_world_calls_on_remove_for_what_is_left(void **state) {
    ecs_sched_world *w = observed_world();
    (void)state;
    g_removed_at_end = 0;
    observe(w, "end", ECS_SCHED_ON_REMOVE, g_pos, count_removal);
    ecs_sched_spawn_with(w, 1, &g_pos, NULL);
    ecs_sched_spawn_with(w, 2, (const ecs_sched_id[]){g_pos, g_vel}, NULL);
    ecs_sched_spawn_with(w, 1, &g_vel, NULL);
    check_and_destroy(w);
    assert_int_equal(g_removed_at_end, 2);
}

/* Writes x = 9 into the Position just added. */
static void reset_position(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    Position *p = (Position *)ecs_sched_get_mut(ecs_sched_ctx_world(ctx), t->entity, g_pos);
    assert_non_null(p);
    p->x = 9;
}

/* ON_ADD runs once the inserted value is in place: it sees that value, and what it writes
   replaces it (a default belongs in the component's ctor hook, not in an ON_ADD observer). */
static void an_on_add_observer_runs_after_the_value_is_written_and_its_write_wins(void **state) {
    ecs_sched_world *w = observed_world();
    ecs_sched_entity e;
    Position p = {1, 0};
    (void)state;
    observe(w, "a", ECS_SCHED_ON_ADD, g_pos, trace_event);
    observe(w, "reset", ECS_SCHED_ON_ADD, g_pos, reset_position);
    observe(w, "i", ECS_SCHED_ON_INSERT, g_pos, trace_event);
    e = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_insert(w, e, g_pos, &p), ECS_SCHED_OK);
    assert_string_equal(g_trace, "a:add=1 i:insert=9");
    assert_true(((const Position *)ecs_sched_get(w, e, g_pos))->x == 9);
    check_and_destroy(w);
}

static ecs_sched_entity g_first, g_second, g_third;

/* Traces "<entity>:<component>", the entity one of g_first, g_second, g_third, and checks that
   every other entity is still alive. */
static void trace_removal_at_end(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    char word[32];
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    const char *who = t->entity == g_first ? "first" : t->entity == g_second ? "second" : "third";
    assert_true(ecs_sched_is_alive(w, g_first) && ecs_sched_is_alive(w, g_second) &&
                ecs_sched_is_alive(w, g_third));
    assert_true(ecs_sched_get(w, t->entity, t->component) != NULL);
    snprintf(word, sizeof word, "%s:%s", who, t->component == g_pos ? "pos" : "vel");
    trace_add(word);
}

/* The world's end: entity after entity, each with all its components in the order of their
   ids, the entities by archetype table (in the order the tables were made) and row; nothing
   is gone until every observer has run. */
static void destroying_the_world_calls_on_remove_entity_by_entity_in_table_order(void **state) {
    ecs_sched_world *w = observed_world();
    (void)state;
    observe(w, "v", ECS_SCHED_ON_REMOVE, g_vel, trace_removal_at_end);
    observe(w, "p", ECS_SCHED_ON_REMOVE, g_pos, trace_removal_at_end);
    g_third = ecs_sched_spawn_with(w, 1, &g_vel, NULL);
    g_first = ecs_sched_spawn_with(w, 2, (const ecs_sched_id[]){g_pos, g_vel}, NULL);
    g_second = ecs_sched_spawn_with(w, 1, &g_vel, NULL);
    check_and_destroy(w);
    assert_string_equal(g_trace, "third:vel second:vel first:pos first:vel");
}

/* A plain entity, a prefab and a disabled entity, each given a Position: the trace says who
   was heard of. */
static void insert_on_plain_prefab_and_disabled(ecs_sched_world *w) {
    Position plain = {1, 0}, prefab = {2, 0}, disabled = {3, 0};
    ecs_sched_entity e = ecs_sched_spawn(w), p = ecs_sched_spawn(w), d = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_insert(w, p, ecs_sched_prefab_tag(w), NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_disable(w, d), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(w, e, g_pos, &plain), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(w, p, g_pos, &prefab), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(w, d, g_pos, &disabled), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, d), ECS_SCHED_OK);
}

static void an_observer_does_not_hear_of_prefabs_and_disabled_entities(void **state) {
    ecs_sched_world *w = observed_world();
    (void)state;
    observe(w, "i", ECS_SCHED_ON_INSERT, g_pos, trace_event);
    observe(w, "r", ECS_SCHED_ON_REMOVE, g_pos, trace_event);
    observe(w, "d", ECS_SCHED_ON_DESPAWN, 0, trace_event);
    insert_on_plain_prefab_and_disabled(w);
    assert_string_equal(g_trace, "i:insert=1");
    check_and_destroy(w);
}

static void an_observer_asking_for_prefabs_or_disabled_entities_hears_of_them_too(void **state) {
    ecs_sched_world *w = observed_world();
    ecs_sched_observer_desc d;
    (void)state;
    memset(&d, 0, sizeof d);
    d.event = ECS_SCHED_ON_INSERT;
    d.component = g_pos;
    d.fn = trace_event;
    d.name = "prefabs";
    d.sees_prefabs = true;
    assert_true(ecs_sched_observer_add(w, &d) != 0);
    d.name = "disabled";
    d.sees_prefabs = false;
    d.sees_disabled = true;
    assert_true(ecs_sched_observer_add(w, &d) != 0);
    insert_on_plain_prefab_and_disabled(w);
    assert_string_equal(g_trace, "prefabs:insert=1 disabled:insert=1 prefabs:insert=2 disabled:insert=3");
    check_and_destroy(w);
}

static void an_observer_naming_the_prefab_or_disabled_tag_hears_of_those_entities(void **state) {
    ecs_sched_world *w = observed_world();
    ecs_sched_observer_desc d;
    (void)state;
    memset(&d, 0, sizeof d);
    d.event = ECS_SCHED_ON_INSERT;
    d.component = g_pos;
    d.fn = trace_event;
    d.name = "prefabs";
    d.with[0] = ecs_sched_prefab_tag(w);
    assert_true(ecs_sched_observer_add(w, &d) != 0);
    observe(w, "disabling", ECS_SCHED_ON_ADD, ecs_sched_disabled_tag(w), trace_event);
    observe(w, "enabling", ECS_SCHED_ON_REMOVE, ecs_sched_disabled_tag(w), trace_event);
    insert_on_plain_prefab_and_disabled(w);
    assert_string_equal(g_trace, "disabling:add prefabs:insert=2 enabling:remove");
    check_and_destroy(w);
}

/* ---- descs refused, each with the reason named ---- */

static void observed_nothing(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    (void)ctx;
    (void)t;
}

static ecs_sched_observer_desc desc_of(const char *name, ecs_sched_observer_event event,
                                       ecs_sched_id component) {
    ecs_sched_observer_desc d;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.event = event;
    d.component = component;
    d.fn = observed_nothing;
    return d;
}

static void expect_refused(ecs_sched_world *w, const ecs_sched_observer_desc *d,
                           ecs_sched_result code, const char *words) {
    assert_int_equal(ecs_sched_observer_add(w, d), 0);
    assert_int_equal(ecs_sched_last_result(w), code);
    assert_non_null(strstr(ecs_sched_last_error(w), words));
}

static void an_observer_without_a_valid_event_is_refused_by_name(void **state) {
    ecs_sched_world *w = observed_world();
    ecs_sched_observer_desc d = desc_of("lost", (ecs_sched_observer_event)0, g_pos);
    (void)state;
    expect_refused(w, &d, ECS_SCHED_ERR_INVALID_ARGUMENT, "observer 'lost' has no event");
    d.event = (ecs_sched_observer_event)(ECS_SCHED_ON_EVENT + 1);
    expect_refused(w, &d, ECS_SCHED_ERR_INVALID_ARGUMENT, "observer 'lost' has no event");
    d = desc_of(NULL, ECS_SCHED_ON_ADD, g_pos);
    d.fn = NULL;
    expect_refused(w, &d, ECS_SCHED_ERR_INVALID_ARGUMENT, "observer 'observer' has no function");
    assert_int_equal(ecs_sched_observer_add(w, NULL), 0);
    assert_non_null(strstr(ecs_sched_last_error(w), "observer 'observer' has no function"));
    check_and_destroy(w);
}

static void an_event_observer_with_a_query_or_yielding_existing_entities_is_refused(void **state) {
    ecs_sched_world *w = observed_world();
    ecs_sched_observer_desc d = desc_of("shout", ECS_SCHED_ON_EVENT, 0);
    (void)state;
    d.query.terms[0] = ecs_sched_read(g_pos);
    expect_refused(w, &d, ECS_SCHED_ERR_INVALID_ARGUMENT, "observer 'shout' hears an event");
    memset(&d.query, 0, sizeof d.query);
    d.component = g_tag;
    d.yield_existing = true;
    expect_refused(w, &d, ECS_SCHED_ERR_INVALID_ARGUMENT, "observer 'shout' hears an event");
    check_and_destroy(w);
}

static void a_despawn_observer_with_a_component_is_refused(void **state) {
    ecs_sched_world *w = observed_world();
    ecs_sched_observer_desc d = desc_of("gone", ECS_SCHED_ON_DESPAWN, g_pos);
    (void)state;
    expect_refused(w, &d, ECS_SCHED_ERR_INVALID_ARGUMENT,
                   "observer 'gone' watches ON_DESPAWN, an event of entities");
    check_and_destroy(w);
}

typedef struct { int damage; } Hit;

static void an_observer_of_a_message_type_is_refused(void **state) {
    ecs_sched_world *w = observed_world();
    ecs_sched_id hit = ECS_SCHED_MESSAGE(w, Hit);
    ecs_sched_observer_desc d = desc_of("hits", ECS_SCHED_ON_ADD, hit);
    (void)state;
    assert_true(hit != 0);
    expect_refused(w, &d, ECS_SCHED_ERR_INVALID_ARGUMENT,
                   "observer 'hits' watches 'Hit', a message type");
    check_and_destroy(w);
}

static void yielding_existing_sparse_or_related_entities_is_refused_with_what_they_are(void **state) {
    ecs_sched_world *w = observed_world();
    ecs_sched_id sparse = ECS_SCHED_SPARSE_COMPONENT(w, Score);
    ecs_sched_relation_desc rd;
    ecs_sched_id likes;
    ecs_sched_observer_desc d = desc_of("old", ECS_SCHED_ON_ADD, sparse);
    (void)state;
    memset(&rd, 0, sizeof rd);
    rd.name = "Likes";
    likes = ecs_sched_relation_register(w, &rd);
    assert_true(likes != 0);
    d.yield_existing = true;
    expect_refused(w, &d, ECS_SCHED_ERR_INVALID_ARGUMENT, "'Score', a sparse component");
    d.component = likes;
    d.event = ECS_SCHED_ON_INSERT;
    expect_refused(w, &d, ECS_SCHED_ERR_INVALID_ARGUMENT, "'Likes', a relationship kind");
    d.event = ECS_SCHED_ON_REMOVE;
    expect_refused(w, &d, ECS_SCHED_ERR_INVALID_ARGUMENT, "asks to yield existing entities");
    check_and_destroy(w);
}

static void a_filter_on_an_unknown_component_is_refused_with_its_id(void **state) {
    ecs_sched_world *w = observed_world();
    ecs_sched_observer_desc d = desc_of("picky", ECS_SCHED_ON_ADD, g_pos);
    (void)state;
    d.with[0] = g_vel;
    d.with[1] = 4000;
    expect_refused(w, &d, ECS_SCHED_ERR_UNKNOWN_COMPONENT,
                   "observer 'picky' filters on component id 4000");
    d.with[1] = 0;
    d.without[1] = 4001;
    expect_refused(w, &d, ECS_SCHED_ERR_UNKNOWN_COMPONENT,
                   "observer 'picky' filters on component id 4001");
    d.without[1] = g_tag;
    assert_true(ecs_sched_observer_add(w, &d) != 0);
    check_and_destroy(w);
}

static void an_observer_with_a_query_both_as_text_and_as_terms_is_refused(void **state) {
    ecs_sched_world *w = observed_world();
    ecs_sched_observer_desc d = desc_of("both", ECS_SCHED_ON_ADD, 0);
    (void)state;
    d.query.terms[0] = ecs_sched_read(g_pos);
    d.query_text = "Position";
    expect_refused(w, &d, ECS_SCHED_ERR_INVALID_ARGUMENT,
                   "observer 'both' has both .query_text and .query");
    check_and_destroy(w);
}

static void removing_an_observer_twice_says_it_is_not_one(void **state) {
    ecs_sched_world *w = observed_world();
    uint32_t id = observe(w, "once", ECS_SCHED_ON_ADD, g_pos, observed_nothing);
    (void)state;
    assert_int_equal(ecs_sched_observer_remove(w, id), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_observer_remove(w, id), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "is not an observer of this world"));
    assert_int_equal(ecs_sched_observer_remove(w, 12345), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "observer_remove: 12345"));
    check_and_destroy(w);
}

/* ---- queries an observer cannot have, and yielding existing entities selectively ---- */

static void an_observer_query_that_picks_rows_within_a_table_is_refused(void **state) {
    ecs_sched_world *w = observed_world();
    ecs_sched_id tracked = ecs_sched_tracked_component_register_type(w, "Armor", sizeof(int), 0);
    ecs_sched_id sparse = ECS_SCHED_SPARSE_COMPONENT(w, Score);
    ecs_sched_observer_desc d = desc_of("rows", ECS_SCHED_ON_ADD, 0);
    (void)state;
    d.query.terms[0] = ecs_sched_read(g_pos);
    d.query.terms[1] = ecs_sched_changed(tracked);
    expect_refused(w, &d, ECS_SCHED_ERR_INVALID_QUERY,
                   "observer 'rows' has a query with a term that picks rows within a table");
    d.query.terms[1] = ecs_sched_read(sparse);
    expect_refused(w, &d, ECS_SCHED_ERR_INVALID_QUERY, "observer 'rows' has a query with a term");
    d.query.terms[1] = ecs_sched_from_parent(g_vel);
    expect_refused(w, &d, ECS_SCHED_ERR_INVALID_QUERY, "observer 'rows' has a query with a term");
    d.query.terms[1] = ecs_sched_read(g_vel);
    assert_true(ecs_sched_observer_add(w, &d) != 0);
    check_and_destroy(w);
}

static ecs_sched_world *g_yield_world;

static void tag_what_is_yielded(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    trace_event(ctx, t);
    assert_int_equal(ecs_sched_insert(g_yield_world, t->entity, g_tag, NULL), ECS_SCHED_OK);
}

static void yielding_existing_entities_keeps_to_the_filters_and_the_entity(void **state) {
    ecs_sched_world *w = observed_world();
    Position p = {1, 0}, q = {2, 0}, r = {3, 0};
    ecs_sched_entity a = ecs_sched_spawn_with(w, 1, &g_pos, (const void *const[]){&p});
    ecs_sched_entity b = ecs_sched_spawn_with(w, 1, &g_pos, (const void *const[]){&q});
    ecs_sched_entity c = ecs_sched_spawn_with(w, 1, &g_pos, (const void *const[]){&r});
    ecs_sched_observer_desc d = desc_of("unfrozen", ECS_SCHED_ON_ADD, g_pos);
    (void)state;
    g_yield_world = w;
    assert_int_equal(ecs_sched_insert(w, a, g_tag, NULL), ECS_SCHED_OK);
    d.fn = tag_what_is_yielded;
    d.without[0] = g_tag;
    d.yield_existing = true;
    assert_true(ecs_sched_observer_add(w, &d) != 0);
    /* in table order: tagging a moved it out, and c took its row */
    assert_string_equal(g_trace, "unfrozen:add=3 unfrozen:add=2");
    assert_true(ecs_sched_has(w, b, g_tag));   /* what it deferred is applied */
    assert_true(ecs_sched_has(w, c, g_tag));
    g_trace[0] = '\0';
    d = desc_of("only_b", ECS_SCHED_ON_INSERT, g_pos);
    d.fn = trace_event;
    d.entity = b;
    d.yield_existing = true;
    assert_true(ecs_sched_observer_add(w, &d) != 0);
    assert_string_equal(g_trace, "only_b:insert=2");
    check_and_destroy(w);
}

/* ---- monitors of one entity, or filtered ---- */

static ecs_sched_entity g_named[3];

static void note_monitor(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    char word[64];
    const char *who = t->entity == g_named[0] ? "a" : t->entity == g_named[1] ? "b"
                      : t->entity == g_named[2] ? "c" : "?";
    snprintf(word, sizeof word, "%s:%s", ecs_sched_ctx_name(ctx), who);
    trace_add(word);
}

static void monitor(ecs_sched_world *w, const char *name, ecs_sched_observer_event event,
                    ecs_sched_entity entity, ecs_sched_id without) {
    ecs_sched_observer_desc d = desc_of(name, event, 0);
    d.fn = note_monitor;
    d.query.terms[0] = ecs_sched_read(g_pos);
    d.entity = entity;
    d.without[0] = without;
    assert_true(ecs_sched_observer_add(w, &d) != 0);
}

static void monitors_of_one_entity_or_with_filters_hear_only_those(void **state) {
    ecs_sched_world *w = observed_world();
    Position p = {1, 1};
    int i;
    (void)state;
    for (i = 0; i < 3; i++) g_named[i] = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_insert(w, g_named[2], g_tag, NULL), ECS_SCHED_OK);
    monitor(w, "match_a", ECS_SCHED_ON_MATCH, g_named[0], 0);
    monitor(w, "match_free", ECS_SCHED_ON_MATCH, 0, g_tag);
    monitor(w, "unmatch_a", ECS_SCHED_ON_UNMATCH, g_named[0], 0);
    monitor(w, "unmatch_free", ECS_SCHED_ON_UNMATCH, 0, g_tag);
    for (i = 0; i < 3; i++) assert_int_equal(ecs_sched_insert(w, g_named[i], g_pos, &p), ECS_SCHED_OK);
    assert_string_equal(g_trace, "match_a:a match_free:a match_free:b");
    g_trace[0] = '\0';
    assert_int_equal(ecs_sched_remove(w, g_named[2], g_pos), ECS_SCHED_OK);   /* filtered out */
    assert_int_equal(ecs_sched_insert(w, g_named[2], g_pos, &p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, g_named[2]), ECS_SCHED_OK);
    assert_string_equal(g_trace, "");
    assert_int_equal(ecs_sched_despawn(w, g_named[1]), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_remove(w, g_named[0], g_pos), ECS_SCHED_OK);
    assert_string_equal(g_trace, "unmatch_free:b unmatch_a:a unmatch_free:a");
    check_and_destroy(w);
}

static void a_monitor_cannot_hear_ancestors(void **state) {
    ecs_sched_world *w = observed_world();
    ecs_sched_entity e = ecs_sched_spawn(w);
    ecs_sched_observer_desc d = desc_of("up_monitor", ECS_SCHED_ON_MATCH, 0);
    (void)state;
    d.query.terms[0] = ecs_sched_read(g_pos);
    d.entity = e;
    d.up = true;
    expect_refused(w, &d, ECS_SCHED_ERR_INVALID_ARGUMENT, "observer 'up_monitor' asks for its "
                                                          "entity's ancestors' events (.up)");
    d.event = ECS_SCHED_ON_UNMATCH;
    expect_refused(w, &d, ECS_SCHED_ERR_INVALID_ARGUMENT, "(.up)");
    check_and_destroy(w);
}

static uint32_t g_other_observer;
static ecs_sched_result g_removal;

static void remove_another_observer(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    (void)t;
    g_removal = ecs_sched_observer_remove(ecs_sched_ctx_world(ctx), g_other_observer);
}

static void removing_an_observer_inside_an_observer_is_refused(void **state) {
    ecs_sched_world *w = observed_world();
    Position p = {1, 1};
    (void)state;
    g_other_observer = observe(w, "other", ECS_SCHED_ON_ADD, g_vel, trace_event);
    observe(w, "remover", ECS_SCHED_ON_ADD, g_pos, remove_another_observer);
    g_removal = ECS_SCHED_OK;
    ecs_sched_spawn_with(w, 1, &g_pos, (const void *const[]){&p});
    assert_int_equal(g_removal, ECS_SCHED_ERR_ACCESS);
    assert_non_null(strstr(ecs_sched_last_error(w), "removing an observer inside an observer"));
    assert_int_equal(ecs_sched_observer_remove(w, g_other_observer), ECS_SCHED_OK);
    check_and_destroy(w);
}

static void an_observer_filtering_on_the_prefab_tag_hears_prefabs(void **state) {
    ecs_sched_world *w = observed_world();
    ecs_sched_observer_desc d = desc_of("prefabs", ECS_SCHED_ON_ADD, g_pos);
    ecs_sched_entity prefab = ecs_sched_spawn(w), plain = ecs_sched_spawn(w);
    Position p = {4, 0};
    (void)state;
    d.fn = trace_event;
    d.with[0] = ecs_sched_prefab_tag(w);
    assert_true(ecs_sched_observer_add(w, &d) != 0);
    assert_int_equal(ecs_sched_insert(w, prefab, ecs_sched_prefab_tag(w), NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(w, plain, g_pos, &p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(w, prefab, g_pos, &p), ECS_SCHED_OK);
    assert_string_equal(g_trace, "prefabs:add=4");
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(removing_an_observer_inside_an_observer_is_refused),
        cmocka_unit_test(an_observer_filtering_on_the_prefab_tag_hears_prefabs),
        cmocka_unit_test(monitors_of_one_entity_or_with_filters_hear_only_those),
        cmocka_unit_test(a_monitor_cannot_hear_ancestors),
        cmocka_unit_test(an_observer_query_that_picks_rows_within_a_table_is_refused),
        cmocka_unit_test(yielding_existing_entities_keeps_to_the_filters_and_the_entity),
        cmocka_unit_test(an_observer_without_a_valid_event_is_refused_by_name),
        cmocka_unit_test(an_event_observer_with_a_query_or_yielding_existing_entities_is_refused),
        cmocka_unit_test(a_despawn_observer_with_a_component_is_refused),
        cmocka_unit_test(an_observer_of_a_message_type_is_refused),
        cmocka_unit_test(yielding_existing_sparse_or_related_entities_is_refused_with_what_they_are),
        cmocka_unit_test(a_filter_on_an_unknown_component_is_refused_with_its_id),
        cmocka_unit_test(an_observer_with_a_query_both_as_text_and_as_terms_is_refused),
        cmocka_unit_test(removing_an_observer_twice_says_it_is_not_one),
        cmocka_unit_test(adding_a_component_calls_on_add_then_on_insert_and_an_overwrite_on_insert),
        cmocka_unit_test(on_remove_runs_before_the_value_goes_and_despawn_comes_first),
        cmocka_unit_test(observers_of_one_event_run_in_the_order_they_were_added),
        cmocka_unit_test(with_and_without_filter_the_entities_an_observer_hears_of),
        cmocka_unit_test(a_batch_spawn_calls_the_observers_for_each_entity),
        cmocka_unit_test(structural_changes_inside_an_observer_happen_after_the_operation),
        cmocka_unit_test(a_batch_spawned_inside_an_observer_is_spawned_after_the_operation),
        cmocka_unit_test(an_observers_commands_are_applied_after_the_operation),
        cmocka_unit_test(deferred_changes_call_observers_in_turn),
        cmocka_unit_test(observers_hear_each_command_of_a_buffer_in_order),
        cmocka_unit_test(running_a_schedule_inside_an_observer_is_refused),
        cmocka_unit_test(running_an_empty_schedule_inside_an_observer_is_refused_too),
        cmocka_unit_test(adding_an_observer_while_observers_run_is_refused),
        cmocka_unit_test(a_failing_observer_outside_systems_leaves_its_name_in_the_last_error),
        cmocka_unit_test(a_failing_observer_fails_the_system_that_made_the_change),
        cmocka_unit_test(removing_an_observer_twice_is_an_error),
        cmocka_unit_test(an_observer_of_an_unknown_component_is_refused),
        cmocka_unit_test(destroying_the_world_calls_on_remove_for_what_is_left),
        cmocka_unit_test(an_on_add_observer_runs_after_the_value_is_written_and_its_write_wins),
        cmocka_unit_test(destroying_the_world_calls_on_remove_entity_by_entity_in_table_order),
        cmocka_unit_test(an_observer_does_not_hear_of_prefabs_and_disabled_entities),
        cmocka_unit_test(an_observer_asking_for_prefabs_or_disabled_entities_hears_of_them_too),
        cmocka_unit_test(an_observer_naming_the_prefab_or_disabled_tag_hears_of_those_entities),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
