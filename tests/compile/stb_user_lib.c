/* stb_user_lib.c - the library's implementation in a file that also uses stb_ds's short
   names: stb_ds.h is included BEFORE ecs_sched.h, so the implementation uses that inclusion
   and the short names stay available here. Linked with stb_user_short_names.c and -lstb (or
   included by stb_user_impl.c); see the commands at the top of stb_user_short_names.c. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(typeof)
#define typeof __typeof__ /* for hmput under strict -std=c99 with gcc */
#endif
#include "stb_ds.h"
#define ECS_SCHED_IMPLEMENTATION
#include "ecs_sched.h"

/* Shared with stb_user_short_names.c. */
typedef struct { int points; } Score;
ecs_sched_id stb_user_register_score(ecs_sched_world *w);
ecs_sched_entity stb_user_spawn_scored(ecs_sched_world *w, ecs_sched_id score, int points);
long stb_user_total_score(ecs_sched_world *w, ecs_sched_id score);

ecs_sched_id stb_user_register_score(ecs_sched_world *w) {
    return ECS_SCHED_COMPONENT(w, Score);
}

ecs_sched_entity stb_user_spawn_scored(ecs_sched_world *w, ecs_sched_id score, int points) {
    Score s;
    const void *values[1];
    s.points = points;
    values[0] = &s;
    return ecs_sched_spawn_with(w, 1, &score, values);
}

/* Collects every score with a query into a stb_ds array, counts distinct values in a stb_ds
   hash map, and returns the sum (or -1 when something is off). */
long stb_user_total_score(ecs_sched_world *w, ecs_sched_id score) {
    struct { int key; int value; } *seen = NULL;
    int *points = NULL;
    long sum = 0;
    ecs_sched_query_desc qd = {{ecs_sched_read(score)}};
    ecs_sched_query *q = ecs_sched_query_create(w, &qd);
    ecs_sched_iter it;
    if (!q) return -1;
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        const Score *s = ECS_SCHED_FIELD(&it, const Score, 0);
        for (int32_t i = 0; i < it.count; i++) {
            arrput(points, s[i].points);
            hmput(seen, s[i].points, 1);
        }
    }
    for (int i = 0; i < arrlen(points); i++) sum += points[i];
    if (arrlen(points) != ecs_sched_query_count(q) || hmlen(seen) != arrlen(points)) sum = -1;
    arrfree(points);
    hmfree(seen);
    ecs_sched_query_destroy(q);
    return sum;
}
