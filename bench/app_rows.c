/* App rows: an update of an app whose default schedules are empty, a fixed step, and a frame
   of the game loop example. Included by bench.c after schedule_rows.c, whose helpers it uses. */

#include "game_loop_row.h"

/* Schedule runs in one update of 1/64 s: Main, its seven labels, then one fixed step:
   FixedMain and its five labels. */
#define APP_RUNS_PER_UPDATE 14

static ecs_sched_app *quiet_app(void) {
    ecs_sched_app_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.world.executor = ECS_SCHED_EXECUTOR_SINGLE_THREADED;
    desc.world.logger.fn = quiet_log;
    return ecs_sched_app_create(&desc);
}

typedef struct app_updates {
    ecs_sched_app *app;
    int64_t delta_ns;
} app_updates;

static int run_app_updates(bench_row *row, void *state, int32_t reps) {
    const app_updates *u = (const app_updates *)state;
    int failures = 0;   /* results ORed together, as in run_schedule_frames */
    int32_t r;
    for (r = 0; r < reps; r++) failures |= (int)ecs_sched_app_update_by(u->app, u->delta_ns);
    if (failures) {
        fail(row, "app_update", ecs_sched_app_world(u->app));
        return 0;
    }
    return 1;
}

/* `count` runs of empty schedules by label, one after the other, `repeat` times a rep. */
typedef struct empty_runs {
    ecs_sched_world *world;
    int32_t count, repeat;
} empty_runs;

static const char *const empty_labels[APP_RUNS_PER_UPDATE] = {
    "E0", "E1", "E2", "E3", "E4", "E5", "E6", "E7", "E8", "E9", "E10", "E11", "E12", "E13"};

static int run_empty_schedules(bench_row *row, void *state, int32_t reps) {
    const empty_runs *e = (const empty_runs *)state;
    int failures = 0;
    int32_t r, k, i;
    for (r = 0; r < reps; r++) {
        for (k = 0; k < e->repeat; k++) {
            for (i = 0; i < e->count; i++) {
                failures |= (int)ecs_sched_run_schedule(e->world, empty_labels[i]);
            }
        }
    }
    if (failures) {
        fail(row, "run_schedule", e->world);
        return 0;
    }
    return 1;
}

static int make_empty_schedules(ecs_sched_world *w, int32_t count) {
    int32_t i;
    for (i = 0; i < count; i++) {
        if (ecs_sched_schedule_configure(w, empty_labels[i], NULL) != ECS_SCHED_OK ||
            ecs_sched_run_schedule(w, empty_labels[i]) != ECS_SCHED_OK) {
            return 0;
        }
    }
    return 1;
}

/* ---- app_update_empty ---- */

static void run_app_update_empty(bench_row *row) {
    static const int32_t reps = 20000;
    app_updates u;
    empty_runs e;
    bench_sampling s = sampling(reps, 1.0);
    bench_medians m;
    u.app = quiet_app();
    u.delta_ns = ECS_SCHED_HZ(64);
    e.world = quiet_world();
    e.count = APP_RUNS_PER_UPDATE;
    e.repeat = 1;
    if (!u.app || !e.world) { fail(row, "creation", NULL); goto done; }
    if (!make_empty_schedules(e.world, e.count) || !run_app_updates(row, &u, 2)) {
        fail(row, "setup", e.world);
        goto done;
    }
    s.baseline = looped(run_empty_schedules, &e);
    s.measured = looped(run_app_updates, &u);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d updates a sample, each of 1/64 s: clocks advanced, Main and its 7 "
                     "labels, one fixed step (FixedMain and its 5 labels), all empty but the "
                     "app's own systems; baseline: %d runs of empty schedules by label",
                (int)reps, APP_RUNS_PER_UPDATE);
    }
done:
    if (u.app) ecs_sched_app_destroy(u.app);
    if (e.world) ecs_sched_world_destroy(e.world);
}

/* ---- fixed_step ---- */

static void run_fixed_step(bench_row *row) {
    static const int32_t steps = 1000, reps = 200;
    app_updates u;
    empty_runs e;
    bench_sampling s = sampling(reps, (double)steps);
    bench_medians m;
    u.app = quiet_app();
    u.delta_ns = steps * ECS_SCHED_HZ(64);
    e.world = quiet_world();
    e.count = 1;
    e.repeat = steps;
    if (!u.app || !e.world) { fail(row, "creation", NULL); goto done; }
    if (ecs_sched_time_set_max_delta(ecs_sched_app_world(u.app), u.delta_ns) != ECS_SCHED_OK ||
        !make_empty_schedules(e.world, 1) || !run_app_updates(row, &u, 2)) {
        fail(row, "setup", e.world);
        goto done;
    }
    s.baseline = looped(run_empty_schedules, &e);
    s.measured = looped(run_app_updates, &u);
    if (sample_row(row, &s, &m)) {
        appendf(row, "updates of %d steps each (the frame cap raised to allow them), fixed "
                     "schedules empty: FixedMain and its 5 labels per step, the update's own "
                     "cost spread over the steps; baseline: one empty schedule run",
                (int)steps);
    }
done:
    if (u.app) ecs_sched_app_destroy(u.app);
    if (e.world) ecs_sched_world_destroy(e.world);
}

/* ---- game_loop_frame ---- */

static int run_game_frames(bench_row *row, void *state, int32_t reps) {
    game_loop_bench *b = (game_loop_bench *)state;
    int32_t r;
    for (r = 0; r < reps; r++) {
        if (!game_loop_bench_frame(b)) {
            fail(row, "a game loop frame", NULL);
            return 0;
        }
    }
    return 1;
}

static int run_game_by_hand(bench_row *row, void *state, int32_t reps) {
    game_loop_bench *b = (game_loop_bench *)state;
    int32_t r;
    (void)row;
    for (r = 0; r < reps; r++) game_loop_bench_by_hand(b);
    return 1;
}

static void run_game_loop_frame(bench_row *row) {
    static const int32_t reps = 200;
    game_loop_bench *b = game_loop_bench_create(10000);
    bench_sampling s = sampling(reps, 1000.0);
    bench_medians m;
    if (!b) { fail(row, "the game loop's setup", NULL); return; }
    s.baseline = looped(run_game_by_hand, b);
    s.measured = looped(run_game_frames, b);
    if (sample_row(row, &s, &m)) {
        appendf(row, "examples/game_loop.c with 10 000 crates, playing, frames of 1/64 s (one "
                     "fixed step each), single-threaded executor, %d frames a sample; "
                     "baseline: what each of the example's systems does (fall, move, land, "
                     "ball_out, blend, report's sums; printing silenced on both sides), by "
                     "hand over the same queries on the same world, in the app's order",
                (int)reps);
    }
    game_loop_bench_destroy(b);
}
