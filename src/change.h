/* change: change ticks, iteration by what changed, and keeping old ticks meaningful. */
#pragma once
#include "graph.h"
#include "sparse.h"

/* The last change tick handed out: systems and conditions take one each time they run (while
   something in the world tracks changes), and so does a query with added or changed terms
   iterated outside systems. */
ECS_SCHED_API uint32_t ecs_sched_change_tick(const ecs_sched_world *world);
/* Moves the change tick on by `ticks`, as if that many systems had run, keeping every tick in
   the world meaningful on the way (see Change detection in THE WORLD'S EVENTS). For tests of
   programs that run for a long time: a 32-bit tick wraps after about four billion system
   runs. */
ECS_SCHED_API void ecs_sched_change_tick_advance(ecs_sched_world *world, uint32_t ticks);

/*@@ implementation @@*/
/* change: change ticks, iteration by what changed, and keeping old ticks meaningful.

   A tick is a 32-bit count that wraps. A tracked component keeps, per entity, the tick it was
   added and the tick it last changed (ticks.h); a resource keeps the same. A reader (a system
   or condition, through its context, or a query outside systems) sees a change when the
   change is newer than the reader's previous look and no newer than this one: what counts is
   age, now - tick, so that wrapping does not matter as long as no age passes 2^32. Ages are
   kept below that by a check at the start of schedule runs, once every
   ECS_SCHED__TICK_CHECK_EVERY ticks: every tick older than ECS_SCHED__TICK_MAX_AGE is moved
   up to just past that age, in an order that keeps every comparison between a change and a
   reader as it was (the readers' old ticks are ranked, and each old change is placed between
   the ranks it fell between). So a system that has not run for a very long time still sees
   exactly the changes made since it last ran. */

#define ECS_SCHED__TICK_CHECK_EVERY (UINT32_C(1) << 29)
#define ECS_SCHED__TICK_MAX_AGE (UINT32_MAX - (UINT32_C(1) << 30) - (UINT32_C(1) << 20))
#define ECS_SCHED__TICK_MAX_READERS (UINT32_C(1) << 18)   /* old readers the check can rank */

uint32_t ecs_sched_change_tick(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__tick_load(w);
}

/* ---- the window an iteration sees ---- */

/* Inside a system or condition: the changes since its previous run. Outside: since this
   query's previous iteration, which takes a tick of its own. */
static void ecs_sched__iter_window(const ecs_sched_query *q, uint32_t *last_run,
                                   uint32_t *this_run) {
    ecs_sched_query *own = (ecs_sched_query *)(uintptr_t)q;   /* its own window moves on */
    const ecs_sched_system_ctx *ctx =
        ecs_sched__ctx_running_in(&q->world->env);
    if (ctx && !ctx->run.applying) {
        *last_run = ctx->last_run;
        *this_run = ctx->run.this_run;
        return;
    }
    *last_run = own->last_iter;
    *this_run = own->last_iter = ecs_sched__tick_take(own->world);
}

/* ---- iteration by runs of rows ---- */

/* The tick column of term `term` in the table of match m (-1: untracked). */
static inline int32_t ecs_sched__tick_index(const ecs_sched_query *q, const ecs_sched__match *m,
                                            int32_t term) {
    return q->match_ticks[m - q->matches].of[term];
}

/* What an iteration compares ticks with. */
typedef struct ecs_sched__window {
    uint32_t this_run;
    uint32_t span;       /* this_run - last_run: a tick is newer when this_run - tick < span */
} ecs_sched__window;

static inline bool ecs_sched__in_window(ecs_sched__window win, uint32_t tick) {
    return (uint32_t)(win.this_run - tick) < win.span;
}

/* The rows of block `block` (from `first` on, below `count`) whose tick passes, as bits. */
static uint64_t ecs_sched__block_bits(const uint32_t *ticks, int32_t block, int32_t first,
                                      int32_t count, ecs_sched__window win) {
    int32_t base = block * ECS_SCHED__TICK_BLOCK, end = base + ECS_SCHED__TICK_BLOCK, r;
    uint64_t bits = 0;
    if (end > count) end = count;
    for (r = base; r < end; r++) {
        uint64_t in = ecs_sched__in_window(win, ticks[r]) ? 1u : 0u;
        bits |= in << (r - base);
    }
    return bits & (~(uint64_t)0 << (first - base));
}

/* A toggled query's rows of a block, as bits, that its terms on toggleable components let
   through: the component on for a term that requires it, off for a without-term (rows past
   the table's count are the caller's to mask). A block of ticks is a word of toggle bits. */
typedef char ecs_sched__tick_block_is_a_word[ECS_SCHED__TICK_BLOCK == 64 ? 1 : -1];

static inline uint64_t ecs_sched__toggle_word(const ecs_sched_query *q, const ecs_sched__match *m,
                                              int32_t block) {
    const ecs_sched__match_ticks *mt = &q->match_ticks[m - q->matches];
    uint64_t bits = ~(uint64_t)0;
    int32_t i;
    for (i = 0; i < q->term_count; i++) {
        uint64_t word;
        if (mt->toggle[i] < 0) continue;
        word = m->table->toggles[mt->toggle[i]].bits[block];
        bits &= q->terms[i].kind == ECS_SCHED_TERM_WITHOUT ? ~word : word;
    }
    return bits;
}

/* Whether a toggled query's terms on toggleable components let row `row` through. */
static inline bool ecs_sched__row_enabled(const ecs_sched_query *q, const ecs_sched__match *m,
                                          int32_t row) {
    return (ecs_sched__toggle_word(q, m, row / 64) >> (row % 64)) & 1u;
}

/* The rows of a block that pass every added or changed term of the query and its terms on
   toggleable components, from `first` on (its related terms are iter.h's). */
static uint64_t ecs_sched__filtered_bits(const ecs_sched_query *q, const ecs_sched__match *m,
                                         int32_t block, int32_t first, ecs_sched__window win) {
    const ecs_sched__table *t = m->table;
    uint64_t bits = ~(uint64_t)0 << (first - block * ECS_SCHED__TICK_BLOCK);
    int32_t i, rows = t->count - block * ECS_SCHED__TICK_BLOCK;
    if (rows < ECS_SCHED__TICK_BLOCK) bits &= ((uint64_t)1 << rows) - 1u;
    if (q->toggled) bits &= ecs_sched__toggle_word(q, m, block);
    for (i = 0; i < q->term_count && bits; i++) {
        const ecs_sched__ticks *k;
        ecs_sched_term_kind kind = q->terms[i].kind;
        if (!ecs_sched__term_filters(kind)) continue;
        k = &t->ticks[ecs_sched__tick_index(q, m, i)];
        if (kind == ECS_SCHED_TERM_CHANGED) {
            if (k->has_bulk && ecs_sched__in_window(win, k->bulk)) continue;
            if (!ecs_sched__in_window(win, k->newest[block])) return 0;
            bits &= ecs_sched__block_bits(k->changed, block, first, t->count, win);
        } else {
            /* a row is changed whenever it is added, so changed ticks bound added ones */
            if (!(k->has_bulk && ecs_sched__in_window(win, k->bulk)) &&
                !ecs_sched__in_window(win, k->newest[block])) {
                return 0;
            }
            bits &= ecs_sched__block_bits(k->added, block, first, t->count, win);
        }
    }
    return bits;
}

/* The next run [*begin, *end) of rows of the match's table at or after `from` that pass the
   query's added and changed terms and its terms on toggleable components; false when none is
   left. */
static bool ecs_sched__next_rows(const ecs_sched_query *q, const ecs_sched__match *m,
                                 int32_t from, ecs_sched__window win, int32_t *begin,
                                 int32_t *end) {
    int32_t count = m->table->count, block;
    uint64_t bits;
    if (q->filter_count == 0 && !q->toggled) {
        *begin = from;
        *end = count;
        return from < count;
    }
    for (;;) {
        if (from >= count) return false;
        block = from / ECS_SCHED__TICK_BLOCK;
        bits = ecs_sched__filtered_bits(q, m, block, from, win);
        if (bits) break;
        from = (block + 1) * ECS_SCHED__TICK_BLOCK;
    }
    *begin = block * ECS_SCHED__TICK_BLOCK + ecs_sched__lowest_bit(bits);
    /* the run goes on while the rows after it pass, into the next blocks if need be */
    for (;;) {
        uint64_t gaps = ~bits & (~(uint64_t)0 << (*begin > block * ECS_SCHED__TICK_BLOCK
                                                      ? *begin - block * ECS_SCHED__TICK_BLOCK
                                                      : 0));
        if (gaps) {
            *end = block * ECS_SCHED__TICK_BLOCK + ecs_sched__lowest_bit(gaps);
            break;
        }
        block++;
        if (block * ECS_SCHED__TICK_BLOCK >= count) {
            *end = count;
            break;
        }
        bits = ecs_sched__filtered_bits(q, m, block, block * ECS_SCHED__TICK_BLOCK, win);
        if (!(bits & 1u)) {
            *end = block * ECS_SCHED__TICK_BLOCK;
            break;
        }
    }
    if (*end > count) *end = count;
    return true;
}

/* Rows [begin, end) of a tick column of t changed at `tick`. */
static void ecs_sched__ticks_mark(ecs_sched_world *w, const ecs_sched__table *t,
                                  ecs_sched__ticks *k, int32_t begin, int32_t end, uint32_t tick) {
    uint32_t now = ecs_sched__tick_load(w) + 1u;
    int32_t r;
    for (r = begin; r < end; r++) ecs_sched__ticks_change(w, t, k, r, tick, now);
}

/* The rows handed out for writing are changed: the whole table at once by a bulk mark, a run
   row by row. */
static void ecs_sched__mark_written(const ecs_sched_query *q, const ecs_sched__match *m,
                                    int32_t begin, int32_t end, uint32_t tick) {
    ecs_sched__table *t = m->table;
    ecs_sched_world *w = q->world;
    uint32_t now;
    int32_t i;
    if (!q->marks) return;
    now = ecs_sched__tick_load(w) + 1u;
    for (i = 0; i < q->term_count; i++) {
        ecs_sched__ticks *k;
        if (ecs_sched__tick_index(q, m, i) < 0 || !ecs_sched__term_marks(q->terms[i].kind)) continue;
        k = &t->ticks[ecs_sched__tick_index(q, m, i)];
        if (begin == 0 && end == t->count) {
            k->bulk = k->has_bulk ? ecs_sched__tick_newest(k->bulk, tick, now) : tick;
            k->has_bulk = true;
        } else {
            ecs_sched__ticks_mark(w, t, k, begin, end, tick);
        }
    }
}

/* ---- iteration by the change log ---- */

/* The tick column whose log a filtered query follows: that of its first filter term. */
static inline ecs_sched__ticks *ecs_sched__log_column(const ecs_sched_query *q,
                                                      const ecs_sched__match *m) {
    return &m->table->ticks[ecs_sched__tick_index(q, m, q->log_term)];
}

/* Where in the log of the match's table an iteration with this window starts, or -1 when the
   log cannot tell every row the window needs (it was cut after the window opened, or a whole
   table mark in the window never went into it): then every row is looked at. */
static int32_t ecs_sched__log_start(const ecs_sched_query *q, const ecs_sched__match *m,
                                    ecs_sched__window win) {
    const ecs_sched__ticks *k = ecs_sched__log_column(q, m);
    const ecs_sched__change_log *log = &k->log;
    uint32_t lo = 0, hi = log->count, last_age = win.span;
    int32_t i;
    for (i = 0; i < q->term_count; i++) {
        const ecs_sched__ticks *f;
        if (!ecs_sched__term_filters(q->terms[i].kind)) continue;
        f = &m->table->ticks[ecs_sched__tick_index(q, m, i)];
        if (f->has_bulk && ecs_sched__in_window(win, f->bulk)) return -1;
    }
    if (log->truncated && (uint32_t)(win.this_run - log->since) < last_age) return -1;
    while (lo < hi) {   /* the first entry logged since the window opened */
        uint32_t mid = (lo + hi) / 2;
        const ecs_sched__change *e = &log->items[(log->start + mid) & (log->capacity - 1)];
        if ((uint32_t)(win.this_run - e->seq) > last_age) lo = mid + 1;
        else hi = mid;
    }
    return (int32_t)lo;
}

/* Whether a log entry still stands for a row, and the row passes every filter. A live entry
   knows its row's changed tick: a query whose only filter is changed on the log's column
   reads no other tick. */
static inline bool ecs_sched__entry_passes(const ecs_sched_query *q, const ecs_sched__match *m,
                                           const ecs_sched__change *e, ecs_sched__window win) {
    int32_t i, row = (int32_t)e->row;
    if (e->row == ECS_SCHED__DEAD_ROW) return false;
    if (q->toggled && !ecs_sched__row_enabled(q, m, row)) return false;
    if (q->filter_count == 1 && q->terms[q->log_term].kind == ECS_SCHED_TERM_CHANGED) {
        return ecs_sched__in_window(win, e->changed);
    }
    for (i = 0; i < q->term_count; i++) {
        const ecs_sched__ticks *f;
        ecs_sched_term_kind kind = q->terms[i].kind;
        if (!ecs_sched__term_filters(kind)) continue;
        f = &m->table->ticks[ecs_sched__tick_index(q, m, i)];
        if (!ecs_sched__in_window(win, kind == ECS_SCHED_TERM_ADDED ? f->added[row] : f->changed[row])) {
            return false;
        }
    }
    return true;
}

/* Readers of the log go through its entries in order; what they will look at next is
   fetched this many entries ahead, so that the misses of a sparse walk overlap. */
#define ECS_SCHED__LOG_LOOKAHEAD 32

static inline void ecs_sched__log_prefetch(const ecs_sched_query *q, const ecs_sched__match *m,
                                           const ecs_sched__change *e) {
#if defined(__GNUC__) || defined(__clang__)
    const ecs_sched__table *t = m->table;
    int32_t i;
    if (e->row == ECS_SCHED__DEAD_ROW) return;
    for (i = 0; i < q->term_count; i++) {
        if (m->column[i] >= 0) {
            const ecs_sched__column *col = &t->columns[m->column[i]];
            __builtin_prefetch(col->data + (size_t)e->row * col->size);
        }
    }
#else
    (void)q; (void)m; (void)e;
#endif
}

/* The next run of rows from the log, entries from *at on: rows that pass, consecutive in the
   table and in the log. */
static bool ecs_sched__log_rows(const ecs_sched_query *q, const ecs_sched__match *m,
                                int32_t *at, ecs_sched__window win, int32_t *begin, int32_t *end) {
    const ecs_sched__ticks *k = ecs_sched__log_column(q, m);
    const ecs_sched__change_log *log = &k->log;
    uint32_t mask = log->capacity - 1, i = (uint32_t)*at;
    while (i < log->count) {
        const ecs_sched__change *e = &log->items[(log->start + i++) & mask];
        if (i + ECS_SCHED__LOG_LOOKAHEAD < log->count) {
            ecs_sched__log_prefetch(q, m, &log->items[(log->start + i + ECS_SCHED__LOG_LOOKAHEAD) & mask]);
        }
        if (!ecs_sched__entry_passes(q, m, e, win)) continue;
        *begin = (int32_t)e->row;
        *end = *begin + 1;
        while (i < log->count) {
            const ecs_sched__change *next = &log->items[(log->start + i) & mask];
            if (next->row != (uint32_t)*end || !ecs_sched__entry_passes(q, m, next, win)) break;
            (*end)++;
            i++;
        }
        *at = (int32_t)i;
        return true;
    }
    *at = (int32_t)i;
    return false;
}

static inline ecs_sched__window ecs_sched__iter_window_of(const ecs_sched_iter *it) {
    ecs_sched__window win;
    win.this_run = it->this_run_;
    win.span = it->this_run_ - it->last_run_;
    return win;
}

/* The first call of an iteration by runs or by index: the window of changes a ticked query
   sees opens now (any other sees none). */
static void ecs_sched__iter_start(ecs_sched_iter *it) {
    const ecs_sched_query *q = it->query_;
    if (q->ticked) ecs_sched__iter_window(q, &it->last_run_, &it->this_run_);
    else it->last_run_ = it->this_run_ = 0;
    it->row_ = 0;
    it->at_ = -1;
}

/* The iteration is done with its current match: the next call moves on. */
static inline void ecs_sched__iter_skip_match(ecs_sched_iter *it) {
    it->row_ = it->query_->matches[it->next_ - 1].table->count;
    it->at_ = -1;
}

/* The match an iteration is in, moving on to the next one when this one is done (and
   finding where in its log to start); NULL when every match is done. */
static const ecs_sched__match *ecs_sched__iter_match(ecs_sched_iter *it, ecs_sched__window win) {
    const ecs_sched_query *q = it->query_;
    while (it->next_ == 0 || (it->at_ < 0 && it->row_ >= q->matches[it->next_ - 1].table->count)) {
        const ecs_sched__match *m;
        if ((uint32_t)it->next_ >= q->match_count) return NULL;
        m = &q->matches[it->next_++];
        it->row_ = 0;
        /* a related query scans its rows: the log cannot tell targets */
        it->at_ = q->log_term >= 0 && !q->related && m->table->count ? ecs_sched__log_start(q, m, win)
                                                                      : -1;
    }
    return &q->matches[it->next_ - 1];
}

/* The next run [*begin, *end) of rows that pass the query's added and changed terms, from the
   log of the match's table or by a scan of its rows, and its match (it->row_ is the row
   after it); NULL when every match is done. */
static const ecs_sched__match *ecs_sched__ticked_run(ecs_sched_iter *it, ecs_sched__window win,
                                                    int32_t *begin, int32_t *end) {
    const ecs_sched_query *q = it->query_;
    for (;;) {
        const ecs_sched__match *m = ecs_sched__iter_match(it, win);
        bool found;
        if (!m) return NULL;
        found = it->at_ >= 0 ? ecs_sched__log_rows(q, m, &it->at_, win, begin, end)
                             : ecs_sched__next_rows(q, m, it->row_, win, begin, end);
        if (found) {
            it->row_ = *end;
            return m;
        }
        ecs_sched__iter_skip_match(it);
    }
}

/* ---- iteration by index ---- */

/* Up to ECS_SCHED_ITER_ROWS rows from the log, entries from *at on, into `rows`: one test
   per entry and no call per row, which is what a sparse reader pays for. */
static int32_t ecs_sched__log_gather(const ecs_sched_query *q, const ecs_sched__match *m,
                                     int32_t *at, ecs_sched__window win, int32_t *rows) {
    const ecs_sched__change_log *log = &ecs_sched__log_column(q, m)->log;
    uint32_t mask = log->capacity - 1, i = (uint32_t)*at;
    int32_t n = 0;
    while (i < log->count && n < ECS_SCHED_ITER_ROWS) {
        const ecs_sched__change *e = &log->items[(log->start + i++) & mask];
        if (i + ECS_SCHED__LOG_LOOKAHEAD < log->count) {
            ecs_sched__log_prefetch(q, m, &log->items[(log->start + i + ECS_SCHED__LOG_LOOKAHEAD) & mask]);
        }
        if (ecs_sched__entry_passes(q, m, e, win)) rows[n++] = (int32_t)e->row;
    }
    *at = (int32_t)i;
    return n;
}

/* Up to ECS_SCHED_ITER_ROWS rows that pass, from row *from on, into `rows`. */
static int32_t ecs_sched__scan_gather(const ecs_sched_query *q, const ecs_sched__match *m,
                                      int32_t *from, ecs_sched__window win, int32_t *rows) {
    int32_t n = 0, begin, end;
    while (n < ECS_SCHED_ITER_ROWS && ecs_sched__next_rows(q, m, *from, win, &begin, &end)) {
        if (end - begin > ECS_SCHED_ITER_ROWS - n) end = begin + (ECS_SCHED_ITER_ROWS - n);
        while (begin < end) rows[n++] = begin++;
        *from = end;
    }
    return n;
}

/* The entity of row `row` of an iterator's current run. */
static inline ecs_sched_entity ecs_sched__iter_entity(const ecs_sched_iter *it, int32_t row) {
    return it->by_rows_ ? it->entities[it->rows[row]] : it->entities[row];
}

/* ecs_sched_iter_mark_changed of a sparse term: the entity's stamp in the set. */
static void ecs_sched__sparse_mark_row(const ecs_sched_iter *it, int32_t term, int32_t row) {
    const ecs_sched_query *q = it->query_;
    ecs_sched__sparse_set *s = ecs_sched__sparse_of(q->world, q->terms[term].id);
    uint32_t at = ecs_sched__sparse_slot(s, ECS_SCHED_ENTITY_INDEX(ecs_sched__iter_entity(it, row)));
    if (at) s->stamps[at - 1].changed = it->this_run_;
}

/* The mark of ecs_sched_iter_mark_changed (which checks its arguments): row `row` of the
   current run changed, in the component of term `term`. */
static void ecs_sched__iter_mark_row(const ecs_sched_iter *it, int32_t term, int32_t row) {
    const ecs_sched_query *q = it->query_;
    const ecs_sched__match *m = &q->matches[it->next_ - 1];
    ecs_sched_world *w = q->world;
    if (w->components[q->terms[term].id].sparse) {
        ecs_sched__sparse_mark_row(it, term, row);
    } else if (ecs_sched__tick_index(q, m, term) >= 0) {
        ecs_sched__ticks *k = &m->table->ticks[ecs_sched__tick_index(q, m, term)];
        int32_t at = it->by_rows_ ? it->rows[row] : it->row_ - it->count + row;
        ecs_sched__ticks_mark(w, m->table, k, at, at + 1, it->this_run_);
    }
}

/* ---- keeping old ticks meaningful ---- */

/* The old ages of the readers, oldest first, each once. */
typedef struct ecs_sched__old_readers {
    uint32_t *ages;
    uint32_t count;
    uint32_t capacity;
    uint32_t now;
    bool overflow;
} ecs_sched__old_readers;

static uint32_t ecs_sched__age(uint32_t tick, uint32_t now) {
    return now - tick;
}

static void ecs_sched__old_reader_add(ecs_sched_world *w, ecs_sched__old_readers *r, uint32_t tick) {
    uint32_t age = ecs_sched__age(tick, r->now);
    if (age <= ECS_SCHED__TICK_MAX_AGE) return;
    if (r->count >= ECS_SCHED__TICK_MAX_READERS ||
        !ECS_SCHED__GROW(&w->env, r->ages, &r->capacity, r->count + 1)) {
        r->overflow = true;
        return;
    }
    r->ages[r->count++] = age;
}

static void ecs_sched__ctx_readers(ecs_sched_world *w, ecs_sched__old_readers *r,
                                   const ecs_sched_system_ctx *ctx) {
    ecs_sched__old_reader_add(w, r, ctx->last_run);
    ecs_sched__old_reader_add(w, r, ctx->run.this_run);
}

/* Every reader's ticks: systems' and conditions' contexts, queries iterated outside. */
static void ecs_sched__gather_readers(ecs_sched_world *w, ecs_sched__old_readers *r) {
    const ecs_sched__queries *queries = ecs_sched__queries_of(w);
    uint32_t i, j;
    for (i = 0; queries && i < queries->count; i++) {
        ecs_sched__old_reader_add(w, r, queries->items[i]->last_iter);
    }
    if (!ecs_sched__schedules_of(w)) return;
    for (i = 0; i < ecs_sched__schedules_of(w)->count; i++) {
        const ecs_sched__schedule *s = ecs_sched__schedules_of(w)->items[i];
        for (j = 0; j < s->system_count; j++) ecs_sched__ctx_readers(w, r, &s->systems[j]->ctx);
        for (j = 0; j < s->conds.count; j++) ecs_sched__ctx_readers(w, r, &s->conds.items[j]->ctx);
    }
}

static int ecs_sched__older_first(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x > y ? -1 : x < y ? 1 : 0;
}

/* What an old tick is to the readers' ticks: a reader's own, a change (newer than the
   readers strictly older), or the tick an entry was logged at (from the readers as old or
   older on: a reader looks at the entries logged since its tick, that tick included). */
typedef enum ecs_sched__tick_role {
    ECS_SCHED__TICK_READER,
    ECS_SCHED__TICK_CHANGE,
    ECS_SCHED__TICK_LOGGED
} ecs_sched__tick_role;

/* The age an old tick moves to. Readers of rank i (1 for the oldest) move to base - (2i - 1);
   a change to base - 2r, r the number of readers strictly older than it (a logged tick: as
   old or older): so each compares with every reader as it did. Ticks that are not old stay. */
static uint32_t ecs_sched__moved_tick(const ecs_sched__old_readers *r, uint32_t tick,
                                      ecs_sched__tick_role role) {
    uint32_t age = ecs_sched__age(tick, r->now), base = ECS_SCHED__TICK_MAX_AGE + 2u * r->count + 2u;
    uint32_t lo = 0, hi = r->count;
    if (age <= ECS_SCHED__TICK_MAX_AGE) return tick;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        bool before = role == ECS_SCHED__TICK_LOGGED ? r->ages[mid] >= age : r->ages[mid] > age;
        if (before) lo = mid + 1;
        else hi = mid;
    }
    if (role == ECS_SCHED__TICK_READER) return r->now - (base - (2u * lo + 1u));   /* rank lo + 1 */
    return r->now - (base - 2u * lo);
}

static void ecs_sched__move_ticks(const ecs_sched__old_readers *r, uint32_t *ticks, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) ticks[i] = ecs_sched__moved_tick(r, ticks[i], ECS_SCHED__TICK_CHANGE);
}

static void ecs_sched__move_log_ticks(const ecs_sched__old_readers *r, ecs_sched__change_log *log) {
    uint32_t i;
    for (i = 0; i < log->count; i++) {
        ecs_sched__change *e = &log->items[(log->start + i) & (log->capacity - 1)];
        e->seq = ecs_sched__moved_tick(r, e->seq, ECS_SCHED__TICK_LOGGED);
        /* the copy of the row's change tick that a log reader compares moves as the row's */
        e->changed = ecs_sched__moved_tick(r, e->changed, ECS_SCHED__TICK_CHANGE);
    }
    log->since = ecs_sched__moved_tick(r, log->since, ECS_SCHED__TICK_CHANGE);
}

static void ecs_sched__move_ctx(const ecs_sched__old_readers *r, ecs_sched_system_ctx *ctx) {
    ctx->last_run = ecs_sched__moved_tick(r, ctx->last_run, ECS_SCHED__TICK_READER);
    ctx->run.this_run = ecs_sched__moved_tick(r, ctx->run.this_run, ECS_SCHED__TICK_READER);
}

/* The stamps of sparse components move up with the others. */
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

static void ecs_sched__move_change_ticks(ecs_sched_world *w, const ecs_sched__old_readers *r) {
    uint32_t i;
    int32_t k;
    for (i = 0; i < w->table_count; i++) {
        ecs_sched__table *t = w->tables[i];
        for (k = 0; k < t->tick_count; k++) {
            ecs_sched__ticks *ticks = &t->ticks[k];
            ecs_sched__move_ticks(r, ticks->added, (size_t)t->count);
            ecs_sched__move_ticks(r, ticks->changed, (size_t)t->count);
            ecs_sched__move_ticks(r, ticks->newest, (size_t)ecs_sched__tick_blocks(t->count));
            ticks->bulk = ecs_sched__moved_tick(r, ticks->bulk, ECS_SCHED__TICK_CHANGE);
            ecs_sched__move_log_ticks(r, &ticks->log);
        }
    }
    for (i = 1; i < w->component_count; i++) {
        w->resource_stamps[i].added = ecs_sched__moved_tick(r, w->resource_stamps[i].added, ECS_SCHED__TICK_CHANGE);
        w->resource_stamps[i].changed = ecs_sched__moved_tick(r, w->resource_stamps[i].changed, ECS_SCHED__TICK_CHANGE);
    }
    if (w->sparse_count) ecs_sched__sparse_move_ticks(w, r);
}

static void ecs_sched__move_reader_ticks(ecs_sched_world *w, const ecs_sched__old_readers *r) {
    const ecs_sched__queries *queries = ecs_sched__queries_of(w);
    uint32_t i, j;
    for (i = 0; queries && i < queries->count; i++) {
        queries->items[i]->last_iter =
            ecs_sched__moved_tick(r, queries->items[i]->last_iter, ECS_SCHED__TICK_READER);
    }
    if (!ecs_sched__schedules_of(w)) return;
    for (i = 0; i < ecs_sched__schedules_of(w)->count; i++) {
        ecs_sched__schedule *s = ecs_sched__schedules_of(w)->items[i];
        for (j = 0; j < s->system_count; j++) ecs_sched__move_ctx(r, &s->systems[j]->ctx);
        for (j = 0; j < s->conds.count; j++) ecs_sched__move_ctx(r, &s->conds.items[j]->ctx);
    }
}

/* Moves every old tick up (see the top of this module). Without memory to rank the readers,
   old readers and old changes all move to the same age instead: a reader that has not run for
   that long then misses the old changes it had not seen, and says so in the log. */
static void ecs_sched__ticks_check(ecs_sched_world *w) {
    ecs_sched__old_readers r;
    uint32_t i, unique = 0;
    memset(&r, 0, sizeof r);
    r.now = ecs_sched__tick_load(w);
    ecs_sched__gather_readers(w, &r);
    if (r.overflow) {
        ecs_sched__logf(&w->env, ECS_SCHED_LOG_WARN, ECS_SCHED_ERR_OUT_OF_MEMORY,
                       "change ticks: too many readers (or no memory) to keep the order of "
                       "very old ticks; readers that have not run for over %lu ticks may miss "
                       "changes older than that",
                       (unsigned long)ECS_SCHED__TICK_MAX_AGE);
        r.count = 0;
    }
    if (r.count) qsort(r.ages, r.count, sizeof *r.ages, ecs_sched__older_first);
    for (i = 0; i < r.count; i++) {
        if (unique == 0 || r.ages[unique - 1] != r.ages[i]) r.ages[unique++] = r.ages[i];
    }
    r.count = unique;
    ecs_sched__move_change_ticks(w, &r);
    ecs_sched__move_reader_ticks(w, &r);
    ecs_sched__free(&w->env, r.ages);
    w->tick_checked = r.now;
}

/* Called where a schedule run starts. */
static inline void ecs_sched__ticks_maybe_check(ecs_sched_world *w) {
    if (w->ticks_on && (uint32_t)(ecs_sched__tick_load(w) - w->tick_checked) >= ECS_SCHED__TICK_CHECK_EVERY) {
        ecs_sched__ticks_check(w);
    }
}

void ecs_sched_change_tick_advance(ecs_sched_world *w, uint32_t ticks) {
    ECS_SCHED__CHECK_WORLD(w);
    while (ticks > 0) {
        uint32_t step = ticks < ECS_SCHED__TICK_CHECK_EVERY / 2 ? ticks : ECS_SCHED__TICK_CHECK_EVERY / 2;
#ifdef ECS_SCHED_THREADS
        atomic_fetch_add_explicit(&w->tick, step, memory_order_relaxed);
#else
        w->tick += step;
#endif
        ticks -= step;
        ecs_sched__ticks_maybe_check(w);
    }
}
