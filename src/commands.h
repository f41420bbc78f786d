/* commands: command buffers: recording what to change later (entity.h applies them). */
#pragma once
#include "table_graph.h"

typedef struct ecs_sched_commands ecs_sched_commands;

/* ---- command buffers ---- */

/* Records structural changes to apply later, in recorded order. The world owns the buffer;
   it is freed by ecs_sched_commands_destroy or with the world. */
ECS_SCHED_API ecs_sched_commands *ecs_sched_commands_create(ecs_sched_world *world);
/* Unapplied commands are dropped; entities reserved by them are released. */
ECS_SCHED_API void ecs_sched_commands_destroy(ecs_sched_commands *commands);
/* Reserves a handle at once; the entity comes alive when the buffer is applied. The handle
   can be used by later commands of the same buffer. NULL entity on failure. */
ECS_SCHED_API ecs_sched_entity ecs_sched_commands_spawn(ecs_sched_commands *commands);
/* commands_spawn, then an insert per component, in one call (all or nothing). */
ECS_SCHED_API ecs_sched_entity ecs_sched_commands_spawn_with(ecs_sched_commands *commands,
                                                             int32_t count, const ecs_sched_id *ids,
                                                             const void *const *values);
ECS_SCHED_API ecs_sched_result ecs_sched_commands_despawn(ecs_sched_commands *commands,
                                                          ecs_sched_entity entity);
/* The value's bytes are copied into the buffer now, and copied into the world (copy hook)
   when the buffer is applied. */
ECS_SCHED_API ecs_sched_result ecs_sched_commands_insert(ecs_sched_commands *commands,
                                                         ecs_sched_entity entity, ecs_sched_id id,
                                                         const void *value);
ECS_SCHED_API ecs_sched_result ecs_sched_commands_remove(ecs_sched_commands *commands,
                                                         ecs_sched_entity entity, ecs_sched_id id);
ECS_SCHED_API ecs_sched_result ecs_sched_commands_set_resource(ecs_sched_commands *commands,
                                                               ecs_sched_id id, const void *value);
ECS_SCHED_API int32_t ecs_sched_commands_pending(const ecs_sched_commands *commands);
/* Commands skipped by the last apply because their entity was dead. */
ECS_SCHED_API int32_t ecs_sched_commands_skipped(const ecs_sched_commands *commands);

/*@@ implementation @@*/
/* commands: command buffers: recording what to change later (entity.h applies them). */


enum {
    ECS_SCHED__CMD_SPAWN,
    ECS_SCHED__CMD_DESPAWN,
    ECS_SCHED__CMD_INSERT,
    ECS_SCHED__CMD_REMOVE,
    ECS_SCHED__CMD_SET_RESOURCE,
    ECS_SCHED__CMD_ENABLE,         /* switches a toggleable component on, */
    ECS_SCHED__CMD_DISABLE,        /* or off (entity.h) */
    ECS_SCHED__CMD_CALL,           /* a module's command: its function and a slot of its
                                      component (see ecs_sched__record_call) */
    ECS_SCHED__CMD_CALL_MADE       /* the same, for an entity the recording reserved: its
                                      handle goes back when the command is never applied */
};
/* A recorded command is one 32-bit word (operation, flags, component id), then the entity
   unless it is the same as the previous command's (a spawn followed by its inserts), then
   the value at the component's alignment. Small records keep recording and applying within
   the memory bandwidth a game can spare. */
#define ECS_SCHED__CMD_OP_MASK 0xfu
#define ECS_SCHED__CMD_HAS_VALUE 0x10u
#define ECS_SCHED__CMD_SAME_ENTITY 0x20u
#define ECS_SCHED__CMD_ID_SHIFT 6

/* A command read back from a block. */
/* A module's command (relationships, instances, prefab data), applied by calling `fn` with
   the command's entity, its component and the slot recorded. False: the command no longer
   applies (skipped); else *result is its outcome. The extension point by which modules above
   the core defer their own changes (docs/architecture.md). */
typedef bool (*ecs_sched__command_fn)(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id,
                                      const void *slot, ecs_sched_result *result);

typedef struct ecs_sched__command {
    uint32_t op;
    ecs_sched_id id;
    ecs_sched_entity entity;
    const void *value;        /* NULL when none was given */
    ecs_sched__command_fn fn; /* a call's */
    size_t next;              /* where the next command starts */
} ecs_sched__command;

/* Commands live in a chain of blocks that never move, so recording never copies what was
   recorded before; applied blocks are kept for the next frame. */
typedef struct ecs_sched__command_block {
    struct ecs_sched__command_block *next;
    size_t used;
    size_t capacity;
    unsigned char *data;      /* aligned to ECS_SCHED_MAX_ALIGNMENT, so values are aligned */
} ecs_sched__command_block;

/* What a later module keeps beside a buffer hears of it through these, set on the buffer by
   that module (delay.h, for the buffers ecs_sched_commands_after makes and their owners):
   `applying` before the buffer's commands are applied (false stops the apply, its failure
   recorded), `destroying` as the buffer is destroyed. */
typedef struct ecs_sched__commands_companion {
    bool (*applying)(ecs_sched_commands *cmd);
    void (*destroying)(ecs_sched_commands *cmd);
} ecs_sched__commands_companion;

struct ecs_sched_commands {
    ecs_sched_world *world;
    ecs_sched__command_block *first;
    ecs_sched__command_block *write;   /* the block being filled; later blocks are empty */
    ecs_sched__command_block *read;    /* where apply continues */
    size_t read_at;
    ecs_sched_entity read_entity;      /* the entity of the command before read_at */
    ecs_sched_entity write_entity;     /* the entity of the last command recorded */
    int32_t pending;
    int32_t skipped;
    int32_t spawn_count;               /* the components of the last spawn applied, */
    uint32_t spawn_table;              /* and the table they led to */
    ecs_sched_id spawn_ids[ECS_SCHED__MAX_BATCHED_INSERTS];
    /* delayed commands (delay.h) */
    struct ecs_sched_commands **after; /* buffers made by ecs_sched_commands_after from this
                                          one: handed to the world when this one is applied */
    int32_t after_count;
    uint32_t after_capacity;
    struct ecs_sched_commands *owner;  /* a delayed buffer: the one that made it, until then */
    int64_t due_ns;                    /* a delayed buffer: its delay until it is handed
                                          over, then the clock time it is applied at */
    uint64_t serial;                   /* and after those handed over before it, at equal due */
    uint8_t delayed;                   /* 0: an ordinary buffer; else 1 + its ecs_sched_clock */
    bool waiting;                      /* in the world's queue of delayed buffers */
    const ecs_sched__commands_companion *companion;   /* NULL, or see above */
};


/* ---- command buffers ---- */

static inline size_t ecs_sched__align_up(size_t value, size_t alignment) {
    return (value + alignment - 1) & ~(alignment - 1);
}

/* Reads the command at `at`; `previous` is the entity of the command before it. */
static inline void ecs_sched__command_read(const ecs_sched_world *w,
                                    const ecs_sched__command_block *block, size_t at,
                                    ecs_sched_entity previous, ecs_sched__command *out) {
    uint32_t word;
    size_t end = at + sizeof word;
    memcpy(&word, block->data + at, sizeof word);
    out->op = word & ECS_SCHED__CMD_OP_MASK;
    out->id = word >> ECS_SCHED__CMD_ID_SHIFT;
    out->entity = previous;
    if (!(word & ECS_SCHED__CMD_SAME_ENTITY)) {
        memcpy(&out->entity, block->data + end, sizeof out->entity);
        end += sizeof out->entity;
    }
    out->value = NULL;
    out->fn = NULL;
    if (out->op >= ECS_SCHED__CMD_CALL) {
        end = ecs_sched__align_up(end, sizeof out->fn);
        memcpy(&out->fn, block->data + end, sizeof out->fn);
        end += sizeof out->fn;
    }
    if (word & ECS_SCHED__CMD_HAS_VALUE) {
        const ecs_sched__component *c = &w->components[out->id];
        end = ecs_sched__align_up(end, c->alignment);
        out->value = block->data + end;
        end += c->size;
    }
    out->next = ecs_sched__align_up(end, sizeof word);
}

/* Walks the unapplied commands, from the read cursor given in block and at. */
static bool ecs_sched__command_step(const ecs_sched_commands *cmd,
                                    ecs_sched__command_block **block, size_t *at) {
    while (*block && *at >= (*block)->used) {
        if (*block == cmd->write) return false;
        *block = (*block)->next;
        *at = 0;
    }
    return *block != NULL;
}

/* Releases the handles that unapplied spawn commands reserved, and empties the buffer. */
static void ecs_sched__release_reserved(ecs_sched_commands *cmd) {
    ecs_sched_world *w = cmd->world;
    ecs_sched__command_block *block = cmd->read;
    ecs_sched__command_block *b;
    ecs_sched_entity previous = cmd->read_entity;
    size_t at = cmd->read_at;
    while (ecs_sched__command_step(cmd, &block, &at)) {
        ecs_sched__command c;
        ecs_sched__command_read(w, block, at, at == 0 ? 0 : previous, &c);
        if ((c.op == ECS_SCHED__CMD_SPAWN || c.op == ECS_SCHED__CMD_CALL_MADE) &&
            ecs_sched__is_reserved(w, c.entity)) {
            ecs_sched__release_index(w, ECS_SCHED_ENTITY_INDEX(c.entity));
        }
        previous = c.entity;
        at = c.next;
    }
    for (b = cmd->first; b; b = b->next) b->used = 0;
    cmd->write = cmd->read = cmd->first;
    cmd->read_at = 0;
    cmd->read_entity = cmd->write_entity = 0;
    cmd->pending = 0;
}

/* The world's buffers, a part of it (registry.h): they go with the world. */
typedef struct ecs_sched__buffers {
    ecs_sched_commands **items;
    uint32_t count, capacity;
} ecs_sched__buffers;

static ecs_sched__part_key ecs_sched__buffers_key;

static ecs_sched__buffers *ecs_sched__buffers_of(const ecs_sched_world *w) {
    return (ecs_sched__buffers *)ecs_sched__part(w, &ecs_sched__buffers_key);
}

/* Room for one more buffer; NULL when out of memory. */
static ecs_sched__buffers *ecs_sched__buffers_reserve(ecs_sched_world *w) {
    ecs_sched__buffers *all = ecs_sched__buffers_of(w);
    if (!all) {
        all = (ecs_sched__buffers *)ecs_sched__calloc(&w->env, sizeof *all);
        if (!all) return NULL;
        ecs_sched__part_set(w, &ecs_sched__buffers_key, all);
    }
    return ECS_SCHED__GROW(&w->env, all->items, &all->capacity, all->count + 1) ? all : NULL;
}

ecs_sched_commands *ecs_sched_commands_create(ecs_sched_world *w) {
    ecs_sched__buffers *all;
    ecs_sched_commands *cmd;
    ECS_SCHED__CHECK_WORLD(w);
    all = ecs_sched__buffers_reserve(w);
    if (!all) {
        ecs_sched__out_of_memory(w, "creating a command buffer");
        return NULL;
    }
    cmd = (ecs_sched_commands *)ecs_sched__calloc(&w->env, sizeof *cmd);
    if (!cmd) {
        ecs_sched__out_of_memory(w, "creating a command buffer");
        return NULL;
    }
    cmd->world = w;
    all->items[all->count++] = cmd;
    return cmd;
}

void ecs_sched_commands_destroy(ecs_sched_commands *cmd) {
    ecs_sched__buffers *all;
    ecs_sched_world *w;
    uint32_t i;
    if (!cmd) return;
    w = cmd->world;
    all = ecs_sched__buffers_of(w);
    if (cmd->companion) cmd->companion->destroying(cmd);
    ecs_sched__release_reserved(cmd);
    for (i = 0; i < all->count; i++) {
        if (all->items[i] == cmd) {
            all->items[i] = all->items[--all->count];
            break;
        }
    }
    while (cmd->first) {
        ecs_sched__command_block *next = cmd->first->next;
        ecs_sched__aligned_free(&w->env, cmd->first);
        cmd->first = next;
    }
    ecs_sched__free(&w->env, cmd);
}

/* The world's buffers go with it (world.h). */
static void ecs_sched__buffers_free(ecs_sched_world *w) {
    ecs_sched__buffers *all = ecs_sched__buffers_of(w);
    if (!all) return;
    while (all->count) ecs_sched_commands_destroy(all->items[all->count - 1]);
    ecs_sched__free(&w->env, all->items);
    ecs_sched__free(&w->env, all);
    ecs_sched__part_set(w, &ecs_sched__buffers_key, NULL);
}

/* A block with room for `bytes` more, switching to (or adding) the next block when the
   current one is full. NULL when the allocator fails. */
static ecs_sched__command_block *ecs_sched__command_room_slow(ecs_sched_commands *cmd,
                                                              size_t bytes) {
    const size_t header = ecs_sched__align_up(sizeof(ecs_sched__command_block), ECS_SCHED_MAX_ALIGNMENT);
    ecs_sched__command_block *block = cmd->write, *fresh;
    size_t capacity;
    if (block && block->next && block->next->capacity >= bytes) {
        cmd->write = block->next;
        cmd->write_entity = 0;
        return cmd->write;
    }
    capacity = block ? block->capacity * 2 : 4096;
    if (capacity > ((size_t)1 << 20)) capacity = (size_t)1 << 20;
    if (capacity < bytes) capacity = bytes;
    fresh = (ecs_sched__command_block *)ecs_sched__aligned_alloc(&cmd->world->env, header + capacity,
                                                                 ECS_SCHED_MAX_ALIGNMENT);
    if (!fresh) return NULL;
    fresh->data = (unsigned char *)fresh + header;
    fresh->used = 0;
    fresh->capacity = capacity;
    if (!block) {
        fresh->next = NULL;
        cmd->first = cmd->write = cmd->read = fresh;
    } else {
        fresh->next = block->next;  /* a retained block too small for this value */
        block->next = fresh;
        cmd->write = fresh;
    }
    cmd->write_entity = 0;
    return fresh;
}

static inline ecs_sched__command_block *ecs_sched__command_room(ecs_sched_commands *cmd,
                                                                size_t bytes) {
    ecs_sched__command_block *block = cmd->write;
    if (block && block->capacity - block->used >= bytes) return block;
    return ecs_sched__command_room_slow(cmd, bytes);
}

/* Writes one command at `end` of a block known to have room; returns where it ends. */
static inline size_t ecs_sched__write_command(ecs_sched__command_block *block, size_t end,
                                              uint32_t word, const ecs_sched_entity *entity,
                                              const ecs_sched__component *c, const void *value) {
    memcpy(block->data + end, &word, sizeof word);
    end += sizeof word;
    if (entity) {
        memcpy(block->data + end, entity, sizeof *entity);
        end += sizeof *entity;
    }
    if (value && c->size) {
        end = ecs_sched__align_up(end, c->alignment);
        ecs_sched__copy_value(block->data + end, value, c->size);
        end += c->size;
    }
    return ecs_sched__align_up(end, sizeof word);
}

/* Appends a command (and a copy of its value); the buffer is unchanged on failure. */
static inline ecs_sched_result ecs_sched__record_command(ecs_sched_commands *cmd, uint32_t op,
                                                  ecs_sched_entity entity, ecs_sched_id id,
                                                  const void *value) {
    ecs_sched_world *w = cmd->world;
    const ecs_sched__component *c = id ? &w->components[id] : NULL;
    ecs_sched__command_block *block;
    bool has_value = value && c && c->size;
    size_t worst = sizeof(uint32_t) + sizeof entity + (has_value ? c->alignment + c->size : 0);
    bool same;
    uint32_t word = op | (id << ECS_SCHED__CMD_ID_SHIFT) | (has_value ? ECS_SCHED__CMD_HAS_VALUE : 0u);
    block = ecs_sched__command_room(cmd, ecs_sched__align_up(worst, sizeof(uint32_t)));
    if (!block) return ecs_sched__out_of_memory(w, "recording a command");
    same = block->used > 0 && entity == cmd->write_entity;
    if (same) word |= ECS_SCHED__CMD_SAME_ENTITY;
    block->used = ecs_sched__write_command(block, block->used, word, same ? NULL : &entity, c,
                                           has_value ? value : NULL);
    cmd->write_entity = entity;
    cmd->pending++;
    return ECS_SCHED_OK;
}

/* A module's command: `fn` applies it, with a slot of component `id` (the size of its
   values) holding `target` and then `payload_size` bytes of payload (zeros when payload is
   NULL). `made`: the recording reserved the entity (see ECS_SCHED__CMD_CALL_MADE). */
static ecs_sched_result ecs_sched__record_call(ecs_sched_commands *cmd, ecs_sched__command_fn fn,
                                               bool made, ecs_sched_entity source, ecs_sched_id id,
                                               ecs_sched_entity target, const void *payload,
                                               size_t payload_size) {
    ecs_sched_world *w = cmd->world;
    const ecs_sched__component *c = &w->components[id];
    size_t offset = c->alignment > sizeof target ? c->alignment : sizeof target;
    size_t worst = sizeof(uint32_t) + sizeof source + 2 * sizeof fn + c->alignment + c->size, at;
    uint32_t word = (made ? ECS_SCHED__CMD_CALL_MADE : ECS_SCHED__CMD_CALL) |
                    (id << ECS_SCHED__CMD_ID_SHIFT) | ECS_SCHED__CMD_HAS_VALUE;
    ecs_sched__command_block *block = ecs_sched__command_room(cmd, ecs_sched__align_up(worst, sizeof(uint32_t)));
    bool same;
    if (!block) return ecs_sched__out_of_memory(w, "recording a command");
    same = block->used > 0 && source == cmd->write_entity;
    if (same) word |= ECS_SCHED__CMD_SAME_ENTITY;
    at = block->used;
    memcpy(block->data + at, &word, sizeof word);
    at += sizeof word;
    if (!same) {
        memcpy(block->data + at, &source, sizeof source);
        at += sizeof source;
    }
    at = ecs_sched__align_up(at, sizeof fn);
    memcpy(block->data + at, &fn, sizeof fn);
    at += sizeof fn;
    at = ecs_sched__align_up(at, c->alignment);
    memset(block->data + at, 0, c->size);
    memcpy(block->data + at, &target, sizeof target);
    if (payload) memcpy(block->data + at + offset, payload, payload_size);
    block->used = ecs_sched__align_up(at + c->size, sizeof word);
    cmd->write_entity = source;
    cmd->pending++;
    return ECS_SCHED_OK;
}

/* Commands may name live entities and entities a buffer reserved. */
static inline ecs_sched_result ecs_sched__check_target(ecs_sched_commands *cmd, ecs_sched_entity e,
                                                       const char *operation) {
    ecs_sched_world *w = cmd->world;
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    if (index > 0 && index < w->record_count &&
        w->records[index].generation == ECS_SCHED_ENTITY_GENERATION(e) &&
        w->records[index].table != ECS_SCHED__DEAD) {
        return ECS_SCHED_OK;
    }
    return ecs_sched__stale(w, e, operation);
}

/* What ecs_sched_ctx_commands gives a system that did not declare .commands: NULL, and a
   refused access that is already its failure. Recording into it does nothing more. Outside a
   running system a NULL buffer is a programmer error. */
static inline bool ecs_sched__no_buffer(const ecs_sched_commands *cmd) {
    if (ECS_SCHED__LIKELY(cmd != NULL)) return false;
    ECS_SCHED_ASSERT(ecs_sched__running_now != NULL);
    return true;
}

/* A handle reserved for a command that makes an entity: alive when the buffer is applied
   (given back if it never is). ECS_SCHED_NULL_ENTITY when out of memory. */
static inline ecs_sched_entity ecs_sched__reserve_handle(ecs_sched_world *w) {
    uint32_t index;
    if (!ecs_sched__reserve_indices(w, 1)) {
        ecs_sched__indices_refused(w, 1, "reserving an entity for a command buffer");
        return ECS_SCHED_NULL_ENTITY;
    }
    index = ecs_sched__take_index(w);
    w->records[index].table = ECS_SCHED__RESERVED;
    return ecs_sched__make_entity(index, w->records[index].generation);
}

ecs_sched_entity ecs_sched_commands_spawn(ecs_sched_commands *cmd) {
    ecs_sched_world *w;
    ecs_sched_entity e;
    if (ecs_sched__no_buffer(cmd)) return ECS_SCHED_NULL_ENTITY;
    w = cmd->world;
    e = ecs_sched__reserve_handle(w);
    if (!e) return ECS_SCHED_NULL_ENTITY;
    if (ecs_sched__record_command(cmd, ECS_SCHED__CMD_SPAWN, e, 0, NULL) != ECS_SCHED_OK) {
        ecs_sched__release_index(w, ECS_SCHED_ENTITY_INDEX(e));
        return ECS_SCHED_NULL_ENTITY;
    }
    return e;
}

ecs_sched_entity ecs_sched_commands_spawn_with(ecs_sched_commands *cmd, int32_t count,
                                              const ecs_sched_id *ids,
                                              const void *const *values) {
    ecs_sched_world *w;
    ecs_sched__command_block *block;
    size_t worst = sizeof(uint32_t) + sizeof(ecs_sched_entity), end;
    ecs_sched_entity e;
    uint32_t index;
    int32_t i;
    if (ecs_sched__no_buffer(cmd)) return ECS_SCHED_NULL_ENTITY;
    w = cmd->world;
    if (ecs_sched__check_ids(w, count, ids, "commands_spawn_with") != ECS_SCHED_OK) {
        return ECS_SCHED_NULL_ENTITY;
    }
    for (i = 0; i < count; i++) {
        worst += sizeof(uint32_t) + w->components[ids[i]].alignment + w->components[ids[i]].size;
    }
    if (!ecs_sched__reserve_indices(w, 1)) {
        ecs_sched__indices_refused(w, 1, "commands_spawn_with");
        return ECS_SCHED_NULL_ENTITY;
    }
    if (!(block = ecs_sched__command_room(cmd, ecs_sched__align_up(worst, sizeof(uint32_t))))) {
        ecs_sched__out_of_memory(w, "recording a command");
        return ECS_SCHED_NULL_ENTITY;
    }
    index = ecs_sched__take_index(w);
    e = ecs_sched__make_entity(index, w->records[index].generation);
    w->records[index].table = ECS_SCHED__RESERVED;
    /* the spawn, then its inserts, which name the same entity */
    end = ecs_sched__write_command(block, block->used, ECS_SCHED__CMD_SPAWN, &e, NULL, NULL);
    for (i = 0; i < count; i++) {
        const ecs_sched__component *c = &w->components[ids[i]];
        const void *value = values ? values[i] : NULL;
        uint32_t word = ECS_SCHED__CMD_INSERT | ECS_SCHED__CMD_SAME_ENTITY |
                        (ids[i] << ECS_SCHED__CMD_ID_SHIFT) |
                        (value && c->size ? ECS_SCHED__CMD_HAS_VALUE : 0u);
        end = ecs_sched__write_command(block, end, word, NULL, c, value);
    }
    block->used = end;
    cmd->write_entity = e;
    cmd->pending += count + 1;
    return e;
}

ecs_sched_result ecs_sched_commands_despawn(ecs_sched_commands *cmd, ecs_sched_entity e) {
    ecs_sched_result result;
    if (ecs_sched__no_buffer(cmd)) return ECS_SCHED_ERR_ACCESS;
    result = ecs_sched__check_target(cmd, e, "commands_despawn");
    if (result != ECS_SCHED_OK) return result;
    return ecs_sched__record_command(cmd, ECS_SCHED__CMD_DESPAWN, e, 0, NULL);
}

/* Why a command may not insert component `id`: a relationship kind, or a mark the library
   manages. */
ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__refused_insert(ecs_sched_world *w,
                                                                     ecs_sched_id id) {
    if (w->components[id].relation) return ecs_sched__kind_inserted(w, id, "commands_insert");
    return ecs_sched__mark_touched(w, id, "commands_insert");
}

ecs_sched_result ecs_sched_commands_insert(ecs_sched_commands *cmd, ecs_sched_entity e,
                                           ecs_sched_id id, const void *value) {
    ecs_sched_result result;
    if (ecs_sched__no_buffer(cmd)) return ECS_SCHED_ERR_ACCESS;
    result = ecs_sched__check_target(cmd, e, "commands_insert");
    if (result != ECS_SCHED_OK) return result;
    if (!ecs_sched__component_valid(cmd->world, id)) {
        return ecs_sched__unknown_component(cmd->world, id, "commands_insert");
    }
    if (!ECS_SCHED__LIKELY(!(cmd->world->components[id].relation |
                             cmd->world->components[id].managed))) {
        return ecs_sched__refused_insert(cmd->world, id);
    }
    return ecs_sched__record_command(cmd, ECS_SCHED__CMD_INSERT, e, id, value);
}

ecs_sched_result ecs_sched_commands_remove(ecs_sched_commands *cmd, ecs_sched_entity e,
                                           ecs_sched_id id) {
    ecs_sched_result result;
    if (ecs_sched__no_buffer(cmd)) return ECS_SCHED_ERR_ACCESS;
    result = ecs_sched__check_target(cmd, e, "commands_remove");
    if (result != ECS_SCHED_OK) return result;
    if (!ecs_sched__component_valid(cmd->world, id)) {
        return ecs_sched__unknown_component(cmd->world, id, "commands_remove");
    }
    if (cmd->world->components[id].managed) {
        return ecs_sched__mark_touched(cmd->world, id, "commands_remove");
    }
    return ecs_sched__record_command(cmd, ECS_SCHED__CMD_REMOVE, e, id, NULL);
}

ecs_sched_result ecs_sched_commands_set_resource(ecs_sched_commands *cmd, ecs_sched_id id,
                                                 const void *value) {
    if (ecs_sched__no_buffer(cmd)) return ECS_SCHED_ERR_ACCESS;
    if (!ecs_sched__component_valid(cmd->world, id)) {
        return ecs_sched__unknown_component(cmd->world, id, "commands_set_resource");
    }
    return ecs_sched__record_command(cmd, ECS_SCHED__CMD_SET_RESOURCE, 0, id, value);
}

int32_t ecs_sched_commands_pending(const ecs_sched_commands *cmd) {
    ECS_SCHED_ASSERT(cmd != NULL);
    return cmd->pending;
}

int32_t ecs_sched_commands_skipped(const ecs_sched_commands *cmd) {
    ECS_SCHED_ASSERT(cmd != NULL);
    return cmd->skipped;
}
