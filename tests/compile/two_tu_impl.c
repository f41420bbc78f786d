/* two_tu_impl.c - the library's implementation alone in its own translation unit; the API is
   used from two_tu_main.c. Build both and link them:

     cc -std=c99 -Wall -Wextra -Wpedantic -Werror -I. $(pkg-config --cflags stb) \
        tests/compile/two_tu_main.c tests/compile/two_tu_impl.c $(pkg-config --libs stb) \
        -o build/two_tu && build/two_tu

   (cc: gcc and clang.) */
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"
