/* Plugins: a plugin is built once, identified by its name; the plugins it needs come first, in
   order (a plugin with needs only is a group); several plugins are checked before any is
   added; nameless plugins and needs in a cycle are refused with what is wrong; exported sets
   exist before the build, so users can order against them; a failing build names the plugin
   and leaves it unadded; plugins compose with resources and states. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "app_fixture.h"

/* ---- builds and plugins ---- */

/* Writes its user_data (a word) to the trace: the trace is the order of the builds. */
static ecs_sched_result trace_build(ecs_sched_app *app, void *user_data) {
    (void)app;
    trace_add((const char *)user_data);
    return ECS_SCHED_OK;
}

/* Adds a system to "Update" that writes user_data (a word) to the trace when it runs. */
static ecs_sched_result add_traced_system_build(ecs_sched_app *app, void *user_data) {
    return ecs_sched_add_system(ecs_sched_app_world(app), UPDATE,
                                &(ecs_sched_system_desc){.name = (const char *)user_data,
                                                         .fn = record});
}

static ecs_sched_result g_inner;   /* what the add inside add_user_data_build returned */

/* Adds the plugin in its user_data, from inside a build. */
static ecs_sched_result add_user_data_build(ecs_sched_app *app, void *user_data) {
    g_inner = ecs_sched_app_add_plugin(app, (const ecs_sched_plugin *)user_data);
    return g_inner;
}

/* Builds schedule "Update" now: it fails when a set it is ordered against is unknown. */
static ecs_sched_result build_update_now(ecs_sched_app *app, void *user_data) {
    (void)user_data;
    return ecs_sched_schedule_build(ecs_sched_app_world(app), UPDATE);
}

static int g_failures_left;   /* how many more times flaky_build fails */

/* Fails (with a message, as a library call does) while g_failures_left > 0. */
static ecs_sched_result flaky_build(ecs_sched_app *app, void *user_data) {
    trace_add((const char *)user_data);
    if (g_failures_left > 0) {
        g_failures_left--;
        return ecs_sched_app_insert_schedule_after(app, "NoSuchSchedule", "Mine");
    }
    return ECS_SCHED_OK;
}

/* Fails without saying why: only the code tells. */
static ecs_sched_result quietly_failing_build(ecs_sched_app *app, void *user_data) {
    (void)app;
    (void)user_data;
    return ECS_SCHED_ERR_INVALID_ARGUMENT;
}

static const ecs_sched_plugin audio = {.name = "Audio", .build = trace_build, .user_data = "Audio"};
static const ecs_sched_plugin render = {.name = "Render", .build = trace_build, .user_data = "Render"};
static const ecs_sched_plugin input = {.name = "Input", .build = trace_build, .user_data = "Input"};
/* its needs, not in alphabetical order */
static const ecs_sched_plugin game = {.name = "Game", .build = trace_build, .user_data = "Game",
                                      .needs = {&render, &audio}};
static const ecs_sched_plugin default_plugins = {.name = "DefaultPlugins",
                                                 .needs = {&render, &input, &audio}};

static ecs_sched_world *world(void) {
    return ecs_sched_app_world(g_app);
}

/* A macro, so that a failure points at the test. */
#define add_ok(plugin) assert_int_equal(ecs_sched_app_add_plugin(g_app, (plugin)), ECS_SCHED_OK)

/* ---- adding ---- */

static void a_plugin_is_built_once_when_added_and_the_app_has_it_from_then_on(void **state) {
    (void)state;
    new_app();
    assert_false(ecs_sched_app_has_plugin(g_app, "Audio"));
    add_ok(&audio);
    assert_string_equal(g_trace, "Audio");
    assert_true(ecs_sched_app_has_plugin(g_app, "Audio"));
    assert_false(ecs_sched_app_has_plugin(g_app, "Render"));
    destroy_app(g_app);
}

static void a_plugins_systems_run_in_the_update_once_however_often_it_is_added(void **state) {
    static const ecs_sched_plugin mover = {.name = "Mover", .build = add_traced_system_build,
                                           .user_data = "moved"};
    (void)state;
    new_app();
    add_ok(&mover);
    add_ok(&mover);
    assert_string_equal(g_trace, "");   /* built, not run */
    assert_int_equal(ecs_sched_app_update_by(g_app, ECS_SCHED_MILLISECONDS(16)), ECS_SCHED_OK);
    assert_string_equal(g_trace, "moved");
    destroy_app(g_app);
}

static void adding_a_plugin_twice_builds_it_once_and_says_so_at_debug_level(void **state) {
    int messages;
    (void)state;
    new_app();
    add_ok(&audio);
    messages = g_log.count;
    add_ok(&audio);
    assert_string_equal(g_trace, "Audio");
    assert_int_equal(g_log.count, messages + 1);
    assert_int_equal(g_log.last_level, ECS_SCHED_LOG_DEBUG);
    assert_contains(g_log.last, "'Audio'");
    assert_contains(g_log.last, "already");
    assert_int_equal(g_log.errors, 0);
    destroy_app(g_app);
}

static void two_plugins_with_the_same_name_are_the_same_plugin(void **state) {
    static const ecs_sched_plugin other_audio = {.name = "Audio", .build = trace_build,
                                                 .user_data = "OtherAudio"};
    (void)state;
    new_app();
    add_ok(&audio);
    add_ok(&other_audio);
    assert_string_equal(g_trace, "Audio");
    destroy_app(g_app);
}

/* ---- needs and groups ---- */

static void the_plugins_a_plugin_needs_are_built_before_it_in_the_order_of_needs(void **state) {
    (void)state;
    new_app();
    add_ok(&game);
    assert_string_equal(g_trace, "Render Audio Game");
    assert_true(ecs_sched_app_has_plugin(g_app, "Render"));
    assert_true(ecs_sched_app_has_plugin(g_app, "Audio"));
    assert_true(ecs_sched_app_has_plugin(g_app, "Game"));
    destroy_app(g_app);
}

static void a_need_the_app_has_already_is_not_built_again(void **state) {
    (void)state;
    new_app();
    add_ok(&audio);
    add_ok(&game);
    assert_string_equal(g_trace, "Audio Render Game");
    destroy_app(g_app);
}

static void a_plugin_with_needs_and_no_build_is_a_group_that_adds_them_in_order(void **state) {
    (void)state;
    new_app();
    add_ok(&default_plugins);
    assert_string_equal(g_trace, "Render Input Audio");
    assert_true(ecs_sched_app_has_plugin(g_app, "DefaultPlugins"));
    assert_true(ecs_sched_app_has_plugin(g_app, "Render"));
    assert_true(ecs_sched_app_has_plugin(g_app, "Input"));
    assert_true(ecs_sched_app_has_plugin(g_app, "Audio"));
    destroy_app(g_app);
}

static void adding_several_plugins_adds_them_in_order(void **state) {
    const ecs_sched_plugin *const plugins[] = {&input, &game, &audio};
    (void)state;
    new_app();
    assert_int_equal(ecs_sched_app_add_plugins(g_app, 3, plugins), ECS_SCHED_OK);
    assert_string_equal(g_trace, "Input Render Audio Game");
    assert_true(ecs_sched_app_has_plugin(g_app, "Game"));
    destroy_app(g_app);
}

static void adding_several_plugins_adds_none_when_one_has_no_name(void **state) {
    static const ecs_sched_plugin nameless = {.build = trace_build, .user_data = "Nameless"};
    const ecs_sched_plugin *const plugins[] = {&audio, &game, &nameless, &input};
    (void)state;
    new_app();
    assert_int_equal(ecs_sched_app_add_plugins(g_app, 4, plugins), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(world()), "a plugin needs a name");
    assert_string_equal(g_trace, "");
    assert_false(ecs_sched_app_has_plugin(g_app, "Audio"));
    assert_false(ecs_sched_app_has_plugin(g_app, "Render"));
    assert_false(ecs_sched_app_has_plugin(g_app, "Game"));
    destroy_app(g_app);
}

/* ---- refusals ---- */

static void a_plugin_without_a_name_is_refused_and_not_built(void **state) {
    static const ecs_sched_plugin null_name = {.build = trace_build, .user_data = "NullName",
                                               .needs = {&audio}};
    static const ecs_sched_plugin empty_name = {.name = "", .build = trace_build,
                                                .user_data = "EmptyName"};
    (void)state;
    new_app();
    assert_int_equal(ecs_sched_app_add_plugin(g_app, &null_name), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(world()), "a plugin needs a name");
    assert_int_equal(ecs_sched_app_add_plugin(g_app, &empty_name), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_app_add_plugin(g_app, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_string_equal(g_trace, "");
    assert_false(ecs_sched_app_has_plugin(g_app, "Audio"));   /* not even its needs */
    assert_false(ecs_sched_app_has_plugin(g_app, ""));
    destroy_app(g_app);
}

static void plugins_that_need_each_other_are_refused_with_the_cycle_before_any_build(void **state) {
    ecs_sched_plugin a = {.name = "A", .build = trace_build, .user_data = "A"};
    ecs_sched_plugin b = {.name = "B", .build = trace_build, .user_data = "B"};
    (void)state;
    a.needs[0] = &audio;   /* not in the cycle, and needed first: still not built */
    a.needs[1] = &b;
    b.needs[0] = &a;
    new_app();
    assert_int_equal(ecs_sched_app_add_plugin(g_app, &a), ECS_SCHED_ERR_PLUGIN_CYCLE);
    assert_string_equal(ecs_sched_last_error(world()),
                        "plugins need each other in a cycle: A -> B -> A; remove one of these "
                        "needs");
    assert_string_equal(g_trace, "");
    assert_false(ecs_sched_app_has_plugin(g_app, "A"));
    assert_false(ecs_sched_app_has_plugin(g_app, "B"));
    assert_false(ecs_sched_app_has_plugin(g_app, "Audio"));
    destroy_app(g_app);
}

static void a_build_that_adds_its_own_plugin_fails_with_the_cycle(void **state) {
    ecs_sched_plugin selfish = {.name = "Selfish", .build = add_user_data_build};
    (void)state;
    selfish.user_data = &selfish;
    new_app();
    g_inner = ECS_SCHED_OK;
    assert_int_equal(ecs_sched_app_add_plugin(g_app, &selfish), ECS_SCHED_ERR_PLUGIN_CYCLE);
    assert_int_equal(g_inner, ECS_SCHED_ERR_PLUGIN_CYCLE);
    assert_contains(ecs_sched_last_error(world()), "plugin 'Selfish' failed to build");
    assert_contains(ecs_sched_last_error(world()), "in a cycle: Selfish -> Selfish;");
    assert_false(ecs_sched_app_has_plugin(g_app, "Selfish"));
    destroy_app(g_app);
}

static void a_build_that_adds_the_plugin_that_needs_it_fails_with_the_cycle(void **state) {
    ecs_sched_plugin parent = {.name = "Parent", .build = trace_build, .user_data = "Parent"};
    ecs_sched_plugin child = {.name = "Child", .build = add_user_data_build};
    (void)state;
    parent.needs[0] = &child;
    child.user_data = &parent;
    new_app();
    g_inner = ECS_SCHED_OK;
    assert_int_equal(ecs_sched_app_add_plugin(g_app, &parent), ECS_SCHED_ERR_PLUGIN_CYCLE);
    assert_int_equal(g_inner, ECS_SCHED_ERR_PLUGIN_CYCLE);
    assert_contains(ecs_sched_last_error(world()), "plugin 'Child' failed to build");
    assert_contains(ecs_sched_last_error(world()), "in a cycle: Parent -> Child -> Parent;");
    assert_string_equal(g_trace, "");   /* Parent's build never ran */
    assert_false(ecs_sched_app_has_plugin(g_app, "Parent"));
    assert_false(ecs_sched_app_has_plugin(g_app, "Child"));
    destroy_app(g_app);
}

/* ---- exports ---- */

static void an_exported_set_is_configured_before_the_build_so_ordering_against_it_is_no_unknown_set(
    void **state) {
    static const ecs_sched_plugin physics = {.name = "Physics", .build = build_update_now,
                                             .exports = {{UPDATE, "PhysicsSet"}}};
    (void)state;
    new_app();
    assert_int_equal(ecs_sched_schedule_configure(world(), UPDATE,
                                                  &(ecs_sched_schedule_desc){
                                                      .unknown_sets = ECS_SCHED_REPORT_ERROR}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(world(), UPDATE,
                                          &(ecs_sched_system_desc){.name = "camera", .fn = record,
                                                                   .after = {"PhysicsSet"}}),
                     ECS_SCHED_OK);
    add_ok(&physics);   /* its build builds Update: the set is known by then */
    assert_int_equal(ecs_sched_app_update_by(g_app, ECS_SCHED_MILLISECONDS(16)), ECS_SCHED_OK);
    assert_string_equal(g_trace, "camera");
    assert_int_equal(g_log.warnings, 0);
    assert_int_equal(g_log.errors, 0);
    destroy_app(g_app);
}

/* The physics plugin of the RFC: its systems in its exported set. */
static ecs_sched_result physics_build(ecs_sched_app *app, void *user_data) {
    (void)user_data;
    return ecs_sched_add_systems(
        ecs_sched_app_world(app), UPDATE,
        &(ecs_sched_systems_desc){.systems = SYSTEMS({.name = "integrate", .fn = record},
                                                     {.name = "collide", .fn = record}),
                                  .count = 2, .chain = true, .in_set = {"Physics"}});
}

static void a_plugins_systems_in_its_exported_set_run_before_user_systems_ordered_after_it(
    void **state) {
    static const ecs_sched_plugin physics = {.name = "PhysicsPlugin", .build = physics_build,
                                             .exports = {{UPDATE, "Physics"}}};
    (void)state;
    new_app();
    /* added first: without its ordering it would run first */
    assert_int_equal(ecs_sched_add_system(world(), UPDATE,
                                          &(ecs_sched_system_desc){.name = "camera", .fn = record,
                                                                   .after = {"Physics"}}),
                     ECS_SCHED_OK);
    add_ok(&physics);
    assert_int_equal(ecs_sched_app_update_by(g_app, ECS_SCHED_MILLISECONDS(16)), ECS_SCHED_OK);
    assert_string_equal(g_trace, "integrate collide camera");
    destroy_app(g_app);
}

static void an_export_with_a_schedule_but_no_set_is_refused_naming_the_plugin(void **state) {
    static const ecs_sched_plugin broken = {.name = "Broken", .build = trace_build,
                                            .user_data = "Broken", .needs = {&audio},
                                            .exports = {{UPDATE, "Fine"}, {UPDATE, NULL}}};
    (void)state;
    new_app();
    assert_int_equal(ecs_sched_app_add_plugin(g_app, &broken), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(world()), "plugin 'Broken': export 1");
    assert_contains(ecs_sched_last_error(world()), "names schedule 'Update' but no set");
    assert_string_equal(g_trace, "");   /* neither it nor its needs were built */
    assert_false(ecs_sched_app_has_plugin(g_app, "Broken"));
    assert_false(ecs_sched_app_has_plugin(g_app, "Audio"));
    destroy_app(g_app);
}

/* ---- failing builds ---- */

static const ecs_sched_plugin flaky = {.name = "Flaky", .build = flaky_build, .user_data = "Flaky"};

static void a_failing_build_fails_the_add_with_its_code_naming_the_plugin(void **state) {
    (void)state;
    new_app();
    g_failures_left = 1;
    assert_int_equal(ecs_sched_app_add_plugin(g_app, &flaky), ECS_SCHED_ERR_UNKNOWN_SCHEDULE);
    assert_int_equal(ecs_sched_last_result(world()), ECS_SCHED_ERR_UNKNOWN_SCHEDULE);
    assert_contains(ecs_sched_last_error(world()), "plugin 'Flaky' failed to build");
    assert_contains(ecs_sched_last_error(world()), "NoSuchSchedule");   /* the build's cause */
    assert_false(ecs_sched_app_has_plugin(g_app, "Flaky"));
    destroy_app(g_app);
}

static void a_plugin_whose_build_failed_is_built_again_when_added_again(void **state) {
    (void)state;
    new_app();
    g_failures_left = 1;
    assert_int_equal(ecs_sched_app_add_plugin(g_app, &flaky), ECS_SCHED_ERR_UNKNOWN_SCHEDULE);
    add_ok(&flaky);
    assert_string_equal(g_trace, "Flaky Flaky");
    assert_true(ecs_sched_app_has_plugin(g_app, "Flaky"));
    destroy_app(g_app);
}

/* ---- plugins and states ---- */

enum { MENU, PLAYING };
static ecs_sched_id g_machine;
static ecs_sched_id g_score;

static ecs_sched_result game_state_build(ecs_sched_app *app, void *user_data) {
    ecs_sched_world *w = ecs_sched_app_world(app);
    Score score = {7};
    (void)user_data;
    g_score = ECS_SCHED_COMPONENT(w, Score);
    g_machine = ecs_sched_state_register(
        w, &(ecs_sched_state_desc){.name = "GameState", .values = {"Menu", "Playing"},
                                   .initial = PLAYING});
    if (!g_score || !g_machine) return ecs_sched_last_result(w);
    trace_in(w, ecs_sched_on_enter(w, g_machine, PLAYING), "+Playing");
    return ecs_sched_resource_insert(w, g_score, &score);
}

static void a_plugin_may_add_resources_and_states_that_the_first_update_enters(void **state) {
    static const ecs_sched_plugin game_state = {.name = "GameState", .build = game_state_build};
    (void)state;
    new_app();
    add_ok(&game_state);
    assert_int_equal(ecs_sched_state_get(world(), g_machine), ECS_SCHED_STATE_NONE);
    assert_int_equal(((const Score *)ecs_sched_resource_get(world(), g_score))->value, 7);
    assert_int_equal(ecs_sched_app_update_by(g_app, ECS_SCHED_MILLISECONDS(16)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_get(world(), g_machine), PLAYING);
    assert_string_equal(g_trace, "+Playing");
    destroy_app(g_app);
}

/* ---- exports with empty names, a build failing without a message ---- */

/* {UPDATE, ""}: an empty set name is no set, and the message says so. */
static void an_export_with_a_schedule_and_an_empty_set_says_it_names_no_set(void **state) {
    static const ecs_sched_plugin broken = {.name = "Broken", .exports = {{UPDATE, ""}}};
    (void)state;
    new_app();
    assert_int_equal(ecs_sched_app_add_plugin(g_app, &broken), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(world()), "plugin 'Broken': export 0");
    assert_contains(ecs_sched_last_error(world()), "names schedule 'Update' but no set");
    destroy_app(g_app);
}

/* {"", ""}: empty names count as none, so this is an unused slot, and nothing is configured
   for it. */
static void an_export_whose_names_are_both_empty_is_an_unused_slot(void **state) {
    static const ecs_sched_plugin odd = {.name = "Odd", .build = trace_build, .user_data = "Odd",
                                         .needs = {&audio}, .exports = {{"", ""}}};
    (void)state;
    new_app();
    assert_int_equal(ecs_sched_app_add_plugin(g_app, &odd), ECS_SCHED_OK);
    assert_string_equal(g_trace, "Audio Odd");
    assert_true(ecs_sched_app_has_plugin(g_app, "Odd"));
    destroy_app(g_app);
}

/* A build that returns an error without recording one is reported as failing, without the
   world's previous, unrelated error given as its cause. */
static void a_build_failing_without_a_message_is_not_blamed_on_an_earlier_error(void **state) {
    static const ecs_sched_plugin nameless = {.name = NULL};
    static const ecs_sched_plugin quiet_failure = {.name = "QuietFailure",
                                                   .build = quietly_failing_build};
    (void)state;
    new_app();
    assert_int_equal(ecs_sched_app_add_plugin(g_app, &nameless), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_app_add_plugin(g_app, &quiet_failure),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(world()), "plugin 'QuietFailure' failed to build");
    assert_lacks(ecs_sched_last_error(world()), "a plugin needs a name");
    destroy_app(g_app);
}


/* ---- limits ---- */

static void a_chain_of_needs_deeper_than_32_is_refused_and_nothing_is_added(void **state) {
    static ecs_sched_plugin chain[40];
    static char names[40][16];
    int i;
    (void)state;
    new_app();
    for (i = 0; i < 40; i++) {
        snprintf(names[i], sizeof names[i], "Link%d", i);
        memset(&chain[i], 0, sizeof chain[i]);
        chain[i].name = names[i];
        chain[i].build = trace_build;
        chain[i].user_data = names[i];
        if (i + 1 < 40) chain[i].needs[0] = &chain[i + 1];
    }
    assert_int_equal(ecs_sched_app_add_plugin(g_app, &chain[0]), ECS_SCHED_ERR_LIMIT);
    assert_non_null(strstr(ecs_sched_last_error(world()), "more than 32 needs deep"));
    assert_false(ecs_sched_app_has_plugin(g_app, "Link39"));
    assert_string_equal(g_trace, "");
    add_ok(&chain[10]);   /* 30 deep: within the limit, built innermost first */
    assert_true(ecs_sched_app_has_plugin(g_app, "Link39"));
    assert_non_null(strstr(g_trace, "Link39 Link38"));
    destroy_app(g_app);
}

static void add_plugins_with_a_negative_count_or_no_array_is_refused(void **state) {
    (void)state;
    new_app();
    assert_int_equal(ecs_sched_app_add_plugins(g_app, -1, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(world()), "app_add_plugins: -1 plugins"));
    assert_int_equal(ecs_sched_app_add_plugins(g_app, 2, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_app_add_plugins(g_app, 0, NULL), ECS_SCHED_OK);
    destroy_app(g_app);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_plugin_is_built_once_when_added_and_the_app_has_it_from_then_on),
        cmocka_unit_test(a_plugins_systems_run_in_the_update_once_however_often_it_is_added),
        cmocka_unit_test(adding_a_plugin_twice_builds_it_once_and_says_so_at_debug_level),
        cmocka_unit_test(two_plugins_with_the_same_name_are_the_same_plugin),
        cmocka_unit_test(the_plugins_a_plugin_needs_are_built_before_it_in_the_order_of_needs),
        cmocka_unit_test(a_need_the_app_has_already_is_not_built_again),
        cmocka_unit_test(a_plugin_with_needs_and_no_build_is_a_group_that_adds_them_in_order),
        cmocka_unit_test(adding_several_plugins_adds_them_in_order),
        cmocka_unit_test(adding_several_plugins_adds_none_when_one_has_no_name),
        cmocka_unit_test(a_plugin_without_a_name_is_refused_and_not_built),
        cmocka_unit_test(plugins_that_need_each_other_are_refused_with_the_cycle_before_any_build),
        cmocka_unit_test(a_build_that_adds_its_own_plugin_fails_with_the_cycle),
        cmocka_unit_test(a_build_that_adds_the_plugin_that_needs_it_fails_with_the_cycle),
        cmocka_unit_test(
            an_exported_set_is_configured_before_the_build_so_ordering_against_it_is_no_unknown_set),
        cmocka_unit_test(a_plugins_systems_in_its_exported_set_run_before_user_systems_ordered_after_it),
        cmocka_unit_test(an_export_with_a_schedule_but_no_set_is_refused_naming_the_plugin),
        cmocka_unit_test(a_failing_build_fails_the_add_with_its_code_naming_the_plugin),
        cmocka_unit_test(a_plugin_whose_build_failed_is_built_again_when_added_again),
        cmocka_unit_test(a_plugin_may_add_resources_and_states_that_the_first_update_enters),
        cmocka_unit_test(an_export_with_a_schedule_and_an_empty_set_says_it_names_no_set),
        cmocka_unit_test(an_export_whose_names_are_both_empty_is_an_unused_slot),
        cmocka_unit_test(a_build_failing_without_a_message_is_not_blamed_on_an_earlier_error),
        cmocka_unit_test(a_chain_of_needs_deeper_than_32_is_refused_and_nothing_is_added),
        cmocka_unit_test(add_plugins_with_a_negative_count_or_no_array_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_app);
}
