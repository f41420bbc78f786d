/* access: what each system touches, conflicts, and ambiguity detection. */
#pragma once
#include "build.h"

/*@@ implementation @@*/
/* access: what each system touches, conflicts, and ambiguity detection. */

#define ECS_SCHED__MAX_REPORTED_PAIRS 64  /* ambiguous pairs listed in one message */

ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__check_condition_access(ecs_sched__build *b) {
    ecs_sched__schedule *s = b->s;
    uint32_t g;
    char label[160];
    for (g = 0; g < s->guard_count; g++) {
        const ecs_sched__cond *c = ecs_sched__cond_find_write(&s->conds, s->guards[g].cond);
        int32_t single;
        const int32_t *node;
        if (!c) continue;
        ecs_sched__ref_nodes(b, s->guards[g].subject, &single, &node);
        ecs_sched__text_begin(b);
        ecs_sched__text_printf(&b->text,
                               "condition '%s' of %s asks to write %s '%s'; conditions only read. "
                               "Declare it as a read, or move the write into a system",
                               c->name, ecs_sched__node_label(b, node[0], label, sizeof label),
                               c->first_write_is_resource ? "resource" : "component",
                               ecs_sched__component_label(b->w, c->first_write));
        return ecs_sched__build_fail(b, ECS_SCHED_ERR_CONDITION_WRITES);
    }
    return ECS_SCHED_OK;
}

enum { ECS_SCHED__COMP_READ, ECS_SCHED__COMP_WRITE, ECS_SCHED__RES_READ, ECS_SCHED__RES_WRITE };

static uint64_t *ecs_sched__access_of(const ecs_sched__build *b, int32_t system, int kind) {
    return b->access + ((size_t)system * 4 + (size_t)kind) * (size_t)b->access_words;
}

static bool ecs_sched__query_excludes(const ecs_sched_query *query) {
    int32_t i;
    for (i = 0; i < query->term_count; i++) {
        if (query->terms[i].kind == ECS_SCHED_TERM_WITHOUT) return true;
    }
    return false;
}

/* Keeps the query for the check of disjoint queries; false when out of memory. */
static bool ecs_sched__add_query_use(ecs_sched__build *b, int32_t system,
                                     const ecs_sched_query *query, bool reads_only) {
    ecs_sched__query_use *use;
    if (!ECS_SCHED__GROW(&b->w->env, b->uses, &b->use_capacity, b->use_count + 1)) return false;
    use = &b->uses[b->use_count++];
    use->system = system;
    use->reads_only = reads_only;
    use->query = query;
    return true;
}

/* A term of every kind ("(*, target)") reads every relationship kind there is. */
static void ecs_sched__read_every_kind(ecs_sched__build *b, int32_t system) {
    uint32_t id;
    for (id = 1; id < b->w->component_count; id++) {
        if (b->w->components[id].relation) {
            ecs_sched__set_bit(ecs_sched__access_of(b, system, ECS_SCHED__COMP_READ), (int32_t)id);
        }
    }
}

static bool ecs_sched__add_ctx_access(ecs_sched__build *b, int32_t system,
                                      const ecs_sched_system_ctx *ctx, bool reads_only) {
    int32_t i, q;
    for (i = 0; i < ctx->read_count; i++) {
        ecs_sched__set_bit(ecs_sched__access_of(b, system, ECS_SCHED__RES_READ), (int32_t)ctx->reads[i]);
    }
    for (i = 0; i < ctx->write_count; i++) {
        ecs_sched__set_bit(ecs_sched__access_of(b, system, reads_only ? ECS_SCHED__RES_READ
                                                                      : ECS_SCHED__RES_WRITE),
                           (int32_t)ctx->writes[i]);
    }
    for (q = 0; q < ctx->query_count; q++) {
        ecs_sched_access a = ecs_sched_query_access(ctx->queries[q]);
        if (!ecs_sched__add_query_use(b, system, ctx->queries[q], reads_only)) return false;
        for (i = 0; i < a.read_count; i++) {
            ecs_sched__set_bit(ecs_sched__access_of(b, system, ECS_SCHED__COMP_READ), (int32_t)a.reads[i]);
            if (a.reads[i] == b->w->wildcard) ecs_sched__read_every_kind(b, system);
        }
        for (i = 0; i < a.write_count; i++) {
            ecs_sched__set_bit(ecs_sched__access_of(b, system, reads_only ? ECS_SCHED__COMP_READ
                                                                          : ECS_SCHED__COMP_WRITE),
                               (int32_t)a.writes[i]);
        }
    }
    return true;
}

static bool ecs_sched__add_cond_access(ecs_sched__build *b, int32_t system, int32_t cond) {
    const ecs_sched__cond *c = b->s->conds.items[cond];
    int32_t i;
    if (!ecs_sched__add_ctx_access(b, system, &c->ctx, true)) return false;
    if (c->resource) {
        ecs_sched__set_bit(ecs_sched__access_of(b, system, ECS_SCHED__RES_READ), (int32_t)c->resource);
    }
    for (i = 0; i < 2; i++) {
        if (c->operands[i] >= 0 && !ecs_sched__add_cond_access(b, system, c->operands[i])) {
            return false;
        }
    }
    return true;
}

/* Groups the uses by system (a counting sort into the arena), when a query somewhere has a
   without term; otherwise no two queries can be disjoint and the uses are dropped. */
static bool ecs_sched__group_query_uses(ecs_sched__build *b) {
    int32_t S = b->system_count, i;
    uint32_t u;
    bool any = false;
    ecs_sched__query_use *grouped;
    int32_t *next;
    for (u = 0; u < b->use_count && !any; u++) any = ecs_sched__query_excludes(b->uses[u].query);
    if (!any) {
        b->use_count = 0;
        return true;
    }
    b->use_start = ECS_SCHED__ALLOC_N(b, int32_t, S + 1);
    b->excludes = ECS_SCHED__ALLOC_N(b, uint8_t, S);
    next = ECS_SCHED__ALLOC_N(b, int32_t, S);
    grouped = ECS_SCHED__ALLOC_N(b, ecs_sched__query_use, b->use_count);
    if (!b->use_start || !b->excludes || !next || !grouped) return false;
    memset(b->use_start, 0, sizeof *b->use_start * (size_t)(S + 1));
    memset(b->excludes, 0, (size_t)S);
    for (u = 0; u < b->use_count; u++) {
        b->use_start[b->uses[u].system + 1]++;
        if (ecs_sched__query_excludes(b->uses[u].query)) b->excludes[b->uses[u].system] = 1;
    }
    for (i = 0; i < S; i++) b->use_start[i + 1] += b->use_start[i];
    memcpy(next, b->use_start, sizeof *next * (size_t)S);
    for (u = 0; u < b->use_count; u++) grouped[next[b->uses[u].system]++] = b->uses[u];
    memcpy(b->uses, grouped, sizeof *grouped * b->use_count);
    return true;
}

/* What each system touches, its conditions and those of its sets included. */
ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__compute_access(ecs_sched__build *b) {
    ecs_sched__schedule *s = b->s;
    int32_t i;
    uint32_t g;
    b->access_words = (int32_t)((b->w->component_count + 63) / 64);
    b->access = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)b->system_count * 4 * b->access_words);
    if (!b->access) return ecs_sched__oom(b);
    for (i = 0; i < b->system_count; i++) {
        if (!ecs_sched__add_ctx_access(b, i, &s->systems[i]->ctx, false)) return ecs_sched__oom(b);
    }
    for (g = 0; g < s->guard_count; g++) {
        int32_t single, n, k;
        const int32_t *node;
        n = ecs_sched__ref_nodes(b, s->guards[g].subject, &single, &node);
        for (k = 0; k < n; k++) {
            if (node[k] < b->system_count) {
                if (!ecs_sched__add_cond_access(b, node[k], s->guards[g].cond)) {
                    return ecs_sched__oom(b);
                }
            } else {
                int32_t set = node[k] - b->system_count, m;
                for (m = b->members.start[set]; m < b->members.start[set + 1]; m++) {
                    if (!ecs_sched__add_cond_access(b, b->members.adj[m], s->guards[g].cond)) {
                        return ecs_sched__oom(b);
                    }
                }
            }
        }
    }
    return ecs_sched__group_query_uses(b) ? ECS_SCHED_OK : ecs_sched__oom(b);
}

/* Per system, for the pairwise check: its writes and everything it touches, components and
   resources side by side (2 * access_words words each), and whether it can conflict at all. */
typedef struct ecs_sched__conflict_table {
    int32_t words;
    uint64_t *writes;
    uint64_t *touches;
    uint8_t *kind;        /* 0 reads only (or nothing), 1 writes, 2 exclusive */
    const ecs_sched__query_use *uses;  /* the build's, when some query has a without term */
    const int32_t *use_start;
    const uint8_t *excludes;
} ecs_sched__conflict_table;

static bool ecs_sched__conflict_table_make(ecs_sched__build *b, ecs_sched__conflict_table *t) {
    int32_t S = b->system_count, W = b->access_words, i, k;
    t->words = 2 * W;
    t->writes = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)S * t->words);
    t->touches = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)S * t->words);
    t->kind = ECS_SCHED__ALLOC_N(b, uint8_t, S);
    if (!t->writes || !t->touches || !t->kind) return false;
    for (i = 0; i < S; i++) {
        uint64_t *wr = ecs_sched__row(t->writes, t->words, i), *to = ecs_sched__row(t->touches, t->words, i);
        for (k = 0; k < W; k++) {
            wr[k] = ecs_sched__access_of(b, i, ECS_SCHED__COMP_WRITE)[k];
            wr[W + k] = ecs_sched__access_of(b, i, ECS_SCHED__RES_WRITE)[k];
            to[k] = wr[k] | ecs_sched__access_of(b, i, ECS_SCHED__COMP_READ)[k];
            to[W + k] = wr[W + k] | ecs_sched__access_of(b, i, ECS_SCHED__RES_READ)[k];
            if (wr[k] | wr[W + k]) t->kind[i] = 1;
        }
        if (b->s->systems[i]->ctx.run.exclusive) t->kind[i] = 2;
    }
    t->uses = b->use_start ? b->uses : NULL;
    t->use_start = b->use_start;
    t->excludes = b->excludes;
    return true;
}

/* Two queries touch the same data in conflicting ways (query.h's rule; a condition's query
   only reads). */
static bool ecs_sched__queries_conflict(const ecs_sched__query_use *a,
                                        const ecs_sched__query_use *b) {
    int32_t term_a, term_b;
    return ecs_sched__queries_clash(a->query, !a->reads_only, b->query, !b->reads_only, &term_a,
                                    &term_b);
}

/* The components' side of a conflict, query by query (components are only touched through
   queries). */
static bool ecs_sched__queries_of_conflict(const ecs_sched__conflict_table *t, int32_t x,
                                           int32_t y) {
    int32_t i, j;
    for (i = t->use_start[x]; i < t->use_start[x + 1]; i++) {
        for (j = t->use_start[y]; j < t->use_start[y + 1]; j++) {
            if (ecs_sched__queries_conflict(&t->uses[i], &t->uses[j])) return true;
        }
    }
    return false;
}

/* Whether systems x and y conflict: either is exclusive, or one writes a resource the other
   touches, or a pair of their queries conflicts. The union of each system's components
   answers first; only when it says yes and a query of either has a without term are the
   queries compared pair by pair. */
static ECS_SCHED__ALWAYS_INLINE bool ecs_sched__conflict(const ecs_sched__conflict_table *t,
                                                       int32_t x, int32_t y) {
    const uint64_t *wx = ecs_sched__row(t->writes, t->words, x), *wy = ecs_sched__row(t->writes, t->words, y);
    const uint64_t *tx = ecs_sched__row(t->touches, t->words, x), *ty = ecs_sched__row(t->touches, t->words, y);
    uint64_t components = 0, resources = 0;
    int32_t k, half = t->words / 2;
    if ((t->kind[x] | t->kind[y]) == 0) return false;
    if (t->kind[x] == 2 || t->kind[y] == 2) return true;
    for (k = 0; k < half; k++) components |= (wx[k] & ty[k]) | (wy[k] & tx[k]);
    for (k = half; k < t->words; k++) resources |= (wx[k] & ty[k]) | (wy[k] & tx[k]);
    if (resources) return true;
    if (!components) return false;
    if (!t->uses || !(t->excludes[x] || t->excludes[y])) return true;
    return ecs_sched__queries_of_conflict(t, x, y);
}

/* Whether each system is ambiguous with everything: marked so itself (an apply_deferred
   is), or in a set marked so, at any depth. NULL when out of memory. */
static uint8_t *ecs_sched__ambiguous_with_all(ecs_sched__build *b) {
    const ecs_sched__schedule *s = b->s;
    int32_t S = b->system_count, W = b->set_words, i, k;
    uint8_t *with_all = ECS_SCHED__ALLOC_N(b, uint8_t, S);
    uint64_t *marked = ECS_SCHED__ALLOC_N(b, uint64_t, W);   /* sets */
    if (!with_all || !marked) return NULL;
    for (i = 0; i < b->set_count; i++) {
        if (s->names[b->name_of_set[i]].ambiguous_with_all) ecs_sched__set_bit(marked, i);
    }
    for (i = 0; i < S; i++) {
        const uint64_t *sets = b->ancestors + (size_t)i * (size_t)W;
        with_all[i] = s->systems[i]->ambiguous_with_all || s->systems[i]->is_apply_deferred;
        for (k = 0; k < W && !with_all[i]; k++) with_all[i] = (sets[k] & marked[k]) != 0;
    }
    return with_all;
}

static bool ecs_sched__is_or_under(const ecs_sched__build *b, int32_t system, int32_t node) {
    return system == node || ecs_sched__node_under(b, system, node);
}

/* Declared harmless with ambiguous_with: a pair, a system or a whole set (with_all: whether
   each system is ambiguous with everything). */
static bool ecs_sched__silenced(const ecs_sched__build *b, const uint8_t *with_all, int32_t x,
                                int32_t y) {
    const ecs_sched__relations *list = &b->s->relations[ECS_SCHED__REL_AMBIGUOUS];
    uint32_t r;
    if (with_all[x] || with_all[y]) return true;
    for (r = 0; r < list->count; r++) {
        const ecs_sched__relation *rel = &list->items[r];
        int32_t sa, sb, na, nb, i, j;
        const int32_t *a, *c;
        na = ecs_sched__ref_nodes(b, rel->subject, &sa, &a);
        nb = ecs_sched__ref_nodes(b, rel->object, &sb, &c);
        for (i = 0; i < na; i++) {
            for (j = 0; j < nb; j++) {
                if ((ecs_sched__is_or_under(b, x, a[i]) && ecs_sched__is_or_under(b, y, c[j])) ||
                    (ecs_sched__is_or_under(b, y, a[i]) && ecs_sched__is_or_under(b, x, c[j]))) {
                    return true;
                }
            }
        }
    }
    return false;
}

/* The outermost set that holds x but not y, or x itself: how the report groups pairs. */
static int32_t ecs_sched__group_of(const ecs_sched__build *b, int32_t x, int32_t y) {
    int32_t set, best = x;
    for (set = 0; set < b->set_count; set++) {
        int32_t node = b->system_count + set;
        if (!ecs_sched__node_under(b, x, node) || ecs_sched__node_under(b, y, node)) continue;
        if (best == x || b->depth[set] < b->depth[best - b->system_count]) best = node;
    }
    return best;
}

static void ecs_sched__describe_conflict(ecs_sched__build *b, int32_t x, int32_t y) {
    static const char *const what[] = {"component", "component", "resource", "resource"};
    int32_t id, shown = 0, W = b->access_words;
    const ecs_sched_system_ctx *cx = &b->s->systems[x]->ctx, *cy = &b->s->systems[y]->ctx;
    if (cx->run.exclusive || cy->run.exclusive) {
        ecs_sched__text_printf(&b->text, "%s is exclusive", cx->run.exclusive ? "the first" : "the second");
        return;
    }
    for (id = 1; id < (int32_t)b->w->component_count && shown < 4; id++) {
        int k;
        for (k = 0; k < 4; k += 2) {
            bool xw = ecs_sched__bit(ecs_sched__access_of(b, x, k + 1), id);
            bool yw = ecs_sched__bit(ecs_sched__access_of(b, y, k + 1), id);
            bool xr = xw || ecs_sched__bit(ecs_sched__access_of(b, x, k), id);
            bool yr = yw || ecs_sched__bit(ecs_sched__access_of(b, y, k), id);
            if (!((xw && yr) || (yw && xr))) continue;
            ecs_sched__text_printf(&b->text, "%s%s '%s' (%s)", shown++ ? ", " : "", what[k],
                                   b->w->components[id].name,
                                   xw && yw ? "both write" : xw ? "first writes, second reads"
                                                               : "first reads, second writes");
        }
    }
    (void)W;
}

static int ecs_sched__compare_pairs(const void *pa, const void *pb) {
    const int32_t *a = (const int32_t *)pa, *c = (const int32_t *)pb;
    int i;
    for (i = 0; i < 4; i++) {
        if (a[i] != c[i]) return a[i] < c[i] ? -1 : 1;
    }
    return 0;
}

static ecs_sched_result ecs_sched__report_ambiguities(ecs_sched__build *b, int32_t *pairs,
                                                     int32_t found, ecs_sched_report level) {
    int32_t k;
    if (found == 0 || level == ECS_SCHED_REPORT_IGNORE) return ECS_SCHED_OK;
    /* without sets, pairs come out already grouped (by system) and in order */
    if (b->set_count > 0) qsort(pairs, (size_t)found, 4 * sizeof(int32_t), ecs_sched__compare_pairs);
    ecs_sched__text_begin(b);
    ecs_sched__text_printf(&b->text, "%d pair(s) of systems access the same data in conflicting "
                                     "ways and nothing orders them:",
                           (int)found);
    for (k = 0; k < found; k++) {
        const int32_t *p = pairs + 4 * k;
        char x[160], y[160];
        if (k == ECS_SCHED__MAX_REPORTED_PAIRS) {
            ecs_sched__text_printf(&b->text, "\n  ... and %d more pair(s)", (int)(found - k));
            break;
        }
        if (p[0] == p[2] && p[1] == p[3]) {
            ecs_sched__text_printf(&b->text, "\n  %s and %s: ",
                                   ecs_sched__node_label(b, p[2], x, sizeof x),
                                   ecs_sched__node_label(b, p[3], y, sizeof y));
            ecs_sched__describe_conflict(b, p[2], p[3]);
            continue;
        }
        if (k == 0 || p[0] != p[-4] || p[1] != p[-3]) {
            ecs_sched__text_printf(&b->text, "\n  between %s and %s:",
                                   ecs_sched__node_label(b, p[0], x, sizeof x),
                                   ecs_sched__node_label(b, p[1], y, sizeof y));
        }
        ecs_sched__text_printf(&b->text, "\n    %s and %s: ",
                               ecs_sched__node_label(b, p[2], x, sizeof x),
                               ecs_sched__node_label(b, p[3], y, sizeof y));
        ecs_sched__describe_conflict(b, p[2], p[3]);
    }
    ecs_sched__text_printf(&b->text, "\nOrder each pair (or their sets) with before/after, or, "
                                     "when either order is fine, declare them ambiguous_with "
                                     "each other");
    return ecs_sched__report(b, level, ECS_SCHED_ERR_AMBIGUITY);
}

/* Whether the plan must bind its order for a parallel executor (see ecs_sched__bind_plan_order);
   a schedule that runs on one thread needs none of it. */
static bool ecs_sched__binds_order(const ecs_sched__build *b) {
    return ecs_sched__runs_in_parallel(b->s);
}

static bool ecs_sched__add_serial_pair(ecs_sched__build *b, int32_t x, int32_t y) {
    if (!ECS_SCHED__GROW(&b->w->env, b->serial, &b->serial_capacity, 2 * (b->serial_count + 1))) {
        return false;
    }
    b->serial[2 * b->serial_count] = x;
    b->serial[2 * b->serial_count + 1] = y;
    b->serial_count++;
    return true;
}

/* The pairwise check as it goes: what it reads, and the ambiguous pairs found so far. */
typedef struct ecs_sched__pair_scan {
    ecs_sched__conflict_table table;
    uint8_t *with_all;            /* system -> ambiguous with everything */
    bool serial;                  /* unordered pairs that must not overlap are kept too */
    int32_t *pairs;               /* group x, group y, x, y; owned */
    uint32_t capacity;
    int32_t found;
} ecs_sched__pair_scan;

/* Whether systems x and y must not run at once: their access conflicts, or both record
   commands where that matters (commands_x: x does, and the order binds). Buffers reserve
   entities in the world as they record, so writers of commands take turns too; that is not
   reported as an ambiguity. */
static ECS_SCHED__ALWAYS_INLINE bool ecs_sched__clash(const ecs_sched__build *b,
                                                     const ecs_sched__conflict_table *t,
                                                     int32_t x, int32_t y, bool commands_x) {
    return ecs_sched__conflict(t, x, y) || (commands_x && b->s->systems[y]->ctx.commands);
}

/* Systems x < y clash: keeps them as a serial pair and as an ambiguity as they qualify.
   False when out of memory. */
static bool ecs_sched__keep_pair(ecs_sched__build *b, ecs_sched__pair_scan *scan, int32_t x,
                                 int32_t y) {
    bool conflict = ecs_sched__conflict(&scan->table, x, y);
    int32_t *p;
    if (ecs_sched__ordered(b, x, y)) return true;
    if (scan->serial && !ecs_sched__add_serial_pair(b, x, y)) return false;
    if (!conflict || ecs_sched__silenced(b, scan->with_all, x, y)) return true;
    if (!ECS_SCHED__GROW(&b->w->env, scan->pairs, &scan->capacity,
                         4 * (uint32_t)(scan->found + 1))) {
        return false;
    }
    p = scan->pairs + 4 * scan->found++;
    p[0] = ecs_sched__group_of(b, x, y);
    p[1] = ecs_sched__group_of(b, y, x);
    p[2] = x;
    p[3] = y;
    return true;
}

/* Every pair of systems, each looked at once. A system that only reads (or touches nothing)
   conflicts only with writers, and a schedule of many such systems has few writers: those are
   all its row need look at. */
static bool ecs_sched__scan_pairs(ecs_sched__build *b, ecs_sched__pair_scan *scan) {
    const ecs_sched__conflict_table table = scan->table;   /* a copy the calls cannot change */
    int32_t S = b->system_count, writer_count = 0, next_writer = 0, i, j;
    int32_t *writers = ECS_SCHED__ALLOC_N(b, int32_t, S);   /* ascending */
    if (!writers) return false;
    for (j = 0; j < S; j++) {
        if (table.kind[j]) writers[writer_count++] = j;
    }
    for (i = 0; i < S; i++) {
        bool commands_i = scan->serial && b->s->systems[i]->ctx.commands != NULL;
        while (next_writer < writer_count && writers[next_writer] <= i) next_writer++;
        if (table.kind[i] == 0 && !commands_i) {
            for (j = next_writer; j < writer_count; j++) {
                if (ecs_sched__clash(b, &table, i, writers[j], false) &&
                    !ecs_sched__keep_pair(b, scan, i, writers[j])) {
                    return false;
                }
            }
            continue;
        }
        for (j = i + 1; j < S; j++) {
            if (ecs_sched__clash(b, &table, i, j, commands_i) &&
                !ecs_sched__keep_pair(b, scan, i, j)) {
                return false;
            }
        }
    }
    return true;
}

/* Finds the pairs of systems that no path orders and that must not run at once; reports those
   whose access conflicts as ambiguities, unless silenced. */
ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__check_ambiguities(ecs_sched__build *b) {
    ecs_sched__pair_scan scan;
    ecs_sched_result result;
    int32_t k;
    memset(&scan, 0, sizeof scan);
    scan.serial = ecs_sched__binds_order(b);
    scan.with_all = ecs_sched__ambiguous_with_all(b);
    if (!scan.with_all || !ecs_sched__conflict_table_make(b, &scan.table)) {
        return ecs_sched__oom(b);
    }
    if (!ecs_sched__scan_pairs(b, &scan) ||
        !(b->ambiguous = ECS_SCHED__ALLOC_N(b, int32_t, scan.found * 2))) {
        ecs_sched__free(&b->w->env, scan.pairs);
        return ecs_sched__oom(b);
    }
    b->ambiguous_count = scan.found;
    for (k = 0; k < scan.found; k++) {
        b->ambiguous[2 * k] = scan.pairs[4 * k + 2];
        b->ambiguous[2 * k + 1] = scan.pairs[4 * k + 3];
    }
    result = ecs_sched__report_ambiguities(b, scan.pairs, scan.found, b->s->settings.ambiguities);
    ecs_sched__free(&b->w->env, scan.pairs);
    return result;
}
