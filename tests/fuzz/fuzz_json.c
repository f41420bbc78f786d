/* A libFuzzer target for the JSON loader: any bytes, read as a prefab file into a world with
   described components (nested structs, arrays, enums, strings, entity fields, tags, sparse
   components with entity fields) that already holds a few entities (a name, a child, a
   relationship). Bytes after a zero byte are nested prefab files, one per zero-separated
   part: "a.json", "b.json", "parts/c.json", "parts/d.json", served by the read hook from
   memory (a file in parts/ naming "d.json" reaches "parts/d.json": names are relative to the
   file naming them), beside "self.json" (the main file itself: a prefab including itself)
   and "leaf.json" (a fixed one).

   Checked: the world stays consistent and every failure is an error, never a crash or a
   leak; the read hook is asked only for paths relative to the file naming them; a load
   (failed or not: prefab data is apart from the world) and a failed instantiation leave the
   world as it was (its JSON save and its entity count); when the load and the instantiation succeed, the world's save loads back, and
   loading that save into a fresh world, instantiating it and saving again gives the same
   text, byte for byte (numbers are printed by cJSON with enough digits to read back the same
   double, and a float field's double converts back to the same float).

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
#define NESTED_FILES 4
static const char *fuzz_text;   /* the input's first part, also the nested file "self.json" */
static const char *nested_names[NESTED_FILES] = {"a.json", "b.json", "parts/c.json", "parts/d.json"};
static const char *nested_texts[NESTED_FILES];   /* the input's other parts (NULL: missing) */

static void hook_misused(const char *path, const char *from, const char *why) {
    fprintf(stderr, "read hook asked for '%s' from '%s': %s\n", path, from ? from : "(null)", why);
    abort();
}

/* A nested file's name is relative to the file naming it: one named from parts/ is in parts/. */
static void check_nested_path(const char *path, const char *from) {
    if (!from) hook_misused(path, from, "a nested file is named by a file");
    if (strncmp(from, "parts/", 6) == 0 && path[0] != '/' && strncmp(path, "parts/", 6) != 0) {
        hook_misused(path, from, "not in the directory of the file naming it");
    }
}

static char *read_nested(const char *path, const char *from, void *user) {
    const char *text = strcmp(path, "self.json") == 0 ? fuzz_text
                     : strcmp(path, "leaf.json") == 0 ? "{\"entities\": [{\"components\": {\"Tag\": true}}]}"
                     : NULL;
    char *copy;
    int i;
    (void)user;
    check_nested_path(path, from);
    for (i = 0; !text && i < NESTED_FILES; i++) {
        if (strcmp(path, nested_names[i]) == 0) text = nested_texts[i];
    }
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
    desc.thread_count = 1;   /* no workers to start and join for each input */
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

/* A few entities the loads must leave alone: a named root with a unit, its child with heat
   and a tag, and an entity that likes the root. */
static void populate(ecs_sched_world *w) {
    ecs_sched_id unit = ecs_sched_component_lookup(w, "Unit"), heat = ecs_sched_component_lookup(w, "Heat");
    ecs_sched_id tag = ecs_sched_component_lookup(w, "Tag"), likes = ecs_sched_component_lookup(w, "Likes");
    ecs_sched_entity root = ecs_sched_spawn(w), child = ecs_sched_spawn(w), fan = ecs_sched_spawn(w);
    Unit u;
    Heat h;
    memset(&u, 0, sizeof u);
    u.hp = 7;
    u.at.x = 0.25f;
    u.target = child;
    strcpy(u.name, "keep");
    h.degrees = -3.5f;
    h.source = root;
    if (ecs_sched_insert(w, root, unit, &u) != ECS_SCHED_OK || ecs_sched_set_name(w, root, "keep") != ECS_SCHED_OK ||
        ecs_sched_set_parent(w, child, root) != ECS_SCHED_OK || ecs_sched_insert(w, child, heat, &h) != ECS_SCHED_OK ||
        ecs_sched_insert(w, child, tag, NULL) != ECS_SCHED_OK || ecs_sched_relate(w, fan, likes, root, NULL) != ECS_SCHED_OK) {
        fprintf(stderr, "populating the world failed: %s\n", ecs_sched_last_error(w));
        abort();
    }
}

/* The world's save, which must succeed: every sized component is described. */
static char *save_all(ecs_sched_world *w, const char *when) {
    char *text = ecs_sched_json_save(w, 0, NULL, true);
    if (!text) {
        fprintf(stderr, "saving the world %s failed: %s\n", when, ecs_sched_last_error(w));
        abort();
    }
    return text;
}

static void check_unchanged(ecs_sched_world *w, const char *before, int32_t count, const char *what) {
    char *after = save_all(w, what);
    if (strcmp(before, after) != 0 || ecs_sched_entity_count(w) != count) {
        fprintf(stderr, "%s changed the world (%d entities, now %d):\n%s\n---- now:\n%s\n", what,
                (int)count, (int)ecs_sched_entity_count(w), before, after);
        abort();
    }
    ecs_sched_json_free(after);
}

/* The text loads into a fresh world and is saved again as the same text. */
static void check_round_trip(const char *saved) {
    ecs_sched_world *fresh = fuzz_world();
    ecs_sched_prefab_data *d = ecs_sched_prefab_data_from_json(fresh, saved, NULL);
    char *again;
    if (!d || ecs_sched_prefab_data_instantiate(fresh, d, ECS_SCHED_NULL_ENTITY, NULL) != ECS_SCHED_OK) {
        fprintf(stderr, "saved text does not load into a fresh world: %s\n%s\n",
                ecs_sched_last_error(fresh), saved);
        abort();
    }
    check(fresh, "instantiating a save");
    again = save_all(fresh, "after loading its save");
    if (strcmp(saved, again) != 0) {
        fprintf(stderr, "a save loaded and saved again differs:\n%s\n---- again:\n%s\n", saved, again);
        abort();
    }
    ecs_sched_json_free(again);
    ecs_sched_prefab_data_free(d);
    ecs_sched_world_destroy(fresh);
}

/* The input's parts, split at zero bytes: the main file, then the nested files in order. */
static char *split_input(const uint8_t *data, size_t size) {
    char *text = (char *)malloc(size + 1), *at, *end;
    int i;
    if (!text) return NULL;
    memcpy(text, data, size);
    text[size] = '\0';
    end = text + size;
    at = text + strlen(text);
    fuzz_text = text;
    for (i = 0; i < NESTED_FILES; i++) {
        nested_texts[i] = at < end ? at + 1 : NULL;
        if (at < end) at += 1 + strlen(at + 1);
    }
    return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ecs_sched_world *w;
    ecs_sched_json_desc desc;
    ecs_sched_progress progress = {0, 0, 0};
    ecs_sched_prefab_data *d, *again;
    char *text = split_input(data, size), *saved, *before;
    int32_t count;
    if (!text) return 0;
    w = fuzz_world();
    populate(w);
    before = save_all(w, "before the load");
    count = ecs_sched_entity_count(w);
    memset(&desc, 0, sizeof desc);
    desc.file = "fuzz.json";
    desc.read_file = read_nested;
    desc.load_asset = load_asset;
    desc.progress = &progress;
    d = ecs_sched_prefab_data_from_json(w, text, &desc);
    /* prefab data is apart from the world: a load, failed or not, makes no entity */
    check_unchanged(w, before, count, d ? "a load" : "a failed load");
    if (d && ecs_sched_prefab_data_count(d) <= 64) {
        if (ecs_sched_prefab_data_instantiate(w, d, ECS_SCHED_NULL_ENTITY, NULL) != ECS_SCHED_OK) {
            check_unchanged(w, before, count, "a failed instantiation");
        } else {
            check(w, "instantiate");
            saved = save_all(w, "after the instantiation");
            again = ecs_sched_prefab_data_from_json(w, saved, NULL);
            if (!again) {   /* what was written must read back */
                fprintf(stderr, "saved text does not load: %s\n%s\n", ecs_sched_last_error(w), saved);
                abort();
            }
            ecs_sched_prefab_data_free(again);
            check_round_trip(saved);
            ecs_sched_json_free(saved);
        }
    }
    check(w, "load");
    ecs_sched_json_free(before);
    ecs_sched_prefab_data_free(d);
    ecs_sched_world_destroy(w);
    free(text);
    return 0;
}
