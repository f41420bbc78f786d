/* physics_plugin.c - the physics plugin from Bevy's scheduling RFC, written with ecs_sched.h.

   Two plugins fill one schedule, "Main":

     input_plugin     set "input": read_input (frame counter, the pause key)
     physics_plugin   set FixedAfterInput, after "input", holding three sets in a row:
                        ComputeForces     gravity, then integrate
                        DetectCollisions  broad_pass -> narrow_pass -> solve_constraints
                        HandleCollisions  collision_damage

   and main() adds count_bodies, a read-only HUD system. A ball and a crate fall for six
   frames; the crate lands in frame 2, the game is paused in frame 3, the ball lands hard in
   frame 4 and is wrecked, and gravity is switched off before frame 6. What it shows:

     - sets inside sets, ordered with before/after and ecs_sched_chain_sets, and a chain of
       systems added in one call with their shared configuration (in_set);
     - run conditions: FixedAfterInput runs only while the Paused resource equals {false}
       (built-in resource_equals), gravity only while a Gravity resource exists
       (resource_exists);
     - systems that declare their queries and resources, so the build can check them: no
       conflicting pair is left unordered, except count_bodies, whose conflict with the
       physics is harmless and declared so with ambiguous_with;
     - commands: narrow_pass records a Contact component for each body that went through the
       ground, and because it is chained before solve_constraints the build puts an automatic
       sync point between them, so solve_constraints sees the contacts in the same frame;
       collision_damage despawns wrecked bodies, applied by the final flush of the run.

   It prints the plan (ecs_sched_schedule_order), then, frame by frame, what the systems did
   and the order they ran in. With --dot DIR it also writes DIR/Main.dot, the schedule as a
   Graphviz graph (tools/graph.sh builds this program and renders the graph as SVG).

   Build and run from the repository root (the header and stb_ds.h from libstb-dev):

       cc -std=c99 -O2 -I. $(pkg-config --cflags stb) examples/physics_plugin.c \
          $(pkg-config --libs stb) -o physics_plugin && ./physics_plugin [--dot DIR]
*/
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdio.h>
#include <string.h>

#define SCHEDULE "Main"
#define DT 0.25f                /* one fixed step per frame, in seconds */
#define MAX_CANDIDATES 16

typedef struct { float x, y; } Position;
typedef struct { float x, y; } Velocity;
typedef struct { int hp; } Health;
typedef struct { const char *text; } Name;
typedef struct { float depth, speed; } Contact;   /* inserted by narrow_pass, for one frame */

typedef struct { int frame; } Input;               /* resources */
typedef struct { bool on; } Paused;
typedef struct { float y; } Gravity;
typedef struct { int32_t count; ecs_sched_entity entity[MAX_CANDIDATES]; } Candidates;

/* What every system gets as its user_data: the ids it needs, and the line that records which
   systems ran. The trace lives outside the world only for this printout; the single-threaded
   executor runs one system at a time. */
typedef struct Game {
    ecs_sched_id position, velocity, health, name, contact;
    ecs_sched_id input, paused, gravity, candidates;
    char trace[512];
} Game;

static Game *game_of(ecs_sched_system_ctx *ctx) {
    return (Game *)ecs_sched_ctx_user_data(ctx);
}

static void trace(ecs_sched_system_ctx *ctx) {
    Game *g = game_of(ctx);
    size_t n = strlen(g->trace);
    snprintf(g->trace + n, sizeof g->trace - n, " %s", ecs_sched_ctx_name(ctx));
}

/* ---- input plugin ---- */

/* Counts frames and plays a script: the pause key is held during frame 3. */
static void read_input(ecs_sched_system_ctx *ctx) {
    Game *g = game_of(ctx);
    Input *input = ecs_sched_ctx_resource_mut(ctx, g->input);
    Paused *paused = ecs_sched_ctx_resource_mut(ctx, g->paused);
    trace(ctx);
    input->frame++;
    bool pause = input->frame == 3;
    if (pause != paused->on) printf("  read_input: %s\n", pause ? "pause" : "resume");
    paused->on = pause;
}

/* A plugin adds its sets and systems; it returns false when the world refused any of them
   (the world's last error says why). */
static bool input_plugin(ecs_sched_world *w, Game *g) {
    return ecs_sched_add_system(w, SCHEDULE, &(ecs_sched_system_desc){
        .name = "read_input", .fn = read_input, .user_data = g,
        .writes = {g->input, g->paused},
        .in_set = {"input"}}) == ECS_SCHED_OK;
}

/* ---- physics plugin ---- */

static void gravity(ecs_sched_system_ctx *ctx) {
    Game *g = game_of(ctx);
    const Gravity *pull = ecs_sched_ctx_resource(ctx, g->gravity);
    trace(ctx);
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        Velocity *v = ECS_SCHED_FIELD(&it, Velocity, 0);
        for (int32_t i = 0; i < it.count; i++) v[i].y += pull->y * DT;
    }
}

static void integrate(ecs_sched_system_ctx *ctx) {
    trace(ctx);
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        const Velocity *v = ECS_SCHED_FIELD(&it, const Velocity, 1);
        for (int32_t i = 0; i < it.count; i++) {
            p[i].x += v[i].x * DT;
            p[i].y += v[i].y * DT;
        }
    }
}

/* The cheap test: bodies less than one unit above the ground may touch it. */
static void broad_pass(ecs_sched_system_ctx *ctx) {
    Game *g = game_of(ctx);
    Candidates *near = ecs_sched_ctx_resource_mut(ctx, g->candidates);
    trace(ctx);
    near->count = 0;
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
        for (int32_t i = 0; i < it.count; i++) {
            if (p[i].y < 1.0f && near->count < MAX_CANDIDATES)
                near->entity[near->count++] = it.entities[i];
        }
    }
}

static bool is_candidate(const Candidates *near, ecs_sched_entity e) {
    for (int32_t i = 0; i < near->count; i++) {
        if (near->entity[i] == e) return true;
    }
    return false;
}

/* The exact test, on the candidates only: a body below the ground gets a Contact. Adding a
   component changes the body's table, so it is recorded as a command. */
static void narrow_pass(ecs_sched_system_ctx *ctx) {
    Game *g = game_of(ctx);
    const Candidates *near = ecs_sched_ctx_resource(ctx, g->candidates);
    ecs_sched_commands *cmd = ecs_sched_ctx_commands(ctx);
    trace(ctx);
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
        const Velocity *v = ECS_SCHED_FIELD(&it, const Velocity, 1);
        const Name *name = ECS_SCHED_FIELD(&it, const Name, 2);
        for (int32_t i = 0; i < it.count; i++) {
            if (!is_candidate(near, it.entities[i]) || p[i].y >= 0.0f) continue;
            Contact contact = {-p[i].y, -v[i].y};
            ecs_sched_commands_insert(cmd, it.entities[i], g->contact, &contact);
            printf("  narrow_pass: %s hits the ground at speed %.2f\n", name[i].text,
                   contact.speed);
        }
    }
}

/* Runs after the sync point that applied narrow_pass's commands: the contacts are there. */
static void solve_constraints(ecs_sched_system_ctx *ctx) {
    trace(ctx);
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        Velocity *v = ECS_SCHED_FIELD(&it, Velocity, 1);
        const Contact *c = ECS_SCHED_FIELD(&it, const Contact, 2);
        const Name *name = ECS_SCHED_FIELD(&it, const Name, 3);
        for (int32_t i = 0; i < it.count; i++) {
            p[i].y += c[i].depth;
            v[i].y = 0.0f;
            printf("  solve_constraints: %s pushed back up by %.2f\n", name[i].text, c[i].depth);
        }
    }
}

/* Hard landings cost health; a body without health left is despawned. The contacts are
   removed again. Both are commands, applied by the final flush of the run. */
static void collision_damage(ecs_sched_system_ctx *ctx) {
    Game *g = game_of(ctx);
    ecs_sched_commands *cmd = ecs_sched_ctx_commands(ctx);
    trace(ctx);
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        const Contact *c = ECS_SCHED_FIELD(&it, const Contact, 0);
        Health *h = ECS_SCHED_FIELD(&it, Health, 1);
        const Name *name = ECS_SCHED_FIELD(&it, const Name, 2);
        for (int32_t i = 0; i < it.count; i++) {
            int damage = (int)c[i].speed - 3;
            ecs_sched_commands_remove(cmd, it.entities[i], g->contact);
            if (damage <= 0) continue;
            h[i].hp -= damage;
            printf("  collision_damage: %s loses %d hp, %d left%s\n", name[i].text, damage,
                   h[i].hp, h[i].hp <= 0 ? ": despawn it" : "");
            if (h[i].hp <= 0) ecs_sched_commands_despawn(cmd, it.entities[i]);
        }
    }
}

/* The plugin: sets, their order and conditions, and the systems in them. Everything is
   reached by name, so the order of these calls does not matter, and a user of the plugin can
   order their own systems against "FixedAfterInput" or any of the inner sets. */
static bool physics_plugin(ecs_sched_world *w, Game *g) {
    static const char *const steps[] = {"ComputeForces", "DetectCollisions", "HandleCollisions"};
    Paused running = {false};
    int failed = 0;

    failed |= ecs_sched_configure_set(w, SCHEDULE, &(ecs_sched_set_desc){
        .name = "FixedAfterInput",
        .after = {"input"},
        /* run_if takes conditions by address; ECS_SCHED_COND gives one made by an expression an
           address. The condition is copied, so `running` may go out of scope */
        .run_if = {ECS_SCHED_COND(ecs_sched_condition_resource_equals(g->paused, &running,
                                                                      sizeof running))}});
    for (int i = 0; i < 3; i++) {
        failed |= ecs_sched_configure_set(w, SCHEDULE, &(ecs_sched_set_desc){
            .name = steps[i], .in_set = {"FixedAfterInput"}});
    }
    failed |= ecs_sched_chain_sets(w, SCHEDULE, 3, steps, false);

    failed |= ecs_sched_add_system(w, SCHEDULE, &(ecs_sched_system_desc){
        .name = "gravity", .fn = gravity, .user_data = g,
        .queries = {{{ecs_sched_write(g->velocity)}}},
        .reads = {g->gravity},
        .in_set = {"ComputeForces"},
        .run_if = {ECS_SCHED_COND(ecs_sched_condition_resource_exists(g->gravity))}});
    failed |= ecs_sched_add_system(w, SCHEDULE, &(ecs_sched_system_desc){
        .name = "integrate", .fn = integrate, .user_data = g,
        .queries = {{{ecs_sched_write(g->position), ecs_sched_read(g->velocity)}}},
        .in_set = {"ComputeForces"}, .after = {"gravity"}});

    failed |= ecs_sched_add_systems(w, SCHEDULE, &(ecs_sched_systems_desc){
        .systems = (ecs_sched_system_desc[]){
            {.name = "broad_pass", .fn = broad_pass, .user_data = g,
             .queries = {{{ecs_sched_read(g->position)}}},
             .writes = {g->candidates}},
            {.name = "narrow_pass", .fn = narrow_pass, .user_data = g,
             .queries = {{{ecs_sched_read(g->position), ecs_sched_read(g->velocity),
                           ecs_sched_read(g->name)}}},
             .reads = {g->candidates},
             .commands = true},
            {.name = "solve_constraints", .fn = solve_constraints, .user_data = g,
             .queries = {{{ecs_sched_write(g->position), ecs_sched_write(g->velocity),
                           ecs_sched_read(g->contact), ecs_sched_read(g->name)}}}},
        },
        .count = 3,
        .chain = true,
        .in_set = {"DetectCollisions"}});

    failed |= ecs_sched_add_system(w, SCHEDULE, &(ecs_sched_system_desc){
        .name = "collision_damage", .fn = collision_damage, .user_data = g,
        .queries = {{{ecs_sched_read(g->contact), ecs_sched_write(g->health),
                      ecs_sched_read(g->name)}}},
        .commands = true,
        .in_set = {"HandleCollisions"}});
    return !failed;
}

/* ---- the game ---- */

/* Counts the bodies. It reads Position, which the physics writes, and nothing orders the two,
   so the build would report the pair as ambiguous. The count does not depend on the order
   (bodies only come and go when commands are applied), so say so instead of ordering it. */
static void count_bodies(ecs_sched_system_ctx *ctx) {
    trace(ctx);
    printf("  count_bodies: %d\n", (int)ecs_sched_query_count(ecs_sched_ctx_query(ctx, 0)));
}

static void print_log(ecs_sched_log_level level, ecs_sched_result result, const char *message, void *user_data) {
    (void)result;
    (void)user_data;
    if (level >= ECS_SCHED_LOG_WARN) printf("  log: %s\n", message);
}

static void write_to_file(const char *text, void *user_data) {
    fputs(text, (FILE *)user_data);
}

static int write_dot(ecs_sched_world *w, const char *dir, const char *schedule) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.dot", dir, schedule);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", path);
        return 0;
    }
    ecs_sched_result r = ecs_sched_schedule_write_dot(w, schedule, write_to_file, f);
    if (fclose(f) != 0 || r != ECS_SCHED_OK) {
        fprintf(stderr, "writing %s failed: %s\n", path,
                r != ECS_SCHED_OK ? ecs_sched_last_error(w) : "write error");
        return 0;
    }
    printf("wrote %s\n", path);
    return 1;
}

static bool spawn_body(ecs_sched_world *w, const Game *g, const char *name, Position p,
                       Velocity v, int hp) {
    const ecs_sched_id ids[] = {g->position, g->velocity, g->health, g->name};
    const void *values[] = {&p, &v, &(Health){hp}, &(Name){name}};
    return ecs_sched_spawn_with(w, 4, ids, values) != ECS_SCHED_NULL_ENTITY;
}

/* Components, resources, two bodies, and the systems. */
static bool setup(ecs_sched_world *w, Game *g) {
    g->position = ECS_SCHED_COMPONENT(w, Position);
    g->velocity = ECS_SCHED_COMPONENT(w, Velocity);
    g->health = ECS_SCHED_COMPONENT(w, Health);
    g->name = ECS_SCHED_COMPONENT(w, Name);
    g->contact = ECS_SCHED_COMPONENT(w, Contact);
    g->input = ECS_SCHED_COMPONENT(w, Input);
    g->paused = ECS_SCHED_COMPONENT(w, Paused);
    g->gravity = ECS_SCHED_COMPONENT(w, Gravity);
    g->candidates = ECS_SCHED_COMPONENT(w, Candidates);
    if (!g->position || !g->velocity || !g->health || !g->name || !g->contact || !g->input ||
        !g->paused || !g->gravity || !g->candidates)
        return false;

    if (ecs_sched_resource_insert(w, g->input, NULL) != ECS_SCHED_OK ||   /* zeroed */
        ecs_sched_resource_insert(w, g->paused, &(Paused){false}) != ECS_SCHED_OK ||
        ecs_sched_resource_insert(w, g->gravity, &(Gravity){-8.0f}) != ECS_SCHED_OK ||
        ecs_sched_resource_insert(w, g->candidates, NULL) != ECS_SCHED_OK)
        return false;

    if (!spawn_body(w, g, "ball", (Position){0, 2}, (Velocity){1, 0}, 3) ||
        !spawn_body(w, g, "crate", (Position){4, 1}, (Velocity){0, 0}, 5))
        return false;

    /* The HUD comes first, then the plugins; the order of these calls only decides between
       systems that nothing orders. */
    if (ecs_sched_add_system(w, SCHEDULE, &(ecs_sched_system_desc){
            .name = "count_bodies", .fn = count_bodies, .user_data = g,
            .queries = {{{ecs_sched_read(g->position)}}},
            .ambiguous_with = {"FixedAfterInput"}}) != ECS_SCHED_OK)
        return false;
    return input_plugin(w, g) && physics_plugin(w, g);
}

static void print_bodies(ecs_sched_query *bodies) {
    ecs_sched_iter it = ecs_sched_query_iter(bodies);
    while (ecs_sched_iter_next(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
        const Health *h = ECS_SCHED_FIELD(&it, const Health, 1);
        const Name *name = ECS_SCHED_FIELD(&it, const Name, 2);
        for (int32_t i = 0; i < it.count; i++)
            printf("  %-6s at (%5.2f, %5.2f), %d hp\n", name[i].text, p[i].x, p[i].y, h[i].hp);
    }
}

int main(int argc, char **argv) {
    const char *dot_dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--dot") == 0 && i + 1 < argc) {
            dot_dir = argv[++i];
        } else {
            fprintf(stderr, "usage: %s [--dot DIR]\n", argv[0]);
            return 2;
        }
    }

    /* The program prints the order its systems ran in, so it runs them one at a time, in plan
       order, even when compiled with ECS_SCHED_THREADS; drop .executor to run them on the
       pool (the world ends up the same). */
    ecs_sched_world *w = ecs_sched_world_create(&(ecs_sched_world_desc){
        .logger = {.fn = print_log}, .executor = ECS_SCHED_EXECUTOR_SINGLE_THREADED});
    if (!w) return 1;
    static Game game;
    Game *g = &game;
    if (!setup(w, g)) {
        fprintf(stderr, "setup failed: %s\n", ecs_sched_last_error(w));
        ecs_sched_world_destroy(w);
        return 1;
    }

    /* Building checks the whole graph; the first run would do it too. */
    if (ecs_sched_schedule_build(w, SCHEDULE) != ECS_SCHED_OK) {
        fprintf(stderr, "%s\n", ecs_sched_last_error(w));
        ecs_sched_world_destroy(w);
        return 1;
    }
    const char *plan[32];
    int32_t steps = ecs_sched_schedule_order(w, SCHEDULE, plan, 32);
    printf("plan of %s:", SCHEDULE);
    for (int32_t i = 0; i < steps && i < 32; i++) printf(" %s", plan[i]);
    printf("\n");
    if (dot_dir && !write_dot(w, dot_dir, SCHEDULE)) {
        ecs_sched_world_destroy(w);
        return 1;
    }

    ecs_sched_query *bodies = ecs_sched_query_create(w, &(ecs_sched_query_desc){{
        ecs_sched_read(g->position), ecs_sched_read(g->health), ecs_sched_read(g->name)}});
    if (!bodies) {
        fprintf(stderr, "%s\n", ecs_sched_last_error(w));
        ecs_sched_world_destroy(w);
        return 1;
    }
    for (int frame = 1; frame <= 6; frame++) {
        if (frame == 6) {
            ecs_sched_resource_remove(w, g->gravity);   /* gravity's condition turns false */
            printf("(gravity switched off)\n");
        }
        printf("frame %d\n", frame);
        g->trace[0] = '\0';
        ecs_sched_result r = ecs_sched_run_schedule(w, SCHEDULE);
        if (r != ECS_SCHED_OK) {
            fprintf(stderr, "frame %d: %s\n", frame, ecs_sched_last_error(w));
            ecs_sched_world_destroy(w);
            return 1;
        }
        printf("  ran:%s\n", g->trace);
        print_bodies(bodies);
    }
    ecs_sched_world_destroy(w);
    return 0;
}
