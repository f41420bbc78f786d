/* cxx_impl.cpp - the header and its implementation compiled as C++.

     g++ -std=c++11 -Wall -Wextra -Werror -I. $(pkg-config --cflags stb) \
         tests/compile/cxx_impl.cpp $(pkg-config --libs stb) -o build/cxx_impl && build/cxx_impl

   (clang++ with the same flags must work too.) stb_ds's implementation comes from -lstb: it
   is C code, and its declarations are extern "C". Exits 0 when every check holds. */
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <cstdio>

struct Position { float x, y; };
struct Velocity { float x, y; };

static int failures = 0;
static int errors_logged = 0;

static void count_errors(ecs_sched_log_level level, ecs_sched_result result, const char *message, void *user_data) {
    (void)result;
    (void)message;
    if (level == ECS_SCHED_LOG_ERROR) ++*static_cast<int *>(user_data);
}

static void check(bool ok, const char *what) {
    if (!ok) {
        std::printf("cxx_impl: FAILED: %s\n", what);
        failures++;
    }
}

int main() {
    ecs_sched_world_desc desc = {};
    desc.logger.fn = count_errors;
    desc.logger.user_data = &errors_logged;
    ecs_sched_world *w = ecs_sched_world_create(&desc);
    check(w != NULL, "world_create");
    if (!w) return 1;

    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_id vel = ECS_SCHED_COMPONENT(w, Velocity);
    ecs_sched_id frozen = ECS_SCHED_TAG(w, Frozen);
    check(pos != 0 && vel != 0 && frozen != 0, "component ids");
    check(ecs_sched_component_size(w, pos) == sizeof(Position), "component size");
    check(ecs_sched_component_lookup(w, "Velocity") == vel, "lookup by name");

    ecs_sched_entity e[3];
    for (int i = 0; i < 3; i++) {
        Position p = {0.0f, 0.0f};
        Velocity v = {1.0f, float(i)};
        const ecs_sched_id ids[] = {pos, vel};
        const void *values[] = {&p, &v};
        e[i] = ecs_sched_spawn_with(w, 2, ids, values);
        check(e[i] != ECS_SCHED_NULL_ENTITY, "spawn_with");
    }
    check(ecs_sched_insert(w, e[2], frozen, NULL) == ECS_SCHED_OK, "insert tag");

    ecs_sched_query_desc qd = {{ecs_sched_write(pos), ecs_sched_read(vel),
                                ecs_sched_without(frozen)}};
    ecs_sched_query *q = ecs_sched_query_create(w, &qd);
    check(q != NULL, "query_create");
    check(ecs_sched_query_count(q) == 2, "query_count");

    ecs_sched_commands *cmd = ecs_sched_commands_create(w);
    check(cmd != NULL, "commands_create");
    ecs_sched_iter it = ecs_sched_query_iter(q);
    int visited = 0;
    while (ecs_sched_iter_next(&it)) {
        Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        const Velocity *v = ECS_SCHED_FIELD(&it, const Velocity, 1);
        check(it.fields[2] == NULL, "without field is NULL");
        for (int32_t i = 0; i < it.count; i++) {
            p[i].x += v[i].x;
            p[i].y += v[i].y;
            if (p[i].y > 0.5f) ecs_sched_commands_despawn(cmd, it.entities[i]);
            visited++;
        }
    }
    check(visited == 2, "iteration visits the unfrozen entities");
    check(ecs_sched_commands_pending(cmd) == 1, "one pending command");
    check(ecs_sched_commands_apply(cmd) == ECS_SCHED_OK, "apply");
    check(ecs_sched_commands_pending(cmd) == 0, "apply consumes");
    check(!ecs_sched_is_alive(w, e[1]) && ecs_sched_is_alive(w, e[0]), "despawned by command");
    check(ecs_sched_entity_count(w) == 2, "entity_count");

    const Position *p0 = static_cast<const Position *>(ecs_sched_get(w, e[0], pos));
    check(p0 != NULL && p0->x == 1.0f && p0->y == 0.0f, "value written through the query");
    check(ecs_sched_get(w, e[1], pos) == NULL, "stale handle gives NULL");
    check(ecs_sched_last_result(w) == ECS_SCHED_ERR_STALE_ENTITY, "stale handle error");
    check(ecs_sched_last_error(w)[0] != '\0', "last_error has a message");
    check(errors_logged == 1, "the error reached the logger");
    check(ecs_sched_world_check(w) == ECS_SCHED_OK, "world_check");

    ecs_sched_world_destroy(w);
    if (failures == 0) std::printf("cxx_impl: ok\n");
    return failures == 0 ? 0 : 1;
}
