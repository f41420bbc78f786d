/* A native script for tests/test_native_scripts.c, built twice: STEER_VERSION 1 and 2. Its one
   system adds the version to each entity's Speed, so a run tells which version is loaded. */
#include "ecs_sched.h"

typedef struct { int value; } Speed;

static void steer(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        Speed *speed = (Speed *)it.fields[0];
        int32_t i;
        for (i = 0; i < it.count; i++) speed[i].value += STEER_VERSION;
    }
}

ECS_SCHED_NATIVE_SCRIPT(script) {
    return ecs_sched_script_add_system(script, "Update",
                                       &(ecs_sched_system_desc){.name = "steer", .fn = steer,
                                                                .query_text = "Speed"},
                                       0);
}
