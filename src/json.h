/* json: the JSON files (cJSON), when ECS_SCHED_JSON is defined: a load's options and hooks,
   reading files, and a component's value read from JSON (json_load reads a file's entities,
   json_save writes them). */
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
        if (cJSON_IsRaw(item)) {   /* a double as json_save writes it, read back by the remote */
            stored = ecs_sched__store_number(f, p, strtod(item->valuestring, NULL));
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

#endif /* ECS_SCHED_JSON */
