/* A small game whose rules live in Lua (ECS_SCHED_LUA): examples/scripts/villagers.lua makes
   the villagers, their hunger and meals, and puts them to sleep when night falls (a state's
   OnEnter); examples/scripts/scoring.lua scores their meals. The C side owns the app, the
   state machine and the frame loop, and reads the scripts' components through reflection.
   Four frames in, the game rewrites the scoring script (a meal is worth 10 points instead of
   1), and the app, which watches its scripts, runs the new rule from the next frame on: the
   villagers and their meals stay.

   Build: cc -std=c99 $(pkg-config --cflags luajit) scripted.c -lstb $(pkg-config --libs luajit)
   (or lua5.4); run from the repository root, which holds examples/scripts/. */
#define ECS_SCHED_LUA
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCORING "examples/scripts/scoring.lua"

/* The scoring script as it is, or with a meal worth `points`, written to `path`. */
static void write_scoring(const char *path, int points) {
    static char text[8192];
    const char *rule = "local POINTS = 1\n";
    char *at;
    size_t n;
    FILE *in = fopen(SCORING, "r"), *out;
    if (!in) {
        perror(SCORING);
        exit(1);
    }
    n = fread(text, 1, sizeof text - 1, in);
    text[n] = '\0';
    fclose(in);
    if (!(at = strstr(text, rule)) || !(out = fopen(path, "w"))) {
        fprintf(stderr, "cannot rewrite %s into %s\n", SCORING, path);
        exit(1);
    }
    fwrite(text, 1, (size_t)(at - text), out);
    fprintf(out, "local POINTS = %d\n", points);
    fputs(at + strlen(rule), out);
    fclose(out);
}

/* The sum of a number field of a component the scripts declared, over every entity with it. */
static double total(ecs_sched_world *w, const char *component, const char *field) {
    ecs_sched_id id = ecs_sched_component_lookup(w, component);
    size_t size = ecs_sched_component_size(w, id);
    ecs_sched_query_desc desc;
    ecs_sched_query *q;
    ecs_sched_iter it;
    double sum = 0, value;
    memset(&desc, 0, sizeof desc);
    desc.terms[0] = ecs_sched_read(id);
    q = ecs_sched_query_create(w, &desc);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        for (int32_t i = 0; i < it.count; i++) {
            const char *row = (const char *)it.fields[0] + (size_t)i * size;
            if (ecs_sched_value_get_number(w, id, row, field, &value) == ECS_SCHED_OK) sum += value;
        }
    }
    ecs_sched_query_destroy(q);
    return sum;
}

int main(int argc, char **argv) {
    char scoring[1024];
    ecs_sched_app *app = ecs_sched_app_create(NULL);
    ecs_sched_world *w = ecs_sched_app_world(app);
    ecs_sched_script_driver lua = ecs_sched_lua_script_driver(NULL);
    ecs_sched_id phase = ecs_sched_state_register(w, &(ecs_sched_state_desc){
        .name = "Phase", .values = {"Day", "Night"}});
    ecs_sched_script *rules;
    int frame;

    snprintf(scoring, sizeof scoring, "%s.scoring.lua", argc > 0 ? argv[0] : "scripted");
    write_scoring(scoring, 1);   /* a copy to edit, next to the program */
    ecs_sched_on_enter(w, phase, 1);   /* the schedule villagers.lua adds "sleep" to */
    ecs_sched_script_driver_add(w, &lua);
    if (!ecs_sched_script_load(w, "examples/scripts/villagers.lua") ||
        !(rules = ecs_sched_script_load(w, scoring))) {
        fprintf(stderr, "%s\n", ecs_sched_last_error(w));
        return 1;
    }
    ecs_sched_app_watch_scripts(app, true);

    for (frame = 1; frame <= 8; frame++) {
        if (frame == 4) write_scoring(scoring, 10);         /* edited while the game runs */
        if (frame == 7) ecs_sched_state_set(w, phase, 1);   /* night falls: everyone sleeps */
        if (ecs_sched_app_update_by(app, ECS_SCHED_MILLISECONDS(250)) != ECS_SCHED_OK) {
            fprintf(stderr, "%s\n", ecs_sched_last_error(w));
            return 1;
        }
        printf("frame %d: %.0f meals, score %.0f (scoring version %d), hunger %.2f\n", frame,
               total(w, "Meals", "count"), total(w, "Score", "points"),
               (int)ecs_sched_script_version(rules), total(w, "Hunger", "value"));
    }
    ecs_sched_app_destroy(app);
    remove(scoring);
    return 0;
}
