/* Bulk operations: ecs_sched_remove_all of one component from 1M entities, against
   ecs_sched_remove of it from each. Included by bench.c. */

#define REMOVE_ALL_COUNT 1000000

typedef struct remove_all_job {
    const Position *pv;
    const Velocity *vv;
    ecs_sched_entity *ents;
} remove_all_job;

/* A fresh world with the row's entities (Position and Velocity), made untimed. */
static ecs_sched_world *remove_all_world(bench_row *row, const remove_all_job *job,
                                         ecs_sched_id *pos, ecs_sched_id *vel) {
    ecs_sched_world *world = make_world(NULL, pos, vel);
    ecs_sched_id ids[2];
    const void *arrays[2];
    if (!world) { fail(row, "world creation", NULL); return NULL; }
    ids[0] = *pos; ids[1] = *vel;
    arrays[0] = job->pv; arrays[1] = job->vv;
    if (ecs_sched_spawn_batch(world, REMOVE_ALL_COUNT, 2, ids, arrays, job->ents) != ECS_SCHED_OK) {
        fail(row, "ecs_sched_spawn_batch", world);
        ecs_sched_world_destroy(world);
        return NULL;
    }
    return world;
}

/* Every entity kept its Position and none has a Velocity (checked untimed). */
static int remove_all_checked(bench_row *row, ecs_sched_world *world, ecs_sched_id pos,
                              ecs_sched_id vel) {
    ecs_sched_query_desc desc;
    ecs_sched_query *positions, *velocities;
    int ok;
    memset(&desc, 0, sizeof desc);
    desc.terms[0] = ecs_sched_read(pos);
    positions = ecs_sched_query_create(world, &desc);
    desc.terms[0] = ecs_sched_read(vel);
    velocities = ecs_sched_query_create(world, &desc);
    ok = positions && velocities && ecs_sched_query_count(velocities) == 0 &&
         ecs_sched_query_count(positions) == REMOVE_ALL_COUNT &&
         query_checksum(positions) == expected_checksum(REMOVE_ALL_COUNT, 0.0) &&
         ecs_sched_entity_count(world) == REMOVE_ALL_COUNT;
    if (!ok) fail(row, "the removal left the wrong entities or values", world);
    return ok;
}

/* ecs_sched_remove_all of Velocity. */
static double remove_all_side(bench_row *row, void *state) {
    const remove_all_job *job = (const remove_all_job *)state;
    ecs_sched_id pos, vel;
    ecs_sched_world *world = remove_all_world(row, job, &pos, &vel);
    double t0, ns;
    if (!world) return -1.0;
    t0 = now_ns();
    if (ecs_sched_remove_all(world, vel) != ECS_SCHED_OK) {
        fail(row, "ecs_sched_remove_all", world);
        ecs_sched_world_destroy(world);
        return -1.0;
    }
    ns = now_ns() - t0;
    if (!remove_all_checked(row, world, pos, vel)) ns = -1.0;
    ecs_sched_world_destroy(world);
    return ns;
}

/* ecs_sched_remove of Velocity from each entity, in the order they were spawned. */
static double remove_each_side(bench_row *row, void *state) {
    const remove_all_job *job = (const remove_all_job *)state;
    ecs_sched_id pos, vel;
    ecs_sched_world *world = remove_all_world(row, job, &pos, &vel);
    double t0, ns;
    int32_t i;
    if (!world) return -1.0;
    t0 = now_ns();
    for (i = 0; i < REMOVE_ALL_COUNT; i++) {
        if (ecs_sched_remove(world, job->ents[i], vel) != ECS_SCHED_OK) {
            fail(row, "ecs_sched_remove", world);
            ecs_sched_world_destroy(world);
            return -1.0;
        }
    }
    ns = now_ns() - t0;
    if (!remove_all_checked(row, world, pos, vel)) ns = -1.0;
    ecs_sched_world_destroy(world);
    return ns;
}

static void run_remove_all_1m(bench_row *row) {
    const int32_t n = REMOVE_ALL_COUNT;
    Position *pv = (Position *)xmalloc((size_t)n * sizeof *pv);
    Velocity *vv = (Velocity *)xmalloc((size_t)n * sizeof *vv);
    ecs_sched_entity *ents = (ecs_sched_entity *)xmalloc((size_t)n * sizeof *ents);
    remove_all_job job;
    bench_sampling s = sampling(1, 1e6);
    bench_medians m;
    fill_values(pv, vv, n);
    job.pv = pv;
    job.vv = vv;
    job.ents = ents;
    s.baseline = timed(remove_each_side, &job);
    s.measured = timed(remove_all_side, &job);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d entities with Position and Velocity in one table lose Velocity; a "
                "fresh world per sample (spawned, checked and destroyed untimed)", n);
    }
    free(pv); free(vv); free(ents);
}
