/* world: a world made, checked and destroyed. The one module that knows every other: what
   a world holds when it is made (the tags and relationships every world has), what goes with
   it, and what its consistency check asks of each module. Every other module comes before
   it and none calls it. A module left out by a switch (ECS_SCHED_NO_RELATIONS...) is neither
   made, freed nor checked here. */
#pragma once
#include "time.h"
#include "transition.h"
#include "json_save.h"
#include "snapshot.h"
#include "sort.h"
#include "sparse_query.h"
#include "dot.h"
#include "disable.h"
#include "scope.h"
#include "query_text.h"
#include "emit.h"
#include "script.h"

/* desc may be NULL. Returns NULL only when the allocator fails. */
ECS_SCHED_API ecs_sched_world *ecs_sched_world_create(const ecs_sched_world_desc *desc);
/* Destroys every value (dtor hooks), query, command buffer and resource of the world. */
ECS_SCHED_API void ecs_sched_world_destroy(ecs_sched_world *world);
/* Cross-checks the entity index, every table, and every query cache. */
ECS_SCHED_API ecs_sched_result ecs_sched_world_check(ecs_sched_world *world);

/*@@ implementation @@*/
/* world: made, destroyed and checked (see the module's first comment). */

/* The executor a zero field means: parallel where there are threads. */
static ecs_sched_executor ecs_sched__default_executor(void) {
#ifdef ECS_SCHED_THREADS
    return ECS_SCHED_EXECUTOR_PARALLEL;
#else
    return ECS_SCHED_EXECUTOR_SINGLE_THREADED;
#endif
}

/* Every zero field of a world desc resolved; `desc` may be NULL. */
static ecs_sched_world_desc ecs_sched__world_desc_defaults(const ecs_sched_world_desc *desc) {
    ecs_sched_world_desc d;
    if (desc) d = *desc;
    else memset(&d, 0, sizeof d);
    d.allocator = ecs_sched__allocator_defaults(&d.allocator);
    if (d.entity_capacity < 0) d.entity_capacity = 0;
    if (d.thread_count == 0) d.thread_count = ecs_sched__hardware_threads();
    if (d.executor == ECS_SCHED_EXECUTOR_DEFAULT) d.executor = ecs_sched__default_executor();
    if (d.on_error == ECS_SCHED_ON_ERROR_DEFAULT) {
        d.on_error = d.error_hook.fn ? ECS_SCHED_ON_ERROR_HOOK : ECS_SCHED_ON_ERROR_STOP;
    }
    return d;
}

static bool ecs_sched__world_desc_valid(ecs_sched__env *env, const ecs_sched_world_desc *desc) {
    if (!desc) return true;
    if (desc->thread_count < 0) {
        ecs_sched__log(env, ECS_SCHED_LOG_ERROR, ECS_SCHED_ERR_INVALID_ARGUMENT,
                       "world_create: thread_count is negative; give 1 or more, or 0 for one "
                       "thread per hardware thread");
        return false;
    }
    if ((unsigned)desc->executor > (unsigned)ECS_SCHED_EXECUTOR_PARALLEL) {
        ecs_sched__log(env, ECS_SCHED_LOG_ERROR, ECS_SCHED_ERR_INVALID_ARGUMENT,
                       "world_create: executor is not one of ECS_SCHED_EXECUTOR_DEFAULT, "
                       "_SINGLE_THREADED or _PARALLEL");
        return false;
    }
    if ((unsigned)desc->on_error > (unsigned)ECS_SCHED_ON_ERROR_HOOK ||
        (desc->on_error == ECS_SCHED_ON_ERROR_HOOK && !desc->error_hook.fn)) {
        ecs_sched__log(env, ECS_SCHED_LOG_ERROR, ECS_SCHED_ERR_INVALID_ARGUMENT,
                       "world_create: on_error is not one of ECS_SCHED_ON_ERROR_DEFAULT, _STOP, "
                       "_CONTINUE or _HOOK, or is _HOOK without error_hook.fn");
        return false;
    }
    return true;
}

/* Worlds are numbered from 1 in the order they are made, so that a snapshot knows its own. */
#ifdef ECS_SCHED_THREADS
static atomic_ullong ecs_sched__world_serials;
static uint64_t ecs_sched__next_world_serial(void) {
    return (uint64_t)atomic_fetch_add(&ecs_sched__world_serials, 1ull) + 1u;
}
#else
static uint64_t ecs_sched__world_serials;
static uint64_t ecs_sched__next_world_serial(void) {
    return ++ecs_sched__world_serials;
}
#endif

/* The tags and relationships every world has, in this order (their ids are the same in every
   world); false when out of memory. The Prefab tag is registered without inheritance too: it
   hides what it marks from queries and observers, as Disabled does. */
static bool ecs_sched__world_register_builtins(ecs_sched_world *w) {
    w->disabled = ecs_sched_component_register_type(w, ECS_SCHED__DISABLED_NAME, 0, 0);
    if (!w->disabled) return false;
#ifndef ECS_SCHED_NO_RELATIONS
    w->child_of = ecs_sched__register_child_of(w);
    if (!w->child_of) return false;
#endif
    w->prefab = ecs_sched_component_register_type(w, ECS_SCHED__PREFAB_NAME, 0, 0);
    if (!w->prefab) return false;
    w->hooks.apply_observed = ecs_sched__observers_flush;
    w->hooks.is_ancestor = ecs_sched__is_ancestor;
#ifndef ECS_SCHED_NO_QUERY_TEXT
    {
        ecs_sched__queries *queries = ecs_sched__queries_reserve(w);
        if (!queries) return false;
        queries->from_text = ecs_sched__query_from_text;
    }
#endif
#ifndef ECS_SCHED_NO_INHERITANCE
    w->is_a = ecs_sched__register_is_a(w);
    if (!w->is_a) return false;
#endif
    return true;
}

ecs_sched_world *ecs_sched_world_create(const ecs_sched_world_desc *given) {
    ecs_sched_world_desc desc;
    ecs_sched__env env;
    ecs_sched_world *w;
    ecs_sched__env_init(&env, given ? &given->allocator : NULL, given ? &given->logger : NULL);
    if (!ecs_sched__world_desc_valid(&env, given)) return NULL;
    desc = ecs_sched__world_desc_defaults(given);
    w = (ecs_sched_world *)ecs_sched__calloc(&env, sizeof *w);
    if (!w) {
        ecs_sched__log(&env, ECS_SCHED_LOG_ERROR, ECS_SCHED_ERR_OUT_OF_MEMORY,
                       "world_create: out of memory");
        return NULL;
    }
    w->env = env;
    w->serial = ecs_sched__next_world_serial();
    w->thread_count = desc.thread_count;
    w->executor = desc.executor;
    w->on_error = desc.on_error;
    w->error_hook = desc.error_hook;
    w->component_count = 1;
    w->record_count = 1;
    w->free_head = ECS_SCHED__NONE;
    ecs_sched__index_bounds(w);
    if (!ECS_SCHED__GROW(&w->env, w->components, &w->component_capacity, 1) ||
        !ECS_SCHED__GROW(&w->env, w->resources, &w->resource_capacity, 1) ||
        !ECS_SCHED__GROW(&w->env, w->resource_stamps, &w->resource_stamp_capacity, 1) ||
        !ECS_SCHED__GROW(&w->env, w->records, &w->record_capacity,
                         1 + (uint32_t)desc.entity_capacity) ||
        !ecs_sched__table_create(w, NULL, 0, ecs_sched__hash_type(NULL, 0))) {
        ecs_sched__log(&env, ECS_SCHED_LOG_ERROR, ECS_SCHED_ERR_OUT_OF_MEMORY,
                       "world_create: out of memory");
        ecs_sched_world_destroy(w);
        return NULL;
    }
    memset(&w->components[0], 0, sizeof w->components[0]);
    w->resources[0] = NULL;
    memset(&w->records[0], 0, sizeof w->records[0]);
    w->records[0].table = ECS_SCHED__DEAD;
    /* registered now, not at its first use: that may be a command recorded by a system
       running beside others, which must not grow the component array under them */
    if (!ecs_sched__world_register_builtins(w)) {
        ecs_sched__log(&env, ECS_SCHED_LOG_ERROR, ECS_SCHED_ERR_OUT_OF_MEMORY,
                       "world_create: out of memory");
        ecs_sched_world_destroy(w);
        return NULL;
    }
    return w;
}

/* The world goes: the observers of ON_REMOVE hear of every component of every entity (what
   they defer is dropped with the world). */
static void ecs_sched__observe_world_end(ecs_sched_world *w) {
    uint32_t i;
    int32_t row, k;
    for (i = 0; i < w->table_count; i++) {
        const ecs_sched__table *t = w->tables[i];
        for (row = 0; row < t->count; row++) {
            for (k = 0; k < t->type_count; k++) {
#ifndef ECS_SCHED_NO_RELATIONS
                if (w->components[t->type[k]].relation) {
                    ecs_sched__observe_relations_removing(w, t->entities[row], t->type[k]);
                    continue;
                }
#endif
                ecs_sched__observe_removing(w, t->entities[row], t->type[k]);
            }
            if (w->sparse_count) ecs_sched__sparse_observe_despawning(w, t->entities[row]);
        }
    }
}

void ecs_sched_world_destroy(ecs_sched_world *w) {
    uint32_t i;
    if (!w) return;
    if (w->observed) ecs_sched__observe_world_end(w);
#ifndef ECS_SCHED_NO_STATES
    ecs_sched__states_free(w);
#endif
    ecs_sched__time_free(w);
    ecs_sched__schedules_free(w);
#ifdef ECS_SCHED_TRACE
    ecs_sched__trace_free(w);
#endif
    ecs_sched_pool_destroy(w->pool);
#ifndef ECS_SCHED_NO_RELATIONS
    ecs_sched__modules_free(w);
#endif
    ecs_sched__observers_free(w);
    ecs_sched__buffers_free(w);
    ecs_sched__archetypes_free(w);
    ecs_sched__queries_free(w);
    ecs_sched__messages_free(w);
    for (i = 0; i < w->table_count; i++) ecs_sched__table_free(w, w->tables[i]);
    ecs_sched__sparse_free(w);
#ifndef ECS_SCHED_NO_RELATIONS
    ecs_sched__relations_free(w);
#endif
    ecs_sched__names_free(w);
#ifndef ECS_SCHED_NO_REFLECT
    ecs_sched__descriptions_free(w);
#endif
#ifndef ECS_SCHED_NO_INHERITANCE
    ecs_sched__inheritance_free(w);
#endif
    ecs_sched__resources_free(w);
#ifdef ECS_SCHED_SCRIPTS
    ecs_sched__scripts_free(w);   /* last: a hook called above may be a script's function */
#endif
    ecs_sched__name_map_free(&w->component_names);
    for (i = 1; i < w->component_count; i++) ecs_sched__free(&w->env, w->components[i].name);
    ecs_sched__free(&w->env, w->components);
    ecs_sched__free(&w->env, w->resources);
    ecs_sched__free(&w->env, w->resource_stamps);
    ecs_sched__free(&w->env, w->records);
    ecs_sched__free(&w->env, w->free_stack);
    ecs_sched__free(&w->env, w->generation_floor);
    ecs_sched__free(&w->env, w->tables);
    ecs_sched__map_free(&w->env, &w->types);
    ecs_sched__map_free(&w->env, &w->edges);
    ecs_sched__free(&w->env, w);
}

ecs_sched_result ecs_sched_world_check(ecs_sched_world *w) {
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    result = ecs_sched__check_tables(w);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_records(w);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_queries(w);
#ifndef ECS_SCHED_NO_RELATIONS
    if (result == ECS_SCHED_OK) result = ecs_sched__check_relations(w);
#endif
    if (result == ECS_SCHED_OK) result = ecs_sched__check_names(w);
#ifndef ECS_SCHED_NO_INHERITANCE
    if (result == ECS_SCHED_OK) result = ecs_sched__check_inheritance(w);
#endif
    if (result == ECS_SCHED_OK) result = ecs_sched__check_sparse(w);
    return result;
}
