/* schedule_fixture.h: what the schedule tests share. Include it after ecs_sched.h (with its
   implementation) and cmocka.h.

   A world whose messages are captured in g_log, a trace of the systems that ran in g_trace,
   and helpers to add systems and sets to the schedule "Update", to look for text in a message
   and to print a built plan. The functions are static inline so that a test file may leave
   some unused. */
#ifndef SCHEDULE_FIXTURE_H
#define SCHEDULE_FIXTURE_H

typedef struct captured_log {
    int count;
    int warnings;
    int errors;
    size_t length;
    char text[32768]; /* every message, one per line, after "warn: " or "error: " */
} captured_log;

static captured_log g_log;
static char g_trace[4096];

static inline void capture_message(ecs_sched_log_level level, ecs_sched_result result, const char *message, void *user_data) {
    (void)result;
    captured_log *log = (captured_log *)user_data;
    int n;
    log->count++;
    if (level == ECS_SCHED_LOG_WARN) log->warnings++;
    if (level >= ECS_SCHED_LOG_ERROR) log->errors++;
    if (log->length + 1 >= sizeof log->text) return;
    n = snprintf(log->text + log->length, sizeof log->text - log->length, "%s: %s\n",
                 level >= ECS_SCHED_LOG_ERROR ? "error" : level == ECS_SCHED_LOG_WARN ? "warn" : "info",
                 message);
    if (n > 0) log->length += (size_t)n;
    if (log->length >= sizeof log->text) log->length = sizeof log->text - 1;
}

/* The world of the running test; a test that fails before destroying it leaves it to the next
   new_world (or to the group teardown), so a failure does not also report leaks. */
static ecs_sched_world *g_world;

static inline ecs_sched_world *new_world(void) {
    ecs_sched_world_desc desc;
    if (g_world) ecs_sched_world_destroy(g_world);
    memset(&g_log, 0, sizeof g_log);
    g_trace[0] = '\0';
    memset(&desc, 0, sizeof desc);
    desc.logger.fn = capture_message;
    /* these tests pin the plan order; the parallel executor has tests of its own */
    desc.executor = ECS_SCHED_EXECUTOR_SINGLE_THREADED;
    desc.logger.user_data = &g_log;
    g_world = ecs_sched_world_create(&desc);
    assert_non_null(g_world);
    return g_world;
}

static inline void check_and_destroy(ecs_sched_world *world) {
    assert_int_equal(ecs_sched_world_check(world), ECS_SCHED_OK);
    ecs_sched_world_destroy(world);
    if (world == g_world) g_world = NULL;
}

static inline int destroy_leftover_world(void **state) {
    (void)state;
    if (g_world) ecs_sched_world_destroy(g_world);
    g_world = NULL;
    return 0;
}

static inline void trace_add(const char *word) {
    size_t n = strlen(g_trace);
    snprintf(g_trace + n, sizeof g_trace - n, "%s%s", n ? " " : "", word);
}

/* A system that writes its label (its user_data when given, else its name) to the trace. */
static inline void record(ecs_sched_system_ctx *ctx) {
    const char *label = (const char *)ecs_sched_ctx_user_data(ctx);
    trace_add(label ? label : ecs_sched_ctx_name(ctx));
}

#define UPDATE "Update"
#define ADD_SYSTEM(world, ...)                                                                  \
    assert_int_equal(ecs_sched_add_system((world), UPDATE, &(ecs_sched_system_desc){__VA_ARGS__}), \
                     ECS_SCHED_OK)
#define CONFIGURE_SET(world, ...)                                                               \
    assert_int_equal(ecs_sched_configure_set((world), UPDATE, &(ecs_sched_set_desc){__VA_ARGS__}), \
                     ECS_SCHED_OK)

#define assert_contains(text, needle) assert_contains_at((text), (needle), __FILE__, __LINE__)
static inline void assert_contains_at(const char *text, const char *needle, const char *file, int line) {
    if (text == NULL || strstr(text, needle) == NULL) {
        print_error("expected \"%s\" in:\n%s\n", needle, text ? text : "(null)");
        _fail(file, line);
    }
}

/* The built plan of a schedule as one line: "a b apply_deferred c". */
static inline const char *plan_of(ecs_sched_world *w, const char *schedule) {
    static char text[4096];
    const char *names[256];
    int32_t n = ecs_sched_schedule_order(w, schedule, names, 256), i;
    size_t length = 0;
    if (n < 0) return "(not built)";
    text[0] = '\0';
    for (i = 0; i < n && i < 256 && length < sizeof text; i++) {
        int k = snprintf(text + length, sizeof text - length, "%s%s", i ? " " : "", names[i]);
        if (k > 0) length += (size_t)k;
    }
    return text;
}

#endif
