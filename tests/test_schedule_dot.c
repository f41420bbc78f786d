/* Graphviz export of a built schedule: a digraph with a labelled cluster per set (nested like
   the sets), a node per system and per automatic sync point, an edge per dependency, a dashed
   red edge per ambiguous pair, and run conditions named in the labels. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "schedule_fixture.h"

/* ---- reading the DOT text back ---- */

typedef struct dot_text {
    char text[65536];
    size_t length;
    int writes;
} dot_text;

static dot_text g_dot;

static void append_dot(const char *text, void *user_data) {
    dot_text *d = (dot_text *)user_data;
    size_t n = strlen(text);
    d->writes++;
    assert_true(d->length + n < sizeof d->text);
    memcpy(d->text + d->length, text, n + 1);
    d->length += n;
}

static const char *dot_of(ecs_sched_world *w) {
    memset(&g_dot, 0, sizeof g_dot);
    assert_int_equal(ecs_sched_schedule_write_dot(w, UPDATE, append_dot, &g_dot), ECS_SCHED_OK);
    return g_dot.text;
}

/* The node id ("n3") whose label starts with `name` followed by a quote or a line break. */
static const char *node_id_of(const char *dot, const char *name, char *id, size_t size) {
    const char *line = dot;
    size_t n = strlen(name);
    while (line && *line) {
        const char *label = strstr(line, "[label=\"");
        const char *end = strchr(line, '\n');
        if (label && (!end || label < end)) {
            const char *start = line;
            label += 8;
            while (*start == ' ') start++;
            if (strncmp(label, name, n) == 0 && (label[n] == '"' || label[n] == '\\') && *start == 'n') {
                size_t k = 0;
                while (start[k] && start[k] != ' ' && k + 1 < size) {
                    id[k] = start[k];
                    k++;
                }
                id[k] = '\0';
                return id;
            }
        }
        line = end ? end + 1 : NULL;
    }
    return NULL;
}

/* The edge line from system `from` to system `to`, or NULL. */
static const char *edge_line(const char *dot, const char *from, const char *to) {
    static char line[256];
    char a[32], b[32], pattern[80];
    const char *at;
    if (!node_id_of(dot, from, a, sizeof a) || !node_id_of(dot, to, b, sizeof b)) return NULL;
    snprintf(pattern, sizeof pattern, "  %s -> %s;", a, b);
    at = strstr(dot, pattern);
    if (!at) {
        snprintf(pattern, sizeof pattern, "  %s -> %s [", a, b);
        at = strstr(dot, pattern);
    }
    if (!at) return NULL;
    {
        size_t k = 0;
        while (at[k] && at[k] != '\n' && k + 1 < sizeof line) {
            line[k] = at[k];
            k++;
        }
        line[k] = '\0';
    }
    return line;
}

/* How deep inside braces the first occurrence of `needle` is. */
static int depth_of(const char *dot, const char *needle) {
    const char *at = strstr(dot, needle), *p;
    int depth = 0;
    assert_non_null(at);
    for (p = dot; p < at; p++) {
        if (*p == '{') depth++;
        if (*p == '}') depth--;
    }
    return depth;
}

/* ---- the drawing ---- */

static void dot_is_a_digraph_named_after_the_schedule(void **state) {
    ecs_sched_world *w = new_world();
    const char *dot;
    (void)state;
    ADD_SYSTEM(w, .name = "a", .fn = record);
    dot = dot_of(w);
    assert_int_equal(strncmp(dot, "digraph \"Update\" {", 18), 0);
    assert_true(g_dot.length >= 2 && strcmp(dot + g_dot.length - 2, "}\n") == 0);
    assert_int_equal(count_of(dot, "{"), count_of(dot, "}"));
    assert_string_equal(g_trace, ""); /* drawing builds, it does not run */
    check_and_destroy(w);
}

static void every_system_is_a_node(void **state) {
    ecs_sched_world *w = new_world();
    const char *dot;
    char id[32];
    (void)state;
    ADD_SYSTEM(w, .name = "read_input", .fn = record);
    ADD_SYSTEM(w, .name = "integrate", .fn = record, .in_set = {"physics"});
    ADD_SYSTEM(w, .name = "draw", .fn = record, .in_set = {"render"});
    dot = dot_of(w);
    assert_non_null(node_id_of(dot, "read_input", id, sizeof id));
    assert_non_null(node_id_of(dot, "integrate", id, sizeof id));
    assert_non_null(node_id_of(dot, "draw", id, sizeof id));
    check_and_destroy(w);
}

static void every_set_is_a_labelled_cluster(void **state) {
    ecs_sched_world *w = new_world();
    const char *dot;
    (void)state;
    CONFIGURE_SET(w, .name = "physics", .before = {"render"});
    ADD_SYSTEM(w, .name = "integrate", .fn = record, .in_set = {"physics"});
    ADD_SYSTEM(w, .name = "draw", .fn = record, .in_set = {"render"});
    dot = dot_of(w);
    assert_int_equal(count_of(dot, "subgraph cluster"), 2);
    assert_contains(dot, "label=\"physics\"");
    assert_contains(dot, "label=\"render\"");
    /* each system is drawn inside its set */
    assert_true(depth_of(dot, "[label=\"integrate") > depth_of(dot, "subgraph cluster"));
    check_and_destroy(w);
}

static void nested_set_is_drawn_inside_its_parent(void **state) {
    ecs_sched_world *w = new_world();
    const char *dot;
    (void)state;
    CONFIGURE_SET(w, .name = "inner", .in_set = {"outer"});
    ADD_SYSTEM(w, .name = "deep", .fn = record, .in_set = {"inner"});
    dot = dot_of(w);
    assert_int_equal(depth_of(dot, "label=\"outer\""), 2);
    assert_int_equal(depth_of(dot, "label=\"inner\""), 3);
    assert_int_equal(depth_of(dot, "[label=\"deep"), 3);
    check_and_destroy(w);
}

static void every_dependency_is_an_edge(void **state) {
    ecs_sched_world *w = new_world();
    const char *dot;
    (void)state;
    ADD_SYSTEM(w, .name = "c", .fn = record, .after = {"b"});
    ADD_SYSTEM(w, .name = "b", .fn = record, .after = {"a"});
    ADD_SYSTEM(w, .name = "a", .fn = record);
    ADD_SYSTEM(w, .name = "free", .fn = record);
    dot = dot_of(w);
    assert_non_null(edge_line(dot, "a", "b"));
    assert_non_null(edge_line(dot, "b", "c"));
    assert_null(edge_line(dot, "c", "a"));
    assert_null(edge_line(dot, "a", "free"));
    assert_int_equal(count_of(dot, " -> "), 2);
    check_and_destroy(w);
}

static void an_edge_that_another_path_implies_is_not_drawn(void **state) {
    ecs_sched_world *w = new_world();
    const char *dot;
    (void)state;
    ADD_SYSTEM(w, .name = "a", .fn = record, .before = {"b", "c"});
    ADD_SYSTEM(w, .name = "b", .fn = record, .before = {"c"});
    ADD_SYSTEM(w, .name = "c", .fn = record, .after = {"a"});
    dot = dot_of(w);
    assert_non_null(edge_line(dot, "a", "b"));
    assert_non_null(edge_line(dot, "b", "c"));
    assert_null(edge_line(dot, "a", "c"));
    assert_int_equal(count_of(dot, " -> "), 2);
    check_and_destroy(w);
}

/* The edges leaving a system come in the order its orderings were configured, not in the
   order of the systems they lead to. */
static void edges_leaving_a_system_come_in_the_order_configured(void **state) {
    ecs_sched_world *w = new_world();
    const char *dot, *line, *to_c, *to_b;
    (void)state;
    ADD_SYSTEM(w, .name = "a", .fn = record, .before = {"c", "b"});
    ADD_SYSTEM(w, .name = "b", .fn = record);
    ADD_SYSTEM(w, .name = "c", .fn = record);
    dot = dot_of(w);
    line = edge_line(dot, "a", "c");
    assert_non_null(line);
    to_c = strstr(dot, line);
    line = edge_line(dot, "a", "b");
    assert_non_null(line);
    to_b = strstr(dot, line);
    assert_true(to_c < to_b);
    check_and_destroy(w);
}

static void set_orderings_are_drawn_between_their_systems(void **state) {
    ecs_sched_world *w = new_world();
    const char *dot;
    (void)state;
    CONFIGURE_SET(w, .name = "physics", .before = {"render"});
    ADD_SYSTEM(w, .name = "integrate", .fn = record, .in_set = {"physics"});
    ADD_SYSTEM(w, .name = "draw", .fn = record, .in_set = {"render"});
    dot = dot_of(w);
    assert_non_null(edge_line(dot, "integrate", "draw"));
    check_and_destroy(w);
}

static void ambiguous_pair_is_a_dashed_red_edge(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id position = ECS_SCHED_COMPONENT(w, Position);
    const char *dot, *line;
    (void)state;
    ADD_SYSTEM(w, .name = "mover", .fn = record, .queries = {{{ecs_sched_write(position)}}});
    ADD_SYSTEM(w, .name = "teleporter", .fn = record, .queries = {{{ecs_sched_write(position)}}});
    ADD_SYSTEM(w, .name = "reader", .fn = record, .after = {"mover", "teleporter"},
               .queries = {{{ecs_sched_read(position)}}});
    dot = dot_of(w);
    line = edge_line(dot, "mover", "teleporter");
    if (!line) line = edge_line(dot, "teleporter", "mover");
    assert_non_null(line);
    assert_contains(line, "dashed");
    assert_contains(line, "red");
    line = edge_line(dot, "mover", "reader");
    assert_non_null(line);
    assert_null(strstr(line, "dashed"));
    assert_int_equal(count_of(dot, "dashed"), 1);
    check_and_destroy(w);
}

static void run_conditions_are_named_on_systems_and_sets(void **state) {
    ecs_sched_world *w = new_world();
    const char *dot;
    (void)state;
    CONFIGURE_SET(w, .name = "gameplay", .run_if = {&(ecs_sched_condition){.name = "not_paused", .fn = always_true}});
    ADD_SYSTEM(w, .name = "spawn_enemies", .fn = record, .in_set = {"gameplay"},
               .run_if = {&(ecs_sched_condition){.name = "too_few_enemies", .fn = always_true}, ECS_SCHED_COND(ecs_sched_condition_run_once())});
    dot = dot_of(w);
    assert_contains(dot, "not_paused");
    assert_contains(dot, "too_few_enemies");
    assert_contains(dot, "run_once");
    assert_true(strstr(dot, "label=\"gameplay") < strstr(dot, "not_paused"));
    assert_true(strstr(dot, "[label=\"spawn_enemies") < strstr(dot, "too_few_enemies"));
    check_and_destroy(w);
}

static void spawner(ecs_sched_system_ctx *ctx) {
    ecs_sched_commands_spawn(ecs_sched_ctx_commands(ctx));
}

static void automatic_sync_point_is_drawn_between_writer_and_reader(void **state) {
    ecs_sched_world *w = new_world();
    const char *dot;
    (void)state;
    ADD_SYSTEM(w, .name = "spawn", .fn = spawner, .commands = true);
    ADD_SYSTEM(w, .name = "count", .fn = record, .after = {"spawn"});
    dot = dot_of(w);
    assert_contains(dot, "[label=\"apply_deferred");
    assert_non_null(edge_line(dot, "spawn", "apply_deferred"));
    assert_non_null(edge_line(dot, "apply_deferred", "count"));
    check_and_destroy(w);
}

#ifdef ECS_SCHED_THREADS
/* A parallel plan binds its order with edges of its own (an exclusive system after all that
   comes before it, and before all that follows); the drawing shows the configured order. */
static void edges_that_only_bind_the_parallel_order_are_not_drawn(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_schedule_desc parallel;
    const char *dot;
    (void)state;
    memset(&parallel, 0, sizeof parallel);
    parallel.executor = ECS_SCHED_EXECUTOR_PARALLEL;
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &parallel), ECS_SCHED_OK);
    ADD_SYSTEM(w, .name = "load", .fn = record);
    ADD_SYSTEM(w, .name = "save_game", .fn = record, .exclusive = true);
    ADD_SYSTEM(w, .name = "simulate", .fn = record);
    ADD_SYSTEM(w, .name = "render", .fn = record, .after = {"simulate"});
    dot = dot_of(w);
    assert_non_null(edge_line(dot, "simulate", "render"));
    /* unordered against everything, the exclusive system is in three ambiguous pairs */
    assert_int_equal(count_of(dot, "dashed"), 3);
    assert_int_equal(count_of(dot, " -> ") - count_of(dot, "dashed"), 1);
    check_and_destroy(w);
}
#endif

/* The export builds again to draw; what that build finds was reported by the schedule's own
   build, once. */
static void drawing_repeats_no_warning_of_the_build(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "mover", .fn = record, .queries = {{{ecs_sched_write(c.position)}}});
    ADD_SYSTEM(w, .name = "teleporter", .fn = record, .queries = {{{ecs_sched_write(c.position)}}});
    dot_of(w);
    assert_int_equal(g_log.warnings, 1);
    assert_contains(g_log.text, "system 'mover' and system 'teleporter'");
    dot_of(w);
    assert_int_equal(g_log.warnings, 1);
    check_and_destroy(w);
}

static void quotes_in_names_are_escaped(void **state) {
    ecs_sched_world *w = new_world();
    const char *dot;
    (void)state;
    ADD_SYSTEM(w, .name = "say \"hi\"", .fn = record, .in_set = {"odd \\ set"});
    dot = dot_of(w);
    assert_contains(dot, "say \\\"hi\\\"");
    assert_contains(dot, "odd \\\\ set");
    check_and_destroy(w);
}

static void drawing_a_schedule_that_cannot_build_writes_nothing(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "a", .fn = record, .before = {"a"});
    memset(&g_dot, 0, sizeof g_dot);
    assert_int_equal(ecs_sched_schedule_write_dot(w, UPDATE, append_dot, &g_dot),
                     ECS_SCHED_ERR_DEPENDENCY_CYCLE);
    assert_int_equal(g_dot.writes, 0);
    assert_int_equal(ecs_sched_schedule_write_dot(w, "Missing", append_dot, &g_dot),
                     ECS_SCHED_ERR_UNKNOWN_SCHEDULE);
    assert_int_equal(ecs_sched_schedule_write_dot(w, UPDATE, NULL, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(g_dot.writes, 0);
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dot_is_a_digraph_named_after_the_schedule),
        cmocka_unit_test(every_system_is_a_node),
        cmocka_unit_test(every_set_is_a_labelled_cluster),
        cmocka_unit_test(nested_set_is_drawn_inside_its_parent),
        cmocka_unit_test(every_dependency_is_an_edge),
        cmocka_unit_test(an_edge_that_another_path_implies_is_not_drawn),
        cmocka_unit_test(edges_leaving_a_system_come_in_the_order_configured),
        cmocka_unit_test(set_orderings_are_drawn_between_their_systems),
        cmocka_unit_test(ambiguous_pair_is_a_dashed_red_edge),
        cmocka_unit_test(run_conditions_are_named_on_systems_and_sets),
        cmocka_unit_test(automatic_sync_point_is_drawn_between_writer_and_reader),
#ifdef ECS_SCHED_THREADS
        cmocka_unit_test(edges_that_only_bind_the_parallel_order_are_not_drawn),
#endif
        cmocka_unit_test(drawing_repeats_no_warning_of_the_build),
        cmocka_unit_test(quotes_in_names_are_escaped),
        cmocka_unit_test(drawing_a_schedule_that_cannot_build_writes_nothing),
    };
    return cmocka_run_group_tests_name("schedule DOT export", tests, NULL, destroy_leftover_world);
}
