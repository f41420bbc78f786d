/* Alternatives (flecs's OR operator): a required term followed by ecs_sched_or_read /
   ecs_sched_or_write terms makes a chain that an entity matches when it has any of the chain's
   components; of each chain only the field of the first component the entity has is set. */
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

typedef struct { float value; } Speed;

typedef struct fixture {
    ecs_sched_world *w;
    ecs_sched_id position, velocity, speed, frozen, health;
    ecs_sched_entity moving, fast, both, still;
} fixture;

static fixture make_fixture(void) {
    fixture f;
    f.w = new_world();
    f.position = ECS_SCHED_COMPONENT(f.w, Position);
    f.velocity = ECS_SCHED_COMPONENT(f.w, Velocity);
    f.speed = ECS_SCHED_COMPONENT(f.w, Speed);
    f.frozen = ecs_sched_component_register_type(f.w, "Frozen", 0, 0);
    f.health = ecs_sched_tracked_component_register_type(f.w, "Health", sizeof(Health), sizeof(int));
    f.moving = SPAWN(f.w, {f.position, &(Position){1, 0}}, {f.velocity, &(Velocity){1, 0}});
    f.fast = SPAWN(f.w, {f.position, &(Position){2, 0}}, {f.speed, &(Speed){5}});
    f.both = SPAWN(f.w, {f.position, &(Position){3, 0}}, {f.velocity, &(Velocity){3, 0}},
                   {f.speed, &(Speed){7}});
    f.still = SPAWN(f.w, {f.position, &(Position){4, 0}});
    return f;
}

/* Per entity handed out: 'v' when field 1 (Velocity) is set, 's' when field 2 (Speed) is,
   in entity order of the fixture. */
static void which_fields(ecs_sched_query *q, const fixture *f, char out[4]) {
    ecs_sched_iter it = ecs_sched_query_iter(q);
    memset(out, '-', 4);
    while (ecs_sched_iter_next(&it)) {
        int32_t i;
        assert_false(it.fields[1] && it.fields[2]);   /* one field of the chain at most */
        for (i = 0; i < it.count; i++) {
            int slot = it.entities[i] == f->moving ? 0 : it.entities[i] == f->fast ? 1
                       : it.entities[i] == f->both ? 2 : 3;
            out[slot] = it.fields[1] ? 'v' : it.fields[2] ? 's' : '?';
        }
    }
}

static void a_chain_matches_entities_with_any_of_its_components(void **state) {
    fixture f = make_fixture();
    ecs_sched_query *q = ecs_sched_query_create(
        f.w, &(ecs_sched_query_desc){.terms = {ecs_sched_write(f.position),
                                               ecs_sched_read(f.velocity),
                                               ecs_sched_or_read(f.speed)}});
    char seen[4];
    (void)state;
    assert_non_null(q);
    assert_int_equal(ecs_sched_query_count(q), 3);
    which_fields(q, &f, seen);
    assert_memory_equal(seen, "vsv-", 4);   /* the first the entity has: Velocity for both */
    check_and_destroy(f.w);
}

static void the_field_of_the_chosen_component_points_at_its_value(void **state) {
    fixture f = make_fixture();
    ecs_sched_query *q = ecs_sched_query_create(
        f.w, &(ecs_sched_query_desc){.terms = {ecs_sched_read(f.speed),
                                               ecs_sched_or_read(f.velocity)}});
    ecs_sched_iter it = ecs_sched_query_iter(q);
    float total = 0;
    (void)state;
    while (ecs_sched_iter_next(&it)) {
        int32_t i;
        for (i = 0; i < it.count; i++) {
            total += it.fields[0] ? ECS_SCHED_FIELD(&it, Speed, 0)[i].value
                                  : ECS_SCHED_FIELD(&it, Velocity, 1)[i].x;
        }
    }
    assert_true(total == 5 + 7 + 1);   /* fast 5, both 7 (Speed first), moving 1 */
    check_and_destroy(f.w);
}

static void a_table_made_later_is_matched_by_the_chain(void **state) {
    fixture f = make_fixture();
    ecs_sched_query *q = ecs_sched_query_create(
        f.w, &(ecs_sched_query_desc){.terms = {ecs_sched_read(f.velocity),
                                               ecs_sched_or_read(f.frozen)}});
    (void)state;
    assert_int_equal(ecs_sched_query_count(q), 2);
    (void)SPAWN(f.w, {f.frozen, NULL});
    assert_int_equal(ecs_sched_query_count(q), 3);
    check_and_destroy(f.w);
}

static void two_chains_in_one_query_are_each_matched(void **state) {
    fixture f = make_fixture();
    ecs_sched_query *q = ecs_sched_query_create(
        f.w, &(ecs_sched_query_desc){.terms = {ecs_sched_read(f.velocity),
                                               ecs_sched_or_read(f.speed),
                                               ecs_sched_read(f.frozen),
                                               ecs_sched_or_read(f.health)}});
    (void)state;
    assert_int_equal(ecs_sched_query_count(q), 0);
    assert_int_equal(ecs_sched_insert(f.w, f.fast, f.health, &(Health){1}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(f.w, f.still, f.frozen, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_query_count(q), 1);   /* fast; still lacks Velocity and Speed */
    check_and_destroy(f.w);
}

static void an_alternative_must_follow_a_required_term_read_or_written(void **state) {
    fixture f = make_fixture();
    (void)state;
    assert_null(ecs_sched_query_create(f.w, &(ecs_sched_query_desc){.terms = {ecs_sched_or_read(f.speed)}}));
    assert_non_null(strstr(ecs_sched_last_error(f.w), "it is the first term"));
    assert_null(ecs_sched_query_create(
        f.w, &(ecs_sched_query_desc){.terms = {ecs_sched_optional_read(f.velocity),
                                               ecs_sched_or_read(f.speed)}}));
    assert_non_null(strstr(ecs_sched_last_error(f.w), "the term before it is of another kind"));
    assert_int_equal(ecs_sched_last_result(f.w), ECS_SCHED_ERR_INVALID_QUERY);
    check_and_destroy(f.w);
}

static void a_chain_does_not_make_its_components_required_for_ambiguities(void **state) {
    fixture f = make_fixture();
    (void)state;
    /* writes Position on entities with Velocity or Speed; the other writes Position on
       entities without Velocity: an entity with Speed alone reaches both */
    assert_int_equal(ecs_sched_add_system(f.w, UPDATE,
                                          &(ecs_sched_system_desc){
                                              .name = "either", .fn = noop,
                                              .query_text = "Position, [in] Velocity || [in] Speed"}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(f.w, UPDATE,
                                          &(ecs_sched_system_desc){
                                              .name = "no_velocity", .fn = noop,
                                              .query_text = "Position, !Velocity"}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(f.w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_log.warnings, 1);
    assert_non_null(strstr(g_log.text, "either"));
    check_and_destroy(f.w);
}

static void a_written_alternative_marks_only_the_rows_it_hands_out_changed(void **state) {
    fixture f = make_fixture();
    ecs_sched_query *writes, *changed;
    ecs_sched_entity healthy;
    (void)state;
    healthy = SPAWN(f.w, {f.health, &(Health){1}}, {f.speed, &(Speed){1}});
    writes = ecs_sched_query_from_text(f.w, "[in] Speed || Health");
    changed = ecs_sched_query_from_text(f.w, "[changed] Health");
    assert_non_null(writes);
    (void)ecs_sched_query_count(changed);
    {
        ecs_sched_iter it = ecs_sched_query_iter(changed);
        while (ecs_sched_iter_next(&it)) {}
        it = ecs_sched_query_iter(writes);
        while (ecs_sched_iter_next(&it)) {}   /* Speed is chosen: Health is not handed out */
        it = ecs_sched_query_iter(changed);
        assert_false(ecs_sched_iter_next(&it));
    }
    assert_int_equal(ecs_sched_remove(f.w, healthy, f.speed), ECS_SCHED_OK);
    {
        ecs_sched_iter it = ecs_sched_query_iter(changed);
        while (ecs_sched_iter_next(&it)) {}
        it = ecs_sched_query_iter(writes);
        while (ecs_sched_iter_next(&it)) {}   /* now Health is chosen, written */
        it = ecs_sched_query_iter(changed);
        assert_true(ecs_sched_iter_next(&it));
        assert_true(it.entities[0] == healthy);
    }
    check_and_destroy(f.w);
}

static void alternatives_are_written_as_text_with_two_bars(void **state) {
    fixture f = make_fixture();
    ecs_sched_query_desc d;
    ecs_sched_query *q;
    char text[128];
    (void)state;
    assert_int_equal(ecs_sched_query_parse(f.w, "Position, [in] Velocity || Speed || Frozen", &d),
                     ECS_SCHED_OK);
    assert_int_equal(d.terms[1].kind, ECS_SCHED_TERM_READ);
    assert_int_equal(d.terms[2].kind, ECS_SCHED_TERM_OR_WRITE);
    assert_int_equal(d.terms[3].kind, ECS_SCHED_TERM_OR_READ);
    q = ecs_sched_query_create(f.w, &d);
    assert_non_null(q);
    ecs_sched_query_text(q, text, (int32_t)sizeof text);
    assert_string_equal(text, "Position, [in] Velocity || Speed || Frozen");
    assert_int_equal(ecs_sched_query_parse(f.w, "?Velocity || Speed", &d), ECS_SCHED_ERR_QUERY_SYNTAX);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "only a required term read or written"));
    assert_int_equal(ecs_sched_query_parse(f.w, "Velocity || !Speed", &d), ECS_SCHED_ERR_QUERY_SYNTAX);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "an alternative (after ||)"));
    check_and_destroy(f.w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_chain_matches_entities_with_any_of_its_components),
        cmocka_unit_test(the_field_of_the_chosen_component_points_at_its_value),
        cmocka_unit_test(a_table_made_later_is_matched_by_the_chain),
        cmocka_unit_test(two_chains_in_one_query_are_each_matched),
        cmocka_unit_test(an_alternative_must_follow_a_required_term_read_or_written),
        cmocka_unit_test(a_chain_does_not_make_its_components_required_for_ambiguities),
        cmocka_unit_test(a_written_alternative_marks_only_the_rows_it_hands_out_changed),
        cmocka_unit_test(alternatives_are_written_as_text_with_two_bars),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
