/* pool: a work-stealing thread pool (threads only with ECS_SCHED_THREADS). */
#pragma once
#include "base.h"

/* A pool of worker threads that run small tasks. The thread that creates the pool is worker 0
   and works while it waits; the pool starts thread_count - 1 more threads. Each worker keeps
   its tasks in its own deque and takes the newest; an idle worker steals from a random other
   worker about half of its tasks (up to 16, oldest first) at once, runs one and queues the
   rest as its own, and sleeps when there is nothing to steal.

   Without ECS_SCHED_THREADS the same API runs everything inline on the calling thread: submit
   calls the task at once, and the pool has one worker. */
typedef struct ecs_sched_pool ecs_sched_pool;

/* Tasks submitted with a group can be waited for together. Reusable once waited for. */
typedef struct ecs_sched_task_group ecs_sched_task_group;

typedef void (*ecs_sched_task_fn)(void *arg);
typedef void (*ecs_sched_range_fn)(int64_t begin, int64_t end, void *arg);

typedef struct ecs_sched_pool_desc {
    int32_t thread_count;           /* workers, the creating thread included; 0: one per
                                       hardware thread. 1 runs every task on the caller. */
    int32_t queue_capacity;         /* tasks a worker's deque holds (a power of two; 0: 4096).
                                       Submitting to a full deque runs the task at once. */
    ecs_sched_allocator allocator;  /* zero: ECS_SCHED_REALLOC / ECS_SCHED_FREE */
    ecs_sched_logger logger;        /* zero: errors to stderr */
} ecs_sched_pool_desc;

/* NULL when out of memory or when a thread cannot be started (the log says which). */
ECS_SCHED_API ecs_sched_pool *ecs_sched_pool_create(const ecs_sched_pool_desc *desc);
/* Runs every task already submitted, those they submit included, then stops and joins the
   threads. Call it when no other thread submits or waits (any thread may call it). */
ECS_SCHED_API void ecs_sched_pool_destroy(ecs_sched_pool *pool);
ECS_SCHED_API int32_t ecs_sched_pool_thread_count(const ecs_sched_pool *pool);
/* The calling thread's worker number, 0 .. thread_count - 1, to index per-thread scratch
   memory; -1 for a thread that is not one of the pool's. */
ECS_SCHED_API int32_t ecs_sched_pool_worker_index(const ecs_sched_pool *pool);

ECS_SCHED_API ecs_sched_task_group *ecs_sched_pool_group_create(ecs_sched_pool *pool);
ECS_SCHED_API void ecs_sched_pool_group_destroy(ecs_sched_pool *pool, ecs_sched_task_group *group);

/* Queues fn(arg) on the calling worker's deque; group may be NULL. Call it from a worker (the
   creating thread, or inside a task); on any other thread the task runs at once. */
ECS_SCHED_API void ecs_sched_pool_submit(ecs_sched_pool *pool, ecs_sched_task_group *group,
                                         ecs_sched_task_fn fn, void *arg);
/* Returns once every task of the group has run, running tasks (of any group) meanwhile. */
ECS_SCHED_API void ecs_sched_pool_wait(ecs_sched_pool *pool, ecs_sched_task_group *group);
/* Calls fn(b, e, arg) over disjoint pieces [b, e) of [begin, end), each at most `grain` long
   (grain <= 0: chosen for you), in parallel; returns when all are done. */
ECS_SCHED_API void ecs_sched_pool_parallel_for(ecs_sched_pool *pool, int64_t begin, int64_t end,
                                               int64_t grain, ecs_sched_range_fn fn, void *arg);

/*@@ implementation @@*/
/* pool: a work-stealing thread pool (threads only with ECS_SCHED_THREADS). */

#define ECS_SCHED__DEFAULT_QUEUE_CAPACITY 4096

/* What grain 0 means in every parallel iteration: about four pieces per thread, whatever
   the size of the work (a constant piece size made hundreds of pieces of a large query, whose
   hand-outs and wake-ups cost more than they balanced), and none smaller than
   ECS_SCHED_DEFAULT_GRAIN items, whose task would cost more than its work. */
static int64_t ecs_sched__default_grain(int32_t thread_count, int64_t n) {
    int64_t pieces = (int64_t)(thread_count > 0 ? thread_count : 1) * 4;
    int64_t grain = (n + pieces - 1) / pieces;
    return grain > ECS_SCHED_DEFAULT_GRAIN ? grain : ECS_SCHED_DEFAULT_GRAIN;
}

static int32_t ecs_sched__hardware_threads(void);  /* 1 without ECS_SCHED_THREADS */

/* Every zero field of a pool desc resolved; `desc` may be NULL. */
static ecs_sched_pool_desc ecs_sched__pool_desc_defaults(const ecs_sched_pool_desc *desc) {
    ecs_sched_pool_desc d;
    if (desc) d = *desc;
    else memset(&d, 0, sizeof d);
    if (d.thread_count == 0) d.thread_count = ecs_sched__hardware_threads();
    if (d.queue_capacity == 0) d.queue_capacity = ECS_SCHED__DEFAULT_QUEUE_CAPACITY;
    d.allocator = ecs_sched__allocator_defaults(&d.allocator);
    return d;
}

/* Checked with and without threads, so a program is refused the same way in both builds. */
static bool ecs_sched__pool_desc_valid(ecs_sched__env *env, const ecs_sched_pool_desc *desc) {
    if (!desc) return true;
    if (desc->thread_count < 0) {
        ecs_sched__fail(env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "pool_create: thread_count is %d; give 1 or more, or 0 for one thread "
                        "per hardware thread", (int)desc->thread_count);
        return false;
    }
    if (desc->queue_capacity < 0 || (desc->queue_capacity & (desc->queue_capacity - 1))) {
        ecs_sched__fail(env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "pool_create: queue_capacity %d is not a power of two; give one "
                        "(such as 1024), or 0 for the default %d", (int)desc->queue_capacity,
                        ECS_SCHED__DEFAULT_QUEUE_CAPACITY);
        return false;
    }
    return true;
}

#ifndef ECS_SCHED_THREADS

struct ecs_sched_pool {
    ecs_sched__env env;
};

struct ecs_sched_task_group {
    int32_t unused;
};

static int32_t ecs_sched__hardware_threads(void) {
    return 1;
}

ecs_sched_pool *ecs_sched_pool_create(const ecs_sched_pool_desc *given) {
    ecs_sched__env env;
    ecs_sched_pool *pool;
    ecs_sched_pool_desc desc = ecs_sched__pool_desc_defaults(given);
    ecs_sched__env_init(&env, &desc.allocator, &desc.logger);
    if (!ecs_sched__pool_desc_valid(&env, given)) return NULL;
    pool = (ecs_sched_pool *)ecs_sched__calloc(&env, sizeof *pool);
    if (!pool) {
        ecs_sched__fail(&env, ECS_SCHED_ERR_OUT_OF_MEMORY, "out of memory creating a pool");
        return NULL;
    }
    pool->env = env;
    return pool;
}

void ecs_sched_pool_destroy(ecs_sched_pool *pool) {
    if (pool) {
        ecs_sched__env env = pool->env;
        ecs_sched__free(&env, pool);
    }
}

int32_t ecs_sched_pool_thread_count(const ecs_sched_pool *pool) {
    (void)pool;
    return 1;
}

int32_t ecs_sched_pool_worker_index(const ecs_sched_pool *pool) {
    (void)pool;
    return 0;
}

ecs_sched_task_group *ecs_sched_pool_group_create(ecs_sched_pool *pool) {
    ECS_SCHED_ASSERT(pool != NULL);
    return (ecs_sched_task_group *)ecs_sched__calloc(&pool->env, sizeof(ecs_sched_task_group));
}

void ecs_sched_pool_group_destroy(ecs_sched_pool *pool, ecs_sched_task_group *group) {
    ECS_SCHED_ASSERT(pool != NULL);
    ecs_sched__free(&pool->env, group);
}

void ecs_sched_pool_submit(ecs_sched_pool *pool, ecs_sched_task_group *group,
                           ecs_sched_task_fn fn, void *arg) {
    ECS_SCHED_ASSERT(pool != NULL && fn != NULL);
    (void)group;
    fn(arg);
}

void ecs_sched_pool_wait(ecs_sched_pool *pool, ecs_sched_task_group *group) {
    (void)pool;
    (void)group;
}

void ecs_sched_pool_parallel_for(ecs_sched_pool *pool, int64_t begin, int64_t end,
                                 int64_t grain, ecs_sched_range_fn fn, void *arg) {
    ECS_SCHED_ASSERT(pool != NULL && fn != NULL);
    if (grain <= 0) grain = ecs_sched__default_grain(1, end - begin);
    while (begin < end) {
        int64_t stop = end - begin > grain ? begin + grain : end;
        fn(begin, stop, arg);
        begin = stop;
    }
}

#else /* ECS_SCHED_THREADS */

#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__) && !defined(ECS_SCHED_NO_MEMBARRIER)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#if defined(SYS_membarrier)
#define ECS_SCHED__MEMBARRIER 1
#ifndef ECS_SCHED__SYSCALL_DECLARED
#define ECS_SCHED__SYSCALL_DECLARED
long syscall(long number, ...);   /* <unistd.h> declares it only for _DEFAULT_SOURCE */
#endif
#endif
#endif

/* ThreadSanitizer does not model fences. The deque's and the event count's seq_cst fences only
   order accesses to atomics, and no plain data relies on them (tasks are published with a
   release store), so TSan still sees every data race; gcc's warning about them is silenced.
   The same holds for the asymmetric barriers below. */
#if defined(__SANITIZE_THREAD__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wtsan"
#endif

#define ECS_SCHED__SPIN_ROUNDS 1024    /* looks for work this many times (some 40 us) before
                                          sleeping, so that workers stay awake across the small
                                          gaps between the parts of a frame */
/* With more threads than the machine runs at once, an idle worker yields its core between
   looks, so that one with work gets it. It looks as long as in a pool that fits: going to
   sleep sooner made each frame pay more wake-ups than the yields cost (4 threads on 2 cores,
   busy_systems: 64 looks 158-178 us a frame, 1024 looks 143-149 us, 2 threads 131-140). */
#define ECS_SCHED__CROWDED_YIELD_EVERY 8
#define ECS_SCHED__CACHE_LINE 64
#define ECS_SCHED__FULL_PUSHES 32      /* see ecs_sched__deque_push */
#define ECS_SCHED__RUNS_PER_DONE_CHECK 8  /* see ecs_sched__pool_work_until */
#define ECS_SCHED__STEAL_BATCH 16      /* most tasks one steal takes: see ecs_sched__deque_take */

#if defined(__x86_64__) || defined(__i386__)
#define ECS_SCHED__CPU_RELAX() __builtin_ia32_pause()
#else
#define ECS_SCHED__CPU_RELAX() ((void)0)
#endif

/* One deque slot. Its words are atomics because a thief may read a slot the owner is
   overwriting; such a read is discarded when the thief's CAS on top fails. */
typedef struct ecs_sched__slot {
    _Atomic(ecs_sched_task_fn) fn;
    _Atomic(void *) arg;
    _Atomic(ecs_sched_task_group *) group;
} ecs_sched__slot;

typedef struct ecs_sched__task {
    ecs_sched_task_fn fn;
    void *arg;
    ecs_sched_task_group *group;
} ecs_sched__task;

/* The Chase-Lev deque with the memory orders of Le, Pop, Cohen and Zappa Nardelli (PPoPP 2013),
   on a bounded ring: the owner pushes and takes at bottom, thieves steal at top. Push's
   "release fence, relaxed store of bottom" is made a release store of bottom, which orders the
   same and lets ThreadSanitizer see the publication. Thieves take a batch (half, as in Go's
   and Tokio's schedulers), which changes take: see ecs_sched__deque_take. */
typedef struct ecs_sched__deque {
    atomic_int_least64_t top;        /* thieves' end, on a cache line of its own */
    char pad0[ECS_SCHED__CACHE_LINE];
    atomic_int_least64_t bottom;     /* the owner's end */
    int64_t top_seen;                /* the owner's last reading of top: a lower bound */
    int32_t full_pushes_left;        /* pushes still to refuse before reading top again */
    ecs_sched__slot *ring;
    int64_t mask;
    char pad1[ECS_SCHED__CACHE_LINE];
} ecs_sched__deque;

/* An event count: a sleeper reads the epoch, looks for work once more, and sleeps only if no
   notify bumped the epoch since. Notifiers that see no sleeper pay one fence and one load.

   Both sides need a full fence between their store and their load (a notifier publishes work
   and then looks for sleepers; a sleeper announces itself and then looks for work), or each
   may miss the other. Work is published on every submit and sleeping is rare, so where Linux
   offers membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) the fence is made asymmetric: the
   notifier's is a compiler barrier only, and the sleeper's is a membarrier call, which runs a
   full fence on every thread of the process that is running at that moment. Not in a pool
   with more threads than cores, whose workers sleep often: there each membarrier (tens of
   microseconds in a virtual machine) interrupted the threads doing the work. */
typedef struct ecs_sched__event {
    atomic_int waiters;
    atomic_uint epoch;
    bool asymmetric;                 /* light fences for notifiers, membarrier for sleepers */
    pthread_mutex_t lock;
    pthread_cond_t wake;
} ecs_sched__event;

typedef struct ecs_sched__worker {
    ecs_sched__deque deque;
    ecs_sched_pool *pool;
    pthread_t thread;
    uint64_t random;
    int32_t index;
    bool started;
} ecs_sched__worker;

struct ecs_sched_pool {
    ecs_sched__env env;
    int32_t count;
    ecs_sched__worker *workers;
    ecs_sched__event idle;
    atomic_bool stopping;
    atomic_int group_waiters;        /* group waits going to sleep or asleep */
    bool crowded;                    /* more threads than the hardware runs at once */
    pthread_t creator;               /* worker 0 */
    uint64_t id;                     /* unique in the process, unlike the pool's address */
};

/* A worker's counts for one group; only that worker writes them. */
typedef struct ecs_sched__group_slot {
    atomic_int_least64_t submitted;
    atomic_int_least64_t completed;
    char pad[2 * ECS_SCHED__CACHE_LINE - 2 * sizeof(int64_t)];  /* apart even unaligned */
} ecs_sched__group_slot;

/* A group made by ecs_sched_pool_group_create counts per worker, so that submitting and
   finishing its tasks share no cache line between threads; the pool's own short-lived groups
   (on the stack) use one counter. */
struct ecs_sched_task_group {
    atomic_int_least64_t pending;    /* without slots: submitted and not finished */
    ecs_sched__group_slot *slots;    /* per worker, or NULL */
    int32_t slot_count;
    char pad[2 * ECS_SCHED__CACHE_LINE];  /* read by every finishing task: nothing else here */
};

/* Which pool and worker the running thread was last made part of. The creating thread is
   also recognised by its id, since it may have created other pools since. */
static _Thread_local uint64_t ecs_sched__tls_pool_id;   /* 0: none */
static _Thread_local int32_t ecs_sched__tls_index;
static _Thread_local int32_t ecs_sched__tls_task_depth;  /* tasks running on this thread */
static atomic_uint_least64_t ecs_sched__pool_ids;        /* pools made so far: ids never repeat */

/* Nanoseconds on a clock that only goes forward where the system has one (under strict ISO
   C, glibc hides CLOCK_MONOTONIC and the C11 wall clock stands in). For cost estimates. */
static int64_t ecs_sched__now_ns(void) {
    struct timespec ts;
#if defined(CLOCK_MONOTONIC)
    clock_gettime(CLOCK_MONOTONIC, &ts);
#else
    timespec_get(&ts, TIME_UTC);
#endif
    return (int64_t)ts.tv_sec * 1000000000 + (int64_t)ts.tv_nsec;
}

/* ---- deque ---- */

static bool ecs_sched__deque_init(ecs_sched__env *env, ecs_sched__deque *q, int64_t capacity) {
    int64_t i;
    q->ring = (ecs_sched__slot *)ecs_sched__alloc(env, sizeof *q->ring * (size_t)capacity);
    if (!q->ring) return false;
    for (i = 0; i < capacity; i++) {
        atomic_init(&q->ring[i].fn, (ecs_sched_task_fn)NULL);
        atomic_init(&q->ring[i].arg, (void *)NULL);
        atomic_init(&q->ring[i].group, (ecs_sched_task_group *)NULL);
    }
    q->mask = capacity - 1;
    q->top_seen = 0;
    q->full_pushes_left = 0;
    atomic_init(&q->top, 0);
    atomic_init(&q->bottom, 0);
    return true;
}

static void ecs_sched__slot_read(ecs_sched__slot *slot, ecs_sched__task *task) {
    task->fn = atomic_load_explicit(&slot->fn, memory_order_relaxed);
    task->arg = atomic_load_explicit(&slot->arg, memory_order_relaxed);
    task->group = atomic_load_explicit(&slot->group, memory_order_relaxed);
}

static void ecs_sched__slot_write(ecs_sched__slot *slot, const ecs_sched__task *task) {
    atomic_store_explicit(&slot->fn, task->fn, memory_order_relaxed);
    atomic_store_explicit(&slot->arg, task->arg, memory_order_relaxed);
    atomic_store_explicit(&slot->group, task->group, memory_order_relaxed);
}

/* Owner only, after claiming [t, b] by moving top to b + 1 (bottom is b): the tasks t..b-1
   go back on the deque above b, oldest first. Copying in order is safe in place: a target
   slot that wraps onto a source slot was read already. */
static void ecs_sched__deque_requeue(ecs_sched__deque *q, int64_t t, int64_t b) {
    int64_t count = b - t, i;
    for (i = 0; i < count; i++) {
        ecs_sched__task task;
        ecs_sched__slot_read(&q->ring[(t + i) & q->mask], &task);
        ecs_sched__slot_write(&q->ring[(b + 1 + i) & q->mask], &task);
    }
    q->top_seen = b + 1;
    atomic_store_explicit(&q->bottom, b + 1 + count, memory_order_release);
}

/* Owner only. False when the ring is full. top is read only when the last reading says the
   ring may be full: thieves only raise it, so the cached value errs on the safe side, and the
   owner stays off the line the thieves write. A ring found full means the thieves are behind;
   the next few pushes then fail without reading top again, since each reading would pull its
   line away from a thief for one task's worth of work. */
static bool ecs_sched__deque_push(ecs_sched__deque *q, const ecs_sched__task *task) {
    int64_t b = atomic_load_explicit(&q->bottom, memory_order_relaxed);
    if (b - q->top_seen > q->mask) {
        if (q->full_pushes_left > 0) {
            q->full_pushes_left--;
            return false;
        }
        q->top_seen = atomic_load_explicit(&q->top, memory_order_acquire);
        if (b - q->top_seen > q->mask) {
            q->full_pushes_left = ECS_SCHED__FULL_PUSHES;
            return false;
        }
    }
    ecs_sched__slot_write(&q->ring[b & q->mask], task);
    atomic_store_explicit(&q->bottom, b + 1, memory_order_release);
    return true;
}

/* Owner only: the newest task.

   Thieves take up to ECS_SCHED__STEAL_BATCH of the oldest tasks at once, so the classic rule
   (only the last task is contested) no longer holds by itself: a thief that read top before the
   owner's fence may have read bottom before the owner lowered it, and claim from that stale
   view. Only one such claim can succeed (it must find top unchanged), it starts at the top the
   owner reads, and it spans at most STEAL_BATCH tasks; thieves that read top after the fence
   see the lowered bottom. So the newest task is the owner's without a CAS while STEAL_BATCH or
   more tasks lie below it. Closer to top, the owner claims them all with one CAS, keeps the
   newest and queues the others again above it, in the same order; *requeued says it did, for
   those tasks looked gone for a moment (a worker deciding to sleep may have missed them). */
static bool ecs_sched__deque_take(ecs_sched__deque *q, ecs_sched__task *task, bool *requeued) {
    *requeued = false;
    for (;;) {
        int64_t b = atomic_load_explicit(&q->bottom, memory_order_relaxed) - 1;
        int64_t t;
        atomic_store_explicit(&q->bottom, b, memory_order_relaxed);
        atomic_thread_fence(memory_order_seq_cst);
        t = atomic_load_explicit(&q->top, memory_order_relaxed);
        if (t > b) {
            atomic_store_explicit(&q->bottom, b + 1, memory_order_relaxed);
            return false;
        }
        ecs_sched__slot_read(&q->ring[b & q->mask], task);
        if (b - t >= ECS_SCHED__STEAL_BATCH) return true;
        if (atomic_compare_exchange_strong_explicit(&q->top, &t, b + 1, memory_order_seq_cst,
                                                    memory_order_relaxed)) {
            ecs_sched__deque_requeue(q, t, b);
            *requeued = t < b;
            return true;
        }
        atomic_store_explicit(&q->bottom, b + 1, memory_order_relaxed);  /* a thief won: again */
    }
}

/* Any thread: about half of the tasks queued, oldest first, at most `most` (and at most
   ECS_SCHED__STEAL_BATCH), into out. 0 when empty or when another thread won the race. */
static int32_t ecs_sched__deque_steal(ecs_sched__deque *q, ecs_sched__task *out, int32_t most) {
    int64_t t = atomic_load_explicit(&q->top, memory_order_acquire);
    int64_t b, queued, count, i;
    atomic_thread_fence(memory_order_seq_cst);
    b = atomic_load_explicit(&q->bottom, memory_order_acquire);
    queued = b - t;
    if (queued <= 0) return 0;
    count = queued - queued / 2;
    if (count > most) count = most;
    if (count > ECS_SCHED__STEAL_BATCH) count = ECS_SCHED__STEAL_BATCH;
    for (i = 0; i < count; i++) ecs_sched__slot_read(&q->ring[(t + i) & q->mask], &out[i]);
    if (!atomic_compare_exchange_strong_explicit(&q->top, &t, t + count, memory_order_seq_cst,
                                                 memory_order_relaxed)) {
        return 0;
    }
    return (int32_t)count;
}

/* Owner only, on its empty deque: queues tasks a steal brought (no more than the capacity). */
static void ecs_sched__deque_refill(ecs_sched__deque *q, const ecs_sched__task *tasks,
                                    int32_t count) {
    int64_t b = atomic_load_explicit(&q->bottom, memory_order_relaxed);
    int32_t i;
    q->top_seen = atomic_load_explicit(&q->top, memory_order_acquire);
    ECS_SCHED_ASSERT(q->top_seen == b && count <= q->mask + 1);
    q->full_pushes_left = 0;
    for (i = 0; i < count; i++) ecs_sched__slot_write(&q->ring[(b + i) & q->mask], &tasks[i]);
    atomic_store_explicit(&q->bottom, b + count, memory_order_release);
}

static bool ecs_sched__deque_looks_empty(ecs_sched__deque *q) {
    return atomic_load_explicit(&q->top, memory_order_acquire) >=
           atomic_load_explicit(&q->bottom, memory_order_acquire);
}

/* ---- asymmetric fences ---- */

#ifdef ECS_SCHED__MEMBARRIER
/* 0: not tried yet, 1: registered, 2: not available (old kernel, seccomp, valgrind, ...) */
static atomic_int ecs_sched__membarrier_state;

static bool ecs_sched__membarrier_available(void) {
    int state = atomic_load_explicit(&ecs_sched__membarrier_state, memory_order_acquire);
    if (state == 0) {
        long commands = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0);
        bool usable = commands > 0 && (commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
                      syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0) == 0;
        state = usable ? 1 : 2;
        atomic_store_explicit(&ecs_sched__membarrier_state, state, memory_order_release);
    }
    return state == 1;
}
#else
static bool ecs_sched__membarrier_available(void) {
    return false;
}
#endif

/* The frequent side of a store-then-load handshake. */
static void ecs_sched__light_fence(const ecs_sched__event *e) {
    if (e->asymmetric) atomic_signal_fence(memory_order_seq_cst);
    else atomic_thread_fence(memory_order_seq_cst);
}

/* The rare side: a full fence here and, when asymmetric, on every running thread. */
static void ecs_sched__heavy_fence(const ecs_sched__event *e) {
    (void)e;
    atomic_thread_fence(memory_order_seq_cst);
#ifdef ECS_SCHED__MEMBARRIER
    if (e->asymmetric && syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0) != 0) {
        ECS_SCHED_ASSERT(0 && "membarrier failed after it was registered");
    }
#endif
}

/* ---- event count ---- */

/* `sleeps_often`: threads will sleep about as often as others notify (a crowded pool), so
   the fences are made symmetric: a membarrier per sleep would cost more than a fence per
   notify, and it interrupts every running thread. */
static bool ecs_sched__event_init(ecs_sched__event *e, bool sleeps_often) {
    atomic_init(&e->waiters, 0);
    atomic_init(&e->epoch, 0u);
    e->asymmetric = !sleeps_often && ecs_sched__membarrier_available();
    if (pthread_mutex_init(&e->lock, NULL) != 0) return false;
    if (pthread_cond_init(&e->wake, NULL) != 0) {
        pthread_mutex_destroy(&e->lock);
        return false;
    }
    return true;
}

static void ecs_sched__event_destroy(ecs_sched__event *e) {
    pthread_cond_destroy(&e->wake);
    pthread_mutex_destroy(&e->lock);
}

/* Announces a sleeper; returns the epoch to sleep on. Look for work again after this. */
static unsigned ecs_sched__event_prepare(ecs_sched__event *e) {
    unsigned epoch;
    atomic_fetch_add_explicit(&e->waiters, 1, memory_order_seq_cst);
    epoch = atomic_load_explicit(&e->epoch, memory_order_seq_cst);
    ecs_sched__heavy_fence(e);  /* the re-check reads after the announcement */
    return epoch;
}

static void ecs_sched__event_cancel(ecs_sched__event *e) {
    atomic_fetch_sub_explicit(&e->waiters, 1, memory_order_relaxed);
}

/* Sleeps until a notify after ecs_sched__event_prepare returned `epoch`. */
static void ecs_sched__event_sleep(ecs_sched__event *e, unsigned epoch) {
    pthread_mutex_lock(&e->lock);
    while (atomic_load_explicit(&e->epoch, memory_order_relaxed) == epoch) {
        pthread_cond_wait(&e->wake, &e->lock);
    }
    pthread_mutex_unlock(&e->lock);
    atomic_fetch_sub_explicit(&e->waiters, 1, memory_order_relaxed);
}

/* Wakes one sleeper (all with `everyone`), if any. Call after publishing what they wait for. */
static void ecs_sched__event_notify(ecs_sched__event *e, bool everyone) {
    ecs_sched__light_fence(e);
    if (atomic_load_explicit(&e->waiters, memory_order_relaxed) == 0) return;
    pthread_mutex_lock(&e->lock);
    atomic_fetch_add_explicit(&e->epoch, 1u, memory_order_relaxed);
    if (everyone) pthread_cond_broadcast(&e->wake);
    else pthread_cond_signal(&e->wake);
    pthread_mutex_unlock(&e->lock);
}

/* ---- running tasks ---- */

/* After a group's task is counted done: a waiter that went to sleep on it is woken (the
   waiter's heavy fence is in event_prepare, after it counted itself in group_waiters). */
static void ecs_sched__wake_group_waiters(ecs_sched_pool *pool) {
    ecs_sched__light_fence(&pool->idle);
    if (atomic_load_explicit(&pool->group_waiters, memory_order_relaxed) > 0) {
        ecs_sched__event_notify(&pool->idle, true);
    }
}

/* Runs a task on worker self (-1: a thread outside the pool) and counts it done. The group
   is not touched once counted: its waiter may return and free it. */
static void ecs_sched__task_run(ecs_sched_pool *pool, int32_t self, const ecs_sched__task *task) {
    ecs_sched_task_group *group = task->group;
    ecs_sched__tls_task_depth++;
    task->fn(task->arg);
    ecs_sched__tls_task_depth--;
    if (!group) return;
    if (group->slots) {
        if (self < 0) return;  /* run at once on an outside thread: never counted */
        atomic_store_explicit(&group->slots[self].completed,
                              atomic_load_explicit(&group->slots[self].completed,
                                                   memory_order_relaxed) + 1,
                              memory_order_release);
        ecs_sched__wake_group_waiters(pool);
    } else if (atomic_fetch_sub_explicit(&group->pending, 1, memory_order_acq_rel) == 1) {
        ecs_sched__wake_group_waiters(pool);
    }
}

static uint64_t ecs_sched__next_random(uint64_t *state) {
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

/* A task from the worker's own deque, else stolen from the others, starting at a random
   victim. A worker steals about half of a victim's tasks at once: it runs the oldest and
   queues the rest on its own deque, where others may steal them in turn. *moved_others says
   that other tasks changed place (queued here, or queued again by the take). */
static bool ecs_sched__find_task(ecs_sched_pool *pool, int32_t self, ecs_sched__task *task,
                                 bool *moved_others) {
    ecs_sched__task stolen[ECS_SCHED__STEAL_BATCH];
    int32_t n = pool->count, i, start = 0, most = 1;
    *moved_others = false;
    if (self >= 0) {
        ecs_sched__deque *own = &pool->workers[self].deque;
        if (ecs_sched__deque_take(own, task, moved_others)) return true;
        if (n == 1) return false;
        start = (int32_t)(ecs_sched__next_random(&pool->workers[self].random) % (uint64_t)n);
        most = own->mask < ECS_SCHED__STEAL_BATCH ? (int32_t)own->mask + 1 : ECS_SCHED__STEAL_BATCH;
    }
    for (i = 0; i < n; i++) {
        int32_t victim = (start + i) % n, count;
        if (victim == self) continue;
        count = ecs_sched__deque_steal(&pool->workers[victim].deque, stolen, most);
        if (count == 0) continue;
        *task = stolen[0];
        if (count > 1) {
            ecs_sched__deque_refill(&pool->workers[self].deque, stolen + 1, count - 1);
            *moved_others = true;
        }
        return true;
    }
    return false;
}

static bool ecs_sched__any_task_visible(ecs_sched_pool *pool) {
    int32_t i;
    for (i = 0; i < pool->count; i++) {
        if (!ecs_sched__deque_looks_empty(&pool->workers[i].deque)) return true;
    }
    return false;
}

/* Runs one task if there is one. Tasks that changed place may have been missed by a worker
   that looked for work and went to sleep meanwhile: one sleeper is woken for them, as for a
   submit (with nobody asleep, that costs a fence and a load). */
static bool ecs_sched__pool_help(ecs_sched_pool *pool, int32_t self) {
    ecs_sched__task task;
    bool moved_others;
    if (!ecs_sched__find_task(pool, self, &task, &moved_others)) return false;
    if (moved_others) ecs_sched__event_notify(&pool->idle, false);
    ecs_sched__task_run(pool, self, &task);
    return true;
}

/* Runs tasks until done(arg) holds; spins a little when idle, then sleeps until notified.
   While tasks keep coming, done() is asked only every few of them: it reads counters other
   workers write, and reading them after every tiny task cost more than the task. Not inside
   a task, though: a wait there that ran past its end would nest other tasks' waits deeper
   and deeper (a parallel_for overflowed its stack that way).
   Whoever makes done() true must notify pool->idle; when `sleeping` is not NULL, it is
   counted up while this thread goes to sleep, and whoever makes done() true may skip the
   notify while it reads 0 (a waiter that is awake needs none: waking a sleeping worker for
   it cost a futex call, and that worker's later sleep a membarrier that interrupts the
   waiter). self is -1 on a thread outside the pool, which only steals. */
static void ecs_sched__pool_work_until(ecs_sched_pool *pool, int32_t self,
                                       bool (*done)(void *arg), void *arg,
                                       atomic_int *sleeping) {
    int32_t idle_rounds = 0, ran_unchecked = 0;
    int32_t check_every = ecs_sched__tls_task_depth == 0 ? ECS_SCHED__RUNS_PER_DONE_CHECK : 1;
    for (;;) {
        unsigned epoch;
        if (ran_unchecked == 0 && done(arg)) return;
        if (ecs_sched__pool_help(pool, self)) {
            idle_rounds = 0;
            ran_unchecked = (ran_unchecked + 1) % check_every;
            continue;
        }
        ran_unchecked = 0;
        if (++idle_rounds < ECS_SCHED__SPIN_ROUNDS) {
            if (pool->crowded && idle_rounds % ECS_SCHED__CROWDED_YIELD_EVERY == 0) sched_yield();
            else ECS_SCHED__CPU_RELAX();
            continue;
        }
        if (sleeping) atomic_fetch_add_explicit(sleeping, 1, memory_order_seq_cst);
        epoch = ecs_sched__event_prepare(&pool->idle);   /* its fence orders the count too */
        if (done(arg) || ecs_sched__any_task_visible(pool)) {
            ecs_sched__event_cancel(&pool->idle);
        } else {
            ecs_sched__event_sleep(&pool->idle, epoch);
        }
        if (sleeping) atomic_fetch_sub_explicit(sleeping, 1, memory_order_relaxed);
        idle_rounds = 0;
    }
}

static bool ecs_sched__pool_stopping(void *arg) {
    ecs_sched_pool *pool = (ecs_sched_pool *)arg;
    return atomic_load_explicit(&pool->stopping, memory_order_acquire) &&
           !ecs_sched__any_task_visible(pool);
}

static void *ecs_sched__worker_main(void *arg) {
    ecs_sched__worker *worker = (ecs_sched__worker *)arg;
    ecs_sched__tls_pool_id = worker->pool->id;
    ecs_sched__tls_index = worker->index;
    ecs_sched__pool_work_until(worker->pool, worker->index, ecs_sched__pool_stopping, worker->pool,
                               NULL);
    return NULL;
}

/* The calling thread's worker number in this pool, or -1. */
static int32_t ecs_sched__self(const ecs_sched_pool *pool) {
    if (ecs_sched__tls_pool_id == pool->id) return ecs_sched__tls_index;
    return pthread_equal(pthread_self(), pool->creator) ? 0 : -1;
}

/* ---- API ---- */

static int32_t ecs_sched__hardware_threads(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int32_t)(n < 256 ? n : 256) : 1;
}

static void ecs_sched__pool_free(ecs_sched_pool *pool) {
    ecs_sched__env env = pool->env;
    int32_t i;
    if (pool->workers) {
        for (i = 0; i < pool->count; i++) ecs_sched__free(&env, pool->workers[i].deque.ring);
        ecs_sched__free(&env, pool->workers);
    }
    ecs_sched__free(&env, pool);
}

static void ecs_sched__pool_join(ecs_sched_pool *pool) {
    int32_t i;
    atomic_store_explicit(&pool->stopping, true, memory_order_release);
    ecs_sched__event_notify(&pool->idle, true);
    for (i = 1; i < pool->count; i++) {
        if (pool->workers[i].started) pthread_join(pool->workers[i].thread, NULL);
    }
}

ecs_sched_pool *ecs_sched_pool_create(const ecs_sched_pool_desc *given) {
    ecs_sched__env env;
    ecs_sched_pool *pool;
    ecs_sched_pool_desc desc;
    int32_t count, i;
    int64_t capacity;
    desc = ecs_sched__pool_desc_defaults(given);
    ecs_sched__env_init(&env, &desc.allocator, &desc.logger);
    if (!ecs_sched__pool_desc_valid(&env, given)) return NULL;
    count = desc.thread_count;
    capacity = desc.queue_capacity;
    pool = (ecs_sched_pool *)ecs_sched__calloc(&env, sizeof *pool);
    if (!pool) {
        ecs_sched__fail(&env, ECS_SCHED_ERR_OUT_OF_MEMORY, "out of memory creating a pool");
        return NULL;
    }
    pool->env = env;
    pool->count = count;
    pool->crowded = count > ecs_sched__hardware_threads();
    atomic_init(&pool->stopping, false);
    atomic_init(&pool->group_waiters, 0);
    pool->workers = (ecs_sched__worker *)ecs_sched__calloc(&env, sizeof *pool->workers * (size_t)count);
    if (!pool->workers) {
        ecs_sched__pool_free(pool);
        ecs_sched__fail(&env, ECS_SCHED_ERR_OUT_OF_MEMORY, "out of memory creating a pool");
        return NULL;
    }
    for (i = 0; i < count; i++) {
        ecs_sched__worker *worker = &pool->workers[i];
        worker->pool = pool;
        worker->index = i;
        worker->random = UINT64_C(0x9E3779B97F4A7C15) * (uint64_t)(i + 1);
        if (!ecs_sched__deque_init(&env, &worker->deque, capacity)) {
            ecs_sched__pool_free(pool);
            ecs_sched__fail(&env, ECS_SCHED_ERR_OUT_OF_MEMORY, "out of memory creating a pool");
            return NULL;
        }
    }
    if (!ecs_sched__event_init(&pool->idle, pool->crowded)) {
        ecs_sched__pool_free(pool);
        ecs_sched__fail(&env, ECS_SCHED_ERR_OUT_OF_MEMORY, "pool_create: no mutex for the pool");
        return NULL;
    }
    pool->creator = pthread_self();
    pool->id = atomic_fetch_add_explicit(&ecs_sched__pool_ids, 1, memory_order_relaxed) + 1;
    ecs_sched__tls_pool_id = pool->id;   /* the quick answer for this thread's newest pool */
    ecs_sched__tls_index = 0;
    for (i = 1; i < count; i++) {
        if (pthread_create(&pool->workers[i].thread, NULL, ecs_sched__worker_main,
                           &pool->workers[i]) != 0) {
            ecs_sched__pool_join(pool);
            ecs_sched__event_destroy(&pool->idle);
            ecs_sched__pool_free(pool);
            ecs_sched__fail(&env, ECS_SCHED_ERR_LIMIT,
                            "pool_create: could not start thread %d of %d", (int)i, (int)count);
            return NULL;
        }
        pool->workers[i].started = true;
    }
    return pool;
}

static bool ecs_sched__no_task_left(void *arg) {
    ecs_sched_pool *pool = (ecs_sched_pool *)arg;
    return !ecs_sched__any_task_visible(pool);
}

void ecs_sched_pool_destroy(ecs_sched_pool *pool) {
    int32_t self;
    if (!pool) return;
    self = ecs_sched__self(pool);
    ecs_sched__pool_work_until(pool, self, ecs_sched__no_task_left, pool, NULL);
    ecs_sched__pool_join(pool);
    /* the workers drained their own deques before leaving; anything left is worker 0's */
    while (ecs_sched__pool_help(pool, self)) {
    }
    ecs_sched__event_destroy(&pool->idle);
    ecs_sched__pool_free(pool);
}

int32_t ecs_sched_pool_thread_count(const ecs_sched_pool *pool) {
    ECS_SCHED_ASSERT(pool != NULL);
    return pool->count;
}

int32_t ecs_sched_pool_worker_index(const ecs_sched_pool *pool) {
    ECS_SCHED_ASSERT(pool != NULL);
    return ecs_sched__self(pool);
}

ecs_sched_task_group *ecs_sched_pool_group_create(ecs_sched_pool *pool) {
    ecs_sched_task_group *group;
    int32_t i;
    ECS_SCHED_ASSERT(pool != NULL);
    group = (ecs_sched_task_group *)ecs_sched__alloc(&pool->env, sizeof *group);
    if (!group) return NULL;
    atomic_init(&group->pending, 0);
    group->slots = (ecs_sched__group_slot *)ecs_sched__alloc(
        &pool->env, sizeof *group->slots * (size_t)pool->count);
    if (!group->slots) {
        ecs_sched__free(&pool->env, group);
        return NULL;
    }
    group->slot_count = pool->count;
    for (i = 0; i < pool->count; i++) {
        atomic_init(&group->slots[i].submitted, 0);
        atomic_init(&group->slots[i].completed, 0);
    }
    return group;
}

void ecs_sched_pool_group_destroy(ecs_sched_pool *pool, ecs_sched_task_group *group) {
    ECS_SCHED_ASSERT(pool != NULL);
    if (!group) return;
    ecs_sched__free(&pool->env, group->slots);
    ecs_sched__free(&pool->env, group);
}

/* Whether the calling worker's deque still holds tasks nobody has taken (false on a thread
   outside the pool). Reads the worker's own ends only. */
static bool ecs_sched__pool_holds_tasks(ecs_sched_pool *pool, int32_t self) {
    return self >= 0 && !ecs_sched__deque_looks_empty(&pool->workers[self].deque);
}

/* Submits a task; a sleeping worker is woken only with `wake` (the executor leaves small
   offers to the workers that are awake, and takes them back itself when none is). */
static void ecs_sched__pool_offer(ecs_sched_pool *pool, ecs_sched_task_group *group,
                                  ecs_sched_task_fn fn, void *arg, bool wake) {
    int32_t self = ecs_sched__self(pool);
    ecs_sched__task task;
    task.fn = fn;
    task.arg = arg;
    task.group = group;
    if (group && group->slots) {
        if (self >= 0) {
            atomic_int_least64_t *submitted = &group->slots[self].submitted;
            atomic_store_explicit(submitted,
                                  atomic_load_explicit(submitted, memory_order_relaxed) + 1,
                                  memory_order_relaxed);
        }
    } else if (group) {
        atomic_fetch_add_explicit(&group->pending, 1, memory_order_relaxed);
    }
    if (self >= 0 && ecs_sched__deque_push(&pool->workers[self].deque, &task)) {
        if (wake) ecs_sched__event_notify(&pool->idle, false);
        return;
    }
    ecs_sched__task_run(pool, self, &task);  /* a full deque, or a thread outside the pool */
}

void ecs_sched_pool_submit(ecs_sched_pool *pool, ecs_sched_task_group *group,
                           ecs_sched_task_fn fn, void *arg) {
    ECS_SCHED_ASSERT(pool != NULL && fn != NULL);
    ecs_sched__pool_offer(pool, group, fn, arg, true);
}

/* Completions are read before submissions: equal sums then mean that every task submitted
   so far has finished, and a finished task submits no more. */
static bool ecs_sched__group_done(void *arg) {
    ecs_sched_task_group *group = (ecs_sched_task_group *)arg;
    int64_t completed = 0, submitted = 0;
    int32_t i, n;
    if (!group->slots) return atomic_load_explicit(&group->pending, memory_order_acquire) == 0;
    n = group->slot_count;
    for (i = 0; i < n; i++) {
        completed += atomic_load_explicit(&group->slots[i].completed, memory_order_acquire);
    }
    for (i = 0; i < n; i++) {
        submitted += atomic_load_explicit(&group->slots[i].submitted, memory_order_acquire);
    }
    return completed == submitted;
}

/* A wait for a group that also stops when also(arg) holds (checked first; `also` may be
   NULL). Whoever makes also() true must notify pool->idle. */
typedef struct ecs_sched__wait_or {
    ecs_sched_task_group *group;
    bool (*also)(void *arg);
    void *arg;
} ecs_sched__wait_or;

static bool ecs_sched__wait_or_done(void *p) {
    ecs_sched__wait_or *w = (ecs_sched__wait_or *)p;
    return (w->also && w->also(w->arg)) || ecs_sched__group_done(w->group);
}

static void ecs_sched__pool_wait_or(ecs_sched_pool *pool, ecs_sched_task_group *group,
                                    bool (*also)(void *arg), void *arg) {
    ecs_sched__wait_or w;
    w.group = group;
    w.also = also;
    w.arg = arg;
    ecs_sched__pool_work_until(pool, ecs_sched__self(pool), ecs_sched__wait_or_done, &w,
                               &pool->group_waiters);
}

void ecs_sched_pool_wait(ecs_sched_pool *pool, ecs_sched_task_group *group) {
    ecs_sched__pool_wait_or(pool, group, NULL, NULL);
}

typedef struct ecs_sched__range {
    ecs_sched_pool *pool;
    int64_t begin, end, grain;
    ecs_sched_range_fn fn;
    void *arg;
} ecs_sched__range;

/* Halves the range until a piece fits the grain: the right half becomes a task others may
   steal, the left half is worked on here. Each level waits for its right half, so the tasks
   can live on the stack. */
static void ecs_sched__range_run(void *p) {
    ecs_sched__range *r = (ecs_sched__range *)p;
    if (r->end - r->begin > r->grain) {
        struct ecs_sched_task_group group;
        ecs_sched__range left = *r, right = *r;
        left.end = right.begin = r->begin + (r->end - r->begin) / 2;
        atomic_init(&group.pending, 0);
        group.slots = NULL;
        group.slot_count = 0;
        ecs_sched_pool_submit(r->pool, &group, ecs_sched__range_run, &right);
        ecs_sched__range_run(&left);
        ecs_sched_pool_wait(r->pool, &group);
        return;
    }
    r->fn(r->begin, r->end, r->arg);
}

void ecs_sched_pool_parallel_for(ecs_sched_pool *pool, int64_t begin, int64_t end,
                                 int64_t grain, ecs_sched_range_fn fn, void *arg) {
    ecs_sched__range r;
    ECS_SCHED_ASSERT(pool != NULL && fn != NULL);
    if (end <= begin) return;
    r.pool = pool;
    r.begin = begin;
    r.end = end;
    r.grain = grain > 0 ? grain : ecs_sched__default_grain(pool->count, end - begin);
    r.fn = fn;
    r.arg = arg;
    ecs_sched__range_run(&r);
}

#endif /* ECS_SCHED_THREADS */
