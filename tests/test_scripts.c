/* Language drivers (ECS_SCHED_SCRIPTS): a driver written here, for a language of one
   declaration per line, shows what the world asks of any driver and what it promises: scripts
   loaded by their ending, their systems and observers in the world's schedules, reloads that
   replace one script's declarations and keep the world, failed reloads that keep the version
   before running. The language:
       system <schedule> <name> [after <name>] [query <text to the end of the line>]
       observer <component> <name>
       broken                         the file does not load
   A system or observer of version N writes "<name>@<N>" to the trace when it runs. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schedule_fixture.h"

#define MAX_LINES 8

typedef struct line_version {
    char lines[MAX_LINES][160];
    int count;
    int number;           /* how many versions the driver had loaded when it read this one */
} line_version;

typedef struct line_driver {
    int loads, unloads, destroyed;
    void *user_data_seen;   /* what ecs_sched_ctx_user_data gave inside a run */
} line_driver;

static line_driver g_driver;

static void *line_load(ecs_sched_script *script, const char *path, void *user_data) {
    line_driver *d = (line_driver *)user_data;
    line_version *v;
    FILE *f = fopen(path, "r");
    if (!f) {
        ecs_sched_script_fail(script, "cannot open the file");
        return NULL;
    }
    v = (line_version *)calloc(1, sizeof *v);
    assert_non_null(v);
    while (v->count < MAX_LINES && fgets(v->lines[v->count], sizeof v->lines[0], f)) {
        v->lines[v->count][strcspn(v->lines[v->count], "\n")] = '\0';
        if (strcmp(v->lines[v->count], "broken") == 0) {
            ecs_sched_script_fail(script, "line %d: 'broken' is not a declaration", v->count + 1);
            fclose(f);
            free(v);
            return NULL;
        }
        v->count++;
    }
    fclose(f);
    v->number = ++d->loads;
    return v;
}

static ecs_sched_result line_declare_system(ecs_sched_script *script, char *line, int index) {
    char *schedule = strtok(line + strlen("system "), " ");
    char *name = strtok(NULL, " ");
    char *rest = strtok(NULL, "");
    ecs_sched_system_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.name = name;
    desc.user_data = &g_driver;
    while (rest && *rest) {
        if (strncmp(rest, "after ", 6) == 0) {
            desc.after[0] = strtok(rest + 6, " ");
            rest = strtok(NULL, "");
        } else if (strncmp(rest, "query ", 6) == 0) {
            desc.query_text = rest + 6;
            break;
        } else {
            return ecs_sched_script_fail(script, "unknown word in '%s'", rest);
        }
    }
    return ecs_sched_script_add_system(script, schedule, &desc, index);
}

static ecs_sched_result line_declare(ecs_sched_script *script, void *version, void *user_data) {
    line_version *v = (line_version *)version;
    int i;
    (void)user_data;
    for (i = 0; i < v->count; i++) {
        char line[160];
        ecs_sched_result result = ECS_SCHED_OK;
        snprintf(line, sizeof line, "%s", v->lines[i]);
        if (strncmp(line, "system ", 7) == 0) {
            result = line_declare_system(script, line, i);
        } else if (strncmp(line, "observer ", 9) == 0) {
            ecs_sched_world *w = ecs_sched_script_world(script);
            char *component = strtok(line + 9, " ");
            char *name = strtok(NULL, " ");
            if (!ecs_sched_script_add_observer(script, &(ecs_sched_observer_desc){
                                                           .name = name,
                                                           .event = ECS_SCHED_ON_ADD,
                                                           .component = ecs_sched_component_lookup(
                                                               w, component)},
                                               i)) {
                result = ecs_sched_last_result(w);
            }
        }
        if (result != ECS_SCHED_OK) return result;
    }
    return ECS_SCHED_OK;
}

static void line_run(void *version, int32_t index, ecs_sched_system_ctx *ctx,
                     const ecs_sched_trigger *trigger, void *user_data) {
    line_version *v = (line_version *)version;
    char line[160], word[96];
    char *name;
    (void)trigger;
    ((line_driver *)user_data)->user_data_seen = ecs_sched_ctx_user_data(ctx);
    snprintf(line, sizeof line, "%s", v->lines[index]);
    strtok(line, " ");
    if (strncmp(v->lines[index], "system ", 7) == 0) strtok(NULL, " ");   /* its schedule */
    else strtok(NULL, " ");                                                /* its component */
    name = strtok(NULL, " ");
    snprintf(word, sizeof word, "%s@%d", name, v->number);
    trace_add(word);
}

static void line_unload(void *version, void *user_data) {
    ((line_driver *)user_data)->unloads++;
    free(version);
}

static void line_destroy(void *user_data) {
    ((line_driver *)user_data)->destroyed++;
}

static ecs_sched_script_driver line_driver_desc(void) {
    ecs_sched_script_driver d;
    memset(&d, 0, sizeof d);
    d.name = "lines";
    d.extensions = ".lines .ln";
    d.user_data = &g_driver;
    d.load = line_load;
    d.declare = line_declare;
    d.run = line_run;
    d.unload = line_unload;
    d.destroy = line_destroy;
    return d;
}

static char g_path[512];
static const char *g_program = "test_scripts";   /* scripts are written next to the program */
static int g_scripts;

static void write_script(const char *text) {
    FILE *f = fopen(g_path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static ecs_sched_world *world_with_driver(void) {
    ecs_sched_world *w = new_world();
    ecs_sched_script_driver d = line_driver_desc();
    memset(&g_driver, 0, sizeof g_driver);
    snprintf(g_path, sizeof g_path, "%s.%d.lines", g_program, ++g_scripts);
    assert_int_equal(ecs_sched_script_driver_add(w, &d), ECS_SCHED_OK);
    return w;
}

static void finish(ecs_sched_world *w) {
    check_and_destroy(w);
    remove(g_path);
}

static void a_script_s_systems_run_in_their_schedule_through_its_driver(void **state) {
    ecs_sched_world *w = world_with_driver();
    ecs_sched_script *script;
    (void)state;
    ADD_SYSTEM(w, .name = "input", .fn = record);
    write_script("system Update think after input\nsystem Update act after think\n");
    script = ecs_sched_script_load(w, g_path);
    assert_non_null(script);
    assert_int_equal(ecs_sched_script_version(script), 1);
    assert_run_traces(w, "input think@1 act@1");
    assert_ptr_equal(g_driver.user_data_seen, &g_driver);   /* the desc's user_data */
    finish(w);
    assert_int_equal(g_driver.unloads, 1);
    assert_int_equal(g_driver.destroyed, 1);
}

static void a_reload_replaces_the_script_s_systems_and_keeps_the_world(void **state) {
    ecs_sched_world *w = world_with_driver();
    ecs_sched_script *script;
    ecs_sched_entity e = ecs_sched_spawn(w);
    (void)state;
    ADD_SYSTEM(w, .name = "input", .fn = record);
    write_script("system Update think after input\nsystem Update act after think\n");
    script = ecs_sched_script_load(w, g_path);
    write_script("system Update plan after input\n");
    assert_int_equal(ecs_sched_script_reload(w, script), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_script_version(script), 2);
    assert_int_equal(g_driver.unloads, 1);   /* the version before */
    assert_run_traces(w, "input plan@2");
    assert_true(ecs_sched_is_alive(w, e));
    finish(w);
}

static void a_reload_that_does_not_load_keeps_the_version_before_running(void **state) {
    ecs_sched_world *w = world_with_driver();
    ecs_sched_script *script;
    (void)state;
    write_script("system Update think\n");
    script = ecs_sched_script_load(w, g_path);
    write_script("system Update plan\nbroken\n");
    assert_int_equal(ecs_sched_script_reload(w, script), ECS_SCHED_ERR_SCRIPT);
    assert_non_null(strstr(ecs_sched_last_error(w), g_path));
    assert_non_null(strstr(ecs_sched_last_error(w), "line 2: 'broken'"));
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_script_version(script), 1);
    assert_run_traces(w, "think@1");
    finish(w);
}

static void a_reload_whose_declaration_is_refused_keeps_the_version_before(void **state) {
    ecs_sched_world *w = world_with_driver();
    ecs_sched_script *script;
    (void)state;
    ECS_SCHED_COMPONENT(w, Position);
    write_script("system Update think query Position\n");
    script = ecs_sched_script_load(w, g_path);
    assert_non_null(script);
    write_script("system Update plan\nsystem Update think query Postion\n");
    assert_int_equal(ecs_sched_script_reload(w, script), ECS_SCHED_ERR_QUERY_SYNTAX);
    assert_non_null(strstr(ecs_sched_last_error(w), "did you mean 'Position'"));
    assert_non_null(strstr(ecs_sched_last_error(w), "the version before runs on"));
    ecs_sched_clear_error(w);
    assert_int_equal(g_driver.unloads, 1);   /* the new version, given up */
    assert_run_traces(w, "think@1");
    finish(w);
}

static void a_reload_that_breaks_its_schedule_keeps_the_version_before(void **state) {
    ecs_sched_world *w = world_with_driver();
    ecs_sched_script *script;
    (void)state;
    write_script("system Update a\nsystem Update b after a\n");
    script = ecs_sched_script_load(w, g_path);
    write_script("system Update a after b\nsystem Update b after a\n");
    assert_int_equal(ecs_sched_script_reload(w, script), ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    ecs_sched_clear_error(w);
    assert_run_traces(w, "a@1 b@1");
    finish(w);
}

static void a_script_that_fails_to_load_leaves_nothing_behind(void **state) {
    ecs_sched_world *w = world_with_driver();
    ecs_sched_entity e;
    (void)state;
    write_script("system Update a\nsystem Update b query Nothing\n");
    assert_null(ecs_sched_script_load(w, g_path));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_QUERY_SYNTAX);
    assert_non_null(strstr(ecs_sched_last_error(w), g_path));
    ecs_sched_clear_error(w);
    assert_null(ecs_sched_script_find(w, g_path));
    assert_int_equal(g_driver.loads, g_driver.unloads);
    e = ecs_sched_spawn(w);
    ADD_SYSTEM(w, .name = "c", .fn = record);
    assert_run_traces(w, "c");   /* a's gone too */
    assert_true(ecs_sched_is_alive(w, e));
    finish(w);
}

static void unloading_a_script_takes_out_its_systems_and_observers(void **state) {
    ecs_sched_world *w = world_with_driver();
    ecs_sched_script *script;
    ecs_sched_id position;
    (void)state;
    position = ECS_SCHED_COMPONENT(w, Position);
    write_script("system Update a\nobserver Position watcher\n");
    script = ecs_sched_script_load(w, g_path);
    assert_int_equal(ecs_sched_insert(w, ecs_sched_spawn(w), position, NULL), ECS_SCHED_OK);
    assert_string_equal(g_trace, "watcher@1");
    assert_int_equal(ecs_sched_script_unload(w, script), ECS_SCHED_OK);
    assert_int_equal(g_driver.unloads, 1);
    g_trace[0] = '\0';
    assert_int_equal(ecs_sched_insert(w, ecs_sched_spawn(w), position, NULL), ECS_SCHED_OK);
    ADD_SYSTEM(w, .name = "c", .fn = record);
    assert_run_traces(w, "c");
    finish(w);
}

static void poll_reloads_the_scripts_whose_file_changed(void **state) {
    ecs_sched_world *w = world_with_driver();
    ecs_sched_script *script;
    (void)state;
    write_script("system Update a\n");
    script = ecs_sched_script_load(w, g_path);
    assert_int_equal(ecs_sched_scripts_poll(w), 0);
    write_script("system Update longer_name\n");   /* another size, whatever the clock */
    assert_int_equal(ecs_sched_scripts_poll(w), 1);
    assert_int_equal(ecs_sched_script_version(script), 2);
    assert_int_equal(ecs_sched_scripts_poll(w), 0);
    assert_run_traces(w, "longer_name@2");
    finish(w);
}

static void poll_sees_a_file_rewritten_at_once_with_as_many_bytes(void **state) {
    ecs_sched_world *w = world_with_driver();
    ecs_sched_script *script;
    (void)state;
    write_script("system Update aaaa\n");
    script = ecs_sched_script_load(w, g_path);
    write_script("system Update bbbb\n");   /* the same size, likely the same second */
    assert_int_equal(ecs_sched_scripts_poll(w), 1);
    assert_int_equal(ecs_sched_script_version(script), 2);
    assert_run_traces(w, "bbbb@2");
    finish(w);
}

static void poll_tries_a_file_that_failed_once_until_it_changes_again(void **state) {
    ecs_sched_world *w = world_with_driver();
    ecs_sched_script *script;
    (void)state;
    write_script("system Update a\n");
    script = ecs_sched_script_load(w, g_path);
    write_script("broken\n");
    assert_int_equal(ecs_sched_scripts_poll(w), 0);
    assert_int_equal(g_driver.loads, 1);
    assert_int_equal(ecs_sched_scripts_poll(w), 0);
    assert_int_equal(g_driver.loads, 1);   /* not tried again */
    write_script("system Update fixed\n");
    assert_int_equal(ecs_sched_scripts_poll(w), 1);
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_script_version(script), 2);
    finish(w);
}

static void an_app_that_watches_reloads_changed_scripts_before_each_update(void **state) {
    ecs_sched_app *app = ecs_sched_app_create(NULL);
    ecs_sched_world *w = ecs_sched_app_world(app);
    ecs_sched_script_driver d = line_driver_desc();
    (void)state;
    memset(&g_driver, 0, sizeof g_driver);
    snprintf(g_path, sizeof g_path, "%s.%d.lines", g_program, ++g_scripts);
    assert_int_equal(ecs_sched_script_driver_add(w, &d), ECS_SCHED_OK);
    write_script("system Update aaaa\n");
    assert_non_null(ecs_sched_script_load(w, g_path));
    ecs_sched_app_watch_scripts(app, true);
    g_trace[0] = '\0';
    assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);
    assert_string_equal(g_trace, "aaaa@1");
    write_script("system Update bbbb\n");
    g_trace[0] = '\0';
    assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);
    assert_string_equal(g_trace, "bbbb@2");
    ecs_sched_app_watch_scripts(app, false);
    write_script("system Update cccc\n");
    g_trace[0] = '\0';
    assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);
    assert_string_equal(g_trace, "bbbb@2");
    ecs_sched_app_destroy(app);
    remove(g_path);
}

static ecs_sched_script *g_script;

static void reload_from_a_system(ecs_sched_system_ctx *ctx) {
    assert_int_equal(ecs_sched_script_reload(ecs_sched_ctx_world(ctx), g_script),
                     ECS_SCHED_ERR_SCHEDULE_RUNNING);
    ecs_sched_clear_error(ecs_sched_ctx_world(ctx));
    ecs_sched_ctx_clear_error(ctx);
}

static void a_script_is_not_reloaded_while_a_schedule_runs(void **state) {
    ecs_sched_world *w = world_with_driver();
    (void)state;
    write_script("system Update a\n");
    g_script = ecs_sched_script_load(w, g_path);
    ADD_SYSTEM(w, .name = "reloader", .fn = reload_from_a_system, .exclusive = true,
               .after = {"a"});
    assert_run_traces(w, "a@1");
    assert_int_equal(g_driver.loads, 1);
    finish(w);
}

static void reload_from_an_observer(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    (void)t;
    assert_int_equal(ecs_sched_script_reload(ecs_sched_ctx_world(ctx), g_script),
                     ECS_SCHED_ERR_ACCESS);
    ecs_sched_ctx_clear_error(ctx);
}

static void a_script_is_not_reloaded_from_inside_an_observer(void **state) {
    ecs_sched_world *w = world_with_driver();
    ecs_sched_id position;
    (void)state;
    position = ECS_SCHED_COMPONENT(w, Position);
    write_script("observer Position watcher\n");
    g_script = ecs_sched_script_load(w, g_path);
    assert_int_not_equal(ecs_sched_observer_add(w, &(ecs_sched_observer_desc){
                             .event = ECS_SCHED_ON_ADD, .component = position,
                             .fn = reload_from_an_observer}),
                         0);
    assert_int_equal(ecs_sched_insert(w, ecs_sched_spawn(w), position, NULL), ECS_SCHED_OK);
    assert_string_equal(g_trace, "watcher@1");
    assert_int_equal(g_driver.loads, 1);
    ecs_sched_clear_error(w);
    finish(w);
}

static void a_path_is_loaded_once(void **state) {
    ecs_sched_world *w = world_with_driver();
    ecs_sched_script *script;
    (void)state;
    write_script("system Update a\n");
    script = ecs_sched_script_load(w, g_path);
    assert_ptr_equal(ecs_sched_script_load(w, g_path), script);
    assert_ptr_equal(ecs_sched_script_find(w, g_path), script);
    assert_string_equal(ecs_sched_script_path(script), g_path);
    assert_int_equal(g_driver.loads, 1);
    finish(w);
}

static void bad_drivers_and_paths_are_refused_naming_them(void **state) {
    ecs_sched_world *w = world_with_driver();
    ecs_sched_script_driver d = line_driver_desc();
    (void)state;
    assert_int_equal(ecs_sched_script_driver_add(w, &d), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "named 'lines' already"));
    d.name = "other";
    d.extensions = ".txt .ln";
    assert_int_equal(ecs_sched_script_driver_add(w, &d), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "ending in '.ln'"));
    d.extensions = ".txt";
    d.declare = NULL;
    assert_int_equal(ecs_sched_script_driver_add(w, &d), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_null(ecs_sched_script_load(w, "ai.py"));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_NOT_FOUND);
    assert_non_null(strstr(ecs_sched_last_error(w), "no driver of this world runs 'ai.py'"));
    assert_null(ecs_sched_script_load(w, "build/no_such_script.lines"));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_SCRIPT);
    assert_non_null(strstr(ecs_sched_last_error(w), "cannot open the file"));
    ecs_sched_clear_error(w);
    finish(w);
}

/* ---- a script's component with a new layout (ecs_sched_component_migrate) ---- */

typedef struct { int32_t hp; float armor; } OldStats;
typedef struct { double shield; int32_t hp; } NewStats;

static const ecs_sched_member OLD_STATS[] = {
    ECS_SCHED_MEMBER(OldStats, hp, ECS_SCHED_TYPE_I32),
    ECS_SCHED_MEMBER(OldStats, armor, ECS_SCHED_TYPE_F32)};
static const ecs_sched_member NEW_STATS[] = {
    ECS_SCHED_MEMBER(NewStats, shield, ECS_SCHED_TYPE_F64),
    ECS_SCHED_MEMBER(NewStats, hp, ECS_SCHED_TYPE_I32)};

/* Stats as a script defines it: .scripted, described. */
static ecs_sched_id scripted_stats(ecs_sched_world *w, ecs_sched_storage storage) {
    ecs_sched_component_desc desc = {0};
    ecs_sched_id id;
    desc.name = "Stats";
    desc.size = sizeof(OldStats);
    desc.alignment = ECS_SCHED_ALIGNOF(OldStats);
    desc.storage = storage;
    desc.scripted = true;
    id = ecs_sched_component_register(w, &desc);
    assert_true(id != 0);
    assert_int_equal(ecs_sched_describe(w, id, 2, OLD_STATS), ECS_SCHED_OK);
    return id;
}

static ecs_sched_result migrate_stats(ecs_sched_world *w, ecs_sched_id id) {
    return ecs_sched_component_migrate(w, id, sizeof(NewStats), ECS_SCHED_ALIGNOF(NewStats), 2,
                                       NEW_STATS, NULL, NULL);
}

static void a_sparse_component_s_values_are_migrated(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id stats = scripted_stats(w, ECS_SCHED_STORAGE_SPARSE);
    ecs_sched_entity e[3];
    int i;
    (void)state;
    for (i = 0; i < 3; i++) {
        OldStats old = {10 * (i + 1), 0.5f};
        e[i] = ecs_sched_spawn(w);
        assert_int_equal(ecs_sched_insert(w, e[i], stats, &old), ECS_SCHED_OK);
    }
    assert_int_equal(migrate_stats(w, stats), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_component_size(w, stats), sizeof(NewStats));
    for (i = 0; i < 3; i++) {
        const NewStats *now = (const NewStats *)ecs_sched_get(w, e[i], stats);
        assert_non_null(now);
        assert_int_equal(now->hp, 10 * (i + 1));
        assert_true(now->shield == 0.0);
    }
    check_and_destroy(w);
}

static void a_resource_of_a_script_s_component_is_migrated(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id stats = scripted_stats(w, ECS_SCHED_STORAGE_TABLE);
    OldStats old = {42, 1.5f};
    const NewStats *now;
    (void)state;
    assert_int_equal(ecs_sched_resource_insert(w, stats, &old), ECS_SCHED_OK);
    assert_int_equal(migrate_stats(w, stats), ECS_SCHED_OK);
    now = (const NewStats *)ecs_sched_resource_get(w, stats);
    assert_non_null(now);
    assert_int_equal(now->hp, 42);
    assert_true(now->shield == 0.0);
    check_and_destroy(w);
}

static void a_component_c_registered_keeps_its_layout(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id stats = ECS_SCHED_COMPONENT(w, OldStats);
    (void)state;
    assert_int_equal(ecs_sched_describe(w, stats, 2, OLD_STATS), ECS_SCHED_OK);
    assert_int_equal(migrate_stats(w, stats), ECS_SCHED_ERR_REFUSED);
    assert_non_null(strstr(ecs_sched_last_error(w), "component 'OldStats' was not defined by a script"));
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_component_size(w, stats), sizeof(OldStats));
    check_and_destroy(w);
}

static void a_value_waiting_in_a_command_buffer_refuses_the_migration(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id stats = scripted_stats(w, ECS_SCHED_STORAGE_TABLE);
    ecs_sched_commands *cmd = ecs_sched_commands_create(w);
    OldStats old = {5, 0.25f};
    ecs_sched_entity e = ecs_sched_spawn(w);
    (void)state;
    assert_int_equal(ecs_sched_commands_insert(cmd, e, stats, &old), ECS_SCHED_OK);
    assert_int_equal(migrate_stats(w, stats), ECS_SCHED_ERR_REFUSED);
    assert_non_null(strstr(ecs_sched_last_error(w), "holds a value of component 'Stats' not applied"));
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_int_equal(migrate_stats(w, stats), ECS_SCHED_OK);
    assert_int_equal(((const NewStats *)ecs_sched_get(w, e, stats))->hp, 5);
    ecs_sched_commands_destroy(cmd);
    check_and_destroy(w);
}

static void forget_values(void *ptr, int32_t count, void *ctx) {
    (void)ptr;
    (void)count;
    (void)ctx;
}

static void a_script_s_component_with_hooks_is_not_migrated(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_component_desc desc = {0};
    ecs_sched_id stats;
    (void)state;
    desc.name = "Stats";
    desc.size = sizeof(OldStats);
    desc.scripted = true;
    desc.hooks.dtor = forget_values;
    stats = ecs_sched_component_register(w, &desc);
    assert_true(stats != 0);
    assert_int_equal(migrate_stats(w, stats), ECS_SCHED_ERR_REFUSED);
    assert_non_null(strstr(ecs_sched_last_error(w), "component 'Stats' has lifecycle hooks"));
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_component_size(w, stats), sizeof(OldStats));
    check_and_destroy(w);
}

static void a_migration_to_an_empty_layout_is_refused_naming_the_component(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id stats = scripted_stats(w, ECS_SCHED_STORAGE_TABLE);
    (void)state;
    assert_int_equal(ecs_sched_component_migrate(w, stats, 0, 8, 2, NEW_STATS, NULL, NULL),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "component 'Stats' would have size 0"));
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_component_size(w, stats), sizeof(OldStats));
    check_and_destroy(w);
}

static void migrating_an_unregistered_id_is_refused_naming_it(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(migrate_stats(w, 777), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "777"));
    ecs_sched_clear_error(w);
    check_and_destroy(w);
}

/* An exclusive system that migrates Stats (its user data) while its schedule runs. */
static ecs_sched_result g_migrated_inside;

static void migrate_inside(ecs_sched_system_ctx *ctx) {
    ecs_sched_id stats = *(const ecs_sched_id *)ecs_sched_ctx_user_data(ctx);
    g_migrated_inside = migrate_stats(ecs_sched_ctx_world(ctx), stats);
}

static void a_migration_while_a_schedule_runs_is_refused_naming_the_schedule(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id stats = scripted_stats(w, ECS_SCHED_STORAGE_TABLE);
    (void)state;
    assert_int_equal(ecs_sched_add_system(w, "Update",
                                          &(ecs_sched_system_desc){.name = "migrate",
                                                                   .fn = migrate_inside,
                                                                   .user_data = &stats,
                                                                   .exclusive = true}),
                     ECS_SCHED_OK);
    g_migrated_inside = ECS_SCHED_OK;
    assert_int_equal(ecs_sched_run_schedule(w, "Update"), ECS_SCHED_ERR_SCHEDULE_RUNNING);
    assert_int_equal(g_migrated_inside, ECS_SCHED_ERR_SCHEDULE_RUNNING);
    assert_non_null(strstr(ecs_sched_last_error(w), "while schedule 'Update' runs"));
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_component_size(w, stats), sizeof(OldStats));
    assert_int_equal(migrate_stats(w, stats), ECS_SCHED_OK);
    check_and_destroy(w);
}

static void a_snapshot_taken_before_a_migration_is_not_restored(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id stats = scripted_stats(w, ECS_SCHED_STORAGE_TABLE);
    OldStats old = {9, 2.0f};
    ecs_sched_entity e = ecs_sched_spawn(w);
    ecs_sched_snapshot *before;
    (void)state;
    assert_int_equal(ecs_sched_insert(w, e, stats, &old), ECS_SCHED_OK);
    before = ecs_sched_snapshot_take(w);
    assert_non_null(before);
    assert_int_equal(migrate_stats(w, stats), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_snapshot_restore(w, before), ECS_SCHED_ERR_REFUSED);
    assert_non_null(strstr(ecs_sched_last_error(w), "taken before component 'Stats' changed its layout"));
    ecs_sched_clear_error(w);
    assert_int_equal(((const NewStats *)ecs_sched_get(w, e, stats))->hp, 9);
    assert_int_equal(ecs_sched_snapshot_retake(w, before), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_snapshot_restore(w, before), ECS_SCHED_OK);
    assert_int_equal(((const NewStats *)ecs_sched_get(w, e, stats))->hp, 9);
    ecs_sched_snapshot_free(before);
    check_and_destroy(w);
}

static void prefab_data_set_before_a_migration_is_not_instantiated(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id stats = scripted_stats(w, ECS_SCHED_STORAGE_TABLE);
    ecs_sched_prefab_data *data = ecs_sched_prefab_data_create(w);
    OldStats old = {3, 1.0f};
    NewStats now = {0.5, 4};
    ecs_sched_entity made[1];
    (void)state;
    assert_int_equal(ecs_sched_prefab_data_add(data, -1), 0);
    assert_int_equal(ecs_sched_prefab_data_set(data, 0, stats, &old), ECS_SCHED_OK);
    assert_int_equal(migrate_stats(w, stats), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_instantiate(w, data, ECS_SCHED_NULL_ENTITY, made),
                     ECS_SCHED_ERR_REFUSED);
    assert_non_null(strstr(ecs_sched_last_error(w), "entry 0 holds a value of 'Stats'"));
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_prefab_data_set(data, 0, stats, &now), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_prefab_data_instantiate(w, data, ECS_SCHED_NULL_ENTITY, made),
                     ECS_SCHED_OK);
    assert_int_equal(((const NewStats *)ecs_sched_get(w, made[0], stats))->hp, 4);
    ecs_sched_prefab_data_free(data);
    check_and_destroy(w);
}

/* ---- drivers, paths and calls given what they cannot use ---- */

static void *no_load(ecs_sched_script *script, const char *path, void *user_data) {
    (void)script;
    (void)path;
    (void)user_data;
    return NULL;
}

static ecs_sched_result no_declare(ecs_sched_script *script, void *version, void *user_data) {
    (void)script;
    (void)version;
    (void)user_data;
    return ECS_SCHED_OK;
}

static void no_unload(void *version, void *user_data) {
    (void)version;
    (void)user_data;
}

static void a_driver_missing_a_part_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    int k;
    (void)state;
    assert_int_equal(ecs_sched_script_driver_add(w, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    for (k = 0; k < 6; k++) {
        ecs_sched_script_driver d = line_driver_desc();
        if (k == 0) d.name = NULL;
        if (k == 1) d.name = "";
        if (k == 2) d.extensions = NULL;
        if (k == 3) d.extensions = "";
        if (k == 4) d.load = NULL;
        if (k == 5) d.unload = NULL;
        assert_int_equal(ecs_sched_script_driver_add(w, &d), ECS_SCHED_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(ecs_sched_last_error(w), "a driver needs a name, its file endings, "
                                                        "load, declare and unload"));
        ecs_sched_clear_error(w);
    }
    assert_null(ecs_sched_script_load(w, "any.lines"));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_NOT_FOUND);
    ecs_sched_clear_error(w);
    check_and_destroy(w);
}

static void endings_are_separated_by_any_number_of_spaces(void **state) {
    ecs_sched_world *w = world_with_driver();
    ecs_sched_script_driver d = line_driver_desc();
    (void)state;
    d.name = "spaced";
    d.extensions = "  .txt   .lst  ";
    assert_int_equal(ecs_sched_script_driver_add(w, &d), ECS_SCHED_OK);
    d.name = "clash";
    d.extensions = " .md  .lst";
    assert_int_equal(ecs_sched_script_driver_add(w, &d), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "driver 'clash' runs the files ending in '.lst', "
                                                    "which driver 'spaced' runs already"));
    ecs_sched_clear_error(w);
    snprintf(g_path, sizeof g_path, "%s.%d.lst", g_program, ++g_scripts);
    write_script("system Update a\n");
    assert_non_null(ecs_sched_script_load(w, g_path));
    assert_run_traces(w, "a@1");
    assert_null(ecs_sched_script_load(w, "st"));   /* shorter than every ending */
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_NOT_FOUND);
    ecs_sched_clear_error(w);
    finish(w);
}

static void a_driver_that_loads_nothing_without_saying_why_is_named(void **state) {
    ecs_sched_world *w = world_with_driver();
    ecs_sched_script_driver d;
    ecs_sched_script *script;
    char path[600];
    (void)state;
    memset(&d, 0, sizeof d);
    d.name = "mute";
    d.extensions = ".mute";
    d.load = no_load;
    d.declare = no_declare;
    d.unload = no_unload;
    assert_int_equal(ecs_sched_script_driver_add(w, &d), ECS_SCHED_OK);
    snprintf(path, sizeof path, "%s.mute", g_program);
    assert_null(ecs_sched_script_load(w, path));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_SCRIPT);
    assert_non_null(strstr(ecs_sched_last_error(w), "the mute driver could not load it"));
    assert_non_null(strstr(ecs_sched_last_error(w), path));
    ecs_sched_clear_error(w);
    assert_null(ecs_sched_script_find(w, path));
    write_script("system Update a\n");
    script = ecs_sched_script_load(w, g_path);
    assert_non_null(script);
    finish(w);
}

static void null_scripts_and_paths_are_refused(void **state) {
    ecs_sched_world *w = world_with_driver();
    ecs_sched_system_desc desc;
    (void)state;
    memset(&desc, 0, sizeof desc);
    assert_int_equal(ecs_sched_script_add_system(NULL, "Update", &desc, 0), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_script_add_observer(NULL, &(ecs_sched_observer_desc){0}, 0), 0);
    assert_int_equal(ecs_sched_script_fail(NULL, "x"), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_null(ecs_sched_script_path(NULL));
    assert_null(ecs_sched_script_world(NULL));
    assert_int_equal(ecs_sched_script_version(NULL), 0);
    assert_null(ecs_sched_script_find(w, NULL));
    assert_null(ecs_sched_script_load(w, NULL));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "script_load: give a path"));
    ecs_sched_clear_error(w);
    assert_null(ecs_sched_script_load(w, ""));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_ARGUMENT);
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_script_reload(w, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_script_unload(w, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "script_unload: not a script of this world"));
    ecs_sched_clear_error(w);
    finish(w);
}

static void a_script_of_another_world_is_refused(void **state) {
    ecs_sched_world *w = world_with_driver();
    ecs_sched_world_desc desc = logged_world_desc(&g_log);
    ecs_sched_world *other = ecs_sched_world_create(&desc);
    ecs_sched_script_driver d = line_driver_desc();
    ecs_sched_script *script;
    (void)state;
    assert_int_equal(ecs_sched_script_driver_add(other, &d), ECS_SCHED_OK);
    write_script("system Update a\n");
    script = ecs_sched_script_load(w, g_path);
    assert_non_null(script);
    assert_int_equal(ecs_sched_script_reload(other, script), ECS_SCHED_ERR_INVALID_ARGUMENT);
    ecs_sched_clear_error(other);
    assert_int_equal(ecs_sched_script_unload(other, script), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(other), "not a script of this world"));
    ecs_sched_clear_error(other);
    assert_int_equal(ecs_sched_script_unload(w, script), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_script_unload(w, script), ECS_SCHED_ERR_INVALID_ARGUMENT);
    ecs_sched_clear_error(w);
    ecs_sched_world_destroy(other);
    finish(w);
}

static void an_observer_the_world_refuses_fails_the_load(void **state) {
    ecs_sched_world *w = world_with_driver();
    (void)state;
    write_script("system Update a\nobserver Nothing watcher\n");
    assert_null(ecs_sched_script_load(w, g_path));
    assert_true(ecs_sched_last_result(w) != ECS_SCHED_OK);
    assert_non_null(strstr(ecs_sched_last_error(w), g_path));
    ecs_sched_clear_error(w);
    assert_null(ecs_sched_script_find(w, g_path));
    ADD_SYSTEM(w, .name = "c", .fn = record);
    assert_run_traces(w, "c");
    finish(w);
}

static void unloading_one_script_keeps_the_systems_of_another(void **state) {
    ecs_sched_world *w = world_with_driver();
    ecs_sched_script *first;
    (void)state;
    write_script("system Update a\n");
    first = ecs_sched_script_load(w, g_path);
    assert_non_null(first);
    snprintf(g_path, sizeof g_path, "%s.%d.lines", g_program, ++g_scripts);
    write_script("system Update b\n");
    assert_non_null(ecs_sched_script_load(w, g_path));
    assert_run_traces(w, "a@1 b@2");
    assert_int_equal(ecs_sched_script_unload(w, first), ECS_SCHED_OK);
    g_trace[0] = '\0';
    assert_run_traces(w, "b@2");
    finish(w);
}

static ecs_sched_script *g_loaded_inside;
static ecs_sched_result g_unloaded_inside;

static void load_and_unload_from_a_system(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    g_loaded_inside = ecs_sched_script_load(w, g_path);
    g_unloaded_inside = ecs_sched_script_unload(w, (ecs_sched_script *)ecs_sched_ctx_user_data(ctx));
}

static void a_script_is_not_loaded_or_unloaded_while_a_schedule_runs(void **state) {
    ecs_sched_world *w = world_with_driver();
    ecs_sched_script *script;
    (void)state;
    write_script("system Update a\n");
    script = ecs_sched_script_load(w, g_path);
    snprintf(g_path, sizeof g_path, "%s.%d.lines", g_program, ++g_scripts);
    write_script("system Update b\n");
    assert_int_equal(ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
                                                           .name = "loader",
                                                           .fn = load_and_unload_from_a_system,
                                                           .user_data = script,
                                                           .exclusive = true}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, "Update"), ECS_SCHED_ERR_SCHEDULE_RUNNING);
    ecs_sched_clear_error(w);
    assert_null(g_loaded_inside);
    assert_int_equal(g_unloaded_inside, ECS_SCHED_ERR_SCHEDULE_RUNNING);
    assert_null(ecs_sched_script_find(w, g_path));
    assert_ptr_equal(ecs_sched_script_find(w, ecs_sched_script_path(script)), script);
    finish(w);
}

static void poll_passes_over_a_script_whose_file_is_gone(void **state) {
    ecs_sched_world *w = world_with_driver();
    ecs_sched_script *script;
    (void)state;
    write_script("system Update a\n");
    script = ecs_sched_script_load(w, g_path);
    remove(g_path);
    assert_int_equal(ecs_sched_scripts_poll(w), 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_script_version(script), 1);
    assert_run_traces(w, "a@1");
    finish(w);
}

static int g_own_observer_calls;

static void own_observer(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *trigger) {
    (void)trigger;
    assert_ptr_equal(ecs_sched_ctx_user_data(ctx), &g_own_observer_calls);
    g_own_observer_calls++;
}

static ecs_sched_result own_declare(ecs_sched_script *script, void *version, void *user_data) {
    ecs_sched_observer_desc desc;
    (void)version;
    (void)user_data;
    memset(&desc, 0, sizeof desc);
    desc.name = "own";
    desc.event = ECS_SCHED_ON_ADD;
    desc.component = ecs_sched_component_lookup(ecs_sched_script_world(script), "Position");
    desc.fn = own_observer;
    desc.user_data = &g_own_observer_calls;
    return ecs_sched_script_add_observer(script, &desc, 0) ? ECS_SCHED_OK
                                                           : ecs_sched_last_result(ecs_sched_script_world(script));
}

static void *own_load(ecs_sched_script *script, const char *path, void *user_data) {
    (void)script;
    (void)path;
    return user_data;
}

static void an_observer_with_a_function_of_its_own_is_called_with_its_user_data(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_script_driver d;
    ecs_sched_id position = ECS_SCHED_COMPONENT(w, Position);
    static int version;
    (void)state;
    memset(&d, 0, sizeof d);
    d.name = "own";
    d.extensions = ".own";
    d.user_data = &version;
    d.load = own_load;
    d.declare = own_declare;
    d.unload = no_unload;
    assert_int_equal(ecs_sched_script_driver_add(w, &d), ECS_SCHED_OK);
    g_own_observer_calls = 0;
    assert_non_null(ecs_sched_script_load(w, "any.own"));
    assert_int_equal(ecs_sched_insert(w, ecs_sched_spawn(w), position, NULL), ECS_SCHED_OK);
    assert_int_equal(g_own_observer_calls, 1);
    check_and_destroy(w);
}

/* ---- a world without memory for a driver ---- */

static int g_allocations_left = -1;   /* -1: no limit */

static void *limited_realloc(void *ptr, size_t size, void *user_data) {
    (void)user_data;
    if (g_allocations_left == 0) return NULL;
    if (g_allocations_left > 0) g_allocations_left--;
    return realloc(ptr, size);
}

static void limited_free(void *ptr, void *user_data) {
    (void)user_data;
    free(ptr);
}

static void a_driver_the_world_has_no_memory_for_is_refused(void **state) {
    int budget;
    (void)state;
    for (budget = 0; budget < 4; budget++) {
        ecs_sched_world_desc desc = logged_world_desc(&g_log);
        ecs_sched_script_driver d = line_driver_desc();
        ecs_sched_world *w;
        desc.allocator.realloc_fn = limited_realloc;
        desc.allocator.free_fn = limited_free;
        w = ecs_sched_world_create(&desc);
        assert_non_null(w);
        memset(&g_driver, 0, sizeof g_driver);
        g_allocations_left = budget;
        assert_int_equal(ecs_sched_script_driver_add(w, &d), ECS_SCHED_ERR_OUT_OF_MEMORY);
        assert_non_null(strstr(ecs_sched_last_error(w), "adding a script driver"));
        g_allocations_left = -1;
        ecs_sched_clear_error(w);
        assert_int_equal(ecs_sched_script_driver_add(w, &d), ECS_SCHED_OK);
        assert_int_equal(ecs_sched_world_check(w), ECS_SCHED_OK);
        ecs_sched_world_destroy(w);
        assert_int_equal(g_driver.destroyed, 1);
    }
}

static void a_load_out_of_memory_leaves_nothing_behind(void **state) {
    int budget, loaded = 0;
    (void)state;
    for (budget = 0; budget < 400 && !loaded; budget++) {
        ecs_sched_world_desc desc = logged_world_desc(&g_log);
        ecs_sched_script_driver d = line_driver_desc();
        ecs_sched_world *w;
        ecs_sched_script *script;
        desc.allocator.realloc_fn = limited_realloc;
        desc.allocator.free_fn = limited_free;
        desc.executor = ECS_SCHED_EXECUTOR_SINGLE_THREADED;
        w = ecs_sched_world_create(&desc);
        assert_non_null(w);
        memset(&g_driver, 0, sizeof g_driver);
        assert_int_equal(ecs_sched_script_driver_add(w, &d), ECS_SCHED_OK);
        snprintf(g_path, sizeof g_path, "%s.oom.lines", g_program);
        write_script("system Update a\nsystem Update b after a\n");
        g_allocations_left = budget;
        script = ecs_sched_script_load(w, g_path);
        g_allocations_left = -1;
        if (script) {
            loaded = 1;
            g_trace[0] = '\0';
            assert_run_traces(w, "a@1 b@1");
        } else {
            assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_OUT_OF_MEMORY);
            ecs_sched_clear_error(w);
            assert_null(ecs_sched_script_find(w, g_path));
            assert_int_equal(g_driver.loads, g_driver.unloads);
        }
        assert_int_equal(ecs_sched_world_check(w), ECS_SCHED_OK);
        ecs_sched_world_destroy(w);
        remove(g_path);
    }
    assert_true(loaded);
    assert_true(budget > 3);
}

/* ---- migrations a script's component cannot take ---- */

static void a_migration_without_a_description_needs_a_conversion(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_component_desc desc = {0};
    ecs_sched_id stats;
    (void)state;
    desc.name = "Stats";
    desc.size = sizeof(OldStats);
    desc.scripted = true;
    stats = ecs_sched_component_register(w, &desc);
    assert_int_equal(migrate_stats(w, stats), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "component 'Stats' has no description, so its "
                                                    "values cannot be converted by member name"));
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_component_size(w, stats), sizeof(OldStats));
    check_and_destroy(w);
}

static void a_migration_that_retypes_a_member_is_refused_naming_it(void **state) {
    typedef struct { float hp; float armor; } FloatStats;
    static const ecs_sched_member float_stats[] = {
        ECS_SCHED_MEMBER(FloatStats, hp, ECS_SCHED_TYPE_F32),
        ECS_SCHED_MEMBER(FloatStats, armor, ECS_SCHED_TYPE_F32)};
    ecs_sched_world *w = new_world();
    ecs_sched_id stats = scripted_stats(w, ECS_SCHED_STORAGE_TABLE);
    (void)state;
    assert_int_equal(ecs_sched_component_migrate(w, stats, sizeof(FloatStats), ECS_SCHED_ALIGNOF(FloatStats),
                                                 2, float_stats, NULL, NULL),
                     ECS_SCHED_ERR_COMPONENT_MISMATCH);
    assert_non_null(strstr(ecs_sched_last_error(w), "component 'Stats': field 'hp' was i32 and is f32 now"));
    ecs_sched_clear_error(w);
    check_and_destroy(w);
}

static void halve_armor(void *dst, const void *src, void *user_data) {
    const OldStats *old = (const OldStats *)src;
    NewStats *now = (NewStats *)dst;
    now->hp = old->hp * *(const int *)user_data;
    now->shield = old->armor / 2;
}

static void a_migration_with_a_conversion_of_its_own_converts_every_value(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id stats = scripted_stats(w, ECS_SCHED_STORAGE_TABLE);
    OldStats old = {7, 3.0f};
    ecs_sched_entity e = ecs_sched_spawn(w);
    int factor = 3;
    const NewStats *now;
    (void)state;
    assert_int_equal(ecs_sched_insert(w, e, stats, &old), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_component_migrate(w, stats, sizeof(NewStats), 0, 2, NEW_STATS,
                                                 halve_armor, &factor),
                     ECS_SCHED_OK);
    now = (const NewStats *)ecs_sched_get(w, e, stats);
    assert_int_equal(now->hp, 21);
    assert_true(now->shield == 1.5);
    check_and_destroy(w);
}

static void a_value_in_a_delayed_buffer_refuses_the_migration_until_it_is_applied(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id stats = scripted_stats(w, ECS_SCHED_STORAGE_TABLE);
    ecs_sched_id position = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_commands *cmd, *later;
    OldStats old = {12, 0.5f};
    ecs_sched_entity e = ecs_sched_spawn(w);
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_OK);
    cmd = ecs_sched_commands_create(w);
    assert_int_equal(ecs_sched_commands_insert(cmd, e, position, NULL), ECS_SCHED_OK);
    later = ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, ECS_SCHED_MILLISECONDS(100));
    assert_non_null(later);
    assert_int_equal(ecs_sched_commands_insert(later, e, stats, &old), ECS_SCHED_OK);
    assert_int_equal(migrate_stats(w, stats), ECS_SCHED_ERR_REFUSED);   /* in the buffer it made */
    assert_non_null(strstr(ecs_sched_last_error(w), "holds a value of component 'Stats' not applied"));
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_waiting(w, ECS_SCHED_CLOCK_VIRTUAL), 1);
    assert_int_equal(migrate_stats(w, stats), ECS_SCHED_ERR_REFUSED);   /* waiting for its clock */
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_time_advance_by(w, ECS_SCHED_MILLISECONDS(200)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_waiting(w, ECS_SCHED_CLOCK_VIRTUAL), 0);
    assert_int_equal(migrate_stats(w, stats), ECS_SCHED_OK);
    assert_int_equal(((const NewStats *)ecs_sched_get(w, e, stats))->hp, 12);
    ecs_sched_commands_destroy(cmd);
    check_and_destroy(w);
}

static void a_buffer_holding_other_components_leaves_the_migration_free(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id stats = scripted_stats(w, ECS_SCHED_STORAGE_TABLE);
    ecs_sched_id position = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_commands *cmd = ecs_sched_commands_create(w);
    ecs_sched_entity a = ecs_sched_spawn(w), b = ecs_sched_spawn(w);
    (void)state;
    assert_int_equal(ecs_sched_commands_insert(cmd, a, position, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_insert(cmd, b, position, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_remove(cmd, a, stats), ECS_SCHED_OK);   /* no value */
    assert_int_equal(migrate_stats(w, stats), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_component_size(w, stats), sizeof(NewStats));
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_true(ecs_sched_has(w, b, position));
    ecs_sched_commands_destroy(cmd);
    check_and_destroy(w);
}

/* A driver whose first load gives a version and whose later ones give nothing, silently. */
static void *once_load(ecs_sched_script *script, const char *path, void *user_data) {
    int *loads = (int *)user_data;
    (void)script;
    (void)path;
    return (*loads)++ == 0 ? (void *)loads : NULL;
}

static void a_reload_the_driver_gives_nothing_for_keeps_the_version_before(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_script_driver d;
    ecs_sched_script *script;
    int loads = 0;
    (void)state;
    memset(&d, 0, sizeof d);
    d.name = "once";
    d.extensions = ".once";
    d.user_data = &loads;
    d.load = once_load;
    d.declare = no_declare;
    d.unload = no_unload;
    assert_int_equal(ecs_sched_script_driver_add(w, &d), ECS_SCHED_OK);
    script = ecs_sched_script_load(w, "any.once");
    assert_non_null(script);
    assert_int_equal(ecs_sched_script_reload(w, script), ECS_SCHED_ERR_SCRIPT);
    assert_non_null(strstr(ecs_sched_last_error(w), "script 'any.once': the once driver could not load it"));
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_script_version(script), 1);
    assert_int_equal(loads, 2);
    check_and_destroy(w);
}

static void a_script_given_no_desc_or_no_format_is_answered(void **state) {
    ecs_sched_world *w = world_with_driver();
    ecs_sched_script *script;
    char expected[700];
    (void)state;
    write_script("system Update a\n");
    script = ecs_sched_script_load(w, g_path);
    assert_non_null(script);
    assert_int_equal(ecs_sched_script_add_system(script, "Update", NULL, 0), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_script_add_observer(script, NULL, 0), 0);
    assert_int_equal(ecs_sched_script_fail(script, NULL), ECS_SCHED_ERR_SCRIPT);
    snprintf(expected, sizeof expected, "script '%s': failed", g_path);
    assert_string_equal(ecs_sched_last_error(w), expected);
    ecs_sched_clear_error(w);
    assert_run_traces(w, "a@1");
    finish(w);
}

static void a_world_without_scripts_polls_nothing_and_unloads_nothing(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(ecs_sched_scripts_poll(w), 0);
    assert_null(ecs_sched_script_find(w, "any.lines"));
    assert_int_equal(ecs_sched_script_unload(w, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "script_unload: not a script of this world"));
    ecs_sched_clear_error(w);
    assert_null(ecs_sched_script_load(w, "any.lines"));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_NOT_FOUND);
    ecs_sched_clear_error(w);
    check_and_destroy(w);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_script_s_systems_run_in_their_schedule_through_its_driver),
        cmocka_unit_test(a_reload_replaces_the_script_s_systems_and_keeps_the_world),
        cmocka_unit_test(a_reload_that_does_not_load_keeps_the_version_before_running),
        cmocka_unit_test(a_reload_whose_declaration_is_refused_keeps_the_version_before),
        cmocka_unit_test(a_reload_that_breaks_its_schedule_keeps_the_version_before),
        cmocka_unit_test(a_script_that_fails_to_load_leaves_nothing_behind),
        cmocka_unit_test(unloading_a_script_takes_out_its_systems_and_observers),
        cmocka_unit_test(poll_reloads_the_scripts_whose_file_changed),
        cmocka_unit_test(poll_sees_a_file_rewritten_at_once_with_as_many_bytes),
        cmocka_unit_test(poll_tries_a_file_that_failed_once_until_it_changes_again),
        cmocka_unit_test(a_script_is_not_reloaded_while_a_schedule_runs),
        cmocka_unit_test(an_app_that_watches_reloads_changed_scripts_before_each_update),
        cmocka_unit_test(a_script_is_not_reloaded_from_inside_an_observer),
        cmocka_unit_test(a_path_is_loaded_once),
        cmocka_unit_test(bad_drivers_and_paths_are_refused_naming_them),
        cmocka_unit_test(a_sparse_component_s_values_are_migrated),
        cmocka_unit_test(a_resource_of_a_script_s_component_is_migrated),
        cmocka_unit_test(a_component_c_registered_keeps_its_layout),
        cmocka_unit_test(a_value_waiting_in_a_command_buffer_refuses_the_migration),
        cmocka_unit_test(a_snapshot_taken_before_a_migration_is_not_restored),
        cmocka_unit_test(a_script_s_component_with_hooks_is_not_migrated),
        cmocka_unit_test(a_migration_to_an_empty_layout_is_refused_naming_the_component),
        cmocka_unit_test(migrating_an_unregistered_id_is_refused_naming_it),
        cmocka_unit_test(a_migration_while_a_schedule_runs_is_refused_naming_the_schedule),
        cmocka_unit_test(prefab_data_set_before_a_migration_is_not_instantiated),
        cmocka_unit_test(a_driver_missing_a_part_is_refused),
        cmocka_unit_test(endings_are_separated_by_any_number_of_spaces),
        cmocka_unit_test(a_driver_that_loads_nothing_without_saying_why_is_named),
        cmocka_unit_test(null_scripts_and_paths_are_refused),
        cmocka_unit_test(a_script_of_another_world_is_refused),
        cmocka_unit_test(an_observer_the_world_refuses_fails_the_load),
        cmocka_unit_test(unloading_one_script_keeps_the_systems_of_another),
        cmocka_unit_test(a_script_is_not_loaded_or_unloaded_while_a_schedule_runs),
        cmocka_unit_test(poll_passes_over_a_script_whose_file_is_gone),
        cmocka_unit_test(an_observer_with_a_function_of_its_own_is_called_with_its_user_data),
        cmocka_unit_test(a_driver_the_world_has_no_memory_for_is_refused),
        cmocka_unit_test(a_load_out_of_memory_leaves_nothing_behind),
        cmocka_unit_test(a_migration_without_a_description_needs_a_conversion),
        cmocka_unit_test(a_migration_that_retypes_a_member_is_refused_naming_it),
        cmocka_unit_test(a_migration_with_a_conversion_of_its_own_converts_every_value),
        cmocka_unit_test(a_value_in_a_delayed_buffer_refuses_the_migration_until_it_is_applied),
        cmocka_unit_test(a_buffer_holding_other_components_leaves_the_migration_free),
        cmocka_unit_test(a_reload_the_driver_gives_nothing_for_keeps_the_version_before),
        cmocka_unit_test(a_script_given_no_desc_or_no_format_is_answered),
        cmocka_unit_test(a_world_without_scripts_polls_nothing_and_unloads_nothing),
    };
    if (argc > 0) g_program = argv[0];
    return cmocka_run_group_tests(tests, NULL, NULL);
}
