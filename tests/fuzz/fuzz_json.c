/* A libFuzzer target for the JSON loader: any bytes, read as a prefab file into a world with
   described components (nested structs, arrays, enums, strings, entity fields, tags, sparse
   components with entity fields), then,
   when the load succeeds, instantiated, written back and read again. The world must stay
   consistent and every failure must be an error, never a crash or a leak.

   make fuzz-json-smoke (a short run over tests/fuzz/corpus/json, part of make test); make
   fuzz-json (a minute). */
/* Built by make against the fuzz targets' shared implementation object, which has every
   optional module (the Makefile's fuzzing section). */
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { float x, y; } Vec2;
typedef struct {
    Vec2 at;
    int32_t hp;
    uint8_t level;
    bool alive;
    char name[8];
    int32_t mood;
    Vec2 path[2];
    ecs_sched_entity target;
    uint64_t big;
    double speed;
} Unit;

typedef struct {
    float degrees;
    ecs_sched_entity source;
} Heat;   /* kept in a sparse set */

static const ecs_sched_enum_value moods[] = {{"CALM", 0}, {"ANGRY", 3}};
static const char *fuzz_text;   /* the input, also the nested file "self.json" */

static char *read_nested(const char *path, const char *from, void *user) {
    const char *text = strcmp(path, "self.json") == 0 ? fuzz_text
                     : strcmp(path, "leaf.json") == 0 ? "{\"entities\": [{\"components\": {\"Tag\": true}}]}"
                     : NULL;
    char *copy;
    (void)from;
    (void)user;
    if (!text) return NULL;
    copy = (char *)malloc(strlen(text) + 1);
    if (copy) strcpy(copy, text);
    return copy;
}

static ecs_sched_asset_status load_asset(ecs_sched_asset_request *r, void *user) {
    (void)user;
    r->handle = strlen(r->path);
    return r->path[0] == 'x' ? ECS_SCHED_ASSET_FAILED
         : r->path[0] == 'l' ? ECS_SCHED_ASSET_LOADING : ECS_SCHED_ASSET_DONE;
}

/* Failures are what most inputs give: kept quiet, the messages are still built. */
static void quiet(ecs_sched_log_level level, ecs_sched_result result, const char *message,
                  void *user_data) {
    (void)level;
    (void)result;
    (void)message;
    (void)user_data;
}

static ecs_sched_world *fuzz_world(void) {
    ecs_sched_world_desc desc;
    ecs_sched_world *w;
    memset(&desc, 0, sizeof desc);
    desc.logger.fn = quiet;
    w = ecs_sched_world_create(&desc);
    ecs_sched_id vec2 = ECS_SCHED_COMPONENT(w, Vec2), unit = ECS_SCHED_COMPONENT(w, Unit);
    ecs_sched_member vf[] = {ECS_SCHED_MEMBER(Vec2, x, ECS_SCHED_TYPE_F32),
                             ECS_SCHED_MEMBER(Vec2, y, ECS_SCHED_TYPE_F32)};
    ecs_sched_member uf[] = {
                             ECS_SCHED_MEMBER_STRUCT(Unit, at, vec2), ECS_SCHED_MEMBER(Unit, hp, ECS_SCHED_TYPE_I32),
                             ECS_SCHED_MEMBER(Unit, level, ECS_SCHED_TYPE_U8), ECS_SCHED_MEMBER(Unit, alive, ECS_SCHED_TYPE_BOOL),
                             ECS_SCHED_MEMBER(Unit, name, ECS_SCHED_TYPE_CHARS), ECS_SCHED_MEMBER_ENUM(Unit, mood, moods, 2),
                             ECS_SCHED_MEMBER_STRUCT(Unit, path, vec2), ECS_SCHED_MEMBER(Unit, target, ECS_SCHED_TYPE_ENTITY),
                             ECS_SCHED_MEMBER(Unit, big, ECS_SCHED_TYPE_U64), ECS_SCHED_MEMBER(Unit, speed, ECS_SCHED_TYPE_F64)};
    ecs_sched_id heat = ECS_SCHED_SPARSE_COMPONENT(w, Heat);
    ecs_sched_member hf[] = {ECS_SCHED_MEMBER(Heat, degrees, ECS_SCHED_TYPE_F32),
                             ECS_SCHED_MEMBER(Heat, source, ECS_SCHED_TYPE_ENTITY)};
    ecs_sched_relation_desc likes;
    ECS_SCHED_TAG(w, Tag);
    ECS_SCHED_SPARSE_TAG(w, Marked);
    ecs_sched_describe(w, vec2, 2, vf);
    ecs_sched_describe(w, unit, 10, uf);
    ecs_sched_describe(w, heat, 2, hf);
    memset(&likes, 0, sizeof likes);
    likes.name = "Likes";
    ecs_sched_relation_register(w, &likes);
    return w;
}

static void check(ecs_sched_world *w, const char *what) {
    if (ecs_sched_world_check(w) != ECS_SCHED_OK) {
        fprintf(stderr, "world inconsistent after %s: %s\n", what, ecs_sched_last_error(w));
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ecs_sched_world *w = fuzz_world();
    ecs_sched_json_desc desc;
    ecs_sched_progress progress = {0, 0, 0};
    ecs_sched_prefab_data *d, *again;
    char *text = (char *)malloc(size + 1), *saved;
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    fuzz_text = text;
    memset(&desc, 0, sizeof desc);
    desc.file = "fuzz.json";
    desc.read_file = read_nested;
    desc.load_asset = load_asset;
    desc.progress = &progress;
    d = ecs_sched_prefab_data_from_json(w, text, &desc);
    if (d && ecs_sched_prefab_data_count(d) <= 64 &&
        ecs_sched_prefab_data_instantiate(w, d, ECS_SCHED_NULL_ENTITY, NULL) == ECS_SCHED_OK) {
        check(w, "instantiate");
        saved = ecs_sched_json_save(w, 0, NULL, true);
        if (saved) {
            again = ecs_sched_prefab_data_from_json(w, saved, NULL);
            if (!again) {   /* what was written must read back */
                fprintf(stderr, "saved text does not load: %s\n%s\n", ecs_sched_last_error(w), saved);
                abort();
            }
            ecs_sched_prefab_data_free(again);
            ecs_sched_json_free(saved);
        }
    }
    check(w, "load");
    ecs_sched_prefab_data_free(d);
    ecs_sched_world_destroy(w);
    free(text);
    return 0;
}
