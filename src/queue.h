/* queue: queues of values with readers, kept by the world: a message type's messages
   (message.h), and the entities that lost a tracked component. */
#pragma once
#include "registry.h"

/*@@ implementation @@*/
/* queue: the world's queues. A tracked component's removals are queued by the structural
   operations as they happen (entity.h, sparse.h); message.h sends and reads messages, and
   hands out the removals to their readers. */

/* A queue of messages (of a message type, or of a tracked component's removals): two
   buffers, the older and the newer; sequence numbers count every message ever sent. */
typedef struct ecs_sched__queue {
    ecs_sched_id id;
    bool removals;                    /* the entities that lost component `id` */
    uint32_t size;
    uint32_t alignment;
    ecs_sched_type_hooks hooks;
    unsigned char *data[2];           /* [0] the older, [1] the newer */
    int32_t count[2];
    int32_t capacity[2];
    uint64_t first[2];                /* the sequence number of each buffer's first message
                                         (the next one sent: first[1] + count[1]) */
    uint64_t cleared;                 /* those before it were dropped on purpose */
} ecs_sched__queue;

typedef struct ecs_sched__message_scope {
    uint32_t queue;
    ecs_sched_id machine;
    int32_t value;
    bool on_enter;
} ecs_sched__message_scope;

typedef struct ecs_sched__messages ecs_sched__messages;

/* The part of the world this module keeps (registry.h). */
static ecs_sched__part_key ecs_sched__messages_key;

struct ecs_sched__messages {
    ecs_sched__queue **queues;
    uint32_t count;
    uint32_t capacity;
    ecs_sched__message_scope *scopes;
    uint32_t scope_count;
    uint32_t scope_capacity;
};

static inline ecs_sched__messages *ecs_sched__messages_of(const ecs_sched_world *w) {
    return (ecs_sched__messages *)ecs_sched__part(w, &ecs_sched__messages_key);
}

static ecs_sched__queue *ecs_sched__queue_at(const ecs_sched_world *w, uint32_t index) {
    return ecs_sched__messages_of(w)->queues[index];
}

/* The sequence number of the next message sent. */
static inline uint64_t ecs_sched__queue_end(const ecs_sched__queue *q) {
    return q->first[1] + (uint64_t)q->count[1];
}

static void ecs_sched__queue_drop(ecs_sched__queue *q, int b) {
    if (q->hooks.dtor && q->count[b] > 0) q->hooks.dtor(q->data[b], q->count[b], q->hooks.ctx);
    q->count[b] = 0;
}

static void ecs_sched__queue_free(ecs_sched_world *w, ecs_sched__queue *q) {
    ecs_sched__queue_drop(q, 0);
    ecs_sched__queue_drop(q, 1);
    ecs_sched__aligned_free(&w->env, q->data[0]);
    ecs_sched__aligned_free(&w->env, q->data[1]);
    ecs_sched__free(&w->env, q);
}

/* For world.h: the queues go with the world. */
static void ecs_sched__messages_free(ecs_sched_world *w) {
    uint32_t i;
    if (!ecs_sched__messages_of(w)) return;
    for (i = 0; i < ecs_sched__messages_of(w)->count; i++) ecs_sched__queue_free(w, ecs_sched__messages_of(w)->queues[i]);
    ecs_sched__free(&w->env, ecs_sched__messages_of(w)->queues);
    ecs_sched__free(&w->env, ecs_sched__messages_of(w)->scopes);
    ecs_sched__free(&w->env, ecs_sched__messages_of(w));
    ecs_sched__part_set(w, &ecs_sched__messages_key, NULL);
}

/* A new queue for component `id`; its index + 1, or 0 when out of memory. */
static uint32_t ecs_sched__queue_create(ecs_sched_world *w, ecs_sched_id id, bool removals,
                                        uint32_t size, uint32_t alignment,
                                        const ecs_sched_type_hooks *hooks) {
    ecs_sched__messages *all;
    ecs_sched__queue *q;
    if (!ecs_sched__messages_of(w)) {
        ecs_sched__part_set(w, &ecs_sched__messages_key, (ecs_sched__messages *)ecs_sched__calloc(&w->env, sizeof *ecs_sched__messages_of(w)));
        if (!ecs_sched__messages_of(w)) return 0;
    }
    all = ecs_sched__messages_of(w);
    if (!ECS_SCHED__GROW(&w->env, all->queues, &all->capacity, all->count + 1) ||
        !(q = (ecs_sched__queue *)ecs_sched__calloc(&w->env, sizeof *q))) {
        return 0;
    }
    q->id = id;
    q->removals = removals;
    q->size = size;
    q->alignment = alignment;
    if (hooks) q->hooks = *hooks;
    all->queues[all->count++] = q;
    return all->count;
}

/* The messages the newer buffer holds at most (its capacity doubles, and stays an int32_t). */
#define ECS_SCHED__MAX_QUEUED (INT32_MAX / 2)

/* Room for `n` more messages in the newer buffer; false when out of memory, or over
   ECS_SCHED__MAX_QUEUED. */
static bool ecs_sched__queue_reserve(ecs_sched_world *w, ecs_sched__queue *q, int32_t n) {
    int64_t needed = (int64_t)q->count[1] + n;
    int32_t capacity = q->capacity[1] ? q->capacity[1] : 16;
    unsigned char *data;
    size_t size = q->size ? q->size : 1;
    if (needed <= q->capacity[1]) return true;
    if (needed > ECS_SCHED__MAX_QUEUED) return false;
    while (capacity < needed) capacity *= 2;
    data = (unsigned char *)ecs_sched__aligned_alloc(&w->env, (size_t)capacity * size, q->alignment);
    if (!data) return false;
    if (q->count[1]) {
        if (q->hooks.move) q->hooks.move(data, q->data[1], q->count[1], q->hooks.ctx);
        else memcpy(data, q->data[1], (size_t)q->count[1] * size);
    }
    ecs_sched__aligned_free(&w->env, q->data[1]);
    q->data[1] = data;
    q->capacity[1] = capacity;
    return true;
}

/* Appends `n` messages (NULL: zeroed ones). */
static bool ecs_sched__queue_push(ecs_sched_world *w, ecs_sched__queue *q, int32_t n,
                                  const void *values) {
    unsigned char *dst;
    if (n <= 0) return true;
    if (!ecs_sched__queue_reserve(w, q, n)) return false;
    dst = q->data[1] + (size_t)q->count[1] * q->size;
    if (q->size) {
        memset(dst, 0, (size_t)n * q->size);
        if (values) {
            if (q->hooks.copy) q->hooks.copy(dst, values, n, q->hooks.ctx);
            else memcpy(dst, values, (size_t)n * q->size);
        }
    }
    q->count[1] += n;
    return true;
}

static void ecs_sched__queue_update(ecs_sched__queue *q) {
    unsigned char *data = q->data[0];
    int32_t capacity = q->capacity[0];
    ecs_sched__queue_drop(q, 0);
    q->data[0] = q->data[1];
    q->count[0] = q->count[1];
    q->capacity[0] = q->capacity[1];
    q->first[0] = q->first[1];
    q->data[1] = data;              /* the dropped buffer is reused */
    q->capacity[1] = capacity;
    q->count[1] = 0;
    q->first[1] = q->first[0] + (uint64_t)q->count[0];
}

/* Drops every message kept (a state-scoped clear): readers skip them without counting them
   missed. */
static void ecs_sched__queue_clear(ecs_sched__queue *q) {
    uint64_t end = ecs_sched__queue_end(q);
    ecs_sched__queue_drop(q, 0);
    ecs_sched__queue_drop(q, 1);
    q->first[0] = q->first[1] = q->cleared = end;
}

/* ---- message queues in snapshots ----

   A snapshot holds the messages each queue keeps (both buffers) and a restore brings them
   back. The readers' places are not in it (a system's is code's state, a cursor outside
   systems is the caller's), and sequence numbers only move forward, as generations do: the
   restored messages take the numbers just before the queue's end as it is, so that a
   reader keeps its place counted from the end. A reader that had read everything reads only
   what is sent after the restore; none ever skips a message sent after it, and none counts
   what the restore dropped as missed. Queues made since the snapshot are emptied. */

typedef struct ecs_sched__queue_copy {
    uint32_t size, alignment;
    ecs_sched_type_hooks hooks;       /* to destroy the copies without the world */
    unsigned char *data[2];
    int32_t count[2];
} ecs_sched__queue_copy;

typedef struct ecs_sched__messages_copy {
    uint32_t count;
    ecs_sched__queue_copy *queues;
} ecs_sched__messages_copy;

/* A block of n messages copied from `from` (copy hook); NULL for none, or when out of memory
   (*ok false). */
static unsigned char *ecs_sched__messages_clone(ecs_sched__env *env, uint32_t size, uint32_t alignment,
                                                const ecs_sched_type_hooks *hooks,
                                                const unsigned char *from, int32_t n, bool *ok) {
    unsigned char *data;
    if (n <= 0) return NULL;
    data = (unsigned char *)ecs_sched__aligned_alloc(env, (size_t)n * (size ? size : 1), alignment);
    if (!data) {
        *ok = false;
        return NULL;
    }
    if (size && hooks->copy) hooks->copy(data, from, n, hooks->ctx);
    else if (size) memcpy(data, from, (size_t)n * size);
    return data;
}

static void ecs_sched__queue_copy_free(ecs_sched__env *env, ecs_sched__queue_copy *q) {
    int b;
    for (b = 0; b < 2; b++) {
        if (!q->data[b]) continue;
        if (q->hooks.dtor && q->count[b] > 0) q->hooks.dtor(q->data[b], q->count[b], q->hooks.ctx);
        ecs_sched__aligned_free(env, q->data[b]);
        q->data[b] = NULL;
    }
}

static void ecs_sched__messages_copy_free(ecs_sched__env *env, void *copy) {
    ecs_sched__messages_copy *c = (ecs_sched__messages_copy *)copy;
    uint32_t i;
    for (i = 0; c->queues && i < c->count; i++) ecs_sched__queue_copy_free(env, &c->queues[i]);
    ecs_sched__free(env, c->queues);
    ecs_sched__free(env, c);
}

/* Copies of the first `count` queues' messages as `from` (the world's, or a snapshot's)
   holds them; NULL when out of memory. */
static ecs_sched__messages_copy *ecs_sched__messages_copy_make(ecs_sched_world *w, uint32_t count,
                                                              const ecs_sched__queue_copy *from,
                                                              size_t *bytes) {
    ecs_sched__messages_copy *c = (ecs_sched__messages_copy *)ecs_sched__calloc(&w->env, sizeof *c);
    uint32_t i;
    bool ok = c != NULL;
    if (!c) return NULL;
    c->queues = (ecs_sched__queue_copy *)ecs_sched__calloc(&w->env, (count + 1) * sizeof *c->queues);
    if (!c->queues) ok = false;
    c->count = ok ? count : 0;
    for (i = 0; ok && i < count; i++) {
        ecs_sched__queue_copy *q = &c->queues[i];
        int b;
        *q = from[i];
        for (b = 0; b < 2; b++) {
            q->data[b] = ecs_sched__messages_clone(&w->env, q->size, q->alignment, &q->hooks,
                                                   from[i].data[b], from[i].count[b], &ok);
            if (!q->data[b]) q->count[b] = 0;
            *bytes += (size_t)q->count[b] * q->size;
        }
    }
    if (!ok) {
        ecs_sched__messages_copy_free(&w->env, c);
        return NULL;
    }
    return c;
}

static bool ecs_sched__messages_take(ecs_sched_world *w, void **copy, size_t *bytes) {
    ecs_sched__queue_copy *now;
    uint32_t i, count = ecs_sched__messages_of(w)->count;
    now = (ecs_sched__queue_copy *)ecs_sched__calloc(&w->env, (count + 1) * sizeof *now);
    if (!now) return false;
    for (i = 0; i < count; i++) {
        const ecs_sched__queue *q = ecs_sched__messages_of(w)->queues[i];
        now[i].size = q->size;
        now[i].alignment = q->alignment;
        now[i].hooks = q->hooks;
        now[i].data[0] = q->data[0];
        now[i].data[1] = q->data[1];
        now[i].count[0] = q->count[0];
        now[i].count[1] = q->count[1];
    }
    *copy = ecs_sched__messages_copy_make(w, count, now, bytes);
    ecs_sched__free(&w->env, now);
    return *copy != NULL;
}

static bool ecs_sched__messages_prepare(ecs_sched_world *w, const void *copy, void **prepared) {
    const ecs_sched__messages_copy *from = (const ecs_sched__messages_copy *)copy;
    size_t bytes = 0;
    uint32_t count = from ? from->count : 0;
    if (count > ecs_sched__messages_of(w)->count) count = ecs_sched__messages_of(w)->count;
    *prepared = ecs_sched__messages_copy_make(w, count, from ? from->queues : NULL, &bytes);
    return *prepared != NULL;
}

static void ecs_sched__messages_discard(ecs_sched_world *w, void *prepared) {
    ecs_sched__messages_copy_free(&w->env, prepared);
}

/* Each queue's messages become the prepared copies, numbered to end where the queue ends. */
static void ecs_sched__messages_apply(ecs_sched_world *w, const void *copy, void *prepared) {
    ecs_sched__messages_copy *c = (ecs_sched__messages_copy *)prepared;
    uint32_t i;
    (void)copy;
    for (i = 0; i < ecs_sched__messages_of(w)->count; i++) {
        ecs_sched__queue *q = ecs_sched__messages_of(w)->queues[i];
        uint64_t end = ecs_sched__queue_end(q);
        int b;
        ecs_sched__queue_clear(q);
        if (i >= c->count) continue;
        for (b = 0; b < 2; b++) {
            ecs_sched__aligned_free(&w->env, q->data[b]);
            q->data[b] = c->queues[i].data[b];
            q->count[b] = q->capacity[b] = c->queues[i].count[b];
            c->queues[i].data[b] = NULL;   /* the queue has them now */
        }
        q->first[1] = end - (uint64_t)q->count[1];
        q->first[0] = q->first[1] - (uint64_t)q->count[0];
        q->cleared = q->first[0];
    }
    ecs_sched__messages_copy_free(&w->env, c);
}

static const ecs_sched__snapshot_part ecs_sched__messages_part = {
    ecs_sched__messages_take, ecs_sched__messages_prepare, ecs_sched__messages_apply,
    ecs_sched__messages_discard, ecs_sched__messages_copy_free};

/* ---- removed components ---- */

/* A tracked component gets its removals' queue. */
static bool ecs_sched__removals_create(ecs_sched_world *w, ecs_sched_id id) {
    uint32_t queue = ecs_sched__queue_create(w, id, true, sizeof(ecs_sched_entity),
                                             (uint32_t)sizeof(ecs_sched_entity), NULL);
    if (!queue) return false;
    w->components[id].removals = queue;
    ecs_sched__snapshot_part_add(w, &ecs_sched__messages_part);
    return true;
}

/* `e` loses tracked component `id` (removed, or despawned). A removal
   that cannot be kept (out of memory) is lost, and the log says so. */
static void ecs_sched__removed(ecs_sched_world *w, ecs_sched_id id, ecs_sched_entity e) {
    uint32_t queue = w->components[id].removals;
    if (!queue || !ecs_sched__queue_push(w, ecs_sched__queue_at(w, queue - 1), 1, &e)) {
        ecs_sched__logf(&w->env, ECS_SCHED_LOG_WARN, ECS_SCHED_ERR_OUT_OF_MEMORY,
                        "the removal of '%s' from entity %u is not kept (out of memory): "
                        "readers of its removals will not see it",
                        w->components[id].name, (unsigned)ECS_SCHED_ENTITY_INDEX(e));
    }
}
