/* Components: run-time registration by name and layout, idempotent re-registration, layout
   mismatches, lookup, tags, the registration macros, and ids that were never registered. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <ctype.h>

#include "ecs_sched.h"

#include <cmocka.h>

#include "world_fixture.h"

#define UNKNOWN_ID ((ecs_sched_id)9999)

/* The last call was refused because component 9999 is not registered. */
static void assert_unknown_component_reported(ecs_sched_world *world, const captured_log *log) {
    assert_failed_with(world, log, ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_true(mentions_number(ecs_sched_last_error(world), 9999));
}

typedef struct { double a, b, c; } Triple;

/* ---- registration ---- */

static void registering_gives_each_name_its_own_nonzero_id(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id a, b, c;
    (void)state;
    a = ecs_sched_component_register_type(w, "A", 4, 4);
    b = ecs_sched_component_register_type(w, "B", 8, 8);
    c = ecs_sched_component_register_type(w, "C", 0, 0);
    assert_true(a != 0 && b != 0 && c != 0);
    assert_true(a != b && b != c && a != c);
    assert_int_equal(log.errors, 0);
    check_and_destroy(w);
}

static void registering_a_name_again_with_the_same_layout_returns_the_same_id(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_component_desc desc;
    ecs_sched_id first, again, via_desc;
    (void)state;
    first = ecs_sched_component_register_type(w, "Position", sizeof(Position), 4);
    again = ecs_sched_component_register_type(w, "Position", sizeof(Position), 4);
    memset(&desc, 0, sizeof desc);
    desc.name = "Position";
    desc.size = sizeof(Position);
    desc.alignment = 4;
    via_desc = ecs_sched_component_register(w, &desc);
    assert_int_not_equal(first, 0);
    assert_int_equal(again, first);
    assert_int_equal(via_desc, first);
    assert_int_equal(ECS_SCHED_COMPONENT(w, Position), first);
    assert_int_equal(log.errors, 0);
    check_and_destroy(w);
}

static void registered_name_is_copied_by_the_world(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    char name[16];
    ecs_sched_id id;
    (void)state;
    strcpy(name, "Temporary");
    id = ecs_sched_component_register_type(w, name, 4, 4);
    strcpy(name, "Overwritten");
    assert_int_equal(ecs_sched_component_lookup(w, "Temporary"), id);
    assert_int_equal(ecs_sched_component_lookup(w, "Overwritten"), 0);
    assert_string_equal(ecs_sched_component_name(w, id), "Temporary");
    check_and_destroy(w);
}

static void registering_a_name_again_with_another_size_fails_with_mismatch(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id first;
    (void)state;
    first = ECS_SCHED_COMPONENT(w, Position);
    assert_int_equal(ecs_sched_component_register_type(w, "Position", 12, 4), 0);
    assert_failed_with(w, &log, ECS_SCHED_ERR_COMPONENT_MISMATCH);
    assert_non_null(strstr(ecs_sched_last_error(w), "Position"));
    /* the first registration stands */
    assert_int_equal(ecs_sched_component_lookup(w, "Position"), first);
    assert_int_equal(ecs_sched_component_size(w, first), sizeof(Position));
    check_and_destroy(w);
}

static void registering_a_name_again_with_another_alignment_fails_with_mismatch(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id first;
    (void)state;
    first = ecs_sched_component_register_type(w, "Block", 16, 4);
    assert_int_not_equal(first, 0);
    assert_int_equal(ecs_sched_component_register_type(w, "Block", 16, 16), 0);
    assert_failed_with(w, &log, ECS_SCHED_ERR_COMPONENT_MISMATCH);
    assert_non_null(strstr(ecs_sched_last_error(w), "Block"));
    assert_int_equal(ecs_sched_component_lookup(w, "Block"), first);
    check_and_destroy(w);
}

static void registering_a_tag_name_again_as_data_fails_with_mismatch(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id tag;
    (void)state;
    tag = ecs_sched_component_register_type(w, "Frozen", 0, 0);
    assert_int_equal(ecs_sched_component_register_type(w, "Frozen", 4, 4), 0);
    assert_failed_with(w, &log, ECS_SCHED_ERR_COMPONENT_MISMATCH);
    assert_non_null(strstr(ecs_sched_last_error(w), "Frozen"));
    assert_int_equal(ecs_sched_component_size(w, tag), 0);
    check_and_destroy(w);
}

static void registering_without_a_name_fails(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_component_desc desc;
    (void)state;
    memset(&desc, 0, sizeof desc);
    desc.size = 4;
    assert_int_equal(ecs_sched_component_register(w, &desc), 0);
    assert_int_not_equal(ecs_sched_last_result(w), ECS_SCHED_OK);
    assert_true(ecs_sched_last_error(w)[0] != '\0');
    check_and_destroy(w);
}

static void registering_an_alignment_the_storage_cannot_honour_fails(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    (void)state;
    assert_int_equal(ecs_sched_component_register_type(w, "TooAligned", 128,
                                                       ECS_SCHED_MAX_ALIGNMENT * 2), 0);
    assert_int_not_equal(ecs_sched_last_result(w), ECS_SCHED_OK);
    assert_non_null(strstr(ecs_sched_last_error(w), "TooAligned"));
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_component_register_type(w, "OddAligned", 6, 3), 0);
    assert_int_not_equal(ecs_sched_last_result(w), ECS_SCHED_OK);
    assert_non_null(strstr(ecs_sched_last_error(w), "OddAligned"));
    assert_int_equal(ecs_sched_component_lookup(w, "TooAligned"), 0);
    assert_int_equal(ecs_sched_component_lookup(w, "OddAligned"), 0);
    check_and_destroy(w);
}

/* ---- lookup and description ---- */

static void lookup_finds_a_component_by_its_name(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id pos, vel;
    (void)state;
    pos = ECS_SCHED_COMPONENT(w, Position);
    vel = ECS_SCHED_COMPONENT(w, Velocity);
    assert_int_equal(ecs_sched_component_lookup(w, "Position"), pos);
    assert_int_equal(ecs_sched_component_lookup(w, "Velocity"), vel);
    check_and_destroy(w);
}

static void lookup_of_an_unregistered_name_returns_zero(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    (void)state;
    ECS_SCHED_COMPONENT(w, Position);
    assert_int_equal(ecs_sched_component_lookup(w, "Nothing"), 0);
    assert_int_equal(ecs_sched_component_lookup(w, "position"), 0);
    assert_int_equal(ecs_sched_component_lookup(w, ""), 0);
    check_and_destroy(w);
}

static void name_and_size_describe_the_registration(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id id;
    (void)state;
    id = ecs_sched_component_register_type(w, "Triple", sizeof(Triple), 8);
    assert_string_equal(ecs_sched_component_name(w, id), "Triple");
    assert_int_equal(ecs_sched_component_size(w, id), sizeof(Triple));
    check_and_destroy(w);
}

static void component_registered_through_a_desc_is_usable(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_component_desc desc;
    ecs_sched_id id;
    ecs_sched_entity e;
    Triple t = {1.5, 2.5, 3.5};
    const Triple *stored;
    (void)state;
    memset(&desc, 0, sizeof desc);
    desc.name = "Triple";
    desc.size = sizeof(Triple);
    id = ecs_sched_component_register(w, &desc);
    assert_int_not_equal(id, 0);
    e = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_insert(w, e, id, &t), ECS_SCHED_OK);
    stored = (const Triple *)ecs_sched_get(w, e, id);
    assert_non_null(stored);
    assert_true(stored->a == 1.5 && stored->b == 2.5 && stored->c == 3.5);
    assert_int_equal((uintptr_t)stored % 8, 0);
    check_and_destroy(w);
}

/* ---- macros ---- */

static void component_macro_registers_a_c_type_under_its_own_name(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id id;
    (void)state;
    id = ECS_SCHED_COMPONENT(w, Triple);
    assert_int_not_equal(id, 0);
    assert_int_equal(ecs_sched_component_lookup(w, "Triple"), id);
    assert_string_equal(ecs_sched_component_name(w, id), "Triple");
    assert_int_equal(ecs_sched_component_size(w, id), sizeof(Triple));
    check_and_destroy(w);
}

static void tag_macro_registers_a_component_without_data(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id id;
    (void)state;
    id = ECS_SCHED_TAG(w, Enemy);
    assert_int_not_equal(id, 0);
    assert_int_equal(ecs_sched_component_lookup(w, "Enemy"), id);
    assert_string_equal(ecs_sched_component_name(w, id), "Enemy");
    assert_int_equal(ecs_sched_component_size(w, id), 0);
    assert_int_equal(ECS_SCHED_TAG(w, Enemy), id);
    check_and_destroy(w);
}

/* ---- tags ---- */

static void inserted_tag_is_reported_by_has(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id enemy, pos;
    ecs_sched_entity tagged, plain;
    (void)state;
    enemy = ECS_SCHED_TAG(w, Enemy);
    pos = ECS_SCHED_COMPONENT(w, Position);
    tagged = SPAWN(w, {pos, NULL});
    plain = SPAWN(w, {pos, NULL});
    assert_int_equal(ecs_sched_insert(w, tagged, enemy, NULL), ECS_SCHED_OK);
    assert_true(ecs_sched_has(w, tagged, enemy));
    assert_false(ecs_sched_has(w, plain, enemy));
    assert_true(ecs_sched_has(w, tagged, pos));
    check_and_destroy(w);
}

static void get_of_a_tag_returns_null_and_says_why(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id enemy;
    ecs_sched_entity e;
    (void)state;
    enemy = ECS_SCHED_TAG(w, Enemy);
    e = SPAWN(w, {enemy, NULL});
    assert_true(ecs_sched_has(w, e, enemy));
    ecs_sched_clear_error(w);
    assert_null(ecs_sched_get(w, e, enemy));
    assert_true(ecs_sched_last_error(w)[0] != '\0');
    ecs_sched_clear_error(w);
    assert_null(ecs_sched_get_mut(w, e, enemy));
    assert_true(ecs_sched_last_error(w)[0] != '\0');
    check_and_destroy(w);
}

static void removed_tag_is_no_longer_reported(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id enemy, pos;
    Position p = {3, 4};
    ecs_sched_entity e;
    (void)state;
    enemy = ECS_SCHED_TAG(w, Enemy);
    pos = ECS_SCHED_COMPONENT(w, Position);
    e = SPAWN(w, {enemy, NULL}, {pos, &p});
    assert_int_equal(ecs_sched_remove(w, e, enemy), ECS_SCHED_OK);
    assert_false(ecs_sched_has(w, e, enemy));
    assert_true(((const Position *)ecs_sched_get(w, e, pos))->y == 4);
    check_and_destroy(w);
}

/* ---- unregistered ids ---- */

static void unknown_component_is_rejected_by_insert(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity e;
    int value = 1;
    int32_t archetypes;
    (void)state;
    e = ecs_sched_spawn(w);
    archetypes = ecs_sched_archetype_count(w);
    assert_int_equal(ecs_sched_insert(w, e, UNKNOWN_ID, &value), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_unknown_component_reported(w, &log);
    assert_int_equal(ecs_sched_archetype_count(w), archetypes);
    assert_true(ecs_sched_is_alive(w, e));
    check_and_destroy(w);
}

static void unknown_component_is_rejected_by_insert_many_which_changes_nothing(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_id ids[2];
    Position p = {1, 2};
    int value = 5;
    const void *values[2];
    ecs_sched_entity e;
    (void)state;
    e = ecs_sched_spawn(w);
    ids[0] = pos;
    ids[1] = UNKNOWN_ID;
    values[0] = &p;
    values[1] = &value;
    assert_int_equal(ecs_sched_insert_many(w, e, 2, ids, values),
                     ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_unknown_component_reported(w, &log);
    assert_false(ecs_sched_has(w, e, pos));
    check_and_destroy(w);
}

static void unknown_component_is_rejected_by_spawn_with_which_spawns_nothing(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id ids[2];
    (void)state;
    ids[0] = ECS_SCHED_COMPONENT(w, Position);
    ids[1] = UNKNOWN_ID;
    assert_int_equal(ecs_sched_spawn_with(w, 2, ids, NULL), ECS_SCHED_NULL_ENTITY);
    assert_unknown_component_reported(w, &log);
    assert_int_equal(ecs_sched_entity_count(w), 0);
    check_and_destroy(w);
}

static void unknown_component_is_rejected_by_spawn_batch_which_spawns_nothing(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id ids[2];
    ecs_sched_entity out[4];
    (void)state;
    ids[0] = ECS_SCHED_COMPONENT(w, Position);
    ids[1] = UNKNOWN_ID;
    assert_int_equal(ecs_sched_spawn_batch(w, 4, 2, ids, NULL, out),
                     ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_unknown_component_reported(w, &log);
    assert_int_equal(ecs_sched_entity_count(w), 0);
    check_and_destroy(w);
}

static void unknown_component_is_rejected_by_remove(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity e;
    (void)state;
    e = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_remove(w, e, UNKNOWN_ID), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_unknown_component_reported(w, &log);
    check_and_destroy(w);
}

static void unknown_component_is_rejected_by_get_and_get_mut(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity e;
    (void)state;
    e = ecs_sched_spawn(w);
    assert_null(ecs_sched_get(w, e, UNKNOWN_ID));
    assert_unknown_component_reported(w, &log);
    ecs_sched_clear_error(w);
    assert_null(ecs_sched_get_mut(w, e, UNKNOWN_ID));
    assert_unknown_component_reported(w, &log);
    assert_false(ecs_sched_has(w, e, UNKNOWN_ID));
    check_and_destroy(w);
}

static void unknown_component_is_rejected_by_query_create(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    (void)state;
    assert_null(QUERY(w, ecs_sched_read(ECS_SCHED_COMPONENT(w, Position)),
                      ecs_sched_optional_read(UNKNOWN_ID)));
    assert_unknown_component_reported(w, &log);
    check_and_destroy(w);
}

static void unknown_component_is_rejected_by_resources(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    int value = 3;
    (void)state;
    assert_int_equal(ecs_sched_resource_insert(w, UNKNOWN_ID, &value),
                     ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_unknown_component_reported(w, &log);
    ecs_sched_clear_error(w);
    assert_null(ecs_sched_resource_get(w, UNKNOWN_ID));
    assert_unknown_component_reported(w, &log);
    ecs_sched_clear_error(w);
    assert_null(ecs_sched_resource_get_mut(w, UNKNOWN_ID));
    assert_unknown_component_reported(w, &log);
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_resource_remove(w, UNKNOWN_ID), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_unknown_component_reported(w, &log);
    assert_false(ecs_sched_resource_exists(w, UNKNOWN_ID));
    check_and_destroy(w);
}

static void unknown_component_is_rejected_by_commands_when_recorded(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_commands *cmd;
    ecs_sched_entity e;
    int value = 3;
    (void)state;
    e = ecs_sched_spawn(w);
    cmd = new_commands(w);
    assert_int_equal(ecs_sched_commands_insert(cmd, e, UNKNOWN_ID, &value),
                     ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_unknown_component_reported(w, &log);
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_commands_remove(cmd, e, UNKNOWN_ID),
                     ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_unknown_component_reported(w, &log);
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_commands_set_resource(cmd, UNKNOWN_ID, &value),
                     ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_unknown_component_reported(w, &log);
    assert_int_equal(ecs_sched_commands_pending(cmd), 0);
    ecs_sched_commands_destroy(cmd);
    check_and_destroy(w);
}

static void id_zero_is_never_a_component(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_entity e;
    int value = 3;
    (void)state;
    ECS_SCHED_COMPONENT(w, Position);
    e = ecs_sched_spawn(w);
    assert_int_not_equal(ecs_sched_insert(w, e, 0, &value), ECS_SCHED_OK);
    assert_null(ecs_sched_get(w, e, 0));
    assert_false(ecs_sched_has(w, e, 0));
    assert_int_not_equal(ecs_sched_resource_insert(w, 0, &value), ECS_SCHED_OK);
    assert_false(ecs_sched_resource_exists(w, 0));
    check_and_destroy(w);
}

/* ---- misses: asking for a component an entity lacks ---- */

typedef struct { int turns; } Burning;

/* A live entity asked for a component it lacks (its own table, a sparse set, its base): the
   answer is NULL, and nothing is recorded or logged. */
static void a_missing_component_is_an_answer_with_nothing_recorded_or_logged(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position), vel = ECS_SCHED_COMPONENT(w, Velocity);
    ecs_sched_id burning = ECS_SCHED_SPARSE_COMPONENT(w, Burning), ids[2];
    ecs_sched_entity base = ecs_sched_spawn_with(w, 1, &pos, NULL);
    ecs_sched_entity e = ecs_sched_spawn_with(w, 1, &pos, NULL);
    const void *values[2];
    void *mut[2];
    (void)state;
    assert_int_equal(ecs_sched_relate(w, e, ecs_sched_is_a(w), base, NULL), ECS_SCHED_OK);
    ids[0] = pos;
    ids[1] = vel;
    assert_null(ecs_sched_get(w, e, vel));
    assert_null(ecs_sched_get_mut(w, e, vel));
    assert_null(ecs_sched_get(w, e, burning));
    assert_null(ecs_sched_get_mut(w, e, burning));
    assert_int_equal(ecs_sched_get_many(w, e, 2, ids, values), ECS_SCHED_ERR_MISSING_COMPONENT);
    assert_int_equal(ecs_sched_get_mut_many(w, e, 2, ids, mut), ECS_SCHED_ERR_MISSING_COMPONENT);
    assert_int_equal(log.count, 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_OK);
    assert_string_equal(ecs_sched_last_error(w), "");
    check_and_destroy(w);
}

/* A wrong question is not a miss: a stale handle, or the value of a tag. */
static void asking_a_stale_handle_or_a_tag_for_a_value_is_still_a_failure(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position), frozen = ECS_SCHED_TAG(w, Frozen);
    ecs_sched_entity e = ecs_sched_spawn_with(w, 1, &frozen, NULL);
    ecs_sched_entity gone = ecs_sched_spawn_with(w, 1, &pos, NULL);
    (void)state;
    assert_int_equal(ecs_sched_despawn(w, gone), ECS_SCHED_OK);
    assert_null(ecs_sched_get(w, gone, pos));
    assert_failed_with(w, &log, ECS_SCHED_ERR_STALE_ENTITY);
    assert_null(ecs_sched_get_mut(w, e, frozen));
    assert_failed_with(w, &log, ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "'Frozen' is a tag");
    check_and_destroy(w);
}

static ecs_sched_id g_missing;
static int g_misses;

static void look_for_what_is_not_there(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    ecs_sched_entity e = ecs_sched_spawn(w);
    g_misses += ecs_sched_get(w, e, g_missing) == NULL;
    g_misses += ecs_sched_get_mut(w, e, g_missing) == NULL;
}

static void a_miss_inside_a_system_is_no_failure_of_the_system(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    (void)state;
    g_missing = ECS_SCHED_COMPONENT(w, Velocity);
    g_misses = 0;
    assert_int_equal(ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
                         .name = "look", .fn = look_for_what_is_not_there, .exclusive = true}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, "Update"), ECS_SCHED_OK);
    assert_int_equal(g_misses, 2);
    assert_int_equal(log.count, 0);
    check_and_destroy(w);
}

static void registering_without_a_desc_fails_naming_what_is_missing(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    ecs_sched_component_desc desc;
    (void)state;
    assert_int_equal(ecs_sched_component_register(w, NULL), 0);
    assert_failed_with(w, &log, ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_string_equal(ecs_sched_last_error(w), "component_register: a component needs a non-empty name");
    memset(&desc, 0, sizeof desc);
    desc.name = "";
    desc.size = 4;
    assert_int_equal(ecs_sched_component_register(w, &desc), 0);
    assert_string_equal(ecs_sched_last_error(w), "component_register: a component needs a non-empty name");
    assert_int_equal(ecs_sched_component_lookup(w, ""), 0);
    check_and_destroy(w);
}

static void a_world_holds_at_most_65535_sparse_components(void **state) {
    captured_log log;
    ecs_sched_world *w = new_world(&log);
    char name[32];
    uint32_t i;
    ecs_sched_id last = 0;
    (void)state;
    for (i = 0; i < UINT16_MAX; i++) {
        snprintf(name, sizeof name, "Sparse%u", (unsigned)i);
        last = ecs_sched_sparse_component_register_type(w, name, 4, 4);
        if (!last) fail_msg("%s: %s", name, ecs_sched_last_error(w));
    }
    assert_int_equal(ecs_sched_sparse_component_register_type(w, "OneTooMany", 4, 4), 0);
    assert_failed_with(w, &log, ECS_SCHED_ERR_LIMIT);
    assert_string_equal(ecs_sched_last_error(w), "component_register: 'OneTooMany' would be sparse "
                                                 "component number 65536; a world holds at most 65535");
    assert_int_equal(ecs_sched_component_lookup(w, "OneTooMany"), 0);
    /* a dense one still fits, and the last sparse one works */
    assert_true(ecs_sched_component_register_type(w, "Dense", 4, 4) != 0);
    {
        ecs_sched_entity e = ecs_sched_spawn(w);
        int32_t value = 7;
        assert_int_equal(ecs_sched_insert(w, e, last, &value), ECS_SCHED_OK);
        assert_int_equal(*(const int32_t *)ecs_sched_get(w, e, last), 7);
    }
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(registering_gives_each_name_its_own_nonzero_id),
        cmocka_unit_test(registering_a_name_again_with_the_same_layout_returns_the_same_id),
        cmocka_unit_test(registered_name_is_copied_by_the_world),
        cmocka_unit_test(registering_a_name_again_with_another_size_fails_with_mismatch),
        cmocka_unit_test(registering_a_name_again_with_another_alignment_fails_with_mismatch),
        cmocka_unit_test(registering_a_tag_name_again_as_data_fails_with_mismatch),
        cmocka_unit_test(registering_without_a_name_fails),
        cmocka_unit_test(registering_an_alignment_the_storage_cannot_honour_fails),
        cmocka_unit_test(lookup_finds_a_component_by_its_name),
        cmocka_unit_test(lookup_of_an_unregistered_name_returns_zero),
        cmocka_unit_test(name_and_size_describe_the_registration),
        cmocka_unit_test(component_registered_through_a_desc_is_usable),
        cmocka_unit_test(component_macro_registers_a_c_type_under_its_own_name),
        cmocka_unit_test(tag_macro_registers_a_component_without_data),
        cmocka_unit_test(inserted_tag_is_reported_by_has),
        cmocka_unit_test(get_of_a_tag_returns_null_and_says_why),
        cmocka_unit_test(removed_tag_is_no_longer_reported),
        cmocka_unit_test(unknown_component_is_rejected_by_insert),
        cmocka_unit_test(unknown_component_is_rejected_by_insert_many_which_changes_nothing),
        cmocka_unit_test(unknown_component_is_rejected_by_spawn_with_which_spawns_nothing),
        cmocka_unit_test(unknown_component_is_rejected_by_spawn_batch_which_spawns_nothing),
        cmocka_unit_test(unknown_component_is_rejected_by_remove),
        cmocka_unit_test(unknown_component_is_rejected_by_get_and_get_mut),
        cmocka_unit_test(unknown_component_is_rejected_by_query_create),
        cmocka_unit_test(unknown_component_is_rejected_by_resources),
        cmocka_unit_test(unknown_component_is_rejected_by_commands_when_recorded),
        cmocka_unit_test(id_zero_is_never_a_component),
        cmocka_unit_test(a_missing_component_is_an_answer_with_nothing_recorded_or_logged),
        cmocka_unit_test(asking_a_stale_handle_or_a_tag_for_a_value_is_still_a_failure),
        cmocka_unit_test(a_miss_inside_a_system_is_no_failure_of_the_system),
        cmocka_unit_test(registering_without_a_desc_fails_naming_what_is_missing),
        cmocka_unit_test(a_world_holds_at_most_65535_sparse_components),
    };
    return cmocka_run_group_tests_name("components", tests, NULL, NULL);
}
