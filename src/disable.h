/* disable: disabled entities, which keep their components and are hidden from queries. */
#pragma once
#include "commands.h"
#include "entity_access.h"

/* The Disabled tag ("ecs_sched.Disabled"), which every world registers when it is made. A
   query that names it sees disabled entities: only them with a required term
   (ecs_sched_read), them and the others with an optional one (ecs_sched_optional_read). */
ECS_SCHED_API ecs_sched_id ecs_sched_disabled_tag(const ecs_sched_world *world);
/* The Prefab tag ("ecs_sched.Prefab"), which every world registers: an entity with it is a
   prefab, a template for other entities, hidden from queries the way disabled entities are
   (a query that names the tag sees them). Insert it like any tag. */
ECS_SCHED_API ecs_sched_id ecs_sched_prefab_tag(const ecs_sched_world *world);
/* Hides the entity from every query and observer that does not name the Disabled tag (see
   ecs_sched_disabled_tag); it keeps its components, and ecs_sched_get and commands work on
   it as before. Disabling a disabled entity changes nothing. A
   structural change: from a system, record it (ecs_sched_commands_disable). */
ECS_SCHED_API ecs_sched_result ecs_sched_disable(ecs_sched_world *world, ecs_sched_entity entity);
/* Shows it to every query again; enabling an enabled entity changes nothing. */
ECS_SCHED_API ecs_sched_result ecs_sched_enable(ecs_sched_world *world, ecs_sched_entity entity);
ECS_SCHED_API bool ecs_sched_is_disabled(const ecs_sched_world *world, ecs_sched_entity entity);
/* The same, recorded in a command buffer. */
ECS_SCHED_API ecs_sched_result ecs_sched_commands_disable(ecs_sched_commands *commands,
                                                          ecs_sched_entity entity);
ECS_SCHED_API ecs_sched_result ecs_sched_commands_enable(ecs_sched_commands *commands,
                                                         ecs_sched_entity entity);

/*@@ implementation @@*/
/* disable: disabled entities. An entity is disabled by the Disabled tag (registered by
   world_create), so that disabling moves it to the tables of disabled entities, which
   queries leave out when they match tables (query.h): iteration pays nothing for it. */

ecs_sched_id ecs_sched_prefab_tag(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return w->prefab;
}

ecs_sched_id ecs_sched_disabled_tag(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return w->disabled;
}

ecs_sched_result ecs_sched_disable(ecs_sched_world *w, ecs_sched_entity e) {
    ecs_sched_id tag;
    ECS_SCHED__CHECK_WORLD(w);
    if (ecs_sched__change_refused(w, "disable")) return ECS_SCHED_ERR_ACCESS;
    if (!ecs_sched__is_live_record(w, e)) return ecs_sched__stale(w, e, "disable");
    tag = w->disabled;
    if (ecs_sched_has(w, e, tag)) return ECS_SCHED_OK;
    return ecs_sched_insert(w, e, tag, NULL);
}

ecs_sched_result ecs_sched_enable(ecs_sched_world *w, ecs_sched_entity e) {
    ECS_SCHED__CHECK_WORLD(w);
    if (ecs_sched__change_refused(w, "enable")) return ECS_SCHED_ERR_ACCESS;
    if (!ecs_sched__is_live_record(w, e)) return ecs_sched__stale(w, e, "enable");
    if (!ecs_sched_has(w, e, w->disabled)) return ECS_SCHED_OK;
    return ecs_sched_remove(w, e, w->disabled);
}

bool ecs_sched_is_disabled(const ecs_sched_world *w, ecs_sched_entity e) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched_has(w, e, w->disabled);
}

ecs_sched_result ecs_sched_commands_disable(ecs_sched_commands *cmd, ecs_sched_entity e) {
    ECS_SCHED_ASSERT(cmd != NULL);
    return ecs_sched_commands_insert(cmd, e, cmd->world->disabled, NULL);
}

ecs_sched_result ecs_sched_commands_enable(ecs_sched_commands *cmd, ecs_sched_entity e) {
    ECS_SCHED_ASSERT(cmd != NULL);
    return ecs_sched_commands_remove(cmd, e, cmd->world->disabled);
}
