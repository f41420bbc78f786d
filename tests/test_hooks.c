/* Lifecycle hooks: every component value is constructed exactly once and destroyed exactly
   once, relocations go through the move hook, given values through the copy hook.

   The Tracked component records where it lives (`self`): the ctor, copy and move hooks keep it
   current, so a value the world relocated with a plain memcpy is caught by the next hook that
   sees it, and by the tests that compare `self` with the value's address. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ecs_sched.h"

#include <cmocka.h>

#include "world_fixture.h"

/* ---- the tracked component ---- */

enum { TRACKED_LIVE = 0x11fe11fe, TRACKED_MOVED = 0x30fed000, TRACKED_DEAD = 0x0dead0ff };

typedef struct Tracked {
    uint32_t state;
    struct Tracked *self;
    int value;
} Tracked;

typedef struct hook_counts {
    int ctors, dtors, copies, moves;
    int misuse; /* hook calls on values in the wrong state */
} hook_counts;

static void tracked_ctor(void *dst, int32_t count, void *ctx) {
    hook_counts *c = (hook_counts *)ctx;
    Tracked *t = (Tracked *)dst;
    int32_t i;
    for (i = 0; i < count; i++) {
        if (t[i].state == TRACKED_LIVE && t[i].self == &t[i]) c->misuse++; /* constructed twice */
        t[i].state = TRACKED_LIVE;
        t[i].self = &t[i];
        t[i].value = 0;
        c->ctors++;
    }
}

static void tracked_dtor(void *ptr, int32_t count, void *ctx) {
    hook_counts *c = (hook_counts *)ctx;
    Tracked *t = (Tracked *)ptr;
    int32_t i;
    for (i = 0; i < count; i++) {
        if (t[i].state != TRACKED_LIVE || t[i].self != &t[i]) c->misuse++;
        t[i].state = TRACKED_DEAD;
        c->dtors++;
    }
}

static void tracked_copy(void *dst, const void *src, int32_t count, void *ctx) {
    hook_counts *c = (hook_counts *)ctx;
    Tracked *d = (Tracked *)dst;
    const Tracked *s = (const Tracked *)src;
    int32_t i;
    for (i = 0; i < count; i++) {
        if (d[i].state != TRACKED_LIVE || d[i].self != &d[i]) c->misuse++; /* dst constructed */
        if (s[i].state != TRACKED_LIVE) c->misuse++;
        d[i].value = s[i].value;
        c->copies++;
    }
}

static void tracked_move(void *dst, void *src, int32_t count, void *ctx) {
    hook_counts *c = (hook_counts *)ctx;
    Tracked *d = (Tracked *)dst;
    Tracked *s = (Tracked *)src;
    int32_t i;
    for (i = 0; i < count; i++) {
        if (s[i].state != TRACKED_LIVE || s[i].self != &s[i]) c->misuse++;
        d[i].state = TRACKED_LIVE;
        d[i].self = &d[i];
        d[i].value = s[i].value;
        s[i].state = TRACKED_MOVED;
        c->moves++;
    }
}

static int live(const hook_counts *c) { return c->ctors - c->dtors; }

/* A value as a user holds it before handing it to the world. */
static Tracked tracked_value(int value) {
    Tracked t;
    t.state = TRACKED_LIVE;
    t.self = NULL;
    t.value = value;
    return t;
}

typedef struct hooks_setup {
    captured_log log;
    hook_counts counts;
    ecs_sched_world *world;
    ecs_sched_id tracked, position, frozen;
} hooks_setup;

static void setup_tracked_world(hooks_setup *s) {
    ecs_sched_component_desc desc;
    memset(&s->counts, 0, sizeof s->counts);
    s->world = new_world(&s->log);
    memset(&desc, 0, sizeof desc);
    desc.name = "Tracked";
    desc.size = sizeof(Tracked);
    desc.alignment = ECS_SCHED_ALIGNOF(Tracked);
    desc.hooks.ctor = tracked_ctor;
    desc.hooks.dtor = tracked_dtor;
    desc.hooks.copy = tracked_copy;
    desc.hooks.move = tracked_move;
    desc.hooks.ctx = &s->counts;
    s->tracked = ecs_sched_component_register(s->world, &desc);
    assert_int_not_equal(s->tracked, 0);
    s->position = ECS_SCHED_COMPONENT(s->world, Position);
    s->frozen = ECS_SCHED_TAG(s->world, Frozen);
}

/* The value of e is constructed, in place, and holds `value`. */
static void assert_tracked(hooks_setup *s, ecs_sched_entity e, int value) {
    const Tracked *t = (const Tracked *)ecs_sched_get(s->world, e, s->tracked);
    assert_non_null(t);
    assert_int_equal(t->state, TRACKED_LIVE);
    assert_ptr_equal(t->self, t);
    assert_int_equal(t->value, value);
}

static ecs_sched_entity spawn_tracked(hooks_setup *s, int value) {
    Tracked t = tracked_value(value);
    return SPAWN(s->world, {s->tracked, &t});
}

/* ---- construction ---- */

static void a_default_value_is_constructed_once_and_not_copied(void **state) {
    hooks_setup s;
    ecs_sched_entity e;
    (void)state;
    setup_tracked_world(&s);
    e = ecs_sched_spawn_with(s.world, 1, &s.tracked, NULL);
    assert_int_equal(s.counts.ctors, 1);
    assert_int_equal(s.counts.copies, 0);
    assert_int_equal(s.counts.dtors, 0);
    assert_tracked(&s, e, 0);
    assert_int_equal(s.counts.misuse, 0);
    check_and_destroy(s.world);
}

static void a_given_value_is_copied_into_a_constructed_value(void **state) {
    hooks_setup s;
    ecs_sched_entity e;
    (void)state;
    setup_tracked_world(&s);
    e = spawn_tracked(&s, 42);
    assert_int_equal(s.counts.ctors, 1);
    assert_int_equal(s.counts.copies, 1);
    assert_tracked(&s, e, 42);
    assert_int_equal(s.counts.misuse, 0);
    check_and_destroy(s.world);
}

static void insert_of_a_new_value_constructs_it_and_copies_the_given_value(void **state) {
    hooks_setup s;
    ecs_sched_entity e;
    Tracked t = tracked_value(7);
    (void)state;
    setup_tracked_world(&s);
    e = SPAWN(s.world, {s.position, NULL});
    assert_int_equal(ecs_sched_insert(s.world, e, s.tracked, &t), ECS_SCHED_OK);
    assert_int_equal(s.counts.ctors, 1);
    assert_int_equal(s.counts.copies, 1);
    assert_tracked(&s, e, 7);
    assert_int_equal(s.counts.misuse, 0);
    check_and_destroy(s.world);
}

static void spawn_batch_constructs_and_copies_each_value_once(void **state) {
    hooks_setup s;
    Tracked values[20];
    const void *arrays[1];
    ecs_sched_entity out[20];
    int i;
    (void)state;
    setup_tracked_world(&s);
    for (i = 0; i < 20; i++) values[i] = tracked_value(100 + i);
    arrays[0] = values;
    assert_int_equal(ecs_sched_spawn_batch(s.world, 20, 1, &s.tracked, arrays, out), ECS_SCHED_OK);
    assert_int_equal(s.counts.ctors, 20);
    assert_int_equal(s.counts.copies, 20);
    for (i = 0; i < 20; i++) assert_tracked(&s, out[i], 100 + i);
    assert_int_equal(s.counts.misuse, 0);
    check_and_destroy(s.world);
}

static void spawn_batch_without_values_only_constructs(void **state) {
    hooks_setup s;
    ecs_sched_entity out[8];
    int i;
    (void)state;
    setup_tracked_world(&s);
    assert_int_equal(ecs_sched_spawn_batch(s.world, 8, 1, &s.tracked, NULL, out), ECS_SCHED_OK);
    assert_int_equal(s.counts.ctors, 8);
    assert_int_equal(s.counts.copies, 0);
    for (i = 0; i < 8; i++) assert_tracked(&s, out[i], 0);
    check_and_destroy(s.world);
}

static void overwriting_a_present_value_goes_through_the_copy_hook(void **state) {
    hooks_setup s;
    ecs_sched_entity e;
    Tracked t = tracked_value(9);
    int copies_before, live_before;
    (void)state;
    setup_tracked_world(&s);
    e = spawn_tracked(&s, 1);
    copies_before = s.counts.copies;
    live_before = live(&s.counts);
    assert_int_equal(ecs_sched_insert(s.world, e, s.tracked, &t), ECS_SCHED_OK);
    assert_int_equal(s.counts.copies, copies_before + 1);
    assert_int_equal(live(&s.counts), live_before);
    assert_tracked(&s, e, 9);
    assert_int_equal(s.counts.misuse, 0);
    check_and_destroy(s.world);
}

/* ---- relocation ---- */

static void an_archetype_move_relocates_through_the_move_hook(void **state) {
    hooks_setup s;
    ecs_sched_entity e;
    (void)state;
    setup_tracked_world(&s);
    e = spawn_tracked(&s, 5);
    assert_int_equal(s.counts.moves, 0);
    assert_int_equal(ecs_sched_insert(s.world, e, s.position, NULL), ECS_SCHED_OK);
    assert_int_equal(s.counts.moves, 1);
    assert_tracked(&s, e, 5);
    assert_int_equal(ecs_sched_remove(s.world, e, s.position), ECS_SCHED_OK);
    assert_int_equal(s.counts.moves, 2);
    assert_tracked(&s, e, 5);
    assert_int_equal(s.counts.ctors, 1);
    assert_int_equal(s.counts.dtors, 0);
    assert_int_equal(s.counts.misuse, 0);
    check_and_destroy(s.world);
}

static void insert_many_moves_the_entity_once(void **state) {
    hooks_setup s;
    ecs_sched_entity e;
    ecs_sched_id ids[2];
    (void)state;
    setup_tracked_world(&s);
    e = spawn_tracked(&s, 3);
    ids[0] = s.position;
    ids[1] = s.frozen;
    assert_int_equal(ecs_sched_insert_many(s.world, e, 2, ids, NULL), ECS_SCHED_OK);
    assert_int_equal(s.counts.moves, 1);
    assert_tracked(&s, e, 3);
    assert_int_equal(s.counts.misuse, 0);
    check_and_destroy(s.world);
}

/* However the storage grows, a value relocated by it went through the move hook: otherwise
   its `self` would still point at the old place. */
static void column_growth_relocates_only_through_the_move_hook(void **state) {
    hooks_setup s;
    enum { N = 1000 };
    ecs_sched_entity e[N];
    int i;
    (void)state;
    setup_tracked_world(&s);
    for (i = 0; i < N; i++) e[i] = spawn_tracked(&s, i);
    for (i = 0; i < N; i++) assert_tracked(&s, e[i], i);
    assert_int_equal(s.counts.ctors, N);
    assert_int_equal(live(&s.counts), N);
    assert_int_equal(s.counts.misuse, 0);
    check_and_destroy(s.world);
}

static void despawning_a_middle_row_relocates_the_last_one_through_the_move_hook(void **state) {
    hooks_setup s;
    ecs_sched_entity a, b, c;
    int moves_before;
    (void)state;
    setup_tracked_world(&s);
    a = spawn_tracked(&s, 1);
    b = spawn_tracked(&s, 2);
    c = spawn_tracked(&s, 3);
    moves_before = s.counts.moves;
    assert_int_equal(ecs_sched_despawn(s.world, a), ECS_SCHED_OK);
    assert_int_equal(s.counts.moves, moves_before + 1);
    assert_tracked(&s, b, 2);
    assert_tracked(&s, c, 3);
    assert_int_equal(s.counts.misuse, 0);
    check_and_destroy(s.world);
}

/* ---- destruction ---- */

static void despawn_destroys_the_value_once(void **state) {
    hooks_setup s;
    ecs_sched_entity a, b;
    (void)state;
    setup_tracked_world(&s);
    a = spawn_tracked(&s, 1);
    b = spawn_tracked(&s, 2);
    assert_int_equal(ecs_sched_despawn(s.world, a), ECS_SCHED_OK);
    assert_int_equal(s.counts.dtors, 1);
    assert_int_equal(live(&s.counts), 1);
    assert_tracked(&s, b, 2);
    assert_int_equal(s.counts.misuse, 0);
    check_and_destroy(s.world);
}

static void remove_destroys_the_value_once(void **state) {
    hooks_setup s;
    ecs_sched_entity e;
    Tracked t = tracked_value(4);
    (void)state;
    setup_tracked_world(&s);
    e = SPAWN(s.world, {s.tracked, &t}, {s.position, NULL});
    assert_int_equal(ecs_sched_remove(s.world, e, s.tracked), ECS_SCHED_OK);
    assert_int_equal(s.counts.dtors, 1);
    assert_int_equal(live(&s.counts), 0);
    assert_false(ecs_sched_has(s.world, e, s.tracked));
    assert_int_equal(s.counts.misuse, 0);
    check_and_destroy(s.world);
}

static void world_destroy_destroys_every_remaining_value(void **state) {
    hooks_setup s;
    Tracked r = tracked_value(77);
    int i;
    (void)state;
    setup_tracked_world(&s);
    for (i = 0; i < 50; i++) {
        ecs_sched_entity e = spawn_tracked(&s, i);
        if (i % 2) ecs_sched_insert(s.world, e, s.position, NULL);
    }
    assert_int_equal(ecs_sched_resource_insert(s.world, s.tracked, &r), ECS_SCHED_OK);
    assert_int_equal(live(&s.counts), 51);
    check_and_destroy(s.world);
    assert_int_equal(live(&s.counts), 0);
    assert_int_equal(s.counts.misuse, 0);
}

static void failed_calls_construct_and_destroy_nothing(void **state) {
    hooks_setup s;
    ecs_sched_entity e, dead;
    ecs_sched_id ids[2];
    Tracked t = tracked_value(1);
    const void *values[2];
    hook_counts before;
    (void)state;
    setup_tracked_world(&s);
    e = SPAWN(s.world, {s.position, NULL});
    dead = spawn_tracked(&s, 0);
    ecs_sched_despawn(s.world, dead);
    before = s.counts;
    ids[0] = s.tracked;
    ids[1] = 9999;
    values[0] = &t;
    values[1] = NULL;
    assert_int_not_equal(ecs_sched_insert_many(s.world, e, 2, ids, values), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_spawn_with(s.world, 2, ids, values), ECS_SCHED_NULL_ENTITY);
    assert_int_not_equal(ecs_sched_insert(s.world, dead, s.tracked, &t), ECS_SCHED_OK);
    assert_int_equal(s.counts.ctors, before.ctors);
    assert_int_equal(s.counts.dtors, before.dtors);
    assert_int_equal(s.counts.copies, before.copies);
    assert_false(ecs_sched_has(s.world, e, s.tracked));
    check_and_destroy(s.world);
}

/* ---- commands ---- */

static void an_applied_command_copies_its_value_into_a_constructed_value(void **state) {
    hooks_setup s;
    ecs_sched_commands *cmd;
    ecs_sched_entity e;
    Tracked t = tracked_value(31);
    (void)state;
    setup_tracked_world(&s);
    cmd = new_commands(s.world);
    e = ecs_sched_commands_spawn(cmd);
    assert_int_equal(ecs_sched_commands_insert(cmd, e, s.tracked, &t), ECS_SCHED_OK);
    assert_int_equal(s.counts.ctors, 0);
    assert_int_equal(s.counts.copies, 0);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_int_equal(s.counts.ctors, 1);
    assert_int_equal(s.counts.copies, 1);
    assert_tracked(&s, e, 31);
    assert_int_equal(s.counts.misuse, 0);
    ecs_sched_commands_destroy(cmd);
    check_and_destroy(s.world);
}

static void dropped_commands_construct_nothing(void **state) {
    hooks_setup s;
    ecs_sched_commands *cmd;
    ecs_sched_entity e;
    Tracked t = tracked_value(31);
    (void)state;
    setup_tracked_world(&s);
    e = ecs_sched_spawn(s.world);
    cmd = new_commands(s.world);
    assert_int_equal(ecs_sched_commands_insert(cmd, e, s.tracked, &t), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_set_resource(cmd, s.tracked, &t), ECS_SCHED_OK);
    ecs_sched_commands_destroy(cmd);
    assert_int_equal(s.counts.ctors, 0);
    assert_int_equal(s.counts.dtors, 0);
    assert_int_equal(s.counts.copies, 0);
    assert_false(ecs_sched_has(s.world, e, s.tracked));
    check_and_destroy(s.world);
}

/* ---- the invariant under a long mixed sequence ---- */

static uint32_t next_random(uint32_t *seed) {
    *seed = *seed * 1664525u + 1013904223u;
    return *seed >> 8;
}

static void live_values_always_equal_constructions_minus_destructions(void **state) {
    hooks_setup s;
    enum { SLOTS = 64, STEPS = 3000 };
    ecs_sched_entity slot[SLOTS];
    int expected[SLOTS]; /* value of Tracked, -1 when the slot's entity lacks it */
    uint32_t seed = 12345;
    int step, i, holders;
    (void)state;
    setup_tracked_world(&s);
    for (i = 0; i < SLOTS; i++) {
        slot[i] = ECS_SCHED_NULL_ENTITY;
        expected[i] = -1;
    }
    for (step = 0; step < STEPS; step++) {
        int k = (int)(next_random(&seed) % SLOTS);
        uint32_t op = next_random(&seed) % 6;
        Tracked t = tracked_value(step);
        if (slot[k] == ECS_SCHED_NULL_ENTITY) {
            slot[k] = spawn_tracked(&s, step);
            expected[k] = step;
        } else if (op == 0) {
            assert_int_equal(ecs_sched_despawn(s.world, slot[k]), ECS_SCHED_OK);
            slot[k] = ECS_SCHED_NULL_ENTITY;
            expected[k] = -1;
        } else if (op == 1) {
            assert_int_equal(ecs_sched_insert(s.world, slot[k], s.tracked, &t), ECS_SCHED_OK);
            expected[k] = step;
        } else if (op == 2 && expected[k] >= 0) {
            assert_int_equal(ecs_sched_remove(s.world, slot[k], s.tracked), ECS_SCHED_OK);
            expected[k] = -1;
        } else if (op == 3) {
            assert_int_equal(ecs_sched_insert(s.world, slot[k], s.position, NULL), ECS_SCHED_OK);
        } else if (op == 4) {
            ecs_sched_remove(s.world, slot[k], s.position);
        } else {
            if (ecs_sched_has(s.world, slot[k], s.frozen))
                assert_int_equal(ecs_sched_remove(s.world, slot[k], s.frozen), ECS_SCHED_OK);
            else
                assert_int_equal(ecs_sched_insert(s.world, slot[k], s.frozen, NULL), ECS_SCHED_OK);
        }
        holders = 0;
        for (i = 0; i < SLOTS; i++) holders += expected[i] >= 0;
        assert_int_equal(live(&s.counts), holders);
        assert_int_equal(s.counts.misuse, 0);
    }
    for (i = 0; i < SLOTS; i++) {
        if (expected[i] >= 0) assert_tracked(&s, slot[i], expected[i]);
    }
    assert_true(s.counts.moves > 0);
    check_and_destroy(s.world);
    assert_int_equal(live(&s.counts), 0);
    assert_int_equal(s.counts.misuse, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_default_value_is_constructed_once_and_not_copied),
        cmocka_unit_test(a_given_value_is_copied_into_a_constructed_value),
        cmocka_unit_test(insert_of_a_new_value_constructs_it_and_copies_the_given_value),
        cmocka_unit_test(spawn_batch_constructs_and_copies_each_value_once),
        cmocka_unit_test(spawn_batch_without_values_only_constructs),
        cmocka_unit_test(overwriting_a_present_value_goes_through_the_copy_hook),
        cmocka_unit_test(an_archetype_move_relocates_through_the_move_hook),
        cmocka_unit_test(insert_many_moves_the_entity_once),
        cmocka_unit_test(column_growth_relocates_only_through_the_move_hook),
        cmocka_unit_test(despawning_a_middle_row_relocates_the_last_one_through_the_move_hook),
        cmocka_unit_test(despawn_destroys_the_value_once),
        cmocka_unit_test(remove_destroys_the_value_once),
        cmocka_unit_test(world_destroy_destroys_every_remaining_value),
        cmocka_unit_test(failed_calls_construct_and_destroy_nothing),
        cmocka_unit_test(an_applied_command_copies_its_value_into_a_constructed_value),
        cmocka_unit_test(dropped_commands_construct_nothing),
        cmocka_unit_test(live_values_always_equal_constructions_minus_destructions),
    };
    return cmocka_run_group_tests_name("hooks", tests, NULL, NULL);
}
