/* The Lua driver (ECS_SCHED_LUA): components, systems and observers declared by a Lua script,
   what a run reaches (its terms' fields, commands, the time), the sandbox, the budget, the
   errors a script's author sees (with the file and line), and reloads. Built against LuaJIT
   2.1 and against Lua 5.4 (Makefile: LUA_RUNS). The scripts are written next to the program. */
#define ECS_SCHED_IMPLEMENTATION
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
    /* (a script's system records commands: a sync point follows it) */
    assert_string_equal(plan_of(w, UPDATE), "input think apply_deferred render");
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
               "ecs.system{name = 'churn', query = 'Health', run = function(it)\n"
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
               "ecs.system{name = 'find', run = function(it)\n"
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
    load_ok(w, "assert(io == nil and require == nil and dofile == nil and loadfile == nil)\n"
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
        cmocka_unit_test(a_reload_that_adds_a_field_keeps_the_values_of_the_others),
        cmocka_unit_test(a_field_a_reload_adds_reads_zero),
        cmocka_unit_test(a_field_a_reload_removes_is_gone),
        cmocka_unit_test(a_field_whose_type_changes_fails_the_reload_naming_it),
        cmocka_unit_test(a_reload_failing_after_its_components_keeps_their_layout_and_values),
        cmocka_unit_test(entities_of_several_tables_and_a_prefab_s_value_are_migrated),
        cmocka_unit_test(a_reload_whose_migration_is_refused_keeps_the_version_before),
    };
    if (argc > 0) g_program = argv[0];
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
