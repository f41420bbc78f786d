/* script_lua_columns: the fast way through a Lua system's rows, when ECS_SCHED_LUA is
   defined. `it:tables()` hands out the query's tables one at a time; each holds its row count,
   its entities and, per component, one column per field (t.Position.x[i], i from 1 to
   t.count). With LuaJIT a column is FFI data typed from the component's description (the
   driver declares the C types; scripts never do), which the JIT compiles to plain loads and
   stores; with Lua 5.4 it is a light proxy whose reads and writes are C calls. */
#pragma once
#include "script_lua_run.h"

/*@@ implementation @@*/
/* script_lua_columns: a column is never a pointer a script keeps: each use compares the
   column's run generation with the running one, and its index with the table's row count,
   so a column kept past its run, or indexed outside its table, raises a Lua error instead of
   reaching memory. Only numbers, bools and entities are handed out, never a reference into a
   column. */

#ifdef ECS_SCHED_LUA

#define ECS_SCHED__LUA_TABLES "ecs_sched.tables"
#define ECS_SCHED__LUA_COLUMN "ecs_sched.column"
#define ECS_SCHED__LUA_VIEW "ecs_sched.view"

/* The scalar kinds a column holds, in the order of the FFI prelude's C types. */
enum {
    ECS_SCHED__LUA_COL_I8, ECS_SCHED__LUA_COL_I16, ECS_SCHED__LUA_COL_I32, ECS_SCHED__LUA_COL_I64,
    ECS_SCHED__LUA_COL_U8, ECS_SCHED__LUA_COL_U16, ECS_SCHED__LUA_COL_U32, ECS_SCHED__LUA_COL_U64,
    ECS_SCHED__LUA_COL_F32, ECS_SCHED__LUA_COL_F64, ECS_SCHED__LUA_COL_BOOL,
    ECS_SCHED__LUA_COL_ENTITY, ECS_SCHED__LUA_COL_KINDS
};

/* A column's kind for a field, or -1 for a field no column holds (text, arrays, structs). */
static int ecs_sched__lua_column_kind(const ecs_sched__field_desc *f) {
    static const int ints[2][4] = {
        {ECS_SCHED__LUA_COL_I8, ECS_SCHED__LUA_COL_I16, ECS_SCHED__LUA_COL_I32, ECS_SCHED__LUA_COL_I64},
        {ECS_SCHED__LUA_COL_U8, ECS_SCHED__LUA_COL_U16, ECS_SCHED__LUA_COL_U32, ECS_SCHED__LUA_COL_U64}};
    int size_index = f->element == 1 ? 0 : f->element == 2 ? 1 : f->element == 4 ? 2 : 3;
    if (f->count != 1) return -1;
    switch (f->kind) {
    case ECS_SCHED_TYPE_I8: case ECS_SCHED_TYPE_I16: case ECS_SCHED_TYPE_I32:
    case ECS_SCHED_TYPE_I64: case ECS_SCHED_TYPE_ENUM:
        return ints[0][size_index];
    case ECS_SCHED_TYPE_U8: case ECS_SCHED_TYPE_U16: case ECS_SCHED_TYPE_U32:
    case ECS_SCHED_TYPE_U64:
        return ints[1][size_index];
    case ECS_SCHED_TYPE_F32: return ECS_SCHED__LUA_COL_F32;
    case ECS_SCHED_TYPE_F64: return ECS_SCHED__LUA_COL_F64;
    case ECS_SCHED_TYPE_BOOL: return f->element == 1 ? ECS_SCHED__LUA_COL_BOOL : -1;
    case ECS_SCHED_TYPE_ENTITY: return ECS_SCHED__LUA_COL_ENTITY;
    default: return -1;
    }
}

/* Where one column starts and how to step through it: row i's field is at
   base + i * stride + offset, or, with `indirect`, base holds a pointer per row (sparse
   components, a parent's component) and the field is at that pointer + offset. */
typedef struct ecs_sched__lua_span {
    unsigned char *base;
    int32_t stride;
    int32_t count;
    uint32_t offset;
    bool indirect;
    bool writable;
} ecs_sched__lua_span;

/* "Position.x of system 'move'": what errors call a column. */
static void ecs_sched__lua_column_label(const ecs_sched__lua_run *run, const char *component,
                                        const char *field, char *out, size_t capacity) {
    snprintf(out, capacity, "%s.%s of system '%s'", component, field, run->decl->name);
}

#if LUA_VERSION_NUM < 502

/* ---- LuaJIT: columns are FFI data ---- */

/* Runs once per state, with the ffi module, the address of the version's running generation
   and a table for labels; returns the function that makes a column. Each of the column C
   types (a kind, direct or through a pointer per row, read-only or writable) gets index and
   newindex functions that check the run and the bounds before the load or store. */
static const char *const ecs_sched__lua_ffi_prelude[] = {
    /* (in pieces: C99 compilers need not take a longer string) */
    "local ffi, cell, labels = ...\n"
    "local cast, tonumber, format, error = ffi.cast, tonumber, string.format, error\n"
    "local floor = math.floor\n"
    "local generation = cast('double *', cell)\n"
    "local ctypes = {'int8_t', 'int16_t', 'int32_t', 'int64_t', 'uint8_t', 'uint16_t',\n"
    "  'uint32_t', 'uint64_t', 'float', 'double', 'uint8_t', 'uint64_t'}\n"
    "local function stale(v)\n"
    "  error(labels[v.label] .. ' used outside its system\\'s run: keep the numbers it holds, '\n"
    "        .. 'not the column', 3)\n"
    "end\n"
    "local function outside(v, i)\n"
    "  error(format('%s[%s] is outside its table\\'s rows (1 to %d)', labels[v.label],\n"
    "        tostring(i), v.count), 3)\n"
    "end\n"
    "local function read_only(v)\n"
    "  error(labels[v.label] .. ' is read-only: write [inout] or [out] before its component '\n"
    "        .. 'in the query', 2)\n"
    "end\n"
    "local function not_bool(v, x)\n"
    "  error(format('%s holds a bool: give true or false, not a %s', labels[v.label],\n"
    "        type(x)), 3)\n"
    "end\n"
    /* index and newindex of a column whose row i's value is at(v, i)[0] */
    "local function accessors(kind, at)\n"
    "  local wide, bool = kind == 4 or kind == 8 or kind == 12, kind == 11\n"
    "  local function check(v, i)\n"
    "    if v.generation ~= generation[0] then stale(v) end\n"
    "    if i < 1 or i > v.count or floor(i) ~= i then outside(v, i) end\n"
    "  end\n"
    "  local get, set\n"
    "  if wide then\n"
    "    get = function(v, i) check(v, i) return tonumber(at(v, i)[0]) end\n"
    "  elseif bool then\n"
    "    get = function(v, i) check(v, i) return at(v, i)[0] ~= 0 end\n"
    "  else\n"
    "    get = function(v, i) check(v, i) return at(v, i)[0] end\n"
    "  end\n"
    "  if bool then\n"
    "    set = function(v, i, x)\n"
    "      check(v, i)\n"
    "      if x == true then at(v, i)[0] = 1 elseif x == false then at(v, i)[0] = 0\n"
    "      else not_bool(v, x) end\n"
    "    end\n"
    "  else\n"
    "    set = function(v, i, x) check(v, i) at(v, i)[0] = x end\n"
    "  end\n"
    "  return {__index = get, __newindex = set, __len = function(v) return v.count end}\n"
    "end\n"
    "local function metatype(name, fields, methods, writable)\n"
    "  ffi.cdef(format('typedef struct %s { double generation; %s; int32_t count, label; } %s;',\n"
    "    name, fields, name))\n"
    "  if writable == 0 then methods = {__index = methods.__index, __newindex = read_only,\n"
    "    __len = methods.__len} end\n"
    "  return ffi.metatype(name, methods)\n"
    "end\n",
    /* Any column: a byte stride, or a pointer per row (indirect), and the field's offset. */
    "local made = {}\n"
    "for kind = 1, #ctypes do\n"
    "  local P, PP = ffi.typeof(ctypes[kind] .. ' *'), ffi.typeof('uint8_t **')\n"
    "  local by_stride = accessors(kind, function(v, i)\n"
    "    return cast(P, v.base + ((i - 1) * v.stride + v.offset)) end)\n"
    "  local by_pointer = accessors(kind, function(v, i)\n"
    "    return cast(P, cast(PP, v.base)[i - 1] + v.offset) end)\n"
    "  for indirect = 0, 1 do\n"
    "    for writable = 0, 1 do\n"
    "      made[(kind - 1) * 4 + indirect * 2 + writable] = metatype(\n"
    "        format('ecs_sched_column_%d_%d_%d', kind, indirect, writable),\n"
    "        'uint8_t *base; int32_t stride, offset', indirect == 1 and by_pointer or by_stride,\n"
    "        writable)\n"
    "    end\n"
    "  end\n"
    "end\n"
    /* A column over whole elements of `size` bytes, its field `offset` bytes in: base points at
       row 1's field, as a C struct of `size` bytes starting with the field, so that the JIT
       steps by a constant. */
    "local typed, leaves = {}, 0\n"
    "local function typed_maker(kind, size, writable)\n"
    "  local key = format('%d:%d:%d', kind, size, writable)\n"
    "  local maker = typed[key]\n"
    "  if maker ~= nil then return maker end\n"
    "  leaves = leaves + 1\n"
    "  local leaf = format('ecs_sched_leaf_%d', leaves)\n"
    "  local tail = size - ffi.sizeof(ctypes[kind])\n"
    "  ffi.cdef(format('typedef struct %s { %s v; %s } %s;', leaf, ctypes[kind],\n"
    "    tail > 0 and format('uint8_t tail[%d];', tail) or '', leaf))\n"
    "  maker = false\n"
    "  if ffi.sizeof(leaf) == size then\n"
    "    local P, ctype = ffi.typeof(ctypes[kind] .. ' *'), ffi.typeof(leaf .. ' *')\n"
    "    local make = metatype(format('ecs_sched_typed_%d', leaves), leaf .. ' *base',\n"
    "      accessors(kind, function(v, i) return cast(P, v.base + (i - 1)) end), writable)\n"
    "    maker = function(bytes, count, label)\n"
    "      return make(generation[0], cast(ctype, bytes), count, label)\n"
    "    end\n"
    "  end\n"
    "  typed[key] = maker\n"
    "  return maker\n"
    "end\n"
    "local label_ids = {}\n"
    "local function label_id(label)\n"
    "  local id = label_ids[label]\n"
    "  if not id then\n"
    "    id = #labels + 1\n"
    "    labels[id], label_ids[label] = label, id\n"
    "  end\n"
    "  return id\n"
    "end\n"
    "return function(slot, base, stride, count, offset, label)\n"
    "  local bytes = cast('uint8_t *', base)\n"
    "  if stride > 0 and slot % 4 < 2 then\n"
    "    local maker = typed_maker(floor(slot / 4) + 1, stride, slot % 2)\n"
    "    if maker then return maker(bytes + offset, count, label_id(label)) end\n"
    "  end\n"
    "  return made[slot](generation[0], bytes, stride, offset, count, label_id(label))\n"
    "end\n",
    NULL};

static char ecs_sched__lua_column_maker_key;   /* the registry's key of the prelude's result */

/* Runs the prelude in a new state (in protected mode, the version on the stack). */
static int ecs_sched__lua_columns_setup(lua_State *L) {
    ecs_sched__lua_version *v = (ecs_sched__lua_version *)lua_touserdata(L, 1);
    luaL_Buffer text;
    size_t size;
    const char *code;
    int i;
    lua_pushlightuserdata(L, &ecs_sched__lua_column_maker_key);
    luaL_buffinit(L, &text);
    for (i = 0; ecs_sched__lua_ffi_prelude[i]; i++) luaL_addstring(&text, ecs_sched__lua_ffi_prelude[i]);
    luaL_pushresult(&text);
    code = lua_tolstring(L, -1, &size);
    if (luaL_loadbuffer(L, code, size, "=ecs_sched columns") != 0) return lua_error(L);
    lua_remove(L, -2);   /* the text */
    lua_pushcfunction(L, luaopen_ffi);
    lua_call(L, 0, 1);
    lua_pushlightuserdata(L, &v->column_generation);
    lua_newtable(L);
    lua_call(L, 3, 1);
    lua_rawset(L, LUA_REGISTRYINDEX);
    return 0;
}

/* Pushes a column over span, of the given kind, called `label` in errors. */
static void ecs_sched__lua_push_column(lua_State *L, ecs_sched__lua_version *v,
                                       const ecs_sched__lua_span *span, int kind,
                                       const char *label) {
    (void)v;
    lua_pushlightuserdata(L, &ecs_sched__lua_column_maker_key);
    lua_rawget(L, LUA_REGISTRYINDEX);
    lua_pushinteger(L, kind * 4 + (span->indirect ? 2 : 0) + (span->writable ? 1 : 0));
    lua_pushlightuserdata(L, span->base);
    lua_pushinteger(L, span->stride);
    lua_pushinteger(L, span->count);
    lua_pushinteger(L, (lua_Integer)span->offset);
    lua_pushstring(L, label);
    lua_call(L, 6, 1);
}

#else

/* ---- Lua 5.4: columns are proxies ---- */

typedef struct ecs_sched__lua_column_ud {
    uint64_t generation;
    int32_t decl;
    ecs_sched_id type;                  /* the described type that holds the field */
    const ecs_sched__field_desc *field; /* NULL: the table's entities */
    ecs_sched__lua_span span;
    char label[160];
} ecs_sched__lua_column_ud;

static int ecs_sched__lua_columns_setup(lua_State *L) {
    (void)L;
    return 0;
}

static void ecs_sched__lua_push_column(lua_State *L, ecs_sched__lua_version *v,
                                       const ecs_sched__lua_span *span, int kind,
                                       const char *label) {
    ecs_sched__lua_column_ud *column =
        (ecs_sched__lua_column_ud *)lua_newuserdata(L, sizeof *column);
    (void)kind;
    memset(column, 0, sizeof *column);
    column->generation = v->running->generation;
    column->decl = (int32_t)(v->running->decl - v->decls);
    column->span = *span;
    snprintf(column->label, sizeof column->label, "%s", label);
    luaL_getmetatable(L, ECS_SCHED__LUA_VIEW);
    lua_setmetatable(L, -2);
}

/* The address of row i (from 1) of the column at stack index 1, after the checks. */
static unsigned char *ecs_sched__lua_column_at(lua_State *L, ecs_sched__lua_version *v,
                                               ecs_sched__lua_column_ud **out) {
    /* (only a column's metatable leads here, and it is hidden: no check of the userdata's
       type, which would cost a lookup in the registry on every access) */
    ecs_sched__lua_column_ud *column = (ecs_sched__lua_column_ud *)lua_touserdata(L, 1);
    const ecs_sched__lua_span *span = &column->span;
    char where[256];
    lua_Integer i;
    int is_integer;
    if (!v->running || v->running->generation != column->generation) {
        luaL_error(L, "%s used outside its system's run (%s): keep the numbers it holds, not "
                   "the column", column->label, ecs_sched__lua_where(L, where, sizeof where));
    }
    i = lua_tointegerx(L, 2, &is_integer);
    if (!is_integer || i < 1 || i > span->count) {
        luaL_error(L, "%s[%s] is outside its table's rows (1 to %d) (%s)", column->label,
                   luaL_tolstring(L, 2, NULL), (int)span->count,
                   ecs_sched__lua_where(L, where, sizeof where));
    }
    *out = column;
    if (span->indirect) return ((unsigned char *const *)(void *)span->base)[i - 1] + span->offset;
    return span->base + (size_t)(i - 1) * (size_t)span->stride + span->offset;
}

static int ecs_sched__lua_column_index(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_column_ud *column;
    unsigned char *p = ecs_sched__lua_column_at(L, v, &column);
    ecs_sched__lua_value_ud value;
    if (!column->field) {
        ecs_sched_entity e;
        memcpy(&e, p, sizeof e);
        ecs_sched__lua_push_entity(L, e);
        return 1;
    }
    memset(&value, 0, sizeof value);
    value.type = column->type;
    value.data = p - column->field->offset;
    ecs_sched__lua_push_field(L, v, &value, column->field);
    return 1;
}

static int ecs_sched__lua_column_newindex(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_column_ud *column;
    unsigned char *p = ecs_sched__lua_column_at(L, v, &column);
    char where[256];
    if (!column->span.writable) {
        return luaL_error(L, "%s is read-only (%s): write [inout] or [out] before its component "
                          "in the query", column->label,
                          ecs_sched__lua_where(L, where, sizeof where));
    }
    ecs_sched__lua_store(L, v, column->type, p - column->field->offset, column->field, 3);
    return 0;
}

static int ecs_sched__lua_column_length(lua_State *L) {
    ecs_sched__lua_column_ud *column =
        (ecs_sched__lua_column_ud *)luaL_checkudata(L, 1, ECS_SCHED__LUA_VIEW);
    lua_pushinteger(L, column->span.count);
    return 1;
}

#endif

/* ---- a table: its count, its entities, a column table per component ---- */

/* Adds, to the Lua table on top, a column per field of `type` (a nested struct becomes a
   table of its own fields' columns). */
static void ecs_sched__lua_add_columns(lua_State *L, ecs_sched__lua_version *v,
                                       const ecs_sched__lua_run *run, ecs_sched_id type,
                                       const char *prefix, const ecs_sched__lua_span *span) {
    const ecs_sched__description *d = ecs_sched__description_of(v->world, type);
    int32_t i;
    for (i = 0; d && i < d->count; i++) {
        const ecs_sched__field_desc *f = &d->fields[i];
        ecs_sched__lua_span field = *span;
        char label[160], path[128];
        int kind = ecs_sched__lua_column_kind(f);
        snprintf(path, sizeof path, "%s.%s", prefix, f->name);
        field.offset += f->offset;
        if (f->kind == ECS_SCHED_TYPE_STRUCT && f->count == 1) {
            lua_newtable(L);
            luaL_getmetatable(L, ECS_SCHED__LUA_COLUMN);
            lua_setmetatable(L, -2);
            ecs_sched__lua_add_columns(L, v, run, f->type, path, &field);
            lua_setfield(L, -2, f->name);
            continue;
        }
        if (kind < 0) continue;
        ecs_sched__lua_column_label(run, prefix, f->name, label, sizeof label);
        ecs_sched__lua_push_column(L, v, &field, kind, label);
#if LUA_VERSION_NUM >= 502
        {
            ecs_sched__lua_column_ud *column = (ecs_sched__lua_column_ud *)lua_touserdata(L, -1);
            column->type = type;
            column->field = f;
        }
#endif
        lua_setfield(L, -2, f->name);
    }
}

/* The span of term i's values in the iteration's current table. */
static bool ecs_sched__lua_term_span(const ecs_sched__lua_run *run, ecs_sched_world *w,
                                     const ecs_sched_iter *it, int32_t i,
                                     ecs_sched__lua_span *span) {
    unsigned char *field = (unsigned char *)it->fields[i];
    memset(span, 0, sizeof *span);
    if (!field || run->access[i] == ECS_SCHED__LUA_UNREACHABLE ||
        w->components[run->terms[i]].size == 0) {
        return false;
    }
    span->base = field;
    span->count = it->count;
    span->writable = run->access[i] == ECS_SCHED__LUA_WRITE;
    if (ecs_sched_field_is_shared(it, i)) {
        span->stride = 0;   /* one value for every row */
    } else if (run->indirect[i]) {
        span->indirect = true;
    } else {
        span->stride = (int32_t)w->components[run->terms[i]].size;
    }
    return true;
}

/* Pushes the Lua table for the iteration's current table. */
static void ecs_sched__lua_push_table(lua_State *L, ecs_sched__lua_version *v,
                                      const ecs_sched__lua_run *run, const ecs_sched_iter *it) {
    ecs_sched__lua_span entities;
    char label[160];
    int32_t i;
    lua_createtable(L, 0, run->term_count + 2);
    lua_pushinteger(L, it->count);
    lua_setfield(L, -2, "count");
    memset(&entities, 0, sizeof entities);
    entities.base = (unsigned char *)(uintptr_t)it->entities;
    entities.stride = (int32_t)sizeof(ecs_sched_entity);
    entities.count = it->count;
    snprintf(label, sizeof label, "the entities of system '%s'", run->decl->name);
    ecs_sched__lua_push_column(L, v, &entities, ECS_SCHED__LUA_COL_ENTITY, label);
    lua_setfield(L, -2, "entities");
    for (i = 0; i < run->term_count; i++) {
        ecs_sched__lua_span span;
        const char *name = v->world->components[run->terms[i]].name;
        if (!ecs_sched__lua_term_span(run, v->world, it, i, &span)) continue;
        lua_newtable(L);
        luaL_getmetatable(L, ECS_SCHED__LUA_COLUMN);
        lua_setmetatable(L, -2);
        ecs_sched__lua_add_columns(L, v, run, run->terms[i], name, &span);
        lua_setfield(L, -2, name);
    }
}

typedef struct ecs_sched__lua_tables_ud {
    uint64_t generation;
    int32_t decl;
    bool started, done;
    ecs_sched_iter it;
} ecs_sched__lua_tables_ud;

/* The generic for's step over `it:tables()`. */
static int ecs_sched__lua_tables_next(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_tables_ud *tables =
        (ecs_sched__lua_tables_ud *)luaL_checkudata(L, 1, ECS_SCHED__LUA_TABLES);
    ecs_sched__lua_run *run = ecs_sched__lua_check_run(L, v, tables->generation, tables->decl,
                                                       "it:tables()");
    if (tables->done) return 0;
    if (!tables->started) {
        tables->started = true;
        tables->it = ecs_sched_ctx_iter(run->ctx, 0);
    }
    do {
        if (!ecs_sched_iter_next(&tables->it)) {
            tables->done = true;
            return 0;
        }
    } while (tables->it.count == 0);
    ecs_sched__lua_push_table(L, v, run, &tables->it);
    return 1;
}

/* it:tables(): for t in it:tables() do for i = 1, t.count do ... end end */
static int ecs_sched__lua_tables(lua_State *L) {
    ecs_sched__lua_version *v = ecs_sched__lua_self(L);
    ecs_sched__lua_iter_ud *it = (ecs_sched__lua_iter_ud *)luaL_checkudata(L, 1, ECS_SCHED__LUA_ITER);
    ecs_sched__lua_tables_ud *tables;
    ecs_sched__lua_check_run(L, v, it->generation, it->decl, "it");
    lua_pushlightuserdata(L, v);
    lua_pushcclosure(L, ecs_sched__lua_tables_next, 1);
    tables = (ecs_sched__lua_tables_ud *)lua_newuserdata(L, sizeof *tables);
    memset(tables, 0, sizeof *tables);
    tables->generation = it->generation;
    tables->decl = it->decl;
    tables->done = v->decls[it->decl].query == NULL;
    luaL_getmetatable(L, ECS_SCHED__LUA_TABLES);
    lua_setmetatable(L, -2);
    return 2;
}

/* The iteration's fields: tables, and what script_lua_run hands out. */
static int ecs_sched__lua_iter_index_columns(lua_State *L) {
    const char *name = luaL_checkstring(L, 2);
    if (strcmp(name, "tables") != 0) return ecs_sched__lua_iter_index(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushcclosure(L, ecs_sched__lua_tables, 1);
    return 1;
}

/* A column table's missing field. */
static int ecs_sched__lua_column_missing(lua_State *L) {
    return luaL_error(L, "no column '%s': a component's columns are its number, bool and entity "
                      "fields (and its structs' fields); read text and arrays through "
                      "it:rows()", luaL_checkstring(L, 2));
}

/* The metatables of tables and columns, in a new state (protected mode, the version at 1). */
static int ecs_sched__lua_columns_metatables(lua_State *L) {
    static const luaL_Reg none[] = {{NULL, NULL}};
    static const luaL_Reg column[] = {{"__index", ecs_sched__lua_column_missing}, {NULL, NULL}};
#if LUA_VERSION_NUM >= 502
    static const luaL_Reg view[] = {{"__index", ecs_sched__lua_column_index},
                                    {"__newindex", ecs_sched__lua_column_newindex},
                                    {"__len", ecs_sched__lua_column_length}, {NULL, NULL}};
#endif
    ecs_sched__lua_version *v = (ecs_sched__lua_version *)lua_touserdata(L, 1);
    ecs_sched__lua_metatable(L, v, ECS_SCHED__LUA_TABLES, none);
    ecs_sched__lua_metatable(L, v, ECS_SCHED__LUA_COLUMN, column);
#if LUA_VERSION_NUM >= 502
    ecs_sched__lua_metatable(L, v, ECS_SCHED__LUA_VIEW, view);
#endif
    return ecs_sched__lua_columns_setup(L);
}

#endif /* ECS_SCHED_LUA */
