/* script_lua: the Lua driver, when ECS_SCHED_LUA is defined: components, systems and
   observers written in Lua (LuaJIT 2.1 or Lua 5.4), each script in a Lua state of its own,
   sandboxed, each run held to an instruction budget. */
#pragma once
#include "script_lua_columns.h"

#ifdef ECS_SCHED_LUA

/* The driver's settings; zero-valued fields mean the defaults. */
typedef struct ecs_sched_lua_desc {
    int64_t instruction_budget;    /* Lua instructions one run of a system or observer (and a
                                      script's top level) may take: 0, 10 million; < 0, none */
    bool allow_unsafe_libraries;   /* every standard library (io, os, load, require...) and
                                      precompiled chunks; default: the sandbox (see SCRIPTS) */
    const char *extensions;        /* the endings it runs; default ".lua" (copied) */
} ecs_sched_lua_desc;

/* The driver, to give a world with ecs_sched_script_driver_add (desc may be NULL: the
   defaults). Its user_data holds the settings; the world frees it with the driver (destroy).
   A driver that is never added is freed by calling its destroy(user_data). */
ECS_SCHED_API ecs_sched_script_driver ecs_sched_lua_script_driver(const ecs_sched_lua_desc *desc);

#endif /* ECS_SCHED_LUA */

/*@@ implementation @@*/
/* script_lua: a version is a Lua state that ran the script's top level, and the declarations
   it made, copied out of Lua (declare reads them, as often as asked); what its runs hand to
   Lua is script_lua_run.h's. */

#ifdef ECS_SCHED_LUA

/* ---- declarations (the top level only) ---- */

static void ecs_sched__lua_check_loading(lua_State *L, ecs_sched__lua_version *v,
                                         const char *function) {
    if (!v->loading) {
        luaL_error(L, "%s declares: call it at the script's top level, not in a run", function);
    }
}

/* Refuses the keys of the table at 1 that are not in `keys` (a typo is a mistake). */
static void ecs_sched__lua_check_keys(lua_State *L, const char *what, const char *name,
                                      const char *const *keys, const char *list) {
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        int k;
        bool known = false;
        lua_pop(L, 1);
        for (k = 0; lua_type(L, -1) == LUA_TSTRING && keys[k]; k++) {
            if (strcmp(keys[k], lua_tostring(L, -1)) == 0) known = true;
        }
        if (!known) {
            luaL_error(L, "%s '%s': unknown key '%s' (its keys: %s)", what, name,
                       lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, -1),
                       list);
        }
    }
}

/* The string field `key` of the table at 1, or NULL when absent (required: an error). */
static const char *ecs_sched__lua_string_field(lua_State *L, const char *what, const char *key,
                                               bool required) {
    const char *text;
    lua_getfield(L, 1, key);
    if (lua_isnil(L, -1) && !required) {
        lua_pop(L, 1);
        return NULL;
    }
    if (lua_type(L, -1) != LUA_TSTRING) {
        luaL_error(L, "%s: give '%s' as a string%s%s", what, key,
                   lua_isnil(L, -1) ? "" : ", not a ", lua_isnil(L, -1) ? "" : luaL_typename(L, -1));
    }
    text = lua_tostring(L, -1);
    lua_pop(L, 1);   /* the table holds the string */
    return text;
}

/* ---- components ---- */

typedef struct ecs_sched__lua_layout {
    ecs_sched_member members[ECS_SCHED__MAX_FIELDS];
    int32_t count;
    size_t size, alignment;
} ecs_sched__lua_layout;

/* A field whose type is no number's: a described type's name makes it a nested struct. */
static void ecs_sched__lua_nested_type(lua_State *L, const char *name, ecs_sched_member *m,
                                       const char *type, size_t *size, size_t *align) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched_id id = ecs_sched_component_lookup(v->world, type);
    if (!id || !ecs_sched_is_described(v->world, id)) {
        luaL_error(L, "ecs.component '%s': field '%s' has unknown type '%s' (the types: i8, "
                   "i16, i32, i64, u8, u16, u32, u64, f32, f64, bool, entity, chars N, or a "
                   "component declared before, for a nested struct)", name, m->name, type);
    }
    m->kind = ECS_SCHED_TYPE_STRUCT;
    m->type = id;
    *size = v->world->components[id].size;
    *align = v->world->components[id].alignment;
}

/* The elements of a field ({"slots", "i32", count = 4}: an array of 4; 1 without count).
   The field's table is at -4 (its name, type and third entry above it). */
static size_t ecs_sched__lua_array_count(lua_State *L, const char *name,
                                         const ecs_sched_member *m) {
    int64_t count = 1;
    lua_getfield(L, -4, "count");
    if (!lua_isnil(L, -1) && (!ecs_sched__lua_to_int(L, -1, &count) || count < 1 ||
                              count > 65536 || m->kind == ECS_SCHED_TYPE_CHARS)) {
        luaL_error(L, "ecs.component '%s': field '%s': %s", name, m->name,
                   m->kind == ECS_SCHED_TYPE_CHARS
                       ? "an array of chars cannot be described (give each text a field)"
                       : "count is the number of elements of an array, 1 to 65536");
    }
    lua_pop(L, 1);
    return (size_t)count;
}

/* Reads fields = { {"hp", "i32"}, {"label", "chars", 16}, {"slots", "i32", count = 4},
   {"at", "Vec2"} } into a C layout. */
static void ecs_sched__lua_read_layout(lua_State *L, const char *name,
                                       ecs_sched__lua_layout *layout) {
    int64_t n = 0, i;
    size_t end = 0;
    lua_getfield(L, 1, "fields");
    if (!lua_istable(L, -1) || (n = ecs_sched__lua_rawlen(L, -1)) < 1) {
        luaL_error(L, "ecs.component '%s': give its fields, fields = { {\"hp\", \"i32\"}, ... }",
                   name);
    }
    if (n > ECS_SCHED__MAX_FIELDS) luaL_error(L, "ecs.component '%s': at most 256 fields", name);
    layout->alignment = 1;
    for (i = 1; i <= n; i++) {
        ecs_sched_member *m = &layout->members[i - 1];
        const char *type;
        size_t k, align = 1, size = 0;
        int64_t chars = 0;
        lua_rawgeti(L, -1, (int)i);
        lua_rawgeti(L, -1, 1);
        lua_rawgeti(L, -2, 2);
        lua_rawgeti(L, -3, 3);
        if (lua_type(L, -3) != LUA_TSTRING || lua_type(L, -2) != LUA_TSTRING) {
            luaL_error(L, "ecs.component '%s': field %d is {\"name\", \"type\"}", name, (int)i);
        }
        memset(m, 0, sizeof *m);
        m->name = lua_tostring(L, -3);   /* held by the table until the description copies it */
        type = lua_tostring(L, -2);
        for (k = 0; k < sizeof ecs_sched__lua_type_names / sizeof *ecs_sched__lua_type_names; k++) {
            if (strcmp(type, ecs_sched__lua_type_names[k]) == 0) m->kind = ecs_sched__lua_type_kinds[k];
        }
        if (m->kind == ECS_SCHED_TYPE_NONE) ecs_sched__lua_nested_type(L, name, m, type, &size, &align);
        if (m->kind == ECS_SCHED_TYPE_STRUCT) {
            /* (size and alignment are the described type's) */
        } else if (m->kind == ECS_SCHED_TYPE_CHARS) {
            if (!ecs_sched__lua_to_int(L, -1, &chars) || chars < 1 || chars > 65536) {
                luaL_error(L, "ecs.component '%s': field '%s' is chars: give its size in bytes, "
                           "{\"%s\", \"chars\", 16}", name, m->name, m->name);
            }
            size = (size_t)chars;
            align = 1;
        } else {
            size = align = ecs_sched__scalar_size(m->kind);
        }
        size *= ecs_sched__lua_array_count(L, name, m);
        m->offset = (end + align - 1) / align * align;
        m->size = size;
        end = m->offset + size;
        if (align > layout->alignment) layout->alignment = align;
        lua_pop(L, 4);
    }
    lua_pop(L, 1);   /* the names stay alive in the table at 1 */
    layout->count = (int32_t)n;
    layout->size = (end + layout->alignment - 1) / layout->alignment * layout->alignment;
}

/* How a registered component's layout differs from `layout`, written into out; false when
   they agree. */
static bool ecs_sched__lua_layout_differs(const ecs_sched_world *w, ecs_sched_id id,
                                          const ecs_sched__lua_layout *layout, char *out,
                                          size_t capacity) {
    const ecs_sched__description *d = ecs_sched__description_of(w, id);
    int32_t i;
    if (w->components[id].size != layout->size ||
        w->components[id].alignment != layout->alignment) {
        snprintf(out, capacity, "it is %u bytes (alignment %u) there, %u bytes (alignment %u) "
                 "here", (unsigned)w->components[id].size, (unsigned)w->components[id].alignment,
                 (unsigned)layout->size, (unsigned)layout->alignment);
        return true;
    }
    for (i = 0; d && i < d->count && i < layout->count; i++) {
        const ecs_sched__field_desc *f = &d->fields[i];
        const ecs_sched_member *m = &layout->members[i];
        if (strcmp(f->name, m->name) != 0 || f->kind != m->kind || f->offset != m->offset ||
            (size_t)f->element * (size_t)f->count != m->size ||
            (f->kind == ECS_SCHED_TYPE_STRUCT && f->type != m->type)) {
            snprintf(out, capacity, "field %d is '%s' (%s, %u bytes at offset %u) there, '%s' "
                     "(%s, %u bytes at offset %u) here", (int)i + 1, f->name,
                     ecs_sched__field_kind_names[f->kind], (unsigned)(f->element * (uint32_t)f->count),
                     (unsigned)f->offset, m->name, ecs_sched__field_kind_names[m->kind],
                     (unsigned)m->size, (unsigned)m->offset);
            return true;
        }
    }
    if (d && d->count != layout->count) {
        snprintf(out, capacity, "it has %d fields there, %d here", (int)d->count,
                 (int)layout->count);
        return true;
    }
    return false;
}

/* A script's component whose layout changes: migrated when the version is committed, once
   nothing of the reload can fail any more. */
typedef struct ecs_sched__lua_migration {
    ecs_sched_id id;
    int line;                       /* of its ecs.component */
    ecs_sched__lua_layout layout;   /* member names: copies */
} ecs_sched__lua_migration;

static ecs_sched__lua_migration *ecs_sched__lua_migrations(const ecs_sched__lua_version *v) {
    return (ecs_sched__lua_migration *)v->migrations;
}

static void ecs_sched__lua_migrations_free(ecs_sched__lua_version *v) {
    ecs_sched__lua_migration *all = ecs_sched__lua_migrations(v);
    int32_t i, k;
    for (i = 0; i < v->migration_count; i++) {
        for (k = 0; k < all[i].layout.count; k++) {
            ecs_sched__free(v->env, (void *)(uintptr_t)all[i].layout.members[k].name);
        }
    }
    ecs_sched__free(v->env, all);
}

static int ecs_sched__lua_line(lua_State *L);

/* Keeps component id's new layout (`differs`: how it differs), to migrate it at commit;
   refuses a field that keeps its name and changes its type (its values could not be kept). */
static void ecs_sched__lua_plan_migration(lua_State *L, ecs_sched__lua_version *v, ecs_sched_id id,
                                          const char *name, const ecs_sched__lua_layout *layout,
                                          const char *differs) {
    ecs_sched__lua_migration *m, *all = ecs_sched__lua_migrations(v);
    char why[256];
    int32_t k;
    if (!v->world->components[id].scripted) {
        luaL_error(L, "ecs.component '%s': C code registered a component of this name with "
                   "another layout (%s), which a script cannot change: keep its fields, or "
                   "give the script's component another name", name, differs);
    }
    if (ecs_sched__member_retyped(v->world, id, layout->count, layout->members, why, sizeof why)) {
        luaL_error(L, "ecs.component '%s': %s; the values it holds cannot be kept: give the "
                   "field another name (its values start at zero)", name, why);
    }
    if (!ECS_SCHED__GROW(v->env, all, &v->migration_capacity, (uint32_t)v->migration_count + 1)) {
        luaL_error(L, "out of memory declaring component '%s'", name);
    }
    v->migrations = all;
    m = &all[v->migration_count];
    m->id = id;
    m->line = ecs_sched__lua_line(L);
    m->layout = *layout;
    for (k = 0; k < layout->count; k++) {
        if (!(m->layout.members[k].name = ecs_sched__strdup(v->env, layout->members[k].name))) {
            while (k-- > 0) ecs_sched__free(v->env, (void *)(uintptr_t)m->layout.members[k].name);
            luaL_error(L, "out of memory declaring component '%s'", name);
        }
    }
    v->migration_count++;
}

/* ecs.component{ name = "Health", fields = { {"hp", "i32"}, ... } } -> its name */
static int ecs_sched__lua_component(lua_State *L) {
    static const char *const keys[] = {"name", "fields", NULL};
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_layout *layout;
    ecs_sched_component_desc desc;
    const char *name;
    char why[256];
    ecs_sched_id id;
    ecs_sched__lua_check_loading(L, v, "ecs.component");
    luaL_checktype(L, 1, LUA_TTABLE);
    name = ecs_sched__lua_string_field(L, "ecs.component", "name", true);
    ecs_sched__lua_check_keys(L, "ecs.component", name, keys, "name, fields");
    layout = (ecs_sched__lua_layout *)lua_newuserdata(L, sizeof *layout);
    ecs_sched__lua_read_layout(L, name, layout);
    id = ecs_sched_component_lookup(v->world, name);
    if (id && ecs_sched__lua_layout_differs(v->world, id, layout, why, sizeof why)) {
        ecs_sched__lua_plan_migration(L, v, id, name, layout, why);
        lua_pushstring(L, name);
        return 1;
    }
    if (id && ecs_sched_is_described(v->world, id)) {
        lua_pushstring(L, name);
        return 1;
    }
    memset(&desc, 0, sizeof desc);
    desc.name = name;
    desc.size = layout->size;
    desc.alignment = layout->alignment;
    desc.scripted = true;
    if (!id) id = ecs_sched_component_register(v->world, &desc);
    if (!id || ecs_sched_describe(v->world, id, layout->count, layout->members) != ECS_SCHED_OK) {
        return luaL_error(L, "ecs.component '%s': %s", name, ecs_sched_last_error(v->world));
    }
    lua_pushstring(L, name);
    return 1;
}

/* ecs.message{ name = "Hit", fields = { {"amount", "i32"} } } -> its name: a message type
   (without fields: a message that carries nothing) */
static int ecs_sched__lua_message(lua_State *L) {
    static const char *const keys[] = {"name", "fields", NULL};
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_layout *layout;
    const char *name;
    char why[256];
    ecs_sched_id id;
    ecs_sched__lua_check_loading(L, v, "ecs.message");
    luaL_checktype(L, 1, LUA_TTABLE);
    name = ecs_sched__lua_string_field(L, "ecs.message", "name", true);
    ecs_sched__lua_check_keys(L, "ecs.message", name, keys, "name, fields");
    layout = (ecs_sched__lua_layout *)lua_newuserdata(L, sizeof *layout);
    memset(layout, 0, sizeof *layout);
    layout->alignment = 1;
    lua_getfield(L, 1, "fields");
    if (!lua_isnil(L, -1)) ecs_sched__lua_read_layout(L, name, layout);
    lua_pop(L, 1);
    id = ecs_sched_component_lookup(v->world, name);
    if (id && !ecs_sched_is_message(v->world, id)) {
        return luaL_error(L, "ecs.message '%s': a component of this name is registered; a "
                          "message type needs a name of its own", name);
    }
    if (id && ecs_sched__lua_layout_differs(v->world, id, layout, why, sizeof why)) {
        return luaL_error(L, "ecs.message '%s': a message type of this name is registered "
                          "already with another layout: %s. Keep its fields, or give it "
                          "another name", name, why);
    }
    if (!id) id = ecs_sched_message_register_type(v->world, name, layout->size, layout->alignment);
    if (!id || (layout->count && !ecs_sched_is_described(v->world, id) &&
                ecs_sched_describe(v->world, id, layout->count, layout->members) != ECS_SCHED_OK)) {
        return luaL_error(L, "ecs.message '%s': %s", name, ecs_sched_last_error(v->world));
    }
    lua_pushstring(L, name);
    return 1;
}

/* ---- systems and observers ---- */

static ecs_sched__lua_decl *ecs_sched__lua_decl_new(lua_State *L, ecs_sched__lua_version *v) {
    ecs_sched__lua_decl *decl;
    if (!ECS_SCHED__GROW(v->env, v->decls, &v->decl_capacity, (uint32_t)v->decl_count + 1)) {
        luaL_error(L, "out of memory declaring a system");
    }
    decl = &v->decls[v->decl_count++];
    memset(decl, 0, sizeof *decl);
    decl->function = LUA_NOREF;
    return decl;
}

static char *ecs_sched__lua_copy(lua_State *L, ecs_sched__lua_version *v, const char *text) {
    char *copy;
    if (!text) return NULL;
    if (!(copy = ecs_sched__strdup(v->env, text))) luaL_error(L, "out of memory declaring a system");
    return copy;
}

/* The line of the Lua code that called the running C function. */
static int ecs_sched__lua_line(lua_State *L) {
    lua_Debug ar;
    return lua_getstack(L, 1, &ar) && lua_getinfo(L, "l", &ar) ? ar.currentline : 0;
}

/* The run function (field "run") of the table at 1, into the registry. */
static void ecs_sched__lua_take_run(lua_State *L, ecs_sched__lua_decl *decl, const char *what) {
    lua_getfield(L, 1, "run");
    if (!lua_isfunction(L, -1)) {
        luaL_error(L, "%s '%s': give its run, run = function(%s) ... end", what, decl->name,
                   decl->observer ? "e" : "it");
    }
    decl->function = luaL_ref(L, LUA_REGISTRYINDEX);
}

/* after = "a" or after = {"a", "b"} */
static void ecs_sched__lua_take_refs(lua_State *L, ecs_sched__lua_version *v,
                                     ecs_sched__lua_decl *decl, const char *key, int which) {
    int64_t i, n;
    lua_getfield(L, 1, key);
    if (lua_type(L, -1) == LUA_TSTRING) {
        decl->refs[which][0] = ecs_sched__lua_copy(L, v, lua_tostring(L, -1));
    } else if (lua_istable(L, -1)) {
        n = ecs_sched__lua_rawlen(L, -1);
        if (n > ECS_SCHED_MAX_REFS) {
            luaL_error(L, "ecs.system '%s': at most %d names in %s", decl->name,
                       ECS_SCHED_MAX_REFS, key);
        }
        for (i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, (int)i);
            if (lua_type(L, -1) != LUA_TSTRING) {
                luaL_error(L, "ecs.system '%s': %s holds names (strings)", decl->name, key);
            }
            decl->refs[which][i - 1] = ecs_sched__lua_copy(L, v, lua_tostring(L, -1));
            lua_pop(L, 1);
        }
    } else if (!lua_isnil(L, -1)) {
        luaL_error(L, "ecs.system '%s': give %s as a name or a list of names", decl->name, key);
    }
    lua_pop(L, 1);
}

/* A boolean field of the declaration table at 1 (absent: false). */
static bool ecs_sched__lua_bool_field(lua_State *L, const char *function, const char *name,
                                      const char *key) {
    bool value;
    lua_getfield(L, 1, key);
    if (!lua_isnil(L, -1) && !lua_isboolean(L, -1)) {
        luaL_error(L, "%s '%s': %s is true or false, not a %s", function, name, key,
                   luaL_typename(L, -1));
    }
    value = lua_toboolean(L, -1) != 0;
    lua_pop(L, 1);
    return value;
}

/* The conditions a Lua system's run_if names, by key; in_state takes {machine, value}, on_timer
   seconds, run_once true, the others a name. */
static const char *const ecs_sched__lua_condition_kinds[] = {
    "in_state", "state_exists", "state_changed", "resource_exists", "resource_added",
    "resource_changed", "on_message", "run_once", "on_timer", NULL};
enum { ECS_SCHED__LUA_IN_STATE, ECS_SCHED__LUA_STATE_EXISTS, ECS_SCHED__LUA_STATE_CHANGED,
       ECS_SCHED__LUA_RESOURCE_EXISTS, ECS_SCHED__LUA_RESOURCE_ADDED,
       ECS_SCHED__LUA_RESOURCE_CHANGED, ECS_SCHED__LUA_ON_MESSAGE, ECS_SCHED__LUA_RUN_ONCE,
       ECS_SCHED__LUA_ON_TIMER };

/* {"Game", "Playing"} at the top of the stack, into names[0] and names[1]. */
static void ecs_sched__lua_take_pair(lua_State *L, ecs_sched__lua_version *v,
                                     const ecs_sched__lua_decl *decl, const char *key,
                                     char **names) {
    int i;
    for (i = 0; i < 2 && lua_istable(L, -1); i++) {
        lua_rawgeti(L, -1, i + 1);
        if (lua_type(L, -1) == LUA_TSTRING) names[i] = ecs_sched__lua_copy(L, v, lua_tostring(L, -1));
        lua_pop(L, 1);
    }
    if (!names[0] || !names[1]) {
        luaL_error(L, "ecs.system '%s': give %s as a state machine and one of its values, "
                   "%s = {\"Game\", \"Playing\"}", decl->name, key, key);
    }
}

/* One run_if entry: the key at -2, what it takes at -1. */
static void ecs_sched__lua_take_condition(lua_State *L, ecs_sched__lua_version *v,
                                          ecs_sched__lua_decl *decl) {
    ecs_sched__lua_condition *c;
    const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
    int k;
    for (k = 0; ecs_sched__lua_condition_kinds[k] && strcmp(ecs_sched__lua_condition_kinds[k], key); k++) {}
    if (!ecs_sched__lua_condition_kinds[k]) {
        luaL_error(L, "ecs.system '%s': run_if has no condition '%s' (its conditions: in_state, "
                   "state_exists, state_changed, resource_exists, resource_added, "
                   "resource_changed, on_message, run_once, on_timer)", decl->name,
                   lua_type(L, -2) == LUA_TSTRING ? key : luaL_typename(L, -2));
    }
    if (decl->run_if_count == ECS_SCHED_MAX_CONDITIONS) {
        luaL_error(L, "ecs.system '%s': at most %d conditions in run_if", decl->name,
                   ECS_SCHED_MAX_CONDITIONS);
    }
    c = &decl->run_if[decl->run_if_count++];
    c->kind = k;
    if (k == ECS_SCHED__LUA_IN_STATE) {
        ecs_sched__lua_take_pair(L, v, decl, "in_state", c->names);
    } else if (k == ECS_SCHED__LUA_RUN_ONCE) {
        if (lua_toboolean(L, -1) != 1 || !lua_isboolean(L, -1)) {
            luaL_error(L, "ecs.system '%s': write run_once = true", decl->name);
        }
    } else if (k == ECS_SCHED__LUA_ON_TIMER) {
        if (lua_type(L, -1) != LUA_TNUMBER || !(lua_tonumber(L, -1) > 0)) {
            luaL_error(L, "ecs.system '%s': give on_timer as its period in seconds (> 0)",
                       decl->name);
        }
        c->seconds = (double)lua_tonumber(L, -1);
    } else if (lua_type(L, -1) == LUA_TSTRING) {
        c->names[0] = ecs_sched__lua_copy(L, v, lua_tostring(L, -1));
    } else {
        luaL_error(L, "ecs.system '%s': give run_if's %s as a name (a string)", decl->name, key);
    }
}

/* What a system declares beyond its query and order: the resources, states and message types
   it reaches (reads, writes, sends, receives), its run_if, and on_enter / on_exit for a
   state's schedules. */
static void ecs_sched__lua_take_access(lua_State *L, ecs_sched__lua_version *v,
                                       ecs_sched__lua_decl *decl, bool has_schedule) {
    int e;
    ecs_sched__lua_take_refs(L, v, decl, "reads", ECS_SCHED__LUA_READS);
    ecs_sched__lua_take_refs(L, v, decl, "writes", ECS_SCHED__LUA_WRITES);
    ecs_sched__lua_take_refs(L, v, decl, "sends", ECS_SCHED__LUA_SENDS);
    ecs_sched__lua_take_refs(L, v, decl, "receives", ECS_SCHED__LUA_RECEIVES);
    lua_getfield(L, 1, "run_if");
    if (lua_istable(L, -1)) {
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            ecs_sched__lua_take_condition(L, v, decl);
            lua_pop(L, 1);
        }
    } else if (!lua_isnil(L, -1)) {
        luaL_error(L, "ecs.system '%s': give run_if as a table of conditions, run_if = "
                   "{in_state = {\"Game\", \"Playing\"}}", decl->name);
    }
    lua_pop(L, 1);
    for (e = 0; e < 2; e++) {
        const char *key = e ? "on_exit" : "on_enter";
        lua_getfield(L, 1, key);
        if (!lua_isnil(L, -1)) {
            if (has_schedule || decl->state_schedule[0]) {
                luaL_error(L, "ecs.system '%s': give one of schedule, on_enter and on_exit",
                           decl->name);
            }
            ecs_sched__lua_take_pair(L, v, decl, key, decl->state_schedule);
            decl->on_exit = e == 1;
        }
        lua_pop(L, 1);
    }
}

/* ecs.system{ name =, schedule = "Update", query =, after =, before =, in_set =, commands =,
               reads =, writes =, sends =, receives =, run_if =, on_enter =, on_exit =, run = } */
static int ecs_sched__lua_system(lua_State *L) {
    static const char *const keys[] = {"name", "schedule", "query", "after", "before",
                                       "in_set", "commands", "run", "reads", "writes", "sends",
                                       "receives", "run_if", "on_enter", "on_exit", NULL};
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_decl *decl;
    const char *name, *schedule, *query;
    ecs_sched__lua_check_loading(L, v, "ecs.system");
    luaL_checktype(L, 1, LUA_TTABLE);
    name = ecs_sched__lua_string_field(L, "ecs.system", "name", true);
    ecs_sched__lua_check_keys(L, "ecs.system", name, keys,
                              "name, schedule, query, after, before, in_set, commands, run, "
                              "reads, writes, sends, receives, run_if, on_enter, on_exit");
    schedule = ecs_sched__lua_string_field(L, "ecs.system", "schedule", false);
    query = ecs_sched__lua_string_field(L, "ecs.system", "query", false);
    decl = ecs_sched__lua_decl_new(L, v);
    decl->line = ecs_sched__lua_line(L);
    decl->name = ecs_sched__lua_copy(L, v, name);
    decl->schedule = ecs_sched__lua_copy(L, v, schedule ? schedule : "Update");
    decl->query = ecs_sched__lua_copy(L, v, query);
    decl->commands = ecs_sched__lua_bool_field(L, "ecs.system", name, "commands");
    ecs_sched__lua_take_refs(L, v, decl, "after", ECS_SCHED__LUA_AFTER);
    ecs_sched__lua_take_refs(L, v, decl, "before", ECS_SCHED__LUA_BEFORE);
    ecs_sched__lua_take_refs(L, v, decl, "in_set", ECS_SCHED__LUA_IN_SET);
    ecs_sched__lua_take_access(L, v, decl, schedule != NULL);
    ecs_sched__lua_take_run(L, decl, "ecs.system");
    return 0;
}

/* ecs.observer{ name =, event = "add" | "insert" | "remove" | "set", component =, run = } */
static int ecs_sched__lua_observer(lua_State *L) {
    static const char *const keys[] = {"name", "event", "component", "run", NULL};
    static const char *const events[] = {"add", "insert", "remove", "set"};
    static const ecs_sched_observer_event kinds[] = {ECS_SCHED_ON_ADD, ECS_SCHED_ON_INSERT,
                                                      ECS_SCHED_ON_REMOVE, ECS_SCHED_ON_SET};
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_decl *decl;
    const char *name, *event, *component;
    int k;
    ecs_sched__lua_check_loading(L, v, "ecs.observer");
    luaL_checktype(L, 1, LUA_TTABLE);
    name = ecs_sched__lua_string_field(L, "ecs.observer", "name", true);
    ecs_sched__lua_check_keys(L, "ecs.observer", name, keys, "name, event, component, run");
    event = ecs_sched__lua_string_field(L, "ecs.observer", "event", true);
    component = ecs_sched__lua_string_field(L, "ecs.observer", "component", true);
    for (k = 0; k < 4 && strcmp(events[k], event) != 0; k++) {}
    if (k == 4) {
        return luaL_error(L, "ecs.observer '%s': unknown event '%s' (add, insert, remove or set)",
                          name, event);
    }
    decl = ecs_sched__lua_decl_new(L, v);
    decl->observer = true;
    decl->line = ecs_sched__lua_line(L);
    decl->event = kinds[k];
    decl->name = ecs_sched__lua_copy(L, v, name);
    decl->component = ecs_sched__lua_copy(L, v, component);
    ecs_sched__lua_take_run(L, decl, "ecs.observer");
    return 0;
}

/* ---- the state ---- */

#if LUA_VERSION_NUM >= 502
static void *ecs_sched__lua_alloc(void *user_data, void *ptr, size_t old_size, size_t size) {
    ecs_sched__env *env = (ecs_sched__env *)user_data;
    (void)old_size;
    if (size == 0) {
        ecs_sched__free(env, ptr);
        return NULL;
    }
    return ecs_sched__realloc(env, ptr, size);
}
#endif

/* The safe part of the standard library, with print going to the world's log. */
static void ecs_sched__lua_sandbox(lua_State *L) {
    static const char *const removed[] = {"dofile", "loadfile", "load", "loadstring", "require",
                                          "module", "collectgarbage", "getfenv", "setfenv",
                                          "newproxy", "jit", NULL};
    int i;
    ecs_sched__lua_open_library(L, "_G", luaopen_base);
    ecs_sched__lua_open_library(L, LUA_STRLIBNAME, luaopen_string);
    ecs_sched__lua_open_library(L, LUA_TABLIBNAME, luaopen_table);
    ecs_sched__lua_open_library(L, LUA_MATHLIBNAME, luaopen_math);
    ecs_sched__lua_open_library(L, LUA_OSLIBNAME, luaopen_os);
#if LUA_VERSION_NUM < 502
    ecs_sched__lua_open_library(L, LUA_JITLIBNAME, luaopen_jit);   /* turns the compiler on */
#endif
    ecs_sched__lua_push_globals(L);
    for (i = 0; removed[i]; i++) {
        lua_pushnil(L);
        lua_setfield(L, -2, removed[i]);
    }
    lua_getfield(L, -1, "os");   /* of os, only the clocks */
    lua_createtable(L, 0, 2);
    lua_getfield(L, -2, "clock");
    lua_setfield(L, -2, "clock");
    lua_getfield(L, -2, "time");
    lua_setfield(L, -2, "time");
    lua_setfield(L, -3, "os");
    lua_pop(L, 2);
}

static char *ecs_sched__lua_read_file(ecs_sched__env *env, const char *path, size_t *size,
                                      char *why, size_t capacity);

/* A module's name is a dotted path of names (ai.steering): nothing that climbs out of the
   script's folder or starts elsewhere. */
static bool ecs_sched__lua_module_name_ok(const char *name) {
    const char *p;
    bool after_dot = true;
    if (!*name) return false;
    for (p = name; *p; p++) {
        if (*p == '.') {
            if (after_dot) return false;   /* "..", a leading or doubled dot */
            after_dot = true;
        } else if (isalnum((unsigned char)*p) || *p == '_') {
            after_dot = false;
        } else {
            return false;
        }
    }
    return !after_dot;
}

/* The sandbox's require: require("ai.steering") runs <the script's folder>/ai/steering.lua
   once per Lua state (as text, never bytecode) and returns what it returned (true for
   nothing); a name that leaves the folder is refused. */
static int ecs_sched__lua_require(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    const char *name = luaL_checkstring(L, 1), *slash = strrchr(v->path, '/');
    char path[1024], chunk[1100], why[256], *text;
    size_t size = 0, at, k;
    int status;
    if (!ecs_sched__lua_module_name_ok(name)) {
        return luaL_error(L, "require '%s': a module is named by names and dots (ai.steering), "
                          "found in the script's folder", name);
    }
    lua_getfield(L, LUA_REGISTRYINDEX, "ecs_sched.modules");
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, "ecs_sched.modules");
    }
    lua_getfield(L, -1, name);
    if (!lua_isnil(L, -1)) return 1;
    lua_pop(L, 1);
    at = slash ? (size_t)(slash - v->path) + 1 : 0;
    if (at + strlen(name) + 5 > sizeof path) return luaL_error(L, "require '%s': path too long", name);
    memcpy(path, v->path, at);
    for (k = 0; name[k]; k++) path[at + k] = name[k] == '.' ? '/' : name[k];
    memcpy(path + at + k, ".lua", 5);
    if (!(text = ecs_sched__lua_read_file(v->env, path, &size, why, sizeof why))) {
        return luaL_error(L, "require '%s': %s: %s", name, path, why);
    }
    snprintf(chunk, sizeof chunk, "@%s", path);
    status = luaL_loadbufferx(L, text, size, chunk, "t");
    ecs_sched__free(v->env, text);
    if (status != 0) return lua_error(L);
    lua_call(L, 0, 1);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_pushboolean(L, 1);
    }
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, name);
    return 1;
}

static int ecs_sched__lua_setup(lua_State *L) {
    static const luaL_Reg ecs[] = {
        {"component", ecs_sched__lua_component}, {"system", ecs_sched__lua_system},
        {"observer", ecs_sched__lua_observer}, {"spawn", ecs_sched__lua_spawn},
        {"despawn", ecs_sched__lua_despawn}, {"insert", ecs_sched__lua_insert},
        {"remove", ecs_sched__lua_remove}, {"lookup", ecs_sched__lua_lookup},
        {"delta_time", ecs_sched__lua_delta_time}, {"message", ecs_sched__lua_message},
        {"resource", ecs_sched__lua_resource}, {"set_resource", ecs_sched__lua_set_resource},
        {"init_resource", ecs_sched__lua_init_resource}, {"send", ecs_sched__lua_send},
        {"messages", ecs_sched__lua_messages}, {"elapsed_time", ecs_sched__lua_elapsed_time},
#ifndef ECS_SCHED_NO_STATES
        {"state", ecs_sched__lua_state}, {"set_state", ecs_sched__lua_set_state},
#endif
#ifndef ECS_SCHED_NO_RELATIONS
        {"parent", ecs_sched__lua_parent}, {"children", ecs_sched__lua_children},
        {"set_parent", ecs_sched__lua_set_parent},
#endif
        {NULL, NULL}};
    static const luaL_Reg iter[] = {{"__index", ecs_sched__lua_iter_index_columns},
                                    {NULL, NULL}};
    static const luaL_Reg rows[] = {{NULL, NULL}};
    static const luaL_Reg row[] = {{"__index", ecs_sched__lua_row_index},
                                   {"__newindex", ecs_sched__lua_row_newindex}, {NULL, NULL}};
    static const luaL_Reg value[] = {{"__index", ecs_sched__lua_value_index},
                                     {"__newindex", ecs_sched__lua_value_newindex},
                                     {"__tostring", ecs_sched__lua_value_tostring}, {NULL, NULL}};
    static const luaL_Reg array[] = {{"__index", ecs_sched__lua_array_index},
                                     {"__newindex", ecs_sched__lua_array_newindex},
                                     {"__len", ecs_sched__lua_array_len}, {NULL, NULL}};
    ecs_sched__lua_version *v = (ecs_sched__lua_version *)lua_touserdata(L, 1);
    lua_pushlightuserdata(L, &ecs_sched__lua_version_key);
    lua_pushlightuserdata(L, v);
    lua_rawset(L, LUA_REGISTRYINDEX);
    if (v->options->unsafe) luaL_openlibs(L);
    else ecs_sched__lua_sandbox(L);
#if LUA_VERSION_NUM < 502
    if (v->options->budget >= 0) {
        /* code the JIT compiled calls no hooks: a budget needs the interpreter (set after
           the jit library, which turns the compiler on as it opens) */
        luaJIT_setmode(L, 0, LUAJIT_MODE_ENGINE | LUAJIT_MODE_OFF);
    }
#endif
    ecs_sched__lua_push_globals(L);
    lua_pushlightuserdata(L, v);
    lua_pushcclosure(L, ecs_sched__lua_print, 1);
    lua_setfield(L, -2, "print");
    if (!v->options->unsafe) {
        lua_pushlightuserdata(L, v);
        lua_pushcclosure(L, ecs_sched__lua_require, 1);
        lua_setfield(L, -2, "require");
    }
    lua_createtable(L, 0, 24);
    lua_pushlightuserdata(L, v);
    luaL_setfuncs(L, ecs, 1);
    lua_setfield(L, -2, "ecs");
    lua_pop(L, 1);
    ecs_sched__lua_metatable(L, v, ECS_SCHED__LUA_ITER, iter);
    ecs_sched__lua_metatable(L, v, ECS_SCHED__LUA_ROWS, rows);
    ecs_sched__lua_metatable(L, v, ECS_SCHED__LUA_ROW, row);
    ecs_sched__lua_metatable(L, v, ECS_SCHED__LUA_VALUE, value);
    ecs_sched__lua_metatable(L, v, ECS_SCHED__LUA_ARRAY, array);
    ecs_sched__lua_metatable(L, v, ECS_SCHED__LUA_MESSAGES, rows);
    return ecs_sched__lua_columns_metatables(L);
}

/* Adds the traceback to an error message (lua_pcall's message handler). */
static int ecs_sched__lua_traceback(lua_State *L) {
    const char *message = lua_tostring(L, 1);
    if (!message) message = lua_pushfstring(L, "(an error object that is a %s)", luaL_typename(L, 1));
    luaL_traceback(L, L, message, 1);
    return 1;
}

/* ---- the driver ---- */

static void ecs_sched__lua_unload(void *version, void *user_data) {
    ecs_sched__lua_version *v = (ecs_sched__lua_version *)version;
    int32_t i, r, k;
    (void)user_data;
    if (v->L) lua_close(v->L);
    for (i = 0; i < v->decl_count; i++) {
        ecs_sched__lua_decl *decl = &v->decls[i];
        ecs_sched__free(v->env, decl->name);
        ecs_sched__free(v->env, decl->schedule);
        ecs_sched__free(v->env, decl->query);
        ecs_sched__free(v->env, decl->component);
        for (r = 0; r < ECS_SCHED__LUA_REFS; r++) {
            for (k = 0; k < ECS_SCHED_MAX_REFS; k++) ecs_sched__free(v->env, decl->refs[r][k]);
        }
        for (k = 0; k < decl->run_if_count; k++) {
            ecs_sched__free(v->env, decl->run_if[k].names[0]);
            ecs_sched__free(v->env, decl->run_if[k].names[1]);
        }
        ecs_sched__free(v->env, decl->state_schedule[0]);
        ecs_sched__free(v->env, decl->state_schedule[1]);
    }
    ecs_sched__free(v->env, v->decls);
    ecs_sched__lua_migrations_free(v);
    ecs_sched__free(v->env, v->path);
    ecs_sched__free(v->env, v);
}

/* The file's text, in memory of env (NULL, and the reason in why, when it cannot be read). */
static char *ecs_sched__lua_read_file(ecs_sched__env *env, const char *path, size_t *size,
                                      char *why, size_t capacity) {
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long length;
    if (!f) {
        snprintf(why, capacity, "cannot open it: %s", strerror(errno));
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (length = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        snprintf(why, capacity, "cannot read it");
    } else if (!(text = (char *)ecs_sched__alloc(env, (size_t)length + 1))) {
        snprintf(why, capacity, "out of memory reading it");
    } else if (fread(text, 1, (size_t)length, f) != (size_t)length) {
        snprintf(why, capacity, "cannot read it");
        ecs_sched__free(env, text);
        text = NULL;
    } else {
        *size = (size_t)length;
    }
    fclose(f);
    return text;
}

static lua_State *ecs_sched__lua_new_state(ecs_sched__lua_version *v) {
#if LUA_VERSION_NUM < 502
    (void)v;
    return luaL_newstate();   /* LuaJIT keeps its own allocator on 64-bit systems */
#else
    return lua_newstate(ecs_sched__lua_alloc, v->env);
#endif
}

/* The resource (a tag) that stands for the Lua state of the script at path: each system of
   the script writes it, so that the plan never runs two of them at once, and systems of
   different scripts run in parallel. Kept across reloads, as the name stays. */
static ecs_sched_id ecs_sched__lua_state_resource(ecs_sched_world *w, const char *path) {
    char name[1100];
    ecs_sched_id id;
    snprintf(name, sizeof name, "Lua state of %s", path);
    id = ecs_sched_component_lookup(w, name);
    return id ? id : ecs_sched_component_register_type(w, name, 0, 0);
}

/* Compiles the file and runs its top level (the declarations); a Lua error is left on the
   stack on failure. */
static int ecs_sched__lua_run_top_level(ecs_sched__lua_version *v, const char *text, size_t size) {
    lua_State *L = v->L;
    char chunk[1024];
    int status;
    snprintf(chunk, sizeof chunk, "@%s", v->path);
    status = luaL_loadbufferx(L, text, size, chunk, v->options->unsafe ? NULL : "t");
    if (status != 0) return status;
    v->loading = true;
    ecs_sched__lua_budget_start(v);
    status = lua_pcall(L, 0, 0, 0);
    v->loading = false;
    return status;
}

static void *ecs_sched__lua_load(ecs_sched_script *script, const char *path, void *user_data) {
    ecs_sched_world *w = ecs_sched_script_world(script);
    ecs_sched__lua_version *v;
    char why[256], *text;
    size_t size = 0;
    if (!(text = ecs_sched__lua_read_file(&w->env, path, &size, why, sizeof why))) {
        ecs_sched_script_fail(script, "%s", why);
        return NULL;
    }
    v = (ecs_sched__lua_version *)ecs_sched__calloc(&w->env, sizeof *v);
    if (!v || !(v->path = ecs_sched__strdup(&w->env, path))) {
        ecs_sched__free(&w->env, v);
        ecs_sched__free(&w->env, text);
        ecs_sched_script_fail(script, "out of memory loading it");
        return NULL;
    }
    v->env = &w->env;
    v->world = w;
    v->options = (const ecs_sched__lua_options *)user_data;
    if (!(v->state_id = ecs_sched__lua_state_resource(w, path))) {
        ecs_sched__free(&w->env, text);
        ecs_sched__lua_unload(v, NULL);
        ecs_sched_script_fail(script, "cannot register the resource that stands for its Lua "
                              "state: %s", ecs_sched_last_error(w));
        return NULL;
    }
    if (!(v->L = ecs_sched__lua_new_state(v))) {
        ecs_sched__free(&w->env, text);
        ecs_sched__lua_unload(v, NULL);
        ecs_sched_script_fail(script, "out of memory creating its Lua state");
        return NULL;
    }
    if (ecs_sched__lua_protected(v->L, ecs_sched__lua_setup, v) != 0 ||
        ecs_sched__lua_run_top_level(v, text, size) != 0) {
        const char *message = lua_tostring(v->L, -1);
        ecs_sched_script_fail(script, "%s", message ? message : "(an error that is no string)");
        ecs_sched__free(&w->env, text);
        ecs_sched__lua_unload(v, NULL);
        return NULL;
    }
    ecs_sched__free(&w->env, text);
    return v;
}

/* A declaration the world refused: its code and message, with where the script made it. */
static ecs_sched_result ecs_sched__lua_refused(ecs_sched__lua_version *v,
                                               const ecs_sched__lua_decl *decl,
                                               ecs_sched_result result) {
    char message[ECS_SCHED__ERROR_CAPACITY];
    snprintf(message, sizeof message, "%s", ecs_sched_last_error(v->world));
    if (result == ECS_SCHED_OK) result = ECS_SCHED_ERR_SCRIPT;
    return ecs_sched__fail(v->env, result, "%s:%d: %s", v->path, decl->line, message);
}

static ecs_sched_result ecs_sched__lua_declare_observer(ecs_sched_script *script,
                                                        ecs_sched__lua_version *v, int32_t index) {
    const ecs_sched__lua_decl *decl = &v->decls[index];
    ecs_sched_observer_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.name = decl->name;
    desc.event = decl->event;
    desc.component = ecs_sched_component_lookup(v->world, decl->component);
    if (!desc.component) {
        return ecs_sched_script_fail(script, "%s:%d: observer '%s' watches component '%s', "
                                     "which no one registered (declare it with ecs.component "
                                     "first)", v->path, decl->line, decl->name, decl->component);
    }
    if (!ecs_sched_script_add_observer(script, &desc, index)) {
        return ecs_sched__lua_refused(v, decl, ecs_sched_last_result(v->world));
    }
    return ECS_SCHED_OK;
}

/* A failure of a system's declaration, with where the script made it. */
static ecs_sched_result ecs_sched__lua_system_fail(ecs_sched_script *script,
                                                   const ecs_sched__lua_version *v,
                                                   const ecs_sched__lua_decl *decl,
                                                   const char *what, const char *name,
                                                   const char *hint) {
    return ecs_sched_script_fail(script, "%s:%d: system '%s' %s '%s': %s", v->path, decl->line,
                                 decl->name, what, name, hint);
}

#ifndef ECS_SCHED_NO_STATES
/* The machine and value a declaration names ({"Game", "Playing"}), or a failure. */
static ecs_sched_result ecs_sched__lua_machine_value(ecs_sched_script *script,
                                                     const ecs_sched__lua_version *v,
                                                     const ecs_sched__lua_decl *decl,
                                                     char *const *names, ecs_sched_id *machine,
                                                     int32_t *value) {
    const ecs_sched__state_machine *m = ecs_sched__state_find_name(v->world, names[0]);
    char list[256] = "";
    size_t at = 0;
    if (!m) {
        return ecs_sched__lua_system_fail(script, v, decl, "names state machine", names[0],
                                          "no machine has that name (register it with "
                                          "ecs_sched_state_register before the script loads)");
    }
    for (*value = 0; *value < m->value_count; (*value)++) {
        if (strcmp(m->value_names[*value], names[1]) == 0) {
            *machine = m->id;
            return ECS_SCHED_OK;
        }
        at = ecs_sched__append(list, sizeof list, at, *value ? ", " : "its values: ");
        at = ecs_sched__append(list, sizeof list, at, m->value_names[*value]);
    }
    return ecs_sched__lua_system_fail(script, v, decl, "names a value of state machine",
                                      m->name, list);
}
#endif

/* What a name in reads or writes stands for: a state machine (its value read, or its
   pending slot written: queuing a value), else a resource; 0 after a failure. */
static ecs_sched_id ecs_sched__lua_resource_id(ecs_sched_script *script,
                                               const ecs_sched__lua_version *v,
                                               const ecs_sched__lua_decl *decl,
                                               const char *name, bool write) {
    ecs_sched_id id;
#ifndef ECS_SCHED_NO_STATES
    const ecs_sched__state_machine *m = ecs_sched__state_find_name(v->world, name);
    if (m) return write ? m->next : m->id;
#endif
    id = ecs_sched_component_lookup(v->world, name);
    if (!id) {
        ecs_sched__lua_system_fail(script, v, decl, write ? "writes" : "reads", name,
                                   "no resource, component or state machine has that name "
                                   "(declare it with ecs.component, or register it, before the "
                                   "script loads)");
    } else if (ecs_sched_is_message(v->world, id)) {
        ecs_sched__lua_system_fail(script, v, decl, write ? "writes" : "reads", name,
                                   "it is a message type: declare it in sends (to send) or "
                                   "receives (to read)");
        id = 0;
    }
    return id;
}

/* The message type a name in sends or receives stands for; 0 after a failure. */
static ecs_sched_id ecs_sched__lua_message_id(ecs_sched_script *script,
                                              const ecs_sched__lua_version *v,
                                              const ecs_sched__lua_decl *decl,
                                              const char *name, bool send) {
    ecs_sched_id id = ecs_sched_component_lookup(v->world, name);
    int32_t k;
    if (!id || !ecs_sched_is_message(v->world, id)) {
        ecs_sched__lua_system_fail(script, v, decl, send ? "sends" : "receives", name,
                                   id ? "it is a component, not a message type (a resource "
                                        "goes in reads or writes)"
                                      : "no message type has that name (declare it with "
                                        "ecs.message, or register it, before the script loads)");
        return 0;
    }
    for (k = 0; !send && k < ECS_SCHED_MAX_REFS && decl->refs[ECS_SCHED__LUA_SENDS][k]; k++) {
        if (strcmp(decl->refs[ECS_SCHED__LUA_SENDS][k], name) == 0) {
            ecs_sched__lua_system_fail(script, v, decl, "sends and receives", name,
                                       "a system reads the messages others send; split it "
                                       "into a sender and a reader");
            return 0;
        }
    }
    return id;
}

/* Adds id to a desc's reads or writes (once); false when they are full. */
static bool ecs_sched__lua_add_id(ecs_sched_id *ids, ecs_sched_id id) {
    int32_t k;
    for (k = 0; k < ECS_SCHED_MAX_RESOURCES && ids[k]; k++) {
        if (ids[k] == id) return true;
    }
    if (k == ECS_SCHED_MAX_RESOURCES) return false;
    ids[k] = id;
    return true;
}

/* The desc's reads and writes from the declaration's reads, writes, sends and receives. */
static ecs_sched_result ecs_sched__lua_declare_access(ecs_sched_script *script,
                                                      const ecs_sched__lua_version *v,
                                                      const ecs_sched__lua_decl *decl,
                                                      ecs_sched_system_desc *desc) {
    static const char *const keys[] = {"reads", "writes", "sends", "receives"};
    int list, k;
    for (list = 0; list < 4; list++) {
        char *const *names = decl->refs[ECS_SCHED__LUA_READS + list];
        bool write = list == 1 || list == 2;
        for (k = 0; k < ECS_SCHED_MAX_REFS && names[k]; k++) {
            ecs_sched_id id = list < 2 ? ecs_sched__lua_resource_id(script, v, decl, names[k], write)
                                       : ecs_sched__lua_message_id(script, v, decl, names[k],
                                                                   list == 2);
            if (!id) return ECS_SCHED_ERR_SCRIPT;
            if (!ecs_sched__lua_add_id(write ? desc->writes : desc->reads, id)) {
                return ecs_sched__lua_system_fail(script, v, decl, keys[list], names[k],
                                                  "more than ECS_SCHED_MAX_RESOURCES names "
                                                  "in reads and receives (or writes and sends)");
            }
        }
    }
    return ECS_SCHED_OK;
}

/* The desc's run_if from the declaration's, into conditions (which the add copies). */
static ecs_sched_result ecs_sched__lua_declare_conditions(ecs_sched_script *script,
                                                          const ecs_sched__lua_version *v,
                                                          const ecs_sched__lua_decl *decl,
                                                          ecs_sched_system_desc *desc,
                                                          ecs_sched_condition *conditions) {
    int32_t i;
    for (i = 0; i < decl->run_if_count; i++) {
        const ecs_sched__lua_condition *c = &decl->run_if[i];
        const char *name = c->names[0];
        ecs_sched_id id = name ? ecs_sched_component_lookup(v->world, name) : 0;
#ifndef ECS_SCHED_NO_STATES
        const ecs_sched__state_machine *m = name ? ecs_sched__state_find_name(v->world, name) : NULL;
        int32_t value;
        ecs_sched_result result;
#endif
        switch (c->kind) {
#ifndef ECS_SCHED_NO_STATES
        case ECS_SCHED__LUA_IN_STATE:
            result = ecs_sched__lua_machine_value(script, v, decl, c->names, &id, &value);
            if (result != ECS_SCHED_OK) return result;
            conditions[i] = ecs_sched_condition_in_state(id, value);
            break;
        case ECS_SCHED__LUA_STATE_EXISTS: case ECS_SCHED__LUA_STATE_CHANGED:
            if (!m) {
                return ecs_sched__lua_system_fail(script, v, decl, "runs if a state of", name,
                                                  "no state machine has that name (register "
                                                  "it before the script loads)");
            }
            conditions[i] = c->kind == ECS_SCHED__LUA_STATE_EXISTS
                                ? ecs_sched_condition_state_exists(m->id)
                                : ecs_sched_condition_state_changed(m->id);
            break;
#endif
        case ECS_SCHED__LUA_RESOURCE_EXISTS: case ECS_SCHED__LUA_RESOURCE_ADDED:
        case ECS_SCHED__LUA_RESOURCE_CHANGED: case ECS_SCHED__LUA_ON_MESSAGE:
            if (!id || (c->kind == ECS_SCHED__LUA_ON_MESSAGE) != ecs_sched_is_message(v->world, id)) {
                return ecs_sched__lua_system_fail(
                    script, v, decl, "runs if", name,
                    c->kind == ECS_SCHED__LUA_ON_MESSAGE
                        ? "on_message names a message type (declare it with ecs.message)"
                        : "no resource has that name (declare it with ecs.component)");
            }
            conditions[i] = c->kind == ECS_SCHED__LUA_RESOURCE_EXISTS
                                ? ecs_sched_condition_resource_exists(id)
                            : c->kind == ECS_SCHED__LUA_RESOURCE_ADDED
                                ? ecs_sched_condition_resource_added(id)
                            : c->kind == ECS_SCHED__LUA_RESOURCE_CHANGED
                                ? ecs_sched_condition_resource_changed(id)
                                : ecs_sched_condition_on_message(id);
            break;
        case ECS_SCHED__LUA_RUN_ONCE: conditions[i] = ecs_sched_condition_run_once(); break;
        case ECS_SCHED__LUA_ON_TIMER:
            conditions[i] = ecs_sched_condition_on_timer((int64_t)(c->seconds * 1e9));
            break;
        default:
            return ecs_sched__lua_system_fail(script, v, decl, "runs if", c->names[0],
                                              "this build leaves states out");
        }
        desc->run_if[i] = &conditions[i];
    }
    return ECS_SCHED_OK;
}

/* The schedule a system goes in: its schedule, or its state's OnEnter / OnExit. */
static const char *ecs_sched__lua_schedule(ecs_sched_script *script,
                                           const ecs_sched__lua_version *v,
                                           const ecs_sched__lua_decl *decl) {
#ifndef ECS_SCHED_NO_STATES
    ecs_sched_id machine;
    int32_t value;
    if (!decl->state_schedule[0]) return decl->schedule;
    if (ecs_sched__lua_machine_value(script, v, decl, decl->state_schedule, &machine, &value) !=
        ECS_SCHED_OK) {
        return NULL;
    }
    return decl->on_exit ? ecs_sched_on_exit(v->world, machine, value)
                         : ecs_sched_on_enter(v->world, machine, value);
#else
    (void)script;
    (void)v;
    return decl->schedule;
#endif
}

static ecs_sched_result ecs_sched__lua_declare_system(ecs_sched_script *script,
                                                      ecs_sched__lua_version *v, int32_t index) {
    const ecs_sched__lua_decl *decl = &v->decls[index];
    ecs_sched_system_desc desc;
    ecs_sched_condition conditions[ECS_SCHED_MAX_CONDITIONS];
    const char *schedule = ecs_sched__lua_schedule(script, v, decl);
    ecs_sched_result result;
    int32_t k;
    memset(&desc, 0, sizeof desc);
    desc.name = decl->name;
    desc.query_text = decl->query;
    desc.commands = decl->commands;
    desc.reads[0] = ecs_sched_time_id(v->world);
    desc.writes[0] = v->state_id;   /* a script's systems share its Lua state: one at a time */
    for (k = 0; k < ECS_SCHED_MAX_REFS; k++) {
        desc.after[k] = decl->refs[ECS_SCHED__LUA_AFTER][k];
        desc.before[k] = decl->refs[ECS_SCHED__LUA_BEFORE][k];
        desc.in_set[k] = decl->refs[ECS_SCHED__LUA_IN_SET][k];
    }
    if (!schedule) return ECS_SCHED_ERR_SCRIPT;
    if ((result = ecs_sched__lua_declare_access(script, v, decl, &desc)) != ECS_SCHED_OK ||
        (result = ecs_sched__lua_declare_conditions(script, v, decl, &desc, conditions)) !=
            ECS_SCHED_OK) {
        return result;
    }
    result = ecs_sched_script_add_system(script, schedule, &desc, index);
    return result == ECS_SCHED_OK ? result : ecs_sched__lua_refused(v, decl, result);
}

static ecs_sched_result ecs_sched__lua_declare(ecs_sched_script *script, void *version,
                                               void *user_data) {
    ecs_sched__lua_version *v = (ecs_sched__lua_version *)version;
    ecs_sched_result result = ECS_SCHED_OK;
    int32_t i;
    (void)user_data;
    for (i = 0; i < v->decl_count && result == ECS_SCHED_OK; i++) {
        result = v->decls[i].observer ? ecs_sched__lua_declare_observer(script, v, i)
                                      : ecs_sched__lua_declare_system(script, v, i);
    }
    return result;
}

/* The version loaded, declared and built: its components' new layouts are migrated now. */
static ecs_sched_result ecs_sched__lua_commit(ecs_sched_script *script, void *version,
                                              void *user_data) {
    ecs_sched__lua_version *v = (ecs_sched__lua_version *)version;
    int32_t i;
    (void)user_data;
    for (i = 0; i < v->migration_count; i++) {   /* all of them, or none (but out of memory) */
        const ecs_sched__lua_migration *m = &ecs_sched__lua_migrations(v)[i];
        if (ecs_sched__migration_refused(v->world, m->id, m->layout.size,
                                         m->layout.alignment) != ECS_SCHED_OK) {
            return ecs_sched_script_fail(script, "%s:%d: %s", v->path, m->line,
                                         ecs_sched_last_error(v->world));
        }
    }
    for (i = 0; i < v->migration_count; i++) {
        const ecs_sched__lua_migration *m = &ecs_sched__lua_migrations(v)[i];
        if (ecs_sched_component_migrate(v->world, m->id, m->layout.size, m->layout.alignment,
                                        m->layout.count, m->layout.members, NULL,
                                        NULL) != ECS_SCHED_OK) {
            return ecs_sched_script_fail(script, "%s:%d: %s", v->path, m->line,
                                         ecs_sched_last_error(v->world));
        }
    }
    return ECS_SCHED_OK;
}

/* What the run reaches of a system's query (its terms), or of an observer's component. */
static void ecs_sched__lua_run_terms(ecs_sched__lua_version *v, ecs_sched__lua_run *run) {
    const ecs_sched_query *q;
    int32_t i;
    if (run->decl->observer) {
        run->term_count = 1;
        run->terms[0] = run->trigger->component;
        run->access[0] = run->trigger->event == ECS_SCHED_ON_REMOVE ? ECS_SCHED__LUA_READ
                                                                    : ECS_SCHED__LUA_WRITE;
        return;
    }
    if (!run->decl->query || !(q = ecs_sched_ctx_query(run->ctx, 0))) return;
    run->term_count = q->term_count;
    for (i = 0; i < q->term_count; i++) {
        ecs_sched_term_kind kind = q->terms[i].kind;
        run->terms[i] = q->terms[i].id;
        switch (kind) {
        case ECS_SCHED_TERM_WRITE: case ECS_SCHED_TERM_OPTIONAL_WRITE:
        case ECS_SCHED_TERM_WRITE_MANUAL: case ECS_SCHED_TERM_RESOURCE_WRITE:
        case ECS_SCHED_TERM_OR_WRITE:
            run->access[i] = ECS_SCHED__LUA_WRITE;
            break;
        case ECS_SCHED_TERM_DEFAULT: case ECS_SCHED_TERM_READ: case ECS_SCHED_TERM_OPTIONAL_READ:
        case ECS_SCHED_TERM_ADDED: case ECS_SCHED_TERM_CHANGED: case ECS_SCHED_TERM_INHERITED:
        case ECS_SCHED_TERM_FROM_ENTITY: case ECS_SCHED_TERM_RESOURCE: case ECS_SCHED_TERM_OR_READ:
        case ECS_SCHED_TERM_FROM_PARENT: case ECS_SCHED_TERM_OPTIONAL_FROM_PARENT:
            run->access[i] = ECS_SCHED__LUA_READ;
            break;
        default:   /* without, relationship terms */
            run->access[i] = ECS_SCHED__LUA_UNREACHABLE;
            break;
        }
        run->indirect[i] = kind == ECS_SCHED_TERM_FROM_PARENT ||
                           kind == ECS_SCHED_TERM_OPTIONAL_FROM_PARENT ||
                           ecs_sched_component_storage(v->world, run->terms[i]) ==
                               ECS_SCHED_STORAGE_SPARSE;
    }
}

/* In protected mode: calls the declaration's run with its argument, the traceback added to
   an error. */
static int ecs_sched__lua_call_run(lua_State *L) {
    ecs_sched__lua_run *run = (ecs_sched__lua_run *)lua_touserdata(L, 1);
    ecs_sched__lua_version *v;
    int32_t decl;
    lua_pushlightuserdata(L, &ecs_sched__lua_version_key);
    lua_rawget(L, LUA_REGISTRYINDEX);
    v = (ecs_sched__lua_version *)lua_touserdata(L, -1);
    decl = (int32_t)(run->decl - v->decls);
    lua_pushcfunction(L, ecs_sched__lua_traceback);
    lua_rawgeti(L, LUA_REGISTRYINDEX, run->decl->function);
    if (run->decl->observer) {
        ecs_sched__lua_row_ud *row;
        ecs_sched_entity e = run->trigger->entity;
        ecs_sched__lua_new_row(L, run->generation, decl, e);
        row = (ecs_sched__lua_row_ud *)lua_touserdata(L, -1);
        if (v->world->components[run->terms[0]].size == 0) {
            row->values[0] = NULL;   /* a tag */
        } else if (run->access[0] == ECS_SCHED__LUA_WRITE) {
            row->values[0] = (unsigned char *)ecs_sched_get_mut(v->world, e, run->terms[0]);
        } else {
            row->values[0] = (unsigned char *)(uintptr_t)ecs_sched_get(v->world, e, run->terms[0]);
        }
    } else {
        ecs_sched__lua_iter_ud *it = (ecs_sched__lua_iter_ud *)lua_newuserdata(L, sizeof *it);
        it->generation = run->generation;
        it->decl = decl;
        luaL_getmetatable(L, ECS_SCHED__LUA_ITER);
        lua_setmetatable(L, -2);
    }
    if (lua_pcall(L, 1, 0, -3) != 0) lua_error(L);
    return 0;
}

static void ecs_sched__lua_run_declared(void *version, int32_t index, ecs_sched_system_ctx *ctx,
                                        const ecs_sched_trigger *trigger, void *user_data) {
    ecs_sched__lua_version *v = (ecs_sched__lua_version *)version;
    ecs_sched__lua_run run;
    int status, top = lua_gettop(v->L);   /* (below: the runs this one happens within) */
    (void)user_data;
    memset(&run, 0, sizeof run);
    run.outer = v->running;
    run.generation = ++v->generations;
    run.outer_budget = v->budget_left;
    run.ctx = ctx;
    run.decl = &v->decls[index];
    run.trigger = trigger;
    ecs_sched__lua_run_terms(v, &run);
    v->running = &run;
    v->column_generation = (double)run.generation;
    ecs_sched__lua_budget_start(v);
    status = ecs_sched__lua_protected(v->L, ecs_sched__lua_call_run, &run);
    v->running = run.outer;
    v->column_generation = run.outer ? (double)run.outer->generation : 0.0;
    v->budget_left = run.outer_budget;
    if (status != 0) {
        const char *message = lua_tostring(v->L, -1);
        ecs_sched_ctx_fail(ctx, ECS_SCHED_ERR_SCRIPT, "%s", message ? message : "a Lua error");
    }
    lua_settop(v->L, top);
}

static void ecs_sched__lua_destroy(void *user_data) {
    ECS_SCHED_FREE(user_data);
}

ecs_sched_script_driver ecs_sched_lua_script_driver(const ecs_sched_lua_desc *desc) {
    ecs_sched_script_driver d;
    ecs_sched__lua_options *options =
        (ecs_sched__lua_options *)ECS_SCHED_REALLOC(NULL, sizeof *options);
    memset(&d, 0, sizeof d);
    if (!options) return d;   /* no name: ecs_sched_script_driver_add refuses it */
    memset(options, 0, sizeof *options);
    options->budget = desc && desc->instruction_budget ? desc->instruction_budget
                                                       : ECS_SCHED__LUA_DEFAULT_BUDGET;
    options->unsafe = desc && desc->allow_unsafe_libraries;
    snprintf(options->extensions, sizeof options->extensions, "%s",
             desc && desc->extensions && desc->extensions[0] ? desc->extensions : ".lua");
    d.name = "lua";
    d.extensions = options->extensions;
    d.user_data = options;
    d.load = ecs_sched__lua_load;
    d.declare = ecs_sched__lua_declare;
    d.run = ecs_sched__lua_run_declared;
    d.unload = ecs_sched__lua_unload;
    d.destroy = ecs_sched__lua_destroy;
    d.commit = ecs_sched__lua_commit;
    return d;
}

#endif /* ECS_SCHED_LUA */
