/* Relationships. A kind is registered like a component; a source relates to targets of a
   kind (one at most for an exclusive kind); the first target sits in the source's table, the
   target lists its sources. Queries ask for a target, any target or none; despawning a target
   removes the relationship, despawns the sources or is refused, as the kind says; commands
   and observers work on relationships; bad input changes nothing and names the culprits. */
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

typedef struct { float weight; int tag; } Affinity;

static ecs_sched_id kind_of(ecs_sched_world *w, const char *name, bool exclusive,
                            ecs_sched_target_despawn policy) {
    ecs_sched_relation_desc d;
    ecs_sched_id id;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.exclusive = exclusive;
    d.on_target_despawn = policy;
    id = ecs_sched_relation_register(w, &d);
    assert_true(id != 0);
    return id;
}

static ecs_sched_id likes_kind(ecs_sched_world *w) {
    return kind_of(w, "Likes", false, ECS_SCHED_TARGET_DEFAULT);
}

static ecs_sched_id affinity_kind(ecs_sched_world *w) {
    ecs_sched_relation_desc d;
    ecs_sched_id id;
    memset(&d, 0, sizeof d);
    d.name = "AffinityTo";
    d.payload_size = sizeof(Affinity);
    d.payload_alignment = ECS_SCHED_ALIGNOF(Affinity);
    id = ecs_sched_relation_register(w, &d);
    assert_true(id != 0);
    return id;
}

static void spawn_n(ecs_sched_world *w, ecs_sched_entity *out, int n) {
    int i;
    for (i = 0; i < n; i++) out[i] = ecs_sched_spawn(w);
}

/* The sources of target as a list of indices into e[], "-" for none. */
static void sources_text(ecs_sched_world *w, ecs_sched_id kind, ecs_sched_entity target,
                         const ecs_sched_entity *e, int n, char *out) {
    int32_t count, i;
    const ecs_sched_entity *s = ecs_sched_sources(w, kind, target, &count);
    out[0] = '\0';
    if (!s) {
        strcpy(out, "-");
        return;
    }
    for (i = 0; i < count; i++) {
        int k;
        for (k = 0; k < n && e[k] != s[i]; k++) {}
        sprintf(out + strlen(out), "%s%d", i ? " " : "", k);
    }
}

static int32_t count_of_query(ecs_sched_query *q) {
    ecs_sched_iter it = ecs_sched_query_iter(q);
    int32_t n = 0;
    while (ecs_sched_iter_next(&it)) n += it.count;
    return n;
}

/* ---- relating ---- */

static void relate_puts_the_target_in_the_sources_column_and_the_source_in_the_targets_list(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_entity e[3];
    ecs_sched_query *q;
    ecs_sched_iter it;
    char text[64];
    (void)state;
    spawn_n(w, e, 3);
    assert_int_equal(ecs_sched_relate(w, e[0], likes, e[2], NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, e[1], likes, e[2], NULL), ECS_SCHED_OK);
    assert_true(ecs_sched_has_relation(w, e[0], likes, e[2]));
    assert_true(ecs_sched_has_relation(w, e[0], likes, ECS_SCHED_NULL_ENTITY));
    assert_false(ecs_sched_has_relation(w, e[2], likes, ECS_SCHED_NULL_ENTITY));
    assert_true(ecs_sched_has(w, e[0], likes));
    assert_true(ecs_sched_target(w, e[0], likes, 0) == e[2]);
    assert_int_equal(ecs_sched_target_count(w, e[0], likes), 1);
    sources_text(w, likes, e[2], e, 3, text);
    assert_string_equal(text, "0 1");
    q = QUERY(w, ecs_sched_read(likes));
    it = ecs_sched_query_iter(q);
    assert_true(ecs_sched_iter_next(&it));
    assert_int_equal(it.count, 2);
    assert_true(ECS_SCHED_FIELD(&it, ecs_sched_entity, 0)[0] == e[2]);
    assert_true(ECS_SCHED_FIELD(&it, ecs_sched_entity, 0)[1] == e[2]);
    check_and_destroy(w);
}

static void an_exclusive_kind_replaces_the_target(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id follows = kind_of(w, "Follows", true, ECS_SCHED_TARGET_DEFAULT);
    ecs_sched_entity e[3];
    char text[64];
    (void)state;
    spawn_n(w, e, 3);
    assert_int_equal(ecs_sched_relate(w, e[0], follows, e[1], NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, e[0], follows, e[2], NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_target_count(w, e[0], follows), 1);
    assert_true(ecs_sched_target(w, e[0], follows, 0) == e[2]);
    assert_false(ecs_sched_has_relation(w, e[0], follows, e[1]));
    sources_text(w, follows, e[1], e, 3, text);
    assert_string_equal(text, "-");
    sources_text(w, follows, e[2], e, 3, text);
    assert_string_equal(text, "0");
    check_and_destroy(w);
}

static void a_kind_that_is_not_exclusive_keeps_every_target(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_entity e[4];
    int32_t i;
    bool seen[4] = {false, false, false, false};
    (void)state;
    spawn_n(w, e, 4);
    for (i = 1; i < 4; i++) assert_int_equal(ecs_sched_relate(w, e[0], likes, e[i], NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, e[0], likes, e[2], NULL), ECS_SCHED_OK);   /* again */
    assert_int_equal(ecs_sched_target_count(w, e[0], likes), 3);
    for (i = 0; i < 3; i++) {
        ecs_sched_entity t = ecs_sched_target(w, e[0], likes, i);
        int k;
        for (k = 1; k < 4 && e[k] != t; k++) {}
        assert_true(k < 4);
        seen[k] = true;
    }
    assert_true(seen[1] && seen[2] && seen[3]);
    assert_true(ecs_sched_target(w, e[0], likes, 3) == ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_unrelate(w, e[0], likes, e[1]), ECS_SCHED_OK);   /* the first */
    assert_int_equal(ecs_sched_target_count(w, e[0], likes), 2);
    assert_false(ecs_sched_has_relation(w, e[0], likes, e[1]));
    assert_true(ecs_sched_has_relation(w, e[0], likes, e[2]));
    assert_true(ecs_sched_has_relation(w, e[0], likes, e[3]));
    check_and_destroy(w);
}

static void a_payload_is_kept_per_target_and_kept_by_a_relate_without_one(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id aff = affinity_kind(w);
    ecs_sched_entity e[3];
    Affinity a = {0.5f, 7}, b = {2.0f, 9};
    const Affinity *got;
    (void)state;
    spawn_n(w, e, 3);
    assert_int_equal(ecs_sched_relate(w, e[0], aff, e[1], &a), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, e[0], aff, e[2], &b), ECS_SCHED_OK);
    got = (const Affinity *)ecs_sched_relation_payload(w, e[0], aff, e[1]);
    assert_non_null(got);
    assert_true(got->weight == 0.5f && got->tag == 7);
    got = (const Affinity *)ecs_sched_relation_payload(w, e[0], aff, e[2]);
    assert_true(got->weight == 2.0f && got->tag == 9);
    assert_int_equal(ecs_sched_relate(w, e[0], aff, e[2], NULL), ECS_SCHED_OK);
    got = (const Affinity *)ecs_sched_relation_payload(w, e[0], aff, e[2]);
    assert_true(got->weight == 2.0f && got->tag == 9);
    assert_int_equal(ecs_sched_relate(w, e[0], aff, e[2], &a), ECS_SCHED_OK);
    got = (const Affinity *)ecs_sched_relation_payload(w, e[0], aff, e[2]);
    assert_true(got->weight == 0.5f && got->tag == 7);
    assert_null(ecs_sched_relation_payload(w, e[1], aff, e[2]));   /* a miss: nothing recorded */
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_OK);
    check_and_destroy(w);
}

/* A payload belongs to the relationship with one target: an exclusive kind related to a new
   target without a payload starts from zero, as any new relationship does (the old one is
   removed, its observers hear ON_REMOVE). */
static void a_new_target_of_an_exclusive_kind_without_a_payload_starts_from_zero(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_relation_desc d;
    ecs_sched_id guard;
    ecs_sched_entity e[3];
    Affinity a = {0.5f, 7};
    const Affinity *got;
    (void)state;
    memset(&d, 0, sizeof d);
    d.name = "Guards";
    d.exclusive = true;
    d.payload_size = sizeof(Affinity);
    d.payload_alignment = ECS_SCHED_ALIGNOF(Affinity);
    guard = ecs_sched_relation_register(w, &d);
    spawn_n(w, e, 3);
    assert_int_equal(ecs_sched_relate(w, e[0], guard, e[1], &a), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, e[0], guard, e[2], NULL), ECS_SCHED_OK);
    assert_true(ecs_sched_target(w, e[0], guard, 0) == e[2]);
    got = (const Affinity *)ecs_sched_relation_payload(w, e[0], guard, e[2]);
    assert_non_null(got);
    assert_true(got->weight == 0.0f && got->tag == 0);
    check_and_destroy(w);
}

static void a_query_field_holds_the_target_then_the_payload(void **state) {
    typedef struct { ecs_sched_entity target; Affinity payload; } AffinitySlot;
    ecs_sched_world *w = new_world();
    ecs_sched_id aff = affinity_kind(w);
    ecs_sched_entity e[2];
    Affinity a = {1.5f, 3};
    ecs_sched_iter it;
    const AffinitySlot *slot;
    (void)state;
    spawn_n(w, e, 2);
    assert_int_equal(ecs_sched_component_size(w, aff), sizeof(AffinitySlot));
    assert_int_equal(ecs_sched_relate(w, e[0], aff, e[1], &a), ECS_SCHED_OK);
    it = ecs_sched_query_iter(QUERY(w, ecs_sched_read(aff)));
    assert_true(ecs_sched_iter_next(&it));
    slot = ECS_SCHED_FIELD(&it, const AffinitySlot, 0);
    assert_true(slot[0].target == e[1]);
    assert_true(slot[0].payload.weight == 1.5f && slot[0].payload.tag == 3);
    check_and_destroy(w);
}

static void unrelating_the_last_target_takes_the_kind_away(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_entity e[2];
    ecs_sched_query *q;
    (void)state;
    spawn_n(w, e, 2);
    q = QUERY(w, ecs_sched_read(likes));
    assert_int_equal(ecs_sched_relate(w, e[0], likes, e[1], NULL), ECS_SCHED_OK);
    assert_int_equal(count_of_query(q), 1);
    assert_int_equal(ecs_sched_unrelate(w, e[0], likes, e[1]), ECS_SCHED_OK);
    assert_false(ecs_sched_has(w, e[0], likes));
    assert_int_equal(count_of_query(q), 0);
    assert_null(ecs_sched_sources(w, likes, e[1], NULL));
    assert_int_equal(ecs_sched_unrelate(w, e[0], likes, e[1]), ECS_SCHED_OK);   /* none left */
    check_and_destroy(w);
}

static void removing_the_kind_removes_every_target(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_entity e[4];
    int i;
    (void)state;
    spawn_n(w, e, 4);
    for (i = 1; i < 4; i++) assert_int_equal(ecs_sched_relate(w, e[0], likes, e[i], NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_remove(w, e[0], likes), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_target_count(w, e[0], likes), 0);
    for (i = 1; i < 4; i++) assert_null(ecs_sched_sources(w, likes, e[i], NULL));
    check_and_destroy(w);
}

/* ---- queries ---- */

static void a_related_term_matches_the_sources_of_that_target_only(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_entity e[6], bob, alice;
    ecs_sched_query *q;
    ecs_sched_iter it;
    int i, seen = 0;
    (void)state;
    spawn_n(w, e, 6);
    bob = e[4];
    alice = e[5];
    assert_int_equal(ecs_sched_relate(w, e[0], likes, bob, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, e[1], likes, alice, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, e[2], likes, alice, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, e[2], likes, bob, NULL), ECS_SCHED_OK);   /* second target */
    assert_int_equal(ecs_sched_relate(w, e[3], likes, alice, NULL), ECS_SCHED_OK);
    q = QUERY(w, ecs_sched_related(likes, bob));
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        for (i = 0; i < it.count; i++) {
            assert_true(it.entities[i] == e[0] || it.entities[i] == e[2]);
            seen++;
        }
    }
    assert_int_equal(seen, 2);
    seen = 0;
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next_rows(&it)) {
        for (i = 0; i < it.count; i++) {
            ecs_sched_entity s = it.entities[it.rows[i]];
            assert_true(s == e[0] || s == e[2]);
            seen++;
        }
    }
    assert_int_equal(seen, 2);
    assert_int_equal(count_of_query(QUERY(w, ecs_sched_related(likes, alice))), 3);
    assert_int_equal(ecs_sched_query_count(q), 2);   /* what it hands out */
    check_and_destroy(w);
}

static void a_related_term_and_a_changed_term_both_filter(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_id pos = ECS_SCHED_TRACKED_COMPONENT(w, Position);
    Position p = {1, 2};
    ecs_sched_entity e[4], bob = ecs_sched_spawn(w);
    ecs_sched_query *q;
    ecs_sched_iter it;
    int i, seen = 0;
    (void)state;
    for (i = 0; i < 4; i++) {
        e[i] = SPAWN(w, {pos, &p});
        if (i < 2) assert_int_equal(ecs_sched_relate(w, e[i], likes, bob, NULL), ECS_SCHED_OK);
    }
    q = QUERY(w, ecs_sched_changed(pos), ecs_sched_related(likes, bob));
    assert_int_equal(count_of_query(q), 2);   /* everything is new at the first look */
    assert_non_null(ecs_sched_get_mut(w, e[1], pos));
    assert_non_null(ecs_sched_get_mut(w, e[3], pos));   /* changed, but not bob's */
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        for (i = 0; i < it.count; i++) {
            assert_true(it.entities[i] == e[1]);
            seen++;
        }
    }
    assert_int_equal(seen, 1);
    check_and_destroy(w);
}

/* What a related query handed out: the sources seen (by entity index), how often, in how
   many runs, and how many of them did not have the target. */
typedef struct related_seen {
    ecs_sched_id likes;
    ecs_sched_entity target;
    int32_t times[512];
    int64_t rows, runs, strays;
} related_seen;

static void related_seen_row(ecs_sched_world *w, related_seen *seen, ecs_sched_entity e) {
    __atomic_add_fetch(&seen->times[ECS_SCHED_ENTITY_INDEX(e)], 1, __ATOMIC_ACQ_REL);
    __atomic_add_fetch(&seen->rows, 1, __ATOMIC_ACQ_REL);
    if (!ecs_sched_has_relation(w, e, seen->likes, seen->target)) {
        __atomic_add_fetch(&seen->strays, 1, __ATOMIC_ACQ_REL);
    }
}

static ecs_sched_world *related_piece_world;

static void related_piece(ecs_sched_iter *it, void *arg) {
    related_seen *seen = (related_seen *)arg;
    int32_t i;
    __atomic_add_fetch(&seen->runs, 1, __ATOMIC_ACQ_REL);
    for (i = 0; i < it->count; i++) related_seen_row(related_piece_world, seen, it->entities[i]);
}

static related_seen related_by_runs(ecs_sched_world *w, ecs_sched_query *q, ecs_sched_id likes,
                                    ecs_sched_entity target) {
    related_seen seen;
    ecs_sched_iter it = ecs_sched_query_iter(q);
    memset(&seen, 0, sizeof seen);
    seen.likes = likes;
    seen.target = target;
    related_piece_world = w;
    while (ecs_sched_iter_next(&it)) related_piece(&it, &seen);
    return seen;
}

static related_seen related_by_index(ecs_sched_world *w, ecs_sched_query *q, ecs_sched_id likes,
                                     ecs_sched_entity target) {
    related_seen seen;
    ecs_sched_iter it = ecs_sched_query_iter(q);
    int32_t i;
    memset(&seen, 0, sizeof seen);
    seen.likes = likes;
    seen.target = target;
    while (ecs_sched_iter_next_rows(&it)) {
        for (i = 0; i < it.count; i++) related_seen_row(w, &seen, it.entities[it.rows[i]]);
    }
    return seen;
}

static related_seen related_in_parallel(ecs_sched_world *w, ecs_sched_query *q,
                                        ecs_sched_id likes, ecs_sched_entity target) {
    related_seen seen;
    ecs_sched_pool *pool = ecs_sched_pool_create(&(ecs_sched_pool_desc){.thread_count = 2});
    assert_non_null(pool);
    memset(&seen, 0, sizeof seen);
    seen.likes = likes;
    seen.target = target;
    related_piece_world = w;
    ecs_sched_query_par_iter(q, pool, 16, related_piece, &seen);
    ecs_sched_pool_destroy(pool);
    return seen;
}

static void check_related_seen(const related_seen *seen, const bool *expected, int32_t n) {
    int32_t i, wrong = 0;
    for (i = 0; i < n; i++) wrong += seen->times[i] != (expected[i] ? 1 : 0);
    assert_int_equal(wrong, 0);
    assert_int_equal(seen->strays, 0);
}

/* 300 sources in one table, in runs: two like bob, the next likes alice, and so on (and
   more entities without the kind): every way of iterating a query of bob's sources hands
   out each of them once, by runs as long as they go, and so does one that also filters on
   changes. */
static void every_iteration_of_a_related_query_hands_out_each_source_once(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_id pos = ECS_SCHED_TRACKED_COMPONENT(w, Position);
    ecs_sched_entity e[400], bob = ecs_sched_spawn(w), alice = ecs_sched_spawn(w);
    ecs_sched_query *filtered[3];
    related_seen seen;
    bool expected[512];
    Position p = {1, 2};
    int32_t i, sources = 0, runs = 0;
    (void)state;
    memset(expected, 0, sizeof expected);
    for (i = 0; i < 400; i++) {
        e[i] = SPAWN(w, {pos, &p});
        assert_true(ECS_SCHED_ENTITY_INDEX(e[i]) < 512);
        if (i >= 300) continue;
        assert_int_equal(ecs_sched_relate(w, e[i], likes, i % 3 == 2 ? alice : bob, NULL),
                         ECS_SCHED_OK);
        expected[ECS_SCHED_ENTITY_INDEX(e[i])] = i % 3 != 2;
        sources += i % 3 != 2;
        runs += i % 3 == 0;
    }
    for (i = 0; i < 3; i++) filtered[i] = QUERY(w, ecs_sched_changed(pos), ecs_sched_related(likes, bob));
    seen = related_by_runs(w, QUERY(w, ecs_sched_read(pos), ecs_sched_related(likes, bob)), likes, bob);
    check_related_seen(&seen, expected, 512);
    assert_int_equal(seen.runs, runs);   /* each run of bob's sources whole */
    seen = related_by_index(w, QUERY(w, ecs_sched_related(likes, bob)), likes, bob);
    check_related_seen(&seen, expected, 512);
    seen = related_in_parallel(w, QUERY(w, ecs_sched_related(likes, bob)), likes, bob);
    check_related_seen(&seen, expected, 512);
    assert_int_equal(ecs_sched_query_count(QUERY(w, ecs_sched_related(likes, bob))), sources);
    for (i = 0; i < 3; i++) (void)count_of_query(filtered[i]);   /* everything new, seen */
    memset(expected, 0, sizeof expected);
    for (i = 0; i < 400; i += 4) {
        assert_non_null(ecs_sched_get_mut(w, e[i], pos));
        expected[ECS_SCHED_ENTITY_INDEX(e[i])] = i < 300 && i % 3 != 2;
    }
    seen = related_by_runs(w, filtered[0], likes, bob);
    check_related_seen(&seen, expected, 512);
    seen = related_by_index(w, filtered[1], likes, bob);
    check_related_seen(&seen, expected, 512);
    seen = related_in_parallel(w, filtered[2], likes, bob);
    check_related_seen(&seen, expected, 512);
    check_and_destroy(w);
}

static void a_without_term_matches_entities_with_no_target_of_the_kind(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    Position p = {1, 2};
    ecs_sched_entity a = SPAWN(w, {pos, &p}), b = SPAWN(w, {pos, &p});
    (void)state;
    assert_int_equal(ecs_sched_relate(w, a, likes, b, NULL), ECS_SCHED_OK);
    assert_int_equal(count_of_query(QUERY(w, ecs_sched_read(pos), ecs_sched_without(likes))), 1);
    assert_int_equal(count_of_query(QUERY(w, ecs_sched_read(pos), ecs_sched_read(likes))), 1);
    check_and_destroy(w);
}

static void a_related_term_on_a_component_or_a_dead_target_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_entity gone = ecs_sched_spawn(w);
    (void)state;
    assert_null(QUERY(w, ecs_sched_related(pos, gone)));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_QUERY);
    assert_contains(ecs_sched_last_error(w), "'Position'");
    assert_int_equal(ecs_sched_despawn(w, gone), ECS_SCHED_OK);
    assert_null(QUERY(w, ecs_sched_related(likes, gone)));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_STALE_ENTITY);
    check_and_destroy(w);
}

static void writing_a_kind_without_payload_is_refused_but_its_payload_may_be_written(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w), aff = affinity_kind(w);
    (void)state;
    assert_null(QUERY(w, ecs_sched_write(likes)));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_QUERY);
    assert_contains(ecs_sched_last_error(w), "'Likes'");
    assert_non_null(QUERY(w, ecs_sched_write(aff)));
    check_and_destroy(w);
}

static void a_related_query_counts_as_reading_the_kind(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_entity bob = ecs_sched_spawn(w);
    ecs_sched_access a;
    (void)state;
    a = ecs_sched_query_access(QUERY(w, ecs_sched_related(likes, bob)));
    assert_int_equal(a.read_count, 1);
    assert_int_equal(a.reads[0], likes);
    assert_int_equal(a.write_count, 0);
    check_and_destroy(w);
}

/* ---- despawning ---- */

static void despawning_a_target_takes_the_relationship_away_by_default(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_entity e[3];
    (void)state;
    spawn_n(w, e, 3);
    assert_int_equal(ecs_sched_relate(w, e[0], likes, e[1], NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, e[0], likes, e[2], NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, e[1]), ECS_SCHED_OK);
    assert_true(ecs_sched_is_alive(w, e[0]));
    assert_int_equal(ecs_sched_target_count(w, e[0], likes), 1);
    assert_true(ecs_sched_target(w, e[0], likes, 0) == e[2]);
    assert_int_equal(ecs_sched_despawn(w, e[2]), ECS_SCHED_OK);
    assert_false(ecs_sched_has(w, e[0], likes));
    check_and_destroy(w);
}

static void despawning_a_target_despawns_its_sources_when_the_kind_says_so(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id owned = kind_of(w, "OwnedBy", false, ECS_SCHED_TARGET_DESPAWN_SOURCES);
    ecs_sched_entity e[5];
    (void)state;
    spawn_n(w, e, 5);
    assert_int_equal(ecs_sched_relate(w, e[1], owned, e[0], NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, e[2], owned, e[1], NULL), ECS_SCHED_OK);   /* in turn */
    assert_int_equal(ecs_sched_relate(w, e[3], owned, e[4], NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, e[0]), ECS_SCHED_OK);
    assert_false(ecs_sched_is_alive(w, e[1]));
    assert_false(ecs_sched_is_alive(w, e[2]));
    assert_true(ecs_sched_is_alive(w, e[3]) && ecs_sched_is_alive(w, e[4]));
    assert_int_equal(ecs_sched_entity_count(w), 2);
    check_and_destroy(w);
}

/* A ring of an exclusive kind that despawns its sources (a kind not acyclic may close one):
   despawning any entity of it despawns the whole ring, each once, short or long. */
static void despawning_an_entity_of_a_ring_that_despawns_its_sources_despawns_the_ring(void **state) {
    static const int32_t sizes[] = {2, 20};
    int32_t s, i;
    (void)state;
    for (s = 0; s < 2; s++) {
        ecs_sched_world *w = new_world();
        ecs_sched_id follows = kind_of(w, "Follows", true, ECS_SCHED_TARGET_DESPAWN_SOURCES);
        ecs_sched_entity e[20], other[2];
        spawn_n(w, e, sizes[s]);
        spawn_n(w, other, 2);
        for (i = 0; i < sizes[s]; i++) {
            assert_int_equal(ecs_sched_relate(w, e[i], follows, e[(i + 1) % sizes[s]], NULL), ECS_SCHED_OK);
        }
        assert_int_equal(ecs_sched_relate(w, other[0], follows, other[1], NULL), ECS_SCHED_OK);
        assert_int_equal(ecs_sched_despawn(w, e[sizes[s] / 2]), ECS_SCHED_OK);
        for (i = 0; i < sizes[s]; i++) assert_false(ecs_sched_is_alive(w, e[i]));
        assert_int_equal(ecs_sched_entity_count(w), 2);
        assert_true(ecs_sched_has_relation(w, other[0], follows, other[1]));
        check_and_destroy(w);
    }
}

static void a_kind_that_refuses_keeps_its_target_alive_and_names_both(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id guards = kind_of(w, "Guards", true, ECS_SCHED_TARGET_REFUSE);
    ecs_sched_entity e[2];
    char who[64];
    (void)state;
    spawn_n(w, e, 2);
    assert_int_equal(ecs_sched_relate(w, e[0], guards, e[1], NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, e[1]), ECS_SCHED_ERR_REFUSED);
    assert_true(ecs_sched_is_alive(w, e[1]));
    assert_true(ecs_sched_has_relation(w, e[0], guards, e[1]));
    assert_contains(ecs_sched_last_error(w), "'Guards'");
    snprintf(who, sizeof who, "entity %u", (unsigned)ECS_SCHED_ENTITY_INDEX(e[1]));
    assert_contains(ecs_sched_last_error(w), who);
    snprintf(who, sizeof who, "entity %u", (unsigned)ECS_SCHED_ENTITY_INDEX(e[0]));
    assert_contains(ecs_sched_last_error(w), who);
    /* the source goes first, then the target may go */
    assert_int_equal(ecs_sched_despawn(w, e[0]), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, e[1]), ECS_SCHED_OK);
    check_and_destroy(w);
}

static void a_source_that_goes_leaves_its_targets_lists(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_entity e[4];
    char text[64];
    (void)state;
    spawn_n(w, e, 4);
    assert_int_equal(ecs_sched_relate(w, e[0], likes, e[3], NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, e[1], likes, e[3], NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, e[2], likes, e[3], NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, e[1], likes, e[0], NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, e[1]), ECS_SCHED_OK);
    sources_text(w, likes, e[3], e, 4, text);
    assert_string_equal(text, "0 2");
    sources_text(w, likes, e[0], e, 4, text);
    assert_string_equal(text, "-");
    check_and_destroy(w);
}

static void a_parent_that_likes_its_child_despawns_cleanly_with_it(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_entity parent = ecs_sched_spawn(w), child = ecs_sched_spawn(w), fan = ecs_sched_spawn(w);
    (void)state;
    assert_int_equal(ecs_sched_set_parent(w, child, parent), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, parent, likes, child, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, fan, likes, child, NULL), ECS_SCHED_OK);
    /* the child goes first and drops its list; the parent's own link then finds it gone */
    assert_int_equal(ecs_sched_despawn(w, parent), ECS_SCHED_OK);
    assert_false(ecs_sched_is_alive(w, child));
    assert_false(ecs_sched_has(w, fan, likes));
    assert_int_equal(ecs_sched_world_check(w), ECS_SCHED_OK);
    check_and_destroy(w);
}

/* ---- bad input ---- */

static void relating_to_a_dead_target_fails_and_changes_nothing(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_entity e[2];
    (void)state;
    spawn_n(w, e, 2);
    assert_int_equal(ecs_sched_despawn(w, e[1]), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, e[0], likes, e[1], NULL), ECS_SCHED_ERR_STALE_ENTITY);
    assert_contains(ecs_sched_last_error(w), "'Likes'");
    assert_false(ecs_sched_has(w, e[0], likes));
    assert_int_equal(ecs_sched_relate(w, e[1], likes, e[0], NULL), ECS_SCHED_ERR_STALE_ENTITY);
    assert_null(ecs_sched_sources(w, likes, e[0], NULL));
    check_and_destroy(w);
}

static void relating_with_a_component_that_is_no_kind_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_entity e[2];
    (void)state;
    spawn_n(w, e, 2);
    assert_int_equal(ecs_sched_relate(w, e[0], pos, e[1], NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "'Position' is a component, not a relationship kind");
    assert_false(ecs_sched_has(w, e[0], pos));
    check_and_destroy(w);
}

static void inserting_a_kind_like_a_component_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_entity e[2];
    ecs_sched_commands *cmd;
    (void)state;
    spawn_n(w, e, 2);
    assert_int_equal(ecs_sched_insert(w, e[0], likes, &e[1]), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "'Likes' is a relationship kind");
    assert_false(ecs_sched_has(w, e[0], likes));
    assert_true(ecs_sched_spawn_with(w, 1, &likes, NULL) == ECS_SCHED_NULL_ENTITY);
    cmd = new_commands(w);
    assert_int_equal(ecs_sched_commands_insert(cmd, e[0], likes, &e[1]), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_commands_pending(cmd), 0);
    check_and_destroy(w);
}

static void registering_a_kind_again_with_other_properties_fails(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_relation_desc d;
    (void)state;
    memset(&d, 0, sizeof d);
    d.name = "Likes";
    assert_int_equal(ecs_sched_relation_register(w, &d), likes);   /* the same: the same id */
    d.exclusive = true;
    assert_int_equal(ecs_sched_relation_register(w, &d), 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_COMPONENT_MISMATCH);
    ECS_SCHED_COMPONENT(w, Position);
    d.name = "Position";
    assert_int_equal(ecs_sched_relation_register(w, &d), 0);
    assert_contains(ecs_sched_last_error(w), "as a component");
    assert_false(ecs_sched_is_relation(w, ecs_sched_component_lookup(w, "Position")));
    assert_true(ecs_sched_is_relation(w, likes));
    assert_true(ecs_sched_is_relation(w, ecs_sched_child_of(w)));
    check_and_destroy(w);
}

/* ---- commands and observers ---- */

static void commands_relate_and_unrelate_when_applied(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id aff = affinity_kind(w);
    ecs_sched_entity e[3];
    ecs_sched_commands *cmd = new_commands(w);
    Affinity a = {4.0f, 1};
    const Affinity *got;
    (void)state;
    spawn_n(w, e, 3);
    assert_int_equal(ecs_sched_commands_relate(cmd, e[0], aff, e[1], &a), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_relate(cmd, e[0], aff, e[2], NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_unrelate(cmd, e[0], aff, e[2]), ECS_SCHED_OK);
    assert_false(ecs_sched_has(w, e[0], aff));
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_target_count(w, e[0], aff), 1);
    got = (const Affinity *)ecs_sched_relation_payload(w, e[0], aff, e[1]);
    assert_true(got && got->weight == 4.0f && got->tag == 1);
    check_and_destroy(w);
}

static void a_relate_command_whose_target_died_is_skipped(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_entity e[2];
    ecs_sched_commands *cmd = new_commands(w);
    (void)state;
    spawn_n(w, e, 2);
    assert_int_equal(ecs_sched_commands_relate(cmd, e[0], likes, e[1], NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, e[1]), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_skipped(cmd), 1);
    assert_false(ecs_sched_has(w, e[0], likes));
    check_and_destroy(w);
}

static void a_relate_command_may_name_an_entity_the_buffer_spawns(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_commands *cmd = new_commands(w);
    ecs_sched_entity a, b;
    (void)state;
    a = ecs_sched_commands_spawn(cmd);
    b = ecs_sched_commands_spawn(cmd);
    assert_int_equal(ecs_sched_commands_relate(cmd, a, likes, b, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_true(ecs_sched_has_relation(w, a, likes, b));
    check_and_destroy(w);
}

static char g_events[256];

static void note_event(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    const ecs_sched_entity *e = (const ecs_sched_entity *)ecs_sched_ctx_user_data(ctx);
    int s, k;
    for (s = 0; e[s] != t->entity; s++) {}
    for (k = 0; e[k] != t->target; k++) {}
    sprintf(g_events + strlen(g_events), "%s%d>%d ",
            t->event == ECS_SCHED_ON_ADD ? "add" : t->event == ECS_SCHED_ON_INSERT ? "ins" : "rem",
            s, k);
}

static void observers_hear_each_relationship_with_its_target(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_entity e[4];
    ecs_sched_observer_event ev[3] = {ECS_SCHED_ON_ADD, ECS_SCHED_ON_INSERT, ECS_SCHED_ON_REMOVE};
    int i;
    (void)state;
    spawn_n(w, e, 4);
    g_events[0] = '\0';
    for (i = 0; i < 3; i++) {
        ecs_sched_observer_desc d;
        memset(&d, 0, sizeof d);
        d.event = ev[i];
        d.component = likes;
        d.fn = note_event;
        d.user_data = e;
        assert_true(ecs_sched_observer_add(w, &d) != 0);
    }
    assert_int_equal(ecs_sched_relate(w, e[0], likes, e[1], NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, e[0], likes, e[2], NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_unrelate(w, e[0], likes, e[1]), ECS_SCHED_OK);
    assert_string_equal(g_events, "add0>1 ins0>1 add0>2 ins0>2 rem0>1 ");
    g_events[0] = '\0';
    assert_int_equal(ecs_sched_relate(w, e[0], likes, e[3], NULL), ECS_SCHED_OK);
    g_events[0] = '\0';
    assert_int_equal(ecs_sched_despawn(w, e[0]), ECS_SCHED_OK);   /* one ON_REMOVE per target */
    assert_true(strstr(g_events, "rem0>2 ") != NULL);
    assert_true(strstr(g_events, "rem0>3 ") != NULL);
    assert_int_equal(count_of(g_events, "rem"), 2);
    check_and_destroy(w);
}

static ecs_sched_id g_likes;
static ecs_sched_entity g_fan, g_star;

static void relate_fan_on_add(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    (void)t;
    assert_int_equal(ecs_sched_relate(w, g_fan, g_likes, g_star, NULL), ECS_SCHED_OK);
    assert_false(ecs_sched_has(w, g_fan, g_likes));   /* deferred */
}

static void a_relationship_made_in_an_observer_is_applied_after_the_change(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_observer_desc d;
    Position p = {0, 0};
    (void)state;
    g_likes = likes_kind(w);
    g_fan = ecs_sched_spawn(w);
    g_star = ecs_sched_spawn(w);
    memset(&d, 0, sizeof d);
    d.event = ECS_SCHED_ON_ADD;
    d.component = pos;
    d.fn = relate_fan_on_add;
    assert_true(ecs_sched_observer_add(w, &d) != 0);
    assert_int_equal(ecs_sched_insert(w, g_star, pos, &p), ECS_SCHED_OK);
    assert_true(ecs_sched_has_relation(w, g_fan, g_likes, g_star));
    check_and_destroy(w);
}

/* ---- systems ---- */

static ecs_sched_entity g_bob;
static int g_seen;

static void count_bob_fans(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    g_seen = 0;
    while (ecs_sched_iter_next(&it)) g_seen += it.count;
}

static void relate_in_commands(ecs_sched_system_ctx *ctx) {
    ecs_sched_entity fan = ecs_sched_commands_spawn(ecs_sched_ctx_commands(ctx));
    assert_int_equal(ecs_sched_commands_relate(ecs_sched_ctx_commands(ctx), fan, g_likes, g_bob,
                                               NULL), ECS_SCHED_OK);
}

static void systems_relate_through_commands_and_query_by_target(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_likes = likes_kind(w);
    g_bob = ecs_sched_spawn(w);
    ADD_SYSTEM(w, .name = "befriend", .fn = relate_in_commands, .commands = true);
    ADD_SYSTEM(w, .name = "count", .fn = count_bob_fans, .after = {"befriend"},
               .queries = {{{ecs_sched_related(g_likes, g_bob)}}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_seen, 1);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_seen, 2);
    check_and_destroy(w);
}

/* The world pointer, kept from before the run (a system that is not exclusive does not get
   it from its context). */
static void relate_directly(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *w = (ecs_sched_world *)ecs_sched_ctx_user_data(ctx);
    g_seen = ecs_sched_relate(w, g_fan, g_likes, g_bob, NULL);
}

static void relating_directly_from_a_system_that_may_not_change_the_world_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_likes = likes_kind(w);
    g_bob = ecs_sched_spawn(w);
    g_fan = ecs_sched_spawn(w);
    ADD_SYSTEM(w, .name = "sneaky", .fn = relate_directly, .user_data = w);
    ecs_sched_run_schedule(w, UPDATE);
    assert_int_equal(g_seen, ECS_SCHED_ERR_ACCESS);
    assert_false(ecs_sched_has(w, g_fan, g_likes));
    check_and_destroy(w);
}

/* ---- access ---- */

static void error_on_ambiguity(ecs_sched_world *w) {
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &(ecs_sched_schedule_desc){
                         .ambiguities = ECS_SCHED_REPORT_ERROR}), ECS_SCHED_OK);
}

static void writing_a_payload_and_reading_the_kind_are_ambiguous(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id aff = affinity_kind(w);
    ecs_sched_entity bob = ecs_sched_spawn(w);
    (void)state;
    error_on_ambiguity(w);
    ADD_SYSTEM(w, .name = "tune", .fn = noop, .queries = {{{ecs_sched_write(aff)}}});
    ADD_SYSTEM(w, .name = "fans", .fn = noop, .queries = {{{ecs_sched_related(aff, bob)}}});
    assert_int_equal(ecs_sched_schedule_build(w, UPDATE), ECS_SCHED_ERR_AMBIGUITY);
    assert_contains(ecs_sched_last_error(w), "'tune'");
    assert_contains(ecs_sched_last_error(w), "'fans'");
    assert_contains(ecs_sched_last_error(w), "'AffinityTo'");
    check_and_destroy(w);
}

static void reading_from_parents_conflicts_with_writers_of_entities_the_query_does_not_match(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position), vel = ECS_SCHED_COMPONENT(w, Velocity);
    ecs_sched_id child_of = ecs_sched_child_of(w);
    (void)state;
    error_on_ambiguity(w);
    /* the roots (no ChildOf) and the children (ChildOf) never share an entity, but the
       children read their parents' Position, which the first writes */
    ADD_SYSTEM(w, .name = "move_roots", .fn = noop,
               .queries = {{{ecs_sched_write(pos), ecs_sched_without(child_of)}}});
    ADD_SYSTEM(w, .name = "follow", .fn = noop,
               .queries = {{{ecs_sched_write(vel), ecs_sched_read(child_of),
                             ecs_sched_from_parent(pos)}}});
    assert_int_equal(ecs_sched_schedule_build(w, UPDATE), ECS_SCHED_ERR_AMBIGUITY);
    assert_contains(ecs_sched_last_error(w), "'move_roots'");
    assert_contains(ecs_sched_last_error(w), "'follow'");
    check_and_destroy(w);
}

static void queries_of_disjoint_entities_reading_their_own_values_stay_apart(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_id child_of = ecs_sched_child_of(w);
    (void)state;
    error_on_ambiguity(w);
    ADD_SYSTEM(w, .name = "move_roots", .fn = noop,
               .queries = {{{ecs_sched_write(pos), ecs_sched_without(child_of)}}});
    ADD_SYSTEM(w, .name = "move_children", .fn = noop,
               .queries = {{{ecs_sched_write(pos), ecs_sched_read(child_of)}}});
    assert_int_equal(ecs_sched_schedule_build(w, UPDATE), ECS_SCHED_OK);
    check_and_destroy(w);
}

static void relating_an_entity_to_itself_is_refused_for_every_kind(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_entity e[1];
    ecs_sched_commands *cmd;
    (void)state;
    spawn_n(w, e, 1);
    assert_int_equal(ecs_sched_relate(w, e[0], likes, e[0], NULL), ECS_SCHED_ERR_RELATION_CYCLE);
    assert_contains(ecs_sched_last_error(w), "itself");
    assert_contains(ecs_sched_last_error(w), "'Likes'");
    assert_false(ecs_sched_has(w, e[0], likes));
    cmd = new_commands(w);
    assert_int_equal(ecs_sched_commands_relate(cmd, e[0], likes, e[0], NULL), ECS_SCHED_ERR_RELATION_CYCLE);
    assert_int_equal(ecs_sched_commands_pending(cmd), 0);
    check_and_destroy(w);
}

/* ---- rarely used arguments, each refusal naming the culprit ---- */

static void a_relation_desc_with_a_bad_policy_or_alignment_is_refused_by_name(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_relation_desc d;
    (void)state;
    memset(&d, 0, sizeof d);
    d.name = "Odd";
    d.on_target_despawn = (ecs_sched_target_despawn)7;
    assert_int_equal(ecs_sched_relation_register(w, &d), 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "relation_register('Odd'): on_target_despawn 7"));
    d.on_target_despawn = ECS_SCHED_TARGET_REMOVE;
    d.payload_size = 4;
    d.payload_alignment = 3;
    assert_int_equal(ecs_sched_relation_register(w, &d), 0);
    assert_non_null(strstr(ecs_sched_last_error(w), "payload alignment 3 is not a power of two"));
    d.payload_alignment = 2 * ECS_SCHED_MAX_ALIGNMENT;
    assert_int_equal(ecs_sched_relation_register(w, &d), 0);
    assert_non_null(strstr(ecs_sched_last_error(w), "payload alignment 128"));
    assert_int_equal(ecs_sched_relation_register(w, NULL), 0);
    assert_non_null(strstr(ecs_sched_last_error(w), "a relationship kind needs a name"));
    d.name = "";
    assert_int_equal(ecs_sched_relation_register(w, &d), 0);
    assert_non_null(strstr(ecs_sched_last_error(w), "a relationship kind needs a name"));
    assert_int_equal(ecs_sched_component_lookup(w, "Odd"), 0);
    check_and_destroy(w);
}

static void registering_a_kind_again_with_other_properties_is_a_mismatch(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id affinity = affinity_kind(w);
    ecs_sched_relation_desc d;
    (void)state;
    memset(&d, 0, sizeof d);
    d.name = "AffinityTo";
    d.payload_size = sizeof(Affinity);
    d.payload_alignment = ECS_SCHED_ALIGNOF(Affinity);
    assert_int_equal(ecs_sched_relation_register(w, &d), affinity);
    d.payload_size = 2 * sizeof(Affinity);
    assert_int_equal(ecs_sched_relation_register(w, &d), 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_COMPONENT_MISMATCH);
    assert_non_null(strstr(ecs_sched_last_error(w),
                           "'AffinityTo' is registered already, as a relationship with other"));
    ECS_SCHED_COMPONENT(w, Position);
    memset(&d, 0, sizeof d);
    d.name = "Position";
    assert_int_equal(ecs_sched_relation_register(w, &d), 0);
    assert_non_null(strstr(ecs_sched_last_error(w), "'Position' is registered already, as a component"));
    assert_false(ecs_sched_is_relation(w, ecs_sched_component_lookup(w, "Position")));
    check_and_destroy(w);
}

static void a_cycle_through_an_exclusive_acyclic_kind_is_refused_with_its_path(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_relation_desc d;
    ecs_sched_id follows;
    ecs_sched_entity a = ecs_sched_spawn(w), b = ecs_sched_spawn(w), c = ecs_sched_spawn(w);
    (void)state;
    memset(&d, 0, sizeof d);
    d.name = "Follows";
    d.exclusive = true;
    d.acyclic = true;
    follows = ecs_sched_relation_register(w, &d);
    assert_true(follows != 0);
    assert_int_equal(ecs_sched_relate(w, a, follows, b, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, b, follows, c, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, c, follows, a, NULL), ECS_SCHED_ERR_RELATION_CYCLE);
    assert_non_null(strstr(ecs_sched_last_error(w), "with 'Follows' would make a cycle"));
    assert_non_null(strstr(ecs_sched_last_error(w), " -> "));
    assert_non_null(strstr(ecs_sched_last_error(w), "and 'Follows' is acyclic"));
    assert_int_equal(ecs_sched_relate(w, c, follows, c, NULL), ECS_SCHED_ERR_RELATION_CYCLE);
    assert_false(ecs_sched_has_relation(w, c, follows, ECS_SCHED_NULL_ENTITY));
    assert_int_equal(ecs_sched_target(w, a, follows, 0), b);
    check_and_destroy(w);
}

static void reading_relationships_with_bad_arguments_answers_nothing(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_entity a = ecs_sched_spawn(w), b = ecs_sched_spawn(w), c = ecs_sched_spawn(w);
    int32_t count = 7;
    (void)state;
    assert_int_equal(ecs_sched_relate(w, a, likes, b, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, a, likes, c, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_target(w, a, likes, 1), c);
    assert_int_equal(ecs_sched_target(w, a, likes, 2), ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_target(w, a, likes, -1), ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_target(w, b, likes, 0), ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_target(w, a, pos, 0), ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_target_count(w, a, pos), 0);
    assert_false(ecs_sched_has_relation(w, a, pos, b));
    assert_null(ecs_sched_sources(w, pos, b, &count));
    assert_int_equal(count, 0);
    assert_non_null(ecs_sched_sources(w, likes, b, NULL));
    assert_null(ecs_sched_sources(w, likes, a, &count));   /* no target */
    assert_int_equal(count, 0);
    check_and_destroy(w);
}

static void the_payload_of_a_kind_without_one_or_of_a_component_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_entity a = ecs_sched_spawn(w), b = ecs_sched_spawn(w), gone = ecs_sched_spawn(w);
    (void)state;
    assert_int_equal(ecs_sched_relate(w, a, likes, b, NULL), ECS_SCHED_OK);
    assert_null(ecs_sched_relation_payload(w, a, likes, b));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "has no payload in its 'Likes' to"));
    assert_null(ecs_sched_relation_payload(w, a, pos, b));
    assert_non_null(strstr(ecs_sched_last_error(w),
                           "relation_payload: 'Position' is a component, not a relationship kind"));
    assert_null(ecs_sched_relation_payload(w, a, 4000, b));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_int_equal(ecs_sched_despawn(w, gone), ECS_SCHED_OK);
    assert_null(ecs_sched_relation_payload(w, a, likes, gone));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_STALE_ENTITY);
    assert_non_null(strstr(ecs_sched_last_error(w), "relation_payload (the target)"));
    check_and_destroy(w);
}

static void unrelating_with_bad_arguments_is_refused_and_a_missing_pair_is_no_error(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_entity a = ecs_sched_spawn(w), b = ecs_sched_spawn(w), gone = ecs_sched_spawn(w);
    (void)state;
    assert_int_equal(ecs_sched_despawn(w, gone), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_unrelate(w, a, pos, b), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "unrelate: 'Position' is a component"));
    assert_int_equal(ecs_sched_unrelate(w, a, likes, gone), ECS_SCHED_ERR_STALE_ENTITY);
    assert_non_null(strstr(ecs_sched_last_error(w), "unrelate (target)"));
    assert_int_equal(ecs_sched_unrelate(w, gone, likes, a), ECS_SCHED_ERR_STALE_ENTITY);
    assert_int_equal(ecs_sched_unrelate(w, a, likes, b), ECS_SCHED_OK);
    check_and_destroy(w);
}

static void recording_a_relate_of_a_component_is_refused_at_once(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_entity a = ecs_sched_spawn(w), b = ecs_sched_spawn(w);
    ecs_sched_commands *cmd = ecs_sched_commands_create(w);
    (void)state;
    assert_int_equal(ecs_sched_commands_relate(cmd, a, pos, b, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "commands_relate: 'Position' is a component"));
    assert_int_equal(ecs_sched_commands_unrelate(cmd, a, pos, b), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "commands_unrelate: 'Position' is a component"));
    assert_int_equal(ecs_sched_commands_pending(cmd), 0);
    assert_int_equal(ecs_sched_commands_relate(cmd, a, likes, b, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_true(ecs_sched_has_relation(w, a, likes, b));
    assert_int_equal(ecs_sched_commands_unrelate(cmd, a, likes, b), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_false(ecs_sched_has_relation(w, a, likes, b));
    ecs_sched_commands_destroy(cmd);
    check_and_destroy(w);
}

/* ---- despawning trees ---- */

static void despawning_a_tree_of_named_entities_forgets_their_names(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_entity root = ecs_sched_spawn(w), child = ecs_sched_spawn(w), leaf = ecs_sched_spawn(w);
    (void)state;
    assert_int_equal(ecs_sched_set_parent(w, child, root), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, leaf, child), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(w, root, "root"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(w, leaf, "leaf"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_lookup(w, child, "leaf"), leaf);
    assert_int_equal(ecs_sched_lookup(w, ECS_SCHED_NULL_ENTITY, "root"), root);
    assert_int_equal(ecs_sched_despawn(w, root), ECS_SCHED_OK);
    assert_false(ecs_sched_is_alive(w, child));
    assert_false(ecs_sched_is_alive(w, leaf));
    assert_int_equal(ecs_sched_lookup(w, ECS_SCHED_NULL_ENTITY, "root"), ECS_SCHED_NULL_ENTITY);
    root = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_set_name(w, root, "root"), ECS_SCHED_OK);   /* free again */
    assert_int_equal(ecs_sched_lookup(w, ECS_SCHED_NULL_ENTITY, "root"), root);
    check_and_destroy(w);
}

static void despawning_a_large_tree_spread_over_the_indices_takes_every_child(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_entity root = ecs_sched_spawn(w), children[20], spacers[200];
    int i, k, spacer = 0;
    (void)state;
    for (i = 0; i < 20; i++) {
        children[i] = ecs_sched_spawn(w);
        assert_int_equal(ecs_sched_set_parent(w, children[i], root), ECS_SCHED_OK);
        for (k = 0; k < 10; k++) spacers[spacer++] = ecs_sched_spawn(w);
    }
    assert_int_equal(ecs_sched_entity_count(w), 221);
    assert_int_equal(ecs_sched_despawn(w, root), ECS_SCHED_OK);
    for (i = 0; i < 20; i++) assert_false(ecs_sched_is_alive(w, children[i]));
    for (i = 0; i < 200; i++) assert_true(ecs_sched_is_alive(w, spacers[i]));
    assert_int_equal(ecs_sched_entity_count(w), 200);
    check_and_destroy(w);
}

static void despawning_a_large_dense_tree_takes_every_child(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_entity root = ecs_sched_spawn(w), children[40];
    int i;
    (void)state;
    for (i = 0; i < 40; i++) {
        children[i] = ecs_sched_spawn(w);
        assert_int_equal(ecs_sched_set_parent(w, children[i], i < 20 ? root : children[i - 20]),
                         ECS_SCHED_OK);
    }
    assert_int_equal(ecs_sched_despawn(w, root), ECS_SCHED_OK);
    for (i = 0; i < 40; i++) assert_false(ecs_sched_is_alive(w, children[i]));
    assert_int_equal(ecs_sched_entity_count(w), 0);
    check_and_destroy(w);
}

/* ---- observers and relationships, commands with stale entities ---- */

static char g_heard[256];
static ecs_sched_world *g_rel_world;

static void hear(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    size_t n = strlen(g_heard);
    snprintf(g_heard + n, sizeof g_heard - n, "%s%s:%u", n ? " " : "", ecs_sched_ctx_name(ctx),
             (unsigned)ECS_SCHED_ENTITY_INDEX(t->target ? t->target : t->entity));
}

static void add_hearing(ecs_sched_world *w, const char *name, ecs_sched_observer_event event,
                        ecs_sched_id component, ecs_sched_observer_fn fn) {
    ecs_sched_observer_desc d;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.event = event;
    d.component = component;
    d.fn = fn;
    assert_true(ecs_sched_observer_add(w, &d) != 0);
}

static void despawning_a_source_of_several_targets_is_heard_once_per_target(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_entity a = ecs_sched_spawn(w), b = ecs_sched_spawn(w), c = ecs_sched_spawn(w);
    char expected[64];
    (void)state;
    g_heard[0] = '\0';
    assert_int_equal(ecs_sched_relate(w, a, likes, b, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, a, likes, c, NULL), ECS_SCHED_OK);
    add_hearing(w, "gone", ECS_SCHED_ON_REMOVE, likes, hear);
    assert_int_equal(ecs_sched_despawn(w, a), ECS_SCHED_OK);
    snprintf(expected, sizeof expected, "gone:%u gone:%u", (unsigned)ECS_SCHED_ENTITY_INDEX(b),
             (unsigned)ECS_SCHED_ENTITY_INDEX(c));
    assert_string_equal(g_heard, expected);
    check_and_destroy(w);
}

static ecs_sched_id g_likes;
static ecs_sched_entity g_liked;

static void unrelate_inside(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    (void)ctx;
    assert_int_equal(ecs_sched_unrelate(g_rel_world, t->entity, g_likes, g_liked), ECS_SCHED_OK);
    /* deferred: still there while the observer runs */
    assert_true(ecs_sched_has_relation(g_rel_world, t->entity, g_likes, g_liked));
}

static void an_unrelate_inside_an_observer_is_applied_after_it(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_entity a = ecs_sched_spawn(w);
    (void)state;
    g_rel_world = w;
    g_likes = likes_kind(w);
    g_liked = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_relate(w, a, g_likes, g_liked, NULL), ECS_SCHED_OK);
    add_hearing(w, "unlike", ECS_SCHED_ON_ADD, pos, unrelate_inside);
    assert_int_equal(ecs_sched_insert(w, a, pos, NULL), ECS_SCHED_OK);
    assert_false(ecs_sched_has_relation(w, a, g_likes, g_liked));
    check_and_destroy(w);
}

static ecs_sched_result g_unrelated;
static ecs_sched_entity g_named_source;

static void unrelate_through_the_world(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    g_unrelated = ecs_sched_unrelate(g_rel_world, g_named_source, g_likes, g_liked);
}

static void unrelating_through_the_world_from_a_plain_system_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_rel_world = w;
    g_likes = likes_kind(w);
    g_liked = ecs_sched_spawn(w);
    g_named_source = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_relate(w, g_named_source, g_likes, g_liked, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                         .name = "sneaky", .fn = unrelate_through_the_world}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_int_equal(g_unrelated, ECS_SCHED_ERR_ACCESS);
    assert_non_null(strstr(ecs_sched_last_error(w), "unrelate through the world"));
    assert_true(ecs_sched_has_relation(w, g_named_source, g_likes, g_liked));
    check_and_destroy(w);
}

static void recording_a_relate_or_unrelate_of_a_dead_entity_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_entity a = ecs_sched_spawn(w), dead = ecs_sched_spawn(w);
    ecs_sched_commands *cmd = ecs_sched_commands_create(w);
    int32_t count = 5;
    (void)state;
    assert_int_equal(ecs_sched_despawn(w, dead), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_relate(cmd, dead, likes, a, NULL), ECS_SCHED_ERR_STALE_ENTITY);
    assert_non_null(strstr(ecs_sched_last_error(w), "commands_relate"));
    assert_int_equal(ecs_sched_commands_relate(cmd, a, likes, dead, NULL), ECS_SCHED_ERR_STALE_ENTITY);
    assert_non_null(strstr(ecs_sched_last_error(w), "commands_relate (target)"));
    assert_int_equal(ecs_sched_commands_relate(cmd, a, likes, a, NULL), ECS_SCHED_ERR_RELATION_CYCLE);
    assert_non_null(strstr(ecs_sched_last_error(w), "cannot be related to itself with 'Likes'"));
    assert_int_equal(ecs_sched_commands_unrelate(cmd, dead, likes, a), ECS_SCHED_ERR_STALE_ENTITY);
    assert_non_null(strstr(ecs_sched_last_error(w), "commands_unrelate"));
    assert_int_equal(ecs_sched_commands_unrelate(cmd, a, likes, dead), ECS_SCHED_ERR_STALE_ENTITY);
    assert_non_null(strstr(ecs_sched_last_error(w), "commands_unrelate (target)"));
    assert_int_equal(ecs_sched_commands_pending(cmd), 0);
    assert_null(ecs_sched_sources(w, likes, dead, &count));
    assert_int_equal(count, 0);
    assert_int_equal(ecs_sched_target(w, a, likes, 1), ECS_SCHED_NULL_ENTITY);
    ecs_sched_commands_destroy(cmd);
    check_and_destroy(w);
}

static void making_a_subtree_prefab_is_heard_by_observers_of_the_prefab_tag(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_entity prefab = ecs_sched_spawn(w), child = ecs_sched_spawn(w), grandchild = ecs_sched_spawn(w);
    char expected[64];
    (void)state;
    g_heard[0] = '\0';
    assert_int_equal(ecs_sched_insert(w, prefab, ecs_sched_prefab_tag(w), NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, grandchild, child), ECS_SCHED_OK);
    add_hearing(w, "prefab", ECS_SCHED_ON_ADD, ecs_sched_prefab_tag(w), hear);
    assert_int_equal(ecs_sched_set_parent(w, child, prefab), ECS_SCHED_OK);
    assert_true(ecs_sched_has(w, child, ecs_sched_prefab_tag(w)));
    assert_true(ecs_sched_has(w, grandchild, ecs_sched_prefab_tag(w)));
    snprintf(expected, sizeof expected, "prefab:%u prefab:%u",
             (unsigned)ECS_SCHED_ENTITY_INDEX(child), (unsigned)ECS_SCHED_ENTITY_INDEX(grandchild));
    assert_string_equal(g_heard, expected);
    check_and_destroy(w);
}

static void despawning_a_large_tree_with_other_relationships_takes_them_along(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_entity root = ecs_sched_spawn(w), outsider = ecs_sched_spawn(w), children[48];
    int i;
    (void)state;
    for (i = 0; i < 48; i++) {
        children[i] = ecs_sched_spawn(w);
        assert_int_equal(ecs_sched_set_parent(w, children[i], i < 8 ? root : children[i - 8]),
                         ECS_SCHED_OK);
    }
    assert_int_equal(ecs_sched_relate(w, outsider, likes, children[40], NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, children[3], likes, outsider, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, children[10], likes, children[20], NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, root), ECS_SCHED_OK);
    for (i = 0; i < 48; i++) assert_false(ecs_sched_is_alive(w, children[i]));
    assert_true(ecs_sched_is_alive(w, outsider));
    assert_int_equal(ecs_sched_target_count(w, outsider, likes), 0);
    {
        int32_t count = 9;
        assert_null(ecs_sched_sources(w, likes, outsider, &count));
        assert_int_equal(count, 0);
    }
    assert_int_equal(ecs_sched_entity_count(w), 1);
    check_and_destroy(w);
}

static int g_despawns;

static void count_despawn(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    (void)ctx;
    (void)t;
    g_despawns++;
}

static void an_observed_tree_despawn_is_heard_for_every_entity_and_relationship(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_entity root = ecs_sched_spawn(w), outsider = ecs_sched_spawn(w), children[6];
    int i;
    (void)state;
    g_heard[0] = '\0';
    g_despawns = 0;
    for (i = 0; i < 6; i++) {
        children[i] = ecs_sched_spawn(w);
        assert_int_equal(ecs_sched_set_parent(w, children[i], i < 3 ? root : children[i - 3]),
                         ECS_SCHED_OK);
        if (i % 2 == 0) assert_int_equal(ecs_sched_relate(w, children[i], likes, outsider, NULL), ECS_SCHED_OK);
    }
    assert_int_equal(ecs_sched_set_name(w, children[4], "named"), ECS_SCHED_OK);
    add_hearing(w, "unliked", ECS_SCHED_ON_REMOVE, likes, count_despawn);
    add_hearing(w, "despawned", ECS_SCHED_ON_DESPAWN, 0, count_despawn);
    assert_int_equal(ecs_sched_despawn(w, root), ECS_SCHED_OK);
    assert_int_equal(g_despawns, 3 + 7);   /* three relationships, seven entities */
    for (i = 0; i < 6; i++) assert_false(ecs_sched_is_alive(w, children[i]));
    assert_true(ecs_sched_is_alive(w, outsider));
    check_and_destroy(w);
}

static void a_term_of_every_kind_with_a_related_term_hands_out_the_related_sources_only(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id likes = likes_kind(w);
    ecs_sched_id hates = kind_of(w, "Hates", false, ECS_SCHED_TARGET_DEFAULT);
    ecs_sched_entity target = ecs_sched_spawn(w), other = ecs_sched_spawn(w);
    ecs_sched_entity a = ecs_sched_spawn(w), b = ecs_sched_spawn(w), c = ecs_sched_spawn(w);
    ecs_sched_query_desc d;
    ecs_sched_query *q;
    ecs_sched_iter it;
    char text[64] = "";
    (void)state;
    assert_int_equal(ecs_sched_relate(w, a, likes, target, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, b, likes, target, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, b, hates, other, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, c, hates, target, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(w, a, hates, c, NULL), ECS_SCHED_OK);
    memset(&d, 0, sizeof d);
    d.terms[0] = ecs_sched_each_kind(ecs_sched_wildcard(w), target);
    d.terms[1] = ecs_sched_related(hates, other);
    q = ecs_sched_query_create(w, &d);
    assert_non_null(q);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        int32_t i;
        for (i = 0; i < it.count; i++) {
            size_t n = strlen(text);
            snprintf(text + n, sizeof text - n, "%s%s/%s", n ? " " : "",
                     it.entities[i] == a ? "a" : it.entities[i] == b ? "b" : "c",
                     ecs_sched_field_kind(&it, 0, i) == likes ? "likes" : "hates");
        }
    }
    assert_string_equal(text, "b/likes");
    ecs_sched_query_destroy(q);
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_term_of_every_kind_with_a_related_term_hands_out_the_related_sources_only),
        cmocka_unit_test(an_observed_tree_despawn_is_heard_for_every_entity_and_relationship),
        cmocka_unit_test(despawning_a_large_tree_with_other_relationships_takes_them_along),
        cmocka_unit_test(despawning_a_source_of_several_targets_is_heard_once_per_target),
        cmocka_unit_test(an_unrelate_inside_an_observer_is_applied_after_it),
        cmocka_unit_test(unrelating_through_the_world_from_a_plain_system_is_refused),
        cmocka_unit_test(recording_a_relate_or_unrelate_of_a_dead_entity_is_refused),
        cmocka_unit_test(making_a_subtree_prefab_is_heard_by_observers_of_the_prefab_tag),
        cmocka_unit_test(despawning_a_tree_of_named_entities_forgets_their_names),
        cmocka_unit_test(despawning_a_large_tree_spread_over_the_indices_takes_every_child),
        cmocka_unit_test(despawning_a_large_dense_tree_takes_every_child),
        cmocka_unit_test(a_relation_desc_with_a_bad_policy_or_alignment_is_refused_by_name),
        cmocka_unit_test(registering_a_kind_again_with_other_properties_is_a_mismatch),
        cmocka_unit_test(a_cycle_through_an_exclusive_acyclic_kind_is_refused_with_its_path),
        cmocka_unit_test(reading_relationships_with_bad_arguments_answers_nothing),
        cmocka_unit_test(the_payload_of_a_kind_without_one_or_of_a_component_is_refused),
        cmocka_unit_test(unrelating_with_bad_arguments_is_refused_and_a_missing_pair_is_no_error),
        cmocka_unit_test(recording_a_relate_of_a_component_is_refused_at_once),
        cmocka_unit_test(relate_puts_the_target_in_the_sources_column_and_the_source_in_the_targets_list),
        cmocka_unit_test(an_exclusive_kind_replaces_the_target),
        cmocka_unit_test(a_kind_that_is_not_exclusive_keeps_every_target),
        cmocka_unit_test(a_payload_is_kept_per_target_and_kept_by_a_relate_without_one),
        cmocka_unit_test(a_new_target_of_an_exclusive_kind_without_a_payload_starts_from_zero),
        cmocka_unit_test(a_query_field_holds_the_target_then_the_payload),
        cmocka_unit_test(unrelating_the_last_target_takes_the_kind_away),
        cmocka_unit_test(removing_the_kind_removes_every_target),
        cmocka_unit_test(a_related_term_matches_the_sources_of_that_target_only),
        cmocka_unit_test(a_related_term_and_a_changed_term_both_filter),
        cmocka_unit_test(every_iteration_of_a_related_query_hands_out_each_source_once),
        cmocka_unit_test(a_without_term_matches_entities_with_no_target_of_the_kind),
        cmocka_unit_test(a_related_term_on_a_component_or_a_dead_target_is_refused),
        cmocka_unit_test(writing_a_kind_without_payload_is_refused_but_its_payload_may_be_written),
        cmocka_unit_test(a_related_query_counts_as_reading_the_kind),
        cmocka_unit_test(despawning_a_target_takes_the_relationship_away_by_default),
        cmocka_unit_test(despawning_a_target_despawns_its_sources_when_the_kind_says_so),
        cmocka_unit_test(despawning_an_entity_of_a_ring_that_despawns_its_sources_despawns_the_ring),
        cmocka_unit_test(a_kind_that_refuses_keeps_its_target_alive_and_names_both),
        cmocka_unit_test(a_source_that_goes_leaves_its_targets_lists),
        cmocka_unit_test(a_parent_that_likes_its_child_despawns_cleanly_with_it),
        cmocka_unit_test(relating_to_a_dead_target_fails_and_changes_nothing),
        cmocka_unit_test(relating_with_a_component_that_is_no_kind_is_refused),
        cmocka_unit_test(inserting_a_kind_like_a_component_is_refused),
        cmocka_unit_test(registering_a_kind_again_with_other_properties_fails),
        cmocka_unit_test(commands_relate_and_unrelate_when_applied),
        cmocka_unit_test(a_relate_command_whose_target_died_is_skipped),
        cmocka_unit_test(a_relate_command_may_name_an_entity_the_buffer_spawns),
        cmocka_unit_test(observers_hear_each_relationship_with_its_target),
        cmocka_unit_test(a_relationship_made_in_an_observer_is_applied_after_the_change),
        cmocka_unit_test(systems_relate_through_commands_and_query_by_target),
        cmocka_unit_test(relating_directly_from_a_system_that_may_not_change_the_world_is_refused),
        cmocka_unit_test(writing_a_payload_and_reading_the_kind_are_ambiguous),
        cmocka_unit_test(reading_from_parents_conflicts_with_writers_of_entities_the_query_does_not_match),
        cmocka_unit_test(queries_of_disjoint_entities_reading_their_own_values_stay_apart),
        cmocka_unit_test(relating_an_entity_to_itself_is_refused_for_every_kind),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
