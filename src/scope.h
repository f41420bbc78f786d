/* scope: the current scope, in which new entities are made and components named, entities
   made from paths, and modules: a plugin's components and entities under a scope of its
   own, imported once per world, its handles handed to each importer. */
#pragma once
#include "name.h"

/* ---- scopes ----

   While a scope is set, each entity spawned (ecs_sched_spawn, _spawn_with) becomes a child
   of it (ChildOf), and each component registered gets the scope's path in front of its name
   ("physics.RigidBody"), unless a component of that very name exists already. A system
   added then is named the same way ("physics.integrate"); its ordering (.after, .before,
   .in_set) names systems and sets in full. */

/* Sets the current scope (0: none) and returns the one before, to set it back. A dead
   entity is ECS_SCHED_ERR_STALE_ENTITY (the scope is left as it was, and 0 returned). */
ECS_SCHED_API ecs_sched_entity ecs_sched_set_scope(ecs_sched_world *world, ecs_sched_entity scope);
ECS_SCHED_API ecs_sched_entity ecs_sched_get_scope(const ecs_sched_world *world);
/* The entity `path` names from the current scope, else from each of its ancestors, else from
   the roots (ecs_sched_lookup_path's syntax), or ECS_SCHED_NULL_ENTITY (a miss). */
ECS_SCHED_API ecs_sched_entity ecs_sched_resolve(ecs_sched_world *world, const char *path);
/* The entity at `path` from `scope` (0: the roots), made with the parents it lacks, each
   named after its part ("ship.turret.barrel" makes what is missing of ship, turret and
   barrel); NULL separator: ".". A part "#<index>" that names no entity is refused
   (ECS_SCHED_ERR_NOT_FOUND): an entity is not made with a given index here. */
ECS_SCHED_API ecs_sched_entity ecs_sched_entity_from_path(ecs_sched_world *world,
                                                          ecs_sched_entity scope, const char *path,
                                                          const char *separator);

/* ---- modules ----

   A module is a function that registers what a part of a program uses (components, entities,
   schedules' systems) and writes their handles into a struct of the module's: the Vehicles
   example of the flecs manual, in C:

       typedef struct { ecs_sched_id car, wheel; } vehicles_module;
       static void vehicles_import(ecs_sched_world *w, void *handles) {
           vehicles_module *m = handles;
           m->car = ECS_SCHED_COMPONENT(w, Car);             // "vehicles.Car"
           m->wheel = ECS_SCHED_COMPONENT(w, Wheel);
       }
       vehicles_module vehicles;
       ecs_sched_import(w, &(ecs_sched_module_desc){.name = "vehicles",
           .fn = vehicles_import, .handles = &vehicles, .size = sizeof vehicles});

   The function runs once per world, with the module's entity (made from its name as a
   path: "game.vehicles") as the scope; importing again copies the handles it wrote. A module
   imports the modules it needs from its function. */
typedef void (*ecs_sched_module_fn)(ecs_sched_world *world, void *handles);

typedef struct ecs_sched_module_desc {
    const char *name;            /* required: the module's path ("physics", "game.ai") */
    ecs_sched_module_fn fn;      /* required */
    void *handles;               /* where the handles go (may be NULL with size 0) */
    size_t size;                 /* their size: the same at every import of the module */
} ecs_sched_module_desc;

/* Imports a module: ECS_SCHED_OK when it is there, its handles copied out. A module that
   imports itself through others is ECS_SCHED_ERR_INVALID_ARGUMENT (naming the chain); a
   size other than the first import's too. Outside systems, or in exclusive ones. */
ECS_SCHED_API ecs_sched_result ecs_sched_import(ecs_sched_world *world,
                                                const ecs_sched_module_desc *desc);
/* The module's entity, or ECS_SCHED_NULL_ENTITY when it is not imported. */
ECS_SCHED_API ecs_sched_entity ecs_sched_module_entity(ecs_sched_world *world, const char *name);

/*@@ implementation @@*/
/* scope: the scope is a field of the world the core reads (registry.h: a spawn's one branch);
   the hooks that put an entity into it and name a component after it are installed here,
   when a scope is first set. */

#define ECS_SCHED__SCOPE_NAME_MAX 256

static void ecs_sched__enter_scope(ecs_sched_world *w, ecs_sched_entity e) {
    if (!ecs_sched__is_live_record(w, w->scope)) {
        w->scope = ECS_SCHED_NULL_ENTITY;   /* the scope went: there is none */
        return;
    }
    (void)ecs_sched_set_parent(w, e, w->scope);
}

static bool ecs_sched__scoped_name(const ecs_sched_world *w, const char *name, char *out,
                                   size_t capacity) {
    int32_t length = ecs_sched_path(w, w->scope, ".", out, (int32_t)capacity);
    if (length < 0) return snprintf(out, capacity, "%s", name) < (int)capacity;
    return (size_t)length + 1 + strlen(name) < capacity &&
           snprintf(out + length, capacity - (size_t)length, ".%s", name) > 0;
}

ecs_sched_entity ecs_sched_set_scope(ecs_sched_world *w, ecs_sched_entity scope) {
    ecs_sched_entity before;
    ECS_SCHED__CHECK_WORLD(w);
    if (scope && !ecs_sched__is_live_record(w, scope)) {
        ecs_sched__stale(w, scope, "set_scope");
        return ECS_SCHED_NULL_ENTITY;
    }
    before = w->scope;
    w->hooks.enter_scope = ecs_sched__enter_scope;
    w->hooks.scoped_name = ecs_sched__scoped_name;
    w->scope = scope;
    return before;
}

ecs_sched_entity ecs_sched_get_scope(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return w->scope && ecs_sched__is_live_record(w, w->scope) ? w->scope : ECS_SCHED_NULL_ENTITY;
}

ecs_sched_entity ecs_sched_resolve(ecs_sched_world *w, const char *path) {
    ecs_sched_entity at = ecs_sched_get_scope(w);
    ECS_SCHED__CHECK_WORLD(w);
    for (;;) {
        ecs_sched_entity found = ecs_sched_lookup_path(w, at, path, NULL);
        if (found || !at) return found;
        at = ecs_sched_parent_of(w, at);
    }
}

/* The next part of a path from `at` (backslash escapes undone) into name; where the part
   ends. NULL when a part is too long. */
static const char *ecs_sched__path_part_name(const char *at, const char *separator, char *name,
                                             size_t capacity, bool *indexed) {
    size_t n = 0, sep = strlen(separator);
    *indexed = at[0] == '#';
    while (*at && strncmp(at, separator, sep) != 0) {
        if (*at == '\\' && at[1]) at++;
        if (n + 1 >= capacity) return NULL;
        name[n++] = *at++;
    }
    name[n] = '\0';
    return at;
}

ecs_sched_entity ecs_sched_entity_from_path(ecs_sched_world *w, ecs_sched_entity scope,
                                            const char *path, const char *separator) {
    const char *at = path;
    char name[ECS_SCHED__SCOPE_NAME_MAX];
    ECS_SCHED__CHECK_WORLD(w);
    if (!separator || !separator[0]) separator = ".";
    if (!path || !path[0]) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "entity_from_path: the path is %s", path ? "empty" : "NULL");
        return ECS_SCHED_NULL_ENTITY;
    }
    if (scope && !ecs_sched__is_live_record(w, scope)) {
        ecs_sched__stale(w, scope, "entity_from_path (the scope)");
        return ECS_SCHED_NULL_ENTITY;
    }
    for (;;) {
        const char *start = at;
        bool indexed;
        ecs_sched_entity next;
        at = ecs_sched__path_part_name(start, separator, name, sizeof name, &indexed);
        if (!at || !name[0]) {
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                            "entity_from_path: '%s' has %s part", path, at ? "an empty" : "a too long");
            return ECS_SCHED_NULL_ENTITY;
        }
        next = indexed ? ecs_sched_lookup_path(w, scope, start, separator)
                       : ecs_sched_lookup(w, scope, name);
        if (!next && indexed) {
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_NOT_FOUND,
                            "entity_from_path: '%.*s' in '%s' names no entity by its index, and "
                            "an entity is not made with a given one here (see ecs_sched_spawn_at)",
                            (int)(at - start), start, path);
            return ECS_SCHED_NULL_ENTITY;
        }
        if (!next) {
            ecs_sched_entity saved = w->scope;
            w->scope = ECS_SCHED_NULL_ENTITY;   /* made where the path says, not in the scope */
            next = ecs_sched_spawn(w);
            w->scope = saved;
            if (!next || (scope && ecs_sched_set_parent(w, next, scope) != ECS_SCHED_OK) ||
                ecs_sched_set_name(w, next, name) != ECS_SCHED_OK) {
                if (next) (void)ecs_sched_despawn(w, next);
                return ECS_SCHED_NULL_ENTITY;
            }
        }
        if (!*at) return next;
        scope = next;
        at += strlen(separator);
    }
}

/* ---- modules ---- */

typedef struct ecs_sched__module {
    char *name;
    ecs_sched_entity entity;
    void *handles;                 /* a copy of what the function wrote */
    size_t size;
    bool importing;                /* its function runs (an import of it again is a cycle) */
} ecs_sched__module;

typedef struct ecs_sched__modules {
    ecs_sched__module *items;
    uint32_t count, capacity;
} ecs_sched__modules;

static ecs_sched__part_key ecs_sched__modules_key;

static ecs_sched__modules *ecs_sched__modules_of(const ecs_sched_world *w) {
    return (ecs_sched__modules *)ecs_sched__part(w, &ecs_sched__modules_key);
}

/* For world.h: the modules go with the world. */
static void ecs_sched__modules_free(ecs_sched_world *w) {
    ecs_sched__modules *all = ecs_sched__modules_of(w);
    uint32_t i;
    if (!all) return;
    for (i = 0; i < all->count; i++) {
        ecs_sched__free(&w->env, all->items[i].name);
        ecs_sched__free(&w->env, all->items[i].handles);
    }
    ecs_sched__free(&w->env, all->items);
    ecs_sched__free(&w->env, all);
    ecs_sched__part_set(w, &ecs_sched__modules_key, NULL);
}

static ecs_sched__module *ecs_sched__module_find(const ecs_sched_world *w, const char *name) {
    ecs_sched__modules *all = ecs_sched__modules_of(w);
    uint32_t i;
    for (i = 0; all && i < all->count; i++) {
        if (strcmp(all->items[i].name, name) == 0) return &all->items[i];
    }
    return NULL;
}

/* The modules whose functions run, joined for a message ("a -> b -> a"). */
static void ecs_sched__module_chain(const ecs_sched_world *w, const char *name, char *out,
                                    size_t capacity) {
    const ecs_sched__modules *all = ecs_sched__modules_of(w);
    size_t n = 0;
    uint32_t i;
    out[0] = '\0';
    for (i = 0; all && i < all->count && n < capacity; i++) {
        if (!all->items[i].importing) continue;
        n += (size_t)snprintf(out + n, capacity - n, "%s -> ", all->items[i].name);
    }
    if (n < capacity) snprintf(out + n, capacity - n, "%s", name);
}

static ecs_sched_result ecs_sched__module_known(ecs_sched_world *w, const ecs_sched_module_desc *d,
                                                const ecs_sched__module *m) {
    char chain[256];
    if (m->importing) {
        ecs_sched__module_chain(w, d->name, chain, sizeof chain);
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "import: module '%s' imports itself (%s); break the cycle by "
                               "moving what both need into a module of its own", d->name, chain);
    }
    if (m->size != d->size) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "import: module '%s' was imported with handles of %lu bytes, and "
                               "now of %lu", d->name, (unsigned long)m->size,
                               (unsigned long)d->size);
    }
    if (d->size) memcpy(d->handles, m->handles, d->size);
    return ECS_SCHED_OK;
}

/* A new module's entry (the pointer may move as others are added: use its index). */
static int32_t ecs_sched__module_add(ecs_sched_world *w, const ecs_sched_module_desc *d,
                                     ecs_sched_entity entity) {
    ecs_sched__modules *all = ecs_sched__modules_of(w);
    ecs_sched__module *m;
    if (!all) {
        all = (ecs_sched__modules *)ecs_sched__calloc(&w->env, sizeof *all);
        if (!all) return -1;
        ecs_sched__part_set(w, &ecs_sched__modules_key, all);
    }
    if (!ECS_SCHED__GROW(&w->env, all->items, &all->capacity, all->count + 1)) return -1;
    m = &all->items[all->count];
    memset(m, 0, sizeof *m);
    m->name = ecs_sched__strdup(&w->env, d->name);
    m->handles = d->size ? ecs_sched__calloc(&w->env, d->size) : NULL;
    if (!m->name || (d->size && !m->handles)) {
        ecs_sched__free(&w->env, m->name);
        ecs_sched__free(&w->env, m->handles);
        return -1;
    }
    m->entity = entity;
    m->size = d->size;
    m->importing = true;
    return (int32_t)all->count++;
}

ecs_sched_result ecs_sched_import(ecs_sched_world *w, const ecs_sched_module_desc *d) {
    const ecs_sched__module *known;
    ecs_sched_entity entity, saved;
    ecs_sched__module *m;
    int32_t at;
    ECS_SCHED__CHECK_WORLD(w);
    if (!d || !d->name || !d->name[0] || !d->fn || (d->size && !d->handles)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "import: module '%s' needs a name, a function, and somewhere to "
                               "put its handles when it has some", d && d->name ? d->name : "?");
    }
    if (ecs_sched__change_refused(w, "import")) return ECS_SCHED_ERR_ACCESS;
    if ((known = ecs_sched__module_find(w, d->name)) != NULL) return ecs_sched__module_known(w, d, known);
    saved = w->scope;
    w->scope = ECS_SCHED_NULL_ENTITY;   /* a module's path is from the roots */
    entity = ecs_sched_entity_from_path(w, ECS_SCHED_NULL_ENTITY, d->name, NULL);
    w->scope = saved;
    if (!entity) return w->env.last_result;
    at = ecs_sched__module_add(w, d, entity);
    if (at < 0) return ecs_sched__out_of_memory(w, "importing a module");
    saved = ecs_sched_set_scope(w, entity);
    if (d->size) memset(d->handles, 0, d->size);
    d->fn(w, d->handles);
    (void)ecs_sched_set_scope(w, saved);
    m = &ecs_sched__modules_of(w)->items[at];
    m->importing = false;
    if (d->size) memcpy(m->handles, d->handles, d->size);
    return ECS_SCHED_OK;
}

ecs_sched_entity ecs_sched_module_entity(ecs_sched_world *w, const char *name) {
    const ecs_sched__module *m;
    ECS_SCHED__CHECK_WORLD(w);
    m = name ? ecs_sched__module_find(w, name) : NULL;
    return m && ecs_sched__is_live_record(w, m->entity) ? m->entity : ECS_SCHED_NULL_ENTITY;
}
