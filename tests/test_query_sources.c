/* Terms with a fixed source: a named entity's component (flecs's "Game:Config") and a resource
   ("$Time"). Their field is one value for every row handed out; while the source lacks it the
   query hands out nothing; a system's resource terms are resources the system declares. */
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

typedef struct { float gravity; } Config;

static ecs_sched_id g_score;   /* the Score of the running test */

typedef struct fixture {
    ecs_sched_world *w;
    ecs_sched_id position, velocity, config, score;
    ecs_sched_entity game, a, b;
} fixture;

static fixture make_fixture(void) {
    fixture f;
    f.w = new_world();
    f.position = ECS_SCHED_COMPONENT(f.w, Position);
    f.velocity = ECS_SCHED_COMPONENT(f.w, Velocity);
    f.config = ECS_SCHED_COMPONENT(f.w, Config);
    f.score = g_score = ECS_SCHED_COMPONENT(f.w, Score);
    f.game = SPAWN(f.w, {f.config, &(Config){9.8f}});
    assert_int_equal(ecs_sched_set_name(f.w, f.game, "Game"), ECS_SCHED_OK);
    f.a = SPAWN(f.w, {f.position, &(Position){1, 0}});
    f.b = SPAWN(f.w, {f.position, &(Position){2, 0}}, {f.velocity, &(Velocity){0, 0}});
    return f;
}

/* Rows handed out by q, each field 1 checked to be the shared value `expected`. */
static int32_t rows_sharing(ecs_sched_query *q, const void *expected) {
    ecs_sched_iter it = ecs_sched_query_iter(q);
    int32_t rows = 0;
    while (ecs_sched_iter_next(&it)) {
        assert_true(ecs_sched_field_is_shared(&it, 1));
        assert_false(ecs_sched_field_is_shared(&it, 0));
        assert_ptr_equal(it.fields[1], expected);
        rows += it.count;
    }
    return rows;
}

static void a_term_from_an_entity_hands_its_value_to_every_row(void **state) {
    fixture f = make_fixture();
    ecs_sched_query *q = ecs_sched_query_create(
        f.w, &(ecs_sched_query_desc){.terms = {ecs_sched_write(f.position),
                                               ecs_sched_from_entity(f.config, f.game)}});
    (void)state;
    assert_non_null(q);
    assert_int_equal(rows_sharing(q, ecs_sched_get(f.w, f.game, f.config)), 2);
    check_and_destroy(f.w);
}

static void while_the_entity_lacks_the_component_the_query_hands_out_nothing(void **state) {
    fixture f = make_fixture();
    ecs_sched_query *q = ecs_sched_query_create(
        f.w, &(ecs_sched_query_desc){.terms = {ecs_sched_write(f.position),
                                               ecs_sched_from_entity(f.config, f.game)}});
    (void)state;
    assert_int_equal(ecs_sched_remove(f.w, f.game, f.config), ECS_SCHED_OK);
    assert_int_equal(rows_sharing(q, NULL), 0);
    assert_int_equal(ecs_sched_query_count(q), 0);
    assert_int_equal(ecs_sched_insert(f.w, f.game, f.config, &(Config){1}), ECS_SCHED_OK);
    assert_int_equal(rows_sharing(q, ecs_sched_get(f.w, f.game, f.config)), 2);
    assert_int_equal(ecs_sched_despawn(f.w, f.game), ECS_SCHED_OK);
    assert_int_equal(rows_sharing(q, NULL), 0);
    check_and_destroy(f.w);
}

static void a_dead_source_is_refused_when_the_query_is_made(void **state) {
    fixture f = make_fixture();
    (void)state;
    assert_int_equal(ecs_sched_despawn(f.w, f.game), ECS_SCHED_OK);
    assert_null(ecs_sched_query_create(
        f.w, &(ecs_sched_query_desc){.terms = {ecs_sched_read(f.position),
                                               ecs_sched_from_entity(f.config, f.game)}}));
    assert_int_equal(ecs_sched_last_result(f.w), ECS_SCHED_ERR_STALE_ENTITY);
    check_and_destroy(f.w);
}

static void one_component_may_come_from_the_row_and_from_an_entity(void **state) {
    fixture f = make_fixture();
    ecs_sched_query *q;
    (void)state;
    assert_int_equal(ecs_sched_insert(f.w, f.game, f.position, &(Position){7, 7}), ECS_SCHED_OK);
    q = ecs_sched_query_create(
        f.w, &(ecs_sched_query_desc){.terms = {ecs_sched_write(f.position),
                                               ecs_sched_from_entity(f.position, f.game)}});
    assert_non_null(q);
    assert_int_equal(rows_sharing(q, ecs_sched_get(f.w, f.game, f.position)), 3);
    assert_null(ecs_sched_query_create(
        f.w, &(ecs_sched_query_desc){.terms = {ecs_sched_from_entity(f.position, f.game),
                                               ecs_sched_from_entity(f.position, f.game)}}));
    assert_int_equal(ecs_sched_last_result(f.w), ECS_SCHED_ERR_INVALID_QUERY);
    check_and_destroy(f.w);
}

static void a_resource_term_hands_out_the_resource_while_it_exists(void **state) {
    fixture f = make_fixture();
    ecs_sched_query *q = ecs_sched_query_create(
        f.w, &(ecs_sched_query_desc){.terms = {ecs_sched_read(f.position),
                                               ecs_sched_resource_read(f.score)}});
    (void)state;
    assert_int_equal(rows_sharing(q, NULL), 0);
    assert_int_equal(ecs_sched_resource_insert(f.w, f.score, &(Score){3}), ECS_SCHED_OK);
    assert_int_equal(rows_sharing(q, ecs_sched_resource_get(f.w, f.score)), 2);
    assert_int_equal(ecs_sched_resource_remove(f.w, f.score), ECS_SCHED_OK);
    assert_int_equal(rows_sharing(q, NULL), 0);
    check_and_destroy(f.w);
}

static void a_resource_term_is_no_component_access_of_the_query(void **state) {
    fixture f = make_fixture();
    ecs_sched_query *q = ecs_sched_query_create(
        f.w, &(ecs_sched_query_desc){.terms = {ecs_sched_read(f.position),
                                               ecs_sched_resource_write(f.score)}});
    ecs_sched_access access = ecs_sched_query_access(q);
    (void)state;
    assert_int_equal(access.read_count, 1);
    assert_int_equal(access.reads[0], f.position);
    assert_int_equal(access.write_count, 0);
    check_and_destroy(f.w);
}

/* Adds the rows it sees to the Score its query hands out, and asks for the resource by id:
   which fails unless the system declares it. */
static void bump_score(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    Score *score = (Score *)ecs_sched_ctx_resource_mut(ctx, g_score);
    while (ecs_sched_iter_next(&it)) ECS_SCHED_FIELD(&it, Score, 1)->value += it.count;
    if (!score) ecs_sched_ctx_fail(ctx, ECS_SCHED_ERR_ACCESS, "the resource is not declared");
}

static void a_system_s_resource_terms_are_resources_it_declares(void **state) {
    fixture f = make_fixture();
    (void)state;
    assert_int_equal(ecs_sched_resource_insert(f.w, f.score, &(Score){0}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(f.w, UPDATE,
                                          &(ecs_sched_system_desc){
                                              .name = "bump", .fn = bump_score,
                                              .query_text = "[in] Position, $Score"}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(f.w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(((const Score *)ecs_sched_resource_get(f.w, f.score))->value, 2);
    check_and_destroy(f.w);
}

static void systems_that_write_one_resource_through_queries_are_ambiguous(void **state) {
    fixture f = make_fixture();
    (void)state;
    assert_int_equal(ecs_sched_resource_insert(f.w, f.score, &(Score){0}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(f.w, UPDATE,
                                          &(ecs_sched_system_desc){
                                              .name = "first", .fn = bump_score,
                                              .query_text = "[in] Position, $Score"}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(f.w, UPDATE,
                                          &(ecs_sched_system_desc){
                                              .name = "second", .fn = noop,
                                              .writes = {f.score}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(f.w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_log.warnings, 1);
    assert_non_null(strstr(g_log.text, "first"));
    assert_non_null(strstr(g_log.text, "second"));
    assert_non_null(strstr(g_log.text, "Score"));
    check_and_destroy(f.w);
}

static void iterating_a_query_that_writes_a_resource_marks_it_changed(void **state) {
    fixture f = make_fixture();
    ecs_sched_query *reads, *writes;
    ecs_sched_condition changed;
    (void)state;
    assert_int_equal(ecs_sched_resource_insert(f.w, f.score, &(Score){0}), ECS_SCHED_OK);
    reads = ecs_sched_query_from_text(f.w, "[in] Position, [in] $Score");
    writes = ecs_sched_query_from_text(f.w, "[in] Position, $Score");
    changed = ecs_sched_condition_resource_changed(f.score);
    assert_int_equal(ecs_sched_add_system(f.w, UPDATE,
                                          &(ecs_sched_system_desc){
                                              .name = "on_change", .fn = record,
                                              .run_if = {&changed}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(f.w, UPDATE), ECS_SCHED_OK);   /* added: runs */
    assert_string_equal(g_trace, "on_change");
    (void)rows_sharing(reads, ecs_sched_resource_get(f.w, f.score));
    assert_int_equal(ecs_sched_run_schedule(f.w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_trace, "on_change");
    (void)rows_sharing(writes, ecs_sched_resource_get(f.w, f.score));
    assert_int_equal(ecs_sched_run_schedule(f.w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_trace, "on_change on_change");
    check_and_destroy(f.w);
}

static void a_fixed_source_in_a_query_that_lists_its_rows_is_refused(void **state) {
    fixture f = make_fixture();
    (void)state;
    assert_null(ecs_sched_query_create(
        f.w, &(ecs_sched_query_desc){.terms = {ecs_sched_from_parent(f.position),
                                               ecs_sched_from_entity(f.config, f.game)}}));
    assert_int_equal(ecs_sched_last_result(f.w), ECS_SCHED_ERR_INVALID_QUERY);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "reads 'Config' from an entity"));
    check_and_destroy(f.w);
}

static void sources_are_written_as_text_a_path_before_a_colon_and_a_dollar(void **state) {
    fixture f = make_fixture();
    ecs_sched_query_desc d;
    ecs_sched_query *q;
    char text[128];
    (void)state;
    assert_int_equal(ecs_sched_query_parse(f.w, "Position, Game:Config, [in] $Score, $Velocity", &d),
                     ECS_SCHED_OK);
    assert_int_equal(d.terms[1].kind, ECS_SCHED_TERM_FROM_ENTITY);
    assert_true(d.terms[1].target == f.game);
    assert_int_equal(d.terms[1].id, f.config);
    assert_int_equal(d.terms[2].kind, ECS_SCHED_TERM_RESOURCE);
    assert_int_equal(d.terms[3].kind, ECS_SCHED_TERM_RESOURCE_WRITE);
    q = ecs_sched_query_create(f.w, &d);
    assert_non_null(q);
    ecs_sched_query_text(q, text, (int32_t)sizeof text);
    assert_string_equal(text, "Position, Game:Config, [in] $Score, $Velocity");
    assert_int_equal(ecs_sched_query_parse(f.w, "Position, ?Game:Config", &d), ECS_SCHED_ERR_QUERY_SYNTAX);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "cannot be optional"));
    assert_int_equal(ecs_sched_query_parse(f.w, "Position, !$Score", &d), ECS_SCHED_ERR_QUERY_SYNTAX);
    assert_int_equal(ecs_sched_query_parse(f.w, "Position, :Config", &d), ECS_SCHED_ERR_QUERY_SYNTAX);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "a source was expected before the ':'"));
    check_and_destroy(f.w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_term_from_an_entity_hands_its_value_to_every_row),
        cmocka_unit_test(while_the_entity_lacks_the_component_the_query_hands_out_nothing),
        cmocka_unit_test(a_dead_source_is_refused_when_the_query_is_made),
        cmocka_unit_test(one_component_may_come_from_the_row_and_from_an_entity),
        cmocka_unit_test(a_resource_term_hands_out_the_resource_while_it_exists),
        cmocka_unit_test(a_resource_term_is_no_component_access_of_the_query),
        cmocka_unit_test(a_system_s_resource_terms_are_resources_it_declares),
        cmocka_unit_test(systems_that_write_one_resource_through_queries_are_ambiguous),
        cmocka_unit_test(iterating_a_query_that_writes_a_resource_marks_it_changed),
        cmocka_unit_test(a_fixed_source_in_a_query_that_lists_its_rows_is_refused),
        cmocka_unit_test(sources_are_written_as_text_a_path_before_a_colon_and_a_dollar),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
