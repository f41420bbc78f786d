/* game_loop.c - a game loop with ecs_sched.h: an app, states, physics on a fixed step, and a
   plugin whose set the game orders against.

   A ball is thrown up from a table and a few crates drop on the ground. The game goes
   Menu -> Playing, is paused for a while (Paused is pushed over Playing, then popped), and is
   over when the ball falls below the floor. It runs headless and deterministic: each frame takes
   7 to 40 ms (drawn from a fixed seed), so the number of fixed steps per frame varies, and the
   output is the same on every machine.

     physics_plugin   exports set "physics" in FixedUpdate: apply_gravity, then integrate
                      (64 steps a second, whatever the frame rate), running only while Playing
     game_plugin      needs physics_plugin. First: next_frame. OnEnter/OnExit(Paused): stop
                      and start the virtual clock. Update: read_input (a script of keys), an
                      apply_state_transitions right after it (so a pause stops the clock
                      before the next frame's time), and interpolate (where to draw each body:
                      between its last two fixed states, by Time<Fixed>'s overstep
                      fraction). FixedUpdate: ball_out, after
                      "physics", queues GameOver when the ball falls, and an
                      apply_state_transitions right after applies it at that very step.
                      Last: report, one line per frame. OnEnter(GameOver): request exit.

   Build and run from the repository root (the header and stb_ds.h from libstb-dev):

       cc -std=c99 -O2 -I. $(pkg-config --cflags stb) examples/game_loop.c \
          $(pkg-config --libs stb) -o game_loop && ./game_loop

   Built with -DECS_SCHED_TRACE and run with ECS_SCHED_TRACE=build/trace.json in the
   environment, it traces the frames after the first and writes them there as Chrome
   trace-event JSON (`make trace` does that, and draws them as build/trace.svg).
*/
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdio.h>
#include <stdlib.h>

#define GRAVITY (-9.8f)
#define CRATES 3

typedef struct { float x, y; } Position;
typedef struct { float x, y; } Velocity;
typedef struct { float x, y; } Previous;     /* the position before the last fixed step */
typedef struct { float x, y; } Drawn;        /* where the body is drawn this frame */

enum { MENU, PLAYING, PAUSED, GAME_OVER };  /* AppState */

/* The ids every system needs, reached through its user_data. */
typedef struct Game {
    ecs_sched_id position, velocity, previous, drawn, ball, crate;   /* ball, crate: tags */
    ecs_sched_id app_state, time, virtual_time, fixed_time, exit;
    int frame;
} Game;

static Game *game_of(ecs_sched_system_ctx *ctx) {
    return (Game *)ecs_sched_ctx_user_data(ctx);
}

/* ---- the physics plugin ---- */

/* The kernels are plain functions over arrays, so that they can be timed without the
   scheduler too (bench/game_loop_row.c does). */
static void fall(Velocity *v, int count, float dt) {
    int i;
    for (i = 0; i < count; i++) v[i].y += GRAVITY * dt;
}

static void move(Position *p, Previous *before, const Velocity *v, int count, float dt) {
    int i;
    for (i = 0; i < count; i++) {
        before[i].x = p[i].x;
        before[i].y = p[i].y;
        p[i].x += v[i].x * dt;
        p[i].y += v[i].y * dt;
    }
}

static void land(Position *p, Velocity *v, int count) {
    int i;
    for (i = 0; i < count; i++) {
        if (p[i].y < 0.0f) {
            p[i].y = 0.0f;
            v[i].x = v[i].y = 0.0f;
        }
    }
}

static void apply_gravity(ecs_sched_system_ctx *ctx) {
    float dt = (float)ecs_sched_ctx_time(ctx)->delta_seconds;   /* the fixed step */
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) fall(ECS_SCHED_FIELD(&it, Velocity, 0), it.count, dt);
}

static void integrate(ecs_sched_system_ctx *ctx) {
    float dt = (float)ecs_sched_ctx_time(ctx)->delta_seconds;
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        move(ECS_SCHED_FIELD(&it, Position, 0), ECS_SCHED_FIELD(&it, Previous, 1),
             ECS_SCHED_FIELD(&it, const Velocity, 2), it.count, dt);
    }
}

static void stop_on_ground(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        land(ECS_SCHED_FIELD(&it, Position, 0), ECS_SCHED_FIELD(&it, Velocity, 1), it.count);
    }
}

static ecs_sched_result build_physics(ecs_sched_app *app, void *user_data) {
    Game *g = (Game *)user_data;
    ecs_sched_world *w = ecs_sched_app_world(app);
    ecs_sched_system_desc systems[] = {
        {.name = "apply_gravity", .fn = apply_gravity, .user_data = g, .reads = {g->time},
         .queries = {{{ecs_sched_write(g->velocity)}}}},
        {.name = "integrate", .fn = integrate, .user_data = g, .reads = {g->time},
         .queries = {{{ecs_sched_write(g->position), ecs_sched_write(g->previous),
                       ecs_sched_read(g->velocity)}}}},
        {.name = "stop_on_ground", .fn = stop_on_ground, .user_data = g,
         .queries = {{{ecs_sched_write(g->position), ecs_sched_write(g->velocity),
                       ecs_sched_read(g->crate)}}}},
    };
    /* the set is the plugin's public face; the game decides when it runs */
    return ecs_sched_add_systems(w, ECS_SCHED_FIXED_UPDATE, &(ecs_sched_systems_desc){
        .systems = systems, .count = 3, .chain = true, .in_set = {"physics"}});
}

/* ---- the game plugin ---- */

static void next_frame(ecs_sched_system_ctx *ctx) {
    game_of(ctx)->frame++;
}

/* Frame 3: start; frames 30 to 39: paused. */
static void read_input(ecs_sched_system_ctx *ctx) {
    Game *g = game_of(ctx);
    if (g->frame == 3) ecs_sched_ctx_state_set(ctx, g->app_state, PLAYING);
    if (g->frame == 30) ecs_sched_ctx_state_push(ctx, g->app_state, PAUSED);
    if (g->frame == 40) ecs_sched_ctx_state_pop(ctx, g->app_state);
}

static void ball_out(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);   /* the ball */
    while (ecs_sched_iter_next(&it)) {
        if (ECS_SCHED_FIELD(&it, const Position, 0)[0].y < 0.0f) {
            ecs_sched_ctx_state_set(ctx, game_of(ctx)->app_state, GAME_OVER);
        }
    }
}

static void blend(Drawn *out, const Position *p, const Previous *before, int count, float alpha) {
    int i;
    for (i = 0; i < count; i++) {
        out[i].x = before[i].x + (p[i].x - before[i].x) * alpha;
        out[i].y = before[i].y + (p[i].y - before[i].y) * alpha;
    }
}

static void interpolate(ecs_sched_system_ctx *ctx) {
    Game *g = game_of(ctx);
    const ecs_sched_time_fixed *fixed =
        (const ecs_sched_time_fixed *)ecs_sched_ctx_resource(ctx, g->fixed_time);
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        blend(ECS_SCHED_FIELD(&it, Drawn, 0), ECS_SCHED_FIELD(&it, const Position, 1),
              ECS_SCHED_FIELD(&it, const Previous, 2), it.count,
              (float)fixed->overstep_fraction);
    }
}

static void report(ecs_sched_system_ctx *ctx) {
    static const char *const names[] = {"Menu", "Playing", "Paused", "GameOver"};
    Game *g = game_of(ctx);
    const ecs_sched_time *t = ecs_sched_ctx_time(ctx);
    const ecs_sched_time_fixed *fixed =
        (const ecs_sched_time_fixed *)ecs_sched_ctx_resource(ctx, g->fixed_time);
    Drawn ball = {0.0f, 0.0f};
    float crates = 0.0f;
    int count = 0;
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);   /* the ball */
    while (ecs_sched_iter_next(&it)) ball = ECS_SCHED_FIELD(&it, const Drawn, 0)[0];
    it = ecs_sched_ctx_iter(ctx, 1);                  /* the crates */
    while (ecs_sched_iter_next(&it)) {
        const Drawn *d = ECS_SCHED_FIELD(&it, const Drawn, 0);
        int i;
        for (i = 0; i < it.count; i++, count++) crates += d[i].y;
    }
    printf("frame %2d  dt %2d ms  steps %d  %-8s  ball (%5.2f, %5.2f)  crates at %5.2f\n",
           g->frame, (int)(t->delta_ns / 1000000), (int)fixed->steps_this_frame,
           names[ecs_sched_ctx_state(ctx, g->app_state)], ball.x, ball.y,
           count ? crates / (float)count : 0.0f);
}

/* While the game is paused its clock stands still: no fixed steps, nothing to interpolate. */
static void set_clock_paused(ecs_sched_system_ctx *ctx, bool paused) {
    ecs_sched_time_virtual *clock = (ecs_sched_time_virtual *)ecs_sched_ctx_resource_mut(
        ctx, game_of(ctx)->virtual_time);
    clock->paused = paused;
}

static void stop_clock(ecs_sched_system_ctx *ctx) {
    set_clock_paused(ctx, true);
}

static void start_clock(ecs_sched_system_ctx *ctx) {
    set_clock_paused(ctx, false);
}

static void game_over(ecs_sched_system_ctx *ctx) {
    printf("game over at frame %d\n", game_of(ctx)->frame);
    ecs_sched_ctx_request_exit(ctx, 0);
}

/* A system and the schedule it goes in. */
typedef struct placed_system {
    const char *schedule;
    ecs_sched_system_desc desc;
} placed_system;

/* Adds each system to its schedule; stops at the first that fails. */
static ecs_sched_result add_placed(ecs_sched_world *w, const placed_system *list, int count) {
    int i;
    for (i = 0; i < count; i++) {
        ecs_sched_result r = ecs_sched_add_system(w, list[i].schedule, &list[i].desc);
        if (r != ECS_SCHED_OK) return r;
    }
    return ECS_SCHED_OK;
}

static ecs_sched_result build_game(ecs_sched_app *app, void *user_data) {
    Game *g = (Game *)user_data;
    ecs_sched_world *w = ecs_sched_app_world(app);
    ecs_sched_id next = ecs_sched_state_next_id(w, g->app_state);
    ecs_sched_condition playing = ecs_sched_condition_in_state(g->app_state, PLAYING);
    ecs_sched_system_desc apply_at_step = ecs_sched_state_transitions_system(g->app_state);
    ecs_sched_system_desc apply_at_input = ecs_sched_state_transitions_system(g->app_state);
    ecs_sched_result r;
    apply_at_step.after[0] = "ball_out";     /* game over at the very step the ball fell */
    /* A pause has to act before the next frame's time is taken: an update advances the
       clocks first, so a clock stopped in that frame's StateTransition would let the frame's
       time through (fixed steps with the physics gated off, and the drawn bodies sliding back
       as the overstep fraction moves on). So the key's transition is applied right where the
       key is read, and the picture freezes from the next frame on. */
    apply_at_input.after[0] = "read_input";
    {
        const placed_system systems[] = {
            {ECS_SCHED_FIRST, {.name = "next_frame", .fn = next_frame, .user_data = g}},
            {ECS_SCHED_UPDATE, {.name = "read_input", .fn = read_input, .user_data = g,
                                .writes = {next}}},
            {ECS_SCHED_UPDATE, apply_at_input},
            {ECS_SCHED_UPDATE, {.name = "interpolate", .fn = interpolate, .user_data = g,
                                .reads = {g->fixed_time},
                                .after = {"apply_state_transitions"},
                                .queries = {{{ecs_sched_write(g->drawn),
                                              ecs_sched_read(g->position),
                                              ecs_sched_read(g->previous)}}}}},
            {ECS_SCHED_FIXED_UPDATE, {.name = "ball_out", .fn = ball_out, .user_data = g,
                                      .after = {"physics"}, .reads = {g->app_state},
                                      .writes = {next},
                                      .queries = {{{ecs_sched_read(g->position),
                                                    ecs_sched_read(g->ball)}}}}},
            {ECS_SCHED_FIXED_UPDATE, apply_at_step},
            {ECS_SCHED_LAST, {.name = "report", .fn = report, .user_data = g,
                              .reads = {g->time, g->fixed_time, g->app_state},
                              .queries = {{{ecs_sched_read(g->drawn), ecs_sched_read(g->ball)}},
                                          {{ecs_sched_read(g->drawn),
                                            ecs_sched_read(g->crate)}}}}},
            {ecs_sched_on_enter(w, g->app_state, PAUSED),
             {.name = "stop_clock", .fn = stop_clock, .user_data = g,
              .writes = {g->virtual_time}}},
            {ecs_sched_on_exit(w, g->app_state, PAUSED),
             {.name = "start_clock", .fn = start_clock, .user_data = g,
              .writes = {g->virtual_time}}},
            {ecs_sched_on_enter(w, g->app_state, GAME_OVER),
             {.name = "game_over", .fn = game_over, .user_data = g, .writes = {g->exit}}},
        };
        /* the game orders itself against the plugin's public set, and gates it */
        r = ecs_sched_configure_set(w, ECS_SCHED_FIXED_UPDATE, &(ecs_sched_set_desc){
            .name = "physics", .run_if = {&playing}});
        if (r != ECS_SCHED_OK) return r;
        return add_placed(w, systems, (int)(sizeof systems / sizeof systems[0]));
    }
}

/* ---- the world ---- */

static void spawn_body(ecs_sched_world *w, const Game *g, Position p, Velocity v,
                       ecs_sched_id kind) {
    Previous before = {p.x, p.y};
    Drawn drawn = {p.x, p.y};
    ecs_sched_entity e = ecs_sched_spawn(w);
    ecs_sched_insert(w, e, g->position, &p);
    ecs_sched_insert(w, e, g->velocity, &v);
    ecs_sched_insert(w, e, g->previous, &before);
    ecs_sched_insert(w, e, g->drawn, &drawn);
    ecs_sched_insert(w, e, kind, NULL);
}

/* Registers what the game uses, spawns the ball and `crates` crates, adds the plugins. */
static ecs_sched_result setup_game(ecs_sched_app *app, Game *g, int crates) {
    ecs_sched_plugin physics_plugin = {.name = "physics", .build = build_physics,
                                       .user_data = g,
                                       .exports = {{ECS_SCHED_FIXED_UPDATE, "physics"}}};
    ecs_sched_plugin game_plugin = {.name = "game", .build = build_game, .user_data = g,
                                    .needs = {&physics_plugin}};
    ecs_sched_world *w = ecs_sched_app_world(app);
    int i;
    g->position = ECS_SCHED_COMPONENT(w, Position);
    g->velocity = ECS_SCHED_COMPONENT(w, Velocity);
    g->previous = ECS_SCHED_COMPONENT(w, Previous);
    g->drawn = ECS_SCHED_COMPONENT(w, Drawn);
    g->ball = ECS_SCHED_TAG(w, Ball);
    g->crate = ECS_SCHED_TAG(w, Crate);
    g->app_state = ecs_sched_state_register(w, &(ecs_sched_state_desc){
        .name = "AppState", .values = {"Menu", "Playing", "Paused", "GameOver"}});
    g->time = ecs_sched_time_id(w);
    g->virtual_time = ecs_sched_time_virtual_id(w);
    g->fixed_time = ecs_sched_time_fixed_id(w);
    g->exit = ecs_sched_app_exit_id(w);
    g->frame = 0;
    spawn_body(w, g, (Position){0.0f, 1.0f}, (Velocity){1.5f, 4.0f}, g->ball);
    for (i = 0; i < crates; i++) {
        spawn_body(w, g, (Position){(float)(i % 100), 2.0f + (float)(i % 7)},
                   (Velocity){0.0f, 0.0f}, g->crate);
    }
    return ecs_sched_app_add_plugin(app, &game_plugin);   /* adds physics_plugin first */
}

/* A frame time of 7 to 40 ms from a small deterministic generator. */
static int64_t next_frame_time(uint32_t *seed) {
    *seed = *seed * 1664525u + 1013904223u;
    return ECS_SCHED_MILLISECONDS(7 + (*seed >> 16) % 34);
}

/* ECS_SCHED_TRACE=file: the app's next 8 frames are traced, and written to the file when the
   last of them ends. */
static ecs_sched_result trace_if_asked(ecs_sched_world *w) {
    const char *path = getenv("ECS_SCHED_TRACE");
#ifdef ECS_SCHED_TRACE
    ecs_sched_trace_desc t;
    if (!path || !*path) return ECS_SCHED_OK;
    memset(&t, 0, sizeof t);
    t.frames = 8;
    t.path = path;
    return ecs_sched_trace_start(w, &t);
#else
    (void)w;
    if (path && *path) fprintf(stderr, "game_loop: built without -DECS_SCHED_TRACE: no trace\n");
    return ECS_SCHED_OK;
#endif
}

int main(void) {
    ecs_sched_app *app = ecs_sched_app_create(NULL);
    ecs_sched_world *w = ecs_sched_app_world(app);
    Game game;
    uint32_t seed = 2024;
    ecs_sched_result r = setup_game(app, &game, CRATES);
    /* the first frame runs the startup schedules and builds every schedule: traced after it */
    if (r == ECS_SCHED_OK) r = ecs_sched_app_update_by(app, next_frame_time(&seed));
    if (r == ECS_SCHED_OK) r = trace_if_asked(w);
    while (r == ECS_SCHED_OK && !ecs_sched_app_exit_requested(app, NULL)) {
        r = ecs_sched_app_update_by(app, next_frame_time(&seed));
    }
    if (r != ECS_SCHED_OK) fprintf(stderr, "game_loop: %s\n", ecs_sched_last_error(w));
    ecs_sched_app_destroy(app);
    return r == ECS_SCHED_OK ? 0 : 1;
}
