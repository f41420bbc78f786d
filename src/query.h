/* query: queries, their cached tables, and the plain iteration (of every query: iter.h). */
#pragma once
#include "table.h"
#include "list.h"

typedef struct ecs_sched_query ecs_sched_query;

/* ---- queries ---- */

typedef enum ecs_sched_term_kind {
    ECS_SCHED_TERM_DEFAULT = 0,    /* as READ; with id 0, the zero term that ends the list */
    ECS_SCHED_TERM_READ,           /* required, read */
    ECS_SCHED_TERM_WRITE,          /* required, written */
    ECS_SCHED_TERM_OPTIONAL_READ,  /* field NULL where absent */
    ECS_SCHED_TERM_OPTIONAL_WRITE,
    ECS_SCHED_TERM_WITHOUT,        /* only entities without it; field always NULL */
    /* change detection (tracked components only; see Change detection in THE WORLD'S EVENTS): */
    ECS_SCHED_TERM_ADDED,          /* required, read; rows added since the last look */
    ECS_SCHED_TERM_CHANGED,        /* required, read; rows changed since the last look */
    ECS_SCHED_TERM_WRITE_MANUAL,   /* required, written; marks no row changed by itself:
                                      the loop marks what it changes, with
                                      ecs_sched_iter_mark_changed */
    /* relationships and hierarchies (see RELATIONSHIPS and HIERARCHY): */
    ECS_SCHED_TERM_RELATED,        /* required, read: relationship kind `id` to `target` */
    ECS_SCHED_TERM_FROM_PARENT,    /* required: component `id` of the entity's ChildOf
                                      parent, read; the field holds one pointer per row */
    ECS_SCHED_TERM_OPTIONAL_FROM_PARENT,  /* the same, the pointer NULL where the entity has
                                             no parent or the parent lacks `id` */
    ECS_SCHED_TERM_CASCADE,        /* optional read of relationship `id` (ChildOf, or a kind
                                      registered acyclic and exclusive), and iteration in
                                      depth order: every target before its sources */
    /* prefabs and inheritance (see PREFABS AND INHERITANCE): */
    ECS_SCHED_TERM_INHERITED,      /* required, read: the entity's own value, or else the one
                                      its nearest base has, one value for the whole table
                                      (ecs_sched_field_is_shared tells which) */
    /* fixed sources: one value for every row (a shared field); while the source lacks it,
       the query hands out nothing */
    ECS_SCHED_TERM_FROM_ENTITY,    /* required, read: component `id` of the entity `target` */
    ECS_SCHED_TERM_RESOURCE,       /* required, read: the resource `id` (a system's query
                                      adds it to the resources the system reads) */
    ECS_SCHED_TERM_RESOURCE_WRITE, /* required, written: the resource `id` (likewise, writes) */
    /* alternatives (flecs's OR, "Velocity || Speed"): a required term read or written
       (READ or WRITE) followed by one or more of these makes a chain; an entity matches it
       when it has any of the chain's components, and of each chain only the field of the
       first component the entity has is set, the others NULL (which tells which matched) */
    ECS_SCHED_TERM_OR_READ,        /* an alternative to the term before it, read */
    ECS_SCHED_TERM_OR_WRITE,       /* an alternative to the term before it, written */
    /* (see RELATIONSHIPS) */
    ECS_SCHED_TERM_EACH_TARGET,    /* required, read: relationship kind `id`, one result per
                                      target: the entity is handed out once for each target
                                      it has, the field one pointer per row to that target
                                      and its payload (ecs_sched_field_target) */
    ECS_SCHED_TERM_EACH_KIND       /* required, read: related to `target` by any kind (id:
                                      ecs_sched_wildcard), one result per kind: the field as
                                      each target's, ecs_sched_field_kind tells the kind */
} ecs_sched_term_kind;

typedef struct ecs_sched_term {
    ecs_sched_id id;               /* 0 ends the term list */
    ecs_sched_term_kind kind;
    ecs_sched_entity target;       /* ECS_SCHED_TERM_RELATED: the target */
} ecs_sched_term;

static inline ecs_sched_term ecs_sched_read(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_READ; return t;
}
static inline ecs_sched_term ecs_sched_write(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_WRITE; return t;
}
static inline ecs_sched_term ecs_sched_optional_read(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_OPTIONAL_READ; return t;
}
static inline ecs_sched_term ecs_sched_optional_write(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_OPTIONAL_WRITE; return t;
}
static inline ecs_sched_term ecs_sched_without(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_WITHOUT; return t;
}
static inline ecs_sched_term ecs_sched_added(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_ADDED; return t;
}
static inline ecs_sched_term ecs_sched_changed(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_CHANGED; return t;
}
static inline ecs_sched_term ecs_sched_write_manual(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_WRITE_MANUAL; return t;
}
#ifndef ECS_SCHED_NO_RELATIONS
/* Entities with a relationship of kind `kind` to `target` (read(kind) asks for any target,
   without(kind) for none). */
static inline ecs_sched_term ecs_sched_related(ecs_sched_id kind, ecs_sched_entity target) {
    ecs_sched_term t; t.id = kind; t.target = target; t.kind = ECS_SCHED_TERM_RELATED; return t;
}
static inline ecs_sched_term ecs_sched_from_parent(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_FROM_PARENT; return t;
}
static inline ecs_sched_term ecs_sched_optional_from_parent(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_OPTIONAL_FROM_PARENT;
    return t;
}
static inline ecs_sched_term ecs_sched_cascade(ecs_sched_id kind) {
    ecs_sched_term t; t.id = kind; t.target = 0; t.kind = ECS_SCHED_TERM_CASCADE; return t;
}
#endif
#ifndef ECS_SCHED_NO_INHERITANCE
/* Entities that own the component or inherit it from a base (IsA); read only. */
static inline ecs_sched_term ecs_sched_inherited(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_INHERITED; return t;
}
#endif

/* Component `id` of one entity, the same for every row: flecs's "Game:Config". */
static inline ecs_sched_term ecs_sched_from_entity(ecs_sched_id id, ecs_sched_entity entity) {
    ecs_sched_term t; t.id = id; t.target = entity; t.kind = ECS_SCHED_TERM_FROM_ENTITY;
    return t;
}
/* An alternative to the term before it: read(velocity), or_read(speed) matches entities
   with either, and the field of the one each has is set. */
static inline ecs_sched_term ecs_sched_or_read(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_OR_READ; return t;
}
static inline ecs_sched_term ecs_sched_or_write(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_OR_WRITE; return t;
}
#ifndef ECS_SCHED_NO_RELATIONS
/* Every kind relating an entity to `target`, one result per kind: flecs's "(*, Bob)"; id is
   ecs_sched_wildcard(world). */
static inline ecs_sched_term ecs_sched_each_kind(ecs_sched_id wildcard, ecs_sched_entity target) {
    ecs_sched_term t; t.id = wildcard; t.target = target; t.kind = ECS_SCHED_TERM_EACH_KIND;
    return t;
}
/* Each target of relationship kind `kind`, one result per target: flecs's "(Likes, *)". */
static inline ecs_sched_term ecs_sched_each_target(ecs_sched_id kind) {
    ecs_sched_term t; t.id = kind; t.target = 0; t.kind = ECS_SCHED_TERM_EACH_TARGET; return t;
}
#endif
/* A resource, read or written, the same for every row: flecs's "$Game". */
static inline ecs_sched_term ecs_sched_resource_read(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_RESOURCE; return t;
}
static inline ecs_sched_term ecs_sched_resource_write(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_RESOURCE_WRITE; return t;
}

typedef struct ecs_sched_query_desc {
    ecs_sched_term terms[ECS_SCHED_MAX_TERMS];  /* up to the first term with id 0 */
} ecs_sched_query_desc;

/* What a query touches: ids it only reads, ids it writes. */
typedef struct ecs_sched_access {
    const ecs_sched_id *reads;
    int32_t read_count;
    const ecs_sched_id *writes;
    int32_t write_count;
} ecs_sched_access;

/* One matching table at a time: `count` rows, their entities, and per term index a pointer
   to the first value of its column (NULL for tags, absent optionals and without-terms). A
   query with added or changed terms, or one that writes a tracked component, hands out runs
   of rows instead: the rows of a table that pass its filters, in table order. */
typedef struct ecs_sched_iter {
    int32_t count;
    const ecs_sched_entity *entities;
    void *fields[ECS_SCHED_MAX_TERMS];
    uint32_t shared;                 /* bit i: field i is one value for every row (an
                                        inherited term; see ecs_sched_field_is_shared) */
    const ecs_sched_query *query_;   /* private */
    int32_t next_;                   /* private */
    int32_t row_;                    /* private: the row after this run (-1 before the
                                        first ecs_sched_iter_next) */
    int32_t at_;                     /* private: the next change-log entry, or -1 */
    uint32_t last_run_, this_run_;   /* private: the window of changes it sees */
    bool by_rows_;                   /* private: advanced by ecs_sched_iter_next_rows */
    int32_t rows[ECS_SCHED_ITER_ROWS];   /* ecs_sched_iter_next_rows: the rows handed out */
} ecs_sched_iter;

#define ECS_SCHED_FIELD(it, T, index) ((T *)(it)->fields[(index)])
/* Whether field `index` holds one value for all the rows handed out (a base's value, read
   through an inherited term) rather than one per row. */
#define ecs_sched_field_is_shared(it, index) ((((it)->shared >> (index)) & 1u) != 0)
/* A pointer to row `row`'s value of field `index`, shared or not. */
#define ECS_SCHED_FIELD_AT(it, T, index, row) \
    (ECS_SCHED_FIELD(it, T, index) + (ecs_sched_field_is_shared(it, index) ? 0 : (row)))
/* A from_parent term's field: per row, a pointer to the parent's value (or NULL). */
#define ECS_SCHED_PARENT_FIELD(it, T, index) ((const T *const *)(it)->fields[(index)])
/* A sparse component's field: per row handed out, a pointer to the entity's value (NULL where
   an optional term's component is absent). See Sparse storage in THE WORLD. */
#define ECS_SCHED_SPARSE_FIELD(it, T, index) ((T *const *)(it)->fields[(index)])
/* An each-target term's field: per row, the target it is handed out for (and
   ecs_sched_field_payload, that relationship's payload). */
static inline ecs_sched_entity ecs_sched_field_target(const ecs_sched_iter *it, int32_t index,
                                                      int32_t row) {
    const void *const *slots = (const void *const *)it->fields[index];
    return *(const ecs_sched_entity *)slots[row];   /* a slot begins with its target */
}

/* The world owns the query; it is freed by ecs_sched_query_destroy or with the world.
   Returns NULL on failure. */
ECS_SCHED_API ecs_sched_query *ecs_sched_query_create(ecs_sched_world *world,
                                                      const ecs_sched_query_desc *desc);
ECS_SCHED_API void ecs_sched_query_destroy(ecs_sched_query *query);
ECS_SCHED_API ecs_sched_access ecs_sched_query_access(const ecs_sched_query *query);
/* An iterator at the start of the query, whose rows ecs_sched_iter_next hands out (see
   iteration, below). Structural changes (spawn, insert, remove, despawn) must not happen
   while iterating: record them in a command buffer instead. */
ECS_SCHED_API ecs_sched_iter ecs_sched_query_iter(const ecs_sched_query *query);

/*@@ implementation @@*/
/* query: queries, their cached tables, and the plain iteration (of every query: iter.h). */

typedef struct ecs_sched__match {
    ecs_sched__table *table;
    int16_t column[ECS_SCHED_MAX_TERMS];  /* column per term, -1 when the field is NULL,
                                             ECS_SCHED__FROM_BASE for a value a base has */
} ecs_sched__match;

/* An inherited term's column in a table whose entities do not own the component: their
   bases' value is looked up at each iteration (inherit.h). */
#define ECS_SCHED__FROM_BASE (-2)
/* A fixed source's column: the entity's or the resource's value, looked up at each
   iteration (iter.h). */
#define ECS_SCHED__FROM_SOURCE (-3)

/* A ticked query's tick column per term of each match (-1 when untracked), apart from the
   matches, which every iteration reads. */
typedef struct ecs_sched__match_ticks {
    int16_t of[ECS_SCHED_MAX_TERMS];
    int16_t toggle[ECS_SCHED_MAX_TERMS];   /* a toggled query's: the bits (table.h) a term
                                              picks rows by, -1: none */
} ecs_sched__match_ticks;

/* What iteration reads comes first, on one cache line. */
struct ecs_sched_query {
    ecs_sched__match *matches;
    uint32_t match_count;
    int32_t term_count;
    ecs_sched_world *world;
    bool plain;                       /* hands out its tables whole, its own columns as the
                                         fields: neither ticked nor inherits (iter.h) */
    bool writes_resource;             /* has a resource term that writes (read as each
                                         iteration starts, beside plain) */
    bool ticked;                      /* filters on ticks, or marks changes: see change.h */
    bool filtered;                    /* has added or changed terms: */
    int16_t filter_count;             /* how many, */
    int16_t log_term;                 /* and the one whose change log it follows (-1: none) */
    bool marks;                       /* writes a tracked component, marking what it hands out */
    bool sees_disabled;               /* matches tables of disabled entities (disable.h) */
    bool sees_prefabs;                /* matches tables of prefabs (disable.h) */
    bool related;                     /* has related terms: a filter on rows (relation.h) */
    bool toggled;                     /* has terms that pick rows by the bits of toggleable
                                         components: a filter on rows (change.h) */
    bool hierarchical;                /* has from_parent or cascade terms (hierarchy.h) */
    bool listed;                      /* hands out the rows of a list it keeps: hierarchical
                                         or sorted (hierarchy.h, sort.h) */
    bool inherits;                    /* has inherited terms (inherit.h) or fixed sources:
                                         hands out shared values */
    int16_t each_target;              /* the each-target term, or -1: hands out one row per
                                         target (listed, iter.h) */
    uint32_t chained;                 /* bit i: term i is in a chain of alternatives */
    uint32_t chain_first;             /* bit i: term i begins one */
    bool sparse;                      /* has terms on sparse components: listed (sparse.h) */
    bool sparse_filtered;             /* has added or changed terms on sparse components */
    bool sparse_marks;                /* writes a tracked sparse component (sparse.h) */
    ecs_sched__row_list *list;        /* listed: the rows in order (list.h) */
    uint32_t last_iter;               /* outside systems: the tick of its last iteration */
    uint32_t match_capacity;
    ecs_sched__match_ticks *match_ticks;  /* ticked queries: per match */
    uint32_t match_ticks_capacity;
    int32_t read_count;
    int32_t write_count;
    ecs_sched_term terms[ECS_SCHED_MAX_TERMS];
    ecs_sched_id reads[ECS_SCHED_MAX_TERMS + 1];   /* + ChildOf, read by hierarchical terms */
    ecs_sched_id writes[ECS_SCHED_MAX_TERMS];
};

/* Whether a term's field is a column of the entity's own table (not of its parent, and not
   a without-term). */
static bool ecs_sched__term_on_parent(ecs_sched_term_kind kind) {
    return kind == ECS_SCHED_TERM_FROM_PARENT || kind == ECS_SCHED_TERM_OPTIONAL_FROM_PARENT;
}

/* Terms whose value comes from one source for every row: an entity, a resource. */
static bool ecs_sched__term_fixed(ecs_sched_term_kind kind) {
    return kind >= ECS_SCHED_TERM_FROM_ENTITY && kind <= ECS_SCHED_TERM_RESOURCE_WRITE;
}

static bool ecs_sched__term_alternative(ecs_sched_term_kind kind) {
    return kind == ECS_SCHED_TERM_OR_READ || kind == ECS_SCHED_TERM_OR_WRITE;
}

/* The end of the chain of alternatives that begins at term `first` (one past its last). */
static int32_t ecs_sched__chain_end(const ecs_sched_query *q, int32_t first) {
    int32_t end = first + 1;
    while (end < q->term_count && ecs_sched__term_alternative(q->terms[end].kind)) end++;
    return end;
}

/* Matches a chain of alternatives against table t: the first of its components the table
   has is the chain's, the other fields NULL; false when it has none. */
static bool ecs_sched__chain_matches(const ecs_sched_query *q, const ecs_sched__table *t,
                                     int32_t first, int32_t end, ecs_sched__match *out) {
    int32_t k, chosen = -1;
    for (k = first; k < end && chosen < 0; k++) {
        if (ecs_sched__type_find(t, q->terms[k].id) >= 0) chosen = k;
    }
    if (chosen < 0) return false;
    for (k = first; out && k < end; k++) {
        out->column[k] = (int16_t)(k == chosen ? ecs_sched__column_find(t, q->terms[k].id) : -1);
    }
    return true;
}

static bool ecs_sched__term_on_resource(ecs_sched_term_kind kind) {
    return kind == ECS_SCHED_TERM_RESOURCE || kind == ECS_SCHED_TERM_RESOURCE_WRITE;
}

static bool ecs_sched__term_on_self(ecs_sched_term_kind kind) {
    return kind != ECS_SCHED_TERM_WITHOUT && kind != ECS_SCHED_TERM_FROM_PARENT &&
           kind != ECS_SCHED_TERM_OPTIONAL_FROM_PARENT && !ecs_sched__term_fixed(kind) &&
           kind != ECS_SCHED_TERM_EACH_KIND;
}

static bool ecs_sched__query_matches(const ecs_sched_query *q, ecs_sched__table *t,
                                     ecs_sched__match *out) {
    int32_t i;
    /* disabled entities and prefabs are hidden unless asked for */
    if (!q->sees_disabled && ecs_sched__type_find(t, q->world->disabled) >= 0) return false;
    if (!q->sees_prefabs && ecs_sched__type_find(t, q->world->prefab) >= 0) return false;
    for (i = 0; i < q->term_count; i++) {
        const ecs_sched_term *term = &q->terms[i];
        bool present = ecs_sched__type_find(t, term->id) >= 0;
        if (ecs_sched__term_fixed(term->kind)) {   /* looked up when iterating */
            if (out) out->column[i] = ECS_SCHED__FROM_SOURCE;
            continue;
        }
        if (term->kind == ECS_SCHED_TERM_EACH_KIND) {   /* its rows come from its target */
            if (out) out->column[i] = -1;
            continue;
        }
        if ((q->chain_first >> i) & 1u) {
            int32_t end = ecs_sched__chain_end(q, i);
            if (!ecs_sched__chain_matches(q, t, i, end, out)) return false;
            i = end - 1;
            continue;
        }
        if (q->sparse && q->world->components[term->id].sparse) {   /* tested per entity */
            if (out) out->column[i] = -1;
            continue;
        }
        switch (term->kind) {
        case ECS_SCHED_TERM_DEFAULT:
        case ECS_SCHED_TERM_READ:
        case ECS_SCHED_TERM_WRITE:
        case ECS_SCHED_TERM_ADDED:
        case ECS_SCHED_TERM_CHANGED:
        case ECS_SCHED_TERM_WRITE_MANUAL:
            if (!present) return false;
            break;
        case ECS_SCHED_TERM_WITHOUT:
            /* a toggleable component the table has may be off on some rows: those match */
            if (present && !q->world->components[term->id].toggleable) return false;
            break;
        case ECS_SCHED_TERM_RELATED:
        case ECS_SCHED_TERM_EACH_TARGET:
            if (!present) return false;
            break;
        case ECS_SCHED_TERM_FROM_PARENT:
            if (ecs_sched__type_find(t, q->world->child_of) < 0) return false;
            break;
        case ECS_SCHED_TERM_INHERITED:   /* which base has it is looked up when iterating */
            if (!present && ecs_sched__type_find(t, q->world->is_a) < 0) return false;
            break;
        case ECS_SCHED_TERM_OPTIONAL_READ:
        case ECS_SCHED_TERM_OPTIONAL_WRITE:
        case ECS_SCHED_TERM_OPTIONAL_FROM_PARENT:
        case ECS_SCHED_TERM_CASCADE:
        case ECS_SCHED_TERM_FROM_ENTITY:   /* (fixed sources and every kind: handled above) */
        case ECS_SCHED_TERM_RESOURCE:
        case ECS_SCHED_TERM_RESOURCE_WRITE:
        case ECS_SCHED_TERM_EACH_KIND:
            break;
        case ECS_SCHED_TERM_OR_READ:       /* (chains: handled above) */
        case ECS_SCHED_TERM_OR_WRITE:
            if (!present) return false;
            break;
        }
        if (out) {
            int32_t column = ecs_sched__term_on_self(term->kind) ? ecs_sched__column_find(t, term->id)
                                                                 : -1;
            if (term->kind == ECS_SCHED_TERM_INHERITED && !present) column = ECS_SCHED__FROM_BASE;
            out->column[i] = (int16_t)column;
        }
    }
    if (out) out->table = t;
    return true;
}

/* Whether term i of q picks rows by the bits of its toggleable component: a term that requires
   the component on the entity takes the rows where it is on, a without-term those where it
   is off (or absent). Optional terms, alternatives and terms on other sources do not. */
static bool ecs_sched__term_toggles(const ecs_sched_query *q, int32_t i) {
    ecs_sched_term_kind kind = q->terms[i].kind;
    if (!q->world->components[q->terms[i].id].toggleable || ((q->chained >> i) & 1u)) return false;
    return kind == ECS_SCHED_TERM_READ || kind == ECS_SCHED_TERM_WRITE ||
           kind == ECS_SCHED_TERM_ADDED || kind == ECS_SCHED_TERM_CHANGED ||
           kind == ECS_SCHED_TERM_WRITE_MANUAL || kind == ECS_SCHED_TERM_WITHOUT;
}

/* A ticked query's tick columns of a table it matches, by term. */
static void ecs_sched__match_ticks_fill(const ecs_sched_query *q, const ecs_sched__match *m,
                                        ecs_sched__match_ticks *out) {
    const ecs_sched__table *t = m->table;
    int32_t i;
    for (i = 0; i < q->term_count; i++) {
        /* (an alternative the table has but the chain did not choose is not handed out) */
        bool passed = ((q->chained >> i) & 1u) && m->column[i] < 0;
        const ecs_sched__ticks *ticks = ecs_sched__term_on_self(q->terms[i].kind) && !passed
                                            ? ecs_sched__ticks_find(t, q->terms[i].id) : NULL;
        const ecs_sched__toggle *bits = q->toggled && ecs_sched__term_toggles(q, i)
                                            ? ecs_sched__toggle_find(t, q->terms[i].id) : NULL;
        out->of[i] = (int16_t)(ticks ? ticks - t->ticks : -1);
        out->toggle[i] = (int16_t)(bits ? bits - t->toggles : -1);
    }
}

/* Room for one more match (and its ticks, for a ticked query). */
static bool ecs_sched__query_reserve_match(ecs_sched_world *w, ecs_sched_query *q) {
    return ECS_SCHED__GROW(&w->env, q->matches, &q->match_capacity, q->match_count + 1) &&
           (!q->ticked || ECS_SCHED__GROW(&w->env, q->match_ticks, &q->match_ticks_capacity,
                                          q->match_count + 1));
}

/* Adds table t as the query's next match when it matches. */
static void ecs_sched__query_add_match(ecs_sched_query *q, ecs_sched__table *t) {
    if (!ecs_sched__query_matches(q, t, &q->matches[q->match_count])) return;
    if (q->ticked) {
        ecs_sched__match_ticks_fill(q, &q->matches[q->match_count], &q->match_ticks[q->match_count]);
    }
    q->match_count++;
}

/* ---- queries ---- */

static bool ecs_sched__term_writes(ecs_sched_term_kind kind) {
    return kind == ECS_SCHED_TERM_WRITE || kind == ECS_SCHED_TERM_OPTIONAL_WRITE ||
           kind == ECS_SCHED_TERM_WRITE_MANUAL || kind == ECS_SCHED_TERM_RESOURCE_WRITE ||
           kind == ECS_SCHED_TERM_OR_WRITE;
}

/* Whether an entity must have the term's component to match. */
static bool ecs_sched__term_required(ecs_sched_term_kind kind) {
    return kind == ECS_SCHED_TERM_READ || kind == ECS_SCHED_TERM_WRITE ||
           kind == ECS_SCHED_TERM_ADDED || kind == ECS_SCHED_TERM_CHANGED ||
           kind == ECS_SCHED_TERM_WRITE_MANUAL || kind == ECS_SCHED_TERM_RELATED ||
           kind == ECS_SCHED_TERM_EACH_TARGET;
}

/* The same for term i of query q, which a chain of alternatives does not require. */
static bool ecs_sched__term_required_in(const ecs_sched_query *q, int32_t i) {
    return ecs_sched__term_required(q->terms[i].kind) && !((q->chained >> i) & 1u);
}

/* Terms that read through the hierarchy: the query hands out its rows in the order
   hierarchy.h keeps for it. */
static bool ecs_sched__term_hierarchical(ecs_sched_term_kind kind) {
    return kind == ECS_SCHED_TERM_FROM_PARENT || kind == ECS_SCHED_TERM_OPTIONAL_FROM_PARENT ||
           kind == ECS_SCHED_TERM_CASCADE;
}

/* What a relationship or hierarchy term asks of its component and target. */
static ecs_sched_result ecs_sched__check_relational_term(ecs_sched_world *w,
                                                        const ecs_sched_term *term, int32_t i) {
    const ecs_sched__component *c = &w->components[term->id];
    if (term->kind == ECS_SCHED_TERM_EACH_KIND) {
        if (term->id != w->wildcard || !ecs_sched__is_live_record(w, term->target)) {
            return term->id != w->wildcard
                       ? ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                                         "query_create: term %d asks for every kind of "
                                         "relationship, and its id must be ecs_sched_wildcard",
                                         (int)i)
                       : ecs_sched__stale(w, term->target, "query_create: the target of a term "
                                                           "of every kind");
        }
        return ECS_SCHED_OK;
    }
    if (term->target && term->kind != ECS_SCHED_TERM_RELATED &&
        term->kind != ECS_SCHED_TERM_FROM_ENTITY) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                               "query_create: term %d ('%s') has a target, but only a related "
                               "term (ecs_sched_related) and a term from an entity "
                               "(ecs_sched_from_entity) have one", (int)i, c->name);
    }
    if (term->kind == ECS_SCHED_TERM_FROM_ENTITY && !ecs_sched__is_live_record(w, term->target)) {
        return ecs_sched__stale(w, term->target, "query_create: the source of a term from an entity");
    }
    if ((term->kind == ECS_SCHED_TERM_RELATED || term->kind == ECS_SCHED_TERM_CASCADE ||
         term->kind == ECS_SCHED_TERM_EACH_TARGET) &&
        !c->relation) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                               "query_create: term %d names '%s' as a relationship, but it is a "
                               "component; register relationship kinds with "
                               "ecs_sched_relation_register", (int)i, c->name);
    }
    if (term->kind == ECS_SCHED_TERM_RELATED && !ecs_sched__is_live_record(w, term->target)) {
        return ecs_sched__stale(w, term->target, "query_create: the target of a related term");
    }
    if (term->kind == ECS_SCHED_TERM_CASCADE &&
        (c->relation & (ECS_SCHED__KIND_EXCLUSIVE | ECS_SCHED__KIND_ACYCLIC)) !=
            (ECS_SCHED__KIND_EXCLUSIVE | ECS_SCHED__KIND_ACYCLIC)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                               "query_create: term %d cascades along '%s', which is not both "
                               "exclusive and acyclic (ChildOf is); only such a kind gives each "
                               "entity one depth", (int)i, c->name);
    }
    if ((term->kind == ECS_SCHED_TERM_FROM_PARENT ||
         term->kind == ECS_SCHED_TERM_OPTIONAL_FROM_PARENT) && c->size == 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                               "query_create: term %d reads '%s' from the parent, but '%s' is a "
                               "tag and has no value", (int)i, c->name, c->name);
    }
    if (c->relation && ecs_sched__term_writes(term->kind) &&
        c->size == sizeof(ecs_sched_entity)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                               "query_create: term %d writes '%s', a relationship without a "
                               "payload: its value is the target, which only ecs_sched_relate "
                               "changes; read it instead", (int)i, c->name);
    }
    return ECS_SCHED_OK;
}

/* A term of a feature the header was compiled without (ECS_SCHED_NO_RELATIONS,
   ECS_SCHED_NO_INHERITANCE): nothing would iterate it. */
static ecs_sched_result ecs_sched__check_term_compiled(ecs_sched_world *w,
                                                      const ecs_sched_term *term, int32_t i) {
    const char *feature = NULL;
#ifdef ECS_SCHED_NO_RELATIONS
    if (term->kind == ECS_SCHED_TERM_RELATED || term->kind == ECS_SCHED_TERM_CASCADE ||
        term->kind == ECS_SCHED_TERM_EACH_TARGET || term->kind == ECS_SCHED_TERM_EACH_KIND ||
        term->kind == ECS_SCHED_TERM_FROM_PARENT ||
        term->kind == ECS_SCHED_TERM_OPTIONAL_FROM_PARENT) {
        feature = "ECS_SCHED_NO_RELATIONS";
    }
#endif
#ifdef ECS_SCHED_NO_INHERITANCE
    if (term->kind == ECS_SCHED_TERM_INHERITED) feature = "ECS_SCHED_NO_INHERITANCE";
#endif
    if (!feature) return ECS_SCHED_OK;
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                           "query_create: term %d ('%s') is of a kind this build of "
                           "ecs_sched.h leaves out (%s); compile the implementation without "
                           "that switch to use it", (int)i, w->components[term->id].name,
                           feature);
}

/* What a term asks of a sparse component: only what can be looked up on the entity itself
   (sparse_query.h lists the rows). */
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

static bool ecs_sched__term_filters(ecs_sched_term_kind kind) {
    return kind == ECS_SCHED_TERM_ADDED || kind == ECS_SCHED_TERM_CHANGED;
}

/* Written terms other than WRITE_MANUAL mark each row they hand out changed. */
static bool ecs_sched__term_marks(ecs_sched_term_kind kind) {
    return kind == ECS_SCHED_TERM_WRITE || kind == ECS_SCHED_TERM_OPTIONAL_WRITE ||
           kind == ECS_SCHED_TERM_OR_WRITE;
}

/* Whether two terms of one query may name the same component: one on the entity and one on
   its parent, or an added or changed filter beside a term that reads or writes it on the
   entity (Bevy's Query<&mut A, Changed<A>>): the filter only picks rows. Anything else names
   a component twice, or contradicts itself. */
static bool ecs_sched__term_kinds_may_share(ecs_sched_term_kind a, ecs_sched_term_kind b) {
    ecs_sched_term_kind other;
    if (ecs_sched__term_on_parent(a) != ecs_sched__term_on_parent(b)) return true;
    if (a == b || (!ecs_sched__term_filters(a) && !ecs_sched__term_filters(b))) return false;
    other = ecs_sched__term_filters(a) ? b : a;
    return other == ECS_SCHED_TERM_READ || other == ECS_SCHED_TERM_OPTIONAL_READ ||
           ecs_sched__term_writes(other) || ecs_sched__term_filters(other);
}

/* The same for two terms, which may also have other sources: a fixed source is another place
   than the entity, but a resource, or one entity's component, is named once. */
static bool ecs_sched__terms_may_share(const ecs_sched_term *a, const ecs_sched_term *b) {
    if (ecs_sched__term_fixed(a->kind) || ecs_sched__term_fixed(b->kind)) {
        return ecs_sched__term_on_resource(a->kind) != ecs_sched__term_on_resource(b->kind) ||
               (a->kind == ECS_SCHED_TERM_FROM_ENTITY) != (b->kind == ECS_SCHED_TERM_FROM_ENTITY) ||
               (a->kind == ECS_SCHED_TERM_FROM_ENTITY && a->target != b->target);
    }
    return ecs_sched__term_kinds_may_share(a->kind, b->kind);
}

/* Adds term i's component to the query's reads or writes, once. Two terms on the entity
   naming one component are a filter and a term that reads or writes it
   (ecs_sched__terms_may_share): the filter adds nothing of its own, and a write takes the
   place of a filter's read. */
static void ecs_sched__note_term_access(ecs_sched_query *q, int32_t i) {
    const ecs_sched_term *term = &q->terms[i];
    int32_t j, k;
    /* a resource is no component of the entities: a system's resources are its own list */
    if (term->kind == ECS_SCHED_TERM_WITHOUT || ecs_sched__term_on_resource(term->kind)) return;
    for (j = 0; j < i && ecs_sched__term_on_self(term->kind); j++) {
        if (q->terms[j].id != term->id || !ecs_sched__term_on_self(q->terms[j].kind)) continue;
        if (!ecs_sched__term_writes(term->kind)) return;   /* noted already */
        for (k = 0; k < q->read_count && q->reads[k] != term->id; k++) {}
        if (k < q->read_count) {
            memmove(&q->reads[k], &q->reads[k + 1], (size_t)(q->read_count - k - 1) * sizeof *q->reads);
            q->read_count--;
        }
        break;
    }
    if (ecs_sched__term_writes(term->kind)) {
        q->writes[q->write_count++] = term->id;
        return;
    }
    for (k = 0; k < q->read_count && q->reads[k] != term->id; k++) {}
    for (j = 0; j < q->write_count && q->writes[j] != term->id; j++) {}
    if (k == q->read_count && j == q->write_count) q->reads[q->read_count++] = term->id;
}

/* The filter term whose change log a filtered query follows: the first whose component the
   query does not write, since marking a row it hands out would move the row's entry to the end
   of the log it is reading (-1: none such; the query looks at every row instead). */
static int16_t ecs_sched__log_term_of(const ecs_sched_query *q) {
    int32_t i, j;
    for (i = 0; i < q->term_count; i++) {
        bool written = false;
        if (!ecs_sched__term_filters(q->terms[i].kind) || q->world->components[q->terms[i].id].sparse) {
            continue;
        }
        for (j = 0; j < q->term_count; j++) {
            written = written || (q->terms[j].id == q->terms[i].id && ecs_sched__term_writes(q->terms[j].kind));
        }
        if (!written) return (int16_t)i;
    }
    return -1;
}

/* Whether a term is the zero term, which ends a query's list (and a query whose first term
   is, ends a list of queries). */
static bool ecs_sched__term_ends(const ecs_sched_term *term) {
    return term->id == 0 && term->kind == ECS_SCHED_TERM_DEFAULT;
}

/* A term with id 0 that is not the zero term names a component that was never registered (or
   an id not set yet); a term after the zero term was meant to count. Either would end the list
   early without a word, and the system would read a field that is not there. */
static ecs_sched_result ecs_sched__check_term_list(ecs_sched_world *w,
                                                  const ecs_sched_query_desc *desc) {
    int32_t i, end = -1;
    for (i = 0; i < ECS_SCHED_MAX_TERMS; i++) {
        const ecs_sched_term *term = &desc->terms[i];
        if (ecs_sched__term_ends(term)) {
            if (end < 0) end = i;
            continue;
        }
        if (term->id == 0) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_UNKNOWN_COMPONENT,
                                   "query_create: term %d has component id 0, a component that "
                                   "was never registered or an id not set yet; register the "
                                   "component before making the query", (int)i);
        }
        if (end >= 0) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "query_create: term %d comes after the end of the list (term "
                                   "%d is the zero term); list the terms without gaps",
                                   (int)i, (int)end);
        }
    }
    return ECS_SCHED_OK;
}

/* A hierarchical query reads ChildOf (for its order and its parents' values); it keeps one
   order, which cannot follow changes as well. */
static ecs_sched_result ecs_sched__check_hierarchical(ecs_sched_world *w, ecs_sched_query *q) {
    int32_t i, cascade = -1, filter = -1;
    if (!q->hierarchical) return ECS_SCHED_OK;
    for (i = 0; i < q->term_count; i++) {
        if (q->terms[i].kind == ECS_SCHED_TERM_CASCADE) {
            if (cascade >= 0) {
                return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                                       "query_create: terms %d and %d both cascade; a query "
                                       "has one order", (int)cascade, (int)i);
            }
            cascade = i;
        }
        if (ecs_sched__term_filters(q->terms[i].kind) && filter < 0) filter = i;
    }
    if (filter >= 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                               "query_create: term %d asks for entities whose '%s' was %s, and "
                               "the query reads through the hierarchy; one query cannot do "
                               "both: use a second query for what changed", (int)filter,
                               w->components[q->terms[filter].id].name,
                               q->terms[filter].kind == ECS_SCHED_TERM_ADDED ? "added"
                                                                             : "changed");
    }
    for (i = 0; i < q->read_count && q->reads[i] != w->child_of; i++) {}
    if (i == q->read_count) q->reads[q->read_count++] = w->child_of;
    return ECS_SCHED_OK;
}

/* An inherited term reads a component bases share; a query keeping its own order of rows
   cannot also hand out a table's shared value. */
static ecs_sched_result ecs_sched__check_inherited(ecs_sched_world *w, const ecs_sched_query *q) {
    int32_t i;
    for (i = 0; q->inherits && i < q->term_count; i++) {
        ecs_sched_id id = q->terms[i].id;
        if (ecs_sched__term_fixed(q->terms[i].kind) && (q->sparse || q->listed)) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                                   "query_create: term %d reads '%s' from %s, one value for "
                                   "every row, and the query lists its rows one by one (it "
                                   "has a sparse term or reads through the hierarchy): use a "
                                   "second query, or ecs_sched_get", (int)i, w->components[id].name,
                                   ecs_sched__term_on_resource(q->terms[i].kind) ? "a resource"
                                                                                 : "an entity");
        }
        if (q->terms[i].kind != ECS_SCHED_TERM_INHERITED) continue;
        if (w->components[id].relation || id == w->prefab || id == w->disabled) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                                   "query_create: term %d asks for '%s' inherited, but "
                                   "relationships and the Prefab and Disabled tags are never "
                                   "inherited; read it with ecs_sched_read", (int)i,
                                   w->components[id].name);
        }
        if (q->sparse) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                                   "query_create: term %d reads '%s' inherited, and the query "
                                   "has a sparse term, whose rows it lists one by one, while an "
                                   "inherited value is one per table: use ecs_sched_read, or a "
                                   "second query", (int)i, w->components[id].name);
        }
        if (q->listed) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                                   "query_create: term %d reads '%s' inherited, and the query "
                                   "reads through the hierarchy; one query cannot do both: "
                                   "use ecs_sched_read, or a second query", (int)i,
                                   w->components[id].name);
        }
    }
    return ECS_SCHED_OK;
}

/* Term i, an alternative, joins the chain of the term before it, which is a required term
   read or written on the entity, or another alternative; neither is sparse (a sparse
   component is looked up per entity, and a chain picks per table). */
static ecs_sched_result ecs_sched__chain_term(ecs_sched_world *w, ecs_sched_query *q,
                                             const ecs_sched_query_desc *desc, int32_t i) {
    const ecs_sched_term *term = &desc->terms[i], *before = i > 0 ? &desc->terms[i - 1] : NULL;
    ecs_sched_term_kind kind = before ? before->kind : ECS_SCHED_TERM_DEFAULT;
    if (!before || (kind != ECS_SCHED_TERM_DEFAULT && kind != ECS_SCHED_TERM_READ &&
                    kind != ECS_SCHED_TERM_WRITE && !ecs_sched__term_alternative(kind))) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                               "query_create: term %d ('%s') is an alternative (or), but %s; an "
                               "alternative follows a required term read or written on the "
                               "entity (ecs_sched_read, ecs_sched_write), or another alternative",
                               (int)i, w->components[term->id].name,
                               before ? "the term before it is of another kind"
                                      : "it is the first term");
    }
    if (w->components[term->id].sparse || w->components[before->id].sparse) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                               "query_create: terms %d and %d are alternatives, and '%s' is "
                               "sparse: a chain of alternatives is of table components",
                               (int)i - 1, (int)i,
                               w->components[w->components[term->id].sparse ? term->id
                                                                            : before->id].name);
    }
    if (!ecs_sched__term_alternative(kind)) q->chain_first |= 1u << (i - 1);
    q->chained |= (1u << i) | (1u << (i - 1));
    return ECS_SCHED_OK;
}

/* A query that hands out an entity once per target keeps its own list of rows, which the
   orders of the hierarchy and the lists of sparse terms would each make another way. */
static ecs_sched_result ecs_sched__check_each_target(ecs_sched_world *w, const ecs_sched_query *q) {
    if (q->each_target < 0 || (!q->hierarchical && !q->sparse)) return ECS_SCHED_OK;
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                           "query_create: term %d hands out each target of '%s', and the query "
                           "%s; one query cannot do both: use a second query", (int)q->each_target,
                           w->components[q->terms[q->each_target].id].name,
                           q->sparse ? "has a sparse term" : "reads through the hierarchy");
}

static ecs_sched_result ecs_sched__query_init_terms(ecs_sched_world *w, ecs_sched_query *q,
                                                   const ecs_sched_query_desc *desc) {
    int32_t i, j;
    ecs_sched_result result = ecs_sched__check_term_list(w, desc);
    if (result != ECS_SCHED_OK) return result;
    for (i = 0; i < ECS_SCHED_MAX_TERMS && desc->terms[i].id; i++) {
        const ecs_sched_term *term = &desc->terms[i];
        if (!ecs_sched__component_valid(w, term->id)) {
            return ecs_sched__unknown_component(w, term->id, "query_create");
        }
        if ((unsigned)term->kind > (unsigned)ECS_SCHED_TERM_EACH_KIND) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "query_create: term %d ('%s') has an unknown kind %d", (int)i,
                                   w->components[term->id].name, (int)term->kind);
        }
        if (ecs_sched__term_alternative(term->kind)) {
            result = ecs_sched__chain_term(w, q, desc, i);
            if (result != ECS_SCHED_OK) return result;
        }
        if (ecs_sched__term_filters(term->kind) && !w->components[term->id].tracked) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                                   "query_create: term %d asks for entities whose '%s' was %s, "
                                   "but '%s' is not tracked; register it with .tracked = true "
                                   "(ECS_SCHED_TRACKED_COMPONENT) to keep its change ticks",
                                   (int)i, w->components[term->id].name,
                                   term->kind == ECS_SCHED_TERM_ADDED ? "added" : "changed",
                                   w->components[term->id].name);
        }
        result = ecs_sched__check_term_compiled(w, term, i);
        if (result == ECS_SCHED_OK) result = ecs_sched__check_relational_term(w, term, i);
        if (result == ECS_SCHED_OK && w->components[term->id].sparse &&
            !ecs_sched__term_fixed(term->kind)) {
            result = ecs_sched__check_sparse_term(w, term, i);
            q->sparse = q->ticked = q->listed = true;
            if (ecs_sched__term_filters(term->kind)) q->sparse_filtered = true;
            if (ecs_sched__term_marks(term->kind) && w->components[term->id].tracked) {
                q->sparse_marks = true;
            }
        }
        if (result != ECS_SCHED_OK) return result;
        q->terms[i] = *term;
        if (term->kind == ECS_SCHED_TERM_DEFAULT) q->terms[i].kind = ECS_SCHED_TERM_READ;
        for (j = 0; j < i; j++) {
            if (q->terms[j].id == term->id &&
                !ecs_sched__terms_may_share(&q->terms[j], &q->terms[i])) {
                return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                                       "query_create: component '%s' appears in terms %d and %d; "
                                       "name each component once (write access includes read; "
                                       "only an added or changed filter may name a component "
                                       "another term reads or writes)",
                                       w->components[term->id].name, (int)j, (int)i);
            }
        }
        if (ecs_sched__term_filters(term->kind) && !w->components[term->id].sparse) {
            q->filtered = true;
            q->filter_count++;
        }
        if (ecs_sched__term_filters(term->kind) ||
            (ecs_sched__term_writes(term->kind) && w->components[term->id].tracked)) {
            q->ticked = true;
        }
        if (ecs_sched__term_marks(term->kind) && w->components[term->id].tracked &&
            !w->components[term->id].sparse) {
            q->marks = true;
        }
        if (term->kind == ECS_SCHED_TERM_RELATED) q->related = q->filtered = q->ticked = true;
        if (ecs_sched__term_hierarchical(term->kind)) q->hierarchical = q->listed = q->ticked = true;
        if (term->kind == ECS_SCHED_TERM_INHERITED || ecs_sched__term_fixed(term->kind)) {
            q->inherits = true;   /* hands out shared values */
        }
        if (term->kind == ECS_SCHED_TERM_RESOURCE_WRITE) q->writes_resource = true;
        if (term->kind == ECS_SCHED_TERM_EACH_TARGET || term->kind == ECS_SCHED_TERM_EACH_KIND) {
            if (q->each_target >= 0) {
                return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                                       "query_create: terms %d and %d each ask for every target "
                                       "of a relationship; a query hands out one entity per "
                                       "target of one term: use a second query",
                                       (int)q->each_target, (int)i);
            }
            q->each_target = (int16_t)i;
            q->listed = q->ticked = true;
        }
        ecs_sched__note_term_access(q, i);
    }
    q->term_count = i;
    q->log_term = ecs_sched__log_term_of(q);
    if (q->sparse && q->filtered) q->sparse_filtered = true;   /* its list follows the window */
    for (i = 0; i < q->term_count; i++) {
        if (ecs_sched__term_toggles(q, i)) q->toggled = q->filtered = q->ticked = true;
    }
    result = ecs_sched__check_inherited(w, q);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_hierarchical(w, q);
    return result != ECS_SCHED_OK ? result : ecs_sched__check_each_target(w, q);
}

/* Whether a term names a hidden tag (Disabled, Prefab) other than to leave it out: a query
   that does sees those entities (all of them with a required term, as well as the others
   with an optional one). */
static bool ecs_sched__query_names(const ecs_sched_query *q, ecs_sched_id tag) {
    int32_t i;
    for (i = 0; i < q->term_count; i++) {
        if (q->terms[i].id == tag && q->terms[i].kind != ECS_SCHED_TERM_WITHOUT) return true;
    }
    return false;
}

/* The world's queries, a part of it (registry.h): every new table is offered to each. */
/* Reads a query's text into its terms (query_text.h). */
typedef ecs_sched_result (*ecs_sched__query_text_fn)(ecs_sched_world *w, const char *text,
                                                     ecs_sched_query_desc *desc);

typedef struct ecs_sched__queries {
    ecs_sched_query **items;
    uint32_t count, capacity;
    /* The extension point of queries as text: the parser query_text.h installs at world
       creation, through which a system's .query_text is read (graph.h); NULL in a build
       without it. */
    ecs_sched__query_text_fn from_text;
} ecs_sched__queries;

static ecs_sched__part_key ecs_sched__queries_key;

static ecs_sched__queries *ecs_sched__queries_of(const ecs_sched_world *w) {
    return (ecs_sched__queries *)ecs_sched__part(w, &ecs_sched__queries_key);
}

/* Room for one more query; NULL when out of memory. */
static ecs_sched__queries *ecs_sched__queries_reserve(ecs_sched_world *w) {
    ecs_sched__queries *all = ecs_sched__queries_of(w);
    if (!all) {
        all = (ecs_sched__queries *)ecs_sched__calloc(&w->env, sizeof *all);
        if (!all) return NULL;
        ecs_sched__part_set(w, &ecs_sched__queries_key, all);
    }
    return ECS_SCHED__GROW(&w->env, all->items, &all->capacity, all->count + 1) ? all : NULL;
}

ecs_sched_query *ecs_sched_query_create(ecs_sched_world *w, const ecs_sched_query_desc *desc) {
    ecs_sched__queries *all;
    ecs_sched_query *q;
    uint32_t i;
    ECS_SCHED__CHECK_WORLD(w);
    if (!desc) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT, "query_create: desc is NULL");
        return NULL;
    }
    all = ecs_sched__queries_reserve(w);
    if (!all) {
        ecs_sched__out_of_memory(w, "creating a query");
        return NULL;
    }
    q = (ecs_sched_query *)ecs_sched__calloc(&w->env, sizeof *q);
    if (!q) {
        ecs_sched__out_of_memory(w, "creating a query");
        return NULL;
    }
    q->world = w;
    q->each_target = -1;
    if (ecs_sched__query_init_terms(w, q, desc) != ECS_SCHED_OK) {
        ecs_sched__free(&w->env, q);
        return NULL;
    }
    q->sees_disabled = ecs_sched__query_names(q, w->disabled);
    q->sees_prefabs = ecs_sched__query_names(q, w->prefab);
    q->plain = !q->ticked && !q->inherits;
    for (i = 0; i < w->table_count; i++) {
        if (!ecs_sched__query_matches(q, w->tables[i], NULL)) continue;
        if (!ecs_sched__query_reserve_match(w, q)) {
            ecs_sched__free(&w->env, q->matches);
            ecs_sched__free(&w->env, q->match_ticks);
            ecs_sched__free(&w->env, q);
            ecs_sched__out_of_memory(w, "creating a query");
            return NULL;
        }
        ecs_sched__query_add_match(q, w->tables[i]);
    }
    all->items[all->count++] = q;
    return q;
}

/* The list a listed query keeps (list.h), made empty at its first use, with a block of
   pointers per term whose values are not in the row's own columns (a parent's value, a
   sparse value). NULL when out of memory. */
static ecs_sched__row_list *ecs_sched__list_of(ecs_sched_query *q) {
    ecs_sched__row_list *c;
    int32_t i;
    if (q->list) return q->list;
    c = (ecs_sched__row_list *)ecs_sched__calloc(&q->world->env, sizeof *c);
    if (!c) return NULL;
    c->cascade = -1;
    c->order_term = -1;
    for (i = 0; i < q->term_count; i++) {
        ecs_sched_term_kind kind = q->terms[i].kind;
        c->parent_slot[i] = -1;
        if (ecs_sched__term_on_parent(kind)) c->parent_slot[i] = (int16_t)c->parent_terms++;
        c->sparse_term[i] = q->world->components[q->terms[i].id].sparse != 0;
        if (c->sparse_term[i] && kind != ECS_SCHED_TERM_WITHOUT &&
            q->world->components[q->terms[i].id].size) {
            c->parent_slot[i] = (int16_t)c->parent_terms++;   /* a pointer per row */
        }
        if (kind == ECS_SCHED_TERM_CASCADE) c->cascade = i;
        if (kind == ECS_SCHED_TERM_EACH_TARGET) c->parent_slot[i] = (int16_t)c->parent_terms++;
        if (kind == ECS_SCHED_TERM_EACH_KIND) {   /* the slots, then the kinds */
            c->parent_slot[i] = (int16_t)c->parent_terms;
            c->parent_terms += 2;
        }
    }
    q->list = c;
    return c;
}

void ecs_sched_query_destroy(ecs_sched_query *q) {
    ecs_sched__queries *all;
    ecs_sched_world *w;
    uint32_t i;
    if (!q) return;
    w = q->world;
    all = ecs_sched__queries_of(w);
    for (i = 0; i < all->count; i++) {
        if (all->items[i] == q) {
            all->items[i] = all->items[--all->count];
            break;
        }
    }
    ecs_sched__free(&w->env, q->matches);
    ecs_sched__free(&w->env, q->match_ticks);
    ecs_sched__list_free(&w->env, q->list);
    ecs_sched__free(&w->env, q);
}

/* For table_graph.h and world.h: every new table is offered to every
   query, and the queries go with the world. */
static bool ecs_sched__queries_reserve_match(ecs_sched_world *w) {
    const ecs_sched__queries *all = ecs_sched__queries_of(w);
    uint32_t q;
    for (q = 0; all && q < all->count; q++) {
        if (!ecs_sched__query_reserve_match(w, all->items[q])) return false;
    }
    return true;
}

static void ecs_sched__queries_add_table(ecs_sched_world *w, ecs_sched__table *t) {
    const ecs_sched__queries *all = ecs_sched__queries_of(w);
    uint32_t q;
    for (q = 0; all && q < all->count; q++) ecs_sched__query_add_match(all->items[q], t);
}

static void ecs_sched__queries_free(ecs_sched_world *w) {
    ecs_sched__queries *all = ecs_sched__queries_of(w);
    if (!all) return;
    while (all->count) ecs_sched_query_destroy(all->items[all->count - 1]);
    ecs_sched__free(&w->env, all->items);
    ecs_sched__free(&w->env, all);
    ecs_sched__part_set(w, &ecs_sched__queries_key, NULL);
}

/* Whether every entity `a` matches has a component that `b` excludes. Not one that can be
   toggled: then both queries hand out rows of the same tables (and may mark changes in the
   same change log). */
static bool ecs_sched__query_rules_out(const ecs_sched_query *a, const ecs_sched_query *b) {
    int32_t i, j;
    for (i = 0; i < a->term_count; i++) {
        if (!ecs_sched__term_required_in(a, i) || a->world->components[a->terms[i].id].toggleable) {
            continue;
        }
        for (j = 0; j < b->term_count; j++) {
            if (b->terms[j].kind == ECS_SCHED_TERM_WITHOUT && b->terms[j].id == a->terms[i].id) {
                return true;
            }
        }
    }
    return false;
}

/* Whether two terms' ids name the same data: one id, or the wildcard of a term of every kind
   and any relationship kind. */
static bool ecs_sched__ids_meet(const ecs_sched_world *w, ecs_sched_id a, ecs_sched_id b) {
    if (a == b) return true;
    if (!w->wildcard || (a != w->wildcard && b != w->wildcard)) return false;
    return w->components[a == w->wildcard ? b : a].relation != 0;
}

/* Whether a term touches only the rows its query matches: not one read from the parent, nor
   an inherited one, which reads a base the query may not match. */
static bool ecs_sched__term_stays_on_row(ecs_sched_term_kind kind) {
    return ecs_sched__term_on_self(kind) && kind != ECS_SCHED_TERM_INHERITED;
}

/* Whether two queries touch the same data in conflicting ways, and by which terms (*term_a of
   a, *term_b of b): no entity can match both when one requires what the other excludes;
   otherwise one writes a component the other touches. A query that may not write (a_writes,
   b_writes false: a condition's) counts its written terms as reads. */
static bool ecs_sched__queries_clash(const ecs_sched_query *a, bool a_writes,
                                     const ecs_sched_query *b, bool b_writes, int32_t *term_a,
                                     int32_t *term_b) {
    int32_t i, j;
    /* entities the two cannot share keep their data apart, but a term read from the parent
       or inherited from a base reaches entities its query does not match */
    bool disjoint = ecs_sched__query_rules_out(a, b) || ecs_sched__query_rules_out(b, a);
    for (i = 0; i < a->term_count; i++) {
        ecs_sched_term_kind ka = a->terms[i].kind;
        /* (a resource term's access is its system's: see graph.h) */
        if (ka == ECS_SCHED_TERM_WITHOUT || ecs_sched__term_on_resource(ka)) continue;
        for (j = 0; j < b->term_count; j++) {
            ecs_sched_term_kind kb = b->terms[j].kind;
            if (kb == ECS_SCHED_TERM_WITHOUT || ecs_sched__term_on_resource(kb) ||
                !ecs_sched__ids_meet(a->world, a->terms[i].id, b->terms[j].id)) {
                continue;
            }
            if (disjoint && ecs_sched__term_stays_on_row(ka) && ecs_sched__term_stays_on_row(kb)) {
                continue;
            }
            if ((a_writes && ecs_sched__term_writes(ka)) || (b_writes && ecs_sched__term_writes(kb))) {
                *term_a = i;
                *term_b = j;
                return true;
            }
        }
    }
    return false;
}

ecs_sched_access ecs_sched_query_access(const ecs_sched_query *q) {
    ecs_sched_access access;
    ECS_SCHED_ASSERT(q != NULL);
    access.reads = q->reads;
    access.read_count = q->read_count;
    access.writes = q->writes;
    access.write_count = q->write_count;
    return access;
}

/* The fields are filled by each ecs_sched_iter_next; they are not zeroed here, which costs
   more than the rest of a small query's iteration. */
/* An iterator at the start of q (NULL: one that hands out nothing). */
/* A query that writes a resource changes it, as ecs_sched_resource_get_mut does, when an
   iterator is made over it: systems that write a resource do not run beside its readers,
   so no two threads mark one at once. */
ECS_SCHED__NOINLINE static void ecs_sched__mark_resources_written(const ecs_sched_query *q) {
    ecs_sched_world *w = q->world;
    int32_t i;
    if (!w->ticks_on) return;
    for (i = 0; i < q->term_count; i++) {
        if (q->terms[i].kind != ECS_SCHED_TERM_RESOURCE_WRITE) continue;
        w->resource_stamps[q->terms[i].id].changed = ecs_sched__tick_now(w);
    }
}

static inline ecs_sched_iter ecs_sched__iter_of(const ecs_sched_query *q) {
    ecs_sched_iter it;
    if (q && q->writes_resource) ecs_sched__mark_resources_written(q);
    it.count = 0;
    it.entities = NULL;
    it.shared = 0;
    it.query_ = q;
    it.next_ = 0;
    it.row_ = -1;   /* a ticked query takes its window, and sets the rest, at its first next */
    return it;
}

ecs_sched_iter ecs_sched_query_iter(const ecs_sched_query *q) {
    ECS_SCHED_ASSERT(q != NULL);
    return ecs_sched__iter_of(q);
}

/* The plain iteration, of a query that looks at no ticks and has no inherited terms: the
   next matched table with rows, whole, its own columns as the fields (iter.h hands out the
   rows of the other queries). */
static inline bool ecs_sched__iter_next_plain(ecs_sched_iter *it) {
    const ecs_sched_query *q = it->query_;
    while ((uint32_t)it->next_ < q->match_count) {
        const ecs_sched__match *m = &q->matches[it->next_++];
        const ecs_sched__table *t = m->table;
        int32_t i;
        if (t->count == 0) continue;
        it->count = t->count;
        it->entities = t->entities;
        for (i = 0; i < q->term_count; i++) {
            it->fields[i] = m->column[i] >= 0 ? t->columns[m->column[i]].data : NULL;
        }
        return true;
    }
    it->count = 0;
    return false;
}

/* A run of `count` rows of the match's table from row `first`: its entities, and the fields
   from that row on in the table's own columns (NULL for a term without one). */
static inline void ecs_sched__iter_run(ecs_sched_iter *it, const ecs_sched_query *q,
                                       const ecs_sched__match *m, int32_t first, int32_t count) {
    const ecs_sched__table *t = m->table;
    int32_t i;
    it->count = count;
    it->entities = t->entities + first;
    for (i = 0; i < q->term_count; i++) {
        const ecs_sched__column *col = m->column[i] >= 0 ? &t->columns[m->column[i]] : NULL;
        it->fields[i] = col ? col->data + (size_t)first * col->size : NULL;
    }
}

static ecs_sched_result ecs_sched__check_queries(ecs_sched_world *w) {
    uint32_t qi, i, m;
    const ecs_sched__queries *all = ecs_sched__queries_of(w);
    for (qi = 0; all && qi < all->count; qi++) {
        const ecs_sched_query *q = all->items[qi];
        uint32_t expected = 0;
        if (q->plain != (!q->ticked && !q->inherits)) {
            return ecs_sched__inconsistent(w, "query counted plain", qi, q->plain);
        }
        for (i = 0; i < w->table_count; i++) {
            ecs_sched__match want;
            uint32_t found = 0;
            bool matches = ecs_sched__query_matches(q, w->tables[i], &want);
            for (m = 0; m < q->match_count; m++) {
                if (q->matches[m].table != w->tables[i]) continue;
                found++;
                if (memcmp(q->matches[m].column, want.column,
                           (size_t)q->term_count * sizeof want.column[0]) != 0) {
                    return ecs_sched__inconsistent(w, "query cache has wrong columns", qi, i);
                }
            }
            if (found != (matches ? 1u : 0u)) {
                return ecs_sched__inconsistent(w, "query cache disagrees with tables", qi, i);
            }
            expected += matches;
        }
        if (expected != q->match_count) {
            return ecs_sched__inconsistent(w, "query cache size", qi, q->match_count);
        }
    }
    return ECS_SCHED_OK;
}
