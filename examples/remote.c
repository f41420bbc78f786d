/* remote.c - a small game you can look into while it runs: the app serves the remote protocol
   (ECS_SCHED_REMOTE: Bevy's JSON-RPC methods over HTTP) and, at http://127.0.0.1:15702/, the
   explorer page: the entity tree, each entity's components (edit a field and the game sees it
   the next frame), the resources, the schedules with each system's time (step through them
   one system at a time), the game's state machine, and a recorded frame as a timeline.

   A ship with two turrets (each with a barrel) and two asteroids drift; each frame a system
   moves what has a Velocity, and counts the frames in a resource. The game runs until
   interrupted (Ctrl-C), or for the number of frames given:

       ./remote [frames [port [token]]]   frames 0: until interrupted; port 0: a free one
                                          (printed on stderr), default 15702; a token: the
                                          page is then http://127.0.0.1:15702/?token=<token>

   Build and run from the repository root (the header; stb_ds.h from libstb-dev, cJSON from
   libcjson-dev, libmicrohttpd from libmicrohttpd-dev):

       cc -std=c99 -O2 -I. $(pkg-config --cflags stb libmicrohttpd) examples/remote.c \
          $(pkg-config --libs stb libmicrohttpd) -lcjson -lpthread -o remote && ./remote

   then open http://127.0.0.1:15702/ in a browser. */
#define ECS_SCHED_REMOTE
#define ECS_SCHED_TRACE   /* the page's timings, trace and stepping */
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { float x, y; } Position;
typedef struct { float x, y; } Velocity;
typedef struct { int32_t hp, max; } Health;
typedef struct { int64_t frames; } Clock;

static ecs_sched_id position, velocity, health, clock_id;
static volatile sig_atomic_t interrupted;

static void on_interrupt(int signal_number) {
    (void)signal_number;
    interrupted = 1;
}

/* What has a Velocity moves by it, each frame. */
static void move(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        const Velocity *v = ECS_SCHED_FIELD(&it, const Velocity, 1);
        for (int32_t i = 0; i < it.count; i++) {
            p[i].x += v[i].x;
            p[i].y += v[i].y;
        }
    }
}

static void count_frames(ecs_sched_system_ctx *ctx) {
    Clock *clock = (Clock *)ecs_sched_ctx_resource_mut(ctx, clock_id);
    clock->frames++;
}

/* Ctrl-C: the app stops after this frame, and the game cleans up. */
static void stop_when_interrupted(ecs_sched_system_ctx *ctx) {
    if (interrupted) ecs_sched_ctx_request_exit(ctx, 0);
}

static void describe(ecs_sched_world *w) {
    static const ecs_sched_member pos[] = {ECS_SCHED_MEMBER(Position, x, ECS_SCHED_TYPE_F32),
                                           ECS_SCHED_MEMBER(Position, y, ECS_SCHED_TYPE_F32)};
    static const ecs_sched_member vel[] = {ECS_SCHED_MEMBER(Velocity, x, ECS_SCHED_TYPE_F32),
                                           ECS_SCHED_MEMBER(Velocity, y, ECS_SCHED_TYPE_F32)};
    static const ecs_sched_member hp[] = {ECS_SCHED_MEMBER(Health, hp, ECS_SCHED_TYPE_I32),
                                          ECS_SCHED_MEMBER(Health, max, ECS_SCHED_TYPE_I32)};
    static const ecs_sched_member clock[] = {ECS_SCHED_MEMBER(Clock, frames, ECS_SCHED_TYPE_I64)};
    position = ECS_SCHED_COMPONENT(w, Position);
    velocity = ECS_SCHED_COMPONENT(w, Velocity);
    health = ECS_SCHED_COMPONENT(w, Health);
    clock_id = ECS_SCHED_COMPONENT(w, Clock);
    ecs_sched_describe(w, position, 2, pos);
    ecs_sched_describe(w, velocity, 2, vel);
    ecs_sched_describe(w, health, 2, hp);
    ecs_sched_describe(w, clock_id, 1, clock);
}

static ecs_sched_entity thing(ecs_sched_world *w, ecs_sched_entity parent, const char *name,
                              float x, float y) {
    ecs_sched_entity e = ecs_sched_spawn(w);
    Position p = {x, y};
    ecs_sched_insert(w, e, position, &p);
    if (parent) ecs_sched_set_parent(w, e, parent);
    ecs_sched_set_name(w, e, name);
    return e;
}

static void build(ecs_sched_world *w) {
    Velocity drift = {0.5f, 0.25f}, tumble = {-0.125f, 0.0f};
    Health hull = {100, 100}, rock = {30, 30};
    Clock clock = {0};
    ecs_sched_entity ship = thing(w, 0, "ship", 0, 0);
    ecs_sched_entity left = thing(w, ship, "turret_left", -2, 1);
    ecs_sched_entity right = thing(w, ship, "turret_right", 2, 1);
    ecs_sched_entity asteroid;
    thing(w, left, "barrel", 0, 1.5f);
    thing(w, right, "barrel", 0, 1.5f);
    ecs_sched_insert(w, ship, velocity, &drift);
    ecs_sched_insert(w, ship, health, &hull);
    asteroid = thing(w, 0, "asteroid_a", 40, -8);
    ecs_sched_insert(w, asteroid, velocity, &tumble);
    ecs_sched_insert(w, asteroid, health, &rock);
    asteroid = thing(w, 0, "asteroid_b", -30, 12);
    ecs_sched_insert(w, asteroid, health, &rock);
    ecs_sched_resource_insert(w, clock_id, &clock);
}

int main(int argc, char **argv) {
    int64_t frames = argc > 1 ? atoll(argv[1]) : 0;
    int32_t port = argc > 2 ? atoi(argv[2]) : ECS_SCHED_REMOTE_PORT;
    ecs_sched_app *app = ecs_sched_app_create(NULL);
    ecs_sched_world *w = ecs_sched_app_world(app);
    ecs_sched_remote_desc remote_desc = {.port = port ? port : ECS_SCHED_REMOTE_ANY_PORT,
                                         .token = argc > 3 ? argv[3] : NULL};
    ecs_sched_remote *remote;
    ecs_sched_result r;
    char path[64];

    describe(w);
    build(w);
    ecs_sched_state_register(w, &(ecs_sched_state_desc){.name = "Weather",
                                                         .values = {"calm", "storm"}});
    ecs_sched_stats_enable(w, true);   /* each system timed: the page's Schedules tab */
    ecs_sched_add_system(w, ECS_SCHED_UPDATE, &(ecs_sched_system_desc){
        .name = "move", .fn = move,
        .queries = {{{ecs_sched_write(position), ecs_sched_read(velocity)}}}});
    ecs_sched_add_system(w, ECS_SCHED_UPDATE, &(ecs_sched_system_desc){
        .name = "count_frames", .fn = count_frames, .writes = {clock_id}});
    ecs_sched_add_system(w, ECS_SCHED_LAST, &(ecs_sched_system_desc){
        .name = "stop_when_interrupted", .fn = stop_when_interrupted,
        .writes = {ecs_sched_app_exit_id(w)}});

    remote = ecs_sched_app_add_remote(app, &remote_desc);
    if (!remote) {
        fprintf(stderr, "remote: %s\n", ecs_sched_last_error(w));
        ecs_sched_app_destroy(app);
        return 1;
    }
    /* on stderr: the port may be any free one, and stdout is the same on every run */
    fprintf(stderr, "explorer: http://127.0.0.1:%d/\n", (int)ecs_sched_remote_port(remote));
    signal(SIGINT, on_interrupt);
    signal(SIGTERM, on_interrupt);

    r = ecs_sched_app_run(app, &(ecs_sched_app_run_desc){.frame_ns = ECS_SCHED_HZ(30),
                                                        .max_frames = frames}, NULL);
    if (r != ECS_SCHED_OK) fprintf(stderr, "remote: %s\n", ecs_sched_last_error(w));

    ecs_sched_path(w, ecs_sched_lookup_path(w, 0, "ship.turret_left.barrel", NULL), "/", path,
                   (int32_t)sizeof path);
    printf("%s and %d other entities\n", path, (int)ecs_sched_entity_count(w) - 1);
    ecs_sched_remote_destroy(remote);
    ecs_sched_app_destroy(app);
    return r == ECS_SCHED_OK ? 0 : 1;
}
