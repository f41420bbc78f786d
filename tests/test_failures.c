/* Failures inside systems reach the caller. A system fails with ecs_sched_ctx_fail, or by
   leaving a failed library call unhandled (ecs_sched_ctx_clear_error handles it); a condition
   the same way; a command that cannot be applied fails the system that recorded it. The run
   returns the first failure in plan order, on either executor, with a message naming the
   system and the schedule; the world's or the schedule's policy (stop, continue, or an error
   hook) decides what the run does meanwhile. Misuse inside a system is a failure, not
   silence. */
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

/* ---- worlds ---- */

static ecs_sched_world *world_with(ecs_sched_executor executor, int32_t threads,
                                   ecs_sched_error_policy policy, ecs_sched_error_hook hook) {
    ecs_sched_world_desc desc = logged_world_desc(&g_log);
    if (g_world) ecs_sched_world_destroy(g_world);
    g_trace[0] = '\0';
    desc.executor = executor;
    desc.thread_count = threads;
    desc.on_error = policy;
    desc.error_hook = hook;
    g_world = ecs_sched_world_create(&desc);
    assert_non_null(g_world);
    return g_world;
}

static ecs_sched_world *world_stopping(void) {
    ecs_sched_error_hook none = {NULL, NULL};
    return world_with(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 1, ECS_SCHED_ON_ERROR_DEFAULT, none);
}

static ecs_sched_world *world_continuing(void) {
    ecs_sched_error_hook none = {NULL, NULL};
    return world_with(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 1, ECS_SCHED_ON_ERROR_CONTINUE, none);
}

/* ---- systems ---- */

static ecs_sched_id g_position;
static ecs_sched_entity g_target;

/* Despawns the target: the system after it finds a stale handle. (No assert inside a
   system: a failed one would jump out of the run.) */
static void despawn_target(ecs_sched_system_ctx *ctx) {
    trace_add(ecs_sched_ctx_name(ctx));
    ecs_sched_despawn(ecs_sched_ctx_world(ctx), g_target);
}

/* Inserts on the target and ignores the result, as most game code would. */
static void insert_on_target(ecs_sched_system_ctx *ctx) {
    Position p = {1, 2};
    trace_add(ecs_sched_ctx_name(ctx));
    ecs_sched_insert(ecs_sched_ctx_world(ctx), g_target, g_position, &p);
}

/* The same, but it looks at the result and moves on. */
static void insert_and_handle(ecs_sched_system_ctx *ctx) {
    Position p = {1, 2};
    trace_add(ecs_sched_ctx_name(ctx));
    if (ecs_sched_insert(ecs_sched_ctx_world(ctx), g_target, g_position, &p) != ECS_SCHED_OK) {
        assert_int_equal(ecs_sched_ctx_error(ctx), ECS_SCHED_ERR_STALE_ENTITY);
        ecs_sched_ctx_clear_error(ctx);
        assert_int_equal(ecs_sched_ctx_error(ctx), ECS_SCHED_OK);
    }
}

/* Fails on its own account: user_data holds the code. */
static void fail_with(ecs_sched_system_ctx *ctx) {
    const ecs_sched_result *code = (const ecs_sched_result *)ecs_sched_ctx_user_data(ctx);
    trace_add(ecs_sched_ctx_name(ctx));
    assert_int_equal(ecs_sched_ctx_fail(ctx, *code, "the %s went wrong", "frobnicator"), *code);
}

static void record_with_commands_spawn(ecs_sched_system_ctx *ctx) {
    trace_add(ecs_sched_ctx_name(ctx));
    assert_true(ecs_sched_commands_spawn(ecs_sched_ctx_commands(ctx)) != ECS_SCHED_NULL_ENTITY);
}

static const ecs_sched_result g_failed = ECS_SCHED_ERR_SYSTEM_FAILED;
static const ecs_sched_result g_invalid = ECS_SCHED_ERR_INVALID_ARGUMENT;

static void add_stale_insert_scenario(ecs_sched_world *w) {
    g_position = ECS_SCHED_COMPONENT(w, Position);
    g_target = ecs_sched_spawn(w);
    ADD_SYSTEM(w, .name = "cleanup", .fn = despawn_target, .exclusive = true);
    ADD_SYSTEM(w, .name = "late_insert", .fn = insert_on_target, .exclusive = true,
               .after = {"cleanup"});
    ADD_SYSTEM(w, .name = "after", .fn = record, .after = {"late_insert"});
}

/* ---- 1. a system can fail ---- */

static void an_ignored_failing_call_fails_the_system_and_the_run(void **state) {
    ecs_sched_world *w = world_stopping();
    char expected[128];
    (void)state;
    add_stale_insert_scenario(w);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_STALE_ENTITY);
    snprintf(expected, sizeof expected, "system 'late_insert' in schedule 'Update': insert: ");
    assert_non_null(strstr(ecs_sched_last_error(w), expected));
    assert_non_null(strstr(ecs_sched_last_error(w), "stale"));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_STALE_ENTITY);
    check_and_destroy(w);
}

static void a_system_that_handles_its_failing_call_is_not_failed(void **state) {
    ecs_sched_world *w = world_stopping();
    (void)state;
    g_position = ECS_SCHED_COMPONENT(w, Position);
    g_target = ecs_sched_spawn(w);
    ADD_SYSTEM(w, .name = "cleanup", .fn = despawn_target, .exclusive = true);
    ADD_SYSTEM(w, .name = "careful", .fn = insert_and_handle, .exclusive = true,
               .after = {"cleanup"});
    ADD_SYSTEM(w, .name = "after", .fn = record, .after = {"careful"});
    assert_run_traces(w, "cleanup careful after");
    check_and_destroy(w);
}

/* Fails on its first run only: user_data counts its runs. */
static void fail_the_first_time(ecs_sched_system_ctx *ctx) {
    int *runs = (int *)ecs_sched_ctx_user_data(ctx);
    trace_add(ecs_sched_ctx_name(ctx));
    if ((*runs)++ == 0) ecs_sched_ctx_fail(ctx, ECS_SCHED_ERR_SYSTEM_FAILED, "first run");
}

static void a_failure_is_taken_by_its_run_and_the_next_run_starts_clean(void **state) {
    ecs_sched_world *w = world_stopping();
    int runs = 0;
    (void)state;
    ADD_SYSTEM(w, .name = "flaky", .fn = fail_the_first_time, .user_data = &runs);
    ADD_SYSTEM(w, .name = "after", .fn = record, .after = {"flaky"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SYSTEM_FAILED);
    assert_string_equal(g_trace, "flaky");
    g_trace[0] = '\0';
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_trace, "flaky after");
    assert_int_equal(runs, 2);
    check_and_destroy(w);
}

static void ctx_fail_reports_a_code_and_a_message_naming_system_and_schedule(void **state) {
    ecs_sched_world *w = world_stopping();
    (void)state;
    ADD_SYSTEM(w, .name = "frobnicate", .fn = fail_with, .user_data = (void *)&g_failed);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SYSTEM_FAILED);
    assert_string_equal(ecs_sched_last_error(w),
                        "system 'frobnicate' in schedule 'Update': the frobnicator went wrong");
    assert_contains(g_log.text, "error: system 'frobnicate' in schedule 'Update'");
    check_and_destroy(w);
}

static void ctx_fail_with_ok_records_nothing(void **state) {
    static const ecs_sched_result ok = ECS_SCHED_OK;
    ecs_sched_world *w = world_stopping();
    (void)state;
    ADD_SYSTEM(w, .name = "fine", .fn = fail_with, .user_data = (void *)&ok);
    assert_run_traces(w, "fine");
    assert_int_equal(g_log.errors, 0);
    check_and_destroy(w);
}

static void a_failure_cleared_and_a_later_one_counts_the_later(void **state) {
    ecs_sched_world *w = world_stopping();
    (void)state;
    g_position = ECS_SCHED_COMPONENT(w, Position);
    g_target = ecs_sched_spawn(w);
    ADD_SYSTEM(w, .name = "cleanup", .fn = despawn_target, .exclusive = true);
    ADD_SYSTEM(w, .name = "careful", .fn = insert_and_handle, .exclusive = true,
               .after = {"cleanup"});
    ADD_SYSTEM(w, .name = "then_fails", .fn = fail_with, .user_data = (void *)&g_invalid,
               .after = {"careful"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "system 'then_fails'");
    check_and_destroy(w);
}

static bool failing_condition(ecs_sched_system_ctx *ctx) {
    ecs_sched_ctx_fail(ctx, ECS_SCHED_ERR_SYSTEM_FAILED, "cannot tell");
    return true;
}

static void a_condition_can_fail_and_its_node_does_not_run(void **state) {
    ecs_sched_world *w = world_stopping();
    (void)state;
    ADD_SYSTEM(w, .name = "guarded", .fn = record,
               .run_if = {&(ecs_sched_condition){.name = "unsure", .fn = failing_condition}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SYSTEM_FAILED);
    assert_string_equal(g_trace, "");
    assert_string_equal(ecs_sched_last_error(w),
                        "condition 'unsure' (guarding system 'guarded') in schedule 'Update': "
                        "cannot tell");
    check_and_destroy(w);
}

static bool failing_true_condition(ecs_sched_system_ctx *ctx) {
    ecs_sched_ctx_fail(ctx, ECS_SCHED_ERR_SYSTEM_FAILED, "cannot tell");
    return true;
}

static void a_failing_condition_keeps_its_node_off_under_continue_too(void **state) {
    ecs_sched_world *w = world_continuing();
    (void)state;
    ADD_SYSTEM(w, .name = "guarded", .fn = record,
               .run_if = {&(ecs_sched_condition){.name = "unsure", .fn = failing_true_condition}});
    ADD_SYSTEM(w, .name = "other", .fn = record, .after = {"guarded"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SYSTEM_FAILED);
    assert_string_equal(g_trace, "other");
    check_and_destroy(w);
}

typedef struct hook_count {
    int calls;
} hook_count;

static ecs_sched_failure_action count_and_continue(const ecs_sched_failure *failure, void *user_data) {
    (void)failure;
    ((hook_count *)user_data)->calls++;
    return ECS_SCHED_FAILURE_CONTINUE;
}

static void the_hook_hears_every_failing_condition_of_a_node(void **state) {
    hook_count count = {0};
    ecs_sched_error_hook hook;
    ecs_sched_world *w;
    ecs_sched_condition a, b, both;
    (void)state;
    hook.fn = count_and_continue;
    hook.user_data = &count;
    w = world_with(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 1, ECS_SCHED_ON_ERROR_DEFAULT, hook);
    memset(&a, 0, sizeof a);
    a.fn = failing_true_condition;
    a.name = "a";
    b = a;
    b.name = "b";
    both = ecs_sched_condition_and(&a, &b);
    ADD_SYSTEM(w, .name = "guarded", .fn = record, .run_if = {&both, &a});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SYSTEM_FAILED);
    assert_int_equal(count.calls, 3);   /* a and b under the and, and the second a */
    assert_string_equal(g_trace, "");
    check_and_destroy(w);
}

/* ---- 2. misuse inside a system is a failure ---- */

static ecs_sched_id g_score;

static void read_score(ecs_sched_system_ctx *ctx) {
    trace_add(ecs_sched_ctx_resource(ctx, g_score) ? "score" : "no_score");
}

static void read_score_if_any(ecs_sched_system_ctx *ctx) {
    trace_add(ecs_sched_ctx_optional_resource(ctx, g_score) ? "score" : "no_score");
}

static void a_declared_resource_that_does_not_exist_fails_the_system(void **state) {
    ecs_sched_world *w = world_stopping();
    (void)state;
    g_score = ECS_SCHED_COMPONENT(w, Score);
    ADD_SYSTEM(w, .name = "scorer", .fn = read_score, .reads = {g_score});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_string_equal(g_trace, "no_score");
    assert_contains(ecs_sched_last_error(w), "system 'scorer' in schedule 'Update': reads "
                                             "resource 'Score', which does not exist");
    assert_contains(ecs_sched_last_error(w), "ecs_sched_ctx_optional_resource");
    check_and_destroy(w);
}

static void an_optional_resource_that_does_not_exist_is_no_failure(void **state) {
    ecs_sched_world *w = world_stopping();
    Score s = {3};
    (void)state;
    g_score = ECS_SCHED_COMPONENT(w, Score);
    ADD_SYSTEM(w, .name = "scorer", .fn = read_score_if_any, .reads = {g_score});
    assert_run_traces(w, "no_score");
    assert_int_equal(ecs_sched_resource_insert(w, g_score, &s), ECS_SCHED_OK);
    g_trace[0] = '\0';
    assert_run_traces(w, "score");
    check_and_destroy(w);
}

static void an_optional_resource_must_still_be_declared(void **state) {
    ecs_sched_world *w = world_stopping();
    (void)state;
    g_score = ECS_SCHED_COMPONENT(w, Score);
    ADD_SYSTEM(w, .name = "scorer", .fn = read_score_if_any);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_contains(ecs_sched_last_error(w), "without declaring it");
    check_and_destroy(w);
}

static ecs_sched_world *g_captured;

/* A system that is not exclusive, with the world captured by hand. */
static void despawn_through_captured_world(ecs_sched_system_ctx *ctx) {
    trace_add(ecs_sched_ctx_name(ctx));
    assert_int_equal(ecs_sched_despawn(g_captured, g_target), ECS_SCHED_ERR_ACCESS);
    assert_int_equal(ecs_sched_spawn(g_captured), ECS_SCHED_NULL_ENTITY);
}

static void a_structural_change_through_the_world_from_a_shared_system_is_refused(void **state) {
    ecs_sched_world *w = world_stopping();
    (void)state;
    g_captured = w;
    g_target = ecs_sched_spawn(w);
    ADD_SYSTEM(w, .name = "sneaky", .fn = despawn_through_captured_world);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_true(ecs_sched_is_alive(w, g_target));
    assert_int_equal(ecs_sched_entity_count(w), 1);
    assert_contains(ecs_sched_last_error(w), "system 'sneaky' in schedule 'Update': despawn "
                                             "through the world while the schedule runs");
    assert_contains(ecs_sched_last_error(w), ".commands = true");
    check_and_destroy(w);
}

static void despawn_and_clear(ecs_sched_system_ctx *ctx) {
    ecs_sched_despawn(g_captured, g_target);
    ecs_sched_ctx_clear_error(ctx);   /* a refused access cannot be cleared */
}

static void a_refused_access_cannot_be_cleared(void **state) {
    ecs_sched_world *w = world_stopping();
    (void)state;
    g_captured = w;
    g_target = ecs_sched_spawn(w);
    ADD_SYSTEM(w, .name = "sneaky", .fn = despawn_and_clear);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    check_and_destroy(w);
}

static void record_without_buffer(ecs_sched_system_ctx *ctx) {
    ecs_sched_commands *cmd = ecs_sched_ctx_commands(ctx);
    trace_add(cmd ? "buffer" : "no_buffer");
    assert_int_equal(ecs_sched_commands_spawn(cmd), ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_commands_despawn(cmd, g_target), ECS_SCHED_ERR_ACCESS);
}

static void commands_without_declaring_them_fail_the_system_without_a_crash(void **state) {
    ecs_sched_world *w = world_stopping();
    (void)state;
    g_target = ecs_sched_spawn(w);
    ADD_SYSTEM(w, .name = "undeclared", .fn = record_without_buffer);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_string_equal(g_trace, "no_buffer");
    assert_contains(ecs_sched_last_error(w), "declare .commands = true");
    assert_int_equal(ecs_sched_entity_count(w), 1);
    check_and_destroy(w);
}

static void a_query_term_with_id_zero_is_refused_naming_its_position(void **state) {
    ecs_sched_world *w = world_stopping();
    ecs_sched_id never_registered = 0;
    (void)state;
    g_position = ECS_SCHED_COMPONENT(w, Position);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                         .name = "move", .fn = record,
                         .queries = {{{ecs_sched_write(g_position),
                                       ecs_sched_read(never_registered)}}}}),
                     ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_contains(ecs_sched_last_error(w), "add_system('move'), query 0: query_create: term 1 "
                                             "has component id 0");
    assert_string_equal(plan_of(w, UPDATE), "");   /* nothing was added */
    check_and_destroy(w);
}

static void a_query_whose_first_term_has_id_zero_is_refused_too(void **state) {
    ecs_sched_world *w = world_stopping();
    ecs_sched_query_desc desc;
    (void)state;
    memset(&desc, 0, sizeof desc);
    desc.terms[0] = ecs_sched_write(0);
    assert_null(ecs_sched_query_create(w, &desc));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                         .name = "move", .fn = record, .queries = {desc}}),
                     ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    check_and_destroy(w);
}

static void a_term_after_the_end_of_the_list_is_refused(void **state) {
    ecs_sched_world *w = world_stopping();
    ecs_sched_query_desc desc;
    (void)state;
    g_position = ECS_SCHED_COMPONENT(w, Position);
    memset(&desc, 0, sizeof desc);
    desc.terms[2] = ecs_sched_read(g_position);
    desc.terms[0] = ecs_sched_read(ECS_SCHED_COMPONENT(w, Velocity));
    assert_null(ecs_sched_query_create(w, &desc));
    assert_contains(ecs_sched_last_error(w), "term 2 comes after the end of the list (term 1");
    check_and_destroy(w);
}

/* ---- 3. the policy ---- */

static void stop_runs_no_further_system_but_applies_the_commands_of_those_that_ran(void **state) {
    ecs_sched_world *w = world_stopping();
    ids c;
    (void)state;
    c = register_components(w);
    g_position = c.position;
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "spawner", .fn = record_with_commands_spawn,
                                       .commands = true},
                                      {.name = "fails", .fn = fail_with,
                                       .user_data = (void *)&g_failed},
                                      {.name = "never", .fn = record}),
                .count = 3, .chain_ignore_deferred = true);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SYSTEM_FAILED);
    assert_string_equal(g_trace, "spawner fails");
    assert_int_equal(ecs_sched_entity_count(w), 1);   /* the final flush applied spawner's */
    check_and_destroy(w);
}

static bool holds(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    return true;
}

/* A member of a set whose condition holds fails as any system does: under STOP, no later
   member runs. */
static void stop_in_a_set_that_holds_runs_no_further_member(void **state) {
    ecs_sched_world *w = world_stopping();
    (void)state;
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "first", .fn = record},
                                      {.name = "fails", .fn = fail_with,
                                       .user_data = (void *)&g_failed},
                                      {.name = "never", .fn = record}),
                .count = 3, .chain = true,
                .run_if = {&(ecs_sched_condition){.name = "open", .fn = holds}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SYSTEM_FAILED);
    assert_string_equal(g_trace, "first fails");
    assert_contains(ecs_sched_last_error(w), "system 'fails'");
    check_and_destroy(w);
}

/* Under CONTINUE the rest of the set runs, and the next run starts clean. */
static void continue_in_a_set_that_holds_runs_every_member(void **state) {
    ecs_sched_world *w = world_continuing();
    (void)state;
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "fails", .fn = fail_with,
                                       .user_data = (void *)&g_failed},
                                      {.name = "after", .fn = record}),
                .count = 2, .chain = true,
                .run_if = {&(ecs_sched_condition){.name = "open", .fn = holds}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SYSTEM_FAILED);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SYSTEM_FAILED);
    assert_string_equal(g_trace, "fails after fails after");
    check_and_destroy(w);
}

static void continue_runs_every_system_and_returns_the_first_failure(void **state) {
    ecs_sched_world *w = world_continuing();
    (void)state;
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "first_failure", .fn = fail_with,
                                       .user_data = (void *)&g_invalid},
                                      {.name = "between", .fn = record},
                                      {.name = "second_failure", .fn = fail_with,
                                       .user_data = (void *)&g_failed}),
                .count = 3, .chain = true);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_string_equal(g_trace, "first_failure between second_failure");
    assert_contains(ecs_sched_last_error(w), "system 'first_failure'");
    assert_contains(g_log.text, "system 'second_failure'");   /* logged, not lost */
    check_and_destroy(w);
}

static void a_schedule_policy_overrides_the_worlds(void **state) {
    ecs_sched_world *w = world_stopping();
    (void)state;
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &(ecs_sched_schedule_desc){
                         .on_error = ECS_SCHED_ON_ERROR_CONTINUE}),
                     ECS_SCHED_OK);
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "fails", .fn = fail_with,
                                       .user_data = (void *)&g_failed},
                                      {.name = "still_runs", .fn = record}),
                .count = 2, .chain = true);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SYSTEM_FAILED);
    assert_string_equal(g_trace, "fails still_runs");
    check_and_destroy(w);
}

typedef struct hook_log {
    int calls;
    char names[256];
    ecs_sched_failure_action answer;
} hook_log;

static ecs_sched_failure_action hook_records(const ecs_sched_failure *failure, void *user_data) {
    hook_log *log = (hook_log *)user_data;
    size_t n = strlen(log->names);
    log->calls++;
    snprintf(log->names + n, sizeof log->names - n, "%s%s/%s/%s", n ? " " : "", failure->kind,
             failure->name, failure->schedule);
    assert_non_null(strstr(failure->message, failure->name));
    return log->answer;
}

static ecs_sched_world *world_with_hook(hook_log *log, ecs_sched_failure_action answer) {
    ecs_sched_error_hook hook;
    memset(log, 0, sizeof *log);
    log->answer = answer;
    hook.fn = hook_records;
    hook.user_data = log;
    return world_with(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 1, ECS_SCHED_ON_ERROR_DEFAULT, hook);
}

static void add_two_failures(ecs_sched_world *w) {
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "one", .fn = fail_with,
                                       .user_data = (void *)&g_failed},
                                      {.name = "two", .fn = fail_with,
                                       .user_data = (void *)&g_invalid},
                                      {.name = "three", .fn = record}),
                .count = 3, .chain = true);
}

static void an_ignored_failure_is_taken_too(void **state) {
    hook_log log;
    ecs_sched_world *w = world_with_hook(&log, ECS_SCHED_FAILURE_IGNORE);
    int runs = 0;
    (void)state;
    ADD_SYSTEM(w, .name = "flaky", .fn = fail_the_first_time, .user_data = &runs);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(log.calls, 1);
    check_and_destroy(w);
}

static void a_hook_that_ignores_lets_the_run_succeed(void **state) {
    hook_log log;
    ecs_sched_world *w = world_with_hook(&log, ECS_SCHED_FAILURE_IGNORE);
    (void)state;
    add_two_failures(w);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_trace, "one two three");
    assert_int_equal(log.calls, 2);
    assert_string_equal(log.names, "system/one/Update system/two/Update");
    check_and_destroy(w);
}

static void a_hook_that_continues_sees_every_failure_and_the_run_returns_the_first(void **state) {
    hook_log log;
    ecs_sched_world *w = world_with_hook(&log, ECS_SCHED_FAILURE_CONTINUE);
    (void)state;
    add_two_failures(w);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SYSTEM_FAILED);
    assert_string_equal(g_trace, "one two three");
    assert_int_equal(log.calls, 2);
    check_and_destroy(w);
}

static void a_hook_that_stops_stops_the_run(void **state) {
    hook_log log;
    ecs_sched_world *w = world_with_hook(&log, ECS_SCHED_FAILURE_STOP);
    (void)state;
    add_two_failures(w);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SYSTEM_FAILED);
    assert_string_equal(g_trace, "one");
    assert_int_equal(log.calls, 1);
    check_and_destroy(w);
}

static void the_hook_hears_of_failures_under_the_stop_policy_too(void **state) {
    hook_log log;
    ecs_sched_world *w = world_with_hook(&log, ECS_SCHED_FAILURE_IGNORE);
    (void)state;
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &(ecs_sched_schedule_desc){
                         .on_error = ECS_SCHED_ON_ERROR_STOP}),
                     ECS_SCHED_OK);
    add_two_failures(w);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SYSTEM_FAILED);
    assert_string_equal(g_trace, "one");   /* its answer is not asked */
    assert_int_equal(log.calls, 1);
    check_and_destroy(w);
}

static hook_log g_replacement;

/* Replaces the world's hook by one that records into g_replacement and stops. */
static void replace_the_hook(ecs_sched_system_ctx *ctx) {
    ecs_sched_error_hook hook;
    trace_add(ecs_sched_ctx_name(ctx));
    hook.fn = hook_records;
    hook.user_data = &g_replacement;
    ecs_sched_world_set_error_policy(ecs_sched_ctx_world(ctx), ECS_SCHED_ON_ERROR_HOOK, hook);
}

/* The run keeps the policy and hook it started with: a hook replaced by a system during a run
   hears the failures of the next run, not of this one. */
static void a_hook_replaced_during_a_run_applies_from_the_next_run(void **state) {
    hook_log first;
    ecs_sched_world *w = world_with_hook(&first, ECS_SCHED_FAILURE_CONTINUE);
    (void)state;
    memset(&g_replacement, 0, sizeof g_replacement);
    g_replacement.answer = ECS_SCHED_FAILURE_STOP;
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "swap", .fn = replace_the_hook, .exclusive = true},
                                      {.name = "one", .fn = fail_with,
                                       .user_data = (void *)&g_failed},
                                      {.name = "three", .fn = record}),
                .count = 3, .chain = true);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SYSTEM_FAILED);
    assert_string_equal(g_trace, "swap one three");   /* the first hook said continue */
    assert_int_equal(first.calls, 1);
    assert_int_equal(g_replacement.calls, 0);
    g_trace[0] = '\0';
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SYSTEM_FAILED);
    assert_string_equal(g_trace, "swap one");         /* the replacement said stop */
    assert_int_equal(first.calls, 1);
    assert_int_equal(g_replacement.calls, 1);
    check_and_destroy(w);
}

static void the_policy_can_be_set_on_a_world_later(void **state) {
    ecs_sched_world *w = world_stopping();
    ecs_sched_error_hook none = {NULL, NULL};
    (void)state;
    assert_int_equal(ecs_sched_world_set_error_policy(w, ECS_SCHED_ON_ERROR_CONTINUE, none),
                     ECS_SCHED_OK);
    add_two_failures(w);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SYSTEM_FAILED);
    assert_string_equal(g_trace, "one two three");
    assert_int_equal(ecs_sched_world_set_error_policy(w, ECS_SCHED_ON_ERROR_HOOK, none),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    check_and_destroy(w);
}

static void bad_policies_are_refused(void **state) {
    ecs_sched_world_desc desc;
    ecs_sched_world *w = world_stopping();
    (void)state;
    memset(&desc, 0, sizeof desc);
    desc.logger.fn = quiet;
    desc.on_error = ECS_SCHED_ON_ERROR_HOOK;
    assert_null(ecs_sched_world_create(&desc));
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &(ecs_sched_schedule_desc){
                         .on_error = (ecs_sched_error_policy)9}),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    check_and_destroy(w);
}

/* ---- commands that cannot be applied ---- */

static int g_fail_allocations;   /* from this many allocations on, each fails; 0: none */
static int g_allocations;

static void *failing_realloc(void *ptr, size_t size, void *user_data) {
    (void)user_data;
    if (g_fail_allocations && ++g_allocations >= g_fail_allocations) return NULL;
    return realloc(ptr, size);
}

static void plain_free(void *ptr, void *user_data) {
    (void)user_data;
    free(ptr);
}

static ecs_sched_id g_velocity;

static void record_spawn_into_new_table(ecs_sched_system_ctx *ctx) {
    const ecs_sched_id ids[] = {g_position, g_velocity};
    trace_add(ecs_sched_ctx_name(ctx));
    assert_true(ecs_sched_commands_spawn_with(ecs_sched_ctx_commands(ctx), 2, ids, NULL) !=
                ECS_SCHED_NULL_ENTITY);
}

static void arm_allocation_failure(ecs_sched_system_ctx *ctx) {
    trace_add(ecs_sched_ctx_name(ctx));
    g_allocations = 0;
    g_fail_allocations = 1;
}

static void a_command_that_cannot_be_applied_fails_the_system_that_recorded_it(void **state) {
    ecs_sched_world_desc desc = logged_world_desc(&g_log);
    ecs_sched_world *w;
    (void)state;
    if (g_world) ecs_sched_world_destroy(g_world);
    g_trace[0] = '\0';
    g_fail_allocations = 0;
    desc.executor = ECS_SCHED_EXECUTOR_SINGLE_THREADED;
    desc.allocator.realloc_fn = failing_realloc;
    desc.allocator.free_fn = plain_free;
    w = g_world = ecs_sched_world_create(&desc);
    assert_non_null(w);
    g_position = ECS_SCHED_COMPONENT(w, Position);
    g_velocity = ECS_SCHED_COMPONENT(w, Velocity);
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "builder", .fn = record_spawn_into_new_table,
                                       .commands = true},
                                      {.name = "arm", .fn = arm_allocation_failure}),
                .count = 2, .chain_ignore_deferred = true);
    assert_int_equal(ecs_sched_schedule_build(w, UPDATE), ECS_SCHED_OK);
    /* no sync point between them: the final flush applies builder's spawn, and the new
       table cannot be made */
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_OUT_OF_MEMORY);
    g_fail_allocations = 0;
    assert_string_equal(g_trace, "builder arm");
    assert_contains(ecs_sched_last_error(w), "system 'builder' in schedule 'Update': ");
    assert_contains(ecs_sched_last_error(w), "out of memory");
    check_and_destroy(w);
}

/* ---- nested runs and the app ---- */

static void run_inner(ecs_sched_system_ctx *ctx) {
    trace_add(ecs_sched_ctx_name(ctx));
    ecs_sched_run_schedule(ecs_sched_ctx_world(ctx), "Inner");   /* not handled */
}

static void a_failure_in_a_nested_run_reaches_the_outer_run_naming_both_schedules(void **state) {
    ecs_sched_world *w = world_stopping();
    (void)state;
    assert_int_equal(ecs_sched_add_system(w, "Inner", &(ecs_sched_system_desc){
                         .name = "deep", .fn = fail_with, .user_data = (void *)&g_failed}),
                     ECS_SCHED_OK);
    ADD_SYSTEM(w, .name = "runner", .fn = run_inner, .exclusive = true);
    ADD_SYSTEM(w, .name = "after", .fn = record, .after = {"runner"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SYSTEM_FAILED);
    assert_string_equal(g_trace, "runner deep");
    assert_string_equal(ecs_sched_last_error(w),
                        "system 'runner' in schedule 'Update': system 'deep' in schedule "
                        "'Inner': the frobnicator went wrong");
    check_and_destroy(w);
}

static void app_world(ecs_sched_app **app, ecs_sched_executor executor, int32_t threads) {
    ecs_sched_app_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.world = logged_world_desc(&g_log);
    desc.world.executor = executor;
    desc.world.thread_count = threads;
    *app = ecs_sched_app_create(&desc);
    assert_non_null(*app);
}

static void the_scenario_reaches_the_caller_of_an_app_update(ecs_sched_executor executor,
                                                             int32_t threads) {
    ecs_sched_app *app;
    ecs_sched_world *w;
    int32_t code = 7;
    app_world(&app, executor, threads);
    w = ecs_sched_app_world(app);
    g_trace[0] = '\0';
    g_position = ECS_SCHED_COMPONENT(w, Position);
    g_target = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_UPDATE, &(ecs_sched_system_desc){
                         .name = "cleanup", .fn = despawn_target, .exclusive = true}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_UPDATE, &(ecs_sched_system_desc){
                         .name = "late_insert", .fn = insert_on_target, .exclusive = true,
                         .after = {"cleanup"}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_app_update_by(app, ECS_SCHED_HZ(60)), ECS_SCHED_ERR_STALE_ENTITY);
    assert_contains(ecs_sched_last_error(w), "system 'late_insert' in schedule 'Update': insert");
    assert_contains(ecs_sched_last_error(w), "in schedule 'Main'");
    assert_int_equal(ecs_sched_app_run(app, &(ecs_sched_app_run_desc){.delta_ns = 1000,
                                                                     .max_frames = 3},
                                       &code),
                     ECS_SCHED_ERR_STALE_ENTITY);
    ecs_sched_app_destroy(app);
}

static void the_scenario_reaches_the_caller_of_an_app_update_single_threaded(void **state) {
    (void)state;
    the_scenario_reaches_the_caller_of_an_app_update(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 1);
}

static void the_scenario_reaches_the_caller_of_an_app_update_in_parallel(void **state) {
    (void)state;
    the_scenario_reaches_the_caller_of_an_app_update(ECS_SCHED_EXECUTOR_PARALLEL, 2);
}

static void a_failing_fixed_step_stops_the_steps_left_in_that_frame(void **state) {
    ecs_sched_app *app;
    ecs_sched_world *w;
    const ecs_sched_time_fixed *fixed;
    (void)state;
    app_world(&app, ECS_SCHED_EXECUTOR_SINGLE_THREADED, 1);
    w = ecs_sched_app_world(app);
    g_trace[0] = '\0';
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_FIXED_UPDATE, &(ecs_sched_system_desc){
                         .name = "step", .fn = fail_with, .user_data = (void *)&g_failed}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_app_update_by(app, ECS_SCHED_HZ(64) * 3),
                     ECS_SCHED_ERR_SYSTEM_FAILED);
    assert_string_equal(g_trace, "step");   /* three steps were due; the first failed */
    fixed = (const ecs_sched_time_fixed *)ecs_sched_resource_get(w, ecs_sched_time_fixed_id(w));
    assert_non_null(fixed);
    assert_int_equal(fixed->steps_this_frame, 1);
    ecs_sched_app_destroy(app);
}

static void under_continue_every_fixed_step_runs(void **state) {
    ecs_sched_app *app;
    ecs_sched_world *w;
    ecs_sched_error_hook none = {NULL, NULL};
    (void)state;
    app_world(&app, ECS_SCHED_EXECUTOR_SINGLE_THREADED, 1);
    w = ecs_sched_app_world(app);
    g_trace[0] = '\0';
    assert_int_equal(ecs_sched_world_set_error_policy(w, ECS_SCHED_ON_ERROR_CONTINUE, none),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_FIXED_UPDATE, &(ecs_sched_system_desc){
                         .name = "step", .fn = fail_with, .user_data = (void *)&g_failed}),
                     ECS_SCHED_OK);
    trace_in(w, ECS_SCHED_LAST, "last");
    assert_int_equal(ecs_sched_app_update_by(app, ECS_SCHED_HZ(64) * 3),
                     ECS_SCHED_ERR_SYSTEM_FAILED);
    assert_string_equal(g_trace, "step step step last");
    ecs_sched_app_destroy(app);
}

/* ---- the first failure in plan order, whichever executor ---- */

typedef struct verdict {
    ecs_sched_result code;
    char message[512];
} verdict;

static uint64_t next_random(uint64_t *state) {
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

static const ecs_sched_result g_codes[] = {ECS_SCHED_ERR_SYSTEM_FAILED,
                                          ECS_SCHED_ERR_INVALID_ARGUMENT,
                                          ECS_SCHED_ERR_MISSING_COMPONENT};

/* What the drawn systems do: fail, or nothing (no trace: they run at once). */
static void fail_quietly(ecs_sched_system_ctx *ctx) {
    const ecs_sched_result *code = (const ecs_sched_result *)ecs_sched_ctx_user_data(ctx);
    ecs_sched_ctx_fail(ctx, *code, "drawn to fail");
}

static void do_nothing(ecs_sched_system_ctx *ctx) {
    (void)ctx;
}

/* Independent systems (and some ordered ones) of which some fail, with the same seed on
   every executor. */
static verdict run_drawn(uint64_t seed, ecs_sched_executor executor, int32_t threads,
                         ecs_sched_error_policy policy) {
    ecs_sched_error_hook none = {NULL, NULL};
    ecs_sched_world *w = world_with(executor, threads, policy, none);
    uint64_t rng = seed * 0x9E3779B97F4A7C15ull + 3;
    char names[24][16];
    int i, count = 4 + (int)(next_random(&rng) % 20);
    verdict v;
    for (i = 0; i < count; i++) {
        ecs_sched_system_desc desc;
        memset(&desc, 0, sizeof desc);
        snprintf(names[i], sizeof names[i], "s%02d", i);
        desc.name = names[i];
        if (next_random(&rng) % 4 == 0) {
            desc.fn = fail_quietly;
            desc.user_data = (void *)&g_codes[next_random(&rng) % 3];
        } else {
            desc.fn = do_nothing;
        }
        if (i > 0 && next_random(&rng) % 3 == 0) desc.after[0] = names[next_random(&rng) % (uint64_t)i];
        assert_int_equal(ecs_sched_add_system(w, UPDATE, &desc), ECS_SCHED_OK);
    }
    v.code = ecs_sched_run_schedule(w, UPDATE);
    snprintf(v.message, sizeof v.message, "%s", v.code ? ecs_sched_last_error(w) : "");
    check_and_destroy(w);
    return v;
}

static void the_first_failure_in_plan_order_is_returned_by_both_executors(void **state) {
    static const ecs_sched_error_policy policies[] = {ECS_SCHED_ON_ERROR_CONTINUE,
                                                      ECS_SCHED_ON_ERROR_STOP};
    uint64_t seed;
    int p, repeat, failures = 0;
    (void)state;
    for (seed = 1; seed <= 60; seed++) {
        for (p = 0; p < 2; p++) {
            verdict one = run_drawn(seed, ECS_SCHED_EXECUTOR_SINGLE_THREADED, 1, policies[p]);
            failures += one.code != ECS_SCHED_OK;
            for (repeat = 0; repeat < 3; repeat++) {
                verdict two = run_drawn(seed, ECS_SCHED_EXECUTOR_PARALLEL, 2, policies[p]);
                verdict four = run_drawn(seed, ECS_SCHED_EXECUTOR_PARALLEL, 4, policies[p]);
                assert_int_equal(two.code, one.code);
                assert_string_equal(two.message, one.message);
                assert_int_equal(four.code, one.code);
                assert_string_equal(four.message, one.message);
            }
        }
    }
    assert_true(failures > 60);   /* most drawn schedules have a failure */
}

/* ---- a set's failing condition stops both executors at the same place ---- */

static int g_ran[16];

static void mark_ran(ecs_sched_system_ctx *ctx) {
    int *slot = (int *)ecs_sched_ctx_user_data(ctx);
    (*slot)++;
}

static int count_set_members_run(ecs_sched_executor executor, int32_t threads) {
    ecs_sched_error_hook none = {NULL, NULL};
    ecs_sched_world *w = world_with(executor, threads, ECS_SCHED_ON_ERROR_STOP, none);
    int i, total = 0;
    memset(g_ran, 0, sizeof g_ran);
    CONFIGURE_SET(w, .name = "Guarded",
                  .run_if = {&(ecs_sched_condition){.name = "unsure", .fn = failing_true_condition}});
    for (i = 0; i < 8; i++) {
        char name[16];
        snprintf(name, sizeof name, "m%d", i);
        ADD_SYSTEM(w, .name = name, .fn = mark_ran, .user_data = &g_ran[i],
                   .in_set = {"Guarded"});
    }
    for (i = 8; i < 12; i++) {   /* after every member in plan order */
        char name[16];
        snprintf(name, sizeof name, "late%d", i);
        ADD_SYSTEM(w, .name = name, .fn = mark_ran, .user_data = &g_ran[i]);
    }
    for (i = 0; i < 4; i++) {
        assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SYSTEM_FAILED);
        assert_contains(ecs_sched_last_error(w), "condition 'unsure' (guarding set 'Guarded')");
    }
    for (i = 0; i < 12; i++) total += g_ran[i];
    check_and_destroy(w);
    return total;
}

static void a_failing_set_condition_runs_no_member_on_either_executor(void **state) {
    (void)state;
    assert_int_equal(count_set_members_run(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 1), 0);
    assert_int_equal(count_set_members_run(ECS_SCHED_EXECUTOR_PARALLEL, 2), 0);
    assert_int_equal(count_set_members_run(ECS_SCHED_EXECUTOR_PARALLEL, 4), 0);
}

#ifdef ECS_SCHED_THREADS
/* ---- the pieces of a parallel query run as their system ---- */

static ecs_sched_world *g_piece_world;

static void despawn_in_piece(ecs_sched_iter *it, void *arg) {
    int32_t i;
    (void)arg;
    for (i = 0; i < it->count; i++) ecs_sched_despawn(g_piece_world, it->entities[i]);
}

static void spread_despawns(ecs_sched_system_ctx *ctx) {
    ecs_sched_ctx_par_iter(ctx, 0, 1, despawn_in_piece, NULL);
}

static void a_refused_change_in_a_piece_of_a_parallel_query_fails_its_system(void **state) {
    ecs_sched_error_hook none = {NULL, NULL};
    ecs_sched_world *w = world_with(ECS_SCHED_EXECUTOR_PARALLEL, 2, ECS_SCHED_ON_ERROR_STOP, none);
    int i;
    (void)state;
    g_piece_world = w;
    g_position = ECS_SCHED_COMPONENT(w, Position);
    for (i = 0; i < 64; i++) {
        ecs_sched_id ids[2];
        ids[0] = g_position;
        ids[1] = ecs_sched_component_register_type(w, i % 2 ? "A" : "B", 4, 4);
        assert_true(ecs_sched_spawn_with(w, 2, ids, NULL) != ECS_SCHED_NULL_ENTITY);
    }
    ADD_SYSTEM(w, .name = "spread", .fn = spread_despawns,
               .queries = {{{ecs_sched_read(g_position)}}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_contains(ecs_sched_last_error(w), "system 'spread' in schedule 'Update': despawn");
    assert_int_equal(ecs_sched_entity_count(w), 64);   /* refused on every thread */
    check_and_destroy(w);
}
#endif

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(an_ignored_failing_call_fails_the_system_and_the_run),
        cmocka_unit_test(a_system_that_handles_its_failing_call_is_not_failed),
        cmocka_unit_test(a_failure_is_taken_by_its_run_and_the_next_run_starts_clean),
        cmocka_unit_test(ctx_fail_reports_a_code_and_a_message_naming_system_and_schedule),
        cmocka_unit_test(ctx_fail_with_ok_records_nothing),
        cmocka_unit_test(a_failure_cleared_and_a_later_one_counts_the_later),
        cmocka_unit_test(a_condition_can_fail_and_its_node_does_not_run),
        cmocka_unit_test(a_failing_condition_keeps_its_node_off_under_continue_too),
        cmocka_unit_test(the_hook_hears_every_failing_condition_of_a_node),
        cmocka_unit_test(a_declared_resource_that_does_not_exist_fails_the_system),
        cmocka_unit_test(an_optional_resource_that_does_not_exist_is_no_failure),
        cmocka_unit_test(an_optional_resource_must_still_be_declared),
        cmocka_unit_test(a_structural_change_through_the_world_from_a_shared_system_is_refused),
        cmocka_unit_test(a_refused_access_cannot_be_cleared),
        cmocka_unit_test(commands_without_declaring_them_fail_the_system_without_a_crash),
        cmocka_unit_test(a_query_term_with_id_zero_is_refused_naming_its_position),
        cmocka_unit_test(a_query_whose_first_term_has_id_zero_is_refused_too),
        cmocka_unit_test(a_term_after_the_end_of_the_list_is_refused),
        cmocka_unit_test(stop_runs_no_further_system_but_applies_the_commands_of_those_that_ran),
        cmocka_unit_test(stop_in_a_set_that_holds_runs_no_further_member),
    cmocka_unit_test(continue_in_a_set_that_holds_runs_every_member),
    cmocka_unit_test(continue_runs_every_system_and_returns_the_first_failure),
        cmocka_unit_test(a_schedule_policy_overrides_the_worlds),
        cmocka_unit_test(a_hook_that_ignores_lets_the_run_succeed),
        cmocka_unit_test(an_ignored_failure_is_taken_too),
        cmocka_unit_test(a_hook_that_continues_sees_every_failure_and_the_run_returns_the_first),
        cmocka_unit_test(a_hook_that_stops_stops_the_run),
        cmocka_unit_test(the_hook_hears_of_failures_under_the_stop_policy_too),
        cmocka_unit_test(a_hook_replaced_during_a_run_applies_from_the_next_run),
        cmocka_unit_test(the_policy_can_be_set_on_a_world_later),
        cmocka_unit_test(bad_policies_are_refused),
        cmocka_unit_test(a_command_that_cannot_be_applied_fails_the_system_that_recorded_it),
        cmocka_unit_test(a_failure_in_a_nested_run_reaches_the_outer_run_naming_both_schedules),
        cmocka_unit_test(the_scenario_reaches_the_caller_of_an_app_update_single_threaded),
        cmocka_unit_test(the_scenario_reaches_the_caller_of_an_app_update_in_parallel),
        cmocka_unit_test(a_failing_fixed_step_stops_the_steps_left_in_that_frame),
        cmocka_unit_test(under_continue_every_fixed_step_runs),
        cmocka_unit_test(the_first_failure_in_plan_order_is_returned_by_both_executors),
        cmocka_unit_test(a_failing_set_condition_runs_no_member_on_either_executor),
#ifdef ECS_SCHED_THREADS
        cmocka_unit_test(a_refused_change_in_a_piece_of_a_parallel_query_fails_its_system),
#endif
    };
    return cmocka_run_group_tests_name("failures", tests, NULL, destroy_leftover_world);
}
