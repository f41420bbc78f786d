/* Bad input: counts whose byte size no memory holds, ids and entities of another world, handles
   of despawned entities in every call that takes an entity, and calls a running system may not
   make. Each is refused with its result code and a message naming the culprit, and leaves the
   world as it was. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ecs_sched.h"

#include "world_fixture.h"

/* ---- an allocator that refuses large requests ---- */

/* Requests above `limit` bytes are refused; `live` counts the blocks handed out and not yet
   taken back. */
typedef struct capped_allocator {
    size_t limit;
    long live;
    size_t largest_refused;
} capped_allocator;

static void *capped_realloc(void *ptr, size_t size, void *user_data) {
    capped_allocator *a = (capped_allocator *)user_data;
    void *block;
    if (size > a->limit) {
        if (size > a->largest_refused) a->largest_refused = size;
        return NULL;
    }
    block = realloc(ptr, size);
    if (!ptr && block) a->live++;
    return block;
}

static void capped_free(void *ptr, void *user_data) {
    capped_allocator *a = (capped_allocator *)user_data;
    if (ptr) a->live--;
    free(ptr);
}

static ecs_sched_world *capped_world(captured_log *log, capped_allocator *a) {
    ecs_sched_world_desc desc = logged_world_desc(log);
    ecs_sched_world *w;
    a->limit = (size_t)64 << 20;
    a->live = 0;
    a->largest_refused = 0;
    desc.allocator.realloc_fn = capped_realloc;
    desc.allocator.free_fn = capped_free;
    desc.allocator.user_data = a;
    w = ecs_sched_world_create(&desc);
    assert_non_null(w);
    return w;
}

/* ---- counts whose byte size no memory holds ---- */

static void spawn_batch_larger_than_memory_is_refused_and_keeps_nothing(void **state) {
    captured_log log;
    capped_allocator a;
    ecs_sched_world *w = capped_world(&log, &a);
    ecs_sched_id big = ecs_sched_component_register_type(w, "Big", (size_t)1 << 30, 8);
    long live;
    (void)state;
    assert_true(big != 0);
    ecs_sched_spawn(w);
    assert_non_null(ecs_sched_archetype_get(w, 1, &big));   /* the table the batch would fill */
    live = a.live;
    assert_int_equal(ecs_sched_spawn_batch(w, INT32_MAX, 1, &big, NULL, NULL),
                     ECS_SCHED_ERR_OUT_OF_MEMORY);
    assert_failed_with(w, &log, ECS_SCHED_ERR_OUT_OF_MEMORY);
    assert_non_null(strstr(ecs_sched_last_error(w), "batch"));
    assert_true(a.largest_refused >= (size_t)INT32_MAX);   /* no size that wrapped around */
    assert_int_equal(a.live, live);
    assert_int_equal(ecs_sched_entity_count(w), 1);
    check_and_destroy(w);
    assert_int_equal(a.live, 0);
}

static void spawn_batch_of_a_huge_component_is_refused_whatever_the_count(void **state) {
    captured_log log;
    capped_allocator a;
    ecs_sched_world *w = capped_world(&log, &a);
    ecs_sched_id big = ecs_sched_component_register_type(w, "Big", (size_t)INT32_MAX, 1);
    ecs_sched_entity out[4];
    (void)state;
    assert_true(big != 0);
    assert_int_equal(ecs_sched_spawn_batch(w, 4, 1, &big, NULL, out), ECS_SCHED_ERR_OUT_OF_MEMORY);
    assert_true(a.largest_refused >= (size_t)4 * INT32_MAX);
    assert_int_equal(ecs_sched_entity_count(w), 0);
    /* (the room made for the entities' records stays, as room to spare: no block leaks) */
    check_and_destroy(w);
    assert_int_equal(a.live, 0);
}

static void insert_many_with_more_components_than_an_entity_holds_is_refused(void **state) {
    world_setup s;
    ecs_sched_entity e;
    ecs_sched_id ids[2];
    const void *values[2] = {NULL, NULL};
    (void)state;
    setup_world(&s);
    ids[0] = s.position;
    ids[1] = s.velocity;
    e = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_insert_many(s.world, e, INT32_MAX, ids, values),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_failed_with(s.world, &s.log, ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_true(mentions_number(ecs_sched_last_error(s.world), INT32_MAX));
    assert_false(ecs_sched_has(s.world, e, s.position));
    check_and_destroy(s.world);
}

static void spawn_with_a_negative_count_is_refused(void **state) {
    world_setup s;
    (void)state;
    setup_world(&s);
    assert_true(ecs_sched_spawn_with(s.world, -1, &s.position, NULL) == ECS_SCHED_NULL_ENTITY);
    assert_failed_with(s.world, &s.log, ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_entity_count(s.world), 0);
    check_and_destroy(s.world);
}

static void spawn_batch_with_a_negative_entity_count_is_refused(void **state) {
    world_setup s;
    (void)state;
    setup_world(&s);
    assert_int_equal(ecs_sched_spawn_batch(s.world, -5, 1, &s.position, NULL, NULL),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_true(mentions_number(ecs_sched_last_error(s.world), 5));
    assert_int_equal(ecs_sched_entity_count(s.world), 0);
    check_and_destroy(s.world);
}

static void component_over_the_largest_size_is_refused_naming_the_size_limit(void **state) {
    world_setup s;
    (void)state;
    setup_world(&s);
    assert_true(ecs_sched_component_register_type(s.world, "Huge", (size_t)INT32_MAX + 1u, 8) == 0);
    assert_failed_with(s.world, &s.log, ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(s.world), "Huge"));
    assert_true(mentions_number(ecs_sched_last_error(s.world), INT32_MAX));
    assert_int_equal(ecs_sched_component_lookup(s.world, "Huge"), 0);
    check_and_destroy(s.world);
}

static void a_batch_of_messages_over_what_a_frame_holds_is_refused_as_a_limit(void **state) {
    world_setup s;
    ecs_sched_id hit;
    (void)state;
    setup_world(&s);
    hit = ecs_sched_message_register_type(s.world, "Hit", sizeof(int), sizeof(int));
    assert_true(hit != 0);
    assert_int_equal(ecs_sched_send_batch(s.world, hit, INT32_MAX, NULL), ECS_SCHED_ERR_LIMIT);
    assert_failed_with(s.world, &s.log, ECS_SCHED_ERR_LIMIT);
    assert_non_null(strstr(ecs_sched_last_error(s.world), "Hit"));
    assert_true(mentions_number(ecs_sched_last_error(s.world), INT32_MAX));
    assert_int_equal(ecs_sched_send_batch(s.world, hit, 3, NULL), ECS_SCHED_OK);
    check_and_destroy(s.world);
}

/* ---- ids and entities of another world ---- */

static void a_component_id_of_another_world_is_unknown_here(void **state) {
    world_setup a;
    captured_log log;
    ecs_sched_world *b;
    ecs_sched_entity e;
    (void)state;
    setup_world(&a);
    b = new_world(&log);
    e = ecs_sched_spawn(b);
    assert_int_equal(ecs_sched_insert(b, e, a.health, NULL), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_failed_with(b, &log, ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_true(mentions_number(ecs_sched_last_error(b), a.health));
    assert_null(ecs_sched_get(b, e, a.health));
    assert_int_equal(ecs_sched_last_result(b), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    check_and_destroy(b);
    check_and_destroy(a.world);
}

static void an_entity_of_another_world_is_stale_here(void **state) {
    world_setup a, b;
    ecs_sched_entity in_a[8], in_b;
    int i;
    (void)state;
    setup_world(&a);
    setup_world(&b);
    for (i = 0; i < 8; i++) in_a[i] = ecs_sched_spawn(a.world);
    in_b = ecs_sched_spawn(b.world);
    assert_int_equal(ecs_sched_insert(b.world, in_a[7], b.position, NULL),
                     ECS_SCHED_ERR_STALE_ENTITY);
    assert_failed_with(b.world, &b.log, ECS_SCHED_ERR_STALE_ENTITY);
    assert_true(mentions_number(ecs_sched_last_error(b.world), ECS_SCHED_ENTITY_INDEX(in_a[7])));
    assert_false(ecs_sched_is_alive(b.world, in_a[7]));
    assert_int_equal(ecs_sched_despawn(b.world, in_a[7]), ECS_SCHED_ERR_STALE_ENTITY);
    assert_int_equal(ecs_sched_entity_count(b.world), 1);
    assert_true(ecs_sched_is_alive(b.world, in_b));
    check_and_destroy(b.world);
    check_and_destroy(a.world);
}

/* ---- handles of despawned entities ---- */

/* Each call that takes an entity, given a despawned one: `fails` tells whether the call
   reports it (a result code, NULL, -1, ECS_SCHED_NULL_ENTITY) with ECS_SCHED_ERR_STALE_ENTITY
   recorded, or whether it only reads a const world, which records nothing (see ERRORS), and
   answers: no, NULL, ECS_SCHED_NULL_ENTITY, -1 for a depth or a path, 0 targets. */
static ecs_sched_id g_likes;   /* a relationship kind of the world being checked */

typedef struct dead_call {
    const char *name;
    bool (*call)(world_setup *s, ecs_sched_entity dead, ecs_sched_entity alive);
    bool fails;
} dead_call;

#define DEAD_RESULT(fn, expr)                                                        \
    static bool dead_##fn(world_setup *s, ecs_sched_entity dead, ecs_sched_entity alive) { \
        ecs_sched_world *w = s->world;                                               \
        (void)w; (void)dead; (void)alive;                                            \
        return (expr);                                                               \
    }

DEAD_RESULT(despawn, ecs_sched_despawn(w, dead) != ECS_SCHED_OK)
DEAD_RESULT(insert, ecs_sched_insert(w, dead, s->position, NULL) != ECS_SCHED_OK)
DEAD_RESULT(insert_many, ecs_sched_insert_many(w, dead, 1, &s->position, NULL) != ECS_SCHED_OK)
DEAD_RESULT(remove, ecs_sched_remove(w, dead, s->position) != ECS_SCHED_OK)
DEAD_RESULT(get, ecs_sched_get(w, dead, s->position) == NULL)
DEAD_RESULT(get_mut, ecs_sched_get_mut(w, dead, s->position) == NULL)
DEAD_RESULT(ensure, ecs_sched_ensure(w, dead, s->position) == NULL)
DEAD_RESULT(emplace, ecs_sched_emplace(w, dead, s->position, NULL) == NULL)
DEAD_RESULT(modified, ecs_sched_modified(w, dead, s->position) != ECS_SCHED_OK)
DEAD_RESULT(get_many, ecs_sched_get_many(w, dead, 1, &s->position,
                                         (const void *[1]){NULL}) != ECS_SCHED_OK)
DEAD_RESULT(get_mut_many, ecs_sched_get_mut_many(w, dead, 1, &s->position,
                                                 (void *[1]){NULL}) != ECS_SCHED_OK)
DEAD_RESULT(disable, ecs_sched_disable(w, dead) != ECS_SCHED_OK)
DEAD_RESULT(enable, ecs_sched_enable(w, dead) != ECS_SCHED_OK)
DEAD_RESULT(relate, ecs_sched_relate(w, dead, g_likes, alive, NULL) != ECS_SCHED_OK)
DEAD_RESULT(relate_to_dead, ecs_sched_relate(w, alive, g_likes, dead, NULL) != ECS_SCHED_OK)
DEAD_RESULT(unrelate, ecs_sched_unrelate(w, dead, g_likes, alive) != ECS_SCHED_OK)
DEAD_RESULT(target_count, ecs_sched_target_count(w, dead, g_likes) == 0)
DEAD_RESULT(target, ecs_sched_target(w, dead, g_likes, 0) == ECS_SCHED_NULL_ENTITY)
DEAD_RESULT(relation_payload, ecs_sched_relation_payload(w, dead, g_likes, alive) == NULL)
DEAD_RESULT(set_parent, ecs_sched_set_parent(w, dead, alive) != ECS_SCHED_OK)
DEAD_RESULT(set_parent_to_dead, ecs_sched_set_parent(w, alive, dead) != ECS_SCHED_OK)
DEAD_RESULT(set_parent_at, ecs_sched_set_parent_at(w, dead, alive, 0) != ECS_SCHED_OK)
DEAD_RESULT(depth, ecs_sched_depth(w, dead) == -1)
DEAD_RESULT(ancestors, ecs_sched_ancestors(w, dead, NULL, 0) == -1)
DEAD_RESULT(descendants, ecs_sched_descendants(w, dead, ECS_SCHED_DEPTH_FIRST, NULL, 0) == -1)
DEAD_RESULT(set_name, ecs_sched_set_name(w, dead, "ghost") != ECS_SCHED_OK)
DEAD_RESULT(name, ecs_sched_name(w, dead) == NULL)
DEAD_RESULT(path, ecs_sched_path(w, dead, ".", NULL, 0) == -1)
DEAD_RESULT(lookup_in, ecs_sched_lookup_path(w, dead, "a", ".") == ECS_SCHED_NULL_ENTITY)
DEAD_RESULT(instantiate, ecs_sched_instantiate(w, dead) == ECS_SCHED_NULL_ENTITY)
DEAD_RESULT(auto_override, ecs_sched_auto_override(w, dead, s->position) != ECS_SCHED_OK)
DEAD_RESULT(owner, ecs_sched_owner(w, dead, s->position) == ECS_SCHED_NULL_ENTITY)
DEAD_RESULT(enable_component, ecs_sched_enable_component(w, dead, s->position, false) !=
                                  ECS_SCHED_OK)
DEAD_RESULT(remove_all_pairs, ecs_sched_remove_all_pairs(w, g_likes, dead) != ECS_SCHED_OK)
DEAD_RESULT(delete_with_pair, ecs_sched_delete_with_pair(w, g_likes, dead) != ECS_SCHED_OK)
DEAD_RESULT(is_alive, !ecs_sched_is_alive(w, dead))
DEAD_RESULT(has, !ecs_sched_has(w, dead, s->position))
DEAD_RESULT(is_disabled, !ecs_sched_is_disabled(w, dead))
DEAD_RESULT(owns, !ecs_sched_owns(w, dead, s->position))
DEAD_RESULT(has_relation, !ecs_sched_has_relation(w, dead, g_likes, alive))
DEAD_RESULT(is_component_enabled, !ecs_sched_is_component_enabled(w, dead, s->position))

static const dead_call dead_calls[] = {
    {"despawn", dead_despawn, true},
    {"insert", dead_insert, true},
    {"insert_many", dead_insert_many, true},
    {"remove", dead_remove, true},
    {"get", dead_get, true},
    {"get_mut", dead_get_mut, true},
    {"ensure", dead_ensure, true},
    {"emplace", dead_emplace, true},
    {"modified", dead_modified, true},
    {"get_many", dead_get_many, true},
    {"get_mut_many", dead_get_mut_many, true},
    {"disable", dead_disable, true},
    {"enable", dead_enable, true},
    {"relate (source)", dead_relate, true},
    {"relate (target)", dead_relate_to_dead, true},
    {"unrelate", dead_unrelate, true},
    {"target_count", dead_target_count, false},
    {"target", dead_target, false},
    {"relation_payload", dead_relation_payload, true},
    {"set_parent (child)", dead_set_parent, true},
    {"set_parent (parent)", dead_set_parent_to_dead, true},
    {"set_parent_at", dead_set_parent_at, true},
    {"depth", dead_depth, false},
    {"ancestors", dead_ancestors, false},
    {"descendants", dead_descendants, true},
    {"set_name", dead_set_name, true},
    {"name", dead_name, false},
    {"path", dead_path, false},
    {"lookup_path (scope)", dead_lookup_in, true},
    {"instantiate", dead_instantiate, true},
    {"auto_override", dead_auto_override, true},
    {"owner", dead_owner, false},
    {"enable_component", dead_enable_component, true},
    {"remove_all_pairs", dead_remove_all_pairs, true},
    {"delete_with_pair", dead_delete_with_pair, true},
    {"is_alive", dead_is_alive, false},
    {"has", dead_has, false},
    {"is_disabled", dead_is_disabled, false},
    {"owns", dead_owns, false},
    {"has_relation", dead_has_relation, false},
    {"is_component_enabled", dead_is_component_enabled, false},
};

static void every_call_given_a_despawned_entity_reports_it_or_answers_no(void **state) {
    size_t i;
    int wrong = 0;
    (void)state;
    for (i = 0; i < sizeof dead_calls / sizeof dead_calls[0]; i++) {
        world_setup s;
        ecs_sched_entity dead, alive;
        const char *message;
        setup_world(&s);
        g_likes = ecs_sched_relation_register(s.world, &(ecs_sched_relation_desc){.name = "Likes"});
        assert_true(g_likes != 0);
        dead = ecs_sched_spawn_with(s.world, 1, &s.position, NULL);
        alive = ecs_sched_spawn_with(s.world, 1, &s.position, NULL);
        assert_int_equal(ecs_sched_despawn(s.world, dead), ECS_SCHED_OK);
        ecs_sched_clear_error(s.world);
        if (!dead_calls[i].call(&s, dead, alive)) {
            print_error("%s: a despawned entity was taken for a live one\n", dead_calls[i].name);
            wrong++;
        }
        message = ecs_sched_last_error(s.world);
        if (dead_calls[i].fails && (ecs_sched_last_result(s.world) != ECS_SCHED_ERR_STALE_ENTITY ||
                                    !mentions_number(message, ECS_SCHED_ENTITY_INDEX(dead)))) {
            print_error("%s: recorded %d, \"%s\", not the stale entity %u\n", dead_calls[i].name,
                        (int)ecs_sched_last_result(s.world), message,
                        (unsigned)ECS_SCHED_ENTITY_INDEX(dead));
            wrong++;
        } else if (!dead_calls[i].fails && message[0] != '\0') {
            print_error("%s: a question recorded \"%s\"\n", dead_calls[i].name, message);
            wrong++;
        }
        assert_true(ecs_sched_is_alive(s.world, alive));
        assert_int_equal(ecs_sched_entity_count(s.world), 1);
        check_and_destroy(s.world);
    }
    assert_int_equal(wrong, 0);
}

/* ---- NULL where a desc or a name is required ---- */

/* Each call given NULL for what it needs: whether it reported the failure (NULL, 0, or a
   result code) with ECS_SCHED_ERR_INVALID_ARGUMENT recorded. */
typedef struct null_call {
    const char *name;
    bool (*call)(ecs_sched_world *w);
} null_call;

#define NULL_CALL(fn, expr)                        \
    static bool null_##fn(ecs_sched_world *w) {    \
        return (expr);                             \
    }

NULL_CALL(query_create, ecs_sched_query_create(w, NULL) == NULL)
NULL_CALL(observer_add, ecs_sched_observer_add(w, NULL) == 0)
NULL_CALL(component_register, ecs_sched_component_register(w, NULL) == 0)
NULL_CALL(component_register_unnamed,
          ecs_sched_component_register(w, &(ecs_sched_component_desc){.size = 4}) == 0)
NULL_CALL(message_register, ecs_sched_message_register(w, NULL) == 0)
NULL_CALL(relation_register, ecs_sched_relation_register(w, NULL) == 0)
NULL_CALL(add_system, ecs_sched_add_system(w, "Update", NULL) != ECS_SCHED_OK)
NULL_CALL(add_systems, ecs_sched_add_systems(w, "Update", NULL) != ECS_SCHED_OK)
NULL_CALL(configure_set, ecs_sched_configure_set(w, "Update", NULL) != ECS_SCHED_OK)
NULL_CALL(configure_set_unnamed,
          ecs_sched_configure_set(w, "Update", &(ecs_sched_set_desc){.name = NULL}) != ECS_SCHED_OK)
NULL_CALL(chain_sets, ecs_sched_chain_sets(w, "Update", 2, NULL, false) != ECS_SCHED_OK)
NULL_CALL(chain_sets_null_name,
          ecs_sched_chain_sets(w, "Update", 2, (const char *const[]){"a", NULL}, false) !=
              ECS_SCHED_OK)
NULL_CALL(state_register, ecs_sched_state_register(w, NULL) == 0)
NULL_CALL(prefab_data_from_json, ecs_sched_prefab_data_from_json(w, NULL, NULL) == NULL)

static const null_call null_calls[] = {
    {"query_create", null_query_create},
    {"observer_add", null_observer_add},
    {"component_register", null_component_register},
    {"component_register (no name)", null_component_register_unnamed},
    {"message_register", null_message_register},
    {"relation_register", null_relation_register},
    {"add_system", null_add_system},
    {"add_systems", null_add_systems},
    {"configure_set", null_configure_set},
    {"configure_set (no name)", null_configure_set_unnamed},
    {"chain_sets", null_chain_sets},
    {"chain_sets (a NULL name)", null_chain_sets_null_name},
    {"state_register", null_state_register},
    {"prefab_data_from_json", null_prefab_data_from_json},
};

static void every_call_given_null_for_a_required_desc_or_name_is_refused(void **state) {
    size_t i;
    int wrong = 0;
    (void)state;
    for (i = 0; i < sizeof null_calls / sizeof null_calls[0]; i++) {
        captured_log log;
        ecs_sched_world *w = new_world(&log);
        if (!null_calls[i].call(w)) {
            print_error("%s: NULL was accepted\n", null_calls[i].name);
            wrong++;
        } else if (ecs_sched_last_result(w) != ECS_SCHED_ERR_INVALID_ARGUMENT ||
                   ecs_sched_last_error(w)[0] == '\0' || log.errors == 0) {
            print_error("%s: recorded %d, \"%s\"\n", null_calls[i].name,
                        (int)ecs_sched_last_result(w), ecs_sched_last_error(w));
            wrong++;
        }
        check_and_destroy(w);
    }
    assert_int_equal(wrong, 0);
}

/* ---- calls a running system may not make ---- */

static int late_runs;

static void late(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    late_runs++;
}

/* Adds a system to its own schedule, and tries to remove itself, on its first run. */
static void grow_own_schedule(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    int *removed = (int *)ecs_sched_ctx_user_data(ctx);
    if (*removed != -1) return;
    assert_int_equal(ecs_sched_add_system(w, "Update",
                                          &(ecs_sched_system_desc){.name = "late", .fn = late}),
                     ECS_SCHED_OK);
    *removed = ecs_sched_remove_system(w, "Update", "grow");
}

static void a_system_added_while_its_schedule_runs_runs_from_the_next_run(void **state) {
    world_setup s;
    int removed = -1;
    (void)state;
    setup_world(&s);
    late_runs = 0;
    assert_int_equal(ecs_sched_add_system(s.world, "Update",
                                          &(ecs_sched_system_desc){.name = "grow",
                                                                   .fn = grow_own_schedule,
                                                                   .user_data = &removed,
                                                                   .exclusive = true}),
                     ECS_SCHED_OK);
    /* the refused removal is a failed call of the system: the run reports it */
    assert_int_equal(ecs_sched_run_schedule(s.world, "Update"), ECS_SCHED_ERR_SCHEDULE_RUNNING);
    assert_non_null(strstr(ecs_sched_last_error(s.world), "grow"));
    assert_int_equal(late_runs, 0);
    assert_int_equal(removed, ECS_SCHED_ERR_SCHEDULE_RUNNING);
    assert_int_equal(ecs_sched_run_schedule(s.world, "Update"), ECS_SCHED_OK);
    assert_int_equal(late_runs, 1);
    check_and_destroy(s.world);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spawn_batch_larger_than_memory_is_refused_and_keeps_nothing),
        cmocka_unit_test(spawn_batch_of_a_huge_component_is_refused_whatever_the_count),
        cmocka_unit_test(insert_many_with_more_components_than_an_entity_holds_is_refused),
        cmocka_unit_test(spawn_with_a_negative_count_is_refused),
        cmocka_unit_test(spawn_batch_with_a_negative_entity_count_is_refused),
        cmocka_unit_test(component_over_the_largest_size_is_refused_naming_the_size_limit),
        cmocka_unit_test(a_batch_of_messages_over_what_a_frame_holds_is_refused_as_a_limit),
        cmocka_unit_test(a_component_id_of_another_world_is_unknown_here),
        cmocka_unit_test(an_entity_of_another_world_is_stale_here),
        cmocka_unit_test(every_call_given_a_despawned_entity_reports_it_or_answers_no),
        cmocka_unit_test(every_call_given_null_for_a_required_desc_or_name_is_refused),
        cmocka_unit_test(a_system_added_while_its_schedule_runs_runs_from_the_next_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
