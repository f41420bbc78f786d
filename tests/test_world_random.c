/* The world against a model: thousands of random spawns, inserts (new and over a value),
   removes, insert_many calls, despawns of whole subtrees, reparentings, disables and enables,
   prefab data instantiated and command buffers applied, on a few dozen entities whose
   components live in tables and in sparse sets, some of them values that own memory. After
   every step the world must agree with a plain model of who is alive, who has what with which
   value, who is whose parent and who is disabled (and, every few steps, pass
   ecs_sched_world_check); queries kept from the start must count what the model counts and
   hand out, row by row, pointers to the model's values, their parents' for from_parent terms,
   parents before children for a cascade (a pointer left stale by a move is read, and caught by
   the sanitizer). */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "world_fixture.h"

#define SLOTS 40
#define STEPS 5000
#define DEAD_KEPT 64
#define MAP_SIZE 128
#define MAX_RECORDED 10

/* ---- components ---- */

/* A value that owns memory (a heap int, or none for 0): Label in tables, Aura in sparse sets.
   Its hooks keep g_owned, the number of ints alive, so a leak or a double free shows. */
typedef struct Owned {
    int32_t *n;
} Owned;

typedef struct Burning {
    float heat;
    int32_t turns;
} Burning;

static long g_owned;

static void owned_assign(Owned *o, int32_t v) {
    if (v == 0) {
        if (o->n) g_owned--;
        free(o->n);
        o->n = NULL;
        return;
    }
    if (!o->n) {
        o->n = (int32_t *)malloc(sizeof *o->n);
        assert_non_null(o->n);
        g_owned++;
    }
    *o->n = v;
}

static void owned_ctor(void *dst, int32_t count, void *ctx) {
    (void)ctx;
    memset(dst, 0, (size_t)count * sizeof(Owned));
}

static void owned_dtor(void *ptr, int32_t count, void *ctx) {
    Owned *o = (Owned *)ptr;
    int32_t i;
    (void)ctx;
    for (i = 0; i < count; i++) owned_assign(&o[i], 0);
}

static void owned_copy(void *dst, const void *src, int32_t count, void *ctx) {
    Owned *d = (Owned *)dst;
    const Owned *s = (const Owned *)src;
    int32_t i;
    (void)ctx;
    for (i = 0; i < count; i++) owned_assign(&d[i], s[i].n ? *s[i].n : 0);
}

static void owned_move(void *dst, void *src, int32_t count, void *ctx) {
    (void)ctx;
    memcpy(dst, src, (size_t)count * sizeof(Owned));
}

/* The model's components; C_DISABLED stands for the Disabled tag (the model's "has" of it is
   whether the entity is disabled), C_CHILD_OF for the ChildOf kind in cascade terms. */
enum {
    C_POS,      /* table: Position {v, -v} */
    C_VEL,      /* table, tracked: Velocity {v, 2v} */
    C_HP,       /* table: Health {v} */
    C_LABEL,    /* table, hooks: Owned */
    C_FROZEN,   /* table tag */
    C_BURN,     /* sparse: Burning {v, 3v} */
    C_AURA,     /* sparse, hooks: Owned */
    C_SEL,      /* sparse tag */
    C_COUNT,
    C_DISABLED = C_COUNT,
    C_CHILD_OF,
    C_ALL
};

static bool is_tag(int c) {
    return c == C_FROZEN || c == C_SEL || c == C_DISABLED;
}

static bool from_parent(ecs_sched_term_kind kind) {
    return kind == ECS_SCHED_TERM_FROM_PARENT || kind == ECS_SCHED_TERM_OPTIONAL_FROM_PARENT;
}

static bool is_owned(int c) {
    return c == C_LABEL || c == C_AURA;
}

/* Room for any component's value, and for the int an Owned value points at (a buffer is
   never copied, so that pointer stays good while the buffer lives). */
typedef struct value_buf {
    union {
        Position pos;
        Velocity vel;
        Health hp;
        Owned owned;
        Burning burn;
    } v;
    int32_t n;
} value_buf;

/* The value of component c that stands for the number v (NULL for a tag). */
static const void *make_value(int c, int32_t v, value_buf *b) {
    memset(b, 0, sizeof *b);
    switch (c) {
    case C_POS:
        b->v.pos.x = (float)v;
        b->v.pos.y = (float)-v;
        break;
    case C_VEL:
        b->v.vel.x = (float)v;
        b->v.vel.y = (float)(2 * v);
        break;
    case C_HP:
        b->v.hp.hp = v;
        break;
    case C_LABEL:
    case C_AURA:
        b->n = v;
        b->v.owned.n = v ? &b->n : NULL;
        break;
    case C_BURN:
        b->v.burn.heat = (float)v;
        b->v.burn.turns = 3 * v;
        break;
    default:
        return NULL;
    }
    return &b->v;
}

/* The number a value stands for; its parts must agree with each other. */
static int32_t value_of(int c, const void *p) {
    switch (c) {
    case C_POS: {
        const Position *pos = (const Position *)p;
        assert_true(pos->y == -pos->x);
        return (int32_t)pos->x;
    }
    case C_VEL: {
        const Velocity *vel = (const Velocity *)p;
        assert_true(vel->y == 2 * vel->x);
        return (int32_t)vel->x;
    }
    case C_HP:
        return ((const Health *)p)->hp;
    case C_LABEL:
    case C_AURA: {
        const Owned *o = (const Owned *)p;
        if (o->n) assert_int_not_equal(*o->n, 0);
        return o->n ? *o->n : 0;
    }
    case C_BURN: {
        const Burning *b = (const Burning *)p;
        assert_int_equal(b->turns, 3 * (int32_t)b->heat);
        return (int32_t)b->heat;
    }
    default:
        fail_msg("component %d has no value", c);
        return 0;
    }
}

/* Writes the value standing for v over the value at p (in the world). */
static void write_value(int c, void *p, int32_t v) {
    value_buf b;
    if (is_owned(c)) {
        owned_assign((Owned *)p, v);
        return;
    }
    make_value(c, v, &b);
    switch (c) {
    case C_POS: *(Position *)p = b.v.pos; break;
    case C_VEL: *(Velocity *)p = b.v.vel; break;
    case C_HP: *(Health *)p = b.v.hp; break;
    case C_BURN: *(Burning *)p = b.v.burn; break;
    default: fail_msg("component %d has no value", c);
    }
}

/* ---- the model ---- */

typedef struct model {
    ecs_sched_entity e[SLOTS];           /* 0: the slot is empty */
    int parent[SLOTS];                   /* slot of the parent, or -1 */
    unsigned char has[SLOTS][C_ALL];
    int32_t value[SLOTS][C_COUNT];       /* 0 for tags and absent components */
    ecs_sched_entity dead[DEAD_KEPT];    /* the last handles that died */
    int dead_count;
    long despawned;
    long despawned_enabled;              /* what observers hear of (not the disabled) */
} model;

static void model_spawn(model *m, int s, ecs_sched_entity e, int parent) {
    assert_true(m->e[s] == 0);
    assert_true(e != ECS_SCHED_NULL_ENTITY);
    m->e[s] = e;
    m->parent[s] = parent;
    memset(m->has[s], 0, sizeof m->has[s]);
    memset(m->value[s], 0, sizeof m->value[s]);
}

/* An insert: v NULL gives a new component its default value and leaves a present one. */
static void model_put(model *m, int s, int c, const int32_t *v) {
    if (v && !is_tag(c)) m->value[s][c] = *v;
    else if (!m->has[s][c] && c < C_COUNT) m->value[s][c] = 0;
    m->has[s][c] = 1;
}

static void model_take(model *m, int s, int c) {
    m->has[s][c] = 0;
    if (c < C_COUNT) m->value[s][c] = 0;
}

static void model_despawn(model *m, int s) {
    int i;
    for (i = 0; i < SLOTS; i++) {
        if (m->e[i] && m->parent[i] == s) model_despawn(m, i);
    }
    m->dead[m->dead_count++ % DEAD_KEPT] = m->e[s];
    m->e[s] = 0;
    m->parent[s] = -1;
    m->despawned++;
    if (!m->has[s][C_DISABLED]) m->despawned_enabled++;
}

static bool model_below(const model *m, int a, int b) {   /* whether a is b or below b */
    for (; a >= 0; a = m->parent[a]) {
        if (a == b) return true;
    }
    return false;
}

static bool model_matches(const model *m, int s, int terms, const int *comp,
                          const ecs_sched_term_kind *kind) {
    bool names_disabled = false;
    int t;
    for (t = 0; t < terms; t++) {
        bool has = m->has[s][comp[t]] != 0;
        if (comp[t] == C_DISABLED) names_disabled = true;
        if ((kind[t] == ECS_SCHED_TERM_READ || kind[t] == ECS_SCHED_TERM_WRITE) && !has) return false;
        if (kind[t] == ECS_SCHED_TERM_WITHOUT && has) return false;
        if (kind[t] == ECS_SCHED_TERM_FROM_PARENT &&
            (m->parent[s] < 0 || !m->has[m->parent[s]][comp[t]])) {
            return false;
        }
    }
    return names_disabled || !m->has[s][C_DISABLED];
}

/* ---- the queries, made once per world ---- */

#define QUERY_TERMS 4

typedef struct query_spec {
    int terms;
    int comp[QUERY_TERMS];
    ecs_sched_term_kind kind[QUERY_TERMS];
} query_spec;

#define R ECS_SCHED_TERM_READ
#define W ECS_SCHED_TERM_WRITE
#define OR ECS_SCHED_TERM_OPTIONAL_READ
#define OW ECS_SCHED_TERM_OPTIONAL_WRITE
#define NOT ECS_SCHED_TERM_WITHOUT
#define FP ECS_SCHED_TERM_FROM_PARENT
#define OFP ECS_SCHED_TERM_OPTIONAL_FROM_PARENT
#define CAS ECS_SCHED_TERM_CASCADE
static const query_spec g_specs[] = {
    {1, {C_POS}, {R}},                                      /* a table component */
    {1, {C_BURN}, {R}},                                     /* a sparse component */
    {4, {C_HP, C_BURN, C_SEL, C_LABEL}, {W, R, NOT, OR}},   /* table and sparse mixed */
    {2, {C_VEL, C_POS}, {R, NOT}},                          /* a without term */
    {4, {C_AURA, C_SEL, C_FROZEN, C_BURN}, {R, R, NOT, OR}},
    {2, {C_LABEL, C_DISABLED}, {R, R}},                     /* the disabled ones only */
    {3, {C_POS, C_DISABLED, C_AURA}, {R, OR, OW}},          /* disabled ones too */
    {2, {C_SEL, C_FROZEN}, {R, OR}},                        /* tags only */
    {2, {C_VEL, C_HP}, {R, OFP}},                           /* the parent's value */
    {3, {C_POS, C_LABEL, C_CHILD_OF}, {R, FP, CAS}},        /* parents first */
    {3, {C_BURN, C_POS, C_SEL}, {W, OFP, NOT}},             /* sparse and the parent's */
};
#undef R
#undef W
#undef OR
#undef OW
#undef NOT
#undef FP
#undef OFP
#undef CAS
#define QUERY_COUNT ((int)(sizeof g_specs / sizeof g_specs[0]))

/* ---- one world's run ---- */

typedef struct run {
    captured_log log;
    ecs_sched_world *w;
    ecs_sched_id id[C_ALL];
    ecs_sched_query *query[QUERY_COUNT];
    ecs_sched_commands *cmd;
    model m;
    int32_t entities_before;
    long despawns_observed, values_observed;
    long checks;
} run;

static run g_run;
static unsigned g_seed;

static unsigned next_random(void) {
    g_seed = g_seed * 1103515245u + 12345u;
    return g_seed >> 8;
}

static int32_t random_value(void) {
    return (int32_t)(next_random() % 100000u) + 1;
}

static int random_component(void) {
    return (int)(next_random() % C_COUNT);
}

/* `count` distinct components in random order. */
static void random_components(int *out, int count) {
    int all[C_COUNT], i;
    for (i = 0; i < C_COUNT; i++) all[i] = i;
    for (i = 0; i < count; i++) {
        int j = i + (int)(next_random() % (unsigned)(C_COUNT - i)), t = all[i];
        all[i] = all[j];
        all[j] = t;
        out[i] = all[i];
    }
}

/* A value to insert for c: NULL (the default, or no change) one time in five, and always
   for a tag. *model_v is what the model inserts: v, holding the number the value stands for,
   or NULL. */
static const void *random_insert_value(int c, value_buf *b, int32_t *v, const int32_t **model_v) {
    if (is_tag(c) || next_random() % 5 == 0) {
        *model_v = NULL;
        return NULL;
    }
    *v = random_value();
    *model_v = v;
    return make_value(c, *v, b);
}

static int free_slot_from(const model *m, int start, const int *taken, int taken_count) {
    int i, k;
    for (i = 0; i < SLOTS; i++) {
        int s = (start + i) % SLOTS;
        bool used = m->e[s] != 0;
        for (k = 0; k < taken_count; k++) used = used || taken[k] == s;
        if (!used) return s;
    }
    return -1;
}

/* ---- observers (in some runs): they read what they are told about ---- */

static void observe_despawn(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *trigger) {
    (void)trigger;
    ((run *)ecs_sched_ctx_user_data(ctx))->despawns_observed++;
}

static void observe_value(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *trigger) {
    run *r = (run *)ecs_sched_ctx_user_data(ctx);
    const void *p = ecs_sched_get(ecs_sched_ctx_world(ctx), trigger->entity, trigger->component);
    int c = trigger->component == r->id[C_LABEL] ? C_LABEL : C_BURN;
    assert_non_null(p);
    r->values_observed += value_of(c, p) != 0;
}

static void add_observer(run *r, ecs_sched_observer_event event, int c, ecs_sched_observer_fn fn) {
    ecs_sched_observer_desc d;
    memset(&d, 0, sizeof d);
    d.event = event;
    d.component = c < 0 ? 0 : r->id[c];
    d.fn = fn;
    d.user_data = r;
    assert_int_not_equal(ecs_sched_observer_add(r->w, &d), 0);
}

/* ---- the world ---- */

static ecs_sched_id register_owned(ecs_sched_world *w, const char *name, ecs_sched_storage storage) {
    ecs_sched_component_desc d;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.size = sizeof(Owned);
    d.alignment = ECS_SCHED_ALIGNOF(Owned);
    d.hooks.ctor = owned_ctor;
    d.hooks.dtor = owned_dtor;
    d.hooks.copy = owned_copy;
    d.hooks.move = owned_move;
    d.storage = storage;
    return ecs_sched_component_register(w, &d);
}

static ecs_sched_query *make_spec_query(run *r, const query_spec *spec) {
    ecs_sched_query_desc d;
    ecs_sched_query *q;
    int t;
    memset(&d, 0, sizeof d);
    for (t = 0; t < spec->terms; t++) {
        d.terms[t].id = r->id[spec->comp[t]];
        d.terms[t].kind = spec->kind[t];
    }
    q = ecs_sched_query_create(r->w, &d);
    assert_non_null(q);
    return q;
}

static void start_run(run *r, bool observed) {
    int i;
    memset(r, 0, sizeof *r);
    r->w = new_world(&r->log);
    r->id[C_POS] = ECS_SCHED_COMPONENT(r->w, Position);
    r->id[C_VEL] = ECS_SCHED_TRACKED_COMPONENT(r->w, Velocity);
    r->id[C_HP] = ECS_SCHED_COMPONENT(r->w, Health);
    r->id[C_LABEL] = register_owned(r->w, "Label", ECS_SCHED_STORAGE_TABLE);
    r->id[C_FROZEN] = ECS_SCHED_TAG(r->w, Frozen);
    r->id[C_BURN] = ECS_SCHED_SPARSE_COMPONENT(r->w, Burning);
    r->id[C_AURA] = register_owned(r->w, "Aura", ECS_SCHED_STORAGE_SPARSE);
    r->id[C_SEL] = ECS_SCHED_SPARSE_TAG(r->w, Selected);
    r->id[C_DISABLED] = ecs_sched_disabled_tag(r->w);
    r->id[C_CHILD_OF] = ecs_sched_child_of(r->w);
    for (i = 0; i < C_ALL; i++) assert_int_not_equal(r->id[i], 0);
    for (i = 0; i < QUERY_COUNT; i++) r->query[i] = make_spec_query(r, &g_specs[i]);
    r->cmd = new_commands(r->w);
    for (i = 0; i < SLOTS; i++) r->m.parent[i] = -1;
    if (observed) {
        add_observer(r, ECS_SCHED_ON_DESPAWN, -1, observe_despawn);
        add_observer(r, ECS_SCHED_ON_REMOVE, C_LABEL, observe_value);
        add_observer(r, ECS_SCHED_ON_INSERT, C_BURN, observe_value);
    }
    r->entities_before = ecs_sched_entity_count(r->w);
}

/* ---- checks ---- */

typedef struct slot_map {
    ecs_sched_entity key[MAP_SIZE];
    int slot[MAP_SIZE];
} slot_map;

static unsigned map_hash(ecs_sched_entity e) {
    return (unsigned)((e * 0x9E3779B97F4A7C15ull) >> 57) % MAP_SIZE;
}

static void map_build(slot_map *map, const model *m) {
    int s;
    memset(map, 0, sizeof *map);
    for (s = 0; s < SLOTS; s++) {
        unsigned h;
        if (!m->e[s]) continue;
        for (h = map_hash(m->e[s]); map->key[h]; h = (h + 1) % MAP_SIZE) {}
        map->key[h] = m->e[s];
        map->slot[h] = s;
    }
}

static int map_find(const slot_map *map, ecs_sched_entity e) {
    unsigned h;
    for (h = map_hash(e); map->key[h]; h = (h + 1) % MAP_SIZE) {
        if (map->key[h] == e) return map->slot[h];
    }
    return -1;
}

static void check_entity(run *r, int s) {
    const model *m = &r->m;
    ecs_sched_entity e = m->e[s];
    const ecs_sched_entity *kids;
    int32_t n, i;
    int c, children = 0;
    assert_true(ecs_sched_is_alive(r->w, e));
    assert_true(ecs_sched_parent_of(r->w, e) == (m->parent[s] >= 0 ? m->e[m->parent[s]] : 0));
    assert_int_equal(ecs_sched_is_disabled(r->w, e), m->has[s][C_DISABLED]);
    for (c = 0; c < C_COUNT; c++) {
        assert_int_equal(ecs_sched_has(r->w, e, r->id[c]), m->has[s][c]);
        if (m->has[s][c] && !is_tag(c)) {
            const void *p = ecs_sched_get(r->w, e, r->id[c]);
            assert_non_null(p);
            assert_int_equal(value_of(c, p), m->value[s][c]);
        }
    }
    for (i = 0; i < SLOTS; i++) children += m->e[i] && m->parent[i] == s;
    kids = ecs_sched_children(r->w, e, &n);
    assert_int_equal(n, children);
    for (i = 0; i < n; i++) assert_true(ecs_sched_parent_of(r->w, kids[i]) == e);
}

/* The value pointer that term `term` hands out for the i-th row of the run (table row
   `row`), NULL where there is none. */
static void *term_value(const ecs_sched_iter *it, int term, int c, int32_t i, int32_t row) {
    if (!it->fields[term]) return NULL;
    switch (c) {
    case C_POS: return ECS_SCHED_FIELD(it, Position, term) + row;
    case C_VEL: return ECS_SCHED_FIELD(it, Velocity, term) + row;
    case C_HP: return ECS_SCHED_FIELD(it, Health, term) + row;
    case C_LABEL: return ECS_SCHED_FIELD(it, Owned, term) + row;
    case C_BURN: return ECS_SCHED_SPARSE_FIELD(it, Burning, term)[i];
    case C_AURA: return ECS_SCHED_SPARSE_FIELD(it, Owned, term)[i];
    default: fail_msg("component %d has no value", c); return NULL;
    }
}

/* One row handed out by query q: an entity of the model that matches, seen once (after its
   parent, for a cascade), with the model's values behind every pointer, the parent's for a
   from_parent term; written terms get new values (in the model too). */
static void check_row(run *r, const query_spec *spec, const slot_map *map, unsigned char *seen,
                      const ecs_sched_iter *it, int32_t i, int32_t row) {
    model *m = &r->m;
    int s = map_find(map, it->entities[row]), t;
    assert_true(s >= 0);
    assert_false(seen[s]);
    seen[s] = 1;
    assert_true(model_matches(m, s, spec->terms, spec->comp, spec->kind));
    for (t = 0; t < spec->terms; t++) {
        int c = spec->comp[t];
        ecs_sched_term_kind kind = spec->kind[t];
        void *p;
        if (kind == ECS_SCHED_TERM_CASCADE) {
            int up = m->parent[s];
            if (up >= 0 && model_matches(m, up, spec->terms, spec->comp, spec->kind)) assert_true(seen[up]);
            continue;
        }
        if (from_parent(kind)) {
            int up = m->parent[s];
            const void *parent_value = ECS_SCHED_PARENT_FIELD(it, void, t)[i];
            assert_int_equal(parent_value != NULL, up >= 0 && m->has[up][c]);
            if (parent_value) assert_int_equal(value_of(c, parent_value), m->value[up][c]);
            continue;
        }
        if (is_tag(c) || kind == ECS_SCHED_TERM_WITHOUT) {
            assert_null(it->fields[t]);
            continue;
        }
        p = term_value(it, t, c, i, row);
        assert_int_equal(p != NULL, m->has[s][c]);
        if (!p) continue;
        assert_int_equal(value_of(c, p), m->value[s][c]);
        if (kind == ECS_SCHED_TERM_WRITE || kind == ECS_SCHED_TERM_OPTIONAL_WRITE) {
            int32_t v = random_value();
            write_value(c, p, v);
            m->value[s][c] = v;
        }
    }
}

static void check_query(run *r, int k, bool by_rows) {
    const query_spec *spec = &g_specs[k];
    const model *m = &r->m;
    unsigned char seen[SLOTS];
    slot_map map;
    ecs_sched_iter it;
    int s, expected = 0, rows = 0;
    int32_t i;
    for (s = 0; s < SLOTS; s++) {
        expected += m->e[s] && model_matches(m, s, spec->terms, spec->comp, spec->kind);
    }
    assert_int_equal(ecs_sched_query_count(r->query[k]), expected);
    map_build(&map, m);
    memset(seen, 0, sizeof seen);
    it = ecs_sched_query_iter(r->query[k]);
    if (by_rows) {
        while (ecs_sched_iter_next_rows(&it)) {
            for (i = 0; i < it.count; i++) check_row(r, spec, &map, seen, &it, i, it.rows[i]);
            rows += it.count;
        }
    } else {
        while (ecs_sched_iter_next(&it)) {
            for (i = 0; i < it.count; i++) check_row(r, spec, &map, seen, &it, i, i);
            rows += it.count;
        }
    }
    assert_int_equal(rows, expected);
}

static void check_model(run *r) {
    const model *m = &r->m;
    int s, i, live = 0, c;
    long owned = 0;
    if (r->checks % 8 == 0) assert_int_equal(ecs_sched_world_check(r->w), ECS_SCHED_OK);
    for (s = 0; s < SLOTS; s++) {
        if (!m->e[s]) continue;
        live++;
        check_entity(r, s);
    }
    for (i = 0; i < DEAD_KEPT && i < m->dead_count; i++) assert_false(ecs_sched_is_alive(r->w, m->dead[i]));
    assert_int_equal(ecs_sched_entity_count(r->w), r->entities_before + live);
    for (i = 0; i < QUERY_COUNT; i++) check_query(r, i, (r->checks + i) % 2 == 0);
    for (s = 0; s < SLOTS; s++) {   /* after the queries' writes, read back at the next check */
        for (c = 0; c < C_COUNT; c++) owned += m->e[s] && is_owned(c) && m->has[s][c] && m->value[s][c] != 0;
    }
    assert_int_equal(g_owned, owned);
    r->checks++;
}

/* ---- steps ---- */

static void spawn_random(run *r, int s) {
    int comps[C_COUNT], n = (int)(next_random() % 5), i;
    ecs_sched_id ids[C_COUNT];
    const void *values[C_COUNT];
    const int32_t *model_v[C_COUNT];
    int32_t v[C_COUNT];
    value_buf b[C_COUNT];
    ecs_sched_entity e;
    random_components(comps, n);
    for (i = 0; i < n; i++) {
        ids[i] = r->id[comps[i]];
        values[i] = random_insert_value(comps[i], &b[i], &v[i], &model_v[i]);
    }
    e = n == 0 && next_random() % 2 ? ecs_sched_spawn(r->w) : ecs_sched_spawn_with(r->w, n, ids, values);
    model_spawn(&r->m, s, e, -1);
    for (i = 0; i < n; i++) model_put(&r->m, s, comps[i], model_v[i]);
}

static void insert_one(run *r, int s) {
    int c = random_component();
    value_buf b;
    int32_t v;
    const int32_t *model_v;
    const void *value = random_insert_value(c, &b, &v, &model_v);
    assert_int_equal(ecs_sched_insert(r->w, r->m.e[s], r->id[c], value), ECS_SCHED_OK);
    model_put(&r->m, s, c, model_v);
}

static void remove_one(run *r, int s) {
    int c = random_component();
    assert_int_equal(ecs_sched_remove(r->w, r->m.e[s], r->id[c]), ECS_SCHED_OK);
    model_take(&r->m, s, c);
}

/* Several components at once, some of which the entity may have already. */
static void insert_many(run *r, int s) {
    int comps[C_COUNT], n = 2 + (int)(next_random() % 4), i;
    bool no_values = next_random() % 8 == 0;
    ecs_sched_id ids[C_COUNT];
    const void *values[C_COUNT];
    const int32_t *model_v[C_COUNT];
    int32_t v[C_COUNT];
    value_buf b[C_COUNT];
    random_components(comps, n);
    for (i = 0; i < n; i++) {
        ids[i] = r->id[comps[i]];
        values[i] = random_insert_value(comps[i], &b[i], &v[i], &model_v[i]);
        if (no_values) model_v[i] = NULL;
    }
    assert_int_equal(ecs_sched_insert_many(r->w, r->m.e[s], n, ids, no_values ? NULL : values),
                     ECS_SCHED_OK);
    for (i = 0; i < n; i++) model_put(&r->m, s, comps[i], model_v[i]);
}

/* Under another entity (refused when that one is s or below s), or to the roots. */
static void reparent(run *r, int s) {
    model *m = &r->m;
    int t = (int)(next_random() % SLOTS);
    ecs_sched_result result;
    if (!m->e[t]) {
        assert_int_equal(ecs_sched_set_parent(r->w, m->e[s], ECS_SCHED_NULL_ENTITY), ECS_SCHED_OK);
        m->parent[s] = -1;
        return;
    }
    result = ecs_sched_set_parent(r->w, m->e[s], m->e[t]);
    if (model_below(m, t, s)) {
        assert_int_equal(result, ECS_SCHED_ERR_RELATION_CYCLE);
    } else {
        assert_int_equal(result, ECS_SCHED_OK);
        m->parent[s] = t;
    }
}

static void disable_or_enable(run *r, int s) {
    if (next_random() % 2) {
        assert_int_equal(ecs_sched_disable(r->w, r->m.e[s]), ECS_SCHED_OK);
        r->m.has[s][C_DISABLED] = 1;
    } else {
        assert_int_equal(ecs_sched_enable(r->w, r->m.e[s]), ECS_SCHED_OK);
        r->m.has[s][C_DISABLED] = 0;
    }
}

static void write_through_get_mut(run *r, int s) {
    int c = random_component();
    void *p;
    int32_t v = random_value();
    if (is_tag(c) || !r->m.has[s][c]) return;   /* get_mut of those records an error */
    p = ecs_sched_get_mut(r->w, r->m.e[s], r->id[c]);
    assert_non_null(p);
    assert_int_equal(value_of(c, p), r->m.value[s][c]);
    write_value(c, p, v);
    r->m.value[s][c] = v;
}

/* Calls on a handle that died: each refused, nothing changed. */
static void touch_dead(run *r) {
    const model *m = &r->m;
    ecs_sched_entity e;
    value_buf b;
    int c = random_component();
    if (m->dead_count == 0) return;
    e = m->dead[next_random() % (unsigned)(m->dead_count < DEAD_KEPT ? m->dead_count : DEAD_KEPT)];
    assert_false(ecs_sched_is_alive(r->w, e));
    switch (next_random() % 5) {
    case 0:
        assert_int_equal(ecs_sched_insert(r->w, e, r->id[c], make_value(c, 7, &b)), ECS_SCHED_ERR_STALE_ENTITY);
        break;
    case 1:
        assert_int_equal(ecs_sched_remove(r->w, e, r->id[c]), ECS_SCHED_ERR_STALE_ENTITY);
        break;
    case 2:
        assert_int_equal(ecs_sched_despawn(r->w, e), ECS_SCHED_ERR_STALE_ENTITY);
        break;
    case 3:
        assert_int_equal(ecs_sched_disable(r->w, e), ECS_SCHED_ERR_STALE_ENTITY);
        break;
    default:
        assert_int_equal(ecs_sched_commands_insert(r->cmd, e, r->id[c], make_value(c, 7, &b)),
                         ECS_SCHED_ERR_STALE_ENTITY);
        assert_int_equal(ecs_sched_commands_pending(r->cmd), 0);
        break;
    }
}

/* One entry of prefab data: random components, values or defaults; `plan` keeps what the
   entry holds (a NULL value is the default value, 0). */
typedef struct entry_plan {
    unsigned char has[C_COUNT];
    int32_t value[C_COUNT];
} entry_plan;

static void fill_entry(run *r, ecs_sched_prefab_data *d, int32_t entry, entry_plan *plan) {
    int comps[C_COUNT], n = (int)(next_random() % 5), i;
    memset(plan, 0, sizeof *plan);
    random_components(comps, n);
    for (i = 0; i < n; i++) {
        value_buf b;
        int32_t v;
        const int32_t *model_v;
        const void *value = random_insert_value(comps[i], &b, &v, &model_v);
        assert_int_equal(ecs_sched_prefab_data_set(d, entry, r->id[comps[i]], value), ECS_SCHED_OK);
        plan->has[comps[i]] = 1;
        plan->value[comps[i]] = model_v ? v : 0;
    }
}

static void model_apply_entry(model *m, int s, const entry_plan *plan) {
    int c;
    for (c = 0; c < C_COUNT; c++) {
        if (plan->has[c]) model_put(m, s, c, &plan->value[c]);
    }
}

/* Prefab data of three entries (the main one, one under it, one placed under either with
   set_parent) made onto the entity of main_slot, or onto a new entity when main_slot is -1. */
static void instantiate_data(run *r, int main_slot) {
    model *m = &r->m;
    int slots[3], need = main_slot < 0 ? 3 : 2, found = 0, k;
    int32_t parent_entry[3];
    entry_plan plan[3];
    ecs_sched_entity made[3];
    ecs_sched_prefab_data *d;
    int start = (int)(next_random() % SLOTS);
    while (found < need) {
        int s = free_slot_from(m, start, slots, found);
        if (s < 0) return;   /* no room in the model */
        slots[found++] = s;
    }
    if (main_slot >= 0) {
        slots[2] = slots[1];
        slots[1] = slots[0];
        slots[0] = main_slot;
    }
    d = ecs_sched_prefab_data_create(r->w);
    assert_non_null(d);
    assert_int_equal(ecs_sched_prefab_data_add(d, -1), 0);
    assert_int_equal(ecs_sched_prefab_data_add(d, 0), 1);
    assert_int_equal(ecs_sched_prefab_data_add(d, -1), 2);
    parent_entry[0] = -1;
    parent_entry[1] = 0;
    parent_entry[2] = (int32_t)(next_random() % 2);
    assert_int_equal(ecs_sched_prefab_data_set_parent(d, 2, parent_entry[2]), ECS_SCHED_OK);
    for (k = 0; k < 3; k++) fill_entry(r, d, k, &plan[k]);
    assert_int_equal(ecs_sched_prefab_data_instantiate(r->w, d, main_slot >= 0 ? m->e[main_slot] : 0, made),
                     ECS_SCHED_OK);
    ecs_sched_prefab_data_free(d);
    if (main_slot >= 0) assert_true(made[0] == m->e[main_slot]);
    else model_spawn(m, slots[0], made[0], -1);
    model_apply_entry(m, slots[0], &plan[0]);
    for (k = 1; k < 3; k++) {
        model_spawn(m, slots[k], made[k], slots[parent_entry[k]]);
        model_apply_entry(m, slots[k], &plan[k]);
    }
}

/* ---- command buffers ---- */

enum { REC_SPAWN, REC_INSERT, REC_REMOVE, REC_DESPAWN, REC_DISABLE, REC_ENABLE, REC_DATA };

typedef struct recorded {
    int op;
    int slot;
    ecs_sched_entity e;
    int comp[C_COUNT];
    int comp_count;
    const int32_t *model_v[C_COUNT];
    int32_t v[C_COUNT];
    entry_plan plan;   /* REC_DATA */
} recorded;

/* What a buffer holds until it is applied: the commands, the values their Owned components
   point at, and the prefab data they name. */
typedef struct batch {
    recorded rec[MAX_RECORDED];
    int count;
    value_buf values[MAX_RECORDED][C_COUNT];
    ecs_sched_prefab_data *data[MAX_RECORDED];
    ecs_sched_entity reserved[SLOTS];   /* slots of the entities the buffer spawns */
} batch;

/* The entity a command may name: a live one, one this buffer spawns, or (into an empty slot)
   a new one spawned now. -1: none. */
static int command_target(run *r, batch *b, ecs_sched_entity *e) {
    int s = (int)(next_random() % SLOTS);
    if (r->m.e[s]) *e = r->m.e[s];
    else if (b->reserved[s]) *e = b->reserved[s];
    else return -1;
    return s;
}

static void record_spawn(run *r, batch *b, int s, recorded *rec) {
    int i;
    ecs_sched_id ids[C_COUNT];
    const void *values[C_COUNT];
    rec->op = REC_SPAWN;
    rec->comp_count = (int)(next_random() % 4);
    random_components(rec->comp, rec->comp_count);
    for (i = 0; i < rec->comp_count; i++) {
        ids[i] = r->id[rec->comp[i]];
        values[i] = random_insert_value(rec->comp[i], &b->values[b->count][i], &rec->v[i], &rec->model_v[i]);
    }
    rec->e = ecs_sched_commands_spawn_with(r->cmd, rec->comp_count, ids, values);
    assert_true(rec->e != ECS_SCHED_NULL_ENTITY);
    assert_false(ecs_sched_is_alive(r->w, rec->e));
    b->reserved[s] = rec->e;
}

static void record_one(run *r, batch *b) {
    recorded *rec = &b->rec[b->count];
    ecs_sched_entity e = 0;
    int s = command_target(r, b, &e);
    unsigned op = next_random() % 8;
    int c = random_component();
    memset(rec, 0, sizeof *rec);
    if (s < 0) {
        s = (int)(next_random() % SLOTS);
        if (r->m.e[s] || b->reserved[s]) return;
        record_spawn(r, b, s, rec);
        rec->slot = s;
        b->count++;
        return;
    }
    rec->slot = s;
    rec->e = e;
    switch (op) {
    case 0:
    case 1:
    case 2: {
        const void *value = random_insert_value(c, &b->values[b->count][0], &rec->v[0], &rec->model_v[0]);
        rec->op = REC_INSERT;
        rec->comp[0] = c;
        rec->comp_count = 1;
        assert_int_equal(ecs_sched_commands_insert(r->cmd, e, r->id[c], value), ECS_SCHED_OK);
        break;
    }
    case 3:
    case 4:
        rec->op = REC_REMOVE;
        rec->comp[0] = c;
        rec->comp_count = 1;
        assert_int_equal(ecs_sched_commands_remove(r->cmd, e, r->id[c]), ECS_SCHED_OK);
        break;
    case 5:
        rec->op = REC_DESPAWN;
        assert_int_equal(ecs_sched_commands_despawn(r->cmd, e), ECS_SCHED_OK);
        break;
    case 6:
        rec->op = next_random() % 2 ? REC_DISABLE : REC_ENABLE;
        assert_int_equal(rec->op == REC_DISABLE ? ecs_sched_commands_disable(r->cmd, e)
                                                : ecs_sched_commands_enable(r->cmd, e),
                         ECS_SCHED_OK);
        break;
    default: {   /* prefab data of a main entry only, onto e */
        ecs_sched_prefab_data *d = ecs_sched_prefab_data_create(r->w);
        assert_non_null(d);
        assert_int_equal(ecs_sched_prefab_data_add(d, -1), 0);
        fill_entry(r, d, 0, &rec->plan);
        rec->op = REC_DATA;
        assert_true(ecs_sched_commands_prefab_data_instantiate(r->cmd, d, e) == e);
        b->data[b->count] = d;
        break;
    }
    }
    b->count++;
}

/* Applies the recorded commands to the model in order, as the buffer does: a command whose
   entity is dead by its turn is skipped. Returns how many were. */
static int model_apply_commands(model *m, const batch *b) {
    int k, i, skipped = 0;
    for (k = 0; k < b->count; k++) {
        const recorded *rec = &b->rec[k];
        int s = rec->slot;
        if (rec->op == REC_SPAWN) {
            model_spawn(m, s, rec->e, -1);
            for (i = 0; i < rec->comp_count; i++) model_put(m, s, rec->comp[i], rec->model_v[i]);
            continue;
        }
        if (m->e[s] != rec->e) {
            skipped++;
            continue;
        }
        switch (rec->op) {
        case REC_INSERT: model_put(m, s, rec->comp[0], rec->model_v[0]); break;
        case REC_REMOVE: model_take(m, s, rec->comp[0]); break;
        case REC_DESPAWN: model_despawn(m, s); break;
        case REC_DISABLE: m->has[s][C_DISABLED] = 1; break;
        case REC_ENABLE: m->has[s][C_DISABLED] = 0; break;
        default: model_apply_entry(m, s, &rec->plan); break;
        }
    }
    return skipped;
}

static void apply_commands(run *r) {
    static batch b;
    int n = 1 + (int)(next_random() % MAX_RECORDED), k, skipped;
    memset(&b, 0, sizeof b);
    for (k = 0; k < n; k++) record_one(r, &b);
    assert_int_equal(ecs_sched_commands_pending(r->cmd) > 0, b.count > 0);
    assert_int_equal(ecs_sched_commands_apply(r->cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_pending(r->cmd), 0);
    skipped = model_apply_commands(&r->m, &b);
    assert_int_equal(ecs_sched_commands_skipped(r->cmd), skipped);
    for (k = 0; k < b.count; k++) ecs_sched_prefab_data_free(b.data[k]);
}

static void step(run *r) {
    model *m = &r->m;
    int s = (int)(next_random() % SLOTS), i;
    unsigned op = next_random() % 20;
    for (i = 0; i < SLOTS && !m->e[s] && op >= 8; i++) {   /* else the next live entity */
        s = (s + 1) % SLOTS;
    }
    if (!m->e[s]) {   /* an empty slot: a spawn, often enough to leave some slots free */
        if (op < 3) instantiate_data(r, -1);
        else spawn_random(r, s);
        return;
    }
    switch (op) {
    case 0: case 1: case 2:
        assert_int_equal(ecs_sched_despawn(r->w, m->e[s]), ECS_SCHED_OK);
        model_despawn(m, s);
        break;
    case 3: case 4: case 5: case 6:
        insert_one(r, s);
        break;
    case 7: case 8:
        remove_one(r, s);
        break;
    case 9: case 10:
        insert_many(r, s);
        break;
    case 11: case 12:
        reparent(r, s);
        break;
    case 13:
        disable_or_enable(r, s);
        break;
    case 14:
        instantiate_data(r, s);
        break;
    case 15: case 16:
        apply_commands(r);
        break;
    case 17: case 18:
        write_through_get_mut(r, s);
        break;
    default:
        touch_dead(r);
        break;
    }
}

static void random_operations_agree_with_the_model(void **state) {
    static const unsigned seeds[3] = {1, 77, 4242};
    int k, i;
    (void)state;
    for (k = 0; k < 3; k++) {
        run *r = &g_run;
        start_run(r, k == 1);   /* with observers once: the other paths of every operation */
        g_seed = seeds[k];
        for (i = 0; i < STEPS; i++) {
            step(r);
            check_model(r);
        }
        if (k == 1) {
            assert_int_equal(r->despawns_observed, r->m.despawned_enabled);
            assert_true(r->values_observed > 0);
        }
        check_and_destroy(r->w);
        r->w = NULL;
        assert_int_equal(g_owned, 0);
    }
}

static int destroy_leftover_world(void **state) {
    (void)state;
    if (g_run.w) ecs_sched_world_destroy(g_run.w);
    g_run.w = NULL;
    return 0;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_operations_agree_with_the_model),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
