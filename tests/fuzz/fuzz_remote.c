/* A libFuzzer target for the remote protocol: any bytes, answered as a request text by
   ecs_sched_remote_handle (no HTTP) on a small world (described components, a tag, an entity
   member, a resource, a message type, an event, a schedule, a state machine). Then: the answer
   is JSON-RPC 2.0 (each response of a batch: "jsonrpc": "2.0", and a result or an error with
   a whole-number code), the world is consistent, and when every response is an error the
   world is as it was (its JSON save, its entity count, the resource, the state).

   make fuzz-remote-smoke (a short seeded run over tests/fuzz/corpus/remote); make fuzz-remote
   (a minute). */
/* Built by make against the fuzz targets' shared implementation object, which has every
   optional module (the Makefile's fuzzing section). */
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { float x, y; } Position;
typedef struct { int32_t hp; } Health;
typedef struct { ecs_sched_entity who; int32_t ticks; } Target;
typedef struct { int32_t value; } Score;
typedef struct { int32_t damage; } Hit;
typedef struct { int32_t n; } Ping;

typedef struct fuzz_world {
    ecs_sched_world *world;
    ecs_sched_remote *remote;
    ecs_sched_id score, game;
} fuzz_world;

static void quiet(ecs_sched_log_level level, ecs_sched_result result, const char *message,
                  void *user_data) {
    (void)level;
    (void)result;
    (void)message;
    (void)user_data;
}

static void nothing(ecs_sched_system_ctx *ctx) {
    (void)ctx;
}

static void describe(fuzz_world *f, ecs_sched_id position, ecs_sched_id health, ecs_sched_id target,
                     ecs_sched_id hit, ecs_sched_id ping) {
    static const ecs_sched_member pm[] = {ECS_SCHED_MEMBER(Position, x, ECS_SCHED_TYPE_F32),
                                          ECS_SCHED_MEMBER(Position, y, ECS_SCHED_TYPE_F32)};
    static const ecs_sched_member hm[] = {ECS_SCHED_MEMBER(Health, hp, ECS_SCHED_TYPE_I32)};
    static const ecs_sched_member tm[] = {ECS_SCHED_MEMBER(Target, who, ECS_SCHED_TYPE_ENTITY),
                                          ECS_SCHED_MEMBER(Target, ticks, ECS_SCHED_TYPE_I32)};
    static const ecs_sched_member sm[] = {ECS_SCHED_MEMBER(Score, value, ECS_SCHED_TYPE_I32)};
    static const ecs_sched_member xm[] = {ECS_SCHED_MEMBER(Hit, damage, ECS_SCHED_TYPE_I32)};
    static const ecs_sched_member gm[] = {ECS_SCHED_MEMBER(Ping, n, ECS_SCHED_TYPE_I32)};
    ecs_sched_describe(f->world, position, 2, pm);
    ecs_sched_describe(f->world, health, 1, hm);
    ecs_sched_describe(f->world, target, 2, tm);
    ecs_sched_describe(f->world, f->score, 1, sm);
    ecs_sched_describe(f->world, hit, 1, xm);
    ecs_sched_describe(f->world, ping, 1, gm);
}

static void schedule_and_state(fuzz_world *f) {
    ecs_sched_system_desc a, flush;
    ecs_sched_state_desc game;
    memset(&a, 0, sizeof a);
    memset(&flush, 0, sizeof flush);
    memset(&game, 0, sizeof game);
    a.name = "a";
    a.fn = nothing;
    flush.name = "flush";
    flush.fn = ecs_sched_apply_deferred;
    flush.after[0] = "a";
    ecs_sched_add_system(f->world, "Update", &a);
    ecs_sched_add_system(f->world, "Update", &flush);
    game.name = "Game";
    game.values[0] = "Menu";
    game.values[1] = "Playing";
    f->game = ecs_sched_state_register(f->world, &game);
    ecs_sched_state_apply(f->world, f->game);
}

static void make(fuzz_world *f) {
    ecs_sched_world_desc desc;
    ecs_sched_remote_desc remote;
    ecs_sched_id position, health, target, enemy, hit, ping;
    ecs_sched_entity a, b;
    Position p = {1.5f, -2.0f};
    Health h = {7};
    Target t;
    Score s = {3};
    memset(&desc, 0, sizeof desc);
    desc.logger.fn = quiet;
    f->world = ecs_sched_world_create(&desc);
    position = ECS_SCHED_COMPONENT(f->world, Position);
    health = ECS_SCHED_COMPONENT(f->world, Health);
    target = ECS_SCHED_COMPONENT(f->world, Target);
    enemy = ECS_SCHED_TAG(f->world, Enemy);
    f->score = ECS_SCHED_COMPONENT(f->world, Score);
    hit = ECS_SCHED_MESSAGE(f->world, Hit);
    ping = ECS_SCHED_COMPONENT(f->world, Ping);
    describe(f, position, health, target, hit, ping);
    a = ecs_sched_spawn(f->world);
    ecs_sched_insert(f->world, a, position, &p);
    ecs_sched_insert(f->world, a, health, &h);
    ecs_sched_insert(f->world, a, enemy, NULL);
    b = ecs_sched_spawn(f->world);
    t.who = a;
    t.ticks = 4;
    ecs_sched_insert(f->world, b, target, &t);
    ecs_sched_resource_insert(f->world, f->score, &s);
    schedule_and_state(f);
    memset(&remote, 0, sizeof remote);
    remote.no_http = true;
    f->remote = ecs_sched_remote_create(f->world, &remote);
}

static void fail(const char *why, const char *request, const char *response) {
    fprintf(stderr, "%s\nrequest: %s\nresponse: %s\n", why, request, response ? response : "(null)");
    abort();
}

/* Whether one response is JSON-RPC 2.0; *error: it is an error. */
static bool well_formed(const cJSON *r, bool *error) {
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(r, "jsonrpc");
    const cJSON *result = cJSON_GetObjectItemCaseSensitive(r, "result");
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(r, "error"), *code;
    if (!cJSON_IsObject(r) || !cJSON_IsString(version) || strcmp(version->valuestring, "2.0") != 0) return false;
    if ((result != NULL) == (e != NULL)) return false;
    *error = e != NULL;
    if (!e) return true;
    code = cJSON_GetObjectItemCaseSensitive(e, "code");
    return cJSON_IsObject(e) && cJSON_IsNumber(code) && code->valuedouble == floor(code->valuedouble) &&
           cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "message"));
}

/* Whether the answer is JSON-RPC 2.0 (a response, or a non-empty batch of them); *all_errors:
   every response is an error. */
static bool answer_well_formed(const cJSON *answer, bool *all_errors) {
    const cJSON *one;
    bool error;
    *all_errors = true;
    if (!cJSON_IsArray(answer)) {
        if (!well_formed(answer, &error)) return false;
        *all_errors = error;
        return true;
    }
    if (!answer->child) return false;
    cJSON_ArrayForEach(one, answer) {
        if (!well_formed(one, &error)) return false;
        *all_errors = *all_errors && error;
    }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_world f;
    char *before, *after, *text, *request = (char *)malloc(size + 1);
    int32_t entities, score, state;
    cJSON *answer;
    bool all_errors;
    if (!request) return 0;
    memcpy(request, data, size);
    request[size] = '\0';
    make(&f);
    before = ecs_sched_json_save(f.world, 0, NULL, true);
    entities = ecs_sched_entity_count(f.world);
    score = ((const Score *)ecs_sched_resource_get(f.world, f.score))->value;
    state = ecs_sched_state_get(f.world, f.game);
    text = ecs_sched_remote_handle(f.remote, (const char *)data, size);
    if (!text) fail("no answer", request, NULL);
    answer = cJSON_Parse(text);
    if (!answer) fail("the answer is not JSON", request, text);
    if (!answer_well_formed(answer, &all_errors)) fail("the answer is not JSON-RPC 2.0", request, text);
    if (ecs_sched_world_check(f.world) != ECS_SCHED_OK) fail("the world is inconsistent", request, text);
    if (all_errors) {
        const Score *now = (const Score *)ecs_sched_resource_get(f.world, f.score);
        after = ecs_sched_json_save(f.world, 0, NULL, true);
        if (!before || !after || strcmp(before, after) != 0 || ecs_sched_entity_count(f.world) != entities ||
            !now || now->value != score || ecs_sched_state_get(f.world, f.game) != state) {
            fail("an error changed the world", request, text);
        }
        ecs_sched_json_free(after);
    }
    cJSON_Delete(answer);
    ecs_sched_remote_free(text);
    ecs_sched_json_free(before);
    ecs_sched_remote_destroy(f.remote);
    ecs_sched_world_destroy(f.world);
    free(request);
    return 0;
}
