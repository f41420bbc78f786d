/* script: language drivers, when ECS_SCHED_SCRIPTS is defined (ECS_SCHED_NATIVE_SCRIPTS and
   ECS_SCHED_LUA define it). The library knows no language: a driver does, and the world keeps
   the scripts it loaded, what each declared (systems, observers), and the version of each
   that runs; a reload replaces one script's declarations and nothing else. */
#pragma once
#include "transition.h"

#ifdef ECS_SCHED_SCRIPTS

/* ---- drivers ----

   A driver runs the scripts of one language. What it loads is a version of a script: the
   driver's own state for one reading of the file (a Lua chunk and its functions, a shared
   library). The world calls:
     load     to read the file into a new version (compile it, run its top level); NULL on
              failure, after ecs_sched_script_fail says why (file, line);
     declare  to declare what a version defines, through ecs_sched_script_add_system and
              _add_observer: at the first load, after each reload, and again for the version
              that ran before when a reload fails (so it must be callable more than once);
     run      to run one of a version's systems or observers (`index` is the one it gave when
              declaring it; trigger is NULL for a system); not called for a declaration that
              gave its own fn (a native function);
     unload   to free a version: replaced by a successful reload, given up after a failed one,
              or its script unloaded;
     destroy  (optional) when the world goes, after every version is unloaded;
     commit   (optional) once a version has loaded, declared and its schedules built, before
              the version it replaces is unloaded: what the driver held back until the load
              could no longer fail (a script's component that changed its layout is migrated
              then). A failure is a failed load or reload: the version's declarations are
              taken out and the version before is declared again.
   Each receives the driver's user_data. */
typedef struct ecs_sched_script ecs_sched_script;

typedef struct ecs_sched_script_driver {
    const char *name;            /* required: "lua", "native" */
    const char *extensions;      /* required: the file endings it runs, ".lua" or ".so .dylib" */
    void *user_data;
    void *(*load)(ecs_sched_script *script, const char *path, void *user_data);
    ecs_sched_result (*declare)(ecs_sched_script *script, void *version, void *user_data);
    void (*run)(void *version, int32_t index, ecs_sched_system_ctx *ctx,
                const ecs_sched_trigger *trigger, void *user_data);
    void (*unload)(void *version, void *user_data);
    void (*destroy)(void *user_data);
    ecs_sched_result (*commit)(ecs_sched_script *script, void *version, void *user_data);
} ecs_sched_script_driver;

/* Adds a driver to the world (copied). A name or an ending another driver has is refused. */
ECS_SCHED_API ecs_sched_result ecs_sched_script_driver_add(ecs_sched_world *world,
                                                           const ecs_sched_script_driver *driver);

/* ---- scripts ---- */

/* Loads the script at `path` with the driver of its ending and declares what it defines;
   NULL on failure (ECS_SCHED_ERR_SCRIPT with the driver's message; nothing it declared
   stays). A path loaded already is that script. */
ECS_SCHED_API ecs_sched_script *ecs_sched_script_load(ecs_sched_world *world, const char *path);
/* Reads the script's file again and replaces what it declared with what the new version
   declares; the schedules it adds to are rebuilt at once. On any failure (the file does not
   load, a declaration is refused, a schedule does not build) the version before runs on as
   it was and the failure is returned. Between schedule runs only
   (ECS_SCHED_ERR_SCHEDULE_RUNNING), and not from inside an observer (ECS_SCHED_ERR_ACCESS). */
ECS_SCHED_API ecs_sched_result ecs_sched_script_reload(ecs_sched_world *world,
                                                       ecs_sched_script *script);
/* Takes out what the script declared and frees it. Between schedule runs only. */
ECS_SCHED_API ecs_sched_result ecs_sched_script_unload(ecs_sched_world *world,
                                                       ecs_sched_script *script);
/* Reloads each script whose file changed since it was read (time, size or file); returns how
   many were reloaded. A reload that fails is logged and counted out; the file is tried again
   when it changes again. An app with watch_scripts calls it before each frame. */
ECS_SCHED_API int32_t ecs_sched_scripts_poll(ecs_sched_world *world);
ECS_SCHED_API ecs_sched_script *ecs_sched_script_find(ecs_sched_world *world, const char *path);
ECS_SCHED_API const char *ecs_sched_script_path(const ecs_sched_script *script);
ECS_SCHED_API ecs_sched_world *ecs_sched_script_world(const ecs_sched_script *script);
/* 1 once loaded, one more for each successful reload. */
ECS_SCHED_API int32_t ecs_sched_script_version(const ecs_sched_script *script);

/* ---- what a script declares (from a driver's declare) ----

   A system added through a script is an ordinary system of its schedule (its name, queries,
   resources, sets, orderings and conditions are judged as any other's), and belongs to the
   script: a reload takes it out. Its fn may be given (a native function, called directly);
   without one the driver's run is called with `index`. Inside the call, ecs_sched_ctx_user_data
   is the desc's user_data, as for any system. Returns ECS_SCHED_OK or the failure of
   ecs_sched_add_system. */
ECS_SCHED_API ecs_sched_result ecs_sched_script_add_system(ecs_sched_script *script,
                                                           const char *schedule,
                                                           const ecs_sched_system_desc *desc,
                                                           int32_t index);
/* The same for an observer; returns its id, or 0. */
ECS_SCHED_API uint32_t ecs_sched_script_add_observer(ecs_sched_script *script,
                                                     const ecs_sched_observer_desc *desc,
                                                     int32_t index);
/* A driver's failure: the world's last error becomes ECS_SCHED_ERR_SCRIPT with "script
   '<path>': " and the message (write where: the file and line). Returns the code. */
ECS_SCHED_API ecs_sched_result ecs_sched_script_fail(ecs_sched_script *script, const char *format,
                                                     ...) ECS_SCHED__PRINTF(2, 3);

#ifndef ECS_SCHED_NO_REFLECT
/* ---- a script's component with a new layout ----

   A component a script defines (registered with .scripted, as drivers do) may change its
   layout when the script is reloaded: ecs_sched_component_migrate gives it its new size,
   alignment and members, and converts every value the world holds of it (in each table
   holding it, prefabs' included, in its sparse set, as a resource) with `convert`, which
   reads a value in the old layout (src) and writes it in the new one (dst, zeroed first).
   With convert NULL the values are converted by member name: a member of the same name and
   type keeps its value, a new member is zero, a member that went is gone; a member of the
   same name and another type is refused (ECS_SCHED_ERR_COMPONENT_MISMATCH, naming it and both
   types). All or nothing: the new blocks are made before the world takes any of them; change
   ticks stay. Refused (ECS_SCHED_ERR_REFUSED) for a component no script defined (a C type's
   layout is the compiler's), one with hooks, and while a command buffer (a delayed one
   included) holds a value of it not applied yet; between schedule runs only. A snapshot
   taken before is refused by ecs_sched_snapshot_restore, and prefab data holding a value of a
   script's component set before by ecs_sched_prefab_data_instantiate (set it again). */
typedef void (*ecs_sched_convert_fn)(void *dst, const void *src, void *user_data);

ECS_SCHED_API ecs_sched_result ecs_sched_component_migrate(ecs_sched_world *world, ecs_sched_id id,
                                                           size_t size, size_t alignment,
                                                           int32_t member_count,
                                                           const ecs_sched_member *members,
                                                           ecs_sched_convert_fn convert,
                                                           void *user_data);
#endif /* ECS_SCHED_NO_REFLECT */

#endif /* ECS_SCHED_SCRIPTS */

/*@@ implementation @@*/
/* script: the drivers a world has, its scripts, and each script's declarations: the systems
   and observers of the version that runs. */

#ifdef ECS_SCHED_SCRIPTS

#include <sys/stat.h>

/* One declaration: a system (in schedule `label`) or an observer. While it runs, its
   context's user_data is this record, for the call to find the driver. */
typedef struct ecs_sched__script_decl {
    ecs_sched_script *script;
    char *label;                     /* a system's schedule; NULL for an observer */
    uint32_t observer;               /* an observer's id */
    int32_t index;                   /* the driver's number for it */
    ecs_sched_system_fn fn;          /* a system's own function, or NULL: the driver's run */
    ecs_sched_observer_fn observer_fn;
    void *user_data;                 /* the desc's */
} ecs_sched__script_decl;

/* What tells a file was written: what stat says, and a hash of the contents, read only while
   the file's time is recent (within ECS_SCHED__STAMP_RECENT seconds of now), as a file
   written twice within one tick of its clock (a second, on many systems) keeps its time. */
typedef struct ecs_sched__file_stamp {
    int64_t seconds, nanoseconds, size;
    uint64_t inode;
    uint64_t hash;                   /* 0: not read */
} ecs_sched__file_stamp;

#define ECS_SCHED__STAMP_RECENT 2

struct ecs_sched_script {
    ecs_sched_world *world;
    char *path;
    int32_t driver;
    void *version;                   /* the driver's: what runs */
    int32_t number;                  /* ecs_sched_script_version */
    ecs_sched__script_decl **decls;  /* the running version's declarations */
    int32_t decl_count;
    uint32_t decl_capacity;
    ecs_sched__file_stamp stamp;     /* of the file the version was read from */
    ecs_sched__file_stamp failed;    /* of a file whose reload failed: not tried again */
};

typedef struct ecs_sched__scripts {
    ecs_sched_script_driver *drivers;
    int32_t driver_count;
    uint32_t driver_capacity;
    ecs_sched_script **items;
    int32_t count;
    uint32_t capacity;
} ecs_sched__scripts;

static ecs_sched__part_key ecs_sched__scripts_key;

static ecs_sched__scripts *ecs_sched__scripts_of(const ecs_sched_world *w) {
    return (ecs_sched__scripts *)ecs_sched__part(w, &ecs_sched__scripts_key);
}

static ecs_sched__scripts *ecs_sched__scripts_reserve(ecs_sched_world *w) {
    ecs_sched__scripts *all = ecs_sched__scripts_of(w);
    if (all) return all;
    all = (ecs_sched__scripts *)ecs_sched__alloc(&w->env, sizeof *all);
    if (!all) return NULL;
    memset(all, 0, sizeof *all);
    ecs_sched__part_set(w, &ecs_sched__scripts_key, all);
    return all;
}

/* FNV-1a over the file's bytes (never 0); 0 when it cannot be read. */
static uint64_t ecs_sched__file_hash(const char *path) {
    unsigned char block[8192];
    uint64_t hash = 14695981039346656037ull;
    size_t n, i;
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    while ((n = fread(block, 1, sizeof block, f)) > 0) {
        for (i = 0; i < n; i++) hash = (hash ^ block[i]) * 1099511628211ull;
    }
    fclose(f);
    return hash ? hash : 1;
}

static bool ecs_sched__file_stamp_of(const char *path, ecs_sched__file_stamp *stamp) {
    struct stat info;
    memset(stamp, 0, sizeof *stamp);
    if (stat(path, &info) != 0) return false;
    stamp->seconds = (int64_t)info.st_mtime;
#if defined(__linux__) && defined(_POSIX_C_SOURCE) && _POSIX_C_SOURCE >= 200809L
    stamp->nanoseconds = (int64_t)info.st_mtim.tv_nsec;
#endif
    stamp->size = (int64_t)info.st_size;
    stamp->inode = (uint64_t)info.st_ino;
    if ((int64_t)time(NULL) - stamp->seconds <= ECS_SCHED__STAMP_RECENT) {
        stamp->hash = ecs_sched__file_hash(path);
    }
    return true;
}

/* Whether `now` is the file `then` was taken of, unchanged: the same stat, and the same
   contents where both were read. */
static bool ecs_sched__file_stamps_equal(const ecs_sched__file_stamp *now,
                                         const ecs_sched__file_stamp *then) {
    return now->seconds == then->seconds && now->nanoseconds == then->nanoseconds &&
           now->size == then->size && now->inode == then->inode &&
           (!now->hash || !then->hash || now->hash == then->hash);
}

/* ---- drivers ---- */

/* Whether the space-separated list `endings` has `ending` (of length n). */
static bool ecs_sched__endings_have(const char *endings, const char *ending, size_t n) {
    const char *at = endings;
    while (*at) {
        size_t length;
        while (*at == ' ') at++;
        length = strcspn(at, " ");
        if (length == n && length > 0 && strncmp(at, ending, n) == 0) return true;
        at += length;
    }
    return false;
}

static int32_t ecs_sched__driver_of_path(const ecs_sched__scripts *all, const char *path) {
    size_t length = strlen(path);
    int32_t i;
    for (i = 0; all && i < all->driver_count; i++) {
        const char *at = all->drivers[i].extensions;
        while (*at) {
            size_t n;
            while (*at == ' ') at++;
            n = strcspn(at, " ");
            if (n > 0 && n <= length && strncmp(path + length - n, at, n) == 0) return i;
            at += n;
        }
    }
    return -1;
}

static ecs_sched_result ecs_sched__driver_check(ecs_sched_world *w, const ecs_sched__scripts *all,
                                                const ecs_sched_script_driver *d) {
    int32_t i;
    if (!d || !d->name || !d->name[0] || !d->extensions || !d->extensions[0] || !d->load ||
        !d->declare || !d->unload) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "script_driver_add: a driver needs a name, its file endings, "
                               "load, declare and unload");
    }
    for (i = 0; all && i < all->driver_count; i++) {
        const ecs_sched_script_driver *other = &all->drivers[i];
        const char *at = d->extensions;
        if (strcmp(other->name, d->name) == 0) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "script_driver_add: the world has a driver named '%s' "
                                   "already", d->name);
        }
        while (*at) {
            size_t n;
            while (*at == ' ') at++;
            n = strcspn(at, " ");
            if (n > 0 && ecs_sched__endings_have(other->extensions, at, n)) {
                return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                       "script_driver_add: driver '%s' runs the files ending "
                                       "in '%.*s', which driver '%s' runs already",
                                       d->name, (int)n, at, other->name);
            }
            at += n;
        }
    }
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_script_driver_add(ecs_sched_world *w,
                                             const ecs_sched_script_driver *d) {
    ecs_sched__scripts *all;
    ecs_sched_script_driver *copy;
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    all = ecs_sched__scripts_of(w);
    result = ecs_sched__driver_check(w, all, d);
    if (result != ECS_SCHED_OK) return result;
    if (!(all = ecs_sched__scripts_reserve(w)) ||
        !ECS_SCHED__GROW(&w->env, all->drivers, &all->driver_capacity, (uint32_t)all->driver_count + 1)) {
        return ecs_sched__out_of_memory(w, "adding a script driver");
    }
    copy = &all->drivers[all->driver_count];
    *copy = *d;
    copy->name = ecs_sched__strdup(&w->env, d->name);
    copy->extensions = ecs_sched__strdup(&w->env, d->extensions);
    if (!copy->name || !copy->extensions) {
        ecs_sched__free(&w->env, (void *)(uintptr_t)copy->name);
        ecs_sched__free(&w->env, (void *)(uintptr_t)copy->extensions);
        return ecs_sched__out_of_memory(w, "adding a script driver");
    }
    all->driver_count++;
    return ECS_SCHED_OK;
}

static const ecs_sched_script_driver *ecs_sched__driver_of(const ecs_sched_script *script) {
    return &ecs_sched__scripts_of(script->world)->drivers[script->driver];
}

/* ---- declarations ---- */

/* The calls a script's systems and observers are made through: the record is their
   context's user_data, and the desc's is put back around the call. */
static void ecs_sched__script_system(ecs_sched_system_ctx *ctx) {
    ecs_sched__script_decl *decl = (ecs_sched__script_decl *)ctx->user_data;
    const ecs_sched_script_driver *driver = ecs_sched__driver_of(decl->script);
    ctx->user_data = decl->user_data;
    if (decl->fn) decl->fn(ctx);
    else driver->run(decl->script->version, decl->index, ctx, NULL, driver->user_data);
    ctx->user_data = decl;
}

static void ecs_sched__script_observer(ecs_sched_system_ctx *ctx,
                                       const ecs_sched_trigger *trigger) {
    ecs_sched__script_decl *decl = (ecs_sched__script_decl *)ctx->user_data;
    const ecs_sched_script_driver *driver = ecs_sched__driver_of(decl->script);
    ctx->user_data = decl->user_data;
    if (decl->observer_fn) decl->observer_fn(ctx, trigger);
    else driver->run(decl->script->version, decl->index, ctx, trigger, driver->user_data);
    ctx->user_data = decl;
}

static ecs_sched__script_decl *ecs_sched__decl_new(ecs_sched_script *script, int32_t index,
                                                   void *user_data) {
    ecs_sched_world *w = script->world;
    ecs_sched__script_decl *decl;
    if (!ECS_SCHED__GROW(&w->env, script->decls, &script->decl_capacity,
                         (uint32_t)script->decl_count + 1) ||
        !(decl = (ecs_sched__script_decl *)ecs_sched__alloc(&w->env, sizeof *decl))) {
        ecs_sched__out_of_memory(w, "declaring a script's system");
        return NULL;
    }
    memset(decl, 0, sizeof *decl);
    decl->script = script;
    decl->index = index;
    decl->user_data = user_data;
    script->decls[script->decl_count++] = decl;
    return decl;
}

static void ecs_sched__decl_drop_last(ecs_sched_script *script) {
    ecs_sched__script_decl *decl = script->decls[--script->decl_count];
    ecs_sched__free(&script->world->env, decl->label);
    ecs_sched__free(&script->world->env, decl);
}

ecs_sched_result ecs_sched_script_add_system(ecs_sched_script *script, const char *label,
                                             const ecs_sched_system_desc *desc, int32_t index) {
    ecs_sched_world *w;
    ecs_sched__script_decl *decl;
    ecs_sched_system_desc d;
    ecs_sched_result result;
    if (!script || !desc) return ECS_SCHED_ERR_INVALID_ARGUMENT;
    w = script->world;
    if (!(decl = ecs_sched__decl_new(script, index, desc->user_data))) return w->env.last_result;
    decl->fn = desc->fn;
    if (!(decl->label = ecs_sched__strdup(&w->env, label ? label : ""))) {
        ecs_sched__decl_drop_last(script);
        return ecs_sched__out_of_memory(w, "declaring a script's system");
    }
    d = *desc;
    d.fn = ecs_sched__script_system;
    d.user_data = decl;
    result = ecs_sched_add_system(w, label, &d);
    if (result != ECS_SCHED_OK) ecs_sched__decl_drop_last(script);
    return result;
}

uint32_t ecs_sched_script_add_observer(ecs_sched_script *script,
                                       const ecs_sched_observer_desc *desc, int32_t index) {
    ecs_sched__script_decl *decl;
    ecs_sched_observer_desc d;
    uint32_t observer;
    if (!script || !desc) return 0;
    if (!(decl = ecs_sched__decl_new(script, index, desc->user_data))) return 0;
    decl->observer_fn = desc->fn;
    d = *desc;
    d.fn = ecs_sched__script_observer;
    d.user_data = decl;
    observer = decl->observer = ecs_sched_observer_add(script->world, &d);
    if (!observer) ecs_sched__decl_drop_last(script);   /* (frees decl) */
    return observer;
}

ecs_sched_result ecs_sched_script_fail(ecs_sched_script *script, const char *format, ...) {
    char message[ECS_SCHED__ERROR_CAPACITY];
    va_list args;
    if (!script) return ECS_SCHED_ERR_INVALID_ARGUMENT;
    va_start(args, format);
    vsnprintf(message, sizeof message, format ? format : "failed", args);
    va_end(args);
    return ecs_sched__fail(&script->world->env, ECS_SCHED_ERR_SCRIPT, "script '%s': %s",
                           script->path, message);
}

/* ---- taking declarations out ---- */

static bool ecs_sched__system_of_decls(const ecs_sched__system *sys, const void *data) {
    const ecs_sched_script *script = (const ecs_sched_script *)data;
    const ecs_sched__script_decl *decl;
    int32_t i;
    if (sys->fn != ecs_sched__script_system) return false;
    decl = (const ecs_sched__script_decl *)sys->ctx.user_data;
    for (i = 0; i < script->decl_count; i++) {
        if (script->decls[i] == decl) return true;
    }
    return false;
}

/* Takes out every system and observer the script's decls hold, and frees the decls. */
static void ecs_sched__script_undeclare(ecs_sched_script *script) {
    ecs_sched_world *w = script->world;
    int32_t i;
    for (i = 0; i < script->decl_count; i++) {
        ecs_sched__script_decl *decl = script->decls[i];
        ecs_sched__schedule *s;
        if (decl->observer) {
            (void)ecs_sched_observer_remove(w, decl->observer);
            continue;
        }
        s = ecs_sched__schedule_find(w, decl->label);
        if (s) (void)ecs_sched__remove_systems_if(w, s, ecs_sched__system_of_decls, script);
    }
    while (script->decl_count > 0) ecs_sched__decl_drop_last(script);
}

/* Declares what `version` defines and builds the schedules it added to; on failure takes
   out what it declared. */
static ecs_sched_result ecs_sched__script_declare(ecs_sched_script *script, void *version) {
    const ecs_sched_script_driver *driver = ecs_sched__driver_of(script);
    ecs_sched_world *w = script->world;
    ecs_sched_result result;
    int32_t i;
    void *running = script->version;
    script->version = version;
    result = driver->declare(script, version, driver->user_data);
    for (i = 0; i < script->decl_count && result == ECS_SCHED_OK; i++) {
        const char *label = script->decls[i]->label;
        if (label) result = ecs_sched_schedule_build(w, label);
    }
    if (result != ECS_SCHED_OK) {
        char message[ECS_SCHED__ERROR_CAPACITY];
        snprintf(message, sizeof message, "%s", ecs_sched_last_error(w));
        ecs_sched__script_undeclare(script);
        script->version = running;
        if (result == ECS_SCHED_ERR_SCRIPT) return ecs_sched__fail(&w->env, result, "%s", message);
        return ecs_sched__fail(&w->env, result, "script '%s': %s", script->path, message);
    }
    return ECS_SCHED_OK;
}

/* The driver's commit of `version`, declared already; on failure its declarations are
   taken out, as a failed declare's. */
static ecs_sched_result ecs_sched__script_commit(ecs_sched_script *script, void *version,
                                                 void *running) {
    const ecs_sched_script_driver *driver = ecs_sched__driver_of(script);
    ecs_sched_world *w = script->world;
    ecs_sched_result result;
    char message[ECS_SCHED__ERROR_CAPACITY];
    if (!driver->commit) return ECS_SCHED_OK;
    result = driver->commit(script, version, driver->user_data);
    if (result == ECS_SCHED_OK) return result;
    snprintf(message, sizeof message, "%s", ecs_sched_last_error(w));
    ecs_sched__script_undeclare(script);
    script->version = running;
    if (result == ECS_SCHED_ERR_SCRIPT) return ecs_sched__fail(&w->env, result, "%s", message);
    return ecs_sched__fail(&w->env, result, "script '%s': %s", script->path, message);
}

/* Refuses changes to the schedules while one runs, and to the observers while one is called
   (the calls under way hold the declarations). */
static ecs_sched_result ecs_sched__scripts_settled(ecs_sched_world *w, const char *what,
                                                   const char *path) {
    const ecs_sched__schedules *schedules = ecs_sched__schedules_of(w);
    const ecs_sched__observers *observers = ecs_sched__observers_of(w);
    if (observers && observers->dispatching > 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_ACCESS,
                               "%s: script '%s' cannot change its systems and observers from "
                               "inside an observer; do it between schedule runs", what, path);
    }
    if (schedules && schedules->depth > 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_SCHEDULE_RUNNING,
                               "%s: script '%s' cannot change its systems while schedule '%s' "
                               "runs; do it between runs (ecs_sched_scripts_poll does)",
                               what, path, schedules->stack[schedules->depth - 1]->label);
    }
    return ECS_SCHED_OK;
}

/* ---- loading ---- */

static void ecs_sched__script_free(ecs_sched_script *script) {
    ecs_sched__env *env = &script->world->env;
    ecs_sched__free(env, script->decls);
    ecs_sched__free(env, script->path);
    ecs_sched__free(env, script);
}

ecs_sched_script *ecs_sched_script_find(ecs_sched_world *w, const char *path) {
    const ecs_sched__scripts *all;
    int32_t i;
    ECS_SCHED__CHECK_WORLD(w);
    all = ecs_sched__scripts_of(w);
    for (i = 0; path && all && i < all->count; i++) {
        if (strcmp(all->items[i]->path, path) == 0) return all->items[i];
    }
    return NULL;
}

static ecs_sched_script *ecs_sched__script_new(ecs_sched_world *w, ecs_sched__scripts *all,
                                               const char *path, int32_t driver) {
    ecs_sched_script *script;
    if (!ECS_SCHED__GROW(&w->env, all->items, &all->capacity, (uint32_t)all->count + 1) ||
        !(script = (ecs_sched_script *)ecs_sched__alloc(&w->env, sizeof *script))) {
        ecs_sched__out_of_memory(w, "loading a script");
        return NULL;
    }
    memset(script, 0, sizeof *script);
    script->world = w;
    script->driver = driver;
    if (!(script->path = ecs_sched__strdup(&w->env, path))) {
        ecs_sched__free(&w->env, script);
        ecs_sched__out_of_memory(w, "loading a script");
        return NULL;
    }
    return script;
}

ecs_sched_script *ecs_sched_script_load(ecs_sched_world *w, const char *path) {
    ecs_sched__scripts *all;
    ecs_sched_script *script;
    const ecs_sched_script_driver *driver;
    int32_t d;
    void *version;
    ECS_SCHED__CHECK_WORLD(w);
    if (!path || !path[0]) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT, "script_load: give a path");
        return NULL;
    }
    if ((script = ecs_sched_script_find(w, path)) != NULL) return script;
    all = ecs_sched__scripts_of(w);
    if ((d = ecs_sched__driver_of_path(all, path)) < 0) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_NOT_FOUND,
                        "script_load: no driver of this world runs '%s' (add one with "
                        "ecs_sched_script_driver_add: its extensions name the endings it runs)",
                        path);
        return NULL;
    }
    if (ecs_sched__scripts_settled(w, "script_load", path) != ECS_SCHED_OK ||
        !(script = ecs_sched__script_new(w, all, path, d))) {
        return NULL;
    }
    driver = &all->drivers[d];
    (void)ecs_sched__file_stamp_of(path, &script->stamp);
    all->items[all->count++] = script;   /* found by its path while it declares */
    if (!(version = driver->load(script, path, driver->user_data)) ||
        ecs_sched__script_declare(script, version) != ECS_SCHED_OK ||
        ecs_sched__script_commit(script, version, NULL) != ECS_SCHED_OK) {
        if (version) driver->unload(version, driver->user_data);
        if (w->env.last_result == ECS_SCHED_OK) {
            ecs_sched_script_fail(script, "the %s driver could not load it", driver->name);
        }
        all->count--;
        ecs_sched__script_free(script);
        return NULL;
    }
    script->version = version;
    script->number = 1;
    return script;
}

ecs_sched_result ecs_sched_script_reload(ecs_sched_world *w, ecs_sched_script *script) {
    const ecs_sched_script_driver *driver;
    ecs_sched__file_stamp stamp;
    ecs_sched_result result;
    void *version, *running;
    ECS_SCHED__CHECK_WORLD(w);
    if (!script || script->world != w) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "script_reload: not a script of this world");
    }
    result = ecs_sched__scripts_settled(w, "script_reload", script->path);
    if (result != ECS_SCHED_OK) return result;
    driver = ecs_sched__driver_of(script);
    (void)ecs_sched__file_stamp_of(script->path, &stamp);
    if (!(version = driver->load(script, script->path, driver->user_data))) {
        script->failed = stamp;
        if (w->env.last_result == ECS_SCHED_OK) {
            return ecs_sched_script_fail(script, "the %s driver could not load it", driver->name);
        }
        return w->env.last_result;
    }
    running = script->version;
    ecs_sched__script_undeclare(script);
    result = ecs_sched__script_declare(script, version);
    if (result == ECS_SCHED_OK) result = ecs_sched__script_commit(script, version, running);
    if (result != ECS_SCHED_OK) {
        char message[ECS_SCHED__ERROR_CAPACITY];
        snprintf(message, sizeof message, "%s", ecs_sched_last_error(w));
        driver->unload(version, driver->user_data);
        script->failed = stamp;
        if (ecs_sched__script_declare(script, running) != ECS_SCHED_OK) {
            char again[ECS_SCHED__ERROR_CAPACITY];
            snprintf(again, sizeof again, "script '%.200s': the version that ran before the "
                     "failed reload could not be declared again: %.200s", script->path,
                     ecs_sched_last_error(w));
            ecs_sched__log(&w->env, ECS_SCHED_LOG_ERROR, ECS_SCHED_ERR_SCRIPT, again);
        }
        return ecs_sched__fail(&w->env, result, "%s (the version before runs on)", message);
    }
    driver->unload(running, driver->user_data);
    script->stamp = stamp;
    script->number++;
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_script_unload(ecs_sched_world *w, ecs_sched_script *script) {
    ecs_sched__scripts *all;
    const ecs_sched_script_driver *driver;
    ecs_sched_result result;
    int32_t i;
    ECS_SCHED__CHECK_WORLD(w);
    all = ecs_sched__scripts_of(w);
    for (i = 0; all && i < all->count && all->items[i] != script; i++) {}
    if (!script || !all || i == all->count) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "script_unload: not a script of this world (unloaded already?)");
    }
    result = ecs_sched__scripts_settled(w, "script_unload", script->path);
    if (result != ECS_SCHED_OK) return result;
    driver = &all->drivers[script->driver];
    ecs_sched__script_undeclare(script);
    driver->unload(script->version, driver->user_data);
    memmove(&all->items[i], &all->items[i + 1], (size_t)(all->count - i - 1) * sizeof *all->items);
    all->count--;
    ecs_sched__script_free(script);
    return ECS_SCHED_OK;
}

int32_t ecs_sched_scripts_poll(ecs_sched_world *w) {
    ecs_sched__scripts *all;
    int32_t i, reloaded = 0;
    ECS_SCHED__CHECK_WORLD(w);
    all = ecs_sched__scripts_of(w);
    for (i = 0; all && i < all->count; i++) {
        ecs_sched_script *script = all->items[i];
        ecs_sched__file_stamp now;
        if (!ecs_sched__file_stamp_of(script->path, &now) ||
            ecs_sched__file_stamps_equal(&now, &script->stamp) ||
            ecs_sched__file_stamps_equal(&now, &script->failed)) {
            continue;
        }
        if (ecs_sched_script_reload(w, script) == ECS_SCHED_OK) {
            reloaded++;
        } else {
            ecs_sched__log(&w->env, ECS_SCHED_LOG_ERROR, w->env.last_result,
                           ecs_sched_last_error(w));
        }
    }
    return reloaded;
}

const char *ecs_sched_script_path(const ecs_sched_script *script) {
    return script ? script->path : NULL;
}

ecs_sched_world *ecs_sched_script_world(const ecs_sched_script *script) {
    return script ? script->world : NULL;
}

int32_t ecs_sched_script_version(const ecs_sched_script *script) {
    return script ? script->number : 0;
}

/* When the world goes (world.h): every version unloaded, then the drivers. */
static void ecs_sched__scripts_free(ecs_sched_world *w) {
    ecs_sched__scripts *all = ecs_sched__scripts_of(w);
    int32_t i;
    if (!all) return;
    for (i = 0; i < all->count; i++) {
        ecs_sched_script *script = all->items[i];
        const ecs_sched_script_driver *driver = &all->drivers[script->driver];
        while (script->decl_count > 0) ecs_sched__decl_drop_last(script);
        driver->unload(script->version, driver->user_data);
        ecs_sched__script_free(script);
    }
    for (i = 0; i < all->driver_count; i++) {
        ecs_sched_script_driver *driver = &all->drivers[i];
        if (driver->destroy) driver->destroy(driver->user_data);
        ecs_sched__free(&w->env, (void *)(uintptr_t)driver->name);
        ecs_sched__free(&w->env, (void *)(uintptr_t)driver->extensions);
    }
    ecs_sched__free(&w->env, all->drivers);
    ecs_sched__free(&w->env, all->items);
    ecs_sched__free(&w->env, all);
    ecs_sched__part_set(w, &ecs_sched__scripts_key, NULL);
}

#ifndef ECS_SCHED_NO_REFLECT
/* ---- a script's component with a new layout ---- */

/* A member's type as its author wrote it: "f32", "chars 16", "i32[4]". */
static void ecs_sched__member_type_text(ecs_sched_member_kind kind, size_t size, size_t element,
                                        char *out, size_t capacity) {
    const char *name = ecs_sched__field_kind_names[kind];
    if (kind == ECS_SCHED_TYPE_CHARS) snprintf(out, capacity, "chars %lu", (unsigned long)size);
    else if (element && size != element) snprintf(out, capacity, "%s[%lu]", name, (unsigned long)(size / element));
    else snprintf(out, capacity, "%s", name);
}

/* The bytes of one element of member m (as ecs_sched_describe counts them). */
static size_t ecs_sched__member_element(const ecs_sched_world *w, const ecs_sched_member *m) {
    if (m->kind == ECS_SCHED_TYPE_CHARS || m->kind == ECS_SCHED_TYPE_ENUM) return m->size;
    if (m->kind == ECS_SCHED_TYPE_STRUCT) {
        return ecs_sched__component_valid(w, m->type) ? w->components[m->type].size : 0;
    }
    return ecs_sched__scalar_size(m->kind);
}

/* The described member of component id named `name`, or NULL. */
static const ecs_sched__field_desc *ecs_sched__described_member(const ecs_sched_world *w,
                                                                ecs_sched_id id,
                                                                const char *name) {
    const ecs_sched__description *d = ecs_sched__description_of(w, id);
    int32_t i;
    for (i = 0; d && i < d->count; i++) {
        if (strcmp(d->fields[i].name, name) == 0) return &d->fields[i];
    }
    return NULL;
}

/* Whether one of `members` has the name of a member component id has now but another type
   (kind, size or described type): a value that cannot be kept. `why` says which. */
static bool ecs_sched__member_retyped(const ecs_sched_world *w, ecs_sched_id id, int32_t count,
                                      const ecs_sched_member *members, char *why,
                                      size_t capacity) {
    int32_t i;
    for (i = 0; i < count; i++) {
        const ecs_sched_member *m = &members[i];
        const ecs_sched__field_desc *f = m->name ? ecs_sched__described_member(w, id, m->name) : NULL;
        char was[64], is[64];
        if (!f || (f->kind == m->kind && (size_t)f->element * (size_t)f->count == m->size &&
                   f->type == m->type)) {
            continue;
        }
        ecs_sched__member_type_text(f->kind, (size_t)f->element * (size_t)f->count, f->element,
                                    was, sizeof was);
        ecs_sched__member_type_text(m->kind, m->size, ecs_sched__member_element(w, m), is,
                                    sizeof is);
        snprintf(why, capacity, "field '%s' was %s and is %s now", m->name, was, is);
        return true;
    }
    return false;
}

/* What the conversion by member name copies: for each member kept, where it was and where
   it goes. */
typedef struct ecs_sched__by_name {
    struct { uint32_t from, to, size; } copies[ECS_SCHED__MAX_FIELDS];
    int32_t count;
} ecs_sched__by_name;

static void ecs_sched__convert_by_name(void *dst, const void *src, void *user_data) {
    const ecs_sched__by_name *plan = (const ecs_sched__by_name *)user_data;
    int32_t i;
    for (i = 0; i < plan->count; i++) {
        memcpy((unsigned char *)dst + plan->copies[i].to,
               (const unsigned char *)src + plan->copies[i].from, plan->copies[i].size);
    }
}

static ecs_sched_result ecs_sched__plan_by_name(ecs_sched_world *w, ecs_sched_id id, int32_t count,
                                                const ecs_sched_member *members,
                                                ecs_sched__by_name *plan) {
    char why[256];
    int32_t i;
    plan->count = 0;
    if (!ecs_sched__description_of(w, id)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "component_migrate: component '%s' has no description, so its "
                               "values cannot be converted by member name; give a conversion",
                               w->components[id].name);
    }
    if (ecs_sched__member_retyped(w, id, count, members, why, sizeof why)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_COMPONENT_MISMATCH,
                               "component_migrate: component '%s': %s; its values cannot be "
                               "kept (give the field another name, or convert them yourself)",
                               w->components[id].name, why);
    }
    for (i = 0; i < count && i < ECS_SCHED__MAX_FIELDS; i++) {
        const ecs_sched__field_desc *f =
            members[i].name ? ecs_sched__described_member(w, id, members[i].name) : NULL;
        if (!f) continue;
        plan->copies[plan->count].from = f->offset;
        plan->copies[plan->count].to = (uint32_t)members[i].offset;
        plan->copies[plan->count].size = (uint32_t)members[i].size;
        plan->count++;
    }
    return ECS_SCHED_OK;
}

/* Whether buffer cmd, or a delayed buffer it made, holds a value of id not applied yet. */
static bool ecs_sched__buffer_holds(const ecs_sched_world *w, const ecs_sched_commands *cmd,
                                    ecs_sched_id id) {
    ecs_sched__command_block *block = cmd->read;
    ecs_sched_entity previous = cmd->read_entity;
    size_t at = cmd->read_at;
    int32_t i;
    while (ecs_sched__command_step(cmd, &block, &at)) {
        ecs_sched__command c;
        ecs_sched__command_read(w, block, at, at == 0 ? 0 : previous, &c);
        if (c.id == id && c.value) return true;
        previous = c.entity;
        at = c.next;
    }
    for (i = 0; i < cmd->after_count; i++) {
        if (ecs_sched__buffer_holds(w, cmd->after[i], id)) return true;
    }
    return false;
}

/* Whether a buffer of the world (one waiting for its clock included) holds a value of id. */
static bool ecs_sched__buffers_hold(const ecs_sched_world *w, ecs_sched_id id) {
    const ecs_sched__buffers *all = ecs_sched__buffers_of(w);
    const ecs_sched__clocks *clocks = ecs_sched__clocks_of(w);
    uint32_t i, k;
    for (i = 0; all && i < all->count; i++) {
        if (ecs_sched__buffer_holds(w, all->items[i], id)) return true;
    }
    for (k = 0; clocks && k < 2; k++) {
        for (i = 0; i < clocks->waiting_count[k]; i++) {
            if (ecs_sched__buffer_holds(w, clocks->waiting[k][i], id)) return true;
        }
    }
    return false;
}

/* What keeps component id's layout from changing now, as the world's error. */
static ecs_sched_result ecs_sched__migration_refused(ecs_sched_world *w, ecs_sched_id id,
                                                     size_t size, size_t alignment) {
    const ecs_sched__schedules *schedules = ecs_sched__schedules_of(w);
    const ecs_sched__component *c;
    if (!ecs_sched__component_valid(w, id)) return ecs_sched__unknown_component(w, id, "component_migrate");
    c = &w->components[id];
    if (!c->scripted) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_REFUSED,
                               "component_migrate: component '%s' was not defined by a script "
                               "(registered without .scripted): C code compiled against its "
                               "layout, which cannot change; give the new layout another name",
                               c->name);
    }
    if (c->hooks.ctor || c->hooks.dtor || c->hooks.copy || c->hooks.move || c->queue || c->relation) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_REFUSED,
                               "component_migrate: component '%s' has %s; only plain data is "
                               "migrated", c->name,
                               c->queue ? "messages (a message type)"
                                        : c->relation ? "relationships (a relationship kind)"
                                                      : "lifecycle hooks");
    }
    if (size == 0 || size > INT32_MAX || (alignment & (alignment - 1)) != 0 ||
        alignment > ECS_SCHED_MAX_ALIGNMENT) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "component_migrate: component '%s' would have size %lu and "
                               "alignment %lu; give a size above 0 and an alignment that is a "
                               "power of two of at most %d", c->name, (unsigned long)size,
                               (unsigned long)alignment, ECS_SCHED_MAX_ALIGNMENT);
    }
    if (schedules && schedules->depth > 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_SCHEDULE_RUNNING,
                               "component_migrate: component '%s' cannot change its layout "
                               "while schedule '%s' runs; do it between runs", c->name,
                               schedules->stack[schedules->depth - 1]->label);
    }
    if (ecs_sched__buffers_hold(w, id)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_REFUSED,
                               "component_migrate: a command buffer holds a value of component "
                               "'%s' not applied yet, in its old layout; apply the buffer (or "
                               "wait for the delayed commands to be applied) and try again",
                               c->name);
    }
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_component_migrate(ecs_sched_world *w, ecs_sched_id id, size_t size,
                                             size_t alignment, int32_t member_count,
                                             const ecs_sched_member *members,
                                             ecs_sched_convert_fn convert, void *user_data) {
    ecs_sched__description fresh;
    ecs_sched__relayout relayout;
    ecs_sched__by_name *plan = NULL;
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    if (!alignment) alignment = ecs_sched__default_alignment(size);
    result = ecs_sched__migration_refused(w, id, size, alignment);
    if (result != ECS_SCHED_OK) return result;
    if (!convert) {
        if (!(plan = (ecs_sched__by_name *)ecs_sched__alloc(&w->env, sizeof *plan))) {
            return ecs_sched__out_of_memory(w, "migrating a component");
        }
        result = ecs_sched__plan_by_name(w, id, member_count, members, plan);
        convert = ecs_sched__convert_by_name;
        user_data = plan;
    }
    if (result == ECS_SCHED_OK) {
        result = ecs_sched__description_for_layout(w, id, size, alignment, member_count, members,
                                                   &fresh);
    }
    if (result == ECS_SCHED_OK &&
        !ecs_sched__relayout_prepare(w, id, size, alignment, convert, user_data, &relayout)) {
        ecs_sched__description_clear(w, &fresh);
        result = ecs_sched__out_of_memory(w, "migrating a component");
    }
    ecs_sched__free(&w->env, plan);
    if (result != ECS_SCHED_OK) return result;
    ecs_sched__relayout_commit(w, &relayout);
    ecs_sched__description_install(w, id, &fresh);
    return ECS_SCHED_OK;
}
#endif /* ECS_SCHED_NO_REFLECT */

#endif /* ECS_SCHED_SCRIPTS */
