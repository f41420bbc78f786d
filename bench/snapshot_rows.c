/* Snapshots: taking and restoring a snapshot of a world of 1M entities. Included by bench.c
   after the other world rows, whose helpers it uses. */

#define SNAPSHOT_COUNT 1000000

typedef struct snapshot_job {
    ecs_sched_world *world;
    ecs_sched_snapshot *kept;        /* retaken each sample */
    ecs_sched_id pos, vel;
    size_t bytes;                    /* what one snapshot holds */
    int restored;                    /* every restore returned OK */
} snapshot_job;

/* Timed: the kept snapshot retaken (its memory reused, as a rollback loop does every frame),
   and a restore from it. */
static double retake_side(bench_row *row, void *state) {
    snapshot_job *job = (snapshot_job *)state;
    double t0 = now_ns();
    if (ecs_sched_snapshot_retake(job->world, job->kept) != ECS_SCHED_OK) {
        fail(row, "ecs_sched_snapshot_retake", job->world);
        return -1.0;
    }
    if (ecs_sched_snapshot_restore(job->world, job->kept) != ECS_SCHED_OK) job->restored = 0;
    return job->restored ? now_ns() - t0 : -1.0;
}

/* Timed: a new snapshot of the world, a restore from it, and its free. */
static double snapshot_side(bench_row *row, void *state) {
    snapshot_job *job = (snapshot_job *)state;
    double t0 = now_ns(), ns;
    ecs_sched_snapshot *snap = ecs_sched_snapshot_take(job->world);
    if (!snap) {
        fail(row, "ecs_sched_snapshot_take", job->world);
        return -1.0;
    }
    if (ecs_sched_snapshot_restore(job->world, snap) != ECS_SCHED_OK) job->restored = 0;
    job->bytes = ecs_sched_snapshot_bytes(snap);
    ecs_sched_snapshot_free(snap);
    ns = now_ns() - t0;
    return job->restored ? ns : -1.0;
}

/* Timed: the same bytes copied out to a block and back (both blocks allocated and touched
   before, untimed): a copy and a restore at memory speed, with nothing allocated. */
static double memcpy_side(bench_row *row, void *state) {
    snapshot_job *job = (snapshot_job *)state;
    static unsigned char *world_bytes, *copy;
    double t0;
    (void)row;
    if (!world_bytes) {
        world_bytes = (unsigned char *)xmalloc(job->bytes);
        copy = (unsigned char *)xmalloc(job->bytes);
        memset(world_bytes, 1, job->bytes);
        memset(copy, 2, job->bytes);
    }
    t0 = now_ns();
    memcpy(copy, world_bytes, job->bytes);
    BENCH_CLOBBER(copy);
    memcpy(world_bytes, copy, job->bytes);
    BENCH_CLOBBER(world_bytes);
    return now_ns() - t0;
}

static void run_snapshot_restore_1m(bench_row *row) {
    snapshot_job job;
    bench_sampling s = sampling(1, 1e6);
    bench_medians m;
    ecs_sched_id ids[2];
    const void *arrays[2];
    Position *p = (Position *)xmalloc((size_t)SNAPSHOT_COUNT * sizeof *p);
    Velocity *v = (Velocity *)xmalloc((size_t)SNAPSHOT_COUNT * sizeof *v);
    double before, after;
    int32_t i;
    memset(&job, 0, sizeof job);
    job.restored = 1;
    job.world = make_world(NULL, &job.pos, &job.vel);
    if (!job.world) {
        fail(row, "world creation", NULL);
        goto done;
    }
    for (i = 0; i < SNAPSHOT_COUNT; i++) {
        p[i] = initial_position(i);
        v[i] = initial_velocity(i);
    }
    ids[0] = job.pos;
    ids[1] = job.vel;
    arrays[0] = p;
    arrays[1] = v;
    if (ecs_sched_spawn_batch(job.world, SNAPSHOT_COUNT, 2, ids, arrays, NULL) != ECS_SCHED_OK) {
        fail(row, "spawn_batch", job.world);
        goto done;
    }
    {
        ecs_sched_query *q = make_move_query(job.world, job.pos, job.vel);
        before = q ? query_checksum(q) : -1.0;
        if (snapshot_side(row, &job) < 0.0) goto done;   /* untimed: job.bytes for the baseline */
        job.kept = ecs_sched_snapshot_take(job.world);
        if (!job.kept) {
            fail(row, "ecs_sched_snapshot_take", job.world);
            goto done;
        }
        s.baseline = timed(memcpy_side, &job);
        s.measured = timed(retake_side, &job);
        s.extras[0] = timed(snapshot_side, &job);
        if (sample_row(row, &s, &m)) {
            after = q ? query_checksum(q) : -2.0;
            appendf(row, "%d entities with Position and Velocity; one sample: "
                         "ecs_sched_snapshot_retake of a kept snapshot, then _restore (%.1f MB "
                         "held: values, entity handles, the entity index); ms per 1M entities. "
                         "A new snapshot each time (take, restore, free) took %.3f ms (%.2fx the "
                         "baseline): most of it the allocator's fresh pages; values %s",
                    SNAPSHOT_COUNT, (double)job.bytes / 1e6, m.extras[0],
                    m.baseline > 0 ? m.extras[0] / m.baseline : 0.0,
                    before == after && ecs_sched_entity_count(job.world) == SNAPSHOT_COUNT
                        ? "unchanged by the restores" : "CHANGED: figure withheld");
            if (before != after) row->measured = 0;
        }
    }
done:
    ecs_sched_snapshot_free(job.kept);
    if (job.world) ecs_sched_world_destroy(job.world);
    free(p);
    free(v);
}
