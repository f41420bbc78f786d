/* json_load: a file's entities read into prefab data (names, parents, bases, nested prefab
   files, links between the file's entities), and the progress of what a load waits for. */
#pragma once
#include "json.h"

#ifdef ECS_SCHED_JSON

/* Prefab data from JSON text (see JSON FILES for the format). NULL on failure, with a message
   naming the file, the entity, the component and the field. */
ECS_SCHED_API ecs_sched_prefab_data *ecs_sched_prefab_data_from_json(ecs_sched_world *world,
                                                                     const char *text,
                                                                     const ecs_sched_json_desc *desc);
/* The same from a file, read through desc->read_file (or fopen). */
ECS_SCHED_API ecs_sched_prefab_data *ecs_sched_prefab_data_load(ecs_sched_world *world,
                                                                const char *path,
                                                                const ecs_sched_json_desc *desc);
/* An asset that was ECS_SCHED_ASSET_LOADING is done (ok) or failed. */
ECS_SCHED_API void ecs_sched_progress_finish(ecs_sched_progress *progress, bool ok);
ECS_SCHED_API bool ecs_sched_progress_complete(const ecs_sched_progress *progress);

#endif /* ECS_SCHED_JSON */

/*@@ implementation @@*/
/* json_load: a load builds its prefab data aside; the world is touched only by the
   instantiation that follows, so a file refused half-way changes nothing. */
#ifdef ECS_SCHED_JSON

/* ---- entities ---- */

static ecs_sched_result ecs_sched__json_entities(ecs_sched__json_load *l, const cJSON *root,
                                                 int32_t into);

/* A nested prefab file's name as it is read: relative to the directory of the file naming
   it (an absolute name, or a name in text without a file name, as it is). Allocated. */
static char *ecs_sched__json_nested_path(ecs_sched__json_load *l, const char *name) {
    const char *from = l->files[l->depth - 1];
    size_t directory = from && !ecs_sched__path_is_absolute(name) ? ecs_sched__directory_length(from) : 0;
    size_t length = strlen(name);
    char *path = (char *)ecs_sched__alloc(&l->world->env, directory + length + 1);
    if (!path) return NULL;
    if (directory) memcpy(path, from, directory);
    memcpy(path + directory, name, length + 1);
    return path;
}

/* The file read as nested prefab `path` (named `name`) merged into entry `into`. */
static ecs_sched_result ecs_sched__json_read_nested(ecs_sched__json_load *l, const char *name,
                                                    const char *path, int32_t into) {
    int32_t i, entity = l->entity;
    const char *reason = NULL;
    char *text;
    cJSON *root;
    ecs_sched_result result;
    for (i = 0; i < l->depth; i++) {
        if (l->files[i] && strcmp(l->files[i], path) == 0) {
            return ecs_sched__json_fail(l, ECS_SCHED_ERR_RELATION_CYCLE,
                                        "the prefab '%s' includes itself (through '%s')", path,
                                        ecs_sched__json_file(l));
        }
    }
    if (l->depth == ECS_SCHED__JSON_MAX_NESTING) {
        return ecs_sched__json_fail(l, ECS_SCHED_ERR_LIMIT, "prefabs nest deeper than %d files",
                                    ECS_SCHED__JSON_MAX_NESTING);
    }
    l->progress->loading++;
    text = ecs_sched__read_prefab_file(l->desc, path, l->files[l->depth - 1], &reason);
    l->progress->loading--;
    if (!text) {
        l->progress->failed++;
        if (strcmp(name, path) == 0) {
            return ecs_sched__json_fail(l, ECS_SCHED_ERR_NOT_FOUND,
                                        "\"prefab\" names '%s', which could not be read: %s",
                                        name, reason);
        }
        return ecs_sched__json_fail(l, ECS_SCHED_ERR_NOT_FOUND,
                                    "\"prefab\" names '%s', read as '%s' (from this file's "
                                    "directory), which could not be read: %s", name, path, reason);
    }
    l->files[l->depth++] = path;
    l->entity = -1;
    l->component = 0;
    root = ecs_sched__json_parse(l, text, true);
    result = root ? ecs_sched__json_entities(l, root, into) : l->world->env.last_result;
    cJSON_Delete(root);
    free(text);
    l->depth--;
    l->entity = entity;
    l->component = 0;
    if (result == ECS_SCHED_OK) l->progress->done++;
    else l->progress->failed++;
    return result;
}

/* The nested prefab file `name` merged into entry `into`. */
static ecs_sched_result ecs_sched__json_nested(ecs_sched__json_load *l, const char *name,
                                               int32_t into) {
    char *path = ecs_sched__json_nested_path(l, name);
    ecs_sched_result result;
    if (!path) return ecs_sched__out_of_memory(l->world, "loading JSON");
    result = ecs_sched__json_read_nested(l, name, path, into);
    ecs_sched__free(&l->world->env, path);
    return result;
}

static ecs_sched_result ecs_sched__json_relations(ecs_sched__json_load *l, int32_t entry,
                                                  const cJSON *relations, const int32_t *index_of,
                                                  int32_t count) {
    const cJSON *kind;
    cJSON_ArrayForEach(kind, relations) {
        ecs_sched_id id = ecs_sched_component_lookup(l->world, kind->string);
        const cJSON *target;
        if (!id || !ecs_sched_is_relation(l->world, id)) {
            return ecs_sched__json_fail(l, ECS_SCHED_ERR_UNKNOWN_COMPONENT,
                                        "unknown relationship kind '%s' (register it before "
                                        "loading)", kind->string ? kind->string : "");
        }
        if (id == l->world->child_of) {
            return ecs_sched__json_fail(l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                        "\"relations\" gives '%s': an entity's parent is its "
                                        "\"parent\" key, the index of an entity of the file",
                                        kind->string);
        }
        if (!cJSON_IsArray(kind)) {
            return ecs_sched__json_fail(l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                        "the targets of '%s' are an array of entity indices",
                                        kind->string);
        }
        cJSON_ArrayForEach(target, kind) {
            int32_t t;
            if (!ecs_sched__json_index(target, count, &t)) {
                return ecs_sched__json_fail(l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                            "a target of '%s' is not an entity of the file (it "
                                            "has %d)", kind->string, (int)count);
            }
            if (ecs_sched_prefab_data_relate(l->data, entry, id, index_of[t]) != ECS_SCHED_OK) {
                return ecs_sched__json_fail_again(l);
            }
        }
    }
    return ECS_SCHED_OK;
}

/* One entity of a file, as entry index_of[i]. */
static ecs_sched_result ecs_sched__json_entity(ecs_sched__json_load *l, const cJSON *e, int32_t i,
                                               const int32_t *index_of, int32_t count, int32_t into) {
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
    const cJSON *parent = cJSON_GetObjectItemCaseSensitive(e, "parent");
    const cJSON *prefab = cJSON_GetObjectItemCaseSensitive(e, "prefab");
    const cJSON *components = cJSON_GetObjectItemCaseSensitive(e, "components");
    const cJSON *relations = cJSON_GetObjectItemCaseSensitive(e, "relations");
    const cJSON *member, *item;
    int32_t entry = index_of[i];
    ecs_sched_result result;
    l->entity = i;
    l->component = 0;
    if (!cJSON_IsObject(e)) {
        return ecs_sched__json_fail(l, ECS_SCHED_ERR_INVALID_ARGUMENT, "an entity is an object");
    }
    cJSON_ArrayForEach(member, e) {
        const char *m = member->string ? member->string : "";
        if (strcmp(m, "name") && strcmp(m, "parent") && strcmp(m, "prefab") &&
            strcmp(m, "components") && strcmp(m, "relations")) {
            return ecs_sched__json_fail(l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                        "unknown member '%s' (an entity has name, parent, prefab, "
                                        "components and relations)", m);
        }
    }
    if (parent && !cJSON_IsNull(parent)) {
        int32_t p;
        if (!ecs_sched__json_index(parent, count, &p)) {
            return ecs_sched__json_fail(l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                        "parent is not the index of an entity of the file (it has "
                                        "%d)", (int)count);
        }
        if (p == i) {
            return ecs_sched__json_fail(l, ECS_SCHED_ERR_RELATION_CYCLE,
                                        "the entity is its own parent");
        }
        if (ecs_sched_prefab_data_set_parent(l->data, entry, index_of[p]) != ECS_SCHED_OK) {
            return ecs_sched__json_fail_again(l);
        }
    } else if (into >= 0 && entry != into) {   /* a nested prefab's other roots go under it */
        if (ecs_sched_prefab_data_set_parent(l->data, entry, into) != ECS_SCHED_OK) {
            return ecs_sched__json_fail_again(l);
        }
    }
    if (name && !cJSON_IsNull(name)) {
        if (!cJSON_IsString(name) || !name->valuestring[0]) {
            return ecs_sched__json_fail(l, ECS_SCHED_ERR_INVALID_ARGUMENT, "name is a non-empty string");
        }
        if (ecs_sched_prefab_data_set_name(l->data, entry, name->valuestring) != ECS_SCHED_OK) {
            return ecs_sched__json_fail_again(l);
        }
    }
    if (prefab) {
        if (l->in_one_pass) return ECS_SCHED_ERR_INVALID_ARGUMENT;   /* a hook waits for the check */
        if (!cJSON_IsString(prefab)) {
            return ecs_sched__json_fail(l, ECS_SCHED_ERR_INVALID_ARGUMENT, "prefab is a file name");
        }
        result = ecs_sched__json_nested(l, prefab->valuestring, entry);
        if (result != ECS_SCHED_OK) return result;
        l->entity = i;
    }
    if (components && !cJSON_IsObject(components)) {
        return ecs_sched__json_fail(l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                    "components is an object, a member per component");
    }
    cJSON_ArrayForEach(item, components) {
        result = ecs_sched__json_component(l, entry, item, index_of, count);
        if (result != ECS_SCHED_OK) return result;
    }
    l->component = 0;
    if (relations && !cJSON_IsObject(relations)) {
        return ecs_sched__json_fail(l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                    "relations is an object, a member per kind");
    }
    return relations ? ecs_sched__json_relations(l, entry, relations, index_of, count) : ECS_SCHED_OK;
}

/* The entities of a file; the first merges into entry `into` when it is not -1 (a nested
   prefab). */
static ecs_sched_result ecs_sched__json_entities(ecs_sched__json_load *l, const cJSON *root,
                                                 int32_t into) {
    const cJSON *entities = cJSON_IsObject(root) ? cJSON_GetObjectItemCaseSensitive(root, "entities")
                                                 : NULL;
    int32_t count, i = 0, *index_of;
    const cJSON *e;
    ecs_sched_result result = ECS_SCHED_OK;
    if (!cJSON_IsArray(entities)) {
        return ecs_sched__json_fail(l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                    "a file is an object with an array \"entities\"");
    }
    count = cJSON_GetArraySize(entities);
    if (count == 0 && into >= 0) return ECS_SCHED_OK;
    index_of = (int32_t *)ecs_sched__alloc(&l->world->env, (size_t)(count + 1) * sizeof *index_of);
    if (!index_of) return ecs_sched__out_of_memory(l->world, "loading JSON");
    for (i = 0; i < count; i++) {
        index_of[i] = i == 0 && into >= 0 ? into : ecs_sched_prefab_data_add(l->data, -1);
        if (index_of[i] < 0) {
            result = ecs_sched__json_fail_again(l);
            break;
        }
    }
    i = 0;
    cJSON_ArrayForEach(e, entities) {
        if (result != ECS_SCHED_OK) break;
        if (l->in_one_pass) {   /* checked while it is in the cache */
            l->entity = i;
            result = ecs_sched__json_check_item(l, e, NULL);
            if (result != ECS_SCHED_OK) break;
        }
        result = ecs_sched__json_entity(l, e, i, index_of, count, into);
        i++;
    }
    ecs_sched__free(&l->world->env, index_of);
    return result;
}

/* Reads a file whose check would pass, each entity checked just before it is read (one walk
   over the parsed text where there were two). Gives up, telling nothing, at whatever must wait
   until the whole file is checked: a failure of the check or of the reading (the check's
   failures come first, wherever they are), a nested prefab or an asset (hooks run only for a
   file that passes). The load then starts again from the check. */
static bool ecs_sched__json_read_in_one_pass(ecs_sched__json_load *l, const cJSON *root) {
    const cJSON *member;
    bool failed, ok = true;
    if (!cJSON_IsObject(root) || ecs_sched__json_twice(l->world, root, &failed) || failed) return false;
    l->in_one_pass = true;
    cJSON_ArrayForEach(member, root) {
        ecs_sched__json_at key = ecs_sched__json_key(NULL, member->string);
        if (strcmp(member->string, "entities") == 0 && cJSON_IsArray(member)) continue;
        if (ecs_sched__json_check_item(l, member, &key) != ECS_SCHED_OK) {
            ok = false;
            break;
        }
    }
    if (ok) ok = ecs_sched__json_entities(l, root, -1) == ECS_SCHED_OK;
    l->in_one_pass = false;
    l->entity = -1;
    l->component = 0;
    return ok;
}

static ecs_sched_prefab_data *ecs_sched__json_read_data(ecs_sched_world *w, const char *text,
                                                   const char *file, const ecs_sched_json_desc *desc) {
    ecs_sched__json_load l;
    cJSON *root;
    ecs_sched_result result;
    memset(&l, 0, sizeof l);
    l.world = w;
    l.desc = desc;
    l.progress = desc && desc->progress ? desc->progress : &l.own_progress;
    l.entity = -1;
    l.files[l.depth++] = file ? file : desc ? desc->file : NULL;
    if (!text) {
        ecs_sched__json_fail(&l, ECS_SCHED_ERR_INVALID_ARGUMENT, "no text");
        return NULL;
    }
    l.data = ecs_sched_prefab_data_create(w);
    if (!l.data) return NULL;
    root = ecs_sched__json_parse(&l, text, false);
    result = root ? ECS_SCHED_OK : w->env.last_result;
    if (root && !ecs_sched__json_read_in_one_pass(&l, root)) {   /* again, checked first */
        ecs_sched_prefab_data_free(l.data);
        l.data = ecs_sched_prefab_data_create(w);
        result = !l.data ? w->env.last_result
               : ecs_sched__json_check_file(&l, root) != ECS_SCHED_OK ? w->env.last_result
               : ecs_sched__json_entities(&l, root, -1);
    }
    cJSON_Delete(root);
    if (result != ECS_SCHED_OK) {
        ecs_sched_prefab_data_free(l.data);
        return NULL;
    }
    return l.data;
}

/* A load tells its failure once (logged, and the running system's): what the calls it makes
   record is told by the load. */
static void ecs_sched__hushed_begin(void) {
    ecs_sched__hush_depth++;
}

static void ecs_sched__hushed_end(ecs_sched__env *env, bool failed) {
    if (--ecs_sched__hush_depth == 0 && failed) {
        ecs_sched__running *running = ecs_sched__running_in(env);
        if (running) ecs_sched__running_keep(running, env->last_result, env->last_error, false);
        ecs_sched__log(env, ECS_SCHED_LOG_ERROR, env->last_result, env->last_error);
    }
}

ecs_sched_prefab_data *ecs_sched_prefab_data_from_json(ecs_sched_world *w, const char *text,
                                                       const ecs_sched_json_desc *desc) {
    ecs_sched_prefab_data *d;
    ECS_SCHED__CHECK_WORLD(w);
    ecs_sched__hushed_begin();
    d = ecs_sched__json_read_data(w, text, NULL, desc);
    ecs_sched__hushed_end(&w->env, d == NULL);
    return d;
}

ecs_sched_prefab_data *ecs_sched_prefab_data_load(ecs_sched_world *w, const char *path,
                                                  const ecs_sched_json_desc *desc) {
    ecs_sched_prefab_data *d;
    const char *reason = NULL;
    char *text;
    ECS_SCHED__CHECK_WORLD(w);
    if (!path) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT, "prefab_data_load: no path");
        return NULL;
    }
    text = ecs_sched__read_prefab_file(desc, path, NULL, &reason);
    if (!text) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_NOT_FOUND, "prefab_data_load: '%s' could not be "
                        "read: %s", path, reason);
        return NULL;
    }
    ecs_sched__hushed_begin();
    d = ecs_sched__json_read_data(w, text, path, desc);
    ecs_sched__hushed_end(&w->env, d == NULL);
    free(text);
    return d;
}

void ecs_sched_progress_finish(ecs_sched_progress *p, bool ok) {
    ECS_SCHED_ASSERT(p != NULL && p->loading > 0);
    p->loading--;
    if (ok) p->done++;
    else p->failed++;
}

bool ecs_sched_progress_complete(const ecs_sched_progress *p) {
    return p && p->loading == 0 && p->failed == 0;
}

#endif /* ECS_SCHED_JSON */
