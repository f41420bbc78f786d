/* State machine rows: the cost of a transition, and of in_state as a run condition.
   Included by bench.c after schedule_rows.c, whose helpers it uses. */

/* ---- state_transition ---- */

typedef struct transition_job {
    ecs_sched_world *world;
    ecs_sched_id machine;
    int32_t value;                    /* the value the machine is in */
    bool scheduled;                   /* applied by the apply system in a schedule run */
} transition_job;

/* reps transitions A -> B -> A ...: a value queued, then an apply (ecs_sched_state_apply, or
   a run of the schedule holding the apply system), which runs OnExit(old) and OnEnter(new),
   one empty system each. */
static int run_transitions(bench_row *row, void *state, int32_t reps) {
    transition_job *job = (transition_job *)state;
    int failures = 0;   /* results ORed together, as in run_schedule_frames */
    int32_t r;
    for (r = 0; r < reps; r++) {
        job->value = 1 - job->value;
        failures |= (int)ecs_sched_state_set(job->world, job->machine, job->value);
        failures |= (int)(job->scheduled ? ecs_sched_run_schedule(job->world, "StateTransition")
                                         : ecs_sched_state_apply(job->world, 0));
    }
    if (failures || ecs_sched_state_get(job->world, job->machine) != job->value) {
        fail(row, "a transition", job->world);
        return 0;
    }
    return 1;
}

/* reps pairs of runs of two schedules of one empty system each. */
static int run_two_schedules(bench_row *row, void *state, int32_t reps) {
    ecs_sched_world *w = (ecs_sched_world *)state;
    int failures = 0;
    int32_t r;
    for (r = 0; r < reps; r++) {
        failures |= (int)ecs_sched_run_schedule(w, "First");
        failures |= (int)ecs_sched_run_schedule(w, "Second");
    }
    if (failures) {
        fail(row, "run_schedule", w);
        return 0;
    }
    return 1;
}

static bool add_empty_system(ecs_sched_world *w, const char *schedule) {
    ecs_sched_system_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.name = "empty";
    desc.fn = empty_system;
    return schedule && ecs_sched_add_system(w, schedule, &desc) == ECS_SCHED_OK;
}

static void measure_state_transition(bench_row *row, bool scheduled) {
    static const int32_t reps = 20000;
    ecs_sched_world *measured = quiet_world(), *baseline = quiet_world();
    ecs_sched_system_desc apply = ecs_sched_state_transitions_system(0);
    ecs_sched_state_desc desc;
    transition_job job;
    bench_sampling s = sampling(reps, 1.0);
    bench_medians m;
    int32_t v;
    memset(&desc, 0, sizeof desc);
    desc.name = "Bench";
    desc.values[0] = "A";
    desc.values[1] = "B";
    memset(&job, 0, sizeof job);
    job.world = measured;
    job.scheduled = scheduled;
    if (!measured || !baseline) { fail(row, "world creation", NULL); goto done; }
    job.machine = ecs_sched_state_register(measured, &desc);
    if (!job.machine || ecs_sched_add_system(measured, "StateTransition", &apply) != ECS_SCHED_OK) {
        fail(row, "setup", measured);
        goto done;
    }
    for (v = 0; v < 2; v++) {
        if (!add_empty_system(measured, ecs_sched_on_exit(measured, job.machine, v)) ||
            !add_empty_system(measured, ecs_sched_on_enter(measured, job.machine, v))) {
            fail(row, "setup", measured);
            goto done;
        }
    }
    if (!add_empty_system(baseline, "First") || !add_empty_system(baseline, "Second") ||
        ecs_sched_run_schedule(measured, "StateTransition") != ECS_SCHED_OK) {   /* enters A */
        fail(row, "setup", baseline);
        goto done;
    }
    s.baseline = looped(run_two_schedules, baseline);
    s.measured = looped(run_transitions, &job);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d transitions a sample between two values, each ecs_sched_state_set then "
                     "%s; OnExit and OnEnter hold one empty system each; baseline: runs of two "
                     "schedules of one empty system each", (int)reps,
                scheduled ? "a run of the schedule holding the apply system (three schedule "
                            "runs in all)"
                          : "ecs_sched_state_apply");
    }
done:
    if (measured) ecs_sched_world_destroy(measured);
    if (baseline) ecs_sched_world_destroy(baseline);
}

static void run_state_transition(bench_row *row) {
    measure_state_transition(row, false);
}

static void run_state_transition_scheduled(bench_row *row) {
    measure_state_transition(row, true);
}

/* ---- in_state_condition ---- */

/* The run_condition_yes_1000 schedule, its groups gated by `condition` (or, given `machine`,
   by in_state of a machine made for it). */
static ecs_sched_world *gated_schedule(bench_row *row, const ecs_sched_condition *condition,
                                       ecs_sched_id *machine) {
    ecs_sched_world *w = quiet_world();
    ecs_sched_condition in_state;
    if (!w) { fail(row, "world creation", NULL); return NULL; }
    if (machine) {   /* a machine in its value 1, and in_state(machine, 1) as the condition */
        ecs_sched_state_desc desc;
        ecs_sched_system_desc apply = ecs_sched_state_transitions_system(0);
        memset(&desc, 0, sizeof desc);
        desc.name = "Bench";
        desc.values[0] = "Off";
        desc.values[1] = "On";
        desc.initial = 1;
        *machine = ecs_sched_state_register(w, &desc);
        if (!*machine || ecs_sched_add_system(w, "Enter", &apply) != ECS_SCHED_OK ||
            ecs_sched_run_schedule(w, "Enter") != ECS_SCHED_OK) {
            fail(row, "setup", w);
            ecs_sched_world_destroy(w);
            return NULL;
        }
        in_state = ecs_sched_condition_in_state(*machine, 1);
        condition = &in_state;
    }
    if (!add_gated_groups(row, w, condition)) {
        ecs_sched_world_destroy(w);
        return NULL;
    }
    return w;
}

static ecs_sched_result other_schedule_result;   /* the first failure of run_other_schedule */

static void run_other_schedule(void *state) {
    ecs_sched_result result = ecs_sched_run_schedule((ecs_sched_world *)state, "Update");
    if (result != ECS_SCHED_OK && other_schedule_result == ECS_SCHED_OK) {
        other_schedule_result = result;
    }
}

static void run_in_state_condition(bench_row *row) {
    ecs_sched_condition yes;
    ecs_sched_world *measured, *baseline;
    ecs_sched_id machine = 0;
    memset(&yes, 0, sizeof yes);
    yes.fn = always_true;
    measured = gated_schedule(row, NULL, &machine);
    baseline = gated_schedule(row, &yes, NULL);
    other_schedule_result = ECS_SCHED_OK;
    if (measured && baseline &&
        time_schedule(row, measured, "Update", MAX_SYSTEMS, run_other_schedule, baseline)) {
        if (other_schedule_result != ECS_SCHED_OK) {
            fail(row, "run_schedule (baseline world)", baseline);
        } else {
            appendf(row, "; 200 groups of 5, each gated by in_state(Bench::On), true; baseline: "
                         "the run_condition_yes_1000 schedule (a function condition returning "
                         "true), interleaved");
        }
    }
    if (measured) ecs_sched_world_destroy(measured);
    if (baseline) ecs_sched_world_destroy(baseline);
}
