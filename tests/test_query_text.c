/* Queries written as text. A query's text lists its terms: an access in brackets, an operator,
   a source and a component (or a pair); it parses to the terms the same query built by hand
   has, a mistake is reported with the term, its column, a caret and the nearest name, and any
   query writes back as text that parses to the same terms. */
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

typedef struct names {
    ecs_sched_id position, velocity, mass, frozen, tracked, likes, owes;
    ecs_sched_entity ship, turret, bob;
} names;

typedef struct { int amount; } Debt;

static names register_names(ecs_sched_world *w) {
    names n;
    ecs_sched_relation_desc owes = {0};
    n.position = ECS_SCHED_COMPONENT(w, Position);
    n.velocity = ECS_SCHED_COMPONENT(w, Velocity);
    n.mass = ecs_sched_component_register_type(w, "Mass", sizeof(float), sizeof(float));
    n.frozen = ecs_sched_component_register_type(w, "Frozen", 0, 0);
    n.tracked = ecs_sched_tracked_component_register_type(w, "Health", sizeof(Health),
                                                          sizeof(int));
    n.likes = ecs_sched_relation_register(w, &(ecs_sched_relation_desc){.name = "Likes"});
    owes.name = "Owes";
    owes.payload_size = sizeof(Debt);
    n.owes = ecs_sched_relation_register(w, &owes);
    n.ship = ecs_sched_spawn(w);
    n.turret = ecs_sched_spawn(w);
    n.bob = ecs_sched_spawn(w);
    assert_int_equal(ecs_sched_set_name(w, n.ship, "ship"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(w, n.turret, "turret"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, n.turret, n.ship), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(w, n.bob, "Bob"), ECS_SCHED_OK);
    return n;
}

static void assert_terms_equal(const ecs_sched_query_desc *parsed,
                               const ecs_sched_query_desc *expected) {
    int i;
    for (i = 0; i < ECS_SCHED_MAX_TERMS; i++) {
        assert_int_equal(parsed->terms[i].id, expected->terms[i].id);
        assert_int_equal(parsed->terms[i].kind, expected->terms[i].kind);
        assert_true(parsed->terms[i].target == expected->terms[i].target);
    }
}

static void assert_parses_to(ecs_sched_world *w, const char *text,
                             const ecs_sched_query_desc *expected) {
    ecs_sched_query_desc parsed;
    memset(&parsed, 0xab, sizeof parsed);
    if (ecs_sched_query_parse(w, text, &parsed) != ECS_SCHED_OK) {
        fail_msg("'%s' did not parse: %s", text, ecs_sched_last_error(w));
    }
    assert_terms_equal(&parsed, expected);
}

/* The message of the failed parse of `text`, which must fail with `code`. */
static const char *parse_error(ecs_sched_world *w, const char *text, ecs_sched_result code) {
    ecs_sched_query_desc parsed;
    assert_int_equal(ecs_sched_query_parse(w, text, &parsed), code);
    return ecs_sched_last_error(w);
}

static void a_query_as_text_has_the_terms_of_the_same_query_built_by_hand(void **state) {
    ecs_sched_world *w = new_world();
    names n = register_names(w);
    (void)state;
    assert_parses_to(w, "[in] Velocity, Position, !Frozen",
                     &(ecs_sched_query_desc){.terms = {ecs_sched_read(n.velocity),
                                                       ecs_sched_write(n.position),
                                                       ecs_sched_without(n.frozen)}});
    check_and_destroy(w);
}

static void a_component_with_a_value_is_written_and_a_tag_is_read_without_an_access(void **state) {
    ecs_sched_world *w = new_world();
    names n = register_names(w);
    (void)state;
    assert_parses_to(w, "Position, Frozen",
                     &(ecs_sched_query_desc){.terms = {ecs_sched_write(n.position),
                                                       ecs_sched_read(n.frozen)}});
    check_and_destroy(w);
}

static void in_reads_and_out_and_inout_write(void **state) {
    ecs_sched_world *w = new_world();
    names n = register_names(w);
    (void)state;
    assert_parses_to(w, "[in] Position, [out] Velocity, [inout] Mass, [inout] Frozen",
                     &(ecs_sched_query_desc){.terms = {ecs_sched_read(n.position),
                                                       ecs_sched_write(n.velocity),
                                                       ecs_sched_write(n.mass),
                                                       ecs_sched_write(n.frozen)}});
    check_and_destroy(w);
}

static void a_question_mark_makes_a_term_optional_with_its_access(void **state) {
    ecs_sched_world *w = new_world();
    names n = register_names(w);
    (void)state;
    assert_parses_to(w, "?Position, [in] ?Velocity, ?Frozen",
                     &(ecs_sched_query_desc){.terms = {ecs_sched_optional_write(n.position),
                                                       ecs_sched_optional_read(n.velocity),
                                                       ecs_sched_optional_read(n.frozen)}});
    check_and_destroy(w);
}

static void added_changed_and_manual_are_accesses_of_tracked_components(void **state) {
    ecs_sched_world *w = new_world();
    names n = register_names(w);
    (void)state;
    assert_parses_to(w, "[added] Health", &(ecs_sched_query_desc){.terms = {ecs_sched_added(n.tracked)}});
    assert_parses_to(w, "[changed] Health",
                     &(ecs_sched_query_desc){.terms = {ecs_sched_changed(n.tracked)}});
    assert_parses_to(w, "[manual] Health",
                     &(ecs_sched_query_desc){.terms = {ecs_sched_write_manual(n.tracked)}});
    check_and_destroy(w);
}

static void a_pair_names_a_relationship_and_its_target_by_path(void **state) {
    ecs_sched_world *w = new_world();
    names n = register_names(w);
    (void)state;
    assert_parses_to(w, "(Likes, Bob), (ChildOf, ship.turret)",
                     &(ecs_sched_query_desc){.terms = {
                         ecs_sched_related(n.likes, n.bob),
                         ecs_sched_related(ecs_sched_child_of(w), n.turret)}});
    check_and_destroy(w);
}

static void a_pair_with_any_target_is_each_target_and_takes_operators(void **state) {
    ecs_sched_world *w = new_world();
    names n = register_names(w);
    (void)state;
    assert_parses_to(w, "(Likes, *), !(ChildOf, *), ?(Owes, *), [inout] Owes",
                     &(ecs_sched_query_desc){.terms = {ecs_sched_each_target(n.likes),
                                                       ecs_sched_without(ecs_sched_child_of(w)),
                                                       ecs_sched_optional_read(n.owes),
                                                       ecs_sched_write(n.owes)}});
    check_and_destroy(w);
}

static void the_library_s_own_components_answer_to_their_short_names(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    assert_parses_to(w, "ecs_sched.ChildOf, IsA, Disabled",
                     &(ecs_sched_query_desc){.terms = {
                         ecs_sched_read(ecs_sched_child_of(w)),
                         ecs_sched_read(ecs_sched_component_lookup(w, "ecs_sched.IsA")),
                         ecs_sched_read(ecs_sched_disabled_tag(w))}});
    check_and_destroy(w);
}

static void sources_read_from_the_parent_along_a_cascade_or_through_inheritance(void **state) {
    ecs_sched_world *w = new_world();
    names n = register_names(w);
    (void)state;
    assert_parses_to(w, "parent:Position, ?parent:Velocity, cascade:ChildOf, inherited:Mass",
                     &(ecs_sched_query_desc){.terms = {
                         ecs_sched_from_parent(n.position),
                         ecs_sched_optional_from_parent(n.velocity),
                         ecs_sched_cascade(ecs_sched_child_of(w)), ecs_sched_inherited(n.mass)}});
    check_and_destroy(w);
}

static void spaces_between_tokens_do_not_matter(void **state) {
    ecs_sched_world *w = new_world();
    names n = register_names(w);
    (void)state;
    assert_parses_to(w, "  [ in ]Position ,\t? Velocity,( Likes ,  Bob )  ,parent : Mass ",
                     &(ecs_sched_query_desc){.terms = {
                         ecs_sched_read(n.position), ecs_sched_optional_write(n.velocity),
                         ecs_sched_related(n.likes, n.bob), ecs_sched_from_parent(n.mass)}});
    check_and_destroy(w);
}

static void a_misspelt_component_is_named_with_its_column_a_caret_and_the_nearest_name(
    void **state) {
    ecs_sched_world *w = new_world();
    (void)register_names(w);
    (void)state;
    assert_string_equal(parse_error(w, "Position, Veloctiy", ECS_SCHED_ERR_QUERY_SYNTAX),
                        "query_parse: term 1: unknown component 'Veloctiy' at column 11, did "
                        "you mean 'Velocity'?\n"
                        "    Position, Veloctiy\n"
                        "              ^");
    check_and_destroy(w);
}

static void a_name_like_no_component_is_unknown_without_a_guess(void **state) {
    ecs_sched_world *w = new_world();
    (void)register_names(w);
    (void)state;
    assert_non_null(strstr(parse_error(w, "Position, Xyzzyplugh", ECS_SCHED_ERR_QUERY_SYNTAX),
                           "unknown component 'Xyzzyplugh' at column 11 (no registered "
                           "component has that name)"));
    assert_null(strstr(ecs_sched_last_error(w), "did you mean"));
    check_and_destroy(w);
}

static void a_character_out_of_place_is_named_with_its_column(void **state) {
    ecs_sched_world *w = new_world();
    (void)register_names(w);
    (void)state;
    assert_string_equal(parse_error(w, "Position,, Velocity", ECS_SCHED_ERR_QUERY_SYNTAX),
                        "query_parse: term 1: ',' at column 10 where a component's name was "
                        "expected\n"
                        "    Position,, Velocity\n"
                        "             ^");
    assert_non_null(strstr(parse_error(w, "Position Velocity", ECS_SCHED_ERR_QUERY_SYNTAX),
                           "term 0: 'V' at column 10 where ',' between terms was expected"));
    assert_non_null(strstr(parse_error(w, "(Likes Bob)", ECS_SCHED_ERR_QUERY_SYNTAX),
                           "'B' at column 8 where ',' between a pair's kind and target was "
                           "expected"));
    check_and_destroy(w);
}

static void a_text_that_ends_too_soon_says_what_was_expected(void **state) {
    ecs_sched_world *w = new_world();
    (void)register_names(w);
    (void)state;
    assert_non_null(strstr(parse_error(w, "Position, ", ECS_SCHED_ERR_QUERY_SYNTAX),
                           "term 1: the text ends where a component's name was expected"));
    assert_non_null(strstr(parse_error(w, "(Likes, Bob", ECS_SCHED_ERR_QUERY_SYNTAX),
                           "the text ends where ')' closing the pair was expected"));
    assert_non_null(strstr(parse_error(w, "   ", ECS_SCHED_ERR_QUERY_SYNTAX),
                           "the query is empty"));
    check_and_destroy(w);
}

static void an_unknown_access_or_source_lists_the_known_ones(void **state) {
    ecs_sched_world *w = new_world();
    (void)register_names(w);
    (void)state;
    assert_non_null(strstr(parse_error(w, "[read] Position", ECS_SCHED_ERR_QUERY_SYNTAX),
                           "unknown access '[read]' at column 2: one of [in], [out], [inout], "
                           "[added], [changed], [manual]"));
    assert_non_null(strstr(parse_error(w, "Position, up:Velocity", ECS_SCHED_ERR_NOT_FOUND),
                           "term 1: unknown source 'up:' at column 11: neither parent:, "
                           "cascade:, inherited: nor the path of an entity"));
    check_and_destroy(w);
}

static void combinations_that_mean_no_term_kind_are_refused_with_the_reason(void **state) {
    ecs_sched_world *w = new_world();
    (void)register_names(w);
    (void)state;
    assert_non_null(strstr(parse_error(w, "[in] !Frozen", ECS_SCHED_ERR_QUERY_SYNTAX),
                           "a not term (!) has no access"));
    assert_non_null(strstr(parse_error(w, "[out] parent:Position", ECS_SCHED_ERR_QUERY_SYNTAX),
                           "a term with a source is read only"));
    assert_non_null(strstr(parse_error(w, "?(Likes, Bob)", ECS_SCHED_ERR_QUERY_SYNTAX),
                           "a pair with a target is required and read"));
    assert_non_null(strstr(parse_error(w, "?[added] Health", ECS_SCHED_ERR_QUERY_SYNTAX),
                           "'[' at column 2 where a component's name was expected"));
    assert_non_null(strstr(parse_error(w, "[added] ?Health", ECS_SCHED_ERR_QUERY_SYNTAX),
                           "[added], [changed] and [manual] terms are required"));
    check_and_destroy(w);
}

static void a_target_no_entity_has_is_not_found(void **state) {
    ecs_sched_world *w = new_world();
    (void)register_names(w);
    (void)state;
    assert_non_null(strstr(parse_error(w, "Position, (Likes, ship.gun)", ECS_SCHED_ERR_NOT_FOUND),
                           "term 1: no entity has the path 'ship.gun' (at column 19)"));
    check_and_destroy(w);
}

static void more_terms_than_a_query_holds_are_a_limit(void **state) {
    ecs_sched_world *w = new_world();
    char text[512] = "";
    int i;
    (void)register_names(w);
    (void)state;
    for (i = 0; i <= ECS_SCHED_MAX_TERMS; i++) strcat(text, i ? ", Frozen" : "Frozen");
    assert_non_null(strstr(parse_error(w, text, ECS_SCHED_ERR_LIMIT), "a query has at most"));
    check_and_destroy(w);
}

static void a_failed_parse_leaves_the_desc_empty(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_query_desc parsed, empty;
    (void)register_names(w);
    (void)state;
    memset(&empty, 0, sizeof empty);
    memset(&parsed, 0xab, sizeof parsed);
    assert_int_equal(ecs_sched_query_parse(w, "Position, Velocity, Nope", &parsed),
                     ECS_SCHED_ERR_QUERY_SYNTAX);
    assert_memory_equal(&parsed, &empty, sizeof parsed);
    check_and_destroy(w);
}

static void query_from_text_parses_and_makes_the_query(void **state) {
    ecs_sched_world *w = new_world();
    names n = register_names(w);
    ecs_sched_entity moving = SPAWN(w, {n.position, &(Position){1, 2}},
                                    {n.velocity, &(Velocity){3, 4}});
    ecs_sched_query *q;
    ecs_sched_iter it;
    (void)state;
    (void)SPAWN(w, {n.position, &(Position){0, 0}});
    q = ecs_sched_query_from_text(w, "Position, [in] Velocity");
    assert_non_null(q);
    it = ecs_sched_query_iter(q);
    assert_true(ecs_sched_iter_next(&it));
    assert_int_equal(it.count, 1);
    assert_true(it.entities[0] == moving);
    assert_true(ECS_SCHED_FIELD(&it, Velocity, 1)[0].x == 3);
    assert_false(ecs_sched_iter_next(&it));
    assert_int_equal(ecs_sched_query_access(q).write_count, 1);
    assert_int_equal(ecs_sched_query_access(q).read_count, 1);
    check_and_destroy(w);
}

static void a_text_whose_terms_do_not_fit_together_fails_at_query_create(void **state) {
    ecs_sched_world *w = new_world();
    (void)register_names(w);
    (void)state;
    assert_null(ecs_sched_query_from_text(w, "Position, [in] Position"));
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_QUERY);
    assert_null(ecs_sched_query_from_text(w, "[changed] Position"));
    assert_non_null(strstr(ecs_sched_last_error(w), "'Position' is not tracked"));
    check_and_destroy(w);
}

static int32_t g_moved;

static void move(ecs_sched_system_ctx *ctx) {
    ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
    while (ecs_sched_iter_next(&it)) {
        Position *p = ECS_SCHED_FIELD(&it, Position, 0);
        const Velocity *v = ECS_SCHED_FIELD(&it, Velocity, 1);
        int32_t i;
        for (i = 0; i < it.count; i++) {
            p[i].x += v[i].x;
            g_moved++;
        }
    }
}

static void a_system_declares_its_query_as_text(void **state) {
    ecs_sched_world *w = new_world();
    names n = register_names(w);
    ecs_sched_entity e = SPAWN(w, {n.position, &(Position){1, 0}}, {n.velocity, &(Velocity){2, 0}});
    (void)state;
    (void)SPAWN(w, {n.position, &(Position){1, 0}}, {n.velocity, &(Velocity){2, 0}},
                {n.frozen, NULL});
    g_moved = 0;
    assert_int_equal(ecs_sched_add_system(w, UPDATE,
                                          &(ecs_sched_system_desc){
                                              .name = "move", .fn = move,
                                              .query_text = "Position, [in] Velocity, !Frozen"}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_moved, 1);
    assert_true(((const Position *)ecs_sched_get(w, e, n.position))->x == 3);
    check_and_destroy(w);
}

static void a_system_s_text_that_does_not_parse_fails_add_system_naming_it(void **state) {
    ecs_sched_world *w = new_world();
    names n = register_names(w);
    (void)state;
    assert_int_equal(ecs_sched_add_system(w, UPDATE,
                                          &(ecs_sched_system_desc){
                                              .name = "move", .fn = move,
                                              .query_text = "Position, Veloctiy"}),
                     ECS_SCHED_ERR_QUERY_SYNTAX);
    assert_non_null(strstr(ecs_sched_last_error(w), "add_system('move'), query 0"));
    assert_non_null(strstr(ecs_sched_last_error(w), "did you mean 'Velocity'?"));
    assert_int_equal(g_log.errors, 1);   /* told once, naming the system */
    assert_int_equal(ecs_sched_add_system(w, UPDATE,
                                          &(ecs_sched_system_desc){
                                              .name = "twice", .fn = move,
                                              .query_text = "Position",
                                              .queries = {{{ecs_sched_read(n.velocity)}}}}),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "both .query_text and terms in .queries[0]"));
    check_and_destroy(w);
}

static void a_query_writes_back_as_the_text_it_was_read_from(void **state) {
    ecs_sched_world *w = new_world();
    char text[256];
    const char *written = "[in] Velocity, Position, !Frozen, ?Mass, (Likes, Bob), "
                          "parent:Position, cascade:ChildOf";
    ecs_sched_query *q;
    (void)register_names(w);
    (void)state;
    q = ecs_sched_query_from_text(w, written);
    assert_non_null(q);
    assert_int_equal(ecs_sched_query_text(q, text, (int32_t)sizeof text), (int32_t)strlen(written));
    assert_string_equal(text, written);
    check_and_destroy(w);
}

static void query_text_follows_snprintf_when_the_buffer_is_short(void **state) {
    ecs_sched_world *w = new_world();
    char text[8];
    ecs_sched_query *q;
    (void)register_names(w);
    (void)state;
    q = ecs_sched_query_from_text(w, "Position, Velocity");
    assert_int_equal(ecs_sched_query_text(q, text, (int32_t)sizeof text), 18);
    assert_string_equal(text, "Positio");
    assert_int_equal(ecs_sched_query_text(q, NULL, 0), 18);
    check_and_destroy(w);
}

static void names_with_other_characters_are_escaped_and_read_back(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id odd = ecs_sched_component_register_type(w, "odd, (name)!", 4, 4);
    ecs_sched_id likes = ecs_sched_relation_register(w, &(ecs_sched_relation_desc){.name = "Likes"});
    ecs_sched_entity parent = ecs_sched_spawn(w), target = ecs_sched_spawn(w);
    char text[256];
    ecs_sched_query *q;
    ecs_sched_query_desc parsed;
    (void)state;
    assert_int_equal(ecs_sched_set_name(w, parent, "a.b"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(w, target, "c, d)"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_parent(w, target, parent), ECS_SCHED_OK);
    q = ecs_sched_query_create(w, &(ecs_sched_query_desc){.terms = {ecs_sched_read(odd),
                                                                   ecs_sched_related(likes, target)}});
    assert_non_null(q);
    ecs_sched_query_text(q, text, (int32_t)sizeof text);
    assert_string_equal(text, "[in] odd\\,\\ \\(name\\)\\!, (Likes, a\\.b.c\\,\\ d\\))");
    assert_int_equal(ecs_sched_query_parse(w, text, &parsed), ECS_SCHED_OK);
    assert_terms_equal(&parsed, &(ecs_sched_query_desc){.terms = {ecs_sched_read(odd),
                                                                 ecs_sched_related(likes, target)}});
    check_and_destroy(w);
}

/* ---- the round trip over randomly built queries ---- */

static uint64_t g_seed;

static uint32_t next_random(void) {
    g_seed = g_seed * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(g_seed >> 33);
}

/* A random term over the components of `n`: any kind with any component; query_create
   sorts out the ones that do not fit. */
static ecs_sched_term random_term(ecs_sched_world *w, const names *n) {
    const ecs_sched_id ids[] = {n->position, n->velocity, n->mass, n->frozen, n->tracked,
                                n->likes, n->owes, ecs_sched_child_of(w)};
    const ecs_sched_entity targets[] = {n->ship, n->turret, n->bob};
    ecs_sched_term t;
    memset(&t, 0, sizeof t);
    t.id = ids[next_random() % (sizeof ids / sizeof ids[0])];
    t.kind = (ecs_sched_term_kind)(1 + next_random() % ECS_SCHED_TERM_EACH_TARGET);   /* (every kind: test_query_wildcards.c) */
    if (t.kind == ECS_SCHED_TERM_RELATED || t.kind == ECS_SCHED_TERM_FROM_ENTITY) {
        t.target = targets[next_random() % 3];
    }
    return t;
}

static void random_queries_write_back_as_text_that_parses_to_the_same_terms(void **state) {
    ecs_sched_world *w = new_world();
    names n = register_names(w);
    int32_t round, made = 0;
    char text[1024];
    (void)state;
    g_seed = 42;
    for (round = 0; round < 5000; round++) {
        ecs_sched_query_desc desc, parsed;
        ecs_sched_query *q, *again;
        int32_t i, count = 1 + (int32_t)(next_random() % ECS_SCHED_MAX_TERMS);
        memset(&desc, 0, sizeof desc);
        for (i = 0; i < count; i++) desc.terms[i] = random_term(w, &n);
        q = ecs_sched_query_create(w, &desc);
        if (!q) continue;   /* terms that do not fit together */
        made++;
        assert_true(ecs_sched_query_text(q, text, (int32_t)sizeof text) < (int32_t)sizeof text);
        if (ecs_sched_query_parse(w, text, &parsed) != ECS_SCHED_OK) {
            fail_msg("'%s' does not parse: %s", text, ecs_sched_last_error(w));
        }
        again = ecs_sched_query_create(w, &parsed);
        assert_non_null(again);
        for (i = 0; i < ECS_SCHED_MAX_TERMS; i++) {
            ecs_sched_term expected = desc.terms[i];
            if (expected.id && expected.kind == ECS_SCHED_TERM_DEFAULT) {
                expected.kind = ECS_SCHED_TERM_READ;
            }
            if (parsed.terms[i].id != expected.id || parsed.terms[i].kind != expected.kind ||
                parsed.terms[i].target != expected.target) {
                fail_msg("term %d of '%s' came back as id %u kind %d (was id %u kind %d)",
                         (int)i, text, (unsigned)parsed.terms[i].id, (int)parsed.terms[i].kind,
                         (unsigned)expected.id, (int)expected.kind);
            }
        }
        ecs_sched_query_destroy(again);
        ecs_sched_query_destroy(q);
    }
    assert_true(made > 500);   /* the round trip saw many queries, not only refusals */
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_query_as_text_has_the_terms_of_the_same_query_built_by_hand),
        cmocka_unit_test(a_component_with_a_value_is_written_and_a_tag_is_read_without_an_access),
        cmocka_unit_test(in_reads_and_out_and_inout_write),
        cmocka_unit_test(a_question_mark_makes_a_term_optional_with_its_access),
        cmocka_unit_test(added_changed_and_manual_are_accesses_of_tracked_components),
        cmocka_unit_test(a_pair_names_a_relationship_and_its_target_by_path),
        cmocka_unit_test(a_pair_with_any_target_is_each_target_and_takes_operators),
        cmocka_unit_test(the_library_s_own_components_answer_to_their_short_names),
        cmocka_unit_test(sources_read_from_the_parent_along_a_cascade_or_through_inheritance),
        cmocka_unit_test(spaces_between_tokens_do_not_matter),
        cmocka_unit_test(a_misspelt_component_is_named_with_its_column_a_caret_and_the_nearest_name),
        cmocka_unit_test(a_name_like_no_component_is_unknown_without_a_guess),
        cmocka_unit_test(a_character_out_of_place_is_named_with_its_column),
        cmocka_unit_test(a_text_that_ends_too_soon_says_what_was_expected),
        cmocka_unit_test(an_unknown_access_or_source_lists_the_known_ones),
        cmocka_unit_test(combinations_that_mean_no_term_kind_are_refused_with_the_reason),
        cmocka_unit_test(a_target_no_entity_has_is_not_found),
        cmocka_unit_test(more_terms_than_a_query_holds_are_a_limit),
        cmocka_unit_test(a_failed_parse_leaves_the_desc_empty),
        cmocka_unit_test(query_from_text_parses_and_makes_the_query),
        cmocka_unit_test(a_text_whose_terms_do_not_fit_together_fails_at_query_create),
        cmocka_unit_test(a_system_declares_its_query_as_text),
        cmocka_unit_test(a_system_s_text_that_does_not_parse_fails_add_system_naming_it),
        cmocka_unit_test(a_query_writes_back_as_the_text_it_was_read_from),
        cmocka_unit_test(query_text_follows_snprintf_when_the_buffer_is_short),
        cmocka_unit_test(names_with_other_characters_are_escaped_and_read_back),
        cmocka_unit_test(random_queries_write_back_as_text_that_parses_to_the_same_terms),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
