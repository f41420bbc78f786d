/* JSON files: reading prefab data of 10k entities from a JSON string (ECS_SCHED_JSON only).
   Included by bench.c after the other world rows, whose helpers it uses. */

#ifdef ECS_SCHED_JSON
#include <cjson/cJSON.h>

#define JSON_ENTITIES 10000

typedef struct json_job {
    ecs_sched_world *world;
    char *text;
    int32_t loaded;                  /* entries of the last load */
} json_job;

/* 10k entities with Position, Velocity and Mass, every value different. */
static char *json_make_text(void) {
    size_t capacity = (size_t)JSON_ENTITIES * 128 + 64, used = 0;
    char *text = (char *)xmalloc(capacity);
    int32_t i;
    used += (size_t)snprintf(text + used, capacity - used, "{\"entities\": [");
    for (i = 0; i < JSON_ENTITIES; i++) {
        Position p = initial_position(i);
        Velocity v = initial_velocity(i);
        used += (size_t)snprintf(text + used, capacity - used,
                                 "%s{\"components\": {\"Position\": {\"x\": %g, \"y\": %g}, "
                                 "\"Velocity\": {\"x\": %g, \"y\": %g}, \"Mass\": {\"value\": %d}}}",
                                 i ? ", " : "", (double)p.x, (double)p.y, (double)v.x, (double)v.y,
                                 (int)(i % 50 + 1));
    }
    snprintf(text + used, capacity - used, "]}");
    return text;
}

static double json_load_side(bench_row *row, void *state) {
    json_job *job = (json_job *)state;
    double t0 = now_ns(), ns;
    ecs_sched_prefab_data *d = ecs_sched_prefab_data_from_json(job->world, job->text, NULL);
    ns = now_ns() - t0;
    if (!d) {
        fail(row, "ecs_sched_prefab_data_from_json", job->world);
        return -1.0;
    }
    job->loaded = ecs_sched_prefab_data_count(d);
    ecs_sched_prefab_data_free(d);
    return ns;
}

/* The baseline: cJSON's parse of the same text alone, what any reader of it pays. */
static double json_parse_side(bench_row *row, void *state) {
    json_job *job = (json_job *)state;
    double t0 = now_ns(), ns;
    cJSON *root = cJSON_Parse(job->text);
    ns = now_ns() - t0;
    if (!root) {
        fail(row, "cJSON_Parse", NULL);
        return -1.0;
    }
    cJSON_Delete(root);
    return ns;
}

static void run_json_load_10k(bench_row *row) {
    json_job job;
    bench_sampling s = sampling(1, (double)JSON_ENTITIES);
    bench_medians m;
    ecs_sched_id pos, vel, mass;
    ecs_sched_member pf[] = {ECS_SCHED_MEMBER(Position, x, ECS_SCHED_TYPE_F32),
                             ECS_SCHED_MEMBER(Position, y, ECS_SCHED_TYPE_F32)};
    ecs_sched_member vf[] = {ECS_SCHED_MEMBER(Velocity, x, ECS_SCHED_TYPE_F32),
                             ECS_SCHED_MEMBER(Velocity, y, ECS_SCHED_TYPE_F32)};
    ecs_sched_member mf[] = {ECS_SCHED_MEMBER(Mass, value, ECS_SCHED_TYPE_F32)};
    memset(&job, 0, sizeof job);
    job.world = make_world(NULL, &pos, &vel);
    if (!job.world || !(mass = ECS_SCHED_COMPONENT(job.world, Mass)) ||
        ecs_sched_describe(job.world, pos, 2, pf) != ECS_SCHED_OK ||
        ecs_sched_describe(job.world, vel, 2, vf) != ECS_SCHED_OK ||
        ecs_sched_describe(job.world, mass, 1, mf) != ECS_SCHED_OK) {
        fail(row, "world setup", job.world);
        goto done;
    }
    job.text = json_make_text();
    s.measured = timed(json_load_side, &job);
    s.baseline = timed(json_parse_side, &job);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d entities, each with Position, Velocity and Mass written as JSON objects "
                     "of their fields (%.1f kB of text); timed: ecs_sched_prefab_data_from_json "
                     "(cJSON parse, then each value read through its description); ns per "
                     "entity; %d entries read",
                JSON_ENTITIES, (double)strlen(job.text) / 1e3, (int)job.loaded);
        if (job.loaded != JSON_ENTITIES) row->measured = 0;
    }
done:
    free(job.text);
    if (job.world) ecs_sched_world_destroy(job.world);
}

#endif /* ECS_SCHED_JSON */
