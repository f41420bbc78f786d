/* The remote protocol's requests one by one: each bad shape of a request or of its params (a
   member missing, of the wrong type, naming no entity, component, resource, schedule, state
   machine or snapshot) answered with its exact code and message and the world unchanged; the
   values the methods read and write (rows of a query, relationship targets, sparse components,
   members reached by a path into nested values and arrays); the library's methods' refusals;
   +watch answered without HTTP; creating a remote with a bad description; and what the HTTP
   side refuses before a request is queued (a bad token, a body too large, a port taken). */
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

/* Beyond the shared world: a component with an array and a nested described member, a sparse
   component, a relationship kind with several targets, a tag kept as a resource. */
typedef struct { int32_t slots[3]; Position at; } Inventory;
typedef struct { int32_t level; } Mark;

typedef struct more_ids {
    ecs_sched_id inventory, mark, likes, paused;
} more_ids;

static more_ids g_ids;

static int setup_more(void **state) {
    remote_world *r;
    ecs_sched_relation_desc likes;
    static ecs_sched_member inventory[2];
    static const ecs_sched_member mark[] = {ECS_SCHED_MEMBER(Mark, level, ECS_SCHED_TYPE_I32)};
    Inventory bag = {{1, 2, 3}, {4.0f, 5.0f}};
    setup(state);
    r = (remote_world *)*state;
    g_ids.inventory = ECS_SCHED_COMPONENT(r->world, Inventory);
    g_ids.mark = ECS_SCHED_SPARSE_COMPONENT(r->world, Mark);
    g_ids.paused = ECS_SCHED_TAG(r->world, Paused);
    memset(&likes, 0, sizeof likes);
    likes.name = "Likes";
    g_ids.likes = ecs_sched_relation_register(r->world, &likes);
    assert_true(g_ids.inventory && g_ids.mark && g_ids.paused && g_ids.likes);
    {
        ecs_sched_member slots = ECS_SCHED_MEMBER(Inventory, slots, ECS_SCHED_TYPE_I32);
        ecs_sched_member at = ECS_SCHED_MEMBER_STRUCT(Inventory, at, r->position);
        inventory[0] = slots;
        inventory[1] = at;
    }
    assert_int_equal(ecs_sched_describe(r->world, g_ids.inventory, 2, inventory), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_describe(r->world, g_ids.mark, 1, mark), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(r->world, r->b, g_ids.inventory, &bag), ECS_SCHED_OK);
    return 0;
}

/* The request refused with `code` and exactly `message`, nothing changed; params formatted. */
static void refused(remote_world *r, int code, const char *message, const char *method,
                    const char *params_format, ...) {
    char params[1024];
    va_list args;
    va_start(args, params_format);
    vsnprintf(params, sizeof params, params_format, args);
    va_end(args);
    expect_refused_with(r, code, message, method, params);
}

/* The message of an entity the world does not hold. */
static const char *not_found_message(const char *method, ecs_sched_entity e) {
    static char text[256];
    snprintf(text, sizeof text, "%s: entity %llu (index %u, generation %u) not found: it was "
             "despawned, or never spawned", method, (unsigned long long)e,
             (unsigned)ECS_SCHED_ENTITY_INDEX(e), (unsigned)ECS_SCHED_ENTITY_GENERATION(e));
    return text;
}

static ecs_sched_entity dead_entity(remote_world *r) {
    ecs_sched_entity e = ecs_sched_spawn(r->world);
    assert_int_equal(ecs_sched_despawn(r->world, e), ECS_SCHED_OK);
    return e;
}

static unsigned long long ull(ecs_sched_entity e) {
    return (unsigned long long)e;
}

/* A successful call's result, printed without spaces (free it with cJSON_free). */
static char *result_text(remote_world *r, const char *method, const char *params) {
    cJSON *response = call(r, method, "%s", params);
    char *text = cJSON_PrintUnformatted(result_of(response));
    cJSON_Delete(response);
    assert_non_null(text);
    return text;
}

static void expect_result(remote_world *r, const char *method, const char *params, const char *expected) {
    char *text = result_text(r, method, params);
    assert_string_equal(text, expected);
    cJSON_free(text);
}

/* ---- the request itself ---- */

static void test_a_request_with_a_field_twice_is_an_invalid_request(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = answer(r, "{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"world.list_resources\", "
                                "\"method\": \"rpc.discover\"}");
    assert_int_equal(error_code(response), ECS_SCHED_RPC_INVALID_REQUEST);
    assert_string_equal(error_message(response), "a field is given twice");
    assert_int_equal((int)number_at(response, "id"), 3);
    cJSON_Delete(response);
}

static void test_each_malformed_request_is_answered_with_its_reason(void **state) {
    static const char *const cases[][2] = {
        {"{\"jsonrpc\": 2, \"method\": \"rpc.discover\"}", "`jsonrpc` must be \"2.0\""},
        {"{\"jsonrpc\": \"2.1\", \"method\": \"rpc.discover\"}", "`jsonrpc` must be \"2.0\""},
        {"{\"method\": \"rpc.discover\"}", "missing field `jsonrpc` (it must be \"2.0\")"},
        {"{\"jsonrpc\": \"2.0\", \"method\": null}", "missing field `method` (a string)"},
        {"{\"jsonrpc\": \"2.0\", \"method\": \"rpc.discover\", \"extra\": 1}",
         "unknown field: a request has `jsonrpc`, `method`, `id` and `params` only"},
        {"42", "a request must be a JSON object"}};
    remote_world *r = (remote_world *)*state;
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cJSON *response = answer(r, cases[i][0]);
        assert_int_equal(error_code(response), ECS_SCHED_RPC_INVALID_REQUEST);
        assert_string_equal(error_message(response), cases[i][1]);
        assert_null(cJSON_GetObjectItemCaseSensitive(response, "id"));
        cJSON_Delete(response);
    }
}

static void test_a_batch_answers_a_bad_member_with_its_error_beside_the_good_ones(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = answer(r, "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"world.list_resources\"}, 7, "
                                "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"nope\"}]");
    assert_int_equal(cJSON_GetArraySize(response), 3);
    assert_true(cJSON_IsArray(result_of(cJSON_GetArrayItem(response, 0))));
    assert_int_equal(error_code(cJSON_GetArrayItem(response, 1)), ECS_SCHED_RPC_INVALID_REQUEST);
    assert_string_equal(error_message(cJSON_GetArrayItem(response, 1)), "a request must be a JSON object");
    assert_int_equal(error_code(cJSON_GetArrayItem(response, 2)), ECS_SCHED_RPC_METHOD_NOT_FOUND);
    assert_string_equal(error_message(cJSON_GetArrayItem(response, 2)),
                        "method `nope` not found (rpc.discover lists the methods)");
    cJSON_Delete(response);
}

static void test_a_null_id_is_left_out_of_the_response(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = answer(r, "{\"jsonrpc\": \"2.0\", \"id\": null, \"method\": \"world.list_resources\"}");
    assert_null(cJSON_GetObjectItemCaseSensitive(response, "id"));
    assert_true(cJSON_IsArray(result_of(response)));
    cJSON_Delete(response);
}

static void test_an_empty_text_is_a_parse_error(void **state) {
    remote_world *r = (remote_world *)*state;
    char *text = ecs_sched_remote_handle(r->remote, NULL, 0);
    cJSON *response = cJSON_Parse(text);
    assert_int_equal(error_code(response), ECS_SCHED_RPC_PARSE_ERROR);
    assert_string_equal(error_message(response), "parse error: the request is not JSON");
    cJSON_Delete(response);
    ecs_sched_remote_free(text);
    ecs_sched_remote_free(NULL);   /* nothing to free */
}

static void test_a_request_over_the_limit_names_its_size_and_the_limit(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_remote_desc desc;
    static const char request[] = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"world.list_resources\"}";
    char expected[160];
    cJSON *response;
    memset(&desc, 0, sizeof desc);
    desc.no_http = true;
    desc.max_request_bytes = 40;
    ecs_sched_remote_destroy(r->remote);
    r->remote = ecs_sched_remote_create(r->world, &desc);
    response = answer(r, request);
    snprintf(expected, sizeof expected, "the request is %u bytes, and this server takes at most 40 "
             "(max_request_bytes)", (unsigned)strlen(request));
    assert_int_equal(error_code(response), ECS_SCHED_RPC_INVALID_REQUEST);
    assert_string_equal(error_message(response), expected);
    cJSON_Delete(response);
}

static void test_read_only_names_the_method_it_refuses(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_remote_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.no_http = true;
    desc.read_only = true;
    ecs_sched_remote_destroy(r->remote);
    r->remote = ecs_sched_remote_create(r->world, &desc);
    refused(r, ECS_SCHED_RPC_METHOD_NOT_FOUND, "method `world.mutate_components` changes the world, and "
            "this server is read-only (ecs_sched_remote_desc.read_only)", "world.mutate_components",
            "{\"entity\": %llu, \"component\": \"Health\", \"path\": \"hp\", \"value\": 1}", ull(r->a));
    refused(r, ECS_SCHED_RPC_METHOD_NOT_FOUND, "method `world.spawn_entity` changes the world, and "
            "this server is read-only (ecs_sched_remote_desc.read_only)", "world.spawn_entity",
            "{\"components\": {}}");
}

/* ---- params of the wrong shape ---- */

static void test_params_that_are_not_an_object_are_invalid_params(void **state) {
    static const char *const methods[] = {
        "world.get_components", "world.query", "world.spawn_entity", "world.insert_components",
        "world.remove_components", "world.despawn_entity", "world.reparent_entities",
        "world.list_components", "world.mutate_components", "world.get_resources",
        "world.insert_resources", "world.remove_resources", "world.mutate_resources",
        "world.trigger_event", "world.write_message", "ecs_sched.schedule_plan",
        "ecs_sched.schedule_dot", "ecs_sched.system_stats", "ecs_sched.set_stats",
        "ecs_sched.get_stepping", "ecs_sched.set_stepping", "ecs_sched.step",
        "ecs_sched.set_step_behaviour", "ecs_sched.set_state", "ecs_sched.take_snapshot",
        "ecs_sched.restore_snapshot"};
    remote_world *r = (remote_world *)*state;
    size_t i;
    for (i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        char message[128];
        snprintf(message, sizeof message, "%s: params must be an object", methods[i]);
        refused(r, ECS_SCHED_RPC_INVALID_PARAMS, message, methods[i], "[1, 2]");
    }
}

static void test_missing_params_are_named_for_each_method_that_needs_them(void **state) {
    static const char *const methods[] = {
        "world.get_components", "world.spawn_entity", "world.remove_components",
        "world.reparent_entities", "world.mutate_components", "world.get_resources",
        "world.insert_resources", "world.remove_resources", "world.mutate_resources",
        "world.trigger_event", "world.write_message", "ecs_sched.schedule_plan",
        "ecs_sched.schedule_dot", "ecs_sched.system_stats", "ecs_sched.set_stats",
        "ecs_sched.get_stepping", "ecs_sched.set_stepping", "ecs_sched.step",
        "ecs_sched.set_step_behaviour", "ecs_sched.set_state", "ecs_sched.take_snapshot",
        "ecs_sched.restore_snapshot"};
    remote_world *r = (remote_world *)*state;
    size_t i;
    for (i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        char message[128];
        snprintf(message, sizeof message, "%s: params not provided", methods[i]);
        refused(r, ECS_SCHED_RPC_INVALID_PARAMS, message, methods[i], "null");
    }
}

static void test_an_entity_param_missing_or_not_a_number_is_invalid_params(void **state) {
    remote_world *r = (remote_world *)*state;
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.get_components: missing field `entity`",
            "world.get_components", "{\"components\": [\"Health\"]}");
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.get_components: `entity` must be an entity: its 64-bit "
            "number (index + generation * 2^32)", "world.get_components",
            "{\"entity\": null, \"components\": [\"Health\"]}");
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.remove_components: `entity` must be an entity: its "
            "64-bit number (index + generation * 2^32)", "world.remove_components",
            "{\"entity\": -1, \"components\": [\"Health\"]}");
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.insert_components: missing field `entity`",
            "world.insert_components", "{\"components\": {}}");
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.mutate_components: `entity` must be an entity: its "
            "64-bit number (index + generation * 2^32)", "world.mutate_components",
            "{\"entity\": 1.5, \"component\": \"Health\", \"path\": \"hp\", \"value\": 1}");
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.list_components: `entity` must be an entity: its "
            "64-bit number (index + generation * 2^32)", "world.list_components", "{\"entity\": \"a\"}");
}

static void test_a_component_list_of_the_wrong_shape_is_invalid_params(void **state) {
    remote_world *r = (remote_world *)*state;
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.get_components: `components` must be an array of "
            "component names", "world.get_components", "{\"entity\": %llu, \"components\": \"Health\"}",
            ull(r->a));
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.get_components: `components` must hold strings only "
            "(component names)", "world.get_components",
            "{\"entity\": %llu, \"components\": [\"Health\", 3]}", ull(r->a));
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.get_components: missing field `components`",
            "world.get_components", "{\"entity\": %llu}", ull(r->a));
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.get_components: missing field `components`",
            "world.get_components", "{\"entity\": %llu, \"components\": null}", ull(r->a));
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.remove_components: `components` must be an array of "
            "component names", "world.remove_components", "{\"entity\": %llu, \"components\": {}}", ull(r->a));
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.remove_components: missing field `components`",
            "world.remove_components", "{\"entity\": %llu}", ull(r->a));
}

static void test_a_flag_that_is_not_a_bool_is_invalid_params(void **state) {
    remote_world *r = (remote_world *)*state;
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.get_components: `strict` must be true or false",
            "world.get_components", "{\"entity\": %llu, \"components\": [\"Health\"], \"strict\": 1}",
            ull(r->a));
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.query: `strict` must be true or false",
            "world.query", "{\"data\": {}, \"strict\": \"yes\"}");
}

/* ---- world.get_components ---- */

static void test_get_components_lenient_reports_an_undescribed_component_among_the_errors(void **state) {
    remote_world *r = (remote_world *)*state;
    Opaque o;
    char params[128];
    memset(&o, 7, sizeof o);
    assert_int_equal(ecs_sched_insert(r->world, r->a, r->opaque, &o), ECS_SCHED_OK);
    snprintf(params, sizeof params, "{\"entity\": %llu, \"components\": [\"Opaque\", \"Health\"], "
             "\"strict\": false}", ull(r->a));
    expect_result(r, "world.get_components", params,
                  "{\"components\":{\"Health\":{\"hp\":7}},\"errors\":{\"Opaque\":{\"code\":-23402,"
                  "\"message\":\"component `Opaque` has no description, so its value cannot be written "
                  "(ecs_sched_describe)\"}}}");
}

static void test_get_components_strict_names_an_unknown_component(void **state) {
    remote_world *r = (remote_world *)*state;
    refused(r, ECS_SCHED_RPC_COMPONENT_ERROR, "unknown component type: `Nope`", "world.get_components",
            "{\"entity\": %llu, \"components\": [\"Health\", \"Nope\"], \"strict\": true}", ull(r->a));
}

static void test_get_components_strict_names_a_component_the_entity_lacks(void **state) {
    remote_world *r = (remote_world *)*state;
    char message[160];
    snprintf(message, sizeof message, "component `Health` not present in entity %llu", ull(r->b));
    refused(r, ECS_SCHED_RPC_COMPONENT_NOT_PRESENT, message, "world.get_components",
            "{\"entity\": %llu, \"components\": [\"Health\"], \"strict\": true}", ull(r->b));
}

static void test_get_components_gives_every_target_of_a_relationship_kind(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_entity c = ecs_sched_spawn(r->world);
    char params[160], expected[160];
    assert_int_equal(ecs_sched_relate(r->world, c, g_ids.likes, r->a, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(r->world, c, g_ids.likes, r->b, NULL), ECS_SCHED_OK);
    snprintf(params, sizeof params, "{\"entity\": %llu, \"components\": [\"Likes\"], \"strict\": true}", ull(c));
    snprintf(expected, sizeof expected, "{\"Likes\":[%llu,%llu]}", ull(r->a), ull(r->b));
    expect_result(r, "world.get_components", params, expected);
    snprintf(expected, sizeof expected, "[{\"entity\":%llu,\"components\":{\"Likes\":[%llu,%llu]}}]", ull(c),
             ull(r->a), ull(r->b));
    expect_result(r, "world.query", "{\"data\": {\"option\": \"all\"}, \"filter\": {\"with\": [\"Likes\"]}}",
                  expected);
}

static void test_get_components_gives_a_sparse_component(void **state) {
    remote_world *r = (remote_world *)*state;
    Mark m = {9};
    char params[160];
    assert_int_equal(ecs_sched_insert(r->world, r->a, g_ids.mark, &m), ECS_SCHED_OK);
    snprintf(params, sizeof params, "{\"entity\": %llu, \"components\": [\"Mark\"], \"strict\": true}", ull(r->a));
    expect_result(r, "world.get_components", params, "{\"Mark\":{\"level\":9}}");
}

static void test_get_components_writes_arrays_and_nested_members(void **state) {
    remote_world *r = (remote_world *)*state;
    char params[160];
    snprintf(params, sizeof params, "{\"entity\": %llu, \"components\": [\"Inventory\"], \"strict\": true}",
             ull(r->b));
    expect_result(r, "world.get_components", params,
                  "{\"Inventory\":{\"slots\":[1,2,3],\"at\":{\"x\":4,\"y\":5}}}");
}

static void test_get_components_watch_strict_gives_the_values_and_nothing_removed(void **state) {
    remote_world *r = (remote_world *)*state;
    char params[160];
    snprintf(params, sizeof params, "{\"entity\": %llu, \"components\": [\"Health\"], \"strict\": true}",
             ull(r->a));
    expect_result(r, "world.get_components+watch", params, "{\"components\":{\"Health\":{\"hp\":7}},\"removed\":[]}");
}

static void test_get_components_watch_of_a_dead_entity_is_entity_not_found(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_entity dead = dead_entity(r);
    refused(r, ECS_SCHED_RPC_ENTITY_NOT_FOUND, not_found_message("world.get_components+watch", dead),
            "world.get_components+watch", "{\"entity\": %llu, \"components\": [\"Health\"]}", ull(dead));
}

/* ---- world.query ---- */

static void test_query_without_params_gives_every_entity_without_values(void **state) {
    remote_world *r = (remote_world *)*state;
    char expected[160];
    snprintf(expected, sizeof expected, "[{\"entity\":%llu,\"components\":{}},{\"entity\":%llu,\"components\":{}}]",
             ull(r->a), ull(r->b));
    expect_result(r, "world.query", "null", expected);
    expect_result(r, "world.query+watch", "null", expected);
}

static void test_query_of_the_wrong_shape_is_invalid_params(void **state) {
    remote_world *r = (remote_world *)*state;
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.query: missing field `data`", "world.query",
            "{\"filter\": {}}");
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.query: `data` and `filter` must be objects", "world.query",
            "{\"data\": [\"Position\"]}");
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.query: `data` and `filter` must be objects", "world.query",
            "{\"data\": {}, \"filter\": 3}");
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.query: `components` must be an array of component names",
            "world.query", "{\"data\": {\"components\": \"Position\"}}");
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.query: `option` must hold strings only (component names)",
            "world.query", "{\"data\": {\"option\": [1]}}");
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.query: `without` must be an array of component names",
            "world.query", "{\"data\": {}, \"filter\": {\"without\": true}}");
}

static void test_query_strict_names_an_unknown_filter_component(void **state) {
    remote_world *r = (remote_world *)*state;
    refused(r, ECS_SCHED_RPC_COMPONENT_ERROR, "component `Ghost` isn't registered or used in the world",
            "world.query", "{\"data\": {}, \"filter\": {\"with\": [\"Ghost\"]}, \"strict\": true}");
}

static void test_query_rows_give_each_component_once_and_leave_out_what_cannot_be_written(void **state) {
    remote_world *r = (remote_world *)*state;
    Opaque o;
    char expected[256];
    memset(&o, 1, sizeof o);
    assert_int_equal(ecs_sched_insert(r->world, r->a, r->opaque, &o), ECS_SCHED_OK);
    snprintf(expected, sizeof expected, "[{\"entity\":%llu,\"components\":{\"Health\":{\"hp\":7}}}]", ull(r->a));
    /* Health twice, Opaque undescribed, Target absent, Ghost unknown */
    expect_result(r, "world.query", "{\"data\": {\"components\": [\"Health\"], \"option\": [\"Health\", "
                                    "\"Opaque\", \"Target\", \"Ghost\"]}}", expected);
}

static void test_query_without_an_unknown_component_keeps_every_row(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "world.query", "{\"data\": {}, \"filter\": {\"without\": [\"Ghost\", \"Target\"]}}");
    const cJSON *rows = result_of(response);
    assert_int_equal(cJSON_GetArraySize(rows), 1);
    assert_true(number_at(cJSON_GetArrayItem(rows, 0), "entity") == (double)r->a);
    cJSON_Delete(response);
}

static void test_query_option_all_gives_sparse_components_and_relationship_targets(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_entity c = ecs_sched_spawn(r->world);
    Mark m = {2};
    char expected[256];
    assert_int_equal(ecs_sched_insert(r->world, c, g_ids.mark, &m), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(r->world, c, r->a), ECS_SCHED_OK);
    snprintf(expected, sizeof expected, "[{\"entity\":%llu,\"components\":{\"ecs_sched.ChildOf\":%llu,"
             "\"Mark\":{\"level\":2}}}]", ull(c), ull(r->a));
    expect_result(r, "world.query", "{\"data\": {\"option\": \"all\"}, \"filter\": {\"with\": [\"Mark\"]}}",
                  expected);
}

static void test_query_naming_the_prefab_tag_sees_prefabs(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_entity prefab = ecs_sched_spawn(r->world);
    Health h = {3};
    char expected[256];
    assert_int_equal(ecs_sched_insert(r->world, prefab, ecs_sched_prefab_tag(r->world), NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(r->world, prefab, r->health, &h), ECS_SCHED_OK);
    snprintf(expected, sizeof expected, "[{\"entity\":%llu,\"components\":{\"Health\":{\"hp\":7}}}]", ull(r->a));
    expect_result(r, "world.query", "{\"data\": {\"components\": [\"Health\"]}}", expected);
    snprintf(expected, sizeof expected, "[{\"entity\":%llu,\"components\":{\"Health\":{\"hp\":7}},"
             "\"has\":{\"ecs_sched.Prefab\":false}},{\"entity\":%llu,\"components\":{\"Health\":{\"hp\":3}},"
             "\"has\":{\"ecs_sched.Prefab\":true}}]", ull(r->a), ull(prefab));
    expect_result(r, "world.query", "{\"data\": {\"components\": [\"Health\"], \"has\": [\"ecs_sched.Prefab\"]}}",
                  expected);
}

/* ---- changing entities ---- */

static void test_spawn_entity_of_no_components_spawns_an_empty_entity(void **state) {
    remote_world *r = (remote_world *)*state;
    int32_t before = ecs_sched_entity_count(r->world);
    cJSON *response = call(r, "world.spawn_entity", "{\"components\": {}}");
    ecs_sched_entity e = (ecs_sched_entity)number_at(result_of(response), "entity");
    assert_true(ecs_sched_is_alive(r->world, e));
    assert_int_equal(ecs_sched_entity_count(r->world), before + 1);
    assert_false(ecs_sched_has(r->world, e, r->position));
    cJSON_Delete(response);
}

static void test_spawn_entity_refuses_a_map_of_the_wrong_shape(void **state) {
    remote_world *r = (remote_world *)*state;
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.spawn_entity: missing field `components`",
            "world.spawn_entity", "{}");
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.spawn_entity: `components` must be an object of "
            "component names to values", "world.spawn_entity", "{\"components\": [\"Health\"]}");
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.spawn_entity: component `Health` is given twice",
            "world.spawn_entity", "{\"components\": {\"Health\": {\"hp\": 1}, \"Health\": {\"hp\": 2}}}");
    refused(r, ECS_SCHED_RPC_COMPONENT_ERROR, "world.spawn_entity: unknown component type: `Hit` (components "
            "are named as registered; world.list_components lists them)", "world.spawn_entity",
            "{\"components\": {\"Hit\": {\"damage\": 1}}}");
}

static void test_a_tag_takes_true_null_or_an_empty_object_and_nothing_else(void **state) {
    remote_world *r = (remote_world *)*state;
    static const char *const values[] = {"true", "null", "{}"};
    size_t i;
    for (i = 0; i < sizeof values / sizeof values[0]; i++) {
        cJSON *response = call(r, "world.insert_components", "{\"entity\": %llu, \"components\": {\"Enemy\": %s}}",
                               ull(r->b), values[i]);
        assert_true(cJSON_IsNull(result_of(response)));
        cJSON_Delete(response);
        assert_true(ecs_sched_has(r->world, r->b, r->enemy));
        assert_int_equal(ecs_sched_remove(r->world, r->b, r->enemy), ECS_SCHED_OK);
    }
    refused(r, ECS_SCHED_RPC_COMPONENT_ERROR, "world.insert_components: `Enemy` is a tag, which has no value: "
            "give it {}", "world.insert_components", "{\"entity\": %llu, \"components\": {\"Enemy\": 5}}", ull(r->b));
    refused(r, ECS_SCHED_RPC_COMPONENT_ERROR, "world.insert_components: `Enemy` is a tag, which has no value: "
            "give it {}", "world.insert_components",
            "{\"entity\": %llu, \"components\": {\"Enemy\": {\"a\": 1}}}", ull(r->b));
}

static void test_a_relationship_kind_has_no_value_to_insert(void **state) {
    remote_world *r = (remote_world *)*state;
    refused(r, ECS_SCHED_RPC_COMPONENT_ERROR, "world.insert_components: `ecs_sched.ChildOf` is a relationship "
            "kind, not a component with a value (a parent is set with world.reparent_entities)",
            "world.insert_components", "{\"entity\": %llu, \"components\": {\"ecs_sched.ChildOf\": %llu}}",
            ull(r->b), ull(r->a));
}

static void test_insert_components_of_an_empty_map_changes_nothing_and_succeeds(void **state) {
    remote_world *r = (remote_world *)*state;
    char *before = ecs_sched_json_save(r->world, 0, NULL, true), *after;
    cJSON *response = call(r, "world.insert_components", "{\"entity\": %llu, \"components\": {}}", ull(r->a));
    assert_true(cJSON_IsNull(result_of(response)));
    cJSON_Delete(response);
    after = ecs_sched_json_save(r->world, 0, NULL, true);
    assert_string_equal(before, after);
    ecs_sched_json_free(before);
    ecs_sched_json_free(after);
}

static void test_insert_components_missing_its_map_is_invalid_params(void **state) {
    remote_world *r = (remote_world *)*state;
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.insert_components: missing field `components`",
            "world.insert_components", "{\"entity\": %llu}", ull(r->a));
}

static void test_remove_components_refuses_an_unknown_name_or_a_kind_before_touching_the_entity(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_entity dead = dead_entity(r);
    refused(r, ECS_SCHED_RPC_COMPONENT_ERROR, "world.remove_components: unregistered component type: `Ghost`",
            "world.remove_components", "{\"entity\": %llu, \"components\": [\"Health\", \"Ghost\"]}", ull(r->a));
    refused(r, ECS_SCHED_RPC_COMPONENT_ERROR, "world.remove_components: `ecs_sched.ChildOf` is a relationship "
            "kind, not a component (a parent is taken away with world.reparent_entities)",
            "world.remove_components", "{\"entity\": %llu, \"components\": [\"Health\", \"ecs_sched.ChildOf\"]}",
            ull(r->a));
    refused(r, ECS_SCHED_RPC_ENTITY_NOT_FOUND, not_found_message("world.remove_components", dead),
            "world.remove_components", "{\"entity\": %llu, \"components\": [\"Health\"]}", ull(dead));
}

static void test_remove_components_of_one_not_present_still_removes_the_others(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "world.remove_components", "{\"entity\": %llu, \"components\": [\"Target\", \"Health\"]}",
                           ull(r->a));
    assert_true(cJSON_IsNull(result_of(response)));
    cJSON_Delete(response);
    assert_false(ecs_sched_has(r->world, r->a, r->health));
    assert_true(ecs_sched_has(r->world, r->a, r->position));
}

static void test_reparent_entities_refuses_bad_shapes_and_dead_entities(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_entity dead = dead_entity(r);
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.reparent_entities: `entities` must be an array of entities",
            "world.reparent_entities", "{\"entities\": %llu, \"parent\": %llu}", ull(r->b), ull(r->a));
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.reparent_entities: `parent` must be an entity: its 64-bit "
            "number (index + generation * 2^32)", "world.reparent_entities",
            "{\"entities\": [%llu], \"parent\": \"a\"}", ull(r->b));
    refused(r, ECS_SCHED_RPC_ENTITY_NOT_FOUND, not_found_message("world.reparent_entities", dead),
            "world.reparent_entities", "{\"entities\": [%llu], \"parent\": %llu}", ull(r->b), ull(dead));
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.reparent_entities: `entities` must be an entity: its "
            "64-bit number (index + generation * 2^32)", "world.reparent_entities",
            "{\"entities\": [%llu, {}], \"parent\": %llu}", ull(r->b), ull(r->a));
    refused(r, ECS_SCHED_RPC_ENTITY_NOT_FOUND, not_found_message("world.reparent_entities", dead),
            "world.reparent_entities", "{\"entities\": [%llu, %llu], \"parent\": %llu}", ull(r->b), ull(dead),
            ull(r->a));
}

static void test_reparent_entities_without_a_parent_makes_them_roots(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response;
    assert_int_equal(ecs_sched_set_parent(r->world, r->b, r->a), ECS_SCHED_OK);
    response = call(r, "world.reparent_entities", "{\"entities\": [%llu]}", ull(r->b));
    assert_true(cJSON_IsNull(result_of(response)));
    cJSON_Delete(response);
    assert_int_equal(ecs_sched_parent_of(r->world, r->b), ECS_SCHED_NULL_ENTITY);
}

static void test_despawn_entity_takes_its_children_along(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response;
    assert_int_equal(ecs_sched_set_parent(r->world, r->b, r->a), ECS_SCHED_OK);
    response = call(r, "world.despawn_entity", "{\"entity\": %llu}", ull(r->a));
    assert_true(cJSON_IsNull(result_of(response)));
    cJSON_Delete(response);
    assert_false(ecs_sched_is_alive(r->world, r->a));
    assert_false(ecs_sched_is_alive(r->world, r->b));
}

/* ---- world.list_components ---- */

static void test_list_components_of_an_entity_names_its_sparse_ones_too(void **state) {
    remote_world *r = (remote_world *)*state;
    Mark m = {1};
    char params[64];
    assert_int_equal(ecs_sched_insert(r->world, r->a, g_ids.mark, &m), ECS_SCHED_OK);
    snprintf(params, sizeof params, "{\"entity\": %llu}", ull(r->a));
    expect_result(r, "world.list_components", params, "[\"Enemy\",\"Health\",\"Mark\",\"Position\"]");
}

static void test_list_components_of_a_dead_entity_is_entity_not_found(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_entity dead = dead_entity(r);
    refused(r, ECS_SCHED_RPC_ENTITY_NOT_FOUND, not_found_message("world.list_components", dead),
            "world.list_components", "{\"entity\": %llu}", ull(dead));
}

/* ---- world.mutate_components: paths ---- */

static const Inventory *inventory_of(remote_world *r) {
    return (const Inventory *)get_present(r->world, r->b, g_ids.inventory);
}

static void mutate_inventory(remote_world *r, const char *path, const char *value) {
    cJSON *response = call(r, "world.mutate_components", "{\"entity\": %llu, \"component\": \"Inventory\", "
                           "\"path\": \"%s\", \"value\": %s}", ull(r->b), path, value);
    assert_true(cJSON_IsNull(result_of(response)));
    cJSON_Delete(response);
}

static void test_mutate_components_writes_an_element_of_an_array_member(void **state) {
    remote_world *r = (remote_world *)*state;
    mutate_inventory(r, "slots[1]", "20");
    assert_int_equal(inventory_of(r)->slots[0], 1);
    assert_int_equal(inventory_of(r)->slots[1], 20);
    assert_int_equal(inventory_of(r)->slots[2], 3);
    mutate_inventory(r, ".slots[2]", "30");
    assert_int_equal(inventory_of(r)->slots[2], 30);
}

static void test_mutate_components_writes_a_member_of_a_nested_value(void **state) {
    remote_world *r = (remote_world *)*state;
    mutate_inventory(r, ".at.y", "-1.5");
    assert_true(inventory_of(r)->at.y == -1.5f);
    assert_true(inventory_of(r)->at.x == 4.0f);
    mutate_inventory(r, "at", "{\"x\": 8, \"y\": 9}");
    assert_true(inventory_of(r)->at.x == 8.0f);
    assert_true(inventory_of(r)->at.y == 9.0f);
}

static void test_mutate_components_with_an_empty_path_replaces_the_whole_value(void **state) {
    remote_world *r = (remote_world *)*state;
    mutate_inventory(r, "", "{\"slots\": [7, 8, 9], \"at\": {\"x\": 1, \"y\": 2}}");
    assert_int_equal(inventory_of(r)->slots[0], 7);
    assert_int_equal(inventory_of(r)->slots[2], 9);
    assert_true(inventory_of(r)->at.y == 2.0f);
}

static void test_mutate_components_refuses_a_path_that_names_nothing(void **state) {
    static const char *const paths[] = {"slots[3]", "slots[-1]", "slots[x]", "slots[1", "[0]", "at[0]",
                                        "slots.x", "at.z", ".", "at..x", "nope", NULL};
    remote_world *r = (remote_world *)*state;
    char long_name[151];   /* a member name longer than any a path may hold */
    size_t i;
    memset(long_name, 'a', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    for (i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        const char *path = paths[i] ? paths[i] : long_name;
        char message[400];
        snprintf(message, sizeof message, "world.mutate_components: `Inventory` has no member at path `%s` (a "
                 "path names members as \"a.b\" or \".a.b\", elements as \"[2]\")", path);
        refused(r, ECS_SCHED_RPC_COMPONENT_ERROR, message, "world.mutate_components",
                "{\"entity\": %llu, \"component\": \"Inventory\", \"path\": \"%s\", \"value\": 1}", ull(r->b),
                path);
    }
}

static void test_mutate_components_refuses_a_value_the_member_cannot_take(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response;
    refused(r, ECS_SCHED_RPC_COMPONENT_ERROR, NULL, "world.mutate_components", "{\"entity\": %llu, "
            "\"component\": \"Inventory\", \"path\": \"slots[0]\", \"value\": \"many\"}", ull(r->b));
    response = call(r, "world.mutate_components", "{\"entity\": %llu, \"component\": \"Inventory\", "
                    "\"path\": \"slots[0]\", \"value\": \"many\"}", ull(r->b));
    assert_int_equal(error_code(response), ECS_SCHED_RPC_COMPONENT_ERROR);
    assert_non_null(strstr(error_message(response), "slots"));
    cJSON_Delete(response);
}

static void test_mutate_components_refuses_missing_fields(void **state) {
    remote_world *r = (remote_world *)*state;
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.mutate_components: `component` must be a string (missing)",
            "world.mutate_components", "{\"entity\": %llu, \"path\": \"hp\", \"value\": 1}", ull(r->a));
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.mutate_components: `component` must be a string",
            "world.mutate_components", "{\"entity\": %llu, \"component\": 4, \"path\": \"hp\", \"value\": 1}",
            ull(r->a));
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.mutate_components: `path` must be a string (missing)",
            "world.mutate_components", "{\"entity\": %llu, \"component\": \"Health\", \"value\": 1}", ull(r->a));
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.mutate_components: missing field `value`",
            "world.mutate_components", "{\"entity\": %llu, \"component\": \"Health\", \"path\": \"hp\"}", ull(r->a));
}

static void test_mutate_components_refuses_what_has_no_members_to_reach(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_entity dead = dead_entity(r);
    char message[200];
    assert_int_equal(ecs_sched_set_parent(r->world, r->b, r->a), ECS_SCHED_OK);
    refused(r, ECS_SCHED_RPC_COMPONENT_ERROR, "world.mutate_components: unknown component type: `Ghost`",
            "world.mutate_components", "{\"entity\": %llu, \"component\": \"Ghost\", \"path\": \"\", \"value\": 1}",
            ull(r->a));
    refused(r, ECS_SCHED_RPC_ENTITY_NOT_FOUND, not_found_message("world.mutate_components", dead),
            "world.mutate_components", "{\"entity\": %llu, \"component\": \"Health\", \"path\": \"hp\", \"value\": 1}",
            ull(dead));
    snprintf(message, sizeof message, "world.mutate_components: cannot reflect component `Enemy` of entity %llu: "
             "it has no members", ull(r->a));
    refused(r, ECS_SCHED_RPC_COMPONENT_ERROR, message, "world.mutate_components",
            "{\"entity\": %llu, \"component\": \"Enemy\", \"path\": \"\", \"value\": {}}", ull(r->a));
    snprintf(message, sizeof message, "world.mutate_components: cannot reflect component `ecs_sched.ChildOf` of "
             "entity %llu: it has no members", ull(r->b));
    refused(r, ECS_SCHED_RPC_COMPONENT_ERROR, message, "world.mutate_components",
            "{\"entity\": %llu, \"component\": \"ecs_sched.ChildOf\", \"path\": \"\", \"value\": 1}", ull(r->b));
    snprintf(message, sizeof message, "world.mutate_components: cannot reflect component `Health` of entity %llu: "
             "the entity does not have it", ull(r->b));
    refused(r, ECS_SCHED_RPC_COMPONENT_ERROR, message, "world.mutate_components",
            "{\"entity\": %llu, \"component\": \"Health\", \"path\": \"hp\", \"value\": 1}", ull(r->b));
}

static void test_mutate_components_of_an_undescribed_component_is_a_component_error(void **state) {
    remote_world *r = (remote_world *)*state;
    Opaque o;
    cJSON *response;
    memset(&o, 5, sizeof o);
    assert_int_equal(ecs_sched_insert(r->world, r->a, r->opaque, &o), ECS_SCHED_OK);
    response = call(r, "world.mutate_components", "{\"entity\": %llu, \"component\": \"Opaque\", "
                    "\"path\": \"bytes\", \"value\": 1}", ull(r->a));
    assert_int_equal(error_code(response), ECS_SCHED_RPC_COMPONENT_ERROR);
    assert_string_equal(error_message(response), "world.mutate_components: `Opaque` has no description, so its "
                        "members cannot be reached (ecs_sched_describe)");
    cJSON_Delete(response);
    assert_memory_equal(get_present(r->world, r->a, r->opaque), &o, sizeof o);
}

/* ---- resources ---- */

static void test_a_resource_is_named_by_a_string_of_a_known_type(void **state) {
    remote_world *r = (remote_world *)*state;
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.get_resources: `resource` must be a string (missing)",
            "world.get_resources", "{}");
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.remove_resources: `resource` must be a string",
            "world.remove_resources", "{\"resource\": 5}");
    refused(r, ECS_SCHED_RPC_RESOURCE_ERROR, "world.get_resources: unknown resource type: `Ghost`",
            "world.get_resources", "{\"resource\": \"Ghost\"}");
    refused(r, ECS_SCHED_RPC_RESOURCE_ERROR, "world.insert_resources: unknown resource type: `ecs_sched.ChildOf`",
            "world.insert_resources", "{\"resource\": \"ecs_sched.ChildOf\", \"value\": 1}");
    refused(r, ECS_SCHED_RPC_RESOURCE_ERROR, "world.get_resources: unknown resource type: `Hit`",
            "world.get_resources", "{\"resource\": \"Hit\"}");
}

static void test_a_resource_not_held_is_resource_not_present_for_each_method_that_reads_it(void **state) {
    remote_world *r = (remote_world *)*state;
    assert_int_equal(ecs_sched_resource_remove(r->world, r->score), ECS_SCHED_OK);
    refused(r, ECS_SCHED_RPC_RESOURCE_NOT_PRESENT, "world.remove_resources: resource `Score` not present in the "
            "world", "world.remove_resources", "{\"resource\": \"Score\"}");
    refused(r, ECS_SCHED_RPC_RESOURCE_NOT_PRESENT, "world.mutate_resources: resource `Score` not present in the "
            "world", "world.mutate_resources", "{\"resource\": \"Score\", \"path\": \"value\", \"value\": 1}");
}

static void test_get_resources_of_a_tag_gives_an_empty_object(void **state) {
    remote_world *r = (remote_world *)*state;
    assert_int_equal(ecs_sched_resource_insert(r->world, g_ids.paused, NULL), ECS_SCHED_OK);
    expect_result(r, "world.get_resources", "{\"resource\": \"Paused\"}", "{\"value\":{}}");
}

static void test_get_resources_of_an_undescribed_resource_is_a_resource_error(void **state) {
    remote_world *r = (remote_world *)*state;
    Opaque o;
    memset(&o, 0, sizeof o);
    assert_int_equal(ecs_sched_resource_insert(r->world, r->opaque, &o), ECS_SCHED_OK);
    refused(r, ECS_SCHED_RPC_RESOURCE_ERROR, "world.get_resources: resource `Opaque` has no description, so its "
            "value cannot be written (ecs_sched_describe)", "world.get_resources", "{\"resource\": \"Opaque\"}");
    refused(r, ECS_SCHED_RPC_RESOURCE_ERROR, "world.mutate_resources: `Opaque` has no description, so its members "
            "cannot be reached (ecs_sched_describe)", "world.mutate_resources",
            "{\"resource\": \"Opaque\", \"path\": \"\", \"value\": {}}");
}

static void test_insert_resources_refuses_a_missing_or_unreadable_value(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response;
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.insert_resources: missing field `value`",
            "world.insert_resources", "{\"resource\": \"Score\"}");
    expect_refused(r, ECS_SCHED_RPC_RESOURCE_ERROR, "world.insert_resources",
                   "{\"resource\": \"Score\", \"value\": {\"value\": \"lots\"}}");
    response = call(r, "world.insert_resources", "{\"resource\": \"Score\", \"value\": {\"value\": \"lots\"}}");
    assert_non_null(strstr(error_message(response), "'value'"));
    cJSON_Delete(response);
}

static void test_insert_resources_adds_one_not_held_yet(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response;
    assert_int_equal(ecs_sched_resource_remove(r->world, r->score), ECS_SCHED_OK);
    response = call(r, "world.insert_resources", "{\"resource\": \"Score\", \"value\": {\"value\": 12}}");
    assert_true(cJSON_IsNull(result_of(response)));
    cJSON_Delete(response);
    assert_int_equal(((const Score *)ecs_sched_resource_get(r->world, r->score))->value, 12);
}

static void test_mutate_resources_refuses_a_bad_path_or_a_missing_value(void **state) {
    remote_world *r = (remote_world *)*state;
    refused(r, ECS_SCHED_RPC_RESOURCE_ERROR, "world.mutate_resources: `Score` has no member at path `points` (a "
            "path names members as \"a.b\" or \".a.b\", elements as \"[2]\")", "world.mutate_resources",
            "{\"resource\": \"Score\", \"path\": \"points\", \"value\": 1}");
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.mutate_resources: missing field `value`",
            "world.mutate_resources", "{\"resource\": \"Score\", \"path\": \"value\"}");
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.mutate_resources: `path` must be a string",
            "world.mutate_resources", "{\"resource\": \"Score\", \"path\": [], \"value\": 1}");
}

static void test_mutate_resources_with_an_empty_path_replaces_the_value(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response = call(r, "world.mutate_resources", "{\"resource\": \"Score\", \"path\": \"\", \"value\": {\"value\": 40}}");
    assert_true(cJSON_IsNull(result_of(response)));
    cJSON_Delete(response);
    assert_int_equal(((const Score *)ecs_sched_resource_get(r->world, r->score))->value, 40);
}

/* ---- events and messages ---- */

static int32_t g_heard, g_heard_n;
static ecs_sched_entity g_heard_at;

static void on_event(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *trigger) {
    (void)ctx;
    g_heard++;
    g_heard_at = trigger->entity;
    g_heard_n = trigger->payload ? ((const Ping *)trigger->payload)->n : -1;
}

static void observe(remote_world *r, ecs_sched_id event) {
    ecs_sched_observer_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.event = ECS_SCHED_ON_EVENT;
    desc.component = event;
    desc.fn = on_event;
    assert_true(ecs_sched_observer_add(r->world, &desc) != 0);
    g_heard = 0;
    g_heard_n = 0;
    g_heard_at = 0;
}

static void test_trigger_event_at_an_entity_reaches_it_with_the_default_value(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response;
    observe(r, r->ping);
    response = call(r, "world.trigger_event", "{\"event\": \"Ping\", \"entity\": %llu}", ull(r->a));
    assert_true(cJSON_IsNull(result_of(response)));
    cJSON_Delete(response);
    assert_int_equal(g_heard, 1);
    assert_true(g_heard_at == r->a);
    assert_int_equal(g_heard_n, 0);
}

static void test_trigger_event_of_a_tag_carries_no_value(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response;
    observe(r, r->enemy);
    response = call(r, "world.trigger_event", "{\"event\": \"Enemy\", \"value\": null, \"entity\": null}");
    assert_true(cJSON_IsNull(result_of(response)));
    cJSON_Delete(response);
    assert_int_equal(g_heard, 1);
    assert_int_equal(g_heard_n, -1);
}

static void test_trigger_event_refuses_bad_params_and_no_observer_hears_it(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_entity dead = dead_entity(r);
    observe(r, r->ping);
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.trigger_event: `event` must be a string (missing)",
            "world.trigger_event", "{\"value\": {}}");
    refused(r, ECS_SCHED_RPC_RESOURCE_ERROR, "world.trigger_event: unknown event type: `Ghost`",
            "world.trigger_event", "{\"event\": \"Ghost\"}");
    refused(r, ECS_SCHED_RPC_RESOURCE_ERROR, "world.trigger_event: unknown event type: `ecs_sched.ChildOf`",
            "world.trigger_event", "{\"event\": \"ecs_sched.ChildOf\"}");
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.trigger_event: `entity` must be an entity: its 64-bit "
            "number (index + generation * 2^32)", "world.trigger_event", "{\"event\": \"Ping\", \"entity\": true}");
    refused(r, ECS_SCHED_RPC_ENTITY_NOT_FOUND, not_found_message("world.trigger_event", dead),
            "world.trigger_event", "{\"event\": \"Ping\", \"entity\": %llu}", ull(dead));
    expect_refused(r, ECS_SCHED_RPC_RESOURCE_ERROR, "world.trigger_event", "{\"event\": \"Ping\", \"value\": {\"n\": []}}");
    assert_int_equal(g_heard, 0);
}

static void test_write_message_without_a_value_sends_the_default_one(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_message_cursor cursor = ecs_sched_message_cursor_make(r->world, r->hit);
    ecs_sched_messages read;
    cJSON *response = call(r, "world.write_message", "{\"message\": \"Hit\"}");
    assert_true(cJSON_IsNull(result_of(response)));
    cJSON_Delete(response);
    read = ecs_sched_message_read(r->world, &cursor);
    assert_true(ecs_sched_messages_next(&read));
    assert_int_equal(read.count, 1);
    assert_int_equal(((const Hit *)read.data)->damage, 0);
}

static void test_write_message_refuses_bad_params_and_sends_nothing(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_message_cursor cursor = ecs_sched_message_cursor_make(r->world, r->hit);
    ecs_sched_messages read;
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.write_message: `message` must be a string (missing)",
            "world.write_message", "{}");
    refused(r, ECS_SCHED_RPC_RESOURCE_ERROR, "world.write_message: unknown message type: `Ghost` (message types "
            "are registered with ecs_sched_message_register)", "world.write_message", "{\"message\": \"Ghost\"}");
    expect_refused(r, ECS_SCHED_RPC_RESOURCE_ERROR, "world.write_message",
                   "{\"message\": \"Hit\", \"value\": {\"damage\": \"a lot\"}}");
    read = ecs_sched_message_read(r->world, &cursor);
    assert_false(ecs_sched_messages_next(&read));
}

/* ---- the library's methods ---- */

static void add_update(remote_world *r) {
    ecs_sched_system_desc a;
    memset(&a, 0, sizeof a);
    a.name = "a";
    a.fn = noop;
    assert_int_equal(ecs_sched_add_system(r->world, "Update", &a), ECS_SCHED_OK);
    a.name = "b";
    a.after[0] = "a";
    assert_int_equal(ecs_sched_add_system(r->world, "Update", &a), ECS_SCHED_OK);
}

static void test_a_schedule_param_missing_or_unknown_is_refused_by_each_method(void **state) {
    static const char *const methods[] = {"ecs_sched.schedule_plan", "ecs_sched.schedule_dot",
                                          "ecs_sched.system_stats", "ecs_sched.get_stepping",
                                          "ecs_sched.set_stepping", "ecs_sched.step",
                                          "ecs_sched.set_step_behaviour"};
    remote_world *r = (remote_world *)*state;
    size_t i;
    add_update(r);
    for (i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        char message[200];
        snprintf(message, sizeof message, "%s: `schedule` must be a string (missing)", methods[i]);
        refused(r, ECS_SCHED_RPC_INVALID_PARAMS, message, methods[i], "{}");
        snprintf(message, sizeof message, "%s: no schedule named `Nope` (ecs_sched.list_schedules lists them)",
                 methods[i]);
        refused(r, ECS_SCHED_RPC_NOT_FOUND, message, methods[i], "{\"schedule\": \"Nope\", \"enabled\": true}");
    }
}

static void test_set_stats_and_set_stepping_need_enabled_as_a_bool(void **state) {
    remote_world *r = (remote_world *)*state;
    add_update(r);
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "ecs_sched.set_stats: `enabled` must be true or false",
            "ecs_sched.set_stats", "{\"enabled\": 1}");
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "ecs_sched.set_stepping: `enabled` must be true or false",
            "ecs_sched.set_stepping", "{\"schedule\": \"Update\"}");
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "ecs_sched.step: `continue` must be true or false",
            "ecs_sched.step", "{\"schedule\": \"Update\", \"continue\": \"yes\"}");
}

static void test_set_stats_switches_statistics_on_and_off(void **state) {
    remote_world *r = (remote_world *)*state;
    add_update(r);
    cJSON_Delete(call(r, "ecs_sched.set_stats", "{\"enabled\": true}"));
    assert_int_equal(ecs_sched_run_schedule(r->world, "Update"), ECS_SCHED_OK);
    {
        cJSON *response = call(r, "ecs_sched.system_stats", "{\"schedule\": \"Update\"}");
        const cJSON *result = result_of(response);
        const cJSON *systems = cJSON_GetObjectItemCaseSensitive(result, "systems");
        assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(result, "enabled")));
        assert_int_equal(cJSON_GetArraySize(systems), 2);
        assert_string_equal(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(systems, 0), "system")->valuestring, "a");
        assert_int_equal((int)number_at(cJSON_GetArrayItem(systems, 1), "runs"), 1);
        cJSON_Delete(response);
    }
    cJSON_Delete(call(r, "ecs_sched.set_stats", "{\"enabled\": false}"));
    assert_int_equal(ecs_sched_run_schedule(r->world, "Update"), ECS_SCHED_OK);   /* not counted */
    {
        cJSON *response = call(r, "ecs_sched.system_stats", "{\"schedule\": \"Update\"}");
        const cJSON *result = result_of(response);
        assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(result, "enabled")));
        assert_int_equal((int)number_at(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(result, "systems"), 0),
                                        "runs"), 1);
        cJSON_Delete(response);
    }
}

static void test_set_stepping_false_lets_the_schedule_run_freely_again(void **state) {
    remote_world *r = (remote_world *)*state;
    add_update(r);
    cJSON_Delete(call(r, "ecs_sched.set_stepping", "{\"schedule\": \"Update\", \"enabled\": true}"));
    expect_result(r, "ecs_sched.get_stepping", "{\"schedule\": \"Update\"}",
                  "{\"enabled\":true,\"cursor\":null,\"behaviours\":{}}");   /* none before a run */
    assert_int_equal(ecs_sched_run_schedule(r->world, "Update"), ECS_SCHED_OK);
    expect_result(r, "ecs_sched.get_stepping", "{\"schedule\": \"Update\"}",
                  "{\"enabled\":true,\"cursor\":\"a\",\"behaviours\":{}}");
    expect_result(r, "ecs_sched.set_stepping", "{\"schedule\": \"Update\", \"enabled\": false}", "null");
    expect_result(r, "ecs_sched.get_stepping", "{\"schedule\": \"Update\"}",
                  "{\"enabled\":false,\"cursor\":null,\"behaviours\":{}}");
}

static void test_step_of_a_schedule_not_stepping_is_refused(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response;
    add_update(r);
    response = call(r, "ecs_sched.step", "{\"schedule\": \"Update\"}");
    assert_int_equal(error_code(response), ECS_SCHED_RPC_REFUSED);
    assert_non_null(strstr(error_message(response), "Update"));
    cJSON_Delete(response);
}

static void test_set_step_behaviour_takes_the_four_names_only(void **state) {
    remote_world *r = (remote_world *)*state;
    add_update(r);
    expect_result(r, "ecs_sched.set_step_behaviour",
                  "{\"schedule\": \"Update\", \"system\": \"a\", \"behaviour\": \"always_run\"}", "null");
    expect_result(r, "ecs_sched.set_step_behaviour",
                  "{\"schedule\": \"Update\", \"system\": \"b\", \"behaviour\": \"never_run\"}", "null");
    expect_result(r, "ecs_sched.get_stepping", "{\"schedule\": \"Update\"}",
                  "{\"enabled\":false,\"cursor\":null,\"behaviours\":{\"a\":\"always_run\",\"b\":\"never_run\"}}");
    expect_result(r, "ecs_sched.set_step_behaviour",
                  "{\"schedule\": \"Update\", \"system\": \"b\", \"behaviour\": \"default\"}", "null");
    expect_result(r, "ecs_sched.get_stepping", "{\"schedule\": \"Update\"}",
                  "{\"enabled\":false,\"cursor\":null,\"behaviours\":{\"a\":\"always_run\"}}");
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "ecs_sched.set_step_behaviour: `behaviour` must be \"default\", "
            "\"always_run\", \"never_run\" or \"breakpoint\", not \"sometimes\"", "ecs_sched.set_step_behaviour",
            "{\"schedule\": \"Update\", \"system\": \"a\", \"behaviour\": \"sometimes\"}");
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "ecs_sched.set_step_behaviour: `system` must be a string (missing)",
            "ecs_sched.set_step_behaviour", "{\"schedule\": \"Update\", \"behaviour\": \"default\"}");
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "ecs_sched.set_step_behaviour: `behaviour` must be a string (missing)",
            "ecs_sched.set_step_behaviour", "{\"schedule\": \"Update\", \"system\": \"a\"}");
}

static void test_record_trace_refuses_frames_out_of_range_or_not_whole(void **state) {
    static const char *const frames[] = {"0", "1001", "1.5", "\"2\"", "-3", "null"};
    remote_world *r = (remote_world *)*state;
    size_t i;
    for (i = 0; i < sizeof frames / sizeof frames[0]; i++) {
        refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "ecs_sched.record_trace: `frames` must be a whole number from 1 "
                "to 1000", "ecs_sched.record_trace", "{\"frames\": %s}", frames[i]);
    }
    refused(r, ECS_SCHED_RPC_NOT_FOUND, "ecs_sched.trace: nothing was recorded: the program starts a trace with "
            "ecs_sched_trace_start", "ecs_sched.trace", "");
}

static remote_world *g_running;
static char g_inside[256];
static int g_inside_code;

static void ask_inside(ecs_sched_system_ctx *ctx) {
    cJSON *response = call(g_running, "ecs_sched.record_trace", "{\"frames\": 2}");
    (void)ctx;
    g_inside_code = error_code(response);
    snprintf(g_inside, sizeof g_inside, "%s", error_message(response));
    cJSON_Delete(response);
}

static void test_record_trace_inside_a_run_without_an_app_is_refused(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_system_desc desc;
    cJSON *response;
    memset(&desc, 0, sizeof desc);
    desc.name = "ask";
    desc.fn = ask_inside;
    desc.exclusive = true;
    assert_int_equal(ecs_sched_add_system(r->world, "Update", &desc), ECS_SCHED_OK);
    g_running = r;
    assert_int_equal(ecs_sched_run_schedule(r->world, "Update"), ECS_SCHED_OK);
    assert_int_equal(g_inside_code, ECS_SCHED_RPC_REFUSED);
    assert_string_equal(g_inside, "ecs_sched.record_trace: schedule 'Update' is running and the remote belongs to "
                                  "no app whose frames it could wait for: poll the remote between runs");
    response = call(r, "ecs_sched.trace", "");   /* nothing started */
    assert_int_equal(error_code(response), ECS_SCHED_RPC_NOT_FOUND);
    cJSON_Delete(response);
}

static void test_list_states_gives_null_for_a_machine_not_entered_yet(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_state_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.name = "Weather";
    desc.values[0] = "Sun";
    desc.values[1] = "Rain";
    assert_true(ecs_sched_state_register(r->world, &desc) != 0);
    expect_result(r, "ecs_sched.list_states", "", "[{\"name\":\"Weather\",\"value\":null,\"values\":[\"Sun\",\"Rain\"]}]");
}

static void test_set_state_refuses_a_missing_name_or_an_unknown_machine(void **state) {
    remote_world *r = (remote_world *)*state;
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "ecs_sched.set_state: `state` must be a string (missing)",
            "ecs_sched.set_state", "{\"value\": \"Sun\"}");
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "ecs_sched.set_state: `value` must be a string (missing)",
            "ecs_sched.set_state", "{\"state\": \"Weather\"}");
    refused(r, ECS_SCHED_RPC_NOT_FOUND, "ecs_sched.set_state: no state machine named `Weather` "
            "(ecs_sched.list_states lists them)", "ecs_sched.set_state", "{\"state\": \"Weather\", \"value\": \"Sun\"}");
}

static void test_snapshots_are_kept_by_name_and_a_name_taken_again_is_replaced(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response;
    ecs_sched_entity c;
    cJSON_Delete(call(r, "ecs_sched.take_snapshot", "{\"name\": \"one\"}"));
    c = ecs_sched_spawn(r->world);
    cJSON_Delete(call(r, "ecs_sched.take_snapshot", "{\"name\": \"two\"}"));
    assert_int_equal(ecs_sched_despawn(r->world, r->a), ECS_SCHED_OK);
    response = call(r, "ecs_sched.take_snapshot", "{\"name\": \"one\"}");   /* replaced: without a */
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(result_of(response), "name")->valuestring, "one");
    cJSON_Delete(response);
    expect_result(r, "ecs_sched.restore_snapshot", "{\"name\": \"two\"}", "null");
    assert_true(ecs_sched_is_alive(r->world, r->a));
    assert_true(ecs_sched_is_alive(r->world, c));
    expect_result(r, "ecs_sched.restore_snapshot", "{\"name\": \"one\"}", "null");
    assert_false(ecs_sched_is_alive(r->world, r->a));
    assert_true(ecs_sched_is_alive(r->world, c));
}

static void test_snapshot_methods_need_a_name(void **state) {
    remote_world *r = (remote_world *)*state;
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "ecs_sched.take_snapshot: `name` must be a string (missing)",
            "ecs_sched.take_snapshot", "{}");
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "ecs_sched.restore_snapshot: `name` must be a string",
            "ecs_sched.restore_snapshot", "{\"name\": 1}");
    refused(r, ECS_SCHED_RPC_NOT_FOUND, "ecs_sched.restore_snapshot: no snapshot named `x` "
            "(ecs_sched.take_snapshot takes one)", "ecs_sched.restore_snapshot", "{\"name\": \"x\"}");
}

/* ---- more shapes of world.* params ---- */

static void test_query_accepts_null_data_and_filter_and_no_params_at_all(void **state) {
    remote_world *r = (remote_world *)*state;
    char expected[160];
    (void)dead_entity(r);   /* a record no longer alive is passed over */
    snprintf(expected, sizeof expected, "[{\"entity\":%llu,\"components\":{}},{\"entity\":%llu,\"components\":{}}]",
             ull(r->a), ull(r->b));
    expect_result(r, "world.query", "", expected);
    expect_result(r, "world.query", "{\"data\": null, \"filter\": null, \"strict\": null}", expected);
}

static void test_query_option_of_a_string_other_than_all_is_invalid_params(void **state) {
    remote_world *r = (remote_world *)*state;
    refused(r, ECS_SCHED_RPC_INVALID_PARAMS, "world.query: `option` must be an array of component names",
            "world.query", "{\"data\": {\"option\": \"some\"}}");
}

static void test_query_with_an_unknown_filter_component_matches_nothing(void **state) {
    remote_world *r = (remote_world *)*state;
    expect_result(r, "world.query", "{\"data\": {}, \"filter\": {\"with\": [\"Position\", \"Ghost\"]}}", "[]");
}

static void test_get_components_takes_a_null_strict_as_lenient(void **state) {
    remote_world *r = (remote_world *)*state;
    char params[160];
    snprintf(params, sizeof params, "{\"entity\": %llu, \"components\": [\"Health\"], \"strict\": null}", ull(r->a));
    expect_result(r, "world.get_components", params, "{\"components\":{\"Health\":{\"hp\":7}},\"errors\":{}}");
}

static void test_reparent_entities_with_a_null_parent_makes_them_roots(void **state) {
    remote_world *r = (remote_world *)*state;
    char params[160];
    assert_int_equal(ecs_sched_set_parent(r->world, r->b, r->a), ECS_SCHED_OK);
    snprintf(params, sizeof params, "{\"entities\": [%llu], \"parent\": null}", ull(r->b));
    expect_result(r, "world.reparent_entities", params, "null");
    assert_int_equal(ecs_sched_parent_of(r->world, r->b), ECS_SCHED_NULL_ENTITY);
}

static void test_list_components_of_an_entity_without_any_is_empty(void **state) {
    remote_world *r = (remote_world *)*state;
    char params[64];
    snprintf(params, sizeof params, "{\"entity\": %llu}", ull(ecs_sched_spawn(r->world)));
    expect_result(r, "world.list_components", params, "[]");
}

static void test_names_passes_over_entities_no_longer_alive(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_entity gone = ecs_sched_spawn(r->world);
    char expected[96];
    assert_int_equal(ecs_sched_set_name(r->world, gone, "ghost"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(r->world, r->a, "alpha"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(r->world, gone), ECS_SCHED_OK);
    snprintf(expected, sizeof expected, "[{\"entity\":%llu,\"name\":\"alpha\"}]", ull(r->a));
    expect_result(r, "ecs_sched.names", "", expected);
}

/* An instance carries a mark of its base that the library keeps: the protocol never names it. */
static void test_the_mark_of_a_base_is_no_component_of_the_protocol(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_entity base = ecs_sched_spawn(r->world), instance;
    Health h = {5};
    char params[200], expected[200], mark[64];
    assert_int_equal(ecs_sched_insert(r->world, base, r->health, &h), ECS_SCHED_OK);
    instance = ecs_sched_instantiate(r->world, base);
    assert_true(instance != ECS_SCHED_NULL_ENTITY);
    snprintf(mark, sizeof mark, "ecs_sched.IsA(entity %u.%u)", (unsigned)ECS_SCHED_ENTITY_INDEX(base),
             (unsigned)ECS_SCHED_ENTITY_GENERATION(base));
    assert_true(ecs_sched_component_lookup(r->world, mark) != 0);
    snprintf(params, sizeof params, "{\"entity\": %llu, \"components\": [\"%s\"], \"strict\": true}",
             ull(instance), mark);
    snprintf(expected, sizeof expected, "unknown component type: `%s`", mark);
    expect_refused_with(r, ECS_SCHED_RPC_COMPONENT_ERROR, expected, "world.get_components", params);
    snprintf(params, sizeof params, "{\"entity\": %llu}", ull(instance));
    expect_result(r, "world.list_components", params, "[\"ecs_sched.IsA\"]");
}

/* ---- the world's own refusals, inside a system that runs beside others ---- */

typedef struct inside_request {
    const char *method, *params;
    int code;
} inside_request;

static inside_request g_inside_requests[16];
static int g_inside_count;
static int g_inside_codes[16];
static char g_inside_messages[16][256];
static int32_t g_inside_polled;

static void answer_inside(ecs_sched_system_ctx *ctx) {
    int i;
    (void)ctx;
    for (i = 0; i < g_inside_count; i++) {
        cJSON *response = call(g_running, g_inside_requests[i].method, "%s", g_inside_requests[i].params);
        const cJSON *error = cJSON_GetObjectItemCaseSensitive(response, "error");
        g_inside_codes[i] = error ? (int)cJSON_GetObjectItemCaseSensitive(error, "code")->valuedouble : 0;
        snprintf(g_inside_messages[i], sizeof g_inside_messages[i], "%s",
                 error ? cJSON_GetObjectItemCaseSensitive(error, "message")->valuestring : "");
        cJSON_Delete(response);
    }
    g_inside_polled = ecs_sched_remote_poll(g_running->remote);
}

static void test_changes_asked_from_a_system_beside_others_are_refused_with_the_worlds_reason(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_system_desc desc;
    char params[7][160], *before, *after;
    int32_t entities = ecs_sched_entity_count(r->world);
    int i;
    inside_request requests[] = {
        {"world.spawn_entity", "{\"components\": {\"Health\": {\"hp\": 1}}}", ECS_SCHED_RPC_COMPONENT_ERROR},
        {"world.insert_components", params[0], ECS_SCHED_RPC_COMPONENT_ERROR},
        {"world.remove_components", params[1], ECS_SCHED_RPC_COMPONENT_ERROR},
        {"world.despawn_entity", params[2], ECS_SCHED_RPC_INTERNAL_ERROR},
        {"world.reparent_entities", params[3], ECS_SCHED_RPC_INTERNAL_ERROR},
        {"world.mutate_components", params[4], ECS_SCHED_RPC_COMPONENT_ERROR},
        {"world.insert_resources", "{\"resource\": \"Score\", \"value\": {\"value\": 1}}", ECS_SCHED_RPC_RESOURCE_ERROR},
        {"world.remove_resources", "{\"resource\": \"Score\"}", ECS_SCHED_RPC_RESOURCE_ERROR},
        {"world.mutate_resources", "{\"resource\": \"Score\", \"path\": \"value\", \"value\": 2}",
         ECS_SCHED_RPC_RESOURCE_ERROR},
        {"world.trigger_event", "{\"event\": \"Ping\"}", ECS_SCHED_RPC_RESOURCE_ERROR},
        {"ecs_sched.take_snapshot", "{\"name\": \"in\"}", ECS_SCHED_RPC_REFUSED},
        {"ecs_sched.restore_snapshot", "{\"name\": \"before\"}", ECS_SCHED_RPC_REFUSED}};
    snprintf(params[0], sizeof params[0], "{\"entity\": %llu, \"components\": {\"Health\": {\"hp\": 2}}}", ull(r->a));
    snprintf(params[1], sizeof params[1], "{\"entity\": %llu, \"components\": [\"Health\"]}", ull(r->a));
    snprintf(params[2], sizeof params[2], "{\"entity\": %llu}", ull(r->b));
    snprintf(params[3], sizeof params[3], "{\"entities\": [%llu], \"parent\": %llu}", ull(r->b), ull(r->a));
    snprintf(params[4], sizeof params[4], "{\"entity\": %llu, \"component\": \"Health\", \"path\": \"hp\", "
             "\"value\": 3}", ull(r->a));
    cJSON_Delete(call(r, "ecs_sched.take_snapshot", "{\"name\": \"before\"}"));
    g_inside_count = (int)(sizeof requests / sizeof requests[0]);
    memcpy(g_inside_requests, requests, sizeof requests);
    g_running = r;
    g_inside_polled = -1;
    memset(&desc, 0, sizeof desc);
    desc.name = "beside";
    desc.fn = answer_inside;
    assert_int_equal(ecs_sched_add_system(r->world, "Update", &desc), ECS_SCHED_OK);
    before = ecs_sched_json_save(r->world, 0, NULL, true);
    /* the refused requests are the requests' errors, not the run's; the refused poll is the run's */
    assert_int_equal(ecs_sched_run_schedule(r->world, "Update"), ECS_SCHED_ERR_ACCESS);
    assert_non_null(strstr(ecs_sched_last_error(r->world), "remote_poll through the world while the schedule runs"));
    after = ecs_sched_json_save(r->world, 0, NULL, true);
    for (i = 0; i < g_inside_count; i++) {
        assert_int_equal(g_inside_codes[i], requests[i].code);
        assert_non_null(strstr(g_inside_messages[i], "while the schedule runs, but only exclusive systems change "
                                                     "the world directly"));
    }
    assert_int_equal(g_inside_polled, 0);   /* a poll is refused there too */
    assert_string_equal(before, after);
    assert_int_equal(ecs_sched_entity_count(r->world), entities);
    assert_int_equal(((const Score *)ecs_sched_resource_get(r->world, r->score))->value, 3);
    ecs_sched_json_free(before);
    ecs_sched_json_free(after);
}

static void stepping_inside(ecs_sched_system_ctx *ctx) {
    int i;
    (void)ctx;
    g_inside_count = 2;
    for (i = 0; i < 2; i++) {
        cJSON *response = call(g_running, i == 0 ? "ecs_sched.set_stepping" : "ecs_sched.step",
                               "%s", i == 0 ? "{\"schedule\": \"Update\", \"enabled\": true}" : "{\"schedule\": \"Update\"}");
        g_inside_codes[i] = error_code(response);
        snprintf(g_inside_messages[i], sizeof g_inside_messages[i], "%s", error_message(response));
        cJSON_Delete(response);
    }
}

static void test_stepping_asked_while_its_schedule_runs_is_refused(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_system_desc desc;
    cJSON *response;
    memset(&desc, 0, sizeof desc);
    desc.name = "ask";
    desc.fn = stepping_inside;
    desc.exclusive = true;
    assert_int_equal(ecs_sched_add_system(r->world, "Update", &desc), ECS_SCHED_OK);
    g_running = r;
    assert_int_equal(ecs_sched_run_schedule(r->world, "Update"), ECS_SCHED_OK);
    assert_int_equal(g_inside_codes[0], ECS_SCHED_RPC_REFUSED);
    assert_non_null(strstr(g_inside_messages[0], "stepping_enable: schedule 'Update' is running; stepping is "
                                                 "controlled between its runs"));
    assert_int_equal(g_inside_codes[1], ECS_SCHED_RPC_REFUSED);
    assert_non_null(strstr(g_inside_messages[1], "step_one: schedule 'Update' is running"));
    response = call(r, "ecs_sched.get_stepping", "{\"schedule\": \"Update\"}");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(result_of(response), "enabled")));
    cJSON_Delete(response);
}

/* ---- schedules that cannot be built, worlds without schedules or states ---- */

static void test_a_schedule_with_a_cycle_is_refused_by_the_methods_that_build_it(void **state) {
    static const char *const methods[] = {"ecs_sched.schedule_plan", "ecs_sched.schedule_dot",
                                          "ecs_sched.system_stats"};
    remote_world *r = (remote_world *)*state;
    ecs_sched_system_desc a, b;
    size_t i;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.name = "a";
    a.fn = noop;
    a.after[0] = "b";
    b.name = "b";
    b.fn = noop;
    b.after[0] = "a";
    assert_int_equal(ecs_sched_add_system(r->world, "Loop", &a), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(r->world, "Loop", &b), ECS_SCHED_OK);
    for (i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        cJSON *response = call(r, methods[i], "{\"schedule\": \"Loop\"}");
        assert_int_equal(error_code(response), ECS_SCHED_RPC_REFUSED);
        assert_non_null(strstr(error_message(response), "cycle"));
        cJSON_Delete(response);
    }
}

static void test_a_world_without_schedules_or_states_lists_none(void **state) {
    remote_world *r = (remote_world *)*state;
    expect_result(r, "ecs_sched.list_schedules", "", "[]");
    expect_result(r, "ecs_sched.list_states", "", "[]");
}

static void test_record_trace_in_a_world_without_schedules_starts_at_once(void **state) {
    remote_world *r = (remote_world *)*state;
    cJSON *response;
    expect_result(r, "ecs_sched.record_trace", "{\"frames\": 3}", "null");
    response = call(r, "ecs_sched.trace", "");
    assert_true(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(result_of(response), "traceEvents")));
    cJSON_Delete(response);
    refused(r, ECS_SCHED_RPC_REFUSED, "ecs_sched.record_trace: a trace is recording already (wait for it to "
            "stop, or stop it in the program)", "ecs_sched.record_trace", "");
    assert_int_equal(ecs_sched_trace_stop(r->world), ECS_SCHED_OK);
    expect_result(r, "ecs_sched.record_trace", "", "null");   /* stopped: a new one may start */
    assert_int_equal(ecs_sched_trace_stop(r->world), ECS_SCHED_OK);
}

static int32_t follow_weather(const int32_t *values, void *user_data) {
    (void)user_data;
    return values[0];
}

static void test_set_state_of_a_computed_state_is_refused(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_state_desc weather, mood;
    cJSON *response;
    memset(&weather, 0, sizeof weather);
    weather.name = "Weather";
    weather.values[0] = "Sun";
    weather.values[1] = "Rain";
    memset(&mood, 0, sizeof mood);
    mood.name = "Mood";
    mood.values[0] = "Glad";
    mood.values[1] = "Glum";
    mood.sources[0] = ecs_sched_state_register(r->world, &weather);
    mood.compute = follow_weather;
    assert_true(mood.sources[0] != 0);
    assert_true(ecs_sched_state_register(r->world, &mood) != 0);
    response = call(r, "ecs_sched.set_state", "{\"state\": \"Mood\", \"value\": \"Glum\"}");
    assert_int_equal(error_code(response), ECS_SCHED_RPC_REFUSED);
    assert_non_null(strstr(error_message(response), "Mood"));
    cJSON_Delete(response);
}

/* ---- HTTP ---- */

/* A client that sends its request in pieces (a short pause between them), then reads the
   whole answer: its status, and its head and body in `response`. */
typedef struct raw_client {
    int port;
    const char *pieces[4];
    int count;
    int status;
    char response[262144];
} raw_client;

static void *raw_send(void *arg) {
    raw_client *c = (raw_client *)arg;
    struct sockaddr_in to;
    size_t got = 0;
    int fd = socket(AF_INET, SOCK_STREAM, 0), i;
    ssize_t n;
    c->status = -1;
    c->response[0] = '\0';
    if (fd < 0) return NULL;
    memset(&to, 0, sizeof to);
    to.sin_family = AF_INET;
    to.sin_port = htons((uint16_t)c->port);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&to, sizeof to) != 0) {
        close(fd);
        return NULL;
    }
    for (i = 0; i < c->count; i++) {
        if (i > 0) sleep_ms(30);
        if (write(fd, c->pieces[i], strlen(c->pieces[i])) < 0) break;
    }
    while (got + 1 < sizeof c->response && (n = read(fd, c->response + got, sizeof c->response - 1 - got)) > 0) {
        got += (size_t)n;
    }
    c->response[got] = '\0';
    close(fd);
    if (sscanf(c->response, "HTTP/1.%*d %d", &c->status) != 1) c->status = -2;
    return NULL;
}

/* The body of an answer in c->response (after its head), parsed. */
static cJSON *raw_body(const raw_client *c) {
    const char *body = strstr(c->response, "\r\n\r\n");
    cJSON *json;
    assert_non_null(body);
    json = cJSON_Parse(body + 4);
    assert_non_null(json);
    return json;
}

/* The body of a chunked answer (Transfer-Encoding: chunked) put together again, in place. */
static char *dechunk(char *response) {
    char *at = strstr(response, "\r\n\r\n"), *out;
    unsigned long size;
    assert_non_null(at);
    at += 4;
    out = response;
    while (sscanf(at, "%lx", &size) == 1 && size > 0) {
        at = strstr(at, "\r\n") + 2;
        memmove(out, at, size);
        out += size;
        at += size + 2;
    }
    *out = '\0';
    return response;
}

static void test_http_without_the_right_bearer_token_is_refused_with_401(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_remote_desc desc;
    http_client client;
    raw_client basic;
    const char *tokens[] = {NULL, "s3cre", "s3cret!"};
    int32_t entities = ecs_sched_entity_count(r->world);
    size_t i;
    memset(&desc, 0, sizeof desc);
    desc.token = "s3cret";
    http_remote(r, &desc);
    for (i = 0; i < sizeof tokens / sizeof tokens[0]; i++) {
        cJSON *response;
        memset(&client, 0, sizeof client);
        client.port = ecs_sched_remote_port(r->remote);
        client.body = spawn_request;
        client.token = tokens[i];
        http_post(&client);
        assert_int_equal(client.status, 401);
        response = cJSON_Parse(client.response);
        assert_int_equal(error_code(response), ECS_SCHED_RPC_INVALID_REQUEST);
        assert_string_equal(error_message(response), "this server needs the header Authorization: Bearer <token>, "
                                                     "with its token");
        cJSON_Delete(response);
    }
    memset(&basic, 0, sizeof basic);
    basic.port = ecs_sched_remote_port(r->remote);
    basic.pieces[0] = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Basic s3cret\r\nContent-Length: 2\r\n"
                      "Connection: close\r\n\r\n{}";
    basic.count = 1;
    raw_send(&basic);
    assert_int_equal(basic.status, 401);
    assert_int_equal(ecs_sched_remote_pending(r->remote), 0);
    assert_int_equal(ecs_sched_entity_count(r->world), entities);
}

static void test_http_get_of_index_html_serves_the_explorer_page(void **state) {
    remote_world *r = (remote_world *)*state;
    http_client client;
    memset(&client, 0, sizeof client);
    client.port = ecs_sched_remote_port(http_remote(r, NULL));
    http_get(&client, "/index.html");
    assert_int_equal(client.status, 200);
    assert_non_null(strstr(client.response, "Content-Type: text/html"));
    assert_non_null(strstr(client.response, "Cache-Control: no-store"));
}

static void test_http_an_empty_post_is_answered_at_a_poll_as_a_parse_error(void **state) {
    remote_world *r = (remote_world *)*state;
    raw_client client;
    pthread_t thread;
    cJSON *response;
    memset(&client, 0, sizeof client);
    client.port = ecs_sched_remote_port(http_remote(r, NULL));
    client.pieces[0] = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
    client.count = 1;
    assert_int_equal(pthread_create(&thread, NULL, raw_send, &client), 0);
    wait_pending(r->remote, 1);
    assert_int_equal(ecs_sched_remote_poll(r->remote), 1);
    pthread_join(thread, NULL);
    assert_int_equal(client.status, 200);
    response = raw_body(&client);
    assert_int_equal(error_code(response), ECS_SCHED_RPC_PARSE_ERROR);
    assert_string_equal(error_message(response), "parse error: the request is not JSON");
    cJSON_Delete(response);
}

static void test_http_a_chunked_body_over_the_limit_is_refused_with_413(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_remote_desc desc;
    raw_client client;
    char body[600];
    cJSON *response;
    int32_t entities = ecs_sched_entity_count(r->world);
    memset(&desc, 0, sizeof desc);
    desc.max_request_bytes = 64;
    memset(&client, 0, sizeof client);
    client.port = ecs_sched_remote_port(http_remote(r, &desc));
    /* no Content-Length to refuse early: the body is found too large as it arrives, in two chunks */
    client.pieces[0] = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
    snprintf(body, sizeof body, "%x\r\n%s\r\n", (unsigned)strlen(spawn_request), spawn_request);
    client.pieces[1] = body;
    client.pieces[2] = "5\r\n     \r\n0\r\n\r\n";
    client.count = 3;
    raw_send(&client);   /* refused without a poll */
    assert_int_equal(client.status, 413);
    response = raw_body(&client);
    assert_int_equal(error_code(response), ECS_SCHED_RPC_INVALID_REQUEST);
    assert_string_equal(error_message(response), "the request is larger than this server takes (max_request_bytes)");
    cJSON_Delete(response);
    assert_int_equal(ecs_sched_remote_pending(r->remote), 0);
    assert_int_equal(ecs_sched_entity_count(r->world), entities);
}

static void test_http_a_body_sent_in_pieces_is_answered_whole(void **state) {
    remote_world *r = (remote_world *)*state;
    raw_client client;
    pthread_t thread;
    char first[300], second[300];
    size_t half = strlen(spawn_request) / 2;
    cJSON *response;
    ecs_sched_entity e;
    memset(&client, 0, sizeof client);
    client.port = ecs_sched_remote_port(http_remote(r, NULL));
    client.pieces[0] = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
    snprintf(first, sizeof first, "%x\r\n%.*s\r\n", (unsigned)half, (int)half, spawn_request);
    snprintf(second, sizeof second, "%x\r\n%s\r\n0\r\n\r\n", (unsigned)(strlen(spawn_request) - half),
             spawn_request + half);
    client.pieces[1] = first;
    client.pieces[2] = second;
    client.count = 3;
    assert_int_equal(pthread_create(&thread, NULL, raw_send, &client), 0);
    wait_pending(r->remote, 1);
    assert_int_equal(ecs_sched_remote_poll(r->remote), 1);
    pthread_join(thread, NULL);
    assert_int_equal(client.status, 200);
    response = raw_body(&client);
    e = (ecs_sched_entity)number_at(result_of(response), "entity");
    assert_int_equal(((const Health *)ecs_sched_get(r->world, e, r->health))->hp, 41);
    cJSON_Delete(response);
}

/* Posts each body from its own thread, waits until all are queued, answers them in one poll. */
static void http_post_all(remote_world *r, http_client *clients, const char *const *bodies, int count) {
    pthread_t threads[4];
    int i;
    for (i = 0; i < count; i++) {
        memset(&clients[i], 0, sizeof clients[i]);
        clients[i].port = ecs_sched_remote_port(r->remote);
        clients[i].body = bodies[i];
        assert_int_equal(pthread_create(&threads[i], NULL, http_post, &clients[i]), 0);
        wait_pending(r->remote, i + 1);
    }
    assert_int_equal(ecs_sched_remote_poll(r->remote), count);
    for (i = 0; i < count; i++) {
        pthread_join(threads[i], NULL);
        assert_int_equal(clients[i].status, 200);
    }
}

static void test_http_answers_a_batch_a_malformed_request_and_a_watch_without_params_once(void **state) {
    static const char batch_body[] =
        "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"world.list_resources\"}, "
        "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"world.query+watch\"}]";
    static const char *const bodies[] = {
        batch_body,
        "{\"jsonrpc\": \"1.0\", \"id\": 3, \"method\": \"world.query+watch\", \"params\": {\"data\": {}}}",
        "{\"jsonrpc\": \"2.0\", \"id\": 4, \"method\": \"world.get_components+watch\"}"};
    remote_world *r = (remote_world *)*state;
    http_client clients[3];
    cJSON *batch, *malformed, *watch;
    http_remote(r, NULL);
    http_post_all(r, clients, bodies, 3);
    batch = cJSON_Parse(clients[0].response);
    malformed = cJSON_Parse(clients[1].response);
    watch = cJSON_Parse(clients[2].response);
    assert_int_equal(cJSON_GetArraySize(batch), 2);
    assert_string_equal(cJSON_GetArrayItem(result_of(cJSON_GetArrayItem(batch, 0)), 0)->valuestring, "Score");
    assert_int_equal(cJSON_GetArraySize(result_of(cJSON_GetArrayItem(batch, 1))), 2);   /* once, as world.query */
    assert_int_equal(error_code(malformed), ECS_SCHED_RPC_INVALID_REQUEST);
    assert_string_equal(error_message(malformed), "`jsonrpc` must be \"2.0\"");
    assert_int_equal(error_code(watch), ECS_SCHED_RPC_INVALID_PARAMS);
    assert_string_equal(error_message(watch), "world.get_components+watch: params not provided");
    cJSON_Delete(batch);
    cJSON_Delete(malformed);
    cJSON_Delete(watch);
}

static void test_http_query_watch_of_a_bad_request_is_answered_with_its_error(void **state) {
    static const char *const bodies[] = {
        "{\"jsonrpc\": \"2.0\", \"id\": 6, \"method\": \"world.query+watch\", \"params\": {\"data\": 5}}"};
    remote_world *r = (remote_world *)*state;
    http_client client;
    cJSON *response;
    http_remote(r, NULL);
    http_post_all(r, &client, bodies, 1);
    response = cJSON_Parse(client.response);
    assert_int_equal((int)number_at(response, "id"), 6);
    assert_int_equal(error_code(response), ECS_SCHED_RPC_INVALID_PARAMS);
    assert_string_equal(error_message(response), "world.query+watch: `data` and `filter` must be objects");
    cJSON_Delete(response);
}

static void test_http_watch_sends_an_error_once_when_its_entity_goes(void **state) {
    remote_world *r = (remote_world *)*state;
    char body[300];
    http_client client;
    pthread_t thread;
    const char *second;
    http_remote(r, NULL);
    snprintf(body, sizeof body, "{\"jsonrpc\": \"2.0\", \"id\": 8, \"method\": \"world.get_components+watch\", "
             "\"params\": {\"entity\": %llu, \"components\": [\"Health\"]}}", ull(r->a));
    http_watch(r, &client, &thread, body);
    assert_int_equal(ecs_sched_remote_poll(r->remote), 1);   /* the values */
    assert_int_equal(ecs_sched_despawn(r->world, r->a), ECS_SCHED_OK);
    ecs_sched_remote_poll(r->remote);   /* the error */
    ecs_sched_remote_poll(r->remote);   /* the same error: not sent again */
    ecs_sched_remote_poll(r->remote);
    http_watch_end(r, &client, thread);
    assert_int_equal(occurrences(client.response, "\"jsonrpc\":\"2.0\""), 2);
    second = strstr(strstr(client.response, "\"jsonrpc\"") + 1, "\"jsonrpc\"");
    assert_non_null(strstr(second, "\"error\":{\"code\":-23401,"));
    assert_non_null(strstr(second, not_found_message("world.get_components+watch", r->a)));
}

static void test_http_a_watch_frame_larger_than_one_write_arrives_whole(void **state) {
    static const char body[] = "{\"jsonrpc\": \"2.0\", \"id\": 9, \"method\": \"world.query+watch\", "
                               "\"params\": {\"data\": {\"components\": [\"Position\"]}}}";
    remote_world *r = (remote_world *)*state;
    raw_client *client = (raw_client *)calloc(1, sizeof *client);
    pthread_t thread;
    char request[400];
    cJSON *frame;
    char *line;
    int i;
    for (i = 0; i < 1500; i++) {
        Position p = {(float)i, 0.5f};
        ecs_sched_entity e = ecs_sched_spawn(r->world);
        assert_int_equal(ecs_sched_insert(r->world, e, r->position, &p), ECS_SCHED_OK);
    }
    client->port = ecs_sched_remote_port(http_remote(r, NULL));
    snprintf(request, sizeof request, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %u\r\n"
             "Connection: close\r\n\r\n%s", (unsigned)strlen(body), body);
    client->pieces[0] = request;
    client->count = 1;
    assert_int_equal(pthread_create(&thread, NULL, raw_send, client), 0);
    wait_pending(r->remote, 1);
    assert_int_equal(ecs_sched_remote_poll(r->remote), 1);
    ecs_sched_remote_destroy(r->remote);   /* the stream ends */
    r->remote = NULL;
    pthread_join(thread, NULL);
    assert_int_equal(client->status, 200);
    /* the frame (near 100 KiB) went out in pieces */
    line = dechunk(client->response);
    assert_true(strlen(line) > 65536);
    assert_int_equal(line[strlen(line) - 1], '\n');
    frame = cJSON_Parse(line);
    assert_non_null(frame);
    assert_int_equal((int)number_at(frame, "id"), 9);
    assert_int_equal(cJSON_GetArraySize(result_of(frame)), 1502);
    cJSON_Delete(frame);
    free(client);
}

static void test_http_a_connection_beyond_max_connections_waits_for_a_free_one(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_remote_desc desc;
    http_client first, second;
    pthread_t threads[2];
    memset(&desc, 0, sizeof desc);
    desc.max_connections = 1;
    http_remote(r, &desc);
    memset(&first, 0, sizeof first);
    first.port = ecs_sched_remote_port(r->remote);
    first.body = spawn_request;
    second = first;
    assert_int_equal(pthread_create(&threads[0], NULL, http_post, &first), 0);
    wait_pending(r->remote, 1);
    assert_int_equal(pthread_create(&threads[1], NULL, http_post, &second), 0);
    sleep_ms(100);
    assert_int_equal(ecs_sched_remote_pending(r->remote), 1);   /* the second is not taken yet */
    assert_int_equal(ecs_sched_remote_poll(r->remote), 1);
    pthread_join(threads[0], NULL);
    assert_int_equal(first.status, 200);
    wait_pending(r->remote, 1);   /* now it is */
    assert_int_equal(ecs_sched_remote_poll(r->remote), 1);
    pthread_join(threads[1], NULL);
    assert_int_equal(second.status, 200);
}

static void test_create_without_a_description_listens_on_bevys_port(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_remote *remote = ecs_sched_remote_create(r->world, NULL);
    if (remote) {
        assert_int_equal(ecs_sched_remote_port(remote), ECS_SCHED_REMOTE_PORT);
        ecs_sched_remote_destroy(remote);
    } else {   /* another program holds it here: the refusal names it */
        assert_non_null(strstr(ecs_sched_last_error(r->world), "cannot listen on 127.0.0.1 port 15702"));
    }
    ecs_sched_remote_destroy(NULL);   /* nothing to destroy */
}

/* Sends a watch request, reads until its first frame arrived, and leaves. */
static void *watch_and_leave(void *arg) {
    raw_client *c = (raw_client *)arg;
    struct sockaddr_in to;
    size_t got = 0;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ssize_t n;
    c->status = -1;
    if (fd < 0) return NULL;
    memset(&to, 0, sizeof to);
    to.sin_family = AF_INET;
    to.sin_port = htons((uint16_t)c->port);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&to, sizeof to) != 0 || write(fd, c->pieces[0], strlen(c->pieces[0])) < 0) {
        close(fd);
        return NULL;
    }
    while (!strstr(c->response, "}\n") && got + 1 < sizeof c->response &&
           (n = read(fd, c->response + got, sizeof c->response - 1 - got)) > 0) {
        got += (size_t)n;
        c->response[got] = '\0';
    }
    close(fd);
    if (sscanf(c->response, "HTTP/1.%*d %d", &c->status) != 1) c->status = -2;
    return NULL;
}

static void test_http_a_watch_whose_client_left_is_dropped_at_a_poll(void **state) {
    static const char body[] = "{\"jsonrpc\": \"2.0\", \"id\": 10, \"method\": \"world.query+watch\", "
                               "\"params\": {\"data\": {\"components\": [\"Health\"]}}}";
    remote_world *r = (remote_world *)*state;
    raw_client *client = (raw_client *)calloc(1, sizeof *client);
    pthread_t thread;
    char request[300];
    int i;
    client->port = ecs_sched_remote_port(http_remote(r, NULL));
    snprintf(request, sizeof request, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %u\r\n"
             "Connection: close\r\n\r\n%s", (unsigned)strlen(body), body);
    client->pieces[0] = request;
    assert_int_equal(pthread_create(&thread, NULL, watch_and_leave, client), 0);
    wait_pending(r->remote, 1);
    assert_int_equal(ecs_sched_remote_poll(r->remote), 1);
    pthread_join(thread, NULL);
    assert_int_equal(client->status, 200);
    assert_non_null(strstr(client->response, "\"hp\":7"));
    /* frames for nobody: writing them fails, the server ends the stream, a poll frees the watch */
    for (i = 0; i < 50; i++) {
        Health h = {100 + i};
        assert_int_equal(ecs_sched_insert(r->world, r->a, r->health, &h), ECS_SCHED_OK);
        assert_int_equal(ecs_sched_remote_poll(r->remote), 0);
        sleep_ms(10);
    }
    assert_int_equal(ecs_sched_remote_pending(r->remote), 0);
    free(client);
}

static void test_app_remote_in_a_schedule_not_made_yet_makes_it(void **state) {
    remote_world *unused = (remote_world *)*state;
    ecs_sched_app *app = ecs_sched_app_create(NULL);
    ecs_sched_world *w = ecs_sched_app_world(app);
    ecs_sched_remote_desc desc;
    ecs_sched_remote *remote;
    (void)unused;
    memset(&desc, 0, sizeof desc);
    desc.no_http = true;
    desc.schedule = "Inspect";
    assert_false(ecs_sched_schedule_exists(w, "Inspect"));
    remote = ecs_sched_app_add_remote(app, &desc);
    assert_non_null(remote);
    assert_true(ecs_sched_schedule_exists(w, "Inspect"));
    assert_int_equal(ecs_sched_run_schedule(w, "Inspect"), ECS_SCHED_OK);   /* its system polls */
    ecs_sched_remote_destroy(remote);
    ecs_sched_app_destroy(app);
}

static void test_app_add_remote_to_a_schedule_without_a_label_is_refused(void **state) {
    remote_world *unused = (remote_world *)*state;
    ecs_sched_app *app = ecs_sched_app_create(NULL);
    ecs_sched_remote_desc desc;
    (void)unused;
    memset(&desc, 0, sizeof desc);
    desc.no_http = true;
    desc.schedule = "";
    assert_null(ecs_sched_app_add_remote(app, &desc));   /* the remote made is freed again */
    assert_string_equal(ecs_sched_last_error(ecs_sched_app_world(app)), "a schedule needs a label");
    assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_world_check(ecs_sched_app_world(app)), ECS_SCHED_OK);
    ecs_sched_app_destroy(app);
}

static void test_app_add_remote_without_a_description_listens_on_bevys_port(void **state) {
    remote_world *unused = (remote_world *)*state;
    ecs_sched_app *app = ecs_sched_app_create(NULL);
    ecs_sched_remote *remote = ecs_sched_app_add_remote(app, NULL);
    (void)unused;
    if (remote) {
        assert_int_equal(ecs_sched_remote_port(remote), ECS_SCHED_REMOTE_PORT);
        assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);
        ecs_sched_remote_destroy(remote);
    } else {   /* another program holds it here: the refusal names it */
        assert_non_null(strstr(ecs_sched_last_error(ecs_sched_app_world(app)), "port 15702"));
    }
    ecs_sched_app_destroy(app);
}

/* ---- the app ---- */

/* Posts a request to the remote from a thread; the app's frames answer it. */
static void app_answers(ecs_sched_app *app, ecs_sched_remote *remote) {
    http_client client;
    pthread_t thread;
    int i;
    memset(&client, 0, sizeof client);
    client.port = ecs_sched_remote_port(remote);
    client.body = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"world.list_resources\"}";
    assert_int_equal(pthread_create(&thread, NULL, http_post, &client), 0);
    wait_pending(remote, 1);
    for (i = 0; i < 3 && ecs_sched_remote_pending(remote) > 0; i++) {
        assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);
    }
    assert_int_equal(ecs_sched_remote_pending(remote), 0);   /* answered in a frame */
    pthread_join(thread, NULL);
    assert_int_equal(client.status, 200);
}

static void test_app_remote_in_a_schedule_of_its_choosing_answers_there(void **state) {
    remote_world *unused = (remote_world *)*state;
    ecs_sched_app *app = ecs_sched_app_create(NULL);
    ecs_sched_remote_desc desc;
    ecs_sched_remote *remote;
    const char *order[32];
    int32_t n, i;
    (void)unused;
    memset(&desc, 0, sizeof desc);
    desc.port = ECS_SCHED_REMOTE_ANY_PORT;
    desc.schedule = ECS_SCHED_UPDATE;
    remote = ecs_sched_app_add_remote(app, &desc);
    assert_non_null(remote);
    n = ecs_sched_app_schedule_order(app, ECS_SCHED_ORDER_MAIN, order, 32);
    for (i = 0; i < n; i++) assert_string_not_equal(order[i], ECS_SCHED_REMOTE_LAST);   /* none made */
    app_answers(app, remote);
    ecs_sched_remote_destroy(remote);
    assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);   /* its system went with it */
    ecs_sched_app_destroy(app);
}

static void test_app_destroying_one_of_two_remotes_in_a_schedule_leaves_the_other_answering(void **state) {
    remote_world *unused = (remote_world *)*state;
    ecs_sched_app *app = ecs_sched_app_create(NULL);
    ecs_sched_remote_desc desc;
    ecs_sched_remote *first, *second;
    int k;
    (void)unused;
    for (k = 0; k < 2; k++) {   /* in a schedule given, then in RemoteLast */
        memset(&desc, 0, sizeof desc);
        desc.port = ECS_SCHED_REMOTE_ANY_PORT;
        desc.schedule = k == 0 ? ECS_SCHED_UPDATE : NULL;
        first = ecs_sched_app_add_remote(app, &desc);
        second = ecs_sched_app_add_remote(app, &desc);
        assert_non_null(first);
        assert_non_null(second);
        app_answers(app, first);
        app_answers(app, second);
        ecs_sched_remote_destroy(first);
        app_answers(app, second);
        ecs_sched_remote_destroy(second);
    }
    assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_world_check(ecs_sched_app_world(app)), ECS_SCHED_OK);
    ecs_sched_app_destroy(app);
}

static void test_app_remotes_share_remote_last_and_the_first_keeps_the_frame_hook(void **state) {
    remote_world *unused = (remote_world *)*state;
    ecs_sched_app *app = ecs_sched_app_create(NULL);
    ecs_sched_remote_desc desc;
    ecs_sched_remote *first, *second;
    const char *order[32];
    int32_t n, i, placed = 0;
    (void)unused;
    memset(&desc, 0, sizeof desc);
    desc.no_http = true;
    first = ecs_sched_app_add_remote(app, &desc);
    assert_non_null(first);
    second = ecs_sched_app_add_remote(app, &desc);
    assert_non_null(second);
    desc.port = 70000;
    assert_null(ecs_sched_app_add_remote(app, &desc));
    assert_non_null(strstr(ecs_sched_last_error(ecs_sched_app_world(app)), "out of range"));
    n = ecs_sched_app_schedule_order(app, ECS_SCHED_ORDER_MAIN, order, 32);
    for (i = 0; i < n; i++) placed += strcmp(order[i], ECS_SCHED_REMOTE_LAST) == 0;
    assert_int_equal(placed, 1);
    {
        cJSON *response;
        char *text = ecs_sched_remote_handle(second, "{\"jsonrpc\": \"2.0\", \"method\": \"ecs_sched.record_trace\"}", 54);
        response = cJSON_Parse(text);
        assert_true(cJSON_IsNull(result_of(response)));   /* between frames: it starts at once */
        cJSON_Delete(response);
        ecs_sched_remote_free(text);
    }
    ecs_sched_remote_destroy(second);   /* the hook stays the first's */
    assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);
    ecs_sched_remote_destroy(first);
    assert_int_equal(ecs_sched_app_update(app), ECS_SCHED_OK);
    ecs_sched_app_destroy(app);
}

/* ---- creating a remote ---- */

static void test_create_refuses_a_description_out_of_range(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_remote_desc desc;
    int i;
    for (i = 0; i < 4; i++) {
        memset(&desc, 0, sizeof desc);
        desc.no_http = true;
        if (i == 0) desc.port = 65536;
        if (i == 1) desc.port = -2;
        if (i == 2) desc.requests_per_frame = -1;
        if (i == 3) desc.max_connections = -1;
        assert_null(ecs_sched_remote_create(r->world, &desc));
        assert_failed_with(r->world, &r->log, ECS_SCHED_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(ecs_sched_last_error(r->world), "out of range"));
    }
}

static void test_create_refuses_an_address_that_is_not_ip(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_remote_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.address = "localhost";
    desc.port = ECS_SCHED_REMOTE_ANY_PORT;
    assert_null(ecs_sched_remote_create(r->world, &desc));
    assert_failed_with(r->world, &r->log, ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_string_equal(ecs_sched_last_error(r->world), "remote_create: address 'localhost' is not an IPv4 or IPv6 "
                                                        "address (such as 127.0.0.1 or ::1)");
}

static void test_create_on_a_port_taken_fails_and_names_the_port(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_remote_desc desc;
    int32_t port = ecs_sched_remote_port(http_remote(r, NULL));
    char expected[96];
    memset(&desc, 0, sizeof desc);
    desc.port = port;
    assert_null(ecs_sched_remote_create(r->world, &desc));
    assert_failed_with(r->world, &r->log, ECS_SCHED_ERR_INVALID_ARGUMENT);
    snprintf(expected, sizeof expected, "remote_create: cannot listen on 127.0.0.1 port %d: ", (int)port);
    assert_memory_equal(ecs_sched_last_error(r->world), expected, strlen(expected));
    assert_int_equal(ecs_sched_remote_port(r->remote), port);   /* the first still serves */
}

static void test_a_remote_without_http_has_no_port(void **state) {
    remote_world *r = (remote_world *)*state;
    assert_int_equal(ecs_sched_remote_port(r->remote), 0);
    assert_int_equal(ecs_sched_remote_pending(r->remote), 0);
    assert_int_equal(ecs_sched_remote_poll(r->remote), 0);
}

static void test_an_ipv6_remote_names_its_server_in_brackets(void **state) {
    remote_world *r = (remote_world *)*state;
    ecs_sched_remote_desc desc;
    cJSON *response;
    char url[64];
    memset(&desc, 0, sizeof desc);
    desc.address = "::1";
    desc.port = ECS_SCHED_REMOTE_ANY_PORT;
    ecs_sched_remote_destroy(r->remote);
    r->remote = ecs_sched_remote_create(r->world, &desc);
    if (!r->remote) skip();   /* no IPv6 loopback here */
    response = call(r, "rpc.discover", "");
    snprintf(url, sizeof url, "[::1]:%d", (int)ecs_sched_remote_port(r->remote));
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(
                            result_of(response), "servers"), 0), "url")->valuestring, url);
    cJSON_Delete(response);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup_more, teardown)

int main(void) {
    const struct CMUnitTest tests[] = {
        T(test_a_request_with_a_field_twice_is_an_invalid_request),
        T(test_each_malformed_request_is_answered_with_its_reason),
        T(test_a_batch_answers_a_bad_member_with_its_error_beside_the_good_ones),
        T(test_a_null_id_is_left_out_of_the_response),
        T(test_an_empty_text_is_a_parse_error),
        T(test_a_request_over_the_limit_names_its_size_and_the_limit),
        T(test_read_only_names_the_method_it_refuses),
        T(test_params_that_are_not_an_object_are_invalid_params),
        T(test_missing_params_are_named_for_each_method_that_needs_them),
        T(test_an_entity_param_missing_or_not_a_number_is_invalid_params),
        T(test_a_component_list_of_the_wrong_shape_is_invalid_params),
        T(test_a_flag_that_is_not_a_bool_is_invalid_params),
        T(test_get_components_lenient_reports_an_undescribed_component_among_the_errors),
        T(test_get_components_strict_names_an_unknown_component),
        T(test_get_components_strict_names_a_component_the_entity_lacks),
        T(test_get_components_gives_every_target_of_a_relationship_kind),
        T(test_get_components_gives_a_sparse_component),
        T(test_get_components_writes_arrays_and_nested_members),
        T(test_get_components_watch_strict_gives_the_values_and_nothing_removed),
        T(test_get_components_watch_of_a_dead_entity_is_entity_not_found),
        T(test_query_without_params_gives_every_entity_without_values),
        T(test_query_of_the_wrong_shape_is_invalid_params),
        T(test_query_strict_names_an_unknown_filter_component),
        T(test_query_rows_give_each_component_once_and_leave_out_what_cannot_be_written),
        T(test_query_without_an_unknown_component_keeps_every_row),
        T(test_query_option_all_gives_sparse_components_and_relationship_targets),
        T(test_query_naming_the_prefab_tag_sees_prefabs),
        T(test_spawn_entity_of_no_components_spawns_an_empty_entity),
        T(test_spawn_entity_refuses_a_map_of_the_wrong_shape),
        T(test_a_tag_takes_true_null_or_an_empty_object_and_nothing_else),
        T(test_a_relationship_kind_has_no_value_to_insert),
        T(test_insert_components_of_an_empty_map_changes_nothing_and_succeeds),
        T(test_insert_components_missing_its_map_is_invalid_params),
        T(test_remove_components_refuses_an_unknown_name_or_a_kind_before_touching_the_entity),
        T(test_remove_components_of_one_not_present_still_removes_the_others),
        T(test_reparent_entities_refuses_bad_shapes_and_dead_entities),
        T(test_reparent_entities_without_a_parent_makes_them_roots),
        T(test_despawn_entity_takes_its_children_along),
        T(test_list_components_of_an_entity_names_its_sparse_ones_too),
        T(test_list_components_of_a_dead_entity_is_entity_not_found),
        T(test_mutate_components_writes_an_element_of_an_array_member),
        T(test_mutate_components_writes_a_member_of_a_nested_value),
        T(test_mutate_components_with_an_empty_path_replaces_the_whole_value),
        T(test_mutate_components_refuses_a_path_that_names_nothing),
        T(test_mutate_components_refuses_a_value_the_member_cannot_take),
        T(test_mutate_components_refuses_missing_fields),
        T(test_mutate_components_refuses_what_has_no_members_to_reach),
        T(test_mutate_components_of_an_undescribed_component_is_a_component_error),
        T(test_a_resource_is_named_by_a_string_of_a_known_type),
        T(test_a_resource_not_held_is_resource_not_present_for_each_method_that_reads_it),
        T(test_get_resources_of_a_tag_gives_an_empty_object),
        T(test_get_resources_of_an_undescribed_resource_is_a_resource_error),
        T(test_insert_resources_refuses_a_missing_or_unreadable_value),
        T(test_insert_resources_adds_one_not_held_yet),
        T(test_mutate_resources_refuses_a_bad_path_or_a_missing_value),
        T(test_mutate_resources_with_an_empty_path_replaces_the_value),
        T(test_trigger_event_at_an_entity_reaches_it_with_the_default_value),
        T(test_trigger_event_of_a_tag_carries_no_value),
        T(test_trigger_event_refuses_bad_params_and_no_observer_hears_it),
        T(test_write_message_without_a_value_sends_the_default_one),
        T(test_write_message_refuses_bad_params_and_sends_nothing),
        T(test_a_schedule_param_missing_or_unknown_is_refused_by_each_method),
        T(test_set_stats_and_set_stepping_need_enabled_as_a_bool),
        T(test_set_stats_switches_statistics_on_and_off),
        T(test_set_stepping_false_lets_the_schedule_run_freely_again),
        T(test_step_of_a_schedule_not_stepping_is_refused),
        T(test_set_step_behaviour_takes_the_four_names_only),
        T(test_record_trace_refuses_frames_out_of_range_or_not_whole),
        T(test_record_trace_inside_a_run_without_an_app_is_refused),
        T(test_list_states_gives_null_for_a_machine_not_entered_yet),
        T(test_set_state_refuses_a_missing_name_or_an_unknown_machine),
        T(test_snapshots_are_kept_by_name_and_a_name_taken_again_is_replaced),
        T(test_snapshot_methods_need_a_name),
        T(test_query_accepts_null_data_and_filter_and_no_params_at_all),
        T(test_query_option_of_a_string_other_than_all_is_invalid_params),
        T(test_query_with_an_unknown_filter_component_matches_nothing),
        T(test_get_components_takes_a_null_strict_as_lenient),
        T(test_reparent_entities_with_a_null_parent_makes_them_roots),
        T(test_list_components_of_an_entity_without_any_is_empty),
        T(test_names_passes_over_entities_no_longer_alive),
        T(test_the_mark_of_a_base_is_no_component_of_the_protocol),
        T(test_changes_asked_from_a_system_beside_others_are_refused_with_the_worlds_reason),
        T(test_stepping_asked_while_its_schedule_runs_is_refused),
        T(test_a_schedule_with_a_cycle_is_refused_by_the_methods_that_build_it),
        T(test_a_world_without_schedules_or_states_lists_none),
        T(test_record_trace_in_a_world_without_schedules_starts_at_once),
        T(test_set_state_of_a_computed_state_is_refused),
        T(test_create_refuses_a_description_out_of_range),
        T(test_create_refuses_an_address_that_is_not_ip),
        T(test_create_on_a_port_taken_fails_and_names_the_port),
        T(test_a_remote_without_http_has_no_port),
        T(test_an_ipv6_remote_names_its_server_in_brackets),
        T(test_http_without_the_right_bearer_token_is_refused_with_401),
        T(test_http_get_of_index_html_serves_the_explorer_page),
        T(test_http_an_empty_post_is_answered_at_a_poll_as_a_parse_error),
        T(test_http_a_chunked_body_over_the_limit_is_refused_with_413),
        T(test_http_a_body_sent_in_pieces_is_answered_whole),
        T(test_http_answers_a_batch_a_malformed_request_and_a_watch_without_params_once),
        T(test_http_query_watch_of_a_bad_request_is_answered_with_its_error),
        T(test_http_watch_sends_an_error_once_when_its_entity_goes),
        T(test_http_a_watch_frame_larger_than_one_write_arrives_whole),
        T(test_http_a_connection_beyond_max_connections_waits_for_a_free_one),
        T(test_create_without_a_description_listens_on_bevys_port),
        T(test_http_a_watch_whose_client_left_is_dropped_at_a_poll),
        T(test_app_remote_in_a_schedule_not_made_yet_makes_it),
        T(test_app_add_remote_without_a_description_listens_on_bevys_port),
        T(test_app_add_remote_to_a_schedule_without_a_label_is_refused),
        T(test_app_remote_in_a_schedule_of_its_choosing_answers_there),
        T(test_app_destroying_one_of_two_remotes_in_a_schedule_leaves_the_other_answering),
        T(test_app_remotes_share_remote_last_and_the_first_keeps_the_frame_hook),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
