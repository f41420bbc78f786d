/* Allocation failure: for every N, a scenario runs in a child process whose Nth allocation
   fails. Each call must either report ECS_SCHED_ERR_OUT_OF_MEMORY with the world still
   consistent and no leak, or, where stb_ds cannot recover, stop with a logged fatal message.
   Anything else (a crash, a sanitizer report, a wrong value, a leak) fails the test.
   A leak is seen two ways: every child counts the blocks the library's allocation hooks hand
   out and take back, which must balance when the scenario ends; and LeakSanitizer, which also
   sees what is allocated past the hooks, checks the children of every OOM_LSAN-th point
   (default 8, make sweeps 1: its check at exit takes as long as the scenario itself). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <sys/wait.h>

static long fail_at = -1;     /* index of the allocation that fails; -1: none */
static long allocations = 0;
static long live_blocks = 0;  /* blocks the hooks handed out and did not take back */

static void *failing_realloc(void *ptr, size_t size) {
    void *block;
    if (allocations++ == fail_at) return NULL;
    block = realloc(ptr, size);
    if (!ptr && block) live_blocks++;
    return block;
}

static void counted_free(void *ptr) {
    if (ptr) live_blocks--;
    free(ptr);
}

#define ECS_SCHED_REALLOC(ptr, size) failing_realloc((ptr), (size))
#define ECS_SCHED_FREE(ptr) counted_free(ptr)
#include "ecs_sched.h"

/* stb_ds compiled here, with its allocations routed through the library's hooks. */
#define STBDS_NO_SHORT_NAMES
#define STBDS_REALLOC(ctx, ptr, size) ecs_sched_stbds_realloc((ctx), (ptr), (size))
#define STBDS_FREE(ctx, ptr) ecs_sched_stbds_free((ctx), (ptr))
#define STB_DS_IMPLEMENTATION
#include "stb_ds.h"

#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <cmocka.h>

#include "fixture.h"

typedef struct { float kg; } Mass;
typedef struct { int value; } Counted;

static int live_counted = 0;

static void counted_ctor(void *dst, int32_t n, void *ctx) {
    (void)ctx;
    memset(dst, 0, sizeof(Counted) * (size_t)n);
    live_counted += n;
}

static void counted_dtor(void *ptr, int32_t n, void *ctx) {
    (void)ptr;
    (void)ctx;
    live_counted -= n;
}

/* Exit codes of the child. */
enum { CHILD_OK = 0, CHILD_WRONG = 3 };

static ecs_sched_world *world;

/* A call failed: it must have said out of memory and left the world consistent. */
static void expect_clean_failure(const char *step) {
    if (ecs_sched_last_result(world) != ECS_SCHED_ERR_OUT_OF_MEMORY ||
        ecs_sched_world_check(world) != ECS_SCHED_OK) {
        fprintf(stderr, "step '%s' failed with '%s' (%s)\n", step,
                ecs_sched_result_string(ecs_sched_last_result(world)), ecs_sched_last_error(world));
        exit(CHILD_WRONG);
    }
}

static void check_result(ecs_sched_result r, const char *step) {
    if (r != ECS_SCHED_OK) expect_clean_failure(step);
}

/* Every entity with both components keeps velocity.x == 2 * position.x. */
static void check_values(ecs_sched_query *q) {
    ecs_sched_iter it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        const Velocity *v = ECS_SCHED_FIELD(&it, Velocity, 1);
        int32_t i;
        for (i = 0; i < it.count; i++) {
            if (v[i].x != 2 * p[i].x) {
                fprintf(stderr, "corrupted values after an allocation failure\n");
                exit(CHILD_WRONG);
            }
        }
    }
}

static void spawner(ecs_sched_system_ctx *ctx) {
    ecs_sched_commands *cmd = ecs_sched_ctx_commands(ctx);
    ecs_sched_id *ids = (ecs_sched_id *)ecs_sched_ctx_user_data(ctx);
    Position p;
    Velocity v;
    const void *values[2];
    p.x = 3;
    p.y = 0;
    v.x = 6;
    v.y = 0;
    values[0] = &p;
    values[1] = &v;
    if (cmd) (void)ecs_sched_commands_spawn_with(cmd, 2, ids, values);
}

static void mover(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) (void)it.count;
}

/* Systems, sets, conditions and commands, built and run. A failed call or run must report
   out of memory and leave the world consistent; a second run then works. */
static void schedule_scenario(ecs_sched_id *ids, ecs_sched_id mass) {
    ecs_sched_system_desc a, b, chain[3];
    ecs_sched_systems_desc group;
    ecs_sched_set_desc set;
    ecs_sched_schedule_desc settings;
    ecs_sched_condition mass_exists = ecs_sched_condition_resource_exists(mass);
    ecs_sched_condition once = ecs_sched_condition_run_once();
    ecs_sched_condition unconditional;
    ecs_sched_result r;
    int i;
    memset(&unconditional, 0, sizeof unconditional);
    unconditional.fn = always_true;
    /* A failed add leaves out what it added: then a name the others order against ("mover",
       "physics") names nothing, which is an error by default. The schedule is told to only
       warn; a failure to tell it is tried again (only one allocation fails). */
    memset(&settings, 0, sizeof settings);
    settings.unknown_sets = ECS_SCHED_REPORT_WARN;
    if (ecs_sched_schedule_configure(world, "Update", &settings) != ECS_SCHED_OK) {
        expect_clean_failure("schedule_configure");
        check_result(ecs_sched_schedule_configure(world, "Update", &settings), "schedule_configure again");
    }
    memset(&a, 0, sizeof a);
    a.name = "spawner";
    a.fn = spawner;
    a.user_data = ids;
    a.commands = true;
    a.in_set[0] = "physics";
    a.run_if[0] = &mass_exists;
    check_result(ecs_sched_add_system(world, "Update", &a), "add_system");
    memset(&b, 0, sizeof b);
    b.name = "mover";
    b.fn = mover;
    b.queries[0].terms[0] = ecs_sched_write(ids[0]);
    b.queries[0].terms[1] = ecs_sched_read(ids[1]);
    b.after[0] = "physics";
    b.run_if[0] = &unconditional;
    check_result(ecs_sched_add_system(world, "Update", &b), "add_system");
    memset(&set, 0, sizeof set);
    set.name = "physics";
    set.run_if[0] = &once;
    check_result(ecs_sched_configure_set(world, "Update", &set), "configure_set");
    memset(chain, 0, sizeof chain);
    for (i = 0; i < 3; i++) {
        chain[i].name = "link";
        chain[i].fn = mover;
        chain[i].queries[0].terms[0] = ecs_sched_read(ids[0]);
    }
    memset(&group, 0, sizeof group);
    group.systems = chain;
    group.count = 3;
    group.chain = true;
    group.after[0] = "mover";
    check_result(ecs_sched_add_systems(world, "Update", &group), "add_systems");
    r = ecs_sched_run_schedule(world, "Update");
    if (r != ECS_SCHED_OK && r != ECS_SCHED_ERR_UNKNOWN_SCHEDULE) {
        expect_clean_failure("run_schedule");
        check_result(ecs_sched_run_schedule(world, "Update"), "run_schedule again");
    }
}

static int32_t in_game_of(const int32_t *sources, void *user_data) {
    (void)user_data;
    return sources[0] == 1 ? 0 : ECS_SCHED_STATE_NONE;
}

static void apply_states(const char *what) {
    ecs_sched_result r = ecs_sched_state_apply(world, 0);
    if (r != ECS_SCHED_OK) expect_clean_failure(what);
}

/* After a failure, one more apply brings the dependent machines in line with their source. */
static void check_dependents_follow(ecs_sched_id game, ecs_sched_id in_game, ecs_sched_id phase) {
    bool playing;
    apply_states("state_apply (after the scenario)");
    playing = ecs_sched_state_get(world, game) == 1;
    if (ecs_sched_state_get(world, in_game) != (playing ? 0 : ECS_SCHED_STATE_NONE) ||
        (ecs_sched_state_get(world, phase) != ECS_SCHED_STATE_NONE) != playing) {
        fprintf(stderr, "after an allocation failure, InGame (%d) and Phase (%d) do not follow "
                        "GameState (%d)\n", (int)ecs_sched_state_get(world, in_game),
                (int)ecs_sched_state_get(world, phase), (int)ecs_sched_state_get(world, game));
        exit(CHILD_WRONG);
    }
}

/* A computed state and a sub-state of `game` (in its value 0), a push on the sub-state and
   an entity scoped to it; game then moves to 1 and back, which makes both exist and go. */
static void dependent_state_scenario(ecs_sched_id game) {
    ecs_sched_state_desc computed, sub;
    ecs_sched_system_desc enter;
    ecs_sched_state_scoped scope = ecs_sched_despawn_on_exit(0);
    ecs_sched_id in_game, phase;
    ecs_sched_entity e;
    memset(&computed, 0, sizeof computed);
    computed.name = "InGame";
    computed.values[0] = "Yes";
    computed.sources[0] = game;
    computed.compute = in_game_of;
    in_game = ecs_sched_state_register(world, &computed);
    if (!in_game) {
        expect_clean_failure("state_register (computed)");
        return;
    }
    memset(&sub, 0, sizeof sub);
    sub.name = "Phase";
    sub.values[0] = "Move";
    sub.values[1] = "Attack";
    sub.parent = game;
    sub.parent_values[1] = true;
    phase = ecs_sched_state_register(world, &sub);
    if (!phase) {
        expect_clean_failure("state_register (sub-state)");
        return;
    }
    memset(&enter, 0, sizeof enter);
    enter.name = "enter_in_game";
    enter.fn = noop;
    if (ecs_sched_on_enter(world, in_game, 0)) {
        check_result(ecs_sched_add_system(world, ecs_sched_on_enter(world, in_game, 0), &enter),
                     "add to OnEnter (computed)");
    }
    check_result(ecs_sched_state_set(world, game, 1), "state_set");
    apply_states("state_apply (sub-state starts)");
    check_dependents_follow(game, in_game, phase);
    if (ecs_sched_state_get(world, phase) != 0) return;   /* an apply failed */
    e = ecs_sched_spawn(world);
    if (e && ecs_sched_insert(world, e, ecs_sched_state_scope_id(world, phase), &scope) !=
                    ECS_SCHED_OK) {
        expect_clean_failure("insert StateScoped");
    }
    check_result(ecs_sched_state_push(world, phase, 1), "state_push (sub-state)");
    apply_states("state_apply (push)");
    check_result(ecs_sched_state_set(world, game, 0), "state_set");
    apply_states("state_apply (sub-state ends)");
    check_dependents_follow(game, in_game, phase);
}

/* A state machine registered, its transition schedules filled, and two applies. A failed
   call must report out of memory and leave the world consistent. */
static void state_scenario(void) {
    ecs_sched_state_desc desc;
    ecs_sched_system_desc apply = ecs_sched_state_transitions_system(0), enter;
    ecs_sched_id game;
    ecs_sched_result r;
    memset(&desc, 0, sizeof desc);
    desc.name = "GameState";
    desc.values[0] = "Menu";
    desc.values[1] = "Playing";
    game = ecs_sched_state_register(world, &desc);
    if (!game) {
        expect_clean_failure("state_register");
        return;
    }
    memset(&enter, 0, sizeof enter);
    enter.name = "enter";
    enter.fn = noop;
    check_result(ecs_sched_add_system(world, "StateTransition", &apply), "add apply");
    if (ecs_sched_on_enter(world, game, 1)) {
        check_result(ecs_sched_add_system(world, ecs_sched_on_enter(world, game, 1), &enter),
                     "add to OnEnter");
    }
    if (ecs_sched_on_transition(world, game, 0, 1)) {
        check_result(ecs_sched_add_system(world, ecs_sched_on_transition(world, game, 0, 1),
                                          &enter), "add to OnTransition");
    } else {
        expect_clean_failure("on_transition");
    }
    r = ecs_sched_run_schedule(world, "StateTransition");
    if (r != ECS_SCHED_OK && r != ECS_SCHED_ERR_UNKNOWN_SCHEDULE) expect_clean_failure("apply");
    check_result(ecs_sched_state_set(world, game, 1), "state_set");
    r = ecs_sched_run_schedule(world, "StateTransition");
    if (r != ECS_SCHED_OK && r != ECS_SCHED_ERR_UNKNOWN_SCHEDULE) expect_clean_failure("apply");
    check_result(ecs_sched_state_set(world, game, 0), "state_set");
    apply_states("state_apply");
    dependent_state_scenario(game);
}

static ecs_sched_result physics_build(ecs_sched_app *app, void *user_data) {
    ecs_sched_system_desc d;
    memset(&d, 0, sizeof d);
    d.name = "integrate";
    d.fn = mover;
    d.queries[0].terms[0] = ecs_sched_write(*(ecs_sched_id *)user_data);
    d.in_set[0] = "physics";
    return ecs_sched_add_system(ecs_sched_app_world(app), ECS_SCHED_FIXED_UPDATE, &d);
}

/* A buffer with commands for later on `clock` (a spawn with a value and a despawn), handed
   to the world's queue by its apply; the updates that follow apply them. */
static void delayed_commands(ecs_sched_clock clock, ecs_sched_id pos) {
    ecs_sched_commands *cmd = ecs_sched_commands_create(world);
    ecs_sched_commands *later;
    Position p = {1, 2};
    const void *values[1];
    values[0] = &p;
    if (!cmd) {
        expect_clean_failure("commands_create (delayed)");
        return;
    }
    later = ecs_sched_commands_after(cmd, clock, ECS_SCHED_MILLISECONDS(50));
    if (!later) {
        expect_clean_failure("commands_after");
    } else if (pos) {
        ecs_sched_entity e = ecs_sched_commands_spawn_with(later, 1, &pos, values);
        if (!e) expect_clean_failure("commands_spawn_with (delayed)");
        else check_result(ecs_sched_commands_despawn(later, e), "commands_despawn (delayed)");
    }
    check_result(ecs_sched_commands_apply(cmd), "commands_apply (delayed handed over)");
}

/* An app: created, a state, a plugin with an export, a timer condition, an inserted label,
   then frames with fixed steps. A failed call must report out of memory and leave the world
   consistent; later updates go on. */
static void app_scenario(void) {
    ecs_sched_app_desc desc;
    ecs_sched_app *app;
    ecs_sched_plugin physics;
    ecs_sched_system_desc timed;
    ecs_sched_condition every = ecs_sched_condition_on_timer(ECS_SCHED_MILLISECONDS(40));
    ecs_sched_state_desc state;
    ecs_sched_id pos;
    int frame;
    memset(&desc, 0, sizeof desc);
    desc.world.logger.fn = quiet;
    app = ecs_sched_app_create(&desc);
    if (!app) return;               /* a failed creation leaves nothing behind */
    world = ecs_sched_app_world(app);
    pos = ECS_SCHED_COMPONENT(world, Position);
    if (!pos) expect_clean_failure("register");
    memset(&state, 0, sizeof state);
    state.name = "Mode";
    state.values[0] = "Calm";
    state.values[1] = "Busy";
    if (!ecs_sched_state_register(world, &state)) expect_clean_failure("state_register");
    memset(&physics, 0, sizeof physics);
    physics.name = "physics";
    physics.build = physics_build;
    physics.user_data = &pos;
    physics.exports[0].schedule = ECS_SCHED_FIXED_UPDATE;
    physics.exports[0].set = "physics";
    if (pos) check_result(ecs_sched_app_add_plugin(app, &physics), "add_plugin");
    memset(&timed, 0, sizeof timed);
    timed.name = "timed";
    timed.fn = noop;
    timed.run_if[0] = &every;
    check_result(ecs_sched_add_system(world, ECS_SCHED_UPDATE, &timed), "add timed");
    check_result(ecs_sched_app_insert_schedule_after(app, ECS_SCHED_FIXED_UPDATE, "Sync"),
                 "insert_schedule");
    delayed_commands(ECS_SCHED_CLOCK_VIRTUAL, pos);
    delayed_commands(ECS_SCHED_CLOCK_FIXED, pos);
    for (frame = 0; frame < 4; frame++) {
        check_result(ecs_sched_app_update_by(app, ECS_SCHED_MILLISECONDS(35)), "update");
        if (ecs_sched_world_check(world) != ECS_SCHED_OK) expect_clean_failure("update");
    }
    ecs_sched_app_destroy(app);
}

/* A system that fails on every run: the failure (its message kept on the system's context,
   the run's first failure, the world's record) must reach the run whatever allocation
   fails, with the system's name even when its message could not be kept. */
static void fail_on_purpose(ecs_sched_system_ctx *ctx) {
    ecs_sched_ctx_fail(ctx, ECS_SCHED_ERR_SYSTEM_FAILED, "on purpose");
}

static void failure_scenario(void) {
    ecs_sched_system_desc d;
    ecs_sched_result r;
    memset(&d, 0, sizeof d);
    d.name = "fails";
    d.fn = fail_on_purpose;
    if (ecs_sched_add_system(world, "Failing", &d) != ECS_SCHED_OK) {
        expect_clean_failure("add_system (failing)");
        return;
    }
    r = ecs_sched_run_schedule(world, "Failing");
    if (r == ECS_SCHED_ERR_OUT_OF_MEMORY) {   /* the build */
        expect_clean_failure("run_schedule (failing)");
        r = ecs_sched_run_schedule(world, "Failing");
    }
    if (r != ECS_SCHED_ERR_SYSTEM_FAILED ||
        !strstr(ecs_sched_last_error(world), "system 'fails' in schedule 'Failing'")) {
        fprintf(stderr, "a failing system gave '%s' (%s)\n", ecs_sched_result_string(r),
                ecs_sched_last_error(world));
        exit(CHILD_WRONG);
    }
}

#ifdef ECS_SCHED_TRACE
/* A trace started (its buffer and path are the allocations), a failing run recorded under it
   and written when its one frame ends, and what ran listed. */
static void trace_scenario(void) {
    ecs_sched_trace_desc t;
    ecs_sched_system_desc d;
    ecs_sched_result r;
    memset(&d, 0, sizeof d);
    d.name = "fails_traced";
    d.fn = fail_on_purpose;
    if (ecs_sched_add_system(world, "Traced", &d) != ECS_SCHED_OK) {
        expect_clean_failure("add_system (traced)");
        return;
    }
    memset(&t, 0, sizeof t);
    t.capacity = 64;
    t.frames = 1;
    t.path = "/dev/null";
    if (ecs_sched_trace_start(world, &t) != ECS_SCHED_OK) {
        expect_clean_failure("trace_start");
        if (ecs_sched_trace_get_info(world).running) {
            fprintf(stderr, "a trace that failed to start runs\n");
            exit(CHILD_WRONG);
        }
        return;
    }
    ecs_sched_stats_enable(world, true);
    r = ecs_sched_run_schedule(world, "Traced");
    if (r == ECS_SCHED_ERR_OUT_OF_MEMORY) {   /* the build: the failed run is the frame */
        expect_clean_failure("run_schedule (traced)");
        ecs_sched_stats_enable(world, false);
        return;
    }
    if (r != ECS_SCHED_ERR_SYSTEM_FAILED || ecs_sched_trace_get_info(world).running) {
        fprintf(stderr, "a traced failing run gave '%s' (%s)\n", ecs_sched_result_string(r),
                ecs_sched_last_error(world));
        exit(CHILD_WRONG);
    }
    check_result(ecs_sched_what_ran_log(world, "Traced"), "what_ran_log");
    ecs_sched_stats_enable(world, false);
}
#endif

/* The world's events: tracked components (ticks, the change log, removals), a changed
   query, observers that defer changes, messages. */
static int observed_adds;

static void count_and_tag(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    ecs_sched_id *tag = (ecs_sched_id *)ecs_sched_ctx_user_data(ctx);
    observed_adds++;
    /* deferred: recorded in the observer's buffer (which may fail: then it is not recorded) */
    if (ecs_sched_insert(ecs_sched_ctx_world(ctx), t->entity, *tag, NULL) != ECS_SCHED_OK) {
        ecs_sched_ctx_clear_error(ctx);
    }
}

/* Disabling (a table move) and enabling again, directly
   and through a command buffer; a query that sees disabled entities. */
static void disabled_scenario(const ecs_sched_entity *e, int32_t n) {
    ecs_sched_commands *cmd;
    ecs_sched_query_desc qd;
    ecs_sched_query *all;
    int32_t i;
    for (i = 0; i < n; i += 4) {   /* alive: despawned and removed were the others */
        check_result(ecs_sched_disable(world, e[i]), "disable");
    }
    memset(&qd, 0, sizeof qd);
    qd.terms[0] = ecs_sched_optional_read(ecs_sched_disabled_tag(world));
    all = ecs_sched_query_create(world, &qd);
    if (!all) expect_clean_failure("query_create (disabled too)");
    cmd = ecs_sched_commands_create(world);
    if (!cmd) {
        expect_clean_failure("commands_create (disabled)");
        return;
    }
    for (i = 0; i < n; i += 4) {
        check_result(ecs_sched_commands_enable(cmd, e[i]), "commands_enable");
    }
    if (n > 3) check_result(ecs_sched_commands_disable(cmd, e[3]), "commands_disable");
    check_result(ecs_sched_commands_apply(cmd), "commands_apply (disabled)");
    ecs_sched_commands_destroy(cmd);
}

static int by_index(ecs_sched_entity a, const void *va, ecs_sched_entity b, const void *vb) {
    (void)va;
    (void)vb;
    return (a > b) - (a < b);
}

/* Relationships, a hierarchy with names, a cascading and a sorted query, commands that
   relate, and a recursive despawn. */
static void relations_scenario(ecs_sched_id pos) {
    ecs_sched_relation_desc rd;
    ecs_sched_id likes, child_of = ecs_sched_child_of(world);
    ecs_sched_entity node[12], found;
    ecs_sched_query_desc qd;
    ecs_sched_query *cascade, *sorted;
    ecs_sched_commands *cmd;
    ecs_sched_entity listed[16];
    char name[16];
    int32_t i;
    memset(&rd, 0, sizeof rd);
    rd.name = "Likes";
    rd.payload_size = sizeof(float);
    likes = ecs_sched_relation_register(world, &rd);
    if (!likes) {
        expect_clean_failure("relation_register");
        return;
    }
    for (i = 0; i < 12; i++) {
        Position p;
        const void *values[1];
        p.x = (float)i;
        p.y = 0;
        values[0] = &p;
        node[i] = ecs_sched_spawn_with(world, 1, &pos, values);
        if (!node[i]) {
            expect_clean_failure("spawn (relations)");
            return;
        }
        if (i > 0) check_result(ecs_sched_set_parent(world, node[i], node[(i - 1) / 2]), "set_parent");
        snprintf(name, sizeof name, "n%d", (int)i);
        check_result(ecs_sched_set_name(world, node[i], name), "set_name");
    }
    for (i = 1; i < 4; i++) {
        float weight = (float)i;
        check_result(ecs_sched_relate(world, node[0], likes, node[i], &weight), "relate");
    }
    check_result(ecs_sched_unrelate(world, node[0], likes, node[1]), "unrelate");
    found = ecs_sched_lookup_path(world, 0, "n0.n1.n3", NULL);
    if (!found && ecs_sched_last_result(world) != ECS_SCHED_OK) expect_clean_failure("lookup_path");
    if (ecs_sched_descendants(world, node[0], ECS_SCHED_BREADTH_FIRST, listed, 16) < 0) {
        expect_clean_failure("descendants");
    }
    memset(&qd, 0, sizeof qd);
    qd.terms[0] = ecs_sched_read(pos);
    qd.terms[1] = ecs_sched_optional_from_parent(pos);
    qd.terms[2] = ecs_sched_cascade(child_of);
    cascade = ecs_sched_query_create(world, &qd);
    if (!cascade) expect_clean_failure("query_create (cascade)");
    else if (ecs_sched_query_count(cascade) < 0) expect_clean_failure("cascade count");
    memset(&qd, 0, sizeof qd);
    qd.terms[0] = ecs_sched_read(pos);
    qd.terms[1] = ecs_sched_related(likes, node[2]);
    sorted = ecs_sched_query_create(world, &qd);
    if (!sorted) {
        expect_clean_failure("query_create (related)");
    } else {
        check_result(ecs_sched_query_order_by(sorted, pos, by_index), "order_by");
        if (ecs_sched_query_count(sorted) < 0) expect_clean_failure("sorted count");
    }
    cmd = ecs_sched_commands_create(world);
    if (!cmd) {
        expect_clean_failure("commands_create (relations)");
    } else {
        check_result(ecs_sched_commands_relate(cmd, node[5], likes, node[6], NULL), "commands_relate");
        check_result(ecs_sched_commands_set_parent(cmd, node[11], node[1]), "commands_set_parent");
        check_result(ecs_sched_commands_unrelate(cmd, node[0], likes, node[3]), "commands_unrelate");
        if (ecs_sched_commands_apply(cmd) != ECS_SCHED_OK) {
            expect_clean_failure("commands_apply (relations)");
            check_result(ecs_sched_commands_apply(cmd), "commands_apply (relations) again");
        }
        ecs_sched_commands_destroy(cmd);
    }
    check_result(ecs_sched_despawn(world, node[1]), "despawn (a subtree)");
    check_result(ecs_sched_despawn(world, node[0]), "despawn (the tree)");
    {   /* a description, and a value printed through it */
        ecs_sched_member fields[] = {ECS_SCHED_MEMBER(Position, x, ECS_SCHED_TYPE_F32),
                                     ECS_SCHED_MEMBER(Position, y, ECS_SCHED_TYPE_F32)};
        Position p = {1, 2};
        char text[64];
        check_result(ecs_sched_describe(world, pos, 2, fields), "describe");
        check_result(ecs_sched_describe(world, pos, 2, fields), "describe again");
        ecs_sched_value_print(world, pos, &p, text, sizeof text);
    }
}

/* Prefabs: a prefab tree with names and an auto-override, instantiated directly and by a
   command, an entity made an instance, an override, an inherited query. A failed
   instantiation makes nothing. */
static void inheritance_scenario(ecs_sched_id pos) {
    ecs_sched_id prefab = ecs_sched_prefab_tag(world), is_a = ecs_sched_is_a(world);
    ecs_sched_entity node[4], made, plain;
    ecs_sched_query_desc qd;
    ecs_sched_query *q;
    ecs_sched_commands *cmd;
    char name[16];
    int32_t i, before;
    for (i = 0; i < 4; i++) {
        Position p;
        const void *values[2];
        ecs_sched_id ids[2];
        p.x = (float)i;
        p.y = 0;
        ids[0] = pos;
        ids[1] = prefab;
        values[0] = &p;
        values[1] = NULL;
        node[i] = ecs_sched_spawn_with(world, 2, ids, values);
        if (!node[i]) {
            expect_clean_failure("spawn (prefab)");
            return;
        }
        if (i > 0) check_result(ecs_sched_set_parent(world, node[i], node[(i - 1) / 2]), "set_parent (prefab)");
        snprintf(name, sizeof name, "p%d", (int)i);
        if (i > 0) check_result(ecs_sched_set_name(world, node[i], name), "set_name (prefab)");
    }
    check_result(ecs_sched_auto_override(world, node[1], pos), "auto_override");
    for (i = 0; i < 3; i++) {
        before = ecs_sched_entity_count(world);
        made = ecs_sched_instantiate(world, node[0]);
        if (!made) {
            expect_clean_failure("instantiate");
            if (ecs_sched_entity_count(world) != before) {
                fprintf(stderr, "a failed instantiation made entities\n");
                exit(CHILD_WRONG);
            }
        }
    }
    plain = ecs_sched_spawn(world);
    if (!plain) {
        expect_clean_failure("spawn (instance)");
    } else {
        if (ecs_sched_relate(world, plain, is_a, node[2], NULL) != ECS_SCHED_OK) {
            expect_clean_failure("relate (IsA)");
        } else if (!ecs_sched_get_mut(world, plain, pos)) {
            expect_clean_failure("get_mut (override)");
        }
        check_result(ecs_sched_relate(world, plain, is_a, node[1], NULL), "relate (a second IsA)");
        check_result(ecs_sched_unrelate(world, plain, is_a, node[2]), "unrelate (IsA)");
    }
    memset(&qd, 0, sizeof qd);
    qd.terms[0] = ecs_sched_inherited(pos);
    q = ecs_sched_query_create(world, &qd);
    if (!q) expect_clean_failure("query_create (inherited)");
    else if (ecs_sched_query_count(q) < 0) expect_clean_failure("inherited count");
    cmd = ecs_sched_commands_create(world);
    if (!cmd) {
        expect_clean_failure("commands_create (prefabs)");
    } else {
        if (!ecs_sched_commands_instantiate(cmd, node[0])) expect_clean_failure("commands_instantiate");
        if (ecs_sched_commands_apply(cmd) != ECS_SCHED_OK) {
            expect_clean_failure("commands_apply (prefabs)");
            check_result(ecs_sched_commands_apply(cmd), "commands_apply (prefabs) again");
        }
        ecs_sched_commands_destroy(cmd);
    }
}

/* A snapshot of everything so far, changes, and a restore: a failed restore changes nothing. */
/* Sparse sets: every way in and out, with values whose constructions are counted. */
static void sparse_scenario(ecs_sched_id pos) {
    ecs_sched_component_desc desc;
    ecs_sched_id tag = ecs_sched_sparse_component_register_type(world, "OomMarked", 0, 0), counted, ids[2];
    ecs_sched_entity e[8], made;
    ecs_sched_commands *cmd;
    ecs_sched_query *q;
    const void *arrays[2];
    Counted values[8];
    int32_t before, i;
    memset(&desc, 0, sizeof desc);
    desc.name = "OomSparseCounted";
    desc.size = sizeof(Counted);
    desc.storage = ECS_SCHED_STORAGE_SPARSE;
    desc.tracked = true;
    desc.hooks.ctor = counted_ctor;
    desc.hooks.dtor = counted_dtor;
    counted = ecs_sched_component_register(world, &desc);
    if (!tag || !counted) {
        expect_clean_failure("registering sparse components");
        return;
    }
    ids[0] = pos;
    ids[1] = counted;
    before = ecs_sched_entity_count(world);
    for (i = 0; i < 4; i++) {
        e[i] = ecs_sched_spawn_with(world, 2, ids, NULL);
        if (!e[i]) {
            expect_clean_failure("spawn_with (a sparse component)");
            if (ecs_sched_entity_count(world) != before + i) {
                fprintf(stderr, "a failed spawn with a sparse component left an entity\n");
                exit(CHILD_WRONG);
            }
            e[i] = ecs_sched_spawn_with(world, 1, &pos, NULL);
            if (!e[i]) return;
        }
        if (ecs_sched_insert(world, e[i], tag, NULL) != ECS_SCHED_OK) {
            expect_clean_failure("insert (a sparse tag)");
            if (ecs_sched_has(world, e[i], tag)) {
                fprintf(stderr, "a failed sparse insert added the tag\n");
                exit(CHILD_WRONG);
            }
        }
    }
    for (i = 0; i < 8; i++) values[i].value = i;
    arrays[0] = NULL;
    arrays[1] = values;
    before = ecs_sched_entity_count(world);
    if (ecs_sched_spawn_batch(world, 8, 2, ids, arrays, e) != ECS_SCHED_OK) {
        expect_clean_failure("spawn_batch (a sparse component)");
        if (ecs_sched_entity_count(world) != before) {
            fprintf(stderr, "a failed batch with a sparse component left entities\n");
            exit(CHILD_WRONG);
        }
    }
    cmd = ecs_sched_commands_create(world);
    if (!cmd) {
        expect_clean_failure("commands_create");
        return;
    }
    made = ecs_sched_commands_spawn_with(cmd, 2, ids, NULL);
    if (!made) expect_clean_failure("commands_spawn_with (a sparse component)");
    if (ecs_sched_commands_apply(cmd) != ECS_SCHED_OK) {
        expect_clean_failure("commands_apply (a sparse component)");
        check_result(ecs_sched_commands_apply(cmd), "commands_apply again");
    }
    ecs_sched_commands_destroy(cmd);
    q = ecs_sched_query_create(world, &(ecs_sched_query_desc){{ecs_sched_read(pos), ecs_sched_write(counted),
                                                               ecs_sched_without(tag)}});
    if (!q) {
        expect_clean_failure("query_create (sparse terms)");
    } else {
        ecs_sched_iter it = ecs_sched_query_iter(q);
        while (ecs_sched_iter_next(&it)) {}
        if (ecs_sched_query_count(q) < 0) expect_clean_failure("query_count (sparse terms)");
    }
    for (i = 0; i < 4; i++) {
        if (ecs_sched_is_alive(world, e[i])) check_result(ecs_sched_remove(world, e[i], tag), "remove (a sparse tag)");
    }
}

static void snapshot_scenario(ecs_sched_id pos) {
    ecs_sched_snapshot *snap = ecs_sched_snapshot_take(world);
    ecs_sched_entity extra;
    int32_t before;
    if (!snap) {
        expect_clean_failure("snapshot_take");
        return;
    }
    extra = ecs_sched_spawn_with(world, 1, &pos, NULL);
    if (!extra) expect_clean_failure("spawn (after the snapshot)");
    if (ecs_sched_snapshot_retake(world, snap) != ECS_SCHED_OK) {   /* emptied: retaken again */
        expect_clean_failure("snapshot_retake");
        if (ecs_sched_snapshot_restore(world, snap) == ECS_SCHED_OK) {
            fprintf(stderr, "an emptied snapshot was restored\n");
            exit(CHILD_WRONG);
        }
        check_result(ecs_sched_snapshot_retake(world, snap), "snapshot_retake again");
    }
    before = ecs_sched_entity_count(world);
    if (ecs_sched_snapshot_restore(world, snap) != ECS_SCHED_OK) {
        expect_clean_failure("snapshot_restore");
        if (ecs_sched_entity_count(world) != before) {
            fprintf(stderr, "a failed restore changed the world\n");
            exit(CHILD_WRONG);
        }
        check_result(ecs_sched_snapshot_restore(world, snap), "snapshot_restore again");
    }
    ecs_sched_snapshot_free(snap);
}

/* A toggleable component: its bits through table growth, moves, commands and a snapshot. */
static void toggle_scenario(ecs_sched_id pos) {
    ecs_sched_component_desc d;
    ecs_sched_entity e[70];
    ecs_sched_commands *cmd;
    ecs_sched_snapshot *snap;
    ecs_sched_id ids[2];
    ecs_sched_id stunned;
    int32_t i;
    memset(&d, 0, sizeof d);
    d.name = "Stunned";
    d.toggleable = true;
    stunned = ecs_sched_component_register(world, &d);
    if (!stunned) {
        expect_clean_failure("component_register (toggleable)");
        return;
    }
    ids[0] = pos;
    ids[1] = stunned;
    if (ecs_sched_spawn_batch(world, 70, 2, ids, NULL, e) != ECS_SCHED_OK) {
        expect_clean_failure("spawn_batch (toggleable)");
        return;
    }
    for (i = 0; i < 70; i += 3) check_result(ecs_sched_enable_component(world, e[i], stunned, false), "enable_component");
    check_result(ecs_sched_remove(world, e[1], pos), "remove (beside a toggleable)");
    cmd = ecs_sched_commands_create(world);
    if (cmd) {
        check_result(ecs_sched_commands_enable_component(cmd, e[0], stunned, true), "commands_enable_component");
        check_result(ecs_sched_commands_apply(cmd), "commands_apply (toggles)");
        ecs_sched_commands_destroy(cmd);
    } else {
        expect_clean_failure("commands_create (toggles)");
    }
    snap = ecs_sched_snapshot_take(world);
    if (!snap) {
        expect_clean_failure("snapshot_take (toggles)");
        return;
    }
    if (ecs_sched_spawn_with(world, 2, ids, NULL) == ECS_SCHED_NULL_ENTITY) expect_clean_failure("spawn (toggleable)");
    check_result(ecs_sched_snapshot_restore(world, snap), "snapshot_restore (toggles)");
    if (ecs_sched_is_component_enabled(world, e[3], stunned) || !ecs_sched_is_component_enabled(world, e[4], stunned)) {
        fprintf(stderr, "a toggleable component's bits went wrong after an allocation failure\n");
        exit(CHILD_WRONG);
    }
    ecs_sched_snapshot_free(snap);
}

#ifdef ECS_SCHED_JSON
static char *nested_turret(const char *path, const char *from, void *user) {
    static const char text[] = "{\"entities\": [{\"components\": {\"Position\": {\"x\": 4}}},"
                               " {\"name\": \"barrel\"}]}";
    char *copy = (char *)malloc(sizeof text);
    (void)path;
    (void)from;
    (void)user;
    if (copy) memcpy(copy, text, sizeof text);
    return copy;
}

/* Prefab data from JSON with a nested file, instantiated (all or nothing), the world written
   and read back. */
static void json_scenario(ecs_sched_id pos) {
    static const char ship[] =
        "{\"entities\": [{\"components\": {\"Position\": {\"x\": 1, \"y\": 2}}},"
        " {\"name\": \"turret\", \"parent\": 0, \"prefab\": \"turret.json\"},"
        " {\"parent\": 0, \"relations\": {\"ecs_sched.IsA\": [1]}}]}";
    ecs_sched_member fields[] = {ECS_SCHED_MEMBER(Position, x, ECS_SCHED_TYPE_F32),
                                 ECS_SCHED_MEMBER(Position, y, ECS_SCHED_TYPE_F32)};
    ecs_sched_json_desc desc;
    ecs_sched_prefab_data *d, *back;
    ecs_sched_progress progress = {0, 0, 0};
    char *text;
    int32_t before;
    int i;
    if (ecs_sched_describe(world, pos, 2, fields) != ECS_SCHED_OK) {
        expect_clean_failure("describe (json)");
        return;
    }
    memset(&desc, 0, sizeof desc);
    desc.read_file = nested_turret;
    desc.progress = &progress;
    d = ecs_sched_prefab_data_from_json(world, ship, &desc);
    if (!d) {
        expect_clean_failure("prefab_data_from_json");
        return;
    }
    for (i = 0; i < 2; i++) {
        before = ecs_sched_entity_count(world);
        if (ecs_sched_prefab_data_instantiate(world, d, ECS_SCHED_NULL_ENTITY, NULL) != ECS_SCHED_OK) {
            expect_clean_failure("prefab_data_instantiate");
            if (ecs_sched_entity_count(world) != before) {
                fprintf(stderr, "a failed instantiation of prefab data made entities\n");
                exit(CHILD_WRONG);
            }
        }
    }
    ecs_sched_prefab_data_free(d);
    text = ecs_sched_json_save(world, 0, NULL, true);
    if (!text) {
        if (ecs_sched_last_result(world) == ECS_SCHED_ERR_OUT_OF_MEMORY) expect_clean_failure("json_save");
        return;
    }
    back = ecs_sched_prefab_data_from_json(world, text, NULL);
    if (!back) expect_clean_failure("prefab_data_from_json (saved)");
    ecs_sched_prefab_data_free(back);
    ecs_sched_json_free(text);
}
#endif

static void events_scenario(void) {
    static ecs_sched_id tag;
    ecs_sched_id tracked, message;
    ecs_sched_observer_desc od;
    ecs_sched_query_desc qd;
    ecs_sched_query *changed = NULL;
    ecs_sched_message_cursor cursor, removals;
    ecs_sched_entity e[40];
    uint32_t observer;
    int32_t i, n = 0;
    tracked = ECS_SCHED_TRACKED_COMPONENT(world, Mass);   /* Mass is registered: a mismatch */
    if (tracked) exit(CHILD_WRONG);
    tracked = ecs_sched_tracked_component_register_type(world, "Tracked", sizeof(Mass), 0);
    tag = ecs_sched_component_register_type(world, "Seen", 0, 0);
    message = ecs_sched_message_register_type(world, "Ping", sizeof(int), 0);
    if (!tracked || !tag || !message) {
        expect_clean_failure("register (events)");
        return;
    }
    memset(&od, 0, sizeof od);
    od.name = "count_and_tag";
    od.event = ECS_SCHED_ON_ADD;
    od.component = tracked;
    od.fn = count_and_tag;
    od.user_data = &tag;
    observer = ecs_sched_observer_add(world, &od);
    if (!observer) expect_clean_failure("observer_add");
    memset(&qd, 0, sizeof qd);
    qd.terms[0] = ecs_sched_changed(tracked);
    changed = ecs_sched_query_create(world, &qd);
    if (!changed) expect_clean_failure("query_create (changed)");
    cursor = ecs_sched_message_cursor_make(world, message);
    removals = ecs_sched_removed_cursor_make(world, tracked);
    for (i = 0; i < 40; i++) {
        Mass m;
        m.kg = (float)i;
        e[n] = ecs_sched_spawn_with(world, 1, &tracked, (const void *const[]){&m});
        if (e[n] == ECS_SCHED_NULL_ENTITY) expect_clean_failure("spawn_with (tracked)");
        else n++;
    }
    if (changed) {
        ecs_sched_iter it = ecs_sched_query_iter(changed);
        while (ecs_sched_iter_next(&it)) (void)it.count;
    }
    for (i = 0; i < n; i += 3) {
        if (!ecs_sched_get_mut(world, e[i], tracked)) expect_clean_failure("get_mut (tracked)");
    }
    for (i = 0; i < 10; i++) check_result(ecs_sched_send(world, message, &i), "send");
    ecs_sched_messages_update(world);
    {
        ecs_sched_messages read = ecs_sched_message_read(world, &cursor);
        while (ecs_sched_messages_next(&read)) (void)read.count;
    }
    for (i = 1; i < n; i += 4) check_result(ecs_sched_despawn(world, e[i]), "despawn (tracked)");
    for (i = 2; i < n; i += 4) check_result(ecs_sched_remove(world, e[i], tracked), "remove (tracked)");
    {
        ecs_sched_messages read = ecs_sched_message_read(world, &removals);
        while (ecs_sched_messages_next(&read)) (void)read.count;
    }
    if (observer) check_result(ecs_sched_observer_remove(world, observer), "observer_remove");
    disabled_scenario(e, n);
}

static void run_scenario(void) {
    ecs_sched_world_desc desc;
    ecs_sched_component_desc counted_desc;
    ecs_sched_id pos, vel, mass, tag, counted;
    ecs_sched_query *moving, *light;
    ecs_sched_entity spawned[64];
    int32_t i, n = 0;

    memset(&desc, 0, sizeof desc);
    desc.logger.fn = quiet;
    world = ecs_sched_world_create(&desc);
    if (!world) return; /* failing to create a world is a clean failure */

    pos = ECS_SCHED_COMPONENT(world, Position);
    vel = ECS_SCHED_COMPONENT(world, Velocity);
    mass = ECS_SCHED_COMPONENT(world, Mass);
    tag = ecs_sched_component_register_type(world, "Frozen", 0, 0);
    memset(&counted_desc, 0, sizeof counted_desc);
    counted_desc.name = "Counted";
    counted_desc.size = sizeof(Counted);
    counted_desc.hooks.ctor = counted_ctor;
    counted_desc.hooks.dtor = counted_dtor;
    counted = ecs_sched_component_register(world, &counted_desc);
    if (!pos || !vel || !mass || !tag || !counted) {
        expect_clean_failure("register");
        ecs_sched_world_destroy(world);
        return;
    }

    {
        ecs_sched_query_desc qd;
        memset(&qd, 0, sizeof qd);
        qd.terms[0] = ecs_sched_write(pos);
        qd.terms[1] = ecs_sched_read(vel);
        moving = ecs_sched_query_create(world, &qd);
        if (!moving) expect_clean_failure("query_create");
        memset(&qd, 0, sizeof qd);
        qd.terms[0] = ecs_sched_optional_read(mass);
        qd.terms[1] = ecs_sched_without(tag);
        light = ecs_sched_query_create(world, &qd);
        if (!light) expect_clean_failure("query_create");
    }

    for (i = 0; i < 40; i++) {
        Position p;
        Velocity v;
        ecs_sched_id ids[3];
        const void *values[3];
        ecs_sched_entity e;
        p.x = (float)i;
        p.y = 0;
        v.x = 2 * p.x;
        v.y = 0;
        ids[0] = pos; ids[1] = vel; ids[2] = counted;
        values[0] = &p; values[1] = &v; values[2] = NULL;
        e = ecs_sched_spawn_with(world, i % 2 ? 3 : 2, ids, values);
        if (e == ECS_SCHED_NULL_ENTITY) expect_clean_failure("spawn_with");
        else if (n < 64) spawned[n++] = e;
    }
    {
        Position ps[100];
        Velocity vs[100];
        ecs_sched_id ids[3];
        const void *arrays[3];
        for (i = 0; i < 100; i++) {
            ps[i].x = (float)(1000 + i);
            ps[i].y = 0;
            vs[i].x = 2 * ps[i].x;
            vs[i].y = 0;
        }
        ids[0] = pos; ids[1] = vel; ids[2] = counted;
        arrays[0] = ps; arrays[1] = vs; arrays[2] = NULL;
        check_result(ecs_sched_spawn_batch(world, 100, 3, ids, arrays, NULL), "spawn_batch");
    }
    {   /* spawns into a known archetype, half despawned again: the stack of free indices
           grows (or they are linked when it cannot), and a batch takes them back */
        ecs_sched_id ids[2];
        const void *values[2];
        const ecs_sched_archetype *known;
        ecs_sched_entity made[20];
        Position p = {0, 0};
        Velocity v = {0, 0};
        int32_t k, made_count = 0;
        ids[0] = pos; ids[1] = vel;
        values[0] = &p; values[1] = &v;
        known = ecs_sched_archetype_get(world, 2, ids);
        if (!known) expect_clean_failure("archetype_get");
        for (k = 0; known && k < 20; k++) {
            made[made_count] = ecs_sched_spawn_in(world, known, values);
            if (made[made_count] == ECS_SCHED_NULL_ENTITY) expect_clean_failure("spawn_in");
            else made_count++;
        }
        for (k = 0; k < made_count; k += 2) check_result(ecs_sched_despawn(world, made[k]), "despawn");
        check_result(ecs_sched_spawn_batch(world, 15, 1, &mass, NULL, NULL), "spawn_batch (reused)");
    }
    for (i = 0; i < n; i++) {
        Mass m;
        m.kg = (float)i;
        if (i % 3 == 0) check_result(ecs_sched_insert(world, spawned[i], mass, &m), "insert");
        if (i % 5 == 0) check_result(ecs_sched_insert(world, spawned[i], tag, NULL), "insert tag");
        if (i % 7 == 0) check_result(ecs_sched_remove(world, spawned[i], counted), "remove");
    }
    if (moving) check_values(moving);
    if (light) (void)ecs_sched_query_count(light);

    {
        ecs_sched_commands *cmd = ecs_sched_commands_create(world);
        if (!cmd) {
            expect_clean_failure("commands_create");
        } else {
            ecs_sched_result r;
            for (i = 0; i < 30; i++) {
                Position p;
                Velocity v;
                ecs_sched_entity e = ecs_sched_commands_spawn(cmd);
                p.x = (float)(5000 + i);
                p.y = 0;
                v.x = 2 * p.x;
                v.y = 0;
                if (e == ECS_SCHED_NULL_ENTITY) {
                    expect_clean_failure("commands_spawn");
                    continue;
                }
                check_result(ecs_sched_commands_insert(cmd, e, pos, &p), "commands_insert");
                check_result(ecs_sched_commands_insert(cmd, e, vel, &v), "commands_insert");
                if (i % 4 == 0) check_result(ecs_sched_commands_insert(cmd, e, tag, NULL), "tag");
            }
            for (i = 0; i < 10; i++) {
                Position p;
                Velocity v;
                ecs_sched_id ids[2];
                const void *values[2];
                p.x = (float)(7000 + i);
                p.y = 0;
                v.x = 2 * p.x;
                v.y = 0;
                ids[0] = pos; ids[1] = vel;
                values[0] = &p; values[1] = &v;
                if (ecs_sched_commands_spawn_with(cmd, 2, ids, values) == ECS_SCHED_NULL_ENTITY) {
                    expect_clean_failure("commands_spawn_with");
                }
            }
            for (i = 0; i < n; i += 2) {
                check_result(ecs_sched_commands_despawn(cmd, spawned[i]), "commands_despawn");
            }
            {
                Mass g;
                g.kg = 9.81f;
                check_result(ecs_sched_commands_set_resource(cmd, mass, &g), "set_resource");
            }
            r = ecs_sched_commands_apply(cmd);
            if (r != ECS_SCHED_OK) {
                expect_clean_failure("commands_apply");
                /* the rest applies on a second try, and nothing is applied twice */
                check_result(ecs_sched_commands_apply(cmd), "commands_apply again");
            }
            if (ecs_sched_commands_pending(cmd) != 0) exit(CHILD_WRONG);
            ecs_sched_commands_destroy(cmd);
        }
    }
    if (moving) check_values(moving);
    for (i = 1; i < n; i += 2) check_result(ecs_sched_despawn(world, spawned[i]), "despawn");
    {
        ecs_sched_id ids[2];
        ids[0] = pos;
        ids[1] = vel;
        schedule_scenario(ids, mass);
        if (moving) check_values(moving);
    }
    state_scenario();
    failure_scenario();
#ifdef ECS_SCHED_TRACE
    trace_scenario();
#endif
    events_scenario();
    relations_scenario(pos);
    inheritance_scenario(pos);
    sparse_scenario(pos);
    snapshot_scenario(pos);
    toggle_scenario(pos);
#ifdef ECS_SCHED_JSON
    json_scenario(pos);
#endif
    if (ecs_sched_world_check(world) != ECS_SCHED_OK) {
        fprintf(stderr, "world inconsistent at the end: %s\n", ecs_sched_last_error(world));
        exit(CHILD_WRONG);
    }
    ecs_sched_world_destroy(world);
    if (live_counted != 0) {
        fprintf(stderr, "%d values constructed but never destroyed\n", live_counted);
        exit(CHILD_WRONG);
    }
    app_scenario();
}

typedef enum { OUTCOME_RECOVERED, OUTCOME_ORDERLY_STOP, OUTCOME_BROKEN } outcome;

/* Every how many points a child's exit is checked by LeakSanitizer too (OOM_LSAN). */
static long lsan_every = 8;

/* Runs the scenario in a child whose allocation number `n` fails; LeakSanitizer checks the
   child's exit when `lsan` is set. */
static outcome run_child(long n, int lsan, char *log, size_t log_size) {
    int fds[2];
    pid_t pid;
    int status = 0;
    size_t used = 0;
    ssize_t got;
    if (pipe(fds) != 0) return OUTCOME_BROKEN;
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], STDERR_FILENO);
        fail_at = n;
        allocations = 0;
        run_scenario();
        if (allocations <= n) {
            fprintf(stderr, "allocation %ld was never reached\n", n);
            exit(CHILD_WRONG);
        }
        if (live_blocks != 0) {
            fprintf(stderr, "%ld block(s) the library allocated are still live after the "
                    "scenario: a leak (OOM_AT=%ld ./test_oom shows where, under LeakSanitizer)\n",
                    live_blocks, n);
            exit(CHILD_WRONG);
        }
        if (lsan) exit(CHILD_OK);   /* LeakSanitizer checks at exit */
        fflush(NULL);
        _exit(CHILD_OK);   /* leaves out the exit handlers, LeakSanitizer's among them */
    }
    close(fds[1]);
    while (used + 1 < log_size && (got = read(fds[0], log + used, log_size - used - 1)) > 0) {
        used += (size_t)got;
    }
    log[used] = '\0';
    {
        char sink[256];
        while (read(fds[0], sink, sizeof sink) > 0) {}
    }
    close(fds[0]);
    waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_OK) return OUTCOME_RECOVERED;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT &&
        strstr(log, "ecs_sched fatal: out of memory inside stb_ds")) {
        return OUTCOME_ORDERLY_STOP;
    }
    return OUTCOME_BROKEN;
}

/* The points this run sweeps: every one, or with OOM_POINTS=r/k those n with n % k == r,
   so that k runs (make test gives each compiler its share) cover them all between them. */
typedef struct { long first, step; } point_share;

static point_share points_to_sweep(void) {
    const char *text = getenv("OOM_POINTS");
    point_share share = {0, 1};
    if (text && (sscanf(text, "%ld/%ld", &share.first, &share.step) != 2 || share.step < 1 ||
                 share.first < 0 || share.first >= share.step)) {
        fprintf(stderr, "OOM_POINTS=%s: expected r/k with 0 <= r < k, e.g. 1/2\n", text);
        exit(2);
    }
    return share;
}

static void every_allocation_failure_is_recovered_or_an_orderly_stop(void **state) {
    static char log[1 << 16];
    long total, n, recovered = 0, stopped = 0, broken = 0;
    point_share share = points_to_sweep();
    (void)state;
    if (getenv("OOM_AT")) {   /* one point, in this process: OOM_AT=n ./test_oom */
        fail_at = atol(getenv("OOM_AT"));
        run_scenario();
        exit(CHILD_OK);
    }
    if (getenv("OOM_LSAN")) {
        lsan_every = atol(getenv("OOM_LSAN"));
        if (lsan_every < 1) {
            fprintf(stderr, "OOM_LSAN=%s: expected a count of points, 1 or more\n",
                    getenv("OOM_LSAN"));
            exit(2);
        }
    }
    fail_at = -1;
    allocations = 0;
    run_scenario();
    assert_int_equal(live_counted, 0);
    assert_int_equal(live_blocks, 0);
    total = allocations;
    assert_true(total > 50);
    for (n = share.first; n < total; n += share.step) {
        outcome o = run_child(n, (n / share.step) % lsan_every == 0, log, sizeof log);
        if (o == OUTCOME_RECOVERED) recovered++;
        else if (o == OUTCOME_ORDERLY_STOP) stopped++;
        else {
            broken++;
            fprintf(stderr, "allocation failure %ld of %ld went wrong:\n%s\n", n, total, log);
        }
    }
    printf("allocation failure sweep: %ld of %ld points; %ld recovered with an error code, "
           "%ld stopped in order inside stb_ds, %ld went wrong\n",
           recovered + stopped + broken, total, recovered, stopped, broken);
    assert_int_equal(broken, 0);
    assert_true(recovered > stopped);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_allocation_failure_is_recovered_or_an_orderly_stop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
