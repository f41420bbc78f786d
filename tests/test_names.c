/* Entity names. A name is unique among the children of one parent (and among the roots); it is
   found by name in a scope, or by path from the roots with a separator of the caller's
   choice; an entity's path is built from its ancestors' names. Reparenting files the name
   under the new parent, a despawn takes it away, and names appear in error messages. */
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

static ecs_sched_entity named(ecs_sched_world *w, const char *name, ecs_sched_entity parent) {
    ecs_sched_entity e = ecs_sched_spawn(w);
    if (parent) assert_int_equal(ecs_sched_set_parent(w, e, parent), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(w, e, name), ECS_SCHED_OK);
    return e;
}

typedef struct ship {
    ecs_sched_entity ship, left, right, left_barrel, right_barrel;
} ship;

static ship build_ship(ecs_sched_world *w) {
    ship s;
    s.ship = named(w, "ship", 0);
    s.left = named(w, "turret_left", s.ship);
    s.right = named(w, "turret_right", s.ship);
    s.left_barrel = named(w, "barrel", s.left);
    s.right_barrel = named(w, "barrel", s.right);   /* the same name under another parent */
    return s;
}

static void a_name_is_kept_and_found_among_the_children_of_its_parent(void **state) {
    ecs_sched_world *w = new_world();
    ship s = build_ship(w);
    (void)state;
    assert_string_equal(ecs_sched_name(w, s.left), "turret_left");
    assert_true(ecs_sched_lookup(w, s.ship, "turret_right") == s.right);
    assert_true(ecs_sched_lookup(w, s.left, "barrel") == s.left_barrel);
    assert_true(ecs_sched_lookup(w, s.right, "barrel") == s.right_barrel);
    assert_true(ecs_sched_lookup(w, ECS_SCHED_NULL_ENTITY, "ship") == s.ship);
    assert_true(ecs_sched_lookup(w, ECS_SCHED_NULL_ENTITY, "barrel") == ECS_SCHED_NULL_ENTITY);
    assert_true(ecs_sched_lookup(w, s.ship, "barrel") == ECS_SCHED_NULL_ENTITY);
    assert_null(ecs_sched_name(w, ecs_sched_spawn(w)));
    check_and_destroy(w);
}

static void a_path_resolves_from_the_roots_with_any_separator(void **state) {
    ecs_sched_world *w = new_world();
    ship s = build_ship(w);
    (void)state;
    assert_true(ecs_sched_lookup_path(w, 0, "ship.turret_left.barrel", NULL) == s.left_barrel);
    assert_true(ecs_sched_lookup_path(w, 0, "ship::turret_right::barrel", "::") == s.right_barrel);
    assert_true(ecs_sched_lookup_path(w, s.ship, "turret_right/barrel", "/") == s.right_barrel);
    assert_true(ecs_sched_lookup_path(w, 0, "ship", NULL) == s.ship);
    check_and_destroy(w);
}

/* A name or path nothing has, a parent or target an entity lacks: the answer is
   ECS_SCHED_NULL_ENTITY (or NULL), and nothing is recorded or logged. */
static void a_lookup_that_finds_nothing_is_an_answer_with_nothing_recorded_or_logged(void **state) {
    ecs_sched_world *w = new_world();
    ship s = build_ship(w);
    ecs_sched_relation_desc d;
    ecs_sched_id aims;
    (void)state;
    memset(&d, 0, sizeof d);
    d.name = "AimsAt";
    d.payload_size = sizeof(float);
    d.payload_alignment = sizeof(float);
    aims = ecs_sched_relation_register(w, &d);
    assert_int_equal(ecs_sched_relate(w, s.left, aims, s.right, NULL), ECS_SCHED_OK);
    memset(&g_log, 0, sizeof g_log);
    assert_true(ecs_sched_lookup_path(w, 0, "ship.turret_middle.barrel", NULL) == ECS_SCHED_NULL_ENTITY);
    assert_true(ecs_sched_lookup_path(w, 0, "boat", NULL) == ECS_SCHED_NULL_ENTITY);
    assert_true(ecs_sched_lookup(w, s.ship, "barrel") == ECS_SCHED_NULL_ENTITY);
    assert_true(ecs_sched_parent_of(w, s.ship) == ECS_SCHED_NULL_ENTITY);
    assert_true(ecs_sched_target(w, s.right, aims, 0) == ECS_SCHED_NULL_ENTITY);
    assert_null(ecs_sched_relation_payload(w, s.left, aims, s.ship));
    assert_null(ecs_sched_relation_payload(w, s.right, aims, s.left));
    assert_int_equal(g_log.count, 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_OK);
    check_and_destroy(w);
}

/* A path looked up from a scope that is no longer alive, or the payload of a relationship to
   a target that is not, is a wrong question, not a miss. */
static void a_lookup_from_a_stale_scope_or_to_a_stale_target_is_a_failure(void **state) {
    ecs_sched_world *w = new_world();
    ship s = build_ship(w);
    ecs_sched_relation_desc d;
    ecs_sched_id aims;
    (void)state;
    memset(&d, 0, sizeof d);
    d.name = "AimsAt";
    d.payload_size = sizeof(float);
    d.payload_alignment = sizeof(float);
    aims = ecs_sched_relation_register(w, &d);
    assert_int_equal(ecs_sched_despawn(w, s.left), ECS_SCHED_OK);
    assert_true(ecs_sched_lookup_path(w, s.left, "barrel", NULL) == ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_STALE_ENTITY);
    assert_contains(ecs_sched_last_error(w), "lookup_path");
    assert_null(ecs_sched_relation_payload(w, s.right, aims, s.left));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_STALE_ENTITY);
    assert_contains(ecs_sched_last_error(w), "relation_payload");
    assert_int_equal(g_log.errors, 2);
    check_and_destroy(w);
}

static void the_path_of_an_entity_joins_its_ancestors_names(void **state) {
    ecs_sched_world *w = new_world();
    ship s = build_ship(w);
    ecs_sched_entity bolt = ecs_sched_spawn(w);
    char path[64], small[8];
    int32_t n;
    (void)state;
    n = ecs_sched_path(w, s.left_barrel, NULL, path, sizeof path);
    assert_string_equal(path, "ship.turret_left.barrel");
    assert_int_equal(n, (int32_t)strlen(path));
    ecs_sched_path(w, s.right_barrel, "/", path, sizeof path);
    assert_string_equal(path, "ship/turret_right/barrel");
    assert_int_equal(ecs_sched_set_parent(w, bolt, s.left_barrel), ECS_SCHED_OK);
    ecs_sched_path(w, bolt, NULL, path, sizeof path);
    snprintf(small, sizeof small, "#%u", (unsigned)ECS_SCHED_ENTITY_INDEX(bolt));
    assert_true(strstr(path, "ship.turret_left.barrel.#") == path);
    assert_string_equal(path + strlen("ship.turret_left.barrel."), small);
    /* too small: cut, zero-terminated, the whole length returned */
    assert_int_equal(ecs_sched_path(w, s.left_barrel, NULL, small, sizeof small), n);
    assert_string_equal(small, "ship.tu");
    check_and_destroy(w);
}

static void a_sibling_with_the_same_name_is_refused_naming_both(void **state) {
    ecs_sched_world *w = new_world();
    ship s = build_ship(w);
    ecs_sched_entity third = ecs_sched_spawn(w);
    char who[64];
    (void)state;
    assert_int_equal(ecs_sched_set_parent(w, third, s.ship), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(w, third, "turret_left"), ECS_SCHED_ERR_NAME_CLASH);
    snprintf(who, sizeof who, "entity %u 'turret_left'", (unsigned)ECS_SCHED_ENTITY_INDEX(s.left));
    assert_contains(ecs_sched_last_error(w), who);
    assert_contains(ecs_sched_last_error(w), "'ship'");
    assert_null(ecs_sched_name(w, third));
    assert_true(ecs_sched_lookup(w, s.ship, "turret_left") == s.left);
    check_and_destroy(w);
}

static void reparenting_into_a_clash_is_refused_and_changes_nothing(void **state) {
    ecs_sched_world *w = new_world();
    ship s = build_ship(w);
    (void)state;
    /* the left barrel cannot join the right turret, which has a barrel */
    assert_int_equal(ecs_sched_set_parent(w, s.left_barrel, s.right), ECS_SCHED_ERR_NAME_CLASH);
    assert_true(ecs_sched_parent_of(w, s.left_barrel) == s.left);
    assert_true(ecs_sched_lookup(w, s.left, "barrel") == s.left_barrel);
    /* nor become a root next to another root "barrel" */
    named(w, "barrel", 0);
    assert_int_equal(ecs_sched_set_parent(w, s.left_barrel, ECS_SCHED_NULL_ENTITY),
                     ECS_SCHED_ERR_NAME_CLASH);
    assert_true(ecs_sched_parent_of(w, s.left_barrel) == s.left);
    check_and_destroy(w);
}

static void a_reparented_entity_is_found_under_its_new_parent(void **state) {
    ecs_sched_world *w = new_world();
    ship s = build_ship(w);
    ecs_sched_entity dock = named(w, "dock", 0);
    (void)state;
    assert_int_equal(ecs_sched_set_parent(w, s.left, dock), ECS_SCHED_OK);
    assert_true(ecs_sched_lookup(w, s.ship, "turret_left") == ECS_SCHED_NULL_ENTITY);
    assert_true(ecs_sched_lookup_path(w, 0, "dock.turret_left.barrel", NULL) == s.left_barrel);
    assert_int_equal(ecs_sched_set_parent(w, s.left, ECS_SCHED_NULL_ENTITY), ECS_SCHED_OK);
    assert_true(ecs_sched_lookup(w, 0, "turret_left") == s.left);
    check_and_destroy(w);
}

static void a_despawned_entity_takes_its_name_and_its_subtrees_names_along(void **state) {
    ecs_sched_world *w = new_world();
    ship s = build_ship(w);
    ecs_sched_entity again;
    (void)state;
    assert_int_equal(ecs_sched_despawn(w, s.left), ECS_SCHED_OK);
    assert_true(ecs_sched_lookup(w, s.ship, "turret_left") == ECS_SCHED_NULL_ENTITY);
    assert_null(ecs_sched_name(w, s.left_barrel));
    again = named(w, "turret_left", s.ship);   /* the name is free again */
    assert_true(ecs_sched_lookup(w, s.ship, "turret_left") == again);
    check_and_destroy(w);
}

static void renaming_and_unnaming_update_the_lookup(void **state) {
    ecs_sched_world *w = new_world();
    ship s = build_ship(w);
    (void)state;
    assert_int_equal(ecs_sched_set_name(w, s.left, "port"), ECS_SCHED_OK);
    assert_true(ecs_sched_lookup(w, s.ship, "port") == s.left);
    assert_true(ecs_sched_lookup(w, s.ship, "turret_left") == ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_set_name(w, s.left, "port"), ECS_SCHED_OK);   /* the same */
    assert_int_equal(ecs_sched_set_name(w, s.left, NULL), ECS_SCHED_OK);
    assert_null(ecs_sched_name(w, s.left));
    assert_true(ecs_sched_lookup(w, s.ship, "port") == ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_set_name(w, s.left, ""), ECS_SCHED_ERR_INVALID_ARGUMENT);
    check_and_destroy(w);
}

static void many_names_in_one_scope_are_each_found(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_entity root = named(w, "root", 0), kids[2000];
    char name[32];
    int i;
    (void)state;
    for (i = 0; i < 2000; i++) {
        snprintf(name, sizeof name, "child_%d", i);
        kids[i] = named(w, name, root);
    }
    for (i = 0; i < 2000; i += 3) {   /* some go: the map keeps the others findable */
        assert_int_equal(ecs_sched_despawn(w, kids[i]), ECS_SCHED_OK);
    }
    for (i = 0; i < 2000; i++) {
        snprintf(name, sizeof name, "child_%d", i);
        assert_true(ecs_sched_lookup(w, root, name) == (i % 3 == 0 ? ECS_SCHED_NULL_ENTITY : kids[i]));
    }
    check_and_destroy(w);
}

static void error_messages_name_named_entities(void **state) {
    ecs_sched_world *w = new_world();
    ship s = build_ship(w);
    (void)state;
    assert_int_equal(ecs_sched_set_parent(w, s.ship, s.left_barrel), ECS_SCHED_ERR_RELATION_CYCLE);
    assert_contains(ecs_sched_last_error(w), "'ship'");
    assert_contains(ecs_sched_last_error(w), "'turret_left'");
    assert_contains(ecs_sched_last_error(w), "'barrel'");
    check_and_destroy(w);
}

static void naming_a_dead_entity_fails(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_entity e = ecs_sched_spawn(w);
    (void)state;
    assert_int_equal(ecs_sched_despawn(w, e), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(w, e, "ghost"), ECS_SCHED_ERR_STALE_ENTITY);
    assert_true(ecs_sched_lookup(w, 0, "ghost") == ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_path(w, e, NULL, NULL, 0), -1);
    check_and_destroy(w);
}

/* ecs_sched_path(e), given to ecs_sched_lookup_path from the roots, finds e again. */
static void assert_path_leads_back(ecs_sched_world *w, ecs_sched_entity e, const char *separator) {
    char path[256];
    int32_t n = ecs_sched_path(w, e, separator, path, sizeof path);
    assert_true(n > 0 && n < (int32_t)sizeof path);
    if (ecs_sched_lookup_path(w, 0, path, separator) != e) {
        fail_msg("the path '%s' (separator '%s') does not lead back to entity %u: %s", path,
                 separator ? separator : ".", (unsigned)ECS_SCHED_ENTITY_INDEX(e),
                 ecs_sched_last_error(w));
    }
}

static void the_path_of_an_unnamed_entity_leads_back_to_it(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_entity root = ecs_sched_spawn(w), child = ecs_sched_spawn(w);
    ecs_sched_entity grandchild = ecs_sched_spawn(w);
    (void)state;
    assert_int_equal(ecs_sched_set_parent(w, child, root), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, grandchild, child), ECS_SCHED_OK);
    assert_path_leads_back(w, root, NULL);
    assert_path_leads_back(w, child, NULL);
    assert_path_leads_back(w, grandchild, "/");
    check_and_destroy(w);
}

static void the_path_of_an_entity_under_named_and_unnamed_ancestors_leads_back_to_it(void **state) {
    ecs_sched_world *w = new_world();
    ship s = build_ship(w);
    ecs_sched_entity mount = ecs_sched_spawn(w), bolt, spare = ecs_sched_spawn(w);
    (void)state;
    assert_int_equal(ecs_sched_set_parent(w, mount, s.left_barrel), ECS_SCHED_OK);
    bolt = named(w, "bolt", mount);                  /* named, under an unnamed parent */
    assert_int_equal(ecs_sched_set_parent(w, spare, bolt), ECS_SCHED_OK);
    assert_path_leads_back(w, mount, NULL);
    assert_path_leads_back(w, bolt, NULL);
    assert_path_leads_back(w, spare, "::");
    assert_path_leads_back(w, s.right_barrel, "/");
    check_and_destroy(w);
}

static void an_index_in_a_path_names_only_a_live_entity_in_that_scope(void **state) {
    ecs_sched_world *w = new_world();
    ship s = build_ship(w);
    ecs_sched_entity gone = ecs_sched_spawn(w);
    char path[64];
    (void)state;
    snprintf(path, sizeof path, "ship.#%u", (unsigned)ECS_SCHED_ENTITY_INDEX(s.left));
    assert_true(ecs_sched_lookup_path(w, 0, path, NULL) == s.left);   /* named: found by index too */
    snprintf(path, sizeof path, "#%u", (unsigned)ECS_SCHED_ENTITY_INDEX(s.left));
    assert_true(ecs_sched_lookup_path(w, 0, path, NULL) == ECS_SCHED_NULL_ENTITY);   /* not a root */
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_OK);   /* a miss, no failure */
    assert_int_equal(ecs_sched_despawn(w, gone), ECS_SCHED_OK);
    snprintf(path, sizeof path, "#%u", (unsigned)ECS_SCHED_ENTITY_INDEX(gone));
    assert_true(ecs_sched_lookup_path(w, 0, path, NULL) == ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_OK);
    check_and_destroy(w);
}

static void an_empty_path_names_the_scope_itself(void **state) {
    ecs_sched_world *w = new_world();
    ship s = build_ship(w);
    (void)state;
    assert_true(ecs_sched_lookup_path(w, s.left, "", NULL) == s.left);
    assert_true(ecs_sched_lookup_path(w, 0, "", "/") == ECS_SCHED_NULL_ENTITY);   /* the roots */
    assert_int_equal(ecs_sched_despawn(w, s.left), ECS_SCHED_OK);
    assert_true(ecs_sched_lookup_path(w, s.left, "", NULL) == ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_STALE_ENTITY);
    check_and_destroy(w);
}

static void a_name_holding_the_separator_is_escaped_in_its_path_and_found_again(void **state) {
    ecs_sched_world *w = new_world();
    ship s = build_ship(w);
    ecs_sched_entity version = named(w, "v1.2", s.ship), odd = named(w, "a:", s.ship);
    ecs_sched_entity slash = named(w, "back\\slash", version), hash = named(w, "#7", s.ship);
    ecs_sched_entity hashed = named(w, "#tag", hash);
    char path[64];
    (void)state;
    ecs_sched_path(w, version, NULL, path, sizeof path);
    assert_string_equal(path, "ship.v1\\.2");
    assert_true(ecs_sched_lookup_path(w, 0, "ship.v1\\.2", NULL) == version);
    assert_true(ecs_sched_lookup_path(w, 0, "ship.v1.2", NULL) == ECS_SCHED_NULL_ENTITY);
    assert_path_leads_back(w, version, NULL);
    assert_path_leads_back(w, version, "/");
    assert_path_leads_back(w, odd, "::");       /* a name ending in part of the separator */
    assert_path_leads_back(w, slash, NULL);     /* a backslash of its own */
    assert_path_leads_back(w, hash, NULL);      /* a name that looks like an index */
    assert_path_leads_back(w, hashed, "/");
    check_and_destroy(w);
}

/* Names alike at either end (one the start or the end of another, the same last 8 bytes, as
   long as or just longer than 8 bytes) are told apart, by lookup and by path. */
static void names_alike_at_either_end_are_told_apart(void **state) {
    static const char *const names[] = {"abcdefg", "abcdefgh", "abcdefghi", "xabcdefgh",
                                        "yabcdefgh", "bcdefgh", "a", "ab"};
    ecs_sched_world *w = new_world();
    ecs_sched_entity parent = named(w, "parent", 0), children[8];
    char path[64];
    int i;
    (void)state;
    for (i = 0; i < 8; i++) children[i] = named(w, names[i], parent);
    for (i = 0; i < 8; i++) {
        assert_true(ecs_sched_lookup(w, parent, names[i]) == children[i]);
        snprintf(path, sizeof path, "parent.%s", names[i]);
        assert_true(ecs_sched_lookup_path(w, 0, path, NULL) == children[i]);
    }
    assert_true(ecs_sched_lookup(w, parent, "abcdef") == ECS_SCHED_NULL_ENTITY);
    assert_true(ecs_sched_lookup(w, parent, "zabcdefgh") == ECS_SCHED_NULL_ENTITY);
    assert_true(ecs_sched_lookup(w, parent, "abcdefghij") == ECS_SCHED_NULL_ENTITY);
    assert_true(ecs_sched_lookup_path(w, 0, "parent.abcdefghij", NULL) == ECS_SCHED_NULL_ENTITY);
    assert_true(ecs_sched_lookup_path(w, 0, "parent.bcdefg", NULL) == ECS_SCHED_NULL_ENTITY);
    check_and_destroy(w);
}

/* A path with an empty part (two separators in a row, one at either end) resolves nothing:
   no name is empty. */
static void a_path_with_an_empty_part_finds_nothing(void **state) {
    ecs_sched_world *w = new_world();
    ship s = build_ship(w);
    (void)state;
    assert_true(ecs_sched_lookup_path(w, 0, "ship..turret_left", NULL) == ECS_SCHED_NULL_ENTITY);
    assert_true(ecs_sched_lookup_path(w, 0, ".ship", NULL) == ECS_SCHED_NULL_ENTITY);
    assert_true(ecs_sched_lookup_path(w, 0, "ship.", NULL) == ECS_SCHED_NULL_ENTITY);
    assert_true(ecs_sched_lookup_path(w, 0, "ship::::turret_left", "::") == ECS_SCHED_NULL_ENTITY);
    assert_true(ecs_sched_lookup_path(w, s.ship, "turret_left..barrel", NULL) == ECS_SCHED_NULL_ENTITY);
    assert_true(ecs_sched_lookup_path(w, s.ship, "turret_left.barrel", NULL) == s.left_barrel);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_OK);   /* misses, no failure */
    check_and_destroy(w);
}

/* A separator may begin with a letter or any other character, and a name may hold
   punctuation that is not the separator's. */
static void a_separator_may_begin_with_any_character(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_entity ship = named(w, "ship", 0), gun = named(w, "gun", ship);
    ecs_sched_entity mount = named(w, "mount:a,b(c)", gun);
    (void)state;
    assert_true(ecs_sched_lookup_path(w, 0, "ship->gun", "->") == gun);
    assert_true(ecs_sched_lookup_path(w, 0, "shipQgunQmount:a,b(c)", "Q") == mount);
    assert_true(ecs_sched_lookup_path(w, 0, "ship_gun", "_") == gun);
    assert_true(ecs_sched_lookup_path(w, 0, "ship.gun.mount:a,b(c)", NULL) == mount);
    assert_true(ecs_sched_lookup_path(w, 0, "ship-gun", "->") == ECS_SCHED_NULL_ENTITY);
    assert_path_leads_back(w, mount, "Q");
    assert_path_leads_back(w, mount, "->");
    check_and_destroy(w);
}


static void lookup_path_of_a_null_path_is_an_invalid_argument(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    build_ship(w);
    assert_true(ecs_sched_lookup_path(w, 0, NULL, NULL) == ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "lookup_path: the path is NULL"));
    ecs_sched_clear_error(w);
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_name_is_kept_and_found_among_the_children_of_its_parent),
        cmocka_unit_test(a_path_resolves_from_the_roots_with_any_separator),
        cmocka_unit_test(a_lookup_that_finds_nothing_is_an_answer_with_nothing_recorded_or_logged),
        cmocka_unit_test(a_lookup_from_a_stale_scope_or_to_a_stale_target_is_a_failure),
        cmocka_unit_test(the_path_of_an_entity_joins_its_ancestors_names),
        cmocka_unit_test(a_sibling_with_the_same_name_is_refused_naming_both),
        cmocka_unit_test(reparenting_into_a_clash_is_refused_and_changes_nothing),
        cmocka_unit_test(a_reparented_entity_is_found_under_its_new_parent),
        cmocka_unit_test(a_despawned_entity_takes_its_name_and_its_subtrees_names_along),
        cmocka_unit_test(renaming_and_unnaming_update_the_lookup),
        cmocka_unit_test(many_names_in_one_scope_are_each_found),
        cmocka_unit_test(error_messages_name_named_entities),
        cmocka_unit_test(naming_a_dead_entity_fails),
        cmocka_unit_test(the_path_of_an_unnamed_entity_leads_back_to_it),
        cmocka_unit_test(the_path_of_an_entity_under_named_and_unnamed_ancestors_leads_back_to_it),
        cmocka_unit_test(an_index_in_a_path_names_only_a_live_entity_in_that_scope),
        cmocka_unit_test(an_empty_path_names_the_scope_itself),
        cmocka_unit_test(a_name_holding_the_separator_is_escaped_in_its_path_and_found_again),
        cmocka_unit_test(names_alike_at_either_end_are_told_apart),
        cmocka_unit_test(a_path_with_an_empty_part_finds_nothing),
        cmocka_unit_test(a_separator_may_begin_with_any_character),
        cmocka_unit_test(lookup_path_of_a_null_path_is_an_invalid_argument),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
