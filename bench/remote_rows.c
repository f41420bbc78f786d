/* Remote rows (ECS_SCHED_REMOTE): what serving Bevy's remote protocol costs a frame when no
   client asks anything, and a world.query over 1000 entities answered from request text to
   response text. Included by bench.c after app_rows.c, whose helpers it uses. */

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

/* ---- remote_idle ---- */

static void run_remote_idle(bench_row *row) {
    static const int32_t reps = 20000;
    app_updates with, without;
    ecs_sched_remote_desc desc;
    ecs_sched_remote *remote = NULL;
    bench_sampling s = sampling(reps, 1.0);
    bench_medians m;
    memset(&desc, 0, sizeof desc);
    desc.port = ECS_SCHED_REMOTE_ANY_PORT;
    with.app = quiet_app();
    without.app = quiet_app();
    with.delta_ns = without.delta_ns = ECS_SCHED_HZ(64);
    if (!with.app || !without.app || !(remote = ecs_sched_app_add_remote(with.app, &desc))) {
        fail(row, "creation (the remote listens on a free port of 127.0.0.1)", with.app ? ecs_sched_app_world(with.app) : NULL);
        goto done;
    }
    /* the same schedules in both: RemoteLast, empty in the app without a remote */
    if (ecs_sched_app_insert_schedule_after(without.app, ECS_SCHED_LAST, ECS_SCHED_REMOTE_LAST) != ECS_SCHED_OK ||
        !run_app_updates(row, &with, 2) || !run_app_updates(row, &without, 2)) {
        fail(row, "setup", ecs_sched_app_world(without.app));
        goto done;
    }
    s.baseline = looped(run_app_updates, &without);
    s.measured = looped(run_app_updates, &with);
    if (sample_row(row, &s, &m)) {
        row->value = m.value - m.baseline;   /* what the remote adds to a frame */
        appendf(row, "what an app update costs more with a remote serving it over HTTP (no "
                     "client): %.0f ns/update against %.0f; both apps have RemoteLast, empty "
                     "without the remote; %d updates a sample", m.value, m.baseline, (int)reps);
    }
done:
    if (remote) ecs_sched_remote_destroy(remote);
    if (with.app) ecs_sched_app_destroy(with.app);
    if (without.app) ecs_sched_app_destroy(without.app);
}

/* ---- remote_query_1k ---- */

#define REMOTE_QUERY_ENTITIES 1000

static const char remote_query_request[] =
    "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"world.query\", "
    "\"params\": {\"data\": {\"components\": [\"Position\", \"Velocity\"]}}}";

typedef struct remote_query_job {
    ecs_sched_world *world;
    ecs_sched_remote *remote;
    ecs_sched_query *query;
    ecs_sched_id position, velocity;
    size_t bytes;   /* of the last answer: both sides write the same text */
} remote_query_job;

static int run_remote_query(bench_row *row, void *state, int32_t reps) {
    remote_query_job *job = (remote_query_job *)state;
    int32_t r;
    for (r = 0; r < reps; r++) {
        char *text = ecs_sched_remote_handle(job->remote, remote_query_request, sizeof remote_query_request - 1);
        if (!text || strstr(text, "\"error\"")) {
            fail(row, "ecs_sched_remote_handle", job->world);
            ecs_sched_remote_free(text);
            return 0;
        }
        job->bytes = strlen(text);
        ecs_sched_remote_free(text);
    }
    return 1;
}

static cJSON *remote_query_vec2(float x, float y) {
    cJSON *v = cJSON_CreateObject();
    cJSON_AddNumberToObject(v, "x", x);
    cJSON_AddNumberToObject(v, "y", y);
    return v;
}

/* The floor: the request parsed, the same query iterated in C, the same JSON built with cJSON
   and printed. */
static int run_remote_query_by_hand(bench_row *row, void *state, int32_t reps) {
    remote_query_job *job = (remote_query_job *)state;
    int32_t r;
    for (r = 0; r < reps; r++) {
        cJSON *request = cJSON_Parse(remote_query_request), *response = cJSON_CreateObject(), *rows;
        ecs_sched_iter it = ecs_sched_query_iter(job->query);
        char *text;
        cJSON_AddStringToObject(response, "jsonrpc", "2.0");
        cJSON_AddItemToObject(response, "id", cJSON_Duplicate(cJSON_GetObjectItem(request, "id"), 1));
        rows = cJSON_AddArrayToObject(response, "result");
        while (ecs_sched_iter_next(&it)) {
            const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
            const Velocity *v = ECS_SCHED_FIELD(&it, const Velocity, 1);
            const ecs_sched_entity *e = it.entities;
            int32_t i;
            for (i = 0; i < it.count; i++) {
                cJSON *one = cJSON_CreateObject(), *components;
                cJSON_AddItemToArray(rows, one);
                cJSON_AddNumberToObject(one, "entity", (double)e[i]);
                components = cJSON_AddObjectToObject(one, "components");
                cJSON_AddItemToObject(components, "Position", remote_query_vec2(p[i].x, p[i].y));
                cJSON_AddItemToObject(components, "Velocity", remote_query_vec2(v[i].x, v[i].y));
            }
        }
        text = cJSON_PrintUnformatted(response);
        if (!text) {
            fail(row, "cJSON_PrintUnformatted", NULL);
            return 0;
        }
        cJSON_free(text);
        cJSON_Delete(response);
        cJSON_Delete(request);
    }
    return 1;
}

typedef struct remote_client {
    int port;
    int32_t answered;
    volatile int stop;
} remote_client;

/* One POST of the query, its whole answer read; false when it failed. */
static bool remote_post(int port) {
    struct sockaddr_in to;
    char head[256], buffer[65536];
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ssize_t n;
    size_t got = 0;
    if (fd < 0) return false;
    memset(&to, 0, sizeof to);
    to.sin_family = AF_INET;
    to.sin_port = htons((uint16_t)port);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    snprintf(head, sizeof head, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %zu\r\n"
             "Connection: close\r\n\r\n", sizeof remote_query_request - 1);
    if (connect(fd, (struct sockaddr *)&to, sizeof to) != 0 || write(fd, head, strlen(head)) < 0 ||
        write(fd, remote_query_request, sizeof remote_query_request - 1) < 0) {
        close(fd);
        return false;
    }
    while ((n = read(fd, buffer, sizeof buffer)) > 0) got += (size_t)n;
    close(fd);
    return got > 0;
}

static void *remote_client_run(void *arg) {
    remote_client *c = (remote_client *)arg;
    while (!c->stop && remote_post(c->port)) c->answered++;
    return NULL;
}

/* Requests a second answered over HTTP from one client, one after another (each a fresh
   connection), the world's thread polling all the while, for half a second. */
static double remote_requests_per_second(remote_query_job *job) {
    remote_client client;
    pthread_t thread;
    double t0, t;
    memset(&client, 0, sizeof client);
    client.port = ecs_sched_remote_port(job->remote);
    if (pthread_create(&thread, NULL, remote_client_run, &client) != 0) return 0.0;
    t0 = now_ns();
    do {
        ecs_sched_remote_poll(job->remote);
        t = now_ns();
    } while (t - t0 < 5e8);
    client.stop = 1;
    while (client.answered >= 0 && ecs_sched_remote_pending(job->remote) == 0 && now_ns() - t < 1e8) {}
    ecs_sched_remote_poll(job->remote);   /* the last request, if it waits */
    pthread_join(thread, NULL);
    return client.answered / ((t - t0) / 1e9);
}

static void run_remote_query_1k(bench_row *row) {
    static const ecs_sched_member vec2[] = {ECS_SCHED_MEMBER(Position, x, ECS_SCHED_TYPE_F32),
                                            ECS_SCHED_MEMBER(Position, y, ECS_SCHED_TYPE_F32)};
    remote_query_job job;
    ecs_sched_remote_desc desc;
    ecs_sched_query_desc q;
    bench_sampling s = sampling(20, 1e6);
    bench_medians m;
    int32_t i;
    memset(&job, 0, sizeof job);
    memset(&desc, 0, sizeof desc);
    memset(&q, 0, sizeof q);
    desc.port = ECS_SCHED_REMOTE_ANY_PORT;
    job.world = quiet_world();
    job.position = ECS_SCHED_COMPONENT(job.world, Position);
    job.velocity = ECS_SCHED_COMPONENT(job.world, Velocity);
    ecs_sched_describe(job.world, job.position, 2, vec2);
    ecs_sched_describe(job.world, job.velocity, 2, vec2);   /* Velocity is {x, y} too */
    for (i = 0; i < REMOTE_QUERY_ENTITIES; i++) {
        Position p = initial_position(i);
        Velocity v = initial_velocity(i);
        ecs_sched_entity e = ecs_sched_spawn(job.world);
        ecs_sched_insert(job.world, e, job.position, &p);
        ecs_sched_insert(job.world, e, job.velocity, &v);
    }
    q.terms[0] = ecs_sched_read(job.position);
    q.terms[1] = ecs_sched_read(job.velocity);
    job.query = ecs_sched_query_create(job.world, &q);
    job.remote = ecs_sched_remote_create(job.world, &desc);
    if (!job.query || !job.remote || !run_remote_query(row, &job, 1)) {
        fail(row, "setup", job.world);
        goto done;
    }
    s.baseline = looped(run_remote_query_by_hand, &job);
    s.measured = looped(run_remote_query, &job);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d entities with Position and Velocity (both described, {x, y}), "
                     "answered from request text to response text (%zu bytes) by "
                     "ecs_sched_remote_handle; over HTTP (one client, a connection a request, "
                     "the world polling): %.0f requests/s",
                (int)REMOTE_QUERY_ENTITIES, job.bytes, remote_requests_per_second(&job));
    }
done:
    if (job.remote) ecs_sched_remote_destroy(job.remote);
    if (job.query) ecs_sched_query_destroy(job.query);
    ecs_sched_world_destroy(job.world);
}
