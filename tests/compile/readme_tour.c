/* readme_tour.c - every snippet of README.md's tour of the API, as written there (indented to
   fit in functions), with checks between them (the CHECK lines and the blocks in braces at the
   same indentation), so that the README stays true to the header.

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

static void log_to_stdout(ecs_sched_log_level level, const char *message, void *user_data) {
    (void)user_data;
    if (level >= ECS_SCHED_LOG_WARN) printf("[ecs] %s\n", message);
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

static void count_errors(ecs_sched_log_level level, const char *message, void *user_data) {
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

int main(void) {
    world_section();
    main_section();
    hooks_section();
    printf("readme_tour: %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
