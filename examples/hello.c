/* hello.c - the smallest app: one system, three frames, then exit.

   Build and run from the repository root (the header and stb_ds.h from libstb-dev):

       cc -std=c99 -O2 -I. $(pkg-config --cflags stb) examples/hello.c \
          $(pkg-config --libs stb) -o hello && ./hello
*/
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdio.h>

typedef struct { int count; } Frames;

static void say_hello(ecs_sched_system_ctx *ctx) {
    Frames *frames = (Frames *)ecs_sched_ctx_resource_mut(ctx, *(ecs_sched_id *)ecs_sched_ctx_user_data(ctx));
    printf("hello, frame %d\n", ++frames->count);
    if (frames->count == 3) ecs_sched_ctx_request_exit(ctx, 0);
}

int main(void) {
    ecs_sched_app *app = ecs_sched_app_create(NULL);
    ecs_sched_world *w = ecs_sched_app_world(app);
    ecs_sched_id frames = ECS_SCHED_COMPONENT(w, Frames);
    int32_t exit_code = 1;
    ecs_sched_resource_insert(w, frames, NULL);
    ecs_sched_add_system(w, ECS_SCHED_UPDATE, &(ecs_sched_system_desc){
        .name = "say_hello", .fn = say_hello, .user_data = &frames,
        .writes = {frames, ecs_sched_app_exit_id(w)},
    });
    if (ecs_sched_app_run(app, NULL, &exit_code) != ECS_SCHED_OK) {
        fprintf(stderr, "%s\n", ecs_sched_last_error(w));
    }
    ecs_sched_app_destroy(app);
    return exit_code;
}
