/* hierarchy: parents and children (the ChildOf relationship), and queries that read through
   them: a parent's values, and the order of depth. */
#pragma once
#include "change.h"
#include "relation.h"

/* Makes child a child of parent, last among its children (parent ECS_SCHED_NULL_ENTITY: the
   child becomes a root). Refused when parent is child or below it (ECS_SCHED_ERR_RELATION_CYCLE,
   naming the path). A structural change: from a system, use ecs_sched_commands_set_parent. */
ECS_SCHED_API ecs_sched_result ecs_sched_set_parent(ecs_sched_world *world, ecs_sched_entity child,
                                                    ecs_sched_entity parent);
/* The same, placed at `index` among the parent's children (past the end: last). A child of
   that parent already moves to `index`. Inside an observer it is recorded, and the child
   goes last. */
ECS_SCHED_API ecs_sched_result ecs_sched_set_parent_at(ecs_sched_world *world,
                                                       ecs_sched_entity child,
                                                       ecs_sched_entity parent, int32_t index);
/* The parent, or ECS_SCHED_NULL_ENTITY for a root (or a dead entity). */
ECS_SCHED_API ecs_sched_entity ecs_sched_parent_of(const ecs_sched_world *world,
                                                   ecs_sched_entity entity);
/* The children in their order; *count receives how many (NULL and 0 for none). Valid until
   the next structural change. */
ECS_SCHED_API const ecs_sched_entity *ecs_sched_children(const ecs_sched_world *world,
                                                         ecs_sched_entity parent, int32_t *count);
/* How many ancestors the entity has (0 for a root); -1 for a dead entity. */
ECS_SCHED_API int32_t ecs_sched_depth(const ecs_sched_world *world, ecs_sched_entity entity);
/* The entity's ancestors, its parent first: up to `capacity` into out; returns how many
   there are (which may be more than capacity), or -1 for a dead entity. */
ECS_SCHED_API int32_t ecs_sched_ancestors(const ecs_sched_world *world, ecs_sched_entity entity,
                                          ecs_sched_entity *out, int32_t capacity);

typedef enum ecs_sched_traversal {
    ECS_SCHED_DEPTH_FIRST,       /* each entity, then its subtree, children in their order */
    ECS_SCHED_BREADTH_FIRST      /* level by level, each level in the children's order */
} ecs_sched_traversal;

/* The entity's descendants (not itself) in the order asked: up to `capacity` into out;
   returns how many there are (which may be more than capacity), or -1 for a dead entity or
   when out of memory. */
ECS_SCHED_API int32_t ecs_sched_descendants(ecs_sched_world *world, ecs_sched_entity entity,
                                            ecs_sched_traversal order, ecs_sched_entity *out,
                                            int32_t capacity);
ECS_SCHED_API ecs_sched_result ecs_sched_commands_set_parent(ecs_sched_commands *commands,
                                                             ecs_sched_entity child,
                                                             ecs_sched_entity parent);

/*@@ implementation @@*/
/* hierarchy: parents and children.

   A hierarchical query (with from_parent or cascade terms) keeps its rows in a list (list.h,
   made again and walked by iter.h), with a pointer to the parent's value for each
   from_parent term. When it cascades, the list hands
   out every parent before its children: in table order when that already does (entities
   parented in the order they were made, as scenes usually are: the runs are then as long as
   the tables), else in depth order (roots, then their children, and so on; within a depth in
   table order). The list is
   made again at the first iteration after a row joined or left any table, or a relationship
   changed (the world's rows_version): that costs a pass over the query's rows and their
   ancestors, once. An iteration with nothing changed walks the list: runs of consecutive rows
   of one table, the parent pointers beside them. */

/* ---- parents and children ---- */

/* set_parent and set_parent_at, named after the one called. */
static ecs_sched_result ecs_sched__set_parent_at(ecs_sched_world *w, ecs_sched_entity child,
                                                ecs_sched_entity parent, int32_t index,
                                                const char *operation) {
    uint32_t at = index < 0 ? 0u : (uint32_t)index;
    ecs_sched_entity old;
    ecs_sched__sources *s;
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observed && ecs_sched__deferring(w)) {   /* recorded: the child goes last */
        return ecs_sched_commands_set_parent(ecs_sched__deferring(w), child, parent);
    }
    if (!ecs_sched__is_live_record(w, child)) return ecs_sched__stale(w, child, operation);
    old = ecs_sched_parent_of(w, child);
    if (parent == ECS_SCHED_NULL_ENTITY) {
        return old ? ecs_sched_unrelate(w, child, w->child_of, old) : ECS_SCHED_OK;
    }
    if (old != parent) return ecs_sched__relate_at(w, child, w->child_of, parent, NULL, at, operation);
    /* a child of that parent already: a move among its siblings */
    if (ecs_sched__change_refused(w, operation)) return ECS_SCHED_ERR_ACCESS;
    s = ecs_sched__sources_of(w, w->child_of, parent);
    if (at >= s->count) at = s->count - 1u;
    ecs_sched__sources_drop(s, child);
    ecs_sched__sources_insert(s, child, at);
    w->rows_version++;
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_set_parent_at(ecs_sched_world *w, ecs_sched_entity child,
                                         ecs_sched_entity parent, int32_t index) {
    return ecs_sched__set_parent_at(w, child, parent, index, "set_parent_at");
}

ecs_sched_result ecs_sched_set_parent(ecs_sched_world *w, ecs_sched_entity child,
                                      ecs_sched_entity parent) {
    return ecs_sched__set_parent_at(w, child, parent, INT32_MAX, "set_parent");
}

ecs_sched_result ecs_sched_commands_set_parent(ecs_sched_commands *cmd, ecs_sched_entity child,
                                               ecs_sched_entity parent) {
    if (ecs_sched__no_buffer(cmd)) return ECS_SCHED_ERR_ACCESS;
    if (parent != ECS_SCHED_NULL_ENTITY) {
        return ecs_sched_commands_relate(cmd, child, cmd->world->child_of, parent, NULL);
    }
    /* no parent: the child's ChildOf goes, whatever it is by then */
    {
        ecs_sched_result result = ecs_sched__check_target(cmd, child, "commands_set_parent");
        if (result != ECS_SCHED_OK) return result;
        return ecs_sched_commands_remove(cmd, child, cmd->world->child_of);
    }
}

ecs_sched_entity ecs_sched_parent_of(const ecs_sched_world *w, ecs_sched_entity e) {
    const unsigned char *slot;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__is_live_record(w, e)) return ECS_SCHED_NULL_ENTITY;
    slot = ecs_sched__rel_first_slot(w, e, w->child_of);
    return slot ? ecs_sched__rel_slot_target(slot) : ECS_SCHED_NULL_ENTITY;
}

const ecs_sched_entity *ecs_sched_children(const ecs_sched_world *w, ecs_sched_entity parent,
                                           int32_t *count) {
    return ecs_sched_sources(w, w->child_of, parent, count);
}

int32_t ecs_sched_ancestors(const ecs_sched_world *w, ecs_sched_entity e, ecs_sched_entity *out,
                            int32_t capacity) {
    int32_t n = 0;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__is_live_record(w, e)) return -1;
    for (;;) {
        const unsigned char *slot = ecs_sched__rel_first_slot(w, e, w->child_of);
        if (!slot) return n;
        e = ecs_sched__rel_slot_target(slot);
        if (out && n < capacity) out[n] = e;
        n++;
    }
}

int32_t ecs_sched_depth(const ecs_sched_world *w, ecs_sched_entity e) {
    return ecs_sched_ancestors(w, e, NULL, 0);
}

/* Pushes the children of e on a stack, last child first (so the first is popped first). */
static bool ecs_sched__push_children(ecs_sched_world *w, ecs_sched_entity e,
                                     ecs_sched_entity **stack, uint32_t *count,
                                     uint32_t *capacity, bool reversed) {
    int32_t n, i;
    const ecs_sched_entity *children = ecs_sched_children(w, e, &n);
    if (!children) return true;
    if (!ECS_SCHED__GROW(&w->env, *stack, capacity, *count + (uint32_t)n)) return false;
    for (i = 0; i < n; i++) (*stack)[(*count)++] = children[reversed ? n - 1 - i : i];
    return true;
}

int32_t ecs_sched_descendants(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_traversal order,
                              ecs_sched_entity *out, int32_t capacity) {
    ecs_sched_entity *pending = NULL;
    uint32_t count = 0, cap = 0, head = 0;
    int32_t n = 0;
    bool ok;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__is_live_record(w, e)) {
        ecs_sched__stale(w, e, "descendants");
        return -1;
    }
    /* depth first: a stack; breadth first: a queue read from `head` */
    ok = ecs_sched__push_children(w, e, &pending, &count, &cap, order == ECS_SCHED_DEPTH_FIRST);
    while (ok && head < count) {
        ecs_sched_entity next = order == ECS_SCHED_DEPTH_FIRST ? pending[--count] : pending[head++];
        if (out && n < capacity) out[n] = next;
        n++;
        ok = ecs_sched__push_children(w, next, &pending, &count, &cap, order == ECS_SCHED_DEPTH_FIRST);
    }
    ecs_sched__free(&w->env, pending);
    if (!ok) {
        ecs_sched__out_of_memory(w, "listing descendants");
        return -1;
    }
    return n;
}

/* ---- hierarchical queries ---- */

/* The target of e along `kind` (exclusive), or 0. */
static inline ecs_sched_entity ecs_sched__up(const ecs_sched_world *w, ecs_sched_entity e,
                                             ecs_sched_id kind) {
    const ecs_sched__record *r = &w->records[ECS_SCHED_ENTITY_INDEX(e)];
    const ecs_sched__table *t = w->tables[r->table];
    int32_t column = ecs_sched__column_find(t, kind);
    return column < 0 ? ECS_SCHED_NULL_ENTITY
                      : ecs_sched__rel_slot_target((const unsigned char *)ecs_sched__cell(t, column, r->row));
}

/* e's depth along `kind`, remembered for the entities on the way up. */
static uint32_t ecs_sched__memo_depth(const ecs_sched_world *w, ecs_sched__row_list *c,
                                      ecs_sched_entity e, ecs_sched_id kind) {
    ecs_sched_entity at = e;
    uint32_t steps = 0, depth, d;
    /* up to a root or an entity whose depth is known */
    while (at) {
        uint32_t index = ECS_SCHED_ENTITY_INDEX(at);
        if (c->memo_stamp[index] == c->stamp) break;
        at = ecs_sched__up(w, at, kind);
        steps++;
    }
    depth = at ? c->memo[ECS_SCHED_ENTITY_INDEX(at)] - 1u + steps : steps - 1u;
    /* down again, writing each depth */
    for (at = e, d = depth; steps > 0; steps--, d--) {
        uint32_t index = ECS_SCHED_ENTITY_INDEX(at);
        c->memo[index] = d + 1u;
        c->memo_stamp[index] = c->stamp;
        at = ecs_sched__up(w, at, kind);
    }
    return depth;
}

/* A cascading query's room for the depths of `rows` rows, and for the memo of depths by
   entity index. */
static bool ecs_sched__hier_reserve(ecs_sched_query *q, ecs_sched__row_list *c, uint32_t rows) {
    ecs_sched_world *w = q->world;
    uint32_t had = c->memo_capacity;
    if (!ECS_SCHED__GROW(&w->env, c->depths, &c->depth_capacity, rows + 1u)) return false;
    if (w->record_count > had) {
        uint32_t cap = c->memo_capacity;
        if (!ECS_SCHED__GROW(&w->env, c->memo, &cap, w->record_count)) return false;
        if (!ECS_SCHED__GROW(&w->env, c->memo_stamp, &c->memo_capacity, w->record_count)) return false;
        memset(c->memo_stamp + had, 0, (c->memo_capacity - had) * sizeof *c->memo_stamp);
    }
    return true;
}

/* Whether table order already hands out every parent (that the query matches) before its
   children: then it is kept, runs as long as the tables. */
static bool ecs_sched__hier_table_order_fits(ecs_sched_query *q, ecs_sched__row_list *c) {
    const ecs_sched_world *w = q->world;
    ecs_sched_id kind = q->terms[c->cascade].id;
    uint32_t i;
    for (i = 0; i < c->count; i++) {   /* 1: matched, not handed out yet */
        const ecs_sched__table *t = q->matches[c->rows[i].match].table;
        uint32_t index = ECS_SCHED_ENTITY_INDEX(t->entities[c->rows[i].row]);
        c->memo[index] = 1;
        c->memo_stamp[index] = c->stamp;
    }
    for (i = 0; i < c->count; i++) {   /* 2: handed out */
        const ecs_sched__table *t = q->matches[c->rows[i].match].table;
        ecs_sched_entity e = t->entities[c->rows[i].row];
        ecs_sched_entity parent = ecs_sched__up(w, e, kind);
        if (parent) {
            uint32_t p = ECS_SCHED_ENTITY_INDEX(parent);
            if (c->memo_stamp[p] == c->stamp && c->memo[p] == 1) return false;
        }
        c->memo[ECS_SCHED_ENTITY_INDEX(e)] = 2;
    }
    return true;
}

/* Sorts the rows by depth, keeping table order within a depth (a counting sort). */
static void ecs_sched__hier_sort(ecs_sched_query *q, ecs_sched__row_list *c) {
    ecs_sched_id kind = q->terms[c->cascade].id;
    uint32_t i, max = 0, *count;
    for (i = 0; i < c->count; i++) {
        const ecs_sched__table *t = q->matches[c->rows[i].match].table;
        c->sorted[i] = c->rows[i];
        c->depths[i] = ecs_sched__memo_depth(q->world, c, t->entities[c->rows[i].row], kind);
        if (c->depths[i] > max) max = c->depths[i];
    }
    count = (uint32_t *)ecs_sched__calloc(&q->world->env, ((size_t)max + 2u) * sizeof *count);
    if (!count) {   /* out of memory: table order; every row is still handed out */
        return;
    }
    for (i = 0; i < c->count; i++) count[c->depths[i] + 1u]++;
    for (i = 1; i <= max + 1u; i++) count[i] += count[i - 1u];
    for (i = 0; i < c->count; i++) c->rows[count[c->depths[i]]++] = c->sorted[i];
    ecs_sched__free(&q->world->env, count);
}

/* A new stamp for the memo: what it holds from before counts as unknown. */
static void ecs_sched__memo_forget(ecs_sched__row_list *c) {
    if (++c->stamp == 0) {
        memset(c->memo_stamp, 0, c->memo_capacity * sizeof *c->memo_stamp);
        c->stamp = 1;
    }
}

/* A cascading query's rows: every parent before its children, in table order when that
   already does so, else by depth. */
static void ecs_sched__hier_order(ecs_sched_query *q, ecs_sched__row_list *c) {
    ecs_sched__memo_forget(c);
    if (ecs_sched__hier_table_order_fits(q, c)) return;
    ecs_sched__memo_forget(c);
    ecs_sched__hier_sort(q, c);
}

/* The parent's value of each from_parent term for each row; rows whose required parent value
   is missing are dropped. */
static void ecs_sched__hier_parents(ecs_sched_query *q, ecs_sched__row_list *c) {
    const ecs_sched_world *w = q->world;
    uint32_t i, kept = 0;
    int32_t term;
    for (i = 0; i < c->count; i++) {
        const ecs_sched__table *t = q->matches[c->rows[i].match].table;
        ecs_sched_entity parent = ecs_sched__up(w, t->entities[c->rows[i].row], w->child_of);
        const ecs_sched__table *pt = NULL;
        uint32_t prow = 0;
        bool keep = true;
        if (parent) {
            const ecs_sched__record *r = &w->records[ECS_SCHED_ENTITY_INDEX(parent)];
            pt = w->tables[r->table];
            prow = r->row;
        }
        for (term = 0; term < q->term_count; term++) {
            int32_t column;
            const void *value = NULL;
            if (c->parent_slot[term] < 0 || c->sparse_term[term]) continue;
            column = pt ? ecs_sched__column_find(pt, q->terms[term].id) : -1;
            if (column >= 0) value = ecs_sched__cell(pt, column, prow);
            if (!value && q->terms[term].kind == ECS_SCHED_TERM_FROM_PARENT) keep = false;
            c->parents[(size_t)c->parent_slot[term] * c->capacity + kept] = value;
        }
        if (keep) c->rows[kept++] = c->rows[i];
    }
    c->count = kept;
}
