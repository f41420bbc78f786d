/* static_api.c - a private copy of the library: ECS_SCHED_STATIC makes every public function
   static, with the implementation in this file, calling only a few functions. The many functions it never
   calls must not cause warnings.

     cc -std=c99 -Wall -Wextra -Wpedantic -Werror -I. $(pkg-config --cflags stb) \
        tests/compile/static_api.c $(pkg-config --libs stb) -o build/static_api && build/static_api

   (cc: gcc and clang.) Exits 0 when every check holds. */
#define ECS_SCHED_STATIC
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdio.h>

int main(void) {
    ecs_sched_world *w = ecs_sched_world_create(NULL);
    if (!w) return 1;
    ecs_sched_entity a = ecs_sched_spawn(w);
    ecs_sched_entity b = ecs_sched_spawn(w);
    int ok = a != ECS_SCHED_NULL_ENTITY && b != ECS_SCHED_NULL_ENTITY && a != b &&
             ecs_sched_entity_count(w) == 2;
    ecs_sched_world_destroy(w);
    printf("static_api: %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
