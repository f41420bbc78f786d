/* prefabs.c - a fleet built from data: a ship prefab read from JSON (examples/ship.json, whose
   turrets are a nested prefab, examples/turret.json), instantiated three times, one value
   overridden, the world saved as JSON and loaded back into a new world.

   The ship and its turrets are prefabs: entities with the Prefab tag, which queries do not
   see. Each frigate is an instance (IsA) of the ship prefab, and each of its turrets an
   instance of a turret prefab: they share the prefabs' values until one is written, which
   gives that instance a copy of its own (an override).

   Build and run from the repository root (the header; stb_ds.h from libstb-dev; cJSON from
   libcjson-dev, for ECS_SCHED_JSON):

       cc -std=c99 -O2 -I. $(pkg-config --cflags stb) examples/prefabs.c \
          $(pkg-config --libs stb) -lcjson -o prefabs && ./prefabs */
#define ECS_SCHED_IMPLEMENTATION
#define ECS_SCHED_JSON
#include "ecs_sched.h"

#include <stdio.h>
#include <string.h>

typedef struct { float x, y, angle; } Transform;
typedef struct { int32_t hp; char label[16]; } Hull;
typedef enum { GUN_CANNON, GUN_LASER } GunKind;
typedef struct { int32_t ammo; float rate; int32_t kind; } Gun;

typedef struct Components {
    ecs_sched_id transform, hull, gun;
} Components;

static const ecs_sched_enum_value gun_kinds[] = {{"CANNON", GUN_CANNON}, {"LASER", GUN_LASER}};

/* The components and their fields: what the JSON files name. */
static Components register_components(ecs_sched_world *w) {
    Components c;
    ecs_sched_member transform[] = {ECS_SCHED_MEMBER(Transform, x, ECS_SCHED_TYPE_F32),
                                    ECS_SCHED_MEMBER(Transform, y, ECS_SCHED_TYPE_F32),
                                    ECS_SCHED_MEMBER(Transform, angle, ECS_SCHED_TYPE_F32)};
    ecs_sched_member hull[] = {ECS_SCHED_MEMBER(Hull, hp, ECS_SCHED_TYPE_I32),
                               ECS_SCHED_MEMBER(Hull, label, ECS_SCHED_TYPE_CHARS)};
    ecs_sched_member gun[] = {ECS_SCHED_MEMBER(Gun, ammo, ECS_SCHED_TYPE_I32),
                              ECS_SCHED_MEMBER(Gun, rate, ECS_SCHED_TYPE_F32),
                              ECS_SCHED_MEMBER_ENUM(Gun, kind, gun_kinds, 2)};
    c.transform = ECS_SCHED_COMPONENT(w, Transform);
    c.hull = ECS_SCHED_COMPONENT(w, Hull);
    c.gun = ECS_SCHED_COMPONENT(w, Gun);
    ecs_sched_describe(w, c.transform, 3, transform);
    ecs_sched_describe(w, c.hull, 2, hull);
    ecs_sched_describe(w, c.gun, 3, gun);
    return c;
}

static int fail(ecs_sched_world *w, const char *what) {
    printf("%s failed: %s\n", what, ecs_sched_last_error(w));
    return 1;
}

/* Every gun a query sees, own or inherited from a turret prefab: one line per turret. */
static void list_guns(ecs_sched_world *w, const Components *c) {
    ecs_sched_query_desc d;
    ecs_sched_query *q;
    ecs_sched_iter it;
    memset(&d, 0, sizeof d);
    d.terms[0] = ecs_sched_inherited(c->gun);
    q = ecs_sched_query_create(w, &d);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        int32_t i;
        for (i = 0; i < it.count; i++) {
            char path[64];
            const Gun *g = ECS_SCHED_FIELD_AT(&it, Gun, 0, i);
            ecs_sched_path(w, it.entities[i], "/", path, sizeof path);
            printf("  %-22s ammo %2d  (%s)\n", path, (int)g->ammo,
                   ecs_sched_field_is_shared(&it, 0) ? "the prefab's" : "its own");
        }
    }
    ecs_sched_query_destroy(q);
}

int main(void) {
    ecs_sched_world *w = ecs_sched_world_create(NULL), *copy;
    Components c = register_components(w), c2;
    ecs_sched_progress progress = {0, 0, 0};
    ecs_sched_json_desc desc;
    ecs_sched_prefab_data *ship_data, *saved;
    ecs_sched_entity ship, frigate[3], turret;
    char *text, name[16];
    Gun *gun;
    int i;

    /* 1. The ship prefab, from its file; its turrets come from the nested file. */
    memset(&desc, 0, sizeof desc);
    desc.progress = &progress;
    ship_data = ecs_sched_prefab_data_load(w, "examples/ship.json", &desc);
    if (!ship_data) return fail(w, "loading examples/ship.json");
    printf("ship.json: %d entries, %d nested prefab files read, complete: %s\n",
           (int)ecs_sched_prefab_data_count(ship_data), (int)progress.done,
           ecs_sched_progress_complete(&progress) ? "yes" : "no");
    if (ecs_sched_prefab_data_instantiate(w, ship_data, ECS_SCHED_NULL_ENTITY, NULL) != ECS_SCHED_OK) {
        return fail(w, "making the prefab");
    }
    ship = ecs_sched_lookup(w, 0, "ship");
    ecs_sched_auto_override(w, ship, c.transform);   /* every frigate moves on its own */

    /* 2. Three frigates: instances of the ship, with instances of its turrets. */
    for (i = 0; i < 3; i++) {
        frigate[i] = ecs_sched_instantiate(w, ship);
        snprintf(name, sizeof name, "frigate_%d", i + 1);
        ecs_sched_set_name(w, frigate[i], name);
        ((Transform *)ecs_sched_get_mut(w, frigate[i], c.transform))->x = 10.0f * (float)(i + 1);
    }
    printf("%d entities, of which the prefab's %d\n", (int)ecs_sched_entity_count(w),
           (int)ecs_sched_prefab_data_count(ship_data));

    /* 3. One frigate's right turret runs out of ammo: its own Gun, a copy, then written. */
    turret = ecs_sched_lookup_path(w, frigate[1], "right_turret", "/");
    gun = (Gun *)ecs_sched_get_mut(w, turret, c.gun);
    gun->ammo = 0;
    printf("guns after the override:\n");
    list_guns(w, &c);

    /* 4. The world as JSON, and back into a new world with the same components. */
    text = ecs_sched_json_save(w, 0, NULL, true);
    if (!text) return fail(w, "saving");
    copy = ecs_sched_world_create(NULL);
    c2 = register_components(copy);
    saved = ecs_sched_prefab_data_from_json(copy, text, NULL);
    if (!saved || ecs_sched_prefab_data_instantiate(copy, saved, ECS_SCHED_NULL_ENTITY, NULL) != ECS_SCHED_OK) {
        return fail(copy, "loading the saved world");
    }
    printf("saved %d bytes of JSON; the loaded world has %d entities (the first had %d)\n",
           (int)strlen(text), (int)ecs_sched_entity_count(copy), (int)ecs_sched_entity_count(w));
    turret = ecs_sched_lookup_path(copy, 0, "frigate_2/right_turret", "/");
    printf("frigate_2/right_turret in the loaded world: ammo %d, its own: %s\n",
           (int)((const Gun *)ecs_sched_get(copy, turret, c2.gun))->ammo,
           ecs_sched_owns(copy, turret, c2.gun) ? "yes" : "no");
    turret = ecs_sched_lookup_path(copy, 0, "frigate_3/right_turret", "/");
    printf("frigate_3/right_turret in the loaded world: ammo %d, its own: %s\n",
           (int)((const Gun *)ecs_sched_get(copy, turret, c2.gun))->ammo,
           ecs_sched_owns(copy, turret, c2.gun) ? "yes" : "no");

    ecs_sched_json_free(text);
    ecs_sched_prefab_data_free(saved);
    ecs_sched_prefab_data_free(ship_data);
    ecs_sched_world_destroy(copy);
    ecs_sched_world_destroy(w);
    return 0;
}
