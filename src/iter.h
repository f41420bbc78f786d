/* iter: iteration, handing out the rows of any query. */
#pragma once
#include "sort.h"
#include "sparse_query.h"
#include "inherit.h"

ECS_SCHED_API int32_t ecs_sched_query_count(const ecs_sched_query *query);  /* matching entities */
/* The query's next run of rows (see ecs_sched_iter); false when every row was handed out. */
ECS_SCHED_API bool ecs_sched_iter_next(ecs_sched_iter *it);
/* The same rows as ecs_sched_iter_next, handed out by index: up to ECS_SCHED_ITER_ROWS rows
   of one table at a time, it->rows[0 .. it->count - 1], with it->fields and it->entities
   pointing at the table's first row (the i-th row's value is field[it->rows[i]]). For a query
   with added or changed terms that matches few rows of many: the rows come from the table's
   change log, in the order they changed, with no call per row (see Change detection in THE WORLD'S EVENTS). An
   iterator is advanced by one of the two functions only. */
ECS_SCHED_API bool ecs_sched_iter_next_rows(ecs_sched_iter *it);
/* Marks row `row` (0 .. it->count - 1) of the current run changed, in the component of term
   `term`: a written term of a tracked component (what an ECS_SCHED_TERM_WRITE_MANUAL loop
   calls for each row it changes). After ecs_sched_iter_next_rows, `row` is an index into
   it->rows. */
ECS_SCHED_API ecs_sched_result ecs_sched_iter_mark_changed(ecs_sched_iter *it, int32_t term,
                                                           int32_t row);

/* Receives one piece of a query: it->count rows of one table, it->entities and it->fields
   pointing at the piece's first row. Pieces are disjoint; several run at once. */
typedef void (*ecs_sched_chunk_fn)(ecs_sched_iter *it, void *arg);
/* Iterates a query in pieces of at most `grain` rows spread over the pool, and returns when
   every piece is done (grain 0: see ECS_SCHED_DEFAULT_GRAIN; a query that writes a tracked
   component where something changed: one piece per table). Structural changes are not
   allowed meanwhile. */
ECS_SCHED_API void ecs_sched_query_par_iter(ecs_sched_query *query, ecs_sched_pool *pool,
                                            int32_t grain, ecs_sched_chunk_fn fn, void *arg);
/* The same for query `index` of a system, on the world's pool, within the system's declared
   access. ECS_SCHED_ERR_ACCESS for an undeclared query; ECS_SCHED_ERR_OUT_OF_MEMORY when the
   pool cannot be created (then nothing ran). */
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_par_iter(ecs_sched_system_ctx *ctx, int32_t index,
                                                      int32_t grain, ecs_sched_chunk_fn fn,
                                                      void *arg);

/*@@ implementation @@*/
/* iter: iteration, handing out the rows of any query.

   Most queries are plain: they hand out each matched table whole, its own columns as the
   fields (query.h), and ecs_sched_iter_next takes that loop after one test.
   The others combine what the modules below give:
   - a ticked query (one that filters on added or changed terms, or marks what it writes)
     hands out runs of rows that pass its filters and marks them (change.h);
   - a related term keeps, of those runs, the rows whose entities have its target
     (relation.h);
   - an inherited term's field is a value its table's bases share (inherit.h), one per table;
   - a hierarchical, sorted or sparse query hands out the rows of the list it keeps (list.h):
     this module decides when the list is made again and which producers fill it (the
     matched rows or those with the sparse terms, sparse_query.h; the order of depth,
     hierarchy.h; the sort, sort.h; the parents' and sparse values), and walks it. */

/* ---- features left out ---- */

/* Without relationships or inheritance, query_create refuses related, hierarchical and
   inherited terms (query.h): the paths below that serve them are never taken, and these
   stand in for what they would call. */
#ifdef ECS_SCHED_NO_RELATIONS
static bool ecs_sched__row_related(const ecs_sched_query *q, const ecs_sched__match *m,
                                   int32_t row) {
    (void)q;
    (void)m;
    (void)row;
    return true;
}
static bool ecs_sched__hier_reserve(ecs_sched_query *q, ecs_sched__row_list *c, uint32_t rows) {
    (void)q;
    (void)c;
    (void)rows;
    return true;
}
static void ecs_sched__hier_order(ecs_sched_query *q, ecs_sched__row_list *c) {
    (void)q;
    (void)c;
}
static void ecs_sched__hier_parents(ecs_sched_query *q, ecs_sched__row_list *c) {
    (void)q;
    (void)c;
}
#endif
#ifdef ECS_SCHED_NO_INHERITANCE
static void *ecs_sched__inherited_value(const ecs_sched_world *w, const ecs_sched__table *t,
                                        ecs_sched_id id, bool *found) {
    (void)w;
    (void)t;
    (void)id;
    *found = false;
    return NULL;
}
#endif

/* ---- inherited values ---- */

/* A fixed source's value: the resource, or the entity's component (its own, or one it
   inherits; NULL for a tag); *found false while there is none. */
static void *ecs_sched__source_value(ecs_sched_world *w, const ecs_sched_term *term, bool *found) {
    if (ecs_sched__term_on_resource(term->kind)) {
        void *value = w->resources[term->id];
        *found = value != NULL;
        return value;
    }
    *found = ecs_sched_has(w, term->target, term->id);
    return *found && w->components[term->id].size ? ecs_sched__value_slow(w, term->target, term->id)
                                                  : NULL;
}

/* An inheriting query's fields that its table's bases hold, and which they are; false when
   a base no longer has what a term asks for (the table is passed over). */
static bool ecs_sched__share_fields(const ecs_sched_query *q, const ecs_sched__match *m,
                                    void **fields, uint32_t *shared) {
    uint32_t bits = 0;
    int32_t i;
    for (i = 0; i < q->term_count; i++) {
        bool found;
        if (m->column[i] == ECS_SCHED__FROM_SOURCE) {
            fields[i] = ecs_sched__source_value(q->world, &q->terms[i], &found);
        } else if (m->column[i] == ECS_SCHED__FROM_BASE) {
            fields[i] = ecs_sched__inherited_value(q->world, m->table, q->terms[i].id, &found);
        } else {
            continue;
        }
        if (!found) return false;
        bits |= 1u << i;
    }
    *shared = bits;
    return true;
}

/* Whether an inheriting query hands out a matched table (its bases have what it asks). */
static bool ecs_sched__match_resolves(const ecs_sched_query *q, const ecs_sched__match *m) {
    void *fields[ECS_SCHED_MAX_TERMS];
    uint32_t shared;
    if (!q->inherits) return true;
    return m->table->count > 0 && ecs_sched__share_fields(q, m, fields, &shared);
}

/* ---- related terms ---- */

/* Of the run [*begin, *end), the first run of rows whose entities have the targets of the
   query's related terms; false when none has. */
static bool ecs_sched__related_run(const ecs_sched_query *q, const ecs_sched__match *m,
                                   int32_t *begin, int32_t *end) {
    int32_t row = *begin;
    while (row < *end && !ecs_sched__row_related(q, m, row)) row++;
    if (row == *end) return false;
    *begin = row;
    while (++row < *end && ecs_sched__row_related(q, m, row)) {}
    *end = row;
    return true;
}

/* Up to ECS_SCHED_ITER_ROWS rows that pass the filters and have the related targets, from
   row *from on, into `rows` (a related query scans its rows: a change log cannot tell
   targets). */
static int32_t ecs_sched__related_gather(const ecs_sched_query *q, const ecs_sched__match *m,
                                         int32_t *from, ecs_sched__window win, int32_t *rows) {
    int32_t n = 0, begin, end;
    while (n < ECS_SCHED_ITER_ROWS && ecs_sched__next_rows(q, m, *from, win, &begin, &end)) {
        for (; begin < end && n < ECS_SCHED_ITER_ROWS; begin++) {
            if (ecs_sched__row_related(q, m, begin)) rows[n++] = begin;
        }
        *from = begin;
    }
    return n;
}

/* ---- lists: hierarchical, sorted and sparse queries ---- */

/* Every matched row (with the related terms' targets, and its toggleable components on or
   off as its terms ask) in table order: the list of a query without sparse terms before it
   is ordered. */
static void ecs_sched__list_matched_rows(ecs_sched_query *q, ecs_sched__row_list *c) {
    uint32_t m;
    for (m = 0; m < q->match_count; m++) {
        const ecs_sched__match *match = &q->matches[m];
        int32_t row;
        for (row = 0; row < match->table->count; row++) {
            if (q->related && !ecs_sched__row_related(q, match, row)) continue;
            if (q->toggled && !ecs_sched__row_enabled(q, match, row)) continue;
            c->rows[c->count].match = m;
            c->rows[c->count].row = row;
            c->count++;
        }
    }
}

#ifndef ECS_SCHED_NO_RELATIONS
/* ---- one row per target ---- */

/* Room for the rows of a query with an each-target term: at most one per relationship of its
   kind, and no fewer than its matched rows. */
static uint32_t ecs_sched__each_target_rows(const ecs_sched_query *q, uint32_t rows) {
    const ecs_sched_term *term = &q->terms[q->each_target];
    uint64_t pairs = 0;
    if (term->kind == ECS_SCHED_TERM_EACH_KIND) {
        const ecs_sched__links *r = ecs_sched__links_of(q->world);
        uint32_t k;
        for (k = 0; r && k < r->kind_count; k++) {
            const ecs_sched__sources *s = ecs_sched__sources_of(q->world, r->kind_ids[k], term->target);
            if (s) pairs += s->count;
        }
        return (uint32_t)pairs;
    }
    pairs = ecs_sched__kind_of(q->world, term->id)->pairs;
    return pairs > rows ? (uint32_t)pairs : rows;
}

/* The rows of a query with a term of every kind: from the term's target's sources, kind by
   kind, those the query matches; beside each, its slot and its kind. */
static bool ecs_sched__list_each_kind(ecs_sched_query *q, ecs_sched__row_list *c) {
    ecs_sched_world *w = q->world;
    const ecs_sched_term *term = &q->terms[q->each_target];
    const ecs_sched__links *r = ecs_sched__links_of(w);
    const void **slots = &c->parents[(size_t)c->parent_slot[q->each_target] * c->capacity];
    const void **kinds = slots + c->capacity;
    uint32_t m, k, i;
    if (!ECS_SCHED__GROW(&w->env, c->match_of, &c->match_of_capacity, w->table_count)) return false;
    memset(c->match_of, 0, (size_t)w->table_count * sizeof *c->match_of);
    for (m = 0; m < q->match_count; m++) c->match_of[q->matches[m].table->index] = m + 1u;
    for (k = 0; r && k < r->kind_count; k++) {
        ecs_sched_id kind = r->kind_ids[k];
        const ecs_sched__sources *s = ecs_sched__sources_of(w, kind, term->target);
        for (i = 0; s && i < s->count; i++) {
            const ecs_sched__record *rec = &w->records[ECS_SCHED_ENTITY_INDEX(s->items[i])];
            uint32_t match = c->match_of[rec->table];
            if (!match || (q->related && !ecs_sched__row_related(q, &q->matches[match - 1u],
                                                                 (int32_t)rec->row))) {
                continue;
            }
            c->rows[c->count].match = match - 1u;
            c->rows[c->count].row = (int32_t)rec->row;
            slots[c->count] = ecs_sched__rel_slot_of(w, s->items[i], kind, term->target);
            kinds[c->count] = (const void *)(uintptr_t)kind;
            c->count++;
        }
    }
    return true;
}

/* Each matched row becomes one row per target of the each-target term's kind, with a pointer
   to that target's slot (the first in the table's column, the others beside it). */
static void ecs_sched__list_each_target(ecs_sched_query *q, ecs_sched__row_list *c) {
    const ecs_sched_world *w = q->world;
    int32_t term = q->each_target;
    ecs_sched_id kind = q->terms[term].id;
    size_t size = w->components[kind].size;
    const void **slots = &c->parents[(size_t)c->parent_slot[term] * c->capacity];
    uint32_t n = c->count, i, k;
    memcpy(c->sorted, c->rows, (size_t)n * sizeof *c->rows);
    c->count = 0;
    for (i = 0; i < n; i++) {
        const ecs_sched__list_row *r = &c->sorted[i];
        const ecs_sched__match *m = &q->matches[r->match];
        const ecs_sched__extra *x = ecs_sched__extra_of(w, kind, m->table->entities[r->row]);
        c->rows[c->count] = *r;
        slots[c->count++] = ecs_sched__cell(m->table, m->column[term], (uint32_t)r->row);
        for (k = 0; x && k < x->count; k++) {
            c->rows[c->count] = *r;
            slots[c->count++] = x->slots + (size_t)k * size;
        }
    }
}
#endif

/* Makes the list again when the world's rows or relationships changed since, or a sorted
   query's values did (and, for a query with sparse terms that filters on changes, at every
   iteration: `it` gives its window): its rows, their order, the pointers beside them, its
   runs. */
static bool ecs_sched__list_update(ecs_sched_query *q, const ecs_sched_iter *it) {
    ecs_sched__row_list *c = ecs_sched__list_of(q);
    ecs_sched_world *w = q->world;
    uint32_t rows = 0, m;
    if (!c) return false;
    if (c->made && c->version == w->rows_version && !q->sparse_filtered &&
        !(c->order_term >= 0 && ecs_sched__sort_stale(q, c))) {
        return true;
    }
    for (m = 0; m < q->match_count; m++) rows += (uint32_t)q->matches[m].table->count;
#ifndef ECS_SCHED_NO_RELATIONS
    if (q->each_target >= 0) rows = ecs_sched__each_target_rows(q, rows);
#endif
    if (!ecs_sched__list_reserve(&w->env, c, rows)) return false;
    if (c->cascade >= 0 && !ecs_sched__hier_reserve(q, c, rows)) return false;
    c->count = 0;
    if (q->sparse) {
        if (!ecs_sched__sparse_list(q, c, it)) return false;
    } else if (q->each_target < 0 || q->terms[q->each_target].kind != ECS_SCHED_TERM_EACH_KIND) {
        ecs_sched__list_matched_rows(q, c);
    }
#ifndef ECS_SCHED_NO_RELATIONS
    if (q->each_target >= 0) {
        if (q->terms[q->each_target].kind == ECS_SCHED_TERM_EACH_TARGET) {
            ecs_sched__list_each_target(q, c);
        } else if (!ecs_sched__list_each_kind(q, c)) {
            return false;
        }
    }
#endif
    if (c->cascade >= 0) ecs_sched__hier_order(q, c);
    if ((c->order_term >= 0 || c->group_kind) && !ecs_sched__sort_rows(q, c)) return false;
    if (c->parent_terms && q->hierarchical) ecs_sched__hier_parents(q, c);
    if (q->sparse) ecs_sched__sparse_values(q, c);
    ecs_sched__list_runs(c);
    c->version = w->rows_version;
    c->made = true;
    return true;
}

/* How many rows a listed query hands out (-1 when out of memory). */
static int32_t ecs_sched__list_count(ecs_sched_query *q) {
    if (!ecs_sched__list_update(q, NULL)) {
        ecs_sched__out_of_memory(q->world, "ordering a hierarchical query");
        return -1;
    }
    return (int32_t)q->list->count;
}

/* The fields of a run of the list from position `at`, the table's own from row first_row:
   a term with a block of pointers gets the run's part of it. */
static void ecs_sched__list_fields(ecs_sched_iter *it, const ecs_sched__row_list *c,
                                   const ecs_sched__match *m, int32_t first_row, uint32_t at) {
    const ecs_sched_query *q = it->query_;
    const ecs_sched__table *t = m->table;
    int32_t i;
    for (i = 0; i < q->term_count; i++) {
        if (c->parent_slot[i] >= 0) {
            it->fields[i] = (void *)(uintptr_t)&c->parents[(size_t)c->parent_slot[i] * c->capacity + at];
        } else {
            const ecs_sched__column *col = m->column[i] >= 0 ? &t->columns[m->column[i]] : NULL;
            it->fields[i] = col ? col->data + (size_t)first_row * col->size : NULL;
        }
    }
}

/* The next run of rows of a listed query, rows consecutive in one table (by_rows: up to
   ECS_SCHED_ITER_ROWS rows of one table, by index). it->at_ is the position in the list;
   it->next_ the match of the run + 1, as in the other iterations (ecs_sched_iter_mark_changed
   reads it). */
static bool ecs_sched__iter_next_listed(ecs_sched_iter *it, bool by_rows) {
    ecs_sched_query *q = (ecs_sched_query *)(uintptr_t)it->query_;
    const ecs_sched__row_list *c;
    const ecs_sched__match *m;
    uint32_t at, end;
    if (it->row_ < 0) {   /* the first call */
        if (q->marks || q->sparse) ecs_sched__iter_window(q, &it->last_run_, &it->this_run_);
        else it->last_run_ = it->this_run_ = 0;
        it->row_ = 0;
        it->at_ = 0;
        it->by_rows_ = by_rows;
        if (!ecs_sched__list_update(q, it)) {
            ecs_sched__out_of_memory(q->world, "ordering a hierarchical query");
            it->at_ = INT32_MAX;
        }
    }
    c = q->list;
    at = (uint32_t)it->at_;
    if (!c || at >= c->count) {
        it->count = 0;
        return false;
    }
    m = &q->matches[c->rows[at].match];
    end = at + 1;
    if (by_rows) {
        /* one pass over the list's rows of this table, the count kept out of the iterator */
        const ecs_sched__list_row *r = &c->rows[at];
        uint32_t match = r->match, n = 0, most = c->count - at;
        if (most > ECS_SCHED_ITER_ROWS) most = ECS_SCHED_ITER_ROWS;
        do {
            it->rows[n] = r[n].row;
            n++;
        } while (n < most && r[n].match == match);
        it->count = (int32_t)n;
        end = at + n;
        it->entities = m->table->entities;
        ecs_sched__list_fields(it, c, m, 0, at);
        if (q->marks) {
            int32_t i;
            for (i = 0; i < it->count; i++) {
                ecs_sched__mark_written(q, m, it->rows[i], it->rows[i] + 1, it->this_run_);
            }
        }
    } else {
        end = c->run_end[at];
        it->count = (int32_t)(end - at);
        it->entities = m->table->entities + c->rows[at].row;
        it->row_ = c->rows[at].row + it->count;
        ecs_sched__list_fields(it, c, m, c->rows[at].row, at);
        ecs_sched__mark_written(q, m, c->rows[at].row, it->row_, it->this_run_);
    }
    if (q->sparse_marks) ecs_sched__sparse_mark_run(it);
    it->next_ = (int32_t)c->rows[at].match + 1;
    it->at_ = (int32_t)end;
    return true;
}

/* ---- iteration by runs ---- */

/* A ticked query's next run: rows that pass its added and changed terms and have its related
   targets, with the values its bases share, its written rows marked. */
static bool ecs_sched__iter_next_ticked(ecs_sched_iter *it) {
    const ecs_sched_query *q = it->query_;
    const ecs_sched__match *m;
    ecs_sched__window win;
    int32_t begin, end;
    if (q->listed) return ecs_sched__iter_next_listed(it, false);
    if (it->row_ < 0) {   /* the first call */
        ecs_sched__iter_start(it);
        it->by_rows_ = false;
    }
    win = ecs_sched__iter_window_of(it);
    while ((m = ecs_sched__ticked_run(it, win, &begin, &end)) != NULL) {
        if (q->related && !ecs_sched__related_run(q, m, &begin, &end)) continue;
        it->row_ = end;
        ecs_sched__iter_run(it, q, m, begin, end - begin);
        if (q->inherits && !ecs_sched__share_fields(q, m, it->fields, &it->shared)) {
            ecs_sched__iter_skip_match(it);   /* its bases lack an inherited term */
            continue;
        }
        ecs_sched__mark_written(q, m, begin, end, it->this_run_);
        return true;
    }
    it->count = 0;
    return false;
}

/* An inheriting query that looks at no ticks: the plain iteration, with the values its
   tables' bases share. */
static bool ecs_sched__iter_next_inherited(ecs_sched_iter *it) {
    const ecs_sched_query *q = it->query_;
    while (ecs_sched__iter_next_plain(it)) {
        if (ecs_sched__share_fields(q, &q->matches[it->next_ - 1], it->fields, &it->shared)) {
            return true;
        }
    }
    return false;
}

/* Every query but a plain one: kept out of ecs_sched_iter_next, whose common case stays
   small. */
ECS_SCHED__NOINLINE static bool ecs_sched__iter_next_other(ecs_sched_iter *it) {
    return it->query_->ticked ? ecs_sched__iter_next_ticked(it) : ecs_sched__iter_next_inherited(it);
}

bool ecs_sched_iter_next(ecs_sched_iter *it) {
    const ecs_sched_query *q = it->query_;
    if (!q) return false;
    if (!q->plain) return ecs_sched__iter_next_other(it);
    return ecs_sched__iter_next_plain(it);
}

/* ---- iteration by index ---- */

bool ecs_sched_iter_next_rows(ecs_sched_iter *it) {
    const ecs_sched_query *q;
    const ecs_sched__match *m;
    ecs_sched__window win;
    ECS_SCHED_ASSERT(it != NULL);
    q = it->query_;
    if (!q) return false;
    it->by_rows_ = true;
    if (q->listed) return ecs_sched__iter_next_listed(it, true);
    if (it->row_ < 0) ecs_sched__iter_start(it);   /* the first call */
    win = ecs_sched__iter_window_of(it);
    while ((m = ecs_sched__iter_match(it, win)) != NULL) {
        int32_t n, i;
        n = it->at_ >= 0 ? ecs_sched__log_gather(q, m, &it->at_, win, it->rows)
            : q->related ? ecs_sched__related_gather(q, m, &it->row_, win, it->rows)
                         : ecs_sched__scan_gather(q, m, &it->row_, win, it->rows);
        if (n == 0) {
            ecs_sched__iter_skip_match(it);
            continue;
        }
        ecs_sched__iter_run(it, q, m, 0, n);
        if (q->inherits && !ecs_sched__share_fields(q, m, it->fields, &it->shared)) {
            ecs_sched__iter_skip_match(it);   /* its bases lack an inherited term */
            continue;
        }
        if (q->marks) {
            for (i = 0; i < n; i++) ecs_sched__mark_written(q, m, it->rows[i], it->rows[i] + 1, it->this_run_);
        }
        return true;
    }
    it->count = 0;
    return false;
}

/* ---- marks and counts ---- */

ecs_sched_result ecs_sched_iter_mark_changed(ecs_sched_iter *it, int32_t term, int32_t row) {
    const ecs_sched_query *q;
    ecs_sched_world *w;
    ECS_SCHED_ASSERT(it != NULL && it->query_ != NULL);
    q = it->query_;
    w = q->world;
    if (term < 0 || term >= q->term_count || !ecs_sched__term_writes(q->terms[term].kind) ||
        !w->components[q->terms[term].id].tracked) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "iter_mark_changed: term %d is not a written term of a tracked "
                               "component (write, optional write or write_manual, and a "
                               "component registered with .tracked = true)", (int)term);
    }
    if (it->next_ == 0 || row < 0 || row >= it->count) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "iter_mark_changed: row %d is not a row of the current run "
                               "(0 to %d)", (int)row, (int)it->count - 1);
    }
    ecs_sched__iter_mark_row(it, term, row);
    return ECS_SCHED_OK;
}

/* The rows of a match a toggled query hands out (whatever the changes), a block at a time. */
static int32_t ecs_sched__count_enabled(const ecs_sched_query *q, const ecs_sched__match *m) {
    int32_t count = m->table->count, block, total = 0;
    for (block = 0; block * 64 < count; block++) {
        uint64_t bits = ecs_sched__toggle_word(q, m, block);
        if (count - block * 64 < 64) bits &= ((uint64_t)1 << (count - block * 64)) - 1u;
        for (; bits; bits &= bits - 1u) {
            total += !q->related ||
                     ecs_sched__row_related(q, m, block * 64 + (int32_t)ecs_sched__lowest_bit(bits));
        }
    }
    return total;
}

int32_t ecs_sched_query_count(const ecs_sched_query *q) {
    int32_t total = 0, row;
    uint32_t i;
    ECS_SCHED_ASSERT(q != NULL);
    /* a listed query keeps the rows it hands out; a related or toggled one tests each row */
    if (q->listed) return ecs_sched__list_count((ecs_sched_query *)(uintptr_t)q);
    for (i = 0; i < q->match_count; i++) {
        if (!ecs_sched__match_resolves(q, &q->matches[i])) continue;
        if (q->toggled) {
            total += ecs_sched__count_enabled(q, &q->matches[i]);
            continue;
        }
        if (!q->related) {
            total += q->matches[i].table->count;
            continue;
        }
        for (row = 0; row < q->matches[i].table->count; row++) {
            total += ecs_sched__row_related(q, &q->matches[i], row);
        }
    }
    return total;
}

/* ---- parallel iteration ---- */

typedef struct ecs_sched__par_query {
    const ecs_sched_query *query;
    ecs_sched_pool *pool;
    int64_t grain;
    ecs_sched_chunk_fn fn;
    void *arg;
    uint32_t last_run, this_run;   /* a ticked query's window */
} ecs_sched__par_query;

typedef struct ecs_sched__par_table {
    const ecs_sched__par_query *pq;
    const ecs_sched__match *match;
    int64_t unit;                  /* rows per item: 1, or a tick block for a ticked query */
} ecs_sched__par_table;

/* A query without filters hands out every row: its written tables are marked whole first. */
static void ecs_sched__par_mark_tables(const ecs_sched__par_query *pq) {
    const ecs_sched_query *q = pq->query;
    uint32_t i;
    if (q->filtered) return;
    for (i = 0; i < q->match_count; i++) {
        const ecs_sched__match *m = &q->matches[i];
        if (m->table->count && ecs_sched__match_resolves(q, m)) {
            ecs_sched__mark_written(q, m, 0, m->table->count, pq->this_run);
        }
    }
}

/* One piece [begin, end) of a table, its rows that pass the filters run by run; pieces hold
   whole tick blocks, so the marks of one never touch another's. */
static void ecs_sched__par_rows_filtered(const ecs_sched__par_query *pq,
                                         const ecs_sched__match *m, int32_t begin, int32_t end) {
    const ecs_sched_query *q = pq->query;
    ecs_sched__window win;
    ecs_sched_iter it;
    int32_t from = begin, first, last;
    win.this_run = pq->this_run;
    win.span = pq->this_run - pq->last_run;
    it = ecs_sched__iter_of(NULL);
    while (from < end && ecs_sched__next_rows(q, m, from, win, &first, &last) && first < end) {
        bool related;
        if (last > end) last = end;
        related = !q->related || ecs_sched__related_run(q, m, &first, &last);
        from = last;
        if (!related) continue;
        ecs_sched__iter_run(&it, q, m, first, last - first);
        if (q->inherits) ecs_sched__share_fields(q, m, it.fields, &it.shared);
        ecs_sched__mark_written(q, m, first, last, pq->this_run);
        pq->fn(&it, pq->arg);
    }
}

static void ecs_sched__par_rows(int64_t begin, int64_t end, void *arg) {
    const ecs_sched__par_table *pt = (const ecs_sched__par_table *)arg;
    const ecs_sched_query *q = pt->pq->query;
    const ecs_sched__table *t = pt->match->table;
    ecs_sched_iter it;
    begin *= pt->unit;
    end = end * pt->unit < t->count ? end * pt->unit : t->count;
    if (q->filtered) {
        ecs_sched__par_rows_filtered(pt->pq, pt->match, (int32_t)begin, (int32_t)end);
        return;
    }
    it = ecs_sched__iter_of(NULL);
    ecs_sched__iter_run(&it, q, pt->match, (int32_t)begin, (int32_t)(end - begin));
    if (q->inherits) ecs_sched__share_fields(q, pt->match, it.fields, &it.shared);
    pt->pq->fn(&it, pt->pq->arg);
}

static void ecs_sched__par_tables(int64_t begin, int64_t end, void *arg) {
    const ecs_sched__par_query *pq = (const ecs_sched__par_query *)arg;
    int64_t m;
    for (m = begin; m < end; m++) {
        ecs_sched__par_table pt;
        int64_t items;
        pt.pq = pq;
        pt.match = &pq->query->matches[m];
        /* a ticked query's pieces hold whole tick blocks, so that no two mark the same one */
        pt.unit = pq->query->ticked ? ECS_SCHED__TICK_BLOCK : 1;
        items = (pt.match->table->count + pt.unit - 1) / pt.unit;
        if (items == 0 || !ecs_sched__match_resolves(pq->query, pt.match)) continue;
        /* a query that filters on changes marks the rows it writes as it finds them, into
           the table's one change log: its table is one piece (tables still run at once) */
        ecs_sched_pool_parallel_for(pq->pool, 0, items,
                                    pq->query->filtered && pq->query->marks
                                        ? items : (pq->grain + pt.unit - 1) / pt.unit,
                                    ecs_sched__par_rows, &pt);
    }
}

void ecs_sched_query_par_iter(ecs_sched_query *query, ecs_sched_pool *pool, int32_t grain,
                              ecs_sched_chunk_fn fn, void *arg) {
    ecs_sched__par_query pq;
    ECS_SCHED_ASSERT(query != NULL && pool != NULL && fn != NULL);
    if (query->listed) {   /* its order is its point: one piece after the other */
        ecs_sched_iter it = ecs_sched_query_iter(query);
        while (ecs_sched_iter_next(&it)) fn(&it, arg);
        return;
    }
    pq.query = query;
    pq.pool = pool;
    pq.grain = grain > 0 ? grain
                         : ecs_sched__default_grain(ecs_sched_pool_thread_count(pool),
                                                    ecs_sched_query_count(query));
    pq.fn = fn;
    pq.arg = arg;
    pq.last_run = pq.this_run = 0;
    if (query->ticked) {
        ecs_sched__iter_window(query, &pq.last_run, &pq.this_run);
        ecs_sched__par_mark_tables(&pq);
    }
    ecs_sched_pool_parallel_for(pool, 0, query->match_count, 1, ecs_sched__par_tables, &pq);
}

/* A piece of a system's parallel query runs as the system, on whichever thread runs it: what
   fails there is the system's, and what the system may not do there is refused. */
typedef struct ecs_sched__ctx_piece {
    ecs_sched_system_ctx *ctx;
    ecs_sched_chunk_fn fn;
    void *arg;
} ecs_sched__ctx_piece;

static void ecs_sched__ctx_run_piece(ecs_sched_iter *it, void *arg) {
    const ecs_sched__ctx_piece *piece = (const ecs_sched__ctx_piece *)arg;
    ecs_sched__running *outer = ecs_sched__running_now;
    ecs_sched__running_now = &piece->ctx->run;
    piece->fn(it, piece->arg);
    ecs_sched__running_now = outer;
}

ecs_sched_result ecs_sched_ctx_par_iter(ecs_sched_system_ctx *ctx, int32_t index, int32_t grain,
                                        ecs_sched_chunk_fn fn, void *arg) {
    ecs_sched_query *q;
    ecs_sched_pool *pool;
    ecs_sched__ctx_piece piece;
    ECS_SCHED_ASSERT(ctx != NULL && fn != NULL);
    q = ecs_sched_ctx_query(ctx, index);
    if (!q) return ECS_SCHED_ERR_ACCESS;
    pool = ecs_sched_world_pool(ctx->world);
    if (!pool) return ECS_SCHED_ERR_OUT_OF_MEMORY;
    piece.ctx = ctx;
    piece.fn = fn;
    piece.arg = arg;
    ecs_sched_query_par_iter(q, pool, grain, ecs_sched__ctx_run_piece, &piece);
    return ECS_SCHED_OK;
}
