/* json: prefab data and worlds read from and written to JSON (cJSON), when ECS_SCHED_JSON is
   defined. */
#pragma once
#include "prefab.h"

#ifdef ECS_SCHED_JSON

/* What a load is waiting for: nested prefab files and assets a loader hook was asked for.
   The prefab is complete when nothing is loading and nothing failed. */
typedef struct ecs_sched_progress {
    int32_t loading;
    int32_t done;
    int32_t failed;
} ecs_sched_progress;

typedef enum ecs_sched_asset_status {
    ECS_SCHED_ASSET_DONE = 0,      /* the handle is written and usable */
    ECS_SCHED_ASSET_LOADING,       /* the handle is written; ecs_sched_progress_finish later */
    ECS_SCHED_ASSET_FAILED
} ecs_sched_asset_status;

/* An asset a field names, {"asset": "path"} in place of an integer or entity field. */
typedef struct ecs_sched_asset_request {
    const char *path;
    const char *file;              /* the file naming it */
    ecs_sched_id component;
    const char *field;             /* its path inside the component */
    uint64_t handle;               /* out: the value the field gets */
} ecs_sched_asset_request;

typedef struct ecs_sched_json_desc {
    const char *file;              /* names the text in messages; nested prefab files named in
                                      it are found relative to its directory */
    /* Reads a prefab file: its text, zero-terminated, allocated with malloc, or NULL (errno,
       if set, is named as the reason). `path` is the file to read, a nested prefab's already
       relative to the directory of `from`, the file naming it (NULL for the file
       ecs_sched_prefab_data_load was given). NULL hook: fopen and fread. */
    char *(*read_file)(const char *path, const char *from, void *user);
    /* Loads an asset; NULL: a field naming an asset is refused. */
    ecs_sched_asset_status (*load_asset)(ecs_sched_asset_request *request, void *user);
    void *user;
    ecs_sched_progress *progress;  /* counts nested prefabs and assets; NULL: not counted */
} ecs_sched_json_desc;

/* Prefab data from JSON text (see JSON FILES for the format). NULL on failure, with a message
   naming the file, the entity, the component and the field. */
ECS_SCHED_API ecs_sched_prefab_data *ecs_sched_prefab_data_from_json(ecs_sched_world *world,
                                                                     const char *text,
                                                                     const ecs_sched_json_desc *desc);
/* The same from a file, read through desc->read_file (or fopen). */
ECS_SCHED_API ecs_sched_prefab_data *ecs_sched_prefab_data_load(ecs_sched_world *world,
                                                                const char *path,
                                                                const ecs_sched_json_desc *desc);
/* Writes entities as JSON: `entities` (NULL: every entity of the world) and, when
   `descendants`, their descendants. Returns text to free with ecs_sched_json_free, or NULL
   (a component without a description, a relationship to an entity not written). */
ECS_SCHED_API char *ecs_sched_json_save(ecs_sched_world *world, int32_t count,
                                        const ecs_sched_entity *entities, bool descendants);
ECS_SCHED_API void ecs_sched_json_free(char *text);
/* An asset that was ECS_SCHED_ASSET_LOADING is done (ok) or failed. */
ECS_SCHED_API void ecs_sched_progress_finish(ecs_sched_progress *progress, bool ok);
ECS_SCHED_API bool ecs_sched_progress_complete(const ecs_sched_progress *progress);

#endif /* ECS_SCHED_JSON */

/*@@ implementation @@*/
/* json: the JSON format, over cJSON. A file is {"entities": [entity, ...]}; an entity is
   {"name": "...", "parent": index, "prefab": "file", "components": {"Name": value, ...},
   "relations": {"Kind": [index, ...]}}, every member optional. A value is an object of its
   described fields (missing fields keep the default value), a tag's is true. */

#ifdef ECS_SCHED_JSON
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>

#define ECS_SCHED__JSON_MAX_NESTING 32

/* A whole file's text, or NULL with *reason saying why (the system's words for errno). */
static char *ecs_sched__read_text_file(const char *path, const char **reason) {
    FILE *f;
    char *text = NULL;
    long size;
    errno = 0;
    f = fopen(path, "rb");
    if (!f) {
        *reason = errno ? strerror(errno) : "it cannot be opened";
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        *reason = errno ? strerror(errno) : "its size cannot be read";
    } else if (!(text = (char *)malloc((size_t)size + 1))) {
        *reason = "out of memory";
    } else if (fread(text, 1, (size_t)size, f) != (size_t)size) {
        *reason = errno ? strerror(errno) : "it ended before its size";
        free(text);
        text = NULL;
    } else {
        text[size] = '\0';
    }
    fclose(f);
    return text;
}

/* A prefab file's text through the hook (or fopen), or NULL with *reason. */
static char *ecs_sched__read_prefab_file(const ecs_sched_json_desc *desc, const char *path,
                                         const char *from, const char **reason) {
    char *text;
    if (!desc || !desc->read_file) return ecs_sched__read_text_file(path, reason);
    errno = 0;
    text = desc->read_file(path, from, desc->user);
    if (!text) *reason = errno ? strerror(errno) : "the read_file hook gave no text";
    return text;
}

/* Whether a file name is absolute (it is then read as it is). */
static bool ecs_sched__path_is_absolute(const char *path) {
#ifdef _WIN32
    if (path[0] == '\\' || (path[0] && path[1] == ':')) return true;
#endif
    return path[0] == '/';
}

/* The length of the directory part of a file name, its last separator included (0: none). */
static size_t ecs_sched__directory_length(const char *file) {
    size_t n = strlen(file);
    while (n > 0 && file[n - 1] != '/'
#ifdef _WIN32
           && file[n - 1] != '\\'
#endif
    ) {
        n--;
    }
    return n;
}

typedef struct ecs_sched__json_load {
    ecs_sched_world *world;
    ecs_sched_prefab_data *data;
    const ecs_sched_json_desc *desc;
    ecs_sched_progress *progress;
    ecs_sched_progress own_progress;
    /* the files being read, outermost first (the first NULL for text without a name); a
       nested one as it is read, kept by ecs_sched__json_nested */
    const char *files[ECS_SCHED__JSON_MAX_NESTING];
    int32_t depth;
    int32_t entity;                 /* the entity being read (its index in its file) */
    ecs_sched_id component;         /* the component being read, or 0 */
    char path[256];                 /* a key's path, spelled out for a message or a hook */
    ecs_sched_id named[8];          /* components found by name lately, tried first */
    int32_t named_next;             /* the slot the next one found takes */
    bool in_one_pass;               /* each entity checked as it is read: see
                                       ecs_sched__json_read_in_one_pass */
} ecs_sched__json_load;

static const char *ecs_sched__json_file(const ecs_sched__json_load *l) {
    return l->depth > 0 && l->files[l->depth - 1] ? l->files[l->depth - 1] : "(text)";
}

/* Fails with the place in the file in front of the message. */
ECS_SCHED__PRINTF(3, 4)
static ecs_sched_result ecs_sched__json_fail(ecs_sched__json_load *l, ecs_sched_result code,
                                             const char *format, ...) {
    char what[ECS_SCHED__ERROR_CAPACITY], where[ECS_SCHED__ERROR_CAPACITY / 2];
    va_list args;
    if (l->in_one_pass) return code;   /* the file is read again, checked first: told then */
    va_start(args, format);
    vsnprintf(what, sizeof what, format, args);
    va_end(args);
    if (l->component && l->entity < 0) {   /* a value alone (ecs_sched__json_value_read) */
        snprintf(where, sizeof where, "%s: component '%s'", ecs_sched__json_file(l),
                 l->world->components[l->component].name);
    } else if (l->component) {
        snprintf(where, sizeof where, "json '%s': entity %d, component '%s'", ecs_sched__json_file(l),
                 (int)l->entity, l->world->components[l->component].name);
    } else if (l->entity >= 0) {
        snprintf(where, sizeof where, "json '%s': entity %d", ecs_sched__json_file(l), (int)l->entity);
    } else {
        snprintf(where, sizeof where, "json '%s'", ecs_sched__json_file(l));
    }
    return ecs_sched__fail(&l->world->env, code, "%s: %s", where, what);
}

/* The same for a failure the library reported already (its message follows the place). */
static ecs_sched_result ecs_sched__json_fail_again(ecs_sched__json_load *l) {
    char message[ECS_SCHED__ERROR_CAPACITY];
    memcpy(message, l->world->env.last_error, sizeof message);
    return ecs_sched__json_fail(l, l->world->env.last_result, "%s", message);
}

/* Line and column of a position in text. */
static void ecs_sched__json_position(const char *text, const char *at, int32_t *line, int32_t *column) {
    const char *p;
    *line = 1;
    *column = 1;
    for (p = text; p < at && *p; p++) {
        if (*p == '\n') {
            (*line)++;
            *column = 1;
        } else {
            (*column)++;
        }
    }
}

static ecs_sched_result ecs_sched__json_check_file(ecs_sched__json_load *l, const cJSON *root);

/* The text parsed, or NULL (malformed, named with its line); `check`: the file checked too
   (ecs_sched__json_check_file). */
static cJSON *ecs_sched__json_parse(ecs_sched__json_load *l, const char *text, bool check) {
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    if (root && check && ecs_sched__json_check_file(l, root) != ECS_SCHED_OK) {
        cJSON_Delete(root);
        return NULL;
    }
    if (!root) {
        int32_t line, column;
        const char *at = end ? end : cJSON_GetErrorPtr();
        if (!at) at = text;
        ecs_sched__json_position(text, at, &line, &column);
        ecs_sched__json_fail(l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                             "malformed JSON at line %d, column %d (near \"%.20s\")", (int)line,
                             (int)column, at);
    }
    return root;
}

/* ---- values ---- */

/* Whether item is a whole number from 0 to count - 1 (an index of the file's entities). */
static bool ecs_sched__json_index(const cJSON *item, int32_t count, int32_t *out) {
    double d;
    if (!cJSON_IsNumber(item)) return false;
    d = item->valuedouble;
    if (!(d >= 0.0) || !(d < (double)count)) return false;
    *out = (int32_t)d;
    return !((double)*out < d);
}

static void ecs_sched__path_append(char *path, size_t capacity, const char *name, int32_t index) {
    size_t used = strlen(path);
    if (index >= 0) snprintf(path + used, capacity - used, "[%d]", (int)index);
    else snprintf(path + used, capacity - used, "%s%s", used ? "." : "", name);
}

/* ---- what cJSON accepts and a file may not hold ---- */

static int ecs_sched__compare_keys(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A key the object holds twice, or NULL; *failed when out of memory. Short objects are
   compared pair by pair, long ones sorted. */
static const char *ecs_sched__json_twice(ecs_sched_world *w, const cJSON *object, bool *failed) {
    const cJSON *a, *b;
    const char **keys, *found = NULL;
    int32_t n = cJSON_GetArraySize(object), i = 0;
    *failed = false;
    if (n <= 32) {
        for (a = object->child; a; a = a->next) {
            for (b = a->next; b; b = b->next) {
                if (strcmp(a->string, b->string) == 0) return a->string;
            }
        }
        return NULL;
    }
    keys = (const char **)ecs_sched__alloc(&w->env, (size_t)n * sizeof *keys);
    if (!keys) {
        *failed = true;
        return NULL;
    }
    for (a = object->child; a; a = a->next) keys[i++] = a->string;
    qsort(keys, (size_t)n, sizeof *keys, ecs_sched__compare_keys);
    for (i = 1; i < n && !found; i++) {
        if (strcmp(keys[i - 1], keys[i]) == 0) found = keys[i];
    }
    ecs_sched__free(&w->env, keys);
    return found;
}

/* Where an item lies, from its entity (or the file's root): a chain of keys and indices on the
   stack, spelled out only for a message or a hook, so that reading a file builds no text. */
typedef struct ecs_sched__json_at {
    const struct ecs_sched__json_at *up;
    const char *key;                /* a member's key, or NULL for an element */
    int32_t index;                  /* an element's index, or -1 */
} ecs_sched__json_at;

#define ECS_SCHED__JSON_PATH sizeof(((ecs_sched__json_load *)0)->path)

static ecs_sched__json_at ecs_sched__json_key(const ecs_sched__json_at *up, const char *key) {
    ecs_sched__json_at at;
    at.up = up;
    at.key = key;
    at.index = -1;
    return at;
}

static ecs_sched__json_at ecs_sched__json_element_at(const ecs_sched__json_at *up, int32_t index) {
    ecs_sched__json_at at;
    at.up = up;
    at.key = NULL;
    at.index = index;
    return at;
}

static void ecs_sched__json_spell_into(const ecs_sched__json_at *at, char *path) {
    if (!at) {
        path[0] = '\0';
        return;
    }
    ecs_sched__json_spell_into(at->up, path);
    ecs_sched__path_append(path, ECS_SCHED__JSON_PATH, at->key, at->index);
}

/* The path as messages show it ("components.Unit.path[0].x"), in the load's buffer. */
static const char *ecs_sched__json_spell(ecs_sched__json_load *l, const ecs_sched__json_at *at) {
    ecs_sched__json_spell_into(at, l->path);
    return l->path;
}

/* Refuses, in item and below, a key given twice in one object (which one would count?) and
   a number beyond a double's range (1e999 reads as infinity), naming the key by its path from
   the entity. */
static ecs_sched_result ecs_sched__json_check_item(ecs_sched__json_load *l, const cJSON *item,
                                                   const ecs_sched__json_at *at) {
    const cJSON *child;
    int32_t k = 0;
    if (cJSON_IsNumber(item) && !isfinite(item->valuedouble)) {
        return ecs_sched__json_fail(l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                    "key '%s' holds a number beyond the range of a double (a "
                                    "float member takes \"inf\" and \"-inf\")",
                                    ecs_sched__json_spell(l, at));
    }
    if (cJSON_IsObject(item)) {
        bool failed;
        const char *twice = ecs_sched__json_twice(l->world, item, &failed);
        if (failed) return ecs_sched__out_of_memory(l->world, "loading JSON");
        if (twice) {
            ecs_sched__json_at key = ecs_sched__json_key(at, twice);
            return ecs_sched__json_fail(l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                        "key '%s' is given twice (the keys of an object are "
                                        "unique)", ecs_sched__json_spell(l, &key));
        }
    }
    cJSON_ArrayForEach(child, item) {
        ecs_sched_result result;
        ecs_sched__json_at inner = cJSON_IsArray(item) ? ecs_sched__json_element_at(at, k++)
                                                       : ecs_sched__json_key(at, child->string);
        result = ecs_sched__json_check_item(l, child, &inner);
        if (result != ECS_SCHED_OK) return result;
    }
    return ECS_SCHED_OK;
}

/* The same for a whole file, its entities' keys named from each entity. */
static ecs_sched_result ecs_sched__json_check_file(ecs_sched__json_load *l, const cJSON *root) {
    const cJSON *member, *e;
    ecs_sched_result result = ECS_SCHED_OK;
    if (!cJSON_IsObject(root)) return ecs_sched__json_check_item(l, root, NULL);
    {   /* the root's own keys first, then each member's */
        bool failed;
        const char *twice = ecs_sched__json_twice(l->world, root, &failed);
        if (failed) return ecs_sched__out_of_memory(l->world, "loading JSON");
        if (twice) {
            return ecs_sched__json_fail(l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                        "key '%s' is given twice (the keys of an object are "
                                        "unique)", twice);
        }
    }
    cJSON_ArrayForEach(member, root) {
        int32_t i = 0;
        if (strcmp(member->string, "entities") != 0 || !cJSON_IsArray(member)) {
            ecs_sched__json_at key = ecs_sched__json_key(NULL, member->string);
            result = ecs_sched__json_check_item(l, member, &key);
            if (result != ECS_SCHED_OK) return result;
            continue;
        }
        cJSON_ArrayForEach(e, member) {
            l->entity = i++;
            result = ecs_sched__json_check_item(l, e, NULL);
            if (result != ECS_SCHED_OK) return result;
        }
        l->entity = -1;
    }
    return ECS_SCHED_OK;
}

typedef struct ecs_sched__json_value {
    ecs_sched__json_load *load;
    ecs_sched_id id;                /* the component */
    unsigned char *value;           /* its value being filled */
    int32_t entry;
    bool links;                     /* an entity member is given an index of the file */
    bool handles;                   /* entity members are given as handles, not indices of a
                                       file (ecs_sched__json_value_read) */
} ecs_sched__json_value;

static ecs_sched_result ecs_sched__json_struct(ecs_sched__json_value *v, ecs_sched_id type,
                                               const cJSON *object, const ecs_sched__json_at *where,
                                               unsigned char *base);

/* {"asset": "path"} in an integer or entity field: the loader gives the handle. */
static ecs_sched_result ecs_sched__json_asset(ecs_sched__json_value *v, const ecs_sched__field_desc *f,
                                              const cJSON *item, const char *path) {
    ecs_sched__json_load *l = v->load;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(item, "asset");
    ecs_sched_asset_request request;
    ecs_sched_asset_status status;
    unsigned char *at;
    ecs_sched_member_info info;
    if (l->in_one_pass) return ECS_SCHED_ERR_INVALID_ARGUMENT;   /* a hook waits for the check */
    if (!cJSON_IsString(name) || cJSON_GetArraySize(item) != 1) {
        return ecs_sched__json_fail(l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                    "member '%s' is given an object; only {\"asset\": \"path\"} "
                                    "stands for a number", path);
    }
    if (f->kind == ECS_SCHED_TYPE_F32 || f->kind == ECS_SCHED_TYPE_F64 ||
        f->kind == ECS_SCHED_TYPE_BOOL || f->kind == ECS_SCHED_TYPE_ENUM) {
        return ecs_sched__json_fail(l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                    "member '%s' (%s) cannot hold an asset handle; an integer or "
                                    "entity member can", path, ecs_sched__field_kind_names[f->kind]);
    }
    if (!l->desc || !l->desc->load_asset) {
        return ecs_sched__json_fail(l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                    "member '%s' names the asset '%s', and no load_asset hook was "
                                    "given to load it", path, name->valuestring);
    }
    memset(&request, 0, sizeof request);
    request.path = name->valuestring;
    request.file = ecs_sched__json_file(l);
    request.component = v->id;
    request.field = path;
    status = l->desc->load_asset(&request, l->desc->user);
    if (status == ECS_SCHED_ASSET_FAILED) {
        l->progress->failed++;
        return ECS_SCHED_OK;
    }
    if (status == ECS_SCHED_ASSET_LOADING) l->progress->loading++;
    else l->progress->done++;
    at = (unsigned char *)ecs_sched_value_member(l->world, v->id, v->value, path, &info);
    if (!at) return ecs_sched__json_fail_again(l);
    if (f->kind == ECS_SCHED_TYPE_ENTITY || f->kind == ECS_SCHED_TYPE_U64 ||
        f->kind == ECS_SCHED_TYPE_I64) {
        memcpy(at, &request.handle, 8);
        return ECS_SCHED_OK;
    }
    if (request.handle > (uint64_t)INT64_MAX ||
        ecs_sched_value_set_int(l->world, v->id, v->value, path, (int64_t)request.handle) != ECS_SCHED_OK) {
        return ecs_sched__json_fail(l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                    "the asset '%s' got handle %llu, which member '%s' cannot hold",
                                    name->valuestring, (unsigned long long)request.handle, path);
    }
    return ECS_SCHED_OK;
}

/* A value refused by its field, named by its key and as the file wrote it (a number with the
   fewest digits that give it back: -2147483649, not -2.14748e+09). */
static ecs_sched_result ecs_sched__json_cannot_hold(ecs_sched__json_value *v,
                                                   const ecs_sched__field_desc *f,
                                                   const char *given, const char *path) {
    char values[160];
    int32_t i;
    size_t used = 0;
    if (f->kind == ECS_SCHED_TYPE_CHARS) {
        return ecs_sched__json_fail(v->load, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                    "member '%s' holds text of %u bytes with its terminating zero, "
                                    "and is given %s", path, (unsigned)f->element, given);
    }
    if (f->kind != ECS_SCHED_TYPE_ENUM) {
        return ecs_sched__json_fail(v->load, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                    "member '%s' (%s) cannot hold %s", path,
                                    ecs_sched__field_kind_names[f->kind], given);
    }
    values[0] = '\0';
    for (i = 0; i < f->value_count && used < sizeof values; i++) {
        int n = snprintf(values + used, sizeof values - used, "%s%s", i ? ", " : "", f->values[i].name);
        if (n < 0) break;
        used += (size_t)n;
    }
    return ecs_sched__json_fail(v->load, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                "member '%s' (enum) has no value %s; its values: %s", path, given,
                                values);
}

/* The same for a JSON item. */
static ecs_sched_result ecs_sched__json_refused(ecs_sched__json_value *v,
                                               const ecs_sched__field_desc *f, const cJSON *item,
                                               const char *path) {
    char given[96];
    if (cJSON_IsNumber(item)) ecs_sched__format_number(given, sizeof given, item->valuedouble);
    else if (cJSON_IsString(item)) snprintf(given, sizeof given, "\"%.60s\"", item->valuestring);
    else snprintf(given, sizeof given, "%s", cJSON_IsTrue(item) ? "true" : "false");
    return ecs_sched__json_cannot_hold(v, f, given, path);
}

/* A 64-bit integer given as a string (beyond what a JSON number holds exactly). */
static ecs_sched_result ecs_sched__json_big_int(ecs_sched__json_value *v, const ecs_sched__field_desc *f,
                                                const char *text, const char *path) {
    char *end;
    unsigned char *at;
    ecs_sched_member_info info;
    errno = 0;
    if (f->kind == ECS_SCHED_TYPE_U64) {
        unsigned long long n = strtoull(text, &end, 10);
        if (*text == '-' || *end || end == text || errno) goto bad;
        at = (unsigned char *)ecs_sched_value_member(v->load->world, v->id, v->value, path, &info);
        if (at) memcpy(at, &n, 8);
        return at ? ECS_SCHED_OK : ecs_sched__json_fail_again(v->load);
    } else {
        long long n = strtoll(text, &end, 10);
        if (*end || end == text || errno) goto bad;
        if (ecs_sched_value_set_int(v->load->world, v->id, v->value, path, (int64_t)n) != ECS_SCHED_OK) {
            return ecs_sched__json_cannot_hold(v, f, text, path);
        }
        return ECS_SCHED_OK;
    }
bad:
    return ecs_sched__json_fail(v->load, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                "member '%s' (%s) is given \"%s\", which is not an integer", path,
                                ecs_sched__field_kind_names[f->kind], text);
}

static ecs_sched_result ecs_sched__json_wrong_type(ecs_sched__json_value *v,
                                                   const ecs_sched__field_desc *f,
                                                   const cJSON *item, const char *path) {
    const char *given = cJSON_IsString(item) ? "a string" : cJSON_IsNumber(item) ? "a number"
                      : cJSON_IsBool(item) ? "a bool" : cJSON_IsArray(item) ? "an array"
                      : cJSON_IsObject(item) ? "an object" : "null";
    return ecs_sched__json_fail(v->load, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                "member '%s' is %s, and is given %s", path,
                                ecs_sched__field_kind_names[f->kind], given);
}

/* The handle an item gives: null (no entity), a whole number, or the same as a string of
   digits (beyond 2^53, which a JSON number does not hold exactly). False when it is none. */
static bool ecs_sched__json_handle(const cJSON *item, ecs_sched_entity *out) {
    if (cJSON_IsNull(item)) {
        *out = ECS_SCHED_NULL_ENTITY;
        return true;
    }
    if (cJSON_IsNumber(item)) {
        double d = item->valuedouble;
        double whole;
        if (!(d >= 0.0) || d > 9007199254740992.0) return false;
        whole = (double)(uint64_t)d;
        if (whole < d || whole > d) return false;   /* not a whole number */
        *out = (ecs_sched_entity)d;
        return true;
    }
    if (cJSON_IsString(item)) {
        const char *text = item->valuestring;
        char *end;
        unsigned long long n;
        if (*text < '0' || *text > '9') return false;
        errno = 0;
        n = strtoull(text, &end, 10);
        if (*end || errno) return false;
        *out = (ecs_sched_entity)n;
        return true;
    }
    return false;
}

static bool ecs_sched__json_store_handle(unsigned char *p, const cJSON *item) {
    ecs_sched_entity e;
    if (!ecs_sched__json_handle(item, &e)) return false;
    memcpy(p, &e, sizeof e);
    return true;
}

/* One element of a field (not a struct), written at p. */
static ecs_sched_result ecs_sched__json_leaf(ecs_sched__json_value *v, const ecs_sched__field_desc *f,
                                             const cJSON *item, const ecs_sched__json_at *where,
                                             unsigned char *p) {
    bool stored = true;
    if (cJSON_IsObject(item)) {
        return ecs_sched__json_asset(v, f, item, ecs_sched__json_spell(v->load, where));
    }
    switch (f->kind) {
    case ECS_SCHED_TYPE_ENTITY:
        if (v->handles) {
            stored = ecs_sched__json_store_handle(p, item);
            if (!stored && !cJSON_IsNumber(item) && !cJSON_IsString(item)) break;
            goto done;
        }
        if (cJSON_IsNull(item)) return ECS_SCHED_OK;
        if (!cJSON_IsNumber(item)) break;
        v->links = true;   /* an index of the file: linked once the value is set */
        return ECS_SCHED_OK;
    case ECS_SCHED_TYPE_CHARS:
        if (!cJSON_IsString(item)) break;
        stored = ecs_sched__store_text(f, p, item->valuestring);
        goto done;
    case ECS_SCHED_TYPE_ENUM:
        if (cJSON_IsString(item)) stored = ecs_sched__store_text(f, p, item->valuestring);
        else if (cJSON_IsNumber(item)) stored = ecs_sched__store_number(f, p, item->valuedouble);
        else break;
        goto done;
    case ECS_SCHED_TYPE_BOOL:
        if (!cJSON_IsBool(item)) break;
        stored = ecs_sched__store_number(f, p, cJSON_IsTrue(item) ? 1.0 : 0.0);
        goto done;
    case ECS_SCHED_TYPE_F32:
    case ECS_SCHED_TYPE_F64:
        if (cJSON_IsString(item)) {   /* what a JSON number cannot be */
            const char *text = item->valuestring;
            double n;
            if (strcmp(text, "nan") == 0) n = (double)NAN;
            else if (strcmp(text, "inf") == 0) n = (double)INFINITY;
            else if (strcmp(text, "-inf") == 0) n = -(double)INFINITY;
            else break;
            stored = ecs_sched__store_number(f, p, n);
            goto done;
        }
        if (!cJSON_IsNumber(item)) break;
        stored = ecs_sched__store_number(f, p, item->valuedouble);
        goto done;
    case ECS_SCHED_TYPE_I64:
    case ECS_SCHED_TYPE_U64:
        if (cJSON_IsString(item)) {
            return ecs_sched__json_big_int(v, f, item->valuestring, ecs_sched__json_spell(v->load, where));
        }
        if (!cJSON_IsNumber(item)) break;
        stored = ecs_sched__store_number(f, p, item->valuedouble);
        goto done;
    case ECS_SCHED_TYPE_NONE:
    case ECS_SCHED_TYPE_STRUCT:
    case ECS_SCHED_TYPE_I8: case ECS_SCHED_TYPE_I16: case ECS_SCHED_TYPE_I32:
    case ECS_SCHED_TYPE_U8: case ECS_SCHED_TYPE_U16: case ECS_SCHED_TYPE_U32:
        if (!cJSON_IsNumber(item)) break;
        stored = ecs_sched__store_number(f, p, item->valuedouble);
        goto done;
    }
    return ecs_sched__json_wrong_type(v, f, item, ecs_sched__json_spell(v->load, where));
done:
    return stored ? ECS_SCHED_OK
                  : ecs_sched__json_refused(v, f, item, ecs_sched__json_spell(v->load, where));
}

/* One element of a field: a struct's object, or a leaf. */
static ecs_sched_result ecs_sched__json_element(ecs_sched__json_value *v, const ecs_sched__field_desc *f,
                                                const cJSON *item, const ecs_sched__json_at *where,
                                                unsigned char *p) {
    if (f->kind != ECS_SCHED_TYPE_STRUCT) return ecs_sched__json_leaf(v, f, item, where, p);
    if (!cJSON_IsObject(item)) {
        return ecs_sched__json_wrong_type(v, f, item, ecs_sched__json_spell(v->load, where));
    }
    return ecs_sched__json_struct(v, f->type, item, where, p);
}

static ecs_sched_result ecs_sched__json_field(ecs_sched__json_value *v, const ecs_sched__field_desc *f,
                                              const cJSON *item, const ecs_sched__json_at *where,
                                              unsigned char *p) {
    int32_t i = 0;
    const cJSON *e;
    if (f->count == 1 || f->kind == ECS_SCHED_TYPE_CHARS) return ecs_sched__json_element(v, f, item, where, p);
    if (!cJSON_IsArray(item)) {
        return ecs_sched__json_fail(v->load, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                    "member '%s' is an array of %d elements, and is not given an "
                                    "array", ecs_sched__json_spell(v->load, where), (int)f->count);
    }
    if (cJSON_GetArraySize(item) > f->count) {
        return ecs_sched__json_fail(v->load, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                    "member '%s' holds %d elements, and is given %d",
                                    ecs_sched__json_spell(v->load, where), (int)f->count,
                                    cJSON_GetArraySize(item));
    }
    cJSON_ArrayForEach(e, item) {
        ecs_sched__json_at element = ecs_sched__json_element_at(where, i);
        ecs_sched_result result = ecs_sched__json_element(v, f, e, &element, p + (size_t)i * f->element);
        if (result != ECS_SCHED_OK) return result;
        i++;
    }
    return ECS_SCHED_OK;
}

/* The member a key names, or NULL. Files usually give the members in the order they are
   described: the search starts after the member found last (*next). */
static const ecs_sched__field_desc *ecs_sched__json_member(const ecs_sched__description *d,
                                                          const char *key, int32_t *next) {
    int32_t n, i;
    if (!d || !key) return NULL;
    for (n = 0, i = *next; n < d->count; n++, i = i + 1 == d->count ? 0 : i + 1) {
        if (strcmp(d->fields[i].name, key) == 0) {
            *next = i + 1 == d->count ? 0 : i + 1;
            return &d->fields[i];
        }
    }
    return NULL;
}

/* The members an object gives, written into the value of type `type` at base. */
static ecs_sched_result ecs_sched__json_struct(ecs_sched__json_value *v, ecs_sched_id type,
                                               const cJSON *object, const ecs_sched__json_at *where,
                                               unsigned char *base) {
    const ecs_sched__description *d = ecs_sched__description_of(v->load->world, type);
    const cJSON *item;
    int32_t next = 0;
    cJSON_ArrayForEach(item, object) {
        const ecs_sched__field_desc *f = ecs_sched__json_member(d, item->string, &next);
        ecs_sched__json_at inner;
        ecs_sched_result result;
        if (!f) {
            const char *path = ecs_sched__json_spell(v->load, where);
            return ecs_sched__json_fail(v->load, ECS_SCHED_ERR_NOT_FOUND,
                                        "unknown member '%s%s%s': '%s' has no such member", path,
                                        path[0] ? "." : "", item->string ? item->string : "",
                                        v->load->world->components[type].name);
        }
        inner = ecs_sched__json_key(where, f->name);
        result = ecs_sched__json_field(v, f, item, &inner, base + f->offset);
        if (result != ECS_SCHED_OK) return result;
    }
    return ECS_SCHED_OK;
}

/* The entity fields of a value that name entities of the file: linked once the value is set. */
static ecs_sched_result ecs_sched__json_links(ecs_sched__json_value *v, ecs_sched_id type,
                                              const cJSON *object, const char *path,
                                              const int32_t *index_of, int32_t count) {
    const ecs_sched__description *d = ecs_sched__description_of(v->load->world, type);
    const cJSON *item;
    if (!d) return ECS_SCHED_OK;
    cJSON_ArrayForEach(item, object) {
        char inner[256];
        int32_t i;
        for (i = 0; i < d->count; i++) {
            const ecs_sched__field_desc *f = &d->fields[i];
            const cJSON *e;
            int32_t k = 0;
            if (!item->string || strcmp(f->name, item->string) != 0) continue;
            snprintf(inner, sizeof inner, "%s", path);
            ecs_sched__path_append(inner, sizeof inner, f->name, -1);
            if (f->kind == ECS_SCHED_TYPE_STRUCT) {
                if (f->count == 1) {
                    ecs_sched_result r = ecs_sched__json_links(v, f->type, item, inner, index_of, count);
                    if (r != ECS_SCHED_OK) return r;
                    continue;
                }
                cJSON_ArrayForEach(e, item) {
                    char element[256];
                    ecs_sched_result r;
                    snprintf(element, sizeof element, "%s", inner);
                    ecs_sched__path_append(element, sizeof element, NULL, k++);
                    r = ecs_sched__json_links(v, f->type, e, element, index_of, count);
                    if (r != ECS_SCHED_OK) return r;
                }
                continue;
            }
            if (f->kind != ECS_SCHED_TYPE_ENTITY) continue;
            if (f->count == 1) {
                e = item;
                if (cJSON_IsNumber(e)) {
                    int32_t target;
                    if (!ecs_sched__json_index(e, count, &target)) {
                        char given[48];
                        ecs_sched__format_number(given, sizeof given, e->valuedouble);
                        return ecs_sched__json_fail(v->load, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                                    "member '%s' names entity %s; the file has %d",
                                                    inner, given, (int)count);
                    }
                    if (ecs_sched_prefab_data_set_entity(v->load->data, v->entry, v->id, inner,
                                                         index_of[target]) != ECS_SCHED_OK) {
                        return ecs_sched__json_fail_again(v->load);
                    }
                }
                continue;
            }
            cJSON_ArrayForEach(e, item) {
                char element[256];
                int32_t target;
                snprintf(element, sizeof element, "%s", inner);
                ecs_sched__path_append(element, sizeof element, NULL, k++);
                if (!cJSON_IsNumber(e)) continue;
                if (!ecs_sched__json_index(e, count, &target)) {
                    char given[48];
                    ecs_sched__format_number(given, sizeof given, e->valuedouble);
                    return ecs_sched__json_fail(v->load, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                                "member '%s' names entity %s; the file has %d",
                                                element, given, (int)count);
                }
                if (ecs_sched_prefab_data_set_entity(v->load->data, v->entry, v->id, element,
                                                     index_of[target]) != ECS_SCHED_OK) {
                    return ecs_sched__json_fail_again(v->load);
                }
            }
        }
    }
    return ECS_SCHED_OK;
}

/* The component a key names, or 0. A file names the same few over and over: those found
   lately are compared first, where the registry would hash the name each time. */
static ecs_sched_id ecs_sched__json_component_named(ecs_sched__json_load *l, const char *name) {
    const int32_t slots = (int32_t)(sizeof l->named / sizeof l->named[0]);
    ecs_sched_id id;
    int32_t i;
    for (i = 0; i < slots && l->named[i]; i++) {
        if (strcmp(l->world->components[l->named[i]].name, name) == 0) return l->named[i];
    }
    id = ecs_sched_component_lookup(l->world, name);
    if (id) {
        l->named[l->named_next] = id;
        l->named_next = (l->named_next + 1) % slots;
    }
    return id;
}

/* One component of an entry: its value filled from the JSON (a default value first), then
   copied into the data. */
static ecs_sched_result ecs_sched__json_component(ecs_sched__json_load *l, int32_t entry,
                                                  const cJSON *item, const int32_t *index_of,
                                                  int32_t count) {
    ecs_sched_world *w = l->world;
    ecs_sched_id id = ecs_sched__json_component_named(l, item->string);
    const ecs_sched__component *c;
    ecs_sched__json_value v;
    ecs_sched_result result;
    unsigned char local[256 + ECS_SCHED_MAX_ALIGNMENT];   /* most values: no allocation */
    if (!id) {
        l->component = 0;
        return ecs_sched__json_fail(l, ECS_SCHED_ERR_UNKNOWN_COMPONENT,
                                    "unknown component '%s' (register it before loading)",
                                    item->string);
    }
    l->component = id;
    c = &w->components[id];
    if (c->relation || ecs_sched__mark_base(w, id)) {
        return ecs_sched__json_fail(l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                    "a relationship is given under \"relations\" (ChildOf as "
                                    "\"parent\"), not as a component");
    }
    if (c->size == 0) {
        if (!cJSON_IsTrue(item) && !(cJSON_IsObject(item) && !item->child)) {
            return ecs_sched__json_fail(l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                        "a tag has no value: give it true");
        }
        result = ecs_sched_prefab_data_set(l->data, entry, id, NULL);
        return result == ECS_SCHED_OK ? ECS_SCHED_OK : ecs_sched__json_fail_again(l);
    }
    if (!cJSON_IsObject(item)) {
        return ecs_sched__json_fail(l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                    "a value is an object of its members");
    }
    if (item->child && !ecs_sched__description_of(w, id)) {
        return ecs_sched__json_fail(l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                    "the component has no description, so its members cannot be "
                                    "read (ecs_sched_describe)");
    }
    v.load = l;
    v.id = id;
    v.entry = entry;
    v.links = false;
    v.handles = false;
    v.value = c->size <= 256 ? (unsigned char *)(((uintptr_t)local + c->alignment - 1) &
                                                 ~(uintptr_t)(c->alignment - 1))
                             : (unsigned char *)ecs_sched__aligned_alloc(&w->env, c->size, c->alignment);
    if (!v.value) return ecs_sched__out_of_memory(w, "loading JSON");
    {   /* the value the entry has already (a nested prefab's), else a default one */
        const void *had = ecs_sched_prefab_data_get(l->data, entry, id);
        ecs_sched__construct(c, v.value, had, 1);
    }
    result = ecs_sched__json_struct(&v, id, item, NULL, v.value);
    if (result == ECS_SCHED_OK) {
        result = ecs_sched_prefab_data_set(l->data, entry, id, v.value);
        if (result != ECS_SCHED_OK) result = ecs_sched__json_fail_again(l);
    }
    if (result == ECS_SCHED_OK && v.links) result = ecs_sched__json_links(&v, id, item, "", index_of, count);
    ecs_sched__destruct(c, v.value, 1);
    if (c->size > 256) ecs_sched__aligned_free(&w->env, v.value);
    return result;
}

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

/* ---- saving ---- */

typedef struct ecs_sched__json_save {
    ecs_sched_world *world;
    ecs_sched_entity *order;        /* the entities written, in order */
    int32_t count;
    uint32_t capacity;
    int32_t *entry_of;              /* by entity index: its place in order, or -1 */
    bool handles;                   /* entity members written as handles, not as indices of
                                       the entities written (ecs_sched__json_value_write) */
} ecs_sched__json_save;

static bool ecs_sched__save_add(ecs_sched__json_save *s, ecs_sched_entity e, bool descendants) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    const ecs_sched_entity *children;
    int32_t n, i;
    if (s->entry_of[index] >= 0) return true;
    if (!ECS_SCHED__GROW(&s->world->env, s->order, &s->capacity, (uint32_t)s->count + 1)) return false;
    s->entry_of[index] = s->count;
    s->order[s->count++] = e;
    if (!descendants) return true;
    children = ecs_sched_children(s->world, e, &n);
    for (i = 0; i < n; i++) {
        if (!ecs_sched__save_add(s, children[i], true)) return false;
    }
    return true;
}

static cJSON *ecs_sched__json_of_struct(ecs_sched__json_save *s, ecs_sched_id type,
                                        const unsigned char *value);

/* A handle as JSON: null for none, a number up to 2^53, a string of digits beyond. */
static cJSON *ecs_sched__json_of_handle(ecs_sched_entity e) {
    char text[24];
    if (e == ECS_SCHED_NULL_ENTITY) return cJSON_CreateNull();
    if (e <= (UINT64_C(1) << 53)) return cJSON_CreateNumber((double)e);
    snprintf(text, sizeof text, "%llu", (unsigned long long)e);
    return cJSON_CreateString(text);
}

static cJSON *ecs_sched__json_of_element(ecs_sched__json_save *s, const ecs_sched__field_desc *f,
                                         const unsigned char *p) {
    char text[32];
    switch (f->kind) {
    case ECS_SCHED_TYPE_BOOL:
        return cJSON_CreateBool(ecs_sched__load_int(p, f->kind, f->element) != 0);
    case ECS_SCHED_TYPE_F32:
    case ECS_SCHED_TYPE_F64: {
        double d = ecs_sched__load_float(p, f->kind);
        if (isnan(d)) return cJSON_CreateString("nan");
        if (isinf(d)) return cJSON_CreateString(d > 0 ? "inf" : "-inf");
        return cJSON_CreateNumber(d);
    }
    case ECS_SCHED_TYPE_U64: {
        uint64_t u = ecs_sched__load_u64(p);
        if (u <= (UINT64_C(1) << 53)) return cJSON_CreateNumber((double)u);
        snprintf(text, sizeof text, "%llu", (unsigned long long)u);
        return cJSON_CreateString(text);
    }
    case ECS_SCHED_TYPE_I64: {
        int64_t i = ecs_sched__load_int(p, f->kind, f->element);
        if (i <= (INT64_C(1) << 53) && i >= -(INT64_C(1) << 53)) return cJSON_CreateNumber((double)i);
        snprintf(text, sizeof text, "%lld", (long long)i);
        return cJSON_CreateString(text);
    }
    case ECS_SCHED_TYPE_ENTITY: {
        ecs_sched_entity e = (ecs_sched_entity)ecs_sched__load_u64(p);
        uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
        if (s->handles) return ecs_sched__json_of_handle(e);
        if (e && ecs_sched__is_live_record(s->world, e) && s->entry_of[index] >= 0) {
            return cJSON_CreateNumber((double)s->entry_of[index]);
        }
        return cJSON_CreateNull();   /* an entity not written: the reference is dropped */
    }
    case ECS_SCHED_TYPE_CHARS: {
        cJSON *item;
        char *copy = (char *)ecs_sched__alloc(&s->world->env, f->element + 1);
        if (!copy) return NULL;
        memcpy(copy, p, f->element);
        copy[f->element] = '\0';
        item = cJSON_CreateString(copy);
        ecs_sched__free(&s->world->env, copy);
        return item;
    }
    case ECS_SCHED_TYPE_ENUM: {
        int64_t v = ecs_sched__load_int(p, f->kind, f->element);
        const char *name = ecs_sched__enum_name(f, v);
        return name ? cJSON_CreateString(name) : cJSON_CreateNumber((double)v);
    }
    case ECS_SCHED_TYPE_STRUCT:
        return ecs_sched__json_of_struct(s, f->type, p);
    case ECS_SCHED_TYPE_NONE:
    case ECS_SCHED_TYPE_I8: case ECS_SCHED_TYPE_I16: case ECS_SCHED_TYPE_I32:
    case ECS_SCHED_TYPE_U8: case ECS_SCHED_TYPE_U16: case ECS_SCHED_TYPE_U32:
        break;
    }
    {
        int64_t number = ecs_sched__load_int(p, f->kind, f->element);
        return cJSON_CreateNumber((double)number);
    }
}

static cJSON *ecs_sched__json_of_struct(ecs_sched__json_save *s, ecs_sched_id type,
                                        const unsigned char *value) {
    const ecs_sched__description *d = ecs_sched__description_of(s->world, type);
    cJSON *object = cJSON_CreateObject();
    int32_t i, k;
    for (i = 0; object && d && i < d->count; i++) {
        const ecs_sched__field_desc *f = &d->fields[i];
        const unsigned char *p = value + f->offset;
        cJSON *item;
        if (f->count == 1 || f->kind == ECS_SCHED_TYPE_CHARS) {
            item = ecs_sched__json_of_element(s, f, p);
        } else {
            item = cJSON_CreateArray();
            for (k = 0; item && k < f->count; k++) {
                cJSON *e = ecs_sched__json_of_element(s, f, p + (size_t)k * f->element);
                if (!e || !cJSON_AddItemToArray(item, e)) {
                    cJSON_Delete(e);
                    cJSON_Delete(item);
                    item = NULL;
                }
            }
        }
        if (!item || !cJSON_AddItemToObject(object, f->name, item)) {
            cJSON_Delete(item);
            cJSON_Delete(object);
            return NULL;
        }
    }
    return object;
}

ECS_SCHED__PRINTF(3, 4)
static ecs_sched_result ecs_sched__save_fail(ecs_sched__json_save *s, ecs_sched_entity e,
                                             const char *format, ...) {
    char message[ECS_SCHED__ERROR_CAPACITY / 2];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    return ecs_sched__fail(&s->world->env, ECS_SCHED_ERR_INVALID_ARGUMENT, "json_save: %s: %s",
                           ecs_sched__entity_label(s->world, e).text, message);
}

static ecs_sched_result ecs_sched__save_relations(ecs_sched__json_save *s, ecs_sched_entity e,
                                                  const ecs_sched__table *t, cJSON *out) {
    cJSON *relations = NULL;
    int32_t k, i;
    for (k = 0; k < t->type_count; k++) {
        ecs_sched_id kind = t->type[k];
        cJSON *targets;
        int32_t n;
        if (!s->world->components[kind].relation || kind == s->world->child_of) continue;
        if (!relations && !(relations = cJSON_AddObjectToObject(out, "relations"))) {
            return ecs_sched__out_of_memory(s->world, "saving JSON");
        }
        targets = cJSON_AddArrayToObject(relations, s->world->components[kind].name);
        if (!targets) return ecs_sched__out_of_memory(s->world, "saving JSON");
        n = ecs_sched_target_count(s->world, e, kind);
        for (i = 0; i < n; i++) {
            ecs_sched_entity target = ecs_sched_target(s->world, e, kind, i);
            int32_t at = s->entry_of[ECS_SCHED_ENTITY_INDEX(target)];
            if (at < 0) {
                return ecs_sched__save_fail(s, e, "it relates with '%s' to an entity that is not "
                                                  "written; write both, or neither",
                                            s->world->components[kind].name);
            }
            if (!cJSON_AddItemToArray(targets, cJSON_CreateNumber((double)at))) {
                return ecs_sched__out_of_memory(s->world, "saving JSON");
            }
        }
    }
    return ECS_SCHED_OK;
}

/* The entity's sparse components, written as its others are. */
static ecs_sched_result ecs_sched__save_sparse(ecs_sched__json_save *s, ecs_sched_entity e,
                                               cJSON *components) {
    ecs_sched_world *w = s->world;
    uint32_t i, index = ECS_SCHED_ENTITY_INDEX(e);
    for (i = 0; i < w->sparse_count; i++) {
        const ecs_sched__sparse_set *set = &w->sparse_sets[i];
        const ecs_sched__component *c = &w->components[set->id];
        cJSON *value;
        if (!ecs_sched__sparse_slot(set, index)) continue;
        if (c->size == 0) {
            value = cJSON_CreateTrue();
        } else if (!ecs_sched__description_of(w, set->id)) {
            return ecs_sched__save_fail(s, e, "its component '%s' has no description, so its "
                                              "value cannot be written (ecs_sched_describe)", c->name);
        } else {
            value = ecs_sched__json_of_struct(
                s, set->id, (const unsigned char *)ecs_sched__sparse_value(w, set->id, index));
        }
        if (!value || !cJSON_AddItemToObject(components, c->name, value)) {
            cJSON_Delete(value);
            return ecs_sched__out_of_memory(w, "saving JSON");
        }
    }
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__save_entity(ecs_sched__json_save *s, ecs_sched_entity e,
                                               cJSON *array) {
    ecs_sched_world *w = s->world;
    ecs_sched_result result;
    const ecs_sched__record *r = &w->records[ECS_SCHED_ENTITY_INDEX(e)];
    const ecs_sched__table *t = w->tables[r->table];
    cJSON *out = cJSON_CreateObject(), *components;
    const char *name = ecs_sched__entity_name_of(w, e);
    ecs_sched_entity parent = ecs_sched_parent_of(w, e);
    int32_t k;
    if (!out || !cJSON_AddItemToArray(array, out)) {
        cJSON_Delete(out);
        return ecs_sched__out_of_memory(w, "saving JSON");
    }
    if (name && !cJSON_AddStringToObject(out, "name", name)) return ecs_sched__out_of_memory(w, "saving JSON");
    if (parent && s->entry_of[ECS_SCHED_ENTITY_INDEX(parent)] >= 0 &&
        !cJSON_AddNumberToObject(out, "parent", (double)s->entry_of[ECS_SCHED_ENTITY_INDEX(parent)])) {
        return ecs_sched__out_of_memory(w, "saving JSON");
    }
    components = cJSON_AddObjectToObject(out, "components");
    if (!components) return ecs_sched__out_of_memory(w, "saving JSON");
    for (k = 0; k < t->type_count; k++) {
        ecs_sched_id id = t->type[k];
        const ecs_sched__component *c = &w->components[id];
        cJSON *value;
        if (c->relation || ecs_sched__mark_base(w, id)) continue;
        if (c->size == 0) {
            value = cJSON_CreateTrue();
        } else if (!ecs_sched__description_of(w, id)) {
            return ecs_sched__save_fail(s, e, "its component '%s' has no description, so its "
                                              "value cannot be written (ecs_sched_describe)", c->name);
        } else {
            value = ecs_sched__json_of_struct(s, id, (const unsigned char *)ecs_sched__cell(
                                                         t, ecs_sched__column_find(t, id), r->row));
        }
        if (!value || !cJSON_AddItemToObject(components, c->name, value)) {
            cJSON_Delete(value);
            return ecs_sched__out_of_memory(w, "saving JSON");
        }
    }
    result = w->sparse_count ? ecs_sched__save_sparse(s, e, components) : ECS_SCHED_OK;
    return result != ECS_SCHED_OK ? result : ecs_sched__save_relations(s, e, t, out);
}

char *ecs_sched_json_save(ecs_sched_world *w, int32_t count, const ecs_sched_entity *entities,
                          bool descendants) {
    ecs_sched__json_save s;
    ecs_sched_result result = ECS_SCHED_OK;
    cJSON *root = NULL, *array;
    char *text = NULL;
    uint32_t i;
    int32_t k;
    ECS_SCHED__CHECK_WORLD(w);
    memset(&s, 0, sizeof s);
    s.world = w;
    s.entry_of = (int32_t *)ecs_sched__alloc(&w->env, (w->record_count + 1) * sizeof *s.entry_of);
    if (!s.entry_of) {
        ecs_sched__out_of_memory(w, "saving JSON");
        return NULL;
    }
    for (i = 0; i <= w->record_count; i++) s.entry_of[i] = -1;
    for (k = 0; entities && k < count; k++) {
        if (!ecs_sched__is_live_record(w, entities[k])) {
            result = ecs_sched__stale(w, entities[k], "json_save");
            break;
        }
        if (!ecs_sched__save_add(&s, entities[k], descendants)) result = ecs_sched__out_of_memory(w, "saving JSON");
    }
    for (i = 1; !entities && result == ECS_SCHED_OK && i < w->record_count; i++) {
        ecs_sched_entity e = ecs_sched__make_entity(i, w->records[i].generation);
        if (!ecs_sched__is_live_record(w, e) || ecs_sched_parent_of(w, e)) continue;
        if (!ecs_sched__save_add(&s, e, true)) result = ecs_sched__out_of_memory(w, "saving JSON");
    }
    if (result == ECS_SCHED_OK) {
        root = cJSON_CreateObject();
        array = root ? cJSON_AddArrayToObject(root, "entities") : NULL;
        if (!array) result = ecs_sched__out_of_memory(w, "saving JSON");
        for (k = 0; result == ECS_SCHED_OK && k < s.count; k++) {
            result = ecs_sched__save_entity(&s, s.order[k], array);
        }
    }
    if (result == ECS_SCHED_OK) {
        text = cJSON_Print(root);
        if (!text) ecs_sched__out_of_memory(w, "saving JSON");
    }
    cJSON_Delete(root);
    ecs_sched__free(&w->env, s.order);
    ecs_sched__free(&w->env, s.entry_of);
    return text;
}

void ecs_sched_json_free(char *text) {
    if (text) cJSON_free(text);
}

#ifdef ECS_SCHED_REMOTE   /* (its only user) */
/* ---- values alone ----

   One value of a described component, outside any file, for the remote protocol (remote.h):
   entity members are handles (their 64-bit number, as Bevy's remote protocol spells an
   entity), not indices of a file's entities. */

/* The value of `item` written into `value` (constructed by the caller: members left out keep
   what it holds). Fails, with the last error naming `source` (where the value comes from), the
   component and the member, for what a file's value would fail for. */
static ecs_sched_result ecs_sched__json_value_read(ecs_sched_world *w, ecs_sched_id id,
                                                   const cJSON *item, const char *source,
                                                   void *value) {
    ecs_sched__json_load l;
    ecs_sched__json_value v;
    ecs_sched_result result;
    memset(&l, 0, sizeof l);
    l.world = w;
    l.files[0] = source;
    l.depth = 1;
    l.entity = -1;
    l.component = id;
    result = ecs_sched__json_check_item(&l, item, NULL);
    if (result != ECS_SCHED_OK) return result;
    if (!cJSON_IsObject(item)) {
        return ecs_sched__json_fail(&l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                    "a value is an object of its members");
    }
    if (item->child && !ecs_sched__description_of(w, id)) {
        return ecs_sched__json_fail(&l, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                    "the component has no description, so its members cannot be "
                                    "read (ecs_sched_describe)");
    }
    memset(&v, 0, sizeof v);
    v.load = &l;
    v.id = id;
    v.value = (unsigned char *)value;
    v.handles = true;
    return ecs_sched__json_struct(&v, id, item, NULL, (unsigned char *)value);
}

/* The value as JSON (cJSON's, the caller deletes it), or NULL when out of memory. The
   component must be described (or have no members to write). */
static cJSON *ecs_sched__json_value_write(ecs_sched_world *w, ecs_sched_id id, const void *value) {
    ecs_sched__json_save s;
    memset(&s, 0, sizeof s);
    s.world = w;
    s.handles = true;
    return ecs_sched__json_of_struct(&s, id, (const unsigned char *)value);
}
#endif /* ECS_SCHED_REMOTE */

#endif /* ECS_SCHED_JSON */
