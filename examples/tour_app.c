/* tour_app.c - the app in ecs_sched.h: the default schedules and their order, the frame
   loop and exit, time and the fixed step, conditions on time, and plugins.

   The tour has six files; read them in this order:
     tour_world.c      the world: components, entities, resources, queries
     tour_commands.c   command buffers, errors, allocator and logger hooks, stb_ds
     tour_schedules.c  systems, sets, order, run conditions, sync points, the executor
     tour_threads.c    the thread pool, the parallel executor, parallel queries
     tour_states.c     state machines, the state stack, state-scoped entities, computed
                       states and sub-states
     tour_app.c        the app, time, the fixed step, plugins (this file)

   It prints what it shows and exits with status 1 if something it claims does not hold.
   Build and run from the repository root (the header, and stb_ds.h from libstb-dev):

       cc -std=c99 -O2 -I. $(pkg-config --cflags stb) examples/tour_app.c \
          $(pkg-config --libs stb) -o tour_app && ./tour_app */
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

static char trace[512];      /* the names of the systems that ran, in order */

/* A system that writes its name to the trace. */
static void note(ecs_sched_system_ctx *ctx) {
    size_t n = strlen(trace);
    snprintf(trace + n, sizeof trace - n, "%s%s", n ? " " : "", ecs_sched_ctx_name(ctx));
}

static void add_note(ecs_sched_world *w, const char *schedule, const char *name) {
    ecs_sched_system_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.name = name;
    desc.fn = note;
    CHECK(ecs_sched_add_system(w, schedule, &desc) == ECS_SCHED_OK);
}

/* An app whose frames the tour times itself (ecs_sched_app_update_by): no real clock. */
static ecs_sched_app *new_app(void) {
    ecs_sched_app *app = ecs_sched_app_create(NULL);
    CHECK(app != NULL);
    trace[0] = '\0';
    return app;
}

/* ==== The app ====
   An app owns a world and the default schedules. The first update runs StateTransition (the
   initial states), then the startup order once; every update runs the main order, whose
   RunFixedMainLoop runs the fixed order once per fixed step. */
static void the_app(void) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = ecs_sched_app_world(app);
    const char *labels[16];
    int32_t n, i;
    section("The app");
    n = ecs_sched_app_schedule_order(app, ECS_SCHED_ORDER_MAIN, labels, 16);
    printf("  main order: ");
    for (i = 0; i < n; i++) printf("%s%s", labels[i], i + 1 < n ? ", " : "\n");
    CHECK(n == 7 && strcmp(labels[3], ECS_SCHED_RUN_FIXED_MAIN_LOOP) == 0);
    add_note(w, ECS_SCHED_STARTUP, "load_level");
    add_note(w, ECS_SCHED_UPDATE, "move_player");
    add_note(w, ECS_SCHED_FIXED_UPDATE, "physics");
    add_note(w, ECS_SCHED_LAST, "draw");
    CHECK(ecs_sched_app_update_by(app, ECS_SCHED_HZ(64)) == ECS_SCHED_OK);   /* one step */
    printf("  first update:  %s\n", trace);
    CHECK(strcmp(trace, "load_level physics move_player draw") == 0);
    trace[0] = '\0';
    CHECK(ecs_sched_app_update_by(app, ECS_SCHED_MILLISECONDS(5)) == ECS_SCHED_OK);
    printf("  a 5 ms update: %s (less than a step: no physics)\n", trace);
    CHECK(strcmp(trace, "move_player draw") == 0);

    /* the order is data: a schedule of your own between two default ones */
    CHECK(ecs_sched_app_insert_schedule_after(app, ECS_SCHED_FIXED_UPDATE, "PhysicsSync") ==
          ECS_SCHED_OK);
    add_note(w, "PhysicsSync", "sync_transforms");
    trace[0] = '\0';
    CHECK(ecs_sched_app_update_by(app, ECS_SCHED_HZ(64)) == ECS_SCHED_OK);
    printf("  with PhysicsSync after FixedUpdate: %s\n", trace);
    CHECK(strcmp(trace, "physics sync_transforms move_player draw") == 0);
    CHECK(ecs_sched_app_insert_schedule_after(app, "Nowhere", "X") ==
          ECS_SCHED_ERR_UNKNOWN_SCHEDULE);
    printf("  inserting next to a missing label: %s\n", ecs_sched_last_error(w));
    ecs_sched_app_destroy(app);
}

/* ==== Running and exit ====
   ecs_sched_app_run updates until a system requests exit (declaring AppExit in .writes); the
   frame completes, then run returns the code. .delta_ns makes every frame advance time by
   exactly that much; .frame_ns paces frames by sleeping. An error stops the loop and comes
   back to the caller. */
static ecs_sched_id exit_id;

static void quit_on_frame_three(ecs_sched_system_ctx *ctx) {
    static int frames;
    if (++frames == 3) ecs_sched_ctx_request_exit(ctx, 42);
}

/* Forgot AppExit in .writes: the request is an undeclared access, an error. */
static void quit_undeclared(ecs_sched_system_ctx *ctx) {
    ecs_sched_ctx_request_exit(ctx, 7);
}

static void running_and_exit(void) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = ecs_sched_app_world(app);
    int32_t code = -1;
    int64_t start, took;
    ecs_sched_result r;
    section("Running and exit");
    exit_id = ecs_sched_app_exit_id(w);
    CHECK(ecs_sched_add_system(w, ECS_SCHED_UPDATE, &(ecs_sched_system_desc){
              .name = "quit", .fn = quit_on_frame_three, .writes = {exit_id}}) == ECS_SCHED_OK);
    r = ecs_sched_app_run(app, &(ecs_sched_app_run_desc){.delta_ns = ECS_SCHED_HZ(60)}, &code);
    printf("  run returned '%s' with exit code %d after %d frames\n", ecs_sched_result_string(r),
           (int)code, (int)ecs_sched_app_frame_count(app));
    CHECK(r == ECS_SCHED_OK && code == 42 && ecs_sched_app_frame_count(app) == 3);
    ecs_sched_app_destroy(app);

    /* Pacing sleeps what is left of each frame, so 3 frames at 100 Hz take 30 ms or more.
       Only the lower bound is checked (a busy machine is slower, never faster), less a
       microsecond per sleep for rounding; nothing measured is printed. */
    app = new_app();
    w = ecs_sched_app_world(app);
    start = ecs_sched_time_now(w);
    r = ecs_sched_app_run(app, &(ecs_sched_app_run_desc){.frame_ns = ECS_SCHED_HZ(100),
                                                          .max_frames = 3}, &code);
    took = ecs_sched_time_now(w) - start;
    printf("  3 frames paced at 100 Hz: '%s', after 30 ms of real time or more\n",
           ecs_sched_result_string(r));
    CHECK(r == ECS_SCHED_OK && code == 0 && ecs_sched_app_frame_count(app) == 3);
    CHECK(took >= ECS_SCHED_MILLISECONDS(30) - 3 * 1000);
    ecs_sched_app_destroy(app);

    /* A failing schedule stops the update, which returns the code; run stops at it too. */
    app = new_app();
    w = ecs_sched_app_world(app);
    CHECK(ecs_sched_add_system(w, ECS_SCHED_UPDATE, &(ecs_sched_system_desc){
              .name = "quit", .fn = quit_undeclared}) == ECS_SCHED_OK);
    r = ecs_sched_app_update_by(app, ECS_SCHED_HZ(60));
    printf("  a quit without AppExit in .writes: update returned '%s'\n",
           ecs_sched_result_string(r));
    printf("    %s\n", ecs_sched_last_error(w));
    CHECK(r == ECS_SCHED_ERR_ACCESS && !ecs_sched_app_exit_requested(app, NULL));
    r = ecs_sched_app_run(app, NULL, &code);
    printf("  and run returned '%s' after its first frame (exit code %d)\n",
           ecs_sched_result_string(r), (int)code);
    CHECK(r == ECS_SCHED_ERR_ACCESS && code == 0 && ecs_sched_app_frame_count(app) == 2);
    ecs_sched_app_destroy(app);
}

/* ==== Time and the fixed step ====
   Time<Real> follows the clock; Time<Virtual>, the game's clock, caps a frame at 250 ms,
   pauses and changes speed; Time<Fixed> steps 64 times a second whatever the frame rate. A
   system reads "Time" (declared in .reads): the virtual clock in Update, the fixed clock in
   FixedUpdate. */
static double seen_in_update, seen_in_fixed;

static void look_at_time(ecs_sched_system_ctx *ctx) {
    const ecs_sched_time *t = ecs_sched_ctx_time(ctx);
    if (ecs_sched_ctx_user_data(ctx)) seen_in_fixed = t->delta_seconds;
    else seen_in_update = t->delta_seconds;
}

static void time_and_the_fixed_step(void) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = ecs_sched_app_world(app);
    const ecs_sched_time_fixed *fixed =
        (const ecs_sched_time_fixed *)ecs_sched_resource_get(w, ecs_sched_time_fixed_id(w));
    const ecs_sched_time_virtual *virt =
        (const ecs_sched_time_virtual *)ecs_sched_resource_get(w, ecs_sched_time_virtual_id(w));
    static int in_fixed = 1;
    int frame, total = 0;
    section("Time and the fixed step");
    CHECK(ecs_sched_add_system(w, ECS_SCHED_UPDATE, &(ecs_sched_system_desc){
              .name = "look", .fn = look_at_time, .reads = {ecs_sched_time_id(w)}}) ==
          ECS_SCHED_OK);
    CHECK(ecs_sched_add_system(w, ECS_SCHED_FIXED_UPDATE, &(ecs_sched_system_desc){
              .name = "look", .fn = look_at_time, .user_data = &in_fixed,
              .reads = {ecs_sched_time_id(w)}}) == ECS_SCHED_OK);
    printf("  frames of 0.1 s take");
    for (frame = 0; frame < 10; frame++) {
        CHECK(ecs_sched_app_update_by(app, ECS_SCHED_MILLISECONDS(100)) == ECS_SCHED_OK);
        printf(" %d", (int)fixed->steps_this_frame);
        total += fixed->steps_this_frame;
    }
    printf(" steps: %d in 1 s, exactly\n", total);
    CHECK(total == 64 && fixed->overstep_ns == 0);
    printf("  Time in Update: %.3f s, in FixedUpdate: %.6f s\n", seen_in_update, seen_in_fixed);
    CHECK(seen_in_update == 0.1 && seen_in_fixed == 0.015625);

    CHECK(ecs_sched_app_update_by(app, ECS_SCHED_SECONDS(10)) == ECS_SCHED_OK);
    printf("  a 10 s frame moves the game by %.2f s: %d steps, no spiral\n",
           virt->time.delta_seconds, (int)fixed->steps_this_frame);
    CHECK(virt->time.delta_ns == ECS_SCHED_MILLISECONDS(250) && fixed->steps_this_frame == 16);

    CHECK(ecs_sched_time_set_paused(w, true) == ECS_SCHED_OK);
    CHECK(ecs_sched_app_update_by(app, ECS_SCHED_MILLISECONDS(100)) == ECS_SCHED_OK);
    printf("  paused: %d steps\n", (int)fixed->steps_this_frame);
    CHECK(fixed->steps_this_frame == 0);
    CHECK(ecs_sched_time_set_paused(w, false) == ECS_SCHED_OK);
    CHECK(ecs_sched_time_set_speed(w, 2.0) == ECS_SCHED_OK);
    CHECK(ecs_sched_app_update_by(app, ECS_SCHED_MILLISECONDS(125)) == ECS_SCHED_OK);
    printf("  speed 2, a 125 ms frame: %d steps\n", (int)fixed->steps_this_frame);
    CHECK(fixed->steps_this_frame == 16);
    CHECK(ecs_sched_time_set_speed(w, 1.0) == ECS_SCHED_OK);
    CHECK(ecs_sched_app_update_by(app, ECS_SCHED_MILLISECONDS(20)) == ECS_SCHED_OK);
    printf("  a 20 ms frame: 1 step and %.2f of the next, to interpolate with\n",
           fixed->overstep_fraction);
    CHECK(fixed->overstep_fraction > 0.27 && fixed->overstep_fraction < 0.29);
    CHECK(ecs_sched_time_discard_overstep(w) == ECS_SCHED_OK && fixed->overstep_ns == 0);
    CHECK(ecs_sched_time_set_fixed_step(w, 0) == ECS_SCHED_ERR_INVALID_ARGUMENT);
    printf("  a zero step: %s\n", ecs_sched_last_error(w));
    ecs_sched_app_destroy(app);
}

/* ==== Conditions on time ====
   on_timer(period) is true once each time the period elapses; once_after_delay once;
   repeating_after_delay from the delay on; time_paused while the virtual clock is paused.
   Each instance has its own timer, fed with Time's delta each time it is evaluated: in Update
   that is the virtual clock, which stops while paused, and the timers with it. A timer that
   fires keeps the rest modulo the period, so a long frame that spans two periods gives one
   true, and the next fire comes on time. */
static void conditions_on_time(void) {
    /* Each frame: its length, whether the game is paused, what runs. */
    static const struct {
        int ms;
        bool paused;
        const char *ran;
    } frames[] = {
        {40, false, ""},
        {40, false, ""},
        {40, false, "spawn_wave"},                 /* game at 120 ms: 100 elapsed, 20 kept */
        {40, false, ""},
        {40, false, "spawn_wave"},                 /* 200 ms: 20 + 80 */
        {40, true, "pause_menu"},                  /* the game clock stops, the timers too */
        {40, true, "pause_menu"},
        {40, false, ""},
        {40, false, "show_hint hurry_music"},      /* 280 ms: 250 passed */
        {40, false, "spawn_wave hurry_music"},     /* 320 ms: 300 passed */
        {40, false, "hurry_music"},
        {40, false, "spawn_wave hurry_music"},     /* 400 ms */
        {250, false, "spawn_wave hurry_music"},    /* 650 ms: 500 and 600 passed, one true */
        {50, false, "spawn_wave hurry_music"},     /* 700 ms: the 50 kept + 50 */
    };
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = ecs_sched_app_world(app);
    const ecs_sched_time_virtual *virt =
        (const ecs_sched_time_virtual *)ecs_sched_resource_get(w, ecs_sched_time_virtual_id(w));
    int i;
    section("Conditions on time");
    printf("  spawn_wave on_timer(100 ms), show_hint once_after_delay(250 ms),\n"
           "  hurry_music repeating_after_delay(250 ms), pause_menu time_paused()\n");
    /* chained, so that the trace has one order (and one writer at a time) with threads too */
    CHECK(ecs_sched_add_systems(w, ECS_SCHED_UPDATE, &(ecs_sched_systems_desc){
        .systems = (ecs_sched_system_desc[]){
            {.name = "spawn_wave", .fn = note, .run_if = {ECS_SCHED_COND(
                 ecs_sched_condition_on_timer(ECS_SCHED_MILLISECONDS(100)))}},
            {.name = "show_hint", .fn = note, .run_if = {ECS_SCHED_COND(
                 ecs_sched_condition_once_after_delay(ECS_SCHED_MILLISECONDS(250)))}},
            {.name = "hurry_music", .fn = note, .run_if = {ECS_SCHED_COND(
                 ecs_sched_condition_repeating_after_delay(ECS_SCHED_MILLISECONDS(250)))}},
            {.name = "pause_menu", .fn = note, .run_if = {ECS_SCHED_COND(
                 ecs_sched_condition_time_paused())}}},
        .count = 4, .chain = true}) == ECS_SCHED_OK);
    for (i = 0; i < (int)(sizeof frames / sizeof frames[0]); i++) {
        trace[0] = '\0';
        CHECK(ecs_sched_time_set_paused(w, frames[i].paused) == ECS_SCHED_OK);
        CHECK(ecs_sched_app_update_by(app, ECS_SCHED_MILLISECONDS(frames[i].ms)) ==
              ECS_SCHED_OK);
        printf("  frame %2d, %3d ms%-7s -> game clock at %3d ms: %s\n", i + 1, frames[i].ms,
               frames[i].paused ? " paused" : "", (int)(virt->time.elapsed_ns / 1000000),
               trace[0] ? trace : "-");
        CHECK(strcmp(trace, frames[i].ran) == 0);
    }
    ecs_sched_app_destroy(app);
}

/* ==== Plugins ====
   A plugin is a named build function. It can need other plugins (added first) and export
   sets that users order their own systems against. Adding it twice adds it once. */
static ecs_sched_result build_physics(ecs_sched_app *app, void *user_data) {
    ecs_sched_world *w = ecs_sched_app_world(app);
    (void)user_data;
    return ecs_sched_add_systems(w, ECS_SCHED_FIXED_UPDATE, &(ecs_sched_systems_desc){
        .systems = (ecs_sched_system_desc[]){{.name = "integrate", .fn = note},
                                             {.name = "collide", .fn = note}},
        .count = 2, .chain = true, .in_set = {"physics"}});
}

static ecs_sched_result build_time_plugin(ecs_sched_app *app, void *user_data) {
    (void)app;
    (void)user_data;
    printf("  building 'time' (needed by 'physics')\n");
    return ECS_SCHED_OK;
}

static void plugins(void) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = ecs_sched_app_world(app);
    static const ecs_sched_plugin time_plugin = {.name = "time", .build = build_time_plugin};
    static const ecs_sched_plugin physics = {
        .name = "physics", .build = build_physics, .needs = {&time_plugin},
        .exports = {{ECS_SCHED_FIXED_UPDATE, "physics"}}};
    static const ecs_sched_plugin *const group[] = {&physics, &time_plugin};
    section("Plugins");
    /* the user's system, ordered against the plugin's public set */
    CHECK(ecs_sched_add_system(w, ECS_SCHED_FIXED_UPDATE, &(ecs_sched_system_desc){
              .name = "camera_follow", .fn = note, .after = {"physics"}}) == ECS_SCHED_OK);
    CHECK(ecs_sched_app_add_plugins(app, 2, group) == ECS_SCHED_OK);
    CHECK(ecs_sched_app_add_plugin(app, &physics) == ECS_SCHED_OK);   /* again: nothing */
    CHECK(ecs_sched_app_has_plugin(app, "physics") && ecs_sched_app_has_plugin(app, "time"));
    CHECK(ecs_sched_app_update_by(app, ECS_SCHED_HZ(64)) == ECS_SCHED_OK);
    printf("  one fixed step: %s\n", trace);
    CHECK(strcmp(trace, "integrate collide camera_follow") == 0);
    {
        static const ecs_sched_plugin nameless = {.build = build_physics};
        CHECK(ecs_sched_app_add_plugin(app, &nameless) == ECS_SCHED_ERR_INVALID_ARGUMENT);
        printf("  a plugin without a name: %s\n", ecs_sched_last_error(w));
    }
    ecs_sched_app_destroy(app);
}

int main(void) {
    the_app();
    running_and_exit();
    time_and_the_fixed_step();
    conditions_on_time();
    plugins();
    printf("\n%s\n", failures ? "SOME CHECKS FAILED" : "all checks hold");
    return failures ? 1 : 0;
}
