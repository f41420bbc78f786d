/* remote_world: the methods of Bevy's remote protocol (world.*): components,
   entities, hierarchy, resources, events and messages read and changed by name. */
#pragma once
#include "remote.h"

/*@@ implementation @@*/
/* remote_world: each method takes the call and its params and returns the result, or NULL
   with the call's error set; a method that fails leaves the world as it was. */
#ifdef ECS_SCHED_REMOTE

/* ---- the methods ---- */

typedef cJSON *(*ecs_sched__rpc_method_fn)(ecs_sched__rpc_call *call, const cJSON *params);

/* The call's error as an object {"code", "message"}, or NULL when out of memory. */
static cJSON *ecs_sched__rpc_error(const ecs_sched__rpc_call *call) {
    cJSON *error = cJSON_CreateObject();
    if (!error || !cJSON_AddNumberToObject(error, "code", call->code) ||
        !cJSON_AddStringToObject(error, "message", call->message)) {
        cJSON_Delete(error);
        return NULL;
    }
    return error;
}

/* world.get_components {entity, components, strict}: lenient, {"components": {name: value},
   "errors": {name: error}}; strict, {name: value}, or the first error. */
static cJSON *ecs_sched__rpc_get_components(ecs_sched__rpc_call *call, const cJSON *params) {
    ecs_sched_world *w = call->world;
    ecs_sched_entity e;
    const cJSON *names, *name;
    bool strict;
    cJSON *result, *components, *errors = NULL;
    if (!ecs_sched__rpc_need_params(call, params) ||
        !ecs_sched__rpc_entity(call, ecs_sched__rpc_member(params, "entity"), "entity", &e) ||
        !ecs_sched__rpc_strings(call, params, "components", &names) ||
        !ecs_sched__rpc_bool(call, params, "strict", &strict)) {
        return NULL;
    }
    if (!names) return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS, "%s: missing field `components`", call->method);
    if (!ecs_sched__rpc_live(call, e)) return NULL;
    result = cJSON_CreateObject();
    if (!result) return ecs_sched__rpc_out_of_memory(call);
    components = result;
    if (!strict) {
        components = cJSON_AddObjectToObject(result, "components");
        errors = cJSON_AddObjectToObject(result, "errors");
        if (!components || !errors) goto out_of_memory;
    }
    cJSON_ArrayForEach(name, names) {
        ecs_sched_id id = ecs_sched__rpc_component(w, name->valuestring);
        cJSON *value = NULL;
        if (!id) {
            ecs_sched__rpc_fail(call, ECS_SCHED_RPC_COMPONENT_ERROR, "unknown component type: `%s`",
                                name->valuestring);
        } else {
            value = ecs_sched__rpc_value_of(call, e, id, ECS_SCHED_RPC_COMPONENT_NOT_PRESENT);
        }
        if (value) {
            if (!ecs_sched__rpc_add(components, name->valuestring, value)) goto out_of_memory;
            continue;
        }
        if (call->code == ECS_SCHED_RPC_INTERNAL_ERROR || strict) {
            cJSON_Delete(result);
            return NULL;
        }
        if (!ecs_sched__rpc_add(errors, name->valuestring, ecs_sched__rpc_error(call))) {
            goto out_of_memory;
        }
        call->code = 0;
    }
    return result;
out_of_memory:
    cJSON_Delete(result);
    return ecs_sched__rpc_out_of_memory(call);
}

/* The component ids of a query's list: those found, and whether any was not. Strict: a name
   not found is an error. */
static bool ecs_sched__rpc_query_ids(ecs_sched__rpc_call *call, const cJSON *names, bool strict,
                                     ecs_sched_id *ids, int32_t *count, bool *missing) {
    const cJSON *name;
    *count = 0;
    *missing = false;
    cJSON_ArrayForEach(name, names) {
        ecs_sched_id id = ecs_sched__rpc_component(call->world, name->valuestring);
        if (!id) {
            if (strict) {
                ecs_sched__rpc_fail(call, ECS_SCHED_RPC_COMPONENT_ERROR,
                                    "component `%s` isn't registered or used in the world",
                                    name->valuestring);
                return false;
            }
            *missing = true;
            ids[(*count)++] = 0;
            continue;
        }
        ids[(*count)++] = id;
    }
    return true;
}

typedef struct ecs_sched__rpc_query_terms {
    const cJSON *names[5];          /* components, option, has, with, without */
    ecs_sched_id *ids[5];
    int32_t count[5];
    bool missing[5];
    bool option_all;
    bool sees_hidden;               /* a list names Disabled or Prefab: such entities match */
} ecs_sched__rpc_query_terms;

enum { ECS_SCHED__Q_COMPONENTS, ECS_SCHED__Q_OPTION, ECS_SCHED__Q_HAS, ECS_SCHED__Q_WITH,
       ECS_SCHED__Q_WITHOUT };

static bool ecs_sched__rpc_query_matches(ecs_sched_world *w, const ecs_sched__rpc_query_terms *q,
                                         ecs_sched_entity e) {
    int32_t i;
    if (!q->sees_hidden && (ecs_sched_has(w, e, ecs_sched_disabled_tag(w)) ||
                            ecs_sched_has(w, e, ecs_sched_prefab_tag(w)))) {
        return false;
    }
    for (i = 0; i < q->count[ECS_SCHED__Q_COMPONENTS]; i++) {
        if (!ecs_sched_has(w, e, q->ids[ECS_SCHED__Q_COMPONENTS][i])) return false;
    }
    for (i = 0; i < q->count[ECS_SCHED__Q_WITH]; i++) {
        if (!ecs_sched_has(w, e, q->ids[ECS_SCHED__Q_WITH][i])) return false;
    }
    for (i = 0; i < q->count[ECS_SCHED__Q_WITHOUT]; i++) {
        ecs_sched_id id = q->ids[ECS_SCHED__Q_WITHOUT][i];
        if (id && ecs_sched_has(w, e, id)) return false;
    }
    return true;
}

/* The ids of the entity's own components (its table's and its sparse ones), in id order;
   returns how many (at most capacity). */
static int32_t ecs_sched__rpc_entity_ids(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id *ids,
                                         int32_t capacity) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    const ecs_sched__table *t = w->tables[w->records[index].table];
    int32_t n = 0, k;
    uint32_t i;
    for (k = 0; k < t->type_count && n < capacity; k++) {
        ecs_sched_id id = t->type[k];
        if (id < w->component_count && !w->components[id].managed) ids[n++] = id;
    }
    for (i = 0; i < w->sparse_count && n < capacity; i++) {
        if (ecs_sched__sparse_slot(&w->sparse_sets[i], index)) ids[n++] = w->sparse_sets[i].id;
    }
    return n;
}

/* Adds the values of ids the entity has to `components`, each at most once; those that cannot
   be written are left out, as Bevy leaves them. False when out of memory. */
static bool ecs_sched__rpc_row_values(ecs_sched__rpc_call *call, ecs_sched_entity e, cJSON *components,
                                      const ecs_sched_id *ids, int32_t count) {
    ecs_sched_world *w = call->world;
    int32_t i;
    for (i = 0; i < count; i++) {
        const char *name;
        cJSON *value;
        if (!ids[i]) continue;
        name = w->components[ids[i]].name;
        if (cJSON_GetObjectItemCaseSensitive(components, name)) continue;
        value = ecs_sched__rpc_value_of(call, e, ids[i], ECS_SCHED_RPC_COMPONENT_NOT_PRESENT);
        if (!value) {
            if (call->code == ECS_SCHED_RPC_INTERNAL_ERROR) return false;
            call->code = 0;
            continue;
        }
        if (!ecs_sched__rpc_add(components, name, value)) return false;
    }
    return true;
}

static cJSON *ecs_sched__rpc_query_row(ecs_sched__rpc_call *call, const ecs_sched__rpc_query_terms *q,
                                       ecs_sched_entity e) {
    ecs_sched_world *w = call->world;
    cJSON *row = cJSON_CreateObject(), *components;
    const cJSON *name;
    int32_t i = 0;
    if (!row || !ecs_sched__rpc_add(row, "entity", ecs_sched__json_of_handle(e)) ||
        !(components = cJSON_AddObjectToObject(row, "components"))) {
        cJSON_Delete(row);
        return NULL;
    }
    if (!ecs_sched__rpc_row_values(call, e, components, q->ids[ECS_SCHED__Q_COMPONENTS],
                                   q->count[ECS_SCHED__Q_COMPONENTS])) {
        cJSON_Delete(row);
        return NULL;
    }
    if (q->option_all) {
        ecs_sched_id own[256];
        int32_t n = ecs_sched__rpc_entity_ids(w, e, own, 256);
        if (!ecs_sched__rpc_row_values(call, e, components, own, n)) {
            cJSON_Delete(row);
            return NULL;
        }
    } else if (!ecs_sched__rpc_row_values(call, e, components, q->ids[ECS_SCHED__Q_OPTION],
                                          q->count[ECS_SCHED__Q_OPTION])) {
        cJSON_Delete(row);
        return NULL;
    }
    if (q->count[ECS_SCHED__Q_HAS] > 0) {   /* "has" is left out when none was asked */
        cJSON *has = cJSON_AddObjectToObject(row, "has");
        if (!has) {
            cJSON_Delete(row);
            return NULL;
        }
        cJSON_ArrayForEach(name, q->names[ECS_SCHED__Q_HAS]) {
            ecs_sched_id id = q->ids[ECS_SCHED__Q_HAS][i++];
            if (!ecs_sched__rpc_add(has, name->valuestring, cJSON_CreateBool(id && ecs_sched_has(w, e, id)))) {
                cJSON_Delete(row);
                return NULL;
            }
        }
    }
    return row;
}

/* world.query {data: {components, option, has}, filter: {with, without}, strict}: an array of
   {"entity", "components", "has"} rows, one per entity matched, in index order. */
static cJSON *ecs_sched__rpc_query(ecs_sched__rpc_call *call, const cJSON *params) {
    static const char *const keys[5] = {"components", "option", "has", "with", "without"};
    ecs_sched_world *w = call->world;
    ecs_sched__rpc_query_terms q;
    const cJSON *data = ecs_sched__rpc_member(params, "data");
    const cJSON *filter = ecs_sched__rpc_member(params, "filter");
    cJSON *result = NULL;
    bool strict = false, failed = false;
    int32_t k;
    uint32_t i;
    memset(&q, 0, sizeof q);
    if (params && !cJSON_IsNull(params)) {
        if (!ecs_sched__rpc_need_params(call, params) || !ecs_sched__rpc_bool(call, params, "strict", &strict)) {
            return NULL;
        }
        if (!data) return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS, "%s: missing field `data`", call->method);
    }
    if ((data && !cJSON_IsNull(data) && !cJSON_IsObject(data)) ||
        (filter && !cJSON_IsNull(filter) && !cJSON_IsObject(filter))) {
        return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS,
                                   "%s: `data` and `filter` must be objects", call->method);
    }
    {
        const cJSON *option = ecs_sched__rpc_member(data, "option");
        q.option_all = cJSON_IsString(option) && strcmp(option->valuestring, "all") == 0;
    }
    for (k = 0; k < 5 && !failed; k++) {
        const cJSON *from = k < 3 ? data : filter;
        if (k == ECS_SCHED__Q_OPTION && q.option_all) continue;
        if (!ecs_sched__rpc_strings(call, from, keys[k], &q.names[k])) {
            failed = true;
            break;
        }
        if (!q.names[k]) continue;
        q.ids[k] = (ecs_sched_id *)ecs_sched__calloc(&w->env, (size_t)cJSON_GetArraySize(q.names[k]) * sizeof(ecs_sched_id) + 1);
        if (!q.ids[k]) {
            ecs_sched__rpc_out_of_memory(call);
            failed = true;
            break;
        }
        failed = !ecs_sched__rpc_query_ids(call, q.names[k], strict, q.ids[k], &q.count[k], &q.missing[k]);
    }
    for (k = 0; k < 5 && !failed; k++) {
        int32_t n;
        if (k == ECS_SCHED__Q_WITHOUT) continue;   /* naming them keeps them out, not in */
        for (n = 0; n < q.count[k]; n++) {
            if (q.ids[k][n] == ecs_sched_disabled_tag(w) || q.ids[k][n] == ecs_sched_prefab_tag(w)) {
                q.sees_hidden = true;
            }
        }
    }
    if (!failed) {
        result = cJSON_CreateArray();
        if (!result) failed = ecs_sched__rpc_out_of_memory(call) == NULL;
    }
    /* a required component or filter that names no component matches nothing (Bevy's rule) */
    for (i = 1; !failed && !q.missing[ECS_SCHED__Q_COMPONENTS] && !q.missing[ECS_SCHED__Q_WITH] &&
                i < w->record_count; i++) {
        ecs_sched_entity e = ecs_sched__make_entity(i, w->records[i].generation);
        cJSON *row;
        if (!ecs_sched__is_live_record(w, e) || !ecs_sched__rpc_query_matches(w, &q, e)) continue;
        row = ecs_sched__rpc_query_row(call, &q, e);
        if (!ecs_sched__rpc_add(result, NULL, row)) {
            ecs_sched__rpc_out_of_memory(call);
            failed = true;
        }
    }
    for (k = 0; k < 5; k++) ecs_sched__free(&w->env, q.ids[k]);
    if (failed) {
        cJSON_Delete(result);
        return NULL;
    }
    return result;
}

/* world.spawn_entity {components}: {"entity": handle}. */
static cJSON *ecs_sched__rpc_spawn_entity(ecs_sched__rpc_call *call, const cJSON *params) {
    ecs_sched_world *w = call->world;
    ecs_sched__rpc_values values;
    ecs_sched_entity e;
    cJSON *result;
    if (!ecs_sched__rpc_need_params(call, params)) return NULL;
    if (!ecs_sched__rpc_member(params, "components")) {
        return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS, "%s: missing field `components`", call->method);
    }
    if (!ecs_sched__rpc_values_read(call, ecs_sched__rpc_member(params, "components"), &values)) return NULL;
    e = ecs_sched_spawn_with(w, values.count, values.ids, (const void *const *)values.values);
    ecs_sched__rpc_values_free(w, &values);
    if (e == ECS_SCHED_NULL_ENTITY) return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_COMPONENT_ERROR);
    result = cJSON_CreateObject();
    if (!result || !ecs_sched__rpc_add(result, "entity", ecs_sched__json_of_handle(e))) {
        cJSON_Delete(result);
        ecs_sched_despawn(w, e);
        return ecs_sched__rpc_out_of_memory(call);
    }
    return result;
}

/* world.insert_components {entity, components}: null. */
static cJSON *ecs_sched__rpc_insert_components(ecs_sched__rpc_call *call, const cJSON *params) {
    ecs_sched_world *w = call->world;
    ecs_sched__rpc_values values;
    ecs_sched_entity e;
    ecs_sched_result r;
    if (!ecs_sched__rpc_need_params(call, params) ||
        !ecs_sched__rpc_entity(call, ecs_sched__rpc_member(params, "entity"), "entity", &e)) {
        return NULL;
    }
    if (!ecs_sched__rpc_member(params, "components")) {
        return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS, "%s: missing field `components`", call->method);
    }
    if (!ecs_sched__rpc_values_read(call, ecs_sched__rpc_member(params, "components"), &values)) return NULL;
    if (!ecs_sched__rpc_live(call, e)) {
        ecs_sched__rpc_values_free(w, &values);
        return NULL;
    }
    r = values.count ? ecs_sched_insert_many(w, e, values.count, values.ids,
                                             (const void *const *)values.values)
                     : ECS_SCHED_OK;
    ecs_sched__rpc_values_free(w, &values);
    if (r != ECS_SCHED_OK) return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_COMPONENT_ERROR);
    return cJSON_CreateNull();
}

/* world.remove_components {entity, components}: null. Every name must be known. */
static cJSON *ecs_sched__rpc_remove_components(ecs_sched__rpc_call *call, const cJSON *params) {
    ecs_sched_world *w = call->world;
    const cJSON *names, *name;
    ecs_sched_entity e;
    if (!ecs_sched__rpc_need_params(call, params) ||
        !ecs_sched__rpc_entity(call, ecs_sched__rpc_member(params, "entity"), "entity", &e) ||
        !ecs_sched__rpc_strings(call, params, "components", &names)) {
        return NULL;
    }
    if (!names) return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS, "%s: missing field `components`", call->method);
    cJSON_ArrayForEach(name, names) {
        ecs_sched_id id = ecs_sched__rpc_component(w, name->valuestring);
        if (!id) {
            return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_COMPONENT_ERROR,
                                       "%s: unregistered component type: `%s`", call->method,
                                       name->valuestring);
        }
        if (ecs_sched__rpc_is_kind(w, id)) {
            return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_COMPONENT_ERROR,
                                       "%s: `%s` is a relationship kind, not a component (a "
                                       "parent is taken away with world.reparent_entities)",
                                       call->method, name->valuestring);
        }
    }
    if (!ecs_sched__rpc_live(call, e)) return NULL;
    cJSON_ArrayForEach(name, names) {
        if (ecs_sched_remove(w, e, ecs_sched__rpc_component(w, name->valuestring)) != ECS_SCHED_OK) {
            return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_COMPONENT_ERROR);
        }
    }
    return cJSON_CreateNull();
}

/* world.despawn_entity {entity}: null. Its descendants go with it (ChildOf's rule). */
static cJSON *ecs_sched__rpc_despawn_entity(ecs_sched__rpc_call *call, const cJSON *params) {
    ecs_sched_entity e;
    if (!ecs_sched__rpc_need_params(call, params) ||
        !ecs_sched__rpc_entity(call, ecs_sched__rpc_member(params, "entity"), "entity", &e) ||
        !ecs_sched__rpc_live(call, e)) {
        return NULL;
    }
    if (ecs_sched_despawn(call->world, e) != ECS_SCHED_OK) {
        return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_INTERNAL_ERROR);
    }
    return cJSON_CreateNull();
}

/* world.reparent_entities {entities, parent}: null. Every entity is checked (alive, not the
   parent nor one of its ancestors) before any moves. */
static cJSON *ecs_sched__rpc_reparent_entities(ecs_sched__rpc_call *call, const cJSON *params) {
    ecs_sched_world *w = call->world;
    const cJSON *entities, *item, *parent_item;
    ecs_sched_entity parent = ECS_SCHED_NULL_ENTITY;
    if (!ecs_sched__rpc_need_params(call, params)) return NULL;
    entities = ecs_sched__rpc_member(params, "entities");
    parent_item = ecs_sched__rpc_member(params, "parent");
    if (!cJSON_IsArray(entities)) {
        return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS,
                                   "%s: `entities` must be an array of entities", call->method);
    }
    if (parent_item && !cJSON_IsNull(parent_item)) {
        if (!ecs_sched__rpc_entity(call, parent_item, "parent", &parent) ||
            !ecs_sched__rpc_live(call, parent)) {
            return NULL;
        }
    }
    cJSON_ArrayForEach(item, entities) {
        ecs_sched_entity e, up;
        if (!ecs_sched__rpc_entity(call, item, "entities", &e) || !ecs_sched__rpc_live(call, e)) return NULL;
        for (up = parent; up; up = ecs_sched_parent_of(w, up)) {
            if (up == e) {
                return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_SELF_REPARENT,
                                           "%s: cannot reparent entity %llu to %s", call->method,
                                           (unsigned long long)e,
                                           e == parent ? "itself" : "one of its own descendants");
            }
        }
    }
    cJSON_ArrayForEach(item, entities) {
        ecs_sched_entity e;
        ecs_sched__json_handle(item, &e);
        if (ecs_sched_set_parent(w, e, parent) != ECS_SCHED_OK) {
            return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_INTERNAL_ERROR);
        }
    }
    return cJSON_CreateNull();
}

static int ecs_sched__rpc_compare_names(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* An array of the components' names, sorted (as Bevy sorts them). */
static cJSON *ecs_sched__rpc_names(ecs_sched__rpc_call *call, const ecs_sched_id *ids, int32_t count) {
    ecs_sched_world *w = call->world;
    const char **names = (const char **)ecs_sched__alloc(&w->env, (size_t)(count ? count : 1) * sizeof *names);
    cJSON *array = cJSON_CreateArray();
    int32_t i;
    if (!names || !array) {
        ecs_sched__free(&w->env, (void *)names);
        cJSON_Delete(array);
        return ecs_sched__rpc_out_of_memory(call);
    }
    for (i = 0; i < count; i++) names[i] = w->components[ids[i]].name;
    qsort((void *)names, (size_t)count, sizeof *names, ecs_sched__rpc_compare_names);
    for (i = 0; i < count; i++) {
        if (!ecs_sched__rpc_add(array, NULL, cJSON_CreateString(names[i]))) {
            ecs_sched__free(&w->env, (void *)names);
            cJSON_Delete(array);
            return ecs_sched__rpc_out_of_memory(call);
        }
    }
    ecs_sched__free(&w->env, (void *)names);
    return array;
}

/* world.list_components {entity}?: the names of every component (no params), or of the
   entity's own. */
static cJSON *ecs_sched__rpc_list_components(ecs_sched__rpc_call *call, const cJSON *params) {
    ecs_sched_world *w = call->world;
    ecs_sched_id *ids;
    int32_t count = 0;
    cJSON *result;
    if (params && !cJSON_IsNull(params)) {
        ecs_sched_entity e;
        ecs_sched_id own[256];
        if (!ecs_sched__rpc_need_params(call, params) ||
            !ecs_sched__rpc_entity(call, ecs_sched__rpc_member(params, "entity"), "entity", &e) ||
            !ecs_sched__rpc_live(call, e)) {
            return NULL;
        }
        return ecs_sched__rpc_names(call, own, ecs_sched__rpc_entity_ids(w, e, own, 256));
    }
    ids = (ecs_sched_id *)ecs_sched__alloc(&w->env, w->component_count * sizeof *ids);
    if (!ids) return ecs_sched__rpc_out_of_memory(call);
    {
        ecs_sched_id id;
        for (id = 1; id < w->component_count; id++) {
            if (ecs_sched__rpc_component(w, w->components[id].name) == id) ids[count++] = id;
        }
    }
    result = ecs_sched__rpc_names(call, ids, count);
    ecs_sched__free(&w->env, ids);
    return result;
}

/* A resource parameter: its id, known (else RESOURCE_ERROR) and, when `present`, in the
   world (else RESOURCE_NOT_PRESENT). */
static ecs_sched_id ecs_sched__rpc_resource(ecs_sched__rpc_call *call, const cJSON *params,
                                            bool present) {
    const char *name;
    ecs_sched_id id;
    if (!ecs_sched__rpc_need_params(call, params) || !ecs_sched__rpc_string(call, params, "resource", &name)) {
        return 0;
    }
    id = ecs_sched__rpc_component(call->world, name);
    if (!id || ecs_sched__rpc_is_kind(call->world, id)) {
        ecs_sched__rpc_fail(call, ECS_SCHED_RPC_RESOURCE_ERROR, "%s: unknown resource type: `%s`",
                            call->method, name);
        return 0;
    }
    if (present && !ecs_sched_resource_exists(call->world, id)) {
        ecs_sched__rpc_fail(call, ECS_SCHED_RPC_RESOURCE_NOT_PRESENT,
                            "%s: resource `%s` not present in the world", call->method, name);
        return 0;
    }
    return id;
}

/* world.get_resources {resource}: {"value": value}. */
static cJSON *ecs_sched__rpc_get_resources(ecs_sched__rpc_call *call, const cJSON *params) {
    ecs_sched_world *w = call->world;
    ecs_sched_id id = ecs_sched__rpc_resource(call, params, true);
    cJSON *result, *value;
    if (!id) return NULL;
    if (w->components[id].size == 0) {
        value = cJSON_CreateObject();
    } else if (!ecs_sched__description_of(w, id)) {
        return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_RESOURCE_ERROR,
                                   "%s: resource `%s` has no description, so its value cannot be "
                                   "written (ecs_sched_describe)", call->method, w->components[id].name);
    } else {
        value = ecs_sched__json_value_write(w, id, ecs_sched_resource_get(w, id));
    }
    result = cJSON_CreateObject();
    if (!result || !ecs_sched__rpc_add(result, "value", value)) {
        if (!result) cJSON_Delete(value);
        cJSON_Delete(result);
        return ecs_sched__rpc_out_of_memory(call);
    }
    return result;
}

/* world.insert_resources {resource, value}: null. */
static cJSON *ecs_sched__rpc_insert_resources(ecs_sched__rpc_call *call, const cJSON *params) {
    ecs_sched_world *w = call->world;
    ecs_sched_id id = ecs_sched__rpc_resource(call, params, false);
    const cJSON *item;
    void *value;
    ecs_sched_result r;
    if (!id) return NULL;
    item = ecs_sched__rpc_member(params, "value");
    if (!item) return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS, "%s: missing field `value`", call->method);
    if (!ecs_sched__rpc_value_read(call, id, item, ECS_SCHED_RPC_RESOURCE_ERROR, &value)) return NULL;
    r = ecs_sched_resource_insert(w, id, value);
    ecs_sched__rpc_value_free(w, id, value);
    if (r != ECS_SCHED_OK) return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_RESOURCE_ERROR);
    return cJSON_CreateNull();
}

/* world.remove_resources {resource}: null. */
static cJSON *ecs_sched__rpc_remove_resources(ecs_sched__rpc_call *call, const cJSON *params) {
    ecs_sched_id id = ecs_sched__rpc_resource(call, params, true);
    if (!id) return NULL;
    if (ecs_sched_resource_remove(call->world, id) != ECS_SCHED_OK) {
        return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_RESOURCE_ERROR);
    }
    return cJSON_CreateNull();
}

static bool ecs_sched__rpc_path(ecs_sched__rpc_call *call, const cJSON *params, const char **path,
                                const cJSON **value) {
    if (!ecs_sched__rpc_string(call, params, "path", path)) return false;
    *value = ecs_sched__rpc_member(params, "value");
    if (!*value) {
        ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS, "%s: missing field `value`", call->method);
        return false;
    }
    return true;
}

/* world.mutate_resources {resource, path, value}: null. */
static cJSON *ecs_sched__rpc_mutate_resources(ecs_sched__rpc_call *call, const cJSON *params) {
    ecs_sched_world *w = call->world;
    ecs_sched_id id = ecs_sched__rpc_resource(call, params, true);
    const char *path;
    const cJSON *item;
    void *value;
    ecs_sched_result r;
    if (!id || !ecs_sched__rpc_path(call, params, &path, &item)) return NULL;
    if (!ecs_sched__rpc_value_patched(call, id, ecs_sched_resource_get(w, id), path, item,
                                      ECS_SCHED_RPC_RESOURCE_ERROR, &value)) {
        return NULL;
    }
    r = ecs_sched_resource_insert(w, id, value);
    ecs_sched__rpc_value_free(w, id, value);
    if (r != ECS_SCHED_OK) return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_RESOURCE_ERROR);
    return cJSON_CreateNull();
}

/* world.mutate_components {entity, component, path, value}: null. */
static cJSON *ecs_sched__rpc_mutate_components(ecs_sched__rpc_call *call, const cJSON *params) {
    ecs_sched_world *w = call->world;
    const char *name, *path;
    const cJSON *item;
    ecs_sched_entity e;
    ecs_sched_id id;
    void *value;
    const void *current;
    ecs_sched_result r;
    if (!ecs_sched__rpc_need_params(call, params) ||
        !ecs_sched__rpc_entity(call, ecs_sched__rpc_member(params, "entity"), "entity", &e) ||
        !ecs_sched__rpc_string(call, params, "component", &name) ||
        !ecs_sched__rpc_path(call, params, &path, &item)) {
        return NULL;
    }
    id = ecs_sched__rpc_component(w, name);
    if (!id) {
        return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_COMPONENT_ERROR, "%s: unknown component type: `%s`",
                                   call->method, name);
    }
    if (!ecs_sched__rpc_live(call, e)) return NULL;
    if (ecs_sched__rpc_is_kind(w, id) || w->components[id].size == 0 || !ecs_sched_has(w, e, id)) {
        return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_COMPONENT_ERROR,
                                   "%s: cannot reflect component `%s` of entity %llu: %s",
                                   call->method, name, (unsigned long long)e,
                                   ecs_sched_has(w, e, id) ? "it has no members" : "the entity does not have it");
    }
    current = ecs_sched_get(w, e, id);
    if (!current) return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_COMPONENT_ERROR);
    if (!ecs_sched__rpc_value_patched(call, id, current, path, item, ECS_SCHED_RPC_COMPONENT_ERROR, &value)) {
        return NULL;
    }
    r = ecs_sched_insert(w, e, id, value);
    ecs_sched__rpc_value_free(w, id, value);
    if (r != ECS_SCHED_OK) return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_COMPONENT_ERROR);
    return cJSON_CreateNull();
}

/* ecs_sched.names (this library's, not Bevy's: names are no component here): the named
   entities, {"entity", "name"} each, in index order. */
static cJSON *ecs_sched__rpc_entity_names(ecs_sched__rpc_call *call, const cJSON *params) {
    ecs_sched_world *w = call->world;
    cJSON *result = cJSON_CreateArray();
    uint32_t i;
    (void)params;
    if (!result) return ecs_sched__rpc_out_of_memory(call);
    for (i = 1; i < w->record_count; i++) {
        ecs_sched_entity e = ecs_sched__make_entity(i, w->records[i].generation);
        const char *name = ecs_sched__is_live_record(w, e) ? ecs_sched_name(w, e) : NULL;
        cJSON *row;
        if (!name) continue;
        row = cJSON_CreateObject();
        if (!ecs_sched__rpc_add(result, NULL, row) || !ecs_sched__rpc_add(row, "entity", ecs_sched__json_of_handle(e)) ||
            !ecs_sched__rpc_add(row, "name", cJSON_CreateString(name))) {
            cJSON_Delete(result);
            return ecs_sched__rpc_out_of_memory(call);
        }
    }
    return result;
}

/* world.list_resources: the names of the resources the world holds, sorted. */
static cJSON *ecs_sched__rpc_list_resources(ecs_sched__rpc_call *call, const cJSON *params) {
    ecs_sched_world *w = call->world;
    ecs_sched_id *ids, id;
    int32_t count = 0;
    cJSON *result;
    (void)params;
    ids = (ecs_sched_id *)ecs_sched__alloc(&w->env, w->component_count * sizeof *ids);
    if (!ids) return ecs_sched__rpc_out_of_memory(call);
    for (id = 1; id < w->component_count; id++) {
        if (ecs_sched__rpc_component(w, w->components[id].name) == id && ecs_sched_resource_exists(w, id)) {
            ids[count++] = id;
        }
    }
    result = ecs_sched__rpc_names(call, ids, count);
    ecs_sched__free(&w->env, ids);
    return result;
}

/* The value of an event or message given as `value` (absent or null: the default one). */
static bool ecs_sched__rpc_payload(ecs_sched__rpc_call *call, ecs_sched_id id, const cJSON *params,
                                   void **value) {
    const cJSON *item = ecs_sched__rpc_member(params, "value");
    cJSON *empty;
    bool ok;
    if (item && !cJSON_IsNull(item)) {
        return ecs_sched__rpc_value_read(call, id, item, ECS_SCHED_RPC_RESOURCE_ERROR, value);
    }
    empty = cJSON_CreateObject();
    if (!empty) {
        ecs_sched__rpc_out_of_memory(call);
        return false;
    }
    ok = ecs_sched__rpc_value_read(call, id, empty, ECS_SCHED_RPC_RESOURCE_ERROR, value);
    cJSON_Delete(empty);
    return ok;
}

/* world.trigger_event {event, value, entity}: null. The event is a component type
   (ecs_sched_emit); `entity`, beyond Bevy's parameters, sends it to an entity. */
static cJSON *ecs_sched__rpc_trigger_event(ecs_sched__rpc_call *call, const cJSON *params) {
    ecs_sched_world *w = call->world;
    ecs_sched_event_desc desc;
    const char *name;
    const cJSON *target;
    void *value;
    ecs_sched_result r;
    memset(&desc, 0, sizeof desc);
    if (!ecs_sched__rpc_need_params(call, params) || !ecs_sched__rpc_string(call, params, "event", &name)) {
        return NULL;
    }
    desc.event = ecs_sched__rpc_component(w, name);
    if (!desc.event || ecs_sched__rpc_is_kind(w, desc.event)) {
        return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_RESOURCE_ERROR, "%s: unknown event type: `%s`",
                                   call->method, name);
    }
    target = ecs_sched__rpc_member(params, "entity");
    if (target && !cJSON_IsNull(target) &&
        (!ecs_sched__rpc_entity(call, target, "entity", &desc.entity) || !ecs_sched__rpc_live(call, desc.entity))) {
        return NULL;
    }
    if (!ecs_sched__rpc_payload(call, desc.event, params, &value)) return NULL;
    desc.payload = value;
    r = ecs_sched_emit(w, &desc);
    ecs_sched__rpc_value_free(w, desc.event, value);
    if (r != ECS_SCHED_OK) return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_RESOURCE_ERROR);
    return cJSON_CreateNull();
}

/* world.write_message {message, value}: null. */
static cJSON *ecs_sched__rpc_write_message(ecs_sched__rpc_call *call, const cJSON *params) {
    ecs_sched_world *w = call->world;
    const char *name;
    ecs_sched_id id;
    void *value;
    ecs_sched_result r;
    if (!ecs_sched__rpc_need_params(call, params) || !ecs_sched__rpc_string(call, params, "message", &name)) {
        return NULL;
    }
    id = ecs_sched_component_lookup(w, name);
    if (!id || !ecs_sched_is_message(w, id)) {
        return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_RESOURCE_ERROR,
                                   "%s: unknown message type: `%s` (message types are registered "
                                   "with ecs_sched_message_register)", call->method, name);
    }
    if (!ecs_sched__rpc_payload(call, id, params, &value)) return NULL;
    r = ecs_sched_send(w, id, value);
    ecs_sched__rpc_value_free(w, id, value);
    if (r != ECS_SCHED_OK) return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_RESOURCE_ERROR);
    return cJSON_CreateNull();
}

#endif /* ECS_SCHED_REMOTE */
