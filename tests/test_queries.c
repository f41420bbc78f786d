/* Queries: terms with access (read, write, optional, without), field pointers, iteration over
   every matching table, a cache that follows new tables, access lists, and contradictions. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ecs_sched.h"

#include <cmocka.h>

#include "world_fixture.h"

/* Spawns an entity with Position {i, -i} and the components of `mask`:
   1 Velocity {10 i, 0}, 2 Health {i}, 4 Frozen. */
static ecs_sched_entity spawn_kind(world_setup *s, int i, int mask) {
    Position p;
    Velocity v;
    Health h;
    ecs_sched_id ids[4];
    const void *values[4];
    int32_t n = 0;
    ecs_sched_entity e;
    p.x = (float)i;
    p.y = (float)-i;
    v.x = (float)(10 * i);
    v.y = 0;
    h.hp = i;
    ids[n] = s->position;
    values[n++] = &p;
    if (mask & 1) {
        ids[n] = s->velocity;
        values[n++] = &v;
    }
    if (mask & 2) {
        ids[n] = s->health;
        values[n++] = &h;
    }
    if (mask & 4) {
        ids[n] = s->frozen;
        values[n++] = NULL;
    }
    e = ecs_sched_spawn_with(s->world, n, ids, values);
    assert_int_not_equal(e, ECS_SCHED_NULL_ENTITY);
    return e;
}

/* How many times iteration visits each of `count` entities; visits[k] for entities[k]. */
static void count_visits(const ecs_sched_query *q, const ecs_sched_entity *entities, int count,
                         int *visits) {
    ecs_sched_iter it = ecs_sched_query_iter(q);
    int i, k;
    for (k = 0; k < count; k++) visits[k] = 0;
    while (ecs_sched_iter_next(&it)) {
        assert_true(it.count > 0);
        for (i = 0; i < it.count; i++) {
            bool known = false;
            for (k = 0; k < count; k++) {
                if (entities[k] == it.entities[i]) {
                    visits[k]++;
                    known = true;
                }
            }
            assert_true(known);
        }
    }
}

static int iterated_total(const ecs_sched_query *q) {
    ecs_sched_iter it = ecs_sched_query_iter(q);
    int total = 0;
    while (ecs_sched_iter_next(&it)) total += it.count;
    return total;
}

/* ---- matching ---- */

static void query_matches_only_entities_with_every_required_term(void **state) {
    world_setup s;
    ecs_sched_entity e[8];
    int visits[8];
    ecs_sched_query *q;
    int mask;
    (void)state;
    setup_world(&s);
    for (mask = 0; mask < 8; mask++) e[mask] = spawn_kind(&s, mask, mask);
    q = QUERY(s.world, ecs_sched_read(s.position), ecs_sched_write(s.velocity));
    assert_non_null(q);
    count_visits(q, e, 8, visits);
    for (mask = 0; mask < 8; mask++) assert_int_equal(visits[mask], (mask & 1) ? 1 : 0);
    assert_int_equal(ecs_sched_query_count(q), 4);
    check_and_destroy(s.world);
}

static void iteration_visits_every_matching_entity_exactly_once_across_tables(void **state) {
    world_setup s;
    enum { N = 400 };
    ecs_sched_entity e[N];
    int visits[N];
    ecs_sched_query *q;
    int i, tables = 0;
    ecs_sched_iter it;
    (void)state;
    setup_world(&s);
    for (i = 0; i < N; i++) e[i] = spawn_kind(&s, i, i % 8);
    q = QUERY(s.world, ecs_sched_read(s.position));
    assert_non_null(q);
    count_visits(q, e, N, visits);
    for (i = 0; i < N; i++) assert_int_equal(visits[i], 1);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) tables++;
    assert_int_equal(tables, 8);
    assert_int_equal(ecs_sched_query_count(q), N);
    assert_int_equal(iterated_total(q), N);
    check_and_destroy(s.world);
}

static void entities_array_lines_up_with_the_fields(void **state) {
    world_setup s;
    ecs_sched_query *q;
    ecs_sched_iter it;
    int i, seen = 0;
    (void)state;
    setup_world(&s);
    for (i = 0; i < 60; i++) spawn_kind(&s, i, i % 4);
    q = QUERY(s.world, ecs_sched_read(s.position), ecs_sched_optional_read(s.health));
    assert_non_null(q);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
        const Health *h = ECS_SCHED_FIELD(&it, const Health, 1);
        for (i = 0; i < it.count; i++) {
            ecs_sched_entity e = it.entities[i];
            assert_ptr_equal(&p[i], ecs_sched_get(s.world, e, s.position));
            if (h) assert_ptr_equal(&h[i], ecs_sched_get(s.world, e, s.health));
            assert_true(p[i].x == -p[i].y);
            seen++;
        }
    }
    assert_int_equal(seen, 60);
    check_and_destroy(s.world);
}

static void writes_through_fields_change_the_stored_values(void **state) {
    world_setup s;
    ecs_sched_entity e[30];
    ecs_sched_query *q;
    ecs_sched_iter it;
    int i;
    (void)state;
    setup_world(&s);
    for (i = 0; i < 30; i++) e[i] = spawn_kind(&s, i, 1 | (i % 3 == 0 ? 2 : 0));
    q = QUERY(s.world, ecs_sched_write(s.position), ecs_sched_read(s.velocity));
    assert_non_null(q);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        const Velocity *v = ECS_SCHED_FIELD(&it, const Velocity, 1);
        for (i = 0; i < it.count; i++) p[i].x += v[i].x;
    }
    for (i = 0; i < 30; i++) {
        assert_true(get_position(&s, e[i])->x == (float)(11 * i));
    }
    check_and_destroy(s.world);
}

static void optional_field_is_null_exactly_where_the_component_is_absent(void **state) {
    world_setup s;
    ecs_sched_query *q;
    ecs_sched_iter it;
    int i, with = 0, without = 0;
    (void)state;
    setup_world(&s);
    for (i = 0; i < 40; i++) spawn_kind(&s, i, i % 4);
    q = QUERY(s.world, ecs_sched_read(s.position), ecs_sched_optional_write(s.velocity));
    assert_non_null(q);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        Velocity *v = ECS_SCHED_FIELD(&it, Velocity, 1);
        for (i = 0; i < it.count; i++) {
            bool has = ecs_sched_has(s.world, it.entities[i], s.velocity);
            assert_true(has == (v != NULL));
            if (v) assert_true(v[i].x == 10 * ECS_SCHED_FIELD(&it, Position, 0)[i].x);
            if (has) with++; else without++;
        }
    }
    assert_int_equal(with, 20);
    assert_int_equal(without, 20);
    assert_int_equal(ecs_sched_query_count(q), 40);
    check_and_destroy(s.world);
}

static void without_term_excludes_entities_that_have_it_and_has_no_field(void **state) {
    world_setup s;
    ecs_sched_entity e[16];
    int visits[16];
    ecs_sched_query *q;
    ecs_sched_iter it;
    int i;
    (void)state;
    setup_world(&s);
    for (i = 0; i < 16; i++) e[i] = spawn_kind(&s, i, i % 8);
    /* the without-term sits between two data terms: field indices follow term indices */
    q = QUERY(s.world, ecs_sched_read(s.position), ecs_sched_without(s.velocity),
              ecs_sched_optional_read(s.health));
    assert_non_null(q);
    count_visits(q, e, 16, visits);
    for (i = 0; i < 16; i++) assert_int_equal(visits[i], (i % 8) & 1 ? 0 : 1);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        const Health *h = ECS_SCHED_FIELD(&it, const Health, 2);
        assert_null(it.fields[1]);
        assert_non_null(it.fields[0]);
        for (i = 0; i < it.count; i++) {
            assert_true(ecs_sched_has(s.world, it.entities[i], s.health) == (h != NULL));
            if (h) assert_ptr_equal(&h[i], ecs_sched_get(s.world, it.entities[i], s.health));
        }
    }
    assert_int_equal(ecs_sched_query_count(q), 8);
    check_and_destroy(s.world);
}

static void tag_terms_match_but_have_no_field(void **state) {
    world_setup s;
    ecs_sched_query *q;
    ecs_sched_iter it;
    int i, total = 0;
    (void)state;
    setup_world(&s);
    for (i = 0; i < 16; i++) spawn_kind(&s, i, i % 8);
    q = QUERY(s.world, ecs_sched_read(s.frozen), ecs_sched_read(s.position));
    assert_non_null(q);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        assert_null(it.fields[0]);
        assert_non_null(it.fields[1]);
        for (i = 0; i < it.count; i++) assert_true(ecs_sched_has(s.world, it.entities[i], s.frozen));
        total += it.count;
    }
    assert_int_equal(total, 8);
    check_and_destroy(s.world);
}

static void query_without_matches_yields_nothing(void **state) {
    world_setup s;
    ecs_sched_query *q;
    ecs_sched_iter it;
    (void)state;
    setup_world(&s);
    spawn_kind(&s, 1, 0);
    q = QUERY(s.world, ecs_sched_read(s.health));
    assert_non_null(q);
    it = ecs_sched_query_iter(q);
    assert_false(ecs_sched_iter_next(&it));
    assert_int_equal(ecs_sched_query_count(q), 0);
    check_and_destroy(s.world);
}

static void iterating_again_gives_the_same_rows(void **state) {
    world_setup s;
    ecs_sched_entity e[20];
    int visits[20];
    ecs_sched_query *q;
    int i, round;
    (void)state;
    setup_world(&s);
    for (i = 0; i < 20; i++) e[i] = spawn_kind(&s, i, i % 3);
    q = QUERY(s.world, ecs_sched_read(s.position));
    assert_non_null(q);
    for (round = 0; round < 3; round++) {
        count_visits(q, e, 20, visits);
        for (i = 0; i < 20; i++) assert_int_equal(visits[i], 1);
    }
    check_and_destroy(s.world);
}

/* ---- the cache ---- */

static void table_created_after_the_query_is_matched(void **state) {
    world_setup s;
    ecs_sched_query *q;
    ecs_sched_entity before, after, moved;
    ecs_sched_entity all[3];
    int visits[3];
    (void)state;
    setup_world(&s);
    before = spawn_kind(&s, 1, 1);
    q = QUERY(s.world, ecs_sched_read(s.position), ecs_sched_read(s.velocity));
    assert_non_null(q);
    assert_int_equal(ecs_sched_query_count(q), 1);
    after = spawn_kind(&s, 2, 1 | 2 | 4);     /* a new table */
    moved = spawn_kind(&s, 3, 2);             /* moves into a new table below */
    assert_int_equal(ecs_sched_insert(s.world, moved, s.velocity, NULL), ECS_SCHED_OK);
    all[0] = before;
    all[1] = after;
    all[2] = moved;
    count_visits(q, all, 3, visits);
    assert_int_equal(visits[0], 1);
    assert_int_equal(visits[1], 1);
    assert_int_equal(visits[2], 1);
    assert_int_equal(ecs_sched_query_count(q), 3);
    check_and_destroy(s.world);
}

static void empty_tables_are_skipped(void **state) {
    world_setup s;
    ecs_sched_entity e[10];
    ecs_sched_query *q;
    ecs_sched_iter it;
    int i, chunks = 0;
    (void)state;
    setup_world(&s);
    for (i = 0; i < 10; i++) e[i] = spawn_kind(&s, i, i < 5 ? 1 : 2);
    q = QUERY(s.world, ecs_sched_read(s.position));
    assert_non_null(q);
    for (i = 0; i < 5; i++) ecs_sched_despawn(s.world, e[i]);              /* {P,V} emptied */
    for (i = 5; i < 10; i++) ecs_sched_remove(s.world, e[i], s.health);    /* {P,H} emptied */
    spawn_kind(&s, 99, 4);                                                 /* {P,Frozen} */
    ecs_sched_despawn(s.world, e[9]);                                      /* {P} partly */
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        assert_true(it.count > 0);
        chunks++;
    }
    assert_int_equal(chunks, 2);
    assert_int_equal(ecs_sched_query_count(q), 5);
    check_and_destroy(s.world);
}

static void count_follows_spawns_despawns_and_moves(void **state) {
    world_setup s;
    ecs_sched_entity e[20];
    ecs_sched_query *q;
    int i;
    (void)state;
    setup_world(&s);
    q = QUERY(s.world, ecs_sched_read(s.position), ecs_sched_without(s.frozen));
    assert_non_null(q);
    assert_int_equal(ecs_sched_query_count(q), 0);
    for (i = 0; i < 20; i++) e[i] = spawn_kind(&s, i, 0);
    assert_int_equal(ecs_sched_query_count(q), 20);
    for (i = 0; i < 5; i++) ecs_sched_insert(s.world, e[i], s.frozen, NULL);
    assert_int_equal(ecs_sched_query_count(q), 15);
    for (i = 5; i < 8; i++) ecs_sched_despawn(s.world, e[i]);
    assert_int_equal(ecs_sched_query_count(q), 12);
    ecs_sched_remove(s.world, e[0], s.frozen);
    assert_int_equal(ecs_sched_query_count(q), 13);
    assert_int_equal(iterated_total(q), 13);
    check_and_destroy(s.world);
}

static void several_queries_stay_current_together(void **state) {
    world_setup s;
    ecs_sched_query *moving, *still, *healthy;
    int i;
    (void)state;
    setup_world(&s);
    moving = QUERY(s.world, ecs_sched_read(s.position), ecs_sched_read(s.velocity));
    still = QUERY(s.world, ecs_sched_read(s.position), ecs_sched_without(s.velocity));
    healthy = QUERY(s.world, ecs_sched_read(s.health));
    assert_true(moving && still && healthy);
    for (i = 0; i < 32; i++) spawn_kind(&s, i, i % 8);
    assert_int_equal(ecs_sched_query_count(moving), 16);
    assert_int_equal(ecs_sched_query_count(still), 16);
    assert_int_equal(ecs_sched_query_count(healthy), 16);
    assert_int_equal(iterated_total(moving) + iterated_total(still), 32);
    check_and_destroy(s.world);
}

/* ---- access ---- */

static bool contains(const ecs_sched_id *ids, int32_t count, ecs_sched_id id) {
    int32_t i;
    for (i = 0; i < count; i++) {
        if (ids[i] == id) return true;
    }
    return false;
}

static void access_lists_reads_and_writes(void **state) {
    world_setup s;
    ecs_sched_id extra;
    ecs_sched_query *q;
    ecs_sched_access a;
    (void)state;
    setup_world(&s);
    extra = ecs_sched_component_register_type(s.world, "Extra", 4, 4);
    q = QUERY(s.world, ecs_sched_read(s.position), ecs_sched_write(s.velocity),
              ecs_sched_optional_read(s.health), ecs_sched_optional_write(extra),
              ecs_sched_without(s.frozen));
    assert_non_null(q);
    a = ecs_sched_query_access(q);
    assert_int_equal(a.read_count, 2);
    assert_int_equal(a.write_count, 2);
    assert_true(contains(a.reads, a.read_count, s.position));
    assert_true(contains(a.reads, a.read_count, s.health));
    assert_true(contains(a.writes, a.write_count, s.velocity));
    assert_true(contains(a.writes, a.write_count, extra));
    assert_false(contains(a.reads, a.read_count, s.frozen));
    assert_false(contains(a.writes, a.write_count, s.frozen));
    check_and_destroy(s.world);
}

static void access_of_a_read_only_query_has_no_writes(void **state) {
    world_setup s;
    ecs_sched_query *q;
    ecs_sched_access a;
    (void)state;
    setup_world(&s);
    q = QUERY(s.world, ecs_sched_read(s.position), ecs_sched_without(s.velocity));
    assert_non_null(q);
    a = ecs_sched_query_access(q);
    assert_int_equal(a.read_count, 1);
    assert_int_equal(a.reads[0], s.position);
    assert_int_equal(a.write_count, 0);
    check_and_destroy(s.world);
}

/* ---- contradictions ---- */

static void assert_invalid_query(world_setup *s, ecs_sched_query *q, const char *name) {
    assert_null(q);
    assert_failed_with(s->world, &s->log, ECS_SCHED_ERR_INVALID_QUERY);
    assert_non_null(strstr(ecs_sched_last_error(s->world), name));
    ecs_sched_clear_error(s->world);
}

static void naming_a_component_twice_is_an_invalid_query(void **state) {
    world_setup s;
    (void)state;
    setup_world(&s);
    assert_invalid_query(&s, QUERY(s.world, ecs_sched_read(s.position),
                                   ecs_sched_write(s.position)), "Position");
    assert_invalid_query(&s, QUERY(s.world, ecs_sched_read(s.velocity), ecs_sched_read(s.health),
                                   ecs_sched_read(s.velocity)), "Velocity");
    assert_invalid_query(&s, QUERY(s.world, ecs_sched_read(s.position),
                                   ecs_sched_optional_write(s.health),
                                   ecs_sched_optional_read(s.health)), "Health");
    check_and_destroy(s.world);
}

static void requiring_and_excluding_the_same_component_is_an_invalid_query(void **state) {
    world_setup s;
    (void)state;
    setup_world(&s);
    assert_invalid_query(&s, QUERY(s.world, ecs_sched_write(s.velocity),
                                   ecs_sched_without(s.velocity)), "Velocity");
    assert_invalid_query(&s, QUERY(s.world, ecs_sched_without(s.frozen),
                                   ecs_sched_read(s.position), ecs_sched_read(s.frozen)), "Frozen");
    check_and_destroy(s.world);
}

/* A filter may pick rows of a component another term reads or writes; it may not repeat
   itself, nor stand beside a term that leaves the component out. */
static void a_filter_repeated_or_beside_a_without_is_an_invalid_query(void **state) {
    world_setup s;
    ecs_sched_id heat;
    (void)state;
    setup_world(&s);
    heat = ecs_sched_tracked_component_register_type(s.world, "Heat", 4, 4);
    assert_invalid_query(&s, QUERY(s.world, ecs_sched_changed(heat), ecs_sched_changed(heat)),
                         "Heat");
    assert_invalid_query(&s, QUERY(s.world, ecs_sched_without(heat), ecs_sched_added(heat)),
                         "Heat");
    assert_invalid_query(&s, QUERY(s.world, ecs_sched_changed(heat), ecs_sched_read(heat),
                                   ecs_sched_write(heat)), "Heat");
    assert_non_null(QUERY(s.world, ecs_sched_write(heat), ecs_sched_added(heat),
                          ecs_sched_changed(heat)));
    check_and_destroy(s.world);
}

/* ---- lifetime ---- */

static void destroyed_query_leaves_the_world_and_other_queries_working(void **state) {
    world_setup s;
    ecs_sched_query *kept, *dropped;
    int i;
    (void)state;
    setup_world(&s);
    kept = QUERY(s.world, ecs_sched_read(s.position));
    dropped = QUERY(s.world, ecs_sched_read(s.position), ecs_sched_read(s.velocity));
    assert_true(kept && dropped);
    for (i = 0; i < 10; i++) spawn_kind(&s, i, i % 2);
    ecs_sched_query_destroy(dropped);
    assert_int_equal(ecs_sched_world_check(s.world), ECS_SCHED_OK);
    for (i = 0; i < 10; i++) spawn_kind(&s, i, 1 | 2);
    assert_int_equal(ecs_sched_query_count(kept), 20);
    check_and_destroy(s.world);
}

static void queries_can_be_created_and_destroyed_many_times(void **state) {
    world_setup s;
    int i;
    (void)state;
    setup_world(&s);
    spawn_kind(&s, 1, 3);
    for (i = 0; i < 200; i++) {
        ecs_sched_query *q = QUERY(s.world, ecs_sched_read(s.position),
                                   ecs_sched_optional_read(s.velocity));
        assert_non_null(q);
        assert_int_equal(ecs_sched_query_count(q), 1);
        ecs_sched_query_destroy(q);
    }
    check_and_destroy(s.world);
}

static void world_destroy_frees_the_queries_it_still_owns(void **state) {
    world_setup s;
    int i;
    (void)state;
    setup_world(&s);
    for (i = 0; i < 5; i++) assert_non_null(QUERY(s.world, ecs_sched_read(s.position)));
    spawn_kind(&s, 1, 0);
    check_and_destroy(s.world); /* LeakSanitizer reports anything left behind */
}

/* ---- iteration in pieces of an ordered query and of a tracked writer ---- */

static int by_x_descending(ecs_sched_entity a, const void *value_a, ecs_sched_entity b,
                           const void *value_b) {
    float xa = ((const Position *)value_a)->x, xb = ((const Position *)value_b)->x;
    (void)a;
    (void)b;
    return xa < xb ? 1 : xa > xb ? -1 : 0;
}

static void append_xs(ecs_sched_iter *it, void *arg) {
    char *text = (char *)arg;
    const Position *p = ECS_SCHED_FIELD(it, Position, 0);
    int32_t i;
    for (i = 0; i < it->count; i++) {
        size_t n = strlen(text);
        snprintf(text + n, 256 - n, "%s%g", n ? " " : "", (double)p[i].x);
    }
}

static void an_ordered_query_iterated_in_pieces_keeps_its_order(void **state) {
    world_setup s;
    ecs_sched_query_desc d;
    ecs_sched_query *q;
    char text[256] = "";
    (void)state;
    setup_world(&s);
    spawn_kind(&s, 2, 0);
    spawn_kind(&s, 5, 1);
    spawn_kind(&s, 1, 2);
    spawn_kind(&s, 4, 0);
    memset(&d, 0, sizeof d);
    d.terms[0] = ecs_sched_read(s.position);
    q = ecs_sched_query_create(s.world, &d);
    assert_int_equal(ecs_sched_query_order_by(q, s.position, by_x_descending), ECS_SCHED_OK);
    ecs_sched_query_par_iter(q, ecs_sched_world_pool(s.world), 1, append_xs, text);
    assert_string_equal(text, "5 4 2 1");
    ecs_sched_query_destroy(q);
    check_and_destroy(s.world);
}

static void double_x(ecs_sched_iter *it, void *arg) {
    Position *p = ECS_SCHED_FIELD(it, Position, 0);
    int32_t i;
    (void)arg;
    for (i = 0; i < it->count; i++) p[i].x *= 2;
}

static int32_t rows_of(const ecs_sched_query *q) {
    ecs_sched_iter it = ecs_sched_query_iter(q);
    int32_t rows = 0;
    while (ecs_sched_iter_next(&it)) rows += it.count;
    return rows;
}

static void a_tracked_component_written_in_pieces_is_changed_in_every_row(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id pos = ECS_SCHED_TRACKED_COMPONENT(w, Position);
    ecs_sched_query_desc d;
    ecs_sched_query *writer, *changed;
    int i;
    (void)state;
    for (i = 0; i < 6; i++) {
        Position p = {(float)i, 0};
        ecs_sched_spawn_with(w, 1, &pos, (const void *const[]){&p});
    }
    memset(&d, 0, sizeof d);
    d.terms[0] = ecs_sched_changed(pos);
    changed = ecs_sched_query_create(w, &d);
    d.terms[0] = ecs_sched_write(pos);
    writer = ecs_sched_query_create(w, &d);
    assert_int_equal(rows_of(changed), 6);
    assert_int_equal(rows_of(changed), 0);
    ecs_sched_query_par_iter(writer, ecs_sched_world_pool(w), 2, double_x, NULL);
    assert_int_equal(rows_of(changed), 6);
    {
        ecs_sched_iter it = ecs_sched_query_iter(writer);
        float sum = 0;
        while (ecs_sched_iter_next(&it)) {
            const Position *p = ECS_SCHED_FIELD(&it, Position, 0);
            int32_t k;
            for (k = 0; k < it.count; k++) sum += p[k].x;
        }
        assert_true(sum == 30.0f);
    }
    ecs_sched_query_destroy(changed);
    ecs_sched_query_destroy(writer);
    check_and_destroy(w);
}

static void an_ordered_tracked_writer_handed_out_by_index_marks_the_rows_it_hands_out(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id pos = ECS_SCHED_TRACKED_COMPONENT(w, Position);
    ecs_sched_query_desc d;
    ecs_sched_query *writer, *changed;
    ecs_sched_iter it;
    char text[256] = "";
    int i;
    (void)state;
    for (i = 0; i < 4; i++) {
        Position p = {(float)(i * 3 % 4), 0};   /* 0 3 2 1 */
        ecs_sched_spawn_with(w, 1, &pos, (const void *const[]){&p});
    }
    memset(&d, 0, sizeof d);
    d.terms[0] = ecs_sched_changed(pos);
    changed = ecs_sched_query_create(w, &d);
    d.terms[0] = ecs_sched_write(pos);
    writer = ecs_sched_query_create(w, &d);
    assert_int_equal(ecs_sched_query_order_by(writer, pos, by_x_descending), ECS_SCHED_OK);
    assert_int_equal(rows_of(changed), 4);
    assert_int_equal(rows_of(changed), 0);
    it = ecs_sched_query_iter(writer);
    while (ecs_sched_iter_next_rows(&it)) {
        Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        for (i = 0; i < it.count; i++) {
            size_t n = strlen(text);
            snprintf(text + n, sizeof text - n, "%s%g", n ? " " : "", (double)p[it.rows[i]].x);
            p[it.rows[i]].y = 1;
        }
    }
    assert_string_equal(text, "3 2 1 0");
    assert_int_equal(rows_of(changed), 4);
    assert_int_equal(rows_of(changed), 0);
    ecs_sched_query_destroy(changed);
    ecs_sched_query_destroy(writer);
    check_and_destroy(w);
}

static void a_tag_of_another_entity_gates_a_query_and_gives_no_field(void **state) {
    world_setup s;
    ecs_sched_query_desc d;
    ecs_sched_query *q;
    ecs_sched_entity flag;
    ecs_sched_iter it;
    int32_t rows = 0;
    (void)state;
    setup_world(&s);
    flag = ecs_sched_spawn(s.world);
    spawn_kind(&s, 1, 0);
    spawn_kind(&s, 2, 0);
    memset(&d, 0, sizeof d);
    d.terms[0] = ecs_sched_read(s.position);
    d.terms[1] = ecs_sched_from_entity(s.frozen, flag);
    q = ecs_sched_query_create(s.world, &d);
    assert_non_null(q);
    assert_int_equal(ecs_sched_query_count(q), 0);   /* the flag lacks the tag */
    assert_int_equal(ecs_sched_insert(s.world, flag, s.frozen, NULL), ECS_SCHED_OK);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        assert_null(it.fields[1]);
        rows += it.count;
    }
    assert_int_equal(rows, 2);
    ecs_sched_query_destroy(q);
    check_and_destroy(s.world);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(an_ordered_query_iterated_in_pieces_keeps_its_order),
        cmocka_unit_test(a_tracked_component_written_in_pieces_is_changed_in_every_row),
        cmocka_unit_test(an_ordered_tracked_writer_handed_out_by_index_marks_the_rows_it_hands_out),
        cmocka_unit_test(a_tag_of_another_entity_gates_a_query_and_gives_no_field),
        cmocka_unit_test(query_matches_only_entities_with_every_required_term),
        cmocka_unit_test(iteration_visits_every_matching_entity_exactly_once_across_tables),
        cmocka_unit_test(entities_array_lines_up_with_the_fields),
        cmocka_unit_test(writes_through_fields_change_the_stored_values),
        cmocka_unit_test(optional_field_is_null_exactly_where_the_component_is_absent),
        cmocka_unit_test(without_term_excludes_entities_that_have_it_and_has_no_field),
        cmocka_unit_test(tag_terms_match_but_have_no_field),
        cmocka_unit_test(query_without_matches_yields_nothing),
        cmocka_unit_test(iterating_again_gives_the_same_rows),
        cmocka_unit_test(table_created_after_the_query_is_matched),
        cmocka_unit_test(empty_tables_are_skipped),
        cmocka_unit_test(count_follows_spawns_despawns_and_moves),
        cmocka_unit_test(several_queries_stay_current_together),
        cmocka_unit_test(access_lists_reads_and_writes),
        cmocka_unit_test(access_of_a_read_only_query_has_no_writes),
        cmocka_unit_test(naming_a_component_twice_is_an_invalid_query),
        cmocka_unit_test(requiring_and_excluding_the_same_component_is_an_invalid_query),
        cmocka_unit_test(a_filter_repeated_or_beside_a_without_is_an_invalid_query),
        cmocka_unit_test(destroyed_query_leaves_the_world_and_other_queries_working),
        cmocka_unit_test(queries_can_be_created_and_destroyed_many_times),
        cmocka_unit_test(world_destroy_frees_the_queries_it_still_owns),
    };
    return cmocka_run_group_tests_name("queries", tests, NULL, NULL);
}
