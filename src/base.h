/* base: configuration, allocator/assert/log hooks, result codes, error text. */

#define ECS_SCHED_VERSION_MAJOR 0
#define ECS_SCHED_VERSION_MINOR 2
#define ECS_SCHED_VERSION_PATCH 0
#define ECS_SCHED_VERSION_STRING "0.2.0"

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifndef ECS_SCHED_API
#define ECS_SCHED_API extern
#endif

/* Every result code and its text, in one list. */
#define ECS_SCHED__RESULT_LIST(X)                                                       \
    X(OK,                     "ok")                                                     \
    X(ERR_OUT_OF_MEMORY,      "out of memory")                                          \
    X(ERR_INVALID_ARGUMENT,   "invalid argument")                                       \
    X(ERR_STALE_ENTITY,       "entity handle is stale, despawned or never spawned")     \
    X(ERR_UNKNOWN_COMPONENT,  "component id is not registered")                         \
    X(ERR_COMPONENT_MISMATCH, "component name registered again with another layout")    \
    X(ERR_MISSING_COMPONENT,  "entity does not have this component")                    \
    X(ERR_MISSING_RESOURCE,   "resource does not exist")                                \
    X(ERR_INVALID_QUERY,      "query terms contradict each other")                      \
    X(ERR_LIMIT,              "a size limit of the library was reached")                \
    X(ERR_INCONSISTENT,       "world consistency check failed")                        \
    X(ERR_ACCESS,             "a system used data it did not declare")                  \
    X(ERR_UNKNOWN_SCHEDULE,   "no schedule has this label")                             \
    X(ERR_RECURSIVE_RUN,      "a schedule was run while it was already running")        \
    X(ERR_DEPENDENCY_CYCLE,   "the before/after constraints form a cycle")              \
    X(ERR_HIERARCHY_CYCLE,    "the in_set relations form a cycle")                      \
    X(ERR_HIERARCHY_REDUNDANT, "a node is in a set both directly and through another")  \
    X(ERR_ORDER_AGAINST_PARENT, "a node is ordered against a set that contains it")     \
    X(ERR_DUPLICATE_NAME,     "ordering names a system that has several instances")     \
    X(ERR_NAME_CONFLICT,      "a name is used both for systems and for a set")          \
    X(ERR_CROSS_SET_DEPENDENCY, "a dependency joins nodes that are not siblings")       \
    X(ERR_UNKNOWN_SET,        "a set is referenced but nothing configures or fills it") \
    X(ERR_AMBIGUITY,          "systems with conflicting access have no order")          \
    X(ERR_CONDITION_WRITES,   "a run condition asks for write access")

typedef enum ecs_sched_result {
#define ECS_SCHED__RESULT_ENUM(name, text) ECS_SCHED_##name,
    ECS_SCHED__RESULT_LIST(ECS_SCHED__RESULT_ENUM)
#undef ECS_SCHED__RESULT_ENUM
    ECS_SCHED_RESULT_COUNT
} ecs_sched_result;

/* The short fixed text of a result code ("out of memory"). */
ECS_SCHED_API const char *ecs_sched_result_string(ecs_sched_result result);

typedef enum ecs_sched_log_level {
    ECS_SCHED_LOG_DEBUG,
    ECS_SCHED_LOG_INFO,
    ECS_SCHED_LOG_WARN,
    ECS_SCHED_LOG_ERROR,
    ECS_SCHED_LOG_FATAL
} ecs_sched_log_level;

/* Receives every message the library writes, errors included. */
typedef struct ecs_sched_logger {
    void (*fn)(ecs_sched_log_level level, const char *message, void *user_data);
    void *user_data;
} ecs_sched_logger;

/* A run-time allocator. realloc_fn(NULL, n) allocates; it is never called with size 0;
   returning NULL is an allocation failure the library recovers from. */
typedef struct ecs_sched_allocator {
    void *(*realloc_fn)(void *ptr, size_t size, void *user_data);
    void (*free_fn)(void *ptr, void *user_data);
    void *user_data;
} ecs_sched_allocator;

/* Allocation functions for stb_ds, for users who compile stb_ds's implementation themselves:
       #define STBDS_REALLOC(ctx, p, n) ecs_sched_stbds_realloc(ctx, p, n)
       #define STBDS_FREE(ctx, p)       ecs_sched_stbds_free(ctx, p)
   They use the compile-time ECS_SCHED_REALLOC/ECS_SCHED_FREE. stb_ds cannot survive a failed
   allocation, so a failure here is logged at FATAL level and ends the process with
   ECS_SCHED_ABORT() instead of letting stb_ds write through a NULL pointer. */
ECS_SCHED_API void *ecs_sched_stbds_realloc(void *context, void *ptr, size_t size);
ECS_SCHED_API void ecs_sched_stbds_free(void *context, void *ptr);

/*@@ implementation @@*/
/* base: configuration, allocator/assert/log hooks, result codes, error text. */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#if defined(ECS_SCHED_REALLOC) && !defined(ECS_SCHED_FREE) || \
    !defined(ECS_SCHED_REALLOC) && defined(ECS_SCHED_FREE)
#error "ecs_sched.h: define both ECS_SCHED_REALLOC and ECS_SCHED_FREE, or neither"
#endif
#ifndef ECS_SCHED_REALLOC
#define ECS_SCHED_REALLOC(ptr, size) realloc((ptr), (size))
#define ECS_SCHED_FREE(ptr) free(ptr)
#endif

#ifndef ECS_SCHED_ASSERT
#include <assert.h>
#define ECS_SCHED_ASSERT(cond) assert(cond)
#endif

#ifndef ECS_SCHED_ABORT
#define ECS_SCHED_ABORT() abort()
#endif

/* The sink for messages of worlds created without a logger, and of the stb_ds bridge. */
#ifndef ECS_SCHED_LOG
#define ECS_SCHED_LOG(level, message) ecs_sched__log_to_stderr((level), (message))
#endif

/* stb_ds is used only here, for the name maps. Its short names stay out of this file unless
   the user included stb_ds.h before this header. */
#ifndef INCLUDE_STB_DS_H
#ifndef STBDS_NO_SHORT_NAMES
#define STBDS_NO_SHORT_NAMES
#define ECS_SCHED__UNDEF_STBDS_NO_SHORT_NAMES
#endif
#include "stb_ds.h"
#ifdef ECS_SCHED__UNDEF_STBDS_NO_SHORT_NAMES
#undef STBDS_NO_SHORT_NAMES
#undef ECS_SCHED__UNDEF_STBDS_NO_SHORT_NAMES
#endif
#endif

#define ECS_SCHED__ERROR_CAPACITY 512

#ifdef ECS_SCHED_THREADS
#if defined(__cplusplus) || !defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L || \
    defined(__STDC_NO_ATOMICS__)
#error "ECS_SCHED_THREADS needs the implementation compiled as C11 with <stdatomic.h> (e.g. -std=c11)"
#endif
#include <stdatomic.h>
#endif

/* What every allocation and every message of a world goes through. */
typedef struct ecs_sched__env {
    ecs_sched_allocator allocator;
    ecs_sched_logger logger;
    ecs_sched_result last_result;
    char last_error[ECS_SCHED__ERROR_CAPACITY];
#ifdef ECS_SCHED_THREADS
    atomic_int error_lock;     /* systems running at once may fail at once */
#endif
} ecs_sched__env;

#ifdef ECS_SCHED_THREADS
static void ecs_sched__error_lock(ecs_sched__env *env) {
    while (atomic_exchange_explicit(&env->error_lock, 1, memory_order_acquire)) {
    }
}
static void ecs_sched__error_unlock(ecs_sched__env *env) {
    atomic_store_explicit(&env->error_lock, 0, memory_order_release);
}
#else
#define ecs_sched__error_lock(env) ((void)(env))
#define ecs_sched__error_unlock(env) ((void)(env))
#endif

static const char *const ecs_sched__result_texts[] = {
#define ECS_SCHED__RESULT_TEXT(name, text) text,
    ECS_SCHED__RESULT_LIST(ECS_SCHED__RESULT_TEXT)
#undef ECS_SCHED__RESULT_TEXT
};

const char *ecs_sched_result_string(ecs_sched_result result) {
    if ((int)result < 0 || result >= ECS_SCHED_RESULT_COUNT) return "unknown result code";
    return ecs_sched__result_texts[result];
}

static void ecs_sched__log_to_stderr(ecs_sched_log_level level, const char *message) {
    static const char *const names[] = {"debug", "info", "warning", "error", "fatal"};
    if (level < ECS_SCHED_LOG_WARN) return;
    fprintf(stderr, "ecs_sched %s: %s\n", names[level], message);
}

static void *ecs_sched__default_realloc(void *ptr, size_t size, void *user_data) {
    (void)user_data;
    return ECS_SCHED_REALLOC(ptr, size);
}

static void ecs_sched__default_free(void *ptr, void *user_data) {
    (void)user_data;
    ECS_SCHED_FREE(ptr);
}

static void ecs_sched__env_init(ecs_sched__env *env, const ecs_sched_allocator *allocator,
                                const ecs_sched_logger *logger) {
    memset(env, 0, sizeof *env);
#ifdef ECS_SCHED_THREADS
    atomic_init(&env->error_lock, 0);
#endif
    if (allocator && allocator->realloc_fn && allocator->free_fn) {
        env->allocator = *allocator;
    } else {
        env->allocator.realloc_fn = ecs_sched__default_realloc;
        env->allocator.free_fn = ecs_sched__default_free;
    }
    if (logger) env->logger = *logger;
}

static void *ecs_sched__realloc(ecs_sched__env *env, void *ptr, size_t size) {
    ECS_SCHED_ASSERT(size > 0);
    return env->allocator.realloc_fn(ptr, size, env->allocator.user_data);
}

static void *ecs_sched__alloc(ecs_sched__env *env, size_t size) {
    return ecs_sched__realloc(env, NULL, size);
}

static void *ecs_sched__calloc(ecs_sched__env *env, size_t size) {
    void *p = ecs_sched__realloc(env, NULL, size);
    if (p) memset(p, 0, size);
    return p;
}

static void ecs_sched__free(ecs_sched__env *env, void *ptr) {
    if (ptr) env->allocator.free_fn(ptr, env->allocator.user_data);
}

/* Over-allocates by the alignment and keeps the original pointer just below the block, so
   columns honour any component alignment up to ECS_SCHED_MAX_ALIGNMENT whatever the hook
   returns. */
/* `skew` extra bytes shift the block's start, so that blocks used side by side (the columns
   of a table) do not all start at the same offset in a page, where loads from one and stores
   to another would falsely alias in the CPU. */
static void *ecs_sched__aligned_alloc_skewed(ecs_sched__env *env, size_t size, size_t alignment,
                                             size_t skew) {
    size_t total = size + alignment + sizeof(void *) + skew;
    unsigned char *raw = (unsigned char *)ecs_sched__alloc(env, total);
    uintptr_t aligned;
    if (!raw) return NULL;
    aligned = ((uintptr_t)(raw + sizeof(void *) + skew) + alignment - 1) &
              ~(uintptr_t)(alignment - 1);
    memcpy((void *)(aligned - sizeof(void *)), &raw, sizeof raw);
    return (void *)aligned;
}

static void *ecs_sched__aligned_alloc(ecs_sched__env *env, size_t size, size_t alignment) {
    return ecs_sched__aligned_alloc_skewed(env, size, alignment, 0);
}

static void ecs_sched__aligned_free(ecs_sched__env *env, void *ptr) {
    void *raw;
    if (!ptr) return;
    memcpy(&raw, (unsigned char *)ptr - sizeof(void *), sizeof raw);
    ecs_sched__free(env, raw);
}

static char *ecs_sched__strdup(ecs_sched__env *env, const char *text) {
    size_t n = strlen(text) + 1;
    char *copy = (char *)ecs_sched__alloc(env, n);
    if (copy) memcpy(copy, text, n);
    return copy;
}

static void ecs_sched__log(ecs_sched__env *env, ecs_sched_log_level level, const char *message) {
    if (env && env->logger.fn) {
        env->logger.fn(level, message, env->logger.user_data);
    } else {
        ECS_SCHED_LOG(level, message);
    }
}

static void ecs_sched__logf(ecs_sched__env *env, ecs_sched_log_level level, const char *fmt, ...) {
    char message[ECS_SCHED__ERROR_CAPACITY];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    ecs_sched__log(env, level, message);
}

/* Records a failure: the code, a message naming the culprit, and a copy to the log. */
static ecs_sched_result ecs_sched__fail(ecs_sched__env *env, ecs_sched_result code,
                                        const char *fmt, ...) {
    char message[ECS_SCHED__ERROR_CAPACITY];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    ecs_sched__error_lock(env);
    memcpy(env->last_error, message, sizeof message);
    env->last_result = code;
    ecs_sched__error_unlock(env);
    ecs_sched__log(env, ECS_SCHED_LOG_ERROR, message);
    return code;
}

void *ecs_sched_stbds_realloc(void *context, void *ptr, size_t size) {
    void *result;
    char message[160];
    (void)context;
    if (size == 0) {
        ECS_SCHED_FREE(ptr);
        return NULL;
    }
    result = ECS_SCHED_REALLOC(ptr, size);
    if (!result) {
        snprintf(message, sizeof message,
                 "out of memory inside stb_ds (%lu bytes); stb_ds cannot recover from a failed "
                 "allocation, so the process stops here",
                 (unsigned long)size);
        ECS_SCHED_LOG(ECS_SCHED_LOG_FATAL, message);
        ECS_SCHED_ABORT();
    }
    return result;
}

void ecs_sched_stbds_free(void *context, void *ptr) {
    (void)context;
    ECS_SCHED_FREE(ptr);
}

/* ---- text: a growing string for long messages; a failed allocation truncates it ---- */

typedef struct ecs_sched__text {
    ecs_sched__env *env;
    char *data;
    size_t length;
    size_t capacity;
} ecs_sched__text;

static void ecs_sched__text_init(ecs_sched__text *t, ecs_sched__env *env) {
    memset(t, 0, sizeof *t);
    t->env = env;
}

static void ecs_sched__text_free(ecs_sched__text *t) {
    ecs_sched__free(t->env, t->data);
    t->data = NULL;
    t->length = t->capacity = 0;
}

static void ecs_sched__text_printf(ecs_sched__text *t, const char *fmt, ...) {
    va_list args;
    int needed;
    va_start(args, fmt);
    needed = vsnprintf(NULL, 0, fmt, args);
    va_end(args);
    if (needed < 0) return;
    if (t->length + (size_t)needed + 1 > t->capacity) {
        size_t capacity = t->capacity ? t->capacity : 256;
        char *grown;
        while (capacity < t->length + (size_t)needed + 1) capacity *= 2;
        grown = (char *)ecs_sched__realloc(t->env, t->data, capacity);
        if (!grown) return;
        t->data = grown;
        t->capacity = capacity;
    }
    va_start(args, fmt);
    vsnprintf(t->data + t->length, t->capacity - t->length, fmt, args);
    va_end(args);
    t->length += (size_t)needed;
}

static const char *ecs_sched__text_get(const ecs_sched__text *t) {
    return t->data ? t->data : "";
}

/* Records a failure whose message may be long: the log gets all of it, last_error as much as
   fits. */
static ecs_sched_result ecs_sched__fail_text(ecs_sched__env *env, ecs_sched_result code,
                                             const char *text) {
    size_t n = strlen(text);
    ecs_sched__error_lock(env);
    if (n >= sizeof env->last_error) {
        memcpy(env->last_error, text, sizeof env->last_error - 4);
        memcpy(env->last_error + sizeof env->last_error - 4, "...", 4);
    } else {
        memcpy(env->last_error, text, n + 1);
    }
    env->last_result = code;
    ecs_sched__error_unlock(env);
    ecs_sched__log(env, ECS_SCHED_LOG_ERROR, text);
    return code;
}

/* ---- arena: many allocations freed at once (schedule builds and plans) ---- */

typedef struct ecs_sched__arena_block {
    struct ecs_sched__arena_block *next;
    size_t used;
    size_t capacity;
} ecs_sched__arena_block;

typedef struct ecs_sched__arena {
    ecs_sched__env *env;
    ecs_sched__arena_block *blocks;
} ecs_sched__arena;

static void ecs_sched__arena_init(ecs_sched__arena *a, ecs_sched__env *env) {
    a->env = env;
    a->blocks = NULL;
}

/* Zeroed, aligned for any scalar; NULL when the allocator fails. */
static void *ecs_sched__arena_alloc(ecs_sched__arena *a, size_t size) {
    const size_t align = 16, header = (sizeof(ecs_sched__arena_block) + 15) & ~(size_t)15;
    ecs_sched__arena_block *b = a->blocks;
    unsigned char *p;
    size = (size + align - 1) & ~(align - 1);
    if (size == 0) size = align;
    if (!b || b->capacity - b->used < size) {
        size_t capacity = size > 65536 ? size : 65536;
        b = (ecs_sched__arena_block *)ecs_sched__alloc(a->env, header + capacity);
        if (!b) return NULL;
        b->capacity = capacity;
        b->used = 0;
        b->next = a->blocks;
        a->blocks = b;
    }
    p = (unsigned char *)b + header + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

static void ecs_sched__arena_free(ecs_sched__arena *a) {
    while (a->blocks) {
        ecs_sched__arena_block *next = a->blocks->next;
        ecs_sched__free(a->env, a->blocks);
        a->blocks = next;
    }
}
