/* The examples of the stageless scheduling RFC, written against this library: the physics
   plugin's nested, ordered sets; the projectile chain with apply_deferred; ordering against a
   name several instances share and the fixes the RFC suggests; the listed build errors; the
   conditions examples; exclusive systems that loop over schedules and run state transitions. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "schedule_fixture.h"

/* ---- the physics plugin ---- */

static void add_physics_plugin(ecs_sched_world *w, const char *schedule) {
    const ecs_sched_set_desc sets[] = {
        {.name = "FixedAfterInput", .in_set = {"CoreFixedUpdate"}, .after = {"ReadInputHandling"}},
        {.name = "ComputeForces", .in_set = {"FixedAfterInput"}, .before = {"DetectCollisions"}},
        {.name = "DetectCollisions", .in_set = {"FixedAfterInput"}, .before = {"HandleCollisions"}},
        {.name = "HandleCollisions", .in_set = {"FixedAfterInput"}},
    };
    size_t i;
    for (i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        assert_int_equal(ecs_sched_configure_set(w, schedule, &sets[i]), ECS_SCHED_OK);
    }
    /* added in an order that the configuration, not insertion, has to fix */
    assert_int_equal(ecs_sched_add_system(w, schedule, &(ecs_sched_system_desc){
                                              .name = "collision_damage", .fn = record,
                                              .in_set = {"HandleCollisions"}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_systems(w, schedule, &(ecs_sched_systems_desc){
                                               .systems = (ecs_sched_system_desc[]){
                                                   {.name = "broad_pass", .fn = record},
                                                   {.name = "narrow_pass", .fn = record},
                                                   {.name = "solve_constraints", .fn = record}},
                                               .count = 3, .chain = true,
                                               .in_set = {"DetectCollisions"}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, schedule, &(ecs_sched_system_desc){
                                              .name = "gravity", .fn = record,
                                              .in_set = {"ComputeForces"}}),
                     ECS_SCHED_OK);
}

static void add_input_plugin(ecs_sched_world *w, const char *schedule) {
    assert_int_equal(ecs_sched_configure_set(w, schedule, &(ecs_sched_set_desc){
                                                 .name = "ReadInputHandling", .in_set = {"CoreFixedUpdate"}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, schedule, &(ecs_sched_system_desc){
                                              .name = "read_input", .fn = record,
                                              .in_set = {"ReadInputHandling"}}),
                     ECS_SCHED_OK);
}

#define PHYSICS_ORDER "read_input gravity broad_pass narrow_pass solve_constraints collision_damage"

static void physics_plugin_runs_forces_then_detection_then_handling_after_input(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    add_physics_plugin(w, "FixedUpdate");
    add_input_plugin(w, "FixedUpdate");
    assert_string_equal(plan_of(w, "FixedUpdate"), PHYSICS_ORDER);
    assert_int_equal(ecs_sched_run_schedule(w, "FixedUpdate"), ECS_SCHED_OK);
    assert_string_equal(g_trace, PHYSICS_ORDER);
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void physics_plugin_order_does_not_depend_on_the_shuffle_seed(void **state) {
    ecs_sched_world *w = new_world();
    uint64_t seed;
    (void)state;
    add_input_plugin(w, "FixedUpdate");
    add_physics_plugin(w, "FixedUpdate");
    for (seed = 1; seed <= 20; seed++) {
        assert_int_equal(ecs_sched_schedule_configure(w, "FixedUpdate", &(ecs_sched_schedule_desc){
                                                          .shuffle_seed = seed}),
                         ECS_SCHED_OK);
        assert_string_equal(plan_of(w, "FixedUpdate"), PHYSICS_ORDER);
    }
    check_and_destroy(w);
}

/* ---- projectiles: apply_deferred between the despawns and the forks ---- */

typedef struct { int id; } Projectile;

static ecs_sched_id g_projectile;

static void spawn_projectiles(ecs_sched_system_ctx *ctx) {
    ecs_sched_commands *cmd = ecs_sched_ctx_commands(ctx);
    int i;
    for (i = 0; i < 4; i++) {
        Projectile p;
        const void *value = &p;
        p.id = i;
        ecs_sched_commands_spawn_with(cmd, 1, &g_projectile, &value);
    }
    trace_add("spawn");
}

static void trace_count(const char *label, ecs_sched_system_ctx *ctx) {
    char entry[64];
    snprintf(entry, sizeof entry, "%s=%d", label, (int)ecs_sched_query_count(ecs_sched_ctx_query(ctx, 0)));
    trace_add(entry);
}

static void check_if_projectiles_hit(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        Projectile *p = ECS_SCHED_FIELD(&it, Projectile, 0);
        int32_t i;
        for (i = 0; i < it.count; i++) {
            if (p[i].id % 2 == 0) p[i].id = -1; /* hit */
        }
    }
    trace_count("check", ctx);
}

static void despawn_projectiles_that_hit(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    ecs_sched_commands *cmd = ecs_sched_ctx_commands(ctx);
    while (ecs_sched_iter_next(&it)) {
        const Projectile *p = ECS_SCHED_FIELD(&it, Projectile, 0);
        int32_t i;
        for (i = 0; i < it.count; i++) {
            if (p[i].id == -1) ecs_sched_commands_despawn(cmd, it.entities[i]);
        }
    }
    trace_count("despawn", ctx);
}

static void fork_projectiles(ecs_sched_system_ctx *ctx) {
    trace_count("fork", ctx);
}

static void projectiles_are_forked_after_the_despawns_are_applied(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_projectile = ECS_SCHED_COMPONENT(w, Projectile);
    CONFIGURE_SET(w, .name = "FlushPostUpdate", .before = {"FlushLast"});
    ADD_SYSTEM(w, .fn = ecs_sched_apply_deferred, .in_set = {"FlushPostUpdate"});
    ADD_SYSTEM(w, .fn = ecs_sched_apply_deferred, .in_set = {"FlushLast"});
    ADD_SYSTEM(w, .name = "spawn_projectiles", .fn = spawn_projectiles, .commands = true,
               .before = {"FlushPostUpdate"});
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "check_if_projectiles_hit",
                                       .fn = check_if_projectiles_hit,
                                       .queries = {{{ecs_sched_write(g_projectile)}}}},
                                      {.name = "despawn_projectiles_that_hit",
                                       .fn = despawn_projectiles_that_hit, .commands = true,
                                       .queries = {{{ecs_sched_read(g_projectile)}}}},
                                      {.fn = ecs_sched_apply_deferred},
                                      {.name = "fork_projectiles", .fn = fork_projectiles,
                                       .queries = {{{ecs_sched_read(g_projectile)}}}}),
                .count = 4, .chain = true, .after = {"FlushPostUpdate"}, .before = {"FlushLast"});
    assert_string_equal(plan_of(w, UPDATE),
                        "spawn_projectiles apply_deferred check_if_projectiles_hit "
                        "despawn_projectiles_that_hit apply_deferred fork_projectiles apply_deferred");
    assert_run_traces(w, "spawn check=4 despawn=4 fork=2");
    assert_int_equal(ecs_sched_entity_count(w), 2);
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

/* ---- apply_system_buffers ordered by its name ---- */

static ecs_sched_id g_position;

static void generates_commands(ecs_sched_system_ctx *ctx) {
    ecs_sched_commands_spawn_with(ecs_sched_ctx_commands(ctx), 1, &g_position, NULL);
    trace_add("generate");
}

static void relies_on_commands(ecs_sched_system_ctx *ctx) {
    trace_count("rely", ctx);
}

static void add_user_flush_systems(ecs_sched_world *w, const char *flush_name) {
    ADD_SYSTEM(w, .name = flush_name, .fn = ecs_sched_apply_deferred);
    ADD_SYSTEM(w, .name = "generates_commands", .fn = generates_commands, .commands = true,
               .before = {flush_name});
    ADD_SYSTEM(w, .name = "relies_on_commands", .fn = relies_on_commands, .after = {flush_name},
               .queries = {{{ecs_sched_read(g_position)}}});
}

static void single_apply_deferred_can_be_ordered_against_by_name(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_position = ECS_SCHED_COMPONENT(w, Projectile);
    add_user_flush_systems(w, "apply_deferred");
    assert_string_equal(plan_of(w, UPDATE), "generates_commands apply_deferred relies_on_commands");
    assert_run_traces(w, "generate rely=1");
    check_and_destroy(w);
}

static void add_plugin_set_with_anonymous_flush(ecs_sched_world *w) {
    CONFIGURE_SET(w, .name = "X", .before = {"generates_commands"});
    ADD_SYSTEM(w, .fn = ecs_sched_apply_deferred, .in_set = {"X"});
}

static void second_anonymous_apply_deferred_makes_name_ordering_an_error(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_position = ECS_SCHED_COMPONENT(w, Projectile);
    add_plugin_set_with_anonymous_flush(w);
    add_user_flush_systems(w, "apply_deferred");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_DUPLICATE_NAME);
    assert_contains(ecs_sched_last_error(w), "'apply_deferred'");
    assert_string_equal(g_trace, "");
    check_and_destroy(w);
}

static void naming_the_users_apply_deferred_resolves_the_clash(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_position = ECS_SCHED_COMPONENT(w, Projectile);
    add_plugin_set_with_anonymous_flush(w);
    add_user_flush_systems(w, "my_flush");
    assert_string_equal(plan_of(w, UPDATE),
                        "apply_deferred generates_commands my_flush relies_on_commands");
    assert_run_traces(w, "generate rely=1");
    check_and_destroy(w);
}

/* ---- ordering against a name several instances share ---- */

static void foo_foo_bar_after_foo_is_an_error(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "foo", .fn = record);
    ADD_SYSTEM(w, .name = "foo", .fn = record);
    ADD_SYSTEM(w, .name = "bar", .fn = record, .after = {"foo"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_DUPLICATE_NAME);
    assert_contains(ecs_sched_last_error(w), "'foo'");
    assert_contains(ecs_sched_last_error(w), "set");
    check_and_destroy(w);
}

static void foo_added_later_after_baz_does_not_silently_delay_bar(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "foo", .fn = record);
    ADD_SYSTEM(w, .name = "bar", .fn = record, .after = {"foo"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    /* later, maybe in another plugin */
    ADD_SYSTEM(w, .name = "foo", .fn = record, .after = {"baz"});
    ADD_SYSTEM(w, .name = "baz", .fn = record);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_DUPLICATE_NAME);
    assert_contains(ecs_sched_last_error(w), "'foo'");
    check_and_destroy(w);
}

static void foo_in_set_x_and_bar_after_x_is_the_fix(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "foo", .fn = record, .user_data = "foo");
    ADD_SYSTEM(w, .name = "foo", .fn = record, .user_data = "foo_in_X", .in_set = {"X"});
    ADD_SYSTEM(w, .name = "bar", .fn = record, .after = {"X"});
    assert_run_traces(w, "foo foo_in_X bar");
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void chaining_foo_and_bar_is_the_fix(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "foo", .fn = record);
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "foo", .fn = record}, {.name = "bar", .fn = record}),
                .count = 2, .chain = true);
    assert_run_traces(w, "foo foo bar");
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void rotating_bar_after_foo_into_foo_before_bar_is_the_fix(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "foo", .fn = record);
    ADD_SYSTEM(w, .name = "bar", .fn = record);
    ADD_SYSTEM(w, .name = "foo", .fn = record, .before = {"bar"});
    assert_run_traces(w, "foo foo bar");
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

/* ---- the listed build errors ---- */

static void a_before_and_after_b_is_unsolvable(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "A", .fn = record, .before = {"B"});
    ADD_SYSTEM(w, .name = "A_again", .fn = record);
    ADD_SYSTEM(w, .name = "B", .fn = record, .before = {"A"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    assert_contains(ecs_sched_last_error(w), "system 'A' runs before system 'B'");
    assert_contains(ecs_sched_last_error(w), "system 'B' runs before system 'A'");
    check_and_destroy(w);
}

static void a_cannot_be_parent_and_grandparent_of_c(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    CONFIGURE_SET(w, .name = "A");
    CONFIGURE_SET(w, .name = "B", .in_set = {"A"});
    CONFIGURE_SET(w, .name = "C", .in_set = {"B"});
    CONFIGURE_SET(w, .name = "C", .in_set = {"A"});
    assert_int_equal(ecs_sched_schedule_build(w, UPDATE), ECS_SCHED_ERR_HIERARCHY_REDUNDANT);
    assert_contains(ecs_sched_last_error(w), "set 'C' is in set 'A' directly and also through set 'B'");
    check_and_destroy(w);
}

/* ---- conditions: construction timer, resource helpers ---- */

typedef struct { int remaining; } ConstructionTimer;
typedef struct { int paused; } Paused;
typedef struct { int level; } Difficulty;
typedef struct { float value; } Gravity;

static ecs_sched_id g_timer, g_difficulty;

static void tick_construction_timer(ecs_sched_system_ctx *ctx) {
    ConstructionTimer *timer = (ConstructionTimer *)ecs_sched_ctx_resource_mut(ctx, g_timer);
    timer->remaining--;
    trace_add("tick");
}

static bool construction_timer_not_finished(ecs_sched_system_ctx *ctx) {
    const ConstructionTimer *timer = (const ConstructionTimer *)ecs_sched_ctx_resource(ctx, g_timer);
    return timer->remaining > 0;
}

static bool difficulty_at_least_9000(ecs_sched_system_ctx *ctx) {
    const Difficulty *d = (const Difficulty *)ecs_sched_ctx_resource(ctx, g_difficulty);
    return d->level >= 9000;
}

static void conditions_example_runs_what_its_conditions_allow(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id paused, gravity;
    ConstructionTimer timer = {2};
    Paused running = {0}, stopped = {1};
    Difficulty easy = {1}, hard = {9001};
    (void)state;
    g_timer = ECS_SCHED_COMPONENT(w, ConstructionTimer);
    g_difficulty = ECS_SCHED_COMPONENT(w, Difficulty);
    paused = ECS_SCHED_COMPONENT(w, Paused);
    gravity = ECS_SCHED_COMPONENT(w, Gravity);
    ecs_sched_resource_insert(w, g_timer, &timer);
    ecs_sched_resource_insert(w, paused, &running);
    ecs_sched_resource_insert(w, g_difficulty, &easy);
    CONFIGURE_SET(w, .name = "Construction",
                  .run_if = {&(ecs_sched_condition){.name = "construction_timer_not_finished",
                              .fn = construction_timer_not_finished, .reads = {g_timer}}});
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "tick_construction_timer",
                                       .fn = tick_construction_timer, .writes = {g_timer}},
                                      {.name = "update_construction_progress", .fn = record}),
                .count = 2, .chain = true, .in_set = {"Construction"});
    ADD_SYSTEM(w, .name = "spawn_more_enemies", .fn = record,
               .run_if = {&(ecs_sched_condition){.fn = difficulty_at_least_9000, .reads = {g_difficulty}}});
    ADD_SYSTEM(w, .name = "gravity", .fn = record, .in_set = {"Physics"},
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_resource_exists(gravity))});
    CONFIGURE_SET(w, .name = "Physics",
                  .run_if = {ECS_SCHED_COND(ecs_sched_condition_resource_equals(paused, &running, sizeof running))});

    assert_run_traces(w, "tick update_construction_progress");

    g_trace[0] = '\0';
    ecs_sched_resource_insert(w, g_difficulty, &hard);
    ecs_sched_resource_insert(w, gravity, NULL);
    assert_run_traces(w, "tick update_construction_progress spawn_more_enemies gravity");

    g_trace[0] = '\0';
    ecs_sched_resource_insert(w, paused, &stopped);
    assert_run_traces(w, "spawn_more_enemies"); /* timer finished, physics paused */
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

/* ---- the first example: a menu set under a state, conditions on systems, a chain ---- */

typedef struct { int state; } GameState;
typedef struct { int value; } Value;

enum { RUNNING, PAUSED };

static ecs_sched_id g_value;

static bool some_condition_system(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    trace_add("some_condition");
    return true;
}

static bool value_over_9000(ecs_sched_system_ctx *ctx) {
    const Value *v = (const Value *)ecs_sched_ctx_resource(ctx, g_value);
    return v->value > 9000;
}

static void menu_example_runs_only_while_paused(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game_state;
    GameState paused = {PAUSED}, running = {RUNNING};
    Value big = {9001};
    (void)state;
    game_state = ECS_SCHED_COMPONENT(w, GameState);
    g_value = ECS_SCHED_COMPONENT(w, Value);
    ecs_sched_resource_insert(w, game_state, &running);
    ecs_sched_resource_insert(w, g_value, &big);
    CONFIGURE_SET(w, .name = "Menu", .in_set = {"Update"},
                  .run_if = {ECS_SCHED_COND(ecs_sched_condition_resource_equals(game_state, &paused, sizeof paused))});
    ADD_SYSTEM(w, .name = "some_system", .fn = record, .user_data = "some_system#1", .in_set = {"Menu"},
               .run_if = {&(ecs_sched_condition){.fn = some_condition_system},
                          &(ecs_sched_condition){.fn = value_over_9000, .reads = {g_value}}});
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "some_system", .fn = record,
                                       .user_data = "some_system#2"},
                                      {.fn = ecs_sched_apply_deferred}),
                .count = 2, .chain = true, .in_set = {"Menu"}, .after = {"some_other_system"});
    ADD_SYSTEM(w, .name = "some_other_system", .fn = record, .in_set = {"Menu"});

    assert_run_traces(w, "");
    ecs_sched_resource_insert(w, game_state, &paused);
    assert_run_traces(w, "some_condition some_system#1 some_other_system some_system#2");
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

/* ---- exclusive systems run schedules: loops and state transitions ---- */

static int g_rounds_left;

static void fancy_exclusive_system(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *world = ecs_sched_ctx_world(ctx);
    while (g_rounds_left-- > 0) {
        assert_int_equal(ecs_sched_run_schedule(world, "MySchedule"), ECS_SCHED_OK);
    }
}

static void exclusive_system_loops_over_a_schedule(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(ecs_sched_add_systems(w, "MySchedule", &(ecs_sched_systems_desc){
                                               .systems = (ecs_sched_system_desc[]){
                                                   {.name = "apply_forces", .fn = record},
                                                   {.name = "apply_acceleration", .fn = record},
                                                   {.name = "apply_velocity", .fn = record}},
                                               .count = 3, .chain = true}),
                     ECS_SCHED_OK);
    ADD_SYSTEM(w, .name = "fancy_exclusive_system", .fn = fancy_exclusive_system, .exclusive = true);
    g_rounds_left = 2;
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(count_of(g_trace, "apply_forces apply_acceleration apply_velocity"), 2);
    g_rounds_left = 0;
    g_trace[0] = '\0';
    assert_run_traces(w, "");
    check_and_destroy(w);
}

typedef struct { int value; } CurrentState;
typedef struct { int pending; int value; } NextState;

static ecs_sched_id g_current, g_next;

static const char *const g_on_enter[] = {"OnEnter(Menu)", "OnEnter(Playing)"};
static const char *const g_on_exit[] = {"OnExit(Menu)", "OnExit(Playing)"};

static void apply_state_transition(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *world = ecs_sched_ctx_world(ctx);
    NextState *next = (NextState *)ecs_sched_resource_get_mut(world, g_next);
    CurrentState *current = (CurrentState *)ecs_sched_resource_get_mut(world, g_current);
    int old;
    if (!next->pending) return;
    next->pending = 0;
    old = current->value;
    current->value = next->value;
    if (ecs_sched_schedule_exists(world, g_on_exit[old])) ecs_sched_run_schedule(world, g_on_exit[old]);
    if (ecs_sched_schedule_exists(world, g_on_enter[current->value])) {
        ecs_sched_run_schedule(world, g_on_enter[current->value]);
    }
}

static void state_transition_runs_exit_then_enter_schedules(void **state) {
    ecs_sched_world *w = new_world();
    CurrentState menu = {0};
    NextState none = {0, 0}, to_playing = {1, 1};
    (void)state;
    g_current = ECS_SCHED_COMPONENT(w, CurrentState);
    g_next = ECS_SCHED_COMPONENT(w, NextState);
    ecs_sched_resource_insert(w, g_current, &menu);
    ecs_sched_resource_insert(w, g_next, &none);
    assert_int_equal(ecs_sched_add_system(w, "OnExit(Menu)", &(ecs_sched_system_desc){
                                              .name = "close_menu", .fn = record}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, "OnEnter(Playing)", &(ecs_sched_system_desc){
                                              .name = "load_map", .fn = record}),
                     ECS_SCHED_OK);
    ADD_SYSTEM(w, .name = "apply_state_transition", .fn = apply_state_transition, .exclusive = true);
    ADD_SYSTEM(w, .name = "run", .fn = record, .after = {"apply_state_transition"},
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_resource_equals(g_current, &to_playing.value, sizeof(int)))});
    assert_run_traces(w, "");
    ecs_sched_resource_insert(w, g_next, &to_playing);
    assert_run_traces(w, "close_menu load_map run");
    assert_run_traces(w, "close_menu load_map run run");
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(physics_plugin_runs_forces_then_detection_then_handling_after_input),
        cmocka_unit_test(physics_plugin_order_does_not_depend_on_the_shuffle_seed),
        cmocka_unit_test(projectiles_are_forked_after_the_despawns_are_applied),
        cmocka_unit_test(single_apply_deferred_can_be_ordered_against_by_name),
        cmocka_unit_test(second_anonymous_apply_deferred_makes_name_ordering_an_error),
        cmocka_unit_test(naming_the_users_apply_deferred_resolves_the_clash),
        cmocka_unit_test(foo_foo_bar_after_foo_is_an_error),
        cmocka_unit_test(foo_added_later_after_baz_does_not_silently_delay_bar),
        cmocka_unit_test(foo_in_set_x_and_bar_after_x_is_the_fix),
        cmocka_unit_test(chaining_foo_and_bar_is_the_fix),
        cmocka_unit_test(rotating_bar_after_foo_into_foo_before_bar_is_the_fix),
        cmocka_unit_test(a_before_and_after_b_is_unsolvable),
        cmocka_unit_test(a_cannot_be_parent_and_grandparent_of_c),
        cmocka_unit_test(conditions_example_runs_what_its_conditions_allow),
        cmocka_unit_test(menu_example_runs_only_while_paused),
        cmocka_unit_test(exclusive_system_loops_over_a_schedule),
        cmocka_unit_test(state_transition_runs_exit_then_enter_schedules),
    };
    return cmocka_run_group_tests_name("schedule RFC examples", tests, NULL, destroy_leftover_world);
}
