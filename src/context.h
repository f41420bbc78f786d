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
   ERR_ACCESS, a failure of the system. A declared resource that does not exist gives NULL
   and ERR_MISSING_RESOURCE, a failure of the system too. */
ECS_SCHED_API const void *ecs_sched_ctx_resource(ecs_sched_system_ctx *ctx, ecs_sched_id id);
/* A resource the system declared in .writes. */
ECS_SCHED_API void *ecs_sched_ctx_resource_mut(ecs_sched_system_ctx *ctx, ecs_sched_id id);
/* The same for a resource the system can live without: NULL, and no failure, when it does
   not exist (Bevy's Option<Res<T>>). It is declared in .reads or .writes all the same. */
ECS_SCHED_API const void *ecs_sched_ctx_optional_resource(ecs_sched_system_ctx *ctx,
                                                         ecs_sched_id id);
ECS_SCHED_API void *ecs_sched_ctx_optional_resource_mut(ecs_sched_system_ctx *ctx,
                                                       ecs_sched_id id);
/* The system's command buffer: the system must declare .commands = true. */
ECS_SCHED_API ecs_sched_commands *ecs_sched_ctx_commands(ecs_sched_system_ctx *ctx);
/* The whole world: exclusive systems only. */
ECS_SCHED_API ecs_sched_world *ecs_sched_ctx_world(ecs_sched_system_ctx *ctx);

/* ---- failures (see ERRORS in the documentation block) ----

   A system fails by calling ecs_sched_ctx_fail, or by leaving a failed library call it made
   while it ran unhandled: the first failure of a run of the system is recorded on its
   context, and counts when the system returns unless it called ecs_sched_ctx_clear_error.
   (A refused access, ERR_ACCESS, cannot be cleared.) The same holds for a condition. */

/* Records a failure of the running system: `code` (not ECS_SCHED_OK; ECS_SCHED_ERR_SYSTEM_FAILED
   when nothing fits better) and a printf-style message, which gets the system's and the
   schedule's names in front. Returns code. */
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_fail(ecs_sched_system_ctx *ctx, ecs_sched_result code,
                                                 const char *format, ...) ECS_SCHED__PRINTF(3, 4);
/* The failure recorded on the running system so far, or ECS_SCHED_OK. */
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_error(const ecs_sched_system_ctx *ctx);
/* The system handled what failed: the failure recorded so far does not count (a refused
   access stays). */
ECS_SCHED_API void ecs_sched_ctx_clear_error(ecs_sched_system_ctx *ctx);

/*@@ implementation @@*/
/* context: what a running system or condition can reach. */

/* A reader's place in one message queue (message.h): a context keeps one per queue it reads,
   the queue's index and the sequence number of the next message it reads there. */
typedef struct ecs_sched__cursor {
    uint32_t queue;
    uint64_t next;
} ecs_sched__cursor;

/* What a run of a typical system touches (what a failure and a change read, its queries, its
   user data) comes first. */
struct ecs_sched_system_ctx {
    ecs_sched_query *queries[ECS_SCHED_MAX_QUERIES];
    void *user_data;
    int32_t query_count;
    ecs_sched__running run;           /* what the library reads of it while it runs (base.h);
                                         its failure, first, on the line of the queries */
    ecs_sched_world *world;
    ecs_sched_commands *commands;
    int32_t read_count;
    int32_t write_count;
    ecs_sched_id reads[ECS_SCHED_MAX_RESOURCES];
    ecs_sched_id writes[ECS_SCHED_MAX_RESOURCES];
    bool read_only;                   /* conditions */
    bool observer;                    /* an observer's (observer.h) */
    ecs_sched_id sending_id;          /* the message type it sent last, checked, */
    void *sending;                    /* and its queue (message.h) */
    ecs_sched__cursor *cursors;       /* its places in message queues */
    int32_t cursor_count;
    uint32_t cursor_capacity;
    uint32_t last_run;                /* change ticks: of its previous run (this one: run) */
};

/* The context running on this thread for the world of env, or NULL. */
static inline ecs_sched_system_ctx *ecs_sched__ctx_running_in(const ecs_sched__env *env) {
    const ecs_sched__running *running = ecs_sched__running_in(env);
    return running ? (ecs_sched_system_ctx *)running->owner : NULL;
}

/* ---- the running context (see base.h) ---- */

/* The message of the failure kept on ctx; when there was no memory to keep it, its names
   and code, written into buf. */
static const char *ecs_sched__ctx_failure_message(const ecs_sched_system_ctx *ctx, char *buf,
                                                  size_t n) {
    size_t at;
    if (ctx->run.failure_message) return ctx->run.failure_message;
    at = ecs_sched__running_prefix(&ctx->run, buf, n);
    snprintf(buf + at, n - at, "%s (out of memory keeping the whole message)",
             ecs_sched_result_string(ctx->run.failure));
    return buf;
}

/* ctx runs once more: its window of changes moves on (while something tracks changes). */
static void ecs_sched__ctx_take_tick(ecs_sched_system_ctx *ctx) {
    ctx->last_run = ctx->run.this_run;
    ctx->run.this_run = ecs_sched__tick_take(ctx->world);
}

/* ctx runs on this thread from here to ecs_sched__running_end; returns what ran before. */
static ecs_sched__running *ecs_sched__running_begin(ecs_sched_system_ctx *ctx) {
    ecs_sched__running *outer = ecs_sched__running_now;
    ctx->run.failure = ECS_SCHED_OK;
    ctx->run.owner = ctx;
    ecs_sched__running_now = &ctx->run;
    return outer;
}

static void ecs_sched__running_end(ecs_sched__running *outer) {
    ecs_sched__running_now = outer;
}

/* A failure of what ctx belongs to, kept on ctx (from whichever thread it was handed to),
   its names in front of the message. */
static ecs_sched_result ecs_sched__ctx_vfail(ecs_sched_system_ctx *ctx, ecs_sched_result code,
                                             bool refused, const char *fmt, ...)
    ECS_SCHED__PRINTF(4, 5);
static ecs_sched_result ecs_sched__ctx_vfail(ecs_sched_system_ctx *ctx, ecs_sched_result code,
                                             bool refused, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    code = ecs_sched__vfail_on(&ctx->world->env, &ctx->run, code, refused, fmt, args);
    va_end(args);
    return code;
}

/* Refuses what a system asked for: fmt and what follows say what it asked. */
static void *ecs_sched__ctx_refuse(ecs_sched_system_ctx *ctx, const char *fmt, ...)
    ECS_SCHED__PRINTF(2, 3);
static void *ecs_sched__ctx_refuse(ecs_sched_system_ctx *ctx, const char *fmt, ...) {
    char detail[400];
    va_list args;
    va_start(args, fmt);
    vsnprintf(detail, sizeof detail, fmt, args);
    va_end(args);
    ecs_sched__ctx_vfail(ctx, ECS_SCHED_ERR_ACCESS, true, "%s", detail);
    return NULL;
}

ecs_sched_result ecs_sched_ctx_fail(ecs_sched_system_ctx *ctx, ecs_sched_result code,
                                    const char *format, ...) {
    va_list args;
    ECS_SCHED_ASSERT(ctx != NULL && format != NULL);
    if (code == ECS_SCHED_OK) return ECS_SCHED_OK;
    va_start(args, format);
    code = ecs_sched__vfail_on(&ctx->world->env, &ctx->run, code, false, format, args);
    va_end(args);
    return code;
}

ecs_sched_result ecs_sched_ctx_error(const ecs_sched_system_ctx *ctx) {
    ECS_SCHED_ASSERT(ctx != NULL);
    return ctx->run.failure;
}

void ecs_sched_ctx_clear_error(ecs_sched_system_ctx *ctx) {
    ECS_SCHED_ASSERT(ctx != NULL);
    if (!ctx->run.failure_refused) ctx->run.failure = ECS_SCHED_OK;
}

const char *ecs_sched_ctx_name(const ecs_sched_system_ctx *ctx) {
    ECS_SCHED_ASSERT(ctx != NULL);
    return ctx->run.name;
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
    return ecs_sched__iter_of(ecs_sched_ctx_query(ctx, index));   /* NULL: nothing */
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

/* A declared resource that is not in the world: the system's failure. */
static void *ecs_sched__ctx_missing_resource(ecs_sched_system_ctx *ctx, ecs_sched_id id) {
    ecs_sched__ctx_vfail(ctx, ECS_SCHED_ERR_MISSING_RESOURCE, false,
                         "reads resource '%s', which does not exist: insert it before the "
                         "schedule runs, guard %s with ecs_sched_condition_resource_exists, or "
                         "read it with ecs_sched_ctx_optional_resource if it can do without",
                         ecs_sched__component_label(ctx->world, id),
                         ctx->read_only ? "what it guards" : "the system");
    return NULL;
}

/* A declared resource, or NULL (and a refusal) for one it did not declare or may not reach
   on this thread; *declared tells which. */
static void *ecs_sched__ctx_reach(ecs_sched_system_ctx *ctx, ecs_sched_id id, bool write,
                                  bool *declared) {
    bool reads = ecs_sched__ids_contain(ctx->reads, ctx->read_count, id);
    bool writes = ecs_sched__ids_contain(ctx->writes, ctx->write_count, id);
    *declared = false;
    if (write && ctx->read_only) {
        return ecs_sched__ctx_refuse(ctx, "asks to write resource '%s', but conditions are "
                                          "read-only",
                                     ecs_sched__component_label(ctx->world, id));
    }
    if (!ecs_sched__component_valid(ctx->world, id)) {
        return ecs_sched__ctx_refuse(ctx, "%s resource id %u, which is not registered in this "
                                          "world (nor declared by the system)",
                                     write ? "writes" : "reads", (unsigned)id);
    }
    if (write ? !writes : !reads && !writes) {
        return ecs_sched__ctx_refuse(ctx, "%s resource '%s' without declaring it: add it to "
                                          "the desc's .%s",
                                     write ? "writes" : "reads",
                                     ecs_sched__component_label(ctx->world, id),
                                     write ? "writes" : "reads");
    }
    if (ecs_sched__off_main_thread(ctx->world, id)) {
        return ecs_sched__ctx_refuse_off_main_thread(ctx, id);
    }
    *declared = true;
    if (write && ctx->world->ticks_on && ctx->world->resources[id]) {
        ctx->world->resource_stamps[id].changed = ctx->run.this_run;
    }
    return ctx->world->resources[id];
}

const void *ecs_sched_ctx_resource(ecs_sched_system_ctx *ctx, ecs_sched_id id) {
    bool declared;
    void *value;
    ECS_SCHED_ASSERT(ctx != NULL);
    value = ecs_sched__ctx_reach(ctx, id, false, &declared);
    return value || !declared ? value : ecs_sched__ctx_missing_resource(ctx, id);
}

void *ecs_sched_ctx_resource_mut(ecs_sched_system_ctx *ctx, ecs_sched_id id) {
    bool declared;
    void *value;
    ECS_SCHED_ASSERT(ctx != NULL);
    value = ecs_sched__ctx_reach(ctx, id, true, &declared);
    return value || !declared ? value : ecs_sched__ctx_missing_resource(ctx, id);
}

const void *ecs_sched_ctx_optional_resource(ecs_sched_system_ctx *ctx, ecs_sched_id id) {
    bool declared;
    ECS_SCHED_ASSERT(ctx != NULL);
    return ecs_sched__ctx_reach(ctx, id, false, &declared);
}

void *ecs_sched_ctx_optional_resource_mut(ecs_sched_system_ctx *ctx, ecs_sched_id id) {
    bool declared;
    ECS_SCHED_ASSERT(ctx != NULL);
    return ecs_sched__ctx_reach(ctx, id, true, &declared);
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
    if (!ctx->run.exclusive) {
        return (ecs_sched_world *)ecs_sched__ctx_refuse(
            ctx, "asks for the whole world%s: only systems declared .exclusive = true get it",
            ctx->read_only ? " from a condition" : "");
    }
    return ctx->world;
}
