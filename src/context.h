/* context: what a running system or condition can reach: its queries, the resources it
   declared, its command buffer, and (exclusive systems only) the world. */

#pragma once
#include "query.h"
#include "commands.h"

typedef struct ecs_sched_system_ctx ecs_sched_system_ctx;
typedef void (*ecs_sched_system_fn)(ecs_sched_system_ctx *ctx);

ECS_SCHED_API const char *ecs_sched_ctx_name(const ecs_sched_system_ctx *ctx);
ECS_SCHED_API void *ecs_sched_ctx_user_data(const ecs_sched_system_ctx *ctx);
/* The index-th query of the system's desc; NULL (and ERR_ACCESS) when there is none. */
ECS_SCHED_API ecs_sched_query *ecs_sched_ctx_query(ecs_sched_system_ctx *ctx, int32_t index);
/* Shorthand for ecs_sched_query_iter(ecs_sched_ctx_query(ctx, index)). */
ECS_SCHED_API ecs_sched_iter ecs_sched_ctx_iter(ecs_sched_system_ctx *ctx, int32_t index);
/* A resource the system declared in .reads or .writes. Anything else is refused with
   ERR_ACCESS, and the schedule run that called the system returns ERR_ACCESS. */
ECS_SCHED_API const void *ecs_sched_ctx_resource(ecs_sched_system_ctx *ctx, ecs_sched_id id);
/* A resource the system declared in .writes. */
ECS_SCHED_API void *ecs_sched_ctx_resource_mut(ecs_sched_system_ctx *ctx, ecs_sched_id id);
/* The system's command buffer: the system must declare .commands = true. */
ECS_SCHED_API ecs_sched_commands *ecs_sched_ctx_commands(ecs_sched_system_ctx *ctx);
/* The whole world: exclusive systems only. */
ECS_SCHED_API ecs_sched_world *ecs_sched_ctx_world(ecs_sched_system_ctx *ctx);
/* The same for query `index` of a system, on the world's pool, within the system's declared
   access. ECS_SCHED_ERR_ACCESS for an undeclared query; ECS_SCHED_ERR_OUT_OF_MEMORY when the
   pool cannot be created (then nothing ran). */
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_par_iter(ecs_sched_system_ctx *ctx, int32_t index,
                                                      int32_t grain, ecs_sched_chunk_fn fn,
                                                      void *arg);

/*@@ implementation @@*/
/* context: what a running system or condition can reach. */

/* What a run of a typical system touches (its queries, its user data, the violation the
   executor looks at after it) comes first. */
struct ecs_sched_system_ctx {
    ecs_sched_query *queries[ECS_SCHED_MAX_QUERIES];
    void *user_data;
    int32_t query_count;
    ecs_sched_result violation;       /* the first refused access since the executor looked */
    ecs_sched_world *world;
    ecs_sched_commands *commands;
    const char *name;
    const char *kind;                 /* "system" or "condition", for messages */
    const char *guards_kind;          /* conditions: "system" or "set", what they guard, */
    const char *guards_name;          /* and its name */
    int32_t read_count;
    int32_t write_count;
    ecs_sched_id reads[ECS_SCHED_MAX_RESOURCES];
    ecs_sched_id writes[ECS_SCHED_MAX_RESOURCES];
    bool exclusive;
    bool read_only;                   /* conditions */
};

/* Keeps the first failure a system reports; the run that ran it returns that code. */
static void ecs_sched__ctx_report(ecs_sched_system_ctx *ctx, ecs_sched_result result) {
    if (result != ECS_SCHED_OK && ctx->violation == ECS_SCHED_OK) ctx->violation = result;
}

/* Refuses what a system asked for: fmt and what follows say what it asked. */
static void *ecs_sched__ctx_refuse(ecs_sched_system_ctx *ctx, const char *fmt, ...)
    ECS_SCHED__PRINTF(2, 3);
static void *ecs_sched__ctx_refuse(ecs_sched_system_ctx *ctx, const char *fmt, ...) {
    char detail[200];
    va_list args;
    va_start(args, fmt);
    vsnprintf(detail, sizeof detail, fmt, args);
    va_end(args);
    ecs_sched__fail(&ctx->world->env, ECS_SCHED_ERR_ACCESS, "%s '%s' %s", ctx->kind, ctx->name,
                    detail);
    ecs_sched__ctx_report(ctx, ECS_SCHED_ERR_ACCESS);
    return NULL;
}

const char *ecs_sched_ctx_name(const ecs_sched_system_ctx *ctx) {
    ECS_SCHED_ASSERT(ctx != NULL);
    return ctx->name;
}

void *ecs_sched_ctx_user_data(const ecs_sched_system_ctx *ctx) {
    ECS_SCHED_ASSERT(ctx != NULL);
    return ctx->user_data;
}

ecs_sched_query *ecs_sched_ctx_query(ecs_sched_system_ctx *ctx, int32_t index) {
    char number[16];
    ECS_SCHED_ASSERT(ctx != NULL);
    if (index >= 0 && index < ctx->query_count) return ctx->queries[index];
    snprintf(number, sizeof number, "%d", (int)index);
    return (ecs_sched_query *)ecs_sched__ctx_refuse(
        ctx, "asked for query %s, which its desc does not declare", number);
}

ecs_sched_iter ecs_sched_ctx_iter(ecs_sched_system_ctx *ctx, int32_t index) {
    ecs_sched_query *q = ecs_sched_ctx_query(ctx, index);
    ecs_sched_iter it;
    if (q) return ecs_sched_query_iter(q);
    memset(&it, 0, sizeof it);
    return it;
}

static bool ecs_sched__ids_contain(const ecs_sched_id *ids, int32_t count, ecs_sched_id id) {
    int32_t i;
    for (i = 0; i < count; i++) {
        if (ids[i] == id) return true;
    }
    return false;
}

/* A main-thread-only resource asked for on another thread than the one running the
   schedule. */
static bool ecs_sched__off_main_thread(const ecs_sched_world *w, ecs_sched_id id) {
#ifdef ECS_SCHED_THREADS
    return ecs_sched__component_valid(w, id) && w->components[id].non_send &&
           !pthread_equal(pthread_self(), w->schedule_thread);
#else
    (void)w;
    (void)id;
    return false;
#endif
}

static void *ecs_sched__ctx_refuse_off_main_thread(ecs_sched_system_ctx *ctx, ecs_sched_id id) {
    return ecs_sched__ctx_refuse(ctx, "asks for main-thread-only resource '%s' on another thread "
                                      "than the one running the schedule: use it in the system "
                                      "itself (declaring it keeps the system on that thread)",
                                 ecs_sched__component_label(ctx->world, id));
}

/* A declared resource that is not in the world: the message names the system, or the
   condition and what it guards, since the call itself says nothing about who made it. */
static void *ecs_sched__ctx_missing_resource(ecs_sched_system_ctx *ctx, ecs_sched_id id) {
    char guards[200] = "";
    if (ctx->guards_name) {
        snprintf(guards, sizeof guards, " (guarding %s '%s')", ctx->guards_kind, ctx->guards_name);
    }
    ecs_sched__fail(&ctx->world->env, ECS_SCHED_ERR_MISSING_RESOURCE,
                    "%s '%s'%s reads resource '%s', which does not exist: insert it before the "
                    "schedule runs, or guard %s with ecs_sched_condition_resource_exists",
                    ctx->kind, ctx->name, guards, ecs_sched__component_label(ctx->world, id),
                    ctx->read_only ? "what it guards" : "the system");
    return NULL;
}

const void *ecs_sched_ctx_resource(ecs_sched_system_ctx *ctx, ecs_sched_id id) {
    ECS_SCHED_ASSERT(ctx != NULL);
    if (!ecs_sched__ids_contain(ctx->reads, ctx->read_count, id) &&
        !ecs_sched__ids_contain(ctx->writes, ctx->write_count, id)) {
        return ecs_sched__ctx_refuse(ctx, "reads resource '%s' without declaring it: add it to "
                                          "the desc's .reads",
                                     ecs_sched__component_label(ctx->world, id));
    }
    if (ecs_sched__off_main_thread(ctx->world, id)) {
        return ecs_sched__ctx_refuse_off_main_thread(ctx, id);
    }
    if (!ctx->world->resources[id]) return ecs_sched__ctx_missing_resource(ctx, id);
    return ctx->world->resources[id];
}

void *ecs_sched_ctx_resource_mut(ecs_sched_system_ctx *ctx, ecs_sched_id id) {
    ECS_SCHED_ASSERT(ctx != NULL);
    if (ctx->read_only) {
        return ecs_sched__ctx_refuse(ctx, "asks to write resource '%s', but conditions are "
                                          "read-only",
                                     ecs_sched__component_label(ctx->world, id));
    }
    if (!ecs_sched__ids_contain(ctx->writes, ctx->write_count, id)) {
        return ecs_sched__ctx_refuse(ctx, "writes resource '%s' without declaring it: add it to "
                                          "the desc's .writes",
                                     ecs_sched__component_label(ctx->world, id));
    }
    if (ecs_sched__off_main_thread(ctx->world, id)) {
        return ecs_sched__ctx_refuse_off_main_thread(ctx, id);
    }
    if (!ctx->world->resources[id]) return ecs_sched__ctx_missing_resource(ctx, id);
    return ctx->world->resources[id];
}

ecs_sched_commands *ecs_sched_ctx_commands(ecs_sched_system_ctx *ctx) {
    ECS_SCHED_ASSERT(ctx != NULL);
    if (!ctx->commands) {
        return (ecs_sched_commands *)ecs_sched__ctx_refuse(
            ctx, "asks for a command buffer%s",
            ctx->read_only ? ", but conditions are read-only and record no commands"
                           : ": declare .commands = true in its desc");
    }
    return ctx->commands;
}

ecs_sched_world *ecs_sched_ctx_world(ecs_sched_system_ctx *ctx) {
    ECS_SCHED_ASSERT(ctx != NULL);
    if (!ctx->exclusive) {
        return (ecs_sched_world *)ecs_sched__ctx_refuse(
            ctx, "asks for the whole world%s: only systems declared .exclusive = true get it",
            ctx->read_only ? " from a condition" : "");
    }
    return ctx->world;
}

ecs_sched_result ecs_sched_ctx_par_iter(ecs_sched_system_ctx *ctx, int32_t index, int32_t grain,
                                        ecs_sched_chunk_fn fn, void *arg) {
    ecs_sched_query *q;
    ecs_sched_pool *pool;
    ECS_SCHED_ASSERT(ctx != NULL && fn != NULL);
    q = ecs_sched_ctx_query(ctx, index);
    if (!q) return ECS_SCHED_ERR_ACCESS;
    pool = ecs_sched_world_pool(ctx->world);
    if (!pool) return ECS_SCHED_ERR_OUT_OF_MEMORY;
    ecs_sched_query_par_iter(q, pool, grain, fn, arg);
    return ECS_SCHED_OK;
}

