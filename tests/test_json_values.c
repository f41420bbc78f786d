/* Values alone as JSON, outside any file (the remote protocol's values, ECS_SCHED_REMOTE):
   an entity member is its handle, or null. A handle is read from a number up to 2^53 or a
   string of digits, and written as a number up to 15 digits (what cJSON writes exactly) and as
   a string of digits beyond; anything else is refused naming the method, the component and
   the member. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "world_fixture.h"

typedef struct { ecs_sched_entity who; int32_t ticks; } Target;
typedef struct { double kg; int32_t n; } Mass;

typedef struct values_world {
    captured_log log;
    ecs_sched_world *world;
    ecs_sched_remote *remote;
    ecs_sched_id target, mass;
    ecs_sched_entity e;
} values_world;

static int setup(void **state) {
    values_world *v = (values_world *)calloc(1, sizeof *v);
    ecs_sched_remote_desc desc;
    static const ecs_sched_member target[] = {ECS_SCHED_MEMBER(Target, who, ECS_SCHED_TYPE_ENTITY),
                                              ECS_SCHED_MEMBER(Target, ticks, ECS_SCHED_TYPE_I32)};
    static const ecs_sched_member mass[] = {ECS_SCHED_MEMBER(Mass, kg, ECS_SCHED_TYPE_F64),
                                            ECS_SCHED_MEMBER(Mass, n, ECS_SCHED_TYPE_I32)};
    v->world = new_world(&v->log);
    v->target = ECS_SCHED_COMPONENT(v->world, Target);
    v->mass = ECS_SCHED_COMPONENT(v->world, Mass);
    assert_int_equal(ecs_sched_describe(v->world, v->target, 2, target), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_describe(v->world, v->mass, 2, mass), ECS_SCHED_OK);
    v->e = ecs_sched_spawn(v->world);
    memset(&desc, 0, sizeof desc);
    desc.no_http = true;
    v->remote = ecs_sched_remote_create(v->world, &desc);
    assert_non_null(v->remote);
    *state = v;
    return 0;
}

static int teardown(void **state) {
    values_world *v = (values_world *)*state;
    ecs_sched_remote_destroy(v->remote);
    check_and_destroy(v->world);
    free(v);
    return 0;
}

/* The response to world.insert_components giving e's Target the members `members`, parsed
   (cJSON_Delete it). */
static cJSON *insert_target(values_world *v, const char *members) {
    char request[512], *text;
    cJSON *response;
    snprintf(request, sizeof request,
             "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"world.insert_components\", \"params\": "
             "{\"entity\": %llu, \"components\": {\"Target\": %s}}}",
             (unsigned long long)v->e, members);
    text = ecs_sched_remote_handle(v->remote, request, strlen(request));
    assert_non_null(text);
    response = cJSON_Parse(text);
    ecs_sched_remote_free(text);
    assert_non_null(response);
    return response;
}

static void inserted(values_world *v, const char *members) {
    cJSON *response = insert_target(v, members);
    if (!cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(response, "result"))) {
        char *text = cJSON_PrintUnformatted(response);
        fail_msg("%s: %s", members, text);
    }
    cJSON_Delete(response);
}

/* The insert is refused with `message`, e's Target as it was. */
static void refused(values_world *v, const char *members, const char *message) {
    cJSON *response = insert_target(v, members);
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(response, "error");
    const Target *before = (const Target *)ecs_sched_get(v->world, v->e, v->target);
    Target had;
    if (before) had = *before;
    assert_null(cJSON_GetObjectItemCaseSensitive(response, "result"));
    assert_true(cJSON_IsObject(error));
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(error, "message")->valuestring, message);
    if (before) assert_memory_equal(ecs_sched_get(v->world, v->e, v->target), &had, sizeof had);
    cJSON_Delete(response);
}

static const Target *target_of(values_world *v) {
    return (const Target *)get_present(v->world, v->e, v->target);
}

/* The JSON text world.get_components gives for e's Target, unformatted (free it). */
static char *got_target(values_world *v) {
    char request[256], *text, *out;
    cJSON *response;
    snprintf(request, sizeof request,
             "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"world.get_components\", \"params\": "
             "{\"entity\": %llu, \"components\": [\"Target\"], \"strict\": true}}",
             (unsigned long long)v->e);
    text = ecs_sched_remote_handle(v->remote, request, strlen(request));
    assert_non_null(text);
    response = cJSON_Parse(text);
    ecs_sched_remote_free(text);
    assert_non_null(response);
    out = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(response, "result"));
    cJSON_Delete(response);
    assert_non_null(out);
    return out;
}

static void an_entity_member_is_given_its_handle_as_a_number_or_null(void **state) {
    values_world *v = (values_world *)*state;
    char *text;
    inserted(v, "{\"who\": 4294967297, \"ticks\": 2}");
    assert_true(target_of(v)->who == UINT64_C(4294967297));
    assert_int_equal(target_of(v)->ticks, 2);
    text = got_target(v);
    assert_string_equal(text, "{\"Target\":{\"who\":4294967297,\"ticks\":2}}");
    cJSON_free(text);
    inserted(v, "{\"who\": null}");
    assert_true(target_of(v)->who == ECS_SCHED_NULL_ENTITY);
    text = got_target(v);
    assert_string_equal(text, "{\"Target\":{\"who\":null,\"ticks\":0}}");
    cJSON_free(text);
    inserted(v, "{\"who\": 9007199254740992}");   /* 2^53, the last a number holds exactly */
    assert_true(target_of(v)->who == UINT64_C(9007199254740992));
    text = got_target(v);   /* 16 digits: a string, which cJSON writes exactly */
    assert_string_equal(text, "{\"Target\":{\"who\":\"9007199254740992\",\"ticks\":0}}");
    cJSON_free(text);
    inserted(v, "{\"who\": 999999999999999}");
    text = got_target(v);
    assert_string_equal(text, "{\"Target\":{\"who\":999999999999999,\"ticks\":0}}");
    cJSON_free(text);
    inserted(v, "{\"who\": 1000000000000000}");
    text = got_target(v);
    assert_string_equal(text, "{\"Target\":{\"who\":\"1000000000000000\",\"ticks\":0}}");
    cJSON_free(text);
}

static void a_handle_past_2_to_the_53_is_given_and_written_as_a_string_of_digits(void **state) {
    values_world *v = (values_world *)*state;
    char *text;
    inserted(v, "{\"who\": \"18446744073709551615\"}");
    assert_true(target_of(v)->who == UINT64_MAX);
    text = got_target(v);
    assert_string_equal(text, "{\"Target\":{\"who\":\"18446744073709551615\",\"ticks\":0}}");
    cJSON_free(text);
    inserted(v, "{\"who\": \"9007199254740993\"}");
    assert_true(target_of(v)->who == UINT64_C(9007199254740993));
    text = got_target(v);
    assert_string_equal(text, "{\"Target\":{\"who\":\"9007199254740993\",\"ticks\":0}}");
    cJSON_free(text);
    inserted(v, "{\"who\": \"12\"}");   /* digits below 2^53 too */
    assert_true(target_of(v)->who == 12);
}

static void a_handle_that_is_no_whole_number_in_range_is_refused_naming_the_member(void **state) {
    values_world *v = (values_world *)*state;
    refused(v, "{\"who\": 1.5}", "world.insert_components: component 'Target': member 'who' "
                                 "(entity) cannot hold 1.5");
    refused(v, "{\"who\": -1}", "world.insert_components: component 'Target': member 'who' "
                                "(entity) cannot hold -1");
    refused(v, "{\"who\": 18014398509481984}", "world.insert_components: component 'Target': "
                                               "member 'who' (entity) cannot hold 18014398509481984");
    refused(v, "{\"who\": \"-1\"}", "world.insert_components: component 'Target': member 'who' "
                                    "(entity) cannot hold \"-1\"");
    refused(v, "{\"who\": \"12a\"}", "world.insert_components: component 'Target': member 'who' "
                                     "(entity) cannot hold \"12a\"");
    refused(v, "{\"who\": \"18446744073709551616\"}", "world.insert_components: component 'Target': "
                                                      "member 'who' (entity) cannot hold \"18446744073709551616\"");
    refused(v, "{\"who\": true}", "world.insert_components: component 'Target': member 'who' is "
                                  "entity, and is given a bool");
    refused(v, "{\"who\": [1]}", "world.insert_components: component 'Target': member 'who' is "
                                 "entity, and is given an array");
}

static void a_value_alone_that_is_not_an_object_is_refused(void **state) {
    values_world *v = (values_world *)*state;
    refused(v, "3", "world.insert_components: component 'Target': a value is an object of its members");
    refused(v, "{\"who\": 1, \"who\": 2}", "world.insert_components: component 'Target': key "
                                           "'who' is given twice (the keys of an object are unique)");
    refused(v, "{\"when\": 1}", "world.insert_components: component 'Target': unknown member "
                                "'when': 'Target' has no such member");
}

/* The result of a request, unformatted (free it). */
static char *result_text(values_world *v, const char *request) {
    char *text = ecs_sched_remote_handle(v->remote, request, strlen(request)), *out;
    cJSON *response;
    assert_non_null(text);
    response = cJSON_Parse(text);
    ecs_sched_remote_free(text);
    assert_non_null(response);
    out = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(response, "result"));
    cJSON_Delete(response);
    assert_non_null(out);
    return out;
}

static void a_double_is_written_with_the_digits_that_give_it_back_and_read_again(void **state) {
    values_world *v = (values_world *)*state;
    char request[512], *text;
    volatile double tenth = 0.1;
    double want = tenth + 0.2;
    const Mass *m;
    snprintf(request, sizeof request, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": "
             "\"world.insert_components\", \"params\": {\"entity\": %llu, \"components\": "
             "{\"Mass\": {\"kg\": 0.30000000000000004, \"n\": 1}}}}", (unsigned long long)v->e);
    text = result_text(v, request);
    assert_string_equal(text, "null");
    cJSON_free(text);
    snprintf(request, sizeof request, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": "
             "\"world.get_components\", \"params\": {\"entity\": %llu, \"components\": "
             "[\"Mass\"], \"strict\": true}}", (unsigned long long)v->e);
    text = ecs_sched_remote_handle(v->remote, request, strlen(request));   /* as written */
    assert_non_null(text);
    assert_contains(text, "{\"Mass\":{\"kg\":0.30000000000000004,\"n\":1}}");
    ecs_sched_remote_free(text);
    /* a member written by path: the others read back from the value written as JSON */
    snprintf(request, sizeof request, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": "
             "\"world.mutate_components\", \"params\": {\"entity\": %llu, \"component\": "
             "\"Mass\", \"path\": \"n\", \"value\": 3}}", (unsigned long long)v->e);
    text = result_text(v, request);
    assert_string_equal(text, "null");
    cJSON_free(text);
    m = (const Mass *)get_present(v->world, v->e, v->mass);
    assert_int_equal(m->n, 3);
    assert_memory_equal(&m->kg, &want, sizeof want);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(an_entity_member_is_given_its_handle_as_a_number_or_null, setup, teardown),
        cmocka_unit_test_setup_teardown(a_handle_past_2_to_the_53_is_given_and_written_as_a_string_of_digits, setup, teardown),
        cmocka_unit_test_setup_teardown(a_handle_that_is_no_whole_number_in_range_is_refused_naming_the_member, setup, teardown),
        cmocka_unit_test_setup_teardown(a_value_alone_that_is_not_an_object_is_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(a_double_is_written_with_the_digits_that_give_it_back_and_read_again, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
