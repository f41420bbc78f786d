/* Machines that depend on others: computed states (a value computed from other machines'
   values) and sub-states (a machine that exists only while its parent is in given values),
   the order of transitions across dependent machines, and the errors of both. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "schedule_fixture.h"

enum { MENU, PLAYING, PAUSED, GAME_OVER };   /* AppState */
enum { IN_GAME };                            /* InGame: one value; "does not exist" otherwise */
enum { MOVE, ATTACK, END };                  /* TurnPhase, while AppState is Playing or Paused */
enum { DAY, NIGHT };                         /* Daylight */

static ecs_sched_id app_state(ecs_sched_world *w) {
    ecs_sched_id id = ecs_sched_state_register(
        w, &(ecs_sched_state_desc){.name = "AppState",
                                   .values = {"Menu", "Playing", "Paused", "GameOver"}});
    assert_true(id != 0);
    return id;
}

static ecs_sched_id daylight(ecs_sched_world *w) {
    ecs_sched_id id = ecs_sched_state_register(
        w, &(ecs_sched_state_desc){.name = "Daylight", .values = {"Day", "Night"},
                                   .initial = NIGHT});
    assert_true(id != 0);
    return id;
}

static int g_computes;        /* calls of the compute functions below */
static ecs_sched_id g_machine;   /* the machine the systems below look at */

static int32_t in_game_of(const int32_t *sources, void *user_data) {
    (void)user_data;
    g_computes++;
    return sources[0] == PLAYING || sources[0] == PAUSED ? IN_GAME : ECS_SCHED_STATE_NONE;
}

static ecs_sched_id in_game(ecs_sched_world *w, ecs_sched_id app) {
    ecs_sched_id id = ecs_sched_state_register(
        w, &(ecs_sched_state_desc){.name = "InGame", .values = {"InGame"},
                                   .sources = {app}, .compute = in_game_of});
    assert_true(id != 0);
    return id;
}

static ecs_sched_id turn_phase(ecs_sched_world *w, ecs_sched_id app) {
    ecs_sched_id id = ecs_sched_state_register(
        w, &(ecs_sched_state_desc){.name = "TurnPhase", .values = {"Move", "Attack", "End"},
                                   .parent = app,
                                   .parent_values = {[PLAYING] = true, [PAUSED] = true}});
    assert_true(id != 0);
    return id;
}

static void apply(ecs_sched_world *w) {
    assert_int_equal(ecs_sched_state_apply(w, 0), ECS_SCHED_OK);
}

static void set_and_apply(ecs_sched_world *w, ecs_sched_id machine, int32_t value) {
    assert_int_equal(ecs_sched_state_set(w, machine, value), ECS_SCHED_OK);
    apply(w);
}

/* Traces OnEnter and OnExit of every value of a machine: "+Name" and "-Name". */
static void trace_enters_and_exits(ecs_sched_world *w, ecs_sched_id machine, int32_t count) {
    char word[64];   /* system names are copied */
    int32_t v;
    for (v = 0; v < count; v++) {
        snprintf(word, sizeof word, "+%s", ecs_sched_state_value_name(w, machine, v));
        trace_in(w, ecs_sched_on_enter(w, machine, v), word);
        snprintf(word, sizeof word, "-%s", ecs_sched_state_value_name(w, machine, v));
        trace_in(w, ecs_sched_on_exit(w, machine, v), word);
    }
}

/* ---- computed states ---- */

static void a_computed_state_follows_its_sources(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w), game = in_game(w, app);
    (void)state;
    apply(w);
    assert_int_equal(ecs_sched_state_get(w, app), MENU);
    assert_int_equal(ecs_sched_state_get(w, game), ECS_SCHED_STATE_NONE);
    set_and_apply(w, app, PLAYING);
    assert_int_equal(ecs_sched_state_get(w, game), IN_GAME);
    set_and_apply(w, app, GAME_OVER);
    assert_int_equal(ecs_sched_state_get(w, game), ECS_SCHED_STATE_NONE);
    check_and_destroy(w);
}

static void a_computed_state_enters_and_exits_when_its_value_appears_and_goes(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w), game = in_game(w, app);
    ecs_sched_state_transition t;
    (void)state;
    apply(w);
    trace_enters_and_exits(w, game, 1);
    set_and_apply(w, app, PLAYING);
    assert_string_equal(g_trace, "+InGame");
    set_and_apply(w, app, MENU);
    assert_string_equal(g_trace, "+InGame -InGame");
    assert_int_equal(ecs_sched_state_last_transition(w, game, &t), ECS_SCHED_OK);
    assert_int_equal(t.from, IN_GAME);
    assert_int_equal(t.to, ECS_SCHED_STATE_NONE);
    check_and_destroy(w);
}

static void a_source_moving_to_a_value_with_the_same_result_runs_nothing(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w), game = in_game(w, app);
    uint32_t changes;
    (void)state;
    apply(w);
    set_and_apply(w, app, PLAYING);
    trace_enters_and_exits(w, game, 1);
    changes = ((const ecs_sched_state_current *)ecs_sched_resource_get(w, game))->changes;
    set_and_apply(w, app, PAUSED);   /* Playing -> Paused does not leave InGame */
    assert_string_equal(g_trace, "");
    assert_int_equal(((const ecs_sched_state_current *)ecs_sched_resource_get(w, game))->changes,
                     changes);
    check_and_destroy(w);
}

static void a_computed_state_is_computed_only_when_a_source_moves(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w);
    (void)state;
    in_game(w, app);
    daylight(w);
    g_computes = 0;
    apply(w);                                 /* the first apply computes it */
    assert_int_equal(g_computes, 1);
    apply(w);
    assert_int_equal(g_computes, 1);
    set_and_apply(w, ecs_sched_component_lookup(w, "State(Daylight)"), DAY);   /* not a source */
    assert_int_equal(g_computes, 1);
    set_and_apply(w, app, PLAYING);
    assert_int_equal(g_computes, 2);
    check_and_destroy(w);
}

/* Daylight's value while in a game, else "does not exist"; it sees the sources in order. */
static int32_t light_in_game_of(const int32_t *sources, void *user_data) {
    assert_ptr_equal(user_data, &g_computes);
    return sources[0] == ECS_SCHED_STATE_NONE ? ECS_SCHED_STATE_NONE : sources[1];
}

static void a_computed_state_sees_each_source_in_order_and_none_for_an_absent_one(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w), light = daylight(w), game = in_game(w, app);
    ecs_sched_id shown = ecs_sched_state_register(
        w, &(ecs_sched_state_desc){.name = "Sky", .values = {"Sun", "Moon"},
                                   .sources = {game, light}, .compute = light_in_game_of,
                                   .user_data = &g_computes});
    (void)state;
    assert_true(shown != 0);
    apply(w);
    assert_int_equal(ecs_sched_state_get(w, shown), ECS_SCHED_STATE_NONE);
    set_and_apply(w, app, PLAYING);
    assert_int_equal(ecs_sched_state_get(w, shown), NIGHT);
    set_and_apply(w, light, DAY);
    assert_int_equal(ecs_sched_state_get(w, shown), DAY);
    check_and_destroy(w);
}

static void a_computed_state_cannot_be_queued(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w), game = in_game(w, app);
    (void)state;
    apply(w);
    assert_int_equal(ecs_sched_state_set(w, game, IN_GAME), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "state_set(InGame::InGame)");
    assert_contains(ecs_sched_last_error(w), "computed state");
    assert_int_equal(ecs_sched_state_push(w, game, IN_GAME), ECS_SCHED_ERR_INVALID_ARGUMENT);
    apply(w);
    assert_int_equal(ecs_sched_state_get(w, game), ECS_SCHED_STATE_NONE);
    check_and_destroy(w);
}

static int32_t out_of_range(const int32_t *sources, void *user_data) {
    (void)user_data;
    return sources[0] == PLAYING ? 7 : 0;
}

static void a_computed_value_out_of_range_is_reported_and_the_old_value_kept(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w);
    ecs_sched_id bad = ecs_sched_state_register(
        w, &(ecs_sched_state_desc){.name = "Bad", .values = {"Zero", "One"}, .sources = {app},
                                   .compute = out_of_range});
    (void)state;
    apply(w);
    assert_int_equal(ecs_sched_state_get(w, bad), 0);
    assert_int_equal(ecs_sched_state_set(w, app, PLAYING), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_apply(w, 0), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "computed state 'Bad'");
    assert_contains(ecs_sched_last_error(w), "returned 7");
    assert_int_equal(ecs_sched_state_get(w, app), PLAYING);   /* the source still moved */
    assert_int_equal(ecs_sched_state_get(w, bad), 0);
    check_and_destroy(w);
}

/* ---- sub-states ---- */

static void a_sub_state_exists_only_while_its_parent_is_in_its_values(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w), phase = turn_phase(w, app);
    (void)state;
    assert_int_equal(ecs_sched_state_get(w, phase), ECS_SCHED_STATE_NONE);
    apply(w);   /* AppState enters Menu: no TurnPhase */
    assert_int_equal(ecs_sched_state_get(w, phase), ECS_SCHED_STATE_NONE);
    trace_enters_and_exits(w, phase, 3);
    set_and_apply(w, app, PLAYING);
    assert_int_equal(ecs_sched_state_get(w, phase), MOVE);
    assert_string_equal(g_trace, "+Move");
    set_and_apply(w, app, GAME_OVER);
    assert_int_equal(ecs_sched_state_get(w, phase), ECS_SCHED_STATE_NONE);
    assert_string_equal(g_trace, "+Move -Move");
    check_and_destroy(w);
}

static void a_sub_state_takes_its_own_values_while_it_exists(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w), phase = turn_phase(w, app);
    (void)state;
    apply(w);
    set_and_apply(w, app, PLAYING);
    trace_enters_and_exits(w, phase, 3);
    trace_in(w, ecs_sched_on_transition(w, phase, MOVE, ATTACK), "move_to_attack");
    set_and_apply(w, phase, ATTACK);
    assert_string_equal(g_trace, "-Move move_to_attack +Attack");
    check_and_destroy(w);
}

static void a_sub_state_keeps_its_value_while_the_parent_moves_among_its_values(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w), phase = turn_phase(w, app);
    (void)state;
    apply(w);
    set_and_apply(w, app, PLAYING);
    set_and_apply(w, phase, ATTACK);
    trace_enters_and_exits(w, phase, 3);
    set_and_apply(w, app, PAUSED);
    assert_int_equal(ecs_sched_state_get(w, phase), ATTACK);
    assert_string_equal(g_trace, "");
    check_and_destroy(w);
}

static void a_sub_state_starts_again_at_its_initial_value(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w);
    ecs_sched_id phase = ecs_sched_state_register(
        w, &(ecs_sched_state_desc){.name = "TurnPhase", .values = {"Move", "Attack", "End"},
                                   .initial = ATTACK, .parent = app,
                                   .parent_values = {[PLAYING] = true}});
    (void)state;
    apply(w);
    set_and_apply(w, app, PLAYING);
    assert_int_equal(ecs_sched_state_get(w, phase), ATTACK);
    set_and_apply(w, phase, END);
    set_and_apply(w, app, MENU);
    set_and_apply(w, app, PLAYING);
    assert_int_equal(ecs_sched_state_get(w, phase), ATTACK);
    check_and_destroy(w);
}

static void queuing_a_sub_state_that_does_not_exist_is_refused_and_names_it(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w), phase = turn_phase(w, app);
    (void)state;
    apply(w);
    assert_int_equal(ecs_sched_state_set(w, phase, ATTACK), ECS_SCHED_ERR_STATE_ABSENT);
    assert_contains(ecs_sched_last_error(w), "state_set(TurnPhase::Attack)");
    assert_contains(ecs_sched_last_error(w), "'TurnPhase' does not exist now");
    assert_contains(ecs_sched_last_error(w), "while 'AppState' is Playing or Paused");
    assert_int_equal(ecs_sched_state_push(w, phase, END), ECS_SCHED_ERR_STATE_ABSENT);
    set_and_apply(w, app, PLAYING);
    assert_int_equal(ecs_sched_state_get(w, phase), MOVE);   /* nothing was left queued */
    check_and_destroy(w);
}

static void a_sub_state_request_is_dropped_when_its_parent_leaves(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w), phase = turn_phase(w, app);
    (void)state;
    apply(w);
    set_and_apply(w, app, PLAYING);
    trace_enters_and_exits(w, phase, 3);
    assert_int_equal(ecs_sched_state_set(w, phase, END), ECS_SCHED_OK);
    set_and_apply(w, app, MENU);
    assert_string_equal(g_trace, "-Move");
    set_and_apply(w, app, PLAYING);
    assert_int_equal(ecs_sched_state_get(w, phase), MOVE);
    check_and_destroy(w);
}

static void a_sub_state_that_stops_existing_exits_its_covered_values_too(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w), phase = turn_phase(w, app);
    (void)state;
    apply(w);
    set_and_apply(w, app, PLAYING);
    assert_int_equal(ecs_sched_state_push(w, phase, ATTACK), ECS_SCHED_OK);
    apply(w);
    assert_int_equal(ecs_sched_state_push(w, phase, END), ECS_SCHED_OK);
    apply(w);
    assert_int_equal(ecs_sched_state_depth(w, phase), 2);
    trace_enters_and_exits(w, phase, 3);
    set_and_apply(w, app, MENU);
    assert_string_equal(g_trace, "-End -Attack -Move");
    assert_int_equal(ecs_sched_state_depth(w, phase), 0);
    set_and_apply(w, app, PLAYING);
    assert_int_equal(ecs_sched_state_get(w, phase), MOVE);
    assert_int_equal(ecs_sched_state_depth(w, phase), 0);
    check_and_destroy(w);
}

static void entities_scoped_to_a_sub_state_go_when_it_stops_existing(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w), phase = turn_phase(w, app);
    ecs_sched_state_scoped on_exit_move = ecs_sched_despawn_on_exit(MOVE);
    ecs_sched_entity e;
    (void)state;
    apply(w);
    set_and_apply(w, app, PLAYING);
    e = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_insert(w, e, ecs_sched_state_scope_id(w, phase), &on_exit_move),
                     ECS_SCHED_OK);
    set_and_apply(w, app, PAUSED);
    assert_true(ecs_sched_is_alive(w, e));
    set_and_apply(w, app, MENU);
    assert_false(ecs_sched_is_alive(w, e));
    check_and_destroy(w);
}

static void state_conditions_see_whether_a_sub_state_exists(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w), phase = turn_phase(w, app);
    (void)state;
    ADD_SYSTEM(w, .name = "exists", .fn = record,
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_state_exists(phase))});
    ADD_SYSTEM(w, .name = "moving", .fn = record,
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_in_state(phase, MOVE))});
    ADD_SYSTEM(w, .name = "changed", .fn = record,
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_state_changed(phase))});
    apply(w);
    assert_run_traces(w, "");
    set_and_apply(w, app, PLAYING);
    assert_run_traces(w, "exists moving changed");
    set_and_apply(w, app, MENU);
    assert_run_traces(w, "exists moving changed changed");
    check_and_destroy(w);
}

/* ---- dependent machines together ---- */

/* AppState and Daylight (roots), InGame (computed from AppState), TurnPhase (a sub-state of
   AppState): exits run from the most dependent machine to the roots, enters the other way. */
static void exits_run_leaf_to_root_and_enters_root_to_leaf(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w), light = daylight(w), game = in_game(w, app);
    ecs_sched_id phase = turn_phase(w, app);
    (void)state;
    apply(w);
    trace_enters_and_exits(w, app, 2);
    trace_enters_and_exits(w, light, 2);
    trace_enters_and_exits(w, game, 1);
    trace_enters_and_exits(w, phase, 1);
    trace_in(w, ecs_sched_on_transition(w, app, MENU, PLAYING), "Menu>Playing");
    trace_in(w, ecs_sched_on_transition(w, light, NIGHT, DAY), "Night>Day");
    trace_in(w, ecs_sched_on_transition(w, app, PLAYING, MENU), "Playing>Menu");
    trace_in(w, ecs_sched_on_transition(w, light, DAY, NIGHT), "Day>Night");
    assert_int_equal(ecs_sched_state_set(w, light, DAY), ECS_SCHED_OK);
    set_and_apply(w, app, PLAYING);
    assert_string_equal(g_trace, "-Night -Menu Menu>Playing Night>Day +Playing +Day +InGame +Move");
    g_trace[0] = '\0';
    assert_int_equal(ecs_sched_state_set(w, light, NIGHT), ECS_SCHED_OK);
    set_and_apply(w, app, MENU);
    assert_string_equal(g_trace,
                        "-Move -InGame -Day -Playing Playing>Menu Day>Night +Menu +Night");
    check_and_destroy(w);
}

static void a_reentered_parent_restarts_the_machines_that_depend_on_it(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w), game = in_game(w, app), phase = turn_phase(w, app);
    (void)state;
    apply(w);
    set_and_apply(w, app, PLAYING);
    set_and_apply(w, phase, END);
    trace_enters_and_exits(w, app, 2);
    trace_enters_and_exits(w, game, 1);
    trace_enters_and_exits(w, phase, 3);
    assert_int_equal(ecs_sched_state_set_reenter(w, app, PLAYING), ECS_SCHED_OK);
    apply(w);
    assert_string_equal(g_trace, "-End -InGame -Playing +Playing +InGame +Move");
    assert_int_equal(ecs_sched_state_get(w, phase), MOVE);
    check_and_destroy(w);
}

static void an_apply_for_one_machine_also_applies_the_machines_that_depend_on_it(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w), light = daylight(w), game = in_game(w, app);
    ecs_sched_id phase = turn_phase(w, app);
    (void)state;
    apply(w);
    assert_int_equal(ecs_sched_state_set(w, light, DAY), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_set(w, app, PLAYING), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_apply(w, app), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_get(w, game), IN_GAME);
    assert_int_equal(ecs_sched_state_get(w, phase), MOVE);
    assert_int_equal(ecs_sched_state_get(w, light), NIGHT);   /* still queued */
    apply(w);
    assert_int_equal(ecs_sched_state_get(w, light), DAY);
    check_and_destroy(w);
}

/* A sub-state of a sub-state, and a computed state of the inner one. */
static int32_t attacking_of(const int32_t *sources, void *user_data) {
    (void)user_data;
    return sources[0] == ATTACK ? 0 : ECS_SCHED_STATE_NONE;
}

static void dependencies_chain_through_several_machines(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w), phase = turn_phase(w, app);
    ecs_sched_id target = ecs_sched_state_register(
        w, &(ecs_sched_state_desc){.name = "Target", .values = {"Near", "Far"}, .parent = phase,
                                   .parent_values = {[ATTACK] = true}});
    ecs_sched_id attacking = ecs_sched_state_register(
        w, &(ecs_sched_state_desc){.name = "Attacking", .values = {"Yes"}, .sources = {phase},
                                   .compute = attacking_of});
    (void)state;
    assert_true(target != 0 && attacking != 0);
    apply(w);
    set_and_apply(w, app, PLAYING);
    trace_enters_and_exits(w, target, 2);
    trace_enters_and_exits(w, attacking, 1);
    set_and_apply(w, phase, ATTACK);
    assert_string_equal(g_trace, "+Near +Yes");
    set_and_apply(w, target, 1);
    set_and_apply(w, app, MENU);   /* the root leaves: everything below goes, leaves first */
    assert_string_equal(g_trace, "+Near +Yes -Near +Far -Yes -Far");
    assert_int_equal(ecs_sched_state_get(w, target), ECS_SCHED_STATE_NONE);
    check_and_destroy(w);
}

static void the_apply_system_applies_dependent_machines_inside_a_schedule(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w), game = in_game(w, app);
    ecs_sched_system_desc apply_system = ecs_sched_state_transitions_system(0);
    ecs_sched_state_transition t;
    (void)state;
    assert_int_equal(ecs_sched_add_system(w, "StateTransition", &apply_system), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, "StateTransition"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_set(w, app, PAUSED), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, "StateTransition"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_last_transition(w, game, &t), ECS_SCHED_OK);
    assert_int_equal(t.from, ECS_SCHED_STATE_NONE);
    assert_int_equal(t.to, IN_GAME);
    assert_true(t.this_run);
    check_and_destroy(w);
}

/* Traces "fresh" when the machine's last transition happened in this run. */
static void trace_fresh(ecs_sched_system_ctx *ctx) {
    ecs_sched_state_transition t;
    assert_int_equal(ecs_sched_ctx_state_last_transition(ctx, g_machine, &t), ECS_SCHED_OK);
    trace_add(t.this_run ? "fresh" : "old");
}

static void a_transition_applied_outside_any_run_counts_for_the_next_run(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w);
    ecs_sched_state_transition t;
    (void)state;
    g_machine = app;
    ADD_SYSTEM(w, .name = "frame", .fn = noop);
    assert_int_equal(ecs_sched_add_system(w, ecs_sched_on_enter(w, app, MENU),
                                          &(ecs_sched_system_desc){.name = "enter", .fn = trace_fresh,
                                                                   .reads = {app}}),
                     ECS_SCHED_OK);
    assert_run_traces(w, "");
    apply(w);   /* its OnEnter(Menu) run sees the transition as this run's */
    assert_string_equal(g_trace, "fresh");
    g_trace[0] = '\0';
    assert_int_equal(ecs_sched_state_last_transition(w, app, &t), ECS_SCHED_OK);
    assert_true(t.this_run);
    assert_run_traces(w, "");
    assert_int_equal(ecs_sched_state_last_transition(w, app, &t), ECS_SCHED_OK);
    assert_true(t.this_run);   /* the run right after the apply */
    assert_run_traces(w, "");
    assert_int_equal(ecs_sched_state_last_transition(w, app, &t), ECS_SCHED_OK);
    assert_false(t.this_run);
    check_and_destroy(w);
}

/* OnExit(AppState::Playing): pops TurnPhase while the apply is running. */
static void pop_phase(ecs_sched_system_ctx *ctx) {
    assert_int_equal(ecs_sched_state_pop(ecs_sched_ctx_world(ctx), g_machine), ECS_SCHED_OK);
}

static void a_pop_queued_before_a_restart_emptied_the_stack_is_dropped_and_reported(
    void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w), phase = turn_phase(w, app);
    (void)state;
    g_machine = phase;
    assert_int_equal(ecs_sched_add_system(w, ecs_sched_on_exit(w, app, PLAYING),
                                          &(ecs_sched_system_desc){.name = "pop", .fn = pop_phase,
                                                                   .exclusive = true}),
                     ECS_SCHED_OK);
    apply(w);
    set_and_apply(w, app, PLAYING);
    assert_int_equal(ecs_sched_state_push(w, phase, ATTACK), ECS_SCHED_OK);
    apply(w);
    assert_int_equal(ecs_sched_state_set_reenter(w, app, PLAYING), ECS_SCHED_OK);
    apply(w);   /* the pop is queued by OnExit(Playing); the restart empties the stack */
    assert_int_equal(ecs_sched_state_depth(w, phase), 0);
    assert_int_equal(ecs_sched_state_apply(w, 0), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "'TurnPhase': a pop queued during the previous apply");
    assert_int_equal(ecs_sched_state_get(w, phase), MOVE);
    assert_int_equal(ecs_sched_state_depth(w, phase), 0);
    apply(w);   /* dropped: nothing is left queued */
    check_and_destroy(w);
}

/* A source re-entered restarts everything below it, whatever value each was in. */
static int32_t follow_phase(const int32_t *sources, void *user_data) {
    (void)user_data;
    return sources[0] == ECS_SCHED_STATE_NONE ? ECS_SCHED_STATE_NONE : 0;
}

static void a_restart_reaches_every_machine_below_the_restarted_one(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w), phase = turn_phase(w, app);
    ecs_sched_id target = ecs_sched_state_register(
        w, &(ecs_sched_state_desc){.name = "Target", .values = {"Near", "Far"}, .parent = phase,
                                   .parent_values = {[MOVE] = true, [ATTACK] = true}});
    ecs_sched_id shown = ecs_sched_state_register(
        w, &(ecs_sched_state_desc){.name = "Shown", .values = {"Shown"}, .sources = {phase},
                                   .compute = follow_phase});
    (void)state;
    assert_true(target != 0 && shown != 0);
    apply(w);
    set_and_apply(w, app, PLAYING);
    set_and_apply(w, phase, ATTACK);
    set_and_apply(w, target, 1);
    trace_enters_and_exits(w, phase, 3);
    trace_enters_and_exits(w, target, 2);
    trace_enters_and_exits(w, shown, 1);
    assert_int_equal(ecs_sched_state_set_reenter(w, app, PLAYING), ECS_SCHED_OK);
    apply(w);
    assert_string_equal(g_trace, "-Shown -Far -Attack +Move +Near +Shown");
    check_and_destroy(w);
}

/* ---- registration ---- */

static void registering_a_dependent_machine_again_gives_the_same_id(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w), game = in_game(w, app), phase = turn_phase(w, app);
    (void)state;
    assert_int_equal(in_game(w, app), game);
    assert_int_equal(turn_phase(w, app), phase);
    assert_int_equal(ecs_sched_state_register(
                         w, &(ecs_sched_state_desc){.name = "TurnPhase",
                                                    .values = {"Move", "Attack", "End"},
                                                    .parent = app,
                                                    .parent_values = {[PLAYING] = true}}),
                     0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_STATE_MISMATCH);
    assert_int_equal(ecs_sched_state_register(
                         w, &(ecs_sched_state_desc){.name = "InGame", .values = {"InGame"},
                                                    .sources = {app}, .compute = attacking_of}),
                     0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_STATE_MISMATCH);
    check_and_destroy(w);
}

static void a_dependency_cycle_is_refused_with_its_path(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w), game = in_game(w, app);
    ecs_sched_id phase = turn_phase(w, app);
    (void)state;
    /* AppState again, now computed from InGame, which is computed from AppState */
    assert_int_equal(ecs_sched_state_register(
                         w, &(ecs_sched_state_desc){
                                .name = "AppState",
                                .values = {"Menu", "Playing", "Paused", "GameOver"},
                                .sources = {phase, game}, .compute = in_game_of}),
                     0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_STATE_CYCLE);
    assert_contains(ecs_sched_last_error(w), "AppState -> TurnPhase -> AppState");
    assert_int_equal(ecs_sched_state_register(
                         w, &(ecs_sched_state_desc){.name = "AppState",
                                                    .values = {"Menu", "Playing", "Paused",
                                                               "GameOver"},
                                                    .parent = app,
                                                    .parent_values = {[MENU] = true}}),
                     0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_STATE_CYCLE);
    assert_contains(ecs_sched_last_error(w), "AppState -> AppState");
    apply(w);   /* nothing changed: AppState is still a root */
    assert_int_equal(ecs_sched_state_get(w, app), MENU);
    check_and_destroy(w);
}

#define REFUSED(w, result, text, ...)                                                           \
    do {                                                                                        \
        assert_int_equal(ecs_sched_state_register((w), &(ecs_sched_state_desc){__VA_ARGS__}), 0); \
        assert_int_equal(ecs_sched_last_result(w), (result));                                  \
        assert_contains(ecs_sched_last_error(w), (text));                                      \
    } while (0)

static void bad_dependent_machines_are_refused_with_what_is_wrong(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id app = app_state(w);
    (void)state;
    REFUSED(w, ECS_SCHED_ERR_INVALID_ARGUMENT, "('C'): .sources is given without .compute",
            .name = "C", .values = {"A"}, .sources = {app});
    REFUSED(w, ECS_SCHED_ERR_INVALID_ARGUMENT, "('C'): .compute is given without .sources",
            .name = "C", .values = {"A"}, .compute = in_game_of);
    REFUSED(w, ECS_SCHED_ERR_INVALID_ARGUMENT, "('C'): .sources[0] is 0 but .sources[1]",
            .name = "C", .values = {"A"}, .sources = {0, app}, .compute = in_game_of);
    REFUSED(w, ECS_SCHED_ERR_UNKNOWN_STATE, "('C'): .sources[1], id 999",
            .name = "C", .values = {"A"}, .sources = {app, 999}, .compute = in_game_of);
    REFUSED(w, ECS_SCHED_ERR_INVALID_ARGUMENT, "('C'): a computed state takes no .parent",
            .name = "C", .values = {"A", "B"}, .sources = {app}, .compute = in_game_of,
            .initial = 1);
    REFUSED(w, ECS_SCHED_ERR_INVALID_ARGUMENT, "('C'): a computed state takes no .parent",
            .name = "C", .values = {"A"}, .sources = {app}, .compute = in_game_of, .parent = app,
            .parent_values = {true});
    REFUSED(w, ECS_SCHED_ERR_INVALID_ARGUMENT, "('C'): a computed state takes no .parent",
            .name = "C", .values = {"A"}, .sources = {app}, .compute = in_game_of,
            .parent_values = {true});
    REFUSED(w, ECS_SCHED_ERR_UNKNOWN_STATE, "('S'): .parent, id 999",
            .name = "S", .values = {"A"}, .parent = 999, .parent_values = {true});
    REFUSED(w, ECS_SCHED_ERR_INVALID_ARGUMENT, "('S'): a sub-state needs .parent_values",
            .name = "S", .values = {"A"}, .parent = app);
    REFUSED(w, ECS_SCHED_ERR_INVALID_ARGUMENT, "('S'): .parent_values[4] is set, but parent "
            "'AppState' has only 4 values",
            .name = "S", .values = {"A"}, .parent = app, .parent_values = {[4] = true});
    REFUSED(w, ECS_SCHED_ERR_INVALID_ARGUMENT, "('S'): .parent_values is given without .parent",
            .name = "S", .values = {"A"}, .parent_values = {true});
    assert_int_equal(ecs_sched_component_lookup(w, "State(C)"), 0);
    assert_int_equal(ecs_sched_component_lookup(w, "State(S)"), 0);
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_computed_state_follows_its_sources),
        cmocka_unit_test(a_computed_state_enters_and_exits_when_its_value_appears_and_goes),
        cmocka_unit_test(a_source_moving_to_a_value_with_the_same_result_runs_nothing),
        cmocka_unit_test(a_computed_state_is_computed_only_when_a_source_moves),
        cmocka_unit_test(a_computed_state_sees_each_source_in_order_and_none_for_an_absent_one),
        cmocka_unit_test(a_computed_state_cannot_be_queued),
        cmocka_unit_test(a_computed_value_out_of_range_is_reported_and_the_old_value_kept),
        cmocka_unit_test(a_sub_state_exists_only_while_its_parent_is_in_its_values),
        cmocka_unit_test(a_sub_state_takes_its_own_values_while_it_exists),
        cmocka_unit_test(a_sub_state_keeps_its_value_while_the_parent_moves_among_its_values),
        cmocka_unit_test(a_sub_state_starts_again_at_its_initial_value),
        cmocka_unit_test(queuing_a_sub_state_that_does_not_exist_is_refused_and_names_it),
        cmocka_unit_test(a_sub_state_request_is_dropped_when_its_parent_leaves),
        cmocka_unit_test(a_sub_state_that_stops_existing_exits_its_covered_values_too),
        cmocka_unit_test(entities_scoped_to_a_sub_state_go_when_it_stops_existing),
        cmocka_unit_test(state_conditions_see_whether_a_sub_state_exists),
        cmocka_unit_test(exits_run_leaf_to_root_and_enters_root_to_leaf),
        cmocka_unit_test(a_reentered_parent_restarts_the_machines_that_depend_on_it),
        cmocka_unit_test(an_apply_for_one_machine_also_applies_the_machines_that_depend_on_it),
        cmocka_unit_test(dependencies_chain_through_several_machines),
        cmocka_unit_test(the_apply_system_applies_dependent_machines_inside_a_schedule),
        cmocka_unit_test(a_transition_applied_outside_any_run_counts_for_the_next_run),
        cmocka_unit_test(a_pop_queued_before_a_restart_emptied_the_stack_is_dropped_and_reported),
        cmocka_unit_test(a_restart_reaches_every_machine_below_the_restarted_one),
        cmocka_unit_test(registering_a_dependent_machine_again_gives_the_same_id),
        cmocka_unit_test(a_dependency_cycle_is_refused_with_its_path),
        cmocka_unit_test(bad_dependent_machines_are_refused_with_what_is_wrong),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
