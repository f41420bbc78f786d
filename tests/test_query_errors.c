/* What ecs_sched_query_create, _order_by and _group_by refuse: each refusal returns NULL (or
   the code), records a message that names the term and the component at fault, and leaves the
   world as it was. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecs_sched.h"

#include <cmocka.h>

#include "world_fixture.h"

typedef struct Burning {
    float heat;
} Burning;

/* setup_world's world, the sparse component Burning and one entity with Position. */
typedef struct query_setup {
    world_setup base;
    ecs_sched_id burning;
    ecs_sched_entity mover;
} query_setup;

static void setup_queries(query_setup *s) {
    Position p = {1, 2};
    setup_world(&s->base);
    s->burning = ECS_SCHED_SPARSE_COMPONENT(s->base.world, Burning);
    assert_true(s->burning != 0);
    s->mover = SPAWN(s->base.world, {s->base.position, &p});
}

/* The last call failed with `code` and its message names each of the words given. */
static void assert_refused(query_setup *s, ecs_sched_result code, const char *word1,
                           const char *word2) {
    ecs_sched_world *w = s->base.world;
    assert_failed_with(w, &s->base.log, code);
    if (word1) assert_contains(ecs_sched_last_error(w), word1);
    if (word2) assert_contains(ecs_sched_last_error(w), word2);
    ecs_sched_clear_error(w);
}

static void finish(query_setup *s) {
    assert_int_equal(ecs_sched_entity_count(s->base.world), 1);
    check_and_destroy(s->base.world);
}

static int by_health(ecs_sched_entity a, const void *value_a, ecs_sched_entity b,
                     const void *value_b) {
    (void)a;
    (void)b;
    return ((const Health *)value_a)->hp - ((const Health *)value_b)->hp;
}

/* ---- terms ---- */

static void a_term_of_an_unknown_kind_is_an_invalid_argument_naming_its_kind(void **state) {
    query_setup s;
    ecs_sched_term odd;
    (void)state;
    setup_queries(&s);
    odd = ecs_sched_read(s.base.velocity);
    odd.kind = (ecs_sched_term_kind)99;
    assert_null(QUERY(s.base.world, ecs_sched_read(s.base.position), odd));
    assert_refused(&s, ECS_SCHED_ERR_INVALID_ARGUMENT, "Velocity", "unknown kind 99");
    finish(&s);
}

static void a_target_on_a_plain_read_term_is_refused(void **state) {
    query_setup s;
    ecs_sched_term aimed;
    (void)state;
    setup_queries(&s);
    aimed = ecs_sched_read(s.base.velocity);
    aimed.target = s.mover;
    assert_null(QUERY(s.base.world, ecs_sched_read(s.base.position), aimed));
    assert_refused(&s, ECS_SCHED_ERR_INVALID_QUERY, "term 1 ('Velocity') has a target", NULL);
    finish(&s);
}

static void a_term_of_every_kind_must_use_the_wildcard(void **state) {
    query_setup s;
    (void)state;
    setup_queries(&s);
    assert_null(QUERY(s.base.world, ecs_sched_read(s.base.position),
                      ecs_sched_each_kind(s.base.velocity, s.mover)));
    assert_refused(&s, ECS_SCHED_ERR_INVALID_QUERY, "term 1", "ecs_sched_wildcard");
    finish(&s);
}

static void a_term_of_every_kind_with_a_despawned_target_is_stale(void **state) {
    query_setup s;
    ecs_sched_entity gone;
    ecs_sched_id wildcard;
    (void)state;
    setup_queries(&s);
    wildcard = ecs_sched_wildcard(s.base.world);
    gone = ecs_sched_spawn(s.base.world);
    assert_int_equal(ecs_sched_despawn(s.base.world, gone), ECS_SCHED_OK);
    assert_null(QUERY(s.base.world, ecs_sched_read(s.base.position),
                      ecs_sched_each_kind(wildcard, gone)));
    assert_refused(&s, ECS_SCHED_ERR_STALE_ENTITY, "target of a term of every kind",
                   "was despawned");
    finish(&s);
}

static void two_cascade_terms_are_refused_a_query_has_one_order(void **state) {
    query_setup s;
    ecs_sched_relation_desc d;
    ecs_sched_id owned_by;
    (void)state;
    setup_queries(&s);
    memset(&d, 0, sizeof d);
    d.name = "OwnedBy";
    d.exclusive = true;
    d.acyclic = true;
    owned_by = ecs_sched_relation_register(s.base.world, &d);
    assert_true(owned_by != 0);
    assert_null(QUERY(s.base.world, ecs_sched_read(s.base.position),
                      ecs_sched_cascade(ecs_sched_child_of(s.base.world)),
                      ecs_sched_cascade(owned_by)));
    assert_refused(&s, ECS_SCHED_ERR_INVALID_QUERY, "terms 1 and 2 both cascade", NULL);
    finish(&s);
}

static void an_inherited_term_beside_a_sparse_term_is_refused(void **state) {
    query_setup s;
    (void)state;
    setup_queries(&s);
    assert_null(QUERY(s.base.world, ecs_sched_read(s.burning), ecs_sched_inherited(s.base.health)));
    assert_refused(&s, ECS_SCHED_ERR_INVALID_QUERY, "reads 'Health' inherited",
                   "has a sparse term");
    finish(&s);
}

static void an_inherited_term_beside_a_read_from_the_parent_is_refused(void **state) {
    query_setup s;
    (void)state;
    setup_queries(&s);
    assert_null(QUERY(s.base.world, ecs_sched_from_parent(s.base.position),
                      ecs_sched_inherited(s.base.health)));
    assert_refused(&s, ECS_SCHED_ERR_INVALID_QUERY, "reads 'Health' inherited",
                   "reads through the hierarchy");
    finish(&s);
}

static void an_alternative_to_a_sparse_term_is_refused_naming_it(void **state) {
    query_setup s;
    (void)state;
    setup_queries(&s);
    assert_null(QUERY(s.base.world, ecs_sched_read(s.burning), ecs_sched_or_read(s.base.health)));
    assert_refused(&s, ECS_SCHED_ERR_INVALID_QUERY, "terms 0 and 1 are alternatives",
                   "'Burning' is sparse");
    assert_null(QUERY(s.base.world, ecs_sched_read(s.base.health), ecs_sched_or_read(s.burning)));
    assert_refused(&s, ECS_SCHED_ERR_INVALID_QUERY, "'Burning' is sparse", NULL);
    finish(&s);
}

static void a_sparse_component_cannot_be_read_from_the_parent(void **state) {
    query_setup s;
    (void)state;
    setup_queries(&s);
    assert_null(QUERY(s.base.world, ecs_sched_read(s.base.position),
                      ecs_sched_from_parent(s.burning)));
    assert_refused(&s, ECS_SCHED_ERR_INVALID_QUERY, "read from the parent", "'Burning' is sparse");
    finish(&s);
}

/* ---- order_by, group_by ---- */

static void order_by_an_unregistered_component_is_refused(void **state) {
    query_setup s;
    ecs_sched_query *q;
    (void)state;
    setup_queries(&s);
    q = QUERY(s.base.world, ecs_sched_read(s.base.position));
    assert_non_null(q);
    assert_int_equal(ecs_sched_query_order_by(q, 4000, by_health), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_refused(&s, ECS_SCHED_ERR_UNKNOWN_COMPONENT, "query_order_by", "4000");
    assert_int_equal(ecs_sched_query_count(q), 1);
    ecs_sched_query_destroy(q);
    finish(&s);
}

static void order_by_a_sparse_component_is_refused(void **state) {
    query_setup s;
    ecs_sched_query *q;
    (void)state;
    setup_queries(&s);
    q = QUERY(s.base.world, ecs_sched_read(s.base.position), ecs_sched_read(s.burning));
    assert_non_null(q);
    assert_int_equal(ecs_sched_query_order_by(q, s.burning, by_health),
                     ECS_SCHED_ERR_INVALID_QUERY);
    assert_refused(&s, ECS_SCHED_ERR_INVALID_QUERY, "'Burning'", NULL);
    ecs_sched_query_destroy(q);
    finish(&s);
}

static void group_by_a_kind_that_is_not_exclusive_is_refused(void **state) {
    query_setup s;
    ecs_sched_query *q;
    ecs_sched_relation_desc d;
    ecs_sched_id likes;
    (void)state;
    setup_queries(&s);
    memset(&d, 0, sizeof d);
    d.name = "Likes";
    likes = ecs_sched_relation_register(s.base.world, &d);
    assert_true(likes != 0);
    q = QUERY(s.base.world, ecs_sched_read(s.base.position));
    assert_non_null(q);
    assert_int_equal(ecs_sched_query_group_by(q, likes), ECS_SCHED_ERR_INVALID_QUERY);
    assert_refused(&s, ECS_SCHED_ERR_INVALID_QUERY, "'Likes'", NULL);
    assert_int_equal(ecs_sched_query_group_by(q, ecs_sched_child_of(s.base.world)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_query_count(q), 1);
    ecs_sched_query_destroy(q);
    finish(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_term_of_an_unknown_kind_is_an_invalid_argument_naming_its_kind),
        cmocka_unit_test(a_target_on_a_plain_read_term_is_refused),
        cmocka_unit_test(a_term_of_every_kind_must_use_the_wildcard),
        cmocka_unit_test(a_term_of_every_kind_with_a_despawned_target_is_stale),
        cmocka_unit_test(two_cascade_terms_are_refused_a_query_has_one_order),
        cmocka_unit_test(an_inherited_term_beside_a_sparse_term_is_refused),
        cmocka_unit_test(an_inherited_term_beside_a_read_from_the_parent_is_refused),
        cmocka_unit_test(an_alternative_to_a_sparse_term_is_refused_naming_it),
        cmocka_unit_test(a_sparse_component_cannot_be_read_from_the_parent),
        cmocka_unit_test(order_by_an_unregistered_component_is_refused),
        cmocka_unit_test(order_by_a_sparse_component_is_refused),
        cmocka_unit_test(group_by_a_kind_that_is_not_exclusive_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
