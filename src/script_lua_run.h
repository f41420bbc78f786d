/* script_lua_run: what a Lua script reaches while one of its systems or observers runs, when
   ECS_SCHED_LUA is defined: the Lua headers and what differs between Lua 5.1 (LuaJIT) and 5.4,
   a version's state, the instruction budget, the iteration, rows and values (read and written
   through reflection), and the calls a run makes (commands, lookup, time, resources, messages,
   states, the hierarchy, print). The driver itself (loading, declaring, running) is
   script_lua.h. */
#pragma once
#include "script.h"

/*@@ implementation @@*/
/* script_lua_run: while a run goes on, what it hands to Lua (the iteration, rows, values)
   carries the run's generation: used after the run, it no longer finds a run of that
   generation and refuses. */

#ifdef ECS_SCHED_LUA

#ifdef __cplusplus
extern "C" {
#endif
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#if LUA_VERSION_NUM < 502
#include <luajit.h>   /* Lua 5.1 only as LuaJIT */
#endif
#ifdef __cplusplus
}
#endif

#include <errno.h>

#define ECS_SCHED__LUA_DEFAULT_BUDGET INT64_C(10000000)
#define ECS_SCHED__LUA_HOOK_STEP 1000   /* instructions between two looks at the budget */
#define ECS_SCHED__LUA_ITER "ecs_sched.iter"
#define ECS_SCHED__LUA_ROWS "ecs_sched.rows"
#define ECS_SCHED__LUA_ROW "ecs_sched.row"
#define ECS_SCHED__LUA_VALUE "ecs_sched.value"
#define ECS_SCHED__LUA_ARRAY "ecs_sched.array"
#define ECS_SCHED__LUA_MESSAGES "ecs_sched.messages"
/* the resources and messages one run may hand out besides its terms */
#define ECS_SCHED__LUA_MAX_REACHED (4 * ECS_SCHED_MAX_RESOURCES)

/* ---- what differs between Lua 5.1 (LuaJIT) and 5.4 ---- */

#if LUA_VERSION_NUM < 502
#define ecs_sched__lua_rawlen(L, index) ((int64_t)lua_objlen((L), (index)))
#else
#define ecs_sched__lua_rawlen(L, index) ((int64_t)lua_rawlen((L), (index)))
#endif

static void ecs_sched__lua_push_globals(lua_State *L) {
#if LUA_VERSION_NUM < 502
    lua_pushvalue(L, LUA_GLOBALSINDEX);
#else
    lua_pushglobaltable(L);
#endif
}

static void ecs_sched__lua_open_library(lua_State *L, const char *name, lua_CFunction open) {
#if LUA_VERSION_NUM < 502
    lua_pushcfunction(L, open);
    lua_pushstring(L, name);
    lua_call(L, 1, 0);
#else
    luaL_requiref(L, name, open, 1);
    lua_pop(L, 1);
#endif
}

/* Calls fn(data) in protected mode; the error message is left on the stack on failure. */
static int ecs_sched__lua_protected(lua_State *L, lua_CFunction fn, void *data) {
#if LUA_VERSION_NUM < 502
    return lua_cpcall(L, fn, data);
#else
    lua_pushcfunction(L, fn);
    lua_pushlightuserdata(L, data);
    return lua_pcall(L, 1, 0, 0);
#endif
}

/* Integers: exact 64-bit ones in 5.4, doubles (exact to 2^53) in LuaJIT. */
static void ecs_sched__lua_push_int(lua_State *L, int64_t value) {
#if LUA_VERSION_NUM >= 503
    lua_pushinteger(L, (lua_Integer)value);
#else
    lua_pushnumber(L, (lua_Number)value);
#endif
}

/* The whole number at index, or false (not a number, or a fraction). */
static bool ecs_sched__lua_to_int(lua_State *L, int index, int64_t *out) {
    lua_Number n;
#if LUA_VERSION_NUM >= 503
    if (lua_isinteger(L, index)) {
        *out = (int64_t)lua_tointeger(L, index);
        return true;
    }
#endif
    if (lua_type(L, index) != LUA_TNUMBER) return false;
    n = lua_tonumber(L, index);
    if (n != n || n < -9223372036854775808.0 || n >= 9223372036854775808.0 ||
        (lua_Number)(int64_t)n != n) {
        return false;
    }
    *out = (int64_t)n;
    return true;
}

/* An entity is a number: an integer (5.4), or a double that holds it exactly (LuaJIT: while
   the generation, its upper 32 bits, stays below 2^21). */
static void ecs_sched__lua_push_entity(lua_State *L, ecs_sched_entity e) {
#if LUA_VERSION_NUM >= 503
    lua_pushinteger(L, (lua_Integer)e);
#else
    if (e >= (UINT64_C(1) << 53)) {
        luaL_error(L, "entity #%d's generation (%d) is too large for a LuaJIT number",
                   (int)ECS_SCHED_ENTITY_INDEX(e), (int)ECS_SCHED_ENTITY_GENERATION(e));
    }
    lua_pushnumber(L, (lua_Number)e);
#endif
}

static ecs_sched_entity ecs_sched__lua_check_entity(lua_State *L, int index, const char *what) {
    int64_t value;
    if (!ecs_sched__lua_to_int(L, index, &value)) {
        luaL_error(L, "%s: give an entity (a number), not a %s", what,
                   luaL_typename(L, index));
    }
    return (ecs_sched_entity)value;
}

/* ---- settings, versions, runs ---- */

typedef struct ecs_sched__lua_options {
    int64_t budget;                  /* < 0: none */
    bool unsafe;
    char extensions[128];
} ecs_sched__lua_options;

enum { ECS_SCHED__LUA_AFTER, ECS_SCHED__LUA_BEFORE, ECS_SCHED__LUA_IN_SET, ECS_SCHED__LUA_READS,
       ECS_SCHED__LUA_WRITES, ECS_SCHED__LUA_SENDS, ECS_SCHED__LUA_RECEIVES, ECS_SCHED__LUA_REFS };

/* One entry of a system's run_if: a kind (ecs_sched__lua_condition_kinds) and what it names. */
typedef struct ecs_sched__lua_condition {
    int kind;
    char *names[2];                  /* the machine and its value, or a resource or message */
    double seconds;                  /* on_timer's period */
} ecs_sched__lua_condition;

/* One ecs.system or ecs.observer of the top level, copied out of Lua. */
typedef struct ecs_sched__lua_decl {
    bool observer;
    int line;
    int function;                    /* its run, in the registry */
    char *name;
    char *schedule;                  /* a system's */
    char *query;                     /* a system's, or NULL */
    char *refs[ECS_SCHED__LUA_REFS][ECS_SCHED_MAX_REFS];
    ecs_sched_observer_event event;  /* an observer's */
    char *component;
    bool commands;                   /* a system's: it records commands (ecs.spawn...) */
    ecs_sched__lua_condition run_if[ECS_SCHED_MAX_CONDITIONS];
    int32_t run_if_count;
    char *state_schedule[2];         /* on_enter / on_exit: the machine and the value */
    bool on_exit;
} ecs_sched__lua_decl;

/* What a run reaches: for a system, its query's terms; for an observer, the one component. */
enum { ECS_SCHED__LUA_UNREACHABLE, ECS_SCHED__LUA_READ, ECS_SCHED__LUA_WRITE };

typedef struct ecs_sched__lua_run {
    struct ecs_sched__lua_run *outer;   /* a run of the same version it happens within */
    uint64_t generation;
    int64_t outer_budget;               /* what the outer run had left */
    ecs_sched_system_ctx *ctx;
    const ecs_sched__lua_decl *decl;
    const ecs_sched_trigger *trigger;   /* an observer's */
    int32_t term_count;
    ecs_sched_id terms[ECS_SCHED_MAX_TERMS];
    uint8_t access[ECS_SCHED_MAX_TERMS];
    bool indirect[ECS_SCHED_MAX_TERMS]; /* the field holds a pointer per row */
    /* beyond the terms, what ecs.resource and ecs.messages handed out: a value's term
       ECS_SCHED_MAX_TERMS + k is reached[k] */
    int32_t reached_count;
    ecs_sched_id reached[ECS_SCHED__LUA_MAX_REACHED];
    uint8_t reached_access[ECS_SCHED__LUA_MAX_REACHED];
} ecs_sched__lua_run;

typedef struct ecs_sched__lua_version {
    lua_State *L;
    ecs_sched__env *env;
    ecs_sched_world *world;
    const ecs_sched__lua_options *options;
    char *path;
    bool loading;                       /* its top level runs: declarations allowed */
    ecs_sched__lua_decl *decls;
    int32_t decl_count;
    uint32_t decl_capacity;
    ecs_sched__lua_run *running;
    uint64_t generations;               /* the last one given to a run */
    double column_generation;           /* the running one's, for LuaJIT's columns; 0: none */
    int64_t budget_left;
    ecs_sched_id state_id;              /* the resource standing for its Lua state */
    void *migrations;                   /* its components' new layouts, migrated when it is
                                           committed (script_lua.h's ecs_sched__lua_migration) */
    int32_t migration_count;
    uint32_t migration_capacity;
} ecs_sched__lua_version;

/* Proxies handed to Lua. Each names its run by generation and its declaration by index. */
typedef struct ecs_sched__lua_iter_ud {
    uint64_t generation;
    int32_t decl;
} ecs_sched__lua_iter_ud;

typedef struct ecs_sched__lua_rows_ud {
    uint64_t generation;
    int32_t decl;
    bool started, done;
    int32_t row;
    ecs_sched_iter it;
} ecs_sched__lua_rows_ud;

typedef struct ecs_sched__lua_row_ud {
    uint64_t generation;
    int32_t decl;
    ecs_sched_entity entity;
    unsigned char *values[ECS_SCHED_MAX_TERMS];
} ecs_sched__lua_row_ud;

typedef struct ecs_sched__lua_value_ud {
    uint64_t generation;
    int32_t decl;
    int32_t term;                       /* of the run: whose component it is part of */
    ecs_sched_id type;                  /* the described type of these bytes */
    unsigned char *data;
} ecs_sched__lua_value_ud;

/* A fixed array field of a value: element i (from 1) is at field.offset + (i - 1) * element. */
typedef struct ecs_sched__lua_array_ud {
    ecs_sched__lua_value_ud owner;      /* the value it is a field of */
    ecs_sched__field_desc field;        /* the array's, copied */
} ecs_sched__lua_array_ud;

static char ecs_sched__lua_version_key;   /* the registry's key of the version */

/* A metatable registered under `name` whose functions reach the version (upvalue 1). */
static void ecs_sched__lua_metatable(lua_State *L, ecs_sched__lua_version *v, const char *name,
                                     const luaL_Reg *functions) {
    luaL_newmetatable(L, name);
    lua_pushlightuserdata(L, v);
    luaL_setfuncs(L, functions, 1);
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");   /* hidden from getmetatable */
    lua_pop(L, 1);
}

static ecs_sched__lua_version *ecs_sched__lua_self(lua_State *L) {
    return (ecs_sched__lua_version *)lua_touserdata(L, lua_upvalueindex(1));
}

/* "path:12" (where the Lua code that called the running C function is), into out. */
static const char *ecs_sched__lua_where(lua_State *L, char *out, size_t capacity) {
    size_t n;
    luaL_where(L, 1);
    snprintf(out, capacity, "%s", lua_tostring(L, -1));
    lua_pop(L, 1);
    n = strlen(out);
    while (n > 0 && (out[n - 1] == ' ' || out[n - 1] == ':')) out[--n] = '\0';
    if (!n) snprintf(out, capacity, "?");
    return out;
}

static ecs_sched__lua_run *ecs_sched__lua_run_of(ecs_sched__lua_version *v, uint64_t generation) {
    ecs_sched__lua_run *run;
    for (run = v->running; run; run = run->outer) {
        if (run->generation == generation) return run;
    }
    return NULL;
}

/* The run a proxy belongs to; a Lua error when it is over. */
static ecs_sched__lua_run *ecs_sched__lua_check_run(lua_State *L, ecs_sched__lua_version *v,
                                                    uint64_t generation, int32_t decl,
                                                    const char *what) {
    ecs_sched__lua_run *run = ecs_sched__lua_run_of(v, generation);
    char where[256];
    if (!run) {
        const char *kind = v->decls[decl].observer ? "observer" : "system";
        luaL_error(L, "%s of %s '%s' used outside its %s's run (%s): keep the numbers it "
                   "holds, not the %s", what, kind, v->decls[decl].name, kind,
                   ecs_sched__lua_where(L, where, sizeof where), what);
    }
    return run;
}

/* The run the calling function is part of (ecs.spawn...); a Lua error outside one. */
static ecs_sched__lua_run *ecs_sched__lua_current(lua_State *L, const char *function) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    if (!v->running) {
        luaL_error(L, "%s is for a system's or observer's run, not the script's top level",
                   function);
    }
    return v->running;
}

/* ---- the budget ---- */

static void ecs_sched__lua_hook(lua_State *L, lua_Debug *ar) {
    ecs_sched__lua_version *v;
    char budget[32];
    (void)ar;
    lua_pushlightuserdata(L, &ecs_sched__lua_version_key);
    lua_rawget(L, LUA_REGISTRYINDEX);
    v = (ecs_sched__lua_version *)lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (!v || v->options->budget < 0) return;
    v->budget_left -= lua_gethookcount(L);
    if (v->budget_left > 0) return;
    /* from now on each instruction fails, so that a pcall in a loop cannot outlast it */
    lua_sethook(L, ecs_sched__lua_hook, LUA_MASKCOUNT, 1);
    snprintf(budget, sizeof budget, "%lld", (long long)v->options->budget);
    luaL_where(L, 0);   /* (a hook's level 0 is the Lua function it interrupts) */
    lua_pushfstring(L, "exceeded its budget of %s instructions (ecs_sched_lua_desc."
                    "instruction_budget)", budget);
    lua_concat(L, 2);
    lua_error(L);
}

static void ecs_sched__lua_budget_start(ecs_sched__lua_version *v) {
    int64_t budget = v->options->budget;
    if (budget < 0) return;
    v->budget_left = budget;
    lua_sethook(v->L, ecs_sched__lua_hook, LUA_MASKCOUNT,
                (int)(budget < ECS_SCHED__LUA_HOOK_STEP ? (budget > 0 ? budget : 1)
                                                        : ECS_SCHED__LUA_HOOK_STEP));
}

/* ---- types and values ---- */

static const char *const ecs_sched__lua_type_names[] = {
    "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64", "bool", "entity",
    "chars"};
static const ecs_sched_member_kind ecs_sched__lua_type_kinds[] = {
    ECS_SCHED_TYPE_I8, ECS_SCHED_TYPE_I16, ECS_SCHED_TYPE_I32, ECS_SCHED_TYPE_I64,
    ECS_SCHED_TYPE_U8, ECS_SCHED_TYPE_U16, ECS_SCHED_TYPE_U32, ECS_SCHED_TYPE_U64,
    ECS_SCHED_TYPE_F32, ECS_SCHED_TYPE_F64, ECS_SCHED_TYPE_BOOL, ECS_SCHED_TYPE_ENTITY,
    ECS_SCHED_TYPE_CHARS};

static const ecs_sched__field_desc *ecs_sched__lua_field(const ecs_sched_world *w,
                                                         ecs_sched_id type, const char *name) {
    const ecs_sched__description *d = ecs_sched__description_of(w, type);
    int32_t i;
    for (i = 0; d && i < d->count; i++) {
        if (strcmp(d->fields[i].name, name) == 0) return &d->fields[i];
    }
    return NULL;
}

/* The Lua error for a field a type does not have, listing the ones it has. */
static int ecs_sched__lua_no_field(lua_State *L, const ecs_sched_world *w, ecs_sched_id type,
                                   const char *name) {
    const ecs_sched__description *d = ecs_sched__description_of(w, type);
    char list[256] = "";
    size_t at = 0;
    int32_t i;
    if (!d) {
        return luaL_error(L, "%s has no description, so Lua cannot reach its fields: describe "
                          "it (ecs_sched_describe, or declare it with ecs.component)",
                          w->components[type].name);
    }
    for (i = 0; i < d->count; i++) {
        at = ecs_sched__append(list, sizeof list, at, i ? ", " : "");
        at = ecs_sched__append(list, sizeof list, at, d->fields[i].name);
    }
    return luaL_error(L, "%s has no field '%s' (its fields: %s)", w->components[type].name,
                      name, list);
}

static void ecs_sched__lua_push_value(lua_State *L, const ecs_sched__lua_value_ud *parent,
                                      ecs_sched_id type, unsigned char *data);
static void ecs_sched__lua_push_array(lua_State *L, const ecs_sched__lua_value_ud *owner,
                                      const ecs_sched__field_desc *f);

/* Pushes field f of the value at data. */
static void ecs_sched__lua_push_field(lua_State *L, ecs_sched__lua_version *v,
                                      const ecs_sched__lua_value_ud *value,
                                      const ecs_sched__field_desc *f) {
    const unsigned char *p = value->data + f->offset;
    (void)v;
    if (f->kind == ECS_SCHED_TYPE_CHARS) {
        size_t length = 0;
        while (length < f->element && p[length]) length++;
        lua_pushlstring(L, (const char *)p, length);
        return;
    }
    if (f->count > 1) {
        ecs_sched__lua_push_array(L, value, f);
        return;
    }
    switch (f->kind) {
    case ECS_SCHED_TYPE_BOOL: lua_pushboolean(L, ecs_sched__load_int(p, f->kind, f->element) != 0); break;
    case ECS_SCHED_TYPE_F32: case ECS_SCHED_TYPE_F64:
        lua_pushnumber(L, (lua_Number)ecs_sched__load_float(p, f->kind));
        break;
    case ECS_SCHED_TYPE_U64: ecs_sched__lua_push_int(L, (int64_t)ecs_sched__load_u64(p)); break;
    case ECS_SCHED_TYPE_ENTITY:
        ecs_sched__lua_push_entity(L, (ecs_sched_entity)ecs_sched__load_u64(p));
        break;
    case ECS_SCHED_TYPE_STRUCT:
        ecs_sched__lua_push_value(L, value, f->type, value->data + f->offset);
        break;
    default: ecs_sched__lua_push_int(L, ecs_sched__load_int(p, f->kind, f->element)); break;
    }
}

/* Whether a whole number fits an integer kind of `size` bytes. */
static bool ecs_sched__lua_int_fits(ecs_sched_member_kind kind, uint32_t size, int64_t n) {
    bool is_unsigned = kind == ECS_SCHED_TYPE_U8 || kind == ECS_SCHED_TYPE_U16 ||
                       kind == ECS_SCHED_TYPE_U32 || kind == ECS_SCHED_TYPE_U64;
    if (is_unsigned) return n >= 0 && (size == 8 || n < ((int64_t)1 << (size * 8)));
    if (size == 8) return true;
    return n >= -((int64_t)1 << (size * 8 - 1)) && n < ((int64_t)1 << (size * 8 - 1));
}

static void ecs_sched__lua_store_int(unsigned char *p, uint32_t size, int64_t n) {
    if (size == 1) { int8_t x = (int8_t)n; memcpy(p, &x, 1); }
    else if (size == 2) { int16_t x = (int16_t)n; memcpy(p, &x, 2); }
    else if (size == 4) { int32_t x = (int32_t)n; memcpy(p, &x, 4); }
    else memcpy(p, &n, 8);
}

static void ecs_sched__lua_fill(lua_State *L, ecs_sched__lua_version *v, ecs_sched_id type,
                                unsigned char *data, int table);
static void ecs_sched__lua_store_array(lua_State *L, ecs_sched__lua_version *v, ecs_sched_id type,
                                       unsigned char *data, const ecs_sched__field_desc *f,
                                       int index);

/* Writes the Lua value at `index` into field f of the value at data (of `type`), or raises
   an error naming the field and what it holds. */
static void ecs_sched__lua_store(lua_State *L, ecs_sched__lua_version *v, ecs_sched_id type,
                                 unsigned char *data, const ecs_sched__field_desc *f, int index) {
    const char *type_name = v->world->components[type].name;
    unsigned char *p = data + f->offset;
    int64_t n;
    if (f->kind == ECS_SCHED_TYPE_CHARS) {
        size_t length = 0;
        const char *text = lua_type(L, index) == LUA_TSTRING ? lua_tolstring(L, index, &length) : NULL;
        if (!text) {
            luaL_error(L, "%s.%s holds text: give a string, not a %s", type_name, f->name,
                       luaL_typename(L, index));
        }
        if (length >= f->element) {
            luaL_error(L, "%s.%s holds %d bytes with the closing zero: a text of %d bytes does "
                       "not fit", type_name, f->name, (int)f->element, (int)length);
        }
        memset(p, 0, f->element);
        memcpy(p, text, length);
        return;
    }
    if (f->count > 1) {
        ecs_sched__lua_store_array(L, v, type, data, f, index);
        return;
    }
    switch (f->kind) {
    case ECS_SCHED_TYPE_BOOL: {
        bool b = lua_toboolean(L, index) != 0;
        if (!lua_isboolean(L, index)) {
            luaL_error(L, "%s.%s is a bool: give true or false, not a %s", type_name, f->name,
                       luaL_typename(L, index));
        }
        memcpy(p, &b, sizeof b);
        return;
    }
    case ECS_SCHED_TYPE_F32: case ECS_SCHED_TYPE_F64:
        if (lua_type(L, index) != LUA_TNUMBER) {
            luaL_error(L, "%s.%s is a number (%s): not a %s", type_name, f->name,
                       ecs_sched__field_kind_names[f->kind], luaL_typename(L, index));
        }
        if (f->kind == ECS_SCHED_TYPE_F32) {
            float x = (float)lua_tonumber(L, index);
            memcpy(p, &x, 4);
        } else {
            double x = (double)lua_tonumber(L, index);
            memcpy(p, &x, 8);
        }
        return;
    case ECS_SCHED_TYPE_ENTITY: {
        ecs_sched_entity e = ecs_sched__lua_check_entity(L, index, f->name);
        memcpy(p, &e, 8);
        return;
    }
    case ECS_SCHED_TYPE_STRUCT:
        if (!lua_istable(L, index)) {
            luaL_error(L, "%s.%s is a %s: give a table of its fields", type_name, f->name,
                       v->world->components[f->type].name);
        }
        ecs_sched__lua_fill(L, v, f->type, p, index);
        return;
    default:
        if (!ecs_sched__lua_to_int(L, index, &n) ||
            (f->kind != ECS_SCHED_TYPE_ENUM && !ecs_sched__lua_int_fits(f->kind, f->element, n))) {
            luaL_error(L, "%s.%s is an %s: %s does not fit", type_name, f->name,
                       f->kind == ECS_SCHED_TYPE_ENUM ? "enum (a whole number)"
                                                      : ecs_sched__field_kind_names[f->kind],
                       lua_type(L, index) == LUA_TNUMBER ? lua_tostring(L, index)
                                                         : luaL_typename(L, index));
        }
        ecs_sched__lua_store_int(p, f->element, n);
        return;
    }
}

/* Writes the fields a Lua table names ({hp = 10, label = "orc"}) into the value at data; the
   fields it leaves out keep their bytes. */
static void ecs_sched__lua_fill(lua_State *L, ecs_sched__lua_version *v, ecs_sched_id type,
                                unsigned char *data, int table) {
    if (table < 0) table = lua_gettop(L) + table + 1;
    lua_pushnil(L);
    while (lua_next(L, table)) {
        const ecs_sched__field_desc *f;
        if (lua_type(L, -2) != LUA_TSTRING) {
            luaL_error(L, "the value of %s names its fields by name ({x = 1}), not by position",
                       v->world->components[type].name);
        }
        f = ecs_sched__lua_field(v->world, type, lua_tostring(L, -2));
        if (!f) ecs_sched__lua_no_field(L, v->world, type, lua_tostring(L, -2));
        ecs_sched__lua_store(L, v, type, data, f, lua_gettop(L));
        lua_pop(L, 1);
    }
}

/* ---- values: a component's bytes, read and written by field ---- */

static void ecs_sched__lua_push_value(lua_State *L, const ecs_sched__lua_value_ud *parent,
                                      ecs_sched_id type, unsigned char *data) {
    ecs_sched__lua_value_ud *value =
        (ecs_sched__lua_value_ud *)lua_newuserdata(L, sizeof *value);
    *value = *parent;
    value->type = type;
    value->data = data;
    luaL_getmetatable(L, ECS_SCHED__LUA_VALUE);
    lua_setmetatable(L, -2);
}

static int ecs_sched__lua_value_index(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_value_ud *value =
        (ecs_sched__lua_value_ud *)luaL_checkudata(L, 1, ECS_SCHED__LUA_VALUE);
    const char *name = luaL_checkstring(L, 2);
    const ecs_sched__field_desc *f;
    ecs_sched__lua_check_run(L, v, value->generation, value->decl, "a value");
    f = ecs_sched__lua_field(v->world, value->type, name);
    if (!f) return ecs_sched__lua_no_field(L, v->world, value->type, name);
    ecs_sched__lua_push_field(L, v, value, f);
    return 1;
}

/* A Lua error unless the run may write the value: a term the query writes, a resource the
   system declares in writes, a value an observer hears of but a removal's. */
static void ecs_sched__lua_check_writable(lua_State *L, ecs_sched__lua_version *v,
                                          const ecs_sched__lua_run *run,
                                          const ecs_sched__lua_value_ud *value) {
    const ecs_sched__lua_decl *decl = &v->decls[value->decl];
    bool term = value->term < ECS_SCHED_MAX_TERMS;
    int32_t k = value->term - ECS_SCHED_MAX_TERMS;
    ecs_sched_id root = term ? run->terms[value->term] : run->reached[k];
    const char *hint;
    char where[256];
    if ((term ? run->access[value->term] : run->reached_access[k]) == ECS_SCHED__LUA_WRITE) return;
    if (term && decl->observer) hint = "a removal's value is read-only";
    else if (term) hint = "write [inout] or [out] before it in the query";
    else if (ecs_sched_is_message(v->world, root)) hint = "a message is read-only once sent";
    else hint = "declare it in the system's writes = {...}";
    luaL_error(L, "%s is read-only in %s '%s' (%s): %s", v->world->components[root].name,
               decl->observer ? "observer" : "system", decl->name,
               ecs_sched__lua_where(L, where, sizeof where), hint);
}

static int ecs_sched__lua_value_newindex(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_value_ud *value =
        (ecs_sched__lua_value_ud *)luaL_checkudata(L, 1, ECS_SCHED__LUA_VALUE);
    const char *name = luaL_checkstring(L, 2);
    const ecs_sched__field_desc *f;
    ecs_sched__lua_run *run = ecs_sched__lua_check_run(L, v, value->generation, value->decl,
                                                       "a value");
    ecs_sched__lua_check_writable(L, v, run, value);
    f = ecs_sched__lua_field(v->world, value->type, name);
    if (!f) return ecs_sched__lua_no_field(L, v->world, value->type, name);
    ecs_sched__lua_store(L, v, value->type, value->data, f, 3);
    return 0;
}

static int ecs_sched__lua_value_tostring(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_value_ud *value =
        (ecs_sched__lua_value_ud *)luaL_checkudata(L, 1, ECS_SCHED__LUA_VALUE);
    char text[512];
    ecs_sched__lua_check_run(L, v, value->generation, value->decl, "a value");
    ecs_sched_value_print(v->world, value->type, value->data, text, (int32_t)sizeof text);
    lua_pushstring(L, text);
    return 1;
}

/* ---- fixed arrays: a field of several elements, indexed from 1 as Lua's sequences are ---- */

static void ecs_sched__lua_push_array(lua_State *L, const ecs_sched__lua_value_ud *owner,
                                      const ecs_sched__field_desc *f) {
    ecs_sched__lua_array_ud *array = (ecs_sched__lua_array_ud *)lua_newuserdata(L, sizeof *array);
    array->owner = *owner;
    array->field = *f;
    luaL_getmetatable(L, ECS_SCHED__LUA_ARRAY);
    lua_setmetatable(L, -2);
}

/* Element `index` of the array f (1 to f->count; a Lua error otherwise), as a field of one. */
static ecs_sched__field_desc ecs_sched__lua_element(lua_State *L, ecs_sched__lua_version *v,
                                                    ecs_sched_id type,
                                                    const ecs_sched__field_desc *f, int index) {
    ecs_sched__field_desc element = *f;
    int64_t i = 0;
    if (!ecs_sched__lua_to_int(L, index, &i) || i < 1 || i > f->count) {
        luaL_error(L, "%s.%s holds %d elements, [1] to [%d]: there is no [%s]",
                   v->world->components[type].name, f->name, (int)f->count, (int)f->count,
                   lua_type(L, index) == LUA_TNUMBER || lua_type(L, index) == LUA_TSTRING
                       ? lua_tostring(L, index) : luaL_typename(L, index));
    }
    element.offset += (uint32_t)(i - 1) * f->element;
    element.count = 1;
    return element;
}

/* Writes a Lua sequence ({1, 2, 3}) into the array f; the elements it leaves out keep their
   bytes. */
static void ecs_sched__lua_store_array(lua_State *L, ecs_sched__lua_version *v, ecs_sched_id type,
                                       unsigned char *data, const ecs_sched__field_desc *f,
                                       int index) {
    if (index < 0) index = lua_gettop(L) + index + 1;
    if (!lua_istable(L, index)) {
        luaL_error(L, "%s.%s is an array of %d: give a table of its elements ({1, 2, ...}), "
                   "not a %s", v->world->components[type].name, f->name, (int)f->count,
                   luaL_typename(L, index));
    }
    lua_pushnil(L);
    while (lua_next(L, index)) {
        ecs_sched__field_desc element = ecs_sched__lua_element(L, v, type, f, -2);
        ecs_sched__lua_store(L, v, type, data, &element, lua_gettop(L));
        lua_pop(L, 1);
    }
}

static int ecs_sched__lua_array_index(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_array_ud *array =
        (ecs_sched__lua_array_ud *)luaL_checkudata(L, 1, ECS_SCHED__LUA_ARRAY);
    ecs_sched__field_desc element;
    ecs_sched__lua_check_run(L, v, array->owner.generation, array->owner.decl, "an array");
    element = ecs_sched__lua_element(L, v, array->owner.type, &array->field, 2);
    ecs_sched__lua_push_field(L, v, &array->owner, &element);
    return 1;
}

static int ecs_sched__lua_array_newindex(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_array_ud *array =
        (ecs_sched__lua_array_ud *)luaL_checkudata(L, 1, ECS_SCHED__LUA_ARRAY);
    ecs_sched__lua_run *run = ecs_sched__lua_check_run(L, v, array->owner.generation,
                                                       array->owner.decl, "an array");
    ecs_sched__field_desc element;
    ecs_sched__lua_check_writable(L, v, run, &array->owner);
    element = ecs_sched__lua_element(L, v, array->owner.type, &array->field, 2);
    ecs_sched__lua_store(L, v, array->owner.type, array->owner.data, &element, 3);
    return 0;
}

static int ecs_sched__lua_array_len(lua_State *L) {
    ecs_sched__lua_array_ud *array =
        (ecs_sched__lua_array_ud *)luaL_checkudata(L, 1, ECS_SCHED__LUA_ARRAY);
    ecs_sched__lua_check_run(L, ecs_sched__lua_self(L), array->owner.generation,
                             array->owner.decl, "an array");
    lua_pushinteger(L, (lua_Integer)array->field.count);
    return 1;
}

/* ---- rows: an entity and its terms' values ---- */

static int ecs_sched__lua_row_index(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_row_ud *row = (ecs_sched__lua_row_ud *)luaL_checkudata(L, 1, ECS_SCHED__LUA_ROW);
    const char *name = luaL_checkstring(L, 2);
    ecs_sched__lua_run *run = ecs_sched__lua_check_run(L, v, row->generation, row->decl, "a row");
    ecs_sched__lua_value_ud value;
    int32_t i;
    if (strcmp(name, "entity") == 0) {
        ecs_sched__lua_push_entity(L, row->entity);
        return 1;
    }
    for (i = 0; i < run->term_count; i++) {
        if (strcmp(v->world->components[run->terms[i]].name, name) == 0) break;
    }
    if (i == run->term_count) {
        const ecs_sched__lua_decl *decl = &v->decls[row->decl];
        return luaL_error(L, "%s '%s' has no term %s%s%s (a row has .entity and the components "
                          "of its terms)", decl->observer ? "observer" : "system", decl->name,
                          name, decl->query ? " in its query " : "",
                          decl->query ? decl->query : "");
    }
    if (run->access[i] == ECS_SCHED__LUA_UNREACHABLE) {
        return luaL_error(L, "term %s of system '%s' is a relationship term, which Lua scripts do "
                          "not read in this version", name, v->decls[row->decl].name);
    }
    if (!row->values[i] || v->world->components[run->terms[i]].size == 0) {
        lua_pushnil(L);   /* an optional term the entity lacks, or a tag */
        return 1;
    }
    value.generation = row->generation;
    value.decl = row->decl;
    value.term = i;
    ecs_sched__lua_push_value(L, &value, run->terms[i], row->values[i]);
    return 1;
}

static int ecs_sched__lua_row_newindex(lua_State *L) {
    return luaL_error(L, "a row's components are written field by field (row.%s.x = 1)",
                      luaL_checkstring(L, 2));
}

/* The value of term i at row `row` of the run of rows it hands out. */
static unsigned char *ecs_sched__lua_value_at(const ecs_sched__lua_run *run, ecs_sched_world *w,
                                              const ecs_sched_iter *it, int32_t i, int32_t row) {
    unsigned char *field = (unsigned char *)it->fields[i];
    if (!field || run->access[i] == ECS_SCHED__LUA_UNREACHABLE) return NULL;
    if (ecs_sched_field_is_shared(it, i)) return field;
    if (run->indirect[i]) return ((unsigned char *const *)(void *)field)[row];
    return field + (size_t)row * w->components[run->terms[i]].size;
}

static void ecs_sched__lua_new_row(lua_State *L, uint64_t generation, int32_t decl,
                                   ecs_sched_entity entity) {
    ecs_sched__lua_row_ud *row = (ecs_sched__lua_row_ud *)lua_newuserdata(L, sizeof *row);
    memset(row, 0, sizeof *row);
    row->generation = generation;
    row->decl = decl;
    row->entity = entity;
    luaL_getmetatable(L, ECS_SCHED__LUA_ROW);
    lua_setmetatable(L, -2);
}

/* The generic for's step over `it:rows()`: the next row, or nothing at the end. */
static int ecs_sched__lua_rows_next(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_rows_ud *rows =
        (ecs_sched__lua_rows_ud *)luaL_checkudata(L, 1, ECS_SCHED__LUA_ROWS);
    ecs_sched__lua_run *run = ecs_sched__lua_check_run(L, v, rows->generation, rows->decl,
                                                       "it:rows()");
    ecs_sched__lua_row_ud *row;
    int32_t i;
    if (rows->done) return 0;
    if (!rows->started) {
        rows->started = true;
        rows->it = ecs_sched_ctx_iter(run->ctx, 0);
        rows->row = rows->it.count;   /* none handed out yet */
    }
    while (++rows->row >= rows->it.count) {
        if (!ecs_sched_iter_next(&rows->it)) {
            rows->done = true;
            return 0;
        }
        rows->row = -1;
    }
    ecs_sched__lua_new_row(L, rows->generation, rows->decl, rows->it.entities[rows->row]);
    row = (ecs_sched__lua_row_ud *)lua_touserdata(L, -1);
    for (i = 0; i < run->term_count; i++) {
        row->values[i] = ecs_sched__lua_value_at(run, v->world, &rows->it, i, rows->row);
    }
    return 1;
}

/* it:rows(): for row in it:rows() do ... end */
static int ecs_sched__lua_rows(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_iter_ud *it = (ecs_sched__lua_iter_ud *)luaL_checkudata(L, 1, ECS_SCHED__LUA_ITER);
    ecs_sched__lua_rows_ud *rows;
    ecs_sched__lua_check_run(L, v, it->generation, it->decl, "it");
    lua_pushlightuserdata(L, v);
    lua_pushcclosure(L, ecs_sched__lua_rows_next, 1);
    rows = (ecs_sched__lua_rows_ud *)lua_newuserdata(L, sizeof *rows);
    memset(rows, 0, sizeof *rows);
    rows->generation = it->generation;
    rows->decl = it->decl;
    rows->done = v->decls[it->decl].query == NULL;
    luaL_getmetatable(L, ECS_SCHED__LUA_ROWS);
    lua_setmetatable(L, -2);
    return 2;
}

/* Time's delta in seconds, for a system of a world with clocks. */
static lua_Number ecs_sched__lua_delta(lua_State *L, ecs_sched__lua_version *v,
                                       ecs_sched__lua_run *run) {
    const ecs_sched_time *time;
    if (!ecs_sched_time_id(v->world)) {
        luaL_error(L, "the delta time: this world has no clocks (create an app, or call "
                   "ecs_sched_time_setup before loading the script)");
    }
    if (!(time = ecs_sched_ctx_time(run->ctx))) luaL_error(L, "the delta time cannot be read");
    return (lua_Number)time->delta_seconds;
}

static int ecs_sched__lua_iter_index(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_iter_ud *it = (ecs_sched__lua_iter_ud *)luaL_checkudata(L, 1, ECS_SCHED__LUA_ITER);
    const char *name = luaL_checkstring(L, 2);
    ecs_sched__lua_run *run = ecs_sched__lua_check_run(L, v, it->generation, it->decl, "it");
    if (strcmp(name, "rows") == 0) {
        lua_pushlightuserdata(L, v);
        lua_pushcclosure(L, ecs_sched__lua_rows, 1);
    } else if (strcmp(name, "dt") == 0) {
        lua_pushnumber(L, ecs_sched__lua_delta(L, v, run));
    } else if (strcmp(name, "name") == 0) {
        lua_pushstring(L, run->decl->name);
    } else {
        return luaL_error(L, "a system's iteration has no '%s' (it has rows, tables, dt and "
                          "name)", name);
    }
    return 1;
}

/* ---- ecs: what a script calls ---- */

static ecs_sched_id ecs_sched__lua_check_component(lua_State *L, ecs_sched__lua_version *v,
                                                   int index, const char *function) {
    const char *name = luaL_checkstring(L, index);
    ecs_sched_id id = ecs_sched_component_lookup(v->world, name);
    if (!id) luaL_error(L, "%s: no component is named '%s'", function, name);
    return id;
}

/* A zeroed value of component id, filled from the table at `table` (or nil); its memory
   belongs to Lua (a userdata left on the stack), so that an error frees it. */
static unsigned char *ecs_sched__lua_new_value(lua_State *L, ecs_sched__lua_version *v,
                                               ecs_sched_id id, int table) {
    size_t size = v->world->components[id].size;
    int given = lua_type(L, table);   /* (before the push, which a missing argument's index
                                         would name) */
    unsigned char *data = (unsigned char *)lua_newuserdata(L, size ? size : 1);
    memset(data, 0, size ? size : 1);
    if (given == LUA_TTABLE) ecs_sched__lua_fill(L, v, id, data, table);
    else if (given != LUA_TNONE && given != LUA_TNIL) {
        luaL_error(L, "the value of %s is a table of its fields, not a %s",
                   v->world->components[id].name, luaL_typename(L, table));
    }
    return data;
}

static ecs_sched_commands *ecs_sched__lua_commands(lua_State *L, const char *function) {
    ecs_sched__lua_run *run = ecs_sched__lua_current(L, function);
    ecs_sched_commands *commands;
    char where[256];
    if (!run->decl->observer && !run->decl->commands) {
        luaL_error(L, "%s: system '%s' records no commands (%s): declare it with commands = true "
                   "(its commands are applied at the sync point after it)", function,
                   run->decl->name, ecs_sched__lua_where(L, where, sizeof where));
    }
    commands = ecs_sched_ctx_commands(run->ctx);
    if (!commands) luaL_error(L, "%s: this run has no command buffer", function);
    return commands;
}

static int ecs_sched__lua_command_failed(lua_State *L, const char *function,
                                         ecs_sched_result result) {
    return luaL_error(L, "%s failed: %s", function, ecs_sched_result_string(result));
}

/* ecs.spawn{Health = {hp = 10}, Enemy = {}} -> the new entity (alive once applied);
   ecs.spawn({...}, parent) makes it a child of parent */
static int ecs_sched__lua_spawn(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched_commands *commands = ecs_sched__lua_commands(L, "ecs.spawn");
    ecs_sched_id ids[64];
    const void *values[64];
    int32_t count = 0;
    ecs_sched_entity e;
#ifndef ECS_SCHED_NO_RELATIONS
    ecs_sched_entity parent =
        lua_isnoneornil(L, 2) ? ECS_SCHED_NULL_ENTITY : ecs_sched__lua_check_entity(L, 2, "ecs.spawn");
#endif
    if (!lua_isnoneornil(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        /* a value per component stays on the stack, and the walk's key and value above them */
        luaL_checkstack(L, 64 + 8, "ecs.spawn");
        lua_pushnil(L);
        while (lua_next(L, 1)) {
            if (count == 64) luaL_error(L, "ecs.spawn: at most 64 components at once");
            if (lua_type(L, -2) != LUA_TSTRING) {
                luaL_error(L, "ecs.spawn: name the components, ecs.spawn{Health = {hp = 10}}");
            }
            ids[count] = ecs_sched__lua_check_component(L, v, lua_gettop(L) - 1, "ecs.spawn");
            values[count] = ecs_sched__lua_new_value(L, v, ids[count], lua_gettop(L));
            lua_insert(L, 2);   /* the value's memory stays on the stack, under the walk */
            lua_pop(L, 1);
            count++;
        }
    }
    e = ecs_sched_commands_spawn_with(commands, count, ids, values);
    if (!e) return ecs_sched__lua_command_failed(L, "ecs.spawn", ECS_SCHED_ERR_OUT_OF_MEMORY);
#ifndef ECS_SCHED_NO_RELATIONS
    if (parent && ecs_sched_commands_set_parent(commands, e, parent) != ECS_SCHED_OK) {
        return ecs_sched__lua_command_failed(L, "ecs.spawn", ECS_SCHED_ERR_OUT_OF_MEMORY);
    }
#endif
    ecs_sched__lua_push_entity(L, e);
    return 1;
}

static int ecs_sched__lua_despawn(lua_State *L) {
    ecs_sched_commands *commands = ecs_sched__lua_commands(L, "ecs.despawn");
    ecs_sched_result result =
        ecs_sched_commands_despawn(commands, ecs_sched__lua_check_entity(L, 1, "ecs.despawn"));
    if (result != ECS_SCHED_OK) return ecs_sched__lua_command_failed(L, "ecs.despawn", result);
    return 0;
}

/* ecs.insert(e, "Health", {hp = 3}) */
static int ecs_sched__lua_insert(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched_commands *commands = ecs_sched__lua_commands(L, "ecs.insert");
    ecs_sched_entity e = ecs_sched__lua_check_entity(L, 1, "ecs.insert");
    ecs_sched_id id = ecs_sched__lua_check_component(L, v, 2, "ecs.insert");
    ecs_sched_result result =
        ecs_sched_commands_insert(commands, e, id, ecs_sched__lua_new_value(L, v, id, 3));
    if (result != ECS_SCHED_OK) return ecs_sched__lua_command_failed(L, "ecs.insert", result);
    return 0;
}

static int ecs_sched__lua_remove(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched_commands *commands = ecs_sched__lua_commands(L, "ecs.remove");
    ecs_sched_entity e = ecs_sched__lua_check_entity(L, 1, "ecs.remove");
    ecs_sched_result result =
        ecs_sched_commands_remove(commands, e, ecs_sched__lua_check_component(L, v, 2, "ecs.remove"));
    if (result != ECS_SCHED_OK) return ecs_sched__lua_command_failed(L, "ecs.remove", result);
    return 0;
}

/* ecs.lookup("ship.turret") -> the entity, or nil */
static int ecs_sched__lua_lookup(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    const char *path = luaL_checkstring(L, 1);
#ifndef ECS_SCHED_NO_RELATIONS
    ecs_sched_entity e = ecs_sched_lookup_path(v->world, ECS_SCHED_NULL_ENTITY, path, NULL);
#else
    ecs_sched_entity e = ecs_sched_lookup(v->world, ECS_SCHED_NULL_ENTITY, path);
#endif
    if (e) ecs_sched__lua_push_entity(L, e);
    else lua_pushnil(L);
    return 1;
}

static int ecs_sched__lua_delta_time(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    lua_pushnumber(L, ecs_sched__lua_delta(L, v, ecs_sched__lua_current(L, "ecs.delta_time")));
    return 1;
}

/* ---- resources, messages, states, the hierarchy: the calls of a run beyond its terms ---- */

static const char *ecs_sched__lua_kind(const ecs_sched__lua_run *run) {
    return run->decl->observer ? "observer" : "system";
}

/* The value's term for what the run reaches beyond its query: id with that access. */
static int32_t ecs_sched__lua_reach(lua_State *L, ecs_sched__lua_run *run, ecs_sched_id id,
                                    uint8_t access) {
    int32_t k;
    for (k = 0; k < run->reached_count; k++) {
        if (run->reached[k] == id && run->reached_access[k] == access) return ECS_SCHED_MAX_TERMS + k;
    }
    if (run->reached_count == ECS_SCHED__LUA_MAX_REACHED) {
        luaL_error(L, "%s '%s' reaches more than %d resources and message types in one run",
                   ecs_sched__lua_kind(run), run->decl->name, ECS_SCHED__LUA_MAX_REACHED);
    }
    run->reached[run->reached_count] = id;
    run->reached_access[run->reached_count] = access;
    return ECS_SCHED_MAX_TERMS + run->reached_count++;
}

static void ecs_sched__lua_push_reached(lua_State *L, ecs_sched__lua_version *v,
                                        ecs_sched__lua_run *run, ecs_sched_id id,
                                        uint8_t access, const void *data) {
    ecs_sched__lua_value_ud value;
    value.generation = run->generation;
    value.decl = (int32_t)(run->decl - v->decls);
    value.term = ecs_sched__lua_reach(L, run, id, access);
    ecs_sched__lua_push_value(L, &value, id, (unsigned char *)(uintptr_t)data);
}

/* The component, resource or message type named by the string at `index`. */
static ecs_sched_id ecs_sched__lua_check_type(lua_State *L, ecs_sched__lua_version *v, int index,
                                              const char *function, const char *what) {
    const char *name = luaL_checkstring(L, index);
    ecs_sched_id id = ecs_sched_component_lookup(v->world, name);
    char where[256];
    if (!id) {
        luaL_error(L, "%s (%s): no %s is named '%s' (declare it with ecs.%s, or register it in "
                   "C, before the script loads)", function,
                   ecs_sched__lua_where(L, where, sizeof where), what, name,
                   strcmp(what, "message type") == 0 ? "message" : "component");
    }
    return id;
}

/* Whether the system's run declared id in its reads (or writes, when `write`). */
static bool ecs_sched__lua_declared(const ecs_sched__lua_run *run, ecs_sched_id id, bool write) {
    const ecs_sched_system_ctx *ctx = run->ctx;
    return ecs_sched__ids_contain(ctx->writes, ctx->write_count, id) ||
           (!write && ecs_sched__ids_contain(ctx->reads, ctx->read_count, id));
}

/* The Lua error for something a system uses without declaring it in `key`. */
static int ecs_sched__lua_undeclared(lua_State *L, const ecs_sched__lua_run *run,
                                     const char *what, const char *name, const char *key) {
    char where[256];
    return luaL_error(L, "system '%s' %s '%s' without declaring it (%s): add it to the "
                      "system's %s = {...}", run->decl->name, what, name,
                      ecs_sched__lua_where(L, where, sizeof where), key);
}

/* ecs.resource("Score") -> its value, written through when the system declares it in
   writes; ecs.resource("Score", true) -> nil when it does not exist (else an error) */
static int ecs_sched__lua_resource(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_run *run = ecs_sched__lua_current(L, "ecs.resource");
    ecs_sched_id id = ecs_sched__lua_check_type(L, v, 1, "ecs.resource", "resource");
    const char *name = v->world->components[id].name;
    bool write = run->decl->observer || ecs_sched__lua_declared(run, id, true);
    char where[256];
    if (!run->decl->observer && !ecs_sched__lua_declared(run, id, false)) {
        return ecs_sched__lua_undeclared(L, run, "reads resource", name, "reads");
    }
    if (!ecs_sched_resource_exists(v->world, id)) {
        if (lua_toboolean(L, 2)) {
            lua_pushnil(L);
            return 1;
        }
        return luaL_error(L, "resource '%s' does not exist (%s): insert it before %s '%s' runs "
                          "(ecs.init_resource at the script's top level, ecs.set_resource, or "
                          "ecs_sched_resource_insert), or ask ecs.resource('%s', true) for nil",
                          name, ecs_sched__lua_where(L, where, sizeof where),
                          ecs_sched__lua_kind(run), run->decl->name, name);
    }
    if (v->world->components[id].size == 0) {
        lua_pushboolean(L, 1);   /* a tag as a resource: it exists */
        return 1;
    }
    /* (through the context, so that a write counts as a change as C's does) */
    ecs_sched__lua_push_reached(L, v, run, id,
                                write ? ECS_SCHED__LUA_WRITE : ECS_SCHED__LUA_READ,
                                run->decl->observer ? ecs_sched_resource_get_mut(v->world, id)
                                : write             ? ecs_sched_ctx_resource_mut(run->ctx, id)
                                                    : ecs_sched_ctx_resource(run->ctx, id));
    return 1;
}

/* ecs.set_resource("Score", {points = 0}): a command inserting (or replacing) the resource;
   the fields left out are zero. */
static int ecs_sched__lua_set_resource(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched_commands *commands = ecs_sched__lua_commands(L, "ecs.set_resource");
    ecs_sched_id id = ecs_sched__lua_check_type(L, v, 1, "ecs.set_resource", "resource");
    ecs_sched_result result =
        ecs_sched_commands_set_resource(commands, id, ecs_sched__lua_new_value(L, v, id, 2));
    if (result != ECS_SCHED_OK) return ecs_sched__lua_command_failed(L, "ecs.set_resource", result);
    return 0;
}

/* ecs.init_resource("Score", {points = 0}) at the top level: inserts the resource when the
   world has none (a reload keeps the value it has). */
static int ecs_sched__lua_init_resource(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched_id id;
    unsigned char *value;
    if (!v->loading) {
        return luaL_error(L, "ecs.init_resource is for the script's top level; in a run, "
                          "ecs.set_resource records the insertion as a command");
    }
    id = ecs_sched__lua_check_type(L, v, 1, "ecs.init_resource", "resource");
    if (ecs_sched_resource_exists(v->world, id)) return 0;
    value = ecs_sched__lua_new_value(L, v, id, 2);
    if (ecs_sched_resource_insert(v->world, id, value) != ECS_SCHED_OK) {
        return luaL_error(L, "ecs.init_resource: %s", ecs_sched_last_error(v->world));
    }
    return 0;
}

/* The message type named at `index`, which the system declared in `key`. */
static ecs_sched_id ecs_sched__lua_check_message(lua_State *L, ecs_sched__lua_version *v,
                                                 const ecs_sched__lua_run *run, int index,
                                                 const char *function, const char *key) {
    ecs_sched_id id = ecs_sched__lua_check_type(L, v, index, function, "message type");
    const char *name = v->world->components[id].name;
    char where[256];
    if (!ecs_sched_is_message(v->world, id)) {
        luaL_error(L, "%s (%s): '%s' is a component, not a message type (declare one with "
                   "ecs.message)", function, ecs_sched__lua_where(L, where, sizeof where), name);
    }
    if (!run->decl->observer) {
        bool send = strcmp(key, "sends") == 0;
        const ecs_sched_system_ctx *ctx = run->ctx;
        if (!ecs_sched__ids_contain(send ? ctx->writes : ctx->reads,
                                    send ? ctx->write_count : ctx->read_count, id)) {
            ecs_sched__lua_undeclared(L, run, send ? "sends messages of" : "reads messages of",
                                      name, key);
        }
    }
    return id;
}

/* ecs.send("Hit", {amount = 3}) */
static int ecs_sched__lua_send(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_run *run = ecs_sched__lua_current(L, "ecs.send");
    ecs_sched_id id = ecs_sched__lua_check_message(L, v, run, 1, "ecs.send", "sends");
    const void *message = v->world->components[id].size ? ecs_sched__lua_new_value(L, v, id, 2)
                                                         : NULL;
    ecs_sched_result result = run->decl->observer ? ecs_sched_send(v->world, id, message)
                                                  : ecs_sched_ctx_send(run->ctx, id, message);
    if (result != ECS_SCHED_OK) {
        return luaL_error(L, "ecs.send: %s", ecs_sched_last_error(v->world));
    }
    return 0;
}

/* What `for m in ecs.messages("Hit")` walks: one read of the system's cursor. */
typedef struct ecs_sched__lua_messages_ud {
    uint64_t generation;
    int32_t decl;
    int32_t term;
    ecs_sched_id id;
    int32_t at;                         /* in the read's current run of messages */
    ecs_sched_messages read;
} ecs_sched__lua_messages_ud;

static int ecs_sched__lua_messages_next(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_messages_ud *m =
        (ecs_sched__lua_messages_ud *)luaL_checkudata(L, 1, ECS_SCHED__LUA_MESSAGES);
    ecs_sched__lua_value_ud value;
    size_t size = v->world->components[m->id].size;
    ecs_sched__lua_check_run(L, v, m->generation, m->decl, "ecs.messages()");
    while (m->at >= m->read.count) {
        if (!ecs_sched_messages_next(&m->read)) return 0;
        m->at = 0;
    }
    m->at++;
    if (size == 0) {
        lua_pushboolean(L, 1);   /* a message without data: only its count matters */
        return 1;
    }
    value.generation = m->generation;
    value.decl = m->decl;
    value.term = m->term;
    ecs_sched__lua_push_value(L, &value, m->id,
                              (unsigned char *)(uintptr_t)m->read.data + (size_t)(m->at - 1) * size);
    return 1;
}

/* for m in ecs.messages("Hit") do ... end: the messages sent since the system last read
   them, oldest first, each read-only */
static int ecs_sched__lua_messages(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_run *run = ecs_sched__lua_current(L, "ecs.messages");
    ecs_sched__lua_messages_ud *m;
    ecs_sched_id id;
    if (run->decl->observer) {
        return luaL_error(L, "ecs.messages is for systems, which keep a place in the messages "
                          "(observer '%s' cannot read them)", run->decl->name);
    }
    id = ecs_sched__lua_check_message(L, v, run, 1, "ecs.messages", "receives");
    lua_pushlightuserdata(L, v);
    lua_pushcclosure(L, ecs_sched__lua_messages_next, 1);
    m = (ecs_sched__lua_messages_ud *)lua_newuserdata(L, sizeof *m);
    memset(m, 0, sizeof *m);
    m->generation = run->generation;
    m->decl = (int32_t)(run->decl - v->decls);
    m->term = ecs_sched__lua_reach(L, run, id, ECS_SCHED__LUA_READ);
    m->id = id;
    m->read = ecs_sched_ctx_messages(run->ctx, id);
    luaL_getmetatable(L, ECS_SCHED__LUA_MESSAGES);
    lua_setmetatable(L, -2);
    return 2;
}

#ifndef ECS_SCHED_NO_STATES
/* The state machine named at `index`; a Lua error naming the machines there are. */
static const ecs_sched__state_machine *ecs_sched__lua_check_machine(lua_State *L,
                                                                    ecs_sched__lua_version *v,
                                                                    int index,
                                                                    const char *function) {
    const char *name = luaL_checkstring(L, index);
    const ecs_sched__state_machine *m = ecs_sched__state_find_name(v->world, name);
    const ecs_sched__states *states = ecs_sched__states_of(v->world);
    char list[256] = "", where[256];
    size_t at = 0;
    uint32_t i;
    if (m) return m;
    for (i = 0; states && i < states->count; i++) {
        at = ecs_sched__append(list, sizeof list, at, i ? ", " : "");
        at = ecs_sched__append(list, sizeof list, at, states->items[i].name);
    }
    luaL_error(L, "%s (%s): no state machine is named '%s' (%s%s)", function,
               ecs_sched__lua_where(L, where, sizeof where), name,
               at ? "the machines: " : "none is registered: ecs_sched_state_register", list);
    return NULL;
}

/* ecs.state("Game") -> "Playing", or nil while the machine has no value; the system reads
   the machine (reads = {"Game"}) */
static int ecs_sched__lua_state(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_run *run = ecs_sched__lua_current(L, "ecs.state");
    const ecs_sched__state_machine *m = ecs_sched__lua_check_machine(L, v, 1, "ecs.state");
    int32_t value;
    if (!run->decl->observer && !ecs_sched__lua_declared(run, m->id, false)) {
        return ecs_sched__lua_undeclared(L, run, "reads state", m->name, "reads");
    }
    value = run->decl->observer ? ecs_sched_state_get(v->world, m->id)
                                : ecs_sched_ctx_state(run->ctx, m->id);
    if (value == ECS_SCHED_STATE_NONE) lua_pushnil(L);
    else lua_pushstring(L, m->value_names[value]);
    return 1;
}

/* ecs.set_state("Game", "Over"): queued for the next transition; the system declares the
   machine in writes (what queuing a value writes: its pending slot) */
static int ecs_sched__lua_set_state(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_run *run = ecs_sched__lua_current(L, "ecs.set_state");
    const ecs_sched__state_machine *m = ecs_sched__lua_check_machine(L, v, 1, "ecs.set_state");
    const char *name = luaL_checkstring(L, 2);
    char list[256] = "", where[256];
    size_t at = 0;
    int32_t value;
    ecs_sched_result result;
    for (value = 0; value < m->value_count && strcmp(m->value_names[value], name) != 0; value++) {
        at = ecs_sched__append(list, sizeof list, at, value ? ", " : "");
        at = ecs_sched__append(list, sizeof list, at, m->value_names[value]);
    }
    if (value == m->value_count) {
        return luaL_error(L, "ecs.set_state (%s): state machine '%s' has no value '%s' (its "
                          "values: %s)", ecs_sched__lua_where(L, where, sizeof where), m->name,
                          name, list);
    }
    if (!run->decl->observer && !ecs_sched__lua_declared(run, m->next, true)) {
        return ecs_sched__lua_undeclared(L, run, "queues state", m->name, "writes");
    }
    result = run->decl->observer ? ecs_sched_state_set(v->world, m->id, value)
                                 : ecs_sched_ctx_state_set(run->ctx, m->id, value);
    if (result != ECS_SCHED_OK) {
        return luaL_error(L, "ecs.set_state: %s", ecs_sched_last_error(v->world));
    }
    return 0;
}
#endif /* ECS_SCHED_NO_STATES */

#ifndef ECS_SCHED_NO_RELATIONS
/* ecs.parent(e) -> its parent, or nil for a root */
static int ecs_sched__lua_parent(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched_entity parent =
        ecs_sched_parent_of(v->world, ecs_sched__lua_check_entity(L, 1, "ecs.parent"));
    if (parent) ecs_sched__lua_push_entity(L, parent);
    else lua_pushnil(L);
    return 1;
}

/* ecs.children(e) -> a sequence of its children, in their order ({} for none) */
static int ecs_sched__lua_children(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    int32_t count = 0, i;
    const ecs_sched_entity *children =
        ecs_sched_children(v->world, ecs_sched__lua_check_entity(L, 1, "ecs.children"), &count);
    lua_createtable(L, count, 0);
    for (i = 0; i < count; i++) {
        ecs_sched__lua_push_entity(L, children[i]);
        lua_rawseti(L, -2, (int)i + 1);
    }
    return 1;
}

/* ecs.set_parent(child, parent): a command */
static int ecs_sched__lua_set_parent(lua_State *L) {
    ecs_sched_commands *commands = ecs_sched__lua_commands(L, "ecs.set_parent");
    ecs_sched_entity child = ecs_sched__lua_check_entity(L, 1, "ecs.set_parent");
    ecs_sched_result result = ecs_sched_commands_set_parent(
        commands, child, ecs_sched__lua_check_entity(L, 2, "ecs.set_parent"));
    if (result != ECS_SCHED_OK) return ecs_sched__lua_command_failed(L, "ecs.set_parent", result);
    return 0;
}
#endif /* ECS_SCHED_NO_RELATIONS */

/* ecs.elapsed_time() -> the seconds the system's clock has run (Time: the virtual clock, the
   fixed one in the fixed schedules) */
static int ecs_sched__lua_elapsed_time(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_run *run = ecs_sched__lua_current(L, "ecs.elapsed_time");
    const ecs_sched_time *time;
    ecs_sched__lua_delta(L, v, run);   /* (the same checks) */
    time = ecs_sched_ctx_time(run->ctx);
    lua_pushnumber(L, (lua_Number)time->elapsed_seconds);
    return 1;
}

/* print: to the world's log (info), named after the script. */
static int ecs_sched__lua_print(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    char text[ECS_SCHED__ERROR_CAPACITY];
    size_t at = 0;
    int i, n = lua_gettop(L);
    at = ecs_sched__append(text, sizeof text, at, "script '");
    at = ecs_sched__append(text, sizeof text, at, v->path);
    at = ecs_sched__append(text, sizeof text, at, "': ");
    for (i = 1; i <= n; i++) {
        const char *piece;
        if (lua_type(L, i) == LUA_TSTRING || lua_type(L, i) == LUA_TNUMBER) {
            lua_pushvalue(L, i);
            piece = lua_tostring(L, -1);
        } else if (lua_isboolean(L, i)) {
            piece = lua_toboolean(L, i) ? "true" : "false";
            lua_pushnil(L);
        } else {
            piece = luaL_typename(L, i);
            lua_pushnil(L);
        }
        at = ecs_sched__append(text, sizeof text, at, i > 1 ? "\t" : "");
        at = ecs_sched__append(text, sizeof text, at, piece);
        lua_pop(L, 1);
    }
    ecs_sched__log(v->env, ECS_SCHED_LOG_INFO, ECS_SCHED_OK, text);
    return 0;
}

#endif /* ECS_SCHED_LUA */
