/* base: configuration, allocator/assert/log hooks, result codes, error text, and the small
   tools every module uses (growing arrays, bitsets, an arena, long messages). */
#pragma once

#define ECS_SCHED_VERSION_MAJOR 0
#define ECS_SCHED_VERSION_MINOR 3
#define ECS_SCHED_VERSION_PATCH 0
#define ECS_SCHED_VERSION_STRING "0.3.0"

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/* ---- configuration ----

   Every macro a user may define, in one place. Define them before including the header; the
   limits and ECS_SCHED_API must be the same in every file that includes it.

   Limits (fixed-size arrays in desc structs, contexts and iterators), each in the list
   ECS_SCHED__CONFIGURATION_LIST below:
     ECS_SCHED_MAX_TERMS       terms per query                                    default 8
     ECS_SCHED_MAX_QUERIES     queries per system or condition                    default 4
     ECS_SCHED_MAX_RESOURCES   resources read, and written, per system/condition  default 8
     ECS_SCHED_MAX_CONDITIONS  run_if entries per system, set or group            default 4
     ECS_SCHED_MAX_REFS        names per in_set / before / after / ambiguous_with default 8
     ECS_SCHED_MAX_STATE_VALUES values of one state machine                       default 32
     ECS_SCHED_MAX_STATE_SOURCES machines a computed state is computed from        default 8
     ECS_SCHED_ITER_ROWS       rows per call of ecs_sched_iter_next_rows          default 64
     ECS_SCHED_MAX_OBSERVER_FILTER  with / without ids per observer               default 4
   Fixed:
     ECS_SCHED_MAX_ALIGNMENT   the largest component alignment storage honours    64
     ECS_SCHED_DEFAULT_GRAIN   the smallest piece a parallel iteration with grain 0 makes: 256
                               items (its pieces: about 4 per thread of the pool)

   Switches:
     ECS_SCHED_IMPLEMENTATION  in exactly one file: compile the implementation there
     ECS_SCHED_STATIC          the whole library private to the one file that includes it
                               (public functions static; unused ones are not warned about)
     ECS_SCHED_API             how public functions are declared (default extern)
     ECS_SCHED_THREADS         the work-stealing pool and the parallel executor; the file
                               with the implementation is then compiled as C11 (<stdatomic.h>)
     ECS_SCHED_NO_MEMBARRIER   (with threads, Linux) ordinary fences instead of membarrier(2)
     ECS_SCHED_SCRIPTS         language drivers and the scripts they run (see SCRIPTS)
     ECS_SCHED_NATIVE_SCRIPTS  the native driver: C systems in shared libraries, reloaded
                               when rebuilt (POSIX dlopen; defines ECS_SCHED_SCRIPTS)
     ECS_SCHED_LUA             the Lua driver: systems, observers and components written in
                               Lua (LuaJIT 2.1 or Lua 5.4, whose headers the implementation
                               includes; defines ECS_SCHED_SCRIPTS)
     ECS_SCHED_NO_RELATIONS, _NO_INHERITANCE, _NO_REFLECT, _NO_SNAPSHOT, _NO_STEPPING,
     _NO_STATES, _NO_APP, _NO_QUERY_TEXT, and ECS_SCHED_MINIMAL (all of them): features left out, declarations
                               and implementation (see Leaving features out in CONFIGURATION);
                               the same in every file

   Hooks (read where the implementation is compiled):
     ECS_SCHED_REALLOC(p, n), ECS_SCHED_FREE(p)  the allocator of worlds without their own
                               (define both or neither; default realloc and free)
     ECS_SCHED_ASSERT(cond)    programmer errors that cannot be reported (default assert)
     ECS_SCHED_ABORT()         the stop after an allocation failure inside stb_ds (abort)
     ECS_SCHED_LOG(level, result, message)  messages of worlds without a logger, and of the
                               stb_ds bridge (default: warnings and worse to stderr) */

#ifndef ECS_SCHED_MAX_TERMS
#define ECS_SCHED_MAX_TERMS 8
#endif
#ifndef ECS_SCHED_ITER_ROWS
#define ECS_SCHED_ITER_ROWS 64
#endif
#ifndef ECS_SCHED_MAX_QUERIES
#define ECS_SCHED_MAX_QUERIES 4
#endif
#ifndef ECS_SCHED_MAX_RESOURCES
#define ECS_SCHED_MAX_RESOURCES 8
#endif
#ifndef ECS_SCHED_MAX_CONDITIONS
#define ECS_SCHED_MAX_CONDITIONS 4
#endif
#ifndef ECS_SCHED_MAX_REFS
#define ECS_SCHED_MAX_REFS 8
#endif
#ifndef ECS_SCHED_MAX_STATE_VALUES
#define ECS_SCHED_MAX_STATE_VALUES 32
#endif
#ifndef ECS_SCHED_MAX_STATE_SOURCES
#define ECS_SCHED_MAX_STATE_SOURCES 8
#endif
#ifndef ECS_SCHED_MAX_OBSERVER_FILTER
#define ECS_SCHED_MAX_OBSERVER_FILTER 4
#endif
#define ECS_SCHED_MAX_ALIGNMENT 64
#define ECS_SCHED_DEFAULT_GRAIN 256

/* Features left out. A feature goes with those it needs: IsA is a relationship, a snapshot
   copies relationships and bases, and the JSON files read components through reflection and
   make prefabs. */
#ifdef ECS_SCHED_MINIMAL
#ifndef ECS_SCHED_NO_RELATIONS
#define ECS_SCHED_NO_RELATIONS
#endif
#ifndef ECS_SCHED_NO_INHERITANCE
#define ECS_SCHED_NO_INHERITANCE
#endif
#ifndef ECS_SCHED_NO_REFLECT
#define ECS_SCHED_NO_REFLECT
#endif
#ifndef ECS_SCHED_NO_SNAPSHOT
#define ECS_SCHED_NO_SNAPSHOT
#endif
#ifndef ECS_SCHED_NO_STEPPING
#define ECS_SCHED_NO_STEPPING
#endif
#ifndef ECS_SCHED_NO_STATES
#define ECS_SCHED_NO_STATES
#endif
#ifndef ECS_SCHED_NO_APP
#define ECS_SCHED_NO_APP
#endif
#ifndef ECS_SCHED_NO_QUERY_TEXT
#define ECS_SCHED_NO_QUERY_TEXT
#endif
#endif
#if defined(ECS_SCHED_NATIVE_SCRIPTS) && !defined(ECS_SCHED_SCRIPTS)
#define ECS_SCHED_SCRIPTS
#endif
#if defined(ECS_SCHED_LUA) && !defined(ECS_SCHED_SCRIPTS)
#define ECS_SCHED_SCRIPTS
#endif
#if defined(ECS_SCHED_NO_RELATIONS) && !defined(ECS_SCHED_NO_INHERITANCE)
#define ECS_SCHED_NO_INHERITANCE
#endif
#if (defined(ECS_SCHED_NO_RELATIONS) || defined(ECS_SCHED_NO_INHERITANCE)) && \
    !defined(ECS_SCHED_NO_SNAPSHOT)
#define ECS_SCHED_NO_SNAPSHOT
#endif
#if defined(ECS_SCHED_NO_RELATIONS) || defined(ECS_SCHED_NO_REFLECT) || \
    defined(ECS_SCHED_NO_SNAPSHOT) || defined(ECS_SCHED_NO_STEPPING) || \
    defined(ECS_SCHED_NO_STATES) || defined(ECS_SCHED_NO_APP) || defined(ECS_SCHED_NO_QUERY_TEXT)
#define ECS_SCHED__LEAVES_OUT   /* (NO_INHERITANCE implies NO_SNAPSHOT) */
#endif
#if defined(ECS_SCHED_REMOTE) && !defined(ECS_SCHED_JSON)
#define ECS_SCHED_JSON   /* the remote protocol's values are the JSON files' */
#endif
#if defined(ECS_SCHED_JSON) && (defined(ECS_SCHED_NO_REFLECT) || defined(ECS_SCHED_NO_INHERITANCE))
#error "ECS_SCHED_JSON reads components through reflection and loads prefab data: it cannot be \
defined with ECS_SCHED_NO_REFLECT, ECS_SCHED_NO_INHERITANCE, ECS_SCHED_NO_RELATIONS or \
ECS_SCHED_MINIMAL"
#endif

#ifndef ECS_SCHED_API
#ifdef ECS_SCHED_STATIC
#define ECS_SCHED_API static
#else
#define ECS_SCHED_API extern
#endif
#endif

/* Every macro that sizes an array in a public struct, in one list. A file that saw other
   values than the implementation passes structs of another layout; to make that a link error
   instead of memory corruption, every file refers, for each macro of the list, to a function
   whose name spells out the value it saw, and the implementation defines the ones for its own
   values. A file that disagrees fails to link with "undefined reference to
   `ecs_sched_implementation_with_MAX_REFS_2'": the macro that differs and the value that file
   wants. (`retain` keeps the references through --gc-sections.) The values must therefore be
   plain integer literals, such as 2, not (2). A macro added here needs its default above, its
   entry in the documentation block's CONFIGURATION (make check-doc) and a case in the
   Makefile's CONFIG_OTHERS. */
#define ECS_SCHED__CONFIGURATION_LIST(X)                                                     \
    X(MAX_TERMS) X(MAX_QUERIES) X(MAX_RESOURCES) X(MAX_CONDITIONS) X(MAX_REFS)              \
    X(MAX_STATE_VALUES) X(MAX_STATE_SOURCES) X(ITER_ROWS) X(MAX_OBSERVER_FILTER)
/* ecs_sched_implementation_with_<NAME>_<value>: the name is pasted before it could expand (a
   program's own macro NAME changes nothing), the value expanded first. */
#define ECS_SCHED__CONFIG_PASTE(prefix, value) prefix##_##value
#define ECS_SCHED__CONFIG_VALUE(prefix, value) ECS_SCHED__CONFIG_PASTE(prefix, value)
#define ECS_SCHED__CONFIG_SYMBOL(name)                                                        \
    ECS_SCHED__CONFIG_VALUE(ecs_sched_implementation_with_##name, ECS_SCHED_##name)
#define ECS_SCHED__CONFIG_DECLARE(name) ECS_SCHED_API int ECS_SCHED__CONFIG_SYMBOL(name)(void);
#define ECS_SCHED__CONFIG_REFER(name) ECS_SCHED__CONFIG_SYMBOL(name),

#ifndef ECS_SCHED_STATIC   /* a private copy is compiled with the one file that uses it */
ECS_SCHED__CONFIGURATION_LIST(ECS_SCHED__CONFIG_DECLARE)
#if defined(__GNUC__) || defined(__clang__) || defined(__TINYC__)
#if defined(__has_attribute)
#if __has_attribute(retain)
#define ECS_SCHED__RETAIN retain,
#endif
#endif
#ifndef ECS_SCHED__RETAIN
#define ECS_SCHED__RETAIN
#endif
static int (*const ecs_sched__configuration[])(void) __attribute__((ECS_SCHED__RETAIN used)) = {
    ECS_SCHED__CONFIGURATION_LIST(ECS_SCHED__CONFIG_REFER)
};
#endif
#endif

/* Every result code and its text, in one list. */
/* A printf-like function: its callers' formats are checked against their arguments, and its
   own use of the format it is given is not a non-literal format. (The reserved spellings, so
   that a program defining a printf macro does not change it.) */
#if defined(__GNUC__) || defined(__clang__)
#define ECS_SCHED__PRINTF(fmt_at, args_at) __attribute__((__format__(__printf__, fmt_at, args_at)))
#else
#define ECS_SCHED__PRINTF(fmt_at, args_at)
#endif

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
    X(ERR_DUPLICATE_NAME,     "ordering or ambiguous_with names several systems")       \
    X(ERR_NAME_CONFLICT,      "a name is used both for systems and for a set")          \
    X(ERR_CROSS_SET_DEPENDENCY, "a dependency joins nodes that are not siblings")       \
    X(ERR_UNKNOWN_SET,        "a set is referenced but nothing configures or fills it") \
    X(ERR_AMBIGUITY,          "systems with conflicting access have no order")          \
    X(ERR_CONDITION_WRITES,   "a run condition asks for write access")              \
    X(ERR_SCHEDULE_RUNNING,   "the schedule is running and cannot be rebuilt now")      \
    X(ERR_UNKNOWN_STATE,      "id is not a registered state machine")                   \
    X(ERR_STATE_MISMATCH,     "state machine name registered again with other values")  \
    X(ERR_STATE_ABSENT,       "the state machine does not exist now (a sub-state)")     \
    X(ERR_STATE_CYCLE,        "state machines would be computed from each other")      \
    X(ERR_PLUGIN_CYCLE,       "plugins need each other in a cycle")                     \
    X(ERR_SYSTEM_FAILED,      "a system reported a failure")                            \
    X(ERR_RELATION_CYCLE,     "a relationship would make an entity its own ancestor")   \
    X(ERR_REFUSED,            "a rule set at registration refuses the operation")       \
    X(ERR_NAME_CLASH,         "two entities would have the same name in one scope")     \
    X(ERR_NOT_FOUND,          "nothing has this name or path")                          \
    X(ERR_QUERY_SYNTAX,       "a query's text does not parse")                          \
    X(ERR_SCRIPT,             "a script failed to load, to declare what it defines or to run")

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

/* Receives every message the library writes, errors included. `result` is the code of the
   failure (or, for a warning, of the rule that warns: ECS_SCHED_ERR_AMBIGUITY, ...), and
   ECS_SCHED_OK for plain information, so a logger can filter without reading the text. */
typedef struct ecs_sched_logger {
    void (*fn)(ecs_sched_log_level level, ecs_sched_result result, const char *message,
               void *user_data);
    void *user_data;
} ecs_sched_logger;

/* A failure inside a schedule run, as the error hook gets it. */
typedef struct ecs_sched_failure {
    ecs_sched_result code;
    const char *kind;           /* "system", or "condition" */
    const char *name;           /* the system's (or condition's) name */
    const char *schedule;       /* the schedule it ran in */
    const char *message;        /* whole, e.g. "system 'spawn' in schedule 'Update': insert:
                                   entity 12v3 is stale" */
} ecs_sched_failure;

/* What a run does when a system fails (see ERRORS in the documentation block). */
typedef enum ecs_sched_error_policy {
    ECS_SCHED_ON_ERROR_DEFAULT = 0,  /* a schedule: the world's; a world: HOOK when it has an
                                        error hook, else STOP */
    ECS_SCHED_ON_ERROR_STOP,         /* no further system of the run starts */
    ECS_SCHED_ON_ERROR_CONTINUE,     /* every system runs */
    ECS_SCHED_ON_ERROR_HOOK          /* the world's error hook decides, failure by failure */
} ecs_sched_error_policy;

typedef enum ecs_sched_failure_action {
    ECS_SCHED_FAILURE_STOP,            /* as ECS_SCHED_ON_ERROR_STOP, from this failure on */
    ECS_SCHED_FAILURE_CONTINUE,        /* the run goes on, and returns the failure */
    ECS_SCHED_FAILURE_IGNORE           /* the run goes on as if it had not failed */
} ecs_sched_failure_action;

/* Gets every failure of every run of the world (also under the STOP and CONTINUE policies,
   where what it returns is not asked). It may be called on a worker thread, never by two
   threads at once. */
typedef struct ecs_sched_error_hook {
    ecs_sched_failure_action (*fn)(const ecs_sched_failure *failure, void *user_data);
    void *user_data;
} ecs_sched_error_hook;

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
/* base: hooks, result texts, the environment of a world, and shared tools. */

#include <ctype.h>
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
#ifdef NDEBUG
/* Not evaluated, but what it names still counts as used: a release build (-DNDEBUG -Werror)
   warns no more than a debug one. */
#define ECS_SCHED_ASSERT(cond) ((void)sizeof(!(cond)))
#else
#include <assert.h>
#define ECS_SCHED_ASSERT(cond) assert(cond)
#endif
#endif

#ifndef ECS_SCHED_ABORT
#define ECS_SCHED_ABORT() abort()
#endif

/* The sink for messages of worlds created without a logger, and of the stb_ds bridge. */
#ifndef ECS_SCHED_LOG
#define ECS_SCHED__DEFAULT_LOG
#define ECS_SCHED_LOG(level, result, message) \
    ecs_sched__log_to_stderr((level), (result), (message))
#endif

/* stb_ds is used only for the name maps (below). Its short names stay out of this file unless
   the user included stb_ds.h before this header. */
#ifndef INCLUDE_STB_DS_H
#ifndef STBDS_NO_SHORT_NAMES
#define STBDS_NO_SHORT_NAMES
#define ECS_SCHED__UNDEF_STBDS_NO_SHORT_NAMES
#endif
#if defined(__has_include)
#if !__has_include("stb_ds.h")
#error "ecs_sched.h needs stb_ds.h on the include path: on Debian, apt-get install libstb-dev and build with $(pkg-config --cflags --libs stb); or copy stb_ds.h next to your files and, in one of them, #define STB_DS_IMPLEMENTATION before #include \"stb_ds.h\""
#endif
#endif
#include "stb_ds.h"
#ifdef ECS_SCHED__UNDEF_STBDS_NO_SHORT_NAMES
#undef STBDS_NO_SHORT_NAMES
#undef ECS_SCHED__UNDEF_STBDS_NO_SHORT_NAMES
#endif
#endif

#ifndef ECS_SCHED_STATIC
/* See ECS_SCHED__CONFIGURATION_LIST: the names files with this configuration link against. */
#define ECS_SCHED__CONFIG_DEFINE(name) \
    int ECS_SCHED__CONFIG_SYMBOL(name)(void) { return ECS_SCHED_##name; }
ECS_SCHED__CONFIGURATION_LIST(ECS_SCHED__CONFIG_DEFINE)
#endif

#define ECS_SCHED__ERROR_CAPACITY 512


#ifdef ECS_SCHED_THREADS
#if defined(__cplusplus)
#error "ECS_SCHED_THREADS: compile the implementation in a C11 file (a .c with -std=c11 and ECS_SCHED_THREADS), and include ecs_sched.h without ECS_SCHED_IMPLEMENTATION in your C++ files; the threads use C11 atomics, which C++ compilers do not provide"
#elif !defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L || defined(__STDC_NO_ATOMICS__)
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
    atomic_int log_lock;       /* and the logger hears them one at a time */
#endif
} ecs_sched__env;

/* ---- what is running ----

   The system (or condition, or observer) running on this thread, or NULL: the part of its
   context (an ecs_sched_system_ctx, context.h, whose first member it is) that a library call
   reads, wherever it is made. A library call that fails while it runs is recorded there (the
   first failure, with its name and schedule in front of the message), and the executor looks
   there when the system returns. A nested run saves and restores it. What a run of a system
   costs is two stores and a load more than a plain call. */
typedef struct ecs_sched__running {
    ecs_sched_result failure;         /* the first failure of its run so far; OK while none,
                                         and whenever it is not running: whoever runs it takes
                                         the failure after (on the line of the system's fn) */
    bool failure_refused;             /* with failure: a refused access, not clearable */
    /* (apart from failure_refused, which the pieces of a parallel query write under the
       error lock: a load of the two flags below may read their whole word) */
    uint32_t this_run;                /* its change tick (while ticks are on, ticks.h) */
    bool applying;                    /* its commands are applied at a sync point right now */
    bool exclusive;                   /* it may change the world directly */
    ecs_sched__env *env;              /* of its world */
    char *failure_message;            /* made at its first failure, kept for the next */
    const char *kind;                 /* "system", "condition" or "observer", for messages */
    const char *name;
    const char *schedule;             /* the label of its schedule (NULL: an observer) */
    const char *guards_kind;          /* conditions: "system" or "set", what they guard, */
    const char *guards_name;          /* and its name */
    void *owner;                      /* the context holding this record, set as it starts
                                         running (context.h) */
} ecs_sched__running;

/* Thread-local wherever the compiler can: without ECS_SCHED_THREADS the library has no
   threads of its own, but a program may still run separate worlds on separate threads. */
#if defined(ECS_SCHED_THREADS)
#define ECS_SCHED__THREAD_LOCAL _Thread_local
#elif defined(__cplusplus) && __cplusplus >= 201103L
#define ECS_SCHED__THREAD_LOCAL thread_local
#elif defined(__GNUC__) || defined(__clang__)
#define ECS_SCHED__THREAD_LOCAL __thread
#elif defined(_MSC_VER)
#define ECS_SCHED__THREAD_LOCAL __declspec(thread)
#else
#define ECS_SCHED__THREAD_LOCAL
#endif

static ECS_SCHED__THREAD_LOCAL ecs_sched__running *ecs_sched__running_now;

/* Keeps a function that is rarely worth its call (a loop behind a test that usually fails)
   out of its caller, so that the caller's common case stays a test. */
#if defined(__GNUC__) || defined(__clang__)
#define ECS_SCHED__NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define ECS_SCHED__NOINLINE __declspec(noinline)
#else
#define ECS_SCHED__NOINLINE
#endif

/* The other way round, for a small function that a hot loop must not call (compilers weigh
   it against the header's size, which grows), and the common case of a branch, which the
   compiler then lays out straight. */
#if defined(__GNUC__) || defined(__clang__)
#define ECS_SCHED__ALWAYS_INLINE inline __attribute__((always_inline))
#define ECS_SCHED__LIKELY(x) __builtin_expect(!!(x), 1)
#elif defined(_MSC_VER)
#define ECS_SCHED__ALWAYS_INLINE __forceinline
#define ECS_SCHED__LIKELY(x) (x)
#else
#define ECS_SCHED__ALWAYS_INLINE inline
#define ECS_SCHED__LIKELY(x) (x)
#endif

/* What runs on this thread for the world of env, or NULL. */
static ecs_sched__running *ecs_sched__running_in(const ecs_sched__env *env) {
    ecs_sched__running *running = ecs_sched__running_now;
    return running && running->env == env ? running : NULL;
}

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

#ifdef ECS_SCHED__DEFAULT_LOG
static void ecs_sched__log_to_stderr(ecs_sched_log_level level, ecs_sched_result result,
                                     const char *message) {
    static const char *const names[] = {"debug", "info", "warning", "error", "fatal"};
    (void)result;  /* the message names the problem */
    if (level < ECS_SCHED_LOG_WARN) return;
    fprintf(stderr, "ecs_sched %s: %s\n", names[level], message);
}
#endif

static void *ecs_sched__default_realloc(void *ptr, size_t size, void *user_data) {
    (void)user_data;
    return ECS_SCHED_REALLOC(ptr, size);
}

static void ecs_sched__default_free(void *ptr, void *user_data) {
    (void)user_data;
    ECS_SCHED_FREE(ptr);
}

/* The allocator a desc asks for, or the compile-time one when it leaves a function out. */
static ecs_sched_allocator ecs_sched__allocator_defaults(const ecs_sched_allocator *allocator) {
    ecs_sched_allocator a;
    if (allocator && allocator->realloc_fn && allocator->free_fn) return *allocator;
    a.realloc_fn = ecs_sched__default_realloc;
    a.free_fn = ecs_sched__default_free;
    a.user_data = NULL;
    return a;
}

static void ecs_sched__env_init(ecs_sched__env *env, const ecs_sched_allocator *allocator,
                                const ecs_sched_logger *logger) {
    memset(env, 0, sizeof *env);
#ifdef ECS_SCHED_THREADS
    atomic_init(&env->error_lock, 0);
    atomic_init(&env->log_lock, 0);
#endif
    env->allocator = ecs_sched__allocator_defaults(allocator);
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

/* Grows (or shrinks) a block of ecs_sched__aligned_alloc_skewed to `size` bytes, keeping its
   first `used` bytes: through the allocator's realloc, which for a large block moves pages
   rather than bytes (no copy, and no page touched that the data does not use). NULL when out
   of memory, and the block is as it was. */
static void *ecs_sched__aligned_realloc_skewed(ecs_sched__env *env, void *ptr, size_t used,
                                               size_t size, size_t alignment, size_t skew) {
    unsigned char *raw, *grown;
    size_t offset;
    uintptr_t aligned;
    if (!ptr) return ecs_sched__aligned_alloc_skewed(env, size, alignment, skew);
    memcpy(&raw, (unsigned char *)ptr - sizeof(void *), sizeof raw);
    offset = (size_t)((unsigned char *)ptr - raw);
    grown = (unsigned char *)ecs_sched__realloc(env, raw, size + alignment + sizeof(void *) + skew);
    if (!grown) return NULL;
    aligned = ((uintptr_t)(grown + sizeof(void *) + skew) + alignment - 1) &
              ~(uintptr_t)(alignment - 1);
    if ((unsigned char *)aligned != grown + offset) memmove((void *)aligned, grown + offset, used);
    memcpy((void *)(aligned - sizeof(void *)), &grown, sizeof grown);
    return (void *)aligned;
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

/* The logger hears one message at a time, whichever threads fail at once; a logger that
   makes the library log again (on its own thread) is not held up by itself. */
static void ecs_sched__log(ecs_sched__env *env, ecs_sched_log_level level,
                           ecs_sched_result result, const char *message) {
#ifdef ECS_SCHED_THREADS
    static _Thread_local bool logging;
    bool serialize = env && !logging;
    if (serialize) {
        while (atomic_exchange_explicit(&env->log_lock, 1, memory_order_acquire)) {
        }
        logging = true;
    }
#endif
    if (env && env->logger.fn) {
        env->logger.fn(level, result, message, env->logger.user_data);
    } else {
        ECS_SCHED_LOG(level, result, message);
    }
#ifdef ECS_SCHED_THREADS
    if (serialize) {
        logging = false;
        atomic_store_explicit(&env->log_lock, 0, memory_order_release);
    }
#endif
}

static void ecs_sched__logf(ecs_sched__env *env, ecs_sched_log_level level,
                            ecs_sched_result result, const char *fmt, ...)
    ECS_SCHED__PRINTF(4, 5);
static void ecs_sched__logf(ecs_sched__env *env, ecs_sched_log_level level,
                            ecs_sched_result result, const char *fmt, ...) {
    char message[ECS_SCHED__ERROR_CAPACITY];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    ecs_sched__log(env, level, result, message);
}

/* ---- failures of what is running ---- */

/* Appends text at out[at], as far as it fits in n (always terminated); returns the end. */
static size_t ecs_sched__append(char *out, size_t n, size_t at, const char *text) {
    size_t k = strlen(text);
    if (at >= n) return at;
    if (k > n - 1 - at) k = n - 1 - at;
    memcpy(out + at, text, k);
    out[at + k] = '\0';
    return at + k;
}

/* "system 'x' in schedule 'S': " or "condition 'c' (guarding set 's') in schedule 'S': ";
   returns its length. (Put together piece by piece: a system that fails every frame pays
   for it each time.) */
static size_t ecs_sched__running_prefix(const ecs_sched__running *running, char *out, size_t n) {
    size_t at = 0;
    at = ecs_sched__append(out, n, at, running->kind);
    at = ecs_sched__append(out, n, at, " '");
    at = ecs_sched__append(out, n, at, running->name);
    if (running->guards_name) {
        at = ecs_sched__append(out, n, at, "' (guarding ");
        at = ecs_sched__append(out, n, at, running->guards_kind);
        at = ecs_sched__append(out, n, at, " '");
        at = ecs_sched__append(out, n, at, running->guards_name);
        at = ecs_sched__append(out, n, at, "')");
    } else {
        at = ecs_sched__append(out, n, at, "'");
    }
    if (!running->schedule) return ecs_sched__append(out, n, at, ": ");   /* an observer */
    at = ecs_sched__append(out, n, at, " in schedule '");
    at = ecs_sched__append(out, n, at, running->schedule);
    return ecs_sched__append(out, n, at, "': ");
}

/* Whether what runs may change the world directly. */
static bool ecs_sched__running_may_change(const ecs_sched__running *running) {
    return running->exclusive || running->applying;
}

/* Keeps a failure on what runs: the first one, or a refused access over one that is not.
   Without room for the message (out of memory), the code alone is kept. */
static void ecs_sched__running_keep(ecs_sched__running *running, ecs_sched_result code,
                                    const char *message, bool refused) {
    if (running->failure != ECS_SCHED_OK && (running->failure_refused || !refused)) return;
    running->failure = code;
    running->failure_refused = refused;
    if (!running->failure_message) {
        running->failure_message =
            (char *)ecs_sched__alloc(running->env, ECS_SCHED__ERROR_CAPACITY);
        if (!running->failure_message) return;
    }
    ecs_sched__append(running->failure_message, ECS_SCHED__ERROR_CAPACITY, 0, message);
}

/* Records a failure: the code, a message naming the culprit, and a copy to the log. Inside a
   system, the failure is also the system's (refused: one it cannot clear). */
/* Inside a call made of other calls (a JSON load, json.h), the failures of the calls it makes
   are recorded but neither logged nor made the running system's: it tells the one that ends
   it, once. */
static ECS_SCHED__THREAD_LOCAL int ecs_sched__hush_depth;

static ecs_sched_result ecs_sched__vfail_on(ecs_sched__env *env, ecs_sched__running *running,
                                            ecs_sched_result code, bool refused, const char *fmt,
                                            va_list args) ECS_SCHED__PRINTF(5, 0);
static ecs_sched_result ecs_sched__vfail_on(ecs_sched__env *env, ecs_sched__running *running,
                                            ecs_sched_result code, bool refused, const char *fmt,
                                            va_list args) {
    char message[ECS_SCHED__ERROR_CAPACITY];
    size_t at = running ? ecs_sched__running_prefix(running, message, sizeof message) : 0;
    vsnprintf(message + at, sizeof message - at, fmt, args);
    ecs_sched__error_lock(env);   /* the pieces of a parallel query may fail at once */
    if (running && !ecs_sched__hush_depth) ecs_sched__running_keep(running, code, message, refused);
    memcpy(env->last_error, message, strlen(message) + 1);
    env->last_result = code;
    ecs_sched__error_unlock(env);
    if (!ecs_sched__hush_depth) ecs_sched__log(env, ECS_SCHED_LOG_ERROR, code, message);
    return code;
}

static ecs_sched_result ecs_sched__vfail(ecs_sched__env *env, ecs_sched_result code, bool refused,
                                         const char *fmt, va_list args) ECS_SCHED__PRINTF(4, 0);
static ecs_sched_result ecs_sched__vfail(ecs_sched__env *env, ecs_sched_result code, bool refused,
                                         const char *fmt, va_list args) {
    return ecs_sched__vfail_on(env, ecs_sched__running_in(env), code, refused, fmt, args);
}

static ecs_sched_result ecs_sched__fail(ecs_sched__env *env, ecs_sched_result code,
                                        const char *fmt, ...) ECS_SCHED__PRINTF(3, 4);
static ecs_sched_result ecs_sched__fail(ecs_sched__env *env, ecs_sched_result code,
                                        const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    code = ecs_sched__vfail(env, code, false, fmt, args);
    va_end(args);
    return code;
}

/* A failure that is a refused access: inside a system, one it cannot clear. */
static ecs_sched_result ecs_sched__refuse(ecs_sched__env *env, ecs_sched_result code,
                                          const char *fmt, ...) ECS_SCHED__PRINTF(3, 4);
static ecs_sched_result ecs_sched__refuse(ecs_sched__env *env, ecs_sched_result code,
                                          const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    code = ecs_sched__vfail(env, code, true, fmt, args);
    va_end(args);
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
        ECS_SCHED_LOG(ECS_SCHED_LOG_FATAL, ECS_SCHED_ERR_OUT_OF_MEMORY, message);
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

static void ecs_sched__text_printf(ecs_sched__text *t, const char *fmt, ...)
    ECS_SCHED__PRINTF(2, 3);
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

/* ---- printing into a caller's buffer, with snprintf's rule: what does not fit is cut, and
   the length counts all of it ---- */

typedef struct ecs_sched__printing {
    char *out;
    int32_t capacity;
    int32_t length;
} ecs_sched__printing;

static void ecs_sched__printf_to(ecs_sched__printing *t, const char *format, ...)
    ECS_SCHED__PRINTF(2, 3);
static void ecs_sched__printf_to(ecs_sched__printing *t, const char *format, ...) {
    char *at = t->out && t->length < t->capacity ? t->out + t->length : NULL;
    va_list args;
    int n;
    va_start(args, format);
    n = vsnprintf(at, at ? (size_t)(t->capacity - t->length) : 0, format, args);
    va_end(args);
    if (n > 0) t->length += n;
}

/* Ends the text with its zero (cut at the capacity). */
static void ecs_sched__print_end(ecs_sched__printing *t) {
    if (t->out && t->capacity > 0) t->out[t->length < t->capacity ? t->length : t->capacity - 1] = '\0';
}

static void ecs_sched__print_bytes(ecs_sched__printing *t, const char *text, size_t n) {
    if (t->out && t->length < t->capacity) {
        int32_t room = t->capacity - t->length;
        memcpy(t->out + t->length, text, n < (size_t)room ? n : (size_t)room);
    }
    t->length += (int32_t)n;
}

/* Records a failure whose message may be long: the log gets all of it, last_error as much as
   fits. */
static ecs_sched_result ecs_sched__fail_text(ecs_sched__env *env, ecs_sched_result code,
                                             const char *text) {
    char whole[4 * ECS_SCHED__ERROR_CAPACITY];
    ecs_sched__running *running = ecs_sched__running_in(env);
    size_t n;
    if (running) {   /* the system's name in front, as ecs_sched__fail does */
        size_t at = ecs_sched__running_prefix(running, whole, sizeof whole);
        snprintf(whole + at, sizeof whole - at, "%s", text);
        text = whole;
    }
    n = strlen(text);
    ecs_sched__error_lock(env);
    if (running) ecs_sched__running_keep(running, code, text, false);
    if (n >= sizeof env->last_error) {
        memcpy(env->last_error, text, sizeof env->last_error - 4);
        memcpy(env->last_error + sizeof env->last_error - 4, "...", 4);
    } else {
        memcpy(env->last_error, text, n + 1);
    }
    env->last_result = code;
    ecs_sched__error_unlock(env);
    ecs_sched__log(env, ECS_SCHED_LOG_ERROR, code, text);
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

/* ---- growing arrays ---- */

/* The block of an array with room for `needed` elements of `element_size` bytes: the same
   block, or a larger one (*capacity then grows). On failure it returns the block unchanged
   and leaves *capacity below `needed`. */
static void *ecs_sched__grow_block(ecs_sched__env *env, void *array, uint32_t *capacity,
                                   uint32_t needed, size_t element_size) {
    uint32_t new_capacity;
    void *grown;
    if (needed <= *capacity) return array;
    new_capacity = *capacity ? *capacity : 8;
    while (new_capacity < needed) {
        if (new_capacity > UINT32_MAX / 2) {
            new_capacity = needed;
            break;
        }
        new_capacity *= 2;
    }
    if ((size_t)new_capacity > SIZE_MAX / element_size) return array;
    grown = ecs_sched__realloc(env, array, (size_t)new_capacity * element_size);
    if (!grown) return array;
    *capacity = new_capacity;
    return grown;
}

/* Makes room for `needed` elements in `array` (a typed pointer lvalue with its uint32_t
   capacity); true on success, false with the array unchanged. The pointer is assigned with
   its own type, never through a void **. */
#ifdef __cplusplus
template <typename T> static T *ecs_sched__as_typed(T *, void *block) {
    return static_cast<T *>(block);
}
#define ECS_SCHED__GROW(env, array, capacity, needed)                                          \
    ((array) = ecs_sched__as_typed((array), ecs_sched__grow_block((env), (array), (capacity),  \
                                                                  (needed), sizeof *(array))), \
     *(capacity) >= (needed))
#else
#define ECS_SCHED__GROW(env, array, capacity, needed)                                          \
    ((array) = ecs_sched__grow_block((env), (array), (capacity), (needed), sizeof *(array)),   \
     *(capacity) >= (needed))
#endif

/* ---- bitsets ---- */

static bool ecs_sched__bit(const uint64_t *bits, int32_t i) {
    return (bits[i >> 6] >> (i & 63)) & 1u;
}

static void ecs_sched__set_bit(uint64_t *bits, int32_t i) {
    bits[i >> 6] |= (uint64_t)1 << (i & 63);
}

static void ecs_sched__clear_bit(uint64_t *bits, int32_t i) {
    bits[i >> 6] &= ~((uint64_t)1 << (i & 63));
}

/* Row i of a matrix of bits, `words` words a row. */
static uint64_t *ecs_sched__row(uint64_t *bits, int32_t words, int32_t i) {
    return bits + (size_t)i * (size_t)words;
}

/* The index of the lowest set bit of a non-zero word. */
static int32_t ecs_sched__lowest_bit(uint64_t word) {
#if defined(__GNUC__) || defined(__clang__)
    return (int32_t)__builtin_ctzll(word);
#else
    int32_t bit = 0;
    while (!((word >> bit) & 1u)) bit++;
    return bit;
#endif
}

/* The index of the highest set bit of a non-zero word. */
static int32_t ecs_sched__highest_bit(uint64_t word) {
#if defined(__GNUC__) || defined(__clang__)
    return 63 - (int32_t)__builtin_clzll(word);
#else
    int32_t bit = 63;
    while (!((word >> bit) & 1u)) bit--;
    return bit;
#endif
}

/* How many bits of a word are set. */
static int32_t ecs_sched__popcount(uint64_t word) {
    int32_t n = 0;
    for (; word; word &= word - 1) n++;
    return n;
}

/* ---- name maps: text -> index, on stb_ds's string hash map ----

   The only place stb_ds is used. Its maps keep their header just before the entries and reach
   it by pointer arithmetic inside its macros, which gcc's most eager aliasing check
   (-Wstrict-aliasing=1) cannot tell from a violation; the map is only ever touched through
   stb_ds's own macros, here, so the check is relaxed for these few lines. Keys are not copied:
   each belongs to whoever put it and must outlive the entry. */

typedef struct ecs_sched__name_entry {
    char *key;
    int32_t value;
} ecs_sched__name_entry;

typedef struct ecs_sched__name_map {
    ecs_sched__name_entry *entries;
} ecs_sched__name_map;

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-aliasing"
#endif

/* The value stored under `key`, or -1. (stb_ds's lookup writes a scratch slot in the map's
   header, hence the copy of the pointer; the entries are unchanged.) */
static int32_t ecs_sched__name_map_get(const ecs_sched__name_map *m, const char *key) {
    ecs_sched__name_entry *entries = m->entries;
    char *lookup;   /* stb_ds takes the key as void *, though it only reads it */
    ptrdiff_t i;
    if (!entries || !key) return -1;
    memcpy(&lookup, &key, sizeof lookup);
    i = stbds_shgeti(entries, lookup);
    return i < 0 ? -1 : entries[i].value;
}

static void ecs_sched__name_map_put(ecs_sched__name_map *m, char *key, int32_t value) {
    stbds_shput(m->entries, key, value);
}

static void ecs_sched__name_map_free(ecs_sched__name_map *m) {
    if (m->entries) stbds_shfree(m->entries);
    m->entries = NULL;
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* ---- the system's clock and sleep ----

   The monotonic clock, in nanoseconds, and a sleep: the default hooks of the clocks (time.h),
   and what a recording (trace.h) pairs its time stamps with. */

#define ECS_SCHED__NS_PER_SECOND INT64_C(1000000000)

#if defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#else
#include <time.h>
#include <sys/time.h>
#include <sys/select.h>
#if !defined(CLOCK_MONOTONIC) && defined(__linux__)
/* Strict ISO C (-std=c99 with glibc): <time.h> hides clock_gettime and <unistd.h> hides
   syscall, but the system call itself is there. */
#include <sys/syscall.h>
#if defined(SYS_clock_gettime)
#define ECS_SCHED__CLOCK_BY_SYSCALL 1
#ifndef ECS_SCHED__SYSCALL_DECLARED
#define ECS_SCHED__SYSCALL_DECLARED
long syscall(long number, ...);
#endif
#endif
#endif
#endif

#if defined(_WIN32)
static int64_t ecs_sched__system_clock(void *user_data) {
    LARGE_INTEGER frequency, counter;
    (void)user_data;
    QueryPerformanceFrequency(&frequency);
    QueryPerformanceCounter(&counter);
    return (int64_t)((double)counter.QuadPart * 1e9 / (double)frequency.QuadPart);
}

static void ecs_sched__system_sleep(int64_t duration_ns, void *user_data) {
    (void)user_data;
    if (duration_ns > 0) Sleep((DWORD)((duration_ns + 999999) / 1000000));
}
#else
/* The monotonic clock. Where neither clock_gettime nor its system call can be reached, the
   fallback, gettimeofday, follows changes of the system clock: set a clock hook there. */
static int64_t ecs_sched__system_clock(void *user_data) {
    (void)user_data;
#if defined(CLOCK_MONOTONIC)
    {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (int64_t)ts.tv_sec * ECS_SCHED__NS_PER_SECOND + (int64_t)ts.tv_nsec;
    }
#elif defined(ECS_SCHED__CLOCK_BY_SYSCALL)
    {
        long ts[2];   /* what this call fills on Linux: seconds and nanoseconds, both long */
        syscall(SYS_clock_gettime, 1L /* CLOCK_MONOTONIC */, ts);
        return (int64_t)ts[0] * ECS_SCHED__NS_PER_SECOND + (int64_t)ts[1];
    }
#else
    {
        struct timeval tv;
        gettimeofday(&tv, NULL);
        return (int64_t)tv.tv_sec * ECS_SCHED__NS_PER_SECOND + (int64_t)tv.tv_usec * 1000;
    }
#endif
}

static void ecs_sched__system_sleep(int64_t duration_ns, void *user_data) {
    struct timeval tv;
    (void)user_data;
    if (duration_ns <= 0) return;
    tv.tv_sec = (time_t)(duration_ns / ECS_SCHED__NS_PER_SECOND);
    tv.tv_usec = (long)(duration_ns % ECS_SCHED__NS_PER_SECOND / 1000);
    select(0, NULL, NULL, NULL, &tv);
}
#endif
