/* The app: its default schedules and the order they run in (startup once, then the main order
   each update, the fixed order each fixed step), labels users insert, the frame loop (update,
   an explicit delta, run, pacing, exit codes), errors that reach the caller, transitions
   inside the fixed update, and the same world from both executors. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "app_fixture.h"

#define STEP ECS_SCHED_HZ(64)

static ecs_sched_world *world_of(ecs_sched_app *app) {
    return ecs_sched_app_world(app);
}

static void update_by(ecs_sched_app *app, int64_t delta_ns) {
    assert_int_equal(ecs_sched_app_update_by(app, delta_ns), ECS_SCHED_OK);
}

/* An order as one line: "First PreUpdate ...". */
static const char *order_of(ecs_sched_app *app, ecs_sched_app_order order) {
    static char text[512];
    const char *labels[32];
    int32_t n = ecs_sched_app_schedule_order(app, order, labels, 32), i;
    size_t length = 0;
    text[0] = '\0';
    for (i = 0; i < n && i < 32; i++) {
        length += (size_t)snprintf(text + length, sizeof text - length, "%s%s", i ? " " : "",
                                   labels[i]);
    }
    return text;
}

/* A system that traces its label in each of the given schedules. */
static void trace_each(ecs_sched_app *app, const char *const *labels, int count) {
    int i;
    for (i = 0; i < count; i++) app_trace_in(app, labels[i], labels[i]);
}

/* ---- the orders ---- */

static void the_default_orders_are_bevys(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    assert_string_equal(order_of(app, ECS_SCHED_ORDER_STARTUP), "PreStartup Startup PostStartup");
    assert_string_equal(order_of(app, ECS_SCHED_ORDER_MAIN),
                        "First PreUpdate StateTransition RunFixedMainLoop Update PostUpdate Last");
    assert_string_equal(order_of(app, ECS_SCHED_ORDER_FIXED),
                        "FixedFirst FixedPreUpdate FixedUpdate FixedPostUpdate FixedLast");
    destroy_app(app);
}

/* Every label of the orders but RunFixedMainLoop, whose runner is not ordered against a
   traced system. */
static const char *const every_label[] = {
    ECS_SCHED_PRE_STARTUP, ECS_SCHED_STARTUP, ECS_SCHED_POST_STARTUP, ECS_SCHED_FIRST,
    ECS_SCHED_PRE_UPDATE, ECS_SCHED_STATE_TRANSITION, ECS_SCHED_UPDATE, ECS_SCHED_POST_UPDATE, ECS_SCHED_LAST, ECS_SCHED_FIXED_FIRST,
    ECS_SCHED_FIXED_PRE_UPDATE, ECS_SCHED_FIXED_UPDATE, ECS_SCHED_FIXED_POST_UPDATE,
    ECS_SCHED_FIXED_LAST};

static void the_first_update_runs_startup_then_the_main_order_with_its_fixed_steps(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    trace_each(app, every_label, 14);
    update_by(app, STEP);                          /* one fixed step */
    /* StateTransition runs first to enter the initial states, then again in the main order */
    assert_string_equal(g_trace,
                        "StateTransition PreStartup Startup PostStartup First PreUpdate "
                        "StateTransition FixedFirst FixedPreUpdate FixedUpdate FixedPostUpdate "
                        "FixedLast Update PostUpdate Last");
    destroy_app(app);
}

static void startup_runs_once(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    trace_each(app, every_label, 3);
    update_by(app, 1);
    update_by(app, 1);
    update_by(app, 1);
    assert_string_equal(g_trace, "PreStartup Startup PostStartup");
    destroy_app(app);
}

static void an_update_with_less_than_a_step_runs_no_fixed_schedule(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    trace_each(app, every_label + 3, 11);
    update_by(app, 0);
    g_trace[0] = '\0';
    update_by(app, STEP - 1);
    assert_string_equal(g_trace, "First PreUpdate StateTransition Update PostUpdate Last");
    destroy_app(app);
}

enum { MENU, PLAYING, PAUSED, GAME_OVER };
static ecs_sched_id g_game;

static void trace_game_state(ecs_sched_system_ctx *ctx) {
    static const char *const names[] = {"Menu", "Playing", "Paused", "GameOver"};
    int32_t value = ecs_sched_ctx_state(ctx, g_game);
    trace_add(value >= 0 ? names[value] : "none");
}

static ecs_sched_id register_game(ecs_sched_world *w, int32_t initial) {
    g_game = ecs_sched_state_register(
        w, &(ecs_sched_state_desc){.name = "Game",
                                   .values = {"Menu", "Playing", "Paused", "GameOver"},
                                   .initial = initial});
    assert_true(g_game != 0);
    return g_game;
}

static void startup_sees_the_initial_states_entered(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = world_of(app);
    (void)state;
    register_game(w, PLAYING);
    app_trace_in(app, ecs_sched_on_enter(w, g_game, PLAYING), "enter_playing");
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_PRE_STARTUP,
                                          &(ecs_sched_system_desc){.name = "look",
                                                                   .fn = trace_game_state,
                                                                   .reads = {g_game}}),
                     ECS_SCHED_OK);
    update_by(app, 1);
    assert_string_equal(g_trace, "enter_playing Playing");
    destroy_app(app);
}

static ecs_sched_id g_next;

static void start_playing(ecs_sched_system_ctx *ctx) {
    assert_int_equal(ecs_sched_ctx_state_set(ctx, g_game, PLAYING), ECS_SCHED_OK);
}

static void a_transition_queued_in_startup_applies_in_the_same_first_frame(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = world_of(app);
    (void)state;
    register_game(w, MENU);
    g_next = ecs_sched_state_next_id(w, g_game);
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_STARTUP,
                                          &(ecs_sched_system_desc){.name = "start",
                                                                   .fn = start_playing,
                                                                   .writes = {g_next}}),
                     ECS_SCHED_OK);
    app_trace_in(app, ecs_sched_on_enter(w, g_game, PLAYING), "enter_playing");
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_UPDATE,
                                          &(ecs_sched_system_desc){.name = "look",
                                                                   .fn = trace_game_state,
                                                                   .reads = {g_game}}),
                     ECS_SCHED_OK);
    update_by(app, 1);
    assert_string_equal(g_trace, "enter_playing Playing");
    destroy_app(app);
}

/* ---- inserted labels ---- */

static void inserted_labels_run_where_they_were_put(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    assert_int_equal(ecs_sched_app_insert_schedule_after(app, ECS_SCHED_FIXED_UPDATE,
                                                         "PhysicsSync"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_app_insert_schedule_before(app, ECS_SCHED_UPDATE, "Input"),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_app_insert_schedule_after(app, ECS_SCHED_POST_STARTUP, "Loaded"),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_app_insert_schedule_before(app, ECS_SCHED_FIRST, "Zeroth"),
                     ECS_SCHED_OK);
    assert_string_equal(order_of(app, ECS_SCHED_ORDER_FIXED),
                        "FixedFirst FixedPreUpdate FixedUpdate PhysicsSync FixedPostUpdate "
                        "FixedLast");
    assert_string_equal(order_of(app, ECS_SCHED_ORDER_MAIN),
                        "Zeroth First PreUpdate StateTransition RunFixedMainLoop Input Update "
                        "PostUpdate Last");
    app_trace_in(app, "PhysicsSync", "sync");
    app_trace_in(app, ECS_SCHED_FIXED_UPDATE, "physics");
    app_trace_in(app, ECS_SCHED_FIXED_POST_UPDATE, "post");
    app_trace_in(app, "Input", "input");
    app_trace_in(app, ECS_SCHED_UPDATE, "update");
    app_trace_in(app, "Loaded", "loaded");
    app_trace_in(app, ECS_SCHED_POST_STARTUP, "post_startup");
    app_trace_in(app, "Zeroth", "zeroth");
    update_by(app, STEP);
    assert_string_equal(g_trace, "post_startup loaded zeroth physics sync post input update");
    destroy_app(app);
}

static void inserting_a_label_the_app_runs_already_is_refused(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = world_of(app);
    (void)state;
    assert_int_equal(ecs_sched_app_insert_schedule_after(app, ECS_SCHED_LAST, ECS_SCHED_UPDATE),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "'Update' is already run by the app "
                                                    "(in the main order)"));
    assert_int_equal(ecs_sched_app_insert_schedule_after(app, ECS_SCHED_LAST, ECS_SCHED_MAIN),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_app_insert_schedule_after(app, ECS_SCHED_LAST,
                                                         ECS_SCHED_FIXED_MAIN),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_app_insert_schedule_after(app, ECS_SCHED_LAST, "Extra"),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_app_insert_schedule_before(app, ECS_SCHED_FIRST, "Extra"),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_string_equal(order_of(app, ECS_SCHED_ORDER_MAIN),
                        "First PreUpdate StateTransition RunFixedMainLoop Update PostUpdate "
                        "Last Extra");
    destroy_app(app);
}

static void a_startup_label_cannot_be_inserted_once_startup_ran(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    update_by(app, 1);
    assert_int_equal(ecs_sched_app_insert_schedule_before(app, ECS_SCHED_STARTUP, "Late"),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(world_of(app)), "would never run"));
    assert_string_equal(order_of(app, ECS_SCHED_ORDER_STARTUP), "PreStartup Startup PostStartup");
    destroy_app(app);
}

static int g_startup_runs, g_flaky_calls;
static ecs_sched_id g_undeclared;

static void count_startup(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    g_startup_runs++;
}

/* Fails its first run: it reads a resource it did not declare. */
static void flaky(ecs_sched_system_ctx *ctx) {
    if (++g_flaky_calls == 1) (void)ecs_sched_ctx_resource(ctx, g_undeclared);
}

static void a_startup_schedule_that_fails_runs_again_at_the_next_update_and_the_rest_once(
    void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = world_of(app);
    (void)state;
    g_startup_runs = g_flaky_calls = 0;
    g_undeclared = ECS_SCHED_COMPONENT(w, Score);
    assert_int_equal(ecs_sched_resource_insert(w, g_undeclared, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_PRE_STARTUP,
                                          &(ecs_sched_system_desc){.name = "count",
                                                                   .fn = count_startup}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_STARTUP,
                                          &(ecs_sched_system_desc){.name = "flaky", .fn = flaky}),
                     ECS_SCHED_OK);
    app_trace_in(app, ECS_SCHED_POST_STARTUP, "post");
    assert_int_equal(ecs_sched_app_update_by(app, 1), ECS_SCHED_ERR_ACCESS);
    assert_string_equal(g_trace, "");
    update_by(app, 1);
    update_by(app, 1);
    assert_int_equal(g_startup_runs, 1);
    assert_int_equal(g_flaky_calls, 2);
    assert_string_equal(g_trace, "post");
    destroy_app(app);
}

static void inserting_next_to_a_label_in_no_order_is_refused(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = world_of(app);
    (void)state;
    assert_int_equal(ecs_sched_app_insert_schedule_after(app, "Physics", "PhysicsSync"),
                     ECS_SCHED_ERR_UNKNOWN_SCHEDULE);
    assert_non_null(strstr(ecs_sched_last_error(w), "'Physics' is in none of the app's orders"));
    assert_int_equal(ecs_sched_app_insert_schedule_after(app, NULL, "X"),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_app_insert_schedule_after(app, ECS_SCHED_LAST, ""),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_false(ecs_sched_schedule_exists(w, "PhysicsSync"));
    assert_string_equal(order_of(app, ECS_SCHED_ORDER_FIXED),
                        "FixedFirst FixedPreUpdate FixedUpdate FixedPostUpdate FixedLast");
    destroy_app(app);
}

static ecs_sched_app *g_inner_app;
static ecs_sched_result g_inner_result;

/* These two keep the result for the test to look at: they handle it, so it is not their
   failure. */
static void insert_during_update(ecs_sched_system_ctx *ctx) {
    g_inner_result = ecs_sched_app_insert_schedule_after(g_inner_app, ECS_SCHED_LAST, "Late");
    ecs_sched_ctx_clear_error(ctx);
}

static void update_during_update(ecs_sched_system_ctx *ctx) {
    g_inner_result = ecs_sched_app_update_by(g_inner_app, 1);
    ecs_sched_ctx_clear_error(ctx);
}

static void the_order_cannot_change_and_no_update_can_start_during_an_update(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = world_of(app);
    (void)state;
    g_inner_app = app;
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_UPDATE,
                                          &(ecs_sched_system_desc){.name = "inserter",
                                                                   .fn = insert_during_update,
                                                                   .exclusive = true}),
                     ECS_SCHED_OK);
    update_by(app, 1);
    assert_int_equal(g_inner_result, ECS_SCHED_ERR_SCHEDULE_RUNNING);
    assert_string_equal(order_of(app, ECS_SCHED_ORDER_MAIN),
                        "First PreUpdate StateTransition RunFixedMainLoop Update PostUpdate Last");
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_LAST,
                                          &(ecs_sched_system_desc){.name = "updater",
                                                                   .fn = update_during_update,
                                                                   .exclusive = true}),
                     ECS_SCHED_OK);
    update_by(app, 1);
    assert_int_equal(g_inner_result, ECS_SCHED_ERR_RECURSIVE_RUN);
    assert_int_equal(ecs_sched_app_frame_count(app), 2);
    destroy_app(app);
}

/* ---- errors ---- */

static void a_failing_schedule_stops_the_update_and_its_error_reaches_the_caller(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = world_of(app);
    (void)state;
    app_trace_in(app, ECS_SCHED_FIRST, "first");
    app_trace_in(app, ECS_SCHED_LAST, "last");
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_UPDATE,
                                          &(ecs_sched_system_desc){.name = "a", .fn = record,
                                                                   .after = {"b"}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_UPDATE,
                                          &(ecs_sched_system_desc){.name = "b", .fn = record,
                                                                   .after = {"a"}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_app_update_by(app, 1), ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    assert_non_null(strstr(ecs_sched_last_error(w), "Update"));
    assert_string_equal(g_trace, "first");        /* Last did not run */
    {
        int32_t code = -1;
        assert_int_equal(ecs_sched_app_run(app, NULL, &code), ECS_SCHED_ERR_DEPENDENCY_CYCLE);
        assert_int_equal(code, 0);
    }
    destroy_app(app);
}

static void a_failing_fixed_step_stops_the_fixed_loop_and_the_update(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = world_of(app);
    (void)state;
    app_trace_in(app, ECS_SCHED_FIXED_FIRST, "step");
    app_trace_in(app, ECS_SCHED_UPDATE, "update");
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_FIXED_UPDATE,
                                          &(ecs_sched_system_desc){.name = "a", .fn = record,
                                                                   .before = {"a"}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_app_update_by(app, 3 * STEP), ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    assert_string_equal(g_trace, "step");
    /* "Time" is the virtual clock again */
    assert_int_equal(((const ecs_sched_time *)ecs_sched_resource_get(w, ecs_sched_time_id(w)))
                         ->delta_ns,
                     3 * STEP);
    destroy_app(app);
}

/* ---- schedules the app never runs ---- */

static void a_system_in_a_schedule_the_app_never_runs_fails_the_update_naming_the_nearest(
    void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = world_of(app);
    (void)state;
    app_trace_in(app, ECS_SCHED_UPDATE, "update");
    app_trace_in(app, "Updte", "typo");
    assert_int_equal(ecs_sched_app_update_by(app, 1), ECS_SCHED_ERR_UNKNOWN_SCHEDULE);
    assert_non_null(strstr(ecs_sched_last_error(w), "'Updte'"));
    assert_non_null(strstr(ecs_sched_last_error(w), "'typo'"));
    assert_non_null(strstr(ecs_sched_last_error(w), "did you mean 'Update'?"));
    assert_non_null(strstr(ecs_sched_last_error(w), "ecs_sched_schedule_configure"));
    assert_string_equal(g_trace, "");              /* nothing ran */
    assert_int_equal(ecs_sched_app_frame_count(app), 0);
    destroy_app(app);
}

/* The check is made again when a system is added later, to a schedule that had none when the
   app last looked (a set configured in it made it). */
static void a_system_added_later_to_a_schedule_the_app_never_runs_fails_the_next_update(
    void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = world_of(app);
    (void)state;
    assert_int_equal(ecs_sched_configure_set(w, "Later", &(ecs_sched_set_desc){.name = "Group"}),
                     ECS_SCHED_OK);
    update_by(app, 1);
    app_trace_in(app, "Later", "late");
    assert_int_equal(ecs_sched_app_update_by(app, 1), ECS_SCHED_ERR_UNKNOWN_SCHEDULE);
    assert_non_null(strstr(ecs_sched_last_error(w), "'Later'"));
    destroy_app(app);
}

static ecs_sched_result g_turn_result;

static void run_turn(ecs_sched_system_ctx *ctx) {
    g_turn_result = ecs_sched_run_schedule(ecs_sched_ctx_world(ctx), "Turn");
}

/* A schedule made with ecs_sched_schedule_configure is the caller's to run: by an exclusive
   system here. */
static void a_schedule_made_with_configure_is_run_by_hand(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = world_of(app);
    (void)state;
    assert_int_equal(ecs_sched_schedule_configure(w, "Turn", NULL), ECS_SCHED_OK);
    app_trace_in(app, "Turn", "turn");
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_UPDATE,
                                          &(ecs_sched_system_desc){.name = "run_turn",
                                                                   .fn = run_turn,
                                                                   .exclusive = true}),
                     ECS_SCHED_OK);
    g_turn_result = ECS_SCHED_ERR_NOT_FOUND;
    update_by(app, 1);
    assert_int_equal(g_turn_result, ECS_SCHED_OK);
    assert_string_equal(g_trace, "turn");
    destroy_app(app);
}

static void the_state_machines_schedules_count_as_run_by_the_app(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = world_of(app);
    (void)state;
    register_game(w, MENU);
    app_trace_in(app, ecs_sched_on_enter(w, g_game, MENU), "enter_menu");
    app_trace_in(app, ecs_sched_on_exit(w, g_game, PLAYING), "exit_playing");
    app_trace_in(app, ecs_sched_on_transition(w, g_game, MENU, PLAYING), "menu_to_playing");
    app_trace_in(app, ecs_sched_on_pause(w, g_game, PLAYING), "pause_playing");
    update_by(app, 1);
    assert_string_equal(g_trace, "enter_menu");
    destroy_app(app);
}

/* ---- run and exit ---- */

static ecs_sched_id g_exit;
static int g_frames_seen;

static void exit_at_frame_five(ecs_sched_system_ctx *ctx) {
    if (++g_frames_seen == 5) {
        assert_int_equal(ecs_sched_ctx_request_exit(ctx, 3), ECS_SCHED_OK);
    }
}

static ecs_sched_system_desc exit_system(ecs_sched_app *app, ecs_sched_system_fn fn) {
    ecs_sched_system_desc d;
    memset(&d, 0, sizeof d);
    d.name = "exiter";
    d.fn = fn;
    d.writes[0] = g_exit = ecs_sched_app_exit_id(world_of(app));
    return d;
}

static void run_returns_the_exit_code_a_system_requested_after_that_frame(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_system_desc d = exit_system(app, exit_at_frame_five);
    int32_t code = -1;
    (void)state;
    g_frames_seen = 0;
    assert_int_equal(ecs_sched_add_system(world_of(app), ECS_SCHED_UPDATE, &d), ECS_SCHED_OK);
    app_trace_in(app, ECS_SCHED_LAST, "last");
    assert_int_equal(ecs_sched_app_run(app, &(ecs_sched_app_run_desc){.delta_ns = STEP}, &code),
                     ECS_SCHED_OK);
    assert_int_equal(code, 3);
    assert_int_equal(ecs_sched_app_frame_count(app), 5);
    assert_string_equal(g_trace, "last last last last last");   /* the fifth frame completes */
    destroy_app(app);
}

static void exit_twice(ecs_sched_system_ctx *ctx) {
    assert_int_equal(ecs_sched_ctx_request_exit(ctx, 7), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_ctx_request_exit(ctx, 9), ECS_SCHED_OK);
}

static void a_second_exit_request_keeps_the_first_code(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_system_desc d = exit_system(app, exit_twice);
    int32_t code = -1;
    (void)state;
    assert_int_equal(ecs_sched_add_system(world_of(app), ECS_SCHED_UPDATE, &d), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_app_run(app, NULL, &code), ECS_SCHED_OK);
    assert_int_equal(code, 7);
    assert_int_equal(g_log.last_level, ECS_SCHED_LOG_DEBUG);
    assert_non_null(strstr(g_log.last, "keeping the first code, 7"));
    assert_int_equal(ecs_sched_app_request_exit(app, 11), ECS_SCHED_OK);
    assert_true(ecs_sched_app_exit_requested(app, &code));
    assert_int_equal(code, 7);
    destroy_app(app);
}

/* Only the runner looks at the request: an update made after it runs a whole frame, as
   Bevy's App::update does. */
static void an_update_after_an_exit_request_runs_a_whole_frame(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    trace_in(world_of(app), ECS_SCHED_LAST, "last");
    assert_int_equal(ecs_sched_app_request_exit(app, 4), ECS_SCHED_OK);
    update_by(app, STEP);
    assert_string_equal(g_trace, "last");
    assert_int_equal(ecs_sched_app_frame_count(app), 1);
    assert_true(ecs_sched_app_exit_requested(app, NULL));
    destroy_app(app);
}

/* The request stays after run returns: the next run makes no update until AppExit's
   `requested` is set back, and then goes on to the next request. */
static void an_exit_request_stays_until_app_exit_is_cleared(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_system_desc d = exit_system(app, exit_at_frame_five);
    ecs_sched_app_exit *exit_;
    int32_t code = -1;
    (void)state;
    g_frames_seen = 0;
    assert_int_equal(ecs_sched_add_system(world_of(app), ECS_SCHED_UPDATE, &d), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_app_run(app, NULL, &code), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_app_frame_count(app), 5);
    code = -1;
    assert_int_equal(ecs_sched_app_run(app, NULL, &code), ECS_SCHED_OK);
    assert_int_equal(code, 3);
    assert_int_equal(ecs_sched_app_frame_count(app), 5);
    exit_ = (ecs_sched_app_exit *)ecs_sched_resource_get_mut(world_of(app), g_exit);
    assert_non_null(exit_);
    exit_->requested = false;
    g_frames_seen = 0;
    assert_int_equal(ecs_sched_app_run(app, NULL, &code), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_app_frame_count(app), 10);
    destroy_app(app);
}

static void exit_undeclared(ecs_sched_system_ctx *ctx) {
    ecs_sched_ctx_request_exit(ctx, 1);
}

static void requesting_exit_needs_the_write_of_app_exit(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    assert_int_equal(ecs_sched_add_system(world_of(app), ECS_SCHED_UPDATE,
                                          &(ecs_sched_system_desc){.name = "quitter",
                                                                   .fn = exit_undeclared}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_app_update_by(app, 1), ECS_SCHED_ERR_ACCESS);
    assert_non_null(strstr(ecs_sched_last_error(world_of(app)), "quitter"));
    assert_false(ecs_sched_app_exit_requested(app, NULL));
    destroy_app(app);
}

static void exit_always(ecs_sched_system_ctx *ctx) {
    ecs_sched_ctx_request_exit(ctx, 5);
}

static void requesting_exit_without_app_exit_fails_the_update(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_system_desc d = exit_system(app, exit_always);
    int32_t code = -1;
    (void)state;
    assert_int_equal(ecs_sched_add_system(world_of(app), ECS_SCHED_UPDATE, &d), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_resource_remove(world_of(app), g_exit), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_app_run(app, &(ecs_sched_app_run_desc){.max_frames = 50}, &code),
                     ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_non_null(strstr(ecs_sched_last_error(world_of(app)), "'AppExit' was removed"));
    assert_int_equal(ecs_sched_app_frame_count(app), 1);
    destroy_app(app);
}

static void run_stops_after_max_frames_without_an_exit_request(void **state) {
    ecs_sched_app *app = new_app();
    int32_t code = -1;
    (void)state;
    assert_int_equal(ecs_sched_app_run(app, &(ecs_sched_app_run_desc){.max_frames = 12}, &code),
                     ECS_SCHED_OK);
    assert_int_equal(code, 0);
    assert_int_equal(ecs_sched_app_frame_count(app), 12);
    destroy_app(app);
}

static void work_for_3_ms(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    g_clock_ns += ECS_SCHED_MILLISECONDS(3);
}

static void run_paces_frames_by_sleeping_what_is_left_of_each(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    assert_int_equal(ecs_sched_add_system(world_of(app), ECS_SCHED_UPDATE,
                                          &(ecs_sched_system_desc){.name = "work",
                                                                   .fn = work_for_3_ms}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_app_run(app, &(ecs_sched_app_run_desc){
                                                .frame_ns = ECS_SCHED_MILLISECONDS(10),
                                                .max_frames = 4}, NULL),
                     ECS_SCHED_OK);
    assert_int_equal(g_sleeps, 4);
    assert_int_equal(g_slept_ns, 4 * ECS_SCHED_MILLISECONDS(7));
    /* the clock-driven deltas are whole frames: 0 first, then 10 ms each */
    assert_int_equal(((const ecs_sched_time_real *)ecs_sched_resource_get(
                          world_of(app), ecs_sched_time_real_id(world_of(app))))->time.elapsed_ns,
                     3 * ECS_SCHED_MILLISECONDS(10));
    destroy_app(app);
}

static void bad_run_settings_are_refused_before_any_frame(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    assert_int_equal(ecs_sched_app_run(app, &(ecs_sched_app_run_desc){.frame_ns = -1}, NULL),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(world_of(app)), "frame_ns"));
    assert_int_equal(ecs_sched_app_run(app, &(ecs_sched_app_run_desc){.max_frames = -2}, NULL),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_app_frame_count(app), 0);
    destroy_app(app);
}

/* ---- transitions in the fixed update ---- */

static int g_step;
static char g_entered[64];

static void count_step(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    g_step++;
}

static void game_over_at_step_three(ecs_sched_system_ctx *ctx) {
    if (g_step == 3) assert_int_equal(ecs_sched_ctx_state_set(ctx, g_game, GAME_OVER), ECS_SCHED_OK);
}

static void note_game_over(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    snprintf(g_entered, sizeof g_entered, "entered at step %d", g_step);
}

static void a_transition_queued_in_fixed_update_applies_at_that_step(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = world_of(app);
    ecs_sched_system_desc apply;
    (void)state;
    g_step = 0;
    g_entered[0] = '\0';
    register_game(w, PLAYING);
    g_next = ecs_sched_state_next_id(w, g_game);
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_FIXED_FIRST,
                                          &(ecs_sched_system_desc){.name = "count",
                                                                   .fn = count_step}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_FIXED_UPDATE,
                                          &(ecs_sched_system_desc){.name = "fall",
                                                                   .fn = game_over_at_step_three,
                                                                   .writes = {g_next}}),
                     ECS_SCHED_OK);
    apply = ecs_sched_state_transitions_system(g_game);
    apply.after[0] = "fall";
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_FIXED_UPDATE, &apply), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, ecs_sched_on_enter(w, g_game, GAME_OVER),
                                          &(ecs_sched_system_desc){.name = "note",
                                                                   .fn = note_game_over}),
                     ECS_SCHED_OK);
    update_by(app, 5 * STEP);
    assert_string_equal(g_entered, "entered at step 3");
    assert_int_equal(ecs_sched_state_get(w, g_game), GAME_OVER);
    destroy_app(app);
}

/* ---- both executors ---- */

typedef struct { int32_t count; } Spawned;
static struct {
    ecs_sched_id position, velocity, health, score, spawned, time, next;
} g_ids;

static void gravity(ecs_sched_system_ctx *ctx) {
    const ecs_sched_time *t = ecs_sched_ctx_time(ctx);
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        Velocity *v = ECS_SCHED_FIELD(&it, Velocity, 0);
        int i;
        for (i = 0; i < it.count; i++) v[i].y -= (float)(9.8 * t->delta_seconds);
    }
}

static void integrate(ecs_sched_system_ctx *ctx) {
    const ecs_sched_time *t = ecs_sched_ctx_time(ctx);
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        const Velocity *v = ECS_SCHED_FIELD(&it, const Velocity, 1);
        int i;
        for (i = 0; i < it.count; i++) {
            p[i].x += v[i].x * (float)t->delta_seconds;
            p[i].y += v[i].y * (float)t->delta_seconds;
        }
    }
}

static void wear(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        Health *h = ECS_SCHED_FIELD(&it, Health, 0);
        int i;
        for (i = 0; i < it.count; i++) h[i].hp -= 1;
    }
}

static void land(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    Score *score = (Score *)ecs_sched_ctx_resource_mut(ctx, g_ids.score);
    while (ecs_sched_iter_next(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
        int i;
        for (i = 0; i < it.count; i++) {
            if (p[i].y < 0) {
                ecs_sched_commands_despawn(ecs_sched_ctx_commands(ctx), it.entities[i]);
                score->value++;
            }
        }
    }
    if (score->value >= 12) ecs_sched_ctx_state_set(ctx, g_game, GAME_OVER);
}

static void spawn_some(ecs_sched_system_ctx *ctx) {
    Spawned *s = (Spawned *)ecs_sched_ctx_resource_mut(ctx, g_ids.spawned);
    ecs_sched_commands *cmd = ecs_sched_ctx_commands(ctx);
    int i;
    for (i = 0; i < 3; i++) {
        Position p = {(float)(s->count % 7), 5.0f + (float)(s->count % 5)};
        Velocity v = {1.0f, (float)(s->count % 3)};
        Health h = {100};
        ecs_sched_entity e = ecs_sched_commands_spawn(cmd);
        ecs_sched_commands_insert(cmd, e, g_ids.position, &p);
        ecs_sched_commands_insert(cmd, e, g_ids.velocity, &v);
        ecs_sched_commands_insert(cmd, e, g_ids.health, &h);
        s->count++;
    }
}

static void restart(ecs_sched_system_ctx *ctx) {
    Score *score = (Score *)ecs_sched_ctx_resource_mut(ctx, g_ids.score);
    score->value = 0;
    ecs_sched_ctx_state_set(ctx, g_game, PLAYING);
}

static void add_game(ecs_sched_world *w) {
    ecs_sched_system_desc apply = ecs_sched_state_transitions_system(0);
    ecs_sched_condition playing;
    ecs_sched_condition every_100ms = ecs_sched_condition_on_timer(ECS_SCHED_MILLISECONDS(100));
    register_game(w, PLAYING);
    playing = ecs_sched_condition_in_state(g_game, PLAYING);
    g_ids.position = ECS_SCHED_COMPONENT(w, Position);
    g_ids.velocity = ECS_SCHED_COMPONENT(w, Velocity);
    g_ids.health = ECS_SCHED_COMPONENT(w, Health);
    g_ids.score = ECS_SCHED_COMPONENT(w, Score);
    g_ids.spawned = ECS_SCHED_COMPONENT(w, Spawned);
    g_ids.time = ecs_sched_time_id(w);
    g_ids.next = ecs_sched_state_next_id(w, g_game);
    assert_int_equal(ecs_sched_resource_insert(w, g_ids.score, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_resource_insert(w, g_ids.spawned, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_configure_set(w, ECS_SCHED_FIXED_UPDATE, &(ecs_sched_set_desc){
        .name = "physics", .run_if = {&playing}}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_FIXED_UPDATE, &(ecs_sched_system_desc){
        .name = "gravity", .fn = gravity, .in_set = {"physics"}, .reads = {g_ids.time},
        .queries = {{{ecs_sched_write(g_ids.velocity)}}}}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_FIXED_UPDATE, &(ecs_sched_system_desc){
        .name = "integrate", .fn = integrate, .in_set = {"physics"}, .after = {"gravity"},
        .reads = {g_ids.time},
        .queries = {{{ecs_sched_write(g_ids.position), ecs_sched_read(g_ids.velocity)}}}}),
        ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_FIXED_UPDATE, &(ecs_sched_system_desc){
        .name = "wear", .fn = wear, .in_set = {"physics"},
        .queries = {{{ecs_sched_write(g_ids.health)}}}}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_FIXED_UPDATE, &(ecs_sched_system_desc){
        .name = "land", .fn = land, .after = {"physics"}, .commands = true,
        .writes = {g_ids.score, g_ids.next},
        .queries = {{{ecs_sched_read(g_ids.position)}}}}), ECS_SCHED_OK);
    apply.after[0] = "land";
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_FIXED_UPDATE, &apply), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_UPDATE, &(ecs_sched_system_desc){
        .name = "spawn_some", .fn = spawn_some, .commands = true, .writes = {g_ids.spawned},
        .run_if = {&every_100ms}}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, ecs_sched_on_enter(w, g_game, GAME_OVER),
                                          &(ecs_sched_system_desc){
                                              .name = "restart", .fn = restart,
                                              .writes = {g_ids.score, g_ids.next}}),
                     ECS_SCHED_OK);
}

/* 200 frames of 7 to 40 ms (a fixed sequence), a line per frame. */
static void play(ecs_sched_executor executor, char *out, size_t size) {
    ecs_sched_app_desc desc = test_app_desc(executor);
    ecs_sched_app *app;
    ecs_sched_world *w;
    ecs_sched_query *bodies;
    uint64_t rng = 12345;
    size_t length = 0;
    int frame;
    desc.world.thread_count = 2;
    app = new_app_with(&desc);
    w = world_of(app);
    add_game(w);
    bodies = ecs_sched_query_create(w, &(ecs_sched_query_desc){{ecs_sched_read(g_ids.position),
                                                                ecs_sched_read(g_ids.health)}});
    for (frame = 0; frame < 200; frame++) {
        ecs_sched_iter it;
        double sum = 0;
        long hp = 0;
        int64_t delta;
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        delta = ECS_SCHED_MILLISECONDS(7) + (int64_t)((rng >> 33) % 34) * 1000000;
        update_by(app, delta);
        it = ecs_sched_query_iter(bodies);
        while (ecs_sched_iter_next(&it)) {
            const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
            const Health *h = ECS_SCHED_FIELD(&it, const Health, 1);
            int i;
            for (i = 0; i < it.count; i++) {
                sum += p[i].x * 3 + p[i].y;
                hp += h[i].hp;
            }
        }
        length += (size_t)snprintf(out + length, size - length, "%d/%u:%d:%d:%.4f:%ld\n",
                                   (int)ecs_sched_state_get(w, g_game),
                                   (unsigned)((const ecs_sched_state_current *)
                                                  ecs_sched_resource_get(w, g_game))->changes,
                                   ((const Score *)ecs_sched_resource_get(w, g_ids.score))->value,
                                   (int)ecs_sched_query_count(bodies), sum, hp);
        assert_true(length < size);
    }
    ecs_sched_query_destroy(bodies);
    destroy_app(app);
}

static void both_executors_leave_the_same_world_over_200_frames(void **state) {
    static char single[65536], parallel[65536];
    (void)state;
    play(ECS_SCHED_EXECUTOR_SINGLE_THREADED, single, sizeof single);
    play(ECS_SCHED_EXECUTOR_PARALLEL, parallel, sizeof parallel);
    assert_string_equal(single, parallel);
    assert_non_null(strstr(single, "1/5:"));      /* the game was over (and restarted) twice */
}


static ecs_sched_result g_exit_without_app;

static void request_exit_without_an_app(ecs_sched_system_ctx *ctx) {
    g_exit_without_app = ecs_sched_ctx_request_exit(ctx, 2);
}

static void a_system_requesting_exit_in_a_world_without_an_app_is_told_there_is_none(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_exit_without_app = ECS_SCHED_OK;
    ADD_SYSTEM(w, .name = "quitter", .fn = request_exit_without_an_app);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_int_equal(g_exit_without_app, ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_non_null(strstr(ecs_sched_last_error(w), "quitter"));
    assert_non_null(strstr(ecs_sched_last_error(w), "its world has no app"));
    ecs_sched_clear_error(w);
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_default_orders_are_bevys),
        cmocka_unit_test(a_system_in_a_schedule_the_app_never_runs_fails_the_update_naming_the_nearest),
    cmocka_unit_test(a_system_added_later_to_a_schedule_the_app_never_runs_fails_the_next_update),
        cmocka_unit_test(a_schedule_made_with_configure_is_run_by_hand),
        cmocka_unit_test(the_state_machines_schedules_count_as_run_by_the_app),
        cmocka_unit_test(the_first_update_runs_startup_then_the_main_order_with_its_fixed_steps),
        cmocka_unit_test(startup_runs_once),
        cmocka_unit_test(an_update_with_less_than_a_step_runs_no_fixed_schedule),
        cmocka_unit_test(startup_sees_the_initial_states_entered),
        cmocka_unit_test(a_transition_queued_in_startup_applies_in_the_same_first_frame),
        cmocka_unit_test(inserted_labels_run_where_they_were_put),
        cmocka_unit_test(inserting_a_label_the_app_runs_already_is_refused),
        cmocka_unit_test(a_startup_label_cannot_be_inserted_once_startup_ran),
        cmocka_unit_test(a_startup_schedule_that_fails_runs_again_at_the_next_update_and_the_rest_once),
        cmocka_unit_test(inserting_next_to_a_label_in_no_order_is_refused),
        cmocka_unit_test(the_order_cannot_change_and_no_update_can_start_during_an_update),
        cmocka_unit_test(a_failing_schedule_stops_the_update_and_its_error_reaches_the_caller),
        cmocka_unit_test(a_failing_fixed_step_stops_the_fixed_loop_and_the_update),
        cmocka_unit_test(run_returns_the_exit_code_a_system_requested_after_that_frame),
        cmocka_unit_test(a_second_exit_request_keeps_the_first_code),
        cmocka_unit_test(an_update_after_an_exit_request_runs_a_whole_frame),
        cmocka_unit_test(an_exit_request_stays_until_app_exit_is_cleared),
        cmocka_unit_test(requesting_exit_needs_the_write_of_app_exit),
        cmocka_unit_test(requesting_exit_without_app_exit_fails_the_update),
        cmocka_unit_test(run_stops_after_max_frames_without_an_exit_request),
        cmocka_unit_test(run_paces_frames_by_sleeping_what_is_left_of_each),
        cmocka_unit_test(bad_run_settings_are_refused_before_any_frame),
        cmocka_unit_test(a_transition_queued_in_fixed_update_applies_at_that_step),
        cmocka_unit_test(both_executors_leave_the_same_world_over_200_frames),
        cmocka_unit_test(a_system_requesting_exit_in_a_world_without_an_app_is_told_there_is_none),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_app);
}
