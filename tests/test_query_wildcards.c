/* Each target of a relationship (flecs's "(Likes, *)"): an each-target term hands an entity
   out once for every target of the kind it has, the field telling the target and giving its
   payload. */
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

typedef struct { int amount; } Debt;

typedef struct fixture {
    ecs_sched_world *w;
    ecs_sched_id position, likes, owes;
    ecs_sched_entity alice, bob, carol, dave;
} fixture;

static ecs_sched_entity named_spawn(ecs_sched_world *w, ecs_sched_id position, const char *name) {
    ecs_sched_entity e = SPAWN(w, {position, &(Position){0, 0}});
    assert_int_equal(ecs_sched_set_name(w, e, name), ECS_SCHED_OK);
    return e;
}

static fixture make_fixture(void) {
    fixture f;
    ecs_sched_relation_desc owes = {0};
    f.w = new_world();
    f.position = ECS_SCHED_COMPONENT(f.w, Position);
    f.likes = ecs_sched_relation_register(f.w, &(ecs_sched_relation_desc){.name = "Likes"});
    owes.name = "Owes";
    owes.payload_size = sizeof(Debt);
    f.owes = ecs_sched_relation_register(f.w, &owes);
    f.alice = named_spawn(f.w, f.position, "alice");
    f.bob = named_spawn(f.w, f.position, "bob");
    f.carol = named_spawn(f.w, f.position, "carol");
    f.dave = named_spawn(f.w, f.position, "dave");
    /* alice likes bob and carol, bob likes carol, carol likes nobody, dave likes alice, bob
       and carol */
    assert_int_equal(ecs_sched_relate(f.w, f.alice, f.likes, f.bob, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(f.w, f.alice, f.likes, f.carol, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(f.w, f.bob, f.likes, f.carol, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(f.w, f.dave, f.likes, f.alice, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(f.w, f.dave, f.likes, f.bob, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(f.w, f.dave, f.likes, f.carol, NULL), ECS_SCHED_OK);
    return f;
}

/* "source>target" for each row handed out, sorted, joined by spaces. */
static void pairs_of(ecs_sched_world *w, ecs_sched_query *q, int32_t term, char *out, size_t size) {
    char items[32][32];
    int32_t n = 0, i, j;
    ecs_sched_iter it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        for (i = 0; i < it.count; i++) {
            assert_true(n < 32);
            snprintf(items[n++], sizeof items[0], "%s>%s", ecs_sched_name(w, it.entities[i]),
                     ecs_sched_name(w, ecs_sched_field_target(&it, term, i)));
        }
    }
    for (i = 1; i < n; i++) {   /* insertion sort: the order of targets is not the point */
        char key[32];
        memcpy(key, items[i], sizeof key);
        for (j = i - 1; j >= 0 && strcmp(items[j], key) > 0; j--) memcpy(items[j + 1], items[j], sizeof key);
        memcpy(items[j + 1], key, sizeof key);
    }
    out[0] = '\0';
    for (i = 0; i < n; i++) {
        size_t at = strlen(out);
        snprintf(out + at, size - at, "%s%s", i ? " " : "", items[i]);
    }
}

static void an_entity_is_handed_out_once_per_target(void **state) {
    fixture f = make_fixture();
    ecs_sched_query *q = ecs_sched_query_create(
        f.w, &(ecs_sched_query_desc){.terms = {ecs_sched_read(f.position),
                                               ecs_sched_each_target(f.likes)}});
    char seen[256];
    (void)state;
    assert_non_null(q);
    pairs_of(f.w, q, 1, seen, sizeof seen);
    assert_string_equal(seen, "alice>bob alice>carol bob>carol dave>alice dave>bob dave>carol");
    assert_int_equal(ecs_sched_query_count(q), 6);
    check_and_destroy(f.w);
}

static void the_rows_follow_relationships_made_and_taken_away(void **state) {
    fixture f = make_fixture();
    ecs_sched_query *q = ecs_sched_query_create(
        f.w, &(ecs_sched_query_desc){.terms = {ecs_sched_each_target(f.likes)}});
    char seen[256];
    (void)state;
    assert_int_equal(ecs_sched_unrelate(f.w, f.dave, f.likes, f.bob), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_unrelate(f.w, f.alice, f.likes, f.bob), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(f.w, f.carol, f.likes, f.dave, NULL), ECS_SCHED_OK);
    pairs_of(f.w, q, 0, seen, sizeof seen);
    assert_string_equal(seen, "alice>carol bob>carol carol>dave dave>alice dave>carol");
    assert_int_equal(ecs_sched_despawn(f.w, f.carol), ECS_SCHED_OK);
    pairs_of(f.w, q, 0, seen, sizeof seen);
    assert_string_equal(seen, "dave>alice");
    check_and_destroy(f.w);
}

static void each_row_gives_its_relationship_s_payload(void **state) {
    fixture f = make_fixture();
    ecs_sched_query *q;
    ecs_sched_iter it;
    int total = 0, rows = 0;
    (void)state;
    assert_int_equal(ecs_sched_relate(f.w, f.alice, f.owes, f.bob, &(Debt){10}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(f.w, f.alice, f.owes, f.carol, &(Debt){5}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(f.w, f.dave, f.owes, f.bob, &(Debt){1}), ECS_SCHED_OK);
    q = ecs_sched_query_create(f.w, &(ecs_sched_query_desc){.terms = {ecs_sched_each_target(f.owes)}});
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        int32_t i;
        for (i = 0; i < it.count; i++) {
            const Debt *d = (const Debt *)ecs_sched_field_payload(&it, 0, i);
            ecs_sched_entity target = ecs_sched_field_target(&it, 0, i);
            assert_int_equal(d->amount, ((const Debt *)ecs_sched_relation_payload(
                                            f.w, it.entities[i], f.owes, target))->amount);
            total += d->amount;
            rows++;
        }
    }
    assert_int_equal(rows, 3);
    assert_int_equal(total, 16);
    check_and_destroy(f.w);
}

static void a_kind_without_a_payload_gives_none(void **state) {
    fixture f = make_fixture();
    ecs_sched_query *q = ecs_sched_query_create(
        f.w, &(ecs_sched_query_desc){.terms = {ecs_sched_each_target(f.likes)}});
    ecs_sched_iter it = ecs_sched_query_iter(q);
    (void)state;
    assert_true(ecs_sched_iter_next(&it));
    assert_null(ecs_sched_field_payload(&it, 0, 0));
    check_and_destroy(f.w);
}

static void iteration_by_rows_hands_out_the_same_pairs(void **state) {
    fixture f = make_fixture();
    ecs_sched_query *q = ecs_sched_query_create(
        f.w, &(ecs_sched_query_desc){.terms = {ecs_sched_read(f.position),
                                               ecs_sched_each_target(f.likes)}});
    ecs_sched_iter it = ecs_sched_query_iter(q);
    int32_t rows = 0, to_carol = 0;
    (void)state;
    while (ecs_sched_iter_next_rows(&it)) {
        int32_t i;
        for (i = 0; i < it.count; i++) {
            rows++;
            to_carol += ecs_sched_field_target(&it, 1, i) == f.carol;
        }
    }
    assert_int_equal(rows, 6);
    assert_int_equal(to_carol, 3);
    check_and_destroy(f.w);
}

static void a_query_with_two_each_target_terms_is_refused(void **state) {
    fixture f = make_fixture();
    (void)state;
    assert_null(ecs_sched_query_create(
        f.w, &(ecs_sched_query_desc){.terms = {ecs_sched_each_target(f.likes),
                                               ecs_sched_each_target(f.owes)}}));
    assert_int_equal(ecs_sched_last_result(f.w), ECS_SCHED_ERR_INVALID_QUERY);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "terms 0 and 1 each ask for every target"));
    assert_null(ecs_sched_query_create(
        f.w, &(ecs_sched_query_desc){.terms = {ecs_sched_each_target(f.position)}}));
    assert_int_equal(ecs_sched_last_result(f.w), ECS_SCHED_ERR_INVALID_QUERY);
    check_and_destroy(f.w);
}

static int by_x(ecs_sched_entity a, const void *pa, ecs_sched_entity b, const void *pb) {
    (void)a;
    (void)b;
    return (((const Position *)pa)->x > ((const Position *)pb)->x) -
           (((const Position *)pa)->x < ((const Position *)pb)->x);
}

static void sorting_or_cascading_a_query_of_each_target_is_refused(void **state) {
    fixture f = make_fixture();
    ecs_sched_query *q = ecs_sched_query_create(
        f.w, &(ecs_sched_query_desc){.terms = {ecs_sched_read(f.position),
                                               ecs_sched_each_target(f.likes)}});
    (void)state;
    assert_int_equal(ecs_sched_query_order_by(q, f.position, by_x), ECS_SCHED_ERR_INVALID_QUERY);
    assert_non_null(strstr(ecs_sched_last_error(f.w), "hands out each target of 'Likes'"));
    assert_null(ecs_sched_query_create(
        f.w, &(ecs_sched_query_desc){.terms = {ecs_sched_from_parent(f.position),
                                               ecs_sched_each_target(f.likes)}}));
    assert_non_null(strstr(ecs_sched_last_error(f.w), "reads through the hierarchy"));
    check_and_destroy(f.w);
}

static void a_pair_with_a_star_is_each_target_as_text(void **state) {
    fixture f = make_fixture();
    ecs_sched_query_desc d;
    ecs_sched_query *q;
    char text[128];
    (void)state;
    assert_int_equal(ecs_sched_query_parse(f.w, "[in] Position, (Likes, *), !Owes", &d), ECS_SCHED_OK);
    assert_int_equal(d.terms[1].kind, ECS_SCHED_TERM_EACH_TARGET);
    assert_int_equal(d.terms[1].id, f.likes);
    q = ecs_sched_query_create(f.w, &d);
    assert_non_null(q);
    ecs_sched_query_text(q, text, (int32_t)sizeof text);
    assert_string_equal(text, "[in] Position, (Likes, *), !Owes");
    assert_int_equal(ecs_sched_query_parse(f.w, "Likes, ?Owes, !(Owes, *)", &d), ECS_SCHED_OK);
    assert_int_equal(d.terms[0].kind, ECS_SCHED_TERM_READ);
    assert_int_equal(d.terms[1].kind, ECS_SCHED_TERM_OPTIONAL_READ);
    assert_int_equal(d.terms[2].kind, ECS_SCHED_TERM_WITHOUT);
    assert_int_equal(ecs_sched_query_parse(f.w, "[out] (Owes, *)", &d), ECS_SCHED_ERR_QUERY_SYNTAX);
    check_and_destroy(f.w);
}

/* ---- every kind: "(*, target)" ---- */

static void an_entity_is_handed_out_once_per_kind_relating_it_to_the_target(void **state) {
    fixture f = make_fixture();
    ecs_sched_query *q;
    ecs_sched_iter it;
    int32_t likes = 0, owes = 0, rows = 0, debt = 0;
    (void)state;
    assert_int_equal(ecs_sched_relate(f.w, f.alice, f.owes, f.carol, &(Debt){7}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(f.w, f.dave, f.owes, f.bob, &(Debt){1}), ECS_SCHED_OK);
    q = ecs_sched_query_create(f.w, &(ecs_sched_query_desc){.terms = {
        ecs_sched_read(f.position), ecs_sched_each_kind(ecs_sched_wildcard(f.w), f.carol)}});
    assert_non_null(q);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        int32_t i;
        for (i = 0; i < it.count; i++) {
            ecs_sched_id kind = ecs_sched_field_kind(&it, 1, i);
            assert_true(ecs_sched_field_target(&it, 1, i) == f.carol);
            rows++;
            likes += kind == f.likes;
            if (kind == f.owes) {
                owes++;
                assert_true(it.entities[i] == f.alice);
                debt += ((const Debt *)ecs_sched_field_payload(&it, 1, i))->amount;
            }
        }
    }
    assert_int_equal(likes, 3);   /* alice, bob, dave like carol */
    assert_int_equal(owes, 1);
    assert_int_equal(debt, 7);
    assert_int_equal(rows, 4);
    assert_int_equal(ecs_sched_query_count(q), 4);
    check_and_destroy(f.w);
}

static void every_kind_is_written_as_a_star_before_the_target(void **state) {
    fixture f = make_fixture();
    ecs_sched_query *q;
    char text[64];
    (void)state;
    q = ecs_sched_query_from_text(f.w, "[in] Position, (*, carol)");
    assert_non_null(q);
    ecs_sched_query_text(q, text, (int32_t)sizeof text);
    assert_string_equal(text, "[in] Position, (*, carol)");
    assert_int_equal(ecs_sched_query_count(q), 3);
    assert_null(ecs_sched_query_from_text(f.w, "(*, *)"));
    assert_null(ecs_sched_query_from_text(f.w, "!(*, carol)"));
    check_and_destroy(f.w);
}

static void a_payload_writer_and_a_reader_of_every_kind_are_ambiguous(void **state) {
    fixture f = make_fixture();
    (void)state;
    assert_int_equal(ecs_sched_add_system(f.w, UPDATE, &(ecs_sched_system_desc){
                         .name = "pay", .fn = noop,
                         .queries = {{{ecs_sched_write(f.owes)}}}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(f.w, UPDATE, &(ecs_sched_system_desc){
                         .name = "audit", .fn = noop, .query_text = "(*, bob)"}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(f.w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_log.warnings, 1);
    assert_non_null(strstr(g_log.text, "audit"));
    check_and_destroy(f.w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(an_entity_is_handed_out_once_per_target),
        cmocka_unit_test(the_rows_follow_relationships_made_and_taken_away),
        cmocka_unit_test(each_row_gives_its_relationship_s_payload),
        cmocka_unit_test(a_kind_without_a_payload_gives_none),
        cmocka_unit_test(iteration_by_rows_hands_out_the_same_pairs),
        cmocka_unit_test(a_query_with_two_each_target_terms_is_refused),
        cmocka_unit_test(sorting_or_cascading_a_query_of_each_target_is_refused),
        cmocka_unit_test(a_pair_with_a_star_is_each_target_as_text),
        cmocka_unit_test(an_entity_is_handed_out_once_per_kind_relating_it_to_the_target),
        cmocka_unit_test(every_kind_is_written_as_a_star_before_the_target),
        cmocka_unit_test(a_payload_writer_and_a_reader_of_every_kind_are_ambiguous),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
