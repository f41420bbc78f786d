/* Component disabling. A component registered with .toggleable can be switched off on one
   entity: queries that require it skip the entity, without-terms take it for absent,
   optional terms still hand it out; the entity stays in its table, keeps the value, and
   keeps the bit through moves, swap-removes, table growth and snapshots. Toggling goes
   through the world, commands, and is refused from a system that may not change the world. */
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

/* Position and the tag Stunned can be toggled; Velocity cannot. */
static ecs_sched_id g_pos, g_vel, g_stunned;

static ecs_sched_id register_toggleable(ecs_sched_world *w, const char *name, size_t size,
                                        bool tracked) {
    ecs_sched_component_desc d;
    ecs_sched_id id;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.size = size;
    d.tracked = tracked;
    d.toggleable = true;
    id = ecs_sched_component_register(w, &d);
    assert_true(id != 0);
    return id;
}

/* A world with Position, Velocity and Stunned registered and n entities with a Position
   whose x is 2^i (so that a sum of x tells which entities a query handed out). */
static ecs_sched_world *world_with(ecs_sched_entity *out, int32_t n) {
    ecs_sched_world *w = new_world();
    int32_t i;
    g_pos = register_toggleable(w, "Position", sizeof(Position), false);
    g_vel = ECS_SCHED_COMPONENT(w, Velocity);
    g_stunned = register_toggleable(w, "Stunned", 0, false);
    for (i = 0; i < n; i++) {
        Position p = {(float)(1u << i), 0};
        const void *values[1];
        values[0] = &p;
        out[i] = ecs_sched_spawn_with(w, 1, &g_pos, values);
        assert_true(out[i] != ECS_SCHED_NULL_ENTITY);
    }
    return w;
}

/* Which entities (bit i: the entity whose x is 2^i) a query hands out, by runs. */
static unsigned seen_by_runs(const ecs_sched_query *q, int32_t field) {
    ecs_sched_iter it = ecs_sched_query_iter(q);
    unsigned seen = 0;
    while (ecs_sched_iter_next(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, const Position, field);
        int32_t i;
        for (i = 0; i < it.count; i++) seen += (unsigned)p[i].x;
    }
    return seen;
}

/* The same, by index. */
static unsigned seen_by_rows(const ecs_sched_query *q, int32_t field) {
    ecs_sched_iter it = ecs_sched_query_iter(q);
    unsigned seen = 0;
    while (ecs_sched_iter_next_rows(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, const Position, field);
        int32_t i;
        for (i = 0; i < it.count; i++) seen += (unsigned)p[it.rows[i]].x;
    }
    return seen;
}

static void a_disabled_component_hides_the_entity_from_queries_that_require_it(void **state) {
    ecs_sched_entity e[5];
    ecs_sched_world *w = world_with(e, 5);
    ecs_sched_query *q = QUERY(w, ecs_sched_read(g_pos));
    (void)state;
    assert_int_equal(ecs_sched_enable_component(w, e[1], g_pos, false), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_enable_component(w, e[3], g_pos, false), ECS_SCHED_OK);
    assert_int_equal(seen_by_runs(q, 0), 1u + 4u + 16u);
    assert_int_equal(ecs_sched_query_count(q), 3);
    check_and_destroy(w);
}

static void iteration_by_rows_skips_a_disabled_component_too(void **state) {
    ecs_sched_entity e[5];
    ecs_sched_world *w = world_with(e, 5);
    ecs_sched_query *q = QUERY(w, ecs_sched_write(g_pos));
    (void)state;
    assert_int_equal(ecs_sched_enable_component(w, e[0], g_pos, false), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_enable_component(w, e[4], g_pos, false), ECS_SCHED_OK);
    assert_int_equal(seen_by_rows(q, 0), 2u + 4u + 8u);
    check_and_destroy(w);
}

static void an_enabled_component_is_seen_again(void **state) {
    ecs_sched_entity e[3];
    ecs_sched_world *w = world_with(e, 3);
    ecs_sched_query *q = QUERY(w, ecs_sched_read(g_pos));
    (void)state;
    assert_int_equal(ecs_sched_enable_component(w, e[2], g_pos, false), ECS_SCHED_OK);
    assert_false(ecs_sched_is_component_enabled(w, e[2], g_pos));
    assert_int_equal(ecs_sched_enable_component(w, e[2], g_pos, true), ECS_SCHED_OK);
    assert_true(ecs_sched_is_component_enabled(w, e[2], g_pos));
    assert_int_equal(seen_by_runs(q, 0), 7u);
    assert_int_equal(ecs_sched_query_count(q), 3);
    check_and_destroy(w);
}

static void disabling_moves_nothing_and_keeps_the_value(void **state) {
    ecs_sched_entity e[3];
    ecs_sched_world *w = world_with(e, 3);
    int32_t tables;
    const Position *p;
    (void)state;
    tables = ecs_sched_archetype_count(w);
    assert_int_equal(ecs_sched_enable_component(w, e[1], g_pos, false), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_archetype_count(w), tables);
    assert_true(ecs_sched_has(w, e[1], g_pos));
    p = (const Position *)ecs_sched_get(w, e[1], g_pos);
    assert_non_null(p);
    assert_true(p->x == 2.0f);
    assert_int_equal(ecs_sched_world_check(w), ECS_SCHED_OK);
    check_and_destroy(w);
}

static void a_query_that_does_not_require_the_disabled_component_still_sees_the_entity(void **state) {
    ecs_sched_entity e[2];
    ecs_sched_world *w = world_with(e, 2);
    Velocity v = {1, 0};
    ecs_sched_query *q;
    (void)state;
    assert_int_equal(ecs_sched_insert(w, e[0], g_vel, &v), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(w, e[1], g_vel, &v), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_enable_component(w, e[0], g_pos, false), ECS_SCHED_OK);
    q = QUERY(w, ecs_sched_read(g_vel));
    assert_int_equal(ecs_sched_query_count(q), 2);
    check_and_destroy(w);
}

static void an_optional_term_hands_out_a_disabled_component_and_is_component_enabled_tells(void **state) {
    ecs_sched_entity e[3];
    ecs_sched_world *w = world_with(e, 3);
    ecs_sched_query *q = QUERY(w, ecs_sched_optional_read(g_pos));
    ecs_sched_iter it;
    int32_t off = 0, rows = 0;
    (void)state;
    assert_int_equal(ecs_sched_enable_component(w, e[1], g_pos, false), ECS_SCHED_OK);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        int32_t i;
        if (!it.fields[0]) continue;
        for (i = 0; i < it.count; i++) {
            rows++;
            off += !ecs_sched_is_component_enabled(w, it.entities[i], g_pos);
        }
    }
    assert_int_equal(rows, 3);
    assert_int_equal(off, 1);
    check_and_destroy(w);
}

static void a_without_term_takes_a_disabled_component_for_absent(void **state) {
    ecs_sched_entity e[3];
    ecs_sched_world *w = world_with(e, 3);
    Velocity v = {0, 0};
    ecs_sched_query *q;
    ecs_sched_entity bare;
    ecs_sched_iter it;
    int32_t handed = 0, i;
    bool saw_disabled = false, saw_bare = false;
    (void)state;
    bare = ecs_sched_spawn_with(w, 1, &g_vel, (const void *const[]){&v});
    for (i = 0; i < 3; i++) assert_int_equal(ecs_sched_insert(w, e[i], g_vel, &v), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_enable_component(w, e[2], g_pos, false), ECS_SCHED_OK);
    q = QUERY(w, ecs_sched_read(g_vel), ecs_sched_without(g_pos));
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        assert_null(it.fields[1]);
        for (i = 0; i < it.count; i++) {
            handed++;
            saw_disabled |= it.entities[i] == e[2];
            saw_bare |= it.entities[i] == bare;
        }
    }
    assert_int_equal(handed, 2);
    assert_true(saw_disabled && saw_bare);
    assert_int_equal(ecs_sched_query_count(q), 2);
    check_and_destroy(w);
}

static void a_disabled_component_stays_disabled_when_the_entity_moves(void **state) {
    ecs_sched_entity e[3];
    ecs_sched_world *w = world_with(e, 3);
    Velocity v = {0, 0};
    ecs_sched_query *q = QUERY(w, ecs_sched_read(g_pos));
    (void)state;
    assert_int_equal(ecs_sched_enable_component(w, e[1], g_pos, false), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(w, e[1], g_vel, &v), ECS_SCHED_OK);
    assert_false(ecs_sched_is_component_enabled(w, e[1], g_pos));
    assert_int_equal(seen_by_runs(q, 0), 1u + 4u);
    assert_int_equal(ecs_sched_remove(w, e[1], g_vel), ECS_SCHED_OK);
    assert_false(ecs_sched_is_component_enabled(w, e[1], g_pos));
    assert_int_equal(seen_by_runs(q, 0), 1u + 4u);
    check_and_destroy(w);
}

static void a_whole_table_moved_by_a_bulk_operation_keeps_its_bits(void **state) {
    ecs_sched_entity e[3];
    ecs_sched_world *w = world_with(e, 3);
    Velocity v = {0, 0};
    ecs_sched_query *q = QUERY(w, ecs_sched_read(g_pos));
    int32_t i;
    (void)state;
    for (i = 0; i < 3; i++) assert_int_equal(ecs_sched_insert(w, e[i], g_vel, &v), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_enable_component(w, e[1], g_pos, false), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_remove_all(w, g_vel), ECS_SCHED_OK);   /* the table moves whole */
    assert_false(ecs_sched_is_component_enabled(w, e[1], g_pos));
    assert_true(ecs_sched_is_component_enabled(w, e[0], g_pos));
    assert_int_equal(seen_by_runs(q, 0), 1u + 4u);
    assert_int_equal(ecs_sched_world_check(w), ECS_SCHED_OK);   /* no bit left behind */
    assert_int_equal(ecs_sched_delete_with(w, g_pos), ECS_SCHED_OK);
    check_and_destroy(w);
}

static void a_row_moved_into_a_hole_keeps_its_bit(void **state) {
    ecs_sched_entity e[4];
    ecs_sched_world *w = world_with(e, 4);
    ecs_sched_query *q = QUERY(w, ecs_sched_read(g_pos));
    (void)state;
    /* the last row, disabled, moves into the hole each despawn and remove leaves */
    assert_int_equal(ecs_sched_enable_component(w, e[3], g_pos, false), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, e[0]), ECS_SCHED_OK);
    assert_false(ecs_sched_is_component_enabled(w, e[3], g_pos));
    assert_true(ecs_sched_is_component_enabled(w, e[2], g_pos));
    assert_int_equal(seen_by_runs(q, 0), 2u + 4u);
    /* rows now: 3 (off), 1, 2; the last, switched off, moves into the hole 1 leaves */
    assert_int_equal(ecs_sched_enable_component(w, e[2], g_pos, false), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_remove(w, e[1], g_pos), ECS_SCHED_OK);
    assert_false(ecs_sched_is_component_enabled(w, e[2], g_pos));
    assert_false(ecs_sched_is_component_enabled(w, e[3], g_pos));
    assert_int_equal(ecs_sched_query_count(q), 0);
    assert_int_equal(ecs_sched_enable_component(w, e[2], g_pos, true), ECS_SCHED_OK);
    assert_int_equal(seen_by_runs(q, 0), 4u);
    assert_int_equal(ecs_sched_world_check(w), ECS_SCHED_OK);
    check_and_destroy(w);
}

static void the_bits_survive_the_growth_of_a_table(void **state) {
    ecs_sched_entity e[1];
    ecs_sched_world *w = world_with(e, 0);
    ecs_sched_query *q = QUERY(w, ecs_sched_read(g_pos));
    ecs_sched_entity many[1000];
    int32_t i, off = 0;
    (void)state;
    for (i = 0; i < 1000; i++) {
        many[i] = ecs_sched_spawn_with(w, 1, &g_pos, NULL);
        assert_true(many[i] != ECS_SCHED_NULL_ENTITY);
        if (i % 3 == 0) {
            assert_int_equal(ecs_sched_enable_component(w, many[i], g_pos, false), ECS_SCHED_OK);
            off++;
        }
    }
    for (i = 0; i < 1000; i++) {
        assert_int_equal(ecs_sched_is_component_enabled(w, many[i], g_pos), i % 3 != 0);
    }
    assert_int_equal(ecs_sched_query_count(q), 1000 - off);
    check_and_destroy(w);
}

static void new_entities_start_with_their_components_enabled(void **state) {
    ecs_sched_entity e[1], batch[70], made;
    ecs_sched_world *w = world_with(e, 1);
    ecs_sched_commands *cmd = new_commands(w);
    ecs_sched_query *q = QUERY(w, ecs_sched_read(g_pos));
    int32_t i;
    (void)state;
    assert_int_equal(ecs_sched_enable_component(w, e[0], g_pos, false), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_spawn_batch(w, 70, 1, &g_pos, NULL, batch), ECS_SCHED_OK);
    made = ecs_sched_commands_spawn_with(cmd, 1, &g_pos, NULL);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    for (i = 0; i < 70; i++) assert_true(ecs_sched_is_component_enabled(w, batch[i], g_pos));
    assert_true(ecs_sched_is_component_enabled(w, made, g_pos));
    assert_false(ecs_sched_is_component_enabled(w, e[0], g_pos));
    assert_int_equal(ecs_sched_query_count(q), 71);
    check_and_destroy(w);
}

static void a_component_inserted_again_after_a_removal_is_enabled(void **state) {
    ecs_sched_entity e[2];
    ecs_sched_world *w = world_with(e, 2);
    (void)state;
    assert_int_equal(ecs_sched_enable_component(w, e[0], g_pos, false), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_remove(w, e[0], g_pos), ECS_SCHED_OK);
    assert_false(ecs_sched_is_component_enabled(w, e[0], g_pos));   /* lacks it */
    assert_int_equal(ecs_sched_insert(w, e[0], g_pos, NULL), ECS_SCHED_OK);
    assert_true(ecs_sched_is_component_enabled(w, e[0], g_pos));
    check_and_destroy(w);
}

static void a_toggleable_tag_can_be_disabled(void **state) {
    ecs_sched_entity e[3];
    ecs_sched_world *w = world_with(e, 3);
    ecs_sched_query *q;
    int32_t i;
    (void)state;
    for (i = 0; i < 3; i++) assert_int_equal(ecs_sched_insert(w, e[i], g_stunned, NULL), ECS_SCHED_OK);
    q = QUERY(w, ecs_sched_read(g_pos), ecs_sched_read(g_stunned));
    assert_int_equal(ecs_sched_enable_component(w, e[0], g_stunned, false), ECS_SCHED_OK);
    assert_int_equal(seen_by_runs(q, 0), 2u + 4u);
    check_and_destroy(w);
}

static void a_component_that_is_not_toggleable_cannot_be_disabled(void **state) {
    ecs_sched_entity e[1];
    ecs_sched_world *w = world_with(e, 1);
    Velocity v = {0, 0};
    (void)state;
    assert_int_equal(ecs_sched_insert(w, e[0], g_vel, &v), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_enable_component(w, e[0], g_vel, false), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "'Velocity' is not toggleable");
    assert_contains(ecs_sched_last_error(w), ".toggleable = true");
    assert_true(ecs_sched_is_component_enabled(w, e[0], g_vel));   /* never off */
    check_and_destroy(w);
}

static void disabling_a_component_the_entity_lacks_is_a_missing_component(void **state) {
    ecs_sched_entity e[1], bare;
    ecs_sched_world *w = world_with(e, 1);
    char expected[64];
    (void)state;
    bare = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_enable_component(w, bare, g_pos, false), ECS_SCHED_ERR_MISSING_COMPONENT);
    snprintf(expected, sizeof expected, "entity %u does not have 'Position'",
             (unsigned)ECS_SCHED_ENTITY_INDEX(bare));
    assert_contains(ecs_sched_last_error(w), expected);
    assert_false(ecs_sched_is_component_enabled(w, bare, g_pos));
    check_and_destroy(w);
}

static void disabling_on_a_dead_entity_or_an_unknown_component_fails(void **state) {
    ecs_sched_entity e[2];
    ecs_sched_world *w = world_with(e, 2);
    (void)state;
    assert_int_equal(ecs_sched_despawn(w, e[1]), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_enable_component(w, e[1], g_pos, false), ECS_SCHED_ERR_STALE_ENTITY);
    assert_contains(ecs_sched_last_error(w), "enable_component: entity");
    assert_false(ecs_sched_is_component_enabled(w, e[1], g_pos));
    assert_int_equal(ecs_sched_enable_component(w, e[0], 999, false), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_false(ecs_sched_is_component_enabled(w, e[0], 999));
    assert_true(ecs_sched_is_component_enabled(w, e[0], g_pos));
    check_and_destroy(w);
}

static void registering_again_with_another_toggleable_setting_is_a_mismatch(void **state) {
    ecs_sched_entity e[1];
    ecs_sched_world *w = world_with(e, 0);
    ecs_sched_component_desc d;
    (void)state;
    memset(&d, 0, sizeof d);
    d.name = "Position";
    d.size = sizeof(Position);
    assert_int_equal(ecs_sched_component_register(w, &d), 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_COMPONENT_MISMATCH);
    assert_contains(ecs_sched_last_error(w), ".toggleable = true");
    d.toggleable = true;
    assert_int_equal(ecs_sched_component_register(w, &d), g_pos);
    d.name = "Velocity";
    d.size = sizeof(Velocity);
    assert_int_equal(ecs_sched_component_register(w, &d), 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_COMPONENT_MISMATCH);
    check_and_destroy(w);
}

static void a_sparse_component_cannot_be_toggleable(void **state) {
    ecs_sched_entity e[1];
    ecs_sched_world *w = world_with(e, 0);
    ecs_sched_component_desc d;
    (void)state;
    memset(&d, 0, sizeof d);
    d.name = "Burning";
    d.size = sizeof(int);
    d.storage = ECS_SCHED_STORAGE_SPARSE;
    d.toggleable = true;
    assert_int_equal(ecs_sched_component_register(w, &d), 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "toggleable and sparse");
    assert_int_equal(ecs_sched_component_lookup(w, "Burning"), 0);
    check_and_destroy(w);
}

static ecs_sched_entity g_target;
static bool g_enable;

static void toggle_target_by_command(ecs_sched_system_ctx *ctx) {
    assert_int_equal(ecs_sched_commands_enable_component(ecs_sched_ctx_commands(ctx), g_target,
                                                         g_pos, g_enable),
                     ECS_SCHED_OK);
}

static unsigned g_seen;

static void see_positions(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    g_seen = 0;
    while (ecs_sched_iter_next(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
        int32_t i;
        for (i = 0; i < it.count; i++) g_seen += (unsigned)p[i].x;
    }
}

static void systems_toggle_through_commands(void **state) {
    ecs_sched_entity e[3];
    ecs_sched_world *w = world_with(e, 3);
    (void)state;
    g_target = e[1];
    g_enable = false;
    ADD_SYSTEM(w, .name = "stop", .fn = toggle_target_by_command, .commands = true);
    ADD_SYSTEM(w, .name = "see", .fn = see_positions, .after = {"stop"},
               .queries = {{.terms = {ecs_sched_read(g_pos)}}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_false(ecs_sched_is_component_enabled(w, e[1], g_pos));
    assert_int_equal(g_seen, 1u + 4u);   /* applied at the sync point before "see" */
    g_enable = true;
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_seen, 7u);
    check_and_destroy(w);
}

static void toggle_directly(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    (void)ecs_sched_enable_component(g_world, g_target, g_pos, false);
}

static void toggling_through_the_world_from_a_system_is_refused(void **state) {
    ecs_sched_entity e[1];
    ecs_sched_world *w = world_with(e, 1);
    (void)state;
    g_target = e[0];
    ADD_SYSTEM(w, .name = "sneaky", .fn = toggle_directly);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_contains(ecs_sched_last_error(w), "enable_component through the world");
    assert_contains(ecs_sched_last_error(w), "sneaky");
    assert_true(ecs_sched_is_component_enabled(w, e[0], g_pos));
    check_and_destroy(w);
}

static void a_recorded_toggle_is_skipped_when_the_component_is_gone_by_then(void **state) {
    ecs_sched_entity e[2];
    ecs_sched_world *w = world_with(e, 2);
    ecs_sched_commands *cmd = new_commands(w);
    Velocity v = {0, 0};
    (void)state;
    assert_int_equal(ecs_sched_commands_enable_component(cmd, e[0], g_pos, false), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_enable_component(cmd, e[1], g_pos, false), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_enable_component(cmd, e[0], g_vel, false),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);   /* refused when recorded */
    assert_int_equal(ecs_sched_remove(w, e[1], g_pos), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(w, e[0], g_vel, &v), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_pending(cmd), 2);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_skipped(cmd), 1);
    assert_false(ecs_sched_is_component_enabled(w, e[0], g_pos));
    check_and_destroy(w);
}

static void a_snapshot_restore_brings_the_bits_back(void **state) {
    ecs_sched_entity e[4];
    ecs_sched_world *w = world_with(e, 4);
    ecs_sched_query *q = QUERY(w, ecs_sched_read(g_pos));
    ecs_sched_snapshot *s;
    (void)state;
    assert_int_equal(ecs_sched_enable_component(w, e[1], g_pos, false), ECS_SCHED_OK);
    s = ecs_sched_snapshot_take(w);
    assert_non_null(s);
    assert_int_equal(ecs_sched_enable_component(w, e[1], g_pos, true), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_enable_component(w, e[2], g_pos, false), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, e[0]), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_snapshot_restore(w, s), ECS_SCHED_OK);
    assert_false(ecs_sched_is_component_enabled(w, e[1], g_pos));
    assert_true(ecs_sched_is_component_enabled(w, e[2], g_pos));
    assert_int_equal(seen_by_runs(q, 0), 1u + 4u + 8u);
    /* a retake reuses the copy's blocks */
    assert_int_equal(ecs_sched_enable_component(w, e[3], g_pos, false), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_snapshot_retake(w, s), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_enable_component(w, e[3], g_pos, true), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_snapshot_restore(w, s), ECS_SCHED_OK);
    assert_int_equal(seen_by_runs(q, 0), 1u + 4u);
    ecs_sched_snapshot_free(s);
    check_and_destroy(w);
}

static int by_x_descending(ecs_sched_entity a, const void *value_a, ecs_sched_entity b,
                           const void *value_b) {
    float xa = ((const Position *)value_a)->x, xb = ((const Position *)value_b)->x;
    (void)a;
    (void)b;
    return xa < xb ? 1 : xa > xb ? -1 : 0;
}

static void a_sorted_query_skips_a_disabled_component(void **state) {
    ecs_sched_entity e[4];
    ecs_sched_world *w = world_with(e, 4);
    ecs_sched_query *q = QUERY(w, ecs_sched_read(g_pos));
    (void)state;
    assert_int_equal(ecs_sched_query_order_by(q, g_pos, by_x_descending), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_query_count(q), 4);
    assert_int_equal(ecs_sched_enable_component(w, e[2], g_pos, false), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_query_count(q), 3);
    assert_int_equal(seen_by_runs(q, 0), 1u + 2u + 8u);
    assert_int_equal(ecs_sched_enable_component(w, e[2], g_pos, true), ECS_SCHED_OK);
    assert_int_equal(seen_by_rows(q, 0), 15u);
    check_and_destroy(w);
}

static void a_query_with_a_sparse_term_sees_a_toggle_at_its_next_iteration(void **state) {
    ecs_sched_entity e[3];
    ecs_sched_world *w = world_with(e, 3);
    ecs_sched_id burning = ECS_SCHED_SPARSE_TAG(w, Burning);
    ecs_sched_query *q;
    int32_t i;
    (void)state;
    for (i = 0; i < 3; i++) assert_int_equal(ecs_sched_insert(w, e[i], burning, NULL), ECS_SCHED_OK);
    q = QUERY(w, ecs_sched_read(g_pos), ecs_sched_read(burning));
    assert_int_equal(ecs_sched_query_count(q), 3);   /* its list is made */
    assert_int_equal(ecs_sched_enable_component(w, e[0], g_pos, false), ECS_SCHED_OK);
    assert_int_equal(seen_by_runs(q, 0), 2u + 4u);   /* and made again */
    assert_int_equal(ecs_sched_query_count(q), 2);
    check_and_destroy(w);
}

static void a_changed_term_skips_a_disabled_component(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id hp = register_toggleable(w, "Health", sizeof(Health), true);
    ecs_sched_entity e[3];
    ecs_sched_query *q = QUERY(w, ecs_sched_changed(hp));
    ecs_sched_iter it;
    int32_t i, handed = 0;
    (void)state;
    for (i = 0; i < 3; i++) e[i] = SPAWN(w, {hp, NULL});
    it = ecs_sched_query_iter(q);   /* the first look: every row is new */
    while (ecs_sched_iter_next(&it)) {}
    for (i = 0; i < 3; i++) assert_non_null(ecs_sched_get_mut(w, e[i], hp));
    assert_int_equal(ecs_sched_enable_component(w, e[1], hp, false), ECS_SCHED_OK);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next_rows(&it)) {
        for (i = 0; i < it.count; i++) {
            assert_true(it.entities[it.rows[i]] != e[1]);
            handed++;
        }
    }
    assert_int_equal(handed, 2);
    check_and_destroy(w);
}

/* Marks the entities a piece hands out, each in its own slot: pieces hand out disjoint rows. */
static unsigned char g_marked[256];

static void mark_piece(ecs_sched_iter *it, void *arg) {
    int32_t i;
    (void)arg;
    for (i = 0; i < it->count; i++) g_marked[ECS_SCHED_ENTITY_INDEX(it->entities[i])]++;
}

static void parallel_iteration_skips_a_disabled_component(void **state) {
    ecs_sched_entity e[1], many[200];
    ecs_sched_world *w = world_with(e, 0);
    ecs_sched_query *q = QUERY(w, ecs_sched_read(g_pos));
    ecs_sched_pool *pool = ecs_sched_world_pool(w);
    int32_t i;
    (void)state;
    assert_non_null(pool);
    assert_int_equal(ecs_sched_spawn_batch(w, 200, 1, &g_pos, NULL, many), ECS_SCHED_OK);
    for (i = 0; i < 200; i += 7) {
        assert_int_equal(ecs_sched_enable_component(w, many[i], g_pos, false), ECS_SCHED_OK);
    }
    memset(g_marked, 0, sizeof g_marked);
    ecs_sched_query_par_iter(q, pool, 16, mark_piece, NULL);
    for (i = 0; i < 200; i++) {
        assert_int_equal(g_marked[ECS_SCHED_ENTITY_INDEX(many[i])], i % 7 == 0 ? 0 : 1);
    }
    check_and_destroy(w);
}

static void a_required_and_a_left_out_toggleable_component_do_not_make_queries_disjoint(void **state) {
    ecs_sched_entity e[1];
    ecs_sched_world *w = world_with(e, 0);
    (void)state;
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &(ecs_sched_schedule_desc){
                         .ambiguities = ECS_SCHED_REPORT_ERROR}), ECS_SCHED_OK);
    /* both hand out rows of the tables with Position: on and off rows of one table */
    ADD_SYSTEM(w, .name = "moving", .fn = record,
               .queries = {{{ecs_sched_write(g_vel), ecs_sched_read(g_pos)}}});
    ADD_SYSTEM(w, .name = "still", .fn = record,
               .queries = {{{ecs_sched_write(g_vel), ecs_sched_without(g_pos)}}});
    assert_int_equal(ecs_sched_schedule_build(w, UPDATE), ECS_SCHED_ERR_AMBIGUITY);
    assert_contains(ecs_sched_last_error(w), "component 'Velocity' (both write)");
    check_and_destroy(w);
}

static void ignore_event(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *trigger) {
    (void)ctx;
    (void)trigger;
}

static void an_observer_query_that_requires_a_toggleable_component_is_refused(void **state) {
    ecs_sched_entity e[1];
    ecs_sched_world *w = world_with(e, 0);
    ecs_sched_observer_desc d;
    (void)state;
    memset(&d, 0, sizeof d);
    d.name = "watch";
    d.event = ECS_SCHED_ON_INSERT;
    d.fn = ignore_event;
    d.query.terms[0] = ecs_sched_read(g_pos);
    assert_int_equal(ecs_sched_observer_add(w, &d), 0);
    assert_contains(ecs_sched_last_error(w), "toggleable component");
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_disabled_component_hides_the_entity_from_queries_that_require_it),
        cmocka_unit_test(iteration_by_rows_skips_a_disabled_component_too),
        cmocka_unit_test(an_enabled_component_is_seen_again),
        cmocka_unit_test(disabling_moves_nothing_and_keeps_the_value),
        cmocka_unit_test(a_query_that_does_not_require_the_disabled_component_still_sees_the_entity),
        cmocka_unit_test(an_optional_term_hands_out_a_disabled_component_and_is_component_enabled_tells),
        cmocka_unit_test(a_without_term_takes_a_disabled_component_for_absent),
        cmocka_unit_test(a_disabled_component_stays_disabled_when_the_entity_moves),
        cmocka_unit_test(a_whole_table_moved_by_a_bulk_operation_keeps_its_bits),
        cmocka_unit_test(a_row_moved_into_a_hole_keeps_its_bit),
        cmocka_unit_test(the_bits_survive_the_growth_of_a_table),
        cmocka_unit_test(new_entities_start_with_their_components_enabled),
        cmocka_unit_test(a_component_inserted_again_after_a_removal_is_enabled),
        cmocka_unit_test(a_toggleable_tag_can_be_disabled),
        cmocka_unit_test(a_component_that_is_not_toggleable_cannot_be_disabled),
        cmocka_unit_test(disabling_a_component_the_entity_lacks_is_a_missing_component),
        cmocka_unit_test(disabling_on_a_dead_entity_or_an_unknown_component_fails),
        cmocka_unit_test(registering_again_with_another_toggleable_setting_is_a_mismatch),
        cmocka_unit_test(a_sparse_component_cannot_be_toggleable),
        cmocka_unit_test(systems_toggle_through_commands),
        cmocka_unit_test(toggling_through_the_world_from_a_system_is_refused),
        cmocka_unit_test(a_recorded_toggle_is_skipped_when_the_component_is_gone_by_then),
        cmocka_unit_test(a_snapshot_restore_brings_the_bits_back),
        cmocka_unit_test(a_sorted_query_skips_a_disabled_component),
        cmocka_unit_test(a_query_with_a_sparse_term_sees_a_toggle_at_its_next_iteration),
        cmocka_unit_test(a_changed_term_skips_a_disabled_component),
        cmocka_unit_test(parallel_iteration_skips_a_disabled_component),
        cmocka_unit_test(a_required_and_a_left_out_toggleable_component_do_not_make_queries_disjoint),
        cmocka_unit_test(an_observer_query_that_requires_a_toggleable_component_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
