/* tour_threads.c - threads in ecs_sched.h: the parallel executor and what makes it safe,
   parallel queries, and the work-stealing thread pool on its own.

   The tour has six files; read them in this order:
     tour_world.c      the world: components, entities, resources, queries
     tour_commands.c   command buffers, errors, allocator and logger hooks, stb_ds
     tour_schedules.c  systems, sets, order, run conditions, sync points, the executor
     tour_threads.c    the thread pool, the parallel executor, parallel queries (this file)
     tour_states.c     state machines
     tour_app.c        the app, time, the fixed step, plugins

   Each prints what it shows and exits with status 1 if something it claims does not hold.

   Threads are compiled in when the file with the implementation defines ECS_SCHED_THREADS
   and is compiled as C11 with POSIX threads. Without the macro the library has no thread
   code at all, and everything below runs inline on the calling thread, with the same
   results: this program prints the same thing either way. Build and run from the repository
   root (the header, and stb_ds.h from libstb-dev), with threads:

       cc -std=c11 -O2 -DECS_SCHED_THREADS -I. $(pkg-config --cflags stb) \
          examples/tour_threads.c $(pkg-config --libs stb) -lpthread -o tour_threads \
          && ./tour_threads

   or without (plain C99):

       cc -std=c99 -O2 -I. $(pkg-config --cflags stb) examples/tour_threads.c \
          $(pkg-config --libs stb) -o tour_threads && ./tour_threads

   Only the implementation file needs the macro and C11: the other files of a program may
   stay C99, or C++. */
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdio.h>
#include <string.h>

typedef struct { float x, y; } Position;
typedef struct { float x, y; } Velocity;
typedef struct { int32_t frames; } Age;
typedef struct { int32_t bodies, sparks; } Census;   /* a resource */

static int failures;
#define CHECK(cond)                                                             \
    do {                                                                        \
        if (!(cond)) {                                                          \
            printf("CHECK FAILED, line %d: %s\n", __LINE__, #cond);             \
            failures++;                                                         \
        }                                                                       \
    } while (0)

static void section(const char *title) {
    printf("\n== %s\n", title);
}

#define BODIES 20000
#define MAX_WORKERS 64

/* Everything a world of this tour needs. The systems get it as their user_data. */
typedef struct Game {
    ecs_sched_world *world;
    ecs_sched_pool *pool;
    ecs_sched_id position, velocity, age, spark, census;
    ecs_sched_entity bodies[BODIES];
    int64_t rows_by_worker[MAX_WORKERS];   /* one slot per worker: no two threads share one */
} Game;

/* ---- Systems ----

   Update, each frame:  gravity -> move -> land  (a chain), and age, which nothing orders.
     gravity  writes Velocity
     move     writes Position, reads Velocity; splits its query across the pool
     land     reads Position, records commands: what is below ground becomes a spark
     age      writes Age: no conflict with the others, so it may run beside any of them
   Render, each frame, on the calling thread only:
     census   reads Position and the Spark tag, writes the Census resource */

static void gravity(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        Velocity *v = ECS_SCHED_FIELD(&it, Velocity, 0);
        for (int32_t i = 0; i < it.count; i++) v[i].y -= 1;
    }
}

/* A piece of move's query: at most `grain` rows of one table. Pieces run at once, so a
   piece writes only its own rows (and its worker's slot of rows_by_worker). */
static void move_piece(ecs_sched_iter *it, void *arg) {
    Game *g = arg;
    Position *p = ECS_SCHED_FIELD(it, Position, 0);
    const Velocity *v = ECS_SCHED_FIELD(it, Velocity, 1);
    for (int32_t i = 0; i < it->count; i++) {
        p[i].x += v[i].x;
        p[i].y += v[i].y;
    }
    int32_t worker = ecs_sched_pool_worker_index(g->pool);   /* 0 .. thread_count - 1 */
    if (worker >= 0 && worker < MAX_WORKERS) g->rows_by_worker[worker] += it->count;
}

static void move_all(ecs_sched_system_ctx *ctx) {
    Game *g = ecs_sched_ctx_user_data(ctx);
    ecs_sched_ctx_par_iter(ctx, 0, 0, move_piece, g);   /* query 0, default grain */
}

static void land(ecs_sched_system_ctx *ctx) {
    Game *g = ecs_sched_ctx_user_data(ctx);
    ecs_sched_commands *cmd = ecs_sched_ctx_commands(ctx);
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
        for (int32_t i = 0; i < it.count; i++) {
            if (p[i].y >= 0) continue;
            ecs_sched_commands_despawn(cmd, it.entities[i]);
            const ecs_sched_id ids[] = {g->position, g->spark};
            const void *values[] = {&(Position){p[i].x, 0}, NULL};
            ecs_sched_commands_spawn_with(cmd, 2, ids, values);
        }
    }
}

static void age(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        Age *a = ECS_SCHED_FIELD(&it, Age, 0);
        for (int32_t i = 0; i < it.count; i++) a[i].frames++;
    }
}

static void census(ecs_sched_system_ctx *ctx) {
    Game *g = ecs_sched_ctx_user_data(ctx);
    Census *c = ecs_sched_ctx_resource_mut(ctx, g->census);
    c->bodies = ecs_sched_query_count(ecs_sched_ctx_query(ctx, 0));
    c->sparks = ecs_sched_query_count(ecs_sched_ctx_query(ctx, 1));
}

/* A world with BODIES bodies and the two schedules. `executor` is the world's default for
   its schedules; Render always chooses the single-threaded one for itself. */
static int setup(Game *g, ecs_sched_executor executor) {
    memset(g, 0, sizeof *g);
    /* ==== Threads and the executor ======================================================

       Each world gets a work-stealing thread pool on first use, with thread_count workers,
       the calling thread included (0: one per hardware thread). Schedules run on it by
       default; a world, or a single schedule, can choose. */
    ecs_sched_world *w = ecs_sched_world_create(&(ecs_sched_world_desc){
        .thread_count = 4,        /* 0: one per hardware thread */
        .executor = executor});   /* ECS_SCHED_EXECUTOR_PARALLEL is the default with threads */
    if (!w) return 0;
    g->world = w;
    ecs_sched_schedule_configure(w, "Render", &(ecs_sched_schedule_desc){
        .executor = ECS_SCHED_EXECUTOR_SINGLE_THREADED});   /* this one stays on the caller */

    /* The thread that creates the pool (the first parallel run, or ecs_sched_world_pool(w))
       is worker 0; run the world's schedules from that thread. */
    g->pool = ecs_sched_world_pool(w);
    if (!g->pool) return 0;
    CHECK(ecs_sched_pool_worker_index(g->pool) == 0);

    g->position = ECS_SCHED_COMPONENT(w, Position);
    g->velocity = ECS_SCHED_COMPONENT(w, Velocity);
    g->age = ECS_SCHED_COMPONENT(w, Age);
    g->spark = ECS_SCHED_TAG(w, Spark);
    g->census = ECS_SCHED_COMPONENT(w, Census);
    ecs_sched_resource_insert(w, g->census, NULL);

    static Position start[BODIES];
    for (int i = 0; i < BODIES; i++) start[i] = (Position){(float)(i % 100), (float)(10 + i % 7)};
    const ecs_sched_id ids[] = {g->position, g->velocity, g->age};
    const void *arrays[] = {start, NULL, NULL};   /* velocities and ages start at zero */
    if (ecs_sched_spawn_batch(w, BODIES, 3, ids, arrays, g->bodies) != ECS_SCHED_OK) return 0;

    ecs_sched_id pos = g->position, vel = g->velocity;
    ecs_sched_add_systems(w, "Update", &(ecs_sched_systems_desc){
        .systems = (ecs_sched_system_desc[]){
            {.name = "gravity", .fn = gravity, .queries = {{{ecs_sched_write(vel)}}}},
            {.name = "move", .fn = move_all, .user_data = g,
             .queries = {{{ecs_sched_write(pos), ecs_sched_read(vel)}}}},
            {.name = "land", .fn = land, .user_data = g, .commands = true,
             .queries = {{{ecs_sched_read(pos), ecs_sched_without(g->spark)}}}},
        },
        .count = 3, .chain = true});
    ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
        .name = "age", .fn = age, .queries = {{{ecs_sched_write(g->age)}}}});
    ecs_sched_add_system(w, "Render", &(ecs_sched_system_desc){
        .name = "census", .fn = census, .user_data = g, .writes = {g->census},
        .queries = {{{ecs_sched_read(pos), ecs_sched_without(g->spark)}},
                    {{ecs_sched_read(pos), ecs_sched_read(g->spark)}}}});
    return 1;
}

/* ---- The pool, on its own ---- */

static int squares[100];

static void work(void *arg) {   /* one task: fills its own slot */
    int *slot = arg;
    int i = (int)(slot - squares);
    *slot = i * i;
}

static void fill(int64_t begin, int64_t end, void *arg) {   /* one piece of a range */
    float *values = (float *)arg;
    for (int64_t i = begin; i < end; i++) values[i] = (float)i;
}

/* For the parallel query outside schedules: the largest piece seen, per worker. */
typedef struct { int32_t grain; int32_t largest[MAX_WORKERS]; int64_t rows[MAX_WORKERS];
                 ecs_sched_pool *pool; } Pieces;

static void measure_piece(ecs_sched_iter *it, void *arg) {
    Pieces *pc = arg;
    int32_t worker = ecs_sched_pool_worker_index(pc->pool);
    if (worker < 0 || worker >= MAX_WORKERS) return;
    if (it->count > pc->largest[worker]) pc->largest[worker] = it->count;
    pc->rows[worker] += it->count;
}

static Game parallel_game, single_game;   /* large: kept out of the stack */

int main(void) {
    printf("ecs_sched %s: a tour of threads\n", ECS_SCHED_VERSION_STRING);

    /* The same game in two worlds: one runs Update on the parallel executor, the other on
       the single-threaded one. */
    section("Threads and the executor");
    Game *par = &parallel_game, *one = &single_game;
    if (!setup(par, ECS_SCHED_EXECUTOR_PARALLEL) ||
        !setup(one, ECS_SCHED_EXECUTOR_SINGLE_THREADED)) {
        printf("setup failed\n");
        return 1;
    }
    {
        const char *names[8];
        int32_t n = ecs_sched_schedule_order(par->world, "Update", names, 8);
        printf("Update's plan:");
        for (int32_t i = 0; i < n && i < 8; i++) printf(" %s", names[i]);
        printf("\n");
    }

    /* What runs in parallel, and why it is safe: the parallel executor runs the same plan
       as the single-threaded one. A system starts as soon as the systems before it in the
       graph are done; its conditions are evaluated inline just before (a set's conditions
       once per run, by the first thread that needs them), and a system they skip is done
       without being called. Exclusive systems, apply_deferred and automatic sync points run
       on the calling thread, alone.

       THE WORLD AFTER EVERY RUN IS THE ONE THE SINGLE-THREADED EXECUTOR LEAVES, BYTE FOR
       BYTE. The build makes the plan's order binding wherever running at once could change
       the result:

       - two systems whose access conflicts (a write and a read or write of the same
         component or resource) and that nothing orders run in plan order, even when you
         declared them ambiguous_with each other: that only silences the report;
       - two systems that record commands run in plan order too, because their buffers
         reserve entity handles from the world as they record;
       - an exclusive system or sync point waits for everything before it in plan order, and
         everything after it waits for it;
       - each system records into its own command buffer, and buffers are applied at sync
         points in plan order.

       So systems overlap only when their declared access lets them, and no access check is
       needed while running. Two systems that only read the same data, or write different
       components, do overlap (age runs beside the chain here). A system that touches
       something it did not declare gets an error, as with one thread, but the guarantee only
       covers what is declared. With threads, the allocator and logger hooks may be called
       from several threads at once.

       Five frames, both worlds; the bodies fall, and those below ground become sparks. */
    for (int frame = 1; frame <= 5; frame++) {
        CHECK(ecs_sched_run_schedule(par->world, "Update") == ECS_SCHED_OK);
        CHECK(ecs_sched_run_schedule(par->world, "Render") == ECS_SCHED_OK);
        CHECK(ecs_sched_run_schedule(one->world, "Update") == ECS_SCHED_OK);
        CHECK(ecs_sched_run_schedule(one->world, "Render") == ECS_SCHED_OK);
        const Census *c = ecs_sched_resource_get(par->world, par->census);
        const Census *c1 = ecs_sched_resource_get(one->world, one->census);
        if (c) printf("frame %d: %5d bodies, %5d sparks\n", frame, (int)c->bodies, (int)c->sparks);
        CHECK(c && c1 && c->bodies == c1->bodies && c->sparks == c1->sparks);
    }

    /* The two worlds agree entity for entity, byte for byte. Handles are the same too: the
       sparks were spawned by the same commands in the same order. */
    {
        int same = ecs_sched_entity_count(par->world) == ecs_sched_entity_count(one->world);
        ecs_sched_query *qp = ecs_sched_query_create(par->world, &(ecs_sched_query_desc){{
            ecs_sched_read(par->position), ecs_sched_optional_read(par->age)}});
        ecs_sched_iter it = ecs_sched_query_iter(qp);
        int32_t compared = 0;
        while (ecs_sched_iter_next(&it)) {
            const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
            const Age *a = ECS_SCHED_FIELD(&it, const Age, 1);
            for (int32_t i = 0; i < it.count; i++) {
                const Position *q = ecs_sched_get(one->world, it.entities[i], one->position);
                const Age *qa = ecs_sched_has(one->world, it.entities[i], one->age)
                                    ? ecs_sched_get(one->world, it.entities[i], one->age)
                                    : NULL;
                if (!q || memcmp(q, &p[i], sizeof *q) != 0) same = 0;
                if ((a == NULL) != (qa == NULL) || (a && memcmp(qa, &a[i], sizeof *qa) != 0))
                    same = 0;
                compared++;
            }
        }
        printf("compared %d entities: %s\n", (int)compared,
               same ? "the parallel world is the single-threaded one" : "THEY DIFFER");
        CHECK(same && compared == ecs_sched_entity_count(one->world));
        const Age *a5 = ecs_sched_get(par->world, par->bodies[5], par->age);   /* still up */
        CHECK(a5 && a5->frames == 5);   /* age ran every frame */
    }

    /* ==== Parallel queries ===============================================================

       A system can split one of its queries across the pool with ecs_sched_ctx_par_iter(ctx,
       index, grain, fn, arg). The callback gets a piece of at most grain rows of one table
       (0: ECS_SCHED_DEFAULT_GRAIN, 4096, smaller when that leaves a worker fewer than about
       eight pieces); pieces run at once, so write only the rows of your piece (move_piece
       above).

       It stays within the system's declared access: the query must be one of the system's
       (ECS_SCHED_ERR_ACCESS otherwise). Inside a piece, touch only the piece's rows and what
       you fetched before the call: the system's command buffer and context belong to the
       system's own thread, so record commands before or after ecs_sched_ctx_par_iter, not
       from the pieces. ecs_sched_pool_worker_index numbers the calling thread, to index
       per-thread scratch memory, as move_piece does with rows_by_worker. */
    section("Parallel queries");
    {
        int64_t rows = 0;
        for (int i = 0; i < MAX_WORKERS; i++) rows += par->rows_by_worker[i];
        int64_t expected = 0;   /* move saw every body still falling, each frame */
        for (int32_t i = 0; i < MAX_WORKERS; i++) expected += one->rows_by_worker[i];
        printf("move's pieces covered %lld rows over five frames\n", (long long)rows);
        CHECK(rows == expected && rows > BODIES);
    }

    /* Outside schedules, ecs_sched_query_par_iter(query, ecs_sched_world_pool(w), grain, fn,
       arg) does the same; here with pieces of at most 1000 rows. */
    {
        static Pieces pc;
        pc.grain = 1000;
        pc.pool = ecs_sched_world_pool(par->world);
        ecs_sched_query *q = ecs_sched_query_create(par->world, &(ecs_sched_query_desc){{
            ecs_sched_read(par->position)}});
        ecs_sched_query_par_iter(q, pc.pool, pc.grain, measure_piece, &pc);
        int64_t rows = 0;
        int32_t largest = 0;
        for (int i = 0; i < MAX_WORKERS; i++) {
            rows += pc.rows[i];
            if (pc.largest[i] > largest) largest = pc.largest[i];
        }
        printf("query_par_iter: %lld rows, no piece larger than %d\n", (long long)rows,
               (int)pc.grain);
        CHECK(rows == ecs_sched_query_count(q) && largest <= pc.grain && largest > 0);
    }
    CHECK(ecs_sched_world_check(par->world) == ECS_SCHED_OK);
    ecs_sched_world_destroy(par->world);   /* and its pool */
    ecs_sched_world_destroy(one->world);

    /* ==== The pool =======================================================================

       The pool is usable on its own. Each worker keeps its tasks in its own Chase-Lev deque
       (a bounded ring of queue_capacity tasks, default 4096; submitting to a full one runs
       the task at once); an idle worker steals the oldest task of a random other worker,
       spins briefly, then sleeps until work arrives. On Linux a sleeper pays for the memory
       fence that keeps wake-ups from being lost (a membarrier system call), so that
       submitting and finishing a task cost no fence at all; where membarrier is unavailable
       (or ECS_SCHED_NO_MEMBARRIER is defined) both sides use an ordinary fence.

       Submit from the thread that created the pool or from inside a task (elsewhere the task
       runs at once). Submitting allocates nothing; a group is made once and reused. */
    section("The pool");
    ecs_sched_pool *pool = ecs_sched_pool_create(&(ecs_sched_pool_desc){.thread_count = 2});
    CHECK(pool != NULL);
    if (!pool) return 1;
    CHECK(ecs_sched_pool_thread_count(pool) >= 1);   /* 2 with threads, 1 without */
    ecs_sched_task_group *group = ecs_sched_pool_group_create(pool);
    for (int i = 0; i < 100; i++) ecs_sched_pool_submit(pool, group, work, &squares[i]);
    ecs_sched_pool_wait(pool, group);                   /* runs tasks too while it waits */
    {
        long sum = 0;
        for (int i = 0; i < 100; i++) sum += squares[i];
        printf("100 tasks: the sum of their squares is %ld\n", sum);
        CHECK(sum == 328350);
    }
    static float values[10000];
    ecs_sched_pool_parallel_for(pool, 0, 10000, 1000, fill, values);   /* pieces of <= 1000 */
    printf("parallel_for: values[4321] = %.0f\n", values[4321]);
    CHECK(values[0] == 0.0f && values[4321] == 4321.0f && values[9999] == 9999.0f);
    ecs_sched_pool_group_destroy(pool, group);
    ecs_sched_pool_destroy(pool);                       /* runs what is pending, then stops */

    printf("\ntour_threads: %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
