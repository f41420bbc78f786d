/* Sparse storage: toggling a sparse tag, and a query filtered by one. Included by bench.c
   after the spawn rows, whose helpers it uses. */

/* ---- add_remove_sparse ---- */

typedef struct toggle_job {
    ecs_sched_world *world;
    ecs_sched_id pos, vel, tag;
    ecs_sched_entity *ents;
} toggle_job;

/* A world with Position, Velocity and the tag Marked, stored as asked; NULL (the row failed)
   when it cannot be made. */
static ecs_sched_world *marked_world(bench_row *row, ecs_sched_storage storage, ecs_sched_id *pos,
                                     ecs_sched_id *vel, ecs_sched_id *tag) {
    ecs_sched_component_desc desc;
    ecs_sched_world *world = make_world(NULL, pos, vel);
    if (!world) {
        fail(row, "world creation", NULL);
        return NULL;
    }
    memset(&desc, 0, sizeof desc);
    desc.name = "Marked";
    desc.storage = storage;
    *tag = ecs_sched_component_register(world, &desc);
    if (!*tag) fail(row, "registering Marked", world);
    return world;
}

/* A world of SPAWN_COUNT entities with Position and Velocity, and the tag stored as asked. */
static int toggle_world(bench_row *row, toggle_job *job, const Position *pv, const Velocity *vv,
                        ecs_sched_storage storage) {
    ecs_sched_id ids[2];
    const void *arrays[2];
    job->world = marked_world(row, storage, &job->pos, &job->vel, &job->tag);
    if (!job->world || !job->tag) return 0;
    ids[0] = job->pos;
    ids[1] = job->vel;
    arrays[0] = pv;
    arrays[1] = vv;
    if (ecs_sched_spawn_batch(job->world, SPAWN_COUNT, 2, ids, arrays, job->ents) != ECS_SCHED_OK) {
        fail(row, "setup", job->world);
        return 0;
    }
    return 1;
}

/* The tag added to each entity, then removed from each; checked untimed. */
static double toggle_side(bench_row *row, void *state) {
    const toggle_job *job = (const toggle_job *)state;
    ecs_sched_world *world = job->world;
    double t0, ns;
    int32_t i;
    t0 = now_ns();
    for (i = 0; i < SPAWN_COUNT; i++) {
        if (ecs_sched_insert(world, job->ents[i], job->tag, NULL) != ECS_SCHED_OK) {
            fail(row, "ecs_sched_insert", world);
            return -1.0;
        }
    }
    ns = now_ns() - t0;
    if (!ecs_sched_has(world, job->ents[SPAWN_COUNT / 3], job->tag)) {
        fail(row, "added tag not found", world);
        return -1.0;
    }
    t0 = now_ns();
    for (i = 0; i < SPAWN_COUNT; i++) {
        if (ecs_sched_remove(world, job->ents[i], job->tag) != ECS_SCHED_OK) {
            fail(row, "ecs_sched_remove", world);
            return -1.0;
        }
    }
    ns += now_ns() - t0;
    if (ecs_sched_has(world, job->ents[SPAWN_COUNT / 3], job->tag) ||
        !check_value(world, job->ents[SPAWN_COUNT / 3], job->pos, job->vel, SPAWN_COUNT / 3)) {
        fail(row, "removal not seen", world);
        return -1.0;
    }
    return ns;
}

static void run_add_remove_sparse(bench_row *row) {
    Position *pv = (Position *)xmalloc(SPAWN_COUNT * sizeof *pv);
    Velocity *vv = (Velocity *)xmalloc(SPAWN_COUNT * sizeof *vv);
    toggle_job table, sparse;
    bench_sampling s = sampling(1, 2.0 * SPAWN_COUNT);   /* two operations per entity */
    bench_medians m;
    fill_values(pv, vv, SPAWN_COUNT);
    memset(&table, 0, sizeof table);
    memset(&sparse, 0, sizeof sparse);
    table.ents = (ecs_sched_entity *)xmalloc(SPAWN_COUNT * sizeof *table.ents);
    sparse.ents = (ecs_sched_entity *)xmalloc(SPAWN_COUNT * sizeof *sparse.ents);
    if (toggle_world(row, &table, pv, vv, ECS_SCHED_STORAGE_TABLE) &&
        toggle_world(row, &sparse, pv, vv, ECS_SCHED_STORAGE_SPARSE)) {
        s.baseline = timed(toggle_side, &table);
        s.measured = timed(toggle_side, &sparse);
        if (sample_row(row, &s, &m)) {
            appendf(row, "%d entities with Position and Velocity: a tag inserted on each, then "
                         "removed from each; sparse tag against the same tag kept in tables "
                         "(%.1f ns/op, each op a move of the entity to another table)",
                    SPAWN_COUNT, m.baseline);
        }
    }
    if (table.world) ecs_sched_world_destroy(table.world);
    if (sparse.world) ecs_sched_world_destroy(sparse.world);
    free(pv); free(vv); free(table.ents); free(sparse.ents);
}

/* ---- iter_sparse_filter ---- */

#define FILTER_COUNT 1000000
#define FILTER_EVERY 10              /* one entity in ten has the tag */
#define FILTER_FRAMES 10

typedef struct filter_job {
    ecs_sched_world *world;
    ecs_sched_id pos, vel, tag;
    ecs_sched_query *query;
    int by_rows;                     /* iterate with ecs_sched_iter_next_rows */
    int clustered;                   /* the tagged entities are the first tenth */
    /* the raw floor: the tagged rows' indices into two plain arrays */
    Position *raw_pos;
    Velocity *raw_vel;
    int32_t *raw_rows;
} filter_job;

static int filter_tagged(const filter_job *job, int32_t i) {
    return job->clustered ? i < FILTER_COUNT / FILTER_EVERY : i % FILTER_EVERY == 0;
}

static int filter_world(bench_row *row, filter_job *job, ecs_sched_storage storage) {
    ecs_sched_query_desc q;
    ecs_sched_entity *ents = (ecs_sched_entity *)xmalloc(FILTER_COUNT * sizeof *ents);
    Position *pv = (Position *)xmalloc(FILTER_COUNT * sizeof *pv);
    Velocity *vv = (Velocity *)xmalloc(FILTER_COUNT * sizeof *vv);
    const void *arrays[2];
    ecs_sched_id ids[2];
    int32_t i;
    int ok = 0;
    for (i = 0; i < FILTER_COUNT; i++) {
        pv[i].x = pv[i].y = 0;
        vv[i].x = (float)(i % 3);
        vv[i].y = 1;
    }
    arrays[0] = pv;
    arrays[1] = vv;
    job->world = marked_world(row, storage, &job->pos, &job->vel, &job->tag);
    if (!job->world || !job->tag) goto done;
    ids[0] = job->pos;
    ids[1] = job->vel;
    if (ecs_sched_spawn_batch(job->world, FILTER_COUNT, 2, ids, arrays, ents) != ECS_SCHED_OK) {
        fail(row, "setup", job->world);
        goto done;
    }
    for (i = 0; i < FILTER_COUNT; i++) {
        if (filter_tagged(job, i) && ecs_sched_insert(job->world, ents[i], job->tag, NULL) != ECS_SCHED_OK) {
            fail(row, "setup", job->world);
            goto done;
        }
    }
    memset(&q, 0, sizeof q);
    q.terms[0] = ecs_sched_write(job->pos);
    q.terms[1] = ecs_sched_read(job->vel);
    q.terms[2] = ecs_sched_read(job->tag);
    job->query = ecs_sched_query_create(job->world, &q);
    if (!job->query || ecs_sched_query_count(job->query) != FILTER_COUNT / FILTER_EVERY) {
        fail(row, "the query's count", job->world);
        goto done;
    }
    ok = 1;
done:
    free(ents); free(pv); free(vv);
    return ok;
}

static BENCH_KERNEL void filter_frame(filter_job *job) {
    ecs_sched_iter it = ecs_sched_query_iter(job->query);
    int32_t i;
    if (job->by_rows) {
        while (ecs_sched_iter_next_rows(&it)) {
            Position *p = ECS_SCHED_FIELD(&it, Position, 0);
            const Velocity *v = ECS_SCHED_FIELD(&it, const Velocity, 1);
            for (i = 0; i < it.count; i++) {
                int32_t r = it.rows[i];
                p[r].x += v[r].x;
                p[r].y += v[r].y;
            }
        }
        return;
    }
    while (ecs_sched_iter_next(&it)) {
        Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        const Velocity *v = ECS_SCHED_FIELD(&it, const Velocity, 1);
        for (i = 0; i < it.count; i++) {
            p[i].x += v[i].x;
            p[i].y += v[i].y;
        }
    }
}

static int filter_frames(bench_row *row, void *state, int32_t reps) {
    int32_t r;
    (void)row;
    for (r = 0; r < reps; r++) filter_frame((filter_job *)state);
    return 1;
}

/* The floor of a scattered filter: the same additions through a list of row indices over two
   plain arrays of FILTER_COUNT values. */
static BENCH_KERNEL void filter_raw_frame(filter_job *job) {
    Position *p = job->raw_pos;
    const Velocity *v = job->raw_vel;
    const int32_t *rows = job->raw_rows;
    int32_t i;
    for (i = 0; i < FILTER_COUNT / FILTER_EVERY; i++) {
        int32_t r = rows[i];
        p[r].x += v[r].x;
        p[r].y += v[r].y;
    }
    BENCH_CLOBBER(p);
}

static int filter_raw_frames(bench_row *row, void *state, int32_t reps) {
    int32_t r;
    (void)row;
    for (r = 0; r < reps; r++) filter_raw_frame((filter_job *)state);
    return 1;
}

/* Every tagged entity moved by FILTER_FRAMES * samples frames, the others not at all. */
static int filter_checked(const filter_job *job) {
    ecs_sched_query_desc q;
    ecs_sched_query *all;
    ecs_sched_iter it;
    int32_t i, wrong = 0, seen = 0;
    float first = -1;
    memset(&q, 0, sizeof q);
    q.terms[0] = ecs_sched_read(job->pos);
    q.terms[1] = ecs_sched_optional_read(job->tag);
    all = ecs_sched_query_create(job->world, &q);
    if (!all) return 0;
    it = ecs_sched_query_iter(all);
    while (ecs_sched_iter_next(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
        for (i = 0; i < it.count; i++) {
            int tagged = ecs_sched_has(job->world, it.entities[i], job->tag);
            if (!tagged) wrong += p[i].y != 0;
            else if (first < 0) first = p[i].y;
            else wrong += p[i].y != first;
            seen++;
        }
    }
    ecs_sched_query_destroy(all);
    return wrong == 0 && seen == FILTER_COUNT && first > 0;
}

static void run_iter_sparse_filter(bench_row *row) {
    filter_job table, sparse, clustered, raw;
    bench_sampling s = sampling(FILTER_FRAMES, FILTER_COUNT / FILTER_EVERY);
    bench_medians m;
    int32_t i;
    memset(&table, 0, sizeof table);
    memset(&sparse, 0, sizeof sparse);
    memset(&clustered, 0, sizeof clustered);
    memset(&raw, 0, sizeof raw);
    sparse.by_rows = 1;
    clustered.clustered = 1;
    raw.raw_pos = (Position *)xmalloc(FILTER_COUNT * sizeof *raw.raw_pos);
    raw.raw_vel = (Velocity *)xmalloc(FILTER_COUNT * sizeof *raw.raw_vel);
    raw.raw_rows = (int32_t *)xmalloc(FILTER_COUNT / FILTER_EVERY * sizeof *raw.raw_rows);
    for (i = 0; i < FILTER_COUNT; i++) {
        raw.raw_pos[i].x = raw.raw_pos[i].y = 0;
        raw.raw_vel[i].x = (float)(i % 3);
        raw.raw_vel[i].y = 1;
    }
    for (i = 0; i < FILTER_COUNT / FILTER_EVERY; i++) raw.raw_rows[i] = i * FILTER_EVERY;
    if (filter_world(row, &table, ECS_SCHED_STORAGE_TABLE) &&
        filter_world(row, &sparse, ECS_SCHED_STORAGE_SPARSE) &&
        filter_world(row, &clustered, ECS_SCHED_STORAGE_SPARSE)) {
        s.baseline = looped(filter_frames, &table);
        s.measured = looped(filter_frames, &sparse);
        s.extras[0] = looped(filter_frames, &clustered);
        s.extras[1] = looped(filter_raw_frames, &raw);
        if (sample_row(row, &s, &m)) {
            int ok = filter_checked(&table) && filter_checked(&sparse) && filter_checked(&clustered);
            appendf(row, "%d entities with Position and Velocity, one in %d also Marked; a query "
                         "(write Position, read Velocity, read Marked) doing p += v, %d frames per "
                         "sample. Marked sparse on every %dth entity, read with "
                         "ecs_sched_iter_next_rows, against Marked in tables (the tagged entities "
                         "in a table of their own) read with ecs_sched_iter_next. The same "
                         "additions by hand through a list of the tagged rows over plain arrays: "
                         "%.3f ns (ratio %.2f, the floor of any scattered filter); Marked sparse on "
                         "the first tenth (one run), ecs_sched_iter_next: %.3f ns (ratio %.2f); "
                         "values %s",
                    FILTER_COUNT, FILTER_EVERY, FILTER_FRAMES, FILTER_EVERY, m.extras[1],
                    m.extras[1] / m.baseline, m.extras[0], m.extras[0] / m.baseline,
                    ok ? "checked" : "WRONG: figure withheld");
            if (!ok) row->measured = 0;
        }
    }
    if (table.world) ecs_sched_world_destroy(table.world);
    if (sparse.world) ecs_sched_world_destroy(sparse.world);
    if (clustered.world) ecs_sched_world_destroy(clustered.world);
    free(raw.raw_pos); free(raw.raw_vel); free(raw.raw_rows);
}
