/* script_native: the native driver, when ECS_SCHED_NATIVE_SCRIPTS is defined: C systems in a
   shared library the game loads, and loads again when it is rebuilt, without restarting
   (POSIX: dlopen). */
#pragma once
#include "script.h"

#ifdef ECS_SCHED_NATIVE_SCRIPTS

/* A native script is a shared library with one exported function, written with this macro;
   it declares the library's systems and observers as any driver's declare does, and may be
   called more than once for one load:

       #include "ecs_sched.h"
       static void steer(ecs_sched_system_ctx *ctx) { ... }
       ECS_SCHED_NATIVE_SCRIPT(script) {
           return ecs_sched_script_add_system(script, "Update",
               &(ecs_sched_system_desc){.name = "steer", .fn = steer, .query_text = "..."}, 0);
       }

   Build it with -shared -fPIC, and the program that loads it with -rdynamic (its
   ecs_sched_* functions are what the library calls). */
#if defined(__GNUC__) || defined(__clang__)
#define ECS_SCHED__EXPORT __attribute__((visibility("default")))
#else
#define ECS_SCHED__EXPORT
#endif
#ifdef __cplusplus
#define ECS_SCHED__EXTERN_C extern "C"
#else
#define ECS_SCHED__EXTERN_C
#endif
#define ECS_SCHED_NATIVE_SCRIPT(script)                                                     \
    ECS_SCHED__EXTERN_C ECS_SCHED__EXPORT ecs_sched_result ecs_sched_native_script(         \
        ecs_sched_script *script)

/* The driver, to give a world with ecs_sched_script_driver_add: it runs the files ending in
   ".so" and ".dylib". Each load reads a private copy of the file (removed once open), so that
   the file can be rebuilt while its version runs and a reload gets the new one. */
ECS_SCHED_API ecs_sched_script_driver ecs_sched_native_script_driver(void);

#endif /* ECS_SCHED_NATIVE_SCRIPTS */

/*@@ implementation @@*/
/* script_native: a version is an open shared library and its declaring function. */

#ifdef ECS_SCHED_NATIVE_SCRIPTS

#include <dlfcn.h>
#include <errno.h>
#include <unistd.h>

typedef ecs_sched_result (*ecs_sched__native_declare_fn)(ecs_sched_script *script);

typedef struct ecs_sched__native_version {
    ecs_sched__env *env;
    void *library;
    ecs_sched__native_declare_fn declare;
} ecs_sched__native_version;

/* Copies the file at `from` to `to`; false (and the reason in `why`) on failure. */
static bool ecs_sched__copy_file(const char *from, const char *to, char *why, size_t capacity) {
    char block[16384];
    size_t n;
    bool ok = true;
    FILE *in = fopen(from, "rb"), *out;
    if (!in) {
        snprintf(why, capacity, "cannot open it: %s", strerror(errno));
        return false;
    }
    if (!(out = fopen(to, "wb"))) {
        snprintf(why, capacity, "cannot write a copy to load, '%.300s': %s", to, strerror(errno));
        fclose(in);
        return false;
    }
    while (ok && (n = fread(block, 1, sizeof block, in)) > 0) ok = fwrite(block, 1, n, out) == n;
    ok = ok && !ferror(in);
    if (fclose(out) != 0) ok = false;
    fclose(in);
    if (!ok) snprintf(why, capacity, "copying it to '%.300s' failed", to);
    return ok;
}

static void *ecs_sched__native_load(ecs_sched_script *script, const char *path, void *user_data) {
    static int loads;   /* (each copy's name differs from the ones still open) */
    char copy[4096], why[512];
    ecs_sched__native_version *v;
    void *library;
    union { void *object; ecs_sched__native_declare_fn fn; } symbol;
    (void)user_data;
    if ((size_t)snprintf(copy, sizeof copy, "%s.%ld.%d.loading", path, (long)getpid(),
                         ++loads) >= sizeof copy) {
        ecs_sched_script_fail(script, "its path is too long");
        return NULL;
    }
    if (!ecs_sched__copy_file(path, copy, why, sizeof why)) {
        remove(copy);
        ecs_sched_script_fail(script, "%s", why);
        return NULL;
    }
    library = dlopen(copy, RTLD_NOW | RTLD_LOCAL);
    remove(copy);   /* what is open stays mapped */
    if (!library) {
        ecs_sched_script_fail(script, "the library does not load: %s", dlerror());
        return NULL;
    }
    symbol.object = dlsym(library, "ecs_sched_native_script");
    if (!symbol.object) {
        dlclose(library);
        ecs_sched_script_fail(script, "the library has no ecs_sched_native_script function "
                                      "(write it with ECS_SCHED_NATIVE_SCRIPT(script) { ... })");
        return NULL;
    }
    v = (ecs_sched__native_version *)ecs_sched__alloc(&ecs_sched_script_world(script)->env,
                                                       sizeof *v);
    if (!v) {
        dlclose(library);
        ecs_sched_script_fail(script, "out of memory");
        return NULL;
    }
    v->env = &ecs_sched_script_world(script)->env;
    v->library = library;
    v->declare = symbol.fn;
    return v;
}

static ecs_sched_result ecs_sched__native_declare(ecs_sched_script *script, void *version,
                                                  void *user_data) {
    (void)user_data;
    return ((ecs_sched__native_version *)version)->declare(script);
}

static void ecs_sched__native_unload(void *version, void *user_data) {
    ecs_sched__native_version *v = (ecs_sched__native_version *)version;
    (void)user_data;
    dlclose(v->library);
    ecs_sched__free(v->env, v);
}

ecs_sched_script_driver ecs_sched_native_script_driver(void) {
    ecs_sched_script_driver d;
    memset(&d, 0, sizeof d);
    d.name = "native";
    d.extensions = ".so .dylib";
    d.load = ecs_sched__native_load;
    d.declare = ecs_sched__native_declare;
    d.unload = ecs_sched__native_unload;
    return d;
}

#endif /* ECS_SCHED_NATIVE_SCRIPTS */
