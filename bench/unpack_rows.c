/* Reaching one entity's components by its handle: get_mut of one, two and three components
   of each of 1M entities, in the order they were made, and has of a component they lack.
   Included by bench.c. */

#define UNPACK_COUNT 1000000

typedef struct { float value; } Health;   /* registered, and no entity has it */

typedef struct unpack_job {
    ecs_sched_world *world;
    ecs_sched_id pos, vel, mass, health;
    ecs_sched_entity *ents;
    int components;                  /* 1, 2 or 3 per entity */
    /* the baseline: the same values in arrays, reached through a handle table by hand */
    Position *raw_pos;
    Velocity *raw_vel;
    Mass *raw_mass;
    uint32_t *raw_row;               /* by entity index */
    uint32_t *raw_generation;
    uint32_t *raw_table;             /* by entity index: its table (all in table 0) */
    unsigned char *raw_present;      /* by table, then component id: whether it has it */
    uint32_t raw_ids;                /* component ids per table in raw_present */
} unpack_job;

static BENCH_KERNEL double unpack_world(unpack_job *job) {
    ecs_sched_world *w = job->world;
    const ecs_sched_entity *ents = job->ents;
    double sum = 0;
    int32_t i;
    if (job->components == 1) {
        for (i = 0; i < UNPACK_COUNT; i++) {
            Position *p = (Position *)ecs_sched_get_mut(w, ents[i], job->pos);
            p->x += 1.0f;
        }
    } else if (job->components == 2) {
        for (i = 0; i < UNPACK_COUNT; i++) {
            Position *p = (Position *)ecs_sched_get_mut(w, ents[i], job->pos);
            const Velocity *v = (const Velocity *)ecs_sched_get_mut(w, ents[i], job->vel);
            p->x += v->x;
        }
    } else if (job->components == 4) {   /* three, with one ecs_sched_get_mut_many */
        ecs_sched_id ids[3];
        void *out[3];
        ids[0] = job->pos; ids[1] = job->vel; ids[2] = job->mass;
        for (i = 0; i < UNPACK_COUNT; i++) {
            if (ecs_sched_get_mut_many(w, ents[i], 3, ids, out) != ECS_SCHED_OK) return -1.0;
            ((Position *)out[0])->x += ((const Velocity *)out[1])->x * ((const Mass *)out[2])->value;
        }
    } else {
        for (i = 0; i < UNPACK_COUNT; i++) {
            Position *p = (Position *)ecs_sched_get_mut(w, ents[i], job->pos);
            const Velocity *v = (const Velocity *)ecs_sched_get_mut(w, ents[i], job->vel);
            const Mass *m = (const Mass *)ecs_sched_get_mut(w, ents[i], job->mass);
            p->x += v->x * m->value;
        }
    }
    sum += (double)((const Position *)ecs_sched_get(w, ents[0], job->pos))->x;
    return sum;
}

/* By hand: the handle's index picks the row, its generation is checked, then the arrays. */
static BENCH_KERNEL double unpack_raw(unpack_job *job) {
    const ecs_sched_entity *ents = job->ents;
    const uint32_t *rows = job->raw_row, *gens = job->raw_generation;
    Position *pos = job->raw_pos;
    const Velocity *vel = job->raw_vel;
    const Mass *mass = job->raw_mass;
    int32_t i;
    for (i = 0; i < UNPACK_COUNT; i++) {
        uint32_t index = ECS_SCHED_ENTITY_INDEX(ents[i]);
        uint32_t row;
        if (gens[index] != ECS_SCHED_ENTITY_GENERATION(ents[i])) continue;
        row = rows[index];
        if (job->components == 1) pos[row].x += 1.0f;
        else if (job->components == 2) pos[row].x += vel[row].x;
        else pos[row].x += vel[row].x * mass[row].value;
    }
    return (double)pos[0].x;
}

/* ecs_sched_has of Health, which no entity has, for each entity: how many have it (0). */
static BENCH_KERNEL int32_t has_missing_world(const unpack_job *job) {
    const ecs_sched_world *w = job->world;
    const ecs_sched_entity *ents = job->ents;
    ecs_sched_id health = job->health;
    int32_t i, found = 0;
    for (i = 0; i < UNPACK_COUNT; i++) found += ecs_sched_has(w, ents[i], health);
    return found;
}

/* By hand: the handle's index and generation, the entity's table, then the table's flag for
   the component: the least a has by handle in an archetype store does. */
static BENCH_KERNEL int32_t has_missing_raw(const unpack_job *job) {
    const ecs_sched_entity *ents = job->ents;
    const uint32_t *gens = job->raw_generation, *tables = job->raw_table;
    const unsigned char *present = job->raw_present;
    size_t ids = job->raw_ids, health = job->health;
    int32_t i, found = 0;
    for (i = 0; i < UNPACK_COUNT; i++) {
        uint32_t index = ECS_SCHED_ENTITY_INDEX(ents[i]);
        if (gens[index] != ECS_SCHED_ENTITY_GENERATION(ents[i])) continue;
        found += present[tables[index] * ids + health];
    }
    return found;
}

static int has_missing_world_loop(bench_row *row, void *state, int32_t reps) {
    int32_t r;
    for (r = 0; r < reps; r++) {
        if (has_missing_world((const unpack_job *)state) != 0) {
            fail(row, "ecs_sched_has found a component no entity has", NULL);
            return 0;
        }
    }
    return 1;
}

static int has_missing_raw_loop(bench_row *row, void *state, int32_t reps) {
    int32_t r;
    (void)row;
    for (r = 0; r < reps; r++) bench_sink += has_missing_raw((const unpack_job *)state);
    return 1;
}

static int unpack_world_loop(bench_row *row, void *state, int32_t reps) {
    int32_t r;
    (void)row;
    for (r = 0; r < reps; r++) bench_sink += unpack_world((unpack_job *)state);
    return 1;
}

static int unpack_raw_loop(bench_row *row, void *state, int32_t reps) {
    int32_t r;
    (void)row;
    for (r = 0; r < reps; r++) bench_sink += unpack_raw((unpack_job *)state);
    return 1;
}

static int unpack_make(bench_row *row, unpack_job *job) {
    Position *pv = (Position *)xmalloc(UNPACK_COUNT * sizeof *pv);
    Velocity *vv = (Velocity *)xmalloc(UNPACK_COUNT * sizeof *vv);
    Mass *mv = (Mass *)xmalloc(UNPACK_COUNT * sizeof *mv);
    ecs_sched_id ids[3];
    const void *arrays[3];
    uint32_t max_index = 0;
    int32_t i;
    fill_values(pv, vv, UNPACK_COUNT);
    for (i = 0; i < UNPACK_COUNT; i++) mv[i].value = 1.0f;
    job->world = make_world(NULL, &job->pos, &job->vel);
    job->mass = job->world ? ECS_SCHED_COMPONENT(job->world, Mass) : 0;
    job->health = job->world ? ECS_SCHED_COMPONENT(job->world, Health) : 0;
    job->ents = (ecs_sched_entity *)xmalloc(UNPACK_COUNT * sizeof *job->ents);
    ids[0] = job->pos; ids[1] = job->vel; ids[2] = job->mass;
    arrays[0] = pv; arrays[1] = vv; arrays[2] = mv;
    if (!job->mass || !job->health ||
        ecs_sched_spawn_batch(job->world, UNPACK_COUNT, 3, ids, arrays, job->ents) != ECS_SCHED_OK) {
        fail(row, "setting up 1M entities", job->world);
        free(pv); free(vv); free(mv);
        return 0;
    }
    for (i = 0; i < UNPACK_COUNT; i++) {
        uint32_t index = ECS_SCHED_ENTITY_INDEX(job->ents[i]);
        if (index > max_index) max_index = index;
    }
    job->raw_row = (uint32_t *)xmalloc((max_index + 1) * sizeof *job->raw_row);
    job->raw_generation = (uint32_t *)xmalloc((max_index + 1) * sizeof *job->raw_generation);
    job->raw_table = (uint32_t *)xmalloc((max_index + 1) * sizeof *job->raw_table);
    for (i = 0; i < UNPACK_COUNT; i++) {
        uint32_t index = ECS_SCHED_ENTITY_INDEX(job->ents[i]);
        job->raw_row[index] = (uint32_t)i;
        job->raw_generation[index] = ECS_SCHED_ENTITY_GENERATION(job->ents[i]);
        job->raw_table[index] = 0;
    }
    job->raw_ids = job->health + 1;
    job->raw_present = (unsigned char *)xmalloc(job->raw_ids);
    memset(job->raw_present, 0, job->raw_ids);
    job->raw_present[job->pos] = job->raw_present[job->vel] = job->raw_present[job->mass] = 1;
    job->raw_pos = pv;
    job->raw_vel = vv;
    job->raw_mass = mv;
    return 1;
}

static void unpack_free(unpack_job *job) {
    if (job->world) ecs_sched_world_destroy(job->world);
    free(job->ents);
    free(job->raw_pos); free(job->raw_vel); free(job->raw_mass);
    free(job->raw_row); free(job->raw_generation);
    free(job->raw_table); free(job->raw_present);
}

/* ns per component reached: the row is two components per entity; one and three are in the
   note. */
static void run_get_by_handle(bench_row *row) {
    unpack_job two, one, three, many, raw_two;
    bench_sampling s = sampling(1, UNPACK_COUNT * 2.0);
    bench_medians m;
    memset(&two, 0, sizeof two);
    if (!unpack_make(row, &two)) {
        unpack_free(&two);
        return;
    }
    two.components = 2;
    one = three = many = raw_two = two;
    one.components = 1;
    three.components = 3;
    many.components = 4;
    s.baseline = looped(unpack_raw_loop, &raw_two);
    s.measured = looped(unpack_world_loop, &two);
    s.extras[0] = looped(unpack_world_loop, &one);
    s.extras[1] = looped(unpack_world_loop, &three);
    s.extras[2] = looped(unpack_world_loop, &many);
    if (sample_row(row, &s, &m)) {
        /* the extras were divided by two components' count */
        appendf(row, "%d entities with Position, Velocity and Mass (one table), handles in the "
                     "order made; ecs_sched_get_mut per component: %.2f ns per component for "
                     "one per entity, %.2f for two (the row), %.2f for three; three with one "
                     "ecs_sched_get_mut_many: %.2f per component",
                UNPACK_COUNT, m.extras[0] * 2.0, m.value, m.extras[1] * 2.0 / 3.0,
                m.extras[2] * 2.0 / 3.0);
    }
    unpack_free(&two);
}

/* ns per entity for three components of each: ecs_sched_get_mut three times (the row), and
   one ecs_sched_get_mut_many in the note. */
static void run_get_by_handle_3(bench_row *row) {
    unpack_job three, many, raw_three;
    bench_sampling s = sampling(1, UNPACK_COUNT);
    bench_medians m;
    memset(&three, 0, sizeof three);
    if (!unpack_make(row, &three)) {
        unpack_free(&three);
        return;
    }
    three.components = 3;
    many = raw_three = three;
    many.components = 4;
    s.baseline = looped(unpack_raw_loop, &raw_three);
    s.measured = looped(unpack_world_loop, &three);
    s.extras[0] = looped(unpack_world_loop, &many);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d entities with Position, Velocity and Mass (one table), handles in the "
                     "order made; three ecs_sched_get_mut per entity; one "
                     "ecs_sched_get_mut_many of the three instead: %.2f ns per entity",
                UNPACK_COUNT, m.extras[0]);
    }
    unpack_free(&three);
}

/* ns per entity for ecs_sched_has of a component the entity lacks (registered, on no entity). */
static void run_has_missing(bench_row *row) {
    unpack_job job;
    bench_sampling s = sampling(1, UNPACK_COUNT);
    bench_medians m;
    memset(&job, 0, sizeof job);
    if (!unpack_make(row, &job)) {
        unpack_free(&job);
        return;
    }
    s.baseline = looped(has_missing_raw_loop, &job);
    s.measured = looped(has_missing_world_loop, &job);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d entities with Position, Velocity and Mass (one table), handles in the "
                     "order made; ecs_sched_has of Health, registered and on no entity",
                UNPACK_COUNT);
    }
    unpack_free(&job);
}
