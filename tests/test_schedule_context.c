/* What a running system can reach through its context: the queries and resources its desc
   declares, its command buffer when it declares one, and the whole world when it is exclusive.
   Anything else is refused with NULL and ERR_ACCESS, the message names the system and what it
   asked for, and the run finishes before returning ERR_ACCESS. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "schedule_fixture.h"

/* ---- the data the systems touch ---- */

typedef struct { float value; } Gravity;   /* a resource no system declares */

static ecs_sched_entity spawn_moving(ecs_sched_world *w, const ids *c, float x, float vx) {
    Position p;
    Velocity v;
    p.x = x;
    p.y = 0;
    v.x = vx;
    v.y = 1;
    return SPAWN(w, {c->position, &p}, {c->velocity, &v});
}

/* What the systems of a test saw, for the test to check after the run. */
static struct observed {
    ids c;
    ecs_sched_id gravity;
    ecs_sched_world *world;
    int calls;
    int32_t count;
    const void *pointer;
    void *mutable_pointer;
    int value;
    ecs_sched_result last_result;
} g_seen;

/* ---- queries ---- */

static void integrate(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    g_seen.calls++;
    while (ecs_sched_iter_next(&it)) {
        Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        const Velocity *v = ECS_SCHED_FIELD(&it, Velocity, 1);
        int32_t i;
        for (i = 0; i < it.count; i++) {
            p[i].x += v[i].x;
            p[i].y += v[i].y;
        }
    }
}

static void system_iterates_its_declared_query(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    ecs_sched_entity e1 = spawn_moving(w, &c, 0, 2), e2 = spawn_moving(w, &c, 10, -1);
    const Position *p;
    (void)state;
    memset(&g_seen, 0, sizeof g_seen);
    ADD_SYSTEM(w, .name = "integrate", .fn = integrate,
               .queries = {{{ecs_sched_write(c.position), ecs_sched_read(c.velocity)}}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_seen.calls, 1);
    p = (const Position *)ecs_sched_get(w, e1, c.position);
    assert_true(p->x == 2 && p->y == 1);
    p = (const Position *)ecs_sched_get(w, e2, c.position);
    assert_true(p->x == 9 && p->y == 1);
    check_and_destroy(w);
}

static void count_second_query(ecs_sched_system_ctx *ctx) {
    ecs_sched_query *q = ecs_sched_ctx_query(ctx, 1);
    g_seen.count = q ? ecs_sched_query_count(q) : -1;
}

static void each_declared_query_is_reached_by_its_index(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    memset(&g_seen, 0, sizeof g_seen);
    spawn_moving(w, &c, 0, 0);
    ecs_sched_spawn_with(w, 1, &c.position, NULL);
    ecs_sched_spawn_with(w, 1, &c.position, NULL);
    ADD_SYSTEM(w, .name = "counter", .fn = count_second_query,
               .queries = {{{ecs_sched_read(c.velocity)}}, {{ecs_sched_read(c.position)}}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_seen.count, 3);
    check_and_destroy(w);
}

static void ask_for_query_three(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it;
    g_seen.pointer = ecs_sched_ctx_query(ctx, 3);
    it = ecs_sched_ctx_iter(ctx, 3);
    g_seen.count = ecs_sched_iter_next(&it) ? 1 : 0;
    trace_add("asked");
}

static void query_index_out_of_range_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    memset(&g_seen, 0, sizeof g_seen);
    g_seen.pointer = &g_seen;
    spawn_moving(w, &c, 0, 0);
    ADD_SYSTEM(w, .name = "greedy", .fn = ask_for_query_three,
               .queries = {{{ecs_sched_read(c.position)}}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_null(g_seen.pointer);
    assert_int_equal(g_seen.count, 0);
    assert_string_equal(g_trace, "asked");
    assert_contains(ecs_sched_last_error(w), "greedy");
    assert_contains(ecs_sched_last_error(w), "query 3");
    check_and_destroy(w);
}

static void ask_for_a_query_without_any(ecs_sched_system_ctx *ctx) {
    g_seen.pointer = ecs_sched_ctx_query(ctx, 0);
}

static void system_without_queries_gets_no_query_zero(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    memset(&g_seen, 0, sizeof g_seen);
    g_seen.pointer = &g_seen;
    ADD_SYSTEM(w, .name = "queryless", .fn = ask_for_a_query_without_any);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_null(g_seen.pointer);
    assert_contains(ecs_sched_last_error(w), "queryless");
    check_and_destroy(w);
}

/* ---- resources ---- */

static void read_score(ecs_sched_system_ctx *ctx) {
    const Score *s = (const Score *)ecs_sched_ctx_resource(ctx, g_seen.c.score);
    g_seen.value = s ? s->value : -1;
}

static void declared_read_resource_is_readable(void **state) {
    ecs_sched_world *w = new_world();
    Score s = {41};
    (void)state;
    memset(&g_seen, 0, sizeof g_seen);
    g_seen.c = register_components(w);
    ecs_sched_resource_insert(w, g_seen.c.score, &s);
    ADD_SYSTEM(w, .name = "reader", .fn = read_score, .reads = {g_seen.c.score});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_seen.value, 41);
    check_and_destroy(w);
}

static void bump_score(ecs_sched_system_ctx *ctx) {
    const Score *read = (const Score *)ecs_sched_ctx_resource(ctx, g_seen.c.score);
    Score *s = (Score *)ecs_sched_ctx_resource_mut(ctx, g_seen.c.score);
    g_seen.pointer = read;
    if (s) s->value++;
}

static void declared_written_resource_is_readable_and_writable(void **state) {
    ecs_sched_world *w = new_world();
    Score s = {1};
    (void)state;
    memset(&g_seen, 0, sizeof g_seen);
    g_seen.c = register_components(w);
    ecs_sched_resource_insert(w, g_seen.c.score, &s);
    ADD_SYSTEM(w, .name = "bumper", .fn = bump_score, .writes = {g_seen.c.score});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_non_null(g_seen.pointer);
    assert_int_equal(((const Score *)ecs_sched_resource_get(w, g_seen.c.score))->value, 3);
    check_and_destroy(w);
}

static void write_read_only_score(ecs_sched_system_ctx *ctx) {
    g_seen.mutable_pointer = ecs_sched_ctx_resource_mut(ctx, g_seen.c.score);
    if (g_seen.mutable_pointer) ((Score *)g_seen.mutable_pointer)->value = 99;
}

static void writing_a_resource_declared_only_as_read_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    Score s = {5};
    (void)state;
    memset(&g_seen, 0, sizeof g_seen);
    g_seen.c = register_components(w);
    g_seen.mutable_pointer = &g_seen;
    ecs_sched_resource_insert(w, g_seen.c.score, &s);
    ADD_SYSTEM(w, .name = "sneaky_writer", .fn = write_read_only_score, .reads = {g_seen.c.score});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_null(g_seen.mutable_pointer);
    assert_int_equal(((const Score *)ecs_sched_resource_get(w, g_seen.c.score))->value, 5);
    assert_contains(ecs_sched_last_error(w), "sneaky_writer");
    assert_contains(ecs_sched_last_error(w), "Score");
    check_and_destroy(w);
}

static void read_gravity(ecs_sched_system_ctx *ctx) {
    g_seen.pointer = ecs_sched_ctx_resource(ctx, g_seen.gravity);
    trace_add("nosy");
}

static void undeclared_resource_is_refused_and_stops_the_run_with_err_access(void **state) {
    ecs_sched_world *w = new_world();
    Gravity g = {9.8f};
    (void)state;
    memset(&g_seen, 0, sizeof g_seen);
    g_seen.c = register_components(w);
    g_seen.gravity = ECS_SCHED_COMPONENT(w, Gravity);
    g_seen.pointer = &g_seen;
    ecs_sched_resource_insert(w, g_seen.gravity, &g);
    ADD_SYSTEM(w, .name = "nosy", .fn = read_gravity, .reads = {g_seen.c.score});
    ADD_SYSTEM(w, .name = "later", .fn = record, .after = {"nosy"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_null(g_seen.pointer);
    assert_string_equal(g_trace, "nosy");   /* the default policy stops the run */
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_ACCESS);
    assert_contains(ecs_sched_last_error(w), "nosy");
    assert_contains(ecs_sched_last_error(w), "Gravity");
    assert_contains(g_log.text, "error: ");
    check_and_destroy(w);
}

static int g_violations_left;

static void misbehave_once(ecs_sched_system_ctx *ctx) {
    if (g_violations_left > 0) {
        g_violations_left--;
        (void)ecs_sched_ctx_resource(ctx, g_seen.gravity);
    }
}

static void an_access_error_is_reported_by_the_run_that_made_it_only(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    memset(&g_seen, 0, sizeof g_seen);
    g_seen.c = register_components(w);
    g_seen.gravity = ECS_SCHED_COMPONENT(w, Gravity);
    g_violations_left = 1;
    ADD_SYSTEM(w, .name = "once_rude", .fn = misbehave_once);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    check_and_destroy(w);
}

/* ---- commands ---- */

static void spawn_with_commands(ecs_sched_system_ctx *ctx) {
    ecs_sched_commands *cmd = ecs_sched_ctx_commands(ctx);
    g_seen.pointer = cmd;
    if (cmd) ecs_sched_commands_spawn(cmd);
}

static void declared_commands_give_a_buffer_applied_by_the_run(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    memset(&g_seen, 0, sizeof g_seen);
    ADD_SYSTEM(w, .name = "spawner", .fn = spawn_with_commands, .commands = true);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_non_null(g_seen.pointer);
    assert_int_equal(ecs_sched_entity_count(w), 1);
    check_and_destroy(w);
}

static void commands_without_declaring_them_are_refused(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    memset(&g_seen, 0, sizeof g_seen);
    g_seen.pointer = &g_seen;
    ADD_SYSTEM(w, .name = "undeclared_spawner", .fn = spawn_with_commands);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_null(g_seen.pointer);
    assert_int_equal(ecs_sched_entity_count(w), 0);
    assert_contains(ecs_sched_last_error(w), "undeclared_spawner");
    assert_contains(ecs_sched_last_error(w), "command");
    check_and_destroy(w);
}

/* ---- the world: exclusive systems only ---- */

static void grab_world(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *world = ecs_sched_ctx_world(ctx);
    g_seen.world = world;
    if (world) ecs_sched_spawn(world);
}

static void world_from_a_non_exclusive_system_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    memset(&g_seen, 0, sizeof g_seen);
    g_seen.world = w;
    ADD_SYSTEM(w, .name = "grabby", .fn = grab_world);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_null(g_seen.world);
    assert_int_equal(ecs_sched_entity_count(w), 0);
    assert_contains(ecs_sched_last_error(w), "grabby");
    assert_contains(ecs_sched_last_error(w), "world");
    check_and_destroy(w);
}

static void count_entities_in_query(ecs_sched_system_ctx *ctx) {
    ecs_sched_query *q = ecs_sched_ctx_query(ctx, 0);
    g_seen.count = q ? ecs_sched_query_count(q) : -1;
}

static void spawn_positioned(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *world = ecs_sched_ctx_world(ctx);
    g_seen.world = world;
    if (world) {
        ecs_sched_spawn_with(world, 1, &g_seen.c.position, NULL);
        ecs_sched_spawn_with(world, 1, &g_seen.c.position, NULL);
    }
}

static void exclusive_system_gets_the_world_and_changes_it_at_once(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    memset(&g_seen, 0, sizeof g_seen);
    g_seen.c = register_components(w);
    ADD_SYSTEM(w, .name = "world_builder", .fn = spawn_positioned, .exclusive = true);
    ADD_SYSTEM(w, .name = "census", .fn = count_entities_in_query, .after = {"world_builder"},
               .queries = {{{ecs_sched_read(g_seen.c.position)}}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_ptr_equal(g_seen.world, w);
    assert_int_equal(g_seen.count, 2);
    check_and_destroy(w);
}

/* ---- name and user data ---- */

static void remember_identity(ecs_sched_system_ctx *ctx) {
    g_seen.pointer = ecs_sched_ctx_user_data(ctx);
    trace_add(ecs_sched_ctx_name(ctx));
}

static void context_carries_the_name_and_user_data_of_the_desc(void **state) {
    ecs_sched_world *w = new_world();
    int token = 7;
    (void)state;
    memset(&g_seen, 0, sizeof g_seen);
    ADD_SYSTEM(w, .name = "identity", .fn = remember_identity, .user_data = &token);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_ptr_equal(g_seen.pointer, &token);
    assert_string_equal(g_trace, "identity");
    check_and_destroy(w);
}

static void system_without_a_name_is_called_system(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .fn = record);
    assert_run_traces(w, "system");
    check_and_destroy(w);
}

static void system_without_a_function_is_refused_when_added(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){.name = "hollow"}),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "hollow");
    check_and_destroy(w);
}

static void declaring_an_unregistered_resource_is_refused_when_added(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                                              .name = "ghost_reader", .fn = record, .reads = {77}}),
                     ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_contains(ecs_sched_last_error(w), "ghost_reader");
    check_and_destroy(w);
}

/* ---- optional resources and query indices below zero ---- */

static void write_score_if_there(ecs_sched_system_ctx *ctx) {
    Score *s = (Score *)ecs_sched_ctx_optional_resource_mut(ctx, g_seen.c.score);
    g_seen.calls++;
    g_seen.mutable_pointer = s;
    if (s) s->value += 10;
}

static void an_optional_written_resource_is_null_while_absent_and_written_when_there(void **state) {
    ecs_sched_world *w = new_world();
    Score s = {1};
    (void)state;
    memset(&g_seen, 0, sizeof g_seen);
    g_seen.c = register_components(w);
    g_seen.mutable_pointer = &g_seen;
    ADD_SYSTEM(w, .name = "maybe", .fn = write_score_if_there, .writes = {g_seen.c.score});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_null(g_seen.mutable_pointer);
    assert_int_equal(ecs_sched_resource_insert(w, g_seen.c.score, &s), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_non_null(g_seen.mutable_pointer);
    assert_int_equal(g_seen.calls, 2);
    assert_int_equal(((const Score *)ecs_sched_resource_get(w, g_seen.c.score))->value, 11);
    check_and_destroy(w);
}

static void an_optional_written_resource_declared_as_read_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    Score s = {1};
    (void)state;
    memset(&g_seen, 0, sizeof g_seen);
    g_seen.c = register_components(w);
    assert_int_equal(ecs_sched_resource_insert(w, g_seen.c.score, &s), ECS_SCHED_OK);
    ADD_SYSTEM(w, .name = "sly", .fn = write_score_if_there, .reads = {g_seen.c.score});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_null(g_seen.mutable_pointer);
    assert_contains(ecs_sched_last_error(w), "sly");
    assert_contains(ecs_sched_last_error(w), "writes resource 'Score' without declaring it: add "
                                             "it to the desc's .writes");
    assert_int_equal(((const Score *)ecs_sched_resource_get(w, g_seen.c.score))->value, 1);
    check_and_destroy(w);
}

static void ask_for_query_minus_one(ecs_sched_system_ctx *ctx) {
    g_seen.pointer = ecs_sched_ctx_query(ctx, -1);
}

static void a_negative_query_index_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    memset(&g_seen, 0, sizeof g_seen);
    g_seen.pointer = &g_seen;
    ADD_SYSTEM(w, .name = "backwards", .fn = ask_for_query_minus_one,
               .queries = {{{ecs_sched_read(c.position)}}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_null(g_seen.pointer);
    assert_contains(ecs_sched_last_error(w), "asked for query -1, which its desc does not declare");
    check_and_destroy(w);
}

static void write_missing_score(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 2);
    g_seen.count = ecs_sched_iter_next_rows(&it) ? 1 : 0;
    g_seen.mutable_pointer = ecs_sched_ctx_resource_mut(ctx, g_seen.c.score);
}

static void an_iteration_by_index_of_an_undeclared_query_hands_out_nothing(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    memset(&g_seen, 0, sizeof g_seen);
    g_seen.c = register_components(w);
    g_seen.mutable_pointer = &g_seen;
    g_seen.count = -1;
    ADD_SYSTEM(w, .name = "hopeful", .fn = write_missing_score, .writes = {g_seen.c.score});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_null(g_seen.mutable_pointer);
    assert_int_equal(g_seen.count, 0);   /* no query 2: nothing handed out by index either */
    assert_contains(ecs_sched_last_error(w), "hopeful");
    assert_contains(ecs_sched_last_error(w), "query 2");
    check_and_destroy(w);
}

static void write_missing_score_only(ecs_sched_system_ctx *ctx) {
    g_seen.mutable_pointer = ecs_sched_ctx_resource_mut(ctx, g_seen.c.score);
}

static void writing_a_declared_resource_that_is_not_there_names_it(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    memset(&g_seen, 0, sizeof g_seen);
    g_seen.c = register_components(w);
    g_seen.mutable_pointer = &g_seen;
    ADD_SYSTEM(w, .name = "hopeful", .fn = write_missing_score_only, .writes = {g_seen.c.score});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_null(g_seen.mutable_pointer);
    assert_contains(ecs_sched_last_error(w), "system 'hopeful'");
    assert_contains(ecs_sched_last_error(w), "reads resource 'Score', which does not exist");
    check_and_destroy(w);
}

static void read_an_unknown_resource(ecs_sched_system_ctx *ctx) {
    g_seen.pointer = ecs_sched_ctx_resource(ctx, 4000);
}

static void reading_an_unregistered_resource_is_refused_as_undeclared(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    memset(&g_seen, 0, sizeof g_seen);
    g_seen.pointer = &g_seen;
    ADD_SYSTEM(w, .name = "lost", .fn = read_an_unknown_resource);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_null(g_seen.pointer);
    assert_contains(ecs_sched_last_error(w), "system 'lost'");
    assert_contains(ecs_sched_last_error(w),
                    "reads resource id 4000, which is not registered in this world");
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reading_an_unregistered_resource_is_refused_as_undeclared),
        cmocka_unit_test(an_iteration_by_index_of_an_undeclared_query_hands_out_nothing),
        cmocka_unit_test(writing_a_declared_resource_that_is_not_there_names_it),
        cmocka_unit_test(an_optional_written_resource_is_null_while_absent_and_written_when_there),
        cmocka_unit_test(an_optional_written_resource_declared_as_read_is_refused),
        cmocka_unit_test(a_negative_query_index_is_refused),
        cmocka_unit_test(system_iterates_its_declared_query),
        cmocka_unit_test(each_declared_query_is_reached_by_its_index),
        cmocka_unit_test(query_index_out_of_range_is_refused),
        cmocka_unit_test(system_without_queries_gets_no_query_zero),
        cmocka_unit_test(declared_read_resource_is_readable),
        cmocka_unit_test(declared_written_resource_is_readable_and_writable),
        cmocka_unit_test(writing_a_resource_declared_only_as_read_is_refused),
        cmocka_unit_test(undeclared_resource_is_refused_and_stops_the_run_with_err_access),
        cmocka_unit_test(an_access_error_is_reported_by_the_run_that_made_it_only),
        cmocka_unit_test(declared_commands_give_a_buffer_applied_by_the_run),
        cmocka_unit_test(commands_without_declaring_them_are_refused),
        cmocka_unit_test(world_from_a_non_exclusive_system_is_refused),
        cmocka_unit_test(exclusive_system_gets_the_world_and_changes_it_at_once),
        cmocka_unit_test(context_carries_the_name_and_user_data_of_the_desc),
        cmocka_unit_test(system_without_a_name_is_called_system),
        cmocka_unit_test(system_without_a_function_is_refused_when_added),
        cmocka_unit_test(declaring_an_unregistered_resource_is_refused_when_added),
    };
    return cmocka_run_group_tests_name("schedule context", tests, NULL, destroy_leftover_world);
}
