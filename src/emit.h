/* emit: events the program sends to an entity, or to every observer of the event, and how
   they travel up a hierarchy. Without relationships (ECS_SCHED_NO_RELATIONS) an event does
   not travel. */
#pragma once
#include "hierarchy.h"

/* ---- events the program sends ----

   An event is a registered component (its type is the event's value, a tag carries none);
   ON_EVENT observers of its id hear it (Bevy's trigger, flecs's emit). */
typedef struct ecs_sched_event_desc {
    ecs_sched_id event;          /* required: the event's id */
    ecs_sched_entity entity;     /* the entity it is sent to; 0: to the observers of no
                                    entity only */
    const void *payload;         /* a value of the event's type for trigger->payload, or NULL */
    bool propagate;              /* travels from the entity up its ancestors, one after the
                                    other, until an observer stops it or a root is passed */
    ecs_sched_id traverse;       /* the relationship it travels along (default ChildOf): an
                                    exclusive, acyclic kind */
} ecs_sched_event_desc;

/* Sends an event: the observers of no entity hear it, and those of the entity it is at
   (trigger->entity; trigger->origin is where it was sent). What they change through the world
   is applied before it returns. Outside systems or in exclusive ones (in a system that runs
   beside others, ECS_SCHED_ERR_ACCESS). */
ECS_SCHED_API ecs_sched_result ecs_sched_emit(ecs_sched_world *world, const ecs_sched_event_desc *desc);
/* From an observer of a travelling event: it goes no further up (the observers at the
   entity it is at still hear it). */
ECS_SCHED_API void ecs_sched_stop_propagation(ecs_sched_system_ctx *ctx);

/*@@ implementation @@*/
/* emit: the observers are called by observer.h; this module finds where an event goes. */

static ecs_sched_result ecs_sched__emit_check(ecs_sched_world *w, const ecs_sched_event_desc *d,
                                              ecs_sched_id *traverse) {
    if (!d) return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT, "emit: desc is NULL");
    if (!ecs_sched__component_valid(w, d->event)) return ecs_sched__unknown_component(w, d->event, "emit");
    if (d->entity && !ecs_sched__is_live_record(w, d->entity)) return ecs_sched__stale(w, d->entity, "emit");
    if (ecs_sched__change_refused(w, "emit")) return ECS_SCHED_ERR_ACCESS;
    *traverse = 0;
    if (!d->propagate) return ECS_SCHED_OK;
    if (!d->entity) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "emit: event '%s' is to travel up, but is sent to no entity",
                               w->components[d->event].name);
    }
#ifdef ECS_SCHED_NO_RELATIONS
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "emit: event '%s' is to travel up, but this build leaves "
                           "relationships out (ECS_SCHED_NO_RELATIONS)", w->components[d->event].name);
#else
    *traverse = d->traverse ? d->traverse : w->child_of;
    if (!ecs_sched__is_kind(w, *traverse) ||
        (w->components[*traverse].relation & (ECS_SCHED__KIND_EXCLUSIVE | ECS_SCHED__KIND_ACYCLIC)) !=
            (ECS_SCHED__KIND_EXCLUSIVE | ECS_SCHED__KIND_ACYCLIC)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "emit: event '%s' is to travel along '%s', which is not an "
                               "exclusive, acyclic relationship kind (each entity needs one next "
                               "one up, and the way up an end; ChildOf is)",
                               w->components[d->event].name,
                               ecs_sched__component_label(w, *traverse));
    }
    return ECS_SCHED_OK;
#endif
}

/* Whether `ancestor` is one of e's ancestors along kind (ChildOf for .up observers). */
static bool ecs_sched__is_ancestor(const ecs_sched_world *w, ecs_sched_entity ancestor,
                                   ecs_sched_entity e) {
#ifndef ECS_SCHED_NO_RELATIONS
    while (ecs_sched__is_live_record(w, e) && (e = ecs_sched__up(w, e, w->child_of)) != 0) {
        if (e == ancestor) return true;
    }
#else
    (void)w;
    (void)ancestor;
    (void)e;
#endif
    return false;
}

/* The .up observers below entity `at` hear the event there; true when one stopped it. */
static bool ecs_sched__observe_event_below(ecs_sched_world *w, ecs_sched_entity at,
                                           const ecs_sched_event_desc *d) {
    ecs_sched__observers *all = ecs_sched__observers_of(w);
    ecs_sched_trigger trigger;
    bool was_stopped = all->stopped, stopped;
    uint32_t i;
    all->stopped = false;
    trigger = ecs_sched__trigger(ECS_SCHED_ON_EVENT, at, d->event, d->entity);
    trigger.payload = d->payload;
    for (i = 0; i < all->count; i++) {
        ecs_sched__observer *o = all->items[i];
        if (!o->up || o->event != ECS_SCHED_ON_EVENT || o->component != d->event ||
            o->entity == at || !ecs_sched__is_ancestor(w, at, o->entity)) {
            continue;
        }
        ecs_sched__observer_call(w, all, o, &trigger);
    }
    stopped = all->stopped;
    all->stopped = was_stopped;
    return stopped;
}

ecs_sched_result ecs_sched_emit(ecs_sched_world *w, const ecs_sched_event_desc *d) {
    ecs_sched_id traverse = 0;
    ecs_sched_entity at;
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    result = ecs_sched__emit_check(w, d, &traverse);
    if (result != ECS_SCHED_OK || !w->observed) return result;
    at = d->entity;
    /* (the kind is acyclic: the way up ends) */
    for (;;) {
        bool stopped = ecs_sched__observe_event(w, at, d->event, d->payload, d->entity);
        if (at && ecs_sched__observers_of(w)->ups && ecs_sched__observe_event_below(w, at, d)) {
            stopped = true;
        }
        if (stopped || !traverse || !ecs_sched__is_live_record(w, at)) break;
#ifndef ECS_SCHED_NO_RELATIONS
        at = ecs_sched__up(w, at, traverse);
#endif
        if (!at) break;
    }
    ecs_sched__observers_flush(w);
    return ECS_SCHED_OK;
}

void ecs_sched_stop_propagation(ecs_sched_system_ctx *ctx) {
    ecs_sched__observers *all;
    ECS_SCHED_ASSERT(ctx != NULL && ctx->observer);
    all = ecs_sched__observers_of(ctx->world);
    if (all) all->stopped = true;
}
