/* ticks: the change ticks of tracked components, kept beside the rows of their tables. */
#pragma once
#include "registry.h"

/*@@ implementation @@*/
/* ticks: the change ticks of tracked components, kept beside the rows of their tables.

   A table keeps, for each tracked component in its type, a tick column (ecs_sched__ticks,
   world.h): per row the tick the component was added and the tick it last changed, per block
   of ECS_SCHED__TICK_BLOCK rows the newest change in it, and a log of the rows that changed in
   the order they did. The world's table code calls in here whenever rows are made, moved or
   deleted; what a tick means to a reader, and the iteration by what changed, are change.h's. */

static inline uint32_t ecs_sched__tick_load(const ecs_sched_world *w) {
#ifdef ECS_SCHED_THREADS
    return atomic_load_explicit((atomic_uint *)(uintptr_t)&w->tick, memory_order_relaxed);
#else
    return w->tick;
#endif
}

/* Hands out the next tick: to a system or condition that runs, to a query iterated outside
   systems. Systems that run at once take theirs from any thread. */
static inline uint32_t ecs_sched__tick_take(ecs_sched_world *w) {
#ifdef ECS_SCHED_THREADS
    return atomic_fetch_add_explicit(&w->tick, 1u, memory_order_relaxed) + 1u;
#else
    return ++w->tick;
#endif
}

/* The tick of a change made by what runs: its own, or the next one while its commands are
   applied (a sync point runs after it). */
static inline uint32_t ecs_sched__running_tick(const ecs_sched_world *w,
                                               const ecs_sched__running *running) {
    return running->applying ? ecs_sched__tick_load(w) + 1u : running->this_run;
}

/* The tick of a change made now: the running system's, else (outside systems, or commands
   being applied) the next one to be handed out, so that every system that runs from now on
   sees the change and none that ran before saw it. */
static inline uint32_t ecs_sched__tick_now(const ecs_sched_world *w) {
    const ecs_sched__running *running = ecs_sched__running_in(&w->env);
    return running ? ecs_sched__running_tick(w, running) : ecs_sched__tick_load(w) + 1u;
}

/* From now on systems take ticks and resources keep theirs; the resources there are count
   as added and changed now. */
static void ecs_sched__ticks_turn_on(ecs_sched_world *w) {
    uint32_t i, now = ecs_sched__tick_load(w) + 1u;
    if (w->ticks_on) return;
    for (i = 1; i < w->component_count; i++) {
        w->resource_stamps[i].added = w->resource_stamps[i].changed = now;
    }
    w->ticks_on = true;
}

/* Whether `tick` is newer than `than`, seen from `now`: ticks wrap, so what counts is their
   age, now - tick. */
static inline bool ecs_sched__tick_newer(uint32_t tick, uint32_t than, uint32_t now) {
    return (uint32_t)(now - tick) < (uint32_t)(now - than);
}

static inline uint32_t ecs_sched__tick_newest(uint32_t a, uint32_t b, uint32_t now) {
    return ecs_sched__tick_newer(a, b, now) ? a : b;
}

static inline ecs_sched__ticks *ecs_sched__ticks_find(const ecs_sched__table *t, ecs_sched_id id) {
    int32_t i;
    for (i = 0; i < t->tick_count; i++) {
        if (t->ticks[i].id == id) return &t->ticks[i];
    }
    return NULL;
}

/* Row `row` changed at `tick`: its block's newest keeps up. */
static inline void ecs_sched__ticks_note(ecs_sched__ticks *k, int32_t row, uint32_t tick,
                                         uint32_t now) {
    uint32_t *newest = &k->newest[row / ECS_SCHED__TICK_BLOCK];
    *newest = ecs_sched__tick_newest(*newest, tick, now);
}

/* The entry with this serial, while the log holds it. */
static inline ecs_sched__change *ecs_sched__log_entry(const ecs_sched__change_log *log,
                                                      uint32_t serial) {
    uint32_t at = serial - log->first_serial;
    return at < log->count ? &log->items[(log->start + at) & (log->capacity - 1)] : NULL;
}

/* The live entry of row `row`, or NULL (its `logged` may be anything for a row never
   logged: the entry found must name the row). */
static inline ecs_sched__change *ecs_sched__row_entry(const ecs_sched__ticks *k, uint32_t row) {
    ecs_sched__change *e = ecs_sched__log_entry(&k->log, k->logged[row]);
    return e && e->row == row ? e : NULL;
}

/* The log no longer holds changes logged before now (or it could not keep one). */
static void ecs_sched__change_log_cut(ecs_sched_world *w, ecs_sched__change_log *log) {
    log->first_serial = log->serial + 1u;
    log->start = log->count = 0;
    log->truncated = true;
    log->since = ecs_sched__tick_load(w) + 1u;
}

/* The most entries a table's log keeps: a quarter of its rows, and at least 256. */
static uint32_t ecs_sched__change_log_limit(const ecs_sched__table *t) {
    uint32_t limit = 256;
    while (limit < (uint32_t)t->count / 4u && limit < (UINT32_C(1) << 30)) limit *= 2;
    return limit;
}

/* Room for one more entry: a bigger ring, or the oldest quarter dropped. */
static bool ecs_sched__change_log_room(ecs_sched_world *w, const ecs_sched__table *t,
                                       ecs_sched__change_log *log) {
    uint32_t dropped, i;
    if (log->count < log->capacity) return true;
    if (log->capacity < ecs_sched__change_log_limit(t)) {
        uint32_t capacity = log->capacity ? log->capacity * 2 : 64;
        ecs_sched__change *items =
            (ecs_sched__change *)ecs_sched__alloc(&w->env, capacity * sizeof *items);
        if (items) {
            for (i = 0; i < log->count; i++) {
                items[i] = log->items[(log->start + i) & (log->capacity - 1)];
            }
            ecs_sched__free(&w->env, log->items);
            log->items = items;
            log->capacity = capacity;
            log->start = 0;
            return true;
        }
    }
    if (log->capacity == 0) return false;
    dropped = log->count / 4 ? log->count / 4 : 1;
    log->since = log->items[(log->start + dropped - 1) & (log->capacity - 1)].seq + 1u;
    log->truncated = true;
    log->start = (log->start + dropped) & (log->capacity - 1);
    log->count -= dropped;
    log->first_serial += dropped;
    return true;
}

/* Row `row` of t changed: its entry in the log. */
static void ecs_sched__log_change(ecs_sched_world *w, const ecs_sched__table *t,
                                  ecs_sched__ticks *k, int32_t row) {
    ecs_sched__change_log *log = &k->log;
    ecs_sched__change *entry = ecs_sched__row_entry(k, (uint32_t)row);
    if (entry) entry->row = ECS_SCHED__DEAD_ROW;
    if (!ecs_sched__change_log_room(w, t, log)) {
        ecs_sched__change_log_cut(w, log);
        return;
    }
    if (log->count == 0) log->first_serial = log->serial + 1u;
    entry = &log->items[(log->start + log->count++) & (log->capacity - 1)];
    entry->row = (uint32_t)row;
    entry->changed = k->changed[row];
    entry->seq = ecs_sched__tick_load(w);
    entry->serial = ++log->serial;
    k->logged[row] = entry->serial;
}

/* Every tick of row `row`, which holds another entity than before (a new row, or one that
   moved here). */
static void ecs_sched__ticks_set(ecs_sched_world *w, const ecs_sched__table *t,
                                 ecs_sched__ticks *k, int32_t row, uint32_t added,
                                 uint32_t changed, uint32_t now) {
    k->added[row] = added;
    k->changed[row] = changed;
    ecs_sched__ticks_note(k, row, changed, now);
    ecs_sched__log_change(w, t, k, row);
}

/* The value of row `row` changed at `tick`. Its entry moves to the end of the log even when
   the tick is the one it had: the log's order is the order of the changes, whatever ticks
   the executor handed out (so that both executors hand out the same rows in the same
   order). */
static void ecs_sched__ticks_change(ecs_sched_world *w, const ecs_sched__table *t,
                                    ecs_sched__ticks *k, int32_t row, uint32_t tick,
                                    uint32_t now) {
    k->changed[row] = tick;
    ecs_sched__ticks_note(k, row, tick, now);
    ecs_sched__log_change(w, t, k, row);
}

/* Every row of a table with a bulk mark gets it for its own, so that a row can join the
   table without inheriting a change it did not have. The log never had those changes: it
   starts again. */
static void ecs_sched__ticks_flush(ecs_sched_world *w, ecs_sched__ticks *k, int32_t count,
                                   uint32_t now) {
    int32_t r;
    if (!k->has_bulk) return;
    for (r = 0; r < count; r++) k->changed[r] = ecs_sched__tick_newest(k->changed[r], k->bulk, now);
    for (r = 0; r < (count + ECS_SCHED__TICK_BLOCK - 1) / ECS_SCHED__TICK_BLOCK; r++) {
        k->newest[r] = ecs_sched__tick_newest(k->newest[r], k->bulk, now);
    }
    k->has_bulk = false;
    ecs_sched__change_log_cut(w, &k->log);
}

/* The new rows [first, first + n) of t were added (and changed) at `tick`. */
static void ecs_sched__ticks_stamp_new(ecs_sched_world *w, ecs_sched__table *t, int32_t first,
                                       int32_t n, uint32_t tick) {
    uint32_t now = ecs_sched__tick_load(w) + 1u;
    int32_t i, r;
    for (i = 0; i < t->tick_count; i++) {
        for (r = first; r < first + n; r++) ecs_sched__ticks_set(w, t, &t->ticks[i], r, tick, tick, now);
    }
}

static int32_t ecs_sched__tick_blocks(int32_t rows) {
    return (rows + ECS_SCHED__TICK_BLOCK - 1) / ECS_SCHED__TICK_BLOCK;
}

/* Words of a tick column with room for `capacity` rows: added, changed, logged, newest. */
static size_t ecs_sched__tick_words(int32_t capacity) {
    return 3 * (size_t)capacity + (size_t)ecs_sched__tick_blocks(capacity);
}

/* Moves a tick column into `fresh`, with room for `capacity` rows. */
static void ecs_sched__ticks_move(ecs_sched_world *w, ecs_sched__ticks *k, uint32_t *fresh,
                                  int32_t count, int32_t capacity) {
    uint32_t *added = fresh, *changed = fresh + capacity, *logged = fresh + 2 * (size_t)capacity;
    uint32_t *newest = fresh + 3 * (size_t)capacity;
    int32_t blocks = ecs_sched__tick_blocks(capacity), used = ecs_sched__tick_blocks(count);
    if (count) {
        memcpy(added, k->added, (size_t)count * sizeof *added);
        memcpy(changed, k->changed, (size_t)count * sizeof *changed);
        memcpy(logged, k->logged, (size_t)count * sizeof *logged);
        memcpy(newest, k->newest, (size_t)used * sizeof *newest);
    }
    memset(newest + used, 0, (size_t)(blocks - used) * sizeof *newest);
    ecs_sched__free(&w->env, k->added);
    k->added = added;
    k->changed = changed;
    k->logged = logged;
    k->newest = newest;
}

/* The ticks of src's row `from` become those of dst's new last row `to`, for the tracked
   components both tables have. dst's older rows first take its bulk marks for their own. */
static void ecs_sched__ticks_move_row(ecs_sched_world *w, ecs_sched__table *dst, int32_t to,
                                      const ecs_sched__table *src, int32_t from) {
    uint32_t now = ecs_sched__tick_load(w) + 1u;
    int32_t i = 0, j = 0;
    for (j = 0; j < dst->tick_count; j++) ecs_sched__ticks_flush(w, &dst->ticks[j], to, now);
    j = 0;
    while (i < src->tick_count && j < dst->tick_count) {
        const ecs_sched__ticks *s = &src->ticks[i];
        ecs_sched__ticks *d = &dst->ticks[j];
        if (s->id == d->id) {
            uint32_t changed = s->changed[from];
            if (s->has_bulk) changed = ecs_sched__tick_newest(changed, s->bulk, now);
            ecs_sched__ticks_set(w, dst, d, to, s->added[from], changed, now);
            i++;
            j++;
        } else if (s->id < d->id) {
            i++;
        } else {
            j++;
        }
    }
}

/* Row `row` leaves its table and the last row takes its place: the ticks follow, and so
   does the last row's log entry; the leaving row's entry dies. */
static void ecs_sched__ticks_delete_row(ecs_sched_world *w, ecs_sched__table *t, int32_t row,
                                        int32_t last) {
    uint32_t now = ecs_sched__tick_load(w) + 1u;
    int32_t i;
    for (i = 0; i < t->tick_count; i++) {
        ecs_sched__ticks *k = &t->ticks[i];
        ecs_sched__change *gone = ecs_sched__row_entry(k, (uint32_t)row), *moved;
        if (gone) gone->row = ECS_SCHED__DEAD_ROW;
        if (row == last) continue;
        moved = ecs_sched__row_entry(k, (uint32_t)last);
        if (moved) moved->row = (uint32_t)row;
        k->added[row] = k->added[last];
        k->changed[row] = k->changed[last];
        k->logged[row] = k->logged[last];
        ecs_sched__ticks_note(k, row, k->changed[row], now);
    }
}

/* Every row of t leaves it at once (a whole table moved or despawned): their log entries
   die, as ecs_sched__ticks_delete_row lets the entry of one row die. */
static void ecs_sched__ticks_leave_all(ecs_sched__table *t) {
    int32_t i, row;
    for (i = 0; i < t->tick_count; i++) {
        for (row = 0; row < t->count; row++) {
            ecs_sched__change *gone = ecs_sched__row_entry(&t->ticks[i], (uint32_t)row);
            if (gone) gone->row = ECS_SCHED__DEAD_ROW;
        }
    }
}

/* A tracked component was inserted on row `row` of t: added now unless `before` had it, and
   changed now either way. */
static void ecs_sched__ticks_inserted(ecs_sched_world *w, ecs_sched__table *t, int32_t row,
                                      const ecs_sched__table *before, ecs_sched_id id) {
    ecs_sched__ticks *k = ecs_sched__ticks_find(t, id);
    uint32_t tick = ecs_sched__tick_now(w), now = ecs_sched__tick_load(w) + 1u;
    bool had = ecs_sched__type_find(before, id) >= 0;
    if (had) ecs_sched__ticks_change(w, t, k, row, tick, now);
    else ecs_sched__ticks_set(w, t, k, row, tick, tick, now);
}

static void ecs_sched__ticks_free(ecs_sched_world *w, ecs_sched__table *t) {
    int32_t i;
    for (i = 0; i < t->tick_count; i++) {
        ecs_sched__free(&w->env, t->ticks[i].added);
        ecs_sched__free(&w->env, t->ticks[i].log.items);
    }
}

/* A tracked sparse value changed now. */
static void ecs_sched__sparse_changed(ecs_sched_world *w, ecs_sched_id id, uint32_t index) {
    ecs_sched__sparse_set *s = ecs_sched__sparse_of(w, id);
    uint32_t at = ecs_sched__sparse_slot(s, index);
    if (at && s->stamps) s->stamps[at - 1].changed = ecs_sched__tick_now(w);
}

/* The entity's value of a tracked component changed now (the caller may write it). */
static void ecs_sched__value_changed(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    const ecs_sched__record *r = &w->records[ECS_SCHED_ENTITY_INDEX(e)];
    ecs_sched__table *t = w->tables[r->table];
    if (w->components[id].sparse) {
        ecs_sched__sparse_changed(w, id, ECS_SCHED_ENTITY_INDEX(e));
        return;
    }
    ecs_sched__ticks_change(w, t, ecs_sched__ticks_find(t, id), (int32_t)r->row,
                            ecs_sched__tick_now(w), ecs_sched__tick_load(w) + 1u);
}
