/* remote: Bevy's remote protocol (BRP: JSON-RPC 2.0 over HTTP) served from a world, when
   ECS_SCHED_REMOTE is defined (it defines ECS_SCHED_JSON: values are the JSON files' values).
   A server thread (libmicrohttpd) only queues requests; the world's thread answers them at a
   safe point: ecs_sched_remote_poll between frames, or the app's exclusive system. */
#pragma once
#include "app.h"
#include "json_save.h"
#include "remote_page.h"

#ifdef ECS_SCHED_REMOTE

#define ECS_SCHED_REMOTE_PORT 15702              /* Bevy's */
#define ECS_SCHED_REMOTE_ANY_PORT (-1)           /* a free port, chosen by the system */
#define ECS_SCHED_REMOTE_LAST "RemoteLast"       /* the app's schedule of remote requests */

/* The JSON-RPC error codes of Bevy's remote protocol: JSON-RPC 2.0's own, and Bevy's. */
typedef enum ecs_sched_rpc_code {
    ECS_SCHED_RPC_PARSE_ERROR = -32700,          /* the text is not JSON */
    ECS_SCHED_RPC_INVALID_REQUEST = -32600,      /* JSON, but not a JSON-RPC 2.0 request; too
                                                    large; a bad token */
    ECS_SCHED_RPC_METHOD_NOT_FOUND = -32601,     /* no such method, or not available (read-only) */
    ECS_SCHED_RPC_INVALID_PARAMS = -32602,
    ECS_SCHED_RPC_INTERNAL_ERROR = -32603,
    ECS_SCHED_RPC_ENTITY_NOT_FOUND = -23401,
    ECS_SCHED_RPC_COMPONENT_ERROR = -23402,      /* unknown component, or its value unreadable */
    ECS_SCHED_RPC_COMPONENT_NOT_PRESENT = -23403,
    ECS_SCHED_RPC_SELF_REPARENT = -23404,        /* an entity made its own parent or ancestor */
    ECS_SCHED_RPC_RESOURCE_ERROR = -23501,       /* unknown resource, event or message type */
    ECS_SCHED_RPC_RESOURCE_NOT_PRESENT = -23502,
    /* the methods beyond Bevy's (ecs_sched.*): */
    ECS_SCHED_RPC_NOT_FOUND = -23601,            /* no schedule, system, state machine or
                                                    snapshot of that name; no trace recorded */
    ECS_SCHED_RPC_REFUSED = -23602               /* the world refused it (the message says why) */
} ecs_sched_rpc_code;

typedef struct ecs_sched_remote ecs_sched_remote;

/* Zero means the defaults. */
typedef struct ecs_sched_remote_desc {
    const char *address;          /* the address to listen on (IPv4 or IPv6); NULL: 127.0.0.1,
                                     this machine only */
    int32_t port;                 /* 0: 15702; ECS_SCHED_REMOTE_ANY_PORT: a free one
                                     (ecs_sched_remote_port says which) */
    bool no_http;                 /* no server: requests come through ecs_sched_remote_handle */
    const char *token;            /* non-NULL: an HTTP request needs the header
                                     "Authorization: Bearer <token>" */
    bool read_only;               /* the methods that change the world are not available */
    size_t max_request_bytes;     /* a longer request is refused; 0: 1 MiB */
    int32_t requests_per_frame;   /* requests a poll answers at most, the rest waiting for the
                                     next; 0: 64 */
    int32_t max_connections;      /* HTTP connections at once; 0: 16 */
    const char *schedule;         /* ecs_sched_app_add_remote: the schedule its system goes in
                                     (existing); NULL: RemoteLast, made right after Last */
    bool no_page;                 /* no explorer page at "/" (GET): only the protocol (POST) */
} ecs_sched_remote_desc;

#endif /* ECS_SCHED_REMOTE */

/*@@ implementation @@*/
/* remote: the queue between the server's threads and the world's thread, the HTTP side
   (libmicrohttpd, a thread per connection that waits for its answer), and the methods.
   What the server's threads allocate (a request's body and its response) comes from malloc
   and cJSON, as cJSON's own allocations do: the world's allocator is the world thread's. */

#ifdef ECS_SCHED_REMOTE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <microhttpd.h>

#define ECS_SCHED__REMOTE_MAX_BYTES ((size_t)1 << 20)
#define ECS_SCHED__REMOTE_PER_FRAME 64
#define ECS_SCHED__REMOTE_CONNECTIONS 16
#define ECS_SCHED__REMOTE_SYSTEM "remote_requests"
#define ECS_SCHED__HTTP_TOO_LARGE 413u   /* (its MHD name changed between versions) */

typedef struct ecs_sched__rpc_snapshot ecs_sched__rpc_snapshot;
typedef struct ecs_sched__rpc_watch ecs_sched__rpc_watch;

/* A snapshot ecs_sched.take_snapshot keeps, by name. */
struct ecs_sched__rpc_snapshot {
    struct ecs_sched__rpc_snapshot *next;
    char *name;
    ecs_sched_snapshot *snapshot;
};

/* A +watch request streaming over HTTP. */
struct ecs_sched__rpc_watch {
    struct ecs_sched__rpc_watch *next;   /* remote->watches (world thread) */
    ecs_sched_remote *remote;
    cJSON *id, *params;                  /* the request's (world thread) */
    char *method;
    bool components;                     /* get_components+watch, else query+watch */
    cJSON *last;                         /* the values or rows sent last (world thread) */
    /* guarded by remote->lock: */
    char *out;                           /* frames not yet sent, each a response and "\n" */
    size_t out_length, out_sent, out_capacity;
    bool gone;                           /* the HTTP response is over: free it at a poll */
};

/* One HTTP request: made by the server's thread, queued, answered by the world's thread. */
typedef struct ecs_sched__remote_request {
    struct ecs_sched__remote_request *next;
    char *body;
    size_t length;
    size_t capacity;
    bool too_large;
    bool answered;                  /* response is set (NULL: out of memory) */
    char *response;
    ecs_sched__rpc_watch *watch;    /* answered by a stream of this watch's frames */
} ecs_sched__remote_request;

struct ecs_sched_remote {
    ecs_sched_world *world;
    char *token;
    bool read_only;
    bool no_page;
    size_t max_bytes;
    int32_t per_frame;
    int32_t port;
    char *address;
    struct MHD_Daemon *daemon;
    char *schedule;                 /* the app's system is there (NULL: none placed) */
    char system_name[32];           /* its name there: a name no other system of it has */
    ecs_sched__rpc_snapshot *snapshots;   /* ecs_sched.take_snapshot's, by name (world thread) */
    ecs_sched__rpc_watch *watches;  /* +watch requests streaming over HTTP (world thread) */
#ifndef ECS_SCHED_NO_APP
    ecs_sched_app *app;             /* ecs_sched_app_add_remote's: its between_frames is ours */
#endif
    int32_t trace_frames;           /* ecs_sched.record_trace's frames, to start between two */
    /* guarded by lock: */
    pthread_mutex_t lock;
    pthread_cond_t answered;
    ecs_sched__remote_request *head, *tail;
    int32_t waiting;
    int32_t in_flight;              /* HTTP requests begun and not yet completed */
    bool closing;
};

/* ---- one call ---- */

typedef struct ecs_sched__rpc_call {
    ecs_sched_remote *remote;
    ecs_sched_world *world;
    const char *method;
    int code;                       /* 0: none yet */
    char message[ECS_SCHED__ERROR_CAPACITY];
} ecs_sched__rpc_call;

ECS_SCHED__PRINTF(3, 4)
static cJSON *ecs_sched__rpc_fail(ecs_sched__rpc_call *call, int code, const char *fmt, ...) {
    va_list args;
    call->code = code;
    va_start(args, fmt);
    vsnprintf(call->message, sizeof call->message, fmt, args);
    va_end(args);
    return NULL;
}

/* The world's last failure as the call's error. */
static cJSON *ecs_sched__rpc_fail_world(ecs_sched__rpc_call *call, int code) {
    return ecs_sched__rpc_fail(call, code, "%s", call->world->env.last_error);
}

static cJSON *ecs_sched__rpc_out_of_memory(ecs_sched__rpc_call *call) {
    return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INTERNAL_ERROR, "%s: out of memory", call->method);
}

/* Adds item to object (or to an array when key is NULL); false, item deleted, when out of
   memory (or when item is NULL: its making ran out). */
static bool ecs_sched__rpc_add(cJSON *to, const char *key, cJSON *item) {
    if (!item) return false;
    if (key ? cJSON_AddItemToObject(to, key, item) : cJSON_AddItemToArray(to, item)) return true;
    cJSON_Delete(item);
    return false;
}

/* ---- parameters ---- */

static bool ecs_sched__rpc_need_params(ecs_sched__rpc_call *call, const cJSON *params) {
    if (!params) {
        ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS, "%s: params not provided",
                            call->method);
        return false;
    }
    if (!cJSON_IsObject(params)) {
        ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS, "%s: params must be an object",
                            call->method);
        return false;
    }
    return true;
}

static const cJSON *ecs_sched__rpc_member(const cJSON *params, const char *key) {
    return params ? cJSON_GetObjectItemCaseSensitive(params, key) : NULL;
}

/* An entity parameter: its handle, a whole number (Bevy's Entity::to_bits, index in the low
   32 bits and generation in the high ones). */
static bool ecs_sched__rpc_entity(ecs_sched__rpc_call *call, const cJSON *item, const char *key,
                                  ecs_sched_entity *out) {
    if (!item) {
        ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS, "%s: missing field `%s`",
                            call->method, key);
        return false;
    }
    if (cJSON_IsNull(item) || !ecs_sched__json_handle(item, out)) {
        ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS,
                            "%s: `%s` must be an entity: its 64-bit number (index + "
                            "generation * 2^32)", call->method, key);
        return false;
    }
    return true;
}

static bool ecs_sched__rpc_live(ecs_sched__rpc_call *call, ecs_sched_entity e) {
    if (ecs_sched_is_alive(call->world, e)) return true;
    ecs_sched__rpc_fail(call, ECS_SCHED_RPC_ENTITY_NOT_FOUND,
                        "%s: entity %llu (index %u, generation %u) not found: it was "
                        "despawned, or never spawned", call->method, (unsigned long long)e,
                        (unsigned)ECS_SCHED_ENTITY_INDEX(e), (unsigned)ECS_SCHED_ENTITY_GENERATION(e));
    return false;
}

static bool ecs_sched__rpc_string(ecs_sched__rpc_call *call, const cJSON *params, const char *key,
                                  const char **out) {
    const cJSON *item = ecs_sched__rpc_member(params, key);
    if (!cJSON_IsString(item)) {
        ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS, "%s: `%s` must be a string%s",
                            call->method, key, item ? "" : " (missing)");
        return false;
    }
    *out = item->valuestring;
    return true;
}

/* An optional array of strings (missing or null: empty). */
static bool ecs_sched__rpc_strings(ecs_sched__rpc_call *call, const cJSON *params, const char *key,
                                   const cJSON **out) {
    const cJSON *item = ecs_sched__rpc_member(params, key), *e;
    *out = NULL;
    if (!item || cJSON_IsNull(item)) return true;
    if (!cJSON_IsArray(item)) {
        ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS,
                            "%s: `%s` must be an array of component names", call->method, key);
        return false;
    }
    cJSON_ArrayForEach(e, item) {
        if (!cJSON_IsString(e)) {
            ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS,
                                "%s: `%s` must hold strings only (component names)", call->method, key);
            return false;
        }
    }
    *out = item;
    return true;
}

static bool ecs_sched__rpc_bool(ecs_sched__rpc_call *call, const cJSON *params, const char *key,
                                bool *out) {
    const cJSON *item = ecs_sched__rpc_member(params, key);
    *out = false;
    if (!item || cJSON_IsNull(item)) return true;
    if (!cJSON_IsBool(item)) {
        ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS, "%s: `%s` must be true or false",
                            call->method, key);
        return false;
    }
    *out = cJSON_IsTrue(item);
    return true;
}

/* ---- components by name, and their values ---- */

/* A component the protocol can name: registered, not a message type, not the library's own
   bookkeeping (a base's mark). */
static ecs_sched_id ecs_sched__rpc_component(const ecs_sched_world *w, const char *name) {
    ecs_sched_id id = ecs_sched_component_lookup(w, name);
    if (!id || w->components[id].queue || w->components[id].managed) return 0;
    return id;
}

static bool ecs_sched__rpc_is_kind(const ecs_sched_world *w, ecs_sched_id id) {
    return w->components[id].relation != 0;
}

/* A relationship kind's value on an entity: the target of an exclusive kind (ChildOf: the
   parent), else the array of targets. */
static cJSON *ecs_sched__rpc_targets(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id kind) {
    int32_t n = ecs_sched_target_count(w, e, kind), i;
    cJSON *array;
    if (w->components[kind].relation & ECS_SCHED__KIND_EXCLUSIVE) {
        return ecs_sched__json_of_handle(n > 0 ? ecs_sched_target(w, e, kind, 0) : 0);
    }
    array = cJSON_CreateArray();
    for (i = 0; array && i < n; i++) {
        if (!ecs_sched__rpc_add(array, NULL, ecs_sched__json_of_handle(ecs_sched_target(w, e, kind, i)))) {
            cJSON_Delete(array);
            return NULL;
        }
    }
    return array;
}

/* The entity's value of a component it has, as JSON; NULL with the call's error set. A tag is
   {} (Bevy's unit struct). */
static cJSON *ecs_sched__rpc_value_of(ecs_sched__rpc_call *call, ecs_sched_entity e, ecs_sched_id id,
                                      int not_present_code) {
    ecs_sched_world *w = call->world;
    const ecs_sched__component *c = &w->components[id];
    const void *value;
    cJSON *json;
    if (!ecs_sched_has(w, e, id)) {
        return ecs_sched__rpc_fail(call, not_present_code, "component `%s` not present in entity %llu",
                                   c->name, (unsigned long long)e);
    }
    if (ecs_sched__rpc_is_kind(w, id)) {
        json = ecs_sched__rpc_targets(w, e, id);
        return json ? json : ecs_sched__rpc_out_of_memory(call);
    }
    if (c->size == 0) {
        json = cJSON_CreateObject();
        return json ? json : ecs_sched__rpc_out_of_memory(call);
    }
    if (!ecs_sched__description_of(w, id)) {
        return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_COMPONENT_ERROR,
                                   "component `%s` has no description, so its value cannot be "
                                   "written (ecs_sched_describe)", c->name);
    }
    value = ecs_sched_get(w, e, id);
    if (!value) return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_COMPONENT_ERROR);
    json = ecs_sched__json_value_write(w, id, value);
    return json ? json : ecs_sched__rpc_out_of_memory(call);
}

/* A value of component id read from JSON: constructed (its default), then filled. *out is
   NULL for a tag. Free it with ecs_sched__rpc_value_free. */
static bool ecs_sched__rpc_value_read(ecs_sched__rpc_call *call, ecs_sched_id id, const cJSON *item,
                                      int code, void **out) {
    ecs_sched_world *w = call->world;
    const ecs_sched__component *c = &w->components[id];
    void *value;
    *out = NULL;
    if (ecs_sched__rpc_is_kind(w, id)) {
        ecs_sched__rpc_fail(call, code, "%s: `%s` is a relationship kind, not a component with a "
                                        "value (a parent is set with world.reparent_entities)",
                            call->method, c->name);
        return false;
    }
    if (c->size == 0) {
        if (cJSON_IsTrue(item) || (cJSON_IsObject(item) && !item->child) || cJSON_IsNull(item)) return true;
        ecs_sched__rpc_fail(call, code, "%s: `%s` is a tag, which has no value: give it {}",
                            call->method, c->name);
        return false;
    }
    value = ecs_sched__aligned_alloc(&w->env, c->size, c->alignment);
    if (!value) {
        ecs_sched__rpc_out_of_memory(call);
        return false;
    }
    ecs_sched__construct(c, value, NULL, 1);
    if (ecs_sched__json_value_read(w, id, item, call->method, value) != ECS_SCHED_OK) {
        ecs_sched__rpc_fail_world(call, code);
        ecs_sched__destruct(c, value, 1);
        ecs_sched__aligned_free(&w->env, value);
        return false;
    }
    *out = value;
    return true;
}

static void ecs_sched__rpc_value_free(ecs_sched_world *w, ecs_sched_id id, void *value) {
    if (!value) return;
    ecs_sched__destruct(&w->components[id], value, 1);
    ecs_sched__aligned_free(&w->env, value);
}

/* The values a map of component names to values gives, all read before anything changes. */
typedef struct ecs_sched__rpc_values {
    ecs_sched_id *ids;
    void **values;
    int32_t count;
} ecs_sched__rpc_values;

static void ecs_sched__rpc_values_free(ecs_sched_world *w, ecs_sched__rpc_values *v) {
    int32_t i;
    for (i = 0; i < v->count; i++) ecs_sched__rpc_value_free(w, v->ids[i], v->values[i]);
    ecs_sched__free(&w->env, v->ids);
    ecs_sched__free(&w->env, (void *)v->values);
    memset(v, 0, sizeof *v);
}

static bool ecs_sched__rpc_values_read(ecs_sched__rpc_call *call, const cJSON *map,
                                       ecs_sched__rpc_values *out) {
    ecs_sched_world *w = call->world;
    int32_t n = cJSON_GetArraySize(map);
    const cJSON *item;
    memset(out, 0, sizeof *out);
    if (!cJSON_IsObject(map)) {
        ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS,
                            "%s: `components` must be an object of component names to values",
                            call->method);
        return false;
    }
    if (n == 0) return true;
    out->ids = (ecs_sched_id *)ecs_sched__calloc(&w->env, (size_t)n * sizeof *out->ids);
    out->values = (void **)ecs_sched__calloc(&w->env, (size_t)n * sizeof *out->values);
    if (!out->ids || !out->values) {
        ecs_sched__rpc_values_free(w, out);
        ecs_sched__rpc_out_of_memory(call);
        return false;
    }
    cJSON_ArrayForEach(item, map) {
        ecs_sched_id id = ecs_sched__rpc_component(w, item->string);
        int32_t k;
        if (!id) {
            ecs_sched__rpc_fail(call, ECS_SCHED_RPC_COMPONENT_ERROR,
                                "%s: unknown component type: `%s` (components are named as "
                                "registered; world.list_components lists them)", call->method,
                                item->string);
            ecs_sched__rpc_values_free(w, out);
            return false;
        }
        for (k = 0; k < out->count; k++) {
            if (out->ids[k] == id) {
                ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS,
                                    "%s: component `%s` is given twice", call->method, item->string);
                ecs_sched__rpc_values_free(w, out);
                return false;
            }
        }
        out->ids[out->count] = id;
        if (!ecs_sched__rpc_value_read(call, id, item, ECS_SCHED_RPC_COMPONENT_ERROR,
                                       &out->values[out->count])) {
            ecs_sched__rpc_values_free(w, out);
            return false;
        }
        out->count++;
    }
    return true;
}

/* ---- paths into a value (world.mutate_components, world.mutate_resources) ---- */

/* The item a path names inside a value's JSON: "a.b", ".a.b", "a[2].b" (Bevy's GetPath
   spellings of fields and list elements); "" is the whole value. *parent and *key (or
   *index) say where it hangs, to replace it. NULL when the path names nothing. */
static cJSON *ecs_sched__rpc_path_item(cJSON *root, const char *path, cJSON **parent,
                                       char *key, size_t key_size, int32_t *index) {
    cJSON *at = root;
    const char *p = path;
    *parent = NULL;
    while (*p) {
        if (*p == '[') {
            char *end;
            long i = strtol(p + 1, &end, 10);
            if (end == p + 1 || *end != ']' || i < 0 || !cJSON_IsArray(at) ||
                i >= cJSON_GetArraySize(at)) {
                return NULL;
            }
            *parent = at;
            *index = (int32_t)i;
            key[0] = '\0';
            at = cJSON_GetArrayItem(at, (int)i);
            p = end + 1;
            continue;
        }
        if (*p == '.') p++;
        {
            size_t n = strcspn(p, ".[");
            if (n == 0 || n >= key_size || !cJSON_IsObject(at)) return NULL;
            memcpy(key, p, n);
            key[n] = '\0';
            *parent = at;
            *index = -1;
            at = cJSON_GetObjectItemCaseSensitive(at, key);
            if (!at) return NULL;
            p += n;
        }
    }
    return at;
}

/* The value with the item at path replaced by `value`, read back: the whole value written as
   JSON, patched, and read as world.insert_components reads one, so that a member takes what
   it would take there. *out as for ecs_sched__rpc_value_read. */
static bool ecs_sched__rpc_value_patched(ecs_sched__rpc_call *call, ecs_sched_id id,
                                         const void *current, const char *path,
                                         const cJSON *value, int code, void **out) {
    ecs_sched_world *w = call->world;
    cJSON *whole, *parent, *copy;
    char key[128];
    int32_t index = -1;
    bool ok;
    *out = NULL;
    if (!ecs_sched__description_of(w, id)) {
        ecs_sched__rpc_fail(call, code, "%s: `%s` has no description, so its members cannot be "
                                        "reached (ecs_sched_describe)", call->method,
                            w->components[id].name);
        return false;
    }
    whole = ecs_sched__json_value_write(w, id, current);
    copy = cJSON_Duplicate(value, 1);
    if (!whole || !copy) {
        cJSON_Delete(whole);
        cJSON_Delete(copy);
        ecs_sched__rpc_out_of_memory(call);
        return false;
    }
    if (!ecs_sched__rpc_path_item(whole, path, &parent, key, sizeof key, &index)) {
        cJSON_Delete(whole);
        cJSON_Delete(copy);
        ecs_sched__rpc_fail(call, code, "%s: `%s` has no member at path `%s` (a path names "
                                        "members as \"a.b\" or \".a.b\", elements as \"[2]\")",
                            call->method, w->components[id].name, path);
        return false;
    }
    if (!parent) {
        cJSON_Delete(whole);
        whole = copy;
    } else if (index >= 0) {
        cJSON_ReplaceItemInArray(parent, (int)index, copy);
    } else {
        cJSON_ReplaceItemInObjectCaseSensitive(parent, key, copy);
    }
    ok = ecs_sched__rpc_value_read(call, id, whole, code, out);
    cJSON_Delete(whole);
    return ok;
}

#endif /* ECS_SCHED_REMOTE */
