/* Relationships against a model: thousands of random spawns, despawns, reparentings,
   relates and unrelates, names and renames on a few dozen entities, each checked against a
   plain model of who is whose parent, who likes whom and what is named what, and against
   ecs_sched_world_check, after every step. */
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

#define SLOTS 40
#define STEPS 20000

typedef struct model {
    ecs_sched_entity e[SLOTS];       /* 0: the slot is empty */
    int parent[SLOTS];               /* slot of the parent, or -1 */
    int children[SLOTS][SLOTS];      /* in order */
    int child_count[SLOTS];
    unsigned char likes[SLOTS][SLOTS];
    int name[SLOTS];                 /* a number, or -1 */
} model;

static unsigned g_seed;

static unsigned next_random(void) {
    g_seed = g_seed * 1103515245u + 12345u;
    return g_seed >> 8;
}

static void drop_child(model *m, int parent, int child) {
    int i, k = 0;
    for (i = 0; i < m->child_count[parent]; i++) {
        if (m->children[parent][i] != child) m->children[parent][k++] = m->children[parent][i];
    }
    m->child_count[parent] = k;
}

static void model_despawn(model *m, int s) {
    int i;
    while (m->child_count[s] > 0) model_despawn(m, m->children[s][m->child_count[s] - 1]);
    if (m->parent[s] >= 0) drop_child(m, m->parent[s], s);
    for (i = 0; i < SLOTS; i++) m->likes[s][i] = m->likes[i][s] = 0;
    m->e[s] = 0;
    m->parent[s] = -1;
    m->name[s] = -1;
}

static bool model_below(const model *m, int a, int b) {   /* whether a is b or below b */
    for (; a >= 0; a = m->parent[a]) {
        if (a == b) return true;
    }
    return false;
}

static bool model_name_taken(const model *m, int scope, int name, int except) {
    int i;
    for (i = 0; i < SLOTS; i++) {
        if (i != except && m->e[i] && m->name[i] == name && m->parent[i] == scope) return true;
    }
    return false;
}

static int slot_of(const model *m, ecs_sched_entity e) {
    int i;
    for (i = 0; i < SLOTS; i++) {
        if (m->e[i] == e) return i;
    }
    return -1;
}

static void check_model(ecs_sched_world *w, const model *m, ecs_sched_id likes) {
    int s, t, i;
    char text[16];
    assert_int_equal(ecs_sched_world_check(w), ECS_SCHED_OK);
    for (s = 0; s < SLOTS; s++) {
        const ecs_sched_entity *kids;
        int32_t n, fans = 0;
        if (!m->e[s]) continue;
        assert_true(ecs_sched_is_alive(w, m->e[s]));
        assert_true(ecs_sched_parent_of(w, m->e[s]) == (m->parent[s] >= 0 ? m->e[m->parent[s]] : 0));
        kids = ecs_sched_children(w, m->e[s], &n);
        assert_int_equal(n, m->child_count[s]);
        for (i = 0; i < n; i++) assert_true(kids[i] == m->e[m->children[s][i]]);
        for (t = 0; t < SLOTS; t++) {
            bool has = m->e[t] && ecs_sched_has_relation(w, m->e[s], likes, m->e[t]);
            assert_int_equal(has, m->e[t] ? m->likes[s][t] : 0);
            fans += m->e[t] && m->likes[t][s];
        }
        ecs_sched_sources(w, likes, m->e[s], &n);
        assert_int_equal(n, fans);
        if (m->name[s] >= 0) {
            snprintf(text, sizeof text, "n%d", m->name[s]);
            assert_string_equal(ecs_sched_name(w, m->e[s]), text);
            assert_true(ecs_sched_lookup(w, m->parent[s] >= 0 ? m->e[m->parent[s]] : 0, text) == m->e[s]);
        } else {
            assert_null(ecs_sched_name(w, m->e[s]));
        }
    }
}

static void step(ecs_sched_world *w, model *m, ecs_sched_id likes) {
    int s = (int)(next_random() % SLOTS), t = (int)(next_random() % SLOTS);
    unsigned op = next_random() % 8;
    char text[16];
    if (!m->e[s]) {   /* an empty slot: a spawn */
        m->e[s] = ecs_sched_spawn(w);
        assert_true(m->e[s] != 0);
        m->parent[s] = -1;
        m->name[s] = -1;
        return;
    }
    switch (op) {
    case 0:
        assert_int_equal(ecs_sched_despawn(w, m->e[s]), ECS_SCHED_OK);
        model_despawn(m, s);
        break;
    case 1:
    case 2: {   /* set_parent, at an index now and then */
        ecs_sched_result r;
        int at = -1;
        if (!m->e[t]) break;
        if (op == 2 && m->child_count[t] > 0) at = (int)(next_random() % (unsigned)(m->child_count[t] + 1));
        r = at >= 0 ? ecs_sched_set_parent_at(w, m->e[s], m->e[t], at)
                    : ecs_sched_set_parent(w, m->e[s], m->e[t]);
        if (model_below(m, t, s)) {
            assert_int_equal(r, ECS_SCHED_ERR_RELATION_CYCLE);
        } else if (m->name[s] >= 0 && m->parent[s] != t && model_name_taken(m, t, m->name[s], s)) {
            assert_int_equal(r, ECS_SCHED_ERR_NAME_CLASH);
        } else {
            int i;
            assert_int_equal(r, ECS_SCHED_OK);
            if (m->parent[s] >= 0) drop_child(m, m->parent[s], s);
            m->parent[s] = t;
            if (at < 0 || at > m->child_count[t]) at = m->child_count[t];
            for (i = m->child_count[t]; i > at; i--) m->children[t][i] = m->children[t][i - 1];
            m->children[t][at] = s;
            m->child_count[t]++;
        }
        break;
    }
    case 3: {   /* to the roots */
        ecs_sched_result r = ecs_sched_set_parent(w, m->e[s], ECS_SCHED_NULL_ENTITY);
        if (m->parent[s] >= 0 && m->name[s] >= 0 && model_name_taken(m, -1, m->name[s], s)) {
            assert_int_equal(r, ECS_SCHED_ERR_NAME_CLASH);
        } else {
            assert_int_equal(r, ECS_SCHED_OK);
            if (m->parent[s] >= 0) drop_child(m, m->parent[s], s);
            m->parent[s] = -1;
        }
        break;
    }
    case 4:
        if (!m->e[t]) break;
        if (s == t) {   /* no entity is its own target */
            assert_int_equal(ecs_sched_relate(w, m->e[s], likes, m->e[t], NULL), ECS_SCHED_ERR_RELATION_CYCLE);
            break;
        }
        assert_int_equal(ecs_sched_relate(w, m->e[s], likes, m->e[t], NULL), ECS_SCHED_OK);
        m->likes[s][t] = 1;
        break;
    case 5:
        if (!m->e[t]) break;
        assert_int_equal(ecs_sched_unrelate(w, m->e[s], likes, m->e[t]), ECS_SCHED_OK);
        m->likes[s][t] = 0;
        break;
    case 6:
        if (next_random() % 4 == 0) {
            int i;
            assert_int_equal(ecs_sched_remove(w, m->e[s], likes), ECS_SCHED_OK);
            for (i = 0; i < SLOTS; i++) m->likes[s][i] = 0;
        }
        break;
    default: {   /* a name from a small set, so that clashes happen */
        int name = (int)(next_random() % 6);
        ecs_sched_result r;
        snprintf(text, sizeof text, "n%d", name);
        r = ecs_sched_set_name(w, m->e[s], text);
        if (model_name_taken(m, m->parent[s], name, s)) {
            assert_int_equal(r, ECS_SCHED_ERR_NAME_CLASH);
        } else {
            assert_int_equal(r, ECS_SCHED_OK);
            m->name[s] = name;
        }
        break;
    }
    }
}

static void random_operations_agree_with_the_model(void **state) {
    unsigned seeds[3] = {1, 77, 4242};
    int k, i;
    (void)state;
    for (k = 0; k < 3; k++) {
        ecs_sched_world *w = new_world();
        ecs_sched_relation_desc d;
        ecs_sched_id likes;
        static model m;
        memset(&m, 0, sizeof m);
        for (i = 0; i < SLOTS; i++) {
            m.parent[i] = -1;
            m.name[i] = -1;
        }
        memset(&d, 0, sizeof d);
        d.name = "Likes";
        likes = ecs_sched_relation_register(w, &d);
        g_seed = seeds[k];
        for (i = 0; i < STEPS; i++) {
            step(w, &m, likes);
            if (i % 10 == 0 || i == STEPS - 1) check_model(w, &m, likes);
        }
        (void)slot_of;
        check_and_destroy(w);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_operations_agree_with_the_model),
    };
    return cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
}
