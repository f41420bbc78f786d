/* The remote protocol (ECS_SCHED_REMOTE): Bevy's methods, parameters, result shapes and error
   codes (crates/bevy_remote: src/builtin_methods.rs, src/lib.rs), answered through
   ecs_sched_remote_handle and over HTTP on 127.0.0.1; bad requests answered with their code
   and the world unchanged; HTTP requests answered only at a poll or in the app's system. */
#define _POSIX_C_SOURCE 200809L   /* sockets and nanosleep for the HTTP client */
#include "ecs_sched.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "world_fixture.h"
#include "remote_fixture.h"

/* ---- rpc.discover ---- */

static void test_discover_lists_every_method_in_an_openrpc_document(void **state) {
    static const char *const methods[] = {
        "rpc.discover", "world.get_components", "world.query", "world.get_components+watch",
        "world.query+watch", "world.spawn_entity",
        "world.insert_components", "world.remove_components", "world.despawn_entity",
        "world.reparent_entities", "world.list_components", "world.mutate_components",
        "world.get_resources", "world.insert_resources", "world.remove_resources",
        "world.mutate_resources", "world.list_resources", "world.trigger_event",
        "world.write_message", "ecs_sched.list_schedules", "ecs_sched.schedule_plan",
        "ecs_sched.schedule_dot", "ecs_sched.system_stats", "ecs_sched.set_stats",
        "ecs_sched.trace", "ecs_sched.record_trace", "ecs_sched.get_stepping", "ecs_sched.set_stepping", "ecs_sched.step",
        "ecs_sched.set_step_behaviour", "ecs_sched.list_states", "ecs_sched.set_state",
        "ecs_sched.take_snapshot", "ecs_sched.restore_snapshot", "ecs_sched.names"};
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "rpc.discover", "");
    const cJSON *doc = result_of(response), *list = cJSON_GetObjectItemCaseSensitive(doc, "methods");
    size_t i;
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(doc, "openrpc")->valuestring, "1.3.2");
    assert_true(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(doc, "info")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(doc, "servers")));   /* no HTTP */
    assert_int_equal(cJSON_GetArraySize(list), (int)(sizeof methods / sizeof methods[0]));
    for (i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        const cJSON *m = cJSON_GetArrayItem(list, (int)i);
        assert_string_equal(cJSON_GetObjectItemCaseSensitive(m, "name")->valuestring, methods[i]);
        assert_true(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(m, "params")));
    }
    cJSON_Delete(response);
}

static void test_discover_read_only_lists_only_the_methods_that_read(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_remote_desc desc;
    cJSON *response;
    const cJSON *m;
    int n = 0;
    memset(&desc, 0, sizeof desc);
    desc.no_http = true;
    desc.read_only = true;
    ecs_sched_remote_destroy(r->remote);
    r->remote = ecs_sched_remote_create(r->world, &desc);
    response = call(r, "rpc.discover", "null");
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(result_of(response), "methods")) {
        const char *name = cJSON_GetObjectItemCaseSensitive(m, "name")->valuestring;
        assert_true(strstr(name, "get_") || strstr(name, "list_") || strcmp(name, "world.query") == 0 ||
                    strcmp(name, "world.query+watch") == 0 || strcmp(name, "rpc.discover") == 0 ||
                    strcmp(name, "ecs_sched.schedule_plan") == 0 ||
                    strcmp(name, "ecs_sched.schedule_dot") == 0 ||
                    strcmp(name, "ecs_sched.system_stats") == 0 || strcmp(name, "ecs_sched.trace") == 0 ||
                    strcmp(name, "ecs_sched.names") == 0);
        n++;
    }
    assert_int_equal(n, 16);
    cJSON_Delete(response);
}

/* ---- world.get_components ---- */

static void test_get_components_lenient_gives_components_and_errors(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "world.get_components",
                           "{\"entity\": %llu, \"components\": [\"Position\", \"Target\", \"Nope\"]}",
                           (unsigned long long)r->a);
    const cJSON *result = result_of(response);
    const cJSON *components = cJSON_GetObjectItemCaseSensitive(result, "components");
    const cJSON *errors = cJSON_GetObjectItemCaseSensitive(result, "errors");
    const cJSON *position = cJSON_GetObjectItemCaseSensitive(components, "Position");
    assert_int_equal(cJSON_GetArraySize(components), 1);
    assert_true(number_at(position, "x") == 1.5);
    assert_true(number_at(position, "y") == -2.0);
    assert_int_equal(cJSON_GetArraySize(errors), 2);
    assert_int_equal((int)number_at(cJSON_GetObjectItemCaseSensitive(errors, "Target"), "code"),
                     ECS_SCHED_RPC_COMPONENT_NOT_PRESENT);
    assert_int_equal((int)number_at(cJSON_GetObjectItemCaseSensitive(errors, "Nope"), "code"),
                     ECS_SCHED_RPC_COMPONENT_ERROR);
    cJSON_Delete(response);
}

static void test_get_components_strict_gives_a_map_of_values(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "world.get_components",
                           "{\"entity\": %llu, \"components\": [\"Health\", \"Enemy\"], \"strict\": true}",
                           (unsigned long long)r->a);
    const cJSON *result = result_of(response);
    assert_int_equal(cJSON_GetArraySize(result), 2);
    assert_int_equal((int)number_at(cJSON_GetObjectItemCaseSensitive(result, "Health"), "hp"), 7);
    /* a tag is Bevy's unit struct: {} */
    assert_true(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(result, "Enemy")));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(result, "Enemy")), 0);
    cJSON_Delete(response);
}

static void test_get_components_strict_fails_on_a_component_not_present(void **state) {
    remote_world *r = (remote_world *)*state;
    char params[200];
    snprintf(params, sizeof params, "{\"entity\": %llu, \"components\": [\"Position\", \"Target\"], "
             "\"strict\": true}", (unsigned long long)r->a);
    expect_refused(r, ECS_SCHED_RPC_COMPONENT_NOT_PRESENT, "world.get_components", params);
}

static void test_get_components_writes_entity_members_as_handles(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "world.get_components",
                           "{\"entity\": %llu, \"components\": [\"Target\"], \"strict\": true}",
                           (unsigned long long)r->b);
    const cJSON *target = cJSON_GetObjectItemCaseSensitive(result_of(response), "Target");
    assert_true(number_at(target, "who") == (double)r->a);
    assert_int_equal((int)number_at(target, "ticks"), 4);
    cJSON_Delete(response);
}

static void test_get_components_gives_childof_as_the_parent(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response;
    assert_int_equal(ecs_sched_set_parent(r->world, r->b, r->a), ECS_SCHED_OK);
    response = call(r, "world.get_components",
                    "{\"entity\": %llu, \"components\": [\"ecs_sched.ChildOf\"], \"strict\": true}",
                    (unsigned long long)r->b);
    assert_true(cJSON_GetObjectItemCaseSensitive(result_of(response), "ecs_sched.ChildOf")->valuedouble ==
                (double)r->a);
    cJSON_Delete(response);
}

/* ---- world.query ---- */

static const cJSON *row_of(const cJSON *rows, ecs_sched_entity e) {
    const cJSON *row;
    cJSON_ArrayForEach(row, rows) {
        if (number_at(row, "entity") == (double)e) return row;
    }
    return NULL;
}

static void test_query_gives_entity_components_and_has_rows(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "world.query",
                           "{\"data\": {\"components\": [\"Position\"], \"option\": [\"Health\"], "
                           "\"has\": [\"Enemy\", \"Unknown\"]}}");
    const cJSON *rows = result_of(response), *row_a, *row_b;
    assert_int_equal(cJSON_GetArraySize(rows), 2);
    row_a = row_of(rows, r->a);
    row_b = row_of(rows, r->b);
    assert_non_null(row_a);
    assert_non_null(row_b);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(row_a, "components")), 2);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(row_b, "components")), 1);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(row_a, "has"), "Enemy")));
    assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(row_b, "has"), "Enemy")));
    /* an unknown component in "has" is absent */
    assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(row_a, "has"), "Unknown")));
    cJSON_Delete(response);
}

static void test_query_leaves_has_out_when_none_is_asked(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "world.query", "{\"data\": {\"components\": [\"Health\"]}}");
    const cJSON *rows = result_of(response);
    assert_int_equal(cJSON_GetArraySize(rows), 1);
    assert_null(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(rows, 0), "has"));
    cJSON_Delete(response);
}

static void test_query_filters_with_and_without(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *with = call(r, "world.query", "{\"data\": {}, \"filter\": {\"with\": [\"Target\"]}}");
    cJSON *without = call(r, "world.query", "{\"data\": {}, \"filter\": {\"without\": [\"Enemy\"], "
                                            "\"with\": [\"Position\"]}}");
    assert_int_equal(cJSON_GetArraySize(result_of(with)), 1);
    assert_non_null(row_of(result_of(with), r->b));
    assert_int_equal(cJSON_GetArraySize(result_of(without)), 1);
    assert_non_null(row_of(result_of(without), r->b));
    /* filters fetch nothing */
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(row_of(result_of(with), r->b),
                                                                         "components")), 0);
    cJSON_Delete(with);
    cJSON_Delete(without);
}

static void test_query_option_all_gives_every_component(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "world.query", "{\"data\": {\"option\": \"all\"}, "
                                             "\"filter\": {\"with\": [\"Enemy\"]}}");
    const cJSON *components = cJSON_GetObjectItemCaseSensitive(row_of(result_of(response), r->a), "components");
    assert_int_equal(cJSON_GetArraySize(components), 3);
    assert_non_null(cJSON_GetObjectItemCaseSensitive(components, "Position"));
    assert_non_null(cJSON_GetObjectItemCaseSensitive(components, "Health"));
    assert_non_null(cJSON_GetObjectItemCaseSensitive(components, "Enemy"));
    cJSON_Delete(response);
}

static void test_query_unknown_required_component_matches_nothing(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "world.query", "{\"data\": {\"components\": [\"Position\", \"Ghost\"]}}");
    assert_int_equal(cJSON_GetArraySize(result_of(response)), 0);
    cJSON_Delete(response);
}

static void test_query_strict_unknown_component_is_a_component_error(void **state) {
    remote_world *r = (remote_world *)*state;
    expect_refused(r, ECS_SCHED_RPC_COMPONENT_ERROR, "world.query",
                   "{\"data\": {\"option\": [\"Ghost\"]}, \"strict\": true}");
}

static void test_query_leaves_disabled_entities_out_unless_named(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *plain, *named;
    assert_int_equal(ecs_sched_disable(r->world, r->a), ECS_SCHED_OK);
    plain = call(r, "world.query", "{\"data\": {\"components\": [\"Position\"]}}");
    named = call(r, "world.query", "{\"data\": {\"components\": [\"Position\"]}, "
                                   "\"filter\": {\"with\": [\"ecs_sched.Disabled\"]}}");
    assert_int_equal(cJSON_GetArraySize(result_of(plain)), 1);
    assert_non_null(row_of(result_of(plain), r->b));
    assert_int_equal(cJSON_GetArraySize(result_of(named)), 1);
    assert_non_null(row_of(result_of(named), r->a));
    cJSON_Delete(plain);
    cJSON_Delete(named);
}

/* ---- changing entities ---- */

static void test_spawn_entity_returns_the_new_entity_with_its_values(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "world.spawn_entity",
                           "{\"components\": {\"Health\": {\"hp\": 12}, \"Enemy\": {}, "
                           "\"Target\": {\"who\": %llu}}}", (unsigned long long)r->b);
    ecs_sched_entity e = (ecs_sched_entity)number_at(result_of(response), "entity");
    const Target *t;
    assert_true(ecs_sched_is_alive(r->world, e));
    assert_int_equal(((const Health *)ecs_sched_get(r->world, e, r->health))->hp, 12);
    assert_true(ecs_sched_has(r->world, e, r->enemy));
    t = (const Target *)ecs_sched_get(r->world, e, r->target);
    assert_true(t->who == r->b);
    assert_int_equal(t->ticks, 0);   /* a member left out keeps the default */
    cJSON_Delete(response);
}

static void test_insert_components_sets_values(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "world.insert_components",
                           "{\"entity\": %llu, \"components\": {\"Health\": {\"hp\": 30}, "
                           "\"Position\": {\"x\": 9}}}", (unsigned long long)r->b);
    assert_true(cJSON_IsNull(result_of(response)));
    assert_int_equal(((const Health *)ecs_sched_get(r->world, r->b, r->health))->hp, 30);
    assert_true(((const Position *)ecs_sched_get(r->world, r->b, r->position))->x == 9.0f);
    assert_true(((const Position *)ecs_sched_get(r->world, r->b, r->position))->y == 0.0f);
    cJSON_Delete(response);
}

static void test_remove_components_takes_them_away(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "world.remove_components",
                           "{\"entity\": %llu, \"components\": [\"Health\", \"Enemy\", \"Target\"]}",
                           (unsigned long long)r->a);
    assert_true(cJSON_IsNull(result_of(response)));
    assert_false(ecs_sched_has(r->world, r->a, r->health));
    assert_false(ecs_sched_has(r->world, r->a, r->enemy));
    assert_true(ecs_sched_has(r->world, r->a, r->position));
    cJSON_Delete(response);
}

static void test_despawn_entity_despawns_it(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "world.despawn_entity", "{\"entity\": %llu}", (unsigned long long)r->a);
    assert_true(cJSON_IsNull(result_of(response)));
    assert_false(ecs_sched_is_alive(r->world, r->a));
    assert_true(ecs_sched_is_alive(r->world, r->b));
    cJSON_Delete(response);
}

static void test_reparent_entities_sets_and_clears_parents(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_entity c = ecs_sched_spawn(r->world);
    cJSON *set = call(r, "world.reparent_entities", "{\"entities\": [%llu, %llu], \"parent\": %llu}",
                      (unsigned long long)r->b, (unsigned long long)c, (unsigned long long)r->a);
    assert_true(cJSON_IsNull(result_of(set)));
    assert_true(ecs_sched_parent_of(r->world, r->b) == r->a);
    assert_true(ecs_sched_parent_of(r->world, c) == r->a);
    cJSON_Delete(set);
    set = call(r, "world.reparent_entities", "{\"entities\": [%llu]}", (unsigned long long)c);
    assert_true(cJSON_IsNull(result_of(set)));
    assert_true(ecs_sched_parent_of(r->world, c) == ECS_SCHED_NULL_ENTITY);
    assert_true(ecs_sched_parent_of(r->world, r->b) == r->a);
    cJSON_Delete(set);
}

static void test_reparent_to_itself_is_refused(void **state) {
    remote_world *r = (remote_world *)*state;
    char params[160];
    snprintf(params, sizeof params, "{\"entities\": [%llu, %llu], \"parent\": %llu}",
             (unsigned long long)r->b, (unsigned long long)r->a, (unsigned long long)r->a);
    expect_refused(r, ECS_SCHED_RPC_SELF_REPARENT, "world.reparent_entities", params);
    assert_true(ecs_sched_parent_of(r->world, r->b) == ECS_SCHED_NULL_ENTITY);
}

static void test_reparent_under_a_descendant_is_refused(void **state) {
    remote_world *r = (remote_world *)*state;
    char params[160];
    assert_int_equal(ecs_sched_set_parent(r->world, r->b, r->a), ECS_SCHED_OK);
    snprintf(params, sizeof params, "{\"entities\": [%llu], \"parent\": %llu}",
             (unsigned long long)r->a, (unsigned long long)r->b);
    expect_refused(r, ECS_SCHED_RPC_SELF_REPARENT, "world.reparent_entities", params);
}

static void test_list_components_names_every_component_sorted(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "world.list_components", "");
    const cJSON *names = result_of(response), *name;
    const char *last = "";
    bool position = false, hit = false;
    cJSON_ArrayForEach(name, names) {
        assert_true(strcmp(last, name->valuestring) < 0);
        last = name->valuestring;
        position = position || strcmp(name->valuestring, "Position") == 0;
        hit = hit || strcmp(name->valuestring, "Hit") == 0;
    }
    assert_true(position);
    assert_false(hit);   /* a message type is not a component */
    cJSON_Delete(response);
}

static void test_list_components_of_an_entity(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "world.list_components", "{\"entity\": %llu}", (unsigned long long)r->a);
    const cJSON *names = result_of(response);
    assert_int_equal(cJSON_GetArraySize(names), 3);
    assert_string_equal(cJSON_GetArrayItem(names, 0)->valuestring, "Enemy");
    assert_string_equal(cJSON_GetArrayItem(names, 1)->valuestring, "Health");
    assert_string_equal(cJSON_GetArrayItem(names, 2)->valuestring, "Position");
    cJSON_Delete(response);
}

static void test_mutate_components_writes_a_member_by_path(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *dotted = call(r, "world.mutate_components", "{\"entity\": %llu, \"component\": \"Position\", "
                         "\"path\": \".y\", \"value\": 8.25}", (unsigned long long)r->a);
    cJSON *plain = call(r, "world.mutate_components", "{\"entity\": %llu, \"component\": \"Target\", "
                        "\"path\": \"ticks\", \"value\": 40}", (unsigned long long)r->b);
    const Position *p = (const Position *)ecs_sched_get(r->world, r->a, r->position);
    assert_true(cJSON_IsNull(result_of(dotted)));
    assert_true(cJSON_IsNull(result_of(plain)));
    assert_true(p->x == 1.5f && p->y == 8.25f);
    assert_int_equal(((const Target *)ecs_sched_get(r->world, r->b, r->target))->ticks, 40);
    assert_true(((const Target *)ecs_sched_get(r->world, r->b, r->target))->who == r->a);
    cJSON_Delete(dotted);
    cJSON_Delete(plain);
}

static void test_mutate_components_unknown_path_is_refused(void **state) {
    remote_world *r = (remote_world *)*state;
    char params[200];
    snprintf(params, sizeof params, "{\"entity\": %llu, \"component\": \"Position\", \"path\": "
             "\"z\", \"value\": 1}", (unsigned long long)r->a);
    expect_refused(r, ECS_SCHED_RPC_COMPONENT_ERROR, "world.mutate_components", params);
}

/* ---- resources ---- */

static void test_get_resources_gives_the_value(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "world.get_resources", "{\"resource\": \"Score\"}");
    assert_int_equal((int)number_at(cJSON_GetObjectItemCaseSensitive(result_of(response), "value"), "value"), 3);
    cJSON_Delete(response);
}

static void test_get_resources_absent_is_resource_not_present(void **state) {
    remote_world *r = (remote_world *)*state;
    expect_refused(r, ECS_SCHED_RPC_RESOURCE_NOT_PRESENT, "world.get_resources",
                   "{\"resource\": \"Health\"}");
}

static void test_insert_resources_sets_the_value(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "world.insert_resources", "{\"resource\": \"Health\", \"value\": {\"hp\": 5}}");
    assert_true(cJSON_IsNull(result_of(response)));
    assert_int_equal(((const Health *)ecs_sched_resource_get(r->world, r->health))->hp, 5);
    cJSON_Delete(response);
}

static void test_remove_resources_takes_it_away(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "world.remove_resources", "{\"resource\": \"Score\"}");
    assert_true(cJSON_IsNull(result_of(response)));
    assert_false(ecs_sched_resource_exists(r->world, r->score));
    cJSON_Delete(response);
    /* Score is back for the world checks of teardown */
    assert_int_equal(ecs_sched_resource_insert(r->world, r->score, NULL), ECS_SCHED_OK);
}

static void test_mutate_resources_writes_a_member_by_path(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "world.mutate_resources", "{\"resource\": \"Score\", \"path\": \"value\", "
                                                        "\"value\": 99}");
    assert_true(cJSON_IsNull(result_of(response)));
    assert_int_equal(((const Score *)ecs_sched_resource_get(r->world, r->score))->value, 99);
    cJSON_Delete(response);
}

static void test_list_resources_names_those_the_world_holds(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "world.list_resources", "");
    const cJSON *names = result_of(response);
    bool score = false, health = false;
    const cJSON *name;
    cJSON_ArrayForEach(name, names) {
        score = score || strcmp(name->valuestring, "Score") == 0;
        health = health || strcmp(name->valuestring, "Health") == 0;
    }
    assert_true(score);
    assert_false(health);
    cJSON_Delete(response);
}

/* ---- events and messages ---- */

static int32_t pinged;

static void on_ping(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *trigger) {
    (void)ctx;
    pinged = trigger->payload ? ((const Ping *)trigger->payload)->n : -1;
}

static void test_names_lists_the_named_entities_with_their_names(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response;
    const cJSON *rows, *row;
    assert_int_equal(ecs_sched_set_name(r->world, r->b, "scout"), ECS_SCHED_OK);
    response = call(r, "ecs_sched.names", "");
    rows = result_of(response);
    assert_int_equal(cJSON_GetArraySize(rows), 1);   /* a has no name */
    row = cJSON_GetArrayItem(rows, 0);
    assert_true((ecs_sched_entity)number_at(row, "entity") == r->b);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(row, "name")->valuestring, "scout");
    cJSON_Delete(response);
}

static void test_trigger_event_reaches_its_observers(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_observer_desc desc;
    cJSON *response;
    memset(&desc, 0, sizeof desc);
    desc.event = ECS_SCHED_ON_EVENT;
    desc.component = r->ping;
    desc.fn = on_ping;
    assert_true(ecs_sched_observer_add(r->world, &desc) != 0);
    pinged = 0;
    response = call(r, "world.trigger_event", "{\"event\": \"Ping\", \"value\": {\"n\": 6}}");
    assert_true(cJSON_IsNull(result_of(response)));
    assert_int_equal(pinged, 6);
    cJSON_Delete(response);
}

static void test_write_message_sends_it(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_message_cursor cursor = ecs_sched_message_cursor_make(r->world, r->hit);
    ecs_sched_messages read;
    cJSON *response = call(r, "world.write_message", "{\"message\": \"Hit\", \"value\": {\"damage\": 11}}");
    assert_true(cJSON_IsNull(result_of(response)));
    read = ecs_sched_message_read(r->world, &cursor);
    assert_true(ecs_sched_messages_next(&read));
    assert_int_equal(read.count, 1);
    assert_int_equal(((const Hit *)read.data)->damage, 11);
    cJSON_Delete(response);
}

static void test_write_message_of_an_unknown_type_is_a_resource_error(void **state) {
    remote_world *r = (remote_world *)*state;
    expect_refused(r, ECS_SCHED_RPC_RESOURCE_ERROR, "world.write_message", "{\"message\": \"Position\"}");
}

/* ---- the protocol ---- */

static void test_response_echoes_the_id_and_leaves_out_a_missing_one(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *with = answer(r, "{\"jsonrpc\": \"2.0\", \"id\": {\"k\": [1, \"x\"]}, \"method\": \"world.list_resources\"}");
    cJSON *without = answer(r, "{\"jsonrpc\": \"2.0\", \"method\": \"world.list_resources\"}");
    char *id = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(with, "id"));
    assert_string_equal(id, "{\"k\":[1,\"x\"]}");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(with, "jsonrpc")->valuestring, "2.0");
    assert_null(cJSON_GetObjectItemCaseSensitive(without, "id"));
    assert_non_null(result_of(without));
    cJSON_free(id);
    cJSON_Delete(with);
    cJSON_Delete(without);
}

static void test_an_empty_batch_is_one_invalid_request(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = answer(r, "[]");   /* JSON-RPC 2.0: one error, not an empty array */
    assert_true(cJSON_IsObject(response));
    assert_int_equal(error_code(response), ECS_SCHED_RPC_INVALID_REQUEST);
    cJSON_Delete(response);
}

static void test_batch_answers_each_request_in_order(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = answer(r, "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"world.list_resources\"},"
                                " {\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"nope\"}]");
    assert_true(cJSON_IsArray(response));
    assert_int_equal(cJSON_GetArraySize(response), 2);
    assert_non_null(result_of(cJSON_GetArrayItem(response, 0)));
    assert_int_equal(error_code(cJSON_GetArrayItem(response, 1)), ECS_SCHED_RPC_METHOD_NOT_FOUND);
    assert_int_equal((int)number_at(cJSON_GetArrayItem(response, 1), "id"), 2);
    cJSON_Delete(response);
}

static void test_malformed_json_is_a_parse_error(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = answer(r, "{\"jsonrpc\": \"2.0\", \"method\": ");
    assert_int_equal(error_code(response), ECS_SCHED_RPC_PARSE_ERROR);
    cJSON_Delete(response);
}

static void test_a_request_not_json_rpc_2_is_an_invalid_request(void **state) {
    static const char *const requests[] = {
        "{\"jsonrpc\": \"1.0\", \"id\": 1, \"method\": \"rpc.discover\"}",
        "{\"id\": 1, \"method\": \"rpc.discover\"}",
        "{\"jsonrpc\": \"2.0\", \"id\": 1}",
        "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": 5}",
        "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"rpc.discover\", \"extra\": 1}",
        "[1]",
        "\"text\""};
    remote_world *r = (remote_world *)*state;
    size_t i;
    for (i = 0; i < sizeof requests / sizeof requests[0]; i++) {
        cJSON *response = answer(r, requests[i]);
        const cJSON *one = cJSON_IsArray(response) ? cJSON_GetArrayItem(response, 0) : response;
        assert_int_equal(error_code(one), ECS_SCHED_RPC_INVALID_REQUEST);
        cJSON_Delete(response);
    }
}

static void test_unknown_method_is_method_not_found(void **state) {
    remote_world *r = (remote_world *)*state;
    expect_refused(r, ECS_SCHED_RPC_METHOD_NOT_FOUND, "bevy/get", "{}");
}

static void test_missing_params_are_invalid_params(void **state) {
    remote_world *r = (remote_world *)*state;
    expect_refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.insert_components", "");
    expect_refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.despawn_entity", "{\"entity\": \"a\"}");
}

static void test_unknown_component_is_a_component_error_and_changes_nothing(void **state) {
    remote_world *r = (remote_world *)*state;
    char params[200];
    snprintf(params, sizeof params, "{\"entity\": %llu, \"components\": {\"Health\": {\"hp\": 1}, "
             "\"Ghost\": {}}}", (unsigned long long)r->a);
    expect_refused(r, ECS_SCHED_RPC_COMPONENT_ERROR, "world.insert_components", params);
    expect_refused(r, ECS_SCHED_RPC_COMPONENT_ERROR, "world.spawn_entity",
                   "{\"components\": {\"Health\": {}, \"Ghost\": {}}}");
}

static void test_a_value_of_the_wrong_type_is_a_component_error_and_changes_nothing(void **state) {
    remote_world *r = (remote_world *)*state;
    char params[200];
    cJSON *response;
    snprintf(params, sizeof params, "{\"entity\": %llu, \"components\": {\"Health\": {\"hp\": 2}, "
             "\"Position\": {\"x\": \"far\"}}}", (unsigned long long)r->a);
    expect_refused(r, ECS_SCHED_RPC_COMPONENT_ERROR, "world.insert_components", params);
    response = call(r, "world.insert_components", "%s", params);
    assert_non_null(strstr(error_message(response), "'x'"));   /* the member is named */
    cJSON_Delete(response);
}

static void test_an_undescribed_component_is_a_component_error(void **state) {
    remote_world *r = (remote_world *)*state;
    char params[200];
    snprintf(params, sizeof params, "{\"entity\": %llu, \"components\": {\"Opaque\": {\"bytes\": 1}}}",
             (unsigned long long)r->a);
    expect_refused(r, ECS_SCHED_RPC_COMPONENT_ERROR, "world.insert_components", params);
}

static void test_a_dead_entity_is_entity_not_found_and_changes_nothing(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_entity dead = ecs_sched_spawn(r->world);
    char params[200];
    assert_int_equal(ecs_sched_despawn(r->world, dead), ECS_SCHED_OK);
    snprintf(params, sizeof params, "{\"entity\": %llu, \"components\": {\"Health\": {\"hp\": 1}}}",
             (unsigned long long)dead);
    expect_refused(r, ECS_SCHED_RPC_ENTITY_NOT_FOUND, "world.insert_components", params);
    snprintf(params, sizeof params, "{\"entity\": %llu}", (unsigned long long)dead);
    expect_refused(r, ECS_SCHED_RPC_ENTITY_NOT_FOUND, "world.despawn_entity", params);
    expect_refused(r, ECS_SCHED_RPC_ENTITY_NOT_FOUND, "world.get_components",
                   "{\"entity\": 123456, \"components\": [\"Position\"]}");
}

static void test_read_only_refuses_the_methods_that_change_the_world(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_remote_desc desc;
    char params[200];
    cJSON *response;
    memset(&desc, 0, sizeof desc);
    desc.no_http = true;
    desc.read_only = true;
    ecs_sched_remote_destroy(r->remote);
    r->remote = ecs_sched_remote_create(r->world, &desc);
    snprintf(params, sizeof params, "{\"entity\": %llu}", (unsigned long long)r->a);
    expect_refused(r, ECS_SCHED_RPC_METHOD_NOT_FOUND, "world.despawn_entity", params);
    expect_refused(r, ECS_SCHED_RPC_METHOD_NOT_FOUND, "world.insert_resources",
                   "{\"resource\": \"Score\", \"value\": {\"value\": 1}}");
    response = call(r, "world.get_resources", "{\"resource\": \"Score\"}");   /* reading works */
    assert_non_null(result_of(response));
    cJSON_Delete(response);
}

static void test_an_oversized_request_is_refused(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_remote_desc desc;
    char params[200];
    memset(&desc, 0, sizeof desc);
    desc.no_http = true;
    desc.max_request_bytes = 64;
    ecs_sched_remote_destroy(r->remote);
    r->remote = ecs_sched_remote_create(r->world, &desc);
    snprintf(params, sizeof params, "{\"components\": {\"Health\": {\"hp\": 1}, \"Enemy\": {}}}");
    expect_refused(r, ECS_SCHED_RPC_INVALID_REQUEST, "world.spawn_entity", params);
}

/* ---- HTTP ---- */

static void test_http_post_is_answered_only_at_poll(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_remote *remote = http_remote(r, NULL);
    http_client client;
    pthread_t thread;
    int32_t entities = ecs_sched_entity_count(r->world);
    cJSON *response;
    ecs_sched_entity e;
    memset(&client, 0, sizeof client);
    client.port = ecs_sched_remote_port(remote);
    client.body = spawn_request;
    assert_int_equal(pthread_create(&thread, NULL, http_post, &client), 0);
    wait_pending(remote, 1);
    sleep_ms(20);
    assert_int_equal(ecs_sched_entity_count(r->world), entities);   /* not yet */
    assert_int_equal(ecs_sched_remote_pending(remote), 1);
    assert_int_equal(ecs_sched_remote_poll(remote), 1);
    pthread_join(thread, NULL);
    assert_int_equal(client.status, 200);
    response = cJSON_Parse(client.response);
    assert_non_null(response);
    assert_int_equal((int)number_at(response, "id"), 7);
    e = (ecs_sched_entity)number_at(result_of(response), "entity");
    assert_int_equal(((const Health *)ecs_sched_get(r->world, e, r->health))->hp, 41);
    cJSON_Delete(response);
}

static void test_http_discover_names_the_server(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_remote *remote = http_remote(r, NULL);
    cJSON *response = call(r, "rpc.discover", "");
    const cJSON *servers = cJSON_GetObjectItemCaseSensitive(result_of(response), "servers");
    char url[64];
    snprintf(url, sizeof url, "127.0.0.1:%d", (int)ecs_sched_remote_port(remote));
    assert_int_equal(cJSON_GetArraySize(servers), 1);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(servers, 0), "url")->valuestring, url);
    cJSON_Delete(response);
}

static void test_http_poll_answers_at_most_requests_per_frame(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_remote_desc desc;
    ecs_sched_remote *remote;
    http_client clients[2];
    pthread_t threads[2];
    int i;
    memset(&desc, 0, sizeof desc);
    desc.requests_per_frame = 1;
    remote = http_remote(r, &desc);
    for (i = 0; i < 2; i++) {
        memset(&clients[i], 0, sizeof clients[i]);
        clients[i].port = ecs_sched_remote_port(remote);
        clients[i].body = spawn_request;
        assert_int_equal(pthread_create(&threads[i], NULL, http_post, &clients[i]), 0);
    }
    wait_pending(remote, 2);
    assert_int_equal(ecs_sched_remote_poll(remote), 1);
    assert_int_equal(ecs_sched_remote_pending(remote), 1);
    assert_int_equal(ecs_sched_remote_poll(remote), 1);
    for (i = 0; i < 2; i++) {
        pthread_join(threads[i], NULL);
        assert_int_equal(clients[i].status, 200);
    }
}

static void test_http_bad_token_is_refused_with_401(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_remote_desc desc;
    ecs_sched_remote *remote;
    http_client wrong, right;
    cJSON *response;
    int32_t entities = ecs_sched_entity_count(r->world);
    pthread_t thread;
    memset(&desc, 0, sizeof desc);
    desc.token = "s3cret";
    remote = http_remote(r, &desc);
    memset(&wrong, 0, sizeof wrong);
    wrong.port = ecs_sched_remote_port(remote);
    wrong.body = spawn_request;
    wrong.token = "s3cres";
    http_post(&wrong);   /* refused before it is queued: no poll needed */
    assert_int_equal(wrong.status, 401);
    response = cJSON_Parse(wrong.response);
    assert_int_equal(error_code(response), ECS_SCHED_RPC_INVALID_REQUEST);
    cJSON_Delete(response);
    assert_int_equal(ecs_sched_remote_pending(remote), 0);
    assert_int_equal(ecs_sched_entity_count(r->world), entities);
    right = wrong;
    right.token = "s3cret";
    assert_int_equal(pthread_create(&thread, NULL, http_post, &right), 0);
    wait_pending(remote, 1);
    assert_int_equal(ecs_sched_remote_poll(remote), 1);
    pthread_join(thread, NULL);
    assert_int_equal(right.status, 200);
}

static void test_http_get_of_the_root_serves_the_explorer_page(void **state) {
    remote_world *r = (remote_world *)*state;
    http_client client;
    memset(&client, 0, sizeof client);
    client.port = ecs_sched_remote_port(http_remote(r, NULL));
    http_get(&client, "/");
    assert_int_equal(client.status, 200);
    assert_non_null(strstr(client.response, "Content-Type: text/html"));
    assert_non_null(strstr(client.response, "\r\n\r\n<!DOCTYPE html>"));
    assert_int_equal(ecs_sched_remote_pending(r->remote), 0);   /* no poll needed */
}

static void test_http_get_elsewhere_or_without_the_page_is_refused_with_405(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_remote_desc desc;
    http_client client;
    memset(&client, 0, sizeof client);
    client.port = ecs_sched_remote_port(http_remote(r, NULL));
    http_get(&client, "/other");
    assert_int_equal(client.status, 405);
    memset(&desc, 0, sizeof desc);
    desc.no_page = true;
    client.port = ecs_sched_remote_port(http_remote(r, &desc));
    http_get(&client, "/");
    assert_int_equal(client.status, 405);
}

static void test_http_oversized_body_is_refused_with_413(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_remote_desc desc;
    http_client client;
    cJSON *response;
    memset(&desc, 0, sizeof desc);
    desc.max_request_bytes = 32;
    memset(&client, 0, sizeof client);
    client.port = ecs_sched_remote_port(http_remote(r, &desc));
    client.body = spawn_request;
    http_post(&client);
    assert_int_equal(client.status, 413);
    response = cJSON_Parse(client.response);
    assert_int_equal(error_code(response), ECS_SCHED_RPC_INVALID_REQUEST);
    cJSON_Delete(response);
    assert_int_equal(ecs_sched_remote_pending(r->remote), 0);
}

static void test_http_destroy_answers_waiting_requests_with_503(void **state) {
    remote_world *r = (remote_world *)*state;
    http_client client;
    pthread_t thread;
    memset(&client, 0, sizeof client);
    client.port = ecs_sched_remote_port(http_remote(r, NULL));
    client.body = spawn_request;
    assert_int_equal(pthread_create(&thread, NULL, http_post, &client), 0);
    wait_pending(r->remote, 1);
    ecs_sched_remote_destroy(r->remote);
    r->remote = NULL;
    pthread_join(thread, NULL);
    assert_int_equal(client.status, 503);
}

/* ---- the app ---- */

static int32_t last_ran_frames;

static void in_last(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    last_ran_frames++;
}

static void test_app_answers_requests_in_remote_last_after_last(void **state) {
    remote_world *unused = (remote_world *)*state;
    ecs_sched_app *app = ecs_sched_app_create(NULL);
    ecs_sched_remote_desc desc;
    ecs_sched_remote *remote;
    ecs_sched_system_desc last;
    const char *order[32];
    int32_t n, i;
    http_client client;
    pthread_t thread;
    cJSON *response;
    (void)unused;
    memset(&desc, 0, sizeof desc);
    desc.port = ECS_SCHED_REMOTE_ANY_PORT;
    remote = ecs_sched_app_add_remote(app, &desc);
    assert_non_null(remote);
    n = ecs_sched_app_schedule_order(app, ECS_SCHED_ORDER_MAIN, order, 32);
    assert_string_equal(order[n - 1], ECS_SCHED_REMOTE_LAST);
    assert_string_equal(order[n - 2], ECS_SCHED_LAST);
    memset(&last, 0, sizeof last);
    last.name = "in_last";
    last.fn = in_last;
    assert_int_equal(ecs_sched_add_system(ecs_sched_app_world(app), ECS_SCHED_LAST, &last), ECS_SCHED_OK);
    memset(&client, 0, sizeof client);
    client.port = ecs_sched_remote_port(remote);
    client.body = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"world.list_resources\"}";
    assert_int_equal(pthread_create(&thread, NULL, http_post, &client), 0);
    wait_pending(remote, 1);
    last_ran_frames = 0;
    for (i = 0; i < 3 && ecs_sched_remote_pending(remote) > 0; i++) {
        assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);
    }
    assert_int_equal(i, 1);   /* answered in the first frame */
    assert_int_equal(last_ran_frames, 1);
    pthread_join(thread, NULL);
    assert_int_equal(client.status, 200);
    response = cJSON_Parse(client.response);
    assert_true(cJSON_IsArray(result_of(response)));
    cJSON_Delete(response);
    ecs_sched_remote_destroy(remote);
    assert_int_equal(ecs_sched_world_check(ecs_sched_app_world(app)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);   /* its system went with it */
    ecs_sched_app_destroy(app);
}

/* ---- +watch ---- */

static void test_get_components_watch_answers_the_first_frame_once_without_http(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "world.get_components+watch", "{\"entity\": %llu, \"components\": [\"Health\"]}",
                           (unsigned long long)r->a);
    const cJSON *result = result_of(response);
    assert_int_equal((int)number_at(cJSON_GetObjectItemCaseSensitive(
                         cJSON_GetObjectItemCaseSensitive(result, "components"), "Health"), "hp"), 7);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(result, "removed")), 0);
    assert_true(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(result, "errors")));
    cJSON_Delete(response);
}

static void test_http_get_components_watch_streams_each_change(void **state) {
    remote_world *r = (remote_world *)*state;
    char body[300];
    http_client client;
    pthread_t thread;
    Health h = {99};
    const char *second, *third;
    http_remote(r, NULL);
    snprintf(body, sizeof body, "{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"world.get_components+watch\", "
             "\"params\": {\"entity\": %llu, \"components\": [\"Health\", \"Position\", \"Enemy\"]}}",
             (unsigned long long)r->a);
    http_watch(r, &client, &thread, body);
    assert_int_equal(ecs_sched_remote_poll(r->remote), 1);   /* the first frame: every value */
    assert_int_equal(ecs_sched_remote_poll(r->remote), 0);   /* nothing changed: nothing sent */
    assert_int_equal(ecs_sched_insert(r->world, r->a, r->health, &h), ECS_SCHED_OK);
    ecs_sched_remote_poll(r->remote);
    assert_int_equal(ecs_sched_remove(r->world, r->a, r->enemy), ECS_SCHED_OK);
    ecs_sched_remote_poll(r->remote);
    http_watch_end(r, &client, thread);
    assert_int_equal(occurrences(client.response, "\"jsonrpc\":\"2.0\""), 3);
    second = strstr(strstr(client.response, "\"jsonrpc\"") + 1, "\"jsonrpc\"");
    third = strstr(second + 1, "\"jsonrpc\"");
    assert_non_null(strstr(second, "\"components\":{\"Health\":{\"hp\":99}},\"removed\":[]"));
    assert_non_null(strstr(third, "\"components\":{},\"removed\":[\"Enemy\"]"));
}

static void test_http_query_watch_sends_the_rows_again_only_when_they_change(void **state) {
    remote_world *r = (remote_world *)*state;
    http_client client;
    pthread_t thread;
    Health h = {12};
    http_remote(r, NULL);
    http_watch(r, &client, &thread, "{\"jsonrpc\": \"2.0\", \"id\": 4, \"method\": \"world.query+watch\", "
                                    "\"params\": {\"data\": {\"components\": [\"Health\"]}}}");
    ecs_sched_remote_poll(r->remote);
    ecs_sched_remote_poll(r->remote);
    assert_int_equal(ecs_sched_insert(r->world, r->a, r->health, &h), ECS_SCHED_OK);
    ecs_sched_remote_poll(r->remote);
    ecs_sched_remote_poll(r->remote);
    http_watch_end(r, &client, thread);
    assert_int_equal(occurrences(client.response, "\"jsonrpc\":\"2.0\""), 2);
    assert_int_equal(occurrences(client.response, "\"hp\":7"), 1);
    assert_int_equal(occurrences(client.response, "\"hp\":12"), 1);
}

static void test_http_watch_of_a_bad_request_is_answered_with_its_error(void **state) {
    remote_world *r = (remote_world *)*state;
    http_client client;
    pthread_t thread;
    cJSON *response;
    http_remote(r, NULL);
    http_watch(r, &client, &thread, "{\"jsonrpc\": \"2.0\", \"id\": 5, \"method\": \"world.get_components+watch\", "
                                    "\"params\": {\"entity\": 99999, \"components\": [\"Health\"]}}");
    assert_int_equal(ecs_sched_remote_poll(r->remote), 1);
    pthread_join(thread, NULL);
    response = cJSON_Parse(client.response);
    assert_non_null(response);
    assert_int_equal(error_code(response), ECS_SCHED_RPC_ENTITY_NOT_FOUND);
    cJSON_Delete(response);
}

/* ---- ecs_sched.*: schedules, statistics, trace, states, stepping, snapshots ---- */

static char g_ran[64];

static void note_run(ecs_sched_system_ctx *ctx) {
    const char *name = (const char *)ecs_sched_ctx_user_data(ctx);
    strncat(g_ran, name, sizeof g_ran - strlen(g_ran) - 1);
}

/* Schedule "Update": a, then the sync point "flush", then b. */
static void add_update_systems(remote_world *r) {
    ecs_sched_system_desc a, flush, b;
    memset(&a, 0, sizeof a);
    memset(&flush, 0, sizeof flush);
    memset(&b, 0, sizeof b);
    a.name = "a";
    a.fn = note_run;
    a.user_data = (void *)"a";
    flush.name = "flush";
    flush.fn = ecs_sched_apply_deferred;
    flush.after[0] = "a";
    b.name = "b";
    b.fn = note_run;
    b.user_data = (void *)"b";
    b.after[0] = "flush";
    assert_int_equal(ecs_sched_add_system(r->world, "Update", &a), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(r->world, "Update", &flush), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(r->world, "Update", &b), ECS_SCHED_OK);
    g_ran[0] = '\0';
}

static ecs_sched_id register_game_state(remote_world *r) {
    ecs_sched_state_desc desc;
    ecs_sched_id id;
    memset(&desc, 0, sizeof desc);
    desc.name = "Game";
    desc.values[0] = "Menu";
    desc.values[1] = "Playing";
    id = ecs_sched_state_register(r->world, &desc);
    assert_true(id != 0);
    assert_int_equal(ecs_sched_state_apply(r->world, id), ECS_SCHED_OK);
    return id;
}

static void test_list_schedules_names_every_schedule_sorted(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response;
    const cJSON *list;
    add_update_systems(r);
    assert_int_equal(ecs_sched_add_system(r->world, "Draw", &(ecs_sched_system_desc){.name = "d", .fn = note_run,
                                                                                     .user_data = (void *)"d"}),
                     ECS_SCHED_OK);
    response = call(r, "ecs_sched.list_schedules", "");
    list = result_of(response);
    assert_int_equal(cJSON_GetArraySize(list), 2);
    assert_string_equal(cJSON_GetArrayItem(list, 0)->valuestring, "Draw");
    assert_string_equal(cJSON_GetArrayItem(list, 1)->valuestring, "Update");
    cJSON_Delete(response);
}

static void test_schedule_plan_gives_systems_in_order_with_sync_points(void **state) {
    static const char *const names[] = {"a", "flush", "b"};
    static const bool sync[] = {false, true, false};
    remote_world *r = (remote_world *)*state;
    cJSON *response;
    const cJSON *plan;
    int i;
    add_update_systems(r);
    response = call(r, "ecs_sched.schedule_plan", "{\"schedule\": \"Update\"}");
    plan = result_of(response);
    assert_int_equal(cJSON_GetArraySize(plan), 3);
    for (i = 0; i < 3; i++) {
        const cJSON *node = cJSON_GetArrayItem(plan, i);
        assert_string_equal(cJSON_GetObjectItemCaseSensitive(node, "name")->valuestring, names[i]);
        assert_int_equal(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(node, "sync")), sync[i]);
    }
    cJSON_Delete(response);
}

static void test_schedule_plan_of_an_unknown_schedule_is_not_found(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "ecs_sched.schedule_plan", "{\"schedule\": \"Nowhere\"}");
    assert_int_equal(error_code(response), ECS_SCHED_RPC_NOT_FOUND);
    assert_non_null(strstr(error_message(response), "Nowhere"));
    cJSON_Delete(response);
}

static void test_schedule_dot_gives_the_graphviz_text(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response;
    const cJSON *dot;
    add_update_systems(r);
    response = call(r, "ecs_sched.schedule_dot", "{\"schedule\": \"Update\"}");
    dot = result_of(response);
    assert_true(cJSON_IsString(dot));
    assert_non_null(strstr(dot->valuestring, "digraph"));
    assert_non_null(strstr(dot->valuestring, "\"flush\""));
    cJSON_Delete(response);
}

static void test_system_stats_count_runs_once_enabled(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response;
    const cJSON *stats, *systems;
    add_update_systems(r);
    cJSON_Delete(call(r, "ecs_sched.set_stats", "{\"enabled\": true}"));
    assert_int_equal(ecs_sched_run_schedule(r->world, "Update"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(r->world, "Update"), ECS_SCHED_OK);
    response = call(r, "ecs_sched.system_stats", "{\"schedule\": \"Update\"}");
    stats = result_of(response);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(stats, "enabled")));
    systems = cJSON_GetObjectItemCaseSensitive(stats, "systems");
    assert_int_equal(cJSON_GetArraySize(systems), 2);   /* the sync point left out */
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(systems, 1), "system")->valuestring, "b");
    assert_true(number_at(cJSON_GetArrayItem(systems, 1), "runs") == 2);
    assert_true(number_at(cJSON_GetArrayItem(systems, 1), "max_ns") >=
                number_at(cJSON_GetArrayItem(systems, 1), "min_ns"));
    cJSON_Delete(response);
}

static void test_system_stats_are_zero_while_statistics_are_off(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response;
    const cJSON *stats;
    add_update_systems(r);
    assert_int_equal(ecs_sched_run_schedule(r->world, "Update"), ECS_SCHED_OK);
    response = call(r, "ecs_sched.system_stats", "{\"schedule\": \"Update\"}");
    stats = result_of(response);
    assert_false(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(stats, "enabled")));
    assert_true(number_at(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(stats, "systems"), 0), "runs") == 0);
    cJSON_Delete(response);
}

static void test_trace_gives_the_recording_as_trace_events(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response;
    const cJSON *events, *e;
    bool saw_b = false;
    add_update_systems(r);
    assert_int_equal(ecs_sched_trace_start(r->world, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(r->world, "Update"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_trace_stop(r->world), ECS_SCHED_OK);
    response = call(r, "ecs_sched.trace", "");
    events = cJSON_GetObjectItemCaseSensitive(result_of(response), "traceEvents");
    assert_true(cJSON_IsArray(events));
    cJSON_ArrayForEach(e, events) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
        saw_b = saw_b || (cJSON_IsString(name) && strcmp(name->valuestring, "b") == 0);
    }
    assert_true(saw_b);
    cJSON_Delete(response);
}

static void test_trace_without_a_recording_is_not_found(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "ecs_sched.trace", "");
    assert_int_equal(error_code(response), ECS_SCHED_RPC_NOT_FOUND);
    cJSON_Delete(response);
}

static void test_list_states_gives_each_machine_its_value_and_values(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response;
    const cJSON *machine;
    register_game_state(r);
    response = call(r, "ecs_sched.list_states", "");
    assert_int_equal(cJSON_GetArraySize(result_of(response)), 1);
    machine = cJSON_GetArrayItem(result_of(response), 0);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(machine, "name")->valuestring, "Game");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(machine, "value")->valuestring, "Menu");
    assert_string_equal(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(machine, "values"), 1)->valuestring,
                        "Playing");
    cJSON_Delete(response);
}

static void test_set_state_queues_the_value_for_the_next_transition(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_id game = register_game_state(r);
    cJSON *response = call(r, "ecs_sched.set_state", "{\"state\": \"Game\", \"value\": \"Playing\"}");
    assert_true(cJSON_IsNull(result_of(response)));
    cJSON_Delete(response);
    assert_int_equal(ecs_sched_state_get(r->world, game), 0);   /* queued, not yet applied */
    assert_int_equal(ecs_sched_state_apply(r->world, game), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_get(r->world, game), 1);
}

static void test_set_state_to_an_unknown_value_is_invalid_params(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_id game = register_game_state(r);
    expect_refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "ecs_sched.set_state", "{\"state\": \"Game\", \"value\": \"Won\"}");
    assert_int_equal(ecs_sched_state_apply(r->world, game), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_get(r->world, game), 0);
}

/* Whether the recording ecs_sched.trace gives has an event of that name and category. */
static bool trace_has(remote_world *r, const char *name, const char *category) {
    cJSON *response = call(r, "ecs_sched.trace", "");
    const cJSON *events = cJSON_GetObjectItemCaseSensitive(result_of(response), "traceEvents"), *e;
    bool found = false;
    cJSON_ArrayForEach(e, events) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(e, "name");
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "cat");
        found = found || (cJSON_IsString(n) && cJSON_IsString(c) && strcmp(n->valuestring, name) == 0 &&
                          strcmp(c->valuestring, category) == 0);
    }
    cJSON_Delete(response);
    return found;
}

static void test_record_trace_between_runs_records_the_next_frame(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_trace_info info;
    cJSON *response;
    add_update_systems(r);
    response = call(r, "ecs_sched.record_trace", "");
    assert_true(cJSON_IsNull(result_of(response)));
    cJSON_Delete(response);
    assert_true(ecs_sched_trace_get_info(r->world).running);
    assert_int_equal(ecs_sched_run_schedule(r->world, "Update"), ECS_SCHED_OK);
    info = ecs_sched_trace_get_info(r->world);
    assert_false(info.running);   /* one frame, then it stopped by itself */
    assert_int_equal(info.frames, 1);
    assert_true(trace_has(r, "b", "system"));
    assert_true(trace_has(r, "frame 0", "frame"));
}

static ecs_sched_remote *g_app_remote;
static int g_asked;

/* Asks for a trace from inside the frame, once. */
static void ask_for_a_trace(ecs_sched_system_ctx *ctx) {
    static const char request[] = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ecs_sched.record_trace\"}";
    char *response;
    (void)ctx;
    if (g_asked++) return;
    response = ecs_sched_remote_handle(g_app_remote, request, sizeof request - 1);
    assert_non_null(strstr(response, "\"result\":null"));
    ecs_sched_remote_free(response);
}

static void test_record_trace_inside_an_app_frame_starts_when_the_frame_ends(void **state) {
    ecs_sched_app *app = ecs_sched_app_create(NULL);
    ecs_sched_world *w = ecs_sched_app_world(app);
    ecs_sched_remote_desc desc;
    ecs_sched_system_desc asker;
    ecs_sched_trace_info info;
    (void)state;
    memset(&desc, 0, sizeof desc);
    desc.no_http = true;
    g_app_remote = ecs_sched_app_add_remote(app, &desc);
    assert_non_null(g_app_remote);
    memset(&asker, 0, sizeof asker);
    asker.name = "asker";
    asker.fn = ask_for_a_trace;
    asker.exclusive = true;
    assert_int_equal(ecs_sched_add_system(w, ECS_SCHED_UPDATE, &asker), ECS_SCHED_OK);
    g_asked = 0;
    assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);
    assert_int_equal(g_asked, 1);
    info = ecs_sched_trace_get_info(w);
    assert_false(info.running);        /* not inside the frame that asked */
    assert_int_equal(info.recorded, 0);
    assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);
    info = ecs_sched_trace_get_info(w);
    assert_false(info.running);        /* the next frame, whole, then it stopped */
    assert_int_equal(info.frames, 1);
    assert_true(info.recorded > 0);
    ecs_sched_remote_destroy(g_app_remote);
    assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);   /* its hook went with it */
    ecs_sched_app_destroy(app);
}

static void test_record_trace_while_one_records_or_with_bad_frames_is_refused(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response;
    expect_refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "ecs_sched.record_trace", "{\"frames\": 0}");
    expect_refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "ecs_sched.record_trace", "{\"frames\": 1.5}");
    expect_refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "ecs_sched.record_trace", "{\"frames\": \"2\"}");
    assert_false(ecs_sched_trace_get_info(r->world).running);
    assert_int_equal(ecs_sched_trace_start(r->world, NULL), ECS_SCHED_OK);
    response = call(r, "ecs_sched.record_trace", "{\"frames\": 2}");
    assert_int_equal(error_code(response), ECS_SCHED_RPC_REFUSED);
    assert_non_null(strstr(error_message(response), "recording already"));
    cJSON_Delete(response);
}

static void test_get_stepping_lists_the_behaviours_set(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response;
    const cJSON *behaviours;
    add_update_systems(r);
    cJSON_Delete(call(r, "ecs_sched.set_step_behaviour",
                      "{\"schedule\": \"Update\", \"system\": \"b\", \"behaviour\": \"breakpoint\"}"));
    response = call(r, "ecs_sched.get_stepping", "{\"schedule\": \"Update\"}");
    behaviours = cJSON_GetObjectItemCaseSensitive(result_of(response), "behaviours");
    assert_int_equal(cJSON_GetArraySize(behaviours), 1);   /* a, at the default, left out */
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(behaviours, "b")->valuestring, "breakpoint");
    cJSON_Delete(response);
}

static void test_stepping_runs_one_system_per_step(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response;
    add_update_systems(r);
    cJSON_Delete(call(r, "ecs_sched.set_stepping", "{\"schedule\": \"Update\", \"enabled\": true}"));
    assert_int_equal(ecs_sched_run_schedule(r->world, "Update"), ECS_SCHED_OK);
    assert_string_equal(g_ran, "");   /* held */
    cJSON_Delete(call(r, "ecs_sched.step", "{\"schedule\": \"Update\"}"));
    assert_int_equal(ecs_sched_run_schedule(r->world, "Update"), ECS_SCHED_OK);
    assert_string_equal(g_ran, "a");
    response = call(r, "ecs_sched.get_stepping", "{\"schedule\": \"Update\"}");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(result_of(response), "enabled")));
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(result_of(response), "cursor")->valuestring, "b");
    cJSON_Delete(response);
}

static void test_step_behaviour_never_run_skips_the_system(void **state) {
    remote_world *r = (remote_world *)*state;
    add_update_systems(r);
    cJSON_Delete(call(r, "ecs_sched.set_stepping", "{\"schedule\": \"Update\", \"enabled\": true}"));
    cJSON_Delete(call(r, "ecs_sched.set_step_behaviour",
                      "{\"schedule\": \"Update\", \"system\": \"a\", \"behaviour\": \"never_run\"}"));
    cJSON_Delete(call(r, "ecs_sched.step", "{\"schedule\": \"Update\", \"continue\": true}"));
    assert_int_equal(ecs_sched_run_schedule(r->world, "Update"), ECS_SCHED_OK);
    assert_string_equal(g_ran, "b");
}

static void test_step_behaviour_of_an_unknown_system_is_not_found(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response;
    add_update_systems(r);
    response = call(r, "ecs_sched.set_step_behaviour",
                    "{\"schedule\": \"Update\", \"system\": \"zz\", \"behaviour\": \"breakpoint\"}");
    assert_int_equal(error_code(response), ECS_SCHED_RPC_NOT_FOUND);
    cJSON_Delete(response);
}

static void test_restore_snapshot_brings_the_world_back(void **state) {
    remote_world *r = (remote_world *)*state;
    char *before, *after;
    cJSON *response = call(r, "ecs_sched.take_snapshot", "{\"name\": \"start\"}");
    assert_true(number_at(result_of(response), "bytes") > 0);
    cJSON_Delete(response);
    before = ecs_sched_json_save(r->world, 0, NULL, true);
    assert_int_equal(ecs_sched_despawn(r->world, r->a), ECS_SCHED_OK);
    response = call(r, "ecs_sched.restore_snapshot", "{\"name\": \"start\"}");
    assert_true(cJSON_IsNull(result_of(response)));
    cJSON_Delete(response);
    after = ecs_sched_json_save(r->world, 0, NULL, true);
    assert_string_equal(before, after);
    assert_true(ecs_sched_is_alive(r->world, r->a));
    ecs_sched_json_free(before);
    ecs_sched_json_free(after);
}

static void test_restore_of_an_unknown_snapshot_is_not_found(void **state) {
    remote_world *r = (remote_world *)*state;
    expect_refused(r, ECS_SCHED_RPC_NOT_FOUND, "ecs_sched.restore_snapshot", "{\"name\": \"never\"}");
}

static void test_read_only_refuses_the_library_methods_that_change_things(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_remote_desc desc;
    cJSON *response;
    memset(&desc, 0, sizeof desc);
    desc.no_http = true;
    desc.read_only = true;
    add_update_systems(r);
    register_game_state(r);
    ecs_sched_remote_destroy(r->remote);
    r->remote = ecs_sched_remote_create(r->world, &desc);
    expect_refused(r, ECS_SCHED_RPC_METHOD_NOT_FOUND, "ecs_sched.set_state", "{\"state\": \"Game\", \"value\": \"Playing\"}");
    expect_refused(r, ECS_SCHED_RPC_METHOD_NOT_FOUND, "ecs_sched.take_snapshot", "{\"name\": \"s\"}");
    expect_refused(r, ECS_SCHED_RPC_METHOD_NOT_FOUND, "ecs_sched.set_stepping", "{\"schedule\": \"Update\", \"enabled\": true}");
    expect_refused(r, ECS_SCHED_RPC_METHOD_NOT_FOUND, "ecs_sched.record_trace", "");
    response = call(r, "ecs_sched.list_states", "");   /* reading works */
    assert_non_null(result_of(response));
    cJSON_Delete(response);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void) {
    const struct CMUnitTest tests[] = {
        T(test_discover_lists_every_method_in_an_openrpc_document),
        T(test_discover_read_only_lists_only_the_methods_that_read),
        T(test_get_components_lenient_gives_components_and_errors),
        T(test_get_components_strict_gives_a_map_of_values),
        T(test_get_components_strict_fails_on_a_component_not_present),
        T(test_get_components_writes_entity_members_as_handles),
        T(test_get_components_gives_childof_as_the_parent),
        T(test_query_gives_entity_components_and_has_rows),
        T(test_query_leaves_has_out_when_none_is_asked),
        T(test_query_filters_with_and_without),
        T(test_query_option_all_gives_every_component),
        T(test_query_unknown_required_component_matches_nothing),
        T(test_query_strict_unknown_component_is_a_component_error),
        T(test_query_leaves_disabled_entities_out_unless_named),
        T(test_spawn_entity_returns_the_new_entity_with_its_values),
        T(test_insert_components_sets_values),
        T(test_remove_components_takes_them_away),
        T(test_despawn_entity_despawns_it),
        T(test_reparent_entities_sets_and_clears_parents),
        T(test_reparent_to_itself_is_refused),
        T(test_reparent_under_a_descendant_is_refused),
        T(test_list_components_names_every_component_sorted),
        T(test_list_components_of_an_entity),
        T(test_mutate_components_writes_a_member_by_path),
        T(test_mutate_components_unknown_path_is_refused),
        T(test_get_resources_gives_the_value),
        T(test_get_resources_absent_is_resource_not_present),
        T(test_insert_resources_sets_the_value),
        T(test_remove_resources_takes_it_away),
        T(test_mutate_resources_writes_a_member_by_path),
        T(test_list_resources_names_those_the_world_holds),
        T(test_names_lists_the_named_entities_with_their_names),
    T(test_trigger_event_reaches_its_observers),
        T(test_write_message_sends_it),
        T(test_write_message_of_an_unknown_type_is_a_resource_error),
        T(test_response_echoes_the_id_and_leaves_out_a_missing_one),
        T(test_batch_answers_each_request_in_order),
        T(test_an_empty_batch_is_one_invalid_request),
        T(test_malformed_json_is_a_parse_error),
        T(test_a_request_not_json_rpc_2_is_an_invalid_request),
        T(test_unknown_method_is_method_not_found),
        T(test_missing_params_are_invalid_params),
        T(test_unknown_component_is_a_component_error_and_changes_nothing),
        T(test_a_value_of_the_wrong_type_is_a_component_error_and_changes_nothing),
        T(test_an_undescribed_component_is_a_component_error),
        T(test_a_dead_entity_is_entity_not_found_and_changes_nothing),
        T(test_read_only_refuses_the_methods_that_change_the_world),
        T(test_an_oversized_request_is_refused),
        T(test_http_post_is_answered_only_at_poll),
        T(test_http_discover_names_the_server),
        T(test_http_poll_answers_at_most_requests_per_frame),
        T(test_http_bad_token_is_refused_with_401),
        T(test_http_get_of_the_root_serves_the_explorer_page),
    T(test_http_get_elsewhere_or_without_the_page_is_refused_with_405),
    T(test_http_oversized_body_is_refused_with_413),
        T(test_http_destroy_answers_waiting_requests_with_503),
        T(test_app_answers_requests_in_remote_last_after_last),
        T(test_get_components_watch_answers_the_first_frame_once_without_http),
        T(test_http_get_components_watch_streams_each_change),
        T(test_http_query_watch_sends_the_rows_again_only_when_they_change),
        T(test_http_watch_of_a_bad_request_is_answered_with_its_error),
        T(test_list_schedules_names_every_schedule_sorted),
        T(test_schedule_plan_gives_systems_in_order_with_sync_points),
        T(test_schedule_plan_of_an_unknown_schedule_is_not_found),
        T(test_schedule_dot_gives_the_graphviz_text),
        T(test_system_stats_count_runs_once_enabled),
        T(test_system_stats_are_zero_while_statistics_are_off),
        T(test_trace_gives_the_recording_as_trace_events),
        T(test_trace_without_a_recording_is_not_found),
        T(test_list_states_gives_each_machine_its_value_and_values),
        T(test_set_state_queues_the_value_for_the_next_transition),
        T(test_set_state_to_an_unknown_value_is_invalid_params),
        T(test_record_trace_between_runs_records_the_next_frame),
        T(test_record_trace_inside_an_app_frame_starts_when_the_frame_ends),
        T(test_record_trace_while_one_records_or_with_bad_frames_is_refused),
        T(test_get_stepping_lists_the_behaviours_set),
        T(test_stepping_runs_one_system_per_step),
        T(test_step_behaviour_never_run_skips_the_system),
        T(test_step_behaviour_of_an_unknown_system_is_not_found),
        T(test_restore_snapshot_brings_the_world_back),
        T(test_restore_of_an_unknown_snapshot_is_not_found),
        T(test_read_only_refuses_the_library_methods_that_change_things),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
