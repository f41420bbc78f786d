/* tour_schedules.c - the scheduler of ecs_sched.h: systems that declare what they touch,
   sets and ordering, adding several systems at once, schedules that run other schedules,
   building and checking (cycles, ambiguities, report levels), run conditions, commands and
   sync points, the executor, and the Graphviz export.

   The tour has six files; read them in this order:
     tour_world.c      the world: components, entities, resources, queries
     tour_commands.c   command buffers, errors, allocator and logger hooks, stb_ds
     tour_schedules.c  systems, sets, order, run conditions, sync points, the executor
                       (this file)
     tour_threads.c    the thread pool, the parallel executor, parallel queries
     tour_states.c     state machines
     tour_app.c        the app, time, the fixed step, plugins

   Each prints what it shows and exits with status 1 if something it claims does not hold.
   Give this one a file name (./tour_schedules Frame.dot) and it also writes the "Frame"
   schedule there as a Graphviz graph; render it with dot -Tsvg Frame.dot -o Frame.svg.

   Build and run from the repository root (the header, and stb_ds.h from libstb-dev):

       cc -std=c99 -O2 -I. $(pkg-config --cflags stb) examples/tour_schedules.c \
          $(pkg-config --libs stb) -o tour_schedules && ./tour_schedules

   Systems are functions the library calls for you, in an order it works out from the
   constraints you give. They live in SCHEDULES: graphs of systems and SYSTEM SETS that the
   world stores under a label and runs with ecs_sched_run_schedule(w, label). The model is
   Bevy's "stageless" scheduler. A set is a node of the graph, not a stage that runs as a
   block. Putting a node in a set, ordering it, and guarding it with a run condition are
   constraints; they only ever add up, and they are solved when the schedule is built. */
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdio.h>
#include <string.h>

typedef struct { float x, y; } Position;
typedef struct { float x, y; } Velocity;
typedef struct { float y; } Gravity;   /* resources */
typedef struct { bool on; } Paused;

static int failures;
#define CHECK(cond)                                                             \
    do {                                                                        \
        if (!(cond)) {                                                          \
            printf("CHECK FAILED, line %d: %s\n", __LINE__, #cond);             \
            failures++;                                                         \
        }                                                                       \
    } while (0)

static void section(const char *title) {
    printf("\n== %s\n", title);
}

/* Most systems of this tour only write their name down, so that the order they ran in can
   be printed and checked. */
static char ran[512];

static void note(ecs_sched_system_ctx *ctx) {
    size_t n = strlen(ran);
    snprintf(ran + n, sizeof ran - n, "%s%s", n ? " " : "", ecs_sched_ctx_name(ctx));
}

/* Runs a schedule and prints what ran. */
static ecs_sched_result run(ecs_sched_world *w, const char *label) {
    ran[0] = '\0';
    ecs_sched_result r = ecs_sched_run_schedule(w, label);
    printf("run %-13s -> %s%s\n", label, ran[0] ? ran : "(nothing)",
           r == ECS_SCHED_OK ? "" : "  [failed]");
    return r;
}

/* A schedule's plan as one line: systems, and "apply_deferred" for automatic sync points. */
static const char *plan_of(ecs_sched_world *w, const char *label) {
    static char line[512];
    const char *names[32];
    int32_t n = ecs_sched_schedule_order(w, label, names, 32);
    line[0] = '\0';
    for (int32_t i = 0; i < n && i < 32; i++) {
        size_t used = strlen(line);
        snprintf(line + used, sizeof line - used, "%s%s", i ? " " : "", names[i]);
    }
    return line;
}

/* The world's logger prints warnings (a build goes on after one) and counts them. Errors
   are printed by the tour itself, from ecs_sched_last_error, where it expects them. */
static int warnings_logged;
static char last_warning[2048];

static void print_warnings(ecs_sched_log_level level, ecs_sched_result result,
                           const char *message, void *user_data) {
    (void)result;
    (void)user_data;
    if (level != ECS_SCHED_LOG_WARN) return;
    warnings_logged++;
    snprintf(last_warning, sizeof last_warning, "%s", message);
    printf("  warning: %s\n", message);
}

/* ---- Systems ---- */

typedef struct { ecs_sched_id gravity; } Ids;   /* what the systems need to find */

static void fall(ecs_sched_system_ctx *ctx) {
    const Ids *ids = ecs_sched_ctx_user_data(ctx);
    const Gravity *g = ecs_sched_ctx_resource(ctx, ids->gravity);   /* declared in .reads */
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);                  /* the desc's query 0 */
    while (ecs_sched_iter_next(&it)) {
        Velocity *v = ECS_SCHED_FIELD(&it, Velocity, 0);
        for (int32_t i = 0; i < it.count; i++) v[i].y += g->y;
    }
}

static void peek(ecs_sched_system_ctx *ctx) {
    const Ids *ids = ecs_sched_ctx_user_data(ctx);
    const Gravity *g = ecs_sched_ctx_resource(ctx, ids->gravity);   /* not in .reads: NULL */
    if (g) printf("never printed\n");
}

/* ---- Schedules: an exclusive system that runs another schedule ---- */

static void run_fixed(ecs_sched_system_ctx *ctx) {   /* exclusive: it gets the world */
    ecs_sched_world *world = ecs_sched_ctx_world(ctx);
    for (int step = 0; step < 2; step++) {
        if (ecs_sched_run_schedule(world, "FixedUpdate") != ECS_SCHED_OK) {
            printf("%s\n", ecs_sched_last_error(world));
            break;
        }
    }
}

/* Runs the schedule named in its user_data, and keeps the error if that fails. */
static ecs_sched_result nested_result = ECS_SCHED_OK;
static char nested_error[512];

static void run_named(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *world = ecs_sched_ctx_world(ctx);
    note(ctx);
    ecs_sched_result r = ecs_sched_run_schedule(world, (const char *)ecs_sched_ctx_user_data(ctx));
    if (r != ECS_SCHED_OK) {
        nested_result = r;
        snprintf(nested_error, sizeof nested_error, "%s", ecs_sched_last_error(world));
        ecs_sched_ctx_clear_error(ctx);   /* handled: not a failure of this system */
    }
}

/* ---- Run conditions ---- */

static bool has_bodies(ecs_sched_system_ctx *ctx) {   /* a condition: reads, returns bool */
    return ecs_sched_query_count(ecs_sched_ctx_query(ctx, 0)) > 0;
}

/* For resource_equals_with: floats compared with a tolerance rather than byte by byte. */
static bool about_equal(const void *resource, const void *value, void *user_data) {
    float a = ((const Gravity *)resource)->y, b = ((const Gravity *)value)->y;
    (void)user_data;
    return a - b < 0.01f && b - a < 0.01f;
}

/* ---- Commands and sync points ---- */

static void spawn_rock(ecs_sched_system_ctx *ctx) {
    const ecs_sched_id *position = ecs_sched_ctx_user_data(ctx);
    ecs_sched_commands *cmd = ecs_sched_ctx_commands(ctx);   /* needs .commands = true */
    ecs_sched_entity rock = ecs_sched_commands_spawn(cmd);
    ecs_sched_commands_insert(cmd, rock, *position, &(Position){0, 10});
}

static int32_t rocks_seen;   /* what count_rocks saw */

static void count_rocks(ecs_sched_system_ctx *ctx) {
    rocks_seen = ecs_sched_query_count(ecs_sched_ctx_query(ctx, 0));
}

/* ---- Graphviz export ---- */

static void write_to_file(const char *text, void *user_data) {
    fputs(text, (FILE *)user_data);
}

int main(int argc, char **argv) {
    printf("ecs_sched %s: a tour of schedules\n", ECS_SCHED_VERSION_STRING);

    ecs_sched_world_desc desc = {0};
    desc.logger.fn = print_warnings;
    /* The systems of this tour share one string to write their names in, and nothing in
       their descs says so; on the parallel executor (the default with ECS_SCHED_THREADS) two
       of them could write it at once. So this world runs everything on the calling thread,
       in plan order. Shared data you want to touch from systems on the parallel executor
       is declared: a resource in .reads/.writes (tour_threads.c). */
    desc.executor = ECS_SCHED_EXECUTOR_SINGLE_THREADED;
    ecs_sched_world *w = ecs_sched_world_create(&desc);
    if (!w) return 1;
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_id vel = ECS_SCHED_COMPONENT(w, Velocity);
    ecs_sched_entity body = ecs_sched_spawn_with(w, 2, (const ecs_sched_id[]){pos, vel}, NULL);
    CHECK(body != ECS_SCHED_NULL_ENTITY);

    /* ==== Systems ========================================================================

       A system is a function void fn(ecs_sched_system_ctx *ctx) added to a schedule with a
       desc that declares what it touches. The first add or configure call that names a
       schedule creates it.

         desc field        declares
         name              the name orderings, messages and graphs use; default "system"
         fn, user_data     the function (required), and a pointer it gets back from
                           ecs_sched_ctx_user_data (valid as long as the schedule may run)
         queries           up to ECS_SCHED_MAX_QUERIES query descs (three braces: the array,
                           a desc, its terms). The schedule creates and owns the queries; the
                           system reaches query i with ecs_sched_ctx_query(ctx, i) or
                           iterates it with ecs_sched_ctx_iter(ctx, i)
         reads, writes     up to ECS_SCHED_MAX_RESOURCES resource ids each, for
                           ecs_sched_ctx_resource (reads and writes) and
                           ecs_sched_ctx_resource_mut (writes only)
         commands          a command buffer of its own, ecs_sched_ctx_commands(ctx)
         exclusive         the whole world, ecs_sched_ctx_world(ctx)
         in_set, before, after, before_ignore_deferred, after_ignore_deferred, run_if,
         ambiguous_with, ambiguous_with_all
                           where and when it runs: the sections below */
    section("Systems");
    Ids ids = {ECS_SCHED_COMPONENT(w, Gravity)};
    ecs_sched_resource_insert(w, ids.gravity, &(Gravity){-10});
    ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
        .name = "fall", .fn = fall, .user_data = &ids,
        .queries = {{{ecs_sched_write(vel)}}},   /* query descs, each a list of terms */
        .reads = {ids.gravity}});
    ecs_sched_result r = ecs_sched_run_schedule(w, "Update");   /* builds it, then runs it */
    CHECK(r == ECS_SCHED_OK);
    {
        const Velocity *bv = ecs_sched_get(w, body, vel);
        CHECK(bv && bv->y == -10.0f);
        if (bv) printf("after one run of Update, the body falls at %.1f\n", bv->y);
        CHECK(ecs_sched_schedule_exists(w, "Update") && !ecs_sched_schedule_exists(w, "Other"));
    }

    /* What a system declares is all it may use. Ask the context for anything else (a
       resource missing from .reads and .writes, a write to a resource only in .reads, a query
       index past those of the desc, a command buffer without .commands, the world without
       .exclusive) and the accessor returns NULL (or an empty iterator); that is a failure of
       the system, ECS_SCHED_ERR_ACCESS with a message that names the system, its schedule
       and the missing declaration, and that run of ecs_sched_run_schedule returns it (by
       default no system after it starts; tour_commands.c shows failures in full). */
    ecs_sched_add_system(w, "Peek", &(ecs_sched_system_desc){
        .name = "peek", .fn = peek, .user_data = &ids});
    if (ecs_sched_run_schedule(w, "Peek") == ECS_SCHED_ERR_ACCESS)
        printf("%s\n", ecs_sched_last_error(w));
    CHECK(ecs_sched_last_result(w) == ECS_SCHED_ERR_ACCESS);
    CHECK(strcmp(ecs_sched_last_error(w), "system 'peek' in schedule 'Peek': reads resource "
                                          "'Gravity' without declaring it: add it to the "
                                          "desc's .reads") == 0);
    CHECK(ecs_sched_run_schedule(w, "Update") == ECS_SCHED_OK);   /* that run only */

    /* The declarations are also what the build compares to find conflicting systems that
       nothing orders (Ambiguities, below). A desc that names an unregistered resource, or a
       query that cannot be created, is refused when added, and a refused call adds
       nothing. */
    CHECK(ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
              .name = "bad", .fn = note, .reads = {999}}) == ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    printf("refused: %s\n", ecs_sched_last_error(w));
    CHECK(strcmp(plan_of(w, "Update"), "fall") == 0);

    /* ==== Sets and order =================================================================

       - in_set puts a system or a set in one or more sets; sets nest. before and after name
         systems or sets. Each list holds up to ECS_SCHED_MAX_REFS names.
       - Ordering against a set orders against every system under it, at any depth: when the
         schedule is built, orderings that involve sets are flattened into orderings between
         systems.
       - Systems and sets share one namespace per schedule, and a name used both ways fails
         the build. A name that appears in an in_set, or in a before/after while no system
         carries it, is a set, created by that first mention ("input" below).
         ecs_sched_configure_set is only needed to give a set configuration of its own.
       - Configuration is additive and order-independent. Configuring a set again adds to
         what it has (Run conditions does that to "physics"); nothing is ever replaced or
         removed, and the calls below give the same schedule in any order.
       - Systems that nothing orders run in the order they were added (or shuffled: see
         shuffle_seed in Building and checking).
       - Order siblings: nodes in a common set, or both at the top level. An ordering
         between, say, a system inside "physics" and one at the top level ties whole sets
         together, and the build warns about it (cross_set_dependencies); order the sets
         instead. */
    section("Sets and order");
    ecs_sched_configure_set(w, "Frame", &(ecs_sched_set_desc){
        .name = "physics", .after = {"input"}});
    ecs_sched_add_system(w, "Frame", &(ecs_sched_system_desc){
        .name = "render", .fn = note, .after = {"physics"}});
    ecs_sched_add_system(w, "Frame", &(ecs_sched_system_desc){
        .name = "integrate", .fn = note, .in_set = {"physics"}});
    ecs_sched_add_system(w, "Frame", &(ecs_sched_system_desc){
        .name = "collide", .fn = note, .in_set = {"physics"}, .after = {"integrate"}});
    ecs_sched_add_system(w, "Frame", &(ecs_sched_system_desc){
        .name = "read_keys", .fn = note, .in_set = {"input"}});
    run(w, "Frame");
    CHECK(strcmp(ran, "read_keys integrate collide render") == 0);
    CHECK(warnings_logged == 0);

    /* A schedule can have a default set: every system added to it without an in_set (before
       or after the call) goes in that set, which can then be ordered and guarded like any
       other. Only systems go in the default set, and a system in it that orders itself
       against a top-level set is a cross-set ordering: order the default set instead. */
    ecs_sched_schedule_configure(w, "Tidy", &(ecs_sched_schedule_desc){
        .default_set = "gameplay"});
    ecs_sched_add_system(w, "Tidy", &(ecs_sched_system_desc){.name = "move", .fn = note});
    ecs_sched_add_system(w, "Tidy", &(ecs_sched_system_desc){
        .name = "draw", .fn = note, .in_set = {"ui"}});
    ecs_sched_configure_set(w, "Tidy", &(ecs_sched_set_desc){
        .name = "ui", .after = {"gameplay"}});   /* move is in "gameplay" */
    ecs_sched_add_system(w, "Tidy", &(ecs_sched_system_desc){.name = "aim", .fn = note});
    CHECK(run(w, "Tidy") == ECS_SCHED_OK);
    CHECK(strcmp(ran, "move aim draw") == 0);   /* aim, added last, is in gameplay too */
    CHECK(warnings_logged == 0);

    /* ==== Several systems at once ========================================================

       ecs_sched_add_systems adds an array of system descs with configuration they share.

       - A shared in_set puts each system of the group in those sets. The rest of the shared
         configuration (before, after, run_if, ambiguous_with, ...) is held by an anonymous
         set that contains the group's systems, named "(group N)" in messages and graphs. So
         .after orders the group as a whole, and a shared run_if is one condition, evaluated
         once for the whole group. Each system keeps the configuration of its own desc too.
       - .chain = true orders each system before the next. .chain_ignore_deferred = true does
         the same without automatic sync points between them (Commands and sync points). */
    section("Several systems at once");
    ecs_sched_add_systems(w, "Frame", &(ecs_sched_systems_desc){
        .systems = (ecs_sched_system_desc[]){
            {.name = "broad_pass", .fn = note},
            {.name = "narrow_pass", .fn = note},
            {.name = "solve", .fn = note},
        },
        .count = 3,
        .chain = true,                   /* broad_pass, then narrow_pass, then solve */
        .in_set = {"physics"}, .after = {"collide"}});
    run(w, "Frame");
    CHECK(strcmp(ran, "read_keys integrate collide broad_pass narrow_pass solve render") == 0);
    CHECK(warnings_logged == 0);

    /* ecs_sched_chain_sets does the same for sets, by name (the last argument is
       ignore_deferred). */
    const char *const stages[] = {"simulate", "present"};
    ecs_sched_chain_sets(w, "Late", 2, stages, false);   /* simulate before present */
    ecs_sched_add_system(w, "Late", &(ecs_sched_system_desc){
        .name = "swap_buffers", .fn = note, .in_set = {"present"}});
    ecs_sched_add_system(w, "Late", &(ecs_sched_system_desc){
        .name = "tick", .fn = note, .in_set = {"simulate"}});
    CHECK(run(w, "Late") == ECS_SCHED_OK);
    CHECK(strcmp(ran, "tick swap_buffers") == 0);

    /* ==== Schedules ======================================================================

       The world stores any number of schedules by label. ecs_sched_run_schedule builds one
       when it is new or has changed since its last build, then runs it; an unknown label
       returns ECS_SCHED_ERR_UNKNOWN_SCHEDULE, and ecs_sched_schedule_exists tells whether a
       label is known. An EXCLUSIVE system gets the whole world and may run other schedules
       from inside a run, any number of times; this is how a fixed timestep or a state
       transition runs its own schedule. */
    section("Schedules");
    ecs_sched_add_system(w, "FixedUpdate", &(ecs_sched_system_desc){.name = "step", .fn = note});
    ecs_sched_add_system(w, "Frame", &(ecs_sched_system_desc){
        .name = "run_fixed", .fn = run_fixed, .exclusive = true,
        .after = {"input"}, .before = {"physics"}});
    run(w, "Frame");   /* run_fixed itself calls nothing, it only runs FixedUpdate twice */
    CHECK(strcmp(ran, "read_keys step step integrate collide broad_pass narrow_pass solve "
                      "render") == 0);
    CHECK(warnings_logged == 0);
    CHECK(ecs_sched_run_schedule(w, "Nowhere") == ECS_SCHED_ERR_UNKNOWN_SCHEDULE);
    printf("%s\n", ecs_sched_last_error(w));

    /* - A schedule cannot run while it is already running, directly or through other
         schedules: that inner ecs_sched_run_schedule returns ECS_SCHED_ERR_RECURSIVE_RUN (its
         message shows the chain) and runs nothing; the runs already under way go on. Nested
         runs are limited to a depth of 64 (ECS_SCHED_ERR_LIMIT).
       - A call that fails inside a system is that system's failure, and fails the run,
         unless the system handles it and says so with ecs_sched_ctx_clear_error, as
         run_named does (tour_commands.c: Failures inside systems).
       - An exclusive system may change the world directly (spawn, insert, despawn...)
         through the world API; its changes are visible to every system after it. Its context
         accessors follow the same rules as any system's.
       - Adding to a schedule while it runs (from an exclusive system) is allowed; the change
         takes effect at its next run. */
    ecs_sched_add_system(w, "Outer", &(ecs_sched_system_desc){
        .name = "outer", .fn = run_named, .user_data = "Inner", .exclusive = true});
    ecs_sched_add_system(w, "Inner", &(ecs_sched_system_desc){
        .name = "inner", .fn = run_named, .user_data = "Outer", .exclusive = true});
    CHECK(run(w, "Outer") == ECS_SCHED_OK);   /* inner handled the refused run */
    printf("inner's run of Outer: %s\n", nested_error);
    CHECK(nested_result == ECS_SCHED_ERR_RECURSIVE_RUN);
    CHECK(strstr(nested_error, "(Outer -> Inner -> Outer)") != NULL);
    CHECK(strcmp(ran, "outer inner") == 0);

    /* ==== Building and checking ==========================================================

       A schedule is built by its first run and again by the first run after it changes;
       ecs_sched_schedule_build(w, label) builds it at once. The build resolves names, checks
       the set hierarchy and the orderings, flattens sets, orders the systems, checks their
       access and places the sync points. If the build fails, nothing runs and the world is
       unchanged: ecs_sched_run_schedule (and ecs_sched_schedule_build,
       ecs_sched_schedule_order, ecs_sched_schedule_write_dot) returns the error, and
       ecs_sched_last_error names the nodes, shows the path and suggests a fix (it keeps the
       first 511 characters of a long report; the world's logger receives it whole). The
       schedule stays unbuilt, and every run fails the same way until more configuration
       repairs it. */
    section("Building and checking");
    ecs_sched_add_system(w, "Loop", &(ecs_sched_system_desc){
        .name = "a", .fn = note, .before = {"b"}});
    ecs_sched_add_system(w, "Loop", &(ecs_sched_system_desc){
        .name = "b", .fn = note, .before = {"a"}});
    ran[0] = '\0';
    if (ecs_sched_run_schedule(w, "Loop") == ECS_SCHED_ERR_DEPENDENCY_CYCLE)   /* nothing ran */
        printf("%s\n", ecs_sched_last_error(w));
    CHECK(ran[0] == '\0');
    CHECK(strcmp(ecs_sched_last_error(w),
                 "schedule 'Loop': the before/after constraints form a cycle: system 'a' runs "
                 "before system 'b' runs before system 'a'. Remove one of these orderings") == 0);
    CHECK(ecs_sched_schedule_build(w, "Loop") == ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    CHECK(ecs_sched_schedule_order(w, "Loop", NULL, 0) == -1);

    /* These always fail the build:

         ECS_SCHED_ERR_DEPENDENCY_CYCLE     the orderings form a cycle, including one that only
                                            appears once sets are flattened (a system in two
                                            sets that are ordered against each other)
         ECS_SCHED_ERR_HIERARCHY_CYCLE      sets contain each other
         ECS_SCHED_ERR_HIERARCHY_REDUNDANT  a node is in a set directly and also through
                                            another set that is in it
         ECS_SCHED_ERR_ORDER_AGAINST_PARENT a node is ordered before or after a set that
                                            contains it
         ECS_SCHED_ERR_NAME_CONFLICT        a name is used for systems and for a set
         ECS_SCHED_ERR_CONDITION_WRITES     a run condition declares write access

       Three of them, each with its message: */
    ecs_sched_configure_set(w, "Nest", &(ecs_sched_set_desc){.name = "outer", .in_set = {"inner"}});
    ecs_sched_configure_set(w, "Nest", &(ecs_sched_set_desc){.name = "inner", .in_set = {"outer"}});
    CHECK(ecs_sched_schedule_build(w, "Nest") == ECS_SCHED_ERR_HIERARCHY_CYCLE);
    printf("%s\n", ecs_sched_last_error(w));
    ecs_sched_add_system(w, "Parent", &(ecs_sched_system_desc){
        .name = "child", .fn = note, .in_set = {"family"}, .before = {"family"}});
    CHECK(ecs_sched_schedule_build(w, "Parent") == ECS_SCHED_ERR_ORDER_AGAINST_PARENT);
    printf("%s\n", ecs_sched_last_error(w));
    ecs_sched_add_system(w, "Names", &(ecs_sched_system_desc){.name = "audio", .fn = note});
    ecs_sched_add_system(w, "Names", &(ecs_sched_system_desc){
        .name = "music", .fn = note, .in_set = {"audio"}});
    CHECK(ecs_sched_schedule_build(w, "Names") == ECS_SCHED_ERR_NAME_CONFLICT);
    printf("%s\n", ecs_sched_last_error(w));

    /* These are reported at a level you choose per schedule (ecs_sched_schedule_desc):

         field                   default  result at error level             when
         cross_set_dependencies  warn     ECS_SCHED_ERR_CROSS_SET_DEPENDENCY an ordering
                                          between nodes that are not siblings
         unknown_sets            error    ECS_SCHED_ERR_UNKNOWN_SET          a name in
                                          before/after/ambiguous_with names nothing: no
                                          system, no set configured or with members (a
                                          typo: the message suggests the closest name)
         ambiguities             warn     ECS_SCHED_ERR_AMBIGUITY            conflicting
                                          systems that nothing orders (below)
         duplicate_names         error    ECS_SCHED_ERR_DUPLICATE_NAME       an ordering names
                                          several systems that share a name (at warn or
                                          ignore level it orders against all of them)

       The levels are ECS_SCHED_REPORT_IGNORE, _WARN (a message to the world's logger, at
       warning level; the build goes on) and _ERROR (the build fails with that result);
       ECS_SCHED_REPORT_DEFAULT (zero) means the default above.

       ecs_sched_schedule_configure sets all of a schedule's settings at once (default_set
       included): a second call replaces the first, and its zero fields mean the defaults. It
       creates the schedule if needed. */
    ecs_sched_schedule_configure(w, "Strict", &(ecs_sched_schedule_desc){
        .ambiguities = ECS_SCHED_REPORT_ERROR,      /* fail the build instead of warning */
        .cross_set_dependencies = ECS_SCHED_REPORT_IGNORE,
        .shuffle_seed = 42});                       /* shuffle what nothing orders */
    ecs_sched_add_system(w, "Strict", &(ecs_sched_system_desc){.name = "tick", .fn = note});
    ecs_sched_add_system(w, "Strict", &(ecs_sched_system_desc){
        .name = "lonely", .fn = note, .in_set = {"misspelt"}, .after = {"tik"}});
    CHECK(ecs_sched_schedule_build(w, "Strict") == ECS_SCHED_ERR_UNKNOWN_SET);
    printf("%s\n", ecs_sched_last_error(w));   /* a set only joined (misspelt) is fine */
    CHECK(strstr(ecs_sched_last_error(w), "Did you mean 'tick'?") != NULL);
    CHECK(warnings_logged == 0);

    /* Shuffled order. Systems that nothing orders run in the order they were added. A
       nonzero shuffle_seed shuffles that order instead (the same seed gives the same order),
       while every constraint still holds. Running your tests under a few seeds finds systems
       that only work in an order nobody wrote down. */
    {
        static const char *const five[] = {"s1", "s2", "s3", "s4", "s5"};
        for (int i = 0; i < 5; i++) {
            ecs_sched_add_system(w, "Shuffled", &(ecs_sched_system_desc){
                .name = five[i], .fn = note, .after = {i == 4 ? "s1" : NULL}});
        }
        printf("no seed:  %s\n", plan_of(w, "Shuffled"));
        CHECK(strcmp(plan_of(w, "Shuffled"), "s1 s2 s3 s4 s5") == 0);
        ecs_sched_schedule_configure(w, "Shuffled", &(ecs_sched_schedule_desc){.shuffle_seed = 7});
        char seven[64];
        snprintf(seven, sizeof seven, "%s", plan_of(w, "Shuffled"));
        printf("seed 7:   %s\n", seven);
        CHECK(strcmp(seven, "s1 s2 s3 s4 s5") != 0);
        CHECK(strstr(seven, "s1") < strstr(seven, "s5"));   /* s5 after s1, whatever the seed */
        ecs_sched_schedule_configure(w, "Shuffled", &(ecs_sched_schedule_desc){.shuffle_seed = 7});
        CHECK(strcmp(plan_of(w, "Shuffled"), seven) == 0);   /* same seed, same order */
    }

    /* ==== Ambiguities ====================================================================

       Two systems CONFLICT when one writes a component (through a query) or a resource that
       the other reads or writes, or when either is exclusive. The reads of a system's run
       conditions, and of the conditions of the sets it is in, count as its own. Two
       conflicting systems that no chain of orderings puts one after the other are AMBIGUOUS:
       the plan runs them in some order, but nothing you wrote says which, and adding an
       unrelated system can change it. The build lists such pairs (the first 64, then how
       many more). */
    section("Ambiguities");
    ecs_sched_add_system(w, "Draw", &(ecs_sched_system_desc){
        .name = "push", .fn = note, .queries = {{{ecs_sched_write(pos)}}}});
    ecs_sched_add_system(w, "Draw", &(ecs_sched_system_desc){
        .name = "draw", .fn = note, .queries = {{{ecs_sched_read(pos)}}}});
    CHECK(ecs_sched_schedule_build(w, "Draw") == ECS_SCHED_OK);   /* OK, and a warning */
    CHECK(warnings_logged == 1);
    CHECK(strcmp(last_warning,
                 "schedule 'Draw': 1 pair(s) of systems access the same data in conflicting "
                 "ways and nothing orders them:\n"
                 "  system 'push' and system 'draw': component 'Position' (first writes, second "
                 "reads)\n"
                 "Order each pair (or their sets) with before/after, or, when either order is "
                 "fine, declare them ambiguous_with each other") == 0);

    /* Order them, or, when either order is fine, say so: ambiguous_with names systems or sets
       (a set covers every system under it), in either of the two descs; ambiguous_with_all =
       true silences every pair that involves the system, or the systems of the set, that sets
       it. ecs_sched_apply_deferred systems are never reported. */
    ecs_sched_add_system(w, "Draw", &(ecs_sched_system_desc){
        .name = "draw_debug", .fn = note, .queries = {{{ecs_sched_read(pos)}}},
        .ambiguous_with = {"push"}});   /* either order is fine: not reported */
    warnings_logged = 0;
    printf("draw_debug added, ambiguous_with push; the build reports:\n");
    CHECK(ecs_sched_schedule_build(w, "Draw") == ECS_SCHED_OK);
    CHECK(warnings_logged == 1);   /* push and draw, still; draw_debug is not mentioned */
    CHECK(strstr(last_warning, "draw_debug") == NULL);
    warnings_logged = 0;

    /* An exclusive system conflicts with every other system, so order it against the others
       (or give it ambiguous_with_all). */

    /* ==== Run conditions =================================================================

       A run condition decides, each run, whether what it guards runs at all. It is a
       function bool fn(ecs_sched_system_ctx *ctx) with read-only access, or one of the
       built-ins, given by address in run_if (up to ECS_SCHED_MAX_CONDITIONS entries; NULL
       entries are skipped) of a system, a set or a group. Defined once, one condition can
       guard many systems (.run_if = {&not_paused}); in C99, &(ecs_sched_condition){...}
       writes one in place, and ECS_SCHED_COND(expr) gives an address to a condition made by
       an expression, such as a built-in. */
    section("Run conditions");
    ecs_sched_id paused = ECS_SCHED_COMPONENT(w, Paused);
    ecs_sched_resource_insert(w, paused, &(Paused){false});
    ecs_sched_condition not_paused =
        ecs_sched_condition_resource_equals(paused, &(Paused){false}, sizeof(Paused));
    ecs_sched_configure_set(w, "Frame", &(ecs_sched_set_desc){
        .name = "physics",   /* adds to the set configured above */
        .run_if = {&not_paused}});
    ecs_sched_add_system(w, "Frame", &(ecs_sched_system_desc){
        .name = "hud", .fn = note, .after = {"physics"},
        .run_if = {&(ecs_sched_condition){.fn = has_bodies, .queries = {{{ecs_sched_read(pos)}}}},
                   ECS_SCHED_COND(ecs_sched_condition_run_once())}});
    run(w, "Frame");
    CHECK(strcmp(ran, "read_keys step step integrate collide broad_pass narrow_pass solve "
                      "render hud") == 0);
    CHECK(warnings_logged == 0);

    ecs_sched_resource_insert(w, paused, &(Paused){true});
    run(w, "Frame");   /* physics is skipped, and hud's run_once is used up */
    CHECK(strcmp(ran, "read_keys step step render") == 0);

    /* - Read-only. A condition declares what it reads like a system does (queries, reads in
         ecs_sched_condition). One that declares a write (writes, or a write term in a query)
         fails the build with ECS_SCHED_ERR_CONDITION_WRITES; asking its context for a
         command buffer, the world or a mutable resource is refused with ECS_SCHED_ERR_ACCESS.
         Its reads count as reads of the systems it guards in the ambiguity check.
       - All must hold. A system runs only if every condition of every set it is in, at any
         depth, and every condition of its own is true.
       - At most once per run, just in time. Each run_if entry is a condition of its own,
         evaluated at most once per schedule run, right before the first system it guards
         would run, so it sees what the systems before it did. For each system the executor
         evaluates the conditions of its sets first, outermost set first (each set once per
         run), then the system's own.
       - A false condition skips everything under it, and the conditions under it are not
         evaluated: a skipped system's own conditions, and those of inner sets, are left for a
         later system or the next run. A run-once condition under a false one stays armed.
       - All entries of one node are evaluated, then combined: a system, set or group
         evaluates each of its run_if entries (so a run_once next to a false condition is
         used up), and runs only if all were true.
       - Combinators short-circuit. ecs_sched_condition_and(&a, &b), _or(&a, &b) and _not(&a)
         build trees; the second operand of and is not evaluated when the first is false,
         nor that of or when the first is true.
       - Built-ins. ecs_sched_condition_resource_exists(id);
         ecs_sched_condition_resource_equals(id, &value, size), true when the resource exists
         and its bytes equal value's (size must be the resource's size, or the add fails with
         ECS_SCHED_ERR_INVALID_ARGUMENT); ecs_sched_condition_resource_equals_with(id, &value,
         size, equals, user_data) compares with your function instead, for values with
         padding or floats; ecs_sched_condition_run_once(), true the first time it is
         evaluated, then false.
       - Conditions are copied when added: the operands of a combinator, the value of an
         equals condition, and the queries are copied into the schedule, so all of them may
         be temporaries. Until then a combinator holds pointers to its operands. name labels
         a condition in messages and graphs (a default comes from its kind). */
    ecs_sched_condition gravity_on = ecs_sched_condition_resource_exists(ids.gravity);
    ecs_sched_condition is_paused =
        ecs_sched_condition_resource_equals(paused, &(Paused){true}, sizeof(Paused));
    ecs_sched_condition running = ecs_sched_condition_not(&is_paused);
    ecs_sched_add_system(w, "Frame", &(ecs_sched_system_desc){
        .name = "wind", .fn = note, .in_set = {"physics"},
        .run_if = {ECS_SCHED_COND(ecs_sched_condition_and(&gravity_on, &running))}});
    ecs_sched_add_system(w, "Frame", &(ecs_sched_system_desc){
        .name = "earth_gravity", .fn = note, .in_set = {"physics"}, .after = {"wind"},
        .run_if = {ECS_SCHED_COND(ecs_sched_condition_resource_equals_with(
            ids.gravity, &(Gravity){-9.995f}, sizeof(Gravity), about_equal, NULL))}});

    ecs_sched_resource_insert(w, paused, &(Paused){false});
    CHECK(run(w, "Frame") == ECS_SCHED_OK);   /* hud's run_once was used up */
    CHECK(strstr(ran, "wind") != NULL && strstr(ran, "earth_gravity") != NULL);
    CHECK(strstr(ran, "hud") == NULL);

    ecs_sched_resource_remove(w, ids.gravity);   /* no gravity: no wind, no earth gravity */
    CHECK(run(w, "Frame") == ECS_SCHED_OK);
    CHECK(strstr(ran, "wind") == NULL && strstr(ran, "earth_gravity") == NULL);
    CHECK(strstr(ran, "solve") != NULL);
    CHECK(warnings_logged == 0);

    /* A condition that declares a write is refused by the build. */
    CHECK(ecs_sched_add_system(w, "Writes", &(ecs_sched_system_desc){
              .name = "x", .fn = note,
              .run_if = {&(ecs_sched_condition){.fn = has_bodies, .writes = {paused}}}})
          == ECS_SCHED_OK);
    CHECK(ecs_sched_schedule_build(w, "Writes") == ECS_SCHED_ERR_CONDITION_WRITES);
    printf("%s\n", ecs_sched_last_error(w));

    /* ==== Commands and sync points =======================================================

       A system that declares .commands = true has a command buffer of its own
       (ecs_sched_ctx_commands) to record spawns, despawns, inserts, removes and resource
       sets. They take effect at the next SYNC POINT, where the pending commands of every
       system of the schedule are applied, the buffers in plan order, each in recorded order.
       Sync points are:

       - the final flush at the end of every run, so no command outlives the run that
         recorded it;
       - the systems you add with .fn = ecs_sched_apply_deferred, at the place you order them;
       - the automatic sync points the build inserts.

       The rule for automatic sync points: when a system with .commands = true is ordered
       before another system (directly, after sets are flattened into system-to-system
       orderings), a sync point is inserted between the two, unless that ordering was given
       as ignore-deferred (before_ignore_deferred, after_ignore_deferred,
       chain_ignore_deferred, or ecs_sched_chain_sets with ignore_deferred) or the later
       system is itself an ecs_sched_apply_deferred. (If the same two systems are ordered
       twice, once with and once without ignore-deferred, the sync point stays.) All the
       orderings that can share a sync point share one: each system is given the number of
       sync points that the longest chain of orderings leading to it must cross, and the
       orderings into systems with the same number use the same sync point. So a schedule
       gets as many automatic sync points as its longest chain needs, not one per ordering.
       .no_auto_sync = true in the schedule desc turns the rule off, leaving your
       apply_deferred systems and the final flush. */
    section("Commands and sync points");
    ecs_sched_add_systems(w, "Spawn", &(ecs_sched_systems_desc){
        .systems = (ecs_sched_system_desc[]){
            {.name = "spawn_rock", .fn = spawn_rock, .user_data = &pos, .commands = true},
            {.name = "count_rocks", .fn = count_rocks, .queries = {{{ecs_sched_read(pos)}}}},
        },
        .count = 2, .chain = true});
    const char *names[8];
    int32_t steps = ecs_sched_schedule_order(w, "Spawn", names, 8);
    printf("Spawn: %d steps: %s\n", (int)steps, plan_of(w, "Spawn"));
    CHECK(steps == 3 && strcmp(plan_of(w, "Spawn"), "spawn_rock apply_deferred count_rocks") == 0);
    CHECK(strcmp(names[1], "apply_deferred") == 0);
    {
        int32_t before = ecs_sched_entity_count(w);
        CHECK(ecs_sched_run_schedule(w, "Spawn") == ECS_SCHED_OK);
        printf("count_rocks saw %d entities with a position; the world has %d\n",
               (int)rocks_seen, (int)ecs_sched_entity_count(w));
        CHECK(rocks_seen == before + 1);   /* the new rock is counted in the same run */
        CHECK(ecs_sched_entity_count(w) == before + 1);
    }

    /* With .chain_ignore_deferred = true instead, the plan has no sync point, and the rock
       appears at the final flush, after count_rocks has counted. */
    ecs_sched_add_systems(w, "Spawn later", &(ecs_sched_systems_desc){
        .systems = (ecs_sched_system_desc[]){
            {.name = "spawn_rock", .fn = spawn_rock, .user_data = &pos, .commands = true},
            {.name = "count_rocks", .fn = count_rocks, .queries = {{{ecs_sched_read(pos)}}}},
        },
        .count = 2, .chain_ignore_deferred = true});
    printf("Spawn later: %s\n", plan_of(w, "Spawn later"));
    {
        int32_t before = ecs_sched_entity_count(w);
        CHECK(strcmp(plan_of(w, "Spawn later"), "spawn_rock count_rocks") == 0);
        CHECK(ecs_sched_run_schedule(w, "Spawn later") == ECS_SCHED_OK);
        CHECK(rocks_seen == before);
        CHECK(ecs_sched_entity_count(w) == before + 1);
    }

    /* To place the sync point yourself: */
    ecs_sched_add_system(w, "Spawn by hand", &(ecs_sched_system_desc){
        .name = "spawn_rock", .fn = spawn_rock, .user_data = &pos, .commands = true,
        .before = {"flush"}});
    ecs_sched_add_system(w, "Spawn by hand", &(ecs_sched_system_desc){
        .name = "flush", .fn = ecs_sched_apply_deferred, .before = {"count_rocks"}});
    ecs_sched_add_system(w, "Spawn by hand", &(ecs_sched_system_desc){
        .name = "count_rocks", .fn = count_rocks, .queries = {{{ecs_sched_read(pos)}}}});
    printf("Spawn by hand: %s\n", plan_of(w, "Spawn by hand"));
    {
        int32_t before = ecs_sched_entity_count(w);
        CHECK(strcmp(plan_of(w, "Spawn by hand"), "spawn_rock flush count_rocks") == 0);
        CHECK(ecs_sched_run_schedule(w, "Spawn by hand") == ECS_SCHED_OK);
        CHECK(rocks_seen == before + 1);
        CHECK(warnings_logged == 0);
    }

    /* .no_auto_sync turns the rule off; configuring with NULL goes back to the defaults. */
    ecs_sched_schedule_configure(w, "Spawn", &(ecs_sched_schedule_desc){.no_auto_sync = true});
    printf("Spawn, no_auto_sync: %s\n", plan_of(w, "Spawn"));
    CHECK(strcmp(plan_of(w, "Spawn"), "spawn_rock count_rocks") == 0);
    CHECK(ecs_sched_schedule_configure(w, "Spawn", NULL) == ECS_SCHED_OK);
    CHECK(strcmp(plan_of(w, "Spawn"), "spawn_rock apply_deferred count_rocks") == 0);

    /* A system that is not ordered after a command writer may run before or after the sync
       point that applies its commands: order it if it depends on them. If applying a command
       fails at a sync point, the run goes on, the commands not applied stay pending for the
       next sync point, and the run returns the first such error. An apply_deferred system
       can have run conditions; when they are false, it applies nothing. A nested run applies
       the commands of its own schedule's systems only.

       An exclusive system is the other way to change structure: it changes the world
       directly, at its place in the plan, and everything after it sees the change at once. */

    /* ==== The executor ===================================================================

       The single-threaded executor runs a schedule on the calling thread, in plan order, one
       step at a time (the parallel one is in tour_threads.c): for each system, the
       conditions that guard it, then the system, or the sync point; at the end, the final
       flush. The plan stays the same from run to run until the schedule changes.
       ecs_sched_schedule_order lists it: up to capacity names (systems, and
       "apply_deferred" for automatic sync points), returning the plan's length, or -1 when
       the build fails. A run returns the first error from applying commands if there was
       one, otherwise ECS_SCHED_ERR_ACCESS if a system or condition used something it did not
       declare, otherwise ECS_SCHED_OK. A world, and its schedules, must not be used from two
       of your threads at once. */
    section("The executor");
    printf("Frame's plan: %s\n", plan_of(w, "Frame"));
    CHECK(strcmp(plan_of(w, "Frame"), "read_keys run_fixed integrate collide broad_pass "
                                      "narrow_pass solve wind earth_gravity render hud") == 0);
    CHECK(ecs_sched_schedule_order(w, "Frame", names, 8) == 11);   /* the length, whatever fits */

    /* ==== Graphviz export ================================================================

       ecs_sched_schedule_write_dot writes the built schedule (building it first if needed)
       as a Graphviz digraph, in pieces, through your function. Each set is a box around its
       members (a node in several sets is drawn in the first); systems show (exclusive),
       (records commands) and the names of their run conditions; sets show theirs; sync
       points are gold octagons; every ordering between systems, after flattening, is an
       arrow, except those another path of arrows already implies; ambiguous pairs are joined
       by dashed red lines. Render with dot -Tsvg Frame.dot -o Frame.svg.

       `make graphs` does this for examples/physics_plugin.c, the physics plugin of Bevy's
       scheduling RFC. */
    section("Graphviz export");
    {
        FILE *f = tmpfile();   /* or fopen("Frame.dot", "w") */
        CHECK(f != NULL);
        if (f) {
            CHECK(ecs_sched_schedule_write_dot(w, "Frame", write_to_file, f) == ECS_SCHED_OK);
            rewind(f);
            char line[256];
            int lines = 0, clusters = 0;
            while (fgets(line, sizeof line, f)) {
                if (lines == 0) {
                    printf("first line: %s", line);
                    CHECK(strncmp(line, "digraph", 7) == 0);
                }
                if (strstr(line, "subgraph")) clusters++;
                lines++;
            }
            printf("%d lines, %d sets drawn as boxes\n", lines, clusters);
            CHECK(lines > 10 && clusters >= 2);
            fclose(f);
        }
        if (argc > 1) {
            FILE *out = fopen(argv[1], "w");
            if (out) {
                ecs_sched_schedule_write_dot(w, "Frame", write_to_file, out);
                fclose(out);
                printf("wrote %s\n", argv[1]);
            }
        }
    }

    CHECK(ecs_sched_world_check(w) == ECS_SCHED_OK);
    ecs_sched_world_destroy(w);   /* schedules, their queries and command buffers go too */

    printf("\ntour_schedules: %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
