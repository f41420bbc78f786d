/* Prefabs and inheritance: instantiating a prefab with its children, and iterating instances
   that read their bases' values through an inherited term. Included by bench.c after the
   other world rows, whose helpers it uses. */

/* ---- instantiate_prefab: 10k instances of a 10-entity prefab ---- */

#define PREFAB_SIZE 10           /* a root, 3 children, 2 grandchildren under each child */
#define PREFAB_CHILDREN 3
#define PREFAB_GRANDCHILDREN 2
#define PREFAB_INSTANCES 10000

/* The values of the prefab's entities, in depth-first order (root, child 0, its two children,
   child 1, ...): the order ecs_sched_instantiate makes them in, and the baseline too. */
typedef struct prefab_values {
    Position p[PREFAB_SIZE];
    Velocity v[PREFAB_SIZE];
    Mass m[PREFAB_SIZE];
} prefab_values;

static void prefab_values_fill(prefab_values *pv) {
    int32_t i;
    for (i = 0; i < PREFAB_SIZE; i++) {
        pv->p[i] = initial_position(i);
        pv->v[i] = initial_velocity(i);
        pv->m[i].value = (float)(i + 1);
    }
}

typedef struct prefab_job {
    prefab_values values;
    int32_t tables;                  /* the instances' world's table count (after a sample) */
} prefab_job;

/* A world with Position, Velocity and Mass; 0 when it cannot be made. */
static ecs_sched_world *prefab_world(ecs_sched_id ids[3]) {
    ecs_sched_world *w = make_world(NULL, &ids[0], &ids[1]);
    if (!w) return NULL;
    ids[2] = ECS_SCHED_COMPONENT(w, Mass);
    if (!ids[2]) {
        ecs_sched_world_destroy(w);
        return NULL;
    }
    return w;
}

/* The entity of depth-first index i with its three values, ids[0..2], and the Prefab tag,
   ids[3], when `tag`. */
static ecs_sched_entity prefab_spawn(ecs_sched_world *w, const ecs_sched_id *ids,
                                     const prefab_values *pv, int32_t i, int tag) {
    const void *values[4];
    values[0] = &pv->p[i];
    values[1] = &pv->v[i];
    values[2] = &pv->m[i];
    values[3] = NULL;
    return ecs_sched_spawn_with(w, tag ? 4 : 3, ids, values);
}

/* The prefab, unnamed, each entity tagged Prefab and its three components auto-overridden,
   so that every instance owns its values. The root; 0 on failure. */
static ecs_sched_entity prefab_make(ecs_sched_world *w, const ecs_sched_id comps[3],
                                    const prefab_values *pv) {
    ecs_sched_id ids[4];
    ecs_sched_entity made[PREFAB_SIZE];
    int32_t i, c, g, k;
    ids[0] = comps[0];
    ids[1] = comps[1];
    ids[2] = comps[2];
    ids[3] = ecs_sched_prefab_tag(w);
    for (i = 0; i < PREFAB_SIZE; i++) {
        made[i] = prefab_spawn(w, ids, pv, i, 1);
        if (!made[i]) return 0;
        for (k = 0; k < 3; k++) {
            if (ecs_sched_auto_override(w, made[i], comps[k]) != ECS_SCHED_OK) return 0;
        }
    }
    for (c = 0, i = 1; c < PREFAB_CHILDREN; c++) {
        int32_t child = i++;
        if (ecs_sched_set_parent(w, made[child], made[0]) != ECS_SCHED_OK) return 0;
        for (g = 0; g < PREFAB_GRANDCHILDREN; g++) {
            if (ecs_sched_set_parent(w, made[i++], made[child]) != ECS_SCHED_OK) return 0;
        }
    }
    return made[0];
}

/* Whether e owns the values of prefab entity i. */
static int prefab_owned_values(ecs_sched_world *w, ecs_sched_entity e,
                               const ecs_sched_id ids[3], const prefab_values *pv, int32_t i) {
    const Position *p = (const Position *)ecs_sched_get(w, e, ids[0]);
    const Velocity *v = (const Velocity *)ecs_sched_get(w, e, ids[1]);
    const Mass *m = (const Mass *)ecs_sched_get(w, e, ids[2]);
    return ecs_sched_owns(w, e, ids[0]) && ecs_sched_owns(w, e, ids[1]) &&
           ecs_sched_owns(w, e, ids[2]) && p && v && m && p->x == pv->p[i].x &&
           p->y == pv->p[i].y && v->x == pv->v[i].x && v->y == pv->v[i].y &&
           m->value == pv->m[i].value;
}

/* Whether root heads a copy of the prefab's shape, each entity owning its prefab entity's
   values. */
static int prefab_shape_ok(ecs_sched_world *w, ecs_sched_entity root,
                           const ecs_sched_id ids[3], const prefab_values *pv) {
    const ecs_sched_entity *children, *grandchildren;
    int32_t n, c, g, i = 1;
    if (!prefab_owned_values(w, root, ids, pv, 0)) return 0;
    children = ecs_sched_children(w, root, &n);
    if (n != PREFAB_CHILDREN) return 0;
    for (c = 0; c < PREFAB_CHILDREN; c++) {
        ecs_sched_entity child = children[c];
        if (!prefab_owned_values(w, child, ids, pv, i++)) return 0;
        grandchildren = ecs_sched_children(w, child, &n);
        if (n != PREFAB_GRANDCHILDREN) return 0;
        for (g = 0; g < PREFAB_GRANDCHILDREN; g++) {
            if (!prefab_owned_values(w, grandchildren[g], ids, pv, i++)) return 0;
        }
    }
    return 1;
}

/* A fresh world and prefab (untimed); timed: 10k ecs_sched_instantiate of the prefab. */
static double instantiate_side(bench_row *row, void *state) {
    prefab_job *job = (prefab_job *)state;
    ecs_sched_id ids[3];
    ecs_sched_world *w = prefab_world(ids);
    ecs_sched_entity prefab, last = 0;
    double t0, ns = -1.0;
    int32_t i;
    if (!w) {
        fail(row, "world creation", NULL);
        return -1.0;
    }
    prefab = prefab_make(w, ids, &job->values);
    if (!prefab) {
        fail(row, "making the prefab", w);
        goto done;
    }
    t0 = now_ns();
    for (i = 0; i < PREFAB_INSTANCES; i++) {
        last = ecs_sched_instantiate(w, prefab);
        if (!last) {
            fail(row, "ecs_sched_instantiate", w);
            goto done;
        }
    }
    ns = now_ns() - t0;
    if (ecs_sched_entity_count(w) != PREFAB_SIZE * (PREFAB_INSTANCES + 1) ||
        !prefab_shape_ok(w, last, ids, &job->values) || ecs_sched_parent_of(w, last) != 0) {
        fail(row, "the instances do not copy the prefab", NULL);
        ns = -1.0;
    }
    job->tables = ecs_sched_archetype_count(w);
done:
    ecs_sched_world_destroy(w);
    return ns;
}

/* A fresh world (untimed); timed: the same 100k entities by hand, each spawned with its three
   values by ecs_sched_spawn_with and placed under its parent by ecs_sched_set_parent, in the
   order instantiate makes them. */
static double by_hand_side(bench_row *row, void *state) {
    prefab_job *job = (prefab_job *)state;
    const prefab_values *pv = &job->values;
    ecs_sched_id ids[3];
    ecs_sched_world *w = prefab_world(ids);
    ecs_sched_entity root = 0;
    double t0, ns = -1.0;
    int32_t n, c, g, k;
    if (!w) {
        fail(row, "world creation", NULL);
        return -1.0;
    }
    t0 = now_ns();
    for (n = 0; n < PREFAB_INSTANCES; n++) {
        root = prefab_spawn(w, ids, pv, 0, 0);
        if (!root) goto failed;
        for (c = 0, k = 1; c < PREFAB_CHILDREN; c++) {
            ecs_sched_entity child = prefab_spawn(w, ids, pv, k++, 0);
            if (!child || ecs_sched_set_parent(w, child, root) != ECS_SCHED_OK) goto failed;
            for (g = 0; g < PREFAB_GRANDCHILDREN; g++) {
                ecs_sched_entity leaf = prefab_spawn(w, ids, pv, k++, 0);
                if (!leaf || ecs_sched_set_parent(w, leaf, child) != ECS_SCHED_OK) goto failed;
            }
        }
    }
    ns = now_ns() - t0;
    if (ecs_sched_entity_count(w) != PREFAB_SIZE * PREFAB_INSTANCES ||
        !prefab_shape_ok(w, root, ids, pv)) {
        fail(row, "the entities made by hand are wrong", NULL);
        ns = -1.0;
    }
    ecs_sched_world_destroy(w);
    return ns;
failed:
    fail(row, "spawn_with/set_parent (baseline)", w);
    ecs_sched_world_destroy(w);
    return -1.0;
}

static void run_instantiate_prefab(bench_row *row) {
    prefab_job job;
    bench_sampling s = sampling(1, (double)PREFAB_SIZE * PREFAB_INSTANCES);
    bench_medians m;
    memset(&job, 0, sizeof job);
    prefab_values_fill(&job.values);
    s.baseline = timed(by_hand_side, &job);
    s.measured = timed(instantiate_side, &job);
    if (sample_row(row, &s, &m)) {
        appendf(row, "a prefab of %d unnamed entities (a root, %d children, %d under each "
                     "child), each with Position, Velocity and Mass, all three auto-overridden "
                     "so that instances own them; timed: %d ecs_sched_instantiate (%d entities, "
                     "%.2f us per instance); ns per entity made; a fresh world and prefab per "
                     "sample (untimed); %d tables in the instances' world; values, owners and "
                     "shape checked",
                PREFAB_SIZE, PREFAB_CHILDREN, PREFAB_GRANDCHILDREN, PREFAB_INSTANCES,
                PREFAB_SIZE * PREFAB_INSTANCES, m.value * PREFAB_SIZE / 1e3, (int)job.tables);
    }
}

/* ---- iter_inherited: 1M instances of 10 bases, reading the bases' Mass ---- */

#define INHERIT_BASES 10
#define INHERIT_COUNT 1000000
#define INHERIT_FRAMES 10        /* frames per sample */

/* The kernels both sides call: a value per row, or one value for all the rows. */
static BENCH_KERNEL void push_each(Velocity *v, const Mass *m, int32_t n) {
    int32_t i;
    for (i = 0; i < n; i++) v[i].x += m[i].value * 0.5f;
}

static BENCH_KERNEL void push_all(Velocity *v, float mass, int32_t n) {
    int32_t i;
    for (i = 0; i < n; i++) v[i].x += mass * 0.5f;
}

typedef struct inherit_world {
    ecs_sched_world *world;
    ecs_sched_query *query;
    ecs_sched_id vel, mass;
    double frames;                   /* frames run, for the checksum */
} inherit_world;

/* One loop for both sides: the Mass field is shared in the instances' tables (read once per
   table), one value per row in the baseline's. */
static int inherit_frames(bench_row *row, void *state, int32_t reps) {
    inherit_world *f = (inherit_world *)state;
    int32_t r;
    (void)row;
    for (r = 0; r < reps; r++) {
        ecs_sched_iter it = ecs_sched_query_iter(f->query);
        while (ecs_sched_iter_next(&it)) {
            Velocity *v = ECS_SCHED_FIELD(&it, Velocity, 1);
            const Mass *m = ECS_SCHED_FIELD(&it, const Mass, 0);
            if (ecs_sched_field_is_shared(&it, 0)) push_all(v, m->value, it.count);
            else push_each(v, m, it.count);
        }
        BENCH_CLOBBER(&it);
    }
    f->frames += reps;
    return 1;
}

/* The base (or mass) of entity i: INHERIT_COUNT / INHERIT_BASES each, in blocks. */
static float inherit_mass_of(int32_t i) {
    return (float)(i / (INHERIT_COUNT / INHERIT_BASES) + 1);
}

/* Sum of x + 2y over the Velocity of every entity; and what it should be after `frames`. */
static double inherit_checksum(const inherit_world *f, double *expected) {
    ecs_sched_iter it;
    double sum = 0.0;
    int32_t i;
    ecs_sched_query_desc desc;
    ecs_sched_query *q;
    memset(&desc, 0, sizeof desc);
    desc.terms[0] = ecs_sched_read(f->vel);
    q = ecs_sched_query_create(f->world, &desc);
    *expected = 0.0;
    for (i = 0; i < INHERIT_COUNT; i++) {
        Velocity v = initial_velocity(i);
        *expected += (double)v.x + f->frames * 0.5 * (double)inherit_mass_of(i) + 2.0 * (double)v.y;
    }
    if (!q) return -1.0;
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        const Velocity *v = ECS_SCHED_FIELD(&it, const Velocity, 0);
        for (i = 0; i < it.count; i++) sum += (double)v[i].x + 2.0 * (double)v[i].y;
    }
    ecs_sched_query_destroy(q);
    return sum;
}

/* 1M entities with Velocity: instances of 10 prefabs holding Mass (`inherit`, made base by
   base), or owning Mass themselves. */
static int inherit_make(bench_row *row, inherit_world *f, int inherit) {
    const int32_t per = INHERIT_COUNT / INHERIT_BASES;
    Velocity *vv = (Velocity *)xmalloc((size_t)per * sizeof *vv);
    Mass *mv = (Mass *)xmalloc((size_t)per * sizeof *mv);
    ecs_sched_entity *made = (ecs_sched_entity *)xmalloc((size_t)per * sizeof *made);
    ecs_sched_query_desc desc;
    ecs_sched_id pos, ids[2];
    const void *arrays[2];
    int32_t b, i, ok = 0;
    f->world = make_world(NULL, &pos, &f->vel);
    if (!f->world || !(f->mass = ECS_SCHED_COMPONENT(f->world, Mass))) {
        fail(row, "world creation", NULL);
        goto done;
    }
    for (b = 0; b < INHERIT_BASES; b++) {
        ecs_sched_entity base = 0;
        for (i = 0; i < per; i++) {
            vv[i] = initial_velocity(b * per + i);
            mv[i].value = inherit_mass_of(b * per + i);
        }
        if (inherit) {
            ecs_sched_id base_ids[2];
            const void *values[2];
            base_ids[0] = f->mass;
            base_ids[1] = ecs_sched_prefab_tag(f->world);
            values[0] = &mv[0];
            values[1] = NULL;
            base = ecs_sched_spawn_with(f->world, 2, base_ids, values);
            if (!base) goto setup_failed;
        }
        ids[0] = f->vel;
        ids[1] = f->mass;
        arrays[0] = vv;
        arrays[1] = mv;
        if (ecs_sched_spawn_batch(f->world, per, inherit ? 1 : 2, ids, arrays, made) != ECS_SCHED_OK) {
            goto setup_failed;
        }
        for (i = 0; inherit && i < per; i++) {
            if (ecs_sched_relate(f->world, made[i], ecs_sched_is_a(f->world), base, NULL) !=
                ECS_SCHED_OK) {
                goto setup_failed;
            }
        }
    }
    memset(&desc, 0, sizeof desc);
    desc.terms[0] = inherit ? ecs_sched_inherited(f->mass) : ecs_sched_read(f->mass);
    desc.terms[1] = ecs_sched_write(f->vel);
    f->query = ecs_sched_query_create(f->world, &desc);
    if (!f->query) {
        fail(row, "ecs_sched_query_create", f->world);
        goto done;
    }
    if (ecs_sched_query_count(f->query) != INHERIT_COUNT) {
        fail(row, "the query does not match every entity", f->world);
        goto done;
    }
    ok = 1;
    goto done;
setup_failed:
    fail(row, "setup", f->world);
done:
    free(vv);
    free(mv);
    free(made);
    return ok;
}

static void run_iter_inherited(bench_row *row) {
    inherit_world owned, instances;
    bench_sampling s = sampling(INHERIT_FRAMES, 1e6);
    bench_medians m;
    double sum_owned, sum_instances, want_owned, want_instances;
    memset(&owned, 0, sizeof owned);
    memset(&instances, 0, sizeof instances);
    if (!inherit_make(row, &owned, 0) || !inherit_make(row, &instances, 1)) goto done;
    s.baseline = looped(inherit_frames, &owned);
    s.measured = looped(inherit_frames, &instances);
    if (sample_row(row, &s, &m)) {
        sum_owned = inherit_checksum(&owned, &want_owned);
        sum_instances = inherit_checksum(&instances, &want_instances);
        bench_sink += sum_owned + sum_instances;
        appendf(row, "%d instances of %d prefabs holding Mass (made base by base: "
                     "spawn_batch with Velocity, then IsA), each owning Velocity; one frame of "
                     "v.x += mass * 0.5 through a query (inherited Mass, write Velocity), the "
                     "shared Mass read once per table; %d frames per sample; %d tables in the "
                     "instances' world, %d in the baseline's; checksums %s",
                INHERIT_COUNT, INHERIT_BASES, INHERIT_FRAMES,
                (int)ecs_sched_archetype_count(instances.world),
                (int)ecs_sched_archetype_count(owned.world),
                sum_owned == want_owned && sum_instances == want_instances
                        ? "as expected" : "WRONG: figure withheld");
        if (sum_owned != want_owned || sum_instances != want_instances) row->measured = 0;
    }
done:
    if (owned.world) ecs_sched_world_destroy(owned.world);
    if (instances.world) ecs_sched_world_destroy(instances.world);
}
