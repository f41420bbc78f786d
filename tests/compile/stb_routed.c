/* stb_routed.c - stb_ds's implementation compiled with its allocations routed through the
   library's bridge (ecs_sched_stbds_realloc / ecs_sched_stbds_free), together with the
   library's implementation, in one file; then a small scenario.

     cc -std=c99 -Wall -Wextra -Wpedantic -Werror -I. $(pkg-config --cflags stb) \
        tests/compile/stb_routed.c -o build/stb_routed && build/stb_routed

   (cc: gcc and clang; no -lstb, stb_ds is compiled here.) The world gets its own run-time
   allocator, so the compile-time allocator below is reached only through the bridge, that
   is, only by stb_ds. Exits 0 when every check holds. */
#include <stdio.h>
#include <stdlib.h>

/* The compile-time allocator: counts the blocks stb_ds holds through the bridge. */
static long stb_blocks, stb_calls;

static void *counting_realloc(void *ptr, size_t size) {
    void *result = realloc(ptr, size);
    if (result) {
        stb_calls++;
        if (!ptr) stb_blocks++;
    }
    return result;
}

static void counting_free(void *ptr) {
    if (ptr) stb_blocks--;
    free(ptr);
}

#define ECS_SCHED_REALLOC(ptr, size) counting_realloc((ptr), (size))
#define ECS_SCHED_FREE(ptr) counting_free(ptr)

/* The same STBDS_ macros for every inclusion of stb_ds.h in the program (here, one file). */
#define STBDS_REALLOC(context, ptr, size) ecs_sched_stbds_realloc((context), (ptr), (size))
#define STBDS_FREE(context, ptr) ecs_sched_stbds_free((context), (ptr))

#include "ecs_sched.h" /* the public part declares the two bridge functions */
#define STB_DS_IMPLEMENTATION
#include "stb_ds.h"
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

/* The world's run-time allocator: counts the blocks the world holds. */
static long world_blocks;

static void *world_realloc(void *ptr, size_t size, void *user_data) {
    void *result = realloc(ptr, size);
    (void)user_data;
    if (result && !ptr) world_blocks++;
    return result;
}

static void world_free(void *ptr, void *user_data) {
    (void)user_data;
    if (ptr) world_blocks--;
    free(ptr);
}

typedef struct { float x, y; } Position;
typedef struct { float x, y; } Velocity;

int main(void) {
    int ok = 1;
    ecs_sched_world_desc desc = {0};
    desc.allocator.realloc_fn = world_realloc;
    desc.allocator.free_fn = world_free;
    ecs_sched_world *w = ecs_sched_world_create(&desc);
    if (!w) return 1;

    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_id vel = ECS_SCHED_COMPONENT(w, Velocity);
    ecs_sched_id tag = ECS_SCHED_TAG(w, Marked);
    ok &= pos && vel && tag && ecs_sched_component_lookup(w, "Marked") == tag;
    long library_stb_calls = stb_calls;

    /* The program's own stb_ds array of handles goes through the bridge as well. */
    ecs_sched_entity *handles = NULL;
    long before = stb_calls;
    for (int i = 0; i < 64; i++) {
        Position p = {(float)i, 0.0f};
        Velocity v = {0.0f, 1.0f};
        const ecs_sched_id ids[] = {pos, vel};
        const void *values[] = {&p, &v};
        arrput(handles, ecs_sched_spawn_with(w, 2, ids, values));
    }
    ok &= stb_calls > before && arrlen(handles) == 64;

    ecs_sched_commands *cmd = ecs_sched_commands_create(w);
    ok &= cmd != NULL;
    for (int i = 0; i < arrlen(handles); i += 2) {
        ecs_sched_commands_insert(cmd, handles[i], tag, NULL);
    }
    ok &= ecs_sched_commands_apply(cmd) == ECS_SCHED_OK;

    ecs_sched_query_desc qd = {{ecs_sched_write(pos), ecs_sched_read(vel),
                                ecs_sched_read(tag)}};
    ecs_sched_query *q = ecs_sched_query_create(w, &qd);
    ok &= q != NULL && ecs_sched_query_count(q) == 32;
    ecs_sched_iter it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        const Velocity *v = ECS_SCHED_FIELD(&it, const Velocity, 1);
        for (int32_t i = 0; i < it.count; i++) p[i].y += v[i].y;
    }
    const Position *p2 = (const Position *)ecs_sched_get(w, handles[2], pos);
    const Position *p3 = (const Position *)ecs_sched_get(w, handles[3], pos);
    ok &= p2 && p2->x == 2.0f && p2->y == 1.0f && p3 && p3->y == 0.0f;
    ok &= ecs_sched_world_check(w) == ECS_SCHED_OK;

    arrfree(handles);
    ecs_sched_world_destroy(w);
    ok &= world_blocks == 0 && stb_blocks == 0;
    printf("stb_routed: %s (stb_ds calls through the bridge: %ld by the library, %ld in all)\n",
           ok ? "ok" : "FAILED", library_stb_calls, stb_calls);
    return ok ? 0 : 1;
}
