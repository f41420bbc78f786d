/* relation_store: how relationships are kept: kinds, a source's targets (its slots) and
   a target's sources. relation.h relates and unrelates through them. */
#pragma once
#include "observer.h"
#include "entity_access.h"
#include "component.h"

/*@@ implementation @@*/
/* relation: relationships between entities.

   A relationship kind is a component whose value starts with the target: an entity keeps its
   first target of a kind in its table like any value, and queries read it in place, so a
   world of many parents with few children each keeps one table per set of components, not
   one per parent (measured: iterating 100k children of 100k parents took 8.8 times as long
   with one table per parent as with the target in a column, which iterates like a flat
   world). What the column cannot hold is kept beside it, by entity index: a source's further
   targets of a kind that is not exclusive, and each target's list of sources, in the order
   they were related (a parent's children). */

typedef struct ecs_sched__sources {
    ecs_sched_entity *items;
    uint32_t count;
    uint32_t capacity;
} ecs_sched__sources;

/* A source's targets after the first, as slots like the column's. */
typedef struct ecs_sched__extra {
    unsigned char *slots;
    uint32_t count;
    uint32_t capacity;
} ecs_sched__extra;

/* What a module built on a kind does as its relationships are made and taken away: the
   extension point of this module (docs/architecture.md). Names follow ChildOf (name.h), and
   inheritance IsA (inherit.h); each hook may be NULL. */
typedef struct ecs_sched__kind_hooks {
    /* Before `source` takes `target`, or (target 0) before it loses one. Anything but OK
       refuses the change, with nothing changed. */
    ecs_sched_result (*may_relate)(ecs_sched_world *w, ecs_sched_entity source,
                                   ecs_sched_entity target, const char *operation);
    /* The table an entity of table `from` moves to as it gains `target` (default: one step
       along the kind); NULL when out of memory. */
    ecs_sched__table *(*table_with)(ecs_sched_world *w, ecs_sched__table *from,
                                    ecs_sched_entity target);
    /* After `source` took `target`: anything but OK undoes the relationship. */
    ecs_sched_result (*related)(ecs_sched_world *w, ecs_sched_entity source, ecs_sched_entity target);
    /* Before `source` loses `target` (also to undo a relationship half made); false when out of
       memory. */
    bool (*unrelating)(ecs_sched_world *w, ecs_sched_entity source, ecs_sched_entity target);
    /* After `source` gained or lost a target. */
    void (*moved)(ecs_sched_world *w, ecs_sched_entity source);
} ecs_sched__kind_hooks;

typedef struct ecs_sched__kind {
    ecs_sched__kind_hooks hooks;
    ecs_sched__sources *sources;    /* by target index */
    uint32_t source_capacity;
    ecs_sched__extra *extra;        /* by source index */
    uint32_t extra_capacity;
    uint32_t extra_count;           /* sources with further targets */
    uint32_t payload_size;
    uint64_t pairs;                 /* (source, target) pairs of this kind */
} ecs_sched__kind;

typedef struct ecs_sched__links ecs_sched__links;

/* The part of the world this module keeps (registry.h). */
static ecs_sched__part_key ecs_sched__links_key;

struct ecs_sched__links {
    ecs_sched__kind *kinds;         /* by component id, below kind_capacity */
    uint32_t kind_capacity;
    ecs_sched_id *kind_ids;         /* the kinds, in the order they were registered */
    uint32_t kind_count;
    uint32_t kind_id_capacity;
    uint64_t pairs;                 /* (source, target) pairs related */
    uint64_t *targets;              /* by entity index, a bit: it may have sources (a despawn
                                       looks no further for most entities) */
    uint32_t target_words;
    uint32_t *marks;                /* a despawn's entities, by index: the stamp of it */
    uint32_t mark_capacity;
    uint32_t mark_stamp;
    ecs_sched_entity *doomed;       /* a despawn's entities, targets before sources */
    ecs_sched_id *doomed_via;       /* the kind each was taken along by (0: the first) */
    uint32_t *order;                /* a tree's indices, a bit each (see despawn_tree) */
    uint32_t doomed_capacity;
    uint32_t via_capacity;
    uint32_t order_capacity;
};

static inline ecs_sched__links *ecs_sched__links_of(const ecs_sched_world *w) {
    return (ecs_sched__links *)ecs_sched__part(w, &ecs_sched__links_key);
}

/* ---- kinds ---- */

static inline size_t ecs_sched__payload_offset(const ecs_sched__component *c) {
    return c->alignment > sizeof(ecs_sched_entity) ? c->alignment : sizeof(ecs_sched_entity);
}

static inline ecs_sched__kind *ecs_sched__kind_of(const ecs_sched_world *w, ecs_sched_id kind) {
    return &ecs_sched__links_of(w)->kinds[kind];
}

static bool ecs_sched__is_kind(const ecs_sched_world *w, ecs_sched_id id) {
    return ecs_sched__component_valid(w, id) && w->components[id].relation != 0;
}

/* ---- slots: a target and its payload ---- */

/* The entity's first slot of the kind, or NULL when it has none. */
static unsigned char *ecs_sched__rel_first_slot(const ecs_sched_world *w, ecs_sched_entity source,
                                            ecs_sched_id kind) {
    const ecs_sched__record *r = &w->records[ECS_SCHED_ENTITY_INDEX(source)];
    const ecs_sched__table *t = w->tables[r->table];
    int32_t column = ecs_sched__column_find(t, kind);
    return column < 0 ? NULL : (unsigned char *)ecs_sched__cell(t, column, r->row);
}

static inline ecs_sched_entity ecs_sched__rel_slot_target(const unsigned char *slot) {
    ecs_sched_entity target;
    memcpy(&target, slot, sizeof target);
    return target;
}

static ecs_sched__extra *ecs_sched__extra_of(const ecs_sched_world *w, ecs_sched_id kind,
                                             ecs_sched_entity source) {
    const ecs_sched__kind *k = ecs_sched__kind_of(w, kind);
    uint32_t index = ECS_SCHED_ENTITY_INDEX(source);
    return k->extra_count && index < k->extra_capacity ? &k->extra[index] : NULL;
}

/* The slot of (source, kind, target), or NULL. */
static unsigned char *ecs_sched__rel_slot_of(const ecs_sched_world *w, ecs_sched_entity source,
                                         ecs_sched_id kind, ecs_sched_entity target) {
    unsigned char *slot = ecs_sched__rel_first_slot(w, source, kind);
    const ecs_sched__extra *x;
    uint32_t i;
    if (!slot || ecs_sched__rel_slot_target(slot) == target) return slot;
    x = ecs_sched__extra_of(w, kind, source);
    for (i = 0; x && i < x->count; i++) {
        unsigned char *s = x->slots + (size_t)i * w->components[kind].size;
        if (ecs_sched__rel_slot_target(s) == target) return s;
    }
    return NULL;
}

static void ecs_sched__rel_slot_write(const ecs_sched_world *w, ecs_sched_id kind, unsigned char *slot,
                                  ecs_sched_entity target, const void *payload, bool fresh) {
    const ecs_sched__component *c = &w->components[kind];
    size_t offset = ecs_sched__payload_offset(c);
    if (fresh) memset(slot, 0, c->size);
    memcpy(slot, &target, sizeof target);
    if (payload) memcpy(slot + offset, payload, ecs_sched__kind_of(w, kind)->payload_size);
}

/* ---- the sources of a target ---- */

static ecs_sched__sources *ecs_sched__sources_of(const ecs_sched_world *w, ecs_sched_id kind,
                                                 ecs_sched_entity target) {
    const ecs_sched__kind *k = ecs_sched__kind_of(w, kind);
    uint32_t index = ECS_SCHED_ENTITY_INDEX(target);
    return index < k->source_capacity && k->sources[index].count ? &k->sources[index] : NULL;
}

/* Room for one more source of target (and the list itself); false when out of memory. */
static bool ecs_sched__sources_reserve(ecs_sched_world *w, ecs_sched_id kind,
                                       ecs_sched_entity target, uint32_t extra) {
    ecs_sched__kind *k = ecs_sched__kind_of(w, kind);
    uint32_t index = ECS_SCHED_ENTITY_INDEX(target), had = k->source_capacity;
    ecs_sched__sources *s;
    if (index >= had) {
        if (!ECS_SCHED__GROW(&w->env, k->sources, &k->source_capacity, index + 1)) return false;
        memset(k->sources + had, 0, (k->source_capacity - had) * sizeof *k->sources);
    }
    if (index / 64u >= ecs_sched__links_of(w)->target_words) {
        ecs_sched__links *r = ecs_sched__links_of(w);
        uint32_t words = r->target_words;
        if (!ECS_SCHED__GROW(&w->env, r->targets, &words, index / 64u + 1u)) return false;
        memset(r->targets + r->target_words, 0, (words - r->target_words) * sizeof *r->targets);
        r->target_words = words;
    }
    s = &k->sources[index];
    return ECS_SCHED__GROW(&w->env, s->items, &s->capacity, s->count + extra);
}

/* Whether the entity may have sources of some kind (the bit is set by its first source and
   cleared when it is despawned). */
static inline bool ecs_sched__may_be_target(const ecs_sched__links *r, ecs_sched_entity e) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    return index / 64u < r->target_words && ((r->targets[index / 64u] >> (index % 64u)) & 1u);
}

/* Inserts source at `at` (count: at the end) of a list with room. */
static void ecs_sched__sources_insert(ecs_sched__sources *s, ecs_sched_entity source, uint32_t at) {
    if (at > s->count) at = s->count;
    memmove(s->items + at + 1, s->items + at, (s->count - at) * sizeof *s->items);
    s->items[at] = source;
    s->count++;
}

/* Takes source out of the list, keeping the others' order. Searched from the end: a tree
   despawned leaves first takes each list's sources from the back. */
static bool ecs_sched__sources_drop(ecs_sched__sources *s, ecs_sched_entity source) {
    uint32_t i = s->count;
    while (i > 0 && s->items[i - 1] != source) i--;
    if (i == 0) return false;
    memmove(s->items + i - 1, s->items + i, (s->count - i) * sizeof *s->items);
    s->count--;
    return true;
}

static void ecs_sched__link(ecs_sched_world *w, ecs_sched_id kind, ecs_sched_entity source,
                            ecs_sched_entity target, uint32_t at) {
    ecs_sched__sources_insert(&ecs_sched__kind_of(w, kind)->sources[ECS_SCHED_ENTITY_INDEX(target)],
                              source, at);
    ecs_sched__links_of(w)->pairs++;
    ecs_sched__links_of(w)->targets[ECS_SCHED_ENTITY_INDEX(target) / 64u] |=
        (uint64_t)1 << (ECS_SCHED_ENTITY_INDEX(target) % 64u);
    ecs_sched__kind_of(w, kind)->pairs++;
    w->linked = true;
    w->rows_version++;
}

/* (A target despawned before its source dropped its list whole: nothing is left to drop.) */
static void ecs_sched__unlink(ecs_sched_world *w, ecs_sched_id kind, ecs_sched_entity source,
                              ecs_sched_entity target) {
    ecs_sched__sources *s = ecs_sched__sources_of(w, kind, target);
    w->rows_version++;
    if (!s || !ecs_sched__sources_drop(s, source)) return;
    ecs_sched__links_of(w)->pairs--;
    ecs_sched__kind_of(w, kind)->pairs--;
}
