/* app: an app's default schedules and their order, the frame loop, plugins. Without state
   machines (ECS_SCHED_NO_STATES) StateTransition stays in the main order, empty until a user
   adds to it. */
#pragma once
#include "world.h"

/* The default schedule labels. Main runs the main order each update; FixedMain (time.h) runs
   the fixed order once per fixed step. */
#define ECS_SCHED_MAIN "Main"
#define ECS_SCHED_PRE_STARTUP "PreStartup"
#define ECS_SCHED_STARTUP "Startup"
#define ECS_SCHED_POST_STARTUP "PostStartup"
#define ECS_SCHED_FIRST "First"
#define ECS_SCHED_PRE_UPDATE "PreUpdate"
#define ECS_SCHED_STATE_TRANSITION "StateTransition"
#define ECS_SCHED_RUN_FIXED_MAIN_LOOP "RunFixedMainLoop"
#define ECS_SCHED_UPDATE "Update"
#define ECS_SCHED_POST_UPDATE "PostUpdate"
#define ECS_SCHED_LAST "Last"
#define ECS_SCHED_FIXED_FIRST "FixedFirst"
#define ECS_SCHED_FIXED_PRE_UPDATE "FixedPreUpdate"
#define ECS_SCHED_FIXED_UPDATE "FixedUpdate"
#define ECS_SCHED_FIXED_POST_UPDATE "FixedPostUpdate"
#define ECS_SCHED_FIXED_LAST "FixedLast"

typedef struct ecs_sched_app ecs_sched_app;

typedef struct ecs_sched_app_desc {
    ecs_sched_world_desc world;       /* the world the app creates and owns */
    ecs_sched_time_desc time;         /* its clocks */
} ecs_sched_app_desc;

/* The three orders of schedule labels an app runs. */
typedef enum ecs_sched_app_order {
    ECS_SCHED_ORDER_STARTUP = 0,      /* once, in the first update: PreStartup .. PostStartup */
    ECS_SCHED_ORDER_MAIN,             /* each update: First .. Last */
    ECS_SCHED_ORDER_FIXED             /* each fixed step: FixedFirst .. FixedLast */
} ecs_sched_app_order;

/* Creates an app: its world (with the clocks of time.h), the default schedules (empty, but
   for the systems that run the orders, StateTransition's apply_state_transitions for every
   machine and RunFixedMainLoop's run_fixed_main_loop), and resource "AppExit". NULL when out
   of memory or when desc->time is out of range (the log says which). desc NULL: defaults. */
ECS_SCHED_API ecs_sched_app *ecs_sched_app_create(const ecs_sched_app_desc *desc);
/* Destroys the app and its world. */
ECS_SCHED_API void ecs_sched_app_destroy(ecs_sched_app *app);
ECS_SCHED_API ecs_sched_world *ecs_sched_app_world(ecs_sched_app *app);

/* One frame: real and virtual time advance (by the clock hook's reading, or by exactly
   delta_ns), then schedule Main runs. First, a schedule with systems that the app never runs
   (in no order, no state machine's, not made with ecs_sched_schedule_configure: a typo) fails
   the update, nothing run, with ECS_SCHED_ERR_UNKNOWN_SCHEDULE. In the first update Main first runs StateTransition
   (the initial states are entered) and the startup order, then the main order. An update
   stops at the first schedule run that fails and returns its code; ecs_sched_last_error
   says what failed. A startup schedule that failed runs again in the next update, with the
   startup schedules after it (not those before it), before the main order. */
ECS_SCHED_API ecs_sched_result ecs_sched_app_update(ecs_sched_app *app);
ECS_SCHED_API ecs_sched_result ecs_sched_app_update_by(ecs_sched_app *app, int64_t delta_ns);
/* Updates made so far, failed ones included (their clocks advanced). */
ECS_SCHED_API uint64_t ecs_sched_app_frame_count(const ecs_sched_app *app);
#ifdef ECS_SCHED_SCRIPTS
/* With watch on, each update first reloads the world's scripts whose file changed
   (ecs_sched_scripts_poll): a frame boundary, where no schedule runs. */
ECS_SCHED_API void ecs_sched_app_watch_scripts(ecs_sched_app *app, bool watch);
#endif

typedef struct ecs_sched_app_run_desc {
    int64_t frame_ns;       /* pace: an update starts at most every frame_ns, sleeping the rest
                               (ECS_SCHED_HZ(30) for 30 frames a second); 0: back to back */
    int64_t delta_ns;       /* nonzero: each update advances time by exactly this, whatever the
                               clock says (headless, replays, tests) */
    int64_t max_frames;     /* nonzero: stop after this many updates */
} ecs_sched_app_run_desc;

/* Updates until exit is requested (or max_frames). Returns ECS_SCHED_OK then, with the exit
   code in *exit_code (0 when none was requested; exit_code may be NULL), or the first failing
   update's code. desc NULL: defaults. */
ECS_SCHED_API ecs_sched_result ecs_sched_app_run(ecs_sched_app *app,
                                                const ecs_sched_app_run_desc *desc,
                                                int32_t *exit_code);

/* Resource "AppExit": whether exit was requested, and with which code. */
typedef struct ecs_sched_app_exit {
    bool requested;
    int32_t code;
} ecs_sched_app_exit;
/* Its id: declare it in .writes of a system that requests exit. 0 without an app. */
ECS_SCHED_API ecs_sched_id ecs_sched_app_exit_id(const ecs_sched_world *world);
/* Requests exit: ecs_sched_app_run returns after the current update. A second request keeps
   the first code (and says so at debug log level). The request stays, so a later
   ecs_sched_app_run returns before its first update; to go on, set `requested` of resource
   AppExit (ecs_sched_app_exit_id) back to false. */
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_request_exit(ecs_sched_system_ctx *ctx, int32_t code);
ECS_SCHED_API ecs_sched_result ecs_sched_app_request_exit(ecs_sched_app *app, int32_t code);
/* Whether exit was requested; its code in *code (may be NULL). */
ECS_SCHED_API bool ecs_sched_app_exit_requested(const ecs_sched_app *app, int32_t *code);

/* Inserts a new schedule label into the order that holds `anchor` (startup, main or fixed),
   right before or after it, and creates the schedule. A label already in an order (or Main,
   FixedMain) is ECS_SCHED_ERR_INVALID_ARGUMENT; an anchor in no order is
   ECS_SCHED_ERR_UNKNOWN_SCHEDULE; during an update, ECS_SCHED_ERR_SCHEDULE_RUNNING; into the
   startup order after the first update, ECS_SCHED_ERR_INVALID_ARGUMENT. */
ECS_SCHED_API ecs_sched_result ecs_sched_app_insert_schedule_before(ecs_sched_app *app,
                                                                   const char *anchor,
                                                                   const char *label);
ECS_SCHED_API ecs_sched_result ecs_sched_app_insert_schedule_after(ecs_sched_app *app,
                                                                  const char *anchor,
                                                                  const char *label);
/* Copies up to `capacity` labels of an order into `labels`; returns how many it holds. */
ECS_SCHED_API int32_t ecs_sched_app_schedule_order(const ecs_sched_app *app,
                                                  ecs_sched_app_order order,
                                                  const char **labels, int32_t capacity);

/* ---- plugins ---- */

/* A set a plugin makes public: users order their systems against it. */
typedef struct ecs_sched_plugin_set {
    const char *schedule;
    const char *set;
} ecs_sched_plugin_set;

/* A plugin: a named build function that adds systems, sets, resources, states (and other
   plugins) to the app. Its name identifies it: adding a name the app has is a no-op. The
   plugins in .needs are added before it when missing, so a plugin that only needs others
   (no build) is a plugin group, adding them in order. The sets in .exports are configured in
   their schedules before build runs, so they exist even while nothing fills them. */
typedef struct ecs_sched_plugin {
    const char *name;                 /* required */
    ecs_sched_result (*build)(ecs_sched_app *app, void *user_data);   /* may be NULL */
    void *user_data;
    const struct ecs_sched_plugin *needs[ECS_SCHED_MAX_REFS];
    ecs_sched_plugin_set exports[ECS_SCHED_MAX_REFS];
} ecs_sched_plugin;

/* Adds a plugin: its needs first, then its exported sets, then its build. A build that fails
   makes this fail with the plugin's name in the message; the plugin is not recorded as added
   (what its build added stays). */
ECS_SCHED_API ecs_sched_result ecs_sched_app_add_plugin(ecs_sched_app *app,
                                                       const ecs_sched_plugin *plugin);
/* Adds several in order; all are checked (names, needs) before any is added. */
ECS_SCHED_API ecs_sched_result ecs_sched_app_add_plugins(ecs_sched_app *app,
                                                        int32_t count,
                                                        const ecs_sched_plugin *const *plugins);
ECS_SCHED_API bool ecs_sched_app_has_plugin(const ecs_sched_app *app, const char *name);

/*@@ implementation @@*/
/* app: an app's default schedules and their order, the frame loop, plugins. */

#define ECS_SCHED__PLUGIN_DEPTH 32

typedef struct ecs_sched__order_entry {
    char *label;
    ecs_sched__schedule *schedule;
} ecs_sched__order_entry;

typedef struct ecs_sched__label_order {
    ecs_sched__order_entry *items;
    uint32_t count;
    uint32_t capacity;
} ecs_sched__label_order;

struct ecs_sched_app {
    ecs_sched_world *world;
    ecs_sched__label_order orders[3];    /* by ecs_sched_app_order */
    ecs_sched__schedule *main;
    ecs_sched__schedule *state_transition;
    ecs_sched_id exit;
    char **plugins;                      /* names of the plugins added */
    uint32_t plugin_count;
    uint32_t plugin_capacity;
    const ecs_sched_plugin *building[ECS_SCHED__PLUGIN_DEPTH];   /* being added, outermost first */
    int32_t building_count;
    uint64_t frames;
    uint32_t checked[3];                 /* schedules, systems added and state machines the last
                                            check of the schedules run saw (all were run) */
    uint32_t startup_done;               /* startup schedules run: StateTransition, then the
                                            startup order */
    bool updating;
    bool watch_scripts;                  /* ecs_sched_app_watch_scripts */
    /* An extension point: called at the start of each update, before time advances, where
       no schedule runs (what must happen between two frames: the remote starts a trace
       there). One module holds it at a time; NULL: none. */
    void (*between_frames)(ecs_sched_app *app, void *user_data);
    void *between_frames_data;
};

/* The app that owns a world is a part of it (registry.h). */
static ecs_sched__part_key ecs_sched__app_key;

static inline ecs_sched_app *ecs_sched__app_of(const ecs_sched_world *w) {
    return (ecs_sched_app *)ecs_sched__part(w, &ecs_sched__app_key);
}

static const char *const ecs_sched__default_orders[3][8] = {
    {ECS_SCHED_PRE_STARTUP, ECS_SCHED_STARTUP, ECS_SCHED_POST_STARTUP, NULL},
    {ECS_SCHED_FIRST, ECS_SCHED_PRE_UPDATE, ECS_SCHED_STATE_TRANSITION,
     ECS_SCHED_RUN_FIXED_MAIN_LOOP, ECS_SCHED_UPDATE, ECS_SCHED_POST_UPDATE, ECS_SCHED_LAST, NULL},
    {ECS_SCHED_FIXED_FIRST, ECS_SCHED_FIXED_PRE_UPDATE, ECS_SCHED_FIXED_UPDATE,
     ECS_SCHED_FIXED_POST_UPDATE, ECS_SCHED_FIXED_LAST, NULL},
};

static const char *const ecs_sched__order_names[3] = {"startup", "main", "fixed"};

/* ---- the orders ---- */

/* Runs the schedules of an order; one that failed stops the order only if its run stopped
   (its policy said so). Returns the first failure. */
static ecs_sched_result ecs_sched__run_order(ecs_sched_world *w, const ecs_sched__label_order *o) {
    ecs_sched_result first = ECS_SCHED_OK;
    uint32_t i;
    for (i = 0; i < o->count; i++) {
        ecs_sched__schedule *s = o->items[i].schedule;
        ecs_sched_result result = ecs_sched__run_schedule(w, s);
        if (result != ECS_SCHED_OK && first == ECS_SCHED_OK) first = result;
        if (ecs_sched__run_cut_short(s, result)) break;
    }
    return first;
}

/* The initial states, then the startup order, each schedule once. One that fails is run
   again by the next update, and the rest after it. */
static ecs_sched_result ecs_sched__run_startup(ecs_sched_app *app) {
    const ecs_sched__label_order *startup = &app->orders[ECS_SCHED_ORDER_STARTUP];
    while (app->startup_done <= startup->count) {
        ecs_sched__schedule *s = app->startup_done == 0
                                     ? app->state_transition
                                     : startup->items[app->startup_done - 1].schedule;
        ecs_sched_result result = ecs_sched__run_schedule(app->world, s);
        if (result != ECS_SCHED_OK) return result;
        app->startup_done++;
    }
    return ECS_SCHED_OK;
}

/* Main's system: startup the first time, then the main order. */
static void ecs_sched__run_main_order(ecs_sched_system_ctx *ctx) {
    ecs_sched_app *app = (ecs_sched_app *)ctx->user_data;
    if (ecs_sched__run_startup(app) == ECS_SCHED_OK) {   /* a failure is this system's already */
        ecs_sched__run_order(ctx->world, &app->orders[ECS_SCHED_ORDER_MAIN]);
    }
}

/* FixedMain's system. */
static void ecs_sched__run_fixed_order(ecs_sched_system_ctx *ctx) {
    ecs_sched_app *app = (ecs_sched_app *)ctx->user_data;
    ecs_sched__run_order(ctx->world, &app->orders[ECS_SCHED_ORDER_FIXED]);
}

/* Where `label` is in the orders: *order and *index, or false. */
static bool ecs_sched__order_find(const ecs_sched_app *app, const char *label, int *order,
                                  uint32_t *index) {
    int o;
    uint32_t i;
    for (o = 0; o < 3; o++) {
        for (i = 0; i < app->orders[o].count; i++) {
            if (strcmp(app->orders[o].items[i].label, label) == 0) {
                *order = o;
                *index = i;
                return true;
            }
        }
    }
    return false;
}

/* Puts `label` at `index` of order `o`, creating its schedule: the schedule comes last, so
   that a failure leaves no schedule that is in no order. */
static ecs_sched_result ecs_sched__order_insert(ecs_sched_app *app, int o, uint32_t index,
                                                const char *label) {
    ecs_sched_world *w = app->world;
    ecs_sched__label_order *order = &app->orders[o];
    ecs_sched__order_entry entry;
    if (!ECS_SCHED__GROW(&w->env, order->items, &order->capacity, order->count + 1) ||
        !(entry.label = ecs_sched__strdup(&w->env, label))) {
        return ecs_sched__out_of_memory(w, "inserting a schedule label");
    }
    entry.schedule = ecs_sched__schedule_get(w, label);
    if (!entry.schedule) {
        ecs_sched__free(&w->env, entry.label);
        return w->env.last_result;
    }
    memmove(order->items + index + 1, order->items + index,
            (order->count - index) * sizeof *order->items);
    order->items[index] = entry;
    order->count++;
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__insert_schedule(ecs_sched_app *app, const char *anchor,
                                                   const char *label, bool after) {
    ecs_sched_world *w;
    const char *operation = after ? "app_insert_schedule_after" : "app_insert_schedule_before";
    int o, existing_order = 0;
    uint32_t index, existing_index;
    bool runner;
    ECS_SCHED_ASSERT(app != NULL);
    w = app->world;
    if (!label || !label[0] || !anchor || !anchor[0]) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "%s: both the anchor and the new label are required", operation);
    }
    if (app->updating) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_SCHEDULE_RUNNING,
                               "%s: cannot insert '%s' while the app is updating; insert it "
                               "before the first update (a plugin's build is a good place)",
                               operation, label);
    }
    runner = strcmp(label, ECS_SCHED_MAIN) == 0 || strcmp(label, ECS_SCHED_FIXED_MAIN) == 0;
    if (runner || ecs_sched__order_find(app, label, &existing_order, &existing_index)) {
        char where[32] = "";
        if (!runner) {
            snprintf(where, sizeof where, " (in the %s order)",
                     ecs_sched__order_names[existing_order]);
        }
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "%s: schedule '%s' is already run by the app%s; a label can be "
                               "in the orders once", operation, label, where);
    }
    if (!ecs_sched__order_find(app, anchor, &o, &index)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_UNKNOWN_SCHEDULE,
                               "%s: '%s' is in none of the app's orders, so '%s' cannot go %s "
                               "it (ecs_sched_app_schedule_order lists them)",
                               operation, anchor, label, after ? "after" : "before");
    }
    if (o == ECS_SCHED_ORDER_STARTUP && app->startup_done > 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "%s: the startup order ran in the first update; '%s' would "
                               "never run (insert startup schedules before the first update)",
                               operation, label);
    }
    return ecs_sched__order_insert(app, o, after ? index + 1 : index, label);
}

ecs_sched_result ecs_sched_app_insert_schedule_before(ecs_sched_app *app, const char *anchor,
                                                      const char *label) {
    return ecs_sched__insert_schedule(app, anchor, label, false);
}

ecs_sched_result ecs_sched_app_insert_schedule_after(ecs_sched_app *app, const char *anchor,
                                                     const char *label) {
    return ecs_sched__insert_schedule(app, anchor, label, true);
}

int32_t ecs_sched_app_schedule_order(const ecs_sched_app *app, ecs_sched_app_order order,
                                     const char **labels, int32_t capacity) {
    const ecs_sched__label_order *o;
    int32_t i;
    ECS_SCHED_ASSERT(app != NULL);
    if ((int)order < 0 || (int)order > 2) return 0;
    o = &app->orders[order];
    for (i = 0; i < capacity && i < (int32_t)o->count; i++) labels[i] = o->items[i].label;
    return (int32_t)o->count;
}

/* ---- creation ---- */

/* Adds one of the systems that run the orders. */
static ecs_sched_result ecs_sched__add_runner(ecs_sched_app *app, const char *schedule,
                                             const char *name, ecs_sched_system_fn fn) {
    ecs_sched_system_desc d;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.fn = fn;
    d.user_data = app;
    d.exclusive = true;
    return ecs_sched_add_system(app->world, schedule, &d);
}

static ecs_sched_result ecs_sched__app_fill(ecs_sched_app *app, const ecs_sched_time_desc *time) {
    ecs_sched_world *w = app->world;
#ifndef ECS_SCHED_NO_STATES
    ecs_sched_system_desc apply = ecs_sched_state_transitions_system(0);
#endif
    ecs_sched_system_desc fixed = ecs_sched_fixed_main_loop_system();
    int o, i;
    ecs_sched_result result = ecs_sched_time_setup(w, time);
    if (result != ECS_SCHED_OK) return result;
    app->exit = ecs_sched_component_register_type(w, "AppExit", sizeof(ecs_sched_app_exit),
                                                  ECS_SCHED_ALIGNOF(ecs_sched_app_exit));
    if (!app->exit) return w->env.last_result;
    if ((result = ecs_sched_resource_insert(w, app->exit, NULL)) != ECS_SCHED_OK) return result;
    for (o = 0; o < 3; o++) {
        for (i = 0; ecs_sched__default_orders[o][i]; i++) {
            result = ecs_sched__order_insert(app, o, (uint32_t)i, ecs_sched__default_orders[o][i]);
            if (result != ECS_SCHED_OK) return result;
        }
    }
    if ((result = ecs_sched__add_runner(app, ECS_SCHED_MAIN, "run_main_order",
                                        ecs_sched__run_main_order)) != ECS_SCHED_OK ||
        (result = ecs_sched__add_runner(app, ECS_SCHED_FIXED_MAIN, "run_fixed_order",
                                        ecs_sched__run_fixed_order)) != ECS_SCHED_OK ||
#ifndef ECS_SCHED_NO_STATES
        (result = ecs_sched_add_system(w, ECS_SCHED_STATE_TRANSITION, &apply)) != ECS_SCHED_OK ||
#endif
        (result = ecs_sched_add_system(w, ECS_SCHED_RUN_FIXED_MAIN_LOOP, &fixed)) != ECS_SCHED_OK) {
        return result;
    }
    app->main = ecs_sched__schedule_find(w, ECS_SCHED_MAIN);
    app->state_transition = ecs_sched__schedule_find(w, ECS_SCHED_STATE_TRANSITION);
    return ECS_SCHED_OK;
}

static void ecs_sched__app_free(ecs_sched_app *app) {
    ecs_sched_world *w = app->world;
    ecs_sched_allocator allocator = w->env.allocator;
    uint32_t i;
    int o;
    for (o = 0; o < 3; o++) {
        for (i = 0; i < app->orders[o].count; i++) ecs_sched__free(&w->env, app->orders[o].items[i].label);
        ecs_sched__free(&w->env, app->orders[o].items);
    }
    for (i = 0; i < app->plugin_count; i++) ecs_sched__free(&w->env, app->plugins[i]);
    ecs_sched__free(&w->env, app->plugins);
    ecs_sched_world_destroy(w);
    allocator.free_fn(app, allocator.user_data);
}

ecs_sched_app *ecs_sched_app_create(const ecs_sched_app_desc *desc) {
    ecs_sched_app_desc d;
    ecs_sched_world *w;
    ecs_sched_app *app;
    memset(&d, 0, sizeof d);
    if (desc) d = *desc;
    w = ecs_sched_world_create(&d.world);
    if (!w) return NULL;
    app = (ecs_sched_app *)ecs_sched__calloc(&w->env, sizeof *app);
    if (!app) {
        ecs_sched__out_of_memory(w, "creating an app");
        ecs_sched_world_destroy(w);
        return NULL;
    }
    app->world = w;
    ecs_sched__part_set(w, &ecs_sched__app_key, app);
    if (ecs_sched__app_fill(app, &d.time) != ECS_SCHED_OK) {
        ecs_sched__log(&w->env, ECS_SCHED_LOG_ERROR, w->env.last_result,
                       "app_create: the app could not be made (see the error above)");
        ecs_sched__app_free(app);
        return NULL;
    }
    return app;
}

void ecs_sched_app_destroy(ecs_sched_app *app) {
    if (app) ecs_sched__app_free(app);
}

ecs_sched_world *ecs_sched_app_world(ecs_sched_app *app) {
    ECS_SCHED_ASSERT(app != NULL);
    return app->world;
}

/* ---- schedules nobody runs ----

   A system added to a label the app never runs (a typo: "Updte") would never run, silently.
   So before an update the app checks that each schedule with systems is run: it is in an
   order, a runner (Main, FixedMain), a state machine's transition schedule, or made with
   ecs_sched_schedule_configure, which says the caller's code runs it (an exclusive system, or
   the loop around the app). The check runs again only when schedules, systems or machines
   were added since it last passed. */

#ifdef ECS_SCHED_NO_STATES
/* Without state machines, no schedule is a machine's. */
static bool ecs_sched__is_state_label(const ecs_sched_world *w, const char *label) {
    (void)w;
    (void)label;
    return false;
}
#else
/* Whether `label` is "OnTransition(M::from, M::to)" of machine m. */
static bool ecs_sched__is_transition_label(const ecs_sched__state_machine *m, const char *label) {
    static const char prefix[] = "OnTransition(";
    const char *at = label + sizeof prefix - 1;
    size_t n = strlen(m->name);
    int32_t side, v;
    if (strncmp(label, prefix, sizeof prefix - 1) != 0) return false;
    for (side = 0; side < 2; side++) {
        const char *end = side == 0 ? ", " : ")";
        size_t k = 0;
        if (strncmp(at, m->name, n) != 0 || strncmp(at + n, "::", 2) != 0) return false;
        at += n + 2;
        for (v = 0; v < m->value_count; v++) {
            k = strlen(m->value_names[v]);
            if (strncmp(at, m->value_names[v], k) == 0 && strncmp(at + k, end, strlen(end)) == 0) break;
        }
        if (v == m->value_count) return false;
        at += k + strlen(end);
    }
    return *at == '\0';
}

/* Whether `label` names a schedule a state machine's transitions run. */
static bool ecs_sched__is_state_label(const ecs_sched_world *w, const char *label) {
    uint32_t i;
    int32_t k, v;
    for (i = 0; ecs_sched__states_of(w) && i < ecs_sched__states_of(w)->count; i++) {
        const ecs_sched__state_machine *m = &ecs_sched__states_of(w)->items[i];
        if (ecs_sched__is_transition_label(m, label)) return true;
        for (k = 0; k < ECS_SCHED__VALUE_SCHEDULES; k++) {
            for (v = 0; v < m->value_count; v++) {
                if (strcmp(m->labels[k][v], label) == 0) return true;
            }
        }
    }
    return false;
}
#endif

static bool ecs_sched__app_runs(const ecs_sched_app *app, const ecs_sched__schedule *s) {
    int order;
    uint32_t index;
    return s->declared || strcmp(s->label, ECS_SCHED_MAIN) == 0 ||
           strcmp(s->label, ECS_SCHED_FIXED_MAIN) == 0 ||
           ecs_sched__order_find(app, s->label, &order, &index) ||
           ecs_sched__is_state_label(app->world, s->label);
}

/* The edit distance of a and b, ignoring case (labels are compared on their first 63
   characters). */
static size_t ecs_sched__label_distance(const char *a, const char *b) {
    size_t row[64], n = strlen(b), m = strlen(a), i, j;
    if (n > 63) n = 63;
    if (m > 63) m = 63;
    for (j = 0; j <= n; j++) row[j] = j;
    for (i = 1; i <= m; i++) {
        size_t diagonal = row[0];
        row[0] = i;
        for (j = 1; j <= n; j++) {
            size_t above = row[j];
            size_t cost = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]) ? 0 : 1;
            size_t best = diagonal + cost;
            if (above + 1 < best) best = above + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[n];
}

/* The label the app runs that is nearest to `label`, when near enough to be a typo of it. */
static const char *ecs_sched__nearest_run_label(const ecs_sched_app *app, const char *label) {
    const char *best = NULL;
    size_t best_distance = strlen(label) / 3 + 1;   /* a typo or two, more in long labels */
    int o;
    uint32_t i;
    for (o = 0; o < 3; o++) {
        for (i = 0; i < app->orders[o].count; i++) {
            size_t d = ecs_sched__label_distance(label, app->orders[o].items[i].label);
            if (d <= best_distance && (!best || d < best_distance)) {
                best = app->orders[o].items[i].label;
                best_distance = d;
            }
        }
    }
    return best;
}

static ecs_sched_result ecs_sched__never_run(ecs_sched_app *app, const ecs_sched__schedule *s) {
    const char *nearest = ecs_sched__nearest_run_label(app, s->label);
    char mean[128] = ".";
    if (nearest) snprintf(mean, sizeof mean, "; did you mean '%s'?", nearest);
    return ecs_sched__fail(&app->world->env, ECS_SCHED_ERR_UNKNOWN_SCHEDULE,
                           "app_update: schedule '%s' has %u system(s) ('%s'%s) but the app never "
                           "runs it: it is in none of the app's orders (ecs_sched_app_schedule_order "
                           "lists them) and is no state machine's%s If your own code runs it (an "
                           "exclusive system, or your loop), make it with "
                           "ecs_sched_schedule_configure(world, \"%s\", NULL) first",
                           s->label, (unsigned)s->system_count, s->systems[0]->ctx.run.name,
                           s->system_count > 1 ? ", ..." : "", mean, s->label);
}

static ecs_sched_result ecs_sched__check_schedules_run(ecs_sched_app *app) {
    const ecs_sched__schedules *all = ecs_sched__schedules_of(app->world);
    uint32_t shape[3] = {0, 0, 0}, i;
    if (!all) return ECS_SCHED_OK;
    shape[0] = all->count;
    shape[1] = all->systems_added;
#ifndef ECS_SCHED_NO_STATES
    shape[2] = ecs_sched__states_of(app->world) ? ecs_sched__states_of(app->world)->count : 0;
#endif
    if (memcmp(shape, app->checked, sizeof shape) == 0) return ECS_SCHED_OK;
    for (i = 0; i < all->count; i++) {
        const ecs_sched__schedule *s = all->items[i];
        if (s->system_count && !ecs_sched__app_runs(app, s)) return ecs_sched__never_run(app, s);
    }
    memcpy(app->checked, shape, sizeof shape);
    return ECS_SCHED_OK;
}

/* ---- the frame loop ---- */

static ecs_sched_result ecs_sched__app_update(ecs_sched_app *app, bool by_clock, int64_t delta_ns) {
    ecs_sched_world *w;
    ecs_sched_result result;
#ifdef ECS_SCHED_TRACE
    int64_t begin;
#endif
    ECS_SCHED_ASSERT(app != NULL);
    w = app->world;
    if (app->updating) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_RECURSIVE_RUN,
                               "app_update: the app is updating already (a system cannot run "
                               "a frame of its own app)");
    }
#ifdef ECS_SCHED_SCRIPTS
    if (app->watch_scripts) (void)ecs_sched_scripts_poll(w);   /* (a failure is logged) */
#endif
    if (app->between_frames) app->between_frames(app, app->between_frames_data);
    result = ecs_sched__check_schedules_run(app);
    if (result != ECS_SCHED_OK) return result;
#ifdef ECS_SCHED_TRACE
    begin = ecs_sched__trace_ticks();
#endif
    result = by_clock ? ecs_sched_time_advance(w) : ecs_sched_time_advance_by(w, delta_ns);
    if (result != ECS_SCHED_OK) return result;
#ifdef ECS_SCHED_TRACE
    if (ecs_sched__tracing(w)) ecs_sched__trace_of(w)->in_app_frame = true;
#endif
    /* messages live two updates, counted in frames that ran a fixed step: a reader in
       FixedUpdate then misses none, however many frames pass between two steps */
    if (ecs_sched__messages_of(w) && w->fixed_step_since_update) {
#ifdef ECS_SCHED_TRACE
        ecs_sched__note_messages(w);
#endif
        ecs_sched_messages_update(w);
    }
    app->updating = true;
    result = ecs_sched__run_schedule(w, app->main);
    app->updating = false;
    app->frames++;
#ifdef ECS_SCHED_TRACE
    if (ecs_sched__tracing(w) && ecs_sched__trace_of(w)->in_app_frame) {
        ecs_sched_result ended;
        ecs_sched__trace_of(w)->in_app_frame = false;
        ended = ecs_sched__trace_frame_end(w, begin);
        if (result == ECS_SCHED_OK) result = ended;
    }
#endif
    return result;
}

ecs_sched_result ecs_sched_app_update(ecs_sched_app *app) {
    return ecs_sched__app_update(app, true, 0);
}

ecs_sched_result ecs_sched_app_update_by(ecs_sched_app *app, int64_t delta_ns) {
    return ecs_sched__app_update(app, false, delta_ns);
}

uint64_t ecs_sched_app_frame_count(const ecs_sched_app *app) {
    ECS_SCHED_ASSERT(app != NULL);
    return app->frames;
}

#ifdef ECS_SCHED_SCRIPTS
void ecs_sched_app_watch_scripts(ecs_sched_app *app, bool watch) {
    ECS_SCHED_ASSERT(app != NULL);
    app->watch_scripts = watch;
}
#endif

static ecs_sched_result ecs_sched__check_run_desc(ecs_sched_world *w,
                                                  const ecs_sched_app_run_desc *d) {
    const char *field = d->frame_ns < 0 ? "frame_ns" : d->delta_ns < 0 ? "delta_ns"
                        : d->max_frames < 0 ? "max_frames" : NULL;
    if (!field) return ECS_SCHED_OK;
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "app_run: %s is negative; it must be >= 0 (0: the default)", field);
}

ecs_sched_result ecs_sched_app_run(ecs_sched_app *app, const ecs_sched_app_run_desc *desc,
                                   int32_t *exit_code) {
    ecs_sched_app_run_desc d;
    ecs_sched_world *w;
    ecs_sched_result result = ECS_SCHED_OK;
    int64_t frames;
    ECS_SCHED_ASSERT(app != NULL);
    w = app->world;
    memset(&d, 0, sizeof d);
    if (desc) d = *desc;
    if (exit_code) *exit_code = 0;
    result = ecs_sched__check_run_desc(w, &d);
    if (result != ECS_SCHED_OK) return result;
    for (frames = 0; !d.max_frames || frames < d.max_frames; frames++) {
        int64_t start = d.frame_ns ? ecs_sched_time_now(w) : 0;
        if (ecs_sched_app_exit_requested(app, exit_code)) break;
        result = d.delta_ns ? ecs_sched_app_update_by(app, d.delta_ns) : ecs_sched_app_update(app);
        if (result != ECS_SCHED_OK) break;
        if (d.frame_ns) {
            int64_t spent = ecs_sched_time_now(w) - start;
            if (spent < d.frame_ns) ecs_sched_time_sleep(w, d.frame_ns - spent);
        }
    }
    ecs_sched_app_exit_requested(app, exit_code);
    return result;
}

/* ---- exit ---- */

ecs_sched_id ecs_sched_app_exit_id(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__app_of(w) ? ecs_sched__app_of(w)->exit : 0;
}

static ecs_sched_result ecs_sched__request_exit(ecs_sched_world *w, ecs_sched_app_exit *exit_,
                                                int32_t code) {
    if (exit_->requested) {
        ecs_sched__logf(&w->env, ECS_SCHED_LOG_DEBUG, ECS_SCHED_OK,
                       "exit requested again (code %d); keeping the first code, %d", (int)code,
                       (int)exit_->code);
        return ECS_SCHED_OK;
    }
    exit_->requested = true;
    exit_->code = code;
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_ctx_request_exit(ecs_sched_system_ctx *ctx, int32_t code) {
    ecs_sched_world *w;
    ecs_sched_app_exit *exit_;
    ECS_SCHED_ASSERT(ctx != NULL);
    w = ctx->world;
    if (!ecs_sched__app_of(w)) {
        return ecs_sched__ctx_vfail(ctx, ECS_SCHED_ERR_MISSING_RESOURCE, false,
                                    "requests exit, but its world has no app");
    }
    if (!ecs_sched_resource_exists(w, ecs_sched__app_of(w)->exit)) {
        return ecs_sched__ctx_vfail(ctx, ECS_SCHED_ERR_MISSING_RESOURCE, false,
                                    "requests exit, but resource 'AppExit' was removed");
    }
    exit_ = (ecs_sched_app_exit *)ecs_sched_ctx_resource_mut(ctx, ecs_sched__app_of(w)->exit);
    if (!exit_) return w->env.last_result;
    return ecs_sched__request_exit(w, exit_, code);
}

ecs_sched_result ecs_sched_app_request_exit(ecs_sched_app *app, int32_t code) {
    ecs_sched_app_exit *exit_;
    ECS_SCHED_ASSERT(app != NULL);
    exit_ = (ecs_sched_app_exit *)ecs_sched__required_resource(app->world, app->exit,
                                                               "app_request_exit");
    if (!exit_) return app->world->env.last_result;
    return ecs_sched__request_exit(app->world, exit_, code);
}

bool ecs_sched_app_exit_requested(const ecs_sched_app *app, int32_t *code) {
    const ecs_sched_app_exit *exit_;
    ECS_SCHED_ASSERT(app != NULL);
    if (!ecs_sched_resource_exists(app->world, app->exit)) return false;   /* removed */
    exit_ = (const ecs_sched_app_exit *)ecs_sched_resource_get(app->world, app->exit);
    if (!exit_->requested) return false;
    if (code) *code = exit_->code;
    return true;
}

/* ---- plugins ---- */

bool ecs_sched_app_has_plugin(const ecs_sched_app *app, const char *name) {
    uint32_t i;
    ECS_SCHED_ASSERT(app != NULL);
    if (!name) return false;
    for (i = 0; i < app->plugin_count; i++) {
        if (strcmp(app->plugins[i], name) == 0) return true;
    }
    return false;
}

/* The path of plugins being added or checked, outermost first. */
typedef struct ecs_sched__plugin_path {
    const ecs_sched_plugin *items[ECS_SCHED__PLUGIN_DEPTH + 1];
    int32_t count;
} ecs_sched__plugin_path;

static ecs_sched_result ecs_sched__plugin_cycle(ecs_sched_app *app,
                                                const ecs_sched__plugin_path *path,
                                                const ecs_sched_plugin *p) {
    ecs_sched__text text;
    ecs_sched_result result;
    int32_t i, from = 0;
    for (i = 0; i < path->count; i++) {
        if (strcmp(path->items[i]->name, p->name) == 0) from = i;
    }
    ecs_sched__text_init(&text, &app->world->env);
    ecs_sched__text_printf(&text, "plugins need each other in a cycle: ");
    for (i = from; i < path->count; i++) ecs_sched__text_printf(&text, "%s -> ", path->items[i]->name);
    ecs_sched__text_printf(&text, "%s; remove one of these needs", p->name);
    result = ecs_sched__fail_text(&app->world->env, ECS_SCHED_ERR_PLUGIN_CYCLE,
                                  text.data ? text.data : "plugins need each other in a cycle");
    ecs_sched__text_free(&text);
    return result;
}

static bool ecs_sched__plugin_on_path(const ecs_sched__plugin_path *path, const char *name) {
    int32_t i;
    for (i = 0; i < path->count; i++) {
        if (strcmp(path->items[i]->name, name) == 0) return true;
    }
    return false;
}

static bool ecs_sched__named(const char *name) {
    return name && name[0];
}

/* An export names both a schedule and a set, or neither (an unused slot). */
static ecs_sched_result ecs_sched__plugin_check_export(ecs_sched_world *w,
                                                       const ecs_sched_plugin *p, int i) {
    const ecs_sched_plugin_set *e = &p->exports[i];
    bool has_set = ecs_sched__named(e->set);
    if (ecs_sched__named(e->schedule) == has_set) return ECS_SCHED_OK;
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "plugin '%s': export %d names %s '%s' but no %s", p->name, i,
                           has_set ? "set" : "schedule", has_set ? e->set : e->schedule,
                           has_set ? "schedule" : "set");
}

/* Checks a plugin and everything it needs that the app does not have, before anything is
   added: names, exports, and needs that lead back to a plugin on the path. */
static ecs_sched_result ecs_sched__plugin_check(ecs_sched_app *app, ecs_sched__plugin_path *path,
                                                const ecs_sched_plugin *p) {
    ecs_sched_world *w = app->world;
    ecs_sched_result result = ECS_SCHED_OK;
    int i;
    if (!p || !p->name || !p->name[0]) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "app_add_plugin: a plugin needs a name (it identifies the plugin, "
                               "so that adding it twice adds it once)%s%s",
                               path->count ? "; it is needed by plugin " : "",
                               path->count ? path->items[path->count - 1]->name : "");
    }
    if (ecs_sched__plugin_on_path(path, p->name)) return ecs_sched__plugin_cycle(app, path, p);
    if (path->count >= ECS_SCHED__PLUGIN_DEPTH) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_LIMIT,
                               "app_add_plugin: plugin '%s' is more than %d needs deep",
                               p->name, ECS_SCHED__PLUGIN_DEPTH);
    }
    for (i = 0; i < ECS_SCHED_MAX_REFS && result == ECS_SCHED_OK; i++) {
        result = ecs_sched__plugin_check_export(w, p, i);
    }
    path->items[path->count++] = p;
    for (i = 0; i < ECS_SCHED_MAX_REFS && result == ECS_SCHED_OK; i++) {
        if (p->needs[i] && !ecs_sched_app_has_plugin(app, p->needs[i]->name)) {
            result = ecs_sched__plugin_check(app, path, p->needs[i]);
        }
    }
    path->count--;
    return result;
}

/* The plugins being added now: the base of every check's path. */
static void ecs_sched__plugin_path_of_app(const ecs_sched_app *app, ecs_sched__plugin_path *path) {
    int32_t i;
    for (i = 0; i < app->building_count; i++) path->items[i] = app->building[i];
    path->count = app->building_count;
}

static ecs_sched_result ecs_sched__plugin_record(ecs_sched_app *app, const char *name) {
    ecs_sched_world *w = app->world;
    char *copy;
    if (!ECS_SCHED__GROW(&w->env, app->plugins, &app->plugin_capacity, app->plugin_count + 1) ||
        !(copy = ecs_sched__strdup(&w->env, name))) {
        return ecs_sched__out_of_memory(w, "recording a plugin");
    }
    app->plugins[app->plugin_count++] = copy;
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__plugin_build(ecs_sched_app *app, const ecs_sched_plugin *p) {
    ecs_sched_world *w = app->world;
    ecs_sched_result result = ECS_SCHED_OK;
    int i;
    for (i = 0; i < ECS_SCHED_MAX_REFS && result == ECS_SCHED_OK; i++) {
        if (p->needs[i]) result = ecs_sched_app_add_plugin(app, p->needs[i]);
    }
    for (i = 0; i < ECS_SCHED_MAX_REFS && result == ECS_SCHED_OK; i++) {
        ecs_sched_set_desc set;
        if (!ecs_sched__named(p->exports[i].set)) continue;
        memset(&set, 0, sizeof set);
        set.name = p->exports[i].set;
        result = ecs_sched_configure_set(w, p->exports[i].schedule, &set);
    }
    if (result != ECS_SCHED_OK || !p->build) return result;
    ecs_sched_clear_error(w);        /* so that a failure recorded by the build tells */
    result = p->build(app, p->user_data);
    if (result != ECS_SCHED_OK) {
        char cause[ECS_SCHED__ERROR_CAPACITY] = "it recorded no message";
        if (ecs_sched_last_result(w) != ECS_SCHED_OK) {
            memcpy(cause, w->env.last_error, sizeof cause);
        }
        ecs_sched__fail(&w->env, result, "plugin '%s' failed to build (%s): %s", p->name,
                        ecs_sched_result_string(result), cause);
    }
    return result;
}

ecs_sched_result ecs_sched_app_add_plugin(ecs_sched_app *app, const ecs_sched_plugin *plugin) {
    ecs_sched_result result;
    ecs_sched__plugin_path path;
    ECS_SCHED_ASSERT(app != NULL);
    if (plugin && plugin->name && ecs_sched_app_has_plugin(app, plugin->name)) {
        ecs_sched__logf(&app->world->env, ECS_SCHED_LOG_DEBUG, ECS_SCHED_OK,
                       "plugin '%s' is added already; adding it again does nothing",
                       plugin->name);
        return ECS_SCHED_OK;
    }
    ecs_sched__plugin_path_of_app(app, &path);
    result = ecs_sched__plugin_check(app, &path, plugin);
    if (result != ECS_SCHED_OK) return result;
    app->building[app->building_count++] = plugin;
    result = ecs_sched__plugin_build(app, plugin);
    app->building_count--;
    if (result != ECS_SCHED_OK) return result;
    return ecs_sched__plugin_record(app, plugin->name);
}

ecs_sched_result ecs_sched_app_add_plugins(ecs_sched_app *app,
                                           int32_t count, const ecs_sched_plugin *const *plugins) {
    int32_t i;
    ecs_sched_result result;
    ecs_sched__plugin_path path;
    ECS_SCHED_ASSERT(app != NULL);
    if (count < 0 || (count > 0 && !plugins)) {
        return ecs_sched__fail(&app->world->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "app_add_plugins: %d plugins at %p", (int)count, (const void *)plugins);
    }
    for (i = 0; i < count; i++) {
        if (plugins[i] && plugins[i]->name && ecs_sched_app_has_plugin(app, plugins[i]->name)) continue;
        ecs_sched__plugin_path_of_app(app, &path);
        result = ecs_sched__plugin_check(app, &path, plugins[i]);
        if (result != ECS_SCHED_OK) return result;
    }
    for (i = 0; i < count; i++) {
        result = ecs_sched_app_add_plugin(app, plugins[i]);
        if (result != ECS_SCHED_OK) return result;
    }
    return ECS_SCHED_OK;
}
