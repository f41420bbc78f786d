/* remote: Bevy's remote protocol (BRP: JSON-RPC 2.0 over HTTP) served from a world, when
   ECS_SCHED_REMOTE is defined (it defines ECS_SCHED_JSON: values are the JSON files' values).
   A server thread (libmicrohttpd) only queues requests; the world's thread answers them at a
   safe point: ecs_sched_remote_poll between frames, or the app's exclusive system. */
#pragma once
#include "app.h"
#include "json.h"
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

/* Serves the world: starts the HTTP server (unless desc->no_http). NULL on failure, with the
   reason as the world's last error (the address cannot be read, the port is taken...). desc
   NULL: defaults. The remote keeps the world: destroy the remote before the world. */
ECS_SCHED_API ecs_sched_remote *ecs_sched_remote_create(ecs_sched_world *world,
                                                       const ecs_sched_remote_desc *desc);
/* Stops the server (requests waiting are answered with an error), takes the app's system out
   of its schedule if it placed one, and frees the remote. Not while a schedule runs. */
ECS_SCHED_API void ecs_sched_remote_destroy(ecs_sched_remote *remote);
/* Answers the requests waiting, at most desc.requests_per_frame of them, in arrival order:
   the one place where HTTP requests touch the world. Outside schedule runs, or from an
   exclusive system. Returns how many it answered (0 and the last error when refused). */
ECS_SCHED_API int32_t ecs_sched_remote_poll(ecs_sched_remote *remote);
/* Requests waiting for a poll. */
ECS_SCHED_API int32_t ecs_sched_remote_pending(ecs_sched_remote *remote);
/* The port the server listens on (0 without HTTP). */
ECS_SCHED_API int32_t ecs_sched_remote_port(const ecs_sched_remote *remote);
/* Answers one request text (a JSON-RPC request or a batch of them) now, as the server would,
   on the world's thread: the response text (free it with ecs_sched_remote_free), or NULL when
   out of memory. The text need not end with a zero. */
ECS_SCHED_API char *ecs_sched_remote_handle(ecs_sched_remote *remote, const char *request,
                                           size_t length);
ECS_SCHED_API void ecs_sched_remote_free(char *response);
#ifndef ECS_SCHED_NO_APP
/* Serves the app's world and answers its requests in an exclusive system, "remote_requests",
   in desc->schedule (default RemoteLast, a schedule right after Last: every frame, after
   everything else). NULL on failure. Destroy it (ecs_sched_remote_destroy) before the app. */
ECS_SCHED_API ecs_sched_remote *ecs_sched_app_add_remote(ecs_sched_app *app,
                                                        const ecs_sched_remote_desc *desc);
#endif

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

/* One HTTP request: made by the server's thread, queued, answered by the world's thread. */
typedef struct ecs_sched__rpc_snapshot ecs_sched__rpc_snapshot;
typedef struct ecs_sched__rpc_watch ecs_sched__rpc_watch;

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

/* ---- ecs_sched.*: what this library has beyond Bevy's protocol ---- */

/* A named item (schedule, state machine, snapshot...) the world does not know. */
static cJSON *ecs_sched__rpc_not_found(ecs_sched__rpc_call *call, const char *what, const char *name,
                                       const char *hint) {
    return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_NOT_FOUND, "%s: no %s named `%s` (%s)",
                               call->method, what, name, hint);
}

/* The schedule named by params' `schedule`, or NULL (the call's error set). */
static ecs_sched__schedule *ecs_sched__rpc_schedule(ecs_sched__rpc_call *call, const cJSON *params,
                                                    const char **label) {
    ecs_sched__schedule *s;
    if (!ecs_sched__rpc_need_params(call, params) || !ecs_sched__rpc_string(call, params, "schedule", label)) {
        return NULL;
    }
    s = ecs_sched__schedule_find(call->world, *label);
    if (!s) ecs_sched__rpc_not_found(call, "schedule", *label, "ecs_sched.list_schedules lists them");
    return s;
}

/* An array of strings, sorted. */
static cJSON *ecs_sched__rpc_sorted_strings(ecs_sched__rpc_call *call, const char **names, int32_t count) {
    cJSON *array = cJSON_CreateArray();
    int32_t i;
    if (!array) return ecs_sched__rpc_out_of_memory(call);
    qsort((void *)names, (size_t)count, sizeof *names, ecs_sched__rpc_compare_names);
    for (i = 0; i < count; i++) {
        if (!ecs_sched__rpc_add(array, NULL, cJSON_CreateString(names[i]))) {
            cJSON_Delete(array);
            return ecs_sched__rpc_out_of_memory(call);
        }
    }
    return array;
}

/* ecs_sched.list_schedules: the schedules' labels, sorted. */
static cJSON *ecs_sched__rpc_list_schedules(ecs_sched__rpc_call *call, const cJSON *params) {
    ecs_sched_world *w = call->world;
    ecs_sched__schedules *all = ecs_sched__schedules_of(w);
    uint32_t count = all ? all->count : 0, i;
    const char **names = (const char **)ecs_sched__alloc(&w->env, (count ? count : 1) * sizeof *names);
    cJSON *result;
    (void)params;
    if (!names) return ecs_sched__rpc_out_of_memory(call);
    for (i = 0; i < count; i++) names[i] = all->items[i]->label;
    result = ecs_sched__rpc_sorted_strings(call, names, (int32_t)count);
    ecs_sched__free(&w->env, (void *)names);
    return result;
}

/* ecs_sched.schedule_plan {schedule}: the built plan in order, [{"name", "sync"}]; a sync
   point (automatic or apply_deferred) is named "apply_deferred". Builds it when needed. */
static cJSON *ecs_sched__rpc_schedule_plan(ecs_sched__rpc_call *call, const cJSON *params) {
    const char *label;
    ecs_sched__schedule *s = ecs_sched__rpc_schedule(call, params, &label);
    const ecs_sched__plan *plan;
    cJSON *result;
    int32_t i;
    if (!s) return NULL;
    if (ecs_sched__ensure_built(call->world, s) != ECS_SCHED_OK) {
        return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_REFUSED);
    }
    plan = ecs_sched__plan_of(s);
    result = cJSON_CreateArray();
    if (!result) return ecs_sched__rpc_out_of_memory(call);
    for (i = 0; i < plan->node_count; i++) {
        cJSON *node = cJSON_CreateObject();
        if (!ecs_sched__rpc_add(result, NULL, node) ||
            !cJSON_AddStringToObject(node, "name", ecs_sched__plan_node_name(&plan->nodes[i])) ||
            !cJSON_AddBoolToObject(node, "sync", plan->nodes[i].sync)) {
            cJSON_Delete(result);
            return ecs_sched__rpc_out_of_memory(call);
        }
    }
    return result;
}

typedef struct ecs_sched__rpc_text {
    char *data;
    size_t length, capacity;
    bool failed;
} ecs_sched__rpc_text;

static void ecs_sched__rpc_text_write(const char *text, void *user_data) {
    ecs_sched__rpc_text *t = (ecs_sched__rpc_text *)user_data;
    size_t n = strlen(text);
    if (t->failed) return;
    if (t->length + n + 1 > t->capacity) {
        size_t capacity = (t->length + n + 1) * 2;
        char *data = (char *)realloc(t->data, capacity);
        if (!data) {
            t->failed = true;
            return;
        }
        t->data = data;
        t->capacity = capacity;
    }
    memcpy(t->data + t->length, text, n + 1);
    t->length += n;
}

/* ecs_sched.schedule_dot {schedule}: the Graphviz text of the built plan. */
static cJSON *ecs_sched__rpc_schedule_dot(ecs_sched__rpc_call *call, const cJSON *params) {
    const char *label;
    ecs_sched__rpc_text text;
    cJSON *result;
    memset(&text, 0, sizeof text);
    if (!ecs_sched__rpc_schedule(call, params, &label)) return NULL;
    if (ecs_sched_schedule_write_dot(call->world, label, ecs_sched__rpc_text_write, &text) != ECS_SCHED_OK) {
        free(text.data);
        return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_REFUSED);
    }
    result = text.failed ? NULL : cJSON_CreateString(text.data ? text.data : "");
    free(text.data);
    return result ? result : ecs_sched__rpc_out_of_memory(call);
}

#ifdef ECS_SCHED_TRACE
/* ecs_sched.system_stats {schedule}: {"enabled", "systems": [{"system", "runs", "total_ns",
   "min_ns", "max_ns"}]} in plan order, sync points left out. The library keeps them only
   while statistics are on (ecs_sched_stats_enable, or ecs_sched.set_stats). */
static cJSON *ecs_sched__rpc_system_stats(ecs_sched__rpc_call *call, const cJSON *params) {
    const char *label;
    ecs_sched__schedule *s = ecs_sched__rpc_schedule(call, params, &label);
    const ecs_sched__plan *plan;
    cJSON *result, *systems;
    int32_t i;
    if (!s) return NULL;
    if (ecs_sched__ensure_built(call->world, s) != ECS_SCHED_OK) {
        return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_REFUSED);
    }
    plan = ecs_sched__plan_of(s);
    result = cJSON_CreateObject();
    if (!result || !cJSON_AddBoolToObject(result, "enabled", call->world->stats_on) ||
        !(systems = cJSON_AddArrayToObject(result, "systems"))) {
        cJSON_Delete(result);
        return ecs_sched__rpc_out_of_memory(call);
    }
    for (i = 0; i < plan->node_count; i++) {
        const char *name = ecs_sched__plan_node_name(&plan->nodes[i]);
        ecs_sched_system_stats stats;
        cJSON *row;
        if (plan->nodes[i].sync) continue;
        if (ecs_sched_system_stats_get(call->world, label, name, &stats) != ECS_SCHED_OK) {
            cJSON_Delete(result);
            return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_REFUSED);
        }
        row = cJSON_CreateObject();
        if (!ecs_sched__rpc_add(systems, NULL, row) || !cJSON_AddStringToObject(row, "system", name) ||
            !cJSON_AddNumberToObject(row, "runs", (double)stats.runs) ||
            !cJSON_AddNumberToObject(row, "total_ns", (double)stats.total_ns) ||
            !cJSON_AddNumberToObject(row, "min_ns", (double)stats.min_ns) ||
            !cJSON_AddNumberToObject(row, "max_ns", (double)stats.max_ns)) {
            cJSON_Delete(result);
            return ecs_sched__rpc_out_of_memory(call);
        }
    }
    return result;
}

/* ecs_sched.set_stats {enabled}: switches the statistics on (cleared) or off. */
static cJSON *ecs_sched__rpc_set_stats(ecs_sched__rpc_call *call, const cJSON *params) {
    const cJSON *enabled;
    if (!ecs_sched__rpc_need_params(call, params)) return NULL;
    enabled = ecs_sched__rpc_member(params, "enabled");
    if (!cJSON_IsBool(enabled)) {
        return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS, "%s: `enabled` must be true or false",
                                   call->method);
    }
    ecs_sched_stats_enable(call->world, cJSON_IsTrue(enabled));
    return cJSON_CreateNull();
}

/* ecs_sched.trace: the recording (ecs_sched_trace_start), running or stopped, as the Chrome
   trace-event object ecs_sched_trace_write writes. */
static cJSON *ecs_sched__rpc_trace(ecs_sched__rpc_call *call, const cJSON *params) {
    FILE *out;
    long size;
    char *text;
    cJSON *result;
    (void)params;
    if (!ecs_sched__trace_of(call->world)) {
        return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_NOT_FOUND, "%s: nothing was recorded: the "
                                   "program starts a trace with ecs_sched_trace_start", call->method);
    }
    out = tmpfile();
    if (!out) return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INTERNAL_ERROR, "%s: no temporary file", call->method);
    ecs_sched__trace_write_stream(call->world, out);
    size = ferror(out) ? -1 : ftell(out);
    text = size >= 0 ? (char *)malloc((size_t)size + 1) : NULL;
    rewind(out);
    if (text && fread(text, 1, (size_t)size, out) != (size_t)size) {
        free(text);
        text = NULL;
    }
    fclose(out);
    if (!text) return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INTERNAL_ERROR, "%s: writing the trace failed",
                                          call->method);
    result = cJSON_ParseWithLength(text, (size_t)size);
    free(text);
    return result ? result : ecs_sched__rpc_out_of_memory(call);
}

/* Starts the recording ecs_sched.record_trace asked for. */
static ecs_sched_result ecs_sched__rpc_start_trace(ecs_sched_world *w, int32_t frames) {
    ecs_sched_trace_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.frames = frames;
    return ecs_sched_trace_start(w, &desc);
}


/* ecs_sched.record_trace {frames}: records the next frames (default 1, at most 1000), then
   stops by itself; ecs_sched.trace reads it. Asked between two runs (a program that polls the
   remote itself), the recording starts at once; asked inside a frame (the app's remote), it
   starts when that frame ends. Refused while a trace records. */
static cJSON *ecs_sched__rpc_record_trace(ecs_sched__rpc_call *call, const cJSON *params) {
    ecs_sched_world *w = call->world;
    const cJSON *frames = params ? ecs_sched__rpc_member(params, "frames") : NULL;
    const ecs_sched__schedules *all = ecs_sched__schedules_of(w);
    int32_t n = 1;
    if (frames) {
        double v = cJSON_IsNumber(frames) ? frames->valuedouble : 0;
        if (!(v >= 1 && v <= 1000) || v - (double)(int32_t)v > 0) {
            return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS, "%s: `frames` must be a whole "
                                       "number from 1 to 1000", call->method);
        }
        n = (int32_t)v;
    }
    if ((ecs_sched__trace_of(w) && ecs_sched__trace_of(w)->running) || call->remote->trace_frames) {
        return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_REFUSED, "%s: a trace is recording already (wait "
                                   "for it to stop, or stop it in the program)", call->method);
    }
    if (!all || all->depth == 0) {
        if (ecs_sched__rpc_start_trace(w, n) != ECS_SCHED_OK) {
            return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_REFUSED);
        }
        return cJSON_CreateNull();
    }
#ifndef ECS_SCHED_NO_APP
    if (call->remote->app) {
        call->remote->trace_frames = n;
        return cJSON_CreateNull();
    }
#endif
    return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_REFUSED, "%s: schedule '%s' is running and the remote "
                               "belongs to no app whose frames it could wait for: poll the remote "
                               "between runs", call->method, all->stack[all->depth - 1]->label);
}

static const char *const ecs_sched__rpc_behaviour_names[] = {"default", "always_run", "never_run",
                                                             "breakpoint"};

/* {system: behaviour} for the systems of s whose step behaviour is not the default. */
static cJSON *ecs_sched__rpc_step_behaviours(ecs_sched__schedule *s) {
    cJSON *map = cJSON_CreateObject();
    uint32_t i;
    for (i = 0; map && i < s->system_count; i++) {
        const ecs_sched__system *sys = s->systems[i];
        if (sys->watch.step == ECS_SCHED_STEP_DEFAULT) continue;
        if (!cJSON_AddStringToObject(map, sys->ctx.run.name, ecs_sched__rpc_behaviour_names[sys->watch.step])) {
            cJSON_Delete(map);
            return NULL;
        }
    }
    return map;
}

/* ecs_sched.get_stepping {schedule}: {"enabled", "cursor": the system the next step runs, or
   null, "behaviours": {system: behaviour} for those not "default"}. */
static cJSON *ecs_sched__rpc_get_stepping(ecs_sched__rpc_call *call, const cJSON *params) {
    const char *label, *cursor;
    ecs_sched__schedule *s = ecs_sched__rpc_schedule(call, params, &label);
    cJSON *result;
    if (!s) return NULL;
    cursor = ecs_sched_stepping_cursor(call->world, label);
    result = cJSON_CreateObject();
    if (!result || !cJSON_AddBoolToObject(result, "enabled", s->stepping) ||
        !ecs_sched__rpc_add(result, "cursor", cursor ? cJSON_CreateString(cursor) : cJSON_CreateNull()) ||
        !ecs_sched__rpc_add(result, "behaviours", ecs_sched__rpc_step_behaviours(s))) {
        cJSON_Delete(result);
        return ecs_sched__rpc_out_of_memory(call);
    }
    return result;
}

/* ecs_sched.set_stepping {schedule, enabled}: the schedule steps from its next run on, or
   runs freely again. */
static cJSON *ecs_sched__rpc_set_stepping(ecs_sched__rpc_call *call, const cJSON *params) {
    const char *label;
    const cJSON *enabled;
    ecs_sched_result r;
    if (!ecs_sched__rpc_schedule(call, params, &label)) return NULL;
    enabled = ecs_sched__rpc_member(params, "enabled");
    if (!cJSON_IsBool(enabled)) {
        return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS, "%s: `enabled` must be true or false",
                                   call->method);
    }
    r = cJSON_IsTrue(enabled) ? ecs_sched_stepping_enable(call->world, label)
                              : ecs_sched_stepping_disable(call->world, label);
    if (r != ECS_SCHED_OK) return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_REFUSED);
    return cJSON_CreateNull();
}

/* ecs_sched.step {schedule, continue}: the next run runs the system at the cursor (continue:
   every system up to the next breakpoint). */
static cJSON *ecs_sched__rpc_step(ecs_sched__rpc_call *call, const cJSON *params) {
    const char *label;
    bool to_breakpoint;
    ecs_sched_result r;
    if (!ecs_sched__rpc_schedule(call, params, &label) ||
        !ecs_sched__rpc_bool(call, params, "continue", &to_breakpoint)) {
        return NULL;
    }
    r = to_breakpoint ? ecs_sched_step_continue(call->world, label) : ecs_sched_step_one(call->world, label);
    if (r != ECS_SCHED_OK) return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_REFUSED);
    return cJSON_CreateNull();
}

/* ecs_sched.set_step_behaviour {schedule, system, behaviour}: "default", "always_run",
   "never_run" (the system is skipped while the schedule steps) or "breakpoint". */
static cJSON *ecs_sched__rpc_set_step_behaviour(ecs_sched__rpc_call *call, const cJSON *params) {
    const char *const *names = ecs_sched__rpc_behaviour_names;
    const char *label, *system, *behaviour;
    int i;
    if (!ecs_sched__rpc_schedule(call, params, &label) ||
        !ecs_sched__rpc_string(call, params, "system", &system) ||
        !ecs_sched__rpc_string(call, params, "behaviour", &behaviour)) {
        return NULL;
    }
    for (i = 0; i < 4 && strcmp(names[i], behaviour) != 0; i++) {}
    if (i == 4) {
        return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS, "%s: `behaviour` must be \"default\", "
                                   "\"always_run\", \"never_run\" or \"breakpoint\", not \"%s\"",
                                   call->method, behaviour);
    }
    if (ecs_sched_stepping_set(call->world, label, system, (ecs_sched_step_behaviour)i) != ECS_SCHED_OK) {
        return ecs_sched__rpc_fail_world(call, call->world->env.last_result == ECS_SCHED_ERR_NOT_FOUND
                                                   ? ECS_SCHED_RPC_NOT_FOUND : ECS_SCHED_RPC_REFUSED);
    }
    return cJSON_CreateNull();
}
#endif /* ECS_SCHED_TRACE */

#ifndef ECS_SCHED_NO_APP
/* The app's frame boundary: where a trace asked for inside a frame starts. */
static void ecs_sched__remote_between_frames(ecs_sched_app *app, void *user_data) {
    ecs_sched_remote *remote = (ecs_sched_remote *)user_data;
    int32_t frames = remote->trace_frames;
    (void)app;
    if (!frames) return;
    remote->trace_frames = 0;
#ifdef ECS_SCHED_TRACE
    (void)ecs_sched__rpc_start_trace(remote->world, frames);   /* (a refusal is logged) */
#endif
}
#endif

/* ecs_sched.list_states: [{"name", "value" (null: none), "values"}], in registration order. */
static cJSON *ecs_sched__rpc_list_states(ecs_sched__rpc_call *call, const cJSON *params) {
    const ecs_sched__states *states = ecs_sched__states_of(call->world);
    cJSON *result = cJSON_CreateArray();
    uint32_t i;
    (void)params;
    if (!result) return ecs_sched__rpc_out_of_memory(call);
    for (i = 0; states && i < states->count; i++) {
        const ecs_sched__state_machine *m = &states->items[i];
        int32_t value = ecs_sched_state_get(call->world, m->id), k;
        cJSON *row = cJSON_CreateObject(), *values;
        if (!ecs_sched__rpc_add(result, NULL, row) || !cJSON_AddStringToObject(row, "name", m->name) ||
            !ecs_sched__rpc_add(row, "value", value == ECS_SCHED_STATE_NONE ? cJSON_CreateNull()
                                                   : cJSON_CreateString(m->value_names[value])) ||
            !(values = cJSON_AddArrayToObject(row, "values"))) {
            cJSON_Delete(result);
            return ecs_sched__rpc_out_of_memory(call);
        }
        for (k = 0; k < m->value_count; k++) {
            if (!ecs_sched__rpc_add(values, NULL, cJSON_CreateString(m->value_names[k]))) {
                cJSON_Delete(result);
                return ecs_sched__rpc_out_of_memory(call);
            }
        }
    }
    return result;
}

/* ecs_sched.set_state {state, value}: the value (by name) queued for the next transition. */
static cJSON *ecs_sched__rpc_set_state(ecs_sched__rpc_call *call, const cJSON *params) {
    const char *name, *value_name;
    const ecs_sched__state_machine *m;
    int32_t value;
    if (!ecs_sched__rpc_need_params(call, params) || !ecs_sched__rpc_string(call, params, "state", &name) ||
        !ecs_sched__rpc_string(call, params, "value", &value_name)) {
        return NULL;
    }
    m = ecs_sched__state_find_name(call->world, name);
    if (!m) return ecs_sched__rpc_not_found(call, "state machine", name, "ecs_sched.list_states lists them");
    for (value = 0; value < m->value_count && strcmp(m->value_names[value], value_name) != 0; value++) {}
    if (value == m->value_count) {
        return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS, "%s: state machine `%s` has no value "
                                   "`%s` (ecs_sched.list_states lists its values)", call->method, name,
                                   value_name);
    }
    if (ecs_sched_state_set(call->world, m->id, value) != ECS_SCHED_OK) {
        return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_REFUSED);
    }
    return cJSON_CreateNull();
}

/* ---- snapshots kept by the remote, by name ---- */

struct ecs_sched__rpc_snapshot {
    struct ecs_sched__rpc_snapshot *next;
    char *name;
    ecs_sched_snapshot *snapshot;
};

static ecs_sched__rpc_snapshot *ecs_sched__rpc_snapshot_named(ecs_sched_remote *remote, const char *name) {
    ecs_sched__rpc_snapshot *s;
    for (s = remote->snapshots; s && strcmp(s->name, name) != 0; s = s->next) {}
    return s;
}

static void ecs_sched__rpc_snapshots_free(ecs_sched_remote *remote) {
    while (remote->snapshots) {
        ecs_sched__rpc_snapshot *s = remote->snapshots;
        remote->snapshots = s->next;
        ecs_sched_snapshot_free(s->snapshot);
        ecs_sched__free(&remote->world->env, s->name);
        ecs_sched__free(&remote->world->env, s);
    }
}

/* ecs_sched.take_snapshot {name}: {"name", "bytes"}; a snapshot of that name is replaced. */
static cJSON *ecs_sched__rpc_take_snapshot(ecs_sched__rpc_call *call, const cJSON *params) {
    ecs_sched_remote *remote = call->remote;
    ecs_sched_world *w = call->world;
    const char *name;
    ecs_sched__rpc_snapshot *kept;
    ecs_sched_snapshot *taken;
    cJSON *result;
    if (!ecs_sched__rpc_need_params(call, params) || !ecs_sched__rpc_string(call, params, "name", &name)) {
        return NULL;
    }
    taken = ecs_sched_snapshot_take(w);
    if (!taken) return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_REFUSED);
    kept = ecs_sched__rpc_snapshot_named(remote, name);
    if (!kept) {
        kept = (ecs_sched__rpc_snapshot *)ecs_sched__calloc(&w->env, sizeof *kept);
        if (kept) kept->name = ecs_sched__strdup(&w->env, name);
        if (!kept || !kept->name) {
            ecs_sched__free(&w->env, kept);
            ecs_sched_snapshot_free(taken);
            return ecs_sched__rpc_out_of_memory(call);
        }
        kept->next = remote->snapshots;
        remote->snapshots = kept;
    }
    ecs_sched_snapshot_free(kept->snapshot);
    kept->snapshot = taken;
    result = cJSON_CreateObject();
    if (!result || !cJSON_AddStringToObject(result, "name", name) ||
        !cJSON_AddNumberToObject(result, "bytes", (double)ecs_sched_snapshot_bytes(taken))) {
        cJSON_Delete(result);
        return ecs_sched__rpc_out_of_memory(call);
    }
    return result;
}

/* ecs_sched.restore_snapshot {name}: the world brought back to it (it stays kept). */
static cJSON *ecs_sched__rpc_restore_snapshot(ecs_sched__rpc_call *call, const cJSON *params) {
    const char *name;
    ecs_sched__rpc_snapshot *kept;
    if (!ecs_sched__rpc_need_params(call, params) || !ecs_sched__rpc_string(call, params, "name", &name)) {
        return NULL;
    }
    kept = ecs_sched__rpc_snapshot_named(call->remote, name);
    if (!kept) return ecs_sched__rpc_not_found(call, "snapshot", name, "ecs_sched.take_snapshot takes one");
    if (ecs_sched_snapshot_restore(call->world, kept->snapshot) != ECS_SCHED_OK) {
        return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_REFUSED);
    }
    return cJSON_CreateNull();
}

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

/* ---- the queue ---- */

/* Queues a request and waits for its answer (a server thread). False when the remote is
   closing: the request was not answered. */
static bool ecs_sched__remote_wait_answer(ecs_sched_remote *remote, ecs_sched__remote_request *r) {
    bool answered;
    pthread_mutex_lock(&remote->lock);
    if (!remote->closing) {
        r->next = NULL;
        if (remote->tail) remote->tail->next = r;
        else remote->head = r;
        remote->tail = r;
        remote->waiting++;
        while (!r->answered && !remote->closing) pthread_cond_wait(&remote->answered, &remote->lock);
    }
    answered = r->answered;
    pthread_mutex_unlock(&remote->lock);
    return answered;
}

static ecs_sched__remote_request *ecs_sched__remote_take(ecs_sched_remote *remote) {
    ecs_sched__remote_request *r;
    pthread_mutex_lock(&remote->lock);
    r = remote->head;
    if (r) {
        remote->head = r->next;
        if (!remote->head) remote->tail = NULL;
        remote->waiting--;
    }
    pthread_mutex_unlock(&remote->lock);
    return r;
}

int32_t ecs_sched_remote_poll(ecs_sched_remote *remote) {
    int32_t done = 0;
    ECS_SCHED_ASSERT(remote != NULL);
    if (ecs_sched__change_refused(remote->world, "remote_poll")) return 0;
    while (done < remote->per_frame) {
        ecs_sched__remote_request *r = ecs_sched__remote_take(remote);
        char *response;
        if (!r) break;
        response = ecs_sched__rpc_watch_start(remote, r)
                       ? NULL : ecs_sched__rpc_answer(remote, r->body ? r->body : "", r->length);
        pthread_mutex_lock(&remote->lock);
        r->response = response;
        r->answered = true;
        pthread_cond_broadcast(&remote->answered);
        pthread_mutex_unlock(&remote->lock);
        done++;
    }
    ecs_sched__rpc_watch_frames(remote);
    return done;
}

int32_t ecs_sched_remote_pending(ecs_sched_remote *remote) {
    int32_t n;
    ECS_SCHED_ASSERT(remote != NULL);
    pthread_mutex_lock(&remote->lock);
    n = remote->waiting;
    pthread_mutex_unlock(&remote->lock);
    return n;
}

int32_t ecs_sched_remote_port(const ecs_sched_remote *remote) {
    ECS_SCHED_ASSERT(remote != NULL);
    return remote->daemon ? remote->port : 0;
}

char *ecs_sched_remote_handle(ecs_sched_remote *remote, const char *request, size_t length) {
    ECS_SCHED_ASSERT(remote != NULL && (request != NULL || length == 0));
    return ecs_sched__rpc_answer(remote, request ? request : "", length);
}

void ecs_sched_remote_free(char *response) {
    if (response) cJSON_free(response);
}

/* ---- HTTP (libmicrohttpd, on its threads: never the world) ---- */

static enum MHD_Result ecs_sched__http_reply(struct MHD_Connection *connection, unsigned status,
                                             const char *text, bool copy) {
    struct MHD_Response *response = MHD_create_response_from_buffer(
        strlen(text), (void *)(uintptr_t)text, copy ? MHD_RESPMEM_MUST_COPY : MHD_RESPMEM_PERSISTENT);
    enum MHD_Result result;
    if (!response) return MHD_NO;
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED) MHD_add_response_header(response, MHD_HTTP_HEADER_ALLOW, "POST");
    result = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return result;
}

/* Whether the request carries "Authorization: Bearer <token>" (compared in time independent
   of where it differs). */
static bool ecs_sched__http_authorized(const ecs_sched_remote *remote, struct MHD_Connection *connection) {
    const char *given = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
    size_t n, i;
    unsigned char differ = 0;
    if (!remote->token) return true;
    if (!given || strncmp(given, "Bearer ", 7) != 0) return false;
    given += 7;
    n = strlen(remote->token);
    if (strlen(given) != n) return false;
    for (i = 0; i < n; i++) differ |= (unsigned char)(given[i] ^ remote->token[i]);
    return differ == 0;
}

/* A watch's frames, as the world's thread queues them: this thread waits for them, and the
   stream ends when the remote closes. */
static ssize_t ecs_sched__http_watch_read(void *cls, uint64_t position, char *buffer, size_t capacity) {
    ecs_sched__rpc_watch *watch = (ecs_sched__rpc_watch *)cls;
    ecs_sched_remote *remote = watch->remote;
    size_t n;
    (void)position;
    pthread_mutex_lock(&remote->lock);
    while (watch->out_sent == watch->out_length && !remote->closing) {
        pthread_cond_wait(&remote->answered, &remote->lock);
    }
    n = watch->out_length - watch->out_sent;
    if (n > capacity) n = capacity;
    memcpy(buffer, watch->out + watch->out_sent, n);
    watch->out_sent += n;
    if (watch->out_sent == watch->out_length) watch->out_sent = watch->out_length = 0;
    pthread_mutex_unlock(&remote->lock);
    return n > 0 ? (ssize_t)n : (ssize_t)MHD_CONTENT_READER_END_OF_STREAM;
}

static void ecs_sched__http_watch_over(void *cls) {
    ecs_sched__rpc_watch *watch = (ecs_sched__rpc_watch *)cls;
    pthread_mutex_lock(&watch->remote->lock);
    watch->gone = true;
    pthread_mutex_unlock(&watch->remote->lock);
}

static enum MHD_Result ecs_sched__http_stream(struct MHD_Connection *connection, ecs_sched__rpc_watch *watch) {
    struct MHD_Response *response = MHD_create_response_from_callback(
        MHD_SIZE_UNKNOWN, 4096, ecs_sched__http_watch_read, watch, ecs_sched__http_watch_over);
    enum MHD_Result result;
    if (!response) return MHD_NO;
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
    result = MHD_queue_response(connection, MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return result;
}

/* The explorer page: GET "/" (or "/index.html"), unless desc.no_page. It holds no data of the
   world (it asks with POST, as any client, with the token given in its address), so it is
   served without the token. */
static bool ecs_sched__http_wants_page(const ecs_sched_remote *remote, const char *url, const char *method) {
    return !remote->no_page && strcmp(method, MHD_HTTP_METHOD_GET) == 0 &&
           (strcmp(url, "/") == 0 || strcmp(url, "/index.html") == 0);
}

static enum MHD_Result ecs_sched__http_page(struct MHD_Connection *connection) {
    size_t length = 0;
    char *page = ecs_sched__remote_page(&length);
    struct MHD_Response *response;
    enum MHD_Result result;
    if (!page) return MHD_NO;
    response = MHD_create_response_from_buffer(length, page, MHD_RESPMEM_MUST_FREE);
    if (!response) {
        free(page);
        return MHD_NO;
    }
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, "text/html; charset=utf-8");
    /* nothing but the page itself and requests to this server */
    MHD_add_response_header(response, "Content-Security-Policy",
                            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                            "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'");
    MHD_add_response_header(response, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    result = MHD_queue_response(connection, MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return result;
}

#define ECS_SCHED__HTTP_ERROR(code, text) \
    "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":" #code ",\"message\":\"" text "\"}}"

static enum MHD_Result ecs_sched__http_request(void *cls, struct MHD_Connection *connection,
                                               const char *url, const char *method,
                                               const char *version, const char *upload_data,
                                               size_t *upload_data_size, void **con_cls) {
    ecs_sched_remote *remote = (ecs_sched_remote *)cls;
    ecs_sched__remote_request *r = (ecs_sched__remote_request *)*con_cls;
    (void)version;
    if (!r) {   /* the headers: refuse early what is refused whatever the body */
        const char *declared;
        if (ecs_sched__http_wants_page(remote, url, method)) return ecs_sched__http_page(connection);
        if (strcmp(method, MHD_HTTP_METHOD_POST) != 0) {
            return ecs_sched__http_reply(connection, MHD_HTTP_METHOD_NOT_ALLOWED, ECS_SCHED__HTTP_ERROR(
                -32600, "POST a JSON-RPC 2.0 request"), false);
        }
        if (!ecs_sched__http_authorized(remote, connection)) {
            return ecs_sched__http_reply(connection, MHD_HTTP_UNAUTHORIZED, ECS_SCHED__HTTP_ERROR(
                -32600, "this server needs the header Authorization: Bearer <token>, with its token"), false);
        }
        declared = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (declared && strtoull(declared, NULL, 10) > (unsigned long long)remote->max_bytes) {
            return ecs_sched__http_reply(connection, ECS_SCHED__HTTP_TOO_LARGE, ECS_SCHED__HTTP_ERROR(
                -32600, "the request is larger than this server takes (max_request_bytes)"), false);
        }
        r = (ecs_sched__remote_request *)calloc(1, sizeof *r);
        if (!r) return MHD_NO;
        *con_cls = r;
        pthread_mutex_lock(&remote->lock);
        remote->in_flight++;
        pthread_mutex_unlock(&remote->lock);
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        size_t n = *upload_data_size;
        *upload_data_size = 0;
        if (r->too_large || r->length + n > remote->max_bytes) {
            r->too_large = true;
            return MHD_YES;
        }
        if (r->length + n + 1 > r->capacity) {
            size_t capacity = (r->length + n + 1) * 2;
            char *body = (char *)realloc(r->body, capacity);
            if (!body) return MHD_NO;
            r->body = body;
            r->capacity = capacity;
        }
        memcpy(r->body + r->length, upload_data, n);
        r->length += n;
        return MHD_YES;
    }
    if (r->too_large) {
        return ecs_sched__http_reply(connection, ECS_SCHED__HTTP_TOO_LARGE, ECS_SCHED__HTTP_ERROR(
            -32600, "the request is larger than this server takes (max_request_bytes)"), false);
    }
    if (!ecs_sched__remote_wait_answer(remote, r)) {
        return ecs_sched__http_reply(connection, MHD_HTTP_SERVICE_UNAVAILABLE, ECS_SCHED__HTTP_ERROR(
            -32603, "the server is shutting down"), false);
    }
    if (r->watch) return ecs_sched__http_stream(connection, r->watch);
    if (!r->response) {
        return ecs_sched__http_reply(connection, MHD_HTTP_INTERNAL_SERVER_ERROR, ECS_SCHED__HTTP_ERROR(
            -32603, "out of memory"), false);
    }
    return ecs_sched__http_reply(connection, MHD_HTTP_OK, r->response, true);
}

static void ecs_sched__http_completed(void *cls, struct MHD_Connection *connection, void **con_cls,
                                      enum MHD_RequestTerminationCode code) {
    ecs_sched_remote *remote = (ecs_sched_remote *)cls;
    ecs_sched__remote_request *r = (ecs_sched__remote_request *)*con_cls;
    (void)connection;
    (void)code;
    if (!r) return;
    free(r->body);
    if (r->response) cJSON_free(r->response);
    free(r);
    *con_cls = NULL;
    pthread_mutex_lock(&remote->lock);
    remote->in_flight--;
    pthread_mutex_unlock(&remote->lock);
}

static ecs_sched_result ecs_sched__remote_listen(ecs_sched_remote *remote, int32_t connections) {
    ecs_sched_world *w = remote->world;
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    const struct sockaddr *address;
    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD;
    uint16_t port = (uint16_t)(remote->port == ECS_SCHED_REMOTE_ANY_PORT ? 0 : remote->port);
    const union MHD_DaemonInfo *info;
    memset(&v4, 0, sizeof v4);
    memset(&v6, 0, sizeof v6);
    if (inet_pton(AF_INET, remote->address, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons(port);
        address = (const struct sockaddr *)&v4;
    } else if (inet_pton(AF_INET6, remote->address, &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(port);
        address = (const struct sockaddr *)&v6;
        flags |= MHD_USE_IPv6;
    } else {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "remote_create: address '%s' is not an IPv4 or IPv6 address "
                               "(such as 127.0.0.1 or ::1)", remote->address);
    }
    errno = 0;
    remote->daemon = MHD_start_daemon(flags, port, NULL, NULL, ecs_sched__http_request, remote,
                                      MHD_OPTION_SOCK_ADDR, address,
                                      MHD_OPTION_CONNECTION_LIMIT, (unsigned)connections,
                                      MHD_OPTION_CONNECTION_TIMEOUT, 30u,
                                      MHD_OPTION_NOTIFY_COMPLETED, ecs_sched__http_completed, remote,
                                      MHD_OPTION_END);
    if (!remote->daemon) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "remote_create: cannot listen on %s port %d: %s (another program, "
                               "or another remote, may hold the port: choose another with "
                               "desc.port)", remote->address, (int)port,
                               errno ? strerror(errno) : "libmicrohttpd refused");
    }
    info = MHD_get_daemon_info(remote->daemon, MHD_DAEMON_INFO_BIND_PORT);
    remote->port = info ? (int32_t)info->port : (int32_t)port;
    return ECS_SCHED_OK;
}

/* ---- creating and destroying ---- */

static void ecs_sched__remote_free(ecs_sched_remote *remote) {
    ecs_sched__env *env = &remote->world->env;
    ecs_sched__rpc_snapshots_free(remote);
    pthread_mutex_destroy(&remote->lock);
    pthread_cond_destroy(&remote->answered);
    ecs_sched__free(env, remote->token);
    ecs_sched__free(env, remote->address);
    ecs_sched__free(env, remote->schedule);
    ecs_sched__free(env, remote);
}

ecs_sched_remote *ecs_sched_remote_create(ecs_sched_world *w, const ecs_sched_remote_desc *desc) {
    ecs_sched_remote_desc d;
    ecs_sched_remote *remote;
    ECS_SCHED__CHECK_WORLD(w);
    memset(&d, 0, sizeof d);
    if (desc) d = *desc;
    if (d.port < ECS_SCHED_REMOTE_ANY_PORT || d.port > 65535 || d.requests_per_frame < 0 ||
        d.max_connections < 0) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "remote_create: port %d, requests_per_frame %d or max_connections %d is "
                        "out of range (a port is 1 to 65535, 0 for 15702, or "
                        "ECS_SCHED_REMOTE_ANY_PORT; the counts are positive, 0 for the default)",
                        (int)d.port, (int)d.requests_per_frame, (int)d.max_connections);
        return NULL;
    }
    remote = (ecs_sched_remote *)ecs_sched__calloc(&w->env, sizeof *remote);
    if (!remote) {
        ecs_sched__out_of_memory(w, "creating a remote");
        return NULL;
    }
    remote->world = w;
    remote->read_only = d.read_only;
    remote->no_page = d.no_page;
    remote->max_bytes = d.max_request_bytes ? d.max_request_bytes : ECS_SCHED__REMOTE_MAX_BYTES;
    remote->per_frame = d.requests_per_frame ? d.requests_per_frame : ECS_SCHED__REMOTE_PER_FRAME;
    remote->port = d.port ? d.port : ECS_SCHED_REMOTE_PORT;
    remote->address = ecs_sched__strdup(&w->env, d.address ? d.address : "127.0.0.1");
    remote->token = d.token ? ecs_sched__strdup(&w->env, d.token) : NULL;
    pthread_mutex_init(&remote->lock, NULL);
    pthread_cond_init(&remote->answered, NULL);
    if (!remote->address || (d.token && !remote->token)) {
        ecs_sched__remote_free(remote);
        ecs_sched__out_of_memory(w, "creating a remote");
        return NULL;
    }
    if (!d.no_http && ecs_sched__remote_listen(remote, d.max_connections ? d.max_connections
                                                                         : ECS_SCHED__REMOTE_CONNECTIONS) != ECS_SCHED_OK) {
        ecs_sched__remote_free(remote);
        return NULL;
    }
    return remote;
}

static int32_t ecs_sched__remote_in_flight(ecs_sched_remote *remote) {
    int32_t n;
    pthread_mutex_lock(&remote->lock);
    n = remote->in_flight;
    pthread_mutex_unlock(&remote->lock);
    return n;
}

void ecs_sched_remote_destroy(ecs_sched_remote *remote) {
    if (!remote) return;
    pthread_mutex_lock(&remote->lock);   /* the waiting connections are answered 503 */
    remote->closing = true;
    remote->head = remote->tail = NULL;
    remote->waiting = 0;
    pthread_cond_broadcast(&remote->answered);
    pthread_mutex_unlock(&remote->lock);
    if (remote->daemon) {
        /* the requests woken send their 503 before the server stops (a second at most: a
           client that stalls in the middle of its body is not waited for) */
        int32_t tries;
        for (tries = 0; tries < 1000 && ecs_sched__remote_in_flight(remote) > 0; tries++) {
            ecs_sched__system_sleep(1000000, NULL);
        }
        MHD_stop_daemon(remote->daemon);
    }
    ecs_sched__rpc_watches_free(remote);
#ifndef ECS_SCHED_NO_APP
    if (remote->app && remote->app->between_frames == ecs_sched__remote_between_frames) {
        remote->app->between_frames = NULL;
    }
    if (remote->schedule) {
        ecs_sched_remove_system(remote->world, remote->schedule, ECS_SCHED__REMOTE_SYSTEM);
    }
#endif
    ecs_sched__remote_free(remote);
}

#ifndef ECS_SCHED_NO_APP
static void ecs_sched__remote_system(ecs_sched_system_ctx *ctx) {
    ecs_sched_remote_poll((ecs_sched_remote *)ecs_sched_ctx_user_data(ctx));
}

ecs_sched_remote *ecs_sched_app_add_remote(ecs_sched_app *app, const ecs_sched_remote_desc *desc) {
    ecs_sched_world *w = ecs_sched_app_world(app);
    const char *schedule = desc && desc->schedule ? desc->schedule : ECS_SCHED_REMOTE_LAST;
    ecs_sched_remote *remote;
    ecs_sched_system_desc system;
    if (!desc || !desc->schedule) {
        const char *order[64];
        int32_t n = ecs_sched_app_schedule_order(app, ECS_SCHED_ORDER_MAIN, order, 64), i;
        bool placed = false;
        for (i = 0; i < n; i++) placed = placed || strcmp(order[i], ECS_SCHED_REMOTE_LAST) == 0;
        if (!placed && ecs_sched_app_insert_schedule_after(app, ECS_SCHED_LAST, ECS_SCHED_REMOTE_LAST) != ECS_SCHED_OK) {
            return NULL;
        }
    }
    remote = ecs_sched_remote_create(w, desc);
    if (!remote) return NULL;
    memset(&system, 0, sizeof system);
    system.name = ECS_SCHED__REMOTE_SYSTEM;
    system.fn = ecs_sched__remote_system;
    system.user_data = remote;
    system.exclusive = true;
    remote->schedule = ecs_sched__strdup(&w->env, schedule);
    if (!remote->schedule || ecs_sched_add_system(w, schedule, &system) != ECS_SCHED_OK) {
        if (!remote->schedule) ecs_sched__out_of_memory(w, "adding a remote");
        ecs_sched__free(&w->env, remote->schedule);
        remote->schedule = NULL;
        ecs_sched_remote_destroy(remote);
        return NULL;
    }
    if (!app->between_frames) {   /* (another module's hook stays: record_trace then refuses) */
        remote->app = app;
        app->between_frames = ecs_sched__remote_between_frames;
        app->between_frames_data = remote;
    }
    return remote;
}
#endif

#endif /* ECS_SCHED_REMOTE */
