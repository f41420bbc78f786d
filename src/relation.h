/* relation: relationships between entities: kinds, targets and the sources of a target. */
#pragma once
#include "observer.h"
#include "entity_access.h"
#include "component.h"
#include "relation_store.h"

/* What despawning a target does to the entities related to it. */
typedef enum ecs_sched_target_despawn {
    ECS_SCHED_TARGET_DEFAULT = 0,        /* REMOVE, except for ChildOf: DESPAWN_SOURCES */
    ECS_SCHED_TARGET_REMOVE,             /* the sources lose the relationship */
    ECS_SCHED_TARGET_DESPAWN_SOURCES,    /* the sources are despawned too, and theirs in turn */
    ECS_SCHED_TARGET_REFUSE              /* the despawn fails while sources remain */
} ecs_sched_target_despawn;

typedef struct ecs_sched_relation_desc {
    const char *name;                    /* required, unique among components */
    size_t payload_size;                 /* 0: the relationship carries no data */
    size_t payload_alignment;            /* 0: as for components */
    bool exclusive;                      /* at most one target per source (ChildOf is) */
    bool acyclic;                        /* relating an entity to its own descendant is
                                            refused (ChildOf is); needed to cascade */
    ecs_sched_target_despawn on_target_despawn;
} ecs_sched_relation_desc;

/* Registers a relationship kind, a component whose value is the target (an
   ecs_sched_entity) followed by the payload: struct { ecs_sched_entity target; P payload; }.
   Registering a name again with the same properties returns the existing id. 0 on failure. */
ECS_SCHED_API ecs_sched_id ecs_sched_relation_register(ecs_sched_world *world,
                                                       const ecs_sched_relation_desc *desc);
ECS_SCHED_API bool ecs_sched_is_relation(const ecs_sched_world *world, ecs_sched_id id);
/* ChildOf ("ecs_sched.ChildOf"), registered by every world: exclusive, acyclic, and despawning
   a parent despawns its children (see HIERARCHY). */
ECS_SCHED_API ecs_sched_id ecs_sched_child_of(const ecs_sched_world *world);
/* Relates source to target with kind `kind`, with a copy of `payload` (NULL: zeroed for a new
   relationship, unchanged for an existing one). For an exclusive kind this replaces the
   source's target. A structural change: from a system, record it (ecs_sched_commands_relate). */
ECS_SCHED_API ecs_sched_result ecs_sched_relate(ecs_sched_world *world, ecs_sched_entity source,
                                                ecs_sched_id kind, ecs_sched_entity target,
                                                const void *payload);
/* Removes one relationship (nothing to do when there is none). ecs_sched_remove(world,
   source, kind) removes every target of the kind. */
ECS_SCHED_API ecs_sched_result ecs_sched_unrelate(ecs_sched_world *world, ecs_sched_entity source,
                                                  ecs_sched_id kind, ecs_sched_entity target);
/* Whether source relates to target with the kind (target ECS_SCHED_NULL_ENTITY: to any). */
ECS_SCHED_API bool ecs_sched_has_relation(const ecs_sched_world *world, ecs_sched_entity source,
                                          ecs_sched_id kind, ecs_sched_entity target);
ECS_SCHED_API int32_t ecs_sched_target_count(const ecs_sched_world *world,
                                             ecs_sched_entity source, ecs_sched_id kind);
/* The index-th target (0 .. count - 1), or ECS_SCHED_NULL_ENTITY. The first is the one a
   query's field holds; the order of the others changes when one is removed. */
ECS_SCHED_API ecs_sched_entity ecs_sched_target(const ecs_sched_world *world,
                                                ecs_sched_entity source, ecs_sched_id kind,
                                                int32_t index);
/* The payload of one relationship, or NULL: a relationship the source does not have is a
   miss, not recorded (see ERRORS); a stale source, a kind that is none or has no payload is a
   failure. */
ECS_SCHED_API void *ecs_sched_relation_payload(ecs_sched_world *world, ecs_sched_entity source,
                                               ecs_sched_id kind, ecs_sched_entity target);
/* The sources that relate to target with the kind, in the order they did (for ChildOf, the
   children in their order); *count receives how many. Valid until the next structural change.
   An entity that is no target gives NULL and 0. */
ECS_SCHED_API const ecs_sched_entity *ecs_sched_sources(const ecs_sched_world *world,
                                                        ecs_sched_id kind,
                                                        ecs_sched_entity target, int32_t *count);
/* The same, recorded in a command buffer; the payload is copied now. A relate whose target
   is dead when the buffer is applied is skipped, like a command on a dead entity. */
ECS_SCHED_API ecs_sched_result ecs_sched_commands_relate(ecs_sched_commands *commands,
                                                         ecs_sched_entity source,
                                                         ecs_sched_id kind,
                                                         ecs_sched_entity target,
                                                         const void *payload);
ECS_SCHED_API ecs_sched_result ecs_sched_commands_unrelate(ecs_sched_commands *commands,
                                                           ecs_sched_entity source,
                                                           ecs_sched_id kind,
                                                           ecs_sched_entity target);

/* "*": the id of a term of every kind (ecs_sched_each_kind), registered on first use (a tag,
   never added to an entity). */
ECS_SCHED_API ecs_sched_id ecs_sched_wildcard(ecs_sched_world *world);
/* The kind of the relationship a term of every kind hands out at `row`. */
ECS_SCHED_API ecs_sched_id ecs_sched_field_kind(const ecs_sched_iter *it, int32_t index,
                                                int32_t row);
/* The payload of the relationship an each-target or each-kind term's field hands out at
   `row` (NULL for a kind without a payload). */
ECS_SCHED_API const void *ecs_sched_field_payload(const ecs_sched_iter *it, int32_t index,
                                                  int32_t row);

/*@@ implementation @@*/
/* relation: relating and unrelating entities, the rules of each kind, and what a despawn
   does to the entities related to it (how the links are kept: relation_store.h). */

static ecs_sched_target_despawn ecs_sched__kind_policy(const ecs_sched_world *w, ecs_sched_id kind) {
    return (ecs_sched_target_despawn)((w->components[kind].relation >> ECS_SCHED__KIND_POLICY_SHIFT) & 3u);
}

static uint8_t ecs_sched__relation_flags(const ecs_sched_relation_desc *d, bool child_of) {
    ecs_sched_target_despawn policy = d->on_target_despawn;
    if (policy == ECS_SCHED_TARGET_DEFAULT) {
        policy = child_of ? ECS_SCHED_TARGET_DESPAWN_SOURCES : ECS_SCHED_TARGET_REMOVE;
    }
    return (uint8_t)(ECS_SCHED__KIND_RELATION | (d->exclusive ? ECS_SCHED__KIND_EXCLUSIVE : 0u) |
                     (d->acyclic ? ECS_SCHED__KIND_ACYCLIC : 0u) |
                     ((unsigned)policy << ECS_SCHED__KIND_POLICY_SHIFT));
}

static ecs_sched_result ecs_sched__relation_desc_check(ecs_sched_world *w,
                                                      const ecs_sched_relation_desc *d) {
    if (!d || !d->name || !d->name[0]) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "relation_register: a relationship kind needs a name");
    }
    if ((unsigned)d->on_target_despawn > (unsigned)ECS_SCHED_TARGET_REFUSE) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "relation_register('%s'): on_target_despawn %d is not one of "
                               "ECS_SCHED_TARGET_DEFAULT, _REMOVE, _DESPAWN_SOURCES or _REFUSE",
                               d->name, (int)d->on_target_despawn);
    }
    if (d->payload_alignment & (d->payload_alignment - 1u) ||
        d->payload_alignment > ECS_SCHED_MAX_ALIGNMENT) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "relation_register('%s'): payload alignment %zu is not a power of "
                               "two up to %d", d->name, d->payload_alignment,
                               (int)ECS_SCHED_MAX_ALIGNMENT);
    }
    return ECS_SCHED_OK;
}

/* The core's hooks this module installs (see registry.h): despawning in a linked world, and
   removing a relationship kind. */
static ecs_sched_result ecs_sched__despawn_related(ecs_sched_world *w, ecs_sched_entity e);
static ecs_sched_result ecs_sched__remove_relation(ecs_sched_world *w, ecs_sched_entity source,
                                                   ecs_sched_id kind);

/* The world's relationships, made with its first kind. */
static bool ecs_sched__relations_reserve(ecs_sched_world *w, ecs_sched_id kind) {
    ecs_sched__links *r = ecs_sched__links_of(w);
    uint32_t had;
    if (!r) {
        r = (ecs_sched__links *)ecs_sched__calloc(&w->env, sizeof *r);
        if (!r) return false;
        ecs_sched__part_set(w, &ecs_sched__links_key, r);
        w->hooks.despawn_linked = ecs_sched__despawn_related;
        w->hooks.remove_kind = ecs_sched__remove_relation;
    }
    if (!ECS_SCHED__GROW(&w->env, r->kind_ids, &r->kind_id_capacity, r->kind_count + 1)) {
        return false;
    }
    had = r->kind_capacity;
    if (kind < had) return true;
    if (!ECS_SCHED__GROW(&w->env, r->kinds, &r->kind_capacity, kind + 1)) return false;
    memset(r->kinds + had, 0, (r->kind_capacity - had) * sizeof *r->kinds);
    return true;
}

ecs_sched_id ecs_sched_relation_register(ecs_sched_world *w, const ecs_sched_relation_desc *d) {
    ecs_sched_component_desc cd;
    size_t align, offset;
    ecs_sched_id id;
    uint8_t flags;
    ECS_SCHED__CHECK_WORLD(w);
    if (ecs_sched__relation_desc_check(w, d) != ECS_SCHED_OK) return 0;
    flags = ecs_sched__relation_flags(d, strcmp(d->name, ECS_SCHED__CHILD_OF_NAME) == 0);
    align = d->payload_alignment ? d->payload_alignment : ecs_sched__default_alignment(d->payload_size);
    if (align < ECS_SCHED_ALIGNOF(ecs_sched_entity)) align = ECS_SCHED_ALIGNOF(ecs_sched_entity);
    offset = align > sizeof(ecs_sched_entity) ? align : sizeof(ecs_sched_entity);
    id = ecs_sched_component_lookup(w, d->name);
    if (id && (w->components[id].relation != flags ||
               (id < ecs_sched__links_of(w)->kind_capacity &&
                ecs_sched__links_of(w)->kinds[id].payload_size != d->payload_size))) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_COMPONENT_MISMATCH,
                        "relation_register: '%s' is registered already, %s; register each kind "
                        "once, with one set of properties", d->name,
                        w->components[id].relation ? "as a relationship with other properties"
                                                   : "as a component");
        return 0;
    }
    memset(&cd, 0, sizeof cd);
    cd.name = d->name;
    cd.size = (offset + d->payload_size + align - 1u) & ~(align - 1u);
    cd.alignment = align;
    if (!ecs_sched__relations_reserve(w, w->component_count)) {
        ecs_sched__out_of_memory(w, "registering a relationship kind");
        return 0;
    }
    id = ecs_sched_component_register(w, &cd);
    if (!id) return 0;
    if (!w->components[id].relation) ecs_sched__links_of(w)->kind_ids[ecs_sched__links_of(w)->kind_count++] = id;
    w->components[id].relation = flags;
    ecs_sched__links_of(w)->kinds[id].payload_size = (uint32_t)d->payload_size;
    return id;
}

bool ecs_sched_is_relation(const ecs_sched_world *w, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__is_kind(w, id);
}

ecs_sched_id ecs_sched_child_of(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return w->child_of;
}

/* For world.h: ChildOf is registered with the world. */
static ecs_sched_id ecs_sched__register_child_of(ecs_sched_world *w) {
    ecs_sched_relation_desc d;
    memset(&d, 0, sizeof d);
    d.name = ECS_SCHED__CHILD_OF_NAME;
    d.exclusive = true;
    d.acyclic = true;
    return ecs_sched_relation_register(w, &d);
}

/* ---- checks ---- */

static ecs_sched_result ecs_sched__not_a_kind(ecs_sched_world *w, ecs_sched_id kind,
                                              const char *operation) {
    if (!ecs_sched__component_valid(w, kind)) return ecs_sched__unknown_component(w, kind, operation);
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "%s: '%s' is a component, not a relationship kind; register kinds "
                           "with ecs_sched_relation_register", operation,
                           w->components[kind].name);
}

/* Refuses relating source to target along an acyclic kind when target is source or one of
   its descendants; the message gives the path. */
/* Whether `from` reaches `to` along any of its targets of kind, theirs in turn. */
static bool ecs_sched__reaches(const ecs_sched_world *w, ecs_sched_entity from, ecs_sched_id kind,
                               ecs_sched_entity to) {
    int32_t i, n = ecs_sched_target_count(w, from, kind);
    for (i = 0; i < n; i++) {
        ecs_sched_entity next = ecs_sched_target(w, from, kind, i);
        if (next == to || ecs_sched__reaches(w, next, kind, to)) return true;
    }
    return false;
}

/* The same check for a kind with several targets per source (IsA): any path counts. */
static ecs_sched_result ecs_sched__check_acyclic_any(ecs_sched_world *w, ecs_sched_entity source,
                                                     ecs_sched_id kind, ecs_sched_entity target,
                                                     const char *operation) {
    if (target != source && !ecs_sched__reaches(w, target, kind, source)) return ECS_SCHED_OK;
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_RELATION_CYCLE,
                           "%s: relating %s to %s with '%s' would make a cycle: %s %s, and "
                           "'%s' is acyclic", operation, ecs_sched__entity_label(w, source).text,
                           ecs_sched__entity_label(w, target).text, w->components[kind].name,
                           ecs_sched__entity_label(w, target).text,
                           target == source ? "is the same entity"
                                            : "already reaches it through its own targets",
                           w->components[kind].name);
}

static ecs_sched_result ecs_sched__check_acyclic(ecs_sched_world *w, ecs_sched_entity source,
                                                 ecs_sched_id kind, ecs_sched_entity target,
                                                 const char *operation) {
    char path[ECS_SCHED__ERROR_CAPACITY];
    ecs_sched_entity at = target;
    size_t used = 0;
    int32_t steps = 0;
    if (!(w->components[kind].relation & ECS_SCHED__KIND_EXCLUSIVE)) {
        return ecs_sched__check_acyclic_any(w, source, kind, target, operation);
    }
    while (at != source) {
        const unsigned char *slot = ecs_sched__rel_first_slot(w, at, kind);
        if (!slot) return ECS_SCHED_OK;
        at = ecs_sched__rel_slot_target(slot);
        steps++;
    }
    /* the path from source down to target: walk up from target, write in reverse */
    path[0] = '\0';
    at = target;
    while (steps-- >= 0 && used < sizeof path) {
        ecs_sched__label l = ecs_sched__entity_label(w, at);
        int n = snprintf(path + used, sizeof path - used, "%s%s", used ? " -> " : "", l.text);
        if (n < 0) break;
        used += (size_t)n;
        if (at == source) break;
        at = ecs_sched__rel_slot_target(ecs_sched__rel_first_slot(w, at, kind));
    }
    if (target == source && kind == w->child_of) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_RELATION_CYCLE,
                               "%s: %s cannot be its own parent (a cycle)", operation,
                               ecs_sched__entity_label(w, source).text);
    }
    if (target == source) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_RELATION_CYCLE,
                               "%s: relating %s to itself with '%s' would make a cycle, and "
                               "'%s' is acyclic", operation, ecs_sched__entity_label(w, source).text,
                               w->components[kind].name, w->components[kind].name);
    }
    if (kind == w->child_of) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_RELATION_CYCLE,
                               "%s: %s cannot become a child of %s, which is below it already "
                               "(%s: each one a child of the next); that would make a cycle. "
                               "Move %s elsewhere first, or choose another parent", operation,
                               ecs_sched__entity_label(w, source).text,
                               ecs_sched__entity_label(w, target).text, path,
                               ecs_sched__entity_label(w, target).text);
    }
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_RELATION_CYCLE,
                           "%s: relating %s to %s with '%s' would make a cycle: %s already "
                           "reaches %s through it (%s), and '%s' is acyclic; relate them the "
                           "other way, or detach one first", operation,
                           ecs_sched__entity_label(w, source).text,
                           ecs_sched__entity_label(w, target).text, w->components[kind].name,
                           ecs_sched__entity_label(w, target).text,
                           ecs_sched__entity_label(w, source).text, path, w->components[kind].name);
}

/* No entity is its own target, whatever the kind (as in Bevy): a relationship links two
   entities. Acyclic kinds say so as a cycle, with their own words. */
static ecs_sched_result ecs_sched__self_relation(ecs_sched_world *w, ecs_sched_entity source,
                                                 ecs_sched_id kind, const char *operation) {
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_RELATION_CYCLE,
                           "%s: %s cannot be related to itself with '%s': no entity is its own "
                           "target, whatever the kind; relate it to another entity", operation,
                           ecs_sched__entity_label(w, source).text, w->components[kind].name);
}

static ecs_sched_result ecs_sched__relate_check(ecs_sched_world *w, ecs_sched_entity source,
                                                ecs_sched_id kind, ecs_sched_entity target,
                                                const char *operation) {
    if (!ecs_sched__is_live_record(w, source)) return ecs_sched__stale(w, source, operation);
    if (!ecs_sched__is_kind(w, kind)) return ecs_sched__not_a_kind(w, kind, operation);
    if (!ecs_sched__is_live_record(w, target)) {
        char what[ECS_SCHED__ERROR_CAPACITY];
        snprintf(what, sizeof what, "%s (the target of '%s' for %s)", operation,
                 w->components[kind].name, ecs_sched__entity_label(w, source).text);
        return ecs_sched__stale(w, target, what);
    }
    if (w->components[kind].relation & ECS_SCHED__KIND_ACYCLIC) {
        return ecs_sched__check_acyclic(w, source, kind, target, operation);
    }
    return source == target ? ecs_sched__self_relation(w, source, kind, operation) : ECS_SCHED_OK;
}

/* ---- relating ---- */

static void ecs_sched__observe_relation(ecs_sched_world *w, ecs_sched_observer_event event,
                                        ecs_sched_entity source, ecs_sched_id kind,
                                        ecs_sched_entity target) {
    if (w->observed && ecs_sched__watched(w, kind, event)) {
        ecs_sched__observe_target(w, event, source, kind, target);
    }
}

/* The entity gains the kind's column (and for IsA the base's mark, inherit.h): its first
   slot, raw. NULL when out of memory. */
static unsigned char *ecs_sched__gain_kind(ecs_sched_world *w, ecs_sched_entity source,
                                           ecs_sched_id kind, ecs_sched_entity target) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(source);
    ecs_sched__table *src = w->tables[w->records[index].table];
    const ecs_sched__kind_hooks *h = &ecs_sched__kind_of(w, kind)->hooks;
    ecs_sched__table *dst = h->table_with ? h->table_with(w, src, target)
                                          : ecs_sched__table_step(w, src, kind, false);
    if (!dst || !ecs_sched__move_entity(w, index, dst)) return NULL;
    return ecs_sched__rel_first_slot(w, source, kind);
}

/* A further target of a kind that is not exclusive; false when out of memory. */
static bool ecs_sched__extra_add(ecs_sched_world *w, ecs_sched_entity source, ecs_sched_id kind,
                                 ecs_sched_entity target, const void *payload) {
    ecs_sched__kind *k = ecs_sched__kind_of(w, kind);
    uint32_t index = ECS_SCHED_ENTITY_INDEX(source), had = k->extra_capacity, size;
    ecs_sched__extra *x;
    size_t bytes;
    if (index >= had) {
        if (!ECS_SCHED__GROW(&w->env, k->extra, &k->extra_capacity, index + 1)) return false;
        memset(k->extra + had, 0, (k->extra_capacity - had) * sizeof *k->extra);
    }
    x = &k->extra[index];
    size = w->components[kind].size;
    if (x->count == x->capacity) {
        uint32_t capacity = x->capacity ? x->capacity * 2 : 2;
        unsigned char *slots;
        bytes = (size_t)capacity * size;
        slots = (unsigned char *)ecs_sched__realloc(&w->env, x->slots, bytes);
        if (!slots) return false;
        x->slots = slots;
        x->capacity = capacity;
    }
    if (x->count == 0) k->extra_count++;
    ecs_sched__rel_slot_write(w, kind, x->slots + (size_t)x->count * size, target, payload, true);
    x->count++;
    return true;
}

static void ecs_sched__extra_drop(ecs_sched_world *w, ecs_sched_id kind, ecs_sched__extra *x,
                                  uint32_t i) {
    size_t size = w->components[kind].size;
    memmove(x->slots + i * size, x->slots + (i + 1) * size, (x->count - i - 1) * size);
    if (--x->count == 0) {
        ecs_sched__free(&w->env, x->slots);
        x->slots = NULL;
        x->capacity = 0;
        ecs_sched__kind_of(w, kind)->extra_count--;
    }
}

static ecs_sched_result ecs_sched__unrelate_checked(ecs_sched_world *w, ecs_sched_entity source,
                                                    ecs_sched_id kind, ecs_sched_entity target);

/* A further target of a kind that is not exclusive (for IsA, the entity moves to the table
   with the base's mark first); false when out of memory, with nothing changed. */
static bool ecs_sched__gain_further_target(ecs_sched_world *w, ecs_sched_entity source,
                                           ecs_sched_id kind, ecs_sched_entity target,
                                           const void *payload) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(source);
    const ecs_sched__kind_hooks *h = &ecs_sched__kind_of(w, kind)->hooks;
    if (h->table_with) {
        ecs_sched__table *dst = h->table_with(w, w->tables[w->records[index].table], target);
        if (!dst || !ecs_sched__move_entity(w, index, dst)) return false;
    }
    if (ecs_sched__extra_add(w, source, kind, target, payload)) return true;
    if (h->unrelating) h->unrelating(w, source, target);
    return false;
}

/* ---- the children of prefabs ----

   A prefab's children are prefabs (as in flecs): an entity made a child of a prefab gets the
   Prefab tag, and so does every entity below it, so that the parts of a template stay out of
   queries as the template does. Tagged before the relationship is made, so that a failure
   moves each one back to the table it left (which has room for it still). */

typedef struct ecs_sched__tagging {
    ecs_sched_entity *entities;     /* to tag: the new child and the entities below it */
    ecs_sched__table **left;        /* the table each one left */
    uint32_t count;
    uint32_t capacity;
    uint32_t moved;
} ecs_sched__tagging;

static bool ecs_sched__is_prefab(const ecs_sched_world *w, ecs_sched_entity e) {
    return ecs_sched__type_find(w->tables[w->records[ECS_SCHED_ENTITY_INDEX(e)].table], w->prefab) >= 0;
}

/* Lists e and the entities below it (breadth first, however deep), then keeps those that are
   no prefabs yet; false when out of memory. */
static bool ecs_sched__tagging_gather(ecs_sched_world *w, ecs_sched__tagging *g, ecs_sched_entity e) {
    uint32_t at, kept = 0;
    if (!ECS_SCHED__GROW(&w->env, g->entities, &g->capacity, 1)) return false;
    g->entities[g->count++] = e;
    for (at = 0; at < g->count; at++) {
        const ecs_sched__sources *children = ecs_sched__sources_of(w, w->child_of, g->entities[at]);
        if (!children) continue;
        if (!ECS_SCHED__GROW(&w->env, g->entities, &g->capacity, g->count + children->count)) return false;
        memcpy(g->entities + g->count, children->items, children->count * sizeof *children->items);
        g->count += children->count;
    }
    for (at = 0; at < g->count; at++) {
        if (!ecs_sched__is_prefab(w, g->entities[at])) g->entities[kept++] = g->entities[at];
    }
    g->count = kept;
    return true;
}

/* Moves the tagged entities back where they were. */
static void ecs_sched__tagging_undo(ecs_sched_world *w, ecs_sched__tagging *g) {
    while (g->moved > 0) {
        g->moved--;
        ecs_sched__move_entity(w, ECS_SCHED_ENTITY_INDEX(g->entities[g->moved]), g->left[g->moved]);
    }
}

static void ecs_sched__tagging_free(ecs_sched_world *w, ecs_sched__tagging *g) {
    ecs_sched__free(&w->env, g->entities);
    ecs_sched__free(&w->env, g->left);
}

/* Tags `child`, about to become a child of prefab, and the entities below it; nothing changed
   when it fails. */
static ecs_sched_result ecs_sched__tag_prefab_children(ecs_sched_world *w, ecs_sched__tagging *g,
                                                       ecs_sched_entity child) {
    memset(g, 0, sizeof *g);
    if (!ecs_sched__tagging_gather(w, g, child) ||
        (g->count && !(g->left = (ecs_sched__table **)ecs_sched__alloc(&w->env, g->count * sizeof *g->left)))) {
        return ecs_sched__out_of_memory(w, "making the children of a prefab prefabs");
    }
    for (; g->moved < g->count; g->moved++) {
        uint32_t index = ECS_SCHED_ENTITY_INDEX(g->entities[g->moved]);
        ecs_sched__table *from = w->tables[w->records[index].table];
        ecs_sched__table *to = ecs_sched__table_step(w, from, w->prefab, false);
        if (!to || !ecs_sched__move_entity(w, index, to)) {
            ecs_sched__tagging_undo(w, g);
            return ecs_sched__out_of_memory(w, "making the children of a prefab prefabs");
        }
        g->left[g->moved] = from;
    }
    return ECS_SCHED_OK;
}

/* The observers hear of the tags, once the child is placed. */
static void ecs_sched__tagging_observe(ecs_sched_world *w, const ecs_sched__tagging *g) {
    uint32_t i;
    for (i = 0; w->observed && i < g->moved; i++) {
        ecs_sched__observe_inserted(w, g->entities[i], g->left[i], 1, &w->prefab);
    }
}

/* Relates a checked source and target (the Prefab tag aside); `at` places source among
   target's sources (UINT32_MAX: last). */
static ecs_sched_result ecs_sched__relate_pair(ecs_sched_world *w, ecs_sched_entity source,
                                               ecs_sched_id kind, ecs_sched_entity target,
                                               const void *payload, uint32_t at,
                                               const char *operation) {
    const ecs_sched__kind_hooks *hooks = &ecs_sched__kind_of(w, kind)->hooks;
    unsigned char *slot = ecs_sched__rel_first_slot(w, source, kind), *same;
    bool exclusive = (w->components[kind].relation & ECS_SCHED__KIND_EXCLUSIVE) != 0;
    ecs_sched_entity old = slot ? ecs_sched__rel_slot_target(slot) : ECS_SCHED_NULL_ENTITY;
    same = slot ? ecs_sched__rel_slot_of(w, source, kind, target) : NULL;
    if (same) {   /* related already: a new payload, and no move among the sources */
        if (payload) ecs_sched__rel_slot_write(w, kind, same, target, payload, false);
        ecs_sched__observe_relation(w, ECS_SCHED_ON_INSERT, source, kind, target);
        return ECS_SCHED_OK;
    }
    if (hooks->may_relate) {
        ecs_sched_result result = hooks->may_relate(w, source, target, operation);
        if (result != ECS_SCHED_OK) return result;
    }
    if (!ecs_sched__sources_reserve(w, kind, target, 1)) {
        return ecs_sched__out_of_memory(w, "relating two entities");
    }
    if (!slot) {
        slot = ecs_sched__gain_kind(w, source, kind, target);
        if (!slot) return ecs_sched__out_of_memory(w, "moving an entity to a new archetype");
        ecs_sched__rel_slot_write(w, kind, slot, target, payload, true);
    } else if (exclusive) {
        ecs_sched__observe_relation(w, ECS_SCHED_ON_REMOVE, source, kind, old);
        ecs_sched__unlink(w, kind, source, old);
        slot = ecs_sched__rel_first_slot(w, source, kind);   /* an observer may have moved it */
        ecs_sched__rel_slot_write(w, kind, slot, target, payload, true);
    } else if (!ecs_sched__gain_further_target(w, source, kind, target, payload)) {
        return ecs_sched__out_of_memory(w, "relating two entities");
    }
    ecs_sched__link(w, kind, source, target, at);
    if (hooks->moved) hooks->moved(w, source);
    ecs_sched__observe_relation(w, ECS_SCHED_ON_ADD, source, kind, target);
    ecs_sched__observe_relation(w, ECS_SCHED_ON_INSERT, source, kind, target);
    if (hooks->related) {
        ecs_sched_result result = hooks->related(w, source, target);
        if (result != ECS_SCHED_OK) {
            ecs_sched__unrelate_checked(w, source, kind, target);
            return result;
        }
    }
    return ECS_SCHED_OK;
}

/* Relates a checked source and target; `at` places source among target's sources (UINT32_MAX:
   last). */
static ecs_sched_result ecs_sched__relate_checked(ecs_sched_world *w, ecs_sched_entity source,
                                                  ecs_sched_id kind, ecs_sched_entity target,
                                                  const void *payload, uint32_t at,
                                                  const char *operation) {
    ecs_sched__tagging tagging;
    ecs_sched_result result;
    if (kind != w->child_of || !ecs_sched__is_prefab(w, target) ||
        ecs_sched__rel_slot_of(w, source, kind, target)) {
        return ecs_sched__relate_pair(w, source, kind, target, payload, at, operation);
    }
    result = ecs_sched__tag_prefab_children(w, &tagging, source);
    if (result == ECS_SCHED_OK) {
        result = ecs_sched__relate_pair(w, source, kind, target, payload, at, operation);
    }
    if (result == ECS_SCHED_OK) ecs_sched__tagging_observe(w, &tagging);
    else ecs_sched__tagging_undo(w, &tagging);
    ecs_sched__tagging_free(w, &tagging);
    return result;
}

/* What an observer does through the world is recorded in its buffer. */
static ecs_sched_result ecs_sched__relate_at(ecs_sched_world *w, ecs_sched_entity source,
                                             ecs_sched_id kind, ecs_sched_entity target,
                                             const void *payload, uint32_t at,
                                             const char *operation) {
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observed && ecs_sched__deferring(w)) {
        return ecs_sched_commands_relate(ecs_sched__deferring(w), source, kind, target, payload);
    }
    if (ecs_sched__change_refused(w, operation)) return ECS_SCHED_ERR_ACCESS;
    result = ecs_sched__relate_check(w, source, kind, target, operation);
    if (result != ECS_SCHED_OK) return result;
    result = ecs_sched__relate_checked(w, source, kind, target, payload, at, operation);
    if (w->observed) ecs_sched__observers_flush(w);
    return result;
}

ecs_sched_result ecs_sched_relate(ecs_sched_world *w, ecs_sched_entity source, ecs_sched_id kind,
                                  ecs_sched_entity target, const void *payload) {
    return ecs_sched__relate_at(w, source, kind, target, payload, UINT32_MAX, "relate");
}

/* Takes one relationship away; the entity loses the kind's column with its last target. */
static ecs_sched_result ecs_sched__unrelate_checked(ecs_sched_world *w, ecs_sched_entity source,
                                                    ecs_sched_id kind, ecs_sched_entity target) {
    const ecs_sched__kind_hooks *hooks = &ecs_sched__kind_of(w, kind)->hooks;
    unsigned char *slot;
    ecs_sched__extra *x;
    if (hooks->may_relate) {
        ecs_sched_result result = hooks->may_relate(w, source, ECS_SCHED_NULL_ENTITY, "unrelate");
        if (result != ECS_SCHED_OK) return result;
    }
    ecs_sched__observe_relation(w, ECS_SCHED_ON_REMOVE, source, kind, target);
    slot = ecs_sched__rel_first_slot(w, source, kind);
    if (!slot || !ecs_sched__rel_slot_of(w, source, kind, target)) return ECS_SCHED_OK;
    if (hooks->unrelating) {
        if (!hooks->unrelating(w, source, target)) {
            return ecs_sched__out_of_memory(w, "moving an entity to a new archetype");
        }
        slot = ecs_sched__rel_first_slot(w, source, kind);
    }
    x = ecs_sched__extra_of(w, kind, source);
    if (ecs_sched__rel_slot_target(slot) == target) {
        if (x && x->count) {   /* the last further target takes the column's place */
            memcpy(slot, x->slots + (size_t)(x->count - 1) * w->components[kind].size,
                   w->components[kind].size);
            ecs_sched__extra_drop(w, kind, x, x->count - 1);
        } else {
            uint32_t index = ECS_SCHED_ENTITY_INDEX(source);
            ecs_sched__table *src = w->tables[w->records[index].table];
            ecs_sched__table *dst = ecs_sched__table_step(w, src, kind, true);
            if (!dst || !ecs_sched__move_entity(w, index, dst)) {
                return ecs_sched__out_of_memory(w, "moving an entity to a new archetype");
            }
        }
    } else {
        uint32_t i;
        size_t size = w->components[kind].size;
        for (i = 0; i < x->count && ecs_sched__rel_slot_target(x->slots + i * size) != target; i++) {}
        ecs_sched__extra_drop(w, kind, x, i);
    }
    ecs_sched__unlink(w, kind, source, target);
    if (hooks->moved) hooks->moved(w, source);
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_unrelate(ecs_sched_world *w, ecs_sched_entity source, ecs_sched_id kind,
                                    ecs_sched_entity target) {
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observed && ecs_sched__deferring(w)) {
        return ecs_sched_commands_unrelate(ecs_sched__deferring(w), source, kind, target);
    }
    if (ecs_sched__change_refused(w, "unrelate")) return ECS_SCHED_ERR_ACCESS;
    if (!ecs_sched__is_live_record(w, source)) return ecs_sched__stale(w, source, "unrelate");
    if (!ecs_sched__is_kind(w, kind)) return ecs_sched__not_a_kind(w, kind, "unrelate");
    if (!ecs_sched__is_live_record(w, target)) return ecs_sched__stale(w, target, "unrelate (target)");
    if (!ecs_sched__rel_slot_of(w, source, kind, target)) return ECS_SCHED_OK;
    result = ecs_sched__unrelate_checked(w, source, kind, target);
    if (w->observed) ecs_sched__observers_flush(w);
    return result;
}

/* The remove_kind hook (registry.h): ecs_sched_remove of a kind removes each target. */
static ecs_sched_result ecs_sched__remove_relation(ecs_sched_world *w, ecs_sched_entity source,
                                                   ecs_sched_id kind) {
    const unsigned char *slot;
    while ((slot = ecs_sched__rel_first_slot(w, source, kind)) != NULL) {
        const ecs_sched__extra *x = ecs_sched__extra_of(w, kind, source);
        ecs_sched_entity target = x && x->count
            ? ecs_sched__rel_slot_target(x->slots + (size_t)(x->count - 1) * w->components[kind].size)
            : ecs_sched__rel_slot_target(slot);
        ecs_sched_result result = ecs_sched__unrelate_checked(w, source, kind, target);
        if (result != ECS_SCHED_OK) return result;
    }
    if (w->observed) ecs_sched__observers_flush(w);
    return ECS_SCHED_OK;
}

/* ---- reading ---- */

bool ecs_sched_has_relation(const ecs_sched_world *w, ecs_sched_entity source, ecs_sched_id kind,
                            ecs_sched_entity target) {
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__is_live_record(w, source) || !ecs_sched__is_kind(w, kind)) return false;
    if (target == ECS_SCHED_NULL_ENTITY) return ecs_sched__rel_first_slot(w, source, kind) != NULL;
    return ecs_sched__rel_slot_of(w, source, kind, target) != NULL;
}

int32_t ecs_sched_target_count(const ecs_sched_world *w, ecs_sched_entity source,
                               ecs_sched_id kind) {
    const ecs_sched__extra *x;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__is_live_record(w, source) || !ecs_sched__is_kind(w, kind) ||
        !ecs_sched__rel_first_slot(w, source, kind)) {
        return 0;
    }
    x = ecs_sched__extra_of(w, kind, source);
    return 1 + (x ? (int32_t)x->count : 0);
}

ecs_sched_entity ecs_sched_target(const ecs_sched_world *w, ecs_sched_entity source,
                                  ecs_sched_id kind, int32_t index) {
    const unsigned char *slot;
    const ecs_sched__extra *x;
    ECS_SCHED__CHECK_WORLD(w);
    if (index < 0 || !ecs_sched__is_live_record(w, source) || !ecs_sched__is_kind(w, kind) ||
        !(slot = ecs_sched__rel_first_slot(w, source, kind))) {
        return ECS_SCHED_NULL_ENTITY;
    }
    if (index == 0) return ecs_sched__rel_slot_target(slot);
    x = ecs_sched__extra_of(w, kind, source);
    if (!x || (uint32_t)index > x->count) return ECS_SCHED_NULL_ENTITY;
    return ecs_sched__rel_slot_target(x->slots + (size_t)(index - 1) * w->components[kind].size);
}

void *ecs_sched_relation_payload(ecs_sched_world *w, ecs_sched_entity source, ecs_sched_id kind,
                                 ecs_sched_entity target) {
    unsigned char *slot;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__is_live_record(w, source)) {
        ecs_sched__stale(w, source, "relation_payload");
        return NULL;
    }
    if (!ecs_sched__is_kind(w, kind)) {
        ecs_sched__not_a_kind(w, kind, "relation_payload");
        return NULL;
    }
    if (!ecs_sched__is_live_record(w, target)) {
        ecs_sched__stale(w, target, "relation_payload (the target)");
        return NULL;
    }
    slot = ecs_sched__rel_slot_of(w, source, kind, target);
    if (!slot) return NULL;   /* a miss, an answer */
    if (ecs_sched__kind_of(w, kind)->payload_size == 0) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "relation_payload: %s has no payload in its '%s' to %s",
                        ecs_sched__entity_label(w, source).text, w->components[kind].name,
                        ecs_sched__entity_label(w, target).text);
        return NULL;
    }
    return slot + ecs_sched__payload_offset(&w->components[kind]);
}

const ecs_sched_entity *ecs_sched_sources(const ecs_sched_world *w, ecs_sched_id kind,
                                          ecs_sched_entity target, int32_t *count) {
    const ecs_sched__sources *s;
    ECS_SCHED__CHECK_WORLD(w);
    if (count) *count = 0;
    if (!ecs_sched__is_kind(w, kind) || !ecs_sched__is_live_record(w, target)) return NULL;
    s = ecs_sched__sources_of(w, kind, target);
    if (!s) return NULL;
    if (count) *count = (int32_t)s->count;
    return s->items;
}

/* A relate or unrelate command, applied (ecs_sched__command_fn). A command whose source or
   target died meanwhile is skipped (false). */
static bool ecs_sched__apply_relation(ecs_sched_world *w, ecs_sched_entity source, ecs_sched_id kind,
                                      const void *slot, bool unrelate, bool with_payload,
                                      ecs_sched_result *result) {
    ecs_sched_entity target = ecs_sched__rel_slot_target((const unsigned char *)slot);
    if (!ecs_sched__is_live_record(w, source) || !ecs_sched__is_live_record(w, target)) return false;
    if (unrelate) {
        *result = ecs_sched_unrelate(w, source, kind, target);
    } else {
        const unsigned char *payload = (const unsigned char *)slot +
                                       ecs_sched__payload_offset(&w->components[kind]);
        *result = ecs_sched__relate_at(w, source, kind, target, with_payload ? payload : NULL,
                                       UINT32_MAX,
                                       kind == w->child_of ? "commands_set_parent"
                                                           : "commands_relate");
    }
    return true;
}

static bool ecs_sched__apply_relate(ecs_sched_world *w, ecs_sched_entity source, ecs_sched_id kind,
                                    const void *slot, ecs_sched_result *result) {
    return ecs_sched__apply_relation(w, source, kind, slot, false, true, result);
}

/* A relate without payload: a relationship that exists keeps its payload. */
static bool ecs_sched__apply_relate_keep(ecs_sched_world *w, ecs_sched_entity source,
                                         ecs_sched_id kind, const void *slot,
                                         ecs_sched_result *result) {
    return ecs_sched__apply_relation(w, source, kind, slot, false, false, result);
}

static bool ecs_sched__apply_unrelate(ecs_sched_world *w, ecs_sched_entity source, ecs_sched_id kind,
                                      const void *slot, ecs_sched_result *result) {
    return ecs_sched__apply_relation(w, source, kind, slot, true, false, result);
}

/* ---- commands ---- */

ecs_sched_result ecs_sched_commands_relate(ecs_sched_commands *cmd, ecs_sched_entity source,
                                           ecs_sched_id kind, ecs_sched_entity target,
                                           const void *payload) {
    ecs_sched_world *w;
    ecs_sched_result result;
    if (ecs_sched__no_buffer(cmd)) return ECS_SCHED_ERR_ACCESS;
    w = cmd->world;
    result = ecs_sched__check_target(cmd, source, "commands_relate");
    if (result != ECS_SCHED_OK) return result;
    if (!ecs_sched__is_kind(w, kind)) return ecs_sched__not_a_kind(w, kind, "commands_relate");
    result = ecs_sched__check_target(cmd, target, "commands_relate (target)");
    if (result != ECS_SCHED_OK) return result;
    if (source == target) return ecs_sched__self_relation(w, source, kind, "commands_relate");
    return ecs_sched__record_call(cmd, payload ? ecs_sched__apply_relate : ecs_sched__apply_relate_keep,
                                  false, source, kind, target, payload,
                                  ecs_sched__kind_of(w, kind)->payload_size);
}

ecs_sched_result ecs_sched_commands_unrelate(ecs_sched_commands *cmd, ecs_sched_entity source,
                                             ecs_sched_id kind, ecs_sched_entity target) {
    ecs_sched_world *w;
    ecs_sched_result result;
    if (ecs_sched__no_buffer(cmd)) return ECS_SCHED_ERR_ACCESS;
    w = cmd->world;
    result = ecs_sched__check_target(cmd, source, "commands_unrelate");
    if (result != ECS_SCHED_OK) return result;
    if (!ecs_sched__is_kind(w, kind)) return ecs_sched__not_a_kind(w, kind, "commands_unrelate");
    result = ecs_sched__check_target(cmd, target, "commands_unrelate (target)");
    if (result != ECS_SCHED_OK) return result;
    return ecs_sched__record_call(cmd, ecs_sched__apply_unrelate, false, source, kind, target,
                                  NULL, 0);
}

/* The ON_REMOVE of each target of a kind, for an
   entity about to lose them all. */
static void ecs_sched__observe_relations_removing(ecs_sched_world *w, ecs_sched_entity e,
                                                  ecs_sched_id kind) {
    const unsigned char *slot = ecs_sched__rel_first_slot(w, e, kind);
    const ecs_sched__extra *x = ecs_sched__extra_of(w, kind, e);
    uint32_t i, n = x ? x->count : 0;
    if (!ecs_sched__watched(w, kind, ECS_SCHED_ON_REMOVE) || !slot) return;
    ecs_sched__observe_target(w, ECS_SCHED_ON_REMOVE, e, kind, ecs_sched__rel_slot_target(slot));
    for (i = 0; i < n; i++) {
        x = ecs_sched__extra_of(w, kind, e);
        if (!x || i >= x->count) break;
        ecs_sched__observe_target(w, ECS_SCHED_ON_REMOVE, e, kind,
                                  ecs_sched__rel_slot_target(x->slots + (size_t)i * w->components[kind].size));
    }
}

/* An entity with relationships is about to be despawned: ON_DESPAWN, then ON_REMOVE for
   each component, and for each target of each of its kinds. */
static void ecs_sched__observe_linked_despawning(ecs_sched_world *w, ecs_sched_entity e) {
    ecs_sched_id type[ECS_SCHED__MAX_TYPE];
    const ecs_sched__table *t = w->tables[w->records[ECS_SCHED_ENTITY_INDEX(e)].table];
    int32_t i, n = t->type_count;
    memcpy(type, t->type, (size_t)n * sizeof *type);
    if (ecs_sched__observers_of(w)->monitors) ecs_sched__observe_leaving(w, e);
    ecs_sched__observe(w, ECS_SCHED_ON_DESPAWN, e, 0);
    for (i = 0; i < n; i++) {
        if (w->components[type[i]].relation) ecs_sched__observe_relations_removing(w, e, type[i]);
        else ecs_sched__observe_removing(w, e, type[i]);
    }
    if (w->sparse_count) ecs_sched__sparse_observe_despawning(w, e);
}

/* ---- despawning ----

   A despawn gathers the entity and what its kinds' rules take along (targets before their
   sources), checks the rules that refuse, detaches the sources that stay, then despawns the
   gathered entities sources first. A source taken along by an exclusive kind does not leave
   its target's list one by one: the target, despawned after it, drops the whole list. */

/* Room for `count` entities of a despawn (and their marks, when `marking`). */
static bool ecs_sched__doomed_reserve(ecs_sched_world *w, uint32_t count, bool marking) {
    ecs_sched__links *r = ecs_sched__links_of(w);
    uint32_t had = r->mark_capacity;
    if (count <= r->doomed_capacity && count <= r->via_capacity && count <= r->order_capacity &&
        (!marking || w->record_count <= had)) {
        return true;   /* the usual case: a walk reserves for each list it takes along */
    }
    if (marking && w->record_count > had) {
        if (!ECS_SCHED__GROW(&w->env, r->marks, &r->mark_capacity, w->record_count)) return false;
        memset(r->marks + had, 0, (r->mark_capacity - had) * sizeof *r->marks);
    }
    return ECS_SCHED__GROW(&w->env, r->doomed, &r->doomed_capacity, count) &&
           ECS_SCHED__GROW(&w->env, r->doomed_via, &r->via_capacity, count) &&
           ECS_SCHED__GROW(&w->env, r->order, &r->order_capacity, count);
}

/* Whether the rules of kinds other than those that despawn sources have work: only then is
   each gathered entity marked, to tell the sources that stay from those that go. */
static bool ecs_sched__despawn_needs_marks(const ecs_sched_world *w) {
    const ecs_sched__links *r = ecs_sched__links_of(w);
    uint32_t k, taking = 0;
    for (k = 0; k < r->kind_count; k++) {
        ecs_sched_id kind = r->kind_ids[k];
        if (r->kinds[kind].pairs == 0) continue;
        if (ecs_sched__kind_policy(w, kind) != ECS_SCHED_TARGET_DESPAWN_SOURCES) return true;
        /* two kinds that take sources along may reach one entity twice, and so may one that
           is not exclusive, or one that allows cycles */
        if (++taking > 1 || (w->components[kind].relation & (ECS_SCHED__KIND_EXCLUSIVE | ECS_SCHED__KIND_ACYCLIC)) !=
                                (ECS_SCHED__KIND_EXCLUSIVE | ECS_SCHED__KIND_ACYCLIC)) {
            return true;
        }
    }
    return false;
}

/* A tree's lists are scattered in memory: the walk asks for the lists of the entities a few
   steps ahead (their entries first, then what the entries point to), so that the misses of
   one wait overlap those of the next. */
static inline void ecs_sched__prefetch_sources(const ecs_sched_world *w, const ecs_sched__links *r,
                                               ecs_sched_entity e, bool items) {
#if defined(__GNUC__) || defined(__clang__)
    uint32_t k, index = ECS_SCHED_ENTITY_INDEX(e);
    if (!e || !ecs_sched__may_be_target(r, e)) return;
    for (k = 0; k < r->kind_count; k++) {
        const ecs_sched__kind *kind = &r->kinds[r->kind_ids[k]];
        if (index >= kind->source_capacity || !kind->pairs) continue;
        if (!items) __builtin_prefetch(&kind->sources[index]);
        else if (kind->sources[index].count) __builtin_prefetch(kind->sources[index].items);
    }
    (void)w;
#else
    (void)w; (void)r; (void)e; (void)items;
#endif
}

/* Gathers e and every entity its despawn takes along (through kinds that despawn sources),
   targets before sources, into relations->doomed; returns how many, or -1 when out of
   memory. */
static int32_t ecs_sched__gather_doomed(ecs_sched_world *w, ecs_sched_entity e, bool marking) {
    ecs_sched__links *r = ecs_sched__links_of(w);
    uint32_t n = 0, at, k;
    if (marking && ++r->mark_stamp == 0) {   /* the stamp wrapped: old marks could match */
        if (r->marks) memset(r->marks, 0, r->mark_capacity * sizeof *r->marks);
        r->mark_stamp = 1;
    }
    if (!ecs_sched__doomed_reserve(w, 1, marking)) return -1;
    r->doomed_via[n] = 0;
    r->doomed[n++] = e;
    if (marking) r->marks[ECS_SCHED_ENTITY_INDEX(e)] = r->mark_stamp;
    for (at = 0; at < n; at++) {
        ecs_sched__prefetch_sources(w, r, at + 32u < n ? r->doomed[at + 32u] : 0, false);
        ecs_sched__prefetch_sources(w, r, at + 16u < n ? r->doomed[at + 16u] : 0, true);
        if (!ecs_sched__may_be_target(r, r->doomed[at])) continue;   /* most of a tree's leaves */
        for (k = 0; k < r->kind_count; k++) {
            ecs_sched_id kind = r->kind_ids[k];
            const ecs_sched__sources *s;
            uint32_t i;
            if (!r->kinds[kind].pairs || ecs_sched__kind_policy(w, kind) != ECS_SCHED_TARGET_DESPAWN_SOURCES) {
                continue;
            }
            s = ecs_sched__sources_of(w, kind, r->doomed[at]);
            if (!s) continue;
            if (!ecs_sched__doomed_reserve(w, n + s->count, false)) return -1;
            s = ecs_sched__sources_of(w, kind, r->doomed[at]);
            for (i = 0; i < s->count; i++) {
                if (marking) {
                    uint32_t index = ECS_SCHED_ENTITY_INDEX(s->items[i]);
                    if (r->marks[index] == r->mark_stamp) continue;
                    r->marks[index] = r->mark_stamp;
                }
                r->doomed_via[n] = kind;
                r->doomed[n++] = s->items[i];
            }
        }
    }
    return (int32_t)n;
}

/* A kind that refuses its targets' despawn, with a source that stays: the failure. */
static ecs_sched_result ecs_sched__check_refusals(ecs_sched_world *w, int32_t n) {
    const ecs_sched__links *r = ecs_sched__links_of(w);
    uint32_t k;
    int32_t i;
    for (k = 0; k < r->kind_count; k++) {
        ecs_sched_id kind = r->kind_ids[k];
        if (ecs_sched__kind_policy(w, kind) != ECS_SCHED_TARGET_REFUSE || !r->kinds[kind].pairs) continue;
        for (i = 0; i < n; i++) {
            const ecs_sched__sources *s = ecs_sched__sources_of(w, kind, r->doomed[i]);
            uint32_t j;
            for (j = 0; s && j < s->count; j++) {
                if (r->marks[ECS_SCHED_ENTITY_INDEX(s->items[j])] == r->mark_stamp) continue;
                return ecs_sched__fail(&w->env, ECS_SCHED_ERR_REFUSED,
                                       "despawn: %s is the target of '%s' for %s, and '%s' "
                                       "refuses the despawn of its targets; unrelate or despawn "
                                       "the sources first", ecs_sched__entity_label(w, r->doomed[i]).text,
                                       w->components[kind].name,
                                       ecs_sched__entity_label(w, s->items[j]).text,
                                       w->components[kind].name);
            }
        }
    }
    return ECS_SCHED_OK;
}

/* The sources that stay lose their relationships to an entity that goes (those that go too
   leave with their own despawn). */
static ecs_sched_result ecs_sched__detach_sources(ecs_sched_world *w, ecs_sched_entity target) {
    const ecs_sched__links *r = ecs_sched__links_of(w);
    uint32_t k;
    for (k = 0; k < r->kind_count; k++) {
        ecs_sched_id kind = r->kind_ids[k];
        const ecs_sched__sources *s = ecs_sched__sources_of(w, kind, target);
        uint32_t i = s ? s->count : 0;
        while (i-- > 0) {
            ecs_sched_entity source;
            ecs_sched_result result;
            s = ecs_sched__sources_of(w, kind, target);
            if (!s || i >= s->count) continue;   /* an observer's doing */
            source = s->items[i];
            if (r->marks[ECS_SCHED_ENTITY_INDEX(source)] == r->mark_stamp) continue;
            result = ecs_sched__unrelate_checked(w, source, kind, target);
            if (result != ECS_SCHED_OK) return result;
        }
    }
    return ECS_SCHED_OK;
}

/* The entity's own relationships go (as a source), without moving it; `via` (an exclusive
   kind it was taken along by, or 0) is left to its target, which goes too. */
static void ecs_sched__drop_own_links(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id via) {
    const ecs_sched__table *t = w->tables[w->records[ECS_SCHED_ENTITY_INDEX(e)].table];
    int32_t i;
    for (i = 0; i < t->type_count; i++) {
        ecs_sched_id kind = t->type[i];
        ecs_sched__extra *x;
        if (!w->components[kind].relation || kind == via) continue;
        ecs_sched__unlink(w, kind, e, ecs_sched__rel_slot_target(ecs_sched__rel_first_slot(w, e, kind)));
        x = ecs_sched__extra_of(w, kind, e);
        while (x && x->count) {
            ecs_sched__unlink(w, kind, e,
                              ecs_sched__rel_slot_target(x->slots + (size_t)(x->count - 1) *
                                                                    w->components[kind].size));
            ecs_sched__extra_drop(w, kind, x, x->count - 1);
        }
    }
}

/* The lists of an entity that goes: whoever is still in them goes too, before or after it,
   without leaving (see ecs_sched__drop_own_links). */
static void ecs_sched__drop_sources(ecs_sched_world *w, ecs_sched_entity e) {
    ecs_sched__links *r = ecs_sched__links_of(w);
    uint32_t k, index = ECS_SCHED_ENTITY_INDEX(e);
    if (!ecs_sched__may_be_target(r, e)) return;
    r->targets[index / 64u] &= ~((uint64_t)1 << (index % 64u));
    for (k = 0; k < r->kind_count; k++) {
        ecs_sched__kind *kind = &r->kinds[r->kind_ids[k]];
        ecs_sched__sources *s;
        if (!kind->pairs) continue;
        s = ecs_sched__sources_of(w, r->kind_ids[k], e);
        if (!s) continue;
        kind->pairs -= s->count;
        r->pairs -= s->count;
        s->count = 0;
        w->rows_version++;
    }
}

/* ---- a tree's despawn ----

   When no rule but that of one exclusive, acyclic kind taking its sources along has work (no
   marks needed: the other kinds have no pair, and no entity is reached twice) and no observer
   hears the despawns, the entity's subtree under that kind goes as one. Every source in a gathered target's list goes too, so
   none leaves the list on its own: the target drops it whole as it goes (whichever goes
   first). The entities are despawned in the order of their indices when those are dense (a
   tree made together), so that their records and rows are visited as they lie in memory;
   otherwise sources before their targets. */

/* The kind a despawn without marks takes sources along by: the only kind with pairs, or 0. */
static ecs_sched_id ecs_sched__only_linked_kind(const ecs_sched__links *r) {
    uint32_t k;
    for (k = 0; k < r->kind_count; k++) {
        if (r->kinds[r->kind_ids[k]].pairs) return r->kind_ids[k];
    }
    return 0;
}

/* Asks for the list entry of the entity `ahead` entries on in the walk, or for its items. */
static inline void ecs_sched__prefetch_tree_list(const ecs_sched__links *r, const ecs_sched__kind *k,
                                                 ecs_sched_entity e, bool items) {
#if defined(__GNUC__) || defined(__clang__)
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    if (!ecs_sched__may_be_target(r, e) || index >= k->source_capacity) return;
    if (!items) __builtin_prefetch(&k->sources[index]);
    else if (k->sources[index].count) __builtin_prefetch(k->sources[index].items);
#else
    (void)r; (void)k; (void)e; (void)items;
#endif
}

/* Gathers e and the sources its despawn takes along through `kind` (0: none) into
   relations->doomed, targets before sources; *lo and *hi: the smallest and the largest index
   gathered. Returns how many, or -1 when out of memory. */
static int32_t ecs_sched__gather_tree(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id kind,
                                      uint32_t *lo, uint32_t *hi) {
    ecs_sched__links *r = ecs_sched__links_of(w);
    ecs_sched__kind *k = kind ? ecs_sched__kind_of(w, kind) : NULL;
    uint32_t n = 1, at, i;
    if (!ecs_sched__doomed_reserve(w, 1, false)) return -1;
    r->doomed[0] = e;
    *lo = *hi = ECS_SCHED_ENTITY_INDEX(e);
    for (at = 0; k && at < n; at++) {
        uint32_t index = ECS_SCHED_ENTITY_INDEX(r->doomed[at]), count;
        const ecs_sched__sources *s;
        if (at + 32u < n) ecs_sched__prefetch_tree_list(r, k, r->doomed[at + 32u], false);
        if (at + 16u < n) ecs_sched__prefetch_tree_list(r, k, r->doomed[at + 16u], true);
        if (!ecs_sched__may_be_target(r, r->doomed[at]) || index >= k->source_capacity ||
            !(count = k->sources[index].count)) {
            continue;
        }
        if ((n + count > r->doomed_capacity || n + count > r->order_capacity) &&
            !ecs_sched__doomed_reserve(w, n + count, false)) {
            return -1;
        }
        s = &k->sources[index];
        for (i = 0; i < count; i++) {   /* lists are short: no call to copy them */
            uint32_t source = ECS_SCHED_ENTITY_INDEX(s->items[i]);
            r->doomed[n + i] = s->items[i];
            if (source < *lo) *lo = source;
            if (source > *hi) *hi = source;
        }
        n += count;
    }
    return (int32_t)n;
}

/* The entities of a table that hold no relationship but the one they were taken along by
   (left to its target, which goes too): the last such table seen, and that kind. */
typedef struct ecs_sched__linkless {
    const ecs_sched__table *table;
    ecs_sched_id via;
} ecs_sched__linkless;

static bool ecs_sched__table_relates(const ecs_sched_world *w, const ecs_sched__table *t,
                                     ecs_sched_id via);

/* Despawns a gathered live entity: its own relationships but `via`'s (an exclusive kind it
   was taken along by, or 0), its lists, its name, then itself. */
static ECS_SCHED__ALWAYS_INLINE void ecs_sched__despawn_gathered(ecs_sched_world *w, ecs_sched_entity d,
                                                                 ecs_sched_id via,
                                                                 ecs_sched__linkless *linkless) {
    const ecs_sched__table *t = w->tables[w->records[ECS_SCHED_ENTITY_INDEX(d)].table];
    /* a tree's entities share a few tables, most holding no link but the one to the parent:
       while no observer may change the tables, the last such table is remembered */
    if (t != linkless->table || via != linkless->via || w->observed) {
        if (ecs_sched__table_relates(w, t, via)) {
            ecs_sched__drop_own_links(w, d, via);
        } else {
            linkless->table = t;
            linkless->via = via;
        }
    }
    ecs_sched__drop_sources(w, d);
    if (w->hooks.forget) w->hooks.forget(w, ECS_SCHED_ENTITY_INDEX(d));
    ecs_sched__despawn_live(w, ECS_SCHED_ENTITY_INDEX(d));
}

/* The despawn of a tree (see above), no observer hearing it. */
static ecs_sched_result ecs_sched__despawn_tree(ecs_sched_world *w, ecs_sched_entity e) {
    ecs_sched__links *r = ecs_sched__links_of(w);
    ecs_sched_id kind = ecs_sched__only_linked_kind(r);
    ecs_sched__linkless linkless = {NULL, 0};
    uint32_t lo, hi, root = ECS_SCHED_ENTITY_INDEX(e);
    int32_t n = ecs_sched__gather_tree(w, e, kind, &lo, &hi), k;
    if (n < 0) return ecs_sched__out_of_memory(w, "despawning an entity and its sources");
    if (n >= 16 && hi - lo <= 4u * (uint32_t)n) {
        /* relations->order holds a bit per index from lo (room for n words: enough) */
        uint32_t words = (hi - lo) / 32u + 1u, word;
        memset(r->order, 0, words * sizeof *r->order);
        for (k = 0; k < n; k++) {
            uint32_t bit = ECS_SCHED_ENTITY_INDEX(r->doomed[k]) - lo;
            r->order[bit / 32u] |= (uint32_t)1 << (bit % 32u);
        }
        for (word = 0; word < words; word++) {
            uint32_t bits = r->order[word];
            while (bits) {
                uint32_t index = lo + word * 32u + (uint32_t)ecs_sched__lowest_bit(bits);
                bits &= bits - 1u;
                ecs_sched__despawn_gathered(w, ecs_sched__make_entity(index, w->records[index].generation),
                                            index == root ? 0 : kind, &linkless);
            }
        }
        return ECS_SCHED_OK;
    }
    for (k = n - 1; k >= 0; k--) ecs_sched__despawn_gathered(w, r->doomed[k], k == 0 ? 0 : kind, &linkless);
    return ECS_SCHED_OK;
}

/* The despawn_linked hook (registry.h): despawns a live entity in a world with
   relationships or names, with what its kinds' rules take along. All or nothing for the
   rules; an entity whose sources lose their relationship (REMOVE) may have lost some of them
   when the allocator fails midway. */

/* Whether entities of the table have relationships of their own (of a kind but `via`). */
static bool ecs_sched__table_relates(const ecs_sched_world *w, const ecs_sched__table *t,
                                     ecs_sched_id via) {
    int32_t i;
    for (i = 0; i < t->type_count; i++) {
        if (w->components[t->type[i]].relation && t->type[i] != via) return true;
    }
    return false;
}

static ecs_sched_result ecs_sched__despawn_related(ecs_sched_world *w, ecs_sched_entity e) {
    ecs_sched__links *r = ecs_sched__links_of(w);
    ecs_sched__linkless linkless = {NULL, 0};
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    bool marking;
    ecs_sched_result result;
    int32_t n, i;
    if (!ecs_sched__may_be_target(r, e) &&
        !ecs_sched__table_relates(w, w->tables[w->records[index].table], 0)) {
        /* neither source nor target: a plain despawn (and its name) */
        if (w->observed) ecs_sched__observe_linked_despawning(w, e);
        if (w->hooks.forget) w->hooks.forget(w, index);
        ecs_sched__despawn_live(w, index);
        return ECS_SCHED_OK;
    }
    marking = ecs_sched__despawn_needs_marks(w);
    if (!marking && !w->observed) return ecs_sched__despawn_tree(w, e);
    n = ecs_sched__gather_doomed(w, e, marking);
    if (n < 0) return ecs_sched__out_of_memory(w, "despawning an entity and its sources");
    if (marking) {
        result = ecs_sched__check_refusals(w, n);
        if (result != ECS_SCHED_OK) return result;
        for (i = 0; i < n; i++) {
            result = ecs_sched__detach_sources(w, r->doomed[i]);
            if (result != ECS_SCHED_OK) return result;
        }
    }
    /* sources before their targets: the reverse of the gathering */
    for (i = n - 1; i >= 0; i--) {
        ecs_sched_entity d = r->doomed[i];
        ecs_sched_id via = r->doomed_via[i];
        if (!ecs_sched__is_live_record(w, d)) continue;   /* an observer's doing */
        if (w->observed) ecs_sched__observe_linked_despawning(w, d);
        if (via && !(w->components[via].relation & ECS_SCHED__KIND_EXCLUSIVE)) via = 0;
        ecs_sched__despawn_gathered(w, d, via, &linkless);
    }
    return ECS_SCHED_OK;
}


/* ---- queries ---- */

/* For iter.h: whether a row has every related term's target. */
static bool ecs_sched__row_related(const ecs_sched_query *q, const ecs_sched__match *m,
                                   int32_t row) {
    const ecs_sched__table *t = m->table;
    int32_t i;
    for (i = 0; i < q->term_count; i++) {
        const ecs_sched_term *term = &q->terms[i];
        const unsigned char *slot;
        if (term->kind != ECS_SCHED_TERM_RELATED) continue;
        slot = (const unsigned char *)ecs_sched__cell(t, m->column[i], (uint32_t)row);
        if (ecs_sched__rel_slot_target(slot) == term->target) continue;
        if (!ecs_sched__rel_slot_of(q->world, t->entities[row], term->id, term->target)) return false;
    }
    return true;
}

/* ---- consistency and cleanup ---- */

/* Every relationship in a column or a source's further targets is in its target's list, and
   the lists hold nothing else. */
static ecs_sched_result ecs_sched__check_relations(ecs_sched_world *w) {
    const ecs_sched__links *r = ecs_sched__links_of(w);
    uint64_t links = 0, listed = 0;
    uint32_t kind, i, j;
    int32_t row, c;
    if (!r) return ECS_SCHED_OK;
    for (i = 0; i < w->table_count; i++) {
        const ecs_sched__table *t = w->tables[i];
        for (c = 0; c < t->column_count; c++) {
            kind = t->columns[c].id;
            if (!w->components[kind].relation) continue;
            for (row = 0; row < t->count; row++) {
                ecs_sched_entity source = t->entities[row];
                ecs_sched_entity target = ecs_sched__rel_slot_target((const unsigned char *)ecs_sched__cell(t, c, (uint32_t)row));
                const ecs_sched__extra *x = ecs_sched__extra_of(w, kind, source);
                uint32_t n = 1 + (x ? x->count : 0), k;
                for (k = 0; k < n; k++) {
                    const ecs_sched__sources *s;
                    if (k > 0) target = ecs_sched__rel_slot_target(x->slots + (size_t)(k - 1) * w->components[kind].size);
                    s = ecs_sched__is_live_record(w, target) ? ecs_sched__sources_of(w, kind, target) : NULL;
                    for (j = 0; s && j < s->count && s->items[j] != source; j++) {}
                    if (!s || j == s->count) {
                        return ecs_sched__inconsistent(w, "a relationship is missing from its target's sources",
                                                       kind, ECS_SCHED_ENTITY_INDEX(source));
                    }
                    links++;
                }
            }
        }
    }
    for (kind = 1; kind < r->kind_capacity; kind++) {
        for (i = 0; i < r->kinds[kind].source_capacity; i++) listed += r->kinds[kind].sources[i].count;
    }
    if (links != listed || links != r->pairs) {
        return ecs_sched__inconsistent(w, "the lists of sources hold relationships no source has",
                                       (uint32_t)links, (uint32_t)listed);
    }
    return ECS_SCHED_OK;
}

/* For world.h: the relationships go with the world. */
static void ecs_sched__relations_free(ecs_sched_world *w) {
    ecs_sched__links *r = ecs_sched__links_of(w);
    uint32_t kind, i;
    if (!r) return;
    for (kind = 0; kind < r->kind_capacity; kind++) {
        ecs_sched__kind *k = &r->kinds[kind];
        for (i = 0; i < k->source_capacity; i++) ecs_sched__free(&w->env, k->sources[i].items);
        for (i = 0; i < k->extra_capacity; i++) ecs_sched__free(&w->env, k->extra[i].slots);
        ecs_sched__free(&w->env, k->sources);
        ecs_sched__free(&w->env, k->extra);
    }
    ecs_sched__free(&w->env, r->kinds);
    ecs_sched__free(&w->env, r->kind_ids);
    ecs_sched__free(&w->env, r->marks);
    ecs_sched__free(&w->env, r->doomed);
    ecs_sched__free(&w->env, r->doomed_via);
    ecs_sched__free(&w->env, r->order);
    ecs_sched__free(&w->env, r->targets);
    ecs_sched__free(&w->env, r);
    ecs_sched__part_set(w, &ecs_sched__links_key, NULL);
}

ecs_sched_id ecs_sched_wildcard(ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    if (!w->wildcard) w->wildcard = ecs_sched_component_register_type(w, "ecs_sched.Wildcard", 0, 0);
    return w->wildcard;
}

ecs_sched_id ecs_sched_field_kind(const ecs_sched_iter *it, int32_t index, int32_t row) {
    const void *const *slots;
    ECS_SCHED_ASSERT(it != NULL && it->query_ != NULL && it->query_->list != NULL);
    ECS_SCHED_ASSERT(it->query_->terms[index].kind == ECS_SCHED_TERM_EACH_KIND);
    slots = (const void *const *)it->fields[index];
    return (ecs_sched_id)(uintptr_t)slots[row + (int32_t)it->query_->list->capacity];
}

const void *ecs_sched_field_payload(const ecs_sched_iter *it, int32_t index, int32_t row) {
    const ecs_sched_world *w;
    ecs_sched_id kind;
    const unsigned char *slot;
    ECS_SCHED_ASSERT(it != NULL && it->query_ != NULL);
    w = it->query_->world;
    kind = it->query_->terms[index].kind == ECS_SCHED_TERM_EACH_KIND
               ? ecs_sched_field_kind(it, index, row)
               : it->query_->terms[index].id;
    ECS_SCHED_ASSERT(it->query_->terms[index].kind == ECS_SCHED_TERM_EACH_TARGET ||
                     it->query_->terms[index].kind == ECS_SCHED_TERM_EACH_KIND);
    if (!ecs_sched__kind_of(w, kind)->payload_size) return NULL;
    slot = (const unsigned char *)((const void *const *)it->fields[index])[row];
    return slot + ecs_sched__payload_offset(&w->components[kind]);
}
