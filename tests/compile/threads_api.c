/* threads_api.c - the thread API used from a file that is neither C11 nor the implementation:
   this file is compiled as C99 and as C++11, and linked with two_tu_impl.c compiled as C11
   with ECS_SCHED_THREADS:

     cc -std=c11 -DECS_SCHED_THREADS -I. $(pkg-config --cflags stb) -c tests/compile/two_tu_impl.c -o impl.o
     cc -std=c99 -I. $(pkg-config --cflags stb) -c tests/compile/threads_api.c -o api.o
     cc api.o impl.o $(pkg-config --libs stb) -lpthread -o threads_api && ./threads_api

   Exits 0 when every check holds. */
#include "ecs_sched.h"

#include <stdio.h>
#include <string.h>

typedef struct { float value; } Heat;

static void cool_piece(ecs_sched_iter *it, void *arg) {
    Heat *h = ECS_SCHED_FIELD(it, Heat, 0);
    int32_t i;
    (void)arg;
    for (i = 0; i < it->count; i++) h[i].value -= 1.0f;
}

static void cool(ecs_sched_system_ctx *ctx) {
    ecs_sched_ctx_par_iter(ctx, 0, 64, cool_piece, NULL);
}

static void fill(int64_t begin, int64_t end, void *arg) {
    int *values = (int *)arg;
    int64_t i;
    for (i = begin; i < end; i++) values[i] = (int)i;
}

int main(void) {
    static int values[1000];
    static Heat start[1000];
    int ok = 1, i;
    ecs_sched_world_desc wd;
    ecs_sched_system_desc sd;
    ecs_sched_world *w;
    ecs_sched_id heat;
    ecs_sched_entity first;
    const void *arrays[1];
    ecs_sched_pool *pool;
    const Heat *h;

    memset(&wd, 0, sizeof wd);
    wd.thread_count = 2;
    wd.executor = ECS_SCHED_EXECUTOR_PARALLEL;
    w = ecs_sched_world_create(&wd);
    if (!w) return 1;
    heat = ECS_SCHED_COMPONENT(w, Heat);
    for (i = 0; i < 1000; i++) start[i].value = 100.0f;
    arrays[0] = start;
    ok &= ecs_sched_spawn_batch(w, 1000, 1, &heat, arrays, NULL) == ECS_SCHED_OK;
    first = ecs_sched_spawn_with(w, 1, &heat, NULL);
    ok &= first != ECS_SCHED_NULL_ENTITY;

    memset(&sd, 0, sizeof sd);
    sd.name = "cool";
    sd.fn = cool;
    sd.queries[0].terms[0] = ecs_sched_write(heat);
    ok &= ecs_sched_add_system(w, "Update", &sd) == ECS_SCHED_OK;
    for (i = 0; i < 3; i++) ok &= ecs_sched_run_schedule(w, "Update") == ECS_SCHED_OK;
    h = (const Heat *)ecs_sched_get(w, first, heat);
    ok &= h != NULL && h->value == -3.0f;

    pool = ecs_sched_world_pool(w);
    ok &= pool != NULL && ecs_sched_pool_thread_count(pool) == 2;
    ok &= ecs_sched_pool_worker_index(pool) == 0;
    ecs_sched_pool_parallel_for(pool, 0, 1000, 100, fill, values);
    for (i = 0; i < 1000; i++) ok &= values[i] == i;

    ecs_sched_world_destroy(w);
    puts(ok ? "threads_api: ok" : "threads_api: FAILED");
    return ok ? 0 : 1;
}
