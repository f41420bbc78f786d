/* Sparse storage: a component registered with ECS_SCHED_STORAGE_SPARSE lives in a set of its
   own. Adding or removing it moves nothing else of the entity, and everything that works on a
   component works on it: values, hooks, observers, change ticks, commands, queries of every
   term kind, despawn, access. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecs_sched.h"

#include <cmocka.h>

#include "world_fixture.h"

typedef struct Burning {
    float heat;
    int32_t turns;
} Burning;

typedef struct Charge {
    int32_t amount;
} Charge;

/* setup_world's world plus the sparse tag Selected and the sparse component Burning. */
typedef struct sparse_setup {
    world_setup base;
    ecs_sched_id selected, burning;
} sparse_setup;

static void setup_sparse(sparse_setup *s) {
    setup_world(&s->base);
    s->selected = ECS_SCHED_SPARSE_TAG(s->base.world, Selected);
    s->burning = ECS_SCHED_SPARSE_COMPONENT(s->base.world, Burning);
    assert_true(s->selected && s->burning);
}

static ecs_sched_entity spawn_moving(sparse_setup *s, float x) {
    Position p;
    Velocity v;
    p.x = x;
    p.y = -x;
    v.x = 1;
    v.y = 2;
    return SPAWN(s->base.world, {s->base.position, &p}, {s->base.velocity, &v});
}

/* ---- storage ---- */

static void test_sparse_tag_toggled_1000_times_moves_nothing(void **state) {
    sparse_setup s;
    const Position *p;
    const Velocity *v;
    ecs_sched_entity e;
    int32_t tables, i;
    (void)state;
    setup_sparse(&s);
    e = spawn_moving(&s, 3);
    p = get_position(&s.base, e);
    v = get_velocity(&s.base, e);
    tables = ecs_sched_archetype_count(s.base.world);
    for (i = 0; i < 1000; i++) {
        assert_int_equal(ecs_sched_insert(s.base.world, e, s.selected, NULL), ECS_SCHED_OK);
        assert_true(ecs_sched_has(s.base.world, e, s.selected));
        assert_ptr_equal(get_position(&s.base, e), p);
        assert_int_equal(ecs_sched_remove(s.base.world, e, s.selected), ECS_SCHED_OK);
        assert_false(ecs_sched_has(s.base.world, e, s.selected));
        assert_ptr_equal(get_velocity(&s.base, e), v);
    }
    assert_int_equal(ecs_sched_archetype_count(s.base.world), tables);
    assert_true(p->x == 3 && v->y == 2);
    check_and_destroy(s.base.world);
}

static void test_registering_a_name_again_with_other_storage_fails(void **state) {
    sparse_setup s;
    ecs_sched_component_desc desc;
    (void)state;
    setup_sparse(&s);
    assert_int_equal(ECS_SCHED_TAG(s.base.world, Selected), 0);
    assert_failed_with(s.base.world, &s.base.log, ECS_SCHED_ERR_COMPONENT_MISMATCH);
    assert_contains(ecs_sched_last_error(s.base.world), "'Selected'");
    assert_contains(ecs_sched_last_error(s.base.world), "sparse");
    assert_int_equal(ECS_SCHED_SPARSE_COMPONENT(s.base.world, Position), 0);
    assert_failed_with(s.base.world, &s.base.log, ECS_SCHED_ERR_COMPONENT_MISMATCH);
    assert_contains(ecs_sched_last_error(s.base.world), "table storage");
    assert_int_equal(ECS_SCHED_SPARSE_TAG(s.base.world, Selected), s.selected);
    assert_int_equal(ecs_sched_component_storage(s.base.world, s.selected), ECS_SCHED_STORAGE_SPARSE);
    assert_int_equal(ecs_sched_component_storage(s.base.world, s.base.position), ECS_SCHED_STORAGE_TABLE);
    memset(&desc, 0, sizeof desc);
    desc.name = "Odd";
    desc.storage = (ecs_sched_storage)7;
    assert_int_equal(ecs_sched_component_register(s.base.world, &desc), 0);
    assert_failed_with(s.base.world, &s.base.log, ECS_SCHED_ERR_INVALID_ARGUMENT);
    check_and_destroy(s.base.world);
}

static void test_sparse_values_are_inserted_read_written_and_removed(void **state) {
    sparse_setup s;
    Burning b = {2.5f, 3}, hotter = {9.0f, 1};
    Burning *mut;
    ecs_sched_entity e;
    (void)state;
    setup_sparse(&s);
    e = spawn_moving(&s, 1);
    assert_null(ecs_sched_get(s.base.world, e, s.burning));   /* a miss: nothing recorded */
    assert_int_equal(ecs_sched_last_result(s.base.world), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(s.base.world, e, s.burning, &b), ECS_SCHED_OK);
    assert_true(((const Burning *)get_present(s.base.world, e, s.burning))->heat == 2.5f);
    assert_int_equal(ecs_sched_insert(s.base.world, e, s.burning, &hotter), ECS_SCHED_OK);
    assert_int_equal(((const Burning *)get_present(s.base.world, e, s.burning))->turns, 1);
    mut = (Burning *)ecs_sched_get_mut(s.base.world, e, s.burning);
    assert_non_null(mut);
    mut->turns = 7;
    assert_int_equal(((const Burning *)get_present(s.base.world, e, s.burning))->turns, 7);
    assert_int_equal(ecs_sched_remove(s.base.world, e, s.burning), ECS_SCHED_OK);
    assert_false(ecs_sched_has(s.base.world, e, s.burning));
    assert_int_equal(ecs_sched_remove(s.base.world, e, s.burning), ECS_SCHED_OK);   /* no-op */
    assert_true(get_position(&s.base, e)->x == 1);
    check_and_destroy(s.base.world);
}

static void test_get_of_a_sparse_tag_says_it_is_a_tag(void **state) {
    sparse_setup s;
    ecs_sched_entity e;
    (void)state;
    setup_sparse(&s);
    e = spawn_moving(&s, 1);
    assert_int_equal(ecs_sched_insert(s.base.world, e, s.selected, NULL), ECS_SCHED_OK);
    assert_null(ecs_sched_get(s.base.world, e, s.selected));
    assert_failed_with(s.base.world, &s.base.log, ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(s.base.world), "tag");
    check_and_destroy(s.base.world);
}

static void test_get_many_mixes_table_and_sparse_values(void **state) {
    sparse_setup s;
    Burning b = {4.0f, 2};
    ecs_sched_id ids[2];
    const void *out[2];
    ecs_sched_entity e;
    (void)state;
    setup_sparse(&s);
    e = spawn_moving(&s, 5);
    assert_int_equal(ecs_sched_insert(s.base.world, e, s.burning, &b), ECS_SCHED_OK);
    ids[0] = s.burning;
    ids[1] = s.base.position;
    assert_int_equal(ecs_sched_get_many(s.base.world, e, 2, ids, out), ECS_SCHED_OK);
    assert_true(((const Burning *)out[0])->heat == 4.0f);
    assert_true(((const Position *)out[1])->x == 5);
    check_and_destroy(s.base.world);
}

static void test_spawn_with_puts_sparse_values_in_their_sets_not_the_archetype(void **state) {
    sparse_setup s;
    Position p = {1, 2};
    Burning b = {1.5f, 4};
    ecs_sched_entity plain, marked;
    int32_t tables;
    (void)state;
    setup_sparse(&s);
    plain = SPAWN(s.base.world, {s.base.position, &p});
    tables = ecs_sched_archetype_count(s.base.world);
    marked = SPAWN(s.base.world, {s.selected, NULL}, {s.base.position, &p}, {s.burning, &b});
    assert_int_equal(ecs_sched_archetype_count(s.base.world), tables);
    assert_false(ecs_sched_has(s.base.world, plain, s.selected));
    assert_true(ecs_sched_has(s.base.world, marked, s.selected));
    assert_int_equal(((const Burning *)get_present(s.base.world, marked, s.burning))->turns, 4);
    assert_true(get_position(&s.base, marked)->y == 2);
    check_and_destroy(s.base.world);
}

static void test_spawn_batch_gives_each_entity_its_sparse_value(void **state) {
    sparse_setup s;
    Position ps[50];
    Burning bs[50];
    ecs_sched_entity out[50];
    ecs_sched_id ids[3];
    const void *arrays[3];
    int i;
    (void)state;
    setup_sparse(&s);
    for (i = 0; i < 50; i++) {
        ps[i].x = (float)i;
        ps[i].y = 0;
        bs[i].heat = (float)i * 2;
        bs[i].turns = i;
    }
    ids[0] = s.base.position;
    ids[1] = s.burning;
    ids[2] = s.selected;
    arrays[0] = ps;
    arrays[1] = bs;
    arrays[2] = NULL;
    assert_int_equal(ecs_sched_spawn_batch(s.base.world, 50, 3, ids, arrays, out), ECS_SCHED_OK);
    for (i = 0; i < 50; i++) {
        assert_int_equal(((const Burning *)get_present(s.base.world, out[i], s.burning))->turns, i);
        assert_true(ecs_sched_has(s.base.world, out[i], s.selected));
        assert_true(get_position(&s.base, out[i])->x == (float)i);
    }
    check_and_destroy(s.base.world);
}

static void test_archetype_get_refuses_sparse_components(void **state) {
    sparse_setup s;
    ecs_sched_id ids[2];
    (void)state;
    setup_sparse(&s);
    ids[0] = s.base.position;
    ids[1] = s.selected;
    assert_null(ecs_sched_archetype_get(s.base.world, 2, ids));
    assert_failed_with(s.base.world, &s.base.log, ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(s.base.world), "'Selected' is sparse");
    check_and_destroy(s.base.world);
}

static void test_commands_spawn_insert_and_remove_sparse_components(void **state) {
    sparse_setup s;
    ecs_sched_commands *cmd;
    Burning b = {3.0f, 9};
    Position p = {4, 4};
    ecs_sched_id ids[2];
    const void *values[2];
    ecs_sched_entity made, old;
    (void)state;
    setup_sparse(&s);
    old = spawn_moving(&s, 0);
    assert_int_equal(ecs_sched_insert(s.base.world, old, s.selected, NULL), ECS_SCHED_OK);
    cmd = new_commands(s.base.world);
    ids[0] = s.base.position;
    ids[1] = s.burning;
    values[0] = &p;
    values[1] = &b;
    made = ecs_sched_commands_spawn_with(cmd, 2, ids, values);
    assert_int_equal(ecs_sched_commands_insert(cmd, made, s.selected, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_remove(cmd, old, s.selected), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_insert(cmd, old, s.burning, &b), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_int_equal(((const Burning *)get_present(s.base.world, made, s.burning))->turns, 9);
    assert_true(ecs_sched_has(s.base.world, made, s.selected));
    assert_true(get_position(&s.base, made)->x == 4);
    assert_false(ecs_sched_has(s.base.world, old, s.selected));
    assert_true(ecs_sched_has(s.base.world, old, s.burning));
    ecs_sched_commands_destroy(cmd);
    check_and_destroy(s.base.world);
}

static void test_despawn_takes_the_entity_out_of_every_sparse_set(void **state) {
    sparse_setup s;
    ecs_sched_id more;
    ecs_sched_entity e, kept, again;
    Burning b = {1, 1};
    (void)state;
    setup_sparse(&s);
    more = ECS_SCHED_SPARSE_TAG(s.base.world, Highlighted);
    kept = spawn_moving(&s, 1);
    e = spawn_moving(&s, 2);
    assert_int_equal(ecs_sched_insert(s.base.world, kept, s.burning, &b), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(s.base.world, e, s.selected, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(s.base.world, e, s.burning, &b), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(s.base.world, e, more, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(s.base.world, e), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_world_check(s.base.world), ECS_SCHED_OK);
    again = ecs_sched_spawn(s.base.world);
    assert_int_equal(ECS_SCHED_ENTITY_INDEX(again), ECS_SCHED_ENTITY_INDEX(e));
    assert_false(ecs_sched_has(s.base.world, again, s.selected));
    assert_false(ecs_sched_has(s.base.world, again, s.burning));
    assert_false(ecs_sched_has(s.base.world, again, more));
    assert_true(ecs_sched_has(s.base.world, kept, s.burning));
    check_and_destroy(s.base.world);
}

/* ---- hooks and observers ---- */

typedef struct hook_counts {
    int ctor, dtor, copy, move;
} hook_counts;

static void count_ctor(void *dst, int32_t n, void *ctx) {
    memset(dst, 0, (size_t)n * sizeof(Burning));
    ((hook_counts *)ctx)->ctor += n;
}
static void count_dtor(void *ptr, int32_t n, void *ctx) {
    (void)ptr;
    ((hook_counts *)ctx)->dtor += n;
}
static void count_copy(void *dst, const void *src, int32_t n, void *ctx) {
    memcpy(dst, src, (size_t)n * sizeof(Burning));
    ((hook_counts *)ctx)->copy += n;
}
static void count_move(void *dst, void *src, int32_t n, void *ctx) {
    memcpy(dst, src, (size_t)n * sizeof(Burning));
    ((hook_counts *)ctx)->move += n;
}

static void test_hooks_run_once_per_add_and_remove(void **state) {
    world_setup s;
    hook_counts counts = {0, 0, 0, 0};
    ecs_sched_component_desc desc;
    ecs_sched_entity e[3];
    ecs_sched_id hot;
    Burning b = {1, 2};
    int i;
    (void)state;
    setup_world(&s);
    memset(&desc, 0, sizeof desc);
    desc.name = "Hot";
    desc.size = sizeof(Burning);
    desc.storage = ECS_SCHED_STORAGE_SPARSE;
    desc.hooks.ctor = count_ctor;
    desc.hooks.dtor = count_dtor;
    desc.hooks.copy = count_copy;
    desc.hooks.move = count_move;
    desc.hooks.ctx = &counts;
    hot = ecs_sched_component_register(s.world, &desc);
    for (i = 0; i < 3; i++) e[i] = ecs_sched_spawn(s.world);
    /* a new value is constructed, then a given one copied onto it; a present one assigned */
    assert_int_equal(ecs_sched_insert(s.world, e[0], hot, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(s.world, e[1], hot, &b), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(s.world, e[2], hot, &b), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(s.world, e[2], hot, &b), ECS_SCHED_OK);
    assert_int_equal(counts.ctor, 3);
    assert_int_equal(counts.copy, 3);
    assert_int_equal(counts.dtor, 0);
    assert_int_equal(ecs_sched_remove(s.world, e[0], hot), ECS_SCHED_OK);   /* last moves in */
    assert_int_equal(counts.dtor, 1);
    assert_int_equal(counts.move, 1);
    assert_int_equal(ecs_sched_despawn(s.world, e[1]), ECS_SCHED_OK);
    assert_int_equal(counts.dtor, 2);
    assert_true(((const Burning *)get_present(s.world, e[2], hot))->turns == 2);
    check_and_destroy(s.world);   /* the last value goes with the world */
    assert_int_equal(counts.dtor, 3);
}

typedef struct heard {
    int add, insert, remove, set, unset;
    char order[16];   /* the events heard, in order: a(dd) i(nsert) s(et) r(emove) u(nset) */
    ecs_sched_entity last;
} heard;

static void hear(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *trigger) {
    heard *h = (heard *)ecs_sched_ctx_user_data(ctx);
    if (trigger->event == ECS_SCHED_ON_ADD) h->add++;
    if (trigger->event == ECS_SCHED_ON_INSERT) h->insert++;
    if (trigger->event == ECS_SCHED_ON_REMOVE) h->remove++;
    if (trigger->event == ECS_SCHED_ON_SET) h->set++;
    if (trigger->event == ECS_SCHED_ON_UNSET) h->unset++;
    if (strlen(h->order) < sizeof h->order - 1) {
        h->order[strlen(h->order)] = trigger->event == ECS_SCHED_ON_ADD ? 'a'
                                   : trigger->event == ECS_SCHED_ON_INSERT ? 'i'
                                   : trigger->event == ECS_SCHED_ON_SET ? 's'
                                   : trigger->event == ECS_SCHED_ON_REMOVE ? 'r' : 'u';
    }
    h->last = trigger->entity;
}

static void observe(ecs_sched_world *w, ecs_sched_observer_event event, ecs_sched_id id, heard *h) {
    ecs_sched_observer_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.event = event;
    desc.component = id;
    desc.fn = hear;
    desc.user_data = h;
    assert_int_not_equal(ecs_sched_observer_add(w, &desc), 0);
}

static void test_observers_hear_each_sparse_add_insert_and_remove_once(void **state) {
    sparse_setup s;
    heard h;
    Burning b = {1, 1};
    ecs_sched_entity e, f;
    (void)state;
    setup_sparse(&s);
    memset(&h, 0, sizeof h);
    observe(s.base.world, ECS_SCHED_ON_ADD, s.burning, &h);
    observe(s.base.world, ECS_SCHED_ON_INSERT, s.burning, &h);
    observe(s.base.world, ECS_SCHED_ON_REMOVE, s.burning, &h);
    e = spawn_moving(&s, 1);
    assert_int_equal(ecs_sched_insert(s.base.world, e, s.burning, &b), ECS_SCHED_OK);
    assert_int_equal(h.add, 1);
    assert_int_equal(h.insert, 1);
    assert_int_equal(ecs_sched_insert(s.base.world, e, s.burning, &b), ECS_SCHED_OK);
    assert_int_equal(h.add, 1);
    assert_int_equal(h.insert, 2);
    assert_int_equal(ecs_sched_remove(s.base.world, e, s.burning), ECS_SCHED_OK);
    assert_int_equal(h.remove, 1);
    assert_int_equal(ecs_sched_remove(s.base.world, e, s.burning), ECS_SCHED_OK);
    assert_int_equal(h.remove, 1);
    f = SPAWN(s.base.world, {s.burning, &b});
    assert_int_equal(h.add, 2);
    assert_int_equal(ecs_sched_despawn(s.base.world, f), ECS_SCHED_OK);
    assert_int_equal(h.remove, 2);
    assert_int_equal(h.last, f);
    check_and_destroy(s.base.world);
}

static void test_a_sparse_value_set_is_heard_by_on_set_after_on_insert_as_in_a_table(void **state) {
    sparse_setup s;
    heard h;
    Burning b = {2, 3};
    ecs_sched_entity e, f;
    (void)state;
    setup_sparse(&s);
    memset(&h, 0, sizeof h);
    observe(s.base.world, ECS_SCHED_ON_ADD, s.burning, &h);
    observe(s.base.world, ECS_SCHED_ON_INSERT, s.burning, &h);
    observe(s.base.world, ECS_SCHED_ON_SET, s.burning, &h);
    observe(s.base.world, ECS_SCHED_ON_UNSET, s.burning, &h);
    e = spawn_moving(&s, 1);
    assert_int_equal(ecs_sched_insert(s.base.world, e, s.burning, &b), ECS_SCHED_OK);
    assert_string_equal(h.order, "ais");
    assert_int_equal(ecs_sched_insert(s.base.world, e, s.burning, &b), ECS_SCHED_OK);   /* over it */
    assert_string_equal(h.order, "aisis");
    f = SPAWN(s.base.world, {s.burning, &b});
    assert_int_equal(h.set, 3);
    assert_int_equal(h.last, f);
    assert_int_equal(ecs_sched_remove(s.base.world, e, s.burning), ECS_SCHED_OK);
    assert_int_equal(h.unset, 1);
    check_and_destroy(s.base.world);
}

static void test_observer_filters_see_sparse_components(void **state) {
    sparse_setup s;
    ecs_sched_observer_desc desc;
    heard h;
    ecs_sched_entity plain, selected;
    (void)state;
    setup_sparse(&s);
    memset(&h, 0, sizeof h);
    memset(&desc, 0, sizeof desc);
    desc.event = ECS_SCHED_ON_ADD;
    desc.component = s.base.health;
    desc.fn = hear;
    desc.user_data = &h;
    desc.with[0] = s.selected;
    assert_int_not_equal(ecs_sched_observer_add(s.base.world, &desc), 0);
    plain = ecs_sched_spawn(s.base.world);
    selected = SPAWN(s.base.world, {s.selected, NULL});
    assert_int_equal(ecs_sched_insert(s.base.world, plain, s.base.health, NULL), ECS_SCHED_OK);
    assert_int_equal(h.add, 0);
    assert_int_equal(ecs_sched_insert(s.base.world, selected, s.base.health, NULL), ECS_SCHED_OK);
    assert_int_equal(h.add, 1);
    assert_int_equal(h.last, selected);
    check_and_destroy(s.base.world);
}

/* ---- queries ---- */

/* What one entity has, kept beside the world. */
typedef struct shadow {
    ecs_sched_entity e;
    bool alive, pos, vel, frozen, selected, burning;
    Burning b;
} shadow;

#define SHADOWS 400

static bool shadow_has(const shadow *sh, int which) {
    switch (which) {
    case 0: return sh->pos;
    case 1: return sh->vel;
    case 2: return sh->frozen;
    case 3: return sh->selected;
    default: return sh->burning;
    }
}

/* A random world of SHADOWS entities and its shadow: table components Position, Velocity,
   Frozen, sparse Selected and Burning, some entities despawned. */
static void make_random_world(sparse_setup *s, shadow *sh, unsigned seed) {
    int i;
    srand(seed);
    for (i = 0; i < SHADOWS; i++) {
        ecs_sched_world *w = s->base.world;
        shadow *x = &sh[i];
        memset(x, 0, sizeof *x);
        x->e = ecs_sched_spawn(w);
        x->alive = true;
        if (rand() % 2) { x->pos = true; assert_int_equal(ecs_sched_insert(w, x->e, s->base.position, NULL), ECS_SCHED_OK); }
        if (rand() % 2) { x->vel = true; assert_int_equal(ecs_sched_insert(w, x->e, s->base.velocity, NULL), ECS_SCHED_OK); }
        if (rand() % 4 == 0) { x->frozen = true; assert_int_equal(ecs_sched_insert(w, x->e, s->base.frozen, NULL), ECS_SCHED_OK); }
        if (rand() % 3 == 0) { x->selected = true; assert_int_equal(ecs_sched_insert(w, x->e, s->selected, NULL), ECS_SCHED_OK); }
        if (rand() % 3 == 0) {
            x->burning = true;
            x->b.turns = i;
            x->b.heat = (float)i / 2;
            assert_int_equal(ecs_sched_insert(w, x->e, s->burning, &x->b), ECS_SCHED_OK);
        }
    }
    for (i = 0; i < SHADOWS; i++) {   /* churn: some leave, some lose or gain a marker */
        shadow *x = &sh[rand() % SHADOWS];
        int what = rand() % 3;
        if (!x->alive) continue;
        if (what == 0) {
            assert_int_equal(ecs_sched_despawn(s->base.world, x->e), ECS_SCHED_OK);
            x->alive = false;
        } else if (what == 1) {
            x->selected = !x->selected;
            if (x->selected) assert_int_equal(ecs_sched_insert(s->base.world, x->e, s->selected, NULL), ECS_SCHED_OK);
            else assert_int_equal(ecs_sched_remove(s->base.world, x->e, s->selected), ECS_SCHED_OK);
        } else if (x->burning) {
            x->burning = false;
            assert_int_equal(ecs_sched_remove(s->base.world, x->e, s->burning), ECS_SCHED_OK);
        }
    }
}

static const shadow *find_shadow(const shadow *sh, ecs_sched_entity e) {
    int i;
    for (i = 0; i < SHADOWS; i++) {
        if (sh[i].alive && sh[i].e == e) return &sh[i];
    }
    return NULL;
}

/* Every combination of a kind per component (absent, required, optional, without) over the
   five components; each query's rows equal a brute-force filter of the shadow, each row
   once, and a Burning field points at the entity's value. */
static void test_queries_mixing_table_and_sparse_terms_match_brute_force(void **state) {
    sparse_setup s;
    shadow sh[SHADOWS];
    ecs_sched_id ids[5];
    int combo, checked = 0;
    (void)state;
    setup_sparse(&s);
    make_random_world(&s, sh, 1234u);
    ids[0] = s.base.position;
    ids[1] = s.base.velocity;
    ids[2] = s.base.frozen;
    ids[3] = s.selected;
    ids[4] = s.burning;
    for (combo = 0; combo < 1024; combo++) {   /* 4^5 */
        ecs_sched_query_desc desc;
        int kinds[5], n = 0, c, burning_term = -1, expected = 0, got = 0, i;
        ecs_sched_query *q;
        ecs_sched_iter it;
        bool seen[SHADOWS];
        memset(&desc, 0, sizeof desc);
        for (c = 0; c < 5; c++) {
            kinds[c] = (combo >> (2 * c)) & 3;
            if (kinds[c] == 0) continue;
            if (c == 4) burning_term = n;
            desc.terms[n].id = ids[c];
            desc.terms[n].kind = kinds[c] == 1 ? ECS_SCHED_TERM_WRITE
                                 : kinds[c] == 2 ? ECS_SCHED_TERM_OPTIONAL_READ
                                                 : ECS_SCHED_TERM_WITHOUT;
            n++;
        }
        if (n == 0) continue;
        q = ecs_sched_query_create(s.base.world, &desc);
        assert_non_null(q);
        memset(seen, 0, sizeof seen);
        for (i = 0; i < SHADOWS; i++) {
            bool match = sh[i].alive;
            for (c = 0; c < 5 && match; c++) {
                if (kinds[c] == 1 && !shadow_has(&sh[i], c)) match = false;
                if (kinds[c] == 3 && shadow_has(&sh[i], c)) match = false;
            }
            expected += match;
        }
        it = ecs_sched_query_iter(q);
        while (ecs_sched_iter_next(&it)) {
            for (i = 0; i < it.count; i++) {
                const shadow *x = find_shadow(sh, it.entities[i]);
                assert_non_null(x);
                assert_false(seen[x - sh]);
                seen[x - sh] = true;
                for (c = 0; c < 5; c++) {
                    if (kinds[c] == 1) assert_true(shadow_has(x, c));
                    if (kinds[c] == 3) assert_false(shadow_has(x, c));
                }
                if (burning_term >= 0 && kinds[4] != 3) {
                    const Burning *const *b = (const Burning *const *)it.fields[burning_term];
                    if (x->burning) assert_int_equal(b[i]->turns, x->b.turns);
                    else assert_null(b[i]);
                }
                got++;
            }
        }
        assert_int_equal(got, expected);
        assert_int_equal(ecs_sched_query_count(q), expected);
        ecs_sched_query_destroy(q);
        checked++;
    }
    assert_int_equal(checked, 1023);
    check_and_destroy(s.base.world);
}

static void test_a_sparse_field_is_written_through_its_pointers(void **state) {
    sparse_setup s;
    ecs_sched_query *q;
    ecs_sched_iter it;
    ecs_sched_entity e[4];
    Burning b = {1, 10};
    int i, rows = 0;
    (void)state;
    setup_sparse(&s);
    for (i = 0; i < 4; i++) e[i] = spawn_moving(&s, (float)i);
    assert_int_equal(ecs_sched_insert(s.base.world, e[1], s.burning, &b), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(s.base.world, e[3], s.burning, &b), ECS_SCHED_OK);
    q = QUERY(s.base.world, ecs_sched_read(s.base.position), ecs_sched_write(s.burning));
    assert_non_null(q);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
        Burning *const *burning = ECS_SCHED_SPARSE_FIELD(&it, Burning, 1);
        for (i = 0; i < it.count; i++) burning[i]->turns += (int32_t)p[i].x;
        rows += it.count;
    }
    assert_int_equal(rows, 2);
    assert_int_equal(((const Burning *)get_present(s.base.world, e[1], s.burning))->turns, 11);
    assert_int_equal(((const Burning *)get_present(s.base.world, e[3], s.burning))->turns, 13);
    check_and_destroy(s.base.world);
}

static void test_iteration_by_rows_gives_each_row_its_sparse_pointer(void **state) {
    sparse_setup s;
    ecs_sched_query *q;
    ecs_sched_iter it;
    ecs_sched_entity e[300];
    int i, rows = 0;
    (void)state;
    setup_sparse(&s);
    for (i = 0; i < 300; i++) {
        Burning b;
        b.heat = 0;
        b.turns = i;
        e[i] = spawn_moving(&s, (float)i);
        if (i % 7 == 3) assert_int_equal(ecs_sched_insert(s.base.world, e[i], s.burning, &b), ECS_SCHED_OK);
    }
    q = QUERY(s.base.world, ecs_sched_read(s.base.position), ecs_sched_write(s.burning));
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next_rows(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
        Burning *const *b = (Burning *const *)it.fields[1];
        assert_true(it.count <= ECS_SCHED_ITER_ROWS);
        for (i = 0; i < it.count; i++) {
            ecs_sched_entity row_entity = it.entities[it.rows[i]];
            assert_ptr_equal(b[i], ecs_sched_get(s.base.world, row_entity, s.burning));
            assert_true(p[it.rows[i]].x == (float)b[i]->turns);
            rows++;
        }
    }
    assert_int_equal(rows, 43);
    check_and_destroy(s.base.world);
}

static void test_iteration_by_rows_hands_out_each_filtered_row_once_table_by_table(void **state) {
    sparse_setup s;
    ecs_sched_query *q;
    ecs_sched_iter it;
    static bool seen[600];
    int i, rows = 0, calls = 0;
    (void)state;
    setup_sparse(&s);
    memset(seen, 0, sizeof seen);
    for (i = 0; i < 600; i++) {   /* three tables of 200, two rows in three selected */
        ecs_sched_entity e = spawn_moving(&s, (float)i);
        Health h;
        h.hp = i;
        if (i >= 200 && i < 400) assert_int_equal(ecs_sched_insert(s.base.world, e, s.base.health, &h), ECS_SCHED_OK);
        if (i >= 400) assert_int_equal(ecs_sched_insert(s.base.world, e, s.base.frozen, NULL), ECS_SCHED_OK);
        if (i % 3) assert_int_equal(ecs_sched_insert(s.base.world, e, s.selected, NULL), ECS_SCHED_OK);
    }
    q = QUERY(s.base.world, ecs_sched_read(s.base.position), ecs_sched_read(s.selected));
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next_rows(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
        assert_true(it.count > 0 && it.count <= ECS_SCHED_ITER_ROWS);
        for (i = 0; i < it.count; i++) {
            int32_t x = (int32_t)p[it.rows[i]].x;
            assert_true(i == 0 || it.rows[i] > it.rows[i - 1]);   /* one table, in row order */
            assert_true(x >= 0 && x < 600 && x % 3 != 0 && !seen[x]);
            assert_true(ecs_sched_has(s.base.world, it.entities[it.rows[i]], s.selected));
            seen[x] = true;
            rows++;
        }
        calls++;
    }
    assert_int_equal(rows, 400);
    assert_true(calls >= 3 * ((133 + ECS_SCHED_ITER_ROWS - 1) / ECS_SCHED_ITER_ROWS));
    check_and_destroy(s.base.world);
}

static void test_sparse_terms_combine_with_related_and_parent_terms(void **state) {
    sparse_setup s;
    ecs_sched_query *related, *from_parent;
    ecs_sched_entity parent, other, kids[6];
    ecs_sched_iter it;
    Position pp = {5, 0};
    int i, rows = 0;
    (void)state;
    setup_sparse(&s);
    parent = SPAWN(s.base.world, {s.base.position, &pp});
    other = SPAWN(s.base.world, {s.base.position, NULL});
    for (i = 0; i < 6; i++) {
        kids[i] = spawn_moving(&s, (float)i);
        assert_int_equal(ecs_sched_set_parent(s.base.world, kids[i], i < 4 ? parent : other), ECS_SCHED_OK);
        if (i % 2 == 0) assert_int_equal(ecs_sched_insert(s.base.world, kids[i], s.selected, NULL), ECS_SCHED_OK);
    }
    related = QUERY(s.base.world, ecs_sched_related(ecs_sched_child_of(s.base.world), parent),
                    ecs_sched_read(s.selected));
    assert_int_equal(ecs_sched_query_count(related), 2);   /* kids 0 and 2 */
    from_parent = QUERY(s.base.world, ecs_sched_from_parent(s.base.position), ecs_sched_without(s.selected),
                        ecs_sched_read(s.base.velocity));
    it = ecs_sched_query_iter(from_parent);
    while (ecs_sched_iter_next(&it)) {
        const Position *const *up = ECS_SCHED_PARENT_FIELD(&it, Position, 0);
        for (i = 0; i < it.count; i++) {
            assert_false(ecs_sched_has(s.base.world, it.entities[i], s.selected));
            assert_ptr_equal(up[i], ecs_sched_get(s.base.world, ecs_sched_parent_of(s.base.world, it.entities[i]),
                                                  s.base.position));
            rows++;
        }
    }
    assert_int_equal(rows, 3);   /* kids 1, 3 and 5 */
    check_and_destroy(s.base.world);
}

static void test_a_sparse_query_follows_adds_and_removes(void **state) {
    sparse_setup s;
    ecs_sched_query *q;
    ecs_sched_entity e[10];
    int i;
    (void)state;
    setup_sparse(&s);
    for (i = 0; i < 10; i++) e[i] = spawn_moving(&s, (float)i);
    q = QUERY(s.base.world, ecs_sched_read(s.base.position), ecs_sched_read(s.selected));
    assert_int_equal(ecs_sched_query_count(q), 0);
    for (i = 0; i < 10; i += 2) assert_int_equal(ecs_sched_insert(s.base.world, e[i], s.selected, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_query_count(q), 5);
    assert_int_equal(ecs_sched_remove(s.base.world, e[4], s.selected), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_query_count(q), 4);
    assert_int_equal(ecs_sched_despawn(s.base.world, e[0]), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_query_count(q), 3);
    check_and_destroy(s.base.world);
}

/* Eight members fill a set's first block; a query lists them (and keeps their pointers). */
static ecs_sched_query *eight_burning_listed(sparse_setup *s, ecs_sched_entity *e) {
    ecs_sched_query *q;
    ecs_sched_iter it;
    int i;
    for (i = 0; i < 8; i++) {
        Burning b;
        b.heat = (float)i;
        b.turns = i;
        e[i] = SPAWN(s->base.world, {s->burning, &b});
    }
    q = QUERY(s->base.world, ecs_sched_read(s->burning));
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {}
    return q;
}

/* The heat each row of q hands out, summed (every pointer read). */
static float sum_of_listed_heat(ecs_sched_query *q) {
    ecs_sched_iter it = ecs_sched_query_iter(q);
    float sum = 0;
    while (ecs_sched_iter_next(&it)) {
        int i;
        for (i = 0; i < it.count; i++) sum += ECS_SCHED_SPARSE_FIELD(&it, Burning, 0)[i]->heat;
    }
    return sum;
}

static void test_a_sparse_query_reads_live_values_after_insert_many_on_a_full_set(void **state) {
    sparse_setup s;
    ecs_sched_entity e[8];
    ecs_sched_query *q;
    Burning hot = {100, 0};
    const void *values[1];
    (void)state;
    setup_sparse(&s);
    q = eight_burning_listed(&s, e);
    values[0] = &hot;
    assert_int_equal(ecs_sched_insert_many(s.base.world, e[0], 1, &s.burning, values), ECS_SCHED_OK);
    assert_true(sum_of_listed_heat(q) == 100 + 1 + 2 + 3 + 4 + 5 + 6 + 7);
    check_and_destroy(s.base.world);
}

static void test_a_sparse_query_reads_live_values_after_a_command_insert_on_a_full_set(void **state) {
    sparse_setup s;
    ecs_sched_entity e[8];
    ecs_sched_query *q;
    ecs_sched_commands *cmd;
    Burning hot = {100, 0};
    (void)state;
    setup_sparse(&s);
    q = eight_burning_listed(&s, e);
    cmd = ecs_sched_commands_create(s.base.world);
    assert_int_equal(ecs_sched_commands_insert(cmd, e[7], s.burning, &hot), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    ecs_sched_commands_destroy(cmd);
    assert_true(sum_of_listed_heat(q) == 0 + 1 + 2 + 3 + 4 + 5 + 6 + 100);
    check_and_destroy(s.base.world);
}

/* Each sparse term with a value keeps its pointers in a part of one block: with a single
   row, the second term's part must lie inside the block as well (the sanitizer sees it). */
static void test_a_query_reads_two_sparse_values_of_a_single_row(void **state) {
    sparse_setup s;
    ecs_sched_id charge;
    ecs_sched_entity e;
    ecs_sched_query *q;
    ecs_sched_iter it;
    Burning b = {2, 3};
    Charge c = {7};
    int32_t rows = 0;
    (void)state;
    setup_sparse(&s);
    charge = ECS_SCHED_SPARSE_COMPONENT(s.base.world, Charge);
    e = SPAWN(s.base.world, {s.burning, &b}, {charge, &c});
    q = QUERY(s.base.world, ecs_sched_read(s.burning), ecs_sched_read(charge));
    assert_non_null(q);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        assert_int_equal(it.count, 1);
        assert_true(it.entities[0] == e);
        assert_int_equal(ECS_SCHED_SPARSE_FIELD(&it, Burning, 0)[0]->turns, 3);
        assert_int_equal(ECS_SCHED_SPARSE_FIELD(&it, Charge, 1)[0]->amount, 7);
        rows += it.count;
    }
    assert_int_equal(rows, 1);
    check_and_destroy(s.base.world);
}

static void test_disabled_entities_stay_hidden_from_sparse_queries(void **state) {
    sparse_setup s;
    ecs_sched_query *q;
    ecs_sched_entity a, b;
    (void)state;
    setup_sparse(&s);
    a = SPAWN(s.base.world, {s.selected, NULL});
    b = SPAWN(s.base.world, {s.selected, NULL});
    assert_int_equal(ecs_sched_disable(s.base.world, b), ECS_SCHED_OK);
    q = QUERY(s.base.world, ecs_sched_read(s.selected));
    assert_int_equal(ecs_sched_query_count(q), 1);
    (void)a;
    check_and_destroy(s.base.world);
}

static void test_sparse_terms_refuse_parent_inherited_and_order(void **state) {
    sparse_setup s;
    ecs_sched_query *q;
    (void)state;
    setup_sparse(&s);
    assert_null(QUERY(s.base.world, ecs_sched_from_parent(s.burning)));
    assert_failed_with(s.base.world, &s.base.log, ECS_SCHED_ERR_INVALID_QUERY);
    assert_contains(ecs_sched_last_error(s.base.world), "'Burning' is sparse");
    assert_null(QUERY(s.base.world, ecs_sched_inherited(s.burning)));
    assert_failed_with(s.base.world, &s.base.log, ECS_SCHED_ERR_INVALID_QUERY);
    q = QUERY(s.base.world, ecs_sched_read(s.burning), ecs_sched_read(s.base.position));
    assert_non_null(q);
    assert_int_not_equal(ecs_sched_query_order_by(q, s.burning, NULL), ECS_SCHED_OK);
    check_and_destroy(s.base.world);
}

static int order_by_x(ecs_sched_entity a, const void *pa, ecs_sched_entity b, const void *pb) {
    float x = ((const Position *)pa)->x, y = ((const Position *)pb)->x;
    (void)a;
    (void)b;
    return x < y ? 1 : x > y ? -1 : 0;   /* descending */
}

static void test_a_sorted_query_with_a_sparse_term_keeps_its_order(void **state) {
    sparse_setup s;
    ecs_sched_query *q;
    ecs_sched_iter it;
    ecs_sched_entity e[6];
    float last = 1e9f;
    int i, rows = 0;
    (void)state;
    setup_sparse(&s);
    for (i = 0; i < 6; i++) {
        e[i] = spawn_moving(&s, (float)i);
        if (i % 2) assert_int_equal(ecs_sched_insert(s.base.world, e[i], s.selected, NULL), ECS_SCHED_OK);
    }
    q = QUERY(s.base.world, ecs_sched_read(s.base.position), ecs_sched_read(s.selected));
    assert_int_equal(ecs_sched_query_order_by(q, s.base.position, order_by_x), ECS_SCHED_OK);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
        for (i = 0; i < it.count; i++) {
            assert_true(p[i].x < last);
            assert_true((int)p[i].x % 2 == 1);
            last = p[i].x;
            rows++;
        }
    }
    assert_int_equal(rows, 3);
    check_and_destroy(s.base.world);
}

/* ---- change detection ---- */

static int count_rows(ecs_sched_query *q) {
    ecs_sched_iter it = ecs_sched_query_iter(q);
    int rows = 0;
    while (ecs_sched_iter_next(&it)) rows += it.count;
    return rows;
}

static void test_added_and_changed_terms_see_sparse_changes_once(void **state) {
    world_setup s;
    ecs_sched_query *added, *changed;
    ecs_sched_id heat;
    ecs_sched_component_desc desc;
    ecs_sched_entity e[5];
    Burning *b;
    int i;
    (void)state;
    setup_world(&s);
    memset(&desc, 0, sizeof desc);
    desc.name = "Heat";
    desc.size = sizeof(Burning);
    desc.tracked = true;
    desc.storage = ECS_SCHED_STORAGE_SPARSE;
    heat = ecs_sched_component_register(s.world, &desc);
    added = QUERY(s.world, ecs_sched_added(heat));
    changed = QUERY(s.world, ecs_sched_changed(heat), ecs_sched_read(s.position));
    for (i = 0; i < 5; i++) e[i] = SPAWN(s.world, {s.position, NULL});
    for (i = 0; i < 3; i++) assert_int_equal(ecs_sched_insert(s.world, e[i], heat, NULL), ECS_SCHED_OK);
    assert_int_equal(count_rows(added), 3);
    assert_int_equal(count_rows(added), 0);
    assert_int_equal(count_rows(changed), 3);
    assert_int_equal(count_rows(changed), 0);
    b = (Burning *)ecs_sched_get_mut(s.world, e[1], heat);
    b->turns = 4;
    assert_int_equal(count_rows(changed), 1);
    assert_int_equal(count_rows(added), 0);
    assert_int_equal(ecs_sched_insert(s.world, e[4], heat, NULL), ECS_SCHED_OK);
    assert_int_equal(count_rows(added), 1);
    assert_int_equal(count_rows(changed), 1);
    check_and_destroy(s.world);
}

static void test_a_write_term_marks_the_sparse_rows_it_hands_out(void **state) {
    world_setup s;
    ecs_sched_query *writer, *changed;
    ecs_sched_id heat;
    ecs_sched_component_desc desc;
    int i;
    (void)state;
    setup_world(&s);
    memset(&desc, 0, sizeof desc);
    desc.name = "Heat";
    desc.size = sizeof(Burning);
    desc.tracked = true;
    desc.storage = ECS_SCHED_STORAGE_SPARSE;
    heat = ecs_sched_component_register(s.world, &desc);
    for (i = 0; i < 6; i++) {
        ecs_sched_entity e = SPAWN(s.world, {s.position, NULL});
        if (i < 4) assert_int_equal(ecs_sched_insert(s.world, e, heat, NULL), ECS_SCHED_OK);
    }
    writer = QUERY(s.world, ecs_sched_write(heat));
    changed = QUERY(s.world, ecs_sched_changed(heat));
    assert_int_equal(count_rows(changed), 4);
    assert_int_equal(count_rows(changed), 0);
    assert_int_equal(count_rows(writer), 4);
    assert_int_equal(count_rows(changed), 4);
    check_and_destroy(s.world);
}

static void test_removals_of_a_tracked_sparse_component_are_kept(void **state) {
    world_setup s;
    ecs_sched_component_desc desc;
    ecs_sched_message_cursor cursor;
    ecs_sched_messages read;
    ecs_sched_id smoke;
    ecs_sched_entity e, f;
    const ecs_sched_entity *got;
    (void)state;
    setup_world(&s);
    memset(&desc, 0, sizeof desc);
    desc.name = "Smoke";
    desc.tracked = true;
    desc.storage = ECS_SCHED_STORAGE_SPARSE;
    smoke = ecs_sched_component_register(s.world, &desc);
    cursor = ecs_sched_removed_cursor_make(s.world, smoke);
    e = SPAWN(s.world, {smoke, NULL});
    f = SPAWN(s.world, {smoke, NULL});
    assert_int_equal(ecs_sched_remove(s.world, e, smoke), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(s.world, f), ECS_SCHED_OK);
    read = ecs_sched_message_read(s.world, &cursor);
    assert_int_equal(read.total, 2);
    assert_true(ecs_sched_messages_next(&read));
    assert_int_equal(read.count, 2);
    got = (const ecs_sched_entity *)read.data;
    assert_int_equal(got[0], e);
    assert_int_equal(got[1], f);
    check_and_destroy(s.world);
}

/* ---- snapshots, JSON, prefabs ---- */

static void test_a_snapshot_restores_sparse_members_and_values(void **state) {
    sparse_setup s;
    ecs_sched_snapshot *snap;
    ecs_sched_entity e[4], late;
    Burning b = {2, 5};
    Burning *mut;
    int i;
    (void)state;
    setup_sparse(&s);
    for (i = 0; i < 4; i++) e[i] = spawn_moving(&s, (float)i);
    assert_int_equal(ecs_sched_insert(s.base.world, e[0], s.selected, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(s.base.world, e[1], s.burning, &b), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(s.base.world, e[2], s.burning, &b), ECS_SCHED_OK);
    snap = ecs_sched_snapshot_take(s.base.world);
    assert_non_null(snap);
    assert_int_equal(ecs_sched_remove(s.base.world, e[0], s.selected), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(s.base.world, e[3], s.selected, NULL), ECS_SCHED_OK);
    mut = (Burning *)ecs_sched_get_mut(s.base.world, e[1], s.burning);
    mut->turns = 99;
    assert_int_equal(ecs_sched_despawn(s.base.world, e[2]), ECS_SCHED_OK);
    late = SPAWN(s.base.world, {s.burning, &b});
    assert_int_equal(ecs_sched_snapshot_restore(s.base.world, snap), ECS_SCHED_OK);
    assert_true(ecs_sched_has(s.base.world, e[0], s.selected));
    assert_false(ecs_sched_has(s.base.world, e[3], s.selected));
    assert_int_equal(((const Burning *)get_present(s.base.world, e[1], s.burning))->turns, 5);
    assert_int_equal(((const Burning *)get_present(s.base.world, e[2], s.burning))->turns, 5);
    assert_false(ecs_sched_is_alive(s.base.world, late));
    assert_int_equal(ecs_sched_world_check(s.base.world), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_snapshot_retake(s.base.world, snap), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_snapshot_restore(s.base.world, snap), ECS_SCHED_OK);
    assert_true(ecs_sched_has(s.base.world, e[0], s.selected));
    ecs_sched_snapshot_free(snap);
    check_and_destroy(s.base.world);
}

static void test_json_writes_and_loads_sparse_components(void **state) {
    sparse_setup s;
    ecs_sched_member burning_fields[] = {ECS_SCHED_MEMBER(Burning, heat, ECS_SCHED_TYPE_F32),
                                         ECS_SCHED_MEMBER(Burning, turns, ECS_SCHED_TYPE_I32)};
    ecs_sched_prefab_data *d;
    ecs_sched_entity e, made[1];
    Burning b = {1.5f, 6};
    char *text;
    (void)state;
    setup_sparse(&s);
    assert_int_equal(ecs_sched_describe(s.base.world, s.burning, 2, burning_fields), ECS_SCHED_OK);
    e = SPAWN(s.base.world, {s.selected, NULL}, {s.burning, &b});
    text = ecs_sched_json_save(s.base.world, 1, &e, false);
    assert_non_null(text);
    assert_contains(text, "\"Selected\"");
    assert_contains(text, "\"turns\"");
    d = ecs_sched_prefab_data_from_json(s.base.world, text, NULL);
    assert_non_null(d);
    assert_int_equal(ecs_sched_prefab_data_instantiate(s.base.world, d, 0, made), ECS_SCHED_OK);
    assert_true(ecs_sched_has(s.base.world, made[0], s.selected));
    assert_int_equal(((const Burning *)get_present(s.base.world, made[0], s.burning))->turns, 6);
    ecs_sched_prefab_data_free(d);
    ecs_sched_json_free(text);
    check_and_destroy(s.base.world);
}

static void test_an_instance_owns_a_copy_of_its_prefabs_sparse_components(void **state) {
    sparse_setup s;
    ecs_sched_entity prefab, a, b;
    Burning hot = {3, 3};
    Burning *mut;
    (void)state;
    setup_sparse(&s);
    prefab = SPAWN(s.base.world, {ecs_sched_prefab_tag(s.base.world), NULL}, {s.base.position, NULL},
                   {s.burning, &hot}, {s.selected, NULL});
    a = ecs_sched_instantiate(s.base.world, prefab);
    b = ecs_sched_instantiate(s.base.world, prefab);
    assert_true(a && b);
    assert_true(ecs_sched_has(s.base.world, a, s.selected));
    mut = (Burning *)ecs_sched_get_mut(s.base.world, a, s.burning);
    assert_non_null(mut);
    mut->turns = 10;
    assert_int_equal(((const Burning *)get_present(s.base.world, b, s.burning))->turns, 3);
    assert_int_equal(((const Burning *)get_present(s.base.world, prefab, s.burning))->turns, 3);
    assert_true(ecs_sched_owns(s.base.world, a, s.burning));
    check_and_destroy(s.base.world);
}

/* ---- threads ---- */

typedef struct par_ids {
    ecs_sched_id position, velocity, selected, burning, smoke;
} par_ids;

static void burn(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    int32_t i;
    while (ecs_sched_iter_next(&it)) {
        const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
        Burning *const *b = (Burning *const *)it.fields[1];
        for (i = 0; i < it.count; i++) b[i]->turns += (int32_t)p[i].x + 1;
    }
}

static void push(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    int32_t i;
    while (ecs_sched_iter_next(&it)) {
        Velocity *v = ECS_SCHED_FIELD(&it, Velocity, 0);
        for (i = 0; i < it.count; i++) v[i].x += 1;
    }
}

static void smoulder(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    int32_t i;
    while (ecs_sched_iter_next(&it)) {
        Burning *const *smoke = (Burning *const *)it.fields[0];
        for (i = 0; i < it.count; i++) smoke[i]->heat += 0.5f;
    }
}

/* Three systems that write sparse and table components, disjoint: the parallel executor
   runs them at once; 2000 entities, 30 frames. Returns a digest of every value. */
static double run_sparse_writers(ecs_sched_executor executor) {
    ecs_sched_world *w = world_on(executor, 2);
    par_ids ids;
    ecs_sched_entity *e = (ecs_sched_entity *)calloc(2000, sizeof *e);
    double digest = 0;
    int i;
    assert_non_null(e);
    ids.position = ECS_SCHED_COMPONENT(w, Position);
    ids.velocity = ECS_SCHED_COMPONENT(w, Velocity);
    ids.selected = ECS_SCHED_SPARSE_TAG(w, Selected);
    ids.burning = ECS_SCHED_SPARSE_COMPONENT(w, Burning);
    ids.smoke = ecs_sched_sparse_component_register_type(w, "Smoke", sizeof(Burning), 4);
    for (i = 0; i < 2000; i++) {
        Position p;
        p.x = (float)(i % 7);
        p.y = 0;
        e[i] = SPAWN(w, {ids.position, &p}, {ids.velocity, NULL});
        if (i % 3 == 0) assert_int_equal(ecs_sched_insert(w, e[i], ids.burning, NULL), ECS_SCHED_OK);
        if (i % 5 == 0) assert_int_equal(ecs_sched_insert(w, e[i], ids.selected, NULL), ECS_SCHED_OK);
        if (i % 2 == 0) assert_int_equal(ecs_sched_insert(w, e[i], ids.smoke, NULL), ECS_SCHED_OK);
    }
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
        .name = "burn", .fn = burn,
        .queries = {{{ecs_sched_read(ids.position), ecs_sched_write(ids.burning)}}}}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
        .name = "push", .fn = push,
        .queries = {{{ecs_sched_write(ids.velocity), ecs_sched_read(ids.selected)}}}}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
        .name = "smoulder", .fn = smoulder,
        .queries = {{{ecs_sched_write(ids.smoke), ecs_sched_without(ids.selected)}}}}), ECS_SCHED_OK);
    for (i = 0; i < 30; i++) assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    for (i = 0; i < 2000; i++) {
        const Burning *b = ecs_sched_has(w, e[i], ids.burning) ? (const Burning *)ecs_sched_get(w, e[i], ids.burning) : NULL;
        const Burning *smoke = ecs_sched_has(w, e[i], ids.smoke) ? (const Burning *)ecs_sched_get(w, e[i], ids.smoke) : NULL;
        const Velocity *v = (const Velocity *)ecs_sched_get(w, e[i], ids.velocity);
        digest += (double)(i + 1) * ((b ? b->turns : 0) + (smoke ? smoke->heat : 0) * 3 + v->x * 7);
    }
    free(e);
    check_and_destroy(w);
    return digest;
}

static void test_parallel_sparse_writers_agree_with_single_threaded(void **state) {
    double single = run_sparse_writers(ECS_SCHED_EXECUTOR_SINGLE_THREADED), parallel;
    int round;
    (void)state;
    assert_true(single > 0);
    for (round = 0; round < 5; round++) {
        parallel = run_sparse_writers(ECS_SCHED_EXECUTOR_PARALLEL);
        assert_true(parallel == single);
    }
}

/* ---- access ---- */

static void test_query_access_names_sparse_components_like_any_other(void **state) {
    sparse_setup s;
    ecs_sched_query *q;
    ecs_sched_access access;
    (void)state;
    setup_sparse(&s);
    q = QUERY(s.base.world, ecs_sched_read(s.selected), ecs_sched_write(s.burning),
              ecs_sched_read(s.base.position));
    access = ecs_sched_query_access(q);
    assert_int_equal(access.read_count, 2);
    assert_int_equal(access.reads[0], s.selected);
    assert_int_equal(access.write_count, 1);
    assert_int_equal(access.writes[0], s.burning);
    check_and_destroy(s.base.world);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sparse_tag_toggled_1000_times_moves_nothing),
        cmocka_unit_test(test_registering_a_name_again_with_other_storage_fails),
        cmocka_unit_test(test_sparse_values_are_inserted_read_written_and_removed),
        cmocka_unit_test(test_get_of_a_sparse_tag_says_it_is_a_tag),
        cmocka_unit_test(test_get_many_mixes_table_and_sparse_values),
        cmocka_unit_test(test_spawn_with_puts_sparse_values_in_their_sets_not_the_archetype),
        cmocka_unit_test(test_spawn_batch_gives_each_entity_its_sparse_value),
        cmocka_unit_test(test_archetype_get_refuses_sparse_components),
        cmocka_unit_test(test_commands_spawn_insert_and_remove_sparse_components),
        cmocka_unit_test(test_despawn_takes_the_entity_out_of_every_sparse_set),
        cmocka_unit_test(test_hooks_run_once_per_add_and_remove),
        cmocka_unit_test(test_observers_hear_each_sparse_add_insert_and_remove_once),
        cmocka_unit_test(test_a_sparse_value_set_is_heard_by_on_set_after_on_insert_as_in_a_table),
        cmocka_unit_test(test_observer_filters_see_sparse_components),
        cmocka_unit_test(test_queries_mixing_table_and_sparse_terms_match_brute_force),
        cmocka_unit_test(test_a_sparse_field_is_written_through_its_pointers),
        cmocka_unit_test(test_iteration_by_rows_gives_each_row_its_sparse_pointer),
        cmocka_unit_test(test_iteration_by_rows_hands_out_each_filtered_row_once_table_by_table),
        cmocka_unit_test(test_sparse_terms_combine_with_related_and_parent_terms),
        cmocka_unit_test(test_a_sparse_query_follows_adds_and_removes),
        cmocka_unit_test(test_a_sparse_query_reads_live_values_after_insert_many_on_a_full_set),
        cmocka_unit_test(test_a_sparse_query_reads_live_values_after_a_command_insert_on_a_full_set),
        cmocka_unit_test(test_a_query_reads_two_sparse_values_of_a_single_row),
        cmocka_unit_test(test_disabled_entities_stay_hidden_from_sparse_queries),
        cmocka_unit_test(test_sparse_terms_refuse_parent_inherited_and_order),
        cmocka_unit_test(test_a_sorted_query_with_a_sparse_term_keeps_its_order),
        cmocka_unit_test(test_added_and_changed_terms_see_sparse_changes_once),
        cmocka_unit_test(test_a_write_term_marks_the_sparse_rows_it_hands_out),
        cmocka_unit_test(test_removals_of_a_tracked_sparse_component_are_kept),
        cmocka_unit_test(test_query_access_names_sparse_components_like_any_other),
        cmocka_unit_test(test_a_snapshot_restores_sparse_members_and_values),
        cmocka_unit_test(test_json_writes_and_loads_sparse_components),
        cmocka_unit_test(test_an_instance_owns_a_copy_of_its_prefabs_sparse_components),
        cmocka_unit_test(test_parallel_sparse_writers_agree_with_single_threaded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
