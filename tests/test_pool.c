/* The thread pool: every task runs exactly once, groups wait for what they cover, parallel_for
   covers its range, sleeping workers wake for new work, destroy runs what is pending.

   Built twice: without ECS_SCHED_THREADS (everything inline, one worker) and with it
   (-std=c11 -DECS_SCHED_THREADS -lpthread), also under ThreadSanitizer. The thread counts 1, 2
   and 4 are tried where the count matters. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#define ECS_SCHED_ASSERT(cond) mock_assert((int)(cond), #cond, __FILE__, __LINE__)
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#ifdef ECS_SCHED_THREADS
#include <pthread.h>
#endif

#include "fixture.h"

static const int32_t thread_counts[] = {1, 2, 4};
#define THREAD_COUNT_CASES ((int)(sizeof thread_counts / sizeof thread_counts[0]))

/* ---- fixture ---- */

/* A pool that never comes back from a wait has lost a wake-up (or deadlocked): end the run
   with a message instead of hanging until the CI's limit. */
static void watchdog_fired(int signal_number) {
    static const char message[] =
        "test_pool: watchdog: a test still runs after 120 s (a lost wake-up or a deadlock)\n";
    (void)signal_number;
    if (write(STDERR_FILENO, message, sizeof message - 1) < 0) _exit(3);
    _exit(3);
}

static int arm_watchdog(void **state) {
    (void)state;
    signal(SIGALRM, watchdog_fired);
    alarm(120);
    return 0;
}

static int disarm_watchdog(void **state) {
    (void)state;
    alarm(0);
    return 0;
}

static ecs_sched_pool *new_pool(int32_t threads) {
    ecs_sched_pool_desc desc;
    ecs_sched_pool *pool;
    memset(&desc, 0, sizeof desc);
    desc.thread_count = threads;
    pool = ecs_sched_pool_create(&desc);
    assert_non_null(pool);
    return pool;
}

/* The number of workers a pool asked for `threads` has: without threads, always one. */
static int32_t expected_workers(int32_t threads) {
#ifdef ECS_SCHED_THREADS
    return threads;
#else
    (void)threads;
    return 1;
#endif
}

/* Runs body once per thread count of thread_counts, each time with a fresh pool and a group
   of that pool. */
typedef void (*pool_body)(ecs_sched_pool *pool, ecs_sched_task_group *group);

static void with_each_thread_count(pool_body body) {
    int c;
    for (c = 0; c < THREAD_COUNT_CASES; c++) {
        ecs_sched_pool *pool = new_pool(thread_counts[c]);
        ecs_sched_task_group *group = ecs_sched_pool_group_create(pool);
        assert_non_null(group);
        body(pool, group);
        ecs_sched_pool_group_destroy(pool, group);
        ecs_sched_pool_destroy(pool);
    }
}

static int64_t load(const int64_t *p) {
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static int64_t add(int64_t *p, int64_t n) {
    return __atomic_add_fetch(p, n, __ATOMIC_ACQ_REL);
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_ms(long ms) {
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    nanosleep(&ts, NULL);
}

/* ---- tasks ---- */

static void mark_ran(void *arg) {
    add((int64_t *)arg, 1);
}

typedef struct fib_task {
    ecs_sched_pool *pool;
    int n;
    int64_t result;
} fib_task;

static int64_t fib_sequential(int n) {
    return n < 2 ? n : fib_sequential(n - 1) + fib_sequential(n - 2);
}

/* Computes fib(n) by submitting both halves as tasks of a group of its own and waiting. */
static void fib_run(void *arg) {
    fib_task *task = (fib_task *)arg;
    fib_task left, right;
    ecs_sched_task_group *group;
    if (task->n < 2) {
        task->result = task->n;
        return;
    }
    left.pool = right.pool = task->pool;
    left.n = task->n - 1;
    right.n = task->n - 2;
    group = ecs_sched_pool_group_create(task->pool);
    assert_non_null(group);
    ecs_sched_pool_submit(task->pool, group, fib_run, &left);
    ecs_sched_pool_submit(task->pool, group, fib_run, &right);
    ecs_sched_pool_wait(task->pool, group);
    ecs_sched_pool_group_destroy(task->pool, group);
    task->result = left.result + right.result;
}

/* `expected` tasks meet: each arrives, then waits until all have arrived. They can only all
   arrive when each runs on a worker of its own, so every worker must have been woken. A task
   that gives up after `patience` seconds counts a timeout. */
typedef struct rendezvous {
    ecs_sched_pool *pool;
    int64_t expected;
    int64_t arrived;
    int64_t timeouts;
    int64_t seen_workers;      /* a bit per worker index that ran one of the tasks */
    int64_t bad_indices;
    double patience;
} rendezvous;

static void rendezvous_run(void *arg) {
    rendezvous *r = (rendezvous *)arg;
    int32_t index = ecs_sched_pool_worker_index(r->pool);
    double deadline = now_seconds() + r->patience;
    if (index < 0 || index >= ecs_sched_pool_thread_count(r->pool)) add(&r->bad_indices, 1);
    else __atomic_fetch_or(&r->seen_workers, (int64_t)1 << index, __ATOMIC_ACQ_REL);
    add(&r->arrived, 1);
    while (load(&r->arrived) < r->expected) {
        if (now_seconds() > deadline) {
            add(&r->timeouts, 1);
            return;
        }
        sched_yield();
    }
}

static void run_rendezvous(ecs_sched_pool *pool, rendezvous *r, ecs_sched_task_group *group) {
    int64_t i;
    memset(r, 0, sizeof *r);
    r->pool = pool;
    r->expected = ecs_sched_pool_thread_count(pool);
    r->patience = 20.0;
    for (i = 0; i < r->expected; i++) ecs_sched_pool_submit(pool, group, rendezvous_run, r);
    ecs_sched_pool_wait(pool, group);
}

/* ---- tests: creation ---- */

static void pool_has_the_thread_count_asked_for(void **state) {
    int c;
    (void)state;
    for (c = 0; c < THREAD_COUNT_CASES; c++) {
        ecs_sched_pool *pool = new_pool(thread_counts[c]);
        assert_int_equal(ecs_sched_pool_thread_count(pool), expected_workers(thread_counts[c]));
        ecs_sched_pool_destroy(pool);
    }
}

static void pool_with_zero_threads_has_one_per_hardware_thread(void **state) {
    ecs_sched_pool *pool = new_pool(0);
    (void)state;
#ifdef ECS_SCHED_THREADS
    assert_int_equal(ecs_sched_pool_thread_count(pool), (int32_t)sysconf(_SC_NPROCESSORS_ONLN));
#else
    assert_int_equal(ecs_sched_pool_thread_count(pool), 1);
#endif
    ecs_sched_pool_destroy(pool);
}

static ecs_sched_pool *create_logged(int32_t threads, int32_t capacity, captured_log *log) {
    ecs_sched_pool_desc desc;
    memset(log, 0, sizeof *log);
    memset(&desc, 0, sizeof desc);
    desc.thread_count = threads;
    desc.queue_capacity = capacity;
    desc.logger.fn = capture_message;
    desc.logger.user_data = log;
    return ecs_sched_pool_create(&desc);
}

static void queue_capacity_not_a_power_of_two_is_refused_by_name(void **state) {
    captured_log log;
    (void)state;
    assert_null(create_logged(2, 1000, &log));
    assert_int_equal(log.errors, 1);
    assert_non_null(strstr(log.last, "queue_capacity 1000 is not a power of two"));
}

static void negative_queue_capacity_is_refused(void **state) {
    captured_log log;
    (void)state;
    assert_null(create_logged(2, -4, &log));
    assert_int_equal(log.errors, 1);
    assert_non_null(strstr(log.last, "queue_capacity -4"));
}

static void negative_thread_count_is_refused_by_name(void **state) {
    captured_log log;
    (void)state;
    assert_null(create_logged(-1, 0, &log));
    assert_int_equal(log.errors, 1);
    assert_non_null(strstr(log.last, "thread_count is -1"));
}

static void pool_can_be_created_and_destroyed_many_times(void **state) {
    int i;
    (void)state;
    for (i = 0; i < 50; i++) {
        int64_t ran = 0;
        ecs_sched_pool *pool = new_pool(thread_counts[i % THREAD_COUNT_CASES]);
        ecs_sched_pool_submit(pool, NULL, mark_ran, &ran);
        ecs_sched_pool_destroy(pool);
        assert_int_equal(ran, 1);
    }
}

/* ---- tests: tasks ---- */

#define MILLION 1000000

static void run_a_million_tasks(ecs_sched_pool *pool, ecs_sched_task_group *group) {
    int64_t *runs = (int64_t *)calloc(MILLION, sizeof *runs);
    int64_t i, wrong = 0;
    assert_non_null(runs);
    for (i = 0; i < MILLION; i++) ecs_sched_pool_submit(pool, group, mark_ran, &runs[i]);
    ecs_sched_pool_wait(pool, group);
    for (i = 0; i < MILLION; i++) wrong += load(&runs[i]) != 1;
    free(runs);
    assert_int_equal(wrong, 0);
}

static void a_million_tiny_tasks_each_run_exactly_once(void **state) {
    (void)state;
    with_each_thread_count(run_a_million_tasks);
}

static void compute_fib(ecs_sched_pool *pool, ecs_sched_task_group *group) {
    fib_task root;
    (void)group;
    root.pool = pool;
    root.n = 20;
    root.result = -1;
    fib_run(&root);
    assert_int_equal(root.result, fib_sequential(20));
}

static void nested_submits_compute_fib_like_the_sequential_version(void **state) {
    (void)state;
    with_each_thread_count(compute_fib);
}

typedef struct spawner_task {
    ecs_sched_pool *pool;
    ecs_sched_task_group *group;
    int64_t *ran;
    int children;
} spawner_task;

/* Submits its children into the group it belongs to and returns without waiting for them. */
static void spawner_run(void *arg) {
    spawner_task *task = (spawner_task *)arg;
    int i;
    for (i = 0; i < task->children; i++) {
        ecs_sched_pool_submit(task->pool, task->group, mark_ran, task->ran);
    }
}

static void spawn_from_tasks(ecs_sched_pool *pool, ecs_sched_task_group *group) {
    spawner_task spawners[50];
    int64_t ran = 0;
    int i;
    for (i = 0; i < 50; i++) {
        spawners[i].pool = pool;
        spawners[i].group = group;
        spawners[i].ran = &ran;
        spawners[i].children = 20;
    }
    for (i = 0; i < 50; i++) ecs_sched_pool_submit(pool, group, spawner_run, &spawners[i]);
    ecs_sched_pool_wait(pool, group);
    assert_int_equal(load(&ran), 50 * 20);
}

static void a_wait_covers_tasks_that_tasks_of_the_group_submit(void **state) {
    (void)state;
    with_each_thread_count(spawn_from_tasks);
}

static void waiting_on_an_empty_group_returns_at_once(void **state) {
    ecs_sched_pool *pool = new_pool(2);
    ecs_sched_task_group *group = ecs_sched_pool_group_create(pool);
    (void)state;
    ecs_sched_pool_wait(pool, group);
    ecs_sched_pool_wait(pool, group);
    ecs_sched_pool_group_destroy(pool, group);
    ecs_sched_pool_destroy(pool);
}

static void reuse_group(ecs_sched_pool *pool, ecs_sched_task_group *group) {
    int64_t ran = 0;
    int round, i;
    for (round = 1; round <= 20; round++) {
        for (i = 0; i < 1000; i++) ecs_sched_pool_submit(pool, group, mark_ran, &ran);
        ecs_sched_pool_wait(pool, group);
        assert_int_equal(load(&ran), round * 1000);
    }
}

static void a_group_can_be_reused_after_a_wait(void **state) {
    (void)state;
    with_each_thread_count(reuse_group);
}

static void a_wait_covers_only_its_own_group(void **state) {
    /* Tasks of another group may still be pending after the wait: they run by destroy. */
    ecs_sched_pool *pool = new_pool(2);
    ecs_sched_task_group *mine = ecs_sched_pool_group_create(pool);
    ecs_sched_task_group *other = ecs_sched_pool_group_create(pool);
    int64_t mine_ran = 0, other_ran = 0;
    int i;
    (void)state;
    for (i = 0; i < 500; i++) {
        ecs_sched_pool_submit(pool, other, mark_ran, &other_ran);
        ecs_sched_pool_submit(pool, mine, mark_ran, &mine_ran);
    }
    ecs_sched_pool_wait(pool, mine);
    assert_int_equal(load(&mine_ran), 500);
    ecs_sched_pool_wait(pool, other);
    assert_int_equal(load(&other_ran), 500);
    ecs_sched_pool_group_destroy(pool, mine);
    ecs_sched_pool_group_destroy(pool, other);
    ecs_sched_pool_destroy(pool);
}

static void a_full_deque_runs_the_task_at_once(void **state) {
    int c;
    (void)state;
    for (c = 0; c < THREAD_COUNT_CASES; c++) {
        ecs_sched_pool_desc desc;
        ecs_sched_pool *pool;
        ecs_sched_task_group *group;
        int64_t runs[1000];
        int64_t i, wrong = 0;
        memset(&desc, 0, sizeof desc);
        memset(runs, 0, sizeof runs);
        desc.thread_count = thread_counts[c];
        desc.queue_capacity = 2;
        pool = ecs_sched_pool_create(&desc);
        assert_non_null(pool);
        group = ecs_sched_pool_group_create(pool);
        for (i = 0; i < 1000; i++) ecs_sched_pool_submit(pool, group, mark_ran, &runs[i]);
        ecs_sched_pool_wait(pool, group);
        for (i = 0; i < 1000; i++) wrong += load(&runs[i]) != 1;
        assert_int_equal(wrong, 0);
        ecs_sched_pool_group_destroy(pool, group);
        ecs_sched_pool_destroy(pool);
    }
}

/* ---- tests: workers ---- */

static void the_creating_thread_is_worker_zero(void **state) {
    ecs_sched_pool *pool = new_pool(4);
    (void)state;
    assert_int_equal(ecs_sched_pool_worker_index(pool), 0);
    ecs_sched_pool_destroy(pool);
}

static void meet_once(ecs_sched_pool *pool, ecs_sched_task_group *group) {
    rendezvous r;
    int32_t n = ecs_sched_pool_thread_count(pool);
    run_rendezvous(pool, &r, group);
    assert_int_equal(r.timeouts, 0);
    assert_int_equal(r.bad_indices, 0);
    assert_int_equal(r.seen_workers, ((int64_t)1 << n) - 1);
}

static void tasks_that_must_meet_run_on_distinct_workers(void **state) {
    (void)state;
    with_each_thread_count(meet_once);
}

/* Between bursts the workers have time to fall asleep; each burst needs all of them. A lost
   wake-up leaves a task waiting for a partner that never comes. */
static void meet_after_sleeps(ecs_sched_pool *pool, ecs_sched_task_group *group) {
    int burst;
    for (burst = 0; burst < 25; burst++) {
        rendezvous r;
        sleep_ms(burst % 5 == 0 ? 20 : 2);
        run_rendezvous(pool, &r, group);
        assert_int_equal(r.timeouts, 0);
        assert_int_equal(r.arrived, r.expected);
    }
}

static void sleeping_workers_wake_for_every_burst(void **state) {
    (void)state;
    with_each_thread_count(meet_after_sleeps);
}

#ifdef ECS_SCHED_THREADS
typedef struct outsider {
    ecs_sched_pool *pool;
    int32_t index;
    int64_t ran;
} outsider;

static void *outsider_main(void *arg) {
    outsider *o = (outsider *)arg;
    o->index = ecs_sched_pool_worker_index(o->pool);
    ecs_sched_pool_submit(o->pool, NULL, mark_ran, &o->ran);
    return NULL;
}

static void a_thread_outside_the_pool_has_no_worker_index_and_runs_submits_at_once(void **state) {
    ecs_sched_pool *pool = new_pool(2);
    outsider o;
    pthread_t thread;
    (void)state;
    memset(&o, 0, sizeof o);
    o.pool = pool;
    assert_int_equal(pthread_create(&thread, NULL, outsider_main, &o), 0);
    assert_int_equal(pthread_join(thread, NULL), 0);
    assert_int_equal(o.index, -1);
    assert_int_equal(o.ran, 1);   /* ran before submit returned, on the outside thread */
    ecs_sched_pool_destroy(pool);
}
#endif

static void one_thread_is_worker_zero_of_every_pool_it_creates(void **state) {
    ecs_sched_pool *first = new_pool(2), *second = new_pool(2);
    ecs_sched_task_group *group = ecs_sched_pool_group_create(first);
    rendezvous r;
    (void)state;
    assert_int_equal(ecs_sched_pool_worker_index(first), 0);
    assert_int_equal(ecs_sched_pool_worker_index(second), 0);
    run_rendezvous(first, &r, group);   /* needs the first pool's deques, not inline runs */
    assert_int_equal(r.timeouts, 0);
    ecs_sched_pool_group_destroy(first, group);
    ecs_sched_pool_destroy(second);
    ecs_sched_pool_destroy(first);
}

/* ---- tests: parallel_for ---- */

typedef struct coverage {
    ecs_sched_pool *pool;
    int64_t begin;
    int64_t grain;
    int64_t *hits;            /* per index of the range */
    int64_t pieces;
    int64_t bad_pieces;       /* empty, too long, or outside the range */
    int64_t end;
} coverage;

static void cover_piece(int64_t b, int64_t e, void *arg) {
    coverage *c = (coverage *)arg;
    int64_t i;
    add(&c->pieces, 1);
    if (b >= e || b < c->begin || e > c->end || (c->grain > 0 && e - b > c->grain)) {
        add(&c->bad_pieces, 1);
        return;
    }
    for (i = b; i < e; i++) add(&c->hits[i - c->begin], 1);
}

/* Runs parallel_for over [begin, end) with `grain` and checks each index was covered once. */
static void check_parallel_for(ecs_sched_pool *pool, int64_t begin, int64_t end, int64_t grain) {
    coverage c;
    int64_t n = end > begin ? end - begin : 0, i, wrong = 0;
    memset(&c, 0, sizeof c);
    c.pool = pool;
    c.begin = begin;
    c.end = end;
    c.grain = grain;
    c.hits = (int64_t *)calloc((size_t)(n > 0 ? n : 1), sizeof *c.hits);
    assert_non_null(c.hits);
    ecs_sched_pool_parallel_for(pool, begin, end, grain, cover_piece, &c);
    for (i = 0; i < n; i++) wrong += load(&c.hits[i]) != 1;
    if (wrong || c.bad_pieces) {
        fail_msg("parallel_for [%lld, %lld) grain %lld: %lld indices not covered exactly once, "
                 "%lld bad pieces", (long long)begin, (long long)end, (long long)grain,
                 (long long)wrong, (long long)c.bad_pieces);
    }
    if (n == 0) assert_int_equal(c.pieces, 0);
    if (grain > 0 && n > 0) assert_true(c.pieces >= (n + grain - 1) / grain);
    free(c.hits);
}

static void cover_ranges(ecs_sched_pool *pool, ecs_sched_task_group *group) {
    static const int64_t ranges[][2] = {{0, 1}, {0, 2}, {0, 1000}, {-50, 77}, {3, 4},
                                        {0, 100003}, {1000000, 1001001}};
    static const int64_t grains[] = {1, 2, 7, 64, 1000, 1000000, 0};
    size_t r, g;
    (void)group;
    for (r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
        for (g = 0; g < sizeof grains / sizeof grains[0]; g++) {
            /* one index per piece over 100k indices is slow under the sanitizers */
            if (grains[g] == 1 && ranges[r][1] - ranges[r][0] > 2000) continue;
            check_parallel_for(pool, ranges[r][0], ranges[r][1], grains[g]);
        }
    }
}

static void parallel_for_covers_every_index_exactly_once(void **state) {
    (void)state;
    with_each_thread_count(cover_ranges);
}

static void parallel_for_over_an_empty_range_calls_nothing(void **state) {
    ecs_sched_pool *pool = new_pool(2);
    (void)state;
    check_parallel_for(pool, 0, 0, 16);
    check_parallel_for(pool, 5, 5, 0);
    check_parallel_for(pool, 10, 3, 4);   /* end before begin: nothing */
    ecs_sched_pool_destroy(pool);
}

typedef struct nested_for {
    ecs_sched_pool *pool;
    int64_t *hits;          /* 64 x 64 */
} nested_for;

typedef struct nested_row {
    nested_for *outer;
    int64_t row;
} nested_row;

static void nested_inner(int64_t b, int64_t e, void *arg) {
    nested_row *r = (nested_row *)arg;
    int64_t i;
    for (i = b; i < e; i++) add(&r->outer->hits[r->row * 64 + i], 1);
}

static void nested_outer(int64_t b, int64_t e, void *arg) {
    nested_for *n = (nested_for *)arg;
    int64_t row;
    for (row = b; row < e; row++) {
        nested_row r;
        r.outer = n;
        r.row = row;
        ecs_sched_pool_parallel_for(n->pool, 0, 64, 5, nested_inner, &r);
    }
}

static void cover_nested(ecs_sched_pool *pool, ecs_sched_task_group *group) {
    nested_for n;
    int64_t hits[64 * 64];
    int64_t i, wrong = 0;
    (void)group;
    memset(hits, 0, sizeof hits);
    n.pool = pool;
    n.hits = hits;
    ecs_sched_pool_parallel_for(pool, 0, 64, 3, nested_outer, &n);
    for (i = 0; i < 64 * 64; i++) wrong += load(&hits[i]) != 1;
    assert_int_equal(wrong, 0);
}

static void parallel_for_nests_inside_its_own_pieces(void **state) {
    (void)state;
    with_each_thread_count(cover_nested);
}

/* ---- tests: destroy ---- */

typedef struct chain_task {
    ecs_sched_pool *pool;
    int64_t *ran;
    int remaining;
} chain_task;

static chain_task chain_tasks[64];

/* Counts itself, then submits the next link (without a group) until the chain ends. */
static void chain_run(void *arg) {
    chain_task *task = (chain_task *)arg;
    add(task->ran, 1);
    if (task->remaining > 0) ecs_sched_pool_submit(task->pool, NULL, chain_run, task + 1);
}

static void destroy_runs_every_pending_task_first(void **state) {
    int c;
    (void)state;
    for (c = 0; c < THREAD_COUNT_CASES; c++) {
        ecs_sched_pool *pool = new_pool(thread_counts[c]);
        int64_t ran = 0;
        int i;
        for (i = 0; i < 10000; i++) ecs_sched_pool_submit(pool, NULL, mark_ran, &ran);
        ecs_sched_pool_destroy(pool);
        assert_int_equal(ran, 10000);
    }
}

static void destroy_runs_the_tasks_pending_tasks_submit(void **state) {
    int c;
    (void)state;
    for (c = 0; c < THREAD_COUNT_CASES; c++) {
        ecs_sched_pool *pool = new_pool(thread_counts[c]);
        int64_t ran = 0;
        int i;
        for (i = 0; i < 64; i++) {
            chain_tasks[i].pool = pool;
            chain_tasks[i].ran = &ran;
            chain_tasks[i].remaining = 63 - i;
        }
        ecs_sched_pool_submit(pool, NULL, chain_run, &chain_tasks[0]);
        ecs_sched_pool_destroy(pool);
        assert_int_equal(ran, 64);
    }
}

static void destroy_right_after_create_returns(void **state) {
    int c;
    (void)state;
    for (c = 0; c < THREAD_COUNT_CASES; c++) ecs_sched_pool_destroy(new_pool(thread_counts[c]));
    ecs_sched_pool_destroy(NULL);
}

/* ---- tests: the deque's batch steals (the implementation's own functions) ---- */

#ifdef ECS_SCHED_THREADS

static void noop_task(void *arg) {
    (void)arg;
}

/* Task number i carries i in its argument, so order and identity can be checked. */
static ecs_sched__task numbered_task(intptr_t i) {
    ecs_sched__task task;
    task.fn = noop_task;
    task.arg = (void *)i;
    task.group = NULL;
    return task;
}

static intptr_t task_number(const ecs_sched__task *task) {
    return (intptr_t)task->arg;
}

static ecs_sched__env test_env(void) {
    ecs_sched__env env;
    ecs_sched__env_init(&env, NULL, NULL);
    return env;
}

static void deque_with_tasks(ecs_sched__env *env, ecs_sched__deque *q, int64_t capacity,
                             intptr_t count) {
    intptr_t i;
    assert_true(ecs_sched__deque_init(env, q, capacity));
    for (i = 0; i < count; i++) {
        ecs_sched__task task = numbered_task(i);
        assert_true(ecs_sched__deque_push(q, &task));
    }
}

static void a_steal_takes_about_half_of_the_queued_tasks_oldest_first(void **state) {
    ecs_sched__env env = test_env();
    ecs_sched__deque q;
    ecs_sched__task got[ECS_SCHED__STEAL_BATCH];
    (void)state;
    deque_with_tasks(&env, &q, 64, 10);
    assert_int_equal(ecs_sched__deque_steal(&q, got, ECS_SCHED__STEAL_BATCH), 5);
    assert_int_equal(task_number(&got[0]), 0);
    assert_int_equal(task_number(&got[4]), 4);
    assert_int_equal(ecs_sched__deque_steal(&q, got, ECS_SCHED__STEAL_BATCH), 3);
    assert_int_equal(task_number(&got[0]), 5);
    assert_int_equal(ecs_sched__deque_steal(&q, got, ECS_SCHED__STEAL_BATCH), 1);
    assert_int_equal(ecs_sched__deque_steal(&q, got, ECS_SCHED__STEAL_BATCH), 1);
    assert_int_equal(task_number(&got[0]), 9);
    assert_int_equal(ecs_sched__deque_steal(&q, got, ECS_SCHED__STEAL_BATCH), 0);
    ecs_sched__free(&env, q.ring);
}

static void a_steal_takes_no_more_than_the_batch_or_the_thief_asks(void **state) {
    ecs_sched__env env = test_env();
    ecs_sched__deque q;
    ecs_sched__task got[ECS_SCHED__STEAL_BATCH];
    (void)state;
    deque_with_tasks(&env, &q, 256, 200);
    assert_int_equal(ecs_sched__deque_steal(&q, got, 100), ECS_SCHED__STEAL_BATCH);
    assert_int_equal(task_number(&got[ECS_SCHED__STEAL_BATCH - 1]), ECS_SCHED__STEAL_BATCH - 1);
    assert_int_equal(ecs_sched__deque_steal(&q, got, 3), 3);
    assert_int_equal(task_number(&got[0]), ECS_SCHED__STEAL_BATCH);
    ecs_sched__free(&env, q.ring);
}

/* Far from top the owner takes without claiming; near it, it claims everything and queues
   the rest again (and says so): the order seen is newest first all the way down. */
static void the_owner_takes_newest_first_near_the_top_and_far_from_it(void **state) {
    ecs_sched__env env = test_env();
    ecs_sched__deque q;
    ecs_sched__task got[ECS_SCHED__STEAL_BATCH], task;
    intptr_t expected;
    bool requeued;
    (void)state;
    deque_with_tasks(&env, &q, 64, 3 * ECS_SCHED__STEAL_BATCH);
    assert_int_equal(ecs_sched__deque_steal(&q, got, 2), 2);
    for (expected = 3 * ECS_SCHED__STEAL_BATCH - 1; expected >= 2; expected--) {
        assert_true(ecs_sched__deque_take(&q, &task, &requeued));
        assert_int_equal(task_number(&task), expected);
    }
    assert_false(ecs_sched__deque_take(&q, &task, &requeued));
    ecs_sched__free(&env, q.ring);
}

/* With a ring of 4 the requeued tasks land on the slots they came from. */
static void the_owner_takes_newest_first_from_a_full_small_ring(void **state) {
    ecs_sched__env env = test_env();
    ecs_sched__deque q;
    ecs_sched__task got[1], task;
    ecs_sched__task extra = numbered_task(4);
    bool requeued;
    (void)state;
    deque_with_tasks(&env, &q, 4, 4);
    assert_false(ecs_sched__deque_push(&q, &extra));
    assert_true(ecs_sched__deque_take(&q, &task, &requeued));
    assert_int_equal(task_number(&task), 3);
    assert_true(requeued);
    assert_true(ecs_sched__deque_push(&q, &extra));
    assert_int_equal(ecs_sched__deque_steal(&q, got, 1), 1);
    assert_int_equal(task_number(&got[0]), 0);
    assert_true(ecs_sched__deque_take(&q, &task, &requeued));
    assert_int_equal(task_number(&task), 4);
    assert_true(ecs_sched__deque_take(&q, &task, &requeued));
    assert_int_equal(task_number(&task), 2);
    assert_true(ecs_sched__deque_take(&q, &task, &requeued));
    assert_int_equal(task_number(&task), 1);
    assert_false(requeued);
    assert_false(ecs_sched__deque_take(&q, &task, &requeued));
    ecs_sched__free(&env, q.ring);
}


/* A pool with more threads than the hardware runs at once has workers going to sleep about as
   often as work comes: both sides of the sleep handshake then pay a fence, and none a
   membarrier (which would interrupt every running thread at each sleep). A pool that fits
   uses the asymmetric pair where the system offers it. */
static void a_crowded_pool_fences_both_sides_of_the_sleep_handshake(void **state) {
    int32_t hardware = (int32_t)sysconf(_SC_NPROCESSORS_ONLN);
    ecs_sched_pool *crowded = new_pool(hardware + 2);
    ecs_sched_pool *fitting = new_pool(hardware);
    (void)state;
    assert_true(crowded->crowded);
    assert_false(crowded->idle.asymmetric);
    assert_false(fitting->crowded);
    assert_true(fitting->idle.asymmetric == ecs_sched__membarrier_available());
    ecs_sched_pool_destroy(fitting);
    ecs_sched_pool_destroy(crowded);
}
static void tasks_a_steal_brought_can_be_stolen_again(void **state) {
    ecs_sched__env env = test_env();
    ecs_sched__deque victim, thief;
    ecs_sched__task got[ECS_SCHED__STEAL_BATCH], task;
    int32_t count;
    bool requeued;
    (void)state;
    deque_with_tasks(&env, &victim, 64, 12);
    assert_true(ecs_sched__deque_init(&env, &thief, 64));
    count = ecs_sched__deque_steal(&victim, got, ECS_SCHED__STEAL_BATCH);
    assert_int_equal(count, 6);
    ecs_sched__deque_refill(&thief, got + 1, count - 1);
    assert_int_equal(ecs_sched__deque_steal(&thief, got, ECS_SCHED__STEAL_BATCH), 3);
    assert_int_equal(task_number(&got[0]), 1);
    assert_int_equal(task_number(&got[2]), 3);
    assert_true(ecs_sched__deque_take(&thief, &task, &requeued));
    assert_int_equal(task_number(&task), 5);
    ecs_sched__free(&env, victim.ring);
    ecs_sched__free(&env, thief.ring);
}

/* One owner pushing in bursts and taking, three thieves stealing batches: every task is taken
   exactly once, and batches of more than one did happen. */
#define RACE_TASKS 200000
#define RACE_BURST 300
#define RACE_THIEVES 3

typedef struct deque_race {
    ecs_sched__deque q;
    atomic_int taken[RACE_TASKS];
    atomic_bool done;
    atomic_long batches;             /* steals that brought more than one task */
} deque_race;

static void race_count(deque_race *race, const ecs_sched__task *task) {
    atomic_fetch_add_explicit(&race->taken[task_number(task)], 1, memory_order_relaxed);
}

static void *race_thief(void *arg) {
    deque_race *race = (deque_race *)arg;
    ecs_sched__task got[ECS_SCHED__STEAL_BATCH];
    for (;;) {
        bool finished = atomic_load_explicit(&race->done, memory_order_acquire);
        int32_t count = ecs_sched__deque_steal(&race->q, got, ECS_SCHED__STEAL_BATCH), i;
        for (i = 0; i < count; i++) race_count(race, &got[i]);
        if (count > 1) atomic_fetch_add_explicit(&race->batches, 1, memory_order_relaxed);
        if (finished && count == 0 && ecs_sched__deque_looks_empty(&race->q)) return NULL;
    }
}

static void batch_steals_and_owner_takes_see_every_task_exactly_once(void **state) {
    static deque_race race;
    ecs_sched__env env = test_env();
    pthread_t thieves[RACE_THIEVES];
    ecs_sched__task task;
    intptr_t next = 0;
    int i, wrong = 0;
    bool requeued;
    (void)state;
    assert_true(ecs_sched__deque_init(&env, &race.q, 1024));
    for (i = 0; i < RACE_TASKS; i++) atomic_init(&race.taken[i], 0);
    atomic_init(&race.done, false);
    atomic_init(&race.batches, 0);
    for (i = 0; i < RACE_THIEVES; i++) {
        assert_int_equal(pthread_create(&thieves[i], NULL, race_thief, &race), 0);
    }
    while (next < RACE_TASKS) {
        intptr_t burst_end = next + RACE_BURST < RACE_TASKS ? next + RACE_BURST : RACE_TASKS;
        for (; next < burst_end; next++) {
            task = numbered_task(next);
            if (!ecs_sched__deque_push(&race.q, &task)) race_count(&race, &task);
        }
        while (ecs_sched__deque_take(&race.q, &task, &requeued)) race_count(&race, &task);
    }
    atomic_store_explicit(&race.done, true, memory_order_release);
    for (i = 0; i < RACE_THIEVES; i++) pthread_join(thieves[i], NULL);
    for (i = 0; i < RACE_TASKS; i++) wrong += atomic_load(&race.taken[i]) != 1;
    assert_int_equal(wrong, 0);
    assert_true(atomic_load(&race.batches) > 0);
    ecs_sched__free(&env, race.q.ring);
}

#endif /* ECS_SCHED_THREADS */

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(pool_has_the_thread_count_asked_for, arm_watchdog, disarm_watchdog),
        cmocka_unit_test_setup_teardown(pool_with_zero_threads_has_one_per_hardware_thread, arm_watchdog, disarm_watchdog),
        cmocka_unit_test(queue_capacity_not_a_power_of_two_is_refused_by_name),
        cmocka_unit_test(negative_queue_capacity_is_refused),
        cmocka_unit_test(negative_thread_count_is_refused_by_name),
        cmocka_unit_test_setup_teardown(pool_can_be_created_and_destroyed_many_times, arm_watchdog, disarm_watchdog),
        cmocka_unit_test_setup_teardown(a_million_tiny_tasks_each_run_exactly_once, arm_watchdog, disarm_watchdog),
        cmocka_unit_test_setup_teardown(nested_submits_compute_fib_like_the_sequential_version, arm_watchdog, disarm_watchdog),
        cmocka_unit_test_setup_teardown(a_wait_covers_tasks_that_tasks_of_the_group_submit, arm_watchdog, disarm_watchdog),
        cmocka_unit_test_setup_teardown(waiting_on_an_empty_group_returns_at_once, arm_watchdog, disarm_watchdog),
        cmocka_unit_test_setup_teardown(a_group_can_be_reused_after_a_wait, arm_watchdog, disarm_watchdog),
        cmocka_unit_test_setup_teardown(a_wait_covers_only_its_own_group, arm_watchdog, disarm_watchdog),
        cmocka_unit_test_setup_teardown(a_full_deque_runs_the_task_at_once, arm_watchdog, disarm_watchdog),
        cmocka_unit_test_setup_teardown(the_creating_thread_is_worker_zero, arm_watchdog, disarm_watchdog),
        cmocka_unit_test_setup_teardown(tasks_that_must_meet_run_on_distinct_workers, arm_watchdog, disarm_watchdog),
        cmocka_unit_test_setup_teardown(one_thread_is_worker_zero_of_every_pool_it_creates, arm_watchdog, disarm_watchdog),
        cmocka_unit_test_setup_teardown(sleeping_workers_wake_for_every_burst, arm_watchdog, disarm_watchdog),
#ifdef ECS_SCHED_THREADS
        cmocka_unit_test_setup_teardown(a_thread_outside_the_pool_has_no_worker_index_and_runs_submits_at_once, arm_watchdog, disarm_watchdog),
#endif
        cmocka_unit_test_setup_teardown(parallel_for_covers_every_index_exactly_once, arm_watchdog, disarm_watchdog),
        cmocka_unit_test_setup_teardown(parallel_for_over_an_empty_range_calls_nothing, arm_watchdog, disarm_watchdog),
        cmocka_unit_test_setup_teardown(parallel_for_nests_inside_its_own_pieces, arm_watchdog, disarm_watchdog),
        cmocka_unit_test_setup_teardown(destroy_runs_every_pending_task_first, arm_watchdog, disarm_watchdog),
        cmocka_unit_test_setup_teardown(destroy_runs_the_tasks_pending_tasks_submit, arm_watchdog, disarm_watchdog),
        cmocka_unit_test_setup_teardown(destroy_right_after_create_returns, arm_watchdog, disarm_watchdog),
#ifdef ECS_SCHED_THREADS
        cmocka_unit_test(a_steal_takes_about_half_of_the_queued_tasks_oldest_first),
        cmocka_unit_test(a_steal_takes_no_more_than_the_batch_or_the_thief_asks),
        cmocka_unit_test(the_owner_takes_newest_first_near_the_top_and_far_from_it),
        cmocka_unit_test(the_owner_takes_newest_first_from_a_full_small_ring),
        cmocka_unit_test(tasks_a_steal_brought_can_be_stolen_again),
        cmocka_unit_test(a_crowded_pool_fences_both_sides_of_the_sleep_handshake),
        cmocka_unit_test_setup_teardown(batch_steals_and_owner_takes_see_every_task_exactly_once, arm_watchdog, disarm_watchdog),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
