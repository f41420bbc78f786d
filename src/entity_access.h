/* entity_access: a component of one entity read, written in place, or added when missing
   (get, get_mut, ensure, emplace, modified, has, and several at once). */
#pragma once
#include "entity.h"

/* The entity's value, or NULL. A component the live entity lacks is a miss: NULL, and
   nothing recorded (see ERRORS). A stale handle, an unknown id or a tag is a failure. */
ECS_SCHED_API const void *ecs_sched_get(ecs_sched_world *world, ecs_sched_entity entity,
                                        ecs_sched_id id);
/* Get or add: the entity's own value of `id` to write (as ecs_sched_get_mut gives it), after
   adding a default one if it had none (its ctor hook, a copy of a base's value, or zeroed),
   which ON_ADD observers hear but not ON_INSERT or ON_SET: publish what you write with
   ecs_sched_modified. NULL on failure (a tag, a stale handle, an unknown id; inside an
   observer, where the add would be deferred). */
ECS_SCHED_API void *ecs_sched_ensure(ecs_sched_world *world, ecs_sched_entity entity,
                                     ecs_sched_id id);
/* Construct in place: like ecs_sched_ensure, but a new value is not constructed (no ctor
   hook): its bytes are zeroed, and the caller constructs it through the pointer before
   anything reads it, then publishes it with ecs_sched_modified. *is_new (may be NULL) tells
   whether it was added. Table components only. */
ECS_SCHED_API void *ecs_sched_emplace(ecs_sched_world *world, ecs_sched_entity entity,
                                      ecs_sched_id id, bool *is_new);
/* A value written through a pointer becomes a change: the entity's component is marked
   changed (tracked components) and ON_SET observers hear it. ECS_SCHED_ERR_MISSING_COMPONENT
   when the entity has no value of its own. */
ECS_SCHED_API ecs_sched_result ecs_sched_modified(ecs_sched_world *world, ecs_sched_entity entity,
                                                  ecs_sched_id id);
/* Several components of one entity found with one lookup of the entity: out[i] gets the
   value of ids[i], as ecs_sched_get (const) or ecs_sched_get_mut (overrides inherited ones
   first, then takes every pointer, so none is left stale by a move) would give it. All or
   nothing: ECS_SCHED_ERR_MISSING_COMPONENT when the entity lacks one (a miss, not recorded),
   or the failure of ecs_sched_get; out is then not to be used. */
ECS_SCHED_API ecs_sched_result ecs_sched_get_many(ecs_sched_world *world, ecs_sched_entity entity,
                                                  int32_t count, const ecs_sched_id *ids,
                                                  const void **out);
ECS_SCHED_API ecs_sched_result ecs_sched_get_mut_many(ecs_sched_world *world,
                                                      ecs_sched_entity entity, int32_t count,
                                                      const ecs_sched_id *ids, void **out);

/*@@ implementation @@*/

/* ---- get or add, construct in place, modified ---- */

/* What ensure, emplace and modified ask of their arguments: a live entity, a registered
   component with a value, kept in tables, and (a pointer being the answer) not from inside
   an observer, whose inserts are deferred. */
static bool ecs_sched__value_call_valid(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id,
                                        const char *operation) {
    if (!ecs_sched__is_live_record(w, e)) {
        ecs_sched__stale(w, e, operation);
        return false;
    }
    if (!ecs_sched__component_valid(w, id)) {
        ecs_sched__unknown_component(w, id, operation);
        return false;
    }
    if (w->components[id].size == 0 || w->components[id].relation) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "%s: '%s' is a %s and has no value of its own to write; %s", operation,
                        w->components[id].name, w->components[id].size ? "relationship kind" : "tag",
                        w->components[id].size ? "use ecs_sched_relate and ecs_sched_relation_payload"
                                               : "use ecs_sched_insert and ecs_sched_has");
        return false;
    }
    if (w->observed && ecs_sched__deferring(w)) {
        ecs_sched__refuse(&w->env, ECS_SCHED_ERR_ACCESS,
                          "%s of '%s' inside an observer, whose inserts are deferred: there is "
                          "no value to point to yet; insert it (deferred) and write it when the "
                          "insert is applied, or use ecs_sched_get_mut on a value it has",
                          operation, w->components[id].name);
        return false;
    }
    return true;
}

/* ensure and emplace of a table component the entity does not own: it moves to the table
   with it, the value constructed (ensure: its ctor hook, or a copy of what it inherited, or
   zeroed) or only zeroed (emplace: the caller constructs it), and ON_ADD observers hear it,
   not ON_INSERT or ON_SET (ecs_sched_modified publishes the value). The entity's value, or
   NULL. */
static void *ecs_sched__add_in_place(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id,
                                     bool construct, const char *operation) {
    const ecs_sched__component *c = &w->components[id];
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    ecs_sched__table *src = w->tables[w->records[index].table], *dst, *now;
    const void *base = NULL;
    bool found = false;
    void *cell;
    if (w->hooks.inherited_value) base = w->hooks.inherited_value(w, src, id, &found);
    dst = ecs_sched__table_step(w, src, id, false);
    if (!dst) return NULL;
    if (!ecs_sched__move_entity(w, index, dst)) {
        ecs_sched__out_of_memory(w, "moving an entity to a new archetype");
        return NULL;
    }
    cell = ecs_sched__cell(dst, ecs_sched__column_find(dst, id), w->records[index].row);
    if (construct) {
        ecs_sched__construct(c, cell, base, 1);
    } else {
        memset(cell, 0, c->size);
    }
    if (c->tracked) ecs_sched__ticks_inserted(w, dst, (int32_t)w->records[index].row, src, id);
    if (!w->observed) return cell;
    if (ecs_sched__observers_of(w)->monitors) ecs_sched__observe_moved(w, e, src);
    if (ecs_sched__watched(w, id, ECS_SCHED_ON_ADD)) ecs_sched__observe(w, ECS_SCHED_ON_ADD, e, id);
    ecs_sched__observers_flush(w);
    now = ecs_sched_is_alive(w, e) ? w->tables[w->records[index].table] : NULL;
    if (!now || ecs_sched__column_find(now, id) < 0) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_MISSING_COMPONENT,
                        "%s: an observer of '%s' took it (or the entity) away before it could "
                        "be written", operation, c->name);
        return NULL;
    }
    return ecs_sched__cell(now, ecs_sched__column_find(now, id), w->records[index].row);
}

/* ensure's add of a sparse component e lacks: its default value in its set, heard by ON_ADD
   observers only, as a table component's add is. Inside an observer the add is deferred (an
   insert: ensure then finds no value, as documented). */
static bool ecs_sched__sparse_add_default(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    ecs_sched__sparse_set *s = ecs_sched__sparse_of(w, id);
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    if (w->observed && ecs_sched__deferring(w)) return ecs_sched_insert(w, e, id, NULL) == ECS_SCHED_OK;
    if (ecs_sched__change_refused(w, "ensure")) return false;
    if ((s->count == s->capacity || index >= s->position_capacity) &&
        !ecs_sched__sparse_reserve_set(w, s, 1, index + 1)) {
        ecs_sched__out_of_memory(w, "adding a sparse component");
        return false;
    }
    ecs_sched__sparse_store(w, s, e, NULL);
    if (!w->observed) return true;
    if (ecs_sched__watched(w, id, ECS_SCHED_ON_ADD)) ecs_sched__observe(w, ECS_SCHED_ON_ADD, e, id);
    ecs_sched__observers_flush(w);
    return true;
}

void *ecs_sched_ensure(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__value_call_valid(w, e, id, "ensure")) return NULL;
    if (w->components[id].sparse) {   /* its set takes it */
        if (!ecs_sched_has(w, e, id) && !ecs_sched__sparse_add_default(w, e, id)) return NULL;
        return ecs_sched_get_mut(w, e, id);
    }
    if (ecs_sched__column_find(w->tables[w->records[ECS_SCHED_ENTITY_INDEX(e)].table], id) >= 0) {
        return ecs_sched_get_mut(w, e, id);
    }
    if (ecs_sched__change_refused(w, "ensure")) return NULL;
    return ecs_sched__add_in_place(w, e, id, true, "ensure");
}

void *ecs_sched_emplace(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id, bool *is_new) {
    void *value;
    ECS_SCHED__CHECK_WORLD(w);
    if (is_new) *is_new = false;
    if (!ecs_sched__value_call_valid(w, e, id, "emplace")) return NULL;
    if (w->components[id].sparse) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "emplace: '%s' is sparse; emplace constructs a table component in "
                        "place: use ecs_sched_ensure", w->components[id].name);
        return NULL;
    }
    if (ecs_sched__column_find(w->tables[w->records[ECS_SCHED_ENTITY_INDEX(e)].table], id) >= 0) {
        return ecs_sched_get_mut(w, e, id);
    }
    if (ecs_sched__change_refused(w, "emplace")) return NULL;
    value = ecs_sched__add_in_place(w, e, id, false, "emplace");
    if (value && is_new) *is_new = true;
    return value;
}

ecs_sched_result ecs_sched_modified(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    const ecs_sched__table *t;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__value_call_valid(w, e, id, "modified")) return w->env.last_result;
    t = w->tables[w->records[ECS_SCHED_ENTITY_INDEX(e)].table];
    if (w->components[id].sparse ? !ecs_sched_has(w, e, id) : ecs_sched__column_find(t, id) < 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_MISSING_COMPONENT,
                               "modified: the entity has no value of '%s' of its own (insert "
                               "it, or write an inherited one through ecs_sched_get_mut first)",
                               w->components[id].name);
    }
    if (w->components[id].tracked) ecs_sched__value_changed(w, e, id);
    if (w->observed && ecs_sched__watched(w, id, ECS_SCHED_ON_SET)) {
        ecs_sched__observe(w, ECS_SCHED_ON_SET, e, id);
        ecs_sched__observers_flush(w);
    }
    return ECS_SCHED_OK;
}

/* The values of an entity's own components, looked up once: false when one is not its own
   (or the entity is not live), and the caller goes the long way. */
static inline bool ecs_sched__owned_values(const ecs_sched_world *w, ecs_sched_entity e,
                                           int32_t count, const ecs_sched_id *ids, void **out) {
    const ecs_sched__record *r = ecs_sched__live_record(w, e);
    const ecs_sched__table *t;
    int32_t k;
    if (!r) return false;
    t = w->tables[r->table];
    for (k = 0; k < count; k++) {
        int32_t column = ecs_sched__column_find(t, ids[k]);
        if (column < 0) return false;
        out[k] = ecs_sched__cell(t, column, r->row);
    }
    return true;
}

/* The code of a NULL value: a miss (a live entity without the component), or the failure
   that was recorded. */
static ecs_sched_result ecs_sched__no_value(const ecs_sched_world *w, ecs_sched_entity e,
                                            ecs_sched_id id) {
    if (ecs_sched__is_live_record(w, e) && ecs_sched__component_valid(w, id) &&
        !ecs_sched_has(w, e, id)) {
        return ECS_SCHED_ERR_MISSING_COMPONENT;
    }
    return w->env.last_result;
}

static inline ecs_sched_result ecs_sched__many_refused(ecs_sched_world *w, int32_t count,
                                                       const ecs_sched_id *ids,
                                                       const char *operation) {
    if (count < 0 || (count > 0 && !ids)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "%s: %d components (ids must not be NULL)", operation,
                               (int)count);
    }
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_get_many(ecs_sched_world *w, ecs_sched_entity e, int32_t count,
                                    const ecs_sched_id *ids, const void **out) {
    int32_t k;
    ECS_SCHED__CHECK_WORLD(w);
    if (ecs_sched__many_refused(w, count, ids, "get_many") != ECS_SCHED_OK) {
        return w->env.last_result;
    }
    if (ecs_sched__owned_values(w, e, count, ids, (void **)(void *)out)) return ECS_SCHED_OK;
    for (k = 0; k < count; k++) {
        if (!(out[k] = ecs_sched__value(w, e, ids[k]))) return ecs_sched__no_value(w, e, ids[k]);
    }
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_get_mut_many(ecs_sched_world *w, ecs_sched_entity e, int32_t count,
                                        const ecs_sched_id *ids, void **out) {
    int32_t k;
    ECS_SCHED__CHECK_WORLD(w);
    if (ecs_sched__many_refused(w, count, ids, "get_mut_many") != ECS_SCHED_OK) {
        return w->env.last_result;
    }
    if (ecs_sched__owned_values(w, e, count, ids, out) && !w->hooks.inherited_value && !w->ticks_on) {
        return ECS_SCHED_OK;
    }
    /* every value there (owned or inherited) before the first override: all or nothing */
    for (k = 0; k < count; k++) {
        if (!ecs_sched_get(w, e, ids[k])) return ecs_sched__no_value(w, e, ids[k]);
    }
    /* overrides (which move the entity) and change ticks first, pointers after */
    for (k = 0; k < count; k++) {
        if (!ecs_sched_get_mut(w, e, ids[k])) return ecs_sched__no_value(w, e, ids[k]);
    }
    for (k = 0; k < count; k++) out[k] = ecs_sched__value(w, e, ids[k]);
    return ECS_SCHED_OK;
}

const void *ecs_sched_get(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    const void *value;
    ECS_SCHED__CHECK_WORLD(w);
    value = ecs_sched__mapped_value(w, e, id);
    return value ? value : ecs_sched__value_slow(w, e, id);
}

