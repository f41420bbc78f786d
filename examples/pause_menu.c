/* pause_menu.c - a game's states, frame by frame: a menu, playing, a pause menu pushed over
   the running game and popped again, and game over.

   Each frame runs the schedule "Frame": first the apply system (state transitions), then the
   systems of the current state. A director system queues the next state at set frames, as
   key presses would. The level's enemies are state-scoped: spawned when Playing is entered,
   they go when Playing is exited, and survive the pause, which only covers Playing.

   Build and run from the repository root (the header, and stb_ds.h from libstb-dev):

       cc -std=c99 -O2 -I. $(pkg-config --cflags stb) examples/pause_menu.c \
          $(pkg-config --libs stb) -o pause_menu && ./pause_menu */
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdio.h>
#include <string.h>

enum { MENU, PLAYING, PAUSED, GAME_OVER };

typedef struct { int32_t number; } Frame;   /* a resource: the frame being run */
typedef struct { float x; } Enemy;

typedef struct Game {
    ecs_sched_world *world;
    ecs_sched_id state, next, frame, enemy, scope;
} Game;

static Game game;

/* Prints what ran: the system's name and the frame. */
static void say(ecs_sched_system_ctx *ctx) {
    const Frame *frame = (const Frame *)ecs_sched_ctx_resource(ctx, game.frame);
    printf("  frame %2d  %s\n", frame ? (int)frame->number : -1, ecs_sched_ctx_name(ctx));
}

/* OnEnter(Playing): the level's enemies, despawned when Playing is exited. */
static void spawn_enemies(ecs_sched_system_ctx *ctx) {
    ecs_sched_commands *cmd = ecs_sched_ctx_commands(ctx);
    ecs_sched_state_scoped scope = ecs_sched_despawn_on_exit(PLAYING);
    int i;
    say(ctx);
    for (i = 0; i < 3; i++) {
        Enemy enemy;
        ecs_sched_entity e = ecs_sched_commands_spawn(cmd);
        enemy.x = (float)(10 * i);
        ecs_sched_commands_insert(cmd, e, game.enemy, &enemy);
        ecs_sched_commands_insert(cmd, e, game.scope, &scope);
    }
}

/* Playing: the enemies advance. */
static void advance(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    int32_t count = 0, i;
    while (ecs_sched_iter_next(&it)) {
        Enemy *enemy = ECS_SCHED_FIELD(&it, Enemy, 0);
        for (i = 0; i < it.count; i++) enemy[i].x -= 1.0f;
        count += it.count;
    }
    printf("  frame %2d  advance: %d enemies\n",
           (int)((const Frame *)ecs_sched_ctx_resource(ctx, game.frame))->number, (int)count);
}

/* What the player does, frame by frame. */
static void director(ecs_sched_system_ctx *ctx) {
    int32_t frame = ((const Frame *)ecs_sched_ctx_resource(ctx, game.frame))->number;
    switch (frame) {
    case 1: ecs_sched_ctx_state_set(ctx, game.state, PLAYING); break;     /* start */
    case 3: ecs_sched_ctx_state_push(ctx, game.state, PAUSED); break;     /* escape */
    case 5: ecs_sched_ctx_state_pop(ctx, game.state); break;              /* resume */
    case 7: ecs_sched_ctx_state_set(ctx, game.state, GAME_OVER); break;   /* lost */
    default: break;
    }
}

static int add(const char *schedule, ecs_sched_system_desc desc) {
    return schedule && ecs_sched_add_system(game.world, schedule, &desc) == ECS_SCHED_OK;
}

static int setup(void) {
    ecs_sched_world *w = game.world;
    ecs_sched_system_desc apply = ecs_sched_state_transitions_system(0);
    Frame zero = {0};
    int ok = 1;
    game.state = ecs_sched_state_register(w, &(ecs_sched_state_desc){
        .name = "GameState", .values = {"Menu", "Playing", "Paused", "GameOver"}});
    game.next = ecs_sched_state_next_id(w, game.state);
    game.scope = ecs_sched_state_scope_id(w, game.state);
    game.frame = ECS_SCHED_COMPONENT(w, Frame);
    game.enemy = ECS_SCHED_COMPONENT(w, Enemy);
    if (!game.state || !game.frame || !game.enemy ||
        ecs_sched_resource_insert(w, game.frame, &zero) != ECS_SCHED_OK) {
        return 0;
    }
    apply.before[0] = "director";
    ok &= add("Frame", apply);
    ok &= add("Frame", (ecs_sched_system_desc){.name = "director", .fn = director,
                                               .reads = {game.frame, game.state},
                                               .writes = {game.next}});
    ok &= add("Frame", (ecs_sched_system_desc){
        .name = "advance", .fn = advance, .reads = {game.frame}, .after = {"director"},
        .queries = {{{ecs_sched_write(game.enemy)}}},
        .run_if = {ECS_SCHED_COND(ecs_sched_condition_in_state(game.state, PLAYING))}});
    ok &= add("Frame", (ecs_sched_system_desc){
        .name = "draw_pause_menu", .fn = say, .reads = {game.frame}, .after = {"director"},
        .run_if = {ECS_SCHED_COND(ecs_sched_condition_in_state(game.state, PAUSED))}});
    ok &= add(ecs_sched_on_enter(w, game.state, MENU),
              (ecs_sched_system_desc){.name = "OnEnter(Menu): show title", .fn = say,
                                      .reads = {game.frame}});
    ok &= add(ecs_sched_on_exit(w, game.state, MENU),
              (ecs_sched_system_desc){.name = "OnExit(Menu): hide title", .fn = say,
                                      .reads = {game.frame}});
    ok &= add(ecs_sched_on_enter(w, game.state, PLAYING),
              (ecs_sched_system_desc){.name = "OnEnter(Playing): spawn enemies",
                                      .fn = spawn_enemies, .reads = {game.frame},
                                      .commands = true});
    ok &= add(ecs_sched_on_pause(w, game.state, PLAYING),
              (ecs_sched_system_desc){.name = "OnPause(Playing): mute music", .fn = say,
                                      .reads = {game.frame}});
    ok &= add(ecs_sched_on_enter(w, game.state, PAUSED),
              (ecs_sched_system_desc){.name = "OnEnter(Paused): open pause menu", .fn = say,
                                      .reads = {game.frame}});
    ok &= add(ecs_sched_on_exit(w, game.state, PAUSED),
              (ecs_sched_system_desc){.name = "OnExit(Paused): close pause menu", .fn = say,
                                      .reads = {game.frame}});
    ok &= add(ecs_sched_on_resume(w, game.state, PLAYING),
              (ecs_sched_system_desc){.name = "OnResume(Playing): music back", .fn = say,
                                      .reads = {game.frame}});
    ok &= add(ecs_sched_on_exit(w, game.state, PLAYING),
              (ecs_sched_system_desc){.name = "OnExit(Playing): level ends", .fn = say,
                                      .reads = {game.frame}});
    ok &= add(ecs_sched_on_enter(w, game.state, GAME_OVER),
              (ecs_sched_system_desc){.name = "OnEnter(GameOver): show score", .fn = say,
                                      .reads = {game.frame}});
    return ok;
}

int main(void) {
    int32_t f;
    int failed = 0;
    game.world = ecs_sched_world_create(NULL);
    if (!game.world || !setup()) {
        printf("setup failed: %s\n", game.world ? ecs_sched_last_error(game.world) : "no world");
        return 1;
    }
    for (f = 0; f < 9; f++) {
        int32_t state;
        ((Frame *)ecs_sched_resource_get_mut(game.world, game.frame))->number = f;
        if (ecs_sched_run_schedule(game.world, "Frame") != ECS_SCHED_OK) {
            printf("frame %d failed: %s\n", (int)f, ecs_sched_last_error(game.world));
            failed = 1;
            break;
        }
        state = ecs_sched_state_get(game.world, game.state);
        printf("after frame %d: %s (covering %d), %d entities\n", (int)f,
               ecs_sched_state_value_name(game.world, game.state, state),
               (int)ecs_sched_state_depth(game.world, game.state),
               (int)ecs_sched_entity_count(game.world));
    }
    if (!failed && (ecs_sched_state_get(game.world, game.state) != GAME_OVER ||
                    ecs_sched_entity_count(game.world) != 0)) {
        printf("the game did not end as scripted\n");
        failed = 1;
    }
    ecs_sched_world_destroy(game.world);
    return failed;
}
