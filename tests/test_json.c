/* JSON files (ECS_SCHED_JSON): prefab data read from JSON through reflection, nested prefab
   files and assets through hooks with a progress count, and entities written back to the
   same format; bad input named down to the file, entity, component and field. */
#define _POSIX_C_SOURCE 200809L   /* mkdtemp, rmdir: real files in a directory of their own */
#include "ecs_sched.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "world_fixture.h"

typedef enum { GAIT_WALK, GAIT_RUN } Gait;
typedef struct { float x, y; } Vec2;
typedef struct {
    Vec2 at;
    int32_t hp;
    uint8_t level;
    bool alive;
    char name[16];
    int32_t gait;
    Vec2 path[3];
    ecs_sched_entity target;
    uint64_t big;
    double speed;
} Unit;

typedef struct json_world {
    world_setup s;
    ecs_sched_id vec2, unit, tag;
} json_world;

static const ecs_sched_enum_value gaits[] = {{"WALK", GAIT_WALK}, {"RUN", GAIT_RUN}};

static void unit_ctor(void *dst, int32_t n, void *ctx) {
    Unit *u = (Unit *)dst;
    int32_t i;
    (void)ctx;
    memset(dst, 0, (size_t)n * sizeof(Unit));
    for (i = 0; i < n; i++) u[i].hp = 100;   /* the default a missing field keeps */
}

static void setup_json(json_world *j) {
    ecs_sched_component_desc d;
    ecs_sched_member vec2_fields[] = {ECS_SCHED_MEMBER(Vec2, x, ECS_SCHED_TYPE_F32),
                                      ECS_SCHED_MEMBER(Vec2, y, ECS_SCHED_TYPE_F32)};
    ecs_sched_member unit_fields[10];
    ecs_sched_member pos_fields[] = {ECS_SCHED_MEMBER(Position, x, ECS_SCHED_TYPE_F32),
                                     ECS_SCHED_MEMBER(Position, y, ECS_SCHED_TYPE_F32)};
    ecs_sched_member health_fields[] = {ECS_SCHED_MEMBER(Health, hp, ECS_SCHED_TYPE_I32)};
    setup_world(&j->s);
    j->vec2 = ECS_SCHED_COMPONENT(j->s.world, Vec2);
    memset(&d, 0, sizeof d);
    d.name = "Unit";
    d.size = sizeof(Unit);
    d.alignment = ECS_SCHED_ALIGNOF(Unit);
    d.hooks.ctor = unit_ctor;
    j->unit = ecs_sched_component_register(j->s.world, &d);
    j->tag = j->s.frozen;
    {
        ecs_sched_member f[] = {
                                ECS_SCHED_MEMBER_STRUCT(Unit, at, 0), ECS_SCHED_MEMBER(Unit, hp, ECS_SCHED_TYPE_I32),
                                ECS_SCHED_MEMBER(Unit, level, ECS_SCHED_TYPE_U8), ECS_SCHED_MEMBER(Unit, alive, ECS_SCHED_TYPE_BOOL),
                                ECS_SCHED_MEMBER(Unit, name, ECS_SCHED_TYPE_CHARS), ECS_SCHED_MEMBER_ENUM(Unit, gait, gaits, 2),
                                ECS_SCHED_MEMBER_STRUCT(Unit, path, 0), ECS_SCHED_MEMBER(Unit, target, ECS_SCHED_TYPE_ENTITY),
                                ECS_SCHED_MEMBER(Unit, big, ECS_SCHED_TYPE_U64), ECS_SCHED_MEMBER(Unit, speed, ECS_SCHED_TYPE_F64)};
        memcpy(unit_fields, f, sizeof f);
    }
    unit_fields[0].type = j->vec2;
    unit_fields[6].type = j->vec2;
    assert_int_equal(ecs_sched_describe(j->s.world, j->vec2, 2, vec2_fields), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_describe(j->s.world, j->unit, 10, unit_fields), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_describe(j->s.world, j->s.position, 2, pos_fields), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_describe(j->s.world, j->s.health, 1, health_fields), ECS_SCHED_OK);
}

static const char *ship_json =
    "{\"entities\": [\n"
    "  {\"name\": \"ship\", \"components\": {\"Position\": {\"x\": 1, \"y\": 2},\n"
    "     \"Unit\": {\"at\": {\"x\": 3}, \"level\": 7, \"alive\": true, \"name\": \"bob\",\n"
    "                \"gait\": \"RUN\", \"path\": [{\"x\": 1}, {\"y\": 2}], \"target\": 2,\n"
    "                \"big\": \"18446744073709551615\", \"speed\": 0.5}}},\n"
    "  {\"name\": \"engine\", \"parent\": 0, \"components\": {\"Health\": {\"hp\": 9}, \"Frozen\": true}},\n"
    "  {\"name\": \"turret\", \"parent\": 0}\n"
    "]}\n";

static void a_prefab_is_read_through_reflection_and_instantiated(void **state) {
    json_world j;
    ecs_sched_prefab_data *d;
    ecs_sched_entity made[3];
    const Unit *u;
    (void)state;
    setup_json(&j);
    d = ecs_sched_prefab_data_from_json(j.s.world, ship_json, NULL);
    assert_non_null(d);
    assert_int_equal(ecs_sched_prefab_data_count(d), 3);
    assert_int_equal(ecs_sched_prefab_data_instantiate(j.s.world, d, 0, made), ECS_SCHED_OK);
    u = (const Unit *)ecs_sched_get(j.s.world, made[0], j.unit);
    assert_non_null(u);
    assert_true(u->at.x > 2.5f && u->at.y < 0.5f);
    assert_int_equal(u->hp, 100);   /* missing: the default */
    assert_int_equal(u->level, 7);
    assert_true(u->alive);
    assert_string_equal(u->name, "bob");
    assert_int_equal(u->gait, GAIT_RUN);
    assert_true(u->path[0].x > 0.5f && u->path[1].y > 1.5f && u->path[2].x < 0.5f);
    assert_true(u->target == made[2]);   /* an index of the file, made an entity */
    assert_true(u->big == UINT64_MAX);
    assert_true(u->speed > 0.49 && u->speed < 0.51);
    assert_true(ecs_sched_parent_of(j.s.world, made[1]) == made[0]);
    assert_true(ecs_sched_has(j.s.world, made[1], j.tag));
    assert_int_equal(get_health(&j.s, made[1])->hp, 9);
    assert_true(ecs_sched_lookup_path(j.s.world, 0, "ship.turret", ".") == made[2]);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(j.s.world);
}

/* The load fails with `code`, and its message holds each of the strings given. */
static void expect_load_failure(json_world *j, const char *text, ecs_sched_result code, ...) {
    ecs_sched_json_desc desc;
    va_list args;
    const char *part;
    memset(&desc, 0, sizeof desc);
    desc.file = "ship.json";
    j->s.log.count = 0;
    assert_null(ecs_sched_prefab_data_from_json(j->s.world, text, &desc));
    if (j->s.log.count != 1) fail_msg("the failure was logged %d times", j->s.log.count);
    assert_failed_with(j->s.world, &j->s.log, code);
    va_start(args, code);
    while ((part = va_arg(args, const char *)) != NULL) {
        if (!strstr(ecs_sched_last_error(j->s.world), part)) {
            fail_msg("'%s' not in: %s", part, ecs_sched_last_error(j->s.world));
        }
    }
    va_end(args);
    assert_int_equal(ecs_sched_entity_count(j->s.world), 0);
}

/* A crew: entities of the file, as an array member. */
typedef struct { ecs_sched_entity members[3]; } Crew;

static ecs_sched_id describe_crew(json_world *j) {
    ecs_sched_member fields[] = {ECS_SCHED_MEMBER(Crew, members, ECS_SCHED_TYPE_ENTITY)};
    ecs_sched_id crew = ECS_SCHED_COMPONENT(j->s.world, Crew);
    assert_int_equal(ecs_sched_describe(j->s.world, crew, 1, fields), ECS_SCHED_OK);
    return crew;
}

static void an_array_of_entity_members_links_each_to_the_file_s_entities(void **state) {
    json_world j;
    ecs_sched_prefab_data *d;
    ecs_sched_entity made[3];
    const Crew *c;
    ecs_sched_id crew;
    (void)state;
    setup_json(&j);
    crew = describe_crew(&j);
    d = ecs_sched_prefab_data_from_json(
        j.s.world,
        "{\"entities\": [{\"name\": \"boat\", \"components\": {\"Crew\": {\"members\": [2, 1, null]}}},\n"
        "  {\"name\": \"cook\"}, {\"name\": \"captain\"}]}",
        NULL);
    assert_non_null(d);
    assert_int_equal(ecs_sched_prefab_data_instantiate(j.s.world, d, 0, made), ECS_SCHED_OK);
    c = (const Crew *)ecs_sched_get(j.s.world, made[0], crew);
    assert_non_null(c);
    assert_true(c->members[0] == made[2]);
    assert_true(c->members[1] == made[1]);
    assert_true(c->members[2] == ECS_SCHED_NULL_ENTITY);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(j.s.world);
}

static void an_entity_member_naming_an_index_past_the_file_is_refused(void **state) {
    json_world j;
    (void)state;
    setup_json(&j);
    describe_crew(&j);
    expect_load_failure(&j,
                        "{\"entities\": [{\"components\": {\"Unit\": {\"target\": 9}}}, {}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "ship.json", "'target' names entity 9",
                        "the file has 2", (const char *)NULL);
    expect_load_failure(&j,
                        "{\"entities\": [{\"components\": {\"Crew\": {\"members\": [1, 5]}}}, {}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "members", "names entity 5", "the file has 2",
                        (const char *)NULL);
    check_and_destroy(j.s.world);
}

static void malformed_json_is_refused_with_its_line(void **state) {
    json_world j;
    (void)state;
    setup_json(&j);
    expect_load_failure(&j, "{\"entities\": [\n  {\"name\": \"a\",,}\n]}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "ship.json", "line 2", (const char *)NULL);
    expect_load_failure(&j, "[1, 2]", ECS_SCHED_ERR_INVALID_ARGUMENT, "\"entities\"", (const char *)NULL);
    check_and_destroy(j.s.world);
}

static void an_unknown_component_is_named_with_its_entity(void **state) {
    json_world j;
    (void)state;
    setup_json(&j);
    expect_load_failure(&j, "{\"entities\": [{}, {\"components\": {\"Sprite\": {}}}]}",
                        ECS_SCHED_ERR_UNKNOWN_COMPONENT, "ship.json", "entity 1", "'Sprite'",
                        (const char *)NULL);
    check_and_destroy(j.s.world);
}

static void an_unknown_field_is_named_with_its_path(void **state) {
    json_world j;
    (void)state;
    setup_json(&j);
    expect_load_failure(&j, "{\"entities\": [{\"components\": {\"Unit\": {\"at\": {\"z\": 1}}}}]}",
                        ECS_SCHED_ERR_NOT_FOUND, "entity 0", "component 'Unit'", "at.z",
                        (const char *)NULL);
    check_and_destroy(j.s.world);
}

static void a_value_of_the_wrong_type_or_out_of_range_is_refused(void **state) {
    json_world j;
    (void)state;
    setup_json(&j);
    expect_load_failure(&j, "{\"entities\": [{\"components\": {\"Unit\": {\"hp\": \"ten\"}}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "'hp'", "i32", "a string", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"components\": {\"Unit\": {\"level\": 300}}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "level", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"components\": {\"Unit\": {\"gait\": \"FLY\"}}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "gait", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"components\": {\"Unit\": {\"path\": [{}, {}, {}, {}]}}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "path", "3", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"components\": {\"Frozen\": 3}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "'Frozen'", "true", (const char *)NULL);
    check_and_destroy(j.s.world);
}

static void a_parent_out_of_range_is_refused(void **state) {
    json_world j;
    (void)state;
    setup_json(&j);
    expect_load_failure(&j, "{\"entities\": [{}, {\"parent\": 5}]}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "entity 1", "parent", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"parent\": 0.5}]}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "parent", (const char *)NULL);
    check_and_destroy(j.s.world);
}

/* The load fails with `code`, and its message holds none of the strings given (the names of
   C functions a file's author never called). */
static void expect_message_without(json_world *j, ...) {
    va_list args;
    const char *part;
    va_start(args, j);
    while ((part = va_arg(args, const char *)) != NULL) {
        if (strstr(ecs_sched_last_error(j->s.world), part)) {
            fail_msg("'%s' in: %s", part, ecs_sched_last_error(j->s.world));
        }
    }
    va_end(args);
}

static void a_key_given_twice_is_refused_naming_the_file_entity_and_key(void **state) {
    json_world j;
    (void)state;
    setup_json(&j);
    expect_load_failure(&j, "{\"entities\": [{}, {\"components\": {\"Health\": {\"hp\": 1, \"hp\": 2}}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "ship.json", "entity 1",
                        "'components.Health.hp'", "twice", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"name\": \"a\", \"name\": \"b\"}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "ship.json", "entity 0", "'name'", "twice",
                        (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [], \"entities\": [{}]}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "ship.json", "'entities'", "twice", (const char *)NULL);
    check_and_destroy(j.s.world);
}

static void a_number_beyond_a_double_is_refused_naming_the_file_entity_and_key(void **state) {
    json_world j;
    (void)state;
    setup_json(&j);
    expect_load_failure(&j, "{\"entities\": [{\"components\": {\"Unit\": {\"speed\": 1e999}}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "ship.json", "entity 0",
                        "'components.Unit.speed'", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{}, {\"components\": {\"Unit\": {\"path\": [{\"x\": -1e400}]}}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "entity 1", "'components.Unit.path[0].x'",
                        (const char *)NULL);
    check_and_destroy(j.s.world);
}

static void an_integer_out_of_range_is_named_as_the_file_wrote_it(void **state) {
    json_world j;
    (void)state;
    setup_json(&j);
    expect_load_failure(&j, "{\"entities\": [{\"components\": {\"Unit\": {\"hp\": -2147483649}}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "ship.json", "'hp'", "-2147483649",
                        (const char *)NULL);
    expect_message_without(&j, "value_set", "e+09", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"components\": {\"Unit\": {\"level\": 256}}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "'level'", "u8", "256", (const char *)NULL);
    expect_message_without(&j, "value_set", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"components\": {\"Unit\": {\"gait\": \"FLY\"}}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "'gait'", "FLY", "WALK", (const char *)NULL);
    expect_message_without(&j, "value_set", (const char *)NULL);
    check_and_destroy(j.s.world);
}

static void members_are_read_in_any_order_and_missing_ones_keep_their_default(void **state) {
    json_world j;
    ecs_sched_prefab_data *d;
    const Unit *u;
    const Position *p;
    (void)state;
    setup_json(&j);
    d = ecs_sched_prefab_data_from_json(j.s.world,
        "{\"entities\": [{\"components\": {"
        "\"Unit\": {\"speed\": 0.25, \"gait\": \"RUN\", \"level\": 3, \"at\": {\"y\": 4, \"x\": 5}},"
        "\"Position\": {\"y\": 2, \"x\": 1}}},"
        " {\"components\": {\"Position\": {\"y\": 7}, \"Unit\": {\"at\": {\"x\": 6}, \"level\": 9}}}]}",
        NULL);
    assert_non_null(d);
    u = (const Unit *)ecs_sched_prefab_data_get(d, 0, j.unit);
    p = (const Position *)ecs_sched_prefab_data_get(d, 0, j.s.position);
    assert_non_null(u);
    assert_non_null(p);
    assert_true(u->speed > 0.24 && u->speed < 0.26);
    assert_int_equal(u->gait, GAIT_RUN);
    assert_int_equal(u->level, 3);
    assert_true(u->at.x > 4.9f && u->at.x < 5.1f && u->at.y > 3.9f && u->at.y < 4.1f);
    assert_int_equal(u->hp, 100);   /* missing: the default */
    assert_true(p->x > 0.9f && p->x < 1.1f && p->y > 1.9f && p->y < 2.1f);
    u = (const Unit *)ecs_sched_prefab_data_get(d, 1, j.unit);
    p = (const Position *)ecs_sched_prefab_data_get(d, 1, j.s.position);
    assert_non_null(u);
    assert_non_null(p);
    assert_true(u->at.x > 5.9f && u->at.x < 6.1f);
    assert_true(u->at.y > -0.1f && u->at.y < 0.1f);   /* missing in a nested value too */
    assert_int_equal(u->level, 9);
    assert_int_equal(u->gait, GAIT_WALK);
    assert_true(p->x > -0.1f && p->x < 0.1f && p->y > 6.9f && p->y < 7.1f);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(j.s.world);
}

static void an_unknown_member_after_known_ones_is_named_with_its_path(void **state) {
    json_world j;
    (void)state;
    setup_json(&j);
    expect_load_failure(&j, "{\"entities\": [{\"components\": {\"Unit\": {\"hp\": 1, \"at\": "
                            "{\"y\": 1, \"x\": 2, \"w\": 3}}}}]}",
                        ECS_SCHED_ERR_NOT_FOUND, "entity 0", "component 'Unit'", "'at.w'",
                        "'Vec2' has no such member", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{}, {\"components\": {\"Position\": {\"y\": 1, \"x\": 2, "
                            "\"y2\": 3}}}]}",
                        ECS_SCHED_ERR_NOT_FOUND, "entity 1", "'y2'", (const char *)NULL);
    check_and_destroy(j.s.world);
}

/* A type with one member whose name is longer than the paths a message shows. */
typedef struct { float value; } Far;

static void a_member_whose_path_is_longer_than_a_message_shows_is_read(void **state) {
    json_world j;
    ecs_sched_id far;
    char name[301], text[512];
    ecs_sched_member member = ECS_SCHED_MEMBER(Far, value, ECS_SCHED_TYPE_F32);
    ecs_sched_prefab_data *d;
    const Far *value;
    (void)state;
    setup_json(&j);
    memset(name, 'n', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    member.name = name;
    far = ECS_SCHED_COMPONENT(j.s.world, Far);
    assert_int_equal(ecs_sched_describe(j.s.world, far, 1, &member), ECS_SCHED_OK);
    snprintf(text, sizeof text, "{\"entities\": [{\"components\": {\"Far\": {\"%s\": 2.5}}}]}", name);
    d = ecs_sched_prefab_data_from_json(j.s.world, text, NULL);
    if (!d) fail_msg("%s", ecs_sched_last_error(j.s.world));
    value = (const Far *)ecs_sched_prefab_data_get(d, 0, far);
    assert_non_null(value);
    assert_true(value->value > 2.4f && value->value < 2.6f);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(j.s.world);
}

/* A system loading the text in its user data. */
static void load_in_a_system(ecs_sched_system_ctx *ctx) {
    ecs_sched_json_desc desc;
    ecs_sched_prefab_data *d;
    memset(&desc, 0, sizeof desc);
    desc.file = "level.json";
    d = ecs_sched_prefab_data_from_json(ecs_sched_ctx_world(ctx), (const char *)ecs_sched_ctx_user_data(ctx),
                                        &desc);
    ecs_sched_prefab_data_free(d);
}

static void a_load_failing_inside_a_system_fails_it_with_the_files_message(void **state) {
    json_world j;
    ecs_sched_system_desc system;
    (void)state;
    setup_json(&j);
    memset(&system, 0, sizeof system);
    system.name = "loader";
    system.fn = load_in_a_system;
    system.exclusive = true;
    system.user_data = (void *)"{\"entities\": [{\"components\": {\"Unit\": {\"level\": 300}}}]}";
    assert_int_equal(ecs_sched_add_system(j.s.world, "Update", &system), ECS_SCHED_OK);
    assert_int_not_equal(ecs_sched_run_schedule(j.s.world, "Update"), ECS_SCHED_OK);
    if (!strstr(ecs_sched_last_error(j.s.world), "system 'loader'") ||
        !strstr(ecs_sched_last_error(j.s.world), "json 'level.json': entity 0, component 'Unit'") ||
        !strstr(ecs_sched_last_error(j.s.world), "'level' (u8) cannot hold 300")) {
        fail_msg("not the file's message: %s", ecs_sched_last_error(j.s.world));
    }
    expect_message_without(&j, "value_set", (const char *)NULL);
    check_and_destroy(j.s.world);
}

/* More tags than an entity holds, on entity 0, then a key given twice on entity 1: the file's
   check names the key, wherever the reading would have stopped first. */
static void a_load_inside_a_system_fails_it_with_the_checks_message_first(void **state) {
    json_world j;
    ecs_sched_system_desc system;
    static char text[16384];
    size_t used;
    int i;
    (void)state;
    setup_json(&j);
    used = (size_t)snprintf(text, sizeof text, "{\"entities\": [{\"components\": {");
    for (i = 0; i <= 256; i++) {
        ecs_sched_component_desc tag;
        char name[16];
        snprintf(name, sizeof name, "T%d", i);
        memset(&tag, 0, sizeof tag);
        tag.name = name;
        assert_true(ecs_sched_component_register(j.s.world, &tag) != 0);
        used += (size_t)snprintf(text + used, sizeof text - used, "%s\"%s\": true", i ? ", " : "", name);
    }
    snprintf(text + used, sizeof text - used, "}}, {\"name\": \"a\", \"name\": \"b\"}]}");
    memset(&system, 0, sizeof system);
    system.name = "loader";
    system.fn = load_in_a_system;
    system.exclusive = true;
    system.user_data = text;
    assert_int_equal(ecs_sched_add_system(j.s.world, "Update", &system), ECS_SCHED_OK);
    assert_int_not_equal(ecs_sched_run_schedule(j.s.world, "Update"), ECS_SCHED_OK);
    if (!strstr(ecs_sched_last_error(j.s.world), "system 'loader'") ||
        !strstr(ecs_sched_last_error(j.s.world), "entity 1: key 'name' is given twice")) {
        fail_msg("not the check's message: %s", ecs_sched_last_error(j.s.world));
    }
    expect_message_without(&j, "components already", (const char *)NULL);
    check_and_destroy(j.s.world);
}

static void a_parent_given_under_relations_is_refused_naming_the_parent_key(void **state) {
    json_world j;
    (void)state;
    setup_json(&j);
    expect_load_failure(&j, "{\"entities\": [{}, {\"relations\": {\"ecs_sched.ChildOf\": [0]}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "ship.json", "entity 1", "\"parent\"",
                        (const char *)NULL);
    expect_message_without(&j, "ecs_sched_", "prefab_data", (const char *)NULL);
    check_and_destroy(j.s.world);
}

static void a_parent_cycle_is_refused_when_instantiated(void **state) {
    json_world j;
    ecs_sched_prefab_data *d;
    (void)state;
    setup_json(&j);
    d = ecs_sched_prefab_data_from_json(j.s.world, "{\"entities\": [{}, {\"parent\": 2}, {\"parent\": 1}]}", NULL);
    assert_non_null(d);
    assert_int_equal(ecs_sched_prefab_data_instantiate(j.s.world, d, 0, NULL), ECS_SCHED_ERR_RELATION_CYCLE);
    assert_int_equal(ecs_sched_entity_count(j.s.world), 0);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(j.s.world);
}

/* Files in memory, for the read_file hook; it keeps the paths it was asked for, and the
   files naming them. */
typedef struct file_set {
    const char *names[4];
    const char *texts[4];
    int reads;
    char asked[4][64], asked_from[4][64];
    int asks;
} file_set;

static char *read_from_set(const char *path, const char *from, void *user) {
    file_set *files = (file_set *)user;
    int i;
    if (files->asks < 4) {
        snprintf(files->asked[files->asks], sizeof files->asked[0], "%s", path);
        snprintf(files->asked_from[files->asks], sizeof files->asked_from[0], "%s", from ? from : "(none)");
        files->asks++;
    }
    for (i = 0; i < 4 && files->names[i]; i++) {
        if (strcmp(files->names[i], path) == 0) {
            char *copy = (char *)malloc(strlen(files->texts[i]) + 1);
            strcpy(copy, files->texts[i]);
            files->reads++;
            return copy;
        }
    }
    return NULL;
}

static void a_nested_prefab_is_read_from_the_directory_of_the_file_naming_it(void **state) {
    json_world j;
    file_set files;
    ecs_sched_json_desc desc;
    ecs_sched_prefab_data *d;
    ecs_sched_entity made[4];
    (void)state;
    setup_json(&j);
    memset(&files, 0, sizeof files);
    files.names[0] = "data/ship.json";
    files.texts[0] = "{\"entities\": [{\"name\": \"ship\"}, {\"parent\": 0, \"prefab\": \"parts/hull.json\"}]}";
    files.names[1] = "data/parts/hull.json";
    files.texts[1] = "{\"entities\": [{\"name\": \"hull\", \"prefab\": \"armor.json\"}]}";
    files.names[2] = "data/parts/armor.json";
    files.texts[2] = "{\"entities\": [{\"components\": {\"Health\": {\"hp\": 7}}}]}";
    memset(&desc, 0, sizeof desc);
    desc.read_file = read_from_set;
    desc.user = &files;
    d = ecs_sched_prefab_data_load(j.s.world, "data/ship.json", &desc);
    if (!d) fail_msg("%s", ecs_sched_last_error(j.s.world));
    assert_int_equal(files.asks, 3);
    assert_string_equal(files.asked[0], "data/ship.json");
    assert_string_equal(files.asked_from[0], "(none)");
    assert_string_equal(files.asked[1], "data/parts/hull.json");
    assert_string_equal(files.asked_from[1], "data/ship.json");
    assert_string_equal(files.asked[2], "data/parts/armor.json");
    assert_string_equal(files.asked_from[2], "data/parts/hull.json");
    assert_int_equal(ecs_sched_prefab_data_instantiate(j.s.world, d, 0, made), ECS_SCHED_OK);
    assert_int_equal(get_health(&j.s, ecs_sched_lookup_path(j.s.world, 0, "ship.hull", NULL))->hp, 7);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(j.s.world);
}

/* A directory of its own with files in it, removed by remove_files. */
typedef struct real_files {
    char directory[64];
    char paths[4][128];
    int count;
} real_files;

static const char *write_file(real_files *r, const char *name, const char *text) {
    char *path = r->paths[r->count++], made[sizeof r->paths[0]];
    FILE *f;
    snprintf(made, sizeof made, "%s/%s", r->directory, name);
    memcpy(path, made, sizeof made);
    f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void make_directory(real_files *r) {
    memset(r, 0, sizeof *r);
    snprintf(r->directory, sizeof r->directory, "/tmp/ecs_sched_json_XXXXXX");
    assert_non_null(mkdtemp(r->directory));
}

static void remove_files(real_files *r) {
    int i;
    for (i = 0; i < r->count; i++) remove(r->paths[i]);
    rmdir(r->directory);
}

static void a_nested_prefab_file_is_found_beside_the_file_naming_it(void **state) {
    json_world j;
    real_files r;
    ecs_sched_prefab_data *d;
    const char *ship;
    ecs_sched_entity made[4];
    (void)state;
    setup_json(&j);
    make_directory(&r);
    ship = write_file(&r, "ship.json", "{\"entities\": [{\"name\": \"ship\"}, "
                                       "{\"name\": \"turret\", \"parent\": 0, \"prefab\": \"turret.json\"}]}");
    write_file(&r, "turret.json", "{\"entities\": [{\"components\": {\"Health\": {\"hp\": 5}}}]}");
    d = ecs_sched_prefab_data_load(j.s.world, ship, NULL);
    remove_files(&r);
    if (!d) fail_msg("%s", ecs_sched_last_error(j.s.world));
    assert_int_equal(ecs_sched_prefab_data_instantiate(j.s.world, d, 0, made), ECS_SCHED_OK);
    assert_int_equal(get_health(&j.s, ecs_sched_lookup_path(j.s.world, 0, "ship.turret", NULL))->hp, 5);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(j.s.world);
}

static void a_prefab_file_that_cannot_be_read_is_named_with_the_path_tried_and_the_reason(void **state) {
    json_world j;
    real_files r;
    const char *ship;
    char tried[160], none[160];
    (void)state;
    setup_json(&j);
    make_directory(&r);
    ship = write_file(&r, "ship.json", "{\"entities\": [{\"prefab\": \"missing.json\"}]}");
    snprintf(tried, sizeof tried, "'%s/missing.json'", r.directory);
    snprintf(none, sizeof none, "%s/none.json", r.directory);
    assert_null(ecs_sched_prefab_data_load(j.s.world, ship, NULL));
    assert_failed_with(j.s.world, &j.s.log, ECS_SCHED_ERR_NOT_FOUND);
    assert_contains(ecs_sched_last_error(j.s.world), ship);
    assert_contains(ecs_sched_last_error(j.s.world), "'missing.json'");
    assert_contains(ecs_sched_last_error(j.s.world), tried);
    assert_contains(ecs_sched_last_error(j.s.world), strerror(ENOENT));
    assert_null(ecs_sched_prefab_data_load(j.s.world, none, NULL));
    assert_failed_with(j.s.world, &j.s.log, ECS_SCHED_ERR_NOT_FOUND);
    assert_contains(ecs_sched_last_error(j.s.world), none);
    assert_contains(ecs_sched_last_error(j.s.world), strerror(ENOENT));
    remove_files(&r);
    check_and_destroy(j.s.world);
}

static void a_nested_prefab_merges_into_its_entry_and_is_counted(void **state) {
    json_world j;
    file_set files;
    ecs_sched_json_desc desc;
    ecs_sched_progress progress;
    ecs_sched_prefab_data *d;
    ecs_sched_entity made[8];
    ecs_sched_entity turret, barrel;
    (void)state;
    setup_json(&j);
    memset(&files, 0, sizeof files);
    files.names[0] = "turret.json";
    files.texts[0] = "{\"entities\": [{\"components\": {\"Health\": {\"hp\": 3}, \"Position\": {\"x\": 4}}},"
                     " {\"name\": \"barrel\", \"components\": {\"Frozen\": true}}]}";
    memset(&desc, 0, sizeof desc);
    memset(&progress, 0, sizeof progress);
    desc.file = "ship.json";
    desc.read_file = read_from_set;
    desc.user = &files;
    desc.progress = &progress;
    d = ecs_sched_prefab_data_from_json(j.s.world,
        "{\"entities\": [{\"name\": \"ship\"}, {\"name\": \"turret\", \"parent\": 0, "
        "\"prefab\": \"turret.json\", \"components\": {\"Health\": {\"hp\": 30}}}]}", &desc);
    assert_non_null(d);
    assert_int_equal(files.reads, 1);
    assert_int_equal(progress.done, 1);
    assert_true(ecs_sched_progress_complete(&progress));
    assert_int_equal(ecs_sched_prefab_data_count(d), 3);
    assert_int_equal(ecs_sched_prefab_data_instantiate(j.s.world, d, 0, made), ECS_SCHED_OK);
    turret = ecs_sched_lookup_path(j.s.world, 0, "ship.turret", ".");
    barrel = ecs_sched_lookup_path(j.s.world, 0, "ship.turret.barrel", ".");
    assert_true(turret && barrel);
    assert_int_equal(get_health(&j.s, turret)->hp, 30);        /* the entry's own value wins */
    assert_true(get_position(&j.s, turret)->x > 3.5f);          /* the nested one's stays */
    assert_true(ecs_sched_has(j.s.world, barrel, j.tag));
    ecs_sched_prefab_data_free(d);
    check_and_destroy(j.s.world);
}

static void a_prefab_that_includes_itself_is_refused(void **state) {
    json_world j;
    file_set files;
    ecs_sched_json_desc desc;
    ecs_sched_progress progress;
    (void)state;
    setup_json(&j);
    memset(&files, 0, sizeof files);
    files.names[0] = "a.json";
    files.texts[0] = "{\"entities\": [{\"prefab\": \"b.json\"}]}";
    files.names[1] = "b.json";
    files.texts[1] = "{\"entities\": [{\"prefab\": \"a.json\"}]}";
    memset(&desc, 0, sizeof desc);
    memset(&progress, 0, sizeof progress);
    desc.read_file = read_from_set;
    desc.user = &files;
    desc.progress = &progress;
    assert_null(ecs_sched_prefab_data_load(j.s.world, "a.json", &desc));
    assert_failed_with(j.s.world, &j.s.log, ECS_SCHED_ERR_RELATION_CYCLE);
    assert_non_null(strstr(ecs_sched_last_error(j.s.world), "'a.json' includes itself"));
    assert_false(ecs_sched_progress_complete(&progress));
    assert_null(ecs_sched_prefab_data_load(j.s.world, "missing.json", &desc));
    assert_failed_with(j.s.world, &j.s.log, ECS_SCHED_ERR_NOT_FOUND);
    check_and_destroy(j.s.world);
}

static ecs_sched_asset_status load_by_name(ecs_sched_asset_request *request, void *user) {
    (void)user;
    if (strcmp(request->path, "broken.png") == 0) return ECS_SCHED_ASSET_FAILED;
    request->handle = strlen(request->path);
    return strcmp(request->path, "slow.png") == 0 ? ECS_SCHED_ASSET_LOADING : ECS_SCHED_ASSET_DONE;
}

static void assets_come_from_the_loader_and_are_counted(void **state) {
    json_world j;
    ecs_sched_json_desc desc;
    ecs_sched_progress progress;
    ecs_sched_prefab_data *d;
    const Health *h;
    (void)state;
    setup_json(&j);
    memset(&desc, 0, sizeof desc);
    memset(&progress, 0, sizeof progress);
    desc.load_asset = load_by_name;
    desc.progress = &progress;
    d = ecs_sched_prefab_data_from_json(j.s.world,
        "{\"entities\": [{\"components\": {\"Health\": {\"hp\": {\"asset\": \"ship.png\"}}}},"
        " {\"components\": {\"Health\": {\"hp\": {\"asset\": \"slow.png\"}}}}]}", &desc);
    assert_non_null(d);
    h = (const Health *)ecs_sched_prefab_data_get(d, 0, j.s.health);
    assert_int_equal(h->hp, 8);   /* strlen("ship.png") */
    assert_int_equal(progress.done, 1);
    assert_int_equal(progress.loading, 1);
    assert_false(ecs_sched_progress_complete(&progress));
    ecs_sched_progress_finish(&progress, true);
    assert_true(ecs_sched_progress_complete(&progress));
    ecs_sched_prefab_data_free(d);
    d = ecs_sched_prefab_data_from_json(j.s.world,
        "{\"entities\": [{\"components\": {\"Health\": {\"hp\": {\"asset\": \"broken.png\"}}}}]}", &desc);
    assert_non_null(d);
    assert_int_equal(progress.failed, 1);
    assert_false(ecs_sched_progress_complete(&progress));
    ecs_sched_prefab_data_free(d);
    desc.load_asset = NULL;
    expect_load_failure(&j, "{\"entities\": [{\"components\": {\"Health\": {\"hp\": {\"asset\": \"a.png\"}}}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "'a.png'", "load_asset", (const char *)NULL);
    check_and_destroy(j.s.world);
}

/* Every entity of `a` has its counterpart in `b` at the same place of a depth-first walk from
   the roots, with the same name, components and values. */
static void the_whole_file_is_checked_before_any_hook_is_asked(void **state) {
    json_world j;
    ecs_sched_json_desc desc;
    ecs_sched_progress progress;
    ecs_sched_prefab_data *d;
    file_set files;
    (void)state;
    setup_json(&j);
    memset(&files, 0, sizeof files);
    files.names[0] = "part.json";
    files.texts[0] = "{\"entities\": [{}]}";
    memset(&desc, 0, sizeof desc);
    memset(&progress, 0, sizeof progress);
    desc.load_asset = load_by_name;
    desc.read_file = read_from_set;
    desc.user = &files;
    desc.progress = &progress;
    assert_null(ecs_sched_prefab_data_from_json(j.s.world,
        "{\"entities\": [{\"prefab\": \"part.json\", \"components\": {\"Health\": {\"hp\": "
        "{\"asset\": \"ship.png\"}}}}, {\"components\": {\"Health\": {\"hp\": 1, \"hp\": 2}}}]}",
        &desc));
    assert_non_null(strstr(ecs_sched_last_error(j.s.world), "entity 1: key 'components.Health.hp' is given twice"));
    assert_int_equal(files.asks, 0);
    assert_int_equal(progress.loading + progress.done + progress.failed, 0);
    d = ecs_sched_prefab_data_from_json(j.s.world, "{\"entities\": [{\"components\": "
        "{\"Health\": {\"hp\": {\"asset\": \"ship.png\"}}}}, {\"prefab\": \"part.json\"}]}", &desc);
    assert_non_null(d);
    ecs_sched_prefab_data_free(d);
    assert_int_equal(files.asks, 1);
    assert_int_equal(progress.done, 2);   /* the asset, then the nested file */
    check_and_destroy(j.s.world);
}

static void assert_same_entities(json_world *ja, json_world *jb, ecs_sched_entity a, ecs_sched_entity b) {
    static const char *const none = "";
    ecs_sched_id ids[5];
    const ecs_sched_entity *ca, *cb;
    int32_t na, nb, i;
    const char *name_a = ecs_sched_name(ja->s.world, a), *name_b = ecs_sched_name(jb->s.world, b);
    ids[0] = ja->s.position;
    ids[1] = ja->s.health;
    ids[2] = ja->unit;
    ids[3] = ja->tag;
    ids[4] = ecs_sched_prefab_tag(ja->s.world);
    assert_string_equal(name_a ? name_a : none, name_b ? name_b : none);
    for (i = 0; i < 5; i++) {
        const void *va, *vb;
        assert_int_equal(ecs_sched_owns(ja->s.world, a, ids[i]), ecs_sched_owns(jb->s.world, b, ids[i]));
        if (!ecs_sched_owns(ja->s.world, a, ids[i]) || i >= 3) continue;
        va = ecs_sched_get(ja->s.world, a, ids[i]);
        vb = ecs_sched_get(jb->s.world, b, ids[i]);
        if (ids[i] == ja->unit) {   /* entity handles differ: compare what they name */
            Unit ua = *(const Unit *)va, ub = *(const Unit *)vb;
            assert_string_equal(ua.target ? ecs_sched_name(ja->s.world, ua.target) : none,
                                ub.target ? ecs_sched_name(jb->s.world, ub.target) : none);
            ua.target = ub.target = 0;
            assert_int_equal(ecs_sched_value_compare(ja->s.world, ids[i], &ua, &ub), 0);
        } else {
            assert_int_equal(ecs_sched_value_compare(ja->s.world, ids[i], va, vb), 0);
        }
    }
    assert_int_equal(ecs_sched_target_count(ja->s.world, a, ecs_sched_is_a(ja->s.world)),
                     ecs_sched_target_count(jb->s.world, b, ecs_sched_is_a(jb->s.world)));
    ca = ecs_sched_children(ja->s.world, a, &na);
    cb = ecs_sched_children(jb->s.world, b, &nb);
    assert_int_equal(na, nb);
    for (i = 0; i < na; i++) assert_same_entities(ja, jb, ca[i], cb[i]);
}

static void a_saved_world_loads_back_equal(void **state) {
    json_world a, b;
    ecs_sched_prefab_data *d;
    ecs_sched_entity made[3], prefab, instance, copy_root;
    char *text;
    Unit extra;
    (void)state;
    setup_json(&a);
    setup_json(&b);
    d = ecs_sched_prefab_data_from_json(a.s.world, ship_json, NULL);
    assert_int_equal(ecs_sched_prefab_data_instantiate(a.s.world, d, 0, made), ECS_SCHED_OK);
    ecs_sched_prefab_data_free(d);
    prefab = made[1];
    assert_int_equal(ecs_sched_insert(a.s.world, prefab, ecs_sched_prefab_tag(a.s.world), NULL), ECS_SCHED_OK);
    instance = ecs_sched_instantiate(a.s.world, prefab);
    assert_int_equal(ecs_sched_set_name(a.s.world, instance, "copy"), ECS_SCHED_OK);
    memset(&extra, 0, sizeof extra);
    extra.speed = NAN;
    extra.big = 42;
    assert_int_equal(ecs_sched_insert(a.s.world, instance, a.unit, &extra), ECS_SCHED_OK);
    text = ecs_sched_json_save(a.s.world, 0, NULL, true);
    assert_non_null(text);
    d = ecs_sched_prefab_data_from_json(b.s.world, text, NULL);
    if (!d) fail_msg("%s\n%s", ecs_sched_last_error(b.s.world), text);
    assert_int_equal(ecs_sched_prefab_data_instantiate(b.s.world, d, 0, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_entity_count(b.s.world), ecs_sched_entity_count(a.s.world));
    assert_same_entities(&a, &b, made[0], ecs_sched_lookup(b.s.world, 0, "ship"));
    copy_root = ecs_sched_lookup(b.s.world, 0, "copy");
    assert_same_entities(&a, &b, instance, copy_root);
    assert_true(ecs_sched_owner(b.s.world, copy_root, b.s.health) ==
                ecs_sched_lookup_path(b.s.world, 0, "ship.engine", "."));   /* still an instance */
    assert_true(isnan(((const Unit *)ecs_sched_get(b.s.world, copy_root, b.unit))->speed));
    ecs_sched_prefab_data_free(d);
    ecs_sched_json_free(text);
    check_and_destroy(a.s.world);
    check_and_destroy(b.s.world);
}

static void a_subtree_is_saved_alone(void **state) {
    json_world j;
    ecs_sched_prefab_data *d;
    ecs_sched_entity made[3];
    char *text;
    (void)state;
    setup_json(&j);
    d = ecs_sched_prefab_data_from_json(j.s.world, ship_json, NULL);
    assert_int_equal(ecs_sched_prefab_data_instantiate(j.s.world, d, 0, made), ECS_SCHED_OK);
    ecs_sched_prefab_data_free(d);
    text = ecs_sched_json_save(j.s.world, 1, &made[1], true);
    assert_non_null(text);
    d = ecs_sched_prefab_data_from_json(j.s.world, text, NULL);
    assert_non_null(d);
    assert_int_equal(ecs_sched_prefab_data_count(d), 1);
    assert_string_equal(ecs_sched_prefab_data_name(d, 0), "engine");
    assert_int_equal(ecs_sched_prefab_data_parent(d, 0), -1);   /* its parent was not written */
    ecs_sched_prefab_data_free(d);
    ecs_sched_json_free(text);
    check_and_destroy(j.s.world);
}

static void saving_refuses_what_it_cannot_write(void **state) {
    json_world j;
    ecs_sched_entity e, base, instance;
    Velocity v = {1.0f, 1.0f};
    (void)state;
    setup_json(&j);
    e = ecs_sched_spawn(j.s.world);
    assert_int_equal(ecs_sched_insert(j.s.world, e, j.s.velocity, &v), ECS_SCHED_OK);
    assert_null(ecs_sched_json_save(j.s.world, 0, NULL, true));
    assert_failed_with(j.s.world, &j.s.log, ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(j.s.world), "'Velocity' has no description"));
    assert_int_equal(ecs_sched_despawn(j.s.world, e), ECS_SCHED_OK);
    base = ecs_sched_spawn(j.s.world);
    instance = ecs_sched_instantiate(j.s.world, base);
    assert_null(ecs_sched_json_save(j.s.world, 1, &instance, false));
    assert_non_null(strstr(ecs_sched_last_error(j.s.world), "'ecs_sched.IsA'"));
    check_and_destroy(j.s.world);
}

/* ---- every kind of member, in a file ---- */

typedef enum { MOOD_CALM = 0, MOOD_ANGRY = 2 } Mood;
typedef struct {
    bool b;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    float f32;
    double f64;
    ecs_sched_entity e;
    char text[8];
    int8_t mood;
} Every;

static const ecs_sched_enum_value moods[] = {{"CALM", MOOD_CALM}, {"ANGRY", MOOD_ANGRY}};

static ecs_sched_id describe_every(json_world *j) {
    ecs_sched_id every = ECS_SCHED_COMPONENT(j->s.world, Every);
    ecs_sched_member f[] = {
        ECS_SCHED_MEMBER(Every, b, ECS_SCHED_TYPE_BOOL),    ECS_SCHED_MEMBER(Every, i8, ECS_SCHED_TYPE_I8),
        ECS_SCHED_MEMBER(Every, i16, ECS_SCHED_TYPE_I16),   ECS_SCHED_MEMBER(Every, i32, ECS_SCHED_TYPE_I32),
        ECS_SCHED_MEMBER(Every, i64, ECS_SCHED_TYPE_I64),   ECS_SCHED_MEMBER(Every, u8, ECS_SCHED_TYPE_U8),
        ECS_SCHED_MEMBER(Every, u16, ECS_SCHED_TYPE_U16),   ECS_SCHED_MEMBER(Every, u32, ECS_SCHED_TYPE_U32),
        ECS_SCHED_MEMBER(Every, u64, ECS_SCHED_TYPE_U64),   ECS_SCHED_MEMBER(Every, f32, ECS_SCHED_TYPE_F32),
        ECS_SCHED_MEMBER(Every, f64, ECS_SCHED_TYPE_F64),   ECS_SCHED_MEMBER(Every, e, ECS_SCHED_TYPE_ENTITY),
        ECS_SCHED_MEMBER(Every, text, ECS_SCHED_TYPE_CHARS), ECS_SCHED_MEMBER_ENUM(Every, mood, moods, 2),
    };
    assert_int_equal(ecs_sched_describe(j->s.world, every, 14, f), ECS_SCHED_OK);
    return every;
}

/* The text `value` given as the Every of a file's one entity, read; NULL when refused. */
static ecs_sched_prefab_data *load_every(json_world *j, const char *value) {
    char text[1024];
    snprintf(text, sizeof text, "{\"entities\": [{\"components\": {\"Every\": %s}}]}", value);
    return ecs_sched_prefab_data_from_json(j->s.world, text, NULL);
}

/* The same, expected to be refused with `code` and exactly `message` after the place. */
static void expect_every_refused(json_world *j, const char *value, ecs_sched_result code,
                                 const char *message) {
    char text[1024], want[512];
    ecs_sched_json_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.file = "every.json";
    snprintf(text, sizeof text, "{\"entities\": [{\"components\": {\"Every\": %s}}]}", value);
    j->s.log.count = 0;
    assert_null(ecs_sched_prefab_data_from_json(j->s.world, text, &desc));
    assert_int_equal(j->s.log.count, 1);
    assert_failed_with(j->s.world, &j->s.log, code);
    snprintf(want, sizeof want, "json 'every.json': entity 0, component 'Every': %s", message);
    assert_string_equal(ecs_sched_last_error(j->s.world), want);
}

static void every_member_kind_is_saved_as_its_json_text(void **state) {
    json_world j;
    ecs_sched_id every;
    ecs_sched_entity e, other;
    Every v;
    char *text;
    (void)state;
    setup_json(&j);
    every = describe_every(&j);
    e = ecs_sched_spawn(j.s.world);
    other = ecs_sched_spawn(j.s.world);
    memset(&v, 0, sizeof v);
    v.b = true;
    v.i8 = -8;
    v.i16 = -16;
    v.i32 = -32;
    v.i64 = -INT64_C(9007199254740993);   /* past 2^53: as a string */
    v.u8 = 8;
    v.u16 = 16;
    v.u32 = 32;
    v.u64 = UINT64_C(9007199254740993);
    v.f32 = (float)INFINITY;
    v.f64 = -(double)INFINITY;
    v.e = other;   /* not saved: dropped */
    strcpy(v.text, "hi");
    v.mood = 5;    /* not one of its names: its number */
    assert_int_equal(ecs_sched_insert(j.s.world, e, every, &v), ECS_SCHED_OK);
    text = ecs_sched_json_save(j.s.world, 1, &e, false);
    assert_non_null(text);
    assert_string_equal(text,
        "{\n\t\"entities\":\t[{\n\t\t\t\"components\":\t{\n\t\t\t\t\"Every\":\t{\n"
        "\t\t\t\t\t\"b\":\ttrue,\n\t\t\t\t\t\"i8\":\t-8,\n\t\t\t\t\t\"i16\":\t-16,\n"
        "\t\t\t\t\t\"i32\":\t-32,\n\t\t\t\t\t\"i64\":\t\"-9007199254740993\",\n"
        "\t\t\t\t\t\"u8\":\t8,\n\t\t\t\t\t\"u16\":\t16,\n\t\t\t\t\t\"u32\":\t32,\n"
        "\t\t\t\t\t\"u64\":\t\"9007199254740993\",\n\t\t\t\t\t\"f32\":\t\"inf\",\n"
        "\t\t\t\t\t\"f64\":\t\"-inf\",\n\t\t\t\t\t\"e\":\tnull,\n\t\t\t\t\t\"text\":\t\"hi\",\n"
        "\t\t\t\t\t\"mood\":\t5\n\t\t\t\t}\n\t\t\t}\n\t\t}]\n}");
    ecs_sched_json_free(text);
    check_and_destroy(j.s.world);
}

static void every_member_kind_loads_back_as_it_was_saved(void **state) {
    json_world a, b;
    ecs_sched_id every_a, every_b;
    ecs_sched_entity e, made[2];
    ecs_sched_prefab_data *d;
    Every v;
    const Every *back;
    char *text;
    (void)state;
    setup_json(&a);
    setup_json(&b);
    every_a = describe_every(&a);
    every_b = describe_every(&b);
    e = ecs_sched_spawn(a.s.world);
    memset(&v, 0, sizeof v);
    v.i8 = INT8_MIN;
    v.i16 = INT16_MIN;
    v.i32 = INT32_MIN;
    v.i64 = INT64_MAX;
    v.u8 = UINT8_MAX;
    v.u16 = UINT16_MAX;
    v.u32 = UINT32_MAX;
    v.u64 = UINT64_MAX;
    v.f32 = -(float)INFINITY;
    v.f64 = (double)INFINITY;
    v.e = e;   /* itself: its index in the file */
    strcpy(v.text, "seven!!");
    v.mood = MOOD_ANGRY;
    assert_int_equal(ecs_sched_insert(a.s.world, e, every_a, &v), ECS_SCHED_OK);
    text = ecs_sched_json_save(a.s.world, 1, &e, false);
    assert_non_null(text);
    assert_contains(text, "\"i64\":\t\"9223372036854775807\"");
    assert_contains(text, "\"e\":\t0");
    assert_contains(text, "\"mood\":\t\"ANGRY\"");
    d = ecs_sched_prefab_data_from_json(b.s.world, text, NULL);
    if (!d) fail_msg("%s\n%s", ecs_sched_last_error(b.s.world), text);
    assert_int_equal(ecs_sched_prefab_data_instantiate(b.s.world, d, 0, made), ECS_SCHED_OK);
    back = (const Every *)ecs_sched_get(b.s.world, made[0], every_b);
    assert_non_null(back);
    assert_true(back->e == made[0]);
    v.e = made[0];
    assert_int_equal(ecs_sched_value_compare(b.s.world, every_b, &v, back), 0);
    ecs_sched_prefab_data_free(d);
    ecs_sched_json_free(text);
    check_and_destroy(a.s.world);
    check_and_destroy(b.s.world);
}

static void integers_of_16_digits_and_more_load_back_as_they_were_saved(void **state) {
    json_world a, b;
    ecs_sched_id every_a, every_b;
    ecs_sched_entity e, made[1];
    ecs_sched_prefab_data *d;
    Every v;
    const Every *back;
    char *text;
    (void)state;
    setup_json(&a);
    setup_json(&b);
    every_a = describe_every(&a);
    every_b = describe_every(&b);
    e = ecs_sched_spawn(a.s.world);
    memset(&v, 0, sizeof v);
    v.i64 = -INT64_C(9007199254740991);   /* 2^53 - 1: a double holds it */
    v.u64 = UINT64_C(9007199254740991);
    assert_int_equal(ecs_sched_insert(a.s.world, e, every_a, &v), ECS_SCHED_OK);
    text = ecs_sched_json_save(a.s.world, 1, &e, false);
    assert_non_null(text);
    d = ecs_sched_prefab_data_from_json(b.s.world, text, NULL);
    assert_non_null(d);
    assert_int_equal(ecs_sched_prefab_data_instantiate(b.s.world, d, 0, made), ECS_SCHED_OK);
    back = (const Every *)ecs_sched_get(b.s.world, made[0], every_b);
    if (back->u64 != v.u64 || back->i64 != v.i64) {
        fail_msg("%lld %llu read back as %lld %llu from\n%s", (long long)v.i64,
                 (unsigned long long)v.u64, (long long)back->i64, (unsigned long long)back->u64, text);
    }
    ecs_sched_prefab_data_free(d);
    ecs_sched_json_free(text);
    check_and_destroy(a.s.world);
    check_and_destroy(b.s.world);
}

static void a_double_loads_back_to_the_same_bits(void **state) {
    json_world a, b;
    ecs_sched_id every_a, every_b;
    ecs_sched_entity e, made[1];
    ecs_sched_prefab_data *d;
    Every v;
    const Every *back;
    char *text;
    volatile double tenth = 0.1;
    (void)state;
    setup_json(&a);
    setup_json(&b);
    every_a = describe_every(&a);
    every_b = describe_every(&b);
    e = ecs_sched_spawn(a.s.world);
    memset(&v, 0, sizeof v);
    v.f64 = tenth + 0.2;   /* 0.30000000000000004, one step above 0.3 */
    v.f32 = 0.1f;
    assert_int_equal(ecs_sched_insert(a.s.world, e, every_a, &v), ECS_SCHED_OK);
    text = ecs_sched_json_save(a.s.world, 1, &e, false);
    assert_non_null(text);
    assert_contains(text, "\"f64\":\t0.30000000000000004,");
    d = ecs_sched_prefab_data_from_json(b.s.world, text, NULL);
    assert_non_null(d);
    assert_int_equal(ecs_sched_prefab_data_instantiate(b.s.world, d, 0, made), ECS_SCHED_OK);
    back = (const Every *)ecs_sched_get(b.s.world, made[0], every_b);
    assert_memory_equal(&back->f64, &v.f64, sizeof v.f64);
    assert_memory_equal(&back->f32, &v.f32, sizeof v.f32);
    ecs_sched_prefab_data_free(d);
    ecs_sched_json_free(text);
    check_and_destroy(a.s.world);
    check_and_destroy(b.s.world);
}

static void a_64_bit_member_takes_its_whole_range_as_a_string_of_digits(void **state) {
    json_world j;
    ecs_sched_prefab_data *d;
    ecs_sched_id every;
    const Every *v;
    (void)state;
    setup_json(&j);
    every = describe_every(&j);
    d = load_every(&j, "{\"i64\": \"-9223372036854775808\", \"u64\": \"18446744073709551615\"}");
    assert_non_null(d);
    v = (const Every *)ecs_sched_prefab_data_get(d, 0, every);
    assert_true(v->i64 == INT64_MIN);
    assert_true(v->u64 == UINT64_MAX);
    ecs_sched_prefab_data_free(d);
    d = load_every(&j, "{\"i64\": \"9223372036854775807\", \"u64\": \"0\"}");
    if (!d) fail_msg("%s", ecs_sched_last_error(j.s.world));
    v = (const Every *)ecs_sched_prefab_data_get(d, 0, every);
    assert_true(v->i64 == INT64_MAX);
    assert_true(v->u64 == 0);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(j.s.world);
}

static void a_64_bit_member_given_text_that_is_no_integer_is_refused(void **state) {
    json_world j;
    (void)state;
    setup_json(&j);
    describe_every(&j);
    expect_every_refused(&j, "{\"i64\": \"12x\"}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                         "member 'i64' (i64) is given \"12x\", which is not an integer");
    expect_every_refused(&j, "{\"i64\": \"\"}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                         "member 'i64' (i64) is given \"\", which is not an integer");
    expect_every_refused(&j, "{\"i64\": \"9223372036854775808\"}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                         "member 'i64' (i64) is given \"9223372036854775808\", which is not an integer");
    expect_every_refused(&j, "{\"u64\": \"-1\"}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                         "member 'u64' (u64) is given \"-1\", which is not an integer");
    expect_every_refused(&j, "{\"u64\": \"18446744073709551616\"}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                         "member 'u64' (u64) is given \"18446744073709551616\", which is not an integer");
    expect_every_refused(&j, "{\"u64\": \"7 \"}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                         "member 'u64' (u64) is given \"7 \", which is not an integer");
    check_and_destroy(j.s.world);
}

static void each_member_kind_given_the_wrong_json_type_is_refused_naming_both(void **state) {
    json_world j;
    (void)state;
    setup_json(&j);
    describe_every(&j);
    expect_every_refused(&j, "{\"b\": 1}", ECS_SCHED_ERR_INVALID_ARGUMENT, "member 'b' is bool, and is given a number");
    expect_every_refused(&j, "{\"i8\": true}", ECS_SCHED_ERR_INVALID_ARGUMENT, "member 'i8' is i8, and is given a bool");
    expect_every_refused(&j, "{\"i16\": [1]}", ECS_SCHED_ERR_INVALID_ARGUMENT, "member 'i16' is i16, and is given an array");
    expect_every_refused(&j, "{\"i32\": null}", ECS_SCHED_ERR_INVALID_ARGUMENT, "member 'i32' is i32, and is given null");
    expect_every_refused(&j, "{\"i64\": false}", ECS_SCHED_ERR_INVALID_ARGUMENT, "member 'i64' is i64, and is given a bool");
    expect_every_refused(&j, "{\"u16\": \"2\"}", ECS_SCHED_ERR_INVALID_ARGUMENT, "member 'u16' is u16, and is given a string");
    expect_every_refused(&j, "{\"u64\": null}", ECS_SCHED_ERR_INVALID_ARGUMENT, "member 'u64' is u64, and is given null");
    expect_every_refused(&j, "{\"f32\": true}", ECS_SCHED_ERR_INVALID_ARGUMENT, "member 'f32' is f32, and is given a bool");
    expect_every_refused(&j, "{\"f64\": \"infinity\"}", ECS_SCHED_ERR_INVALID_ARGUMENT, "member 'f64' is f64, and is given a string");
    expect_every_refused(&j, "{\"e\": \"3\"}", ECS_SCHED_ERR_INVALID_ARGUMENT, "member 'e' is entity, and is given a string");
    expect_every_refused(&j, "{\"e\": [0]}", ECS_SCHED_ERR_INVALID_ARGUMENT, "member 'e' is entity, and is given an array");
    expect_every_refused(&j, "{\"text\": 3}", ECS_SCHED_ERR_INVALID_ARGUMENT, "member 'text' is chars, and is given a number");
    expect_every_refused(&j, "{\"mood\": true}", ECS_SCHED_ERR_INVALID_ARGUMENT, "member 'mood' is enum, and is given a bool");
    expect_every_refused(&j, "{\"mood\": null}", ECS_SCHED_ERR_INVALID_ARGUMENT, "member 'mood' is enum, and is given null");
    check_and_destroy(j.s.world);
}

static void a_value_a_member_cannot_hold_is_refused_naming_it_as_written(void **state) {
    json_world j;
    (void)state;
    setup_json(&j);
    describe_every(&j);
    expect_every_refused(&j, "{\"text\": \"eight ch\"}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                         "member 'text' holds text of 8 bytes with its terminating zero, and is given \"eight ch\"");
    expect_every_refused(&j, "{\"mood\": 1}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                         "member 'mood' (enum) has no value 1; its values: CALM, ANGRY");
    expect_every_refused(&j, "{\"u16\": 65536}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                         "member 'u16' (u16) cannot hold 65536");
    expect_every_refused(&j, "{\"i8\": -129}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                         "member 'i8' (i8) cannot hold -129");
    expect_every_refused(&j, "{\"f32\": 1e39}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                         "member 'f32' (f32) cannot hold 1e+39");
    expect_every_refused(&j, "{\"u32\": 0.5}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                         "member 'u32' (u32) cannot hold 0.5");
    check_and_destroy(j.s.world);
}

static void an_enum_takes_a_name_or_a_named_number_and_a_float_inf_and_nan(void **state) {
    json_world j;
    ecs_sched_prefab_data *d;
    ecs_sched_id every;
    const Every *v;
    (void)state;
    setup_json(&j);
    every = describe_every(&j);
    d = load_every(&j, "{\"mood\": 2, \"f32\": \"-inf\", \"f64\": \"nan\", \"b\": false, \"e\": null}");
    if (!d) fail_msg("%s", ecs_sched_last_error(j.s.world));
    v = (const Every *)ecs_sched_prefab_data_get(d, 0, every);
    assert_int_equal(v->mood, MOOD_ANGRY);
    assert_true(isinf(v->f32) && v->f32 < 0);
    assert_true(isnan(v->f64));
    assert_false(v->b);
    assert_true(v->e == ECS_SCHED_NULL_ENTITY);
    ecs_sched_prefab_data_free(d);
    d = load_every(&j, "{\"f64\": \"inf\", \"mood\": \"CALM\"}");
    assert_non_null(d);
    v = (const Every *)ecs_sched_prefab_data_get(d, 0, every);
    assert_true(isinf(v->f64) && v->f64 > 0);
    assert_int_equal(v->mood, MOOD_CALM);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(j.s.world);
}

static void a_struct_or_array_member_given_another_type_is_refused(void **state) {
    json_world j;
    (void)state;
    setup_json(&j);
    expect_load_failure(&j, "{\"entities\": [{\"components\": {\"Unit\": {\"at\": 3}}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "member 'at' is struct, and is given a number",
                        (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"components\": {\"Unit\": {\"path\": {\"x\": 1}}}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "member 'path' is an array of 3 elements, and is not given an array",
                        (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"components\": {\"Unit\": {\"path\": [{}, [1]]}}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "member 'path[1]' is struct, and is given an array",
                        (const char *)NULL);
    check_and_destroy(j.s.world);
}

/* ---- assets in members of every kind ---- */

static ecs_sched_asset_status handle_from_name(ecs_sched_asset_request *request, void *user) {
    (void)user;
    request->handle = strtoull(request->path, NULL, 10);
    return ECS_SCHED_ASSET_DONE;
}

static void an_asset_handle_is_written_into_a_64_bit_or_entity_member_whole(void **state) {
    json_world j;
    ecs_sched_json_desc desc;
    ecs_sched_prefab_data *d;
    ecs_sched_id every;
    const Every *v;
    (void)state;
    setup_json(&j);
    every = describe_every(&j);
    memset(&desc, 0, sizeof desc);
    desc.load_asset = handle_from_name;
    d = ecs_sched_prefab_data_from_json(j.s.world,
        "{\"entities\": [{\"components\": {\"Every\": {\"u64\": {\"asset\": \"18446744073709551615\"}, "
        "\"i64\": {\"asset\": \"9223372036854775807\"}, \"e\": {\"asset\": \"4294967297\"}, "
        "\"u8\": {\"asset\": \"255\"}}}}]}", &desc);
    if (!d) fail_msg("%s", ecs_sched_last_error(j.s.world));
    v = (const Every *)ecs_sched_prefab_data_get(d, 0, every);
    assert_true(v->u64 == UINT64_MAX);
    assert_true(v->i64 == INT64_MAX);
    assert_true(v->e == UINT64_C(4294967297));
    assert_int_equal(v->u8, 255);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(j.s.world);
}

/* Expects the Every value `value` refused with `message`, the load_asset hook given. */
static void expect_asset_refused(json_world *j, const char *value, const char *message) {
    char text[512], want[512];
    ecs_sched_json_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.file = "assets.json";
    desc.load_asset = handle_from_name;
    snprintf(text, sizeof text, "{\"entities\": [{}, {\"components\": {\"Every\": %s}}]}", value);
    assert_null(ecs_sched_prefab_data_from_json(j->s.world, text, &desc));
    assert_failed_with(j->s.world, &j->s.log, ECS_SCHED_ERR_INVALID_ARGUMENT);
    snprintf(want, sizeof want, "json 'assets.json': entity 1, component 'Every': %s", message);
    assert_string_equal(ecs_sched_last_error(j->s.world), want);
}

static void an_asset_handle_a_member_cannot_hold_is_refused(void **state) {
    json_world j;
    (void)state;
    setup_json(&j);
    describe_every(&j);
    expect_asset_refused(&j, "{\"u8\": {\"asset\": \"256\"}}",
                         "the asset '256' got handle 256, which member 'u8' cannot hold");
    expect_asset_refused(&j, "{\"i32\": {\"asset\": \"9223372036854775808\"}}",
                         "the asset '9223372036854775808' got handle 9223372036854775808, which "
                         "member 'i32' cannot hold");
    expect_asset_refused(&j, "{\"f32\": {\"asset\": \"1\"}}",
                         "member 'f32' (f32) cannot hold an asset handle; an integer or entity member can");
    expect_asset_refused(&j, "{\"b\": {\"asset\": \"1\"}}",
                         "member 'b' (bool) cannot hold an asset handle; an integer or entity member can");
    expect_asset_refused(&j, "{\"mood\": {\"asset\": \"1\"}}",
                         "member 'mood' (enum) cannot hold an asset handle; an integer or entity member can");
    expect_asset_refused(&j, "{\"i32\": {\"asset\": \"1\", \"size\": 2}}",
                         "member 'i32' is given an object; only {\"asset\": \"path\"} stands for a number");
    expect_asset_refused(&j, "{\"i32\": {\"asset\": 1}}",
                         "member 'i32' is given an object; only {\"asset\": \"path\"} stands for a number");
    check_and_destroy(j.s.world);
}

/* ---- links between entities inside nested structs ---- */

typedef struct { ecs_sched_entity who; int32_t rank; } Link;
typedef struct { Link leader; Link slots[2]; } Squad;

static ecs_sched_id describe_squad(json_world *j) {
    ecs_sched_id link = ECS_SCHED_COMPONENT(j->s.world, Link);
    ecs_sched_id squad = ECS_SCHED_COMPONENT(j->s.world, Squad);
    ecs_sched_member link_fields[] = {ECS_SCHED_MEMBER(Link, who, ECS_SCHED_TYPE_ENTITY),
                                      ECS_SCHED_MEMBER(Link, rank, ECS_SCHED_TYPE_I32)};
    ecs_sched_member squad_fields[] = {ECS_SCHED_MEMBER_STRUCT(Squad, leader, 0),
                                       ECS_SCHED_MEMBER_STRUCT(Squad, slots, 0)};
    squad_fields[0].type = link;
    squad_fields[1].type = link;
    assert_int_equal(ecs_sched_describe(j->s.world, link, 2, link_fields), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_describe(j->s.world, squad, 2, squad_fields), ECS_SCHED_OK);
    return squad;
}

static const char *squad_json =
    "{\"entities\": [{\"name\": \"squad\", \"components\": {\"Squad\": {"
    "\"leader\": {\"who\": 2, \"rank\": 1}, \"slots\": [{\"who\": 1}, {\"rank\": 3, \"who\": 0}]}}},"
    " {\"name\": \"scout\", \"parent\": 0}, {\"name\": \"chief\", \"parent\": 0}]}";

static void entities_named_inside_nested_structs_are_linked_to_the_file_s_entities(void **state) {
    json_world j;
    ecs_sched_prefab_data *d;
    ecs_sched_entity made[3];
    ecs_sched_id squad;
    const Squad *s;
    (void)state;
    setup_json(&j);
    squad = describe_squad(&j);
    d = ecs_sched_prefab_data_from_json(j.s.world, squad_json, NULL);
    if (!d) fail_msg("%s", ecs_sched_last_error(j.s.world));
    assert_int_equal(ecs_sched_prefab_data_instantiate(j.s.world, d, 0, made), ECS_SCHED_OK);
    s = (const Squad *)ecs_sched_get(j.s.world, made[0], squad);
    assert_non_null(s);
    assert_true(s->leader.who == made[2]);
    assert_int_equal(s->leader.rank, 1);
    assert_true(s->slots[0].who == made[1]);
    assert_int_equal(s->slots[0].rank, 0);
    assert_true(s->slots[1].who == made[0]);
    assert_int_equal(s->slots[1].rank, 3);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(j.s.world);
}

static void links_inside_nested_structs_are_saved_as_indices_of_the_file(void **state) {
    json_world j;
    ecs_sched_prefab_data *d;
    ecs_sched_entity made[3];
    char *text;
    (void)state;
    setup_json(&j);
    describe_squad(&j);
    d = ecs_sched_prefab_data_from_json(j.s.world, squad_json, NULL);
    assert_non_null(d);
    assert_int_equal(ecs_sched_prefab_data_instantiate(j.s.world, d, 0, made), ECS_SCHED_OK);
    ecs_sched_prefab_data_free(d);
    /* the child listed too, and first: written once, where the walk meets it first */
    {
        ecs_sched_entity order[2];
        order[0] = made[2];
        order[1] = made[0];
        text = ecs_sched_json_save(j.s.world, 2, order, true);
    }
    assert_non_null(text);
    assert_string_equal(text,
        "{\n\t\"entities\":\t[{\n\t\t\t\"name\":\t\"chief\",\n\t\t\t\"parent\":\t1,\n"
        "\t\t\t\"components\":\t{\n\t\t\t}\n\t\t}, {\n\t\t\t\"name\":\t\"squad\",\n"
        "\t\t\t\"components\":\t{\n\t\t\t\t\"Squad\":\t{\n"
        "\t\t\t\t\t\"leader\":\t{\n\t\t\t\t\t\t\"who\":\t0,\n\t\t\t\t\t\t\"rank\":\t1\n\t\t\t\t\t},\n"
        "\t\t\t\t\t\"slots\":\t[{\n\t\t\t\t\t\t\t\"who\":\t2,\n\t\t\t\t\t\t\t\"rank\":\t0\n"
        "\t\t\t\t\t\t}, {\n\t\t\t\t\t\t\t\"who\":\t1,\n\t\t\t\t\t\t\t\"rank\":\t3\n\t\t\t\t\t\t}]\n"
        "\t\t\t\t}\n\t\t\t}\n\t\t}, {\n\t\t\t\"name\":\t\"scout\",\n\t\t\t\"parent\":\t1,\n"
        "\t\t\t\"components\":\t{\n\t\t\t}\n\t\t}]\n}");
    ecs_sched_json_free(text);
    check_and_destroy(j.s.world);
}

static void a_link_inside_a_nested_struct_past_the_file_is_named_with_its_path(void **state) {
    json_world j;
    (void)state;
    setup_json(&j);
    describe_squad(&j);
    expect_load_failure(&j, "{\"entities\": [{\"components\": {\"Squad\": {\"slots\": [{\"who\": 1}, "
                            "{\"who\": 7}]}}}, {}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "json 'ship.json': entity 0, component 'Squad': member 'slots[1].who' names "
                        "entity 7; the file has 2", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"components\": {\"Squad\": {\"leader\": {\"who\": 1.5}}}}, {}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "member 'leader.who' names entity 1.5; the file has 2",
                        (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"components\": {\"Squad\": {\"leader\": {\"who\": -1}}}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "member 'leader.who' names entity -1; the file has 1",
                        (const char *)NULL);
    check_and_destroy(j.s.world);
}

/* ---- what an entity of a file may hold ---- */

static void an_entity_s_members_are_checked_each_naming_the_entity(void **state) {
    json_world j;
    (void)state;
    setup_json(&j);
    expect_load_failure(&j, "{\"entities\": [{}, 3]}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "json 'ship.json': entity 1: an entity is an object", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"colour\": \"red\"}]}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "json 'ship.json': entity 0: unknown member 'colour' (an entity has name, "
                        "parent, prefab, components and relations)", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{}, {\"parent\": 1}]}", ECS_SCHED_ERR_RELATION_CYCLE,
                        "json 'ship.json': entity 1: the entity is its own parent", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"name\": \"\"}]}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "json 'ship.json': entity 0: name is a non-empty string", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"name\": 4}]}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "json 'ship.json': entity 0: name is a non-empty string", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"prefab\": 4}]}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "json 'ship.json': entity 0: prefab is a file name", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"components\": [1]}]}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "json 'ship.json': entity 0: components is an object, a member per component",
                        (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"relations\": [0]}]}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "json 'ship.json': entity 0: relations is an object, a member per kind",
                        (const char *)NULL);
    check_and_destroy(j.s.world);
}

static void a_null_name_or_parent_is_as_if_not_given(void **state) {
    json_world j;
    ecs_sched_prefab_data *d;
    (void)state;
    setup_json(&j);
    d = ecs_sched_prefab_data_from_json(j.s.world, "{\"entities\": [{\"name\": null, \"parent\": null}, "
                                                   "{\"name\": \"b\", \"parent\": 0}]}", NULL);
    assert_non_null(d);
    assert_null(ecs_sched_prefab_data_name(d, 0));
    assert_int_equal(ecs_sched_prefab_data_parent(d, 0), -1);
    assert_string_equal(ecs_sched_prefab_data_name(d, 1), "b");
    assert_int_equal(ecs_sched_prefab_data_parent(d, 1), 0);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(j.s.world);
}

static ecs_sched_id register_likes(json_world *j) {
    ecs_sched_relation_desc r;
    ecs_sched_id likes;
    memset(&r, 0, sizeof r);
    r.name = "Likes";
    likes = ecs_sched_relation_register(j->s.world, &r);
    assert_true(likes != 0);
    return likes;
}

static void relations_of_a_file_link_its_entities(void **state) {
    json_world j;
    ecs_sched_prefab_data *d;
    ecs_sched_entity made[3];
    ecs_sched_id likes;
    char *text;
    (void)state;
    setup_json(&j);
    likes = register_likes(&j);
    d = ecs_sched_prefab_data_from_json(j.s.world, "{\"entities\": [{\"name\": \"a\", \"relations\": "
                                                   "{\"Likes\": [1, 2]}}, {\"name\": \"b\"}, {\"name\": \"c\"}]}", NULL);
    if (!d) fail_msg("%s", ecs_sched_last_error(j.s.world));
    assert_int_equal(ecs_sched_prefab_data_instantiate(j.s.world, d, 0, made), ECS_SCHED_OK);
    assert_true(ecs_sched_has_relation(j.s.world, made[0], likes, made[1]));
    assert_true(ecs_sched_has_relation(j.s.world, made[0], likes, made[2]));
    assert_int_equal(ecs_sched_target_count(j.s.world, made[0], likes), 2);
    ecs_sched_prefab_data_free(d);
    text = ecs_sched_json_save(j.s.world, 3, made, false);
    assert_non_null(text);
    assert_contains(text, "\"relations\":\t{\n\t\t\t\t\"Likes\":\t[1, 2]\n\t\t\t}");
    ecs_sched_json_free(text);
    check_and_destroy(j.s.world);
}

static void relations_naming_an_unknown_kind_or_no_entity_of_the_file_are_refused(void **state) {
    json_world j;
    (void)state;
    setup_json(&j);
    register_likes(&j);
    expect_load_failure(&j, "{\"entities\": [{\"relations\": {\"Hates\": [0]}}]}",
                        ECS_SCHED_ERR_UNKNOWN_COMPONENT, "json 'ship.json': entity 0: unknown "
                        "relationship kind 'Hates' (register it before loading)", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"relations\": {\"Health\": [0]}}]}",
                        ECS_SCHED_ERR_UNKNOWN_COMPONENT, "unknown relationship kind 'Health'",
                        (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"relations\": {\"Likes\": 0}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "json 'ship.json': entity 0: the targets of "
                        "'Likes' are an array of entity indices", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"relations\": {\"Likes\": [0, 2]}}, {}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "json 'ship.json': entity 0: a target of "
                        "'Likes' is not an entity of the file (it has 2)", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"relations\": {\"Likes\": [\"0\"]}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "a target of 'Likes' is not an entity of the file",
                        (const char *)NULL);
    check_and_destroy(j.s.world);
}

static void a_component_s_value_is_checked_against_what_it_is(void **state) {
    json_world j;
    (void)state;
    setup_json(&j);
    register_likes(&j);
    expect_load_failure(&j, "{\"entities\": [{\"components\": {\"Likes\": {}}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "json 'ship.json': entity 0, component "
                        "'Likes': a relationship is given under \"relations\" (ChildOf as "
                        "\"parent\"), not as a component", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"components\": {\"Health\": 3}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "json 'ship.json': entity 0, component "
                        "'Health': a value is an object of its members", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"components\": {\"Velocity\": {\"x\": 1}}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "json 'ship.json': entity 0, component "
                        "'Velocity': the component has no description, so its members cannot be "
                        "read (ecs_sched_describe)", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [{\"components\": {\"Frozen\": {\"a\": 1}}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "component 'Frozen': a tag has no value: give it true",
                        (const char *)NULL);
    check_and_destroy(j.s.world);
}

static void a_tag_may_be_given_an_empty_object_and_a_type_without_description_an_empty_one(void **state) {
    json_world j;
    ecs_sched_prefab_data *d;
    const Velocity *v;
    (void)state;
    setup_json(&j);
    d = ecs_sched_prefab_data_from_json(j.s.world, "{\"entities\": [{\"components\": "
                                                   "{\"Frozen\": {}, \"Velocity\": {}}}]}", NULL);
    if (!d) fail_msg("%s", ecs_sched_last_error(j.s.world));
    assert_true(ecs_sched_prefab_data_has(d, 0, j.tag));
    v = (const Velocity *)ecs_sched_prefab_data_get(d, 0, j.s.velocity);
    assert_non_null(v);
    assert_true(v->x == 0.0f && v->y == 0.0f);
    assert_false(ecs_sched_prefab_data_has(d, 0, j.s.position));
    assert_false(ecs_sched_prefab_data_has(d, 1, j.tag));
    assert_false(ecs_sched_prefab_data_has(d, -1, j.tag));
    ecs_sched_prefab_data_free(d);
    check_and_destroy(j.s.world);
}

/* A value larger than what a load keeps on its stack. */
typedef struct { char text[300]; int32_t n; } Scroll;

static void a_large_value_is_read_like_a_small_one(void **state) {
    json_world j;
    ecs_sched_id scroll;
    ecs_sched_member f[] = {ECS_SCHED_MEMBER(Scroll, text, ECS_SCHED_TYPE_CHARS),
                            ECS_SCHED_MEMBER(Scroll, n, ECS_SCHED_TYPE_I32)};
    ecs_sched_prefab_data *d;
    const Scroll *s;
    (void)state;
    setup_json(&j);
    scroll = ECS_SCHED_COMPONENT(j.s.world, Scroll);
    assert_int_equal(ecs_sched_describe(j.s.world, scroll, 2, f), ECS_SCHED_OK);
    d = ecs_sched_prefab_data_from_json(j.s.world, "{\"entities\": [{\"components\": "
                                                   "{\"Scroll\": {\"text\": \"long\", \"n\": 9}}}]}", NULL);
    if (!d) fail_msg("%s", ecs_sched_last_error(j.s.world));
    s = (const Scroll *)ecs_sched_prefab_data_get(d, 0, scroll);
    assert_string_equal(s->text, "long");
    assert_int_equal(s->n, 9);
    ecs_sched_prefab_data_free(d);
    expect_load_failure(&j, "{\"entities\": [{\"components\": {\"Scroll\": {\"n\": 0.5}}}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "component 'Scroll': member 'n' (i32) cannot hold 0.5",
                        (const char *)NULL);
    check_and_destroy(j.s.world);
}

static void a_key_of_the_file_beside_its_entities_is_checked_too(void **state) {
    json_world j;
    ecs_sched_prefab_data *d;
    (void)state;
    setup_json(&j);
    expect_load_failure(&j, "{\"version\": {\"major\": 1e999}, \"entities\": []}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "json 'ship.json': key 'version.major' holds "
                        "a number beyond the range of a double", (const char *)NULL);
    expect_load_failure(&j, "{\"entities\": [], \"notes\": [1, {\"a\": 1, \"a\": 2}]}",
                        ECS_SCHED_ERR_INVALID_ARGUMENT, "json 'ship.json': key 'notes[1].a' is given twice",
                        (const char *)NULL);
    d = ecs_sched_prefab_data_from_json(j.s.world, "{\"version\": 2, \"entities\": [{}]}", NULL);
    assert_non_null(d);
    assert_int_equal(ecs_sched_prefab_data_count(d), 1);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(j.s.world);
}

static void text_without_a_file_name_is_named_as_text(void **state) {
    json_world j;
    (void)state;
    setup_json(&j);
    assert_null(ecs_sched_prefab_data_from_json(j.s.world, "{\"entities\": [{\"name\": 1}]}", NULL));
    assert_string_equal(ecs_sched_last_error(j.s.world), "json '(text)': entity 0: name is a non-empty string");
    assert_null(ecs_sched_prefab_data_from_json(j.s.world, NULL, NULL));
    assert_string_equal(ecs_sched_last_error(j.s.world), "json '(text)': no text");
    assert_null(ecs_sched_prefab_data_load(j.s.world, NULL, NULL));
    assert_int_equal(ecs_sched_last_result(j.s.world), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_string_equal(ecs_sched_last_error(j.s.world), "prefab_data_load: no path");
    check_and_destroy(j.s.world);
}

/* Files 0.json, 1.json, ...: each names the next as its entity's prefab. */
static char *read_chain(const char *path, const char *from, void *user) {
    char *text = (char *)malloc(64);
    (void)from;
    (void)user;
    snprintf(text, 64, "{\"entities\": [{\"prefab\": \"%d.json\"}]}", atoi(path) + 1);
    return text;
}

static void prefabs_nesting_deeper_than_the_limit_are_refused(void **state) {
    json_world j;
    ecs_sched_json_desc desc;
    ecs_sched_progress progress;
    (void)state;
    setup_json(&j);
    memset(&desc, 0, sizeof desc);
    memset(&progress, 0, sizeof progress);
    desc.read_file = read_chain;
    desc.progress = &progress;
    assert_null(ecs_sched_prefab_data_load(j.s.world, "0.json", &desc));
    assert_failed_with(j.s.world, &j.s.log, ECS_SCHED_ERR_LIMIT);
    assert_string_equal(ecs_sched_last_error(j.s.world),
                        "json '31.json': entity 0: prefabs nest deeper than 32 files");
    assert_int_equal(progress.loading, 0);
    assert_int_equal(progress.failed, 31);   /* each file that named the next */
    assert_false(ecs_sched_progress_complete(&progress));
    check_and_destroy(j.s.world);
}

static void an_asset_that_fails_later_leaves_the_progress_incomplete(void **state) {
    ecs_sched_progress progress;
    (void)state;
    memset(&progress, 0, sizeof progress);
    progress.loading = 2;
    assert_false(ecs_sched_progress_complete(&progress));
    ecs_sched_progress_finish(&progress, false);
    ecs_sched_progress_finish(&progress, true);
    assert_int_equal(progress.loading, 0);
    assert_int_equal(progress.done, 1);
    assert_int_equal(progress.failed, 1);
    assert_false(ecs_sched_progress_complete(&progress));
    assert_false(ecs_sched_progress_complete(NULL));
}

static void saving_a_despawned_entity_is_refused(void **state) {
    json_world j;
    ecs_sched_entity e;
    (void)state;
    setup_json(&j);
    e = ecs_sched_spawn(j.s.world);
    assert_int_equal(ecs_sched_despawn(j.s.world, e), ECS_SCHED_OK);
    assert_null(ecs_sched_json_save(j.s.world, 1, &e, true));
    assert_failed_with(j.s.world, &j.s.log, ECS_SCHED_ERR_STALE_ENTITY);
    assert_contains(ecs_sched_last_error(j.s.world), "json_save");
    check_and_destroy(j.s.world);
}

/* ---- nested files, and more of what a file may not hold ---- */

/* desc reading from `files`, the file named "ship.json". */
static ecs_sched_json_desc nested_desc(file_set *files, ecs_sched_progress *progress) {
    ecs_sched_json_desc desc;
    memset(&desc, 0, sizeof desc);
    memset(progress, 0, sizeof *progress);
    desc.file = "data/ship.json";
    desc.read_file = read_from_set;
    desc.user = files;
    desc.progress = progress;
    return desc;
}

static void a_nested_file_is_checked_and_named_in_the_message(void **state) {
    json_world j;
    file_set files;
    ecs_sched_progress progress;
    ecs_sched_json_desc desc;
    (void)state;
    setup_json(&j);
    memset(&files, 0, sizeof files);
    files.names[0] = "data/hull.json";
    files.texts[0] = "{\"version\": 2, \"entities\": [{}, {\"name\": \"a\", \"name\": \"b\"}]}";
    desc = nested_desc(&files, &progress);
    assert_null(ecs_sched_prefab_data_from_json(j.s.world, "{\"entities\": [{\"prefab\": \"hull.json\"}]}", &desc));
    assert_failed_with(j.s.world, &j.s.log, ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_string_equal(ecs_sched_last_error(j.s.world),
                        "json 'data/hull.json': entity 1: key 'name' is given twice (the keys of an "
                        "object are unique)");
    assert_int_equal(progress.failed, 1);
    assert_int_equal(progress.loading, 0);
    files.texts[0] = "{\"version\": 1e999, \"entities\": []}";
    assert_null(ecs_sched_prefab_data_from_json(j.s.world, "{\"entities\": [{\"prefab\": \"hull.json\"}]}", &desc));
    assert_contains(ecs_sched_last_error(j.s.world), "json 'data/hull.json': key 'version' holds a number beyond");
    check_and_destroy(j.s.world);
}

static void a_nested_file_without_entities_adds_nothing(void **state) {
    json_world j;
    file_set files;
    ecs_sched_progress progress;
    ecs_sched_json_desc desc;
    ecs_sched_prefab_data *d;
    (void)state;
    setup_json(&j);
    memset(&files, 0, sizeof files);
    files.names[0] = "data/empty.json";
    files.texts[0] = "{\"entities\": []}";
    desc = nested_desc(&files, &progress);
    d = ecs_sched_prefab_data_from_json(j.s.world, "{\"entities\": [{\"name\": \"ship\", \"prefab\": \"empty.json\"}]}", &desc);
    if (!d) fail_msg("%s", ecs_sched_last_error(j.s.world));
    assert_int_equal(ecs_sched_prefab_data_count(d), 1);
    assert_string_equal(ecs_sched_prefab_data_name(d, 0), "ship");
    assert_int_equal(progress.done, 1);
    assert_true(ecs_sched_progress_complete(&progress));
    ecs_sched_prefab_data_free(d);
    check_and_destroy(j.s.world);
}

static void an_absolute_nested_file_name_is_read_as_it_is(void **state) {
    json_world j;
    file_set files;
    ecs_sched_progress progress;
    ecs_sched_json_desc desc;
    ecs_sched_prefab_data *d;
    (void)state;
    setup_json(&j);
    memset(&files, 0, sizeof files);
    files.names[0] = "/shared/hull.json";
    files.texts[0] = "{\"entities\": [{\"components\": {\"Health\": {\"hp\": 4}}}]}";
    desc = nested_desc(&files, &progress);
    d = ecs_sched_prefab_data_from_json(j.s.world, "{\"entities\": [{\"prefab\": \"/shared/hull.json\"}]}", &desc);
    if (!d) fail_msg("%s", ecs_sched_last_error(j.s.world));
    assert_string_equal(files.asked[0], "/shared/hull.json");
    assert_string_equal(files.asked_from[0], "data/ship.json");
    assert_int_equal(((const Health *)ecs_sched_prefab_data_get(d, 0, j.s.health))->hp, 4);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(j.s.world);
}

static void a_nested_file_the_hook_cannot_give_is_named_as_given(void **state) {
    json_world j;
    file_set files;
    ecs_sched_progress progress;
    ecs_sched_json_desc desc;
    (void)state;
    setup_json(&j);
    memset(&files, 0, sizeof files);
    desc = nested_desc(&files, &progress);
    desc.file = NULL;   /* text without a file: names are read as they are */
    assert_null(ecs_sched_prefab_data_from_json(j.s.world, "{\"entities\": [{\"prefab\": \"gone.json\"}]}", &desc));
    assert_failed_with(j.s.world, &j.s.log, ECS_SCHED_ERR_NOT_FOUND);
    assert_string_equal(ecs_sched_last_error(j.s.world),
                        "json '(text)': entity 0: \"prefab\" names 'gone.json', which could not be "
                        "read: the read_file hook gave no text");
    assert_string_equal(files.asked_from[0], "(none)");
    assert_int_equal(progress.failed, 1);
    check_and_destroy(j.s.world);
}

static void a_long_object_with_a_key_given_twice_is_refused(void **state) {
    json_world j;
    char text[2048];
    size_t used;
    int i;
    ecs_sched_prefab_data *d;
    (void)state;
    setup_json(&j);
    /* more keys than are compared pair by pair: sorted */
    used = (size_t)snprintf(text, sizeof text, "{\"entities\": [], \"notes\": {");
    for (i = 0; i < 40; i++) {
        used += (size_t)snprintf(text + used, sizeof text - used, "%s\"k%02d\": %d", i ? ", " : "", i, i);
    }
    snprintf(text + used, sizeof text - used, "}}");
    d = ecs_sched_prefab_data_from_json(j.s.world, text, NULL);
    assert_non_null(d);
    ecs_sched_prefab_data_free(d);
    used = (size_t)snprintf(text, sizeof text, "{\"entities\": [], \"notes\": {");
    for (i = 0; i < 40; i++) {   /* the last key k17 again */
        used += (size_t)snprintf(text + used, sizeof text - used, "%s\"k%02d\": %d", i ? ", " : "",
                                 i == 39 ? 17 : i, i);
    }
    snprintf(text + used, sizeof text - used, "}}");
    expect_load_failure(&j, text, ECS_SCHED_ERR_INVALID_ARGUMENT, "json 'ship.json': key 'notes.k17' is given twice",
                        (const char *)NULL);
    check_and_destroy(j.s.world);
}

static void a_link_left_null_inside_a_nested_struct_stays_no_entity(void **state) {
    json_world j;
    ecs_sched_prefab_data *d;
    ecs_sched_entity made[2];
    ecs_sched_id squad;
    const Squad *s;
    (void)state;
    setup_json(&j);
    squad = describe_squad(&j);
    d = ecs_sched_prefab_data_from_json(j.s.world, "{\"entities\": [{\"components\": {\"Squad\": {"
                                                   "\"leader\": {\"who\": null, \"rank\": 2}, \"slots\": [{\"who\": 1}, {\"who\": null}]}}}, {}]}",
                                        NULL);
    if (!d) fail_msg("%s", ecs_sched_last_error(j.s.world));
    assert_int_equal(ecs_sched_prefab_data_instantiate(j.s.world, d, 0, made), ECS_SCHED_OK);
    s = (const Squad *)ecs_sched_get(j.s.world, made[0], squad);
    assert_true(s->leader.who == ECS_SCHED_NULL_ENTITY);
    assert_int_equal(s->leader.rank, 2);
    assert_true(s->slots[0].who == made[1]);
    assert_true(s->slots[1].who == ECS_SCHED_NULL_ENTITY);
    ecs_sched_prefab_data_free(d);
    check_and_destroy(j.s.world);
}

static void an_asset_without_a_desc_or_in_a_double_is_refused(void **state) {
    json_world j;
    (void)state;
    setup_json(&j);
    describe_every(&j);
    assert_null(ecs_sched_prefab_data_from_json(j.s.world, "{\"entities\": [{\"components\": {\"Every\": "
                                                           "{\"i32\": {\"asset\": \"a.png\"}}}}]}", NULL));
    assert_string_equal(ecs_sched_last_error(j.s.world),
                        "json '(text)': entity 0, component 'Every': member 'i32' names the asset "
                        "'a.png', and no load_asset hook was given to load it");
    expect_asset_refused(&j, "{\"f64\": {\"asset\": \"1\"}}",
                         "member 'f64' (f64) cannot hold an asset handle; an integer or entity member can");
    expect_every_refused(&j, "{\"u64\": \"\"}", ECS_SCHED_ERR_INVALID_ARGUMENT,
                         "member 'u64' (u64) is given \"\", which is not an integer");
    check_and_destroy(j.s.world);
}

static void a_double_just_below_its_15_digits_is_saved_exactly_too(void **state) {
    json_world j;
    ecs_sched_id every;
    ecs_sched_entity e, gone;
    Every v;
    char *text;
    volatile double tenth = 0.1;
    ecs_sched_prefab_data *d;
    const Every *back;
    (void)state;
    setup_json(&j);
    every = describe_every(&j);
    e = ecs_sched_spawn(j.s.world);
    gone = ecs_sched_spawn(j.s.world);
    assert_int_equal(ecs_sched_despawn(j.s.world, gone), ECS_SCHED_OK);
    memset(&v, 0, sizeof v);
    v.f64 = tenth + 0.7;   /* 0.7999999999999999: 15 digits give 0.8, above it */
    v.e = gone;            /* a dead entity: no entity */
    assert_int_equal(ecs_sched_insert(j.s.world, e, every, &v), ECS_SCHED_OK);
    text = ecs_sched_json_save(j.s.world, 1, &e, false);
    assert_non_null(text);
    assert_contains(text, "\"f64\":\t0.7999999999999999,");   /* 16 digits */
    assert_contains(text, "\"e\":\tnull,");
    d = ecs_sched_prefab_data_from_json(j.s.world, text, NULL);
    assert_non_null(d);
    back = (const Every *)ecs_sched_prefab_data_get(d, 0, every);
    assert_memory_equal(&back->f64, &v.f64, sizeof v.f64);
    ecs_sched_prefab_data_free(d);
    ecs_sched_json_free(text);
    check_and_destroy(j.s.world);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_prefab_is_read_through_reflection_and_instantiated),
        cmocka_unit_test(an_array_of_entity_members_links_each_to_the_file_s_entities),
        cmocka_unit_test(an_entity_member_naming_an_index_past_the_file_is_refused),
        cmocka_unit_test(malformed_json_is_refused_with_its_line),
        cmocka_unit_test(an_unknown_component_is_named_with_its_entity),
        cmocka_unit_test(an_unknown_field_is_named_with_its_path),
        cmocka_unit_test(a_value_of_the_wrong_type_or_out_of_range_is_refused),
        cmocka_unit_test(a_parent_out_of_range_is_refused),
        cmocka_unit_test(a_parent_cycle_is_refused_when_instantiated),
        cmocka_unit_test(a_key_given_twice_is_refused_naming_the_file_entity_and_key),
        cmocka_unit_test(a_number_beyond_a_double_is_refused_naming_the_file_entity_and_key),
        cmocka_unit_test(an_integer_out_of_range_is_named_as_the_file_wrote_it),
        cmocka_unit_test(members_are_read_in_any_order_and_missing_ones_keep_their_default),
        cmocka_unit_test(an_unknown_member_after_known_ones_is_named_with_its_path),
        cmocka_unit_test(a_member_whose_path_is_longer_than_a_message_shows_is_read),
        cmocka_unit_test(a_load_failing_inside_a_system_fails_it_with_the_files_message),
        cmocka_unit_test(a_load_inside_a_system_fails_it_with_the_checks_message_first),
        cmocka_unit_test(a_parent_given_under_relations_is_refused_naming_the_parent_key),
        cmocka_unit_test(a_nested_prefab_merges_into_its_entry_and_is_counted),
        cmocka_unit_test(a_prefab_that_includes_itself_is_refused),
        cmocka_unit_test(a_nested_prefab_is_read_from_the_directory_of_the_file_naming_it),
        cmocka_unit_test(a_nested_prefab_file_is_found_beside_the_file_naming_it),
        cmocka_unit_test(a_prefab_file_that_cannot_be_read_is_named_with_the_path_tried_and_the_reason),
        cmocka_unit_test(assets_come_from_the_loader_and_are_counted),
        cmocka_unit_test(the_whole_file_is_checked_before_any_hook_is_asked),
        cmocka_unit_test(a_saved_world_loads_back_equal),
        cmocka_unit_test(a_subtree_is_saved_alone),
        cmocka_unit_test(saving_refuses_what_it_cannot_write),
        cmocka_unit_test(every_member_kind_is_saved_as_its_json_text),
        cmocka_unit_test(every_member_kind_loads_back_as_it_was_saved),
        cmocka_unit_test(integers_of_16_digits_and_more_load_back_as_they_were_saved),
        cmocka_unit_test(a_double_loads_back_to_the_same_bits),
        cmocka_unit_test(a_64_bit_member_takes_its_whole_range_as_a_string_of_digits),
        cmocka_unit_test(a_64_bit_member_given_text_that_is_no_integer_is_refused),
        cmocka_unit_test(each_member_kind_given_the_wrong_json_type_is_refused_naming_both),
        cmocka_unit_test(a_value_a_member_cannot_hold_is_refused_naming_it_as_written),
        cmocka_unit_test(an_enum_takes_a_name_or_a_named_number_and_a_float_inf_and_nan),
        cmocka_unit_test(a_struct_or_array_member_given_another_type_is_refused),
        cmocka_unit_test(an_asset_handle_is_written_into_a_64_bit_or_entity_member_whole),
        cmocka_unit_test(an_asset_handle_a_member_cannot_hold_is_refused),
        cmocka_unit_test(entities_named_inside_nested_structs_are_linked_to_the_file_s_entities),
        cmocka_unit_test(links_inside_nested_structs_are_saved_as_indices_of_the_file),
        cmocka_unit_test(a_link_inside_a_nested_struct_past_the_file_is_named_with_its_path),
        cmocka_unit_test(an_entity_s_members_are_checked_each_naming_the_entity),
        cmocka_unit_test(a_null_name_or_parent_is_as_if_not_given),
        cmocka_unit_test(relations_of_a_file_link_its_entities),
        cmocka_unit_test(relations_naming_an_unknown_kind_or_no_entity_of_the_file_are_refused),
        cmocka_unit_test(a_component_s_value_is_checked_against_what_it_is),
        cmocka_unit_test(a_tag_may_be_given_an_empty_object_and_a_type_without_description_an_empty_one),
        cmocka_unit_test(a_large_value_is_read_like_a_small_one),
        cmocka_unit_test(a_key_of_the_file_beside_its_entities_is_checked_too),
        cmocka_unit_test(text_without_a_file_name_is_named_as_text),
        cmocka_unit_test(prefabs_nesting_deeper_than_the_limit_are_refused),
        cmocka_unit_test(an_asset_that_fails_later_leaves_the_progress_incomplete),
        cmocka_unit_test(saving_a_despawned_entity_is_refused),
        cmocka_unit_test(a_nested_file_is_checked_and_named_in_the_message),
        cmocka_unit_test(a_nested_file_without_entities_adds_nothing),
        cmocka_unit_test(an_absolute_nested_file_name_is_read_as_it_is),
        cmocka_unit_test(a_nested_file_the_hook_cannot_give_is_named_as_given),
        cmocka_unit_test(a_long_object_with_a_key_given_twice_is_refused),
        cmocka_unit_test(a_link_left_null_inside_a_nested_struct_stays_no_entity),
        cmocka_unit_test(an_asset_without_a_desc_or_in_a_double_is_refused),
        cmocka_unit_test(a_double_just_below_its_15_digits_is_saved_exactly_too),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
