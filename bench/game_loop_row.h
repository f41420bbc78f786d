/* game_loop_row.h: the world of examples/game_loop.c for the game_loop_frame row, compiled in
   its own file (game_loop_row.c) with a private copy of the library. */
#ifndef GAME_LOOP_ROW_H
#define GAME_LOOP_ROW_H

typedef struct game_loop_bench game_loop_bench;

/* The example's app and plugins, `crates` crates, the ball removed (so the game never ends),
   and the game playing. NULL on failure. */
game_loop_bench *game_loop_bench_create(int crates);
/* One update of the app, 1/64 s: one fixed step. 0 on failure. */
int game_loop_bench_frame(game_loop_bench *b);
/* The same frame's work by hand on the same world: the example's kernels over the same
   queries, in the order the app runs them. */
void game_loop_bench_by_hand(game_loop_bench *b);
void game_loop_bench_destroy(game_loop_bench *b);

#endif
