/* observer: code that runs the moment a component is added, written or removed. */
#pragma once
#include "context.h"
#include "trace_events.h"

/* ---- observers ----

   An observer is a function called for an event on a component, right where the change
   happens: in a direct world call, in the application of a command buffer (on the thread
   that applies it), in a batch spawn. Several observers of an event run in the order they
   were added. Inside one, the world can be read and values written (ecs_sched_get_mut);
   structural changes (spawn, insert, remove, despawn, resource insert) made through the world
   are deferred: recorded in the observer's own command buffer and applied once the
   operation that triggered it is complete (a spawn returns a handle that comes alive then).
   Running a schedule, applying commands or state transitions, adding or removing observers
   and removing a resource are refused inside an observer (ECS_SCHED_ERR_ACCESS). An observer
   fails like a system (ecs_sched_ctx_fail, or an unhandled failed call); the failure, named
   after the observer, becomes the failure of the system that made the change, or the
   world's last error outside systems. */

typedef enum ecs_sched_observer_event {
    ECS_SCHED_ON_ADD = 1,      /* the entity gains the component */
    ECS_SCHED_ON_INSERT,       /* a value is written by an insert (new or over an old one),
                                  a spawn with it, or a command; after ON_ADD */
    ECS_SCHED_ON_REMOVE,       /* the entity is about to lose it (remove, despawn, the world's
                                  destruction); its value can still be read */
    ECS_SCHED_ON_DESPAWN,      /* the entity is about to be despawned (component 0), before
                                  the ON_REMOVE of its components */
    /* flecs's OnSet and UnSet: */
    ECS_SCHED_ON_SET,          /* a value is set: by an insert, a spawn with it or a command
                                  (after ON_INSERT), by ecs_sched_modified, or by a value
                                  becoming visible through inheritance (its own one removed
                                  while a base has one, a base that gains one, a new base) */
    ECS_SCHED_ON_UNSET,        /* the entity no longer has a value: removed with no base to
                                  give one, despawned, its base's value removed, its base
                                  gone; before it goes (readable) */
    /* monitors, observers with a query only: */
    ECS_SCHED_ON_MATCH,        /* the entity starts matching the query (after the change) */
    ECS_SCHED_ON_UNMATCH,      /* it stops matching it (after the change; despawned: before) */
    /* events the program sends (ecs_sched_emit): .component is the event's id */
    ECS_SCHED_ON_EVENT
} ecs_sched_observer_event;

/* What happened. */
typedef struct ecs_sched_trigger {
    ecs_sched_observer_event event;
    ecs_sched_entity entity;
    ecs_sched_id component;    /* 0 for ON_DESPAWN */
    ecs_sched_entity target;   /* for a relationship kind: the target (else 0) */
    /* ON_EVENT: the event's value (NULL when sent without one), and the entity it was sent
       to (entity is where it has travelled to since: see ecs_sched_emit) */
    const void *payload;
    ecs_sched_entity origin;
} ecs_sched_trigger;

/* Gets the observer's context: ecs_sched_ctx_world, ecs_sched_ctx_user_data,
   ecs_sched_ctx_commands, ecs_sched_ctx_fail work as in an exclusive system. */
typedef void (*ecs_sched_observer_fn)(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *trigger);

typedef struct ecs_sched_observer_desc {
    const char *name;                                 /* for messages; default "observer" */
    ecs_sched_observer_event event;                   /* required */
    ecs_sched_id component;                           /* required, but 0 for ON_DESPAWN */
    ecs_sched_observer_fn fn;                         /* required */
    void *user_data;
    ecs_sched_id with[ECS_SCHED_MAX_OBSERVER_FILTER];    /* only entities that have these */
    ecs_sched_id without[ECS_SCHED_MAX_OBSERVER_FILTER]; /* and none of these */
    /* Prefabs and disabled entities are not heard of, as queries do not see them, unless
       the observer names their tag (.component, .with or .without) or asks here. */
    bool sees_prefabs;
    bool sees_disabled;
    /* An observer with a query (flecs's multi-term observers), instead of .component: called
       when `event` happens to one of the query's components on an entity that matches the
       whole query (for ON_REMOVE: before the removal, as it matches then; for ON_DESPAWN:
       any matching entity despawned). trigger->component tells which. The query is matched
       by the entity's table: terms that pick rows within a table (added, changed, related,
       from the parent or an entity, inherited, a resource, sparse components, each target,
       toggleable components required or left out) are refused. Give it as terms, or as
       text (see QUERIES AS TEXT). */
    ecs_sched_query_desc query;
    const char *query_text;
    /* ON_ADD and ON_INSERT: called at once for the entities that match already, as if each
       had just been given the component (flecs's yield_existing); what it defers is applied
       before ecs_sched_observer_add returns. */
    bool yield_existing;
    /* An entity observer (Bevy's entity.observe): hears only what happens to this entity (or
       an event sent to it, or travelling through it). */
    ecs_sched_entity entity;
    /* An entity observer that also hears what happens to its entity's ancestors along
       ChildOf (flecs's up traversal): their components' events, or (ON_EVENT) the events sent
       to or travelling through them; trigger->entity is where it happens. */
    bool up;
} ecs_sched_observer_desc;

/* Adds an observer; returns its id (never 0 and never reused), or 0 on failure. */
ECS_SCHED_API uint32_t ecs_sched_observer_add(ecs_sched_world *world,
                                              const ecs_sched_observer_desc *desc);
/* Removes it; an id that is not an observer of the world (removed already) is
   ECS_SCHED_ERR_INVALID_ARGUMENT. */
ECS_SCHED_API ecs_sched_result ecs_sched_observer_remove(ecs_sched_world *world, uint32_t id);

/*@@ implementation @@*/
/* observer: code that runs the moment a component is added, written or removed. */

#define ECS_SCHED__OBSERVER_ROUNDS 1000   /* rounds of deferred changes before giving up */

typedef struct ecs_sched__observer {
    uint32_t id;
    ecs_sched_observer_event event;
    ecs_sched_id component;
    ecs_sched_observer_fn fn;
    ecs_sched_id with[ECS_SCHED_MAX_OBSERVER_FILTER];
    ecs_sched_id without[ECS_SCHED_MAX_OBSERVER_FILTER];
    bool filtered;                   /* has with or without */
    bool sees_prefabs;               /* hears of prefabs (asked, or names the tag) */
    bool sees_disabled;              /* hears of disabled entities (the same) */
    ecs_sched_query *query;          /* an observer with a query: the query, its own */
    ecs_sched_id watched[ECS_SCHED_MAX_TERMS];   /* and the components it watches */
    int32_t watched_count;
    ecs_sched_entity entity;         /* an entity observer's entity, or 0 */
    bool up;                         /* it hears its entity's ancestors' events too (emit.h) */
    char *name;
    ecs_sched_system_ctx ctx;        /* kind "observer", with a command buffer of its own */
} ecs_sched__observer;

/* How many observers watch a component, by event (ON_DESPAWN watches no component). */
typedef struct ecs_sched__watchers {
    uint32_t count[ECS_SCHED_ON_EVENT + 1];
} ecs_sched__watchers;

typedef struct ecs_sched__observers ecs_sched__observers;

/* The part of the world this module keeps (registry.h). */
static ecs_sched__part_key ecs_sched__observers_key;

struct ecs_sched__observers {
    ecs_sched__observer **items;     /* in the order they were added */
    uint32_t count;
    uint32_t capacity;
    uint32_t next_id;
    int32_t dispatching;             /* observers are being called (nesting depth) */
    bool deferred;                   /* some left changes that no flush applied yet */
    bool flushing;                   /* their deferred changes are being applied */
    ecs_sched__watchers *watchers;   /* by component id, below watcher_capacity */
    uint32_t watcher_capacity;
    uint32_t monitors;               /* ON_MATCH and ON_UNMATCH observers */
    bool stopped;                    /* an observer stopped the event it hears (emit.h) */
    uint32_t ups;                    /* .up observers */
};

static inline ecs_sched__observers *ecs_sched__observers_of(const ecs_sched_world *w) {
    return (ecs_sched__observers *)ecs_sched__part(w, &ecs_sched__observers_key);
}

static void ecs_sched__observer_free(ecs_sched_world *w, ecs_sched__observer *o) {
    ecs_sched_commands_destroy(o->ctx.commands);
    ecs_sched_query_destroy(o->query);
    ecs_sched__free(&w->env, o->ctx.run.failure_message);
    ecs_sched__free(&w->env, o->ctx.cursors);
    ecs_sched__free(&w->env, o->name);
    ecs_sched__free(&w->env, o);
}

/* For world.h: observers go with the world (before its command
   buffers). */
static void ecs_sched__observers_free(ecs_sched_world *w) {
    ecs_sched__observers *all = ecs_sched__observers_of(w);
    uint32_t i;
    if (!all) return;
    for (i = 0; i < all->count; i++) ecs_sched__observer_free(w, all->items[i]);
    ecs_sched__free(&w->env, all->items);
    ecs_sched__free(&w->env, all->watchers);
    ecs_sched__free(&w->env, all);
    ecs_sched__part_set(w, &ecs_sched__observers_key, NULL);
    w->observed = false;
}

/* The observer running on this thread for w, or NULL. */
static ecs_sched_system_ctx *ecs_sched__observer_running(const ecs_sched_world *w) {
    ecs_sched_system_ctx *ctx;
    if (!ecs_sched__observers_of(w) || !ecs_sched__observers_of(w)->dispatching) return NULL;
    ctx = ecs_sched__ctx_running_in(&w->env);
    return ctx && ctx->observer ? ctx : NULL;
}

/* For what an observer may not do: refuses it (its failure) when one is running. */
static bool ecs_sched__refused_in_observer(ecs_sched_world *w, const char *what) {
    if (!ecs_sched__observer_running(w)) return false;
    ecs_sched__refuse(&w->env, ECS_SCHED_ERR_ACCESS,
                      "%s inside an observer: an observer runs in the middle of a change to the "
                      "world; do it from a system (or record what it needs in a command)", what);
    return true;
}

/* ---- adding and removing ---- */

static bool ecs_sched__observer_has_query(const ecs_sched_observer_desc *d) {
    return d->query_text || d->query.terms[0].id != 0;
}

static ecs_sched_result ecs_sched__observer_check(ecs_sched_world *w,
                                                  const ecs_sched_observer_desc *d) {
    const char *name = d && d->name ? d->name : "observer";
    int32_t i;
    if (!d || !d->fn) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "observer_add: observer '%s' has no function", name);
    }
    if (d->event < ECS_SCHED_ON_ADD || d->event > ECS_SCHED_ON_EVENT) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "observer_add: observer '%s' has no event (ECS_SCHED_ON_ADD, "
                               "_ON_INSERT, _ON_REMOVE, _ON_DESPAWN, _ON_SET, _ON_UNSET, "
                               "_ON_MATCH, _ON_UNMATCH or _ON_EVENT)", name);
    }
    if (d->entity && !ecs_sched__is_live_record(w, d->entity)) {
        return ecs_sched__stale(w, d->entity, "observer_add: the entity of an entity observer");
    }
    if (d->up && (!d->entity || d->event == ECS_SCHED_ON_DESPAWN ||
                  d->event == ECS_SCHED_ON_MATCH || d->event == ECS_SCHED_ON_UNMATCH)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "observer_add: observer '%s' asks for its entity's ancestors' "
                               "events (.up), which an entity observer of a component's events "
                               "(ON_ADD, _INSERT, _REMOVE, _SET, _UNSET) or of ON_EVENT does",
                               name);
    }
    if (d->event == ECS_SCHED_ON_EVENT && (ecs_sched__observer_has_query(d) || d->yield_existing)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "observer_add: observer '%s' hears an event sent by the program "
                               "(ON_EVENT), which has no query and nothing existing to yield: "
                               "give the event's id as .component", name);
    }
    if ((d->event == ECS_SCHED_ON_MATCH || d->event == ECS_SCHED_ON_UNMATCH) &&
        !ecs_sched__observer_has_query(d)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "observer_add: observer '%s' is a monitor (ON_MATCH or "
                               "ON_UNMATCH) without a query: give .query or .query_text", name);
    }
    if (ecs_sched__observer_has_query(d)) {
        if (d->component) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "observer_add: observer '%s' has both a component and a "
                                   "query; an observer with a query watches the query's "
                                   "components: leave .component 0", name);
        }
    } else if (d->event == ECS_SCHED_ON_DESPAWN ? d->component != 0
                                                : !ecs_sched__component_valid(w, d->component)) {
        if (d->event == ECS_SCHED_ON_DESPAWN) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "observer_add: observer '%s' watches ON_DESPAWN, an event of "
                                   "entities: leave .component 0", name);
        }
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_UNKNOWN_COMPONENT,
                               "observer_add: observer '%s' watches component id %u, which is "
                               "not registered in this world", name, (unsigned)d->component);
    }
    if (d->component && w->components[d->component].queue) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "observer_add: observer '%s' watches '%s', a message type; "
                               "read messages with ecs_sched_ctx_messages", name,
                               w->components[d->component].name);
    }
    if (d->yield_existing && d->event != ECS_SCHED_ON_ADD && d->event != ECS_SCHED_ON_INSERT) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "observer_add: observer '%s' asks to yield existing entities, "
                               "which ON_ADD and ON_INSERT observers do (there is nothing to "
                               "remove or despawn yet)", name);
    }
    if (d->yield_existing && d->component &&
        (w->components[d->component].sparse || w->components[d->component].relation)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "observer_add: observer '%s' asks to yield the existing entities "
                               "with '%s', a %s; yield_existing covers table components (find "
                               "the others with a query and call the function yourself)", name,
                               w->components[d->component].name,
                               w->components[d->component].sparse ? "sparse component"
                                                                  : "relationship kind");
    }
    for (i = 0; i < ECS_SCHED_MAX_OBSERVER_FILTER; i++) {
        ecs_sched_id id = d->with[i] ? d->with[i] : d->without[i];
        if ((d->with[i] && !ecs_sched__component_valid(w, d->with[i])) ||
            (d->without[i] && !ecs_sched__component_valid(w, d->without[i]))) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_UNKNOWN_COMPONENT,
                                   "observer_add: observer '%s' filters on component id %u, "
                                   "which is not registered in this world", name,
                                   (unsigned)(d->with[i] && !ecs_sched__component_valid(w, d->with[i])
                                                  ? d->with[i] : d->without[i]));
        }
        (void)id;
    }
    return ECS_SCHED_OK;
}

/* Room in the watcher counts for component `id` (new counts are zero). */
static bool ecs_sched__watchers_reserve(ecs_sched_world *w, ecs_sched__observers *all,
                                        ecs_sched_id id) {
    uint32_t had = all->watcher_capacity;
    if (id < had) return true;
    if (!ECS_SCHED__GROW(&w->env, all->watchers, &all->watcher_capacity, id + 1)) return false;
    memset(all->watchers + had, 0, (all->watcher_capacity - had) * sizeof *all->watchers);
    return true;
}

/* Whether some observer watches `event` on component `id`. */
static inline bool ecs_sched__watched(const ecs_sched_world *w, ecs_sched_id id,
                                      ecs_sched_observer_event event) {
    const ecs_sched__observers *all = ecs_sched__observers_of(w);
    return id < all->watcher_capacity && all->watchers[id].count[event] != 0;
}

/* Whether the observer names a tag: watches it, or filters on it (as a query that names the
   Prefab or Disabled tag sees the entities it hides). */
static bool ecs_sched__observer_names(const ecs_sched_observer_desc *d, ecs_sched_id tag) {
    int32_t i;
    if (d->component == tag) return true;
    for (i = 0; i < ECS_SCHED_MAX_OBSERVER_FILTER; i++) {
        if (d->with[i] == tag || d->without[i] == tag) return true;
    }
    return false;
}

/* An observer's query, from its terms or its text; NULL (with the reason) when it cannot be
   made or picks rows within a table, which an observer cannot tell by the entity's table. */
static ecs_sched_query *ecs_sched__observer_query(ecs_sched_world *w,
                                                  const ecs_sched_observer_desc *d,
                                                  const char *name) {
    const ecs_sched__queries *queries = ecs_sched__queries_of(w);
    ecs_sched_query_desc parsed;
    const ecs_sched_query_desc *qd = &d->query;
    ecs_sched_query *q;
    if (d->query_text) {
        if (d->query.terms[0].id) {
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                            "observer_add: observer '%s' has both .query_text and .query; give "
                            "one", name);
            return NULL;
        }
        if (!queries || !queries->from_text) {
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                            "observer_add: observer '%s' gives its query as text, but this "
                            "build leaves queries as text out (ECS_SCHED_NO_QUERY_TEXT); give "
                            ".query instead", name);
            return NULL;
        }
        if (queries->from_text(w, d->query_text, &parsed) != ECS_SCHED_OK) return NULL;
        qd = &parsed;
    }
    q = ecs_sched_query_create(w, qd);
    if (!q) return NULL;
    if (q->ticked || q->inherits || q->listed || q->sparse) {
        ecs_sched_query_destroy(q);
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                        "observer_add: observer '%s' has a query with a term that picks rows "
                        "within a table (added, changed, related, from the parent or an "
                        "entity, inherited, a resource, a sparse component, each target, a "
                        "toggleable component required or left out); an "
                        "observer's query is matched by the entity's table: leave such terms "
                        "to the observer's function", name);
        return NULL;
    }
    return q;
}

/* The components an observer with a query watches: those its terms require or read on the
   entity. */
static void ecs_sched__observer_watch_query(ecs_sched__observer *o) {
    int32_t i;
    if (o->event == ECS_SCHED_ON_DESPAWN) return;   /* watches entities, not components */
    for (i = 0; i < o->query->term_count; i++) {
        if (o->query->terms[i].kind == ECS_SCHED_TERM_WITHOUT) continue;
        o->watched[o->watched_count++] = o->query->terms[i].id;
    }
}

/* Whether observer o watches `component` (0: a despawn). */
static bool ecs_sched__observer_watches(const ecs_sched__observer *o, ecs_sched_id component) {
    int32_t i;
    if (!o->query) return o->component == component;
    if (o->event == ECS_SCHED_ON_DESPAWN) return component == 0;
    for (i = 0; i < o->watched_count; i++) {
        if (o->watched[i] == component) return true;
    }
    return false;
}

static void ecs_sched__watchers_count(ecs_sched__observers *all, const ecs_sched__observer *o,
                                      int32_t by) {
    int32_t i;
    if (o->up) all->ups += (uint32_t)by;
    if (o->event == ECS_SCHED_ON_MATCH || o->event == ECS_SCHED_ON_UNMATCH) {
        all->monitors += (uint32_t)by;   /* told of every move (see observe_moved) */
        return;
    }
    if (!o->query) {
        if (o->component) all->watchers[o->component].count[o->event] += (uint32_t)by;
        return;
    }
    for (i = 0; i < o->watched_count; i++) {
        all->watchers[o->watched[i]].count[o->event] += (uint32_t)by;
    }
}

static void ecs_sched__observer_yield_existing(ecs_sched_world *w, ecs_sched__observer *o);

uint32_t ecs_sched_observer_add(ecs_sched_world *w, const ecs_sched_observer_desc *desc) {
    ecs_sched__observers *all;
    ecs_sched__observer *o;
    ECS_SCHED__CHECK_WORLD(w);
    if (ecs_sched__refused_in_observer(w, "adding an observer")) return 0;
    if (ecs_sched__observer_check(w, desc) != ECS_SCHED_OK) return 0;
    all = ecs_sched__observers_of(w);
    if (!all) {
        all = (ecs_sched__observers *)ecs_sched__calloc(&w->env, sizeof *all);
        if (!all) {
            ecs_sched__out_of_memory(w, "adding an observer");
            return 0;
        }
        ecs_sched__part_set(w, &ecs_sched__observers_key, all);
        w->observed = true;
    }
    if (!ecs_sched__watchers_reserve(w, all, w->component_count) ||
        !ECS_SCHED__GROW(&w->env, all->items, &all->capacity, all->count + 1) ||
        !(o = (ecs_sched__observer *)ecs_sched__calloc(&w->env, sizeof *o))) {
        ecs_sched__out_of_memory(w, "adding an observer");
        return 0;
    }
    o->name = ecs_sched__strdup(&w->env, desc->name ? desc->name : "observer");
    o->ctx.commands = o->name ? ecs_sched_commands_create(w) : NULL;
    if (!o->name || !o->ctx.commands) {
        ecs_sched__free(&w->env, o->name);
        ecs_sched__free(&w->env, o);
        ecs_sched__out_of_memory(w, "adding an observer");
        return 0;
    }
    if (ecs_sched__observer_has_query(desc) &&
        !(o->query = ecs_sched__observer_query(w, desc, o->name))) {
        ecs_sched__observer_free(w, o);
        return 0;
    }
    o->id = ++all->next_id;
    o->event = desc->event;
    o->entity = desc->entity;
    o->up = desc->up;
    o->component = desc->component;
    o->fn = desc->fn;
    memcpy(o->with, desc->with, sizeof o->with);
    memcpy(o->without, desc->without, sizeof o->without);
    o->filtered = desc->with[0] || desc->without[0];
    {
        int32_t i;
        for (i = 0; i < ECS_SCHED_MAX_OBSERVER_FILTER; i++) o->filtered |= desc->with[i] || desc->without[i];
    }
    o->sees_prefabs = desc->sees_prefabs || ecs_sched__observer_names(desc, w->prefab);
    o->sees_disabled = desc->sees_disabled || ecs_sched__observer_names(desc, w->disabled);
    o->ctx.world = w;
    o->ctx.run.env = &w->env;
    o->ctx.run.owner = &o->ctx;
    o->ctx.run.name = o->name;
    o->ctx.run.kind = "observer";
    o->ctx.user_data = desc->user_data;
    o->ctx.run.exclusive = true;
    o->ctx.observer = true;
    if (o->query) ecs_sched__observer_watch_query(o);
    all->items[all->count++] = o;
    ecs_sched__watchers_count(all, o, 1);
    if (desc->yield_existing) ecs_sched__observer_yield_existing(w, o);
    return o->id;
}

ecs_sched_result ecs_sched_observer_remove(ecs_sched_world *w, uint32_t id) {
    ecs_sched__observers *all;
    uint32_t i;
    ECS_SCHED__CHECK_WORLD(w);
    if (ecs_sched__refused_in_observer(w, "removing an observer")) return ECS_SCHED_ERR_ACCESS;
    all = ecs_sched__observers_of(w);
    for (i = 0; all && i < all->count; i++) {
        ecs_sched__observer *o = all->items[i];
        if (o->id != id) continue;
        ecs_sched__watchers_count(all, o, -1);
        memmove(&all->items[i], &all->items[i + 1], (all->count - i - 1) * sizeof *all->items);
        all->count--;
        ecs_sched__observer_free(w, o);
        return ECS_SCHED_OK;
    }
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "observer_remove: %u is not an observer of this world (was it "
                           "removed already?)", (unsigned)id);
}

/* ---- calling them ---- */

static bool ecs_sched__observer_filters_pass(const ecs_sched_world *w, const ecs_sched__observer *o,
                                             ecs_sched_entity e) {
    const ecs_sched__table *t = w->tables[w->records[ECS_SCHED_ENTITY_INDEX(e)].table];
    int32_t i;
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    for (i = 0; i < ECS_SCHED_MAX_OBSERVER_FILTER; i++) {
        if (o->with[i] && !ecs_sched__owns(w, t, index, o->with[i])) return false;
        if (o->without[i] && ecs_sched__owns(w, t, index, o->without[i])) return false;
    }
    return true;
}

/* A failure of an observer: the failure of what made the change (a system, a command
   applier), or the world's last error. */
static void ecs_sched__observer_failed(ecs_sched_world *w, ecs_sched__observer *o) {
    char fallback[ECS_SCHED__ERROR_CAPACITY];
    const char *message = ecs_sched__ctx_failure_message(&o->ctx, fallback, sizeof fallback);
    ecs_sched_result code = o->ctx.run.failure;
    o->ctx.run.failure = ECS_SCHED_OK;
    o->ctx.run.failure_refused = false;
    ecs_sched__fail_text(&w->env, code, message);
}

#ifdef ECS_SCHED_TRACE
static void ecs_sched__call_observer_traced(ecs_sched_world *w, ecs_sched__observer *o,
                                            const ecs_sched_trigger *trigger) {
    static const char *const events[] = {"?",      "on_add",   "on_insert",
                                         "on_remove", "on_despawn", "on_set",
                                         "on_unset", "on_match", "on_unmatch",
                                         "on_event"};
    unsigned event = (unsigned)trigger->event;
    int64_t begin = ecs_sched__trace_ticks();
    o->fn(&o->ctx, trigger);
    ecs_sched__trace_add(w, ECS_SCHED__TRACE_OBSERVER,
                         events[event < sizeof events / sizeof *events ? event : 0u],
                         NULL,
                         trigger->component ? w->components[trigger->component].name : NULL,
                         begin, ecs_sched__trace_ticks(), (int32_t)o->id);
}

/* The name of observer `id`, or NULL once it is removed (trace.h writes it). */
static const char *ecs_sched__observer_name(const ecs_sched_world *w, uint32_t id) {
    uint32_t i;
    if (!ecs_sched__observers_of(w)) return NULL;
    for (i = 0; i < ecs_sched__observers_of(w)->count; i++) {
        if (ecs_sched__observers_of(w)->items[i]->id == id) return ecs_sched__observers_of(w)->items[i]->name;
    }
    return NULL;
}
#endif

/* Whether observer o hears of entity e: prefabs and disabled entities only when it asked. */
static bool ecs_sched__observer_hears(const ecs_sched_world *w, const ecs_sched__observer *o,
                                      ecs_sched_entity e) {
    const ecs_sched__table *t;
    if (o->sees_prefabs && o->sees_disabled) return true;
    t = w->tables[w->records[ECS_SCHED_ENTITY_INDEX(e)].table];
    if (!o->sees_prefabs && ecs_sched__type_find(t, w->prefab) >= 0) return false;
    return o->sees_disabled || ecs_sched__type_find(t, w->disabled) < 0;
}

/* What happened, for the observers: `event` of `component` on e, sent to `origin` (e itself
   but for a travelling event); no target, no payload. */
static ecs_sched_trigger ecs_sched__trigger(ecs_sched_observer_event event, ecs_sched_entity e,
                                            ecs_sched_id component, ecs_sched_entity origin) {
    ecs_sched_trigger trigger;
    trigger.event = event;
    trigger.entity = e;
    trigger.component = component;
    trigger.target = ECS_SCHED_NULL_ENTITY;
    trigger.payload = NULL;
    trigger.origin = origin;
    return trigger;
}

/* Calls observer o: what it changes through the world is deferred into its buffer. */
static void ecs_sched__observer_call(ecs_sched_world *w, ecs_sched__observers *all,
                                     ecs_sched__observer *o, const ecs_sched_trigger *trigger) {
    ecs_sched__running *outer;
    if (w->ticks_on) {   /* its changes carry the tick of the one it observes */
        uint32_t tick = ecs_sched__tick_now(w);
        o->ctx.last_run = o->ctx.run.this_run;
        o->ctx.run.this_run = tick;
    }
    all->dispatching++;
    outer = ecs_sched__running_begin(&o->ctx);
#ifdef ECS_SCHED_TRACE
    if (ecs_sched__tracing(w)) ecs_sched__call_observer_traced(w, o, trigger);
    else
#endif
    o->fn(&o->ctx, trigger);
    ecs_sched__running_end(outer);
    all->dispatching--;
    if (o->ctx.commands->pending || o->ctx.commands->after_count) {
        all->deferred = true;   /* a flush has work */
    }
    if (o->ctx.run.failure != ECS_SCHED_OK) ecs_sched__observer_failed(w, o);
}

/* The component observer o would be told of for an entity of table t (its own, or the
   first its query watches that t has), or 0. */
static ecs_sched_id ecs_sched__observer_component_in(const ecs_sched__observer *o,
                                                     const ecs_sched__table *t) {
    int32_t i;
    if (!o->query) return ecs_sched__type_find(t, o->component) >= 0 ? o->component : 0;
    for (i = 0; i < o->watched_count; i++) {
        if (ecs_sched__type_find(t, o->watched[i]) >= 0) return o->watched[i];
    }
    return 0;
}

/* yield_existing: o is called for each entity that matches it already, then what it
   deferred is applied (through the world's hook: entity.h applies commands). */
static void ecs_sched__observer_yield_existing(ecs_sched_world *w, ecs_sched__observer *o) {
    ecs_sched__observers *all = ecs_sched__observers_of(w);
    uint32_t i, tables = w->table_count;
    ecs_sched_trigger trigger;
    trigger.event = o->event;
    trigger.target = ECS_SCHED_NULL_ENTITY;
    trigger.payload = NULL;
    for (i = 0; i < tables; i++) {
        ecs_sched__table *t = w->tables[i];
        int32_t row;
        trigger.component = ecs_sched__observer_component_in(o, t);
        if (!trigger.component || (o->query && !ecs_sched__query_matches(o->query, t, NULL))) {
            continue;
        }
        for (row = 0; row < t->count; row++) {
            trigger.entity = trigger.origin = t->entities[row];
            if ((o->entity && o->entity != trigger.entity) ||
                !ecs_sched__observer_hears(w, o, trigger.entity) ||
                (o->filtered && !ecs_sched__observer_filters_pass(w, o, trigger.entity))) {
                continue;
            }
            ecs_sched__observer_call(w, all, o, &trigger);
        }
    }
    if (all->deferred && w->hooks.apply_observed) w->hooks.apply_observed(w);
}

/* Whether observer o hears what happens to entity e: it is no entity's observer, or e is its
   entity, or (.up) one of its entity's ancestors. */
static bool ecs_sched__observer_of(const ecs_sched_world *w, const ecs_sched__observer *o,
                                   ecs_sched_entity e) {
    return !o->entity || o->entity == e || (o->up && w->hooks.is_ancestor(w, e, o->entity));
}

/* Calls the observers of `event` on `component` for entity e, in the order they were added
   (target: of a relationship, else 0). */
static void ecs_sched__observe_target(ecs_sched_world *w, ecs_sched_observer_event event,
                                      ecs_sched_entity e, ecs_sched_id component,
                                      ecs_sched_entity target) {
    ecs_sched__observers *all = ecs_sched__observers_of(w);
    ecs_sched_trigger trigger = ecs_sched__trigger(event, e, component, e);
    uint32_t i;
    trigger.target = target;
    for (i = 0; i < all->count; i++) {
        ecs_sched__observer *o = all->items[i];
        if (o->event != event || !ecs_sched__observer_watches(o, component) ||
            !ecs_sched__observer_of(w, o, e) || !ecs_sched__observer_hears(w, o, e) ||
            (o->filtered && !ecs_sched__observer_filters_pass(w, o, e)) ||
            (o->query && !ecs_sched__query_matches(
                             o->query, w->tables[w->records[ECS_SCHED_ENTITY_INDEX(e)].table], NULL))) {
            continue;
        }
        ecs_sched__observer_call(w, all, o, &trigger);
    }
}

static void ecs_sched__observe(ecs_sched_world *w, ecs_sched_observer_event event,
                               ecs_sched_entity e, ecs_sched_id component) {
    ecs_sched__observe_target(w, event, e, component, ECS_SCHED_NULL_ENTITY);
}

/* ---- events the program sends ---- */

/* Calls the observers of event `id` that hear entity e (observers of no entity, and e's own;
   e 0: only the former), with the event's payload and the entity it was sent to. True when
   one of them stopped it (ecs_sched_stop_propagation, emit.h). */
static bool ecs_sched__observe_event(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id,
                                     const void *payload, ecs_sched_entity origin) {
    ecs_sched__observers *all = ecs_sched__observers_of(w);
    ecs_sched_trigger trigger;
    bool was_stopped, stopped;
    uint32_t i;
    if (!all) return false;
    was_stopped = all->stopped;
    all->stopped = false;
    trigger = ecs_sched__trigger(ECS_SCHED_ON_EVENT, e, id, origin);
    trigger.payload = payload;
    for (i = 0; i < all->count; i++) {
        ecs_sched__observer *o = all->items[i];
        if (o->event != ECS_SCHED_ON_EVENT || o->component != id || (o->entity && o->entity != e)) {
            continue;
        }
        ecs_sched__observer_call(w, all, o, &trigger);
    }
    stopped = all->stopped;
    all->stopped = was_stopped;   /* an event sent from an observer stops on its own */
    return stopped;
}

/* ---- monitors ---- */

/* Calls the monitors of entity e that it starts matching (ON_MATCH) or stops matching
   (ON_UNMATCH) as it moved from table `before` (NULL: it was just spawned) to its own. */
static void ecs_sched__observe_moved(ecs_sched_world *w, ecs_sched_entity e,
                                     const ecs_sched__table *before) {
    ecs_sched__observers *all = ecs_sched__observers_of(w);
    ecs_sched__table *now = w->tables[w->records[ECS_SCHED_ENTITY_INDEX(e)].table];
    ecs_sched__table *was = before ? w->tables[before->index] : w->tables[0];
    ecs_sched_trigger trigger;
    uint32_t i;
    if (was == now) return;
    trigger = ecs_sched__trigger(ECS_SCHED_ON_MATCH, e, 0, e);
    for (i = 0; i < all->count; i++) {
        ecs_sched__observer *o = all->items[i];
        bool matched, matches;
        if (o->event != ECS_SCHED_ON_MATCH && o->event != ECS_SCHED_ON_UNMATCH) continue;
        matched = ecs_sched__query_matches(o->query, was, NULL);
        matches = ecs_sched__query_matches(o->query, now, NULL);
        if (matched == matches || (o->event == ECS_SCHED_ON_MATCH) != matches ||
            (o->entity && o->entity != e) ||
            (o->filtered && !ecs_sched__observer_filters_pass(w, o, e))) {
            continue;
        }
        trigger.event = o->event;
        ecs_sched__observer_call(w, all, o, &trigger);
    }
}

/* The entity is about to be despawned: the monitors it matches hear ON_UNMATCH. */
static void ecs_sched__observe_leaving(ecs_sched_world *w, ecs_sched_entity e) {
    ecs_sched__observers *all = ecs_sched__observers_of(w);
    ecs_sched__table *now = w->tables[w->records[ECS_SCHED_ENTITY_INDEX(e)].table];
    ecs_sched_trigger trigger;
    uint32_t i;
    trigger = ecs_sched__trigger(ECS_SCHED_ON_UNMATCH, e, 0, e);
    for (i = 0; i < all->count; i++) {
        ecs_sched__observer *o = all->items[i];
        if (o->event != ECS_SCHED_ON_UNMATCH || (o->entity && o->entity != e) ||
            !ecs_sched__query_matches(o->query, now, NULL) ||
            (o->filtered && !ecs_sched__observer_filters_pass(w, o, e))) {
            continue;
        }
        ecs_sched__observer_call(w, all, o, &trigger);
    }
}

/* An entity got components `ids` (those `before` lacked are new): monitors, ON_ADD for the
   new ones, then ON_INSERT, then ON_SET for all. */
static void ecs_sched__observe_inserted(ecs_sched_world *w, ecs_sched_entity e,
                                        const ecs_sched__table *before, int32_t count,
                                        const ecs_sched_id *ids) {
    int32_t i;
    /* sparse components are observed as their sets take them (sparse.h) */
    if (ecs_sched__observers_of(w)->monitors) ecs_sched__observe_moved(w, e, before);
    for (i = 0; i < count; i++) {
        if (ecs_sched__watched(w, ids[i], ECS_SCHED_ON_ADD) &&
            (!w->sparse_count || !w->components[ids[i]].sparse) &&
            (!before || ecs_sched__type_find(before, ids[i]) < 0)) {
            ecs_sched__observe(w, ECS_SCHED_ON_ADD, e, ids[i]);
        }
    }
    for (i = 0; i < count; i++) {
        if (ecs_sched__watched(w, ids[i], ECS_SCHED_ON_INSERT) &&
            (!w->sparse_count || !w->components[ids[i]].sparse)) {
            ecs_sched__observe(w, ECS_SCHED_ON_INSERT, e, ids[i]);
        }
    }
    for (i = 0; i < count; i++) {
        if (ecs_sched__watched(w, ids[i], ECS_SCHED_ON_SET) &&
            (!w->sparse_count || !w->components[ids[i]].sparse)) {
            ecs_sched__observe(w, ECS_SCHED_ON_SET, e, ids[i]);
            /* what its instances see, when e is a base and the value is new to it */
            if (w->hooks.base_value && (!before || ecs_sched__type_find(before, ids[i]) < 0)) {
                w->hooks.base_value(w, e, ids[i], ECS_SCHED_ON_SET);
            }
        }
    }
}

/* An entity is about to lose component `id` for good (despawned). */
static void ecs_sched__observe_removing(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    if (ecs_sched__watched(w, id, ECS_SCHED_ON_REMOVE)) {
        ecs_sched__observe(w, ECS_SCHED_ON_REMOVE, e, id);
    }
    if (ecs_sched__watched(w, id, ECS_SCHED_ON_UNSET)) {
        ecs_sched__observe(w, ECS_SCHED_ON_UNSET, e, id);
    }
}

/* Whether the entity would still have a value of `id` from a base once its own is gone. */
static bool ecs_sched__base_gives(const ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    bool found = false;
    if (!w->hooks.inherited_value) return false;
    (void)w->hooks.inherited_value(w, w->tables[w->records[ECS_SCHED_ENTITY_INDEX(e)].table], id,
                                   &found);
    return found;
}

/* An entity is about to lose component `id` by a remove: ON_REMOVE, and ON_UNSET unless a base
   gives it a value then (see ecs_sched__observe_removed). */
static void ecs_sched__observe_removing_one(ecs_sched_world *w, ecs_sched_entity e,
                                            ecs_sched_id id) {
    if (ecs_sched__watched(w, id, ECS_SCHED_ON_REMOVE)) {
        ecs_sched__observe(w, ECS_SCHED_ON_REMOVE, e, id);
    }
    if (ecs_sched__watched(w, id, ECS_SCHED_ON_UNSET)) {
        if (!ecs_sched__base_gives(w, e, id)) ecs_sched__observe(w, ECS_SCHED_ON_UNSET, e, id);
        if (w->hooks.base_value) w->hooks.base_value(w, e, id, ECS_SCHED_ON_UNSET);
    }
}

/* The entity lost component `id` by a remove, moving from table `before`: monitors, and
   ON_SET when a base's value shows now (the manual's first edge case of OnSet). */
static void ecs_sched__observe_removed(ecs_sched_world *w, ecs_sched_entity e,
                                       const ecs_sched__table *before, ecs_sched_id id) {
    if (ecs_sched__observers_of(w)->monitors) ecs_sched__observe_moved(w, e, before);
    if (ecs_sched__watched(w, id, ECS_SCHED_ON_SET) && ecs_sched__base_gives(w, e, id)) {
        ecs_sched__observe(w, ECS_SCHED_ON_SET, e, id);
    }
}

/* An entity is about to be despawned: ON_DESPAWN, then ON_REMOVE for each component of its
   table (its sparse components: sparse.h; its relationships: relation.h). The type is copied: an observer may register components (which moves nothing), but the type
   is read between calls. */
static void ecs_sched__observe_despawning(ecs_sched_world *w, ecs_sched_entity e) {
    ecs_sched_id type[ECS_SCHED__MAX_TYPE];
    const ecs_sched__table *t = w->tables[w->records[ECS_SCHED_ENTITY_INDEX(e)].table];
    int32_t i, n = t->type_count;
    memcpy(type, t->type, (size_t)n * sizeof *type);
    if (ecs_sched__observers_of(w)->monitors) ecs_sched__observe_leaving(w, e);
    ecs_sched__observe(w, ECS_SCHED_ON_DESPAWN, e, 0);
    for (i = 0; i < n; i++) ecs_sched__observe_removing(w, e, type[i]);
}


/* ---- what an observer does through the world: deferred into its buffer ---- */

/* The buffer deferred changes go to, when an observer runs; NULL otherwise. */
static ecs_sched_commands *ecs_sched__deferring(const ecs_sched_world *w) {
    ecs_sched_system_ctx *ctx = ecs_sched__observer_running(w);
    return ctx ? ctx->commands : NULL;
}

static ecs_sched_entity ecs_sched__defer_spawn_with(ecs_sched_world *w, int32_t count,
                                                    const ecs_sched_id *ids,
                                                    const void *const *values) {
    return ecs_sched_commands_spawn_with(ecs_sched__deferring(w), count, ids, values);
}

static ecs_sched_result ecs_sched__defer_despawn(ecs_sched_world *w, ecs_sched_entity e) {
    return ecs_sched_commands_despawn(ecs_sched__deferring(w), e);
}

static ecs_sched_result ecs_sched__defer_insert(ecs_sched_world *w, ecs_sched_entity e,
                                                ecs_sched_id id, const void *value) {
    return ecs_sched_commands_insert(ecs_sched__deferring(w), e, id, value);
}

static ecs_sched_result ecs_sched__defer_remove(ecs_sched_world *w, ecs_sched_entity e,
                                                ecs_sched_id id) {
    return ecs_sched_commands_remove(ecs_sched__deferring(w), e, id);
}

static ecs_sched_result ecs_sched__defer_set_resource(ecs_sched_world *w, ecs_sched_id id,
                                                      const void *value) {
    return ecs_sched_commands_set_resource(ecs_sched__deferring(w), id, value);
}
