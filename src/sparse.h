/* sparse: components kept in sets of their own, outside the archetype tables. */
#pragma once
#include "entity.h"
#include "observer.h"
#include "change.h"
#include "hierarchy.h"
#include "inherit.h"

/*@@ implementation @@*/
/* sparse: components kept in sets of their own, outside the archetype tables.

   A component registered with .storage = ECS_SCHED_STORAGE_SPARSE is never part of an
   entity's table: entity.h leaves it out of every table it finds and hands it here. Its set
   packs the entities that have it in `members`, their values (and, tracked, their stamps) at
   the same positions, and keeps by entity index the position of each (+ 1). Adding appends,
   removing moves the last member into the hole: nothing else of the entity moves. What
   changes a set's members counts as a change of rows (rows_version): the lists of queries
   with sparse terms (query.h) are made again from it. */

/* The world's side (declared in world.h): a set for component `id`, made at registration. */
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
   value NULL: the default for a new one, no change for a present one. */
static void ecs_sched__sparse_put(ecs_sched_world *w, ecs_sched__sparse_set *s,
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
    if (w->observers) {
        if (added && ecs_sched__watched(w, s->id, ECS_SCHED_ON_ADD)) {
            ecs_sched__observe(w, ECS_SCHED_ON_ADD, e, s->id);
        }
        if (ecs_sched__watched(w, s->id, ECS_SCHED_ON_INSERT)) {
            ecs_sched__observe(w, ECS_SCHED_ON_INSERT, e, s->id);
        }
    }
}

/* The world's side (declared in world.h): puts the sparse components among ids on e, room
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

/* The world's side (declared in world.h): ecs_sched_insert of a sparse component in a world
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

/* The world's side (declared in world.h): ecs_sched_remove of a sparse component. */
static ecs_sched_result ecs_sched__sparse_remove(ecs_sched_world *w, ecs_sched_entity e,
                                                 ecs_sched_id id) {
    ecs_sched__sparse_set *s = ecs_sched__sparse_of(w, id);
    uint32_t at = ecs_sched__sparse_slot(s, ECS_SCHED_ENTITY_INDEX(e));
    if (!at) return ECS_SCHED_OK;
    if (w->observers) {   /* they see the value still; what they change is deferred */
        ecs_sched__observe_removing(w, e, id);
        ecs_sched__sparse_take_out(w, s, at);
        ecs_sched__observers_flush(w);
        return ECS_SCHED_OK;
    }
    ecs_sched__sparse_take_out(w, s, at);
    return ECS_SCHED_OK;
}

/* The world's side (declared in world.h): an entity about to be despawned loses its sparse
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

/* The world's side (declared in world.h): the value of a sparse component of a live entity
   (NULL: it does not have it, or it is a tag). */
static void *ecs_sched__sparse_value(const ecs_sched_world *w, ecs_sched_id id, uint32_t index) {
    const ecs_sched__sparse_set *s = ecs_sched__sparse_of(w, id);
    uint32_t at = ecs_sched__sparse_slot(s, index);
    return at && s->values ? ecs_sched__sparse_cell(w, s, at - 1) : NULL;
}

/* A tracked sparse value changed now. */
static void ecs_sched__sparse_changed(ecs_sched_world *w, ecs_sched_id id, uint32_t index) {
    ecs_sched__sparse_set *s = ecs_sched__sparse_of(w, id);
    uint32_t at = ecs_sched__sparse_slot(s, index);
    if (at && s->stamps) s->stamps[at - 1].changed = ecs_sched__tick_now(w);
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

/* ---- queries ----

   A query with a term on a sparse component keeps a list of the rows it hands out (as
   hierarchical and sorted queries do, hierarchy.h): the tables it matches are found by its
   other terms, and the list holds the rows of those tables that pass its sparse terms. When
   a required sparse term's set is the smallest side, the list is made by walking that set's
   members (each one looked up in the entity index), else by testing every matched row. The
   list is kept until rows change (a spawn, a move, a despawn, a sparse add or remove), or
   made at each iteration when the query filters on changes. The field of a sparse term with
   a value holds one pointer per row handed out (NULL where an optional term is absent). */

/* The world's side (declared in query.h): what a query asks of a sparse component. */
static ecs_sched_result ecs_sched__check_sparse_term(ecs_sched_world *w, const ecs_sched_term *term,
                                                    int32_t i) {
    ecs_sched_term_kind kind = term->kind;
    const char *what;
    if (kind == ECS_SCHED_TERM_FROM_PARENT || kind == ECS_SCHED_TERM_OPTIONAL_FROM_PARENT) {
        what = "read from the parent";
    } else if (kind == ECS_SCHED_TERM_INHERITED) {
        what = "inherited";
    } else if (kind == ECS_SCHED_TERM_RELATED || kind == ECS_SCHED_TERM_CASCADE) {
        what = "a relationship";
    } else {
        return ECS_SCHED_OK;
    }
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                           "query_create: term %d asks for '%s' %s, but '%s' is sparse: a "
                           "sparse component is read, written, optional, left out, added or "
                           "changed on the entity itself; register it with table storage to "
                           "use it so", (int)i, w->components[term->id].name, what,
                           w->components[term->id].name);
}

/* The required sparse term whose set is smallest, or -1. */
static int32_t ecs_sched__sparse_driver(const ecs_sched_query *q) {
    int32_t i, best = -1;
    uint32_t fewest = UINT32_MAX;
    for (i = 0; i < q->term_count; i++) {
        const ecs_sched__sparse_set *s = ecs_sched__sparse_of(q->world, q->terms[i].id);
        if (s && ecs_sched__term_required(q->terms[i].kind) && s->count < fewest) {
            fewest = s->count;
            best = i;
        }
    }
    return best;
}

/* Whether a table filter term passes at a row, in the window. */
static bool ecs_sched__table_filter_passes(const ecs_sched_query *q, const ecs_sched__match *m,
                                           int32_t term, int32_t row, ecs_sched__window win) {
    const ecs_sched__ticks *k = &m->table->ticks[ecs_sched__tick_index(q, m, term)];
    if (q->terms[term].kind == ECS_SCHED_TERM_ADDED) return ecs_sched__in_window(win, k->added[row]);
    return ecs_sched__in_window(win, k->changed[row]) ||
           (k->has_bulk && ecs_sched__in_window(win, k->bulk));
}

/* Whether a matched row passes the query's sparse terms, related terms and (win not NULL)
   filters. */
static bool ecs_sched__sparse_row_passes(const ecs_sched_query *q, const ecs_sched__match *m,
                                         int32_t row, const ecs_sched__window *win) {
    const ecs_sched_world *w = q->world;
    uint32_t index = ECS_SCHED_ENTITY_INDEX(m->table->entities[row]);
    int32_t i;
    for (i = 0; i < q->term_count; i++) {
        ecs_sched_term_kind kind = q->terms[i].kind;
        const ecs_sched__sparse_set *s = ecs_sched__sparse_of(w, q->terms[i].id);
        uint32_t at;
        if (!s) {
            if (win && ecs_sched__term_filters(kind) &&
                !ecs_sched__table_filter_passes(q, m, i, row, *win)) {
                return false;
            }
            continue;
        }
        at = ecs_sched__sparse_slot(s, index);
        if (kind == ECS_SCHED_TERM_WITHOUT && at) return false;
        if (!ecs_sched__term_required(kind)) continue;
        if (!at) return false;
        if (win && kind == ECS_SCHED_TERM_ADDED && !ecs_sched__in_window(*win, s->stamps[at - 1].added)) {
            return false;
        }
        if (win && kind == ECS_SCHED_TERM_CHANGED &&
            !ecs_sched__in_window(*win, s->stamps[at - 1].changed)) {
            return false;
        }
    }
    return !q->related || ecs_sched__row_related(q, m, row);
}

static int ecs_sched__row_order(const void *a, const void *b) {
    const ecs_sched__hier_row *x = (const ecs_sched__hier_row *)a, *y = (const ecs_sched__hier_row *)b;
    if (x->match != y->match) return x->match < y->match ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

/* The list from the members of the smallest required set, in table order. */
static bool ecs_sched__sparse_list_members(ecs_sched_query *q, ecs_sched__hier_cache *c,
                                           int32_t driver, const ecs_sched__window *win) {
    ecs_sched_world *w = q->world;
    const ecs_sched__sparse_set *s = ecs_sched__sparse_of(w, q->terms[driver].id);
    bool ordered = true;
    uint32_t m, k;
    if (!ECS_SCHED__GROW(&w->env, c->match_of, &c->match_of_capacity, w->table_count)) return false;
    memset(c->match_of, 0, (size_t)w->table_count * sizeof *c->match_of);
    for (m = 0; m < q->match_count; m++) c->match_of[q->matches[m].table->index] = m + 1u;
    for (k = 0; k < s->count; k++) {
        const ecs_sched__record *r = &w->records[ECS_SCHED_ENTITY_INDEX(s->members[k])];
        ecs_sched__hier_row *row = &c->rows[c->count];
        uint32_t match = c->match_of[r->table];
        if (!match || !ecs_sched__sparse_row_passes(q, &q->matches[match - 1u], (int32_t)r->row, win)) {
            continue;
        }
        row->match = match - 1u;
        row->row = (int32_t)r->row;
        if (c->count && ecs_sched__row_order(row - 1, row) > 0) ordered = false;
        c->count++;
    }
    if (!ordered) qsort(c->rows, c->count, sizeof *c->rows, ecs_sched__row_order);
    return true;
}

/* The world's side (declared in hierarchy.h). */
static bool ecs_sched__sparse_list(ecs_sched_query *q, ecs_sched__hier_cache *c,
                                   const ecs_sched_iter *it) {
    ecs_sched__window win;
    const ecs_sched__window *in = NULL;
    int32_t driver = ecs_sched__sparse_driver(q);
    uint32_t m;
    if (it && q->sparse_filtered) {
        win = ecs_sched__iter_window_of(it);
        in = &win;
    }
    if (driver >= 0) {
        uint32_t rows = 0;
        for (m = 0; m < q->match_count; m++) rows += (uint32_t)q->matches[m].table->count;
        if (ecs_sched__sparse_of(q->world, q->terms[driver].id)->count <= rows) {
            return ecs_sched__sparse_list_members(q, c, driver, in);
        }
    }
    for (m = 0; m < q->match_count; m++) {
        const ecs_sched__match *match = &q->matches[m];
        int32_t row;
        for (row = 0; row < match->table->count; row++) {
            if (!ecs_sched__sparse_row_passes(q, match, row, in)) continue;
            c->rows[c->count].match = m;
            c->rows[c->count].row = row;
            c->count++;
        }
    }
    return true;
}

/* The world's side (declared in hierarchy.h): per row of the list, the value of each sparse
   term with a value. */
static void ecs_sched__sparse_values(ecs_sched_query *q, ecs_sched__hier_cache *c) {
    int32_t term;
    uint32_t i;
    for (term = 0; term < q->term_count; term++) {
        const void **values;
        if (!c->sparse_term[term] || c->parent_slot[term] < 0) continue;
        values = &c->parents[(size_t)c->parent_slot[term] * c->capacity];
        for (i = 0; i < c->count; i++) {
            const ecs_sched__table *t = q->matches[c->rows[i].match].table;
            values[i] = ecs_sched__sparse_value(q->world, q->terms[term].id,
                                                ECS_SCHED_ENTITY_INDEX(t->entities[c->rows[i].row]));
        }
    }
}

/* The entity of row `row` of an iterator's current run. */
static inline ecs_sched_entity ecs_sched__iter_entity(const ecs_sched_iter *it, int32_t row) {
    return it->by_rows_ ? it->entities[it->rows[row]] : it->entities[row];
}

/* The world's side (declared in hierarchy.h): the rows just handed out changed, in each
   tracked sparse component the query writes (write_manual terms: by the loop's marks). */
static void ecs_sched__sparse_mark_run(const ecs_sched_iter *it) {
    const ecs_sched_query *q = it->query_;
    int32_t term, row;
    for (term = 0; term < q->term_count; term++) {
        ecs_sched__sparse_set *s = ecs_sched__sparse_of(q->world, q->terms[term].id);
        if (!s || !s->stamps || !ecs_sched__term_marks(q->terms[term].kind)) continue;
        for (row = 0; row < it->count; row++) {
            uint32_t at = ecs_sched__sparse_slot(s, ECS_SCHED_ENTITY_INDEX(ecs_sched__iter_entity(it, row)));
            if (at) s->stamps[at - 1].changed = it->this_run_;
        }
    }
}

/* The world's side (declared in change.h): ecs_sched_iter_mark_changed of a sparse term. */
static void ecs_sched__sparse_mark_row(const ecs_sched_iter *it, int32_t term, int32_t row) {
    const ecs_sched_query *q = it->query_;
    ecs_sched__sparse_set *s = ecs_sched__sparse_of(q->world, q->terms[term].id);
    uint32_t at = ecs_sched__sparse_slot(s, ECS_SCHED_ENTITY_INDEX(ecs_sched__iter_entity(it, row)));
    if (at) s->stamps[at - 1].changed = it->this_run_;
}

/* The world's side (declared in change.h): old stamps move up with the others. */
static void ecs_sched__sparse_move_ticks(ecs_sched_world *w, const ecs_sched__old_readers *r) {
    uint32_t i, k;
    for (i = 0; i < w->sparse_count; i++) {
        ecs_sched__sparse_set *s = &w->sparse_sets[i];
        for (k = 0; s->stamps && k < s->count; k++) {
            s->stamps[k].added = ecs_sched__moved_tick(r, s->stamps[k].added, ECS_SCHED__TICK_CHANGE);
            s->stamps[k].changed = ecs_sched__moved_tick(r, s->stamps[k].changed, ECS_SCHED__TICK_CHANGE);
        }
    }
}

/* ---- instances and prefab data ---- */

/* Whether set s gives an instance related to `base` a copy: the base has it, the instance not. */
static bool ecs_sched__sparse_base_gives(const ecs_sched__sparse_set *s, uint32_t instance,
                                         uint32_t base) {
    return ecs_sched__sparse_slot(s, base) && !ecs_sched__sparse_slot(s, instance);
}

/* The world's side (declared in inherit.h): room for an instance's copies of its base's sparse
   components. */
static bool ecs_sched__sparse_base_reserve(ecs_sched_world *w, ecs_sched_entity instance,
                                           ecs_sched_entity base) {
    uint32_t i, to = ECS_SCHED_ENTITY_INDEX(instance), from = ECS_SCHED_ENTITY_INDEX(base);
    for (i = 0; i < w->sparse_count; i++) {
        ecs_sched__sparse_set *s = &w->sparse_sets[i];
        if (ecs_sched__sparse_base_gives(s, to, from) && !ecs_sched__sparse_reserve_set(w, s, 1, to + 1)) {
            return false;
        }
    }
    return true;
}

/* The world's side (declared in inherit.h): the copies, room reserved (an instance owns a
   copy: sparse components are never inherited). */
static void ecs_sched__sparse_base_copy(ecs_sched_world *w, ecs_sched_entity instance,
                                        ecs_sched_entity base) {
    uint32_t i, to = ECS_SCHED_ENTITY_INDEX(instance), from = ECS_SCHED_ENTITY_INDEX(base);
    for (i = 0; i < w->sparse_count; i++) {
        ecs_sched__sparse_set *s = &w->sparse_sets[i];
        if (!ecs_sched__sparse_base_gives(s, to, from)) continue;
        ecs_sched__sparse_put(w, s, instance, ecs_sched__sparse_value(w, s->id, from));
    }
}

/* Whether copy c gives its entity the component of set s: an entry that lists it, or an
   instance of a prefab entity that has it (an instance owns a copy: sparse components are
   never inherited). */
static bool ecs_sched__copy_gives(const ecs_sched__copy *c, const ecs_sched__sparse_set *s) {
    uint32_t v;
    if (c->prefab) return ecs_sched__sparse_slot(s, ECS_SCHED_ENTITY_INDEX(c->prefab)) != 0;
    for (v = 0; v < c->entry->count; v++) {
        if (c->entry->values[v].id == s->id) return true;
    }
    return false;
}

/* The world's side (declared in inherit.h): room in every set for what the copies give,
   their indices below `bound`. */
static bool ecs_sched__sparse_instancing_reserve(ecs_sched_world *w, const ecs_sched__instancing *in,
                                                 uint32_t bound) {
    uint32_t i;
    int32_t k;
    for (i = 0; i < w->sparse_count; i++) {
        ecs_sched__sparse_set *s = &w->sparse_sets[i];
        uint32_t n = 0;
        for (k = 0; k < in->count; k++) n += ecs_sched__copy_gives(&in->copies[k], s);
        if (n && !ecs_sched__sparse_reserve_set(w, s, n, bound)) return false;
    }
    return true;
}

/* The world's side (declared in inherit.h): the copies, placed, take their sparse values. */
static void ecs_sched__sparse_instancing_place(ecs_sched_world *w, const ecs_sched__instancing *in) {
    uint32_t i, v;
    int32_t k;
    for (k = 0; k < in->count; k++) {
        const ecs_sched__copy *c = &in->copies[k];
        for (i = 0; i < w->sparse_count; i++) {
            ecs_sched__sparse_set *s = &w->sparse_sets[i];
            const void *value = NULL;
            if (!ecs_sched__copy_gives(c, s)) continue;
            if (c->prefab) {
                value = ecs_sched__sparse_value(w, s->id, ECS_SCHED_ENTITY_INDEX(c->prefab));
            } else {
                for (v = 0; v < c->entry->count; v++) {
                    if (c->entry->values[v].id == s->id) value = c->entry->values[v].data;
                }
            }
            ecs_sched__sparse_put(w, s, c->made, value);
        }
    }
}
