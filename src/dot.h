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

/* What only a drawing needs, worked out by the export from a build of its own: the set
   hierarchy as clusters (a tree of first parents) and the configured edges no other of them
   implies (without the edges that only bind the parallel order). */
typedef struct ecs_sched__drawing {
    int32_t cluster_count;        /* every set: its name and first parent, or -1 */
    int32_t *cluster_name;
    int32_t *cluster_parent;
    int32_t *node_cluster;        /* per plan position: the first set it is in, or -1 */
    int32_t edge_count;
    int32_t *edges;               /* pairs of plan positions */
} ecs_sched__drawing;

typedef struct ecs_sched__dot {
    void (*write)(const char *text, void *user_data);
    void *user_data;
    const ecs_sched__schedule *s;
    const ecs_sched__plan *plan;
    ecs_sched__drawing drawing;
} ecs_sched__dot;

/* The first set node v is directly in, as a set number, or -1. */
static int32_t ecs_sched__first_parent(const ecs_sched__build *b, int32_t v) {
    const ecs_sched__csr *p = &b->parents;
    return p->start[v] < p->start[v + 1] ? p->adj[p->start[v]] - b->system_count : -1;
}

static bool ecs_sched__draw_clusters(ecs_sched__build *b, ecs_sched__drawing *d) {
    int32_t S = b->system_count, i;
    d->cluster_count = b->set_count;
    d->cluster_name = ECS_SCHED__ALLOC_N(b, int32_t, b->set_count);
    d->cluster_parent = ECS_SCHED__ALLOC_N(b, int32_t, b->set_count);
    d->node_cluster = ECS_SCHED__ALLOC_N(b, int32_t, b->plan_node_count);
    if (!d->cluster_name || !d->cluster_parent || !d->node_cluster) return false;
    for (i = 0; i < b->set_count; i++) {
        d->cluster_name[i] = b->name_of_set[i];
        d->cluster_parent[i] = ecs_sched__first_parent(b, S + i);
    }
    for (i = 0; i < b->plan_node_count; i++) {
        d->node_cluster[b->plan_position[i]] = i < S ? ecs_sched__first_parent(b, i) : -1;
    }
    return true;
}

static bool ecs_sched__draw_edges(ecs_sched__build *b, ecs_sched__drawing *d) {
    const ecs_sched__csr *g = &b->plan_edges;
    int32_t N = b->plan_node_count, at = 0, p, e;
    const uint8_t *keep = ecs_sched__reduced_edges(b, g, b->plan_order, b->plan_position, N);
    if (!keep) return false;
    for (e = 0; e < g->start[N]; e++) d->edge_count += keep[e];
    d->edges = ECS_SCHED__ALLOC_N(b, int32_t, 2 * (int64_t)d->edge_count);
    if (!d->edges) return false;
    for (p = 0; p < N; p++) {
        int32_t v = b->plan_order[p];
        for (e = g->start[v]; e < g->start[v + 1]; e++) {
            if (!keep[e]) continue;
            d->edges[at++] = p;
            d->edges[at++] = b->plan_position[g->adj[e]];
        }
    }
    return true;
}

static void ecs_sched__dot_printf(ecs_sched__dot *d, const char *fmt, ...)
    ECS_SCHED__PRINTF(2, 3);
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

static void ecs_sched__dot_conditions(ecs_sched__dot *d, int32_t start, int32_t count) {
    char name[128];
    int32_t i;
    for (i = 0; i < count; i++) {
        const ecs_sched__cond *c = d->s->conds.items[d->plan->conds[start + i]];
        ecs_sched__dot_printf(d, "%s%s", i ? ", " : "\\nrun_if: ",
                              ecs_sched__dot_escape(c->name, name, sizeof name));
    }
}

static void ecs_sched__dot_node(ecs_sched__dot *d, int32_t p) {
    const ecs_sched__plan_node *pn = &d->plan->nodes[p];
    char name[128];
    if (!pn->system) {
        ecs_sched__dot_printf(d, "    n%d [label=\"apply_deferred\\n(automatic sync point)\", "
                                 "shape=octagon, style=filled, fillcolor=gold];\n", (int)p);
        return;
    }
    ecs_sched__dot_printf(d, "    n%d [label=\"%s", (int)p,
                          ecs_sched__dot_escape(pn->system->ctx.run.name, name, sizeof name));
    if (pn->exclusive && !pn->sync) ecs_sched__dot_printf(d, "\\n(exclusive)");
    if (pn->system->ctx.commands) ecs_sched__dot_printf(d, "\\n(records commands)");
    ecs_sched__dot_conditions(d, pn->cond_start, pn->cond_count);
    ecs_sched__dot_printf(d, "\"%s];\n", pn->sync ? ", shape=octagon, style=filled, fillcolor=gold"
                                                  : "");
}

static void ecs_sched__dot_cluster(ecs_sched__dot *d, int32_t c, int depth) {
    const ecs_sched__schedule *s = d->s;
    const ecs_sched__plan *plan = d->plan;
    const ecs_sched__drawing *drawing = &d->drawing;
    char name[128];
    int32_t i, k;
    if (depth > 64) return;
    ecs_sched__dot_printf(d, "  subgraph cluster_%d {\n    label=\"%s", (int)c,
                          ecs_sched__dot_escape(s->names[drawing->cluster_name[c]].text, name,
                                                sizeof name));
    for (k = 0; k < plan->set_count; k++) {
        if (plan->sets[k].name == drawing->cluster_name[c]) {
            ecs_sched__dot_conditions(d, plan->sets[k].cond_start, plan->sets[k].cond_count);
        }
    }
    ecs_sched__dot_printf(d, "\";\n    style=rounded;\n");
    for (i = 0; i < drawing->cluster_count; i++) {
        if (drawing->cluster_parent[i] == c) ecs_sched__dot_cluster(d, i, depth + 1);
    }
    for (i = 0; i < plan->node_count; i++) {
        if (drawing->node_cluster[i] == c) ecs_sched__dot_node(d, i);
    }
    ecs_sched__dot_printf(d, "  }\n");
}

static void ecs_sched__dot_write(ecs_sched__dot *d) {
    const ecs_sched__plan *plan = d->plan;
    const ecs_sched__drawing *drawing = &d->drawing;
    char name[128];
    int32_t i;
    ecs_sched__dot_printf(d, "digraph \"%s\" {\n  compound=true;\n  rankdir=LR;\n"
                             "  node [shape=box, fontname=\"Helvetica\"];\n",
                          ecs_sched__dot_escape(d->s->label, name, sizeof name));
    for (i = 0; i < drawing->cluster_count; i++) {
        if (drawing->cluster_parent[i] < 0) ecs_sched__dot_cluster(d, i, 0);
    }
    for (i = 0; i < plan->node_count; i++) {
        if (drawing->node_cluster[i] < 0) ecs_sched__dot_node(d, i);
    }
    for (i = 0; i < drawing->edge_count; i++) {
        ecs_sched__dot_printf(d, "  n%d -> n%d;\n", (int)drawing->edges[2 * i],
                              (int)drawing->edges[2 * i + 1]);
    }
    for (i = 0; i < plan->ambiguous_count; i++) {
        ecs_sched__dot_printf(d, "  n%d -> n%d [dir=none, style=dashed, color=red, "
                                 "constraint=false, label=\"ambiguous\", fontcolor=red];\n",
                              (int)plan->ambiguous[2 * i], (int)plan->ambiguous[2 * i + 1]);
    }
    ecs_sched__dot_printf(d, "}\n");
}

/* The schedule is built first, as by a run, so that its errors and warnings come as usual.
   The drawing then comes from a second build of its own, quiet, whose plan is the same:
   what only a drawing needs is not kept by every build. */
ecs_sched_result ecs_sched_schedule_write_dot(ecs_sched_world *w, const char *label,
                                              void (*write)(const char *text, void *user_data),
                                              void *user_data) {
    ecs_sched__schedule *s;
    ecs_sched__plan *plan;
    ecs_sched__build b;
    ecs_sched__dot d;
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    if (!write) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "schedule_write_dot: needs a write function");
    }
    s = ecs_sched__schedule_known(w, label);
    if (!s) return w->env.last_result;
    if (ecs_sched__ensure_built(w, s) != ECS_SCHED_OK) return w->env.last_result;
    plan = ecs_sched__plan_create(w);
    if (!plan) return ecs_sched__out_of_memory(w, "drawing a schedule");
    ecs_sched__build_begin(&b, w, s);
    b.quiet = true;
    result = ecs_sched__build_passes(&b, plan);
    memset(&d, 0, sizeof d);
    if (result == ECS_SCHED_OK &&
        (!ecs_sched__draw_clusters(&b, &d.drawing) || !ecs_sched__draw_edges(&b, &d.drawing))) {
        result = ecs_sched__out_of_memory(w, "drawing a schedule");
    }
    if (result == ECS_SCHED_OK) {
        d.write = write;
        d.user_data = user_data;
        d.s = s;
        d.plan = plan;
        ecs_sched__dot_write(&d);
    }
    ecs_sched__build_end(&b);
    ecs_sched__plan_free(&w->env, plan);
    return result;
}
