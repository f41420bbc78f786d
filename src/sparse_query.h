/* sparse_query: queries with terms on sparse components. */
#pragma once
#include "hierarchy.h"
#include "sparse.h"

/*@@ implementation @@*/
/* sparse_query: queries with terms on sparse components (their storage: sparse.h).

   A query with a term on a sparse component keeps a list of the rows it hands out (as
   hierarchical and sorted queries do, list.h): the tables it matches are found by its
   other terms, and the list holds the rows of those tables that pass its sparse terms. When
   a required sparse term's set is the smallest side, the list is made by walking that set's
   members (each one looked up in the entity index), else by testing every matched row. The
   list is kept until rows change (a spawn, a move, a despawn, a sparse add or remove), or
   made at each iteration when the query filters on changes. The field of a sparse term with
   a value holds one pointer per row handed out (NULL where an optional term is absent). */

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

/* Whether a matched row passes the query's sparse terms, related terms, terms on toggleable
   components and (win not NULL) filters. */
static bool ecs_sched__sparse_row_passes(const ecs_sched_query *q, const ecs_sched__match *m,
                                         int32_t row, const ecs_sched__window *win) {
    const ecs_sched_world *w = q->world;
    uint32_t index = ECS_SCHED_ENTITY_INDEX(m->table->entities[row]);
    int32_t i;
    if (q->toggled && !ecs_sched__row_enabled(q, m, row)) return false;
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
#ifdef ECS_SCHED_NO_RELATIONS
    (void)m;
    (void)row;
    return true;   /* no query has related terms */
#else
    return !q->related || ecs_sched__row_related(q, m, row);
#endif
}

static int ecs_sched__row_order(const void *a, const void *b) {
    const ecs_sched__list_row *x = (const ecs_sched__list_row *)a, *y = (const ecs_sched__list_row *)b;
    if (x->match != y->match) return x->match < y->match ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

/* The list from the members of the smallest required set, in table order. */
static bool ecs_sched__sparse_list_members(ecs_sched_query *q, ecs_sched__row_list *c,
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
        ecs_sched__list_row *row = &c->rows[c->count];
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

/* The list's rows (iter.h fills the list): the matched rows that pass the sparse terms (and,
   in the window `it` sees, the filters; it NULL: no window), in table order. */
static bool ecs_sched__sparse_list(ecs_sched_query *q, ecs_sched__row_list *c,
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

/* Per row of the list, the value of each sparse
   term with a value. */
static void ecs_sched__sparse_values(ecs_sched_query *q, ecs_sched__row_list *c) {
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

/* The rows just handed out changed, in each
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
