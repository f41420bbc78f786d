/* Hierarchies on the parallel executor: a transform system with a cascading query runs beside
   systems that do not conflict with it, a system reparents through commands every few frames
   (so the query's kept order is made again), and after each frame every global transform is
   what walking the ancestors gives. Run under ThreadSanitizer too. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixture.h"

typedef struct { float x, y; } Local;
typedef struct { float x, y; } Global;

#define FOREST 120

static ecs_sched_id g_local, g_global, g_vel, g_child_of;
static ecs_sched_entity g_e[FOREST];
static int g_frame;

static void propagate(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        Global *g = ECS_SCHED_FIELD(&it, Global, 0);
        const Local *l = ECS_SCHED_FIELD(&it, const Local, 1);
        const Global *const *parent = ECS_SCHED_PARENT_FIELD(&it, Global, 2);
        int32_t i;
        for (i = 0; i < it.count; i++) {
            g[i].x = l[i].x + (parent[i] ? parent[i]->x : 0.0f);
            g[i].y = l[i].y + (parent[i] ? parent[i]->y : 0.0f);
        }
    }
}

/* Velocity only: runs beside propagate. */
static void drift(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        Velocity *v = ECS_SCHED_FIELD(&it, Velocity, 0);
        int32_t i;
        for (i = 0; i < it.count; i++) v[i].x += 1.0f;
    }
}

/* Every third frame, a node moves under another node that is not below it. */
static void reparent(ecs_sched_system_ctx *ctx) {
    ecs_sched_commands *cmd = ecs_sched_ctx_commands(ctx);
    int child = 10 + (g_frame * 7) % (FOREST - 10), parent = (g_frame * 3) % 10;
    if (g_frame % 3 == 0) {
        assert_int_equal(ecs_sched_commands_set_parent(cmd, g_e[child], g_e[parent]), ECS_SCHED_OK);
    }
}

/* The global transform of e from its ancestors' locals. */
static Global walk(ecs_sched_world *w, ecs_sched_entity e) {
    Global g = {0, 0};
    while (e) {
        const Local *l = (const Local *)ecs_sched_get(w, e, g_local);
        g.x += l->x;
        g.y += l->y;
        e = ecs_sched_parent_of(w, e);
    }
    return g;
}

static void a_cascading_system_runs_beside_others_and_follows_reparenting(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_PARALLEL, 2);
    int i;
    (void)state;
    g_local = ECS_SCHED_COMPONENT(w, Local);
    g_global = ECS_SCHED_COMPONENT(w, Global);
    g_vel = ECS_SCHED_COMPONENT(w, Velocity);
    g_child_of = ecs_sched_child_of(w);
    for (i = 0; i < FOREST; i++) {
        Local l;
        Velocity v = {0, 0};
        ecs_sched_id ids[3];
        const void *values[3];
        l.x = (float)(i % 7);
        l.y = (float)(i % 5);
        ids[0] = g_local;
        ids[1] = g_global;
        ids[2] = g_vel;
        values[0] = &l;
        values[1] = NULL;
        values[2] = &v;
        g_e[i] = ecs_sched_spawn_with(w, 3, ids, values);
        /* nodes 0-9 are roots; the others hang under an earlier node */
        if (i >= 10) assert_int_equal(ecs_sched_set_parent(w, g_e[i], g_e[(i * 13) % i]), ECS_SCHED_OK);
    }
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                         .name = "reparent", .fn = reparent, .commands = true}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                         .name = "propagate", .fn = propagate, .after = {"reparent"},
                         .queries = {{{ecs_sched_write(g_global), ecs_sched_read(g_local),
                                       ecs_sched_optional_from_parent(g_global),
                                       ecs_sched_cascade(g_child_of)}}}}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                         .name = "drift", .fn = drift,
                         .queries = {{{ecs_sched_write(g_vel)}}}}), ECS_SCHED_OK);
    for (g_frame = 0; g_frame < 12; g_frame++) {
        assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
        for (i = 0; i < FOREST; i++) {
            const Global *g = (const Global *)ecs_sched_get(w, g_e[i], g_global);
            Global want = walk(w, g_e[i]);
            assert_true(g->x == want.x && g->y == want.y);
        }
    }
    assert_int_equal(ecs_sched_world_check(w), ECS_SCHED_OK);
    ecs_sched_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_cascading_system_runs_beside_others_and_follows_reparenting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
