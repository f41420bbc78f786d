/* tour_states.c - state machines in ecs_sched.h: values, transitions and the schedules that
   run on them, state conditions, the state stack, transitions inside a loop that runs
   several times a frame, computed states and sub-states.

   The tour has six files; read them in this order:
     tour_world.c      the world: components, entities, resources, queries
     tour_commands.c   command buffers, errors, allocator and logger hooks, stb_ds
     tour_schedules.c  systems, sets, order, run conditions, sync points, the executor
     tour_threads.c    the thread pool, the parallel executor, parallel queries
     tour_states.c     state machines, the state stack, state-scoped entities, computed
                       states and sub-states (this file)
     tour_app.c        the app, time, the fixed step, plugins

   It prints what it shows and exits with status 1 if something it claims does not hold.
   Build and run from the repository root (the header, and stb_ds.h from libstb-dev):

       cc -std=c99 -O2 -I. $(pkg-config --cflags stb) examples/tour_states.c \
          $(pkg-config --libs stb) -o tour_states && ./tour_states */
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(cond)                                                             \
    do {                                                                        \
        if (!(cond)) {                                                          \
            printf("CHECK FAILED, line %d: %s\n", __LINE__, #cond);             \
            failures++;                                                         \
        }                                                                       \
    } while (0)

static void section(const char *title) {
    printf("\n== %s\n", title);
}

enum { MENU, PLAYING, PAUSED };

static ecs_sched_world *world;   /* the tour's world, for value names in messages */
static ecs_sched_id game;        /* the GameState machine */

/* A system that says it ran: its name, and the machine's value as it sees it. */
static void say(ecs_sched_system_ctx *ctx) {
    int32_t value = ecs_sched_ctx_state(ctx, game);
    printf("  %-14s sees GameState = %s\n", ecs_sched_ctx_name(ctx),
           value == ECS_SCHED_STATE_NONE
               ? "(none)"
               : ecs_sched_state_value_name(world, game, value));
}

/* say, as a system that reads the machine, added to `schedule`. */
static void add_say(ecs_sched_world *w, const char *schedule, const char *name) {
    ecs_sched_system_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.name = name;
    desc.fn = say;
    desc.reads[0] = game;
    CHECK(ecs_sched_add_system(w, schedule, &desc) == ECS_SCHED_OK);
}

/* ==== State machines ====

   A machine is registered with a name, its values' names and an initial value; it gets an
   id, which is also the id of the resource holding its current value. Until the first apply
   of transitions the machine has no value. */
static void state_machines(ecs_sched_world *w) {
    section("State machines");
    game = ecs_sched_state_register(w, &(ecs_sched_state_desc){
                                           .name = "GameState",
                                           .values = {"Menu", "Playing", "Paused"},
                                           .initial = MENU});
    CHECK(game != 0);
    CHECK(ecs_sched_state_get(w, game) == ECS_SCHED_STATE_NONE);
    printf("registered GameState: %s, %s, %s; no value yet\n",
           ecs_sched_state_value_name(w, game, MENU), ecs_sched_state_value_name(w, game, PLAYING),
           ecs_sched_state_value_name(w, game, PAUSED));
}

/* ==== Transitions ====

   An exclusive apply system, placed in a schedule of your choice ("StateTransition" here),
   applies what is queued: OnExit(old), the new value, OnTransition(old, new), OnEnter(new).
   Those are ordinary schedules; ecs_sched_on_enter and friends give their labels. */
static void transitions(ecs_sched_world *w) {
    ecs_sched_system_desc apply = ecs_sched_state_transitions_system(0);
    section("Transitions");
    CHECK(ecs_sched_add_system(w, "StateTransition", &apply) == ECS_SCHED_OK);
    add_say(w, ecs_sched_on_enter(w, game, MENU), "enter_menu");
    add_say(w, ecs_sched_on_exit(w, game, MENU), "exit_menu");
    add_say(w, ecs_sched_on_transition(w, game, MENU, PLAYING), "start_game");
    add_say(w, ecs_sched_on_enter(w, game, PLAYING), "enter_playing");
    printf("schedules: %s, %s, %s\n", ecs_sched_on_enter(w, game, PLAYING),
           ecs_sched_on_exit(w, game, MENU), ecs_sched_on_transition(w, game, MENU, PLAYING));

    printf("first apply (enters the initial value):\n");
    CHECK(ecs_sched_run_schedule(w, "StateTransition") == ECS_SCHED_OK);
    CHECK(ecs_sched_state_get(w, game) == MENU);

    printf("Playing queued, then an apply:\n");
    CHECK(ecs_sched_state_set(w, game, PLAYING) == ECS_SCHED_OK);
    CHECK(ecs_sched_run_schedule(w, "StateTransition") == ECS_SCHED_OK);
    CHECK(ecs_sched_state_get(w, game) == PLAYING);

    printf("Playing queued again (nothing runs), then re-entered:\n");
    CHECK(ecs_sched_state_set(w, game, PLAYING) == ECS_SCHED_OK);
    CHECK(ecs_sched_run_schedule(w, "StateTransition") == ECS_SCHED_OK);
    CHECK(ecs_sched_state_set_reenter(w, game, PLAYING) == ECS_SCHED_OK);
    CHECK(ecs_sched_run_schedule(w, "StateTransition") == ECS_SCHED_OK);

    printf("a value that is not one: %s\n",
           ecs_sched_result_string(ecs_sched_state_set(w, game, 7)));
    printf("  %s\n", ecs_sched_last_error(w));
}

/* ==== State conditions ====

   in_state gates systems or whole sets on a value; state_changed fires once after each
   change; state_exists from the first apply on. Each declares a read of the machine. */
static void conditions(ecs_sched_world *w) {
    section("State conditions");
    CHECK(ecs_sched_configure_set(w, "Update", &(ecs_sched_set_desc){
              .name = "gameplay",
              .run_if = {ECS_SCHED_COND(ecs_sched_condition_in_state(game, PLAYING))}}) ==
          ECS_SCHED_OK);
    CHECK(ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
              .name = "move_player", .fn = say, .reads = {game},
              .in_set = {"gameplay"}}) == ECS_SCHED_OK);
    CHECK(ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
              .name = "pause_menu", .fn = say, .reads = {game},
              .run_if = {ECS_SCHED_COND(ecs_sched_condition_in_state(game, PAUSED))}}) ==
          ECS_SCHED_OK);
    CHECK(ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
              .name = "on_change", .fn = say, .reads = {game},
              .run_if = {ECS_SCHED_COND(ecs_sched_condition_state_changed(game))}}) ==
          ECS_SCHED_OK);
    printf("Update while Playing:\n");
    CHECK(ecs_sched_run_schedule(w, "Update") == ECS_SCHED_OK);
    printf("Update again (no change since):\n");
    CHECK(ecs_sched_run_schedule(w, "Update") == ECS_SCHED_OK);
    CHECK(ecs_sched_state_set(w, game, PAUSED) == ECS_SCHED_OK);
    CHECK(ecs_sched_run_schedule(w, "StateTransition") == ECS_SCHED_OK);
    printf("Update while Paused:\n");
    CHECK(ecs_sched_run_schedule(w, "Update") == ECS_SCHED_OK);
}

/* ==== The stack ====

   A push covers the current value (OnPause of it, OnEnter of the pushed one); a pop goes back
   (OnExit of the top, OnResume of the revealed one). The covered value is never exited:
   whatever Playing set up stays while the pause menu is open. */
static void stack(ecs_sched_world *w) {
    section("The stack");
    add_say(w, ecs_sched_on_pause(w, game, PLAYING), "pause_playing");
    add_say(w, ecs_sched_on_resume(w, game, PLAYING), "resume_playing");
    add_say(w, ecs_sched_on_exit(w, game, PAUSED), "exit_paused");
    add_say(w, ecs_sched_on_enter(w, game, PAUSED), "enter_paused");
    CHECK(ecs_sched_state_set(w, game, PLAYING) == ECS_SCHED_OK);
    CHECK(ecs_sched_run_schedule(w, "StateTransition") == ECS_SCHED_OK);
    printf("Paused pushed over Playing:\n");
    CHECK(ecs_sched_state_push(w, game, PAUSED) == ECS_SCHED_OK);
    CHECK(ecs_sched_run_schedule(w, "StateTransition") == ECS_SCHED_OK);
    CHECK(ecs_sched_state_depth(w, game) == 1);
    printf("Update while Paused covers Playing:\n");
    CHECK(ecs_sched_run_schedule(w, "Update") == ECS_SCHED_OK);
    printf("popped:\n");
    CHECK(ecs_sched_state_pop(w, game) == ECS_SCHED_OK);
    CHECK(ecs_sched_run_schedule(w, "StateTransition") == ECS_SCHED_OK);
    CHECK(ecs_sched_state_get(w, game) == PLAYING && ecs_sched_state_depth(w, game) == 0);
}

/* ==== State-scoped entities ====

   An entity carrying the machine's StateScoped component goes when its value is exited (or,
   with ecs_sched_despawn_on_enter, when one is entered), during the transition. */
static void scoped(ecs_sched_world *w) {
    ecs_sched_id scope = ecs_sched_state_scope_id(w, game);
    ecs_sched_state_scoped level = ecs_sched_despawn_on_exit(PLAYING);
    ecs_sched_entity e = ecs_sched_spawn_with(w, 1, &scope, (const void *const[]){&level});
    section("State-scoped entities");
    CHECK(e != 0 && ecs_sched_state_get(w, game) == PLAYING);
    printf("a level entity, scoped to Playing: %s\n", ecs_sched_is_alive(w, e) ? "alive" : "gone");
    CHECK(ecs_sched_state_push(w, game, PAUSED) == ECS_SCHED_OK);
    CHECK(ecs_sched_run_schedule(w, "StateTransition") == ECS_SCHED_OK);
    printf("with Paused pushed over Playing: %s\n", ecs_sched_is_alive(w, e) ? "alive" : "gone");
    CHECK(ecs_sched_is_alive(w, e));
    CHECK(ecs_sched_state_set(w, game, MENU) == ECS_SCHED_OK);   /* replaces the top */
    CHECK(ecs_sched_run_schedule(w, "StateTransition") == ECS_SCHED_OK);
    CHECK(ecs_sched_state_pop(w, game) == ECS_SCHED_OK);         /* back to Playing */
    CHECK(ecs_sched_run_schedule(w, "StateTransition") == ECS_SCHED_OK);
    CHECK(ecs_sched_state_set(w, game, MENU) == ECS_SCHED_OK);   /* Playing exited */
    CHECK(ecs_sched_run_schedule(w, "StateTransition") == ECS_SCHED_OK);
    printf("after Playing was exited: %s\n", ecs_sched_is_alive(w, e) ? "alive" : "gone");
    CHECK(!ecs_sched_is_alive(w, e));
    CHECK(ecs_sched_state_set(w, game, PLAYING) == ECS_SCHED_OK);
    CHECK(ecs_sched_run_schedule(w, "StateTransition") == ECS_SCHED_OK);
}

/* ==== Transitions inside a loop ====

   An apply system can sit in a schedule that runs several times per frame, such as a fixed
   update: a value queued at one step is entered before the next. */
static int steps;

static void step(ecs_sched_system_ctx *ctx) {
    steps++;
    printf("  step %d in %s\n", steps,
           ecs_sched_state_value_name(world, game, ecs_sched_ctx_state(ctx, game)));
    if (steps == 2) CHECK(ecs_sched_ctx_state_set(ctx, game, MENU) == ECS_SCHED_OK);
}

static void run_fixed_three_times(ecs_sched_system_ctx *ctx) {
    int i;
    for (i = 0; i < 3; i++) {
        CHECK(ecs_sched_run_schedule(ecs_sched_ctx_world(ctx), "Fixed") == ECS_SCHED_OK);
    }
}

static void loops(ecs_sched_world *w) {
    ecs_sched_system_desc apply = ecs_sched_state_transitions_system(game);
    section("Transitions inside a loop");
    apply.name = "apply_in_fixed";
    apply.before[0] = "step";
    CHECK(ecs_sched_add_system(w, "Fixed", &apply) == ECS_SCHED_OK);
    CHECK(ecs_sched_add_system(w, "Fixed", &(ecs_sched_system_desc){
              .name = "step", .fn = step, .reads = {game},
              .writes = {ecs_sched_state_next_id(w, game)}}) == ECS_SCHED_OK);
    CHECK(ecs_sched_add_system(w, "Frame", &(ecs_sched_system_desc){
              .name = "fixed_runner", .fn = run_fixed_three_times, .exclusive = true}) ==
          ECS_SCHED_OK);
    CHECK(ecs_sched_run_schedule(w, "Frame") == ECS_SCHED_OK);
    CHECK(steps == 3 && ecs_sched_state_get(w, game) == MENU);
}

/* ==== Computed states ====

   A computed state's value is a function of other machines' values (its sources), or "does
   not exist"; it is recomputed when a source moves, and has OnEnter and OnExit like any
   machine. InGame exists while GameState is Playing or Paused: going from one to the other
   leaves it alone. It cannot be queued. */
enum { IN_GAME };
static ecs_sched_id in_game;

static int32_t in_game_of(const int32_t *sources, void *user_data) {
    (void)user_data;
    return sources[0] == PLAYING || sources[0] == PAUSED ? IN_GAME : ECS_SCHED_STATE_NONE;
}

static void announce(ecs_sched_system_ctx *ctx) {
    printf("  %s\n", ecs_sched_ctx_name(ctx));
}

static void add_announce(ecs_sched_world *w, const char *schedule, const char *name) {
    ecs_sched_system_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.name = name;
    desc.fn = announce;
    CHECK(ecs_sched_add_system(w, schedule, &desc) == ECS_SCHED_OK);
}

static void computed(ecs_sched_world *w) {
    section("Computed states");
    in_game = ecs_sched_state_register(w, &(ecs_sched_state_desc){
                                              .name = "InGame", .values = {"InGame"},
                                              .sources = {game}, .compute = in_game_of});
    CHECK(in_game != 0);
    add_announce(w, ecs_sched_on_enter(w, in_game, IN_GAME), "enter_in_game");
    add_announce(w, ecs_sched_on_exit(w, in_game, IN_GAME), "exit_in_game");
    printf("Menu -> Playing:\n");
    CHECK(ecs_sched_state_set(w, game, PLAYING) == ECS_SCHED_OK);
    CHECK(ecs_sched_run_schedule(w, "StateTransition") == ECS_SCHED_OK);
    CHECK(ecs_sched_state_get(w, in_game) == IN_GAME);
    printf("Playing -> Paused (InGame stays):\n");
    CHECK(ecs_sched_state_set(w, game, PAUSED) == ECS_SCHED_OK);
    CHECK(ecs_sched_run_schedule(w, "StateTransition") == ECS_SCHED_OK);
    printf("queuing InGame itself: %s\n",
           ecs_sched_result_string(ecs_sched_state_set(w, in_game, IN_GAME)));
    printf("  %s\n", ecs_sched_last_error(w));
    printf("Paused -> Menu:\n");
    CHECK(ecs_sched_state_set(w, game, MENU) == ECS_SCHED_OK);
    CHECK(ecs_sched_run_schedule(w, "StateTransition") == ECS_SCHED_OK);
    CHECK(ecs_sched_state_get(w, in_game) == ECS_SCHED_STATE_NONE);
}

/* ==== Sub-states ====

   A sub-state exists only while its parent has one of given values. TurnPhase exists while
   GameState is Playing: it starts at its initial value when Playing is entered, takes queued
   values while it exists, and is exited when Playing is left. In one apply, exits run from
   the most dependent machine to its sources, enters the other way. ecs_sched_state_apply
   applies the queue from outside any schedule. */
enum { MOVE, ATTACK };

static void sub_states(ecs_sched_world *w) {
    ecs_sched_id phase;
    section("Sub-states");
    phase = ecs_sched_state_register(w, &(ecs_sched_state_desc){
                                            .name = "TurnPhase", .values = {"Move", "Attack"},
                                            .parent = game, .parent_values = {[PLAYING] = true}});
    CHECK(phase != 0);
    add_announce(w, ecs_sched_on_enter(w, phase, MOVE), "enter_move");
    add_announce(w, ecs_sched_on_exit(w, phase, MOVE), "exit_move");
    add_announce(w, ecs_sched_on_enter(w, phase, ATTACK), "enter_attack");
    add_announce(w, ecs_sched_on_exit(w, phase, ATTACK), "exit_attack");
    add_announce(w, ecs_sched_on_exit(w, game, PLAYING), "exit_playing");
    printf("TurnPhase while in the Menu: %s\n",
           ecs_sched_result_string(ecs_sched_state_set(w, phase, ATTACK)));
    printf("  %s\n", ecs_sched_last_error(w));
    printf("Menu -> Playing:\n");
    CHECK(ecs_sched_state_set(w, game, PLAYING) == ECS_SCHED_OK);
    CHECK(ecs_sched_state_apply(w, 0) == ECS_SCHED_OK);
    CHECK(ecs_sched_state_get(w, phase) == MOVE);
    printf("Move -> Attack:\n");
    CHECK(ecs_sched_state_set(w, phase, ATTACK) == ECS_SCHED_OK);
    CHECK(ecs_sched_state_apply(w, 0) == ECS_SCHED_OK);
    printf("Playing -> Menu (TurnPhase, then InGame, then GameState exit):\n");
    CHECK(ecs_sched_state_set(w, game, MENU) == ECS_SCHED_OK);
    CHECK(ecs_sched_state_apply(w, 0) == ECS_SCHED_OK);
    CHECK(ecs_sched_state_get(w, phase) == ECS_SCHED_STATE_NONE);
}

int main(void) {
    ecs_sched_world *w = world = ecs_sched_world_create(NULL);
    printf("ecs_sched %s: a tour of states\n", ECS_SCHED_VERSION_STRING);
    if (!w) return 1;
    state_machines(w);
    transitions(w);
    conditions(w);
    stack(w);
    scoped(w);
    loops(w);
    computed(w);
    sub_states(w);
    ecs_sched_world_destroy(w);
    printf("\n%s\n", failures ? "SOME CHECKS FAILED" : "all checks passed");
    return failures ? 1 : 0;
}
