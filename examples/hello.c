/* hello.c - the smallest app: one system, three frames, then exit.

   Build and run from the repository root (the header and stb_ds.h from libstb-dev):

       cc -std=c99 -O2 -I. $(pkg-config --cflags stb) examples/hello.c \
          $(pkg-config --libs stb) -o hello && ./hello
*/
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdio.h>

typedef struct { int count; } Frames;     /* a resource */

static ecs_sched_id frames_id;

static void say_hello(ecs_sched_system_ctx *ctx) {
    Frames *frames = (Frames *)ecs_sched_ctx_resource_mut(ctx, frames_id);
    printf("hello, frame %d\n", ++frames->count);
    if (frames->count == 3) ecs_sched_ctx_request_exit(ctx, 0);
}

int main(void) {
    ecs_sched_app *app = ecs_sched_app_create(NULL);
    ecs_sched_world *w = ecs_sched_app_world(app);
    int32_t exit_code = 1;
    frames_id = ECS_SCHED_COMPONENT(w, Frames);
    ecs_sched_resource_insert(w, frames_id, NULL);
    ecs_sched_add_system(w, ECS_SCHED_UPDATE, &(ecs_sched_system_desc){
        .name = "say_hello", .fn = say_hello,
        .writes = {frames_id, ecs_sched_app_exit_id(w)},   /* what it touches */
    });
    if (ecs_sched_app_run(app, NULL, &exit_code) != ECS_SCHED_OK) {
        fprintf(stderr, "hello: %s\n", ecs_sched_last_error(w));
        exit_code = 1;
    }
    ecs_sched_app_destroy(app);
    return exit_code;
}
