/* The order a schedule runs its systems in: insertion order for systems nothing orders,
   before/after otherwise; a shuffle seed moves only what nothing orders. Schedules are stored
   by label and can be run by exclusive systems, but never inside their own run. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "schedule_fixture.h"

/* The position of `name` in a plan, -1 when absent. */
static int position_in(const char **names, int32_t n, const char *name) {
    int32_t i;
    for (i = 0; i < n; i++) {
        if (strcmp(names[i], name) == 0) return (int)i;
    }
    return -1;
}

/* ---- the order of a run ---- */

static void unconstrained_systems_run_in_the_order_they_were_added(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "delta", .fn = record);
    ADD_SYSTEM(w, .name = "bravo", .fn = record);
    ADD_SYSTEM(w, .name = "alpha", .fn = record);
    ADD_SYSTEM(w, .name = "charlie", .fn = record);
    assert_string_equal(plan_of(w, UPDATE), "delta bravo alpha charlie");
    assert_run_traces(w, "delta bravo alpha charlie");
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void before_moves_a_system_ahead_of_one_added_earlier(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "render", .fn = record);
    ADD_SYSTEM(w, .name = "input", .fn = record, .before = {"render"});
    assert_string_equal(plan_of(w, UPDATE), "input render");
    assert_run_traces(w, "input render");
    check_and_destroy(w);
}

static void after_moves_a_system_behind_one_added_later(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "render", .fn = record, .after = {"input"});
    ADD_SYSTEM(w, .name = "input", .fn = record);
    assert_string_equal(plan_of(w, UPDATE), "input render");
    assert_run_traces(w, "input render");
    check_and_destroy(w);
}

static void orderings_combine_transitively(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "third", .fn = record, .after = {"second"});
    ADD_SYSTEM(w, .name = "second", .fn = record, .after = {"first"});
    ADD_SYSTEM(w, .name = "first", .fn = record);
    assert_string_equal(plan_of(w, UPDATE), "first second third");
    assert_run_traces(w, "first second third");
    check_and_destroy(w);
}

static void several_names_in_before_and_after_all_apply(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "late1", .fn = record);
    ADD_SYSTEM(w, .name = "late2", .fn = record);
    ADD_SYSTEM(w, .name = "middle", .fn = record, .before = {"late1", "late2"},
               .after = {"early1", "early2"});
    ADD_SYSTEM(w, .name = "early1", .fn = record);
    ADD_SYSTEM(w, .name = "early2", .fn = record);
    assert_string_equal(plan_of(w, UPDATE), "early1 early2 middle late1 late2");
    check_and_destroy(w);
}

static void each_run_calls_each_system_once(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "b", .fn = record, .after = {"a"});
    ADD_SYSTEM(w, .name = "a", .fn = record);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_run_traces(w, "a b a b a b");
    check_and_destroy(w);
}

static void building_without_running_calls_no_system(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "a", .fn = record);
    assert_int_equal(ecs_sched_schedule_build(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(plan_of(w, UPDATE), "a");
    assert_string_equal(g_trace, "");
    check_and_destroy(w);
}

static void schedule_order_returns_the_plan_size_even_beyond_capacity(void **state) {
    ecs_sched_world *w = new_world();
    const char *names[2] = {NULL, NULL};
    (void)state;
    ADD_SYSTEM(w, .name = "a", .fn = record);
    ADD_SYSTEM(w, .name = "b", .fn = record);
    ADD_SYSTEM(w, .name = "c", .fn = record);
    assert_int_equal(ecs_sched_schedule_order(w, UPDATE, names, 1), 3);
    assert_string_equal(names[0], "a");
    assert_null(names[1]);
    check_and_destroy(w);
}

/* ---- shuffling the unconstrained order ---- */

static void add_numbered_systems(ecs_sched_world *w, int count) {
    static const char *const names[] = {"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9"};
    int i;
    for (i = 0; i < count; i++) ADD_SYSTEM(w, .name = names[i], .fn = record);
}

static void set_seed(ecs_sched_world *w, uint64_t seed) {
    ecs_sched_schedule_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.shuffle_seed = seed;
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &desc), ECS_SCHED_OK);
}

static void the_same_shuffle_seed_gives_the_same_order(void **state) {
    ecs_sched_world *one = new_world(), *two;
    char first[4096];
    (void)state;
    set_seed(one, 12345);
    add_numbered_systems(one, 10);
    snprintf(first, sizeof first, "%s", plan_of(one, UPDATE));
    assert_int_equal(ecs_sched_run_schedule(one, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_trace, first);
    check_and_destroy(one);

    two = new_world();
    add_numbered_systems(two, 10);
    set_seed(two, 12345);
    assert_string_equal(plan_of(two, UPDATE), first);
    assert_int_equal(ecs_sched_run_schedule(two, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_trace, first);
    check_and_destroy(two);
}

static void some_shuffle_seed_changes_the_unconstrained_order(void **state) {
    ecs_sched_world *w = new_world();
    const char *names[16] = {NULL};
    uint64_t seed;
    int changed = 0, i;
    (void)state;
    add_numbered_systems(w, 10);
    assert_string_equal(plan_of(w, UPDATE), "s0 s1 s2 s3 s4 s5 s6 s7 s8 s9");
    for (seed = 1; seed <= 32; seed++) {
        set_seed(w, seed);
        assert_int_equal(ecs_sched_schedule_order(w, UPDATE, names, 16), 10);
        for (i = 0; i < 10; i++) {
            char name[16];
            snprintf(name, sizeof name, "s%d", i);
            assert_true(position_in(names, 10, name) >= 0); /* a permutation of the same systems */
        }
        if (strcmp(plan_of(w, UPDATE), "s0 s1 s2 s3 s4 s5 s6 s7 s8 s9") != 0) changed++;
    }
    assert_true(changed > 0);
    set_seed(w, 0);
    assert_string_equal(plan_of(w, UPDATE), "s0 s1 s2 s3 s4 s5 s6 s7 s8 s9");
    check_and_destroy(w);
}

static void shuffled_orders_keep_every_constraint(void **state) {
    static const char *const names_of[] = {"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9"};
    static const char *const edges[][2] = {
        {"s2", "s0"}, {"s0", "s5"}, {"s5", "s1"}, {"s3", "s1"}, {"s9", "s3"}, {"s7", "s8"},
        {"s4", "s8"}, {"s8", "s6"},
    };
    const size_t edge_count = sizeof edges / sizeof edges[0];
    ecs_sched_world *w = new_world();
    const char *names[16];
    uint64_t seed;
    size_t e;
    int i, distinct = 0;
    char previous[4096] = "";
    (void)state;
    for (i = 0; i < 10; i++) {
        ecs_sched_system_desc desc;
        int refs = 0;
        memset(&desc, 0, sizeof desc);
        desc.name = names_of[i];
        desc.fn = record;
        for (e = 0; e < edge_count; e++) {
            if (strcmp(edges[e][1], names_of[i]) == 0) desc.after[refs++] = edges[e][0];
        }
        assert_int_equal(ecs_sched_add_system(w, UPDATE, &desc), ECS_SCHED_OK);
    }
    for (seed = 1; seed <= 40; seed++) {
        int32_t n;
        set_seed(w, seed);
        n = ecs_sched_schedule_order(w, UPDATE, names, 16);
        assert_int_equal(n, 10);
        for (e = 0; e < edge_count; e++) {
            int from = position_in(names, n, edges[e][0]), to = position_in(names, n, edges[e][1]);
            if (!(from >= 0 && to >= 0 && from < to)) {
                fail_msg("seed %lu: %s must run before %s in \"%s\"", (unsigned long)seed, edges[e][0],
                         edges[e][1], plan_of(w, UPDATE));
            }
        }
        g_trace[0] = '\0';
        assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
        assert_string_equal(g_trace, plan_of(w, UPDATE));
        if (strcmp(previous, g_trace) != 0) distinct++;
        snprintf(previous, sizeof previous, "%s", g_trace);
    }
    assert_true(distinct > 1); /* the seeds did move the unconstrained systems around */
    check_and_destroy(w);
}

/* ---- schedules stored by label, and runs inside runs ---- */

static void schedules_are_stored_by_label_and_run_separately(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_false(ecs_sched_schedule_exists(w, "Render"));
    ADD_SYSTEM(w, .name = "simulate", .fn = record);
    assert_int_equal(ecs_sched_add_system(w, "Render", &(ecs_sched_system_desc){.name = "draw", .fn = record}),
                     ECS_SCHED_OK);
    assert_true(ecs_sched_schedule_exists(w, UPDATE));
    assert_true(ecs_sched_schedule_exists(w, "Render"));
    assert_int_equal(ecs_sched_run_schedule(w, "Render"), ECS_SCHED_OK);
    assert_string_equal(g_trace, "draw");
    assert_run_traces(w, "draw simulate");
    check_and_destroy(w);
}

static void configuring_a_schedule_creates_an_empty_one_that_runs(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(ecs_sched_schedule_configure(w, "Empty", NULL), ECS_SCHED_OK);
    assert_true(ecs_sched_schedule_exists(w, "Empty"));
    assert_int_equal(ecs_sched_run_schedule(w, "Empty"), ECS_SCHED_OK);
    assert_string_equal(plan_of(w, "Empty"), "");
    check_and_destroy(w);
}

static void running_an_unknown_schedule_fails_and_names_it(void **state) {
    ecs_sched_world *w = new_world();
    const char *names[4];
    (void)state;
    ADD_SYSTEM(w, .name = "a", .fn = record);
    assert_int_equal(ecs_sched_run_schedule(w, "Nowhere"), ECS_SCHED_ERR_UNKNOWN_SCHEDULE);
    assert_contains(ecs_sched_last_error(w), "Nowhere");
    assert_int_equal(ecs_sched_schedule_build(w, "Nowhere"), ECS_SCHED_ERR_UNKNOWN_SCHEDULE);
    assert_int_equal(ecs_sched_schedule_order(w, "Nowhere", names, 4), -1);
    assert_false(ecs_sched_schedule_exists(w, "Nowhere"));
    assert_string_equal(g_trace, "");
    check_and_destroy(w);
}

typedef struct runner_job {
    const char *schedule;
    int times;
    ecs_sched_result result;
    char error[1024];
} runner_job;

/* An exclusive system that runs another schedule `times` times. */
static void run_schedule_from_system(ecs_sched_system_ctx *ctx) {
    runner_job *job = (runner_job *)ecs_sched_ctx_user_data(ctx);
    ecs_sched_world *world = ecs_sched_ctx_world(ctx);
    int i;
    trace_add(ecs_sched_ctx_name(ctx));
    if (!world) return;
    for (i = 0; i < job->times; i++) {
        job->result = ecs_sched_run_schedule(world, job->schedule);
        if (job->result != ECS_SCHED_OK) {
            snprintf(job->error, sizeof job->error, "%s", ecs_sched_last_error(world));
            return;
        }
    }
}

static void exclusive_system_runs_another_schedule_in_the_middle_of_a_run(void **state) {
    ecs_sched_world *w = new_world();
    runner_job job = {"Fixed", 3, ECS_SCHED_OK, ""};
    (void)state;
    assert_int_equal(ecs_sched_add_systems(w, "Fixed", &(ecs_sched_systems_desc){
                                               .systems = (ecs_sched_system_desc[]){
                                                   {.name = "f1", .fn = record},
                                                   {.name = "f2", .fn = record}},
                                               .count = 2, .chain = true}),
                     ECS_SCHED_OK);
    ADD_SYSTEM(w, .name = "last", .fn = record, .after = {"fixed_runner"});
    ADD_SYSTEM(w, .name = "fixed_runner", .fn = run_schedule_from_system, .exclusive = true,
               .user_data = &job, .after = {"first"});
    ADD_SYSTEM(w, .name = "first", .fn = record);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(job.result, ECS_SCHED_OK);
    assert_string_equal(g_trace, "first fixed_runner f1 f2 f1 f2 f1 f2 last");
    check_and_destroy(w);
}

static void schedule_that_runs_itself_gets_err_recursive_run(void **state) {
    ecs_sched_world *w = new_world();
    runner_job job = {"Main", 1, ECS_SCHED_OK, ""};
    (void)state;
    assert_int_equal(ecs_sched_add_system(w, "Main", &(ecs_sched_system_desc){
                                              .name = "loop", .fn = run_schedule_from_system,
                                              .exclusive = true, .user_data = &job}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, "Main", &(ecs_sched_system_desc){
                                              .name = "after_loop", .fn = record, .after = {"loop"}}),
                     ECS_SCHED_OK);
    /* the refused run is loop's failure (it does not handle it), which stops the run */
    assert_int_equal(ecs_sched_run_schedule(w, "Main"), ECS_SCHED_ERR_RECURSIVE_RUN);
    assert_int_equal(job.result, ECS_SCHED_ERR_RECURSIVE_RUN);
    assert_contains(job.error, "Main -> Main");
    assert_contains(ecs_sched_last_error(w), "system 'loop' in schedule 'Main'");
    assert_string_equal(g_trace, "loop"); /* ran once, not again inside itself */
    check_and_destroy(w);
}

static void schedule_that_runs_itself_through_another_gets_err_recursive_run(void **state) {
    ecs_sched_world *w = new_world();
    runner_job to_inner = {"Inner", 1, ECS_SCHED_OK, ""}, to_main = {"Main", 1, ECS_SCHED_OK, ""};
    (void)state;
    assert_int_equal(ecs_sched_add_system(w, "Main", &(ecs_sched_system_desc){
                                              .name = "enter_inner", .fn = run_schedule_from_system,
                                              .exclusive = true, .user_data = &to_inner}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, "Inner", &(ecs_sched_system_desc){
                                              .name = "enter_main", .fn = run_schedule_from_system,
                                              .exclusive = true, .user_data = &to_main}),
                     ECS_SCHED_OK);
    ecs_sched_run_schedule(w, "Main");
    assert_int_equal(to_main.result, ECS_SCHED_ERR_RECURSIVE_RUN);
    assert_contains(to_main.error, "Main -> Inner -> Main");
    assert_string_equal(g_trace, "enter_inner enter_main");
    check_and_destroy(w);
}

static void schedules_run_normally_after_a_refused_recursive_run(void **state) {
    ecs_sched_world *w = new_world();
    runner_job job = {"Main", 1, ECS_SCHED_OK, ""};
    (void)state;
    assert_int_equal(ecs_sched_add_system(w, "Main", &(ecs_sched_system_desc){
                                              .name = "loop", .fn = run_schedule_from_system,
                                              .exclusive = true, .user_data = &job}),
                     ECS_SCHED_OK);
    ecs_sched_run_schedule(w, "Main");
    assert_int_equal(job.result, ECS_SCHED_ERR_RECURSIVE_RUN);
    job.times = 0;
    g_trace[0] = '\0';
    assert_int_equal(ecs_sched_run_schedule(w, "Main"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, "Main"), ECS_SCHED_OK);
    assert_string_equal(g_trace, "loop loop");
    check_and_destroy(w);
}

static void adding_a_system_to_a_built_schedule_includes_it_in_the_next_run(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "a", .fn = record);
    ADD_SYSTEM(w, .name = "b", .fn = record, .after = {"a"});
    assert_run_traces(w, "a b");
    ADD_SYSTEM(w, .name = "before_all", .fn = record, .before = {"a"});
    ADD_SYSTEM(w, .name = "between", .fn = record, .after = {"a"}, .before = {"b"});
    g_trace[0] = '\0';
    assert_run_traces(w, "before_all a between b");
    assert_string_equal(plan_of(w, UPDATE), "before_all a between b");
    check_and_destroy(w);
}

static void add_a_latecomer(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *world = ecs_sched_ctx_world(ctx);
    trace_add("adder");
    if (world && strcmp(g_trace, "adder") == 0) { /* the first run only */
        assert_int_equal(ecs_sched_add_system(world, UPDATE, &(ecs_sched_system_desc){
                                                  .name = "latecomer", .fn = record,
                                                  .after = {"adder"}}),
                         ECS_SCHED_OK);
    }
}

static void adding_to_a_schedule_from_inside_its_run_takes_effect_next_run(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "adder", .fn = add_a_latecomer, .exclusive = true);
    assert_run_traces(w, "adder");
    assert_run_traces(w, "adder adder latecomer");
    check_and_destroy(w);
}

/* ---- names are copied, and size does not matter ---- */

static void names_given_when_adding_are_copied(void **state) {
    ecs_sched_world *w = new_world();
    char system_name[16], set_name[16], other[16];
    (void)state;
    strcpy(system_name, "late");
    strcpy(set_name, "group_a");
    strcpy(other, "early");
    ADD_SYSTEM(w, .name = system_name, .fn = record, .in_set = {set_name}, .after = {other});
    strcpy(system_name, "XXXX");
    strcpy(set_name, "XXXX");
    strcpy(other, "XXXX");
    ADD_SYSTEM(w, .name = "early", .fn = record);
    ADD_SYSTEM(w, .name = "also_in_group_a", .fn = record, .in_set = {"group_a"}, .before = {"early"});
    assert_run_traces(w, "also_in_group_a early late");
    check_and_destroy(w);
}

static char g_names[200][16];

static const char *numbered(const char *prefix, int i) {
    snprintf(g_names[i], sizeof g_names[i], "%s%03d", prefix, i);
    return g_names[i];
}

static void long_chains_of_systems_are_ordered(void **state) {
    ecs_sched_world *w = new_world();
    const char *names[200];
    int i;
    (void)state;
    /* 150 systems, each after the one numbered below it, added from the top down */
    for (i = 149; i >= 0; i--) {
        char previous[16];
        snprintf(previous, sizeof previous, "s%03d", i - 1);
        ADD_SYSTEM(w, .name = numbered("s", i), .fn = record, .after = {i > 0 ? previous : NULL});
    }
    assert_int_equal(ecs_sched_schedule_order(w, UPDATE, names, 200), 150);
    for (i = 0; i < 150; i++) assert_string_equal(names[i], g_names[i]);
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void many_chained_sets_are_ordered(void **state) {
    ecs_sched_world *w = new_world();
    const char *sets[100];
    char set_names[100][16];
    const char *names[200];
    int i;
    (void)state;
    for (i = 0; i < 100; i++) {
        snprintf(set_names[i], sizeof set_names[i], "set%03d", i);
        sets[i] = set_names[i];
    }
    for (i = 99; i >= 0; i--) ADD_SYSTEM(w, .name = numbered("m", i), .fn = record, .in_set = {sets[i]});
    assert_int_equal(ecs_sched_chain_sets(w, UPDATE, 100, sets, false), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_schedule_order(w, UPDATE, names, 200), 100);
    for (i = 0; i < 100; i++) assert_string_equal(names[i], g_names[i]);
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

/* ---- removing systems ---- */

static void a_removed_system_is_gone_from_the_next_run(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "a", .fn = record);
    ADD_SYSTEM(w, .name = "b", .fn = record);
    ADD_SYSTEM(w, .name = "c", .fn = record);
    assert_run_traces(w, "a b c");
    assert_int_equal(ecs_sched_remove_system(w, UPDATE, "b"), ECS_SCHED_OK);
    g_trace[0] = '\0';
    assert_run_traces(w, "a c");
    assert_string_equal(plan_of(w, UPDATE), "a c");
    check_and_destroy(w);
}

static void removing_a_system_removes_every_instance_of_its_name(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "twice", .fn = record);
    ADD_SYSTEM(w, .name = "once", .fn = record);
    ADD_SYSTEM(w, .name = "twice", .fn = record, .after = {"once"});
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &(ecs_sched_schedule_desc){
                                                                 .duplicate_names =
                                                                     ECS_SCHED_REPORT_IGNORE}),
                     ECS_SCHED_OK);
    assert_run_traces(w, "twice once twice");
    assert_int_equal(ecs_sched_remove_system(w, UPDATE, "twice"), ECS_SCHED_OK);
    g_trace[0] = '\0';
    assert_run_traces(w, "once");
    check_and_destroy(w);
}

static void a_removed_system_takes_its_orderings_and_conditions_with_it(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "render", .fn = record);
    ADD_SYSTEM(w, .name = "input", .fn = record, .after = {"render"},
               .run_if = {&(ecs_sched_condition){.fn = always_false}});
    ADD_SYSTEM(w, .name = "input", .fn = record, .before = {"render"});
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &(ecs_sched_schedule_desc){
                                                                 .duplicate_names =
                                                                     ECS_SCHED_REPORT_IGNORE}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_remove_system(w, UPDATE, "input"), ECS_SCHED_OK);
    ADD_SYSTEM(w, .name = "input", .fn = record);   /* a new one, free of the old ties */
    ADD_SYSTEM(w, .name = "update", .fn = record, .before = {"render"});
    assert_run_traces(w, "input update render");
    check_and_destroy(w);
}

static void what_others_say_of_a_removed_name_stays(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "physics", .fn = record);
    ADD_SYSTEM(w, .name = "render", .fn = record, .after = {"physics"});
    assert_int_equal(ecs_sched_remove_system(w, UPDATE, "physics"), ECS_SCHED_OK);
    ADD_SYSTEM(w, .name = "physics", .fn = record);   /* the ordering applies to it again */
    assert_run_traces(w, "physics render");
    check_and_destroy(w);
}

static void remove_system(ecs_sched_system_ctx *ctx) {
    trace_add("remover");
    assert_int_equal(ecs_sched_remove_system(ecs_sched_ctx_world(ctx), UPDATE, "a"),
                     ECS_SCHED_ERR_SCHEDULE_RUNNING);
    assert_int_equal(ecs_sched_ctx_error(ctx), ECS_SCHED_ERR_SCHEDULE_RUNNING);
    ecs_sched_ctx_clear_error(ctx);   /* handled: the system does not fail */
}

static void removing_what_is_not_there_or_while_running_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "a", .fn = record);
    ADD_SYSTEM(w, .name = "remover", .fn = remove_system, .exclusive = true);
    assert_int_equal(ecs_sched_remove_system(w, UPDATE, "nobody"), ECS_SCHED_ERR_NOT_FOUND);
    assert_non_null(strstr(ecs_sched_last_error(w), "has no system named 'nobody'"));
    assert_int_equal(ecs_sched_remove_system(w, "Nowhere", "a"), ECS_SCHED_ERR_NOT_FOUND);
    ecs_sched_clear_error(w);
    assert_run_traces(w, "a remover");
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_removed_system_is_gone_from_the_next_run),
        cmocka_unit_test(removing_a_system_removes_every_instance_of_its_name),
        cmocka_unit_test(a_removed_system_takes_its_orderings_and_conditions_with_it),
        cmocka_unit_test(what_others_say_of_a_removed_name_stays),
        cmocka_unit_test(removing_what_is_not_there_or_while_running_is_refused),
        cmocka_unit_test(unconstrained_systems_run_in_the_order_they_were_added),
        cmocka_unit_test(before_moves_a_system_ahead_of_one_added_earlier),
        cmocka_unit_test(after_moves_a_system_behind_one_added_later),
        cmocka_unit_test(orderings_combine_transitively),
        cmocka_unit_test(several_names_in_before_and_after_all_apply),
        cmocka_unit_test(each_run_calls_each_system_once),
        cmocka_unit_test(building_without_running_calls_no_system),
        cmocka_unit_test(schedule_order_returns_the_plan_size_even_beyond_capacity),
        cmocka_unit_test(the_same_shuffle_seed_gives_the_same_order),
        cmocka_unit_test(some_shuffle_seed_changes_the_unconstrained_order),
        cmocka_unit_test(shuffled_orders_keep_every_constraint),
        cmocka_unit_test(schedules_are_stored_by_label_and_run_separately),
        cmocka_unit_test(configuring_a_schedule_creates_an_empty_one_that_runs),
        cmocka_unit_test(running_an_unknown_schedule_fails_and_names_it),
        cmocka_unit_test(exclusive_system_runs_another_schedule_in_the_middle_of_a_run),
        cmocka_unit_test(schedule_that_runs_itself_gets_err_recursive_run),
        cmocka_unit_test(schedule_that_runs_itself_through_another_gets_err_recursive_run),
        cmocka_unit_test(schedules_run_normally_after_a_refused_recursive_run),
        cmocka_unit_test(adding_a_system_to_a_built_schedule_includes_it_in_the_next_run),
        cmocka_unit_test(adding_to_a_schedule_from_inside_its_run_takes_effect_next_run),
        cmocka_unit_test(names_given_when_adding_are_copied),
        cmocka_unit_test(long_chains_of_systems_are_ordered),
        cmocka_unit_test(many_chained_sets_are_ordered),
    };
    return cmocka_run_group_tests_name("schedule order", tests, NULL, destroy_leftover_world);
}
