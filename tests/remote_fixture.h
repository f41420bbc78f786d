/* remote_fixture.h: what the remote protocol's tests share. Include it after ecs_sched.h (with
   its implementation, ECS_SCHED_REMOTE), cmocka.h and world_fixture.h.

   A world with components described for the protocol and a remote on it without HTTP (setup,
   teardown); a request sent and its response parsed; the parts of a response; the check that a
   refused request changed nothing; a minimal HTTP client (POST, GET) over a socket. Static
   inline, so that a test file may leave some unused. */
#ifndef REMOTE_FIXTURE_H
#define REMOTE_FIXTURE_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

typedef struct { ecs_sched_entity who; int32_t ticks; } Target;
typedef struct { int32_t damage; } Hit;
typedef struct { int32_t n; } Ping;
typedef struct { char bytes[8]; } Opaque;   /* registered, never described */

typedef struct remote_world {
    captured_log log;
    ecs_sched_world *world;
    ecs_sched_remote *remote;
    ecs_sched_id position, health, target, enemy, score, hit, ping, opaque;
    ecs_sched_entity a, b;   /* a: Position, Health, Enemy; b: Position, Target(a) */
} remote_world;

static inline void describe_all(remote_world *r) {
    static const ecs_sched_member position[] = {ECS_SCHED_MEMBER(Position, x, ECS_SCHED_TYPE_F32),
                                                ECS_SCHED_MEMBER(Position, y, ECS_SCHED_TYPE_F32)};
    static const ecs_sched_member health[] = {ECS_SCHED_MEMBER(Health, hp, ECS_SCHED_TYPE_I32)};
    static const ecs_sched_member target[] = {ECS_SCHED_MEMBER(Target, who, ECS_SCHED_TYPE_ENTITY),
                                              ECS_SCHED_MEMBER(Target, ticks, ECS_SCHED_TYPE_I32)};
    static const ecs_sched_member score[] = {ECS_SCHED_MEMBER(Score, value, ECS_SCHED_TYPE_I32)};
    static const ecs_sched_member hit[] = {ECS_SCHED_MEMBER(Hit, damage, ECS_SCHED_TYPE_I32)};
    static const ecs_sched_member ping[] = {ECS_SCHED_MEMBER(Ping, n, ECS_SCHED_TYPE_I32)};
    assert_int_equal(ecs_sched_describe(r->world, r->position, 2, position), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_describe(r->world, r->health, 1, health), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_describe(r->world, r->target, 2, target), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_describe(r->world, r->score, 1, score), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_describe(r->world, r->hit, 1, hit), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_describe(r->world, r->ping, 1, ping), ECS_SCHED_OK);
}

static inline void make_world(remote_world *r) {
    Position p = {1.5f, -2.0f};
    Health h = {7};
    Target t;
    Score s = {3};
    memset(r, 0, sizeof *r);
    r->world = new_world(&r->log);
    r->position = ECS_SCHED_COMPONENT(r->world, Position);
    r->health = ECS_SCHED_COMPONENT(r->world, Health);
    r->target = ECS_SCHED_COMPONENT(r->world, Target);
    r->enemy = ECS_SCHED_TAG(r->world, Enemy);
    r->score = ECS_SCHED_COMPONENT(r->world, Score);
    r->opaque = ECS_SCHED_COMPONENT(r->world, Opaque);
    r->hit = ECS_SCHED_MESSAGE(r->world, Hit);
    r->ping = ECS_SCHED_COMPONENT(r->world, Ping);
    describe_all(r);
    r->a = ecs_sched_spawn(r->world);
    assert_int_equal(ecs_sched_insert(r->world, r->a, r->position, &p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(r->world, r->a, r->health, &h), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(r->world, r->a, r->enemy, NULL), ECS_SCHED_OK);
    r->b = ecs_sched_spawn(r->world);
    t.who = r->a;
    t.ticks = 4;
    assert_int_equal(ecs_sched_insert(r->world, r->b, r->position, &p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(r->world, r->b, r->target, &t), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_resource_insert(r->world, r->score, &s), ECS_SCHED_OK);
}

static inline int setup(void **state) {
    remote_world *r = (remote_world *)calloc(1, sizeof *r);
    ecs_sched_remote_desc desc;
    make_world(r);
    memset(&desc, 0, sizeof desc);
    desc.no_http = true;
    r->remote = ecs_sched_remote_create(r->world, &desc);
    assert_non_null(r->remote);
    *state = r;
    return 0;
}

static inline int teardown(void **state) {
    remote_world *r = (remote_world *)*state;
    if (r->remote) ecs_sched_remote_destroy(r->remote);
    check_and_destroy(r->world);
    free(r);
    return 0;
}

/* ---- calling ---- */

/* The response to a request, parsed (cJSON_Delete it). */
static inline cJSON *answer(remote_world *r, const char *request) {
    char *text = ecs_sched_remote_handle(r->remote, request, strlen(request));
    cJSON *response;
    assert_non_null(text);
    response = cJSON_Parse(text);
    ecs_sched_remote_free(text);
    assert_non_null(response);
    return response;
}

/* The request {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}, formatted. */
static inline cJSON *call(remote_world *r, const char *method, const char *params_format, ...) {
    char params[2048], request[2300];
    va_list args;
    va_start(args, params_format);
    vsnprintf(params, sizeof params, params_format, args);
    va_end(args);
    snprintf(request, sizeof request, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"%s\"%s%s}",
             method, params[0] ? ", \"params\": " : "", params);
    return answer(r, request);
}

static inline const cJSON *result_of(const cJSON *response) {
    const cJSON *result = cJSON_GetObjectItemCaseSensitive(response, "result");
    if (!result) {
        char *text = cJSON_PrintUnformatted(response);
        fail_msg("expected a result: %s", text);
    }
    return result;
}

static inline int error_code(const cJSON *response) {
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(response, "error");
    assert_null(cJSON_GetObjectItemCaseSensitive(response, "result"));
    assert_true(cJSON_IsObject(error));
    assert_true(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(error, "message")));
    return (int)cJSON_GetObjectItemCaseSensitive(error, "code")->valuedouble;
}

static inline const char *error_message(const cJSON *response) {
    return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(response, "error"),
                                            "message")->valuestring;
}

static inline double number_at(const cJSON *object, const char *key) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    assert_true(cJSON_IsNumber(item));
    return item->valuedouble;
}

/* The request answered with error `code` and, unless NULL, exactly `message`; the world as it
   was (entities, components, values, and the resource Score when present). */
static inline void expect_refused_with(remote_world *r, int code, const char *message, const char *method,
                                       const char *params) {
    char *before = ecs_sched_json_save(r->world, 0, NULL, true), *after;
    bool had = ecs_sched_resource_exists(r->world, r->score);
    Score score = {0};
    int32_t entities = ecs_sched_entity_count(r->world);
    cJSON *response;
    if (had) score = *(const Score *)ecs_sched_resource_get(r->world, r->score);
    response = call(r, method, "%s", params);
    assert_int_equal(error_code(response), code);
    if (message) assert_string_equal(error_message(response), message);
    cJSON_Delete(response);
    after = ecs_sched_json_save(r->world, 0, NULL, true);
    assert_non_null(before);
    assert_non_null(after);
    assert_string_equal(before, after);
    assert_int_equal(ecs_sched_entity_count(r->world), entities);
    assert_int_equal(ecs_sched_resource_exists(r->world, r->score), had);
    if (had) assert_int_equal(((const Score *)ecs_sched_resource_get(r->world, r->score))->value, score.value);
    assert_int_equal(ecs_sched_world_check(r->world), ECS_SCHED_OK);
    ecs_sched_json_free(before);
    ecs_sched_json_free(after);
}

static inline void expect_refused(remote_world *r, int code, const char *method, const char *params) {
    expect_refused_with(r, code, NULL, method, params);
}

/* A request that spawns an entity with Health 41. */
static const char spawn_request[] =
    "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"world.spawn_entity\", "
    "\"params\": {\"components\": {\"Health\": {\"hp\": 41}}}}";

typedef struct http_client {
    int port;
    const char *body;
    const char *token;         /* NULL: no Authorization header */
    size_t declared;           /* nonzero: the Content-Length claimed (the body sent whole) */
    int status;
    char response[8192];
} http_client;

/* A minimal HTTP/1.1 POST over a socket; the answer's status and body. */
static inline void *http_post(void *arg) {
    http_client *c = (http_client *)arg;
    struct sockaddr_in to;
    char head[512], *body;
    size_t got = 0;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ssize_t n;
    c->status = -1;
    if (fd < 0) return NULL;
    memset(&to, 0, sizeof to);
    to.sin_family = AF_INET;
    to.sin_port = htons((uint16_t)c->port);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&to, sizeof to) != 0) {
        close(fd);
        return NULL;
    }
    snprintf(head, sizeof head, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
             "Content-Length: %zu\r\nConnection: close\r\n%s%s%s\r\n",
             c->declared ? c->declared : strlen(c->body), c->token ? "Authorization: Bearer " : "",
             c->token ? c->token : "", c->token ? "\r\n" : "");
    if (write(fd, head, strlen(head)) < 0 || write(fd, c->body, strlen(c->body)) < 0) {
        close(fd);
        return NULL;
    }
    while (got + 1 < sizeof c->response &&
           (n = read(fd, c->response + got, sizeof c->response - 1 - got)) > 0) {
        got += (size_t)n;
    }
    c->response[got] = '\0';
    close(fd);
    if (sscanf(c->response, "HTTP/1.%*d %d", &c->status) != 1) c->status = -2;
    body = strstr(c->response, "\r\n\r\n");
    if (body) memmove(c->response, body + 4, strlen(body + 4) + 1);
    return NULL;
}

static inline void sleep_ms(long ms) {
    struct timespec t;
    t.tv_sec = ms / 1000;
    t.tv_nsec = (ms % 1000) * 1000000L;
    nanosleep(&t, NULL);
}

/* Waits (up to 10 s) until `count` requests wait for a poll. */
static inline void wait_pending(ecs_sched_remote *remote, int32_t count) {
    int i;
    for (i = 0; i < 10000 && ecs_sched_remote_pending(remote) < count; i++) sleep_ms(1);
    assert_int_equal(ecs_sched_remote_pending(remote), count);
}

static inline ecs_sched_remote *http_remote(remote_world *r, const ecs_sched_remote_desc *given) {
    ecs_sched_remote_desc desc;
    if (given) desc = *given;
    else memset(&desc, 0, sizeof desc);
    desc.port = ECS_SCHED_REMOTE_ANY_PORT;
    ecs_sched_remote_destroy(r->remote);
    r->remote = ecs_sched_remote_create(r->world, &desc);
    assert_non_null(r->remote);
    assert_true(ecs_sched_remote_port(r->remote) > 0);
    return r->remote;
}

/* A GET of `path`: the status, and the head and start of the answer in c->response. */
static inline void http_get(http_client *c, const char *path) {
    struct sockaddr_in to;
    char head[256];
    size_t got = 0;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ssize_t n;
    c->status = -1;
    if (fd < 0) return;
    memset(&to, 0, sizeof to);
    to.sin_family = AF_INET;
    to.sin_port = htons((uint16_t)c->port);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&to, sizeof to) != 0) {
        close(fd);
        return;
    }
    snprintf(head, sizeof head, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", path);
    if (write(fd, head, strlen(head)) >= 0) {
        while (got + 1 < sizeof c->response &&
               (n = read(fd, c->response + got, sizeof c->response - 1 - got)) > 0) {
            got += (size_t)n;
        }
    }
    c->response[got] = '\0';
    close(fd);
    if (sscanf(c->response, "HTTP/1.%*d %d", &c->status) != 1) c->status = -2;
}

static inline int occurrences(const char *text, const char *part) {
    int n = 0;
    for (text = strstr(text, part); text; text = strstr(text + 1, part)) n++;
    return n;
}

/* Posts `body` over HTTP from a thread, and waits until the remote holds it. */
static inline void http_watch(remote_world *r, http_client *client, pthread_t *thread, const char *body) {
    memset(client, 0, sizeof *client);
    client->port = ecs_sched_remote_port(r->remote);
    client->body = body;
    assert_int_equal(pthread_create(thread, NULL, http_post, client), 0);
    wait_pending(r->remote, 1);
}

/* Ends the watches' streams (destroying the remote) and joins the client. */
static inline void http_watch_end(remote_world *r, http_client *client, pthread_t thread) {
    ecs_sched_remote_destroy(r->remote);
    r->remote = NULL;
    pthread_join(thread, NULL);
    assert_int_equal(client->status, 200);
}

#endif /* REMOTE_FIXTURE_H */
