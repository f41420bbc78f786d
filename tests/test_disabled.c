/* Disabled entities. A disabled entity keeps its components and is hidden from every query
   that does not name the Disabled tag (optional: every entity; required: the disabled only),
   whether the query was made before or after the first disable. Disabling goes through
   the world, commands, and is refused from a system that may not change the world. */
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

static ecs_sched_id g_pos;

static ecs_sched_world *world_with_positions(ecs_sched_entity *out, int32_t n) {
    ecs_sched_world *w = new_world();
    int32_t i;
    g_pos = ECS_SCHED_COMPONENT(w, Position);
    assert_true(g_pos != 0);
    for (i = 0; i < n; i++) {
        Position p = {(float)i, 0};
        const void *values[1];
        values[0] = &p;
        out[i] = ecs_sched_spawn_with(w, 1, &g_pos, values);
        assert_true(out[i] != ECS_SCHED_NULL_ENTITY);
    }
    return w;
}

static ecs_sched_query *position_query(ecs_sched_world *w, bool include_disabled) {
    ecs_sched_query_desc desc;
    ecs_sched_query *q;
    memset(&desc, 0, sizeof desc);
    desc.terms[0] = ecs_sched_read(g_pos);
    if (include_disabled) desc.terms[1] = ecs_sched_optional_read(ecs_sched_disabled_tag(w));
    q = ecs_sched_query_create(w, &desc);
    assert_non_null(q);
    return q;
}

/* The sum of x over what a query hands out. */
static float sum_x(const ecs_sched_query *q) {
    ecs_sched_iter it = ecs_sched_query_iter(q);
    float sum = 0;
    while (ecs_sched_iter_next(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
        int32_t i;
        for (i = 0; i < it.count; i++) sum += p[i].x;
    }
    return sum;
}

static void a_disabled_entity_is_hidden_from_queries_and_keeps_its_components(void **state) {
    ecs_sched_entity e[4];
    ecs_sched_world *w = world_with_positions(e, 4);   /* x: 0 1 2 3 */
    ecs_sched_query *before = position_query(w, false);
    ecs_sched_query *after;
    const Position *p;
    (void)state;
    assert_int_equal(ecs_sched_disable(w, e[2]), ECS_SCHED_OK);
    after = position_query(w, false);
    assert_true(ecs_sched_is_disabled(w, e[2]));
    assert_false(ecs_sched_is_disabled(w, e[1]));
    assert_int_equal(ecs_sched_query_count(before), 3);
    assert_int_equal(ecs_sched_query_count(after), 3);
    assert_true(sum_x(before) == 4.0f && sum_x(after) == 4.0f);
    p = (const Position *)ecs_sched_get(w, e[2], g_pos);
    assert_non_null(p);
    assert_true(p->x == 2.0f);
    assert_true(ecs_sched_is_alive(w, e[2]));
    check_and_destroy(w);
}

static void an_enabled_entity_is_seen_again(void **state) {
    ecs_sched_entity e[3];
    ecs_sched_world *w = world_with_positions(e, 3);
    ecs_sched_query *q = position_query(w, false);
    (void)state;
    assert_int_equal(ecs_sched_disable(w, e[0]), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_disable(w, e[0]), ECS_SCHED_OK);   /* twice: no change */
    assert_int_equal(ecs_sched_query_count(q), 2);
    assert_int_equal(ecs_sched_enable(w, e[0]), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_enable(w, e[0]), ECS_SCHED_OK);
    assert_false(ecs_sched_is_disabled(w, e[0]));
    assert_int_equal(ecs_sched_query_count(q), 3);
    check_and_destroy(w);
}

static void a_query_naming_the_tag_sees_disabled_entities_too_or_only_them(void **state) {
    ecs_sched_entity e[3];
    ecs_sched_world *w = world_with_positions(e, 3);
    ecs_sched_query *all = position_query(w, true);
    ecs_sched_query *only;
    ecs_sched_query_desc desc;
    (void)state;
    assert_int_equal(ecs_sched_disable(w, e[1]), ECS_SCHED_OK);
    memset(&desc, 0, sizeof desc);
    desc.terms[0] = ecs_sched_read(g_pos);
    desc.terms[1] = ecs_sched_read(ecs_sched_disabled_tag(w));   /* the disabled only */
    only = ecs_sched_query_create(w, &desc);
    assert_non_null(only);
    assert_int_equal(ecs_sched_query_count(all), 3);
    assert_int_equal(ecs_sched_query_count(only), 1);
    assert_true(sum_x(only) == 1.0f);
    check_and_destroy(w);
}

static ecs_sched_entity g_target;

static void disable_target_by_command(ecs_sched_system_ctx *ctx) {
    assert_int_equal(ecs_sched_commands_disable(ecs_sched_ctx_commands(ctx), g_target),
                     ECS_SCHED_OK);
}

static void enable_target_by_command(ecs_sched_system_ctx *ctx) {
    assert_int_equal(ecs_sched_commands_enable(ecs_sched_ctx_commands(ctx), g_target),
                     ECS_SCHED_OK);
}

static float g_seen_sum;

static void sum_positions(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    g_seen_sum = 0;
    while (ecs_sched_iter_next(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
        int32_t i;
        for (i = 0; i < it.count; i++) g_seen_sum += p[i].x;
    }
}

static void systems_disable_and_enable_through_commands(void **state) {
    ecs_sched_entity e[3];
    ecs_sched_world *w = world_with_positions(e, 3);   /* x: 0 1 2 */
    (void)state;
    g_target = e[2];
    ADD_SYSTEM(w, .name = "hide", .fn = disable_target_by_command, .commands = true);
    ADD_SYSTEM(w, .name = "sum", .fn = sum_positions, .after = {"hide"},
               .queries = {{.terms = {ecs_sched_read(g_pos)}}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_true(ecs_sched_is_disabled(w, e[2]));
    assert_true(g_seen_sum == 1.0f);   /* applied at the sync point before "sum" */
    assert_int_equal(ecs_sched_add_system(w, "Show", &(ecs_sched_system_desc){
                         .name = "show", .fn = enable_target_by_command, .commands = true}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, "Show"), ECS_SCHED_OK);
    assert_false(ecs_sched_is_disabled(w, e[2]));
    check_and_destroy(w);
}

/* Keeps the world pointer from outside (ecs_sched_ctx_world is for exclusive systems). */
static void disable_directly(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    (void)ecs_sched_disable(g_world, g_target);
}

static void disabling_through_the_world_from_a_system_is_refused(void **state) {
    ecs_sched_entity e[1];
    ecs_sched_world *w = world_with_positions(e, 1);
    ecs_sched_result result;
    (void)state;
    g_target = e[0];
    ADD_SYSTEM(w, .name = "sneaky", .fn = disable_directly);
    result = ecs_sched_run_schedule(w, UPDATE);
    assert_int_equal(result, ECS_SCHED_ERR_ACCESS);
    assert_non_null(strstr(ecs_sched_last_error(w), "disable through the world"));
    assert_non_null(strstr(ecs_sched_last_error(w), "sneaky"));
    assert_false(ecs_sched_is_disabled(w, e[0]));
    check_and_destroy(w);
}

static void disabling_a_dead_entity_is_an_error_that_names_it(void **state) {
    ecs_sched_entity e[2];
    ecs_sched_world *w = world_with_positions(e, 2);
    char expected[64];
    (void)state;
    assert_int_equal(ecs_sched_despawn(w, e[1]), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_disable(w, e[1]), ECS_SCHED_ERR_STALE_ENTITY);
    snprintf(expected, sizeof expected, "disable: entity %u ",
             (unsigned)ECS_SCHED_ENTITY_INDEX(e[1]));
    assert_non_null(strstr(ecs_sched_last_error(w), expected));
    assert_non_null(strstr(ecs_sched_last_error(w), "was despawned"));
    assert_int_equal(ecs_sched_enable(w, e[1]), ECS_SCHED_ERR_STALE_ENTITY);
    assert_non_null(strstr(ecs_sched_last_error(w), "enable: entity"));
    assert_false(ecs_sched_is_disabled(w, e[1]));
    assert_false(ecs_sched_is_disabled(w, e[0]));
    assert_int_equal(ecs_sched_entity_count(w), 1);
    check_and_destroy(w);
}

static void every_world_has_the_disabled_tag_under_the_librarys_name(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id tag;
    (void)state;
    tag = ecs_sched_disabled_tag(w);
    assert_true(tag != 0);
    assert_int_equal(ecs_sched_component_lookup(w, "ecs_sched.Disabled"), tag);
    assert_int_equal(ecs_sched_component_size(w, tag), 0);
    check_and_destroy(w);
}

static void a_prefab_is_hidden_from_queries_that_do_not_name_the_tag(void **state) {
    ecs_sched_entity e[3];
    ecs_sched_world *w = world_with_positions(e, 3);   /* x: 0 1 2 */
    ecs_sched_query *plain = position_query(w, false), *prefabs;
    ecs_sched_query_desc desc;
    (void)state;
    assert_int_equal(ecs_sched_insert(w, e[1], ecs_sched_prefab_tag(w), NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_query_count(plain), 2);
    assert_true(sum_x(plain) == 2.0f);
    memset(&desc, 0, sizeof desc);
    desc.terms[0] = ecs_sched_read(g_pos);
    desc.terms[1] = ecs_sched_read(ecs_sched_prefab_tag(w));
    prefabs = ecs_sched_query_create(w, &desc);
    assert_non_null(prefabs);
    assert_int_equal(ecs_sched_query_count(prefabs), 1);
    assert_true(sum_x(prefabs) == 1.0f);
    /* a disabled prefab needs both tags named */
    assert_int_equal(ecs_sched_disable(w, e[1]), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_query_count(prefabs), 0);
    assert_true(ecs_sched_component_lookup(w, "ecs_sched.Prefab") == ecs_sched_prefab_tag(w));
    check_and_destroy(w);
}

static void enable_directly(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    (void)ecs_sched_enable(g_world, g_target);
}

static void enabling_through_the_world_from_a_system_is_refused(void **state) {
    ecs_sched_entity e[1];
    ecs_sched_world *w = world_with_positions(e, 1);
    (void)state;
    g_target = e[0];
    assert_int_equal(ecs_sched_disable(w, e[0]), ECS_SCHED_OK);
    ADD_SYSTEM(w, .name = "sneaky", .fn = enable_directly);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_non_null(strstr(ecs_sched_last_error(w), "enable through the world"));
    assert_non_null(strstr(ecs_sched_last_error(w), "sneaky"));
    assert_true(ecs_sched_is_disabled(w, e[0]));
    assert_int_equal(ecs_sched_enable(w, e[0]), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_enable(w, e[0]), ECS_SCHED_OK);   /* enabled already */
    assert_false(ecs_sched_is_disabled(w, e[0]));
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(enabling_through_the_world_from_a_system_is_refused),
        cmocka_unit_test(a_prefab_is_hidden_from_queries_that_do_not_name_the_tag),
        cmocka_unit_test(a_disabled_entity_is_hidden_from_queries_and_keeps_its_components),
        cmocka_unit_test(an_enabled_entity_is_seen_again),
        cmocka_unit_test(a_query_naming_the_tag_sees_disabled_entities_too_or_only_them),
        cmocka_unit_test(systems_disable_and_enable_through_commands),
        cmocka_unit_test(disabling_through_the_world_from_a_system_is_refused),
        cmocka_unit_test(disabling_a_dead_entity_is_an_error_that_names_it),
        cmocka_unit_test(every_world_has_the_disabled_tag_under_the_librarys_name),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
