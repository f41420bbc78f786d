/* The world's events on both executors: change filters, observers and messages give the
   parallel executor exactly what they give the single-threaded one. Each system writes what
   it saw into a log of its own (systems that run at once never share one); observers write
   into the world's log, since they run where structural changes are made, on one thread. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schedule_fixture.h"

#define FRAMES 24
#define LOG 8192

typedef struct run_logs {
    char move[LOG], watch[LOG], added[LOG], spawn[LOG], send[LOG], read_a[LOG], read_b[LOG];
    char busy[LOG], observers[LOG];
} run_logs;

static ecs_sched_id g_pos, g_vel, g_ping, g_busy;
static run_logs *g_logs;

static void log_to(char *log, const char *format, ...) {
    size_t n = strlen(log);
    va_list args;
    if (n + 1 >= LOG) return;
    va_start(args, format);
    vsnprintf(log + n, LOG - n, format, args);
    va_end(args);
}

static void move(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    int32_t rows = 0;
    while (ecs_sched_iter_next(&it)) {
        Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        const Velocity *v = ECS_SCHED_FIELD(&it, const Velocity, 1);
        int32_t i;
        for (i = 0; i < it.count; i++) {
            if ((ECS_SCHED_ENTITY_INDEX(it.entities[i]) + (uint32_t)rows) % 3 != 0) continue;
            p[i].x += v[i].x;
            ecs_sched_iter_mark_changed(&it, 0, i);
        }
        rows += it.count;
    }
    log_to((char *)ecs_sched_ctx_user_data(ctx), "%d ", (int)rows);
}

/* Logs what a filtered query hands out: entity indices and x. */
static void log_rows(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    char *log = (char *)ecs_sched_ctx_user_data(ctx);
    while (ecs_sched_iter_next(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
        int32_t i;
        for (i = 0; i < it.count; i++) {
            log_to(log, "%u:%g ", (unsigned)ECS_SCHED_ENTITY_INDEX(it.entities[i]), (double)p[i].x);
        }
    }
    log_to(log, "| ");
}

static int32_t g_frame;

static void spawn_some(ecs_sched_system_ctx *ctx) {
    ecs_sched_commands *cmd = ecs_sched_ctx_commands(ctx);
    ecs_sched_id ids[2];
    Position p;
    Velocity v;
    const void *values[2];
    int32_t i;
    ids[0] = g_pos;
    ids[1] = g_vel;
    p.x = (float)g_frame;
    p.y = 0;
    v.x = 1;
    v.y = 0;
    values[0] = &p;
    values[1] = &v;
    for (i = 0; i < g_frame % 3; i++) ecs_sched_commands_spawn_with(cmd, 2, ids, values);
    log_to((char *)ecs_sched_ctx_user_data(ctx), "%d ", (int)(g_frame % 3));
}

static void send_pings(ecs_sched_system_ctx *ctx) {
    int32_t i;
    for (i = 0; i < g_frame % 4 + 1; i++) {
        int32_t value = g_frame * 10 + i;
        ecs_sched_ctx_send(ctx, g_ping, &value);
    }
}

static void read_pings(ecs_sched_system_ctx *ctx) {
    ecs_sched_messages read = ecs_sched_ctx_messages(ctx, g_ping);
    char *log = (char *)ecs_sched_ctx_user_data(ctx);
    while (ecs_sched_messages_next(&read)) {
        const int32_t *v = (const int32_t *)read.data;
        int32_t i;
        for (i = 0; i < read.count; i++) log_to(log, "%d ", (int)v[i]);
    }
    log_to(log, "| ");
}

/* Unrelated work, so that the parallel executor has something to run at once. */
static void busy(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    int32_t rows = 0;
    while (ecs_sched_iter_next(&it)) rows += it.count;
    log_to((char *)ecs_sched_ctx_user_data(ctx), "%d ", (int)rows);
}

static void on_velocity(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    (void)ctx;
    log_to(g_logs->observers, "+%u ", (unsigned)ECS_SCHED_ENTITY_INDEX(t->entity));
}

static void run_frames(ecs_sched_executor executor, run_logs *logs) {
    ecs_sched_world_desc desc = logged_world_desc(&g_log);
    ecs_sched_world *w;
    ecs_sched_observer_desc od;
    ecs_sched_id ids[2];
    int32_t i;
    memset(logs, 0, sizeof *logs);
    g_logs = logs;
    if (g_world) ecs_sched_world_destroy(g_world);
    desc.executor = executor;
    desc.thread_count = 4;
    g_world = w = ecs_sched_world_create(&desc);
    assert_non_null(w);
    g_pos = ECS_SCHED_TRACKED_COMPONENT(w, Position);
    g_vel = ECS_SCHED_COMPONENT(w, Velocity);
    g_busy = ECS_SCHED_COMPONENT(w, Score);
    g_ping = ecs_sched_message_register_type(w, "Ping", sizeof(int32_t), 0);
    ids[0] = g_pos;
    ids[1] = g_vel;
    for (i = 0; i < 300; i++) {
        Position p = {(float)i, 0};
        Velocity v = {1, 0};
        const void *values[2];
        values[0] = &p;
        values[1] = &v;
        assert_true(ecs_sched_spawn_with(w, 2, ids, values) != ECS_SCHED_NULL_ENTITY);
        if (i % 2 == 0) assert_true(ecs_sched_spawn_with(w, 1, &g_busy, NULL) != ECS_SCHED_NULL_ENTITY);
    }
    memset(&od, 0, sizeof od);
    od.name = "on_velocity";
    od.event = ECS_SCHED_ON_ADD;
    od.component = g_vel;
    od.fn = on_velocity;
    assert_true(ecs_sched_observer_add(w, &od) != 0);
    ADD_SYSTEM(w, .name = "move", .fn = move, .user_data = logs->move,
               .queries = {{.terms = {ecs_sched_write_manual(g_pos), ecs_sched_read(g_vel)}}});
    ADD_SYSTEM(w, .name = "watch", .fn = log_rows, .user_data = logs->watch, .after = {"move"},
               .queries = {{.terms = {ecs_sched_changed(g_pos)}}});
    ADD_SYSTEM(w, .name = "added", .fn = log_rows, .user_data = logs->added,
               .queries = {{.terms = {ecs_sched_added(g_pos)}}});
    ADD_SYSTEM(w, .name = "spawn", .fn = spawn_some, .user_data = logs->spawn, .commands = true,
               .after = {"watch", "added"});
    ADD_SYSTEM(w, .name = "send", .fn = send_pings, .writes = {g_ping});
    ADD_SYSTEM(w, .name = "read_a", .fn = read_pings, .user_data = logs->read_a, .reads = {g_ping},
               .after = {"send"});
    ADD_SYSTEM(w, .name = "read_b", .fn = read_pings, .user_data = logs->read_b, .reads = {g_ping},
               .after = {"send"});
    ADD_SYSTEM(w, .name = "busy", .fn = busy, .user_data = logs->busy,
               .queries = {{.terms = {ecs_sched_read(g_busy)}}});
    for (g_frame = 0; g_frame < FRAMES; g_frame++) {
        assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
        ecs_sched_messages_update(w);
    }
    assert_int_equal(ecs_sched_world_check(w), ECS_SCHED_OK);
    ecs_sched_world_destroy(w);
    g_world = NULL;
}

/* Equal logs, or the first place they differ, with what is around it. */
static void assert_same_log(const char *name, const char *parallel, const char *single) {
    size_t i = 0;
    while (parallel[i] && parallel[i] == single[i]) i++;
    if (parallel[i] == single[i]) return;
    {
        size_t from = i > 60 ? i - 60 : 0;
        fail_msg("log '%s' differs at %lu: parallel \"...%.120s\" single \"...%.120s\"", name,
                 (unsigned long)i, parallel + from, single + from);
    }
}

static void change_filters_observers_and_messages_match_on_both_executors(void **state) {
    static run_logs single, parallel;
    int round;
    (void)state;
    run_frames(ECS_SCHED_EXECUTOR_SINGLE_THREADED, &single);
    assert_true(strlen(single.watch) > 100);
    assert_true(strlen(single.observers) > 10);
    for (round = 0; round < 5; round++) {
        run_frames(ECS_SCHED_EXECUTOR_PARALLEL, &parallel);
        assert_same_log("move", parallel.move, single.move);
        assert_same_log("watch", parallel.watch, single.watch);
        assert_same_log("added", parallel.added, single.added);
        assert_same_log("spawn", parallel.spawn, single.spawn);
        assert_same_log("read_a", parallel.read_a, single.read_a);
        assert_same_log("read_b", parallel.read_b, single.read_b);
        assert_same_log("busy", parallel.busy, single.busy);
        assert_same_log("observers", parallel.observers, single.observers);
    }
    assert_string_equal(single.read_a, single.read_b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(change_filters_observers_and_messages_match_on_both_executors),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
