/* turn_queue.c - a turn-based fight: an exclusive system that runs a schedule once per queued
   action, the pattern from Bevy's scheduling RFC.

   Each frame of the app, two systems of Update run in a chain:

     queue_actions  puts one action per fighter in the ActionQueue resource: the hero hits the
                    weakest enemy, the enemies hit the hero, and a shaman left alone calls for
                    help instead;
     run_turns      (exclusive) pops the actions one at a time and, for each, runs the schedule
                    "Turn" once.

   Turn is a chain of five systems:

       apply_action -> summon_minion -> resolve_damage -> remove_defeated -> log_turn
                       (summons only)   (attacks only)

   The two in the middle have run conditions that read the CurrentTurn resource.
   summon_minion and remove_defeated record commands (spawn a slime, despawn the defeated). No
   system of the turn needs to see them, so the chain ignores deferred commands: they are
   applied by the flush that ends each Turn run, and the next turn sees them. A fighter
   defeated earlier in the frame loses its queued action, and a slime summoned in one frame
   acts in the next. run_turns asks the app to exit when the fight is over.

   Build and run from the repository root (the header and stb_ds.h from libstb-dev):

       cc -std=c99 -O2 -I. $(pkg-config --cflags stb) examples/turn_queue.c \
          $(pkg-config --libs stb) -o turn_queue && ./turn_queue
*/
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAX_ACTIONS 16
#define MAX_FRAMES 10           /* the fight is scripted to end well before this */

typedef enum { ATTACK, SUMMON } ActionKind;

typedef struct { const char *name; int32_t power; bool summoner; } Fighter;
typedef struct { int32_t hp; } Health;

/* The actor's name travels with the action: the actor may be gone when its turn comes. */
typedef struct { ActionKind kind; ecs_sched_entity actor, target; const char *actor_name; } Action;

typedef struct { Action items[MAX_ACTIONS]; int32_t next, count; } ActionQueue;   /* resources */
typedef struct { ecs_sched_entity hero; int32_t frame, turns; } Battle;
typedef struct { int32_t frame, number; Action action; int32_t damage; char line[160]; } CurrentTurn;

/* Every system's user_data: the ids of the world's components and resources. */
typedef struct Ids { ecs_sched_id fighter, health, enemy, queue, battle, turn, exit; } Ids;

static const Ids *ids_of(ecs_sched_system_ctx *ctx) {
    return (const Ids *)ecs_sched_ctx_user_data(ctx);
}

/* A system that is not exclusive reaches one entity only through its queries: finds its row
   among query `index`'s tables (it->fields then point at that row's table). */
static bool find_entity(ecs_sched_system_ctx *ctx, int32_t index, ecs_sched_entity e,
                        ecs_sched_iter *it, int32_t *row) {
    *it = ecs_sched_ctx_iter(ctx, index);
    while (ecs_sched_iter_next(it)) {
        for (int32_t i = 0; i < it->count; i++) {
            if (it->entities[i] == e) {
                *row = i;
                return true;
            }
        }
    }
    return false;
}

/* Appends to the turn's log line. */
static void say(CurrentTurn *turn, const char *format, ...) {
    size_t used = strlen(turn->line);
    va_list args;
    va_start(args, format);
    vsnprintf(turn->line + used, sizeof turn->line - used, format, args);
    va_end(args);
}

/* ---- Update: queue the frame's actions, then play them ---- */

static void push_action(ActionQueue *queue, ActionKind kind, ecs_sched_entity actor,
                        ecs_sched_entity target, const char *actor_name) {
    if (queue->count < MAX_ACTIONS)
        queue->items[queue->count++] = (Action){kind, actor, target, actor_name};
}

/* The player's choice (the weakest enemy; the first one on a tie) and the enemies' moves. */
static void queue_actions(ecs_sched_system_ctx *ctx) {
    const Ids *ids = ids_of(ctx);
    ActionQueue *queue = ecs_sched_ctx_resource_mut(ctx, ids->queue);
    Battle *battle = ecs_sched_ctx_resource_mut(ctx, ids->battle);
    int32_t enemies = ecs_sched_query_count(ecs_sched_ctx_query(ctx, 0));
    ecs_sched_entity weakest = ECS_SCHED_NULL_ENTITY;
    int32_t weakest_hp = 0;

    battle->frame++;
    queue->next = queue->count = 0;
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        const Health *health = ECS_SCHED_FIELD(&it, const Health, 1);
        for (int32_t i = 0; i < it.count; i++) {
            if (weakest == ECS_SCHED_NULL_ENTITY || health[i].hp < weakest_hp) {
                weakest = it.entities[i];
                weakest_hp = health[i].hp;
            }
        }
    }
    if (weakest != ECS_SCHED_NULL_ENTITY) push_action(queue, ATTACK, battle->hero, weakest, "hero");

    it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        const Fighter *fighter = ECS_SCHED_FIELD(&it, const Fighter, 0);
        for (int32_t i = 0; i < it.count; i++) {
            ActionKind kind = fighter[i].summoner && enemies == 1 ? SUMMON : ATTACK;
            push_action(queue, kind, it.entities[i], battle->hero, fighter[i].name);
        }
    }
}

static bool fight_over(ecs_sched_world *w, const Battle *battle, ecs_sched_query *enemies) {
    return !ecs_sched_is_alive(w, battle->hero) || ecs_sched_query_count(enemies) == 0;
}

/* One run of Turn per queued action. Being exclusive, it has the world, and may run other
   schedules. Pointers into the world do not survive a run that applies commands, so the
   resources are looked up again after each turn. */
static void run_turns(ecs_sched_system_ctx *ctx) {
    const Ids *ids = ids_of(ctx);
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    ecs_sched_query *enemies = ecs_sched_ctx_query(ctx, 0);
    ActionQueue *queue = ecs_sched_resource_get_mut(w, ids->queue);
    Battle *battle = ecs_sched_resource_get_mut(w, ids->battle);

    printf("frame %d: %d actions queued\n", (int)battle->frame, (int)queue->count);
    while (queue->next < queue->count && !fight_over(w, battle, enemies)) {
        Action action = queue->items[queue->next++];
        if (!ecs_sched_is_alive(w, action.actor)) {
            printf("  %s is down: its action is lost\n", action.actor_name);
            continue;
        }
        CurrentTurn *turn = ecs_sched_resource_get_mut(w, ids->turn);
        *turn = (CurrentTurn){.frame = battle->frame, .number = ++battle->turns, .action = action};
        if (ecs_sched_run_schedule(w, "Turn") != ECS_SCHED_OK) {
            printf("turn failed: %s\n", ecs_sched_last_error(w));
            ecs_sched_ctx_request_exit(ctx, 1);
            return;
        }
        queue = ecs_sched_resource_get_mut(w, ids->queue);
        battle = ecs_sched_resource_get_mut(w, ids->battle);
    }
    if (fight_over(w, battle, enemies)) {
        printf("the fight is over after %d turns: the hero %s\n", (int)battle->turns,
               ecs_sched_is_alive(w, battle->hero) ? "wins" : "falls");
        ecs_sched_ctx_request_exit(ctx, 0);
    }
}

/* ---- Turn: one action, from intent to log line ---- */

static void apply_action(ecs_sched_system_ctx *ctx) {
    CurrentTurn *turn = ecs_sched_ctx_resource_mut(ctx, ids_of(ctx)->turn);
    ecs_sched_iter it;
    int32_t row;
    say(turn, "%s ", turn->action.actor_name);
    if (turn->action.kind == SUMMON) {
        say(turn, "calls for help");
    } else if (find_entity(ctx, 0, turn->action.actor, &it, &row)) {
        turn->damage = ECS_SCHED_FIELD(&it, const Fighter, 0)[row].power;
        say(turn, "attacks %s", find_entity(ctx, 0, turn->action.target, &it, &row)
                                    ? ECS_SCHED_FIELD(&it, const Fighter, 0)[row].name
                                    : "no one");
    }
}

static bool current_action_is(ecs_sched_system_ctx *ctx, ActionKind kind) {
    const CurrentTurn *turn = ecs_sched_ctx_resource(ctx, ids_of(ctx)->turn);
    return turn && turn->action.kind == kind;
}

static bool is_attack(ecs_sched_system_ctx *ctx) { return current_action_is(ctx, ATTACK); }
static bool is_summon(ecs_sched_system_ctx *ctx) { return current_action_is(ctx, SUMMON); }

/* The slime is spawned by a command: it joins the fight when this turn's run ends. */
static void summon_minion(ecs_sched_system_ctx *ctx) {
    const Ids *ids = ids_of(ctx);
    CurrentTurn *turn = ecs_sched_ctx_resource_mut(ctx, ids->turn);
    const ecs_sched_id components[] = {ids->fighter, ids->health, ids->enemy};
    const void *values[] = {&(Fighter){"slime", 1, false}, &(Health){4}, NULL};
    if (ecs_sched_commands_spawn_with(ecs_sched_ctx_commands(ctx), 3, components, values) !=
        ECS_SCHED_NULL_ENTITY)
        say(turn, ": a slime appears");
}

static void resolve_damage(ecs_sched_system_ctx *ctx) {
    CurrentTurn *turn = ecs_sched_ctx_resource_mut(ctx, ids_of(ctx)->turn);
    ecs_sched_iter it;
    int32_t row;
    if (!find_entity(ctx, 0, turn->action.target, &it, &row)) return;
    Health *health = &ECS_SCHED_FIELD(&it, Health, 0)[row];
    int32_t before = health->hp;
    health->hp = before > turn->damage ? before - turn->damage : 0;
    say(turn, ": %d damage, %s %d -> %d hp", (int)turn->damage,
        ECS_SCHED_FIELD(&it, const Fighter, 1)[row].name, (int)before, (int)health->hp);
}

static void remove_defeated(ecs_sched_system_ctx *ctx) {
    CurrentTurn *turn = ecs_sched_ctx_resource_mut(ctx, ids_of(ctx)->turn);
    ecs_sched_commands *commands = ecs_sched_ctx_commands(ctx);
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        const Health *health = ECS_SCHED_FIELD(&it, const Health, 0);
        const Fighter *fighter = ECS_SCHED_FIELD(&it, const Fighter, 1);
        for (int32_t i = 0; i < it.count; i++) {
            if (health[i].hp > 0) continue;
            ecs_sched_commands_despawn(commands, it.entities[i]);
            say(turn, "; %s is defeated", fighter[i].name);
        }
    }
}

static void log_turn(ecs_sched_system_ctx *ctx) {
    const CurrentTurn *turn = ecs_sched_ctx_resource(ctx, ids_of(ctx)->turn);
    printf("  frame %d, turn %d: %s\n", (int)turn->frame, (int)turn->number, turn->line);
}

/* ---- setup ---- */

static ecs_sched_entity spawn_fighter(ecs_sched_world *w, const Ids *ids, Fighter fighter,
                                      int32_t hp, bool enemy) {
    const ecs_sched_id components[] = {ids->fighter, ids->health, ids->enemy};
    const void *values[] = {&fighter, &(Health){hp}, NULL};
    return ecs_sched_spawn_with(w, enemy ? 3 : 2, components, values);
}

static bool add_update_systems(ecs_sched_world *w, Ids *ids) {
    return ecs_sched_add_systems(w, ECS_SCHED_UPDATE, &(ecs_sched_systems_desc){
        .systems = (ecs_sched_system_desc[]){
            {.name = "queue_actions", .fn = queue_actions, .user_data = ids,
             .queries = {{{ecs_sched_read(ids->fighter), ecs_sched_read(ids->health),
                           ecs_sched_read(ids->enemy)}}},
             .writes = {ids->queue, ids->battle}},
            /* exclusive, yet it declares AppExit: requesting exit goes through the context,
               which checks declarations even for an exclusive system */
            {.name = "run_turns", .fn = run_turns, .user_data = ids, .exclusive = true,
             .queries = {{{ecs_sched_read(ids->enemy)}}}, .writes = {ids->exit}},
        },
        .count = 2,
        .chain = true}) == ECS_SCHED_OK;
}

static bool add_turn_systems(ecs_sched_world *w, Ids *ids) {
    const ecs_sched_condition attacking = {.fn = is_attack, .user_data = ids, .reads = {ids->turn}};
    const ecs_sched_condition summoning = {.fn = is_summon, .user_data = ids, .reads = {ids->turn}};
    /* made first: the app runs Turn through run_turns, not through one of its orders */
    if (ecs_sched_schedule_configure(w, "Turn", NULL) != ECS_SCHED_OK) return false;
    return ecs_sched_add_systems(w, "Turn", &(ecs_sched_systems_desc){
        .systems = (ecs_sched_system_desc[]){
            {.name = "apply_action", .fn = apply_action, .user_data = ids,
             .queries = {{{ecs_sched_read(ids->fighter)}}}, .writes = {ids->turn}},
            {.name = "summon_minion", .fn = summon_minion, .user_data = ids, .commands = true,
             .writes = {ids->turn}, .run_if = {&summoning}},
            {.name = "resolve_damage", .fn = resolve_damage, .user_data = ids,
             .queries = {{{ecs_sched_write(ids->health), ecs_sched_read(ids->fighter)}}},
             .writes = {ids->turn}, .run_if = {&attacking}},
            {.name = "remove_defeated", .fn = remove_defeated, .user_data = ids, .commands = true,
             .queries = {{{ecs_sched_read(ids->health), ecs_sched_read(ids->fighter)}}},
             .writes = {ids->turn}},
            {.name = "log_turn", .fn = log_turn, .user_data = ids, .reads = {ids->turn}},
        },
        .count = 5,
        .chain_ignore_deferred = true}) == ECS_SCHED_OK;   /* commands wait for the turn's end */
}

static bool setup(ecs_sched_world *w, Ids *ids) {
    Battle battle = {0};
    ids->fighter = ECS_SCHED_COMPONENT(w, Fighter);
    ids->health = ECS_SCHED_COMPONENT(w, Health);
    ids->enemy = ECS_SCHED_TAG(w, Enemy);
    ids->queue = ECS_SCHED_COMPONENT(w, ActionQueue);
    ids->battle = ECS_SCHED_COMPONENT(w, Battle);
    ids->turn = ECS_SCHED_COMPONENT(w, CurrentTurn);
    ids->exit = ecs_sched_app_exit_id(w);
    if (!ids->fighter || !ids->health || !ids->enemy || !ids->queue || !ids->battle ||
        !ids->turn || !ids->exit)
        return false;
    battle.hero = spawn_fighter(w, ids, (Fighter){"hero", 5, false}, 20, false);
    if (!battle.hero || !spawn_fighter(w, ids, (Fighter){"goblin", 3, false}, 5, true) ||
        !spawn_fighter(w, ids, (Fighter){"shaman", 2, true}, 8, true))
        return false;
    return ecs_sched_resource_insert(w, ids->queue, NULL) == ECS_SCHED_OK &&
           ecs_sched_resource_insert(w, ids->battle, &battle) == ECS_SCHED_OK &&
           ecs_sched_resource_insert(w, ids->turn, NULL) == ECS_SCHED_OK &&
           add_update_systems(w, ids) && add_turn_systems(w, ids);
}

int main(void) {
    static Ids ids;
    int32_t exit_code = 1;
    ecs_sched_app *app = ecs_sched_app_create(NULL);
    if (!app) return 1;
    ecs_sched_world *w = ecs_sched_app_world(app);
    if (!setup(w, &ids)) {
        printf("setup failed: %s\n", ecs_sched_last_error(w));
        ecs_sched_app_destroy(app);
        return 1;
    }
    /* Each frame advances time by exactly 1/60 s, whatever the clock says: a fixed step keeps
       a turn-based game's replays the same. */
    ecs_sched_result result = ecs_sched_app_run(app, &(ecs_sched_app_run_desc){
        .delta_ns = ECS_SCHED_HZ(60), .max_frames = MAX_FRAMES}, &exit_code);
    if (result != ECS_SCHED_OK) {
        printf("frame failed: %s\n", ecs_sched_last_error(w));
        exit_code = 1;
    } else if (!ecs_sched_app_exit_requested(app, NULL)) {
        printf("the fight did not end in %d frames\n", MAX_FRAMES);
        exit_code = 1;
    }
    ecs_sched_app_destroy(app);
    return (int)exit_code;
}
