/* Spawn paths: into an archetype the caller knows, batches into recycled indices, and the
   first spawns into a fresh world. Included by bench.c after the spawn rows, whose helpers
   it uses. */

#ifdef __GLIBC__
#include <malloc.h>   /* malloc_trim */
#endif
#ifdef __unix__
#include <sys/resource.h>   /* getrusage: the pages a cold world touches */
#endif

typedef struct spawn_path_job {
    ecs_sched_world *world;
    ecs_sched_id pos, vel;
    const ecs_sched_archetype *archetype;
    const Position *pv;
    const Velocity *vv;
    ecs_sched_entity *ents;
    int known;                       /* spawn_in (else spawn_with) */
    long faults;                     /* cold worlds: page faults of the last one's spawns */
} spawn_path_job;

/* A warm world: SPAWN_COUNT entities spawned and despawned, so that indices are recycled and
   the table has its room. */
static int spawn_path_world(bench_row *row, spawn_path_job *job) {
    ecs_sched_id ids[2];
    const void *arrays[2];
    int32_t i;
    job->world = make_world(NULL, &job->pos, &job->vel);
    if (!job->world) {
        fail(row, "world creation", NULL);
        return 0;
    }
    ids[0] = job->pos;
    ids[1] = job->vel;
    arrays[0] = job->pv;
    arrays[1] = job->vv;
    if (ecs_sched_spawn_batch(job->world, SPAWN_COUNT, 2, ids, arrays, job->ents) != ECS_SCHED_OK) {
        fail(row, "ecs_sched_spawn_batch", job->world);
        return 0;
    }
    for (i = 0; i < SPAWN_COUNT; i++) ecs_sched_despawn(job->world, job->ents[i]);
    job->archetype = ecs_sched_archetype_get(job->world, 2, ids);
    if (!job->archetype) {
        fail(row, "ecs_sched_archetype_get", job->world);
        return 0;
    }
    return 1;
}

/* SPAWN_COUNT spawns of the job's values into w, by spawn_in or spawn_with: their ns, or -1
   (the row failed) when the entities are not there with their values. */
static double time_spawns(bench_row *row, const spawn_path_job *job, ecs_sched_world *w,
                          ecs_sched_id pos, ecs_sched_id vel) {
    ecs_sched_id ids[2];
    const void *values[2];
    double t0, ns;
    int32_t i;
    ids[0] = pos;
    ids[1] = vel;
    t0 = now_ns();
    if (job->known) {
        for (i = 0; i < SPAWN_COUNT; i++) {
            values[0] = &job->pv[i];
            values[1] = &job->vv[i];
            job->ents[i] = ecs_sched_spawn_in(w, job->archetype, values);
        }
    } else {
        for (i = 0; i < SPAWN_COUNT; i++) {
            values[0] = &job->pv[i];
            values[1] = &job->vv[i];
            job->ents[i] = ecs_sched_spawn_with(w, 2, ids, values);
        }
    }
    ns = now_ns() - t0;
    if (ecs_sched_entity_count(w) != SPAWN_COUNT ||
        !check_value(w, job->ents[SPAWN_COUNT / 3], pos, vel, SPAWN_COUNT / 3)) {
        fail(row, job->known ? "spawn_in" : "spawn_with", w);
        return -1.0;
    }
    return ns;
}

/* Timed: the spawns into the job's warm world; despawned again untimed. */
static double spawn_path_side(bench_row *row, void *state) {
    spawn_path_job *job = (spawn_path_job *)state;
    double ns = time_spawns(row, job, job->world, job->pos, job->vel);
    int32_t i;
    if (ns >= 0) {
        for (i = 0; i < SPAWN_COUNT; i++) ecs_sched_despawn(job->world, job->ents[i]);
    }
    return ns;
}

/* Two jobs on the same values, each with its own array of handles. */
static void spawn_path_jobs(spawn_path_job *a, spawn_path_job *b) {
    Position *pv = (Position *)xmalloc(SPAWN_COUNT * sizeof *pv);
    Velocity *vv = (Velocity *)xmalloc(SPAWN_COUNT * sizeof *vv);
    fill_values(pv, vv, SPAWN_COUNT);
    memset(a, 0, sizeof *a);
    memset(b, 0, sizeof *b);
    a->pv = b->pv = pv;
    a->vv = b->vv = vv;
    a->ents = (ecs_sched_entity *)xmalloc(SPAWN_COUNT * sizeof *a->ents);
    b->ents = (ecs_sched_entity *)xmalloc(SPAWN_COUNT * sizeof *b->ents);
}

static void spawn_path_jobs_free(spawn_path_job *a, spawn_path_job *b) {
    if (a->world) ecs_sched_world_destroy(a->world);
    if (b->world) ecs_sched_world_destroy(b->world);
    free((void *)a->pv);
    free((void *)a->vv);
    free(a->ents);
    free(b->ents);
}

static void run_spawn_known_archetype(bench_row *row) {
    spawn_path_job with, known;
    bench_sampling s = sampling(1, SPAWN_COUNT);
    bench_medians m;
    spawn_path_jobs(&with, &known);
    known.known = 1;
    if (spawn_path_world(row, &with) && spawn_path_world(row, &known)) {
        s.baseline = timed(spawn_path_side, &with);
        s.measured = timed(spawn_path_side, &known);
        if (sample_row(row, &s, &m)) {
            appendf(row, "%d spawns with Position and Velocity into a warm world (indices "
                         "recycled, the table's room there): ecs_sched_spawn_in with an "
                         "archetype got once, against ecs_sched_spawn_with; values checked",
                    SPAWN_COUNT);
        }
    }
    spawn_path_jobs_free(&with, &known);
}

/* ---- spawn_batch_recycled ---- */

typedef struct recycled_job {
    const Position *pv;
    const Velocity *vv;
    ecs_sched_entity *ents;
    int recycled;                    /* into a world whose indices are all free to reuse */
} recycled_job;

/* One ecs_sched_spawn_batch of SPAWN_COUNT with values, handles not requested, into a world
   whose indices are all recycled, or (the baseline) fresh; the table has its room either
   way. */
static double recycled_side(bench_row *row, void *state) {
    const recycled_job *job = (const recycled_job *)state;
    ecs_sched_world *world;
    ecs_sched_id pos, vel, ids[2];
    const void *arrays[2];
    double t0, ns = -1.0;
    int32_t i;
    ecs_sched_world_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.entity_capacity = 2 * SPAWN_COUNT + 1;   /* no growth of the index while timed */
    world = ecs_sched_world_create(&desc);
    if (!world) { fail(row, "world creation", NULL); return -1.0; }
    pos = ECS_SCHED_COMPONENT(world, Position);
    vel = ECS_SCHED_COMPONENT(world, Velocity);
    ids[0] = pos; ids[1] = vel;
    arrays[0] = job->pv; arrays[1] = job->vv;
    /* both sides: the table's room made by a batch of SPAWN_COUNT, all despawned; the
       baseline's batch is then spawned past a second, live, batch, so that its indices are
       fresh (the free ones taken by the live batch first) */
    if (ecs_sched_spawn_batch(world, SPAWN_COUNT, 2, ids, arrays, job->ents) != ECS_SCHED_OK) {
        fail(row, "ecs_sched_spawn_batch (warm-up)", world);
        goto done;
    }
    for (i = 0; i < SPAWN_COUNT; i++) ecs_sched_despawn(world, job->ents[i]);
    if (!job->recycled &&
        ecs_sched_spawn_batch(world, SPAWN_COUNT, 1, &vel, &arrays[1], NULL) != ECS_SCHED_OK) {
        fail(row, "ecs_sched_spawn_batch (taking the free indices)", world);
        goto done;
    }
    t0 = now_ns();
    if (ecs_sched_spawn_batch(world, SPAWN_COUNT, 2, ids, arrays, NULL) != ECS_SCHED_OK) {
        fail(row, "ecs_sched_spawn_batch", world);
        goto done;
    }
    ns = now_ns() - t0;
    if (ecs_sched_entity_count(world) != (job->recycled ? 1 : 2) * SPAWN_COUNT) {
        fail(row, "the batch did not spawn the right entities", world);
        ns = -1.0;
    }
done:
    ecs_sched_world_destroy(world);
    return ns;
}

static void run_spawn_batch_recycled(bench_row *row) {
    Position *pv = (Position *)xmalloc(SPAWN_COUNT * sizeof *pv);
    Velocity *vv = (Velocity *)xmalloc(SPAWN_COUNT * sizeof *vv);
    ecs_sched_entity *ents = (ecs_sched_entity *)xmalloc(SPAWN_COUNT * sizeof *ents);
    recycled_job fresh, recycled;
    bench_sampling s = sampling(1, SPAWN_COUNT);
    bench_medians m;
    fill_values(pv, vv, SPAWN_COUNT);
    fresh.pv = recycled.pv = pv;
    fresh.vv = recycled.vv = vv;
    fresh.ents = recycled.ents = ents;
    fresh.recycled = 0;
    recycled.recycled = 1;
    s.baseline = timed(recycled_side, &fresh);
    s.measured = timed(recycled_side, &recycled);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d entities with Position and Velocity in one call, handles not "
                     "requested; both worlds made their table's room with a batch of as many, "
                     "despawned (in index order) untimed; the baseline's free indices were then "
                     "taken by a live batch of another archetype, so its batch gets fresh ones",
                SPAWN_COUNT);
    }
    free(pv); free(vv); free(ents);
}

/* ---- spawn_cold ---- */

/* Page faults of the process so far (0 where unknown). */
static long minor_faults(void) {
#ifdef __unix__
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) == 0) return usage.ru_minflt;
#endif
    return 0;
}

/* Timed: SPAWN_COUNT spawn_with into a world made just before (untimed): every page of its
   tables and entity index touched for the first time. */
static double cold_side(bench_row *row, void *state) {
    spawn_path_job *job = (spawn_path_job *)state;
    ecs_sched_world *w;
    ecs_sched_id ids[2];
    double ns;
#ifdef __GLIBC__
    /* the pages earlier worlds freed go back to the system, so that this world touches its
       memory for the first time, as a program's first spawns do */
    malloc_trim(0);
#endif
    w = make_world(NULL, &ids[0], &ids[1]);
    if (!w) {
        fail(row, "world creation", NULL);
        return -1.0;
    }
    job->faults = -minor_faults();
    ns = time_spawns(row, job, w, ids[0], ids[1]);
    job->faults += minor_faults();
    ecs_sched_world_destroy(w);
    return ns;
}

static void run_spawn_cold(bench_row *row) {
    spawn_path_job warm, cold;
    bench_sampling s = sampling(1, SPAWN_COUNT);
    bench_medians m;
    spawn_path_jobs(&warm, &cold);
    if (spawn_path_world(row, &warm)) {
        s.baseline = timed(spawn_path_side, &warm);
        s.measured = timed(cold_side, &cold);
        if (sample_row(row, &s, &m)) {
            appendf(row, "%d ecs_sched_spawn_with (Position, Velocity) into a world made just "
                         "before, untimed; the baseline spawns the same into a warm world "
                         "(indices recycled, the table's room there). A cold world's spawns "
                         "fault in %ld pages of 4 KiB (%.0f bytes per entity; the data itself: "
                         "16 bytes of values, 8 of handle, 12 of entity index)",
                    SPAWN_COUNT, cold.faults, (double)cold.faults * 4096.0 / SPAWN_COUNT);
        }
    }
    spawn_path_jobs_free(&warm, &cold);
}
