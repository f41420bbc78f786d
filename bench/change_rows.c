/* Change detection rows: iterating a tracked component for writing (every row marked, or the
   rows the loop marks), and a changed query that visits few of many entities. Included by
   bench.c after the iteration rows, whose helpers it uses. */

/* ---- iter_1m_tracked: the iter_1m loop, Position tracked ---- */

static void run_iter_1m_tracked(bench_row *row) {
    run_iteration_of(row, 1000000, 1, 1, 1e6);
    appendf(row, "; Position tracked: each frame marks the rows it hands out for writing (the "
                 "whole table at once)");
}

/* ---- iter_1m_tracked_manual: the same, marking each row with ecs_sched_iter_mark_changed ---- */

#define MANUAL_COUNT 1000000

static int manual_frames(bench_row *row, void *state, int32_t reps) {
    const ecs_sched_query *query = (const ecs_sched_query *)state;
    int32_t r;
    for (r = 0; r < reps; r++) {
        ecs_sched_iter it = ecs_sched_query_iter(query);
        while (ecs_sched_iter_next(&it)) {
            Position *p = ECS_SCHED_FIELD(&it, Position, 0);
            const Velocity *v = ECS_SCHED_FIELD(&it, const Velocity, 1);
            int32_t i;
            for (i = 0; i < it.count; i++) {
                p[i].x += v[i].x;
                p[i].y += v[i].y;
                if (ecs_sched_iter_mark_changed(&it, 0, i) != ECS_SCHED_OK) {
                    fail(row, "ecs_sched_iter_mark_changed", NULL);
                    return 0;
                }
            }
        }
        BENCH_CLOBBER(&it);
    }
    return 1;
}

typedef struct raw_moves {
    Position *p;
    const Velocity *v;
} raw_moves;

static int raw_moves_frames(bench_row *row, void *state, int32_t reps) {
    const raw_moves *m = (const raw_moves *)state;
    (void)row;
    raw_frames(m->p, m->v, MANUAL_COUNT, reps);
    return 1;
}

static void run_iter_1m_tracked_manual(bench_row *row) {
    unsigned char *block = (unsigned char *)xmalloc((size_t)MANUAL_COUNT *
                                                    (sizeof(Position) + sizeof(Velocity)));
    raw_moves raw;
    ecs_sched_world *world;
    ecs_sched_query *query = NULL;
    ecs_sched_query_desc desc;
    ecs_sched_id pos, vel, ids[2];
    const void *arrays[2];
    bench_sampling s;
    bench_medians m;
    raw.p = (Position *)block;
    raw.v = (const Velocity *)(block + (size_t)MANUAL_COUNT * sizeof(Position));
    fill_values(raw.p, (Velocity *)(uintptr_t)raw.v, MANUAL_COUNT);
    world = make_world_tracking(NULL, 1, &pos, &vel);
    if (!world) {
        fail(row, "world creation", NULL);
        goto done;
    }
    ids[0] = pos;
    ids[1] = vel;
    arrays[0] = raw.p;
    arrays[1] = raw.v;
    memset(&desc, 0, sizeof desc);
    desc.terms[0] = ecs_sched_write_manual(pos);
    desc.terms[1] = ecs_sched_read(vel);
    if (ecs_sched_spawn_batch(world, MANUAL_COUNT, 2, ids, arrays, NULL) != ECS_SCHED_OK ||
        !(query = ecs_sched_query_create(world, &desc))) {
        fail(row, "setup", world);
        goto done;
    }
    s = sampling(1, 1e6);
    s.baseline = looped(raw_moves_frames, &raw);
    s.measured = looped(manual_frames, query);
    if (sample_row(row, &s, &m)) {
        appendf(row, "a write_manual term; the loop moves every row and marks each with "
                     "ecs_sched_iter_mark_changed (a call per row): what marking row by row "
                     "costs, for comparison with iter_1m_tracked");
    }
done:
    if (world) ecs_sched_world_destroy(world);
    free(block);
}

/* ---- changed_query_sparse: 1M tracked entities, 1 % changed per frame ---- */

#define SPARSE_COUNT 1000000
#define SPARSE_STRIPE 100   /* one change per stripe of this many rows: 1 % */

typedef struct sparse_frames {
    ecs_sched_world *world;
    ecs_sched_query *changed, *all, *writer;   /* writer: write_manual(Position) */
    ecs_sched_entity *entities;
    ecs_sched_id pos;
    uint32_t seed, gather_seed;
    Position *plain;           /* the gather figure: a plain array, */
    int32_t *picked;           /* and the indices changed in it */
} sparse_frames;

static uint32_t next_random(uint32_t *seed) {
    *seed = *seed * 1664525u + 1013904223u;
    return *seed >> 8;
}

/* Changes one entity in each stripe, at a random place in it, as a system that moves a few
   of many would: through a write_manual query, marking the rows it writes (untimed). */
static int mark_one_percent(bench_row *row, sparse_frames *f) {
    ecs_sched_iter it = ecs_sched_query_iter(f->writer);
    int32_t stripe;
    if (!ecs_sched_iter_next(&it) || it.count != SPARSE_COUNT) {
        fail(row, "the writer's query", f->world);
        return 0;
    }
    for (stripe = 0; stripe < SPARSE_COUNT / SPARSE_STRIPE; stripe++) {
        int32_t i = stripe * SPARSE_STRIPE + (int32_t)(next_random(&f->seed) % SPARSE_STRIPE);
        ECS_SCHED_FIELD(&it, Position, 0)[i].x += 1.0f;
        if (ecs_sched_iter_mark_changed(&it, 0, i) != ECS_SCHED_OK) {
            fail(row, "ecs_sched_iter_mark_changed", f->world);
            return 0;
        }
    }
    while (ecs_sched_iter_next(&it)) {}
    return 1;
}

/* The same through ecs_sched_get_mut, entity by entity (untimed). */
static int change_one_percent(bench_row *row, sparse_frames *f) {
    int32_t stripe;
    for (stripe = 0; stripe < SPARSE_COUNT / SPARSE_STRIPE; stripe++) {
        int32_t i = stripe * SPARSE_STRIPE + (int32_t)(next_random(&f->seed) % SPARSE_STRIPE);
        Position *p = (Position *)ecs_sched_get_mut(f->world, f->entities[i], f->pos);
        if (!p) {
            fail(row, "ecs_sched_get_mut", f->world);
            return 0;
        }
        p->x += 1.0f;
    }
    return 1;
}

/* Sums x over what a query hands out; the nanoseconds of the iteration, -1 on failure. */
static double time_sum(bench_row *row, const ecs_sched_query *query, int32_t expected) {
    ecs_sched_iter it;
    double t0 = now_ns(), t;
    float sum = 0.0f;
    int32_t rows = 0;
    it = ecs_sched_query_iter(query);
    while (ecs_sched_iter_next(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
        int32_t i;
        for (i = 0; i < it.count; i++) sum += p[i].x;
        rows += it.count;
    }
    t = now_ns() - t0;
    bench_sink = sum;
    if (rows != expected) {
        fail(row, "the query handed out a wrong number of rows", NULL);
        return -1.0;
    }
    return t;
}

static double sparse_changed_side(bench_row *row, void *state) {
    sparse_frames *f = (sparse_frames *)state;
    if (!mark_one_percent(row, f)) return -1.0;
    return time_sum(row, f->changed, SPARSE_COUNT / SPARSE_STRIPE);
}

static double sparse_get_mut_side(bench_row *row, void *state) {
    sparse_frames *f = (sparse_frames *)state;
    if (!change_one_percent(row, f)) return -1.0;
    return time_sum(row, f->changed, SPARSE_COUNT / SPARSE_STRIPE);
}

/* The floor of visiting the changed few: their values by index from a plain array, after
   the same kind of untimed writes. */
static double sparse_gather_side(bench_row *row, void *state) {
    sparse_frames *f = (sparse_frames *)state;
    int32_t stripe, n = SPARSE_COUNT / SPARSE_STRIPE;
    float sum = 0.0f;
    double t0;
    (void)row;
    for (stripe = 0; stripe < n; stripe++) {
        int32_t i = stripe * SPARSE_STRIPE + (int32_t)(next_random(&f->gather_seed) % SPARSE_STRIPE);
        f->picked[stripe] = i;
        f->plain[i].x += 1.0f;
    }
    t0 = now_ns();
    for (stripe = 0; stripe < n; stripe++) sum += f->plain[f->picked[stripe]].x;
    bench_sink = sum;
    return now_ns() - t0;
}

static double sparse_all_side(bench_row *row, void *state) {
    const sparse_frames *f = (const sparse_frames *)state;
    return time_sum(row, f->all, SPARSE_COUNT);
}

static void run_changed_query_sparse(bench_row *row) {
    Position *pv = (Position *)xmalloc((size_t)SPARSE_COUNT * sizeof *pv);
    Velocity *vv = (Velocity *)xmalloc((size_t)SPARSE_COUNT * sizeof *vv);
    sparse_frames f;
    ecs_sched_query_desc desc;
    ecs_sched_id vel, ids[2];
    const void *arrays[2];
    bench_sampling s;
    bench_medians m;
    memset(&f, 0, sizeof f);
    f.seed = 12345u;
    f.entities = (ecs_sched_entity *)xmalloc((size_t)SPARSE_COUNT * sizeof *f.entities);
    f.gather_seed = 777u;
    f.plain = (Position *)xmalloc((size_t)SPARSE_COUNT * sizeof *f.plain);
    f.picked = (int32_t *)xmalloc((size_t)(SPARSE_COUNT / SPARSE_STRIPE) * sizeof *f.picked);
    fill_values(pv, vv, SPARSE_COUNT);
    memcpy(f.plain, pv, (size_t)SPARSE_COUNT * sizeof *f.plain);
    f.world = make_world_tracking(NULL, 1, &f.pos, &vel);
    if (!f.world) {
        fail(row, "world creation", NULL);
        goto done;
    }
    ids[0] = f.pos;
    ids[1] = vel;
    arrays[0] = pv;
    arrays[1] = vv;
    memset(&desc, 0, sizeof desc);
    desc.terms[0] = ecs_sched_changed(f.pos);
    if (ecs_sched_spawn_batch(f.world, SPARSE_COUNT, 2, ids, arrays, f.entities) != ECS_SCHED_OK ||
        !(f.changed = ecs_sched_query_create(f.world, &desc))) {
        fail(row, "setup", f.world);
        goto done;
    }
    desc.terms[0] = ecs_sched_write_manual(f.pos);
    if (!(f.writer = ecs_sched_query_create(f.world, &desc))) {
        fail(row, "setup", f.world);
        goto done;
    }
    desc.terms[0] = ecs_sched_read(f.pos);
    if (!(f.all = ecs_sched_query_create(f.world, &desc)) ||
        time_sum(row, f.changed, SPARSE_COUNT) < 0) {   /* the first look sees every spawn */
        fail(row, "setup", f.world);
        goto done;
    }
    s = sampling(20, (double)(SPARSE_COUNT / SPARSE_STRIPE));
    s.baseline = timed(sparse_all_side, &f);
    s.measured = timed(sparse_changed_side, &f);
    s.extras[0] = timed(sparse_gather_side, &f);
    s.extras[1] = timed(sparse_get_mut_side, &f);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d entities, one in each %d changed between frames (untimed), at a random "
                     "place, by a write_manual query that marks the rows it writes; measured: a "
                     "changed(Position) query summing x; baseline: a plain query over all of them "
                     "summing x, per changed entity. The same with the changes made by "
                     "ecs_sched_get_mut, entity by entity (which leaves less of what the reader "
                     "needs in the caches): %.2f ns; the floor of visiting only the changed ones, "
                     "their x read by index from a plain array after the same writes: %.2f ns",
                SPARSE_COUNT, SPARSE_STRIPE, m.extras[1], m.extras[0]);
    }
done:
    if (f.world) ecs_sched_world_destroy(f.world);
    free(f.entities);
    free(f.plain);
    free(f.picked);
    free(pv);
    free(vv);
}
