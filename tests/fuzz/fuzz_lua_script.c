/* A libFuzzer target for the Lua driver: any bytes, read as the text of a Lua script by a world
   with the driver (ECS_SCHED_LUA), a C component or two and a few entities. The script is
   loaded; when the input holds the line "--@@", the text before it is the first version and
   the text after it the second, else the same text is loaded twice. Each version's systems
   (schedules "Update" and "PostUpdate") run twice under a small instruction budget, the script
   is reloaded, run, unloaded, and the world is destroyed. The world must stay consistent and
   every failure (of the load, a reload, a system) must be an error, never a crash or a leak.

   Built against Lua 5.4: its states allocate through the world's allocator, where ASan sees
   every block a script makes and this target caps their size (LuaJIT's own allocator maps its
   memory itself, out of ASan's sight). make fuzz-lua_script-smoke (a short seeded run
   over tests/fuzz/corpus/lua_script); make fuzz-lua_script (a minute). */
#define _POSIX_C_SOURCE 200809L
/* Built by make against the fuzz targets' shared implementation object, which has every
   optional module (the Makefile's fuzzing section). */
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct { float x, y; } Position;
typedef struct { float x, y; } Velocity;

/* One block larger than this is refused: a script that builds a huge string or table within
   its budget gets Lua's "not enough memory" error, which is a failure like any other. */
#define FUZZ_LARGEST_BLOCK ((size_t)1 << 24)

static char script_path[256];

static void *capped_realloc(void *ptr, size_t size, void *user_data) {
    (void)user_data;
    if (size > FUZZ_LARGEST_BLOCK) return NULL;
    return realloc(ptr, size);
}

static void plain_free(void *ptr, void *user_data) {
    (void)user_data;
    free(ptr);
}

/* Failures are what most inputs give: kept quiet, the messages are still built. With
   FUZZ_LUA_VERBOSE set in the environment they are printed (to see what a seed does:
   FUZZ_LUA_VERBOSE=1 ./fuzz_lua_script tests/fuzz/corpus/lua_script/observers.lua). */
static void quiet(ecs_sched_log_level level, ecs_sched_result result, const char *message,
                  void *user_data) {
    static int verbose = -1;
    (void)level;
    (void)result;
    (void)user_data;
    if (verbose < 0) verbose = getenv("FUZZ_LUA_VERBOSE") != NULL;
    if (verbose) fprintf(stderr, "%s\n", message);
}

static char script_dir[64];

static void remove_script_dir(void) {
    remove(script_path);
    rmdir(script_dir);
}

/* The directory the scripts are written to, made once per process. */
static void make_script_dir(void) {
    if (script_path[0]) return;
    snprintf(script_dir, sizeof script_dir, "/tmp/fuzz_lua_script.XXXXXX");
    if (!mkdtemp(script_dir)) {
        perror("mkdtemp");
        abort();
    }
    snprintf(script_path, sizeof script_path, "%s/script.lua", script_dir);
    atexit(remove_script_dir);
}

static void write_script(const char *text, size_t size) {
    FILE *f = fopen(script_path, "wb");
    if (!f || fwrite(text, 1, size, f) != size || fclose(f) != 0) {
        perror(script_path);
        abort();
    }
}

static void check(ecs_sched_world *w, const char *what) {
    if (ecs_sched_world_check(w) != ECS_SCHED_OK) {
        fprintf(stderr, "world inconsistent after %s: %s\n", what, ecs_sched_last_error(w));
        abort();
    }
}

/* With clocks unless the input's size is a multiple of 4: a script that reads it.dt in a world
   without clocks fails its system, which is a path to cover too. */
static ecs_sched_world *fuzz_world(bool clocks) {
    static const ecs_sched_member position[] = {ECS_SCHED_MEMBER(Position, x, ECS_SCHED_TYPE_F32),
                                                ECS_SCHED_MEMBER(Position, y, ECS_SCHED_TYPE_F32)};
    static const ecs_sched_member velocity[] = {ECS_SCHED_MEMBER(Velocity, x, ECS_SCHED_TYPE_F32),
                                                ECS_SCHED_MEMBER(Velocity, y, ECS_SCHED_TYPE_F32)};
    ecs_sched_world_desc desc;
    ecs_sched_lua_desc lua;
    ecs_sched_script_driver driver;
    ecs_sched_world *w;
    ecs_sched_id ids[2];
    int i;
    memset(&desc, 0, sizeof desc);
    desc.allocator.realloc_fn = capped_realloc;
    desc.allocator.free_fn = plain_free;
    desc.logger.fn = quiet;
    desc.on_error = ECS_SCHED_ON_ERROR_CONTINUE;   /* a failing system leaves the others to run */
    w = ecs_sched_world_create(&desc);
    if (!w) abort();
    if (clocks && ecs_sched_time_setup(w, NULL) != ECS_SCHED_OK) abort();
    ids[0] = ECS_SCHED_COMPONENT(w, Position);
    ids[1] = ECS_SCHED_COMPONENT(w, Velocity);
    ecs_sched_describe(w, ids[0], 2, position);
    ecs_sched_describe(w, ids[1], 2, velocity);
    for (i = 0; i < 3; i++) {
        Position p = {(float)i, 0};
        Velocity v = {1, (float)-i};
        const void *values[2];
        values[0] = &p;
        values[1] = &v;
        ecs_sched_spawn_with(w, 2 - (i == 2), ids, values);   /* the last has no Velocity */
    }
    memset(&lua, 0, sizeof lua);
    lua.instruction_budget = 5000;
    driver = ecs_sched_lua_script_driver(&lua);
    if (ecs_sched_script_driver_add(w, &driver) != ECS_SCHED_OK) abort();
    return w;
}

/* Runs what the script's systems may have been added to, twice: the second run sees what the
   first one's commands spawned. */
static void run_schedules(ecs_sched_world *w, const char *what) {
    int i;
    for (i = 0; i < 2; i++) {
        ecs_sched_time_advance_by(w, 16000000);   /* (fails without clocks: nothing to do) */
        ecs_sched_run_schedule(w, "Update");
        ecs_sched_run_schedule(w, "PostUpdate");
        ecs_sched_clear_error(w);
        check(w, what);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const char separator[] = "\n--@@\n";
    const char *text = (const char *)data, *second = text, *split = NULL;
    size_t first_size = size, second_size = size, i;
    ecs_sched_world *w;
    ecs_sched_script *script;
    make_script_dir();
    for (i = 0; i + sizeof separator - 1 <= size; i++) {
        if (memcmp(text + i, separator, sizeof separator - 1) == 0) {
            split = text + i;
            break;
        }
    }
    if (split) {
        first_size = (size_t)(split - text) + 1;
        second = split + sizeof separator - 1;
        second_size = size - (size_t)(second - text);
    }
    w = fuzz_world(size % 4 != 0);
    write_script(text, first_size);
    script = ecs_sched_script_load(w, script_path);
    check(w, "the load");
    if (script) {
        run_schedules(w, "the first version's runs");
        write_script(second, second_size);
        ecs_sched_script_reload(w, script);
        check(w, "the reload");
        run_schedules(w, "the runs after the reload");
        ecs_sched_script_unload(w, script);
        check(w, "the unload");
        run_schedules(w, "the runs after the unload");
    }
    ecs_sched_world_destroy(w);
    return 0;
}
