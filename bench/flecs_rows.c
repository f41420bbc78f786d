/* The same work through flecs: each row's value is this library's figure and its baseline
   flecs's, taken in the same process, interleaved, so ratio = ours / flecs. Included by
   bench.c only when built with BENCH_FLECS, which `make bench FLECS_DIR=<dir>` defines: dir
   holds flecs.c and flecs.h of a flecs release (its distr/ directory), and flecs.c is
   compiled as an object of its own, in its release configuration. Uses unpack_rows.c (the
   1M entities reached by handle) and the add_remove row's side in bench.c. */

#ifndef FLECS_NDEBUG
#define FLECS_NDEBUG   /* flecs.c is compiled with NDEBUG: its header must agree */
#endif
#include "flecs.h"

/* A flecs world with the components of the rows. */
typedef struct fbench_job {
    ecs_world_t *world;
    ecs_entity_t pos, vel, mass, health;
    ecs_entity_t *ents;
    int32_t count;
    int components;                  /* the gets: 1 or 3 per entity */
    const Position *pv;              /* the spawn row's values */
    const Velocity *vv;
} fbench_job;

static ecs_entity_t fbench_component(ecs_world_t *world, const char *name, size_t size,
                                    size_t alignment) {
    ecs_entity_desc_t edesc;
    ecs_component_desc_t desc;
    memset(&edesc, 0, sizeof edesc);
    memset(&desc, 0, sizeof desc);
    edesc.name = name;
    edesc.symbol = name;
    edesc.use_low_id = true;
    desc.entity = ecs_entity_init(world, &edesc);
    desc.type.size = (ecs_size_t)size;
    desc.type.alignment = (ecs_size_t)alignment;
    return ecs_component_init(world, &desc);
}

/* ecs_mini: the core alone, no addon module (no system, no observer on these components). */
static int fbench_world(fbench_job *job) {
    job->world = ecs_mini();
    if (!job->world) return 0;
    job->pos = fbench_component(job->world, "Position", sizeof(Position), ECS_SCHED_ALIGNOF(Position));
    job->vel = fbench_component(job->world, "Velocity", sizeof(Velocity), ECS_SCHED_ALIGNOF(Velocity));
    job->mass = fbench_component(job->world, "Mass", sizeof(Mass), ECS_SCHED_ALIGNOF(Mass));
    job->health = fbench_component(job->world, "Health", sizeof(Health), ECS_SCHED_ALIGNOF(Health));
    return job->pos && job->vel && job->mass && job->health;
}

static void fbench_free(fbench_job *job) {
    if (job->world) ecs_fini(job->world);
    free(job->ents);
    job->world = NULL;
    job->ents = NULL;
}

/* `count` entities made one by one, with Position and Velocity and, when `with_mass`, Mass. */
static int fbench_populate(fbench_job *job, int32_t count, int with_mass) {
    int32_t i;
    job->count = count;
    job->ents = (ecs_entity_t *)xmalloc((size_t)count * sizeof *job->ents);
    for (i = 0; i < count; i++) {
        Position p = initial_position(i);
        Velocity v = initial_velocity(i);
        Mass m;
        m.value = 1.0f;
        job->ents[i] = ecs_new(job->world);
        ecs_set_id(job->world, job->ents[i], job->pos, sizeof p, &p);
        ecs_set_id(job->world, job->ents[i], job->vel, sizeof v, &v);
        if (with_mass) ecs_set_id(job->world, job->ents[i], job->mass, sizeof m, &m);
    }
    return ecs_count_id(job->world, job->pos) == count;
}

/* ---- by handle: the unpack_rows.c loops, through ecs_get_mut_id and ecs_has_id ---- */

static BENCH_KERNEL double fbench_unpack(const fbench_job *job) {
    const ecs_world_t *w = job->world;
    const ecs_entity_t *ents = job->ents;
    ecs_entity_t pos = job->pos, vel = job->vel, mass = job->mass;
    int32_t i;
    if (job->components == 1) {
        for (i = 0; i < UNPACK_COUNT; i++) {
            Position *p = (Position *)ecs_get_mut_id(w, ents[i], pos);
            p->x += 1.0f;
        }
    } else {
        for (i = 0; i < UNPACK_COUNT; i++) {
            Position *p = (Position *)ecs_get_mut_id(w, ents[i], pos);
            const Velocity *v = (const Velocity *)ecs_get_mut_id(w, ents[i], vel);
            const Mass *m = (const Mass *)ecs_get_mut_id(w, ents[i], mass);
            p->x += v->x * m->value;
        }
    }
    return (double)((const Position *)ecs_get_id(w, ents[0], pos))->x;
}

static int fbench_unpack_loop(bench_row *row, void *state, int32_t reps) {
    int32_t r;
    (void)row;
    for (r = 0; r < reps; r++) bench_sink += fbench_unpack((const fbench_job *)state);
    return 1;
}

static BENCH_KERNEL int32_t fbench_has_missing(const fbench_job *job) {
    const ecs_world_t *w = job->world;
    const ecs_entity_t *ents = job->ents;
    ecs_entity_t health = job->health;
    int32_t i, found = 0;
    for (i = 0; i < UNPACK_COUNT; i++) found += ecs_has_id(w, ents[i], health);
    return found;
}

static int fbench_has_missing_loop(bench_row *row, void *state, int32_t reps) {
    int32_t r;
    for (r = 0; r < reps; r++) {
        if (fbench_has_missing((const fbench_job *)state) != 0) {
            fail(row, "flecs's ecs_has_id found a component no entity has", NULL);
            return 0;
        }
    }
    return 1;
}

/* Both worlds with the 1M entities of unpack_rows.c; 0 after fail(). */
static int fbench_unpack_worlds(bench_row *row, unpack_job *ours, fbench_job *theirs) {
    memset(ours, 0, sizeof *ours);
    memset(theirs, 0, sizeof *theirs);
    if (!unpack_make(row, ours)) return 0;
    if (!fbench_world(theirs) || !fbench_populate(theirs, UNPACK_COUNT, 1)) {
        fail(row, "setting up 1M entities in flecs", NULL);
        return 0;
    }
    return 1;
}

/* ns per entity: `components` get_mut of each entity by handle, ours and flecs's. */
static void fbench_gets(bench_row *row, int components) {
    unpack_job ours;
    fbench_job theirs;
    bench_sampling s = sampling(1, UNPACK_COUNT);
    bench_medians m;
    if (fbench_unpack_worlds(row, &ours, &theirs)) {
        ours.components = theirs.components = components;
        s.baseline = looped(fbench_unpack_loop, &theirs);
        s.measured = looped(unpack_world_loop, &ours);
        if (sample_row(row, &s, &m)) {
            appendf(row, "%d entities with Position, Velocity and Mass, handles in the order "
                         "made; %d get_mut per entity (ecs_sched_get_mut; flecs: ecs_get_mut_id)",
                    UNPACK_COUNT, components);
        }
    }
    unpack_free(&ours);
    fbench_free(&theirs);
}

static void run_flecs_get_by_handle(bench_row *row) { fbench_gets(row, 1); }
static void run_flecs_get_by_handle_3(bench_row *row) { fbench_gets(row, 3); }

static void run_flecs_has_missing(bench_row *row) {
    unpack_job ours;
    fbench_job theirs;
    bench_sampling s = sampling(1, UNPACK_COUNT);
    bench_medians m;
    if (fbench_unpack_worlds(row, &ours, &theirs)) {
        s.baseline = looped(fbench_has_missing_loop, &theirs);
        s.measured = looped(has_missing_world_loop, &ours);
        if (sample_row(row, &s, &m)) {
            appendf(row, "%d entities with Position, Velocity and Mass, handles in the order "
                         "made; has of Health, registered and on no entity (ecs_sched_has; "
                         "flecs: ecs_has_id)", UNPACK_COUNT);
        }
    }
    unpack_free(&ours);
    fbench_free(&theirs);
}

/* ---- add_remove: Mass set on each of 100k entities, then removed from each ---- */

static double fbench_set_remove_side(bench_row *row, void *state) {
    const fbench_job *job = (const fbench_job *)state;
    const int32_t n = SPAWN_COUNT;
    ecs_world_t *world = job->world;
    const ecs_entity_t *ents = job->ents;
    ecs_entity_t mass = job->mass;
    const Mass *got;
    double t0, ns;
    int32_t i;
    t0 = now_ns();
    for (i = 0; i < n; i++) {
        Mass m;
        m.value = (float)i;
        ecs_set_id(world, ents[i], mass, sizeof m, &m);
    }
    ns = now_ns() - t0;
    got = (const Mass *)ecs_get_id(world, ents[n / 3], mass);
    if (!got || got->value != (float)(n / 3)) {
        fail(row, "flecs: the value set was not found", NULL);
        return -1.0;
    }
    t0 = now_ns();
    for (i = 0; i < n; i++) ecs_remove_id(world, ents[i], mass);
    ns += now_ns() - t0;
    if (ecs_has_id(world, ents[n / 3], mass)) {
        fail(row, "flecs: the removal was not seen", NULL);
        return -1.0;
    }
    return ns;
}

static void run_flecs_add_remove(bench_row *row) {
    const int32_t n = SPAWN_COUNT;
    Position *pv = (Position *)xmalloc((size_t)n * sizeof *pv);
    Velocity *vv = (Velocity *)xmalloc((size_t)n * sizeof *vv);
    ecs_sched_entity *ents = (ecs_sched_entity *)xmalloc((size_t)n * sizeof *ents);
    add_remove_job ours;
    fbench_job theirs;
    bench_sampling s = sampling(1, 2.0 * n);   /* two operations per entity */
    bench_medians m;
    ecs_sched_id ids[2];
    const void *arrays[2];
    fill_values(pv, vv, n);
    memset(&ours, 0, sizeof ours);
    memset(&theirs, 0, sizeof theirs);
    ours.ents = ents;
    ours.world = make_world(NULL, &ours.pos, &ours.vel);
    if (!ours.world) { fail(row, "world creation", NULL); goto done; }
    ours.mass = ECS_SCHED_COMPONENT(ours.world, Mass);
    ids[0] = ours.pos; ids[1] = ours.vel;
    arrays[0] = pv; arrays[1] = vv;
    if (!ours.mass || ecs_sched_spawn_batch(ours.world, n, 2, ids, arrays, ents) != ECS_SCHED_OK) {
        fail(row, "setup", ours.world);
        goto done;
    }
    if (!fbench_world(&theirs) || !fbench_populate(&theirs, n, 0)) {
        fail(row, "setting up the flecs world", NULL);
        goto done;
    }
    s.baseline = timed(fbench_set_remove_side, &theirs);
    s.measured = timed(insert_remove_side, &ours);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d entities with Position and Velocity: Mass inserted on each with its "
                "value, then removed from each (ecs_sched_insert, ecs_sched_remove; flecs: "
                "ecs_set_id, ecs_remove_id); the same world throughout", n);
    }
done:
    if (ours.world) ecs_sched_world_destroy(ours.world);
    fbench_free(&theirs);
    free(pv); free(vv); free(ents);
}

/* ---- spawn: 100k entities with two values each into a fresh world ---- */

/* ecs_sched_spawn_with of both values; the world made and destroyed untimed. */
static double spawn_with_side(bench_row *row, void *state) {
    const fbench_job *job = (const fbench_job *)state;
    const int32_t n = SPAWN_COUNT;
    ecs_sched_id ids[2];
    const void *values[2];
    ecs_sched_entity *ents = (ecs_sched_entity *)job->ents;
    ecs_sched_world *world = make_world(NULL, &ids[0], &ids[1]);
    double t0, ns;
    int32_t i;
    if (!world) { fail(row, "world creation", NULL); return -1.0; }
    t0 = now_ns();
    for (i = 0; i < n; i++) {
        values[0] = &job->pv[i];
        values[1] = &job->vv[i];
        ents[i] = ecs_sched_spawn_with(world, 2, ids, values);
    }
    ns = now_ns() - t0;
    for (i = 0; i < n && ents[i] != ECS_SCHED_NULL_ENTITY; i++) {}
    if (i < n || !check_value(world, ents[n / 2], ids[0], ids[1], n / 2)) {
        fail(row, "ecs_sched_spawn_with", world);
        ns = -1.0;
    }
    ecs_sched_world_destroy(world);
    return ns;
}

/* ecs_new, then ecs_set_id of each value (the plain C way to make an entity with values). */
static double fbench_spawn_side(bench_row *row, void *state) {
    const fbench_job *job = (const fbench_job *)state;
    const int32_t n = SPAWN_COUNT;
    fbench_job w;
    double t0, ns;
    int32_t i;
    const Position *got;
    memset(&w, 0, sizeof w);
    if (!fbench_world(&w)) {
        fbench_free(&w);
        fail(row, "flecs world creation", NULL);
        return -1.0;
    }
    t0 = now_ns();
    for (i = 0; i < n; i++) {
        ecs_entity_t e = ecs_new(w.world);
        ecs_set_id(w.world, e, w.pos, sizeof(Position), &job->pv[i]);
        ecs_set_id(w.world, e, w.vel, sizeof(Velocity), &job->vv[i]);
        job->ents[i] = e;
    }
    ns = now_ns() - t0;
    got = (const Position *)ecs_get_id(w.world, job->ents[n / 2], w.pos);
    if (!got || got->x != job->pv[n / 2].x || ecs_count_id(w.world, w.vel) != n) {
        fail(row, "flecs: the spawned values were not found", NULL);
        ns = -1.0;
    }
    fbench_free(&w);
    return ns;
}

static void run_flecs_spawn_with(bench_row *row) {
    const int32_t n = SPAWN_COUNT;
    Position *pv = (Position *)xmalloc((size_t)n * sizeof *pv);
    Velocity *vv = (Velocity *)xmalloc((size_t)n * sizeof *vv);
    fbench_job ours, theirs;
    bench_sampling s = sampling(1, n);
    bench_medians m;
    fill_values(pv, vv, n);
    memset(&ours, 0, sizeof ours);
    ours.pv = pv;
    ours.vv = vv;
    theirs = ours;
    /* room for the handles of either side (an ecs_sched_entity and an ecs_entity_t are both
       64-bit) */
    ours.ents = (ecs_entity_t *)xmalloc((size_t)n * sizeof *ours.ents);
    theirs.ents = (ecs_entity_t *)xmalloc((size_t)n * sizeof *theirs.ents);
    s.baseline = timed(fbench_spawn_side, &theirs);
    s.measured = timed(spawn_with_side, &ours);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d entities with Position and Velocity, their values given, into a fresh "
                "world (made and destroyed untimed) (ecs_sched_spawn_with; flecs: ecs_new, then "
                "ecs_set_id of each value)", n);
    }
    free(pv); free(vv); free(ours.ents); free(theirs.ents);
}
