/* table_graph: the table an entity moves to when it gains or loses a component, found by a
   step along an edge or by its type, and made when it is new. */
#pragma once
#include "query.h"

/*@@ implementation @@*/
/* table_graph: finding and making tables. A new table is offered to every query (query.h),
   which is why making one sits above the queries and the tables themselves below. */

/* Creates the table of a sorted type and registers it with every query. Every allocation
   happens before the world changes, so a failure leaves it as it was. */
static ecs_sched__table *ecs_sched__table_create(ecs_sched_world *w, const ecs_sched_id *type,
                                                 int32_t count, uint64_t hash) {
    ecs_sched__table *t;
    int32_t i, columns = 0, tracked = 0, toggleable = 0;
    uint32_t map = 0;
    size_t bytes, map_bytes;
    unsigned char *block;
    for (i = 0; i < count; i++) {
        if (w->components[type[i]].size > 0) {
            columns++;
            map = type[i] + 1;   /* the type is sorted: the last sized id decides */
        }
        tracked += w->components[type[i]].tracked;
        toggleable += w->components[type[i]].toggleable;
    }
    if (map > ECS_SCHED__COLUMN_MAP_MAX) map = 0;
    if (!ECS_SCHED__GROW(&w->env, w->tables, &w->table_capacity, w->table_count + 1) ||
        !ecs_sched__map_reserve(&w->env, &w->types, 1)) {
        ecs_sched__out_of_memory(w, "creating an archetype table");
        return NULL;
    }
    if (!ecs_sched__queries_reserve_match(w)) {
        ecs_sched__out_of_memory(w, "creating an archetype table");
        return NULL;
    }
    /* the map's bytes, rounded up to a multiple of 8: the columns after it hold pointers */
    map_bytes = ((size_t)map * sizeof(int16_t) + 7u) & ~(size_t)7u;
    bytes = sizeof *t + map_bytes + (size_t)columns * sizeof(ecs_sched__column) +
            (size_t)tracked * sizeof(ecs_sched__ticks) +
            (size_t)toggleable * sizeof(ecs_sched__toggle) + (size_t)count * sizeof(ecs_sched_id);
    block = (unsigned char *)ecs_sched__calloc(&w->env, bytes);
    if (!block) {
        ecs_sched__out_of_memory(w, "creating an archetype table");
        return NULL;
    }
    /* one block: the table, then its map from id to column, its columns, its tick columns,
       its toggles and its type */
    t = (ecs_sched__table *)(void *)block;
    block += sizeof *t + map_bytes;
    t->columns = (ecs_sched__column *)(void *)block;
    block += (size_t)columns * sizeof *t->columns;
    t->ticks = (ecs_sched__ticks *)(void *)block;
    block += (size_t)tracked * sizeof *t->ticks;
    t->toggles = (ecs_sched__toggle *)(void *)block;
    block += (size_t)toggleable * sizeof *t->toggles;
    t->type = (ecs_sched_id *)(void *)block;
    t->type_count = count;
    if (count) memcpy(t->type, type, (size_t)count * sizeof *type);
    for (i = 0; i < count; i++) {
        uint32_t size = w->components[type[i]].size;
        t->id_bits |= ecs_sched__id_bit(type[i]);
        if (w->components[type[i]].tracked) t->ticks[t->tick_count++].id = type[i];
        if (w->components[type[i]].toggleable) t->toggles[t->toggle_count++].id = type[i];
        if (size == 0) continue;
        t->hooked |= w->components[type[i]].hooks.move != NULL ||
                     w->components[type[i]].hooks.dtor != NULL;
        t->columns[t->column_count].id = type[i];
        t->columns[t->column_count].size = size;
        t->column_count++;
    }
    t->column_map = map;
    if (map) {
        int16_t *column_of = ecs_sched__column_map_to_fill(t);
        for (i = 0; i < (int32_t)map; i++) column_of[i] = -1;
        for (i = 0; i < t->column_count; i++) column_of[t->columns[i].id] = (int16_t)i;
    }
    t->index = w->table_count;
    w->tables[w->table_count++] = t;
    ecs_sched__map_insert_unchecked(&w->types, hash, t->index);
    ecs_sched__queries_add_table(w, t);
    return t;
}

static ecs_sched__table *ecs_sched__table_ensure(ecs_sched_world *w, const ecs_sched_id *type,
                                                 int32_t count) {
    uint64_t hash = ecs_sched__hash_type(type, count);
    ecs_sched__table *t = ecs_sched__table_find(w, type, count, hash);
    return t ? t : ecs_sched__table_create(w, type, count, hash);
}

static inline uint64_t ecs_sched__edge_key(const ecs_sched__table *t, ecs_sched_id id, bool removing) {
    return ((uint64_t)t->index << 33) | ((uint64_t)id << 1) | (removing ? 1u : 0u);
}

/* Remembers in `from` that the step by `key` leads to table `to`. */
static inline void ecs_sched__remember_step(ecs_sched__table *from, uint32_t key, uint32_t to) {
    ecs_sched__step *step = &from->steps[key % ECS_SCHED__TABLE_STEPS];
    step->key = key;
    step->table = to;
}

/* The table reached from t by a new step: through the world's edges, or made. */
ECS_SCHED__NOINLINE static ecs_sched__table *ecs_sched__table_step_new(ecs_sched_world *w,
                                                                     ecs_sched__table *t,
                                                                     ecs_sched_id id,
                                                                     bool removing) {
    ecs_sched_id type[ECS_SCHED__MAX_TYPE];
    ecs_sched__table *next;
    int32_t i, n = 0;
    uint32_t key = id * 2u + (removing ? 1u : 0u);
    uint32_t cached = ecs_sched__map_get(&w->edges, ecs_sched__edge_key(t, id, removing));
    if (cached != ECS_SCHED__NONE) {
        ecs_sched__remember_step(t, key, cached);
        return w->tables[cached];
    }
    if (!removing && t->type_count >= ECS_SCHED__MAX_TYPE) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_LIMIT,
                        "adding '%s' would give an entity more than %d components",
                        ecs_sched__component_label(w, id), ECS_SCHED__MAX_TYPE);
        return NULL;
    }
    for (i = 0; i < t->type_count; i++) {
        if (!removing && n == i && id < t->type[i]) type[n++] = id;  /* keep the type sorted */
        if (t->type[i] != id) type[n++] = t->type[i];
    }
    if (!removing && n == t->type_count) type[n++] = id;
    next = ecs_sched__table_ensure(w, type, n);
    if (!next) return NULL;
    if (!ecs_sched__map_reserve(&w->env, &w->edges, 2)) {
        ecs_sched__out_of_memory(w, "caching an archetype edge");
        return NULL;
    }
    ecs_sched__map_insert_unchecked(&w->edges, ecs_sched__edge_key(t, id, removing), next->index);
    ecs_sched__map_insert_unchecked(&w->edges, ecs_sched__edge_key(next, id, !removing), t->index);
    ecs_sched__remember_step(t, key, next->index);
    ecs_sched__remember_step(next, key ^ 1u, t->index);
    return next;
}

/* The table reached from t by adding (or removing) one component: the step t remembers, else
   the world's edge (a hash lookup), else a table made. Tables are never freed before the
   world, so a remembered step stays true. */
static inline ecs_sched__table *ecs_sched__table_step(ecs_sched_world *w, ecs_sched__table *t,
                                                      ecs_sched_id id, bool removing) {
    uint32_t key = id * 2u + (removing ? 1u : 0u);
    const ecs_sched__step *step = &t->steps[key % ECS_SCHED__TABLE_STEPS];
    if (step->key == key) return w->tables[step->table];
    return ecs_sched__table_step_new(w, t, id, removing);
}

