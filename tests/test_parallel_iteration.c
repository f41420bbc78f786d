/* Parallel iteration of a query: ecs_sched_ctx_par_iter from a running system and
   ecs_sched_query_par_iter on a pool of the caller's own visit every matching entity exactly
   once, in pieces of at most the grain asked for, on either executor.

   Built without ECS_SCHED_THREADS (the pieces then run inline), with it, and with it under
   ThreadSanitizer, where two pieces touching the same row would also be reported as a race. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ecs_sched.h"

#include "fixture.h"

typedef struct { uint32_t v; } Value;

typedef struct par_visit {
    ecs_sched_id value;
    int32_t grain;
    int64_t pieces;
    int64_t bad_pieces;
    int64_t rows;
    ecs_sched_result result;
} par_visit;

static void bump_chunk(ecs_sched_iter *it, void *arg) {
    par_visit *pv = (par_visit *)arg;
    Value *values = ECS_SCHED_FIELD(it, Value, 0);
    int32_t row;
    __atomic_add_fetch(&pv->pieces, 1, __ATOMIC_ACQ_REL);
    __atomic_add_fetch(&pv->rows, it->count, __ATOMIC_ACQ_REL);
    if (it->count <= 0 || (pv->grain > 0 && it->count > pv->grain)) {
        __atomic_add_fetch(&pv->bad_pieces, 1, __ATOMIC_ACQ_REL);
    }
    for (row = 0; row < it->count; row++) values[row].v += 1u;
}

static void par_iter_system(ecs_sched_system_ctx *ctx) {
    par_visit *pv = (par_visit *)ecs_sched_ctx_user_data(ctx);
    pv->result = ecs_sched_ctx_par_iter(ctx, 0, pv->grain, bump_chunk, pv);
}

/* 10,000 entities over 5 archetypes, each value its own index. */
static ecs_sched_world *world_of_values(ecs_sched_executor executor, ecs_sched_id *value,
                                        ecs_sched_entity *entities) {
    ecs_sched_world *w = world_on(executor, 2);
    ecs_sched_id tags[5];
    int i;
    *value = ecs_sched_component_register_type(w, "Value", sizeof(Value), 4);
    for (i = 0; i < 5; i++) {
        char name[16];
        snprintf(name, sizeof name, "T%d", i);
        tags[i] = ecs_sched_component_register_type(w, name, 0, 0);
    }
    for (i = 0; i < 10000; i++) {
        Value v;
        v.v = (uint32_t)i;
        entities[i] = SPAWN(w, {*value, &v}, {tags[i % 5], NULL});
    }
    return w;
}

static void check_each_value_bumped_once(ecs_sched_world *w, ecs_sched_id value,
                                         const ecs_sched_entity *entities, uint32_t times) {
    int i, wrong = 0;
    for (i = 0; i < 10000; i++) {
        const Value *v = (const Value *)ecs_sched_get(w, entities[i], value);
        wrong += !v || v->v != (uint32_t)i + times;
    }
    assert_int_equal(wrong, 0);
}

static void ctx_par_iter_visits_every_entity_once_in_pieces_of_at_most_grain(void **state) {
    static const ecs_sched_executor executors[] = {ECS_SCHED_EXECUTOR_PARALLEL,
                                                   ECS_SCHED_EXECUTOR_SINGLE_THREADED};
    static const int32_t grains[] = {1, 7, 100, 5000, 0};
    ecs_sched_entity *entities = (ecs_sched_entity *)calloc(10000, sizeof *entities);
    int e, g;
    (void)state;
    assert_non_null(entities);
    for (e = 0; e < 2; e++) {
        for (g = 0; g < 5; g++) {
            ecs_sched_id value;
            ecs_sched_world *w = world_of_values(executors[e], &value, entities);
            par_visit pv;
            memset(&pv, 0, sizeof pv);
            pv.grain = grains[g];
            assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                                                      .name = "bump", .fn = par_iter_system,
                                                      .user_data = &pv,
                                                      .queries = {{{ecs_sched_write(value)}}}}),
                             ECS_SCHED_OK);
            assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
            assert_int_equal(pv.result, ECS_SCHED_OK);
            assert_int_equal(pv.rows, 10000);
            assert_int_equal(pv.bad_pieces, 0);
            if (grains[g] > 0) assert_true(pv.pieces >= 5 && pv.pieces >= 10000 / grains[g]);
            check_each_value_bumped_once(w, value, entities, 1);
            ecs_sched_world_destroy(w);
        }
    }
    free(entities);
}

static void ctx_par_iter_of_an_undeclared_query_is_refused(void **state) {
    ecs_sched_entity *entities = (ecs_sched_entity *)calloc(10000, sizeof *entities);
    ecs_sched_id value;
    ecs_sched_world *w;
    par_visit pv;
    (void)state;
    assert_non_null(entities);
    w = world_of_values(ECS_SCHED_EXECUTOR_PARALLEL, &value, entities);
    memset(&pv, 0, sizeof pv);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                                              .name = "no_query", .fn = par_iter_system,
                                              .user_data = &pv}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_int_equal(pv.result, ECS_SCHED_ERR_ACCESS);
    assert_int_equal(pv.rows, 0);
    assert_non_null(strstr(ecs_sched_last_error(w), "no_query"));
    check_each_value_bumped_once(w, value, entities, 0);
    ecs_sched_world_destroy(w);
    free(entities);
}

static void query_par_iter_runs_on_a_pool_of_your_own(void **state) {
    ecs_sched_entity *entities = (ecs_sched_entity *)calloc(10000, sizeof *entities);
    ecs_sched_id value;
    ecs_sched_world *w;
    ecs_sched_pool *pool;
    ecs_sched_query *q;
    par_visit pv;
    (void)state;
    assert_non_null(entities);
    w = world_of_values(ECS_SCHED_EXECUTOR_SINGLE_THREADED, &value, entities);
    pool = ecs_sched_pool_create(&(ecs_sched_pool_desc){.thread_count = 2});
    assert_non_null(pool);
    q = QUERY(w, ecs_sched_write(value));
    assert_non_null(q);
    memset(&pv, 0, sizeof pv);
    pv.grain = 64;
    ecs_sched_query_par_iter(q, pool, 64, bump_chunk, &pv);
    assert_int_equal(pv.rows, 10000);
    assert_int_equal(pv.bad_pieces, 0);
    check_each_value_bumped_once(w, value, entities, 1);
    ecs_sched_pool_destroy(pool);
    ecs_sched_world_destroy(w);
    free(entities);
}

static void bump_changed_chunk(ecs_sched_iter *it, void *arg) {
    Value *values = ECS_SCHED_FIELD(it, Value, 0);
    int32_t row;
    (void)arg;
    for (row = 0; row < it->count; row++) values[row].v += 1u;
}

/* A query that writes a tracked component where another changed: its pieces mark the rows
   they write, and the marks of one table go to one change log, so pieces of one table must
   not mark at once (ThreadSanitizer would see it; the log would lose or mangle entries). */
static void query_par_iter_writing_where_changed_marks_every_row_it_writes_once(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 2);
    ecs_sched_id value = ecs_sched_tracked_component_register_type(w, "Value", sizeof(Value), 4);
    ecs_sched_id seen = ecs_sched_tracked_component_register_type(w, "Seen", sizeof(Value), 4);
    ecs_sched_entity *entities = (ecs_sched_entity *)calloc(20000, sizeof *entities);
    ecs_sched_query *write_where_seen, *changed_values;
    ecs_sched_pool *pool;
    ecs_sched_iter it;
    int32_t i, rows = 0;
    (void)state;
    assert_non_null(entities);
    for (i = 0; i < 20000; i++) entities[i] = SPAWN(w, {value, NULL}, {seen, NULL});
    write_where_seen = QUERY(w, ecs_sched_write(value), ecs_sched_changed(seen));
    changed_values = QUERY(w, ecs_sched_changed(value));
    it = ecs_sched_query_iter(write_where_seen);   /* both have looked: nothing is new */
    while (ecs_sched_iter_next(&it)) {}
    it = ecs_sched_query_iter(changed_values);
    while (ecs_sched_iter_next(&it)) {}
    for (i = 0; i < 20000; i += 3) assert_non_null(ecs_sched_get_mut(w, entities[i], seen));
    pool = ecs_sched_pool_create(&(ecs_sched_pool_desc){.thread_count = 4});
    assert_non_null(pool);
    ecs_sched_query_par_iter(write_where_seen, pool, 64, bump_changed_chunk, NULL);
    it = ecs_sched_query_iter(changed_values);
    while (ecs_sched_iter_next(&it)) rows += it.count;
    assert_int_equal(rows, (20000 + 2) / 3);
    assert_int_equal(ecs_sched_world_check(w), ECS_SCHED_OK);
    ecs_sched_pool_destroy(pool);
    ecs_sched_world_destroy(w);
    free(entities);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ctx_par_iter_visits_every_entity_once_in_pieces_of_at_most_grain),
        cmocka_unit_test(ctx_par_iter_of_an_undeclared_query_is_refused),
        cmocka_unit_test(query_par_iter_runs_on_a_pool_of_your_own),
        cmocka_unit_test(query_par_iter_writing_where_changed_marks_every_row_it_writes_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
