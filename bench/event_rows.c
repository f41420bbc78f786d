/* The world's events: iterating a tracked component for writing (every row marked, or the
   rows the loop marks), a changed query that visits few of many entities, an insert that an
   observer hears of, and messages sent by one system and read by two. Included by bench.c
   after the iteration and spawning rows, whose helpers it uses. */

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

static float sum_runs(ecs_sched_iter *it, int32_t *rows) {
    float sum = 0.0f;
    while (ecs_sched_iter_next(it)) {
        const Position *p = ECS_SCHED_FIELD(it, const Position, 0);
        int32_t i;
        for (i = 0; i < it->count; i++) sum += p[i].x;
        *rows += it->count;
    }
    return sum;
}

static float sum_by_index(ecs_sched_iter *it, int32_t *rows) {
    float sum = 0.0f;
    while (ecs_sched_iter_next_rows(it)) {
        const Position *p = ECS_SCHED_FIELD(it, const Position, 0);
        int32_t i;
        for (i = 0; i < it->count; i++) sum += p[it->rows[i]].x;
        *rows += it->count;
    }
    return sum;
}

/* Sums x over what a query hands out, run by run or by index; the nanoseconds of the
   iteration, -1 on failure. */
static double time_sum_as(bench_row *row, const ecs_sched_query *query, int32_t expected,
                          float (*sum_fn)(ecs_sched_iter *, int32_t *)) {
    ecs_sched_iter it;
    double t0 = now_ns(), t;
    int32_t rows = 0;
    it = ecs_sched_query_iter(query);
    bench_sink = sum_fn(&it, &rows);
    t = now_ns() - t0;
    if (rows != expected) {
        fail(row, "the query handed out a wrong number of rows", NULL);
        return -1.0;
    }
    return t;
}

static double time_sum(bench_row *row, const ecs_sched_query *query, int32_t expected) {
    return time_sum_as(row, query, expected, sum_runs);
}

static double time_sum_rows(bench_row *row, const ecs_sched_query *query, int32_t expected) {
    return time_sum_as(row, query, expected, sum_by_index);
}

static double sparse_changed_side(bench_row *row, void *state) {
    sparse_frames *f = (sparse_frames *)state;
    if (!mark_one_percent(row, f)) return -1.0;
    return time_sum_rows(row, f->changed, SPARSE_COUNT / SPARSE_STRIPE);
}

static double sparse_runs_side(bench_row *row, void *state) {
    sparse_frames *f = (sparse_frames *)state;
    if (!mark_one_percent(row, f)) return -1.0;
    return time_sum(row, f->changed, SPARSE_COUNT / SPARSE_STRIPE);
}

static double sparse_get_mut_side(bench_row *row, void *state) {
    sparse_frames *f = (sparse_frames *)state;
    if (!change_one_percent(row, f)) return -1.0;
    return time_sum_rows(row, f->changed, SPARSE_COUNT / SPARSE_STRIPE);
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
    s.extras[2] = timed(sparse_runs_side, &f);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d entities, one in each %d changed between frames (untimed), at a random "
                     "place, by a write_manual query that marks the rows it writes; measured: a "
                     "changed(Position) query read by index (ecs_sched_iter_next_rows) summing x; "
                     "baseline: a plain query over all of them summing x, per changed entity. "
                     "The same query read run by run (ecs_sched_iter_next, one call per changed "
                     "row here): %.2f ns; by index with the changes made by ecs_sched_get_mut, "
                     "entity by entity (which leaves less of what the reader needs in the "
                     "caches): %.2f ns; the floor of visiting only the changed ones, their x read "
                     "by index from a plain array after the same writes: %.2f ns",
                SPARSE_COUNT, SPARSE_STRIPE, m.extras[2], m.extras[1], m.extras[0]);
    }
done:
    if (f.world) ecs_sched_world_destroy(f.world);
    free(f.entities);
    free(f.plain);
    free(f.picked);
    free(pv);
    free(vv);
}

/* ---- observer_insert: an insert with one observer of it ---- */

typedef struct observed_job {
    ecs_sched_world *world;
    ecs_sched_entity *ents;
    ecs_sched_id mass;
} observed_job;

static int64_t g_observed;

static void count_insert(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *trigger) {
    (void)ctx;
    g_observed += (int64_t)ECS_SCHED_ENTITY_INDEX(trigger->entity);
}

/* Inserts Mass on every entity (timed), then removes it again (untimed). */
static double insert_mass_side(bench_row *row, void *state) {
    const observed_job *job = (const observed_job *)state;
    double t0, ns;
    int32_t i;
    t0 = now_ns();
    for (i = 0; i < SPAWN_COUNT; i++) {
        Mass m;
        m.value = (float)i;
        if (ecs_sched_insert(job->world, job->ents[i], job->mass, &m) != ECS_SCHED_OK) {
            fail(row, "ecs_sched_insert", job->world);
            return -1.0;
        }
    }
    ns = now_ns() - t0;
    for (i = 0; i < SPAWN_COUNT; i++) {
        if (ecs_sched_remove(job->world, job->ents[i], job->mass) != ECS_SCHED_OK) {
            fail(row, "ecs_sched_remove", job->world);
            return -1.0;
        }
    }
    return ns;
}

static int observed_job_make(bench_row *row, observed_job *job, const Position *pv,
                             const Velocity *vv, int observed) {
    ecs_sched_id pos, vel, ids[2];
    const void *arrays[2];
    job->ents = (ecs_sched_entity *)xmalloc((size_t)SPAWN_COUNT * sizeof *job->ents);
    job->world = make_world(NULL, &pos, &vel);
    if (!job->world) {
        fail(row, "world creation", NULL);
        return 0;
    }
    job->mass = ECS_SCHED_COMPONENT(job->world, Mass);
    ids[0] = pos;
    ids[1] = vel;
    arrays[0] = pv;
    arrays[1] = vv;
    if (!job->mass || ecs_sched_spawn_batch(job->world, SPAWN_COUNT, 2, ids, arrays, job->ents) != ECS_SCHED_OK) {
        fail(row, "setup", job->world);
        return 0;
    }
    if (observed) {
        ecs_sched_observer_desc d;
        memset(&d, 0, sizeof d);
        d.name = "count_insert";
        d.event = ECS_SCHED_ON_INSERT;
        d.component = job->mass;
        d.fn = count_insert;
        if (!ecs_sched_observer_add(job->world, &d)) {
            fail(row, "ecs_sched_observer_add", job->world);
            return 0;
        }
    }
    return 1;
}

static void run_observer_insert(bench_row *row) {
    Position *pv = (Position *)xmalloc((size_t)SPAWN_COUNT * sizeof *pv);
    Velocity *vv = (Velocity *)xmalloc((size_t)SPAWN_COUNT * sizeof *vv);
    observed_job plain, observed;
    bench_sampling s = sampling(1, SPAWN_COUNT);
    bench_medians m;
    memset(&plain, 0, sizeof plain);
    memset(&observed, 0, sizeof observed);
    fill_values(pv, vv, SPAWN_COUNT);
    if (!observed_job_make(row, &plain, pv, vv, 0) || !observed_job_make(row, &observed, pv, vv, 1)) {
        goto done;
    }
    g_observed = 0;
    s.baseline = timed(insert_mass_side, &plain);
    s.measured = timed(insert_mass_side, &observed);
    if (sample_row(row, &s, &m)) {
        int64_t expected = (int64_t)(WARMUP + REPS) * ((int64_t)SPAWN_COUNT * (SPAWN_COUNT + 1) / 2);
        appendf(row, "%d entities: ecs_sched_insert of Mass on each (an archetype move), in a "
                     "world with one ON_INSERT observer of Mass (which sums the entities' "
                     "indices) and in one without; ns per insert; the observer heard %s",
                SPAWN_COUNT, g_observed == expected ? "every insert" : "a WRONG count");
        if (g_observed != expected) row->measured = 0;
    }
done:
    if (plain.world) ecs_sched_world_destroy(plain.world);
    if (observed.world) ecs_sched_world_destroy(observed.world);
    free(plain.ents);
    free(observed.ents);
    free(pv);
    free(vv);
}

/* ---- messages_send_read: 1M messages sent by one system, read by two ---- */

#define MESSAGE_COUNT 1000000

typedef struct Hit16 {
    int32_t target;
    int32_t damage;
    float x, y;
} Hit16;

static ecs_sched_id g_hit16;
static double g_hit_sum;

static void send_million(ecs_sched_system_ctx *ctx) {
    int32_t i;
    for (i = 0; i < MESSAGE_COUNT; i++) {
        Hit16 h;
        h.target = i;
        h.damage = 1;
        h.x = (float)(i & 255);
        h.y = 0.0f;
        ecs_sched_ctx_send(ctx, g_hit16, &h);
    }
}

static void send_million_in_place(ecs_sched_system_ctx *ctx) {
    int32_t i;
    for (i = 0; i < MESSAGE_COUNT; i++) {
        Hit16 *h = (Hit16 *)ecs_sched_ctx_send_new(ctx, g_hit16);
        h->target = i;
        h->damage = 1;
        h->x = (float)(i & 255);
    }
}

static void sum_hits(ecs_sched_system_ctx *ctx) {
    ecs_sched_messages read = ecs_sched_ctx_messages(ctx, g_hit16);
    double sum = 0.0;
    while (ecs_sched_messages_next(&read)) {
        const Hit16 *h = (const Hit16 *)read.data;
        int32_t i;
        for (i = 0; i < read.count; i++) sum += h[i].x + (double)h[i].damage;
    }
    g_hit_sum += sum;
}

typedef struct message_job {
    ecs_sched_world *world;
    Hit16 *raw;
    int32_t raw_capacity;
} message_job;

static int message_frames(bench_row *row, void *state, int32_t reps) {
    message_job *job = (message_job *)state;
    int32_t r;
    for (r = 0; r < reps; r++) {
        if (ecs_sched_run_schedule(job->world, "Update") != ECS_SCHED_OK) {
            fail(row, "ecs_sched_run_schedule", job->world);
            return 0;
        }
        ecs_sched_messages_update(job->world);
    }
    return 1;
}

/* The baseline: appends to a growing array (kept across frames, as the queue's buffers are),
   then two loops over it. */
static int raw_message_frames(bench_row *row, void *state, int32_t reps) {
    message_job *job = (message_job *)state;
    int32_t r;
    (void)row;
    for (r = 0; r < reps; r++) {
        int32_t count = 0, i, pass;
        for (i = 0; i < MESSAGE_COUNT; i++) {
            Hit16 h;
            if (count == job->raw_capacity) {
                job->raw_capacity = job->raw_capacity ? job->raw_capacity * 2 : 16;
                job->raw = (Hit16 *)realloc(job->raw, (size_t)job->raw_capacity * sizeof *job->raw);
                if (!job->raw) exit(2);
            }
            h.target = i;
            h.damage = 1;
            h.x = (float)(i & 255);
            h.y = 0.0f;
            job->raw[count++] = h;
            BENCH_CLOBBER(job->raw);
        }
        for (pass = 0; pass < 2; pass++) {
            double sum = 0.0;
            for (i = 0; i < count; i++) sum += job->raw[i].x + (double)job->raw[i].damage;
            g_hit_sum += sum;
        }
    }
    return 1;
}

/* A world whose schedule "Update" sends MESSAGE_COUNT messages with `sender` and reads them
   with two systems. */
static ecs_sched_world *message_world_with(bench_row *row, ecs_sched_system_fn sender) {
    ecs_sched_world *w = quiet_world();
    ecs_sched_system_desc send, read;
    if (!w || !(g_hit16 = ECS_SCHED_MESSAGE(w, Hit16))) {
        fail(row, "setup", w);
        return w;
    }
    memset(&send, 0, sizeof send);
    send.name = "send";
    send.fn = sender;
    send.writes[0] = g_hit16;
    memset(&read, 0, sizeof read);
    read.name = "read_a";
    read.fn = sum_hits;
    read.reads[0] = g_hit16;
    read.after[0] = "send";
    if (ecs_sched_add_system(w, "Update", &send) != ECS_SCHED_OK ||
        ecs_sched_add_system(w, "Update", &read) != ECS_SCHED_OK) {
        fail(row, "add_system", w);
        return w;
    }
    read.name = "read_b";
    if (ecs_sched_add_system(w, "Update", &read) != ECS_SCHED_OK) fail(row, "add_system", w);
    return w;
}

static void run_messages_send_read(bench_row *row) {
    message_job in_place, copied;
    bench_sampling s = sampling(1, 1e6);
    bench_medians m;
    memset(&in_place, 0, sizeof in_place);
    memset(&copied, 0, sizeof copied);
    row->measured = 1;
    in_place.world = message_world_with(row, send_million_in_place);
    if (row->measured) copied.world = message_world_with(row, send_million);
    if (!row->measured) goto done;
    /* both worlds registered Hit16 first: the same id */
    g_hit_sum = 0.0;
    s.baseline = looped(raw_message_frames, &in_place);
    s.measured = looped(message_frames, &in_place);
    s.extras[0] = looped(message_frames, &copied);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d messages of 16 bytes a frame: one system sends them one by one, "
                     "filling each in place (ecs_sched_ctx_send_new), two read them all "
                     "(ecs_sched_ctx_messages), then the queues are updated; ms per frame. Sent "
                     "by value instead (ecs_sched_ctx_send of a struct built on the stack): "
                     "%.3f ms (%.2f x the baseline). A message lives two updates, so the queue "
                     "holds two frames of messages where the baseline's array holds one",
                MESSAGE_COUNT, m.extras[0], m.extras[0] / m.baseline);
    }
done:
    if (in_place.world) ecs_sched_world_destroy(in_place.world);
    if (copied.world) ecs_sched_world_destroy(copied.world);
    free(in_place.raw);
}
