/* Reflection. A component is described by its fields (name, kind, offset, size; arrays,
   nested structs, enums with named values, char strings); a description must cover the type
   exactly. With it a value can be printed, read and written field by field through a path,
   with range checks, and compared and hashed regardless of padding. */
#include "ecs_sched.h"

#include <math.h>
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

/* ---- every kind of member ---- */

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
} Kinds;

static const ecs_sched_enum_value moods[] = {{"CALM", MOOD_CALM}, {"ANGRY", MOOD_ANGRY}};

static ecs_sched_id describe_kinds(ecs_sched_world *w) {
    ecs_sched_id kinds = ECS_SCHED_COMPONENT(w, Kinds);
    ecs_sched_member f[] = {
        ECS_SCHED_MEMBER(Kinds, b, ECS_SCHED_TYPE_BOOL),    ECS_SCHED_MEMBER(Kinds, i8, ECS_SCHED_TYPE_I8),
        ECS_SCHED_MEMBER(Kinds, i16, ECS_SCHED_TYPE_I16),   ECS_SCHED_MEMBER(Kinds, i32, ECS_SCHED_TYPE_I32),
        ECS_SCHED_MEMBER(Kinds, i64, ECS_SCHED_TYPE_I64),   ECS_SCHED_MEMBER(Kinds, u8, ECS_SCHED_TYPE_U8),
        ECS_SCHED_MEMBER(Kinds, u16, ECS_SCHED_TYPE_U16),   ECS_SCHED_MEMBER(Kinds, u32, ECS_SCHED_TYPE_U32),
        ECS_SCHED_MEMBER(Kinds, u64, ECS_SCHED_TYPE_U64),   ECS_SCHED_MEMBER(Kinds, f32, ECS_SCHED_TYPE_F32),
        ECS_SCHED_MEMBER(Kinds, f64, ECS_SCHED_TYPE_F64),   ECS_SCHED_MEMBER(Kinds, e, ECS_SCHED_TYPE_ENTITY),
        ECS_SCHED_MEMBER(Kinds, text, ECS_SCHED_TYPE_CHARS), ECS_SCHED_MEMBER_ENUM(Kinds, mood, moods, 2),
    };
    assert_int_equal(ecs_sched_describe(w, kinds, 14, f), ECS_SCHED_OK);
    return kinds;
}

static Kinds some_kinds(void) {
    Kinds k;
    memset(&k, 0, sizeof k);
    k.b = true;
    k.i8 = -8;
    k.i16 = -16;
    k.i32 = -32;
    k.i64 = -64;
    k.u8 = 8;
    k.u16 = 16;
    k.u32 = 32;
    k.u64 = 64;
    k.f32 = 0.5f;
    k.f64 = -0.25;
    strcpy(k.text, "a\"b\\c\n\x01");
    k.mood = MOOD_ANGRY;
    return k;
}

static void a_value_of_every_member_kind_prints_each_as_its_kind(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id kinds = describe_kinds(w);
    ecs_sched_entity nameless = ecs_sched_spawn(w);
    Kinds k = some_kinds();
    char text[512], want[512];
    int32_t n;
    (void)state;
    k.e = nameless;
    k.mood = 5;   /* not one of its named values: printed as a number */
    n = ecs_sched_value_print(w, kinds, &k, text, sizeof text);
    assert_int_equal(n, (int32_t)strlen(text));
    snprintf(want, sizeof want,
             "{b: true, i8: -8, i16: -16, i32: -32, i64: -64, u8: 8, u16: 16, u32: 32, u64: 64, "
             "f32: 0.5, f64: -0.25, e: #%u, text: \"a\\\"b\\\\c\\n\\x01\", mood: 5}",
             (unsigned)ECS_SCHED_ENTITY_INDEX(nameless));
    assert_string_equal(text, want);
    check_and_destroy(w);
}

static void printing_no_value_or_an_unknown_type_says_so(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id kinds = describe_kinds(w);
    Kinds k = some_kinds();
    char text[32];
    (void)state;
    assert_int_equal(ecs_sched_value_print(w, kinds, NULL, text, sizeof text), 10);
    assert_string_equal(text, "<no value>");
    assert_int_equal(ecs_sched_value_print(w, 999, &k, text, sizeof text), 10);
    assert_string_equal(text, "<no value>");
    check_and_destroy(w);
}

static void every_integer_kind_reads_back_as_a_number(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id kinds = describe_kinds(w);
    ecs_sched_entity target = ecs_sched_spawn(w);
    Kinds k = some_kinds();
    static const char *const paths[] = {"b", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64", "mood"};
    static const double expected[] = {1, -8, -16, -32, -64, 8, 16, 32, 64, 0.5, -0.25, 2};
    double number;
    size_t i;
    (void)state;
    k.e = target;
    for (i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        number = 1234;
        assert_int_equal(ecs_sched_value_get_number(w, kinds, &k, paths[i], &number), ECS_SCHED_OK);
        if (number < expected[i] || number > expected[i]) fail_msg("%s: %g, not %g", paths[i], number, expected[i]);
    }
    /* an entity member reads as its index */
    assert_int_equal(ecs_sched_value_get_number(w, kinds, &k, "e", &number), ECS_SCHED_OK);
    assert_true(number == (double)ECS_SCHED_ENTITY_INDEX(target));
    check_and_destroy(w);
}

static void each_integer_kind_refuses_a_number_just_past_its_range(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id kinds = describe_kinds(w);
    Kinds k = some_kinds(), before = k;
    (void)state;
    assert_int_equal(ecs_sched_value_set_int(w, kinds, &k, "u16", 65536), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "value_set_int('Kinds', \"u16\"): 65536 does not fit member 'u16' (u16)");
    assert_int_equal(ecs_sched_value_set_int(w, kinds, &k, "u32", INT64_C(4294967296)), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "4294967296 does not fit member 'u32' (u32)");
    assert_int_equal(ecs_sched_value_set_int(w, kinds, &k, "i8", -129), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "-129 does not fit member 'i8' (i8)");
    assert_int_equal(ecs_sched_value_set_number(w, kinds, &k, "i8", 128), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_value_set_int(w, kinds, &k, "mood", 1), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "1 does not fit member 'mood' (enum)");
    assert_int_equal(ecs_sched_value_set_number(w, kinds, &k, "i64", 9223372036854775808.0),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_memory_equal(&k, &before, sizeof k);
    assert_int_equal(ecs_sched_value_set_int(w, kinds, &k, "u16", 65535), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_value_set_int(w, kinds, &k, "u32", INT64_C(4294967295)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_value_set_int(w, kinds, &k, "i8", -128), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_value_set_int(w, kinds, &k, "i64", INT64_MIN), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_value_set_number(w, kinds, &k, "i64", -9223372036854775808.0), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_value_set_number(w, kinds, &k, "u16", 7), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_value_set_number(w, kinds, &k, "u32", 9), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_value_set_number(w, kinds, &k, "b", 0), ECS_SCHED_OK);
    assert_int_equal(k.u16, 7);
    assert_int_equal(k.u32, 9);
    assert_int_equal(k.i8, -128);
    assert_true(k.i64 == INT64_MIN);
    assert_false(k.b);
    check_and_destroy(w);
}

static void an_i64_member_takes_every_int64_written_as_an_integer(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id kinds = describe_kinds(w);
    Kinds k = some_kinds();
    double number;
    (void)state;
    assert_int_equal(ecs_sched_value_set_int(w, kinds, &k, "i64", INT64_MAX), ECS_SCHED_OK);
    assert_true(k.i64 == INT64_MAX);
    assert_int_equal(ecs_sched_value_set_int(w, kinds, &k, "i64", INT64_MAX - 1), ECS_SCHED_OK);
    assert_true(k.i64 == INT64_MAX - 1);
    assert_int_equal(ecs_sched_value_set_int(w, kinds, &k, "i64", INT64_MIN), ECS_SCHED_OK);
    assert_true(k.i64 == INT64_MIN);
    /* as a double, 2^63 is one past the largest */
    assert_int_equal(ecs_sched_value_set_number(w, kinds, &k, "i64", 9223372036854775808.0),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "9.223372036854776e+18 does not fit member 'i64' (i64)");
    assert_int_equal(ecs_sched_value_get_number(w, kinds, &k, "i64", &number), ECS_SCHED_OK);
    assert_true(number == -9223372036854775808.0);
    check_and_destroy(w);
}

static void an_integer_written_to_a_float_u64_or_entity_member_is_stored_whole(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id kinds = describe_kinds(w);
    ecs_sched_entity target = ecs_sched_spawn(w);
    Kinds k = some_kinds();
    (void)state;
    assert_int_equal(ecs_sched_value_set_int(w, kinds, &k, "f32", -3), ECS_SCHED_OK);
    assert_true(k.f32 == -3.0f);
    assert_int_equal(ecs_sched_value_set_int(w, kinds, &k, "f64", 7), ECS_SCHED_OK);
    assert_true(k.f64 == 7.0);
    assert_int_equal(ecs_sched_value_set_int(w, kinds, &k, "u64", INT64_MAX), ECS_SCHED_OK);
    assert_true(k.u64 == (uint64_t)INT64_MAX);
    assert_int_equal(ecs_sched_value_set_int(w, kinds, &k, "e", (int64_t)target), ECS_SCHED_OK);
    assert_true(k.e == target);
    check_and_destroy(w);
}

static void a_number_is_not_written_to_an_entity_member(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id kinds = describe_kinds(w);
    Kinds k = some_kinds();
    (void)state;
    assert_int_equal(ecs_sched_value_set_number(w, kinds, &k, "e", 3), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "value_set_number('Kinds', \"e\"): member 'e' holds an entity: "
                                             "write the handle with ecs_sched_value_set_int");
    assert_true(k.e == ECS_SCHED_NULL_ENTITY);
    check_and_destroy(w);
}

static void text_is_written_only_to_a_chars_or_enum_member(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id kinds = describe_kinds(w);
    Kinds k = some_kinds();
    (void)state;
    assert_int_equal(ecs_sched_value_set_string(w, kinds, &k, "i32", "12"), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "value_set_string('Kinds', \"i32\"): member 'i32' is i32, not text or an enum");
    assert_int_equal(k.i32, -32);
    assert_int_equal(ecs_sched_value_set_string(w, kinds, &k, "text", NULL), ECS_SCHED_OK);   /* NULL: empty */
    assert_string_equal(k.text, "");
    assert_int_equal(ecs_sched_value_set_string(w, kinds, &k, "mood", "CALM"), ECS_SCHED_OK);
    assert_int_equal(k.mood, MOOD_CALM);
    check_and_destroy(w);
}

static void a_path_needs_a_known_type_a_value_and_a_description(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id kinds = describe_kinds(w);
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    Kinds k = some_kinds();
    Position p = {1, 2};
    (void)state;
    assert_null(ecs_sched_value_member(w, 999, &k, "i8", NULL));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_contains(ecs_sched_last_error(w), "value_field");
    assert_null(ecs_sched_value_member(w, kinds, NULL, "i8", NULL));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "value_field('Kinds'): no value or no path");
    assert_null(ecs_sched_value_member(w, kinds, &k, "", NULL));
    assert_contains(ecs_sched_last_error(w), "value_field('Kinds'): no value or no path");
    assert_null(ecs_sched_value_member(w, kinds, &k, NULL, NULL));
    assert_contains(ecs_sched_last_error(w), "no value or no path");
    assert_null(ecs_sched_value_member(w, pos, &p, "x", NULL));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "value_field('Position', \"x\"): 'Position' has no description (ecs_sched_describe)");
    assert_null(ecs_sched_value_member(w, kinds, &k, "text[x]", NULL));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_NOT_FOUND);
    assert_contains(ecs_sched_last_error(w), "member 'text' has 1 element; the index is not one of them");
    check_and_destroy(w);
}

static void values_of_a_type_without_description_compare_by_their_bytes(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    Position a = {1, 2}, b = {1, 2};
    (void)state;
    assert_int_equal(ecs_sched_value_compare(w, pos, &a, &b), 0);
    assert_true(ecs_sched_value_hash(w, pos, &a) == ecs_sched_value_hash(w, pos, &b));
    memset(&a, 0, sizeof a);
    memset(&b, 0xff, sizeof b);
    assert_int_equal(ecs_sched_value_compare(w, pos, &a, &b), -1);
    assert_int_equal(ecs_sched_value_compare(w, pos, &b, &a), 1);
    assert_true(ecs_sched_value_hash(w, pos, &a) != ecs_sched_value_hash(w, pos, &b));
    check_and_destroy(w);
}

static void every_member_kind_takes_part_in_compare_and_hash(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id kinds = describe_kinds(w);
    static const char *const paths[] = {"b", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64", "e"};
    size_t i;
    (void)state;
    for (i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        Kinds a = some_kinds(), b = some_kinds();
        assert_int_equal(ecs_sched_value_compare(w, kinds, &a, &b), 0);
        assert_true(ecs_sched_value_hash(w, kinds, &a) == ecs_sched_value_hash(w, kinds, &b));
        assert_int_equal(ecs_sched_value_set_int(w, kinds, &b, paths[i], i == 0 ? 0 : 100), ECS_SCHED_OK);
        if (ecs_sched_value_compare(w, kinds, &a, &b) == 0) fail_msg("%s does not count in compare", paths[i]);
        if (ecs_sched_value_hash(w, kinds, &a) == ecs_sched_value_hash(w, kinds, &b)) {
            fail_msg("%s does not count in the hash", paths[i]);
        }
    }
    {   /* text up to its zero: what follows does not count */
        Kinds a = some_kinds(), b = some_kinds();
        strcpy(a.text, "ab");
        strcpy(b.text, "ab");
        b.text[5] = 'z';
        assert_int_equal(ecs_sched_value_compare(w, kinds, &a, &b), 0);
        assert_true(ecs_sched_value_hash(w, kinds, &a) == ecs_sched_value_hash(w, kinds, &b));
        b.text[1] = 'c';
        assert_int_equal(ecs_sched_value_compare(w, kinds, &a, &b), -1);
    }
    check_and_destroy(w);
}

static void a_member_needs_a_name_a_kind_and_an_enum_a_valid_size_and_list(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id kinds = ECS_SCHED_COMPONENT(w, Kinds);
    ecs_sched_id three = ECS_SCHED_COMPONENT(w, Three);
    ecs_sched_member unnamed[] = {{"", ECS_SCHED_TYPE_I32, 0, 4, 0, NULL, 0}};
    ecs_sched_member no_name[] = {{NULL, ECS_SCHED_TYPE_I32, 0, 4, 0, NULL, 0}};
    ecs_sched_member no_kind[] = {{"a", ECS_SCHED_TYPE_NONE, 0, 4, 0, NULL, 0}};
    ecs_sched_member past_kinds[] = {{"a", (ecs_sched_member_kind)99, 0, 4, 0, NULL, 0}};
    ecs_sched_member enum_of_3[] = {{"mood", ECS_SCHED_TYPE_ENUM, 0, 3, 0, moods, 2}};
    ecs_sched_member negative_count[] = {{"mood", ECS_SCHED_TYPE_ENUM, 0, 4, 0, moods, -1}};
    ecs_sched_member no_list[] = {{"mood", ECS_SCHED_TYPE_ENUM, 0, 4, 0, NULL, 2}};
    (void)state;
    assert_refused(w, three, unnamed, 1, "describe('Three'): a member has no name");
    assert_refused(w, three, no_name, 1, "describe('Three'): a member has no name");
    assert_refused(w, three, no_kind, 1, "describe('Three'): member 'a' has no kind (ECS_SCHED_TYPE_...)");
    assert_refused(w, three, past_kinds, 1, "member 'a' has no kind");
    assert_refused(w, kinds, enum_of_3, 1, "enum member 'mood' is 3 bytes; an enum is 1, 2, 4 or 8 bytes");
    assert_refused(w, kinds, negative_count, 1, "enum member 'mood' has -1 values and no list");
    assert_refused(w, kinds, no_list, 1, "enum member 'mood' has 2 values and no list");
    assert_int_equal(ecs_sched_describe(w, 999, 1, unnamed), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    check_and_destroy(w);
}

typedef struct { int16_t small; int64_t wide; uint8_t plain; } Enums;

static void enums_of_2_and_8_bytes_and_without_names_are_stored_at_their_size(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id enums = ECS_SCHED_COMPONENT(w, Enums);
    static const ecs_sched_enum_value wide_values[] = {{"FAR", INT64_C(5000000000)}, {"NEAR", -1}};
    ecs_sched_member f[] = {ECS_SCHED_MEMBER_ENUM(Enums, small, moods, 2),
                            ECS_SCHED_MEMBER_ENUM(Enums, wide, wide_values, 2),
                            ECS_SCHED_MEMBER_ENUM(Enums, plain, NULL, 0)};
    Enums e;
    double number;
    char text[96];
    (void)state;
    assert_int_equal(ecs_sched_describe(w, enums, 3, f), ECS_SCHED_OK);
    memset(&e, 0, sizeof e);
    assert_int_equal(ecs_sched_value_set_string(w, enums, &e, "small", "ANGRY"), ECS_SCHED_OK);
    assert_int_equal(e.small, MOOD_ANGRY);
    assert_int_equal(ecs_sched_value_set_string(w, enums, &e, "wide", "FAR"), ECS_SCHED_OK);
    assert_true(e.wide == INT64_C(5000000000));
    assert_int_equal(ecs_sched_value_set_int(w, enums, &e, "wide", -1), ECS_SCHED_OK);
    assert_true(e.wide == -1);
    assert_int_equal(ecs_sched_value_set_int(w, enums, &e, "wide", 7), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "7 does not fit member 'wide' (enum)");
    assert_int_equal(ecs_sched_value_set_int(w, enums, &e, "plain", 1), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_value_set_string(w, enums, &e, "plain", "ANY"), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "'ANY' is not a value of enum member 'plain'");
    e.plain = 3;
    assert_int_equal(ecs_sched_value_get_number(w, enums, &e, "wide", &number), ECS_SCHED_OK);
    assert_true(number == -1.0);
    ecs_sched_value_print(w, enums, &e, text, sizeof text);
    assert_string_equal(text, "{small: ANGRY, wide: NEAR, plain: 3}");
    check_and_destroy(w);
}

static void a_description_needs_one_to_256_members(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id three = ECS_SCHED_COMPONENT(w, Three);
    ecs_sched_member one[] = {ECS_SCHED_MEMBER(Three, a, ECS_SCHED_TYPE_I32)};
    ecs_sched_member empty[] = {{"a", ECS_SCHED_TYPE_I32, 0, 0, 0, NULL, 0}};
    (void)state;
    assert_refused(w, three, one, 0, "describe('Three')");
    assert_refused(w, three, one, 257, "describe('Three')");
    assert_refused(w, three, NULL, 1, "describe('Three')");
    assert_refused(w, three, empty, 1, "member 'a' (offset 0, 0 bytes) does not lie inside the type's 16 bytes");
    check_and_destroy(w);
}

static void text_filling_its_member_prints_and_hashes_up_to_its_end(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id kinds = describe_kinds(w);
    Kinds a = some_kinds(), b;
    char text[512];
    (void)state;
    memcpy(a.text, "abcdefg\x7f", 8);   /* no zero: the member's 8 bytes */
    a.b = false;
    b = a;
    ecs_sched_value_print(w, kinds, &a, text, sizeof text);
    assert_contains(text, "{b: false, ");
    assert_contains(text, "text: \"abcdefg\\x7f\", ");
    assert_int_equal(ecs_sched_value_compare(w, kinds, &a, &b), 0);
    assert_true(ecs_sched_value_hash(w, kinds, &a) == ecs_sched_value_hash(w, kinds, &b));
    b.text[7] = 'h';
    assert_int_equal(ecs_sched_value_compare(w, kinds, &a, &b), 1);
    assert_true(ecs_sched_value_hash(w, kinds, &a) != ecs_sched_value_hash(w, kinds, &b));
    check_and_destroy(w);
}

static void a_path_names_a_member_exactly_and_an_index_in_brackets(void **state) {
    ecs_sched_world *w = new_world();
    Unit u = a_unit();
    double number;
    (void)state;
    describe_types(w);
    assert_null(ecs_sched_value_member(w, g_unit, &u, "h", NULL));   /* a prefix of hp */
    assert_contains(ecs_sched_last_error(w), "'Unit' has no member 'h'");
    assert_null(ecs_sched_value_member(w, g_unit, &u, "path[-1]", NULL));
    assert_contains(ecs_sched_last_error(w), "member 'path' has 3 elements; the index is not one of them");
    assert_null(ecs_sched_value_member(w, g_unit, &u, "path[1", NULL));
    assert_contains(ecs_sched_last_error(w), "member 'path' has 3 elements");
    assert_null(ecs_sched_value_member(w, g_unit, &u, "path[1]x", NULL));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_NOT_FOUND);
    assert_contains(ecs_sched_last_error(w), "value_field('Unit', \"path[1]x\"): after 'path[1]' "
                                             "comes 'x'; a path goes on with '.' and a member's name");
    assert_null(ecs_sched_value_member(w, g_unit, &u, "name[0]x", NULL));
    assert_contains(ecs_sched_last_error(w), "after 'name[0]' comes 'x'");
    assert_null(ecs_sched_value_member(w, g_unit, &u, "name[0].x", NULL));
    assert_contains(ecs_sched_last_error(w), "member 'name' has no members");
    assert_null(ecs_sched_value_member(w, g_unit, &u, "path.x", NULL));
    assert_contains(ecs_sched_last_error(w), "member 'path' is an array: give an index");
    assert_int_equal(ecs_sched_value_get_number(w, g_unit, &u, "position", &number), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "value_get_number('Unit', \"position\"): member 'position' is a struct, not a number");
    assert_int_equal(ecs_sched_value_set_number(w, g_unit, &u, "path", 1), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "member 'path' is an array (give an index), not a number");
    assert_int_equal(ecs_sched_value_set_int(w, g_unit, &u, "nothing", 1), ECS_SCHED_ERR_NOT_FOUND);
    assert_int_equal(ecs_sched_value_set_string(w, g_unit, &u, "nothing", "x"), ECS_SCHED_ERR_NOT_FOUND);
    check_and_destroy(w);
}

static void a_float_takes_infinities_and_nan_and_refuses_beyond_its_range(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id kinds = describe_kinds(w);
    Kinds k = some_kinds();
    (void)state;
    assert_int_equal(ecs_sched_value_set_number(w, kinds, &k, "f32", -1e39), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "-1e+39 does not fit member 'f32' (f32)");
    assert_int_equal(ecs_sched_value_set_number(w, kinds, &k, "f32", -(double)INFINITY), ECS_SCHED_OK);
    assert_true(isinf(k.f32) && k.f32 < 0);
    assert_int_equal(ecs_sched_value_set_number(w, kinds, &k, "f32", (double)NAN), ECS_SCHED_OK);
    assert_true(isnan(k.f32));
    assert_int_equal(ecs_sched_value_set_number(w, kinds, &k, "i32", -1.5), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "-1.5 does not fit member 'i32' (i32)");
    assert_int_equal(ecs_sched_value_set_number(w, kinds, &k, "i32", (double)NAN), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(k.i32, -32);
    check_and_destroy(w);
}

static void nan_against_a_number_orders_either_way(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id kinds = describe_kinds(w);
    Kinds a = some_kinds(), b = some_kinds();
    (void)state;
    a.f32 = (float)NAN;
    assert_int_equal(ecs_sched_value_compare(w, kinds, &a, &b), 1);
    assert_int_equal(ecs_sched_value_compare(w, kinds, &b, &a), -1);
    b.f32 = (float)NAN;
    assert_int_equal(ecs_sched_value_compare(w, kinds, &a, &b), 0);
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
        cmocka_unit_test(a_value_of_every_member_kind_prints_each_as_its_kind),
        cmocka_unit_test(printing_no_value_or_an_unknown_type_says_so),
        cmocka_unit_test(every_integer_kind_reads_back_as_a_number),
        cmocka_unit_test(each_integer_kind_refuses_a_number_just_past_its_range),
        cmocka_unit_test(an_integer_written_to_a_float_u64_or_entity_member_is_stored_whole),
        cmocka_unit_test(an_i64_member_takes_every_int64_written_as_an_integer),
        cmocka_unit_test(a_number_is_not_written_to_an_entity_member),
        cmocka_unit_test(text_is_written_only_to_a_chars_or_enum_member),
        cmocka_unit_test(a_path_needs_a_known_type_a_value_and_a_description),
        cmocka_unit_test(values_of_a_type_without_description_compare_by_their_bytes),
        cmocka_unit_test(every_member_kind_takes_part_in_compare_and_hash),
        cmocka_unit_test(a_member_needs_a_name_a_kind_and_an_enum_a_valid_size_and_list),
        cmocka_unit_test(enums_of_2_and_8_bytes_and_without_names_are_stored_at_their_size),
        cmocka_unit_test(a_description_needs_one_to_256_members),
        cmocka_unit_test(text_filling_its_member_prints_and_hashes_up_to_its_end),
        cmocka_unit_test(a_path_names_a_member_exactly_and_an_index_in_brackets),
        cmocka_unit_test(a_float_takes_infinities_and_nan_and_refuses_beyond_its_range),
        cmocka_unit_test(nan_against_a_number_orders_either_way),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
