/* scene_graph.c - a ship with two turrets, each with a barrel: a scene graph whose global 2D
   transforms follow from the local ones, parent before child, each frame.

   The ship sails and turns, the left turret swings; one system composes every entity's
   global transform from its parent's global and its own local one, through a query that
   reads the parent's value (a from_parent term) in depth order (a cascade term), so each
   parent is done before its children. Then the scene changes: the right turret is torn off
   (it becomes a root and keeps its barrel), a cycle is refused, a path is looked up, and the
   ship is sunk (despawning the ship despawns what is still attached).

   Build and run from the repository root (the header, and stb_ds.h from libstb-dev):

       cc -std=c99 -O2 -I. $(pkg-config --cflags stb) examples/scene_graph.c \
          $(pkg-config --libs stb) -o scene_graph && ./scene_graph */
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdio.h>

/* A 2D transform: a position and a rotation, kept as its cosine and sine so that composing
   two is exact arithmetic (no libm needed). */
typedef struct { float x, y, c, s; } Transform;
typedef Transform Local;    /* relative to the parent */
typedef Transform Global;   /* in the world */

typedef struct Scene {
    ecs_sched_world *world;
    ecs_sched_id local, global;
    ecs_sched_entity ship, left, right;
} Scene;

static Scene scene;

/* The parent's transform applied to a local one: rotate, then move. */
static Transform compose(const Transform *parent, const Transform *local) {
    Transform t;
    t.x = parent->x + parent->c * local->x - parent->s * local->y;
    t.y = parent->y + parent->s * local->x + parent->c * local->y;
    t.c = parent->c * local->c - parent->s * local->s;
    t.s = parent->s * local->c + parent->c * local->s;
    return t;
}

/* Query 0: write Global, read Local, the parent's Global (optional: roots have none), and
   depth order along ChildOf. */
static void propagate(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        Global *global = ECS_SCHED_FIELD(&it, Global, 0);
        const Local *local = ECS_SCHED_FIELD(&it, const Local, 1);
        const Global *const *parent = ECS_SCHED_PARENT_FIELD(&it, Global, 2);
        for (int32_t i = 0; i < it.count; i++) {
            global[i] = parent[i] ? compose(parent[i], &local[i]) : local[i];
        }
    }
}

static int frame;

/* The ship sails east, turning a quarter every other frame; the left turret swings. */
static void steer(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    Local *ship = (Local *)ecs_sched_get_mut(w, scene.ship, scene.local);
    Local *left = ecs_sched_is_alive(w, scene.left)
                      ? (Local *)ecs_sched_get_mut(w, scene.left, scene.local) : NULL;
    if (ship) {
        ship->x += 2.0f;
        if (frame % 2 == 0) {
            float c = ship->c;
            ship->c = -ship->s;
            ship->s = c;
        }
    }
    if (left) {   /* a swing whose cosine is 0.8 and sine 0.6 */
        float c = left->c, s = left->s;
        left->c = c * 0.8f - s * 0.6f;
        left->s = s * 0.8f + c * 0.6f;
    }
}

static ecs_sched_entity part(const char *name, ecs_sched_entity parent, Transform local) {
    ecs_sched_world *w = scene.world;
    ecs_sched_id ids[2] = {scene.local, scene.global};
    const void *values[2] = {&local, &local};
    ecs_sched_entity e = ecs_sched_spawn_with(w, 2, ids, values);
    if (parent) ecs_sched_set_parent(w, e, parent);
    ecs_sched_set_name(w, e, name);
    return e;
}

static void print_tree(ecs_sched_entity e, int depth) {
    ecs_sched_world *w = scene.world;
    const Global *g = (const Global *)ecs_sched_get(w, e, scene.global);
    int32_t count;
    const ecs_sched_entity *children;
    /* + 0.0f: a negative zero prints as a zero */
    printf("  %*s%-14s at (%6.2f, %6.2f) facing (%5.2f, %5.2f)\n", depth * 2, "", ecs_sched_name(w, e),
           g->x + 0.0f, g->y + 0.0f, g->c + 0.0f, g->s + 0.0f);
    children = ecs_sched_children(w, e, &count);
    for (int32_t i = 0; i < count; i++) print_tree(children[i], depth + 1);
}

static void print_scene(const char *title) {
    ecs_sched_world *w = scene.world;
    ecs_sched_entity roots[8];
    int32_t n = 0;
    ecs_sched_iter it;
    ecs_sched_query *q;
    ecs_sched_query_desc desc = {{ecs_sched_read(scene.global), ecs_sched_without(ecs_sched_child_of(w))}};
    printf("%s\n", title);
    q = ecs_sched_query_create(w, &desc);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        for (int32_t i = 0; i < it.count && n < 8; i++) roots[n++] = it.entities[i];
    }
    ecs_sched_query_destroy(q);
    for (int32_t i = 0; i < n; i++) print_tree(roots[i], 0);
}

/* Failures are printed where they happen; the world's logger stays quiet. */
static void quiet(ecs_sched_log_level level, ecs_sched_result result, const char *message,
                  void *user_data) {
    (void)level;
    (void)result;
    (void)message;
    (void)user_data;
}

static int setup(void) {
    ecs_sched_world_desc desc = {0};
    desc.logger.fn = quiet;
    ecs_sched_world *w = ecs_sched_world_create(&desc);
    if (!w) return 0;
    scene.world = w;
    scene.local = ecs_sched_component_register_type(w, "Local", sizeof(Local), ECS_SCHED_ALIGNOF(Local));
    scene.global = ecs_sched_component_register_type(w, "Global", sizeof(Global), ECS_SCHED_ALIGNOF(Global));
    scene.ship = part("ship", 0, (Transform){0, 0, 1, 0});
    scene.left = part("turret_left", scene.ship, (Transform){-1, 2, 1, 0});
    scene.right = part("turret_right", scene.ship, (Transform){1, 2, 1, 0});
    part("barrel", scene.left, (Transform){0, 1.5f, 1, 0});
    part("barrel", scene.right, (Transform){0, 1.5f, 1, 0});
    ecs_sched_system_desc steer_desc = {.name = "steer", .fn = steer, .exclusive = true};
    ecs_sched_system_desc propagate_desc = {
        .name = "propagate", .fn = propagate, .after = {"steer"},
        .queries = {{{ecs_sched_write(scene.global), ecs_sched_read(scene.local),
                      ecs_sched_optional_from_parent(scene.global),
                      ecs_sched_cascade(ecs_sched_child_of(w))}}},
    };
    return ecs_sched_add_system(w, "Frame", &steer_desc) == ECS_SCHED_OK &&
           ecs_sched_add_system(w, "Frame", &propagate_desc) == ECS_SCHED_OK;
}

int main(void) {
    if (!setup()) {
        printf("setup failed\n");
        return 1;
    }
    ecs_sched_world *w = scene.world;
    char title[64];
    for (frame = 1; frame <= 3; frame++) {
        ecs_sched_run_schedule(w, "Frame");
        snprintf(title, sizeof title, "frame %d:", frame);
        print_scene(title);
    }

    /* the right turret is torn off: a root now, with its barrel; its local transform is now
       relative to the world */
    ecs_sched_set_parent(w, scene.right, ECS_SCHED_NULL_ENTITY);
    frame = 4;
    ecs_sched_run_schedule(w, "Frame");
    print_scene("frame 4, the right turret torn off:");

    /* a cycle is refused, and the message names the entities */
    if (ecs_sched_set_parent(w, scene.ship, ecs_sched_lookup_path(w, 0, "ship.turret_left.barrel", NULL)) !=
        ECS_SCHED_OK) {
        printf("refused: %s\n", ecs_sched_last_error(w));
    }
    char path[64];
    ecs_sched_path(w, ecs_sched_lookup_path(w, 0, "turret_right.barrel", NULL), "/", path, sizeof path);
    printf("found: %s\n", path);

    /* sinking the ship takes what is attached along */
    printf("entities: %d\n", (int)ecs_sched_entity_count(w));
    ecs_sched_despawn(w, scene.ship);
    printf("entities after the ship sank: %d\n", (int)ecs_sched_entity_count(w));
    print_scene("what is left:");
    ecs_sched_world_destroy(w);
    return 0;
}
