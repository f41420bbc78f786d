/* sparse: components kept in sets of their own, outside the archetype tables. */
#pragma once
#include "observer.h"
#include "queue.h"

/*@@ implementation @@*/
/* sparse: components kept in sets of their own, outside the archetype tables.

   A component registered with .storage = ECS_SCHED_STORAGE_SPARSE is never part of an
   entity's table: entity.h leaves it out of every table it finds and hands it here. Its set
   packs the entities that have it in `members`, their values (and, tracked, their stamps) at
   the same positions, and keeps by entity index the position of each (+ 1). Adding appends,
   removing moves the last member into the hole: nothing else of the entity moves. What
   changes a set's members counts as a change of rows (rows_version): the lists of queries
   with sparse terms (query.h) are made again from it. */

/* a set for component `id`, made at registration. */
static bool ecs_sched__sparse_create(ecs_sched_world *w, ecs_sched_id id) {
    ecs_sched__sparse_set *s;
    if (w->sparse_count >= UINT16_MAX) return false;
    if (!ECS_SCHED__GROW(&w->env, w->sparse_sets, &w->sparse_capacity, w->sparse_count + 1)) {
        return false;
    }
    s = &w->sparse_sets[w->sparse_count++];
    memset(s, 0, sizeof *s);
    s->id = id;
    w->components[id].sparse = (uint16_t)w->sparse_count;
    return true;
}

static void ecs_sched__sparse_free(ecs_sched_world *w) {
    uint32_t i;
    for (i = 0; i < w->sparse_count; i++) {
        ecs_sched__sparse_set *s = &w->sparse_sets[i];
        ecs_sched__destruct(&w->components[s->id], s->values, (int32_t)s->count);
        ecs_sched__free(&w->env, s->position);
        ecs_sched__free(&w->env, s->members);
        ecs_sched__aligned_free(&w->env, s->values);
        ecs_sched__free(&w->env, s->stamps);
    }
    ecs_sched__free(&w->env, w->sparse_sets);
    w->sparse_sets = NULL;
    w->sparse_count = w->sparse_capacity = 0;
}

/* Room for `extra` more members, in place or in new blocks (values moved by the hooks). */
static bool ecs_sched__sparse_grow(ecs_sched_world *w, ecs_sched__sparse_set *s, uint32_t extra) {
    const ecs_sched__component *c = &w->components[s->id];
    uint32_t capacity = s->capacity ? s->capacity : 8;
    unsigned char *values = NULL;
    if ((uint64_t)s->count + extra > UINT32_MAX / 2) return false;
    while (capacity < s->count + extra) capacity *= 2;
    if (capacity == s->capacity) return true;
    if (c->size) {
        size_t alignment = c->alignment > 16 ? c->alignment : 16;
        values = (unsigned char *)ecs_sched__aligned_alloc(&w->env, (size_t)capacity * c->size,
                                                           alignment);
        if (!values) return false;
    }
    {
        uint32_t members_capacity = s->capacity, stamps_capacity = s->capacity;
        if (!ECS_SCHED__GROW(&w->env, s->members, &members_capacity, capacity) ||
            (c->tracked && !ECS_SCHED__GROW(&w->env, s->stamps, &stamps_capacity, capacity))) {
            ecs_sched__aligned_free(&w->env, values);
            return false;
        }
    }
    if (c->size) {
        ecs_sched__relocate(c, values, s->values, (int32_t)s->count);
        ecs_sched__aligned_free(&w->env, s->values);
        s->values = values;
        w->rows_version++;   /* the lists of queries point into the old block */
    }
    s->capacity = capacity;
    return true;
}

/* Room in set s for `entities` more members whose indices are below `bound`. */
static bool ecs_sched__sparse_reserve_set(ecs_sched_world *w, ecs_sched__sparse_set *s,
                                          uint32_t entities, uint32_t bound) {
    uint32_t had = s->position_capacity;
    if (s->count + entities > s->capacity && !ecs_sched__sparse_grow(w, s, entities)) return false;
    if (bound > had) {
        if (!ECS_SCHED__GROW(&w->env, s->position, &s->position_capacity, bound)) return false;
        memset(s->position + had, 0, (size_t)(s->position_capacity - had) * sizeof *s->position);
    }
    return true;
}

/* Room in the set of each sparse component among ids for `entities` more members whose
   indices are below `bound`: what follows cannot fail. */
static bool ecs_sched__sparse_reserve(ecs_sched_world *w, int32_t count, const ecs_sched_id *ids,
                                      uint32_t entities, uint32_t bound) {
    int32_t k;
    for (k = 0; k < count; k++) {
        ecs_sched__sparse_set *s = ecs_sched__sparse_of(w, ids[k]);
        if (s && !ecs_sched__sparse_reserve_set(w, s, entities, bound)) return false;
    }
    return true;
}

/* Room in the sets of the sparse components among ids that e does not have yet. */
static bool ecs_sched__sparse_reserve_for(ecs_sched_world *w, ecs_sched_entity e, int32_t count,
                                          const ecs_sched_id *ids) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    int32_t k;
    for (k = 0; k < count; k++) {
        ecs_sched__sparse_set *s = ecs_sched__sparse_of(w, ids[k]);
        if (s && !ecs_sched__sparse_slot(s, index) && !ecs_sched__sparse_reserve_set(w, s, 1, index + 1)) {
            return false;
        }
    }
    return true;
}

static inline void *ecs_sched__sparse_cell(const ecs_sched_world *w, const ecs_sched__sparse_set *s,
                                           uint32_t position) {
    return s->values + (size_t)position * w->components[s->id].size;
}

/* Gives e the component of set s (room reserved), or writes its value when it has it;
   value NULL: the default for a new one, no change for a present one. Tells no observer;
   returns whether the component is new to e. */
static bool ecs_sched__sparse_store(ecs_sched_world *w, ecs_sched__sparse_set *s,
                                    ecs_sched_entity e, const void *value) {
    const ecs_sched__component *c = &w->components[s->id];
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e), at = ecs_sched__sparse_slot(s, index);
    uint32_t tick = c->tracked ? ecs_sched__tick_now(w) : 0;
    bool added = at == 0;
    if (added) {
        at = ++s->count;
        s->members[at - 1] = e;
        s->position[index] = at;
        if (c->size) ecs_sched__construct(c, ecs_sched__sparse_cell(w, s, at - 1), value, 1);
        if (c->tracked) s->stamps[at - 1].added = tick;
        w->rows_version++;
    } else if (c->size && value) {
        ecs_sched__assign(c, ecs_sched__sparse_cell(w, s, at - 1), value);
    }
    if (c->tracked) s->stamps[at - 1].changed = tick;
    return added;
}

/* ecs_sched__sparse_store, heard by the observers as an insert: ON_ADD when new, ON_INSERT,
   then ON_SET, as a table component is (no base value to tell instances of: sparse components
   are not inherited). */
static void ecs_sched__sparse_put(ecs_sched_world *w, ecs_sched__sparse_set *s,
                                  ecs_sched_entity e, const void *value) {
    bool added = ecs_sched__sparse_store(w, s, e, value);
    if (w->observed) {
        if (added && ecs_sched__watched(w, s->id, ECS_SCHED_ON_ADD)) {
            ecs_sched__observe(w, ECS_SCHED_ON_ADD, e, s->id);
        }
        if (ecs_sched__watched(w, s->id, ECS_SCHED_ON_INSERT)) {
            ecs_sched__observe(w, ECS_SCHED_ON_INSERT, e, s->id);
        }
        if (ecs_sched__watched(w, s->id, ECS_SCHED_ON_SET)) {
            ecs_sched__observe(w, ECS_SCHED_ON_SET, e, s->id);
        }
    }
}

/* puts the sparse components among ids on e, room
   reserved; the value of ids[k] is values[k] (or its element `element`, for a batch). */
static void ecs_sched__sparse_put_given(ecs_sched_world *w, ecs_sched_entity e, int32_t count,
                                        const ecs_sched_id *ids, const void *const *values,
                                        size_t element) {
    int32_t k;
    for (k = 0; k < count; k++) {
        ecs_sched__sparse_set *s = ecs_sched__sparse_of(w, ids[k]);
        const unsigned char *value;
        if (!s) continue;
        value = values ? (const unsigned char *)values[k] : NULL;
        if (value) value += element * w->components[ids[k]].size;
        ecs_sched__sparse_put(w, s, e, value);
    }
}

/* ecs_sched_insert of a sparse component in a world
   without observers (with them, insert_many defers inside observers and calls them). */
static ecs_sched_result ecs_sched__sparse_insert(ecs_sched_world *w, ecs_sched_entity e,
                                                 ecs_sched_id id, const void *value) {
    ecs_sched__sparse_set *s = ecs_sched__sparse_of(w, id);
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    if (ecs_sched__change_refused(w, "insert")) return ECS_SCHED_ERR_ACCESS;
    if (!ecs_sched__is_live_record(w, e)) return ecs_sched__stale(w, e, "insert");
    if (!ecs_sched__sparse_slot(s, index) &&
        (s->count == s->capacity || index >= s->position_capacity) &&
        !ecs_sched__sparse_reserve_set(w, s, 1, index + 1)) {
        return ecs_sched__out_of_memory(w, "adding a sparse component");
    }
    ecs_sched__sparse_put(w, s, e, value);
    return ECS_SCHED_OK;
}

/* Takes the member at `at` (+ 1) out of s: its value destroyed, the last member moved into
   its place. */
static void ecs_sched__sparse_take_out(ecs_sched_world *w, ecs_sched__sparse_set *s, uint32_t at) {
    const ecs_sched__component *c = &w->components[s->id];
    uint32_t hole = at - 1, last = s->count - 1;
    ecs_sched_entity e = s->members[hole];
    if (c->tracked) ecs_sched__removed(w, s->id, e);
    if (c->size) ecs_sched__destruct(c, ecs_sched__sparse_cell(w, s, hole), 1);
    if (hole != last) {
        ecs_sched_entity moved = s->members[last];
        if (c->size) {
            ecs_sched__relocate(c, ecs_sched__sparse_cell(w, s, hole),
                                ecs_sched__sparse_cell(w, s, last), 1);
        }
        if (c->tracked) s->stamps[hole] = s->stamps[last];
        s->members[hole] = moved;
        s->position[ECS_SCHED_ENTITY_INDEX(moved)] = at;
    }
    s->position[ECS_SCHED_ENTITY_INDEX(e)] = 0;
    s->count = last;
    w->rows_version++;
}

/* ecs_sched_remove of a sparse component (entity.h applies what observers defer). */
static void ecs_sched__sparse_remove(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    ecs_sched__sparse_set *s = ecs_sched__sparse_of(w, id);
    uint32_t at = ecs_sched__sparse_slot(s, ECS_SCHED_ENTITY_INDEX(e));
    if (!at) return;
    /* observers see the value still; what they change is deferred */
    if (w->observed) ecs_sched__observe_removing(w, e, id);
    ecs_sched__sparse_take_out(w, s, at);
}

/* an entity about to be despawned loses its sparse
   components: the observers of ON_REMOVE hear of each first, ... */
static void ecs_sched__sparse_observe_despawning(ecs_sched_world *w, ecs_sched_entity e) {
    uint32_t i, index = ECS_SCHED_ENTITY_INDEX(e);
    for (i = 0; i < w->sparse_count; i++) {
        if (ecs_sched__sparse_slot(&w->sparse_sets[i], index)) {
            ecs_sched__observe_removing(w, e, w->sparse_sets[i].id);
        }
    }
}

/* ... then every set lets it go. */
static void ecs_sched__sparse_drop(ecs_sched_world *w, uint32_t index) {
    uint32_t i;
    for (i = 0; i < w->sparse_count; i++) {
        ecs_sched__sparse_set *s = &w->sparse_sets[i];
        uint32_t at = ecs_sched__sparse_slot(s, index);
        if (at) ecs_sched__sparse_take_out(w, s, at);
    }
}

/* the value of a sparse component of a live entity
   (NULL: it does not have it, or it is a tag). */
static void *ecs_sched__sparse_value(const ecs_sched_world *w, ecs_sched_id id, uint32_t index) {
    const ecs_sched__sparse_set *s = ecs_sched__sparse_of(w, id);
    uint32_t at = ecs_sched__sparse_slot(s, index);
    return at && s->values ? ecs_sched__sparse_cell(w, s, at - 1) : NULL;
}


/* ecs_sched_world_check: every member is live and found where its position says. */
static ecs_sched_result ecs_sched__check_sparse(ecs_sched_world *w) {
    uint32_t i, k, n;
    for (i = 0; i < w->sparse_count; i++) {
        const ecs_sched__sparse_set *s = &w->sparse_sets[i];
        for (k = 0; k < s->count; k++) {
            ecs_sched_entity e = s->members[k];
            if (!ecs_sched__is_live_record(w, e) ||
                ecs_sched__sparse_slot(s, ECS_SCHED_ENTITY_INDEX(e)) != k + 1) {
                return ecs_sched__inconsistent(w, "sparse set member", s->id, k);
            }
        }
        for (k = 0, n = 0; k < s->position_capacity; k++) n += s->position[k] != 0;
        if (n != s->count) return ecs_sched__inconsistent(w, "sparse set positions", s->id, n);
    }
    return ECS_SCHED_OK;
}
