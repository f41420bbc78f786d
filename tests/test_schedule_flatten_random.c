/* Random schedules against a reference flattening. Each draws systems (some recording
   commands, some exclusive, some explicit apply_deferred), nested sets of which many hold no
   system, orderings between any of them (some ignoring deferred commands, some against the
   drawn order, so that cycles happen) and chains of sets. The reference flattens the graph the
   way Bevy's scheduler does: each set in turn is replaced, its predecessors joined to its
   systems and its systems to its successors, or, when it holds no system, its predecessors
   joined straight to its successors; a joined edge ignores deferred commands only when both
   its halves do. Then:
     - the build fails with ECS_SCHED_ERR_DEPENDENCY_CYCLE exactly when the orderings as
       configured (among systems and sets) or the flattened graph have a cycle, and succeeds
       otherwise;
     - every flattened edge holds in the plan;
     - a sync point lies between a system with commands and every system after it along a
       path with an ordering that keeps the commands (or ending at an exclusive system).
   RANDOM_SCHEDULES=n in the environment sets how many are drawn (default 10000). */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schedule_fixture.h"

#define MAX_SYS 14
#define MAX_SETS 8
#define MAX_NODES (MAX_SYS + MAX_SETS)
#define MAX_EDGES 40

enum { PLAIN, EXCLUSIVE, SYNC };

typedef struct edge {
    int from, to;   /* nodes: systems 0 .. systems-1, then the sets */
    bool ignore;
} edge;

typedef struct drawn {
    int systems, sets;
    int kind[MAX_SYS];
    bool commands[MAX_SYS];
    int in_sets[MAX_SYS][2];
    int in_set_count[MAX_SYS];
    int parent[MAX_SETS];        /* -1: at the top */
    int edge_count;
    edge edges[MAX_EDGES];       /* the chained sets' orderings included */
    int chain[MAX_SETS];
    int chain_length;
    bool chain_ignore;
    bool sets_first;             /* configure the sets before adding the systems */
    uint64_t shuffle_seed;
} drawn;

static uint64_t next_random(uint64_t *state) {
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

static int below(uint64_t *rng, int n) {
    return (int)(next_random(rng) % (uint64_t)n);
}

static bool chance(uint64_t *rng, int percent) {
    return below(rng, 100) < percent;
}

/* ---- the hierarchy, as drawn ---- */

/* Whether set `outer` is set `inner` or one of its ancestors. */
static bool set_within(const drawn *d, int inner, int outer) {
    for (; inner >= 0; inner = d->parent[inner]) {
        if (inner == outer) return true;
    }
    return false;
}

/* Whether `node` is under set `set` (at any depth), which a build refuses to order them. */
static bool node_under(const drawn *d, int node, int set) {
    int k;
    if (node >= d->systems) {
        int own = node - d->systems;
        return own != set && set_within(d, own, set);
    }
    for (k = 0; k < d->in_set_count[node]; k++) {
        if (set_within(d, d->in_sets[node][k], set)) return true;
    }
    return false;
}

static bool nested(const drawn *d, int x, int y) {
    return (y >= d->systems && node_under(d, x, y - d->systems)) ||
           (x >= d->systems && node_under(d, y, x - d->systems));
}

static void add_edge(drawn *d, int from, int to, bool ignore) {
    d->edges[d->edge_count].from = from;
    d->edges[d->edge_count].to = to;
    d->edges[d->edge_count].ignore = ignore;
    d->edge_count++;
}

/* How many orderings a node gives as subject: a desc holds ECS_SCHED_MAX_REFS of a kind. */
static int orderings_from(const drawn *d, int node, bool ignore) {
    int e, n = 0;
    for (e = 0; e < d->edge_count; e++) n += d->edges[e].from == node && d->edges[e].ignore == ignore;
    return n;
}

static void draw(drawn *d, uint64_t seed) {
    uint64_t rng = seed * 0x9E3779B97F4A7C15ull + 7;
    bool holds_none[MAX_SETS];
    int rank[MAX_NODES], i, j, k, nodes, wanted;
    memset(d, 0, sizeof *d);
    d->systems = 2 + below(&rng, MAX_SYS - 1);
    d->sets = 1 + below(&rng, MAX_SETS);
    for (j = 0; j < d->sets; j++) {
        d->parent[j] = j > 0 && chance(&rng, 40) ? below(&rng, j) : -1;
        holds_none[j] = chance(&rng, 45);
    }
    for (i = 0; i < d->systems; i++) {
        int roll = below(&rng, 100), tries;
        d->kind[i] = roll < 8 ? EXCLUSIVE : roll < 16 ? SYNC : PLAIN;
        d->commands[i] = d->kind[i] == PLAIN && chance(&rng, 35);
        for (tries = 0; tries < 4 && d->in_set_count[i] < 2; tries++) {
            int set = below(&rng, d->sets);
            if (holds_none[set] || !chance(&rng, 55)) continue;
            if (d->in_set_count[i] == 1 && (set_within(d, set, d->in_sets[i][0]) ||
                                            set_within(d, d->in_sets[i][0], set))) {
                continue;   /* a membership another implies is refused */
            }
            d->in_sets[i][d->in_set_count[i]++] = set;
        }
    }
    nodes = d->systems + d->sets;
    for (i = 0; i < nodes; i++) rank[i] = i;
    for (i = nodes - 1; i > 0; i--) {
        int pick = below(&rng, i + 1), t = rank[i];
        rank[i] = rank[pick];
        rank[pick] = t;
    }
    if (chance(&rng, 35)) {   /* a chain of sets, each not nested in the one before */
        int length = 2 + below(&rng, 4);
        d->chain_ignore = chance(&rng, 30);
        for (j = 0; j < d->sets && d->chain_length < length; j++) {
            int set = (j * 5 + (int)(seed % 7)) % d->sets;
            bool used = false;
            for (k = 0; k < d->chain_length; k++) used = used || d->chain[k] == set;
            if (used) continue;
            if (d->chain_length > 0 &&
                nested(d, d->systems + d->chain[d->chain_length - 1], d->systems + set)) {
                continue;
            }
            d->chain[d->chain_length++] = set;
        }
        for (k = 0; k + 1 < d->chain_length; k++) {
            add_edge(d, d->systems + d->chain[k], d->systems + d->chain[k + 1], d->chain_ignore);
        }
        if (d->chain_length < 2) d->chain_length = 0;
    }
    wanted = below(&rng, nodes + nodes / 2 + 1);
    for (i = 0; i < wanted * 3 && d->edge_count < MAX_EDGES && i / 3 < wanted; i++) {
        int x = below(&rng, nodes), y = below(&rng, nodes);
        bool ignore = chance(&rng, 30);
        if (x == y || nested(d, x, y)) continue;
        if ((rank[x] > rank[y]) != chance(&rng, 6)) {   /* mostly along the ranks */
            int t = x;
            x = y;
            y = t;
        }
        if (orderings_from(d, x, ignore) >= ECS_SCHED_MAX_REFS) continue;
        add_edge(d, x, y, ignore);
    }
    d->sets_first = chance(&rng, 50);
    d->shuffle_seed = chance(&rng, 50) ? next_random(&rng) : 0;
}

/* ---- the reference: Bevy's flattening ---- */

typedef struct reference {
    bool dep[MAX_NODES][MAX_NODES];
    bool plain[MAX_NODES][MAX_NODES];   /* keeps deferred commands */
    bool cycle;
} reference;

static bool system_in_set(const drawn *d, int system, int set) {
    return node_under(d, system, set);
}

/* Whether the first n nodes of dep have a cycle: Kahn's order cannot take them all (a
   self-loop included). */
static bool has_cycle(bool dep[MAX_NODES][MAX_NODES], int n) {
    int in[MAX_NODES] = {0}, queue[MAX_NODES], head, tail = 0, a, b;
    for (a = 0; a < n; a++) {
        for (b = 0; b < n; b++) in[b] += dep[a][b];
    }
    for (a = 0; a < n; a++) {
        if (in[a] == 0) queue[tail++] = a;
    }
    for (head = 0; head < tail; head++) {
        for (b = 0; b < n; b++) {
            if (dep[queue[head]][b] && --in[b] == 0) queue[tail++] = b;
        }
    }
    return tail < n;
}

/* Bevy checks the orderings as configured for a cycle first (sets included, empty or not),
   then flattens them and checks the systems. */
static void flatten(const drawn *d, reference *r) {
    int N = d->systems + d->sets, e, j, a, b, x;
    memset(r, 0, sizeof *r);
    for (e = 0; e < d->edge_count; e++) {
        r->dep[d->edges[e].from][d->edges[e].to] = true;
        if (!d->edges[e].ignore) r->plain[d->edges[e].from][d->edges[e].to] = true;
    }
    r->cycle = has_cycle(r->dep, N);
    for (j = 0; j < d->sets; j++) {
        int set = d->systems + j;
        bool empty = true;
        bool before[MAX_NODES], after[MAX_NODES], before_plain[MAX_NODES], after_plain[MAX_NODES];
        for (x = 0; x < d->systems; x++) empty = empty && !system_in_set(d, x, j);
        for (a = 0; a < N; a++) {
            before[a] = r->dep[a][set];
            before_plain[a] = r->plain[a][set];
            after[a] = r->dep[set][a];
            after_plain[a] = r->plain[set][a];
            r->dep[a][set] = r->dep[set][a] = false;
            r->plain[a][set] = r->plain[set][a] = false;
        }
        for (a = 0; a < N; a++) {
            for (b = 0; b < N; b++) {
                if (empty && before[a] && after[b]) {
                    r->dep[a][b] = true;
                    if (before_plain[a] || after_plain[b]) r->plain[a][b] = true;
                }
            }
            for (x = 0; !empty && x < d->systems; x++) {
                if (!system_in_set(d, x, j)) continue;
                if (before[a]) {
                    r->dep[a][x] = true;
                    if (before_plain[a]) r->plain[a][x] = true;
                }
                if (after[a]) {
                    r->dep[x][a] = true;
                    if (after_plain[a]) r->plain[x][a] = true;
                }
            }
        }
    }
    r->cycle = r->cycle || has_cycle(r->dep, d->systems);
}

/* ---- building the drawn schedule ---- */

static void no_op(ecs_sched_system_ctx *ctx) {
    (void)ctx;
}

static const char *node_name(const drawn *d, int node, char *buf) {
    if (node < d->systems) sprintf(buf, "s%02d", node);
    else sprintf(buf, "T%d", node - d->systems);
    return buf;
}

typedef struct names {
    char text[MAX_NODES][8];
} names;

static void configure_sets(ecs_sched_world *w, const drawn *d, names *n) {
    int j, e;
    for (j = 0; j < d->sets; j++) {
        ecs_sched_set_desc desc;
        memset(&desc, 0, sizeof desc);
        desc.name = n->text[d->systems + j];
        if (d->parent[j] >= 0) desc.in_set[0] = n->text[d->systems + d->parent[j]];
        assert_int_equal(ecs_sched_configure_set(w, UPDATE, &desc), ECS_SCHED_OK);
    }
    for (e = 0; e < d->edge_count; e++) {   /* one call per ordering: configuration adds up */
        const edge *g = &d->edges[e];
        ecs_sched_set_desc desc;
        if (g->from < d->systems) continue;
        memset(&desc, 0, sizeof desc);
        desc.name = n->text[g->from];
        if (g->ignore) desc.before_ignore_deferred[0] = n->text[g->to];
        else desc.before[0] = n->text[g->to];
        assert_int_equal(ecs_sched_configure_set(w, UPDATE, &desc), ECS_SCHED_OK);
    }
}

static void add_systems(ecs_sched_world *w, const drawn *d, names *n) {
    int i, e, k;
    for (i = 0; i < d->systems; i++) {
        ecs_sched_system_desc desc;
        int plain_count = 0, ignore_count = 0;
        memset(&desc, 0, sizeof desc);
        desc.name = n->text[i];
        desc.fn = d->kind[i] == SYNC ? ecs_sched_apply_deferred : no_op;
        desc.exclusive = d->kind[i] == EXCLUSIVE;
        desc.commands = d->commands[i];
        for (k = 0; k < d->in_set_count[i]; k++) desc.in_set[k] = n->text[d->systems + d->in_sets[i][k]];
        for (e = 0; e < d->edge_count; e++) {
            const edge *g = &d->edges[e];
            if (g->from != i) continue;
            if (g->ignore) desc.before_ignore_deferred[ignore_count++] = n->text[g->to];
            else desc.before[plain_count++] = n->text[g->to];
        }
        assert_int_equal(ecs_sched_add_system(w, UPDATE, &desc), ECS_SCHED_OK);
    }
}

static ecs_sched_world *build_world(const drawn *d, names *n) {
    ecs_sched_world *w = new_world();
    ecs_sched_schedule_desc sd;
    int i;
    for (i = 0; i < d->systems + d->sets; i++) node_name(d, i, n->text[i]);
    memset(&sd, 0, sizeof sd);
    sd.cross_set_dependencies = ECS_SCHED_REPORT_IGNORE;
    sd.unknown_sets = ECS_SCHED_REPORT_IGNORE;
    sd.ambiguities = ECS_SCHED_REPORT_IGNORE;
    sd.shuffle_seed = d->shuffle_seed;
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &sd), ECS_SCHED_OK);
    if (d->sets_first) configure_sets(w, d, n);
    add_systems(w, d, n);
    if (!d->sets_first) configure_sets(w, d, n);
    if (d->chain_length >= 2) {
        const char *chain[MAX_SETS];
        int k;
        for (k = 0; k < d->chain_length; k++) chain[k] = n->text[d->systems + d->chain[k]];
        assert_int_equal(ecs_sched_chain_sets(w, UPDATE, d->chain_length, chain, d->chain_ignore),
                         ECS_SCHED_OK);
    }
    return w;
}

/* ---- the checks ---- */

static void describe(const drawn *d, uint64_t seed) {
    int i, e;
    char x[8], y[8];
    print_message("seed %llu: %d systems, %d sets\n", (unsigned long long)seed, d->systems, d->sets);
    for (i = 0; i < d->systems; i++) {
        print_message("  s%02d kind %d commands %d sets", i, d->kind[i], d->commands[i]);
        for (e = 0; e < d->in_set_count[i]; e++) print_message(" T%d", d->in_sets[i][e]);
        print_message("\n");
    }
    for (i = 0; i < d->sets; i++) print_message("  T%d in %d\n", i, d->parent[i]);
    for (e = 0; e < d->edge_count; e++) {
        print_message("  %s before %s%s\n", node_name(d, d->edges[e].from, x),
                      node_name(d, d->edges[e].to, y), d->edges[e].ignore ? " (ignore)" : "");
    }
}

/* Plan positions of the systems, and whether each plan entry is a sync point. */
static int plan_positions(ecs_sched_world *w, const drawn *d, int *position, bool *sync) {
    const char *order[MAX_SYS * 3];
    int32_t n = ecs_sched_schedule_order(w, UPDATE, order, MAX_SYS * 3), k;
    assert_true(n >= d->systems);
    for (k = 0; k < n; k++) {
        sync[k] = strcmp(order[k], "apply_deferred") == 0;
        if (order[k][0] == 's') {
            int i = atoi(order[k] + 1);
            position[i] = k;
            sync[k] = d->kind[i] == SYNC;
        }
    }
    return (int)n;
}

static bool sync_between(const bool *sync, int from, int to) {
    int k;
    for (k = from + 1; k < to; k++) {
        if (sync[k]) return true;
    }
    return false;
}

/* Every system after writer `a` along a path with an ordering that keeps the commands, or
   ending at an exclusive system, runs after a sync point that follows a. */
static bool commands_reach(const drawn *d, const reference *r, const int *position,
                           const bool *sync, int a, int *culprit) {
    bool seen[MAX_SYS][2];
    int stack[MAX_SYS * 2][2], top = 0, v, keeps;
    memset(seen, 0, sizeof seen);
    stack[top][0] = a;
    stack[top++][1] = 0;
    seen[a][0] = true;
    while (top > 0) {
        int u = stack[--top][0], kept = stack[top][1];
        for (v = 0; v < d->systems; v++) {
            if (!r->dep[u][v]) continue;
            keeps = kept || r->plain[u][v];
            if (seen[v][keeps]) continue;
            seen[v][keeps] = true;
            stack[top][0] = v;
            stack[top++][1] = keeps;
        }
    }
    for (v = 0; v < d->systems; v++) {
        bool needs = seen[v][1] || (seen[v][0] && v != a && d->kind[v] == EXCLUSIVE);
        if (needs && d->kind[v] != SYNC && !sync_between(sync, position[a], position[v])) {
            *culprit = v;
            return false;
        }
    }
    return true;
}

static void check_one(uint64_t seed) {
    drawn d;
    names n;
    reference r;
    ecs_sched_world *w;
    ecs_sched_result built;
    int position[MAX_SYS], a, b, culprit = -1;
    bool sync[MAX_SYS * 3];
    draw(&d, seed);
    flatten(&d, &r);
    w = build_world(&d, &n);
    built = ecs_sched_schedule_build(w, UPDATE);
    if (built != (r.cycle ? ECS_SCHED_ERR_DEPENDENCY_CYCLE : ECS_SCHED_OK)) {
        describe(&d, seed);
        fail_msg("seed %llu: the build returned %s, the reference expects %s (%s)",
                 (unsigned long long)seed, ecs_sched_result_string(built),
                 r.cycle ? "a cycle" : "success", ecs_sched_last_error(w));
    }
    if (built == ECS_SCHED_OK) {
        plan_positions(w, &d, position, sync);
        for (a = 0; a < d.systems; a++) {
            for (b = 0; b < d.systems; b++) {
                if (r.dep[a][b] && position[a] >= position[b]) {
                    describe(&d, seed);
                    fail_msg("seed %llu: s%02d must run before s%02d; the plan is %s",
                             (unsigned long long)seed, a, b, plan_of(w, UPDATE));
                }
            }
            if (d.commands[a] && !commands_reach(&d, &r, position, sync, a, &culprit)) {
                describe(&d, seed);
                fail_msg("seed %llu: no sync point between s%02d and s%02d; the plan is %s",
                         (unsigned long long)seed, a, culprit, plan_of(w, UPDATE));
            }
        }
        assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    }
    check_and_destroy(w);
}

static int schedules_to_draw(void) {
    const char *text = getenv("RANDOM_SCHEDULES");
    int n = text ? atoi(text) : 0;
    return n > 0 ? n : 10000;
}

static void builds_agree_with_the_reference_flattening(void **state) {
    int count = schedules_to_draw(), i, cycles = 0, empty_sets = 0;
    (void)state;
    for (i = 0; i < count; i++) {
        drawn d;
        reference r;
        int j, x;
        draw(&d, (uint64_t)i + 1);
        flatten(&d, &r);
        cycles += r.cycle;
        for (j = 0; j < d.sets; j++) {
            bool empty = true;
            for (x = 0; x < d.systems; x++) empty = empty && !system_in_set(&d, x, j);
            empty_sets += empty;
        }
        check_one((uint64_t)i + 1);
    }
    /* the draw covers both outcomes, and sets without systems are common */
    assert_true(cycles > count / 20 && cycles < count - count / 5);
    assert_true(empty_sets > count / 2);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builds_agree_with_the_reference_flattening),
    };
    return cmocka_run_group_tests_name("schedule flattening, random", tests, NULL,
                                       destroy_leftover_world);
}
