/* minimal.c - the core and the scheduler with every optional feature left out
   (ECS_SCHED_MINIMAL): spawning, queries, systems ordered in a schedule, commands applied at
   the sync point between two systems, and names, which stay without relationships (unique in the world). Build
   and run:

     cc -std=c99 -Wall -Wextra -Wpedantic -Werror -DECS_SCHED_MINIMAL -I. \
        $(pkg-config --cflags stb) tests/compile/minimal.c $(pkg-config --libs stb) \
        -o build/minimal && build/minimal

   (cc: gcc and clang.) Exits 0 when every check holds. */
#define ECS_SCHED_MINIMAL
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdio.h>
#include <string.h>

typedef struct { float x, y; } Position;
typedef struct { float x, y; } Velocity;

static int failures;
static int logged_errors;

/* The checks below make two errors on purpose: counted, not printed. */
static void count_errors(ecs_sched_log_level level, ecs_sched_result result, const char *message,
                         void *user_data) {
    (void)result;
    (void)message;
    (void)user_data;
    if (level >= ECS_SCHED_LOG_ERROR) logged_errors++;
}

static void check(int ok, const char *what) {
    if (!ok) {
        printf("minimal: FAILED: %s\n", what);
        failures++;
    }
}

/* Moves everything; what climbs above 1.5 is despawned through the command buffer, and
   each mover leaves a marker behind. */
static void move(ecs_sched_system_ctx *ctx) {
    ecs_sched_commands *cmd = ecs_sched_ctx_commands(ctx);
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        const Velocity *v = ECS_SCHED_FIELD(&it, const Velocity, 1);
        for (int32_t i = 0; i < it.count; i++) {
            p[i].x += v[i].x;
            p[i].y += v[i].y;
            if (p[i].y > 1.5f) ecs_sched_commands_despawn(cmd, it.entities[i]);
        }
    }
}

/* Ordered after move: counts what is left (the sync point between them applied move's
   despawns). */
static void count_left(ecs_sched_system_ctx *ctx) {
    int32_t *seen = (int32_t *)ecs_sched_ctx_user_data(ctx);
    *seen = ecs_sched_query_count(ecs_sched_ctx_query(ctx, 0));
}

int main(void) {
    ecs_sched_world_desc desc;
    ecs_sched_world *w;
    ecs_sched_id pos, vel;
    ecs_sched_entity e[3], named;
    int32_t seen = -1;
    int n;
    memset(&desc, 0, sizeof desc);
    desc.logger.fn = count_errors;
    w = ecs_sched_world_create(&desc);
    if (!w) return 1;
    pos = ECS_SCHED_COMPONENT(w, Position);
    vel = ECS_SCHED_COMPONENT(w, Velocity);
    for (n = 0; n < 3; n++) {
        Position p = {0, 0};
        Velocity v = {1, (float)n};
        const ecs_sched_id ids[] = {pos, vel};
        const void *values[] = {&p, &v};
        e[n] = ecs_sched_spawn_with(w, 2, ids, values);
        check(e[n] != ECS_SCHED_NULL_ENTITY, "spawn_with");
    }

    {
        ecs_sched_system_desc d;
        memset(&d, 0, sizeof d);
        d.name = "move";
        d.fn = move;
        d.commands = true;
        d.queries[0].terms[0] = ecs_sched_write(pos);
        d.queries[0].terms[1] = ecs_sched_read(vel);
        check(ecs_sched_add_system(w, "Update", &d) == ECS_SCHED_OK, "add move");
        memset(&d, 0, sizeof d);
        d.name = "count_left";
        d.fn = count_left;
        d.user_data = &seen;
        d.after[0] = "move";
        d.queries[0].terms[0] = ecs_sched_read(pos);
        check(ecs_sched_add_system(w, "Update", &d) == ECS_SCHED_OK, "add count_left");
    }

    check(ecs_sched_run_schedule(w, "Update") == ECS_SCHED_OK, "first run");
    check(seen == 2, "count_left ran after move's despawns were applied");
    check(ecs_sched_entity_count(w) == 2, "the entity above 1.5 despawned at the run's end");
    check(!ecs_sched_is_alive(w, e[2]) && ecs_sched_is_alive(w, e[1]), "which one went");
    check(ecs_sched_run_schedule(w, "Update") == ECS_SCHED_OK, "second run");
    check(seen == 1 && ecs_sched_entity_count(w) == 1, "the second run: one more went");
    {
        const Position *p = (const Position *)ecs_sched_get(w, e[0], pos);
        check(p && p->x == 2.0f && p->y == 0.0f, "e[0] moved twice");
    }

    /* names stay without relationships: unique in the world, and a despawn takes them */
    named = ecs_sched_spawn(w);
    check(ecs_sched_set_name(w, e[0], "first") == ECS_SCHED_OK, "set_name");
    check(ecs_sched_lookup(w, ECS_SCHED_NULL_ENTITY, "first") == e[0], "lookup");
    check(ecs_sched_set_name(w, named, "first") == ECS_SCHED_ERR_NAME_CLASH, "names are unique");
    check(ecs_sched_despawn(w, e[0]) == ECS_SCHED_OK, "despawn a named entity");
    check(ecs_sched_lookup(w, ECS_SCHED_NULL_ENTITY, "first") == ECS_SCHED_NULL_ENTITY,
          "its name went with it");
    check(ecs_sched_set_name(w, named, "first") == ECS_SCHED_OK, "the name is free again");

    /* a term of a left-out feature is refused, naming the switch */
    {
        ecs_sched_query_desc qd;
        memset(&qd, 0, sizeof qd);
        qd.terms[0].id = pos;
        qd.terms[0].kind = ECS_SCHED_TERM_FROM_PARENT;
        check(ecs_sched_query_create(w, &qd) == NULL, "from_parent refused");
        check(strstr(ecs_sched_last_error(w), "ECS_SCHED_NO_RELATIONS") != NULL,
              "the refusal names the switch");
    }
    /* so is a system's query given as text */
    {
        ecs_sched_system_desc d;
        memset(&d, 0, sizeof d);
        d.name = "from_text";
        d.fn = count_left;
        d.query_text = "Position";
        check(ecs_sched_add_system(w, "Update", &d) == ECS_SCHED_ERR_INVALID_QUERY,
              "query text refused");
        check(strstr(ecs_sched_last_error(w), "ECS_SCHED_NO_QUERY_TEXT") != NULL,
              "the refusal of the text names the switch");
    }

    check(ecs_sched_world_check(w) == ECS_SCHED_OK, "world_check");
    check(logged_errors == 3, "the three refusals, and no other error, were logged");
    ecs_sched_world_destroy(w);
    printf("minimal: %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
