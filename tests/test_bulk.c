/* Bulk operations: removing a component from every entity that has it, despawning every
   entity with a component or related to a target, inserting or removing a component on every
   entity a query matches. Each keeps the rules of the operation on one entity (hooks, change
   ticks, removals, observers, relationships) and moves whole tables where it can. */
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

/* ---- a component whose hooks count what they do ---- */

typedef struct { int value; } Counted;

typedef struct hook_counts {
    int ctors, dtors, copies, moves;   /* values */
    int move_calls;                    /* calls of the move hook */
} hook_counts;

static hook_counts g_counts;

static void counted_ctor(void *dst, int32_t n, void *ctx) {
    (void)ctx;
    memset(dst, 0, sizeof(Counted) * (size_t)n);
    g_counts.ctors += n;
}

static void counted_dtor(void *ptr, int32_t n, void *ctx) {
    (void)ptr;
    (void)ctx;
    g_counts.dtors += n;
}

static void counted_copy(void *dst, const void *src, int32_t n, void *ctx) {
    (void)ctx;
    memcpy(dst, src, sizeof(Counted) * (size_t)n);
    g_counts.copies += n;
}

static void counted_move(void *dst, void *src, int32_t n, void *ctx) {
    (void)ctx;
    memcpy(dst, src, sizeof(Counted) * (size_t)n);
    g_counts.moves += n;
    g_counts.move_calls++;
}

static ecs_sched_id register_counted(ecs_sched_world *w, const char *name, bool tracked) {
    ecs_sched_component_desc desc;
    ecs_sched_id id;
    memset(&desc, 0, sizeof desc);
    desc.name = name;
    desc.size = sizeof(Counted);
    desc.hooks.ctor = counted_ctor;
    desc.hooks.dtor = counted_dtor;
    desc.hooks.copy = counted_copy;
    desc.hooks.move = counted_move;
    desc.tracked = tracked;
    id = ecs_sched_component_register(w, &desc);
    assert_true(id != 0);
    return id;
}

static ecs_sched_id register_tracked(ecs_sched_world *w, const char *name) {
    ecs_sched_id id = ecs_sched_tracked_component_register_type(w, name, sizeof(Health),
                                                                ECS_SCHED_ALIGNOF(Health));
    assert_true(id != 0);
    return id;
}

/* ---- a world with positions, velocities and health ---- */

typedef struct bulk_world {
    ecs_sched_world *w;
    ecs_sched_id position, velocity, health, frozen;
} bulk_world;

static bulk_world make_world(void) {
    bulk_world b;
    b.w = new_world();   /* destroys what a failed test left, whose values count */
    memset(&g_counts, 0, sizeof g_counts);
    b.position = ECS_SCHED_COMPONENT(b.w, Position);
    b.velocity = ECS_SCHED_COMPONENT(b.w, Velocity);
    b.health = ECS_SCHED_COMPONENT(b.w, Health);
    b.frozen = ECS_SCHED_TAG(b.w, Frozen);
    return b;
}

static ecs_sched_entity spawn_pv(const bulk_world *b, int i) {
    Position p = {(float)i, (float)-i};
    Velocity v = {(float)(10 * i), 1};
    return SPAWN(b->w, {b->position, &p}, {b->velocity, &v});
}

static ecs_sched_entity spawn_p(const bulk_world *b, int i) {
    Position p = {(float)i, (float)-i};
    return SPAWN(b->w, {b->position, &p});
}

static ecs_sched_entity spawn_v(const bulk_world *b, int i) {
    Velocity v = {(float)(10 * i), 1};
    return SPAWN(b->w, {b->velocity, &v});
}

static void assert_velocity(const bulk_world *b, ecs_sched_entity e, int i) {
    const Velocity *v = (const Velocity *)ecs_sched_get(b->w, e, b->velocity);
    assert_non_null(v);
    assert_true(v->x == (float)(10 * i) && v->y == 1.0f);
}

static void assert_position(const bulk_world *b, ecs_sched_entity e, int i) {
    const Position *p = (const Position *)ecs_sched_get(b->w, e, b->position);
    assert_non_null(p);
    assert_true(p->x == (float)i && p->y == (float)-i);
}

/* How many live entities among `e` have `id`. */
static int having(ecs_sched_world *w, const ecs_sched_entity *e, int n, ecs_sched_id id) {
    int i, count = 0;
    for (i = 0; i < n; i++) count += ecs_sched_is_alive(w, e[i]) && ecs_sched_has(w, e[i], id);
    return count;
}

static int alive(ecs_sched_world *w, const ecs_sched_entity *e, int n) {
    int i, count = 0;
    for (i = 0; i < n; i++) count += ecs_sched_is_alive(w, e[i]);
    return count;
}

/* The removals of a tracked component a cursor reads, as a count; `seen` gets each entity
   found in e (its position). */
static int read_removals(ecs_sched_world *w, ecs_sched_message_cursor *cursor,
                         const ecs_sched_entity *e, int n, bool *seen) {
    ecs_sched_messages read = ecs_sched_message_read(w, cursor);
    int total = 0, i, k;
    do {
        const ecs_sched_entity *items = (const ecs_sched_entity *)read.data;
        for (i = 0; i < read.count; i++) {
            for (k = 0; k < n; k++) {
                if (items[i] == e[k]) seen[k] = true;
            }
        }
        total += read.count;
    } while (ecs_sched_messages_next(&read));
    return total;
}

/* ---- observers ---- */

typedef struct observed {
    int calls;
    float sum_x;          /* of the Position values read as they go */
    ecs_sched_id position;
    ecs_sched_id frozen;  /* inserted through the world by the observer (deferred) */
} observed;

static void on_remove_position(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *trigger) {
    observed *o = (observed *)ecs_sched_ctx_user_data(ctx);
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    const Position *p = (const Position *)ecs_sched_get(w, trigger->entity, o->position);
    o->calls++;
    if (p) o->sum_x += p->x;
    if (o->frozen) assert_int_equal(ecs_sched_insert(w, trigger->entity, o->frozen, NULL), ECS_SCHED_OK);
}

static void count_call(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *trigger) {
    observed *o = (observed *)ecs_sched_ctx_user_data(ctx);
    (void)trigger;
    o->calls++;
}

static uint32_t observe(ecs_sched_world *w, ecs_sched_observer_event event, ecs_sched_id id,
                        ecs_sched_observer_fn fn, observed *o) {
    ecs_sched_observer_desc desc;
    uint32_t handle;
    memset(&desc, 0, sizeof desc);
    desc.event = event;
    desc.component = id;
    desc.fn = fn;
    desc.user_data = o;
    desc.sees_disabled = desc.sees_prefabs = true;
    handle = ecs_sched_observer_add(w, &desc);
    assert_true(handle != 0);
    return handle;
}

/* ==== remove_all ==== */

static void test_remove_all_takes_a_table_component_from_every_entity_and_keeps_the_others(void **state) {
    bulk_world b = make_world();
    ecs_sched_entity pv[10], p[5], v[3];
    int i;
    (void)state;
    for (i = 0; i < 10; i++) pv[i] = spawn_pv(&b, i);
    for (i = 0; i < 5; i++) p[i] = spawn_p(&b, i);
    for (i = 0; i < 3; i++) v[i] = spawn_v(&b, i);
    assert_int_equal(ecs_sched_remove_all(b.w, b.position), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_entity_count(b.w), 18);
    assert_int_equal(having(b.w, pv, 10, b.position) + having(b.w, p, 5, b.position), 0);
    for (i = 0; i < 10; i++) assert_velocity(&b, pv[i], i);
    for (i = 0; i < 3; i++) assert_velocity(&b, v[i], i);
    assert_int_equal(having(b.w, p, 5, b.velocity), 0);
    check_and_destroy(b.w);
}

static void test_remove_all_relocates_each_column_of_a_table_in_one_move(void **state) {
    bulk_world b = make_world();
    ecs_sched_id counted = register_counted(b.w, "Counted", false);
    ecs_sched_entity e[100];
    int i;
    (void)state;
    for (i = 0; i < 100; i++) {
        Counted c = {i};
        e[i] = SPAWN(b.w, {counted, &c}, {b.position, NULL});
    }
    g_counts.move_calls = g_counts.moves = 0;
    assert_int_equal(ecs_sched_remove_all(b.w, b.position), ECS_SCHED_OK);
    /* one table: the Counted column moved with one call of its move hook */
    assert_int_equal(g_counts.move_calls, 1);
    assert_int_equal(g_counts.moves, 100);
    for (i = 0; i < 100; i++) {
        const Counted *c = (const Counted *)ecs_sched_get(b.w, e[i], counted);
        assert_non_null(c);
        assert_int_equal(c->value, i);
    }
    check_and_destroy(b.w);
}

static void test_remove_all_destroys_each_removed_value_once(void **state) {
    bulk_world b = make_world();
    ecs_sched_id counted = register_counted(b.w, "Counted", false);
    ecs_sched_entity e[30];
    int i;
    (void)state;
    for (i = 0; i < 30; i++) {
        e[i] = i % 3 ? SPAWN(b.w, {counted, NULL}, {b.position, NULL})
                     : SPAWN(b.w, {counted, NULL}, {b.velocity, NULL}, {b.frozen, NULL});
    }
    assert_int_equal(g_counts.ctors, 30);
    assert_int_equal(ecs_sched_remove_all(b.w, counted), ECS_SCHED_OK);
    assert_int_equal(g_counts.dtors, 30);
    assert_int_equal(having(b.w, e, 30, counted), 0);
    assert_int_equal(having(b.w, e, 30, b.position), 20);
    assert_int_equal(having(b.w, e, 30, b.frozen), 10);
    check_and_destroy(b.w);
    assert_int_equal(g_counts.dtors, 30);   /* nothing destroyed twice with the world */
}

static void test_remove_all_logs_the_removal_of_a_tracked_component_for_each_entity(void **state) {
    bulk_world b = make_world();
    ecs_sched_id hp = register_tracked(b.w, "Hp");
    ecs_sched_message_cursor cursor;
    ecs_sched_entity e[12];
    bool seen[12] = {false};
    int i;
    (void)state;
    for (i = 0; i < 12; i++) e[i] = i % 2 ? SPAWN(b.w, {hp, NULL}) : SPAWN(b.w, {hp, NULL}, {b.position, NULL});
    cursor = ecs_sched_removed_cursor_make(b.w, hp);
    assert_int_equal(ecs_sched_remove_all(b.w, hp), ECS_SCHED_OK);
    assert_int_equal(read_removals(b.w, &cursor, e, 12, seen), 12);
    for (i = 0; i < 12; i++) assert_true(seen[i]);
    check_and_destroy(b.w);
}

static void test_entities_that_remove_all_moves_keep_their_change_ticks(void **state) {
    bulk_world b = make_world();
    ecs_sched_id hp = register_tracked(b.w, "Hp");
    ecs_sched_query *added = QUERY(b.w, ecs_sched_added(hp));
    ecs_sched_entity e[8];
    int i;
    (void)state;
    for (i = 0; i < 8; i++) e[i] = SPAWN(b.w, {hp, NULL}, {b.position, NULL});
    {
        ecs_sched_iter it = ecs_sched_query_iter(added);   /* looks once: all 8 added */
        int seen = 0;
        while (ecs_sched_iter_next(&it)) seen += it.count;
        assert_int_equal(seen, 8);
    }
    assert_int_equal(ecs_sched_remove_all(b.w, b.position), ECS_SCHED_OK);
    {
        ecs_sched_iter it = ecs_sched_query_iter(added);   /* moved, not added again */
        int seen = 0;
        while (ecs_sched_iter_next(&it)) seen += it.count;
        assert_int_equal(seen, 0);
    }
    assert_int_equal(having(b.w, e, 8, hp), 8);
    check_and_destroy(b.w);
}

static void test_remove_all_calls_on_remove_observers_for_each_entity_with_the_value_readable(void **state) {
    bulk_world b = make_world();
    observed o;
    ecs_sched_entity e[6];
    int i;
    (void)state;
    memset(&o, 0, sizeof o);
    o.position = b.position;
    observe(b.w, ECS_SCHED_ON_REMOVE, b.position, on_remove_position, &o);
    for (i = 0; i < 6; i++) e[i] = i < 3 ? spawn_p(&b, i + 1) : spawn_pv(&b, i + 1);
    assert_int_equal(ecs_sched_remove_all(b.w, b.position), ECS_SCHED_OK);
    assert_int_equal(o.calls, 6);
    assert_true(o.sum_x == 21.0f);   /* 1 + 2 + ... + 6 */
    assert_int_equal(having(b.w, e, 6, b.position), 0);
    check_and_destroy(b.w);
}

static void test_remove_all_applies_what_its_observers_change_after_each_removal(void **state) {
    bulk_world b = make_world();
    observed o;
    ecs_sched_entity e[5];
    int i;
    (void)state;
    memset(&o, 0, sizeof o);
    o.position = b.position;
    o.frozen = b.frozen;
    observe(b.w, ECS_SCHED_ON_REMOVE, b.position, on_remove_position, &o);
    for (i = 0; i < 5; i++) e[i] = spawn_p(&b, i);
    assert_int_equal(ecs_sched_remove_all(b.w, b.position), ECS_SCHED_OK);
    assert_int_equal(o.calls, 5);
    assert_int_equal(having(b.w, e, 5, b.frozen), 5);
    assert_int_equal(having(b.w, e, 5, b.position), 0);
    check_and_destroy(b.w);
}

static void test_remove_all_with_an_observer_of_another_component_moves_whole_tables(void **state) {
    bulk_world b = make_world();
    ecs_sched_id counted = register_counted(b.w, "Counted", false);
    observed o;
    int i;
    (void)state;
    memset(&o, 0, sizeof o);
    observe(b.w, ECS_SCHED_ON_REMOVE, b.velocity, count_call, &o);
    observe(b.w, ECS_SCHED_ON_ADD, b.position, count_call, &o);
    for (i = 0; i < 10; i++) SPAWN(b.w, {counted, NULL}, {b.position, NULL});
    o.calls = 0;
    g_counts.move_calls = 0;
    assert_int_equal(ecs_sched_remove_all(b.w, b.position), ECS_SCHED_OK);
    assert_int_equal(g_counts.move_calls, 1);
    assert_int_equal(o.calls, 0);
    check_and_destroy(b.w);
}

static void test_remove_all_with_an_on_remove_observer_goes_entity_by_entity(void **state) {
    bulk_world b = make_world();
    ecs_sched_id counted = register_counted(b.w, "Counted", false);
    observed o;
    int i;
    (void)state;
    memset(&o, 0, sizeof o);
    observe(b.w, ECS_SCHED_ON_REMOVE, b.position, count_call, &o);
    for (i = 0; i < 10; i++) SPAWN(b.w, {counted, NULL}, {b.position, NULL});
    g_counts.move_calls = 0;
    assert_int_equal(ecs_sched_remove_all(b.w, b.position), ECS_SCHED_OK);
    assert_int_equal(o.calls, 10);
    assert_true(g_counts.move_calls >= 10);   /* a move per entity, not one for the table */
    check_and_destroy(b.w);
}

static void test_remove_all_of_a_sparse_component_empties_its_set(void **state) {
    bulk_world b = make_world();
    ecs_sched_id sparse = ecs_sched_sparse_component_register_type(b.w, "Buff", sizeof(Health),
                                                                   ECS_SCHED_ALIGNOF(Health));
    ecs_sched_entity e[9];
    int i;
    (void)state;
    assert_true(sparse != 0);
    for (i = 0; i < 9; i++) {
        Health h = {i};
        e[i] = spawn_p(&b, i);
        if (i % 3) assert_int_equal(ecs_sched_insert(b.w, e[i], sparse, &h), ECS_SCHED_OK);
    }
    assert_int_equal(having(b.w, e, 9, sparse), 6);
    assert_int_equal(ecs_sched_remove_all(b.w, sparse), ECS_SCHED_OK);
    assert_int_equal(having(b.w, e, 9, sparse), 0);
    for (i = 0; i < 9; i++) assert_position(&b, e[i], i);
    check_and_destroy(b.w);
}

static void test_remove_all_of_a_tracked_sparse_component_logs_each_removal(void **state) {
    bulk_world b = make_world();
    ecs_sched_component_desc desc;
    ecs_sched_id sparse;
    ecs_sched_message_cursor cursor;
    ecs_sched_entity e[4];
    bool seen[4] = {false};
    int i;
    (void)state;
    memset(&desc, 0, sizeof desc);
    desc.name = "Mark";
    desc.size = sizeof(Health);
    desc.tracked = true;
    desc.storage = ECS_SCHED_STORAGE_SPARSE;
    sparse = ecs_sched_component_register(b.w, &desc);
    assert_true(sparse != 0);
    for (i = 0; i < 4; i++) e[i] = SPAWN(b.w, {sparse, NULL});
    cursor = ecs_sched_removed_cursor_make(b.w, sparse);
    assert_int_equal(ecs_sched_remove_all(b.w, sparse), ECS_SCHED_OK);
    assert_int_equal(read_removals(b.w, &cursor, e, 4, seen), 4);
    for (i = 0; i < 4; i++) assert_true(seen[i]);
    check_and_destroy(b.w);
}

static ecs_sched_id register_kind(ecs_sched_world *w, const char *name,
                                  ecs_sched_target_despawn policy) {
    ecs_sched_relation_desc desc;
    ecs_sched_id kind;
    memset(&desc, 0, sizeof desc);
    desc.name = name;
    desc.on_target_despawn = policy;
    kind = ecs_sched_relation_register(w, &desc);
    assert_true(kind != 0);
    return kind;
}

static void test_remove_all_of_a_relationship_kind_unrelates_every_source(void **state) {
    bulk_world b = make_world();
    ecs_sched_id likes = register_kind(b.w, "Likes", ECS_SCHED_TARGET_DEFAULT);
    ecs_sched_entity t1 = spawn_p(&b, 0), t2 = spawn_p(&b, 1), s[6];
    int32_t n = -1;
    int i;
    (void)state;
    for (i = 0; i < 6; i++) {
        s[i] = spawn_v(&b, i);
        assert_int_equal(ecs_sched_relate(b.w, s[i], likes, t1, NULL), ECS_SCHED_OK);
        if (i % 2) assert_int_equal(ecs_sched_relate(b.w, s[i], likes, t2, NULL), ECS_SCHED_OK);
    }
    assert_int_equal(ecs_sched_remove_all(b.w, likes), ECS_SCHED_OK);
    assert_int_equal(having(b.w, s, 6, likes), 0);
    assert_null(ecs_sched_sources(b.w, likes, t1, &n));
    assert_int_equal(n, 0);
    ecs_sched_sources(b.w, likes, t2, &n);
    assert_int_equal(n, 0);
    for (i = 0; i < 6; i++) assert_velocity(&b, s[i], i);
    check_and_destroy(b.w);
}

static void test_remove_all_reaches_disabled_entities_and_prefabs(void **state) {
    bulk_world b = make_world();
    ecs_sched_entity e[3];
    (void)state;
    e[0] = spawn_pv(&b, 0);
    e[1] = spawn_pv(&b, 1);
    e[2] = spawn_pv(&b, 2);
    assert_int_equal(ecs_sched_disable(b.w, e[1]), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(b.w, e[2], ecs_sched_prefab_tag(b.w), NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_remove_all(b.w, b.position), ECS_SCHED_OK);
    assert_int_equal(having(b.w, e, 3, b.position), 0);
    assert_true(ecs_sched_is_disabled(b.w, e[1]));
    assert_true(ecs_sched_has(b.w, e[2], ecs_sched_prefab_tag(b.w)));
    check_and_destroy(b.w);
}

static void test_remove_all_of_an_unknown_component_fails_naming_it(void **state) {
    bulk_world b = make_world();
    ecs_sched_entity e = spawn_pv(&b, 3);
    (void)state;
    assert_int_equal(ecs_sched_remove_all(b.w, 999), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_non_null(strstr(ecs_sched_last_error(b.w), "remove_all: component id 999"));
    assert_int_equal(ecs_sched_delete_with(b.w, 999), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_non_null(strstr(ecs_sched_last_error(b.w), "delete_with: component id 999"));
    assert_position(&b, e, 3);
    assert_int_equal(ecs_sched_entity_count(b.w), 1);
    check_and_destroy(b.w);
}

/* A system that is not exclusive gets no world from its context: it reaches the world it
   should not change through the fixture's. */
static void call_remove_all(ecs_sched_system_ctx *ctx) {
    const ecs_sched_id *id = (const ecs_sched_id *)ecs_sched_ctx_user_data(ctx);
    (void)ecs_sched_remove_all(g_world, *id);
}

static void call_delete_with(ecs_sched_system_ctx *ctx) {
    const ecs_sched_id *id = (const ecs_sched_id *)ecs_sched_ctx_user_data(ctx);
    (void)ecs_sched_delete_with(ecs_sched_ctx_world(ctx), *id);
}

static void test_bulk_operations_from_a_running_system_that_is_not_exclusive_are_refused(void **state) {
    bulk_world b = make_world();
    ecs_sched_entity e = spawn_pv(&b, 1);
    (void)state;
    ADD_SYSTEM(b.w, .name = "sweeper", .fn = call_remove_all, .user_data = &b.position);
    assert_int_equal(ecs_sched_run_schedule(b.w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_non_null(strstr(ecs_sched_last_error(b.w), "remove_all through the world"));
    assert_non_null(strstr(ecs_sched_last_error(b.w), "sweeper"));
    assert_position(&b, e, 1);
    check_and_destroy(b.w);
}

static void test_bulk_operations_from_an_exclusive_system_are_done(void **state) {
    bulk_world b = make_world();
    ecs_sched_entity e = spawn_pv(&b, 1), f = spawn_v(&b, 2);
    (void)state;
    ADD_SYSTEM(b.w, .name = "sweeper", .fn = call_delete_with, .user_data = &b.position,
               .exclusive = true);
    assert_int_equal(ecs_sched_run_schedule(b.w, UPDATE), ECS_SCHED_OK);
    assert_false(ecs_sched_is_alive(b.w, e));
    assert_true(ecs_sched_is_alive(b.w, f));
    check_and_destroy(b.w);
}

static void remove_all_inside(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *trigger) {
    observed *o = (observed *)ecs_sched_ctx_user_data(ctx);
    (void)trigger;
    o->calls++;
    assert_int_equal(ecs_sched_remove_all(ecs_sched_ctx_world(ctx), o->position),
                     ECS_SCHED_ERR_ACCESS);
}

static void test_remove_all_inside_an_observer_is_refused(void **state) {
    bulk_world b = make_world();
    observed o;
    ecs_sched_entity e = spawn_pv(&b, 4);
    (void)state;
    memset(&o, 0, sizeof o);
    o.position = b.position;
    observe(b.w, ECS_SCHED_ON_ADD, b.frozen, remove_all_inside, &o);
    (void)ecs_sched_insert(b.w, e, b.frozen, NULL);   /* the observer's failure is the world's */
    assert_int_equal(o.calls, 1);
    assert_int_equal(ecs_sched_last_result(b.w), ECS_SCHED_ERR_ACCESS);
    assert_non_null(strstr(ecs_sched_last_error(b.w), "remove_all inside an observer"));
    assert_position(&b, e, 4);
    check_and_destroy(b.w);
}

/* ==== delete_with ==== */

static void test_delete_with_despawns_every_entity_with_the_component(void **state) {
    bulk_world b = make_world();
    ecs_sched_entity pv[7], p[4], v[5];
    int i;
    (void)state;
    for (i = 0; i < 7; i++) pv[i] = spawn_pv(&b, i);
    for (i = 0; i < 4; i++) p[i] = spawn_p(&b, i);
    for (i = 0; i < 5; i++) v[i] = spawn_v(&b, i);
    assert_int_equal(ecs_sched_delete_with(b.w, b.position), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_entity_count(b.w), 5);
    assert_int_equal(alive(b.w, pv, 7) + alive(b.w, p, 4), 0);
    for (i = 0; i < 5; i++) assert_velocity(&b, v[i], i);
    check_and_destroy(b.w);
}

static void test_delete_with_destroys_every_value_of_the_despawned_entities(void **state) {
    bulk_world b = make_world();
    ecs_sched_id counted = register_counted(b.w, "Counted", false);
    int i;
    (void)state;
    for (i = 0; i < 20; i++) {
        if (i % 4) SPAWN(b.w, {counted, NULL}, {b.frozen, NULL});
        else SPAWN(b.w, {counted, NULL}, {b.position, NULL});
    }
    assert_int_equal(ecs_sched_delete_with(b.w, b.frozen), ECS_SCHED_OK);
    assert_int_equal(g_counts.dtors, 15);
    assert_int_equal(ecs_sched_entity_count(b.w), 5);
    check_and_destroy(b.w);
    assert_int_equal(g_counts.dtors, 20);
}

static void test_delete_with_logs_the_removals_of_tracked_components(void **state) {
    bulk_world b = make_world();
    ecs_sched_id hp = register_tracked(b.w, "Hp");
    ecs_sched_message_cursor cursor;
    ecs_sched_entity e[6];
    bool seen[6] = {false};
    int i;
    (void)state;
    for (i = 0; i < 6; i++) e[i] = SPAWN(b.w, {hp, NULL}, {b.frozen, NULL});
    SPAWN(b.w, {hp, NULL});
    cursor = ecs_sched_removed_cursor_make(b.w, hp);
    assert_int_equal(ecs_sched_delete_with(b.w, b.frozen), ECS_SCHED_OK);
    assert_int_equal(read_removals(b.w, &cursor, e, 6, seen), 6);
    for (i = 0; i < 6; i++) assert_true(seen[i]);
    check_and_destroy(b.w);
}

static void test_delete_with_drops_the_sparse_components_of_the_despawned_entities(void **state) {
    bulk_world b = make_world();
    ecs_sched_id sparse = ecs_sched_sparse_component_register_type(b.w, "Buff", sizeof(Health),
                                                                   ECS_SCHED_ALIGNOF(Health));
    ecs_sched_entity e[4], kept;
    int i;
    (void)state;
    for (i = 0; i < 4; i++) e[i] = SPAWN(b.w, {b.frozen, NULL}, {sparse, NULL});
    kept = SPAWN(b.w, {b.position, NULL}, {sparse, NULL});
    assert_int_equal(ecs_sched_delete_with(b.w, b.frozen), ECS_SCHED_OK);
    assert_int_equal(alive(b.w, e, 4), 0);
    assert_true(ecs_sched_has(b.w, kept, sparse));
    check_and_destroy(b.w);
}

static void test_delete_with_of_a_sparse_component_despawns_its_members(void **state) {
    bulk_world b = make_world();
    ecs_sched_id sparse = ecs_sched_sparse_component_register_type(b.w, "Buff", sizeof(Health),
                                                                   ECS_SCHED_ALIGNOF(Health));
    ecs_sched_entity e[6];
    int i;
    (void)state;
    for (i = 0; i < 6; i++) e[i] = i % 2 ? SPAWN(b.w, {b.position, NULL}, {sparse, NULL}) : spawn_p(&b, i);
    assert_int_equal(ecs_sched_delete_with(b.w, sparse), ECS_SCHED_OK);
    for (i = 0; i < 6; i++) assert_int_equal(ecs_sched_is_alive(b.w, e[i]), i % 2 == 0);
    check_and_destroy(b.w);
}

static void test_delete_with_calls_on_despawn_and_on_remove_observers_for_each_entity(void **state) {
    bulk_world b = make_world();
    observed despawned, removed;
    int i;
    (void)state;
    memset(&despawned, 0, sizeof despawned);
    memset(&removed, 0, sizeof removed);
    removed.position = b.position;
    observe(b.w, ECS_SCHED_ON_DESPAWN, 0, count_call, &despawned);
    observe(b.w, ECS_SCHED_ON_REMOVE, b.position, on_remove_position, &removed);
    for (i = 1; i <= 4; i++) spawn_pv(&b, i);
    spawn_v(&b, 9);
    assert_int_equal(ecs_sched_delete_with(b.w, b.position), ECS_SCHED_OK);
    assert_int_equal(despawned.calls, 4);
    assert_int_equal(removed.calls, 4);
    assert_true(removed.sum_x == 10.0f);
    assert_int_equal(ecs_sched_entity_count(b.w), 1);
    check_and_destroy(b.w);
}

static void test_delete_with_despawns_the_children_of_the_despawned_parents(void **state) {
    bulk_world b = make_world();
    ecs_sched_id child_of;
    ecs_sched_entity parent, child, grandchild, other;
    (void)state;
    child_of = ecs_sched_child_of(b.w);
    parent = SPAWN(b.w, {b.frozen, NULL});
    child = spawn_v(&b, 1);
    grandchild = spawn_v(&b, 2);
    other = spawn_v(&b, 3);
    assert_int_equal(ecs_sched_relate(b.w, child, child_of, parent, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(b.w, grandchild, child_of, child, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_delete_with(b.w, b.frozen), ECS_SCHED_OK);
    assert_false(ecs_sched_is_alive(b.w, parent));
    assert_false(ecs_sched_is_alive(b.w, child));
    assert_false(ecs_sched_is_alive(b.w, grandchild));
    assert_true(ecs_sched_is_alive(b.w, other));
    check_and_destroy(b.w);
}

static void test_delete_with_forgets_the_names_of_the_despawned_entities(void **state) {
    bulk_world b = make_world();
    ecs_sched_entity e = spawn_p(&b, 1), f = spawn_v(&b, 2);
    (void)state;
    assert_int_equal(ecs_sched_set_name(b.w, e, "doomed"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(b.w, f, "kept"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_delete_with(b.w, b.position), ECS_SCHED_OK);
    assert_true(ecs_sched_lookup(b.w, ECS_SCHED_NULL_ENTITY, "doomed") == ECS_SCHED_NULL_ENTITY);
    assert_true(ecs_sched_lookup(b.w, ECS_SCHED_NULL_ENTITY, "kept") == f);
    check_and_destroy(b.w);
}

static void test_delete_with_reaches_disabled_entities_and_prefabs(void **state) {
    bulk_world b = make_world();
    ecs_sched_entity e[3];
    (void)state;
    e[0] = spawn_pv(&b, 0);
    e[1] = spawn_pv(&b, 1);
    e[2] = spawn_pv(&b, 2);
    assert_int_equal(ecs_sched_disable(b.w, e[1]), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(b.w, e[2], ecs_sched_prefab_tag(b.w), NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_delete_with(b.w, b.velocity), ECS_SCHED_OK);
    assert_int_equal(alive(b.w, e, 3), 0);
    check_and_destroy(b.w);
}

static void test_delete_with_tries_a_refused_despawn_again_once_its_sources_are_gone(void **state) {
    bulk_world b = make_world();
    ecs_sched_id guards = register_kind(b.w, "Guards", ECS_SCHED_TARGET_REFUSE);
    ecs_sched_entity target, source;
    (void)state;
    target = SPAWN(b.w, {b.frozen, NULL});   /* its table comes first: it is tried first */
    source = SPAWN(b.w, {b.frozen, NULL}, {b.position, NULL});
    assert_int_equal(ecs_sched_relate(b.w, source, guards, target, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_delete_with(b.w, b.frozen), ECS_SCHED_OK);
    assert_false(ecs_sched_is_alive(b.w, target));
    assert_false(ecs_sched_is_alive(b.w, source));
    check_and_destroy(b.w);
}

static void test_delete_with_keeps_what_a_kind_refuses_and_reports_the_refusal(void **state) {
    bulk_world b = make_world();
    ecs_sched_id guards = register_kind(b.w, "Guards", ECS_SCHED_TARGET_REFUSE);
    ecs_sched_entity target, source, other;
    (void)state;
    target = SPAWN(b.w, {b.frozen, NULL});
    other = SPAWN(b.w, {b.frozen, NULL}, {b.velocity, NULL});
    source = spawn_p(&b, 1);
    assert_int_equal(ecs_sched_relate(b.w, source, guards, target, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_delete_with(b.w, b.frozen), ECS_SCHED_ERR_REFUSED);
    assert_non_null(strstr(ecs_sched_last_error(b.w), "delete_with: "));
    assert_true(ecs_sched_is_alive(b.w, target));
    assert_true(ecs_sched_is_alive(b.w, source));
    assert_false(ecs_sched_is_alive(b.w, other));
    check_and_destroy(b.w);
}

/* ==== delete_with_pair, remove_all_pairs ==== */

static void test_delete_with_pair_of_child_of_despawns_the_subtree_and_keeps_the_parent(void **state) {
    bulk_world b = make_world();
    ecs_sched_id child_of;
    ecs_sched_entity parent, c[3], g[3], sibling_tree;
    int i;
    (void)state;
    child_of = ecs_sched_child_of(b.w);
    parent = spawn_p(&b, 0);
    sibling_tree = spawn_p(&b, 100);
    for (i = 0; i < 3; i++) {
        c[i] = spawn_v(&b, i);
        g[i] = spawn_pv(&b, i);
        assert_int_equal(ecs_sched_relate(b.w, c[i], child_of, parent, NULL), ECS_SCHED_OK);
        assert_int_equal(ecs_sched_relate(b.w, g[i], child_of, c[i], NULL), ECS_SCHED_OK);
    }
    assert_int_equal(ecs_sched_delete_with_pair(b.w, child_of, parent), ECS_SCHED_OK);
    assert_int_equal(alive(b.w, c, 3) + alive(b.w, g, 3), 0);
    assert_position(&b, parent, 0);
    assert_position(&b, sibling_tree, 100);
    assert_int_equal(ecs_sched_entity_count(b.w), 2);
    check_and_destroy(b.w);
}

static void test_delete_with_pair_of_a_component_that_is_no_kind_fails_naming_it(void **state) {
    bulk_world b = make_world();
    ecs_sched_entity e = spawn_p(&b, 0);
    (void)state;
    assert_int_equal(ecs_sched_delete_with_pair(b.w, b.position, e), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(b.w), "delete_with_pair: 'Position' is not a relationship kind"));
    assert_int_equal(ecs_sched_remove_all_pairs(b.w, b.position, e), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(b.w), "remove_all_pairs: 'Position'"));
    assert_true(ecs_sched_is_alive(b.w, e));
    check_and_destroy(b.w);
}

static void test_delete_with_pair_of_a_dead_target_fails_naming_it(void **state) {
    bulk_world b = make_world();
    ecs_sched_entity e = spawn_p(&b, 0);
    (void)state;
    assert_int_equal(ecs_sched_despawn(b.w, e), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_delete_with_pair(b.w, ecs_sched_child_of(b.w), e),
                     ECS_SCHED_ERR_STALE_ENTITY);
    assert_non_null(strstr(ecs_sched_last_error(b.w), "delete_with_pair"));
    check_and_destroy(b.w);
}

static void test_remove_all_pairs_unrelates_the_sources_of_one_target_only(void **state) {
    bulk_world b = make_world();
    ecs_sched_id likes = register_kind(b.w, "Likes", ECS_SCHED_TARGET_DEFAULT);
    ecs_sched_entity t1 = spawn_p(&b, 0), t2 = spawn_p(&b, 1), s[4];
    int32_t n = -1;
    int i;
    (void)state;
    for (i = 0; i < 4; i++) {
        s[i] = spawn_v(&b, i);
        assert_int_equal(ecs_sched_relate(b.w, s[i], likes, t1, NULL), ECS_SCHED_OK);
        if (i < 2) assert_int_equal(ecs_sched_relate(b.w, s[i], likes, t2, NULL), ECS_SCHED_OK);
    }
    assert_int_equal(ecs_sched_remove_all_pairs(b.w, likes, t1), ECS_SCHED_OK);
    ecs_sched_sources(b.w, likes, t1, &n);
    assert_int_equal(n, 0);
    ecs_sched_sources(b.w, likes, t2, &n);
    assert_int_equal(n, 2);
    for (i = 0; i < 4; i++) {
        assert_false(ecs_sched_has_relation(b.w, s[i], likes, t1));
        assert_int_equal(ecs_sched_has_relation(b.w, s[i], likes, t2), i < 2);
    }
    assert_int_equal(ecs_sched_entity_count(b.w), 6);
    check_and_destroy(b.w);
}

/* ==== query_insert, query_remove ==== */

static void test_query_insert_gives_every_matched_entity_a_copy_of_the_value(void **state) {
    bulk_world b = make_world();
    ecs_sched_query *q;
    ecs_sched_entity pv[5], p[4], v[3];
    Health h = {77};
    int i;
    (void)state;
    for (i = 0; i < 5; i++) pv[i] = spawn_pv(&b, i);
    for (i = 0; i < 4; i++) p[i] = spawn_p(&b, i);
    for (i = 0; i < 3; i++) v[i] = spawn_v(&b, i);
    q = QUERY(b.w, ecs_sched_read(b.position));
    assert_int_equal(ecs_sched_query_insert(b.w, q, b.health, &h), ECS_SCHED_OK);
    for (i = 0; i < 5; i++) {
        assert_int_equal(((const Health *)ecs_sched_get(b.w, pv[i], b.health))->hp, 77);
        assert_position(&b, pv[i], i);
        assert_velocity(&b, pv[i], i);
    }
    for (i = 0; i < 4; i++) assert_int_equal(((const Health *)ecs_sched_get(b.w, p[i], b.health))->hp, 77);
    assert_int_equal(having(b.w, v, 3, b.health), 0);
    assert_int_equal(ecs_sched_entity_count(b.w), 12);
    check_and_destroy(b.w);
}

static void test_query_insert_without_a_value_constructs_a_default_value(void **state) {
    bulk_world b = make_world();
    ecs_sched_id counted = register_counted(b.w, "Counted", false);
    ecs_sched_query *q;
    ecs_sched_entity e[6];
    int i;
    (void)state;
    for (i = 0; i < 6; i++) e[i] = spawn_p(&b, i);
    q = QUERY(b.w, ecs_sched_read(b.position));
    assert_int_equal(ecs_sched_query_insert(b.w, q, counted, NULL), ECS_SCHED_OK);
    assert_int_equal(g_counts.ctors, 6);
    assert_int_equal(g_counts.copies, 0);
    for (i = 0; i < 6; i++) assert_int_equal(((const Counted *)ecs_sched_get(b.w, e[i], counted))->value, 0);
    check_and_destroy(b.w);
    assert_int_equal(g_counts.dtors, 6);
}

static void test_query_insert_writes_over_the_value_of_entities_that_have_it_once_each(void **state) {
    bulk_world b = make_world();
    ecs_sched_id counted = register_counted(b.w, "Counted", false);
    ecs_sched_query *q;
    ecs_sched_entity had[3], lacked[4];
    Counted value = {5};
    int i;
    (void)state;
    for (i = 0; i < 3; i++) had[i] = SPAWN(b.w, {b.position, NULL}, {counted, NULL});
    for (i = 0; i < 4; i++) lacked[i] = spawn_p(&b, i);
    memset(&g_counts, 0, sizeof g_counts);
    q = QUERY(b.w, ecs_sched_read(b.position));
    assert_int_equal(ecs_sched_query_insert(b.w, q, counted, &value), ECS_SCHED_OK);
    assert_int_equal(g_counts.copies, 7);   /* each matched entity's value written once */
    assert_int_equal(g_counts.ctors, 4);    /* the new ones constructed */
    assert_int_equal(g_counts.dtors, 0);
    for (i = 0; i < 3; i++) assert_int_equal(((const Counted *)ecs_sched_get(b.w, had[i], counted))->value, 5);
    for (i = 0; i < 4; i++) assert_int_equal(((const Counted *)ecs_sched_get(b.w, lacked[i], counted))->value, 5);
    check_and_destroy(b.w);
}

static void test_query_insert_moves_each_column_of_a_matched_table_in_one_move(void **state) {
    bulk_world b = make_world();
    ecs_sched_id counted = register_counted(b.w, "Counted", false);
    ecs_sched_query *q;
    int i;
    (void)state;
    for (i = 0; i < 50; i++) SPAWN(b.w, {b.position, NULL}, {counted, NULL});
    g_counts.move_calls = g_counts.moves = 0;
    q = QUERY(b.w, ecs_sched_read(counted));
    assert_int_equal(ecs_sched_query_insert(b.w, q, b.frozen, NULL), ECS_SCHED_OK);
    assert_int_equal(g_counts.move_calls, 1);
    assert_int_equal(g_counts.moves, 50);
    assert_int_equal(ecs_sched_query_count(QUERY(b.w, ecs_sched_read(b.frozen))), 50);
    check_and_destroy(b.w);
}

static void test_query_insert_leaves_the_disabled_entities_and_prefabs_it_does_not_match(void **state) {
    bulk_world b = make_world();
    ecs_sched_query *q;
    ecs_sched_entity e[3];
    (void)state;
    e[0] = spawn_p(&b, 0);
    e[1] = spawn_p(&b, 1);
    e[2] = spawn_p(&b, 2);
    assert_int_equal(ecs_sched_disable(b.w, e[1]), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(b.w, e[2], ecs_sched_prefab_tag(b.w), NULL), ECS_SCHED_OK);
    q = QUERY(b.w, ecs_sched_read(b.position));
    assert_int_equal(ecs_sched_query_insert(b.w, q, b.frozen, NULL), ECS_SCHED_OK);
    assert_true(ecs_sched_has(b.w, e[0], b.frozen));
    assert_false(ecs_sched_has(b.w, e[1], b.frozen));
    assert_false(ecs_sched_has(b.w, e[2], b.frozen));
    check_and_destroy(b.w);
}

static void test_query_insert_of_a_tracked_component_marks_the_new_values_added(void **state) {
    bulk_world b = make_world();
    ecs_sched_id hp = register_tracked(b.w, "Hp");
    ecs_sched_query *q, *added, *changed;
    Health h = {3};
    int i, seen;
    ecs_sched_iter it;
    (void)state;
    for (i = 0; i < 4; i++) spawn_p(&b, i);
    for (i = 0; i < 2; i++) SPAWN(b.w, {b.position, NULL}, {hp, NULL});
    added = QUERY(b.w, ecs_sched_added(hp));
    changed = QUERY(b.w, ecs_sched_changed(hp));
    it = ecs_sched_query_iter(added);     /* looks once: the 2 spawned with it */
    while (ecs_sched_iter_next(&it)) {}
    it = ecs_sched_query_iter(changed);
    while (ecs_sched_iter_next(&it)) {}
    q = QUERY(b.w, ecs_sched_read(b.position));
    assert_int_equal(ecs_sched_query_insert(b.w, q, hp, &h), ECS_SCHED_OK);
    it = ecs_sched_query_iter(added);
    for (seen = 0; ecs_sched_iter_next(&it);) seen += it.count;
    assert_int_equal(seen, 4);
    it = ecs_sched_query_iter(changed);
    for (seen = 0; ecs_sched_iter_next(&it);) seen += it.count;
    assert_int_equal(seen, 6);
    check_and_destroy(b.w);
}

static void test_query_insert_calls_on_add_and_on_insert_observers_for_each_entity(void **state) {
    bulk_world b = make_world();
    observed added, inserted;
    ecs_sched_query *q;
    Health h = {1};
    int i;
    (void)state;
    memset(&added, 0, sizeof added);
    memset(&inserted, 0, sizeof inserted);
    observe(b.w, ECS_SCHED_ON_ADD, b.health, count_call, &added);
    observe(b.w, ECS_SCHED_ON_INSERT, b.health, count_call, &inserted);
    for (i = 0; i < 3; i++) spawn_p(&b, i);
    SPAWN(b.w, {b.position, NULL}, {b.health, NULL});
    added.calls = inserted.calls = 0;
    q = QUERY(b.w, ecs_sched_read(b.position));
    assert_int_equal(ecs_sched_query_insert(b.w, q, b.health, &h), ECS_SCHED_OK);
    assert_int_equal(added.calls, 3);
    assert_int_equal(inserted.calls, 4);
    check_and_destroy(b.w);
}

static void test_query_insert_with_a_sparse_term_reaches_only_the_rows_it_hands_out(void **state) {
    bulk_world b = make_world();
    ecs_sched_id mark = ecs_sched_sparse_component_register_type(b.w, "Mark", 0, 0);
    ecs_sched_query *q;
    ecs_sched_entity e[6];
    int i;
    (void)state;
    for (i = 0; i < 6; i++) {
        e[i] = spawn_p(&b, i);
        if (i % 2) assert_int_equal(ecs_sched_insert(b.w, e[i], mark, NULL), ECS_SCHED_OK);
    }
    q = QUERY(b.w, ecs_sched_read(b.position), ecs_sched_read(mark));
    assert_int_equal(ecs_sched_query_insert(b.w, q, b.frozen, NULL), ECS_SCHED_OK);
    for (i = 0; i < 6; i++) assert_int_equal(ecs_sched_has(b.w, e[i], b.frozen), i % 2 == 1);
    check_and_destroy(b.w);
}

static void test_query_insert_through_a_filtering_query_marks_nothing_it_writes_changed(void **state) {
    bulk_world b = make_world();
    ecs_sched_id hp = register_tracked(b.w, "Hp");
    ecs_sched_id mark = ecs_sched_sparse_component_register_type(b.w, "Mark", 0, 0);
    ecs_sched_query *q, *changed;
    ecs_sched_iter it;
    ecs_sched_entity e[4];
    int i, seen;
    (void)state;
    for (i = 0; i < 4; i++) {
        e[i] = SPAWN(b.w, {b.position, NULL}, {hp, NULL});
        assert_int_equal(ecs_sched_insert(b.w, e[i], mark, NULL), ECS_SCHED_OK);
    }
    changed = QUERY(b.w, ecs_sched_changed(hp));
    it = ecs_sched_query_iter(changed);   /* looks once: the 4 spawned */
    while (ecs_sched_iter_next(&it)) {}
    q = QUERY(b.w, ecs_sched_write(hp), ecs_sched_read(mark));   /* writes Hp, filters rows */
    assert_int_equal(ecs_sched_query_insert(b.w, q, b.frozen, NULL), ECS_SCHED_OK);
    assert_int_equal(having(b.w, e, 4, b.frozen), 4);
    it = ecs_sched_query_iter(changed);
    for (seen = 0; ecs_sched_iter_next(&it);) seen += it.count;
    assert_int_equal(seen, 0);
    check_and_destroy(b.w);
}

static void test_query_insert_without_a_value_gives_an_instance_its_own_copy_of_the_base_value(void **state) {
    bulk_world b = make_world();
    ecs_sched_query *q;
    ecs_sched_entity base, instance, plain;
    Health h = {5};
    (void)state;
    base = SPAWN(b.w, {b.health, &h}, {ecs_sched_prefab_tag(b.w), NULL});
    instance = spawn_p(&b, 1);
    plain = spawn_p(&b, 2);
    assert_int_equal(ecs_sched_relate(b.w, instance, ecs_sched_is_a(b.w), base, NULL), ECS_SCHED_OK);
    q = QUERY(b.w, ecs_sched_read(b.position));
    assert_int_equal(ecs_sched_query_insert(b.w, q, b.health, NULL), ECS_SCHED_OK);
    assert_true(ecs_sched_owns(b.w, instance, b.health));
    assert_int_equal(((const Health *)ecs_sched_get(b.w, instance, b.health))->hp, 5);
    assert_int_equal(((const Health *)ecs_sched_get(b.w, plain, b.health))->hp, 0);
    check_and_destroy(b.w);
}

static void test_query_insert_of_a_sparse_component_gives_it_to_every_matched_entity(void **state) {
    bulk_world b = make_world();
    ecs_sched_id buff = ecs_sched_sparse_component_register_type(b.w, "Buff", sizeof(Health),
                                                                 ECS_SCHED_ALIGNOF(Health));
    ecs_sched_query *q;
    ecs_sched_entity e[5];
    Health h = {9};
    int i;
    (void)state;
    for (i = 0; i < 5; i++) e[i] = i < 3 ? spawn_p(&b, i) : spawn_v(&b, i);
    q = QUERY(b.w, ecs_sched_read(b.position));
    assert_int_equal(ecs_sched_query_insert(b.w, q, buff, &h), ECS_SCHED_OK);
    for (i = 0; i < 5; i++) {
        const Health *got = (const Health *)ecs_sched_get(b.w, e[i], buff);
        if (i < 3) assert_int_equal(got->hp, 9);
        else assert_null(got);
    }
    check_and_destroy(b.w);
}

static void test_query_remove_takes_the_component_from_the_matched_entities_only(void **state) {
    bulk_world b = make_world();
    ecs_sched_query *q;
    ecs_sched_entity frozen[4], free_[4];
    int i;
    (void)state;
    for (i = 0; i < 4; i++) {
        frozen[i] = SPAWN(b.w, {b.position, NULL}, {b.velocity, NULL}, {b.frozen, NULL});
        free_[i] = spawn_pv(&b, i);
    }
    q = QUERY(b.w, ecs_sched_read(b.frozen));
    assert_int_equal(ecs_sched_query_remove(b.w, q, b.velocity), ECS_SCHED_OK);
    assert_int_equal(having(b.w, frozen, 4, b.velocity), 0);
    assert_int_equal(having(b.w, frozen, 4, b.position), 4);
    for (i = 0; i < 4; i++) assert_velocity(&b, free_[i], i);
    check_and_destroy(b.w);
}

static void test_query_remove_destroys_the_removed_values_and_logs_tracked_removals(void **state) {
    bulk_world b = make_world();
    ecs_sched_id counted = register_counted(b.w, "Counted", true);
    ecs_sched_message_cursor cursor;
    ecs_sched_query *q;
    ecs_sched_entity e[6];
    bool seen[6] = {false};
    int i;
    (void)state;
    for (i = 0; i < 6; i++) e[i] = SPAWN(b.w, {b.position, NULL}, {counted, NULL});
    SPAWN(b.w, {counted, NULL});
    cursor = ecs_sched_removed_cursor_make(b.w, counted);
    q = QUERY(b.w, ecs_sched_read(b.position));
    assert_int_equal(ecs_sched_query_remove(b.w, q, counted), ECS_SCHED_OK);
    assert_int_equal(g_counts.dtors, 6);
    assert_int_equal(read_removals(b.w, &cursor, e, 6, seen), 6);
    for (i = 0; i < 6; i++) assert_true(seen[i]);
    check_and_destroy(b.w);
}

static void test_query_operations_refuse_a_null_query_and_a_query_of_another_world(void **state) {
    bulk_world b = make_world();
    ecs_sched_world_desc desc;
    ecs_sched_world *other;
    ecs_sched_query *foreign;
    ecs_sched_entity e = spawn_p(&b, 2);
    (void)state;
    memset(&desc, 0, sizeof desc);
    desc.logger.fn = quiet;
    other = ecs_sched_world_create(&desc);
    assert_non_null(other);
    foreign = QUERY(other, ecs_sched_read(ECS_SCHED_COMPONENT(other, Position)));
    assert_int_equal(ecs_sched_query_insert(b.w, NULL, b.frozen, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(b.w), "query_insert: the query is NULL"));
    assert_int_equal(ecs_sched_query_remove(b.w, foreign, b.position), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(b.w), "query_remove: the query belongs to another world"));
    assert_position(&b, e, 2);
    assert_false(ecs_sched_has(b.w, e, b.frozen));
    ecs_sched_world_destroy(other);
    check_and_destroy(b.w);
}

static void test_query_insert_of_an_unknown_component_or_a_kind_fails_naming_it(void **state) {
    bulk_world b = make_world();
    ecs_sched_query *q = QUERY(b.w, ecs_sched_read(b.position));
    ecs_sched_entity e = spawn_p(&b, 2);
    (void)state;
    assert_int_equal(ecs_sched_query_insert(b.w, q, 4242, NULL), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_non_null(strstr(ecs_sched_last_error(b.w), "query_insert: component id 4242"));
    assert_int_equal(ecs_sched_query_insert(b.w, q, ecs_sched_child_of(b.w), NULL),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(b.w), "is a relationship kind"));
    assert_int_equal(ecs_sched_query_remove(b.w, q, 4242), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_non_null(strstr(ecs_sched_last_error(b.w), "query_remove: component id 4242"));
    assert_position(&b, e, 2);
    check_and_destroy(b.w);
}

/* ==== out of memory ==== */

typedef struct failing {
    long fail_at;     /* the allocation that fails; -1: none */
    long count;
} failing;

static void *failing_realloc(void *ptr, size_t size, void *user_data) {
    failing *f = (failing *)user_data;
    if (f->count++ == f->fail_at) return NULL;
    return realloc(ptr, size);
}

static void plain_free(void *ptr, void *user_data) {
    (void)user_data;
    free(ptr);
}

static void test_remove_all_out_of_memory_changes_nothing(void **state) {
    long at;
    bool done = false;
    (void)state;
    for (at = 0; !done; at++) {
        failing f = {-1, 0};
        ecs_sched_world_desc desc;
        ecs_sched_world *w;
        ecs_sched_id position, velocity, health;
        ecs_sched_entity e[3 * 40];
        ecs_sched_result result;
        int i;
        memset(&desc, 0, sizeof desc);
        desc.logger.fn = quiet;
        desc.allocator.realloc_fn = failing_realloc;
        desc.allocator.free_fn = plain_free;
        desc.allocator.user_data = &f;
        w = ecs_sched_world_create(&desc);
        assert_non_null(w);
        position = ECS_SCHED_COMPONENT(w, Position);
        velocity = ECS_SCHED_COMPONENT(w, Velocity);
        health = ECS_SCHED_COMPONENT(w, Health);
        for (i = 0; i < 40; i++) {
            e[3 * i] = SPAWN(w, {position, NULL}, {velocity, NULL});
            e[3 * i + 1] = SPAWN(w, {position, NULL}, {health, NULL});
            e[3 * i + 2] = SPAWN(w, {position, NULL}, {velocity, NULL}, {health, NULL});
        }
        f.fail_at = f.count + at;
        result = ecs_sched_remove_all(w, position);
        f.fail_at = -1;
        if (result == ECS_SCHED_OK) {
            done = true;
            assert_int_equal(having(w, e, 120, position), 0);
        } else {
            assert_int_equal(result, ECS_SCHED_ERR_OUT_OF_MEMORY);
            assert_non_null(strstr(ecs_sched_last_error(w), "remove_all"));
            assert_int_equal(having(w, e, 120, position), 120);
        }
        assert_int_equal(having(w, e, 120, velocity), 80);
        assert_int_equal(having(w, e, 120, health), 80);
        assert_int_equal(ecs_sched_world_check(w), ECS_SCHED_OK);
        ecs_sched_world_destroy(w);
    }
    assert_true(at > 1);   /* some allocation did fail on the way */
}

/* ==== rarer paths ==== */

typedef struct bulk_calls {
    ecs_sched_id position, kind;
    ecs_sched_query *query;
    ecs_sched_entity target;
    ecs_sched_result results[5];
    char errors[5][64];
} bulk_calls;

static bulk_calls g_calls;

static void keep_result(int i, ecs_sched_result r) {
    g_calls.results[i] = r;
    snprintf(g_calls.errors[i], sizeof g_calls.errors[i], "%s", ecs_sched_last_error(g_world));
}

static void call_every_bulk_operation(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    keep_result(0, ecs_sched_delete_with(g_world, g_calls.position));
    keep_result(1, ecs_sched_query_insert(g_world, g_calls.query, g_calls.position, NULL));
    keep_result(2, ecs_sched_query_remove(g_world, g_calls.query, g_calls.position));
    keep_result(3, ecs_sched_remove_all_pairs(g_world, g_calls.kind, g_calls.target));
    keep_result(4, ecs_sched_delete_with_pair(g_world, g_calls.kind, g_calls.target));
}

static void test_every_bulk_operation_through_the_world_from_a_plain_system_is_refused(void **state) {
    bulk_world b = make_world();
    ecs_sched_entity e = spawn_pv(&b, 1);
    ecs_sched_query_desc d;
    static const char *const names[5] = {"delete_with", "query_insert", "query_remove",
                                         "remove_all_pairs", "delete_with_pair"};
    int i;
    (void)state;
    memset(&g_calls, 0, sizeof g_calls);
    memset(&d, 0, sizeof d);
    d.terms[0] = ecs_sched_read(b.velocity);
    g_calls.position = b.position;
    g_calls.query = ecs_sched_query_create(b.w, &d);
    g_calls.kind = ecs_sched_child_of(b.w);
    g_calls.target = e;
    ADD_SYSTEM(b.w, .name = "sweeper", .fn = call_every_bulk_operation);
    assert_int_equal(ecs_sched_run_schedule(b.w, UPDATE), ECS_SCHED_ERR_ACCESS);
    for (i = 0; i < 5; i++) {
        assert_int_equal(g_calls.results[i], ECS_SCHED_ERR_ACCESS);
        assert_non_null(strstr(g_calls.errors[i], names[i]));
    }
    assert_true(ecs_sched_is_alive(b.w, e));
    assert_position(&b, e, 1);
    ecs_sched_query_destroy(g_calls.query);
    check_and_destroy(b.w);
}

static void test_query_remove_through_a_query_of_parents_goes_entity_by_entity(void **state) {
    bulk_world b = make_world();
    ecs_sched_entity moving = spawn_v(&b, 1), still = spawn_p(&b, 9);
    ecs_sched_entity a = spawn_p(&b, 2), c = spawn_p(&b, 3), orphan = spawn_p(&b, 4);
    ecs_sched_query_desc d;
    ecs_sched_query *q;
    (void)state;
    assert_int_equal(ecs_sched_set_parent(b.w, a, moving), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(b.w, c, still), ECS_SCHED_OK);
    memset(&d, 0, sizeof d);
    d.terms[0] = ecs_sched_read(b.position);
    d.terms[1] = ecs_sched_from_parent(b.velocity);
    q = ecs_sched_query_create(b.w, &d);
    assert_non_null(q);
    assert_int_equal(ecs_sched_query_remove(b.w, q, b.position), ECS_SCHED_OK);
    assert_false(ecs_sched_has(b.w, a, b.position));
    assert_position(&b, c, 3);
    assert_position(&b, orphan, 4);
    assert_position(&b, still, 9);
    ecs_sched_query_destroy(q);
    check_and_destroy(b.w);
}

static void test_query_remove_of_a_relationship_kind_unrelates_each_matched_source(void **state) {
    bulk_world b = make_world();
    ecs_sched_relation_desc rd;
    ecs_sched_id likes;
    ecs_sched_entity target = spawn_v(&b, 1);
    ecs_sched_entity a = spawn_p(&b, 1), c = spawn_v(&b, 2);
    ecs_sched_query_desc d;
    ecs_sched_query *q;
    (void)state;
    memset(&rd, 0, sizeof rd);
    rd.name = "Likes";
    likes = ecs_sched_relation_register(b.w, &rd);
    assert_int_equal(ecs_sched_relate(b.w, a, likes, target, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(b.w, c, likes, target, NULL), ECS_SCHED_OK);
    memset(&d, 0, sizeof d);
    d.terms[0] = ecs_sched_read(b.position);
    q = ecs_sched_query_create(b.w, &d);
    assert_int_equal(ecs_sched_query_remove(b.w, q, likes), ECS_SCHED_OK);
    assert_false(ecs_sched_has_relation(b.w, a, likes, target));
    assert_true(ecs_sched_has_relation(b.w, c, likes, target));
    ecs_sched_query_destroy(q);
    check_and_destroy(b.w);
}

static void test_delete_with_of_a_sparse_component_nobody_has_despawns_nothing(void **state) {
    bulk_world b = make_world();
    ecs_sched_id heat = ecs_sched_sparse_component_register_type(b.w, "Heat", sizeof(int), 0);
    ecs_sched_entity e = spawn_pv(&b, 1);
    (void)state;
    assert_int_equal(ecs_sched_delete_with(b.w, heat), ECS_SCHED_OK);
    assert_true(ecs_sched_is_alive(b.w, e));
    assert_int_equal(ecs_sched_entity_count(b.w), 1);
    check_and_destroy(b.w);
}

static void test_removing_the_mark_of_a_base_in_bulk_is_refused(void **state) {
    bulk_world b = make_world();
    ecs_sched_entity base = spawn_pv(&b, 1), instance = ecs_sched_spawn(b.w);
    char name[64];
    ecs_sched_id mark;
    (void)state;
    assert_int_equal(ecs_sched_relate(b.w, instance, ecs_sched_is_a(b.w), base, NULL), ECS_SCHED_OK);
    snprintf(name, sizeof name, "ecs_sched.IsA(entity %u.%u)", (unsigned)ECS_SCHED_ENTITY_INDEX(base),
             (unsigned)ECS_SCHED_ENTITY_GENERATION(base));
    mark = ecs_sched_component_lookup(b.w, name);
    assert_true(mark != 0);
    assert_int_equal(ecs_sched_remove_all(b.w, mark), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(b.w), "remove_all: '"));
    assert_non_null(strstr(ecs_sched_last_error(b.w), "marks the instances of a base"));
    assert_true(ecs_sched_has_relation(b.w, instance, ecs_sched_is_a(b.w), base));
    check_and_destroy(b.w);
}

static void test_query_insert_heard_by_an_on_insert_observer_goes_entity_by_entity(void **state) {
    bulk_world b = make_world();
    observed o;
    ecs_sched_entity e = spawn_pv(&b, 1), f = spawn_pv(&b, 2);
    ecs_sched_query_desc d;
    ecs_sched_query *q;
    Health h = {7};
    (void)state;
    memset(&o, 0, sizeof o);
    observe(b.w, ECS_SCHED_ON_INSERT, b.health, count_call, &o);
    memset(&d, 0, sizeof d);
    d.terms[0] = ecs_sched_read(b.position);
    q = ecs_sched_query_create(b.w, &d);
    assert_int_equal(ecs_sched_query_insert(b.w, q, b.health, &h), ECS_SCHED_OK);
    assert_int_equal(o.calls, 2);
    assert_int_equal(((const Health *)ecs_sched_get(b.w, e, b.health))->hp, 7);
    assert_int_equal(((const Health *)ecs_sched_get(b.w, f, b.health))->hp, 7);
    ecs_sched_query_destroy(q);
    check_and_destroy(b.w);
}

static ecs_sched_entity g_first, g_partner;
static int g_removals;

static void despawn_the_partner(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *trigger) {
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    g_removals++;
    if (trigger->entity == g_first && ecs_sched_is_alive(w, g_partner)) {
        assert_int_equal(ecs_sched_despawn(w, g_partner), ECS_SCHED_OK);
    }
}

static void test_remove_all_passes_over_an_entity_an_observer_despawned(void **state) {
    bulk_world b = make_world();
    observed o;
    (void)state;
    memset(&o, 0, sizeof o);
    g_removals = 0;
    g_first = spawn_pv(&b, 1);
    g_partner = spawn_pv(&b, 2);
    observe(b.w, ECS_SCHED_ON_REMOVE, b.position, despawn_the_partner, &o);
    assert_int_equal(ecs_sched_remove_all(b.w, b.position), ECS_SCHED_OK);
    assert_true(ecs_sched_is_alive(b.w, g_first));
    assert_false(ecs_sched_has(b.w, g_first, b.position));
    assert_false(ecs_sched_is_alive(b.w, g_partner));
    assert_int_equal(g_removals, 2);   /* the first's removal, the partner's despawn */
    check_and_destroy(b.w);
}

static void insert_on_first_despawns_partner(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *trigger) {
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    g_removals++;
    if (trigger->entity == g_first && ecs_sched_is_alive(w, g_partner)) {
        assert_int_equal(ecs_sched_despawn(w, g_partner), ECS_SCHED_OK);
    }
}

static void test_query_insert_passes_over_an_entity_an_observer_despawned(void **state) {
    bulk_world b = make_world();
    observed o;
    ecs_sched_query_desc d;
    ecs_sched_query *q;
    (void)state;
    memset(&o, 0, sizeof o);
    g_removals = 0;
    g_first = spawn_pv(&b, 1);
    g_partner = spawn_pv(&b, 2);
    observe(b.w, ECS_SCHED_ON_ADD, b.frozen, insert_on_first_despawns_partner, &o);
    memset(&d, 0, sizeof d);
    d.terms[0] = ecs_sched_read(b.position);
    q = ecs_sched_query_create(b.w, &d);
    assert_int_equal(ecs_sched_query_insert(b.w, q, b.frozen, NULL), ECS_SCHED_OK);
    assert_true(ecs_sched_has(b.w, g_first, b.frozen));
    assert_false(ecs_sched_is_alive(b.w, g_partner));
    assert_int_equal(g_removals, 1);
    ecs_sched_query_destroy(q);
    check_and_destroy(b.w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_query_insert_heard_by_an_on_insert_observer_goes_entity_by_entity),
        cmocka_unit_test(test_remove_all_passes_over_an_entity_an_observer_despawned),
        cmocka_unit_test(test_query_insert_passes_over_an_entity_an_observer_despawned),
        cmocka_unit_test(test_every_bulk_operation_through_the_world_from_a_plain_system_is_refused),
        cmocka_unit_test(test_query_remove_through_a_query_of_parents_goes_entity_by_entity),
        cmocka_unit_test(test_query_remove_of_a_relationship_kind_unrelates_each_matched_source),
        cmocka_unit_test(test_delete_with_of_a_sparse_component_nobody_has_despawns_nothing),
        cmocka_unit_test(test_removing_the_mark_of_a_base_in_bulk_is_refused),
        cmocka_unit_test(test_remove_all_takes_a_table_component_from_every_entity_and_keeps_the_others),
        cmocka_unit_test(test_remove_all_relocates_each_column_of_a_table_in_one_move),
        cmocka_unit_test(test_remove_all_destroys_each_removed_value_once),
        cmocka_unit_test(test_remove_all_logs_the_removal_of_a_tracked_component_for_each_entity),
        cmocka_unit_test(test_entities_that_remove_all_moves_keep_their_change_ticks),
        cmocka_unit_test(test_remove_all_calls_on_remove_observers_for_each_entity_with_the_value_readable),
        cmocka_unit_test(test_remove_all_applies_what_its_observers_change_after_each_removal),
        cmocka_unit_test(test_remove_all_with_an_observer_of_another_component_moves_whole_tables),
        cmocka_unit_test(test_remove_all_with_an_on_remove_observer_goes_entity_by_entity),
        cmocka_unit_test(test_remove_all_of_a_sparse_component_empties_its_set),
        cmocka_unit_test(test_remove_all_of_a_tracked_sparse_component_logs_each_removal),
        cmocka_unit_test(test_remove_all_of_a_relationship_kind_unrelates_every_source),
        cmocka_unit_test(test_remove_all_reaches_disabled_entities_and_prefabs),
        cmocka_unit_test(test_remove_all_of_an_unknown_component_fails_naming_it),
        cmocka_unit_test(test_bulk_operations_from_a_running_system_that_is_not_exclusive_are_refused),
        cmocka_unit_test(test_bulk_operations_from_an_exclusive_system_are_done),
        cmocka_unit_test(test_remove_all_inside_an_observer_is_refused),
        cmocka_unit_test(test_delete_with_despawns_every_entity_with_the_component),
        cmocka_unit_test(test_delete_with_destroys_every_value_of_the_despawned_entities),
        cmocka_unit_test(test_delete_with_logs_the_removals_of_tracked_components),
        cmocka_unit_test(test_delete_with_drops_the_sparse_components_of_the_despawned_entities),
        cmocka_unit_test(test_delete_with_of_a_sparse_component_despawns_its_members),
        cmocka_unit_test(test_delete_with_calls_on_despawn_and_on_remove_observers_for_each_entity),
        cmocka_unit_test(test_delete_with_despawns_the_children_of_the_despawned_parents),
        cmocka_unit_test(test_delete_with_forgets_the_names_of_the_despawned_entities),
        cmocka_unit_test(test_delete_with_reaches_disabled_entities_and_prefabs),
        cmocka_unit_test(test_delete_with_tries_a_refused_despawn_again_once_its_sources_are_gone),
        cmocka_unit_test(test_delete_with_keeps_what_a_kind_refuses_and_reports_the_refusal),
        cmocka_unit_test(test_delete_with_pair_of_child_of_despawns_the_subtree_and_keeps_the_parent),
        cmocka_unit_test(test_delete_with_pair_of_a_component_that_is_no_kind_fails_naming_it),
        cmocka_unit_test(test_delete_with_pair_of_a_dead_target_fails_naming_it),
        cmocka_unit_test(test_remove_all_pairs_unrelates_the_sources_of_one_target_only),
        cmocka_unit_test(test_query_insert_gives_every_matched_entity_a_copy_of_the_value),
        cmocka_unit_test(test_query_insert_without_a_value_constructs_a_default_value),
        cmocka_unit_test(test_query_insert_writes_over_the_value_of_entities_that_have_it_once_each),
        cmocka_unit_test(test_query_insert_moves_each_column_of_a_matched_table_in_one_move),
        cmocka_unit_test(test_query_insert_leaves_the_disabled_entities_and_prefabs_it_does_not_match),
        cmocka_unit_test(test_query_insert_of_a_tracked_component_marks_the_new_values_added),
        cmocka_unit_test(test_query_insert_calls_on_add_and_on_insert_observers_for_each_entity),
        cmocka_unit_test(test_query_insert_with_a_sparse_term_reaches_only_the_rows_it_hands_out),
        cmocka_unit_test(test_query_insert_through_a_filtering_query_marks_nothing_it_writes_changed),
        cmocka_unit_test(test_query_insert_without_a_value_gives_an_instance_its_own_copy_of_the_base_value),
        cmocka_unit_test(test_query_insert_of_a_sparse_component_gives_it_to_every_matched_entity),
        cmocka_unit_test(test_query_remove_takes_the_component_from_the_matched_entities_only),
        cmocka_unit_test(test_query_remove_destroys_the_removed_values_and_logs_tracked_removals),
        cmocka_unit_test(test_query_operations_refuse_a_null_query_and_a_query_of_another_world),
        cmocka_unit_test(test_query_insert_of_an_unknown_component_or_a_kind_fails_naming_it),
        cmocka_unit_test(test_remove_all_out_of_memory_changes_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
