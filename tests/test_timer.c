/* Timers and stopwatches: plain values a system ticks with the clock's delta. The first nine
   tests are Bevy's timer tests (bevy_time's timer.rs) in this library's terms; the rest pin
   what those leave open. Durations are integer nanoseconds, so elapsed times compare exactly;
   fractions are quotients of integers, so they equal the nearest double exactly too. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define MS(n) ECS_SCHED_MILLISECONDS(n)
#define S(n) ECS_SCHED_SECONDS(n)

static void a_once_timer_stops_at_its_duration_and_ignores_ticks_while_paused(void **state) {
    ecs_sched_timer t = ecs_sched_timer_make(S(10), ECS_SCHED_TIMER_ONCE);
    (void)state;
    ecs_sched_timer_tick(&t, MS(250));
    assert_int_equal(t.elapsed_ns, MS(250));
    assert_true(ecs_sched_timer_elapsed_seconds(&t) == 0.25);
    assert_int_equal(t.duration_ns, S(10));
    assert_false(t.finished);
    assert_false(ecs_sched_timer_just_finished(&t));
    assert_int_equal(t.times_finished, 0);
    assert_int_equal(t.mode, ECS_SCHED_TIMER_ONCE);
    assert_true(ecs_sched_timer_fraction(&t) == 0.025);
    assert_true(ecs_sched_timer_fraction_remaining(&t) == 0.975);
    /* ticking while paused changes nothing */
    t.paused = true;
    ecs_sched_timer_tick(&t, S(500));
    assert_int_equal(t.elapsed_ns, MS(250));
    assert_false(t.finished);
    assert_false(ecs_sched_timer_just_finished(&t));
    assert_int_equal(t.times_finished, 0);
    assert_true(ecs_sched_timer_fraction(&t) == 0.025);
    /* past the end: elapsed stops at the duration */
    t.paused = false;
    assert_int_equal(ecs_sched_timer_tick(&t, S(500)), 1);
    assert_int_equal(t.elapsed_ns, S(10));
    assert_true(t.finished);
    assert_true(ecs_sched_timer_just_finished(&t));
    assert_int_equal(t.times_finished, 1);
    assert_true(ecs_sched_timer_fraction(&t) == 1.0);
    assert_true(ecs_sched_timer_fraction_remaining(&t) == 0.0);
    /* ticking on only turns just_finished off */
    assert_int_equal(ecs_sched_timer_tick(&t, S(1)), 0);
    assert_int_equal(t.elapsed_ns, S(10));
    assert_true(t.finished);
    assert_false(ecs_sched_timer_just_finished(&t));
    assert_int_equal(t.times_finished, 0);
    assert_true(ecs_sched_timer_fraction(&t) == 1.0);
}

static void a_repeating_timer_wraps_and_is_finished_only_in_the_tick_it_wraps(void **state) {
    ecs_sched_timer t = ecs_sched_timer_make(S(2), ECS_SCHED_TIMER_REPEATING);
    (void)state;
    ecs_sched_timer_tick(&t, MS(750));
    assert_int_equal(t.elapsed_ns, MS(750));
    assert_false(t.finished);
    assert_false(ecs_sched_timer_just_finished(&t));
    assert_int_equal(t.times_finished, 0);
    assert_int_equal(t.mode, ECS_SCHED_TIMER_REPEATING);
    assert_true(ecs_sched_timer_fraction(&t) == 0.375);
    assert_true(ecs_sched_timer_fraction_remaining(&t) == 0.625);
    ecs_sched_timer_tick(&t, MS(1500));
    assert_int_equal(t.elapsed_ns, MS(250));
    assert_true(t.finished);
    assert_true(ecs_sched_timer_just_finished(&t));
    assert_int_equal(t.times_finished, 1);
    assert_true(ecs_sched_timer_fraction(&t) == 0.125);
    assert_true(ecs_sched_timer_fraction_remaining(&t) == 0.875);
    ecs_sched_timer_tick(&t, S(1));
    assert_int_equal(t.elapsed_ns, MS(1250));
    assert_false(t.finished);
    assert_false(ecs_sched_timer_just_finished(&t));
    assert_int_equal(t.times_finished, 0);
    assert_true(ecs_sched_timer_fraction(&t) == 0.625);
    assert_true(ecs_sched_timer_fraction_remaining(&t) == 0.375);
}

static void a_repeating_timer_counts_every_period_of_a_long_tick(void **state) {
    ecs_sched_timer t = ecs_sched_timer_make(S(1), ECS_SCHED_TIMER_REPEATING);
    (void)state;
    assert_int_equal(t.times_finished, 0);
    assert_int_equal(ecs_sched_timer_tick(&t, MS(3500)), 3);
    assert_int_equal(t.times_finished, 3);
    assert_int_equal(t.elapsed_ns, MS(500));
    assert_true(t.finished);
    assert_true(ecs_sched_timer_just_finished(&t));
    ecs_sched_timer_tick(&t, MS(200));
    assert_int_equal(t.times_finished, 0);
    assert_int_equal(ecs_sched_timer_tick(&t, S(10)), 10);   /* the 10 s tick */
}

static void a_once_timer_finishes_once(void **state) {
    ecs_sched_timer t = ecs_sched_timer_make(S(1), ECS_SCHED_TIMER_ONCE);
    (void)state;
    assert_int_equal(t.times_finished, 0);
    ecs_sched_timer_tick(&t, MS(1500));
    assert_int_equal(t.times_finished, 1);
    ecs_sched_timer_tick(&t, MS(500));
    assert_int_equal(t.times_finished, 0);
}

static void a_repeating_timer_of_duration_zero_finishes_without_bound(void **state) {
    ecs_sched_timer t = ecs_sched_timer_make(0, ECS_SCHED_TIMER_REPEATING);
    (void)state;
    assert_int_equal(t.times_finished, 0);
    assert_int_equal(t.elapsed_ns, 0);
    assert_true(ecs_sched_timer_fraction(&t) == 1.0);
    ecs_sched_timer_tick(&t, S(1));
    assert_int_equal(t.times_finished, UINT32_MAX);
    assert_int_equal(t.elapsed_ns, 0);
    assert_true(ecs_sched_timer_fraction(&t) == 1.0);
    ecs_sched_timer_tick(&t, S(2));
    assert_int_equal(t.times_finished, UINT32_MAX);
    assert_int_equal(t.elapsed_ns, 0);
    ecs_sched_timer_reset(&t);
    assert_int_equal(t.times_finished, 0);
    assert_int_equal(t.elapsed_ns, 0);
    assert_true(ecs_sched_timer_fraction(&t) == 1.0);
}

static void a_repeating_timer_keeps_the_remainder_so_that_no_period_is_lost(void **state) {
    ecs_sched_timer t = ecs_sched_timer_make(MS(10), ECS_SCHED_TIMER_REPEATING);
    (void)state;
    ecs_sched_timer_tick(&t, MS(333));   /* 0.333 s in all: 33 periods */
    assert_int_equal(t.times_finished, 33);
    ecs_sched_timer_tick(&t, MS(333));   /* 0.666 */
    assert_int_equal(t.times_finished, 33);
    ecs_sched_timer_tick(&t, MS(333));   /* 0.999 */
    assert_int_equal(t.times_finished, 33);
    ecs_sched_timer_tick(&t, MS(333));   /* 1.332: 133 periods in all */
    assert_int_equal(t.times_finished, 34);
}

static void an_almost_finished_repeating_timer_finishes_at_the_next_nanosecond(void **state) {
    ecs_sched_timer t = ecs_sched_timer_make(S(10), ECS_SCHED_TIMER_REPEATING);
    (void)state;
    ecs_sched_timer_almost_finish(&t);
    assert_false(t.finished);
    assert_int_equal(t.times_finished, 0);
    assert_int_equal(ecs_sched_timer_remaining(&t), 1);
    ecs_sched_timer_tick(&t, 1);
    assert_true(t.finished);
    assert_int_equal(t.times_finished, 1);
}

static void a_paused_once_timer_forgets_that_it_just_finished(void **state) {
    ecs_sched_timer t = ecs_sched_timer_make(S(10), ECS_SCHED_TIMER_ONCE);
    (void)state;
    ecs_sched_timer_tick(&t, S(10));
    assert_true(ecs_sched_timer_just_finished(&t));
    assert_true(t.finished);
    t.paused = true;
    ecs_sched_timer_tick(&t, S(5));
    assert_false(ecs_sched_timer_just_finished(&t));
    assert_true(t.finished);
}

static void a_paused_repeating_timer_is_not_finished_after_a_tick(void **state) {
    ecs_sched_timer t = ecs_sched_timer_make(S(10), ECS_SCHED_TIMER_REPEATING);
    (void)state;
    ecs_sched_timer_tick(&t, S(10));
    assert_true(ecs_sched_timer_just_finished(&t));
    assert_true(t.finished);
    t.paused = true;
    ecs_sched_timer_tick(&t, S(5));
    assert_false(ecs_sched_timer_just_finished(&t));
    assert_false(t.finished);
}

/* ---- beyond Bevy's tests ---- */

static void finish_completes_a_timer_in_one_call(void **state) {
    ecs_sched_timer t = ecs_sched_timer_make(S(3), ECS_SCHED_TIMER_ONCE);
    (void)state;
    ecs_sched_timer_tick(&t, S(1));
    ecs_sched_timer_finish(&t);
    assert_true(t.finished);
    assert_int_equal(t.times_finished, 1);
    assert_int_equal(t.elapsed_ns, S(3));
    assert_int_equal(ecs_sched_timer_remaining(&t), 0);
    assert_true(ecs_sched_timer_remaining_seconds(&t) == 0.0);
}

static void reset_starts_over_and_keeps_the_pause_and_the_mode(void **state) {
    ecs_sched_timer t = ecs_sched_timer_make(S(1), ECS_SCHED_TIMER_ONCE);
    (void)state;
    ecs_sched_timer_tick(&t, MS(1500));
    t.paused = true;
    ecs_sched_timer_reset(&t);
    assert_false(t.finished);
    assert_false(ecs_sched_timer_just_finished(&t));
    assert_int_equal(t.elapsed_ns, 0);
    assert_true(t.paused);
    assert_int_equal(t.mode, ECS_SCHED_TIMER_ONCE);
}

static void a_finished_once_timer_made_repeating_starts_over(void **state) {
    ecs_sched_timer t = ecs_sched_timer_make(S(1), ECS_SCHED_TIMER_ONCE);
    (void)state;
    ecs_sched_timer_tick(&t, MS(1500));
    ecs_sched_timer_tick(&t, MS(100));           /* finished, not just */
    ecs_sched_timer_set_mode(&t, ECS_SCHED_TIMER_REPEATING);
    assert_int_equal(t.elapsed_ns, 0);
    assert_false(t.finished);
    assert_int_equal(ecs_sched_timer_tick(&t, MS(2500)), 2);
    assert_int_equal(t.elapsed_ns, MS(500));
}

static void an_elapsed_time_set_past_the_duration_finishes_at_the_next_tick(void **state) {
    ecs_sched_timer t = ecs_sched_timer_make(S(1), ECS_SCHED_TIMER_ONCE);
    (void)state;
    t.elapsed_ns = S(2);                         /* Bevy's set_elapsed: nothing else changes */
    assert_false(t.finished);
    assert_int_equal(ecs_sched_timer_tick(&t, 0), 1);
    assert_int_equal(t.elapsed_ns, S(1));
}

static void a_timer_saturates_instead_of_wrapping_and_ignores_negative_deltas(void **state) {
    ecs_sched_timer t = ecs_sched_timer_make(INT64_MAX, ECS_SCHED_TIMER_ONCE);
    (void)state;
    ecs_sched_timer_tick(&t, -S(5));
    assert_int_equal(t.elapsed_ns, 0);
    ecs_sched_timer_tick(&t, INT64_MAX - 1);
    ecs_sched_timer_tick(&t, INT64_MAX);
    assert_true(t.elapsed_ns == INT64_MAX);
    assert_true(t.finished);
}

static void a_stopwatch_counts_what_it_is_ticked_with_unless_paused(void **state) {
    ecs_sched_stopwatch s = {0};
    (void)state;
    ecs_sched_stopwatch_tick(&s, MS(1500));
    assert_int_equal(s.elapsed_ns, MS(1500));
    assert_true(ecs_sched_stopwatch_elapsed_seconds(&s) == 1.5);
    s.paused = true;
    ecs_sched_stopwatch_tick(&s, S(1));
    assert_int_equal(s.elapsed_ns, MS(1500));
    s.paused = false;
    ecs_sched_stopwatch_tick(&s, -1);
    assert_int_equal(s.elapsed_ns, MS(1500));
    ecs_sched_stopwatch_tick(&s, INT64_MAX);
    assert_true(s.elapsed_ns == INT64_MAX);
    s.paused = true;
    ecs_sched_stopwatch_reset(&s);
    assert_int_equal(s.elapsed_ns, 0);
    assert_true(s.paused);
}

/* ---- a timer in a component, ticked by a system with the clock's delta ---- */

typedef struct Cooldown {
    ecs_sched_timer timer;
    int shots;
} Cooldown;

static void tick_cooldowns(ecs_sched_system_ctx *ctx) {
    const ecs_sched_time *now = ecs_sched_ctx_time(ctx);
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        Cooldown *c = ECS_SCHED_FIELD(&it, Cooldown, 0);
        int32_t i;
        for (i = 0; i < it.count; i++) {
            c[i].shots += (int)ecs_sched_timer_tick(&c[i].timer, now->delta_ns);
        }
    }
}

static void a_system_ticks_timers_in_components_with_the_time_it_reads(void **state) {
    ecs_sched_app_desc desc;
    ecs_sched_app *app;
    ecs_sched_world *w;
    ecs_sched_id cooldown;
    ecs_sched_entity gun;
    Cooldown start;
    int frame;
    (void)state;
    memset(&desc, 0, sizeof desc);
    app = ecs_sched_app_create(&desc);
    assert_non_null(app);
    w = ecs_sched_app_world(app);
    cooldown = ECS_SCHED_COMPONENT(w, Cooldown);
    start.timer = ecs_sched_timer_make(MS(300), ECS_SCHED_TIMER_REPEATING);
    start.shots = 0;
    gun = ecs_sched_spawn_with(w, 1, &cooldown, (const void *[]){&start});
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_UPDATE,
                                          &(ecs_sched_system_desc){
                                              .name = "tick_cooldowns",
                                              .fn = tick_cooldowns,
                                              .reads = {ecs_sched_time_id(w)},
                                              .queries = {{{ecs_sched_write(cooldown)}}}}),
                     ECS_SCHED_OK);
    for (frame = 0; frame < 10; frame++) {
        assert_int_equal(ecs_sched_app_update_by(app, MS(100)), ECS_SCHED_OK);
    }
    /* the first update has a delta like the others here (update_by): 1 s in all */
    assert_int_equal(((const Cooldown *)ecs_sched_get(w, gun, cooldown))->shots, 3);
    assert_int_equal(((const Cooldown *)ecs_sched_get(w, gun, cooldown))->timer.elapsed_ns,
                     MS(100));
    ecs_sched_app_destroy(app);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_once_timer_stops_at_its_duration_and_ignores_ticks_while_paused),
        cmocka_unit_test(a_repeating_timer_wraps_and_is_finished_only_in_the_tick_it_wraps),
        cmocka_unit_test(a_repeating_timer_counts_every_period_of_a_long_tick),
        cmocka_unit_test(a_once_timer_finishes_once),
        cmocka_unit_test(a_repeating_timer_of_duration_zero_finishes_without_bound),
        cmocka_unit_test(a_repeating_timer_keeps_the_remainder_so_that_no_period_is_lost),
        cmocka_unit_test(an_almost_finished_repeating_timer_finishes_at_the_next_nanosecond),
        cmocka_unit_test(a_paused_once_timer_forgets_that_it_just_finished),
        cmocka_unit_test(a_paused_repeating_timer_is_not_finished_after_a_tick),
        cmocka_unit_test(finish_completes_a_timer_in_one_call),
        cmocka_unit_test(reset_starts_over_and_keeps_the_pause_and_the_mode),
        cmocka_unit_test(a_finished_once_timer_made_repeating_starts_over),
        cmocka_unit_test(an_elapsed_time_set_past_the_duration_finishes_at_the_next_tick),
        cmocka_unit_test(a_timer_saturates_instead_of_wrapping_and_ignores_negative_deltas),
        cmocka_unit_test(a_stopwatch_counts_what_it_is_ticked_with_unless_paused),
        cmocka_unit_test(a_system_ticks_timers_in_components_with_the_time_it_reads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
