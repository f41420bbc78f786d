/* Change detection. A tracked component keeps, per entity, the tick it was added and the tick
   it last changed; added and changed query terms hand out the rows added or changed since the
   querying system's previous run (outside systems: since the query's previous iteration).
   Inserts, overwrites, get_mut, commands and written query fields count as changes; a
   WRITE_MANUAL term marks only the rows the loop marks. Resources have the same through the
   resource_added and resource_changed conditions. Ticks wrap; old ones are moved so that
   every comparison keeps its answer. */
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

static ecs_sched_id g_pos, g_vel, g_plain;

static ecs_sched_world *tracked_world(void) {
    ecs_sched_world *w = new_world();
    g_pos = ECS_SCHED_TRACKED_COMPONENT(w, Position);
    g_vel = ECS_SCHED_COMPONENT(w, Velocity);
    g_plain = ECS_SCHED_COMPONENT(w, Score);
    assert_true(g_pos && g_vel && g_plain);
    return w;
}

static ecs_sched_entity spawn_at(ecs_sched_world *w, float x) {
    Position p = {x, 0};
    Velocity v = {1, 0};
    ecs_sched_id ids[2];
    const void *values[2];
    ids[0] = g_pos;
    ids[1] = g_vel;
    values[0] = &p;
    values[1] = &v;
    return ecs_sched_spawn_with(w, 2, ids, values);
}

/* The x of every row a query hands out, in order, as "1 2 3". */
static const char *xs_of(ecs_sched_iter it) {
    static char text[1024];
    size_t n = 0;
    text[0] = '\0';
    while (ecs_sched_iter_next(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        int32_t i;
        for (i = 0; i < it.count && n < sizeof text - 16; i++) {
            n += (size_t)snprintf(text + n, sizeof text - n, "%s%g", n ? " " : "", (double)p[i].x);
        }
    }
    return text;
}

static ecs_sched_query *query_of(ecs_sched_world *w, ecs_sched_term a, ecs_sched_term b) {
    ecs_sched_query_desc desc;
    ecs_sched_query *q;
    memset(&desc, 0, sizeof desc);
    desc.terms[0] = a;
    desc.terms[1] = b;
    q = ecs_sched_query_create(w, &desc);
    assert_non_null(q);
    return q;
}

/* ---- outside systems: since the query's previous iteration ---- */

static void a_changed_query_first_sees_every_entity_then_only_changes(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_query *q = query_of(w, ecs_sched_changed(g_pos), (ecs_sched_term){0});
    ecs_sched_entity a, b;
    Position moved = {5, 0};
    (void)state;
    a = spawn_at(w, 1);
    b = spawn_at(w, 2);
    assert_string_equal(xs_of(ecs_sched_query_iter(q)), "1 2");
    assert_string_equal(xs_of(ecs_sched_query_iter(q)), "");
    assert_int_equal(ecs_sched_insert(w, b, g_pos, &moved), ECS_SCHED_OK);
    assert_string_equal(xs_of(ecs_sched_query_iter(q)), "5");
    ((Position *)ecs_sched_get_mut(w, a, g_pos))->x = 7;
    assert_string_equal(xs_of(ecs_sched_query_iter(q)), "7");
    assert_non_null(ecs_sched_get(w, a, g_pos));
    assert_string_equal(xs_of(ecs_sched_query_iter(q)), "");
    check_and_destroy(w);
}

static void an_added_query_sees_new_components_not_overwrites(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_query *q = query_of(w, ecs_sched_added(g_pos), (ecs_sched_term){0});
    ecs_sched_entity a, b;
    Position p = {3, 0};
    (void)state;
    a = spawn_at(w, 1);
    assert_string_equal(xs_of(ecs_sched_query_iter(q)), "1");
    assert_int_equal(ecs_sched_insert(w, a, g_pos, &p), ECS_SCHED_OK);   /* overwrite */
    assert_string_equal(xs_of(ecs_sched_query_iter(q)), "");
    b = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_insert(w, b, g_pos, &p), ECS_SCHED_OK);   /* added */
    assert_string_equal(xs_of(ecs_sched_query_iter(q)), "3");
    check_and_destroy(w);
}

static void a_changed_term_on_an_untracked_component_is_refused(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_query_desc desc;
    (void)state;
    memset(&desc, 0, sizeof desc);
    desc.terms[0] = ecs_sched_changed(g_plain);
    assert_null(ecs_sched_query_create(w, &desc));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_QUERY);
    assert_non_null(strstr(ecs_sched_last_error(w), "'Score' is not tracked"));
    check_and_destroy(w);
}

static void registering_a_name_again_with_other_tracking_is_refused(void **state) {
    ecs_sched_world *w = tracked_world();
    (void)state;
    assert_int_equal(ECS_SCHED_COMPONENT(w, Position), 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_COMPONENT_MISMATCH);
    assert_non_null(strstr(ecs_sched_last_error(w), "already registered with change tracking"));
    assert_int_equal(ECS_SCHED_TRACKED_COMPONENT(w, Position), g_pos);
    check_and_destroy(w);
}

/* ---- rows of a table: runs, and moves between tables ---- */

static void changed_rows_come_as_runs_in_table_order(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_query *q = query_of(w, ecs_sched_changed(g_pos), (ecs_sched_term){0});
    ecs_sched_entity e[200];
    ecs_sched_iter it;
    int32_t i, runs = 0, rows = 0;
    (void)state;
    for (i = 0; i < 200; i++) e[i] = spawn_at(w, (float)i);
    assert_int_equal(ecs_sched_query_count(q), 200);
    (void)xs_of(ecs_sched_query_iter(q));
    for (i = 60; i < 70; i++) ecs_sched_get_mut(w, e[i], g_pos);   /* across a block edge */
    ecs_sched_get_mut(w, e[130], g_pos);
    ecs_sched_get_mut(w, e[199], g_pos);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        runs++;
        rows += it.count;
    }
    assert_int_equal(runs, 3);
    assert_int_equal(rows, 12);
    assert_string_equal(xs_of(ecs_sched_query_iter(q)), "");
    check_and_destroy(w);
}

static void a_change_moves_with_its_entity_to_another_table(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_query *q = query_of(w, ecs_sched_changed(g_pos), (ecs_sched_term){0});
    ecs_sched_entity a, b;
    (void)state;
    a = spawn_at(w, 1);
    b = spawn_at(w, 2);
    (void)xs_of(ecs_sched_query_iter(q));
    ecs_sched_get_mut(w, a, g_pos);
    assert_int_equal(ecs_sched_insert(w, a, g_plain, NULL), ECS_SCHED_OK);   /* a moves */
    assert_int_equal(ecs_sched_insert(w, b, g_plain, NULL), ECS_SCHED_OK);   /* b too, unchanged */
    assert_string_equal(xs_of(ecs_sched_query_iter(q)), "1");
    check_and_destroy(w);
}

static void a_despawn_moves_the_last_rows_ticks_into_the_hole(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_query *q = query_of(w, ecs_sched_changed(g_pos), (ecs_sched_term){0});
    ecs_sched_entity a, c;
    (void)state;
    a = spawn_at(w, 1);
    spawn_at(w, 2);
    c = spawn_at(w, 3);
    (void)xs_of(ecs_sched_query_iter(q));
    ecs_sched_get_mut(w, c, g_pos);
    assert_int_equal(ecs_sched_despawn(w, a), ECS_SCHED_OK);   /* c moves to row 0 */
    assert_string_equal(xs_of(ecs_sched_query_iter(q)), "3");
    check_and_destroy(w);
}

/* ---- systems: since the system's previous run ---- */

static char g_seen[1024];

static void note_changed(ecs_sched_system_ctx *ctx) {
    size_t n = strlen(g_seen);
    snprintf(g_seen + n, sizeof g_seen - n, "%s[%s]", n ? " " : "",
             xs_of(ecs_sched_ctx_iter(ctx, 0)));
}

static void move_every_position(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        int32_t i;
        for (i = 0; i < it.count; i++) p[i].x += 10;
    }
}

/* Moves only the rows whose x is below 15, marking just those. */
static void move_small_positions(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        int32_t i;
        for (i = 0; i < it.count; i++) {
            if (p[i].x >= 15) continue;
            p[i].x += 10;
            assert_int_equal(ecs_sched_iter_mark_changed(&it, 0, i), ECS_SCHED_OK);
        }
    }
}

static bool g_gate;
static bool gate(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    return g_gate;
}

static void a_written_field_marks_every_row_the_system_iterates(void **state) {
    ecs_sched_world *w = tracked_world();
    (void)state;
    g_seen[0] = '\0';
    spawn_at(w, 1);
    spawn_at(w, 2);
    ADD_SYSTEM(w, .name = "watch", .fn = note_changed,
               .queries = {{.terms = {ecs_sched_changed(g_pos)}}});
    ADD_SYSTEM(w, .name = "move", .fn = move_every_position, .after = {"watch"},
               .queries = {{.terms = {ecs_sched_write(g_pos)}}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_seen, "[1 2] [11 12]");
    check_and_destroy(w);
}

static void a_manual_write_marks_only_the_rows_the_loop_marks(void **state) {
    ecs_sched_world *w = tracked_world();
    (void)state;
    g_seen[0] = '\0';
    spawn_at(w, 1);
    spawn_at(w, 20);
    ADD_SYSTEM(w, .name = "move", .fn = move_small_positions,
               .queries = {{.terms = {ecs_sched_write_manual(g_pos)}}});
    ADD_SYSTEM(w, .name = "watch", .fn = note_changed, .after = {"move"},
               .queries = {{.terms = {ecs_sched_changed(g_pos)}}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* first run: all */
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* 11 < 15: moved */
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* none moved */
    assert_string_equal(g_seen, "[20 11] [21] []");   /* the order they changed in */
    check_and_destroy(w);
}

static void a_system_sees_its_own_changes_once_and_changes_after_it_next_run(void **state) {
    ecs_sched_world *w = tracked_world();
    (void)state;
    g_seen[0] = '\0';
    spawn_at(w, 1);
    ADD_SYSTEM(w, .name = "watch", .fn = note_changed,
               .queries = {{.terms = {ecs_sched_changed(g_pos)}}});
    ADD_SYSTEM(w, .name = "move", .fn = move_every_position, .after = {"watch"},
               .queries = {{.terms = {ecs_sched_write(g_pos)}}});
    ADD_SYSTEM(w, .name = "watch_after", .fn = note_changed, .after = {"move"},
               .queries = {{.terms = {ecs_sched_changed(g_pos)}}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    /* run 1: watch sees the spawn, watch_after the spawn and the move; run 2: each sees the
       move made since its previous run, once */
    assert_string_equal(g_seen, "[1] [11] [11] [21]");
    check_and_destroy(w);
}

static void a_system_skipped_by_its_condition_then_sees_every_change_since_it_last_ran(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_query *all = query_of(w, ecs_sched_read(g_pos), (ecs_sched_term){0});
    ecs_sched_entity a, b, c;
    (void)state;
    (void)all;
    g_seen[0] = '\0';
    a = spawn_at(w, 1);
    b = spawn_at(w, 2);
    c = spawn_at(w, 3);
    g_gate = true;
    ADD_SYSTEM(w, .name = "watch", .fn = note_changed, .run_if = {&(ecs_sched_condition){.fn = gate}},
               .queries = {{.terms = {ecs_sched_changed(g_pos)}}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* [1 2 3] */
    g_gate = false;
    ((Position *)ecs_sched_get_mut(w, a, g_pos))->x = 10;
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* skipped */
    ((Position *)ecs_sched_get_mut(w, c, g_pos))->x = 30;
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* skipped */
    g_gate = true;
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* both, once */
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* none */
    (void)b;
    assert_string_equal(g_seen, "[1 2 3] [10 30] []");
    check_and_destroy(w);
}

/* ---- parallel iteration ---- */

static int32_t g_par_rows;
static double g_par_sum;

static void sum_piece(ecs_sched_iter *it, void *arg) {
    const Position *p = ECS_SCHED_FIELD(it, const Position, 0);
    int32_t i;
    (void)arg;
    for (i = 0; i < it->count; i++) g_par_sum += p[i].x;
    g_par_rows += it->count;
}

static void a_changed_query_iterated_in_pieces_hands_out_the_same_rows(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_query *q = query_of(w, ecs_sched_changed(g_pos), (ecs_sched_term){0});
    ecs_sched_pool *pool;
    ecs_sched_entity e[300];
    int32_t i;
    (void)state;
    for (i = 0; i < 300; i++) e[i] = spawn_at(w, (float)i);
    (void)xs_of(ecs_sched_query_iter(q));
    for (i = 0; i < 300; i += 7) ecs_sched_get_mut(w, e[i], g_pos);
    {
        ecs_sched_pool_desc pd;
        memset(&pd, 0, sizeof pd);
        pd.thread_count = 1;   /* the pieces on this thread: sum_piece needs no lock */
        pool = ecs_sched_pool_create(&pd);
    }
    assert_non_null(pool);
    g_par_rows = 0;
    g_par_sum = 0;
    ecs_sched_query_par_iter(q, pool, 10, sum_piece, NULL);
    ecs_sched_pool_destroy(pool);
    assert_int_equal(g_par_rows, 43);
    assert_true(g_par_sum == 43.0 * 147.0);   /* 0, 7, ..., 294 */
    assert_string_equal(xs_of(ecs_sched_query_iter(q)), "");   /* the window moved on */
    check_and_destroy(w);
}

/* ---- iteration by index ---- */

/* The x of every row a query hands out by index, as "1 2 3"; also checks that each call
   hands out at most ECS_SCHED_ITER_ROWS rows and that it.entities lines up with the rows. */
static const char *xs_by_rows(ecs_sched_world *w, ecs_sched_iter it) {
    static char text[4096];
    size_t n = 0;
    text[0] = '\0';
    while (ecs_sched_iter_next_rows(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        int32_t i;
        assert_true(it.count > 0 && it.count <= ECS_SCHED_ITER_ROWS);
        for (i = 0; i < it.count; i++) {
            const Position *own = (const Position *)ecs_sched_get(w, it.entities[it.rows[i]], g_pos);
            assert_non_null(own);
            assert_true(own->x == p[it.rows[i]].x);
            if (n < sizeof text - 16) {
                n += (size_t)snprintf(text + n, sizeof text - n, "%s%g", n ? " " : "",
                                      (double)p[it.rows[i]].x);
            }
        }
    }
    return text;
}

static void by_index_a_changed_query_hands_out_the_changed_rows_in_the_order_they_changed(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_query *q = query_of(w, ecs_sched_changed(g_pos), (ecs_sched_term){0});
    ecs_sched_entity e[200];
    int32_t i;
    (void)state;
    for (i = 0; i < 200; i++) e[i] = spawn_at(w, (float)i);
    (void)xs_by_rows(w, ecs_sched_query_iter(q));
    ecs_sched_get_mut(w, e[150], g_pos);
    ecs_sched_get_mut(w, e[3], g_pos);
    ecs_sched_get_mut(w, e[77], g_pos);
    ecs_sched_get_mut(w, e[3], g_pos);   /* again: it now counts as changed after 77 */
    assert_string_equal(xs_by_rows(w, ecs_sched_query_iter(q)), "150 77 3");
    assert_string_equal(xs_by_rows(w, ecs_sched_query_iter(q)), "");
    check_and_destroy(w);
}

static void by_index_a_plain_query_hands_out_every_row_a_bounded_number_at_a_time(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_query *q = query_of(w, ecs_sched_read(g_pos), (ecs_sched_term){0});
    ecs_sched_iter it;
    int32_t i, calls = 0, rows = 0;
    double sum = 0;
    (void)state;
    for (i = 0; i < 3 * ECS_SCHED_ITER_ROWS + 5; i++) spawn_at(w, (float)i);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next_rows(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        for (i = 0; i < it.count; i++) {
            assert_int_equal(it.rows[i], rows + i);   /* in table order */
            sum += p[it.rows[i]].x;
        }
        rows += it.count;
        calls++;
    }
    assert_int_equal(rows, 3 * ECS_SCHED_ITER_ROWS + 5);
    assert_int_equal(calls, 4);
    assert_true(sum == (double)rows * (rows - 1) / 2);
    check_and_destroy(w);
}

static void by_index_a_marked_row_is_the_one_its_index_names(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_query *writer = query_of(w, ecs_sched_write_manual(g_pos), (ecs_sched_term){0});
    ecs_sched_query *watch = query_of(w, ecs_sched_changed(g_pos), (ecs_sched_term){0});
    ecs_sched_iter it;
    int32_t i;
    (void)state;
    for (i = 0; i < 10; i++) spawn_at(w, (float)i);
    (void)xs_of(ecs_sched_query_iter(watch));
    it = ecs_sched_query_iter(writer);
    while (ecs_sched_iter_next_rows(&it)) {
        for (i = 0; i < it.count; i++) {
            if (it.rows[i] % 4 == 1) {
                assert_int_equal(ecs_sched_iter_mark_changed(&it, 0, i), ECS_SCHED_OK);
            }
        }
    }
    assert_string_equal(xs_of(ecs_sched_query_iter(watch)), "1 5 9");
    check_and_destroy(w);
}

static void by_index_a_written_field_marks_the_rows_handed_out(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_id mass = ecs_sched_tracked_component_register_type(w, "Mass", sizeof(float),
                                                                   sizeof(float));
    ecs_sched_query *watch_pos = query_of(w, ecs_sched_changed(g_pos), (ecs_sched_term){0});
    ecs_sched_query *mover = query_of(w, ecs_sched_changed(g_pos), ecs_sched_write(mass));
    ecs_sched_query *watch_mass = query_of(w, ecs_sched_read(g_pos), ecs_sched_changed(mass));
    ecs_sched_entity e[100];
    int32_t i, handed = 0;
    ecs_sched_iter it;
    (void)state;
    for (i = 0; i < 100; i++) {
        e[i] = spawn_at(w, (float)i);
        assert_int_equal(ecs_sched_insert(w, e[i], mass, NULL), ECS_SCHED_OK);
    }
    (void)xs_of(ecs_sched_query_iter(watch_pos));
    (void)xs_of(ecs_sched_query_iter(mover));
    (void)xs_of(ecs_sched_query_iter(watch_mass));
    ecs_sched_get_mut(w, e[42], g_pos);
    ecs_sched_get_mut(w, e[7], g_pos);
    it = ecs_sched_query_iter(mover);
    while (ecs_sched_iter_next_rows(&it)) handed += it.count;
    assert_int_equal(handed, 2);
    assert_string_equal(xs_by_rows(w, ecs_sched_query_iter(watch_mass)), "42 7");
    check_and_destroy(w);
}

/* Every round changes random rows (sometimes more than a table's change log keeps, sometimes
   whole tables through a written query, sometimes with moves between tables); a query read by
   index sees the same entities as its twin read run by run. */
static void by_index_and_by_runs_hand_out_the_same_entities(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_query *runs = query_of(w, ecs_sched_changed(g_pos), (ecs_sched_term){0});
    ecs_sched_query *rows = query_of(w, ecs_sched_changed(g_pos), (ecs_sched_term){0});
    ecs_sched_query *all = query_of(w, ecs_sched_write(g_pos), (ecs_sched_term){0});
    enum { N = 3000 };
    static ecs_sched_entity e[N];
    static unsigned char seen[N + 1];
    uint32_t seed = 99u;
    int32_t round, i;
    (void)state;
    for (i = 0; i < N; i++) e[i] = spawn_at(w, (float)i);
    for (round = 0; round < 40; round++) {
        ecs_sched_iter it;
        int32_t changes = (round % 5 == 0) ? 2500 : (int32_t)(round * 7 % 50);
        int32_t from_runs = 0, from_rows = 0;
        for (i = 0; i < changes; i++) {
            seed = seed * 1664525u + 1013904223u;
            ecs_sched_get_mut(w, e[(seed >> 8) % N], g_pos);
        }
        if (round % 7 == 3) (void)xs_of(ecs_sched_query_iter(all));   /* every row, in bulk */
        if (round % 6 == 2) {   /* a few move to another table */
            for (i = round; i < N; i += 97) {
                if (ecs_sched_has(w, e[i], g_plain)) ecs_sched_remove(w, e[i], g_plain);
                else ecs_sched_insert(w, e[i], g_plain, NULL);
            }
        }
        memset(seen, 0, sizeof seen);
        it = ecs_sched_query_iter(runs);
        while (ecs_sched_iter_next(&it)) {
            for (i = 0; i < it.count; i++) {
                seen[ECS_SCHED_ENTITY_INDEX(it.entities[i]) % (N + 1)] |= 1;
                from_runs++;
            }
        }
        it = ecs_sched_query_iter(rows);
        while (ecs_sched_iter_next_rows(&it)) {
            for (i = 0; i < it.count; i++) {
                seen[ECS_SCHED_ENTITY_INDEX(it.entities[it.rows[i]]) % (N + 1)] |= 2;
                from_rows++;
            }
        }
        assert_int_equal(from_rows, from_runs);
        for (i = 0; i <= N; i++) assert_true(seen[i] == 0 || seen[i] == 3);
    }
    check_and_destroy(w);
}

/* ---- writing where a component changed ---- */

/* Iterates a query whose term 0 writes Position (by runs, or by index): the x of every row
   handed out, in order, as "1 2 3", each x moved on by 100. Stops (and fails) past 64 rows,
   more than any of these worlds has. */
static const char *xs_written(const ecs_sched_query *q, bool by_index) {
    static char text[1024];
    ecs_sched_iter it = ecs_sched_query_iter(q);
    size_t n = 0;
    int32_t rows = 0;
    text[0] = '\0';
    while (by_index ? ecs_sched_iter_next_rows(&it) : ecs_sched_iter_next(&it)) {
        Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        int32_t i;
        for (i = 0; i < it.count; i++) {
            Position *at = by_index ? &p[it.rows[i]] : &p[i];
            n += (size_t)snprintf(text + n, sizeof text - n, "%s%g", n ? " " : "", (double)at->x);
            at->x += 100;
            assert_true(++rows <= 64);
        }
    }
    return text;
}

static void a_query_writes_a_component_only_where_it_changed(void **state) {
    int by_index;
    (void)state;
    for (by_index = 0; by_index < 2; by_index++) {
        ecs_sched_world *w = tracked_world();
        ecs_sched_query *q = query_of(w, ecs_sched_write(g_pos), ecs_sched_changed(g_pos));
        ecs_sched_entity b;
        spawn_at(w, 1);
        b = spawn_at(w, 2);
        spawn_at(w, 3);
        assert_string_equal(xs_written(q, by_index), "1 2 3");
        assert_string_equal(xs_written(q, by_index), "");   /* its own writes */
        assert_non_null(ecs_sched_get_mut(w, b, g_pos));
        assert_string_equal(xs_written(q, by_index), "102");
        assert_string_equal(xs_written(q, by_index), "");
        check_and_destroy(w);
    }
}

typedef struct { int turns; } Heat;

/* The rows of a write(Heat) + changed(Heat) query, Heat sparse, each written: how many. */
static int32_t sparse_rows_written(const ecs_sched_query *q) {
    ecs_sched_iter it = ecs_sched_query_iter(q);
    int32_t rows = 0, i;
    while (ecs_sched_iter_next(&it)) {
        for (i = 0; i < it.count; i++) ECS_SCHED_SPARSE_FIELD(&it, Heat, 0)[i]->turns++;
        rows += it.count;
        assert_true(rows <= 64);
    }
    return rows;
}

static void a_query_writes_a_sparse_component_only_where_it_changed(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_component_desc d;
    ecs_sched_query *q;
    ecs_sched_entity e[4];
    ecs_sched_id heat;
    int i;
    (void)state;
    memset(&d, 0, sizeof d);
    d.name = "Heat";
    d.size = sizeof(Heat);
    d.alignment = ECS_SCHED_ALIGNOF(Heat);
    d.tracked = true;
    d.storage = ECS_SCHED_STORAGE_SPARSE;
    heat = ecs_sched_component_register(w, &d);
    for (i = 0; i < 4; i++) e[i] = ecs_sched_spawn_with(w, 1, &heat, NULL);
    q = query_of(w, ecs_sched_write(heat), ecs_sched_changed(heat));
    assert_int_equal(sparse_rows_written(q), 4);
    assert_int_equal(sparse_rows_written(q), 0);
    assert_non_null(ecs_sched_get_mut(w, e[2], heat));
    assert_int_equal(sparse_rows_written(q), 1);
    assert_int_equal(((const Heat *)ecs_sched_get(w, e[2], heat))->turns, 2);
    check_and_destroy(w);
}

static void a_filter_on_a_component_another_term_names_adds_no_access(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_query *written = query_of(w, ecs_sched_write(g_pos), ecs_sched_changed(g_pos));
    ecs_sched_query *read = query_of(w, ecs_sched_added(g_pos), ecs_sched_read(g_pos));
    ecs_sched_access a = ecs_sched_query_access(written);
    (void)state;
    assert_int_equal(a.read_count, 0);
    assert_int_equal(a.write_count, 1);
    assert_int_equal(a.writes[0], g_pos);
    a = ecs_sched_query_access(read);
    assert_int_equal(a.read_count, 1);
    assert_int_equal(a.reads[0], g_pos);
    assert_int_equal(a.write_count, 0);
    check_and_destroy(w);
}

static void record_and_move_where_changed(ecs_sched_system_ctx *ctx) {
    size_t n = strlen(g_seen);
    snprintf(g_seen + n, sizeof g_seen - n, "%s[%s]", n ? " " : "",
             xs_written(ecs_sched_ctx_query(ctx, 0), false));
}

/* A system does not see its own writes on its next run, only what others changed since. */
static void a_system_writing_where_changed_sees_only_the_changes_of_others_next_run(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_entity a;
    (void)state;
    g_seen[0] = '\0';
    a = spawn_at(w, 1);
    spawn_at(w, 2);
    ADD_SYSTEM(w, .name = "follow", .fn = record_and_move_where_changed,
               .queries = {{.terms = {ecs_sched_write(g_pos), ecs_sched_changed(g_pos)}}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_non_null(ecs_sched_get_mut(w, a, g_pos));
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_seen, "[1 2] [] [101]");
    check_and_destroy(w);
}

/* ---- wrapping and very old ticks ---- */

static void ticks_wrap_without_losing_or_inventing_changes(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_entity a;
    (void)state;
    g_seen[0] = '\0';
    ecs_sched_change_tick_advance(w, UINT32_MAX - 2u);   /* two ticks before wrapping */
    a = spawn_at(w, 1);
    spawn_at(w, 2);
    ADD_SYSTEM(w, .name = "watch", .fn = note_changed,
               .queries = {{.terms = {ecs_sched_changed(g_pos)}}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_true(ecs_sched_change_tick(w) < 10u || ecs_sched_change_tick(w) > UINT32_MAX - 10u);
    ecs_sched_get_mut(w, a, g_pos);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    ecs_sched_get_mut(w, a, g_pos);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_true(ecs_sched_change_tick(w) < 10u);   /* it wrapped meanwhile */
    assert_string_equal(g_seen, "[1 2] [1] [1] []");
    check_and_destroy(w);
}

static void a_system_that_has_not_run_for_ages_sees_exactly_what_changed_since(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_entity before, after;
    (void)state;
    g_seen[0] = '\0';
    g_gate = true;
    before = spawn_at(w, 1);
    after = spawn_at(w, 2);
    spawn_at(w, 3);
    ADD_SYSTEM(w, .name = "watch", .fn = note_changed, .run_if = {&(ecs_sched_condition){.fn = gate}},
               .queries = {{.terms = {ecs_sched_changed(g_pos)}}});
    ecs_sched_get_mut(w, before, g_pos);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* [1 2 3] */
    ecs_sched_get_mut(w, after, g_pos);
    /* far longer than a tick's range: old ticks are moved several times on the way */
    ecs_sched_change_tick_advance(w, UINT32_MAX);
    ecs_sched_change_tick_advance(w, UINT32_MAX);
    ecs_sched_change_tick_advance(w, 123456789u);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* [2] */
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* [] */
    assert_string_equal(g_seen, "[2 3 1] [2] []");   /* the order they changed in */
    check_and_destroy(w);
}

/* The reproduction of a change kept through a move of old ticks: the change log's copy of
   the change tick moves with the entry, so a reader that last looked before the move still
   sees it (the window is checked from both sides of the move's threshold). */
static int32_t rows_changed_after_advance(uint32_t ticks) {
    ecs_sched_world *w = new_world();
    ecs_sched_id c = ecs_sched_tracked_component_register_type(w, "C", 4, 4);
    ecs_sched_entity e = ecs_sched_spawn_with(w, 1, &c, NULL);
    ecs_sched_query *q = query_of(w, ecs_sched_changed(c), (ecs_sched_term){0});
    ecs_sched_iter it = ecs_sched_query_iter(q);
    int32_t rows = 0;
    while (ecs_sched_iter_next(&it)) rows += it.count;
    assert_int_equal(rows, 1);
    assert_non_null(ecs_sched_get_mut(w, e, c));
    ecs_sched_change_tick_advance(w, ticks);
    rows = 0;
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) rows += it.count;
    check_and_destroy(w);
    return rows;
}

static void a_change_older_than_the_age_at_which_ticks_move_is_still_seen(void **state) {
    (void)state;
    assert_int_equal(rows_changed_after_advance(3220176896u), 1);
    assert_int_equal(rows_changed_after_advance(3221225472u), 1);
    assert_int_equal(rows_changed_after_advance(UINT32_MAX), 1);
}

/* ---- resources ---- */

static int g_guarded_runs;
static void count_run(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    g_guarded_runs++;
}

static void resource_changed_is_true_once_per_change_and_added_once(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_condition changed = ecs_sched_condition_resource_changed(g_plain);
    ecs_sched_condition added = ecs_sched_condition_resource_added(g_plain);
    int score = 1;
    (void)state;
    g_guarded_runs = 0;
    ADD_SYSTEM(w, .name = "on_change", .fn = count_run, .run_if = {&changed});
    ADD_SYSTEM(w, .name = "on_add", .fn = record, .run_if = {&added});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* no resource */
    assert_int_equal(ecs_sched_resource_insert(w, g_plain, &score), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* added */
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* nothing */
    assert_non_null(ecs_sched_resource_get_mut(w, g_plain));
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* changed */
    assert_non_null(ecs_sched_resource_get(w, g_plain));
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* read only */
    assert_int_equal(g_guarded_runs, 2);
    assert_string_equal(g_trace, "on_add");
    check_and_destroy(w);
}

/* ---- marking by hand: refusals, sparse components, and old sparse ticks ---- */

static ecs_sched_id sparse_heat(ecs_sched_world *w) {
    ecs_sched_component_desc d;
    ecs_sched_id heat;
    memset(&d, 0, sizeof d);
    d.name = "Heat";
    d.size = sizeof(Heat);
    d.alignment = ECS_SCHED_ALIGNOF(Heat);
    d.tracked = true;
    d.storage = ECS_SCHED_STORAGE_SPARSE;
    heat = ecs_sched_component_register(w, &d);
    assert_true(heat != 0);
    return heat;
}

static int32_t rows_of(const ecs_sched_query *q) {
    ecs_sched_iter it = ecs_sched_query_iter(q);
    int32_t rows = 0;
    while (ecs_sched_iter_next(&it)) rows += it.count;
    return rows;
}

static void marking_a_term_or_row_that_is_not_there_is_refused(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_query *q;
    ecs_sched_iter it;
    ecs_sched_query_desc d;
    (void)state;
    spawn_at(w, 1);
    memset(&d, 0, sizeof d);
    d.terms[0] = ecs_sched_write_manual(g_pos);
    d.terms[1] = ecs_sched_read(g_vel);
    d.terms[2] = ecs_sched_optional_write(g_plain);
    q = ecs_sched_query_create(w, &d);
    assert_non_null(q);
    it = ecs_sched_query_iter(q);
    assert_int_equal(ecs_sched_iter_mark_changed(&it, 0, 0), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "iter_mark_changed: row 0 is not a row of the "
                                                    "current run (0 to -1)"));
    assert_true(ecs_sched_iter_next(&it));
    assert_int_equal(ecs_sched_iter_mark_changed(&it, -1, 0), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "iter_mark_changed: term -1 is not a written "
                                                    "term of a tracked component"));
    assert_int_equal(ecs_sched_iter_mark_changed(&it, 3, 0), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "term 3 is not"));
    assert_int_equal(ecs_sched_iter_mark_changed(&it, 1, 0), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "term 1 is not"));
    assert_int_equal(ecs_sched_iter_mark_changed(&it, 2, 0), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "term 2 is not"));
    assert_int_equal(ecs_sched_iter_mark_changed(&it, 0, 1), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "row 1 is not a row of the current run (0 to 0)"));
    assert_int_equal(ecs_sched_iter_mark_changed(&it, 0, -1), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_iter_mark_changed(&it, 0, 0), ECS_SCHED_OK);
    while (ecs_sched_iter_next(&it)) {}
    ecs_sched_query_destroy(q);
    check_and_destroy(w);
}

static void a_manual_write_of_a_sparse_component_marks_only_the_rows_marked(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_id heat = sparse_heat(w);
    ecs_sched_entity e[3];
    ecs_sched_query *manual, *changed;
    ecs_sched_iter it;
    int i;
    (void)state;
    for (i = 0; i < 3; i++) e[i] = ecs_sched_spawn_with(w, 1, &heat, NULL);
    changed = query_of(w, ecs_sched_changed(heat), (ecs_sched_term){0});
    manual = query_of(w, ecs_sched_write_manual(heat), (ecs_sched_term){0});
    assert_int_equal(rows_of(changed), 3);
    assert_int_equal(rows_of(manual), 3);   /* handed out, none marked */
    assert_int_equal(rows_of(changed), 0);
    it = ecs_sched_query_iter(manual);
    while (ecs_sched_iter_next(&it)) {
        for (i = 0; i < it.count; i++) {
            if (it.entities[i] != e[1]) continue;
            ECS_SCHED_SPARSE_FIELD(&it, Heat, 0)[i]->turns = 5;
            assert_int_equal(ecs_sched_iter_mark_changed(&it, 0, i), ECS_SCHED_OK);
        }
    }
    it = ecs_sched_query_iter(changed);
    assert_true(ecs_sched_iter_next(&it));
    assert_int_equal(it.count, 1);
    assert_int_equal(it.entities[0], e[1]);
    assert_false(ecs_sched_iter_next(&it));
    assert_int_equal(((const Heat *)ecs_sched_get(w, e[1], heat))->turns, 5);
    check_and_destroy(w);
}

static int32_t sparse_rows_changed_after_advance(uint32_t ticks) {
    ecs_sched_world *w = new_world();
    ecs_sched_id heat = sparse_heat(w);
    ecs_sched_entity e = ecs_sched_spawn_with(w, 1, &heat, NULL);
    ecs_sched_entity quiet_one = ecs_sched_spawn_with(w, 1, &heat, NULL);
    ecs_sched_query *q = query_of(w, ecs_sched_changed(heat), (ecs_sched_term){0});
    int32_t rows;
    assert_int_equal(rows_of(q), 2);
    assert_non_null(ecs_sched_get_mut(w, e, heat));
    ecs_sched_change_tick_advance(w, ticks);
    rows = rows_of(q);
    assert_true(ecs_sched_is_alive(w, quiet_one));
    check_and_destroy(w);
    return rows;
}

static void an_old_change_of_a_sparse_component_is_still_seen_when_ticks_move(void **state) {
    (void)state;
    assert_int_equal(sparse_rows_changed_after_advance(3220176896u), 1);
    assert_int_equal(sparse_rows_changed_after_advance(3221225472u), 1);
    assert_int_equal(sparse_rows_changed_after_advance(UINT32_MAX), 1);
}

static void only_a_component_registered_as_tracked_is_tracked(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_id heat = sparse_heat(w);
    (void)state;
    assert_true(ecs_sched_component_is_tracked(w, g_pos));
    assert_true(ecs_sched_component_is_tracked(w, heat));
    assert_false(ecs_sched_component_is_tracked(w, g_vel));
    assert_false(ecs_sched_component_is_tracked(w, 4000));
    assert_false(ecs_sched_component_is_tracked(w, 0));
    assert_int_equal(ecs_sched_component_storage(w, heat), ECS_SCHED_STORAGE_SPARSE);
    assert_int_equal(ecs_sched_component_storage(w, g_pos), ECS_SCHED_STORAGE_TABLE);
    assert_int_equal(ecs_sched_component_storage(w, 4000), ECS_SCHED_STORAGE_TABLE);
    check_and_destroy(w);
}

static void bump_plain_when_gated(ecs_sched_system_ctx *ctx) {
    int *score;
    if (!g_gate) return;
    score = (int *)ecs_sched_ctx_resource_mut(ctx, g_plain);
    if (score) (*score)++;
}

static void a_resource_written_by_a_system_or_inserted_again_is_changed(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_condition changed = ecs_sched_condition_resource_changed(g_plain);
    int score = 1;
    (void)state;
    g_guarded_runs = 0;
    g_gate = false;
    assert_int_equal(ecs_sched_resource_insert(w, g_plain, &score), ECS_SCHED_OK);
    ADD_SYSTEM(w, .name = "bump", .fn = bump_plain_when_gated, .writes = {g_plain});
    ADD_SYSTEM(w, .name = "on_change", .fn = count_run, .run_if = {&changed}, .after = {"bump"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* there: new to it */
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* nothing */
    assert_int_equal(g_guarded_runs, 1);
    g_gate = true;
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* written by bump */
    assert_int_equal(g_guarded_runs, 2);
    g_gate = false;
    score = 5;
    assert_int_equal(ecs_sched_resource_insert(w, g_plain, &score), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* inserted again */
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* nothing */
    assert_int_equal(g_guarded_runs, 3);
    assert_int_equal(*(const int *)ecs_sched_resource_get(w, g_plain), 5);
    check_and_destroy(w);
}

/* ---- runs over tick blocks, and two filters read from the change log ---- */

static void a_change_of_every_row_of_two_whole_blocks_is_one_run(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_entity e[128];
    ecs_sched_query *q = query_of(w, ecs_sched_changed(g_pos), (ecs_sched_term){0});
    ecs_sched_iter it;
    int i;
    (void)state;
    for (i = 0; i < 128; i++) e[i] = spawn_at(w, (float)i);
    assert_int_equal(rows_of(q), 128);
    for (i = 0; i < 128; i++) assert_non_null(ecs_sched_get_mut(w, e[i], g_pos));
    it = ecs_sched_query_iter(q);
    assert_true(ecs_sched_iter_next(&it));
    assert_int_equal(it.count, 128);
    assert_false(ecs_sched_iter_next(&it));
    check_and_destroy(w);
}

static void an_added_query_skips_a_block_with_nothing_new(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_query *q = query_of(w, ecs_sched_added(g_pos), (ecs_sched_term){0});
    ecs_sched_iter it;
    int i;
    (void)state;
    for (i = 0; i < 100; i++) spawn_at(w, (float)i);
    assert_int_equal(rows_of(q), 100);
    spawn_at(w, 500);
    it = ecs_sched_query_iter(q);
    assert_true(ecs_sched_iter_next(&it));
    assert_int_equal(it.count, 1);
    assert_true(ECS_SCHED_FIELD(&it, Position, 0)[0].x == 500);
    assert_false(ecs_sched_iter_next(&it));
    check_and_destroy(w);
}

static int32_t rows_by_index(const ecs_sched_query *q) {
    ecs_sched_iter it = ecs_sched_query_iter(q);
    int32_t rows = 0;
    while (ecs_sched_iter_next_rows(&it)) rows += it.count;
    return rows;
}

static void by_index_a_query_both_added_and_changed_hands_out_the_new_rows_only(void **state) {
    ecs_sched_world *w = tracked_world();
    ecs_sched_query *q = query_of(w, ecs_sched_changed(g_pos), ecs_sched_added(g_pos));
    ecs_sched_entity e[5];
    int i;
    (void)state;
    for (i = 0; i < 5; i++) e[i] = spawn_at(w, (float)i);
    assert_int_equal(rows_by_index(q), 5);
    assert_non_null(ecs_sched_get_mut(w, e[1], g_pos));
    assert_non_null(ecs_sched_get_mut(w, e[3], g_pos));
    assert_int_equal(rows_by_index(q), 0);   /* changed, not added */
    spawn_at(w, 9);
    assert_non_null(ecs_sched_get_mut(w, e[2], g_pos));
    assert_int_equal(rows_by_index(q), 1);
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(only_a_component_registered_as_tracked_is_tracked),
        cmocka_unit_test(marking_a_term_or_row_that_is_not_there_is_refused),
        cmocka_unit_test(a_manual_write_of_a_sparse_component_marks_only_the_rows_marked),
        cmocka_unit_test(an_old_change_of_a_sparse_component_is_still_seen_when_ticks_move),
        cmocka_unit_test(a_changed_query_first_sees_every_entity_then_only_changes),
        cmocka_unit_test(an_added_query_sees_new_components_not_overwrites),
        cmocka_unit_test(a_changed_term_on_an_untracked_component_is_refused),
        cmocka_unit_test(registering_a_name_again_with_other_tracking_is_refused),
        cmocka_unit_test(changed_rows_come_as_runs_in_table_order),
        cmocka_unit_test(a_change_moves_with_its_entity_to_another_table),
        cmocka_unit_test(a_despawn_moves_the_last_rows_ticks_into_the_hole),
        cmocka_unit_test(a_written_field_marks_every_row_the_system_iterates),
        cmocka_unit_test(a_manual_write_marks_only_the_rows_the_loop_marks),
        cmocka_unit_test(a_system_sees_its_own_changes_once_and_changes_after_it_next_run),
        cmocka_unit_test(a_system_skipped_by_its_condition_then_sees_every_change_since_it_last_ran),
        cmocka_unit_test(a_changed_query_iterated_in_pieces_hands_out_the_same_rows),
        cmocka_unit_test(by_index_a_changed_query_hands_out_the_changed_rows_in_the_order_they_changed),
        cmocka_unit_test(by_index_a_plain_query_hands_out_every_row_a_bounded_number_at_a_time),
        cmocka_unit_test(by_index_a_marked_row_is_the_one_its_index_names),
        cmocka_unit_test(by_index_a_written_field_marks_the_rows_handed_out),
        cmocka_unit_test(by_index_and_by_runs_hand_out_the_same_entities),
        cmocka_unit_test(a_query_writes_a_component_only_where_it_changed),
        cmocka_unit_test(a_query_writes_a_sparse_component_only_where_it_changed),
        cmocka_unit_test(a_filter_on_a_component_another_term_names_adds_no_access),
        cmocka_unit_test(a_system_writing_where_changed_sees_only_the_changes_of_others_next_run),
        cmocka_unit_test(ticks_wrap_without_losing_or_inventing_changes),
        cmocka_unit_test(a_system_that_has_not_run_for_ages_sees_exactly_what_changed_since),
        cmocka_unit_test(a_change_older_than_the_age_at_which_ticks_move_is_still_seen),
        cmocka_unit_test(resource_changed_is_true_once_per_change_and_added_once),
        cmocka_unit_test(a_change_of_every_row_of_two_whole_blocks_is_one_run),
        cmocka_unit_test(an_added_query_skips_a_block_with_nothing_new),
        cmocka_unit_test(by_index_a_query_both_added_and_changed_hands_out_the_new_rows_only),
        cmocka_unit_test(a_resource_written_by_a_system_or_inserted_again_is_changed),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
