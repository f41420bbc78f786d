/* Messages between systems, and the lists of removed components. A sender declares the
   message type in .writes, a reader in .reads; every reader gets every message once, in send
   order, with a cursor of its own. A message lives for two updates of the queues (an app
   updates them at the start of a frame once a fixed step ran since the last update); a
   reader that falls behind counts what it missed. A tracked component's removals are read
   the same way. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "app_fixture.h"

typedef struct Hit {
    int32_t target;
    int32_t damage;
} Hit;

static ecs_sched_id g_hit;

static ecs_sched_world *message_world(void) {
    ecs_sched_world *w = new_world();
    g_hit = ECS_SCHED_MESSAGE(w, Hit);
    assert_true(g_hit != 0);
    return w;
}

static void send_hits(ecs_sched_world *w, int32_t first, int32_t count) {
    int32_t i;
    for (i = 0; i < count; i++) {
        Hit h;
        h.target = first + i;
        h.damage = 1;
        assert_int_equal(ecs_sched_send(w, g_hit, &h), ECS_SCHED_OK);
    }
}

/* The targets a read hands out, as "1 2 3", appended to `out`. */
static void targets_of(ecs_sched_messages read, char *out, size_t n) {
    size_t at = strlen(out);
    while (ecs_sched_messages_next(&read)) {
        const Hit *h = (const Hit *)read.data;
        int32_t i;
        for (i = 0; i < read.count && at < n - 16; i++) {
            at += (size_t)snprintf(out + at, n - at, "%s%d", at ? " " : "", (int)h[i].target);
        }
    }
}

static const char *read_all(ecs_sched_world *w, ecs_sched_message_cursor *cursor) {
    static char text[1024];
    text[0] = '\0';
    targets_of(ecs_sched_message_read(w, cursor), text, sizeof text);
    return text;
}

/* ---- outside systems ---- */

static void each_cursor_reads_every_message_once_in_send_order(void **state) {
    ecs_sched_world *w = message_world();
    ecs_sched_message_cursor fast, slow;
    (void)state;
    fast = ecs_sched_message_cursor_make(w, g_hit);
    slow = ecs_sched_message_cursor_make(w, g_hit);
    send_hits(w, 1, 3);
    assert_string_equal(read_all(w, &fast), "1 2 3");
    send_hits(w, 4, 2);
    assert_int_equal(ecs_sched_message_unread(w, &slow), 5);
    assert_string_equal(read_all(w, &fast), "4 5");
    assert_string_equal(read_all(w, &fast), "");
    assert_string_equal(read_all(w, &slow), "1 2 3 4 5");
    assert_int_equal(slow.missed, 0);
    check_and_destroy(w);
}

static void a_message_lives_for_two_updates_and_a_slow_reader_counts_what_it_missed(void **state) {
    ecs_sched_world *w = message_world();
    ecs_sched_message_cursor every, late;
    ecs_sched_messages read;
    (void)state;
    every = ecs_sched_message_cursor_make(w, g_hit);
    late = ecs_sched_message_cursor_make(w, g_hit);
    send_hits(w, 1, 2);                      /* update 0 */
    ecs_sched_messages_update(w);
    send_hits(w, 3, 1);                      /* update 1 */
    assert_string_equal(read_all(w, &every), "1 2 3");
    ecs_sched_messages_update(w);            /* 1 and 2 go */
    send_hits(w, 4, 1);
    assert_string_equal(read_all(w, &every), "4");
    read = ecs_sched_message_read(w, &late);
    assert_int_equal(read.missed, 2);
    assert_int_equal(read.total, 2);
    {
        char text[64] = "";
        targets_of(read, text, sizeof text);
        assert_string_equal(text, "3 4");
    }
    assert_int_equal(late.missed, 2);
    check_and_destroy(w);
}

static void a_new_cursor_starts_at_the_oldest_message_kept(void **state) {
    ecs_sched_world *w = message_world();
    ecs_sched_message_cursor c;
    (void)state;
    send_hits(w, 1, 1);
    ecs_sched_messages_update(w);
    send_hits(w, 2, 1);
    ecs_sched_messages_update(w);            /* 1 goes */
    c = ecs_sched_message_cursor_make(w, g_hit);
    assert_string_equal(read_all(w, &c), "2");
    assert_int_equal(c.missed, 0);
    check_and_destroy(w);
}

static int g_dropped;
static void count_drops(void *ptr, int32_t count, void *ctx) {
    (void)ptr;
    (void)ctx;
    g_dropped += count;
}

static void a_dropped_message_gets_its_types_dtor(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_message_desc desc;
    ecs_sched_id owned;
    Hit h = {1, 2};
    (void)state;
    memset(&desc, 0, sizeof desc);
    desc.name = "Owned";
    desc.size = sizeof(Hit);
    desc.hooks.dtor = count_drops;
    owned = ecs_sched_message_register(w, &desc);
    assert_true(owned != 0);
    g_dropped = 0;
    assert_int_equal(ecs_sched_send(w, owned, &h), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_send(w, owned, &h), ECS_SCHED_OK);
    ecs_sched_messages_update(w);
    assert_int_equal(g_dropped, 0);
    assert_int_equal(ecs_sched_send(w, owned, &h), ECS_SCHED_OK);
    ecs_sched_messages_update(w);
    assert_int_equal(g_dropped, 2);
    check_and_destroy(w);
    assert_int_equal(g_dropped, 3);          /* the world takes the rest along */
}

static void sending_something_that_is_not_a_message_type_is_refused(void **state) {
    ecs_sched_world *w = message_world();
    ecs_sched_id position = ECS_SCHED_COMPONENT(w, Position);
    Position p = {0, 0};
    (void)state;
    assert_int_equal(ecs_sched_send(w, position, &p), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "'Position' is a component, not a message type"));
    assert_int_equal(ecs_sched_send(w, 999, &p), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_int_equal(ecs_sched_message_register_type(w, "Position", sizeof p, 0), 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_COMPONENT_MISMATCH);
    check_and_destroy(w);
}

static void an_unknown_message_id_is_told_to_register_a_message_type(void **state) {
    ecs_sched_world *w = message_world();
    int32_t one = 1;
    (void)state;
    assert_int_equal(ecs_sched_send(w, 999, &one), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "send: id 999 is no message type"));
    assert_non_null(strstr(ecs_sched_last_error(w), "ECS_SCHED_MESSAGE"));
    assert_null(strstr(ecs_sched_last_error(w), "ECS_SCHED_COMPONENT"));
    check_and_destroy(w);
}

static void reading_the_cursor_of_a_failed_make_says_the_make_failed(void **state) {
    ecs_sched_world *w = message_world();
    ecs_sched_message_cursor c = ecs_sched_message_cursor_make(w, 999);
    (void)state;
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "message_cursor_make: id 999"));
    assert_int_equal(ecs_sched_message_read(w, &c).count, 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "message_read: the cursor is empty: the "
                                                    "ecs_sched_message_cursor_make"));
    check_and_destroy(w);
}

/* ---- systems ---- */

static char g_read[1024];

static void send_two(ecs_sched_system_ctx *ctx) {
    Hit hits[2] = {{10, 1}, {11, 1}};
    ecs_sched_ctx_send_batch(ctx, g_hit, 2, hits);
}

static void send_in_place(ecs_sched_system_ctx *ctx) {
    int32_t i;
    for (i = 0; i < 40; i++) {   /* past the first buffer's room */
        Hit *h = (Hit *)ecs_sched_ctx_send_new(ctx, g_hit);
        assert_non_null(h);
        assert_int_equal(h->target, 0);
        h->target = 100 + i;
    }
}

static void read_hits(ecs_sched_system_ctx *ctx) {
    size_t n = strlen(g_read);
    char text[512] = "";
    targets_of(ecs_sched_ctx_messages(ctx, g_hit), text, sizeof text);
    snprintf(g_read + n, sizeof g_read - n, "%s%s[%s]", n ? " " : "", ecs_sched_ctx_name(ctx), text);
}

static void a_reader_after_the_sender_sees_its_messages_in_the_same_run(void **state) {
    ecs_sched_world *w = message_world();
    (void)state;
    g_read[0] = '\0';
    ADD_SYSTEM(w, .name = "before", .fn = read_hits, .reads = {g_hit});
    ADD_SYSTEM(w, .name = "send", .fn = send_two, .writes = {g_hit}, .after = {"before"});
    ADD_SYSTEM(w, .name = "after", .fn = read_hits, .reads = {g_hit}, .after = {"send"});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_read, "before[] after[10 11] before[10 11] after[10 11]");
    check_and_destroy(w);
}

static void a_message_sent_in_place_is_read_like_any(void **state) {
    ecs_sched_world *w = message_world();
    ecs_sched_message_cursor c;
    (void)state;
    c = ecs_sched_message_cursor_make(w, g_hit);
    ADD_SYSTEM(w, .name = "send", .fn = send_in_place, .writes = {g_hit});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    {
        ecs_sched_messages read = ecs_sched_message_read(w, &c);
        int32_t seen = 0;
        assert_int_equal(read.total, 40);
        while (ecs_sched_messages_next(&read)) {
            const Hit *h = (const Hit *)read.data;
            int32_t i;
            for (i = 0; i < read.count; i++, seen++) assert_int_equal(h[i].target, 100 + seen);
        }
        assert_int_equal(seen, 40);
    }
    check_and_destroy(w);
}

static void sending_without_declaring_the_write_fails_the_system(void **state) {
    ecs_sched_world *w = message_world();
    (void)state;
    ADD_SYSTEM(w, .name = "sneaky", .fn = send_two, .reads = {g_hit});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_non_null(strstr(ecs_sched_last_error(w), "system 'sneaky'"));
    assert_non_null(strstr(ecs_sched_last_error(w), "sends messages of 'Hit' without declaring"));
    check_and_destroy(w);
}

static void reading_without_declaring_fails_the_system(void **state) {
    ecs_sched_world *w = message_world();
    (void)state;
    g_read[0] = '\0';
    ADD_SYSTEM(w, .name = "nosy", .fn = read_hits);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_non_null(strstr(ecs_sched_last_error(w), "system 'nosy'"));
    assert_non_null(strstr(ecs_sched_last_error(w), "reads messages of 'Hit' without declaring"));
    check_and_destroy(w);
}

static void a_sender_and_a_reader_conflict_like_a_writer_and_a_reader(void **state) {
    ecs_sched_world *w = message_world();
    ecs_sched_schedule_desc desc;
    (void)state;
    memset(&desc, 0, sizeof desc);
    desc.ambiguities = ECS_SCHED_REPORT_ERROR;
    assert_int_equal(ecs_sched_schedule_configure(w, UPDATE, &desc), ECS_SCHED_OK);
    ADD_SYSTEM(w, .name = "send", .fn = send_two, .writes = {g_hit});
    ADD_SYSTEM(w, .name = "read", .fn = read_hits, .reads = {g_hit});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_AMBIGUITY);
    assert_non_null(strstr(ecs_sched_last_error(w), "Hit"));
    check_and_destroy(w);
}

static int g_guarded;
static void count_guarded(ecs_sched_system_ctx *ctx) {
    (void)ctx;
    g_guarded++;
}

static void on_message_is_true_once_for_each_batch_of_new_messages(void **state) {
    ecs_sched_world *w = message_world();
    ecs_sched_condition when = ecs_sched_condition_on_message(g_hit);
    (void)state;
    g_guarded = 0;
    g_read[0] = '\0';
    ADD_SYSTEM(w, .name = "react", .fn = read_hits, .reads = {g_hit}, .run_if = {&when});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* none */
    send_hits(w, 1, 2);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* runs, reads both */
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);   /* none new */
    send_hits(w, 3, 1);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_read, "react[1 2] react[3]");
    check_and_destroy(w);
}

static void on_message_of_a_component_is_refused(void **state) {
    ecs_sched_world *w = message_world();
    ecs_sched_id position = ECS_SCHED_COMPONENT(w, Position);
    ecs_sched_condition when = ecs_sched_condition_on_message(position);
    (void)state;
    assert_int_equal(ecs_sched_add_system(w, UPDATE,
                                          &(ecs_sched_system_desc){.name = "x", .fn = count_guarded,
                                                                   .run_if = {&when}}),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "not a message type"));
    check_and_destroy(w);
}

/* ---- state-scoped messages ---- */

enum { MENU, GAME };

static void messages_scoped_to_a_state_are_dropped_when_it_exits(void **state) {
    ecs_sched_world *w = message_world();
    ecs_sched_state_desc sd;
    ecs_sched_id screen;
    ecs_sched_message_cursor game;
    (void)state;
    memset(&sd, 0, sizeof sd);
    sd.name = "Screen";
    sd.values[MENU] = "Menu";
    sd.values[GAME] = "Game";
    sd.initial = MENU;
    screen = ecs_sched_state_register(w, &sd);
    assert_true(screen != 0);
    assert_int_equal(ecs_sched_state_apply(w, screen), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_message_scope_to_state(w, g_hit, screen, MENU, false), ECS_SCHED_OK);
    game = ecs_sched_message_cursor_make(w, g_hit);
    send_hits(w, 1, 2);                      /* clicks in the menu */
    assert_int_equal(ecs_sched_state_set(w, screen, GAME), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_apply(w, screen), ECS_SCHED_OK);
    send_hits(w, 3, 1);
    assert_string_equal(read_all(w, &game), "3");
    assert_int_equal(game.missed, 0);        /* dropped on purpose: not missed */
    assert_int_equal(ecs_sched_message_scope_to_state(w, g_hit, screen, 7, false),
                     ECS_SCHED_ERR_INVALID_ARGUMENT);
    check_and_destroy(w);
}

/* ---- in an app: Update and FixedUpdate ---- */

static int g_sent;
static void send_one_numbered(ecs_sched_system_ctx *ctx) {
    Hit h;
    h.target = ++g_sent;
    h.damage = 0;
    ecs_sched_ctx_send(ctx, g_hit, &h);
}

/* One frame of 1/64 s per fixed step asked for: frames[i] steps in frame i. The fixed reader
   must read every message sent in Update once, whatever the number of steps. */
static void run_frames(const int *steps, int frames, bool send_in_fixed) {
    ecs_sched_app *app = new_app();
    ecs_sched_world *w = ecs_sched_app_world(app);
    char expected[1024] = "";
    int f, i;
    g_hit = ECS_SCHED_MESSAGE(w, Hit);
    g_sent = 0;
    g_read[0] = '\0';
    assert_int_equal(ecs_sched_add_system(w, send_in_fixed ? "FixedUpdate" : "Update",
                                          &(ecs_sched_system_desc){.name = "s", .fn = send_one_numbered,
                                                                   .writes = {g_hit}}),
                     ECS_SCHED_OK);
    assert_int_equal(ecs_sched_add_system(w, send_in_fixed ? "Update" : "FixedUpdate",
                                          &(ecs_sched_system_desc){.name = "r", .fn = read_hits,
                                                                   .reads = {g_hit}}),
                     ECS_SCHED_OK);
    for (f = 0; f < frames; f++) {
        assert_int_equal(ecs_sched_app_update_by(app, (int64_t)steps[f] * ECS_SCHED_HZ(64)),
                         ECS_SCHED_OK);
    }
    /* one more frame with a step: FixedUpdate runs before Update in a frame, so a message
       sent in this frame's Update is the only one not read yet */
    assert_int_equal(ecs_sched_app_update_by(app, ECS_SCHED_HZ(64)), ECS_SCHED_OK);
    {
        /* every message sent, exactly once, in order, across the reader's runs */
        char seen[1024] = "";
        const char *p = g_read;
        int last = send_in_fixed ? g_sent : g_sent - 1;
        while (*p) {
            if (*p >= '0' && *p <= '9') {
                char *end;
                long v = strtol(p, &end, 10);
                size_t at = strlen(seen);
                snprintf(seen + at, sizeof seen - at, "%s%ld", at ? " " : "", v);
                p = end;
            } else {
                p++;
            }
        }
        for (i = 1; i <= last; i++) {
            size_t at = strlen(expected);
            snprintf(expected + at, sizeof expected - at, "%s%d", i > 1 ? " " : "", i);
        }
        assert_string_equal(seen, expected);
    }
    destroy_app(app);
}

static void a_fixed_reader_reads_update_messages_once_with_no_fixed_step_for_frames(void **state) {
    static const int steps[] = {0, 0, 0, 0, 1, 0, 0, 0};
    (void)state;
    run_frames(steps, 8, false);
}

static void a_fixed_reader_reads_update_messages_once_with_one_step_a_frame(void **state) {
    static const int steps[] = {1, 1, 1, 1};
    (void)state;
    run_frames(steps, 4, false);
}

static void a_fixed_reader_reads_update_messages_once_with_five_steps_a_frame(void **state) {
    static const int steps[] = {5, 5, 5};
    (void)state;
    run_frames(steps, 3, false);
}

static void an_update_reader_reads_fixed_messages_once_with_zero_one_and_five_steps(void **state) {
    static const int steps[] = {0, 1, 5, 0, 0, 5, 1};
    (void)state;
    run_frames(steps, 7, true);
}

/* ---- removed components ---- */

static ecs_sched_id g_tracked;

static char g_removed[512];
static void note_removed(ecs_sched_system_ctx *ctx) {
    ecs_sched_messages read = ecs_sched_ctx_removed(ctx, g_tracked);
    size_t n = strlen(g_removed);
    n += (size_t)snprintf(g_removed + n, sizeof g_removed - n, "%s[", n ? " " : "");
    while (ecs_sched_messages_next(&read)) {
        const ecs_sched_entity *e = (const ecs_sched_entity *)read.data;
        int32_t i;
        for (i = 0; i < read.count; i++) {
            n += (size_t)snprintf(g_removed + n, sizeof g_removed - n, "%s%u",
                                  g_removed[n - 1] == '[' ? "" : " ",
                                  (unsigned)ECS_SCHED_ENTITY_INDEX(e[i]));
        }
    }
    snprintf(g_removed + n, sizeof g_removed - n, "]");
}

static void a_system_reads_the_entities_that_lost_a_tracked_component_once(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_entity a, b, c;
    (void)state;
    g_removed[0] = '\0';
    g_tracked = ECS_SCHED_TRACKED_COMPONENT(w, Position);
    a = ecs_sched_spawn_with(w, 1, &g_tracked, NULL);
    b = ecs_sched_spawn_with(w, 1, &g_tracked, NULL);
    c = ecs_sched_spawn_with(w, 1, &g_tracked, NULL);
    ADD_SYSTEM(w, .name = "watch", .fn = note_removed);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_remove(w, b, g_tracked), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, c), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(w, b), ECS_SCHED_OK);   /* b no longer has it */
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    {
        char expected[64];
        snprintf(expected, sizeof expected, "[] [%u %u] []", (unsigned)ECS_SCHED_ENTITY_INDEX(b),
                 (unsigned)ECS_SCHED_ENTITY_INDEX(c));
        assert_string_equal(g_removed, expected);
    }
    (void)a;
    check_and_destroy(w);
}

static void removals_live_two_updates_for_a_system_that_stops_running(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_message_cursor cursor;
    ecs_sched_entity a, b;
    ecs_sched_messages read;
    (void)state;
    g_tracked = ECS_SCHED_TRACKED_COMPONENT(w, Position);
    cursor = ecs_sched_removed_cursor_make(w, g_tracked);
    a = ecs_sched_spawn_with(w, 1, &g_tracked, NULL);
    b = ecs_sched_spawn_with(w, 1, &g_tracked, NULL);
    assert_int_equal(ecs_sched_despawn(w, a), ECS_SCHED_OK);
    ecs_sched_messages_update(w);
    assert_int_equal(ecs_sched_despawn(w, b), ECS_SCHED_OK);
    ecs_sched_messages_update(w);            /* a's removal goes */
    read = ecs_sched_message_read(w, &cursor);
    assert_int_equal(read.total, 1);
    assert_int_equal(read.missed, 1);
    assert_true(ecs_sched_messages_next(&read));
    assert_true(((const ecs_sched_entity *)read.data)[0] == b);
    check_and_destroy(w);
}

static void any_component_removed_is_true_once_per_removal_batch(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_condition when;
    ecs_sched_entity a;
    (void)state;
    g_guarded = 0;
    g_tracked = ECS_SCHED_TRACKED_COMPONENT(w, Position);
    when = ecs_sched_condition_any_component_removed(g_tracked);
    a = ecs_sched_spawn_with(w, 1, &g_tracked, NULL);
    ADD_SYSTEM(w, .name = "react", .fn = count_guarded, .run_if = {&when});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_remove(w, a, g_tracked), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(g_guarded, 1);
    check_and_destroy(w);
}

static void removals_of_an_untracked_component_are_refused(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id plain = ECS_SCHED_COMPONENT(w, Velocity);
    ecs_sched_message_cursor cursor;
    (void)state;
    cursor = ecs_sched_removed_cursor_make(w, plain);
    assert_int_equal(cursor.id, 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "'Velocity' is not tracked"));
    check_and_destroy(w);
}

/* ---- rarely used arguments ---- */

static void a_message_type_needs_a_name(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_message_desc d;
    (void)state;
    memset(&d, 0, sizeof d);
    d.size = 4;
    assert_int_equal(ecs_sched_message_register(w, NULL), 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "message_register: a message type needs a"));
    ecs_sched_clear_error(w);
    assert_int_equal(ecs_sched_message_register(w, &d), 0);
    assert_non_null(strstr(ecs_sched_last_error(w), "message_register: a message type needs a"));
    check_and_destroy(w);
}

static void registering_a_message_type_again_returns_its_id(void **state) {
    ecs_sched_world *w = message_world();
    (void)state;
    assert_int_equal(ECS_SCHED_MESSAGE(w, Hit), g_hit);
    assert_true(ecs_sched_is_message(w, g_hit));
    send_hits(w, 7, 1);
    {
        ecs_sched_message_cursor c = ecs_sched_message_cursor_make(w, g_hit);
        assert_string_equal(read_all(w, &c), "7");
    }
    check_and_destroy(w);
}

static void a_negative_batch_is_refused_naming_the_type(void **state) {
    ecs_sched_world *w = message_world();
    ecs_sched_message_cursor c;
    (void)state;
    c = ecs_sched_message_cursor_make(w, g_hit);
    assert_int_equal(ecs_sched_send_batch(w, g_hit, -1, NULL), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "send: -1 messages of 'Hit'"));
    assert_int_equal(ecs_sched_message_unread(w, &c), 0);
    check_and_destroy(w);
}

static ecs_sched_id g_position;

static void send_a_position(ecs_sched_system_ctx *ctx) {
    Position p = {1, 2};
    assert_int_equal(ecs_sched_ctx_send(ctx, g_position, &p), ECS_SCHED_ERR_INVALID_ARGUMENT);
}

static void a_system_sending_a_component_is_told_it_is_no_message_type(void **state) {
    ecs_sched_world *w = message_world();
    (void)state;
    g_position = ECS_SCHED_COMPONENT(w, Position);
    ADD_SYSTEM(w, .name = "confused", .fn = send_a_position, .writes = {g_position});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "send: 'Position' is a component, not a message type"));
    check_and_destroy(w);
}

static int32_t g_counted;
static ecs_sched_world *g_reading_world;

static void read_positions_and_removals(ecs_sched_system_ctx *ctx) {
    ecs_sched_messages m = ecs_sched_ctx_messages(ctx, g_position);
    g_counted += m.total;
    assert_non_null(strstr(ecs_sched_last_error(g_reading_world),
                           "read: 'Position' is a component, not a message type"));
    m = ecs_sched_ctx_removed(ctx, g_position);
    g_counted += m.total;
    assert_non_null(strstr(ecs_sched_last_error(g_reading_world),
                           "removed: 'Position' is not tracked"));
    m = ecs_sched_ctx_removed(ctx, 4000);
    g_counted += m.total;
    assert_int_equal(ecs_sched_last_result(g_reading_world), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
}

static void a_system_reading_a_component_as_messages_or_removals_reads_none(void **state) {
    ecs_sched_world *w = message_world();
    (void)state;
    g_position = ECS_SCHED_COMPONENT(w, Position);
    g_counted = 0;
    g_reading_world = w;
    ADD_SYSTEM(w, .name = "confused", .fn = read_positions_and_removals, .reads = {g_position});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(g_counted, 0);
    check_and_destroy(w);
}

static void a_sender_may_read_the_type_it_declared_as_written(void **state) {
    ecs_sched_world *w = message_world();
    (void)state;
    g_read[0] = '\0';
    ADD_SYSTEM(w, .name = "echo", .fn = read_hits, .writes = {g_hit});
    send_hits(w, 3, 2);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_read, "echo[3 4]");
    check_and_destroy(w);
}

static void a_cursor_not_made_by_the_library_is_refused_with_its_id(void **state) {
    ecs_sched_world *w = message_world();
    ecs_sched_message_cursor c;
    char expected[128];
    (void)state;
    g_position = ECS_SCHED_COMPONENT(w, Position);
    send_hits(w, 1, 2);
    memset(&c, 0, sizeof c);
    c.id = g_position;
    assert_int_equal(ecs_sched_message_read(w, &c).total, 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_INVALID_ARGUMENT);
    snprintf(expected, sizeof expected, "(its id %u has no messages)", (unsigned)g_position);
    assert_non_null(strstr(ecs_sched_last_error(w), expected));
    assert_non_null(strstr(ecs_sched_last_error(w), "message_read: the cursor was not made by"));
    assert_int_equal(ecs_sched_message_unread(w, &c), 0);
    c.id = 4000;
    assert_int_equal(ecs_sched_message_unread(w, &c), 0);
    c = ecs_sched_message_cursor_make(w, g_position);
    assert_int_equal(c.id, 0);
    assert_non_null(strstr(ecs_sched_last_error(w), "message_cursor_make: 'Position' is a component"));
    check_and_destroy(w);
}

static void a_removed_cursor_reads_a_tracked_components_removals(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_id tracked = ecs_sched_tracked_component_register_type(w, "Armor", sizeof(int32_t), 0);
    int32_t armor = 3;
    ecs_sched_entity e = ecs_sched_spawn(w);
    ecs_sched_message_cursor c;
    ecs_sched_messages read;
    (void)state;
    assert_true(tracked != 0);
    assert_int_equal(ecs_sched_removed_cursor_make(w, 4000).id, 0);
    assert_int_equal(ecs_sched_last_result(w), ECS_SCHED_ERR_UNKNOWN_COMPONENT);
    c = ecs_sched_removed_cursor_make(w, tracked);
    assert_int_equal(c.id, tracked);
    assert_int_equal(ecs_sched_insert(w, e, tracked, &armor), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_remove(w, e, tracked), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_message_unread(w, &c), 1);
    read = ecs_sched_message_read(w, &c);
    assert_int_equal(read.total, 1);
    assert_true(ecs_sched_messages_next(&read));
    assert_int_equal(((const ecs_sched_entity *)read.data)[0], e);
    assert_int_equal(ecs_sched_message_unread(w, &c), 0);
    check_and_destroy(w);
}

/* Message types of the sizes the in-place send zeroes in one store, and one of another size. */
static ecs_sched_id g_sized[5];
static const size_t g_sizes[5] = {4, 8, 12, 16, 24};

static void send_each_size_in_place_twice(ecs_sched_system_ctx *ctx) {
    int i, k;
    for (i = 0; i < 5; i++) {
        for (k = 0; k < 2; k++) {
            unsigned char *slot = (unsigned char *)ecs_sched_ctx_send_new(ctx, g_sized[i]);
            size_t b;
            assert_non_null(slot);
            for (b = 0; b < g_sizes[i]; b++) assert_int_equal(slot[b], 0);
            memset(slot, 0xab, g_sizes[i]);
        }
    }
}

static void a_message_sent_in_place_comes_zeroed_whatever_its_size(void **state) {
    ecs_sched_world *w = new_world();
    ecs_sched_message_cursor cursors[5];
    char name[16];
    int i;
    (void)state;
    for (i = 0; i < 5; i++) {
        snprintf(name, sizeof name, "Bytes%d", (int)g_sizes[i]);
        g_sized[i] = ecs_sched_message_register_type(w, name, g_sizes[i], 4);
        assert_true(g_sized[i] != 0);
        cursors[i] = ecs_sched_message_cursor_make(w, g_sized[i]);
    }
    ADD_SYSTEM(w, .name = "sizes", .fn = send_each_size_in_place_twice,
               .writes = {g_sized[0], g_sized[1], g_sized[2], g_sized[3], g_sized[4]});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    for (i = 0; i < 5; i++) {
        ecs_sched_messages read = ecs_sched_message_read(w, &cursors[i]);
        assert_int_equal(read.total, 2);
        assert_true(ecs_sched_messages_next(&read));
        assert_int_equal(((const unsigned char *)read.data)[g_sizes[i] - 1], 0xab);
    }
    check_and_destroy(w);
}

/* ---- sends in a system: no value, a copy hook, a component ---- */

static int g_copies;
static ecs_sched_id g_copied;

static void count_copies(void *dst, const void *src, int32_t count, void *ctx) {
    (void)ctx;
    memcpy(dst, src, sizeof(Hit) * (size_t)count);
    g_copies += count;
}

static void send_plain_and_copied(ecs_sched_system_ctx *ctx) {
    Hit h = {7, 8};
    assert_int_equal(ecs_sched_ctx_send(ctx, g_hit, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_ctx_send(ctx, g_hit, NULL), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_ctx_send(ctx, g_copied, &h), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_ctx_send(ctx, g_copied, &h), ECS_SCHED_OK);
    assert_null(ecs_sched_ctx_send_new(ctx, g_position));
}

static void a_system_sends_zeroed_messages_and_copies_through_the_types_hook(void **state) {
    ecs_sched_world *w = message_world();
    ecs_sched_message_desc desc;
    ecs_sched_message_cursor plain, copied;
    ecs_sched_messages read;
    (void)state;
    memset(&desc, 0, sizeof desc);
    desc.name = "Copied";
    desc.size = sizeof(Hit);
    desc.hooks.copy = count_copies;
    g_copied = ecs_sched_message_register(w, &desc);
    g_position = ECS_SCHED_COMPONENT(w, Position);
    g_copies = 0;
    plain = ecs_sched_message_cursor_make(w, g_hit);
    copied = ecs_sched_message_cursor_make(w, g_copied);
    ADD_SYSTEM(w, .name = "sender", .fn = send_plain_and_copied, .writes = {g_hit, g_copied});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(w), "'Position' is a component, not a message type"));
    read = ecs_sched_message_read(w, &plain);
    assert_int_equal(read.total, 2);
    assert_true(ecs_sched_messages_next(&read));
    assert_int_equal(((const Hit *)read.data)[1].damage, 0);
    read = ecs_sched_message_read(w, &copied);
    assert_int_equal(read.total, 2);
    assert_true(ecs_sched_messages_next(&read));
    assert_int_equal(((const Hit *)read.data)[1].damage, 8);
    assert_int_equal(g_copies, 2);
    check_and_destroy(w);
}

static ecs_sched_world *g_sending_world;
static ecs_sched_result g_world_send;

static void send_through_the_world(ecs_sched_system_ctx *ctx) {
    Hit h = {1, 1};
    (void)ctx;
    g_world_send = ecs_sched_send(g_sending_world, g_hit, &h);
}

static void sending_through_the_world_from_a_plain_system_is_refused(void **state) {
    ecs_sched_world *w = message_world();
    ecs_sched_message_cursor c = ecs_sched_message_cursor_make(w, g_hit);
    (void)state;
    g_sending_world = w;
    g_world_send = ECS_SCHED_OK;
    ADD_SYSTEM(w, .name = "sneaky", .fn = send_through_the_world, .writes = {g_hit});
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_ERR_ACCESS);
    assert_int_equal(g_world_send, ECS_SCHED_ERR_ACCESS);
    assert_non_null(strstr(ecs_sched_last_error(w), "send through the world"));
    assert_int_equal(ecs_sched_message_unread(w, &c), 0);
    check_and_destroy(w);
}

static void updating_the_queues_of_a_world_without_messages_does_nothing(void **state) {
    ecs_sched_world *w = new_world();
    (void)state;
    ecs_sched_messages_update(w);
    ecs_sched_messages_update(w);
    assert_int_equal(ecs_sched_entity_count(w), 0);
    check_and_destroy(w);
}

typedef struct Heal { int amount; } Heal;
static ecs_sched_id g_heal;

static void read_both(ecs_sched_system_ctx *ctx) {
    size_t n = strlen(g_read);
    ecs_sched_messages hits = ecs_sched_ctx_messages(ctx, g_hit);
    ecs_sched_messages heals = ecs_sched_ctx_messages(ctx, g_heal);
    snprintf(g_read + n, sizeof g_read - n, "%s%d/%d", n ? " " : "", (int)hits.total, (int)heals.total);
}

static void a_reader_of_two_types_keeps_a_place_in_each(void **state) {
    ecs_sched_world *w = message_world();
    Heal heal = {3};
    (void)state;
    g_heal = ECS_SCHED_MESSAGE(w, Heal);
    g_read[0] = '\0';
    ADD_SYSTEM(w, .name = "both", .fn = read_both, .reads = {g_hit, g_heal});
    send_hits(w, 1, 2);
    assert_int_equal(ecs_sched_send(w, g_heal, &heal), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    send_hits(w, 3, 1);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_send(w, g_heal, &heal), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_run_schedule(w, UPDATE), ECS_SCHED_OK);
    assert_string_equal(g_read, "2/1 1/0 0/1");
    check_and_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sending_through_the_world_from_a_plain_system_is_refused),
        cmocka_unit_test(updating_the_queues_of_a_world_without_messages_does_nothing),
        cmocka_unit_test(a_reader_of_two_types_keeps_a_place_in_each),
        cmocka_unit_test(a_system_sends_zeroed_messages_and_copies_through_the_types_hook),
        cmocka_unit_test(a_message_sent_in_place_comes_zeroed_whatever_its_size),
        cmocka_unit_test(a_message_type_needs_a_name),
        cmocka_unit_test(registering_a_message_type_again_returns_its_id),
        cmocka_unit_test(a_negative_batch_is_refused_naming_the_type),
        cmocka_unit_test(a_system_sending_a_component_is_told_it_is_no_message_type),
        cmocka_unit_test(a_system_reading_a_component_as_messages_or_removals_reads_none),
        cmocka_unit_test(a_sender_may_read_the_type_it_declared_as_written),
        cmocka_unit_test(a_cursor_not_made_by_the_library_is_refused_with_its_id),
        cmocka_unit_test(a_removed_cursor_reads_a_tracked_components_removals),
        cmocka_unit_test(each_cursor_reads_every_message_once_in_send_order),
        cmocka_unit_test(a_message_lives_for_two_updates_and_a_slow_reader_counts_what_it_missed),
        cmocka_unit_test(a_new_cursor_starts_at_the_oldest_message_kept),
        cmocka_unit_test(a_dropped_message_gets_its_types_dtor),
        cmocka_unit_test(sending_something_that_is_not_a_message_type_is_refused),
        cmocka_unit_test(an_unknown_message_id_is_told_to_register_a_message_type),
        cmocka_unit_test(reading_the_cursor_of_a_failed_make_says_the_make_failed),
        cmocka_unit_test(a_reader_after_the_sender_sees_its_messages_in_the_same_run),
        cmocka_unit_test(a_message_sent_in_place_is_read_like_any),
        cmocka_unit_test(sending_without_declaring_the_write_fails_the_system),
        cmocka_unit_test(reading_without_declaring_fails_the_system),
        cmocka_unit_test(a_sender_and_a_reader_conflict_like_a_writer_and_a_reader),
        cmocka_unit_test(on_message_is_true_once_for_each_batch_of_new_messages),
        cmocka_unit_test(on_message_of_a_component_is_refused),
        cmocka_unit_test(messages_scoped_to_a_state_are_dropped_when_it_exits),
        cmocka_unit_test(a_fixed_reader_reads_update_messages_once_with_no_fixed_step_for_frames),
        cmocka_unit_test(a_fixed_reader_reads_update_messages_once_with_one_step_a_frame),
        cmocka_unit_test(a_fixed_reader_reads_update_messages_once_with_five_steps_a_frame),
        cmocka_unit_test(an_update_reader_reads_fixed_messages_once_with_zero_one_and_five_steps),
        cmocka_unit_test(a_system_reads_the_entities_that_lost_a_tracked_component_once),
        cmocka_unit_test(removals_live_two_updates_for_a_system_that_stops_running),
        cmocka_unit_test(any_component_removed_is_true_once_per_removal_batch),
        cmocka_unit_test(removals_of_an_untracked_component_are_refused),
    };
    int failed = cmocka_run_group_tests(tests, NULL, destroy_leftover_world);
    destroy_leftover_app(NULL);
    return failed;
}
