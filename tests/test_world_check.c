/* ecs_sched_world_check finds a damaged world: each test damages one structure of a
   consistent world the way a bug would (by reaching into the implementation, which this
   program compiles itself), checks that world_check returns ECS_SCHED_ERR_INCONSISTENT with a
   message that says what disagrees, then repairs the damage and checks the world again. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include "world_fixture.h"

typedef struct Burning {
    float heat;
} Burning;

/* setup_world's world with two entities of one table (Position, Velocity), one despawned
   entity, a toggleable component Shield on a third, the sparse component Burning on the
   first, and a query of Position. */
typedef struct check_setup {
    world_setup base;
    ecs_sched_id shield, burning;
    ecs_sched_entity a, b, gone, shielded;
    ecs_sched_query *query;
} check_setup;

static void setup_check(check_setup *s) {
    Position p = {1, 2};
    Velocity v = {3, 4};
    Health h = {5};
    Burning burn = {6};
    ecs_sched_component_desc shield;
    setup_world(&s->base);
    memset(&shield, 0, sizeof shield);
    shield.name = "Shield";
    shield.size = sizeof(Health);
    shield.toggleable = true;
    s->shield = ecs_sched_component_register(s->base.world, &shield);
    s->burning = ECS_SCHED_SPARSE_COMPONENT(s->base.world, Burning);
    assert_true(s->shield && s->burning);
    s->a = SPAWN(s->base.world, {s->base.position, &p}, {s->base.velocity, &v});
    s->b = SPAWN(s->base.world, {s->base.position, &p}, {s->base.velocity, &v});
    s->gone = SPAWN(s->base.world, {s->base.position, &p});
    s->shielded = SPAWN(s->base.world, {s->shield, &h});
    assert_int_equal(ecs_sched_despawn(s->base.world, s->gone), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(s->base.world, s->a, s->burning, &burn), ECS_SCHED_OK);
    s->query = QUERY(s->base.world, ecs_sched_read(s->base.position));
    assert_non_null(s->query);
    assert_int_equal(ecs_sched_world_check(s->base.world), ECS_SCHED_OK);
}

/* world_check reports the world inconsistent, saying `what`. */
static void assert_inconsistent(check_setup *s, const char *what) {
    ecs_sched_world *w = s->base.world;
    assert_int_equal(ecs_sched_world_check(w), ECS_SCHED_ERR_INCONSISTENT);
    assert_failed_with(w, &s->base.log, ECS_SCHED_ERR_INCONSISTENT);
    assert_contains(ecs_sched_last_error(w), "world_check: ");
    assert_contains(ecs_sched_last_error(w), what);
    ecs_sched_clear_error(w);
}

/* The damage repaired: the world is consistent again and is destroyed. */
static void finish(check_setup *s) {
    ecs_sched_query_destroy(s->query);
    check_and_destroy(s->base.world);
}

static ecs_sched__record *record_of(check_setup *s, ecs_sched_entity e) {
    return &s->base.world->records[ECS_SCHED_ENTITY_INDEX(e)];
}

static ecs_sched__table *table_of(check_setup *s, ecs_sched_entity e) {
    return s->base.world->tables[record_of(s, e)->table];
}

static ecs_sched__sparse_set *sparse_set_of(check_setup *s, ecs_sched_id id) {
    uint32_t i;
    for (i = 0; i < s->base.world->sparse_count; i++) {
        if (s->base.world->sparse_sets[i].id == id) return &s->base.world->sparse_sets[i];
    }
    fail_msg("no sparse set for component %u", (unsigned)id);
    return NULL;
}

/* ---- tables ---- */

static void a_table_whose_count_exceeds_its_capacity_is_found(void **state) {
    check_setup s;
    ecs_sched__table *t;
    int32_t count;
    (void)state;
    setup_check(&s);
    t = table_of(&s, s.a);
    count = t->count;
    t->count = t->capacity + 1;
    assert_inconsistent(&s, "table count exceeds capacity");
    t->count = count;
    finish(&s);
}

static void a_table_whose_type_changed_is_missing_from_the_type_map(void **state) {
    check_setup s;
    ecs_sched__table *t;
    ecs_sched_id first;
    (void)state;
    setup_check(&s);
    t = table_of(&s, s.a);
    assert_int_equal(t->type_count, 2);
    first = t->type[0];
    t->type[0] = t->type[1];
    t->type[1] = first;
    assert_inconsistent(&s, "table missing from the type map");
    t->type[1] = t->type[0];
    t->type[0] = first;
    finish(&s);
}

static void a_misaligned_column_is_found(void **state) {
    check_setup s;
    ecs_sched__table *t;
    unsigned char *data;
    (void)state;
    setup_check(&s);
    t = table_of(&s, s.a);
    data = t->columns[0].data;
    t->columns[0].data = data + 1;
    assert_inconsistent(&s, "misaligned column");
    t->columns[0].data = data;
    finish(&s);
}

static void two_entities_whose_records_swapped_rows_are_found(void **state) {
    check_setup s;
    uint32_t row_a, row_b;
    (void)state;
    setup_check(&s);
    row_a = record_of(&s, s.a)->row;
    row_b = record_of(&s, s.b)->row;
    record_of(&s, s.a)->row = row_b;
    record_of(&s, s.b)->row = row_a;
    assert_inconsistent(&s, "table row and entity record disagree");
    record_of(&s, s.a)->row = row_a;
    record_of(&s, s.b)->row = row_b;
    finish(&s);
}

static void a_live_count_that_differs_from_the_rows_is_found(void **state) {
    check_setup s;
    (void)state;
    setup_check(&s);
    s.base.world->alive_count++;
    assert_inconsistent(&s, "rows in tables differ from live entities");
    s.base.world->alive_count--;
    finish(&s);
}

/* ---- toggleable components ---- */

static void a_table_missing_the_bits_of_a_toggleable_component_is_found(void **state) {
    check_setup s;
    ecs_sched__table *t;
    (void)state;
    setup_check(&s);
    t = table_of(&s, s.shielded);
    assert_int_equal(t->toggle_count, 1);
    t->toggle_count = 0;
    assert_inconsistent(&s, "toggleable components without bits");
    t->toggle_count = 1;
    finish(&s);
}

static void a_bit_set_past_the_rows_of_a_table_is_found(void **state) {
    check_setup s;
    ecs_sched__table *t;
    int32_t row;
    (void)state;
    setup_check(&s);
    t = table_of(&s, s.shielded);
    row = t->count;
    assert_true(row < t->capacity);
    ecs_sched__toggle_put(&t->toggles[0], row, true);
    assert_inconsistent(&s, "bit set past the rows of a table");
    ecs_sched__toggle_put(&t->toggles[0], row, false);
    finish(&s);
}

static void bits_of_a_component_that_is_not_toggleable_are_found(void **state) {
    check_setup s;
    ecs_sched__table *t;
    (void)state;
    setup_check(&s);
    t = table_of(&s, s.shielded);
    s.base.world->components[s.shield].toggleable = false;
    assert_inconsistent(&s, "toggleable components without bits");
    s.base.world->components[s.shield].toggleable = true;
    t->toggles[0].id = s.base.position;   /* not in the type */
    assert_inconsistent(&s, "bits of a component not toggleable in the type");
    t->toggles[0].id = s.shield;
    finish(&s);
}

/* ---- entity records and free indices ---- */

static void a_dead_record_that_claims_a_row_is_found(void **state) {
    check_setup s;
    ecs_sched__record *r, saved;
    (void)state;
    setup_check(&s);
    r = record_of(&s, s.gone);
    saved = *r;
    r->table = record_of(&s, s.a)->table;
    r->row = record_of(&s, s.a)->row;
    assert_inconsistent(&s, "entity record points at a wrong row");
    *r = saved;
    finish(&s);
}

static void a_free_index_on_no_free_list_is_found(void **state) {
    check_setup s;
    ecs_sched__record *r;
    uint32_t row;
    (void)state;
    setup_check(&s);
    r = record_of(&s, s.gone);
    row = r->row;
    r->row = ECS_SCHED__UNLISTED;
    assert_inconsistent(&s, "a free index spawns may take is on no free list");
    r->row = row;
    finish(&s);
}

static void a_free_index_whose_place_on_the_stack_is_wrong_is_found(void **state) {
    check_setup s;
    ecs_sched__record *r;
    uint32_t row;
    (void)state;
    setup_check(&s);
    assert_int_equal(s.base.world->free_stack_count, 1);
    r = record_of(&s, s.gone);
    row = r->row;
    r->row = row + 7;
    assert_inconsistent(&s, "stack of free indices is broken");
    r->row = row;
    finish(&s);
}

static void a_free_list_through_a_live_entity_is_found(void **state) {
    check_setup s;
    uint32_t head;
    (void)state;
    setup_check(&s);
    head = s.base.world->free_head;
    s.base.world->free_head = ECS_SCHED_ENTITY_INDEX(s.a);
    assert_inconsistent(&s, "free list is broken");
    s.base.world->free_head = head;
    finish(&s);
}

static void a_free_count_that_differs_from_the_lists_is_found(void **state) {
    check_setup s;
    (void)state;
    setup_check(&s);
    s.base.world->free_count++;
    assert_inconsistent(&s, "free list length");
    s.base.world->free_count--;
    finish(&s);
}

/* ---- queries ---- */

static void a_query_counted_plain_when_it_is_not_is_found(void **state) {
    check_setup s;
    (void)state;
    setup_check(&s);
    s.query->plain = !s.query->plain;
    assert_inconsistent(&s, "query counted plain");
    s.query->plain = !s.query->plain;
    finish(&s);
}

static void a_query_cache_with_a_wrong_column_is_found(void **state) {
    check_setup s;
    int32_t column;
    (void)state;
    setup_check(&s);
    assert_true(s.query->match_count > 0);
    column = s.query->matches[0].column[0];
    s.query->matches[0].column[0] = column + 1;
    assert_inconsistent(&s, "query cache has wrong columns");
    s.query->matches[0].column[0] = column;
    finish(&s);
}

static void a_query_cache_missing_a_table_is_found(void **state) {
    check_setup s;
    ecs_sched__match first;
    (void)state;
    setup_check(&s);
    assert_true(s.query->match_count > 1);
    first = s.query->matches[0];
    s.query->matches[0] = s.query->matches[1];
    assert_inconsistent(&s, "query cache disagrees with tables");
    s.query->matches[0] = first;
    finish(&s);
}

/* ---- sparse sets ---- */

static void a_sparse_member_found_at_another_place_is_found(void **state) {
    check_setup s;
    ecs_sched__sparse_set *set;
    ecs_sched_entity member;
    (void)state;
    setup_check(&s);
    set = sparse_set_of(&s, s.burning);
    assert_int_equal(set->count, 1);
    member = set->members[0];
    set->members[0] = s.b;
    assert_inconsistent(&s, "sparse set member");
    set->members[0] = member;
    finish(&s);
}

static void a_sparse_set_with_more_positions_than_members_is_found(void **state) {
    check_setup s;
    ecs_sched__sparse_set *set;
    (void)state;
    setup_check(&s);
    set = sparse_set_of(&s, s.burning);
    set->count = 0;
    assert_inconsistent(&s, "sparse set positions");
    set->count = 1;
    finish(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_table_whose_count_exceeds_its_capacity_is_found),
        cmocka_unit_test(a_table_whose_type_changed_is_missing_from_the_type_map),
        cmocka_unit_test(a_misaligned_column_is_found),
        cmocka_unit_test(two_entities_whose_records_swapped_rows_are_found),
        cmocka_unit_test(a_live_count_that_differs_from_the_rows_is_found),
        cmocka_unit_test(a_table_missing_the_bits_of_a_toggleable_component_is_found),
        cmocka_unit_test(a_bit_set_past_the_rows_of_a_table_is_found),
        cmocka_unit_test(bits_of_a_component_that_is_not_toggleable_are_found),
        cmocka_unit_test(a_dead_record_that_claims_a_row_is_found),
        cmocka_unit_test(a_free_index_on_no_free_list_is_found),
        cmocka_unit_test(a_free_index_whose_place_on_the_stack_is_wrong_is_found),
        cmocka_unit_test(a_free_list_through_a_live_entity_is_found),
        cmocka_unit_test(a_free_count_that_differs_from_the_lists_is_found),
        cmocka_unit_test(a_query_counted_plain_when_it_is_not_is_found),
        cmocka_unit_test(a_query_cache_with_a_wrong_column_is_found),
        cmocka_unit_test(a_query_cache_missing_a_table_is_found),
        cmocka_unit_test(a_sparse_member_found_at_another_place_is_found),
        cmocka_unit_test(a_sparse_set_with_more_positions_than_members_is_found),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
