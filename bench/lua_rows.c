/* Lua scripts (ECS_SCHED_LUA): a Lua system's iteration against the same system in C, the cost
   of running an empty Lua system against an empty C one, and reloading a script against
   compiling its text. make bench builds these rows against LuaJIT ("lua_" rows) and, in a
   second program, against Lua 5.4 ("lua54_" rows). Included by bench.c after
   schedule_rows.c. */

#if LUA_VERSION_NUM < 502
#define LUA_ROW(name) "lua_" name
#define LUA_FLAVOUR "LuaJIT 2.1"
#else
#define LUA_ROW(name) "lua54_" name
#define LUA_FLAVOUR "Lua 5.4"
#endif

/* Writes text to path; 0 after fail() when it cannot. */
static int write_script_file(bench_row *row, const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0) {
        if (f) fclose(f);
        fail(row, "cannot write a script in build/", NULL);
        return 0;
    }
    return fclose(f) == 0;
}

/* A single-threaded world with the Lua driver, its messages dropped; budget < 0: none. */
static ecs_sched_world *lua_world(int64_t budget) {
    ecs_sched_world_desc desc;
    ecs_sched_lua_desc lua;
    ecs_sched_script_driver driver;
    ecs_sched_world *w;
    memset(&desc, 0, sizeof desc);
    desc.executor = ECS_SCHED_EXECUTOR_SINGLE_THREADED;
    desc.thread_count = 1;
    desc.logger.fn = quiet_log;
    if (!(w = ecs_sched_world_create(&desc))) return NULL;
    memset(&lua, 0, sizeof lua);
    lua.instruction_budget = budget;
    driver = ecs_sched_lua_script_driver(&lua);
    if (ecs_sched_script_driver_add(w, &driver) != ECS_SCHED_OK) {
        ecs_sched_world_destroy(w);
        return NULL;
    }
    return w;
}

/* ---- lua_iter_1m: Position += Velocity over 1M entities ---- */

static const char *const LUA_MOVE_SCRIPT =
    "ecs.system{name = 'move', schedule = 'LuaMove', query = '[inout] Position, [in] Velocity',\n"
    "  run = function(it)\n"
    "    for t in it:tables() do\n"
    "      local px, py, vx, vy = t.Position.x, t.Position.y, t.Velocity.x, t.Velocity.y\n"
    "      for i = 1, t.count do\n"
    "        px[i] = px[i] + vx[i]\n"
    "        py[i] = py[i] + vy[i]\n"
    "      end\n"
    "    end\n"
    "  end}\n";

static void c_move_system(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it))
        move_kernel(ECS_SCHED_FIELD(&it, Position, 0), ECS_SCHED_FIELD(&it, const Velocity, 1),
                    it.count);
}

typedef struct schedule_side {
    ecs_sched_world *world;
    const char *schedule;
} schedule_side;

static int run_schedule_side(bench_row *row, void *state, int32_t reps) {
    schedule_side *s = (schedule_side *)state;
    int32_t r;
    for (r = 0; r < reps; r++) {
        if (ecs_sched_run_schedule(s->world, s->schedule) != ECS_SCHED_OK) {
            fail(row, s->schedule, s->world);
            return 0;
        }
    }
    return 1;
}

/* Position and Velocity described (x, y as f32), for scripts to reach by name. */
static int describe_move_components(ecs_sched_world *w, ecs_sched_id pos, ecs_sched_id vel) {
    static const ecs_sched_member position[] = {ECS_SCHED_MEMBER(Position, x, ECS_SCHED_TYPE_F32),
                                                ECS_SCHED_MEMBER(Position, y, ECS_SCHED_TYPE_F32)};
    static const ecs_sched_member velocity[] = {ECS_SCHED_MEMBER(Velocity, x, ECS_SCHED_TYPE_F32),
                                                ECS_SCHED_MEMBER(Velocity, y, ECS_SCHED_TYPE_F32)};
    return ecs_sched_describe(w, pos, 2, position) == ECS_SCHED_OK &&
           ecs_sched_describe(w, vel, 2, velocity) == ECS_SCHED_OK;
}

static void run_lua_iter_1m(bench_row *row) {
    enum { N = 1000000 };
    ecs_sched_world *w = lua_world(-1);
    ecs_sched_id pos, vel, ids[2];
    schedule_side c_side, lua_side;
    bench_sampling s = sampling(1, 1e6);
    bench_medians m;
    int32_t i;
    const char *path = "build/bench_lua_move.lua";
    if (!w) { fail(row, "world creation", NULL); return; }
    pos = ECS_SCHED_COMPONENT(w, Position);
    vel = ECS_SCHED_COMPONENT(w, Velocity);
    ids[0] = pos;
    ids[1] = vel;
    if (!describe_move_components(w, pos, vel)) { fail(row, "describe", w); goto done; }
    for (i = 0; i < N; i++) {
        Position p = initial_position(i);
        Velocity v = initial_velocity(i);
        const void *values[2];
        values[0] = &p;
        values[1] = &v;
        if (!ecs_sched_spawn_with(w, 2, ids, values)) { fail(row, "spawn_with", w); goto done; }
    }
    {
        ecs_sched_system_desc desc;
        memset(&desc, 0, sizeof desc);
        desc.name = "move";
        desc.fn = c_move_system;
        desc.queries[0].terms[0] = ecs_sched_write(pos);
        desc.queries[0].terms[1] = ecs_sched_read(vel);
        if (ecs_sched_add_system(w, "CMove", &desc) != ECS_SCHED_OK) {
            fail(row, "add_system", w);
            goto done;
        }
    }
    if (!write_script_file(row, path, LUA_MOVE_SCRIPT)) goto done;
    if (!ecs_sched_script_load(w, path)) { fail(row, "script_load", w); goto done; }
    c_side.world = lua_side.world = w;
    c_side.schedule = "CMove";
    lua_side.schedule = "LuaMove";
    s.baseline = looped(run_schedule_side, &c_side);
    s.measured = looped(run_schedule_side, &lua_side);
    if (sample_row(row, &s, &m)) {
        appendf(row, "1M entities in one table; %s with the JIT on (no instruction budget), "
                "columns from it:tables(); the C system runs bench's move_kernel", LUA_FLAVOUR);
    }
done:
    remove(path);
    ecs_sched_world_destroy(w);
}

/* ---- lua_dispatch: empty systems ---- */

static void c_empty_system(ecs_sched_system_ctx *ctx) {
    (void)ctx;
}

static void run_lua_dispatch(bench_row *row) {
    enum { SYSTEMS = 100 };
    ecs_sched_world *w = lua_world(0);
    schedule_side c_side, lua_side;
    bench_sampling s = sampling(100, SYSTEMS);
    bench_medians m;
    char *text = (char *)xmalloc(SYSTEMS * 96 + 1);
    const char *path = "build/bench_lua_empty.lua";
    ecs_sched_schedule_desc quiet;
    int32_t i;
    size_t n = 0;
    if (!w) { fail(row, "world creation", NULL); free(text); return; }
    memset(&quiet, 0, sizeof quiet);
    quiet.ambiguities = ECS_SCHED_REPORT_IGNORE;   /* (one script: its systems take turns) */
    if (ecs_sched_schedule_configure(w, "LuaEmpty", &quiet) != ECS_SCHED_OK) {
        fail(row, "schedule_configure", w);
        goto done;
    }
    for (i = 0; i < SYSTEMS; i++) {
        ecs_sched_system_desc desc;
        memset(&desc, 0, sizeof desc);
        desc.name = "empty";
        desc.fn = c_empty_system;
        if (ecs_sched_add_system(w, "CEmpty", &desc) != ECS_SCHED_OK) {
            fail(row, "add_system", w);
            goto done;
        }
        n += (size_t)sprintf(text + n, "ecs.system{name = 'empty%d', schedule = 'LuaEmpty', "
                                       "run = function(it) end}\n", (int)i);
    }
    if (!write_script_file(row, path, text)) goto done;
    if (!ecs_sched_script_load(w, path)) { fail(row, "script_load", w); goto done; }
    c_side.world = lua_side.world = w;
    c_side.schedule = "CEmpty";
    lua_side.schedule = "LuaEmpty";
    s.baseline = looped(run_schedule_side, &c_side);
    s.measured = looped(run_schedule_side, &lua_side);
    if (sample_row(row, &s, &m)) {
        appendf(row, "%d empty systems of one script, %s with the default instruction budget "
                "(10M), single-threaded executor; the value is the whole cost of one Lua system's "
                "run", SYSTEMS, LUA_FLAVOUR);
    }
done:
    remove(path);
    free(text);
    ecs_sched_world_destroy(w);
}

/* ---- script_reload: a 200-line script with 5 systems ---- */

/* A script of about 200 lines: two components and five systems, each with a helper function
   of some length, as a game's rules file would have. */
static char *reload_script_text(void) {
    char *text = (char *)xmalloc(16384);
    size_t n = 0;
    int s, k;
    n += (size_t)sprintf(text + n,
                         "-- a game's rules, long enough to measure a reload by\n"
                         "ecs.component{name = 'Mood', fields = {{'value', 'f32'}, "
                         "{'trend', 'f32'}}}\n"
                         "ecs.component{name = 'Need', fields = {{'food', 'f32'}, "
                         "{'rest', 'f32'}, {'urgent', 'bool'}}}\n\n");
    for (s = 0; s < 5; s++) {
        n += (size_t)sprintf(text + n, "local function weigh%d(mood, need)\n"
                                       "  local score = 0\n", s);
        for (k = 0; k < 24; k++) {
            n += (size_t)sprintf(text + n,
                                 "  if need.food > %d.5 then score = score + mood.value * %d end\n",
                                 k, k + s);
        }
        n += (size_t)sprintf(text + n,
                             "  return score\n"
                             "end\n\n"
                             "ecs.system{name = 'rule%d', query = '[inout] Mood, [in] Need',\n"
                             "  run = function(it)\n"
                             "    for row in it:rows() do\n"
                             "      row.Mood.trend = weigh%d(row.Mood, row.Need)\n"
                             "    end\n"
                             "  end}\n\n", s, s);
    }
    return text;
}

static int count_lines(const char *text) {
    int lines = 0;
    for (; *text; text++) lines += *text == '\n';
    return lines;
}

typedef struct reload_state {
    ecs_sched_world *world;
    ecs_sched_script *script;
    const char *text;
} reload_state;

static double reload_side(bench_row *row, void *state) {
    reload_state *r = (reload_state *)state;
    double t0 = now_ns();
    if (ecs_sched_script_reload(r->world, r->script) != ECS_SCHED_OK) {
        fail(row, "script_reload", r->world);
        return -1.0;
    }
    return now_ns() - t0;
}

/* The floor: a fresh Lua state compiles the same text and closes. */
static double lua_compile_side(bench_row *row, void *state) {
    reload_state *r = (reload_state *)state;
    double t0 = now_ns();
    lua_State *L = luaL_newstate();
    if (!L || luaL_loadbuffer(L, r->text, strlen(r->text), "=rules") != 0) {
        fail(row, "compiling the script's text", NULL);
        if (L) lua_close(L);
        return -1.0;
    }
    lua_close(L);
    return now_ns() - t0;
}

static void run_lua_script_reload(bench_row *row) {
    ecs_sched_world *w = lua_world(0);
    reload_state r;
    bench_sampling s = sampling(1, 1e6);
    bench_medians m;
    char *text = reload_script_text();
    const char *path = "build/bench_lua_rules.lua";
    int32_t i;
    if (!w) { fail(row, "world creation", NULL); free(text); return; }
    for (i = 0; i < 50; i++) {   /* the C systems of the game around it */
        ecs_sched_system_desc desc;
        memset(&desc, 0, sizeof desc);
        desc.name = "c_system";
        desc.fn = c_empty_system;
        if (ecs_sched_add_system(w, "Update", &desc) != ECS_SCHED_OK) {
            fail(row, "add_system", w);
            goto done;
        }
    }
    if (!write_script_file(row, path, text)) goto done;
    r.world = w;
    r.text = text;
    if (!(r.script = ecs_sched_script_load(w, path))) { fail(row, "script_load", w); goto done; }
    s.baseline = timed(lua_compile_side, &r);
    s.measured = timed(reload_side, &r);
    if (sample_row(row, &s, &m)) {
        appendf(row, "a script of %d lines (2 components, 5 systems) beside 50 C systems in "
                "Update, %s; a reload reads and runs the file in a new Lua state, takes out the "
                "5 systems, declares them again and rebuilds Update", count_lines(text),
                LUA_FLAVOUR);
    }
done:
    remove(path);
    free(text);
    ecs_sched_world_destroy(w);
}
