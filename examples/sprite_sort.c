/* sprite_sort.c - the world's events: change detection, removed components, observers and
   messages, in a small sprite scene.

   A thousand sprites drift across the screen; a few move each frame. The draw order (sprites
   sorted by depth, here their y) is kept up to date by re-sorting only the sprites whose
   Position changed since the sorting system last ran. An observer drops a sprite from the
   draw order the moment it loses its Sprite component. A collision system sends Hit messages;
   a damage system and a sound system read them, each once.

   Build and run from the repository root (the header, and stb_ds.h from libstb-dev):

       cc -std=c99 -O2 -I. $(pkg-config --cflags stb) examples/sprite_sort.c \
          $(pkg-config --libs stb) -o sprite_sort && ./sprite_sort

   It prints what each frame did and exits with status 1 if something it claims does not hold.
*/
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Position { float x, y; } Position;
typedef struct Sprite { int32_t image; } Sprite;
typedef struct Health { int32_t points; } Health;
typedef struct Hit { ecs_sched_entity target; int32_t damage; } Hit;

#define SPRITES 1000

static int failures;

static void check(int ok, const char *claim) {
    if (!ok) {
        printf("NOT TRUE: %s\n", claim);
        failures++;
    }
}

/* ==== Change detection ===================================================================

   Position is registered tracked: every entity's Position keeps the tick it was added and
   the tick it last changed. A query term ecs_sched_changed(id) hands out only the entities
   whose value changed since the querying system last ran (its first run sees them all). A
   written term marks every row the system iterates; ecs_sched_write_manual marks only the
   rows the loop marks, for a system that writes a few of many. */

static ecs_sched_id position_id, sprite_id, health_id, hit_id;

/* The draw order: entity handles sorted by y. A real renderer would keep an index per
   sprite; a small array with insertion keeps the example short. */
static ecs_sched_entity draw_order[SPRITES];
static float draw_y[SPRITES];
static int32_t draw_count;
static int32_t resorted_last_frame;

static int32_t draw_find(ecs_sched_entity e) {
    int32_t i;
    for (i = 0; i < draw_count; i++) {
        if (draw_order[i] == e) return i;
    }
    return -1;
}

static void draw_remove(ecs_sched_entity e) {
    int32_t at = draw_find(e);
    if (at < 0) return;
    memmove(&draw_order[at], &draw_order[at + 1], (size_t)(draw_count - at - 1) * sizeof *draw_order);
    memmove(&draw_y[at], &draw_y[at + 1], (size_t)(draw_count - at - 1) * sizeof *draw_y);
    draw_count--;
}

static void draw_insert(ecs_sched_entity e, float y) {
    int32_t at = draw_count;
    while (at > 0 && draw_y[at - 1] > y) at--;
    memmove(&draw_order[at + 1], &draw_order[at], (size_t)(draw_count - at) * sizeof *draw_order);
    memmove(&draw_y[at + 1], &draw_y[at], (size_t)(draw_count - at) * sizeof *draw_y);
    draw_order[at] = e;
    draw_y[at] = y;
    draw_count++;
}

/* Moves every 97th sprite, starting at a place that changes each frame, and marks those. */
static int32_t frame_number;

static void drift(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        int32_t i;
        for (i = frame_number % 97; i < it.count; i += 97) {
            p[i].y += 0.5f;
            ecs_sched_iter_mark_changed(&it, 0, i);
        }
    }
}

/* Re-sorts the sprites whose Position changed since this system last ran: only those. */
static void resort(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    resorted_last_frame = 0;
    while (ecs_sched_iter_next(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
        int32_t i;
        for (i = 0; i < it.count; i++) {
            draw_remove(it.entities[i]);
            draw_insert(it.entities[i], p[i].y);
            resorted_last_frame++;
        }
    }
}

/* ==== Observers ==========================================================================

   An observer is called right where a change happens. ON_REMOVE runs before the component
   goes (its value can still be read): here, a sprite that loses its Sprite leaves the draw
   order at once, whoever removed it and however (ecs_sched_remove, a despawn, a command). */

static int32_t left_draw_order;

static void leave_draw_order(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *trigger) {
    (void)ctx;
    draw_remove(trigger->entity);
    left_draw_order++;
}

/* ==== Messages ===========================================================================

   A message type is registered like a component. A sender declares it in .writes and sends
   copies; every reader (declared in .reads) gets every message once, in order, with a cursor
   of its own. Messages live for two updates of the queues (ecs_sched_messages_update, once a
   frame; an app does it itself). */

static void collide(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
        int32_t i;
        for (i = 0; i < it.count; i++) {
            if (p[i].y >= 9.5f) {   /* past the line: hit (until it is hidden) */
                Hit hit;
                hit.target = it.entities[i];
                hit.damage = 3;
                ecs_sched_ctx_send(ctx, hit_id, &hit);
            }
        }
    }
}

static int32_t damage_taken, sounds_played;

/* Exclusive: it changes Health through the world. */
static void apply_damage(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    ecs_sched_messages hits = ecs_sched_ctx_messages(ctx, hit_id);
    while (ecs_sched_messages_next(&hits)) {
        const Hit *h = (const Hit *)hits.data;
        int32_t i;
        for (i = 0; i < hits.count; i++) {
            Health *health = (Health *)ecs_sched_get_mut(w, h[i].target, health_id);
            if (!health) continue;
            health->points -= h[i].damage;
            damage_taken += h[i].damage;
            if (health->points <= 0) ecs_sched_remove(w, h[i].target, sprite_id);   /* hidden */
        }
    }
}

static void play_sounds(ecs_sched_system_ctx *ctx) {
    ecs_sched_messages hits = ecs_sched_ctx_messages(ctx, hit_id);
    sounds_played += hits.total;
}

/* ==== Removed components =================================================================

   A tracked component also keeps the entities that lost it, read like messages: here a
   system counts the sprites hidden since it last ran. (Sprite is tracked for it.) */

static int32_t hidden_seen;

static void count_hidden(ecs_sched_system_ctx *ctx) {
    ecs_sched_messages gone = ecs_sched_ctx_removed(ctx, sprite_id);
    hidden_seen += gone.total;
}

int main(void) {
    ecs_sched_world *w = ecs_sched_world_create(NULL);
    ecs_sched_observer_desc observer;
    int32_t i, frame, changed_total = 0;
    if (!w) return 1;
    position_id = ECS_SCHED_TRACKED_COMPONENT(w, Position);
    sprite_id = ECS_SCHED_TRACKED_COMPONENT(w, Sprite);
    health_id = ECS_SCHED_COMPONENT(w, Health);
    hit_id = ECS_SCHED_MESSAGE(w, Hit);

    memset(&observer, 0, sizeof observer);
    observer.name = "leave_draw_order";
    observer.event = ECS_SCHED_ON_REMOVE;
    observer.component = sprite_id;
    observer.fn = leave_draw_order;
    check(ecs_sched_observer_add(w, &observer) != 0, "the observer is added");

    for (i = 0; i < SPRITES; i++) {
        Position p;
        Sprite s;
        Health h;
        ecs_sched_id ids[3];
        const void *values[3];
        p.x = (float)(i % 40);
        p.y = (float)((i * 7) % 10);
        s.image = i % 3;
        h.points = 3;
        ids[0] = position_id; ids[1] = sprite_id; ids[2] = health_id;
        values[0] = &p; values[1] = &s; values[2] = &h;
        check(ecs_sched_spawn_with(w, 3, ids, values) != ECS_SCHED_NULL_ENTITY, "a sprite spawns");
    }

    ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
        .name = "drift", .fn = drift,
        .queries = {{.terms = {ecs_sched_write_manual(position_id)}}}});
    ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
        .name = "resort", .fn = resort, .after = {"drift"},
        .queries = {{.terms = {ecs_sched_changed(position_id), ecs_sched_read(sprite_id)}}}});
    ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
        .name = "collide", .fn = collide, .after = {"drift"}, .writes = {hit_id},
        .queries = {{.terms = {ecs_sched_read(position_id), ecs_sched_read(sprite_id)}}}});
    ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
        .name = "apply_damage", .fn = apply_damage, .after = {"collide", "resort"},
        .reads = {hit_id}, .exclusive = true});
    ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
        .name = "play_sounds", .fn = play_sounds, .after = {"apply_damage"}, .reads = {hit_id}});
    ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
        .name = "count_hidden", .fn = count_hidden, .after = {"apply_damage"}});

    for (frame = 0; frame < 40; frame++) {
        frame_number = frame;
        if (ecs_sched_run_schedule(w, "Update") != ECS_SCHED_OK) {
            printf("frame %d failed: %s\n", frame, ecs_sched_last_error(w));
            return 1;
        }
        ecs_sched_messages_update(w);
        if (frame == 0) {
            printf("frame 0: the first run of resort sorts all %d sprites\n", resorted_last_frame);
            check(resorted_last_frame == SPRITES, "the first run sees every sprite as changed");
        } else {
            changed_total += resorted_last_frame;
        }
    }
    printf("frames 1-39: resort re-sorted %d sprites in all, %.1f a frame (drift moves about "
           "one in 97)\n", changed_total, changed_total / 39.0);
    check(changed_total > 0 && changed_total < 39 * SPRITES / 50,
          "later runs re-sort only the sprites that moved");
    for (i = 1; i < draw_count; i++) check(draw_y[i - 1] <= draw_y[i], "the draw order is sorted");
    printf("hits: %d damage taken, %d sounds played\n", damage_taken, sounds_played);
    check(sounds_played * 3 == damage_taken, "both readers read every Hit once");
    printf("sprites hidden: %d (the observer saw %d, count_hidden read %d removals)\n",
           SPRITES - draw_count, left_draw_order, hidden_seen);
    check(left_draw_order == SPRITES - draw_count, "the observer saw every sprite leave");
    check(hidden_seen == left_draw_order, "the removals were read once each");
    ecs_sched_world_destroy(w);
    if (failures) return 1;
    printf("all claims hold\n");
    return 0;
}
