/* bulk: one call for every entity with a component (removing it, despawning them), or
   every entity a query matches (inserting or removing a component): whole tables move.
   Without relationships (ECS_SCHED_NO_RELATIONS) the pair forms are left out. */
#pragma once
#include "iter.h"
#include "relation.h"

/* Removes component `id` from every entity that has it (disabled entities and prefabs too).
   A relationship kind: every relationship of the kind. */
ECS_SCHED_API ecs_sched_result ecs_sched_remove_all(ecs_sched_world *world, ecs_sched_id id);
/* Despawns every entity that has component `id`, as ecs_sched_despawn would each. */
ECS_SCHED_API ecs_sched_result ecs_sched_delete_with(ecs_sched_world *world, ecs_sched_id id);
/* Inserts component `id` (a copy of *value; NULL: as ecs_sched_insert) on every entity the
   query matches, or removes it from every one. */
ECS_SCHED_API ecs_sched_result ecs_sched_query_insert(ecs_sched_world *world,
                                                      ecs_sched_query *query, ecs_sched_id id,
                                                      const void *value);
ECS_SCHED_API ecs_sched_result ecs_sched_query_remove(ecs_sched_world *world,
                                                      ecs_sched_query *query, ecs_sched_id id);
#ifndef ECS_SCHED_NO_RELATIONS
/* Every relationship (source, kind, target) goes: each source that relates to target with
   the kind loses it. */
ECS_SCHED_API ecs_sched_result ecs_sched_remove_all_pairs(ecs_sched_world *world,
                                                          ecs_sched_id kind,
                                                          ecs_sched_entity target);
/* Despawns every entity related to target by the kind (for ChildOf: all the children of a
   parent, and theirs in turn, by ChildOf's rules). */
ECS_SCHED_API ecs_sched_result ecs_sched_delete_with_pair(ecs_sched_world *world,
                                                          ecs_sched_id kind,
                                                          ecs_sched_entity target);
#endif

/*@@ implementation @@*/
/* bulk: operations on many entities at once.

   Where the storage allows it, a table moves whole: the destination of each table is found
   (or made) and given room for all its rows first, then every table's rows move, one block
   per column (ecs_sched__move_rows, table.h); such a call either does everything or, out of
   memory, nothing. Where observers watch the component, where relationships keep lists
   beside the rows, where a component lives in a sparse set or a query filters rows, the
   entities are gathered first and each goes through the operation on one entity
   (entity.h, relation.h), which keeps every rule those paths keep. */

/* ---- what every operation checks first ---- */

/* Refused: inside an observer (whose changes are deferred one by one, and these are no
   single change), or through the world while a system that is not exclusive runs. */
static ecs_sched_result ecs_sched__bulk_refused(ecs_sched_world *w, const char *operation) {
    if (w->observed && ecs_sched__refused_in_observer(w, operation)) return ECS_SCHED_ERR_ACCESS;
    if (ecs_sched__change_refused(w, operation)) return ECS_SCHED_ERR_ACCESS;
    return ECS_SCHED_OK;
}

/* A component a bulk operation may take away: registered, and not a mark the library keeps. */
static ecs_sched_result ecs_sched__bulk_check_id(ecs_sched_world *w, ecs_sched_id id,
                                                 const char *operation) {
    if (!ecs_sched__component_valid(w, id)) return ecs_sched__unknown_component(w, id, operation);
    if (w->components[id].managed) return ecs_sched__mark_touched(w, id, operation);
    return ECS_SCHED_OK;
}

/* A query given to a query operation: one of this world's. */
static ecs_sched_result ecs_sched__bulk_check_query(ecs_sched_world *w, const ecs_sched_query *q,
                                                    const char *operation) {
    if (!q) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "%s: the query is NULL (make one with ecs_sched_query_create)",
                               operation);
    }
    if (q->world != w) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "%s: the query belongs to another world; make it with "
                               "ecs_sched_query_create on the world it changes", operation);
    }
    return ECS_SCHED_OK;
}

/* ---- lists gathered before anything changes ---- */

/* Entities, or tables, gathered first: what an operation changes may change what would be
   found (tables made, rows moved, entities despawned by a rule or an observer). */
typedef struct ecs_sched__bulk_list {
    ecs_sched_entity *entities;
    uint32_t count, capacity;
} ecs_sched__bulk_list;

static bool ecs_sched__bulk_append(ecs_sched_world *w, ecs_sched__bulk_list *list,
                                   const ecs_sched_entity *entities, uint32_t n) {
    if (!ECS_SCHED__GROW(&w->env, list->entities, &list->capacity, list->count + n)) return false;
    memcpy(list->entities + list->count, entities, (size_t)n * sizeof *entities);
    list->count += n;
    return true;
}

/* Every entity that has component `id`: the members of its sparse set, or the rows of the
   tables that hold it. */
static bool ecs_sched__gather_having(ecs_sched_world *w, ecs_sched_id id, ecs_sched__bulk_list *list) {
    uint32_t i;
    if (w->components[id].sparse) {
        const ecs_sched__sparse_set *s = ecs_sched__sparse_of(w, id);
        return s->count == 0 || ecs_sched__bulk_append(w, list, s->members, s->count);
    }
    for (i = 0; i < w->table_count; i++) {
        const ecs_sched__table *t = w->tables[i];
        if (t->count && ecs_sched__table_has(t, id) &&
            !ecs_sched__bulk_append(w, list, t->entities, (uint32_t)t->count)) {
            return false;
        }
    }
    return true;
}

/* Whether a query hands out every row of each table it matches: no term filters rows
   (added or changed terms, related terms, terms on sparse components, a parent's required
   component). */
static bool ecs_sched__query_takes_tables(const ecs_sched_query *q) {
    int32_t i;
    if (q->filtered || q->related || q->sparse) return false;
    for (i = 0; i < q->term_count; i++) {
        if (q->terms[i].kind == ECS_SCHED_TERM_FROM_PARENT) return false;
    }
    return true;
}

/* Every entity the query matches, as an iteration hands them out; what the query writes is
   not marked changed by looking (a query that filters on changes looks at them, and its
   window moves on, as in any iteration outside systems). */
static bool ecs_sched__gather_matched(ecs_sched_world *w, ecs_sched_query *q,
                                      ecs_sched__bulk_list *list) {
    bool marks = q->marks, sparse_marks = q->sparse_marks, ok = true;
    ecs_sched_iter it;
    q->marks = q->sparse_marks = false;
    it = ecs_sched_query_iter(q);
    while (ok && ecs_sched_iter_next(&it)) {
        ok = ecs_sched__bulk_append(w, list, it.entities, (uint32_t)it.count);
    }
    q->marks = marks;
    q->sparse_marks = sparse_marks;
    return ok;
}

/* A table gathered for a whole move: its rows then, and where they go. */
typedef struct ecs_sched__bulk_table {
    ecs_sched__table *table;
    ecs_sched__table *to;
    int32_t rows;
} ecs_sched__bulk_table;

typedef struct ecs_sched__bulk_tables {
    ecs_sched__bulk_table *items;
    uint32_t count, capacity;
} ecs_sched__bulk_tables;

static bool ecs_sched__bulk_table_add(ecs_sched_world *w, ecs_sched__bulk_tables *tables,
                                      ecs_sched__table *t) {
    if (!ECS_SCHED__GROW(&w->env, tables->items, &tables->capacity, tables->count + 1)) return false;
    tables->items[tables->count].table = t;
    tables->items[tables->count].to = NULL;
    tables->items[tables->count].rows = t->count;
    tables->count++;
    return true;
}

/* Finds (or makes) where each table goes, with `id` added or removed, and room there for its
   rows: after this nothing can fail. Distinct tables that lack (or have) `id` go to
   distinct tables, so each destination makes room for one source. */
static ecs_sched_result ecs_sched__bulk_prepare(ecs_sched_world *w, ecs_sched__bulk_tables *tables,
                                                ecs_sched_id id, bool removing,
                                                const char *operation) {
    uint32_t i;
    for (i = 0; i < tables->count; i++) {
        ecs_sched__bulk_table *b = &tables->items[i];
        if (ecs_sched__table_has(b->table, id) != removing) {
            b->to = b->table;   /* nothing moves: an insert writes the values in place */
            continue;
        }
        b->to = ecs_sched__table_step(w, b->table, id, removing);
        if (!b->to) return ecs_sched__fail_again_for(w, operation);
        if (!ecs_sched__table_reserve(w, b->to, b->rows)) {
            char what[160];
            snprintf(what, sizeof what, "%s: moving %d entities to a new archetype", operation,
                     (int)b->rows);
            return ecs_sched__out_of_memory(w, what);
        }
    }
    return ECS_SCHED_OK;
}

/* ---- despawning ---- */

/* Despawns every row of t, in a world without observers or links: what despawning each
   would do (ecs_sched__despawn_live), with each column destroyed as one block. */
static void ecs_sched__despawn_rows(ecs_sched_world *w, ecs_sched__table *t) {
    int32_t n = t->count, i, row;
    for (i = 0; i < t->tick_count; i++) {
        for (row = 0; row < n; row++) ecs_sched__removed(w, t->ticks[i].id, t->entities[row]);
    }
    ecs_sched__ticks_leave_all(t);
    for (i = 0; t->hooked && i < t->column_count; i++) {
        ecs_sched__destruct(&w->components[t->columns[i].id], t->columns[i].data, n);
    }
    for (row = 0; row < n; row++) {
        uint32_t index = ECS_SCHED_ENTITY_INDEX(t->entities[row]);
        if (w->sparse_count) ecs_sched__sparse_drop(w, index);
        ecs_sched__release_index(w, index);
    }
    if (t->toggle_count) ecs_sched__toggles_clear(t);
    t->count = 0;
    w->alive_count -= n;
    w->rows_version++;
}

/* Despawns the gathered entities one by one (skipping those gone already: taken along by a
   rule, or by what an observer did). A despawn a kind refuses (ECS_SCHED_TARGET_REFUSE) is
   tried again after the others, while some go; what is still refused then stays, and the
   call returns the refusal. Frees the list. */
static ecs_sched_result ecs_sched__despawn_each(ecs_sched_world *w, ecs_sched__bulk_list *list,
                                                const char *operation) {
    ecs_sched_result result = ECS_SCHED_OK;
    bool progress = true;
    while (list->count && progress && result == ECS_SCHED_OK) {
        uint32_t i, kept = 0;
        progress = false;
        for (i = 0; i < list->count && result == ECS_SCHED_OK; i++) {
            ecs_sched_entity e = list->entities[i];
            ecs_sched_result r;
            if (!ecs_sched__is_live_record(w, e)) continue;
            r = ecs_sched_despawn(w, e);
            if (r == ECS_SCHED_OK) progress = true;
            else if (r == ECS_SCHED_ERR_REFUSED) list->entities[kept++] = e;
            else result = r;
        }
        list->count = kept;
    }
    if (result == ECS_SCHED_OK && list->count) result = ecs_sched__fail_again_for(w, operation);
    ecs_sched__free(&w->env, list->entities);
    return result;
}

/* ---- removing and inserting one by one ---- */

/* ecs_sched_remove on each gathered entity still alive. Frees the list. */
static ecs_sched_result ecs_sched__remove_each(ecs_sched_world *w, ecs_sched__bulk_list *list,
                                               ecs_sched_id id) {
    ecs_sched_result result = ECS_SCHED_OK;
    uint32_t i;
    for (i = 0; i < list->count && result == ECS_SCHED_OK; i++) {
        if (ecs_sched__is_live_record(w, list->entities[i])) {
            result = ecs_sched_remove(w, list->entities[i], id);
        }
    }
    ecs_sched__free(&w->env, list->entities);
    return result;
}

/* ecs_sched_insert on each gathered entity still alive. Frees the list. */
static ecs_sched_result ecs_sched__insert_each(ecs_sched_world *w, ecs_sched__bulk_list *list,
                                               ecs_sched_id id, const void *value) {
    ecs_sched_result result = ECS_SCHED_OK;
    uint32_t i;
    for (i = 0; i < list->count && result == ECS_SCHED_OK; i++) {
        if (ecs_sched__is_live_record(w, list->entities[i])) {
            result = ecs_sched_insert(w, list->entities[i], id, value);
        }
    }
    ecs_sched__free(&w->env, list->entities);
    return result;
}

/* ---- whole tables ---- */

/* Moves each gathered table's rows to the table without `id` (prepared), and logs the
   removals of a tracked component. */
static void ecs_sched__remove_tables(ecs_sched_world *w, const ecs_sched__bulk_tables *tables,
                                     ecs_sched_id id) {
    bool tracked = w->components[id].tracked;
    uint32_t i;
    for (i = 0; i < tables->count; i++) {
        ecs_sched__table *dst = tables->items[i].to;
        int32_t first = dst->count, row;
        if (dst == tables->items[i].table) continue;
        ecs_sched__move_rows(w, tables->items[i].table, dst);
        for (row = first; tracked && row < dst->count; row++) {
            ecs_sched__removed(w, id, dst->entities[row]);
        }
    }
}

/* The value of `id` for the rows [first, first + n) of t, new (raw after a move: `fresh`) or
   written over; a tracked component's ticks say added (when new) and changed now. */
static void ecs_sched__insert_rows(ecs_sched_world *w, ecs_sched__table *t, int32_t first,
                                   int32_t n, ecs_sched_id id, const void *value,
                                   const ecs_sched__table *before) {
    const ecs_sched__component *c = &w->components[id];
    bool fresh = ecs_sched__type_find(before, id) < 0;
    int32_t row;
    if (c->size) {
        int32_t column = ecs_sched__column_find(t, id);
        unsigned char *cell = (unsigned char *)ecs_sched__cell(t, column, (uint32_t)first);
        if (fresh && !value) {
            ecs_sched__construct(c, cell, NULL, n);
        } else {
            for (row = 0; row < n; row++, cell += c->size) {
                if (fresh) ecs_sched__construct(c, cell, value, 1);
                else ecs_sched__assign(c, cell, value);
            }
        }
    }
    for (row = first; c->tracked && row < first + n; row++) {
        ecs_sched__ticks_inserted(w, t, row, before, id);
    }
}

/* Moves each gathered table's rows to the table with `id` (prepared) and gives them the
   value; a table that has it already gets the value written over the rows it had when
   gathered. */
static void ecs_sched__insert_tables(ecs_sched_world *w, const ecs_sched__bulk_tables *tables,
                                     ecs_sched_id id, const void *value) {
    uint32_t i;
    for (i = 0; i < tables->count; i++) {
        ecs_sched__table *src = tables->items[i].table, *dst = tables->items[i].to;
        int32_t first = dst->count;
        if (dst == src) {
            ecs_sched__insert_rows(w, src, 0, tables->items[i].rows, id, value, src);
            continue;
        }
        ecs_sched__move_rows(w, src, dst);
        ecs_sched__insert_rows(w, dst, first, dst->count - first, id, value, src);
    }
}

/* Whether a bulk insert must go entity by entity: observers hear of it, or a NULL value is
   taken from a base (an override, per instance: ecs_sched_insert). */
static bool ecs_sched__insert_one_by_one(const ecs_sched_world *w, ecs_sched_id id,
                                         const void *value) {
    return w->components[id].sparse ||
           (w->observed && (ecs_sched__watched(w, id, ECS_SCHED_ON_ADD) ||
                            ecs_sched__watched(w, id, ECS_SCHED_ON_INSERT))) ||
           (!value && w->hooks.inherited_value);
}

/* Whether a bulk removal must go entity by entity: observers hear of it, or relationships
   keep lists beside the rows, or the component lives in a sparse set. */
static bool ecs_sched__remove_one_by_one(const ecs_sched_world *w, ecs_sched_id id) {
    return w->components[id].sparse || w->components[id].relation ||
           (w->observed && ecs_sched__watched(w, id, ECS_SCHED_ON_REMOVE));
}

/* ---- the operations ---- */

ecs_sched_result ecs_sched_remove_all(ecs_sched_world *w, ecs_sched_id id) {
    ecs_sched__bulk_tables tables = {NULL, 0, 0};
    ecs_sched_result result;
    uint32_t i;
    ECS_SCHED__CHECK_WORLD(w);
    if ((result = ecs_sched__bulk_refused(w, "remove_all")) != ECS_SCHED_OK) return result;
    if ((result = ecs_sched__bulk_check_id(w, id, "remove_all")) != ECS_SCHED_OK) return result;
    if (ecs_sched__remove_one_by_one(w, id)) {
        ecs_sched__bulk_list list = {NULL, 0, 0};
        if (!ecs_sched__gather_having(w, id, &list)) {
            ecs_sched__free(&w->env, list.entities);
            return ecs_sched__out_of_memory(w, "remove_all: gathering the entities");
        }
        return ecs_sched__remove_each(w, &list, id);
    }
    for (i = 0; i < w->table_count; i++) {
        ecs_sched__table *t = w->tables[i];
        if (t->count && ecs_sched__table_has(t, id) && !ecs_sched__bulk_table_add(w, &tables, t)) {
            ecs_sched__free(&w->env, tables.items);
            return ecs_sched__out_of_memory(w, "remove_all: gathering the tables");
        }
    }
    result = ecs_sched__bulk_prepare(w, &tables, id, true, "remove_all");
    if (result == ECS_SCHED_OK) ecs_sched__remove_tables(w, &tables, id);
    ecs_sched__free(&w->env, tables.items);
    return result;
}

ecs_sched_result ecs_sched_delete_with(ecs_sched_world *w, ecs_sched_id id) {
    ecs_sched__bulk_list list = {NULL, 0, 0};
    ecs_sched_result result;
    uint32_t i;
    ECS_SCHED__CHECK_WORLD(w);
    if ((result = ecs_sched__bulk_refused(w, "delete_with")) != ECS_SCHED_OK) return result;
    if (!ecs_sched__component_valid(w, id)) return ecs_sched__unknown_component(w, id, "delete_with");
    if (!w->observed && !w->linked && !w->components[id].sparse) {
        for (i = 0; i < w->table_count; i++) {
            ecs_sched__table *t = w->tables[i];
            if (t->count && ecs_sched__table_has(t, id)) ecs_sched__despawn_rows(w, t);
        }
        return ECS_SCHED_OK;
    }
    if (!ecs_sched__gather_having(w, id, &list)) {
        ecs_sched__free(&w->env, list.entities);
        return ecs_sched__out_of_memory(w, "delete_with: gathering the entities");
    }
    return ecs_sched__despawn_each(w, &list, "delete_with");
}

/* The tables of the query's matches that it hands out (an inheriting query's bases have what
   it asks), with rows. */
static bool ecs_sched__gather_matched_tables(ecs_sched_world *w, const ecs_sched_query *q,
                                             ecs_sched__bulk_tables *tables) {
    uint32_t i;
    for (i = 0; i < q->match_count; i++) {
        const ecs_sched__match *m = &q->matches[i];
        if (m->table->count && ecs_sched__match_resolves(q, m) &&
            !ecs_sched__bulk_table_add(w, tables, m->table)) {
            return false;
        }
    }
    return true;
}

/* The entities of the gathered tables. */
static bool ecs_sched__tables_entities(ecs_sched_world *w, const ecs_sched__bulk_tables *tables,
                                       ecs_sched__bulk_list *list) {
    uint32_t i;
    for (i = 0; i < tables->count; i++) {
        const ecs_sched__table *t = tables->items[i].table;
        if (!ecs_sched__bulk_append(w, list, t->entities, (uint32_t)t->count)) return false;
    }
    return true;
}

/* A query operation: the matched tables moved whole when the query takes whole tables and
   the component allows it, else the matched entities one by one. */
static ecs_sched_result ecs_sched__query_bulk(ecs_sched_world *w, ecs_sched_query *q,
                                              ecs_sched_id id, const void *value, bool removing,
                                              const char *operation) {
    ecs_sched__bulk_tables tables = {NULL, 0, 0};
    ecs_sched__bulk_list list = {NULL, 0, 0};
    bool whole = ecs_sched__query_takes_tables(q);
    bool one_by_one = removing ? ecs_sched__remove_one_by_one(w, id)
                               : ecs_sched__insert_one_by_one(w, id, value);
    ecs_sched_result result;
    if (whole && !ecs_sched__gather_matched_tables(w, q, &tables)) goto out_of_memory;
    if (!whole || one_by_one) {
        if (whole ? !ecs_sched__tables_entities(w, &tables, &list)
                  : !ecs_sched__gather_matched(w, q, &list)) {
            goto out_of_memory;
        }
        ecs_sched__free(&w->env, tables.items);
        return removing ? ecs_sched__remove_each(w, &list, id)
                        : ecs_sched__insert_each(w, &list, id, value);
    }
    result = ecs_sched__bulk_prepare(w, &tables, id, removing, operation);
    if (result == ECS_SCHED_OK) {
        if (removing) ecs_sched__remove_tables(w, &tables, id);
        else ecs_sched__insert_tables(w, &tables, id, value);
    }
    ecs_sched__free(&w->env, tables.items);
    return result;
out_of_memory:
    ecs_sched__free(&w->env, tables.items);
    ecs_sched__free(&w->env, list.entities);
    {
        char what[96];
        snprintf(what, sizeof what, "%s: gathering what the query matches", operation);
        return ecs_sched__out_of_memory(w, what);
    }
}

ecs_sched_result ecs_sched_query_insert(ecs_sched_world *w, ecs_sched_query *q, ecs_sched_id id,
                                        const void *value) {
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    if ((result = ecs_sched__bulk_refused(w, "query_insert")) != ECS_SCHED_OK) return result;
    if ((result = ecs_sched__bulk_check_query(w, q, "query_insert")) != ECS_SCHED_OK) return result;
    if ((result = ecs_sched__check_ids(w, 1, &id, "query_insert")) != ECS_SCHED_OK) return result;
    return ecs_sched__query_bulk(w, q, id, value, false, "query_insert");
}

ecs_sched_result ecs_sched_query_remove(ecs_sched_world *w, ecs_sched_query *q, ecs_sched_id id) {
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    if ((result = ecs_sched__bulk_refused(w, "query_remove")) != ECS_SCHED_OK) return result;
    if ((result = ecs_sched__bulk_check_query(w, q, "query_remove")) != ECS_SCHED_OK) return result;
    if ((result = ecs_sched__bulk_check_id(w, id, "query_remove")) != ECS_SCHED_OK) return result;
    return ecs_sched__query_bulk(w, q, id, NULL, true, "query_remove");
}

#ifndef ECS_SCHED_NO_RELATIONS
/* The sources that relate to target with the kind, gathered; checks the kind and target. */
static ecs_sched_result ecs_sched__gather_sources(ecs_sched_world *w, ecs_sched_id kind,
                                                  ecs_sched_entity target,
                                                  ecs_sched__bulk_list *list,
                                                  const char *operation) {
    const ecs_sched_entity *sources;
    int32_t n = 0;
    if (!ecs_sched__component_valid(w, kind)) return ecs_sched__unknown_component(w, kind, operation);
    if (!w->components[kind].relation) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "%s: '%s' is not a relationship kind (register one with "
                               "ecs_sched_relation_register); for a component use %s",
                               operation, w->components[kind].name,
                               strcmp(operation, "delete_with_pair") == 0 ? "ecs_sched_delete_with"
                                                                          : "ecs_sched_remove_all");
    }
    if (!ecs_sched__is_live_record(w, target)) return ecs_sched__stale(w, target, operation);
    sources = ecs_sched_sources(w, kind, target, &n);
    if (n && !ecs_sched__bulk_append(w, list, sources, (uint32_t)n)) {
        ecs_sched__free(&w->env, list->entities);
        list->entities = NULL;
        {
            char what[96];
            snprintf(what, sizeof what, "%s: gathering the sources", operation);
            return ecs_sched__out_of_memory(w, what);
        }
    }
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_remove_all_pairs(ecs_sched_world *w, ecs_sched_id kind,
                                            ecs_sched_entity target) {
    ecs_sched__bulk_list list = {NULL, 0, 0};
    ecs_sched_result result;
    uint32_t i;
    ECS_SCHED__CHECK_WORLD(w);
    if ((result = ecs_sched__bulk_refused(w, "remove_all_pairs")) != ECS_SCHED_OK) return result;
    result = ecs_sched__gather_sources(w, kind, target, &list, "remove_all_pairs");
    for (i = 0; result == ECS_SCHED_OK && i < list.count; i++) {
        if (ecs_sched__is_live_record(w, list.entities[i])) {
            result = ecs_sched_unrelate(w, list.entities[i], kind, target);
        }
    }
    ecs_sched__free(&w->env, list.entities);
    return result;
}

ecs_sched_result ecs_sched_delete_with_pair(ecs_sched_world *w, ecs_sched_id kind,
                                            ecs_sched_entity target) {
    ecs_sched__bulk_list list = {NULL, 0, 0};
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    if ((result = ecs_sched__bulk_refused(w, "delete_with_pair")) != ECS_SCHED_OK) return result;
    result = ecs_sched__gather_sources(w, kind, target, &list, "delete_with_pair");
    if (result != ECS_SCHED_OK) return result;
    return ecs_sched__despawn_each(w, &list, "delete_with_pair");
}
#endif
