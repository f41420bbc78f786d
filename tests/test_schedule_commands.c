/* Commands and sync points: a system's structural changes wait in its command buffer until a
   sync point applies them: an apply_deferred system, the final flush of the run, or a sync point
   the build inserts between a system with commands and a system ordered after it. Edges can opt
   out (before/after_ignore_deferred, chain_ignore_deferred), and a schedule can turn it off. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "schedule_fixture.h"

static ids g_c;   /* what the systems below spawn, count and set */

/* Spawns one entity with a Position through its command buffer. */
static void spawner(ecs_sched_system_ctx *ctx) {
    ecs_sched_commands *cmd = ecs_sched_ctx_commands(ctx);
    assert_non_null(cmd);
    ecs_sched_commands_spawn_with(cmd, 1, &g_c.position, NULL);
    trace_add(ecs_sched_ctx_name(ctx));
}

/* Writes "name=N" to the trace: the entities with a Position it can see. */
static void census(ecs_sched_system_ctx *ctx) {
    char entry[64];
    ecs_sched_query *q = ecs_sched_ctx_query(ctx, 0);
    snprintf(entry, sizeof entry, "%s=%d", ecs_sched_ctx_name(ctx), q ? (int)ecs_sched_query_count(q) : -1);
    trace_add(entry);
}

/* Sets the Score resource to its user_data's value through its command buffer. */
static void score_setter(ecs_sched_system_ctx *ctx) {
    Score s;
    s.value = *(const int *)ecs_sched_ctx_user_data(ctx);
    ecs_sched_commands_set_resource(ecs_sched_ctx_commands(ctx), g_c.score, &s);
}

/* Desc fields of a spawner or a census: SPAWNER("name", more fields...). */
#define SPAWNER(...) .fn = spawner, .commands = true, .name = __VA_ARGS__
#define CENSUS(...) .fn = census, .queries = {{{ecs_sched_read(g_c.position)}}}, .name = __VA_ARGS__

static void disable_auto_sync(ecs_sched_world *w) {
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &(ecs_sched_schedule_desc){.no_auto_sync = true}),
                     ECS_SCHED_OK);
}

/* How many entries of the plan are sync points. */
static int sync_points(ecs_sched_world *w) {
    const char *names[64];
    int32_t n = ecs_sched_schedule_order(w, UPDATE, names, 64), i;
    int count = 0;
    assert_true(n >= 0);
    for (i = 0; i < n; i++) count += strcmp(names[i], "apply_deferred") == 0;
    return count;
}

/* ---- explicit sync points and the final flush ---- */

static void commands_wait_for_a_sync_point(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    disable_auto_sync(w);
    ADD_SYSTEM(w, SPAWNER("spawn"));
    ADD_SYSTEM(w, CENSUS("count", .after = {"spawn"}));
    assert_run_traces(w, "spawn count=0");
    check_and_destroy(w);
}

static void final_flush_applies_pending_commands_when_the_run_ends(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    ADD_SYSTEM(w, SPAWNER("spawn_a"));
    ADD_SYSTEM(w, SPAWNER("spawn_b"));
    assert_int_equal(ecs_sched_entity_count(w), 0);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_entity_count(w), 2);
    assert_string_equal(plan_of(w, UPDATE), "spawn_a spawn_b");
    check_and_destroy(w);
}

static void buffers_are_applied_in_plan_order(void **state) {
    static const int one = 1, two = 2;
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    ADD_SYSTEM(w, .name = "set_two", .fn = score_setter, .commands = true, .user_data = (void *)&two);
    ADD_SYSTEM(w, .name = "set_one", .fn = score_setter, .commands = true, .user_data = (void *)&one,
               .before = {"set_two"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(((const Score *)ecs_sched_resource_get(w, g_c.score))->value, 2);
    check_and_destroy(w);

    w = new_world();
    g_c = register_components(w);
    ADD_SYSTEM(w, .name = "set_two", .fn = score_setter, .commands = true, .user_data = (void *)&two,
               .before = {"set_one"});
    ADD_SYSTEM(w, .name = "set_one", .fn = score_setter, .commands = true, .user_data = (void *)&one);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(((const Score *)ecs_sched_resource_get(w, g_c.score))->value, 1);
    check_and_destroy(w);
}

static void apply_deferred_applies_the_commands_of_systems_that_ran_before_it(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    disable_auto_sync(w);
    ADD_SYSTEMS(w, .systems = SYSTEMS({SPAWNER("spawn")}, {.fn = ecs_sched_apply_deferred},
                                      {CENSUS("count")}),
                .count = 3, .chain = true);
    assert_string_equal(plan_of(w, UPDATE), "spawn apply_deferred count");
    assert_run_traces(w, "spawn count=1");
    check_and_destroy(w);
}

static void commands_recorded_after_apply_deferred_wait_for_the_next_sync(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    disable_auto_sync(w);
    ADD_SYSTEMS(w, .systems = SYSTEMS({.fn = ecs_sched_apply_deferred}, {SPAWNER("spawn")},
                                      {CENSUS("count")}),
                .count = 3, .chain = true);
    assert_run_traces(w, "spawn count=0");
    assert_int_equal(ecs_sched_entity_count(w), 1);
    check_and_destroy(w);
}

static void explicit_apply_deferred_between_writer_and_reader_needs_no_automatic_one(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    ADD_SYSTEMS(w, .systems = SYSTEMS({SPAWNER("spawn")}, {.fn = ecs_sched_apply_deferred},
                                      {CENSUS("count")}),
                .count = 3, .chain = true);
    assert_int_equal(sync_points(w), 1);
    assert_run_traces(w, "spawn count=1");
    check_and_destroy(w);
}

/* An apply_deferred that always runs serves where an automatic sync point would go: spawn is
   ordered before both the explicit sync point and count, and the sync point count needs is the
   explicit one. */
static void explicit_apply_deferred_serves_where_an_automatic_one_would_go(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    ADD_SYSTEM(w, SPAWNER("spawn", .before = {"sync", "count"}));
    ADD_SYSTEM(w, .name = "sync", .fn = ecs_sched_apply_deferred);
    ADD_SYSTEM(w, CENSUS("count"));
    assert_string_equal(plan_of(w, UPDATE), "spawn sync count");
    assert_run_traces(w, "spawn count=1");
    check_and_destroy(w);
}

static void reused_explicit_sync_point_keeps_the_order_of_what_follows_it(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    /* first writes before the explicit sync; second writes after it, and its reader needs a
       sync point of its own after that */
    ADD_SYSTEM(w, SPAWNER("first", .before = {"sync", "reader"}));
    ADD_SYSTEM(w, .name = "sync", .fn = ecs_sched_apply_deferred);
    ADD_SYSTEM(w, SPAWNER("second", .after = {"sync"}, .before = {"reader"}));
    ADD_SYSTEM(w, CENSUS("reader"));
    assert_string_equal(plan_of(w, UPDATE), "first sync second apply_deferred reader");
    assert_run_traces(w, "first second reader=2");
    check_and_destroy(w);
}

static bool never(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    return false;
}

/* A guarded apply_deferred may not run, so it cannot stand in for an automatic one. */
static void guarded_apply_deferred_does_not_serve_as_an_automatic_one(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_condition off;
    (void)state;
    memset(&off, 0, sizeof off);
    off.kind = ECS_SCHED_CONDITION_FN;
    off.fn = never;
    g_c = register_components(w);
    ADD_SYSTEM(w, SPAWNER("spawn", .before = {"sync", "count"}));
    ADD_SYSTEM(w, .name = "sync", .fn = ecs_sched_apply_deferred, .run_if = {&off});
    ADD_SYSTEM(w, CENSUS("count"));
    assert_string_equal(plan_of(w, UPDATE), "spawn sync apply_deferred count");
    assert_run_traces(w, "spawn count=1");
    check_and_destroy(w);
}

/* ---- automatic sync points ---- */

static void later_system_sees_entities_spawned_by_commands_of_an_earlier_one(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    ADD_SYSTEM(w, CENSUS("count", .after = {"spawn"}));
    ADD_SYSTEM(w, SPAWNER("spawn"));
    assert_string_equal(plan_of(w, UPDATE), "spawn apply_deferred count");
    assert_run_traces(w, "spawn count=1");
    assert_run_traces(w, "spawn count=1 spawn count=2");
    check_and_destroy(w);
}

static void unordered_systems_get_no_sync_point(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    ADD_SYSTEM(w, SPAWNER("spawn"));
    ADD_SYSTEM(w, CENSUS("count"));
    assert_int_equal(sync_points(w), 0);
    assert_run_traces(w, "spawn count=0");
    check_and_destroy(w);
}

static void systems_without_commands_get_no_sync_point(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    ADD_SYSTEM(w, .name = "plain", .fn = record, .queries = {{{ecs_sched_write(g_c.position)}}});
    ADD_SYSTEM(w, CENSUS("count", .after = {"plain"}));
    assert_string_equal(plan_of(w, UPDATE), "plain count");
    check_and_destroy(w);
}

static void edges_that_need_a_sync_point_share_one(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    ADD_SYSTEM(w, SPAWNER("spawn_a"));
    ADD_SYSTEM(w, SPAWNER("spawn_b"));
    ADD_SYSTEM(w, CENSUS("count_a", .after = {"spawn_a"}));
    ADD_SYSTEM(w, CENSUS("count_b", .after = {"spawn_b"}));
    ADD_SYSTEM(w, CENSUS("count_all", .after = {"spawn_a", "spawn_b"}));
    assert_int_equal(sync_points(w), 1);
    assert_run_traces(w, "spawn_a spawn_b count_a=2 count_b=2 count_all=2");
    check_and_destroy(w);
}

static void each_step_of_a_chain_of_writers_gets_its_own_sync_point(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    ADD_SYSTEMS(w, .systems = SYSTEMS({SPAWNER("first")}, {SPAWNER("second")},
                                      {CENSUS("count")}),
                .count = 3, .chain = true);
    assert_string_equal(plan_of(w, UPDATE), "first apply_deferred second apply_deferred count");
    assert_run_traces(w, "first second count=2");
    check_and_destroy(w);
}

static void sync_point_is_inserted_between_ordered_sets(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    CONFIGURE_SET(w, .name = "spawning", .before = {"counting"});
    ADD_SYSTEM(w, CENSUS("count", .in_set = {"counting"}));
    ADD_SYSTEM(w, SPAWNER("spawn", .in_set = {"spawning"}));
    assert_string_equal(plan_of(w, UPDATE), "spawn apply_deferred count");
    assert_run_traces(w, "spawn count=1");
    check_and_destroy(w);
}

static void count_in_world(ecs_sched_system_ctx *ctx) {
    char entry[64];
    ecs_sched_world *world = ecs_sched_ctx_world(ctx);
    snprintf(entry, sizeof entry, "%s=%d", ecs_sched_ctx_name(ctx), world ? (int)ecs_sched_entity_count(world) : -1);
    trace_add(entry);
}

static void exclusive_system_after_a_writer_sees_its_commands(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    ADD_SYSTEM(w, SPAWNER("spawn"));
    ADD_SYSTEM(w, .name = "inspect", .fn = count_in_world, .exclusive = true, .after = {"spawn"});
    assert_run_traces(w, "spawn inspect=1");
    check_and_destroy(w);
}

/* An exclusive system has the whole world: an ordering that ignores deferred commands still
   gets a sync point before one, so it never sees a world with commands half-way. */
static void exclusive_system_gets_a_sync_point_even_through_an_ignore_deferred_ordering(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    ADD_SYSTEMS(w, .systems = SYSTEMS({SPAWNER("spawn")},
                                      {.name = "inspect", .fn = count_in_world, .exclusive = true}),
                .count = 2, .chain_ignore_deferred = true);
    assert_string_equal(plan_of(w, UPDATE), "spawn apply_deferred inspect");
    assert_run_traces(w, "spawn inspect=1");
    check_and_destroy(w);
}

static void ignore_deferred_ordering_before_a_plain_system_still_adds_none(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    ADD_SYSTEMS(w, .systems = SYSTEMS({SPAWNER("spawn")}, {CENSUS("count")},
                                      {.name = "inspect", .fn = count_in_world, .exclusive = true}),
                .count = 3, .chain_ignore_deferred = true);
    /* count ignores the commands; the exclusive system after it still gets them applied */
    assert_string_equal(plan_of(w, UPDATE), "spawn count apply_deferred inspect");
    assert_run_traces(w, "spawn count=0 inspect=1");
    check_and_destroy(w);
}

static void run_sub_schedule_then_count(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *world = ecs_sched_ctx_world(ctx);
    assert_non_null(world);
    assert_int_equal(ecs_sched_run_schedule(world, "Sub"), ECS_SCHED_OK);
    count_in_world(ctx);
}

static void nested_run_applies_its_commands_before_returning(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    assert_int_equal(ecs_sched_add_system(w, "Sub", &(ecs_sched_system_desc){SPAWNER("sub_spawn")}),
                     ECS_SCHED_OK);
    ADD_SYSTEM(w, .name = "runner", .fn = run_sub_schedule_then_count, .exclusive = true);
    assert_run_traces(w, "sub_spawn runner=1");
    check_and_destroy(w);
}

/* ---- opting out ---- */

static void before_ignore_deferred_adds_no_sync_point(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    ADD_SYSTEM(w, SPAWNER("spawn", .before_ignore_deferred = {"count"}));
    ADD_SYSTEM(w, CENSUS("count"));
    assert_string_equal(plan_of(w, UPDATE), "spawn count");
    assert_run_traces(w, "spawn count=0");
    assert_int_equal(ecs_sched_entity_count(w), 1);
    check_and_destroy(w);
}

static void after_ignore_deferred_adds_no_sync_point(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    ADD_SYSTEM(w, CENSUS("count", .after_ignore_deferred = {"spawn"}));
    ADD_SYSTEM(w, SPAWNER("spawn"));
    assert_string_equal(plan_of(w, UPDATE), "spawn count");
    assert_run_traces(w, "spawn count=0");
    check_and_destroy(w);
}

static void chain_ignore_deferred_adds_no_sync_point(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    ADD_SYSTEMS(w, .systems = SYSTEMS({SPAWNER("spawn")}, {CENSUS("count")}),
                .count = 2, .chain = true, .chain_ignore_deferred = true);
    assert_string_equal(plan_of(w, UPDATE), "spawn count");
    assert_run_traces(w, "spawn count=0");
    check_and_destroy(w);
}

static void chain_ignore_deferred_alone_chains_too(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &(ecs_sched_schedule_desc){
                         .ambiguities = ECS_SCHED_REPORT_ERROR}), ECS_SCHED_OK);
    /* both write Score: only an order between them lets the schedule build */
    ADD_SYSTEMS(w, .systems = SYSTEMS({.name = "a", .fn = record, .writes = {g_c.score}},
                                      {.name = "b", .fn = record, .writes = {g_c.score}}),
                .count = 2, .chain_ignore_deferred = true);
    assert_run_traces(w, "a b");
    check_and_destroy(w);
}

static void plain_chain_gets_a_sync_point(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    ADD_SYSTEMS(w, .systems = SYSTEMS({SPAWNER("spawn")}, {CENSUS("count")}),
                .count = 2, .chain = true);
    assert_string_equal(plan_of(w, UPDATE), "spawn apply_deferred count");
    assert_run_traces(w, "spawn count=1");
    check_and_destroy(w);
}

static void chain_sets_ignoring_deferred_adds_no_sync_point(void **state) {
    static const char *const sets[] = {"spawning", "counting"};
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    ADD_SYSTEM(w, CENSUS("count", .in_set = {"counting"}));
    ADD_SYSTEM(w, SPAWNER("spawn", .in_set = {"spawning"}));
    assert_int_equal(ecs_sched_chain_sets(w, UPDATE, 2, sets, true), ECS_SCHED_OK);
    assert_string_equal(plan_of(w, UPDATE), "spawn count");
    assert_run_traces(w, "spawn count=0");
    check_and_destroy(w);
}

static void chain_sets_gets_a_sync_point(void **state) {
    static const char *const sets[] = {"spawning", "counting"};
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    ADD_SYSTEM(w, CENSUS("count", .in_set = {"counting"}));
    ADD_SYSTEM(w, SPAWNER("spawn", .in_set = {"spawning"}));
    assert_int_equal(ecs_sched_chain_sets(w, UPDATE, 2, sets, false), ECS_SCHED_OK);
    assert_string_equal(plan_of(w, UPDATE), "spawn apply_deferred count");
    assert_run_traces(w, "spawn count=1");
    check_and_destroy(w);
}

static void an_ordering_that_also_wants_the_commands_keeps_its_sync_point(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    ADD_SYSTEM(w, SPAWNER("spawn", .before_ignore_deferred = {"count"}));
    ADD_SYSTEM(w, CENSUS("count", .after = {"spawn"}));
    assert_string_equal(plan_of(w, UPDATE), "spawn apply_deferred count");
    check_and_destroy(w);
}

/* spawn -> count is implied by spawn -> relay -> count, but only it wants the commands: the
   sync point it places is kept. */
static void an_implied_ordering_that_wants_the_commands_keeps_its_sync_point(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    ADD_SYSTEM(w, SPAWNER("spawn", .before_ignore_deferred = {"relay"}));
    ADD_SYSTEM(w, .name = "relay", .fn = record);
    ADD_SYSTEM(w, CENSUS("count", .after = {"relay", "spawn"}));
    assert_string_equal(plan_of(w, UPDATE), "spawn relay apply_deferred count");
    assert_run_traces(w, "spawn relay count=1");
    check_and_destroy(w);
}

/* Ignoring deferred commands spares one ordering its sync point; it does not drop them: relay
   passes them on to what is ordered after it. */
static void commands_an_ignore_deferred_ordering_passes_on_reach_the_next_plain_ordering(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    ADD_SYSTEM(w, SPAWNER("spawn", .before_ignore_deferred = {"relay"}));
    ADD_SYSTEM(w, .name = "relay", .fn = record);
    ADD_SYSTEM(w, CENSUS("count", .after = {"relay"}));
    assert_string_equal(plan_of(w, UPDATE), "spawn relay apply_deferred count");
    assert_run_traces(w, "spawn relay count=1");
    check_and_destroy(w);
}

static void no_auto_sync_disables_automatic_sync_points(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_c = register_components(w);
    ADD_SYSTEM(w, CENSUS("count", .after = {"spawn"}));
    ADD_SYSTEM(w, SPAWNER("spawn"));
    assert_string_equal(plan_of(w, UPDATE), "spawn apply_deferred count");
    disable_auto_sync(w);
    assert_string_equal(plan_of(w, UPDATE), "spawn count");
    assert_run_traces(w, "spawn count=0");
    assert_int_equal(ecs_sched_entity_count(w), 1);
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(commands_wait_for_a_sync_point),
        cmocka_unit_test(final_flush_applies_pending_commands_when_the_run_ends),
        cmocka_unit_test(buffers_are_applied_in_plan_order),
        cmocka_unit_test(apply_deferred_applies_the_commands_of_systems_that_ran_before_it),
        cmocka_unit_test(commands_recorded_after_apply_deferred_wait_for_the_next_sync),
        cmocka_unit_test(explicit_apply_deferred_between_writer_and_reader_needs_no_automatic_one),
        cmocka_unit_test(explicit_apply_deferred_serves_where_an_automatic_one_would_go),
        cmocka_unit_test(reused_explicit_sync_point_keeps_the_order_of_what_follows_it),
        cmocka_unit_test(guarded_apply_deferred_does_not_serve_as_an_automatic_one),
        cmocka_unit_test(later_system_sees_entities_spawned_by_commands_of_an_earlier_one),
        cmocka_unit_test(unordered_systems_get_no_sync_point),
        cmocka_unit_test(systems_without_commands_get_no_sync_point),
        cmocka_unit_test(edges_that_need_a_sync_point_share_one),
        cmocka_unit_test(each_step_of_a_chain_of_writers_gets_its_own_sync_point),
        cmocka_unit_test(sync_point_is_inserted_between_ordered_sets),
        cmocka_unit_test(exclusive_system_after_a_writer_sees_its_commands),
        cmocka_unit_test(nested_run_applies_its_commands_before_returning),
        cmocka_unit_test(exclusive_system_gets_a_sync_point_even_through_an_ignore_deferred_ordering),
        cmocka_unit_test(ignore_deferred_ordering_before_a_plain_system_still_adds_none),
        cmocka_unit_test(before_ignore_deferred_adds_no_sync_point),
        cmocka_unit_test(after_ignore_deferred_adds_no_sync_point),
        cmocka_unit_test(chain_ignore_deferred_adds_no_sync_point),
        cmocka_unit_test(chain_ignore_deferred_alone_chains_too),
        cmocka_unit_test(plain_chain_gets_a_sync_point),
        cmocka_unit_test(chain_sets_ignoring_deferred_adds_no_sync_point),
        cmocka_unit_test(chain_sets_gets_a_sync_point),
        cmocka_unit_test(an_ordering_that_also_wants_the_commands_keeps_its_sync_point),
        cmocka_unit_test(an_implied_ordering_that_wants_the_commands_keeps_its_sync_point),
        cmocka_unit_test(commands_an_ignore_deferred_ordering_passes_on_reach_the_next_plain_ordering),
        cmocka_unit_test(no_auto_sync_disables_automatic_sync_points),
    };
    return cmocka_run_group_tests_name("schedule commands", tests, NULL, destroy_leftover_world);
}
