/* schedule_rows.c: the scheduling rows of bench.c (included by it). */

#define SYSTEMS_MIN_SAMPLE_NS 2e6   /* a dispatch sample lasts at least this long */
#define MAX_SYSTEMS 1000

static volatile int32_t bench_counter;

static void empty_system(ecs_sched_system_ctx *ctx) {
    BENCH_CLOBBER(ctx);
}

/* What a plain C program does instead of a schedule: call each function pointer in turn. */
static void call_all(void (*const *fns)(ecs_sched_system_ctx *), int32_t n) {
    int32_t i;
    for (i = 0; i < n; i++) fns[i](NULL);
}

/* A world whose schedules run on the given executor; these rows use the single-threaded one,
   whose figures the parallel rows (parallel_rows.c) compare against. */
static ecs_sched_world *quiet_world_on(ecs_sched_executor executor, int32_t threads) {
    ecs_sched_world_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.executor = executor;
    desc.thread_count = threads;
    return ecs_sched_world_create(&desc);
}

static ecs_sched_world *quiet_world(void) {
    return quiet_world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 1);
}

static void quiet_log(ecs_sched_log_level level, ecs_sched_result result, const char *message, void *user_data) {
    (void)result;
    (void)level;
    (void)message;
    (void)user_data;
}

/* Frames per sample so that a sample of frames of `ns_per_frame` lasts min_sample_ns. */
static int32_t frames_for(double min_sample_ns, double ns_per_frame) {
    double frames = min_sample_ns / (ns_per_frame > 1 ? ns_per_frame : 1);
    return frames < 1 ? 1 : frames > 1e6 ? 1000000 : (int32_t)frames;
}

typedef void (*baseline_fn)(void *state);

/* The baseline side of a schedule row: a frame function called through its pointer, as a
   plain program calls its systems. */
typedef struct frame_calls {
    baseline_fn frame;
    void *state;
} frame_calls;

static int call_frames(bench_row *row, void *state, int32_t reps) {
    const frame_calls *calls = (const frame_calls *)state;
    baseline_fn frame = calls->frame;   /* in registers: nothing to reload between frames */
    void *arg = calls->state;
    int32_t f;
    (void)row;
    for (f = 0; f < reps; f++) frame(arg);
    return 1;
}

typedef struct schedule_runs {
    ecs_sched_world *world;
    const char *label;
} schedule_runs;

static int run_schedule_frames(bench_row *row, void *state, int32_t reps) {
    const schedule_runs *runs = (const schedule_runs *)state;
    ecs_sched_world *w = runs->world;
    const char *label = runs->label;
    int32_t f;
    int failures = 0;   /* results ORed together: one OR per frame, nothing worth timing */
    for (f = 0; f < reps; f++) failures |= (int)ecs_sched_run_schedule(w, label);
    if (failures) {
        fail(row, "run_schedule", w);
        return 0;
    }
    return 1;
}

/* Samples `frames` runs of the schedule against `frames` baseline frames, in turn, and takes
   the medians, in ns per frame divided by `per`, as the row's figures. */
static int sample_schedule(bench_row *row, ecs_sched_world *w, const char *label,
                           baseline_fn baseline, void *state, int32_t frames, double per) {
    schedule_runs runs;
    frame_calls calls;
    bench_sampling s = sampling(frames, per);
    bench_medians m;
    runs.world = w;
    runs.label = label;
    calls.frame = baseline;
    calls.state = state;
    s.baseline = looped(call_frames, &calls);
    s.measured = looped(run_schedule_frames, &runs);
    return sample_row(row, &s, &m);
}

/* Times runs of a schedule against plain loops over function pointers, interleaved; fills
   per-system figures. */
static int time_schedule(bench_row *row, ecs_sched_world *w, const char *label, int32_t systems,
                         baseline_fn baseline, void *state) {
    double t0, probe;
    int32_t frames, f;
    if (ecs_sched_run_schedule(w, label) != ECS_SCHED_OK) {  /* builds it */
        fail(row, "run_schedule", w);
        return 0;
    }
    t0 = now_ns();
    for (f = 0; f < 100; f++) ecs_sched_run_schedule(w, label);
    probe = (now_ns() - t0) / 100;
    frames = frames_for(SYSTEMS_MIN_SAMPLE_NS, probe);
    if (!sample_schedule(row, w, label, baseline, state, frames, systems)) return 0;
    appendf(row, "%d systems, %d frame(s) per sample", (int)systems, (int)frames);
    return 1;
}

typedef struct fn_table {
    void (*fns[MAX_SYSTEMS])(ecs_sched_system_ctx *);
    int32_t count;
} fn_table;

static void fn_table_baseline(void *state) {
    fn_table *t = (fn_table *)state;
    void (*const *fns)(ecs_sched_system_ctx *) = t->fns;
    BENCH_LAUNDER(fns);
    call_all(fns, t->count);
}

static void run_empty_systems(bench_row *row, int32_t n) {
    static fn_table table;
    ecs_sched_world *w = quiet_world();
    ecs_sched_system_desc desc;
    int32_t i;
    if (!w) { fail(row, "world creation", NULL); return; }
    memset(&desc, 0, sizeof desc);
    desc.name = "empty";
    desc.fn = empty_system;
    for (i = 0; i < n; i++) {
        table.fns[i] = empty_system;
        if (ecs_sched_add_system(w, "Update", &desc) != ECS_SCHED_OK) {
            fail(row, "add_system", w);
            ecs_sched_world_destroy(w);
            return;
        }
    }
    table.count = n;
    time_schedule(row, w, "Update", n, fn_table_baseline, &table);
    ecs_sched_world_destroy(w);
}

static void run_empty_systems_10(bench_row *row) { run_empty_systems(row, 10); }
static void run_empty_systems_100(bench_row *row) { run_empty_systems(row, 100); }
static void run_empty_systems_1000(bench_row *row) { run_empty_systems(row, 1000); }

/* ---- 1000 systems, each with a query on its own tag ---- */

static void count_matches(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    int32_t n = 0;
    while (ecs_sched_iter_next(&it)) n += it.count;
    bench_counter += n;
}

typedef struct raw_query_state {
    int32_t counts[MAX_SYSTEMS];
    void (*fns[MAX_SYSTEMS])(int32_t *);
} raw_query_state;

static void raw_count(int32_t *count) {
    bench_counter += *count;
}

static void raw_query_baseline(void *state) {
    raw_query_state *s = (raw_query_state *)state;
    int32_t i;
    for (i = 0; i < MAX_SYSTEMS; i++) s->fns[i](&s->counts[i]);
}

static void run_query_systems_1000(bench_row *row) {
    static raw_query_state raw;
    ecs_sched_world *w = quiet_world();
    ecs_sched_system_desc desc;
    int32_t i;
    if (!w) { fail(row, "world creation", NULL); return; }
    for (i = 0; i < MAX_SYSTEMS; i++) {
        char name[32];
        ecs_sched_id tag;
        snprintf(name, sizeof name, "Tag%d", (int)i);
        tag = ecs_sched_component_register_type(w, name, 0, 0);
        if (!tag || ecs_sched_spawn_with(w, 1, &tag, NULL) == ECS_SCHED_NULL_ENTITY) {
            fail(row, "tags", w);
            ecs_sched_world_destroy(w);
            return;
        }
        memset(&desc, 0, sizeof desc);
        desc.name = name;
        desc.fn = count_matches;
        desc.queries[0].terms[0] = ecs_sched_read(tag);
        if (ecs_sched_add_system(w, "Update", &desc) != ECS_SCHED_OK) {
            fail(row, "add_system", w);
            ecs_sched_world_destroy(w);
            return;
        }
        raw.counts[i] = 1;
        raw.fns[i] = raw_count;
    }
    bench_counter = 0;
    if (time_schedule(row, w, "Update", MAX_SYSTEMS, raw_query_baseline, &raw)) {
        appendf(row, "; baseline: a loop calling 1000 function pointers that each add a count; "
                     "the world has 1000 tags, one entity per tag, 1000 archetypes");
    }
    ecs_sched_world_destroy(w);
}

/* ---- run conditions: 1000 empty systems in groups of 5, one condition per group ---- */

static bool always_false(ecs_sched_system_ctx *ctx) {
    BENCH_CLOBBER(ctx);
    return false;
}

static bool always_true(ecs_sched_system_ctx *ctx) {
    BENCH_CLOBBER(ctx);
    return true;
}

typedef struct guarded_state {
    bool (*conditions[MAX_SYSTEMS / 5])(ecs_sched_system_ctx *);
    void (*fns[MAX_SYSTEMS])(ecs_sched_system_ctx *);
} guarded_state;

static void guarded_baseline(void *state) {
    guarded_state *s = (guarded_state *)state;
    int32_t g, i;
    for (g = 0; g < MAX_SYSTEMS / 5; g++) {
        if (!s->conditions[g](NULL)) continue;
        for (i = 0; i < 5; i++) s->fns[5 * g + i](NULL);
    }
}

/* MAX_SYSTEMS empty systems in "Update", in groups of 5 (ecs_sched_add_systems), each group
   gated by its own copy of `condition`; false (the row failed) when an add fails. */
static bool add_gated_groups(bench_row *row, ecs_sched_world *w,
                             const ecs_sched_condition *condition) {
    ecs_sched_system_desc systems[5];
    ecs_sched_systems_desc group;
    int32_t g, i;
    memset(systems, 0, sizeof systems);
    for (i = 0; i < 5; i++) {
        systems[i].name = "empty";
        systems[i].fn = empty_system;
    }
    for (g = 0; g < MAX_SYSTEMS / 5; g++) {
        memset(&group, 0, sizeof group);
        group.systems = systems;
        group.count = 5;
        group.run_if[0] = condition;
        if (ecs_sched_add_systems(w, "Update", &group) != ECS_SCHED_OK) {
            fail(row, "add_systems", w);
            return false;
        }
    }
    return true;
}

static void run_condition(bench_row *row, bool value) {
    static guarded_state raw;
    ecs_sched_world *w = quiet_world();
    ecs_sched_condition condition;
    int32_t g, i;
    if (!w) { fail(row, "world creation", NULL); return; }
    memset(&condition, 0, sizeof condition);
    condition.fn = value ? always_true : always_false;
    if (!add_gated_groups(row, w, &condition)) {
        ecs_sched_world_destroy(w);
        return;
    }
    for (g = 0; g < MAX_SYSTEMS / 5; g++) {
        raw.conditions[g] = value ? always_true : always_false;
        for (i = 0; i < 5; i++) raw.fns[5 * g + i] = empty_system;
    }
    if (time_schedule(row, w, "Update", MAX_SYSTEMS, guarded_baseline, &raw)) {
        appendf(row, "; 200 groups of 5 (ecs_sched_add_systems with a shared run_if), each "
                     "condition returning %s; baseline: the same conditions and calls in plain C",
                value ? "true" : "false");
    }
    ecs_sched_world_destroy(w);
}

static void run_condition_no_1000(bench_row *row) { run_condition(row, false); }
static void run_condition_yes_1000(bench_row *row) { run_condition(row, true); }

/* ---- building schedules ---- */

/* System i in set S_i, and every S_j before S_i for j < i. */
static ecs_sched_world *dense_schedule(int32_t n, bool constrained) {
    ecs_sched_world *w;
    ecs_sched_world_desc wd;
    static char names[MAX_SYSTEMS][16];
    int32_t i, j, k;
    memset(&wd, 0, sizeof wd);
    wd.logger.fn = quiet_log;
    wd.executor = ECS_SCHED_EXECUTOR_SINGLE_THREADED;   /* a plan without bound order */
    w = ecs_sched_world_create(&wd);
    if (!w) return NULL;
    for (i = 0; i < n; i++) snprintf(names[i], sizeof names[i], "S%d", (int)i);
    for (i = 0; i < n; i++) {
        ecs_sched_system_desc sd;
        memset(&sd, 0, sizeof sd);
        sd.name = "system";
        sd.fn = empty_system;
        if (constrained) sd.in_set[0] = names[i];
        if (ecs_sched_add_system(w, "Build", &sd) != ECS_SCHED_OK) return w;
        for (j = 0; constrained && j < i; j += ECS_SCHED_MAX_REFS) {
            ecs_sched_set_desc set;
            memset(&set, 0, sizeof set);
            set.name = names[i];
            for (k = 0; k < ECS_SCHED_MAX_REFS && j + k < i; k++) set.after[k] = names[j + k];
            if (ecs_sched_configure_set(w, "Build", &set) != ECS_SCHED_OK) return w;
        }
    }
    return w;
}

/* Builds of a schedule, each in a fresh world configured and destroyed untimed. */
typedef struct build_job {
    ecs_sched_world *(*make)(int32_t, bool);
    int32_t n;
    bool constrained;
} build_job;

static build_job build_of(ecs_sched_world *(*make)(int32_t, bool), int32_t n, bool constrained) {
    build_job job;
    job.make = make;
    job.n = n;
    job.constrained = constrained;
    return job;
}

static double build_side(bench_row *row, void *state) {
    const build_job *job = (const build_job *)state;
    ecs_sched_world *w = job->make(job->n, job->constrained);
    double t0, ns;
    ecs_sched_result result;
    if (!w) { fail(row, "world creation", NULL); return -1.0; }
    t0 = now_ns();
    result = ecs_sched_schedule_build(w, "Build");
    ns = now_ns() - t0;
    if (result != ECS_SCHED_OK) fail(row, "schedule_build", w);
    ecs_sched_world_destroy(w);
    return result == ECS_SCHED_OK ? ns : -1.0;
}

/* Milliseconds to build, median of 5 builds a side; all of measured first, then all of the
   baseline, each build from a fresh world. */
static int time_builds(bench_row *row, build_job measured, build_job baseline) {
    bench_sampling s = sampling(1, 1e6);
    bench_medians m;
    s.warmup = 0;
    s.samples = 5;
    s.interleaved = 0;
    s.measured = timed(build_side, &measured);
    s.baseline = timed(build_side, &baseline);
    return sample_row(row, &s, &m);
}

static void run_build_dense(bench_row *row, int32_t n, int32_t baseline_n) {
    build_job measured = build_of(dense_schedule, n, true);
    if (baseline_n > 0) {
        if (!time_builds(row, measured, build_of(dense_schedule, baseline_n, true))) return;
        appendf(row, "about %d edges; baseline: the same build with %d systems (about %d edges), "
                     "so the ratio shows the growth",
                (int)(n * (n - 1) / 2), (int)baseline_n, (int)(baseline_n * (baseline_n - 1) / 2));
    } else {
        if (!time_builds(row, measured, build_of(dense_schedule, n, false))) return;
        appendf(row, "about %d edges; baseline: %d systems without sets or ordering",
                (int)(n * (n - 1) / 2), (int)n);
    }
    appendf(row, "; median of 5 builds, ambiguity detection on");
}

static void run_build_schedule_100(bench_row *row) { run_build_dense(row, 100, 0); }
static void run_build_schedule_500(bench_row *row) { run_build_dense(row, 500, 100); }
static void run_build_schedule_1000(bench_row *row) { run_build_dense(row, 1000, 500); }

/* 1000 systems with random access to 64 components, no ordering. */
static ecs_sched_world *random_access_schedule(int32_t n, bool unused) {
    ecs_sched_world *w;
    ecs_sched_world_desc wd;
    ecs_sched_id ids[64];
    uint32_t seed = 12345u;
    int32_t i, t;
    (void)unused;
    memset(&wd, 0, sizeof wd);
    wd.logger.fn = quiet_log;
    wd.executor = ECS_SCHED_EXECUTOR_SINGLE_THREADED;   /* a plan without bound order */
    w = ecs_sched_world_create(&wd);
    if (!w) return NULL;
    for (i = 0; i < 64; i++) {
        char name[16];
        snprintf(name, sizeof name, "C%d", (int)i);
        ids[i] = ecs_sched_component_register_type(w, name, 4, 4);
    }
    for (i = 0; i < n; i++) {
        ecs_sched_system_desc sd;
        int32_t used = 0;
        memset(&sd, 0, sizeof sd);
        sd.name = "system";
        sd.fn = empty_system;
        for (t = 0; t < 4; t++) {
            ecs_sched_id id;
            int32_t k;
            seed = seed * 1664525u + 1013904223u;
            id = ids[(seed >> 8) % 64];
            for (k = 0; k < used && sd.queries[0].terms[k].id != id; k++) {}
            if (k < used) continue;
            sd.queries[0].terms[used++] = (seed >> 20) & 1 ? ecs_sched_write(id) : ecs_sched_read(id);
        }
        if (ecs_sched_add_system(w, "Build", &sd) != ECS_SCHED_OK) return w;
    }
    return w;
}

static void run_build_no_constraints(bench_row *row) {
    if (!time_builds(row, build_of(random_access_schedule, 1000, false),
                     build_of(dense_schedule, 1000, false)))
        return;
    appendf(row, "1000 systems, each a query of up to 4 random terms (read or write) over 64 "
                 "components; baseline: 1000 systems without access; median of 5 builds; the "
                 "ambiguities found are reported as a warning");
}
