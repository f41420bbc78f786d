/* config_mismatch.c - a file that sets ECS_SCHED_MAX_REFS to 2 before including the header,
   as a user who wants smaller descs might. Linked against an implementation built with the
   default (8), the program must not link, and the linker must name the macro and the value
   this file wants; linked against one built with -DECS_SCHED_MAX_REFS=2, it links and runs:

     cc -std=c99 -I. $(pkg-config --cflags stb) tests/compile/config_mismatch.c \
        tests/compile/two_tu_impl.c $(pkg-config --libs stb)
       -> undefined reference to `ecs_sched_implementation_with_MAX_REFS_2'

   The Makefile also compiles it with each other configuration macro changed (e.g.
   -DECS_SCHED_ITER_ROWS=32) against an implementation with MAX_REFS 2: the link must fail
   naming that macro alone.

   Exits 0 when the schedule ran both systems once. */
#define ECS_SCHED_MAX_REFS 2
#include "ecs_sched.h"

#include <stdio.h>

static int runs;

static void count_run(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    runs++;
}

int main(void) {
    ecs_sched_world *w = ecs_sched_world_create(NULL);
    ecs_sched_system_desc first = {0}, second = {0};
    int ok;
    if (!w) return 1;
    first.name = "first";
    first.fn = count_run;
    second.name = "second";
    second.fn = count_run;
    second.after[0] = "first";
    ok = ecs_sched_add_system(w, "Update", &first) == ECS_SCHED_OK &&
         ecs_sched_add_system(w, "Update", &second) == ECS_SCHED_OK &&
         ecs_sched_run_schedule(w, "Update") == ECS_SCHED_OK && runs == 2;
    ecs_sched_world_destroy(w);
    if (!ok) printf("config_mismatch: the schedule did not run both systems once\n");
    return ok ? 0 : 1;
}
