/* game_loop_row.c: the world of examples/game_loop.c, timed by bench.c's game_loop_frame row.
   The example is included whole, with a private copy of the library (ECS_SCHED_STATIC), its
   main renamed and its printing silenced, so the row times exactly the example's systems. */
#include <stdio.h>
#include <stdlib.h>

static int game_loop_quiet_printf(const char *format, ...) {
    (void)format;
    return 0;
}

#define ECS_SCHED_STATIC
#define main game_loop_example_main
#define printf game_loop_quiet_printf
#include "../examples/game_loop.c"
#undef printf
#undef main

#include "game_loop_row.h"

struct game_loop_bench {
    ecs_sched_app *app;
    Game game;
    ecs_sched_query *falling, *moving, *landing, *drawing, *balls;
    ecs_sched_query *ball_positions, *drawn_balls, *drawn_crates;
};

static ecs_sched_query *query_of(ecs_sched_world *w, ecs_sched_term a, ecs_sched_term b,
                                 ecs_sched_term c) {
    ecs_sched_query_desc d;
    memset(&d, 0, sizeof d);
    d.terms[0] = a;
    d.terms[1] = b;
    d.terms[2] = c;
    return ecs_sched_query_create(w, &d);
}

static void remove_the_ball(ecs_sched_world *w, ecs_sched_query *balls) {
    ecs_sched_entity found[4];
    int n = 0, i;
    ecs_sched_iter it = ecs_sched_query_iter(balls);
    while (ecs_sched_iter_next(&it)) {
        for (i = 0; i < it.count && n < 4; i++) found[n++] = it.entities[i];
    }
    for (i = 0; i < n; i++) ecs_sched_despawn(w, found[i]);
}

game_loop_bench *game_loop_bench_create(int crates) {
    game_loop_bench *b = (game_loop_bench *)calloc(1, sizeof *b);
    ecs_sched_world *w;
    Game *g;
    ecs_sched_app_desc desc;
    memset(&desc, 0, sizeof desc);
    /* not a row about threads: the single-threaded executor, as the by-hand frame */
    desc.world.executor = ECS_SCHED_EXECUTOR_SINGLE_THREADED;
    if (!b) return NULL;
    b->app = ecs_sched_app_create(&desc);
    if (!b->app || setup_game(b->app, &b->game, crates) != ECS_SCHED_OK) {
        game_loop_bench_destroy(b);
        return NULL;
    }
    w = ecs_sched_app_world(b->app);
    g = &b->game;
    b->falling = query_of(w, ecs_sched_write(g->velocity), (ecs_sched_term){0}, (ecs_sched_term){0});
    b->moving = query_of(w, ecs_sched_write(g->position), ecs_sched_write(g->previous),
                         ecs_sched_read(g->velocity));
    b->landing = query_of(w, ecs_sched_write(g->position), ecs_sched_write(g->velocity),
                          ecs_sched_read(g->crate));
    b->drawing = query_of(w, ecs_sched_write(g->drawn), ecs_sched_read(g->position),
                          ecs_sched_read(g->previous));
    b->balls = query_of(w, ecs_sched_read(g->ball), (ecs_sched_term){0}, (ecs_sched_term){0});
    b->ball_positions = query_of(w, ecs_sched_read(g->position), ecs_sched_read(g->ball),
                                 (ecs_sched_term){0});
    b->drawn_balls = query_of(w, ecs_sched_read(g->drawn), ecs_sched_read(g->ball),
                              (ecs_sched_term){0});
    b->drawn_crates = query_of(w, ecs_sched_read(g->drawn), ecs_sched_read(g->crate),
                               (ecs_sched_term){0});
    if (!b->falling || !b->moving || !b->landing || !b->drawing || !b->balls ||
        !b->ball_positions || !b->drawn_balls || !b->drawn_crates) {
        game_loop_bench_destroy(b);
        return NULL;
    }
    remove_the_ball(w, b->balls);
    g->frame = 100;                  /* past the script of key presses */
    if (ecs_sched_state_set(w, g->app_state, PLAYING) != ECS_SCHED_OK ||
        !game_loop_bench_frame(b)) {
        game_loop_bench_destroy(b);
        return NULL;
    }
    return b;
}

int game_loop_bench_frame(game_loop_bench *b) {
    return ecs_sched_app_update_by(b->app, ECS_SCHED_HZ(64)) == ECS_SCHED_OK;
}

/* What report does, but the printing (silenced in both). */
static void report_by_hand(game_loop_bench *b, const ecs_sched_time_fixed *fixed) {
    Drawn ball = {0.0f, 0.0f};
    float crates = 0.0f;
    int count = 0, i;
    ecs_sched_iter it = ecs_sched_query_iter(b->drawn_balls);
    while (ecs_sched_iter_next(&it)) ball = ECS_SCHED_FIELD(&it, const Drawn, 0)[0];
    it = ecs_sched_query_iter(b->drawn_crates);
    while (ecs_sched_iter_next(&it)) {
        const Drawn *d = ECS_SCHED_FIELD(&it, const Drawn, 0);
        for (i = 0; i < it.count; i++, count++) crates += d[i].y;
    }
    game_loop_quiet_printf("%d %d %f %f %f", b->game.frame, (int)fixed->steps_this_frame,
                           ball.x, ball.y, count ? crates / (float)count : 0.0f);
}

/* What ball_out looks at (the ball was removed, as in the app's world). */
static void ball_out_by_hand(game_loop_bench *b) {
    ecs_sched_iter it = ecs_sched_query_iter(b->ball_positions);
    while (ecs_sched_iter_next(&it)) {
        if (ECS_SCHED_FIELD(&it, const Position, 0)[0].y < 0.0f) b->game.frame = -1;
    }
}

/* On a 64-byte boundary: where the example's code before it ends (it grows as the example
   does) must not move the baseline. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((aligned(64)))
#endif
void game_loop_bench_by_hand(game_loop_bench *b) {
    const float dt = (float)ECS_SCHED_HZ(64) / 1e9f;
    ecs_sched_world *w = ecs_sched_app_world(b->app);
    const ecs_sched_time_fixed *fixed =
        (const ecs_sched_time_fixed *)ecs_sched_resource_get(w, b->game.fixed_time);
    ecs_sched_iter it;
    b->game.frame++;   /* next_frame; read_input does nothing past its script */
    it = ecs_sched_query_iter(b->falling);
    while (ecs_sched_iter_next(&it)) fall(ECS_SCHED_FIELD(&it, Velocity, 0), it.count, dt);
    it = ecs_sched_query_iter(b->moving);
    while (ecs_sched_iter_next(&it)) {
        move(ECS_SCHED_FIELD(&it, Position, 0), ECS_SCHED_FIELD(&it, Previous, 1),
             ECS_SCHED_FIELD(&it, const Velocity, 2), it.count, dt);
    }
    it = ecs_sched_query_iter(b->landing);
    while (ecs_sched_iter_next(&it)) {
        land(ECS_SCHED_FIELD(&it, Position, 0), ECS_SCHED_FIELD(&it, Velocity, 1), it.count);
    }
    ball_out_by_hand(b);
    it = ecs_sched_query_iter(b->drawing);
    while (ecs_sched_iter_next(&it)) {
        blend(ECS_SCHED_FIELD(&it, Drawn, 0), ECS_SCHED_FIELD(&it, const Position, 1),
              ECS_SCHED_FIELD(&it, const Previous, 2), it.count, (float)fixed->overstep_fraction);
    }
    report_by_hand(b, fixed);
}

void game_loop_bench_destroy(game_loop_bench *b) {
    if (!b) return;
    if (b->falling) ecs_sched_query_destroy(b->falling);
    if (b->moving) ecs_sched_query_destroy(b->moving);
    if (b->landing) ecs_sched_query_destroy(b->landing);
    if (b->drawing) ecs_sched_query_destroy(b->drawing);
    if (b->balls) ecs_sched_query_destroy(b->balls);
    if (b->ball_positions) ecs_sched_query_destroy(b->ball_positions);
    if (b->drawn_balls) ecs_sched_query_destroy(b->drawn_balls);
    if (b->drawn_crates) ecs_sched_query_destroy(b->drawn_crates);
    ecs_sched_app_destroy(b->app);
    free(b);
}
