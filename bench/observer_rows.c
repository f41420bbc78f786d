/* observer_rows.c: monitors, observers with a query and events that travel. Included by
   bench.c (-DBENCH_WITHOUT_OBSERVER_ROWS leaves them out, for a header without them). */

#define OBSERVER_ENTITIES 1000

static uint64_t observer_heard;

static void observer_count(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    (void)ctx;
    (void)t;
    observer_heard++;
}

typedef struct observer_job {
    ecs_sched_world *world;
    ecs_sched_id position, velocity, frozen;
    ecs_sched_entity entities[OBSERVER_ENTITIES];
} observer_job;

/* A world of OBSERVER_ENTITIES entities with Position. */
static int observer_job_make(bench_row *row, observer_job *job) {
    int32_t i;
    memset(job, 0, sizeof *job);
    job->world = ecs_sched_world_create(NULL);
    if (!job->world) {
        fail(row, "world creation", NULL);
        return 0;
    }
    job->position = ecs_sched_component_register_type(job->world, "Position", sizeof(Position),
                                                      sizeof(float));
    job->velocity = ecs_sched_component_register_type(job->world, "Velocity", sizeof(Velocity),
                                                      sizeof(float));
    job->frozen = ecs_sched_component_register_type(job->world, "Frozen", 0, 0);
    for (i = 0; i < OBSERVER_ENTITIES; i++) {
        job->entities[i] = ecs_sched_spawn_with(job->world, 1, &job->position, NULL);
    }
    return 1;
}

/* Each entity gains Velocity and loses it: two changes of whether it has both components. */
static int observer_toggle_frames(bench_row *row, void *state, int32_t reps) {
    observer_job *job = (observer_job *)state;
    int32_t r, i;
    for (r = 0; r < reps; r++) {
        for (i = 0; i < OBSERVER_ENTITIES; i++) {
            if (ecs_sched_insert(job->world, job->entities[i], job->velocity, NULL) != ECS_SCHED_OK ||
                ecs_sched_remove(job->world, job->entities[i], job->velocity) != ECS_SCHED_OK) {
                fail(row, "insert or remove", job->world);
                return 0;
            }
        }
    }
    return 1;
}

/* ---- monitor: ON_MATCH / ON_UNMATCH of "Position, Velocity" ---- */

/* The same by hand: ON_ADD and ON_REMOVE of Velocity, the function asking for Position. */
static void observer_by_hand(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    if (ecs_sched_has(w, t->entity, ecs_sched_component_lookup(w, "Position"))) observer_heard++;
}

static void run_monitor(bench_row *row) {
    observer_job *monitored = (observer_job *)xmalloc(sizeof *monitored);
    observer_job *by_hand = (observer_job *)xmalloc(sizeof *by_hand);
    bench_sampling s = sampling(10, 2.0 * OBSERVER_ENTITIES);
    bench_medians m;
    if (!observer_job_make(row, monitored) || !observer_job_make(row, by_hand)) goto done;
    if (!ecs_sched_observer_add(monitored->world, &(ecs_sched_observer_desc){
            .name = "on_match", .event = ECS_SCHED_ON_MATCH, .fn = observer_count,
            .query_text = "Position, Velocity"}) ||
        !ecs_sched_observer_add(monitored->world, &(ecs_sched_observer_desc){
            .name = "on_unmatch", .event = ECS_SCHED_ON_UNMATCH, .fn = observer_count,
            .query_text = "Position, Velocity"}) ||
        !ecs_sched_observer_add(by_hand->world, &(ecs_sched_observer_desc){
            .name = "added", .event = ECS_SCHED_ON_ADD, .component = by_hand->velocity,
            .fn = observer_by_hand}) ||
        !ecs_sched_observer_add(by_hand->world, &(ecs_sched_observer_desc){
            .name = "removed", .event = ECS_SCHED_ON_REMOVE, .component = by_hand->velocity,
            .fn = observer_by_hand})) {
        fail(row, "observer_add", monitored->world);
        goto done;
    }
    s.measured = looped(observer_toggle_frames, monitored);
    s.baseline = looped(observer_toggle_frames, by_hand);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d entities with Position each gain Velocity and lose it; ns per change of "
                     "match (each an insert or a remove)", OBSERVER_ENTITIES);
    }
done:
    if (monitored->world) ecs_sched_world_destroy(monitored->world);
    if (by_hand->world) ecs_sched_world_destroy(by_hand->world);
    free(monitored);
    free(by_hand);
}

/* ---- observer_query: ON_ADD of "Position, Velocity, !Frozen" against ON_ADD of Velocity ---- */

static void run_observer_query(bench_row *row) {
    observer_job *three = (observer_job *)xmalloc(sizeof *three);
    observer_job *one = (observer_job *)xmalloc(sizeof *one);
    bench_sampling s = sampling(10, 2.0 * OBSERVER_ENTITIES);
    bench_medians m;
    if (!observer_job_make(row, three) || !observer_job_make(row, one)) goto done;
    if (!ecs_sched_observer_add(three->world, &(ecs_sched_observer_desc){
            .name = "three", .event = ECS_SCHED_ON_ADD, .fn = observer_count,
            .query_text = "Position, Velocity, !Frozen"}) ||
        !ecs_sched_observer_add(one->world, &(ecs_sched_observer_desc){
            .name = "one", .event = ECS_SCHED_ON_ADD, .component = one->velocity,
            .fn = observer_count})) {
        fail(row, "observer_add", three->world);
        goto done;
    }
    s.measured = looped(observer_toggle_frames, three);
    s.baseline = looped(observer_toggle_frames, one);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d entities with Position each gain Velocity (heard) and lose it; ns per "
                     "insert or remove", OBSERVER_ENTITIES);
    }
done:
    if (three->world) ecs_sched_world_destroy(three->world);
    if (one->world) ecs_sched_world_destroy(one->world);
    free(three);
    free(one);
}

/* ---- event_propagate: an event from a leaf up through 8 ancestors ---- */

#define PROPAGATE_DEPTH 8
#define PROPAGATE_EVENTS 1000

typedef struct propagate_job {
    ecs_sched_world *world;
    ecs_sched_id event;
    ecs_sched_entity chain[PROPAGATE_DEPTH + 1];   /* chain[0] the root, the last the leaf */
} propagate_job;

static int emit_up_frames(bench_row *row, void *state, int32_t reps) {
    propagate_job *job = (propagate_job *)state;
    int32_t r, i;
    for (r = 0; r < reps; r++) {
        for (i = 0; i < PROPAGATE_EVENTS; i++) {
            if (ecs_sched_emit(job->world, &(ecs_sched_event_desc){
                    .event = job->event, .entity = job->chain[PROPAGATE_DEPTH],
                    .propagate = true}) != ECS_SCHED_OK) {
                fail(row, "ecs_sched_emit", job->world);
                return 0;
            }
        }
    }
    return 1;
}

/* The baseline: the same observer calls by sending the event to each entity of the chain. */
static int emit_each_frames(bench_row *row, void *state, int32_t reps) {
    propagate_job *job = (propagate_job *)state;
    int32_t r, i, k;
    for (r = 0; r < reps; r++) {
        for (i = 0; i < PROPAGATE_EVENTS; i++) {
            for (k = PROPAGATE_DEPTH; k >= 0; k--) {
                if (ecs_sched_emit(job->world, &(ecs_sched_event_desc){
                        .event = job->event, .entity = job->chain[k]}) != ECS_SCHED_OK) {
                    fail(row, "ecs_sched_emit", job->world);
                    return 0;
                }
            }
        }
    }
    return 1;
}

static void run_event_propagate(bench_row *row) {
    propagate_job job;
    bench_sampling s = sampling(10, PROPAGATE_EVENTS);
    bench_medians m;
    int32_t k;
    memset(&job, 0, sizeof job);
    job.world = ecs_sched_world_create(NULL);
    if (!job.world) {
        fail(row, "world creation", NULL);
        return;
    }
    job.event = ecs_sched_component_register_type(job.world, "Clicked", sizeof(int), sizeof(int));
    for (k = 0; k <= PROPAGATE_DEPTH; k++) {
        job.chain[k] = ecs_sched_spawn(job.world);
        if (k && ecs_sched_set_parent(job.world, job.chain[k], job.chain[k - 1]) != ECS_SCHED_OK) {
            fail(row, "set_parent", job.world);
            goto done;
        }
    }
    if (!ecs_sched_observer_add(job.world, &(ecs_sched_observer_desc){
            .name = "clicks", .event = ECS_SCHED_ON_EVENT, .component = job.event,
            .fn = observer_count})) {
        fail(row, "observer_add", job.world);
        goto done;
    }
    s.measured = looped(emit_up_frames, &job);
    s.baseline = looped(emit_each_frames, &job);
    if (sample_row(row, &s, &m)) {
        appendf(row, "an event sent to the leaf of a chain of %d entities travels to the root, "
                     "an observer of no entity hearing it at each; ns per event",
                PROPAGATE_DEPTH + 1);
    }
done:
    ecs_sched_world_destroy(job.world);
}
