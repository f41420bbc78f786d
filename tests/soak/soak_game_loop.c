/* soak_game_loop.c: the game of examples/game_loop.c, run for a million frames (make soak)
   with seeded random input, to find what only a long run shows: memory that creeps up, a
   leak, a use after free that needs a rare sequence.

   The game is the example's own code (#included, its main renamed). Around it the run, each
   frame, at random: spawns debris (crates that also carry a Debris tag), some under a parent;
   despawns pieces, and whole trees from their root; reparents pieces and makes some roots
   again; sends Hit messages, read by a C system that records commands (a despawn, a spawn
   under a parent) and by a Lua system (tests/soak/soak.lua) that wears the debris down and
   despawns what is worn through; takes snapshots and restores them; pauses and resumes the
   game, and starts a new round when the ball has fallen. Every 10 000 frames it rewrites the
   script's VERSION line and reloads it (each reload migrates the script's component). The
   debris stays near TARGET pieces: spawns get likelier below it, despawns above it.

   The library's allocations go through counting hooks (ECS_SCHED_REALLOC, ECS_SCHED_FREE):
   the bytes it holds at frame FRAMES/10 and at the end must agree within 1 %, and be 0 once
   the app is destroyed; LeakSanitizer checks the rest at exit. Prints a line every 100 000
   frames (frame, entities, live bytes) and the verdict; exits 1 on any failure.

     soak_game_loop [FRAMES [SEED]]      FRAMES: a multiple of 100 000 (default 1 000 000)

   Run from the repository root (it reads tests/soak/soak.lua). The game's own lines (one a
   frame) go to /dev/null. */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- the library's allocations, counted ---- */

/* Each block carries its size in front, aligned for any type. */
typedef union soak_header {
    size_t size;
    long double align_ld;
    void *align_p;
    long long align_ll;
} soak_header;

static size_t soak_live_bytes, soak_live_blocks, soak_peak_bytes;

static void *soak_realloc(void *ptr, size_t size) {
    soak_header *old = ptr ? (soak_header *)ptr - 1 : NULL;
    size_t old_size = old ? old->size : 0;
    soak_header *block = (soak_header *)realloc(old, sizeof *block + size);
    if (!block) return NULL;
    if (!old) soak_live_blocks++;
    soak_live_bytes = soak_live_bytes - old_size + size;
    if (soak_live_bytes > soak_peak_bytes) soak_peak_bytes = soak_live_bytes;
    block->size = size;
    return block + 1;
}

static void soak_free(void *ptr) {
    soak_header *block;
    if (!ptr) return;
    block = (soak_header *)ptr - 1;
    soak_live_bytes -= block->size;
    soak_live_blocks--;
    free(block);
}

#define ECS_SCHED_REALLOC(ptr, size) soak_realloc((ptr), (size))
#define ECS_SCHED_FREE(ptr) soak_free(ptr)
#define ECS_SCHED_LUA

/* ---- the game ---- */

#define main game_loop_main
#include "../../examples/game_loop.c"
#undef main

/* ---- the run ---- */

#define SCRIPT_SOURCE "tests/soak/soak.lua"
#define RELOAD_EVERY 10000
#ifndef PROGRESS_EVERY
#define PROGRESS_EVERY 100000
#endif
#define TARGET 150                /* debris pieces the run hovers around */
#define TOLERANCE_PERCENT 1.0

typedef struct { int32_t amount; } Hit;   /* the script's message "Hit" */

typedef struct Soak {
    ecs_sched_app *app;
    ecs_sched_world *world;
    Game game;
    uint64_t rng;
    ecs_sched_id debris, hit, child_of;
    ecs_sched_query *debris_query, *ball_query;
    ecs_sched_script *script;
    char script_path[1100];
    int script_version;
    ecs_sched_snapshot *snapshot;
    /* what happened, for the summary */
    long spawned, despawned, trees_despawned, reparented, unparented, refused_cycles;
    long hits_sent, hits_read, shattered, snapshots_taken, snapshots_restored, rounds, pauses;
    long unexpected_errors;
} Soak;

static uint64_t soak_random(Soak *s) {
    uint64_t x = s->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return s->rng = x;
}

static int soak_below(Soak *s, int n) {
    return (int)(soak_random(s) % (uint64_t)n);
}

static bool soak_chance(Soak *s, int per_mille) {
    return soak_below(s, 1000) < per_mille;
}

/* A cycle refused by set_parent is part of the run; any other error or warning is not. */
static void soak_log(ecs_sched_log_level level, ecs_sched_result result, const char *message,
                     void *user_data) {
    Soak *s = (Soak *)user_data;
    if (level < ECS_SCHED_LOG_WARN) return;
    if (result == ECS_SCHED_ERR_RELATION_CYCLE) return;
    s->unexpected_errors++;
    fprintf(stderr, "soak: unexpected message: %s\n", message);
}

/* The k-th entity of a query (ECS_SCHED_NULL_ENTITY past the end). */
static ecs_sched_entity soak_nth(ecs_sched_query *q, int32_t k) {
    ecs_sched_iter it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) {
        if (k < it.count) {
            ecs_sched_entity e = it.entities[k];
            while (ecs_sched_iter_next(&it)) {
            }
            return e;
        }
        k -= it.count;
    }
    return ECS_SCHED_NULL_ENTITY;
}

static ecs_sched_entity soak_random_debris(Soak *s) {
    int32_t count = ecs_sched_query_count(s->debris_query);
    return count ? soak_nth(s->debris_query, soak_below(s, count)) : ECS_SCHED_NULL_ENTITY;
}

/* ---- the C system that reads hits ---- */

/* Each strong hit shatters a piece of debris: the piece goes, and a splinter takes its place
   under another piece; through the system's command buffer. */
static void shatter(ecs_sched_system_ctx *ctx) {
    Soak *s = (Soak *)ecs_sched_ctx_user_data(ctx);
    ecs_sched_messages hits = ecs_sched_ctx_messages(ctx, s->hit);
    ecs_sched_commands *commands = ecs_sched_ctx_commands(ctx);
    ecs_sched_query *q = ecs_sched_ctx_query(ctx, 0);
    int32_t strong = 0, count = ecs_sched_query_count(q), i;
    while (ecs_sched_messages_next(&hits)) {
        const Hit *h = (const Hit *)hits.data;
        for (i = 0; i < hits.count; i++) {
            s->hits_read++;
            if (h[i].amount >= 10) strong++;
        }
    }
    for (i = 0; i < strong && count > 1; i++) {
        ecs_sched_entity victim = soak_nth(q, soak_below(s, count));
        ecs_sched_entity holder = soak_nth(q, soak_below(s, count));
        Position p = {(float)soak_below(s, 100), 3.0f};
        Velocity v = {0.0f, 0.0f};
        Previous before = {p.x, p.y};
        Drawn drawn = {p.x, p.y};
        const ecs_sched_id ids[] = {s->game.position, s->game.velocity, s->game.previous,
                                    s->game.drawn, s->game.crate, s->debris};
        const void *const values[] = {&p, &v, &before, &drawn, NULL, NULL};
        ecs_sched_entity splinter = ecs_sched_commands_spawn_with(commands, 6, ids, values);
        ecs_sched_commands_despawn(commands, victim);
        if (holder != victim) ecs_sched_commands_set_parent(commands, splinter, holder);
        s->shattered++;
    }
}

/* ---- what the run does between frames ---- */

static void spawn_debris(Soak *s) {
    ecs_sched_world *w = s->world;
    ecs_sched_entity parent = soak_chance(s, 300) ? soak_random_debris(s) : ECS_SCHED_NULL_ENTITY;
    Position p = {(float)soak_below(s, 100), 2.0f + (float)soak_below(s, 7)};
    Previous before = {p.x, p.y};
    Drawn drawn = {p.x, p.y};
    Velocity v = {0.0f, 0.0f};
    const ecs_sched_id ids[] = {s->game.position, s->game.velocity, s->game.previous,
                                s->game.drawn, s->game.crate, s->debris};
    const void *const values[] = {&p, &v, &before, &drawn, NULL, NULL};
    ecs_sched_entity e = ecs_sched_spawn_with(w, 6, ids, values);
    if (e == ECS_SCHED_NULL_ENTITY) {
        s->unexpected_errors++;
        return;
    }
    s->spawned++;
    if (parent != ECS_SCHED_NULL_ENTITY && ecs_sched_set_parent(w, e, parent) != ECS_SCHED_OK) {
        s->unexpected_errors++;
    }
}

static void despawn_debris(Soak *s) {
    ecs_sched_entity e = soak_random_debris(s);
    if (e == ECS_SCHED_NULL_ENTITY) return;
    if (ecs_sched_despawn(s->world, e) != ECS_SCHED_OK) s->unexpected_errors++;
    s->despawned++;
}

/* Despawns the tree a random piece belongs to, from its root. */
static void despawn_tree(Soak *s) {
    ecs_sched_entity e = soak_random_debris(s), up;
    if (e == ECS_SCHED_NULL_ENTITY) return;
    while ((up = ecs_sched_parent_of(s->world, e)) != ECS_SCHED_NULL_ENTITY) e = up;
    if (ecs_sched_despawn(s->world, e) != ECS_SCHED_OK) s->unexpected_errors++;
    s->trees_despawned++;
}

/* Puts a piece under another; under its own descendant is refused (and must change nothing). */
static void reparent(Soak *s) {
    ecs_sched_world *w = s->world;
    ecs_sched_entity child = soak_random_debris(s), parent = soak_random_debris(s);
    ecs_sched_result r;
    if (child == ECS_SCHED_NULL_ENTITY || child == parent) return;
    r = ecs_sched_set_parent(w, child, parent);
    if (r == ECS_SCHED_OK) {
        s->reparented++;
    } else if (r == ECS_SCHED_ERR_RELATION_CYCLE) {
        s->refused_cycles++;
        ecs_sched_clear_error(w);
    } else {
        s->unexpected_errors++;
    }
}

static void unparent(Soak *s) {
    ecs_sched_entity e = soak_random_debris(s);
    if (e == ECS_SCHED_NULL_ENTITY || ecs_sched_parent_of(s->world, e) == ECS_SCHED_NULL_ENTITY) {
        return;
    }
    if (ecs_sched_set_parent(s->world, e, ECS_SCHED_NULL_ENTITY) != ECS_SCHED_OK) {
        s->unexpected_errors++;
    }
    s->unparented++;
}

static void send_hits(Soak *s) {
    int n = soak_below(s, 3), i;
    for (i = 0; i < n; i++) {
        Hit h;
        h.amount = 1 + soak_below(s, 10);
        if (ecs_sched_send(s->world, s->hit, &h) != ECS_SCHED_OK) s->unexpected_errors++;
        s->hits_sent++;
    }
}

static void drop_snapshot(Soak *s) {
    if (s->snapshot) ecs_sched_snapshot_free(s->snapshot);
    s->snapshot = NULL;
}

/* Takes a snapshot now and then; restores it (the world goes back to it) a while later. */
static void snapshots(Soak *s) {
    if (!s->snapshot) {
        if (soak_chance(s, 5)) {
            s->snapshot = ecs_sched_snapshot_take(s->world);
            if (!s->snapshot) s->unexpected_errors++;
            else s->snapshots_taken++;
        }
    } else if (soak_chance(s, 10)) {
        if (ecs_sched_snapshot_restore(s->world, s->snapshot) != ECS_SCHED_OK) {
            s->unexpected_errors++;
        }
        s->snapshots_restored++;
        drop_snapshot(s);
    } else if (soak_chance(s, 3)) {
        drop_snapshot(s);
    }
}

/* The ball back on the table, its state as at the start of a round. */
static void new_round(Soak *s) {
    ecs_sched_world *w = s->world;
    ecs_sched_app_exit *exit_flag =
        (ecs_sched_app_exit *)ecs_sched_resource_get_mut(w, s->game.exit);
    ecs_sched_entity ball = soak_nth(s->ball_query, 0);
    Position p = {0.0f, 1.0f};
    Previous before = {0.0f, 1.0f};
    Velocity v = {1.5f, 4.0f};
    if (!exit_flag || ball == ECS_SCHED_NULL_ENTITY ||
        ecs_sched_insert(w, ball, s->game.position, &p) != ECS_SCHED_OK ||
        ecs_sched_insert(w, ball, s->game.previous, &before) != ECS_SCHED_OK ||
        ecs_sched_insert(w, ball, s->game.velocity, &v) != ECS_SCHED_OK ||
        ecs_sched_state_set(w, s->game.app_state, PLAYING) != ECS_SCHED_OK) {
        s->unexpected_errors++;
        return;
    }
    exit_flag->requested = false;
    s->rounds++;
}

/* The player's keys: a new round once the ball has fallen, now and then a pause. */
static void play(Soak *s) {
    int32_t state = ecs_sched_state_get(s->world, s->game.app_state);
    if (s->game.frame < 50) return;   /* the example's own keys: start, pause, resume */
    if (ecs_sched_app_exit_requested(s->app, NULL)) {
        new_round(s);
    } else if (state == PLAYING && soak_chance(s, 4)) {
        if (ecs_sched_state_push(s->world, s->game.app_state, PAUSED) != ECS_SCHED_OK) {
            s->unexpected_errors++;
        }
        s->pauses++;
    } else if (state == PAUSED && soak_chance(s, 100)) {
        if (ecs_sched_state_pop(s->world, s->game.app_state) != ECS_SCHED_OK) {
            s->unexpected_errors++;
        }
    }
}

static void act_at_random(Soak *s) {
    int32_t pieces = ecs_sched_query_count(s->debris_query);
    int spawn = pieces < TARGET ? 450 : 150, despawn = pieces > TARGET ? 450 : 150;
    play(s);
    if (soak_chance(s, spawn)) {
        int n = 1 + soak_below(s, 3), i;
        for (i = 0; i < n; i++) spawn_debris(s);
    }
    if (soak_chance(s, despawn)) despawn_debris(s);
    if (soak_chance(s, pieces > TARGET ? 20 : 5)) despawn_tree(s);
    if (soak_chance(s, 100)) reparent(s);
    if (soak_chance(s, 40)) unparent(s);
    send_hits(s);
    snapshots(s);
}

/* The script with its VERSION line set to `version`, written to s->script_path. */
static bool write_script(Soak *s, int version) {
    static char text[16384];
    const char *line = "local VERSION = 1\n";
    const char *at;
    size_t n;
    FILE *in = fopen(SCRIPT_SOURCE, "r"), *out;
    if (!in) {
        perror(SCRIPT_SOURCE " (run from the repository root)");
        return false;
    }
    n = fread(text, 1, sizeof text - 1, in);
    text[n] = '\0';
    fclose(in);
    if (!(at = strstr(text, line)) || !(out = fopen(s->script_path, "w"))) {
        fprintf(stderr, "soak: cannot rewrite %s into %s\n", SCRIPT_SOURCE, s->script_path);
        return false;
    }
    fwrite(text, 1, (size_t)(at - text), out);
    fprintf(out, "local VERSION = %d\n", version);
    fputs(at + strlen(line), out);
    fclose(out);
    return true;
}

/* The next version of the script; a snapshot taken before its migration could not be
   restored after it, so the one held goes first. */
static bool reload_script(Soak *s) {
    drop_snapshot(s);
    if (!write_script(s, s->script_version + 1)) return false;
    if (ecs_sched_script_reload(s->world, s->script) != ECS_SCHED_OK) {
        fprintf(stderr, "soak: reload of version %d: %s\n", s->script_version + 1,
                ecs_sched_last_error(s->world));
        return false;
    }
    s->script_version++;
    return true;
}

static bool soak_setup(Soak *s, const char *program) {
    ecs_sched_app_desc desc;
    ecs_sched_script_driver lua = ecs_sched_lua_script_driver(NULL);
    ecs_sched_query_desc q;
    ecs_sched_system_desc shatter_desc;
    ecs_sched_world *w;
    memset(&desc, 0, sizeof desc);
    desc.world.logger.fn = soak_log;
    desc.world.logger.user_data = s;
    if (!(s->app = ecs_sched_app_create(&desc))) return false;
    w = s->world = ecs_sched_app_world(s->app);
    if (setup_game(s->app, &s->game, CRATES) != ECS_SCHED_OK) return false;
    s->debris = ECS_SCHED_TAG(w, Debris);
    snprintf(s->script_path, sizeof s->script_path, "%s.soak.lua", program);
    s->script_version = 1;
    if (!write_script(s, 1) || ecs_sched_script_driver_add(w, &lua) != ECS_SCHED_OK ||
        !(s->script = ecs_sched_script_load(w, s->script_path))) {
        return false;
    }
    s->hit = ecs_sched_component_lookup(w, "Hit");
    memset(&q, 0, sizeof q);
    q.terms[0] = ecs_sched_read(s->debris);
    s->debris_query = ecs_sched_query_create(w, &q);
    q.terms[0] = ecs_sched_read(s->game.ball);
    s->ball_query = ecs_sched_query_create(w, &q);
    memset(&shatter_desc, 0, sizeof shatter_desc);
    shatter_desc.name = "shatter";
    shatter_desc.fn = shatter;
    shatter_desc.user_data = s;
    shatter_desc.reads[0] = s->hit;
    shatter_desc.commands = true;
    shatter_desc.queries[0].terms[0] = ecs_sched_read(s->debris);
    return s->hit && s->debris_query && s->ball_query &&
           ecs_sched_add_system(w, ECS_SCHED_POST_UPDATE, &shatter_desc) == ECS_SCHED_OK;
}

static double seconds_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    static Soak soak;
    Soak *s = &soak;
    long frames = argc > 1 ? atol(argv[1]) : 1000000L;
    long frame, first_at = frames / 10;
    uint32_t frame_seed = 2024;
    size_t bytes_first = 0, bytes_end = 0;
    int32_t entities_first = 0, entities_end = 0;
    double start = seconds_now(), drift;
    bool ok = true;
    FILE *out;
    int out_fd = dup(1);
    s->rng = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    if (frames < PROGRESS_EVERY || frames % PROGRESS_EVERY != 0 || s->rng == 0 || out_fd < 0 ||
        !(out = fdopen(out_fd, "w"))) {
        fprintf(stderr, "usage: %s [FRAMES [SEED]]  (FRAMES: a multiple of %d; SEED: not 0)\n",
                argv[0], PROGRESS_EVERY);
        return 2;
    }
    setvbuf(out, NULL, _IOLBF, 0);
    if (!freopen("/dev/null", "w", stdout)) return 2;   /* the game's line a frame */
    fprintf(out, "soak: the game loop for %ld frames, seed %llu, under %s\n", frames,
            (unsigned long long)s->rng, "ASan+UBSan");
    if (!soak_setup(s, argv[0])) {
        fprintf(stderr, "soak: setup failed: %s\n",
                s->world ? ecs_sched_last_error(s->world) : "no app");
        return 1;
    }
    for (frame = 1; frame <= frames && ok; frame++) {
        act_at_random(s);
        if (ecs_sched_app_update_by(s->app, next_frame_time(&frame_seed)) != ECS_SCHED_OK) {
            fprintf(stderr, "soak: frame %ld: %s\n", frame, ecs_sched_last_error(s->world));
            ok = false;
        }
        /* a reload ends the frame: the measures see a new Lua state, and no snapshot */
        if (ok && frame % RELOAD_EVERY == 0) ok = reload_script(s);
        if (s->unexpected_errors) ok = false;
        if (frame == first_at) {
            bytes_first = soak_live_bytes;
            entities_first = ecs_sched_entity_count(s->world);
        }
        if (frame % PROGRESS_EVERY == 0) {
            fprintf(out, "frame %7ld  entities %4d  live bytes %8zu  (%zu blocks)  %.0f s\n",
                    frame, (int)ecs_sched_entity_count(s->world), soak_live_bytes,
                    soak_live_blocks, seconds_now() - start);
        }
    }
    if (!ok) fprintf(stderr, "soak: stopped at frame %ld (seed %llu)\n", frame - 1,
                     (unsigned long long)(argc > 2 ? strtoull(argv[2], NULL, 10) : 1));
    bytes_end = soak_live_bytes;
    entities_end = ecs_sched_entity_count(s->world);
    fprintf(out, "rounds %ld, pauses %ld; debris spawned %ld, despawned %ld, trees despawned %ld, "
            "shattered %ld; reparented %ld (cycles refused %ld), made roots %ld; hits sent %ld, "
            "read %ld; snapshots taken %ld, restored %ld; script version %d\n",
            s->rounds, s->pauses, s->spawned, s->despawned, s->trees_despawned, s->shattered,
            s->reparented, s->refused_cycles, s->unparented, s->hits_sent, s->hits_read,
            s->snapshots_taken, s->snapshots_restored, s->script_version);
    drop_snapshot(s);
    ecs_sched_app_destroy(s->app);
    remove(s->script_path);
    drift = bytes_first ? 100.0 * ((double)bytes_end - (double)bytes_first) / (double)bytes_first
                        : 0.0;
    fprintf(out, "live bytes at frame %ld: %zu (%d entities); at frame %ld: %zu (%d entities): "
            "%+.2f %%; peak %zu; after the app is destroyed: %zu in %zu blocks; %.0f s\n",
            first_at, bytes_first, (int)entities_first, frames, bytes_end, (int)entities_end,
            drift, soak_peak_bytes, soak_live_bytes, soak_live_blocks, seconds_now() - start);
    if (ok && (drift > TOLERANCE_PERCENT || drift < -TOLERANCE_PERCENT)) {
        fprintf(out, "FAIL: the live bytes moved by more than %.0f %%\n", TOLERANCE_PERCENT);
        ok = false;
    }
    if (ok && (soak_live_bytes || soak_live_blocks)) {
        fprintf(out, "FAIL: the destroyed app left %zu bytes in %zu blocks\n", soak_live_bytes,
                soak_live_blocks);
        ok = false;
    }
    fprintf(out, "%s\n", ok ? "soak passed" : "soak FAILED");
    fclose(out);
    return ok ? 0 : 1;
}
