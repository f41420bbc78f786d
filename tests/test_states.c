/* State machines: registration, queuing, applying transitions (OnExit, OnTransition,
   OnEnter), the state conditions, and the errors that name the machine and the value. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "schedule_fixture.h"

enum { MENU, PLAYING, PAUSED };
enum { DAY, NIGHT };

#define TRANSITIONS "StateTransition"

static ecs_sched_id game_state(ecs_sched_world *w) {
    ecs_sched_id id = ecs_sched_state_register(
        w, &(ecs_sched_state_desc){.name = "GameState", .values = {"Menu", "Playing", "Paused"}});
    assert_true(id != 0);
    return id;
}

static ecs_sched_id daylight(ecs_sched_world *w) {
    ecs_sched_id id = ecs_sched_state_register(
        w, &(ecs_sched_state_desc){.name = "Daylight", .values = {"Day", "Night"}, .initial = NIGHT});
    assert_true(id != 0);
    return id;
}

/* The schedule "StateTransition" with one apply system for every machine. */
static void add_apply(ecs_sched_world *w) {
    ecs_sched_system_desc apply = ecs_sched_state_transitions_system(0);
    assert_int_equal(ecs_sched_add_system(w, TRANSITIONS, &apply), ECS_SCHED_OK);
}

static void apply(ecs_sched_world *w) {
    assert_int_equal(ecs_sched_run_schedule(w, TRANSITIONS), ECS_SCHED_OK);
}

/* ---- registration ---- */

static void a_registered_machine_has_no_value_before_the_first_apply(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    assert_int_equal(ecs_sched_state_get(w, game), ECS_SCHED_STATE_NONE);
    assert_false(ecs_sched_resource_exists(w, game));
    assert_true(ecs_sched_state_next_id(w, game) != 0);
    assert_true(ecs_sched_state_next_id(w, game) != game);
    assert_string_equal(ecs_sched_state_value_name(w, game, PAUSED), "Paused");
    assert_string_equal(ecs_sched_component_name(w, game), "State(GameState)");
    check_and_destroy(w);
}

static void registering_the_same_machine_again_gives_the_same_id(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    assert_int_equal(game_state(w), game);
    assert_true(daylight(w) != game);
    check_and_destroy(w);
}

static void a_name_registered_again_with_other_values_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    game_state(w);
    assert_int_equal(ecs_sched_state_register(w, &(ecs_sched_state_desc){
                                                     .name = "GameState",
                                                     .values = {"Menu", "Playing"}}),
                     0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_STATE_MISMATCH);
    assert_contains(ecs_sched_last_error(w), "'GameState'");
    check_and_destroy(w);
}

static void registering_again_with_another_initial_value_replaces_it_before_the_first_apply(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    add_apply(w);
    trace_in(w, ecs_sched_on_enter(w, game, MENU), "enter_menu");
    trace_in(w, ecs_sched_on_enter(w, game, PLAYING), "enter_playing");
    assert_int_equal(ecs_sched_state_register(w, &(ecs_sched_state_desc){
                                                     .name = "GameState",
                                                     .values = {"Menu", "Playing", "Paused"},
                                                     .initial = PLAYING}),
                     game);
    apply(w);
    assert_string_equal(g_trace, "enter_playing");
    assert_int_equal(ecs_sched_state_get(w, game), PLAYING);
    check_and_destroy(w);
}

static void another_initial_value_after_the_first_apply_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    add_apply(w);
    apply(w);
    assert_int_equal(ecs_sched_state_register(w, &(ecs_sched_state_desc){
                                                     .name = "GameState",
                                                     .values = {"Menu", "Playing", "Paused"},
                                                     .initial = PAUSED}),
                     0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_STATE_MISMATCH);
    assert_contains(ecs_sched_last_error(w), "another initial value (Paused, was Menu)");
    assert_int_equal(ecs_sched_state_get(w, game), MENU);
    assert_int_equal(game_state(w), game);   /* the initial value it has is still accepted */
    check_and_destroy(w);
}

static void bad_descs_are_refused_with_what_is_wrong(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(ecs_sched_state_register(w, NULL), 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_state_register(w, &(ecs_sched_state_desc){.name = "Empty"}), 0);
    assert_contains(ecs_sched_last_error(w), "'Empty'");
    assert_int_equal(ecs_sched_state_register(
                         w, &(ecs_sched_state_desc){.name = "Gap", .values = {"A", NULL, "C"}}),
                     0);
    assert_contains(ecs_sched_last_error(w), "without gaps");
    assert_int_equal(ecs_sched_state_register(
                         w, &(ecs_sched_state_desc){.name = "Twice", .values = {"A", "A"}}),
                     0);
    assert_contains(ecs_sched_last_error(w), "both named 'A'");
    assert_int_equal(ecs_sched_state_register(w, &(ecs_sched_state_desc){
                                                     .name = "Far", .values = {"A", "B"},
                                                     .initial = 2}),
                     0);
    assert_contains(ecs_sched_last_error(w), "initial value 2");
    assert_int_equal(ecs_sched_component_lookup(w, "State(Far)"), 0);
    check_and_destroy(w);
}

/* ---- applying ---- */

static void the_first_apply_enters_the_initial_value(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    ecs_sched_state_transition t;
    (void)state;
    add_apply(w);
    trace_in(w, ecs_sched_on_enter(w, game, MENU), "enter_menu");
    trace_in(w, ecs_sched_on_enter(w, game, PLAYING), "enter_playing");
    apply(w);
    assert_string_equal(g_trace, "enter_menu");
    assert_int_equal(ecs_sched_state_get(w, game), MENU);
    assert_int_equal(ecs_sched_state_last_transition(w, game, &t), ECS_SCHED_OK);
    assert_int_equal(t.from, ECS_SCHED_STATE_NONE);
    assert_int_equal(t.to, MENU);
    apply(w);
    assert_string_equal(g_trace, "enter_menu");
    check_and_destroy(w);
}

static void a_value_queued_before_the_first_apply_waits_for_the_second(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    add_apply(w);
    assert_int_equal(ecs_sched_state_set(w, game, PLAYING), ECS_SCHED_OK);
    apply(w);
    assert_int_equal(ecs_sched_state_get(w, game), MENU);
    apply(w);
    assert_int_equal(ecs_sched_state_get(w, game), PLAYING);
    check_and_destroy(w);
}

static ecs_sched_id g_machine;

/* Writes "<its name>:<the machine's value>" to the trace. */
static void record_value(ecs_sched_system_ctx *ctx) {
    char word[64];
    snprintf(word, sizeof word, "%s:%d", ecs_sched_ctx_name(ctx),
             (int)ecs_sched_ctx_state(ctx, g_machine));
    trace_add(word);
}

static void a_transition_runs_exit_then_transition_then_enter(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    g_machine = game;
    add_apply(w);
    apply(w);
    assert_int_equal(ecs_sched_add_system(w, ecs_sched_on_enter(w, game, PLAYING),
                                          &(ecs_sched_system_desc){.name = "enter", .fn = record_value,
                                                                   .reads = {game}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, ecs_sched_on_exit(w, game, MENU),
                                          &(ecs_sched_system_desc){.name = "exit", .fn = record_value,
                                                                   .reads = {game}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, ecs_sched_on_transition(w, game, MENU, PLAYING),
                                          &(ecs_sched_system_desc){.name = "transition",
                                                                   .fn = record_value,
                                                                   .reads = {game}}),
                     ECS_SCHED_OK);
    trace_in(w, ecs_sched_on_transition(w, game, PLAYING, MENU), "wrong_way");
    assert_int_equal(ecs_sched_state_set(w, game, PLAYING), ECS_SCHED_OK);
    apply(w);
    /* the value changes between OnExit and OnTransition */
    assert_string_equal(g_trace, "exit:0 transition:1 enter:1");
    check_and_destroy(w);
}

static void queuing_the_current_value_runs_nothing(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    ecs_sched_state_current before;
    (void)state;
    add_apply(w);
    apply(w);
    trace_in(w, ecs_sched_on_exit(w, game, MENU), "exit_menu");
    trace_in(w, ecs_sched_on_enter(w, game, MENU), "enter_menu");
    before = *(const ecs_sched_state_current *)ecs_sched_resource_get(w, game);
    assert_int_equal(ecs_sched_state_set(w, game, MENU), ECS_SCHED_OK);
    apply(w);
    assert_string_equal(g_trace, "");
    assert_int_equal(((const ecs_sched_state_current *)ecs_sched_resource_get(w, game))->changes,
                     before.changes);
    check_and_destroy(w);
}

static void reentering_runs_exit_and_enter_of_the_same_value(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    ecs_sched_state_transition t;
    (void)state;
    add_apply(w);
    apply(w);
    trace_in(w, ecs_sched_on_exit(w, game, MENU), "exit_menu");
    trace_in(w, ecs_sched_on_transition(w, game, MENU, MENU), "menu_to_menu");
    trace_in(w, ecs_sched_on_enter(w, game, MENU), "enter_menu");
    assert_int_equal(ecs_sched_state_set_reenter(w, game, MENU), ECS_SCHED_OK);
    apply(w);
    assert_string_equal(g_trace, "exit_menu menu_to_menu enter_menu");
    assert_int_equal(ecs_sched_state_last_transition(w, game, &t), ECS_SCHED_OK);
    assert_int_equal(t.from, MENU);
    assert_int_equal(t.to, MENU);
    check_and_destroy(w);
}

static void queuing_twice_keeps_the_last_value(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    add_apply(w);
    apply(w);
    trace_in(w, ecs_sched_on_enter(w, game, PLAYING), "enter_playing");
    trace_in(w, ecs_sched_on_enter(w, game, PAUSED), "enter_paused");
    assert_int_equal(ecs_sched_state_set(w, game, PLAYING), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_set(w, game, PAUSED), ECS_SCHED_OK);
    apply(w);
    assert_string_equal(g_trace, "enter_paused");
    assert_int_equal(ecs_sched_state_get(w, game), PAUSED);
    check_and_destroy(w);
}

/* An OnEnter system that moves on to Paused at once. */
static void pause_at_once(ecs_sched_system_ctx *ctx) {
    trace_add("enter_playing");
    assert_int_equal(ecs_sched_ctx_state_set(ctx, g_machine, PAUSED), ECS_SCHED_OK);
}

static void a_value_queued_during_an_apply_waits_for_the_next_apply(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    g_machine = game;
    add_apply(w);
    apply(w);
    assert_int_equal(ecs_sched_add_system(w, ecs_sched_on_enter(w, game, PLAYING),
                                          &(ecs_sched_system_desc){
                                              .name = "pause_at_once", .fn = pause_at_once,
                                              .writes = {ecs_sched_state_next_id(w, game)}}),
                     ECS_SCHED_OK);
    trace_in(w, ecs_sched_on_enter(w, game, PAUSED), "enter_paused");
    assert_int_equal(ecs_sched_state_set(w, game, PLAYING), ECS_SCHED_OK);
    apply(w);
    assert_string_equal(g_trace, "enter_playing");
    assert_int_equal(ecs_sched_state_get(w, game), PLAYING);
    apply(w);
    assert_string_equal(g_trace, "enter_playing enter_paused");
    assert_int_equal(ecs_sched_state_get(w, game), PAUSED);
    check_and_destroy(w);
}

static void exits_run_last_machine_first_and_enters_first_machine_first(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w), light = daylight(w);
    (void)state;
    add_apply(w);
    apply(w);
    trace_in(w, ecs_sched_on_exit(w, game, MENU), "exit_menu");
    trace_in(w, ecs_sched_on_enter(w, game, PLAYING), "enter_playing");
    trace_in(w, ecs_sched_on_exit(w, light, NIGHT), "exit_night");
    trace_in(w, ecs_sched_on_enter(w, light, DAY), "enter_day");
    assert_int_equal(ecs_sched_state_set(w, light, DAY), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_set(w, game, PLAYING), ECS_SCHED_OK);
    apply(w);
    assert_string_equal(g_trace, "exit_night exit_menu enter_playing enter_day");
    check_and_destroy(w);
}

static void an_apply_for_one_machine_leaves_the_others_queued(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w), light = daylight(w);
    ecs_sched_system_desc only_game = ecs_sched_state_transitions_system(game);
    (void)state;
    assert_int_equal(ecs_sched_add_system(w, "GameOnly", &only_game), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, "GameOnly"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_get(w, game), MENU);
    assert_int_equal(ecs_sched_state_get(w, light), ECS_SCHED_STATE_NONE);
    add_apply(w);
    apply(w);
    assert_int_equal(ecs_sched_state_get(w, light), NIGHT);
    check_and_destroy(w);
}

/* An exclusive system that runs "Fixed" three times, like a fixed-timestep runner. */
static void run_fixed_three_times(ecs_sched_system_ctx *ctx) {
    int i;
    for (i = 0; i < 3; i++) {
        assert_int_equal(ecs_sched_run_schedule(ecs_sched_ctx_world(ctx), "Fixed"), ECS_SCHED_OK);
    }
}

static int g_fixed_step;

/* Counts fixed steps; at the second it queues Playing. */
static void step_and_start(ecs_sched_system_ctx *ctx) {
    char word[32];
    g_fixed_step++;
    snprintf(word, sizeof word, "step%d:%d", g_fixed_step, (int)ecs_sched_ctx_state(ctx, g_machine));
    trace_add(word);
    if (g_fixed_step == 2) ecs_sched_ctx_state_set(ctx, g_machine, PLAYING);
}

static void transitions_apply_inside_a_schedule_run_several_times_per_frame(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    ecs_sched_system_desc apply_in_fixed = ecs_sched_state_transitions_system(game);
    (void)state;
    g_machine = game;
    g_fixed_step = 0;
    apply_in_fixed.name = "apply_in_fixed";
    apply_in_fixed.before[0] = "step";
    assert_int_equal(ecs_sched_add_system(w, "Fixed", &apply_in_fixed), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, "Fixed", &(ecs_sched_system_desc){
                                                           .name = "step", .fn = step_and_start,
                                                           .reads = {game},
                                                           .writes = {ecs_sched_state_next_id(w, game)}}),
                     ECS_SCHED_OK);
    trace_in(w, ecs_sched_on_enter(w, game, PLAYING), "enter_playing");
    ADD_SYSTEM(w, .name = "fixed_runner", .fn = run_fixed_three_times, .exclusive = true);
    assert_run_traces(w, "step1:0 step2:0 enter_playing step3:1");
    check_and_destroy(w);
}

/* ---- conditions ---- */

static void in_state_on_a_set_gates_all_its_systems(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    add_apply(w);
    CONFIGURE_SET(w, .name = "gameplay",
                  .run_if = {ECS_SCHED_COND(ecs_sched_condition_in_state(game, PLAYING))});
    ADD_SYSTEM(w, .name = "move", .fn = record, .in_set = {"gameplay"});
    ADD_SYSTEM(w, .name = "shoot", .fn = record, .in_set = {"gameplay"});
    ADD_SYSTEM(w, .name = "always", .fn = record);
    assert_run_traces(w, "always");
    apply(w);
    g_trace[0] = '\0';
    assert_run_traces(w, "always");
    ecs_sched_state_set(w, game, PLAYING);
    apply(w);
    g_trace[0] = '\0';
    assert_run_traces(w, "move shoot always");
    check_and_destroy(w);
}

static void state_exists_is_true_from_the_first_apply(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    add_apply(w);
    ADD_SYSTEM(w, .name = "menu_music", .fn = record,
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_state_exists(game))});
    assert_run_traces(w, "");
    apply(w);
    assert_run_traces(w, "menu_music");
    check_and_destroy(w);
}

static void state_changed_is_true_once_after_each_change(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    add_apply(w);
    ADD_SYSTEM(w, .name = "changed", .fn = record,
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_state_changed(game))});
    assert_run_traces(w, "");
    apply(w);                                    /* the initial enter is a change */
    assert_run_traces(w, "changed");
    assert_run_traces(w, "changed");             /* nothing new: no run */
    ecs_sched_state_set(w, game, MENU);          /* the same value: no change */
    apply(w);
    assert_run_traces(w, "changed");
    ecs_sched_state_set_reenter(w, game, MENU);  /* re-entering counts */
    apply(w);
    assert_run_traces(w, "changed changed");
    check_and_destroy(w);
}

static char g_dot[8192];

static void append_dot(const char *text, void *user_data) {
    (void)user_data;
    strncat(g_dot, text, sizeof g_dot - strlen(g_dot) - 1);
}

static void state_conditions_are_named_after_the_machine_and_value(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    ADD_SYSTEM(w, .name = "hud", .fn = record,
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_in_state(game, PAUSED)),
                          ECS_SCHED_COND(ecs_sched_condition_state_changed(game)),
                          ECS_SCHED_COND(ecs_sched_condition_state_exists(game))});
    g_dot[0] = '\0';
    assert_int_equal(ecs_sched_schedule_write_dot(w, UPDATE, append_dot, NULL), ECS_SCHED_OK);
    assert_contains(g_dot, "in_state(GameState::Paused)");
    assert_contains(g_dot, "state_changed(GameState)");
    assert_contains(g_dot, "state_exists(GameState)");
    check_and_destroy(w);
}

static void a_condition_on_an_unknown_machine_or_value_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                                                         .name = "x", .fn = record,
                                                         .run_if = {ECS_SCHED_COND(ecs_sched_condition_in_state(game, 7))}}),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "7 is not a value of state machine 'GameState'");
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                                                         .name = "y", .fn = record,
                                                         .run_if = {ECS_SCHED_COND(ecs_sched_condition_state_exists(game + 100))}}),
                     ECS_SCHED_ERR_UNKNOWN_STATE);
    assert_false(ecs_sched_schedule_exists(w, UPDATE) &&
                 ecs_sched_schedule_order(w, UPDATE, NULL, 0) > 0);
    check_and_destroy(w);
}

/* ---- access from systems ---- */

static ecs_sched_result g_set_result;
static int32_t g_read;

static void try_to_queue(ecs_sched_system_ctx *ctx) {
    g_set_result = ecs_sched_ctx_state_set(ctx, g_machine, PLAYING);
}

static void try_to_read(ecs_sched_system_ctx *ctx) {
    g_read = ecs_sched_ctx_state(ctx, g_machine);
}

static void queuing_from_a_system_needs_the_write_of_the_pending_slot(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    g_machine = game;
    add_apply(w);
    apply(w);
    ADD_SYSTEM(w, .name = "undeclared", .fn = try_to_queue);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_int_equal(g_set_result, ECS_SCHED_ERR_ACCESS);
    apply(w);
    assert_int_equal(ecs_sched_state_get(w, game), MENU);
    ecs_sched_world_destroy(w);
    g_world = NULL;

    w = new_world();
    game = game_state(w);
    g_machine = game;
    add_apply(w);
    apply(w);
    ADD_SYSTEM(w, .name = "declared", .fn = try_to_queue, .writes = {ecs_sched_state_next_id(w, game)});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_set_result, ECS_SCHED_OK);
    apply(w);
    assert_int_equal(ecs_sched_state_get(w, game), PLAYING);
    check_and_destroy(w);
}

static void reading_from_a_system_needs_the_read_of_the_machine(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    g_machine = game;
    add_apply(w);
    apply(w);
    ADD_SYSTEM(w, .name = "undeclared", .fn = try_to_read);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_int_equal(g_read, ECS_SCHED_STATE_NONE);
    check_and_destroy(w);
}

/* ---- errors ---- */

static void calls_on_an_unknown_machine_or_value_name_it(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    ecs_sched_state_transition t;
    (void)state;
    assert_int_equal(ecs_sched_state_set(w, game + 100, 0), ECS_SCHED_ERR_UNKNOWN_STATE);
    assert_contains(ecs_sched_last_error(w), "state_set");
    assert_int_equal(ecs_sched_state_set(w, game, 3), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "3 is not a value of state machine 'GameState'");
    assert_contains(ecs_sched_last_error(w), "'Menu' to 'Paused'");
    assert_int_equal(ecs_sched_state_set(w, game, -1), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_null(ecs_sched_on_enter(w, game, 3));
    assert_null(ecs_sched_on_exit(w, 0, MENU));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_UNKNOWN_STATE);
    assert_null(ecs_sched_on_transition(w, game, MENU, 9));
    assert_int_equal(ecs_sched_state_get(w, game + 100), ECS_SCHED_STATE_NONE);
    assert_int_equal(ecs_sched_state_last_transition(w, game, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_state_last_transition(w, game, &t), ECS_SCHED_OK);
    assert_int_equal(t.to, ECS_SCHED_STATE_NONE);
    assert_false(t.this_run);
    check_and_destroy(w);
}

static void a_refused_value_leaves_the_queued_one(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    add_apply(w);
    apply(w);
    assert_int_equal(ecs_sched_state_set(w, game, PAUSED), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_set(w, game, 42), ECS_SCHED_ERR_INVALID_ARGUMENT);
    apply(w);
    assert_int_equal(ecs_sched_state_get(w, game), PAUSED);
    check_and_destroy(w);
}

/* ---- labels and the last transition ---- */

static void transition_schedules_have_readable_labels(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    assert_string_equal(ecs_sched_on_enter(w, game, PLAYING), "OnEnter(GameState::Playing)");
    assert_string_equal(ecs_sched_on_exit(w, game, MENU), "OnExit(GameState::Menu)");
    assert_string_equal(ecs_sched_on_transition(w, game, MENU, PLAYING),
                        "OnTransition(GameState::Menu, GameState::Playing)");
    assert_ptr_equal(ecs_sched_on_transition(w, game, MENU, PLAYING),
                     ecs_sched_on_transition(w, game, MENU, PLAYING));
    check_and_destroy(w);
}

static bool g_just_entered;

static void notice_entry(ecs_sched_system_ctx *ctx) {
    ecs_sched_state_transition t;
    assert_int_equal(ecs_sched_ctx_state_last_transition(ctx, g_machine, &t), ECS_SCHED_OK);
    g_just_entered = t.this_run && t.to == PLAYING;
}

static void the_last_transition_says_whether_it_happened_in_this_run(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    ecs_sched_system_desc apply_first = ecs_sched_state_transitions_system(0);
    (void)state;
    g_machine = game;
    apply_first.before[0] = "notice";
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &apply_first), ECS_SCHED_OK);
    ADD_SYSTEM(w, .name = "notice", .fn = notice_entry, .reads = {game});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_false(g_just_entered);                /* entered Menu */
    ecs_sched_state_set(w, game, PLAYING);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_true(g_just_entered);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_false(g_just_entered);                /* still Playing, but entered a run ago */
    check_and_destroy(w);
}

/* An app's labels that no system uses run every frame: each run counts as a run, although
   nothing in it runs. */
static void a_run_of_an_empty_schedule_ends_this_run_of_the_last_transition(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    ecs_sched_state_transition t;
    (void)state;
    add_apply(w);
    assert_int_equal(ecs_sched_schedule_configure(w, "Idle", NULL), ECS_SCHED_OK);
    apply(w);                                    /* entered Menu, in that run */
    assert_int_equal(ecs_sched_state_last_transition(w, game, &t), ECS_SCHED_OK);
    assert_int_equal(t.to, MENU);
    assert_true(t.this_run);
    assert_int_equal(ecs_sched_run_schedule(w, "Idle"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_last_transition(w, game, &t), ECS_SCHED_OK);
    assert_false(t.this_run);
    check_and_destroy(w);
}

/* A transition schedule that fails makes the run that applied it fail. */
static void a_failing_transition_schedule_fails_the_applying_run(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    add_apply(w);
    assert_int_equal(ecs_sched_add_system(w, ecs_sched_on_enter(w, game, MENU),
                                          &(ecs_sched_system_desc){.name = "loop", .fn = record,
                                                                   .before = {"loop"}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, TRANSITIONS), ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    assert_int_equal(ecs_sched_state_get(w, game), MENU);
    check_and_destroy(w);
}

static void the_parallel_executor_reports_the_same_failure_of_a_transition_schedule(
    void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_PARALLEL, 2);
    ecs_sched_id game = game_state(w);
    ecs_sched_system_desc apply_system = ecs_sched_state_transitions_system(0);
    (void)state;
    assert_int_equal(ecs_sched_add_system(w, TRANSITIONS, &apply_system), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, TRANSITIONS, &(ecs_sched_system_desc){
                                              .name = "other", .fn = noop}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, ecs_sched_on_enter(w, game, MENU),
                                          &(ecs_sched_system_desc){.name = "loop", .fn = record,
                                                                   .before = {"loop"}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, TRANSITIONS), ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    assert_int_equal(ecs_sched_state_get(w, game), MENU);
    assert_int_equal(ecs_sched_world_check(w), ECS_SCHED_OK);
    ecs_sched_world_destroy(w);
}

static void apply_from_inside(ecs_sched_system_ctx *ctx) {
    ecs_sched_apply_state_transitions(ctx);
    trace_add("inner_apply");
}

static void register_from_inside(ecs_sched_system_ctx *ctx) {
    ecs_sched_id id = ecs_sched_state_register(
        ecs_sched_ctx_world(ctx), &(ecs_sched_state_desc){.name = "Late", .values = {"X"}});
    trace_add(id == 0 ? "refused" : "registered");
    ecs_sched_ctx_clear_error(ctx);   /* handled: the trace says it */
}

static void an_apply_inside_a_transition_schedule_applies_nothing(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    g_machine = game;
    add_apply(w);
    apply(w);
    assert_int_equal(ecs_sched_add_system(w, ecs_sched_on_enter(w, game, PLAYING),
                                          &(ecs_sched_system_desc){
                                              .name = "pause_at_once", .fn = pause_at_once,
                                              .writes = {ecs_sched_state_next_id(w, game)}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, ecs_sched_on_enter(w, game, PLAYING),
                                          &(ecs_sched_system_desc){
                                              .name = "inner", .fn = apply_from_inside,
                                              .exclusive = true, .after = {"pause_at_once"}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, ecs_sched_on_enter(w, game, PLAYING),
                                          &(ecs_sched_system_desc){
                                              .name = "late", .fn = register_from_inside,
                                              .exclusive = true, .after = {"inner"}}),
                     ECS_SCHED_OK);
    ecs_sched_state_set(w, game, PLAYING);
    apply(w);
    assert_string_equal(g_trace, "enter_playing inner_apply refused");
    assert_int_equal(ecs_sched_state_get(w, game), PLAYING);
    apply(w);
    assert_int_equal(ecs_sched_state_get(w, game), PAUSED);
    check_and_destroy(w);
}

/* ---- the stack ---- */

/* Playing entered, with every schedule of Playing and Paused tracing its name. */
static ecs_sched_id playing_with_traces(ecs_sched_world *w) {
    ecs_sched_id game = game_state(w);
    int32_t v;
    static const char *const names[][4] = {
        {"enter_playing", "exit_playing", "pause_playing", "resume_playing"},
        {"enter_paused", "exit_paused", "pause_paused", "resume_paused"}};
    add_apply(w);
    apply(w);
    ecs_sched_state_set(w, game, PLAYING);
    apply(w);
    for (v = PLAYING; v <= PAUSED; v++) {
        trace_in(w, ecs_sched_on_enter(w, game, v), names[v - PLAYING][0]);
        trace_in(w, ecs_sched_on_exit(w, game, v), names[v - PLAYING][1]);
        trace_in(w, ecs_sched_on_pause(w, game, v), names[v - PLAYING][2]);
        trace_in(w, ecs_sched_on_resume(w, game, v), names[v - PLAYING][3]);
    }
    return game;
}

static void a_push_pauses_the_covered_value_and_enters_the_pushed_one(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = playing_with_traces(w);
    ecs_sched_state_transition t;
    (void)state;
    assert_int_equal(ecs_sched_state_push(w, game, PAUSED), ECS_SCHED_OK);
    apply(w);
    assert_string_equal(g_trace, "pause_playing enter_paused");
    assert_int_equal(ecs_sched_state_get(w, game), PAUSED);
    assert_int_equal(ecs_sched_state_depth(w, game), 1);
    assert_int_equal(ecs_sched_state_last_transition(w, game, &t), ECS_SCHED_OK);
    assert_int_equal(t.from, PLAYING);
    assert_int_equal(t.to, PAUSED);
    check_and_destroy(w);
}

static void a_pop_exits_the_top_and_resumes_the_revealed_value(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = playing_with_traces(w);
    (void)state;
    ecs_sched_state_push(w, game, PAUSED);
    apply(w);
    g_trace[0] = '\0';
    assert_int_equal(ecs_sched_state_pop(w, game), ECS_SCHED_OK);
    apply(w);
    assert_string_equal(g_trace, "exit_paused resume_playing");
    assert_int_equal(ecs_sched_state_get(w, game), PLAYING);
    assert_int_equal(ecs_sched_state_depth(w, game), 0);
    check_and_destroy(w);
}

static void a_set_while_pushed_replaces_only_the_top(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = playing_with_traces(w);
    (void)state;
    trace_in(w, ecs_sched_on_enter(w, game, MENU), "enter_menu");
    trace_in(w, ecs_sched_on_exit(w, game, MENU), "exit_menu");
    ecs_sched_state_push(w, game, PAUSED);
    apply(w);
    g_trace[0] = '\0';
    ecs_sched_state_set(w, game, MENU);
    apply(w);
    assert_string_equal(g_trace, "exit_paused enter_menu");
    assert_int_equal(ecs_sched_state_depth(w, game), 1);
    ecs_sched_state_pop(w, game);
    apply(w);
    assert_string_equal(g_trace, "exit_paused enter_menu exit_menu resume_playing");
    check_and_destroy(w);
}

static void in_state_sees_the_top_and_in_stack_sees_covered_values(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    add_apply(w);
    ADD_SYSTEM(w, .name = "in_playing", .fn = record,
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_in_state(game, PLAYING))});
    ADD_SYSTEM(w, .name = "playing_in_stack", .fn = record,
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_state_in_stack(game, PLAYING))});
    ADD_SYSTEM(w, .name = "menu_in_stack", .fn = record,
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_state_in_stack(game, MENU))});
    apply(w);
    ecs_sched_state_set(w, game, PLAYING);
    apply(w);
    assert_run_traces(w, "in_playing playing_in_stack");
    ecs_sched_state_push(w, game, PAUSED);
    apply(w);
    g_trace[0] = '\0';
    assert_run_traces(w, "playing_in_stack");
    check_and_destroy(w);
}

static void a_push_past_the_capacity_is_refused_and_changes_nothing(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = ecs_sched_state_register(
        w, &(ecs_sched_state_desc){.name = "Shallow", .values = {"A", "B", "C"},
                                   .stack_capacity = 1});
    (void)state;
    add_apply(w);
    apply(w);
    assert_int_equal(ecs_sched_state_push(w, game, 1), ECS_SCHED_OK);
    apply(w);
    assert_int_equal(ecs_sched_state_push(w, game, 2), ECS_SCHED_ERR_LIMIT);
    assert_contains(ecs_sched_last_error(w), "'Shallow'");
    assert_contains(ecs_sched_last_error(w), "stack_capacity");
    apply(w);
    assert_int_equal(ecs_sched_state_get(w, game), 1);
    assert_int_equal(ecs_sched_state_depth(w, game), 1);
    check_and_destroy(w);
}

/* OnPause(A): pushes again while the push that covers A is being applied. */
static void push_again(ecs_sched_system_ctx *ctx) {
    assert_int_equal(ecs_sched_state_push(ecs_sched_ctx_world(ctx), g_machine, 2), ECS_SCHED_OK);
}

static void a_push_queued_during_an_apply_that_fills_the_stack_is_dropped_and_reported(
    void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = ecs_sched_state_register(
        w, &(ecs_sched_state_desc){.name = "Shallow", .values = {"A", "B", "C"},
                                   .stack_capacity = 1});
    (void)state;
    g_machine = game;
    assert_int_equal(ecs_sched_add_system(w, ecs_sched_on_pause(w, game, 0),
                                          &(ecs_sched_system_desc){.name = "push_again",
                                                                   .fn = push_again,
                                                                   .exclusive = true}),
                     ECS_SCHED_OK);
    add_apply(w);
    apply(w);
    assert_int_equal(ecs_sched_state_push(w, game, 1), ECS_SCHED_OK);
    apply(w);   /* covers A; OnPause(A) queues a second push, checked against depth 0 */
    assert_int_equal(ecs_sched_state_depth(w, game), 1);
    assert_int_equal(ecs_sched_run_schedule(w, TRANSITIONS), ECS_SCHED_ERR_LIMIT);
    assert_contains(ecs_sched_last_error(w), "'Shallow': a push queued during the previous apply");
    assert_int_equal(ecs_sched_state_get(w, game), 1);
    assert_int_equal(ecs_sched_state_depth(w, game), 1);
    apply(w);   /* dropped: nothing is left queued */
    check_and_destroy(w);
}

static void a_pop_with_nothing_pushed_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    add_apply(w);
    apply(w);
    assert_int_equal(ecs_sched_state_pop(w, game), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "'GameState' has nothing pushed");
    assert_int_equal(ecs_sched_state_depth(w, game + 100), -1);
    assert_int_equal(ecs_sched_state_register(
                         w, &(ecs_sched_state_desc){.name = "Neg", .values = {"A"},
                                                    .stack_capacity = -1}),
                     0);
    assert_contains(ecs_sched_last_error(w), "stack_capacity -1");
    check_and_destroy(w);
}

static void push_from_a_system(ecs_sched_system_ctx *ctx) {
    assert_int_equal(ecs_sched_ctx_state_push(ctx, g_machine, PAUSED), ECS_SCHED_OK);
}

static void pop_from_a_system(ecs_sched_system_ctx *ctx) {
    assert_int_equal(ecs_sched_ctx_state_pop(ctx, g_machine), ECS_SCHED_OK);
}

static void systems_push_and_pop_through_the_pending_slot(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = playing_with_traces(w);
    ecs_sched_id next = ecs_sched_state_next_id(w, game);
    (void)state;
    g_machine = game;
    assert_int_equal(ecs_sched_add_system(w, "Push", &(ecs_sched_system_desc){
                                                         .name = "push", .fn = push_from_a_system,
                                                         .writes = {next}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, "Pop", &(ecs_sched_system_desc){
                                                        .name = "pop", .fn = pop_from_a_system,
                                                        .writes = {next}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, "Push"), ECS_SCHED_OK);
    apply(w);
    assert_int_equal(ecs_sched_run_schedule(w, "Pop"), ECS_SCHED_OK);
    apply(w);
    assert_string_equal(g_trace, "pause_playing enter_paused exit_paused resume_playing");
    check_and_destroy(w);
}

static void stack_labels_name_the_machine_and_value(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    assert_string_equal(ecs_sched_on_pause(w, game, PLAYING), "OnPause(GameState::Playing)");
    assert_string_equal(ecs_sched_on_resume(w, game, MENU), "OnResume(GameState::Menu)");
    assert_null(ecs_sched_on_pause(w, game, 5));
    check_and_destroy(w);
}

/* ---- state-scoped entities ---- */

static ecs_sched_entity g_scoped;

/* An exclusive system that traces whether g_scoped is still alive. */
static void trace_scoped(ecs_sched_system_ctx *ctx) {
    char word[64];
    snprintf(word, sizeof word, "%s:%s", ecs_sched_ctx_name(ctx),
             ecs_sched_is_alive(ecs_sched_ctx_world(ctx), g_scoped) ? "alive" : "gone");
    trace_add(word);
}

static void watch(ecs_sched_world *w, const char *schedule, const char *name) {
    assert_int_equal(ecs_sched_add_system(w, schedule, &(ecs_sched_system_desc){
                                                           .name = name, .fn = trace_scoped,
                                                           .exclusive = true}),
                     ECS_SCHED_OK);
}

static ecs_sched_entity spawn_scoped(ecs_sched_world *w, ecs_sched_id game,
                                     ecs_sched_state_scoped scope) {
    ecs_sched_id id = ecs_sched_state_scope_id(w, game);
    ecs_sched_entity e = ecs_sched_spawn_with(w, 1, &id, (const void *const[]){&scope});
    assert_true(e != 0);
    return e;
}

static void an_entity_scoped_to_a_value_goes_when_the_value_is_exited(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    add_apply(w);
    apply(w);
    g_scoped = spawn_scoped(w, game, ecs_sched_despawn_on_exit(PLAYING));
    watch(w, ecs_sched_on_exit(w, game, PLAYING), "exit_playing");
    watch(w, ecs_sched_on_enter(w, game, MENU), "enter_menu");
    ecs_sched_state_set(w, game, PLAYING);
    apply(w);
    assert_true(ecs_sched_is_alive(w, g_scoped));
    ecs_sched_state_set(w, game, MENU);
    apply(w);
    /* after OnExit(Playing), before OnEnter(Menu) */
    assert_string_equal(g_trace, "exit_playing:alive enter_menu:gone");
    check_and_destroy(w);
}

static void an_entity_scoped_to_entering_a_value_goes_before_its_on_enter(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    add_apply(w);
    apply(w);
    g_scoped = spawn_scoped(w, game, ecs_sched_despawn_on_enter(PAUSED));
    watch(w, ecs_sched_on_exit(w, game, MENU), "exit_menu");
    watch(w, ecs_sched_on_enter(w, game, PAUSED), "enter_paused");
    ecs_sched_state_set(w, game, PAUSED);
    apply(w);
    assert_string_equal(g_trace, "exit_menu:alive enter_paused:gone");
    check_and_destroy(w);
}

static void a_covered_value_keeps_its_scoped_entities(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    ecs_sched_entity in_menu, paused_overlay;
    (void)state;
    add_apply(w);
    apply(w);
    in_menu = spawn_scoped(w, game, ecs_sched_despawn_on_exit(MENU));
    paused_overlay = spawn_scoped(w, game, ecs_sched_despawn_on_exit(PAUSED));
    ecs_sched_state_push(w, game, PAUSED);
    apply(w);
    assert_true(ecs_sched_is_alive(w, in_menu));        /* Menu is covered, not exited */
    ecs_sched_state_pop(w, game);
    apply(w);
    assert_false(ecs_sched_is_alive(w, paused_overlay)); /* Paused was exited */
    assert_true(ecs_sched_is_alive(w, in_menu));        /* Menu resumed, not entered */
    check_and_destroy(w);
}

static ecs_sched_id g_scope_id;

static void spawn_level_entity(ecs_sched_system_ctx *ctx) {
    ecs_sched_state_scoped scope = ecs_sched_despawn_on_exit(PLAYING);
    ecs_sched_commands *cmd = ecs_sched_ctx_commands(ctx);
    ecs_sched_entity e = ecs_sched_commands_spawn(cmd);
    assert_int_equal(ecs_sched_commands_insert(cmd, e, g_scope_id, &scope), ECS_SCHED_OK);
}

static void systems_scope_entities_through_commands(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id game = game_state(w);
    (void)state;
    g_scope_id = ecs_sched_state_scope_id(w, game);
    assert_string_equal(ecs_sched_component_name(w, g_scope_id), "StateScoped(GameState)");
    add_apply(w);
    apply(w);
    assert_int_equal(ecs_sched_add_system(w, ecs_sched_on_enter(w, game, PLAYING),
                                          &(ecs_sched_system_desc){
                                              .name = "spawn_level", .fn = spawn_level_entity,
                                              .commands = true}),
                     ECS_SCHED_OK);
    ecs_sched_state_set(w, game, PLAYING);
    apply(w);
    assert_int_equal(ecs_sched_entity_count(w), 1);
    ecs_sched_state_set(w, game, MENU);
    apply(w);
    assert_int_equal(ecs_sched_entity_count(w), 0);
    assert_int_equal(ecs_sched_state_scope_id(w, game + 100), 0);
    check_and_destroy(w);
}

/* ---- both executors ---- */

typedef struct frame_ids {
    ecs_sched_id game, in_game, phase, score, health, position;
} frame_ids;

static frame_ids g_ids;

static void tick(ecs_sched_system_ctx *ctx) {           /* Playing: the score goes up */
    Score *score = (Score *)ecs_sched_ctx_resource_mut(ctx, g_ids.score);
    if (score) score->value++;
}

static void drift(ecs_sched_system_ctx *ctx) {          /* Playing: entities move */
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        int32_t i;
        for (i = 0; i < it.count; i++) p[i].x += 1.0f;
    }
}

static void rest(ecs_sched_system_ctx *ctx) {           /* Paused: health comes back */
    Health *health = (Health *)ecs_sched_ctx_resource_mut(ctx, g_ids.health);
    if (health) health->hp += 1;
}

static void direct(ecs_sched_system_ctx *ctx) {         /* pauses and resumes the game */
    const Score *score = (const Score *)ecs_sched_ctx_resource(ctx, g_ids.score);
    const Health *health = (const Health *)ecs_sched_ctx_resource(ctx, g_ids.health);
    int32_t now = ecs_sched_ctx_state(ctx, g_ids.game);
    if (now == MENU) ecs_sched_ctx_state_set(ctx, g_ids.game, PLAYING);
    if (now == PLAYING && score && score->value % 4 == 3) ecs_sched_ctx_state_set(ctx, g_ids.game, PAUSED);
    if (now == PAUSED && health && health->hp % 3 == 2) ecs_sched_ctx_state_set(ctx, g_ids.game, PLAYING);
}

static void bonus(ecs_sched_system_ctx *ctx) {          /* OnExit(Playing) */
    Score *score = (Score *)ecs_sched_ctx_resource_mut(ctx, g_ids.score);
    if (score) score->value += 100;
}

static void welcome(ecs_sched_system_ctx *ctx) {        /* OnEnter(InGame): once per game */
    Score *score = (Score *)ecs_sched_ctx_resource_mut(ctx, g_ids.score);
    if (score) score->value += 10;
}

static void flip(ecs_sched_system_ctx *ctx) {           /* Phase A: move on to B */
    ecs_sched_ctx_state_set(ctx, g_ids.phase, 1);
}

static void heal(ecs_sched_system_ctx *ctx) {           /* OnExit(Phase::B) */
    Health *health = (Health *)ecs_sched_ctx_resource_mut(ctx, g_ids.health);
    if (health) health->hp += 5;
}

static int32_t in_game_of(const int32_t *sources, void *user_data) {
    (void)user_data;
    return sources[0] == PLAYING || sources[0] == PAUSED ? 0 : ECS_SCHED_STATE_NONE;
}

/* 30 frames of a small game whose state changes every few frames; returns what each frame
   left, as text. */
static void play_frames(ecs_sched_world *w, char *out, size_t size) {
    ecs_sched_system_desc apply = ecs_sched_state_transitions_system(0);
    ecs_sched_query *positions;
    ecs_sched_id next;
    Score zero = {0};
    Health full = {0};
    size_t length = 0;
    int frame, i;
    g_ids.game = game_state(w);
    g_ids.in_game = ecs_sched_state_register(w, &(ecs_sched_state_desc){
        .name = "InGame", .values = {"InGame"}, .sources = {g_ids.game}, .compute = in_game_of});
    g_ids.phase = ecs_sched_state_register(w, &(ecs_sched_state_desc){
        .name = "Phase", .values = {"A", "B"}, .parent = g_ids.game,
        .parent_values = {[PLAYING] = true}});
    assert_true(g_ids.in_game != 0 && g_ids.phase != 0);
    g_ids.score = ECS_SCHED_COMPONENT(w, Score);
    g_ids.health = ECS_SCHED_COMPONENT(w, Health);
    g_ids.position = ECS_SCHED_COMPONENT(w, Position);
    next = ecs_sched_state_next_id(w, g_ids.game);
    assert_int_equal(ecs_sched_resource_insert(w, g_ids.score, &zero), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_resource_insert(w, g_ids.health, &full), ECS_SCHED_OK);
    for (i = 0; i < 64; i++) {
        Position p = {(float)i, 0.0f};
        assert_true(ecs_sched_spawn_with(w, 1, &g_ids.position, (const void *const[]){&p}) != 0);
    }
    apply.before[0] = "direct";
    assert_int_equal(ecs_sched_add_system(w, "Main", &apply), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, "Main", &(ecs_sched_system_desc){
        .name = "direct", .fn = direct, .reads = {g_ids.game, g_ids.score, g_ids.health},
        .writes = {next}}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_configure_set(w, "Main", &(ecs_sched_set_desc){
        .name = "playing", .after = {"direct"},
        .run_if = {ECS_SCHED_COND(ecs_sched_condition_in_state(g_ids.game, PLAYING))}}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, "Main", &(ecs_sched_system_desc){
        .name = "tick", .fn = tick, .writes = {g_ids.score}, .in_set = {"playing"}}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, "Main", &(ecs_sched_system_desc){
        .name = "drift", .fn = drift, .in_set = {"playing"},
        .queries = {{{ecs_sched_write(g_ids.position)}}}}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, "Main", &(ecs_sched_system_desc){
        .name = "rest", .fn = rest, .writes = {g_ids.health}, .after = {"direct"},
        .run_if = {ECS_SCHED_COND(ecs_sched_condition_in_state(g_ids.game, PAUSED))}}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, ecs_sched_on_exit(w, g_ids.game, PLAYING),
                                          &(ecs_sched_system_desc){.name = "bonus", .fn = bonus,
                                                                   .writes = {g_ids.score}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, ecs_sched_on_enter(w, g_ids.in_game, 0),
                                          &(ecs_sched_system_desc){.name = "welcome", .fn = welcome,
                                                                   .writes = {g_ids.score}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, "Main", &(ecs_sched_system_desc){
        .name = "flip", .fn = flip, .writes = {ecs_sched_state_next_id(w, g_ids.phase)},
        .run_if = {ECS_SCHED_COND(ecs_sched_condition_in_state(g_ids.phase, 0))}}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, ecs_sched_on_exit(w, g_ids.phase, 1),
                                          &(ecs_sched_system_desc){.name = "heal", .fn = heal,
                                                                   .writes = {g_ids.health}}),
                     ECS_SCHED_OK);
    positions = QUERY(w, ecs_sched_read(g_ids.position));
    for (frame = 0; frame < 30; frame++) {
        ecs_sched_iter it;
        double sum = 0.0;
        assert_int_equal(ecs_sched_run_schedule(w, "Main"), ECS_SCHED_OK);
        it = ecs_sched_query_iter(positions);
        while (ecs_sched_iter_next(&it)) {
            const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
            for (i = 0; i < it.count; i++) sum += p[i].x;
        }
        length += (size_t)snprintf(out + length, size - length, "%d%d%d:%d/%d/%.0f ",
                                   (int)ecs_sched_state_get(w, g_ids.game),
                                   (int)ecs_sched_state_get(w, g_ids.in_game),
                                   (int)ecs_sched_state_get(w, g_ids.phase),
                                   ((const Score *)ecs_sched_resource_get(w, g_ids.score))->value,
                                   ((const Health *)ecs_sched_resource_get(w, g_ids.health))->hp,
                                   sum);
        assert_true(length < size);
    }
}

static void both_executors_leave_the_same_world_with_transitions_in_the_schedule(void **state) {
    static char single[4096], parallel[4096];
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    (void)state;
    play_frames(w, single, sizeof single);
    ecs_sched_world_destroy(w);
    w = world_on(ECS_SCHED_EXECUTOR_PARALLEL, 2);
    play_frames(w, parallel, sizeof parallel);
    ecs_sched_world_destroy(w);
    assert_string_equal(single, parallel);
    assert_contains(single, "20-1:");   /* it did pause: in game, no phase */
    assert_contains(single, "101:");    /* playing, in game, phase B */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_registered_machine_has_no_value_before_the_first_apply),
        cmocka_unit_test(registering_the_same_machine_again_gives_the_same_id),
        cmocka_unit_test(a_name_registered_again_with_other_values_is_refused),
        cmocka_unit_test(bad_descs_are_refused_with_what_is_wrong),
        cmocka_unit_test(registering_again_with_another_initial_value_replaces_it_before_the_first_apply),
        cmocka_unit_test(another_initial_value_after_the_first_apply_is_refused),
        cmocka_unit_test(the_first_apply_enters_the_initial_value),
        cmocka_unit_test(a_value_queued_before_the_first_apply_waits_for_the_second),
        cmocka_unit_test(a_transition_runs_exit_then_transition_then_enter),
        cmocka_unit_test(queuing_the_current_value_runs_nothing),
        cmocka_unit_test(reentering_runs_exit_and_enter_of_the_same_value),
        cmocka_unit_test(queuing_twice_keeps_the_last_value),
        cmocka_unit_test(a_value_queued_during_an_apply_waits_for_the_next_apply),
        cmocka_unit_test(exits_run_last_machine_first_and_enters_first_machine_first),
        cmocka_unit_test(an_apply_for_one_machine_leaves_the_others_queued),
        cmocka_unit_test(transitions_apply_inside_a_schedule_run_several_times_per_frame),
        cmocka_unit_test(in_state_on_a_set_gates_all_its_systems),
        cmocka_unit_test(state_exists_is_true_from_the_first_apply),
        cmocka_unit_test(state_changed_is_true_once_after_each_change),
        cmocka_unit_test(state_conditions_are_named_after_the_machine_and_value),
        cmocka_unit_test(a_condition_on_an_unknown_machine_or_value_is_refused),
        cmocka_unit_test(queuing_from_a_system_needs_the_write_of_the_pending_slot),
        cmocka_unit_test(reading_from_a_system_needs_the_read_of_the_machine),
        cmocka_unit_test(calls_on_an_unknown_machine_or_value_name_it),
        cmocka_unit_test(a_refused_value_leaves_the_queued_one),
        cmocka_unit_test(transition_schedules_have_readable_labels),
        cmocka_unit_test(the_last_transition_says_whether_it_happened_in_this_run),
        cmocka_unit_test(a_run_of_an_empty_schedule_ends_this_run_of_the_last_transition),
        cmocka_unit_test(a_failing_transition_schedule_fails_the_applying_run),
        cmocka_unit_test(the_parallel_executor_reports_the_same_failure_of_a_transition_schedule),
        cmocka_unit_test(an_apply_inside_a_transition_schedule_applies_nothing),
        cmocka_unit_test(a_push_pauses_the_covered_value_and_enters_the_pushed_one),
        cmocka_unit_test(a_pop_exits_the_top_and_resumes_the_revealed_value),
        cmocka_unit_test(a_set_while_pushed_replaces_only_the_top),
        cmocka_unit_test(in_state_sees_the_top_and_in_stack_sees_covered_values),
        cmocka_unit_test(a_push_past_the_capacity_is_refused_and_changes_nothing),
        cmocka_unit_test(a_push_queued_during_an_apply_that_fills_the_stack_is_dropped_and_reported),
        cmocka_unit_test(a_pop_with_nothing_pushed_is_refused),
        cmocka_unit_test(systems_push_and_pop_through_the_pending_slot),
        cmocka_unit_test(stack_labels_name_the_machine_and_value),
        cmocka_unit_test(an_entity_scoped_to_a_value_goes_when_the_value_is_exited),
        cmocka_unit_test(an_entity_scoped_to_entering_a_value_goes_before_its_on_enter),
        cmocka_unit_test(a_covered_value_keeps_its_scoped_entities),
        cmocka_unit_test(systems_scope_entities_through_commands),
        cmocka_unit_test(both_executors_leave_the_same_world_with_transitions_in_the_schedule),
    };
    return cmocka_run_group_tests_name("state machines", tests, NULL, destroy_leftover_world);
}
