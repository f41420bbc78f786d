/* stb_user_short_names.c - a program that uses stb_ds with its short names (arrput, hmput,
   shput...) next to the library. This file includes both headers, without the library's
   implementation. The implementation is in a file that includes stb_ds.h (short names)
   before ecs_sched.h and uses both: stb_user_lib.c, where stb_ds's implementation comes
   from -lstb, or stb_user_impl.c, the same file plus stb_ds's implementation compiled by
   the user:

     cc -std=c99 -Wall -Wextra -Wpedantic -Werror -I. $(pkg-config --cflags stb) \
        tests/compile/stb_user_short_names.c tests/compile/stb_user_lib.c \
        $(pkg-config --libs stb) -o build/stb_lib && build/stb_lib

     cc -std=c99 -Wall -Wextra -Wpedantic -Werror -I. $(pkg-config --cflags stb) \
        tests/compile/stb_user_short_names.c tests/compile/stb_user_impl.c \
        -o build/stb_own && build/stb_own

   (cc: gcc and clang.) Exits 0 when every check holds. */

/* stb_ds's hmput/hmget with non-string keys use `typeof`, which gcc does not provide under
   strict -std=c99; its __typeof__ works the same. Clang takes stb_ds's own __typeof__ path. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(typeof)
#define typeof __typeof__
#endif
#include "stb_ds.h"
#include "ecs_sched.h"

#include <stdio.h>

/* Shared with stb_user_lib.c. */
typedef struct { int points; } Score;
ecs_sched_id stb_user_register_score(ecs_sched_world *w);
ecs_sched_entity stb_user_spawn_scored(ecs_sched_world *w, ecs_sched_id score, int points);
long stb_user_total_score(ecs_sched_world *w, ecs_sched_id score);

typedef struct { int key; ecs_sched_entity value; } EntityByNumber;
typedef struct { char *key; ecs_sched_id value; } IdByName;

int main(void) {
    int ok = 1;
    ecs_sched_world *w = ecs_sched_world_create(NULL);
    if (!w) return 1;

    /* The user's own stb_ds containers, with short names. */
    ecs_sched_entity *spawned = NULL;        /* stb_ds dynamic array */
    EntityByNumber *by_number = NULL;        /* stb_ds hash map, int keys */
    IdByName *ids = NULL;                    /* stb_ds string map */

    ecs_sched_id score = stb_user_register_score(w); /* in stb_user_lib.c */
    shput(ids, "Score", score);
    ok &= score != 0 && shget(ids, "Score") == score;
    ok &= ecs_sched_component_lookup(w, "Score") == score;

    for (int i = 0; i < 100; i++) {
        ecs_sched_entity e = stb_user_spawn_scored(w, score, i * 3); /* in stb_user_lib.c */
        arrput(spawned, e);
        hmput(by_number, i, e);
    }
    ok &= arrlen(spawned) == 100 && hmlen(by_number) == 100;
    ok &= ecs_sched_entity_count(w) == 100;

    /* Every handle the map holds still names the entity with the matching score. */
    for (int i = 0; i < 100; i++) {
        ecs_sched_entity e = hmget(by_number, i);
        const Score *s = (const Score *)ecs_sched_get(w, e, score);
        ok &= e == spawned[i] && s != NULL && s->points == i * 3;
    }

    /* The library's implementation file uses stb_ds too: sum there and here must agree. */
    long sum = 0;
    for (int i = 0; i < arrlen(spawned); i++) sum += i * 3;
    ok &= stb_user_total_score(w, score) == sum;

    ok &= hmdel(by_number, 7) == 1;
    ok &= hmgeti(by_number, 7) == -1 && hmlen(by_number) == 99;
    ok &= ecs_sched_despawn(w, arrpop(spawned)) == ECS_SCHED_OK;
    ok &= arrlen(spawned) == 99 && ecs_sched_entity_count(w) == 99;

    arrfree(spawned);
    hmfree(by_number);
    shfree(ids);
    ecs_sched_world_destroy(w);
    printf("stb_user: %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
