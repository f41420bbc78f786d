/* trace: a recording of what runs (systems, conditions, sync points, schedules, frames, fixed
   steps, state transitions, observers, failures) written as Chrome trace-event JSON; per-system
   statistics; what each system did in its schedule's last run; systems switched off by hand.
   Compiled when ECS_SCHED_TRACE is defined. */
#pragma once
#include "plan.h"
#include "trace_events.h"

#ifdef ECS_SCHED_TRACE

typedef struct ecs_sched_trace_desc {
    int32_t capacity;       /* events the buffer holds (48 bytes each), allocated by the start;
                               0: 65536. Events past it are dropped and counted */
    int32_t frames;         /* stop by itself after this many frames (app updates, or runs of
                               a schedule from outside any other); 0: at ecs_sched_trace_stop */
    const char *path;       /* with frames: written there when it stops by itself */
} ecs_sched_trace_desc;

typedef struct ecs_sched_trace_info {
    bool running;
    int64_t recorded;       /* events in the buffer */
    int64_t dropped;        /* events that did not fit */
    int32_t capacity;
    int32_t frames;         /* frames ended since the start */
} ecs_sched_trace_info;

/* Starts recording (the last recording is discarded; its buffer is reused when it holds as
   many events). Refused while a schedule runs, while a trace runs, and for a negative capacity
   or frame count. */
ECS_SCHED_API ecs_sched_result ecs_sched_trace_start(ecs_sched_world *world,
                                                    const ecs_sched_trace_desc *desc);
/* Stops recording; the recording stays for ecs_sched_trace_write. */
ECS_SCHED_API ecs_sched_result ecs_sched_trace_stop(ecs_sched_world *world);
ECS_SCHED_API ecs_sched_trace_info ecs_sched_trace_get_info(const ecs_sched_world *world);
/* Writes the recording (running or stopped) as Chrome trace-event JSON: open it in Perfetto
   (ui.perfetto.dev) or chrome://tracing, or turn it into an SVG with tools/trace_svg.py. */
ECS_SCHED_API ecs_sched_result ecs_sched_trace_write(ecs_sched_world *world, const char *path);

/* ---- statistics: per system, over every run since they were switched on ---- */

typedef struct ecs_sched_system_stats {
    int64_t runs;
    int64_t total_ns, min_ns, max_ns;
} ecs_sched_system_stats;

/* Switching them on clears them. */
ECS_SCHED_API void ecs_sched_stats_enable(ecs_sched_world *world, bool on);
ECS_SCHED_API ecs_sched_result ecs_sched_system_stats_get(ecs_sched_world *world,
                                                         const char *schedule,
                                                         const char *system,
                                                         ecs_sched_system_stats *out);

/* ---- what ran ---- */

typedef enum ecs_sched_outcome {
    ECS_SCHED_OUTCOME_NOT_REACHED = 0,  /* the run stopped before it (or it was not recorded) */
    ECS_SCHED_OUTCOME_RAN,
    ECS_SCHED_OUTCOME_SKIPPED,          /* a condition was false */
    ECS_SCHED_OUTCOME_DISABLED,         /* ecs_sched_system_set_enabled(..., false) */
    ECS_SCHED_OUTCOME_HELD              /* stepping held it back */
} ecs_sched_outcome;

typedef struct ecs_sched_system_outcome {
    const char *system;
    ecs_sched_outcome outcome;
    const char *condition;   /* SKIPPED: the condition found false (NULL when it failed) */
    const char *set;         /* SKIPPED by a set's conditions: the set; NULL: its own */
    int64_t ns;              /* RAN with tracing or statistics on: what it took; else -1 */
    int32_t thread;          /* RAN: the pool worker that ran it (0: the calling thread) */
} ecs_sched_system_outcome;

/* Keeps the outcome of every system in each run (tracing and statistics keep it too). */
ECS_SCHED_API void ecs_sched_outcomes_enable(ecs_sched_world *world, bool on);
/* Fills out[0, capacity) with the systems of the schedule's plan, in plan order, as they fared
   in its last run recorded; returns how many systems the plan has (more than capacity: call
   again with more room), or -1 (unknown schedule, nothing recorded yet). */
ECS_SCHED_API int32_t ecs_sched_what_ran(ecs_sched_world *world, const char *schedule,
                                        ecs_sched_system_outcome *out, int32_t capacity);
/* The same, one line per system, through the log hook at INFO level. */
ECS_SCHED_API ecs_sched_result ecs_sched_what_ran_log(ecs_sched_world *world,
                                                     const char *schedule);
ECS_SCHED_API const char *ecs_sched_outcome_string(ecs_sched_outcome outcome);

/* ---- systems switched off ---- */

/* A disabled system does not run, its conditions are not evaluated and it takes no change
   tick; its schedule's order, sync points and access rules stay as they are. A sync point
   (apply_deferred) cannot be disabled. */
ECS_SCHED_API ecs_sched_result ecs_sched_system_set_enabled(ecs_sched_world *world,
                                                           const char *schedule,
                                                           const char *system, bool enabled);
ECS_SCHED_API bool ecs_sched_system_enabled(ecs_sched_world *world, const char *schedule,
                                           const char *system);

#endif /* ECS_SCHED_TRACE */

/*@@ implementation @@*/
/* trace: recording what runs, statistics, outcomes, systems switched off. */

#ifdef ECS_SCHED_TRACE

/* ---- what the executors call while the world is watched ---- */

/* A run records a system's outcome in the system, with the run it belongs to. */
static void ecs_sched__note_outcome(ecs_sched__schedule *s, ecs_sched__system *sys,
                                    ecs_sched_outcome outcome) {
    ecs_sched__system_watch *watch = &sys->watch;
    watch->run = s->watch_run;
    watch->outcome = (uint8_t)outcome;
    watch->ticks = -1;
    watch->condition = NULL;
    watch->set = NULL;
    watch->thread = 0;
}

static void ecs_sched__stats_add(ecs_sched__system_watch *watch, int64_t ticks) {
    if (watch->stats.runs == 0 || ticks < watch->stats.min) watch->stats.min = ticks;
    if (ticks > watch->stats.max) watch->stats.max = ticks;
    watch->stats.total += ticks;
    watch->stats.runs++;
}

/* Timings are kept in clock ticks, turned into nanoseconds when read, by the pace of the
   ticks since the world first timed something (a long span: a precise pace). */
static void ecs_sched__watch_clock_start(ecs_sched_world *w) {
    if (w->watch_ticks0) return;
    w->watch_ticks0 = ecs_sched__trace_ticks();
    w->watch_ns0 = ecs_sched__system_clock(NULL);
}

/* Nanoseconds per trace tick, as the two clocks read since the world first timed something
   (1 before they have moved). */
static double ecs_sched__ns_per_tick(const ecs_sched_world *w) {
    int64_t elapsed_ticks = ecs_sched__trace_ticks() - w->watch_ticks0;
    int64_t elapsed_ns = ecs_sched__system_clock(NULL) - w->watch_ns0;
    if (elapsed_ticks <= 0 || elapsed_ns <= 0) return 1.0;
    return (double)elapsed_ns / (double)elapsed_ticks;
}

static int64_t ecs_sched__ticks_in_ns(int64_t ticks, double ns_per_tick) {
    return ticks < 0 ? ticks : (int64_t)((double)ticks * ns_per_tick);
}

static int64_t ecs_sched__ticks_to_ns(const ecs_sched_world *w, int64_t ticks) {
    return ecs_sched__ticks_in_ns(ticks, ecs_sched__ns_per_tick(w));
}

/* Calls a system of a watched world (not one switched off: the executors pass those over); a
   run is timed when tracing or statistics are on. */
ECS_SCHED__NOINLINE static void ecs_sched__invoke_watched(ecs_sched__schedule *s,
                                                         ecs_sched__system *sys) {
    ecs_sched_world *w = s->world;
    ecs_sched__system_watch *watch = &sys->watch;
    bool timed = w->stats_on || ecs_sched__tracing(w);
    int64_t begin, end;
    ecs_sched__running *outer;
    begin = timed ? ecs_sched__trace_ticks() : 0;
    outer = ecs_sched__running_begin(&sys->ctx);
    sys->fn(&sys->ctx);
    ecs_sched__running_end(outer);
    end = timed ? ecs_sched__trace_ticks() : 0;
    ecs_sched__note_outcome(s, sys, ECS_SCHED_OUTCOME_RAN);
    watch->thread = ecs_sched__trace_thread(w);
    if (!timed) return;
    watch->ticks = end - begin;
    if (w->stats_on) ecs_sched__stats_add(watch, watch->ticks);
    ecs_sched__trace_add(w, ECS_SCHED__TRACE_SYSTEM, sys->ctx.run.name, s->label, NULL, begin, end,
                         0);
}

/* A system switched off. */
static void ecs_sched__note_disabled(ecs_sched__schedule *s, ecs_sched__system *sys) {
    ecs_sched__note_outcome(s, sys, ECS_SCHED_OUTCOME_DISABLED);
    if (ecs_sched__tracing(s->world)) {
        int64_t now = ecs_sched__trace_ticks();
        ecs_sched__trace_add(s->world, ECS_SCHED__TRACE_DISABLED, sys->ctx.run.name, s->label, NULL,
                             now, now, 0);
    }
}

/* A system that did not run: switched off, or a condition was false (the first one found
   false, in its sets, outermost first, or its own). */
static void ecs_sched__note_skipped(ecs_sched__schedule *s, int32_t at) {
    const ecs_sched__plan *plan = ecs_sched__plan_of(s);
    const ecs_sched__plan_node *pn = &plan->nodes[at];
    ecs_sched__system_watch *watch;
    int32_t i, k;
    if (!pn->system) return;
    if (pn->system->watch.disabled) {
        ecs_sched__note_disabled(s, pn->system);
        return;
    }
    ecs_sched__note_outcome(s, pn->system, ECS_SCHED_OUTCOME_SKIPPED);
    watch = &pn->system->watch;
    for (i = 0; i < pn->guard_set_count && !watch->condition; i++) {
        const ecs_sched__plan_set *ps = &plan->sets[plan->guard_sets[pn->guard_set_start + i]];
        for (k = 0; k < ps->cond_count; k++) {
            const ecs_sched__cond *c = s->conds.items[plan->conds[ps->cond_start + k]];
            if (c->watch_run == s->watch_run && !c->watch_held) {
                watch->condition = c->name;
                watch->set = s->names[ps->name].text;
                break;
            }
        }
    }
    for (k = 0; k < pn->cond_count && !watch->condition; k++) {
        const ecs_sched__cond *c = s->conds.items[plan->conds[pn->cond_start + k]];
        if (c->watch_run == s->watch_run && !c->watch_held) watch->condition = c->name;
    }
    if (ecs_sched__tracing(s->world)) {
        int64_t now = ecs_sched__trace_ticks();
        ecs_sched__trace_add(s->world, ECS_SCHED__TRACE_SKIPPED, pn->system->ctx.run.name, s->label,
                             watch->condition, now, now, 0);
    }
}

/* The set among the node's guards that has condition `index`, or -1: the node's own. */
static int32_t ecs_sched__guarding_set(const ecs_sched__schedule *s, int32_t index, int32_t at) {
    const ecs_sched__plan *plan = ecs_sched__plan_of(s);
    const ecs_sched__plan_node *pn = &plan->nodes[at];
    int32_t i, k;
    for (i = 0; i < pn->guard_set_count; i++) {
        int32_t set = plan->guard_sets[pn->guard_set_start + i];
        const ecs_sched__plan_set *ps = &plan->sets[set];
        for (k = 0; k < ps->cond_count; k++) {
            if (plan->conds[ps->cond_start + k] == index) return set;
        }
    }
    return -1;
}

/* A condition evaluated for the node at `at` (a set's, for the first node the set guards):
   its result is kept for the outcome, and traced with what it guards, the system or the set
   (arg: 1 for true, plus 2 for a set). */
static void ecs_sched__note_condition(ecs_sched__schedule *s, int32_t index, int32_t at,
                                      bool held, int64_t begin, int64_t end) {
    ecs_sched__cond *c = s->conds.items[index];
    const ecs_sched__plan_node *pn;
    int32_t set;
    c->watch_run = s->watch_run;
    c->watch_held = held;
    if (!ecs_sched__tracing(s->world)) return;
    pn = &ecs_sched__plan_of(s)->nodes[at];
    set = ecs_sched__guarding_set(s, index, at);
    ecs_sched__trace_add(s->world, ECS_SCHED__TRACE_CONDITION, c->name, s->label,
                         set >= 0 ? s->names[ecs_sched__plan_of(s)->sets[set].name].text
                                  : pn->system ? pn->system->ctx.run.name : NULL,
                         begin, end, (held ? 1 : 0) | (set >= 0 ? 2 : 0));
}

static void ecs_sched__note_sync(ecs_sched__schedule *s, int64_t begin, int64_t end,
                                 int32_t commands) {
    ecs_sched__trace_add(s->world, ECS_SCHED__TRACE_SYNC, "sync point", s->label, NULL, begin,
                         end, commands);
}

static void ecs_sched__note_failure(ecs_sched_world *w, const ecs_sched__schedule *s,
                                    const char *name) {
    int64_t now;
    if (!ecs_sched__tracing(w)) return;
    now = ecs_sched__trace_ticks();
    ecs_sched__trace_add(w, ECS_SCHED__TRACE_FAILURE, name, s->label, NULL, now, now, 0);
}

/* The app's update of the message queues: per message type, the messages sent since the last
   one (removed components are left out). */
static void ecs_sched__note_messages(ecs_sched_world *w) {
    int64_t now;
    uint32_t i;
    if (!ecs_sched__tracing(w) || !ecs_sched__messages_of(w)) return;
    now = ecs_sched__trace_ticks();
    for (i = 0; i < ecs_sched__messages_of(w)->count; i++) {
        const ecs_sched__queue *q = ecs_sched__messages_of(w)->queues[i];
        if (q->removals || q->count[1] == 0) continue;
        ecs_sched__trace_add(w, ECS_SCHED__TRACE_MESSAGES, w->components[q->id].name, NULL, NULL,
                             now, now, q->count[1]);
    }
}

/* ---- frames ---- */

static ecs_sched_result ecs_sched__trace_write_file(ecs_sched_world *w, const char *path);

/* A frame ended: one more toward the frames asked for; the last stops the recording and
   writes it where the start said. */
static ecs_sched_result ecs_sched__trace_frame_end(ecs_sched_world *w, int64_t begin) {
    ecs_sched__trace *t = ecs_sched__trace_of(w);
    int32_t frame;
    if (!t || !t->running) return ECS_SCHED_OK;
    frame = t->frames++;
    ecs_sched__trace_add(w, ECS_SCHED__TRACE_FRAME, "frame", NULL, NULL, begin,
                         ecs_sched__trace_ticks(), frame);
    if (t->frames_wanted == 0 || t->frames < t->frames_wanted) return ECS_SCHED_OK;
    ecs_sched_trace_stop(w);
    return t->path ? ecs_sched__trace_write_file(w, t->path) : ECS_SCHED_OK;
}

/* ---- reading the recording ---- */

/* The length of the well-formed UTF-8 sequence at c (1 to 4), or 0. */
static int ecs_sched__utf8_length(const unsigned char *c) {
    int length = c[0] < 0x80 ? 1 : c[0] >= 0xc2 && c[0] <= 0xdf ? 2
               : c[0] >= 0xe0 && c[0] <= 0xef ? 3 : c[0] >= 0xf0 && c[0] <= 0xf4 ? 4 : 0;
    int k;
    for (k = 1; k < length; k++) {
        if ((c[k] & 0xc0) != 0x80) return 0;
    }
    if (length == 3 && ((c[0] == 0xe0 && c[1] < 0xa0) || (c[0] == 0xed && c[1] >= 0xa0))) return 0;
    if (length == 4 && ((c[0] == 0xf0 && c[1] < 0x90) || (c[0] == 0xf4 && c[1] >= 0x90))) return 0;
    return length;
}

/* A JSON string: quotes, backslashes and control characters escaped, and a byte that starts
   no well-formed UTF-8 sequence (a name is any bytes) written as U+FFFD, so that the file
   stays valid for strict readers. */
static void ecs_sched__json_string(FILE *out, const char *text) {
    const unsigned char *c = (const unsigned char *)(text ? text : "");
    fputc('"', out);
    while (*c) {
        int length = ecs_sched__utf8_length(c);
        if (*c == '"' || *c == '\\') fprintf(out, "\\%c", *c);
        else if (*c < 0x20) fprintf(out, "\\u%04x", (unsigned)*c);
        else if (length == 0) fputs("\\ufffd", out);
        else fwrite(c, 1, (size_t)length, out);
        c += length ? length : 1;
    }
    fputc('"', out);
}

static const char *const ecs_sched__trace_categories[ECS_SCHED__TRACE_KIND_COUNT] = {
    "frame",    "schedule", "system",  "condition", "sync",     "fixed",
    "transition", "observer", "failure", "skipped", "disabled", "held", "messages"};

/* Microseconds, as Chrome's format counts them, to the nanosecond: from integers, since
   printf's %f writes a decimal comma in some locales. */
static void ecs_sched__json_us(FILE *out, const char *key, double ns) {
    long long whole = (long long)(ns < 0 ? -ns : ns);
    fprintf(out, ",\"%s\":%s%lld.%03lld", key, ns < 0 ? "-" : "", whole / 1000, whole % 1000);
}

/* The members of an event's "args", comma-separated as they come. */
typedef struct ecs_sched__json_args {
    FILE *out;
    bool any;
} ecs_sched__json_args;

static void ecs_sched__arg_key(ecs_sched__json_args *args, const char *key) {
    fprintf(args->out, "%s\"%s\":", args->any ? "," : "", key);
    args->any = true;
}

static void ecs_sched__arg_text(ecs_sched__json_args *args, const char *key, const char *text) {
    if (!text) return;
    ecs_sched__arg_key(args, key);
    ecs_sched__json_string(args->out, text);
}

/* An observer's event: named by the observer while it exists (it may have been removed since
   it ran), with the event and the component in its arguments. */
static void ecs_sched__trace_write_observer_name(FILE *out, const ecs_sched_world *w,
                                                 const ecs_sched__trace_event *e) {
    const char *name = ecs_sched__observer_name(w, (uint32_t)e->arg);
    if (name) ecs_sched__json_string(out, name);
    else fprintf(out, "\"observer %u (removed)\"", (unsigned)e->arg);
}

static void ecs_sched__trace_write_event(FILE *out, const ecs_sched_world *w,
                                         const ecs_sched__trace *t,
                                         const ecs_sched__trace_event *e, double ns_per_tick) {
    ecs_sched__json_args args;
    const char *category = ecs_sched__trace_categories[e->kind];
    bool instant = e->kind >= ECS_SCHED__TRACE_FAILURE;
    fputs(",\n{\"name\":", out);
    if (e->kind == ECS_SCHED__TRACE_FRAME) fprintf(out, "\"frame %d\"", (int)e->arg);
    else if (e->kind == ECS_SCHED__TRACE_FIXED) fprintf(out, "\"fixed step %d\"", (int)e->arg);
    else if (e->kind == ECS_SCHED__TRACE_OBSERVER) ecs_sched__trace_write_observer_name(out, w, e);
    else ecs_sched__json_string(out, e->name);
    fprintf(out, ",\"cat\":\"%s\",\"ph\":\"%s\"", category, instant ? "i" : "X");
    ecs_sched__json_us(out, "ts", (double)(e->begin - t->start_ticks) * ns_per_tick);
    if (instant) fputs(",\"s\":\"t\"", out);
    else ecs_sched__json_us(out, "dur", (double)(e->end - e->begin) * ns_per_tick);
    fprintf(out, ",\"pid\":1,\"tid\":%d,\"args\":{", (int)e->thread);
    args.out = out;
    args.any = false;
    if (e->kind == ECS_SCHED__TRACE_TRANSITION) {
        ecs_sched__arg_text(&args, "from", e->schedule);
        ecs_sched__arg_text(&args, "to", e->detail);
    } else {
        ecs_sched__arg_text(&args, "schedule", e->schedule);
    }
    if (e->kind == ECS_SCHED__TRACE_CONDITION) {
        ecs_sched__arg_key(&args, "result");
        fputs(e->arg & 1 ? "true" : "false", out);
        ecs_sched__arg_text(&args, e->arg & 2 ? "guards_set" : "guards", e->detail);
    } else if (e->kind == ECS_SCHED__TRACE_SYNC || e->kind == ECS_SCHED__TRACE_MESSAGES) {
        ecs_sched__arg_key(&args, e->kind == ECS_SCHED__TRACE_SYNC ? "commands" : "sent");
        fprintf(out, "%d", (int)e->arg);
    } else if (e->kind == ECS_SCHED__TRACE_SKIPPED) {
        ecs_sched__arg_text(&args, "condition", e->detail);
    } else if (e->kind == ECS_SCHED__TRACE_OBSERVER) {
        ecs_sched__arg_text(&args, "event", e->name);
        ecs_sched__arg_text(&args, "component", e->detail);
    } else if (e->kind == ECS_SCHED__TRACE_FRAME || e->kind == ECS_SCHED__TRACE_FIXED) {
        ecs_sched__arg_key(&args, e->kind == ECS_SCHED__TRACE_FRAME ? "frame" : "step");
        fprintf(out, "%d", (int)e->arg);
    }
    fputs("}}", out);
}

/* Writes the recording to `out`, left open: ferror tells whether it went through. */
static void ecs_sched__trace_write_stream(ecs_sched_world *w, FILE *out) {
    ecs_sched__trace *t = ecs_sched__trace_of(w);
    int64_t asked = ecs_sched__trace_asked(t), recorded = asked < t->capacity ? asked : t->capacity;
    int64_t ticks = (t->running ? ecs_sched__trace_ticks() : t->stop_ticks) - t->start_ticks;
    int64_t ns = (t->running ? ecs_sched__system_clock(NULL) : t->stop_ns) - t->start_ns;
    double ns_per_tick = ticks > 0 && ns > 0 ? (double)ns / (double)ticks : 1.0;
    int32_t threads = 1, i;
    int64_t k;
    for (k = 0; k < recorded; k++) {
        if (t->events[k].thread + 1 > threads) threads = t->events[k].thread + 1;
    }
    fprintf(out, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"library\":\"ecs_sched.h\","
                 "\"events_recorded\":%lld,\"events_dropped\":%lld,\"capacity\":%d,"
                 "\"frames\":%d,\"note\":\"%s\"},\n\"traceEvents\":[\n",
            (long long)recorded, (long long)(asked - recorded), (int)t->capacity, (int)t->frames,
            asked > recorded ? "the buffer filled: the newest events were dropped"
                             : "every event was recorded");
    fputs("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"
          "\"args\":{\"name\":\"ecs_sched\"}}", out);
    for (i = 0; i < threads; i++) {
        fprintf(out, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,"
                     "\"args\":{\"name\":\"%s %d\"}}",
                (int)i, i == 0 ? "calling thread" : "worker", (int)i);
    }
    for (k = 0; k < recorded; k++) {
        ecs_sched__trace_write_event(out, w, t, &t->events[k], ns_per_tick);
    }
    fputs("\n]}\n", out);
}

static ecs_sched_result ecs_sched__trace_write_file(ecs_sched_world *w, const char *path) {
    int failed;
    FILE *out = fopen(path, "w");
    if (!out) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "trace_write: cannot open '%s' for writing", path);
    }
    ecs_sched__trace_write_stream(w, out);
    failed = ferror(out);
    if (fclose(out) != 0 || failed) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "trace_write: writing '%s' failed (disk full?)", path);
    }
    return ECS_SCHED_OK;
}

/* ---- the API ---- */

/* Whether anything watches the runs: the executors take their watched paths. */
static void ecs_sched__watch_update(ecs_sched_world *w) {
    w->watched = ecs_sched__tracing(w) || w->stats_on || w->outcomes_on ||
                 w->disabled_systems > 0 || w->stepping_schedules > 0;
}

static bool ecs_sched__refused_while_running(ecs_sched_world *w, const char *what) {
    if (!ecs_sched__schedules_of(w) || ecs_sched__schedules_of(w)->depth == 0) return false;
    ecs_sched__fail(&w->env, ECS_SCHED_ERR_SCHEDULE_RUNNING,
                    "%s: schedule '%s' is running; call it between runs", what,
                    ecs_sched__schedules_of(w)->stack[ecs_sched__schedules_of(w)->depth - 1]->label);
    return true;
}

static void ecs_sched__trace_free(ecs_sched_world *w) {
    if (!ecs_sched__trace_of(w)) return;
    ecs_sched__free(&w->env, ecs_sched__trace_of(w)->events);
    ecs_sched__free(&w->env, ecs_sched__trace_of(w)->path);
    ecs_sched__free(&w->env, ecs_sched__trace_of(w));
    ecs_sched__part_set(w, &ecs_sched__trace_key, NULL);
}

static ecs_sched_result ecs_sched__check_trace_desc(ecs_sched_world *w,
                                                    const ecs_sched_trace_desc *d) {
    if (d->capacity < 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "trace_start: capacity %d is negative; give the events the "
                               "buffer holds (0: %d)",
                               (int)d->capacity, ECS_SCHED__TRACE_DEFAULT_CAPACITY);
    }
    if (d->frames < 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "trace_start: frames %d is negative (0: until trace_stop)",
                               (int)d->frames);
    }
    if (d->path && !*d->path) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "trace_start: the path is empty; give a file name, or NULL");
    }
    if (d->path && !d->frames) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "trace_start: a path ('%s') is written when the trace stops by "
                               "itself, after `frames` frames: set frames too, or call "
                               "trace_write",
                               d->path);
    }
    if (ecs_sched__trace_of(w) && ecs_sched__trace_of(w)->running) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "trace_start: a trace is running already; stop it first");
    }
    return ECS_SCHED_OK;
}

/* A recording's buffer: the last one, when it holds as many events (they are discarded), else
   a new one; NULL when out of memory. */
static ecs_sched__trace *ecs_sched__trace_buffer(ecs_sched_world *w, int32_t capacity) {
    ecs_sched__trace *t = ecs_sched__trace_of(w);
    ecs_sched__trace_event *events;
    if (t && t->capacity == capacity) return t;
    if ((size_t)capacity > SIZE_MAX / sizeof *events) return NULL;
    t = (ecs_sched__trace *)ecs_sched__calloc(&w->env, sizeof *t);
    events = (ecs_sched__trace_event *)ecs_sched__alloc(&w->env,
                                                        sizeof *events * (size_t)capacity);
    if (!t || !events) {
        ecs_sched__free(&w->env, t);
        ecs_sched__free(&w->env, events);
        return NULL;
    }
    ecs_sched__trace_free(w);
    t->events = events;
    t->capacity = capacity;
    ecs_sched__part_set(w, &ecs_sched__trace_key, t);
    return t;
}

ecs_sched_result ecs_sched_trace_start(ecs_sched_world *w, const ecs_sched_trace_desc *desc) {
    ecs_sched_trace_desc d;
    ecs_sched__trace *t;
    ecs_sched_result result;
    char *path;
    ECS_SCHED__CHECK_WORLD(w);
    if (desc) d = *desc;
    else memset(&d, 0, sizeof d);
    if (ecs_sched__refused_while_running(w, "trace_start")) return ECS_SCHED_ERR_SCHEDULE_RUNNING;
    result = ecs_sched__check_trace_desc(w, &d);
    if (result != ECS_SCHED_OK) return result;
    if (!d.capacity) d.capacity = ECS_SCHED__TRACE_DEFAULT_CAPACITY;
    path = d.path ? ecs_sched__strdup(&w->env, d.path) : NULL;
    t = d.path && !path ? NULL : ecs_sched__trace_buffer(w, d.capacity);
    if (!t) {
        ecs_sched__free(&w->env, path);
        return ecs_sched__out_of_memory(w, "starting a trace");
    }
    ecs_sched__free(&w->env, t->path);
    t->path = path;
#ifdef ECS_SCHED_THREADS
    atomic_store_explicit(&t->next, 0, memory_order_relaxed);
#else
    t->next = 0;
#endif
    t->frames_wanted = d.frames;
    t->frames = 0;
    t->in_app_frame = false;
    t->start_ticks = ecs_sched__trace_ticks();
    t->start_ns = ecs_sched__system_clock(NULL);
    t->running = true;
    ecs_sched__watch_clock_start(w);
    ecs_sched__watch_update(w);
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_trace_stop(ecs_sched_world *w) {
    ecs_sched__trace *t;
    ECS_SCHED__CHECK_WORLD(w);
    t = ecs_sched__trace_of(w);
    if (!t || !t->running) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "trace_stop: no trace is running");
    }
    if (ecs_sched__refused_while_running(w, "trace_stop")) return ECS_SCHED_ERR_SCHEDULE_RUNNING;
    t->stop_ticks = ecs_sched__trace_ticks();
    t->stop_ns = ecs_sched__system_clock(NULL);
    t->running = false;
    ecs_sched__watch_update(w);
    return ECS_SCHED_OK;
}

ecs_sched_trace_info ecs_sched_trace_get_info(const ecs_sched_world *w) {
    ecs_sched_trace_info info;
    ecs_sched__trace *t;
    ECS_SCHED__CHECK_WORLD(w);
    t = ecs_sched__trace_of(w);
    memset(&info, 0, sizeof info);
    if (!t) return info;
    info.running = t->running;
    info.capacity = t->capacity;
    info.frames = t->frames;
    info.recorded = ecs_sched__trace_asked(t);
    if (info.recorded > t->capacity) {
        info.dropped = info.recorded - t->capacity;
        info.recorded = t->capacity;
    }
    return info;
}

ecs_sched_result ecs_sched_trace_write(ecs_sched_world *w, const char *path) {
    ECS_SCHED__CHECK_WORLD(w);
    if (!path || !*path) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "trace_write: no path given");
    }
    if (!ecs_sched__trace_of(w)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "trace_write: nothing was recorded; call trace_start first");
    }
    if (ecs_sched__refused_while_running(w, "trace_write")) return ECS_SCHED_ERR_SCHEDULE_RUNNING;
    return ecs_sched__trace_write_file(w, path);
}

/* ---- finding a system by name ---- */

/* The one system named `system` in schedule `schedule`, or NULL (the error says why). */
static ecs_sched__system *ecs_sched__system_named(ecs_sched_world *w, const char *schedule,
                                                  const char *system, const char *what,
                                                  ecs_sched__schedule **in) {
    ecs_sched__schedule *s = ecs_sched__schedule_known(w, schedule);
    ecs_sched__system *found = NULL;
    int32_t count = 0;
    uint32_t i;
    if (!s) return NULL;
    for (i = 0; i < s->system_count; i++) {
        ecs_sched__system *sys = s->systems[i];
        if (system && strcmp(s->names[sys->name].text, system) == 0) {
            if (!found) found = sys;
            count++;
        }
    }
    if (!found) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_NOT_FOUND,
                        "%s: schedule '%s' has no system named '%s'", what, schedule,
                        system ? system : "(null)");
    } else if (count > 1) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_DUPLICATE_NAME,
                        "%s: schedule '%s' has %d systems named '%s'; give them names of "
                        "their own",
                        what, schedule, (int)count, system);
        found = NULL;
    }
    if (in) *in = s;
    return found;
}

/* A sync point (apply_deferred) is not a system that runs: it is neither switched off nor
   stepped. */
static ecs_sched_result ecs_sched__refuse_sync_point(ecs_sched_world *w, const char *schedule,
                                                     const char *system, const char *what) {
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "%s: '%s' in schedule '%s' is an apply_deferred sync point, which "
                           "always applies the pending commands",
                           what, system, schedule);
}

/* ---- statistics ---- */

static void ecs_sched__each_system_watch_reset_stats(ecs_sched_world *w) {
    uint32_t i, k;
    if (!ecs_sched__schedules_of(w)) return;
    for (i = 0; i < ecs_sched__schedules_of(w)->count; i++) {
        ecs_sched__schedule *s = ecs_sched__schedules_of(w)->items[i];
        for (k = 0; k < s->system_count; k++) {
            memset(&s->systems[k]->watch.stats, 0, sizeof s->systems[k]->watch.stats);
        }
    }
}

void ecs_sched_stats_enable(ecs_sched_world *w, bool on) {
    ECS_SCHED__CHECK_WORLD(w);
    if (on && !w->stats_on) ecs_sched__each_system_watch_reset_stats(w);
    if (on) ecs_sched__watch_clock_start(w);
    w->stats_on = on;
    ecs_sched__watch_update(w);
}

ecs_sched_result ecs_sched_system_stats_get(ecs_sched_world *w, const char *schedule,
                                           const char *system, ecs_sched_system_stats *out) {
    ecs_sched__system *sys;
    ECS_SCHED__CHECK_WORLD(w);
    ECS_SCHED_ASSERT(out != NULL);
    memset(out, 0, sizeof *out);
    sys = ecs_sched__system_named(w, schedule, system, "system_stats_get", NULL);
    if (!sys) return w->env.last_result;
    {
        /* one rate for the three, and the total kept between runs * min and runs * max, which
           the ticks are in and a rounding of each figure alone could leave */
        double rate = ecs_sched__ns_per_tick(w);
        int64_t runs = sys->watch.stats.runs;
        out->runs = runs;
        out->total_ns = ecs_sched__ticks_in_ns(sys->watch.stats.total, rate);
        out->min_ns = ecs_sched__ticks_in_ns(sys->watch.stats.min, rate);
        out->max_ns = ecs_sched__ticks_in_ns(sys->watch.stats.max, rate);
        if (runs > 0 && out->total_ns < runs * out->min_ns) out->total_ns = runs * out->min_ns;
        if (runs > 0 && out->total_ns > runs * out->max_ns) out->total_ns = runs * out->max_ns;
    }
    return ECS_SCHED_OK;
}

/* ---- outcomes ---- */

void ecs_sched_outcomes_enable(ecs_sched_world *w, bool on) {
    ECS_SCHED__CHECK_WORLD(w);
    w->outcomes_on = on;
    ecs_sched__watch_update(w);
}

const char *ecs_sched_outcome_string(ecs_sched_outcome outcome) {
    switch (outcome) {
    case ECS_SCHED_OUTCOME_NOT_REACHED: return "not reached";
    case ECS_SCHED_OUTCOME_RAN: return "ran";
    case ECS_SCHED_OUTCOME_SKIPPED: return "skipped";
    case ECS_SCHED_OUTCOME_DISABLED: return "disabled";
    case ECS_SCHED_OUTCOME_HELD: return "held";
    }
    return "?";
}

static ecs_sched_system_outcome ecs_sched__outcome_of(const ecs_sched__schedule *s,
                                                     ecs_sched__system *sys) {
    const ecs_sched_world *w = s->world;
    const ecs_sched__system_watch *watch = &sys->watch;
    ecs_sched_system_outcome o;
    memset(&o, 0, sizeof o);
    o.system = sys->ctx.run.name;
    o.ns = -1;
    if (watch->run != s->watch_run) return o;
    o.outcome = (ecs_sched_outcome)watch->outcome;
    o.condition = watch->condition;
    o.set = watch->set;
    o.ns = ecs_sched__ticks_to_ns(w, watch->ticks);
    o.thread = watch->thread;
    return o;
}

int32_t ecs_sched_what_ran(ecs_sched_world *w, const char *schedule,
                           ecs_sched_system_outcome *out, int32_t capacity) {
    ecs_sched__schedule *s;
    int32_t count = 0, p;
    ECS_SCHED__CHECK_WORLD(w);
    s = ecs_sched__schedule_known(w, schedule);
    if (!s) return -1;
    if (!ecs_sched__plan_of(s) || s->watch_run == 0) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "what_ran: no run of schedule '%s' was recorded; switch on outcomes, "
                        "statistics or a trace before running it",
                        schedule);
        return -1;
    }
    for (p = 0; p < ecs_sched__plan_of(s)->node_count; p++) {
        ecs_sched__system *sys = ecs_sched__plan_of(s)->nodes[p].system;
        if (!sys || sys->is_apply_deferred) continue;
        if (out && count < capacity) out[count] = ecs_sched__outcome_of(s, sys);
        count++;
    }
    return count;
}

ecs_sched_result ecs_sched_what_ran_log(ecs_sched_world *w, const char *schedule) {
    ecs_sched_system_outcome *outcomes;
    int32_t count = ecs_sched_what_ran(w, schedule, NULL, 0), i;
    if (count < 0) return w->env.last_result;
    outcomes = (ecs_sched_system_outcome *)ecs_sched__alloc(&w->env, sizeof *outcomes *
                                                                          (size_t)(count + 1));
    if (!outcomes) return ecs_sched__out_of_memory(w, "listing what ran");
    ecs_sched_what_ran(w, schedule, outcomes, count);
    ecs_sched__logf(&w->env, ECS_SCHED_LOG_INFO, ECS_SCHED_OK, "what ran in '%s', in plan order:",
                    schedule);
    for (i = 0; i < count; i++) {
        const ecs_sched_system_outcome *o = &outcomes[i];
        char timing[48] = "";
        if (o->ns >= 0) snprintf(timing, sizeof timing, " in %lld ns", (long long)o->ns);
        ecs_sched__logf(&w->env, ECS_SCHED_LOG_INFO, ECS_SCHED_OK, "  %-24s %s%s%s%s%s%s%s",
                        o->system, ecs_sched_outcome_string(o->outcome), timing,
                        o->condition ? " by condition '" : "", o->condition ? o->condition : "",
                        o->condition ? "'" : "", o->set ? " of set " : "", o->set ? o->set : "");
    }
    ecs_sched__free(&w->env, outcomes);
    return ECS_SCHED_OK;
}

/* ---- systems switched off ---- */

ecs_sched_result ecs_sched_system_set_enabled(ecs_sched_world *w, const char *schedule,
                                             const char *system, bool enabled) {
    ecs_sched__system *sys;
    ECS_SCHED__CHECK_WORLD(w);
    sys = ecs_sched__system_named(w, schedule, system, "system_set_enabled", NULL);
    if (!sys) return w->env.last_result;
    if (sys->is_apply_deferred) return ecs_sched__refuse_sync_point(w, schedule, system,
                                                                    "system_set_enabled");
    if (sys->watch.disabled == !enabled) return ECS_SCHED_OK;
    sys->watch.disabled = !enabled;
    w->disabled_systems += enabled ? -1 : 1;
    ecs_sched__watch_update(w);
    return ECS_SCHED_OK;
}

bool ecs_sched_system_enabled(ecs_sched_world *w, const char *schedule, const char *system) {
    ecs_sched__system *sys;
    ECS_SCHED__CHECK_WORLD(w);
    sys = ecs_sched__system_named(w, schedule, system, "system_enabled", NULL);
    return sys && !sys->watch.disabled;
}

#endif /* ECS_SCHED_TRACE */
