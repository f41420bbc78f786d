/* Scopes (entities made and components named in the current scope), entities made from paths,
   and modules (a plugin's components and entities under a scope of its own, imported once,
   its handles handed to each importer). */
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

static void a_spawn_in_a_scope_makes_a_child_of_it(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_entity ship = ecs_sched_spawn(w), turret, before;
    (void)state;
    before = ecs_sched_set_scope(w, ship);
    assert_true(before == ECS_SCHED_NULL_ENTITY);
    turret = ecs_sched_spawn(w);
    assert_true(ecs_sched_parent_of(w, turret) == ship);
    assert_true(ecs_sched_set_scope(w, before) == ship);
    assert_true(ecs_sched_parent_of(w, ecs_sched_spawn(w)) == ECS_SCHED_NULL_ENTITY);
    check_and_destroy(w);
}

static void a_component_registered_in_a_scope_is_named_after_it(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_entity physics = ecs_sched_entity_from_path(w, 0, "physics", NULL);
    ecs_sched_id body, position_before, position_again;
    (void)state;
    position_before = ECS_SCHED_COMPONENT(w, Position);
    (void)ecs_sched_set_scope(w, physics);
    body = ecs_sched_component_register_type(w, "RigidBody", 8, 4);
    position_again = ECS_SCHED_COMPONENT(w, Position);   /* shared: registered as it is */
    (void)ecs_sched_set_scope(w, 0);
    assert_int_equal(ecs_sched_component_lookup(w, "physics.RigidBody"), body);
    assert_int_equal(ecs_sched_component_lookup(w, "RigidBody"), 0);
    assert_int_equal(position_again, position_before);
    check_and_destroy(w);
}

static void a_scope_that_is_despawned_ends(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_entity scope = ecs_sched_spawn(w);
    (void)state;
    (void)ecs_sched_set_scope(w, scope);
    assert_int_equal(ecs_sched_despawn(w, scope), ECS_SCHED_OK);
    assert_true(ecs_sched_get_scope(w) == ECS_SCHED_NULL_ENTITY);
    assert_true(ecs_sched_parent_of(w, ecs_sched_spawn(w)) == ECS_SCHED_NULL_ENTITY);
    assert_true(ecs_sched_set_scope(w, scope) == ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_STALE_ENTITY);
    check_and_destroy(w);
}

static void resolve_looks_in_the_scope_then_up_then_at_the_roots(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_entity game = ecs_sched_entity_from_path(w, 0, "game", NULL);
    ecs_sched_entity level = ecs_sched_entity_from_path(w, 0, "game.level", NULL);
    ecs_sched_entity player = ecs_sched_entity_from_path(w, 0, "game.player", NULL);
    ecs_sched_entity root_player = ecs_sched_entity_from_path(w, 0, "player", NULL);
    ecs_sched_entity door = ecs_sched_entity_from_path(w, 0, "game.level.door", NULL);
    (void)state;
    (void)game;
    assert_true(ecs_sched_resolve(w, "player") == root_player);   /* no scope: the roots */
    (void)ecs_sched_set_scope(w, level);
    assert_true(ecs_sched_resolve(w, "door") == door);            /* in the scope */
    assert_true(ecs_sched_resolve(w, "player") == player);        /* one up */
    assert_true(ecs_sched_resolve(w, "game.level") == level);     /* at the roots */
    assert_true(ecs_sched_resolve(w, "nobody") == ECS_SCHED_NULL_ENTITY);
    check_and_destroy(w);
}

static void entity_from_path_makes_the_missing_parents_and_finds_what_is_there(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_entity barrel, again, turret;
    char path[64];
    (void)state;
    barrel = ecs_sched_entity_from_path(w, 0, "ship.turret.barrel", NULL);
    assert_int_not_equal(barrel, 0);
    ecs_sched_path(w, barrel, NULL, path, (int32_t)sizeof path);
    assert_string_equal(path, "ship.turret.barrel");
    turret = ecs_sched_parent_of(w, barrel);
    assert_string_equal(ecs_sched_name(w, turret), "turret");
    again = ecs_sched_entity_from_path(w, 0, "ship.turret.barrel", NULL);
    assert_true(again == barrel);
    assert_int_equal(ecs_sched_entity_count(w), 3);
    assert_true(ecs_sched_entity_from_path(w, turret, "sight", NULL) ==
                ecs_sched_lookup_path(w, 0, "ship.turret.sight", NULL));
    assert_true(ecs_sched_entity_from_path(w, 0, "a/b\\/c", "/") ==
                ecs_sched_lookup_path(w, 0, "a/b\\/c", "/"));
    assert_string_equal(ecs_sched_name(w, ecs_sched_lookup_path(w, 0, "a/b\\/c", "/")), "b/c");
    check_and_destroy(w);
}

static void entity_from_path_refuses_what_it_cannot_make(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(ecs_sched_entity_from_path(w, 0, "ship..gun", NULL), 0);
    assert_non_null(strstr(ecs_sched_last_error(w), "has an empty part"));
    assert_int_equal(ecs_sched_entity_from_path(w, 0, "ship.#99", NULL), 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_NOT_FOUND);
    assert_int_equal(ecs_sched_entity_from_path(w, 0, "", NULL), 0);
    check_and_destroy(w);
}

/* ---- modules: the Vehicles example ---- */

typedef struct { float speed; } Car;
typedef struct { int count; } Wheels;

typedef struct vehicles_module {
    ecs_sched_id car, wheels;
    ecs_sched_entity garage;
} vehicles_module;

static int32_t g_imports;

static void vehicles_import(ecs_sched_world *w, void *handles) {
    vehicles_module *m = (vehicles_module *)handles;
    g_imports++;
    m->car = ECS_SCHED_COMPONENT(w, Car);
    m->wheels = ECS_SCHED_COMPONENT(w, Wheels);
    m->garage = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_set_name(w, m->garage, "garage"), ECS_SCHED_OK);
}

static ecs_sched_result import_vehicles(ecs_sched_world *w, vehicles_module *out) {
    return ecs_sched_import(w, &(ecs_sched_module_desc){.name = "game.vehicles",
                                                        .fn = vehicles_import,
                                                        .handles = out, .size = sizeof *out});
}

static void a_module_s_components_and_entities_live_under_its_scope(void **state) {
    ecs_sched_world *w = new_world();
    vehicles_module vehicles;
    ecs_sched_entity module;
    (void)state;
    g_imports = 0;
    assert_int_equal(import_vehicles(w, &vehicles), ECS_SCHED_OK);
    module = ecs_sched_module_entity(w, "game.vehicles");
    assert_true(module == ecs_sched_lookup_path(w, 0, "game.vehicles", NULL));
    assert_int_equal(ecs_sched_component_lookup(w, "game.vehicles.Car"), vehicles.car);
    assert_true(ecs_sched_parent_of(w, vehicles.garage) == module);
    assert_true(ecs_sched_get_scope(w) == ECS_SCHED_NULL_ENTITY);   /* set back */
    check_and_destroy(w);
}

static void importing_twice_runs_the_module_once_and_hands_out_its_handles(void **state) {
    ecs_sched_world *w = new_world();
    vehicles_module first, second;
    (void)state;
    g_imports = 0;
    assert_int_equal(import_vehicles(w, &first), ECS_SCHED_OK);
    memset(&second, 0, sizeof second);
    assert_int_equal(import_vehicles(w, &second), ECS_SCHED_OK);
    assert_int_equal(g_imports, 1);
    assert_memory_equal(&first, &second, sizeof first);
    check_and_destroy(w);
}

typedef struct { ecs_sched_id road; vehicles_module vehicles; } traffic_module;

static void traffic_import(ecs_sched_world *w, void *handles) {
    traffic_module *m = (traffic_module *)handles;
    assert_int_equal(import_vehicles(w, &m->vehicles), ECS_SCHED_OK);   /* a dependency */
    m->road = ecs_sched_component_register_type(w, "Road", 4, 4);
}

static void a_module_imports_the_modules_it_needs(void **state) {
    ecs_sched_world *w = new_world();
    traffic_module traffic;
    vehicles_module vehicles;
    (void)state;
    g_imports = 0;
    assert_int_equal(ecs_sched_import(w, &(ecs_sched_module_desc){.name = "traffic",
                                                                  .fn = traffic_import,
                                                                  .handles = &traffic,
                                                                  .size = sizeof traffic}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_component_lookup(w, "traffic.Road"), traffic.road);
    assert_int_equal(ecs_sched_component_lookup(w, "game.vehicles.Car"), traffic.vehicles.car);
    assert_int_equal(import_vehicles(w, &vehicles), ECS_SCHED_OK);
    assert_int_equal(vehicles.car, traffic.vehicles.car);
    assert_int_equal(g_imports, 1);
    check_and_destroy(w);
}

static void import_self(ecs_sched_world *w, void *handles);

static void import_other(ecs_sched_world *w, void *handles) {
    (void)handles;
    assert_int_equal(ecs_sched_import(w, &(ecs_sched_module_desc){.name = "a", .fn = import_self}),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
}

static void import_self(ecs_sched_world *w, void *handles) {
    (void)handles;
    (void)ecs_sched_import(w, &(ecs_sched_module_desc){.name = "b", .fn = import_other});
}

static void a_module_that_imports_itself_through_another_is_refused_naming_the_chain(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_int_equal(ecs_sched_import(w, &(ecs_sched_module_desc){.name = "a", .fn = import_self}),
                     ECS_SCHED_OK);
    assert_non_null(strstr(g_log.text, "module 'a' imports itself (a -> b -> a)"));
    check_and_destroy(w);
}

static void importing_with_handles_of_another_size_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    vehicles_module vehicles;
    char small[4];
    (void)state;
    assert_int_equal(import_vehicles(w, &vehicles), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_import(w, &(ecs_sched_module_desc){.name = "game.vehicles",
                                                                  .fn = vehicles_import,
                                                                  .handles = small,
                                                                  .size = sizeof small}),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "handles of"));
    check_and_destroy(w);
}

static void query_text_finds_names_in_the_current_scope_first(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_entity physics = ecs_sched_entity_from_path(w, 0, "physics", NULL);
    ecs_sched_entity world_body = ecs_sched_entity_from_path(w, 0, "physics.ground", NULL);
    ecs_sched_id body, likes;
    ecs_sched_query_desc d;
    (void)state;
    likes = ecs_sched_relation_register(w, &(ecs_sched_relation_desc){.name = "RestsOn"});
    (void)ecs_sched_set_scope(w, physics);
    body = ecs_sched_component_register_type(w, "RigidBody", 8, 4);
    assert_int_equal(ecs_sched_query_parse(w, "RigidBody, (RestsOn, ground)", &d), ECS_SCHED_OK);
    (void)ecs_sched_set_scope(w, 0);
    assert_int_equal(d.terms[0].id, body);
    assert_int_equal(d.terms[1].id, likes);
    assert_true(d.terms[1].target == world_body);
    assert_int_equal(ecs_sched_query_parse(w, "RigidBody", &d), ECS_SCHED_ERR_QUERY_SYNTAX);
    check_and_destroy(w);
}

static int32_t g_order[4], g_ran;

static void integrate(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    g_order[g_ran++] = 1;
}

static void render(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    g_order[g_ran++] = 2;
}

static void physics_import(ecs_sched_world *w, void *handles) {
    (void)handles;
    assert_int_equal(ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
                                                           .name = "integrate", .fn = integrate}),
                     ECS_SCHED_OK);
}

static void a_module_s_systems_are_named_under_its_scope(void **state) {
    ecs_sched_world *w = new_world();
    const char *names[4];
    (void)state;
    assert_int_equal(ecs_sched_import(w, &(ecs_sched_module_desc){.name = "game.physics",
                                                                  .fn = physics_import}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
                                                           .name = "render", .fn = render}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_schedule_order(w, "Update", names, 4), 2);
    assert_true((strcmp(names[0], "game.physics.integrate") == 0 &&
                 strcmp(names[1], "render") == 0) ||
                (strcmp(names[1], "game.physics.integrate") == 0 &&
                 strcmp(names[0], "render") == 0));
    check_and_destroy(w);
}

static void a_system_is_ordered_against_a_module_s_system_by_its_full_name(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_ran = 0;
    assert_int_equal(ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
                                                           .name = "render", .fn = render,
                                                           .after = {"game.physics.integrate"}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_import(w, &(ecs_sched_module_desc){.name = "game.physics",
                                                                  .fn = physics_import}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, "Update"), ECS_SCHED_OK);
    assert_int_equal(g_ran, 2);
    assert_int_equal(g_order[0], 1);
    assert_int_equal(g_order[1], 2);
    check_and_destroy(w);
}

static void a_system_name_too_long_for_its_scope_is_refused_naming_it(void **state) {
    ecs_sched_world *w = new_world();
    char path[300];
    ecs_sched_entity deep;
    (void)state;
    memset(path, 'a', sizeof path - 1);
    path[200] = '.';
    path[sizeof path - 1] = 0;
    deep = ecs_sched_entity_from_path(w, 0, path, NULL);
    assert_true(deep != ECS_SCHED_NULL_ENTITY);
    (void)ecs_sched_set_scope(w, deep);
    assert_int_equal(ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
                                                           .name = "render", .fn = render}),
                     ECS_SCHED_ERR_LIMIT);
    (void)ecs_sched_set_scope(w, 0);
    assert_non_null(strstr(ecs_sched_last_error(w), "'render'"));
    check_and_destroy(w);
}

static void a_component_name_too_long_for_the_current_scope_is_refused_naming_it(void **state) {
    ecs_sched_world *w = new_world();
    char path[300];
    ecs_sched_entity deep;
    (void)state;
    memset(path, 'a', sizeof path - 1);
    path[200] = '.';
    path[sizeof path - 1] = 0;
    deep = ecs_sched_entity_from_path(w, 0, path, NULL);
    assert_true(deep != ECS_SCHED_NULL_ENTITY);
    (void)ecs_sched_set_scope(w, deep);
    assert_int_equal(ecs_sched_component_register_type(w, "Body", 4, 4), 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_LIMIT);
    assert_string_equal(ecs_sched_last_error(w), "component_register: 'Body' in the current scope "
                                                 "makes a name longer than 255 bytes");
    (void)ecs_sched_set_scope(w, 0);
    assert_int_equal(ecs_sched_component_lookup(w, "Body"), 0);
    assert_true(ecs_sched_component_register_type(w, "Body", 4, 4) != 0);
    check_and_destroy(w);
}

static void entity_from_path_refuses_a_dead_scope_no_path_and_a_part_too_long(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_entity gone = ecs_sched_spawn(w);
    char path[400];
    (void)state;
    assert_int_equal(ecs_sched_despawn(w, gone), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_entity_from_path(w, gone, "ship", NULL), 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_STALE_ENTITY);
    assert_contains(ecs_sched_last_error(w), "entity_from_path (the scope)");
    assert_int_equal(ecs_sched_entity_from_path(w, 0, NULL, NULL), 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_ARGUMENT);
    memset(path, 'a', sizeof path - 1);
    path[sizeof path - 1] = 0;
    assert_int_equal(ecs_sched_entity_from_path(w, 0, path, NULL), 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "has a too long part");
    assert_int_equal(ecs_sched_entity_count(w), 0);
    check_and_destroy(w);
}

static void entity_from_path_takes_a_separator_and_escaped_ones_in_names(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_entity ship, gun, dotted;
    (void)state;
    gun = ecs_sched_entity_from_path(w, 0, "ship/turret/gun", "/");
    assert_true(gun != ECS_SCHED_NULL_ENTITY);
    ship = ecs_sched_lookup(w, 0, "ship");
    assert_true(ship != ECS_SCHED_NULL_ENTITY);
    assert_true(ecs_sched_entity_from_path(w, 0, "ship.turret.gun", "") == gun);   /* "": "." */
    dotted = ecs_sched_entity_from_path(w, ship, "v1\\.2", NULL);
    assert_true(dotted != ECS_SCHED_NULL_ENTITY);
    assert_string_equal(ecs_sched_name(w, dotted), "v1.2");
    assert_true(ecs_sched_parent_of(w, dotted) == ship);
    assert_int_equal(ecs_sched_entity_count(w), 4);
    check_and_destroy(w);
}

static void importing_needs_a_name_a_function_and_a_place_for_handles(void **state) {
    ecs_sched_world *w = new_world();
    vehicles_module vehicles;
    ecs_sched_module_desc d;
    (void)state;
    assert_int_equal(ecs_sched_import(w, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_string_equal(ecs_sched_last_error(w), "import: module '?' needs a name, a function, and "
                                                 "somewhere to put its handles when it has some");
    memset(&d, 0, sizeof d);
    d.fn = vehicles_import;
    assert_int_equal(ecs_sched_import(w, &d), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "module '?'");
    d.name = "";
    assert_int_equal(ecs_sched_import(w, &d), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "module ''");
    d.name = "vehicles";
    d.fn = NULL;
    assert_int_equal(ecs_sched_import(w, &d), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "module 'vehicles' needs a name, a function");
    d.fn = vehicles_import;
    d.size = sizeof vehicles;
    assert_int_equal(ecs_sched_import(w, &d), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "somewhere to put its handles");
    assert_true(ecs_sched_module_entity(w, "vehicles") == ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_entity_count(w), 0);
    check_and_destroy(w);
}

static void a_module_s_entity_is_none_when_not_imported_or_despawned(void **state) {
    ecs_sched_world *w = new_world();
    vehicles_module vehicles;
    ecs_sched_entity entity;
    (void)state;
    assert_int_equal(ecs_sched_import(w, &(ecs_sched_module_desc){.name = "game.vehicles",
                                                                 .fn = vehicles_import,
                                                                 .handles = &vehicles,
                                                                 .size = sizeof vehicles}),
                     ECS_SCHED_OK);
    entity = ecs_sched_module_entity(w, "game.vehicles");
    assert_true(entity == ecs_sched_lookup_path(w, 0, "game.vehicles", NULL));
    assert_true(ecs_sched_module_entity(w, NULL) == ECS_SCHED_NULL_ENTITY);
    assert_true(ecs_sched_module_entity(w, "game") == ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_despawn(w, entity), ECS_SCHED_OK);
    assert_true(ecs_sched_module_entity(w, "game.vehicles") == ECS_SCHED_NULL_ENTITY);
    check_and_destroy(w);
}

static void the_chain_of_a_module_importing_itself_leaves_out_modules_imported_before(void **state) {
    ecs_sched_world *w = new_world();
    vehicles_module vehicles;
    (void)state;
    assert_int_equal(import_vehicles(w, &vehicles), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_import(w, &(ecs_sched_module_desc){.name = "a", .fn = import_self}),
                     ECS_SCHED_OK);
    assert_non_null(strstr(g_log.text, "import: module 'a' imports itself (a -> b -> a); break the cycle"));
    assert_null(strstr(g_log.text, "vehicles ->"));
    check_and_destroy(w);
}

static void a_component_registered_after_its_scope_was_despawned_keeps_its_name(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_entity physics = ecs_sched_entity_from_path(w, 0, "physics", NULL);
    ecs_sched_id body;
    (void)state;
    (void)ecs_sched_set_scope(w, physics);
    assert_int_equal(ecs_sched_despawn(w, physics), ECS_SCHED_OK);
    body = ecs_sched_component_register_type(w, "Body", 4, 4);
    assert_true(body != 0);
    assert_string_equal(ecs_sched_component_name(w, body), "Body");
    assert_true(ecs_sched_get_scope(w) == ECS_SCHED_NULL_ENTITY);
    (void)ecs_sched_set_scope(w, 0);
    check_and_destroy(w);
}

static void a_backslash_ending_a_path_is_part_of_the_name(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_entity e;
    (void)state;
    e = ecs_sched_entity_from_path(w, 0, "dir\\", NULL);
    assert_true(e != ECS_SCHED_NULL_ENTITY);
    assert_string_equal(ecs_sched_name(w, e), "dir\\");
    check_and_destroy(w);
}

static void a_module_whose_name_is_no_path_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    vehicles_module vehicles;
    (void)state;
    g_imports = 0;
    assert_int_equal(ecs_sched_import(w, &(ecs_sched_module_desc){.name = "game..vehicles",
                                                                 .fn = vehicles_import,
                                                                 .handles = &vehicles,
                                                                 .size = sizeof vehicles}),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "entity_from_path: 'game..vehicles' has an empty part");
    assert_int_equal(g_imports, 0);
    assert_true(ecs_sched_module_entity(w, "game..vehicles") == ECS_SCHED_NULL_ENTITY);
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_spawn_in_a_scope_makes_a_child_of_it),
        cmocka_unit_test(a_component_registered_in_a_scope_is_named_after_it),
        cmocka_unit_test(a_scope_that_is_despawned_ends),
        cmocka_unit_test(resolve_looks_in_the_scope_then_up_then_at_the_roots),
        cmocka_unit_test(entity_from_path_makes_the_missing_parents_and_finds_what_is_there),
        cmocka_unit_test(entity_from_path_refuses_what_it_cannot_make),
        cmocka_unit_test(a_module_s_components_and_entities_live_under_its_scope),
        cmocka_unit_test(importing_twice_runs_the_module_once_and_hands_out_its_handles),
        cmocka_unit_test(a_module_imports_the_modules_it_needs),
        cmocka_unit_test(a_module_that_imports_itself_through_another_is_refused_naming_the_chain),
        cmocka_unit_test(importing_with_handles_of_another_size_is_refused),
        cmocka_unit_test(query_text_finds_names_in_the_current_scope_first),
        cmocka_unit_test(a_module_s_systems_are_named_under_its_scope),
        cmocka_unit_test(a_system_is_ordered_against_a_module_s_system_by_its_full_name),
        cmocka_unit_test(a_system_name_too_long_for_its_scope_is_refused_naming_it),
        cmocka_unit_test(a_component_name_too_long_for_the_current_scope_is_refused_naming_it),
        cmocka_unit_test(entity_from_path_refuses_a_dead_scope_no_path_and_a_part_too_long),
        cmocka_unit_test(entity_from_path_takes_a_separator_and_escaped_ones_in_names),
        cmocka_unit_test(importing_needs_a_name_a_function_and_a_place_for_handles),
        cmocka_unit_test(a_module_s_entity_is_none_when_not_imported_or_despawned),
        cmocka_unit_test(the_chain_of_a_module_importing_itself_leaves_out_modules_imported_before),
        cmocka_unit_test(a_component_registered_after_its_scope_was_despawned_keeps_its_name),
        cmocka_unit_test(a_backslash_ending_a_path_is_part_of_the_name),
        cmocka_unit_test(a_module_whose_name_is_no_path_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
