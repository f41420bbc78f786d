/* prefab: prefab data, a list of future entities (entries with a parent entry, a name and
   component values), made in one go onto a main entity. */
#pragma once
#include "inherit.h"
#include "reflect.h"

typedef struct ecs_sched_prefab_data ecs_sched_prefab_data;

/* An empty list of entries for this world's components. NULL when out of memory. */
ECS_SCHED_API ecs_sched_prefab_data *ecs_sched_prefab_data_create(ecs_sched_world *world);
/* Frees the entries and their values (dtor hooks). */
ECS_SCHED_API void ecs_sched_prefab_data_free(ecs_sched_prefab_data *data);
/* A new entry placed under entry `parent` (-1: none); returns its index, or -1 on failure.
   Entry 0 is the main entry. */
ECS_SCHED_API int32_t ecs_sched_prefab_data_add(ecs_sched_prefab_data *data, int32_t parent);
/* Places an entry under another (-1: none). Any entry may be named; a cycle is refused when
   the data is instantiated. */
ECS_SCHED_API ecs_sched_result ecs_sched_prefab_data_set_parent(ecs_sched_prefab_data *data,
                                                                int32_t entry, int32_t parent);
/* Gives an entry a copy of a component's value (copy hooks; NULL: the default value, or a
   tag); again for the same component replaces it. */
ECS_SCHED_API ecs_sched_result ecs_sched_prefab_data_set(ecs_sched_prefab_data *data,
                                                         int32_t entry, ecs_sched_id id,
                                                         const void *value);
/* The name the entity made of the entry gets (NULL: none). */
ECS_SCHED_API ecs_sched_result ecs_sched_prefab_data_set_name(ecs_sched_prefab_data *data,
                                                              int32_t entry, const char *name);
#ifndef ECS_SCHED_NO_REFLECT
/* Entry `entry`'s value of component id holds, at the entity field `path` (a path as for
   ecs_sched_value_member; the component must be described and the entry have it), the entity
   made of entry `target`: references between the entities, filled in when they are made. */
ECS_SCHED_API ecs_sched_result ecs_sched_prefab_data_set_entity(ecs_sched_prefab_data *data,
                                                                int32_t entry, ecs_sched_id id,
                                                                const char *path, int32_t target);
#endif
/* The entity made of `entry` is related to the entity made of `target` with `kind` (any kind
   but ChildOf, which set_parent gives; IsA makes it an instance). Related after every entity
   is made, in the order given. */
ECS_SCHED_API ecs_sched_result ecs_sched_prefab_data_relate(ecs_sched_prefab_data *data,
                                                            int32_t entry, ecs_sched_id kind,
                                                            int32_t target);
ECS_SCHED_API int32_t ecs_sched_prefab_data_count(const ecs_sched_prefab_data *data);
ECS_SCHED_API int32_t ecs_sched_prefab_data_parent(const ecs_sched_prefab_data *data,
                                                   int32_t entry);
ECS_SCHED_API const char *ecs_sched_prefab_data_name(const ecs_sched_prefab_data *data,
                                                     int32_t entry);
/* The entry's value of a component (NULL when it has none, or for a tag: see _has). */
ECS_SCHED_API const void *ecs_sched_prefab_data_get(const ecs_sched_prefab_data *data,
                                                    int32_t entry, ecs_sched_id id);
ECS_SCHED_API bool ecs_sched_prefab_data_has(const ecs_sched_prefab_data *data, int32_t entry,
                                             ecs_sched_id id);
/* Makes the entities: entry 0's values go onto `main` (ECS_SCHED_NULL_ENTITY: a new entity),
   each other entry becomes a new entity with its values, its name, and ChildOf the entity of
   its parent entry; one table move per entity. All or nothing. `out`, when not NULL, gets
   the entity of each entry (ecs_sched_prefab_data_count of them). */
ECS_SCHED_API ecs_sched_result ecs_sched_prefab_data_instantiate(ecs_sched_world *world,
                                                                 const ecs_sched_prefab_data *data,
                                                                 ecs_sched_entity main,
                                                                 ecs_sched_entity *out);
/* The same, recorded: returns `main`, or the handle of the new main entity. The data must
   stay alive until the buffer is applied. */
ECS_SCHED_API ecs_sched_entity ecs_sched_commands_prefab_data_instantiate(
    ecs_sched_commands *commands, const ecs_sched_prefab_data *data, ecs_sched_entity main);

/*@@ implementation @@*/
/* prefab: prefab data. The entries keep constructed copies of their values; instantiating
   plans one copy per entry and makes them the way ecs_sched_instantiate makes instances
   (inherit.h): every table, row, handle, list of sources and name reserved first, then placed
   with nothing left to fail. */

/* A reference between entries: an entity field (kind 0) or a relationship. */
typedef struct ecs_sched__entry_link {
    int32_t entry;
    int32_t target;
    ecs_sched_id id;                /* the component of the field, or the relationship kind */
    uint32_t offset;                /* the field's offset in the value */
    bool relation;
} ecs_sched__entry_link;

struct ecs_sched_prefab_data {
    ecs_sched_world *world;
    ecs_sched__entry *entries;
    uint32_t count;
    uint32_t capacity;
    ecs_sched__entry_link *links;
    uint32_t link_count;
    uint32_t link_capacity;
};

ecs_sched_prefab_data *ecs_sched_prefab_data_create(ecs_sched_world *w) {
    ecs_sched_prefab_data *d;
    ECS_SCHED__CHECK_WORLD(w);
    d = (ecs_sched_prefab_data *)ecs_sched__calloc(&w->env, sizeof *d);
    if (!d) {
        ecs_sched__out_of_memory(w, "creating prefab data");
        return NULL;
    }
    d->world = w;
    return d;
}

static void ecs_sched__entry_value_free(ecs_sched_world *w, ecs_sched__entry_value *v) {
    if (!v->data) return;
    ecs_sched__destruct(&w->components[v->id], v->data, 1);
    ecs_sched__aligned_free(&w->env, v->data);
    v->data = NULL;
}

void ecs_sched_prefab_data_free(ecs_sched_prefab_data *d) {
    ecs_sched_world *w;
    uint32_t i, v;
    if (!d) return;
    w = d->world;
    for (i = 0; i < d->count; i++) {
        for (v = 0; v < d->entries[i].count; v++) ecs_sched__entry_value_free(w, &d->entries[i].values[v]);
        ecs_sched__free(&w->env, d->entries[i].values);
        ecs_sched__free(&w->env, d->entries[i].name);
    }
    ecs_sched__free(&w->env, d->entries);
    ecs_sched__free(&w->env, d->links);
    ecs_sched__free(&w->env, d);
}

static ecs_sched_result ecs_sched__bad_entry(const ecs_sched_prefab_data *d, int32_t entry,
                                             const char *operation) {
    return ecs_sched__fail(&d->world->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "%s: entry %d is out of range (the data has %u entries)", operation,
                           (int)entry, (unsigned)d->count);
}

static bool ecs_sched__entry_valid(const ecs_sched_prefab_data *d, int32_t entry) {
    return entry >= 0 && (uint32_t)entry < d->count;
}

ecs_sched_result ecs_sched_prefab_data_set_parent(ecs_sched_prefab_data *d, int32_t entry,
                                                  int32_t parent) {
    ECS_SCHED_ASSERT(d != NULL);
    if (!ecs_sched__entry_valid(d, entry)) return ecs_sched__bad_entry(d, entry, "prefab_data_set_parent");
    if (parent != -1 && !ecs_sched__entry_valid(d, parent)) {
        return ecs_sched__fail(&d->world->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "prefab_data_set_parent: entry %d cannot be placed under entry "
                               "%d: there are %u entries (-1: no parent)", (int)entry,
                               (int)parent, (unsigned)d->count);
    }
    if (parent == entry) {
        return ecs_sched__fail(&d->world->env, ECS_SCHED_ERR_RELATION_CYCLE,
                               "prefab_data_set_parent: entry %d cannot be its own parent",
                               (int)entry);
    }
    d->entries[entry].parent = parent;
    return ECS_SCHED_OK;
}

int32_t ecs_sched_prefab_data_add(ecs_sched_prefab_data *d, int32_t parent) {
    ecs_sched_world *w;
    ECS_SCHED_ASSERT(d != NULL);
    w = d->world;
    if (parent != -1 && !ecs_sched__entry_valid(d, parent)) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "prefab_data_add: parent entry %d does not exist (the data has %u "
                        "entries; -1: no parent)", (int)parent, (unsigned)d->count);
        return -1;
    }
    if (d->count >= (uint32_t)INT32_MAX ||
        !ECS_SCHED__GROW(&w->env, d->entries, &d->capacity, d->count + 1)) {
        ecs_sched__out_of_memory(w, "adding an entry to prefab data");
        return -1;
    }
    memset(&d->entries[d->count], 0, sizeof d->entries[0]);
    d->entries[d->count].parent = parent;
    return (int32_t)d->count++;
}

static ecs_sched__entry_value *ecs_sched__entry_find(const ecs_sched__entry *e, ecs_sched_id id) {
    uint32_t v;
    for (v = 0; v < e->count; v++) {
        if (e->values[v].id == id) return &e->values[v];
    }
    return NULL;
}

ecs_sched_result ecs_sched_prefab_data_set(ecs_sched_prefab_data *d, int32_t entry,
                                           ecs_sched_id id, const void *value) {
    ecs_sched_world *w;
    ecs_sched__entry *e;
    ecs_sched__entry_value *slot;
    const ecs_sched__component *c;
    unsigned char *data = NULL;
    ecs_sched_result result;
    ECS_SCHED_ASSERT(d != NULL);
    w = d->world;
    if (!ecs_sched__entry_valid(d, entry)) return ecs_sched__bad_entry(d, entry, "prefab_data_set");
    result = ecs_sched__check_ids(w, 1, &id, "prefab_data_set");
    if (result != ECS_SCHED_OK) return result;
    c = &w->components[id];
    e = &d->entries[entry];
    slot = ecs_sched__entry_find(e, id);
    if (!slot && e->count >= ECS_SCHED__MAX_TYPE) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_LIMIT,
                               "prefab_data_set: entry %d has %d components already (at most "
                               "%d)", (int)entry, ECS_SCHED__MAX_TYPE, ECS_SCHED__MAX_TYPE);
    }
    if (c->size) {
        data = (unsigned char *)ecs_sched__aligned_alloc(&w->env, c->size, c->alignment);
        if (!data) return ecs_sched__out_of_memory(w, "setting a value of prefab data");
    }
    if (!slot && !ECS_SCHED__GROW(&w->env, e->values, &e->capacity, e->count + 1)) {
        ecs_sched__aligned_free(&w->env, data);
        return ecs_sched__out_of_memory(w, "setting a value of prefab data");
    }
    if (data) ecs_sched__construct(c, data, value, 1);
    if (slot) {
        ecs_sched__entry_value_free(w, slot);
    } else {
        slot = &e->values[e->count++];
        slot->id = id;
    }
    slot->data = data;
    slot->layouts = w->layout_changes;
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_prefab_data_set_name(ecs_sched_prefab_data *d, int32_t entry,
                                                const char *name) {
    char *copy = NULL;
    ECS_SCHED_ASSERT(d != NULL);
    if (!ecs_sched__entry_valid(d, entry)) return ecs_sched__bad_entry(d, entry, "prefab_data_set_name");
    if (name && !name[0]) {
        return ecs_sched__fail(&d->world->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "prefab_data_set_name: entry %d cannot be given an empty name "
                               "(NULL takes a name away)", (int)entry);
    }
    if (name && !(copy = ecs_sched__strdup(&d->world->env, name))) {
        return ecs_sched__out_of_memory(d->world, "naming an entry of prefab data");
    }
    ecs_sched__free(&d->world->env, d->entries[entry].name);
    d->entries[entry].name = copy;
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__add_link(ecs_sched_prefab_data *d, ecs_sched__entry_link link) {
    if (!ECS_SCHED__GROW(&d->world->env, d->links, &d->link_capacity, d->link_count + 1)) {
        return ecs_sched__out_of_memory(d->world, "linking entries of prefab data");
    }
    d->links[d->link_count++] = link;
    return ECS_SCHED_OK;
}

#ifndef ECS_SCHED_NO_REFLECT
/* (Without reflection, entity fields are not found by path: no entry links one.) */
ecs_sched_result ecs_sched_prefab_data_set_entity(ecs_sched_prefab_data *d, int32_t entry,
                                                  ecs_sched_id id, const char *path, int32_t target) {
    ecs_sched_world *w;
    ecs_sched__entry_value *v;
    ecs_sched__entry_link link;
    ecs_sched_member_info info;
    unsigned char *field;
    ECS_SCHED_ASSERT(d != NULL);
    w = d->world;
    if (!ecs_sched__entry_valid(d, entry)) return ecs_sched__bad_entry(d, entry, "prefab_data_set_entity");
    if (!ecs_sched__entry_valid(d, target)) return ecs_sched__bad_entry(d, target, "prefab_data_set_entity (target)");
    v = ecs_sched__entry_find(&d->entries[entry], id);
    if (!v || !v->data) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_MISSING_COMPONENT,
                               "prefab_data_set_entity: entry %d has no value of '%s' to hold "
                               "the entity; set it first", (int)entry,
                               ecs_sched__component_label(w, id));
    }
    field = (unsigned char *)ecs_sched_value_member(w, id, v->data, path, &info);
    if (!field) return w->env.last_result;
    if (info.kind != ECS_SCHED_TYPE_ENTITY || info.count != 1) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "prefab_data_set_entity: '%s' of '%s' is not one entity member",
                               path, w->components[id].name);
    }
    memset(&link, 0, sizeof link);
    link.entry = entry;
    link.target = target;
    link.id = id;
    link.offset = (uint32_t)(field - v->data);
    return ecs_sched__add_link(d, link);
}
#endif

ecs_sched_result ecs_sched_prefab_data_relate(ecs_sched_prefab_data *d, int32_t entry,
                                              ecs_sched_id kind, int32_t target) {
    ecs_sched_world *w;
    ecs_sched__entry_link link;
    ECS_SCHED_ASSERT(d != NULL);
    w = d->world;
    if (!ecs_sched__entry_valid(d, entry)) return ecs_sched__bad_entry(d, entry, "prefab_data_relate");
    if (!ecs_sched__entry_valid(d, target)) return ecs_sched__bad_entry(d, target, "prefab_data_relate (target)");
    if (!ecs_sched__is_kind(w, kind)) return ecs_sched__not_a_kind(w, kind, "prefab_data_relate");
    if (kind == w->child_of) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "prefab_data_relate: ChildOf is the entry's parent: use "
                               "ecs_sched_prefab_data_set_parent");
    }
    memset(&link, 0, sizeof link);
    link.entry = entry;
    link.target = target;
    link.id = kind;
    link.relation = true;
    return ecs_sched__add_link(d, link);
}

int32_t ecs_sched_prefab_data_count(const ecs_sched_prefab_data *d) {
    ECS_SCHED_ASSERT(d != NULL);
    return (int32_t)d->count;
}

int32_t ecs_sched_prefab_data_parent(const ecs_sched_prefab_data *d, int32_t entry) {
    ECS_SCHED_ASSERT(d != NULL);
    return ecs_sched__entry_valid(d, entry) ? d->entries[entry].parent : -1;
}

const char *ecs_sched_prefab_data_name(const ecs_sched_prefab_data *d, int32_t entry) {
    ECS_SCHED_ASSERT(d != NULL);
    return ecs_sched__entry_valid(d, entry) ? d->entries[entry].name : NULL;
}

const void *ecs_sched_prefab_data_get(const ecs_sched_prefab_data *d, int32_t entry,
                                      ecs_sched_id id) {
    const ecs_sched__entry_value *v;
    ECS_SCHED_ASSERT(d != NULL);
    v = ecs_sched__entry_valid(d, entry) ? ecs_sched__entry_find(&d->entries[entry], id) : NULL;
    return v ? v->data : NULL;
}

bool ecs_sched_prefab_data_has(const ecs_sched_prefab_data *d, int32_t entry, ecs_sched_id id) {
    ECS_SCHED_ASSERT(d != NULL);
    return ecs_sched__entry_valid(d, entry) && ecs_sched__entry_find(&d->entries[entry], id) != NULL;
}

/* ---- instantiating ---- */

/* Every entry's chain of parents ends: a cycle is refused, with its entries. */
static ecs_sched_result ecs_sched__data_check_parents(ecs_sched_world *w,
                                                      const ecs_sched_prefab_data *d) {
    uint32_t i, steps;
    for (i = 0; i < d->count; i++) {
        int32_t at = d->entries[i].parent;
        for (steps = 0; at >= 0 && steps <= d->count; steps++) at = d->entries[at].parent;
        if (at >= 0) {
            char path[ECS_SCHED__ERROR_CAPACITY / 2];
            size_t used = 0;
            at = (int32_t)i;
            for (steps = 0; steps <= d->count && used < sizeof path - 16; steps++) {
                int n = snprintf(path + used, sizeof path - used, "%s%d", steps ? " -> " : "", (int)at);
                if (n < 0) break;
                used += (size_t)n;
                at = d->entries[at].parent;
                if (at == (int32_t)i) break;
            }
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_RELATION_CYCLE,
                                   "prefab_data_instantiate: the parents of the entries make a "
                                   "cycle (%s -> %d, each entry under the next); an entry "
                                   "cannot be below itself", path, (int)i);
        }
    }
    return ECS_SCHED_OK;
}

/* Names are unique among the children of a parent: among the entries, and for the entities
   that join existing ones (the roots, the main entity). */
static ecs_sched_result ecs_sched__data_check_names(ecs_sched_world *w,
                                                    const ecs_sched_prefab_data *d,
                                                    ecs_sched_entity main) {
    uint32_t i, j;
    for (i = 0; i < d->count; i++) {
        const ecs_sched__entry *e = &d->entries[i];
        ecs_sched_entity scope, other;
        if (!e->name) continue;
        for (j = 0; j < i; j++) {
            if (d->entries[j].name && d->entries[j].parent == e->parent &&
                strcmp(d->entries[j].name, e->name) == 0) {
                return ecs_sched__fail(&w->env, ECS_SCHED_ERR_NAME_CLASH,
                                       "prefab_data_instantiate: entries %u and %u are both "
                                       "named '%s' under the same parent; names are unique "
                                       "among siblings", (unsigned)j, (unsigned)i, e->name);
            }
        }
        if (e->parent == 0 && main && ecs_sched__is_live_record(w, main)) {   /* joins its children */
            other = ecs_sched__find_name(w, main, e->name, strlen(e->name));
            if (!other) continue;
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_NAME_CLASH,
                                   "prefab_data_instantiate: entry %u would make a child of %s "
                                   "named '%s', and %s has that name among its children "
                                   "already; names are unique among siblings (rename one)",
                                   (unsigned)i, ecs_sched__entity_label(w, main).text, e->name,
                                   ecs_sched__entity_label(w, other).text);
        }
        if (e->parent >= 0) continue;
        scope = i == 0 && main ? ecs_sched_parent_of(w, main) : ECS_SCHED_NULL_ENTITY;
        other = ecs_sched__find_name(w, scope, e->name, strlen(e->name));
        if (other && i == 0 && main && other != main) {
            return ecs_sched__name_clash(w, "prefab_data_instantiate", main, e->name, scope, other);
        }
        if (other && !(i == 0 && main)) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_NAME_CLASH,
                                   "prefab_data_instantiate: entry %u would make a root named "
                                   "'%s', and %s has that name among the roots already; names "
                                   "are unique among siblings (rename one, or give the entry a "
                                   "parent)", (unsigned)i, e->name,
                                   ecs_sched__entity_label(w, other).text);
        }
    }
    return ECS_SCHED_OK;
}

/* The relationships between entries, checked before anything is made (so that a refusal
   leaves the main entity as it was): no entry related to itself, and no cycle along an
   acyclic kind. The entities made of entries have no relationships but these, and the
   world's entities none to them, so a cycle can only run through the links themselves:
   each is checked against those before it, as relating them in order would. */
typedef struct ecs_sched__link_graph {
    int32_t *first;                 /* by entry: its first link (as source), or -1 */
    int32_t *next;                  /* by link: the next link of the same source, or -1 */
    int32_t *stack;                 /* entries to visit */
    uint32_t *seen;                 /* by entry: the stamp of the last visit */
    uint32_t stamp;
} ecs_sched__link_graph;

/* Whether entry `from` reaches entry `to` along the links of kind `kind` before link `before`
   (for an exclusive kind, only each entry's last one: a new target replaces the old). */
static bool ecs_sched__entry_reaches(const ecs_sched_world *w, const ecs_sched_prefab_data *d,
                                     ecs_sched__link_graph *g, uint32_t before, ecs_sched_id kind,
                                     int32_t from, int32_t to) {
    bool exclusive = (w->components[kind].relation & ECS_SCHED__KIND_EXCLUSIVE) != 0;
    int32_t top = 0;
    g->stamp++;
    g->stack[top++] = from;
    g->seen[from] = g->stamp;
    while (top > 0) {
        int32_t at = g->stack[--top], j, last = -1;
        for (j = g->first[at]; j >= 0 && (uint32_t)j < before; j = g->next[j]) {
            const ecs_sched__entry_link *l = &d->links[j];
            if (!l->relation || l->id != kind) continue;
            if (exclusive) {
                last = l->target;
                continue;
            }
            if (l->target == to) return true;
            if (g->seen[l->target] != g->stamp) {
                g->seen[l->target] = g->stamp;
                g->stack[top++] = l->target;
            }
        }
        if (last == to) return true;
        if (last >= 0 && g->seen[last] != g->stamp) {
            g->seen[last] = g->stamp;
            g->stack[top++] = last;
        }
    }
    return false;
}

static ecs_sched_result ecs_sched__data_check_links_in(ecs_sched_world *w,
                                                       const ecs_sched_prefab_data *d,
                                                       ecs_sched__link_graph *g) {
    uint32_t i;
    int32_t *last_of = g->stack;   /* free until the first visit: the last link of each entry */
    for (i = 0; i < d->count; i++) g->first[i] = -1;
    for (i = 0; i < d->link_count; i++) {
        int32_t entry = d->links[i].entry;
        g->next[i] = -1;
        if (g->first[entry] < 0) g->first[entry] = (int32_t)i;
        else g->next[last_of[entry]] = (int32_t)i;
        last_of[entry] = (int32_t)i;
    }
    for (i = 0; i < d->link_count; i++) {
        const ecs_sched__entry_link *l = &d->links[i];
        const char *kind = w->components[l->id].name;
        if (!l->relation) continue;
        if (l->entry == l->target) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_RELATION_CYCLE,
                                   "prefab_data_instantiate: entry %d is related to itself with "
                                   "'%s'; no entity is its own target (nothing was made)",
                                   (int)l->entry, kind);
        }
        if ((w->components[l->id].relation & ECS_SCHED__KIND_ACYCLIC) &&
            ecs_sched__entry_reaches(w, d, g, i, l->id, l->target, l->entry)) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_RELATION_CYCLE,
                                   "prefab_data_instantiate: relating entry %d to entry %d with "
                                   "'%s' would make a cycle: entry %d reaches entry %d through "
                                   "the relationships given before, and '%s' is acyclic "
                                   "(nothing was made)", (int)l->entry, (int)l->target, kind,
                                   (int)l->target, (int)l->entry, kind);
        }
    }
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__data_check_links(ecs_sched_world *w,
                                                    const ecs_sched_prefab_data *d) {
    ecs_sched__link_graph g;
    ecs_sched_result result;
    uint32_t i;
    for (i = 0; i < d->link_count && !d->links[i].relation; i++) {}
    if (i == d->link_count) return ECS_SCHED_OK;
    memset(&g, 0, sizeof g);
    g.first = (int32_t *)ecs_sched__alloc(&w->env, d->count * sizeof *g.first);
    g.next = (int32_t *)ecs_sched__alloc(&w->env, d->link_count * sizeof *g.next);
    g.stack = (int32_t *)ecs_sched__alloc(&w->env, d->count * sizeof *g.stack);
    g.seen = (uint32_t *)ecs_sched__calloc(&w->env, d->count * sizeof *g.seen);
    result = g.first && g.next && g.stack && g.seen
                 ? ecs_sched__data_check_links_in(w, d, &g)
                 : ecs_sched__out_of_memory(w, "checking the relationships of prefab data");
    ecs_sched__free(&w->env, g.first);
    ecs_sched__free(&w->env, g.next);
    ecs_sched__free(&w->env, g.stack);
    ecs_sched__free(&w->env, g.seen);
    return result;
}

/* A value of a script's component set before a component changed its layout may be in the
   layout before: the world's values are migrated (script.h), prefab data's are not. */
static ecs_sched_result ecs_sched__data_check_layouts(ecs_sched_world *w,
                                                      const ecs_sched_prefab_data *d) {
    uint32_t i, k;
    for (i = 0; i < d->count; i++) {
        for (k = 0; k < d->entries[i].count; k++) {
            const ecs_sched__entry_value *v = &d->entries[i].values[k];
            if (!w->components[v->id].scripted || v->layouts == w->layout_changes) continue;
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_REFUSED,
                                   "prefab_data_instantiate: entry %u holds a value of '%s', a "
                                   "script's component, set before a script's component changed "
                                   "its layout (the last: '%s'); its values in prefab data are "
                                   "not migrated: set them again, or load the data again",
                                   (unsigned)i, w->components[v->id].name,
                                   ecs_sched__component_label(w, w->layout_changed));
        }
    }
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__data_check(ecs_sched_world *w, const ecs_sched_prefab_data *d,
                                              ecs_sched_entity main) {
    ecs_sched_result result;
    if (d->world != w) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "prefab_data_instantiate: the data was made for another world "
                               "(component ids are a world's own)");
    }
    if (d->count == 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "prefab_data_instantiate: the data has no entries");
    }
    if (main && !ecs_sched__is_live_record(w, main) && !ecs_sched__is_reserved(w, main)) {
        return ecs_sched__stale(w, main, "prefab_data_instantiate (the main entity)");
    }
    if (main && d->entries[0].parent >= 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "prefab_data_instantiate: entry 0, the main entry, is under entry "
                               "%d; the main entity keeps its own place, so the main entry has "
                               "no parent", (int)d->entries[0].parent);
    }
    result = ecs_sched__data_check_layouts(w, d);
    if (result == ECS_SCHED_OK) result = ecs_sched__data_check_parents(w, d);
    if (result == ECS_SCHED_OK) result = ecs_sched__data_check_names(w, d, main);
    return result != ECS_SCHED_OK ? result : ecs_sched__data_check_links(w, d);
}

/* Which entries make prefabs (by entry: 1 no, 2 yes): those with the Prefab tag, entry 0 on
   a main entity that is one, and the entries below them, as a prefab's children are
   prefabs. The parents make no cycle (checked). */
static void ecs_sched__data_prefabs(ecs_sched_world *w, const ecs_sched_prefab_data *d,
                                    ecs_sched_entity main, unsigned char *prefab) {
    uint32_t i;
    memset(prefab, 0, d->count);
    for (i = 0; i < d->count; i++) {
        int32_t at = (int32_t)i, up;
        unsigned char known = 0;
        for (; at >= 0 && !known; at = d->entries[at].parent) {
            known = prefab[at];
            if (!known && ecs_sched__entry_find(&d->entries[at], w->prefab)) known = 2;
            if (!known && at == 0 && main && ecs_sched__is_live_record(w, main) &&
                ecs_sched__is_prefab(w, main)) {
                known = 2;
            }
        }
        if (!known) known = 1;
        for (up = (int32_t)i; up >= 0 && !prefab[up]; up = d->entries[up].parent) prefab[up] = known;
    }
}

/* One copy per entry, in the entries' order, each with its table and a copy of its name. */
static ecs_sched_result ecs_sched__data_plan(ecs_sched_world *w, const ecs_sched_prefab_data *d,
                                             ecs_sched_entity main, ecs_sched__instancing *in) {
    uint32_t i, v;
    unsigned char *prefab;
    ecs_sched_result result = ECS_SCHED_OK;
    memset(in, 0, sizeof *in);
    in->copies = (ecs_sched__copy *)ecs_sched__calloc(&w->env, d->count * sizeof *in->copies);
    prefab = (unsigned char *)ecs_sched__alloc(&w->env, d->count);
    if (!in->copies || !prefab) {
        ecs_sched__free(&w->env, prefab);
        return ecs_sched__out_of_memory(w, "instantiating prefab data");
    }
    ecs_sched__data_prefabs(w, d, main, prefab);
    in->capacity = d->count;
    for (i = 0; i < d->count && result == ECS_SCHED_OK; i++) {
        const ecs_sched__entry *e = &d->entries[i];
        ecs_sched__copy *c = &in->copies[in->count++];
        ecs_sched_id ids[ECS_SCHED__MAX_TYPE];
        ecs_sched__table *from = i == 0 && main && ecs_sched__is_live_record(w, main)
                                     ? w->tables[w->records[ECS_SCHED_ENTITY_INDEX(main)].table]
                                     : w->tables[0];
        c->entry = e;
        c->parent = e->parent;
        for (v = 0; v < e->count; v++) ids[v] = e->values[v].id;
        if (c->parent >= 0) from = ecs_sched__table_step(w, from, w->child_of, false);
        if (from && prefab[i] == 2) from = ecs_sched__table_step(w, from, w->prefab, false);
        c->table = from ? ecs_sched__table_adding(w, from, (int32_t)e->count, ids) : NULL;
        if (!c->table) result = w->env.last_result;
        else if (e->name && !(c->name = ecs_sched__strdup(&w->env, e->name))) {
            result = ecs_sched__out_of_memory(w, "instantiating prefab data");
        }
    }
    ecs_sched__free(&w->env, prefab);
    return result;
}

/* The value of component id that entity e owns, wherever it is kept (a column of its table
   or a sparse set), or NULL. */
static unsigned char *ecs_sched__owned_value(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    const ecs_sched__record *r = &w->records[index];
    const ecs_sched__table *t = w->tables[r->table];
    int32_t column;
    if (w->components[id].sparse) return (unsigned char *)ecs_sched__sparse_value(w, id, index);
    column = ecs_sched__column_find(t, id);
    return column >= 0 ? (unsigned char *)ecs_sched__cell(t, column, r->row) : NULL;
}

/* The entity fields that name entries get the entities made of them. A field is written
   only inside a value the entity owns, at an offset its reflection vouched for (the links
   come from ecs_sched_prefab_data_set_entity): data never chooses where memory is written. */
static void ecs_sched__fill_entity_fields(ecs_sched_world *w, const ecs_sched_prefab_data *d,
                                          const ecs_sched__instancing *in) {
    uint32_t i;
    for (i = 0; i < d->link_count; i++) {
        const ecs_sched__entry_link *l = &d->links[i];
        unsigned char *value;
        if (l->relation) continue;
        value = ecs_sched__owned_value(w, in->copies[l->entry].made, l->id);
        if (!value || l->offset + sizeof(ecs_sched_entity) > w->components[l->id].size) continue;
        memcpy(value + l->offset, &in->copies[l->target].made, sizeof(ecs_sched_entity));
    }
}

/* The relationships between entries, once every entity is made (checked before: only the
   allocator can fail here). When it does, the main entity's new relationships go (so that no
   kind's rule on despawned targets reaches it), then the entities made are despawned again;
   the main entity keeps the values it gained. */
static ecs_sched_result ecs_sched__relate_entries(ecs_sched_world *w, const ecs_sched_prefab_data *d,
                                                  const ecs_sched__instancing *in) {
    ecs_sched_result result = ECS_SCHED_OK;
    uint32_t i;
    int32_t k;
    for (i = 0; i < d->link_count && result == ECS_SCHED_OK; i++) {
        const ecs_sched__entry_link *l = &d->links[i];
        if (!l->relation) continue;
        result = ecs_sched__relate_check(w, in->copies[l->entry].made, l->id,
                                         in->copies[l->target].made, "prefab_data_instantiate");
        if (result == ECS_SCHED_OK) {
            result = ecs_sched__relate_checked(w, in->copies[l->entry].made, l->id,
                                               in->copies[l->target].made, NULL, UINT32_MAX,
                                               "prefab_data_instantiate");
        }
    }
    if (result == ECS_SCHED_OK) return ECS_SCHED_OK;
    {
        char message[ECS_SCHED__ERROR_CAPACITY];
        memcpy(message, w->env.last_error, sizeof message);
        bool left = true;
        int32_t pass;
        while (i-- > 0) {
            const ecs_sched__entry_link *l = &d->links[i];
            ecs_sched_entity source = in->copies[l->entry].made, target = in->copies[l->target].made;
            if (!l->relation || !in->copies[l->entry].live ||
                !ecs_sched__rel_slot_of(w, source, l->id, target)) {
                continue;
            }
            ecs_sched__unrelate_checked(w, source, l->id, target);
        }
        for (pass = 0; left && pass < in->count; pass++) {   /* a base goes after its instances */
            left = false;
            for (k = in->count - 1; k >= 0; k--) {
                if (in->copies[k].live || !ecs_sched__is_live_record(w, in->copies[k].made)) continue;
                if (ecs_sched_despawn(w, in->copies[k].made) != ECS_SCHED_OK) left = true;
            }
        }
        return ecs_sched__fail(&w->env, result, "%s", message);
    }
}

static ecs_sched_result ecs_sched__data_instantiate_checked(ecs_sched_world *w,
                                                            const ecs_sched_prefab_data *d,
                                                            ecs_sched_entity main,
                                                            ecs_sched_entity *out) {
    ecs_sched__instancing in;
    ecs_sched_result result = ecs_sched__data_plan(w, d, main, &in);
    int32_t i;
    if (result == ECS_SCHED_OK && !ecs_sched__instancing_reserve(w, &in, main)) {
        ecs_sched__instancing_release(w, &in, main);
        result = ecs_sched__out_of_memory(w, "instantiating prefab data");
    }
    if (result == ECS_SCHED_OK) {
        ecs_sched__instancing_place(w, &in);
        ecs_sched__fill_entity_fields(w, d, &in);
        result = ecs_sched__relate_entries(w, d, &in);
        for (i = 0; out && result == ECS_SCHED_OK && i < in.count; i++) out[i] = in.copies[i].made;
    }
    ecs_sched__instancing_free(w, &in);
    if (w->observed) ecs_sched__observers_flush(w);
    return result;
}

ecs_sched_result ecs_sched_prefab_data_instantiate(ecs_sched_world *w,
                                                   const ecs_sched_prefab_data *d,
                                                   ecs_sched_entity main, ecs_sched_entity *out) {
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    if (!d) return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT, "prefab_data_instantiate: data is NULL");
    if (w->observed && ecs_sched__deferring(w)) {
        return ecs_sched_commands_prefab_data_instantiate(ecs_sched__deferring(w), d, main)
                   ? ECS_SCHED_OK : w->env.last_result;
    }
    if (ecs_sched__change_refused(w, "prefab_data_instantiate")) return ECS_SCHED_ERR_ACCESS;
    if (main && !ecs_sched__is_live_record(w, main)) {
        return ecs_sched__stale(w, main, "prefab_data_instantiate (the main entity)");
    }
    result = ecs_sched__data_check(w, d, main);
    return result != ECS_SCHED_OK ? result : ecs_sched__data_instantiate_checked(w, d, main, out);
}

/* Applied (ecs_sched__command_fn): prefab data instantiated onto the entity of the
   command (alive: the main entity; reserved: a new one). False when that entity is gone or
   the data does not fit the world as it is now (the command is skipped, the reason the last
   error). */
static bool ecs_sched__apply_data(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id,
                                  const void *slot, ecs_sched_result *result) {
    ecs_sched_entity pointer;
    const ecs_sched_prefab_data *d;
    bool reserved = ecs_sched__is_reserved(w, e);
    (void)id;
    memcpy(&pointer, slot, sizeof pointer);
    d = (const ecs_sched_prefab_data *)(uintptr_t)pointer;
    if (!reserved && !ecs_sched__is_live_record(w, e)) return false;
    if (ecs_sched__data_check(w, d, e) != ECS_SCHED_OK) {
        if (reserved) ecs_sched__release_index(w, ECS_SCHED_ENTITY_INDEX(e));
        return false;
    }
    *result = ecs_sched__data_instantiate_checked(w, d, e, NULL);
    return true;
}

ecs_sched_entity ecs_sched_commands_prefab_data_instantiate(ecs_sched_commands *cmd,
                                                            const ecs_sched_prefab_data *d,
                                                            ecs_sched_entity main) {
    ecs_sched_world *w;
    ecs_sched_entity e = main, pointer;
    if (ecs_sched__no_buffer(cmd)) return ECS_SCHED_NULL_ENTITY;
    w = cmd->world;
    if (!d) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "commands_prefab_data_instantiate: data is NULL");
        return ECS_SCHED_NULL_ENTITY;
    }
    if (main && ecs_sched__check_target(cmd, main, "commands_prefab_data_instantiate") != ECS_SCHED_OK) {
        return ECS_SCHED_NULL_ENTITY;
    }
    if (!main && !(e = ecs_sched__reserve_handle(w))) return ECS_SCHED_NULL_ENTITY;
    pointer = (ecs_sched_entity)(uintptr_t)d;   /* the slot holds the data's address */
    if (ecs_sched__record_call(cmd, ecs_sched__apply_data, !main, e, w->is_a, pointer, NULL,
                               0) != ECS_SCHED_OK) {
        if (!main) ecs_sched__release_index(w, ECS_SCHED_ENTITY_INDEX(e));
        return ECS_SCHED_NULL_ENTITY;
    }
    return e;
}

