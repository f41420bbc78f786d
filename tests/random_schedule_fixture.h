/* random_schedule_fixture.h: random schedules, the worlds that run them, and the checks of
   what happened. Include it after ecs_sched.h (with its implementation), cmocka.h and
   fixture.h, in a file that defines _POSIX_C_SOURCE (for clock_gettime).

   draw_schedule describes a schedule independently of any world: systems with random access
   (components and resources, read or written), random edges and sets, run conditions on
   systems and sets, command buffers that spawn, despawn, insert and remove, exclusive systems
   and explicit sync points. fixture_init builds it in a world on a given executor. Each system
   records when it starts and ends on one global clock, so that check_frame can check every rule
   afterwards against what actually happened; take_snapshot reads a world out byte for byte, so
   that two worlds can be compared. Static inline, so that a test file may leave some unused. */
#ifndef RANDOM_SCHEDULE_FIXTURE_H
#define RANDOM_SCHEDULE_FIXTURE_H

#include <time.h>

#define MAX_SYSTEMS 40
#define MAX_CONDS (MAX_SYSTEMS + 4)
#define COMPONENTS 6
#define RESOURCES 4
#define SETS 4
#define ENTITY_LIMIT 400

/* ---- small tools ---- */

static inline uint64_t next_random(uint64_t *state) {
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

static inline int random_below(uint64_t *state, int n) {
    return (int)(next_random(state) % (uint64_t)n);
}

static inline bool chance(uint64_t *state, int percent) {
    return random_below(state, 100) < percent;
}

static int64_t g_clock;   /* one tick per recorded event, in a single total order */

static inline int64_t tick(void) {
    return __atomic_add_fetch(&g_clock, 1, __ATOMIC_SEQ_CST);
}

static inline double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Keeps the thread busy for a while, so that systems allowed to overlap do overlap. */
static inline void burn(double seconds) {
    double until = now_seconds() + seconds;
    while (now_seconds() < until) {
    }
}

/* ---- a random schedule, described independently of any world ---- */

typedef enum system_kind { KIND_QUERY, KIND_EXCLUSIVE, KIND_SYNC } system_kind;

typedef enum cond_kind { COND_RESOURCE_BIT, COND_QUERY_COUNT, COND_RUN_ONCE } cond_kind;

typedef struct cond_spec {
    cond_kind kind;
    int resource;          /* COND_RESOURCE_BIT: which resource it reads */
    int component;         /* COND_QUERY_COUNT: which component it counts */
    int bit;
} cond_spec;

typedef struct system_spec {
    char name[16];
    system_kind kind;
    unsigned reads, writes;            /* components, a bit each */
    unsigned res_reads, res_writes;    /* resources, a bit each */
    bool commands;
    bool main_thread;                  /* asks to run on the thread running the schedule */
    int lane;                          /* -1: none; 1: its query requires the Marked tag,
                                          0: excludes it (lanes 0 and 1 are disjoint) */
    int set;                           /* -1: none */
    int cond;                          /* index into conds, -1: none */
    int after[ECS_SCHED_MAX_REFS];     /* systems it runs after */
    bool after_ignore_deferred[ECS_SCHED_MAX_REFS];
    int after_count;
} system_spec;

typedef struct schedule_spec {
    uint64_t seed;
    int system_count;
    system_spec systems[MAX_SYSTEMS];
    int cond_count;
    cond_spec conds[MAX_CONDS];
    int set_cond[SETS];                /* index into conds, -1: none */
    bool chained_sets;
    uint64_t shuffle_seed;
} schedule_spec;

static const char *const set_names[SETS] = {"SetA", "SetB", "SetC", "SetD"};

static inline int add_cond(schedule_spec *spec, uint64_t *rng) {
    cond_spec *c = &spec->conds[spec->cond_count];
    int roll = random_below(rng, 10);
    c->kind = roll < 6 ? COND_RESOURCE_BIT : roll < 9 ? COND_QUERY_COUNT : COND_RUN_ONCE;
    c->resource = random_below(rng, RESOURCES);
    c->component = random_below(rng, COMPONENTS);
    c->bit = random_below(rng, 3);
    return spec->cond_count++;
}

static inline void draw_access(system_spec *s, uint64_t *rng) {
    int c;
    for (c = 0; c < COMPONENTS; c++) {
        int roll = random_below(rng, 10);
        if (roll < 2) s->writes |= 1u << c;
        else if (roll < 4) s->reads |= 1u << c;
    }
    if (!s->reads && !s->writes) s->writes = 1u << random_below(rng, COMPONENTS);
    for (c = 0; c < RESOURCES; c++) {
        int roll = random_below(rng, 10);
        if (roll < 1) s->res_writes |= 1u << c;
        else if (roll < 3) s->res_reads |= 1u << c;
    }
}

/* Edges only go from a lower to a higher index and sets cover ranges of indices in their
   order, so no drawn schedule has a cycle. */
static inline void draw_schedule(schedule_spec *spec, uint64_t seed, int system_count) {
    uint64_t rng = seed * 0x9E3779B97F4A7C15ull + 1;
    int i, k;
    memset(spec, 0, sizeof *spec);
    spec->seed = seed;
    spec->system_count = system_count;
    for (k = 0; k < SETS; k++) spec->set_cond[k] = chance(&rng, 40) ? add_cond(spec, &rng) : -1;
    spec->chained_sets = chance(&rng, 50);
    spec->shuffle_seed = chance(&rng, 50) ? next_random(&rng) : 0;
    for (i = 0; i < system_count; i++) {
        system_spec *s = &spec->systems[i];
        int roll = random_below(&rng, 100);
        snprintf(s->name, sizeof s->name, "s%02d", i);
        s->kind = roll < 4 ? KIND_EXCLUSIVE : roll < 7 ? KIND_SYNC : KIND_QUERY;
        s->set = chance(&rng, 60) ? i * SETS / system_count : -1;
        s->cond = -1;
        s->lane = -1;
        if (s->kind == KIND_QUERY) {
            int lane_roll;
            draw_access(s, &rng);
            s->commands = chance(&rng, 30);
            if (chance(&rng, 25)) s->cond = add_cond(spec, &rng);
            lane_roll = random_below(&rng, 10);
            s->lane = lane_roll < 3 ? 1 : lane_roll < 6 ? 0 : -1;
            s->main_thread = chance(&rng, 15);
        }
        for (k = 0; k < i && s->after_count < ECS_SCHED_MAX_REFS; k++) {
            if (chance(&rng, 6)) {
                s->after_ignore_deferred[s->after_count] = chance(&rng, 30);
                s->after[s->after_count++] = k;
            }
        }
    }
}

/* ---- a world running a drawn schedule ---- */

typedef struct { uint32_t v; } Value;   /* every component and resource of these worlds */

typedef struct event {
    int64_t start, end;
    int runs;
    bool result;           /* conditions: what the evaluation returned */
    bool off_main;         /* ran on another thread than the one running the schedule */
} event;

typedef struct fixture fixture;

typedef struct system_instance {
    fixture *fx;
    int index;
} system_instance;

struct fixture {
    const schedule_spec *spec;
    ecs_sched_world *world;
    ecs_sched_id components[COMPONENTS];
    ecs_sched_id marked;                        /* a tag on half the starting population */
    ecs_sched_pool *pool;                       /* parallel worlds: where systems run */
    ecs_sched_id resources[RESOURCES];
    ecs_sched_query *by_component[COMPONENTS];  /* for reading the world out */
    system_instance systems[MAX_SYSTEMS];
    system_instance conds[MAX_CONDS];
    event system_events[MAX_SYSTEMS];
    event cond_events[MAX_CONDS];
    double busy_seconds;                        /* each system burns this long */
    int plan_position[MAX_SYSTEMS];             /* -1: not in the plan by name */
    int64_t violations;                         /* anything a system saw that it must not */
    int run_once_frame[MAX_CONDS];              /* the frame a run_once first held, or -1 */
};

static inline void record_start(event *e) {
    e->start = tick();
    e->runs++;
}

static inline void record_end(event *e) {
    e->end = tick();
}

static inline void note_thread(const fixture *fx, event *e) {
    e->off_main = fx->pool && ecs_sched_pool_worker_index(fx->pool) != 0;
}

/* Folds what a system may read into a number; writes the components it may write. Every
   system with the same inputs leaves the same outputs, whichever thread runs it. */
static inline uint32_t work_on_query(ecs_sched_system_ctx *ctx, const system_spec *s,
                                     uint32_t acc, const int *term_component, int term_count) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        int32_t row;
        for (row = 0; row < it.count; row++) {
            uint32_t x = acc;
            int t;
            for (t = 0; t < term_count; t++) {
                Value *field = ECS_SCHED_FIELD(&it, Value, t);
                if (field && (s->reads >> term_component[t] & 1u)) x = x * 31u + field[row].v;
            }
            for (t = 0; t < term_count; t++) {
                Value *field = ECS_SCHED_FIELD(&it, Value, t);
                if (field && (s->writes >> term_component[t] & 1u)) {
                    field[row].v = field[row].v * 1664525u + x + (uint32_t)term_component[t];
                }
            }
            acc = acc * 7u + x;
        }
    }
    return acc;
}

/* The components of a system's query, in term order: writes first, then reads. */
static inline int query_terms(const system_spec *s, int *term_component) {
    int c, n = 0;
    for (c = 0; c < COMPONENTS; c++) if (s->writes >> c & 1u) term_component[n++] = c;
    for (c = 0; c < COMPONENTS; c++) if (s->reads >> c & 1u) term_component[n++] = c;
    return n;
}

/* Records structural changes that depend on what the system saw. */
static inline void record_commands(ecs_sched_system_ctx *ctx, fixture *fx, uint32_t acc) {
    ecs_sched_commands *cmd = ecs_sched_ctx_commands(ctx);
    ecs_sched_query *q = ecs_sched_ctx_query(ctx, 0);
    ecs_sched_iter it;
    int32_t seen = 0;
    if (!cmd || !q) {
        fx->violations++;
        return;
    }
    if (ecs_sched_query_count(q) < ENTITY_LIMIT / 4) {
        ecs_sched_id ids[2];
        Value values[2];
        const void *ptrs[2];
        ids[0] = fx->components[acc % COMPONENTS];
        ids[1] = fx->components[(acc / 7) % COMPONENTS];
        values[0].v = acc;
        values[1].v = acc >> 3;
        ptrs[0] = &values[0];
        ptrs[1] = &values[1];
        if (ecs_sched_commands_spawn_with(cmd, ids[0] == ids[1] ? 1 : 2, ids, ptrs) ==
            ECS_SCHED_NULL_ENTITY) {
            fx->violations++;
        }
    }
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        int32_t row;
        for (row = 0; row < it.count; row++, seen++) {
            ecs_sched_entity e = it.entities[row];
            uint32_t roll = (acc ^ (uint32_t)seen * 2654435761u) % 16u;
            Value v;
            v.v = acc + (uint32_t)seen;
            if (roll == 0) ecs_sched_commands_despawn(cmd, e);
            else if (roll == 1) ecs_sched_commands_insert(cmd, e, fx->components[(acc + (uint32_t)seen) % COMPONENTS], &v);
            else if (roll == 2) ecs_sched_commands_remove(cmd, e, fx->components[(acc >> 5) % COMPONENTS]);
        }
    }
    if (acc % 5 == 0) {
        Value r;
        r.v = acc;
        ecs_sched_commands_set_resource(cmd, fx->resources[acc % RESOURCES], &r);
    }
}

static inline void query_system(ecs_sched_system_ctx *ctx) {
    system_instance *self = (system_instance *)ecs_sched_ctx_user_data(ctx);
    fixture *fx = self->fx;
    const system_spec *s = &fx->spec->systems[self->index];
    event *e = &fx->system_events[self->index];
    int term_component[COMPONENTS], term_count = query_terms(s, term_component), r;
    uint32_t acc = 2166136261u + (uint32_t)self->index;
    record_start(e);
    note_thread(fx, e);
    for (r = 0; r < RESOURCES; r++) {
        if ((s->res_reads | s->res_writes) >> r & 1u) {
            const Value *value = (const Value *)ecs_sched_ctx_resource(ctx, fx->resources[r]);
            if (!value) fx->violations++;
            else acc = acc * 131u + value->v;
        }
    }
    acc = work_on_query(ctx, s, acc, term_component, term_count);
    for (r = 0; r < RESOURCES; r++) {
        if (s->res_writes >> r & 1u) {
            Value *value = (Value *)ecs_sched_ctx_resource_mut(ctx, fx->resources[r]);
            if (!value) fx->violations++;
            else value->v = value->v * 13u + acc;
        }
    }
    if (s->commands) record_commands(ctx, fx, acc);
    if (fx->busy_seconds > 0) burn(fx->busy_seconds);
    record_end(e);
}

/* Changes the world directly: a resource, a spawn, and despawns of what it finds. */
static inline void exclusive_system(ecs_sched_system_ctx *ctx) {
    system_instance *self = (system_instance *)ecs_sched_ctx_user_data(ctx);
    fixture *fx = self->fx;
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    event *e = &fx->system_events[self->index];
    ecs_sched_entity doomed[8];
    int doomed_count = 0, i;
    Value *r;
    ecs_sched_iter it;
    record_start(e);
    if (!w) {
        fx->violations++;
        record_end(e);
        return;
    }
    r = (Value *)ecs_sched_resource_get_mut(w, fx->resources[self->index % RESOURCES]);
    if (r) r->v = r->v * 3u + (uint32_t)self->index;
    it = ecs_sched_query_iter(fx->by_component[self->index % COMPONENTS]);
    while (ecs_sched_iter_next(&it) && doomed_count < 8) {
        int32_t row;
        for (row = 0; row < it.count && doomed_count < 8; row++) {
            if (ECS_SCHED_FIELD(&it, Value, 0)[row].v % 7u == 3u) doomed[doomed_count++] = it.entities[row];
        }
    }
    for (i = 0; i < doomed_count; i++) ecs_sched_despawn(w, doomed[i]);
    if (ecs_sched_entity_count(w) < ENTITY_LIMIT) {
        Value v;
        v.v = r ? r->v : 1u;
        ecs_sched_spawn_with(w, 1, &fx->components[(v.v >> 4) % COMPONENTS], (const void *const[]){&v});
    }
    if (fx->busy_seconds > 0) burn(fx->busy_seconds);
    record_end(e);
}

static inline bool condition_fn(ecs_sched_system_ctx *ctx) {
    system_instance *self = (system_instance *)ecs_sched_ctx_user_data(ctx);
    fixture *fx = self->fx;
    const cond_spec *c = &fx->spec->conds[self->index];
    event *e = &fx->cond_events[self->index];
    bool result = false;
    record_start(e);
    note_thread(fx, e);
    if (c->kind == COND_RESOURCE_BIT) {
        const Value *value = (const Value *)ecs_sched_ctx_resource(ctx, fx->resources[c->resource]);
        if (!value) fx->violations++;
        else result = (value->v >> c->bit & 1u) == 0;
    } else {
        ecs_sched_query *q = ecs_sched_ctx_query(ctx, 0);
        if (!q) fx->violations++;
        else result = ecs_sched_query_count(q) % 3 != 0;
    }
    e->result = result;
    if (fx->busy_seconds > 0) burn(fx->busy_seconds / 4);
    record_end(e);
    return result;
}

static inline ecs_sched_condition make_condition(fixture *fx, int index) {
    const cond_spec *c = &fx->spec->conds[index];
    ecs_sched_condition cond;
    if (c->kind == COND_RUN_ONCE) return ecs_sched_condition_run_once();
    memset(&cond, 0, sizeof cond);
    cond.kind = ECS_SCHED_CONDITION_FN;
    cond.fn = condition_fn;
    cond.user_data = &fx->conds[index];
    if (c->kind == COND_RESOURCE_BIT) cond.reads[0] = fx->resources[c->resource];
    else cond.queries[0].terms[0] = ecs_sched_read(fx->components[c->component]);
    return cond;
}

static inline void fill_query(fixture *fx, const system_spec *s, ecs_sched_query_desc *q) {
    int term_component[COMPONENTS], n = query_terms(s, term_component), t;
    for (t = 0; t < n; t++) {
        ecs_sched_id id = fx->components[term_component[t]];
        bool writes = (s->writes >> term_component[t] & 1u) != 0;
        /* the first term is required, so the query matches something but not everything */
        if (t == 0) q->terms[t] = writes ? ecs_sched_write(id) : ecs_sched_read(id);
        else q->terms[t] = writes ? ecs_sched_optional_write(id) : ecs_sched_optional_read(id);
    }
    /* last, so the fields the system works on keep their numbers */
    if (s->lane == 1) q->terms[n] = ecs_sched_read(fx->marked);
    else if (s->lane == 0) q->terms[n] = ecs_sched_without(fx->marked);
}

static inline void add_drawn_system(fixture *fx, int i) {
    const system_spec *s = &fx->spec->systems[i];
    ecs_sched_system_desc desc;
    int k, n = 0, r, plain_refs = 0, ignoring_refs = 0;
    memset(&desc, 0, sizeof desc);
    desc.name = s->name;
    desc.user_data = &fx->systems[i];
    fx->systems[i].fx = fx;
    fx->systems[i].index = i;
    if (s->kind == KIND_SYNC) {
        desc.fn = ecs_sched_apply_deferred;
    } else if (s->kind == KIND_EXCLUSIVE) {
        desc.fn = exclusive_system;
        desc.exclusive = true;
    } else {
        desc.fn = query_system;
        desc.commands = s->commands;
        desc.main_thread = s->main_thread;
        fill_query(fx, s, &desc.queries[0]);
        for (r = 0; r < RESOURCES; r++) {
            if (s->res_writes >> r & 1u) desc.writes[n++] = fx->resources[r];
        }
        for (r = 0, n = 0; r < RESOURCES; r++) {
            if (s->res_reads >> r & 1u) desc.reads[n++] = fx->resources[r];
        }
    }
    if (s->set >= 0) desc.in_set[0] = set_names[s->set];
    ecs_sched_condition cond;
    if (s->cond >= 0) {
        cond = make_condition(fx, s->cond);
        desc.run_if[0] = &cond;
    }
    for (k = 0; k < s->after_count; k++) {
        const char *other = fx->spec->systems[s->after[k]].name;
        if (s->after_ignore_deferred[k]) desc.after_ignore_deferred[ignoring_refs++] = other;
        else desc.after[plain_refs++] = other;
    }
    assert_int_equal(ecs_sched_add_system(fx->world, UPDATE, &desc), ECS_SCHED_OK);
}

static inline void configure_drawn_sets(fixture *fx) {
    int k;
    for (k = 0; k < SETS; k++) {
        ecs_sched_set_desc desc;
        memset(&desc, 0, sizeof desc);
        desc.name = set_names[k];
        ecs_sched_condition cond;
        if (fx->spec->set_cond[k] >= 0) {
            cond = make_condition(fx, fx->spec->set_cond[k]);
            desc.run_if[0] = &cond;
        }
        assert_int_equal(ecs_sched_configure_set(fx->world, UPDATE, &desc), ECS_SCHED_OK);
    }
    if (fx->spec->chained_sets) {
        assert_int_equal(ecs_sched_chain_sets(fx->world, UPDATE, SETS, set_names, false), ECS_SCHED_OK);
    }
}

/* A world with the drawn schedule on the given executor (threads: 0 means single-threaded). */
static inline void fixture_init(fixture *fx, const schedule_spec *spec,
                                ecs_sched_executor executor, int32_t threads) {
    ecs_sched_schedule_desc sd;
    const char *names[MAX_SYSTEMS * 2 + 8];
    char type_name[16];
    int i, k;
    int32_t n;
    memset(fx, 0, sizeof *fx);
    fx->spec = spec;
    fx->world = world_on(executor, threads);
    fx->pool = executor == ECS_SCHED_EXECUTOR_PARALLEL ? ecs_sched_world_pool(fx->world) : NULL;
    for (i = 0; i < COMPONENTS; i++) {
        snprintf(type_name, sizeof type_name, "C%d", i);
        fx->components[i] = ecs_sched_component_register_type(fx->world, type_name, sizeof(Value), 4);
        assert_true(fx->components[i] != 0);
    }
    fx->marked = ECS_SCHED_TAG(fx->world, Marked);
    assert_true(fx->marked != 0);
    for (i = 0; i < RESOURCES; i++) {
        Value v;
        snprintf(type_name, sizeof type_name, "R%d", i);
        fx->resources[i] = ecs_sched_component_register_type(fx->world, type_name, sizeof(Value), 4);
        v.v = (uint32_t)(i * 977 + (int)spec->seed);
        /* R0 is main-thread-only: whatever declares it, or is guarded by a condition on it,
           runs on the thread that runs the schedule */
        assert_int_equal(i == 0 ? ecs_sched_resource_insert_non_send(fx->world, fx->resources[i], &v)
                                : ecs_sched_resource_insert(fx->world, fx->resources[i], &v),
                         ECS_SCHED_OK);
    }
    for (i = 0; i < COMPONENTS; i++) {
        ecs_sched_query_desc q;
        memset(&q, 0, sizeof q);
        q.terms[0] = ecs_sched_read(fx->components[i]);
        fx->by_component[i] = ecs_sched_query_create(fx->world, &q);
        assert_non_null(fx->by_component[i]);
    }
    for (i = 0; i < 120; i++) {   /* a starting population over several archetypes */
        ecs_sched_entity e;
        Value v[2];
        ecs_sched_id ids[2];
        const void *ptrs[2];
        v[0].v = (uint32_t)i * 2654435761u;
        v[1].v = (uint32_t)i;
        ids[0] = fx->components[i % COMPONENTS];
        ids[1] = fx->components[(i / COMPONENTS) % COMPONENTS];
        ptrs[0] = &v[0];
        ptrs[1] = &v[1];
        e = ecs_sched_spawn_with(fx->world, ids[0] == ids[1] ? 1 : 2, ids, ptrs);
        assert_true(e != ECS_SCHED_NULL_ENTITY);
        if (i % 2) assert_int_equal(ecs_sched_insert(fx->world, e, fx->marked, NULL), ECS_SCHED_OK);
    }
    for (i = 0; i < MAX_CONDS; i++) {
        fx->conds[i].fx = fx;
        fx->conds[i].index = i;
        fx->run_once_frame[i] = -1;
    }
    memset(&sd, 0, sizeof sd);
    sd.ambiguities = ECS_SCHED_REPORT_IGNORE;
    sd.cross_set_dependencies = ECS_SCHED_REPORT_IGNORE;
    sd.shuffle_seed = spec->shuffle_seed;
    assert_int_equal(ecs_sched_schedule_configure(fx->world, UPDATE, &sd), ECS_SCHED_OK);
    configure_drawn_sets(fx);
    for (i = 0; i < spec->system_count; i++) add_drawn_system(fx, i);
    assert_int_equal(ecs_sched_schedule_build(fx->world, UPDATE), ECS_SCHED_OK);
    n = ecs_sched_schedule_order(fx->world, UPDATE, names, (int32_t)(sizeof names / sizeof names[0]));
    assert_true(n >= spec->system_count);
    for (i = 0; i < spec->system_count; i++) fx->plan_position[i] = -1;
    for (k = 0; k < n; k++) {
        for (i = 0; i < spec->system_count; i++) {
            if (strcmp(names[k], spec->systems[i].name) == 0) fx->plan_position[i] = k;
        }
    }
    for (i = 0; i < spec->system_count; i++) assert_true(fx->plan_position[i] >= 0);
}

static inline void fixture_destroy(fixture *fx) {
    assert_int_equal(ecs_sched_world_check(fx->world), ECS_SCHED_OK);
    ecs_sched_world_destroy(fx->world);
    fx->world = NULL;
}

static inline void run_frame(fixture *fx) {
    memset(fx->system_events, 0, sizeof fx->system_events);
    memset(fx->cond_events, 0, sizeof fx->cond_events);
    assert_int_equal(ecs_sched_run_schedule(fx->world, UPDATE), ECS_SCHED_OK);
    assert_int_equal(fx->violations, 0);
}

/* ---- reading a world out, byte for byte ---- */

typedef struct snapshot {
    unsigned char *bytes;
    size_t length, capacity;
} snapshot;

static inline void put(snapshot *s, const void *data, size_t size) {
    if (s->length + size > s->capacity) {
        s->capacity = (s->length + size) * 2;
        s->bytes = (unsigned char *)realloc(s->bytes, s->capacity);
        assert_non_null(s->bytes);
    }
    memcpy(s->bytes + s->length, data, size);
    s->length += size;
}

/* Entities in storage order with each component's values, then the resources. */
static inline void take_snapshot(fixture *fx, snapshot *s) {
    int32_t count = ecs_sched_entity_count(fx->world);
    int c, r;
    s->length = 0;
    put(s, &count, sizeof count);
    for (c = 0; c < COMPONENTS; c++) {
        ecs_sched_iter it = ecs_sched_query_iter(fx->by_component[c]);
        put(s, &c, sizeof c);
        while (ecs_sched_iter_next(&it)) {
            put(s, it.entities, sizeof *it.entities * (size_t)it.count);
            put(s, it.fields[0], sizeof(Value) * (size_t)it.count);
        }
    }
    for (r = 0; r < RESOURCES; r++) {
        const Value *v = (const Value *)ecs_sched_resource_get(fx->world, fx->resources[r]);
        uint32_t value = v ? v->v : 0xdeadu;
        put(s, &value, sizeof value);
    }
}

static inline bool same_snapshot(const snapshot *a, const snapshot *b) {
    return a->length == b->length && memcmp(a->bytes, b->bytes, a->length) == 0;
}

/* ---- checking one frame's events against the rules ---- */

/* Queries of the two lanes match no entity in common: only resources can make them conflict. */
static inline bool conflicts(const system_spec *a, const system_spec *b) {
    bool disjoint = a->lane >= 0 && b->lane >= 0 && a->lane != b->lane;
    return (!disjoint && ((a->writes & (b->reads | b->writes)) || (b->writes & a->reads))) ||
           (a->res_writes & (b->res_reads | b->res_writes)) || (b->res_writes & a->res_reads);
}

static inline bool cond_conflicts(const cond_spec *c, const system_spec *s) {
    if (c->kind == COND_RESOURCE_BIT) return (s->res_writes >> c->resource & 1u) != 0;
    if (c->kind == COND_QUERY_COUNT) return (s->writes >> c->component & 1u) != 0;
    return false;
}

static inline bool overlap(const event *a, const event *b) {
    return a->runs && b->runs && a->start < b->end && b->start < a->end;
}

static inline void report(int frame, const char *what, const system_spec *a, const system_spec *b) {
    fail_msg("frame %d: %s (%s, %s)", frame, what, a->name, b ? b->name : "-");
}

/* Whether system i must be done before system j starts: a drawn edge, or set order. */
static inline bool ordered_before(const schedule_spec *spec, int i, int j) {
    const system_spec *b = &spec->systems[j];
    int k;
    for (k = 0; k < b->after_count; k++) if (b->after[k] == i) return true;
    return spec->chained_sets && spec->systems[i].set >= 0 && b->set > spec->systems[i].set;
}

/* Whether a guard held this frame; false when it was not evaluated. run_once is not seen
   evaluating, so it is modelled: true the first frame it is reached, false after. */
static inline bool guard_held(fixture *fx, int frame, int cond, bool reached, const system_spec *s) {
    const event *c = &fx->cond_events[cond];
    if (fx->spec->conds[cond].kind == COND_RUN_ONCE) {
        if (!reached) return false;
        if (fx->run_once_frame[cond] < 0) fx->run_once_frame[cond] = frame;
        return fx->run_once_frame[cond] == frame;
    }
    if (c->runs > 1) report(frame, "a condition was evaluated more than once", s, NULL);
    if (reached && c->runs == 0) report(frame, "a condition was not evaluated", s, NULL);
    if (!reached && c->runs > 0 && s->cond == cond && fx->system_events[s - fx->spec->systems].runs) {
        report(frame, "a condition was evaluated though an outer one did not hold", s, NULL);
    }
    return c->runs == 1 && c->result;
}

static inline bool cond_reads_non_send(const fixture *fx, int c) {
    return c >= 0 && fx->spec->conds[c].kind == COND_RESOURCE_BIT && fx->spec->conds[c].resource == 0;
}

/* Asked for, declares R0, or a condition guarding it reads R0. */
static inline bool must_run_on_main(const fixture *fx, const system_spec *s) {
    return s->main_thread || ((s->res_reads | s->res_writes) & 1u) || cond_reads_non_send(fx, s->cond) ||
           (s->set >= 0 && cond_reads_non_send(fx, fx->spec->set_cond[s->set]));
}

/* The set's condition is evaluated first; the system's own only when the set's held. */
static inline void check_guards(fixture *fx, int frame, int i) {
    const system_spec *s = &fx->spec->systems[i];
    const event *e = &fx->system_events[i];
    int set_cond = s->set >= 0 ? fx->spec->set_cond[s->set] : -1;
    bool holds = true;
    if (set_cond >= 0) holds = guard_held(fx, frame, set_cond, true, s);
    if (s->cond >= 0) holds = guard_held(fx, frame, s->cond, holds, s) && holds;
    if (e->runs && set_cond >= 0 && fx->cond_events[set_cond].runs && fx->cond_events[set_cond].end > e->start) {
        report(frame, "a system started before its set's condition was evaluated", s, NULL);
    }
    if (e->runs && s->cond >= 0 && fx->cond_events[s->cond].runs && fx->cond_events[s->cond].end > e->start) {
        report(frame, "a system started before its condition was evaluated", s, NULL);
    }
    if (s->kind == KIND_SYNC) return;
    if (e->runs && e->off_main && s->kind == KIND_QUERY && must_run_on_main(fx, s)) {
        report(frame, "a main-thread system ran on another thread", s, NULL);
    }
    if (e->runs > 1) report(frame, "a system ran twice in one run", s, NULL);
    if (e->runs && !holds) report(frame, "a system ran though a condition did not hold", s, NULL);
    if (!e->runs && holds) report(frame, "a system did not run though its conditions held", s, NULL);
}

static inline void check_pair(const fixture *fx, int frame, int i, int j) {
    const schedule_spec *spec = fx->spec;
    const system_spec *a = &spec->systems[i], *b = &spec->systems[j];
    const event *ea = &fx->system_events[i], *eb = &fx->system_events[j];
    if (!ea->runs || !eb->runs) return;
    if (ordered_before(spec, i, j) && ea->end > eb->start) {
        report(frame, "a system started before one ordered before it ended", a, b);
    }
    if ((a->kind == KIND_EXCLUSIVE || b->kind == KIND_EXCLUSIVE) && overlap(ea, eb)) {
        report(frame, "an exclusive system ran alongside another", a, b);
    }
    if (a->kind == KIND_QUERY && b->kind == KIND_QUERY) {
        bool serial = conflicts(a, b) || (a->commands && b->commands);
        if (serial && overlap(ea, eb)) report(frame, "systems with conflicting access overlapped", a, b);
        if (serial && (fx->plan_position[i] < fx->plan_position[j]) != (ea->start < eb->start)) {
            report(frame, "conflicting systems ran out of plan order", a, b);
        }
    }
}

static inline void check_condition_access(const fixture *fx, int frame) {
    int c, i;
    for (c = 0; c < fx->spec->cond_count; c++) {
        const event *ec = &fx->cond_events[c];
        if (ec->runs && ec->off_main && cond_reads_non_send(fx, c)) {
            fail_msg("frame %d: a condition reading a main-thread-only resource ran on another "
                     "thread", frame);
        }
        for (i = 0; i < fx->spec->system_count; i++) {
            const system_spec *s = &fx->spec->systems[i];
            const event *es = &fx->system_events[i];
            if ((s->kind == KIND_EXCLUSIVE || (s->kind == KIND_QUERY && cond_conflicts(&fx->spec->conds[c], s))) &&
                overlap(ec, es)) {
                report(frame, "a condition was evaluated while a system writing what it reads ran", s, NULL);
            }
        }
    }
}

static inline void check_frame(fixture *fx, int frame) {
    int i, j;
    for (i = 0; i < fx->spec->system_count; i++) {
        check_guards(fx, frame, i);
        for (j = 0; j < fx->spec->system_count; j++) if (i != j) check_pair(fx, frame, i, j);
    }
    check_condition_access(fx, frame);
}

/* Overlapping intervals seen in a frame: proof that something ran in parallel. */
static inline int overlaps_in_frame(const fixture *fx) {
    int i, j, n = 0;
    for (i = 0; i < fx->spec->system_count; i++) {
        for (j = i + 1; j < fx->spec->system_count; j++) {
            if (overlap(&fx->system_events[i], &fx->system_events[j])) n++;
        }
    }
    return n;
}

#endif
