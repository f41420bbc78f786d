/* two_tu_main.c - uses the API from a translation unit without the implementation, which is
   in two_tu_impl.c. Build both and link them:

     cc -std=c99 -Wall -Wextra -Wpedantic -Werror -I. $(pkg-config --cflags stb) \
        tests/compile/two_tu_main.c tests/compile/two_tu_impl.c $(pkg-config --libs stb) \
        -o build/two_tu && build/two_tu

   (cc: gcc and clang.) Exits 0 when every check holds. */
#include "ecs_sched.h"

#include <stdio.h>

typedef struct { int hp; } Health;
typedef struct { double seconds; } Elapsed;

int main(void) {
    int ok = 1;
    ecs_sched_world *w = ecs_sched_world_create(NULL);
    if (!w) return 1;

    ecs_sched_id health = ECS_SCHED_COMPONENT(w, Health);
    ecs_sched_id elapsed = ECS_SCHED_COMPONENT(w, Elapsed);
    ecs_sched_id poisoned = ECS_SCHED_TAG(w, Poisoned);
    ok &= health != 0 && elapsed != 0 && poisoned != 0;

    Health start[5] = {{10}, {20}, {30}, {40}, {50}};
    const ecs_sched_id ids[] = {health};
    const void *arrays[] = {start};
    ecs_sched_entity e[5];
    ok &= ecs_sched_spawn_batch(w, 5, 1, ids, arrays, e) == ECS_SCHED_OK;
    ok &= ecs_sched_insert(w, e[1], poisoned, NULL) == ECS_SCHED_OK;
    ok &= ecs_sched_insert(w, e[3], poisoned, NULL) == ECS_SCHED_OK;

    Elapsed t = {0.25};
    ok &= ecs_sched_resource_insert(w, elapsed, &t) == ECS_SCHED_OK;

    ecs_sched_query_desc qd = {{ecs_sched_write(health), ecs_sched_read(poisoned)}};
    ecs_sched_query *q = ecs_sched_query_create(w, &qd);
    ok &= q != NULL && ecs_sched_query_count(q) == 2;

    ecs_sched_iter it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        Health *h = ECS_SCHED_FIELD(&it, Health, 0);
        ok &= it.fields[1] == NULL; /* a tag has no data */
        for (int32_t i = 0; i < it.count; i++) h[i].hp -= 5;
    }

    const Health *h1 = (const Health *)ecs_sched_get(w, e[1], health);
    const Health *h2 = (const Health *)ecs_sched_get(w, e[2], health);
    const Elapsed *t2 = (const Elapsed *)ecs_sched_resource_get(w, elapsed);
    ok &= h1 && h1->hp == 15 && h2 && h2->hp == 30;
    ok &= t2 && t2->seconds == 0.25;

    ecs_sched_world_destroy(w);
    printf("two_tu: %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
