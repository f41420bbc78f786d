/* sort: queries that hand out their rows sorted by a component, or grouped by a target. */
#pragma once
#include "hierarchy.h"

/* Orders two entities by their values: negative when a comes first, positive when b does,
   0 when either may (they then keep table order). */
typedef int (*ecs_sched_order_fn)(ecs_sched_entity a, const void *value_a, ecs_sched_entity b,
                                  const void *value_b);

/* Hands out the query's rows in the order `compare` gives by `component`, which must be a
   sized component one of its terms reads or writes on the entity itself. The query keeps the
   sorted list, and sorts again only when a row joined or left a table, a relationship
   changed, or the component's values changed: for a tracked component (see Change detection
   in THE WORLD'S EVENTS) only then; an untracked one cannot tell, and is sorted at every iteration.
   Not with a cascade term (a query has one order). */
ECS_SCHED_API ecs_sched_result ecs_sched_query_order_by(ecs_sched_query *query,
                                                        ecs_sched_id component,
                                                        ecs_sched_order_fn compare);
#ifndef ECS_SCHED_NO_RELATIONS
/* Hands out the rows grouped by their target of `kind`, an exclusive relationship kind (all
   children of one parent together, for ChildOf): groups in the order of their targets'
   indices, the entities without a target first; within a group, order_by's order if set,
   else table order. */
ECS_SCHED_API ecs_sched_result ecs_sched_query_group_by(ecs_sched_query *query, ecs_sched_id kind);
#endif

/*@@ implementation @@*/
/* sort: sorted and grouped queries. The rows go into the list the query keeps (list.h; iter.h
   makes it again and walks it), sorted by a stable merge sort; iterating an unchanged sorted query walks the
   list, one call per run of rows consecutive in a table (or ECS_SCHED_ITER_ROWS rows by
   index), so a sort that scatters a table's rows costs a call per row with
   ecs_sched_iter_next: read such a query with ecs_sched_iter_next_rows. */

/* The query becomes one that keeps a list: its iterations take that path (query.h's
   ticked), so each match needs its tick columns. */
static ecs_sched_result ecs_sched__query_listed(ecs_sched_query *q, const char *operation) {
    ecs_sched_world *w = q->world;
    uint32_t i;
    if (q->inherits) {   /* a shared value is one per table, a sorted list mixes tables */
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                               "%s: the query has an inherited term, whose value is one per "
                               "table; a sorted query hands out rows of many tables mixed: "
                               "sort a query that reads the component with ecs_sched_read",
                               operation);
    }
    if (!ecs_sched__list_of(q)) return ecs_sched__out_of_memory(w, operation);
    if (!q->ticked) {
        if (q->match_count &&
            !ECS_SCHED__GROW(&w->env, q->match_ticks, &q->match_ticks_capacity, q->match_count)) {
            return ecs_sched__out_of_memory(w, operation);
        }
        for (i = 0; i < q->match_count; i++) {
            ecs_sched__match_ticks_fill(q, &q->matches[i], &q->match_ticks[i]);
        }
        q->ticked = true;
    }
    q->listed = true;
    q->plain = false;
    q->list->made = false;
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__check_no_cascade(ecs_sched_query *q, const char *operation) {
    int32_t i;
    for (i = 0; i < q->term_count; i++) {
        if (q->terms[i].kind == ECS_SCHED_TERM_CASCADE) {
            return ecs_sched__fail(&q->world->env, ECS_SCHED_ERR_INVALID_QUERY,
                                   "%s: the query cascades (term %d) and has that order; a "
                                   "query has one order", operation, (int)i);
        }
    }
    return ECS_SCHED_OK;
}

/* A query that hands out an entity once per target keeps those rows in table order. */
static ecs_sched_result ecs_sched__check_not_each_target(ecs_sched_query *q, const char *operation) {
    if (q->each_target < 0) return ECS_SCHED_OK;
    return ecs_sched__fail(&q->world->env, ECS_SCHED_ERR_INVALID_QUERY,
                           "%s: the query hands out each target of '%s' (term %d), in table "
                           "order; sort or group a query without such a term", operation,
                           q->world->components[q->terms[q->each_target].id].name,
                           (int)q->each_target);
}

ecs_sched_result ecs_sched_query_order_by(ecs_sched_query *q, ecs_sched_id component,
                                          ecs_sched_order_fn compare) {
    ecs_sched_world *w;
    ecs_sched_result result;
    int32_t i;
    ECS_SCHED_ASSERT(q != NULL);
    w = q->world;
    if (!compare) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "query_order_by: no compare function");
    }
    if (!ecs_sched__component_valid(w, component)) {
        return ecs_sched__unknown_component(w, component, "query_order_by");
    }
    for (i = 0; i < q->term_count; i++) {
        if (q->terms[i].id == component && ecs_sched__term_on_self(q->terms[i].kind)) break;
    }
    if (w->components[component].sparse) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                               "query_order_by: '%s' is sparse; sort by a component kept in "
                               "tables", w->components[component].name);
    }
    if (i == q->term_count || w->components[component].size == 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                               "query_order_by: the query %s '%s'; sort by a component with a "
                               "value that a term reads or writes on the entity itself",
                               i == q->term_count ? "has no term on the entity for" : "reads a tag,",
                               w->components[component].name);
    }
    result = ecs_sched__check_no_cascade(q, "query_order_by");
    if (result == ECS_SCHED_OK) result = ecs_sched__check_not_each_target(q, "query_order_by");
    if (result == ECS_SCHED_OK) result = ecs_sched__query_listed(q, "query_order_by");
    if (result != ECS_SCHED_OK) return result;
    q->list->order_term = i;
    q->list->order = compare;
    return ECS_SCHED_OK;
}

#ifndef ECS_SCHED_NO_RELATIONS
ecs_sched_result ecs_sched_query_group_by(ecs_sched_query *q, ecs_sched_id kind) {
    ecs_sched_world *w;
    ecs_sched_result result;
    ECS_SCHED_ASSERT(q != NULL);
    w = q->world;
    if (!ecs_sched__is_kind(w, kind)) return ecs_sched__not_a_kind(w, kind, "query_group_by");
    if (!(w->components[kind].relation & ECS_SCHED__KIND_EXCLUSIVE)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                               "query_group_by: '%s' is not exclusive, so an entity could be in "
                               "several groups; group by an exclusive kind (ChildOf is)",
                               w->components[kind].name);
    }
    result = ecs_sched__check_no_cascade(q, "query_group_by");
    if (result == ECS_SCHED_OK) result = ecs_sched__check_not_each_target(q, "query_group_by");
    if (result == ECS_SCHED_OK) result = ecs_sched__query_listed(q, "query_group_by");
    if (result != ECS_SCHED_OK) return result;
    q->list->group_kind = kind;
    return ECS_SCHED_OK;
}
#endif

/* ---- the sort ---- */

/* The order column's change state in a match's table (untracked: NULL). */
static const ecs_sched__ticks *ecs_sched__order_ticks(const ecs_sched_query *q,
                                                      const ecs_sched__row_list *c, uint32_t m) {
    return ecs_sched__ticks_find(q->matches[m].table, q->terms[c->order_term].id);
}

/* Whether the order's values may have changed since the last sort. */
static bool ecs_sched__sort_stale(ecs_sched_query *q, ecs_sched__row_list *c) {
    uint32_t m;
    if (!q->world->components[q->terms[c->order_term].id].tracked) return true;
    if (c->seen_capacity < q->match_count) return true;
    for (m = 0; m < q->match_count; m++) {
        const ecs_sched__ticks *k = ecs_sched__order_ticks(q, c, m);
        const ecs_sched__sort_seen *s = &c->seen[m];
        if (k && (k->log.serial != s->serial || k->has_bulk != s->has_bulk ||
                  (k->has_bulk && k->bulk != s->bulk))) {
            return true;
        }
    }
    return false;
}

static void ecs_sched__sort_remember(ecs_sched_query *q, ecs_sched__row_list *c) {
    uint32_t m;
    for (m = 0; m < q->match_count && m < c->seen_capacity; m++) {
        const ecs_sched__ticks *k = ecs_sched__order_ticks(q, c, m);
        ecs_sched__sort_seen *s = &c->seen[m];
        s->serial = k ? k->log.serial : 0;
        s->bulk = k ? k->bulk : 0;
        s->has_bulk = k ? k->has_bulk : false;
    }
}

/* Negative when row a comes before row b. */
static int ecs_sched__compare_rows(const ecs_sched_query *q, const ecs_sched__row_list *c,
                                   const ecs_sched__list_row *a, const ecs_sched__list_row *b) {
    const ecs_sched__table *ta = q->matches[a->match].table, *tb = q->matches[b->match].table;
    ecs_sched_entity ea = ta->entities[a->row], eb = tb->entities[b->row];
#ifndef ECS_SCHED_NO_RELATIONS
    if (c->group_kind) {
        uint32_t ga = ECS_SCHED_ENTITY_INDEX(ecs_sched__up(q->world, ea, c->group_kind));
        uint32_t gb = ECS_SCHED_ENTITY_INDEX(ecs_sched__up(q->world, eb, c->group_kind));
        if (ga != gb) return ga < gb ? -1 : 1;
    }
#endif
    if (c->order_term >= 0) {
        int32_t ca = q->matches[a->match].column[c->order_term];
        int32_t cb = q->matches[b->match].column[c->order_term];
        return c->order(ea, ecs_sched__cell(ta, ca, (uint32_t)a->row), eb,
                        ecs_sched__cell(tb, cb, (uint32_t)b->row));
    }
    return 0;
}

/* A stable merge sort of the list, bottom up, through the scratch list. */
static bool ecs_sched__sort_rows(ecs_sched_query *q, ecs_sched__row_list *c) {
    ecs_sched__list_row *from = c->rows, *to = c->sorted, *swap;
    uint32_t n = c->count, width, i;
    if (c->order_term >= 0 &&
        !ECS_SCHED__GROW(&q->world->env, c->seen, &c->seen_capacity, q->match_count + 1u)) {
        return false;
    }
    for (width = 1; width < n; width *= 2) {
        for (i = 0; i < n; i += 2 * width) {
            uint32_t left = i, mid = i + width < n ? i + width : n;
            uint32_t right = mid, end = i + 2 * width < n ? i + 2 * width : n, out = i;
            while (left < mid && right < end) {
                if (ecs_sched__compare_rows(q, c, &from[right], &from[left]) < 0) to[out++] = from[right++];
                else to[out++] = from[left++];
            }
            while (left < mid) to[out++] = from[left++];
            while (right < end) to[out++] = from[right++];
        }
        swap = from;
        from = to;
        to = swap;
    }
    if (from != c->rows) memcpy(c->rows, from, (size_t)n * sizeof *from);
    if (c->order_term >= 0) ecs_sched__sort_remember(q, c);
    return true;
}
