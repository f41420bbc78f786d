/* Run conditions: read-only functions returning bool, attached to systems and sets. All of a
   node's conditions must hold; each is evaluated at most once per run, right before the first
   system it guards would run, set conditions outermost first, and a false one skips everything
   under it. Combinators short-circuit; the built-ins test resources and the first run. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "schedule_fixture.h"

typedef struct { int on; } Flag;
typedef struct { float level; int unused_padding_noise; } Water;

/* A condition whose answer and call count the test controls; it writes its label to the trace
   when it has one, so the trace shows where conditions were evaluated. */
typedef struct probe {
    bool answer;
    int calls;
    const char *label;
} probe;

static bool probed(ecs_sched_system_ctx *ctx) {
    probe *p = (probe *)ecs_sched_ctx_user_data(ctx);
    p->calls++;
    if (p->label) trace_add(p->label);
    return p->answer;
}

static ecs_sched_condition probe_condition(probe *p) {
    ecs_sched_condition c;
    memset(&c, 0, sizeof c);
    c.fn = probed;
    c.user_data = p;
    c.name = p->label;
    return c;
}

static int g_calls;

static void counted_system(ecs_sched_system_ctx *ctx) {
    g_calls++;
    record(ctx);
}

/* ---- skipping ---- */

static void false_condition_skips_the_system_without_calling_it(void **state) {
    ecs_sched_world *w = new_world();
    probe no = {false, 0, NULL};
    (void)state;
    g_calls = 0;
    ADD_SYSTEM(w, .name = "guarded", .fn = counted_system, .run_if = {ECS_SCHED_COND(probe_condition(&no))});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_calls, 0);
    assert_int_equal(no.calls, 1);
    check_and_destroy(w);
}

static void true_condition_lets_the_system_run(void **state) {
    ecs_sched_world *w = new_world();
    probe yes = {true, 0, NULL};
    (void)state;
    g_calls = 0;
    ADD_SYSTEM(w, .name = "guarded", .fn = counted_system, .run_if = {ECS_SCHED_COND(probe_condition(&yes))});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_calls, 1);
    check_and_destroy(w);
}

static void systems_after_a_skipped_system_still_run(void **state) {
    ecs_sched_world *w = new_world();
    probe no = {false, 0, NULL};
    (void)state;
    ADD_SYSTEM(w, .name = "follower", .fn = record, .after = {"skipped"});
    ADD_SYSTEM(w, .name = "skipped", .fn = record, .run_if = {ECS_SCHED_COND(probe_condition(&no))});
    ADD_SYSTEM(w, .name = "leader", .fn = record, .before = {"skipped"});
    assert_run_traces(w, "leader follower");
    check_and_destroy(w);
}

static void every_run_if_entry_must_be_true(void **state) {
    ecs_sched_world *w = new_world();
    probe yes1 = {true, 0, NULL}, yes2 = {true, 0, NULL}, no = {false, 0, NULL};
    (void)state;
    ADD_SYSTEM(w, .name = "all_true", .fn = record,
               .run_if = {ECS_SCHED_COND(probe_condition(&yes1)), ECS_SCHED_COND(probe_condition(&yes2))});
    ADD_SYSTEM(w, .name = "one_false", .fn = record,
               .run_if = {ECS_SCHED_COND(probe_condition(&yes1)), ECS_SCHED_COND(probe_condition(&no)), ECS_SCHED_COND(probe_condition(&yes2))});
    assert_run_traces(w, "all_true");
    assert_int_equal(no.calls, 1);
    check_and_destroy(w);
}

static void system_and_set_conditions_must_all_be_true(void **state) {
    ecs_sched_world *w = new_world();
    probe yes = {true, 0, NULL}, no = {false, 0, NULL};
    (void)state;
    CONFIGURE_SET(w, .name = "open", .run_if = {ECS_SCHED_COND(probe_condition(&yes))});
    CONFIGURE_SET(w, .name = "closed", .run_if = {ECS_SCHED_COND(probe_condition(&no))});
    ADD_SYSTEM(w, .name = "open_but_own_false", .fn = record, .in_set = {"open"},
               .run_if = {ECS_SCHED_COND(probe_condition(&no))});
    ADD_SYSTEM(w, .name = "closed_but_own_true", .fn = record, .in_set = {"closed"},
               .run_if = {ECS_SCHED_COND(probe_condition(&yes))});
    ADD_SYSTEM(w, .name = "open_and_own_true", .fn = record, .in_set = {"open"},
               .run_if = {ECS_SCHED_COND(probe_condition(&yes))});
    assert_run_traces(w, "open_and_own_true");
    check_and_destroy(w);
}

static void system_in_a_closed_set_and_an_open_set_is_skipped(void **state) {
    ecs_sched_world *w = new_world();
    probe yes = {true, 0, NULL}, no = {false, 0, NULL};
    (void)state;
    CONFIGURE_SET(w, .name = "open", .run_if = {ECS_SCHED_COND(probe_condition(&yes))});
    CONFIGURE_SET(w, .name = "closed", .run_if = {ECS_SCHED_COND(probe_condition(&no))});
    ADD_SYSTEM(w, .name = "in_both", .fn = record, .in_set = {"open", "closed"});
    ADD_SYSTEM(w, .name = "in_open", .fn = record, .in_set = {"open"});
    assert_run_traces(w, "in_open");
    check_and_destroy(w);
}

/* ---- when, and how often, conditions are evaluated ---- */

static void condition_guarding_many_systems_is_evaluated_once_per_run(void **state) {
    ecs_sched_world *w = new_world();
    probe yes = {true, 0, NULL};
    (void)state;
    CONFIGURE_SET(w, .name = "guarded", .run_if = {ECS_SCHED_COND(probe_condition(&yes))});
    ADD_SYSTEM(w, .name = "g1", .fn = record, .in_set = {"guarded"});
    ADD_SYSTEM(w, .name = "g2", .fn = record, .in_set = {"guarded"});
    ADD_SYSTEM(w, .name = "g3", .fn = record, .in_set = {"guarded"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(yes.calls, 1);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(yes.calls, 2);
    assert_string_equal(g_trace, "g1 g2 g3 g1 g2 g3");
    check_and_destroy(w);
}

static void false_set_condition_is_evaluated_once_for_all_members(void **state) {
    ecs_sched_world *w = new_world();
    probe no = {false, 0, NULL};
    (void)state;
    CONFIGURE_SET(w, .name = "guarded", .run_if = {ECS_SCHED_COND(probe_condition(&no))});
    ADD_SYSTEM(w, .name = "g1", .fn = record, .in_set = {"guarded"});
    ADD_SYSTEM(w, .name = "g2", .fn = record, .in_set = {"guarded"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(no.calls, 1);
    assert_string_equal(g_trace, "");
    check_and_destroy(w);
}

/* Members of a set whose condition is false are skipped together; what comes between or
   after them is not: another set's condition is still evaluated and its systems run. */
static void false_set_skips_only_its_own_members(void **state) {
    ecs_sched_world *w = new_world();
    probe a = {false, 0, "A"}, b = {true, 0, "B"};
    (void)state;
    CONFIGURE_SET(w, .name = "set_a", .run_if = {ECS_SCHED_COND(probe_condition(&a))});
    CONFIGURE_SET(w, .name = "set_b", .run_if = {ECS_SCHED_COND(probe_condition(&b))});
    ADD_SYSTEM(w, .name = "a1", .fn = record, .in_set = {"set_a"});
    ADD_SYSTEM(w, .name = "a2", .fn = record, .in_set = {"set_a"}, .after = {"a1"});
    ADD_SYSTEM(w, .name = "b1", .fn = record, .in_set = {"set_b"}, .after = {"a2"});
    ADD_SYSTEM(w, .name = "c", .fn = record, .after = {"b1"});
    ADD_SYSTEM(w, .name = "a3", .fn = record, .in_set = {"set_a"}, .after = {"c"});
    ADD_SYSTEM(w, .name = "b2", .fn = record, .in_set = {"set_b"}, .after = {"a3"});
    assert_run_traces(w, "A B b1 c b2");
    assert_int_equal(a.calls, 1);
    assert_int_equal(b.calls, 1);
    check_and_destroy(w);
}

static void condition_is_evaluated_right_before_the_first_system_it_guards(void **state) {
    ecs_sched_world *w = new_world();
    probe set_check = {true, 0, "set_check"}, own_check = {true, 0, "own_check"};
    (void)state;
    CONFIGURE_SET(w, .name = "late", .after = {"early"}, .run_if = {ECS_SCHED_COND(probe_condition(&set_check))});
    ADD_SYSTEM(w, .name = "late1", .fn = record, .in_set = {"late"});
    ADD_SYSTEM(w, .name = "late2", .fn = record, .in_set = {"late"},
               .run_if = {ECS_SCHED_COND(probe_condition(&own_check))});
    ADD_SYSTEM(w, .name = "early", .fn = record);
    assert_run_traces(w, "early set_check late1 own_check late2");
    check_and_destroy(w);
}

static ecs_sched_id g_flag_id;

/* Registers the resource type Flag where the systems and conditions below look for it. */
static ecs_sched_id register_flag(ecs_sched_world *w) {
    g_flag_id = ECS_SCHED_COMPONENT(w, Flag);
    return g_flag_id;
}

static void set_flag_on(ecs_sched_system_ctx *ctx) {
    Flag *flag = (Flag *)ecs_sched_ctx_resource_mut(ctx, g_flag_id);
    if (flag) flag->on = 1;
    trace_add("raise");
}

static void set_flag_off(ecs_sched_system_ctx *ctx) {
    Flag *flag = (Flag *)ecs_sched_ctx_resource_mut(ctx, g_flag_id);
    if (flag) flag->on = 0;
    trace_add("lower");
}

static void condition_sees_what_earlier_systems_of_the_run_did(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id flag = register_flag(w);
    Flag off = {0}, on = {1};
    (void)state;
    ecs_sched_resource_insert(w, flag, &off);
    ADD_SYSTEM(w, .name = "react", .fn = record, .after = {"raise"},
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_resource_equals(flag, &on, sizeof on))});
    ADD_SYSTEM(w, .name = "raise", .fn = set_flag_on, .writes = {flag});
    assert_run_traces(w, "raise react");
    check_and_destroy(w);
}

static void set_condition_is_not_evaluated_again_for_later_members(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id flag = register_flag(w);
    Flag on = {1};
    (void)state;
    ecs_sched_resource_insert(w, flag, &on);
    CONFIGURE_SET(w, .name = "while_on",
                  .run_if = {ECS_SCHED_COND(ecs_sched_condition_resource_equals(flag, &on, sizeof on))});
    ADD_SYSTEM(w, .name = "first_member", .fn = record, .in_set = {"while_on"});
    ADD_SYSTEM(w, .name = "lower", .fn = set_flag_off, .writes = {flag}, .after = {"first_member"});
    ADD_SYSTEM(w, .name = "second_member", .fn = record, .in_set = {"while_on"}, .after = {"lower"});
    assert_run_traces(w, "first_member lower second_member");
    g_trace[0] = '\0';
    assert_run_traces(w, "lower");
    check_and_destroy(w);
}

static void set_conditions_are_evaluated_outermost_first(void **state) {
    ecs_sched_world *w = new_world();
    probe outer = {true, 0, "outer"}, middle = {true, 0, "middle"}, inner = {true, 0, "inner"},
          own = {true, 0, "own"};
    (void)state;
    CONFIGURE_SET(w, .name = "inner_set", .in_set = {"middle_set"}, .run_if = {ECS_SCHED_COND(probe_condition(&inner))});
    CONFIGURE_SET(w, .name = "middle_set", .in_set = {"outer_set"}, .run_if = {ECS_SCHED_COND(probe_condition(&middle))});
    CONFIGURE_SET(w, .name = "outer_set", .run_if = {ECS_SCHED_COND(probe_condition(&outer))});
    ADD_SYSTEM(w, .name = "deep", .fn = record, .in_set = {"inner_set"}, .run_if = {ECS_SCHED_COND(probe_condition(&own))});
    assert_run_traces(w, "outer middle inner own deep");
    check_and_destroy(w);
}

static void false_outer_condition_leaves_inner_conditions_unevaluated(void **state) {
    ecs_sched_world *w = new_world();
    probe outer = {false, 0, "outer"}, inner = {true, 0, "inner"}, own = {true, 0, "own"};
    (void)state;
    CONFIGURE_SET(w, .name = "inner_set", .in_set = {"outer_set"}, .run_if = {ECS_SCHED_COND(probe_condition(&inner))});
    CONFIGURE_SET(w, .name = "outer_set", .run_if = {ECS_SCHED_COND(probe_condition(&outer))});
    ADD_SYSTEM(w, .name = "deep1", .fn = record, .in_set = {"inner_set"}, .run_if = {ECS_SCHED_COND(probe_condition(&own))});
    ADD_SYSTEM(w, .name = "deep2", .fn = record, .in_set = {"inner_set"});
    ADD_SYSTEM(w, .name = "shallow", .fn = record, .in_set = {"outer_set"});
    assert_run_traces(w, "outer");
    assert_int_equal(outer.calls, 1);
    assert_int_equal(inner.calls, 0);
    assert_int_equal(own.calls, 0);
    check_and_destroy(w);
}

static void false_set_condition_leaves_member_conditions_unevaluated(void **state) {
    ecs_sched_world *w = new_world();
    probe closed = {false, 0, NULL}, own = {true, 0, NULL};
    (void)state;
    CONFIGURE_SET(w, .name = "closed_set", .run_if = {ECS_SCHED_COND(probe_condition(&closed))});
    ADD_SYSTEM(w, .name = "member", .fn = record, .in_set = {"closed_set"},
               .run_if = {ECS_SCHED_COND(probe_condition(&own))});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(own.calls, 0);
    check_and_destroy(w);
}

static void conditions_of_systems_that_never_come_up_are_not_evaluated(void **state) {
    ecs_sched_world *w = new_world();
    probe first = {false, 0, NULL}, second = {true, 0, NULL};
    (void)state;
    CONFIGURE_SET(w, .name = "outer", .run_if = {ECS_SCHED_COND(probe_condition(&first))});
    CONFIGURE_SET(w, .name = "empty_inner", .in_set = {"outer"}, .run_if = {ECS_SCHED_COND(probe_condition(&second))});
    ADD_SYSTEM(w, .name = "elsewhere", .fn = record);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(first.calls, 0);
    assert_int_equal(second.calls, 0);
    check_and_destroy(w);
}

/* ---- combinators ---- */

static void and_is_true_when_both_are(void **state) {
    ecs_sched_world *w = new_world();
    probe a = {true, 0, NULL}, b = {true, 0, NULL};
    ecs_sched_condition ca = probe_condition(&a), cb = probe_condition(&b);
    (void)state;
    ADD_SYSTEM(w, .name = "both", .fn = record, .run_if = {ECS_SCHED_COND(ecs_sched_condition_and(&ca, &cb))});
    assert_run_traces(w, "both");
    assert_int_equal(a.calls, 1);
    assert_int_equal(b.calls, 1);
    check_and_destroy(w);
}

static void and_skips_its_right_operand_when_the_left_is_false(void **state) {
    ecs_sched_world *w = new_world();
    probe left = {false, 0, NULL}, right = {true, 0, NULL};
    ecs_sched_condition cl = probe_condition(&left), cr = probe_condition(&right);
    (void)state;
    ADD_SYSTEM(w, .name = "guarded", .fn = record, .run_if = {ECS_SCHED_COND(ecs_sched_condition_and(&cl, &cr))});
    assert_run_traces(w, "");
    assert_int_equal(left.calls, 1);
    assert_int_equal(right.calls, 0);
    check_and_destroy(w);
}

static void or_skips_its_right_operand_when_the_left_is_true(void **state) {
    ecs_sched_world *w = new_world();
    probe left = {true, 0, NULL}, right = {false, 0, NULL};
    ecs_sched_condition cl = probe_condition(&left), cr = probe_condition(&right);
    (void)state;
    ADD_SYSTEM(w, .name = "guarded", .fn = record, .run_if = {ECS_SCHED_COND(ecs_sched_condition_or(&cl, &cr))});
    assert_run_traces(w, "guarded");
    assert_int_equal(right.calls, 0);
    check_and_destroy(w);
}

static void or_asks_its_right_operand_when_the_left_is_false(void **state) {
    ecs_sched_world *w = new_world();
    probe left = {false, 0, NULL}, right = {true, 0, NULL}, neither = {false, 0, NULL};
    ecs_sched_condition cl = probe_condition(&left), cr = probe_condition(&right),
                        cn = probe_condition(&neither);
    (void)state;
    ADD_SYSTEM(w, .name = "either", .fn = record, .run_if = {ECS_SCHED_COND(ecs_sched_condition_or(&cl, &cr))});
    ADD_SYSTEM(w, .name = "neither", .fn = record, .run_if = {ECS_SCHED_COND(ecs_sched_condition_or(&cl, &cn))});
    assert_run_traces(w, "either");
    assert_int_equal(right.calls, 1);
    assert_int_equal(neither.calls, 1);
    check_and_destroy(w);
}

static void not_inverts_its_operand(void **state) {
    ecs_sched_world *w = new_world();
    probe yes = {true, 0, NULL}, no = {false, 0, NULL};
    ecs_sched_condition cy = probe_condition(&yes), cn = probe_condition(&no);
    (void)state;
    ADD_SYSTEM(w, .name = "not_yes", .fn = record, .run_if = {ECS_SCHED_COND(ecs_sched_condition_not(&cy))});
    ADD_SYSTEM(w, .name = "not_no", .fn = record, .run_if = {ECS_SCHED_COND(ecs_sched_condition_not(&cn))});
    assert_run_traces(w, "not_no");
    check_and_destroy(w);
}

static void combinators_nest(void **state) {
    ecs_sched_world *w = new_world();
    probe no = {false, 0, NULL}, yes = {true, 0, NULL};
    ecs_sched_condition cn = probe_condition(&no), cy = probe_condition(&yes);
    ecs_sched_condition not_no = ecs_sched_condition_not(&cn), no_or_yes = ecs_sched_condition_or(&cn, &cy);
    (void)state;
    ADD_SYSTEM(w, .name = "nested", .fn = record,
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_and(&not_no, &no_or_yes))});
    assert_run_traces(w, "nested");
    assert_int_equal(no.calls, 2); /* once under not, once under or: two instances */
    assert_int_equal(yes.calls, 1);
    check_and_destroy(w);
}

static void add_guarded_by_temporaries(ecs_sched_world *w, probe *left, probe *right) {
    ecs_sched_condition operands[2];
    ecs_sched_condition inverted;
    operands[0] = probe_condition(left);
    operands[1] = probe_condition(right);
    inverted = ecs_sched_condition_not(&operands[1]);
    ADD_SYSTEM(w, .name = "guarded", .fn = record,
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_and(&operands[0], &inverted))});
    memset(operands, 0xff, sizeof operands); /* what a reused stack frame could look like */
    memset(&inverted, 0xff, sizeof inverted);
}

static void combined_conditions_are_copied_when_added(void **state) {
    ecs_sched_world *w = new_world();
    probe left = {true, 0, NULL}, right = {false, 0, NULL};
    (void)state;
    add_guarded_by_temporaries(w, &left, &right);
    assert_run_traces(w, "guarded");
    assert_int_equal(left.calls, 1);
    assert_int_equal(right.calls, 1);
    check_and_destroy(w);
}

/* ---- built-in conditions ---- */

static void resource_exists_follows_the_resource(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    ADD_SYSTEM(w, .name = "scorer", .fn = record,
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_resource_exists(c.score))});
    assert_run_traces(w, "");
    ecs_sched_resource_insert(w, c.score, NULL);
    assert_run_traces(w, "scorer");
    ecs_sched_resource_remove(w, c.score);
    assert_run_traces(w, "scorer");
    check_and_destroy(w);
}

static void resource_exists_does_not_look_at_the_value(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    Score minus_one = {-1};
    ecs_sched_id flag = ecs_sched_component_register(
        w, &(ecs_sched_component_desc){.name = "Flag", .size = 1});
    char on = 1;
    (void)state;
    ADD_SYSTEM(w, .name = "scorer", .fn = record,
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_resource_exists(c.score))});
    ADD_SYSTEM(w, .name = "flagged", .fn = record, .after = {"scorer"},
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_resource_exists(flag))});
    assert_int_equal(ecs_sched_resource_insert(w, c.score, &minus_one), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_resource_insert(w, flag, &on), ECS_SCHED_OK);
    assert_run_traces(w, "scorer flagged");
    check_and_destroy(w);
}

static void resource_equals_compares_the_bytes(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    Score nine = {9}, ten = {10};
    (void)state;
    ADD_SYSTEM(w, .name = "at_ten", .fn = record,
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_resource_equals(c.score, &ten, sizeof ten))});
    ecs_sched_resource_insert(w, c.score, &nine);
    assert_run_traces(w, "");
    ecs_sched_resource_insert(w, c.score, &ten);
    assert_run_traces(w, "at_ten");
    check_and_destroy(w);
}

static void resource_equals_is_false_without_the_resource(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    Score zero = {0};
    (void)state;
    ADD_SYSTEM(w, .name = "at_zero", .fn = record,
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_resource_equals(c.score, &zero, sizeof zero))});
    assert_run_traces(w, "");
    check_and_destroy(w);
}

static void resource_equals_keeps_its_own_copy_of_the_value(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    Score target = {3}, current = {3};
    (void)state;
    ADD_SYSTEM(w, .name = "at_three", .fn = record,
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_resource_equals(c.score, &target, sizeof target))});
    target.value = 4;
    ecs_sched_resource_insert(w, c.score, &current);
    assert_run_traces(w, "at_three");
    check_and_destroy(w);
}

static int g_compare_calls;

static bool water_level_close(const void *resource, const void *value, void *user_data) {
    const Water *a = (const Water *)resource, *b = (const Water *)value;
    float tolerance = *(const float *)user_data;
    g_compare_calls++;
    return a->level - b->level < tolerance && b->level - a->level < tolerance;
}

static void resource_equals_with_uses_the_compare_function(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id water = ECS_SCHED_COMPONENT(w, Water);
    float tolerance = 0.5f;
    Water full = {10.0f, 1}, nearly = {9.75f, 2}, low = {3.0f, 1};
    (void)state;
    g_compare_calls = 0;
    ADD_SYSTEM(w, .name = "overflow", .fn = record,
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_resource_equals_with(water, &full, sizeof full,
                                                                   water_level_close, &tolerance))});
    ecs_sched_resource_insert(w, water, &nearly); /* bytes differ, the levels are close */
    assert_run_traces(w, "overflow");
    ecs_sched_resource_insert(w, water, &low);
    assert_run_traces(w, "overflow");
    assert_int_equal(g_compare_calls, 2);
    check_and_destroy(w);
}

static void resource_equals_with_a_value_of_the_wrong_size_is_refused(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    char small = 1;
    (void)state;
    assert_int_equal(ecs_sched_add_system(w, UPDATE, &(ecs_sched_system_desc){
                                              .name = "guarded", .fn = record,
                                              .run_if = {ECS_SCHED_COND(ecs_sched_condition_resource_equals(
                                                  c.score, &small, sizeof small))}}),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_contains(ecs_sched_last_error(w), "'Score'");
    assert_string_equal(plan_of(w, UPDATE), ""); /* nothing was added */
    check_and_destroy(w);
}

static void run_once_is_true_on_the_first_run_only(void **state) {
    ecs_sched_world *w = new_world();
    int i;
    (void)state;
    ADD_SYSTEM(w, .name = "setup", .fn = record, .run_if = {ECS_SCHED_COND(ecs_sched_condition_run_once())});
    ADD_SYSTEM(w, .name = "every_frame", .fn = record);
    for (i = 0; i < 3; i++) assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_trace, "setup every_frame every_frame every_frame");
    check_and_destroy(w);
}

static void each_run_once_entry_counts_for_itself(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ADD_SYSTEM(w, .name = "setup_a", .fn = record, .run_if = {ECS_SCHED_COND(ecs_sched_condition_run_once())});
    ADD_SYSTEM(w, .name = "setup_b", .fn = record, .run_if = {ECS_SCHED_COND(ecs_sched_condition_run_once())});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_run_traces(w, "setup_a setup_b");
    check_and_destroy(w);
}

static void run_once_counts_from_its_first_evaluation(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    (void)state;
    CONFIGURE_SET(w, .name = "when_scoring", .run_if = {ECS_SCHED_COND(ecs_sched_condition_resource_exists(c.score))});
    ADD_SYSTEM(w, .name = "first_score", .fn = record, .in_set = {"when_scoring"},
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_run_once())});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    ecs_sched_resource_insert(w, c.score, NULL);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_run_traces(w, "first_score");
    check_and_destroy(w);
}

/* ---- conditions only read ---- */

static void condition_declaring_a_resource_write_fails_the_build(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    probe yes = {true, 0, NULL};
    (void)state;
    ADD_SYSTEM(w, .name = "guarded", .fn = record,
               .run_if = {&(ecs_sched_condition){.name = "cheater", .fn = probed, .user_data = &yes, .writes = {c.score}}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_CONDITION_WRITES);
    assert_string_equal(g_trace, "");
    assert_int_equal(yes.calls, 0);
    assert_contains(ecs_sched_last_error(w), "'cheater'");
    assert_contains(ecs_sched_last_error(w), "system 'guarded'");
    assert_contains(ecs_sched_last_error(w), "'Score'");
    check_and_destroy(w);
}

static void condition_with_a_write_term_fails_the_build(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    probe yes = {true, 0, NULL};
    (void)state;
    ADD_SYSTEM(w, .name = "guarded", .fn = record,
               .run_if = {&(ecs_sched_condition){.name = "sneaky_query", .fn = probed, .user_data = &yes,
                           .queries = {{{ecs_sched_write(c.position)}}}}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_CONDITION_WRITES);
    assert_contains(ecs_sched_last_error(w), "'sneaky_query'");
    assert_contains(ecs_sched_last_error(w), "system 'guarded'");
    assert_contains(ecs_sched_last_error(w), "'Position'");
    check_and_destroy(w);
}

static void write_inside_a_combined_condition_fails_the_build(void **state) {
    ecs_sched_world *w = new_world();
    ids c = register_components(w);
    probe yes = {true, 0, NULL};
    ecs_sched_condition honest = probe_condition(&yes);
    ecs_sched_condition cheater = {.name = "hidden_writer", .fn = probed, .user_data = &yes,
                                   .writes = {c.score}};
    (void)state;
    ADD_SYSTEM(w, .name = "guarded", .fn = record,
               .run_if = {ECS_SCHED_COND(ecs_sched_condition_or(&honest, &cheater))});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_CONDITION_WRITES);
    assert_contains(ecs_sched_last_error(w), "'hidden_writer'");
    assert_contains(ecs_sched_last_error(w), "system 'guarded'");
    check_and_destroy(w);
}

static void writing_condition_on_a_set_names_the_set(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id flag = register_flag(w);
    probe yes = {true, 0, NULL};
    (void)state;
    CONFIGURE_SET(w, .name = "gameplay",
                  .run_if = {&(ecs_sched_condition){.name = "cheater", .fn = probed, .user_data = &yes, .writes = {flag}}});
    ADD_SYSTEM(w, .name = "member", .fn = record, .in_set = {"gameplay"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_CONDITION_WRITES);
    assert_contains(ecs_sched_last_error(w), "'cheater'");
    assert_contains(ecs_sched_last_error(w), "set 'gameplay'");
    check_and_destroy(w);
}

static struct {
    const void *read;
    void *written;
    void *commands;
    void *world;
} g_condition_saw;

static bool try_to_write(ecs_sched_system_ctx *ctx) {
    g_condition_saw.read = ecs_sched_ctx_resource(ctx, g_flag_id);
    g_condition_saw.written = ecs_sched_ctx_resource_mut(ctx, g_flag_id);
    return true;
}

static void condition_asking_to_write_a_resource_gets_null(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id flag = register_flag(w);
    Flag on = {1};
    (void)state;
    memset(&g_condition_saw, 0, sizeof g_condition_saw);
    g_condition_saw.written = &g_condition_saw;
    ecs_sched_resource_insert(w, flag, &on);
    ADD_SYSTEM(w, .name = "guarded", .fn = record,
               .run_if = {&(ecs_sched_condition){.name = "would_be_writer", .fn = try_to_write, .reads = {flag}}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_non_null(g_condition_saw.read);
    assert_null(g_condition_saw.written);
    assert_string_equal(g_trace, "");   /* the refusal fails the node: under STOP it stays off */
    assert_contains(ecs_sched_last_error(w), "'would_be_writer'");
    assert_contains(ecs_sched_last_error(w), "'Flag'");
    check_and_destroy(w);
}

static bool peek_undeclared(ecs_sched_system_ctx *ctx) {
    g_condition_saw.read = ecs_sched_ctx_resource(ctx, g_flag_id);
    return g_condition_saw.read != NULL;
}

static void condition_reading_an_undeclared_resource_gets_null(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id flag = register_flag(w);
    (void)state;
    memset(&g_condition_saw, 0, sizeof g_condition_saw);
    g_condition_saw.read = &g_condition_saw;
    ecs_sched_resource_insert(w, flag, NULL);
    ADD_SYSTEM(w, .name = "guarded", .fn = record, .run_if = {&(ecs_sched_condition){.name = "peeker", .fn = peek_undeclared}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_null(g_condition_saw.read);
    assert_string_equal(g_trace, "");
    assert_contains(ecs_sched_last_error(w), "'peeker'");
    assert_contains(ecs_sched_last_error(w), "'Flag'");
    check_and_destroy(w);
}

static bool flag_is_on(ecs_sched_system_ctx *ctx) {
    const Flag *flag = (const Flag *)ecs_sched_ctx_resource(ctx, g_flag_id);
    return flag && flag->on;
}

static void condition_reading_a_missing_resource_names_itself_and_its_system(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id flag = register_flag(w);
    (void)state;
    ADD_SYSTEM(w, .name = "guarded", .fn = record,
               .run_if = {&(ecs_sched_condition){.name = "flag_on", .fn = flag_is_on, .reads = {flag}}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_string_equal(g_trace, "");
    assert_contains(ecs_sched_last_error(w), "condition 'flag_on' (guarding system 'guarded') in "
                                             "schedule 'Update': reads resource 'Flag', which "
                                             "does not exist");
    check_and_destroy(w);
}

static void condition_of_a_set_reading_a_missing_resource_names_the_set(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id flag = register_flag(w);
    (void)state;
    CONFIGURE_SET(w, .name = "gameplay",
                  .run_if = {&(ecs_sched_condition){.name = "flag_on", .fn = flag_is_on, .reads = {flag}}});
    ADD_SYSTEM(w, .name = "member", .fn = record, .in_set = {"gameplay"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_MISSING_RESOURCE);
    assert_contains(ecs_sched_last_error(w), "condition 'flag_on' (guarding set 'gameplay')");
    check_and_destroy(w);
}

static bool grab_more(ecs_sched_system_ctx *ctx) {
    g_condition_saw.commands = ecs_sched_ctx_commands(ctx);
    g_condition_saw.world = ecs_sched_ctx_world(ctx);
    return true;
}

static void condition_gets_neither_commands_nor_the_world(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    g_condition_saw.commands = g_condition_saw.world = &g_condition_saw;
    ADD_SYSTEM(w, .name = "guarded", .fn = record, .commands = true, .exclusive = true,
               .run_if = {&(ecs_sched_condition){.name = "grabber", .fn = grab_more}});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_null(g_condition_saw.commands);
    assert_null(g_condition_saw.world);
    assert_contains(ecs_sched_last_error(w), "'grabber'");
    check_and_destroy(w);
}

typedef struct { int limit; } PopulationLimit;

static ecs_sched_id g_limit_id;

static bool too_many_enemies(ecs_sched_system_ctx *ctx) {
    const PopulationLimit *limit = (const PopulationLimit *)ecs_sched_ctx_resource(ctx, g_limit_id);
    ecs_sched_query *enemies = ecs_sched_ctx_query(ctx, 0);
    return limit && enemies && ecs_sched_query_count(enemies) > limit->limit;
}

static void condition_reads_through_its_queries_and_resources(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id enemy = ECS_SCHED_TAG(w, Enemy);
    PopulationLimit limit = {2};
    int i;
    (void)state;
    g_limit_id = ECS_SCHED_COMPONENT(w, PopulationLimit);
    ecs_sched_resource_insert(w, g_limit_id, &limit);
    ADD_SYSTEM(w, .name = "mitigate_meltdown", .fn = record,
               .run_if = {&(ecs_sched_condition){.name = "too_many_enemies", .fn = too_many_enemies, .reads = {g_limit_id},
                           .queries = {{{ecs_sched_read(enemy)}}}}});
    for (i = 0; i < 2; i++) ecs_sched_spawn_with(w, 1, &enemy, NULL);
    assert_run_traces(w, "");
    ecs_sched_spawn_with(w, 1, &enemy, NULL);
    assert_run_traces(w, "mitigate_meltdown");
    check_and_destroy(w);
}

/* ---- conditions that check themselves as they are added ---- */

static int g_setups;

static ecs_sched_result counting_setup(ecs_sched_world *w, ecs_sched_system_ctx *instance,
                                       const ecs_sched_condition *c) {
    probe *p = (probe *)ecs_sched_ctx_user_data(instance);
    (void)w;
    (void)c;
    assert_int_equal(p->calls, 0);   /* before its fn ever runs */
    g_setups++;
    return ECS_SCHED_OK;
}

static ecs_sched_result refusing_setup(ecs_sched_world *w, ecs_sched_system_ctx *instance,
                                       const ecs_sched_condition *c) {
    (void)w;
    (void)instance;
    (void)c;
    return ECS_SCHED_ERR_INVALID_ARGUMENT;
}

static void condition_setup_runs_once_per_instance_as_it_is_added(void **state) {
    ecs_sched_world *w = new_world();
    probe yes = {true, 0, NULL};
    ecs_sched_condition checked = probe_condition(&yes);
    (void)state;
    g_setups = 0;
    checked.setup = counting_setup;
    ADD_SYSTEM(w, .name = "a", .fn = record, .run_if = {&checked});
    ADD_SYSTEM(w, .name = "b", .fn = record, .run_if = {&checked});
    assert_int_equal(g_setups, 2);
    assert_run_traces(w, "a b");
    assert_int_equal(g_setups, 2);
    assert_int_equal(yes.calls, 2);
    check_and_destroy(w);
}

static void condition_whose_setup_refuses_it_is_not_added(void **state) {
    ecs_sched_world *w = new_world();
    probe yes = {true, 0, "picky"};
    ecs_sched_condition picky = probe_condition(&yes);
    (void)state;
    picky.setup = refusing_setup;
    assert_int_equal(ecs_sched_add_system(w, UPDATE,
                                          &(ecs_sched_system_desc){.name = "guarded",
                                                                   .fn = record,
                                                                   .run_if = {&picky}}),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "condition 'picky'"));
    ADD_SYSTEM(w, .name = "other", .fn = record);
    assert_run_traces(w, "other");
    assert_int_equal(yes.calls, 0);
    check_and_destroy(w);
}

/* ---- what adding a condition refuses ---- */

/* Adding a system guarded by `c` fails with `code`, its message names `word`, and the
   schedule is left as it was (a system added next is the only one that runs). */
static void assert_guard_refused(const ecs_sched_condition *c, ecs_sched_result code,
                                 const char *word) {
    ecs_sched_world *w = new_world();
    assert_int_equal(ecs_sched_add_system(w, UPDATE,
                                          &(ecs_sched_system_desc){.name = "guarded",
                                                                   .fn = record,
                                                                   .run_if = {c}}),
                     code);
    assert_non_null(strstr(ecs_sched_last_error(w), word));
    ADD_SYSTEM(w, .name = "other", .fn = record);
    assert_run_traces(w, "other");
    check_and_destroy(w);
}

static void condition_without_a_function_is_refused_naming_it(void **state) {
    ecs_sched_condition c;
    (void)state;
    memset(&c, 0, sizeof c);
    c.name = "empty";
    assert_guard_refused(&c, ECS_SCHED_ERR_INVALID_ARGUMENT, "condition 'empty' has no function");
}

static void resource_condition_on_an_unregistered_resource_is_refused(void **state) {
    ecs_sched_condition c = ecs_sched_condition_resource_exists(4321);
    (void)state;
    c.name = "ghost_resource";
    assert_guard_refused(&c, ECS_SCHED_ERR_UNKNOWN_COMPONENT, "4321");
}

static void removal_condition_on_an_unregistered_component_is_refused(void **state) {
    ecs_sched_condition c = ecs_sched_condition_any_component_removed(4321);
    (void)state;
    assert_guard_refused(&c, ECS_SCHED_ERR_UNKNOWN_COMPONENT, "4321");
}

static void condition_reading_an_unregistered_resource_is_refused(void **state) {
    probe yes = {true, 0, "reader"};
    ecs_sched_condition c = probe_condition(&yes);
    (void)state;
    c.reads[0] = 4321;
    assert_guard_refused(&c, ECS_SCHED_ERR_UNKNOWN_COMPONENT, "4321");
    assert_int_equal(yes.calls, 0);
}

static void condition_whose_query_is_refused_names_the_condition_and_the_query(void **state) {
    probe yes = {true, 0, "looker"};
    ecs_sched_condition c = probe_condition(&yes);
    (void)state;
    c.queries[0].terms[0] = ecs_sched_read(4321);
    assert_guard_refused(&c, ECS_SCHED_ERR_UNKNOWN_COMPONENT, "condition 'looker', query 0");
}

static void and_without_its_second_operand_is_refused(void **state) {
    probe yes = {true, 0, "left"};
    ecs_sched_condition left = probe_condition(&yes);
    ecs_sched_condition both = ecs_sched_condition_and(&left, &left);
    (void)state;
    both.operands[1] = NULL;
    both.name = "half";
    assert_guard_refused(&both, ECS_SCHED_ERR_INVALID_ARGUMENT, "condition 'half' needs 2 operand(s)");
}

static void condition_that_is_its_own_operand_is_refused_as_too_deep(void **state) {
    ecs_sched_condition loop;
    (void)state;
    memset(&loop, 0, sizeof loop);
    loop = ecs_sched_condition_not(&loop);
    loop.operands[0] = &loop;
    assert_guard_refused(&loop, ECS_SCHED_ERR_INVALID_ARGUMENT, "nests deeper than");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(false_condition_skips_the_system_without_calling_it),
        cmocka_unit_test(true_condition_lets_the_system_run),
        cmocka_unit_test(systems_after_a_skipped_system_still_run),
        cmocka_unit_test(every_run_if_entry_must_be_true),
        cmocka_unit_test(system_and_set_conditions_must_all_be_true),
        cmocka_unit_test(system_in_a_closed_set_and_an_open_set_is_skipped),
        cmocka_unit_test(condition_guarding_many_systems_is_evaluated_once_per_run),
        cmocka_unit_test(false_set_condition_is_evaluated_once_for_all_members),
    cmocka_unit_test(false_set_skips_only_its_own_members),
        cmocka_unit_test(condition_is_evaluated_right_before_the_first_system_it_guards),
        cmocka_unit_test(condition_sees_what_earlier_systems_of_the_run_did),
        cmocka_unit_test(set_condition_is_not_evaluated_again_for_later_members),
        cmocka_unit_test(set_conditions_are_evaluated_outermost_first),
        cmocka_unit_test(false_outer_condition_leaves_inner_conditions_unevaluated),
        cmocka_unit_test(false_set_condition_leaves_member_conditions_unevaluated),
        cmocka_unit_test(conditions_of_systems_that_never_come_up_are_not_evaluated),
        cmocka_unit_test(and_is_true_when_both_are),
        cmocka_unit_test(and_skips_its_right_operand_when_the_left_is_false),
        cmocka_unit_test(or_skips_its_right_operand_when_the_left_is_true),
        cmocka_unit_test(or_asks_its_right_operand_when_the_left_is_false),
        cmocka_unit_test(not_inverts_its_operand),
        cmocka_unit_test(combinators_nest),
        cmocka_unit_test(combined_conditions_are_copied_when_added),
        cmocka_unit_test(resource_exists_follows_the_resource),
        cmocka_unit_test(resource_exists_does_not_look_at_the_value),
        cmocka_unit_test(resource_equals_compares_the_bytes),
        cmocka_unit_test(resource_equals_is_false_without_the_resource),
        cmocka_unit_test(resource_equals_keeps_its_own_copy_of_the_value),
        cmocka_unit_test(resource_equals_with_uses_the_compare_function),
        cmocka_unit_test(resource_equals_with_a_value_of_the_wrong_size_is_refused),
        cmocka_unit_test(run_once_is_true_on_the_first_run_only),
        cmocka_unit_test(each_run_once_entry_counts_for_itself),
        cmocka_unit_test(run_once_counts_from_its_first_evaluation),
        cmocka_unit_test(condition_declaring_a_resource_write_fails_the_build),
        cmocka_unit_test(condition_with_a_write_term_fails_the_build),
        cmocka_unit_test(write_inside_a_combined_condition_fails_the_build),
        cmocka_unit_test(writing_condition_on_a_set_names_the_set),
        cmocka_unit_test(condition_asking_to_write_a_resource_gets_null),
        cmocka_unit_test(condition_reading_an_undeclared_resource_gets_null),
        cmocka_unit_test(condition_reading_a_missing_resource_names_itself_and_its_system),
        cmocka_unit_test(condition_of_a_set_reading_a_missing_resource_names_the_set),
        cmocka_unit_test(condition_gets_neither_commands_nor_the_world),
        cmocka_unit_test(condition_reads_through_its_queries_and_resources),
        cmocka_unit_test(condition_setup_runs_once_per_instance_as_it_is_added),
        cmocka_unit_test(condition_whose_setup_refuses_it_is_not_added),
        cmocka_unit_test(condition_without_a_function_is_refused_naming_it),
        cmocka_unit_test(resource_condition_on_an_unregistered_resource_is_refused),
        cmocka_unit_test(removal_condition_on_an_unregistered_component_is_refused),
        cmocka_unit_test(condition_reading_an_unregistered_resource_is_refused),
        cmocka_unit_test(condition_whose_query_is_refused_names_the_condition_and_the_query),
        cmocka_unit_test(and_without_its_second_operand_is_refused),
        cmocka_unit_test(condition_that_is_its_own_operand_is_refused_as_too_deep),
    };
    return cmocka_run_group_tests_name("schedule conditions", tests, NULL, destroy_leftover_world);
}
