/* remote_library: the methods beyond Bevy's protocol (ecs_sched.*): schedules and their plans,
   statistics, the trace, stepping, states, and snapshots the remote keeps by name. */
#pragma once
#include "remote_world.h"

/*@@ implementation @@*/
/* remote_library: the methods that need ECS_SCHED_TRACE (statistics, trace, stepping) are
   left out without it, and rpc.discover does not list them. */
#ifdef ECS_SCHED_REMOTE

/* ---- ecs_sched.*: what this library has beyond Bevy's protocol ---- */

/* A named item (schedule, state machine, snapshot...) the world does not know. */
static cJSON *ecs_sched__rpc_not_found(ecs_sched__rpc_call *call, const char *what, const char *name,
                                       const char *hint) {
    return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_NOT_FOUND, "%s: no %s named `%s` (%s)",
                               call->method, what, name, hint);
}

/* The schedule named by params' `schedule`, or NULL (the call's error set). */
static ecs_sched__schedule *ecs_sched__rpc_schedule(ecs_sched__rpc_call *call, const cJSON *params,
                                                    const char **label) {
    ecs_sched__schedule *s;
    if (!ecs_sched__rpc_need_params(call, params) || !ecs_sched__rpc_string(call, params, "schedule", label)) {
        return NULL;
    }
    s = ecs_sched__schedule_find(call->world, *label);
    if (!s) ecs_sched__rpc_not_found(call, "schedule", *label, "ecs_sched.list_schedules lists them");
    return s;
}

/* An array of strings, sorted. */
static cJSON *ecs_sched__rpc_sorted_strings(ecs_sched__rpc_call *call, const char **names, int32_t count) {
    cJSON *array = cJSON_CreateArray();
    int32_t i;
    if (!array) return ecs_sched__rpc_out_of_memory(call);
    qsort((void *)names, (size_t)count, sizeof *names, ecs_sched__rpc_compare_names);
    for (i = 0; i < count; i++) {
        if (!ecs_sched__rpc_add(array, NULL, cJSON_CreateString(names[i]))) {
            cJSON_Delete(array);
            return ecs_sched__rpc_out_of_memory(call);
        }
    }
    return array;
}

/* ecs_sched.list_schedules: the schedules' labels, sorted. */
static cJSON *ecs_sched__rpc_list_schedules(ecs_sched__rpc_call *call, const cJSON *params) {
    ecs_sched_world *w = call->world;
    ecs_sched__schedules *all = ecs_sched__schedules_of(w);
    uint32_t count = all ? all->count : 0, i;
    const char **names = (const char **)ecs_sched__alloc(&w->env, (count ? count : 1) * sizeof *names);
    cJSON *result;
    (void)params;
    if (!names) return ecs_sched__rpc_out_of_memory(call);
    for (i = 0; i < count; i++) names[i] = all->items[i]->label;
    result = ecs_sched__rpc_sorted_strings(call, names, (int32_t)count);
    ecs_sched__free(&w->env, (void *)names);
    return result;
}

/* ecs_sched.schedule_plan {schedule}: the built plan in order, [{"name", "sync"}]; a sync
   point (automatic or apply_deferred) is named "apply_deferred". Builds it when needed. */
static cJSON *ecs_sched__rpc_schedule_plan(ecs_sched__rpc_call *call, const cJSON *params) {
    const char *label;
    ecs_sched__schedule *s = ecs_sched__rpc_schedule(call, params, &label);
    const ecs_sched__plan *plan;
    cJSON *result;
    int32_t i;
    if (!s) return NULL;
    if (ecs_sched__ensure_built(call->world, s) != ECS_SCHED_OK) {
        return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_REFUSED);
    }
    plan = ecs_sched__plan_of(s);
    result = cJSON_CreateArray();
    if (!result) return ecs_sched__rpc_out_of_memory(call);
    for (i = 0; i < plan->node_count; i++) {
        cJSON *node = cJSON_CreateObject();
        if (!ecs_sched__rpc_add(result, NULL, node) ||
            !cJSON_AddStringToObject(node, "name", ecs_sched__plan_node_name(&plan->nodes[i])) ||
            !cJSON_AddBoolToObject(node, "sync", plan->nodes[i].sync)) {
            cJSON_Delete(result);
            return ecs_sched__rpc_out_of_memory(call);
        }
    }
    return result;
}

typedef struct ecs_sched__rpc_text {
    char *data;
    size_t length, capacity;
    bool failed;
} ecs_sched__rpc_text;

static void ecs_sched__rpc_text_write(const char *text, void *user_data) {
    ecs_sched__rpc_text *t = (ecs_sched__rpc_text *)user_data;
    size_t n = strlen(text);
    if (t->failed) return;
    if (t->length + n + 1 > t->capacity) {
        size_t capacity = (t->length + n + 1) * 2;
        char *data = (char *)realloc(t->data, capacity);
        if (!data) {
            t->failed = true;
            return;
        }
        t->data = data;
        t->capacity = capacity;
    }
    memcpy(t->data + t->length, text, n + 1);
    t->length += n;
}

/* ecs_sched.schedule_dot {schedule}: the Graphviz text of the built plan. */
static cJSON *ecs_sched__rpc_schedule_dot(ecs_sched__rpc_call *call, const cJSON *params) {
    const char *label;
    ecs_sched__rpc_text text;
    cJSON *result;
    memset(&text, 0, sizeof text);
    if (!ecs_sched__rpc_schedule(call, params, &label)) return NULL;
    if (ecs_sched_schedule_write_dot(call->world, label, ecs_sched__rpc_text_write, &text) != ECS_SCHED_OK) {
        free(text.data);
        return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_REFUSED);
    }
    result = text.failed ? NULL : cJSON_CreateString(text.data ? text.data : "");
    free(text.data);
    return result ? result : ecs_sched__rpc_out_of_memory(call);
}

#ifdef ECS_SCHED_TRACE
/* ecs_sched.system_stats {schedule}: {"enabled", "systems": [{"system", "runs", "total_ns",
   "min_ns", "max_ns"}]} in plan order, sync points left out. The library keeps them only
   while statistics are on (ecs_sched_stats_enable, or ecs_sched.set_stats). */
static cJSON *ecs_sched__rpc_system_stats(ecs_sched__rpc_call *call, const cJSON *params) {
    const char *label;
    ecs_sched__schedule *s = ecs_sched__rpc_schedule(call, params, &label);
    const ecs_sched__plan *plan;
    cJSON *result, *systems;
    int32_t i;
    if (!s) return NULL;
    if (ecs_sched__ensure_built(call->world, s) != ECS_SCHED_OK) {
        return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_REFUSED);
    }
    plan = ecs_sched__plan_of(s);
    result = cJSON_CreateObject();
    if (!result || !cJSON_AddBoolToObject(result, "enabled", call->world->stats_on) ||
        !(systems = cJSON_AddArrayToObject(result, "systems"))) {
        cJSON_Delete(result);
        return ecs_sched__rpc_out_of_memory(call);
    }
    for (i = 0; i < plan->node_count; i++) {
        const char *name = ecs_sched__plan_node_name(&plan->nodes[i]);
        ecs_sched_system_stats stats;
        cJSON *row;
        if (plan->nodes[i].sync) continue;
        if (ecs_sched_system_stats_get(call->world, label, name, &stats) != ECS_SCHED_OK) {
            cJSON_Delete(result);
            return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_REFUSED);
        }
        row = cJSON_CreateObject();
        if (!ecs_sched__rpc_add(systems, NULL, row) || !cJSON_AddStringToObject(row, "system", name) ||
            !cJSON_AddNumberToObject(row, "runs", (double)stats.runs) ||
            !cJSON_AddNumberToObject(row, "total_ns", (double)stats.total_ns) ||
            !cJSON_AddNumberToObject(row, "min_ns", (double)stats.min_ns) ||
            !cJSON_AddNumberToObject(row, "max_ns", (double)stats.max_ns)) {
            cJSON_Delete(result);
            return ecs_sched__rpc_out_of_memory(call);
        }
    }
    return result;
}

/* ecs_sched.set_stats {enabled}: switches the statistics on (cleared) or off. */
static cJSON *ecs_sched__rpc_set_stats(ecs_sched__rpc_call *call, const cJSON *params) {
    const cJSON *enabled;
    if (!ecs_sched__rpc_need_params(call, params)) return NULL;
    enabled = ecs_sched__rpc_member(params, "enabled");
    if (!cJSON_IsBool(enabled)) {
        return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS, "%s: `enabled` must be true or false",
                                   call->method);
    }
    ecs_sched_stats_enable(call->world, cJSON_IsTrue(enabled));
    return cJSON_CreateNull();
}

/* ecs_sched.trace: the recording (ecs_sched_trace_start), running or stopped, as the Chrome
   trace-event object ecs_sched_trace_write writes. */
static cJSON *ecs_sched__rpc_trace(ecs_sched__rpc_call *call, const cJSON *params) {
    FILE *out;
    long size;
    char *text;
    cJSON *result;
    (void)params;
    if (!ecs_sched__trace_of(call->world)) {
        return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_NOT_FOUND, "%s: nothing was recorded: the "
                                   "program starts a trace with ecs_sched_trace_start", call->method);
    }
    out = tmpfile();
    if (!out) return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INTERNAL_ERROR, "%s: no temporary file", call->method);
    ecs_sched__trace_write_stream(call->world, out);
    size = ferror(out) ? -1 : ftell(out);
    text = size >= 0 ? (char *)malloc((size_t)size + 1) : NULL;
    rewind(out);
    if (text && fread(text, 1, (size_t)size, out) != (size_t)size) {
        free(text);
        text = NULL;
    }
    fclose(out);
    if (!text) return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INTERNAL_ERROR, "%s: writing the trace failed",
                                          call->method);
    result = cJSON_ParseWithLength(text, (size_t)size);
    free(text);
    return result ? result : ecs_sched__rpc_out_of_memory(call);
}

/* Starts the recording ecs_sched.record_trace asked for. */
static ecs_sched_result ecs_sched__rpc_start_trace(ecs_sched_world *w, int32_t frames) {
    ecs_sched_trace_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.frames = frames;
    return ecs_sched_trace_start(w, &desc);
}


/* ecs_sched.record_trace {frames}: records the next frames (default 1, at most 1000), then
   stops by itself; ecs_sched.trace reads it. Asked between two runs (a program that polls the
   remote itself), the recording starts at once; asked inside a frame (the app's remote), it
   starts when that frame ends. Refused while a trace records. */
static cJSON *ecs_sched__rpc_record_trace(ecs_sched__rpc_call *call, const cJSON *params) {
    ecs_sched_world *w = call->world;
    const cJSON *frames = params ? ecs_sched__rpc_member(params, "frames") : NULL;
    const ecs_sched__schedules *all = ecs_sched__schedules_of(w);
    int32_t n = 1;
    if (frames) {
        double v = cJSON_IsNumber(frames) ? frames->valuedouble : 0;
        if (!(v >= 1 && v <= 1000) || v - (double)(int32_t)v > 0) {
            return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS, "%s: `frames` must be a whole "
                                       "number from 1 to 1000", call->method);
        }
        n = (int32_t)v;
    }
    if ((ecs_sched__trace_of(w) && ecs_sched__trace_of(w)->running) || call->remote->trace_frames) {
        return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_REFUSED, "%s: a trace is recording already (wait "
                                   "for it to stop, or stop it in the program)", call->method);
    }
    if (!all || all->depth == 0) {
        if (ecs_sched__rpc_start_trace(w, n) != ECS_SCHED_OK) {
            return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_REFUSED);
        }
        return cJSON_CreateNull();
    }
#ifndef ECS_SCHED_NO_APP
    if (call->remote->app) {
        call->remote->trace_frames = n;
        return cJSON_CreateNull();
    }
#endif
    return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_REFUSED, "%s: schedule '%s' is running and the remote "
                               "belongs to no app whose frames it could wait for: poll the remote "
                               "between runs", call->method, all->stack[all->depth - 1]->label);
}

static const char *const ecs_sched__rpc_behaviour_names[] = {"default", "always_run", "never_run",
                                                             "breakpoint"};

/* {system: behaviour} for the systems of s whose step behaviour is not the default. */
static cJSON *ecs_sched__rpc_step_behaviours(ecs_sched__schedule *s) {
    cJSON *map = cJSON_CreateObject();
    uint32_t i;
    for (i = 0; map && i < s->system_count; i++) {
        const ecs_sched__system *sys = s->systems[i];
        if (sys->watch.step == ECS_SCHED_STEP_DEFAULT) continue;
        if (!cJSON_AddStringToObject(map, sys->ctx.run.name, ecs_sched__rpc_behaviour_names[sys->watch.step])) {
            cJSON_Delete(map);
            return NULL;
        }
    }
    return map;
}

/* ecs_sched.get_stepping {schedule}: {"enabled", "cursor": the system the next step runs, or
   null, "behaviours": {system: behaviour} for those not "default"}. */
static cJSON *ecs_sched__rpc_get_stepping(ecs_sched__rpc_call *call, const cJSON *params) {
    const char *label, *cursor;
    ecs_sched__schedule *s = ecs_sched__rpc_schedule(call, params, &label);
    cJSON *result;
    if (!s) return NULL;
    cursor = ecs_sched_stepping_cursor(call->world, label);
    result = cJSON_CreateObject();
    if (!result || !cJSON_AddBoolToObject(result, "enabled", s->stepping) ||
        !ecs_sched__rpc_add(result, "cursor", cursor ? cJSON_CreateString(cursor) : cJSON_CreateNull()) ||
        !ecs_sched__rpc_add(result, "behaviours", ecs_sched__rpc_step_behaviours(s))) {
        cJSON_Delete(result);
        return ecs_sched__rpc_out_of_memory(call);
    }
    return result;
}

/* ecs_sched.set_stepping {schedule, enabled}: the schedule steps from its next run on, or
   runs freely again. */
static cJSON *ecs_sched__rpc_set_stepping(ecs_sched__rpc_call *call, const cJSON *params) {
    const char *label;
    const cJSON *enabled;
    ecs_sched_result r;
    if (!ecs_sched__rpc_schedule(call, params, &label)) return NULL;
    enabled = ecs_sched__rpc_member(params, "enabled");
    if (!cJSON_IsBool(enabled)) {
        return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS, "%s: `enabled` must be true or false",
                                   call->method);
    }
    r = cJSON_IsTrue(enabled) ? ecs_sched_stepping_enable(call->world, label)
                              : ecs_sched_stepping_disable(call->world, label);
    if (r != ECS_SCHED_OK) return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_REFUSED);
    return cJSON_CreateNull();
}

/* ecs_sched.step {schedule, continue}: the next run runs the system at the cursor (continue:
   every system up to the next breakpoint). */
static cJSON *ecs_sched__rpc_step(ecs_sched__rpc_call *call, const cJSON *params) {
    const char *label;
    bool to_breakpoint;
    ecs_sched_result r;
    if (!ecs_sched__rpc_schedule(call, params, &label) ||
        !ecs_sched__rpc_bool(call, params, "continue", &to_breakpoint)) {
        return NULL;
    }
    r = to_breakpoint ? ecs_sched_step_continue(call->world, label) : ecs_sched_step_one(call->world, label);
    if (r != ECS_SCHED_OK) return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_REFUSED);
    return cJSON_CreateNull();
}

/* ecs_sched.set_step_behaviour {schedule, system, behaviour}: "default", "always_run",
   "never_run" (the system is skipped while the schedule steps) or "breakpoint". */
static cJSON *ecs_sched__rpc_set_step_behaviour(ecs_sched__rpc_call *call, const cJSON *params) {
    const char *const *names = ecs_sched__rpc_behaviour_names;
    const char *label, *system, *behaviour;
    int i;
    if (!ecs_sched__rpc_schedule(call, params, &label) ||
        !ecs_sched__rpc_string(call, params, "system", &system) ||
        !ecs_sched__rpc_string(call, params, "behaviour", &behaviour)) {
        return NULL;
    }
    for (i = 0; i < 4 && strcmp(names[i], behaviour) != 0; i++) {}
    if (i == 4) {
        return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS, "%s: `behaviour` must be \"default\", "
                                   "\"always_run\", \"never_run\" or \"breakpoint\", not \"%s\"",
                                   call->method, behaviour);
    }
    if (ecs_sched_stepping_set(call->world, label, system, (ecs_sched_step_behaviour)i) != ECS_SCHED_OK) {
        return ecs_sched__rpc_fail_world(call, call->world->env.last_result == ECS_SCHED_ERR_NOT_FOUND
                                                   ? ECS_SCHED_RPC_NOT_FOUND : ECS_SCHED_RPC_REFUSED);
    }
    return cJSON_CreateNull();
}
#endif /* ECS_SCHED_TRACE */

#ifndef ECS_SCHED_NO_APP
/* The app's frame boundary: where a trace asked for inside a frame starts. */
static void ecs_sched__remote_between_frames(ecs_sched_app *app, void *user_data) {
    ecs_sched_remote *remote = (ecs_sched_remote *)user_data;
    int32_t frames = remote->trace_frames;
    (void)app;
    if (!frames) return;
    remote->trace_frames = 0;
#ifdef ECS_SCHED_TRACE
    (void)ecs_sched__rpc_start_trace(remote->world, frames);   /* (a refusal is logged) */
#endif
}
#endif

/* ecs_sched.list_states: [{"name", "value" (null: none), "values"}], in registration order. */
static cJSON *ecs_sched__rpc_list_states(ecs_sched__rpc_call *call, const cJSON *params) {
    const ecs_sched__states *states = ecs_sched__states_of(call->world);
    cJSON *result = cJSON_CreateArray();
    uint32_t i;
    (void)params;
    if (!result) return ecs_sched__rpc_out_of_memory(call);
    for (i = 0; states && i < states->count; i++) {
        const ecs_sched__state_machine *m = &states->items[i];
        int32_t value = ecs_sched_state_get(call->world, m->id), k;
        cJSON *row = cJSON_CreateObject(), *values;
        if (!ecs_sched__rpc_add(result, NULL, row) || !cJSON_AddStringToObject(row, "name", m->name) ||
            !ecs_sched__rpc_add(row, "value", value == ECS_SCHED_STATE_NONE ? cJSON_CreateNull()
                                                   : cJSON_CreateString(m->value_names[value])) ||
            !(values = cJSON_AddArrayToObject(row, "values"))) {
            cJSON_Delete(result);
            return ecs_sched__rpc_out_of_memory(call);
        }
        for (k = 0; k < m->value_count; k++) {
            if (!ecs_sched__rpc_add(values, NULL, cJSON_CreateString(m->value_names[k]))) {
                cJSON_Delete(result);
                return ecs_sched__rpc_out_of_memory(call);
            }
        }
    }
    return result;
}

/* ecs_sched.set_state {state, value}: the value (by name) queued for the next transition. */
static cJSON *ecs_sched__rpc_set_state(ecs_sched__rpc_call *call, const cJSON *params) {
    const char *name, *value_name;
    const ecs_sched__state_machine *m;
    int32_t value;
    if (!ecs_sched__rpc_need_params(call, params) || !ecs_sched__rpc_string(call, params, "state", &name) ||
        !ecs_sched__rpc_string(call, params, "value", &value_name)) {
        return NULL;
    }
    m = ecs_sched__state_find_name(call->world, name);
    if (!m) return ecs_sched__rpc_not_found(call, "state machine", name, "ecs_sched.list_states lists them");
    for (value = 0; value < m->value_count && strcmp(m->value_names[value], value_name) != 0; value++) {}
    if (value == m->value_count) {
        return ecs_sched__rpc_fail(call, ECS_SCHED_RPC_INVALID_PARAMS, "%s: state machine `%s` has no value "
                                   "`%s` (ecs_sched.list_states lists its values)", call->method, name,
                                   value_name);
    }
    if (ecs_sched_state_set(call->world, m->id, value) != ECS_SCHED_OK) {
        return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_REFUSED);
    }
    return cJSON_CreateNull();
}

/* ---- snapshots kept by the remote, by name ---- */

static ecs_sched__rpc_snapshot *ecs_sched__rpc_snapshot_named(ecs_sched_remote *remote, const char *name) {
    ecs_sched__rpc_snapshot *s;
    for (s = remote->snapshots; s && strcmp(s->name, name) != 0; s = s->next) {}
    return s;
}

static void ecs_sched__rpc_snapshots_free(ecs_sched_remote *remote) {
    while (remote->snapshots) {
        ecs_sched__rpc_snapshot *s = remote->snapshots;
        remote->snapshots = s->next;
        ecs_sched_snapshot_free(s->snapshot);
        ecs_sched__free(&remote->world->env, s->name);
        ecs_sched__free(&remote->world->env, s);
    }
}

/* ecs_sched.take_snapshot {name}: {"name", "bytes"}; a snapshot of that name is replaced. */
static cJSON *ecs_sched__rpc_take_snapshot(ecs_sched__rpc_call *call, const cJSON *params) {
    ecs_sched_remote *remote = call->remote;
    ecs_sched_world *w = call->world;
    const char *name;
    ecs_sched__rpc_snapshot *kept;
    ecs_sched_snapshot *taken;
    size_t bytes;
    cJSON *result;
    if (!ecs_sched__rpc_need_params(call, params) || !ecs_sched__rpc_string(call, params, "name", &name)) {
        return NULL;
    }
    taken = ecs_sched_snapshot_take(w);
    if (!taken) return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_REFUSED);
    kept = ecs_sched__rpc_snapshot_named(remote, name);
    if (!kept) {
        kept = (ecs_sched__rpc_snapshot *)ecs_sched__calloc(&w->env, sizeof *kept);
        if (kept) kept->name = ecs_sched__strdup(&w->env, name);
        if (!kept || !kept->name) {
            ecs_sched__free(&w->env, kept);
            ecs_sched_snapshot_free(taken);
            return ecs_sched__rpc_out_of_memory(call);
        }
        kept->next = remote->snapshots;
        remote->snapshots = kept;
    }
    ecs_sched_snapshot_free(kept->snapshot);
    kept->snapshot = taken;
    bytes = ecs_sched_snapshot_bytes(taken);
    result = cJSON_CreateObject();
    if (!result || !cJSON_AddStringToObject(result, "name", name) ||
        !cJSON_AddNumberToObject(result, "bytes", (double)bytes)) {
        cJSON_Delete(result);
        return ecs_sched__rpc_out_of_memory(call);
    }
    return result;
}

/* ecs_sched.restore_snapshot {name}: the world brought back to it (it stays kept). */
static cJSON *ecs_sched__rpc_restore_snapshot(ecs_sched__rpc_call *call, const cJSON *params) {
    const char *name;
    ecs_sched__rpc_snapshot *kept;
    if (!ecs_sched__rpc_need_params(call, params) || !ecs_sched__rpc_string(call, params, "name", &name)) {
        return NULL;
    }
    kept = ecs_sched__rpc_snapshot_named(call->remote, name);
    if (!kept) return ecs_sched__rpc_not_found(call, "snapshot", name, "ecs_sched.take_snapshot takes one");
    if (ecs_sched_snapshot_restore(call->world, kept->snapshot) != ECS_SCHED_OK) {
        return ecs_sched__rpc_fail_world(call, ECS_SCHED_RPC_REFUSED);
    }
    return cJSON_CreateNull();
}

#endif /* ECS_SCHED_REMOTE */
