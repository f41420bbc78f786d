/* Reflection. A component is described by its fields (name, kind, offset, size; arrays,
   nested structs, enums with named values, char strings); a description must cover the type
   exactly. With it a value can be printed, read and written field by field through a path,
   with range checks, and compared and hashed regardless of padding. */
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

typedef enum { IDLE = 0, WALKING = 1, RUNNING = 7 } Gait;
typedef struct { float x, y; } Vec2;
typedef struct {
    Vec2 position;
    Vec2 path[3];
    int32_t hp;
    uint8_t level;
    bool alive;
    char name[16];
    Gait gait;
    double mass;
    ecs_sched_entity target;
    uint64_t big;
    int16_t small;
} Unit;

static const ecs_sched_enum_value gaits[] = {{"IDLE", IDLE}, {"WALKING", WALKING}, {"RUNNING", RUNNING}};

static ecs_sched_id g_vec2, g_unit;

static void describe_types(ecs_sched_world *w) {
    ecs_sched_member vec2[] = {
                               ECS_SCHED_MEMBER(Vec2, x, ECS_SCHED_TYPE_F32),
                               ECS_SCHED_MEMBER(Vec2, y, ECS_SCHED_TYPE_F32),
    };
    ecs_sched_member unit[11];
    g_vec2 = ECS_SCHED_COMPONENT(w, Vec2);
    g_unit = ECS_SCHED_COMPONENT(w, Unit);
    assert_int_equal(ecs_sched_describe(w, g_vec2, 2, vec2), ECS_SCHED_OK);
    {
        ecs_sched_member fields[] = {
                                     ECS_SCHED_MEMBER_STRUCT(Unit, position, g_vec2),
                                     ECS_SCHED_MEMBER_STRUCT(Unit, path, g_vec2),
                                     ECS_SCHED_MEMBER(Unit, hp, ECS_SCHED_TYPE_I32),
                                     ECS_SCHED_MEMBER(Unit, level, ECS_SCHED_TYPE_U8),
                                     ECS_SCHED_MEMBER(Unit, alive, ECS_SCHED_TYPE_BOOL),
                                     ECS_SCHED_MEMBER(Unit, name, ECS_SCHED_TYPE_CHARS),
                                     ECS_SCHED_MEMBER_ENUM(Unit, gait, gaits, 3),
                                     ECS_SCHED_MEMBER(Unit, mass, ECS_SCHED_TYPE_F64),
                                     ECS_SCHED_MEMBER(Unit, target, ECS_SCHED_TYPE_ENTITY),
                                     ECS_SCHED_MEMBER(Unit, big, ECS_SCHED_TYPE_U64),
                                     ECS_SCHED_MEMBER(Unit, small, ECS_SCHED_TYPE_I16),
        };
        memcpy(unit, fields, sizeof unit);
    }
    assert_int_equal(ecs_sched_describe(w, g_unit, 11, unit), ECS_SCHED_OK);
}

static Unit a_unit(void) {
    Unit u;
    memset(&u, 0, sizeof u);
    u.position.x = 1.5f;
    u.position.y = -2;
    u.path[2].y = 4;
    u.hp = 100;
    u.level = 3;
    u.alive = true;
    strcpy(u.name, "bob");
    u.gait = RUNNING;
    u.mass = 0.25;
    u.big = 18446744073709551615ull;
    u.small = -5;
    return u;
}

static void a_described_value_prints_field_by_field(void **state) {
    ecs_sched_world *w = new_world();
    Unit u;
    char text[512];
    int32_t n;
    (void)state;
    describe_types(w);
    u = a_unit();
    n = ecs_sched_value_print(w, g_unit, &u, text, sizeof text);
    assert_string_equal(text, "{position: {x: 1.5, y: -2}, path: [{x: 0, y: 0}, {x: 0, y: 0}, "
                              "{x: 0, y: 4}], hp: 100, level: 3, alive: true, name: \"bob\", "
                              "gait: RUNNING, mass: 0.25, target: 0, big: 18446744073709551615, "
                              "small: -5}");
    assert_int_equal(n, (int32_t)strlen(text));
    assert_true(ecs_sched_is_described(w, g_unit));
    check_and_destroy(w);
}

static void printing_into_a_short_buffer_cuts_and_counts_everything(void **state) {
    ecs_sched_world *w = new_world();
    Vec2 v = {1, 2};
    char small[6];
    (void)state;
    describe_types(w);
    assert_int_equal(ecs_sched_value_print(w, g_vec2, &v, small, sizeof small), 12);   /* {x: 1, y: 2} */
    assert_string_equal(small, "{x: 1");
    assert_int_equal(ecs_sched_value_print(w, g_vec2, &v, NULL, 0), 12);
    check_and_destroy(w);
}

static void a_type_without_description_prints_its_name_and_size(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    Position p = {1, 2};
    char text[64];
    (void)state;
    ecs_sched_value_print(w, pos, &p, text, sizeof text);
    assert_string_equal(text, "<Position: 8 bytes>");
    assert_false(ecs_sched_is_described(w, pos));
    check_and_destroy(w);
}

static void an_entity_field_prints_with_its_name(void **state) {
    ecs_sched_world *w = new_world();
    Unit u;
    char text[512], want[32];
    ecs_sched_entity bob = ecs_sched_spawn(w);
    (void)state;
    describe_types(w);
    assert_int_equal(ecs_sched_set_name(w, bob, "bob"), ECS_SCHED_OK);
    u = a_unit();
    u.target = bob;
    ecs_sched_value_print(w, g_unit, &u, text, sizeof text);
    snprintf(want, sizeof want, "target: #%u 'bob'", (unsigned)ECS_SCHED_ENTITY_INDEX(bob));
    assert_contains(text, want);
    check_and_destroy(w);
}

static void a_path_names_nested_fields_and_array_elements(void **state) {
    ecs_sched_world *w = new_world();
    Unit u = a_unit();
    ecs_sched_member_info info;
    float *y;
    double number;
    (void)state;
    describe_types(w);
    y = (float *)ecs_sched_value_member(w, g_unit, &u, "path[2].y", &info);
    assert_ptr_equal(y, &u.path[2].y);
    assert_int_equal(info.kind, ECS_SCHED_TYPE_F32);
    assert_int_equal(info.count, 1);
    assert_ptr_equal(ecs_sched_value_member(w, g_unit, &u, "path", &info), u.path);
    assert_int_equal(info.kind, ECS_SCHED_TYPE_STRUCT);
    assert_int_equal(info.count, 3);
    assert_int_equal(info.type, g_vec2);
    assert_int_equal(ecs_sched_value_get_number(w, g_unit, &u, "position.x", &number), ECS_SCHED_OK);
    assert_true(number == 1.5);
    assert_int_equal(ecs_sched_value_get_number(w, g_unit, &u, "gait", &number), ECS_SCHED_OK);
    assert_true(number == 7.0);
    assert_int_equal(ecs_sched_value_get_number(w, g_unit, &u, "alive", &number), ECS_SCHED_OK);
    assert_true(number == 1.0);
    check_and_destroy(w);
}

static void a_path_that_does_not_resolve_says_which_part(void **state) {
    ecs_sched_world *w = new_world();
    Unit u = a_unit();
    double number;
    (void)state;
    describe_types(w);
    assert_null(ecs_sched_value_member(w, g_unit, &u, "position.z", NULL));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_NOT_FOUND);
    assert_contains(ecs_sched_last_error(w), "'Vec2' has no member 'z'");
    assert_null(ecs_sched_value_member(w, g_unit, &u, "path[3].x", NULL));
    assert_contains(ecs_sched_last_error(w), "has 3 elements");
    assert_null(ecs_sched_value_member(w, g_unit, &u, "path.x", NULL));
    assert_contains(ecs_sched_last_error(w), "is an array");
    assert_null(ecs_sched_value_member(w, g_unit, &u, "hp.x", NULL));
    assert_contains(ecs_sched_last_error(w), "'hp' has no members");
    assert_int_equal(ecs_sched_value_get_number(w, g_unit, &u, "name", &number),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "not a number");
    check_and_destroy(w);
}

static void writes_are_checked_against_the_fields_range(void **state) {
    ecs_sched_world *w = new_world();
    Unit u = a_unit(), before;
    (void)state;
    describe_types(w);
    before = u;
    assert_int_equal(ecs_sched_value_set_number(w, g_unit, &u, "level", 300), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "'level'");
    assert_int_equal(ecs_sched_value_set_number(w, g_unit, &u, "hp", 1.5), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_value_set_number(w, g_unit, &u, "alive", 2), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_value_set_number(w, g_unit, &u, "gait", 5), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_value_set_int(w, g_unit, &u, "small", 40000), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_value_set_int(w, g_unit, &u, "big", -1), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_value_set_string(w, g_unit, &u, "name", "a name far too long"),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_value_set_string(w, g_unit, &u, "gait", "FLYING"), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_value_set_number(w, g_unit, &u, "big", 1.5), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_value_set_number(w, g_unit, &u, "big", 18446744073709551616.0),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_value_set_number(w, g_unit, &u, "hp", 2147483648.0), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_value_set_number(w, g_unit, &u, "position.x", 1e39), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_memory_equal(&u, &before, sizeof u);   /* nothing written */
    assert_int_equal(ecs_sched_value_set_number(w, g_unit, &u, "level", 255), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_value_set_number(w, g_unit, &u, "gait", 1), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_value_set_int(w, g_unit, &u, "small", -32768), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_value_set_number(w, g_unit, &u, "path[1].x", 2.5), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_value_set_string(w, g_unit, &u, "name", "alice"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_value_set_string(w, g_unit, &u, "gait", "IDLE"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_value_set_number(w, g_unit, &u, "big", 9007199254740992.0), ECS_SCHED_OK);
    assert_int_equal(u.level, 255);
    assert_int_equal(u.small, -32768);
    assert_true(u.path[1].x == 2.5f);
    assert_string_equal(u.name, "alice");
    assert_int_equal(u.gait, IDLE);
    assert_true(u.big == 9007199254740992ull);
    assert_int_equal(ecs_sched_value_set_number(w, g_unit, &u, "big", 18446744073709549568.0), ECS_SCHED_OK);
    assert_true(u.big == 18446744073709549568ull);   /* above 2^63, still whole */
    assert_int_equal(ecs_sched_value_set_number(w, g_unit, &u, "hp", -2147483648.0), ECS_SCHED_OK);
    assert_int_equal(u.hp, INT32_MIN);
    check_and_destroy(w);
}

static void equal_values_compare_equal_and_hash_alike_whatever_their_padding(void **state) {
    ecs_sched_world *w = new_world();
    Unit a, b;
    (void)state;
    describe_types(w);
    memset(&a, 0x11, sizeof a);   /* different garbage in padding and after the name's zero */
    memset(&b, 0x77, sizeof b);
    {
        Unit v = a_unit();
        a.position = v.position, b.position = v.position;
        memcpy(a.path, v.path, sizeof a.path), memcpy(b.path, v.path, sizeof b.path);
        a.hp = b.hp = v.hp;
        a.level = b.level = v.level;
        a.alive = b.alive = v.alive;
        strcpy(a.name, "bob"), strcpy(b.name, "bob");
        a.gait = b.gait = v.gait;
        a.mass = 0.0, b.mass = -0.0;
        a.target = b.target = 0;
        a.big = b.big = v.big;
        a.small = b.small = v.small;
    }
    assert_int_equal(ecs_sched_value_compare(w, g_unit, &a, &b), 0);
    assert_true(ecs_sched_value_hash(w, g_unit, &a) == ecs_sched_value_hash(w, g_unit, &b));
    b.hp = 101;
    assert_true(ecs_sched_value_compare(w, g_unit, &a, &b) < 0);
    assert_true(ecs_sched_value_compare(w, g_unit, &b, &a) > 0);
    assert_true(ecs_sched_value_hash(w, g_unit, &a) != ecs_sched_value_hash(w, g_unit, &b));
    check_and_destroy(w);
}

static void nan_equals_nan_and_follows_every_number(void **state) {
    ecs_sched_world *w = new_world();
    Vec2 a = {0, 1}, b = {0, 1};
    volatile float zero = 0.0f;
    (void)state;
    describe_types(w);
    a.x = zero / zero;
    b.x = zero / zero;
    assert_int_equal(ecs_sched_value_compare(w, g_vec2, &a, &b), 0);
    assert_true(ecs_sched_value_hash(w, g_vec2, &a) == ecs_sched_value_hash(w, g_vec2, &b));
    b.x = 1e30f;
    assert_true(ecs_sched_value_compare(w, g_vec2, &a, &b) > 0);
    check_and_destroy(w);
}

typedef struct { int32_t damage; uint8_t kind; } Hit;

static void resources_and_message_types_are_described_like_components(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id hit = ecs_sched_message_register_type(w, "Hit", sizeof(Hit), ECS_SCHED_ALIGNOF(Hit));
    ecs_sched_id gravity;
    ecs_sched_member hit_fields[] = {ECS_SCHED_MEMBER(Hit, damage, ECS_SCHED_TYPE_I32),
                                     ECS_SCHED_MEMBER(Hit, kind, ECS_SCHED_TYPE_U8)};
    Hit h = {12, 3};
    Vec2 g = {0, -9.5f};
    char text[64];
    (void)state;
    describe_types(w);
    gravity = g_vec2;
    assert_int_equal(ecs_sched_describe(w, hit, 2, hit_fields), ECS_SCHED_OK);
    ecs_sched_value_print(w, hit, &h, text, sizeof text);
    assert_string_equal(text, "{damage: 12, kind: 3}");
    assert_int_equal(ecs_sched_resource_insert(w, gravity, &g), ECS_SCHED_OK);
    ecs_sched_value_print(w, gravity, ecs_sched_resource_get(w, gravity), text, sizeof text);
    assert_string_equal(text, "{x: 0, y: -9.5}");
    check_and_destroy(w);
}

/* ---- descriptions that do not hold ---- */

typedef struct { int32_t a; int32_t b; int64_t c; } Three;
typedef struct { int32_t a, b, c; } Ints;

static void assert_refused(ecs_sched_world *w, ecs_sched_id id, const ecs_sched_member *f, int32_t n,
                           const char *needle) {
    assert_int_equal(ecs_sched_describe(w, id, n, f), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), needle);
    assert_false(ecs_sched_is_described(w, id));
}

static void a_description_must_cover_the_type_without_overlaps(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id three = ECS_SCHED_COMPONENT(w, Three);
    ecs_sched_id ints = ECS_SCHED_COMPONENT(w, Ints);
    /* (a, c) of Three would be a struct with padding where b is: that cannot be told */
    ecs_sched_member gap[] = {ECS_SCHED_MEMBER(Ints, a, ECS_SCHED_TYPE_I32),
                              ECS_SCHED_MEMBER(Ints, c, ECS_SCHED_TYPE_I32)};
    ecs_sched_member end[] = {ECS_SCHED_MEMBER(Three, a, ECS_SCHED_TYPE_I32),
                              ECS_SCHED_MEMBER(Three, b, ECS_SCHED_TYPE_I32)};
    ecs_sched_member overlap[] = {ECS_SCHED_MEMBER(Three, a, ECS_SCHED_TYPE_I32),
                                  ECS_SCHED_MEMBER(Three, b, ECS_SCHED_TYPE_I32),
                                  ECS_SCHED_MEMBER(Three, c, ECS_SCHED_TYPE_I64),
                                 {"d", ECS_SCHED_TYPE_I32, 2, 4, 0, NULL, 0}};
    ecs_sched_member wrong_kind[] = {ECS_SCHED_MEMBER(Three, a, ECS_SCHED_TYPE_I64),
                                     ECS_SCHED_MEMBER(Three, c, ECS_SCHED_TYPE_I64)};
    ecs_sched_member outside[] = {{"a", ECS_SCHED_TYPE_I32, 14, 4, 0, NULL, 0}};
    ecs_sched_member twice[] = {ECS_SCHED_MEMBER(Three, a, ECS_SCHED_TYPE_I32),
                               {"a", ECS_SCHED_TYPE_I32, 4, 4, 0, NULL, 0},
                               ECS_SCHED_MEMBER(Three, c, ECS_SCHED_TYPE_I64)};
    (void)state;
    assert_refused(w, ints, gap, 2, "bytes 4 to 7, before member 'c'");
    assert_refused(w, three, end, 2, "at the end");
    assert_refused(w, three, overlap, 4, "overlaps");
    assert_refused(w, three, wrong_kind, 2, "not a whole number");
    assert_refused(w, three, outside, 1, "does not lie inside");
    assert_refused(w, three, twice, 3, "two members are named 'a'");
    check_and_destroy(w);
}

static void a_struct_field_needs_a_described_type(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id vec2 = ECS_SCHED_COMPONENT(w, Vec2);
    ecs_sched_id holder = ecs_sched_component_register_type(w, "Holder", sizeof(Vec2), 4);
    ecs_sched_member f[] = {{"v", ECS_SCHED_TYPE_STRUCT, 0, sizeof(Vec2), 0, NULL, 0}};
    ecs_sched_id tag = ECS_SCHED_TAG(w, Marker);
    (void)state;
    f[0].type = vec2;
    assert_refused(w, holder, f, 1, "describe that type first");
    f[0].type = holder;
    assert_refused(w, holder, f, 1, "cannot hold itself");
    assert_int_equal(ecs_sched_describe(w, tag, 1, f), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "a tag has no members");
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_described_value_prints_field_by_field),
        cmocka_unit_test(printing_into_a_short_buffer_cuts_and_counts_everything),
        cmocka_unit_test(a_type_without_description_prints_its_name_and_size),
        cmocka_unit_test(an_entity_field_prints_with_its_name),
        cmocka_unit_test(a_path_names_nested_fields_and_array_elements),
        cmocka_unit_test(a_path_that_does_not_resolve_says_which_part),
        cmocka_unit_test(writes_are_checked_against_the_fields_range),
        cmocka_unit_test(equal_values_compare_equal_and_hash_alike_whatever_their_padding),
        cmocka_unit_test(nan_equals_nan_and_follows_every_number),
        cmocka_unit_test(resources_and_message_types_are_described_like_components),
        cmocka_unit_test(a_description_must_cover_the_type_without_overlaps),
        cmocka_unit_test(a_struct_field_needs_a_described_type),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
