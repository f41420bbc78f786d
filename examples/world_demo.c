/* world_demo.c - a tour of the ecs_sched.h world. For four frames a ball and four rocks fall,
   a balloon rises and a lamp stays put; whatever reaches the ground is despawned and leaves a
   dust entity where it landed.

   Shows: components and tags, spawn / spawn_with / spawn_batch / insert / insert_many,
   resources, queries with read, write, optional and without terms, a command buffer recorded
   while iterating (despawns, and spawns through reserved handles), skipped commands, and how
   an error is reported through the world's logger.

   Build and run from the repository root (the header and stb_ds.h from libstb-dev):

       cc -std=c99 -O2 -I. $(pkg-config --cflags stb) examples/world_demo.c \
          $(pkg-config --libs stb) -o world_demo && ./world_demo
*/
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdio.h>

typedef struct { float x, y; } Position;
typedef struct { float x, y; } Velocity;
typedef struct { const char *text; } Label;
typedef struct { float y; } Gravity;              /* resource */
typedef struct { int frame; float time; } Clock;  /* resource */

/* Everything the frames need: the world, component ids, queries and a command buffer. */
typedef struct Demo {
    ecs_sched_world *world;
    ecs_sched_id position, velocity, label, floating, anchored, dust, gravity, clock;
    ecs_sched_query *falling;  /* write Velocity, without Floating */
    ecs_sched_query *moving;   /* write Position, read Velocity, read Label */
    ecs_sched_query *visible;  /* read Position, read Label, optional read Velocity */
    ecs_sched_query *dusty;    /* read Dust */
    ecs_sched_entity ball, lamp;
    ecs_sched_commands *commands;
} Demo;

/* The world's logger: errors and warnings go to stdout, so the whole story is in one stream. */
static void print_log(ecs_sched_log_level level, ecs_sched_result result, const char *message, void *user_data) {
    (void)result;
    (void)user_data;
    if (level >= ECS_SCHED_LOG_WARN) printf("  log: %s\n", message);
}

static void print_entity(ecs_sched_entity e) {
    printf("#%u.%u", (unsigned)ECS_SCHED_ENTITY_INDEX(e), (unsigned)ECS_SCHED_ENTITY_GENERATION(e));
}

static void print_names(const Demo *d, const ecs_sched_id *ids, int32_t count) {
    for (int32_t i = 0; i < count; i++) printf(" %s", ecs_sched_component_name(d->world, ids[i]));
    printf("\n");
}

static int setup(Demo *d) {
    ecs_sched_world_desc desc = {0};
    desc.logger.fn = print_log;
    d->world = ecs_sched_world_create(&desc);
    if (!d->world) return 0;
    ecs_sched_world *w = d->world;

    d->position = ECS_SCHED_COMPONENT(w, Position);
    d->velocity = ECS_SCHED_COMPONENT(w, Velocity);
    d->label = ECS_SCHED_COMPONENT(w, Label);
    d->floating = ECS_SCHED_TAG(w, Floating);  /* not pulled down by gravity */
    d->anchored = ECS_SCHED_TAG(w, Anchored);  /* has no velocity, never moves */
    d->dust = ECS_SCHED_TAG(w, Dust);          /* left where something hit the ground */
    d->gravity = ECS_SCHED_COMPONENT(w, Gravity);
    d->clock = ECS_SCHED_COMPONENT(w, Clock);
    if (!d->position || !d->velocity || !d->label || !d->floating || !d->anchored || !d->dust ||
        !d->gravity || !d->clock)
        return 0;
    printf("registered Position=%u Velocity=%u Label=%u, tags Floating=%u Anchored=%u Dust=%u\n",
           (unsigned)d->position, (unsigned)d->velocity, (unsigned)d->label,
           (unsigned)d->floating, (unsigned)d->anchored, (unsigned)d->dust);

    /* Resources: world singletons, stored by component id. */
    Gravity gravity = {-4.0f};
    if (ecs_sched_resource_insert(w, d->gravity, &gravity) != ECS_SCHED_OK) return 0;
    if (ecs_sched_resource_insert(w, d->clock, NULL) != ECS_SCHED_OK) return 0;  /* zeroed */

    /* One entity with all its components at once. */
    {
        Position p = {0.0f, 8.0f};
        Velocity v = {1.0f, 0.0f};
        Label l = {"ball"};
        const ecs_sched_id ids[] = {d->position, d->velocity, d->label};
        const void *values[] = {&p, &v, &l};
        d->ball = ecs_sched_spawn_with(w, 3, ids, values);
        if (!d->ball) return 0;
        printf("spawn_with   ball    "); print_entity(d->ball); printf("\n");
    }
    /* The same, one component at a time; NULL inserts a tag (or a default value). */
    {
        Position p = {3.0f, 1.0f};
        Velocity v = {0.0f, 1.0f};
        Label l = {"balloon"};
        ecs_sched_entity balloon = ecs_sched_spawn(w);
        if (ecs_sched_insert(w, balloon, d->position, &p) != ECS_SCHED_OK ||
            ecs_sched_insert(w, balloon, d->velocity, &v) != ECS_SCHED_OK ||
            ecs_sched_insert(w, balloon, d->label, &l) != ECS_SCHED_OK ||
            ecs_sched_insert(w, balloon, d->floating, NULL) != ECS_SCHED_OK)
            return 0;
        printf("spawn+insert balloon "); print_entity(balloon); printf("\n");
    }
    /* Several inserts with a single move between tables. */
    {
        Position p = {5.0f, 6.0f};
        Label l = {"lamp"};
        const ecs_sched_id ids[] = {d->position, d->label, d->anchored};
        const void *values[] = {&p, &l, NULL};
        d->lamp = ecs_sched_spawn(w);
        if (ecs_sched_insert_many(w, d->lamp, 3, ids, values) != ECS_SCHED_OK) return 0;
        printf("insert_many  lamp    "); print_entity(d->lamp); printf("\n");
    }
    /* Four rocks in one call: one array of values per component. */
    {
        Position p[4] = {{-1.0f, 1.0f}, {-2.0f, 2.0f}, {-3.0f, 3.0f}, {-4.0f, 4.0f}};
        Label l[4] = {{"rock 1"}, {"rock 2"}, {"rock 3"}, {"rock 4"}};
        const ecs_sched_id ids[] = {d->position, d->velocity, d->label};
        const void *arrays[] = {p, NULL, l};  /* NULL: every velocity starts at zero */
        ecs_sched_entity rocks[4];
        if (ecs_sched_spawn_batch(w, 4, 3, ids, arrays, rocks) != ECS_SCHED_OK) return 0;
        printf("spawn_batch  rocks  ");
        for (int i = 0; i < 4; i++) { printf(" "); print_entity(rocks[i]); }
        printf("\n");
    }
    /* One table per set of components, including the empty set and the sets the balloon
       passed through while it got its components one at a time. */
    printf("%d entities, %d archetype tables\n", (int)ecs_sched_entity_count(w),
           (int)ecs_sched_archetype_count(w));

    /* Queries: terms are numbered, and fields are read by the same numbers. */
    ecs_sched_query_desc falling = {{ecs_sched_write(d->velocity), ecs_sched_without(d->floating)}};
    ecs_sched_query_desc moving = {{ecs_sched_write(d->position), ecs_sched_read(d->velocity),
                                    ecs_sched_read(d->label)}};
    ecs_sched_query_desc visible = {{ecs_sched_read(d->position), ecs_sched_read(d->label),
                                     ecs_sched_optional_read(d->velocity)}};
    d->falling = ecs_sched_query_create(w, &falling);
    d->moving = ecs_sched_query_create(w, &moving);
    ecs_sched_query_desc dusty = {{ecs_sched_read(d->dust)}};
    d->visible = ecs_sched_query_create(w, &visible);
    d->dusty = ecs_sched_query_create(w, &dusty);
    d->commands = ecs_sched_commands_create(w);
    if (!d->falling || !d->moving || !d->visible || !d->dusty || !d->commands) return 0;

    ecs_sched_access access = ecs_sched_query_access(d->moving);
    printf("the moving query reads:");
    print_names(d, access.reads, access.read_count);
    printf("             and writes:");
    print_names(d, access.writes, access.write_count);
    return 1;
}

/* Gravity pulls on every velocity except those of floating things. */
static void apply_gravity(Demo *d, float dt) {
    const Gravity *g = (const Gravity *)ecs_sched_resource_get(d->world, d->gravity);
    ecs_sched_iter it = ecs_sched_query_iter(d->falling);
    while (ecs_sched_iter_next(&it)) {
        Velocity *v = ECS_SCHED_FIELD(&it, Velocity, 0);
        for (int32_t i = 0; i < it.count; i++) v[i].y += g->y * dt;
    }
}

/* Moves everything that has a velocity. Whatever reaches the ground is despawned and leaves a
   dust entity behind; both changes are recorded, because the tables must not change while the
   query walks them. */
static void move_and_land(Demo *d, float dt) {
    ecs_sched_iter it = ecs_sched_query_iter(d->moving);
    while (ecs_sched_iter_next(&it)) {
        Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        const Velocity *v = ECS_SCHED_FIELD(&it, const Velocity, 1);
        const Label *l = ECS_SCHED_FIELD(&it, const Label, 2);
        for (int32_t i = 0; i < it.count; i++) {
            p[i].x += v[i].x * dt;
            p[i].y += v[i].y * dt;
            if (p[i].y > 0.0f) continue;
            Position spot = {p[i].x, 0.0f};
            ecs_sched_entity dust = ecs_sched_commands_spawn(d->commands);  /* reserved now */
            ecs_sched_commands_insert(d->commands, dust, d->position, &spot);
            ecs_sched_commands_insert(d->commands, dust, d->dust, NULL);
            ecs_sched_commands_despawn(d->commands, it.entities[i]);
            printf("  %s ", l[i].text);
            print_entity(it.entities[i]);
            printf(" hits the ground at x = %.1f: despawn it, spawn dust ", spot.x);
            print_entity(dust);
            printf(" (alive yet? %s)\n", ecs_sched_is_alive(d->world, dust) ? "yes" : "no");
        }
    }
}

static void report(Demo *d) {
    ecs_sched_iter it = ecs_sched_query_iter(d->visible);
    while (ecs_sched_iter_next(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
        const Label *l = ECS_SCHED_FIELD(&it, const Label, 1);
        const Velocity *v = ECS_SCHED_FIELD(&it, const Velocity, 2);  /* NULL: no velocity */
        for (int32_t i = 0; i < it.count; i++) {
            printf("  %-8s pos (%5.1f, %5.1f)", l[i].text, p[i].x, p[i].y);
            if (v) printf("  vel (%4.1f, %4.1f)", v[i].x, v[i].y);
            if (ecs_sched_has(d->world, it.entities[i], d->anchored)) printf("  anchored");
            printf("\n");
        }
    }
}

int main(void) {
    Demo demo = {0};
    Demo *d = &demo;
    printf("ecs_sched %s world demo\n", ECS_SCHED_VERSION_STRING);
    if (!setup(d)) {
        printf("setup failed: %s\n", d->world ? ecs_sched_last_error(d->world) : "no memory");
        ecs_sched_world_destroy(d->world);
        return 1;
    }

    const float dt = 0.5f;
    for (int frame = 1; frame <= 4; frame++) {
        Clock *clock = (Clock *)ecs_sched_resource_get_mut(d->world, d->clock);
        clock->frame = frame;
        clock->time += dt;
        printf("\nframe %d, t = %.1f\n", clock->frame, clock->time);

        apply_gravity(d, dt);
        move_and_land(d, dt);

        int32_t recorded = ecs_sched_commands_pending(d->commands);
        if (ecs_sched_commands_apply(d->commands) != ECS_SCHED_OK) {
            printf("apply failed: %s\n", ecs_sched_last_error(d->world));
            break;
        }
        printf("  applied %d commands: %d entities, %d of them dust\n", (int)recorded,
               (int)ecs_sched_entity_count(d->world), (int)ecs_sched_query_count(d->dusty));
        report(d);
    }

    /* A command whose entity is dead by the time the buffer is applied is skipped. */
    printf("\nthe lamp is despawned twice in one buffer\n");
    ecs_sched_commands_despawn(d->commands, d->lamp);
    ecs_sched_commands_despawn(d->commands, d->lamp);
    ecs_sched_commands_apply(d->commands);
    printf("  skipped: %d, still pending: %d, lamp alive: %s\n",
           (int)ecs_sched_commands_skipped(d->commands),
           (int)ecs_sched_commands_pending(d->commands),
           ecs_sched_is_alive(d->world, d->lamp) ? "yes" : "no");

    /* A stale handle is an error with a message, never a read of another entity's data. */
    printf("reading the ball's position with its old handle\n");
    const void *where = ecs_sched_get(d->world, d->ball, d->position);
    printf("  got %s, last result: %s\n", where ? "a value" : "NULL",
           ecs_sched_result_string(ecs_sched_last_result(d->world)));

    ecs_sched_world_destroy(d->world);  /* queries and the command buffer go with it */
    return 0;
}
