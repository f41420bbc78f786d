/* Ambiguities: two systems whose access conflicts (a write against a read or write of the same
   component or resource, or an exclusive system against anything) and that no path orders. The
   report names both systems and the data, groups pairs by set, counts what conditions read as
   read by the systems they guard, and can be silenced per pair, per set, or for everything. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "schedule_fixture.h"

/* The build's ambiguity report, as logged (the whole message, not only what last_error keeps). */
static const char *report_of(ecs_sched_world *w) {
    assert_int_equal(ecs_sched_schedule_build(w, UPDATE), ECS_SCHED_OK);
    return g_log.text;
}

/* ---- conflicting access, unordered: reported ---- */

static void two_writers_of_a_component_are_reported_with_the_component(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "mover", .fn = record, .queries = {{{ecs_sched_write(c.position)}}});
    ADD_SYSTEM(w, .name = "teleporter", .fn = record,
               .queries = {{{ecs_sched_write(c.position), ecs_sched_read(c.velocity)}}});
    report_of(w);
    assert_int_equal(g_log.warnings, 1);
    assert_contains(g_log.text, "system 'mover' and system 'teleporter'");
    assert_contains(g_log.text, "component 'Position' (both write)");
    assert_lacks(g_log.text, "Velocity");
    check_and_destroy(w);
}

static void writer_and_reader_of_a_component_are_reported(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "renderer", .fn = record, .queries = {{{ecs_sched_read(c.position)}}});
    ADD_SYSTEM(w, .name = "mover", .fn = record, .queries = {{{ecs_sched_write(c.position)}}});
    report_of(w);
    assert_int_equal(g_log.warnings, 1);
    assert_contains(g_log.text, "system 'renderer' and system 'mover'");
    assert_contains(g_log.text, "component 'Position' (first reads, second writes)");
    check_and_destroy(w);
}

static void two_writers_of_a_resource_are_reported(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "award", .fn = record, .writes = {c.score});
    ADD_SYSTEM(w, .name = "penalize", .fn = record, .writes = {c.score});
    report_of(w);
    assert_int_equal(g_log.warnings, 1);
    assert_contains(g_log.text, "system 'award' and system 'penalize'");
    assert_contains(g_log.text, "resource 'Score' (both write)");
    check_and_destroy(w);
}

static void writer_and_reader_of_a_resource_are_reported(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "award", .fn = record, .writes = {c.score});
    ADD_SYSTEM(w, .name = "show_score", .fn = record, .reads = {c.score});
    report_of(w);
    assert_int_equal(g_log.warnings, 1);
    assert_contains(g_log.text, "system 'award' and system 'show_score'");
    assert_contains(g_log.text, "resource 'Score' (first writes, second reads)");
    check_and_destroy(w);
}

static void optional_write_conflicts_like_a_write(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "maybe_mover", .fn = record,
               .queries = {{{ecs_sched_read(c.velocity), ecs_sched_optional_write(c.position)}}});
    ADD_SYSTEM(w, .name = "renderer", .fn = record, .queries = {{{ecs_sched_read(c.position)}}});
    report_of(w);
    assert_int_equal(g_log.warnings, 1);
    assert_contains(g_log.text, "component 'Position'");
    check_and_destroy(w);
}

static void every_conflicting_pair_is_counted(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "a", .fn = record, .writes = {c.score});
    ADD_SYSTEM(w, .name = "b", .fn = record, .writes = {c.score});
    ADD_SYSTEM(w, .name = "c", .fn = record, .reads = {c.score});
    report_of(w);
    assert_int_equal(g_log.warnings, 1);
    assert_contains(g_log.text, "3 pair(s)");
    assert_contains(g_log.text, "system 'a' and system 'b'");
    assert_contains(g_log.text, "system 'a' and system 'c'");
    assert_contains(g_log.text, "system 'b' and system 'c'");
    check_and_destroy(w);
}

/* ---- access that does not conflict, or an order: not reported ---- */

static void readers_of_the_same_data_are_not_reported(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "r1", .fn = record, .reads = {c.score},
               .queries = {{{ecs_sched_read(c.position)}}});
    ADD_SYSTEM(w, .name = "r2", .fn = record, .reads = {c.score},
               .queries = {{{ecs_sched_read(c.position)}}});
    report_of(w);
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void writers_of_different_data_are_not_reported(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "w1", .fn = record, .queries = {{{ecs_sched_write(c.position)}}});
    ADD_SYSTEM(w, .name = "w2", .fn = record, .queries = {{{ecs_sched_write(c.velocity)}}},
               .writes = {c.score});
    report_of(w);
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void a_without_term_is_no_access(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "still", .fn = record,
               .queries = {{{ecs_sched_read(c.velocity), ecs_sched_without(c.position)}}});
    ADD_SYSTEM(w, .name = "mover", .fn = record, .queries = {{{ecs_sched_write(c.position)}}});
    report_of(w);
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

/* ---- disjoint queries: no entity can match both ---- */

static void error_on_ambiguity(ecs_sched_world *w) {
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &(ecs_sched_schedule_desc){
                         .ambiguities = ECS_SCHED_REPORT_ERROR}), ECS_SCHED_OK);
}

/* The pair from the README: one moves the player, the other everything else. */
static void writers_of_a_component_on_disjoint_entities_build_clean_at_error_level(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    ecs_sched_id player = ECS_SCHED_TAG(w, Player);
    (void)state;
    error_on_ambiguity(w);
    ADD_SYSTEM(w, .name = "move_player", .fn = record,
               .queries = {{{ecs_sched_write(c.position), ecs_sched_read(player)}}});
    ADD_SYSTEM(w, .name = "move_others", .fn = record,
               .queries = {{{ecs_sched_write(c.position), ecs_sched_without(player)}}});
    assert_int_equal(ecs_sched_schedule_build(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void read_instead_of_without_makes_them_conflict_again(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    ecs_sched_id player = ECS_SCHED_TAG(w, Player);
    (void)state;
    error_on_ambiguity(w);
    ADD_SYSTEM(w, .name = "move_player", .fn = record,
               .queries = {{{ecs_sched_write(c.position), ecs_sched_read(player)}}});
    ADD_SYSTEM(w, .name = "move_others", .fn = record,
               .queries = {{{ecs_sched_write(c.position), ecs_sched_read(c.velocity)}}});
    assert_int_equal(ecs_sched_schedule_build(w, UPDATE), ECS_SCHED_ERR_AMBIGUITY);
    assert_contains(ecs_sched_last_error(w), "system 'move_player' and system 'move_others'");
    assert_contains(ecs_sched_last_error(w), "component 'Position' (both write)");
    check_and_destroy(w);
}

static void a_required_component_the_other_excludes_makes_queries_disjoint_either_way(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    error_on_ambiguity(w);
    /* the excluded id need not be a tag, and the writer may be the excluding side */
    ADD_SYSTEM(w, .name = "moving", .fn = record,
               .queries = {{{ecs_sched_read(c.position), ecs_sched_read(c.velocity)}}});
    ADD_SYSTEM(w, .name = "place_still", .fn = record,
               .queries = {{{ecs_sched_write(c.position), ecs_sched_without(c.velocity)}}});
    assert_int_equal(ecs_sched_schedule_build(w, UPDATE), ECS_SCHED_OK);
    check_and_destroy(w);
}

static void a_system_with_one_disjoint_and_one_conflicting_query_still_conflicts(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    ecs_sched_id player = ECS_SCHED_TAG(w, Player);
    (void)state;
    ADD_SYSTEM(w, .name = "move_player", .fn = record,
               .queries = {{{ecs_sched_write(c.position), ecs_sched_read(player)}},
                           {{ecs_sched_read(c.velocity)}}});
    ADD_SYSTEM(w, .name = "move_others", .fn = record,
               .queries = {{{ecs_sched_write(c.position), ecs_sched_without(player)}},
                           {{ecs_sched_write(c.velocity)}}});
    report_of(w);
    assert_int_equal(g_log.warnings, 1);
    assert_contains(g_log.text, "system 'move_player' and system 'move_others'");
    assert_contains(g_log.text, "component 'Velocity' (first reads, second writes)");
    check_and_destroy(w);
}

static void optional_terms_never_make_queries_disjoint(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    ecs_sched_id player = ECS_SCHED_TAG(w, Player);
    (void)state;
    ADD_SYSTEM(w, .name = "maybe_player", .fn = record,
               .queries = {{{ecs_sched_write(c.position), ecs_sched_optional_read(player)}}});
    ADD_SYSTEM(w, .name = "move_others", .fn = record,
               .queries = {{{ecs_sched_write(c.position), ecs_sched_without(player)}}});
    report_of(w);
    assert_int_equal(g_log.warnings, 1);
    assert_contains(g_log.text, "component 'Position' (both write)");
    check_and_destroy(w);
}

/* A condition's query is a read of the system it guards, and disjoint by the same rule. */
static void a_condition_query_is_disjoint_by_the_same_rule(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    ecs_sched_id player = ECS_SCHED_TAG(w, Player);
    (void)state;
    ADD_SYSTEM(w, .name = "hud", .fn = record,
               .run_if = {&(ecs_sched_condition){.name = "player_moved", .fn = always_true,
                           .queries = {{{ecs_sched_read(c.position), ecs_sched_read(player)}}}}});
    ADD_SYSTEM(w, .name = "move_others", .fn = record,
               .queries = {{{ecs_sched_write(c.position), ecs_sched_without(player)}}});
    ADD_SYSTEM(w, .name = "radar", .fn = record,
               .run_if = {&(ecs_sched_condition){.name = "anything_moved", .fn = always_true,
                           .queries = {{{ecs_sched_read(c.position)}}}}});
    report_of(w);
    assert_int_equal(g_log.warnings, 1);
    assert_contains(g_log.text, "system 'move_others' and system 'radar'");
    assert_lacks(g_log.text, "'hud'");
    check_and_destroy(w);
}

/* ---- a system's own queries ---- */

/* Adding the system fails with `expected`, naming it, its queries, the component and the way
   out; nothing of it stays in the schedule. */
static void assert_system_refused(ecs_sched_world *w, const ecs_sched_system_desc *d,
                                  const char *expected) {
    assert_int_equal(ecs_sched_add_system(w, UPDATE, d), ECS_SCHED_ERR_INVALID_QUERY);
    assert_contains(ecs_sched_last_error(w), expected);
    assert_contains(ecs_sched_last_error(w), "'Position'");
    assert_contains(ecs_sched_last_error(w), "without");
    assert_int_equal(ecs_sched_schedule_build(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_schedule_order(w, UPDATE, NULL, 0), 0);
}

static void a_system_whose_queries_write_and_read_one_component_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    assert_system_refused(w, &(ecs_sched_system_desc){.name = "follow", .fn = record,
        .queries = {{{ecs_sched_write(c.position), ecs_sched_read(c.velocity)}},
                    {{ecs_sched_read(c.position)}}}},
        "system 'follow': query 0 writes 'Position' and query 1 reads it");
    assert_contains(ecs_sched_last_error(w), "ecs_sched_without(Velocity) in query 1");
    check_and_destroy(w);
}

static void a_system_whose_queries_both_write_one_component_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    assert_system_refused(w, &(ecs_sched_system_desc){.name = "push", .fn = record,
        .queries = {{{ecs_sched_read(c.velocity)}},
                    {{ecs_sched_read(c.score), ecs_sched_optional_write(c.position)}},
                    {{ecs_sched_write(c.position)}}}},
        "system 'push': query 1 writes 'Position' and query 2 writes it");
    check_and_destroy(w);
}

static void a_system_whose_queries_are_disjoint_by_a_without_term_is_accepted(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    ecs_sched_id player = ECS_SCHED_TAG(w, Player);
    (void)state;
    ADD_SYSTEM(w, .name = "follow_player", .fn = record,
               .queries = {{{ecs_sched_write(c.position), ecs_sched_without(player)}},
                           {{ecs_sched_read(c.position), ecs_sched_read(player)}},
                           {{ecs_sched_read(c.velocity), ecs_sched_read(player)}}});
    assert_int_equal(ecs_sched_schedule_build(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_log.errors, 0);
    check_and_destroy(w);
}

static void ordered_pair_is_not_reported(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "mover", .fn = record, .queries = {{{ecs_sched_write(c.position)}}});
    ADD_SYSTEM(w, .name = "renderer", .fn = record, .after = {"mover"},
               .queries = {{{ecs_sched_read(c.position)}}});
    report_of(w);
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void pair_ordered_through_another_system_is_not_reported(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "mover", .fn = record, .before = {"middle"},
               .queries = {{{ecs_sched_write(c.position)}}});
    ADD_SYSTEM(w, .name = "middle", .fn = record);
    ADD_SYSTEM(w, .name = "renderer", .fn = record, .after = {"middle"},
               .queries = {{{ecs_sched_read(c.position)}}});
    report_of(w);
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void pair_ordered_through_their_sets_is_not_reported(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    CONFIGURE_SET(w, .name = "physics", .before = {"render"});
    ADD_SYSTEM(w, .name = "renderer", .fn = record, .in_set = {"render"},
               .queries = {{{ecs_sched_read(c.position)}}});
    ADD_SYSTEM(w, .name = "mover", .fn = record, .in_set = {"physics"},
               .queries = {{{ecs_sched_write(c.position)}}});
    report_of(w);
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

/* ---- exclusive systems ---- */

static void exclusive_system_conflicts_with_any_unordered_system(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "save_game", .fn = record, .exclusive = true);
    ADD_SYSTEM(w, .name = "reader", .fn = record, .queries = {{{ecs_sched_read(c.velocity)}}});
    ADD_SYSTEM(w, .name = "idle", .fn = record);
    report_of(w);
    assert_int_equal(g_log.warnings, 1);
    assert_contains(g_log.text, "system 'save_game' and system 'reader'");
    assert_contains(g_log.text, "system 'save_game' and system 'idle'");
    assert_contains(g_log.text, "exclusive");
    assert_lacks(g_log.text, "system 'reader' and system 'idle'");
    check_and_destroy(w);
}

static void ordered_exclusive_system_is_not_reported(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "save_game", .fn = record, .exclusive = true, .after = {"reader"});
    ADD_SYSTEM(w, .name = "reader", .fn = record, .queries = {{{ecs_sched_read(c.velocity)}}});
    report_of(w);
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void apply_deferred_instances_are_not_reported(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .fn = ecs_sched_apply_deferred);
    ADD_SYSTEM(w, .name = "writer", .fn = record, .commands = true,
               .queries = {{{ecs_sched_write(c.position)}}});
    report_of(w);
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

/* ---- the report groups pairs by the sets that hold them ---- */

static void pairs_in_different_sets_are_grouped_by_their_sets(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "integrate", .fn = record, .in_set = {"physics"},
               .queries = {{{ecs_sched_write(c.position)}}});
    ADD_SYSTEM(w, .name = "collide", .fn = record, .in_set = {"physics"},
               .queries = {{{ecs_sched_write(c.position)}}}, .after = {"integrate"});
    ADD_SYSTEM(w, .name = "draw", .fn = record, .in_set = {"render"},
               .queries = {{{ecs_sched_read(c.position)}}});
    report_of(w);
    assert_int_equal(g_log.warnings, 1);
    assert_contains(g_log.text, "between set 'physics' and set 'render'");
    assert_contains(g_log.text, "system 'integrate' and system 'draw'");
    assert_contains(g_log.text, "system 'collide' and system 'draw'");
    check_and_destroy(w);
}

/* ---- silencing ---- */

static void ambiguous_with_the_other_system_silences_the_pair(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "a", .fn = record, .writes = {c.score}, .ambiguous_with = {"b"});
    ADD_SYSTEM(w, .name = "b", .fn = record, .writes = {c.score});
    ADD_SYSTEM(w, .name = "c", .fn = record, .writes = {c.score});
    report_of(w);
    assert_int_equal(g_log.warnings, 1);
    assert_lacks(g_log.text, "system 'a' and system 'b'");
    assert_contains(g_log.text, "system 'a' and system 'c'");
    assert_contains(g_log.text, "system 'b' and system 'c'");
    check_and_destroy(w);
}

static void ambiguous_with_a_set_silences_pairs_with_its_members(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "logger", .fn = record, .reads = {c.score}, .ambiguous_with = {"scoring"});
    ADD_SYSTEM(w, .name = "award", .fn = record, .writes = {c.score}, .in_set = {"scoring"});
    ADD_SYSTEM(w, .name = "penalize", .fn = record, .writes = {c.score}, .in_set = {"scoring"},
               .after = {"award"});
    report_of(w);
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void set_ambiguous_with_a_system_silences_its_members(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    CONFIGURE_SET(w, .name = "ui", .ambiguous_with = {"award"});
    ADD_SYSTEM(w, .name = "award", .fn = record, .writes = {c.score});
    ADD_SYSTEM(w, .name = "hud", .fn = record, .reads = {c.score}, .in_set = {"ui"});
    ADD_SYSTEM(w, .name = "scoreboard", .fn = record, .reads = {c.score}, .in_set = {"ui"});
    report_of(w);
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

static void ambiguous_with_all_on_a_system_silences_its_pairs_only(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "debug_view", .fn = record, .reads = {c.score}, .ambiguous_with_all = true);
    ADD_SYSTEM(w, .name = "award", .fn = record, .writes = {c.score});
    ADD_SYSTEM(w, .name = "penalize", .fn = record, .writes = {c.score});
    report_of(w);
    assert_int_equal(g_log.warnings, 1);
    assert_lacks(g_log.text, "debug_view");
    assert_contains(g_log.text, "system 'award' and system 'penalize'");
    check_and_destroy(w);
}

static void ambiguous_with_all_on_a_set_silences_its_members(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    CONFIGURE_SET(w, .name = "diagnostics", .ambiguous_with_all = true);
    ADD_SYSTEM(w, .name = "award", .fn = record, .writes = {c.score});
    ADD_SYSTEM(w, .name = "probe1", .fn = record, .reads = {c.score}, .in_set = {"diagnostics"});
    ADD_SYSTEM(w, .name = "probe2", .fn = record, .writes = {c.score}, .in_set = {"diagnostics"});
    report_of(w);
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

/* ---- what conditions read counts as read by the systems they guard ---- */

static void condition_reads_count_as_reads_of_the_guarded_system(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "award", .fn = record, .writes = {c.score});
    ADD_SYSTEM(w, .name = "celebrate", .fn = record,
               .run_if = {&(ecs_sched_condition){.name = "high_score", .fn = always_true, .reads = {c.score}}});
    report_of(w);
    assert_int_equal(g_log.warnings, 1);
    assert_contains(g_log.text, "system 'award' and system 'celebrate'");
    assert_contains(g_log.text, "resource 'Score' (first writes, second reads)");
    check_and_destroy(w);
}

static void condition_query_counts_as_reads_of_the_guarded_system(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "mover", .fn = record, .queries = {{{ecs_sched_write(c.position)}}});
    ADD_SYSTEM(w, .name = "spawn_more", .fn = record,
               .run_if = {&(ecs_sched_condition){.name = "few_enough", .fn = always_true,
                           .queries = {{{ecs_sched_read(c.position)}}}}});
    report_of(w);
    assert_int_equal(g_log.warnings, 1);
    assert_contains(g_log.text, "component 'Position'");
    check_and_destroy(w);
}

static void built_in_condition_reads_its_resource(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    Score target = {10};
    (void)state;
    ADD_SYSTEM(w, .name = "award", .fn = record, .writes = {c.score});
    ADD_SYSTEM(w, .name = "celebrate", .fn = record,
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_resource_equals(c.score, &target, sizeof target))});
    report_of(w);
    assert_int_equal(g_log.warnings, 1);
    assert_contains(g_log.text, "resource 'Score'");
    check_and_destroy(w);
}

static void set_condition_reads_count_for_every_member(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    CONFIGURE_SET(w, .name = "celebrations", .run_if = {&(ecs_sched_condition){.name = "high_score", .fn = always_true,
                                                          .reads = {c.score}}});
    ADD_SYSTEM(w, .name = "award", .fn = record, .writes = {c.score});
    ADD_SYSTEM(w, .name = "fireworks", .fn = record, .in_set = {"celebrations"});
    ADD_SYSTEM(w, .name = "confetti", .fn = record, .in_set = {"celebrations"});
    report_of(w);
    assert_int_equal(g_log.warnings, 1);
    assert_contains(g_log.text, "system 'award' and system 'fireworks'");
    assert_contains(g_log.text, "system 'award' and system 'confetti'");
    check_and_destroy(w);
}

static void condition_reads_beside_other_reads_are_not_reported(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "show_score", .fn = record, .reads = {c.score});
    ADD_SYSTEM(w, .name = "celebrate", .fn = record,
               .run_if = {&(ecs_sched_condition){.name = "high_score", .fn = always_true, .reads = {c.score}}});
    report_of(w);
    assert_int_equal(g_log.count, 0);
    check_and_destroy(w);
}

/* ---- naming and size ---- */

static void instances_sharing_a_name_are_told_apart(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "award", .fn = record, .writes = {c.score});
    ADD_SYSTEM(w, .name = "award", .fn = record, .writes = {c.score});
    report_of(w);
    assert_int_equal(g_log.warnings, 1);
    assert_contains(g_log.text, "system 'award' #1 and system 'award' #2");
    check_and_destroy(w);
}

static void long_ordered_chains_hide_no_conflict_and_report_none(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    ecs_sched_system_desc chain[100];
    int i;
    (void)state;
    memset(chain, 0, sizeof chain);
    for (i = 0; i < 100; i++) {
        chain[i].name = "link";
        chain[i].fn = record;
        chain[i].writes[0] = c.score;
    }
    ADD_SYSTEMS(w, .systems = chain, .count = 100, .chain = true);
    report_of(w);
    assert_int_equal(g_log.count, 0);
    ADD_SYSTEM(w, .name = "outsider", .fn = record, .reads = {c.score});
    report_of(w);
    assert_int_equal(g_log.warnings, 1);
    assert_contains(g_log.text, "100 pair(s)");
    assert_contains(g_log.text, "system 'link' #64 and system 'outsider'");
    assert_contains(g_log.text, "and 36 more pair(s)"); /* a long report is cut short */
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_writers_of_a_component_are_reported_with_the_component),
        cmocka_unit_test(writer_and_reader_of_a_component_are_reported),
        cmocka_unit_test(two_writers_of_a_resource_are_reported),
        cmocka_unit_test(writer_and_reader_of_a_resource_are_reported),
        cmocka_unit_test(optional_write_conflicts_like_a_write),
        cmocka_unit_test(every_conflicting_pair_is_counted),
        cmocka_unit_test(readers_of_the_same_data_are_not_reported),
        cmocka_unit_test(writers_of_different_data_are_not_reported),
        cmocka_unit_test(a_without_term_is_no_access),
        cmocka_unit_test(writers_of_a_component_on_disjoint_entities_build_clean_at_error_level),
        cmocka_unit_test(read_instead_of_without_makes_them_conflict_again),
        cmocka_unit_test(a_required_component_the_other_excludes_makes_queries_disjoint_either_way),
        cmocka_unit_test(a_system_with_one_disjoint_and_one_conflicting_query_still_conflicts),
        cmocka_unit_test(optional_terms_never_make_queries_disjoint),
        cmocka_unit_test(a_condition_query_is_disjoint_by_the_same_rule),
        cmocka_unit_test(a_system_whose_queries_write_and_read_one_component_is_refused),
        cmocka_unit_test(a_system_whose_queries_both_write_one_component_is_refused),
        cmocka_unit_test(a_system_whose_queries_are_disjoint_by_a_without_term_is_accepted),
        cmocka_unit_test(ordered_pair_is_not_reported),
        cmocka_unit_test(pair_ordered_through_another_system_is_not_reported),
        cmocka_unit_test(pair_ordered_through_their_sets_is_not_reported),
        cmocka_unit_test(exclusive_system_conflicts_with_any_unordered_system),
        cmocka_unit_test(ordered_exclusive_system_is_not_reported),
        cmocka_unit_test(apply_deferred_instances_are_not_reported),
        cmocka_unit_test(pairs_in_different_sets_are_grouped_by_their_sets),
        cmocka_unit_test(ambiguous_with_the_other_system_silences_the_pair),
        cmocka_unit_test(ambiguous_with_a_set_silences_pairs_with_its_members),
        cmocka_unit_test(set_ambiguous_with_a_system_silences_its_members),
        cmocka_unit_test(ambiguous_with_all_on_a_system_silences_its_pairs_only),
        cmocka_unit_test(ambiguous_with_all_on_a_set_silences_its_members),
        cmocka_unit_test(condition_reads_count_as_reads_of_the_guarded_system),
        cmocka_unit_test(condition_query_counts_as_reads_of_the_guarded_system),
        cmocka_unit_test(built_in_condition_reads_its_resource),
        cmocka_unit_test(set_condition_reads_count_for_every_member),
        cmocka_unit_test(condition_reads_beside_other_reads_are_not_reported),
        cmocka_unit_test(instances_sharing_a_name_are_told_apart),
        cmocka_unit_test(long_ordered_chains_hide_no_conflict_and_report_none),
    };
    return cmocka_run_group_tests_name("schedule ambiguities", tests, NULL, destroy_leftover_world);
}
