/* readme_tour.c - every snippet of README.md's tour of the API and of its Scheduling part, as
   written there (indented to fit in functions), with checks between them (the CHECK lines and
   the blocks in braces at the same indentation), so that the README stays true to the header.
   The Graphviz snippet writes Frame.dot in the current directory; the check removes it.

     cc -std=c99 -Wall -Wextra -Wpedantic -Werror -I. $(pkg-config --cflags stb) \
        tests/compile/readme_tour.c $(pkg-config --libs stb) -o build/readme_tour \
        && build/readme_tour

   (cc: gcc and clang.) Prints what the snippets print; exits 0 when every check holds. */
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { float x, y; } Position;
typedef struct { float x, y; } Velocity;
typedef struct { float dt; int frame; } Time;

static int failures;
#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) {                                                           \
            printf("readme_tour:%d: check failed: %s\n", __LINE__, #cond);       \
            failures++;                                                          \
        }                                                                        \
    } while (0)

/* ---- Components and tags: hooks ---- */

typedef struct { char *text; } Name;   /* owns its text */

static char *copy_text(const char *text) {
    char *copy = text ? malloc(strlen(text) + 1) : NULL;
    return copy ? strcpy(copy, text) : NULL;
}

static void name_ctor(void *dst, int32_t count, void *ctx) {
    (void)ctx;
    memset(dst, 0, sizeof(Name) * (size_t)count);
}

static void name_dtor(void *ptr, int32_t count, void *ctx) {
    Name *n = ptr;
    (void)ctx;
    for (int32_t i = 0; i < count; i++) free(n[i].text);
}

static void name_copy(void *dst, const void *src, int32_t count, void *ctx) {
    Name *d = dst;
    const Name *s = src;
    (void)ctx;
    for (int32_t i = 0; i < count; i++) {
        free(d[i].text);
        d[i].text = copy_text(s[i].text);
    }
}

/* ---- Allocator and logger hooks ---- */

typedef struct { long blocks; } Stats;

static void *counting_realloc(void *ptr, size_t size, void *user_data) {
    void *result = realloc(ptr, size);          /* never asked for 0 bytes */
    if (result && !ptr) ((Stats *)user_data)->blocks++;
    return result;                              /* NULL is a failure the world survives */
}

static void counting_free(void *ptr, void *user_data) {
    if (ptr) ((Stats *)user_data)->blocks--;
    free(ptr);
}

static void log_to_stdout(ecs_sched_log_level level, ecs_sched_result result, const char *message, void *user_data) {
    (void)result;
    (void)user_data;
    if (level >= ECS_SCHED_LOG_WARN) printf("[ecs] %s\n", message);
}

/* ---- Scheduling: shared declarations ---- */

typedef struct { float y; } Gravity;   /* resources */
typedef struct { bool on; } Paused;

static char ran[256];                  /* the names of the systems that ran, in order */

static void note(ecs_sched_system_ctx *ctx) {   /* a system that only records its name */
    size_t n = strlen(ran);
    snprintf(ran + n, sizeof ran - n, "%s ", ecs_sched_ctx_name(ctx));
}

/* ---- Scheduling: systems ---- */

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

/* ---- Scheduling: schedules ---- */

static void run_fixed(ecs_sched_system_ctx *ctx) {   /* exclusive: it gets the world */
    ecs_sched_world *world = ecs_sched_ctx_world(ctx);
    for (int step = 0; step < 2; step++) {
        if (ecs_sched_run_schedule(world, "FixedUpdate") != ECS_SCHED_OK) {
            fprintf(stderr, "%s\n", ecs_sched_last_error(world));
            break;
        }
    }
}

/* ---- Scheduling: run conditions ---- */

static bool has_bodies(ecs_sched_system_ctx *ctx) {   /* a condition: reads, returns bool */
    return ecs_sched_query_count(ecs_sched_ctx_query(ctx, 0)) > 0;
}

/* ---- Scheduling: commands and sync points ---- */

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

/* ---- Scheduling: Graphviz ---- */

static void write_to_file(const char *text, void *user_data) {
    fputs(text, (FILE *)user_data);
}

/* The scheduling part's world keeps its warnings, so the checks can read them. */
static int warnings_logged;
static char last_warning[2048];

static void keep_warnings(ecs_sched_log_level level, ecs_sched_result result, const char *message, void *user_data) {
    (void)result;
    (void)user_data;
    if (level != ECS_SCHED_LOG_WARN) return;
    warnings_logged++;
    snprintf(last_warning, sizeof last_warning, "%s", message);
}

/* Tour-only: an exclusive system that runs "Frame", to show that a schedule cannot run inside
   its own run. */
static ecs_sched_result reentry_result;
static char reentry_error[512];

static void reenter_frame(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *world = ecs_sched_ctx_world(ctx);
    reentry_result = ecs_sched_run_schedule(world, "Frame");
    snprintf(reentry_error, sizeof reentry_error, "%s", ecs_sched_last_error(world));
}

/* The plan of a schedule as one line, for the checks. */
static const char *plan_of(ecs_sched_world *w, const char *schedule) {
    static char line[512];
    const char *names[32];
    int32_t n = ecs_sched_schedule_order(w, schedule, names, 32);
    line[0] = '\0';
    for (int32_t i = 0; i < n && i < 32; i++) {
        size_t used = strlen(line);
        snprintf(line + used, sizeof line - used, "%s%s", i ? " " : "", names[i]);
    }
    return line;
}

static void world_section(void) {
    ecs_sched_world *w = ecs_sched_world_create(NULL);   /* NULL or a zeroed desc: defaults */
    /* ... */
    CHECK(w != NULL);
    ecs_sched_world_destroy(w);   /* destroys every value, query and command buffer with it */
}

static void hooks_section(void) {
    Stats stats = {0};
    ecs_sched_world *w = ecs_sched_world_create(&(ecs_sched_world_desc){
        .allocator = {.realloc_fn = counting_realloc, .free_fn = counting_free,
                      .user_data = &stats},
        .logger = {.fn = log_to_stdout},
        .entity_capacity = 10000,                   /* room for 10000 entities up front */
    });
    CHECK(w != NULL && stats.blocks > 0);
    CHECK(ecs_sched_despawn(w, ECS_SCHED_NULL_ENTITY) != ECS_SCHED_OK); /* logged on stdout */
    ecs_sched_world_destroy(w);
    CHECK(stats.blocks == 0);
}

/* The tour makes a few mistakes on purpose; its world counts the errors instead of printing. */
static int errors_logged;

static void count_errors(ecs_sched_log_level level, ecs_sched_result result, const char *message, void *user_data) {
    (void)result;
    (void)message;
    (void)user_data;
    if (level == ECS_SCHED_LOG_ERROR) errors_logged++;
}

static void main_section(void) {
    ecs_sched_world_desc quiet = {0};
    quiet.logger.fn = count_errors;
    ecs_sched_world *w = ecs_sched_world_create(&quiet);

    /* ---- Components and tags ---- */
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);   /* name "Position", size, alignment */
    ecs_sched_id vel = ECS_SCHED_COMPONENT(w, Velocity);
    ecs_sched_id enemy = ECS_SCHED_TAG(w, Enemy);          /* a tag: no data */
    ecs_sched_id health = ecs_sched_component_register_type(w, "Health", sizeof(float), 0);

    ecs_sched_component_lookup(w, "Velocity");   /* vel; 0 for an unknown name */
    ecs_sched_component_name(w, vel);            /* "Velocity" */
    ecs_sched_component_size(w, vel);            /* sizeof(Velocity) */
    CHECK(pos && vel && enemy && health);
    CHECK(ecs_sched_component_lookup(w, "Velocity") == vel);
    CHECK(ecs_sched_component_lookup(w, "Nothing") == 0);
    CHECK(strcmp(ecs_sched_component_name(w, vel), "Velocity") == 0);
    CHECK(ecs_sched_component_size(w, vel) == sizeof(Velocity));
    CHECK(ECS_SCHED_COMPONENT(w, Position) == pos);
    CHECK(ecs_sched_component_register_type(w, "Position", 12, 4) == 0);
    CHECK(ecs_sched_last_result(w) == ECS_SCHED_ERR_COMPONENT_MISMATCH);

    ecs_sched_id name = ecs_sched_component_register(w, &(ecs_sched_component_desc){
        .name = "Name", .size = sizeof(Name),
        .hooks = {.ctor = name_ctor, .dtor = name_dtor, .copy = name_copy}});
    ecs_sched_entity hero = ecs_sched_spawn(w);
    ecs_sched_insert(w, hero, name, &(Name){"hero"});   /* the copy hook duplicates the text */
    {
        const Name *n = ecs_sched_get(w, hero, name);
        CHECK(n && n->text && strcmp(n->text, "hero") == 0);
        CHECK(ecs_sched_insert(w, hero, name, &(Name){"villain"}) == ECS_SCHED_OK);
        n = ecs_sched_get(w, hero, name);
        CHECK(n && n->text && strcmp(n->text, "villain") == 0);
    }

    /* ---- Spawning ---- */
    ecs_sched_entity a = ecs_sched_spawn(w);   /* no components yet */

    Position p = {1, 2};
    Velocity v = {0, -1};
    const ecs_sched_id ids[] = {pos, vel};
    const void *values[] = {&p, &v};           /* an entry (or the whole array) may be NULL */
    ecs_sched_entity b = ecs_sched_spawn_with(w, 2, ids, values);

    Position row[100];                         /* entity i gets row[i] */
    for (int i = 0; i < 100; i++) row[i] = (Position){(float)i, 0};
    const void *arrays[] = {row, NULL};        /* NULL: every velocity starts zeroed */
    ecs_sched_entity many[100];
    ecs_sched_result r = ecs_sched_spawn_batch(w, 100, 2, ids, arrays, many);   /* all or nothing */
    CHECK(a && b && r == ECS_SCHED_OK);
    CHECK(ecs_sched_entity_count(w) == 103);
    {
        const Position *p42 = ecs_sched_get(w, many[42], pos);
        const Velocity *v42 = ecs_sched_get(w, many[42], vel);
        CHECK(p42 && p42->x == 42.0f && v42 && v42->x == 0.0f && v42->y == 0.0f);
    }

    /* ---- Changing entities ---- */
    ecs_sched_insert(w, a, pos, &p);                    /* adds Position: a changes table */
    ecs_sched_insert(w, a, pos, &(Position){5, 5});     /* present: overwrites the value */
    ecs_sched_insert(w, a, enemy, NULL);                /* NULL: default value (or a tag) */
    ecs_sched_insert_many(w, a, 2, ids, values);        /* several at once, one table move */
    ecs_sched_remove(w, a, enemy);

    if (ecs_sched_has(w, a, vel)) {
        const Position *cp = ecs_sched_get(w, a, pos);  /* NULL: dead, missing, or a tag */
        Velocity *mv = ecs_sched_get_mut(w, a, vel);
        mv->x = cp->x;
    }
    {
        const Velocity *av = ecs_sched_get(w, a, vel);
        CHECK(av && av->x == 1.0f && av->y == -1.0f);
        CHECK(!ecs_sched_has(w, a, enemy));
        CHECK(ecs_sched_get(w, a, enemy) == NULL);
    }

    ecs_sched_despawn(w, a);
    ecs_sched_is_alive(w, a);                           /* false: the handle is now stale */
    CHECK(!ecs_sched_is_alive(w, a));
    CHECK(ecs_sched_despawn(w, a) == ECS_SCHED_ERR_STALE_ENTITY);

    /* ---- Resources ---- */
    ecs_sched_id time_id = ECS_SCHED_COMPONENT(w, Time);
    ecs_sched_resource_insert(w, time_id, &(Time){1.0f / 60, 0});   /* creates or overwrites */
    Time *t = ecs_sched_resource_get_mut(w, time_id);
    t->frame++;
    const Time *now = ecs_sched_resource_get(w, time_id);            /* NULL when absent */
    CHECK(now && now->frame == 1);
    if (ecs_sched_resource_exists(w, time_id)) ecs_sched_resource_remove(w, time_id);
    CHECK(!ecs_sched_resource_exists(w, time_id));
    CHECK(ecs_sched_resource_get(w, time_id) == NULL);

    /* ---- Queries ---- */
    ecs_sched_query *q = ecs_sched_query_create(w, &(ecs_sched_query_desc){{
        ecs_sched_write(pos),            /* field 0 */
        ecs_sched_read(vel),             /* field 1 */
        ecs_sched_optional_read(health), /* field 2: NULL in tables without Health */
        ecs_sched_without(enemy),        /* field 3: enemies are left out */
    }});

    ecs_sched_iter it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        const Velocity *v = ECS_SCHED_FIELD(&it, const Velocity, 1);
        const float *hp = ECS_SCHED_FIELD(&it, const float, 2);
        for (int32_t i = 0; i < it.count; i++) {     /* it.entities[i] is the entity */
            float speed = hp ? hp[i] / 100 : 1;
            p[i].x += v[i].x * speed;
            p[i].y += v[i].y * speed;
        }
    }
    printf("%d entities match\n", (int)ecs_sched_query_count(q));
    CHECK(q != NULL && ecs_sched_query_count(q) == 101);
    {
        const Position *bp = ecs_sched_get(w, b, pos);
        CHECK(bp && bp->x == 1.0f && bp->y == 1.0f);
        CHECK(ecs_sched_insert(w, many[0], enemy, NULL) == ECS_SCHED_OK);
        CHECK(ecs_sched_query_count(q) == 100);
        CHECK(ecs_sched_remove(w, many[0], enemy) == ECS_SCHED_OK);
        CHECK(ecs_sched_query_count(q) == 101);
        ecs_sched_query_desc twice = {{ecs_sched_read(pos), ecs_sched_write(pos)}};
        CHECK(ecs_sched_query_create(w, &twice) == NULL);
        CHECK(ecs_sched_last_result(w) == ECS_SCHED_ERR_INVALID_QUERY);
    }

    /* ---- Query access ---- */
    ecs_sched_access acc = ecs_sched_query_access(q);
    for (int32_t i = 0; i < acc.read_count; i++)
        printf("reads %s\n", ecs_sched_component_name(w, acc.reads[i]));
    for (int32_t i = 0; i < acc.write_count; i++)
        printf("writes %s\n", ecs_sched_component_name(w, acc.writes[i]));
    CHECK(acc.read_count == 2 && acc.reads[0] == vel && acc.reads[1] == health);
    CHECK(acc.write_count == 1 && acc.writes[0] == pos);

    /* ---- Command buffers ---- */
    ecs_sched_commands *cmd = ecs_sched_commands_create(w);

    ecs_sched_entity bullet = ecs_sched_commands_spawn(cmd);         /* handle reserved now */
    ecs_sched_commands_insert(cmd, bullet, pos, &(Position){0, 0});  /* usable right away */
    ecs_sched_commands_insert(cmd, bullet, vel, &(Velocity){9, 0});
    ecs_sched_commands_despawn(cmd, b);
    ecs_sched_commands_insert(cmd, b, enemy, NULL);                  /* b is dead by then */
    ecs_sched_commands_set_resource(cmd, time_id, &(Time){1.0f / 30, 0});
    CHECK(bullet != ECS_SCHED_NULL_ENTITY && !ecs_sched_is_alive(w, bullet));

    ecs_sched_commands_pending(cmd);                      /* 6 */
    CHECK(ecs_sched_commands_pending(cmd) == 6);
    if (ecs_sched_commands_apply(cmd) != ECS_SCHED_OK)    /* in recorded order */
        fprintf(stderr, "%s\n", ecs_sched_last_error(w));
    ecs_sched_commands_pending(cmd);                      /* 0: apply consumes */
    ecs_sched_commands_skipped(cmd);                      /* 1: the insert on dead b */
    ecs_sched_is_alive(w, bullet);                        /* true */
    CHECK(ecs_sched_commands_pending(cmd) == 0);
    CHECK(ecs_sched_commands_skipped(cmd) == 1);
    CHECK(ecs_sched_is_alive(w, bullet) && !ecs_sched_is_alive(w, b));
    {
        const Velocity *bv = ecs_sched_get(w, bullet, vel);
        const Time *rt = ecs_sched_resource_get(w, time_id);
        CHECK(bv && bv->x == 9.0f);
        CHECK(rt && rt->dt == 1.0f / 30);
        CHECK(ecs_sched_commands_apply(cmd) == ECS_SCHED_OK); /* nothing left to apply */
        CHECK(ecs_sched_commands_skipped(cmd) == 0);
    }

    /* ---- Errors ---- */
    if (ecs_sched_insert(w, b, pos, &p) != ECS_SCHED_OK) {              /* b was despawned */
        printf("%s\n", ecs_sched_last_error(w));                        /* names entity and call */
        printf("%s\n", ecs_sched_result_string(ecs_sched_last_result(w)));  /* fixed text */
        ecs_sched_clear_error(w);                                       /* back to "" and OK */
    }
    CHECK(ecs_sched_last_result(w) == ECS_SCHED_OK && ecs_sched_last_error(w)[0] == '\0');
    CHECK(ecs_sched_world_check(w) == ECS_SCHED_OK);
    CHECK(errors_logged == 6);

    ecs_sched_world_destroy(w);
}

static void scheduling_section(void) {
    ecs_sched_world_desc keep = {0};
    keep.logger.fn = keep_warnings;
    ecs_sched_world *w = ecs_sched_world_create(&keep);
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_id vel = ECS_SCHED_COMPONENT(w, Velocity);
    ecs_sched_entity body = ecs_sched_spawn_with(w, 2, (const ecs_sched_id[]){pos, vel}, NULL);
    CHECK(body != ECS_SCHED_NULL_ENTITY);

    /* ---- Systems ---- */
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
        CHECK(ecs_sched_schedule_exists(w, "Update") && !ecs_sched_schedule_exists(w, "Other"));
    }

    ecs_sched_add_system(w, "Peek", &(ecs_sched_system_desc){
        .name = "peek", .fn = peek, .user_data = &ids});
    if (ecs_sched_run_schedule(w, "Peek") == ECS_SCHED_ERR_ACCESS)
        printf("%s\n", ecs_sched_last_error(w));
    CHECK(ecs_sched_last_result(w) == ECS_SCHED_ERR_ACCESS);
    CHECK(strcmp(ecs_sched_last_error(w), "system 'peek' reads resource 'Gravity' without "
                                          "declaring it: add it to the desc's .reads") == 0);
    CHECK(ecs_sched_run_schedule(w, "Update") == ECS_SCHED_OK);   /* that run only */
    CHECK(ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
              .name = "bad", .fn = note, .reads = {999}}) == ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    CHECK(strcmp(plan_of(w, "Update"), "fall") == 0);             /* refused: nothing added */

    /* ---- Sets and order ---- */
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
    ecs_sched_run_schedule(w, "Frame");   /* ran: "read_keys integrate collide render " */
    CHECK(strcmp(ran, "read_keys integrate collide render ") == 0);
    CHECK(warnings_logged == 0);

    ecs_sched_schedule_configure(w, "Tidy", &(ecs_sched_schedule_desc){
        .default_set = "gameplay"});
    ecs_sched_add_system(w, "Tidy", &(ecs_sched_system_desc){.name = "move", .fn = note});
    ecs_sched_add_system(w, "Tidy", &(ecs_sched_system_desc){
        .name = "draw", .fn = note, .in_set = {"ui"}});
    ecs_sched_configure_set(w, "Tidy", &(ecs_sched_set_desc){
        .name = "ui", .after = {"gameplay"}});   /* move is in "gameplay" */
    {
        ecs_sched_add_system(w, "Tidy", &(ecs_sched_system_desc){.name = "aim", .fn = note});
        ran[0] = '\0';
        CHECK(ecs_sched_run_schedule(w, "Tidy") == ECS_SCHED_OK);
        CHECK(strcmp(ran, "move aim draw ") == 0);   /* aim, added last, is in gameplay too */
        CHECK(warnings_logged == 0);
    }

    /* ---- Several systems at once ---- */
    ecs_sched_add_systems(w, "Frame", &(ecs_sched_systems_desc){
        .systems = (ecs_sched_system_desc[]){
            {.name = "broad_pass", .fn = note},
            {.name = "narrow_pass", .fn = note},
            {.name = "solve", .fn = note},
        },
        .count = 3,
        .chain = true,                   /* broad_pass, then narrow_pass, then solve */
        .in_set = {"physics"}, .after = {"collide"}});
    ran[0] = '\0';
    ecs_sched_run_schedule(w, "Frame");
    /* ran: "read_keys integrate collide broad_pass narrow_pass solve render " */
    CHECK(strcmp(ran, "read_keys integrate collide broad_pass narrow_pass solve render ") == 0);
    CHECK(warnings_logged == 0);

    const char *const stages[] = {"simulate", "present"};
    ecs_sched_chain_sets(w, "Late", stages, 2, false);   /* simulate before present */
    ecs_sched_add_system(w, "Late", &(ecs_sched_system_desc){
        .name = "swap_buffers", .fn = note, .in_set = {"present"}});
    ecs_sched_add_system(w, "Late", &(ecs_sched_system_desc){
        .name = "tick", .fn = note, .in_set = {"simulate"}});
    {
        ran[0] = '\0';
        CHECK(ecs_sched_run_schedule(w, "Late") == ECS_SCHED_OK);
        CHECK(strcmp(ran, "tick swap_buffers ") == 0);
    }

    /* ---- Schedules ---- */
    ecs_sched_add_system(w, "FixedUpdate", &(ecs_sched_system_desc){.name = "step", .fn = note});
    ecs_sched_add_system(w, "Frame", &(ecs_sched_system_desc){
        .name = "run_fixed", .fn = run_fixed, .exclusive = true,
        .after = {"input"}, .before = {"physics"}});
    ran[0] = '\0';
    ecs_sched_run_schedule(w, "Frame");
    /* ran: "read_keys step step integrate collide broad_pass narrow_pass solve render " */
    CHECK(strcmp(ran, "read_keys step step integrate collide broad_pass narrow_pass solve "
                      "render ") == 0);
    CHECK(warnings_logged == 0);
    CHECK(ecs_sched_run_schedule(w, "Nowhere") == ECS_SCHED_ERR_UNKNOWN_SCHEDULE);

    /* ---- Building and checking ---- */
    ecs_sched_add_system(w, "Loop", &(ecs_sched_system_desc){
        .name = "a", .fn = note, .before = {"b"}});
    ecs_sched_add_system(w, "Loop", &(ecs_sched_system_desc){
        .name = "b", .fn = note, .before = {"a"}});
    if (ecs_sched_run_schedule(w, "Loop") == ECS_SCHED_ERR_DEPENDENCY_CYCLE)   /* nothing ran */
        printf("%s\n", ecs_sched_last_error(w));
    CHECK(strcmp(ecs_sched_last_error(w),
                 "schedule 'Loop': the before/after constraints form a cycle: system 'a' runs "
                 "before system 'b' runs before system 'a'. Remove one of these orderings") == 0);
    CHECK(ecs_sched_schedule_build(w, "Loop") == ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    CHECK(ecs_sched_schedule_order(w, "Loop", NULL, 0) == -1);

    ecs_sched_schedule_configure(w, "Strict", &(ecs_sched_schedule_desc){
        .ambiguities = ECS_SCHED_REPORT_ERROR,      /* fail the build instead of warning */
        .unknown_sets = ECS_SCHED_REPORT_ERROR,
        .cross_set_dependencies = ECS_SCHED_REPORT_IGNORE,
        .shuffle_seed = 42});                       /* shuffle what nothing orders */
    {
        ecs_sched_add_system(w, "Strict", &(ecs_sched_system_desc){
            .name = "lonely", .fn = note, .in_set = {"misspelt"}, .after = {"nothing_here"}});
        CHECK(ecs_sched_schedule_build(w, "Strict") == ECS_SCHED_ERR_UNKNOWN_SET);
        CHECK(strstr(ecs_sched_last_error(w), "'nothing_here'") != NULL);
        CHECK(warnings_logged == 0);
    }

    ecs_sched_add_system(w, "Draw", &(ecs_sched_system_desc){
        .name = "push", .fn = note, .queries = {{{ecs_sched_write(pos)}}}});
    ecs_sched_add_system(w, "Draw", &(ecs_sched_system_desc){
        .name = "draw", .fn = note, .queries = {{{ecs_sched_read(pos)}}}});
    ecs_sched_schedule_build(w, "Draw");   /* ECS_SCHED_OK, and a warning */
    CHECK(ecs_sched_schedule_build(w, "Draw") == ECS_SCHED_OK);
    CHECK(warnings_logged == 1);
    CHECK(strcmp(last_warning,
                 "schedule 'Draw': 1 pair(s) of systems access the same data in conflicting "
                 "ways and nothing orders them:\n"
                 "  system 'push' and system 'draw': component 'Position' (first writes, second "
                 "reads)\n"
                 "Order each pair (or their sets) with before/after, or, when either order is "
                 "fine, declare them ambiguous_with each other") == 0);

    ecs_sched_add_system(w, "Draw", &(ecs_sched_system_desc){
        .name = "draw_debug", .fn = note, .queries = {{{ecs_sched_read(pos)}}},
        .ambiguous_with = {"push"}});   /* either order is fine: not reported */
    {
        warnings_logged = 0;
        CHECK(ecs_sched_schedule_build(w, "Draw") == ECS_SCHED_OK);
        CHECK(warnings_logged == 1);   /* push and draw, still */
        CHECK(strstr(last_warning, "draw_debug") == NULL);
        warnings_logged = 0;
    }

    /* ---- Run conditions ---- */
    ecs_sched_id paused = ECS_SCHED_COMPONENT(w, Paused);
    ecs_sched_resource_insert(w, paused, &(Paused){false});
    ecs_sched_configure_set(w, "Frame", &(ecs_sched_set_desc){
        .name = "physics",   /* adds to the set configured above */
        .run_if = {ECS_SCHED_COND(ecs_sched_condition_resource_equals(paused, &(Paused){false},
                                                       sizeof(Paused)))}});
    ecs_sched_add_system(w, "Frame", &(ecs_sched_system_desc){
        .name = "hud", .fn = note, .after = {"physics"},
        .run_if = {&(ecs_sched_condition){.fn = has_bodies, .queries = {{{ecs_sched_read(pos)}}}},
                   ECS_SCHED_COND(ecs_sched_condition_run_once())}});
    ran[0] = '\0';
    ecs_sched_run_schedule(w, "Frame");
    /* ran: "read_keys step step integrate collide broad_pass narrow_pass solve render hud " */
    CHECK(strcmp(ran, "read_keys step step integrate collide broad_pass narrow_pass solve "
                      "render hud ") == 0);
    CHECK(warnings_logged == 0);

    ecs_sched_resource_insert(w, paused, &(Paused){true});
    ran[0] = '\0';
    ecs_sched_run_schedule(w, "Frame");   /* ran: "read_keys step step render " */
    CHECK(strcmp(ran, "read_keys step step render ") == 0);

    ecs_sched_condition gravity_on = ecs_sched_condition_resource_exists(ids.gravity);
    ecs_sched_condition is_paused =
        ecs_sched_condition_resource_equals(paused, &(Paused){true}, sizeof(Paused));
    ecs_sched_condition running = ecs_sched_condition_not(&is_paused);
    ecs_sched_add_system(w, "Frame", &(ecs_sched_system_desc){
        .name = "wind", .fn = note, .in_set = {"physics"},
        .run_if = {ECS_SCHED_COND(ecs_sched_condition_and(&gravity_on, &running))}});
    {
        ecs_sched_resource_insert(w, paused, &(Paused){false});
        ran[0] = '\0';
        CHECK(ecs_sched_run_schedule(w, "Frame") == ECS_SCHED_OK);
        CHECK(strstr(ran, "wind") != NULL && strstr(ran, "hud") == NULL);   /* run_once */
        ecs_sched_resource_remove(w, ids.gravity);
        ran[0] = '\0';
        CHECK(ecs_sched_run_schedule(w, "Frame") == ECS_SCHED_OK);
        CHECK(strstr(ran, "wind") == NULL && strstr(ran, "solve") != NULL);
        CHECK(warnings_logged == 0);
    }

    /* ---- Commands and sync points ---- */
    ecs_sched_add_systems(w, "Spawn", &(ecs_sched_systems_desc){
        .systems = (ecs_sched_system_desc[]){
            {.name = "spawn_rock", .fn = spawn_rock, .user_data = &pos, .commands = true},
            {.name = "count_rocks", .fn = count_rocks, .queries = {{{ecs_sched_read(pos)}}}},
        },
        .count = 2, .chain = true});
    const char *names[8];
    int32_t steps = ecs_sched_schedule_order(w, "Spawn", names, 8);
    /* 3 steps: "spawn_rock", "apply_deferred", "count_rocks" */
    CHECK(steps == 3 && strcmp(plan_of(w, "Spawn"), "spawn_rock apply_deferred count_rocks") == 0);
    CHECK(strcmp(names[1], "apply_deferred") == 0);
    {
        int32_t before = ecs_sched_entity_count(w);
        CHECK(ecs_sched_run_schedule(w, "Spawn") == ECS_SCHED_OK);
        CHECK(rocks_seen == before + 1);   /* the rock counted in the same run */
        CHECK(ecs_sched_entity_count(w) == before + 1);
    }

    ecs_sched_add_systems(w, "Spawn later", &(ecs_sched_systems_desc){
        .systems = (ecs_sched_system_desc[]){
            {.name = "spawn_rock", .fn = spawn_rock, .user_data = &pos, .commands = true},
            {.name = "count_rocks", .fn = count_rocks, .queries = {{{ecs_sched_read(pos)}}}},
        },
        .count = 2, .chain_ignore_deferred = true});
    /* plan: "spawn_rock count_rocks"; the final flush spawns the rock after count_rocks */
    {
        int32_t before = ecs_sched_entity_count(w);
        CHECK(strcmp(plan_of(w, "Spawn later"), "spawn_rock count_rocks") == 0);
        CHECK(ecs_sched_run_schedule(w, "Spawn later") == ECS_SCHED_OK);
        CHECK(rocks_seen == before);
        CHECK(ecs_sched_entity_count(w) == before + 1);
    }

    ecs_sched_add_system(w, "Spawn by hand", &(ecs_sched_system_desc){
        .name = "spawn_rock", .fn = spawn_rock, .user_data = &pos, .commands = true,
        .before = {"flush"}});
    ecs_sched_add_system(w, "Spawn by hand", &(ecs_sched_system_desc){
        .name = "flush", .fn = ecs_sched_apply_deferred, .before = {"count_rocks"}});
    ecs_sched_add_system(w, "Spawn by hand", &(ecs_sched_system_desc){
        .name = "count_rocks", .fn = count_rocks, .queries = {{{ecs_sched_read(pos)}}}});
    /* plan: "spawn_rock flush count_rocks" */
    {
        int32_t before = ecs_sched_entity_count(w);
        CHECK(strcmp(plan_of(w, "Spawn by hand"), "spawn_rock flush count_rocks") == 0);
        CHECK(ecs_sched_run_schedule(w, "Spawn by hand") == ECS_SCHED_OK);
        CHECK(rocks_seen == before + 1);
        CHECK(warnings_logged == 0);
    }

    /* ---- Graphviz ---- */
    FILE *f = fopen("Frame.dot", "w");
    if (f) {
        ecs_sched_schedule_write_dot(w, "Frame", write_to_file, f);   /* builds it if needed */
        fclose(f);
    }
    {
        char head[16] = "";
        FILE *in = fopen("Frame.dot", "r");
        CHECK(in != NULL);
        if (in) {
            CHECK(fgets(head, sizeof head, in) && strncmp(head, "digraph", 7) == 0);
            fclose(in);
        }
        remove("Frame.dot");
    }

    {
        /* a schedule cannot run inside its own run */
        CHECK(ecs_sched_add_system(w, "FixedUpdate", &(ecs_sched_system_desc){
                  .name = "reenter", .fn = reenter_frame, .exclusive = true,
                  .after = {"step"}}) == ECS_SCHED_OK);
        ran[0] = '\0';
        CHECK(ecs_sched_run_schedule(w, "Frame") == ECS_SCHED_OK);
        CHECK(reentry_result == ECS_SCHED_ERR_RECURSIVE_RUN);
        CHECK(strstr(reentry_error, "(Frame -> FixedUpdate -> Frame)") != NULL);
        CHECK(strncmp(ran, "read_keys step step integrate", 29) == 0);
        CHECK(warnings_logged == 0);
    }
    {
        /* conditions only read; automatic sync points can be turned off */
        CHECK(ecs_sched_add_system(w, "Writes", &(ecs_sched_system_desc){
                  .name = "x", .fn = note,
                  .run_if = {&(ecs_sched_condition){.fn = has_bodies, .writes = {paused}}}}) == ECS_SCHED_OK);
        CHECK(ecs_sched_schedule_build(w, "Writes") == ECS_SCHED_ERR_CONDITION_WRITES);
        ecs_sched_schedule_configure(w, "Spawn", &(ecs_sched_schedule_desc){.no_auto_sync = true});
        CHECK(strcmp(plan_of(w, "Spawn"), "spawn_rock count_rocks") == 0);
        CHECK(ecs_sched_schedule_configure(w, "Spawn", NULL) == ECS_SCHED_OK);
        CHECK(strcmp(plan_of(w, "Spawn"), "spawn_rock apply_deferred count_rocks") == 0);
    }

    CHECK(ecs_sched_world_check(w) == ECS_SCHED_OK);
    ecs_sched_world_destroy(w);
}

/* ---- Threading ---- */

static void move_piece(ecs_sched_iter *it, void *arg) {
    Position *p = ECS_SCHED_FIELD(it, Position, 0);
    const Velocity *v = ECS_SCHED_FIELD(it, Velocity, 1);
    (void)arg;
    for (int32_t i = 0; i < it->count; i++) {
        p[i].x += v[i].x;
        p[i].y += v[i].y;
    }
}

static void move_all(ecs_sched_system_ctx *ctx) {
    ecs_sched_ctx_par_iter(ctx, 0, 0, move_piece, NULL);   /* query 0, default grain */
}

static void work(void *arg) { /* ... */ (void)arg; }
static void fill(int64_t begin, int64_t end, void *arg) {
    float *values = (float *)arg;
    for (int64_t i = begin; i < end; i++) values[i] = (float)i;
}

static void threading_section(void) {
    ecs_sched_world *w = ecs_sched_world_create(&(ecs_sched_world_desc){
        .thread_count = 4,                          /* 0: one per hardware thread */
        .executor = ECS_SCHED_EXECUTOR_PARALLEL});  /* the default with ECS_SCHED_THREADS */
    ecs_sched_schedule_configure(w, "Render", &(ecs_sched_schedule_desc){
        .executor = ECS_SCHED_EXECUTOR_SINGLE_THREADED});  /* this one stays on the caller */
    {
        ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
        ecs_sched_id vel = ECS_SCHED_COMPONENT(w, Velocity);
        Position p = {0, 0};
        Velocity v = {1, 2};
        ecs_sched_entity e = ecs_sched_spawn(w);
        ecs_sched_insert(w, e, pos, &p);
        ecs_sched_insert(w, e, vel, &v);
        CHECK(ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
                  .name = "move_all", .fn = move_all,
                  .queries = {{{ecs_sched_write(pos), ecs_sched_read(vel)}}}}) == ECS_SCHED_OK);
        CHECK(ecs_sched_run_schedule(w, "Update") == ECS_SCHED_OK);
        CHECK(ecs_sched_run_schedule(w, "Render") == ECS_SCHED_OK);
        const Position *now = ecs_sched_get(w, e, pos);
        CHECK(now && now->x == 1 && now->y == 2);
    }
    ecs_sched_world_destroy(w);

    ecs_sched_pool *pool = ecs_sched_pool_create(&(ecs_sched_pool_desc){.thread_count = 2});
    ecs_sched_task_group *group = ecs_sched_pool_group_create(pool);
    for (int i = 0; i < 100; i++) ecs_sched_pool_submit(pool, group, work, NULL);
    ecs_sched_pool_wait(pool, group);                   /* runs tasks too while it waits */
    static float values[10000];
    ecs_sched_pool_parallel_for(pool, 0, 10000, 1000, fill, values);   /* pieces of <= 1000 */
    ecs_sched_pool_group_destroy(pool, group);
    ecs_sched_pool_destroy(pool);                       /* runs what is pending, then stops */
    CHECK(values[0] == 0.0f && values[4321] == 4321.0f && values[9999] == 9999.0f);
}

int main(void) {
    world_section();
    main_section();
    hooks_section();
    scheduling_section();
    threading_section();
    printf("readme_tour: %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
