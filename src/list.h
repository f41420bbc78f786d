/* list: the rows a query keeps in an order of its own. */
#pragma once
#include "registry.h"

/*@@ implementation @@*/
/* list: the rows a query keeps in an order of its own.

   Hierarchical, sorted and sparse queries hand out the rows of a list they keep instead of
   their tables (query.h makes it; its producers fill it: hierarchy.h orders by depth and
   finds parents' values, sort.h sorts, sparse_query.h picks the rows with sparse values; the
   iteration, iter.h, decides which run and walks it). The list holds the rows in order, where
   each run of rows consecutive in one table ends, and per term a block of one pointer per row
   (a parent's value, or a sparse value). What only a producer reads is kept here too, so that
   the list is freed in one place. */

typedef struct ecs_sched__list_row {
    uint32_t match;
    int32_t row;
} ecs_sched__list_row;

/* What a sorted query's order column had seen of a match's table at the last sort (sort.h). */
typedef struct ecs_sched__sort_seen {
    uint32_t serial;                 /* its change log's entries so far */
    uint32_t bulk;
    bool has_bulk;
} ecs_sched__sort_seen;

typedef struct ecs_sched__row_list {
    uint32_t version;              /* the world's rows_version it was made at */
    bool made;
    ecs_sched__list_row *rows;     /* in iteration order */
    uint32_t *run_end;             /* per row: where its run of consecutive rows ends */
    uint32_t count;
    uint32_t capacity;
    uint32_t run_capacity;
    const void **parents;          /* per term with a block, `capacity` pointers */
    uint32_t parents_capacity;
    int16_t parent_slot[ECS_SCHED_MAX_TERMS];   /* the term's block of parents (or of sparse
                                                   values), or -1 */
    bool sparse_term[ECS_SCHED_MAX_TERMS];      /* the term's component is sparse */
    uint32_t *match_of;            /* sparse_query.h, scratch: by table index, its match + 1 */
    uint32_t match_of_capacity;
    int32_t parent_terms;
    int32_t cascade;               /* the cascading term, or -1 */
    uint32_t *depths;              /* hierarchy.h, scratch: per row, then per depth */
    uint32_t depth_capacity;
    uint32_t *memo;                /* by entity index: depth + 1 when memo_stamp matches */
    uint32_t *memo_stamp;
    uint32_t memo_capacity;
    uint32_t stamp;
    ecs_sched__list_row *sorted;   /* scratch for the sorts */
    uint32_t sorted_capacity;
    /* sort.h: */
    int32_t order_term;            /* the term whose component orders the rows, or -1 */
    int (*order)(ecs_sched_entity, const void *, ecs_sched_entity, const void *);
    ecs_sched_id group_kind;       /* rows grouped by their target of this kind, or 0 */
    ecs_sched__sort_seen *seen;    /* per match: the order column's changes seen */
    uint32_t seen_capacity;
} ecs_sched__row_list;

static void ecs_sched__list_free(ecs_sched__env *env, ecs_sched__row_list *l) {
    if (!l) return;
    ecs_sched__free(env, l->rows);
    ecs_sched__free(env, l->run_end);
    ecs_sched__free(env, l->parents);
    ecs_sched__free(env, l->depths);
    ecs_sched__free(env, l->memo);
    ecs_sched__free(env, l->memo_stamp);
    ecs_sched__free(env, l->sorted);
    ecs_sched__free(env, l->seen);
    ecs_sched__free(env, l->match_of);
    ecs_sched__free(env, l);
}

/* Room for `rows` rows, their runs, the scratch of the sorts and the blocks of pointers. The
   blocks are `capacity` apart (not `rows`: capacity may be larger, and a block's values are
   found by it). */
static bool ecs_sched__list_reserve(ecs_sched__env *env, ecs_sched__row_list *l, uint32_t rows) {
    return ECS_SCHED__GROW(env, l->rows, &l->capacity, rows) &&
           ECS_SCHED__GROW(env, l->run_end, &l->run_capacity, rows + 1u) &&
           ECS_SCHED__GROW(env, l->sorted, &l->sorted_capacity, rows) &&
           ECS_SCHED__GROW(env, l->parents, &l->parents_capacity,
                           l->capacity * (uint32_t)l->parent_terms + 1u);
}

/* Where each row's run of rows consecutive in one table ends, so that an iteration hands
   out a run without looking at its rows. */
static void ecs_sched__list_runs(ecs_sched__row_list *l) {
    uint32_t i = l->count;
    while (i-- > 0) {
        bool joins = i + 1u < l->count && l->rows[i + 1u].match == l->rows[i].match &&
                     l->rows[i + 1u].row == l->rows[i].row + 1;
        l->run_end[i] = joins ? l->run_end[i + 1u] : i + 1u;
    }
}
