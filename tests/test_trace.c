/* The trace (ECS_SCHED_TRACE): what a recording holds and how it is written as Chrome
   trace-event JSON (parsed back with cJSON), the accounting of a full buffer, the outcomes of
   a run, statistics, systems switched off, stepping, and the errors of bad requests. */
#define _POSIX_C_SOURCE 200809L
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "fixture.h"

/* ---- systems and conditions the tests use ---- */

static char g_ran[512];

static void note(ecs_sched_system_ctx *ctx) {
    size_t n = strlen(g_ran);
    snprintf(g_ran + n, sizeof g_ran - n, "%s ", ecs_sched_ctx_name(ctx));
}

static bool never_holds(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    return false;
}

static ecs_sched_condition never_condition(void) {
    ecs_sched_condition c;
    memset(&c, 0, sizeof c);
    c.name = "never";
    c.fn = never_holds;
    return c;
}

static void fail_always(ecs_sched_system_ctx *ctx) {
    ecs_sched_ctx_fail(ctx, ECS_SCHED_ERR_SYSTEM_FAILED, "failed on purpose");
}

static void spawns_three(ecs_sched_system_ctx *ctx) {
    ecs_sched_commands *c = ecs_sched_ctx_commands(ctx);
    int i;
    for (i = 0; i < 3; i++) ecs_sched_commands_spawn(c);
}

static void runs_other_schedule(ecs_sched_system_ctx *ctx) {
    assert_int_equal(ecs_sched_run_schedule(ecs_sched_ctx_world(ctx), "Inner"), ECS_SCHED_OK);
}

static ecs_sched_system_desc system_named(const char *name, ecs_sched_system_fn fn) {
    ecs_sched_system_desc d;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.fn = fn;
    return d;
}

static void add(ecs_sched_world *w, const char *schedule, const char *name) {
    ecs_sched_system_desc d = system_named(name, note);
    assert_int_equal(ecs_sched_add_system(w, schedule, &d), ECS_SCHED_OK);
}

static void add_all(ecs_sched_world *w, const ecs_sched_system_desc *d, int count) {
    int i;
    for (i = 0; i < count; i++) assert_int_equal(ecs_sched_add_system(w, UPDATE, &d[i]), ECS_SCHED_OK);
}

/* A world with systems a, b, c chained in Update. */
static ecs_sched_world *abc_world(void) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    ecs_sched_system_desc d[3];
    d[0] = system_named("a", note);
    d[1] = system_named("b", note);
    d[2] = system_named("c", note);
    d[1].after[0] = "a";
    d[2].after[0] = "b";
    add_all(w, d, 3);
    g_ran[0] = '\0';
    return w;
}

/* ---- reading a written trace back ---- */

static cJSON *written_trace(ecs_sched_world *w) {
    char path[] = "/tmp/ecs_sched_trace_XXXXXX";
    int fd = mkstemp(path);
    FILE *f;
    long size;
    char *text;
    cJSON *root;
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(ecs_sched_trace_write(w, path), ECS_SCHED_OK);
    f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    fseek(f, 0, SEEK_SET);
    text = (char *)malloc((size_t)size + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
    text[size] = '\0';
    fclose(f);
    remove(path);
    root = cJSON_Parse(text);
    free(text);
    assert_non_null(root);
    return root;
}

static cJSON *events_of(cJSON *root) {
    cJSON *events = cJSON_GetObjectItemCaseSensitive(root, "traceEvents");
    assert_true(cJSON_IsArray(events));
    return events;
}

static const char *text_of(const cJSON *o, const char *key) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(item) ? item->valuestring : NULL;
}

static double number_of(const cJSON *o, const char *key) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(o, key);
    assert_true(cJSON_IsNumber(item));
    return item->valuedouble;
}

static const cJSON *arg_of(const cJSON *event, const char *key) {
    return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(event, "args"), key);
}

/* Events of category `cat` (NULL: every recorded one, metadata left out). */
static int count_events(cJSON *root, const char *cat, const char *name) {
    const cJSON *e;
    int n = 0;
    cJSON_ArrayForEach(e, events_of(root)) {
        const char *ph = text_of(e, "ph");
        if (ph && strcmp(ph, "M") == 0) continue;
        if (cat && strcmp(text_of(e, "cat"), cat) != 0) continue;
        if (name && strcmp(text_of(e, "name"), name) != 0) continue;
        n++;
    }
    return n;
}

static const cJSON *find_event(cJSON *root, const char *cat, const char *name) {
    const cJSON *e;
    cJSON_ArrayForEach(e, events_of(root)) {
        const char *c = text_of(e, "cat");
        if (c && strcmp(c, cat) == 0 && (!name || strcmp(text_of(e, "name"), name) == 0)) {
            return e;
        }
    }
    return NULL;
}

static double other_data(cJSON *root, const char *key) {
    return number_of(cJSON_GetObjectItemCaseSensitive(root, "otherData"), key);
}

/* Whether the spans on each thread nest: sorted by start (longest first at a tie), each lies
   within the innermost open one that has not ended before it starts. Timestamps are written
   to the nanosecond, so a span may poke out by that rounding. */
typedef struct span {
    int tid;
    double ts, end;
} span;

static int span_order(const void *pa, const void *pb) {
    const span *a = (const span *)pa, *b = (const span *)pb;
    if (a->tid != b->tid) return a->tid - b->tid;
    if (a->ts != b->ts) return a->ts < b->ts ? -1 : 1;
    return a->end > b->end ? -1 : a->end < b->end ? 1 : 0;
}

static void assert_spans_nest(cJSON *root) {
    span spans[4096], *open[64];
    int count = 0, depth = 0, i;
    const cJSON *e;
    cJSON_ArrayForEach(e, events_of(root)) {
        if (strcmp(text_of(e, "ph"), "X") != 0) continue;
        assert_true(count < 4096);
        spans[count].tid = (int)number_of(e, "tid");
        spans[count].ts = number_of(e, "ts");
        assert_true(number_of(e, "dur") >= 0.0);
        spans[count].end = spans[count].ts + number_of(e, "dur");
        count++;
    }
    qsort(spans, (size_t)count, sizeof *spans, span_order);
    for (i = 0; i < count; i++) {
        while (depth > 0 && (open[depth - 1]->tid != spans[i].tid ||
                             open[depth - 1]->end <= spans[i].ts + 0.002)) {
            depth--;
        }
        if (depth > 0) assert_true(spans[i].end <= open[depth - 1]->end + 0.002);
        assert_true(depth < 64);
        open[depth++] = &spans[i];
    }
}

/* ---- the recording ---- */

static void a_trace_lists_every_system_run_with_its_schedule(void **state) {
    ecs_sched_world *w = abc_world();
    cJSON *root;
    const cJSON *a;
    (void)state;
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_trace_stop(w), ECS_SCHED_OK);
    root = written_trace(w);
    assert_int_equal(count_events(root, "system", NULL), 6);
    assert_int_equal(count_events(root, "system", "b"), 2);
    assert_int_equal(count_events(root, "schedule", UPDATE), 2);
    assert_int_equal(count_events(root, "frame", NULL), 2);
    a = find_event(root, "system", "a");
    assert_string_equal(text_of(a, "ph"), "X");
    assert_string_equal(cJSON_GetStringValue(arg_of(a, "schedule")), UPDATE);
    assert_int_equal((int)other_data(root, "events_dropped"), 0);
    assert_int_equal((int)other_data(root, "events_recorded"), 10);
    assert_spans_nest(root);
    cJSON_Delete(root);
    ecs_sched_world_destroy(w);
}

static void nothing_is_recorded_before_the_start_or_after_the_stop(void **state) {
    ecs_sched_world *w = abc_world();
    ecs_sched_trace_info info;
    (void)state;
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_trace_stop(w), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    info = ecs_sched_trace_get_info(w);
    assert_false(info.running);
    assert_int_equal(info.recorded, 5);   /* 3 systems, the schedule, the frame */
    assert_int_equal(info.frames, 1);
    ecs_sched_world_destroy(w);
}

static void a_nested_schedule_run_is_a_span_inside_the_system_that_ran_it(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    ecs_sched_system_desc outer = system_named("outer", runs_other_schedule);
    cJSON *root;
    const cJSON *sys, *inner;
    (void)state;
    outer.exclusive = true;
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &outer), ECS_SCHED_OK);
    add(w, "Inner", "inside");
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    root = written_trace(w);
    sys = find_event(root, "system", "outer");
    inner = find_event(root, "schedule", "Inner");
    assert_non_null(sys);
    assert_non_null(inner);
    assert_true(number_of(inner, "ts") >= number_of(sys, "ts") - 0.002);
    assert_true(number_of(inner, "ts") + number_of(inner, "dur") <=
                number_of(sys, "ts") + number_of(sys, "dur") + 0.002);
    assert_int_equal(count_events(root, "frame", NULL), 1);   /* the nested run is no frame */
    assert_spans_nest(root);
    cJSON_Delete(root);
    ecs_sched_world_destroy(w);
}

static void a_sync_point_says_how_many_commands_it_applied(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    ecs_sched_system_desc d[2];
    cJSON *root;
    const cJSON *e;
    int commands = 0;
    (void)state;
    d[0] = system_named("spawner", spawns_three);
    d[0].commands = true;
    d[1] = system_named("reader", note);
    d[1].after[0] = "spawner";
    d[1].exclusive = true;
    add_all(w, d, 2);
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    root = written_trace(w);
    cJSON_ArrayForEach(e, events_of(root)) {
        const char *cat = text_of(e, "cat");
        if (cat && strcmp(cat, "sync") == 0) commands += (int)cJSON_GetNumberValue(arg_of(e, "commands"));
    }
    assert_true(count_events(root, "sync", NULL) >= 1);
    assert_int_equal(commands, 3);
    cJSON_Delete(root);
    ecs_sched_world_destroy(w);
}

static void a_false_condition_is_recorded_with_what_it_guards(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    ecs_sched_system_desc d = system_named("guarded", note);
    cJSON *root;
    const cJSON *c;
    ecs_sched_condition never = never_condition();
    (void)state;
    d.run_if[0] = &never;
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &d), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    root = written_trace(w);
    c = find_event(root, "condition", "never");
    assert_non_null(c);
    assert_true(cJSON_IsFalse(arg_of(c, "result")));
    assert_string_equal(cJSON_GetStringValue(arg_of(c, "guards")), "guarded");
    assert_int_equal(count_events(root, "system", "guarded"), 0);
    assert_int_equal(count_events(root, "skipped", "guarded"), 1);
    cJSON_Delete(root);
    ecs_sched_world_destroy(w);
}

static void a_set_condition_names_the_set_it_guards(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    ecs_sched_condition never = never_condition();
    ecs_sched_set_desc set;
    ecs_sched_system_desc d[2];
    ecs_sched_system_outcome out[2];
    cJSON *root;
    const cJSON *c;
    (void)state;
    memset(&set, 0, sizeof set);
    set.name = "gated";
    set.run_if[0] = &never;
    assert_int_equal(ecs_sched_configure_set(w, UPDATE, &set), ECS_SCHED_OK);
    d[0] = system_named("first", note);
    d[0].in_set[0] = "gated";
    d[1] = system_named("second", note);
    d[1].in_set[0] = "gated";
    d[1].after[0] = "first";
    add_all(w, d, 2);
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    root = written_trace(w);
    assert_int_equal(count_events(root, "condition", "never"), 1);   /* once per run */
    c = find_event(root, "condition", "never");
    assert_string_equal(cJSON_GetStringValue(arg_of(c, "guards_set")), "gated");
    assert_int_equal(count_events(root, "skipped", NULL), 2);
    assert_int_equal(ecs_sched_what_ran(w, UPDATE, out, 2), 2);
    assert_int_equal(out[1].outcome, ECS_SCHED_OUTCOME_SKIPPED);
    assert_string_equal(out[1].condition, "never");
    assert_string_equal(out[1].set, "gated");
    cJSON_Delete(root);
    ecs_sched_world_destroy(w);
}

static void observed(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *t) {
    (void)ctx;
    (void)t;
}

static void an_observer_call_is_recorded_with_its_event_and_component(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_observer_desc d;
    Position p = {1, 2};
    cJSON *root;
    const cJSON *e;
    (void)state;
    memset(&d, 0, sizeof d);
    d.name = "placed";
    d.event = ECS_SCHED_ON_ADD;
    d.component = pos;
    d.fn = observed;
    assert_true(ecs_sched_observer_add(w, &d) != 0);
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_OK);
    assert_true(ecs_sched_spawn_with(w, 1, &pos, (const void *const[]){&p}) != ECS_SCHED_NULL_ENTITY);
    root = written_trace(w);
    e = find_event(root, "observer", "placed");
    assert_non_null(e);
    assert_string_equal(cJSON_GetStringValue(arg_of(e, "event")), "on_add");
    assert_string_equal(cJSON_GetStringValue(arg_of(e, "component")), "Position");
    cJSON_Delete(root);
    ecs_sched_world_destroy(w);
}

static void a_state_transition_is_recorded_with_both_values(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    ecs_sched_state_desc desc;
    ecs_sched_id game;
    cJSON *root;
    const cJSON *e;
    (void)state;
    memset(&desc, 0, sizeof desc);
    desc.name = "GameState";
    desc.values[0] = "Menu";
    desc.values[1] = "Playing";
    game = ecs_sched_state_register(w, &desc);
    assert_true(game != 0);
    assert_int_equal(ecs_sched_state_apply(w, game), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_set(w, game, 1), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_apply(w, game), ECS_SCHED_OK);
    root = written_trace(w);
    e = find_event(root, "transition", "GameState");
    assert_non_null(e);
    assert_string_equal(cJSON_GetStringValue(arg_of(e, "from")), "Menu");
    assert_string_equal(cJSON_GetStringValue(arg_of(e, "to")), "Playing");
    cJSON_Delete(root);
    ecs_sched_world_destroy(w);
}

/* An apply of state transitions outside any run runs its schedules as part of the next run,
   as the library counts runs: they end no frame. */
static void transition_schedules_applied_outside_a_run_end_no_frame(void **state) {
    ecs_sched_world *w = abc_world();
    ecs_sched_state_desc desc;
    ecs_sched_trace_desc t;
    ecs_sched_id game;
    (void)state;
    memset(&desc, 0, sizeof desc);
    desc.name = "GameState";
    desc.values[0] = "Menu";
    desc.values[1] = "Playing";
    game = ecs_sched_state_register(w, &desc);
    add(w, ecs_sched_on_enter(w, game, 0), "entered");
    add(w, ecs_sched_on_exit(w, game, 0), "left");
    memset(&t, 0, sizeof t);
    t.frames = 1;
    assert_int_equal(ecs_sched_trace_start(w, &t), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_apply(w, game), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_set(w, game, 1), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_apply(w, game), ECS_SCHED_OK);
    assert_true(ecs_sched_trace_get_info(w).running);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_false(ecs_sched_trace_get_info(w).running);
    ecs_sched_world_destroy(w);
}

static void app_updates_are_the_frames_and_fixed_steps_are_spans_in_them(void **state) {
    ecs_sched_app *app = ecs_sched_app_create(NULL);
    ecs_sched_world *w = ecs_sched_app_world(app);
    ecs_sched_trace_desc t;
    ecs_sched_trace_info info;
    cJSON *root;
    (void)state;
    add(w, ECS_SCHED_FIXED_UPDATE, "physics");
    assert_int_equal(ecs_sched_app_update_by(app, ECS_SCHED_MILLISECONDS(1)), ECS_SCHED_OK);
    memset(&t, 0, sizeof t);
    t.frames = 2;
    assert_int_equal(ecs_sched_trace_start(w, &t), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_app_update_by(app, ECS_SCHED_MILLISECONDS(40)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_app_update_by(app, ECS_SCHED_MILLISECONDS(40)), ECS_SCHED_OK);
    info = ecs_sched_trace_get_info(w);
    assert_false(info.running);
    assert_int_equal(info.frames, 2);
    root = written_trace(w);
    assert_int_equal(count_events(root, "frame", NULL), 2);
    assert_int_equal(count_events(root, "fixed", NULL), 5);   /* 80 ms at 64 Hz: 5 steps */
    assert_int_equal(count_events(root, "system", "physics"), 5);
    assert_spans_nest(root);
    cJSON_Delete(root);
    ecs_sched_app_destroy(app);
}

typedef struct {
    int damage;
} Hit;

static void messages_are_counted_by_type_when_the_app_updates_them(void **state) {
    ecs_sched_app *app = ecs_sched_app_create(NULL);
    ecs_sched_world *w = ecs_sched_app_world(app);
    ecs_sched_id hit = ECS_SCHED_MESSAGE(w, Hit);
    Hit h = {3};
    cJSON *root;
    const cJSON *e;
    int sent = 0;
    (void)state;
    add(w, ECS_SCHED_FIXED_UPDATE, "physics");
    assert_int_equal(ecs_sched_app_update_by(app, ECS_SCHED_MILLISECONDS(20)), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_send(w, hit, &h), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_send(w, hit, &h), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_app_update_by(app, ECS_SCHED_MILLISECONDS(20)), ECS_SCHED_OK);
    root = written_trace(w);
    cJSON_ArrayForEach(e, events_of(root)) {
        const char *cat = text_of(e, "cat");
        if (cat && strcmp(cat, "messages") == 0 && strcmp(text_of(e, "name"), "Hit") == 0) {
            sent += (int)cJSON_GetNumberValue(arg_of(e, "sent"));
        }
    }
    assert_int_equal(sent, 2);
    cJSON_Delete(root);
    ecs_sched_app_destroy(app);
}

static void a_trace_started_again_discards_the_last_recording(void **state) {
    ecs_sched_world *w = abc_world();
    (void)state;
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_trace_stop(w), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_trace_get_info(w).recorded, 5);
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_trace_get_info(w).recorded, 0);
    assert_int_equal(ecs_sched_trace_get_info(w).frames, 0);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_trace_get_info(w).recorded, 5);
    ecs_sched_world_destroy(w);
}

/* 20 systems, a schedule and a frame ask for 22 events; 10 fit. */
static void a_full_buffer_keeps_the_oldest_events_and_counts_the_rest(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    ecs_sched_trace_desc t;
    ecs_sched_trace_info info;
    cJSON *root;
    int i;
    (void)state;
    for (i = 0; i < 20; i++) add(w, UPDATE, "s");
    memset(&t, 0, sizeof t);
    t.capacity = 10;
    assert_int_equal(ecs_sched_trace_start(w, &t), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    info = ecs_sched_trace_get_info(w);
    assert_int_equal(info.recorded, 10);
    assert_int_equal(info.dropped, 12);
    root = written_trace(w);
    assert_int_equal(count_events(root, NULL, NULL), 10);
    assert_int_equal(count_events(root, "system", NULL), 10);   /* the newest were dropped */
    assert_int_equal((int)other_data(root, "events_dropped"), 12);
    assert_non_null(strstr(text_of(cJSON_GetObjectItemCaseSensitive(root, "otherData"), "note"),
                           "dropped"));
    cJSON_Delete(root);
    ecs_sched_world_destroy(w);
}

static void a_trace_for_n_frames_stops_and_writes_its_file(void **state) {
    ecs_sched_world *w = abc_world();
    ecs_sched_trace_desc t;
    char path[] = "/tmp/ecs_sched_frames_XXXXXX";
    int fd = mkstemp(path);
    FILE *f;
    char head[64] = "";
    (void)state;
    assert_true(fd >= 0);
    close(fd);
    memset(&t, 0, sizeof t);
    t.frames = 2;
    t.path = path;
    assert_int_equal(ecs_sched_trace_start(w, &t), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_true(ecs_sched_trace_get_info(w).running);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_false(ecs_sched_trace_get_info(w).running);
    assert_int_equal(ecs_sched_trace_get_info(w).frames, 2);
    f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(head, sizeof head, f));
    fclose(f);
    remove(path);
    assert_non_null(strstr(head, "displayTimeUnit"));
    ecs_sched_world_destroy(w);
}

#ifdef ECS_SCHED_THREADS
static void spin_a_little(ecs_sched_system_ctx *ctx) {
    struct timespec a, b;
    (void)ctx;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do {
        clock_gettime(CLOCK_MONOTONIC, &b);
    } while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 200000L);
}

static bool events_from_a_worker(cJSON *root) {
    const cJSON *e;
    cJSON_ArrayForEach(e, events_of(root)) {
        const char *cat = text_of(e, "cat");
        if (cat && strcmp(cat, "system") == 0 && number_of(e, "tid") > 0) return true;
    }
    return false;
}

static void the_parallel_executor_records_each_system_on_the_thread_that_ran_it(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_PARALLEL, 2);
    ecs_sched_system_desc d = system_named("spin", spin_a_little);
    bool seen = false;
    int attempt, i;
    (void)state;
    for (i = 0; i < 4; i++) assert_int_equal(ecs_sched_add_system(w, UPDATE, &d), ECS_SCHED_OK);
    for (attempt = 0; attempt < 20 && !seen; attempt++) {
        cJSON *root;
        assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_OK);
        for (i = 0; i < 10; i++) assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
        assert_int_equal(ecs_sched_trace_stop(w), ECS_SCHED_OK);
        root = written_trace(w);
        assert_int_equal(count_events(root, "system", NULL), 40);
        assert_spans_nest(root);
        seen = events_from_a_worker(root);
        cJSON_Delete(root);
    }
    assert_true(seen);
    ecs_sched_world_destroy(w);
}
#endif

/* ---- outcomes, statistics, systems switched off ---- */

static void what_ran_tells_ran_skipped_and_disabled_apart(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    ecs_sched_system_desc d[3];
    ecs_sched_system_outcome out[3];
    ecs_sched_condition never = never_condition();
    (void)state;
    d[0] = system_named("runs", note);
    d[1] = system_named("guarded", note);
    d[1].run_if[0] = &never;
    d[1].after[0] = "runs";
    d[2] = system_named("off", note);
    d[2].after[0] = "guarded";
    add_all(w, d, 3);
    assert_int_equal(ecs_sched_system_set_enabled(w, UPDATE, "off", false), ECS_SCHED_OK);
    assert_false(ecs_sched_system_enabled(w, UPDATE, "off"));
    ecs_sched_outcomes_enable(w, true);
    g_ran[0] = '\0';
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_ran, "runs ");
    assert_int_equal(ecs_sched_what_ran(w, UPDATE, out, 3), 3);
    assert_string_equal(out[0].system, "runs");
    assert_int_equal(out[0].outcome, ECS_SCHED_OUTCOME_RAN);
    assert_int_equal(out[0].ns, -1);   /* no trace, no statistics: not timed */
    assert_int_equal(out[1].outcome, ECS_SCHED_OUTCOME_SKIPPED);
    assert_string_equal(out[1].condition, "never");
    assert_null(out[1].set);
    assert_int_equal(out[2].outcome, ECS_SCHED_OUTCOME_DISABLED);
    ecs_sched_world_destroy(w);
}

static void a_system_after_a_stopping_failure_is_not_reached(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    ecs_sched_system_desc d[2];
    ecs_sched_system_outcome out[2];
    (void)state;
    d[0] = system_named("fails", fail_always);
    d[1] = system_named("later", note);
    d[1].after[0] = "fails";
    add_all(w, d, 2);
    ecs_sched_stats_enable(w, true);
    assert_int_not_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_what_ran(w, UPDATE, out, 2), 2);
    assert_int_equal(out[0].outcome, ECS_SCHED_OUTCOME_RAN);
    assert_true(out[0].ns >= 0);
    assert_int_equal(out[1].outcome, ECS_SCHED_OUTCOME_NOT_REACHED);
    ecs_sched_world_destroy(w);
}

static void statistics_count_runs_and_bound_their_times(void **state) {
    ecs_sched_world *w = abc_world();
    ecs_sched_system_stats st;
    int i;
    (void)state;
    ecs_sched_stats_enable(w, true);
    for (i = 0; i < 5; i++) assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_system_stats_get(w, UPDATE, "b", &st), ECS_SCHED_OK);
    assert_int_equal(st.runs, 5);
    assert_true(st.min_ns >= 0);
    assert_true(st.min_ns <= st.max_ns);
    assert_true(st.total_ns >= 5 * st.min_ns && st.total_ns <= 5 * st.max_ns);
    ecs_sched_stats_enable(w, false);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_system_stats_get(w, UPDATE, "b", &st), ECS_SCHED_OK);
    assert_int_equal(st.runs, 5);
    ecs_sched_stats_enable(w, true);   /* switched on again: counted afresh */
    assert_int_equal(ecs_sched_system_stats_get(w, UPDATE, "b", &st), ECS_SCHED_OK);
    assert_int_equal(st.runs, 0);
    ecs_sched_world_destroy(w);
}

static void a_system_enabled_again_runs_again(void **state) {
    ecs_sched_world *w = abc_world();
    (void)state;
    assert_int_equal(ecs_sched_system_set_enabled(w, UPDATE, "b", false), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_ran, "a c ");
    assert_int_equal(ecs_sched_system_set_enabled(w, UPDATE, "b", true), ECS_SCHED_OK);
    g_ran[0] = '\0';
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_ran, "a b c ");
    ecs_sched_world_destroy(w);
}

static int g_condition_calls;

static bool counted_true(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    g_condition_calls++;
    return true;
}

static void a_disabled_system_has_its_conditions_left_unevaluated(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    ecs_sched_system_desc d = system_named("off", note);
    ecs_sched_condition c;
    ecs_sched_system_outcome out;
    (void)state;
    memset(&c, 0, sizeof c);
    c.name = "counted";
    c.fn = counted_true;
    d.run_if[0] = &c;
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &d), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_system_set_enabled(w, UPDATE, "off", false), ECS_SCHED_OK);
    ecs_sched_outcomes_enable(w, true);
    g_condition_calls = 0;
    g_ran[0] = '\0';
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_condition_calls, 0);
    assert_string_equal(g_ran, "");
    assert_int_equal(ecs_sched_what_ran(w, UPDATE, &out, 1), 1);
    assert_int_equal(out.outcome, ECS_SCHED_OUTCOME_DISABLED);
    ecs_sched_world_destroy(w);
}

#ifdef ECS_SCHED_THREADS
static void the_parallel_executor_passes_a_disabled_system_over_too(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_PARALLEL, 2);
    ecs_sched_system_desc d[2];
    ecs_sched_condition c;
    ecs_sched_system_outcome out[2];
    (void)state;
    memset(&c, 0, sizeof c);
    c.name = "counted";
    c.fn = counted_true;
    d[0] = system_named("guarded_off", note);
    d[0].run_if[0] = &c;
    d[1] = system_named("plain_off", note);
    add_all(w, d, 2);
    assert_int_equal(ecs_sched_system_set_enabled(w, UPDATE, "guarded_off", false), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_system_set_enabled(w, UPDATE, "plain_off", false), ECS_SCHED_OK);
    ecs_sched_outcomes_enable(w, true);
    g_condition_calls = 0;
    g_ran[0] = '\0';
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_condition_calls, 0);
    assert_string_equal(g_ran, "");
    assert_int_equal(ecs_sched_what_ran(w, UPDATE, out, 2), 2);
    assert_int_equal(out[0].outcome, ECS_SCHED_OUTCOME_DISABLED);
    assert_int_equal(out[1].outcome, ECS_SCHED_OUTCOME_DISABLED);
    ecs_sched_world_destroy(w);
}
#endif

static void a_sync_point_cannot_be_switched_off_or_stepped(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    ecs_sched_system_desc d = system_named("flush", ecs_sched_apply_deferred);
    (void)state;
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &d), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_system_set_enabled(w, UPDATE, "flush", false),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "'flush' in schedule 'Update' is an "
                                                    "apply_deferred sync point"));
    assert_int_equal(ecs_sched_stepping_set(w, UPDATE, "flush", ECS_SCHED_STEP_BREAKPOINT),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_true(ecs_sched_system_enabled(w, UPDATE, "flush"));
    ecs_sched_world_destroy(w);
}

static void what_ran_logs_one_line_per_system(void **state) {
    captured_log log;
    ecs_sched_world_desc desc = logged_world_desc(&log);
    ecs_sched_world *w = ecs_sched_world_create(&desc);
    (void)state;
    add(w, UPDATE, "lonely");
    ecs_sched_outcomes_enable(w, true);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_what_ran_log(w, UPDATE), ECS_SCHED_OK);
    assert_non_null(strstr(log.text, "lonely"));
    assert_non_null(strstr(log.text, "ran"));
    ecs_sched_world_destroy(w);
}

/* ---- stepping ---- */

static void step_one_and_run(ecs_sched_world *w) {
    assert_int_equal(ecs_sched_step_one(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
}

static void each_step_runs_the_next_system_only(void **state) {
    ecs_sched_world *w = abc_world();
    (void)state;
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* builds it */
    assert_int_equal(ecs_sched_stepping_enable(w, UPDATE), ECS_SCHED_OK);
    g_ran[0] = '\0';
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_ran, "");   /* nothing asked: everything held */
    assert_string_equal(ecs_sched_stepping_cursor(w, UPDATE), "a");
    step_one_and_run(w);
    assert_string_equal(g_ran, "a ");
    assert_string_equal(ecs_sched_stepping_cursor(w, UPDATE), "b");
    step_one_and_run(w);
    step_one_and_run(w);
    assert_string_equal(g_ran, "a b c ");
    assert_string_equal(ecs_sched_stepping_cursor(w, UPDATE), "a");   /* the next frame */
    ecs_sched_world_destroy(w);
}

static void continue_runs_to_the_end_of_the_frame_but_stops_before_a_breakpoint(void **state) {
    ecs_sched_world *w = abc_world();
    (void)state;
    assert_int_equal(ecs_sched_stepping_enable(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_stepping_set(w, UPDATE, "c", ECS_SCHED_STEP_BREAKPOINT),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_step_continue(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_ran, "a b ");
    assert_string_equal(ecs_sched_stepping_cursor(w, UPDATE), "c");
    g_ran[0] = '\0';
    assert_int_equal(ecs_sched_step_continue(w, UPDATE), ECS_SCHED_OK);   /* from the breakpoint */
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_ran, "c ");
    ecs_sched_world_destroy(w);
}

static void always_run_and_never_run_systems_ignore_the_cursor(void **state) {
    ecs_sched_world *w = abc_world();
    (void)state;
    assert_int_equal(ecs_sched_stepping_enable(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_stepping_set(w, UPDATE, "c", ECS_SCHED_STEP_ALWAYS_RUN),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_stepping_set(w, UPDATE, "a", ECS_SCHED_STEP_NEVER_RUN),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_ran, "c ");
    assert_string_equal(ecs_sched_stepping_cursor(w, UPDATE), "b");   /* a is passed over */
    g_ran[0] = '\0';
    assert_int_equal(ecs_sched_step_continue(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_ran, "b c ");
    ecs_sched_world_destroy(w);
}

/* a b c, c never run: a continue runs a b and puts the cursor back on a at once, so that a
   system given back its default afterwards is reached by the next continue in plan order */
static void a_frame_stepped_through_starts_over_whatever_changes_after(void **state) {
    ecs_sched_world *w = abc_world();
    (void)state;
    assert_int_equal(ecs_sched_stepping_enable(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_stepping_set(w, UPDATE, "c", ECS_SCHED_STEP_NEVER_RUN),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_step_continue(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_ran, "a b ");
    assert_string_equal(ecs_sched_stepping_cursor(w, UPDATE), "a");
    assert_int_equal(ecs_sched_stepping_set(w, UPDATE, "c", ECS_SCHED_STEP_DEFAULT),
                     ECS_SCHED_OK);
    assert_string_equal(ecs_sched_stepping_cursor(w, UPDATE), "a");
    g_ran[0] = '\0';
    assert_int_equal(ecs_sched_step_continue(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_ran, "a b c ");
    ecs_sched_world_destroy(w);
}

static void held_systems_are_in_the_trace_and_the_outcomes(void **state) {
    ecs_sched_world *w = abc_world();
    ecs_sched_system_outcome out[3];
    cJSON *root;
    (void)state;
    assert_int_equal(ecs_sched_stepping_enable(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_OK);
    step_one_and_run(w);
    assert_int_equal(ecs_sched_what_ran(w, UPDATE, out, 3), 3);
    assert_int_equal(out[0].outcome, ECS_SCHED_OUTCOME_RAN);
    assert_int_equal(out[1].outcome, ECS_SCHED_OUTCOME_HELD);
    assert_int_equal(out[2].outcome, ECS_SCHED_OUTCOME_HELD);
    root = written_trace(w);
    assert_int_equal(count_events(root, "held", NULL), 2);
    assert_int_equal(count_events(root, "system", "a"), 1);
    cJSON_Delete(root);
    ecs_sched_world_destroy(w);
}

/* a b c, with b always run: the cursor passes b over, and wraps from c to a */
static void the_cursor_passes_always_run_systems_over(void **state) {
    ecs_sched_world *w = abc_world();
    (void)state;
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_stepping_enable(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_stepping_set(w, UPDATE, "b", ECS_SCHED_STEP_ALWAYS_RUN),
                     ECS_SCHED_OK);
    g_ran[0] = '\0';
    step_one_and_run(w);
    assert_string_equal(g_ran, "a b ");
    assert_string_equal(ecs_sched_stepping_cursor(w, UPDATE), "c");
    g_ran[0] = '\0';
    step_one_and_run(w);
    assert_string_equal(g_ran, "b c ");
    assert_string_equal(ecs_sched_stepping_cursor(w, UPDATE), "a");
    g_ran[0] = '\0';
    step_one_and_run(w);
    assert_string_equal(g_ran, "a b ");
    ecs_sched_world_destroy(w);
}

static void stepping_disabled_runs_everything_again(void **state) {
    ecs_sched_world *w = abc_world();
    (void)state;
    assert_int_equal(ecs_sched_stepping_enable(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_stepping_disable(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_ran, "a b c ");
    assert_null(ecs_sched_stepping_cursor(w, UPDATE));
    ecs_sched_world_destroy(w);
}

/* ---- bad requests ---- */

static void steps_itself(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_ERR_SCHEDULE_RUNNING);
    assert_int_equal(ecs_sched_step_one(w, UPDATE), ECS_SCHED_ERR_SCHEDULE_RUNNING);
}

static void stepping_a_running_schedule_is_refused(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    ecs_sched_system_desc d = system_named("stepper", steps_itself);
    (void)state;
    d.exclusive = true;
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &d), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_stepping_enable(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_stepping_set(w, UPDATE, "stepper", ECS_SCHED_STEP_ALWAYS_RUN),
                     ECS_SCHED_OK);
    /* what a system calls that fails is its failure */
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCHEDULE_RUNNING);
    assert_non_null(strstr(ecs_sched_last_error(w), "schedule 'Update' is running"));
    ecs_sched_world_destroy(w);
}

static void unknown_schedules_and_systems_are_named_in_the_error(void **state) {
    ecs_sched_world *w = abc_world();
    ecs_sched_system_stats st;
    (void)state;
    assert_int_equal(ecs_sched_stepping_enable(w, "Nowhere"), ECS_SCHED_ERR_UNKNOWN_SCHEDULE);
    assert_non_null(strstr(ecs_sched_last_error(w), "Nowhere"));
    assert_int_equal(ecs_sched_system_set_enabled(w, UPDATE, "ghost", false),
                     ECS_SCHED_ERR_NOT_FOUND);
    assert_non_null(strstr(ecs_sched_last_error(w), "'ghost'"));
    assert_int_equal(ecs_sched_system_stats_get(w, UPDATE, "ghost", &st), ECS_SCHED_ERR_NOT_FOUND);
    assert_int_equal(ecs_sched_stepping_set(w, UPDATE, "ghost", ECS_SCHED_STEP_BREAKPOINT),
                     ECS_SCHED_ERR_NOT_FOUND);
    assert_int_equal(ecs_sched_what_ran(w, "Nowhere", NULL, 0), -1);
    assert_int_equal(ecs_sched_step_one(w, UPDATE), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "stepping_enable"));
    ecs_sched_world_destroy(w);
}

static void bad_trace_requests_are_refused_and_change_nothing(void **state) {
    ecs_sched_world *w = abc_world();
    ecs_sched_trace_desc t;
    (void)state;
    memset(&t, 0, sizeof t);
    t.capacity = -1;
    assert_int_equal(ecs_sched_trace_start(w, &t), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "capacity -1"));
    t.capacity = 0;
    t.path = "/tmp/x.json";
    assert_int_equal(ecs_sched_trace_start(w, &t), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_false(ecs_sched_trace_get_info(w).running);
    assert_int_equal(ecs_sched_trace_write(w, "/tmp/never.json"), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_trace_stop(w), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "already"));
    assert_int_equal(ecs_sched_trace_write(w, "/nonexistent-dir/t.json"),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "/nonexistent-dir/t.json"));
    assert_int_equal(ecs_sched_what_ran(w, UPDATE, NULL, 0), -1);   /* not run yet */
    ecs_sched_world_destroy(w);
}

/* ---- names, outcomes and requests the tests above leave out ---- */

static void names_are_written_as_valid_json_whatever_their_bytes(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    /* quote, backslash, a control character, well-formed 2, 3 and 4 byte sequences, then bytes
       that start no well-formed sequence: a lone continuation, an overlong 2 byte form, an
       overlong 3 byte form, a surrogate, an overlong 4 byte form, one past U+10FFFF, a cut
       3 byte sequence, and a byte no sequence starts with */
    const char *name = "q\"b\\c\x01 \xc3\xa9\xe2\x82\xac\xf0\x9d\x84\x9e|\x80|\xc0\x80|\xe0\x80\x80|"
                       "\xed\xa0\x80|\xf0\x80\x80\x80|\xf4\x90\x80\x80|\xe2\x82x|\xf8";
    const char *expected = "q\"b\\c\x01 \xc3\xa9\xe2\x82\xac\xf0\x9d\x84\x9e|\xef\xbf\xbd|"
                           "\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd|"
                           "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd|"
                           "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd|"
                           "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd|"
                           "\xef\xbf\xbd\xef\xbf\xbdx|\xef\xbf\xbd";
    cJSON *root;
    const cJSON *e;
    (void)state;
    add(w, UPDATE, name);
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    root = written_trace(w);
    e = find_event(root, "system", NULL);
    assert_non_null(e);
    assert_string_equal(text_of(e, "name"), expected);
    cJSON_Delete(root);
    ecs_sched_world_destroy(w);
}

static void a_removed_observer_is_named_by_its_id_in_the_trace(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_observer_desc d;
    Position p = {1, 2};
    char expected[64];
    uint32_t id;
    cJSON *root;
    (void)state;
    memset(&d, 0, sizeof d);
    d.name = "placed";
    d.event = ECS_SCHED_ON_ADD;
    d.component = pos;
    d.fn = observed;
    id = ecs_sched_observer_add(w, &d);
    assert_true(id != 0);
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_OK);
    assert_true(ecs_sched_spawn_with(w, 1, &pos, (const void *const[]){&p}) != ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_observer_remove(w, id), ECS_SCHED_OK);
    root = written_trace(w);
    snprintf(expected, sizeof expected, "observer %u (removed)", (unsigned)id);
    assert_int_equal(count_events(root, "observer", expected), 1);
    assert_int_equal(count_events(root, "observer", "placed"), 0);
    cJSON_Delete(root);
    ecs_sched_world_destroy(w);
}

static void a_disabled_system_is_an_instant_event_of_its_schedule(void **state) {
    ecs_sched_world *w = abc_world();
    cJSON *root;
    const cJSON *e;
    (void)state;
    assert_int_equal(ecs_sched_system_set_enabled(w, UPDATE, "b", false), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_ran, "a c ");
    root = written_trace(w);
    assert_int_equal(count_events(root, "disabled", NULL), 1);
    e = find_event(root, "disabled", "b");
    assert_non_null(e);
    assert_string_equal(text_of(e, "ph"), "i");
    assert_string_equal(cJSON_GetStringValue(arg_of(e, "schedule")), UPDATE);
    assert_int_equal(count_events(root, "system", "b"), 0);
    cJSON_Delete(root);
    ecs_sched_world_destroy(w);
}

static void every_outcome_has_a_name_and_an_unknown_one_is_a_question_mark(void **state) {
    (void)state;
    assert_string_equal(ecs_sched_outcome_string(ECS_SCHED_OUTCOME_NOT_REACHED), "not reached");
    assert_string_equal(ecs_sched_outcome_string(ECS_SCHED_OUTCOME_RAN), "ran");
    assert_string_equal(ecs_sched_outcome_string(ECS_SCHED_OUTCOME_SKIPPED), "skipped");
    assert_string_equal(ecs_sched_outcome_string(ECS_SCHED_OUTCOME_DISABLED), "disabled");
    assert_string_equal(ecs_sched_outcome_string(ECS_SCHED_OUTCOME_HELD), "held");
    assert_string_equal(ecs_sched_outcome_string((ecs_sched_outcome)99), "?");
}

static void what_ran_counts_every_system_even_past_the_capacity_given(void **state) {
    ecs_sched_world *w = abc_world();
    ecs_sched_system_outcome out[2];
    (void)state;
    ecs_sched_outcomes_enable(w, true);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    memset(out, 0, sizeof out);
    assert_int_equal(ecs_sched_what_ran(w, UPDATE, out, 1), 3);
    assert_string_equal(out[0].system, "a");
    assert_null(out[1].system);   /* past the capacity: not written */
    assert_int_equal(ecs_sched_what_ran(w, UPDATE, NULL, 5), 3);
    ecs_sched_world_destroy(w);
}

static void what_ran_logs_the_condition_and_the_set_that_skipped_a_system(void **state) {
    captured_log log;
    ecs_sched_world_desc desc = logged_world_desc(&log);
    ecs_sched_world *w = ecs_sched_world_create(&desc);
    ecs_sched_condition never = never_condition();
    ecs_sched_set_desc set;
    ecs_sched_system_desc d[2];
    (void)state;
    memset(&set, 0, sizeof set);
    set.name = "gated";
    set.run_if[0] = &never;
    assert_int_equal(ecs_sched_configure_set(w, UPDATE, &set), ECS_SCHED_OK);
    d[0] = system_named("inside", note);
    d[0].in_set[0] = "gated";
    d[1] = system_named("alone", note);
    d[1].run_if[0] = &never;
    add_all(w, d, 2);
    ecs_sched_outcomes_enable(w, true);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_what_ran_log(w, UPDATE), ECS_SCHED_OK);
    assert_non_null(strstr(log.text, "skipped by condition 'never' of set gated\n"));
    assert_non_null(strstr(log.text, "skipped by condition 'never'\n"));
    assert_int_equal(ecs_sched_what_ran_log(w, "Nowhere"), ECS_SCHED_ERR_UNKNOWN_SCHEDULE);
    ecs_sched_world_destroy(w);
}

static void two_systems_of_one_name_cannot_be_told_apart_by_it(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    (void)state;
    add(w, UPDATE, "twin");
    add(w, UPDATE, "twin");
    assert_int_equal(ecs_sched_system_set_enabled(w, UPDATE, "twin", false),
                     ECS_SCHED_ERR_DUPLICATE_NAME);
    assert_non_null(strstr(ecs_sched_last_error(w), "has 2 systems named 'twin'"));
    assert_false(ecs_sched_system_enabled(w, UPDATE, "twin"));
    g_ran[0] = '\0';
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_ran, "twin twin ");
    ecs_sched_world_destroy(w);
}

static void switching_a_system_to_the_state_it_is_in_changes_nothing(void **state) {
    ecs_sched_world *w = abc_world();
    (void)state;
    assert_int_equal(ecs_sched_system_set_enabled(w, UPDATE, "a", true), ECS_SCHED_OK);
    assert_true(ecs_sched_system_enabled(w, UPDATE, "a"));
    assert_int_equal(ecs_sched_system_set_enabled(w, UPDATE, "a", false), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_system_set_enabled(w, UPDATE, "a", false), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_system_set_enabled(w, UPDATE, "a", true), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_ran, "a b c ");
    assert_false(ecs_sched_system_enabled(w, UPDATE, NULL));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_NOT_FOUND);
    assert_non_null(strstr(ecs_sched_last_error(w), "no system named '(null)'"));
    ecs_sched_world_destroy(w);
}

static void a_negative_frame_count_or_an_empty_path_is_refused(void **state) {
    ecs_sched_world *w = abc_world();
    ecs_sched_trace_desc t;
    (void)state;
    memset(&t, 0, sizeof t);
    t.frames = -2;
    assert_int_equal(ecs_sched_trace_start(w, &t), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "frames -2 is negative"));
    t.frames = 1;
    t.path = "";
    assert_int_equal(ecs_sched_trace_start(w, &t), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "the path is empty"));
    assert_false(ecs_sched_trace_get_info(w).running);
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_trace_write(w, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "trace_write: no path given"));
    assert_int_equal(ecs_sched_trace_write(w, ""), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "trace_write: no path given"));
    ecs_sched_world_destroy(w);
}

static ecs_sched_result g_trace_calls[3];

static void trace_calls_while_running(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *w = ecs_sched_ctx_world(ctx);
    g_trace_calls[0] = ecs_sched_trace_stop(w);
    g_trace_calls[1] = ecs_sched_trace_write(w, "/tmp/ecs_sched_never_written.json");
    g_trace_calls[2] = ecs_sched_trace_start(w, NULL);
}

static void a_trace_is_not_started_stopped_or_written_while_a_schedule_runs(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    ecs_sched_system_desc d = system_named("meddler", trace_calls_while_running);
    (void)state;
    d.exclusive = true;
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &d), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_OK);
    /* each refusal is the system's failure */
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_SCHEDULE_RUNNING);
    assert_int_equal(g_trace_calls[0], ECS_SCHED_ERR_SCHEDULE_RUNNING);
    assert_int_equal(g_trace_calls[1], ECS_SCHED_ERR_SCHEDULE_RUNNING);
    assert_int_equal(g_trace_calls[2], ECS_SCHED_ERR_SCHEDULE_RUNNING);
    assert_non_null(strstr(ecs_sched_last_error(w), "system 'meddler' in schedule 'Update': "
                                                    "trace_stop: schedule 'Update' is running"));
    assert_true(ecs_sched_trace_get_info(w).running);
    assert_int_equal(ecs_sched_trace_stop(w), ECS_SCHED_OK);
    ecs_sched_world_destroy(w);
}

static void a_trace_started_again_with_the_same_capacity_reuses_its_buffer(void **state) {
    ecs_sched_world *w = abc_world();
    ecs_sched_trace_desc t;
    (void)state;
    memset(&t, 0, sizeof t);
    t.capacity = 64;
    assert_int_equal(ecs_sched_trace_start(w, &t), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_trace_stop(w), ECS_SCHED_OK);
    assert_true(ecs_sched_trace_get_info(w).recorded > 0);
    assert_int_equal(ecs_sched_trace_start(w, &t), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_trace_get_info(w).recorded, 0);
    assert_int_equal(ecs_sched_trace_get_info(w).capacity, 64);
    assert_int_equal(ecs_sched_trace_stop(w), ECS_SCHED_OK);
    t.capacity = 128;
    assert_int_equal(ecs_sched_trace_start(w, &t), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_trace_get_info(w).capacity, 128);
    ecs_sched_world_destroy(w);
}

static void statistics_switched_on_twice_keep_what_they_counted(void **state) {
    ecs_sched_world *w = abc_world();
    ecs_sched_system_stats st;
    (void)state;
    ecs_sched_stats_enable(w, true);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    ecs_sched_stats_enable(w, true);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_system_stats_get(w, UPDATE, "a", &st), ECS_SCHED_OK);
    assert_int_equal(st.runs, 2);
    assert_true(st.min_ns <= st.max_ns);
    assert_true(st.total_ns >= 2 * st.min_ns && st.total_ns <= 2 * st.max_ns);
    ecs_sched_stats_enable(w, false);
    ecs_sched_stats_enable(w, true);
    assert_int_equal(ecs_sched_system_stats_get(w, UPDATE, "a", &st), ECS_SCHED_OK);
    assert_int_equal(st.runs, 0);
    assert_int_equal(ecs_sched_system_stats_get(w, "Nowhere", "a", &st), ECS_SCHED_ERR_UNKNOWN_SCHEDULE);
    assert_int_equal(ecs_sched_system_set_enabled(w, "Nowhere", "a", false), ECS_SCHED_ERR_UNKNOWN_SCHEDULE);
    assert_false(ecs_sched_system_enabled(w, "Nowhere", "a"));
    ecs_sched_world_destroy(w);
}

static void the_smallest_and_largest_well_formed_sequences_are_written_as_they_are(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    /* U+0800, U+D7FF, U+10000, U+10FFFF (each at an edge a malformed form lies beyond), then
       a 2 byte start without its continuation */
    const char *name = "\xe0\xa0\x80|\xed\x9f\xbf|\xf0\x90\x80\x80|\xf4\x8f\xbf\xbf|\xc3x";
    const char *expected = "\xe0\xa0\x80|\xed\x9f\xbf|\xf0\x90\x80\x80|\xf4\x8f\xbf\xbf|\xef\xbf\xbdx";
    cJSON *root;
    const cJSON *e;
    (void)state;
    add(w, UPDATE, name);
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    root = written_trace(w);
    e = find_event(root, "system", NULL);
    assert_non_null(e);
    assert_string_equal(text_of(e, "name"), expected);
    cJSON_Delete(root);
    ecs_sched_world_destroy(w);
}

static void traced_observer(ecs_sched_world *w, const char *name, ecs_sched_observer_event event,
                            ecs_sched_id component) {
    ecs_sched_observer_desc d;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.event = event;
    d.component = component;
    d.fn = observed;
    if (event == ECS_SCHED_ON_DESPAWN) d.component = 0;
    if (event == ECS_SCHED_ON_MATCH || event == ECS_SCHED_ON_UNMATCH) {
        d.component = 0;
        d.query.terms[0] = ecs_sched_read(component);
    }
    assert_true(ecs_sched_observer_add(w, &d) != 0);
}

static void every_observer_event_is_named_in_the_trace(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_id ping = ECS_SCHED_TAG(w, Ping);
    static const char *const names[9][2] = {
        {"added", "on_add"},       {"inserted", "on_insert"}, {"removed", "on_remove"},
        {"despawned", "on_despawn"}, {"set", "on_set"},       {"unset", "on_unset"},
        {"matched", "on_match"},   {"unmatched", "on_unmatch"}, {"pinged", "on_event"}};
    Position p = {1, 2};
    ecs_sched_entity e;
    cJSON *root;
    int i;
    (void)state;
    for (i = 0; i < 8; i++) {
        traced_observer(w, names[i][0], (ecs_sched_observer_event)(ECS_SCHED_ON_ADD + i), pos);
    }
    traced_observer(w, names[8][0], ECS_SCHED_ON_EVENT, ping);
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_OK);
    e = ecs_sched_spawn_with(w, 1, &pos, (const void *const[]){&p});
    assert_int_equal(ecs_sched_emit(w, &(ecs_sched_event_desc){.event = ping}), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, e), ECS_SCHED_OK);
    root = written_trace(w);
    for (i = 0; i < 9; i++) {
        const cJSON *event = find_event(root, "observer", names[i][0]);
        if (!event) print_error("observer '%s' not traced\n", names[i][0]);
        assert_non_null(event);
        assert_string_equal(cJSON_GetStringValue(arg_of(event, "event")), names[i][1]);
    }
    assert_null(arg_of(find_event(root, "observer", "despawned"), "component"));
    assert_string_equal(cJSON_GetStringValue(arg_of(find_event(root, "observer", "pinged"),
                                                    "component")), "Ping");
    cJSON_Delete(root);
    ecs_sched_world_destroy(w);
}

static bool always_holds(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    return true;
}

static void the_condition_named_is_the_first_one_that_failed(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    ecs_sched_condition never = never_condition();
    ecs_sched_condition yes;
    ecs_sched_set_desc set;
    ecs_sched_system_desc d[2];
    ecs_sched_system_outcome out[2];
    cJSON *root;
    const cJSON *c;
    (void)state;
    memset(&yes, 0, sizeof yes);
    yes.name = "yes";
    yes.fn = always_holds;
    memset(&set, 0, sizeof set);
    set.name = "open";
    set.run_if[0] = &yes;
    assert_int_equal(ecs_sched_configure_set(w, UPDATE, &set), ECS_SCHED_OK);
    d[0] = system_named("guarded", note);
    d[0].in_set[0] = "open";
    d[0].run_if[0] = &yes;
    d[0].run_if[1] = &never;
    d[1] = system_named("free", note);
    d[1].run_if[0] = &yes;
    add_all(w, d, 2);
    ecs_sched_outcomes_enable(w, true);
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_OK);
    g_ran[0] = '\0';
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_ran, "free ");
    assert_int_equal(ecs_sched_what_ran(w, UPDATE, out, 2), 2);
    assert_int_equal(out[0].outcome, ECS_SCHED_OUTCOME_SKIPPED);
    assert_string_equal(out[0].condition, "never");
    assert_null(out[0].set);   /* the set's condition held */
    root = written_trace(w);
    c = find_event(root, "condition", "yes");
    assert_non_null(c);
    assert_true(cJSON_IsTrue(arg_of(c, "result")));
    cJSON_Delete(root);
    ecs_sched_world_destroy(w);
}

static void a_trace_written_to_a_full_device_is_refused_naming_the_path(void **state) {
    ecs_sched_world *w = abc_world();
    (void)state;
    assert_int_equal(ecs_sched_trace_start(w, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_trace_write(w, "/dev/full"), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "/dev/full"));
    ecs_sched_world_destroy(w);
}

static void what_ran_needs_a_run_with_outcomes_on(void **state) {
    ecs_sched_world *w = abc_world();
    ecs_sched_world *empty = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    (void)state;
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_what_ran(w, UPDATE, NULL, 0), -1);
    assert_non_null(strstr(ecs_sched_last_error(w), "what_ran: no run of schedule 'Update' was recorded"));
    ecs_sched_stats_enable(empty, true);   /* no schedule yet: nothing to clear */
    ecs_sched_stats_enable(empty, false);
    assert_int_equal(ecs_sched_what_ran(empty, UPDATE, NULL, 0), -1);
    assert_int_equal(ecs_sched_last_result(empty), ECS_SCHED_ERR_UNKNOWN_SCHEDULE);
    ecs_sched_world_destroy(empty);
    ecs_sched_world_destroy(w);
}

static void what_ran_leaves_the_sync_points_out(void **state) {
    ecs_sched_world *w = world_on(ECS_SCHED_EXECUTOR_SINGLE_THREADED, 0);
    ecs_sched_system_desc d[2];
    ecs_sched_system_outcome out[3];
    (void)state;
    d[0] = system_named("spawner", spawns_three);
    d[0].commands = true;
    d[1] = system_named("after", note);
    d[1].after[0] = "spawner";
    add_all(w, d, 2);
    ecs_sched_outcomes_enable(w, true);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_what_ran(w, UPDATE, out, 3), 2);
    assert_string_equal(out[0].system, "spawner");
    assert_string_equal(out[1].system, "after");
    ecs_sched_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_trace_lists_every_system_run_with_its_schedule),
        cmocka_unit_test(nothing_is_recorded_before_the_start_or_after_the_stop),
        cmocka_unit_test(a_nested_schedule_run_is_a_span_inside_the_system_that_ran_it),
        cmocka_unit_test(a_sync_point_says_how_many_commands_it_applied),
        cmocka_unit_test(a_false_condition_is_recorded_with_what_it_guards),
        cmocka_unit_test(a_set_condition_names_the_set_it_guards),
        cmocka_unit_test(an_observer_call_is_recorded_with_its_event_and_component),
        cmocka_unit_test(a_state_transition_is_recorded_with_both_values),
        cmocka_unit_test(transition_schedules_applied_outside_a_run_end_no_frame),
        cmocka_unit_test(app_updates_are_the_frames_and_fixed_steps_are_spans_in_them),
        cmocka_unit_test(messages_are_counted_by_type_when_the_app_updates_them),
        cmocka_unit_test(a_trace_started_again_discards_the_last_recording),
        cmocka_unit_test(a_full_buffer_keeps_the_oldest_events_and_counts_the_rest),
        cmocka_unit_test(a_trace_for_n_frames_stops_and_writes_its_file),
#ifdef ECS_SCHED_THREADS
        cmocka_unit_test(the_parallel_executor_records_each_system_on_the_thread_that_ran_it),
#endif
        cmocka_unit_test(what_ran_tells_ran_skipped_and_disabled_apart),
        cmocka_unit_test(a_system_after_a_stopping_failure_is_not_reached),
        cmocka_unit_test(statistics_count_runs_and_bound_their_times),
        cmocka_unit_test(a_system_enabled_again_runs_again),
        cmocka_unit_test(a_disabled_system_has_its_conditions_left_unevaluated),
#ifdef ECS_SCHED_THREADS
        cmocka_unit_test(the_parallel_executor_passes_a_disabled_system_over_too),
#endif
        cmocka_unit_test(a_sync_point_cannot_be_switched_off_or_stepped),
        cmocka_unit_test(what_ran_logs_one_line_per_system),
        cmocka_unit_test(each_step_runs_the_next_system_only),
        cmocka_unit_test(continue_runs_to_the_end_of_the_frame_but_stops_before_a_breakpoint),
        cmocka_unit_test(always_run_and_never_run_systems_ignore_the_cursor),
        cmocka_unit_test(a_frame_stepped_through_starts_over_whatever_changes_after),
        cmocka_unit_test(held_systems_are_in_the_trace_and_the_outcomes),
        cmocka_unit_test(the_cursor_passes_always_run_systems_over),
        cmocka_unit_test(stepping_disabled_runs_everything_again),
        cmocka_unit_test(stepping_a_running_schedule_is_refused),
        cmocka_unit_test(unknown_schedules_and_systems_are_named_in_the_error),
        cmocka_unit_test(bad_trace_requests_are_refused_and_change_nothing),
        cmocka_unit_test(names_are_written_as_valid_json_whatever_their_bytes),
        cmocka_unit_test(a_removed_observer_is_named_by_its_id_in_the_trace),
        cmocka_unit_test(a_disabled_system_is_an_instant_event_of_its_schedule),
        cmocka_unit_test(every_outcome_has_a_name_and_an_unknown_one_is_a_question_mark),
        cmocka_unit_test(what_ran_counts_every_system_even_past_the_capacity_given),
        cmocka_unit_test(what_ran_logs_the_condition_and_the_set_that_skipped_a_system),
        cmocka_unit_test(two_systems_of_one_name_cannot_be_told_apart_by_it),
        cmocka_unit_test(switching_a_system_to_the_state_it_is_in_changes_nothing),
        cmocka_unit_test(a_negative_frame_count_or_an_empty_path_is_refused),
        cmocka_unit_test(the_condition_named_is_the_first_one_that_failed),
        cmocka_unit_test(a_trace_written_to_a_full_device_is_refused_naming_the_path),
        cmocka_unit_test(what_ran_needs_a_run_with_outcomes_on),
        cmocka_unit_test(what_ran_leaves_the_sync_points_out),
        cmocka_unit_test(every_observer_event_is_named_in_the_trace),
        cmocka_unit_test(the_smallest_and_largest_well_formed_sequences_are_written_as_they_are),
        cmocka_unit_test(a_trace_is_not_started_stopped_or_written_while_a_schedule_runs),
        cmocka_unit_test(a_trace_started_again_with_the_same_capacity_reuses_its_buffer),
        cmocka_unit_test(statistics_switched_on_twice_keep_what_they_counted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
