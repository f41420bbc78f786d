/* Hierarchies: the ChildOf relationship. set_parent makes a child (last, or at an index;
   again: a move within the list), changes its parent or makes it a root, and refuses cycles
   and dead parents without changing anything. Parents, children, ancestors (parent first),
   depth and descendants (depth or breadth first) agree. Despawning a parent despawns its
   subtree; despawning a child takes it out of its parent's list. Queries read through the
   hierarchy: a cascade term hands out every parent before its children (also after a
   reparenting, and by rows), a from_parent term gives each row its parent's value (optional:
   NULL where there is none; required: only rows whose parent has it), so that one cascade
   pass propagates transforms, from a system too. Commands set parents when applied, skipping
   those whose parent died; query_create refuses what a hierarchical term cannot do. */
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

typedef struct { float x, y; } Local;
typedef struct { float x, y; } Global;
typedef struct { int value; } Armor;   /* tracked */

static ecs_sched_id g_pos, g_vel, g_health, g_score, g_local, g_global, g_child_of;

/* A world with the components of these tests registered. */
static ecs_sched_world *hierarchy_world(void) {
    ecs_sched_world *w = new_world();
    g_pos = ECS_SCHED_COMPONENT(w, Position);
    g_vel = ECS_SCHED_COMPONENT(w, Velocity);
    g_health = ECS_SCHED_COMPONENT(w, Health);
    g_score = ECS_SCHED_COMPONENT(w, Score);
    g_local = ECS_SCHED_COMPONENT(w, Local);
    g_global = ECS_SCHED_COMPONENT(w, Global);
    g_child_of = ecs_sched_child_of(w);
    assert_true(g_pos && g_vel && g_health && g_score && g_local && g_global);
    assert_true(g_child_of != 0);
    assert_true(ecs_sched_is_relation(w, g_child_of));
    return w;
}

static void spawn_plain(ecs_sched_world *w, ecs_sched_entity *out, int32_t n) {
    int32_t i;
    for (i = 0; i < n; i++) {
        out[i] = ecs_sched_spawn(w);
        assert_int_not_equal(out[i], ECS_SCHED_NULL_ENTITY);
    }
}

#define IDX(e) ((unsigned)ECS_SCHED_ENTITY_INDEX(e))

/* ---- checks on lists of entities ---- */

static void print_entities(const char *what, const ecs_sched_entity *list, int32_t n) {
    int32_t i;
    print_error("%s:", what);
    for (i = 0; i < n; i++) print_error(" %u", IDX(list[i]));
    print_error("\n");
}

static void assert_entities_at(const ecs_sched_entity *got, int32_t got_count,
                               const ecs_sched_entity *want, int32_t want_count, const char *file,
                               int line) {
    int32_t i;
    bool same = got_count == want_count;
    for (i = 0; same && i < want_count; i++) same = got[i] == want[i];
    if (!same) {
        print_entities("expected", want, want_count);
        print_entities("got     ", got, got_count);
        _fail(file, line);
    }
}

/* The parent's children are exactly these, in this order, and each names it as its parent. */
static void assert_children_at(ecs_sched_world *w, ecs_sched_entity parent,
                               const ecs_sched_entity *want, int32_t want_count,
                               const char *file, int line) {
    int32_t count = -1, i;
    const ecs_sched_entity *children = ecs_sched_children(w, parent, &count);
    if (count == 0 && children != NULL) {
        print_error("children of entity %u: a list with count 0\n", IDX(parent));
        _fail(file, line);
    }
    assert_entities_at(children, count, want, want_count, file, line);
    for (i = 0; i < want_count; i++) {
        if (ecs_sched_parent_of(w, want[i]) != parent ||
            !ecs_sched_has_relation(w, want[i], g_child_of, parent)) {
            print_error("entity %u is listed as a child of entity %u, which is not its parent\n",
                        IDX(want[i]), IDX(parent));
            _fail(file, line);
        }
    }
}

#define ENTITIES(...) (const ecs_sched_entity[]){__VA_ARGS__}
#define COUNT_OF(...) ((int32_t)(sizeof(ENTITIES(__VA_ARGS__)) / sizeof(ecs_sched_entity)))
#define assert_children(w, parent, ...)                                                         \
    assert_children_at((w), (parent), ENTITIES(__VA_ARGS__), COUNT_OF(__VA_ARGS__), __FILE__, \
                       __LINE__)
#define assert_no_children(w, parent)                                                           \
    assert_children_at((w), (parent), NULL, 0, __FILE__, __LINE__)
#define assert_entities(got, got_count, ...)                                                    \
    assert_entities_at((got), (got_count), ENTITIES(__VA_ARGS__), COUNT_OF(__VA_ARGS__),      \
                       __FILE__, __LINE__)

/* The text names the entity: "entity N" not followed by another digit. */
#define assert_names_entity(text, e) assert_names_entity_at((text), (e), __FILE__, __LINE__)
static void assert_names_entity_at(const char *text, ecs_sched_entity e, const char *file,
                                   int line) {
    char word[32];
    const char *at = text;
    size_t n;
    snprintf(word, sizeof word, "entity %u", IDX(e));
    n = strlen(word);
    while (at && (at = strstr(at, word)) != NULL) {
        if (at[n] < '0' || at[n] > '9') return;
        at += n;
    }
    print_error("expected \"%s\" in:\n%s\n", word, text ? text : "(null)");
    _fail(file, line);
}

/* ---- parents and children ---- */

static void set_parent_makes_the_child_last_among_its_parents_children(void **state) {
    ecs_sched_world *w = hierarchy_world();
    ecs_sched_entity e[4], p, a, b, c;
    int32_t count = -1;
    (void)state;
    spawn_plain(w, e, 4);
    p = e[0], a = e[1], b = e[2], c = e[3];
    assert_no_children(w, p);
    assert_int_equal(ecs_sched_set_parent(w, b, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, a, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, c, p), ECS_SCHED_OK);
    assert_children(w, p, b, a, c);
    assert_int_equal(ecs_sched_parent_of(w, a), p);
    assert_true(ecs_sched_has_relation(w, a, g_child_of, p));
    assert_true(ecs_sched_has_relation(w, a, g_child_of, ECS_SCHED_NULL_ENTITY));
    assert_false(ecs_sched_has_relation(w, a, g_child_of, b));
    assert_false(ecs_sched_has_relation(w, p, g_child_of, ECS_SCHED_NULL_ENTITY));
    assert_int_equal(ecs_sched_parent_of(w, p), ECS_SCHED_NULL_ENTITY);
    assert_null(ecs_sched_children(w, a, &count));
    assert_int_equal(count, 0);
    check_and_destroy(w);
}

/* A failure names the call the program made, not the one it is built on. */
static void a_refused_parent_is_reported_by_the_call_that_asked_for_it(void **state) {
    ecs_sched_world *w = hierarchy_world();
    ecs_sched_entity p = ecs_sched_spawn(w), kid = ecs_sched_spawn(w), other = ecs_sched_spawn(w);
    ecs_sched_commands *cmd;
    (void)state;
    assert_int_equal(ecs_sched_set_name(w, kid, "kid"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, kid, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(w, other, "kid"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, other, p), ECS_SCHED_ERR_NAME_CLASH);
    assert_ptr_equal(strstr(ecs_sched_last_error(w), "set_parent: "), ecs_sched_last_error(w));
    assert_int_equal(ecs_sched_set_parent_at(w, other, p, 0), ECS_SCHED_ERR_NAME_CLASH);
    assert_ptr_equal(strstr(ecs_sched_last_error(w), "set_parent_at: "), ecs_sched_last_error(w));
    cmd = ecs_sched_commands_create(w);
    assert_int_equal(ecs_sched_commands_set_parent(cmd, other, p), ECS_SCHED_OK);
    assert_int_not_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_non_null(strstr(ecs_sched_last_error(w), "commands_set_parent: "));
    ecs_sched_commands_destroy(cmd);
    assert_true(ecs_sched_parent_of(w, other) == ECS_SCHED_NULL_ENTITY);
    check_and_destroy(w);
}

static void set_parent_at_inserts_at_the_index_and_past_the_end_last(void **state) {
    ecs_sched_world *w = hierarchy_world();
    ecs_sched_entity e[6], p, a, b, c, d, f;
    (void)state;
    spawn_plain(w, e, 6);
    p = e[0], a = e[1], b = e[2], c = e[3], d = e[4], f = e[5];
    assert_int_equal(ecs_sched_set_parent(w, a, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, b, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent_at(w, c, p, 0), ECS_SCHED_OK);
    assert_children(w, p, c, a, b);
    assert_int_equal(ecs_sched_set_parent_at(w, d, p, 2), ECS_SCHED_OK);
    assert_children(w, p, c, a, d, b);
    assert_int_equal(ecs_sched_set_parent_at(w, f, p, 100), ECS_SCHED_OK);
    assert_children(w, p, c, a, d, b, f);
    check_and_destroy(w);
}

static void set_parent_at_moves_an_existing_child_keeping_the_others_order(void **state) {
    ecs_sched_world *w = hierarchy_world();
    ecs_sched_entity e[5], p, a, b, c, d;
    (void)state;
    spawn_plain(w, e, 5);
    p = e[0], a = e[1], b = e[2], c = e[3], d = e[4];
    assert_int_equal(ecs_sched_set_parent(w, a, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, b, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, c, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, d, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent_at(w, d, p, 1), ECS_SCHED_OK);
    assert_children(w, p, a, d, b, c);
    assert_int_equal(ecs_sched_set_parent_at(w, a, p, 3), ECS_SCHED_OK);
    assert_children(w, p, d, b, c, a);
    assert_int_equal(ecs_sched_set_parent_at(w, b, p, 99), ECS_SCHED_OK);
    assert_children(w, p, d, c, a, b);
    assert_int_equal(ecs_sched_set_parent_at(w, c, p, 0), ECS_SCHED_OK);
    assert_children(w, p, c, d, a, b);
    assert_int_equal(ecs_sched_set_parent_at(w, c, p, 0), ECS_SCHED_OK);   /* where it is */
    assert_children(w, p, c, d, a, b);
    check_and_destroy(w);
}

static void changing_the_parent_moves_the_child_to_the_new_parents_list(void **state) {
    ecs_sched_world *w = hierarchy_world();
    ecs_sched_entity e[6], p1, p2, a, b, c, d;
    (void)state;
    spawn_plain(w, e, 6);
    p1 = e[0], p2 = e[1], a = e[2], b = e[3], c = e[4], d = e[5];
    assert_int_equal(ecs_sched_set_parent(w, a, p1), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, b, p1), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, c, p1), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, d, p2), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, b, p2), ECS_SCHED_OK);
    assert_children(w, p1, a, c);
    assert_children(w, p2, d, b);
    assert_int_equal(ecs_sched_parent_of(w, b), p2);
    assert_false(ecs_sched_has_relation(w, b, g_child_of, p1));
    assert_int_equal(ecs_sched_target_count(w, b, g_child_of), 1);
    check_and_destroy(w);
}

static void a_null_parent_makes_the_child_a_root(void **state) {
    ecs_sched_world *w = hierarchy_world();
    ecs_sched_entity e[4], p, a, b, c;
    (void)state;
    spawn_plain(w, e, 4);
    p = e[0], a = e[1], b = e[2], c = e[3];
    assert_int_equal(ecs_sched_set_parent(w, a, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, b, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, c, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, a, ECS_SCHED_NULL_ENTITY), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_parent_of(w, a), ECS_SCHED_NULL_ENTITY);
    assert_false(ecs_sched_has_relation(w, a, g_child_of, ECS_SCHED_NULL_ENTITY));
    assert_int_equal(ecs_sched_depth(w, a), 0);
    assert_children(w, p, b, c);
    /* a root again: nothing to do */
    assert_int_equal(ecs_sched_set_parent(w, a, ECS_SCHED_NULL_ENTITY), ECS_SCHED_OK);
    assert_children(w, p, b, c);
    check_and_destroy(w);
}

/* ---- what set_parent refuses ---- */

static void an_entity_cannot_be_its_own_parent(void **state) {
    ecs_sched_world *w = hierarchy_world();
    ecs_sched_entity e[3], p, a, s;
    (void)state;
    spawn_plain(w, e, 3);
    p = e[0], a = e[1], s = e[2];
    assert_int_equal(ecs_sched_set_parent(w, a, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, s, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, a, a), ECS_SCHED_ERR_RELATION_CYCLE);
    assert_contains(ecs_sched_last_error(w), "set_parent");
    assert_contains(ecs_sched_last_error(w), "cycle");
    assert_names_entity(ecs_sched_last_error(w), a);
    assert_int_equal(ecs_sched_set_parent_at(w, a, a, 0), ECS_SCHED_ERR_RELATION_CYCLE);
    assert_int_equal(ecs_sched_set_parent(w, p, p), ECS_SCHED_ERR_RELATION_CYCLE);   /* a root */
    assert_names_entity(ecs_sched_last_error(w), p);
    assert_int_equal(ecs_sched_parent_of(w, a), p);
    assert_int_equal(ecs_sched_parent_of(w, p), ECS_SCHED_NULL_ENTITY);
    assert_children(w, p, a, s);
    assert_no_children(w, a);
    check_and_destroy(w);
}

static void a_descendant_cannot_become_the_parent(void **state) {
    ecs_sched_world *w = hierarchy_world();
    ecs_sched_entity e[5], r, a, b, c, s;
    (void)state;
    spawn_plain(w, e, 5);
    r = e[0], a = e[1], b = e[2], c = e[3], s = e[4];   /* r: a s; a: b; b: c */
    assert_int_equal(ecs_sched_set_parent(w, a, r), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, s, r), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, b, a), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, c, b), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, a, c), ECS_SCHED_ERR_RELATION_CYCLE);
    assert_contains(ecs_sched_last_error(w), "set_parent");
    assert_names_entity(ecs_sched_last_error(w), a);
    assert_names_entity(ecs_sched_last_error(w), c);
    assert_names_entity(ecs_sched_last_error(w), b);   /* on the path from c up to a */
    assert_int_equal(ecs_sched_set_parent_at(w, a, b, 0), ECS_SCHED_ERR_RELATION_CYCLE);
    assert_int_equal(ecs_sched_set_parent(w, r, c), ECS_SCHED_ERR_RELATION_CYCLE);
    assert_names_entity(ecs_sched_last_error(w), r);
    assert_names_entity(ecs_sched_last_error(w), c);
    /* nothing changed */
    assert_int_equal(ecs_sched_parent_of(w, r), ECS_SCHED_NULL_ENTITY);
    assert_children(w, r, a, s);
    assert_children(w, a, b);
    assert_children(w, b, c);
    assert_no_children(w, c);
    assert_int_equal(ecs_sched_depth(w, c), 3);
    check_and_destroy(w);
}

static void a_dead_or_stale_parent_is_refused_and_changes_nothing(void **state) {
    ecs_sched_world *w = hierarchy_world();
    ecs_sched_entity e[4], p, a, d, reused;
    (void)state;
    spawn_plain(w, e, 4);
    p = e[0], a = e[1], d = e[2];
    assert_int_equal(ecs_sched_set_parent(w, a, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, d), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, a, d), ECS_SCHED_ERR_STALE_ENTITY);
    assert_contains(ecs_sched_last_error(w), "set_parent");
    assert_names_entity(ecs_sched_last_error(w), d);
    assert_int_equal(ecs_sched_set_parent_at(w, e[3], d, 0), ECS_SCHED_ERR_STALE_ENTITY);
    reused = ecs_sched_spawn(w);   /* may take d's index: d stays stale */
    assert_int_not_equal(reused, d);
    assert_int_equal(ecs_sched_set_parent(w, a, d), ECS_SCHED_ERR_STALE_ENTITY);
    assert_int_equal(ecs_sched_set_parent(w, d, p), ECS_SCHED_ERR_STALE_ENTITY);   /* dead child */
    assert_int_equal(ecs_sched_parent_of(w, a), p);
    assert_children(w, p, a);
    assert_no_children(w, reused);
    assert_int_equal(ecs_sched_parent_of(w, e[3]), ECS_SCHED_NULL_ENTITY);
    check_and_destroy(w);
}

/* ---- ancestors, depth, descendants ---- */

static void ancestors_list_the_parent_first_and_count_them_all(void **state) {
    ecs_sched_world *w = hierarchy_world();
    ecs_sched_entity e[5], r, a, b, c, out[8];
    (void)state;
    spawn_plain(w, e, 5);
    r = e[0], a = e[1], b = e[2], c = e[3];
    assert_int_equal(ecs_sched_set_parent(w, a, r), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, b, a), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, c, b), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_ancestors(w, c, out, 8), 3);
    assert_entities(out, 3, b, a, r);
    out[0] = out[1] = e[4];
    assert_int_equal(ecs_sched_ancestors(w, c, out, 1), 3);
    assert_int_equal(out[0], b);
    assert_int_equal(out[1], e[4]);   /* not written past capacity */
    assert_int_equal(ecs_sched_ancestors(w, c, NULL, 0), 3);
    assert_int_equal(ecs_sched_ancestors(w, r, out, 8), 0);
    assert_int_equal(ecs_sched_depth(w, c), 3);
    assert_int_equal(ecs_sched_depth(w, a), 1);
    assert_int_equal(ecs_sched_depth(w, r), 0);
    assert_int_equal(ecs_sched_despawn(w, e[4]), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_ancestors(w, e[4], out, 8), -1);
    assert_int_equal(ecs_sched_depth(w, e[4]), -1);
    check_and_destroy(w);
}

/* r: a b c, in that order though spawned otherwise; a: a1 a2; a1: a11; c: c1. */
typedef struct small_tree {
    ecs_sched_entity r, a, b, c, a1, a2, a11, c1;
} small_tree;

static small_tree make_small_tree(ecs_sched_world *w) {
    ecs_sched_entity e[8];
    small_tree t;
    spawn_plain(w, e, 8);
    t.c1 = e[0], t.a11 = e[1], t.c = e[2], t.a2 = e[3], t.b = e[4], t.a1 = e[5], t.a = e[6];
    t.r = e[7];
    assert_int_equal(ecs_sched_set_parent(w, t.c, t.r), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent_at(w, t.a, t.r, 0), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent_at(w, t.b, t.r, 1), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, t.a2, t.a), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent_at(w, t.a1, t.a, 0), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, t.a11, t.a1), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, t.c1, t.c), ECS_SCHED_OK);
    assert_children(w, t.r, t.a, t.b, t.c);
    return t;
}

static void descendants_depth_first_are_in_pre_order_with_children_in_order(void **state) {
    ecs_sched_world *w = hierarchy_world();
    small_tree t = make_small_tree(w);
    ecs_sched_entity out[16];
    (void)state;
    assert_int_equal(ecs_sched_descendants(w, t.r, ECS_SCHED_DEPTH_FIRST, out, 16), 7);
    assert_entities(out, 7, t.a, t.a1, t.a11, t.a2, t.b, t.c, t.c1);
    assert_int_equal(ecs_sched_descendants(w, t.a, ECS_SCHED_DEPTH_FIRST, out, 16), 3);
    assert_entities(out, 3, t.a1, t.a11, t.a2);
    check_and_destroy(w);
}

static void descendants_breadth_first_go_level_by_level(void **state) {
    ecs_sched_world *w = hierarchy_world();
    small_tree t = make_small_tree(w);
    ecs_sched_entity out[16];
    (void)state;
    assert_int_equal(ecs_sched_descendants(w, t.r, ECS_SCHED_BREADTH_FIRST, out, 16), 7);
    assert_entities(out, 7, t.a, t.b, t.c, t.a1, t.a2, t.c1, t.a11);
    check_and_destroy(w);
}

static void descendants_return_the_total_when_capacity_is_smaller(void **state) {
    ecs_sched_world *w = hierarchy_world();
    small_tree t = make_small_tree(w);
    ecs_sched_entity out[8];
    ecs_sched_entity dead;
    int32_t i;
    (void)state;
    for (i = 0; i < 8; i++) out[i] = t.r;
    assert_int_equal(ecs_sched_descendants(w, t.r, ECS_SCHED_DEPTH_FIRST, out, 3), 7);
    assert_entities(out, 4, t.a, t.a1, t.a11, t.r);   /* out[3] not written */
    out[2] = t.r;
    assert_int_equal(ecs_sched_descendants(w, t.r, ECS_SCHED_BREADTH_FIRST, out, 2), 7);
    assert_entities(out, 3, t.a, t.b, t.r);
    assert_int_equal(ecs_sched_descendants(w, t.r, ECS_SCHED_BREADTH_FIRST, NULL, 0), 7);
    assert_int_equal(ecs_sched_descendants(w, t.b, ECS_SCHED_DEPTH_FIRST, out, 8), 0);
    dead = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_despawn(w, dead), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_descendants(w, dead, ECS_SCHED_DEPTH_FIRST, out, 8), -1);
    ecs_sched_clear_error(w);
    check_and_destroy(w);
}

/* ---- despawning ---- */

static void despawning_a_parent_despawns_its_whole_subtree(void **state) {
    ecs_sched_world *w = hierarchy_world();
    ecs_sched_entity e[9], g, p, s, c1, c2, gc, ggc, o, oc;
    int32_t i;
    (void)state;
    spawn_plain(w, e, 9);
    g = e[0], p = e[1], s = e[2], c1 = e[3], c2 = e[4], gc = e[5], ggc = e[6], o = e[7], oc = e[8];
    assert_int_equal(ecs_sched_set_parent(w, p, g), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, s, g), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, c1, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, c2, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, gc, c1), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, ggc, gc), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, oc, o), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, p), ECS_SCHED_OK);
    assert_false(ecs_sched_is_alive(w, p));
    assert_false(ecs_sched_is_alive(w, c1));
    assert_false(ecs_sched_is_alive(w, c2));
    assert_false(ecs_sched_is_alive(w, gc));
    assert_false(ecs_sched_is_alive(w, ggc));
    assert_true(ecs_sched_is_alive(w, g));
    assert_true(ecs_sched_is_alive(w, s));
    assert_true(ecs_sched_is_alive(w, o));
    assert_true(ecs_sched_is_alive(w, oc));
    assert_int_equal(ecs_sched_entity_count(w), 4);
    assert_children(w, g, s);
    assert_children(w, o, oc);
    assert_int_equal(ecs_sched_parent_of(w, c1), ECS_SCHED_NULL_ENTITY);
    for (i = 0; i < 9; i++) {
        if (ecs_sched_is_alive(w, e[i])) continue;
        assert_int_equal(ecs_sched_depth(w, e[i]), -1);
    }
    check_and_destroy(w);
}

static void despawning_a_child_removes_it_from_its_parents_list_keeping_the_order(void **state) {
    ecs_sched_world *w = hierarchy_world();
    ecs_sched_entity e[5], p, a, b, c, d;
    (void)state;
    spawn_plain(w, e, 5);
    p = e[0], a = e[1], b = e[2], c = e[3], d = e[4];
    assert_int_equal(ecs_sched_set_parent(w, a, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, b, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, c, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, d, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, b), ECS_SCHED_OK);
    assert_children(w, p, a, c, d);
    assert_int_equal(ecs_sched_despawn(w, d), ECS_SCHED_OK);
    assert_children(w, p, a, c);
    assert_int_equal(ecs_sched_despawn(w, a), ECS_SCHED_OK);
    assert_children(w, p, c);
    assert_true(ecs_sched_is_alive(w, p));
    assert_int_equal(ecs_sched_entity_count(w), 2);
    check_and_destroy(w);
}

/* ---- cascade queries ---- */

static uint32_t g_rng;

static uint32_t rnd(uint32_t n) {
    g_rng = g_rng * 1664525u + 1013904223u;
    return (g_rng >> 8) % n;
}

#define FOREST_SIZE 300
#define MAX_DEPTH 6
#define MAX_INDEX 4096

/* Random trees: most entities have a Position (some a Score too), the others a Health
   only; each is placed in random order under a random entity placed before it, or is a
   root; then some gain or lose their Score, changing tables. */
typedef struct forest {
    ecs_sched_entity e[FOREST_SIZE];
    int32_t depth[FOREST_SIZE];
    int32_t with_position;
    int32_t max_depth;
} forest;

static void grow_forest(ecs_sched_world *w, uint32_t seed, forest *f) {
    int32_t order[FOREST_SIZE], placed[FOREST_SIZE], placed_count = 0, i, k;
    Score score = {7};
    g_rng = seed;
    f->with_position = 0;
    f->max_depth = 0;
    for (i = 0; i < FOREST_SIZE; i++) {
        Position p = {(float)i, (float)-i};
        Health h = {i};
        if (rnd(100) < 85) {
            if (rnd(100) < 30) f->e[i] = SPAWN(w, {g_pos, &p}, {g_score, &score});
            else f->e[i] = SPAWN(w, {g_pos, &p});
            f->with_position++;
        } else {
            f->e[i] = SPAWN(w, {g_health, &h});
        }
        assert_true(IDX(f->e[i]) < MAX_INDEX);
        order[i] = i;
    }
    for (i = FOREST_SIZE - 1; i > 0; i--) {
        int32_t j = (int32_t)rnd((uint32_t)i + 1u), swap = order[i];
        order[i] = order[j];
        order[j] = swap;
    }
    for (k = 0; k < FOREST_SIZE; k++) {
        int32_t at = order[k], parent = -1, tries;
        if (placed_count > 0 && rnd(10) != 0) {
            for (tries = 0; tries < 8 && parent < 0; tries++) {
                int32_t j = placed[rnd((uint32_t)placed_count)];
                if (f->depth[j] < MAX_DEPTH) parent = j;
            }
        }
        f->depth[at] = parent < 0 ? 0 : f->depth[parent] + 1;
        if (f->depth[at] > f->max_depth) f->max_depth = f->depth[at];
        if (parent >= 0) {
            assert_int_equal(ecs_sched_set_parent(w, f->e[at], f->e[parent]), ECS_SCHED_OK);
        }
        placed[placed_count++] = at;
    }
    for (i = 0; i < FOREST_SIZE; i += 1 + (int32_t)rnd(6)) {
        if (ecs_sched_has(w, f->e[i], g_score)) {
            assert_int_equal(ecs_sched_remove(w, f->e[i], g_score), ECS_SCHED_OK);
        } else {
            assert_int_equal(ecs_sched_insert(w, f->e[i], g_score, &score), ECS_SCHED_OK);
        }
    }
    for (i = 0; i < FOREST_SIZE; i++) assert_int_equal(ecs_sched_depth(w, f->e[i]), f->depth[i]);
    assert_true(f->max_depth >= 4);   /* the test needs deep trees */
}

/* By entity index: its place in the iteration + 1 (0: not handed out). */
static int32_t g_place[MAX_INDEX];
static int32_t g_handed;

static void start_order(void) {
    memset(g_place, 0, sizeof g_place);
    g_handed = 0;
}

/* An entity the query hands out: once only, and after its parent when the query matches the
   parent (has `matched_by`). */
static void handed_out(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id matched_by) {
    ecs_sched_entity parent = ecs_sched_parent_of(w, e);
    assert_true(IDX(e) < MAX_INDEX);
    if (g_place[IDX(e)] != 0) fail_msg("entity %u was handed out twice", IDX(e));
    if (parent && ecs_sched_has(w, parent, matched_by) && g_place[IDX(parent)] == 0) {
        fail_msg("entity %u (depth %d) was handed out before its parent, entity %u", IDX(e),
                 (int)ecs_sched_depth(w, e), IDX(parent));
    }
    g_place[IDX(e)] = ++g_handed;
}

/* The parent's Position, or NULL when there is no parent or it has none. */
static const Position *parent_position(ecs_sched_world *w, ecs_sched_entity e) {
    ecs_sched_entity parent = ecs_sched_parent_of(w, e);
    return parent && ecs_sched_has(w, parent, g_pos)
               ? (const Position *)ecs_sched_get(w, parent, g_pos) : NULL;
}

static void check_position_row(ecs_sched_world *w, ecs_sched_entity e, const Position *own,
                               const Position *from_parent, bool with_parent_field) {
    const Position *want = (const Position *)ecs_sched_get(w, e, g_pos);
    assert_non_null(want);
    assert_true(own->x == want->x && own->y == want->y);
    if (with_parent_field) {
        const Position *parent = parent_position(w, e);
        if (!parent) {
            assert_null(from_parent);
        } else {
            assert_non_null(from_parent);
            assert_true(from_parent->x == parent->x && from_parent->y == parent->y);
        }
    }
}

/* Iterates a query whose term 0 reads Position (term 1 reads it from the parent when
   with_parent_field) in cascade order, checking each row; the number handed out. */
static int32_t walk_cascade(ecs_sched_world *w, const ecs_sched_query *q, bool by_rows,
                            bool with_parent_field) {
    ecs_sched_iter it = ecs_sched_query_iter(q);
    start_order();
    if (!by_rows) {
        while (ecs_sched_iter_next(&it)) {
            const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
            const Position *const *pp =
                with_parent_field ? ECS_SCHED_PARENT_FIELD(&it, Position, 1) : NULL;
            int32_t i;
            assert_true(it.count > 0);
            for (i = 0; i < it.count; i++) {
                handed_out(w, it.entities[i], g_pos);
                check_position_row(w, it.entities[i], &p[i], pp ? pp[i] : NULL, pp != NULL);
            }
        }
    } else {
        while (ecs_sched_iter_next_rows(&it)) {
            const Position *p = ECS_SCHED_FIELD(&it, const Position, 0);
            const Position *const *pp =
                with_parent_field ? ECS_SCHED_PARENT_FIELD(&it, Position, 1) : NULL;
            int32_t i;
            assert_true(it.count > 0 && it.count <= ECS_SCHED_ITER_ROWS);
            for (i = 0; i < it.count; i++) {
                ecs_sched_entity e = it.entities[it.rows[i]];
                handed_out(w, e, g_pos);
                check_position_row(w, e, &p[it.rows[i]], pp ? pp[i] : NULL, pp != NULL);
            }
        }
    }
    return g_handed;
}

static const uint32_t g_seeds[] = {1u, 20240611u, 0xC0FFEEu};

static void a_cascade_query_hands_out_every_parent_before_its_children(void **state) {
    size_t s;
    (void)state;
    for (s = 0; s < sizeof g_seeds / sizeof g_seeds[0]; s++) {
        ecs_sched_world *w = hierarchy_world();
        static forest f;
        ecs_sched_query *q;
        grow_forest(w, g_seeds[s], &f);
        q = QUERY(w, ecs_sched_read(g_pos), ecs_sched_cascade(g_child_of));
        assert_non_null(q);
        assert_int_equal(walk_cascade(w, q, false, false), f.with_position);
        assert_int_equal(ecs_sched_query_count(q), f.with_position);
        assert_int_equal(walk_cascade(w, q, false, false), f.with_position);   /* again, kept */
        check_and_destroy(w);
    }
}

static void a_cascade_query_by_rows_hands_out_every_parent_before_its_children(void **state) {
    size_t s;
    (void)state;
    for (s = 0; s < sizeof g_seeds / sizeof g_seeds[0]; s++) {
        ecs_sched_world *w = hierarchy_world();
        static forest f;
        ecs_sched_query *q;
        grow_forest(w, g_seeds[s], &f);
        q = QUERY(w, ecs_sched_read(g_pos), ecs_sched_optional_from_parent(g_pos),
                  ecs_sched_cascade(g_child_of));
        assert_non_null(q);
        assert_int_equal(walk_cascade(w, q, true, true), f.with_position);
        assert_int_equal(walk_cascade(w, q, false, true), f.with_position);
        check_and_destroy(w);
    }
}

static void the_cascade_order_follows_a_reparenting_at_the_next_iteration(void **state) {
    ecs_sched_world *w = hierarchy_world();
    ecs_sched_entity r0, x, y, z, a, b, c;
    ecs_sched_query *q;
    Position p = {0, 0};
    (void)state;
    /* R0 -> X -> Y -> Z spawned and placed before A -> B -> C: first in their tables */
    r0 = SPAWN(w, {g_pos, &p});
    x = SPAWN(w, {g_pos, &p});
    y = SPAWN(w, {g_pos, &p});
    z = SPAWN(w, {g_pos, &p});
    a = SPAWN(w, {g_pos, &p});
    b = SPAWN(w, {g_pos, &p});
    c = SPAWN(w, {g_pos, &p});
    assert_int_equal(ecs_sched_set_parent(w, x, r0), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, y, x), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, z, y), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, b, a), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, c, b), ECS_SCHED_OK);
    q = QUERY(w, ecs_sched_read(g_pos), ecs_sched_cascade(g_child_of));
    assert_non_null(q);
    assert_int_equal(walk_cascade(w, q, false, false), 7);
    /* X (with its subtree) moves under C: no table changes, only the relationship */
    assert_int_equal(ecs_sched_set_parent(w, x, c), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_depth(w, z), 5);
    assert_int_equal(walk_cascade(w, q, false, false), 7);
    assert_true(g_place[IDX(c)] < g_place[IDX(x)]);
    assert_true(g_place[IDX(x)] < g_place[IDX(y)] && g_place[IDX(y)] < g_place[IDX(z)]);
    assert_int_equal(walk_cascade(w, q, true, false), 7);
    /* Y moves up under R0, Z with it */
    assert_int_equal(ecs_sched_set_parent(w, y, r0), ECS_SCHED_OK);
    assert_int_equal(walk_cascade(w, q, true, false), 7);
    assert_true(g_place[IDX(y)] < g_place[IDX(z)]);
    check_and_destroy(w);
}

/* ---- from_parent terms ---- */

/* p1 (Position), p2 (Health only); c1 (Velocity) and c3 (Velocity, Position) children of
   p1; c2 (Velocity) child of p2; g (Velocity) child of c3; r (Velocity) a root. */
typedef struct family {
    ecs_sched_entity p1, p2, c1, c2, c3, g, r;
} family;

static family make_family(ecs_sched_world *w) {
    family f;
    Position p1 = {1, 2}, p3 = {3, 4};
    Velocity v = {0, 0};
    Health h = {5};
    f.g = SPAWN(w, {g_vel, &v});
    f.c1 = SPAWN(w, {g_vel, &v});
    f.r = SPAWN(w, {g_vel, &v});
    f.c2 = SPAWN(w, {g_vel, &v});
    f.c3 = SPAWN(w, {g_vel, &v}, {g_pos, &p3});
    f.p1 = SPAWN(w, {g_pos, &p1});
    f.p2 = SPAWN(w, {g_health, &h});
    assert_int_equal(ecs_sched_set_parent(w, f.c1, f.p1), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, f.c3, f.p1), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, f.c2, f.p2), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, f.g, f.c3), ECS_SCHED_OK);
    return f;
}

/* Iterates a query whose term 1 reads Position from the parent; g_place records who was
   handed out, and each row's parent pointer is checked against ecs_sched_get. */
static int32_t walk_parent_positions(ecs_sched_world *w, const ecs_sched_query *q) {
    ecs_sched_iter it = ecs_sched_query_iter(q);
    start_order();
    while (ecs_sched_iter_next(&it)) {
        const Position *const *pp = ECS_SCHED_PARENT_FIELD(&it, Position, 1);
        int32_t i;
        for (i = 0; i < it.count; i++) {
            ecs_sched_entity e = it.entities[i];
            const Position *want = parent_position(w, e);
            assert_true(IDX(e) < MAX_INDEX);
            assert_int_equal(g_place[IDX(e)], 0);
            g_place[IDX(e)] = ++g_handed;
            if (!want) {
                if (pp[i] != NULL) fail_msg("entity %u: a parent value where none is", IDX(e));
            } else {
                if (pp[i] == NULL) fail_msg("entity %u: no parent value", IDX(e));
                assert_true(pp[i]->x == want->x && pp[i]->y == want->y);
            }
        }
    }
    return g_handed;
}

static void an_optional_from_parent_field_holds_the_parents_value_or_null(void **state) {
    ecs_sched_world *w = hierarchy_world();
    family f = make_family(w);
    ecs_sched_query *q = QUERY(w, ecs_sched_read(g_vel), ecs_sched_optional_from_parent(g_pos));
    Position *moved;
    (void)state;
    assert_non_null(q);
    assert_int_equal(walk_parent_positions(w, q), 5);   /* every entity with a Velocity */
    assert_true(g_place[IDX(f.c1)] && g_place[IDX(f.c2)] && g_place[IDX(f.c3)]);
    assert_true(g_place[IDX(f.g)] && g_place[IDX(f.r)]);
    /* the value read is the parent's current one */
    moved = (Position *)ecs_sched_get_mut(w, f.p1, g_pos);
    assert_non_null(moved);
    moved->x = 10;
    assert_int_equal(walk_parent_positions(w, q), 5);
    {
        ecs_sched_iter it = ecs_sched_query_iter(q);
        int32_t seen = 0, i;
        while (ecs_sched_iter_next(&it)) {
            const Position *const *pp = ECS_SCHED_PARENT_FIELD(&it, Position, 1);
            for (i = 0; i < it.count; i++) {
                if (it.entities[i] == f.c1) {
                    assert_non_null(pp[i]);
                    assert_true(pp[i]->x == 10.0f && pp[i]->y == 2.0f);
                    seen++;
                }
                if (it.entities[i] == f.r || it.entities[i] == f.c2) {
                    assert_null(pp[i]);
                    seen++;
                }
            }
        }
        assert_int_equal(seen, 3);
    }
    /* c2 moves under p1: it has a parent value from then on */
    assert_int_equal(ecs_sched_set_parent(w, f.c2, f.p1), ECS_SCHED_OK);
    assert_int_equal(walk_parent_positions(w, q), 5);
    assert_non_null(parent_position(w, f.c2));
    check_and_destroy(w);
}

static void a_from_parent_term_hands_out_only_entities_whose_parent_has_the_component(void **state) {
    ecs_sched_world *w = hierarchy_world();
    family f = make_family(w);
    ecs_sched_query *q = QUERY(w, ecs_sched_read(g_vel), ecs_sched_from_parent(g_pos));
    (void)state;
    assert_non_null(q);
    assert_int_equal(walk_parent_positions(w, q), 3);
    assert_true(g_place[IDX(f.c1)] && g_place[IDX(f.c3)] && g_place[IDX(f.g)]);
    assert_int_equal(g_place[IDX(f.c2)], 0);   /* its parent has no Position */
    assert_int_equal(g_place[IDX(f.r)], 0);    /* no parent */
    /* p2 gains a Position: c2 comes in */
    {
        Position p2 = {7, 8};
        assert_int_equal(ecs_sched_insert(w, f.p2, g_pos, &p2), ECS_SCHED_OK);
    }
    assert_int_equal(walk_parent_positions(w, q), 4);
    assert_true(g_place[IDX(f.c2)] != 0);
    check_and_destroy(w);
}

/* Each from_parent term keeps its pointers in a part of one block: with a single row, the
   second term's part must lie inside the block as well (the sanitizer sees it). */
static void two_from_parent_terms_give_one_row_both_parents_values(void **state) {
    ecs_sched_world *w = hierarchy_world();
    Position p = {3, 4};
    Health h = {50};
    Velocity v = {1, 1};
    ecs_sched_entity parent = SPAWN(w, {g_pos, &p}, {g_health, &h});
    ecs_sched_entity child = SPAWN(w, {g_vel, &v});
    ecs_sched_query *q = QUERY(w, ecs_sched_read(g_vel), ecs_sched_from_parent(g_pos),
                               ecs_sched_from_parent(g_health));
    ecs_sched_iter it;
    int32_t rows = 0;
    (void)state;
    assert_non_null(q);
    assert_int_equal(ecs_sched_set_parent(w, child, parent), ECS_SCHED_OK);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        assert_int_equal(it.count, 1);
        assert_true(it.entities[0] == child);
        assert_true(ECS_SCHED_PARENT_FIELD(&it, Position, 1)[0]->x == 3.0f);
        assert_int_equal(ECS_SCHED_PARENT_FIELD(&it, Health, 2)[0]->hp, 50);
        rows += it.count;
    }
    assert_int_equal(rows, 1);
    check_and_destroy(w);
}

static void the_count_of_a_from_parent_query_is_what_it_hands_out(void **state) {
    ecs_sched_world *w = hierarchy_world();
    ecs_sched_query *q;
    (void)state;
    (void)make_family(w);
    q = QUERY(w, ecs_sched_read(g_vel), ecs_sched_from_parent(g_pos));
    assert_non_null(q);
    assert_int_equal(walk_parent_positions(w, q), 3);
    assert_int_equal(ecs_sched_query_count(q), 3);   /* "matching entities": c1, c3, g */
    check_and_destroy(w);
}

/* ---- transforms ---- */

#define TREE_SIZE 8

/* Two trees spawned leaves first (table order: children before parents), some entities
   with a Score (other tables); every Global starts wrong. */
static void make_transform_tree(ecs_sched_world *w, ecs_sched_entity *e) {
    /* 5: root1 -> 4: a -> 1: b -> 7: f;  5 -> 3: c;  6: root2 -> 2: d -> 0: leaf */
    static const int32_t parent[TREE_SIZE] = {2, 4, 6, 5, 5, -1, -1, 1};
    static const Local local[TREE_SIZE] = {{1, 1}, {3, 3}, {1, -1}, {-1, 1},
                                           {0, 2}, {1, 0}, {10, 10}, {2, 5}};
    Global wrong = {999, 999};
    Score score = {1};
    int32_t i;
    for (i = 0; i < TREE_SIZE; i++) {
        if (i == 2 || i == 7) e[i] = SPAWN(w, {g_local, &local[i]}, {g_global, &wrong}, {g_score, &score});
        else e[i] = SPAWN(w, {g_local, &local[i]}, {g_global, &wrong});
    }
    for (i = 0; i < TREE_SIZE; i++) {
        if (parent[i] >= 0) {
            assert_int_equal(ecs_sched_set_parent(w, e[i], e[parent[i]]), ECS_SCHED_OK);
        }
    }
}

static ecs_sched_query_desc transform_query_desc(void) {
    ecs_sched_query_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.terms[0] = ecs_sched_read(g_local);
    desc.terms[1] = ecs_sched_write(g_global);
    desc.terms[2] = ecs_sched_optional_from_parent(g_global);
    desc.terms[3] = ecs_sched_cascade(g_child_of);
    return desc;
}

/* One pass: global = the parent's global (already computed) + local. */
static int32_t propagate(ecs_sched_iter *it) {
    int32_t rows = 0;
    while (ecs_sched_iter_next(it)) {
        const Local *local = ECS_SCHED_FIELD(it, const Local, 0);
        Global *global = ECS_SCHED_FIELD(it, Global, 1);
        const Global *const *parent = ECS_SCHED_PARENT_FIELD(it, Global, 2);
        int32_t i;
        for (i = 0; i < it->count; i++) {
            global[i].x = local[i].x + (parent[i] ? parent[i]->x : 0.0f);
            global[i].y = local[i].y + (parent[i] ? parent[i]->y : 0.0f);
        }
        rows += it->count;
    }
    return rows;
}

/* Each Global is the sum of the Locals of the entity and its ancestors. */
static void assert_globals_from_ancestors(ecs_sched_world *w, const ecs_sched_entity *e) {
    int32_t i, n, k;
    for (i = 0; i < TREE_SIZE; i++) {
        ecs_sched_entity up[TREE_SIZE];
        const Local *own = (const Local *)ecs_sched_get(w, e[i], g_local);
        const Global *global = (const Global *)ecs_sched_get(w, e[i], g_global);
        float x, y;
        assert_non_null(own);
        assert_non_null(global);
        x = own->x, y = own->y;
        n = ecs_sched_ancestors(w, e[i], up, TREE_SIZE);
        assert_true(n >= 0 && n < TREE_SIZE);
        for (k = 0; k < n; k++) {
            const Local *l = (const Local *)ecs_sched_get(w, up[k], g_local);
            assert_non_null(l);
            x += l->x, y += l->y;
        }
        if (global->x != x || global->y != y) {
            fail_msg("entity %u (depth %d): global (%g, %g), expected (%g, %g)", IDX(e[i]),
                     (int)n, (double)global->x, (double)global->y, (double)x, (double)y);
        }
    }
}

static void one_cascade_pass_propagates_transforms_like_walking_the_ancestors(void **state) {
    ecs_sched_world *w = hierarchy_world();
    ecs_sched_entity e[TREE_SIZE];
    ecs_sched_query_desc desc;
    ecs_sched_query *q;
    ecs_sched_iter it;
    (void)state;
    make_transform_tree(w, e);
    desc = transform_query_desc();
    q = ecs_sched_query_create(w, &desc);
    assert_non_null(q);
    it = ecs_sched_query_iter(q);
    assert_int_equal(propagate(&it), TREE_SIZE);
    assert_globals_from_ancestors(w, e);
    check_and_destroy(w);
}

static ecs_sched_entity g_transform[TREE_SIZE];
static int32_t g_propagated;

static void propagate_system(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    g_propagated = propagate(&it);
}

static void a_system_propagates_transforms_with_a_cascade_query(void **state) {
    ecs_sched_world *w = hierarchy_world();
    Local *root_local;
    (void)state;
    make_transform_tree(w, g_transform);
    g_propagated = 0;
    ADD_SYSTEM(w, .name = "propagate", .fn = propagate_system,
               .queries = {{.terms = {ecs_sched_read(g_local), ecs_sched_write(g_global),
                                      ecs_sched_optional_from_parent(g_global),
                                      ecs_sched_cascade(g_child_of)}}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_propagated, TREE_SIZE);
    assert_globals_from_ancestors(w, g_transform);
    /* root1 moves: its whole tree follows at the next run */
    root_local = (Local *)ecs_sched_get_mut(w, g_transform[5], g_local);
    assert_non_null(root_local);
    root_local->x = -4;
    root_local->y = 6;
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_globals_from_ancestors(w, g_transform);
    {
        const Global *f = (const Global *)ecs_sched_get(w, g_transform[7], g_global);
        assert_non_null(f);   /* root1 + a + b + f: (-4+0+3+2, 6+2+3+5) */
        assert_true(f->x == 1.0f && f->y == 16.0f);
    }
    check_and_destroy(w);
}

/* ---- commands ---- */

static void a_set_parent_command_takes_effect_when_applied(void **state) {
    ecs_sched_world *w = hierarchy_world();
    ecs_sched_entity e[4], p, a, b, old;
    ecs_sched_commands *cmd;
    (void)state;
    spawn_plain(w, e, 4);
    p = e[0], a = e[1], b = e[2], old = e[3];
    assert_int_equal(ecs_sched_set_parent(w, b, old), ECS_SCHED_OK);
    cmd = new_commands(w);
    assert_int_equal(ecs_sched_commands_set_parent(cmd, a, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_set_parent(cmd, b, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_parent_of(w, a), ECS_SCHED_NULL_ENTITY);   /* not yet */
    assert_no_children(w, p);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_skipped(cmd), 0);
    assert_children(w, p, a, b);
    assert_no_children(w, old);
    /* and back to a root */
    assert_int_equal(ecs_sched_commands_set_parent(cmd, a, ECS_SCHED_NULL_ENTITY), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_parent_of(w, a), ECS_SCHED_NULL_ENTITY);
    assert_children(w, p, b);
    ecs_sched_commands_destroy(cmd);
    check_and_destroy(w);
}

static void a_set_parent_command_may_name_entities_the_same_buffer_spawns(void **state) {
    ecs_sched_world *w = hierarchy_world();
    ecs_sched_commands *cmd;
    ecs_sched_entity p, c, a;
    (void)state;
    a = ecs_sched_spawn(w);
    cmd = new_commands(w);
    p = ecs_sched_commands_spawn(cmd);
    c = ecs_sched_commands_spawn(cmd);
    assert_int_not_equal(p, ECS_SCHED_NULL_ENTITY);
    assert_int_not_equal(c, ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_commands_set_parent(cmd, c, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_set_parent(cmd, a, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_skipped(cmd), 0);
    assert_children(w, p, c, a);
    ecs_sched_commands_destroy(cmd);
    check_and_destroy(w);
}

static void a_set_parent_command_whose_parent_died_before_apply_is_skipped(void **state) {
    ecs_sched_world *w = hierarchy_world();
    ecs_sched_entity e[4], p, a, q, b;
    ecs_sched_commands *cmd;
    (void)state;
    spawn_plain(w, e, 4);
    p = e[0], a = e[1], q = e[2], b = e[3];
    cmd = new_commands(w);
    assert_int_equal(ecs_sched_commands_set_parent(cmd, a, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_set_parent(cmd, b, q), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_skipped(cmd), 1);
    assert_true(ecs_sched_is_alive(w, a));
    assert_int_equal(ecs_sched_parent_of(w, a), ECS_SCHED_NULL_ENTITY);
    assert_children(w, q, b);   /* the other command was applied */
    /* a parent dead already is refused when recording */
    assert_int_equal(ecs_sched_commands_set_parent(cmd, a, p), ECS_SCHED_ERR_STALE_ENTITY);
    assert_names_entity(ecs_sched_last_error(w), p);
    ecs_sched_clear_error(w);
    ecs_sched_commands_destroy(cmd);
    check_and_destroy(w);
}

/* ---- what query_create refuses ---- */

static void query_create_refuses_reading_a_tag_from_the_parent(void **state) {
    ecs_sched_world *w = hierarchy_world();
    ecs_sched_id frozen = ECS_SCHED_TAG(w, Frozen);
    (void)state;
    assert_true(frozen != 0);
    assert_null(QUERY(w, ecs_sched_read(g_pos), ecs_sched_from_parent(frozen)));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_QUERY);
    assert_contains(ecs_sched_last_error(w), "Frozen");
    assert_contains(ecs_sched_last_error(w), "tag");
    ecs_sched_clear_error(w);
    assert_null(QUERY(w, ecs_sched_read(g_pos), ecs_sched_optional_from_parent(frozen)));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_QUERY);
    assert_contains(ecs_sched_last_error(w), "Frozen");
    ecs_sched_clear_error(w);
    check_and_destroy(w);
}

static void query_create_refuses_cascading_along_a_kind_not_acyclic_and_exclusive(void **state) {
    ecs_sched_world *w = hierarchy_world();
    ecs_sched_relation_desc d;
    ecs_sched_id likes, follows, owned_by;
    (void)state;
    memset(&d, 0, sizeof d);
    d.name = "Likes";   /* acyclic, not exclusive */
    d.acyclic = true;
    likes = ecs_sched_relation_register(w, &d);
    d.name = "Follows";   /* exclusive, not acyclic */
    d.acyclic = false;
    d.exclusive = true;
    follows = ecs_sched_relation_register(w, &d);
    d.name = "OwnedBy";   /* both: allowed */
    d.acyclic = true;
    owned_by = ecs_sched_relation_register(w, &d);
    assert_true(likes && follows && owned_by);
    assert_null(QUERY(w, ecs_sched_read(g_pos), ecs_sched_cascade(likes)));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_QUERY);
    assert_contains(ecs_sched_last_error(w), "Likes");
    ecs_sched_clear_error(w);
    assert_null(QUERY(w, ecs_sched_read(g_pos), ecs_sched_cascade(follows)));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_QUERY);
    assert_contains(ecs_sched_last_error(w), "Follows");
    ecs_sched_clear_error(w);
    assert_null(QUERY(w, ecs_sched_read(g_vel), ecs_sched_cascade(g_pos)));   /* no kind at all */
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_QUERY);
    assert_contains(ecs_sched_last_error(w), "Position");
    ecs_sched_clear_error(w);
    assert_non_null(QUERY(w, ecs_sched_read(g_pos), ecs_sched_cascade(owned_by)));
    check_and_destroy(w);
}

static void query_create_refuses_cascade_or_from_parent_with_a_changed_term(void **state) {
    ecs_sched_world *w = hierarchy_world();
    ecs_sched_id hp = ECS_SCHED_TRACKED_COMPONENT(w, Armor);
    (void)state;
    assert_true(hp != 0);
    assert_null(QUERY(w, ecs_sched_changed(hp), ecs_sched_cascade(g_child_of)));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_QUERY);
    assert_contains(ecs_sched_last_error(w), "Armor");
    assert_contains(ecs_sched_last_error(w), "changed");
    assert_contains(ecs_sched_last_error(w), "hierarchy");
    ecs_sched_clear_error(w);
    assert_null(QUERY(w, ecs_sched_changed(hp), ecs_sched_from_parent(g_pos)));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_QUERY);
    ecs_sched_clear_error(w);
    /* without the changed term, the same query is fine */
    assert_non_null(QUERY(w, ecs_sched_read(hp), ecs_sched_cascade(g_child_of)));
    check_and_destroy(w);
}

/* Three trees of 40 (each node under a random earlier one of its tree), made one after the
   other (dense indices) or interleaved; the middle one is despawned by its root. */
static void despawn_middle_of_three_trees(int interleaved) {
    ecs_sched_world *w = new_world();
    ecs_sched_entity e[3][40];
    int32_t before[3][40], t, i, n;
    unsigned seed = 1;
    for (i = 0; i < 40; i++) {
        for (t = 0; t < 3; t++) {
            if (!interleaved && t > 0) continue;
            e[t][i] = ecs_sched_spawn(w);
        }
    }
    for (t = 1; t < 3 && !interleaved; t++) {
        for (i = 0; i < 40; i++) e[t][i] = ecs_sched_spawn(w);
    }
    for (t = 0; t < 3; t++) {
        for (i = 1; i < 40; i++) {
            seed = seed * 1103515245u + 12345u;
            assert_int_equal(ecs_sched_set_parent(w, e[t][i], e[t][(seed >> 8) % (unsigned)i]),
                             ECS_SCHED_OK);
        }
        for (i = 0; i < 40; i++) {
            ecs_sched_children(w, e[t][i], &n);
            before[t][i] = n;
        }
    }
    assert_int_equal(ecs_sched_despawn(w, e[1][0]), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_entity_count(w), 80);
    for (i = 0; i < 40; i++) {
        assert_false(ecs_sched_is_alive(w, e[1][i]));
        for (t = 0; t < 3; t += 2) {
            ecs_sched_children(w, e[t][i], &n);
            assert_int_equal(n, before[t][i]);
            assert_int_equal(ecs_sched_depth(w, e[t][i]) >= 0, 1);
        }
    }
    check_and_destroy(w);
}

static void despawning_a_tree_made_at_once_leaves_the_others_whole(void **state) {
    (void)state;
    despawn_middle_of_three_trees(0);
}

static void despawning_a_tree_made_interleaved_leaves_the_others_whole(void **state) {
    (void)state;
    despawn_middle_of_three_trees(1);
}

static ecs_sched_entity g_obs_child, g_obs_parent;
static ecs_sched_result g_obs_result;

static void parent_on_add(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    (void)t;
    g_obs_result = ecs_sched_set_parent_at(w, g_obs_child, g_obs_parent, 0);
    assert_true(ecs_sched_parent_of(w, g_obs_child) == ECS_SCHED_NULL_ENTITY);   /* not yet */
}

static void set_parent_inside_an_observer_is_recorded_and_applied_after(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id tag = ECS_SCHED_TAG(w, Trigger);
    ecs_sched_observer_desc d;
    ecs_sched_entity other;
    (void)state;
    g_obs_parent = ecs_sched_spawn(w);
    other = ecs_sched_spawn(w);
    g_obs_child = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_set_parent(w, other, g_obs_parent), ECS_SCHED_OK);
    memset(&d, 0, sizeof d);
    d.event = ECS_SCHED_ON_ADD;
    d.component = tag;
    d.fn = parent_on_add;
    assert_true(ecs_sched_observer_add(w, &d) != 0);
    g_obs_result = ECS_SCHED_ERR_LIMIT;
    assert_int_equal(ecs_sched_insert(w, g_obs_child, tag, NULL), ECS_SCHED_OK);
    assert_int_equal(g_obs_result, ECS_SCHED_OK);
    assert_true(ecs_sched_parent_of(w, g_obs_child) == g_obs_parent);
    {
        int32_t n;
        const ecs_sched_entity *kids = ecs_sched_children(w, g_obs_parent, &n);
        assert_int_equal(n, 2);
        assert_true(kids[1] == g_obs_child);   /* recorded: last, whatever the index */
    }
    check_and_destroy(w);
}

/* A subtree of many entities (its indices side by side, or spread among others) goes whole
   and alone: its root leaves its parent's list, the siblings keep their order, the entities
   between stay. */
static void despawn_subtree_under_a_parent(int32_t spread) {
    ecs_sched_world *w = new_world();
    ecs_sched_entity parent = ecs_sched_spawn(w), before = ecs_sched_spawn(w), root, after;
    ecs_sched_entity sub[24], between[24 * 3];
    const ecs_sched_entity *children;
    int32_t i, j, count, kept = 0;
    root = ecs_sched_spawn(w);
    after = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_set_parent(w, before, parent), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, root, parent), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, after, parent), ECS_SCHED_OK);
    for (i = 0; i < 24; i++) {
        for (j = 0; j < spread; j++) between[kept++] = ecs_sched_spawn(w);
        sub[i] = ecs_sched_spawn(w);
        assert_int_equal(ecs_sched_set_parent(w, sub[i], i < 4 ? root : sub[i / 4 - 1]), ECS_SCHED_OK);
    }
    assert_int_equal(ecs_sched_despawn(w, root), ECS_SCHED_OK);
    assert_false(ecs_sched_is_alive(w, root));
    for (i = 0; i < 24; i++) assert_false(ecs_sched_is_alive(w, sub[i]));
    for (i = 0; i < kept; i++) assert_true(ecs_sched_is_alive(w, between[i]));
    assert_int_equal(ecs_sched_entity_count(w), 3 + kept);
    children = ecs_sched_children(w, parent, &count);
    assert_int_equal(count, 2);
    assert_true(children[0] == before && children[1] == after);
    check_and_destroy(w);
}

static void despawning_a_subtree_made_at_once_leaves_its_parent_and_siblings_in_order(void **state) {
    (void)state;
    despawn_subtree_under_a_parent(0);
}

static void despawning_a_subtree_spread_among_others_leaves_its_parent_and_siblings_in_order(void **state) {
    (void)state;
    despawn_subtree_under_a_parent(3);
}

static bool g_refuse_allocations;

static void *refusing_realloc(void *ptr, size_t size, void *user_data) {
    (void)user_data;
    return g_refuse_allocations && size ? NULL : realloc(ptr, size);
}

static void plain_free(void *ptr, void *user_data) {
    (void)user_data;
    free(ptr);
}

/* A tree's despawn that runs out of memory halfway through its walk (past the first lists it
   read) changes nothing: every entity and every parent is still there, and the despawn
   succeeds once there is memory again. */
static void a_tree_despawn_out_of_memory_changes_nothing(void **state) {
    ecs_sched_world_desc desc = logged_world_desc(&g_log);
    ecs_sched_entity root, first, mids[3], leaves[3][30];
    ecs_sched_world *w;
    int32_t i, j, count;
    (void)state;
    desc.allocator.realloc_fn = refusing_realloc;
    desc.allocator.free_fn = plain_free;
    w = g_world = ecs_sched_world_create(&desc);
    assert_non_null(w);
    root = ecs_sched_spawn(w);   /* a small tree first: the walk's room fits it, not the next */
    first = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_set_parent(w, first, root), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, root), ECS_SCHED_OK);
    root = ecs_sched_spawn(w);
    for (i = 0; i < 3; i++) {
        mids[i] = ecs_sched_spawn(w);
        assert_int_equal(ecs_sched_set_parent(w, mids[i], root), ECS_SCHED_OK);
        for (j = 0; j < 30; j++) {
            leaves[i][j] = ecs_sched_spawn(w);
            assert_int_equal(ecs_sched_set_parent(w, leaves[i][j], mids[i]), ECS_SCHED_OK);
        }
    }
    g_refuse_allocations = true;
    assert_int_equal(ecs_sched_despawn(w, root), ECS_SCHED_ERR_OUT_OF_MEMORY);
    g_refuse_allocations = false;
    assert_int_equal(ecs_sched_world_check(w), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_entity_count(w), 1 + 3 + 90);
    ecs_sched_children(w, root, &count);
    assert_int_equal(count, 3);
    for (i = 0; i < 3; i++) {
        ecs_sched_children(w, mids[i], &count);
        assert_int_equal(count, 30);
        for (j = 0; j < 30; j++) assert_true(ecs_sched_parent_of(w, leaves[i][j]) == mids[i]);
    }
    assert_int_equal(ecs_sched_despawn(w, root), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_entity_count(w), 0);
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(set_parent_inside_an_observer_is_recorded_and_applied_after),
        cmocka_unit_test(despawning_a_tree_made_at_once_leaves_the_others_whole),
        cmocka_unit_test(despawning_a_tree_made_interleaved_leaves_the_others_whole),
        cmocka_unit_test(a_tree_despawn_out_of_memory_changes_nothing),
        cmocka_unit_test(despawning_a_subtree_made_at_once_leaves_its_parent_and_siblings_in_order),
        cmocka_unit_test(despawning_a_subtree_spread_among_others_leaves_its_parent_and_siblings_in_order),
        cmocka_unit_test(set_parent_makes_the_child_last_among_its_parents_children),
        cmocka_unit_test(a_refused_parent_is_reported_by_the_call_that_asked_for_it),
        cmocka_unit_test(set_parent_at_inserts_at_the_index_and_past_the_end_last),
        cmocka_unit_test(set_parent_at_moves_an_existing_child_keeping_the_others_order),
        cmocka_unit_test(changing_the_parent_moves_the_child_to_the_new_parents_list),
        cmocka_unit_test(a_null_parent_makes_the_child_a_root),
        cmocka_unit_test(an_entity_cannot_be_its_own_parent),
        cmocka_unit_test(a_descendant_cannot_become_the_parent),
        cmocka_unit_test(a_dead_or_stale_parent_is_refused_and_changes_nothing),
        cmocka_unit_test(ancestors_list_the_parent_first_and_count_them_all),
        cmocka_unit_test(descendants_depth_first_are_in_pre_order_with_children_in_order),
        cmocka_unit_test(descendants_breadth_first_go_level_by_level),
        cmocka_unit_test(descendants_return_the_total_when_capacity_is_smaller),
        cmocka_unit_test(despawning_a_parent_despawns_its_whole_subtree),
        cmocka_unit_test(despawning_a_child_removes_it_from_its_parents_list_keeping_the_order),
        cmocka_unit_test(a_cascade_query_hands_out_every_parent_before_its_children),
        cmocka_unit_test(a_cascade_query_by_rows_hands_out_every_parent_before_its_children),
        cmocka_unit_test(the_cascade_order_follows_a_reparenting_at_the_next_iteration),
        cmocka_unit_test(an_optional_from_parent_field_holds_the_parents_value_or_null),
        cmocka_unit_test(two_from_parent_terms_give_one_row_both_parents_values),
        cmocka_unit_test(a_from_parent_term_hands_out_only_entities_whose_parent_has_the_component),
        cmocka_unit_test(the_count_of_a_from_parent_query_is_what_it_hands_out),
        cmocka_unit_test(one_cascade_pass_propagates_transforms_like_walking_the_ancestors),
        cmocka_unit_test(a_system_propagates_transforms_with_a_cascade_query),
        cmocka_unit_test(a_set_parent_command_takes_effect_when_applied),
        cmocka_unit_test(a_set_parent_command_may_name_entities_the_same_buffer_spawns),
        cmocka_unit_test(a_set_parent_command_whose_parent_died_before_apply_is_skipped),
        cmocka_unit_test(query_create_refuses_reading_a_tag_from_the_parent),
        cmocka_unit_test(query_create_refuses_cascading_along_a_kind_not_acyclic_and_exclusive),
        cmocka_unit_test(query_create_refuses_cascade_or_from_parent_with_a_changed_term),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
