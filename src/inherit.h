/* inherit: bases and instances (IsA), inherited values, overrides, and instantiating a prefab
   with its children. */
#pragma once
#include "name.h"
#include "sparse.h"

/* IsA ("ecs_sched.IsA"), registered by every world: ecs_sched_relate(w, instance,
   ecs_sched_is_a(w), base, NULL) makes `instance` see the components of `base` that it does
   not own (see PREFABS AND INHERITANCE). Not exclusive (an instance may have several bases),
   acyclic (a base cannot be its own instance), and a base with instances cannot be despawned
   (ECS_SCHED_ERR_REFUSED naming them). */
ECS_SCHED_API ecs_sched_id ecs_sched_is_a(const ecs_sched_world *world);
/* A new instance of `prefab` (IsA prefab), and for each descendant of the prefab a new
   instance of it, placed the same way under the new root (ChildOf, the same order, the same
   names). Each new entity owns a copy of what its prefab marked with
   ecs_sched_auto_override and shares the rest. All or nothing: ECS_SCHED_NULL_ENTITY on
   failure, with nothing made. A structural change: from a system, record it
   (ecs_sched_commands_instantiate). */
ECS_SCHED_API ecs_sched_entity ecs_sched_instantiate(ecs_sched_world *world,
                                                     ecs_sched_entity prefab);
/* The same, recorded: the handle returned comes alive when the buffer is applied (a prefab
   dead by then makes the command skipped). */
ECS_SCHED_API ecs_sched_entity ecs_sched_commands_instantiate(ecs_sched_commands *commands,
                                                              ecs_sched_entity prefab);
/* Every instance made of `base` from now on (directly or through further bases) gets its own
   copy of component `id`, taken from what the base sees, instead of sharing it. The base
   must own or inherit the component. */
ECS_SCHED_API ecs_sched_result ecs_sched_auto_override(ecs_sched_world *world,
                                                       ecs_sched_entity base, ecs_sched_id id);
/* Whether the entity has the component itself (ecs_sched_has also counts what it inherits). */
ECS_SCHED_API bool ecs_sched_owns(const ecs_sched_world *world, ecs_sched_entity entity,
                                  ecs_sched_id id);
/* Whose value of `id` the entity sees: itself when it owns it, else its nearest base with it
   (see the rule in PREFABS AND INHERITANCE); ECS_SCHED_NULL_ENTITY when none has it. */
ECS_SCHED_API ecs_sched_entity ecs_sched_owner(const ecs_sched_world *world,
                                               ecs_sched_entity entity, ecs_sched_id id);

/*@@ implementation @@*/
/* inherit: bases and instances.

   An instance keeps its bases twice: as IsA relationships (relation.h: the lists of instances
   of a base, the refusal to despawn a base in use), and in its table's type, where each base
   has a tag of its own, its mark, made when it first becomes a base. Instances of different
   bases therefore live in different tables, so that a base's value is one value for a whole
   table: a query hands it out once per table (a shared field), and finds it once per table
   per iteration, whatever the number of rows. Queries that do not ask for inherited values
   match as before, and pay nothing. */

typedef struct ecs_sched__base {
    ecs_sched_entity entity;        /* the base this id marks (0: the id is not a mark) */
    ecs_sched_id *auto_ids;         /* copied into each new instance */
    uint32_t auto_count;
    uint32_t auto_capacity;
    /* the tables its instances are made in (root, child), worked out while the base was in
       table made_from and auto-overrides were at auto_version */
    ecs_sched__table *made[2];
    ecs_sched__table *made_from;
    uint32_t auto_version;
} ecs_sched__base;

typedef struct ecs_sched__inheritance ecs_sched__inheritance;

/* The part of the world this module keeps (registry.h). */
static ecs_sched__part_key ecs_sched__inheritance_key;

struct ecs_sched__inheritance {
    ecs_sched__base *by_id;         /* by component id, below capacity */
    uint32_t capacity;
    ecs_sched_id first_mark;        /* no smaller id is a mark */
    uint32_t auto_version;          /* moves on with every auto-override */
    ecs_sched__map mark_of;         /* base entity (the whole handle) -> its mark */
};

static inline ecs_sched__inheritance *ecs_sched__inheritance_of(const ecs_sched_world *w) {
    return (ecs_sched__inheritance *)ecs_sched__part(w, &ecs_sched__inheritance_key);
}

ecs_sched_id ecs_sched_is_a(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return w->is_a;
}

/* What inheritance does as IsA relationships are made and taken away: the hooks this module
   installs in the kind (relation.h). */
static void ecs_sched__is_a_attach(ecs_sched_world *w, ecs_sched_id is_a);

/* For world.h: IsA is registered with the world. */
static ecs_sched_id ecs_sched__register_is_a(ecs_sched_world *w) {
    ecs_sched_relation_desc d;
    ecs_sched_id id;
    memset(&d, 0, sizeof d);
    d.name = ECS_SCHED__IS_A_NAME;
    d.acyclic = true;
    d.on_target_despawn = ECS_SCHED_TARGET_REFUSE;
    id = ecs_sched_relation_register(w, &d);
    if (id) ecs_sched__is_a_attach(w, id);
    return id;
}

/* ---- marks ---- */

/* The base an id marks, or 0. */
static inline ecs_sched_entity ecs_sched__mark_base(const ecs_sched_world *w, ecs_sched_id id) {
    const ecs_sched__inheritance *h = ecs_sched__inheritance_of(w);
    return h && id < h->capacity && id >= h->first_mark ? h->by_id[id].entity : 0;
}

static ecs_sched_id ecs_sched__base_mark(const ecs_sched_world *w, ecs_sched_entity base) {
    uint32_t id;
    if (!ecs_sched__inheritance_of(w)) return 0;
    id = ecs_sched__map_get(&ecs_sched__inheritance_of(w)->mark_of, base);
    return id == ECS_SCHED__NONE ? 0 : (ecs_sched_id)id;
}

/* The core's hook (see registry.h): what a table's entities inherit, once the world has had
   a base (a restore may have taken its bases away since). */
static void *ecs_sched__inherited_hook(const ecs_sched_world *w, const ecs_sched__table *t,
                                       ecs_sched_id id, bool *found);

static void ecs_sched__base_value_hook(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id,
                                       int event);

/* The base's mark, made on first use; 0 when out of memory. */
static ecs_sched_id ecs_sched__base_mark_make(ecs_sched_world *w, ecs_sched_entity base) {
    ecs_sched__inheritance *h = ecs_sched__inheritance_of(w);
    char name[64];
    ecs_sched_id id = ecs_sched__base_mark(w, base);
    uint32_t had;
    if (id) return id;
    if (!h) {
        h = (ecs_sched__inheritance *)ecs_sched__calloc(&w->env, sizeof *h);
        if (!h) return 0;
        ecs_sched__part_set(w, &ecs_sched__inheritance_key, h);
        w->hooks.inherited_value = ecs_sched__inherited_hook;
        w->hooks.base_value = ecs_sched__base_value_hook;
    }
    snprintf(name, sizeof name, "ecs_sched.IsA(entity %u.%u)", (unsigned)ECS_SCHED_ENTITY_INDEX(base),
             (unsigned)ECS_SCHED_ENTITY_GENERATION(base));
    id = ecs_sched_component_register_type(w, name, 0, 0);
    if (!id || !ecs_sched__map_reserve(&w->env, &h->mark_of, 1)) return 0;
    had = h->capacity;
    if (id >= had) {
        if (!ECS_SCHED__GROW(&w->env, h->by_id, &h->capacity, id + 1)) return 0;
        memset(h->by_id + had, 0, (h->capacity - had) * sizeof *h->by_id);
    }
    if (!h->first_mark || id < h->first_mark) h->first_mark = id;
    h->by_id[id].entity = base;
    w->components[id].managed = true;
    ecs_sched__map_insert_unchecked(&h->mark_of, base, id);
    return id;
}

/* What a base shares: its components, but not relationships, the hidden tags (an instance of
   a prefab is no prefab) or marks. */
static bool ecs_sched__inheritable(const ecs_sched_world *w, ecs_sched_id id) {
    return !w->components[id].relation && id != w->prefab && id != w->disabled &&
           !ecs_sched__mark_base(w, id);
}

/* ---- finding a base's value ---- */

static inline const ecs_sched__table *ecs_sched__table_of(const ecs_sched_world *w,
                                                         ecs_sched_entity e) {
    return w->tables[w->records[ECS_SCHED_ENTITY_INDEX(e)].table];
}

/* The first base exactly `depth` IsA steps above table t's entities (its marks in type order,
   depth first) that owns `id`; *deeper says whether any base is that far up. */
static ecs_sched_entity ecs_sched__base_at(const ecs_sched_world *w, const ecs_sched__table *t,
                                           ecs_sched_id id, int32_t depth, bool *deeper) {
    int32_t i;
    for (i = t->type_count - 1; i >= 0 && t->type[i] >= ecs_sched__inheritance_of(w)->first_mark; i--) {}
    for (i++; i < t->type_count; i++) {
        ecs_sched_entity base = ecs_sched__mark_base(w, t->type[i]), found;
        const ecs_sched__table *bt;
        /* the mark of a base despawned since lingers in empty tables */
        if (!base || !ecs_sched__is_live_record(w, base)) continue;
        bt = ecs_sched__table_of(w, base);
        if (depth == 1) {
            *deeper = true;
            if (ecs_sched__type_find(bt, id) >= 0) return base;
            continue;
        }
        found = ecs_sched__base_at(w, bt, id, depth - 1, deeper);
        if (found) return found;
    }
    return 0;
}

/* The nearest base of table t's entities owning `id`: the fewest IsA steps up, and among
   bases as far up, the first found walking the bases in the order of their marks (the order
   they became bases), each base's own bases in the same order. */
static ecs_sched_entity ecs_sched__nearest_base(const ecs_sched_world *w,
                                                const ecs_sched__table *t, ecs_sched_id id) {
    int32_t depth;
    if (!ecs_sched__inheritance_of(w) || ecs_sched__type_find(t, w->is_a) < 0 || !ecs_sched__inheritable(w, id)) {
        return 0;
    }
    for (depth = 1;; depth++) {
        bool deeper = false;
        ecs_sched_entity found = ecs_sched__base_at(w, t, id, depth, &deeper);
        if (found || !deeper) return found;
    }
}

/* The value of `id` the entities of table t inherit, or NULL (also for a tag: see *found). */
static void *ecs_sched__inherited_value(const ecs_sched_world *w, const ecs_sched__table *t,
                                        ecs_sched_id id, bool *found) {
    ecs_sched_entity base = ecs_sched__nearest_base(w, t, id);
    const ecs_sched__record *r;
    int32_t column;
    *found = base != 0;
    if (!base) return NULL;
    r = &w->records[ECS_SCHED_ENTITY_INDEX(base)];
    column = ecs_sched__column_find(w->tables[r->table], id);
    return column < 0 ? NULL : ecs_sched__cell(w->tables[r->table], column, r->row);
}

static void *ecs_sched__inherited_hook(const ecs_sched_world *w, const ecs_sched__table *t,
                                       ecs_sched_id id, bool *found) {
    if (!ecs_sched__inheritance_of(w)) {
        *found = false;
        return NULL;
    }
    return ecs_sched__inherited_value(w, t, id, found);
}

bool ecs_sched_owns(const ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__is_live_record(w, e) && ecs_sched__component_valid(w, id) &&
           ecs_sched__owns(w, ecs_sched__table_of(w, e), ECS_SCHED_ENTITY_INDEX(e), id);
}

ecs_sched_entity ecs_sched_owner(const ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    const ecs_sched__table *t;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__is_live_record(w, e) || !ecs_sched__component_valid(w, id)) return 0;
    t = ecs_sched__table_of(w, e);
    return ecs_sched__owns(w, t, ECS_SCHED_ENTITY_INDEX(e), id) ? e : ecs_sched__nearest_base(w, t, id);
}

/* ---- what instances see change: ON_SET and ON_UNSET ---- */

/* Calls `event` for component id on every instance of `base` (through further bases too)
   whose value of id is the one `owner` has: the manual's second edge case of OnSet (a base
   that loses a value its instances show: ON_UNSET before it goes), and its converse (a base
   that gains one they did not own: ON_SET). */
static void ecs_sched__instances_hear(ecs_sched_world *w, ecs_sched_entity base,
                                      ecs_sched_entity owner, ecs_sched_id id,
                                      ecs_sched_observer_event event, int32_t depth) {
    ecs_sched_id mark = ecs_sched__base_mark(w, base);
    uint32_t i;
    if (!mark || depth > 64) return;
    for (i = 0; i < w->table_count; i++) {
        const ecs_sched__table *t = w->tables[i];
        int32_t row;
        if (ecs_sched__type_find(t, mark) < 0 || ecs_sched__type_find(t, id) >= 0) continue;
        for (row = 0; row < t->count; row++) {
            ecs_sched_entity instance = t->entities[row];
            if (ecs_sched__nearest_base(w, t, id) != owner) continue;
            ecs_sched__observe(w, event, instance, id);
            ecs_sched__instances_hear(w, instance, owner, id, event, depth + 1);
            t = w->tables[i];   /* (observers defer what they change: the table stays) */
        }
    }
}

/* The core's hook (registry.h): base e gains or is about to lose its own value of id. */
static void ecs_sched__base_value_hook(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id,
                                       int event) {
    if (!ecs_sched__inheritable(w, id) || !ecs_sched__watched(w, id, (ecs_sched_observer_event)event)) {
        return;
    }
    ecs_sched__instances_hear(w, e, e, id, (ecs_sched_observer_event)event, 0);
}

/* Instance `source` gains (ON_SET, after) or is about to lose (ON_UNSET) `base`: it hears
   of each value it sees from that base and does not own. */
static void ecs_sched__instance_hears_base(ecs_sched_world *w, ecs_sched_entity source,
                                           ecs_sched_entity base, ecs_sched_observer_event event) {
    const ecs_sched__table *bt;
    ecs_sched_id ids[ECS_SCHED__MAX_TYPE];
    int32_t i, n;
    if (!w->observed || !ecs_sched__is_live_record(w, base)) return;
    bt = ecs_sched__table_of(w, base);
    n = bt->type_count;
    memcpy(ids, bt->type, (size_t)n * sizeof *ids);
    for (i = 0; i < n; i++) {
        const ecs_sched__table *t = ecs_sched__table_of(w, source);
        if (!ecs_sched__inheritable(w, ids[i]) || !ecs_sched__watched(w, ids[i], event) ||
            ecs_sched__type_find(t, ids[i]) >= 0 || ecs_sched__nearest_base(w, t, ids[i]) != base) {
            continue;
        }
        ecs_sched__observe(w, event, source, ids[i]);
    }
}

/* ---- auto-override ---- */

ecs_sched_result ecs_sched_auto_override(ecs_sched_world *w, ecs_sched_entity base,
                                         ecs_sched_id id) {
    ecs_sched__base *b;
    ecs_sched_id mark;
    uint32_t i;
    ECS_SCHED__CHECK_WORLD(w);
    if (ecs_sched__change_refused(w, "auto_override")) return ECS_SCHED_ERR_ACCESS;
    if (!ecs_sched__is_live_record(w, base)) return ecs_sched__stale(w, base, "auto_override");
    if (!ecs_sched__component_valid(w, id)) return ecs_sched__unknown_component(w, id, "auto_override");
    if (!ecs_sched__inheritable(w, id)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "auto_override: '%s' is not inherited (relationships, the "
                               "Prefab and Disabled tags and bases' marks never are), so "
                               "instances have nothing to copy", w->components[id].name);
    }
    if (!ecs_sched_owner(w, base, id)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_MISSING_COMPONENT,
                               "auto_override: %s has no component '%s' (neither its own nor "
                               "inherited) for its instances to copy; insert it first",
                               ecs_sched__entity_label(w, base).text, w->components[id].name);
    }
    mark = ecs_sched__base_mark_make(w, base);
    if (!mark) return ecs_sched__out_of_memory(w, "making an entity a base");
    b = &ecs_sched__inheritance_of(w)->by_id[mark];
    for (i = 0; i < b->auto_count; i++) {
        if (b->auto_ids[i] == id) return ECS_SCHED_OK;
    }
    if (!ECS_SCHED__GROW(&w->env, b->auto_ids, &b->auto_capacity, b->auto_count + 1)) {
        return ecs_sched__out_of_memory(w, "marking a component to override");
    }
    b->auto_ids[b->auto_count++] = id;
    ecs_sched__inheritance_of(w)->auto_version++;
    return ECS_SCHED_OK;
}

/* Adds to ids (n so far, at most `capacity`) the auto-overrides of table t's bases, theirs in
   turn, each id once; returns the new count. */
static int32_t ecs_sched__gather_auto(const ecs_sched_world *w, const ecs_sched__table *t,
                                      ecs_sched_id *ids, int32_t n, int32_t capacity) {
    int32_t i, k;
    uint32_t a;
    if (!ecs_sched__inheritance_of(w)) return n;
    for (i = 0; i < t->type_count; i++) {
        ecs_sched_entity base = ecs_sched__mark_base(w, t->type[i]);
        const ecs_sched__base *b;
        if (!base) continue;
        b = &ecs_sched__inheritance_of(w)->by_id[t->type[i]];
        for (a = 0; a < b->auto_count && n < capacity; a++) {
            for (k = 0; k < n && ids[k] != b->auto_ids[a]; k++) {}
            if (k == n) ids[n++] = b->auto_ids[a];
        }
        n = ecs_sched__gather_auto(w, ecs_sched__table_of(w, base), ids, n, capacity);
    }
    return n;
}

/* ---- relating to a base (relation.h's side) ---- */

/* Before source relates to base with IsA: the base's mark exists. */
static ecs_sched_result ecs_sched__isa_prepare(ecs_sched_world *w, ecs_sched_entity base) {
    return ecs_sched__base_mark_make(w, base) ? ECS_SCHED_OK
                                          : ecs_sched__out_of_memory(w, "making an entity a base");
}

/* The table source moves to when it relates to base: with the base's mark, and with IsA unless
   it has it already. */
static ecs_sched__table *ecs_sched__isa_table(ecs_sched_world *w, ecs_sched__table *from,
                                              ecs_sched_entity base) {
    ecs_sched__table *t = from;
    if (ecs_sched__type_find(t, w->is_a) < 0) t = ecs_sched__table_step(w, t, w->is_a, false);
    return t ? ecs_sched__table_step(w, t, ecs_sched__base_mark(w, base), false) : NULL;
}

/* What `base` and its own bases mark to override, each id once. */
static int32_t ecs_sched__auto_of(const ecs_sched_world *w, ecs_sched_entity base,
                                  ecs_sched_id *ids, int32_t capacity) {
    const ecs_sched__base *b = &ecs_sched__inheritance_of(w)->by_id[ecs_sched__base_mark(w, base)];
    int32_t n = 0, k;
    uint32_t a;
    for (a = 0; a < b->auto_count && n < capacity; a++) {
        for (k = 0; k < n && ids[k] != b->auto_ids[a]; k++) {}
        if (k == n) ids[n++] = b->auto_ids[a];
    }
    return ecs_sched__gather_auto(w, ecs_sched__table_of(w, base), ids, n, capacity);
}

/* ---- an instance's copies of its base's sparse values (room first, then the copies) ---- */

/* Whether set s gives an instance related to `base` a copy: the base has it, the instance not. */
static bool ecs_sched__sparse_base_gives(const ecs_sched__sparse_set *s, uint32_t instance,
                                         uint32_t base) {
    return ecs_sched__sparse_slot(s, base) && !ecs_sched__sparse_slot(s, instance);
}

/* Room for an instance's copies of its base's sparse
   components. */
static bool ecs_sched__sparse_base_reserve(ecs_sched_world *w, ecs_sched_entity instance,
                                           ecs_sched_entity base) {
    uint32_t i, to = ECS_SCHED_ENTITY_INDEX(instance), from = ECS_SCHED_ENTITY_INDEX(base);
    for (i = 0; i < w->sparse_count; i++) {
        ecs_sched__sparse_set *s = &w->sparse_sets[i];
        if (ecs_sched__sparse_base_gives(s, to, from) && !ecs_sched__sparse_reserve_set(w, s, 1, to + 1)) {
            return false;
        }
    }
    return true;
}

/* The copies, room reserved (an instance owns a
   copy: sparse components are never inherited). */
static void ecs_sched__sparse_base_copy(ecs_sched_world *w, ecs_sched_entity instance,
                                        ecs_sched_entity base) {
    uint32_t i, to = ECS_SCHED_ENTITY_INDEX(instance), from = ECS_SCHED_ENTITY_INDEX(base);
    for (i = 0; i < w->sparse_count; i++) {
        ecs_sched__sparse_set *s = &w->sparse_sets[i];
        if (!ecs_sched__sparse_base_gives(s, to, from)) continue;
        ecs_sched__sparse_put(w, s, instance, ecs_sched__sparse_value(w, s->id, from));
    }
}

/* After source related to base: it owns a copy of what its new base marks to override (and
   the base's bases), and of the base's sparse components (never inherited), unless it owns
   it already. */
static ecs_sched_result ecs_sched__isa_copy_overrides(ecs_sched_world *w, ecs_sched_entity source,
                                                      ecs_sched_entity base) {
    ecs_sched_id auto_ids[ECS_SCHED__MAX_TYPE], ids[ECS_SCHED__MAX_TYPE];
    const void *values[ECS_SCHED__MAX_TYPE];
    const ecs_sched__table *t = ecs_sched__table_of(w, source);
    int32_t n = ecs_sched__auto_of(w, base, auto_ids, ECS_SCHED__MAX_TYPE), i, count = 0;
    ecs_sched_result result = ECS_SCHED_OK;
    if (w->sparse_count && !ecs_sched__sparse_base_reserve(w, source, base)) {
        return ecs_sched__out_of_memory(w, "copying a base's sparse components");
    }
    for (i = 0; i < n; i++) {
        bool found;
        const void *value;
        if (ecs_sched__type_find(t, auto_ids[i]) >= 0) continue;
        value = ecs_sched__inherited_value(w, t, auto_ids[i], &found);
        if (!found) continue;
        ids[count] = auto_ids[i];
        values[count++] = value;
    }
    if (count) result = ecs_sched_insert_many(w, source, count, ids, values);
    if (result == ECS_SCHED_OK && w->sparse_count) ecs_sched__sparse_base_copy(w, source, base);
    if (result == ECS_SCHED_OK) ecs_sched__instance_hears_base(w, source, base, ECS_SCHED_ON_SET);
    return result;
}

/* After source stopped relating to base: its mark goes. */
static bool ecs_sched__isa_dropped(ecs_sched_world *w, ecs_sched_entity source,
                                   ecs_sched_entity base) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(source);
    ecs_sched__table *src = w->tables[w->records[index].table], *dst;
    ecs_sched_id mark = ecs_sched__base_mark(w, base);
    if (!mark || ecs_sched__type_find(src, mark) < 0) return true;
    ecs_sched__instance_hears_base(w, source, base, ECS_SCHED_ON_UNSET);
    src = w->tables[w->records[index].table];
    dst = ecs_sched__table_step(w, src, mark, true);
    return dst && ecs_sched__move_entity(w, index, dst);
}

/* ---- instantiating ---- */

/* An entry of prefab data (prefab.h): its parent entry, name and values. */
typedef struct ecs_sched__entry_value {
    ecs_sched_id id;
    unsigned char *data;            /* a constructed copy; NULL for a tag */
    uint32_t layouts;               /* the world's layout_changes when it was set (script.h) */
} ecs_sched__entry_value;

typedef struct ecs_sched__entry {
    int32_t parent;                 /* -1: none */
    char *name;
    ecs_sched__entry_value *values;
    uint32_t count;
    uint32_t capacity;
} ecs_sched__entry;

/* One entity to make: an instance of a prefab entity, or of an entry of prefab data; or, for
   the main entry of prefab data, an entity that is there already and gains the values. */
typedef struct ecs_sched__copy {
    ecs_sched_entity prefab;        /* an instance of it (IsA), or 0 */
    const ecs_sched__entry *entry;  /* or the values of this entry */
    ecs_sched_entity made;
    int32_t parent;                 /* index of its parent's copy; -1 for none */
    bool live;                      /* `made` is alive already: it moves to `table` */
    uint32_t children;              /* copies whose parent it is */
    ecs_sched__table *table;
    char *name;
} ecs_sched__copy;

typedef struct ecs_sched__instancing {
    ecs_sched__copy *copies;
    uint32_t capacity;
    int32_t count;
    int32_t taken;                  /* copies given a handle so far */
} ecs_sched__instancing;

/* ---- what the copies give of sparse components ---- */

/* Whether copy c gives its entity the component of set s: an entry that lists it, or an
   instance of a prefab entity that has it (an instance owns a copy: sparse components are
   never inherited). */
static bool ecs_sched__copy_gives(const ecs_sched__copy *c, const ecs_sched__sparse_set *s) {
    uint32_t v;
    if (c->prefab) return ecs_sched__sparse_slot(s, ECS_SCHED_ENTITY_INDEX(c->prefab)) != 0;
    for (v = 0; v < c->entry->count; v++) {
        if (c->entry->values[v].id == s->id) return true;
    }
    return false;
}

/* Room in every set for what the copies give,
   their indices below `bound`. */
static bool ecs_sched__sparse_instancing_reserve(ecs_sched_world *w, const ecs_sched__instancing *in,
                                                 uint32_t bound) {
    uint32_t i;
    int32_t k;
    for (i = 0; i < w->sparse_count; i++) {
        ecs_sched__sparse_set *s = &w->sparse_sets[i];
        uint32_t n = 0;
        for (k = 0; k < in->count; k++) n += ecs_sched__copy_gives(&in->copies[k], s);
        if (n && !ecs_sched__sparse_reserve_set(w, s, n, bound)) return false;
    }
    return true;
}

/* The copies, placed, take their sparse values. */
static void ecs_sched__sparse_instancing_place(ecs_sched_world *w, const ecs_sched__instancing *in) {
    uint32_t i, v;
    int32_t k;
    for (k = 0; k < in->count; k++) {
        const ecs_sched__copy *c = &in->copies[k];
        for (i = 0; i < w->sparse_count; i++) {
            ecs_sched__sparse_set *s = &w->sparse_sets[i];
            const void *value = NULL;
            if (!ecs_sched__copy_gives(c, s)) continue;
            if (c->prefab) {
                value = ecs_sched__sparse_value(w, s->id, ECS_SCHED_ENTITY_INDEX(c->prefab));
            } else {
                for (v = 0; v < c->entry->count; v++) {
                    if (c->entry->values[v].id == s->id) value = c->entry->values[v].data;
                }
            }
            ecs_sched__sparse_put(w, s, c->made, value);
        }
    }
}

static void ecs_sched__instancing_free(ecs_sched_world *w, ecs_sched__instancing *in) {
    int32_t i;
    for (i = 0; i < in->count; i++) ecs_sched__free(&w->env, in->copies[i].name);
    ecs_sched__free(&w->env, in->copies);
}

/* Appends the children of entry `parent` and their subtrees, depth first; false when out of
   memory. */
static bool ecs_sched__instancing_add_children(ecs_sched_world *w, ecs_sched__instancing *in,
                                               int32_t parent) {
    int32_t n, i;
    const ecs_sched_entity *children = ecs_sched_children(w, in->copies[parent].prefab, &n);
    for (i = 0; i < n; i++) {
        ecs_sched__copy *c;
        const char *name = ecs_sched__entity_name_of(w, children[i]);
        if (!ECS_SCHED__GROW(&w->env, in->copies, &in->capacity, (uint32_t)in->count + 1)) return false;
        c = &in->copies[in->count++];
        memset(c, 0, sizeof *c);
        c->prefab = children[i];
        c->parent = parent;
        if (name && !(c->name = ecs_sched__strdup(&w->env, name))) return false;
        if (!ecs_sched__instancing_add_children(w, in, in->count - 1)) return false;
    }
    return true;
}

/* The prefab's subtree, depth first, each entry with the index of its parent's entry. */
static ecs_sched_result ecs_sched__instancing_plan(ecs_sched_world *w, ecs_sched_entity prefab,
                                                   ecs_sched__instancing *in) {
    memset(in, 0, sizeof *in);
    if (!ECS_SCHED__GROW(&w->env, in->copies, &in->capacity, 16)) {
        return ecs_sched__out_of_memory(w, "instantiating a prefab");
    }
    memset(&in->copies[0], 0, sizeof in->copies[0]);
    in->copies[0].prefab = prefab;
    in->copies[0].parent = -1;
    in->count = 1;
    return ecs_sched__instancing_add_children(w, in, 0) ? ECS_SCHED_OK
                                                        : ecs_sched__out_of_memory(w, "instantiating a prefab");
}

/* The table an instance of prefab is placed in (below a parent or not): IsA, the prefab's
   mark, ChildOf, and a copy of what the prefab and its bases mark to override that the
   prefab still sees. Kept with the prefab's mark while the prefab stays in its table and no
   auto-override changes, when the prefab owns all those components itself (what it inherits
   could change with no sign on it). */
static ecs_sched__table *ecs_sched__instance_table(ecs_sched_world *w, ecs_sched_entity prefab,
                                                   bool child) {
    ecs_sched_id ids[ECS_SCHED__MAX_TYPE], mark = ecs_sched__base_mark_make(w, prefab);
    ecs_sched__table *t, *from = w->tables[w->records[ECS_SCHED_ENTITY_INDEX(prefab)].table];
    ecs_sched__base *b;
    int32_t n, k;
    bool keep = true;
    if (!mark) {
        ecs_sched__out_of_memory(w, "making an entity a base");
        return NULL;
    }
    b = &ecs_sched__inheritance_of(w)->by_id[mark];
    if (b->made_from == from && b->auto_version == ecs_sched__inheritance_of(w)->auto_version && b->made[child]) {
        return b->made[child];
    }
    t = ecs_sched__isa_table(w, w->tables[0], prefab);
    if (t && child) t = ecs_sched__table_step(w, t, w->child_of, false);
    if (!t) return NULL;
    n = ecs_sched__gather_auto(w, t, ids, 0, ECS_SCHED__MAX_TYPE);
    for (k = 0; k < n; k++) {
        if (ecs_sched__type_find(from, ids[k]) >= 0) continue;
        keep = false;
        if (!ecs_sched_owner(w, prefab, ids[k])) ids[k--] = ids[--n];   /* no longer seen */
    }
    t = ecs_sched__table_adding(w, t, n, ids);
    if (!t || !keep) return t;
    if (b->made_from != from || b->auto_version != ecs_sched__inheritance_of(w)->auto_version) {
        b->made[0] = b->made[1] = NULL;
        b->made_from = from;
        b->auto_version = ecs_sched__inheritance_of(w)->auto_version;
    }
    b->made[child] = t;
    return t;
}

static ecs_sched_result ecs_sched__instancing_tables(ecs_sched_world *w, ecs_sched__instancing *in) {
    int32_t i;
    for (i = 0; i < in->count; i++) {
        in->copies[i].table = ecs_sched__instance_table(w, in->copies[i].prefab, in->copies[i].parent >= 0);
        if (!in->copies[i].table) return w->env.last_result;
    }
    return ECS_SCHED_OK;
}

/* Everything placing the copies allocates, allocated first: rows, handles (taken now,
   reserved until placed), the lists of sources, names. The root takes `root` when it is a
   handle a command buffer reserved. */
/* Room in each table for the copies placed in it, the main entity's move included (the
   tables counted in one pass: few tables for many copies). */
static bool ecs_sched__instancing_rows(ecs_sched_world *w, const ecs_sched__instancing *in) {
    typedef struct { ecs_sched__table *table; int32_t rows; } per_table;
    per_table *tables = (per_table *)ecs_sched__alloc(&w->env, (size_t)in->count * sizeof *tables);
    int32_t i, k, n = 0;
    bool ok = tables != NULL;
    for (i = 0; ok && i < in->count; i++) {
        for (k = n - 1; k >= 0 && tables[k].table != in->copies[i].table; k--) {}
        if (k < 0) {
            k = n++;
            tables[k].table = in->copies[i].table;
            tables[k].rows = 0;
        }
        tables[k].rows++;
    }
    for (k = 0; ok && k < n; k++) ok = ecs_sched__table_reserve(w, tables[k].table, tables[k].rows);
    ecs_sched__free(&w->env, tables);
    return ok;
}

static bool ecs_sched__instancing_reserve(ecs_sched_world *w, ecs_sched__instancing *in,
                                          ecs_sched_entity root) {
    int32_t i, named = 0;
    uint32_t top = 0;
    if (!ecs_sched__instancing_rows(w, in)) return false;
    for (i = 0; i < in->count; i++) {
        if (in->copies[i].prefab && !ecs_sched__sources_reserve(w, w->is_a, in->copies[i].prefab, 1)) {
            return false;
        }
        named += in->copies[i].name != NULL;
        in->copies[i].children = 0;
    }
    for (i = 0; i < in->count; i++) {
        if (in->copies[i].parent >= 0) in->copies[in->copies[i].parent].children++;
    }
    if (!ecs_sched__reserve_indices(w, (uint32_t)in->count)) return false;
    for (i = 0; i < in->count; i++) {
        uint32_t index = i == 0 && root ? ECS_SCHED_ENTITY_INDEX(root) : ecs_sched__take_index(w);
        if (i > 0 || !root) w->records[index].table = ECS_SCHED__RESERVED;
        in->copies[i].live = i == 0 && root && w->records[index].table != ECS_SCHED__RESERVED;
        in->copies[i].made = ecs_sched__make_entity(index, w->records[index].generation);
        in->taken = i + 1;
        if (index > top) top = index;
    }
    if (w->sparse_count && !ecs_sched__sparse_instancing_reserve(w, in, top + 1u)) return false;
    for (i = 0; i < in->count; i++) {   /* parents may come after their children */
        if (in->copies[i].children &&
            !ecs_sched__sources_reserve(w, w->child_of, in->copies[i].made, in->copies[i].children)) {
            return false;
        }
    }
    return !named || (ecs_sched__names_reserve(w, top) &&
                      ecs_sched__name_slots_reserve(&w->env, ecs_sched__names_of(w), (uint32_t)named));
}

/* Gives back the handles taken for a failed instantiation (but not a buffer's, nor the main
   entity's). */
static void ecs_sched__instancing_release(ecs_sched_world *w, ecs_sched__instancing *in,
                                          ecs_sched_entity root) {
    int32_t i;
    for (i = in->taken - 1; i >= 0; i--) {
        if (i == 0 && root) continue;
        ecs_sched__release_index(w, ECS_SCHED_ENTITY_INDEX(in->copies[i].made));
    }
}

/* What entity e sees of id: its own value or its nearest base's (NULL for a tag). */
static const void *ecs_sched__seen_value(const ecs_sched_world *w, ecs_sched_entity e,
                                         ecs_sched_id id) {
    const ecs_sched__record *r = &w->records[ECS_SCHED_ENTITY_INDEX(e)];
    const ecs_sched__table *t = w->tables[r->table];
    int32_t column = ecs_sched__column_find(t, id);
    bool found;
    if (column >= 0) return ecs_sched__cell(t, column, r->row);
    return ecs_sched__inherited_value(w, t, id, &found);
}

/* Places the copies (nothing fails any more) and tells the observers. */
/* The value copy c gives component id (NULL: a default value, or a tag). */
static const void *ecs_sched__copy_value_of(const ecs_sched_world *w, const ecs_sched__copy *c,
                                            ecs_sched_id id) {
    uint32_t v;
    if (c->prefab) return ecs_sched__seen_value(w, c->prefab, id);
    for (v = 0; v < c->entry->count; v++) {
        if (c->entry->values[v].id == id) return c->entry->values[v].data;
    }
    return NULL;
}

/* The main entity of prefab data takes its entry's values: one move, then the values
   written (assigned over what it had). */
static void ecs_sched__copy_onto_live(ecs_sched_world *w, const ecs_sched__copy *c) {
    ecs_sched_id ids[ECS_SCHED__MAX_TYPE];
    const void *values[ECS_SCHED__MAX_TYPE];
    uint32_t index = ECS_SCHED_ENTITY_INDEX(c->made), v;
    const ecs_sched__table *before = w->tables[w->records[index].table];
    int32_t n = 0;
    for (v = 0; v < c->entry->count; v++) {
        ids[n] = c->entry->values[v].id;
        values[n++] = c->entry->values[v].data;
    }
    if (c->table != before) ecs_sched__move_entity(w, index, c->table);
    ecs_sched__write_values(w, index, before, n, ids, values);
}

/* Names copy c's entity (the names have room). */
static void ecs_sched__copy_name(ecs_sched_world *w, ecs_sched__copy *c, ecs_sched_entity scope) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(c->made);
    ecs_sched__entity_name *r = &ecs_sched__names_of(w)->by_index[index];
    if (r->text) {   /* the main entity had a name */
        ecs_sched__name_unfile(ecs_sched__names_of(w), index);
        ecs_sched__free(&w->env, r->text);
    }
    r->text = c->name;
    c->name = NULL;
    ecs_sched__name_file(ecs_sched__names_of(w), c->made, scope);
    w->linked = true;
}

static void ecs_sched__observe_copy(ecs_sched_world *w, const ecs_sched__instancing *in,
                                    const ecs_sched__copy *c, const ecs_sched__table *before) {
    ecs_sched_id ids[ECS_SCHED__MAX_TYPE];
    int32_t n = 0, k;
    for (k = 0; c->live && k < (int32_t)c->entry->count; k++) ids[n++] = c->entry->values[k].id;
    for (k = 0; !c->live && k < c->table->type_count; k++) {
        ecs_sched_id id = c->table->type[k];
        if (!w->components[id].relation && !ecs_sched__mark_base(w, id)) ids[n++] = id;
    }
    ecs_sched__observe_inserted(w, c->made, before, n, ids);
    if (c->prefab) {
        ecs_sched__observe_relation(w, ECS_SCHED_ON_ADD, c->made, w->is_a, c->prefab);
        ecs_sched__observe_relation(w, ECS_SCHED_ON_INSERT, c->made, w->is_a, c->prefab);
    }
    if (c->parent >= 0) {
        ecs_sched__observe_relation(w, ECS_SCHED_ON_ADD, c->made, w->child_of,
                                    in->copies[c->parent].made);
        ecs_sched__observe_relation(w, ECS_SCHED_ON_INSERT, c->made, w->child_of,
                                    in->copies[c->parent].made);
    }
}

/* Places the copies (nothing fails any more) and tells the observers. */
static void ecs_sched__instancing_place(ecs_sched_world *w, ecs_sched__instancing *in) {
    const ecs_sched__table *live_before = NULL;
    int32_t i, k;
    for (i = 0; i < in->count; i++) {
        ecs_sched__copy *c = &in->copies[i];
        ecs_sched_id ids[ECS_SCHED__MAX_TYPE];
        const void *values[ECS_SCHED__MAX_TYPE];
        ecs_sched_entity parent = c->parent >= 0 ? in->copies[c->parent].made : 0;
        uint32_t index = ECS_SCHED_ENTITY_INDEX(c->made);
        int32_t n = 0;
        if (c->live) {
            live_before = w->tables[w->records[index].table];
            ecs_sched__copy_onto_live(w, c);
            if (c->name) ecs_sched__copy_name(w, c, ecs_sched_parent_of(w, c->made));
            continue;
        }
        for (k = 0; k < c->table->type_count; k++) {
            ecs_sched_id id = c->table->type[k];
            ids[n] = id;
            if (id == w->is_a) values[n++] = &c->prefab;
            else if (id == w->child_of) values[n++] = &in->copies[c->parent].made;
            else if (ecs_sched__mark_base(w, id)) values[n++] = NULL;
            else values[n++] = ecs_sched__copy_value_of(w, c, id);
        }
        ecs_sched__place(w, index, c->table, n, ids, values);
        if (c->prefab) ecs_sched__link(w, w->is_a, c->made, c->prefab, UINT32_MAX);
        if (parent) ecs_sched__link(w, w->child_of, c->made, parent, UINT32_MAX);
        if (c->name) ecs_sched__copy_name(w, c, parent);
    }
    for (i = 0; w->observed && i < in->count; i++) {
        ecs_sched__observe_copy(w, in, &in->copies[i], in->copies[i].live ? live_before : NULL);
    }
    if (w->sparse_count) ecs_sched__sparse_instancing_place(w, in);
}

/* Instantiates a checked, live prefab; the root takes `root` when it is not 0 (a handle a
   command buffer reserved). */
static ecs_sched_entity ecs_sched__instantiate_checked(ecs_sched_world *w, ecs_sched_entity prefab,
                                                       ecs_sched_entity root) {
    ecs_sched__instancing in;
    ecs_sched_entity made = 0;
    ecs_sched_result result = ecs_sched__instancing_plan(w, prefab, &in);
    if (result == ECS_SCHED_OK) result = ecs_sched__instancing_tables(w, &in);
    if (result == ECS_SCHED_OK && !ecs_sched__instancing_reserve(w, &in, root)) {
        ecs_sched__instancing_release(w, &in, root);
        result = ecs_sched__indices_refused(w, (uint32_t)in.count, "instantiating a prefab");
    }
    if (result == ECS_SCHED_OK) {
        ecs_sched__instancing_place(w, &in);
        made = in.copies[0].made;
    }
    ecs_sched__instancing_free(w, &in);
    if (w->observed) ecs_sched__observers_flush(w);
    return made;
}

ecs_sched_entity ecs_sched_instantiate(ecs_sched_world *w, ecs_sched_entity prefab) {
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observed && ecs_sched__deferring(w)) {
        return ecs_sched_commands_instantiate(ecs_sched__deferring(w), prefab);
    }
    if (ecs_sched__change_refused(w, "instantiate")) return ECS_SCHED_NULL_ENTITY;
    if (!ecs_sched__is_live_record(w, prefab)) {
        ecs_sched__stale(w, prefab, "instantiate (the prefab)");
        return ECS_SCHED_NULL_ENTITY;
    }
    return ecs_sched__instantiate_checked(w, prefab, 0);
}

/* Applies a recorded instantiation of the prefab into the handle the buffer reserved
   (ecs_sched__command_fn). False when the prefab is gone (the command is skipped). */
static bool ecs_sched__apply_instantiate(ecs_sched_world *w, ecs_sched_entity made, ecs_sched_id id,
                                         const void *slot, ecs_sched_result *result) {
    ecs_sched_entity prefab;
    (void)id;
    if (!ecs_sched__is_reserved(w, made)) return false;
    memcpy(&prefab, slot, sizeof prefab);
    if (!ecs_sched__is_live_record(w, prefab)) {   /* skipped, and its handle given back */
        ecs_sched__release_index(w, ECS_SCHED_ENTITY_INDEX(made));
        return false;
    }
    *result = ecs_sched__instantiate_checked(w, prefab, made) ? ECS_SCHED_OK : w->env.last_result;
    return true;
}

ecs_sched_entity ecs_sched_commands_instantiate(ecs_sched_commands *cmd, ecs_sched_entity prefab) {
    ecs_sched_world *w;
    ecs_sched_entity e;
    if (ecs_sched__no_buffer(cmd)) return ECS_SCHED_NULL_ENTITY;
    w = cmd->world;
    if (ecs_sched__check_target(cmd, prefab, "commands_instantiate (the prefab)") != ECS_SCHED_OK) {
        return ECS_SCHED_NULL_ENTITY;
    }
    e = ecs_sched__reserve_handle(w);
    if (!e) return ECS_SCHED_NULL_ENTITY;
    if (ecs_sched__record_call(cmd, ecs_sched__apply_instantiate, true, e, w->is_a, prefab, NULL,
                               0) != ECS_SCHED_OK) {
        ecs_sched__release_index(w, ECS_SCHED_ENTITY_INDEX(e));
        return ECS_SCHED_NULL_ENTITY;
    }
    return e;
}


static void ecs_sched__inheritance_free(ecs_sched_world *w) {
    ecs_sched__inheritance *h = ecs_sched__inheritance_of(w);
    uint32_t i;
    if (!h) return;
    for (i = 0; i < h->capacity; i++) ecs_sched__free(&w->env, h->by_id[i].auto_ids);
    ecs_sched__free(&w->env, h->by_id);
    ecs_sched__map_free(&w->env, &h->mark_of);
    ecs_sched__free(&w->env, h);
    ecs_sched__part_set(w, &ecs_sched__inheritance_key, NULL);
}

/* For world_check (world.h): an entity's table has the mark of each of its
   bases, and no other. */
static ecs_sched_result ecs_sched__check_inheritance(ecs_sched_world *w) {
    uint32_t i;
    int32_t row, k;
    for (i = 0; i < w->table_count; i++) {
        const ecs_sched__table *t = w->tables[i];
        for (row = 0; row < t->count; row++) {
            int32_t marks = 0;
            for (k = 0; k < t->type_count; k++) {
                ecs_sched_entity base = ecs_sched__mark_base(w, t->type[k]);
                if (!base) continue;
                marks++;
                if (!ecs_sched__is_live_record(w, base) ||
                    !ecs_sched_has_relation(w, t->entities[row], w->is_a, base)) {
                    return ecs_sched__inconsistent(w, "a base's mark without its IsA", i, (uint32_t)row);
                }
            }
            if (marks != ecs_sched_target_count(w, t->entities[row], w->is_a)) {
                return ecs_sched__inconsistent(w, "an IsA without its base's mark", i, (uint32_t)row);
            }
        }
    }
    return ECS_SCHED_OK;
}

/* ---- the hooks ---- */

/* A base is made ready before an instance takes it. */
static ecs_sched_result ecs_sched__isa_may_relate(ecs_sched_world *w, ecs_sched_entity source,
                                                  ecs_sched_entity base, const char *operation) {
    (void)source;
    (void)operation;
    if (!base || ecs_sched__isa_prepare(w, base) == ECS_SCHED_OK) return ECS_SCHED_OK;
    return ecs_sched__out_of_memory(w, "relating two entities");
}

static void ecs_sched__is_a_attach(ecs_sched_world *w, ecs_sched_id is_a) {
    ecs_sched__kind_hooks *h = &ecs_sched__kind_of(w, is_a)->hooks;
    h->may_relate = ecs_sched__isa_may_relate;
    h->table_with = ecs_sched__isa_table;           /* the base's mark comes along */
    h->related = ecs_sched__isa_copy_overrides;     /* it owns what its base marks to override */
    h->unrelating = ecs_sched__isa_dropped;         /* the mark goes first: no more inheriting */
}
