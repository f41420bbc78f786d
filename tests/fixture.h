/* fixture.h: what every test file shares. Include it after ecs_sched.h (with its
   implementation) and cmocka.h; world_fixture.h and schedule_fixture.h include it.

   The components most tests use; a logger that keeps what it is sent and one that drops it; a
   system that does nothing and conditions that always answer the same; shorthands to spawn an
   entity with given values, to create a query from its terms and a command buffer; searches in
   text. Static inline, so that a test file may leave some unused. */
#ifndef FIXTURE_H
#define FIXTURE_H

#define UPDATE "Update"

/* ---- components ---- */

typedef struct { float x, y; } Position;
typedef struct { float x, y; } Velocity;
typedef struct { int hp; } Health;
typedef struct { int value; } Score;

/* ---- loggers ---- */

/* Every message a world (or pool) sends: counted by level, the last one kept whole, all of
   them one per line in `text` after "info: ", "warn: " or "error: ". */
typedef struct captured_log {
    int count;
    int warnings;
    int errors;
    ecs_sched_log_level last_level;
    ecs_sched_result last_result;
    char last[1024];
    size_t length;
    char text[32768];
} captured_log;

static inline void capture_message(ecs_sched_log_level level, ecs_sched_result result,
                                   const char *message, void *user_data) {
    captured_log *log = (captured_log *)user_data;
    int n;
    log->count++;
    if (level == ECS_SCHED_LOG_WARN) log->warnings++;
    if (level >= ECS_SCHED_LOG_ERROR) log->errors++;
    log->last_level = level;
    log->last_result = result;
    snprintf(log->last, sizeof log->last, "%s", message);
    if (log->length + 1 >= sizeof log->text) return;
    n = snprintf(log->text + log->length, sizeof log->text - log->length, "%s: %s\n",
                 level >= ECS_SCHED_LOG_ERROR ? "error" : level == ECS_SCHED_LOG_WARN ? "warn" : "info",
                 message);
    if (n > 0) log->length += (size_t)n;
    if (log->length >= sizeof log->text) log->length = sizeof log->text - 1;
}

/* For worlds whose messages a test does not look at: the default sink would print them. */
static inline void quiet(ecs_sched_log_level level, ecs_sched_result result, const char *message,
                         void *user_data) {
    (void)level;
    (void)result;
    (void)message;
    (void)user_data;
}

/* A world desc whose messages go to `log`, emptied first; the rest is left to the test. */
static inline ecs_sched_world_desc logged_world_desc(captured_log *log) {
    ecs_sched_world_desc desc;
    memset(log, 0, sizeof *log);
    memset(&desc, 0, sizeof desc);
    desc.logger.fn = capture_message;
    desc.logger.user_data = log;
    return desc;
}

/* A world on `executor` with `threads` threads (0: the default), its messages dropped. */
static inline ecs_sched_world *world_on(ecs_sched_executor executor, int32_t threads) {
    ecs_sched_world_desc desc;
    ecs_sched_world *w;
    memset(&desc, 0, sizeof desc);
    desc.executor = executor;
    desc.thread_count = threads;
    desc.logger.fn = quiet;
    w = ecs_sched_world_create(&desc);
    assert_non_null(w);
    return w;
}

/* ---- systems and conditions ---- */

static inline void noop(ecs_sched_system_ctx *ctx) {
    (void)ctx;
}

static inline bool always_true(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    return true;
}

static inline bool always_false(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    return false;
}

/* ---- spawning, queries, command buffers ---- */

/* One component of an entity to spawn: its id and its value (NULL: a default value). */
typedef struct component_value {
    ecs_sched_id id;
    const void *value;
} component_value;

#define SPAWN_MAX_COMPONENTS 8

static inline ecs_sched_entity spawn_values(ecs_sched_world *w, const component_value *components,
                                            int32_t count) {
    ecs_sched_id ids[SPAWN_MAX_COMPONENTS];
    const void *values[SPAWN_MAX_COMPONENTS];
    ecs_sched_entity e;
    int32_t i;
    assert_true(count <= SPAWN_MAX_COMPONENTS);
    for (i = 0; i < count; i++) {
        ids[i] = components[i].id;
        values[i] = components[i].value;
    }
    e = ecs_sched_spawn_with(w, count, ids, values);
    assert_int_not_equal(e, ECS_SCHED_NULL_ENTITY);
    return e;
}

/* Spawns an entity with the given components and values, and checks it was spawned:
   SPAWN(w, {position, &p}, {frozen, NULL}). */
#define SPAWN(world, ...)                                                                       \
    spawn_values((world), (const component_value[]){__VA_ARGS__},                              \
                 (int32_t)(sizeof((const component_value[]){__VA_ARGS__}) / sizeof(component_value)))

/* Creates a query from a term list ending with a term of id 0; NULL when the world refuses. */
static inline ecs_sched_query *make_query(ecs_sched_world *w, const ecs_sched_term *terms) {
    ecs_sched_query_desc desc;
    int i;
    memset(&desc, 0, sizeof desc);
    for (i = 0; terms[i].id != 0; i++) desc.terms[i] = terms[i];
    return ecs_sched_query_create(w, &desc);
}
#define END_TERMS {0, ECS_SCHED_TERM_READ, 0}
/* QUERY(w, ecs_sched_read(position), ecs_sched_without(frozen)) */
#define QUERY(w, ...) make_query((w), (const ecs_sched_term[]){__VA_ARGS__, END_TERMS})

static inline ecs_sched_commands *new_commands(ecs_sched_world *w) {
    ecs_sched_commands *cmd = ecs_sched_commands_create(w);
    assert_non_null(cmd);
    return cmd;
}

/* ---- text ---- */

/* How many times `word` occurs in `text`, without overlaps. */
static inline int count_of(const char *text, const char *word) {
    int n = 0;
    size_t length = strlen(word);
    const char *at = text;
    while ((at = strstr(at, word)) != NULL) {
        n++;
        at += length;
    }
    return n;
}

/* Fail with the whole text, which a bare assert_non_null(strstr(...)) would not show. */
#define assert_contains(text, needle) assert_contains_at((text), (needle), __FILE__, __LINE__)
static inline void assert_contains_at(const char *text, const char *needle, const char *file, int line) {
    if (text == NULL || strstr(text, needle) == NULL) {
        print_error("expected \"%s\" in:\n%s\n", needle, text ? text : "(null)");
        _fail(file, line);
    }
}

#define assert_lacks(text, needle) assert_lacks_at((text), (needle), __FILE__, __LINE__)
static inline void assert_lacks_at(const char *text, const char *needle, const char *file, int line) {
    if (strstr(text, needle) != NULL) {
        print_error("did not expect \"%s\" in:\n%s\n", needle, text);
        _fail(file, line);
    }
}

/* ---- systems that must run at the same time ---- */

#ifdef ECS_SCHED_THREADS
#include <sched.h>
#include <time.h>

/* Systems running meet() with the same meeting as user data each wait (up to 20 s) for the
   other to have started: they finish without a timeout only when they run at the same time. */
typedef struct meeting {
    int64_t arrived;
    int64_t timeouts;
} meeting;

static inline double meeting_clock(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline void meet(ecs_sched_system_ctx *ctx) {
    meeting *m = (meeting *)ecs_sched_ctx_user_data(ctx);
    double deadline = meeting_clock() + 20.0;
    __atomic_add_fetch(&m->arrived, 1, __ATOMIC_ACQ_REL);
    while (__atomic_load_n(&m->arrived, __ATOMIC_ACQUIRE) < 2) {
        if (meeting_clock() > deadline) {
            __atomic_add_fetch(&m->timeouts, 1, __ATOMIC_ACQ_REL);
            return;
        }
        sched_yield();
    }
}
#endif

#endif
