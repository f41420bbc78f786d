/* entity: spawning, despawning, and the components of one entity, done now or applied from
   a command buffer. */
#pragma once
#include "component.h"
#include "resource.h"

ECS_SCHED_API ecs_sched_entity ecs_sched_spawn(ecs_sched_world *world);
/* Spawns an entity with `count` components. values[i] (or the whole array) may be NULL for a
   default-constructed value. Returns ECS_SCHED_NULL_ENTITY on failure. */
ECS_SCHED_API ecs_sched_entity ecs_sched_spawn_with(ecs_sched_world *world, int32_t count,
                                                    const ecs_sched_id *ids,
                                                    const void *const *values);
/* Spawns `entity_count` entities with the same components; arrays[i] holds entity_count
   values of component ids[i] (or is NULL). out_entities (optional) receives the handles.
   All or nothing. */
ECS_SCHED_API ecs_sched_result ecs_sched_spawn_batch(ecs_sched_world *world, int32_t entity_count,
                                                     int32_t count, const ecs_sched_id *ids,
                                                     const void *const *arrays,
                                                     ecs_sched_entity *out_entities);
/* An archetype known ahead: the table of exactly these components (made now if new), for
   spawning straight into it without finding it again each time. The world owns it and frees
   it with itself: get it once (at setup) and keep it. NULL with the error recorded for bad
   ids (the rules of spawn_with). */
typedef struct ecs_sched_archetype ecs_sched_archetype;
ECS_SCHED_API const ecs_sched_archetype *ecs_sched_archetype_get(ecs_sched_world *world,
                                                                 int32_t count,
                                                                 const ecs_sched_id *ids);
/* ecs_sched_spawn_with into a known archetype: values[i] is the value of the i-th id the
   archetype was got with (NULL, or a NULL element: the default). */
ECS_SCHED_API ecs_sched_entity ecs_sched_spawn_in(ecs_sched_world *world,
                                                  const ecs_sched_archetype *archetype,
                                                  const void *const *values);
ECS_SCHED_API ecs_sched_result ecs_sched_despawn(ecs_sched_world *world, ecs_sched_entity entity);
ECS_SCHED_API bool ecs_sched_is_alive(const ecs_sched_world *world, ecs_sched_entity entity);
/* Makes the entity with exactly this handle (index and generation) alive, with no
   components: an entity whose id was made elsewhere, such as a server's entity mirrored on a
   client (see Entity ids made elsewhere in THE WORLD). Refused: the null handle or an index
   past the largest, an index in the world's entity range, an index alive or reserved now
   (ECS_SCHED_ERR_INVALID_ARGUMENT, naming its holder); a generation older than the index
   has reached (ECS_SCHED_ERR_STALE_ENTITY). */
ECS_SCHED_API ecs_sched_result ecs_sched_spawn_at(ecs_sched_world *world, ecs_sched_entity entity);
/* From now on, spawns of every kind (commands and prefab instances too) hand out indices
   from first to last only, both included; last 0: no upper bound; 0, 0: any index again.
   A spawn finding none left fails with ECS_SCHED_ERR_LIMIT. */
ECS_SCHED_API ecs_sched_result ecs_sched_set_entity_range(ecs_sched_world *world, uint32_t first,
                                                          uint32_t last);
/* Adds the component, or overwrites its value when present. value NULL: default value for a
   new component, no change for a present one. value must not point into the world. */
ECS_SCHED_API ecs_sched_result ecs_sched_insert(ecs_sched_world *world, ecs_sched_entity entity,
                                                ecs_sched_id id, const void *value);
/* Several inserts with one archetype move. All or nothing. */
ECS_SCHED_API ecs_sched_result ecs_sched_insert_many(ecs_sched_world *world,
                                                     ecs_sched_entity entity, int32_t count,
                                                     const ecs_sched_id *ids,
                                                     const void *const *values);
ECS_SCHED_API ecs_sched_result ecs_sched_remove(ecs_sched_world *world, ecs_sched_entity entity,
                                                ecs_sched_id id);
ECS_SCHED_API void *ecs_sched_get_mut(ecs_sched_world *world, ecs_sched_entity entity,
                                      ecs_sched_id id);
ECS_SCHED_API bool ecs_sched_has(const ecs_sched_world *world, ecs_sched_entity entity,
                                 ecs_sched_id id);

/* ---- component disabling (see Component disabling in THE WORLD) ---- */

/* Switches a toggleable component of the entity off (enabled false) or on again, without
   moving the entity: queries that require the component skip it while it is off, and
   without-terms take it for absent. Its value stays, and ecs_sched_get, ecs_sched_has and
   optional terms see it as before. ECS_SCHED_ERR_MISSING_COMPONENT when the entity lacks
   it; ECS_SCHED_ERR_INVALID_ARGUMENT when it was not registered with .toggleable. From a
   running system that is not exclusive, record it (ecs_sched_commands_enable_component). */
ECS_SCHED_API ecs_sched_result ecs_sched_enable_component(ecs_sched_world *world,
                                                          ecs_sched_entity entity, ecs_sched_id id,
                                                          bool enabled);
/* Whether the entity has the component and it is not switched off (a component that is not
   toggleable is enabled wherever it is). */
ECS_SCHED_API bool ecs_sched_is_component_enabled(const ecs_sched_world *world,
                                                  ecs_sched_entity entity, ecs_sched_id id);
/* ecs_sched_enable_component, recorded in a command buffer; skipped when the buffer is applied
   if the entity is dead or lacks the component by then. */
ECS_SCHED_API ecs_sched_result ecs_sched_commands_enable_component(ecs_sched_commands *commands,
                                                                   ecs_sched_entity entity,
                                                                   ecs_sched_id id, bool enabled);

/* ---- applying command buffers ---- */

/* Applies and consumes the pending commands in recorded order; a command aimed at an entity
   that is dead by then is skipped. On failure the commands not yet applied stay pending, so a
   later apply continues where this one stopped; none is ever applied twice. */
ECS_SCHED_API ecs_sched_result ecs_sched_commands_apply(ecs_sched_commands *commands);

/*@@ implementation @@*/
/* entity: spawning, despawning, and the components of one entity: each moves the entity
   between the world's tables (table.h, table_graph.h), keeps its change ticks (ticks.h) and
   calls the observers watching it (observer.h). */

/* ---- entity labels, for messages (names come later: the entity_name hook) ---- */

typedef struct ecs_sched__label {
    char text[96];
} ecs_sched__label;

/* "entity 5" (with its name in quotes when it has one). */
static ecs_sched__label ecs_sched__entity_label(const ecs_sched_world *w, ecs_sched_entity e) {
    ecs_sched__label label;
    const char *name = w->hooks.entity_name ? w->hooks.entity_name(w, e) : NULL;
    if (name) {
        snprintf(label.text, sizeof label.text, "entity %u '%s'", (unsigned)ECS_SCHED_ENTITY_INDEX(e),
                 name);
    } else {
        snprintf(label.text, sizeof label.text, "entity %u", (unsigned)ECS_SCHED_ENTITY_INDEX(e));
    }
    return label;
}

/* ---- the observers' deferred changes ---- */

/* Applies the observers' deferred changes, which may call observers again; until none is
   left (or, for observers that keep triggering each other, ECS_SCHED__OBSERVER_ROUNDS
   rounds). Called at the end of each operation that may call observers. */
static void ecs_sched__observers_flush(ecs_sched_world *w) {
    ecs_sched__observers *all = ecs_sched__observers_of(w);
    int32_t round;
    if (!all || !all->deferred || all->flushing || all->dispatching) return;
    all->flushing = true;
    for (round = 0; round < ECS_SCHED__OBSERVER_ROUNDS; round++) {
        bool pending = false;
        uint32_t i;
        for (i = 0; i < all->count; i++) {
            ecs_sched_commands *cmd = all->items[i]->ctx.commands;
            if (cmd->pending == 0 && cmd->after_count == 0) continue;
            pending = true;
            if (ecs_sched_commands_apply(cmd) != ECS_SCHED_OK) {
                ecs_sched__fail_again_for(w, all->items[i]->name);
            }
        }
        if (!pending) break;
    }
    all->deferred = false;
    if (round == ECS_SCHED__OBSERVER_ROUNDS) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_LIMIT,
                        "observers kept making changes that called observers again, %d rounds "
                        "in a row; the changes still pending are left for the next operation "
                        "(do two observers undo each other?)", ECS_SCHED__OBSERVER_ROUNDS);
    }
    all->flushing = false;
}



/* The table of `base` plus the given components (sparse ones live in their sets). */
static ecs_sched__table *ecs_sched__table_adding(ecs_sched_world *w, ecs_sched__table *base,
                                                 int32_t count, const ecs_sched_id *ids) {
    int32_t i;
    for (i = 0; i < count && base; i++) {
        if (w->sparse_count && w->components[ids[i]].sparse) continue;
        if (ecs_sched__type_find(base, ids[i]) < 0) base = ecs_sched__table_step(w, base, ids[i], false);
    }
    return base;
}

/* Room for one more member in the sets of the sparse components among ids, for an index
   ecs_sched__take_index hands out next. */
static inline bool ecs_sched__sparse_room(ecs_sched_world *w, int32_t count,
                                          const ecs_sched_id *ids, uint32_t entities) {
    return !w->sparse_count ||
           ecs_sched__sparse_reserve(w, count, ids, entities, w->record_count + entities);
}

/* An archetype known ahead (ecs_sched_archetype_get). */
struct ecs_sched_archetype {
    ecs_sched_world *world;
    uint32_t table;
    int32_t count;
    ecs_sched_id *ids;              /* as given */
    int32_t *value_of_column;       /* per column of the table: the index of its value */
};

/* The first half of placing an index handed out by ecs_sched__take_index (or reserved) in
   table t: its row, the entity in it, its record. -1 when the table cannot grow. */
static inline int32_t ecs_sched__place_row(ecs_sched_world *w, uint32_t index,
                                           ecs_sched__table *t) {
    ecs_sched__record *r = &w->records[index];
    int32_t row;
    if (!ecs_sched__table_reserve(w, t, 1)) return -1;
    row = t->count++;
    t->entities[row] = ecs_sched__make_entity(index, r->generation);
    r->table = t->index;
    r->row = (uint32_t)row;
    return row;
}

/* The second half, once the columns hold their values. */
static inline void ecs_sched__placed(ecs_sched_world *w, ecs_sched__table *t, int32_t row) {
    if (t->tick_count) ecs_sched__ticks_stamp_new(w, t, row, 1, ecs_sched__tick_now(w));
    if (t->toggle_count) ecs_sched__toggles_enable_new(t, row, 1);
    w->alive_count++;
    w->rows_version++;
}

/* Places an index in table t, its columns constructed from `values`: the value of column i
   is values[value_of_column[i]] (values or that element NULL: the default). */
static bool ecs_sched__place_known(ecs_sched_world *w, uint32_t index, ecs_sched__table *t,
                                   const int32_t *value_of_column, const void *const *values) {
    int32_t row = ecs_sched__place_row(w, index, t), i;
    if (row < 0) return false;
    for (i = 0; i < t->column_count; i++) {
        ecs_sched__column *col = &t->columns[i];
        const void *value = values && value_of_column[i] >= 0 ? values[value_of_column[i]] : NULL;
        ecs_sched__construct(&w->components[col->id], col->data + (size_t)row * col->size, value, 1);
    }
    ecs_sched__placed(w, t, row);
    return true;
}

/* For each column of t, the index in ids of its component, or -1. */
static void ecs_sched__values_of_columns(const ecs_sched__table *t, int32_t count,
                                         const ecs_sched_id *ids, int32_t *value_of_column) {
    int32_t i, k;
    for (i = 0; i < t->column_count; i++) {
        value_of_column[i] = -1;
        for (k = 0; k < count; k++) {
            if (ids[k] == t->columns[i].id) {
                value_of_column[i] = k;
                break;
            }
        }
    }
}

/* Places an index in table t with values given by component, each found for its column as
   the column is filled (no array of value indices on the way: spawn_with is the hot path). */
static bool ecs_sched__place(ecs_sched_world *w, uint32_t index, ecs_sched__table *t,
                             int32_t count, const ecs_sched_id *ids, const void *const *values) {
    int32_t row = ecs_sched__place_row(w, index, t), i;
    if (row < 0) return false;
    for (i = 0; i < t->column_count; i++) {
        ecs_sched__column *col = &t->columns[i];
        const void *value = NULL;
        int32_t k;
        for (k = 0; k < count; k++) {
            if (ids[k] == col->id) {
                value = values ? values[k] : NULL;
                break;
            }
        }
        ecs_sched__construct(&w->components[col->id], col->data + (size_t)row * col->size, value, 1);
    }
    ecs_sched__placed(w, t, row);
    return true;
}

ecs_sched_entity ecs_sched_spawn(ecs_sched_world *w) {
    return ecs_sched_spawn_with(w, 0, NULL, NULL);
}

ecs_sched_entity ecs_sched_spawn_with(ecs_sched_world *w, int32_t count, const ecs_sched_id *ids,
                                      const void *const *values) {
    ecs_sched__table *t;
    ecs_sched_entity e;
    uint32_t index;
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observed && ecs_sched__deferring(w)) {
        return ecs_sched__defer_spawn_with(w, count, ids, values);
    }
    if (ecs_sched__change_refused(w, "spawn")) return ECS_SCHED_NULL_ENTITY;
    if (ecs_sched__check_ids(w, count, ids, "spawn") != ECS_SCHED_OK) return ECS_SCHED_NULL_ENTITY;
    t = ecs_sched__table_adding(w, w->tables[0], count, ids);
    if (!t) return ECS_SCHED_NULL_ENTITY;
    if (!ecs_sched__reserve_indices(w, 1)) {
        ecs_sched__indices_refused(w, 1, "spawning an entity");
        return ECS_SCHED_NULL_ENTITY;
    }
    if (!ecs_sched__table_reserve(w, t, 1) || !ecs_sched__sparse_room(w, count, ids, 1)) {
        ecs_sched__out_of_memory(w, "spawning an entity");
        return ECS_SCHED_NULL_ENTITY;
    }
    index = ecs_sched__take_index(w);
    ecs_sched__place(w, index, t, count, ids, values);
    e = ecs_sched__make_entity(index, w->records[index].generation);
    if (w->observed) ecs_sched__observe_inserted(w, e, NULL, count, ids);
    if (w->sparse_count) ecs_sched__sparse_put_given(w, e, count, ids, values, 0);
    if (w->scope) w->hooks.enter_scope(w, e);
    if (w->observed) ecs_sched__observers_flush(w);
    return e;
}

/* The archetypes handed out by ecs_sched_archetype_get, a part of the world (registry.h). */
typedef struct ecs_sched__archetypes {
    ecs_sched_archetype **items;
    uint32_t count, capacity;
} ecs_sched__archetypes;

static ecs_sched__part_key ecs_sched__archetypes_key;

static ecs_sched__archetypes *ecs_sched__archetypes_of(const ecs_sched_world *w) {
    return (ecs_sched__archetypes *)ecs_sched__part(w, &ecs_sched__archetypes_key);
}

/* Archetypes go with the world (world.h). */
static void ecs_sched__archetypes_free(ecs_sched_world *w) {
    ecs_sched__archetypes *all = ecs_sched__archetypes_of(w);
    uint32_t i;
    if (!all) return;
    for (i = 0; i < all->count; i++) ecs_sched__free(&w->env, all->items[i]);
    ecs_sched__free(&w->env, all->items);
    ecs_sched__free(&w->env, all);
    ecs_sched__part_set(w, &ecs_sched__archetypes_key, NULL);
}

/* Room to keep one more archetype; NULL when out of memory. */
static ecs_sched__archetypes *ecs_sched__archetypes_reserve(ecs_sched_world *w) {
    ecs_sched__archetypes *all = ecs_sched__archetypes_of(w);
    if (!all) {
        all = (ecs_sched__archetypes *)ecs_sched__calloc(&w->env, sizeof *all);
        if (!all) return NULL;
        ecs_sched__part_set(w, &ecs_sched__archetypes_key, all);
    }
    return ECS_SCHED__GROW(&w->env, all->items, &all->capacity, all->count + 1) ? all : NULL;
}

const ecs_sched_archetype *ecs_sched_archetype_get(ecs_sched_world *w, int32_t count,
                                                   const ecs_sched_id *ids) {
    ecs_sched__archetypes *all;
    ecs_sched_archetype *a;
    ecs_sched__table *t;
    unsigned char *block;
    size_t bytes;
    ECS_SCHED__CHECK_WORLD(w);
    if (ecs_sched__check_ids(w, count, ids, "archetype_get") != ECS_SCHED_OK) return NULL;
    if (ecs_sched__any_sparse(w, count, ids)) {
        int32_t k;
        for (k = 0; !w->components[ids[k]].sparse; k++) {}
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "archetype_get: '%s' is sparse, and sparse components are not part of "
                        "an archetype; leave it out, and insert it after ecs_sched_spawn_in",
                        w->components[ids[k]].name);
        return NULL;
    }
    t = ecs_sched__table_adding(w, w->tables[0], count, ids);
    if (!t) return NULL;
    all = ecs_sched__archetypes_reserve(w);
    if (!all) {
        ecs_sched__out_of_memory(w, "keeping an archetype");
        return NULL;
    }
    /* one block: the handle, then the ids, then the columns' value indices */
    bytes = sizeof *a + (size_t)count * sizeof(ecs_sched_id) +
            (size_t)t->column_count * sizeof(int32_t);
    block = (unsigned char *)ecs_sched__calloc(&w->env, bytes);
    if (!block) {
        ecs_sched__out_of_memory(w, "keeping an archetype");
        return NULL;
    }
    a = (ecs_sched_archetype *)(void *)block;
    a->world = w;
    a->table = t->index;
    a->count = count;
    a->ids = (ecs_sched_id *)(void *)(block + sizeof *a);
    a->value_of_column = (int32_t *)(void *)(block + sizeof *a + (size_t)count * sizeof *a->ids);
    if (count) memcpy(a->ids, ids, (size_t)count * sizeof *ids);
    ecs_sched__values_of_columns(t, count, ids, a->value_of_column);
    all->items[all->count++] = a;
    return a;
}

ecs_sched_entity ecs_sched_spawn_in(ecs_sched_world *w, const ecs_sched_archetype *a,
                                    const void *const *values) {
    ecs_sched__table *t;
    ecs_sched_entity e;
    uint32_t index;
    ECS_SCHED__CHECK_WORLD(w);
    if (!a || a->world != w) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "spawn_in: %s", a ? "the archetype belongs to another world"
                                          : "the archetype is NULL (ecs_sched_archetype_get "
                                            "gives one)");
        return ECS_SCHED_NULL_ENTITY;
    }
    if (w->observed && ecs_sched__deferring(w)) {
        return ecs_sched__defer_spawn_with(w, a->count, a->ids, values);
    }
    if (ecs_sched__change_refused(w, "spawn")) return ECS_SCHED_NULL_ENTITY;
    t = w->tables[a->table];
    if (!ecs_sched__reserve_indices(w, 1)) {
        ecs_sched__indices_refused(w, 1, "spawning an entity");
        return ECS_SCHED_NULL_ENTITY;
    }
    if (!ecs_sched__table_reserve(w, t, 1)) {
        ecs_sched__out_of_memory(w, "spawning an entity");
        return ECS_SCHED_NULL_ENTITY;
    }
    index = ecs_sched__take_index(w);
    ecs_sched__place_known(w, index, t, a->value_of_column, values);
    e = ecs_sched__make_entity(index, w->records[index].generation);
    if (w->observed) {
        ecs_sched__observe_inserted(w, e, NULL, a->count, a->ids);
        ecs_sched__observers_flush(w);
    }
    return e;
}

/* spawn_batch inside an observer: a deferred spawn per entity. */
static ecs_sched_result ecs_sched__defer_spawn_batch(ecs_sched_world *w, int32_t entity_count,
                                                     int32_t count, const ecs_sched_id *ids,
                                                     const void *const *arrays,
                                                     ecs_sched_entity *out_entities) {
    const void *values[ECS_SCHED__MAX_TYPE];
    ecs_sched_result result = ecs_sched__check_ids(w, count, ids, "spawn_batch");
    int32_t i, k;
    if (result != ECS_SCHED_OK) return result;
    for (i = 0; i < entity_count; i++) {
        ecs_sched_entity e;
        for (k = 0; k < count; k++) {
            const unsigned char *array = arrays ? (const unsigned char *)arrays[k] : NULL;
            values[k] = array ? array + (size_t)i * w->components[ids[k]].size : NULL;
        }
        e = ecs_sched__defer_spawn_with(w, count, ids, values);
        if (e == ECS_SCHED_NULL_ENTITY) return w->env.last_result;
        if (out_entities) out_entities[i] = e;
    }
    return ECS_SCHED_OK;
}

/* Index `index` gets row `row` of table `table`: its record, the row's entity, *out. */
static inline void ecs_sched__batch_row(ecs_sched__record *records, uint32_t index,
                                        uint32_t table, uint32_t row, ecs_sched_entity *slot,
                                        ecs_sched_entity *out) {
    ecs_sched__record *r = &records[index];
    ecs_sched_entity e = ecs_sched__make_entity(index, r->generation);
    r->table = table;
    r->row = row;
    *slot = e;
    if (out) *out = e;
}

/* Gives `n` entities rows from t->count on, with indices taken as ecs_sched__take_index
   would, in bulk: the stack of free indices first (read in order, no link chased), then the
   linked ones, then fresh ones. The records and rows are written from locals, so that a
   store to a record is not taken for a change to the world's counts. */
static void ecs_sched__batch_rows(ecs_sched_world *w, ecs_sched__table *t, int32_t n,
                                  ecs_sched_entity *out) {
    ecs_sched__record *records = w->records;
    ecs_sched_entity *rows = t->entities + t->count;
    const uint32_t table = t->index;
    const uint32_t first = (uint32_t)t->count;
    uint32_t stacked = w->free_stack_count < (uint32_t)n ? w->free_stack_count : (uint32_t)n;
    const uint32_t *top = stacked ? w->free_stack + w->free_stack_count : NULL;
    int32_t i = 0;
    for (; i < (int32_t)stacked; i++) {
        ecs_sched__batch_row(records, top[-1 - i], table, first + (uint32_t)i, rows + i,
                             out ? out + i : NULL);
    }
    w->free_stack_count -= stacked;
    w->free_count -= stacked;
    for (; i < n && w->free_head != ECS_SCHED__NONE; i++) {
        ecs_sched__batch_row(records, ecs_sched__take_index(w), table, first + (uint32_t)i,
                             rows + i, out ? out + i : NULL);
    }
    if (i < n) {
        uint32_t base = w->record_count - (uint32_t)i;   /* index of entity i: base + i */
        w->record_count += (uint32_t)(n - i);
        for (; i < n; i++) {   /* fresh: generation 0, written, not read */
            uint32_t index = base + (uint32_t)i;
            ecs_sched__record *r = &records[index];
            ecs_sched_entity e = ecs_sched__make_entity(index, 0);
            r->generation = 0;
            r->table = table;
            r->row = first + (uint32_t)i;
            rows[i] = e;
            if (out) out[i] = e;
        }
    }
}

ecs_sched_result ecs_sched_spawn_batch(ecs_sched_world *w, int32_t entity_count, int32_t count,
                                       const ecs_sched_id *ids, const void *const *arrays,
                                       ecs_sched_entity *out_entities) {
    ecs_sched__table *t;
    ecs_sched_result result;
    int32_t first, i, c;
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observed && ecs_sched__deferring(w)) {
        return ecs_sched__defer_spawn_batch(w, entity_count, count, ids, arrays, out_entities);
    }
    if (ecs_sched__change_refused(w, "spawn_batch")) return ECS_SCHED_ERR_ACCESS;
    if (entity_count < 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "spawn_batch: negative entity count %d", (int)entity_count);
    }
    result = ecs_sched__check_ids(w, count, ids, "spawn_batch");
    if (result != ECS_SCHED_OK) return result;
    t = ecs_sched__table_adding(w, w->tables[0], count, ids);
    if (!t) return w->env.last_result;
    if (entity_count == 0) return ECS_SCHED_OK;   /* (a table never filled has no rows) */
    if (!ecs_sched__reserve_indices(w, (uint32_t)entity_count)) {
        return ecs_sched__indices_refused(w, (uint32_t)entity_count, "spawning a batch of entities");
    }
    if (!ecs_sched__table_reserve(w, t, entity_count) ||
        !ecs_sched__sparse_room(w, count, ids, (uint32_t)entity_count)) {
        return ecs_sched__out_of_memory(w, "spawning a batch of entities");
    }
    first = t->count;
    ecs_sched__batch_rows(w, t, entity_count, out_entities);
    for (c = 0; c < t->column_count; c++) {
        ecs_sched__column *col = &t->columns[c];
        const void *values = NULL;
        int32_t k;
        for (k = 0; k < count; k++) {
            if (ids[k] == col->id) values = arrays ? arrays[k] : NULL;
        }
        ecs_sched__construct(&w->components[col->id], col->data + (size_t)first * col->size,
                             values, entity_count);
    }
    if (t->tick_count) ecs_sched__ticks_stamp_new(w, t, first, entity_count, ecs_sched__tick_now(w));
    if (t->toggle_count) ecs_sched__toggles_enable_new(t, first, entity_count);
    t->count += entity_count;
    w->alive_count += entity_count;
    w->rows_version++;
    if (w->observed || w->sparse_count) {
        for (i = 0; i < entity_count; i++) {
            ecs_sched_entity e = t->entities[first + i];
            if (w->observed) ecs_sched__observe_inserted(w, e, NULL, count, ids);
            if (w->sparse_count) ecs_sched__sparse_put_given(w, e, count, ids, arrays, (size_t)i);
        }
        if (w->observed) ecs_sched__observers_flush(w);
    }
    return ECS_SCHED_OK;
}

static void ecs_sched__despawn_live(ecs_sched_world *w, uint32_t index) {
    ecs_sched__record *r = &w->records[index];
    ecs_sched__table *t = w->tables[r->table];
    int32_t i;
    for (i = 0; i < t->tick_count; i++) {
        ecs_sched__removed(w, t->ticks[i].id, ecs_sched__make_entity(index, r->generation));
    }
    for (i = 0; t->hooked && i < t->column_count; i++) {
        ecs_sched__destruct(&w->components[t->columns[i].id], ecs_sched__cell(t, i, r->row), 1);
    }
    ecs_sched__table_delete_row(w, t, (int32_t)r->row);
    if (w->sparse_count) ecs_sched__sparse_drop(w, index);
    ecs_sched__release_index(w, index);
    w->alive_count--;
}

/* A despawn in a world with observers or relationships, kept out of the plain one. */
ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__despawn_observed(ecs_sched_world *w,
                                                                       ecs_sched_entity e) {
    ecs_sched_result result = ECS_SCHED_OK;
    if (w->observed && ecs_sched__deferring(w)) return ecs_sched__defer_despawn(w, e);
    if (ecs_sched__change_refused(w, "despawn")) return ECS_SCHED_ERR_ACCESS;
    if (!ecs_sched__is_live_record(w, e)) return ecs_sched__stale(w, e, "despawn");
    if (w->linked) {
        result = w->hooks.despawn_linked(w, e);
    } else {
        ecs_sched__observe_despawning(w, e);
        if (w->sparse_count) ecs_sched__sparse_observe_despawning(w, e);
        ecs_sched__despawn_live(w, ECS_SCHED_ENTITY_INDEX(e));
    }
    if (w->observed) ecs_sched__observers_flush(w);
    return result;
}

ecs_sched_result ecs_sched_despawn(ecs_sched_world *w, ecs_sched_entity e) {
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observed || w->linked) return ecs_sched__despawn_observed(w, e);
    if (ecs_sched__change_refused(w, "despawn")) return ECS_SCHED_ERR_ACCESS;
    if (!ecs_sched__is_live_record(w, e)) return ecs_sched__stale(w, e, "despawn");
    ecs_sched__despawn_live(w, ECS_SCHED_ENTITY_INDEX(e));
    return ECS_SCHED_OK;
}

bool ecs_sched_is_alive(const ecs_sched_world *w, ecs_sched_entity e) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__is_live_record(w, e);
}

/* ---- entity ids made elsewhere, and the range of those made here ---- */

/* Why spawn_at cannot make handle e alive (ECS_SCHED_OK: it can). */
static ecs_sched_result ecs_sched__spawn_at_refused(ecs_sched_world *w, ecs_sched_entity e) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e), generation = ECS_SCHED_ENTITY_GENERATION(e);
    const ecs_sched__record *r = index < w->record_count ? &w->records[index] : NULL;
    if (index == 0 || index > ECS_SCHED__MAX_INDEX) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "spawn_at: entity index %u is not one an entity can have (they "
                               "go from 1 to %u)", (unsigned)index, (unsigned)ECS_SCHED__MAX_INDEX);
    }
    if (w->range_first && ecs_sched__in_entity_range(w, index)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "spawn_at: entity %u (generation %u) is inside this world's "
                               "entity range [%u, %u], where its own spawns take their indices; "
                               "entities made at a given handle come from outside it (move the "
                               "range with ecs_sched_set_entity_range)", (unsigned)index,
                               (unsigned)generation, (unsigned)w->range_first,
                               (unsigned)w->range_last);
    }
    if (r && r->table == ECS_SCHED__RESERVED) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "spawn_at: entity index %u is reserved by a command buffer for "
                               "entity %u (generation %u), alive when the buffer is applied",
                               (unsigned)index, (unsigned)index, (unsigned)r->generation);
    }
    if (r && r->table != ECS_SCHED__DEAD) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "spawn_at: entity index %u is held by %s (generation %u), alive; "
                               "despawn it before making generation %u", (unsigned)index,
                               ecs_sched__entity_label(w, ecs_sched__make_entity(index, r->generation)).text,
                               (unsigned)r->generation, (unsigned)generation);
    }
    if (r && generation < r->generation) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_STALE_ENTITY,
                               "spawn_at: entity %u (generation %u) is stale: its index has "
                               "reached generation %u, and an older one alive again would bring "
                               "back handles that were despawned", (unsigned)index,
                               (unsigned)generation, (unsigned)r->generation);
    }
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_spawn_at(ecs_sched_world *w, ecs_sched_entity e) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    ecs_sched__table *t;
    ecs_sched__record *r;
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observed && ecs_sched__refused_in_observer(w, "spawn_at")) return ECS_SCHED_ERR_ACCESS;
    if (ecs_sched__change_refused(w, "spawn_at")) return ECS_SCHED_ERR_ACCESS;
    result = ecs_sched__spawn_at_refused(w, e);
    if (result != ECS_SCHED_OK) return result;
    t = w->tables[0];
    if (!ecs_sched__table_reserve(w, t, 1) ||
        (index >= w->record_count && !ecs_sched__index_reach(w, index))) {
        return ecs_sched__out_of_memory(w, "spawn_at: making room for the entity");
    }
    r = &w->records[index];
    if (r->row != ECS_SCHED__UNLISTED) ecs_sched__unlist_index(w, index);
    r->generation = ECS_SCHED_ENTITY_GENERATION(e);
    ecs_sched__placed(w, t, ecs_sched__place_row(w, index, t));
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_set_entity_range(ecs_sched_world *w, uint32_t first, uint32_t last) {
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observed && ecs_sched__refused_in_observer(w, "set_entity_range")) {
        return ECS_SCHED_ERR_ACCESS;
    }
    if (ecs_sched__change_refused(w, "set_entity_range")) return ECS_SCHED_ERR_ACCESS;
    if (first && !last) last = ECS_SCHED__MAX_INDEX;
    if ((!first && last) || first > last || last > ECS_SCHED__MAX_INDEX) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "set_entity_range: [%u, %u] is not a range of entity indices "
                               "(they go from 1 to %u; last 0: no upper bound; 0, 0: no range)",
                               (unsigned)first, (unsigned)last, (unsigned)ECS_SCHED__MAX_INDEX);
    }
    w->range_first = first;
    w->range_last = last;
    w->ranged = w->ranged || first;
    if (w->ranged) ecs_sched__index_lists_fit(w);
    return ECS_SCHED_OK;
}

/* Writes values into the entity's current row: constructs the components that `before` did
   not have (they are raw after a move) and assigns the others. */
static void ecs_sched__write_values(ecs_sched_world *w, uint32_t index,
                                    const ecs_sched__table *before, int32_t count,
                                    const ecs_sched_id *ids, const void *const *values) {
    const ecs_sched__record *r = &w->records[index];
    ecs_sched__table *t = w->tables[r->table];
    int32_t i;
    for (i = 0; i < count; i++) {
        const ecs_sched__component *c = &w->components[ids[i]];
        const void *value = values ? values[i] : NULL;
        int32_t column;
        if (c->sparse) continue;   /* its set takes it (sparse.h) */
        if (c->tracked) ecs_sched__ticks_inserted(w, t, (int32_t)r->row, before, ids[i]);
        if (c->size == 0) continue;
        column = ecs_sched__column_find(t, ids[i]);
        if (ecs_sched__type_find(before, ids[i]) < 0) {
            ecs_sched__construct(c, ecs_sched__cell(t, column, r->row), value, 1);
        } else {
            ecs_sched__assign(c, ecs_sched__cell(t, column, r->row), value);
        }
    }
}

/* insert_many inside an observer: deferred inserts. */
static ecs_sched_result ecs_sched__defer_inserts(ecs_sched_world *w, ecs_sched_entity e,
                                                 int32_t count, const ecs_sched_id *ids,
                                                 const void *const *values) {
    ecs_sched_result result = ecs_sched__check_ids(w, count, ids, "insert");
    int32_t i;
    for (i = 0; i < count && result == ECS_SCHED_OK; i++) {
        result = ecs_sched__defer_insert(w, e, ids[i], values ? values[i] : NULL);
    }
    return result;
}

/* A NULL value leaves a present value unchanged, and an inherited one is present: the entity
   gets its own copy of what it inherits (an override, as get_mut makes), not a default.
   Returns the values to write: `values`, or `out` when some come from bases. */
static const void *const *ecs_sched__overriding_values(const ecs_sched_world *w,
                                                       const ecs_sched__table *src, int32_t count,
                                                       const ecs_sched_id *ids,
                                                       const void *const *values, const void **out) {
    int32_t i;
    bool inherited = false;
    for (i = 0; i < count; i++) {
        bool found;
        out[i] = values ? values[i] : NULL;
        if (out[i] || w->components[ids[i]].sparse || ecs_sched__type_find(src, ids[i]) >= 0) continue;
        out[i] = w->hooks.inherited_value(w, src, ids[i], &found);
        inherited |= out[i] != NULL;
    }
    return inherited ? out : values;
}

ecs_sched_result ecs_sched_insert_many(ecs_sched_world *w, ecs_sched_entity e, int32_t count,
                                       const ecs_sched_id *ids, const void *const *values) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    ecs_sched__table *src, *dst;
    ecs_sched_result result;
    const void *inherited[ECS_SCHED__MAX_TYPE];
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observed && ecs_sched__deferring(w)) return ecs_sched__defer_inserts(w, e, count, ids, values);
    if (ecs_sched__change_refused(w, "insert")) return ECS_SCHED_ERR_ACCESS;
    if (!ecs_sched__is_live_record(w, e)) return ecs_sched__stale(w, e, "insert");
    result = ecs_sched__check_ids(w, count, ids, "insert");
    if (result != ECS_SCHED_OK) return result;
    src = w->tables[w->records[index].table];
    if (w->hooks.inherited_value && ecs_sched__type_find(src, w->is_a) >= 0) {
        values = ecs_sched__overriding_values(w, src, count, ids, values, inherited);
    }
    dst = ecs_sched__table_adding(w, src, count, ids);
    if (!dst) return w->env.last_result;
    if (w->sparse_count && !ecs_sched__sparse_reserve_for(w, e, count, ids)) {
        return ecs_sched__out_of_memory(w, "adding a sparse component");
    }
    if (dst != src && !ecs_sched__move_entity(w, index, dst)) {
        return ecs_sched__out_of_memory(w, "moving an entity to a new archetype");
    }
    ecs_sched__write_values(w, index, src, count, ids, values);
    if (w->observed) ecs_sched__observe_inserted(w, e, src, count, ids);
    if (w->sparse_count) ecs_sched__sparse_put_given(w, e, count, ids, values, 0);
    if (w->observed) ecs_sched__observers_flush(w);
    return ECS_SCHED_OK;
}

/* Whether inserting or removing c only moves the entity between tables: c is not sparse,
   not a relationship kind, not managed by the library, not tracked (no tick to take, no
   removal to log). */
static inline bool ecs_sched__moves_only(const ecs_sched__component *c) {
    return !c->sparse && !c->relation && !c->managed && !c->tracked;
}

/* ecs_sched_insert_many of one component that only moves the entity (see moves_only), in a
   world without observers, for a live entity, given a value or with nothing to inherit: what
   insert_many would do, without its loops over the ids. */
static ecs_sched_result ecs_sched__insert_moving(ecs_sched_world *w, uint32_t index,
                                                 ecs_sched_id id, const void *value) {
    const ecs_sched__component *c = &w->components[id];
    const ecs_sched__record *r = &w->records[index];
    ecs_sched__table *src = w->tables[r->table], *dst;
    int32_t column;
    if (ecs_sched__change_refused(w, "insert")) return ECS_SCHED_ERR_ACCESS;
    column = ecs_sched__column_find(src, id);
    if (column >= 0) {   /* it has one: the value is assigned */
        ecs_sched__assign(c, ecs_sched__cell(src, column, r->row), value);
        return ECS_SCHED_OK;
    }
    if (c->size == 0 && ecs_sched__type_find(src, id) >= 0) return ECS_SCHED_OK;
    dst = ecs_sched__table_step(w, src, id, false);
    if (!dst) return w->env.last_result;
    if (!ecs_sched__move_entity(w, index, dst)) {
        return ecs_sched__out_of_memory(w, "moving an entity to a new archetype");
    }
    if (c->size) {
        column = ecs_sched__column_find(dst, id);
        ecs_sched__construct(c, ecs_sched__cell(dst, column, r->row), value, 1);
    }
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_insert(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id,
                                  const void *value) {
    ECS_SCHED__CHECK_WORLD(w);
    if (!w->observed && ecs_sched__component_valid(w, id)) {
        const ecs_sched__component *c = &w->components[id];
        if (c->sparse && w->sparse_count) {
            return ecs_sched__sparse_insert(w, e, id, value);   /* nothing moves: the short way */
        }
        /* a NULL value may have to come from a base (insert_many) */
        if (ecs_sched__moves_only(c) && (value || !w->hooks.inherited_value) &&
            ecs_sched__live_record(w, e)) {
            return ecs_sched__insert_moving(w, ECS_SCHED_ENTITY_INDEX(e), id, value);
        }
    }
    return ecs_sched_insert_many(w, e, 1, &id, &value);
}

ecs_sched_result ecs_sched_remove(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    const ecs_sched__record *r;
    ecs_sched__table *src, *dst;
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observed && ecs_sched__deferring(w)) {
        return ecs_sched__defer_remove(w, e, id);
    }
    if (ecs_sched__change_refused(w, "remove")) return ECS_SCHED_ERR_ACCESS;
    r = ecs_sched__live_record(w, e);
    if (!r) return ecs_sched__stale(w, e, "remove");
    if (!ecs_sched__component_valid(w, id)) return ecs_sched__unknown_component(w, id, "remove");
    if (w->components[id].sparse) {
        ecs_sched__sparse_remove(w, e, id);
        if (w->observed) ecs_sched__observers_flush(w);
        return ECS_SCHED_OK;
    }
    src = w->tables[r->table];
    if (!ecs_sched__table_has(src, id)) return ECS_SCHED_OK;
    if (w->components[id].relation) return w->hooks.remove_kind(w, e, id);
    if (w->components[id].managed) return ecs_sched__mark_touched(w, id, "remove");
    if (w->observed) ecs_sched__observe_removing_one(w, e, id);
    dst = ecs_sched__table_step(w, src, id, true);
    if (!dst) return w->env.last_result;
    if (!ecs_sched__move_entity(w, index, dst)) {
        return ecs_sched__out_of_memory(w, "moving an entity to a new archetype");
    }
    if (w->components[id].tracked) ecs_sched__removed(w, id, e);
    if (w->observed) {
        ecs_sched__observe_removed(w, e, src, id);
        ecs_sched__observers_flush(w);
    }
    return ECS_SCHED_OK;
}

/* get of a tag the entity has: a wrong question (a tag has no value). */
static void *ecs_sched__tag_got(ecs_sched_world *w, ecs_sched_id id) {
    ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                    "get: '%s' is a tag and has no value; use ecs_sched_has",
                    w->components[id].name);
    return NULL;
}

/* get of a sparse component: its value, or NULL (a miss is no failure). */
static void *ecs_sched__sparse_get(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    void *value = ecs_sched__sparse_value(w, id, index);
    if (value) return value;
    if (w->components[id].size == 0 && ecs_sched__sparse_slot(ecs_sched__sparse_of(w, id), index)) {
        return ecs_sched__tag_got(w, id);
    }
    return NULL;
}

/* ecs_sched__value when the fast path did not find the value: the same checks in order, to
   report a wrong question (or to find an inherited value). A component the entity lacks is a
   miss, an answer: NULL with nothing recorded, at the price of these few checks. */
ECS_SCHED__NOINLINE static void *ecs_sched__value_slow(ecs_sched_world *w, ecs_sched_entity e,
                                                       ecs_sched_id id) {
    const ecs_sched__record *r;
    const ecs_sched__table *t;
    int32_t column;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__is_live_record(w, e)) {
        ecs_sched__stale(w, e, "get");
        return NULL;
    }
    if (!ecs_sched__component_valid(w, id)) {
        ecs_sched__unknown_component(w, id, "get");
        return NULL;
    }
    r = &w->records[ECS_SCHED_ENTITY_INDEX(e)];
    t = w->tables[r->table];
    if (w->components[id].sparse) return ecs_sched__sparse_get(w, e, id);
    column = ecs_sched__column_find(t, id);
    if (column < 0) {
        bool inherited = false;
        void *value = w->hooks.inherited_value ? w->hooks.inherited_value(w, t, id, &inherited) : NULL;
        if (value) return value;
        if (w->components[id].size == 0 && (inherited || ecs_sched__type_find(t, id) >= 0)) {
            return ecs_sched__tag_got(w, id);
        }
        return NULL;
    }
    return ecs_sched__cell(t, column, r->row);
}

/* The entity's value of the component, or NULL (a miss, or a failure recorded). The common
   case (a live entity that owns the component) takes no call and saves no register: a loop
   that reaches the components of many entities by handle spends its time here. */
static inline void *ecs_sched__value(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    const ecs_sched__record *r = ecs_sched__live_record(w, e);
    if (r) {
        const ecs_sched__table *t = w->tables[r->table];
        int32_t column = ecs_sched__column_find(t, id);
        if (column >= 0) return ecs_sched__cell(t, column, r->row);
    }
    return ecs_sched__value_slow(w, e, id);
}

/* get_mut of a value the entity inherits: it overrides it, with a copy of its base's. */
static void *ecs_sched__override(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id,
                                 const void *inherited) {
    if (ecs_sched_insert(w, e, id, inherited) != ECS_SCHED_OK) return NULL;
    if (ecs_sched__deferring(w)) {   /* recorded: it is the base's value until then */
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_ACCESS,
                        "get_mut: entity %u inherits '%s'; inside an observer its override "
                        "is recorded and applied after, so there is no value of its own to "
                        "write yet (insert the value instead)",
                        (unsigned)ECS_SCHED_ENTITY_INDEX(e), w->components[id].name);
        return NULL;
    }
    return ecs_sched__value(w, e, id);
}

/* A value found through the table's map alone: the part of a lookup that takes no call, so
   that a caller whose common case it is saves no register (NULL: go the long way). */
static inline void *ecs_sched__mapped_value(const ecs_sched_world *w, ecs_sched_entity e,
                                            ecs_sched_id id) {
    const ecs_sched__record *r = ecs_sched__live_record(w, e);
    const ecs_sched__table *t;
    int32_t column;
    if (!r) return NULL;
    t = w->tables[r->table];
    if (id >= t->column_map) return NULL;
    column = ecs_sched__column_map(t)[id];
    return column >= 0 ? ecs_sched__cell(t, column, r->row) : NULL;
}

/* get_mut the long way: overrides, change ticks, the reasons for NULL. */
ECS_SCHED__NOINLINE static void *ecs_sched__get_mut_slow(ecs_sched_world *w, ecs_sched_entity e,
                                                        ecs_sched_id id) {
    void *value = ecs_sched__value(w, e, id);
    if (!w->hooks.inherited_value && !w->ticks_on) return value;   /* nothing to override, no tick to take */
    if (value && w->hooks.inherited_value && !w->components[id].sparse &&
        ecs_sched__type_find(w->tables[w->records[ECS_SCHED_ENTITY_INDEX(e)].table], id) < 0) {
        return ecs_sched__override(w, e, id, value);
    }
    if (value && w->components[id].tracked) ecs_sched__value_changed(w, e, id);
    return value;
}

void *ecs_sched_get_mut(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    const ecs_sched__record *r;
    ECS_SCHED__CHECK_WORLD(w);
    r = ecs_sched__live_record(w, e);
    /* nothing to override, no tick to take: the value is found by the table's map */
    if (r && !w->hooks.inherited_value && !w->ticks_on) {
        const ecs_sched__table *t = w->tables[r->table];
        if (id < t->column_map) {
            int32_t column = ecs_sched__column_map(t)[id];
            if (column >= 0) return ecs_sched__cell(t, column, r->row);
        }
    }
    return ecs_sched__get_mut_slow(w, e, id);
}

/* has of a component the entity's table lacks: in its sparse set, or inherited. */
ECS_SCHED__NOINLINE static bool ecs_sched__has_elsewhere(const ecs_sched_world *w,
                                                         ecs_sched_entity e,
                                                         const ecs_sched__table *t,
                                                         ecs_sched_id id) {
    bool inherited = false;
    if (w->sparse_count && ecs_sched__component_valid(w, id) && w->components[id].sparse) {
        return ecs_sched__sparse_slot(ecs_sched__sparse_of(w, id), ECS_SCHED_ENTITY_INDEX(e)) != 0;
    }
    if (w->hooks.inherited_value && ecs_sched__component_valid(w, id)) w->hooks.inherited_value(w, t, id, &inherited);
    return inherited;
}

bool ecs_sched_has(const ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    const ecs_sched__record *r;
    const ecs_sched__table *t;
    ECS_SCHED__CHECK_WORLD(w);
    r = ecs_sched__live_record(w, e);
    if (!r) return false;
    t = w->tables[r->table];
    if (ecs_sched__table_has(t, id)) return true;
    if (!w->sparse_count && !w->hooks.inherited_value) return false;   /* nowhere else to look */
    return ecs_sched__has_elsewhere(w, e, t, id);
}

/* ---- component disabling ---- */

/* Why component id of entity e cannot be toggled, recorded as the failure of `operation`: it
   is unknown, or not toggleable (the entity is known to be live). */
static ecs_sched_result ecs_sched__toggle_refused(ecs_sched_world *w, ecs_sched_id id,
                                                  const char *operation) {
    if (!ecs_sched__component_valid(w, id)) return ecs_sched__unknown_component(w, id, operation);
    if (w->components[id].toggleable) return ECS_SCHED_OK;
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "%s: '%s' is not toggleable; register it with .toggleable = true "
                           "to switch it off on one entity, or remove it instead",
                           operation, w->components[id].name);
}

/* The bits of toggleable component id in e's table, with e's row in *row; NULL, the failure
   recorded, when e is not live, id is not toggleable, or e lacks it. */
static ecs_sched__toggle *ecs_sched__toggle_of(ecs_sched_world *w, ecs_sched_entity e,
                                               ecs_sched_id id, const char *operation,
                                               int32_t *row) {
    const ecs_sched__record *r = ecs_sched__live_record(w, e);
    ecs_sched__toggle *g;
    if (!r) {
        ecs_sched__stale(w, e, operation);
        return NULL;
    }
    if (ecs_sched__toggle_refused(w, id, operation) != ECS_SCHED_OK) return NULL;
    g = ecs_sched__toggle_find(w->tables[r->table], id);
    if (!g) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_MISSING_COMPONENT,
                        "%s: %s does not have '%s' of its own; insert it first", operation,
                        ecs_sched__entity_label(w, e).text, w->components[id].name);
        return NULL;
    }
    *row = (int32_t)r->row;
    return g;
}

/* Sets a row's bit; a change makes the lists of listed queries (hierarchical, sorted, sparse,
   each target) again, as a row joining or leaving a table does. */
static void ecs_sched__toggle_set(ecs_sched_world *w, ecs_sched__toggle *g, int32_t row, bool on) {
    if (ecs_sched__toggle_bit(g, row) == on) return;
    ecs_sched__toggle_put(g, row, on);
    w->rows_version++;
}

ecs_sched_result ecs_sched_enable_component(ecs_sched_world *w, ecs_sched_entity e,
                                            ecs_sched_id id, bool enabled) {
    ecs_sched__toggle *g;
    int32_t row;
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observed && ecs_sched__deferring(w)) {
        return ecs_sched_commands_enable_component(ecs_sched__deferring(w), e, id, enabled);
    }
    /* not a move, but the bits are what running queries read to pick their rows */
    if (ecs_sched__change_refused(w, "enable_component")) return ECS_SCHED_ERR_ACCESS;
    g = ecs_sched__toggle_of(w, e, id, "enable_component", &row);
    if (!g) return w->env.last_result;
    ecs_sched__toggle_set(w, g, row, enabled);
    return ECS_SCHED_OK;
}

bool ecs_sched_is_component_enabled(const ecs_sched_world *w, ecs_sched_entity e,
                                    ecs_sched_id id) {
    const ecs_sched__record *r;
    const ecs_sched__toggle *g;
    ECS_SCHED__CHECK_WORLD(w);
    r = ecs_sched__live_record(w, e);
    if (!r || !ecs_sched__component_valid(w, id) || !ecs_sched_has(w, e, id)) return false;
    g = w->components[id].toggleable ? ecs_sched__toggle_find(w->tables[r->table], id) : NULL;
    return !g || ecs_sched__toggle_bit(g, (int32_t)r->row);
}

ecs_sched_result ecs_sched_commands_enable_component(ecs_sched_commands *cmd, ecs_sched_entity e,
                                                     ecs_sched_id id, bool enabled) {
    ecs_sched_result result;
    if (ecs_sched__no_buffer(cmd)) return ECS_SCHED_ERR_ACCESS;
    result = ecs_sched__check_target(cmd, e, "commands_enable_component");
    if (result == ECS_SCHED_OK) result = ecs_sched__toggle_refused(cmd->world, id, "commands_enable_component");
    if (result != ECS_SCHED_OK) return result;
    return ecs_sched__record_command(cmd, enabled ? ECS_SCHED__CMD_ENABLE : ECS_SCHED__CMD_DISABLE,
                                     e, id, NULL);
}

/* A recorded toggle: skipped (false) when the entity is dead or lacks the component by now. */
static bool ecs_sched__apply_toggle(ecs_sched_world *w, const ecs_sched__command *c) {
    const ecs_sched__record *r = ecs_sched__live_record(w, c->entity);
    ecs_sched__toggle *g = r ? ecs_sched__toggle_find(w->tables[r->table], c->id) : NULL;
    if (!g) return false;
    ecs_sched__toggle_set(w, g, (int32_t)r->row, c->op == ECS_SCHED__CMD_ENABLE);
    return true;
}

/* ---- applying command buffers ---- */

/* Gathers the run of inserts on `entity` that starts at `at` in the same block (at most
   ECS_SCHED__MAX_BATCHED_INSERTS, each component once), so they cost one archetype move.
   Returns how many, and where the run ends. */
static int32_t ecs_sched__gather_inserts(const ecs_sched_commands *cmd,
                                         const ecs_sched__command_block *block, size_t at,
                                         ecs_sched_entity entity, ecs_sched_id *ids,
                                         const void **values, size_t *end) {
    const ecs_sched_world *w = cmd->world;
    int32_t n = 0, k;
    while (at < block->used && n < ECS_SCHED__MAX_BATCHED_INSERTS) {
        ecs_sched__command c;
        ecs_sched__command_read(w, block, at, entity, &c);
        if (c.op != ECS_SCHED__CMD_INSERT || c.entity != entity) break;
        for (k = 0; k < n && ids[k] != c.id; k++) {}
        if (k < n) break;  /* the same component twice: apply the second one on its own */
        ids[n] = c.id;
        values[n] = c.value;
        n++;
        at = c.next;
    }
    *end = at;
    return n;
}

/* The table for a spawn with these components. Buffers often spawn many entities alike, so
   the last answer is kept (tables live as long as the world). */
static ecs_sched__table *ecs_sched__spawn_table(ecs_sched_commands *cmd, int32_t n,
                                                const ecs_sched_id *ids) {
    ecs_sched__table *t;
    int32_t i;
    if (n == cmd->spawn_count && n > 0) {
        for (i = 0; i < n && ids[i] == cmd->spawn_ids[i]; i++) {}
        if (i == n) return cmd->world->tables[cmd->spawn_table];
    }
    t = ecs_sched__table_adding(cmd->world, cmd->world->tables[0], n, ids);
    if (t) {
        memcpy(cmd->spawn_ids, ids, (size_t)n * sizeof *ids);
        cmd->spawn_count = n;
        cmd->spawn_table = t->index;
    }
    return t;
}

/* Applies the command at the read cursor (with the inserts that follow it on the same
   entity) and returns how many commands it consumed, or -1 when the world refused (out of
   memory). */
/* A spawn command's entity placed in table t (NULL: it could not be made) in a world with
   sparse components or observers, which see it too. Returns whether it was placed. */
ECS_SCHED__NOINLINE static bool ecs_sched__apply_spawn_seen(ecs_sched_world *w,
                                                            ecs_sched__table *t,
                                                            ecs_sched_entity e, int32_t n,
                                                            const ecs_sched_id *ids,
                                                            const void *const *values) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    bool ok = t && (!w->sparse_count || ecs_sched__sparse_reserve(w, n, ids, 1, index + 1)) &&
              ecs_sched__place(w, index, t, n, ids, values);
    if (t && !ok) ecs_sched__out_of_memory(w, "applying a spawn command");
    if (ok && w->observed) ecs_sched__observe_inserted(w, e, NULL, n, ids);
    if (ok && w->sparse_count) ecs_sched__sparse_put_given(w, e, n, ids, values, 0);
    if (ok && w->observed) ecs_sched__observers_flush(w);
    return ok;
}

static int32_t ecs_sched__apply_one(ecs_sched_commands *cmd) {
    ecs_sched_world *w = cmd->world;
    const ecs_sched__command_block *block = cmd->read;
    ecs_sched_id ids[ECS_SCHED__MAX_BATCHED_INSERTS];
    const void *values[ECS_SCHED__MAX_BATCHED_INSERTS];
    ecs_sched__command c;
    size_t end;
    int32_t n = 0;
    bool ok = true;
    ecs_sched__command_read(w, block, cmd->read_at, cmd->read_at == 0 ? 0 : cmd->read_entity, &c);
    end = c.next;
    switch (c.op) {
    case ECS_SCHED__CMD_SPAWN:
        if (!ecs_sched__is_reserved(w, c.entity)) goto skipped;
        n = ecs_sched__gather_inserts(cmd, block, end, c.entity, ids, values, &end);
        {
            ecs_sched__table *t = ecs_sched__spawn_table(cmd, n, ids);
            if (!ECS_SCHED__LIKELY(!(w->sparse_count | (uint32_t)w->observed))) {
                ok = ecs_sched__apply_spawn_seen(w, t, c.entity, n, ids, values);
            } else {
                ok = t && ecs_sched__place(w, ECS_SCHED_ENTITY_INDEX(c.entity), t, n, ids, values);
                if (t && !ok) ecs_sched__out_of_memory(w, "applying a spawn command");
            }
        }
        break;
    case ECS_SCHED__CMD_INSERT:
        if (!ecs_sched__is_live_record(w, c.entity)) goto skipped;
        n = ecs_sched__gather_inserts(cmd, block, cmd->read_at, c.entity, ids, values, &end) - 1;
        ok = ecs_sched_insert_many(w, c.entity, n + 1, ids, values) == ECS_SCHED_OK;
        break;
    case ECS_SCHED__CMD_REMOVE:
        if (!ecs_sched__is_live_record(w, c.entity)) goto skipped;
        ok = ecs_sched_remove(w, c.entity, c.id) == ECS_SCHED_OK;
        break;
    case ECS_SCHED__CMD_DESPAWN:
        /* a run of despawns is applied here at once */
        for (;;) {
            ecs_sched__command next;
            if (ecs_sched__is_live_record(w, c.entity) && w->linked) {
                /* a despawn a kind refuses is skipped; its reason is the last error */
                ecs_sched_result result = ecs_sched_despawn(w, c.entity);
                if (result == ECS_SCHED_ERR_REFUSED) cmd->skipped++;
                else if (result != ECS_SCHED_OK) return -1;
            } else if (ecs_sched__is_live_record(w, c.entity)) {
                if (w->observed) {
                    ecs_sched__observe_despawning(w, c.entity);
                    if (w->sparse_count) ecs_sched__sparse_observe_despawning(w, c.entity);
                }
                ecs_sched__despawn_live(w, ECS_SCHED_ENTITY_INDEX(c.entity));
                if (w->observed) ecs_sched__observers_flush(w);
            } else {
                cmd->skipped++;
            }
            if (end >= block->used) break;
            ecs_sched__command_read(w, block, end, c.entity, &next);
            if (next.op != ECS_SCHED__CMD_DESPAWN) break;
            c = next;
            end = c.next;
            n++;
        }
        break;
    case ECS_SCHED__CMD_SET_RESOURCE:
        ok = ecs_sched_resource_insert(w, c.id, c.value) == ECS_SCHED_OK;
        break;
    case ECS_SCHED__CMD_ENABLE:
    case ECS_SCHED__CMD_DISABLE:
        if (!ecs_sched__apply_toggle(w, &c)) goto skipped;
        break;
    case ECS_SCHED__CMD_CALL:
    case ECS_SCHED__CMD_CALL_MADE: {
        ecs_sched_result result = ECS_SCHED_OK;
        if (!c.fn(w, c.entity, c.id, c.value, &result)) goto skipped;
        ok = result == ECS_SCHED_OK;
        break;
    }
    default:
        ECS_SCHED_ASSERT(0 && "corrupt command buffer");
        break;
    }
    if (!ok) return -1;
    cmd->read_at = end;
    cmd->read_entity = c.entity;
    return n + 1;
skipped:
    cmd->skipped++;
    cmd->read_at = end;
    cmd->read_entity = c.entity;
    return 1;
}

/* Applies the pending commands; the buffers it made with ecs_sched_commands_after go to the
   world's queue first. */
static ecs_sched_result ecs_sched__commands_apply(ecs_sched_commands *cmd) {
    ecs_sched__command_block *block;
    if (cmd->world->observed && ecs_sched__refused_in_observer(cmd->world, "applying commands")) {
        return ECS_SCHED_ERR_ACCESS;
    }
    if (cmd->companion && !cmd->companion->applying(cmd)) return cmd->world->env.last_result;
    cmd->skipped = 0;
    block = cmd->read;
    while (ecs_sched__command_step(cmd, &block, &cmd->read_at)) {
        int32_t consumed;
        cmd->read = block;
        consumed = ecs_sched__apply_one(cmd);
        if (consumed < 0) return cmd->world->env.last_result;
        cmd->pending -= consumed;
    }
    ecs_sched__release_reserved(cmd);  /* nothing is left to release: this just empties it */
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_commands_apply(ecs_sched_commands *cmd) {
    ECS_SCHED_ASSERT(cmd != NULL);
    if (cmd->delayed) {
        return ecs_sched__fail(&cmd->world->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "commands_apply: this buffer was made by ecs_sched_commands_after "
                               "and is applied by the world when its delay has passed; apply "
                               "the buffer that made it instead");
    }
    return ecs_sched__commands_apply(cmd);
}
