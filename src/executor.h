/* executor: running a built plan on a world. */

/* Runs a stored schedule: builds it first when it is new or changed, then runs its systems in
   plan order, evaluating conditions as it goes, applying commands at sync points and once
   more at the end. Works from an exclusive system too (nested runs), but a schedule cannot
   run while it is already running. */
ECS_SCHED_API ecs_sched_result ecs_sched_run_schedule(ecs_sched_world *world,
                                                     const char *schedule);
/* The sync-point system: use it as a system's fn. When it runs, the pending commands of every
   system of the schedule are applied, in plan order. */
ECS_SCHED_API void ecs_sched_apply_deferred(ecs_sched_system_ctx *ctx);

/*@@ implementation @@*/
/* executor: running a built plan on a world. */

void ecs_sched_apply_deferred(ecs_sched_system_ctx *ctx) {
    (void)ctx;  /* the executor applies the buffers when it reaches this system */
}

/* Applies the pending commands of the schedule's systems, in plan order. The first failure is
   kept in *first_error; the commands it left stay pending for the next sync point. */
static void ecs_sched__apply_pending(ecs_sched__plan *plan, ecs_sched_result *first_error) {
    int32_t i;
    for (i = 0; i < plan->writer_count; i++) {
        ecs_sched_commands *cmd = plan->writers[i]->system->ctx.commands;
        ecs_sched_result result;
        if (ecs_sched_commands_pending(cmd) == 0) continue;
        result = ecs_sched_commands_apply(cmd);
        if (result != ECS_SCHED_OK && *first_error == ECS_SCHED_OK) *first_error = result;
    }
}

/* All of a node's conditions are evaluated (each at most once per run), then combined. */
static bool ecs_sched__conditions_hold(const ecs_sched__schedule *s, int32_t start, int32_t count,
                                       ecs_sched_result *violation) {
    bool all = true;
    int32_t i;
    for (i = 0; i < count; i++) {
        if (!ecs_sched__cond_eval(&s->conds, s->plan.conds[start + i], violation)) all = false;
    }
    return all;
}

/* Whether a node runs: the conditions of its sets, outermost first and each set once per run,
   then its own. */
static bool ecs_sched__node_may_run(ecs_sched__schedule *s, const ecs_sched__plan_node *pn,
                                    ecs_sched_result *violation) {
    ecs_sched__plan *plan = &s->plan;
    int32_t i;
    for (i = 0; i < pn->guard_set_count; i++) {
        int32_t set = plan->guard_sets[pn->guard_set_start + i];
        if (plan->set_state[set] == 0) {
            const ecs_sched__plan_set *ps = &plan->sets[set];
            plan->set_state[set] =
                ecs_sched__conditions_hold(s, ps->cond_start, ps->cond_count, violation) ? 1 : 2;
        }
        if (plan->set_state[set] == 2) return false;
    }
    return pn->cond_count == 0 ||
           ecs_sched__conditions_hold(s, pn->cond_start, pn->cond_count, violation);
}

static ecs_sched_result ecs_sched__execute(ecs_sched_world *w, ecs_sched__schedule *s) {
    ecs_sched__plan *plan = &s->plan;
    ecs_sched_result error = ECS_SCHED_OK, violation = ECS_SCHED_OK;
    int32_t p;
    (void)w;
    if (plan->set_count) memset(plan->set_state, 0, (size_t)plan->set_count);
    for (p = 0; p < plan->node_count; p++) {
        const ecs_sched__plan_node *pn = &plan->nodes[p];
        ecs_sched__system *sys = pn->system;
        if (!sys) {
            ecs_sched__apply_pending(plan, &error);
            continue;
        }
        if ((pn->guard_set_count || pn->cond_count) && !ecs_sched__node_may_run(s, pn, &violation)) {
            continue;
        }
        if (pn->sync) {
            ecs_sched__apply_pending(plan, &error);
            continue;
        }
        sys->fn(&sys->ctx);
        if (sys->ctx.violation != ECS_SCHED_OK) {
            if (violation == ECS_SCHED_OK) violation = sys->ctx.violation;
            sys->ctx.violation = ECS_SCHED_OK;
        }
    }
    ecs_sched__apply_pending(plan, &error);
    return error != ECS_SCHED_OK ? error : violation;
}

ecs_sched_result ecs_sched_run_schedule(ecs_sched_world *w, const char *label) {
    ecs_sched__schedules *all;
    ecs_sched__schedule *s;
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    s = ecs_sched__schedule_known(w, label);
    if (!s) return w->env.last_result;
    all = (ecs_sched__schedules *)w->schedules;
    if (s->running) {
        ecs_sched__text text;
        int32_t i;
        ecs_sched__text_init(&text, &w->env);
        ecs_sched__text_printf(&text, "schedule '%s' is run while it is already running (", s->label);
        for (i = 0; i < all->depth; i++) ecs_sched__text_printf(&text, "%s -> ", all->stack[i]->label);
        ecs_sched__text_printf(&text, "%s); a schedule cannot run itself, directly or through "
                                      "other schedules",
                               s->label);
        result = ecs_sched__fail_text(&w->env, ECS_SCHED_ERR_RECURSIVE_RUN,
                                      text.data ? text.data : "schedule runs itself");
        ecs_sched__text_free(&text);
        return result;
    }
    if (all->depth >= ECS_SCHED__MAX_NESTED_RUNS) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_LIMIT,
                               "running schedule '%s' would nest more than %d schedule runs",
                               s->label, ECS_SCHED__MAX_NESTED_RUNS);
    }
    result = ecs_sched__ensure_built(w, s);
    if (result != ECS_SCHED_OK) return result;
    s->running = true;
    all->stack[all->depth++] = s;
    result = ecs_sched__execute(w, s);
    all->depth--;
    s->running = false;
    return result;
}
