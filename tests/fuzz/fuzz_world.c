/* A libFuzzer target for the world against a model: the bytes are read as up to 48
   operations on at most 16 entities: spawns with values, spawn_batch, despawns of whole
   subtrees, inserts (new and over a value), insert_many, removes, get_mut, ensure and
   get_mut_many (overriding inherited values), ChildOf links
   made, moved and taken away, IsA bases related and unrelated, instantiate, the Prefab tag
   given and taken, disabling and enabling, resources inserted and removed, the bulk calls
   (remove_all, delete_with, query_insert, query_remove, remove_all_pairs and
   delete_with_pair of ChildOf and IsA), calls on stale handles, and command buffers of most of
   these recorded and then applied; on components kept in tables and in sparse sets, two of
   them values that own memory through their ctor/dtor/copy/move hooks. A plain model
   (arrays, linear search) predicts every result code, and after every operation the world
   must agree with it: who is alive, what each entity owns and sees (its own value, else its
   nearest base's; sparse values are copied when a base is related), parents and the order of
   children, who is disabled or a prefab, the resources, the values the hooks made and not yet
   destroyed, what observers of ON_ADD, ON_INSERT, ON_REMOVE and ON_DESPAWN counted (those
   that see disabled entities and prefabs and those that do not), what queries made at the
   start hand out row by row (values, the parent's for from_parent terms, a base's for
   inherited terms, parents before children for a cascade, disabled entities only where
   asked, prefabs never), ecs_sched_world_check and the entity count. On a disagreement it
   prints the operation, both answers and the model, then aborts.

   make fuzz-world-smoke (a short run over tests/fuzz/corpus/world, part of make test); make
   fuzz-world (a minute). */
/* Built by make against the fuzz targets' shared implementation object, which has every
   optional module (the Makefile's fuzzing section). */
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The model and the checks are left out of the coverage the fuzzer follows: it steers by
   what the library does, and the checks run after every operation. */
#if defined(__clang__) && __clang_major__ >= 13
#define NOT_STEERING __attribute__((no_sanitize("coverage")))
#else
#define NOT_STEERING
#endif

#define SLOTS 16
#define MAX_OPS 48
#define MAX_BASES 4
#define DEAD_KEPT 32
#define MAX_RECORDED 8
#define MAX_BATCH 3
#define FRAME 16

/* ---- failures ---- */

static int g_op;                   /* the index of the operation being checked */
static const char *g_op_name = "setup";
static ecs_sched_world *g_world;

static void dump_model(void);

static void mismatch(int line, const char *what, long long expected, long long got) {
    fprintf(stderr, "fuzz_world: operation %d (%s): %s: expected %lld, got %lld (line %d)\n", g_op,
            g_op_name, what, expected, got, line);
    if (g_world) fprintf(stderr, "last error: %s\n", ecs_sched_last_error(g_world));
    dump_model();
    abort();
}

#define EXPECT_EQ(got, expected, what)                                  \
    do {                                                                \
        long long got_ = (long long)(got), expected_ = (long long)(expected); \
        if (got_ != expected_) mismatch(__LINE__, what, expected_, got_); \
    } while (0)
#define EXPECT(cond, what) EXPECT_EQ((cond) ? 1 : 0, 1, what)

/* ---- components ---- */

typedef struct { float x, y; } Position;
typedef struct { float x, y; } Velocity;
typedef struct { int32_t hp; } Health;
typedef struct { float heat; int32_t turns; } Burning;
/* A value that owns memory (a heap int, or none for 0): Label in tables, Aura in sparse
   sets. g_owned counts the ints alive; g_live[k] the values the hooks constructed and not
   yet destroyed. */
typedef struct { int32_t *n; } Owned;

static long g_owned;
static long g_live[2];

static void owned_assign(Owned *o, int32_t v) {
    if (v == 0) {
        if (o->n) g_owned--;
        free(o->n);
        o->n = NULL;
        return;
    }
    if (!o->n) {
        o->n = (int32_t *)malloc(sizeof *o->n);
        if (!o->n) abort();
        g_owned++;
    }
    *o->n = v;
}

static void owned_ctor(void *dst, int32_t count, void *ctx) {
    *(long *)ctx += count;
    memset(dst, 0, (size_t)count * sizeof(Owned));
}

static void owned_dtor(void *ptr, int32_t count, void *ctx) {
    Owned *o = (Owned *)ptr;
    int32_t i;
    *(long *)ctx -= count;
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

enum {
    C_POS,      /* table: Position {v, -v} */
    C_VEL,      /* table, tracked: Velocity {v, 2v} */
    C_HP,       /* table: Health {v}; also a resource */
    C_LABEL,    /* table, hooks: Owned; also a resource */
    C_FROZEN,   /* table tag (inherited like any component) */
    C_BURN,     /* sparse: Burning {v, 3v} */
    C_AURA,     /* sparse, hooks: Owned */
    C_SEL,      /* sparse tag */
    C_COUNT,
    C_DISABLED = C_COUNT,   /* in query terms: the Disabled tag */
    C_CHILD_OF,             /* in query terms: the ChildOf kind (cascade) */
    C_ALL
};

static const int g_resource_comp[2] = {C_HP, C_LABEL};
#define R_COUNT 2

static bool is_tag(int c) { return c == C_FROZEN || c == C_SEL || c == C_DISABLED; }
static bool is_sparse(int c) { return c == C_BURN || c == C_AURA || c == C_SEL; }
static bool is_owned_type(int c) { return c == C_LABEL || c == C_AURA; }
static int live_index(int c) { return c == C_LABEL ? 0 : 1; }

typedef struct value_buf {
    union {
        Position pos;
        Velocity vel;
        Health hp;
        Owned owned;
        Burning burn;
    } v;
    int32_t n;   /* what an Owned value points at (the buffer is never copied) */
} value_buf;

/* The value of component c standing for the number v (NULL for a tag). */
static const void *make_value(int c, int32_t v, value_buf *b) {
    memset(b, 0, sizeof *b);
    switch (c) {
    case C_POS: b->v.pos.x = (float)v; b->v.pos.y = (float)-v; break;
    case C_VEL: b->v.vel.x = (float)v; b->v.vel.y = (float)(2 * v); break;
    case C_HP: b->v.hp.hp = v; break;
    case C_LABEL:
    case C_AURA:
        b->n = v;
        b->v.owned.n = v ? &b->n : NULL;
        break;
    case C_BURN: b->v.burn.heat = (float)v; b->v.burn.turns = 3 * v; break;
    default: return NULL;
    }
    return &b->v;
}

/* The number a value stands for; its parts must agree with each other. */
NOT_STEERING static int32_t value_of(int c, const void *p) {
    switch (c) {
    case C_POS: {
        const Position *pos = (const Position *)p;
        EXPECT(pos->y == -pos->x, "a Position's parts");
        return (int32_t)pos->x;
    }
    case C_VEL: {
        const Velocity *vel = (const Velocity *)p;
        EXPECT(vel->y == 2 * vel->x, "a Velocity's parts");
        return (int32_t)vel->x;
    }
    case C_HP: return ((const Health *)p)->hp;
    case C_LABEL:
    case C_AURA: {
        const Owned *o = (const Owned *)p;
        if (o->n) EXPECT(*o->n != 0, "an Owned value's int");
        return o->n ? *o->n : 0;
    }
    case C_BURN: {
        const Burning *b = (const Burning *)p;
        EXPECT_EQ(b->turns, 3 * (int32_t)b->heat, "a Burning's parts");
        return (int32_t)b->heat;
    }
    default: EXPECT(0, "a component with a value"); return 0;
    }
}

static void write_value(int c, void *p, int32_t v) {
    value_buf b;
    if (is_owned_type(c)) {
        owned_assign((Owned *)p, v);
        return;
    }
    make_value(c, v, &b);
    switch (c) {
    case C_POS: *(Position *)p = b.v.pos; break;
    case C_VEL: *(Velocity *)p = b.v.vel; break;
    case C_HP: *(Health *)p = b.v.hp; break;
    case C_BURN: *(Burning *)p = b.v.burn; break;
    default: EXPECT(0, "a component with a value");
    }
}

/* ---- the model ---- */

typedef struct model {
    ecs_sched_entity e[SLOTS];             /* 0: the slot is empty */
    int parent[SLOTS];                     /* slot of the parent, or -1 */
    unsigned seq[SLOTS];                   /* when it was last placed under its parent */
    int base[SLOTS][MAX_BASES];            /* slots of its bases, in the order they became bases */
    int bases[SLOTS];
    unsigned mark[SLOTS];                  /* when it first became a base (0: never) */
    unsigned next_mark;
    unsigned char own[SLOTS][C_COUNT];
    int32_t value[SLOTS][C_COUNT];         /* 0 for tags and what it does not own */
    unsigned char disabled[SLOTS];
    unsigned char prefab[SLOTS];
    ecs_sched_entity dead[DEAD_KEPT];
    int dead_count;
    unsigned next_seq;
    int copies[SLOTS];                     /* slots made by a buffer's instantiate, whose */
    int copy_count;                        /* handles are known once it is applied */
    ecs_sched_entity next_placeholder;
    unsigned char res_has[R_COUNT];
    int32_t res_value[R_COUNT];
    /* what the observers should have counted */
    long on_add[C_COUNT], on_insert[C_COUNT], on_remove[C_COUNT], despawns;
    long add_enabled[C_COUNT], remove_enabled[C_COUNT];
} model;

/* The slot whose value of c slot s sees: itself, else its nearest base with it (fewest IsA
   steps; at equal distance the first found walking bases in the order they became bases,
   whoever they became bases of first, each base's bases in the same order). -1: none.
   Sparse components are never inherited. */
NOT_STEERING static int model_owner(const model *m, int s, int c) {
    int level[SLOTS * MAX_BASES], next[SLOTS * MAX_BASES], n = 1, depth, i, k;
    if (m->own[s][c]) return s;
    if (is_sparse(c)) return -1;
    level[0] = s;
    for (depth = 0; depth < SLOTS && n > 0; depth++) {
        int count = 0;
        for (i = 0; i < n; i++) {
            for (k = 0; k < m->bases[level[i]]; k++) {
                int b = m->base[level[i]][k];
                if (m->own[b][c]) return b;
                if (count < SLOTS * MAX_BASES) next[count++] = b;
            }
        }
        memcpy(level, next, (size_t)count * sizeof *level);
        n = count;
    }
    return -1;
}

NOT_STEERING static bool model_sees(const model *m, int s, int c) { return model_owner(m, s, c) >= 0; }

/* Whether b is s or one of its bases, through any number of steps. */
NOT_STEERING static bool model_inherits_from(const model *m, int s, int b) {
    int k;
    if (s == b) return true;
    for (k = 0; k < m->bases[s]; k++) {
        if (model_inherits_from(m, m->base[s][k], b)) return true;
    }
    return false;
}

NOT_STEERING static bool model_below(const model *m, int a, int b) {   /* a is b or below b (ChildOf) */
    for (; a >= 0; a = m->parent[a]) {
        if (a == b) return true;
    }
    return false;
}

/* Observers hear of disabled entities and prefabs only when they ask. */
static bool model_hidden(const model *m, int s) { return m->disabled[s] || m->prefab[s]; }

static void count_add(model *m, int s, int c) {
    m->on_add[c]++;
    if (!model_hidden(m, s)) m->add_enabled[c]++;
}

static void count_remove(model *m, int s, int c) {
    m->on_remove[c]++;
    if (!model_hidden(m, s)) m->remove_enabled[c]++;
}

static void model_spawn(model *m, int s, ecs_sched_entity e) {
    m->e[s] = e;
    m->parent[s] = -1;
    m->bases[s] = 0;
    m->mark[s] = 0;
    m->disabled[s] = 0;
    m->prefab[s] = 0;
    memset(m->own[s], 0, sizeof m->own[s]);
    memset(m->value[s], 0, sizeof m->value[s]);
}

/* An insert of c (without its observers' counts): v NULL gives a new component the value it
   inherits, else its default (0), and leaves a present one as it is. */
static void model_put_value(model *m, int s, int c, const int32_t *v) {
    if (v && !is_tag(c)) {
        m->value[s][c] = *v;
    } else if (!m->own[s][c] && !is_tag(c)) {
        int from = model_owner(m, s, c);
        m->value[s][c] = from >= 0 ? m->value[from][c] : 0;
    }
    m->own[s][c] = 1;
}

/* A run of inserts on one entity made by one archetype move: the values first, then the
   observers (which see the entity as the move left it). */
static void model_insert_run(model *m, int s, int n, const int *comps, const int32_t *const *v) {
    unsigned char had[C_COUNT];
    int i;
    memcpy(had, m->own[s], sizeof had);
    for (i = 0; i < n; i++) model_put_value(m, s, comps[i], v[i]);
    for (i = 0; i < n; i++) {
        if (!had[comps[i]]) count_add(m, s, comps[i]);
    }
    for (i = 0; i < n; i++) m->on_insert[comps[i]]++;
}

static void model_remove(model *m, int s, int c) {
    if (!m->own[s][c]) return;
    count_remove(m, s, c);
    m->own[s][c] = 0;
    m->value[s][c] = 0;
}

/* Whether despawning s is refused: some entity it takes along (its subtree) is a base of an
   entity that stays. */
static bool model_despawn_refused(const model *m, int s) {
    int i, k;
    for (i = 0; i < SLOTS; i++) {
        if (!m->e[i] || model_below(m, i, s)) continue;   /* i stays */
        for (k = 0; k < m->bases[i]; k++) {
            if (model_below(m, m->base[i][k], s)) return true;
        }
    }
    return false;
}

static void model_despawn_one(model *m, int s) {
    int c;
    m->despawns++;
    for (c = 0; c < C_COUNT; c++) {
        if (m->own[s][c]) count_remove(m, s, c);
    }
    m->dead[m->dead_count++ % DEAD_KEPT] = m->e[s];
    m->e[s] = 0;
}

static void model_despawn(model *m, int s) {
    unsigned char doomed[SLOTS];
    int i, k;
    for (i = 0; i < SLOTS; i++) doomed[i] = m->e[i] && model_below(m, i, s);
    for (i = 0; i < SLOTS; i++) {
        if (doomed[i]) model_despawn_one(m, i);
    }
    for (i = 0; i < SLOTS; i++) {   /* what is left forgets the dead (none was a base) */
        if (!m->e[i]) continue;
        for (k = 0; k < m->bases[i]; k++) {
            if (doomed[m->base[i][k]]) EXPECT(0, "a base that stays after its despawn");
        }
    }
}

/* s goes under p (or to the roots, -1), last among p's children. A new child of a prefab
   becomes a prefab with its subtree (one that is there already stays as it is). */
static void model_set_parent(model *m, int s, int p) {
    bool moved = m->parent[s] != p;
    int i;
    m->parent[s] = p;
    m->seq[s] = ++m->next_seq;
    if (!moved || p < 0 || !m->prefab[p]) return;
    for (i = 0; i < SLOTS; i++) {
        if (m->e[i] && model_below(m, i, s)) m->prefab[i] = 1;
    }
}

/* s becomes an instance of b (which it is not already): it owns a copy of each sparse value
   of b it lacks, and b has its place among the bases (its mark). keep false: unrelated at
   once (the model keeps at most MAX_BASES bases), all else stays. */
static void model_relate_base(model *m, int s, int b, bool keep) {
    int c, k;
    for (c = 0; c < C_COUNT; c++) {
        if (is_sparse(c) && m->own[b][c] && !m->own[s][c]) {
            int comps[1];
            const int32_t *v[1];
            comps[0] = c;
            v[0] = &m->value[b][c];
            model_insert_run(m, s, 1, comps, v);
        }
    }
    if (!m->mark[b]) m->mark[b] = ++m->next_mark;
    if (!keep) return;
    for (k = m->bases[s]; k > 0 && m->mark[m->base[s][k - 1]] > m->mark[b]; k--) {
        m->base[s][k] = m->base[s][k - 1];
    }
    m->base[s][k] = b;
    m->bases[s]++;
}

static void model_unrelate_base(model *m, int s, int k) {
    for (; k + 1 < m->bases[s]; k++) m->base[s][k] = m->base[s][k + 1];
    m->bases[s]--;
}

static int model_base_index(const model *m, int s, int b) {
    int k;
    for (k = 0; k < m->bases[s]; k++) {
        if (m->base[s][k] == b) return k;
    }
    return -1;
}

/* ---- queries made once per world ---- */

#define QUERY_TERMS 4
#define TERM_INH ECS_SCHED_TERM_INHERITED

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
    {1, {C_POS}, {R}},
    {1, {C_BURN}, {R}},
    {4, {C_HP, C_BURN, C_SEL, C_LABEL}, {W, R, NOT, OR}},
    {2, {C_VEL, C_POS}, {R, NOT}},
    {4, {C_AURA, C_SEL, C_FROZEN, C_BURN}, {R, R, NOT, OR}},
    {2, {C_LABEL, C_DISABLED}, {R, R}},
    {3, {C_POS, C_DISABLED, C_AURA}, {R, OR, OW}},
    {2, {C_SEL, C_FROZEN}, {R, OR}},
    {2, {C_VEL, C_HP}, {R, OFP}},
    {3, {C_POS, C_LABEL, C_CHILD_OF}, {R, FP, CAS}},
    {3, {C_BURN, C_POS, C_SEL}, {W, OFP, NOT}},
    {2, {C_HP, C_POS}, {TERM_INH, R}},
    {3, {C_LABEL, C_FROZEN, C_VEL}, {TERM_INH, TERM_INH, NOT}},
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

NOT_STEERING static bool from_parent(ecs_sched_term_kind kind) {
    return kind == ECS_SCHED_TERM_FROM_PARENT || kind == ECS_SCHED_TERM_OPTIONAL_FROM_PARENT;
}

NOT_STEERING static bool spec_inherits(const query_spec *spec) {
    int t;
    for (t = 0; t < spec->terms; t++) {
        if (spec->kind[t] == TERM_INH) return true;
    }
    return false;
}

NOT_STEERING static bool model_has_term(const model *m, int s, int c) {
    return c == C_DISABLED ? m->disabled[s] != 0 : m->own[s][c] != 0;
}

NOT_STEERING static bool model_matches(const model *m, int s, const query_spec *spec) {
    bool names_disabled = false;
    int t;
    if (m->prefab[s]) return false;   /* no query names the Prefab tag */
    for (t = 0; t < spec->terms; t++) {
        int c = spec->comp[t];
        ecs_sched_term_kind kind = spec->kind[t];
        bool has = c == C_CHILD_OF || model_has_term(m, s, c);
        if (c == C_DISABLED) names_disabled = true;
        if ((kind == ECS_SCHED_TERM_READ || kind == ECS_SCHED_TERM_WRITE) && !has) return false;
        if (kind == ECS_SCHED_TERM_WITHOUT && has) return false;
        if (kind == TERM_INH && !model_sees(m, s, c)) return false;
        if (kind == ECS_SCHED_TERM_FROM_PARENT && (m->parent[s] < 0 || !m->own[m->parent[s]][c])) {
            return false;
        }
    }
    return names_disabled || !m->disabled[s];
}

/* ---- one input's run ---- */

typedef struct counters {
    long add[C_COUNT], insert[C_COUNT], remove[C_COUNT], despawns;
    long add_enabled[C_COUNT], remove_enabled[C_COUNT];
} counters;

typedef struct run {
    ecs_sched_world *w;
    ecs_sched_id id[C_ALL];
    ecs_sched_id is_a, prefab;
    ecs_sched_query *query[QUERY_COUNT];
    ecs_sched_commands *cmd;
    bool observed;
    model m;
    counters got;
    int32_t entities_before;
    const uint8_t *data, *frame;
    size_t size, at, frame_len, frame_at;
} run;

static run g_run;

/* The input is read in frames of FRAME bytes, one per operation or recorded command, so that
   a mutation inside one leaves the meaning of the others; past its frame's end an operation
   reads zeros. */
static void start_frame(run *r) {
    size_t left = r->size - r->at;
    r->frame = r->data + r->at;
    r->frame_len = left < FRAME ? left : FRAME;
    r->frame_at = 0;
    r->at += r->frame_len;
}

static unsigned next_byte(run *r) { return r->frame_at < r->frame_len ? r->frame[r->frame_at++] : 0u; }
static bool bytes_left(const run *r) { return r->at < r->size; }
static int pick(run *r, int n) { return (int)(next_byte(r) % (unsigned)n); }

/* A value to insert: NULL (the default, or no change) for a tag or when the byte is 0. */
static const void *decode_value(run *r, int c, value_buf *b, int32_t *v, const int32_t **model_v) {
    unsigned byte = next_byte(r);
    if (is_tag(c) || byte == 0) {
        *model_v = NULL;
        make_value(c, 0, b);
        return NULL;
    }
    *v = (int32_t)byte;
    *model_v = v;
    return make_value(c, *v, b);
}

/* `count` distinct components in an order the bytes choose. */
static void decode_components(run *r, int *out, int count) {
    int all[C_COUNT], i;
    for (i = 0; i < C_COUNT; i++) all[i] = i;
    for (i = 0; i < count; i++) {
        int j = i + pick(r, C_COUNT - i), t = all[i];
        all[i] = all[j];
        all[j] = t;
        out[i] = all[i];
    }
}

static int free_slot_from(const model *m, int start, const unsigned char *taken) {
    int i;
    for (i = 0; i < SLOTS; i++) {
        int s = (start + i) % SLOTS;
        if (!m->e[s] && !(taken && taken[s])) return s;
    }
    return -1;
}

/* ---- observers: each counts its calls ---- */

/* Each call counts, and reads what it is told about: the entity is alive, and the value
   (ON_ADD and ON_INSERT: the one inserted, in place; ON_REMOVE: the one going, still
   there) is whole, so that a value read after it is freed or moved shows. */
static void count_call(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *trigger) {
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    int c;
    ++*(long *)ecs_sched_ctx_user_data(ctx);
    EXPECT(ecs_sched_is_alive(w, trigger->entity), "an observer hears of a live entity");
    for (c = 0; c < C_COUNT && g_run.id[c] != trigger->component; c++) {}
    if (c < C_COUNT && !is_tag(c)) {
        const void *p = ecs_sched_get(w, trigger->entity, trigger->component);
        EXPECT(p != NULL, "an observer reads the value it hears of");
        value_of(c, p);
    }
}

static void add_counter(run *r, ecs_sched_observer_event event, int c, bool sees_disabled, long *n) {
    ecs_sched_observer_desc d;
    memset(&d, 0, sizeof d);
    d.event = event;
    d.component = c < 0 ? 0 : r->id[c];
    d.fn = count_call;
    d.user_data = n;
    d.sees_disabled = sees_disabled;
    d.sees_prefabs = sees_disabled;
    if (ecs_sched_observer_add(r->w, &d) == 0) EXPECT(0, "adding an observer");
}

static void add_observers(run *r) {
    int c;
    for (c = 0; c < C_COUNT; c++) {
        add_counter(r, ECS_SCHED_ON_ADD, c, true, &r->got.add[c]);
        add_counter(r, ECS_SCHED_ON_INSERT, c, true, &r->got.insert[c]);
        add_counter(r, ECS_SCHED_ON_REMOVE, c, true, &r->got.remove[c]);
        add_counter(r, ECS_SCHED_ON_ADD, c, false, &r->got.add_enabled[c]);
        add_counter(r, ECS_SCHED_ON_REMOVE, c, false, &r->got.remove_enabled[c]);
    }
    add_counter(r, ECS_SCHED_ON_DESPAWN, -1, true, &r->got.despawns);
}

/* ---- the world ---- */

static void quiet(ecs_sched_log_level level, ecs_sched_result result, const char *message,
                  void *user_data) {
    (void)level;
    (void)result;
    (void)message;
    (void)user_data;
}

static ecs_sched_id register_owned(ecs_sched_world *w, const char *name, ecs_sched_storage storage,
                                   long *live) {
    ecs_sched_component_desc d;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.size = sizeof(Owned);
    d.alignment = ECS_SCHED_ALIGNOF(Owned);
    d.hooks.ctor = owned_ctor;
    d.hooks.dtor = owned_dtor;
    d.hooks.copy = owned_copy;
    d.hooks.move = owned_move;
    d.hooks.ctx = live;
    d.storage = storage;
    return ecs_sched_component_register(w, &d);
}

static void start_run(run *r, unsigned flags) {
    ecs_sched_world_desc desc;
    int i;
    memset(r, 0, sizeof *r);
    memset(&desc, 0, sizeof desc);
    desc.logger.fn = quiet;
    r->w = g_world = ecs_sched_world_create(&desc);
    if (!r->w) abort();
    r->id[C_POS] = ECS_SCHED_COMPONENT(r->w, Position);
    r->id[C_VEL] = ECS_SCHED_TRACKED_COMPONENT(r->w, Velocity);
    r->id[C_HP] = ECS_SCHED_COMPONENT(r->w, Health);
    r->id[C_LABEL] = register_owned(r->w, "Label", ECS_SCHED_STORAGE_TABLE, &g_live[0]);
    r->id[C_FROZEN] = ECS_SCHED_TAG(r->w, Frozen);
    r->id[C_BURN] = ECS_SCHED_SPARSE_COMPONENT(r->w, Burning);
    r->id[C_AURA] = register_owned(r->w, "Aura", ECS_SCHED_STORAGE_SPARSE, &g_live[1]);
    r->id[C_SEL] = ECS_SCHED_SPARSE_TAG(r->w, Selected);
    r->id[C_DISABLED] = ecs_sched_disabled_tag(r->w);
    r->id[C_CHILD_OF] = ecs_sched_child_of(r->w);
    r->is_a = ecs_sched_is_a(r->w);
    r->prefab = ecs_sched_prefab_tag(r->w);
    for (i = 0; i < C_ALL; i++) EXPECT(r->id[i] != 0, "a registered component");
    for (i = 0; i < QUERY_COUNT; i++) {
        ecs_sched_query_desc d;
        int t;
        memset(&d, 0, sizeof d);
        for (t = 0; t < g_specs[i].terms; t++) {
            d.terms[t].id = r->id[g_specs[i].comp[t]];
            d.terms[t].kind = g_specs[i].kind[t];
        }
        r->query[i] = ecs_sched_query_create(r->w, &d);
        EXPECT(r->query[i] != NULL, "a query made");
    }
    r->cmd = ecs_sched_commands_create(r->w);
    if (!r->cmd) abort();
    for (i = 0; i < SLOTS; i++) r->m.parent[i] = -1;
    r->observed = (flags & 1u) != 0;
    if (r->observed) add_observers(r);
    r->entities_before = ecs_sched_entity_count(r->w);
}

/* ---- the checks after every operation ---- */

/* What the model holds, for the report of a disagreement. */
static void dump_model(void) {
    const model *m = &g_run.m;
    int s, c, k;
    if (!g_world) return;
    fprintf(stderr, "model (slot: entity index, parent slot, bases, disabled/prefab, owned values):\n");
    for (s = 0; s < SLOTS; s++) {
        if (!m->e[s]) continue;
        fprintf(stderr, "  %2d: entity %u, parent %d, bases [", s, (unsigned)ECS_SCHED_ENTITY_INDEX(m->e[s]),
                m->parent[s]);
        for (k = 0; k < m->bases[s]; k++) fprintf(stderr, k ? " %d" : "%d", m->base[s][k]);
        fprintf(stderr, "]%s%s,", m->disabled[s] ? " disabled" : "", m->prefab[s] ? " prefab" : "");
        for (c = 0; c < C_COUNT; c++) {
            if (m->own[s][c]) fprintf(stderr, " c%d=%d", c, (int)m->value[s][c]);
        }
        fprintf(stderr, "\n");
    }
}

NOT_STEERING static int slot_of(const model *m, ecs_sched_entity e) {
    int s;
    for (s = 0; s < SLOTS; s++) {
        if (e && m->e[s] == e) return s;
    }
    return -1;
}

NOT_STEERING static void check_entity(run *r, int s) {
    const model *m = &r->m;
    ecs_sched_entity e = m->e[s];
    const ecs_sched_entity *kids;
    int32_t n, i;
    int c, children = 0, k;
    unsigned last = 0;
    EXPECT(ecs_sched_is_alive(r->w, e), "a live entity is alive");
    EXPECT_EQ(ecs_sched_parent_of(r->w, e), m->parent[s] >= 0 ? m->e[m->parent[s]] : 0, "parent_of");
    EXPECT_EQ(ecs_sched_is_disabled(r->w, e), m->disabled[s], "is_disabled");
    EXPECT_EQ(ecs_sched_has(r->w, e, r->prefab), m->prefab[s], "has the Prefab tag");
    for (c = 0; c < C_COUNT; c++) {
        int from = model_owner(m, s, c);
        EXPECT_EQ(ecs_sched_owns(r->w, e, r->id[c]), m->own[s][c], "owns");
        EXPECT_EQ(ecs_sched_has(r->w, e, r->id[c]), from >= 0, "has");
        EXPECT_EQ(ecs_sched_owner(r->w, e, r->id[c]), from >= 0 ? m->e[from] : 0, "owner");
        if (!is_tag(c)) {
            const void *p = ecs_sched_get(r->w, e, r->id[c]);
            EXPECT_EQ(p != NULL, from >= 0, "get found a value");
            if (p) EXPECT_EQ(value_of(c, p), m->value[from][c], "get's value");
        }
    }
    for (k = 0; k < m->bases[s]; k++) {
        EXPECT(ecs_sched_has_relation(r->w, e, r->is_a, m->e[m->base[s][k]]), "an IsA base");
    }
    EXPECT_EQ(ecs_sched_target_count(r->w, e, r->is_a), m->bases[s], "the number of bases");
    for (i = 0; i < SLOTS; i++) children += m->e[i] && m->parent[i] == s;
    kids = ecs_sched_children(r->w, e, &n);
    EXPECT_EQ(n, children, "the number of children");
    for (i = 0; i < n; i++) {   /* in the order they were placed under e */
        int k2 = slot_of(m, kids[i]);
        EXPECT(k2 >= 0 && m->parent[k2] == s, "a child of the model's");
        EXPECT(m->seq[k2] > last, "children in order");
        last = m->seq[k2];
    }
}

NOT_STEERING static void *term_value(const ecs_sched_iter *it, int term, int c, int32_t i, int32_t row) {
    if (!it->fields[term]) return NULL;
    switch (c) {
    case C_POS: return ECS_SCHED_FIELD(it, Position, term) + row;
    case C_VEL: return ECS_SCHED_FIELD(it, Velocity, term) + row;
    case C_HP: return ECS_SCHED_FIELD_AT(it, Health, term, row);
    case C_LABEL: return ECS_SCHED_FIELD_AT(it, Owned, term, row);
    case C_BURN: return ECS_SCHED_SPARSE_FIELD(it, Burning, term)[i];
    case C_AURA: return ECS_SCHED_SPARSE_FIELD(it, Owned, term)[i];
    default: EXPECT(0, "a component with a value"); return NULL;
    }
}

NOT_STEERING static void check_row(run *r, const query_spec *spec, unsigned char *seen, const ecs_sched_iter *it,
                      int32_t i, int32_t row) {
    model *m = &r->m;
    int s = slot_of(m, it->entities[row]), t;
    EXPECT(s >= 0, "a row of a live entity");
    EXPECT(!seen[s], "a row handed out once");
    seen[s] = 1;
    EXPECT(model_matches(m, s, spec), "a row that matches");
    for (t = 0; t < spec->terms; t++) {
        int c = spec->comp[t];
        ecs_sched_term_kind kind = spec->kind[t];
        void *p;
        if (kind == ECS_SCHED_TERM_CASCADE) {
            int up = m->parent[s];
            if (up >= 0 && model_matches(m, up, spec)) EXPECT(seen[up], "a parent before its child");
            continue;
        }
        if (from_parent(kind)) {
            int up = m->parent[s];
            const void *parent_value = ECS_SCHED_PARENT_FIELD(it, void, t)[i];
            EXPECT_EQ(parent_value != NULL, up >= 0 && m->own[up][c], "a parent's value");
            if (parent_value) EXPECT_EQ(value_of(c, parent_value), m->value[up][c], "the parent's value");
            continue;
        }
        if (kind == TERM_INH) {
            int from = model_owner(m, s, c);
            if (is_tag(c)) continue;
            p = term_value(it, t, c, i, row);
            EXPECT(p != NULL, "an inherited term's value");
            EXPECT_EQ(value_of(c, p), m->value[from][c], "an inherited value");
            continue;
        }
        if (is_tag(c) || kind == ECS_SCHED_TERM_WITHOUT) {
            EXPECT(it->fields[t] == NULL, "a tag's field");
            continue;
        }
        p = term_value(it, t, c, i, row);
        EXPECT_EQ(p != NULL, m->own[s][c], "a term's value present");
        if (!p) continue;
        EXPECT_EQ(value_of(c, p), m->value[s][c], "a term's value");
        if (kind == ECS_SCHED_TERM_WRITE || kind == ECS_SCHED_TERM_OPTIONAL_WRITE) {
            int32_t v = 1000 + (int32_t)((unsigned)(g_op * 31 + s * 7 + t) % 200u);   /* read back next */
            write_value(c, p, v);
            m->value[s][c] = v;
        }
    }
}

NOT_STEERING static void check_query(run *r, int k, bool by_rows) {
    const query_spec *spec = &g_specs[k];
    const model *m = &r->m;
    unsigned char seen[SLOTS];
    ecs_sched_iter it;
    int s, expected = 0, rows = 0;
    int32_t i;
    for (s = 0; s < SLOTS; s++) expected += m->e[s] && model_matches(m, s, spec);
    EXPECT_EQ(ecs_sched_query_count(r->query[k]), expected, "query_count");
    memset(seen, 0, sizeof seen);
    it = ecs_sched_query_iter(r->query[k]);
    if (by_rows && !spec_inherits(spec)) {
        while (ecs_sched_iter_next_rows(&it)) {
            for (i = 0; i < it.count; i++) check_row(r, spec, seen, &it, i, it.rows[i]);
            rows += it.count;
        }
    } else {
        while (ecs_sched_iter_next(&it)) {
            for (i = 0; i < it.count; i++) check_row(r, spec, seen, &it, i, i);
            rows += it.count;
        }
    }
    EXPECT_EQ(rows, expected, "rows handed out");
}

NOT_STEERING static void check_counters(run *r) {
    const model *m = &r->m;
    int c;
    if (!r->observed) return;
    for (c = 0; c < C_COUNT; c++) {
        EXPECT_EQ(r->got.add[c], m->on_add[c], "ON_ADD calls");
        EXPECT_EQ(r->got.insert[c], m->on_insert[c], "ON_INSERT calls");
        EXPECT_EQ(r->got.remove[c], m->on_remove[c], "ON_REMOVE calls");
        EXPECT_EQ(r->got.add_enabled[c], m->add_enabled[c], "ON_ADD calls on enabled entities");
        EXPECT_EQ(r->got.remove_enabled[c], m->remove_enabled[c], "ON_REMOVE calls on enabled entities");
    }
    EXPECT_EQ(r->got.despawns, m->despawns, "ON_DESPAWN calls");
}

NOT_STEERING static void check_model(run *r) {
    const model *m = &r->m;
    int s, i, c, live = 0;
    long owned = 0, constructed[2] = {0, 0};
    EXPECT_EQ(ecs_sched_world_check(r->w), ECS_SCHED_OK, "world_check");
    for (s = 0; s < SLOTS; s++) {
        if (!m->e[s]) continue;
        live++;
        check_entity(r, s);
    }
    for (i = 0; i < DEAD_KEPT && i < m->dead_count; i++) {
        EXPECT(!ecs_sched_is_alive(r->w, m->dead[i]), "a despawned entity is dead");
    }
    EXPECT_EQ(ecs_sched_entity_count(r->w), r->entities_before + live, "entity_count");
    for (i = 0; i < R_COUNT; i++) {
        int c2 = g_resource_comp[i];
        const void *p = m->res_has[i] ? ecs_sched_resource_get(r->w, r->id[c2]) : NULL;
        EXPECT_EQ(ecs_sched_resource_exists(r->w, r->id[c2]), m->res_has[i], "resource_exists");
        if (m->res_has[i]) {
            EXPECT(p != NULL, "resource_get");
            EXPECT_EQ(value_of(c2, p), m->res_value[i], "a resource's value");
        }
    }
    check_counters(r);
    for (i = 0; i < QUERY_COUNT; i++) check_query(r, i, (g_op + i) % 2 == 0);
    for (s = 0; s < SLOTS; s++) {   /* after the queries' writes */
        for (c = 0; c < C_COUNT; c++) {
            if (!m->e[s] || !m->own[s][c] || !is_owned_type(c)) continue;
            owned += m->value[s][c] != 0;
            constructed[live_index(c)]++;
        }
    }
    if (m->res_has[1]) {
        owned += m->res_value[1] != 0;
        constructed[0]++;
    }
    EXPECT_EQ(g_owned, owned, "ints owned by Owned values");
    EXPECT_EQ(g_live[0], constructed[0], "Label values constructed and not destroyed");
    EXPECT_EQ(g_live[1], constructed[1], "Aura values constructed and not destroyed");
}

/* ---- operations done directly ---- */

static int live_slot(run *r) {   /* a live entity's slot chosen by the next byte, or -1 */
    int s = pick(r, SLOTS), i;
    for (i = 0; i < SLOTS; i++, s = (s + 1) % SLOTS) {
        if (r->m.e[s]) return s;
    }
    return -1;
}

static void op_spawn(run *r) {
    model *m = &r->m;
    int s = free_slot_from(m, pick(r, SLOTS), NULL), comps[C_COUNT], n = pick(r, 5), i;
    ecs_sched_id ids[C_COUNT];
    const void *values[C_COUNT];
    const int32_t *model_v[C_COUNT];
    int32_t v[C_COUNT];
    value_buf b[C_COUNT];
    ecs_sched_entity e;
    if (s < 0) return;
    decode_components(r, comps, n);
    for (i = 0; i < n; i++) {
        ids[i] = r->id[comps[i]];
        values[i] = decode_value(r, comps[i], &b[i], &v[i], &model_v[i]);
    }
    e = n == 0 ? ecs_sched_spawn(r->w) : ecs_sched_spawn_with(r->w, n, ids, values);
    EXPECT(e != 0, "a spawn");
    model_spawn(m, s, e);
    model_insert_run(m, s, n, comps, model_v);
}

/* Up to three entities with the same components, values per entity. */
static void op_spawn_batch(run *r) {
    model *m = &r->m;
    int n = 1 + pick(r, MAX_BATCH), count = pick(r, 4), comps[C_COUNT], slots[MAX_BATCH], i, k;
    unsigned char taken[SLOTS];
    ecs_sched_id ids[C_COUNT];
    const void *arrays[C_COUNT];
    const int32_t *model_v[MAX_BATCH][C_COUNT];
    int32_t v[MAX_BATCH][C_COUNT];
    value_buf b[MAX_BATCH][C_COUNT];
    Position pos[MAX_BATCH];
    Velocity vel[MAX_BATCH];
    Health hp[MAX_BATCH];
    Owned label[MAX_BATCH], aura[MAX_BATCH];
    Burning burn[MAX_BATCH];
    ecs_sched_entity made[MAX_BATCH];
    ecs_sched_result result;
    memset(taken, 0, sizeof taken);
    for (k = 0; k < n; k++) {
        slots[k] = free_slot_from(m, pick(r, SLOTS), taken);
        if (slots[k] < 0) return;
        taken[slots[k]] = 1;
    }
    decode_components(r, comps, count);
    for (i = 0; i < count; i++) {
        bool given = !is_tag(comps[i]) && next_byte(r) % 4 != 0;   /* else the array is NULL */
        ids[i] = r->id[comps[i]];
        arrays[i] = NULL;
        for (k = 0; k < n; k++) {
            if (given) {
                const void *p;
                v[k][i] = (int32_t)(next_byte(r) % 250u) + 1;
                model_v[k][i] = &v[k][i];
                p = make_value(comps[i], v[k][i], &b[k][i]);
                switch (comps[i]) {
                case C_POS: pos[k] = *(const Position *)p; arrays[i] = pos; break;
                case C_VEL: vel[k] = *(const Velocity *)p; arrays[i] = vel; break;
                case C_HP: hp[k] = *(const Health *)p; arrays[i] = hp; break;
                case C_LABEL: label[k] = *(const Owned *)p; arrays[i] = label; break;
                case C_AURA: aura[k] = *(const Owned *)p; arrays[i] = aura; break;
                default: burn[k] = *(const Burning *)p; arrays[i] = burn; break;
                }
            } else {
                model_v[k][i] = NULL;
            }
        }
    }
    result = ecs_sched_spawn_batch(r->w, n, count, ids, arrays, made);
    EXPECT_EQ(result, ECS_SCHED_OK, "spawn_batch");
    for (k = 0; k < n; k++) {
        model_spawn(m, slots[k], made[k]);
        model_insert_run(m, slots[k], count, comps, model_v[k]);
    }
}

static void op_despawn(run *r, int s) {
    ecs_sched_result result = ecs_sched_despawn(r->w, r->m.e[s]);
    if (model_despawn_refused(&r->m, s)) {
        EXPECT_EQ(result, ECS_SCHED_ERR_REFUSED, "despawning a base in use");
        return;
    }
    EXPECT_EQ(result, ECS_SCHED_OK, "despawn");
    model_despawn(&r->m, s);
}

static void op_insert(run *r, int s) {
    int c = pick(r, C_COUNT);
    value_buf b;
    int32_t v;
    const int32_t *model_v;
    const void *value = decode_value(r, c, &b, &v, &model_v);
    EXPECT_EQ(ecs_sched_insert(r->w, r->m.e[s], r->id[c], value), ECS_SCHED_OK, "insert");
    model_insert_run(&r->m, s, 1, &c, &model_v);
}

static void op_remove(run *r, int s) {
    int c = pick(r, C_COUNT);
    EXPECT_EQ(ecs_sched_remove(r->w, r->m.e[s], r->id[c]), ECS_SCHED_OK, "remove");
    model_remove(&r->m, s, c);
}

static void op_insert_many(run *r, int s) {
    int comps[C_COUNT], n = 2 + pick(r, 4), i;
    bool no_values = next_byte(r) % 8 == 0;
    ecs_sched_id ids[C_COUNT];
    const void *values[C_COUNT];
    const int32_t *model_v[C_COUNT];
    int32_t v[C_COUNT];
    value_buf b[C_COUNT];
    decode_components(r, comps, n);
    for (i = 0; i < n; i++) {
        ids[i] = r->id[comps[i]];
        values[i] = decode_value(r, comps[i], &b[i], &v[i], &model_v[i]);
        if (no_values) model_v[i] = NULL;
    }
    EXPECT_EQ(ecs_sched_insert_many(r->w, r->m.e[s], n, ids, no_values ? NULL : values), ECS_SCHED_OK,
              "insert_many");
    model_insert_run(&r->m, s, n, comps, model_v);
}

/* The value components, in an order the bytes choose: how many there are. */
static int decode_value_components(run *r, int *out, int count) {
    int comps[C_COUNT], i, n = 0;
    decode_components(r, comps, C_COUNT);
    for (i = 0; i < C_COUNT && n < count; i++) {
        if (!is_tag(comps[i])) out[n++] = comps[i];
    }
    return n;
}

/* get_mut writes the entity's own value: an inherited one is overridden first (a copy of the
   base's, heard as an insert). */
static void op_get_mut(run *r, int s) {
    model *m = &r->m;
    int c, from;
    int32_t v = (int32_t)next_byte(r) + 1;
    void *p;
    decode_value_components(r, &c, 1);
    from = model_owner(m, s, c);
    p = ecs_sched_get_mut(r->w, m->e[s], r->id[c]);
    if (from < 0) {
        EXPECT(p == NULL, "get_mut of a component the entity lacks");
        return;
    }
    EXPECT(p != NULL, "get_mut");
    EXPECT_EQ(value_of(c, p), m->value[from][c], "get_mut's value");
    if (from != s) {
        const int32_t *copy = NULL;
        model_insert_run(m, s, 1, &c, &copy);
    }
    write_value(c, p, v);
    m->value[s][c] = v;
}

/* ensure: get or add. A value the entity lacks is added (its default, or a copy of what it
   inherits), heard by ON_ADD only. */
static void op_ensure(run *r, int s) {
    model *m = &r->m;
    int c, from;
    int32_t v = (int32_t)next_byte(r) + 1;
    void *p;
    decode_value_components(r, &c, 1);
    from = model_owner(m, s, c);
    p = ecs_sched_ensure(r->w, m->e[s], r->id[c]);
    EXPECT(p != NULL, "ensure");
    EXPECT_EQ(value_of(c, p), from >= 0 ? m->value[from][c] : 0, "ensure's value");
    if (from != s) {
        m->value[s][c] = from >= 0 ? m->value[from][c] : 0;
        m->own[s][c] = 1;
        count_add(m, s, c);
    }
    write_value(c, p, v);
    m->value[s][c] = v;
}

/* get_mut_many: all or nothing; the inherited ones overridden before any pointer is taken,
   so every pointer stays good while the others are written through. */
static void op_get_mut_many(run *r, int s) {
    model *m = &r->m;
    int comps[C_COUNT], n = decode_value_components(r, comps, 2 + pick(r, 3)), i;
    ecs_sched_id ids[C_COUNT];
    void *out[C_COUNT];
    bool all = true;
    ecs_sched_result result;
    for (i = 0; i < n; i++) {
        ids[i] = r->id[comps[i]];
        all = all && model_sees(m, s, comps[i]);
    }
    result = ecs_sched_get_mut_many(r->w, m->e[s], n, ids, out);
    if (!all) {
        EXPECT_EQ(result, ECS_SCHED_ERR_MISSING_COMPONENT, "get_mut_many of a component the entity lacks");
        return;
    }
    EXPECT_EQ(result, ECS_SCHED_OK, "get_mut_many");
    for (i = 0; i < n; i++) {
        int from = model_owner(m, s, comps[i]);
        EXPECT_EQ(value_of(comps[i], out[i]), m->value[from][comps[i]], "get_mut_many's value");
        if (from != s) {
            const int32_t *copy = NULL;
            model_insert_run(m, s, 1, &comps[i], &copy);
        }
    }
    for (i = 0; i < n; i++) {
        int32_t v = (int32_t)next_byte(r) + 300;
        write_value(comps[i], out[i], v);
        m->value[s][comps[i]] = v;
    }
}

/* Under another entity (refused when that one is s or below s), or to the roots. */
static void op_set_parent(run *r, int s) {
    model *m = &r->m;
    int t = pick(r, SLOTS);
    ecs_sched_result result;
    if (!m->e[t]) {
        EXPECT_EQ(ecs_sched_set_parent(r->w, m->e[s], ECS_SCHED_NULL_ENTITY), ECS_SCHED_OK,
                  "set_parent to none");
        if (m->parent[s] >= 0) model_set_parent(m, s, -1);
        return;
    }
    result = ecs_sched_set_parent(r->w, m->e[s], m->e[t]);
    if (model_below(m, t, s)) {
        EXPECT_EQ(result, ECS_SCHED_ERR_RELATION_CYCLE, "set_parent into its own subtree");
    } else {
        EXPECT_EQ(result, ECS_SCHED_OK, "set_parent");
        model_set_parent(m, s, t);
    }
}

static void op_relate_base(run *r, int s) {
    model *m = &r->m;
    int t = pick(r, SLOTS);
    ecs_sched_result result;
    if (!m->e[t]) return;
    result = ecs_sched_relate(r->w, m->e[s], r->is_a, m->e[t], NULL);
    if (model_inherits_from(m, t, s)) {
        EXPECT_EQ(result, ECS_SCHED_ERR_RELATION_CYCLE, "an IsA cycle");
    } else if (model_base_index(m, s, t) >= 0) {
        EXPECT_EQ(result, ECS_SCHED_OK, "relating to a base again");
    } else if (m->bases[s] == MAX_BASES) {   /* the model's room: take it back */
        EXPECT_EQ(result, ECS_SCHED_OK, "relate IsA");
        EXPECT_EQ(ecs_sched_unrelate(r->w, m->e[s], r->is_a, m->e[t]), ECS_SCHED_OK, "unrelate IsA");
        model_relate_base(m, s, t, false);
    } else {
        EXPECT_EQ(result, ECS_SCHED_OK, "relate IsA");
        model_relate_base(m, s, t, true);
    }
}

static void op_unrelate_base(run *r, int s) {
    model *m = &r->m;
    int k;
    if (m->bases[s] == 0) return;
    k = pick(r, m->bases[s]);
    EXPECT_EQ(ecs_sched_unrelate(r->w, m->e[s], r->is_a, m->e[m->base[s][k]]), ECS_SCHED_OK,
              "unrelate IsA");
    model_unrelate_base(m, s, k);
}

static void model_disable(model *m, int s, bool disable) {
    m->disabled[s] = disable;
}

static void op_disable(run *r, int s) {
    bool disable = next_byte(r) % 2 == 0;
    EXPECT_EQ(disable ? ecs_sched_disable(r->w, r->m.e[s]) : ecs_sched_enable(r->w, r->m.e[s]),
              ECS_SCHED_OK, "disable or enable");
    model_disable(&r->m, s, disable);
}

static void model_resource_insert(model *m, int k, const int32_t *v) {
    if (v) m->res_value[k] = *v;
    else if (!m->res_has[k]) m->res_value[k] = 0;
    m->res_has[k] = 1;
}

static void op_resource(run *r) {
    model *m = &r->m;
    int k = pick(r, R_COUNT), c = g_resource_comp[k];
    ecs_sched_id id = r->id[c];
    if (next_byte(r) % 3 == 0) {
        ecs_sched_result result = ecs_sched_resource_remove(r->w, id);
        EXPECT_EQ(result, m->res_has[k] ? ECS_SCHED_OK : ECS_SCHED_ERR_MISSING_RESOURCE, "resource_remove");
        m->res_has[k] = 0;
        m->res_value[k] = 0;
        if (!m->res_has[k]) EXPECT(ecs_sched_resource_get(r->w, id) == NULL, "resource_get of none");
    } else {
        value_buf b;
        int32_t v;
        const int32_t *model_v;
        const void *value = decode_value(r, c, &b, &v, &model_v);
        EXPECT_EQ(ecs_sched_resource_insert(r->w, id, value), ECS_SCHED_OK, "resource_insert");
        model_resource_insert(m, k, model_v);
    }
}

/* Calls on a handle that died: each refused, nothing changed. */
static void op_touch_dead(run *r) {
    const model *m = &r->m;
    ecs_sched_entity e;
    value_buf b;
    int c = pick(r, C_COUNT), live = live_slot(r);
    if (m->dead_count == 0) return;
    e = m->dead[pick(r, m->dead_count < DEAD_KEPT ? m->dead_count : DEAD_KEPT)];
    EXPECT(!ecs_sched_is_alive(r->w, e), "a dead handle");
    switch (pick(r, 9)) {
    case 0:
        EXPECT_EQ(ecs_sched_insert(r->w, e, r->id[c], make_value(c, 7, &b)), ECS_SCHED_ERR_STALE_ENTITY,
                  "insert on a dead entity");
        break;
    case 1:
        EXPECT_EQ(ecs_sched_remove(r->w, e, r->id[c]), ECS_SCHED_ERR_STALE_ENTITY, "remove on a dead entity");
        break;
    case 2:
        EXPECT_EQ(ecs_sched_despawn(r->w, e), ECS_SCHED_ERR_STALE_ENTITY, "despawn of a dead entity");
        break;
    case 3:
        EXPECT_EQ(ecs_sched_disable(r->w, e), ECS_SCHED_ERR_STALE_ENTITY, "disable of a dead entity");
        break;
    case 4:
        EXPECT(ecs_sched_get(r->w, e, r->id[C_POS]) == NULL, "get on a dead entity");
        EXPECT_EQ(ecs_sched_last_result(r->w), ECS_SCHED_ERR_STALE_ENTITY, "get on a dead entity's result");
        break;
    case 5:
        EXPECT_EQ(ecs_sched_set_parent(r->w, e, ECS_SCHED_NULL_ENTITY), ECS_SCHED_ERR_STALE_ENTITY,
                  "set_parent of a dead entity");
        break;
    case 6:
        if (live < 0) break;
        EXPECT(ecs_sched_relate(r->w, m->e[live], r->is_a, e, NULL) != ECS_SCHED_OK,
               "relating to a dead base");
        EXPECT(ecs_sched_set_parent(r->w, m->e[live], e) != ECS_SCHED_OK, "a dead parent");
        break;
    case 7:
        EXPECT(!ecs_sched_has(r->w, e, r->id[c]), "has on a dead entity");
        break;
    default:
        EXPECT_EQ(ecs_sched_commands_insert(r->cmd, e, r->id[c], make_value(c, 7, &b)),
                  ECS_SCHED_ERR_STALE_ENTITY, "a command on a dead entity");
        EXPECT_EQ(ecs_sched_commands_pending(r->cmd), 0, "nothing recorded");
        break;
    }
}

/* The Prefab tag given or taken away: it does not reach the children the entity has. */
static void op_prefab(run *r, int s) {
    model *m = &r->m;
    ecs_sched_result result = m->prefab[s] ? ecs_sched_remove(r->w, m->e[s], r->prefab)
                                           : ecs_sched_insert(r->w, m->e[s], r->prefab, NULL);
    EXPECT_EQ(result, ECS_SCHED_OK, "the Prefab tag inserted or removed");
    m->prefab[s] = !m->prefab[s];
}

/* The subtree of slot p, depth first, children in their order: slots into out, the index
   of each one's parent entry into up. Returns how many. */
static int model_subtree(const model *m, int p, int *out, int *up, int n, int parent_entry) {
    int me = n, i;
    unsigned last = 0;
    out[n] = p;
    up[n++] = parent_entry;
    for (;;) {   /* the children of p in order of seq: the smallest seq above last, each time */
        int next = -1;
        for (i = 0; i < SLOTS; i++) {
            if (m->e[i] && m->parent[i] == p && m->seq[i] > last && (next < 0 || m->seq[i] < m->seq[next])) {
                next = i;
            }
        }
        if (next < 0) return n;
        last = m->seq[next];
        n = model_subtree(m, next, out, up, n, me);
    }
}

/* The model's instantiate of slot p onto the slots `to` (n of them, its subtree's size):
   an instance of p and of each of its descendants, placed the same way under the new root
   (from, up: model_subtree's), each an instance of its own original (IsA) owning copies of
   its sparse values. The copies' handles are made[i], or placeholders when 0. */
static void model_instantiate(model *m, const int *from, const int *up, const int *to, int n,
                              const ecs_sched_entity *made) {
    int i;
    for (i = 0; i < n; i++) {
        ecs_sched_entity e = made[i];
        if (!e) {   /* not a handle the world hands out: the top generation */
            e = ((ecs_sched_entity)0xFFFFFFFFu << 32) | (ecs_sched_entity)(++m->next_placeholder & 0xFFFFFu);
            m->copies[m->copy_count++] = to[i];
        }
        model_spawn(m, to[i], e);
        if (i > 0) model_set_parent(m, to[i], to[up[i]]);
        model_relate_base(m, to[i], from[i], true);
    }
}

/* The handles of the copies a buffer's instantiate made: each the child of its parent at
   its place among the children (placeholders taken along by a despawn are gone). */
static void resolve_copies(run *r) {
    model *m = &r->m;
    int k, i;
    for (k = 0; k < m->copy_count; k++) {
        int s = m->copies[k], p = m->parent[s], rank = 0;
        int32_t count = 0;
        const ecs_sched_entity *kids;
        if (!m->e[s] || (m->e[s] >> 32) != 0xFFFFFFFFu) continue;
        EXPECT(p >= 0, "a copy of a child has a parent");
        for (i = 0; i < SLOTS; i++) rank += m->e[i] && m->parent[i] == p && m->seq[i] < m->seq[s];
        kids = ecs_sched_children(r->w, m->e[p], &count);
        EXPECT(rank < count, "a copy of a child made by a buffer");
        m->e[s] = kids[rank];
    }
    m->copy_count = 0;
}

/* An instance of s and of each of its descendants, placed the same way under the new root. */
static void op_instantiate(run *r, int p) {
    model *m = &r->m;
    int from[SLOTS], up[SLOTS], to[SLOTS], n = model_subtree(m, p, from, up, 0, -1), i;
    unsigned char taken[SLOTS];
    ecs_sched_entity made[SLOTS];
    memset(taken, 0, sizeof taken);
    for (i = 0; i < n; i++) {
        to[i] = free_slot_from(m, 0, taken);
        if (to[i] < 0) return;   /* no room in the model */
        taken[to[i]] = 1;
    }
    memset(made, 0, sizeof made);
    made[0] = ecs_sched_instantiate(r->w, m->e[p]);
    EXPECT(made[0] != 0, "instantiate");
    model_instantiate(m, from, up, to, n, made);
    resolve_copies(r);
}

/* The model's despawn of each slot marked in `doomed` (with its subtree) that IsA lets go,
   tried again while some go. Returns whether some stayed. */
static bool model_despawn_all(model *m, const unsigned char *doomed) {
    bool progress = true, refused = false;
    int i;
    while (progress) {
        progress = false;
        refused = false;
        for (i = 0; i < SLOTS; i++) {
            if (!doomed[i] || !m->e[i]) continue;
            if (model_despawn_refused(m, i)) {
                refused = true;
            } else {
                model_despawn(m, i);
                progress = true;
            }
        }
    }
    return refused;
}

/* One call for many entities: remove_all, delete_with, query_insert, query_remove,
   remove_all_pairs and delete_with_pair (of ChildOf or IsA). */
static void op_bulk(run *r) {
    model *m = &r->m;
    int kind = pick(r, 6), c = pick(r, C_COUNT), k = pick(r, QUERY_COUNT), t = pick(r, SLOTS), s;
    unsigned char chosen[SLOTS];
    ecs_sched_result result;
    bool is_a = next_byte(r) % 2 != 0;
    memset(chosen, 0, sizeof chosen);
    switch (kind) {
    case 0:
        EXPECT_EQ(ecs_sched_remove_all(r->w, r->id[c]), ECS_SCHED_OK, "remove_all");
        for (s = 0; s < SLOTS; s++) {
            if (m->e[s]) model_remove(m, s, c);
        }
        break;
    case 1:
        result = ecs_sched_delete_with(r->w, r->id[c]);
        for (s = 0; s < SLOTS; s++) chosen[s] = m->e[s] && m->own[s][c];
        EXPECT_EQ(result, model_despawn_all(m, chosen) ? ECS_SCHED_ERR_REFUSED : ECS_SCHED_OK, "delete_with");
        break;
    case 2: {
        value_buf b;
        int32_t v;
        const int32_t *model_v;
        const void *value = decode_value(r, c, &b, &v, &model_v);
        for (s = 0; s < SLOTS; s++) chosen[s] = m->e[s] && model_matches(m, s, &g_specs[k]);
        EXPECT_EQ(ecs_sched_query_insert(r->w, r->query[k], r->id[c], value), ECS_SCHED_OK, "query_insert");
        for (s = 0; s < SLOTS; s++) {
            if (chosen[s]) model_insert_run(m, s, 1, &c, &model_v);
        }
        break;
    }
    case 3:
        for (s = 0; s < SLOTS; s++) chosen[s] = m->e[s] && model_matches(m, s, &g_specs[k]);
        EXPECT_EQ(ecs_sched_query_remove(r->w, r->query[k], r->id[c]), ECS_SCHED_OK, "query_remove");
        for (s = 0; s < SLOTS; s++) {
            if (chosen[s]) model_remove(m, s, c);
        }
        break;
    case 4:
        if (!m->e[t]) return;
        EXPECT_EQ(ecs_sched_remove_all_pairs(r->w, is_a ? r->is_a : r->id[C_CHILD_OF], m->e[t]), ECS_SCHED_OK,
                  "remove_all_pairs");
        for (s = 0; s < SLOTS; s++) {
            int at = m->e[s] ? model_base_index(m, s, t) : -1;
            if (!m->e[s]) continue;
            if (!is_a && m->parent[s] == t) model_set_parent(m, s, -1);
            if (is_a && at >= 0) model_unrelate_base(m, s, at);
        }
        break;
    default:
        if (!m->e[t]) return;
        result = ecs_sched_delete_with_pair(r->w, is_a ? r->is_a : r->id[C_CHILD_OF], m->e[t]);
        for (s = 0; s < SLOTS; s++) {
            chosen[s] = m->e[s] && (is_a ? model_base_index(m, s, t) >= 0 : m->parent[s] == t);
        }
        EXPECT_EQ(result, model_despawn_all(m, chosen) ? ECS_SCHED_ERR_REFUSED : ECS_SCHED_OK,
                  "delete_with_pair");
        break;
    }
}

/* ---- command buffers ---- */

enum {
    REC_SPAWN, REC_INSERT, REC_REMOVE, REC_DESPAWN, REC_DISABLE, REC_ENABLE, REC_PARENT,
    REC_NO_PARENT, REC_BASE, REC_NO_BASE, REC_RESOURCE, REC_INSTANTIATE
};

typedef struct recorded {
    int op;
    int slot, target;     /* slots; target: the parent or base */
    ecs_sched_entity e, target_e;
    int comp[C_COUNT];
    int comp_count;
    const int32_t *model_v[C_COUNT];
    int32_t v[C_COUNT];
} recorded;

typedef struct batch {
    recorded rec[MAX_RECORDED];
    int count;
    value_buf values[MAX_RECORDED][C_COUNT];
    ecs_sched_entity reserved[SLOTS];   /* by slot: the entities the buffer spawns */
} batch;

/* The entity a command may name: a live one or one this buffer spawns. -1: none. */
static int command_target(run *r, const batch *b, ecs_sched_entity *e) {
    int s = pick(r, SLOTS);
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
    rec->comp_count = pick(r, 4);
    decode_components(r, rec->comp, rec->comp_count);
    for (i = 0; i < rec->comp_count; i++) {
        ids[i] = r->id[rec->comp[i]];
        values[i] = decode_value(r, rec->comp[i], &b->values[b->count][i], &rec->v[i], &rec->model_v[i]);
    }
    rec->e = ecs_sched_commands_spawn_with(r->cmd, rec->comp_count, ids, values);
    EXPECT(rec->e != 0, "a reserved handle");
    EXPECT(!ecs_sched_is_alive(r->w, rec->e), "a reserved handle is not alive yet");
    b->reserved[s] = rec->e;
}

static void record_one(run *r, batch *b) {
    recorded *rec = &b->rec[b->count];
    ecs_sched_entity e = 0;
    int s = command_target(r, b, &e), op = pick(r, 13), c = pick(r, C_COUNT);
    memset(rec, 0, sizeof *rec);
    if (s < 0) {
        unsigned char taken[SLOTS];
        int i;
        for (i = 0; i < SLOTS; i++) taken[i] = b->reserved[i] != 0;
        s = free_slot_from(&r->m, pick(r, SLOTS), taken);
        if (s < 0) return;
        rec->slot = s;
        record_spawn(r, b, s, rec);
        b->count++;
        return;
    }
    rec->slot = s;
    rec->e = e;
    switch (op) {
    case 0:
    case 1:
    case 2: {
        const void *value = decode_value(r, c, &b->values[b->count][0], &rec->v[0], &rec->model_v[0]);
        rec->op = REC_INSERT;
        rec->comp[0] = c;
        rec->comp_count = 1;
        EXPECT_EQ(ecs_sched_commands_insert(r->cmd, e, r->id[c], value), ECS_SCHED_OK, "commands_insert");
        break;
    }
    case 3:
        rec->op = REC_REMOVE;
        rec->comp[0] = c;
        EXPECT_EQ(ecs_sched_commands_remove(r->cmd, e, r->id[c]), ECS_SCHED_OK, "commands_remove");
        break;
    case 4:
        rec->op = REC_DESPAWN;
        EXPECT_EQ(ecs_sched_commands_despawn(r->cmd, e), ECS_SCHED_OK, "commands_despawn");
        break;
    case 5:
        rec->op = REC_DISABLE;
        EXPECT_EQ(ecs_sched_commands_disable(r->cmd, e), ECS_SCHED_OK, "commands_disable");
        break;
    case 6:
        rec->op = REC_ENABLE;
        EXPECT_EQ(ecs_sched_commands_enable(r->cmd, e), ECS_SCHED_OK, "commands_enable");
        break;
    case 7:
    case 8:
    case 9: {
        ecs_sched_entity t = 0;
        int ts = command_target(r, b, &t);
        ecs_sched_result result;
        if (ts < 0 || op == 9) {
            rec->op = REC_NO_PARENT;
            EXPECT_EQ(ecs_sched_commands_set_parent(r->cmd, e, ECS_SCHED_NULL_ENTITY), ECS_SCHED_OK,
                      "commands_set_parent to none");
            break;
        }
        rec->op = op == 7 ? REC_PARENT : REC_BASE;
        rec->target = ts;
        rec->target_e = t;
        result = op == 7 ? ecs_sched_commands_set_parent(r->cmd, e, t)
                         : ecs_sched_commands_relate(r->cmd, e, r->is_a, t, NULL);
        if (t == e) {   /* no kind relates an entity to itself, recorded or not */
            EXPECT_EQ(result, ECS_SCHED_ERR_RELATION_CYCLE, "a command relating an entity to itself");
            return;
        }
        EXPECT_EQ(result, ECS_SCHED_OK, "commands_set_parent or commands_relate");
        break;
    }
    case 10: {
        int k;
        if (!r->m.e[s] || r->m.e[s] != e || r->m.bases[s] == 0) return;
        k = pick(r, r->m.bases[s]);
        rec->op = REC_NO_BASE;
        rec->target = r->m.base[s][k];
        rec->target_e = r->m.e[rec->target];
        EXPECT_EQ(ecs_sched_commands_unrelate(r->cmd, e, r->is_a, rec->target_e), ECS_SCHED_OK,
                  "commands_unrelate");
        break;
    }
    case 12: {   /* an instance of e, made (with copies of e's children) when applied */
        unsigned char taken[SLOTS];
        int i, root;
        for (i = 0; i < SLOTS; i++) taken[i] = b->reserved[i] != 0;
        root = free_slot_from(&r->m, pick(r, SLOTS), taken);
        if (root < 0) return;
        rec->op = REC_INSTANTIATE;
        rec->slot = root;
        rec->target = s;
        rec->target_e = e;
        rec->e = ecs_sched_commands_instantiate(r->cmd, e);
        EXPECT(rec->e != 0, "commands_instantiate");
        b->reserved[root] = rec->e;
        break;
    }
    default: {
        int k = pick(r, R_COUNT), rc = g_resource_comp[k];
        const void *value = decode_value(r, rc, &b->values[b->count][0], &rec->v[0], &rec->model_v[0]);
        rec->op = REC_RESOURCE;
        rec->target = k;
        EXPECT_EQ(ecs_sched_commands_set_resource(r->cmd, r->id[rc], value), ECS_SCHED_OK,
                  "commands_set_resource");
        break;
    }
    }
    b->count++;
}

static bool is_insert_like(const recorded *rec) {
    return rec->op == REC_INSERT || rec->op == REC_DISABLE;
}

/* The run of insert commands on entity e the buffer applies with one archetype move, from
   rec[k] on: each component once (the Disabled tag counts as one; `seen` holds those a spawn
   gives). Returns its length. */
static int insert_run(const batch *b, int k, ecs_sched_entity e, unsigned char *seen) {
    int n = 0;
    for (; k < b->count && is_insert_like(&b->rec[k]) && b->rec[k].e == e; k++, n++) {
        int c = b->rec[k].op == REC_DISABLE ? C_DISABLED : b->rec[k].comp[0];
        if (seen[c]) break;
        seen[c] = 1;
    }
    return n;
}

/* Applies rec[k], the first of a run of n inserts on slot s, after the spawn's own `count`
   components (comps, v): the values, then the observers, which see the entity as the run
   left it. (A buffer applies a run of inserts on one entity as one insert_many, so an
   observer's filter, such as not hearing of disabled entities, is tested after the whole
   run: an insert recorded before a disable of the same entity is not heard by an observer
   that ignores disabled entities, while the same two calls made directly are.) */
static void model_apply_run(model *m, const batch *b, int s, int k, int n, int count, int *comps,
                            const int32_t **v) {
    bool disable = false;
    int i;
    for (i = 0; i < n; i++) {
        const recorded *rec = &b->rec[k + i];
        if (rec->op == REC_DISABLE) {
            disable = true;
        } else {
            comps[count] = rec->comp[0];
            v[count++] = rec->model_v[0];
        }
    }
    if (disable) model_disable(m, s, true);
    model_insert_run(m, s, count, comps, v);
}

/* Applies the recorded commands to the model in order, as the buffer does: a command whose
   entity (or target) is dead by its turn is skipped, and so is a despawn IsA refuses.
   Returns the index of the command that fails (a ChildOf or IsA cycle), or count;
   *skipped gets how many were skipped. */
static int model_apply_commands(model *m, const batch *b, int *skipped) {
    unsigned char seen[C_ALL];
    int k, i;
    *skipped = 0;
    for (k = 0; k < b->count; k++) {
        const recorded *rec = &b->rec[k];
        int s = rec->slot;
        if (rec->op == REC_SPAWN) {   /* with the inserts on it that follow */
            int comps[C_COUNT + MAX_RECORDED], n;
            const int32_t *v[C_COUNT + MAX_RECORDED];
            memset(seen, 0, sizeof seen);
            for (i = 0; i < rec->comp_count; i++) {
                comps[i] = rec->comp[i];
                v[i] = rec->model_v[i];
                seen[rec->comp[i]] = 1;
            }
            n = insert_run(b, k + 1, rec->e, seen);
            model_spawn(m, s, rec->e);
            model_apply_run(m, b, s, k + 1, n, rec->comp_count, comps, v);
            k += n;
            continue;
        }
        if (rec->op == REC_RESOURCE) {
            model_resource_insert(m, rec->target, rec->model_v[0]);
            continue;
        }
        if (rec->op == REC_INSTANTIATE) {   /* s is the root's slot, reserved */
            int from[SLOTS], up[SLOTS], to[SLOTS], n, j;
            unsigned char taken[SLOTS];
            ecs_sched_entity made[SLOTS];
            if (m->e[rec->target] != rec->target_e) {
                ++*skipped;
                continue;
            }
            n = model_subtree(m, rec->target, from, up, 0, -1);
            for (j = 0; j < SLOTS; j++) taken[j] = b->reserved[j] != 0;
            to[0] = s;
            for (j = 1; j < n; j++) {
                to[j] = free_slot_from(m, 0, taken);
                if (to[j] < 0) return -2;   /* out of the model's room */
                taken[to[j]] = 1;
            }
            memset(made, 0, sizeof made);
            made[0] = rec->e;
            model_instantiate(m, from, up, to, n, made);
            continue;
        }
        if (m->e[s] != rec->e) {
            ++*skipped;
            continue;
        }
        if (is_insert_like(rec)) {
            int comps[C_COUNT + MAX_RECORDED], n;
            const int32_t *v[C_COUNT + MAX_RECORDED];
            memset(seen, 0, sizeof seen);
            n = insert_run(b, k, rec->e, seen);
            model_apply_run(m, b, s, k, n, 0, comps, v);
            k += n - 1;
            continue;
        }
        switch (rec->op) {
        case REC_REMOVE: model_remove(m, s, rec->comp[0]); break;
        case REC_ENABLE: model_disable(m, s, false); break;
        case REC_DESPAWN:
            if (model_despawn_refused(m, s)) ++*skipped;
            else model_despawn(m, s);
            break;
        case REC_NO_PARENT:
            if (m->parent[s] >= 0) model_set_parent(m, s, -1);
            break;
        case REC_PARENT:
        case REC_BASE:
        case REC_NO_BASE:
            if (m->e[rec->target] != rec->target_e) {
                ++*skipped;
                break;
            }
            if (rec->op == REC_PARENT) {
                if (model_below(m, rec->target, s)) return k;
                model_set_parent(m, s, rec->target);
            } else if (rec->op == REC_BASE) {
                if (model_inherits_from(m, rec->target, s)) return k;
                if (model_base_index(m, s, rec->target) < 0) {
                    if (m->bases[s] == MAX_BASES) return -2;   /* out of the model's room */
                    model_relate_base(m, s, rec->target, true);
                }
            } else {
                int at = model_base_index(m, s, rec->target);
                if (at >= 0) model_unrelate_base(m, s, at);
            }
            break;
        default: break;
        }
    }
    return b->count;
}

static void op_commands(run *r) {
    static batch b;
    static model before;
    int n = 1 + pick(r, MAX_RECORDED), k, skipped, failed;
    ecs_sched_result result;
    memset(&b, 0, sizeof b);
    for (k = 0; k < n && bytes_left(r); k++) {
        start_frame(r);
        record_one(r, &b);
    }
    EXPECT_EQ(ecs_sched_commands_pending(r->cmd) > 0, b.count > 0, "commands_pending");
    r->m.copy_count = 0;
    before = r->m;
    failed = model_apply_commands(&r->m, &b, &skipped);
    if (failed == -2) {   /* more bases than the model keeps: drop the buffer unapplied */
        r->m = before;
        ecs_sched_commands_destroy(r->cmd);
        r->cmd = ecs_sched_commands_create(r->w);
        if (!r->cmd) abort();
        return;
    }
    result = ecs_sched_commands_apply(r->cmd);
    resolve_copies(r);
    if (failed < b.count) {
        /* the failing command stays pending with those after it: the buffer is dropped */
        EXPECT_EQ(result, ECS_SCHED_ERR_RELATION_CYCLE, "a cycle made by a command");
        EXPECT(ecs_sched_commands_pending(r->cmd) > 0, "the failing command stays pending");
        ecs_sched_commands_destroy(r->cmd);
        r->cmd = ecs_sched_commands_create(r->w);
        if (!r->cmd) abort();
        for (k = failed + 1; k < b.count; k++) {
            if (b.rec[k].op == REC_SPAWN) {
                EXPECT(!ecs_sched_is_alive(r->w, b.rec[k].e), "a spawn never applied");
            }
        }
        return;
    }
    EXPECT_EQ(result, ECS_SCHED_OK, "commands_apply");
    EXPECT_EQ(ecs_sched_commands_pending(r->cmd), 0, "nothing pending after apply");
    EXPECT_EQ(ecs_sched_commands_skipped(r->cmd), skipped, "commands_skipped");
}

/* ---- the operations ---- */

enum {
    OP_SPAWN, OP_DESPAWN, OP_INSERT, OP_INSERT2, OP_REMOVE, OP_INSERT_MANY, OP_SPAWN_BATCH,
    OP_GET_MUT, OP_SET_PARENT, OP_RELATE_BASE, OP_UNRELATE_BASE, OP_DISABLE, OP_RESOURCE,
    OP_TOUCH_DEAD, OP_COMMANDS, OP_COMMANDS2, OP_PREFAB, OP_INSTANTIATE, OP_BULK, OP_COUNT
};

static const char *const g_op_names[OP_COUNT] = {
    "spawn", "despawn", "insert", "insert", "remove", "insert_many", "spawn_batch", "get_mut",
    "set_parent", "relate IsA", "unrelate IsA", "disable/enable", "resource", "stale handle",
    "commands", "commands", "prefab tag", "instantiate", "bulk"
};

static void step(run *r) {
    int op, s;
    start_frame(r);
    op = pick(r, OP_COUNT);
    g_op_name = g_op_names[op];
    switch (op) {
    case OP_SPAWN: op_spawn(r); return;
    case OP_SPAWN_BATCH: op_spawn_batch(r); return;
    case OP_RESOURCE: op_resource(r); return;
    case OP_TOUCH_DEAD: op_touch_dead(r); return;
    case OP_BULK: op_bulk(r); return;
    case OP_COMMANDS:
    case OP_COMMANDS2: op_commands(r); return;
    default: break;
    }
    s = live_slot(r);
    if (s < 0) {
        op_spawn(r);
        return;
    }
    switch (op) {
    case OP_DESPAWN: op_despawn(r, s); break;
    case OP_INSERT:
    case OP_INSERT2: op_insert(r, s); break;
    case OP_REMOVE: op_remove(r, s); break;
    case OP_INSERT_MANY: op_insert_many(r, s); break;
    case OP_GET_MUT: {
        unsigned how = next_byte(r) % 3;
        if (how == 0) op_get_mut(r, s);
        else if (how == 1) op_ensure(r, s);
        else op_get_mut_many(r, s);
        break;
    }
    case OP_SET_PARENT: op_set_parent(r, s); break;
    case OP_RELATE_BASE: op_relate_base(r, s); break;
    case OP_UNRELATE_BASE: op_unrelate_base(r, s); break;
    case OP_PREFAB: op_prefab(r, s); break;
    case OP_INSTANTIATE: op_instantiate(r, s); break;
    default: op_disable(r, s); break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    run *r = &g_run;
    g_op = -1;
    g_op_name = "setup";
    g_owned = 0;
    g_live[0] = g_live[1] = 0;
    if (size == 0) return 0;
    start_run(r, data[0]);
    r->data = data;
    r->size = size;
    r->at = 1;
    check_model(r);
    for (g_op = 0; g_op < MAX_OPS && bytes_left(r); g_op++) {
        step(r);
        check_model(r);
    }
    ecs_sched_commands_destroy(r->cmd);
    g_op_name = "world_destroy";
    ecs_sched_world_destroy(r->w);
    g_world = NULL;
    EXPECT_EQ(g_owned, 0, "ints left owned after the world went");
    EXPECT_EQ(g_live[0], 0, "Label values left after the world went");
    EXPECT_EQ(g_live[1], 0, "Aura values left after the world went");
    return 0;
}
