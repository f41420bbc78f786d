/* Sorted and grouped queries. order_by hands out the rows in the order of a compare function
   over a component the query has, across tables, stable for equal keys; group_by keeps the
   rows of one relationship target together. The list is sorted again only when the
   component's values or the tables changed; bad requests are refused naming the component. */
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

static int g_compares;

static int by_hp(ecs_sched_entity a, const void *va, ecs_sched_entity b, const void *vb) {
    int x = ((const Health *)va)->hp, y = ((const Health *)vb)->hp;
    (void)a;
    (void)b;
    g_compares++;
    return (x > y) - (x < y);
}

/* The hp values in the order a query hands them out, by runs and by index. */
static void hp_order(ecs_sched_query *q, int *out, int *n) {
    ecs_sched_iter it = ecs_sched_query_iter(q);
    int by_index[64], m = 0, i;
    *n = 0;
    while (ecs_sched_iter_next(&it)) {
        const Health *h = ECS_SCHED_FIELD(&it, const Health, 0);
        for (i = 0; i < it.count; i++) out[(*n)++] = h[i].hp;
    }
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next_rows(&it)) {
        const Health *h = ECS_SCHED_FIELD(&it, const Health, 0);
        for (i = 0; i < it.count; i++) by_index[m++] = h[it.rows[i]].hp;
    }
    assert_int_equal(m, *n);
    for (i = 0; i < m; i++) assert_int_equal(by_index[i], out[i]);
}

static void spawn_hp(ecs_sched_world *w, ecs_sched_id health, ecs_sched_id tag, int hp) {
    Health h;
    h.hp = hp;
    if (tag) {
        ecs_sched_id ids[2];
        const void *values[2];
        ids[0] = health;
        ids[1] = tag;
        values[0] = &h;
        values[1] = NULL;
        assert_true(ecs_sched_spawn_with(w, 2, ids, values) != ECS_SCHED_NULL_ENTITY);
    } else {
        const void *values[1];
        values[0] = &h;
        assert_true(ecs_sched_spawn_with(w, 1, &health, values) != ECS_SCHED_NULL_ENTITY);
    }
}

static void a_sorted_query_hands_out_rows_in_order_across_tables(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id health = ECS_SCHED_COMPONENT(w, Health), boss = ECS_SCHED_TAG(w, Boss);
    int values[] = {50, 10, 40, 30, 20, 60}, got[16], n, i;
    ecs_sched_query *q;
    (void)state;
    for (i = 0; i < 6; i++) spawn_hp(w, health, i % 2 ? boss : 0, values[i]);
    q = QUERY(w, ecs_sched_read(health));
    assert_int_equal(ecs_sched_query_order_by(q, health, by_hp), ECS_SCHED_OK);
    hp_order(q, got, &n);
    assert_int_equal(n, 6);
    for (i = 0; i < 6; i++) assert_int_equal(got[i], 10 * (i + 1));
    assert_int_equal(ecs_sched_query_count(q), 6);
    check_and_destroy(w);
}

static void equal_keys_keep_table_order(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id health = ECS_SCHED_COMPONENT(w, Health), score = ECS_SCHED_COMPONENT(w, Score);
    ecs_sched_query *q;
    ecs_sched_iter it;
    int i, seen = 0;
    (void)state;
    for (i = 0; i < 5; i++) {
        Health h;
        Score s;
        ecs_sched_id ids[2];
        const void *values[2];
        h.hp = i % 2;   /* 0 1 0 1 0 */
        s.value = i;
        ids[0] = health;
        ids[1] = score;
        values[0] = &h;
        values[1] = &s;
        assert_true(ecs_sched_spawn_with(w, 2, ids, values) != ECS_SCHED_NULL_ENTITY);
    }
    q = QUERY(w, ecs_sched_read(health), ecs_sched_read(score));
    assert_int_equal(ecs_sched_query_order_by(q, health, by_hp), ECS_SCHED_OK);
    it = ecs_sched_query_iter(q);
    {
        int expected[] = {0, 2, 4, 1, 3};
        while (ecs_sched_iter_next(&it)) {
            const Score *s = ECS_SCHED_FIELD(&it, const Score, 1);
            for (i = 0; i < it.count; i++) assert_int_equal(s[i].value, expected[seen++]);
        }
    }
    assert_int_equal(seen, 5);
    check_and_destroy(w);
}

static void an_unchanged_sorted_query_is_not_sorted_again(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id health = ECS_SCHED_TRACKED_COMPONENT(w, Health);
    ecs_sched_query *q;
    int got[64], n, i, after_first;
    (void)state;
    for (i = 0; i < 32; i++) spawn_hp(w, health, 0, (i * 7) % 32);
    q = QUERY(w, ecs_sched_read(health));
    assert_int_equal(ecs_sched_query_order_by(q, health, by_hp), ECS_SCHED_OK);
    g_compares = 0;
    hp_order(q, got, &n);
    after_first = g_compares;
    assert_true(after_first > 0);
    hp_order(q, got, &n);
    hp_order(q, got, &n);
    assert_int_equal(g_compares, after_first);   /* nothing changed: no compare at all */
    check_and_destroy(w);
}

static void a_changed_key_or_a_new_entity_sorts_again(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id health = ECS_SCHED_TRACKED_COMPONENT(w, Health);
    ecs_sched_entity first;
    ecs_sched_query *q;
    Health *h;
    int got[64], n, i;
    (void)state;
    for (i = 0; i < 4; i++) spawn_hp(w, health, 0, 10 * (i + 1));   /* 10 20 30 40 */
    q = QUERY(w, ecs_sched_read(health));
    assert_int_equal(ecs_sched_query_order_by(q, health, by_hp), ECS_SCHED_OK);
    hp_order(q, got, &n);
    first = 0;
    {
        ecs_sched_iter it = ecs_sched_query_iter(q);
        assert_true(ecs_sched_iter_next(&it));
        first = it.entities[0];
    }
    h = (Health *)ecs_sched_get_mut(w, first, health);   /* 10 becomes 35 */
    h->hp = 35;
    hp_order(q, got, &n);
    assert_int_equal(got[0], 20);
    assert_int_equal(got[2], 35);
    assert_int_equal(got[3], 40);
    spawn_hp(w, health, 0, 5);
    hp_order(q, got, &n);
    assert_int_equal(n, 5);
    assert_int_equal(got[0], 5);
    check_and_destroy(w);
}

static void an_untracked_key_is_sorted_at_every_iteration(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id health = ECS_SCHED_COMPONENT(w, Health);
    ecs_sched_query *q;
    ecs_sched_iter it;
    int got[8], n;
    (void)state;
    spawn_hp(w, health, 0, 1);
    spawn_hp(w, health, 0, 2);
    q = QUERY(w, ecs_sched_write(health));
    assert_int_equal(ecs_sched_query_order_by(q, health, by_hp), ECS_SCHED_OK);
    it = ecs_sched_query_iter(q);   /* the first becomes the largest */
    assert_true(ecs_sched_iter_next(&it));
    ECS_SCHED_FIELD(&it, Health, 0)[0].hp = 9;
    hp_order(q, got, &n);
    assert_int_equal(got[0], 2);
    assert_int_equal(got[1], 9);
    check_and_destroy(w);
}

static void group_by_keeps_the_children_of_one_parent_together(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id health = ECS_SCHED_COMPONENT(w, Health);
    ecs_sched_entity parents[3], kids[9];
    ecs_sched_query *q;
    ecs_sched_iter it;
    int i, seen = 0, last_group = -1, groups_done[4] = {0, 0, 0, 0};
    (void)state;
    for (i = 0; i < 3; i++) parents[i] = ecs_sched_spawn(w);
    for (i = 0; i < 9; i++) {
        Health h;
        const void *values[1];
        h.hp = 100 - i;
        values[0] = &h;
        kids[i] = ecs_sched_spawn_with(w, 1, &health, values);
        assert_int_equal(ecs_sched_set_parent(w, kids[i], parents[i % 3]), ECS_SCHED_OK);
    }
    q = QUERY(w, ecs_sched_read(health), ecs_sched_read(ecs_sched_child_of(w)));
    assert_int_equal(ecs_sched_query_group_by(q, ecs_sched_child_of(w)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_query_order_by(q, health, by_hp), ECS_SCHED_OK);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        const ecs_sched_entity *parent = ECS_SCHED_FIELD(&it, const ecs_sched_entity, 1);
        const Health *h = ECS_SCHED_FIELD(&it, const Health, 0);
        for (i = 0; i < it.count; i++) {
            int g;
            static int last_hp;
            for (g = 0; g < 3 && parents[g] != parent[i]; g++) {}
            assert_true(g < 3);
            if (g != last_group) {
                assert_false(groups_done[g]);   /* a group comes once, whole */
                if (last_group >= 0) groups_done[last_group] = 1;
                last_group = g;
                last_hp = -1;
            }
            assert_true(h[i].hp > last_hp);      /* sorted within the group */
            last_hp = h[i].hp;
            seen++;
        }
    }
    assert_int_equal(seen, 9);
    check_and_destroy(w);
}

static void sorting_by_a_component_the_query_lacks_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id health = ECS_SCHED_COMPONENT(w, Health), score = ECS_SCHED_COMPONENT(w, Score);
    ecs_sched_id boss = ECS_SCHED_TAG(w, Boss);
    ecs_sched_query *q = QUERY(w, ecs_sched_read(health), ecs_sched_without(score),
                               ecs_sched_read(boss));
    (void)state;
    assert_int_equal(ecs_sched_query_order_by(q, score, by_hp), ECS_SCHED_ERR_INVALID_QUERY);
    assert_contains(ecs_sched_last_error(w), "'Score'");
    assert_int_equal(ecs_sched_query_order_by(q, boss, by_hp), ECS_SCHED_ERR_INVALID_QUERY);
    assert_contains(ecs_sched_last_error(w), "'Boss'");
    assert_int_equal(ecs_sched_query_order_by(q, health, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_query_group_by(q, health), ECS_SCHED_ERR_INVALID_ARGUMENT);
    check_and_destroy(w);
}

static void a_cascading_query_cannot_also_be_sorted(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id health = ECS_SCHED_COMPONENT(w, Health);
    ecs_sched_query *q = QUERY(w, ecs_sched_read(health), ecs_sched_cascade(ecs_sched_child_of(w)));
    (void)state;
    assert_int_equal(ecs_sched_query_order_by(q, health, by_hp), ECS_SCHED_ERR_INVALID_QUERY);
    assert_contains(ecs_sched_last_error(w), "one order");
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_sorted_query_hands_out_rows_in_order_across_tables),
        cmocka_unit_test(equal_keys_keep_table_order),
        cmocka_unit_test(an_unchanged_sorted_query_is_not_sorted_again),
        cmocka_unit_test(a_changed_key_or_a_new_entity_sorts_again),
        cmocka_unit_test(an_untracked_key_is_sorted_at_every_iteration),
        cmocka_unit_test(group_by_keeps_the_children_of_one_parent_together),
        cmocka_unit_test(sorting_by_a_component_the_query_lacks_is_refused),
        cmocka_unit_test(a_cascading_query_cannot_also_be_sorted),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
