/* dot: Graphviz export of a built schedule. */
#pragma once
#include "plan.h"

/* Writes the built schedule as a Graphviz digraph, piece by piece, through `write`. */
ECS_SCHED_API ecs_sched_result ecs_sched_schedule_write_dot(
    ecs_sched_world *world, const char *schedule,
    void (*write)(const char *text, void *user_data), void *user_data);

/*@@ implementation @@*/
/* dot: Graphviz export of a built schedule. */

/* ---- Graphviz export ---- */

typedef struct ecs_sched__dot {
    void (*write)(const char *text, void *user_data);
    void *user_data;
} ecs_sched__dot;

static void ecs_sched__dot_printf(ecs_sched__dot *d, const char *fmt, ...) {
    char text[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    d->write(text, d->user_data);
}

/* A name as a DOT string body: quotes and backslashes escaped. */
static const char *ecs_sched__dot_escape(const char *name, char *out, size_t n) {
    size_t o = 0;
    for (; *name && o + 2 < n; name++) {
        if (*name == '"' || *name == '\\') out[o++] = '\\';
        out[o++] = *name;
    }
    out[o] = '\0';
    return out;
}

static void ecs_sched__dot_conditions(ecs_sched__dot *d, const ecs_sched__schedule *s,
                                      int32_t start, int32_t count) {
    char name[128];
    int32_t i;
    for (i = 0; i < count; i++) {
        ecs_sched__dot_printf(d, "%s%s", i ? ", " : "\\nrun_if: ",
                              ecs_sched__dot_escape(s->conds.items[s->plan->conds[start + i]]->name,
                                                    name, sizeof name));
    }
}

static void ecs_sched__dot_node(ecs_sched__dot *d, const ecs_sched__schedule *s, int32_t p) {
    const ecs_sched__plan_node *pn = &s->plan->nodes[p];
    char name[128];
    if (!pn->system) {
        ecs_sched__dot_printf(d, "    n%d [label=\"apply_deferred\\n(automatic sync point)\", "
                                 "shape=octagon, style=filled, fillcolor=gold];\n", (int)p);
        return;
    }
    ecs_sched__dot_printf(d, "    n%d [label=\"%s", (int)p,
                          ecs_sched__dot_escape(pn->system->ctx.name, name, sizeof name));
    if (pn->exclusive && !pn->sync) ecs_sched__dot_printf(d, "\\n(exclusive)");
    if (pn->system->ctx.commands) ecs_sched__dot_printf(d, "\\n(records commands)");
    ecs_sched__dot_conditions(d, s, pn->cond_start, pn->cond_count);
    ecs_sched__dot_printf(d, "\"%s];\n", pn->sync ? ", shape=octagon, style=filled, fillcolor=gold"
                                                  : "");
}

static void ecs_sched__dot_cluster(ecs_sched__dot *d, const ecs_sched__schedule *s, int32_t c,
                                   int depth) {
    const ecs_sched__plan *plan = s->plan;
    char name[128];
    int32_t i, k;
    if (depth > 64) return;
    ecs_sched__dot_printf(d, "  subgraph cluster_%d {\n    label=\"%s", (int)c,
                          ecs_sched__dot_escape(s->names[plan->cluster_name[c]].text, name,
                                                sizeof name));
    for (k = 0; k < plan->set_count; k++) {
        if (plan->sets[k].name == plan->cluster_name[c]) {
            ecs_sched__dot_conditions(d, s, plan->sets[k].cond_start, plan->sets[k].cond_count);
        }
    }
    ecs_sched__dot_printf(d, "\";\n    style=rounded;\n");
    for (i = 0; i < plan->cluster_count; i++) {
        if (plan->cluster_parent[i] == c) ecs_sched__dot_cluster(d, s, i, depth + 1);
    }
    for (i = 0; i < plan->node_count; i++) {
        if (plan->node_cluster[i] == c) ecs_sched__dot_node(d, s, i);
    }
    ecs_sched__dot_printf(d, "  }\n");
}

ecs_sched_result ecs_sched_schedule_write_dot(ecs_sched_world *w, const char *label,
                                              void (*write)(const char *text, void *user_data),
                                              void *user_data) {
    ecs_sched__schedule *s;
    const ecs_sched__plan *plan;
    ecs_sched__dot d;
    char name[128];
    int32_t i, e;
    ECS_SCHED__CHECK_WORLD(w);
    if (!write) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "schedule_write_dot: needs a write function");
    }
    s = ecs_sched__schedule_known(w, label);
    if (!s) return w->env.last_result;
    if (ecs_sched__ensure_built(w, s) != ECS_SCHED_OK) return w->env.last_result;
    plan = s->plan;
    d.write = write;
    d.user_data = user_data;
    ecs_sched__dot_printf(&d, "digraph \"%s\" {\n  compound=true;\n  rankdir=LR;\n"
                              "  node [shape=box, fontname=\"Helvetica\"];\n",
                          ecs_sched__dot_escape(s->label, name, sizeof name));
    for (i = 0; i < plan->cluster_count; i++) {
        if (plan->cluster_parent[i] < 0) ecs_sched__dot_cluster(&d, s, i, 0);
    }
    for (i = 0; i < plan->node_count; i++) {
        if (plan->node_cluster[i] < 0) ecs_sched__dot_node(&d, s, i);
    }
    for (e = 0; e < plan->drawn_count; e++) {
        ecs_sched__dot_printf(&d, "  n%d -> n%d;\n", (int)plan->drawn[2 * e],
                              (int)plan->drawn[2 * e + 1]);
    }
    for (i = 0; i < plan->ambiguous_count; i++) {
        ecs_sched__dot_printf(&d, "  n%d -> n%d [dir=none, style=dashed, color=red, "
                                  "constraint=false, label=\"ambiguous\", fontcolor=red];\n",
                              (int)plan->ambiguous[2 * i], (int)plan->ambiguous[2 * i + 1]);
    }
    ecs_sched__dot_printf(&d, "}\n");
    return ECS_SCHED_OK;
}
