/* Scripts: reloading a native script (a shared library with one system), against opening and
   closing the same library with dlopen alone, the floor of any reload. The libraries are the
   tests' (build/native/steer_v1.so, made by `make bench`). Included by bench.c. */

#include <dlfcn.h>

#define NATIVE_RELOAD_LIBRARY "build/native/steer_v1.so"

typedef struct native_reload_job {
    ecs_sched_world *world;
    ecs_sched_script *script;
} native_reload_job;

/* One reload: the library's copy opened, its system taken out and declared again, Update
   rebuilt, the version before closed. */
static double native_reload_side(bench_row *row, void *state) {
    native_reload_job *job = (native_reload_job *)state;
    double t0 = now_ns(), ns;
    if (ecs_sched_script_reload(job->world, job->script) != ECS_SCHED_OK) {
        fail(row, "ecs_sched_script_reload", job->world);
        return -1.0;
    }
    ns = now_ns() - t0;
    return ns;
}

static double native_open_side(bench_row *row, void *state) {
    double t0 = now_ns();
    void *library = dlopen(NATIVE_RELOAD_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    (void)state;
    if (!library || !dlsym(library, "ecs_sched_native_script")) {
        fail(row, "dlopen of " NATIVE_RELOAD_LIBRARY, NULL);
        if (library) dlclose(library);
        return -1.0;
    }
    dlclose(library);
    return now_ns() - t0;
}

static void run_native_reload(bench_row *row) {
    native_reload_job job;
    ecs_sched_script_driver native = ecs_sched_native_script_driver();
    bench_sampling s = sampling(1, 1e6);
    bench_medians m;
    job.world = ecs_sched_world_create(NULL);
    if (!job.world || ecs_sched_component_register_type(job.world, "Speed", sizeof(int), 0) == 0 ||
        ecs_sched_script_driver_add(job.world, &native) != ECS_SCHED_OK ||
        !(job.script = ecs_sched_script_load(job.world, NATIVE_RELOAD_LIBRARY))) {
        fail(row, "loading " NATIVE_RELOAD_LIBRARY " (built by make bench)", job.world);
        if (job.world) ecs_sched_world_destroy(job.world);
        return;
    }
    s.baseline = timed(native_open_side, &job);
    s.measured = timed(native_reload_side, &job);
    if (sample_row(row, &s, &m)) {
        appendf(row, "a library of one system (\"steer\", a query of one component) in a world "
                "of no other; the reload copies the file, opens the copy, declares the system "
                "again and rebuilds Update");
    }
    ecs_sched_world_destroy(job.world);
}
