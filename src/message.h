/* message: messages between systems, and the lists of removed components. */
#pragma once
#include "context.h"
#include "component.h"

/* ---- messages ----

   A message type is registered like a component; its id is what systems declare: a sender
   in .writes, a reader in .reads. Messages are copied in, kept in send order, and read once
   by each reader (each with its own cursor). A message lives for two updates of the queues
   (ecs_sched_messages_update; an app updates them once a frame, see Messages in THE WORLD'S
   EVENTS in the documentation block), then goes (its type's dtor hook runs). */

typedef struct ecs_sched_message_desc {
    const char *name;                 /* required, unique among components and messages */
    size_t size;                      /* 0: a message without data (only its count matters) */
    size_t alignment;                 /* 0: as for components */
    ecs_sched_type_hooks hooks;       /* copy, move and dtor are used (owned payloads) */
} ecs_sched_message_desc;

/* Registers a message type; returns its id, or 0 on failure. Registering it again with the
   same layout returns the same id. */
ECS_SCHED_API ecs_sched_id ecs_sched_message_register(ecs_sched_world *world,
                                                      const ecs_sched_message_desc *desc);
ECS_SCHED_API ecs_sched_id ecs_sched_message_register_type(ecs_sched_world *world,
                                                           const char *name, size_t size,
                                                           size_t alignment);
/* Registers C type T as a message type: ECS_SCHED_MESSAGE(world, Hit). */
#define ECS_SCHED_MESSAGE(world, T) \
    ecs_sched_message_register_type((world), #T, sizeof(T), ECS_SCHED_ALIGNOF(T))
ECS_SCHED_API bool ecs_sched_is_message(const ecs_sched_world *world, ecs_sched_id id);

/* Sends a message (its bytes are copied; NULL: a zeroed one) from a system that declared the
   type in .writes. */
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_send(ecs_sched_system_ctx *ctx, ecs_sched_id id,
                                                  const void *message);
/* Sends a new message, zeroed, and returns it for the system to fill in (NULL on failure):
   no copy, for systems that send many. It stays valid until the system sends the next
   message of that type. */
ECS_SCHED_API void *ecs_sched_ctx_send_new(ecs_sched_system_ctx *ctx, ecs_sched_id id);
/* Sends `count` messages from an array of them. */
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_send_batch(ecs_sched_system_ctx *ctx,
                                                        ecs_sched_id id, int32_t count,
                                                        const void *messages);
/* The same outside systems (or from an exclusive system). */
ECS_SCHED_API ecs_sched_result ecs_sched_send(ecs_sched_world *world, ecs_sched_id id,
                                              const void *message);
ECS_SCHED_API ecs_sched_result ecs_sched_send_batch(ecs_sched_world *world, ecs_sched_id id,
                                                    int32_t count, const void *messages);

/* What a read hands out: the messages not read yet, oldest first, in at most two runs of
   `count` values at `data` (ecs_sched_messages_next moves to the next run). `missed` counts
   the messages that were dropped before this reader read them (it fell behind by more than
   two updates), `total` the messages of the read. */
typedef struct ecs_sched_messages {
    const void *data;
    int32_t count;
    int32_t total;
    int64_t missed;
    const void *queue_;               /* private */
    uint64_t from_, to_;              /* private: the sequence numbers read */
    int32_t part_;                    /* private */
} ecs_sched_messages;

ECS_SCHED_API bool ecs_sched_messages_next(ecs_sched_messages *read);

/* Reads the messages of a type the system declared (in .reads, or .writes), sent since the
   system last read them: each message once. */
ECS_SCHED_API ecs_sched_messages ecs_sched_ctx_messages(ecs_sched_system_ctx *ctx,
                                                        ecs_sched_id id);

/* A reader outside systems: a cursor of its own. A new cursor starts at the oldest message
   still kept. */
typedef struct ecs_sched_message_cursor {
    ecs_sched_id id;
    uint64_t next_;                   /* private: the sequence number it reads next */
    int64_t missed;                   /* messages it missed, in all */
} ecs_sched_message_cursor;

ECS_SCHED_API ecs_sched_message_cursor ecs_sched_message_cursor_make(ecs_sched_world *world,
                                                                     ecs_sched_id id);
ECS_SCHED_API ecs_sched_messages ecs_sched_message_read(ecs_sched_world *world,
                                                        ecs_sched_message_cursor *cursor);
/* Messages sent so far that the cursor has not read (without reading them). */
ECS_SCHED_API int32_t ecs_sched_message_unread(ecs_sched_world *world,
                                               const ecs_sched_message_cursor *cursor);

/* Drops the messages sent before the previous update and keeps those sent since: every
   message lives for two updates. An app does it once a frame (see Messages in THE WORLD'S EVENTS); a world without
   an app calls it itself, once a frame. */
ECS_SCHED_API void ecs_sched_messages_update(ecs_sched_world *world);

/* ---- removed components ----

   A tracked component (registered with .tracked) keeps the entities that lost it (removed,
   or despawned with it) as messages of its own: ecs_sched_entity values, read like any
   messages. They live for two updates of the queues, as messages do. */

/* The entities that lost the component since the system last looked (in the order they lost
   it). The system need not declare anything for it. */
ECS_SCHED_API ecs_sched_messages ecs_sched_ctx_removed(ecs_sched_system_ctx *ctx,
                                                       ecs_sched_id component);
/* A cursor outside systems, read with ecs_sched_message_read. */
ECS_SCHED_API ecs_sched_message_cursor ecs_sched_removed_cursor_make(ecs_sched_world *world,
                                                                     ecs_sched_id component);

/*@@ implementation @@*/
/* message: messages between systems, and the lists of removed components. */

void ecs_sched_messages_update(ecs_sched_world *w) {
    uint32_t i;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__messages_of(w)) return;
    for (i = 0; i < ecs_sched__messages_of(w)->count; i++) ecs_sched__queue_update(ecs_sched__messages_of(w)->queues[i]);
    w->fixed_step_since_update = false;
}

/* ---- registering ---- */

static const ecs_sched__queue *ecs_sched__message_queue(const ecs_sched_world *w, ecs_sched_id id) {
    if (!ecs_sched__component_valid(w, id) || !w->components[id].queue) return NULL;
    return ecs_sched__queue_at(w, w->components[id].queue - 1);
}

bool ecs_sched_is_message(const ecs_sched_world *w, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__message_queue(w, id) != NULL;
}

ecs_sched_id ecs_sched_message_register(ecs_sched_world *w, const ecs_sched_message_desc *desc) {
    ecs_sched_component_desc c;
    ecs_sched_id id, existing;
    uint32_t queue;
    ECS_SCHED__CHECK_WORLD(w);
    if (!desc || !desc->name) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "message_register: a message type needs a non-empty name");
        return 0;
    }
    existing = ecs_sched_component_lookup(w, desc->name);
    if (existing && !w->components[existing].queue) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_COMPONENT_MISMATCH,
                        "message_register: '%s' is already registered as a component; a "
                        "message type needs a name of its own", desc->name);
        return 0;
    }
    memset(&c, 0, sizeof c);
    c.name = desc->name;
    c.size = desc->size;
    c.alignment = desc->alignment;
    c.hooks = desc->hooks;
    id = ecs_sched_component_register(w, &c);
    if (!id || existing) return id;
    queue = ecs_sched__queue_create(w, id, false, w->components[id].size,
                                    w->components[id].alignment, &desc->hooks);
    if (!queue) {
        ecs_sched__out_of_memory(w, "registering a message type");
        return 0;   /* the name stays a component: registering it again fails the same way */
    }
    w->components[id].queue = queue;
    ecs_sched__snapshot_part_add(w, &ecs_sched__messages_part);
    return id;
}

ecs_sched_id ecs_sched_message_register_type(ecs_sched_world *w, const char *name, size_t size,
                                             size_t alignment) {
    ecs_sched_message_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.name = name;
    desc.size = size;
    desc.alignment = alignment;
    return ecs_sched_message_register(w, &desc);
}

static ecs_sched_result ecs_sched__removals_of_untracked(ecs_sched_world *w, ecs_sched_id id,
                                                        const char *operation) {
    if (!ecs_sched__component_valid(w, id)) return ecs_sched__unknown_component(w, id, operation);
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "%s: '%s' is not tracked, so its removals are not kept; register "
                           "it with .tracked = true (ECS_SCHED_TRACKED_COMPONENT)",
                           operation, w->components[id].name);
}

/* ---- sending ---- */

static ecs_sched_result ecs_sched__not_a_message(ecs_sched_world *w, ecs_sched_id id,
                                                 const char *operation) {
    if (!ecs_sched__component_valid(w, id)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_UNKNOWN_COMPONENT,
                               "%s: id %u is no message type of this world (register one with "
                               "ecs_sched_message_register or ECS_SCHED_MESSAGE first)",
                               operation, (unsigned)id);
    }
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "%s: '%s' is a component, not a message type (register it with "
                           "ecs_sched_message_register or ECS_SCHED_MESSAGE)",
                           operation, w->components[id].name);
}

static ecs_sched_result ecs_sched__send(ecs_sched_world *w, ecs_sched_id id, int32_t count,
                                        const void *messages, const char *operation) {
    const ecs_sched__queue *q = ecs_sched__message_queue(w, id);
    if (!q || q->removals) return ecs_sched__not_a_message(w, id, operation);
    if (count < 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "%s: %d messages of '%s'", operation, (int)count,
                               w->components[id].name);
    }
    if (count > ECS_SCHED__MAX_QUEUED - q->count[1]) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_LIMIT,
                               "%s: %d messages of '%s', with %d already waiting; at most %d "
                               "of one type wait between two updates of its queue (send fewer "
                               "at a time)",
                               operation, (int)count, w->components[id].name,
                               (int)q->count[1], (int)ECS_SCHED__MAX_QUEUED);
    }
    if (!ecs_sched__queue_push(w, (ecs_sched__queue *)(uintptr_t)q, count, messages)) {
        return ecs_sched__out_of_memory(w, "sending messages");
    }
    return ECS_SCHED_OK;
}

/* Whether a running system declared `id` as written (or, reading, as read or written);
   refused as its failure otherwise. */
static bool ecs_sched__ctx_declared(ecs_sched_system_ctx *ctx, ecs_sched_id id, bool write,
                                    const char *what) {
    bool writes = ecs_sched__ids_contain(ctx->writes, ctx->write_count, id);
    bool reads = ecs_sched__ids_contain(ctx->reads, ctx->read_count, id);
    if (write ? writes : reads || writes) return true;
    ecs_sched__ctx_refuse(ctx, "%s messages of '%s' without declaring them: add it to the "
                               "desc's .%s",
                          what, ecs_sched__component_label(ctx->world, id),
                          write ? "writes" : "reads");
    return false;
}

ecs_sched_result ecs_sched_ctx_send_batch(ecs_sched_system_ctx *ctx, ecs_sched_id id,
                                          int32_t count, const void *messages) {
    ECS_SCHED_ASSERT(ctx != NULL);
    if (!ecs_sched__message_queue(ctx->world, id)) {
        return ecs_sched__not_a_message(ctx->world, id, "send");
    }
    if (!ecs_sched__ctx_declared(ctx, id, true, "sends")) return ECS_SCHED_ERR_ACCESS;
    return ecs_sched__send(ctx->world, id, count, messages, "send");
}

/* The first send of a type by a context checks it, and keeps its queue for the next ones. */
ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__ctx_send_first(ecs_sched_system_ctx *ctx,
                                                                      ecs_sched_id id,
                                                                      const void *message) {
    ecs_sched_result result = ecs_sched_ctx_send_batch(ctx, id, 1, message);
    if (result == ECS_SCHED_OK) {
        ctx->sending_id = id;
        ctx->sending = ecs_sched__queue_at(ctx->world, ctx->world->components[id].queue - 1);
    }
    return result;
}

void *ecs_sched_ctx_send_new(ecs_sched_system_ctx *ctx, ecs_sched_id id) {
    ecs_sched__queue *q;
    unsigned char *slot;
    ECS_SCHED_ASSERT(ctx != NULL);
    q = (ecs_sched__queue *)ctx->sending;
    if (id != ctx->sending_id || q->count[1] >= q->capacity[1]) {
        if (ecs_sched__ctx_send_first(ctx, id, NULL) != ECS_SCHED_OK) return NULL;
        q = (ecs_sched__queue *)ctx->sending;
        return q->data[1] + (size_t)(q->count[1] - 1) * q->size;
    }
    slot = q->data[1] + (size_t)q->count[1]++ * q->size;
    ecs_sched__zero_value(slot, q->size);
    return slot;
}

ecs_sched_result ecs_sched_ctx_send(ecs_sched_system_ctx *ctx, ecs_sched_id id,
                                    const void *message) {
    ecs_sched__queue *q;
    ECS_SCHED_ASSERT(ctx != NULL);
    q = (ecs_sched__queue *)ctx->sending;
    /* the common case: the type it sent last, room in its buffer, a plain value */
    if (id == ctx->sending_id && message && !q->hooks.copy && q->count[1] < q->capacity[1]) {
        ecs_sched__copy_value(q->data[1] + (size_t)q->count[1] * q->size, message, q->size);
        q->count[1]++;
        return ECS_SCHED_OK;
    }
    return ecs_sched__ctx_send_first(ctx, id, message);
}

ecs_sched_result ecs_sched_send_batch(ecs_sched_world *w, ecs_sched_id id, int32_t count,
                                      const void *messages) {
    ECS_SCHED__CHECK_WORLD(w);
    if (ecs_sched__change_refused(w, "send")) return ECS_SCHED_ERR_ACCESS;
    return ecs_sched__send(w, id, count, messages, "send");
}

ecs_sched_result ecs_sched_send(ecs_sched_world *w, ecs_sched_id id, const void *message) {
    return ecs_sched_send_batch(w, id, 1, message);
}

/* ---- reading ---- */

/* The oldest message a queue still keeps (the older buffer's first: the buffers hold
   consecutive messages). */
static uint64_t ecs_sched__queue_oldest(const ecs_sched__queue *q) {
    return q->first[0];
}

/* Reads from *next on: what was dropped before it is missed (unless cleared on purpose),
   and *next moves past the last message. */
static ecs_sched_messages ecs_sched__read_from(const ecs_sched__queue *q, uint64_t *next) {
    ecs_sched_messages read;
    uint64_t oldest = ecs_sched__queue_oldest(q), from = *next;
    memset(&read, 0, sizeof read);
    if (from < oldest) {
        uint64_t skipped_on_purpose = q->cleared > from ? q->cleared - from : 0;
        uint64_t gone = oldest - from;
        read.missed = (int64_t)(gone > skipped_on_purpose ? gone - skipped_on_purpose : 0);
        from = oldest;
    }
    read.queue_ = q;
    read.from_ = from;
    read.to_ = ecs_sched__queue_end(q);
    read.total = (int32_t)(ecs_sched__queue_end(q) - from);
    read.part_ = 0;
    *next = ecs_sched__queue_end(q);
    return read;
}

bool ecs_sched_messages_next(ecs_sched_messages *read) {
    const ecs_sched__queue *q = (const ecs_sched__queue *)read->queue_;
    ECS_SCHED_ASSERT(read != NULL);
    while (q && read->part_ < 2) {
        int b = read->part_++;
        uint64_t first = q->first[b], end = first + (uint64_t)q->count[b];
        uint64_t from = read->from_ > first ? read->from_ : first;
        uint64_t to = read->to_ < end ? read->to_ : end;
        if (from >= to) continue;
        read->data = q->data[b] + (size_t)(from - first) * q->size;
        read->count = (int32_t)(to - from);
        return true;
    }
    read->data = NULL;
    read->count = 0;
    return false;
}

/* The cursor of a context for a queue, made at its first read at the oldest message kept;
   NULL when out of memory (with the failure kept on ctx). */
static ecs_sched__cursor *ecs_sched__ctx_cursor(ecs_sched_system_ctx *ctx, uint32_t queue) {
    ecs_sched_world *w = ctx->world;
    ecs_sched__cursor *c;
    int32_t i;
    for (i = 0; i < ctx->cursor_count; i++) {
        if (ctx->cursors[i].queue == queue) return &ctx->cursors[i];
    }
    if (!ECS_SCHED__GROW(&w->env, ctx->cursors, &ctx->cursor_capacity,
                         (uint32_t)ctx->cursor_count + 1)) {
        ecs_sched__out_of_memory(w, "keeping a reader's place in a message queue");
        return NULL;
    }
    c = &ctx->cursors[ctx->cursor_count++];
    c->queue = queue;
    c->next = ecs_sched__queue_oldest(ecs_sched__queue_at(w, queue - 1));
    return c;
}

static ecs_sched_messages ecs_sched__no_messages(void) {
    ecs_sched_messages read;
    memset(&read, 0, sizeof read);
    return read;
}

ecs_sched_messages ecs_sched_ctx_messages(ecs_sched_system_ctx *ctx, ecs_sched_id id) {
    const ecs_sched__queue *q;
    ecs_sched__cursor *c;
    ECS_SCHED_ASSERT(ctx != NULL);
    q = ecs_sched__message_queue(ctx->world, id);
    if (!q || q->removals) {
        ecs_sched__not_a_message(ctx->world, id, "read");
        return ecs_sched__no_messages();
    }
    if (!ecs_sched__ctx_declared(ctx, id, false, "reads")) return ecs_sched__no_messages();
    c = ecs_sched__ctx_cursor(ctx, ctx->world->components[id].queue);
    return c ? ecs_sched__read_from(q, &c->next) : ecs_sched__no_messages();
}

ecs_sched_messages ecs_sched_ctx_removed(ecs_sched_system_ctx *ctx, ecs_sched_id component) {
    ecs_sched_world *w;
    ecs_sched__cursor *c;
    ECS_SCHED_ASSERT(ctx != NULL);
    w = ctx->world;
    if (!ecs_sched__component_valid(w, component) || !w->components[component].removals) {
        ecs_sched__removals_of_untracked(w, component, "removed");
        return ecs_sched__no_messages();
    }
    c = ecs_sched__ctx_cursor(ctx, w->components[component].removals);
    return c ? ecs_sched__read_from(ecs_sched__queue_at(w, c->queue - 1), &c->next)
             : ecs_sched__no_messages();
}

ecs_sched_message_cursor ecs_sched_message_cursor_make(ecs_sched_world *w, ecs_sched_id id) {
    ecs_sched_message_cursor cursor;
    const ecs_sched__queue *q;
    ECS_SCHED__CHECK_WORLD(w);
    memset(&cursor, 0, sizeof cursor);
    q = ecs_sched__message_queue(w, id);
    if (!q || q->removals) {
        ecs_sched__not_a_message(w, id, "message_cursor_make");
        return cursor;
    }
    cursor.id = id;
    cursor.next_ = ecs_sched__queue_oldest(q);
    return cursor;
}

ecs_sched_message_cursor ecs_sched_removed_cursor_make(ecs_sched_world *w, ecs_sched_id component) {
    ecs_sched_message_cursor cursor;
    ECS_SCHED__CHECK_WORLD(w);
    memset(&cursor, 0, sizeof cursor);
    if (!ecs_sched__component_valid(w, component) || !w->components[component].removals) {
        ecs_sched__removals_of_untracked(w, component, "removed_cursor_make");
        return cursor;
    }
    cursor.id = component;
    cursor.next_ = ecs_sched__queue_oldest(ecs_sched__queue_at(w, w->components[component].removals - 1));
    return cursor;
}

/* The queue a cursor reads: a message type's, or a tracked component's removals. */
static const ecs_sched__queue *ecs_sched__cursor_queue(const ecs_sched_world *w,
                                                      const ecs_sched_message_cursor *cursor) {
    const ecs_sched__component *c;
    if (!ecs_sched__component_valid(w, cursor->id)) return NULL;
    c = &w->components[cursor->id];
    if (c->queue) return ecs_sched__queue_at(w, c->queue - 1);
    if (c->removals) return ecs_sched__queue_at(w, c->removals - 1);
    return NULL;
}

/* A cursor that leads to no queue: an empty one is what a failed make returns. */
static void ecs_sched__bad_cursor(ecs_sched_world *w, const ecs_sched_message_cursor *cursor,
                                  const char *operation) {
    if (cursor->id == 0) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "%s: the cursor is empty: the ecs_sched_message_cursor_make (or "
                        "_removed_cursor_make) that returned it failed, and said why then",
                        operation);
    } else {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "%s: the cursor was not made by ecs_sched_message_cursor_make or "
                        "ecs_sched_removed_cursor_make (its id %u has no messages)", operation,
                        (unsigned)cursor->id);
    }
}

ecs_sched_messages ecs_sched_message_read(ecs_sched_world *w, ecs_sched_message_cursor *cursor) {
    const ecs_sched__queue *q;
    ecs_sched_messages read;
    ECS_SCHED__CHECK_WORLD(w);
    ECS_SCHED_ASSERT(cursor != NULL);
    q = ecs_sched__cursor_queue(w, cursor);
    if (!q) {
        ecs_sched__bad_cursor(w, cursor, "message_read");
        return ecs_sched__no_messages();
    }
    read = ecs_sched__read_from(q, &cursor->next_);
    cursor->missed += read.missed;
    return read;
}

int32_t ecs_sched_message_unread(ecs_sched_world *w, const ecs_sched_message_cursor *cursor) {
    const ecs_sched__queue *q;
    uint64_t from;
    ECS_SCHED__CHECK_WORLD(w);
    q = ecs_sched__cursor_queue(w, cursor);
    if (!q) return 0;
    from = cursor->next_ > ecs_sched__queue_oldest(q) ? cursor->next_ : ecs_sched__queue_oldest(q);
    return (int32_t)(ecs_sched__queue_end(q) - from);
}

/* The context's unread messages in a queue, taken (for the on_message and
   any_component_removed conditions). */
static bool ecs_sched__ctx_take_unread(ecs_sched_system_ctx *ctx, uint32_t queue) {
    ecs_sched__cursor *c = queue ? ecs_sched__ctx_cursor(ctx, queue) : NULL;
    const ecs_sched__queue *q;
    uint64_t from;
    if (!c) return false;
    q = ecs_sched__queue_at(ctx->world, queue - 1);
    from = c->next > ecs_sched__queue_oldest(q) ? c->next : ecs_sched__queue_oldest(q);
    c->next = ecs_sched__queue_end(q);
    return from < ecs_sched__queue_end(q);
}

/* ---- state-scoped messages ---- */

/* Adds a scope (checked by the state module, which defines ecs_sched_message_scope_to_state). */
static ecs_sched_result ecs_sched__message_scope_add(ecs_sched_world *w, ecs_sched_id message,
                                                    ecs_sched_id machine, int32_t value,
                                                    bool on_enter) {
    ecs_sched__messages *all = ecs_sched__messages_of(w);
    ecs_sched__message_scope *scope;
    if (!ECS_SCHED__GROW(&w->env, all->scopes, &all->scope_capacity, all->scope_count + 1)) {
        return ecs_sched__out_of_memory(w, "scoping messages to a state");
    }
    scope = &all->scopes[all->scope_count++];
    scope->queue = w->components[message].queue - 1;
    scope->machine = machine;
    scope->value = value;
    scope->on_enter = on_enter;
    return ECS_SCHED_OK;
}

/* Called by the state transitions: `machine` leaves (or reaches) `value`. */
ECS_SCHED__NOINLINE static void ecs_sched__messages_clear_scoped(ecs_sched_world *w,
                                                                 ecs_sched_id machine,
                                                                 int32_t value, bool on_enter) {
    uint32_t i;
    for (i = 0; i < ecs_sched__messages_of(w)->scope_count; i++) {
        const ecs_sched__message_scope *s = &ecs_sched__messages_of(w)->scopes[i];
        if (s->machine == machine && s->value == value && s->on_enter == on_enter) {
            ecs_sched__queue_clear(ecs_sched__queue_at(w, s->queue));
        }
    }
}

static inline void ecs_sched__messages_state_moved(ecs_sched_world *w, ecs_sched_id machine,
                                                   int32_t value, bool on_enter) {
    const ecs_sched__messages *messages = ecs_sched__messages_of(w);
    if (messages && messages->scope_count) {
        ecs_sched__messages_clear_scoped(w, machine, value, on_enter);
    }
}
