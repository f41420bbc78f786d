/* failure_rows.c: what a failing system costs the schedule (included by bench.c, after
   schedule_rows.c, whose helpers it uses). */

/* ---- failing_system: 1000 empty systems, one of them failing, under CONTINUE ---- */

static void failing_system(ecs_sched_system_ctx *ctx) {
    ecs_sched_ctx_fail(ctx, ECS_SCHED_ERR_SYSTEM_FAILED, "failed on purpose");
}

/* 1000 empty systems in a world whose runs go on after a failure; the middle one fails when
   asked. Messages are dropped. */
static ecs_sched_world *continuing_world(bench_row *row, int one_fails) {
    ecs_sched_world_desc desc;
    ecs_sched_system_desc system;
    ecs_sched_world *w;
    int32_t i;
    memset(&desc, 0, sizeof desc);
    desc.executor = ECS_SCHED_EXECUTOR_SINGLE_THREADED;
    desc.thread_count = 1;
    desc.logger.fn = quiet_log;
    desc.on_error = ECS_SCHED_ON_ERROR_CONTINUE;
    w = ecs_sched_world_create(&desc);
    if (!w) { fail(row, "world creation", NULL); return NULL; }
    memset(&system, 0, sizeof system);
    system.name = "empty";
    for (i = 0; i < MAX_SYSTEMS; i++) {
        system.fn = one_fails && i == MAX_SYSTEMS / 2 ? failing_system : empty_system;
        if (ecs_sched_add_system(w, "Update", &system) != ECS_SCHED_OK) {
            fail(row, "add_system", w);
            ecs_sched_world_destroy(w);
            return NULL;
        }
    }
    return w;
}

static void run_update_of(void *state) {
    ecs_sched_run_schedule((ecs_sched_world *)state, "Update");
}

/* Runs of the failing schedule: each must return the failure, and nothing else. */
static int run_failing_frames(bench_row *row, void *state, int32_t reps) {
    ecs_sched_world *w = (ecs_sched_world *)state;
    int32_t f;
    int wrong = 0;
    for (f = 0; f < reps; f++) wrong |= ecs_sched_run_schedule(w, "Update") != ECS_SCHED_ERR_SYSTEM_FAILED;
    if (wrong) {
        fail(row, "a run did not return the failure", w);
        return 0;
    }
    return 1;
}

static void run_failing_system(bench_row *row) {
    ecs_sched_world *measured = continuing_world(row, 1), *baseline = continuing_world(row, 0);
    if (measured && baseline) {
        double t0, probe;
        int32_t f, frames;
        if (ecs_sched_run_schedule(measured, "Update") != ECS_SCHED_ERR_SYSTEM_FAILED ||
            ecs_sched_run_schedule(baseline, "Update") != ECS_SCHED_OK) {
            fail(row, "the runs do not fail as they should", measured);
        } else {
            t0 = now_ns();
            for (f = 0; f < 100; f++) ecs_sched_run_schedule(measured, "Update");
            probe = (now_ns() - t0) / 100;
            frames = frames_for(SYSTEMS_MIN_SAMPLE_NS, probe);
            frame_calls calls;
            bench_sampling sampled = sampling(frames, MAX_SYSTEMS);
            bench_medians m;
            calls.frame = run_update_of;
            calls.state = baseline;
            sampled.baseline = looped(call_frames, &calls);
            sampled.measured = looped(run_failing_frames, measured);
            if (sample_row(row, &sampled, &m)) {
                appendf(row, "%d systems, one failing (ecs_sched_ctx_fail), policy CONTINUE; "
                             "baseline: the same schedule with none failing, interleaved",
                        (int)MAX_SYSTEMS);
            }
        }
    }
    if (measured) ecs_sched_world_destroy(measured);
    if (baseline) ecs_sched_world_destroy(baseline);
}
