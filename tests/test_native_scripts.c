/* The native driver (ECS_SCHED_NATIVE_SCRIPTS): C systems in a shared library, reloaded when
   the library is rebuilt, without restarting. The libraries are built from tests/native/ by
   the Makefile: steer_v1.so and steer_v2.so are two builds of one script (its system adds 1,
   or 2, to each Speed), no_entry.so is a library that is no script. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "schedule_fixture.h"

typedef struct { int value; } Speed;

static const char *g_program = "test_native_scripts";
static char g_path[512];   /* the script's file, which each test "rebuilds" by copying */

static void copy_over(const char *from) {
    char block[4096];
    size_t n;
    FILE *in = fopen(from, "rb"), *out;
    assert_non_null(in);
    out = fopen(g_path, "wb");
    assert_non_null(out);
    while ((n = fread(block, 1, sizeof block, in)) > 0) assert_int_equal(fwrite(block, 1, n, out), n);
    fclose(in);
    fclose(out);
}

typedef struct fixture {
    ecs_sched_world *w;
    ecs_sched_id speed;
    ecs_sched_entity car;
} fixture;

static fixture make_fixture(const char *library) {
    fixture f;
    ecs_sched_script_driver native = ecs_sched_native_script_driver();
    static int files;
    f.w = new_world();
    f.speed = ECS_SCHED_COMPONENT(f.w, Speed);
    f.car = ecs_sched_spawn(f.w);
    assert_int_equal(ecs_sched_insert(f.w, f.car, f.speed, &(Speed){100}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_script_driver_add(f.w, &native), ECS_SCHED_OK);
    snprintf(g_path, sizeof g_path, "%s.%d.so", g_program, ++files);
    copy_over(library);
    return f;
}

static int speed_of(const fixture *f) {
    return ((const Speed *)ecs_sched_get(f->w, f->car, f->speed))->value;
}

static void finish(fixture *f) {
    check_and_destroy(f->w);
    remove(g_path);
}

static void a_native_script_s_system_runs_in_its_schedule(void **state) {
    fixture f = make_fixture("build/native/steer_v1.so");
    (void)state;
    assert_non_null(ecs_sched_script_load(f.w, g_path));
    assert_int_equal(ecs_sched_run_schedule(f.w, "Update"), ECS_SCHED_OK);
    assert_int_equal(speed_of(&f), 101);
    finish(&f);
}

static void a_rebuilt_library_is_reloaded_and_the_world_kept(void **state) {
    fixture f = make_fixture("build/native/steer_v1.so");
    ecs_sched_script *script;
    (void)state;
    script = ecs_sched_script_load(f.w, g_path);
    assert_int_equal(ecs_sched_run_schedule(f.w, "Update"), ECS_SCHED_OK);
    copy_over("build/native/steer_v2.so");
    assert_int_equal(ecs_sched_script_reload(f.w, script), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(f.w, "Update"), ECS_SCHED_OK);
    assert_int_equal(speed_of(&f), 103);   /* 100 + 1 (version 1) + 2 (version 2) */
    assert_int_equal(ecs_sched_script_version(script), 2);
    finish(&f);
}

static void poll_picks_up_a_rebuilt_library(void **state) {
    fixture f = make_fixture("build/native/steer_v1.so");
    (void)state;
    assert_non_null(ecs_sched_script_load(f.w, g_path));
    assert_int_equal(ecs_sched_scripts_poll(f.w), 0);
    copy_over("build/native/steer_v2.so");
    assert_int_equal(ecs_sched_scripts_poll(f.w), 1);
    assert_int_equal(ecs_sched_run_schedule(f.w, "Update"), ECS_SCHED_OK);
    assert_int_equal(speed_of(&f), 102);
    finish(&f);
}

static void a_file_that_is_no_library_fails_its_reload_and_the_old_one_runs_on(void **state) {
    fixture f = make_fixture("build/native/steer_v1.so");
    ecs_sched_script *script;
    FILE *garbage;
    (void)state;
    script = ecs_sched_script_load(f.w, g_path);
    garbage = fopen(g_path, "wb");
    assert_non_null(garbage);
    fputs("not a shared library", garbage);
    fclose(garbage);
    assert_int_equal(ecs_sched_script_reload(f.w, script), ECS_SCHED_ERR_SCRIPT);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "the library does not load"));
    assert_non_null(strstr(ecs_sched_last_error(f.w), g_path));
    ecs_sched_clear_error(f.w);
    assert_int_equal(ecs_sched_run_schedule(f.w, "Update"), ECS_SCHED_OK);
    assert_int_equal(speed_of(&f), 101);
    finish(&f);
}

static void a_library_without_the_entry_point_is_refused_saying_how_to_write_it(void **state) {
    fixture f = make_fixture("build/native/no_entry.so");
    (void)state;
    assert_null(ecs_sched_script_load(f.w, g_path));
    assert_int_equal(ecs_sched_last_result(f.w), ECS_SCHED_ERR_SCRIPT);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "ECS_SCHED_NATIVE_SCRIPT(script)"));
    ecs_sched_clear_error(f.w);
    finish(&f);
}

static void a_library_that_is_gone_fails_its_reload_and_the_old_one_runs_on(void **state) {
    fixture f = make_fixture("build/native/steer_v1.so");
    ecs_sched_script *script;
    (void)state;
    script = ecs_sched_script_load(f.w, g_path);
    assert_non_null(script);
    remove(g_path);
    assert_int_equal(ecs_sched_script_reload(f.w, script), ECS_SCHED_ERR_SCRIPT);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "cannot open it: No such file or directory"));
    assert_non_null(strstr(ecs_sched_last_error(f.w), g_path));
    ecs_sched_clear_error(f.w);
    assert_int_equal(ecs_sched_script_version(script), 1);
    assert_int_equal(ecs_sched_run_schedule(f.w, "Update"), ECS_SCHED_OK);
    assert_int_equal(speed_of(&f), 101);
    finish(&f);
}

/* The name of the copy the driver loads (the nth load of this process). */
static void copy_name(char *out, size_t capacity, const char *path, int n) {
    snprintf(out, capacity, "%s.%ld.%d.loading", path, (long)getpid(), n);
}

static void a_copy_that_cannot_be_written_fails_the_load_naming_it(void **state) {
    fixture f = make_fixture("build/native/steer_v1.so");
    char copy[700];
    int n;
    (void)state;
    /* every name the copy may take is a folder already */
    for (n = 1; n <= 100; n++) {
        copy_name(copy, sizeof copy, g_path, n);
        assert_int_equal(mkdir(copy, 0700), 0);
    }
    assert_null(ecs_sched_script_load(f.w, g_path));
    assert_int_equal(ecs_sched_last_result(f.w), ECS_SCHED_ERR_SCRIPT);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "cannot write a copy to load, '"));
    assert_non_null(strstr(ecs_sched_last_error(f.w), "': Is a directory"));
    ecs_sched_clear_error(f.w);
    assert_null(ecs_sched_script_find(f.w, g_path));
    for (n = 1; n <= 100; n++) {
        copy_name(copy, sizeof copy, g_path, n);
        rmdir(copy);
    }
    assert_non_null(ecs_sched_script_load(f.w, g_path));
    assert_int_equal(ecs_sched_run_schedule(f.w, "Update"), ECS_SCHED_OK);
    assert_int_equal(speed_of(&f), 101);
    finish(&f);
}

static void a_folder_named_like_a_library_is_not_copied(void **state) {
    fixture f = make_fixture("build/native/steer_v1.so");
    char folder[600];
    (void)state;
    snprintf(folder, sizeof folder, "%s.folder.so", g_program);
    assert_int_equal(mkdir(folder, 0700), 0);
    assert_null(ecs_sched_script_load(f.w, folder));
    assert_int_equal(ecs_sched_last_result(f.w), ECS_SCHED_ERR_SCRIPT);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "copying it to '"));
    assert_non_null(strstr(ecs_sched_last_error(f.w), "' failed"));
    ecs_sched_clear_error(f.w);
    assert_int_equal(rmdir(folder), 0);
    finish(&f);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_native_script_s_system_runs_in_its_schedule),
        cmocka_unit_test(a_rebuilt_library_is_reloaded_and_the_world_kept),
        cmocka_unit_test(poll_picks_up_a_rebuilt_library),
        cmocka_unit_test(a_file_that_is_no_library_fails_its_reload_and_the_old_one_runs_on),
        cmocka_unit_test(a_library_without_the_entry_point_is_refused_saying_how_to_write_it),
        cmocka_unit_test(a_library_that_is_gone_fails_its_reload_and_the_old_one_runs_on),
        cmocka_unit_test(a_copy_that_cannot_be_written_fails_the_load_naming_it),
        cmocka_unit_test(a_folder_named_like_a_library_is_not_copied),
    };
    if (argc > 0) g_program = argv[0];
    return cmocka_run_group_tests(tests, NULL, NULL);
}
