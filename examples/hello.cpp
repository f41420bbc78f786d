/* hello.cpp - hello.c written in C++: the same app, the same output.

   Build and run from the repository root (the header and stb_ds.h from libstb-dev):

       c++ -std=c++11 -O2 -Wall -Wextra -I. $(pkg-config --cflags stb) examples/hello.cpp \
           $(pkg-config --libs stb) -o hello_cpp && ./hello_cpp

   What differs from C: C++ before C++20 has no designated initializers, and C++ has no
   compound literals, so a desc is declared zeroed with {} and its fields are assigned one by
   one (a zero field still means "the default"); a void * result needs a cast. With C++20,
   designated initializers work too, in the order the fields are declared:
       ecs_sched_system_desc desc{.name = "say_hello", .fn = say_hello};
   and g++ then needs -Wno-missing-field-initializers under -Wextra. */
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <cstdio>

struct Frames {   // a resource
    int count;
};

static ecs_sched_id frames_id;

static void say_hello(ecs_sched_system_ctx *ctx) {
    Frames *frames = static_cast<Frames *>(ecs_sched_ctx_resource_mut(ctx, frames_id));
    std::printf("hello, frame %d\n", ++frames->count);
    if (frames->count == 3) ecs_sched_ctx_request_exit(ctx, 0);
}

int main() {
    ecs_sched_app *app = ecs_sched_app_create(NULL);
    ecs_sched_world *w = ecs_sched_app_world(app);
    int32_t exit_code = 1;
    frames_id = ECS_SCHED_COMPONENT(w, Frames);
    ecs_sched_resource_insert(w, frames_id, NULL);

    ecs_sched_system_desc desc{};   // zeroed: every field its default
    desc.name = "say_hello";
    desc.fn = say_hello;
    desc.writes[0] = frames_id;     // what it touches
    desc.writes[1] = ecs_sched_app_exit_id(w);
    ecs_sched_add_system(w, ECS_SCHED_UPDATE, &desc);

    if (ecs_sched_app_run(app, NULL, &exit_code) != ECS_SCHED_OK) {
        std::fprintf(stderr, "hello: %s\n", ecs_sched_last_error(w));
        exit_code = 1;
    }
    ecs_sched_app_destroy(app);
    return exit_code;
}
