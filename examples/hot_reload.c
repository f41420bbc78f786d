/* Hot reload of C code: a ship's steering lives in a shared library that the game loads with
   the native driver (ECS_SCHED_NATIVE_SCRIPTS). Three frames in, the game rewrites the
   library's source and rebuilds it, as you would from your editor; the app, which watches its
   scripts, loads the new build before the next frame, and the ship keeps its heading.

   Built like any example (the Makefile links it with -rdynamic, which lets the library call
   the game's ecs_sched_* functions); run from the repository root: it compiles the library
   with $CC (default cc) and -I. to find ecs_sched.h. POSIX only (dlopen). */
#define ECS_SCHED_NATIVE_SCRIPTS
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct { int degrees; } Heading;

/* The library's source: `turn` degrees per frame. */
static void write_steering(const char *path, int turn) {
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fprintf(f,
            "#include \"ecs_sched.h\"\n"
            "typedef struct { int degrees; } Heading;\n"
            "static void steer(ecs_sched_system_ctx *ctx) {\n"
            "    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);\n"
            "    while (ecs_sched_iter_next(&it)) {\n"
            "        Heading *h = (Heading *)it.fields[0];\n"
            "        for (int32_t i = 0; i < it.count; i++) h[i].degrees += %d;\n"
            "    }\n"
            "}\n"
            "ECS_SCHED_NATIVE_SCRIPT(script) {\n"
            "    return ecs_sched_script_add_system(script, \"Update\", &(ecs_sched_system_desc){\n"
            "        .name = \"steer\", .fn = steer, .query_text = \"Heading\"}, 0);\n"
            "}\n",
            turn);
    fclose(f);
}

static void build_steering(const char *source, const char *library) {
    char command[2048];
    const char *cc = getenv("CC");
    snprintf(command, sizeof command,
             "%s -std=c99 -shared -fPIC -DECS_SCHED_NATIVE_SCRIPTS -I. %s -o %s",
             cc && cc[0] ? cc : "cc", source, library);
    if (system(command) != 0) {
        fprintf(stderr, "building the steering library failed: %s\n", command);
        exit(1);
    }
}

int main(int argc, char **argv) {
    char source[1024], library[1024];
    const char *self = argc > 0 ? argv[0] : "hot_reload";   /* files next to the program */
    ecs_sched_app *app = ecs_sched_app_create(NULL);
    ecs_sched_world *w = ecs_sched_app_world(app);
    ecs_sched_script_driver native = ecs_sched_native_script_driver();
    ecs_sched_id heading = ECS_SCHED_COMPONENT(w, Heading);
    ecs_sched_entity ship = ecs_sched_spawn(w);
    ecs_sched_script *steering;
    int frame;

    snprintf(source, sizeof source, "%s.steering.c", self);
    snprintf(library, sizeof library, "%s.steering.so", self);
    ecs_sched_insert(w, ship, heading, &(Heading){0});
    ecs_sched_script_driver_add(w, &native);
    write_steering(source, 10);
    build_steering(source, library);
    steering = ecs_sched_script_load(w, library);
    if (!steering) {
        fprintf(stderr, "%s\n", ecs_sched_last_error(w));
        return 1;
    }
    ecs_sched_app_watch_scripts(app, true);

    for (frame = 1; frame <= 6; frame++) {
        if (frame == 4) {   /* "edit and rebuild": turn the other way */
            write_steering(source, -5);
            build_steering(source, library);
        }
        if (ecs_sched_app_update(app) != ECS_SCHED_OK) {
            fprintf(stderr, "%s\n", ecs_sched_last_error(w));
            return 1;
        }
        printf("frame %d: steering version %d, heading %d\n", frame,
               (int)ecs_sched_script_version(steering),
               ((const Heading *)ecs_sched_get(w, ship, heading))->degrees);
    }
    ecs_sched_app_destroy(app);
    remove(source);
    remove(library);
    return 0;
}
