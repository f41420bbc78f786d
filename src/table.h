/* table: archetype tables, their columns, and moving an entity's row between them. */
#pragma once
#include "ticks.h"

/*@@ implementation @@*/
/* table: archetype tables. Entities with the same set of components share a table, which
   keeps each sized component as one contiguous column; a table is found by its type (a hash
   map) or by a step from another table (an edge per component added or removed, the last few
   remembered by the table itself), grows by doubling, and loses a row by moving its last row
   into the hole. */


/* Ids up to this many get a table's map from id to column (2 bytes each, per table): beyond,
   the columns are searched. */
#define ECS_SCHED__COLUMN_MAP_MAX 4096

/* Columns start on a cache line whatever their component's alignment: a kernel's vector
   loads and stores then never straddle two lines (a column of 16-byte values starting 8
   bytes into a line made x = x * a + b over it some 10 % slower). */
#define ECS_SCHED__COLUMN_ALIGNMENT 64

static int32_t ecs_sched__column_search(const ecs_sched__table *t, ecs_sched_id id) {
    int32_t lo = 0, hi = t->column_count;
    while (lo < hi) {
        int32_t mid = (lo + hi) / 2;
        if (t->columns[mid].id < id) lo = mid + 1;
        else hi = mid;
    }
    return lo < t->column_count && t->columns[lo].id == id ? lo : -1;
}

/* A table's map from id to column: right after the table in its block, so that finding it
   takes no load. */
static inline const int16_t *ecs_sched__column_map(const ecs_sched__table *t) {
    return (const int16_t *)(const void *)((const unsigned char *)t + sizeof *t);
}

/* The same, to fill in when the table is made. */
static inline int16_t *ecs_sched__column_map_to_fill(ecs_sched__table *t) {
    return (int16_t *)(void *)((unsigned char *)t + sizeof *t);
}

/* The column of a component, or -1: one load from the table's map, instead of a search whose
   branches a get of several components in turn mispredicts. */
static inline int32_t ecs_sched__column_find(const ecs_sched__table *t, ecs_sched_id id) {
    if (id < t->column_map) return ecs_sched__column_map(t)[id];
    return t->column_map ? -1 : ecs_sched__column_search(t, id);
}

/* Whether t's type holds id: most ids a table lacks are told by its id bits, and the
   sized ids it holds by its map, before a search. */
static inline bool ecs_sched__table_has(const ecs_sched__table *t, ecs_sched_id id) {
    if (!(t->id_bits & ecs_sched__id_bit(id))) return false;
    if (id < t->column_map && ecs_sched__column_map(t)[id] >= 0) return true;
    return ecs_sched__type_find(t, id) >= 0;
}

static void ecs_sched__table_free(ecs_sched_world *w, ecs_sched__table *t) {
    int32_t i;
    for (i = 0; i < t->column_count; i++) {
        ecs_sched__column *col = &t->columns[i];
        ecs_sched__destruct(&w->components[col->id], col->data, t->count);
        ecs_sched__aligned_free(&w->env, col->data);
    }
    ecs_sched__ticks_free(w, t);
    for (i = 0; i < t->toggle_count; i++) ecs_sched__free(&w->env, t->toggles[i].bits);
    ecs_sched__free(&w->env, t->entities);
    ecs_sched__free(&w->env, t);
}

static ecs_sched__table *ecs_sched__table_find(ecs_sched_world *w, const ecs_sched_id *type,
                                               int32_t count, uint64_t hash) {
    uint32_t slot = ECS_SCHED__NONE, index;
    while ((index = ecs_sched__map_next(&w->types, hash, &slot)) != ECS_SCHED__NONE) {
        ecs_sched__table *t = w->tables[index];
        if (t->type_count == count &&
            (count == 0 || memcmp(t->type, type, (size_t)count * sizeof *type) == 0)) {
            return t;
        }
    }
    return NULL;
}

/* ---- toggleable components: a bit per row ---- */

static inline size_t ecs_sched__toggle_words(int32_t rows) {
    return ((size_t)rows + 63u) / 64u;
}

static inline bool ecs_sched__toggle_bit(const ecs_sched__toggle *g, int32_t row) {
    return (g->bits[row / 64] >> (row % 64)) & 1u;
}

static inline void ecs_sched__toggle_put(ecs_sched__toggle *g, int32_t row, bool on) {
    uint64_t bit = (uint64_t)1 << (row % 64);
    if (on) g->bits[row / 64] |= bit;
    else g->bits[row / 64] &= ~bit;
}

/* The bits of component id in t, or NULL (a table has few toggleable components). */
static inline ecs_sched__toggle *ecs_sched__toggle_find(const ecs_sched__table *t, ecs_sched_id id) {
    int32_t i;
    for (i = 0; i < t->toggle_count; i++) {
        if (t->toggles[i].id == id) return &t->toggles[i];
    }
    return NULL;
}

/* New rows [first, first + n) of t start enabled. */
static void ecs_sched__toggles_enable_new(ecs_sched__table *t, int32_t first, int32_t n) {
    int32_t i, row;
    for (i = 0; i < t->toggle_count; i++) {
        for (row = first; row < first + n; row++) ecs_sched__toggle_put(&t->toggles[i], row, true);
    }
}

/* src's row `from` moved to dst's new row `to`: a component both tables have keeps its bit,
   one only dst has starts enabled. */
static void ecs_sched__toggles_move_row(ecs_sched__table *dst, int32_t to,
                                        const ecs_sched__table *src, int32_t from) {
    int32_t i;
    for (i = 0; i < dst->toggle_count; i++) {
        const ecs_sched__toggle *s = ecs_sched__toggle_find(src, dst->toggles[i].id);
        ecs_sched__toggle_put(&dst->toggles[i], to, !s || ecs_sched__toggle_bit(s, from));
    }
}

/* Row `row` leaves and the last row takes its place, with its bits. */
/* Every row of t is gone at once (a whole-table move or despawn): no bit past its rows. */
static void ecs_sched__toggles_clear(ecs_sched__table *t) {
    int32_t i;
    for (i = 0; i < t->toggle_count; i++) {
        if (t->toggles[i].bits) {
            memset(t->toggles[i].bits, 0, ecs_sched__toggle_words(t->capacity) * sizeof(uint64_t));
        }
    }
}

static void ecs_sched__toggles_delete_row(ecs_sched__table *t, int32_t row, int32_t last) {
    int32_t i;
    for (i = 0; i < t->toggle_count; i++) {
        ecs_sched__toggle *g = &t->toggles[i];
        ecs_sched__toggle_put(g, row, ecs_sched__toggle_bit(g, last));
        ecs_sched__toggle_put(g, last, false);
    }
}

/* Makes room for `extra` more rows; on failure the table is unchanged. */
/* A column of values a move hook relocates: a new block, the values moved by the hook. */
static unsigned char *ecs_sched__column_moved(ecs_sched_world *w, const ecs_sched__column *col,
                                              int32_t count, int32_t capacity, size_t alignment,
                                              size_t skew) {
    const ecs_sched__component *c = &w->components[col->id];
    unsigned char *data = (unsigned char *)ecs_sched__aligned_alloc_skewed(
        &w->env, (size_t)capacity * c->size, alignment, skew);
    if (!data) return NULL;
    ecs_sched__relocate(c, data, col->data, count);
    ecs_sched__aligned_free(&w->env, col->data);
    return data;
}

/* The bits of t's toggles, with room for `capacity` rows (more than t has), the new words
   zeroed. A failure leaves the rows as they were: what grew already only has room to spare. */
static bool ecs_sched__toggles_grow(ecs_sched_world *w, ecs_sched__table *t, int32_t capacity) {
    size_t old_words = ecs_sched__toggle_words(t->capacity), words = ecs_sched__toggle_words(capacity);
    int32_t i;
    for (i = 0; i < t->toggle_count; i++) {
        ecs_sched__toggle *g = &t->toggles[i];
        uint64_t *bits = (uint64_t *)ecs_sched__realloc(&w->env, g->bits, words * sizeof *bits);
        if (!bits) return false;
        memset(bits + old_words, 0, (words - old_words) * sizeof *bits);
        g->bits = bits;
    }
    return true;
}

/* Room for `extra` more rows. The columns and the entities grow one by one through the
   allocator's realloc (a large block grows by moving pages, not bytes: first growth touches
   only the pages the rows use); a column whose values a move hook relocates gets a new block.
   A failure leaves the rows as they were: what grew already only has room to spare. */
static bool ecs_sched__table_grow(ecs_sched_world *w, ecs_sched__table *t, int32_t extra) {
    uint32_t *ticks[ECS_SCHED__MAX_TYPE];
    ecs_sched_entity *entities;
    int64_t needed = (int64_t)t->count + extra;
    int32_t i, capacity;
    if (needed > INT32_MAX) return false;
    w->rows_version++;   /* the columns may move: the lists of queries point into them */
    capacity = t->capacity ? t->capacity : 4;
    while (capacity < needed) capacity = capacity > INT32_MAX / 2 ? (int32_t)needed : capacity * 2;
    for (i = 0; i < t->tick_count; i++) {
        ticks[i] = (uint32_t *)ecs_sched__alloc(&w->env,
                                                 ecs_sched__tick_words(capacity) * sizeof(uint32_t));
        if (!ticks[i]) {
            while (i-- > 0) ecs_sched__free(&w->env, ticks[i]);
            return false;
        }
    }
    entities = (ecs_sched_entity *)ecs_sched__realloc(&w->env, t->entities,
                                                      (size_t)capacity * sizeof *entities);
    for (i = 0; entities && i < t->column_count; i++) {
        ecs_sched__column *col = &t->columns[i];
        const ecs_sched__component *c = &w->components[col->id];
        size_t skew = (size_t)(i % 13) * 320;  /* distinct page offsets, whole cache lines */
        size_t alignment = c->alignment > ECS_SCHED__COLUMN_ALIGNMENT ? c->alignment
                                                                      : ECS_SCHED__COLUMN_ALIGNMENT;
        unsigned char *data =
            c->hooks.move ? ecs_sched__column_moved(w, col, t->count, capacity, alignment, skew)
                          : (unsigned char *)ecs_sched__aligned_realloc_skewed(
                                &w->env, col->data, (size_t)t->count * c->size,
                                (size_t)capacity * c->size, alignment, skew);
        if (!data) break;
        col->data = data;
    }
    if (entities) t->entities = entities;
    if (!entities || i < t->column_count ||
        (t->toggle_count && !ecs_sched__toggles_grow(w, t, capacity))) {
        for (i = 0; i < t->tick_count; i++) ecs_sched__free(&w->env, ticks[i]);
        return false;
    }
    for (i = 0; i < t->tick_count; i++) ecs_sched__ticks_move(w, &t->ticks[i], ticks[i], t->count, capacity);
    t->capacity = capacity;
    return true;
}

static inline bool ecs_sched__table_reserve(ecs_sched_world *w, ecs_sched__table *t,
                                            int32_t extra) {
    return (int64_t)t->count + extra <= t->capacity || ecs_sched__table_grow(w, t, extra);
}

/* Removes a row whose values were already moved out or destroyed, by moving the last row
   into the hole. */
static ECS_SCHED__ALWAYS_INLINE void ecs_sched__table_delete_row(ecs_sched_world *w,
                                                               ecs_sched__table *t, int32_t row) {
    int32_t last = t->count - 1, i;
    if (row != last) {
        ecs_sched_entity moved = t->entities[last];
        /* in locals: the values copied could alias the table as far as the compiler knows */
        const ecs_sched__column *columns = t->columns;
        int32_t column_count = t->column_count;
        bool hooked = t->hooked;
        for (i = 0; i < column_count; i++) {
            const ecs_sched__column *col = &columns[i];
            unsigned char *hole = col->data + (size_t)row * col->size;
            unsigned char *from = col->data + (size_t)last * col->size;
            if (hooked) ecs_sched__relocate(&w->components[col->id], hole, from, 1);
            else ecs_sched__copy_value(hole, from, col->size);
        }
        t->entities[row] = moved;
        w->records[ECS_SCHED_ENTITY_INDEX(moved)].row = (uint32_t)row;
    }
    if (t->tick_count) ecs_sched__ticks_delete_row(w, t, row, last);
    if (t->toggle_count) ecs_sched__toggles_delete_row(t, row, last);
    t->count = last;
    w->rows_version++;
}

static inline void *ecs_sched__cell(const ecs_sched__table *t, int32_t column, uint32_t row) {
    const ecs_sched__column *col = &t->columns[column];
    return col->data + (size_t)row * col->size;
}

/* Moves an entity's row from its table to dst: shared values are relocated, values dst lacks
   are destroyed, values only dst has are left raw for the caller to construct. */
static bool ecs_sched__move_entity(ecs_sched_world *w, uint32_t index, ecs_sched__table *dst) {
    ecs_sched__record *r = &w->records[index];
    ecs_sched__table *src = w->tables[r->table];
    int32_t row = (int32_t)r->row, dst_row, i, column_count;
    const ecs_sched__column *columns;
    bool hooked;
    if (!ecs_sched__table_reserve(w, dst, 1)) return false;
    dst_row = dst->count++;
    dst->entities[dst_row] = src->entities[row];
    if (dst->tick_count) ecs_sched__ticks_move_row(w, dst, dst_row, src, row);
    if (dst->toggle_count) ecs_sched__toggles_move_row(dst, dst_row, src, row);
    /* each value, in id order, goes to its column in dst (found by dst's map) or is destroyed;
       what the loop reads of the tables is in locals: the values copied could alias them as
       far as the compiler knows */
    columns = src->columns;
    column_count = src->column_count;
    hooked = src->hooked;
    for (i = 0; i < column_count; i++) {
        const ecs_sched__column *s = &columns[i];
        unsigned char *value = s->data + (size_t)row * s->size;
        int32_t j = ecs_sched__column_find(dst, s->id);
        if (j < 0) {
            if (hooked) ecs_sched__destruct(&w->components[s->id], value, 1);
        } else if (hooked) {
            ecs_sched__relocate(&w->components[s->id], ecs_sched__cell(dst, j, (uint32_t)dst_row),
                                value, 1);
        } else {
            ecs_sched__copy_value(ecs_sched__cell(dst, j, (uint32_t)dst_row), value, s->size);
        }
    }
    ecs_sched__table_delete_row(w, src, row);
    r->table = dst->index;
    r->row = (uint32_t)dst_row;
    return true;
}

/* Moves every row of src to the end of dst, which has room for them (table_reserve): what
   ecs_sched__move_entity does to one row, done to each column as one block (shared values
   relocated, values dst lacks destroyed, values only dst has left raw for the caller). The
   records follow; src is left empty. */
static void ecs_sched__move_rows(ecs_sched_world *w, ecs_sched__table *src, ecs_sched__table *dst) {
    int32_t n = src->count, first = dst->count, i;
    if (n == 0) return;
    memcpy(dst->entities + first, src->entities, (size_t)n * sizeof *dst->entities);
    for (i = 0; dst->tick_count && i < n; i++) ecs_sched__ticks_move_row(w, dst, first + i, src, i);
    for (i = 0; dst->toggle_count && i < n; i++) ecs_sched__toggles_move_row(dst, first + i, src, i);
    if (src->toggle_count) ecs_sched__toggles_clear(src);
    ecs_sched__ticks_leave_all(src);
    for (i = 0; i < src->column_count; i++) {
        const ecs_sched__column *s = &src->columns[i];
        int32_t j = ecs_sched__column_find(dst, s->id);
        if (j < 0) ecs_sched__destruct(&w->components[s->id], s->data, n);
        else ecs_sched__relocate(&w->components[s->id], ecs_sched__cell(dst, j, (uint32_t)first), s->data, n);
    }
    for (i = 0; i < n; i++) {
        ecs_sched__record *r = &w->records[ECS_SCHED_ENTITY_INDEX(src->entities[i])];
        r->table = dst->index;
        r->row = (uint32_t)(first + i);
    }
    dst->count = first + n;
    src->count = 0;
    w->rows_version++;
}

/* ecs_sched_world_check: a table has bits for each toggleable component of its type and
   room for its rows, and no bit past its rows is set (each path that adds, moves or deletes
   rows keeps the bits). */
static ecs_sched_result ecs_sched__check_toggles(ecs_sched_world *w, const ecs_sched__table *t) {
    int32_t k, toggleable = 0, row;
    for (k = 0; k < t->type_count; k++) toggleable += w->components[t->type[k]].toggleable;
    if (toggleable != t->toggle_count) {
        return ecs_sched__inconsistent(w, "toggleable components without bits", t->index,
                                       (unsigned)t->toggle_count);
    }
    for (k = 0; k < t->toggle_count; k++) {
        const ecs_sched__toggle *g = &t->toggles[k];
        if (!w->components[g->id].toggleable || ecs_sched__type_find(t, g->id) < 0 ||
            (k > 0 && t->toggles[k - 1].id >= g->id)) {
            return ecs_sched__inconsistent(w, "bits of a component not toggleable in the type",
                                           t->index, g->id);
        }
        if (t->capacity && !g->bits) {
            return ecs_sched__inconsistent(w, "table rows without bits", t->index, g->id);
        }
        for (row = t->count; row < (int32_t)ecs_sched__toggle_words(t->capacity) * 64; row++) {
            if (ecs_sched__toggle_bit(g, row)) {
                return ecs_sched__inconsistent(w, "bit set past the rows of a table", t->index,
                                               (unsigned)row);
            }
        }
    }
    return ECS_SCHED_OK;
}

/* ecs_sched_world_check: each table is where the type map says, sorted, aligned, and its
   rows and the entity records agree. */
static ecs_sched_result ecs_sched__check_tables(ecs_sched_world *w) {
    uint32_t i;
    int64_t total = 0;
    for (i = 0; i < w->table_count; i++) {
        const ecs_sched__table *t = w->tables[i];
        int32_t row, k;
        if (t->index != i) return ecs_sched__inconsistent(w, "table index", i, t->index);
        if (t->count < 0 || t->count > t->capacity) {
            return ecs_sched__inconsistent(w, "table count exceeds capacity", i, (unsigned)t->count);
        }
        if (ecs_sched__table_find(w, t->type, t->type_count,
                                  ecs_sched__hash_type(t->type, t->type_count)) != t) {
            return ecs_sched__inconsistent(w, "table missing from the type map", i, 0);
        }
        for (k = 1; k < t->type_count; k++) {
            if (t->type[k - 1] >= t->type[k]) {
                return ecs_sched__inconsistent(w, "unsorted type", i, (unsigned)k);
            }
        }
        for (k = 0; k < t->column_count; k++) {
            if ((uintptr_t)t->columns[k].data % w->components[t->columns[k].id].alignment) {
                return ecs_sched__inconsistent(w, "misaligned column", i, (unsigned)k);
            }
        }
        if (ecs_sched__check_toggles(w, t) != ECS_SCHED_OK) return w->env.last_result;
        for (row = 0; row < t->count; row++) {
            ecs_sched_entity e = t->entities[row];
            uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
            if (!ecs_sched__is_live_record(w, e) || w->records[index].table != i ||
                w->records[index].row != (uint32_t)row) {
                return ecs_sched__inconsistent(w, "table row and entity record disagree", i,
                                               (unsigned)row);
            }
        }
        total += t->count;
    }
    if (total != w->alive_count) {
        return ecs_sched__inconsistent(w, "rows in tables differ from live entities",
                                       (unsigned)total, (unsigned)w->alive_count);
    }
    return ECS_SCHED_OK;
}
