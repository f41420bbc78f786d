/* remote_dispatch: +watch requests, the table of methods, and a request text turned into its
   response text (one request or a batch), as ecs_sched_remote_handle and the server do. */
#pragma once
#include "remote_library.h"

/*@@ implementation @@*/
/* remote_dispatch: runs on the world's thread only. */
#ifdef ECS_SCHED_REMOTE

/* ---- +watch: a request answered again at each poll while what it reads changes ---- */

/* world.get_components+watch: as world.get_components, but "components" holds only the values
   that changed since the last frame (every one in the first), "removed" the names the entity
   no longer has; *last (the values sent so far) is replaced. *changed: anything to send. */
static cJSON *ecs_sched__rpc_components_changes(ecs_sched__rpc_call *call, const cJSON *params,
                                                cJSON **last, bool *changed) {
    bool strict = cJSON_IsTrue(ecs_sched__rpc_member(params, "strict"));
    cJSON *now = ecs_sched__rpc_get_components(call, params), *values, *result, *components, *removed;
    const cJSON *value, *before;
    if (!now) return NULL;
    values = strict ? now : cJSON_GetObjectItemCaseSensitive(now, "components");
    result = cJSON_CreateObject();
    if (!result || !(components = cJSON_AddObjectToObject(result, "components")) ||
        !(removed = cJSON_AddArrayToObject(result, "removed")) ||
        (!strict && !ecs_sched__rpc_add(result, "errors", cJSON_DetachItemFromObjectCaseSensitive(now, "errors")))) {
        goto out_of_memory;
    }
    cJSON_ArrayForEach(value, values) {
        before = *last ? cJSON_GetObjectItemCaseSensitive(*last, value->string) : NULL;
        if (before && cJSON_Compare(before, value, true)) continue;
        if (!ecs_sched__rpc_add(components, value->string, cJSON_Duplicate(value, true))) goto out_of_memory;
    }
    if (*last) {
        cJSON_ArrayForEach(before, *last) {
            if (!cJSON_GetObjectItemCaseSensitive(values, before->string) &&
                !ecs_sched__rpc_add(removed, NULL, cJSON_CreateString(before->string))) {
                goto out_of_memory;
            }
        }
    }
    *changed = components->child || removed->child;
    cJSON_Delete(*last);
    *last = strict ? now : cJSON_DetachItemFromObjectCaseSensitive(now, "components");
    if (!strict) cJSON_Delete(now);
    return result;
out_of_memory:
    cJSON_Delete(now);
    cJSON_Delete(result);
    return ecs_sched__rpc_out_of_memory(call);
}

static cJSON *ecs_sched__rpc_get_components_watch(ecs_sched__rpc_call *call, const cJSON *params) {
    cJSON *last = NULL, *result;
    bool changed;
    result = ecs_sched__rpc_components_changes(call, params, &last, &changed);
    cJSON_Delete(last);
    return result;
}

/* world.query+watch: the rows of world.query, sent again when any of them changed. */
static cJSON *ecs_sched__rpc_query_changes(ecs_sched__rpc_call *call, const cJSON *params, cJSON **last,
                                           bool *changed) {
    cJSON *now = ecs_sched__rpc_query(call, params);
    if (!now) return NULL;
    *changed = !*last || !cJSON_Compare(*last, now, true);
    cJSON_Delete(*last);
    *last = cJSON_Duplicate(now, true);
    if (!*last) {
        cJSON_Delete(now);
        return ecs_sched__rpc_out_of_memory(call);
    }
    return now;
}

static cJSON *ecs_sched__rpc_discover(ecs_sched__rpc_call *call, const cJSON *params);

typedef struct ecs_sched__rpc_method {
    const char *name;
    ecs_sched__rpc_method_fn fn;
    bool changes;                   /* changes the world: not available read-only */
} ecs_sched__rpc_method;

static const ecs_sched__rpc_method ecs_sched__rpc_methods[] = {
    {"rpc.discover", ecs_sched__rpc_discover, false},
    {"world.get_components", ecs_sched__rpc_get_components, false},
    {"world.query", ecs_sched__rpc_query, false},
    {"world.get_components+watch", ecs_sched__rpc_get_components_watch, false},
    {"world.query+watch", ecs_sched__rpc_query, false},
    {"world.spawn_entity", ecs_sched__rpc_spawn_entity, true},
    {"world.insert_components", ecs_sched__rpc_insert_components, true},
    {"world.remove_components", ecs_sched__rpc_remove_components, true},
    {"world.despawn_entity", ecs_sched__rpc_despawn_entity, true},
    {"world.reparent_entities", ecs_sched__rpc_reparent_entities, true},
    {"world.list_components", ecs_sched__rpc_list_components, false},
    {"world.mutate_components", ecs_sched__rpc_mutate_components, true},
    {"world.get_resources", ecs_sched__rpc_get_resources, false},
    {"world.insert_resources", ecs_sched__rpc_insert_resources, true},
    {"world.remove_resources", ecs_sched__rpc_remove_resources, true},
    {"world.mutate_resources", ecs_sched__rpc_mutate_resources, true},
    {"world.list_resources", ecs_sched__rpc_list_resources, false},
    {"world.trigger_event", ecs_sched__rpc_trigger_event, true},
    {"world.write_message", ecs_sched__rpc_write_message, true},
    {"ecs_sched.list_schedules", ecs_sched__rpc_list_schedules, false},
    {"ecs_sched.schedule_plan", ecs_sched__rpc_schedule_plan, false},
    {"ecs_sched.schedule_dot", ecs_sched__rpc_schedule_dot, false},
#ifdef ECS_SCHED_TRACE
    {"ecs_sched.system_stats", ecs_sched__rpc_system_stats, false},
    {"ecs_sched.set_stats", ecs_sched__rpc_set_stats, true},
    {"ecs_sched.trace", ecs_sched__rpc_trace, false},
    {"ecs_sched.record_trace", ecs_sched__rpc_record_trace, true},
    {"ecs_sched.get_stepping", ecs_sched__rpc_get_stepping, false},
    {"ecs_sched.set_stepping", ecs_sched__rpc_set_stepping, true},
    {"ecs_sched.step", ecs_sched__rpc_step, true},
    {"ecs_sched.set_step_behaviour", ecs_sched__rpc_set_step_behaviour, true},
#endif
    {"ecs_sched.list_states", ecs_sched__rpc_list_states, false},
    {"ecs_sched.set_state", ecs_sched__rpc_set_state, true},
    {"ecs_sched.take_snapshot", ecs_sched__rpc_take_snapshot, true},
    {"ecs_sched.restore_snapshot", ecs_sched__rpc_restore_snapshot, true},
    {"ecs_sched.names", ecs_sched__rpc_entity_names, false},
};

#define ECS_SCHED__RPC_METHOD_COUNT \
    ((int32_t)(sizeof ecs_sched__rpc_methods / sizeof ecs_sched__rpc_methods[0]))

/* rpc.discover: an OpenRPC document of the methods available, and the server. */
static cJSON *ecs_sched__rpc_discover(ecs_sched__rpc_call *call, const cJSON *params) {
    ecs_sched_remote *remote = call->remote;
    cJSON *doc = cJSON_CreateObject(), *info, *methods, *servers;
    int32_t i;
    (void)params;
    if (!doc || !cJSON_AddStringToObject(doc, "openrpc", "1.3.2") ||
        !(info = cJSON_AddObjectToObject(doc, "info")) ||
        !cJSON_AddStringToObject(info, "title", "Bevy Remote Protocol") ||
        !cJSON_AddStringToObject(info, "version", ECS_SCHED_VERSION_STRING) ||
        !cJSON_AddStringToObject(info, "description", "served by ecs_sched.h") ||
        !(methods = cJSON_AddArrayToObject(doc, "methods"))) {
        cJSON_Delete(doc);
        return ecs_sched__rpc_out_of_memory(call);
    }
    for (i = 0; i < ECS_SCHED__RPC_METHOD_COUNT; i++) {
        cJSON *method;
        if (remote->read_only && ecs_sched__rpc_methods[i].changes) continue;
        method = cJSON_CreateObject();
        if (!ecs_sched__rpc_add(methods, NULL, method) ||
            !cJSON_AddStringToObject(method, "name", ecs_sched__rpc_methods[i].name) ||
            !cJSON_AddArrayToObject(method, "params")) {
            cJSON_Delete(doc);
            return ecs_sched__rpc_out_of_memory(call);
        }
    }
    if (remote->daemon) {
        char url[96];
        cJSON *server;
        snprintf(url, sizeof url, strchr(remote->address, ':') ? "[%s]:%d" : "%s:%d",
                 remote->address, (int)remote->port);
        servers = cJSON_AddArrayToObject(doc, "servers");
        server = cJSON_CreateObject();
        if (!servers || !ecs_sched__rpc_add(servers, NULL, server) ||
            !cJSON_AddStringToObject(server, "name", "Server") ||
            !cJSON_AddStringToObject(server, "url", url)) {
            cJSON_Delete(doc);
            return ecs_sched__rpc_out_of_memory(call);
        }
    } else if (!cJSON_AddNullToObject(doc, "servers")) {
        cJSON_Delete(doc);
        return ecs_sched__rpc_out_of_memory(call);
    }
    return doc;
}

/* ---- requests and responses ---- */

/* A response object: {"jsonrpc": "2.0", "id": id, "result" | "error"}; the id is left out
   when the request had none (or null), as Bevy does. */
static cJSON *ecs_sched__rpc_response(const cJSON *id, cJSON *result, int code, const char *message) {
    cJSON *response = cJSON_CreateObject();
    if (!response || !cJSON_AddStringToObject(response, "jsonrpc", "2.0")) goto fail;
    if (id && !cJSON_IsNull(id) && !ecs_sched__rpc_add(response, "id", cJSON_Duplicate(id, 1))) goto fail;
    if (result) {
        if (!cJSON_AddItemToObject(response, "result", result)) goto fail;
        return response;
    }
    {
        cJSON *error = cJSON_AddObjectToObject(response, "error");
        if (!error || !cJSON_AddNumberToObject(error, "code", code) ||
            !cJSON_AddStringToObject(error, "message", message)) {
            cJSON_Delete(response);
            return NULL;
        }
    }
    return response;
fail:
    cJSON_Delete(result);
    cJSON_Delete(response);
    return NULL;
}

static const ecs_sched__rpc_method *ecs_sched__rpc_method_named(const char *name) {
    int32_t i;
    for (i = 0; i < ECS_SCHED__RPC_METHOD_COUNT; i++) {
        if (strcmp(ecs_sched__rpc_methods[i].name, name) == 0) return &ecs_sched__rpc_methods[i];
    }
    return NULL;
}

/* Whether the request object is JSON-RPC 2.0 (Bevy's reading: "jsonrpc": "2.0" and a string
   "method" required, "id" and "params" optional, nothing else, nothing twice); else the
   reason. */
static const char *ecs_sched__rpc_request_problem(const cJSON *request) {
    const cJSON *member, *other;
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(request, "jsonrpc");
    if (!cJSON_IsObject(request)) return "a request must be a JSON object";
    for (member = request->child; member; member = member->next) {
        if (strcmp(member->string, "jsonrpc") != 0 && strcmp(member->string, "method") != 0 &&
            strcmp(member->string, "id") != 0 && strcmp(member->string, "params") != 0) {
            return "unknown field: a request has `jsonrpc`, `method`, `id` and `params` only";
        }
        for (other = member->next; other; other = other->next) {
            if (strcmp(member->string, other->string) == 0) return "a field is given twice";
        }
    }
    if (!version) return "missing field `jsonrpc` (it must be \"2.0\")";
    if (!cJSON_IsString(version) || strcmp(version->valuestring, "2.0") != 0) {
        return "`jsonrpc` must be \"2.0\"";
    }
    if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(request, "method"))) {
        return "missing field `method` (a string)";
    }
    return NULL;
}

/* The response to one request object (NULL: out of memory). Anything the world refused in
   the call is the response's error, not the world's: failures are hushed. */
static cJSON *ecs_sched__rpc_answer_one(ecs_sched_remote *remote, const cJSON *request) {
    ecs_sched__rpc_call call;
    const ecs_sched__rpc_method *method;
    const cJSON *id = cJSON_IsObject(request) ? cJSON_GetObjectItemCaseSensitive(request, "id") : NULL;
    const cJSON *params;
    const char *problem = ecs_sched__rpc_request_problem(request);
    cJSON *result;
    if (problem) return ecs_sched__rpc_response(id, NULL, ECS_SCHED_RPC_INVALID_REQUEST, problem);
    memset(&call, 0, sizeof call);
    call.remote = remote;
    call.world = remote->world;
    call.method = cJSON_GetObjectItemCaseSensitive(request, "method")->valuestring;
    method = ecs_sched__rpc_method_named(call.method);
    if (!method) {
        snprintf(call.message, sizeof call.message, "method `%s` not found (rpc.discover lists "
                 "the methods)", call.method);
        return ecs_sched__rpc_response(id, NULL, ECS_SCHED_RPC_METHOD_NOT_FOUND, call.message);
    }
    if (method->changes && remote->read_only) {
        snprintf(call.message, sizeof call.message, "method `%s` changes the world, and this "
                 "server is read-only (ecs_sched_remote_desc.read_only)", call.method);
        return ecs_sched__rpc_response(id, NULL, ECS_SCHED_RPC_METHOD_NOT_FOUND, call.message);
    }
    params = cJSON_GetObjectItemCaseSensitive(request, "params");
    if (cJSON_IsNull(params)) params = NULL;
    ecs_sched__hush_depth++;
    result = method->fn(&call, params);
    ecs_sched__hush_depth--;
    if (!result) {
        if (!call.code) ecs_sched__rpc_out_of_memory(&call);
        ecs_sched__logf(&remote->world->env, ECS_SCHED_LOG_DEBUG, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "remote: %s refused (%d): %s", call.method, call.code, call.message);
        return ecs_sched__rpc_response(id, NULL, call.code, call.message);
    }
    return ecs_sched__rpc_response(id, result, 0, NULL);
}

/* The response text to a request text: one request or a batch (an array of them). */
static char *ecs_sched__rpc_answer(ecs_sched_remote *remote, const char *text, size_t length) {
    cJSON *request, *response;
    char *out;
    char message[160];
    if (length > remote->max_bytes) {
        snprintf(message, sizeof message, "the request is %llu bytes, and this server takes at "
                 "most %llu (max_request_bytes)", (unsigned long long)length,
                 (unsigned long long)remote->max_bytes);
        response = ecs_sched__rpc_response(NULL, NULL, ECS_SCHED_RPC_INVALID_REQUEST, message);
    } else if (!(request = cJSON_ParseWithLength(text, length))) {
        response = ecs_sched__rpc_response(NULL, NULL, ECS_SCHED_RPC_PARSE_ERROR,
                                           "parse error: the request is not JSON");
    } else if (cJSON_IsArray(request) && !request->child) {   /* JSON-RPC 2.0: one error */
        response = ecs_sched__rpc_response(NULL, NULL, ECS_SCHED_RPC_INVALID_REQUEST,
                                           "an empty batch: send at least one request");
        cJSON_Delete(request);
    } else if (cJSON_IsArray(request)) {
        const cJSON *one;
        response = cJSON_CreateArray();
        cJSON_ArrayForEach(one, request) {
            if (!response) break;
            if (!ecs_sched__rpc_add(response, NULL, ecs_sched__rpc_answer_one(remote, one))) {
                cJSON_Delete(response);
                response = NULL;
            }
        }
        cJSON_Delete(request);
    } else {
        response = ecs_sched__rpc_answer_one(remote, request);
        cJSON_Delete(request);
    }
    if (!response) return NULL;
    out = cJSON_PrintUnformatted(response);
    cJSON_Delete(response);
    return out;
}

/* A watch: the request, what it sent last, and the frames waiting for the HTTP thread. */
static bool ecs_sched__rpc_is_watch(const char *method) {
    return strcmp(method, "world.get_components+watch") == 0 || strcmp(method, "world.query+watch") == 0;
}

static void ecs_sched__rpc_watch_free(ecs_sched__rpc_watch *watch) {
    cJSON_Delete(watch->id);
    cJSON_Delete(watch->params);
    cJSON_Delete(watch->last);
    free(watch->method);
    free(watch->out);
    free(watch);
}

/* One frame of the watch: the response queued when something changed (or went wrong, with
   another error than the last frame's). False: out of memory. */
static bool ecs_sched__rpc_watch_frame(ecs_sched__rpc_watch *watch) {
    ecs_sched_remote *remote = watch->remote;
    ecs_sched__rpc_call call;
    cJSON *result, *response;
    bool changed = false;
    char *text;
    size_t n;
    memset(&call, 0, sizeof call);
    call.remote = remote;
    call.world = remote->world;
    call.method = watch->method;
    ecs_sched__hush_depth++;
    result = watch->components ? ecs_sched__rpc_components_changes(&call, watch->params, &watch->last, &changed)
                               : ecs_sched__rpc_query_changes(&call, watch->params, &watch->last, &changed);
    ecs_sched__hush_depth--;
    if (result && !changed) {
        cJSON_Delete(result);
        return true;
    }
    if (!result) {   /* an error is sent once, until the watch reads something again */
        if (!watch->last) return true;
        cJSON_Delete(watch->last);
        watch->last = NULL;
    }
    response = ecs_sched__rpc_response(watch->id, result, call.code ? call.code : ECS_SCHED_RPC_INTERNAL_ERROR,
                                       call.message);
    text = response ? cJSON_PrintUnformatted(response) : NULL;
    cJSON_Delete(response);
    if (!text) return false;
    n = strlen(text);
    pthread_mutex_lock(&remote->lock);
    if (watch->out_length + n + 2 > watch->out_capacity) {
        size_t capacity = (watch->out_length + n + 2) * 2;
        char *out = (char *)realloc(watch->out, capacity);
        if (out) {
            watch->out = out;
            watch->out_capacity = capacity;
        }
    }
    if (watch->out_length + n + 2 <= watch->out_capacity) {
        memcpy(watch->out + watch->out_length, text, n);
        memcpy(watch->out + watch->out_length + n, "\n", 2);
        watch->out_length += n + 1;
        pthread_cond_broadcast(&remote->answered);
    }
    pthread_mutex_unlock(&remote->lock);
    cJSON_free(text);
    return true;
}

/* A request over HTTP for a +watch method that reads: it becomes a watch, its first frame
   queued, and the request answered by the stream (true). False: answered as any request
   (not a watch, or refused). */
static bool ecs_sched__rpc_watch_start(ecs_sched_remote *remote, ecs_sched__remote_request *r) {
    cJSON *request = r->length <= remote->max_bytes ? cJSON_ParseWithLength(r->body ? r->body : "", r->length) : NULL;
    const cJSON *method = cJSON_GetObjectItemCaseSensitive(request, "method");
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(request, "params");
    ecs_sched__rpc_watch *watch;
    if (!cJSON_IsObject(request) || ecs_sched__rpc_request_problem(request) ||
        !ecs_sched__rpc_is_watch(method->valuestring) || !cJSON_IsObject(params) ||
        !(watch = (ecs_sched__rpc_watch *)calloc(1, sizeof *watch))) {
        cJSON_Delete(request);
        return false;
    }
    watch->remote = remote;
    watch->components = strcmp(method->valuestring, "world.get_components+watch") == 0;
    watch->method = (char *)malloc(strlen(method->valuestring) + 1);
    if (watch->method) strcpy(watch->method, method->valuestring);
    watch->params = cJSON_DetachItemFromObjectCaseSensitive(request, "params");
    watch->id = cJSON_DetachItemFromObjectCaseSensitive(request, "id");
    cJSON_Delete(request);
    if (!watch->method || !ecs_sched__rpc_watch_frame(watch) || !watch->last) {
        ecs_sched__rpc_watch_free(watch);   /* refused: answered again, as an error */
        return false;
    }
    watch->next = remote->watches;
    remote->watches = watch;
    r->watch = watch;
    return true;
}

/* A frame for every watch (a poll is a frame); the watches whose client left are freed. */
static void ecs_sched__rpc_watch_frames(ecs_sched_remote *remote) {
    ecs_sched__rpc_watch **at = &remote->watches;
    while (*at) {
        ecs_sched__rpc_watch *watch = *at;
        bool gone;
        pthread_mutex_lock(&remote->lock);
        gone = watch->gone;
        pthread_mutex_unlock(&remote->lock);
        if (gone) {
            *at = watch->next;
            ecs_sched__rpc_watch_free(watch);
            continue;
        }
        ecs_sched__rpc_watch_frame(watch);
        at = &watch->next;
    }
}

static void ecs_sched__rpc_watches_free(ecs_sched_remote *remote) {
    while (remote->watches) {
        ecs_sched__rpc_watch *watch = remote->watches;
        remote->watches = watch->next;
        ecs_sched__rpc_watch_free(watch);
    }
}

#endif /* ECS_SCHED_REMOTE */
