/* tour_commands.c - command buffers, errors, the allocator and logger hooks, and how the
   library shares stb_ds with your program.

   The tour has six files; read them in this order:
     tour_world.c      the world: components, entities, resources, queries
     tour_commands.c   command buffers, errors, allocator and logger hooks, stb_ds (this file)
     tour_schedules.c  systems, sets, order, run conditions, sync points, the executor
     tour_threads.c    the thread pool, the parallel executor, parallel queries
     tour_states.c     state machines
     tour_app.c        the app, time, the fixed step, plugins

   Each prints what it shows and exits with status 1 if something it claims does not hold.

   This file also compiles stb_ds's implementation itself (the second of the two ways to get
   it, see the end of the tour), with stb_ds's allocations routed through the library, so it
   needs no -lstb. Build and run from the repository root (the header, and stb_ds.h from
   libstb-dev):

       cc -std=c99 -O2 -I. $(pkg-config --cflags stb) examples/tour_commands.c \
          -o tour_commands && ./tour_commands
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ==== Compile-time configuration =========================================================

   Configuration macros are defined before the header is included. ECS_SCHED_REALLOC and
   ECS_SCHED_FREE (define both or neither) replace realloc and free for every world created
   without an allocator of its own, and for stb_ds when it is routed through the library (as
   below). This pair counts the blocks it holds, so the end of the tour can show that every
   one was given back. */
static long compile_time_blocks;

static void *counting_realloc_ct(void *ptr, size_t size) {
    void *result = realloc(ptr, size);
    if (result && !ptr) compile_time_blocks++;
    return result;
}

static void counting_free_ct(void *ptr) {
    if (ptr) compile_time_blocks--;
    free(ptr);
}

#define ECS_SCHED_REALLOC(ptr, size) counting_realloc_ct((ptr), (size))
#define ECS_SCHED_FREE(ptr) counting_free_ct(ptr)

/* stb_ds's allocations go through the library's bridge (explained at the end of the tour).
   These two macros must be the same in every file of the program that includes stb_ds.h. */
#define STBDS_REALLOC(context, ptr, size) ecs_sched_stbds_realloc((context), (ptr), (size))
#define STBDS_FREE(context, ptr) ecs_sched_stbds_free((context), (ptr))

#include "ecs_sched.h"          /* the public part: declares the two bridge functions */
#define STB_DS_IMPLEMENTATION   /* stb_ds's code, compiled once in the program: here */
#include "stb_ds.h"             /* before the implementation: arrput & co. stay usable here */
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"          /* the implementation, which uses the inclusion above */

typedef struct { float x, y; } Position;
typedef struct { float x, y; } Velocity;
typedef struct { float dt; int frame; } Time;

static int failures;
#define CHECK(cond)                                                             \
    do {                                                                        \
        if (!(cond)) {                                                          \
            printf("CHECK FAILED, line %d: %s\n", __LINE__, #cond);             \
            failures++;                                                         \
        }                                                                       \
    } while (0)

static void section(const char *title) {
    printf("\n== %s\n", title);
}

/* The first world's logger prints errors and counts them: every failure below is sent to it. */
static int errors_logged;

static void print_errors(ecs_sched_log_level level, ecs_sched_result result, const char *message,
                         void *user_data) {
    (void)user_data;
    if (level < ECS_SCHED_LOG_ERROR) return;
    errors_logged++;
    printf("  log: [%s] %s\n", ecs_sched_result_string(result), message);
}

/* ---- Allocator and logger hooks (third part) ----

   A world can have its own allocator and logger, given in ecs_sched_world_desc. This one
   counts the blocks the world holds, and can be told to fail, to show that a failed
   allocation is an error the world survives. */
typedef struct { long blocks; bool fail; } Stats;

static void *counting_realloc(void *ptr, size_t size, void *user_data) {
    Stats *stats = user_data;
    if (stats->fail) return NULL;               /* NULL is a failure the world survives */
    void *result = realloc(ptr, size);          /* never asked for 0 bytes */
    if (result && !ptr) stats->blocks++;
    return result;
}

static void counting_free(void *ptr, void *user_data) {
    if (ptr) ((Stats *)user_data)->blocks--;
    free(ptr);
}

/* The logger gets every message of the world with the result code it is about: the
   failure's code for an error, the rule's code for a warning (ECS_SCHED_ERR_AMBIGUITY for an
   ambiguity report), ECS_SCHED_OK for anything else. Filter by code, not by text. */
static int ambiguities_filtered;

static void log_to_stdout(ecs_sched_log_level level, ecs_sched_result result,
                          const char *message, void *user_data) {
    (void)user_data;
    if (result == ECS_SCHED_ERR_AMBIGUITY) {
        ambiguities_filtered++;
        return;
    }
    if (level >= ECS_SCHED_LOG_WARN) printf("  [ecs] %s\n", message);
}

static void nothing(ecs_sched_system_ctx *ctx) {
    (void)ctx;
}

/* ---- Failures inside systems (the systems) ---- */

static ecs_sched_entity doomed;
static ecs_sched_id doomed_pos;

static void cleanup(ecs_sched_system_ctx *ctx) {            /* exclusive */
    ecs_sched_despawn(ecs_sched_ctx_world(ctx), doomed);
}

static void late_insert(ecs_sched_system_ctx *ctx) {        /* exclusive, after cleanup */
    ecs_sched_insert(ecs_sched_ctx_world(ctx), doomed, doomed_pos, &(Position){0, 0});
    /* the result is ignored, as most game code would: the failure is this system's */
}

static void careful_insert(ecs_sched_system_ctx *ctx) {     /* the same, handled */
    if (ecs_sched_insert(ecs_sched_ctx_world(ctx), doomed, doomed_pos, &(Position){0, 0}) !=
        ECS_SCHED_OK) {
        ecs_sched_ctx_clear_error(ctx);   /* "I dealt with it": not a failure of the system */
    }
}

static void out_of_ammo(ecs_sched_system_ctx *ctx) {
    ecs_sched_ctx_fail(ctx, ECS_SCHED_ERR_SYSTEM_FAILED, "no ammo left for %s", "the cannon");
}

static void reload(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    printf("  reload runs\n");
}

/* An error hook, as a game would have one: log, and go on. */
static ecs_sched_failure_action log_and_go_on(const ecs_sched_failure *failure, void *user_data) {
    (void)user_data;
    printf("  hook: [%s] %s\n", ecs_sched_result_string(failure->code), failure->message);
    return ECS_SCHED_FAILURE_IGNORE;
}

int main(void) {
    printf("ecs_sched %s: a tour of commands, errors and hooks\n", ECS_SCHED_VERSION_STRING);

    ecs_sched_world_desc desc = {0};
    desc.logger.fn = print_errors;
    ecs_sched_world *w = ecs_sched_world_create(&desc);
    if (!w) return 1;
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_id vel = ECS_SCHED_COMPONENT(w, Velocity);
    ecs_sched_id enemy = ECS_SCHED_TAG(w, Enemy);
    ecs_sched_id time_id = ECS_SCHED_COMPONENT(w, Time);
    ecs_sched_resource_insert(w, time_id, &(Time){1.0f / 60, 0});
    Position p = {1, 2};
    Velocity v = {0, -1};
    const ecs_sched_id ids[] = {pos, vel};
    const void *values[] = {&p, &v};
    ecs_sched_entity b = ecs_sched_spawn_with(w, 2, ids, values);

    /* ==== Command buffers ================================================================

       A command buffer records structural changes (spawn, despawn, insert, remove, set
       resource) to apply later, typically while a query is being iterated, when the tables
       must not change. */
    section("Command buffers");
    ecs_sched_commands *cmd = ecs_sched_commands_create(w);
    CHECK(cmd != NULL);
    if (!cmd) return 1;

    ecs_sched_entity bullet = ecs_sched_commands_spawn(cmd);         /* handle reserved now */
    ecs_sched_commands_insert(cmd, bullet, pos, &(Position){0, 0});  /* usable right away */
    ecs_sched_commands_insert(cmd, bullet, vel, &(Velocity){9, 0});
    ecs_sched_commands_despawn(cmd, b);
    ecs_sched_commands_insert(cmd, b, enemy, NULL);                  /* b is dead by then */
    ecs_sched_commands_set_resource(cmd, time_id, &(Time){1.0f / 30, 0});
    CHECK(bullet != ECS_SCHED_NULL_ENTITY && !ecs_sched_is_alive(w, bullet));
    printf("recorded %d commands; bullet alive yet: %s\n", (int)ecs_sched_commands_pending(cmd),
           ecs_sched_is_alive(w, bullet) ? "yes" : "no");
    CHECK(ecs_sched_commands_pending(cmd) == 6);

    if (ecs_sched_commands_apply(cmd) != ECS_SCHED_OK)    /* in recorded order */
        printf("%s\n", ecs_sched_last_error(w));
    printf("applied: pending %d, skipped %d, bullet alive: %s, b alive: %s\n",
           (int)ecs_sched_commands_pending(cmd),             /* 0: apply consumes */
           (int)ecs_sched_commands_skipped(cmd),             /* 1: the insert on dead b */
           ecs_sched_is_alive(w, bullet) ? "yes" : "no",     /* yes */
           ecs_sched_is_alive(w, b) ? "yes" : "no");         /* no */
    CHECK(ecs_sched_commands_pending(cmd) == 0);
    CHECK(ecs_sched_commands_skipped(cmd) == 1);
    CHECK(ecs_sched_is_alive(w, bullet) && !ecs_sched_is_alive(w, b));
    {
        const Velocity *bv = ecs_sched_get(w, bullet, vel);
        const Time *rt = ecs_sched_resource_get(w, time_id);
        CHECK(bv && bv->x == 9.0f);
        CHECK(rt && rt->dt == 1.0f / 30);
        CHECK(ecs_sched_commands_apply(cmd) == ECS_SCHED_OK); /* nothing left to apply */
        CHECK(ecs_sched_commands_skipped(cmd) == 0);
    }

    /* The rules:

       - Order. Commands are applied in the order they were recorded.
       - Reserved handles. ecs_sched_commands_spawn returns the new handle at once; later
         commands of the same buffer may use it. The entity is not alive until the buffer is
         applied. ecs_sched_commands_spawn_with records the spawn and its components in one
         call, like ecs_sched_spawn_with; a spawn and the inserts that follow it cost one
         archetype move when applied.
       - Values are copied when recorded, so the value you pass may be a temporary.
       - Skipped commands. A command aimed at an entity that is dead when its turn comes is
         skipped, not an error; ecs_sched_commands_skipped counts those of the last apply.
       - Apply consumes. Applied commands leave the buffer. If an apply fails, the commands not
         yet applied stay pending, and the next apply continues from there; none is applied
         twice.
       - Destroying a buffer (ecs_sched_commands_destroy, or with the world) drops its pending
         commands and releases the handles they reserved.

       The usual pattern: iterate, record, apply. Here ten rocks fall; whatever reaches the
       ground is despawned and replaced by a marker, both recorded while the query runs. */
    {
        Position row[10];
        for (int i = 0; i < 10; i++) row[i] = (Position){(float)i, (float)i};
        ecs_sched_entity rocks[10];
        const void *arrays[] = {row, NULL};
        CHECK(ecs_sched_spawn_batch(w, 10, 2, ids, arrays, rocks) == ECS_SCHED_OK);

        ecs_sched_query *falling = ecs_sched_query_create(w, &(ecs_sched_query_desc){{
            ecs_sched_write(pos), ecs_sched_read(vel)}});
        int32_t before = ecs_sched_entity_count(w);
        ecs_sched_iter it = ecs_sched_query_iter(falling);
        while (ecs_sched_iter_next(&it)) {
            Position *rp = ECS_SCHED_FIELD(&it, Position, 0);
            for (int32_t i = 0; i < it.count; i++) {
                rp[i].y -= 3;
                if (rp[i].y > 0) continue;
                ecs_sched_commands_despawn(cmd, it.entities[i]);
                const ecs_sched_id marker_ids[] = {pos, enemy};
                const void *marker_values[] = {&(Position){rp[i].x, 0}, NULL};
                ecs_sched_commands_spawn_with(cmd, 2, marker_ids, marker_values);
            }
        }
        printf("recorded while iterating: %d commands\n", (int)ecs_sched_commands_pending(cmd));
        CHECK(ecs_sched_commands_apply(cmd) == ECS_SCHED_OK);
        /* rocks 0..3 reached the ground (and so did the bullet, at y = 0) */
        printf("after apply: %d entities (was %d), %d still falling\n",
               (int)ecs_sched_entity_count(w), (int)before,
               (int)ecs_sched_query_count(falling));
        CHECK(ecs_sched_entity_count(w) == before);
        CHECK(!ecs_sched_is_alive(w, rocks[3]) && ecs_sched_is_alive(w, rocks[4]));
        CHECK(ecs_sched_query_count(falling) == 6);

        /* remove, and a buffer destroyed before it is applied */
        ecs_sched_commands_remove(cmd, rocks[4], vel);
        ecs_sched_commands *dropped = ecs_sched_commands_create(w);
        ecs_sched_entity never = ecs_sched_commands_spawn(dropped);
        ecs_sched_commands_destroy(dropped);        /* the reserved handle is released */
        CHECK(ecs_sched_commands_apply(cmd) == ECS_SCHED_OK);
        CHECK(!ecs_sched_has(w, rocks[4], vel) && !ecs_sched_is_alive(w, never));
        CHECK(ecs_sched_entity_count(w) == before);
        printf("rock 4 lost its velocity; %d still falling\n",
               (int)ecs_sched_query_count(falling));
    }

    /* ==== Errors =========================================================================

       One rule for every public function (the ERRORS section of the header's documentation
       block says it in full; tests/test_error_rule.c pins it down):

       1. A call that does something and returns nothing else returns an ecs_sched_result
          (ECS_SCHED_OK is 0, otherwise the failure's code).
       2. A call that makes or finds something returns it, or NULL / 0 /
          ECS_SCHED_NULL_ENTITY.
       3. A call that returns a count returns -1 (ecs_sched_schedule_order).
       4. A question (is_alive, has, resource_exists, schedule_exists, component_lookup, ...)
          never fails and records nothing: what is missing is simply not there.
       5. A failure of 1-3 is recorded in the world (ecs_sched_last_result,
          ecs_sched_last_error, a message that names the culprit) until the next failure or
          ecs_sched_clear_error, and sent to the world's logger at ECS_SCHED_LOG_ERROR level
          with its code.
       6. Programmer errors with nothing to report assert (ECS_SCHED_ASSERT): a NULL world,
          query, command buffer, context or pool, or a NULL function given to the pool or a
          par_iter call. Every other bad argument is a failure of rule 5.
       7. A system's undeclared access is refused at the call, and is a failure of the
          system (below; tour_schedules.c shows one).

       A failed call, out of memory included, leaves the world as it was. */
    section("Errors");
    errors_logged = 0;

    /* rule 1, and what rule 5 records */
    printf("insert on despawned b:\n");
    if (ecs_sched_insert(w, b, pos, &p) != ECS_SCHED_OK) {              /* b was despawned */
        printf("last error:  %s\n", ecs_sched_last_error(w));           /* names entity, call */
        printf("result text: %s\n", ecs_sched_result_string(ecs_sched_last_result(w)));
    }
    CHECK(ecs_sched_last_result(w) == ECS_SCHED_ERR_STALE_ENTITY);

    /* the record stays until the next failure: a success does not clear it */
    CHECK(ecs_sched_resource_insert(w, time_id, &(Time){1.0f / 60, 1}) == ECS_SCHED_OK);
    CHECK(ecs_sched_last_result(w) == ECS_SCHED_ERR_STALE_ENTITY);
    ecs_sched_clear_error(w);                                           /* back to "" and OK */
    CHECK(ecs_sched_last_result(w) == ECS_SCHED_OK && ecs_sched_last_error(w)[0] == '\0');

    /* rule 2: a find that fails */
    printf("get on despawned b:\n");
    CHECK(ecs_sched_get(w, b, pos) == NULL);

    /* rule 3: a count that fails */
    printf("the order of a schedule that does not exist:\n");
    {
        const char *names[4];
        CHECK(ecs_sched_schedule_order(w, "Nowhere", names, 4) == -1);
        CHECK(ecs_sched_last_result(w) == ECS_SCHED_ERR_UNKNOWN_SCHEDULE);
    }

    /* rule 4: questions never fail and record nothing */
    ecs_sched_clear_error(w);
    CHECK(!ecs_sched_is_alive(w, b) && !ecs_sched_has(w, b, pos));
    CHECK(ecs_sched_component_lookup(w, "Nothing") == 0);
    CHECK(!ecs_sched_resource_exists(w, enemy) && !ecs_sched_schedule_exists(w, "Nowhere"));
    CHECK(ecs_sched_last_result(w) == ECS_SCHED_OK);
    printf("questions asked: last result still \"%s\"\n",
           ecs_sched_result_string(ecs_sched_last_result(w)));

    /* a failed call leaves the world as it was: a batch with an unknown id spawns nothing */
    printf("a batch naming an unknown component:\n");
    {
        int32_t before = ecs_sched_entity_count(w);
        const ecs_sched_id bad[] = {pos, 999};
        CHECK(ecs_sched_spawn_batch(w, 5, 2, bad, NULL, NULL) == ECS_SCHED_ERR_UNKNOWN_COMPONENT);
        CHECK(ecs_sched_entity_count(w) == before);
    }
    CHECK(errors_logged == 4);   /* each failure above went to the logger once */
    CHECK(ecs_sched_world_check(w) == ECS_SCHED_OK);

    /* The codes of the world: ECS_SCHED_ERR_OUT_OF_MEMORY, _INVALID_ARGUMENT, _STALE_ENTITY,
       _UNKNOWN_COMPONENT, _COMPONENT_MISMATCH, _MISSING_COMPONENT, _MISSING_RESOURCE,
       _INVALID_QUERY, _LIMIT, _INCONSISTENT (from ecs_sched_world_check, which cross-checks
       the world's internal structures). Those of scheduling: _ACCESS, _UNKNOWN_SCHEDULE,
       _RECURSIVE_RUN, _SCHEDULE_RUNNING, and the build errors (tour_schedules.c). */

    /* ==== Failures inside systems ========================================================

       A system is a void function; it fails by leaving a failed call unhandled (the call is
       recorded on its context), or with ecs_sched_ctx_fail. ecs_sched_ctx_clear_error says
       it handled a failure. The run returns the failure first in plan order, its message
       naming the system and the schedule, whichever executor ran it; the policy decides
       what the run does meanwhile (the header's ERRORS section has the whole rule). */
    section("Failures inside systems");
    doomed = ecs_sched_spawn(w);
    doomed_pos = pos;
    ecs_sched_add_system(w, "Frame", &(ecs_sched_system_desc){
        .name = "cleanup", .fn = cleanup, .exclusive = true});
    ecs_sched_add_system(w, "Frame", &(ecs_sched_system_desc){
        .name = "late_insert", .fn = late_insert, .exclusive = true, .after = {"cleanup"}});
    ecs_sched_add_system(w, "Frame", &(ecs_sched_system_desc){
        .name = "reload", .fn = reload, .after = {"late_insert"}});
    printf("a system inserts on an entity despawned earlier in the frame:\n");
    ecs_sched_result r = ecs_sched_run_schedule(w, "Frame");
    CHECK(r == ECS_SCHED_ERR_STALE_ENTITY);   /* and reload did not run: the policy is STOP */
    printf("the run returns: %s\n", ecs_sched_last_error(w));
    CHECK(strstr(ecs_sched_last_error(w), "system 'late_insert' in schedule 'Frame'") != NULL);

    doomed = ecs_sched_spawn(w);
    ecs_sched_add_system(w, "Careful", &(ecs_sched_system_desc){
        .name = "cleanup", .fn = cleanup, .exclusive = true});
    ecs_sched_add_system(w, "Careful", &(ecs_sched_system_desc){
        .name = "careful_insert", .fn = careful_insert, .exclusive = true,
        .after = {"cleanup"}});
    CHECK(ecs_sched_run_schedule(w, "Careful") == ECS_SCHED_OK);   /* handled: no failure */

    /* CONTINUE runs every system and returns the first failure; a schedule can choose its
       own policy. An error hook sees every failure and decides (stop, continue, ignore). */
    ecs_sched_schedule_configure(w, "Armory", &(ecs_sched_schedule_desc){
        .on_error = ECS_SCHED_ON_ERROR_CONTINUE});
    ecs_sched_add_systems(w, "Armory", &(ecs_sched_systems_desc){
        .systems = (ecs_sched_system_desc[]){{.name = "fire", .fn = out_of_ammo},
                                             {.name = "reload", .fn = reload}},
        .count = 2, .chain = true});
    printf("under CONTINUE:\n");
    CHECK(ecs_sched_run_schedule(w, "Armory") == ECS_SCHED_ERR_SYSTEM_FAILED);
    CHECK(ecs_sched_world_set_error_policy(w, ECS_SCHED_ON_ERROR_HOOK,
                                           (ecs_sched_error_hook){log_and_go_on, NULL}) ==
          ECS_SCHED_OK);
    ecs_sched_schedule_configure(w, "Armory", &(ecs_sched_schedule_desc){0});   /* the world's */
    printf("with a hook that logs and goes on:\n");
    CHECK(ecs_sched_run_schedule(w, "Armory") == ECS_SCHED_OK);
    ecs_sched_world_destroy(w);   /* the command buffer and the query go with it */

    /* ==== Allocator and logger hooks =====================================================

       ecs_sched_world_desc gives each world its own allocator (used when both functions are
       set), its own logger, and room for entities up front. */
    section("Allocator and logger hooks");
    Stats stats = {0, false};
    w = ecs_sched_world_create(&(ecs_sched_world_desc){
        .allocator = {.realloc_fn = counting_realloc, .free_fn = counting_free,
                      .user_data = &stats},
        .logger = {.fn = log_to_stdout},
        .entity_capacity = 10000,                   /* room for 10000 entities up front */
    });
    CHECK(w != NULL && stats.blocks > 0);
    if (!w) return 1;
    printf("the new world holds %ld blocks of its allocator\n", stats.blocks);

    printf("despawning the null entity:\n");
    CHECK(ecs_sched_despawn(w, ECS_SCHED_NULL_ENTITY) != ECS_SCHED_OK);   /* to log_to_stdout */

    /* A build warning about an ambiguity (see tour_schedules.c) reaches the logger with the
       code ECS_SCHED_ERR_AMBIGUITY, which log_to_stdout drops. (Ids belong to one world:
       this one registers Position for itself.) */
    pos = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_add_system(w, "Draw", &(ecs_sched_system_desc){
        .name = "push", .fn = nothing, .queries = {{{ecs_sched_write(pos)}}}});
    ecs_sched_add_system(w, "Draw", &(ecs_sched_system_desc){
        .name = "draw", .fn = nothing, .queries = {{{ecs_sched_read(pos)}}}});
    CHECK(ecs_sched_schedule_build(w, "Draw") == ECS_SCHED_OK);
    CHECK(ambiguities_filtered == 1);
    printf("ambiguity warnings filtered by code: %d\n", ambiguities_filtered);

    /* Out of memory: the allocator returns NULL. The call fails with
       ECS_SCHED_ERR_OUT_OF_MEMORY, and the world is as it was before the call. */
    printf("spawning 20000 entities while the allocator fails:\n");
    {
        int32_t before = ecs_sched_entity_count(w);
        stats.fail = true;
        ecs_sched_result r = ecs_sched_spawn_batch(w, 20000, 1, &pos, NULL, NULL);
        stats.fail = false;
        CHECK(r == ECS_SCHED_ERR_OUT_OF_MEMORY);
        CHECK(ecs_sched_entity_count(w) == before);
        CHECK(ecs_sched_world_check(w) == ECS_SCHED_OK);
        CHECK(ecs_sched_spawn_batch(w, 20000, 1, &pos, NULL, NULL) == ECS_SCHED_OK);
        printf("and again with memory: %d entities\n", (int)ecs_sched_entity_count(w));
    }
    ecs_sched_world_destroy(w);
    CHECK(stats.blocks == 0);
    printf("destroyed: %ld blocks left\n", stats.blocks);

    /* ==== stb_ds and allocation failures =================================================

       stb_ds cannot recover from a failed allocation (it writes through the pointer its
       realloc returned). So the library keeps everything that grows while a program runs
       (the entity index, the table columns, the command buffers) in its own checked
       allocations, through the hooks above, and uses stb_ds only for its map of component
       names.

       If you compile stb_ds's implementation yourself, as this file does, you can route
       stb_ds's allocations through the library, so that a failure is logged and ends the
       process with ECS_SCHED_ABORT() instead of a write through NULL:

           #include "ecs_sched.h"   // declares ecs_sched_stbds_realloc and _free
           #define STBDS_REALLOC(c, p, s) ecs_sched_stbds_realloc(c, p, s)
           #define STBDS_FREE(c, p)       ecs_sched_stbds_free(c, p)
           #define STB_DS_IMPLEMENTATION
           #include "stb_ds.h"

       The two functions allocate with ECS_SCHED_REALLOC / ECS_SCHED_FREE (here, the counting
       pair at the top). stb_ds's arrfree is a macro that calls STBDS_FREE where it is used,
       so define the two STBDS_ macros the same way in every file that includes stb_ds.h,
       the library's implementation file included.

       The library's implementation includes stb_ds.h with STBDS_NO_SHORT_NAMES, so it adds no
       arrput/hmget/shput macros to your files. Because this file included stb_ds.h before the
       implementation, the implementation used that inclusion as it was, and the short names
       work here too: the program's own stb_ds array below shares the bridge with the
       library's name map.

       Two notes on stb_ds itself: its implementation does not compile cleanly as C++ with
       -Wextra -Werror (use -lstb or a C file), and with gcc in strict -std=c99 its hmput and
       hmget with non-string keys need typeof (use -std=gnu99, or #define typeof __typeof__
       before including stb_ds.h). Neither affects the library. */
    section("stb_ds and allocation failures");
    {
        long at_start = compile_time_blocks;
        w = ecs_sched_world_create(NULL);        /* no allocator: ECS_SCHED_REALLOC, counted */
        if (!w) return 1;
        pos = ECS_SCHED_COMPONENT(w, Position);  /* the name map grows through the bridge */
        ecs_sched_entity *handles = NULL;        /* a stb_ds array of the program's own */
        for (int i = 0; i < 64; i++) arrput(handles, ecs_sched_spawn_with(w, 1, &pos, NULL));
        CHECK(arrlen(handles) == 64 && ecs_sched_is_alive(w, handles[63]));
        CHECK(compile_time_blocks > at_start);
        printf("%d handles in a stb_ds array; blocks through ECS_SCHED_REALLOC: %s\n",
               (int)arrlen(handles), compile_time_blocks > at_start ? "some" : "none");
        arrfree(handles);                        /* STBDS_FREE: the bridge again */
        ecs_sched_world_destroy(w);
    }
    CHECK(compile_time_blocks == 0);
    printf("everything freed: %ld blocks left\n", compile_time_blocks);

    printf("\ntour_commands: %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
