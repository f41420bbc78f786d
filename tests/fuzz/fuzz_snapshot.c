/* A libFuzzer target for snapshots: the bytes are read as up to 200 operations on a small
   world (spawn, despawn, insert and remove of table, toggleable, sparse, tracked and
   hook-owning components, parents, names, relationships (Likes with a payload, and Bound,
   exclusive, whose sources die with their target), components registered at their first use
   (so perhaps after a snapshot: a restore takes their values away, the registration stays), resources, messages, a state machine's queued
   sets, pushes and pops and their apply, delayed commands on the virtual clock, among them
   spawns, and the clock's advance), each applied to the library and to a naive model kept in
   plain arrays. Snapshots are taken (and retaken) into two slots, each with a copy of the
   model, and restored: the world must then be the model's copy again. While a delayed spawn
   holds its reserved handle, taking, retaking and restoring must be refused, leaving the world
   and the slot as they were. Some takes, retakes and restores run with one of the world's
   allocations failing: a failed take or restore leaves the world as it was (all or nothing),
   a failed retake empties its snapshot, which then refuses to be restored.

   After every operation every observable is compared with the model: each handle ever
   handed out (alive or not; a handle spawned after a snapshot is dead again after its
   restore, and a spawn never hands out a handle seen before), the values, enabled bits,
   parents and children in order, relationship targets and payloads, names and lookups, the
   entity count, the resources, the messages a new cursor reads, the removed-component list
   of the tracked component, the state machine (value, changes, depth, last transition), the delayed buffers waiting and the
   virtual clock's elapsed time; ecs_sched_world_check must pass. A reader kept across
   restores must read what it has not read yet: the restored messages are numbered to end
   where the queue ended, so a reader that read everything reads only what is sent later. After each restore a probe
   takes one more snapshot, applies the queued state, advances the clock until every delayed
   buffer has been applied and updates the message queues (checking each step: what was
   pending in the restored world is what the model had pending), then restores the probe's
   snapshot and checks again. At the end a snapshot still held is restored once more.

   make fuzz-snapshot-smoke (a short seeded run over tests/fuzz/corpus/snapshot, part of make
   test); make fuzz-snapshot (a minute). */
/* Built by make against the fuzz targets' shared implementation object, which has every
   optional module (the Makefile's fuzzing section). */
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPS 200
#define MAX_EVER 40       /* handles handed out per input */
#define MAX_MESSAGES 96   /* per queue half */
#define MAX_DELAYED 12
#define NAMES 3
#define STATE_VALUES 4
#define STACK_CAPACITY 2
#define NONE (-1)
#define LATE 4            /* components registered at their first use: 0, 1 tables, 2, 3 sparse */

typedef struct { int32_t a; } A;
typedef struct { int32_t b; int32_t pad; } B;   /* toggleable */
typedef struct { int32_t s; } S;                 /* sparse */
typedef struct { int32_t t; } T;                 /* tracked */
typedef struct { int32_t *p; } H;                /* owns a heap value (hooks) */
typedef struct { int32_t r; } R;
typedef struct { int32_t n; } Ping;

enum { HAS_A = 1, HAS_B = 2, HAS_TAG = 4, HAS_S = 8, HAS_T = 16, HAS_H = 32, HAS_MARK = 64 };

/* ---- the model ---- */

typedef struct m_entity {
    bool alive;
    bool reserved;         /* spawned by a delayed buffer not applied yet */
    uint8_t has;
    int32_t a, b, s, t, h;
    bool b_enabled;
    int32_t parent;        /* index in the handles handed out, or NONE */
    uint32_t order;        /* children are in the order of this stamp */
    int32_t name;          /* NONE or 0..NAMES-1 */
    uint64_t likes;        /* the targets of Likes, a bit per index */
    int32_t like_payload[MAX_EVER];
    int32_t bound;         /* the target of Bound (exclusive; despawned with it), or NONE */
    uint8_t has_late;      /* the late components it has, a bit each */
    int32_t late[LATE];
} m_entity;

enum { D_DESPAWN, D_INSERT_A, D_REMOVE_A, D_SET_R, D_SPAWN };

typedef struct m_command {
    int kind;
    int32_t entity;
    int32_t value;
} m_command;

typedef struct m_delayed {
    int64_t due;
    uint32_t seq;
    int32_t count;
    m_command commands[3];
} m_delayed;

typedef struct model {
    m_entity e[MAX_EVER];
    uint32_t order_stamp;
    bool has_r[2];
    int32_t r[2];
    int32_t msg_old[MAX_MESSAGES], msg_new[MAX_MESSAGES];
    int32_t msg_old_n, msg_new_n;
    ecs_sched_entity removed_old[MAX_EVER * 4], removed_new[MAX_EVER * 4];
    int32_t removed_old_n, removed_new_n;
    bool entered;
    int32_t state, depth, stack[STACK_CAPACITY];
    int32_t pending, pending_value;   /* 0 none, 1 set, 2 reenter, 3 push, 4 pop */
    uint32_t changes;
    int32_t last_from, last_to;
    int64_t elapsed;
    m_delayed delayed[MAX_DELAYED];
    int32_t delayed_n;
    uint32_t delayed_seq;
} model;

typedef struct fuzz {
    ecs_sched_world *w;
    ecs_sched_id a, b, tag, s, mark, t, h, r[2], ping, mode, likes, bound;
    ecs_sched_id late[LATE];   /* 0 until registered; registrations outlive restores */
    /* A reader of Ping kept across restores (readers are not rolled back): the messages kept
       are numbered msg_end - kept .. msg_end - 1, a restore's too (they end where the queue
       ended), and the reader reads those from reader_next on. */
    ecs_sched_message_cursor reader;
    uint64_t msg_end, reader_next;
    ecs_sched_entity ever[MAX_EVER];
    int32_t ever_n;
    int32_t base_entities;
    model m;
    ecs_sched_snapshot *snap[2];
    model snap_model[2];
    bool emptied[2];           /* a retake failed: restoring is refused until one works */
    const uint8_t *data;
    size_t size, at;
    int op;
    const char *op_name;
} fuzz;

static const char *name_text[NAMES] = {"n0", "n1", "n2"};

static void fail(fuzz *f, const char *what) {
    fprintf(stderr, "op %d (%s): %s (last error: %s)\n", f->op, f->op_name, what,
            ecs_sched_last_error(f->w));
    abort();
}

static void fail_num(fuzz *f, const char *what, long long expected, long long got) {
    char text[256];
    snprintf(text, sizeof text, "%s: expected %lld, got %lld", what, expected, got);
    fail(f, text);
}

static unsigned next_byte(fuzz *f) {
    return f->at < f->size ? f->data[f->at++] : 0u;
}

/* ---- hooks of H: a heap value, copied deeply ---- */

static void h_ctor(void *dst, int32_t n, void *ctx) {
    int32_t i;
    (void)ctx;
    for (i = 0; i < n; i++) ((H *)dst)[i].p = NULL;
}

static void h_dtor(void *ptr, int32_t n, void *ctx) {
    int32_t i;
    (void)ctx;
    for (i = 0; i < n; i++) {
        free(((H *)ptr)[i].p);
        ((H *)ptr)[i].p = NULL;
    }
}

static void h_copy(void *dst, const void *src, int32_t n, void *ctx) {
    int32_t i;
    (void)ctx;
    for (i = 0; i < n; i++) {
        H *to = &((H *)dst)[i];
        const H *from = &((const H *)src)[i];
        free(to->p);
        to->p = NULL;
        if (from->p) {
            to->p = (int32_t *)malloc(sizeof *to->p);
            if (!to->p) abort();
            *to->p = *from->p;
        }
    }
}

static void h_move(void *dst, void *src, int32_t n, void *ctx) {
    int32_t i;
    (void)ctx;
    for (i = 0; i < n; i++) {
        ((H *)dst)[i].p = ((H *)src)[i].p;
        ((H *)src)[i].p = NULL;
    }
}

/* The world's allocator fails the allocation this many allocations from now (once), or
   never (< 0): snapshots taken, retaken and restored out of memory. */
static long alloc_countdown = -1;

static void *counted_realloc(void *ptr, size_t size, void *user_data) {
    (void)user_data;
    if (alloc_countdown >= 0 && alloc_countdown-- == 0) return NULL;
    return realloc(ptr, size);
}

static void counted_free(void *ptr, void *user_data) {
    (void)user_data;
    free(ptr);
}

static void quiet(ecs_sched_log_level level, ecs_sched_result result, const char *message,
                  void *user_data) {
    (void)level;
    (void)result;
    (void)message;
    (void)user_data;
}

static int64_t frozen_clock(void *user_data) {
    (void)user_data;
    return 1000;
}

static ecs_sched_id register_component(ecs_sched_world *w, const char *name, size_t size,
                                       ecs_sched_storage storage, bool tracked, bool toggleable,
                                       bool hooks) {
    ecs_sched_component_desc d;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.size = size;
    d.storage = storage;
    d.tracked = tracked;
    d.toggleable = toggleable;
    if (hooks) {
        d.hooks.ctor = h_ctor;
        d.hooks.dtor = h_dtor;
        d.hooks.copy = h_copy;
        d.hooks.move = h_move;
    }
    return ecs_sched_component_register(w, &d);
}

static bool setup(fuzz *f) {
    ecs_sched_world_desc desc;
    ecs_sched_time_desc time;
    ecs_sched_state_desc mode;
    memset(&desc, 0, sizeof desc);
    desc.logger.fn = quiet;
    desc.allocator.realloc_fn = counted_realloc;
    desc.allocator.free_fn = counted_free;
    alloc_countdown = -1;
    desc.thread_count = 1;   /* no workers to start and join for each input */
    f->w = ecs_sched_world_create(&desc);
    if (!f->w) return false;
    f->a = register_component(f->w, "A", sizeof(A), ECS_SCHED_STORAGE_TABLE, false, false, false);
    f->b = register_component(f->w, "B", sizeof(B), ECS_SCHED_STORAGE_TABLE, false, true, false);
    f->tag = register_component(f->w, "Tag", 0, ECS_SCHED_STORAGE_TABLE, false, false, false);
    f->s = register_component(f->w, "S", sizeof(S), ECS_SCHED_STORAGE_SPARSE, false, false, false);
    f->mark = register_component(f->w, "Mark", 0, ECS_SCHED_STORAGE_SPARSE, false, false, false);
    f->t = register_component(f->w, "T", sizeof(T), ECS_SCHED_STORAGE_TABLE, true, false, false);
    f->h = register_component(f->w, "H", sizeof(H), ECS_SCHED_STORAGE_TABLE, false, false, true);
    f->r[0] = register_component(f->w, "R0", sizeof(R), ECS_SCHED_STORAGE_TABLE, false, false, false);
    f->r[1] = register_component(f->w, "R1", sizeof(R), ECS_SCHED_STORAGE_TABLE, false, false, false);
    f->ping = ECS_SCHED_MESSAGE(f->w, Ping);
    {
        ecs_sched_relation_desc likes, bound;
        memset(&likes, 0, sizeof likes);
        likes.name = "Likes";
        likes.payload_size = sizeof(int32_t);
        f->likes = ecs_sched_relation_register(f->w, &likes);
        memset(&bound, 0, sizeof bound);
        bound.name = "Bound";
        bound.exclusive = true;
        bound.on_target_despawn = ECS_SCHED_TARGET_DESPAWN_SOURCES;
        f->bound = ecs_sched_relation_register(f->w, &bound);
    }
    memset(&time, 0, sizeof time);
    time.clock = frozen_clock;
    memset(&mode, 0, sizeof mode);
    mode.name = "Mode";
    mode.values[0] = "Zero";
    mode.values[1] = "One";
    mode.values[2] = "Two";
    mode.values[3] = "Three";
    mode.stack_capacity = STACK_CAPACITY;
    f->mode = ecs_sched_state_register(f->w, &mode);
    if (!f->a || !f->b || !f->tag || !f->s || !f->mark || !f->t || !f->h || !f->r[0] ||
        !f->r[1] || !f->ping || !f->mode || !f->likes || !f->bound || ecs_sched_time_setup(f->w, &time) != ECS_SCHED_OK) {
        fprintf(stderr, "setup failed: %s\n", ecs_sched_last_error(f->w));
        abort();
    }
    f->base_entities = ecs_sched_entity_count(f->w);
    f->reader = ecs_sched_message_cursor_make(f->w, f->ping);
    f->m.state = NONE;
    f->m.last_from = f->m.last_to = NONE;
    return true;
}

/* ---- the model's rules ---- */

static bool m_alive(const fuzz *f, int32_t i) {
    return i >= 0 && i < f->ever_n && f->m.e[i].alive;
}

/* Whether a delayed buffer holds a handle it spawns: snapshots are refused meanwhile. */
static bool m_any_reserved(const fuzz *f) {
    int32_t i;
    for (i = 0; i < f->ever_n; i++) {
        if (f->m.e[i].reserved) return true;
    }
    return false;
}

static void m_removed_add(fuzz *f, int32_t i) {
    model *m = &f->m;
    if (m->removed_new_n < (int32_t)(sizeof m->removed_new / sizeof m->removed_new[0])) {
        m->removed_new[m->removed_new_n++] = f->ever[i];
    } else {
        fail(f, "model: removed list full");
    }
}

/* The entity, its subtree and what is Bound to it (in turn); Likes to it go. */
static void m_despawn(fuzz *f, int32_t i) {
    int32_t k;
    if (!f->m.e[i].alive) return;
    f->m.e[i].alive = false;
    if (f->m.e[i].has & HAS_T) m_removed_add(f, i);
    for (k = 0; k < f->ever_n; k++) {
        if (f->m.e[k].alive && (f->m.e[k].parent == i || f->m.e[k].bound == i)) m_despawn(f, k);
    }
    for (k = 0; k < f->ever_n; k++) f->m.e[k].likes &= ~(UINT64_C(1) << i);
    memset(&f->m.e[i], 0, sizeof f->m.e[i]);
}

static bool m_is_ancestor(const fuzz *f, int32_t ancestor, int32_t of) {
    int32_t p = of, guard = 0;
    while (p != NONE && guard++ <= MAX_EVER) {
        if (p == ancestor) return true;
        p = f->m.e[p].parent;
    }
    return false;
}

/* Whether another live entity under `parent` (NONE: roots) has name n. */
static bool m_name_taken(const fuzz *f, int32_t parent, int32_t n, int32_t except) {
    int32_t k;
    if (n == NONE) return false;
    for (k = 0; k < f->ever_n; k++) {
        if (k != except && f->m.e[k].alive && f->m.e[k].parent == parent && f->m.e[k].name == n) {
            return true;
        }
    }
    return false;
}

/* An apply after the first: the queued request, if any (a set of the current value moves
   nothing; a reenter does). */
static void m_state_apply(fuzz *f) {
    model *m = &f->m;
    int32_t from = m->state, to = m->state;
    bool moves = false;
    if (m->pending == 3) {
        m->stack[m->depth++] = from;
        to = m->pending_value;
        moves = true;
    } else if (m->pending == 4) {
        to = m->stack[--m->depth];
        moves = true;
    } else if (m->pending == 1 || m->pending == 2) {
        to = m->pending_value;
        moves = to != from || m->pending == 2;
    }
    m->pending = 0;
    if (moves) {
        m->state = to;
        m->changes++;
        m->last_from = from;
        m->last_to = to;
    }
}

static void m_apply_command(fuzz *f, const m_command *c) {
    m_entity *e = c->entity >= 0 ? &f->m.e[c->entity] : NULL;
    switch (c->kind) {
    case D_DESPAWN:
        if (m_alive(f, c->entity)) m_despawn(f, c->entity);
        break;
    case D_INSERT_A:
        if (m_alive(f, c->entity)) {
            e->has |= HAS_A;
            e->a = c->value;
        }
        break;
    case D_REMOVE_A:
        if (m_alive(f, c->entity)) e->has &= (uint8_t)~HAS_A;
        break;
    case D_SPAWN:
        memset(e, 0, sizeof *e);
        e->alive = true;
        e->parent = NONE;
        e->name = NONE;
        e->bound = NONE;
        e->has = HAS_A;
        e->a = c->value;
        break;
    default:
        f->m.has_r[0] = true;
        f->m.r[0] = c->value;
        break;
    }
}

/* The delayed buffers due at the model's elapsed time, by due time, then by hand-over. */
static void m_apply_due(fuzz *f) {
    model *m = &f->m;
    for (;;) {
        int32_t best = NONE, i, k;
        for (i = 0; i < m->delayed_n; i++) {
            const m_delayed *d = &m->delayed[i];
            if (d->due > m->elapsed) continue;
            if (best == NONE || d->due < m->delayed[best].due ||
                (d->due == m->delayed[best].due && d->seq < m->delayed[best].seq)) {
                best = i;
            }
        }
        if (best == NONE) return;
        for (k = 0; k < m->delayed[best].count; k++) m_apply_command(f, &m->delayed[best].commands[k]);
        for (i = best; i + 1 < m->delayed_n; i++) m->delayed[i] = m->delayed[i + 1];
        m->delayed_n--;
    }
}

/* ---- comparing the world with the model ---- */

static int compare_handles(const void *x, const void *y) {
    ecs_sched_entity a = *(const ecs_sched_entity *)x, b = *(const ecs_sched_entity *)y;
    return a < b ? -1 : a > b;
}

static void check_component(fuzz *f, int32_t i, ecs_sched_id id, int bit, int32_t expected,
                            const char *name) {
    const m_entity *e = &f->m.e[i];
    ecs_sched_entity h = f->ever[i];
    const void *value = ecs_sched_get(f->w, h, id);
    char what[96];
    snprintf(what, sizeof what, "entity #%d component %s present", (int)i, name);
    if (ecs_sched_has(f->w, h, id) != ((e->has & bit) != 0)) {
        fail_num(f, what, (e->has & bit) != 0, ecs_sched_has(f->w, h, id));
    }
    if (!(e->has & bit)) return;
    if (id == f->tag || id == f->mark) return;
    snprintf(what, sizeof what, "entity #%d component %s value", (int)i, name);
    if (!value) fail(f, what);
    if (id == f->h) {
        const H *hv = (const H *)value;
        if (!hv->p) fail(f, "H holds no heap value");
        if (*hv->p != expected) fail_num(f, what, expected, *hv->p);
        return;
    }
    if (*(const int32_t *)value != expected) fail_num(f, what, expected, *(const int32_t *)value);
}

static void check_children(fuzz *f, int32_t i) {
    ecs_sched_entity expected[MAX_EVER];
    uint32_t stamps[MAX_EVER];
    int32_t n = 0, count = 0, k, j;
    const ecs_sched_entity *children = ecs_sched_children(f->w, f->ever[i], &count);
    for (k = 0; k < f->ever_n; k++) {
        if (!f->m.e[k].alive || f->m.e[k].parent != i) continue;
        for (j = n; j > 0 && stamps[j - 1] > f->m.e[k].order; j--) {
            stamps[j] = stamps[j - 1];
            expected[j] = expected[j - 1];
        }
        stamps[j] = f->m.e[k].order;
        expected[j] = f->ever[k];
        n++;
    }
    if (count != n) fail_num(f, "children count", n, count);
    for (k = 0; k < n; k++) {
        if (children[k] != expected[k]) fail_num(f, "child in order", (long long)expected[k], (long long)children[k]);
    }
}

static void check_relations(fuzz *f, int32_t i) {
    const m_entity *e = &f->m.e[i];
    ecs_sched_entity h = f->ever[i];
    int32_t n = 0, k, count = ecs_sched_target_count(f->w, h, f->likes);
    uint64_t seen = 0;
    for (k = 0; k < f->ever_n; k++) n += (e->likes >> k) & 1u;
    if (count != n) fail_num(f, "Likes targets", n, count);
    for (k = 0; k < count; k++) {
        ecs_sched_entity target = ecs_sched_target(f->w, h, f->likes, k);
        const int32_t *payload;
        int32_t j;
        for (j = 0; j < f->ever_n && f->ever[j] != target; j++) continue;
        if (j == f->ever_n || !((e->likes >> j) & 1u) || ((seen >> j) & 1u)) {
            fail_num(f, "Likes target not liked (handle)", 0, (long long)target);
        }
        seen |= UINT64_C(1) << j;
        payload = (const int32_t *)ecs_sched_relation_payload(f->w, h, f->likes, target);
        if (!payload || *payload != e->like_payload[j]) {
            fail_num(f, "Likes payload", e->like_payload[j], payload ? *payload : -999);
        }
    }
    count = ecs_sched_target_count(f->w, h, f->bound);
    if (count != (e->bound != NONE)) fail_num(f, "Bound targets", e->bound != NONE, count);
    if (count && ecs_sched_target(f->w, h, f->bound, 0) != f->ever[e->bound]) {
        fail_num(f, "Bound target", (long long)f->ever[e->bound],
                 (long long)ecs_sched_target(f->w, h, f->bound, 0));
    }
}

static void check_messages(fuzz *f) {
    ecs_sched_message_cursor cursor = ecs_sched_message_cursor_make(f->w, f->ping);
    ecs_sched_messages read = ecs_sched_message_read(f->w, &cursor);
    int32_t at = 0, total = f->m.msg_old_n + f->m.msg_new_n;
    while (ecs_sched_messages_next(&read)) {
        int32_t k;
        for (k = 0; k < read.count; k++, at++) {
            int32_t expected = at < f->m.msg_old_n ? f->m.msg_old[at] : f->m.msg_new[at - f->m.msg_old_n];
            if (at >= total) fail_num(f, "messages readable", total, at + 1);
            if (((const Ping *)read.data)[k].n != expected) {
                fail_num(f, "message value", expected, ((const Ping *)read.data)[k].n);
            }
        }
    }
    if (at != total) fail_num(f, "messages readable", total, at);
}

/* The tracked component's removed list, as a set: the order within one despawn of a subtree
   is the library's. */
static void check_removed(fuzz *f) {
    ecs_sched_entity got[MAX_EVER * 8], expected[MAX_EVER * 8];
    int32_t n = 0, k, total = f->m.removed_old_n + f->m.removed_new_n;
    ecs_sched_message_cursor cursor = ecs_sched_removed_cursor_make(f->w, f->t);
    ecs_sched_messages read = ecs_sched_message_read(f->w, &cursor);
    while (ecs_sched_messages_next(&read)) {
        for (k = 0; k < read.count; k++) {
            if (n >= MAX_EVER * 8) fail(f, "removed list too long");
            got[n++] = ((const ecs_sched_entity *)read.data)[k];
        }
    }
    if (n != total) fail_num(f, "removed entries", total, n);
    for (k = 0; k < total; k++) {
        expected[k] = k < f->m.removed_old_n ? f->m.removed_old[k] : f->m.removed_new[k - f->m.removed_old_n];
    }
    qsort(got, (size_t)n, sizeof *got, compare_handles);
    qsort(expected, (size_t)n, sizeof *expected, compare_handles);
    for (k = 0; k < n; k++) {
        if (got[k] != expected[k]) fail_num(f, "removed entry", (long long)expected[k], (long long)got[k]);
    }
}

static void check_state(fuzz *f) {
    const model *m = &f->m;
    const ecs_sched_state_current *current =
        (const ecs_sched_state_current *)ecs_sched_resource_get(f->w, f->mode);
    ecs_sched_state_transition last;
    if (ecs_sched_state_get(f->w, f->mode) != m->state) {
        fail_num(f, "state value", m->state, ecs_sched_state_get(f->w, f->mode));
    }
    if (ecs_sched_state_depth(f->w, f->mode) != m->depth) {
        fail_num(f, "state depth", m->depth, ecs_sched_state_depth(f->w, f->mode));
    }
    if ((current != NULL) != m->entered) fail_num(f, "state resource present", m->entered, current != NULL);
    if (current && current->changes != m->changes) fail_num(f, "state changes", m->changes, current->changes);
    if (ecs_sched_state_last_transition(f->w, f->mode, &last) != ECS_SCHED_OK) fail(f, "last transition");
    if (last.from != m->last_from || last.to != m->last_to) {
        fail_num(f, "last transition (from*10+to)", m->last_from * 10 + m->last_to,
                 last.from * 10 + last.to);
    }
}

static void check_all(fuzz *f) {
    int32_t i, alive = 0, k;
    const ecs_sched_time *virt;
    for (i = 0; i < f->ever_n; i++) {
        const m_entity *e = &f->m.e[i];
        ecs_sched_entity h = f->ever[i];
        ecs_sched_entity parent;
        const char *name;
        char what[64];
        snprintf(what, sizeof what, "entity #%d alive", (int)i);
        if (ecs_sched_is_alive(f->w, h) != e->alive) fail_num(f, what, e->alive, !e->alive);
        if (!e->alive) continue;
        alive++;
        check_component(f, i, f->a, HAS_A, e->a, "A");
        check_component(f, i, f->b, HAS_B, e->b, "B");
        check_component(f, i, f->tag, HAS_TAG, 0, "Tag");
        check_component(f, i, f->s, HAS_S, e->s, "S");
        check_component(f, i, f->mark, HAS_MARK, 0, "Mark");
        check_component(f, i, f->t, HAS_T, e->t, "T");
        check_component(f, i, f->h, HAS_H, e->h, "H");
        if ((e->has & HAS_B) && ecs_sched_is_component_enabled(f->w, h, f->b) != e->b_enabled) {
            fail_num(f, "B enabled", e->b_enabled, !e->b_enabled);
        }
        parent = ecs_sched_parent_of(f->w, h);
        if (parent != (e->parent == NONE ? ECS_SCHED_NULL_ENTITY : f->ever[e->parent])) {
            fail_num(f, "parent", e->parent == NONE ? 0 : (long long)f->ever[e->parent], (long long)parent);
        }
        check_children(f, i);
        check_relations(f, i);
        for (k = 0; k < LATE; k++) {
            const A *v = f->late[k] ? (const A *)ecs_sched_get(f->w, h, f->late[k]) : NULL;
            bool has = (e->has_late >> k) & 1u;
            if ((v != NULL) != has) fail_num(f, "late component present", has, v != NULL);
            if (v && v->a != e->late[k]) fail_num(f, "late component value", e->late[k], v->a);
        }
        name = ecs_sched_name(f->w, h);
        if ((name != NULL) != (e->name != NONE) || (name && strcmp(name, name_text[e->name]) != 0)) {
            fail_num(f, "name (index)", e->name, name ? (name[1] - '0') : NONE);
        }
        if (name && ecs_sched_lookup(f->w, e->parent == NONE ? ECS_SCHED_NULL_ENTITY : f->ever[e->parent],
                                     name) != h) {
            fail(f, "lookup by name does not find the entity");
        }
    }
    if (ecs_sched_entity_count(f->w) != f->base_entities + alive) {
        fail_num(f, "entity count", f->base_entities + alive, ecs_sched_entity_count(f->w));
    }
    for (k = 0; k < 2; k++) {
        const R *r = (const R *)ecs_sched_resource_get(f->w, f->r[k]);
        if ((r != NULL) != f->m.has_r[k]) fail_num(f, "resource present", f->m.has_r[k], r != NULL);
        if (r && r->r != f->m.r[k]) fail_num(f, "resource value", f->m.r[k], r->r);
    }
    check_messages(f);
    check_removed(f);
    check_state(f);
    if (ecs_sched_commands_waiting(f->w, ECS_SCHED_CLOCK_VIRTUAL) != f->m.delayed_n) {
        fail_num(f, "delayed buffers waiting", f->m.delayed_n,
                 ecs_sched_commands_waiting(f->w, ECS_SCHED_CLOCK_VIRTUAL));
    }
    virt = (const ecs_sched_time *)ecs_sched_resource_get(f->w, ecs_sched_time_virtual_id(f->w));
    if (!virt || virt->elapsed_ns != f->m.elapsed) {
        fail_num(f, "virtual elapsed", f->m.elapsed, virt ? virt->elapsed_ns : -1);
    }
    if (ecs_sched_world_check(f->w) != ECS_SCHED_OK) fail(f, "world check");
}

/* ---- operations ---- */

/* An entity handed out before (dead ones too), or NONE when there is none. */
static int32_t pick(fuzz *f) {
    unsigned byte = next_byte(f);
    return f->ever_n ? (int32_t)(byte % (unsigned)f->ever_n) : NONE;
}

static int32_t value_of(fuzz *f) {
    return (int32_t)(next_byte(f) % 64u) - 8;
}

static void expect_result(fuzz *f, ecs_sched_result got, bool ok) {
    if ((got == ECS_SCHED_OK) != ok) fail_num(f, "result OK", ok, got == ECS_SCHED_OK);
}

static void op_spawn(fuzz *f) {
    ecs_sched_entity h;
    int32_t k;
    if (f->ever_n >= MAX_EVER) return;
    h = ecs_sched_spawn(f->w);
    if (!h) fail(f, "spawn failed");
    for (k = 0; k < f->ever_n; k++) {
        if (f->ever[k] == h) fail_num(f, "a spawn handed out an old handle again", k, (long long)h);
    }
    f->ever[f->ever_n] = h;
    memset(&f->m.e[f->ever_n], 0, sizeof f->m.e[0]);
    f->m.e[f->ever_n].alive = true;
    f->m.e[f->ever_n].parent = NONE;
    f->m.e[f->ever_n].name = NONE;
    f->m.e[f->ever_n].bound = NONE;
    f->ever_n++;
}

static void op_despawn(fuzz *f) {
    int32_t i = pick(f);
    if (i == NONE) return;
    expect_result(f, ecs_sched_despawn(f->w, f->ever[i]), m_alive(f, i));
    if (m_alive(f, i)) m_despawn(f, i);
}

static void op_insert(fuzz *f, ecs_sched_id id, int bit) {
    int32_t i = pick(f), v = value_of(f);
    m_entity *e;
    ecs_sched_result result;
    bool had;
    if (i == NONE) return;
    e = &f->m.e[i];
    had = (e->has & bit) != 0;
    if (id == f->h) {
        H value;
        int32_t *heap = (int32_t *)malloc(sizeof *heap);
        if (!heap) abort();
        *heap = v;
        value.p = heap;
        result = ecs_sched_insert(f->w, f->ever[i], id, &value);
        free(heap);
    } else {
        int32_t value[2];
        value[0] = v;
        value[1] = 0;
        result = ecs_sched_insert(f->w, f->ever[i], id, (id == f->tag || id == f->mark) ? NULL : value);
    }
    expect_result(f, result, m_alive(f, i));
    if (!m_alive(f, i)) return;
    e->has |= (uint8_t)bit;
    if (bit == HAS_A) e->a = v;
    if (bit == HAS_B) {
        e->b = v;
        if (!had) e->b_enabled = true;
    }
    if (bit == HAS_S) e->s = v;
    if (bit == HAS_T) e->t = v;
    if (bit == HAS_H) e->h = v;
}

static void op_remove(fuzz *f, ecs_sched_id id, int bit) {
    int32_t i = pick(f);
    ecs_sched_result result;
    if (i == NONE) return;
    result = ecs_sched_remove(f->w, f->ever[i], id);
    if (!m_alive(f, i)) {
        expect_result(f, result, false);
        return;
    }
    if (bit == HAS_T && (f->m.e[i].has & HAS_T)) m_removed_add(f, i);
    f->m.e[i].has &= (uint8_t)~bit;
}

static void op_change_in_place(fuzz *f) {
    int32_t i = pick(f), v = value_of(f);
    A *a;
    if (i == NONE) return;
    a = (A *)ecs_sched_get_mut(f->w, f->ever[i], f->a);
    if ((a != NULL) != (m_alive(f, i) && (f->m.e[i].has & HAS_A))) fail(f, "get_mut of A");
    ecs_sched_clear_error(f->w);
    if (!a) return;
    a->a = v;
    f->m.e[i].a = v;
}

static void op_toggle(fuzz *f) {
    int32_t i = pick(f);
    bool on = (next_byte(f) & 1u) != 0;
    ecs_sched_result result;
    if (i == NONE) return;
    result = ecs_sched_enable_component(f->w, f->ever[i], f->b, on);
    expect_result(f, result, m_alive(f, i) && (f->m.e[i].has & HAS_B));
    if (result == ECS_SCHED_OK) f->m.e[i].b_enabled = on;
}

static void op_set_parent(fuzz *f) {
    int32_t child = pick(f), choice = (int32_t)next_byte(f), parent;
    bool ok;
    if (child == NONE) return;
    parent = choice % (f->ever_n + 1) == f->ever_n ? NONE : choice % (f->ever_n + 1);
    ok = m_alive(f, child) && (parent == NONE || m_alive(f, parent)) &&
         !(parent != NONE && m_is_ancestor(f, child, parent)) &&
         !m_name_taken(f, parent, f->m.e[child].name, child);
    expect_result(f, ecs_sched_set_parent(f->w, f->ever[child],
                                          parent == NONE ? ECS_SCHED_NULL_ENTITY : f->ever[parent]),
                  ok);
    if (!ok) return;
    f->m.e[child].parent = parent;
    f->m.e[child].order = ++f->m.order_stamp;
}

static void op_relate(fuzz *f, bool likes) {
    int32_t source = pick(f), target = pick(f), payload = value_of(f);
    bool ok;
    if (source == NONE) return;
    ok = m_alive(f, source) && m_alive(f, target) && source != target;
    expect_result(f, ecs_sched_relate(f->w, f->ever[source], likes ? f->likes : f->bound,
                                      f->ever[target], likes ? &payload : NULL),
                  ok);
    if (!ok) return;
    if (likes) {
        f->m.e[source].likes |= UINT64_C(1) << target;
        f->m.e[source].like_payload[target] = payload;
    } else {
        f->m.e[source].bound = target;
    }
}

static void op_unrelate(fuzz *f, bool likes) {
    int32_t source = pick(f), target = pick(f);
    ecs_sched_result result;
    if (source == NONE) return;
    result = ecs_sched_unrelate(f->w, f->ever[source], likes ? f->likes : f->bound, f->ever[target]);
    if (!m_alive(f, source)) {
        expect_result(f, result, false);
        return;
    }
    if (likes) f->m.e[source].likes &= ~(UINT64_C(1) << target);
    else if (f->m.e[source].bound == target) f->m.e[source].bound = NONE;
}

/* Inserts or removes a component registered at its first use (perhaps after a snapshot). */
static void op_late(fuzz *f) {
    unsigned byte = next_byte(f);
    int k = (int)(byte % LATE);
    bool insert = (byte & 4u) != 0;
    int32_t i = pick(f), v = value_of(f);
    ecs_sched_result result;
    A value;
    if (i == NONE) return;
    if (!f->late[k]) {
        static const char *names[LATE] = {"Late0", "Late1", "Late2", "Late3"};
        f->late[k] = register_component(f->w, names[k], sizeof(A),
                                        k < 2 ? ECS_SCHED_STORAGE_TABLE : ECS_SCHED_STORAGE_SPARSE,
                                        false, false, false);
        if (!f->late[k]) fail(f, "registering a late component");
    }
    value.a = v;
    result = insert ? ecs_sched_insert(f->w, f->ever[i], f->late[k], &value)
                    : ecs_sched_remove(f->w, f->ever[i], f->late[k]);
    if (!m_alive(f, i)) {
        expect_result(f, result, false);
        return;
    }
    if (insert) {
        expect_result(f, result, true);
        f->m.e[i].has_late |= (uint8_t)(1u << k);
        f->m.e[i].late[k] = v;
    } else {
        f->m.e[i].has_late &= (uint8_t)~(1u << k);
    }
}

static void op_set_name(fuzz *f) {
    int32_t i = pick(f), n = (int32_t)(next_byte(f) % (NAMES + 1)) - 1;
    bool ok;
    if (i == NONE) return;
    ok = m_alive(f, i) && !m_name_taken(f, f->m.e[i].parent, n, i);
    expect_result(f, ecs_sched_set_name(f->w, f->ever[i], n == NONE ? NULL : name_text[n]), ok);
    if (ok) f->m.e[i].name = n;
}

static void op_resource(fuzz *f, bool insert) {
    int32_t k = (int32_t)(next_byte(f) & 1u), v = value_of(f);
    R value;
    value.r = v;
    if (insert) {
        expect_result(f, ecs_sched_resource_insert(f->w, f->r[k], &value), true);
        f->m.has_r[k] = true;
        f->m.r[k] = v;
    } else {
        ecs_sched_result result = ecs_sched_resource_remove(f->w, f->r[k]);
        if (f->m.has_r[k]) expect_result(f, result, true);
        ecs_sched_clear_error(f->w);
        f->m.has_r[k] = false;
    }
}

static void op_send(fuzz *f) {
    int32_t count = (int32_t)(next_byte(f) % 3u) + 1, k;
    Ping pings[3];
    if (f->m.msg_new_n + count > MAX_MESSAGES) return;
    for (k = 0; k < count; k++) pings[k].n = value_of(f);
    expect_result(f, count == 1 ? ecs_sched_send(f->w, f->ping, &pings[0])
                                : ecs_sched_send_batch(f->w, f->ping, count, pings),
                  true);
    for (k = 0; k < count; k++) f->m.msg_new[f->m.msg_new_n++] = pings[k].n;
    f->msg_end += (uint64_t)count;
}

static void op_read(fuzz *f) {
    ecs_sched_messages read = ecs_sched_message_read(f->w, &f->reader);
    int32_t kept = f->m.msg_old_n + f->m.msg_new_n;
    uint64_t first = f->msg_end - (uint64_t)kept, seq = first > f->reader_next ? first : f->reader_next;
    while (ecs_sched_messages_next(&read)) {
        int32_t k;
        for (k = 0; k < read.count; k++, seq++) {
            int32_t at = (int32_t)(seq - first), expected;
            if (seq >= f->msg_end) fail_num(f, "the reader reads past the last message", (long long)f->msg_end, (long long)seq);
            expected = at < f->m.msg_old_n ? f->m.msg_old[at] : f->m.msg_new[at - f->m.msg_old_n];
            if (((const Ping *)read.data)[k].n != expected) {
                fail_num(f, "message the reader reads", expected, ((const Ping *)read.data)[k].n);
            }
        }
    }
    if (seq != f->msg_end) fail_num(f, "messages the reader read (up to number)", (long long)f->msg_end, (long long)seq);
    f->reader_next = f->msg_end;
}

static void m_messages_update(fuzz *f) {
    model *m = &f->m;
    memcpy(m->msg_old, m->msg_new, (size_t)m->msg_new_n * sizeof m->msg_new[0]);
    m->msg_old_n = m->msg_new_n;
    m->msg_new_n = 0;
    memcpy(m->removed_old, m->removed_new, (size_t)m->removed_new_n * sizeof m->removed_new[0]);
    m->removed_old_n = m->removed_new_n;
    m->removed_new_n = 0;
}

static void op_messages_update(fuzz *f) {
    ecs_sched_messages_update(f->w);
    m_messages_update(f);
}

static void op_state_queue(fuzz *f) {
    unsigned kind = next_byte(f) % 4u;
    int32_t v = (int32_t)(next_byte(f) % (STATE_VALUES + 1));   /* STATE_VALUES: out of range */
    model *m = &f->m;
    ecs_sched_result result;
    bool ok;
    if (kind == 0) result = ecs_sched_state_set(f->w, f->mode, v);
    else if (kind == 1) result = ecs_sched_state_set_reenter(f->w, f->mode, v);
    else if (kind == 2) result = ecs_sched_state_push(f->w, f->mode, v);
    else result = ecs_sched_state_pop(f->w, f->mode);
    ok = kind == 3 ? m->depth > 0 : v < STATE_VALUES && (kind != 2 || m->depth < STACK_CAPACITY);
    expect_result(f, result, ok);
    ecs_sched_clear_error(f->w);
    if (!ok) return;
    m->pending = (int32_t)kind + 1;
    m->pending_value = v;
}

static void op_state_apply(fuzz *f) {
    bool first = !f->m.entered;
    expect_result(f, ecs_sched_state_apply(f->w, f->mode), true);
    if (first) {   /* the initial value; a request queued before waits for the next apply */
        f->m.entered = true;
        f->m.last_from = NONE;
        f->m.last_to = 0;
        f->m.state = 0;
        f->m.changes++;
        return;
    }
    m_state_apply(f);
}

static void op_delay(fuzz *f) {
    int64_t delay = ECS_SCHED_MILLISECONDS((int64_t)(next_byte(f) % 8u) * 20);
    int32_t count = (int32_t)(next_byte(f) % 3u) + 1, k;
    ecs_sched_commands *cmd, *later;
    m_delayed d;
    if (f->m.delayed_n >= MAX_DELAYED) return;
    memset(&d, 0, sizeof d);
    cmd = ecs_sched_commands_create(f->w);
    if (!cmd) fail(f, "commands_create");
    later = ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, delay);
    if (!later) fail(f, "commands_after");
    for (k = 0; k < count; k++) {
        m_command c;
        ecs_sched_result result;
        c.kind = (int)(next_byte(f) % 4u);
        c.entity = c.kind == D_SET_R ? NONE : pick(f);
        c.value = value_of(f);
        if (c.kind != D_SET_R && c.entity == NONE) continue;
        if (c.kind == D_DESPAWN) {
            result = ecs_sched_commands_despawn(later, f->ever[c.entity]);
        } else if (c.kind == D_INSERT_A) {
            A a;
            a.a = c.value;
            result = ecs_sched_commands_insert(later, f->ever[c.entity], f->a, &a);
        } else if (c.kind == D_REMOVE_A) {
            result = ecs_sched_commands_remove(later, f->ever[c.entity], f->a);
        } else {
            R r;
            r.r = c.value;
            result = ecs_sched_commands_set_resource(later, f->r[0], &r);
        }
        ecs_sched_clear_error(f->w);
        if (result == ECS_SCHED_OK) d.commands[d.count++] = c;   /* a stale handle may be refused */
    }
    expect_result(f, ecs_sched_commands_apply(cmd), true);
    ecs_sched_commands_destroy(cmd);
    if (d.count == 0) return;   /* an empty buffer is not queued */
    d.due = f->m.elapsed + delay;
    d.seq = f->m.delayed_seq++;
    f->m.delayed[f->m.delayed_n++] = d;
}

/* A delayed buffer that spawns an entity with A: its handle is reserved until it is applied. */
static void op_delay_spawn(fuzz *f) {
    int64_t delay = ECS_SCHED_MILLISECONDS((int64_t)(next_byte(f) % 8u) * 20);
    ecs_sched_commands *cmd, *later;
    ecs_sched_entity h;
    ecs_sched_id ids[1];
    const void *values[1];
    A a;
    m_delayed d;
    int32_t k;
    if (f->m.delayed_n >= MAX_DELAYED || f->ever_n >= MAX_EVER) return;
    a.a = value_of(f);
    cmd = ecs_sched_commands_create(f->w);
    if (!cmd) fail(f, "commands_create");
    later = ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, delay);
    if (!later) fail(f, "commands_after");
    ids[0] = f->a;
    values[0] = &a;
    h = ecs_sched_commands_spawn_with(later, 1, ids, values);
    if (!h) fail(f, "commands_spawn_with");
    for (k = 0; k < f->ever_n; k++) {
        if (f->ever[k] == h) fail_num(f, "a reserved handle is an old handle again", k, (long long)h);
    }
    expect_result(f, ecs_sched_commands_apply(cmd), true);
    ecs_sched_commands_destroy(cmd);
    memset(&d, 0, sizeof d);
    d.count = 1;
    d.commands[0].kind = D_SPAWN;
    d.commands[0].entity = f->ever_n;
    d.commands[0].value = a.a;
    d.due = f->m.elapsed + delay;
    d.seq = f->m.delayed_seq++;
    f->m.delayed[f->m.delayed_n++] = d;
    f->ever[f->ever_n] = h;
    memset(&f->m.e[f->ever_n], 0, sizeof f->m.e[0]);
    f->m.e[f->ever_n].reserved = true;
    f->m.e[f->ever_n].parent = NONE;
    f->m.e[f->ever_n].name = NONE;
    f->m.e[f->ever_n].bound = NONE;
    f->ever_n++;
}

static void advance(fuzz *f, int64_t ns) {
    expect_result(f, ecs_sched_time_advance_by(f->w, ns), true);
    f->m.elapsed += ns;
    m_apply_due(f);
}

static void op_advance(fuzz *f) {
    advance(f, ECS_SCHED_MILLISECONDS((int64_t)(next_byte(f) % 126u) * 2));
}

static void op_snapshot(fuzz *f) {
    int k = (int)(next_byte(f) & 1u);
    if (m_any_reserved(f)) {   /* refused, the slot kept as it was */
        if (f->snap[k]) {
            expect_result(f, ecs_sched_snapshot_retake(f->w, f->snap[k]), false);
        } else if ((f->snap[k] = ecs_sched_snapshot_take(f->w)) != NULL) {
            fail(f, "snapshot_take while a handle is reserved");
        }
        return;
    }
    if (f->snap[k]) {
        expect_result(f, ecs_sched_snapshot_retake(f->w, f->snap[k]), true);
    } else {
        f->snap[k] = ecs_sched_snapshot_take(f->w);
        if (!f->snap[k]) fail(f, "snapshot_take");
    }
    f->snap_model[k] = f->m;
    f->emptied[k] = false;
}

/* The same with one allocation failing: a take gives NULL, a retake empties the snapshot
   (restoring it is refused until a retake works); the world is untouched either way. */
static void op_snapshot_out_of_memory(fuzz *f) {
    int k = (int)(next_byte(f) & 1u);
    long countdown = (long)(next_byte(f) % 48u);
    if (m_any_reserved(f)) return;
    alloc_countdown = countdown;
    if (f->snap[k]) {
        if (ecs_sched_snapshot_retake(f->w, f->snap[k]) == ECS_SCHED_OK) {
            f->snap_model[k] = f->m;
            f->emptied[k] = false;
        } else {
            f->emptied[k] = true;
        }
    } else if ((f->snap[k] = ecs_sched_snapshot_take(f->w)) != NULL) {
        f->snap_model[k] = f->m;
        f->emptied[k] = false;
    }
    alloc_countdown = -1;
}

/* Everything pending in the world comes due: the queued state, every delayed buffer, the
   messages' ageing; checked step by step, then undone through one more snapshot. */
static void probe(fuzz *f) {
    ecs_sched_snapshot *undo = ecs_sched_snapshot_take(f->w);
    model saved = f->m;
    const char *name = f->op_name;
    int round;
    if (!undo) fail(f, "probe snapshot_take");
    f->op_name = "probe: state apply";
    op_state_apply(f);
    check_all(f);
    f->op_name = "probe: advance";
    for (round = 0; round < 8 && f->m.delayed_n > 0; round++) {
        advance(f, ECS_SCHED_MILLISECONDS(120));
        check_all(f);
    }
    f->op_name = "probe: messages update";
    op_messages_update(f);
    check_all(f);
    op_messages_update(f);
    check_all(f);
    f->op_name = "probe: restore";
    expect_result(f, ecs_sched_snapshot_restore(f->w, undo), true);
    f->m = saved;
    check_all(f);
    ecs_sched_snapshot_free(undo);
    f->op_name = name;
}

static void restore(fuzz *f, int k) {
    if (!f->snap[k]) return;
    if (m_any_reserved(f) || f->emptied[k]) {
        expect_result(f, ecs_sched_snapshot_restore(f->w, f->snap[k]), false);
        return;
    }
    expect_result(f, ecs_sched_snapshot_restore(f->w, f->snap[k]), true);
    f->m = f->snap_model[k];
    check_all(f);
    probe(f);
}

static void op_restore(fuzz *f) {
    restore(f, (int)(next_byte(f) & 1u));
}

/* A restore with one allocation failing: all or nothing, so either the snapshot's world or
   the world as it was (the next check compares). */
static void op_restore_out_of_memory(fuzz *f) {
    int k = (int)(next_byte(f) & 1u);
    long countdown = (long)(next_byte(f) % 48u);
    ecs_sched_result result;
    if (!f->snap[k] || m_any_reserved(f) || f->emptied[k]) return;
    alloc_countdown = countdown;
    result = ecs_sched_snapshot_restore(f->w, f->snap[k]);
    alloc_countdown = -1;
    if (result == ECS_SCHED_OK) f->m = f->snap_model[k];
}

static void op_free_snapshot(fuzz *f) {
    int k = (int)(next_byte(f) & 1u);
    ecs_sched_snapshot_free(f->snap[k]);
    f->snap[k] = NULL;
    f->emptied[k] = false;
}

typedef struct operation {
    const char *name;
    int kind;
} operation;

enum {
    OP_SPAWN, OP_DESPAWN, OP_INSERT_A, OP_REMOVE_A, OP_INSERT_B, OP_REMOVE_B, OP_TOGGLE_B,
    OP_INSERT_TAG, OP_REMOVE_TAG, OP_INSERT_S, OP_REMOVE_S, OP_INSERT_MARK, OP_REMOVE_MARK,
    OP_INSERT_T, OP_REMOVE_T, OP_INSERT_H, OP_REMOVE_H, OP_CHANGE_A, OP_SET_PARENT,
    OP_SET_NAME, OP_RESOURCE_INSERT, OP_RESOURCE_REMOVE, OP_SEND, OP_MESSAGES_UPDATE,
    OP_STATE_QUEUE, OP_STATE_APPLY, OP_DELAY, OP_ADVANCE, OP_SNAPSHOT, OP_RESTORE,
    OP_FREE_SNAPSHOT, OP_DELAY_SPAWN, OP_LIKE, OP_UNLIKE, OP_BIND, OP_UNBIND, OP_LATE, OP_READ,
    OP_SNAPSHOT_OOM, OP_RESTORE_OOM, OP_COUNT
};

static const char *op_names[OP_COUNT] = {
    "spawn", "despawn", "insert A", "remove A", "insert B", "remove B", "toggle B",
    "insert Tag", "remove Tag", "insert S", "remove S", "insert Mark", "remove Mark",
    "insert T", "remove T", "insert H", "remove H", "change A in place", "set_parent",
    "set_name", "resource insert", "resource remove", "send", "messages update",
    "state queue", "state apply", "delayed commands", "advance", "snapshot", "restore",
    "free snapshot", "delayed spawn", "relate Likes", "unrelate Likes", "relate Bound",
    "unrelate Bound", "late component", "read", "snapshot out of memory",
    "restore out of memory"};

static void run_op(fuzz *f, int kind) {
    switch (kind) {
    case OP_SPAWN: op_spawn(f); break;
    case OP_DESPAWN: op_despawn(f); break;
    case OP_INSERT_A: op_insert(f, f->a, HAS_A); break;
    case OP_REMOVE_A: op_remove(f, f->a, HAS_A); break;
    case OP_INSERT_B: op_insert(f, f->b, HAS_B); break;
    case OP_REMOVE_B: op_remove(f, f->b, HAS_B); break;
    case OP_TOGGLE_B: op_toggle(f); break;
    case OP_INSERT_TAG: op_insert(f, f->tag, HAS_TAG); break;
    case OP_REMOVE_TAG: op_remove(f, f->tag, HAS_TAG); break;
    case OP_INSERT_S: op_insert(f, f->s, HAS_S); break;
    case OP_REMOVE_S: op_remove(f, f->s, HAS_S); break;
    case OP_INSERT_MARK: op_insert(f, f->mark, HAS_MARK); break;
    case OP_REMOVE_MARK: op_remove(f, f->mark, HAS_MARK); break;
    case OP_INSERT_T: op_insert(f, f->t, HAS_T); break;
    case OP_REMOVE_T: op_remove(f, f->t, HAS_T); break;
    case OP_INSERT_H: op_insert(f, f->h, HAS_H); break;
    case OP_REMOVE_H: op_remove(f, f->h, HAS_H); break;
    case OP_CHANGE_A: op_change_in_place(f); break;
    case OP_SET_PARENT: op_set_parent(f); break;
    case OP_SET_NAME: op_set_name(f); break;
    case OP_RESOURCE_INSERT: op_resource(f, true); break;
    case OP_RESOURCE_REMOVE: op_resource(f, false); break;
    case OP_SEND: op_send(f); break;
    case OP_MESSAGES_UPDATE: op_messages_update(f); break;
    case OP_STATE_QUEUE: op_state_queue(f); break;
    case OP_STATE_APPLY: op_state_apply(f); break;
    case OP_DELAY: op_delay(f); break;
    case OP_ADVANCE: op_advance(f); break;
    case OP_SNAPSHOT: op_snapshot(f); break;
    case OP_RESTORE: op_restore(f); break;
    case OP_FREE_SNAPSHOT: op_free_snapshot(f); break;
    case OP_DELAY_SPAWN: op_delay_spawn(f); break;
    case OP_LIKE: op_relate(f, true); break;
    case OP_UNLIKE: op_unrelate(f, true); break;
    case OP_BIND: op_relate(f, false); break;
    case OP_UNBIND: op_unrelate(f, false); break;
    case OP_LATE: op_late(f); break;
    case OP_READ: op_read(f); break;
    case OP_SNAPSHOT_OOM: op_snapshot_out_of_memory(f); break;
    default: op_restore_out_of_memory(f); break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static fuzz f;
    int k;
    memset(&f, 0, sizeof f);
    f.data = data;
    f.size = size;
    if (!setup(&f)) return 0;
    f.op_name = "setup";
    check_all(&f);
    for (f.op = 0; f.op < MAX_OPS && f.at < f.size; f.op++) {
        int kind = (int)(next_byte(&f) % OP_COUNT);
        f.op_name = op_names[kind];
        run_op(&f, kind);
        ecs_sched_clear_error(f.w);
        check_all(&f);
    }
    f.op_name = "final advance";   /* delayed spawns hold reserved handles until applied */
    for (k = 0; k < 8 && m_any_reserved(&f); k++) {
        advance(&f, ECS_SCHED_MILLISECONDS(120));
        check_all(&f);
    }
    f.op_name = "final restore";
    restore(&f, f.snap[0] ? 0 : 1);
    for (k = 0; k < 2; k++) ecs_sched_snapshot_free(f.snap[k]);
    ecs_sched_world_destroy(f.w);
    return 0;
}
