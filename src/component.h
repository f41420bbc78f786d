/* component: registering a component type: its layout and hooks, where its values live
   (tables or a sparse set) and whether its changes are tracked. */
#pragma once
#include "sparse.h"

/* Registers a component and returns its id. Registering a name again with the same size and
   alignment returns the existing id; with another layout it fails (returns 0). */
ECS_SCHED_API ecs_sched_id ecs_sched_component_register(ecs_sched_world *world,
                                                        const ecs_sched_component_desc *desc);
ECS_SCHED_API ecs_sched_id ecs_sched_component_register_type(ecs_sched_world *world,
                                                             const char *name, size_t size,
                                                             size_t alignment);
/* Registers C type T under its own name: ECS_SCHED_COMPONENT(world, Position). */
#define ECS_SCHED_COMPONENT(world, T) \
    ecs_sched_component_register_type((world), #T, sizeof(T), ECS_SCHED_ALIGNOF(T))
/* Registers a tag (a component without data): ECS_SCHED_TAG(world, Enemy). */
#define ECS_SCHED_TAG(world, Name) ecs_sched_component_register_type((world), #Name, 0, 0)
/* The same with .tracked set: ECS_SCHED_TRACKED_COMPONENT(world, Position). */
ECS_SCHED_API ecs_sched_id ecs_sched_tracked_component_register_type(ecs_sched_world *world,
                                                                     const char *name,
                                                                     size_t size,
                                                                     size_t alignment);
#define ECS_SCHED_TRACKED_COMPONENT(world, T) \
    ecs_sched_tracked_component_register_type((world), #T, sizeof(T), ECS_SCHED_ALIGNOF(T))
/* Whether the component was registered with .tracked. */
ECS_SCHED_API bool ecs_sched_component_is_tracked(const ecs_sched_world *world, ecs_sched_id id);
/* The same with .storage = ECS_SCHED_STORAGE_SPARSE (see Sparse storage in THE WORLD):
   ECS_SCHED_SPARSE_TAG(world, Selected), ECS_SCHED_SPARSE_COMPONENT(world, Burning). */
ECS_SCHED_API ecs_sched_id ecs_sched_sparse_component_register_type(ecs_sched_world *world,
                                                                    const char *name,
                                                                    size_t size,
                                                                    size_t alignment);
#define ECS_SCHED_SPARSE_COMPONENT(world, T) \
    ecs_sched_sparse_component_register_type((world), #T, sizeof(T), ECS_SCHED_ALIGNOF(T))
#define ECS_SCHED_SPARSE_TAG(world, Name) \
    ecs_sched_sparse_component_register_type((world), #Name, 0, 0)

/*@@ implementation @@*/
/* component: registering a component type. The registry (registry.h) keeps what was
   registered; this module sets up what a new type needs: a sparse set for a sparse
   component, change ticks and the list of removals for a tracked one. */

/* A component registered while a scope is set is named after the scope ("physics." and its
   name, see scope.h), unless its name is registered already as it is (a component shared
   with the code outside); *scoped receives the desc with that name. */
static const ecs_sched_component_desc *ecs_sched__scoped_desc(ecs_sched_world *w,
                                                              const ecs_sched_component_desc *desc,
                                                              ecs_sched_component_desc *scoped,
                                                              char *name, size_t capacity) {
    if (ecs_sched_component_lookup(w, desc->name)) return desc;
    if (!w->hooks.scoped_name(w, desc->name, name, capacity)) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_LIMIT,
                        "component_register: '%s' in the current scope makes a name longer "
                        "than %lu bytes", desc->name, (unsigned long)capacity - 1);
        return NULL;
    }
    *scoped = *desc;
    scoped->name = name;
    return scoped;
}

ecs_sched_id ecs_sched_component_register(ecs_sched_world *w, const ecs_sched_component_desc *desc) {
    ecs_sched__component *c;
    ecs_sched_component_desc scoped;
    char scoped_name[256];
    ecs_sched_id id;
    size_t alignment;
    ECS_SCHED__CHECK_WORLD(w);
    if (!desc || !desc->name || !desc->name[0]) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "component_register: a component needs a non-empty name");
        return 0;
    }
    if (w->scope && !(desc = ecs_sched__scoped_desc(w, desc, &scoped, scoped_name,
                                                   sizeof scoped_name))) {
        return 0;
    }
    alignment = desc->alignment ? desc->alignment : ecs_sched__default_alignment(desc->size);
    if (desc->size > INT32_MAX) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "component_register: '%s' has size %lu; a component holds at most %ld "
                        "bytes (keep a pointer to larger data instead)",
                        desc->name, (unsigned long)desc->size, (long)INT32_MAX);
        return 0;
    }
    if ((alignment & (alignment - 1)) != 0 || alignment > ECS_SCHED_MAX_ALIGNMENT) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "component_register: '%s' has size %lu and alignment %lu; the alignment "
                        "must be a power of two of at most %d",
                        desc->name, (unsigned long)desc->size, (unsigned long)alignment,
                        ECS_SCHED_MAX_ALIGNMENT);
        return 0;
    }
    id = ecs_sched_component_lookup(w, desc->name);
    if (id) {
        c = &w->components[id];
        if (c->tracked != desc->tracked) {
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_COMPONENT_MISMATCH,
                            "component '%s' is already registered %s change tracking; whether "
                            "a component is tracked is fixed when it is first registered "
                            "(register it with .tracked = %s everywhere)",
                            desc->name, c->tracked ? "with" : "without",
                            c->tracked ? "true" : "false");
            return 0;
        }
        if ((c->sparse != 0) != (desc->storage == ECS_SCHED_STORAGE_SPARSE)) {
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_COMPONENT_MISMATCH,
                            "component '%s' is already registered with %s storage; where a "
                            "component is stored is fixed when it is first registered "
                            "(register it with .storage = %s everywhere)",
                            desc->name, c->sparse ? "sparse" : "table",
                            c->sparse ? "ECS_SCHED_STORAGE_SPARSE" : "ECS_SCHED_STORAGE_TABLE");
            return 0;
        }
        if (c->toggleable != desc->toggleable) {
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_COMPONENT_MISMATCH,
                            "component '%s' is already registered as %stoggleable; whether a "
                            "component can be disabled on one entity is fixed when it is first "
                            "registered (register it with .toggleable = %s everywhere)",
                            desc->name, c->toggleable ? "" : "not ",
                            c->toggleable ? "true" : "false");
            return 0;
        }
        if (c->size != desc->size || c->alignment != alignment) {
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_COMPONENT_MISMATCH,
                            "component '%s' is already registered with size %u and alignment "
                            "%u; registering it again with size %lu and alignment %lu is a "
                            "mistake (two different types share the name?)",
                            desc->name, (unsigned)c->size, (unsigned)c->alignment,
                            (unsigned long)desc->size, (unsigned long)alignment);
            return 0;
        }
        return id;
    }
    if ((unsigned)desc->storage > (unsigned)ECS_SCHED_STORAGE_SPARSE) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "component_register: '%s' asks for storage %d, which is neither "
                        "ECS_SCHED_STORAGE_TABLE nor ECS_SCHED_STORAGE_SPARSE",
                        desc->name, (int)desc->storage);
        return 0;
    }
    if (desc->toggleable && desc->storage == ECS_SCHED_STORAGE_SPARSE) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "component_register: '%s' asks to be toggleable and sparse; toggling "
                        "keeps a bit per row of a table, and a sparse component moves nothing "
                        "when it is removed: register it with table storage, or remove and "
                        "insert it instead of toggling", desc->name);
        return 0;
    }
    if (w->component_count >= ECS_SCHED__MAX_COMPONENTS) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_LIMIT,
                        "component_register: '%s' would be component number %u; a world holds "
                        "fewer than %u",
                        desc->name, (unsigned)w->component_count, (unsigned)ECS_SCHED__MAX_COMPONENTS);
        return 0;
    }
    if (!ECS_SCHED__GROW(&w->env, w->components, &w->component_capacity, w->component_count + 1) ||
        !ECS_SCHED__GROW(&w->env, w->resources, &w->resource_capacity, w->component_count + 1) ||
        !ECS_SCHED__GROW(&w->env, w->resource_stamps, &w->resource_stamp_capacity,
                         w->component_count + 1)) {
        ecs_sched__out_of_memory(w, "registering a component");
        return 0;
    }
    id = w->component_count;
    c = &w->components[id];
    memset(c, 0, sizeof *c);
    c->name = ecs_sched__strdup(&w->env, desc->name);
    if (!c->name) {
        ecs_sched__out_of_memory(w, "registering a component");
        return 0;
    }
    c->size = (uint32_t)desc->size;
    c->alignment = (uint8_t)alignment;   /* at most 64: checked above */
    c->hooks = desc->hooks;
    c->tracked = desc->tracked;
    c->toggleable = desc->toggleable;
    c->scripted = desc->scripted;
    w->resources[id] = NULL;
    if (desc->storage == ECS_SCHED_STORAGE_SPARSE && !ecs_sched__sparse_create(w, id)) {
        ecs_sched__free(&w->env, c->name);
        if (w->sparse_count >= UINT16_MAX) {
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_LIMIT,
                            "component_register: '%s' would be sparse component number %u; a "
                            "world holds at most %u", desc->name, (unsigned)w->sparse_count + 1u,
                            (unsigned)UINT16_MAX);
        } else {
            ecs_sched__out_of_memory(w, "registering a sparse component");
        }
        return 0;
    }
    ecs_sched__name_map_put(&w->component_names, c->name, (int32_t)id);
    w->component_count++;
    if (c->tracked) {
        ecs_sched__ticks_turn_on(w);
        if (!ecs_sched__removals_create(w, id)) {
            ecs_sched__logf(&w->env, ECS_SCHED_LOG_WARN, ECS_SCHED_ERR_OUT_OF_MEMORY,
                            "component_register: '%s' is tracked, but the list of its removals "
                            "could not be made (out of memory): its removals are not kept",
                            c->name);
        }
    }
    return id;
}

/* The _register_type shorthands: a desc of these fields, the rest zero. */
static ecs_sched_id ecs_sched__register_type(ecs_sched_world *w, const char *name, size_t size,
                                             size_t alignment, bool tracked,
                                             ecs_sched_storage storage) {
    ecs_sched_component_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.name = name;
    desc.size = size;
    desc.alignment = alignment;
    desc.tracked = tracked;
    desc.storage = storage;
    return ecs_sched_component_register(w, &desc);
}

ecs_sched_id ecs_sched_component_register_type(ecs_sched_world *w, const char *name, size_t size,
                                               size_t alignment) {
    return ecs_sched__register_type(w, name, size, alignment, false, ECS_SCHED_STORAGE_TABLE);
}

ecs_sched_id ecs_sched_tracked_component_register_type(ecs_sched_world *w, const char *name,
                                                       size_t size, size_t alignment) {
    return ecs_sched__register_type(w, name, size, alignment, true, ECS_SCHED_STORAGE_TABLE);
}

ecs_sched_id ecs_sched_sparse_component_register_type(ecs_sched_world *w, const char *name,
                                                      size_t size, size_t alignment) {
    return ecs_sched__register_type(w, name, size, alignment, false, ECS_SCHED_STORAGE_SPARSE);
}

/* ---- a new layout for a component's values (script.h migrates a script's components) ----

   Every value the world stores of one component, in each table holding it (prefabs' too),
   its sparse set and its resource, converted into new blocks first; only when all of them
   are made does the world take them, so that running out of memory changes nothing. */

#if defined(ECS_SCHED_SCRIPTS) && !defined(ECS_SCHED_NO_REFLECT)

typedef void (*ecs_sched__convert_fn)(void *dst, const void *src, void *user_data);

typedef struct ecs_sched__relayout {
    ecs_sched_id id;
    uint32_t size;
    uint8_t alignment;
    unsigned char **columns;       /* by table index: the new block of the column, or NULL */
    unsigned char *sparse;         /* the sparse set's new block */
    void *resource;                /* the resource's new block */
} ecs_sched__relayout;

/* `count` values from `from` (old layout) into `to` (new, zeroed first). */
static void ecs_sched__relayout_values(const ecs_sched__relayout *r, unsigned char *to,
                                       const unsigned char *from, uint32_t old_size,
                                       size_t count, size_t capacity,
                                       ecs_sched__convert_fn convert, void *user_data) {
    size_t i;
    memset(to, 0, capacity * r->size);
    for (i = 0; i < count; i++) convert(to + i * r->size, from + i * old_size, user_data);
}

static void ecs_sched__relayout_discard(ecs_sched_world *w, ecs_sched__relayout *r) {
    uint32_t i;
    for (i = 0; r->columns && i < w->table_count; i++) ecs_sched__aligned_free(&w->env, r->columns[i]);
    ecs_sched__free(&w->env, r->columns);
    ecs_sched__aligned_free(&w->env, r->sparse);
    ecs_sched__aligned_free(&w->env, r->resource);
    memset(r, 0, sizeof *r);
}

/* Makes the new blocks of component id's values, converted; false when out of memory, with
   nothing left behind. The world is not changed. */
static bool ecs_sched__relayout_prepare(ecs_sched_world *w, ecs_sched_id id, size_t size,
                                        size_t alignment, ecs_sched__convert_fn convert,
                                        void *user_data, ecs_sched__relayout *r) {
    const ecs_sched__component *c = &w->components[id];
    const ecs_sched__sparse_set *set = ecs_sched__sparse_of(w, id);
    size_t column_alignment = alignment > ECS_SCHED__COLUMN_ALIGNMENT ? alignment
                                                                     : ECS_SCHED__COLUMN_ALIGNMENT;
    uint32_t i;
    memset(r, 0, sizeof *r);
    r->id = id;
    r->size = (uint32_t)size;
    r->alignment = (uint8_t)alignment;
    r->columns = (unsigned char **)ecs_sched__calloc(&w->env, (w->table_count + 1u) * sizeof *r->columns);
    if (!r->columns) return false;
    for (i = 0; i < w->table_count; i++) {
        const ecs_sched__table *t = w->tables[i];
        int32_t j = ecs_sched__column_find(t, id);
        if (j < 0 || t->capacity == 0) continue;
        r->columns[i] = (unsigned char *)ecs_sched__aligned_alloc(&w->env, (size_t)t->capacity * size,
                                                                  column_alignment);
        if (!r->columns[i]) break;
        ecs_sched__relayout_values(r, r->columns[i], t->columns[j].data, c->size, (size_t)t->count,
                                   (size_t)t->capacity, convert, user_data);
    }
    if (i == w->table_count && set && set->capacity) {
        r->sparse = (unsigned char *)ecs_sched__aligned_alloc(&w->env, (size_t)set->capacity * size,
                                                              alignment > 16 ? alignment : 16);
        if (r->sparse) {
            ecs_sched__relayout_values(r, r->sparse, set->values, c->size, set->count,
                                       set->capacity, convert, user_data);
        }
    }
    if (i == w->table_count && (!set || !set->capacity || r->sparse) && w->resources[id]) {
        r->resource = ecs_sched__aligned_alloc(&w->env, size, alignment);
        if (r->resource) {
            ecs_sched__relayout_values(r, (unsigned char *)r->resource,
                                       (const unsigned char *)w->resources[id], c->size, 1, 1,
                                       convert, user_data);
        }
    }
    if (i < w->table_count || (set && set->capacity && !r->sparse) ||
        (w->resources[id] && !r->resource)) {
        ecs_sched__relayout_discard(w, r);
        return false;
    }
    return true;
}

/* The world takes the new blocks and the new size and alignment, and frees the old blocks;
   change ticks, toggles and rows stay as they are. Cannot fail. */
static void ecs_sched__relayout_commit(ecs_sched_world *w, ecs_sched__relayout *r) {
    ecs_sched__component *c = &w->components[r->id];
    ecs_sched__sparse_set *set = ecs_sched__sparse_of(w, r->id);
    uint32_t i;
    for (i = 0; i < w->table_count; i++) {
        ecs_sched__table *t = w->tables[i];
        int32_t j = ecs_sched__column_find(t, r->id);
        if (j < 0) continue;
        ecs_sched__aligned_free(&w->env, t->columns[j].data);
        t->columns[j].data = r->columns[i];
        t->columns[j].size = r->size;
        r->columns[i] = NULL;
    }
    if (set && r->sparse) {
        ecs_sched__aligned_free(&w->env, set->values);
        set->values = r->sparse;
        r->sparse = NULL;
    }
    if (r->resource) {
        ecs_sched__aligned_free(&w->env, w->resources[r->id]);
        w->resources[r->id] = r->resource;
        r->resource = NULL;
    }
    c->size = r->size;
    c->alignment = r->alignment;
    w->layout_changes++;
    w->layout_changed = r->id;
    w->rows_version++;   /* the lists of queries point into the old blocks */
    ecs_sched__relayout_discard(w, r);
}

#endif /* ECS_SCHED_SCRIPTS && !ECS_SCHED_NO_REFLECT */
