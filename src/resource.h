/* resource: one value per component type, owned by the world. */
#pragma once
#include "observer.h"

/* Creates or overwrites. value NULL: default value. */
ECS_SCHED_API ecs_sched_result ecs_sched_resource_insert(ecs_sched_world *world, ecs_sched_id id,
                                                         const void *value);
ECS_SCHED_API const void *ecs_sched_resource_get(ecs_sched_world *world, ecs_sched_id id);
ECS_SCHED_API void *ecs_sched_resource_get_mut(ecs_sched_world *world, ecs_sched_id id);
ECS_SCHED_API ecs_sched_result ecs_sched_resource_remove(ecs_sched_world *world, ecs_sched_id id);
ECS_SCHED_API bool ecs_sched_resource_exists(const ecs_sched_world *world, ecs_sched_id id);
/* Inserts a resource (or sets it) and makes it main-thread-only ("non-send": a window, a GL
   context): a system that declares it in .reads or .writes, or that a condition reading it
   guards, runs on the thread that runs the schedule, as if it asked for .main_thread. Reading
   it through a system context on any other thread is refused with ECS_SCHED_ERR_ACCESS.
   Make it so before the schedules that use it are built (they are built at their first run). */
ECS_SCHED_API ecs_sched_result ecs_sched_resource_insert_non_send(ecs_sched_world *world,
                                                                 ecs_sched_id id,
                                                                 const void *value);
ECS_SCHED_API bool ecs_sched_resource_is_non_send(const ecs_sched_world *world, ecs_sched_id id);

/*@@ implementation @@*/
/* resource: one value per component type, owned by the world (freed with it, world.h). A
   resource keeps when it was added and last changed while the world tracks changes. */

ecs_sched_result ecs_sched_resource_insert(ecs_sched_world *w, ecs_sched_id id, const void *value) {
    const ecs_sched__component *c;
    void *data;
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observed && ecs_sched__deferring(w)) {
        return ecs_sched__defer_set_resource(w, id, value);
    }
    if (ecs_sched__change_refused(w, "resource_insert")) return ECS_SCHED_ERR_ACCESS;
    if (!ecs_sched__component_valid(w, id)) {
        return ecs_sched__unknown_component(w, id, "resource_insert");
    }
    c = &w->components[id];
    if (w->resources[id]) {
        ecs_sched__assign(c, w->resources[id], value);
        if (w->ticks_on) w->resource_stamps[id].changed = ecs_sched__tick_now(w);
        return ECS_SCHED_OK;
    }
    data = ecs_sched__aligned_alloc(&w->env, c->size ? c->size : 1, c->alignment);
    if (!data) return ecs_sched__out_of_memory(w, "inserting a resource");
    ecs_sched__construct(c, data, value, 1);
    w->resources[id] = data;
    if (w->ticks_on) {
        w->resource_stamps[id].added = w->resource_stamps[id].changed = ecs_sched__tick_now(w);
    }
    return ECS_SCHED_OK;
}

/* The resource's value, or NULL with the reason as the last error. */
static void *ecs_sched__resource_value(ecs_sched_world *w, ecs_sched_id id) {
    if (!ecs_sched__component_valid(w, id)) {
        ecs_sched__unknown_component(w, id, "resource_get");
        return NULL;
    }
    if (!w->resources[id]) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_MISSING_RESOURCE,
                        "resource_get: there is no resource '%s' (insert it with "
                        "ecs_sched_resource_insert)",
                        w->components[id].name);
        return NULL;
    }
    return w->resources[id];
}

void *ecs_sched_resource_get_mut(ecs_sched_world *w, ecs_sched_id id) {
    void *value;
    ECS_SCHED__CHECK_WORLD(w);
    value = ecs_sched__resource_value(w, id);
    if (value && w->ticks_on) w->resource_stamps[id].changed = ecs_sched__tick_now(w);
    return value;
}

const void *ecs_sched_resource_get(ecs_sched_world *w, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__resource_value(w, id);
}

ecs_sched_result ecs_sched_resource_remove(ecs_sched_world *w, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observed && ecs_sched__refused_in_observer(w, "removing a resource")) {
        return ECS_SCHED_ERR_ACCESS;
    }
    if (ecs_sched__change_refused(w, "resource_remove")) return ECS_SCHED_ERR_ACCESS;
    if (!ecs_sched__component_valid(w, id)) {
        return ecs_sched__unknown_component(w, id, "resource_remove");
    }
    if (!w->resources[id]) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_MISSING_RESOURCE,
                               "resource_remove: there is no resource '%s'",
                               w->components[id].name);
    }
    ecs_sched__destruct(&w->components[id], w->resources[id], 1);
    ecs_sched__aligned_free(&w->env, w->resources[id]);
    w->resources[id] = NULL;
    return ECS_SCHED_OK;
}

bool ecs_sched_resource_exists(const ecs_sched_world *w, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__component_valid(w, id) && w->resources[id] != NULL;
}

ecs_sched_result ecs_sched_resource_insert_non_send(ecs_sched_world *w, ecs_sched_id id,
                                                   const void *value) {
    ecs_sched_result result = ecs_sched_resource_insert(w, id, value);
    if (result == ECS_SCHED_OK) w->components[id].non_send = true;
    return result;
}

bool ecs_sched_resource_is_non_send(const ecs_sched_world *w, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__component_valid(w, id) && w->components[id].non_send;
}

/* For world.h: its resources go with it. */
static void ecs_sched__resources_free(ecs_sched_world *w) {
    uint32_t i;
    for (i = 1; i < w->component_count; i++) {
        if (w->resources[i]) ecs_sched_resource_remove(w, i);
    }
}
