/* query_rows.c: rows of queries written as text. Included by bench.c (-DBENCH_WITHOUT_QUERY_ROWS
   leaves them out, for a header without them). */

/* ---- query_parse: a 6-term query read from text ---- */

#define QUERY_PARSES 1000

static const char *const query_parse_text =
    "Position, [in] Velocity, ?Health, !Frozen, [in] Game:Settings, [in] $Clock";

typedef struct query_parse_job {
    ecs_sched_world *world;
    ecs_sched_query_desc desc;
} query_parse_job;

static int query_parse_frames(bench_row *row, void *state, int32_t reps) {
    query_parse_job *job = (query_parse_job *)state;
    int32_t r, i;
    for (r = 0; r < reps; r++) {
        for (i = 0; i < QUERY_PARSES; i++) {
            if (ecs_sched_query_parse(job->world, query_parse_text, &job->desc) != ECS_SCHED_OK) {
                fail(row, "ecs_sched_query_parse failed", job->world);
                return 0;
            }
        }
    }
    BENCH_CLOBBER(&job->desc);
    return 1;
}

/* The baseline: making (and destroying) the query the text describes, from its terms. */
static int query_create_frames(bench_row *row, void *state, int32_t reps) {
    query_parse_job *job = (query_parse_job *)state;
    int32_t r, i;
    for (r = 0; r < reps; r++) {
        for (i = 0; i < QUERY_PARSES; i++) {
            ecs_sched_query *q = ecs_sched_query_create(job->world, &job->desc);
            if (!q) {
                fail(row, "ecs_sched_query_create failed", job->world);
                return 0;
            }
            ecs_sched_query_destroy(q);
        }
    }
    return 1;
}

static void run_query_parse(bench_row *row) {
    query_parse_job job;
    bench_sampling s = sampling(5, QUERY_PARSES * 1000.0);   /* us per parse */
    bench_medians m;
    ecs_sched_id ids[6];
    int32_t i;
    memset(&job, 0, sizeof job);
    job.world = ecs_sched_world_create(NULL);
    if (!job.world) {
        fail(row, "world creation", NULL);
        return;
    }
    ids[0] = ecs_sched_component_register_type(job.world, "Position", 8, 4);
    ids[1] = ecs_sched_component_register_type(job.world, "Velocity", 8, 4);
    ids[2] = ecs_sched_component_register_type(job.world, "Health", 4, 4);
    ids[3] = ecs_sched_component_register_type(job.world, "Frozen", 0, 0);
    ids[4] = ecs_sched_component_register_type(job.world, "Settings", 16, 4);
    ids[5] = ecs_sched_component_register_type(job.world, "Clock", 8, 8);
    for (i = 0; i < 40; i++) {   /* a world with components of its own besides */
        char name[32];
        snprintf(name, sizeof name, "Other%d", (int)i);
        (void)ecs_sched_component_register_type(job.world, name, 4, 4);
    }
    {
        ecs_sched_entity game = ecs_sched_spawn_with(job.world, 1, &ids[4], NULL);
        if (!game || ecs_sched_set_name(job.world, game, "Game") != ECS_SCHED_OK) {
            fail(row, "setting up the world", job.world);
            ecs_sched_world_destroy(job.world);
            return;
        }
    }
    for (i = 0; i < 1000; i++) {   /* tables for query_create to match */
        ecs_sched_id two[2];
        two[0] = ids[0];
        two[1] = ecs_sched_component_lookup(job.world, i % 2 ? "Velocity" : "Health");
        (void)ecs_sched_spawn_with(job.world, 1 + (i % 3 == 0), two, NULL);
    }
    if (ecs_sched_query_parse(job.world, query_parse_text, &job.desc) != ECS_SCHED_OK) {
        fail(row, "ecs_sched_query_parse failed", job.world);
        ecs_sched_world_destroy(job.world);
        return;
    }
    s.measured = looped(query_parse_frames, &job);
    s.baseline = looped(query_create_frames, &job);
    if (sample_row(row, &s, &m)) {
        appendf(row, "ecs_sched_query_parse of \"%s\" in a world of 46 components; us per parse",
                query_parse_text);
    }
    ecs_sched_world_destroy(job.world);
}
