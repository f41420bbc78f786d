/* Time: the real, virtual and fixed clocks an app keeps, the fixed-timestep runner (how many
   steps each frame takes, the overstep, pause, speed, the caps), the "Time" a system reads in
   the main and the fixed schedules, the time conditions, and bad settings. */
#define _POSIX_C_SOURCE 199309L   /* clock_gettime here; the implementation is built strict */
#include "ecs_sched.h"

#include <math.h>   /* NAN */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "app_fixture.h"

#define STEP ECS_SCHED_HZ(64)            /* the default step: 15 625 000 ns */

static ecs_sched_world *world_of(ecs_sched_app *app) {
    return ecs_sched_app_world(app);
}

static const ecs_sched_time_fixed *fixed_clock(ecs_sched_app *app) {
    ecs_sched_world *w = world_of(app);
    return (const ecs_sched_time_fixed *)ecs_sched_resource_get(w, ecs_sched_time_fixed_id(w));
}

static const ecs_sched_time_virtual *virtual_clock(ecs_sched_app *app) {
    ecs_sched_world *w = world_of(app);
    return (const ecs_sched_time_virtual *)ecs_sched_resource_get(w, ecs_sched_time_virtual_id(w));
}

static const ecs_sched_time_real *real_clock(ecs_sched_app *app) {
    ecs_sched_world *w = world_of(app);
    return (const ecs_sched_time_real *)ecs_sched_resource_get(w, ecs_sched_time_real_id(w));
}

static void update_by(ecs_sched_app *app, int64_t delta_ns) {
    assert_int_equal(ecs_sched_app_update_by(app, delta_ns), ECS_SCHED_OK);
}

/* ---- steps per frame ---- */

static int g_fixed_runs;

static void count_fixed_run(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    g_fixed_runs++;
}

static void count_fixed_updates(ecs_sched_app *app) {
    g_fixed_runs = 0;
    assert_int_equal(ecs_sched_add_system(world_of(app), ECS_SCHED_FIXED_UPDATE,
                                          &(ecs_sched_system_desc){.name = "count",
                                                                   .fn = count_fixed_run}),
                     ECS_SCHED_OK);
}

static void frames_of_a_tenth_of_a_second_take_six_or_seven_steps_summing_exactly(void **state) {
    ecs_sched_app *app = new_app();
    int64_t frame, total = 0;
    (void)state;
    count_fixed_updates(app);
    for (frame = 1; frame <= 100; frame++) {
        /* after k frames, k * 0.1 s hold floor(k * 6.4) whole steps */
        int64_t expected = frame * ECS_SCHED_MILLISECONDS(100) / STEP - total;
        int before = g_fixed_runs;
        update_by(app, ECS_SCHED_MILLISECONDS(100));
        assert_true(expected == 6 || expected == 7);
        assert_int_equal(g_fixed_runs - before, expected);
        assert_int_equal(fixed_clock(app)->steps_this_frame, expected);
        total += expected;
        assert_int_equal(fixed_clock(app)->overstep_ns,
                         frame * ECS_SCHED_MILLISECONDS(100) - total * STEP);
    }
    assert_int_equal(total, 640);                 /* 10 s at 64 Hz, exactly */
    assert_int_equal(fixed_clock(app)->time.elapsed_ns, ECS_SCHED_SECONDS(10));
    assert_int_equal(fixed_clock(app)->overstep_ns, 0);
    destroy_app(app);
}

static void sixty_frames_a_second_alternate_one_and_two_steps_at_64_hz(void **state) {
    ecs_sched_app *app = new_app();
    int frame, ones = 0, twos = 0;
    (void)state;
    count_fixed_updates(app);
    for (frame = 0; frame < 60; frame++) {
        update_by(app, ECS_SCHED_HZ(60));
        if (fixed_clock(app)->steps_this_frame == 1) ones++;
        if (fixed_clock(app)->steps_this_frame == 2) twos++;
    }
    assert_int_equal(ones + twos, 60);            /* 16.67 ms: one step, now and then two */
    assert_int_equal(twos, 3);
    assert_int_equal(g_fixed_runs, 63);           /* 60 * 16 666 666 ns / 15 625 000 ns */
    destroy_app(app);
}

static void a_ten_second_frame_advances_the_game_by_the_250_ms_cap(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    count_fixed_updates(app);
    update_by(app, ECS_SCHED_SECONDS(10));
    assert_int_equal(real_clock(app)->time.delta_ns, ECS_SCHED_SECONDS(10));
    assert_int_equal(virtual_clock(app)->time.delta_ns, ECS_SCHED_MILLISECONDS(250));
    assert_int_equal(g_fixed_runs, 16);           /* 250 ms / 15.625 ms */
    destroy_app(app);
}

static void the_cap_on_a_frame_is_a_setting(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    assert_int_equal(ecs_sched_time_set_max_delta(world_of(app), ECS_SCHED_MILLISECONDS(50)),
                     ECS_SCHED_OK);
    update_by(app, ECS_SCHED_MILLISECONDS(80));
    assert_int_equal(virtual_clock(app)->time.delta_ns, ECS_SCHED_MILLISECONDS(50));
    assert_int_equal(real_clock(app)->time.delta_ns, ECS_SCHED_MILLISECONDS(80));
    destroy_app(app);
}

static void paused_virtual_time_runs_no_fixed_steps_while_real_time_goes_on(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    count_fixed_updates(app);
    assert_int_equal(ecs_sched_time_set_paused(world_of(app), true), ECS_SCHED_OK);
    update_by(app, ECS_SCHED_MILLISECONDS(100));
    update_by(app, ECS_SCHED_MILLISECONDS(100));
    assert_int_equal(g_fixed_runs, 0);
    assert_int_equal(virtual_clock(app)->time.elapsed_ns, 0);
    assert_int_equal(real_clock(app)->time.elapsed_ns, ECS_SCHED_MILLISECONDS(200));
    assert_int_equal(ecs_sched_time_set_paused(world_of(app), false), ECS_SCHED_OK);
    update_by(app, ECS_SCHED_MILLISECONDS(100));
    assert_int_equal(g_fixed_runs, 6);
    destroy_app(app);
}

static void relative_speed_two_runs_twice_as_many_steps(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    count_fixed_updates(app);
    assert_int_equal(ecs_sched_time_set_speed(world_of(app), 2.0), ECS_SCHED_OK);
    update_by(app, ECS_SCHED_MILLISECONDS(125));
    assert_int_equal(virtual_clock(app)->time.delta_ns, ECS_SCHED_MILLISECONDS(250));
    assert_int_equal(g_fixed_runs, 16);           /* 125 ms at speed 1 would be 8 */
    destroy_app(app);
}

static void the_cap_applies_after_the_speed(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    assert_int_equal(ecs_sched_time_set_speed(world_of(app), 0.5), ECS_SCHED_OK);
    update_by(app, ECS_SCHED_SECONDS(1));        /* 500 ms of game time, capped at 250 */
    assert_int_equal(virtual_clock(app)->time.delta_ns, ECS_SCHED_MILLISECONDS(250));
    update_by(app, ECS_SCHED_MILLISECONDS(400)); /* 200 ms: under the cap */
    assert_int_equal(virtual_clock(app)->time.delta_ns, ECS_SCHED_MILLISECONDS(200));
    assert_true(virtual_clock(app)->effective_speed == 0.5);
    destroy_app(app);
}

/* Bevy's test_max_delta_clamps_after_relative_speed */
static void the_cap_clamps_a_fast_frame_and_says_the_speed_it_gave(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    assert_int_equal(ecs_sched_time_set_speed(world_of(app), 2000.0), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_set_max_delta(world_of(app), ECS_SCHED_SECONDS(1)),
                     ECS_SCHED_OK);
    update_by(app, ECS_SCHED_MILLISECONDS(16));
    assert_int_equal(virtual_clock(app)->time.delta_ns, ECS_SCHED_SECONDS(1));
    assert_true(virtual_clock(app)->effective_speed == 62.5);   /* 1000 ms / 16 ms */
    destroy_app(app);
}

/* Bevy's test_dont_overclamp_at_low_speed */
static void a_slow_speed_is_not_clamped_by_a_cap_meant_for_real_time(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    assert_int_equal(ecs_sched_time_set_speed(world_of(app), 0.01), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_set_max_delta(world_of(app), ECS_SCHED_MILLISECONDS(10)),
                     ECS_SCHED_OK);
    update_by(app, ECS_SCHED_MILLISECONDS(16));
    assert_int_equal(virtual_clock(app)->time.delta_ns, ECS_SCHED_MILLISECONDS(16) / 100);
    destroy_app(app);
}

/* The promise: no frame moves the game by more than the cap, at any speed. With a 10 s frame,
   the default 250 ms cap and 64 Hz steps: 100 ms at speed 0.01 (6 steps), the cap at any speed
   from 0.025 up (16 steps), never 64 (speed 4) or 32000 (speed 2000). */
static void a_ten_second_frame_takes_at_most_the_cap_in_steps_at_any_speed(void **state) {
    static const struct {
        double speed;
        int64_t delta_ns;
        int steps;
    } cases[] = {{0.01, ECS_SCHED_MILLISECONDS(100), 6},
                 {1.0, ECS_SCHED_MILLISECONDS(250), 16},
                 {4.0, ECS_SCHED_MILLISECONDS(250), 16},
                 {2000.0, ECS_SCHED_MILLISECONDS(250), 16}};
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ecs_sched_app *app = new_app();
        count_fixed_updates(app);
        assert_int_equal(ecs_sched_time_set_speed(world_of(app), cases[i].speed), ECS_SCHED_OK);
        update_by(app, ECS_SCHED_SECONDS(10));
        assert_int_equal(virtual_clock(app)->time.delta_ns, cases[i].delta_ns);
        assert_int_equal(g_fixed_runs, cases[i].steps);
        assert_int_equal(fixed_clock(app)->steps_this_frame, cases[i].steps);
        destroy_app(app);
    }
}

static void a_paused_clock_has_an_effective_speed_of_zero(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    assert_true(virtual_clock(app)->effective_speed == 1.0);
    assert_int_equal(ecs_sched_time_set_paused(world_of(app), true), ECS_SCHED_OK);
    update_by(app, ECS_SCHED_MILLISECONDS(16));
    assert_true(virtual_clock(app)->effective_speed == 0.0);
    assert_int_equal(virtual_clock(app)->time.delta_ns, 0);
    destroy_app(app);
}

/* ---- overstep ---- */

static void the_overstep_fraction_says_how_far_the_present_is_past_the_last_step(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    update_by(app, ECS_SCHED_MILLISECONDS(20));   /* one step, 4.375 ms left */
    assert_int_equal(fixed_clock(app)->steps_this_frame, 1);
    assert_int_equal(fixed_clock(app)->overstep_ns, ECS_SCHED_MILLISECONDS(20) - STEP);
    assert_true(fixed_clock(app)->overstep_fraction > 0.28 - 1e-12 &&
                fixed_clock(app)->overstep_fraction < 0.28 + 1e-12);
    update_by(app, ECS_SCHED_MILLISECONDS(11) + 250000);  /* exactly one more step: 0 left */
    assert_int_equal(fixed_clock(app)->steps_this_frame, 1);
    assert_true(fixed_clock(app)->overstep_fraction == 0.0);
    destroy_app(app);
}

static void discarding_the_overstep_forgets_the_accumulated_time(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    count_fixed_updates(app);
    update_by(app, ECS_SCHED_MILLISECONDS(30));   /* one step, 14.375 ms left */
    assert_int_equal(ecs_sched_time_discard_overstep(world_of(app)), ECS_SCHED_OK);
    assert_int_equal(fixed_clock(app)->overstep_ns, 0);
    update_by(app, ECS_SCHED_MILLISECONDS(10));   /* would have made a step without discard */
    assert_int_equal(g_fixed_runs, 1);
    destroy_app(app);
}

static void the_cap_on_steps_per_frame_drops_whole_steps_and_keeps_the_part(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    count_fixed_updates(app);
    assert_int_equal(ecs_sched_time_set_max_steps_per_frame(world_of(app), 4), ECS_SCHED_OK);
    update_by(app, ECS_SCHED_MILLISECONDS(100));  /* 6 steps and 6.25 ms */
    assert_int_equal(g_fixed_runs, 4);
    assert_int_equal(fixed_clock(app)->dropped_steps, 2);
    assert_int_equal(fixed_clock(app)->overstep_ns, ECS_SCHED_MILLISECONDS(100) - 6 * STEP);
    assert_true(fixed_clock(app)->overstep_fraction < 1.0);
    destroy_app(app);
}

static void a_new_step_keeps_the_overstep_as_time(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    count_fixed_updates(app);
    update_by(app, ECS_SCHED_MILLISECONDS(30));   /* 1 step of 15.625 ms, 14.375 ms left */
    assert_int_equal(ecs_sched_time_set_fixed_step(world_of(app), ECS_SCHED_MILLISECONDS(5)),
                     ECS_SCHED_OK);
    assert_int_equal(fixed_clock(app)->overstep_ns, ECS_SCHED_MILLISECONDS(30) - STEP);
    update_by(app, ECS_SCHED_MILLISECONDS(1));    /* 15.375 ms: three steps of 5 ms */
    assert_int_equal(g_fixed_runs, 4);
    assert_int_equal(fixed_clock(app)->overstep_ns, 375000);
    assert_int_equal(fixed_clock(app)->time.delta_ns, ECS_SCHED_MILLISECONDS(5));
    destroy_app(app);
}

/* ---- what a system reads ---- */

static int64_t g_seen[2][8];                /* [0]: in Update, [1]: in FixedUpdate */
static int g_seen_count[2];

static void remember_time(ecs_sched_system_ctx *ctx) {
    int where = ecs_sched_ctx_user_data(ctx) != NULL;
    const ecs_sched_time *t = ecs_sched_ctx_time(ctx);
    assert_non_null(t);
    if (g_seen_count[where] < 8) g_seen[where][g_seen_count[where]++] = t->delta_ns;
}

static void one_system_reads_the_virtual_clock_in_update_and_the_fixed_clock_in_fixed_update(
    void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = world_of(app);
    static int fixed_marker;
    ecs_sched_system_desc reader = {.name = "reader", .fn = remember_time,
                                    .reads = {ecs_sched_time_id(w)}};
    (void)state;
    memset(g_seen_count, 0, sizeof g_seen_count);
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_UPDATE, &reader), ECS_SCHED_OK);
    reader.user_data = &fixed_marker;
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_FIXED_UPDATE, &reader), ECS_SCHED_OK);
    update_by(app, ECS_SCHED_MILLISECONDS(40));   /* two steps */
    assert_int_equal(g_seen_count[0], 1);
    assert_int_equal(g_seen[0][0], ECS_SCHED_MILLISECONDS(40));
    assert_int_equal(g_seen_count[1], 2);
    assert_int_equal(g_seen[1][0], STEP);
    assert_int_equal(g_seen[1][1], STEP);
    /* and after the fixed loop, "Time" is the virtual clock again */
    assert_int_equal(((const ecs_sched_time *)ecs_sched_resource_get(w, ecs_sched_time_id(w)))
                         ->delta_ns,
                     ECS_SCHED_MILLISECONDS(40));
    destroy_app(app);
}

static bool g_time_was_null;

static void read_time_undeclared(ecs_sched_system_ctx *ctx) {
    g_time_was_null = ecs_sched_ctx_time(ctx) == NULL;
}

static void reading_the_time_without_declaring_it_is_an_access_error(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    g_time_was_null = false;
    assert_int_equal(ecs_sched_add_system(world_of(app), ECS_SCHED_UPDATE,
                                          &(ecs_sched_system_desc){.name = "sneaky",
                                                                   .fn = read_time_undeclared}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_app_update_by(app, ECS_SCHED_MILLISECONDS(10)), ECS_SCHED_ERR_ACCESS);
    assert_true(g_time_was_null);
    assert_non_null(strstr(ecs_sched_last_error(world_of(app)), "sneaky"));
    assert_non_null(strstr(ecs_sched_last_error(world_of(app)), "Time"));
    destroy_app(app);
}

static void seconds_are_the_nanoseconds_as_doubles(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    update_by(app, ECS_SCHED_MILLISECONDS(250));
    update_by(app, ECS_SCHED_MILLISECONDS(500));
    assert_true(virtual_clock(app)->time.delta_seconds == 0.25);
    assert_true(virtual_clock(app)->time.elapsed_seconds == 0.5);  /* capped at 250 ms */
    assert_true(real_clock(app)->time.elapsed_seconds == 0.75);
    destroy_app(app);
}

static int64_t monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Without a clock hook, the system's monotonic clock, also where the implementation is
   compiled as strict ISO C (this test's is), which hides clock_gettime from it. */
static void the_default_clock_is_the_monotonic_clock(void **state) {
    ecs_sched_app_desc desc = test_app_desc(ECS_SCHED_EXECUTOR_SINGLE_THREADED);
    int64_t before, reading, after;
    (void)state;
    desc.time.clock = NULL;
    desc.time.sleep = NULL;
    new_app_with(&desc);
    before = monotonic_ns();
    reading = ecs_sched_time_now(ecs_sched_app_world(g_app));
    after = monotonic_ns();
    assert_true(reading >= before && reading <= after);
    destroy_app(g_app);
}

static void the_clock_hook_drives_update_and_the_first_update_has_no_delta(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    g_clock_ns += ECS_SCHED_SECONDS(3);           /* before the first update: not counted */
    assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);
    assert_int_equal(real_clock(app)->time.delta_ns, 0);
    g_clock_ns += ECS_SCHED_MILLISECONDS(16);
    assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);
    assert_int_equal(real_clock(app)->time.delta_ns, ECS_SCHED_MILLISECONDS(16));
    g_clock_ns += ECS_SCHED_MILLISECONDS(7);
    assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);
    assert_int_equal(virtual_clock(app)->time.delta_ns, ECS_SCHED_MILLISECONDS(7));
    assert_int_equal(virtual_clock(app)->time.elapsed_ns, ECS_SCHED_MILLISECONDS(23));
    destroy_app(app);
}

static void a_clock_that_goes_back_is_warned_about_counted_and_advances_by_zero(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);
    g_clock_ns += ECS_SCHED_MILLISECONDS(16);
    assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);
    assert_int_equal(g_log.warnings, 0);
    g_clock_ns -= ECS_SCHED_MILLISECONDS(5);     /* the hook's reading goes back */
    assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);
    assert_int_equal(real_clock(app)->time.delta_ns, 0);
    assert_int_equal(virtual_clock(app)->time.delta_ns, 0);
    assert_int_equal(real_clock(app)->backward_readings, 1);
    assert_int_equal(g_log.warnings, 1);
    assert_int_equal(g_log.last_level, ECS_SCHED_LOG_WARN);
    assert_non_null(strstr(g_log.last, "11001000 ns"));   /* the reading, */
    assert_non_null(strstr(g_log.last, "16001000 ns"));   /* and the one before */
    assert_non_null(strstr(g_log.last, "monotonic"));
    g_clock_ns += ECS_SCHED_MILLISECONDS(3);     /* measured from the earlier reading */
    assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);
    assert_int_equal(real_clock(app)->time.delta_ns, ECS_SCHED_MILLISECONDS(3));
    assert_int_equal(g_log.warnings, 1);
    g_clock_ns -= 1;                              /* each time it happens */
    assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);
    assert_int_equal(real_clock(app)->backward_readings, 2);
    assert_int_equal(g_log.warnings, 2);
    destroy_app(app);
}

/* ---- wrapped elapsed time ---- */

static int64_t wrapped_ns(const ecs_sched_time *t) {
    return ecs_sched_time_elapsed_wrapped(t);
}

static double wrapped_seconds(const ecs_sched_time *t) {
    return ecs_sched_time_elapsed_seconds_wrapped(t);
}

static void every_clock_wraps_its_elapsed_time_at_one_hour_by_default(void **state) {
    ecs_sched_app *app = new_app();
    int i;
    (void)state;
    assert_int_equal(real_clock(app)->time.wrap_period_ns, ECS_SCHED_SECONDS(3600));
    assert_int_equal(ecs_sched_time_set_max_delta(world_of(app), ECS_SCHED_SECONDS(1000)),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_set_max_steps_per_frame(world_of(app), 1), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_set_fixed_step(world_of(app), ECS_SCHED_SECONDS(100)),
                     ECS_SCHED_OK);
    for (i = 0; i < 37; i++) update_by(app, ECS_SCHED_SECONDS(100));   /* 3700 s */
    assert_int_equal(real_clock(app)->time.elapsed_ns, ECS_SCHED_SECONDS(3700));
    assert_int_equal(wrapped_ns(&real_clock(app)->time), ECS_SCHED_SECONDS(100));
    assert_int_equal(wrapped_ns(&virtual_clock(app)->time), ECS_SCHED_SECONDS(100));
    assert_int_equal(wrapped_ns(&fixed_clock(app)->time), ECS_SCHED_SECONDS(100));
    assert_true(wrapped_seconds(&virtual_clock(app)->time) == 100.0);
    destroy_app(app);
}

static const ecs_sched_time *time_now(ecs_sched_world *w) {
    return (const ecs_sched_time *)ecs_sched_resource_get(w, ecs_sched_time_id(w));
}

static void the_wrap_period_is_set_for_every_clock_and_applies_at_once(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = world_of(app);
    (void)state;
    update_by(app, ECS_SCHED_MILLISECONDS(100));
    update_by(app, ECS_SCHED_MILLISECONDS(150));
    assert_int_equal(ecs_sched_time_set_wrap_period(w, ECS_SCHED_MILLISECONDS(60)), ECS_SCHED_OK);
    assert_int_equal(wrapped_ns(&real_clock(app)->time), ECS_SCHED_MILLISECONDS(10));
    assert_int_equal(wrapped_ns(&virtual_clock(app)->time), ECS_SCHED_MILLISECONDS(10));
    assert_int_equal(wrapped_ns(time_now(w)), ECS_SCHED_MILLISECONDS(10));
    assert_int_equal(fixed_clock(app)->time.wrap_period_ns, ECS_SCHED_MILLISECONDS(60));
    /* 16 steps of 15.625 ms: 250 ms, 10 past the fourth period */
    assert_int_equal(wrapped_ns(&fixed_clock(app)->time), ECS_SCHED_MILLISECONDS(10));
    update_by(app, ECS_SCHED_MILLISECONDS(55));
    assert_int_equal(wrapped_ns(&virtual_clock(app)->time), ECS_SCHED_MILLISECONDS(5));
    assert_true(wrapped_seconds(&virtual_clock(app)->time) > 0.005 - 1e-12 &&
                wrapped_seconds(&virtual_clock(app)->time) < 0.005 + 1e-12);
    assert_int_equal(ecs_sched_time_set_wrap_period(w, 0), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "time_set_wrap_period"));
    assert_int_equal(virtual_clock(app)->time.wrap_period_ns, ECS_SCHED_MILLISECONDS(60));
    destroy_app(app);
}

static void a_wrap_period_comes_from_the_time_desc(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, &(ecs_sched_time_desc){.wrap_period_ns = -1}),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "wrap_period_ns"));
    assert_int_equal(ecs_sched_time_setup(w, &(ecs_sched_time_desc){
                                                 .wrap_period_ns = ECS_SCHED_SECONDS(2)}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_advance_by(w, ECS_SCHED_MILLISECONDS(2500)), ECS_SCHED_OK);
    assert_int_equal(wrapped_ns(time_now(w)), ECS_SCHED_MILLISECONDS(250));  /* capped */
    assert_int_equal(time_now(w)->wrap_period_ns, ECS_SCHED_SECONDS(2));
    check_and_destroy(w);
}

/* ---- what the clocks read before the first step ---- */

static void the_clocks_start_at_zero_and_the_fixed_delta_is_one_step(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    assert_int_equal(real_clock(app)->time.elapsed_ns, 0);
    assert_int_equal(real_clock(app)->time.delta_ns, 0);
    assert_int_equal(virtual_clock(app)->time.delta_ns, 0);
    assert_int_equal(fixed_clock(app)->time.elapsed_ns, 0);
    assert_int_equal(fixed_clock(app)->time.delta_ns, STEP);
    destroy_app(app);
}

static void a_new_fixed_step_shows_as_the_fixed_delta_at_once(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    update_by(app, ECS_SCHED_MILLISECONDS(20));
    assert_int_equal(ecs_sched_time_set_fixed_step(world_of(app), ECS_SCHED_MILLISECONDS(10)),
                     ECS_SCHED_OK);
    assert_int_equal(fixed_clock(app)->time.delta_ns, ECS_SCHED_MILLISECONDS(10));
    assert_true(fixed_clock(app)->time.delta_seconds == 0.01);
    destroy_app(app);
}

static void set_step_in_fixed_update(ecs_sched_system_ctx *ctx) {
    const ecs_sched_time *now = ecs_sched_ctx_time(ctx);
    char word[32];
    snprintf(word, sizeof word, "step@%lld", (long long)(now->delta_ns / 1000000));
    trace_add(word);
    if (now->elapsed_ns == 2 * ECS_SCHED_MILLISECONDS(20)) {
        assert_int_equal(ecs_sched_time_set_fixed_step(ecs_sched_ctx_world(ctx),
                                                       ECS_SCHED_MILLISECONDS(10)),
                         ECS_SCHED_OK);
    }
}

static void a_step_set_inside_fixed_update_shows_after_the_runner_run(void **state) {
    ecs_sched_app_desc desc = test_app_desc(ECS_SCHED_EXECUTOR_SINGLE_THREADED);
    ecs_sched_app *app;
    ecs_sched_id time_id;
    (void)state;
    desc.time.fixed_step_ns = ECS_SCHED_MILLISECONDS(20);
    app = new_app_with(&desc);
    time_id = ecs_sched_time_id(world_of(app));
    assert_int_equal(ecs_sched_add_system(world_of(app), ECS_SCHED_FIXED_UPDATE,
                                          &(ecs_sched_system_desc){.name = "set_step",
                                                                   .fn = set_step_in_fixed_update,
                                                                   .reads = {time_id},
                                                                   .exclusive = true}),
                     ECS_SCHED_OK);
    update_by(app, ECS_SCHED_MILLISECONDS(60));   /* three steps of 20 ms, the step changes
                                                     during the second */
    assert_string_equal(g_trace, "step@20 step@20 step@20");
    assert_int_equal(fixed_clock(app)->time.delta_ns, ECS_SCHED_MILLISECONDS(10));
    update_by(app, ECS_SCHED_MILLISECONDS(10));
    assert_string_equal(g_trace, "step@20 step@20 step@20 step@10");
    destroy_app(app);
}

static void the_clocks_work_in_a_world_without_an_app(void **state) {
    ecs_sched_world *w = new_world();
    const ecs_sched_time_fixed *fixed;
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, &(ecs_sched_time_desc){
                                                 .fixed_step_ns = ECS_SCHED_MILLISECONDS(10)}),
                     ECS_SCHED_OK);
    trace_in(w, ECS_SCHED_FIXED_MAIN, "step");
    {
        ecs_sched_system_desc runner = ecs_sched_fixed_main_loop_system();
        assert_int_equal(ecs_sched_add_system(w, "Frame", &runner), ECS_SCHED_OK);
    }
    assert_int_equal(ecs_sched_time_advance_by(w, ECS_SCHED_MILLISECONDS(25)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, "Frame"), ECS_SCHED_OK);
    assert_string_equal(g_trace, "step step");
    fixed = (const ecs_sched_time_fixed *)ecs_sched_resource_get(w, ecs_sched_time_fixed_id(w));
    assert_int_equal(fixed->overstep_ns, ECS_SCHED_MILLISECONDS(5));
    check_and_destroy(w);
}

/* ---- what systems may do to the clocks while the fixed loop runs ---- */

static ecs_sched_id g_fixed_id;
static int g_calls;

static void remove_the_fixed_clock(ecs_sched_system_ctx *ctx) {
    ecs_sched_resource_remove(ecs_sched_ctx_world(ctx), g_fixed_id);
}

static void a_clock_removed_during_the_fixed_loop_fails_the_update_cleanly(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = world_of(app);
    (void)state;
    g_fixed_id = ecs_sched_time_fixed_id(w);
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_FIXED_UPDATE, &(ecs_sched_system_desc){
                         .name = "vandal", .fn = remove_the_fixed_clock, .exclusive = true}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_app_update_by(app, ECS_SCHED_MILLISECONDS(100)),
                     ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_non_null(strstr(ecs_sched_last_error(w), "Time<Fixed>"));
    destroy_app(app);
}

static void zero_the_step_once(ecs_sched_system_ctx *ctx) {
    ecs_sched_time_fixed *f = (ecs_sched_time_fixed *)ecs_sched_ctx_resource_mut(ctx, g_fixed_id);
    if (++g_calls == 1) f->step_ns = 0;
}

static void a_step_written_during_the_fixed_loop_applies_from_the_next_frame(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = world_of(app);
    (void)state;
    g_calls = 0;
    g_fixed_id = ecs_sched_time_fixed_id(w);
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_FIXED_UPDATE, &(ecs_sched_system_desc){
                         .name = "zero", .fn = zero_the_step_once, .writes = {g_fixed_id}}),
                     ECS_SCHED_OK);
    update_by(app, 3 * STEP);                     /* this frame keeps the step it started with */
    assert_int_equal(g_calls, 3);
    assert_int_equal(fixed_clock(app)->overstep_ns, 0);
    assert_int_equal(ecs_sched_app_update_by(app, STEP), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "Time<Fixed>.step_ns is 0"));
    assert_int_equal(g_calls, 3);
    destroy_app(app);
}

static void cap_at_one(ecs_sched_system_ctx *ctx) {
    if (++g_calls == 2) ecs_sched_time_set_max_steps_per_frame(ecs_sched_ctx_world(ctx), 1);
}

static void a_cap_lowered_during_the_fixed_loop_stops_it(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    g_calls = 0;
    assert_int_equal(ecs_sched_add_system(world_of(app), ECS_SCHED_FIXED_UPDATE,
                                          &(ecs_sched_system_desc){.name = "cap", .fn = cap_at_one,
                                                                   .exclusive = true}),
                     ECS_SCHED_OK);
    update_by(app, 6 * STEP);
    assert_int_equal(fixed_clock(app)->steps_this_frame, 2);
    assert_int_equal(fixed_clock(app)->dropped_steps, 4);
    destroy_app(app);
}

static void the_runner_without_fixed_main_fails_and_takes_no_time(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_system_desc runner = ecs_sched_fixed_main_loop_system();
    const ecs_sched_time_fixed *fixed;
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, "Frame", &runner), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_advance_by(w, ECS_SCHED_MILLISECONDS(20)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, "Frame"), ECS_SCHED_ERR_UNKNOWN_SCHEDULE);
    fixed = (const ecs_sched_time_fixed *)ecs_sched_resource_get(w, ecs_sched_time_fixed_id(w));
    assert_int_equal(fixed->time.elapsed_ns, 0);
    assert_int_equal(fixed->overstep_ns, 0);
    check_and_destroy(w);
}

static void huge_speeds_and_deltas_saturate_instead_of_wrapping(void **state) {
    ecs_sched_world *w = new_world();
    const ecs_sched_time_virtual *v;
    const ecs_sched_time_real *r;
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_set_speed(w, 1e9), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_set_max_delta(w, INT64_MAX), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_advance_by(w, ECS_SCHED_SECONDS(10)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_advance_by(w, INT64_MAX), ECS_SCHED_OK);
    v = (const ecs_sched_time_virtual *)ecs_sched_resource_get(w, ecs_sched_time_virtual_id(w));
    r = (const ecs_sched_time_real *)ecs_sched_resource_get(w, ecs_sched_time_real_id(w));
    assert_true(v->time.delta_ns == INT64_MAX && v->time.elapsed_ns == INT64_MAX);
    assert_true(r->time.elapsed_ns == INT64_MAX);
    check_and_destroy(w);
}

static int64_t g_negative_clock;

static int64_t negative_clock(void *user_data) {
    (void)user_data;
    return g_negative_clock;
}

static void a_clock_with_negative_readings_works(void **state) {
    ecs_sched_app_desc desc = test_app_desc(ECS_SCHED_EXECUTOR_SINGLE_THREADED);
    ecs_sched_app *app;
    int i;
    (void)state;
    desc.time.clock = negative_clock;
    app = new_app_with(&desc);
    g_negative_clock = -ECS_SCHED_SECONDS(100);
    for (i = 0; i < 4; i++) {
        assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);
        g_negative_clock += ECS_SCHED_MILLISECONDS(16);
    }
    assert_int_equal(real_clock(app)->time.elapsed_ns, 3 * ECS_SCHED_MILLISECONDS(16));
    destroy_app(app);
}

/* ---- bad settings ---- */

static void bad_settings_are_refused_and_change_nothing(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = world_of(app);
    (void)state;
    assert_int_equal(ecs_sched_time_set_fixed_step(w, 0), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "step"));
    assert_int_equal(ecs_sched_time_set_fixed_step(w, -5), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(fixed_clock(app)->step_ns, STEP);
    assert_int_equal(ecs_sched_time_set_speed(w, -1.0), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "speed"));
    assert_int_equal(ecs_sched_time_set_speed(w, NAN), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_true(virtual_clock(app)->relative_speed == 1.0);
    assert_int_equal(ecs_sched_time_set_max_delta(w, 0), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "maximum delta"));
    assert_int_equal(virtual_clock(app)->max_delta_ns, ECS_SCHED_MILLISECONDS(250));
    assert_int_equal(ecs_sched_time_set_max_steps_per_frame(w, -1), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(fixed_clock(app)->max_steps_per_frame, 0);
    assert_int_equal(ecs_sched_app_update_by(app, -1), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(real_clock(app)->time.elapsed_ns, 0);
    assert_int_equal(ecs_sched_app_frame_count(app), 0);
    destroy_app(app);
}

static ecs_sched_id g_virtual_id;

static void set_a_negative_speed(ecs_sched_system_ctx *ctx) {
    ecs_sched_time_virtual *v =
        (ecs_sched_time_virtual *)ecs_sched_ctx_resource_mut(ctx, g_virtual_id);
    v->relative_speed = -3.0;
}

static void a_bad_setting_written_by_a_system_fails_the_next_update_before_anything_runs(
    void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = world_of(app);
    (void)state;
    g_virtual_id = ecs_sched_time_virtual_id(w);
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_UPDATE,
                                          &(ecs_sched_system_desc){
                                              .name = "saboteur", .fn = set_a_negative_speed,
                                              .writes = {ecs_sched_time_virtual_id(w)}}),
                     ECS_SCHED_OK);
    update_by(app, ECS_SCHED_MILLISECONDS(10));
    app_trace_in(app, ECS_SCHED_FIRST, "first");
    assert_int_equal(ecs_sched_app_update_by(app, ECS_SCHED_MILLISECONDS(10)),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "Time<Virtual>.relative_speed is -3"));
    assert_string_equal(g_trace, "");
    assert_int_equal(virtual_clock(app)->time.elapsed_ns, ECS_SCHED_MILLISECONDS(10));
    destroy_app(app);
}

static void setting_up_the_clocks_twice_is_refused(void **state) {
    ecs_sched_app *app = new_app();
    (void)state;
    assert_int_equal(ecs_sched_time_setup(world_of(app), NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(world_of(app)), "clocks already"));
    destroy_app(app);
}

static void a_bad_time_desc_is_refused_with_the_field_named(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, &(ecs_sched_time_desc){.fixed_step_ns = -1}),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "fixed_step_ns"));
    assert_int_equal(ecs_sched_time_id(w), 0);
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_OK);
    assert_true(ecs_sched_time_id(w) != 0);
    check_and_destroy(w);
}

/* ---- time conditions ---- */

/* A system in Update that traces its word when its condition holds. */
static void traced_if(ecs_sched_app *app, const char *word, const ecs_sched_condition *c) {
    assert_int_equal(ecs_sched_add_system(world_of(app), ECS_SCHED_UPDATE,
                                          &(ecs_sched_system_desc){.name = word, .fn = record,
                                                                   .run_if = {c}}),
                     ECS_SCHED_OK);
}

/* Runs frames of the given milliseconds; the trace gets "|" between frames. */
static void run_frames(ecs_sched_app *app, const int *ms, int count) {
    int i;
    for (i = 0; i < count; i++) {
        if (i) trace_add("|");
        update_by(app, ECS_SCHED_MILLISECONDS(ms[i]));
    }
}

static void on_timer_is_true_once_each_time_its_period_elapses(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_condition every_100ms = ecs_sched_condition_on_timer(ECS_SCHED_MILLISECONDS(100));
    static const int ms[] = {0, 30, 30, 30, 30, 30, 30, 30};   /* 0 30 60 90 120 ... 210 */
    (void)state;
    traced_if(app, "tick", &every_100ms);
    run_frames(app, ms, 8);
    assert_string_equal(g_trace, "| | | | tick | | | tick");
    destroy_app(app);
}

static void on_timer_gives_one_true_when_several_periods_elapse_in_one_frame(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_condition every_50ms = ecs_sched_condition_on_timer(ECS_SCHED_MILLISECONDS(50));
    static const int ms[] = {175, 10, 15, 10};     /* 175: three periods; then 185, 200 */
    (void)state;
    traced_if(app, "tick", &every_50ms);
    run_frames(app, ms, 4);
    assert_string_equal(g_trace, "tick | | tick |");
    destroy_app(app);
}

static void once_after_delay_is_true_exactly_once(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_condition after = ecs_sched_condition_once_after_delay(ECS_SCHED_MILLISECONDS(50));
    static const int ms[] = {20, 20, 20, 20, 200};
    (void)state;
    traced_if(app, "once", &after);
    run_frames(app, ms, 5);
    assert_string_equal(g_trace, "| | once | |");
    destroy_app(app);
}

static void repeating_after_delay_is_true_from_the_delay_on(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_condition after =
        ecs_sched_condition_repeating_after_delay(ECS_SCHED_MILLISECONDS(50));
    static const int ms[] = {20, 20, 20, 20, 20};
    (void)state;
    traced_if(app, "on", &after);
    run_frames(app, ms, 5);
    assert_string_equal(g_trace, "| | on | on | on");
    destroy_app(app);
}

static void time_paused_follows_the_virtual_clock(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_condition paused = ecs_sched_condition_time_paused();
    (void)state;
    traced_if(app, "paused", &paused);
    update_by(app, 10);
    assert_int_equal(ecs_sched_time_set_paused(world_of(app), true), ECS_SCHED_OK);
    trace_add("|");
    update_by(app, 10);
    assert_string_equal(g_trace, "| paused");
    destroy_app(app);
}

static void each_timer_condition_keeps_its_own_timer(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_condition every_40ms = ecs_sched_condition_on_timer(ECS_SCHED_MILLISECONDS(40));
    (void)state;
    traced_if(app, "a", &every_40ms);
    update_by(app, ECS_SCHED_MILLISECONDS(30));
    traced_if(app, "b", &every_40ms);              /* starts from zero now */
    trace_add("|");
    update_by(app, ECS_SCHED_MILLISECONDS(30));    /* a at 60 fires; b at 30 does not */
    trace_add("|");
    update_by(app, ECS_SCHED_MILLISECONDS(15));    /* a at 35 into its period; b at 45 fires */
    assert_string_equal(g_trace, "| a | b");
    destroy_app(app);
}

static void a_timer_condition_in_fixed_update_counts_fixed_steps(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_condition every_other_step = ecs_sched_condition_on_timer(2 * STEP);
    (void)state;
    assert_int_equal(ecs_sched_add_system(world_of(app), ECS_SCHED_FIXED_UPDATE,
                                          &(ecs_sched_system_desc){.name = "tick", .fn = record,
                                                                   .run_if = {&every_other_step}}),
                     ECS_SCHED_OK);
    update_by(app, 5 * STEP);                      /* five steps in one frame */
    assert_string_equal(g_trace, "tick tick");
    destroy_app(app);
}

static void time_conditions_are_checked_when_added(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *plain = new_world();
    ecs_sched_condition zero = ecs_sched_condition_on_timer(0);
    ecs_sched_condition negative = ecs_sched_condition_once_after_delay(-1);
    ecs_sched_condition fine = ecs_sched_condition_on_timer(10);
    (void)state;
    assert_int_equal(ecs_sched_add_system(world_of(app), ECS_SCHED_UPDATE,
                                          &(ecs_sched_system_desc){.name = "z", .fn = record,
                                                                   .run_if = {&zero}}),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(world_of(app)), "on_timer"));
    assert_int_equal(ecs_sched_add_system(world_of(app), ECS_SCHED_UPDATE,
                                          &(ecs_sched_system_desc){.name = "n", .fn = record,
                                                                   .run_if = {&negative}}),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_add_system(plain, UPDATE,
                                          &(ecs_sched_system_desc){.name = "f", .fn = record,
                                                                   .run_if = {&fine}}),
                     ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_non_null(strstr(ecs_sched_last_error(plain), "no clocks"));
    update_by(app, 10);
    assert_string_equal(g_trace, "");             /* nothing half-added */
    check_and_destroy(plain);
    destroy_app(app);
}

static void a_timer_condition_counts_as_a_read_of_the_time(void **state) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = world_of(app);
    ecs_sched_condition every = ecs_sched_condition_on_timer(10);
    (void)state;
    assert_int_equal(ecs_sched_schedule_configure(w, ECS_SCHED_UPDATE,
                                                  &(ecs_sched_schedule_desc){
                                                      .ambiguities = ECS_SCHED_REPORT_ERROR}),
                     ECS_SCHED_OK);
    traced_if(app, "timed", &every);
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_UPDATE,
                                          &(ecs_sched_system_desc){
                                              .name = "slow_down", .fn = record,
                                              .writes = {ecs_sched_time_id(w)}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_app_update_by(app, 10), ECS_SCHED_ERR_AMBIGUITY);
    assert_non_null(strstr(ecs_sched_last_error(w), "'Time'"));
    destroy_app(app);
}

/* ---- a world without clocks, and clocks removed ---- */

static void a_world_without_clocks_has_no_clock_ids_and_reads_the_system_clock(void **state) {
    ecs_sched_world *w = new_world();
    int64_t before, after;
    (void)state;
    assert_int_equal(ecs_sched_time_id(w), 0);
    assert_int_equal(ecs_sched_time_real_id(w), 0);
    assert_int_equal(ecs_sched_time_virtual_id(w), 0);
    assert_int_equal(ecs_sched_time_fixed_id(w), 0);
    before = ecs_sched_time_now(w);
    ecs_sched_time_sleep(w, 1000);
    after = ecs_sched_time_now(w);
    assert_true(before > 0);
    assert_true(after - before >= 1000);
    check_and_destroy(w);
}

static void each_clock_setting_in_a_world_without_clocks_names_itself_in_the_error(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
#define EXPECT_NO_CLOCKS(call, operation)                                                      \
    do {                                                                                       \
        assert_int_equal(call, ECS_SCHED_ERR_MISSING_RESOURCE);                                \
        assert_non_null(strstr(ecs_sched_last_error(w),                                        \
                               operation ": this world has no clocks"));                       \
    } while (0)
    EXPECT_NO_CLOCKS(ecs_sched_time_set_paused(w, true), "time_set_paused");
    EXPECT_NO_CLOCKS(ecs_sched_time_set_speed(w, 2.0), "time_set_speed");
    EXPECT_NO_CLOCKS(ecs_sched_time_set_max_delta(w, 5), "time_set_max_delta");
    EXPECT_NO_CLOCKS(ecs_sched_time_set_fixed_step(w, 5), "time_set_fixed_step");
    EXPECT_NO_CLOCKS(ecs_sched_time_set_max_steps_per_frame(w, 2), "time_set_max_steps_per_frame");
    EXPECT_NO_CLOCKS(ecs_sched_time_set_wrap_period(w, 5), "time_set_wrap_period");
    EXPECT_NO_CLOCKS(ecs_sched_time_discard_overstep(w), "time_discard_overstep");
    EXPECT_NO_CLOCKS(ecs_sched_time_advance(w), "time_advance");
    EXPECT_NO_CLOCKS(ecs_sched_time_advance_by(w, 5), "time_advance");
#undef EXPECT_NO_CLOCKS
    check_and_destroy(w);
}

static void read_the_time(ecs_sched_system_ctx *ctx) {
    const ecs_sched_time *t = ecs_sched_ctx_time(ctx);
    trace_add(t ? "time" : "none");
}

static void reading_the_time_in_a_world_without_clocks_fails_the_system(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                                                         .name = "reader", .fn = read_the_time}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_non_null(strstr(ecs_sched_last_error(w), "reader"));
    assert_non_null(strstr(ecs_sched_last_error(w), "reads the time, but this world has no clocks"));
    assert_string_equal(g_trace, "none");
    check_and_destroy(w);
}

static void reading_the_time_after_it_was_removed_fails_the_system(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                                                         .name = "reader", .fn = read_the_time,
                                                         .reads = {ecs_sched_time_id(w)}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_resource_remove(w, ecs_sched_time_id(w)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_non_null(strstr(ecs_sched_last_error(w), "reads the time, but resource 'Time' was removed"));
    assert_string_equal(g_trace, "none");
    check_and_destroy(w);
}

/* Each clock removed: the operations that need it fail, naming the resource. */
static void a_removed_clock_resource_fails_what_needs_it_by_name(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_resource_remove(w, ecs_sched_time_fixed_id(w)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_discard_overstep(w), ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_non_null(strstr(ecs_sched_last_error(w),
                           "time_discard_overstep: resource 'Time<Fixed>' was removed"));
    assert_int_equal(ecs_sched_time_set_wrap_period(w, 5), ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_non_null(strstr(ecs_sched_last_error(w), "'Time<Fixed>'"));
    assert_int_equal(ecs_sched_time_advance_by(w, 5), ECS_SCHED_OK);   /* needs no fixed clock */
    assert_int_equal(ecs_sched_resource_remove(w, ecs_sched_time_id(w)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_advance_by(w, 5), ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_non_null(strstr(ecs_sched_last_error(w), "time_advance: resource 'Time' was removed"));
    assert_int_equal(ecs_sched_time_set_wrap_period(w, 5), ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_non_null(strstr(ecs_sched_last_error(w), "time_set_wrap_period: resource 'Time' was"));
    assert_int_equal(ecs_sched_resource_remove(w, ecs_sched_time_virtual_id(w)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_set_paused(w, true), ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_non_null(strstr(ecs_sched_last_error(w), "time_set_paused: resource 'Time<Virtual>'"));
    assert_int_equal(ecs_sched_time_advance_by(w, 5), ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_non_null(strstr(ecs_sched_last_error(w), "'Time<Virtual>'"));
    assert_int_equal(ecs_sched_resource_remove(w, ecs_sched_time_real_id(w)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_advance(w), ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_non_null(strstr(ecs_sched_last_error(w), "time_advance: resource 'Time<Real>' was removed"));
    assert_int_equal(ecs_sched_time_advance_by(w, 5), ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_non_null(strstr(ecs_sched_last_error(w), "'Time<Real>'"));
    check_and_destroy(w);
}

static void time_conditions_whose_clock_was_removed_are_false(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_condition timer = ecs_sched_condition_on_timer(1);
    ecs_sched_condition delay = ecs_sched_condition_once_after_delay(0);
    ecs_sched_condition paused = ecs_sched_condition_time_paused();
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_set_paused(w, true), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                         .name = "timer", .fn = record, .run_if = {&timer}}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                         .name = "delay", .fn = record, .run_if = {&delay}, .after = {"timer"}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                         .name = "paused", .fn = record, .run_if = {&paused}, .after = {"delay"}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_set_paused(w, false), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_advance_by(w, 10), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_set_paused(w, true), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_trace, "timer delay paused");
    g_trace[0] = '\0';
    assert_int_equal(ecs_sched_resource_remove(w, ecs_sched_time_id(w)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_resource_remove(w, ecs_sched_time_virtual_id(w)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_trace, "");
    check_and_destroy(w);
}

static void a_named_time_condition_is_named_in_its_errors(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_condition timer = ecs_sched_condition_on_timer(0);
    (void)state;
    timer.name = "heartbeat";
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                         .name = "beat", .fn = record, .run_if = {&timer}}),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w),
                           "condition 'heartbeat': its duration is 0 ns; it must be > 0"));
    timer.duration_ns = 5;
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                         .name = "beat", .fn = record, .run_if = {&timer}}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_advance_by(w, 5), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_trace, "beat");
    check_and_destroy(w);
}

static void a_time_desc_with_a_negative_cap_or_maximum_delta_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, &(ecs_sched_time_desc){.max_delta_ns = -1}),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "time_setup: max_delta_ns is -1"));
    assert_int_equal(ecs_sched_time_setup(w, &(ecs_sched_time_desc){.max_steps_per_frame = -3}),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "time_setup: max_steps_per_frame is -3"));
    assert_int_equal(ecs_sched_time_id(w), 0);
    check_and_destroy(w);
}

static void a_maximum_delta_written_as_zero_fails_the_advance(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_time_virtual *v;
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_OK);
    v = (ecs_sched_time_virtual *)ecs_sched_resource_get_mut(w, ecs_sched_time_virtual_id(w));
    v->max_delta_ns = 0;
    assert_int_equal(ecs_sched_time_advance_by(w, 5), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "Time<Virtual>.max_delta_ns is 0"));
    assert_int_equal(v->time.elapsed_ns, 0);
    check_and_destroy(w);
}

static void a_negative_cap_written_into_the_fixed_clock_fails_the_runner(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_time_fixed *f;
    ecs_sched_system_desc runner = ecs_sched_fixed_main_loop_system();
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_OK);
    trace_in(w, ECS_SCHED_FIXED_MAIN, "step");
    assert_int_equal(ecs_sched_add_system(w, "Frame", &runner), ECS_SCHED_OK);
    f = (ecs_sched_time_fixed *)ecs_sched_resource_get_mut(w, ecs_sched_time_fixed_id(w));
    f->max_steps_per_frame = -1;
    assert_int_equal(ecs_sched_time_advance_by(w, ECS_SCHED_MILLISECONDS(100)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, "Frame"), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "Time<Fixed>.max_steps_per_frame is -1"));
    assert_string_equal(g_trace, "");
    check_and_destroy(w);
}

static void a_clock_without_a_wrap_period_does_not_wrap(void **state) {
    ecs_sched_time t;
    (void)state;
    memset(&t, 0, sizeof t);
    t.elapsed_ns = ECS_SCHED_SECONDS(7200);
    assert_int_equal(ecs_sched_time_elapsed_wrapped(&t), ECS_SCHED_SECONDS(7200));
    assert_true(ecs_sched_time_elapsed_seconds_wrapped(&t) == 7200.0);
    t.wrap_period_ns = ECS_SCHED_SECONDS(3600);
    t.elapsed_ns = ECS_SCHED_SECONDS(5400);
    assert_int_equal(ecs_sched_time_elapsed_wrapped(&t), ECS_SCHED_SECONDS(1800));
}

static void a_speed_over_a_billion_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, &(ecs_sched_time_desc){
                                                 .max_delta_ns = ECS_SCHED_MILLISECONDS(100)}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_set_speed(w, 2e9), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "time_set_speed: the relative speed is 2e+09"));
    assert_int_equal(ecs_sched_time_set_speed(w, 1e9), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_advance_by(w, ECS_SCHED_SECONDS(1)), ECS_SCHED_OK);
    assert_int_equal(((const ecs_sched_time *)ecs_sched_resource_get(w, ecs_sched_time_id(w)))->delta_ns,
                     ECS_SCHED_MILLISECONDS(100));   /* the cap from the desc */
    check_and_destroy(w);
}

static void a_repeating_delay_whose_clock_was_removed_is_false(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_condition repeating = ecs_sched_condition_repeating_after_delay(0);
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                         .name = "again", .fn = record, .run_if = {&repeating}}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_trace, "again");
    assert_int_equal(ecs_sched_resource_remove(w, ecs_sched_time_id(w)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_trace, "again");
    check_and_destroy(w);
}

static void the_runner_without_its_fixed_clock_or_time_fails_naming_it(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_system_desc runner = ecs_sched_fixed_main_loop_system();
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_OK);
    trace_in(w, ECS_SCHED_FIXED_MAIN, "step");
    assert_int_equal(ecs_sched_add_system(w, "Frame", &runner), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_advance_by(w, ECS_SCHED_MILLISECONDS(100)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_resource_remove(w, ecs_sched_time_id(w)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, "Frame"), ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_non_null(strstr(ecs_sched_last_error(w), "system 'run_fixed_main_loop' in schedule 'Frame'"));
    assert_non_null(strstr(ecs_sched_last_error(w), "run_fixed_main_loop: resource 'Time' was "
                                                    "removed; the library made it and needs it"));
    assert_null(strstr(ecs_sched_last_error(w), "insert it"));
    assert_int_equal(ecs_sched_resource_remove(w, ecs_sched_time_fixed_id(w)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, "Frame"), ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_non_null(strstr(ecs_sched_last_error(w), "resource 'Time<Fixed>' was removed"));
    assert_string_equal(g_trace, "");
    check_and_destroy(w);
}

static void the_wrap_period_needs_the_real_clock(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_resource_remove(w, ecs_sched_time_real_id(w)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_set_wrap_period(w, 5), ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_non_null(strstr(ecs_sched_last_error(w), "time_set_wrap_period: resource 'Time<Real>'"));
    assert_int_equal(((const ecs_sched_time *)ecs_sched_resource_get(w, ecs_sched_time_id(w)))->wrap_period_ns,
                     ECS_SCHED_SECONDS(3600));
    check_and_destroy(w);
}

static void a_delayed_despawn_refused_at_a_fixed_step_fails_the_runners_run(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_system_desc runner = ecs_sched_fixed_main_loop_system();
    ecs_sched_relation_desc rd;
    ecs_sched_id guards;
    ecs_sched_entity keep = ecs_sched_spawn(w), guard = ecs_sched_spawn(w);
    ecs_sched_commands *cmd;
    (void)state;
    memset(&rd, 0, sizeof rd);
    rd.name = "Guards";
    rd.on_target_despawn = ECS_SCHED_TARGET_REFUSE;
    guards = ecs_sched_relation_register(w, &rd);
    assert_int_equal(ecs_sched_relate(w, guard, guards, keep, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_setup(w, &(ecs_sched_time_desc){
                                                 .fixed_step_ns = ECS_SCHED_MILLISECONDS(10)}),
                     ECS_SCHED_OK);
    trace_in(w, ECS_SCHED_FIXED_MAIN, "step");
    assert_int_equal(ecs_sched_add_system(w, "Frame", &runner), ECS_SCHED_OK);
    cmd = ecs_sched_commands_create(w);
    assert_int_equal(ecs_sched_commands_despawn(ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_FIXED,
                                                                         ECS_SCHED_MILLISECONDS(10)),
                                                keep),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_advance_by(w, ECS_SCHED_MILLISECONDS(35)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, "Frame"), ECS_SCHED_ERR_REFUSED);
    assert_non_null(strstr(ecs_sched_last_error(w), "system 'run_fixed_main_loop' in schedule "
                                                    "'Frame': despawn: entity"));
    assert_non_null(strstr(ecs_sched_last_error(w), "'Guards' refuses the despawn of its targets"));
    assert_string_equal(g_trace, "step step step");
    assert_true(ecs_sched_is_alive(w, keep));
    ecs_sched_commands_destroy(cmd);
    ecs_sched_world_destroy(w);
    g_world = NULL;
}

static void clocks_whose_names_are_taken_are_not_set_up_and_leave_nothing(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id taken;
    (void)state;
    taken = ecs_sched_component_register_type(w, "Time<Fixed>", 4, 4);
    assert_true(taken != 0);
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_ERR_COMPONENT_MISMATCH);
    assert_non_null(strstr(ecs_sched_last_error(w), "Time<Fixed>"));
    assert_int_equal(ecs_sched_time_id(w), 0);
    assert_false(ecs_sched_resource_exists(w, ecs_sched_component_lookup(w, "Time")));
    assert_false(ecs_sched_resource_exists(w, ecs_sched_component_lookup(w, "Time<Real>")));
    assert_false(ecs_sched_resource_exists(w, ecs_sched_component_lookup(w, "Time<Virtual>")));
    check_and_destroy(w);
}

static int64_t g_hook_clock;

static int64_t hook_clock(void *user_data) {
    (void)user_data;
    return g_hook_clock;
}

static void a_clock_reading_with_delayed_commands_waiting_applies_them(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_commands *cmd;
    ecs_sched_entity e;
    (void)state;
    g_hook_clock = 1000;
    assert_int_equal(ecs_sched_time_setup(w, &(ecs_sched_time_desc){.clock = hook_clock}),
                     ECS_SCHED_OK);
    e = ecs_sched_spawn(w);
    cmd = ecs_sched_commands_create(w);
    ecs_sched_commands_despawn(ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL,
                                                        ECS_SCHED_MILLISECONDS(5)), e);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_advance(w), ECS_SCHED_OK);   /* the first reading: no delta */
    g_hook_clock += ECS_SCHED_MILLISECONDS(5);
    assert_int_equal(ecs_sched_time_advance(w), ECS_SCHED_OK);
    assert_false(ecs_sched_is_alive(w, e));
    assert_int_equal(((const ecs_sched_time_real *)ecs_sched_resource_get(w, ecs_sched_time_real_id(w)))
                         ->last_reading_ns,
                     g_hook_clock);
    assert_int_equal(ecs_sched_resource_remove(w, ecs_sched_time_virtual_id(w)), ECS_SCHED_OK);
    g_hook_clock += 10;
    assert_int_equal(ecs_sched_time_advance(w), ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_int_equal(((const ecs_sched_time_real *)ecs_sched_resource_get(w, ecs_sched_time_real_id(w)))
                         ->last_reading_ns,
                     g_hook_clock - 10);   /* a failed advance keeps the last reading */
    ecs_sched_commands_destroy(cmd);
    check_and_destroy(w);
}

static void a_snapshot_without_the_real_clock_restores_the_others(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_snapshot *snap;
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_advance_by(w, 100), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_resource_remove(w, ecs_sched_time_real_id(w)), ECS_SCHED_OK);
    snap = ecs_sched_snapshot_take(w);
    assert_non_null(snap);
    assert_int_equal(ecs_sched_time_set_paused(w, true), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_snapshot_restore(w, snap), ECS_SCHED_OK);
    assert_false(((const ecs_sched_time_virtual *)ecs_sched_resource_get(w, ecs_sched_time_virtual_id(w)))
                     ->paused);
    assert_int_equal(((const ecs_sched_time *)ecs_sched_resource_get(w, ecs_sched_time_id(w)))->elapsed_ns,
                     100);
    assert_false(ecs_sched_resource_exists(w, ecs_sched_time_real_id(w)));
    ecs_sched_snapshot_free(snap);
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(frames_of_a_tenth_of_a_second_take_six_or_seven_steps_summing_exactly),
        cmocka_unit_test(sixty_frames_a_second_alternate_one_and_two_steps_at_64_hz),
        cmocka_unit_test(a_ten_second_frame_advances_the_game_by_the_250_ms_cap),
        cmocka_unit_test(the_cap_on_a_frame_is_a_setting),
        cmocka_unit_test(paused_virtual_time_runs_no_fixed_steps_while_real_time_goes_on),
        cmocka_unit_test(relative_speed_two_runs_twice_as_many_steps),
        cmocka_unit_test(the_cap_applies_after_the_speed),
        cmocka_unit_test(the_cap_clamps_a_fast_frame_and_says_the_speed_it_gave),
        cmocka_unit_test(a_slow_speed_is_not_clamped_by_a_cap_meant_for_real_time),
        cmocka_unit_test(a_ten_second_frame_takes_at_most_the_cap_in_steps_at_any_speed),
        cmocka_unit_test(a_paused_clock_has_an_effective_speed_of_zero),
        cmocka_unit_test(a_clock_that_goes_back_is_warned_about_counted_and_advances_by_zero),
        cmocka_unit_test(every_clock_wraps_its_elapsed_time_at_one_hour_by_default),
        cmocka_unit_test(the_wrap_period_is_set_for_every_clock_and_applies_at_once),
        cmocka_unit_test(a_wrap_period_comes_from_the_time_desc),
        cmocka_unit_test(the_clocks_start_at_zero_and_the_fixed_delta_is_one_step),
        cmocka_unit_test(a_new_fixed_step_shows_as_the_fixed_delta_at_once),
        cmocka_unit_test(a_step_set_inside_fixed_update_shows_after_the_runner_run),
        cmocka_unit_test(the_overstep_fraction_says_how_far_the_present_is_past_the_last_step),
        cmocka_unit_test(discarding_the_overstep_forgets_the_accumulated_time),
        cmocka_unit_test(the_cap_on_steps_per_frame_drops_whole_steps_and_keeps_the_part),
        cmocka_unit_test(a_new_step_keeps_the_overstep_as_time),
        cmocka_unit_test(one_system_reads_the_virtual_clock_in_update_and_the_fixed_clock_in_fixed_update),
        cmocka_unit_test(reading_the_time_without_declaring_it_is_an_access_error),
        cmocka_unit_test(seconds_are_the_nanoseconds_as_doubles),
        cmocka_unit_test(the_default_clock_is_the_monotonic_clock),
        cmocka_unit_test(the_clock_hook_drives_update_and_the_first_update_has_no_delta),
        cmocka_unit_test(the_clocks_work_in_a_world_without_an_app),
        cmocka_unit_test(a_clock_removed_during_the_fixed_loop_fails_the_update_cleanly),
        cmocka_unit_test(a_step_written_during_the_fixed_loop_applies_from_the_next_frame),
        cmocka_unit_test(a_cap_lowered_during_the_fixed_loop_stops_it),
        cmocka_unit_test(the_runner_without_fixed_main_fails_and_takes_no_time),
        cmocka_unit_test(huge_speeds_and_deltas_saturate_instead_of_wrapping),
        cmocka_unit_test(a_clock_with_negative_readings_works),
        cmocka_unit_test(bad_settings_are_refused_and_change_nothing),
        cmocka_unit_test(a_bad_setting_written_by_a_system_fails_the_next_update_before_anything_runs),
        cmocka_unit_test(setting_up_the_clocks_twice_is_refused),
        cmocka_unit_test(a_bad_time_desc_is_refused_with_the_field_named),
        cmocka_unit_test(on_timer_is_true_once_each_time_its_period_elapses),
        cmocka_unit_test(on_timer_gives_one_true_when_several_periods_elapse_in_one_frame),
        cmocka_unit_test(once_after_delay_is_true_exactly_once),
        cmocka_unit_test(repeating_after_delay_is_true_from_the_delay_on),
        cmocka_unit_test(time_paused_follows_the_virtual_clock),
        cmocka_unit_test(each_timer_condition_keeps_its_own_timer),
        cmocka_unit_test(a_timer_condition_in_fixed_update_counts_fixed_steps),
        cmocka_unit_test(time_conditions_are_checked_when_added),
        cmocka_unit_test(a_timer_condition_counts_as_a_read_of_the_time),
        cmocka_unit_test(a_world_without_clocks_has_no_clock_ids_and_reads_the_system_clock),
        cmocka_unit_test(each_clock_setting_in_a_world_without_clocks_names_itself_in_the_error),
        cmocka_unit_test(reading_the_time_in_a_world_without_clocks_fails_the_system),
        cmocka_unit_test(reading_the_time_after_it_was_removed_fails_the_system),
        cmocka_unit_test(a_removed_clock_resource_fails_what_needs_it_by_name),
        cmocka_unit_test(time_conditions_whose_clock_was_removed_are_false),
        cmocka_unit_test(a_named_time_condition_is_named_in_its_errors),
        cmocka_unit_test(a_time_desc_with_a_negative_cap_or_maximum_delta_is_refused),
        cmocka_unit_test(a_maximum_delta_written_as_zero_fails_the_advance),
        cmocka_unit_test(a_negative_cap_written_into_the_fixed_clock_fails_the_runner),
        cmocka_unit_test(a_clock_without_a_wrap_period_does_not_wrap),
        cmocka_unit_test(a_speed_over_a_billion_is_refused),
        cmocka_unit_test(a_repeating_delay_whose_clock_was_removed_is_false),
        cmocka_unit_test(the_runner_without_its_fixed_clock_or_time_fails_naming_it),
        cmocka_unit_test(the_wrap_period_needs_the_real_clock),
        cmocka_unit_test(clocks_whose_names_are_taken_are_not_set_up_and_leave_nothing),
        cmocka_unit_test(a_clock_reading_with_delayed_commands_waiting_applies_them),
        cmocka_unit_test(a_snapshot_without_the_real_clock_restores_the_others),
        cmocka_unit_test(a_delayed_despawn_refused_at_a_fixed_step_fails_the_runners_run),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_app);
}
