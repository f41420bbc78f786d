/* The Lua driver (ECS_SCHED_LUA): components, systems and observers declared by a Lua script,
   what a run reaches (its terms' fields, commands, the time, resources, messages, states,
   the hierarchy, arrays and nested structs), the sandbox, the budget, the
   errors a script's author sees (with the file and line), and reloads. Built against LuaJIT
   2.1 and against Lua 5.4 (Makefile: LUA_RUNS). The scripts are written next to the program. */
#define ECS_SCHED_IMPLEMENTATION
/* with threads, every parallel run is one (the executor does not fall back to the calling
   thread for cheap schedules): the systems of two scripts then really run at once */
#define ECS_SCHED_PARALLEL_MIN_NS 0
#include "ecs_sched.h"

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

#include "schedule_fixture.h"

static char g_path[512];
static const char *g_program = "test_lua_scripts";
static int g_scripts;

/* A new script path (each test its own file, so that a reload always sees a change). */
static const char *next_path(void) {
    snprintf(g_path, sizeof g_path, "%s.%d.lua", g_program, ++g_scripts);
    return g_path;
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void write_script(const char *text) {
    write_file(g_path, text);
}

static ecs_sched_world *world_with_lua(const ecs_sched_lua_desc *desc) {
    ecs_sched_world *w = new_world();
    ecs_sched_script_driver d = ecs_sched_lua_script_driver(desc);
    next_path();
    assert_int_equal(ecs_sched_script_driver_add(w, &d), ECS_SCHED_OK);
    return w;
}

/* The same on `executor`, with four threads when it is the parallel one. */
static ecs_sched_world *world_with_lua_on(ecs_sched_executor executor) {
    ecs_sched_world_desc desc = logged_world_desc(&g_log);
    ecs_sched_script_driver d = ecs_sched_lua_script_driver(NULL);
    if (g_world) ecs_sched_world_destroy(g_world);
    desc.executor = executor;
    desc.thread_count = 4;
    g_world = ecs_sched_world_create(&desc);
    assert_non_null(g_world);
    next_path();
    assert_int_equal(ecs_sched_script_driver_add(g_world, &d), ECS_SCHED_OK);
    return g_world;
}

static void finish(ecs_sched_world *w) {
    check_and_destroy(w);
    remove(g_path);
}

static ecs_sched_script *load_ok(ecs_sched_world *w, const char *text) {
    ecs_sched_script *script;
    write_script(text);
    script = ecs_sched_script_load(w, g_path);
    if (!script) fail_msg("the script did not load: %s", ecs_sched_last_error(w));
    return script;
}

/* The last error holds `text`, and "<path>:<line>" when line > 0. */
static void assert_error_has(ecs_sched_world *w, const char *text, int line) {
    const char *error = ecs_sched_last_error(w);
    char where[600];
    if (!strstr(error, text)) fail_msg("'%s' is not in the error: %s", text, error);
    if (line > 0) {
        snprintf(where, sizeof where, "%s:%d", g_path, line);
        if (!strstr(error, where)) fail_msg("'%s' is not in the error: %s", where, error);
    }
}

/* Position and Velocity as C declares and describes them. */
static void describe_motion(ecs_sched_world *w) {
    static const ecs_sched_member position[] = {ECS_SCHED_MEMBER(Position, x, ECS_SCHED_TYPE_F32),
                                                ECS_SCHED_MEMBER(Position, y, ECS_SCHED_TYPE_F32)};
    static const ecs_sched_member velocity[] = {ECS_SCHED_MEMBER(Velocity, x, ECS_SCHED_TYPE_F32),
                                                ECS_SCHED_MEMBER(Velocity, y, ECS_SCHED_TYPE_F32)};
    assert_int_equal(ecs_sched_describe(w, ECS_SCHED_COMPONENT(w, Position), 2, position), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_describe(w, ECS_SCHED_COMPONENT(w, Velocity), 2, velocity), ECS_SCHED_OK);
}

static ecs_sched_entity spawn_moving(ecs_sched_world *w, float x, float vx) {
    Position p = {x, 0};
    Velocity v = {vx, 1};
    ecs_sched_id ids[2];
    const void *values[2] = {&p, &v};
    ids[0] = ecs_sched_component_lookup(w, "Position");
    ids[1] = ecs_sched_component_lookup(w, "Velocity");
    return ecs_sched_spawn_with(w, 2, ids, values);
}

static const Position *position_of(ecs_sched_world *w, ecs_sched_entity e) {
    const Position *p = (const Position *)ecs_sched_get(w, e, ecs_sched_component_lookup(w, "Position"));
    assert_non_null(p);
    return p;
}

static const char *const MOVE =
    "ecs.system{\n"
    "    name = 'move',\n"
    "    query = '[inout] Position, [in] Velocity',\n"
    "    run = function(it)\n"
    "        for row in it:rows() do\n"
    "            row.Position.x = row.Position.x + row.Velocity.x\n"
    "            row.Position.y = row.Position.y + row.Velocity.y\n"
    "        end\n"
    "    end,\n"
    "}\n";

/* ---- systems ---- */

static void a_script_s_system_writes_the_fields_its_query_names(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_entity a, b;
    (void)state;
    describe_motion(w);
    a = spawn_moving(w, 1, 2);
    b = spawn_moving(w, 10, -1);
    load_ok(w, MOVE);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_true(position_of(w, a)->x == 5.0f && position_of(w, a)->y == 2.0f);
    assert_true(position_of(w, b)->x == 8.0f && position_of(w, b)->y == 2.0f);
    finish(w);
}

static void a_script_s_system_is_ordered_among_the_others(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    ADD_SYSTEM(w, .name = "input", .fn = record);
    ADD_SYSTEM(w, .name = "render", .fn = record);
    load_ok(w, "ecs.system{name = 'think', after = 'input', before = {'render'},\n"
               "           run = function(it) print('think ran') end}\n");
    assert_string_equal(plan_of(w, UPDATE), "input think render");
    finish(w);
}

static void a_row_gives_its_entity(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_entity e;
    Health h = {0};
    ecs_sched_id health = ECS_SCHED_COMPONENT(w, Health);
    static const ecs_sched_member members[] = {ECS_SCHED_MEMBER(Health, hp, ECS_SCHED_TYPE_I32)};
    (void)state;
    assert_int_equal(ecs_sched_describe(w, health, 1, members), ECS_SCHED_OK);
    e = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_insert(w, e, health, &h), ECS_SCHED_OK);
    load_ok(w, "ecs.system{name = 'mark', query = 'Health',\n"
               "  run = function(it) for row in it:rows() do\n"
               "    row.Health.hp = row.entity % 1000 end end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(((const Health *)ecs_sched_get(w, e, health))->hp, (int)(e % 1000));
    finish(w);
}

static void it_dt_is_the_time_s_delta_in_seconds(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_entity e;
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_advance_by(w, ECS_SCHED_MILLISECONDS(250)), ECS_SCHED_OK);
    describe_motion(w);
    e = spawn_moving(w, 0, 4);
    load_ok(w, "ecs.system{name = 'integrate', query = '[inout] Position, Velocity',\n"
               "  run = function(it) for row in it:rows() do\n"
               "    row.Position.x = row.Position.x + row.Velocity.x * it.dt\n"
               "    row.Position.y = ecs.delta_time() end end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_true(position_of(w, e)->x == 1.0f);
    assert_true(position_of(w, e)->y == 0.25f);
    finish(w);
}

/* ---- components ---- */

typedef struct {
    int32_t hp;
    float regen;
    bool alive;
    ecs_sched_entity target;
    char label[16];
} LuaHealth;

static const char *const HEALTH =
    "ecs.component{ name = 'Health', fields = {\n"
    "    {'hp', 'i32'}, {'regen', 'f32'}, {'alive', 'bool'}, {'target', 'entity'},\n"
    "    {'label', 'chars', 16} } }\n";

static void a_component_declared_in_lua_has_c_s_layout_and_description(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id health;
    LuaHealth h;
    char text[256];
    (void)state;
    load_ok(w, HEALTH);
    health = ecs_sched_component_lookup(w, "Health");
    assert_true(health != 0);
    assert_int_equal(ecs_sched_component_size(w, health), sizeof(LuaHealth));
    memset(&h, 0, sizeof h);
    h.hp = 7;
    h.regen = 0.5f;
    h.alive = true;
    snprintf(h.label, sizeof h.label, "orc");
    ecs_sched_value_print(w, health, &h, text, (int32_t)sizeof text);
    assert_string_equal(text, "{hp: 7, regen: 0.5, alive: true, target: 0, label: \"orc\"}");
    finish(w);
}

static void a_component_c_registered_with_the_same_layout_is_reused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id position;
    (void)state;
    describe_motion(w);
    position = ecs_sched_component_lookup(w, "Position");
    load_ok(w, "ecs.component{name = 'Position', fields = {{'x', 'f32'}, {'y', 'f32'}}}\n");
    assert_int_equal(ecs_sched_component_lookup(w, "Position"), position);
    finish(w);
}

static void a_component_with_another_layout_is_refused_naming_the_field(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    describe_motion(w);
    write_script("-- a second opinion on Position\n"
                 "ecs.component{name = 'Position', fields = {{'x', 'i32'}, {'y', 'f32'}}}\n");
    assert_null(ecs_sched_script_load(w, g_path));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "'x' (f32, 4 bytes at offset 0) there, 'x' (i32, 4 bytes at offset 0) here", 2);
    assert_error_has(w, "C code registered a component of this name", 2);
    ecs_sched_clear_error(w);
    finish(w);
}

static void an_unknown_field_type_is_refused_with_its_line_and_field(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    write_script("\n\necs.component{name = 'Mana', fields = {{'points', 'int32'}}}\n");
    assert_null(ecs_sched_script_load(w, g_path));
    assert_error_has(w, "field 'points' has unknown type 'int32'", 3);
    assert_int_equal(ecs_sched_component_lookup(w, "Mana"), 0);
    ecs_sched_clear_error(w);
    finish(w);
}

static void a_value_a_field_cannot_hold_fails_the_system(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    load_ok(w, "ecs.component{name = 'Small', fields = {{'n', 'i8'}}}\n"
               "ecs.system{name = 'grow', query = 'Small', run = function(it)\n"
               "  for row in it:rows() do row.Small.n = 300 end end}\n");
    assert_int_equal(ecs_sched_insert(w, ecs_sched_spawn(w), ecs_sched_component_lookup(w, "Small"),
                                      NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "Small.n is an i8: 300 does not fit", 3);
    ecs_sched_clear_error(w);
    finish(w);
}

/* ---- observers and commands ---- */

static void an_observer_hears_its_event_and_writes_the_value(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id health;
    ecs_sched_entity e;
    (void)state;
    load_ok(w, "ecs.component{name = 'Health', fields = {{'hp', 'i32'}}}\n"
               "ecs.observer{name = 'full_health', event = 'add', component = 'Health',\n"
               "  run = function(e) e.Health.hp = 100 + e.entity % 10 end}\n");
    health = ecs_sched_component_lookup(w, "Health");
    e = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_insert(w, e, health, NULL), ECS_SCHED_OK);
    assert_int_equal(((const Health *)ecs_sched_get(w, e, health))->hp, 100 + (int)(e % 10));
    finish(w);
}

static void a_removal_s_observer_reads_the_value_and_cannot_write_it(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id health;
    ecs_sched_entity e;
    Health h = {41};
    (void)state;
    load_ok(w, "ecs.component{name = 'Health', fields = {{'hp', 'i32'}}}\n"
               "ecs.observer{name = 'last_words', event = 'remove', component = 'Health',\n"
               "  run = function(e)\n"
               "    print('had ' .. e.Health.hp)\n"
               "    e.Health.hp = 0\n"
               "  end}\n");
    health = ecs_sched_component_lookup(w, "Health");
    e = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_insert(w, e, health, &h), ECS_SCHED_OK);
    ecs_sched_remove(w, e, health);   /* (an observer's failure outside systems: the world's) */
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_SCRIPT);
    assert_non_null(strstr(g_log.text, "had 41"));
    assert_error_has(w, "Health is read-only in observer 'last_words'", 5);
    ecs_sched_clear_error(w);
    finish(w);
}

static void commands_are_refused_at_the_top_level(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    write_script("ecs.component{name = 'Health', fields = {{'hp', 'i32'}}}\n"
                 "ecs.spawn{Health = {hp = 1}}\n");
    assert_null(ecs_sched_script_load(w, g_path));
    assert_error_has(w, "ecs.spawn is for a system's or observer's run", 2);
    ecs_sched_clear_error(w);
    finish(w);
}

static void commands_spawn_insert_remove_and_despawn_at_the_sync_point(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id health, marked;
    ecs_sched_entity old = 0, spawned = 0;
    ecs_sched_query *q;
    ecs_sched_iter it;
    (void)state;
    load_ok(w, "ecs.component{name = 'Health', fields = {{'hp', 'i32'}}}\n"
               "ecs.component{name = 'Marked', fields = {{'by', 'u8'}}}\n"
               "ecs.system{name = 'churn', query = 'Health', commands = true, run = function(it)\n"
               "  for row in it:rows() do\n"
               "    if row.Health.hp == 1 then ecs.despawn(row.entity)\n"
               "    elseif row.Health.hp == 2 then ecs.remove(row.entity, 'Health')\n"
               "    elseif row.Health.hp == 3 then ecs.insert(row.entity, 'Marked', {by = 9}) end\n"
               "  end\n"
               "  local e = ecs.spawn{Health = {hp = 10}, Marked = {by = 1}}\n"
               "end}\n");
    health = ecs_sched_component_lookup(w, "Health");
    marked = ecs_sched_component_lookup(w, "Marked");
    {
        Health one = {1}, two = {2}, three = {3};
        ecs_sched_entity a = ecs_sched_spawn(w), b = ecs_sched_spawn(w), c = ecs_sched_spawn(w);
        assert_int_equal(ecs_sched_insert(w, a, health, &one), ECS_SCHED_OK);
        assert_int_equal(ecs_sched_insert(w, b, health, &two), ECS_SCHED_OK);
        assert_int_equal(ecs_sched_insert(w, c, health, &three), ECS_SCHED_OK);
        assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
        assert_false(ecs_sched_is_alive(w, a));
        assert_false(ecs_sched_has(w, b, health));
        assert_int_equal(*(const uint8_t *)ecs_sched_get(w, c, marked), 9);
        old = c;
    }
    q = ecs_sched_query_from_text(w, "Health, Marked");
    assert_non_null(q);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        int32_t i;
        for (i = 0; i < it.count; i++) {
            if (it.entities[i] != old) spawned = it.entities[i];
        }
    }
    assert_true(spawned != 0);
    assert_int_equal(((const Health *)ecs_sched_get(w, spawned, health))->hp, 10);
    assert_int_equal(*(const uint8_t *)ecs_sched_get(w, spawned, marked), 1);
    finish(w);
}

static void lookup_finds_a_named_entity(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_entity ship = ecs_sched_spawn(w), turret = ecs_sched_spawn(w);
    (void)state;
    assert_int_equal(ecs_sched_set_name(w, ship, "ship"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(w, turret, "turret"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, turret, ship), ECS_SCHED_OK);
    load_ok(w, "ecs.component{name = 'Found', fields = {{'e', 'entity'}, {'missing', 'bool'}}}\n"
               "ecs.system{name = 'find', commands = true, run = function(it)\n"
               "  ecs.spawn{Found = {e = ecs.lookup('ship.turret'),\n"
               "                     missing = ecs.lookup('ship.nothing') == nil}}\n"
               "end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    {
        ecs_sched_query *q = ecs_sched_query_from_text(w, "Found");
        ecs_sched_iter it = ecs_sched_query_iter(q);
        assert_true(ecs_sched_iter_next(&it));
        assert_int_equal(it.count, 1);
        assert_true(*(const ecs_sched_entity *)it.fields[0] == turret);
        assert_true(((const bool *)it.fields[0])[8]);
        assert_false(ecs_sched_iter_next(&it));
    }
    finish(w);
}

/* ---- mistakes at run time ---- */

static void writing_a_term_the_query_only_reads_fails_the_system(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_entity e;
    (void)state;
    describe_motion(w);
    e = spawn_moving(w, 1, 2);
    load_ok(w, "ecs.system{name = 'move', query = '[inout] Velocity, [in] Position',\n"
               "  run = function(it)\n"
               "    for row in it:rows() do\n"
               "      row.Position.x = 5\n"
               "    end\n"
               "  end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
    {
        char expected[700];
        snprintf(expected, sizeof expected, "Position is read-only in system 'move' (%s:4)", g_path);
        assert_error_has(w, expected, 0);
    }
    ecs_sched_clear_error(w);
    assert_true(position_of(w, e)->x == 1.0f);
    finish(w);
}

static void a_lua_error_fails_the_system_with_its_line_and_a_traceback(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    load_ok(w, "local function deeper(n)\n"
               "  return n.missing.field\n"
               "end\n"
               "ecs.system{name = 'crash', run = function(it) deeper({}) end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "system 'crash'", 2);
    assert_error_has(w, "stack traceback", 0);
    ecs_sched_clear_error(w);
    finish(w);
}

static void an_endless_loop_fails_the_system_at_its_budget(void **state) {
    ecs_sched_lua_desc desc = {100000, false, NULL};
    ecs_sched_world *w = world_with_lua(&desc);
    (void)state;
    load_ok(w, "ecs.system{name = 'spin', run = function(it)\n"
               "  while true do pcall(function() while true do end end) end\n"
               "end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "system 'spin'", 0);
    assert_error_has(w, "exceeded its budget of 100000 instructions", 2);
    ecs_sched_clear_error(w);
    finish(w);
}

static void each_run_has_the_whole_budget(void **state) {
    ecs_sched_lua_desc desc = {100000, false, NULL};
    ecs_sched_world *w = world_with_lua(&desc);
    int i;
    (void)state;
    load_ok(w, "ecs.system{name = 'busy', run = function(it)\n"
               "  local n = 0\n"
               "  for i = 1, 10000 do n = n + i end\n"
               "end}\n");
    for (i = 0; i < 20; i++) assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    finish(w);
}

static void an_endless_top_level_fails_the_load_at_its_budget(void **state) {
    ecs_sched_lua_desc desc = {100000, false, NULL};
    ecs_sched_world *w = world_with_lua(&desc);
    (void)state;
    write_script("local n = 0\nwhile true do n = n + 1 end\n");
    assert_null(ecs_sched_script_load(w, g_path));
    assert_error_has(w, "exceeded its budget of 100000 instructions", 2);
    ecs_sched_clear_error(w);
    finish(w);
}

static void a_row_kept_after_its_run_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    describe_motion(w);
    spawn_moving(w, 1, 2);
    load_ok(w, "local kept\n"
               "ecs.system{name = 'keep', query = 'Position', run = function(it)\n"
               "  if kept then\n"
               "    local x = kept.x\n"
               "  end\n"
               "  for row in it:rows() do kept = row.Position end\n"
               "end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "a value of system 'keep' used outside its system's run", 4);
    ecs_sched_clear_error(w);
    finish(w);
}

/* ---- tables and columns ---- */

static const char *const MOVE_BY_COLUMNS =
    "ecs.system{name = 'move', query = '[inout] Position, [in] Velocity',\n"
    "  run = function(it)\n"
    "    for t in it:tables() do\n"
    "      local px, py, vx, vy = t.Position.x, t.Position.y, t.Velocity.x, t.Velocity.y\n"
    "      for i = 1, t.count do\n"
    "        px[i] = px[i] + vx[i]\n"
    "        py[i] = py[i] + vy[i]\n"
    "      end\n"
    "    end\n"
    "  end}\n";

static void columns_write_every_row_of_every_table(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_entity a, b, c;
    (void)state;
    describe_motion(w);
    a = spawn_moving(w, 1, 2);
    b = spawn_moving(w, 10, -1);
    c = spawn_moving(w, 100, 3);
    assert_int_equal(ecs_sched_insert(w, c, ECS_SCHED_TAG(w, Marked), NULL), ECS_SCHED_OK);
    load_ok(w, MOVE_BY_COLUMNS);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_true(position_of(w, a)->x == 5.0f && position_of(w, a)->y == 2.0f);
    assert_true(position_of(w, b)->x == 8.0f && position_of(w, b)->y == 2.0f);
    assert_true(position_of(w, c)->x == 106.0f && position_of(w, c)->y == 2.0f);
    finish(w);
}

static void a_table_gives_its_entities_and_its_row_count(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_entity a, b;
    (void)state;
    describe_motion(w);
    a = spawn_moving(w, 1, 2);
    b = spawn_moving(w, 10, -1);
    load_ok(w, "ecs.system{name = 'cull', query = 'Position', commands = true,\n"
               "           run = function(it)\n"
               "  for t in it:tables() do\n"
               "    assert(t.count == 2 and #t.entities == 2 and #t.Position.x == 2)\n"
               "    for i = 1, t.count do\n"
               "      if t.Position.x[i] > 5 then ecs.despawn(t.entities[i]) end\n"
               "    end\n"
               "  end\n"
               "end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_true(ecs_sched_is_alive(w, a));
    assert_false(ecs_sched_is_alive(w, b));
    finish(w);
}

static void a_column_kept_after_its_run_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    describe_motion(w);
    spawn_moving(w, 1, 2);
    load_ok(w, "local kept\n"
               "ecs.system{name = 'keep', query = 'Position', run = function(it)\n"
               "  if kept then\n"
               "    local x = kept[1]\n"
               "  end\n"
               "  for t in it:tables() do kept = t.Position.x end\n"
               "end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "Position.x of system 'keep' used outside its system's run", 4);
    ecs_sched_clear_error(w);
    finish(w);
}

static void writing_a_column_the_query_only_reads_fails_the_system(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_entity e;
    (void)state;
    describe_motion(w);
    e = spawn_moving(w, 1, 2);
    load_ok(w, "ecs.system{name = 'move', query = '[inout] Velocity, [in] Position',\n"
               "  run = function(it)\n"
               "    for t in it:tables() do\n"
               "      t.Position.x[1] = 5\n"
               "    end\n"
               "  end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "Position.x of system 'move' is read-only", 4);
    assert_error_has(w, "write [inout] or [out]", 0);
    ecs_sched_clear_error(w);
    assert_true(position_of(w, e)->x == 1.0f);
    finish(w);
}

static void a_column_index_outside_its_table_is_refused(void **state) {
    static const char *const reads[] = {"t.Position.x[0]", "t.Position.x[3]", "t.Position.x[1.5]",
                                        "t.entities[3]"};
    int k;
    (void)state;
    for (k = 0; k < 4; k++) {
        ecs_sched_world *w = world_with_lua(NULL);
        char text[512];
        describe_motion(w);
        spawn_moving(w, 1, 2);
        spawn_moving(w, 2, 2);
        snprintf(text, sizeof text,
                 "ecs.system{name = 'over', query = 'Position', run = function(it)\n"
                 "  for t in it:tables() do\n"
                 "    local x = %s\n"
                 "  end\n"
                 "end}\n", reads[k]);
        load_ok(w, text);
        assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
        assert_error_has(w, "is outside its table's rows (1 to 2)", 3);
        ecs_sched_clear_error(w);
        finish(w);
    }
}

static void a_column_converts_bools_integers_and_entities(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_entity e;
    const unsigned char *bytes;
    int64_t big;
    int16_t small;
    bool flag;
    ecs_sched_entity target;
    ecs_sched_id stats;
    (void)state;
    load_ok(w, "ecs.component{name = 'Stats', fields = {{'flag', 'bool'}, {'small', 'i16'},\n"
               "                                      {'big', 'i64'}, {'target', 'entity'}}}\n"
               "ecs.system{name = 'set', query = '[inout] Stats', run = function(it)\n"
               "  for t in it:tables() do\n"
               "    local s = t.Stats\n"
               "    for i = 1, t.count do\n"
               "      assert(s.flag[i] == false and s.small[i] == -3 and s.big[i] == 7)\n"
               "      s.flag[i] = true\n"
               "      s.small[i] = s.small[i] * 100\n"
               "      s.big[i] = s.big[i] + 2^40\n"
               "      s.target[i] = t.entities[i]\n"
               "    end\n"
               "  end\n"
               "end}\n");
    stats = ecs_sched_component_lookup(w, "Stats");
    e = ecs_sched_spawn(w);
    {
        unsigned char value[32];
        const ecs_sched__description *d = ecs_sched__description_of(w, stats);
        int16_t s0 = -3;
        int64_t b0 = 7;
        memset(value, 0, sizeof value);
        memcpy(value + d->fields[1].offset, &s0, sizeof s0);
        memcpy(value + d->fields[2].offset, &b0, sizeof b0);
        assert_int_equal(ecs_sched_insert(w, e, stats, value), ECS_SCHED_OK);
        assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
        bytes = (const unsigned char *)ecs_sched_get(w, e, stats);
        memcpy(&flag, bytes + d->fields[0].offset, sizeof flag);
        memcpy(&small, bytes + d->fields[1].offset, sizeof small);
        memcpy(&big, bytes + d->fields[2].offset, sizeof big);
        memcpy(&target, bytes + d->fields[3].offset, sizeof target);
    }
    assert_true(flag);
    assert_int_equal(small, -300);
    assert_true(big == (int64_t)7 + ((int64_t)1 << 40));
    assert_true(target == e);
    finish(w);
}

static void a_sparse_component_has_columns_too(void **state) {
    static const ecs_sched_member heat[] = {{"degrees", ECS_SCHED_TYPE_F32, 0, 4, 0, NULL, 0}};
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id id;
    ecs_sched_entity a, b;
    float d1 = 10, d2 = 20;
    (void)state;
    id = ecs_sched_sparse_component_register_type(w, "Heat", sizeof(float), sizeof(float));
    assert_int_equal(ecs_sched_describe(w, id, 1, heat), ECS_SCHED_OK);
    a = ecs_sched_spawn(w);
    b = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_insert(w, a, id, &d1), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(w, b, id, &d2), ECS_SCHED_OK);
    load_ok(w, "ecs.system{name = 'cool', query = '[inout] Heat', run = function(it)\n"
               "  for t in it:tables() do\n"
               "    for i = 1, t.count do t.Heat.degrees[i] = t.Heat.degrees[i] / 2 end\n"
               "  end\n"
               "end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_true(*(const float *)ecs_sched_get(w, a, id) == 5.0f);
    assert_true(*(const float *)ecs_sched_get(w, b, id) == 10.0f);
    finish(w);
}

typedef struct Config {
    float scale;
} Config;

static void a_shared_term_s_column_gives_its_one_value_on_every_row(void **state) {
    static const ecs_sched_member config[] = {ECS_SCHED_MEMBER(Config, scale, ECS_SCHED_TYPE_F32)};
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_entity game, a, b;
    Config c = {3.0f};
    (void)state;
    describe_motion(w);
    assert_int_equal(ecs_sched_describe(w, ECS_SCHED_COMPONENT(w, Config), 1, config), ECS_SCHED_OK);
    game = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_set_name(w, game, "Game"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(w, game, ecs_sched_component_lookup(w, "Config"), &c),
                     ECS_SCHED_OK);
    a = spawn_moving(w, 1, 2);
    b = spawn_moving(w, 10, -1);
    load_ok(w, "ecs.system{name = 'scale', query = '[inout] Position, [in] Game:Config',\n"
               "  run = function(it)\n"
               "    for t in it:tables() do\n"
               "      for i = 1, t.count do\n"
               "        t.Position.x[i] = t.Position.x[i] * t.Config.scale[i]\n"
               "      end\n"
               "    end\n"
               "  end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_true(position_of(w, a)->x == 3.0f);
    assert_true(position_of(w, b)->x == 30.0f);
    finish(w);
}

static void a_column_table_names_what_it_lacks(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    describe_motion(w);
    spawn_moving(w, 1, 2);
    load_ok(w, "ecs.system{name = 'typo', query = 'Position', run = function(it)\n"
               "  for t in it:tables() do\n"
               "    local z = t.Position.z\n"
               "  end\n"
               "end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "no column 'z'", 3);
    ecs_sched_clear_error(w);
    finish(w);
}

static void a_system_records_commands_only_when_it_declares_them(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    load_ok(w, "ecs.component{name = 'Health', fields = {{'hp', 'i32'}}}\n"
               "ecs.system{name = 'quiet', run = function(it)\n"
               "  ecs.spawn{Health = {hp = 1}}\n"
               "end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "ecs.spawn: system 'quiet' records no commands", 3);
    assert_error_has(w, "declare it with commands = true", 0);
    ecs_sched_clear_error(w);
    finish(w);
}

static void a_script_requires_a_module_of_its_folder_once(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    char module[600];
    (void)state;
    snprintf(module, sizeof module, "%s_helpers.lua", g_program);
    write_file(module, "loads = (loads or 0) + 1\n"
                       "return {double = function(x) return 2 * x end}\n");
    {
        char text[1200];
        const char *base = strrchr(g_program, '/');
        base = base ? base + 1 : g_program;
        snprintf(text, sizeof text,
                 "local h = require('%s_helpers')\n"
                 "assert(h.double(21) == 42)\n"
                 "assert(require('%s_helpers') == h and loads == 1)\n", base, base);
        load_ok(w, text);
    }
    remove(module);
    finish(w);
}

static void a_module_outside_the_script_s_folder_is_refused(void **state) {
    static const char *const names[] = {"../secrets", "/etc/passwd", "a..b", ".hidden", "x/y"};
    int k;
    (void)state;
    for (k = 0; k < 5; k++) {
        ecs_sched_world *w = world_with_lua(NULL);
        char text[200];
        snprintf(text, sizeof text, "local m = require('%s')\n", names[k]);
        write_script(text);
        assert_null(ecs_sched_script_load(w, g_path));
        assert_error_has(w, "a module is named by names and dots", 1);
        ecs_sched_clear_error(w);
        finish(w);
    }
}

/* ---- Lua states and threads ---- */

static void two_systems_of_one_script_are_ordered_by_its_lua_state(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    char expected[700];
    (void)state;
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &(ecs_sched_schedule_desc){
                         .ambiguities = ECS_SCHED_REPORT_ERROR}), ECS_SCHED_OK);
    write_script("ecs.system{name = 'a', run = function(it) end}\n"
                 "ecs.system{name = 'b', run = function(it) end}\n");
    assert_null(ecs_sched_script_load(w, g_path));
    snprintf(expected, sizeof expected, "resource 'Lua state of %s' (both write)", g_path);
    assert_error_has(w, expected, 0);
    ecs_sched_clear_error(w);
    load_ok(w, "ecs.system{name = 'a', run = function(it) end}\n"
               "ecs.system{name = 'b', after = 'a', run = function(it) end}\n");
    finish(w);
}

static void systems_of_two_scripts_are_not_ambiguous(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &(ecs_sched_schedule_desc){
                         .ambiguities = ECS_SCHED_REPORT_ERROR}), ECS_SCHED_OK);
    load_ok(w, "ecs.system{name = 'a', run = function(it) end}\n");
    next_path();
    load_ok(w, "ecs.system{name = 'b', run = function(it) end}\n");
    finish(w);
}

/* Two scripts run by the parallel executor (with threads) give the single-threaded
   executor's values: the first script's three systems, unordered, take turns on its Lua
   state while the second script's system runs beside them. Each system moves its own
   component, then spins long enough for the executor to hand work to another thread. */
static const char *const SPIN = "  local spin = 0\n  for k = 1, 200000 do spin = spin + k end\n";

static void add_mover(char *text, size_t capacity, const char *name, bool columns) {
    size_t n = strlen(text);
    if (columns) {
        snprintf(text + n, capacity - n,
                 "ecs.component{name = '%s', fields = {{'v', 'f64'}}}\n"
                 "ecs.system{name = 'move_%s', query = '[inout] %s', run = function(it)\n"
                 "  for t in it:tables() do\n"
                 "    local v = t.%s.v\n"
                 "    for i = 1, t.count do v[i] = v[i] * 1.5 + i end\n"
                 "  end\n%s"
                 "end}\n", name, name, name, name, SPIN);
    } else {
        snprintf(text + n, capacity - n,
                 "ecs.component{name = '%s', fields = {{'v', 'f64'}}}\n"
                 "ecs.system{name = 'move_%s', query = '[inout] %s', run = function(it)\n"
                 "  for row in it:rows() do row.%s.v = row.%s.v - 0.25 end\n%s"
                 "end}\n", name, name, name, name, name, SPIN);
    }
}

static void scripts_run_in_parallel_give_the_single_threaded_result(void **state) {
    static const char *const names[4] = {"A1", "A2", "A3", "B1"};
    double results[2][4];
    int mode;
    (void)state;
    for (mode = 0; mode < 2; mode++) {
        ecs_sched_world *w = world_with_lua_on(mode ? ECS_SCHED_EXECUTOR_PARALLEL
                                                     : ECS_SCHED_EXECUTOR_SINGLE_THREADED);
        char first[2048] = "", second[1024] = "";
        ecs_sched_id ids[4];
        ecs_sched_entity last = 0;
        int i, k;
        for (k = 0; k < 3; k++) add_mover(first, sizeof first, names[k], k != 1);
        add_mover(second, sizeof second, names[3], false);
        load_ok(w, first);
        next_path();
        load_ok(w, second);
        for (k = 0; k < 4; k++) ids[k] = ecs_sched_component_lookup(w, names[k]);
        for (i = 0; i < 500; i++) {
            double one = 1.0;
            last = ecs_sched_spawn(w);
            for (k = 0; k < 4; k++) {
                assert_int_equal(ecs_sched_insert(w, last, ids[k], &one), ECS_SCHED_OK);
            }
        }
        for (i = 0; i < 20; i++) assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
        for (k = 0; k < 4; k++) results[mode][k] = *(const double *)ecs_sched_get(w, last, ids[k]);
        check_and_destroy(w);
    }
    assert_memory_equal(results[0], results[1], sizeof results[0]);
    assert_true(results[0][3] == 1.0 - 20 * 0.25);
}

static void a_term_the_query_does_not_name_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    describe_motion(w);
    spawn_moving(w, 1, 2);
    load_ok(w, "ecs.system{name = 'peek', query = 'Position', run = function(it)\n"
               "  for row in it:rows() do local v = row.Velocity end\n"
               "end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "system 'peek' has no term Velocity in its query Position", 2);
    ecs_sched_clear_error(w);
    finish(w);
}

/* ---- the sandbox ---- */

static void the_sandbox_leaves_out_files_processes_and_loading(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    load_ok(w, "assert(io == nil and package == nil and dofile == nil and loadfile == nil)\n"
               "assert(load == nil and loadstring == nil and os.execute == nil)\n"
               "assert(os.getenv == nil and os.remove == nil and type(os.clock) == 'function')\n"
               "assert(string.format and table.insert and math.floor)\n");
    write_script("local f = io.open('/etc/passwd')\n");
    assert_int_equal(ecs_sched_script_reload(w, ecs_sched_script_find(w, g_path)),
                     ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "io", 1);
    ecs_sched_clear_error(w);
    finish(w);
}

static void unsafe_libraries_can_be_allowed(void **state) {
    ecs_sched_lua_desc desc = {0, true, NULL};
    ecs_sched_world *w = world_with_lua(&desc);
    (void)state;
    load_ok(w, "assert(io.open and os.getenv and require and load)\n");
    finish(w);
}

static void each_script_has_its_own_state(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    char first[512];
    (void)state;
    load_ok(w, "shared = 42\n");
    snprintf(first, sizeof first, "%s", g_path);
    next_path();
    load_ok(w, "assert(shared == nil, 'the other script\\'s global is seen')\n");
    finish(w);
    remove(first);
}

static void print_goes_to_the_world_s_log(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    char expected[700];
    (void)state;
    load_ok(w, "print('hello', 42, true)\n");
    snprintf(expected, sizeof expected, "script '%s': hello\t42\ttrue", g_path);
    assert_non_null(strstr(g_log.text, expected));
    finish(w);
}

/* ---- loading and reloading ---- */

static void a_syntax_error_fails_the_load_with_its_line(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    write_script("ecs.system{name = 'a', run = function(it) end}\n"
                 "local x = = 1\n");
    assert_null(ecs_sched_script_load(w, g_path));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "unexpected symbol", 2);
    ecs_sched_clear_error(w);
    assert_null(ecs_sched_script_find(w, g_path));
    finish(w);
}

static void a_bad_declaration_fails_the_load_naming_the_key(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    write_script("ecs.system{name = 'a', quary = 'Position', run = function(it) end}\n");
    assert_null(ecs_sched_script_load(w, g_path));
    assert_error_has(w, "ecs.system 'a': unknown key 'quary'", 1);
    ecs_sched_clear_error(w);
    finish(w);
}

static void a_query_mistake_is_refused_with_the_script_s_line(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    describe_motion(w);
    write_script("\n"
                 "ecs.system{name = 'a', query = 'Postion', run = function(it) end}\n");
    assert_null(ecs_sched_script_load(w, g_path));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_QUERY_SYNTAX);
    assert_error_has(w, "did you mean 'Position'", 2);
    ecs_sched_clear_error(w);
    finish(w);
}

static void a_reload_changes_what_a_system_does_and_keeps_the_data(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_script *script;
    ecs_sched_entity e;
    (void)state;
    describe_motion(w);
    e = spawn_moving(w, 1, 2);
    script = load_ok(w, MOVE);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_true(position_of(w, e)->x == 3.0f);
    write_script("ecs.system{name = 'move', query = '[inout] Position, [in] Velocity',\n"
                 "  run = function(it)\n"
                 "    for row in it:rows() do row.Position.x = row.Position.x * 10 end\n"
                 "  end}\n");
    assert_int_equal(ecs_sched_script_reload(w, script), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_script_version(script), 2);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_true(position_of(w, e)->x == 30.0f);
    finish(w);
}

static void a_reload_with_a_syntax_error_keeps_the_version_before(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_script *script;
    ecs_sched_entity e;
    (void)state;
    describe_motion(w);
    e = spawn_moving(w, 1, 2);
    script = load_ok(w, MOVE);
    write_script("ecs.system{name = 'move', run = function(it)\n");
    assert_int_equal(ecs_sched_script_reload(w, script), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "'end' expected (to close 'function' at line 1)", 2);
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_script_version(script), 1);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_true(position_of(w, e)->x == 3.0f);
    finish(w);
}

/* ---- a reload that changes a script's component: its values migrated ---- */

static const char *const MANA =
    "ecs.component{name = 'Mana', fields = {{'points', 'i32'}, {'regen', 'f32'}}}\n";

/* An entity with Mana {points, regen}, written through its description. */
static ecs_sched_entity spawn_mana(ecs_sched_world *w, int points, double regen) {
    ecs_sched_id mana = ecs_sched_component_lookup(w, "Mana");
    ecs_sched_entity e = ecs_sched_spawn(w);
    void *value;
    assert_int_equal(ecs_sched_insert(w, e, mana, NULL), ECS_SCHED_OK);
    value = ecs_sched_get_mut(w, e, mana);
    assert_int_equal(ecs_sched_value_set_number(w, mana, value, "points", points), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_value_set_number(w, mana, value, "regen", regen), ECS_SCHED_OK);
    return e;
}

/* A field of e's Mana (as e sees it: its own or its prefab's). */
static double mana_field(ecs_sched_world *w, ecs_sched_entity e, const char *field) {
    ecs_sched_id mana = ecs_sched_component_lookup(w, "Mana");
    const void *value = ecs_sched_get(w, e, mana);
    double number = -1;
    assert_non_null(value);
    assert_int_equal(ecs_sched_value_get_number(w, mana, value, field, &number), ECS_SCHED_OK);
    return number;
}

static void reload_ok(ecs_sched_world *w, ecs_sched_script *script, const char *text) {
    write_script(text);
    if (ecs_sched_script_reload(w, script) != ECS_SCHED_OK) {
        fail_msg("the reload failed: %s", ecs_sched_last_error(w));
    }
}

static void a_reload_that_adds_a_field_keeps_the_values_of_the_others(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_script *script;
    ecs_sched_entity e;
    (void)state;
    script = load_ok(w, MANA);
    e = spawn_mana(w, 7, 0.5);
    reload_ok(w, script, "ecs.component{name = 'Mana', fields = {{'max', 'i64'}, {'regen', 'f32'},\n"
                         "                                       {'points', 'i32'}}}\n");
    assert_int_equal(ecs_sched_script_version(script), 2);
    assert_int_equal(ecs_sched_component_size(w, ecs_sched_component_lookup(w, "Mana")), 16);
    assert_true(mana_field(w, e, "points") == 7);
    assert_true(mana_field(w, e, "regen") == 0.5);
    finish(w);
}

static void a_field_a_reload_adds_reads_zero(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_script *script;
    ecs_sched_entity e;
    (void)state;
    script = load_ok(w, MANA);
    e = spawn_mana(w, 7, 0.5);
    reload_ok(w, script,
              "ecs.component{name = 'Mana', fields = {{'points', 'i32'}, {'regen', 'f32'},\n"
              "                                       {'max', 'i32'}}}\n"
              "ecs.system{name = 'cap', query = '[inout] Mana', run = function(it)\n"
              "  for row in it:rows() do row.Mana.points = row.Mana.max + 100 end\n"
              "end}\n");
    assert_true(mana_field(w, e, "max") == 0);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_true(mana_field(w, e, "points") == 100);
    finish(w);
}

static void a_field_a_reload_removes_is_gone(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_script *script;
    ecs_sched_entity e;
    ecs_sched_id mana;
    double number;
    char text[128];
    (void)state;
    script = load_ok(w, MANA);
    e = spawn_mana(w, 7, 0.5);
    reload_ok(w, script,
              "ecs.component{name = 'Mana', fields = {{'points', 'i32'}}}\n"
              "ecs.system{name = 'drain', query = '[inout] Mana', run = function(it)\n"
              "  for row in it:rows() do row.Mana.points = row.Mana.regen end\n"
              "end}\n");
    mana = ecs_sched_component_lookup(w, "Mana");
    assert_int_equal(ecs_sched_component_size(w, mana), 4);
    ecs_sched_value_print(w, mana, ecs_sched_get(w, e, mana), text, (int32_t)sizeof text);
    assert_string_equal(text, "{points: 7}");
    assert_int_not_equal(ecs_sched_value_get_number(w, mana, ecs_sched_get(w, e, mana), "regen",
                                                    &number), ECS_SCHED_OK);
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "Mana has no field 'regen'", 2);
    ecs_sched_clear_error(w);
    finish(w);
}

static void a_field_whose_type_changes_fails_the_reload_naming_it(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_script *script;
    ecs_sched_entity e;
    (void)state;
    script = load_ok(w, "ecs.component{name = 'Mana', fields = {{'points', 'i32'}, {'regen', 'f32'}}}\n"
                        "ecs.system{name = 'grow', query = '[inout] Mana', run = function(it)\n"
                        "  for row in it:rows() do row.Mana.points = row.Mana.points + 1 end\n"
                        "end}\n");
    e = spawn_mana(w, 7, 0.5);
    write_script("ecs.component{name = 'Mana', fields = {{'points', 'f32'}, {'regen', 'f32'}}}\n");
    assert_int_equal(ecs_sched_script_reload(w, script), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "ecs.component 'Mana': field 'points' was i32 and is f32 now", 1);
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_script_version(script), 1);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_true(mana_field(w, e, "points") == 8);
    assert_true(mana_field(w, e, "regen") == 0.5);
    finish(w);
}

static void a_reload_failing_after_its_components_keeps_their_layout_and_values(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_script *script;
    ecs_sched_entity e;
    ecs_sched_id mana;
    char text[128];
    (void)state;
    script = load_ok(w, MANA);
    e = spawn_mana(w, 7, 0.5);
    write_script("ecs.component{name = 'Mana', fields = {{'points', 'i32'}}}\n"
                 "ecs.system{name = 'drain', query = '[inout] Manna', run = function(it) end}\n");
    assert_int_equal(ecs_sched_script_reload(w, script), ECS_SCHED_ERR_QUERY_SYNTAX);
    ecs_sched_clear_error(w);
    mana = ecs_sched_component_lookup(w, "Mana");
    assert_int_equal(ecs_sched_component_size(w, mana), 8);
    ecs_sched_value_print(w, mana, ecs_sched_get(w, e, mana), text, (int32_t)sizeof text);
    assert_string_equal(text, "{points: 7, regen: 0.5}");
    finish(w);
}

static void entities_of_several_tables_and_a_prefab_s_value_are_migrated(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_script *script;
    ecs_sched_entity alone, moving, base, instance;
    (void)state;
    describe_motion(w);
    script = load_ok(w, MANA);
    alone = spawn_mana(w, 1, 1.5);
    moving = spawn_mana(w, 2, 2.5);
    assert_int_equal(ecs_sched_insert(w, moving, ecs_sched_component_lookup(w, "Position"), NULL),
                     ECS_SCHED_OK);
    base = spawn_mana(w, 3, 3.5);
    assert_int_equal(ecs_sched_insert(w, base, ecs_sched_component_lookup(w, "ecs_sched.Prefab"),
                                      NULL), ECS_SCHED_OK);
    instance = ecs_sched_instantiate(w, base);
    assert_true(instance != ECS_SCHED_NULL_ENTITY);
    reload_ok(w, script, "ecs.component{name = 'Mana', fields = {{'max', 'f64'}, {'points', 'i32'},\n"
                         "                                       {'regen', 'f32'}}}\n");
    assert_true(mana_field(w, alone, "points") == 1 && mana_field(w, alone, "regen") == 1.5);
    assert_true(mana_field(w, moving, "points") == 2 && mana_field(w, moving, "regen") == 2.5);
    assert_true(mana_field(w, base, "points") == 3 && mana_field(w, base, "max") == 0);
    assert_true(mana_field(w, instance, "points") == 3 && mana_field(w, instance, "regen") == 3.5);
    finish(w);
}

static void a_reload_whose_migration_is_refused_keeps_the_version_before(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_script *script;
    ecs_sched_commands *cmd;
    ecs_sched_entity e;
    unsigned char pending[8] = {0};
    (void)state;
    script = load_ok(w, MANA);
    e = spawn_mana(w, 7, 0.5);
    cmd = ecs_sched_commands_create(w);
    assert_int_equal(ecs_sched_commands_insert(cmd, ecs_sched_spawn(w),
                                               ecs_sched_component_lookup(w, "Mana"), pending),
                     ECS_SCHED_OK);
    write_script("ecs.component{name = 'Mana', fields = {{'points', 'i32'}}}\n"
                 "ecs.system{name = 'drain', query = '[inout] Mana', run = function(it) end}\n");
    assert_int_equal(ecs_sched_script_reload(w, script), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "holds a value of component 'Mana' not applied yet", 1);
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_script_version(script), 1);
    assert_int_equal(ecs_sched_component_size(w, ecs_sched_component_lookup(w, "Mana")), 8);
    assert_true(mana_field(w, e, "regen") == 0.5);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_script_reload(w, script), ECS_SCHED_OK);
    assert_true(mana_field(w, e, "points") == 7);
    ecs_sched_commands_destroy(cmd);
    finish(w);
}

/* ---- resources ---- */

static const char *const SCORE =
    "ecs.component{name = 'Score', fields = {{'points', 'i32'}}}\n"
    "ecs.component{name = 'Bonus', fields = {{'amount', 'i32'}}}\n"
    "ecs.init_resource('Score', {points = 5})\n"
    "ecs.init_resource('Bonus', {amount = 3})\n";

/* The i32 first field of resource `name`. */
static int32_t resource_i32(ecs_sched_world *w, const char *name) {
    const int32_t *value = (const int32_t *)ecs_sched_resource_get(w, ecs_sched_component_lookup(w, name));
    assert_non_null(value);
    return *value;
}

/* The script, a line after SCORE's four. */
static ecs_sched_script *load_with_score(ecs_sched_world *w, const char *rest) {
    char text[2048];
    snprintf(text, sizeof text, "%s%s", SCORE, rest);
    return load_ok(w, text);
}

static void a_system_reads_and_writes_the_resources_it_declares(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    load_with_score(w, "ecs.system{name = 'count', reads = {'Bonus'}, writes = 'Score',\n"
                       "  run = function(it)\n"
                       "    local score = ecs.resource('Score')\n"
                       "    score.points = score.points + ecs.resource('Bonus').amount\n"
                       "  end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(resource_i32(w, "Score"), 11);
    finish(w);
}

static void init_resource_leaves_a_resource_the_world_has(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_script *script;
    (void)state;
    script = load_with_score(w, "ecs.system{name = 'count', writes = {'Score'}, run = function(it)\n"
                                "  ecs.resource('Score').points = ecs.resource('Score').points * 2\n"
                                "end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(resource_i32(w, "Score"), 10);
    write_script(SCORE);   /* the same top level, without the system */
    assert_int_equal(ecs_sched_script_reload(w, script), ECS_SCHED_OK);
    assert_int_equal(resource_i32(w, "Score"), 10);
    finish(w);
}

static void writing_a_resource_the_system_only_reads_fails_naming_the_line(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    char expected[700];
    (void)state;
    load_with_score(w, "ecs.system{name = 'cheat', reads = {'Score'}, run = function(it)\n"
                       "  ecs.resource('Score').points = 1000\n"
                       "end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
    snprintf(expected, sizeof expected, "Score is read-only in system 'cheat' (%s:6): declare it "
             "in the system's writes", g_path);
    assert_error_has(w, expected, 0);
    ecs_sched_clear_error(w);
    assert_int_equal(resource_i32(w, "Score"), 5);
    finish(w);
}

static void a_resource_the_system_does_not_declare_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    char expected[700];
    (void)state;
    load_with_score(w, "ecs.system{name = 'peek', reads = {'Bonus'}, run = function(it)\n"
                       "  local n = ecs.resource('Score').points\n"
                       "end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
    snprintf(expected, sizeof expected, "system 'peek' reads resource 'Score' without declaring "
             "it (%s:6): add it to the system's reads", g_path);
    assert_error_has(w, expected, 0);
    ecs_sched_clear_error(w);
    finish(w);
}

static void an_unknown_name_in_reads_refuses_the_load_with_its_line(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    write_script("\necs.system{name = 'peek', reads = {'Scor'}, run = function(it) end}\n");
    assert_null(ecs_sched_script_load(w, g_path));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "system 'peek' reads 'Scor': no resource, component or state machine "
                        "has that name", 2);
    ecs_sched_clear_error(w);
    finish(w);
}

static void a_missing_resource_fails_the_system_or_is_nil_when_asked(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    load_ok(w, "ecs.component{name = 'Level', fields = {{'n', 'i32'}}}\n"
               "ecs.system{name = 'maybe', reads = {'Level'}, run = function(it)\n"
               "  assert(ecs.resource('Level', true) == nil)\n"
               "  local level = ecs.resource('Level')\n"
               "end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "resource 'Level' does not exist", 4);
    ecs_sched_clear_error(w);
    finish(w);
}

static void a_resource_term_of_the_query_counts_as_declared(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    load_with_score(w, "ecs.system{name = 'count', query = '[inout] $Score',\n"
                       "  run = function(it) ecs.resource('Score').points = 42 end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(resource_i32(w, "Score"), 42);
    finish(w);
}

static void set_resource_inserts_the_resource_at_the_sync_point(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    load_ok(w, "ecs.component{name = 'Level', fields = {{'n', 'i32'}, {'hard', 'bool'}}}\n"
               "ecs.system{name = 'start', commands = true, run = function(it)\n"
               "  ecs.set_resource('Level', {n = 3})\n"
               "end}\n");
    assert_false(ecs_sched_resource_exists(w, ecs_sched_component_lookup(w, "Level")));
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(resource_i32(w, "Level"), 3);
    finish(w);
}

static void an_observer_reads_and_writes_resources(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    load_with_score(w, "ecs.observer{name = 'on_kill', event = 'add', component = 'Bonus',\n"
                       "  run = function(e)\n"
                       "    ecs.resource('Score').points = ecs.resource('Score').points + 1\n"
                       "  end}\n");
    assert_int_equal(ecs_sched_insert(w, ecs_sched_spawn(w), ecs_sched_component_lookup(w, "Bonus"),
                                      NULL), ECS_SCHED_OK);
    assert_int_equal(resource_i32(w, "Score"), 6);
    finish(w);
}

/* ---- messages ---- */

static const char *const HITS =
    "ecs.component{name = 'Total', fields = {{'sum', 'i32'}, {'seen', 'i32'}}}\n"
    "ecs.init_resource('Total')\n"
    "ecs.message{name = 'Hit', fields = {{'amount', 'i32'}}}\n";

static void a_system_reads_each_message_another_sends_once(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    char text[2048];
    (void)state;
    snprintf(text, sizeof text, "%s%s", HITS,
             "ecs.system{name = 'attack', sends = {'Hit'}, run = function(it)\n"
             "  ecs.send('Hit', {amount = 3})\n"
             "  ecs.send('Hit', {amount = 4})\n"
             "end}\n"
             "ecs.system{name = 'tally', after = 'attack', receives = {'Hit'}, writes = {'Total'},\n"
             "  run = function(it)\n"
             "    local total = ecs.resource('Total')\n"
             "    for hit in ecs.messages('Hit') do\n"
             "      total.sum = total.sum + hit.amount\n"
             "      total.seen = total.seen + 1\n"
             "    end\n"
             "  end}\n");
    load_ok(w, text);
    assert_true(ecs_sched_is_message(w, ecs_sched_component_lookup(w, "Hit")));
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(resource_i32(w, "Total"), 14);
    assert_int_equal(((const int32_t *)ecs_sched_resource_get(w, ecs_sched_component_lookup(w, "Total")))[1], 4);
    finish(w);
}

static void sending_a_message_type_not_in_sends_fails_the_system(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    char text[2048], expected[700];
    (void)state;
    snprintf(text, sizeof text, "%s%s", HITS,
             "ecs.system{name = 'attack', run = function(it)\n"
             "  ecs.send('Hit', {amount = 3})\n"
             "end}\n");
    load_ok(w, text);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
    snprintf(expected, sizeof expected, "system 'attack' sends messages of 'Hit' without declaring "
             "it (%s:5): add it to the system's sends", g_path);
    assert_error_has(w, expected, 0);
    ecs_sched_clear_error(w);
    finish(w);
}

static void reading_a_message_type_not_in_receives_fails_the_system(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    char text[2048], expected[700];
    (void)state;
    snprintf(text, sizeof text, "%s%s", HITS,
             "ecs.system{name = 'tally', run = function(it)\n"
             "  for hit in ecs.messages('Hit') do end\n"
             "end}\n");
    load_ok(w, text);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
    snprintf(expected, sizeof expected, "system 'tally' reads messages of 'Hit' without declaring "
             "it (%s:5): add it to the system's receives", g_path);
    assert_error_has(w, expected, 0);
    ecs_sched_clear_error(w);
    finish(w);
}

static void a_message_type_in_reads_is_refused_naming_receives(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    char text[2048];
    (void)state;
    snprintf(text, sizeof text, "%s%s", HITS,
             "ecs.system{name = 'tally', reads = {'Hit'}, run = function(it) end}\n");
    write_script(text);
    assert_null(ecs_sched_script_load(w, g_path));
    assert_error_has(w, "system 'tally' reads 'Hit': it is a message type: declare it in sends "
                        "(to send) or receives (to read)", 4);
    ecs_sched_clear_error(w);
    finish(w);
}

static void a_message_read_is_read_only(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    int32_t hit = 5;
    char text[2048];
    (void)state;
    snprintf(text, sizeof text, "%s%s", HITS,
             "ecs.system{name = 'tally', receives = {'Hit'}, run = function(it)\n"
             "  for hit in ecs.messages('Hit') do hit.amount = 0 end\n"
             "end}\n");
    load_ok(w, text);
    assert_int_equal(ecs_sched_send(w, ecs_sched_component_lookup(w, "Hit"), &hit), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "Hit is read-only in system 'tally'", 5);
    assert_error_has(w, "a message is read-only once sent", 0);
    ecs_sched_clear_error(w);
    finish(w);
}

static void a_system_cannot_both_send_and_receive_a_message_type(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    char text[2048];
    (void)state;
    snprintf(text, sizeof text, "%s%s", HITS,
             "ecs.system{name = 'echo', sends = 'Hit', receives = 'Hit', run = function(it) end}\n");
    write_script(text);
    assert_null(ecs_sched_script_load(w, g_path));
    assert_error_has(w, "system 'echo' sends and receives 'Hit': a system reads the messages "
                        "others send", 4);
    ecs_sched_clear_error(w);
    finish(w);
}

/* ---- time ---- */

static void elapsed_time_is_the_clock_s_elapsed_seconds(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_advance_by(w, ECS_SCHED_MILLISECONDS(250)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_time_advance_by(w, ECS_SCHED_MILLISECONDS(125)), ECS_SCHED_OK);
    load_ok(w, "ecs.component{name = 'Clock', fields = {{'elapsed', 'f64'}, {'dt', 'f64'}}}\n"
               "ecs.init_resource('Clock')\n"
               "ecs.system{name = 'watch', writes = {'Clock'}, run = function(it)\n"
               "  ecs.resource('Clock').elapsed = ecs.elapsed_time()\n"
               "  ecs.resource('Clock').dt = it.dt\n"
               "end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    {
        const double *clock = (const double *)ecs_sched_resource_get(w, ecs_sched_component_lookup(w, "Clock"));
        assert_true(clock[0] == 0.375 && clock[1] == 0.125);
    }
    finish(w);
}

/* ---- states ---- */

enum { LUA_MENU, LUA_PLAYING, LUA_OVER };

static ecs_sched_id register_game(ecs_sched_world *w) {
    ecs_sched_id game = ecs_sched_state_register(
        w, &(ecs_sched_state_desc){.name = "Game", .values = {"Menu", "Playing", "Over"}});
    assert_true(game != 0);
    return game;
}

static void run_if_in_state_runs_the_system_in_that_state_only(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id game = register_game(w);
    (void)state;
    load_with_score(w, "ecs.system{name = 'play', writes = {'Score'},\n"
                       "  run_if = {in_state = {'Game', 'Playing'}},\n"
                       "  run = function(it) ecs.resource('Score').points = 0 end}\n");
    assert_int_equal(ecs_sched_state_apply(w, game), ECS_SCHED_OK);   /* Menu */
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(resource_i32(w, "Score"), 5);
    assert_int_equal(ecs_sched_state_set(w, game, LUA_PLAYING), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_apply(w, game), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(resource_i32(w, "Score"), 0);
    finish(w);
}

static void a_system_on_enter_runs_when_its_state_is_entered(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id game = register_game(w);
    (void)state;
    load_with_score(w, "ecs.system{name = 'game_over', on_enter = {'Game', 'Over'},\n"
                       "  writes = {'Score'}, run = function(it) ecs.resource('Score').points = -1 end}\n"
                       "ecs.system{name = 'leave_menu', on_exit = {'Game', 'Menu'},\n"
                       "  writes = {'Bonus'}, run = function(it) ecs.resource('Bonus').amount = 0 end}\n");
    assert_int_equal(ecs_sched_state_apply(w, game), ECS_SCHED_OK);
    assert_int_equal(resource_i32(w, "Bonus"), 3);
    assert_int_equal(ecs_sched_state_set(w, game, LUA_OVER), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_apply(w, game), ECS_SCHED_OK);
    assert_int_equal(resource_i32(w, "Score"), -1);
    assert_int_equal(resource_i32(w, "Bonus"), 0);
    finish(w);
}

static void set_state_queues_the_next_value_and_state_reads_the_current(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id game = register_game(w);
    (void)state;
    load_ok(w, "ecs.system{name = 'start', reads = {'Game'}, writes = {'Game'}, run = function(it)\n"
               "  if ecs.state('Game') == 'Menu' then ecs.set_state('Game', 'Playing') end\n"
               "end}\n");
    assert_int_equal(ecs_sched_state_apply(w, game), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_get(w, game), LUA_MENU);
    assert_int_equal(ecs_sched_state_apply(w, game), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_get(w, game), LUA_PLAYING);
    finish(w);
}

static void an_unknown_state_value_fails_the_system_listing_the_values(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id game = register_game(w);
    (void)state;
    load_ok(w, "ecs.system{name = 'start', writes = {'Game'}, run = function(it)\n"
               "  ecs.set_state('Game', 'Plaing')\n"
               "end}\n");
    assert_int_equal(ecs_sched_state_apply(w, game), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "state machine 'Game' has no value 'Plaing' (its values: Menu, Playing, "
                        "Over)", 2);
    ecs_sched_clear_error(w);
    finish(w);
}

static void queuing_a_state_the_system_does_not_write_fails(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id game = register_game(w);
    char expected[700];
    (void)state;
    load_ok(w, "ecs.system{name = 'start', reads = {'Game'}, run = function(it)\n"
               "  ecs.set_state('Game', 'Playing')\n"
               "end}\n");
    assert_int_equal(ecs_sched_state_apply(w, game), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
    snprintf(expected, sizeof expected, "system 'start' queues state 'Game' without declaring it "
             "(%s:2): add it to the system's writes", g_path);
    assert_error_has(w, expected, 0);
    ecs_sched_clear_error(w);
    finish(w);
}

static void an_unknown_state_machine_in_run_if_refuses_the_load(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    register_game(w);
    write_script("\n\necs.system{name = 'play', run_if = {in_state = {'Gaem', 'Playing'}},\n"
                 "  run = function(it) end}\n");
    assert_null(ecs_sched_script_load(w, g_path));
    assert_error_has(w, "system 'play' names state machine 'Gaem': no machine has that name", 3);
    ecs_sched_clear_error(w);
    write_script("ecs.system{name = 'play', on_enter = {'Game', 'Won'}, run = function(it) end}\n");
    assert_null(ecs_sched_script_load(w, g_path));
    assert_error_has(w, "system 'play' names a value of state machine 'Game': its values: Menu, "
                        "Playing, Over", 1);
    ecs_sched_clear_error(w);
    finish(w);
}

/* ---- the hierarchy ---- */

static void parent_and_children_read_the_hierarchy(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_entity ship = ecs_sched_spawn(w), left = ecs_sched_spawn(w), right = ecs_sched_spawn(w);
    (void)state;
    assert_int_equal(ecs_sched_set_name(w, ship, "ship"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, left, ship), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, right, ship), ECS_SCHED_OK);
    load_ok(w, "ecs.component{name = 'Seen', fields = {{'count', 'i32'}, {'first', 'entity'},\n"
               "                                     {'parent', 'entity'}, {'root', 'bool'}}}\n"
               "ecs.system{name = 'walk', commands = true, run = function(it)\n"
               "  local ship = ecs.lookup('ship')\n"
               "  local children = ecs.children(ship)\n"
               "  ecs.spawn{Seen = {count = #children, first = children[1],\n"
               "                    parent = ecs.parent(children[2]), root = ecs.parent(ship) == nil}}\n"
               "end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    {
        ecs_sched_query *q = ecs_sched_query_from_text(w, "Seen");
        ecs_sched_iter it = ecs_sched_query_iter(q);
        const unsigned char *seen;
        ecs_sched_entity first, parent;
        assert_true(ecs_sched_iter_next(&it));
        seen = (const unsigned char *)it.fields[0];
        assert_int_equal(*(const int32_t *)(const void *)seen, 2);
        memcpy(&first, seen + 8, sizeof first);
        memcpy(&parent, seen + 16, sizeof parent);
        assert_true(first == left && parent == ship);
        assert_true(seen[24] == 1);
        assert_false(ecs_sched_iter_next(&it));
    }
    finish(w);
}

static void spawn_with_a_parent_and_set_parent_record_commands(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_entity ship = ecs_sched_spawn(w), crate = ecs_sched_spawn(w);
    int32_t count = 0;
    const ecs_sched_entity *children;
    (void)state;
    assert_int_equal(ecs_sched_set_name(w, ship, "ship"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(w, crate, "crate"), ECS_SCHED_OK);
    load_ok(w, "ecs.system{name = 'build', commands = true, run = function(it)\n"
               "  local ship = ecs.lookup('ship')\n"
               "  ecs.spawn({}, ship)\n"
               "  ecs.set_parent(ecs.lookup('crate'), ship)\n"
               "  assert(#ecs.children(ship) == 0, 'the commands wait for the sync point')\n"
               "end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    children = ecs_sched_children(w, ship, &count);
    assert_int_equal(count, 2);
    assert_true(children[0] != crate && children[1] == crate);
    finish(w);
}

/* ---- arrays and nested structs ---- */

typedef struct {
    int32_t slots[4];
    uint8_t flags[3];
} LuaInventory;

static void a_fixed_array_field_is_read_and_written_from_index_one(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id inventory;
    LuaInventory value;
    char text[256];
    (void)state;
    load_ok(w, "ecs.component{name = 'Inventory', fields = {{'slots', 'i32', count = 4},\n"
               "                                          {'flags', 'u8', count = 3}}}\n"
               "ecs.system{name = 'fill', query = 'Inventory', run = function(it)\n"
               "  for row in it:rows() do\n"
               "    local inv = row.Inventory\n"
               "    assert(#inv.slots == 4 and #inv.flags == 3)\n"
               "    inv.slots = {10, 20}\n"
               "    inv.slots[4] = inv.slots[1] + inv.slots[2]\n"
               "    inv.flags[3] = 7\n"
               "  end\n"
               "end}\n");
    inventory = ecs_sched_component_lookup(w, "Inventory");
    assert_int_equal(ecs_sched_component_size(w, inventory), sizeof(LuaInventory));
    memset(&value, 0, sizeof value);
    value.slots[2] = 5;
    assert_int_equal(ecs_sched_insert(w, ecs_sched_spawn(w), inventory, &value), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    {
        ecs_sched_query *q = ecs_sched_query_from_text(w, "Inventory");
        ecs_sched_iter it = ecs_sched_query_iter(q);
        assert_true(ecs_sched_iter_next(&it));
        ecs_sched_value_print(w, inventory, it.fields[0], text, (int32_t)sizeof text);
    }
    assert_string_equal(text, "{slots: [10, 20, 5, 30], flags: [0, 0, 7]}");
    finish(w);
}

static void an_array_index_out_of_range_fails_naming_the_bounds(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    load_ok(w, "ecs.component{name = 'Inventory', fields = {{'slots', 'i32', count = 4}}}\n"
               "ecs.system{name = 'fill', query = 'Inventory', run = function(it)\n"
               "  for row in it:rows() do row.Inventory.slots[0] = 1 end\n"
               "end}\n");
    assert_int_equal(ecs_sched_insert(w, ecs_sched_spawn(w), ecs_sched_component_lookup(w, "Inventory"),
                                      NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "Inventory.slots holds 4 elements, [1] to [4]: there is no [0]", 3);
    ecs_sched_clear_error(w);
    finish(w);
}

static void writing_an_array_the_query_only_reads_fails(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    load_ok(w, "ecs.component{name = 'Inventory', fields = {{'slots', 'i32', count = 4}}}\n"
               "ecs.system{name = 'fill', query = '[in] Inventory', run = function(it)\n"
               "  for row in it:rows() do row.Inventory.slots[1] = 1 end\n"
               "end}\n");
    assert_int_equal(ecs_sched_insert(w, ecs_sched_spawn(w), ecs_sched_component_lookup(w, "Inventory"),
                                      NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "Inventory is read-only in system 'fill'", 3);
    ecs_sched_clear_error(w);
    finish(w);
}

typedef struct {
    float x, y;
} LuaVec2;

typedef struct {
    LuaVec2 at;
    LuaVec2 path[2];
    int16_t speed;
} LuaBody;

static void a_field_of_a_declared_type_is_a_nested_struct(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id body;
    char text[256];
    (void)state;
    load_ok(w, "ecs.component{name = 'Vec2', fields = {{'x', 'f32'}, {'y', 'f32'}}}\n"
               "ecs.component{name = 'Body', fields = {{'at', 'Vec2'}, {'path', 'Vec2', count = 2},\n"
               "                                     {'speed', 'i16'}}}\n"
               "ecs.system{name = 'place', query = 'Body', commands = true, run = function(it)\n"
               "  for row in it:rows() do\n"
               "    row.Body.at.x = row.Body.at.y + 1\n"
               "    row.Body.path[2] = {x = 5, y = 6}\n"
               "  end\n"
               "  ecs.spawn{Body = {at = {x = 1, y = 2}, speed = 3}}\n"
               "end}\n");
    body = ecs_sched_component_lookup(w, "Body");
    assert_int_equal(ecs_sched_component_size(w, body), sizeof(LuaBody));
    {
        LuaBody b;
        memset(&b, 0, sizeof b);
        b.at.y = 2.5f;
        assert_int_equal(ecs_sched_insert(w, ecs_sched_spawn(w), body, &b), ECS_SCHED_OK);
    }
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    {
        ecs_sched_query *q = ecs_sched_query_from_text(w, "Body");
        ecs_sched_iter it = ecs_sched_query_iter(q);
        int32_t seen = 0;
        while (ecs_sched_iter_next(&it)) {
            int32_t i;
            for (i = 0; i < it.count; i++, seen++) {
                const LuaBody *b = &((const LuaBody *)it.fields[0])[i];
                if (b->speed == 3) {
                    assert_true(b->at.x == 1.0f && b->at.y == 2.0f);
                } else {
                    ecs_sched_value_print(w, body, b, text, (int32_t)sizeof text);
                    assert_string_equal(text, "{at: {x: 3.5, y: 2.5}, path: [{x: 0, y: 0}, "
                                              "{x: 5, y: 6}], speed: 0}");
                }
            }
        }
        assert_int_equal(seen, 2);
    }
    finish(w);
}

/* ---- values left out ---- */

static void insert_without_a_value_inserts_zeroes(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_entity e;
    ecs_sched_id health;
    (void)state;
    load_ok(w, "ecs.component{name = 'Health', fields = {{'hp', 'i32'}}}\n"
               "ecs.system{name = 'heal', commands = true, run = function(it)\n"
               "  ecs.insert(ecs.lookup('hero'), 'Health')\n"
               "end}\n");
    health = ecs_sched_component_lookup(w, "Health");
    e = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_set_name(w, e, "hero"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(((const Health *)ecs_sched_get(w, e, health))->hp, 0);
    finish(w);
}


/* ---- run conditions ---- */

static void run_if_resource_and_message_conditions_guard_the_system(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id level;
    int32_t n = 1;
    (void)state;
    load_with_score(w, "ecs.component{name = 'Level', fields = {{'n', 'i32'}}}\n"
                       "ecs.message{name = 'Ping'}\n"
                       "ecs.system{name = 'count', writes = {'Score'},\n"
                       "  run_if = {resource_exists = 'Level', on_message = 'Ping'},\n"
                       "  run = function(it) ecs.resource('Score').points = ecs.resource('Score').points + 1 end}\n");
    level = ecs_sched_component_lookup(w, "Level");
    assert_int_equal(ecs_sched_send(w, ecs_sched_component_lookup(w, "Ping"), NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* no Level */
    assert_int_equal(ecs_sched_resource_insert(w, level, &n), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* no new Ping */
    assert_int_equal(resource_i32(w, "Score"), 5);
    assert_int_equal(ecs_sched_send(w, ecs_sched_component_lookup(w, "Ping"), NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(resource_i32(w, "Score"), 6);
    finish(w);
}

static void an_unknown_condition_is_refused_listing_the_conditions(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    write_script("ecs.system{name = 'play', run_if = {in_stat = {'Game', 'Playing'}},\n"
                 "  run = function(it) end}\n");
    assert_null(ecs_sched_script_load(w, g_path));
    assert_error_has(w, "ecs.system 'play': run_if has no condition 'in_stat' (its conditions: "
                        "in_state, state_exists", 1);
    ecs_sched_clear_error(w);
    finish(w);
}


static void an_observer_sends_messages_and_queues_states(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id game = register_game(w);
    ecs_sched_message_cursor cursor;
    char text[2048];
    (void)state;
    snprintf(text, sizeof text, "%s%s", HITS,
             "ecs.observer{name = 'on_total', event = 'add', component = 'Total',\n"
             "  run = function(e)\n"
             "    ecs.send('Hit', {amount = 9})\n"
             "    if ecs.state('Game') == 'Menu' then ecs.set_state('Game', 'Over') end\n"
             "  end}\n");
    load_ok(w, text);
    assert_int_equal(ecs_sched_state_apply(w, game), ECS_SCHED_OK);
    cursor = ecs_sched_message_cursor_make(w, ecs_sched_component_lookup(w, "Hit"));
    assert_int_equal(ecs_sched_insert(w, ecs_sched_spawn(w), ecs_sched_component_lookup(w, "Total"),
                                      NULL), ECS_SCHED_OK);
    {
        ecs_sched_messages read = ecs_sched_message_read(w, &cursor);
        assert_int_equal(read.total, 1);
        while (read.count == 0) assert_true(ecs_sched_messages_next(&read));
        assert_int_equal(*(const int32_t *)read.data, 9);
    }
    assert_int_equal(ecs_sched_state_apply(w, game), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_get(w, game), LUA_OVER);
    finish(w);
}


/* ---- declarations a script gets wrong ---- */

/* The script does not load; the error holds `text` (and "<path>:<line>" when line > 0). */
static void assert_refused(ecs_sched_world *w, const char *script, const char *text, int line) {
    write_script(script);
    assert_null(ecs_sched_script_load(w, g_path));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, text, line);
    ecs_sched_clear_error(w);
    assert_null(ecs_sched_script_find(w, g_path));
}

/* One run of "Update" fails with a script error holding `text` at `line`. */
static void assert_run_fails(ecs_sched_world *w, const char *text, int line) {
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, text, line);
    ecs_sched_clear_error(w);
}

static void a_declaration_without_its_name_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "\necs.component{fields = {{'hp', 'i32'}}}\n",
                   "ecs.component: give 'name' as a string", 2);
    finish(w);
}

static void a_name_that_is_no_string_is_refused_naming_its_type(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.system{name = 12, run = function(it) end}\n",
                   "ecs.system: give 'name' as a string, not a number", 1);
    finish(w);
}

static void a_key_that_is_no_string_is_refused_naming_its_type(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.observer{name = 'o', event = 'add', component = 'X', true,\n"
                      "  run = function(e) end}\n",
                   "ecs.observer 'o': unknown key 'number' (its keys: name, event, component, run)", 1);
    finish(w);
}

static void a_component_without_fields_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.component{name = 'Empty', fields = {}}\n",
                   "ecs.component 'Empty': give its fields, fields = { {\"hp\", \"i32\"}, ... }", 1);
    assert_refused(w, "ecs.component{name = 'Empty'}\n", "ecs.component 'Empty': give its fields", 1);
    assert_int_equal(ecs_sched_component_lookup(w, "Empty"), 0);
    finish(w);
}

static void a_component_of_more_than_256_fields_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "local fields = {}\n"
                      "for i = 1, 257 do fields[i] = {'f' .. i, 'u8'} end\n"
                      "ecs.component{name = 'Huge', fields = fields}\n",
                   "ecs.component 'Huge': at most 256 fields", 3);
    assert_int_equal(ecs_sched_component_lookup(w, "Huge"), 0);
    finish(w);
}

static void a_field_that_is_not_a_name_and_a_type_is_refused_naming_its_position(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.component{name = 'Mana', fields = {{'points', 'i32'}, {'regen'}}}\n",
                   "ecs.component 'Mana': field 2 is {\"name\", \"type\"}", 1);
    assert_refused(w, "ecs.component{name = 'Mana', fields = {{1, 'i32'}}}\n",
                   "ecs.component 'Mana': field 1 is {\"name\", \"type\"}", 1);
    finish(w);
}

static void a_chars_field_without_its_size_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.component{name = 'Tag', fields = {{'label', 'chars'}}}\n",
                   "ecs.component 'Tag': field 'label' is chars: give its size in bytes, "
                   "{\"label\", \"chars\", 16}", 1);
    assert_refused(w, "ecs.component{name = 'Tag', fields = {{'label', 'chars', 0}}}\n",
                   "field 'label' is chars: give its size in bytes", 1);
    assert_refused(w, "ecs.component{name = 'Tag', fields = {{'label', 'chars', 65537}}}\n",
                   "field 'label' is chars: give its size in bytes", 1);
    finish(w);
}

static void an_array_count_outside_1_to_65536_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.component{name = 'Bag', fields = {{'slots', 'i32', count = 0}}}\n",
                   "ecs.component 'Bag': field 'slots': count is the number of elements of an "
                   "array, 1 to 65536", 1);
    assert_refused(w, "ecs.component{name = 'Bag', fields = {{'slots', 'i32', count = 65537}}}\n",
                   "field 'slots': count is the number of elements of an array", 1);
    assert_refused(w, "ecs.component{name = 'Bag', fields = {{'slots', 'i32', count = 2.5}}}\n",
                   "field 'slots': count is the number of elements of an array", 1);
    assert_refused(w, "ecs.component{name = 'Bag', fields = {{'slots', 'i32', count = 'four'}}}\n",
                   "field 'slots': count is the number of elements of an array", 1);
    finish(w);
}

static void an_array_of_chars_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.component{name = 'Names', fields = {{'names', 'chars', 8, count = 3}}}\n",
                   "ecs.component 'Names': field 'names': an array of chars cannot be described "
                   "(give each text a field)", 1);
    finish(w);
}

static void a_message_named_like_a_component_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    describe_motion(w);
    assert_refused(w, "ecs.message{name = 'Position'}\n",
                   "ecs.message 'Position': a component of this name is registered; a message "
                   "type needs a name of its own", 1);
    finish(w);
}

static void a_message_type_registered_with_another_layout_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_true(ecs_sched_message_register_type(w, "Hit", 4, 4) != 0);
    assert_refused(w, "ecs.message{name = 'Hit', fields = {{'amount', 'f64'}}}\n",
                   "ecs.message 'Hit': a message type of this name is registered already with "
                   "another layout: it is 4 bytes (alignment 4) there, 8 bytes (alignment 8) here",
                   1);
    finish(w);
}

static void a_message_type_c_registered_without_a_description_is_described(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id hit;
    int32_t amount = 12;
    char text[64];
    (void)state;
    hit = ecs_sched_message_register_type(w, "Hit", 4, 4);
    assert_false(ecs_sched_is_described(w, hit));
    load_ok(w, "ecs.message{name = 'Hit', fields = {{'amount', 'i32'}}}\n");
    assert_int_equal(ecs_sched_component_lookup(w, "Hit"), hit);
    assert_true(ecs_sched_is_described(w, hit));
    ecs_sched_value_print(w, hit, &amount, text, (int32_t)sizeof text);
    assert_string_equal(text, "{amount: 12}");
    finish(w);
}

static void a_reload_that_changes_a_message_type_s_fields_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_script *script;
    ecs_sched_id hit;
    (void)state;
    script = load_ok(w, "ecs.message{name = 'Hit', fields = {{'amount', 'i32'}, {'crit', 'bool'}}}\n");
    hit = ecs_sched_component_lookup(w, "Hit");
    write_script("ecs.message{name = 'Hit', fields = {{'amount', 'i32'}, {'crit', 'u8'}}}\n");
    assert_int_equal(ecs_sched_script_reload(w, script), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "ecs.message 'Hit': a message type of this name is registered already "
                        "with another layout: field 2 is 'crit' (bool, 1 bytes at offset 4) there, "
                        "'crit' (u8, 1 bytes at offset 4) here", 1);
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_script_version(script), 1);
    write_script("ecs.message{name = 'Hit', fields = {{'amount', 'i32'}, {'crit', 'bool'},\n"
                 "                                   {'far', 'bool'}}}\n");
    assert_int_equal(ecs_sched_script_reload(w, script), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "another layout: it has 2 fields there, 3 here", 1);
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_component_lookup(w, "Hit"), hit);
    assert_int_equal(ecs_sched_component_size(w, hit), 8);
    finish(w);
}

static void a_reload_that_adds_a_field_in_the_padding_migrates_the_values(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_script *script;
    ecs_sched_id gauge;
    ecs_sched_entity e;
    double number = -1;
    const void *value;
    (void)state;
    script = load_ok(w, "ecs.component{name = 'Gauge', fields = {{'level', 'i32'}, {'step', 'i16'}}}\n");
    gauge = ecs_sched_component_lookup(w, "Gauge");
    e = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_insert(w, e, gauge, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_value_set_number(w, gauge, ecs_sched_get_mut(w, e, gauge), "level", 9),
                     ECS_SCHED_OK);
    reload_ok(w, script, "ecs.component{name = 'Gauge', fields = {{'level', 'i32'}, {'step', 'i16'},\n"
                         "                                        {'spare', 'i16'}}}\n");
    assert_int_equal(ecs_sched_component_size(w, gauge), 8);
    value = ecs_sched_get(w, e, gauge);
    assert_int_equal(ecs_sched_value_get_number(w, gauge, value, "level", &number), ECS_SCHED_OK);
    assert_true(number == 9);
    assert_int_equal(ecs_sched_value_get_number(w, gauge, value, "spare", &number), ECS_SCHED_OK);
    assert_true(number == 0);
    finish(w);
}

static void a_system_without_its_run_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.system{name = 'idle', run = 'go'}\n",
                   "ecs.system 'idle': give its run, run = function(it) ... end", 1);
    finish(w);
}

static void an_observer_without_its_run_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.component{name = 'Health', fields = {{'hp', 'i32'}}}\n"
                      "ecs.observer{name = 'watch', event = 'add', component = 'Health'}\n",
                   "ecs.observer 'watch': give its run, run = function(e) ... end", 2);
    finish(w);
}

static void an_observer_of_an_unknown_event_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.observer{name = 'watch', event = 'change', component = 'Health',\n"
                      "  run = function(e) end}\n",
                   "ecs.observer 'watch': unknown event 'change' (add, insert, remove or set)", 1);
    finish(w);
}

static void an_observer_of_an_unknown_component_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "\n\necs.observer{name = 'watch', event = 'add', component = 'Healt',\n"
                      "  run = function(e) end}\n",
                   "observer 'watch' watches component 'Healt'", 3);
    finish(w);
}

static void more_than_eight_names_in_after_are_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.system{name = 'last', after = {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'},\n"
                      "  run = function(it) end}\n",
                   "ecs.system 'last': at most 8 names in after", 1);
    finish(w);
}

static void a_list_of_names_holding_something_else_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.system{name = 'last', before = {'a', 2}, run = function(it) end}\n",
                   "ecs.system 'last': before holds names (strings)", 1);
    finish(w);
}

static void names_given_as_neither_a_name_nor_a_list_are_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.system{name = 'last', in_set = 3, run = function(it) end}\n",
                   "ecs.system 'last': give in_set as a name or a list of names", 1);
    finish(w);
}

static void commands_that_is_no_boolean_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.system{name = 'maker', commands = 'yes', run = function(it) end}\n",
                   "ecs.system 'maker': commands is true or false, not a string", 1);
    finish(w);
}

static void run_if_that_is_no_table_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.system{name = 'play', run_if = 'Playing', run = function(it) end}\n",
                   "ecs.system 'play': give run_if as a table of conditions", 1);
    finish(w);
}

static void a_run_if_entry_without_a_key_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.system{name = 'play', run_if = {'Playing'}, run = function(it) end}\n",
                   "ecs.system 'play': run_if has no condition 'number'", 1);
    finish(w);
}

static void more_than_four_run_if_conditions_are_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.system{name = 'play', run_if = {resource_exists = 'A', resource_added = 'B',\n"
                      "  resource_changed = 'C', on_message = 'D', state_exists = 'E'},\n"
                      "  run = function(it) end}\n",
                   "ecs.system 'play': at most 4 conditions in run_if", 1);
    finish(w);
}

static void in_state_without_a_machine_and_a_value_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.system{name = 'play', run_if = {in_state = 'Game'}, run = function(it) end}\n",
                   "ecs.system 'play': give in_state as a state machine and one of its values, "
                   "in_state = {\"Game\", \"Playing\"}", 1);
    assert_refused(w, "ecs.system{name = 'play', run_if = {in_state = {'Game'}}, run = function(it) end}\n",
                   "give in_state as a state machine and one of its values", 1);
    assert_refused(w, "ecs.system{name = 'play', on_exit = {'Game', 3}, run = function(it) end}\n",
                   "give on_exit as a state machine and one of its values", 1);
    finish(w);
}

static void run_once_is_written_true(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.system{name = 'boot', run_if = {run_once = 1}, run = function(it) end}\n",
                   "ecs.system 'boot': write run_once = true", 1);
    assert_refused(w, "ecs.system{name = 'boot', run_if = {run_once = false}, run = function(it) end}\n",
                   "ecs.system 'boot': write run_once = true", 1);
    finish(w);
}

static void on_timer_is_a_positive_number_of_seconds(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.system{name = 'tick', run_if = {on_timer = 0}, run = function(it) end}\n",
                   "ecs.system 'tick': give on_timer as its period in seconds (> 0)", 1);
    assert_refused(w, "ecs.system{name = 'tick', run_if = {on_timer = '1'}, run = function(it) end}\n",
                   "ecs.system 'tick': give on_timer as its period in seconds (> 0)", 1);
    finish(w);
}

static void a_run_if_name_that_is_no_string_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.system{name = 'play', run_if = {resource_added = {'Score'}},\n"
                      "  run = function(it) end}\n",
                   "ecs.system 'play': give run_if's resource_added as a name (a string)", 1);
    finish(w);
}

static void a_system_with_a_schedule_and_on_enter_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    register_game(w);
    assert_refused(w, "ecs.system{name = 'play', schedule = 'Update', on_enter = {'Game', 'Playing'},\n"
                      "  run = function(it) end}\n",
                   "ecs.system 'play': give one of schedule, on_enter and on_exit", 1);
    assert_refused(w, "ecs.system{name = 'play', on_enter = {'Game', 'Playing'},\n"
                      "  on_exit = {'Game', 'Menu'}, run = function(it) end}\n",
                   "ecs.system 'play': give one of schedule, on_enter and on_exit", 1);
    finish(w);
}

static void declaring_in_a_run_fails_the_system(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    load_ok(w, "ecs.system{name = 'late', run = function(it)\n"
               "  ecs.component{name = 'Late', fields = {{'n', 'i32'}}}\n"
               "end}\n");
    assert_run_fails(w, "ecs.component declares: call it at the script's top level, not in a run", 2);
    assert_int_equal(ecs_sched_component_lookup(w, "Late"), 0);
    finish(w);
}

static void init_resource_in_a_run_fails_the_system(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    load_with_score(w, "ecs.system{name = 'late', run = function(it)\n"
                       "  ecs.init_resource('Score', {points = 1})\n"
                       "end}\n");
    assert_run_fails(w, "ecs.init_resource is for the script's top level; in a run, "
                        "ecs.set_resource records the insertion as a command", 6);
    assert_int_equal(resource_i32(w, "Score"), 5);
    finish(w);
}

/* ---- what a system declares it reaches, refused when the load declares it ---- */

static void sending_a_component_is_refused_at_the_load(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    describe_motion(w);
    assert_refused(w, "ecs.system{name = 'shout', sends = {'Position'}, run = function(it) end}\n",
                   "system 'shout' sends 'Position': it is a component, not a message type", 1);
    finish(w);
}

static void receiving_an_unknown_message_type_is_refused_at_the_load(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "\necs.system{name = 'hear', receives = 'Hti', run = function(it) end}\n",
                   "system 'hear' receives 'Hti': no message type has that name", 2);
    finish(w);
}

static void more_resources_than_a_system_reaches_are_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "for i = 1, 9 do ecs.component{name = 'R' .. i, fields = {{'n', 'i32'}}} end\n"
                      "ecs.message{name = 'Ping'}\n"
                      "ecs.system{name = 'greedy', reads = {'R1', 'R2', 'R3', 'R4', 'R5', 'R6', 'R7', 'R8'},\n"
                      "  receives = {'Ping'}, run = function(it) end}\n",
                   "system 'greedy' receives 'Ping': more than ECS_SCHED_MAX_RESOURCES names", 3);
    finish(w);
}

static void a_resource_named_twice_counts_once(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    load_with_score(w, "ecs.system{name = 'twice', reads = {'Bonus', 'Bonus'}, writes = {'Score'},\n"
                       "  run = function(it) ecs.resource('Score').points = ecs.resource('Bonus').amount end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(resource_i32(w, "Score"), 3);
    finish(w);
}

static void on_message_naming_a_resource_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.component{name = 'Score', fields = {{'points', 'i32'}}}\n"
                      "ecs.system{name = 'count', run_if = {on_message = 'Score'}, run = function(it) end}\n",
                   "system 'count' runs if 'Score': on_message names a message type (declare it "
                   "with ecs.message)", 2);
    finish(w);
}

static void resource_changed_naming_a_message_type_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.message{name = 'Ping'}\n"
                      "ecs.system{name = 'count', run_if = {resource_changed = 'Ping'}, run = function(it) end}\n",
                   "system 'count' runs if 'Ping': no resource has that name (declare it with "
                   "ecs.component)", 2);
    finish(w);
}

static void state_changed_naming_no_machine_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.system{name = 'watch', run_if = {state_changed = 'Gaem'}, run = function(it) end}\n",
                   "system 'watch' runs if a state of 'Gaem': no state machine has that name", 1);
    finish(w);
}

/* ---- every reflected type, read and written from Lua ---- */

typedef struct LuaEvery {
    uint8_t a;
    uint16_t b;
    uint32_t c;
    uint64_t d;
    int64_t e;
    bool f;
    ecs_sched_entity g;
    char h[8];
    double i;
    int16_t j;
} LuaEvery;

static const char *const EVERY =
    "ecs.component{name = 'Every', fields = {{'a', 'u8'}, {'b', 'u16'}, {'c', 'u32'}, {'d', 'u64'},\n"
    "  {'e', 'i64'}, {'f', 'bool'}, {'g', 'entity'}, {'h', 'chars', 8}, {'i', 'f64'}, {'j', 'i16'}}}\n";

/* A world with EVERY and `system` (its lines after EVERY's two), an entity holding Every. */
static ecs_sched_world *world_with_every(const char *system, ecs_sched_entity *e) {
    ecs_sched_world *w = world_with_lua(NULL);
    char text[2048];
    snprintf(text, sizeof text, "%s%s", EVERY, system);
    load_ok(w, text);
    assert_int_equal(ecs_sched_component_size(w, ecs_sched_component_lookup(w, "Every")),
                     sizeof(LuaEvery));
    *e = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_insert(w, *e, ecs_sched_component_lookup(w, "Every"), NULL),
                     ECS_SCHED_OK);
    return w;
}

static void every_reflected_type_is_written_and_read_back_from_lua(void **state) {
    ecs_sched_entity e;
    ecs_sched_world *w = world_with_every(
        "ecs.system{name = 'fill', query = '[inout] Every', run = function(it)\n"
        "  for row in it:rows() do\n"
        "    local v = row.Every\n"
        "    v.a = 255; v.b = 65535; v.c = 4294967295; v.d = 2^40; v.e = -2^40\n"
        "    v.f = true; v.g = row.entity; v.h = 'orc'; v.i = 0.25; v.j = -32768\n"
        "    assert(v.a == 255 and v.b == 65535 and v.c == 4294967295 and v.d == 2^40)\n"
        "    assert(v.e == -2^40 and v.f == true and v.g == row.entity and v.h == 'orc')\n"
        "    assert(v.i == 0.25 and v.j == -32768)\n"
        "  end\n"
        "end}\n", &e);
    LuaEvery value;
    (void)state;
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    memcpy(&value, ecs_sched_get(w, e, ecs_sched_component_lookup(w, "Every")), sizeof value);
    assert_int_equal(value.a, 255);
    assert_int_equal(value.b, 65535);
    assert_true(value.c == 4294967295u);
    assert_true(value.d == (uint64_t)1 << 40);
    assert_true(value.e == -((int64_t)1 << 40));
    assert_true(value.f);
    assert_true(value.g == e);
    assert_string_equal(value.h, "orc");
    assert_true(value.i == 0.25);
    assert_int_equal(value.j, -32768);
    finish(w);
}

static void a_value_a_field_cannot_hold_fails_naming_the_field_and_the_value(void **state) {
    static const char *const cases[][2] = {
        {"a = 256", "Every.a is an u8: 256 does not fit"},
        {"d = -1", "Every.d is an u64: -1 does not fit"},
        {"b = 'x'", "Every.b is an u16: string does not fit"},
        {"c = 1.5", "Every.c is an u32: 1.5 does not fit"},
        {"j = -32769", "Every.j is an i16: -32769 does not fit"},
        {"j = 32768", "Every.j is an i16: 32768 does not fit"},
        {"e = 2^63", "Every.e is an i64: "},
        {"e = -2^64", "Every.e is an i64: "},
        {"e = 0/0", "Every.e is an i64: "},
        {"f = 1", "Every.f is a bool: give true or false, not a number"},
        {"i = 'x'", "Every.i is a number (f64): not a string"},
        {"h = 5", "Every.h holds text: give a string, not a number"},
        {"h = 'eight ch'", "Every.h holds 8 bytes with the closing zero: a text of 8 bytes does not fit"},
        {"g = 'e'", "g: give an entity (a number), not a string"},
        {"g = 0.5", "g: give an entity (a number), not a number"},
    };
    size_t k;
    (void)state;
    for (k = 0; k < sizeof cases / sizeof *cases; k++) {
        char system[512];
        ecs_sched_entity e;
        ecs_sched_world *w;
        LuaEvery value;
        snprintf(system, sizeof system,
                 "ecs.system{name = 'bad', query = '[inout] Every', run = function(it)\n"
                 "  for row in it:rows() do row.Every.%s end\n"
                 "end}\n", cases[k][0]);
        w = world_with_every(system, &e);
        assert_run_fails(w, cases[k][1], 4);
        memcpy(&value, ecs_sched_get(w, e, ecs_sched_component_lookup(w, "Every")), sizeof value);
        assert_true(value.a == 0 && value.d == 0 && value.e == 0 && !value.f && value.h[0] == 0);
        finish(w);
    }
}

static const char *const BODY =
    "ecs.component{name = 'Vec2', fields = {{'x', 'f32'}, {'y', 'f32'}}}\n"
    "ecs.component{name = 'Body', fields = {{'at', 'Vec2'}, {'slots', 'i32', count = 4}}}\n";

typedef struct LuaShape {
    float x, y;
    int32_t slots[4];
} LuaShape;

/* A world with BODY and `system` (its lines after BODY's two), an entity holding `body`. */
static ecs_sched_world *world_with_body(const char *system, const LuaShape *body, ecs_sched_entity *e) {
    ecs_sched_world *w = world_with_lua(NULL);
    char text[2048];
    snprintf(text, sizeof text, "%s%s", BODY, system);
    load_ok(w, text);
    *e = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_insert(w, *e, ecs_sched_component_lookup(w, "Body"), body), ECS_SCHED_OK);
    return w;
}

static void a_struct_or_array_field_given_another_value_fails_naming_it(void **state) {
    static const char *const cases[][2] = {
        {"row.Body.at = 5", "Body.at is a Vec2: give a table of its fields"},
        {"row.Body.at = {1, 2}", "the value of Vec2 names its fields by name ({x = 1}), not by position"},
        {"row.Body.slots = 3", "Body.slots is an array of 4: give a table of its elements ({1, 2, ...}), "
                               "not a number"},
        {"row.Body.slots = {[5] = 1}", "Body.slots holds 4 elements, [1] to [4]: there is no [5]"},
        {"row.Body.slots[true] = 1", "Body.slots holds 4 elements, [1] to [4]: there is no [boolean]"},
        {"local s = row.Body.slots.first", "Body.slots holds 4 elements, [1] to [4]: there is no [first]"},
        {"row.Body = {}", "a row's components are written field by field (row.Body.x = 1)"},
    };
    size_t k;
    (void)state;
    for (k = 0; k < sizeof cases / sizeof *cases; k++) {
        char system[512];
        LuaShape body = {1, 2, {3, 4, 5, 6}};
        ecs_sched_entity e;
        ecs_sched_world *w;
        snprintf(system, sizeof system,
                 "ecs.system{name = 'bad', query = '[inout] Body', run = function(it)\n"
                 "  for row in it:rows() do %s end\n"
                 "end}\n", cases[k][0]);
        w = world_with_body(system, &body, &e);
        assert_run_fails(w, cases[k][1], 4);
        assert_memory_equal(ecs_sched_get(w, e, ecs_sched_component_lookup(w, "Body")), &body, sizeof body);
        finish(w);
    }
}

static void a_nested_struct_s_fields_have_columns_of_their_own(void **state) {
    LuaShape body = {1.5f, 2.0f, {3, 4, 5, 6}};
    ecs_sched_entity e;
    ecs_sched_world *w = world_with_body(
        "ecs.system{name = 'swap', query = '[inout] Body', run = function(it)\n"
        "  for t in it:tables() do\n"
        "    for i = 1, t.count do\n"
        "      t.Body.at.x[i], t.Body.at.y[i] = t.Body.at.y[i] * 10, t.Body.at.x[i]\n"
        "    end\n"
        "    assert(rawget(t.Body, 'slots') == nil)\n"
        "  end\n"
        "end}\n", &body, &e);
    const LuaShape *now;
    (void)state;
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    now = (const LuaShape *)ecs_sched_get(w, e, ecs_sched_component_lookup(w, "Body"));
    assert_true(now->x == 20.0f && now->y == 1.5f);
    assert_int_equal(now->slots[3], 6);
    finish(w);
}

static void unsigned_fields_have_columns_and_text_has_none(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_entity e;
    ecs_sched_id counts;
    struct { uint8_t small; uint16_t mid; uint32_t big; char label[4]; } value = {250, 65000, 4000000000u, "abc"};
    (void)state;
    load_ok(w, "ecs.component{name = 'Counts', fields = {{'small', 'u8'}, {'mid', 'u16'},\n"
               "                                       {'big', 'u32'}, {'label', 'chars', 4}}}\n"
               "ecs.system{name = 'grow', query = '[inout] Counts', run = function(it)\n"
               "  for t in it:tables() do\n"
               "    local c = t.Counts\n"
               "    assert(rawget(c, 'label') == nil)\n"
               "    for i = 1, t.count do\n"
               "      assert(c.small[i] == 250 and c.mid[i] == 65000 and c.big[i] == 4000000000)\n"
               "      c.small[i] = c.small[i] + 5\n"
               "      c.mid[i] = c.mid[i] + 535\n"
               "      c.big[i] = c.big[i] + 294967295\n"
               "    end\n"
               "  end\n"
               "end}\n");
    counts = ecs_sched_component_lookup(w, "Counts");
    assert_int_equal(ecs_sched_component_size(w, counts), sizeof value);
    e = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_insert(w, e, counts, &value), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    memcpy(&value, ecs_sched_get(w, e, counts), sizeof value);
    assert_int_equal(value.small, 255);
    assert_int_equal(value.mid, 65535);
    assert_true(value.big == 4294967295u);
    assert_string_equal(value.label, "abc");
    finish(w);
}

/* ---- what a row gives ---- */

static void a_tag_and_an_optional_term_the_entity_lacks_are_nil(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id frozen, position;
    ecs_sched_entity moving, still;
    Position p = {5, 5};
    (void)state;
    describe_motion(w);
    frozen = ECS_SCHED_TAG(w, Frozen);
    position = ecs_sched_component_lookup(w, "Position");
    moving = spawn_moving(w, 1, 2);
    still = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_insert(w, still, position, &p), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(w, moving, frozen, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(w, still, frozen, NULL), ECS_SCHED_OK);
    load_ok(w, "ecs.system{name = 'mark', query = '[inout] Position, [in] ?Velocity, [in] Frozen',\n"
               "  run = function(it)\n"
               "    for row in it:rows() do\n"
               "      assert(row.Frozen == nil)\n"
               "      row.Position.y = row.Velocity == nil and -1 or row.Velocity.y\n"
               "    end\n"
               "    assert(it.name == 'mark')\n"
               "  end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_true(position_of(w, moving)->y == 1.0f);
    assert_true(position_of(w, still)->y == -1.0f);
    finish(w);
}

static void an_iteration_names_what_it_has(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    load_ok(w, "ecs.system{name = 'ask', run = function(it)\n"
               "  local x = it.count\n"
               "end}\n");
    assert_run_fails(w, "a system's iteration has no 'count' (it has rows, tables, dt and name)", 2);
    finish(w);
}

static void a_relationship_term_is_not_read_from_lua(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_relation_desc likes = {0};
    ecs_sched_entity a, b;
    (void)state;
    describe_motion(w);
    likes.name = "Likes";
    assert_true(ecs_sched_relation_register(w, &likes) != 0);
    a = spawn_moving(w, 1, 2);
    b = spawn_moving(w, 3, 4);
    assert_int_equal(ecs_sched_relate(w, a, ecs_sched_component_lookup(w, "Likes"), b, NULL), ECS_SCHED_OK);
    load_ok(w, "ecs.system{name = 'fond', query = '[inout] Position, (Likes, *)', run = function(it)\n"
               "  for t in it:tables() do\n"
               "    assert(rawget(t, 'Likes') == nil)\n"
               "    for i = 1, t.count do t.Position.x[i] = 10 end\n"
               "  end\n"
               "  for row in it:rows() do local likes = row.Likes end\n"
               "end}\n");
    assert_run_fails(w, "term Likes of system 'fond' is a relationship term, which Lua scripts do "
                        "not read in this version", 6);
    assert_true(position_of(w, a)->x == 10.0f);
    assert_true(position_of(w, b)->x == 3.0f);
    finish(w);
}

static void an_observer_of_a_tag_gets_nil_for_it(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id frozen = ECS_SCHED_TAG(w, Frozen);
    char expected[700];
    (void)state;
    load_ok(w, "ecs.observer{name = 'freeze', event = 'add', component = 'Frozen', run = function(e)\n"
               "  print('frozen', e.entity == nil, e.Frozen == nil)\n"
               "end}\n");
    assert_int_equal(ecs_sched_insert(w, ecs_sched_spawn(w), frozen, NULL), ECS_SCHED_OK);
    snprintf(expected, sizeof expected, "script '%s': frozen\tfalse\ttrue", g_path);
    assert_contains(g_log.text, expected);
    finish(w);
}

static void tostring_of_a_value_prints_its_fields(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    char expected[700];
    (void)state;
    load_with_score(w, "ecs.system{name = 'show', reads = {'Score'}, run = function(it)\n"
                       "  print(tostring(ecs.resource('Score')))\n"
                       "end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    snprintf(expected, sizeof expected, "script '%s': {points: 5}", g_path);
    assert_contains(g_log.text, expected);
    finish(w);
}

static void print_names_the_type_of_what_it_cannot_print(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    char expected[700];
    (void)state;
    load_ok(w, "print({}, print, nil, false, 2.5)\n");
    snprintf(expected, sizeof expected, "script '%s': table\tfunction\tnil\tfalse\t2.5", g_path);
    assert_contains(g_log.text, expected);
    finish(w);
}

/* ---- commands that fail ---- */

/* A world with Health, an entity named hero, and system 'act' recording `statement` (line 3). */
static ecs_sched_world *world_acting(const char *statement) {
    ecs_sched_world *w = world_with_lua(NULL);
    char text[512];
    snprintf(text, sizeof text,
             "ecs.component{name = 'Health', fields = {{'hp', 'i32'}}}\n"
             "ecs.system{name = 'act', commands = true, run = function(it)\n"
             "  %s\n"
             "end}\n", statement);
    load_ok(w, text);
    assert_int_equal(ecs_sched_set_name(w, ecs_sched_spawn(w), "hero"), ECS_SCHED_OK);
    return w;
}

static void a_command_on_a_stale_entity_fails_the_system_naming_the_entity(void **state) {
    static const char *const cases[][2] = {
        {"ecs.despawn(999999)", "commands_despawn: entity 999999 (generation 0) was never spawned"},
        {"ecs.insert(999999, 'Health')", "commands_insert: entity 999999 (generation 0) was never spawned"},
        {"ecs.remove(999999, 'Health')", "commands_remove: entity 999999 (generation 0) was never spawned"},
        {"ecs.set_parent(999999, ecs.lookup('hero'))", "entity 999999 (generation 0) was never spawned"},
    };
    size_t k;
    (void)state;
    for (k = 0; k < sizeof cases / sizeof *cases; k++) {
        ecs_sched_world *w = world_acting(cases[k][0]);
        int32_t before = ecs_sched_entity_count(w);
        assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_STALE_ENTITY);
        assert_error_has(w, "system 'act' in schedule 'Update': ", 0);
        assert_error_has(w, cases[k][1], 0);
        ecs_sched_clear_error(w);
        assert_int_equal(ecs_sched_entity_count(w), before);
        finish(w);
    }
}

static void a_command_given_the_wrong_values_fails_naming_them(void **state) {
    static const char *const cases[][2] = {
        {"ecs.despawn(1.5)", "ecs.despawn: give an entity (a number), not a number"},
        {"ecs.spawn{[1] = {hp = 1}}", "ecs.spawn: name the components, ecs.spawn{Health = {hp = 10}}"},
        {"ecs.spawn{Health = 5}", "the value of Health is a table of its fields, not a number"},
    };
    size_t k;
    (void)state;
    for (k = 0; k < sizeof cases / sizeof *cases; k++) {
        ecs_sched_world *w = world_acting(cases[k][0]);
        int32_t before = ecs_sched_entity_count(w);
        assert_run_fails(w, cases[k][1], 3);
        assert_int_equal(ecs_sched_entity_count(w), before);
        finish(w);
    }
}

static void spawn_records_an_entity_of_64_components(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_query *q;
    ecs_sched_iter it;
    ecs_sched_entity e;
    (void)state;
    load_ok(w, "for i = 1, 64 do ecs.component{name = 'C' .. i, fields = {{'n', 'u8'}}} end\n"
               "ecs.system{name = 'big', commands = true, run = function(it)\n"
               "  local all = {}\n"
               "  for i = 1, 64 do all['C' .. i] = {n = i} end\n"
               "  ecs.spawn(all)\n"
               "end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    q = QUERY(w, {ecs_sched_component_lookup(w, "C1"), ECS_SCHED_TERM_READ, 0});
    assert_int_equal(ecs_sched_query_count(q), 1);
    it = ecs_sched_query_iter(q);
    assert_true(ecs_sched_iter_next(&it));
    e = it.entities[0];
    ecs_sched_query_destroy(q);
    assert_int_equal(*(const uint8_t *)ecs_sched_get(w, e, ecs_sched_component_lookup(w, "C1")), 1);
    assert_int_equal(*(const uint8_t *)ecs_sched_get(w, e, ecs_sched_component_lookup(w, "C33")), 33);
    assert_int_equal(*(const uint8_t *)ecs_sched_get(w, e, ecs_sched_component_lookup(w, "C64")), 64);
    finish(w);
}

static void spawn_takes_at_most_64_components(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    int32_t before = ecs_sched_entity_count(w);
    (void)state;
    load_ok(w, "for i = 1, 65 do ecs.component{name = 'C' .. i, fields = {{'n', 'u8'}}} end\n"
               "ecs.system{name = 'big', commands = true, run = function(it)\n"
               "  local all = {}\n"
               "  for i = 1, 65 do all['C' .. i] = {n = i} end\n"
               "  ecs.spawn(all)\n"
               "end}\n");
    assert_run_fails(w, "ecs.spawn: at most 64 components at once", 5);
    assert_int_equal(ecs_sched_entity_count(w), before);
    finish(w);
}

/* ---- resources, messages and states from a run ---- */

static void a_tag_resource_reads_true(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id paused = ECS_SCHED_TAG(w, Paused);
    (void)state;
    assert_int_equal(ecs_sched_resource_insert(w, paused, NULL), ECS_SCHED_OK);
    load_with_score(w, "ecs.system{name = 'wait', reads = {'Paused'}, writes = {'Score'}, run = function(it)\n"
                       "  if ecs.resource('Paused') == true then ecs.resource('Score').points = 50 end\n"
                       "end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(resource_i32(w, "Score"), 50);
    finish(w);
}

static void an_unknown_resource_or_message_type_in_a_run_is_named(void **state) {
    static const char *const cases[][2] = {
        {"ecs.resource('Scroe')", "ecs.resource ("},
        {"ecs.send('Hti')", "ecs.send ("},
    };
    static const char *const after[] = {
        "): no resource is named 'Scroe' (declare it with ecs.component, or register it in C, "
        "before the script loads)",
        "): no message type is named 'Hti' (declare it with ecs.message, or register it in C, "
        "before the script loads)"};
    int k;
    (void)state;
    for (k = 0; k < 2; k++) {
        ecs_sched_world *w = world_with_lua(NULL);
        char text[512];
        snprintf(text, sizeof text, "ecs.system{name = 'lost', run = function(it)\n  %s\nend}\n",
                 cases[k][0]);
        load_ok(w, text);
        assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCRIPT);
        assert_error_has(w, cases[k][1], 2);
        assert_error_has(w, after[k], 0);
        ecs_sched_clear_error(w);
        finish(w);
    }
}

static void sending_a_component_fails_the_system(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    load_with_score(w, "ecs.system{name = 'shout', run = function(it)\n"
                       "  ecs.send('Score', {points = 1})\n"
                       "end}\n");
    assert_run_fails(w, "'Score' is a component, not a message type (declare one with ecs.message)", 6);
    finish(w);
}

static void a_message_without_fields_is_counted(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    load_with_score(w, "ecs.message{name = 'Ping'}\n"
                       "ecs.system{name = 'ping', sends = 'Ping', run = function(it)\n"
                       "  ecs.send('Ping') ecs.send('Ping') ecs.send('Ping')\n"
                       "end}\n"
                       "ecs.system{name = 'pong', after = 'ping', receives = 'Ping', writes = 'Score',\n"
                       "  run = function(it)\n"
                       "    for m in ecs.messages('Ping') do\n"
                       "      assert(m == true)\n"
                       "      ecs.resource('Score').points = ecs.resource('Score').points + 1\n"
                       "    end\n"
                       "  end}\n");
    assert_int_equal(ecs_sched_component_size(w, ecs_sched_component_lookup(w, "Ping")), 0);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(resource_i32(w, "Score"), 8);
    finish(w);
}

static void an_observer_cannot_read_messages(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    char text[2048];
    (void)state;
    snprintf(text, sizeof text, "%s%s", HITS,
             "ecs.observer{name = 'listen', event = 'add', component = 'Total', run = function(e)\n"
             "  for m in ecs.messages('Hit') do end\n"
             "end}\n");
    load_ok(w, text);
    ecs_sched_insert(w, ecs_sched_spawn(w), ecs_sched_component_lookup(w, "Total"), NULL);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "ecs.messages is for systems, which keep a place in the messages (observer "
                        "'listen' cannot read them)", 5);
    ecs_sched_clear_error(w);
    finish(w);
}

static void an_observer_reaches_at_most_32_resources_in_a_run(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    load_ok(w, "for i = 1, 33 do\n"
               "  ecs.component{name = 'R' .. i, fields = {{'n', 'i32'}}}\n"
               "  ecs.init_resource('R' .. i, {n = i})\n"
               "end\n"
               "ecs.component{name = 'Go', fields = {{'n', 'i32'}}}\n"
               "ecs.observer{name = 'greedy', event = 'add', component = 'Go', run = function(e)\n"
               "  local sum = 0\n"
               "  for i = 1, 33 do sum = sum + ecs.resource('R' .. i).n end\n"
               "end}\n");
    ecs_sched_insert(w, ecs_sched_spawn(w), ecs_sched_component_lookup(w, "Go"), NULL);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "observer 'greedy' reaches more than 32 resources and message types in one run", 8);
    ecs_sched_clear_error(w);
    finish(w);
}

static void an_unknown_state_machine_in_a_run_is_named_with_the_machines_there_are(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    load_ok(w, "ecs.system{name = 'look', run = function(it) local s = ecs.state('Gaem') end}\n");
    assert_run_fails(w, "no state machine is named 'Gaem' (none is registered: ecs_sched_state_register)", 1);
    register_game(w);
    assert_run_fails(w, "no state machine is named 'Gaem' (the machines: Game)", 1);
    finish(w);
}

static void reading_a_state_the_system_does_not_declare_fails(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    register_game(w);
    load_ok(w, "ecs.system{name = 'look', run = function(it)\n"
               "  local s = ecs.state('Game')\n"
               "end}\n");
    assert_run_fails(w, "system 'look' reads state 'Game' without declaring it", 0);
    finish(w);
}

static void a_state_without_a_value_yet_reads_nil(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    register_game(w);
    load_with_score(w, "ecs.system{name = 'look', reads = {'Game'}, writes = {'Score'}, run = function(it)\n"
                       "  ecs.resource('Score').points = ecs.state('Game') == nil and 0 or 1\n"
                       "end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(resource_i32(w, "Score"), 0);
    finish(w);
}

/* ---- run conditions from Lua ---- */

static const char *const COUNT_RUNS =
    "  run = function(it) ecs.resource('Score').points = ecs.resource('Score').points + 1 end}\n";

static ecs_sched_script *load_counter(ecs_sched_world *w, const char *declaration) {
    char text[1024];
    snprintf(text, sizeof text, "%s%s", declaration, COUNT_RUNS);
    return load_with_score(w, text);
}

static void run_once_runs_the_system_once(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    int i;
    (void)state;
    load_counter(w, "ecs.system{name = 'boot', writes = 'Score', run_if = {run_once = true},\n");
    for (i = 0; i < 3; i++) assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(resource_i32(w, "Score"), 6);
    finish(w);
}

static void on_timer_runs_the_system_once_a_period(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    int i;
    (void)state;
    assert_int_equal(ecs_sched_time_setup(w, NULL), ECS_SCHED_OK);
    load_counter(w, "ecs.system{name = 'tick', writes = 'Score', run_if = {on_timer = 0.5},\n");
    for (i = 0; i < 5; i++) {
        assert_int_equal(ecs_sched_time_advance_by(w, ECS_SCHED_MILLISECONDS(250)), ECS_SCHED_OK);
        assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    }
    assert_int_equal(resource_i32(w, "Score"), 7);   /* at 0.5 s and 1 s */
    finish(w);
}

static void state_exists_runs_the_system_once_the_machine_has_a_value(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id game = register_game(w);
    (void)state;
    load_counter(w, "ecs.system{name = 'play', writes = 'Score', run_if = {state_exists = 'Game'},\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(resource_i32(w, "Score"), 5);
    assert_int_equal(ecs_sched_state_apply(w, game), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(resource_i32(w, "Score"), 6);
    finish(w);
}

static void state_changed_runs_the_system_after_a_transition(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id game = register_game(w);
    (void)state;
    load_counter(w, "ecs.system{name = 'react', writes = 'Score', run_if = {state_changed = 'Game'},\n");
    assert_int_equal(ecs_sched_state_apply(w, game), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(resource_i32(w, "Score"), 6);
    assert_int_equal(ecs_sched_state_set(w, game, LUA_OVER), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_apply(w, game), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(resource_i32(w, "Score"), 7);
    finish(w);
}

static void resource_added_and_changed_guard_the_system(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id level;
    int32_t n = 1;
    (void)state;
    load_counter(w, "ecs.component{name = 'Level', fields = {{'n', 'i32'}}}\n"
                    "ecs.system{name = 'added', writes = 'Bonus', run_if = {resource_added = 'Level'},\n"
                    "  run = function(it) ecs.resource('Bonus').amount = ecs.resource('Bonus').amount + 10 end}\n"
                    "ecs.system{name = 'changed', writes = 'Score', run_if = {resource_changed = 'Level'},\n");
    level = ecs_sched_component_lookup(w, "Level");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* no Level */
    assert_int_equal(ecs_sched_resource_insert(w, level, &n), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* added, changed */
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* neither */
    ((int32_t *)ecs_sched_resource_get_mut(w, level))[0] = 2;
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* changed */
    assert_int_equal(resource_i32(w, "Bonus"), 13);
    assert_int_equal(resource_i32(w, "Score"), 7);
    finish(w);
}

/* ---- a script file that cannot be read ---- */

static void a_script_file_that_does_not_exist_is_refused_naming_it(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    remove(g_path);
    assert_null(ecs_sched_script_load(w, g_path));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, g_path, 0);
    assert_error_has(w, "cannot open it: No such file or directory", 0);
    ecs_sched_clear_error(w);
    assert_null(ecs_sched_script_find(w, g_path));
    finish(w);
}

static void a_module_that_does_not_exist_or_does_not_parse_fails_the_require(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    char module[600], text[1200];
    const char *base = strrchr(g_program, '/');
    (void)state;
    base = base ? base + 1 : g_program;
    snprintf(text, sizeof text, "local m = require('%s_missing')\n", base);
    write_script(text);
    assert_null(ecs_sched_script_load(w, g_path));
    assert_error_has(w, "_missing.lua: cannot open it: No such file or directory", 1);
    ecs_sched_clear_error(w);
    snprintf(module, sizeof module, "%s_broken.lua", g_program);
    write_file(module, "return = 1\n");
    snprintf(text, sizeof text, "local m = require('%s_broken')\n", base);
    write_script(text);
    assert_null(ecs_sched_script_load(w, g_path));
    assert_error_has(w, "_broken.lua:1:", 0);
    ecs_sched_clear_error(w);
    remove(module);
    finish(w);
}

static void a_module_returning_nothing_requires_as_true(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    char module[600], text[1200];
    const char *base = strrchr(g_program, '/');
    (void)state;
    base = base ? base + 1 : g_program;
    snprintf(module, sizeof module, "%s_quiet.lua", g_program);
    write_file(module, "ran = (ran or 0) + 1\n");
    snprintf(text, sizeof text, "assert(require('%s_quiet') == true and ran == 1)\n"
                                "assert(require('%s_quiet') == true and ran == 1)\n", base, base);
    load_ok(w, text);
    remove(module);
    finish(w);
}

static void a_module_name_too_long_for_a_path_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "local m = require(string.rep('a', 1100))\n", "require 'aaaaaaaa", 1);
    assert_lacks(g_log.text, "cannot open it");
    finish(w);
}

/* ---- more a script gets wrong, and what it gets right ---- */

static void a_component_of_two_fields_of_one_name_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.component{name = 'Twin', fields = {{'a', 'i32'}, {'a', 'f32'}}}\n",
                   "ecs.component 'Twin': describe('Twin'): two members are named 'a'", 1);
    assert_false(ecs_sched_is_described(w, ecs_sched_component_lookup(w, "Twin")));
    load_ok(w, "ecs.component{name = 'Twin', fields = {{'a', 'i32'}, {'b', 'f32'}}}\n");
    assert_true(ecs_sched_is_described(w, ecs_sched_component_lookup(w, "Twin")));
    finish(w);
}

static void a_message_type_of_two_fields_of_one_name_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "\necs.message{name = 'Echo', fields = {{'n', 'i32'}, {'n', 'i32'}}}\n",
                   "ecs.message 'Echo': describe('Echo'): two members are named 'n'", 2);
    finish(w);
}

static void a_message_type_redeclared_with_another_nested_type_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_script *script;
    (void)state;
    script = load_ok(w, "ecs.component{name = 'Vec2', fields = {{'x', 'f32'}, {'y', 'f32'}}}\n"
                        "ecs.component{name = 'Size2', fields = {{'w', 'f32'}, {'h', 'f32'}}}\n"
                        "ecs.message{name = 'Shot', fields = {{'at', 'Vec2'}}}\n");
    write_script("ecs.component{name = 'Vec2', fields = {{'x', 'f32'}, {'y', 'f32'}}}\n"
                 "ecs.component{name = 'Size2', fields = {{'w', 'f32'}, {'h', 'f32'}}}\n"
                 "ecs.message{name = 'Shot', fields = {{'at', 'Size2'}}}\n");
    assert_int_equal(ecs_sched_script_reload(w, script), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "ecs.message 'Shot': a message type of this name is registered already "
                        "with another layout: field 1 is 'at' (", 3);
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_script_version(script), 1);
    finish(w);
}

typedef struct LuaGold {
    int32_t amount;
} LuaGold;

static void a_type_without_a_description_has_no_fields_lua_reaches(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id gold = ECS_SCHED_COMPONENT(w, LuaGold);
    LuaGold g = {3};
    (void)state;
    assert_int_equal(ecs_sched_resource_insert(w, gold, &g), ECS_SCHED_OK);
    load_ok(w, "ecs.system{name = 'count', reads = {'LuaGold'}, run = function(it)\n"
               "  local n = ecs.resource('LuaGold').amount\n"
               "end}\n");
    assert_run_fails(w, "LuaGold has no description, so Lua cannot reach its fields: describe it "
                        "(ecs_sched_describe, or declare it with ecs.component)", 2);
    finish(w);
}

static void the_delta_time_of_a_world_without_clocks_fails_saying_how_to_add_them(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    load_ok(w, "ecs.system{name = 'step', run = function(it)\n"
               "  local dt = it.dt\n"
               "end}\n");
    assert_run_fails(w, "the delta time: this world has no clocks (create an app, or call "
                        "ecs_sched_time_setup before loading the script)", 2);
    finish(w);
}

static void a_system_sends_a_message_for_each_of_another_it_receives(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_message_cursor cursor;
    ecs_sched_messages read;
    int32_t seen = 0;
    (void)state;
    load_ok(w, "ecs.message{name = 'Ping', fields = {{'n', 'i32'}}}\n"
               "ecs.message{name = 'Pong', fields = {{'n', 'i32'}}}\n"
               "ecs.system{name = 'relay', receives = {'Ping'}, sends = {'Pong'}, run = function(it)\n"
               "  for ping in ecs.messages('Ping') do ecs.send('Pong', {n = ping.n * 10}) end\n"
               "end}\n");
    cursor = ecs_sched_message_cursor_make(w, ecs_sched_component_lookup(w, "Pong"));
    {
        int32_t one = 1, two = 2;
        assert_int_equal(ecs_sched_send(w, ecs_sched_component_lookup(w, "Ping"), &one), ECS_SCHED_OK);
        assert_int_equal(ecs_sched_send(w, ecs_sched_component_lookup(w, "Ping"), &two), ECS_SCHED_OK);
    }
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    read = ecs_sched_message_read(w, &cursor);
    assert_int_equal(read.total, 2);
    do {
        int32_t i;
        for (i = 0; i < read.count; i++) seen += ((const int32_t *)read.data)[i];
    } while (ecs_sched_messages_next(&read));
    assert_int_equal(seen, 30);
    finish(w);
}

static void on_message_naming_nothing_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "ecs.system{name = 'count', run_if = {on_message = 'Pnig'}, run = function(it) end}\n",
                   "system 'count' runs if 'Pnig': on_message names a message type", 1);
    finish(w);
}

static void a_dotted_module_name_is_a_path_in_the_script_s_folder(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    char folder[600], module[700], text[1200];
    const char *base = strrchr(g_program, '/');
    (void)state;
    base = base ? base + 1 : g_program;
    snprintf(folder, sizeof folder, "%s_modules", g_program);
    snprintf(module, sizeof module, "%s/tools.lua", folder);
    mkdir(folder, 0700);
    write_file(module, "return {triple = function(x) return 3 * x end}\n");
    snprintf(text, sizeof text, "assert(require('%s_modules.tools').triple(5) == 15)\n", base);
    load_ok(w, text);
    remove(module);
    rmdir(folder);
    finish(w);
}

typedef struct LuaMode {
    int32_t mode;
} LuaMode;

static void an_enum_field_takes_any_whole_number(void **state) {
    static const ecs_sched_enum_value modes[] = {{"Walk", 0}, {"Run", 1}};
    static const ecs_sched_member members[] = {ECS_SCHED_MEMBER_ENUM(LuaMode, mode, modes, 2)};
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id mode = ECS_SCHED_COMPONENT(w, LuaMode);
    ecs_sched_entity e;
    LuaMode walking = {0};
    (void)state;
    assert_int_equal(ecs_sched_describe(w, mode, 1, members), ECS_SCHED_OK);
    e = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_insert(w, e, mode, &walking), ECS_SCHED_OK);
    load_ok(w, "ecs.system{name = 'run', query = '[inout] LuaMode', run = function(it)\n"
               "  for t in it:tables() do\n"
               "    for i = 1, t.count do t.LuaMode.mode[i] = t.LuaMode.mode[i] + 1 end\n"
               "  end\n"
               "  for row in it:rows() do row.LuaMode.mode = row.LuaMode.mode + 1 end\n"
               "end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(((const LuaMode *)ecs_sched_get(w, e, mode))->mode, 2);
    finish(w);
}

static void an_enum_field_given_no_whole_number_fails_naming_it(void **state) {
    static const ecs_sched_enum_value modes[] = {{"Walk", 0}, {"Run", 1}};
    static const ecs_sched_member members[] = {ECS_SCHED_MEMBER_ENUM(LuaMode, mode, modes, 2)};
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id mode = ECS_SCHED_COMPONENT(w, LuaMode);
    (void)state;
    assert_int_equal(ecs_sched_describe(w, mode, 1, members), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(w, ecs_sched_spawn(w), mode, NULL), ECS_SCHED_OK);
    load_ok(w, "ecs.system{name = 'run', query = '[inout] LuaMode', run = function(it)\n"
               "  for row in it:rows() do row.LuaMode.mode = 'Run' end\n"
               "end}\n");
    assert_run_fails(w, "LuaMode.mode is an enum (a whole number): string does not fit", 2);
    finish(w);
}

/* ---- reloads that retype a field: refused, naming both types ---- */

/* A script that declares `before`, reloaded as `after`: refused with `why`, version 1 kept. */
static void assert_retyping_refused(const char *before, const char *after, const char *why) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_script *script = load_ok(w, before);
    write_script(after);
    assert_int_equal(ecs_sched_script_reload(w, script), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, why, 0);
    assert_error_has(w, "the values it holds cannot be kept: give the field another name", 0);
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_script_version(script), 1);
    finish(w);
}

static void a_text_field_whose_size_changes_fails_the_reload_naming_both_sizes(void **state) {
    (void)state;
    assert_retyping_refused(
        "ecs.component{name = 'Tag', fields = {{'label', 'chars', 16}}}\n",
        "ecs.component{name = 'Tag', fields = {{'label', 'chars', 8}}}\n",
        "ecs.component 'Tag': field 'label' was chars 16 and is chars 8 now");
}

static void an_array_whose_count_changes_fails_the_reload_naming_both_counts(void **state) {
    (void)state;
    assert_retyping_refused(
        "ecs.component{name = 'Bag', fields = {{'slots', 'i32', count = 4}}}\n",
        "ecs.component{name = 'Bag', fields = {{'slots', 'i32', count = 2}, {'spare', 'i64'}}}\n",
        "ecs.component 'Bag': field 'slots' was i32[4] and is i32[2] now");
}

static void a_nested_field_whose_type_changes_fails_the_reload(void **state) {
    (void)state;
    assert_retyping_refused(
        "ecs.component{name = 'Vec2', fields = {{'x', 'f32'}, {'y', 'f32'}}}\n"
        "ecs.component{name = 'Size2', fields = {{'w', 'f32'}, {'h', 'f32'}}}\n"
        "ecs.component{name = 'Box', fields = {{'at', 'Vec2'}, {'n', 'i32'}}}\n",
        "ecs.component{name = 'Vec2', fields = {{'x', 'f32'}, {'y', 'f32'}}}\n"
        "ecs.component{name = 'Size2', fields = {{'w', 'f32'}, {'h', 'f32'}}}\n"
        "ecs.component{name = 'Box', fields = {{'at', 'Size2'}, {'n', 'i64'}}}\n",
        "ecs.component 'Box': field 'at' was ");
}

static void an_observer_of_a_message_type_is_refused_with_its_line(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    write_script("ecs.message{name = 'Ping'}\n"
                 "ecs.observer{name = 'hear', event = 'add', component = 'Ping', run = function(e) end}\n");
    assert_null(ecs_sched_script_load(w, g_path));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_error_has(w, "observer_add: observer 'hear' watches 'Ping', a message type", 2);
    ecs_sched_clear_error(w);
    assert_null(ecs_sched_script_find(w, g_path));
    finish(w);
}

/* ---- errors, budgets and endings ---- */

static void an_error_object_that_is_no_string_is_named_by_its_type(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    load_ok(w, "ecs.system{name = 'throw', run = function(it) error({code = 7}) end}\n");
    assert_run_fails(w, "(an error object that is a table)", 0);
    next_path();
    write_script("error({code = 7})\n");
    assert_null(ecs_sched_script_load(w, g_path));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "': (an error that is no string)", 0);
    ecs_sched_clear_error(w);
    finish(w);
}

static const char *const LONG_RUN =
    "ecs.component{name = 'Steps', fields = {{'n', 'i32'}}}\n"
    "ecs.init_resource('Steps')\n"
    "ecs.system{name = 'count', writes = {'Steps'}, run = function(it)\n"
    "  local n = 0\n"
    "  for i = 1, 6000000 do n = n + 1 end\n"
    "  ecs.resource('Steps').n = n\n"
    "end}\n";

static void a_budget_below_zero_leaves_runs_unbounded(void **state) {
    ecs_sched_lua_desc desc = {0};
    ecs_sched_world *w;
    (void)state;
    desc.instruction_budget = -1;
    w = world_with_lua(&desc);
    load_ok(w, LONG_RUN);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(resource_i32(w, "Steps"), 6000000);
    finish(w);
    w = world_with_lua(NULL);   /* the default budget: 10 million instructions */
    load_ok(w, LONG_RUN);
    assert_run_fails(w, "exceeded its budget of 10000000 instructions", 0);
    assert_int_equal(resource_i32(w, "Steps"), 0);
    finish(w);
}

static void a_driver_runs_the_endings_it_is_given(void **state) {
    ecs_sched_lua_desc desc = {0};
    ecs_sched_world *w;
    char path[600];
    (void)state;
    desc.extensions = ".script .ecs";
    w = world_with_lua(&desc);
    write_script("ecs.component{name = 'Mana', fields = {{'points', 'i32'}}}\n");
    assert_null(ecs_sched_script_load(w, g_path));   /* a .lua file */
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_NOT_FOUND);
    ecs_sched_clear_error(w);
    snprintf(path, sizeof path, "%s.ecs", g_path);
    write_file(path, "ecs.component{name = 'Mana', fields = {{'points', 'i32'}}}\n");
    assert_non_null(ecs_sched_script_load(w, path));
    assert_true(ecs_sched_component_lookup(w, "Mana") != 0);
    remove(path);
    finish(w);
}

static void an_observer_names_the_terms_it_has(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    load_ok(w, "ecs.component{name = 'Health', fields = {{'hp', 'i32'}, {'regen', 'f32'}}}\n"
               "ecs.observer{name = 'watch', event = 'add', component = 'Health', run = function(e)\n"
               "  local m = e.Mana\n"
               "end}\n");
    ecs_sched_insert(w, ecs_sched_spawn(w), ecs_sched_component_lookup(w, "Health"), NULL);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_SCRIPT);
    assert_error_has(w, "observer 'watch' has no term Mana (a row has .entity and the components of "
                        "its terms)", 3);
    ecs_sched_clear_error(w);
    finish(w);
}

static void a_field_a_type_lacks_is_named_with_the_fields_it_has(void **state) {
    static const char *const cases[] = {"local x = row.Health.mana", "row.Health.mana = 1",
                                        "ecs.spawn{Health = {mana = 1}}"};
    int k;
    (void)state;
    for (k = 0; k < 3; k++) {
        ecs_sched_world *w = world_with_lua(NULL);
        char text[512];
        snprintf(text, sizeof text,
                 "ecs.component{name = 'Health', fields = {{'hp', 'i32'}, {'regen', 'f32'}}}\n"
                 "ecs.system{name = 'heal', query = '[inout] Health', commands = true, run = function(it)\n"
                 "  for row in it:rows() do %s end\n"
                 "end}\n", cases[k]);
        load_ok(w, text);
        assert_int_equal(ecs_sched_insert(w, ecs_sched_spawn(w), ecs_sched_component_lookup(w, "Health"),
                                          NULL), ECS_SCHED_OK);
        assert_run_fails(w, "Health has no field 'mana' (its fields: hp, regen)", 3);
        finish(w);
    }
}

static void an_empty_module_name_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_refused(w, "local m = require('')\n", "require '': a module is named by names and dots", 1);
    finish(w);
}

static void a_script_in_the_working_folder_requires_its_neighbours(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_script *script;
    (void)state;
    write_file("lua_neighbour_module.lua", "return 42\n");
    write_file("lua_neighbour_script.lua", "assert(require('lua_neighbour_module') == 42)\n");
    script = ecs_sched_script_load(w, "lua_neighbour_script.lua");
    if (!script) fail_msg("the script did not load: %s", ecs_sched_last_error(w));
    remove("lua_neighbour_module.lua");
    remove("lua_neighbour_script.lua");
    finish(w);
}

static void a_field_naming_a_type_without_a_description_is_refused(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    ECS_SCHED_COMPONENT(w, LuaGold);
    assert_refused(w, "ecs.component{name = 'Purse', fields = {{'gold', 'LuaGold'}}}\n",
                   "ecs.component 'Purse': field 'gold' has unknown type 'LuaGold'", 1);
    finish(w);
}

typedef struct LuaPair {
    int32_t a, b;
} LuaPair;

static void a_component_c_aligned_otherwise_is_refused_naming_both_alignments(void **state) {
    static const ecs_sched_member pair[] = {ECS_SCHED_MEMBER(LuaPair, a, ECS_SCHED_TYPE_I32),
                                            ECS_SCHED_MEMBER(LuaPair, b, ECS_SCHED_TYPE_I32)};
    ecs_sched_world *w = world_with_lua(NULL);
    (void)state;
    assert_int_equal(ecs_sched_describe(w, ECS_SCHED_COMPONENT(w, LuaPair), 2, pair), ECS_SCHED_OK);
    assert_refused(w, "ecs.component{name = 'LuaPair', fields = {{'ab', 'i64'}}}\n",
                   "it is 8 bytes (alignment 4) there, 8 bytes (alignment 8) here", 1);
    finish(w);
}

static void tables_pass_over_empty_ones_and_lack_an_optional_term_they_do_not_hold(void **state) {
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id position;
    ecs_sched_entity moved, still;
    Position p = {4, 0};
    (void)state;
    describe_motion(w);
    position = ecs_sched_component_lookup(w, "Position");
    still = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_insert(w, still, position, &p), ECS_SCHED_OK);
    moved = spawn_moving(w, 1, 2);
    {   /* a table of Position and Health, emptied */
        ecs_sched_id health = ECS_SCHED_COMPONENT(w, Health);
        ecs_sched_entity e = ecs_sched_spawn(w);
        assert_int_equal(ecs_sched_insert(w, e, position, &p), ECS_SCHED_OK);
        assert_int_equal(ecs_sched_insert(w, e, health, NULL), ECS_SCHED_OK);
        assert_int_equal(ecs_sched_remove(w, e, health), ECS_SCHED_OK);
    }
    load_ok(w, "ecs.system{name = 'mark', query = '[inout] Position, [in] ?Velocity', run = function(it)\n"
               "  local tables = 0\n"
               "  for t in it:tables() do\n"
               "    tables = tables + 1\n"
               "    assert(t.count > 0)\n"
               "    for i = 1, t.count do\n"
               "      t.Position.y[i] = rawget(t, 'Velocity') and t.Velocity.y[i] or -1\n"
               "    end\n"
               "  end\n"
               "  assert(tables == 2, tables)\n"
               "end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_true(position_of(w, moved)->y == 1.0f);
    assert_true(position_of(w, still)->y == -1.0f);
    finish(w);
}

static void a_sparse_term_is_read_through_rows(void **state) {
    static const ecs_sched_member heat[] = {{"degrees", ECS_SCHED_TYPE_F32, 0, 4, 0, NULL, 0}};
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_id id;
    ecs_sched_entity a, b;
    float d1 = 10, d2 = 20;
    (void)state;
    id = ecs_sched_sparse_component_register_type(w, "Heat", sizeof(float), sizeof(float));
    assert_int_equal(ecs_sched_describe(w, id, 1, heat), ECS_SCHED_OK);
    a = ecs_sched_spawn(w);
    b = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_insert(w, a, id, &d1), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(w, b, id, &d2), ECS_SCHED_OK);
    load_ok(w, "ecs.system{name = 'cool', query = '[inout] Heat', run = function(it)\n"
               "  for row in it:rows() do row.Heat.degrees = row.Heat.degrees / 4 end\n"
               "end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_true(*(const float *)ecs_sched_get(w, a, id) == 2.5f);
    assert_true(*(const float *)ecs_sched_get(w, b, id) == 5.0f);
    finish(w);
}

static void a_shared_term_is_read_through_rows(void **state) {
    static const ecs_sched_member config[] = {ECS_SCHED_MEMBER(Config, scale, ECS_SCHED_TYPE_F32)};
    ecs_sched_world *w = world_with_lua(NULL);
    ecs_sched_entity game, a, b;
    Config c = {3.0f};
    (void)state;
    describe_motion(w);
    assert_int_equal(ecs_sched_describe(w, ECS_SCHED_COMPONENT(w, Config), 1, config), ECS_SCHED_OK);
    game = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_set_name(w, game, "Game"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_insert(w, game, ecs_sched_component_lookup(w, "Config"), &c), ECS_SCHED_OK);
    a = spawn_moving(w, 1, 2);
    b = spawn_moving(w, 10, -1);
    load_ok(w, "ecs.system{name = 'scale', query = '[inout] Position, [in] Game:Config',\n"
               "  run = function(it)\n"
               "    for row in it:rows() do row.Position.x = row.Position.x * row.Config.scale end\n"
               "  end}\n");
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_true(position_of(w, a)->x == 3.0f);
    assert_true(position_of(w, b)->x == 30.0f);
    finish(w);
}

static void a_text_field_filled_to_its_last_byte_is_read_whole(void **state) {
    ecs_sched_entity e;
    ecs_sched_world *w = world_with_every(
        "ecs.system{name = 'read', query = '[inout] Every', run = function(it)\n"
        "  for row in it:rows() do row.Every.a = #row.Every.h end\n"
        "end}\n", &e);
    ecs_sched_id every = ecs_sched_component_lookup(w, "Every");
    LuaEvery value;
    (void)state;
    memset(&value, 0, sizeof value);
    memcpy(value.h, "abcdefgh", 8);
    assert_int_equal(ecs_sched_insert(w, e, every, &value), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(((const LuaEvery *)ecs_sched_get(w, e, every))->a, 8);
    finish(w);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_script_s_system_writes_the_fields_its_query_names),
        cmocka_unit_test(a_script_s_system_is_ordered_among_the_others),
        cmocka_unit_test(a_row_gives_its_entity),
        cmocka_unit_test(it_dt_is_the_time_s_delta_in_seconds),
        cmocka_unit_test(a_component_declared_in_lua_has_c_s_layout_and_description),
        cmocka_unit_test(a_component_c_registered_with_the_same_layout_is_reused),
        cmocka_unit_test(a_component_with_another_layout_is_refused_naming_the_field),
        cmocka_unit_test(an_unknown_field_type_is_refused_with_its_line_and_field),
        cmocka_unit_test(a_value_a_field_cannot_hold_fails_the_system),
        cmocka_unit_test(an_observer_hears_its_event_and_writes_the_value),
        cmocka_unit_test(a_removal_s_observer_reads_the_value_and_cannot_write_it),
        cmocka_unit_test(commands_are_refused_at_the_top_level),
        cmocka_unit_test(commands_spawn_insert_remove_and_despawn_at_the_sync_point),
        cmocka_unit_test(lookup_finds_a_named_entity),
        cmocka_unit_test(writing_a_term_the_query_only_reads_fails_the_system),
        cmocka_unit_test(a_lua_error_fails_the_system_with_its_line_and_a_traceback),
        cmocka_unit_test(an_endless_loop_fails_the_system_at_its_budget),
        cmocka_unit_test(each_run_has_the_whole_budget),
        cmocka_unit_test(an_endless_top_level_fails_the_load_at_its_budget),
        cmocka_unit_test(a_row_kept_after_its_run_is_refused),
        cmocka_unit_test(a_term_the_query_does_not_name_is_refused),
        cmocka_unit_test(the_sandbox_leaves_out_files_processes_and_loading),
        cmocka_unit_test(unsafe_libraries_can_be_allowed),
        cmocka_unit_test(each_script_has_its_own_state),
        cmocka_unit_test(print_goes_to_the_world_s_log),
        cmocka_unit_test(a_syntax_error_fails_the_load_with_its_line),
        cmocka_unit_test(a_bad_declaration_fails_the_load_naming_the_key),
        cmocka_unit_test(a_query_mistake_is_refused_with_the_script_s_line),
        cmocka_unit_test(a_reload_changes_what_a_system_does_and_keeps_the_data),
        cmocka_unit_test(a_reload_with_a_syntax_error_keeps_the_version_before),
        cmocka_unit_test(columns_write_every_row_of_every_table),
        cmocka_unit_test(a_table_gives_its_entities_and_its_row_count),
        cmocka_unit_test(a_column_kept_after_its_run_is_refused),
        cmocka_unit_test(writing_a_column_the_query_only_reads_fails_the_system),
        cmocka_unit_test(a_column_index_outside_its_table_is_refused),
        cmocka_unit_test(a_column_converts_bools_integers_and_entities),
        cmocka_unit_test(a_sparse_component_has_columns_too),
        cmocka_unit_test(a_shared_term_s_column_gives_its_one_value_on_every_row),
        cmocka_unit_test(a_column_table_names_what_it_lacks),
        cmocka_unit_test(a_system_records_commands_only_when_it_declares_them),
        cmocka_unit_test(a_script_requires_a_module_of_its_folder_once),
        cmocka_unit_test(a_module_outside_the_script_s_folder_is_refused),
        cmocka_unit_test(two_systems_of_one_script_are_ordered_by_its_lua_state),
        cmocka_unit_test(systems_of_two_scripts_are_not_ambiguous),
        cmocka_unit_test(scripts_run_in_parallel_give_the_single_threaded_result),
        cmocka_unit_test(a_system_reads_and_writes_the_resources_it_declares),
        cmocka_unit_test(init_resource_leaves_a_resource_the_world_has),
        cmocka_unit_test(writing_a_resource_the_system_only_reads_fails_naming_the_line),
        cmocka_unit_test(a_resource_the_system_does_not_declare_is_refused),
        cmocka_unit_test(an_unknown_name_in_reads_refuses_the_load_with_its_line),
        cmocka_unit_test(a_missing_resource_fails_the_system_or_is_nil_when_asked),
        cmocka_unit_test(a_resource_term_of_the_query_counts_as_declared),
        cmocka_unit_test(set_resource_inserts_the_resource_at_the_sync_point),
        cmocka_unit_test(an_observer_reads_and_writes_resources),
        cmocka_unit_test(a_system_reads_each_message_another_sends_once),
        cmocka_unit_test(sending_a_message_type_not_in_sends_fails_the_system),
        cmocka_unit_test(reading_a_message_type_not_in_receives_fails_the_system),
        cmocka_unit_test(a_message_type_in_reads_is_refused_naming_receives),
        cmocka_unit_test(a_message_read_is_read_only),
        cmocka_unit_test(a_system_cannot_both_send_and_receive_a_message_type),
        cmocka_unit_test(elapsed_time_is_the_clock_s_elapsed_seconds),
        cmocka_unit_test(run_if_in_state_runs_the_system_in_that_state_only),
        cmocka_unit_test(a_system_on_enter_runs_when_its_state_is_entered),
        cmocka_unit_test(set_state_queues_the_next_value_and_state_reads_the_current),
        cmocka_unit_test(an_unknown_state_value_fails_the_system_listing_the_values),
        cmocka_unit_test(queuing_a_state_the_system_does_not_write_fails),
        cmocka_unit_test(an_unknown_state_machine_in_run_if_refuses_the_load),
        cmocka_unit_test(parent_and_children_read_the_hierarchy),
        cmocka_unit_test(spawn_with_a_parent_and_set_parent_record_commands),
        cmocka_unit_test(a_fixed_array_field_is_read_and_written_from_index_one),
        cmocka_unit_test(an_array_index_out_of_range_fails_naming_the_bounds),
        cmocka_unit_test(writing_an_array_the_query_only_reads_fails),
        cmocka_unit_test(a_field_of_a_declared_type_is_a_nested_struct),
        cmocka_unit_test(insert_without_a_value_inserts_zeroes),
        cmocka_unit_test(run_if_resource_and_message_conditions_guard_the_system),
        cmocka_unit_test(an_unknown_condition_is_refused_listing_the_conditions),
        cmocka_unit_test(an_observer_sends_messages_and_queues_states),
        cmocka_unit_test(a_reload_that_adds_a_field_keeps_the_values_of_the_others),
        cmocka_unit_test(a_field_a_reload_adds_reads_zero),
        cmocka_unit_test(a_field_a_reload_removes_is_gone),
        cmocka_unit_test(a_field_whose_type_changes_fails_the_reload_naming_it),
        cmocka_unit_test(a_reload_failing_after_its_components_keeps_their_layout_and_values),
        cmocka_unit_test(entities_of_several_tables_and_a_prefab_s_value_are_migrated),
        cmocka_unit_test(a_reload_whose_migration_is_refused_keeps_the_version_before),
        cmocka_unit_test(a_declaration_without_its_name_is_refused),
        cmocka_unit_test(a_name_that_is_no_string_is_refused_naming_its_type),
        cmocka_unit_test(a_key_that_is_no_string_is_refused_naming_its_type),
        cmocka_unit_test(a_component_without_fields_is_refused),
        cmocka_unit_test(a_component_of_more_than_256_fields_is_refused),
        cmocka_unit_test(a_field_that_is_not_a_name_and_a_type_is_refused_naming_its_position),
        cmocka_unit_test(a_chars_field_without_its_size_is_refused),
        cmocka_unit_test(an_array_count_outside_1_to_65536_is_refused),
        cmocka_unit_test(an_array_of_chars_is_refused),
        cmocka_unit_test(a_message_named_like_a_component_is_refused),
        cmocka_unit_test(a_message_type_registered_with_another_layout_is_refused),
        cmocka_unit_test(a_message_type_c_registered_without_a_description_is_described),
        cmocka_unit_test(a_reload_that_changes_a_message_type_s_fields_is_refused),
        cmocka_unit_test(a_reload_that_adds_a_field_in_the_padding_migrates_the_values),
        cmocka_unit_test(a_system_without_its_run_is_refused),
        cmocka_unit_test(an_observer_without_its_run_is_refused),
        cmocka_unit_test(an_observer_of_an_unknown_event_is_refused),
        cmocka_unit_test(an_observer_of_an_unknown_component_is_refused),
        cmocka_unit_test(more_than_eight_names_in_after_are_refused),
        cmocka_unit_test(a_list_of_names_holding_something_else_is_refused),
        cmocka_unit_test(names_given_as_neither_a_name_nor_a_list_are_refused),
        cmocka_unit_test(commands_that_is_no_boolean_is_refused),
        cmocka_unit_test(run_if_that_is_no_table_is_refused),
        cmocka_unit_test(a_run_if_entry_without_a_key_is_refused),
        cmocka_unit_test(more_than_four_run_if_conditions_are_refused),
        cmocka_unit_test(in_state_without_a_machine_and_a_value_is_refused),
        cmocka_unit_test(run_once_is_written_true),
        cmocka_unit_test(on_timer_is_a_positive_number_of_seconds),
        cmocka_unit_test(a_run_if_name_that_is_no_string_is_refused),
        cmocka_unit_test(a_system_with_a_schedule_and_on_enter_is_refused),
        cmocka_unit_test(declaring_in_a_run_fails_the_system),
        cmocka_unit_test(init_resource_in_a_run_fails_the_system),
        cmocka_unit_test(sending_a_component_is_refused_at_the_load),
        cmocka_unit_test(receiving_an_unknown_message_type_is_refused_at_the_load),
        cmocka_unit_test(more_resources_than_a_system_reaches_are_refused),
        cmocka_unit_test(a_resource_named_twice_counts_once),
        cmocka_unit_test(on_message_naming_a_resource_is_refused),
        cmocka_unit_test(resource_changed_naming_a_message_type_is_refused),
        cmocka_unit_test(state_changed_naming_no_machine_is_refused),
        cmocka_unit_test(every_reflected_type_is_written_and_read_back_from_lua),
        cmocka_unit_test(a_value_a_field_cannot_hold_fails_naming_the_field_and_the_value),
        cmocka_unit_test(a_struct_or_array_field_given_another_value_fails_naming_it),
        cmocka_unit_test(a_nested_struct_s_fields_have_columns_of_their_own),
        cmocka_unit_test(unsigned_fields_have_columns_and_text_has_none),
        cmocka_unit_test(a_tag_and_an_optional_term_the_entity_lacks_are_nil),
        cmocka_unit_test(an_iteration_names_what_it_has),
        cmocka_unit_test(a_relationship_term_is_not_read_from_lua),
        cmocka_unit_test(an_observer_of_a_tag_gets_nil_for_it),
        cmocka_unit_test(tostring_of_a_value_prints_its_fields),
        cmocka_unit_test(print_names_the_type_of_what_it_cannot_print),
        cmocka_unit_test(a_command_on_a_stale_entity_fails_the_system_naming_the_entity),
        cmocka_unit_test(a_command_given_the_wrong_values_fails_naming_them),
        cmocka_unit_test(spawn_records_an_entity_of_64_components),
        cmocka_unit_test(spawn_takes_at_most_64_components),
        cmocka_unit_test(a_tag_resource_reads_true),
        cmocka_unit_test(an_unknown_resource_or_message_type_in_a_run_is_named),
        cmocka_unit_test(sending_a_component_fails_the_system),
        cmocka_unit_test(a_message_without_fields_is_counted),
        cmocka_unit_test(an_observer_cannot_read_messages),
        cmocka_unit_test(an_observer_reaches_at_most_32_resources_in_a_run),
        cmocka_unit_test(an_unknown_state_machine_in_a_run_is_named_with_the_machines_there_are),
        cmocka_unit_test(reading_a_state_the_system_does_not_declare_fails),
        cmocka_unit_test(a_state_without_a_value_yet_reads_nil),
        cmocka_unit_test(run_once_runs_the_system_once),
        cmocka_unit_test(on_timer_runs_the_system_once_a_period),
        cmocka_unit_test(state_exists_runs_the_system_once_the_machine_has_a_value),
        cmocka_unit_test(state_changed_runs_the_system_after_a_transition),
        cmocka_unit_test(resource_added_and_changed_guard_the_system),
        cmocka_unit_test(a_script_file_that_does_not_exist_is_refused_naming_it),
        cmocka_unit_test(a_module_that_does_not_exist_or_does_not_parse_fails_the_require),
        cmocka_unit_test(a_module_returning_nothing_requires_as_true),
        cmocka_unit_test(a_module_name_too_long_for_a_path_is_refused),
        cmocka_unit_test(a_component_of_two_fields_of_one_name_is_refused),
        cmocka_unit_test(a_message_type_of_two_fields_of_one_name_is_refused),
        cmocka_unit_test(a_message_type_redeclared_with_another_nested_type_is_refused),
        cmocka_unit_test(a_type_without_a_description_has_no_fields_lua_reaches),
        cmocka_unit_test(the_delta_time_of_a_world_without_clocks_fails_saying_how_to_add_them),
        cmocka_unit_test(a_system_sends_a_message_for_each_of_another_it_receives),
        cmocka_unit_test(on_message_naming_nothing_is_refused),
        cmocka_unit_test(a_dotted_module_name_is_a_path_in_the_script_s_folder),
        cmocka_unit_test(an_enum_field_takes_any_whole_number),
        cmocka_unit_test(an_enum_field_given_no_whole_number_fails_naming_it),
        cmocka_unit_test(a_text_field_whose_size_changes_fails_the_reload_naming_both_sizes),
        cmocka_unit_test(an_array_whose_count_changes_fails_the_reload_naming_both_counts),
        cmocka_unit_test(a_nested_field_whose_type_changes_fails_the_reload),
        cmocka_unit_test(an_observer_of_a_message_type_is_refused_with_its_line),
        cmocka_unit_test(an_error_object_that_is_no_string_is_named_by_its_type),
        cmocka_unit_test(a_budget_below_zero_leaves_runs_unbounded),
        cmocka_unit_test(a_driver_runs_the_endings_it_is_given),
        cmocka_unit_test(an_observer_names_the_terms_it_has),
        cmocka_unit_test(a_field_a_type_lacks_is_named_with_the_fields_it_has),
        cmocka_unit_test(an_empty_module_name_is_refused),
        cmocka_unit_test(a_script_in_the_working_folder_requires_its_neighbours),
        cmocka_unit_test(a_field_naming_a_type_without_a_description_is_refused),
        cmocka_unit_test(a_component_c_aligned_otherwise_is_refused_naming_both_alignments),
        cmocka_unit_test(tables_pass_over_empty_ones_and_lack_an_optional_term_they_do_not_hold),
        cmocka_unit_test(a_sparse_term_is_read_through_rows),
        cmocka_unit_test(a_shared_term_is_read_through_rows),
        cmocka_unit_test(a_text_field_filled_to_its_last_byte_is_read_whole),
    };
    if (argc > 0) g_program = argv[0];
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
