/* tour_world.c - the world of ecs_sched.h, one step at a time: creating a world, registering
   components and tags (and a component that owns memory, with lifecycle hooks), spawning
   entities one at a time and in batches, changing them, resources, queries, what a query says
   it touches, disabled entities, components kept in sparse sets, queries written as text,
   monitors and events of your own.

   The tour has six files; read them in this order:
     tour_world.c      the world: components, entities, resources, queries (this file)
     tour_commands.c   command buffers, errors, allocator and logger hooks, stb_ds
     tour_schedules.c  systems, sets, order, run conditions, sync points, the executor
     tour_threads.c    the thread pool, the parallel executor, parallel queries
     tour_states.c     state machines
     tour_app.c        the app, time, the fixed step, plugins

   Each prints what it shows and exits with status 1 if something it claims does not hold.

   Build and run from the repository root (the header, and stb_ds.h from libstb-dev):

       cc -std=c99 -O2 -I. $(pkg-config --cflags stb) examples/tour_world.c \
          $(pkg-config --libs stb) -o tour_world && ./tour_world
*/

/* The implementation is compiled in exactly one file of a program; here, this one. */
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { float x, y; } Position;
typedef struct { float x, y; } Velocity;
typedef struct { float dt; int frame; } Time;

/* What this tour claims is checked as it goes; a failed check is printed and makes the
   program exit with status 1. */
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

/* An entity as "#index.generation". */
static void print_entity(const char *label, ecs_sched_entity e) {
    printf("%s #%u.%u\n", label, (unsigned)ECS_SCHED_ENTITY_INDEX(e),
           (unsigned)ECS_SCHED_ENTITY_GENERATION(e));
}

/* The tour makes a few mistakes on purpose. Every failed call is recorded in the world and
   sent to the world's logger (tour_commands.c has the whole story); this logger prints the
   messages on stdout, so they show up in order with the rest. */
static void print_log(ecs_sched_log_level level, ecs_sched_result result, const char *message,
                      void *user_data) {
    (void)result;
    (void)user_data;
    if (level >= ECS_SCHED_LOG_WARN) printf("  log: %s\n", message);
}

/* ---- Components that own memory: lifecycle hooks ----

   A component's value is a block of bytes the world stores, moves between tables and
   destroys. Values that own memory get lifecycle hooks, each working on `count` values:

     ctor  construct in raw memory             (default: zero the bytes)
     dtor  destroy                             (default: nothing)
     copy  copy-assign onto constructed values (default: memcpy)
     move  relocate into raw memory, leaving the source raw (default: memcpy)

   Name owns its text: the world calls copy when a value is inserted, and dtor when the value
   is removed, overwritten... or the world destroyed. */
typedef struct { char *text; } Name;

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
/* (The default move, a memcpy, is right for Name: the pointer simply changes hands.) */

/* An observer that counts what it hears (the monitor and the event above). */
static int32_t tour_heard;
static void tour_hear(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *trigger) {
    (void)ctx;
    (void)trigger;
    tour_heard++;
}

int main(void) {
    printf("ecs_sched %s: a tour of the world\n", ECS_SCHED_VERSION_STRING);

    /* ==== The world ======================================================================

       Everything lives in a world: entities, their components, resources, queries, command
       buffers and schedules. ecs_sched_world_create takes a desc; NULL or a zeroed desc means
       the defaults (the allocator and logger hooks are shown in tour_commands.c). Destroying
       the world destroys every value, query and command buffer with it. */
    section("World");
    ecs_sched_world_desc desc = {0};
    desc.logger.fn = print_log;
    ecs_sched_world *w = ecs_sched_world_create(&desc);
    CHECK(w != NULL);
    if (!w) return 1;
    printf("a world with %d entities\n", (int)ecs_sched_entity_count(w));

    /* ==== Components and tags ============================================================

       Components are registered at run time, by name, size and alignment; the id (never 0)
       is valid in that world only. ECS_SCHED_COMPONENT registers a C type under its own
       name; ECS_SCHED_TAG registers a tag, a component without data. */
    section("Components and tags");
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);   /* name "Position", size, alignment */
    ecs_sched_id vel = ECS_SCHED_COMPONENT(w, Velocity);
    ecs_sched_id enemy = ECS_SCHED_TAG(w, Enemy);          /* a tag: no data */
    ecs_sched_id health = ecs_sched_component_register_type(w, "Health", sizeof(float), 0);
    CHECK(pos && vel && enemy && health);
    printf("Position=%u Velocity=%u Enemy=%u Health=%u\n", (unsigned)pos, (unsigned)vel,
           (unsigned)enemy, (unsigned)health);

    /* Ids can be found again by name, and say what they are. */
    printf("lookup \"Velocity\" -> %u, \"Nothing\" -> %u\n",
           (unsigned)ecs_sched_component_lookup(w, "Velocity"),   /* vel */
           (unsigned)ecs_sched_component_lookup(w, "Nothing"));   /* 0: unknown name */
    printf("component %u is \"%s\", %u bytes\n", (unsigned)vel, ecs_sched_component_name(w, vel),
           (unsigned)ecs_sched_component_size(w, vel));
    CHECK(ecs_sched_component_lookup(w, "Velocity") == vel);
    CHECK(ecs_sched_component_lookup(w, "Nothing") == 0);
    CHECK(strcmp(ecs_sched_component_name(w, vel), "Velocity") == 0);
    CHECK(ecs_sched_component_size(w, vel) == sizeof(Velocity));

    /* Registering a name again with the same size and alignment returns the same id; with
       another layout it fails and returns 0 (and the error is logged). */
    CHECK(ECS_SCHED_COMPONENT(w, Position) == pos);
    printf("registering \"Position\" again with 12 bytes:\n");
    CHECK(ecs_sched_component_register_type(w, "Position", 12, 4) == 0);
    CHECK(ecs_sched_last_result(w) == ECS_SCHED_ERR_COMPONENT_MISMATCH);

    /* The full desc registers a component with hooks. */
    ecs_sched_id name = ecs_sched_component_register(w, &(ecs_sched_component_desc){
        .name = "Name", .size = sizeof(Name),
        .hooks = {.ctor = name_ctor, .dtor = name_dtor, .copy = name_copy}});
    ecs_sched_entity hero = ecs_sched_spawn(w);
    ecs_sched_insert(w, hero, name, &(Name){"hero"});   /* the copy hook duplicates the text */
    {
        const Name *n = ecs_sched_get(w, hero, name);
        CHECK(n && n->text && strcmp(n->text, "hero") == 0);
        printf("hero's name: %s\n", n && n->text ? n->text : "(none)");
        /* Inserting a component the entity has overwrites it: copy-assign, old text freed. */
        CHECK(ecs_sched_insert(w, hero, name, &(Name){"villain"}) == ECS_SCHED_OK);
        n = ecs_sched_get(w, hero, name);
        CHECK(n && n->text && strcmp(n->text, "villain") == 0);
        printf("renamed:     %s\n", n && n->text ? n->text : "(none)");
    }
    /* Nothing frees the text by hand: the dtor hook runs when the world is destroyed. */

    /* ==== Spawning =======================================================================

       An entity is a handle. It can be spawned bare, with its components in one call, or
       many at once with one array of values per component. */
    section("Spawning");
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
    print_entity("a", a);
    print_entity("b", b);
    printf("batch of 100: ");
    print_entity("first", many[0]);
    printf("%d entities alive\n", (int)ecs_sched_entity_count(w));
    CHECK(ecs_sched_entity_count(w) == 103);   /* hero, a, b and the batch */
    {
        const Position *p42 = ecs_sched_get(w, many[42], pos);
        const Velocity *v42 = ecs_sched_get(w, many[42], vel);
        CHECK(p42 && p42->x == 42.0f && v42 && v42->x == 0.0f && v42->y == 0.0f);
    }

    /* Handles are 64 bits: an index (ECS_SCHED_ENTITY_INDEX) and a generation
       (ECS_SCHED_ENTITY_GENERATION). When an entity is despawned its index is reused with a
       new generation, so an old handle is reported as stale and never reads another entity's
       data. ECS_SCHED_NULL_ENTITY (0) is never alive. */
    CHECK(!ecs_sched_is_alive(w, ECS_SCHED_NULL_ENTITY));

    /* ==== Changing entities ==============================================================

       Entities with the same set of components share an archetype table, which stores each
       component as a contiguous column; adding or removing a component moves the entity to
       another table. */
    section("Changing entities");
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
        CHECK(ecs_sched_has(w, b, vel));
        if (av) printf("a: velocity (%.1f, %.1f), enemy: %s\n", av->x, av->y,
                       ecs_sched_has(w, a, enemy) ? "yes" : "no");
    }
    printf("%d archetype tables so far\n", (int)ecs_sched_archetype_count(w));

    /* A tag has no value: get returns NULL for it, as for a dead entity or a missing
       component (and records why). ecs_sched_has is the question to ask. */
    ecs_sched_insert(w, a, enemy, NULL);
    printf("get on a tag:\n");
    CHECK(ecs_sched_has(w, a, enemy) && ecs_sched_get(w, a, enemy) == NULL);

    /* Pointers into the world (get, get_mut, resource pointers, query fields) stay valid until
       the next structural change: spawn, despawn, insert, remove, a resource insert or
       remove, or applying commands. A value passed to an insert must not point into the
       world: copy it out first. */

    ecs_sched_despawn(w, a);
    CHECK(!ecs_sched_is_alive(w, a));                   /* false: the handle is now stale */
    printf("despawned a; despawning it again:\n");
    CHECK(ecs_sched_despawn(w, a) == ECS_SCHED_ERR_STALE_ENTITY);

    /* The next spawn takes a's index back, with a new generation: the two handles differ. */
    ecs_sched_entity c = ecs_sched_spawn(w);
    print_entity("new entity c", c);
    CHECK(c != a && !ecs_sched_is_alive(w, a) && ecs_sched_is_alive(w, c));
    CHECK(ECS_SCHED_ENTITY_INDEX(c) == ECS_SCHED_ENTITY_INDEX(a));
    CHECK(ECS_SCHED_ENTITY_GENERATION(c) != ECS_SCHED_ENTITY_GENERATION(a));
    ecs_sched_despawn(w, c);

    /* ==== Resources ======================================================================

       A resource is a world singleton: one value per component type, not attached to an
       entity. */
    section("Resources");
    ecs_sched_id time_id = ECS_SCHED_COMPONENT(w, Time);
    ecs_sched_resource_insert(w, time_id, &(Time){1.0f / 60, 0});   /* creates or overwrites */
    Time *t = ecs_sched_resource_get_mut(w, time_id);
    t->frame++;
    const Time *now = ecs_sched_resource_get(w, time_id);            /* NULL when absent */
    CHECK(now && now->frame == 1);
    if (now) printf("Time: frame %d\n", now->frame);
    if (ecs_sched_resource_exists(w, time_id)) ecs_sched_resource_remove(w, time_id);
    CHECK(!ecs_sched_resource_exists(w, time_id));
    printf("after remove, exists: %s; resource_get:\n",
           ecs_sched_resource_exists(w, time_id) ? "yes" : "no");
    CHECK(ecs_sched_resource_get(w, time_id) == NULL);   /* NULL, and the reason is logged */

    /* ==== Queries ========================================================================

       A query lists terms: a component id and an access kind. The list ends at the first
       term with id 0 (or after ECS_SCHED_MAX_TERMS terms).

         term                          entities must   field
         ecs_sched_read(id)            have it         the column, to read
         ecs_sched_write(id)           have it         the column, to write
         ecs_sched_optional_read(id)   -               the column, or NULL in tables without it
         ecs_sched_optional_write(id)  -               the column, or NULL in tables without it
         ecs_sched_without(id)         not have it     always NULL

       A tag's field is always NULL too. Iteration visits one matching table at a time, and
       ECS_SCHED_FIELD(&it, T, i) is term i's column as a T *. */
    section("Queries");
    /* Give b some health, and make one of the batch an enemy, so every term matters. */
    ecs_sched_insert(w, b, health, &(float){50});
    ecs_sched_insert(w, many[99], enemy, NULL);

    ecs_sched_query *q = ecs_sched_query_create(w, &(ecs_sched_query_desc){{
        ecs_sched_write(pos),            /* field 0 */
        ecs_sched_read(vel),             /* field 1 */
        ecs_sched_optional_read(health), /* field 2: NULL in tables without Health */
        ecs_sched_without(enemy),        /* field 3: enemies are left out */
    }});
    CHECK(q != NULL);

    ecs_sched_iter it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        Position *pp = ECS_SCHED_FIELD(&it, Position, 0);
        const Velocity *vv = ECS_SCHED_FIELD(&it, const Velocity, 1);
        const float *hp = ECS_SCHED_FIELD(&it, const float, 2);
        printf("a table of %d entities, Health %s\n", (int)it.count, hp ? "present" : "absent");
        for (int32_t i = 0; i < it.count; i++) {     /* it.entities[i] is the entity */
            float speed = hp ? hp[i] / 100 : 1;
            pp[i].x += vv[i].x * speed;
            pp[i].y += vv[i].y * speed;
        }
    }
    printf("%d entities match\n", (int)ecs_sched_query_count(q));
    CHECK(ecs_sched_query_count(q) == 100);   /* b and 99 of the batch */
    {
        const Position *bp = ecs_sched_get(w, b, pos);   /* moved at half speed */
        CHECK(bp && bp->x == 1.0f && bp->y == 1.5f);
        if (bp) printf("b is now at (%.1f, %.1f)\n", bp->x, bp->y);
    }

    /* The world owns its queries (ecs_sched_query_destroy frees one early) and keeps each
       query's list of matching tables up to date as entities move and new tables appear. */
    CHECK(ecs_sched_remove(w, many[99], enemy) == ECS_SCHED_OK);
    CHECK(ecs_sched_query_count(q) == 101);
    printf("no more enemies: %d entities match\n", (int)ecs_sched_query_count(q));

    /* Never spawn, despawn, insert or remove while iterating: record the change in a command
       buffer (tour_commands.c) and apply it afterwards.

       Naming the same component in two terms is an error. */
    printf("a query that reads and writes Position:\n");
    {
        ecs_sched_query_desc twice = {{ecs_sched_read(pos), ecs_sched_write(pos)}};
        CHECK(ecs_sched_query_create(w, &twice) == NULL);
        CHECK(ecs_sched_last_result(w) == ECS_SCHED_ERR_INVALID_QUERY);
    }

    /* ==== Query access ===================================================================

       ecs_sched_query_access tells what a query touches: the ids it reads (read and
       optional-read terms) and the ids it writes (write and optional-write terms; writing
       includes reading). Without-terms access nothing. This is what a scheduler compares to
       decide which systems may run at the same time (tour_schedules.c). */
    section("Query access");
    ecs_sched_access acc = ecs_sched_query_access(q);
    for (int32_t i = 0; i < acc.read_count; i++)
        printf("reads %s\n", ecs_sched_component_name(w, acc.reads[i]));
    for (int32_t i = 0; i < acc.write_count; i++)
        printf("writes %s\n", ecs_sched_component_name(w, acc.writes[i]));
    CHECK(acc.read_count == 2 && acc.reads[0] == vel && acc.reads[1] == health);
    CHECK(acc.write_count == 1 && acc.writes[0] == pos);

    /* ==== Disabled entities ==============================================================

       A disabled entity keeps its components but no query sees it, unless the query names
       the Disabled tag (ecs_sched_disabled_tag): optional, it sees every entity; required,
       only the disabled ones. Enabling shows it again. Like an insert, it is a structural
       change: from a system, use a command buffer (ecs_sched_commands_disable). */
    section("Disabled entities");
    CHECK(ecs_sched_disable(w, b) == ECS_SCHED_OK);
    printf("b disabled: %d entities match, b still has Position: %s\n",
           (int)ecs_sched_query_count(q), ecs_sched_has(w, b, pos) ? "yes" : "no");
    CHECK(ecs_sched_query_count(q) == 100 && ecs_sched_is_disabled(w, b));
    {
        ecs_sched_query *all = ecs_sched_query_create(w, &(ecs_sched_query_desc){{
            ecs_sched_read(pos), ecs_sched_optional_read(ecs_sched_disabled_tag(w))}});
        CHECK(all != NULL && ecs_sched_query_count(all) == 101);
        if (all) printf("a query that asks sees %d\n", (int)ecs_sched_query_count(all));
    }
    CHECK(ecs_sched_enable(w, b) == ECS_SCHED_OK && ecs_sched_query_count(q) == 101);

    /* ==== Sparse storage =================================================================

       A component registered with ECS_SCHED_SPARSE_TAG / ECS_SCHED_SPARSE_COMPONENT (or
       .storage = ECS_SCHED_STORAGE_SPARSE in its desc) lives in a set of its own, not in
       the entity's table: adding or removing it moves nothing else of the entity, so a marker
       that comes and goes every few frames (Selected, Burning, InView) costs little to
       toggle. Queries read it like any component; the field of one with a value holds a
       pointer per row (ECS_SCHED_SPARSE_FIELD). Members scattered through a table come one
       row at a time from ecs_sched_iter_next, 64 at a time from ecs_sched_iter_next_rows. */
    section("Sparse storage");
    ecs_sched_id selected = ECS_SCHED_SPARSE_TAG(w, Selected);
    {
        const Position *where = ecs_sched_get(w, b, pos);
        int32_t tables = ecs_sched_archetype_count(w);
        CHECK(ecs_sched_insert(w, b, selected, NULL) == ECS_SCHED_OK);
        CHECK(ecs_sched_insert(w, many[7], selected, NULL) == ECS_SCHED_OK);
        CHECK(ecs_sched_get(w, b, pos) == where && ecs_sched_archetype_count(w) == tables);
        printf("b and one of the batch selected: b's Position did not move, still %d tables\n",
               (int)tables);
    }
    {
        ecs_sched_query *chosen = ecs_sched_query_create(w, &(ecs_sched_query_desc){{
            ecs_sched_write(pos), ecs_sched_read(selected)}});
        ecs_sched_iter rows;
        int32_t moved = 0;
        CHECK(chosen != NULL);
        rows = ecs_sched_query_iter(chosen);
        while (ecs_sched_iter_next_rows(&rows)) {   /* rows.rows[i]: the row in the table */
            Position *pp = ECS_SCHED_FIELD(&rows, Position, 0);
            for (int32_t i = 0; i < rows.count; i++) pp[rows.rows[i]].y += 100;
            moved += rows.count;
        }
        printf("the selected ones moved: %d\n", (int)moved);
        CHECK(moved == 2 && ecs_sched_query_count(chosen) == 2);
    }
    CHECK(ecs_sched_remove(w, b, selected) == ECS_SCHED_OK && !ecs_sched_has(w, b, selected));

    /* Queries as text: flecs's signatures. "[in] Velocity" reads, a bare component with a
       value is written, "?X" is optional, "!X" left out, "A || B" either; a misspelt name is
       reported with its column, a caret and the nearest registered name (the log below). */
    section("Queries as text");
    {
        ecs_sched_query *moving = ecs_sched_query_from_text(w, "Position, [in] Velocity");
        char text[64];
        CHECK(moving != NULL);
        ecs_sched_query_text(moving, text, (int32_t)sizeof text);
        printf("\"%s\" matches %d entities\n", text, (int)ecs_sched_query_count(moving));
        CHECK(strcmp(text, "Position, [in] Velocity") == 0);
        CHECK(ecs_sched_query_from_text(w, "Position, Veloctiy") == NULL);
    }

    /* Monitors hear an entity start and stop matching a query; events of your own go to the
       observers of an entity, and travel up to its parents when asked. */
    section("Monitors and events");
    {
        ecs_sched_entity e = ecs_sched_spawn_with(w, 1, &pos, NULL);
        tour_heard = 0;
        CHECK(ecs_sched_observer_add(w, &(ecs_sched_observer_desc){
                  .event = ECS_SCHED_ON_MATCH, .query_text = "Position, Velocity",
                  .fn = tour_hear}) != 0);
        CHECK(ecs_sched_insert(w, e, vel, NULL) == ECS_SCHED_OK);   /* now it matches */
        CHECK(ecs_sched_insert(w, e, vel, NULL) == ECS_SCHED_OK);   /* still: not heard */
        printf("the monitor heard %d entity start moving\n", (int)tour_heard);
        CHECK(tour_heard == 1);
        CHECK(ecs_sched_observer_add(w, &(ecs_sched_observer_desc){
                  .event = ECS_SCHED_ON_EVENT, .component = vel, .entity = b,
                  .fn = tour_hear}) != 0);
        CHECK(ecs_sched_set_parent(w, e, b) == ECS_SCHED_OK);
        CHECK(ecs_sched_emit(w, &(ecs_sched_event_desc){.event = vel, .entity = e,
                                                        .propagate = true}) == ECS_SCHED_OK);
        printf("an event sent to b's child reached b: %s\n", tour_heard == 2 ? "yes" : "no");
        CHECK(tour_heard == 2);
    }

    /* ecs_sched_world_check cross-checks the world's internal structures (for tests). */
    CHECK(ecs_sched_world_check(w) == ECS_SCHED_OK);
    ecs_sched_world_destroy(w);   /* values (hero's name too), queries: all go with it */

    printf("\ntour_world: %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
