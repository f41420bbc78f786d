/* remote_server: the queue between the HTTP server's threads and the world's thread, the
   server (libmicrohttpd), and creating, polling and destroying a remote. */
#pragma once
#include "remote_dispatch.h"

#ifdef ECS_SCHED_REMOTE

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
/* Serves the app's world and answers its requests in an exclusive system, "remote_requests"
   ("remote_requests 2", 3... for further remotes in the same schedule), in desc->schedule
   (default RemoteLast, a schedule right after Last: every frame, after everything else). NULL on failure. Destroy it (ecs_sched_remote_destroy) before the app. */
ECS_SCHED_API ecs_sched_remote *ecs_sched_app_add_remote(ecs_sched_app *app,
                                                        const ecs_sched_remote_desc *desc);
#endif

#endif /* ECS_SCHED_REMOTE */

/*@@ implementation @@*/
/* remote_server: the server's threads touch only the queue (under its lock) and their own
   request; the world's thread answers at a poll. */
#ifdef ECS_SCHED_REMOTE

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
        ecs_sched_remove_system(remote->world, remote->schedule, remote->system_name);
    }
#endif
    ecs_sched__remote_free(remote);
}

#ifndef ECS_SCHED_NO_APP
/* "remote_requests", or "remote_requests 2", 3...: a name no system of the schedule has, so
   that a remote destroyed takes its own system out, not another remote's of the same name. */
static void ecs_sched__remote_system_name(ecs_sched_world *w, const char *schedule, char *out,
                                          size_t size) {
    const ecs_sched__schedule *s = ecs_sched__schedule_find(w, schedule);
    int n;
    bool taken = true;
    for (n = 1; taken; n++) {
        uint32_t i;
        if (n == 1) snprintf(out, size, "%s", ECS_SCHED__REMOTE_SYSTEM);
        else snprintf(out, size, "%s %d", ECS_SCHED__REMOTE_SYSTEM, n);
        taken = false;
        for (i = 0; s && i < s->system_count && !taken; i++) {
            taken = strcmp(s->systems[i]->ctx.run.name, out) == 0;
        }
    }
}

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
    ecs_sched__remote_system_name(w, schedule, remote->system_name, sizeof remote->system_name);
    system.name = remote->system_name;
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
