/* Snapshots. A snapshot copies the world's entities, values, entity index, resources,
   relationships, names and bases, and the delayed commands, message queues, state machines
   and clocks beside them; restoring brings that world back exactly, as often as asked, and
   into that world only, with generations moving forward. */
#include "ecs_sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "world_fixture.h"

static ecs_sched_entity spawn_at(world_setup *s, float x) {
    Position p;
    ecs_sched_entity e;
    p.x = x;
    p.y = 0.0f;
    e = ecs_sched_spawn(s->world);
    assert_int_equal(ecs_sched_insert(s->world, e, s->position, &p), ECS_SCHED_OK);
    return e;
}

static ecs_sched_snapshot *take(world_setup *s) {
    ecs_sched_snapshot *snap = ecs_sched_snapshot_take(s->world);
    assert_non_null(snap);
    return snap;
}

static void restore(world_setup *s, const ecs_sched_snapshot *snap) {
    assert_int_equal(ecs_sched_snapshot_restore(s->world, snap), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_world_check(s->world), ECS_SCHED_OK);
}

static void restore_brings_back_the_values_changed_since(void **state) {
    world_setup s;
    ecs_sched_entity e;
    ecs_sched_snapshot *snap;
    (void)state;
    setup_world(&s);
    e = spawn_at(&s, 1.0f);
    snap = take(&s);
    ((Position *)ecs_sched_get_mut(s.world, e, s.position))->x = 99.0f;
    restore(&s, snap);
    assert_true(get_position(&s, e)->x < 1.5f);
    ecs_sched_snapshot_free(snap);
    check_and_destroy(s.world);
}

static void entities_made_since_go_and_entities_despawned_since_come_back(void **state) {
    world_setup s;
    ecs_sched_entity kept, gone, made;
    ecs_sched_snapshot *snap;
    Health h = {7};
    (void)state;
    setup_world(&s);
    kept = spawn_at(&s, 1.0f);
    gone = spawn_at(&s, 2.0f);
    assert_int_equal(ecs_sched_insert(s.world, gone, s.health, &h), ECS_SCHED_OK);
    snap = take(&s);
    assert_int_equal(ecs_sched_despawn(s.world, gone), ECS_SCHED_OK);
    made = spawn_at(&s, 3.0f);                       /* takes gone's index, a new generation */
    assert_int_equal(ecs_sched_remove(s.world, kept, s.position), ECS_SCHED_OK);
    restore(&s, snap);
    assert_true(ecs_sched_is_alive(s.world, gone));   /* the same handle */
    assert_false(ecs_sched_is_alive(s.world, made));
    assert_int_equal(get_health(&s, gone)->hp, 7);
    assert_true(get_position(&s, kept)->x < 1.5f);
    assert_int_equal(ecs_sched_entity_count(s.world), 2);
    ecs_sched_snapshot_free(snap);
    check_and_destroy(s.world);
}

static void a_snapshot_restores_as_often_as_asked(void **state) {
    world_setup s;
    ecs_sched_entity e;
    ecs_sched_snapshot *snap;
    int round;
    (void)state;
    setup_world(&s);
    e = spawn_at(&s, 5.0f);
    snap = take(&s);
    for (round = 0; round < 3; round++) {
        ((Position *)ecs_sched_get_mut(s.world, e, s.position))->x += 10.0f;
        spawn_at(&s, 0.0f);
        restore(&s, snap);
        assert_true(get_position(&s, e)->x > 4.5f && get_position(&s, e)->x < 5.5f);
        assert_int_equal(ecs_sched_entity_count(s.world), 1);
    }
    ecs_sched_snapshot_free(snap);
    check_and_destroy(s.world);
}

static void tables_made_since_are_emptied_and_queries_agree(void **state) {
    world_setup s;
    ecs_sched_entity e;
    ecs_sched_snapshot *snap;
    ecs_sched_query_desc d;
    ecs_sched_query *q;
    Velocity v = {1.0f, 1.0f};
    (void)state;
    setup_world(&s);
    e = spawn_at(&s, 1.0f);
    memset(&d, 0, sizeof d);
    d.terms[0] = ecs_sched_read(s.velocity);
    q = ecs_sched_query_create(s.world, &d);
    snap = take(&s);
    assert_int_equal(ecs_sched_insert(s.world, e, s.velocity, &v), ECS_SCHED_OK);   /* a new table */
    assert_int_equal(ecs_sched_query_count(q), 1);
    restore(&s, snap);
    assert_int_equal(ecs_sched_query_count(q), 0);
    assert_false(ecs_sched_has(s.world, e, s.velocity));
    ecs_sched_snapshot_free(snap);
    check_and_destroy(s.world);
}

static void resources_come_back_and_resources_inserted_since_go(void **state) {
    world_setup s;
    ecs_sched_snapshot *snap;
    ecs_sched_id gravity;
    Score score = {10};
    Velocity g = {0.0f, -9.8f};
    (void)state;
    setup_world(&s);
    gravity = ECS_SCHED_COMPONENT(s.world, Velocity);
    assert_int_equal(ecs_sched_resource_insert(s.world, s.score, &score), ECS_SCHED_OK);
    snap = take(&s);
    ((Score *)ecs_sched_resource_get_mut(s.world, s.score))->value = 99;
    assert_int_equal(ecs_sched_resource_insert(s.world, gravity, &g), ECS_SCHED_OK);
    restore(&s, snap);
    assert_int_equal(((const Score *)ecs_sched_resource_get(s.world, s.score))->value, 10);
    assert_false(ecs_sched_resource_exists(s.world, gravity));
    ecs_sched_snapshot_free(snap);
    check_and_destroy(s.world);
}

static void a_resource_removed_since_comes_back(void **state) {
    world_setup s;
    ecs_sched_snapshot *snap;
    Score score = {3};
    (void)state;
    setup_world(&s);
    assert_int_equal(ecs_sched_resource_insert(s.world, s.score, &score), ECS_SCHED_OK);
    snap = take(&s);
    assert_int_equal(ecs_sched_resource_remove(s.world, s.score), ECS_SCHED_OK);
    restore(&s, snap);
    assert_int_equal(((const Score *)ecs_sched_resource_get(s.world, s.score))->value, 3);
    ecs_sched_snapshot_free(snap);
    check_and_destroy(s.world);
}

static void the_hierarchy_names_and_relationships_come_back(void **state) {
    world_setup s;
    ecs_sched_entity ship, turret, other;
    ecs_sched_snapshot *snap;
    ecs_sched_relation_desc rd;
    ecs_sched_id likes;
    int32_t count;
    (void)state;
    setup_world(&s);
    memset(&rd, 0, sizeof rd);
    rd.name = "Likes";
    likes = ecs_sched_relation_register(s.world, &rd);
    ship = spawn_at(&s, 0.0f);
    turret = spawn_at(&s, 1.0f);
    other = spawn_at(&s, 2.0f);
    assert_int_equal(ecs_sched_set_parent(s.world, turret, ship), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(s.world, ship, "ship"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(s.world, turret, "turret"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_relate(s.world, other, likes, turret, NULL), ECS_SCHED_OK);
    snap = take(&s);
    assert_int_equal(ecs_sched_set_parent(s.world, turret, other), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(s.world, turret, "gun"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_unrelate(s.world, other, likes, turret), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(s.world, ship), ECS_SCHED_OK);
    restore(&s, snap);
    assert_true(ecs_sched_lookup_path(s.world, 0, "ship.turret", ".") == turret);
    assert_true(ecs_sched_parent_of(s.world, turret) == ship);
    ecs_sched_children(s.world, other, &count);
    assert_int_equal(count, 0);
    assert_true(ecs_sched_has_relation(s.world, other, likes, turret));
    ecs_sched_sources(s.world, likes, turret, &count);
    assert_int_equal(count, 1);
    ecs_sched_snapshot_free(snap);
    check_and_destroy(s.world);
}

/* The names that come back are the world's own: they stay found, long ones too, once the
   snapshot is freed, and a second restore brings them back again. */
static void restored_names_outlive_their_snapshot(void **state) {
    world_setup s;
    ecs_sched_entity ship, turret;
    ecs_sched_snapshot *snap;
    (void)state;
    setup_world(&s);
    ship = spawn_at(&s, 0.0f);
    turret = spawn_at(&s, 1.0f);
    assert_int_equal(ecs_sched_set_parent(s.world, turret, ship), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(s.world, ship, "mothership"), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_set_name(s.world, turret, "turret_on_the_left"), ECS_SCHED_OK);
    snap = take(&s);
    assert_int_equal(ecs_sched_set_name(s.world, turret, "gun"), ECS_SCHED_OK);
    restore(&s, snap);
    assert_int_equal(ecs_sched_set_name(s.world, ship, "carrier_of_the_fleet"), ECS_SCHED_OK);
    restore(&s, snap);
    ecs_sched_snapshot_free(snap);
    assert_true(ecs_sched_lookup_path(s.world, 0, "mothership.turret_on_the_left", NULL) == turret);
    assert_true(ecs_sched_lookup(s.world, ship, "turret_on_the_left") == turret);
    assert_true(ecs_sched_lookup(s.world, ship, "gun") == ECS_SCHED_NULL_ENTITY);
    assert_int_equal(ecs_sched_world_check(s.world), ECS_SCHED_OK);
    check_and_destroy(s.world);
}

static void bases_and_instances_come_back(void **state) {
    world_setup s;
    ecs_sched_entity base, instance, later;
    ecs_sched_snapshot *snap;
    (void)state;
    setup_world(&s);
    base = spawn_at(&s, 4.0f);
    assert_int_equal(ecs_sched_insert(s.world, base, ecs_sched_prefab_tag(s.world), NULL), ECS_SCHED_OK);
    instance = ecs_sched_instantiate(s.world, base);
    snap = take(&s);
    assert_non_null(ecs_sched_get_mut(s.world, instance, s.position));   /* an override */
    later = ecs_sched_instantiate(s.world, base);
    assert_true(later != ECS_SCHED_NULL_ENTITY);
    restore(&s, snap);
    assert_false(ecs_sched_owns(s.world, instance, s.position));
    assert_true(ecs_sched_owner(s.world, instance, s.position) == base);
    assert_false(ecs_sched_is_alive(s.world, later));
    assert_int_equal(ecs_sched_despawn(s.world, base), ECS_SCHED_ERR_REFUSED);   /* still a base */
    ecs_sched_snapshot_free(snap);
    check_and_destroy(s.world);
}

static int live_values = 0;

static void counted_ctor(void *dst, int32_t n, void *ctx) {
    (void)ctx;
    memset(dst, 0, (size_t)n * sizeof(int));
    live_values += n;
}

static void counted_dtor(void *ptr, int32_t n, void *ctx) {
    (void)ptr;
    (void)ctx;
    live_values -= n;
}

static void values_with_hooks_are_copied_and_destroyed_in_pairs(void **state) {
    world_setup s;
    ecs_sched_component_desc d;
    ecs_sched_id counted;
    ecs_sched_entity e;
    ecs_sched_snapshot *snap;
    int one = 1;
    (void)state;
    live_values = 0;
    setup_world(&s);
    memset(&d, 0, sizeof d);
    d.name = "Counted";
    d.size = sizeof(int);
    d.hooks.ctor = counted_ctor;
    d.hooks.dtor = counted_dtor;
    counted = ecs_sched_component_register(s.world, &d);
    e = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_insert(s.world, e, counted, &one), ECS_SCHED_OK);
    snap = take(&s);
    assert_int_equal(live_values, 2);   /* the world's and the snapshot's */
    assert_int_equal(ecs_sched_despawn(s.world, e), ECS_SCHED_OK);
    restore(&s, snap);
    assert_int_equal(live_values, 2);
    assert_int_equal(*(const int *)ecs_sched_get(s.world, e, counted), 1);
    ecs_sched_world_destroy(s.world);   /* the snapshot outlives its world */
    assert_int_equal(live_values, 1);
    ecs_sched_snapshot_free(snap);
    assert_int_equal(live_values, 0);
}

/* None of `count` entities spawned now is `old`, which stays stale. */
static void assert_new_spawns_never_name(world_setup *s, ecs_sched_entity old, int count) {
    int i;
    for (i = 0; i < count; i++) {
        ecs_sched_entity e = spawn_at(s, 50.0f);
        assert_true(e != old);
        assert_false(ecs_sched_is_alive(s->world, old));
        assert_null(ecs_sched_get(s->world, old, s->position));
    }
}

/* Generations keep moving forward across a restore: the entities of the abandoned timeline,
   on an index new since the snapshot or on one that was free in it, stay stale for good. */
static void handles_made_after_the_snapshot_never_name_a_later_entity(void **state) {
    world_setup s;
    ecs_sched_entity freed, on_free_index, on_new_index;
    ecs_sched_snapshot *snap;
    (void)state;
    setup_world(&s);
    freed = spawn_at(&s, 1.0f);
    spawn_at(&s, 2.0f);
    assert_int_equal(ecs_sched_despawn(s.world, freed), ECS_SCHED_OK);
    snap = take(&s);
    on_free_index = spawn_at(&s, 3.0f);   /* freed's index, its next generation */
    on_new_index = spawn_at(&s, 4.0f);
    assert_int_equal(ECS_SCHED_ENTITY_INDEX(on_free_index), ECS_SCHED_ENTITY_INDEX(freed));
    restore(&s, snap);
    assert_false(ecs_sched_is_alive(s.world, on_free_index));
    assert_false(ecs_sched_is_alive(s.world, on_new_index));
    assert_new_spawns_never_name(&s, on_free_index, 4);
    assert_false(ecs_sched_is_alive(s.world, on_new_index));
    restore(&s, snap);   /* and again: the spawns since were abandoned too */
    assert_new_spawns_never_name(&s, on_new_index, 4);
    assert_false(ecs_sched_is_alive(s.world, on_free_index));
    ecs_sched_snapshot_free(snap);
    check_and_destroy(s.world);
}

/* An entity alive in the snapshot comes back under its handle; the entity that took its index
   in the abandoned timeline is not handed out again when it is despawned once more. */
static void a_restored_entity_despawned_again_does_not_revive_an_abandoned_handle(void **state) {
    world_setup s;
    ecs_sched_entity kept, reused;
    ecs_sched_snapshot *snap;
    (void)state;
    setup_world(&s);
    kept = spawn_at(&s, 1.0f);
    snap = take(&s);
    assert_int_equal(ecs_sched_despawn(s.world, kept), ECS_SCHED_OK);
    reused = spawn_at(&s, 2.0f);
    assert_int_equal(ECS_SCHED_ENTITY_INDEX(reused), ECS_SCHED_ENTITY_INDEX(kept));
    restore(&s, snap);
    assert_true(ecs_sched_is_alive(s.world, kept));
    assert_false(ecs_sched_is_alive(s.world, reused));
    assert_int_equal(ecs_sched_despawn(s.world, kept), ECS_SCHED_OK);
    assert_new_spawns_never_name(&s, reused, 3);
    assert_new_spawns_never_name(&s, kept, 3);
    ecs_sched_snapshot_free(snap);
    check_and_destroy(s.world);
}

/* ---- what game logic reads beside the entities: delayed commands, messages, state
   machines, clocks ---- */

static int64_t g_now_ns;   /* what the clock hook of a world with clocks reads */

static int64_t test_clock(void *user_data) {
    (void)user_data;
    return g_now_ns;
}

static void setup_world_with_clocks(world_setup *s) {
    ecs_sched_time_desc time;
    setup_world(s);
    memset(&time, 0, sizeof time);
    time.clock = test_clock;
    g_now_ns = 1000;
    assert_int_equal(ecs_sched_time_setup(s->world, &time), ECS_SCHED_OK);
}

/* Queues a despawn of e, due after delay_ns of virtual time. */
static void despawn_later(world_setup *s, ecs_sched_entity e, int64_t delay_ns) {
    ecs_sched_commands *cmd = ecs_sched_commands_create(s->world);
    ecs_sched_commands *later = ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, delay_ns);
    assert_non_null(later);
    assert_int_equal(ecs_sched_commands_despawn(later, e), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);   /* hands it to the queue */
    ecs_sched_commands_destroy(cmd);
}

static void advance(world_setup *s, int64_t ns) {
    assert_int_equal(ecs_sched_time_advance_by(s->world, ns), ECS_SCHED_OK);
}

static void delayed_commands_queued_after_the_snapshot_are_dropped_by_a_restore(void **state) {
    world_setup s;
    ecs_sched_entity e;
    ecs_sched_snapshot *snap;
    (void)state;
    setup_world_with_clocks(&s);
    e = spawn_at(&s, 1.0f);
    snap = take(&s);
    despawn_later(&s, e, ECS_SCHED_MILLISECONDS(100));
    restore(&s, snap);
    assert_int_equal(ecs_sched_commands_waiting(s.world, ECS_SCHED_CLOCK_VIRTUAL), 0);
    advance(&s, ECS_SCHED_MILLISECONDS(200));
    assert_true(ecs_sched_is_alive(s.world, e));
    ecs_sched_snapshot_free(snap);
    check_and_destroy(s.world);
}

/* Queues a despawn of e due after `first_ns`, and of f `then_ns` after that (a delayed
   buffer of the delayed buffer). */
static void despawn_one_then_another(world_setup *s, ecs_sched_entity e, int64_t first_ns,
                                     ecs_sched_entity f, int64_t then_ns) {
    ecs_sched_commands *cmd = ecs_sched_commands_create(s->world);
    ecs_sched_commands *later = ecs_sched_commands_after(cmd, ECS_SCHED_CLOCK_VIRTUAL, first_ns);
    ecs_sched_commands *after_that;
    assert_non_null(later);
    after_that = ecs_sched_commands_after(later, ECS_SCHED_CLOCK_VIRTUAL, then_ns);
    assert_non_null(after_that);
    assert_int_equal(ecs_sched_commands_despawn(later, e), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_despawn(after_that, f), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    ecs_sched_commands_destroy(cmd);
}

static void a_delayed_buffer_s_own_delayed_buffers_come_back_with_a_restore(void **state) {
    world_setup s;
    ecs_sched_entity e, f;
    ecs_sched_snapshot *snap;
    (void)state;
    setup_world_with_clocks(&s);
    e = spawn_at(&s, 1.0f);
    f = spawn_at(&s, 2.0f);
    despawn_one_then_another(&s, e, ECS_SCHED_MILLISECONDS(100), f, ECS_SCHED_MILLISECONDS(50));
    snap = take(&s);   /* the second buffer waits inside the first */
    advance(&s, ECS_SCHED_MILLISECONDS(100));
    advance(&s, ECS_SCHED_MILLISECONDS(50));
    assert_false(ecs_sched_is_alive(s.world, e));
    assert_false(ecs_sched_is_alive(s.world, f));
    restore(&s, snap);
    assert_int_equal(ecs_sched_commands_waiting(s.world, ECS_SCHED_CLOCK_VIRTUAL), 1);
    assert_true(ecs_sched_is_alive(s.world, e));
    assert_true(ecs_sched_is_alive(s.world, f));
    advance(&s, ECS_SCHED_MILLISECONDS(100));
    assert_false(ecs_sched_is_alive(s.world, e));
    assert_true(ecs_sched_is_alive(s.world, f));   /* due 50 ms after the first is applied */
    advance(&s, ECS_SCHED_MILLISECONDS(50));
    assert_false(ecs_sched_is_alive(s.world, f));
    ecs_sched_snapshot_free(snap);
    check_and_destroy(s.world);
}

static void delayed_commands_waiting_in_the_snapshot_wait_again_after_a_restore(void **state) {
    world_setup s;
    ecs_sched_entity e;
    ecs_sched_snapshot *snap;
    int round;
    (void)state;
    setup_world_with_clocks(&s);
    e = spawn_at(&s, 1.0f);
    despawn_later(&s, e, ECS_SCHED_MILLISECONDS(100));
    advance(&s, ECS_SCHED_MILLISECONDS(60));
    snap = take(&s);
    for (round = 0; round < 2; round++) {   /* the snapshot keeps its copy */
        advance(&s, ECS_SCHED_MILLISECONDS(60));
        assert_false(ecs_sched_is_alive(s.world, e));
        restore(&s, snap);
        assert_true(ecs_sched_is_alive(s.world, e));
        assert_int_equal(ecs_sched_commands_waiting(s.world, ECS_SCHED_CLOCK_VIRTUAL), 1);
        advance(&s, ECS_SCHED_MILLISECONDS(30));   /* 90 ms of the 100 */
        assert_true(ecs_sched_is_alive(s.world, e));
        advance(&s, ECS_SCHED_MILLISECONDS(10));
        assert_false(ecs_sched_is_alive(s.world, e));
        restore(&s, snap);
    }
    ecs_sched_snapshot_free(snap);
    check_and_destroy(s.world);
}

typedef struct Ping {
    int n;
} Ping;

/* The values of the messages a cursor reads, as "1 2 ". */
static const char *read_pings(ecs_sched_world *w, ecs_sched_message_cursor *cursor) {
    static char text[128];
    ecs_sched_messages read = ecs_sched_message_read(w, cursor);
    size_t at = 0;
    text[0] = '\0';
    while (ecs_sched_messages_next(&read)) {
        int32_t i;
        for (i = 0; i < read.count; i++) {
            at += (size_t)snprintf(text + at, sizeof text - at, "%d ", ((const Ping *)read.data)[i].n);
        }
    }
    return text;
}

static void send_ping(world_setup *s, ecs_sched_id ping, int n) {
    Ping p;
    p.n = n;
    assert_int_equal(ecs_sched_send(s->world, ping, &p), ECS_SCHED_OK);
}

/* The queues come back as they were; a reader outside systems is not rolled back, but it
   never skips a message sent after the restore. */
static void message_queues_come_back_and_later_messages_still_reach_readers(void **state) {
    world_setup s;
    ecs_sched_id ping;
    ecs_sched_message_cursor before, caught_up;
    ecs_sched_snapshot *snap;
    (void)state;
    setup_world(&s);
    ping = ECS_SCHED_MESSAGE(s.world, Ping);
    send_ping(&s, ping, 1);
    snap = take(&s);
    before = ecs_sched_message_cursor_make(s.world, ping);
    send_ping(&s, ping, 2);
    send_ping(&s, ping, 3);
    caught_up = ecs_sched_message_cursor_make(s.world, ping);
    assert_string_equal(read_pings(s.world, &caught_up), "1 2 3 ");
    restore(&s, snap);
    assert_string_equal(read_pings(s.world, &before), "1 ");
    send_ping(&s, ping, 4);
    assert_string_equal(read_pings(s.world, &caught_up), "4 ");
    assert_string_equal(read_pings(s.world, &before), "4 ");
    assert_int_equal(caught_up.missed + before.missed, 0);
    ecs_sched_snapshot_free(snap);
    check_and_destroy(s.world);
}

enum { MENU, PLAYING, PAUSED };

static void a_state_machine_comes_back_with_its_stack_and_pending_transition(void **state) {
    world_setup s;
    ecs_sched_id game;
    ecs_sched_snapshot *snap;
    ecs_sched_state_transition last;
    (void)state;
    setup_world(&s);
    game = ecs_sched_state_register(s.world, &(ecs_sched_state_desc){
                                                 .name = "Game",
                                                 .values = {"Menu", "Playing", "Paused"},
                                                 .initial = MENU});
    assert_true(game != 0);
    assert_int_equal(ecs_sched_state_apply(s.world, game), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_set(s.world, game, PLAYING), ECS_SCHED_OK);
    snap = take(&s);                                 /* Menu, Playing pending */
    assert_int_equal(ecs_sched_state_apply(s.world, game), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_push(s.world, game, PAUSED), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_apply(s.world, game), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_state_depth(s.world, game), 1);
    restore(&s, snap);
    assert_int_equal(ecs_sched_state_get(s.world, game), MENU);
    assert_int_equal(ecs_sched_state_depth(s.world, game), 0);
    assert_int_equal(ecs_sched_state_last_transition(s.world, game, &last), ECS_SCHED_OK);
    assert_int_equal(last.to, MENU);
    assert_int_equal(ecs_sched_state_apply(s.world, game), ECS_SCHED_OK);   /* still pending */
    assert_int_equal(ecs_sched_state_get(s.world, game), PLAYING);
    assert_int_equal(ecs_sched_state_depth(s.world, game), 0);
    ecs_sched_snapshot_free(snap);
    check_and_destroy(s.world);
}

static const ecs_sched_time *virtual_time(world_setup *s) {
    return (const ecs_sched_time *)ecs_sched_resource_get(s->world, ecs_sched_time_virtual_id(s->world));
}

/* The clocks' time is data (it comes back); the clock hook's last reading is not: the frame
   after a restore advances by the real time since the frame before it, not since the
   snapshot. */
static void clocks_come_back_but_the_next_frame_measures_from_the_last_reading(void **state) {
    world_setup s;
    ecs_sched_snapshot *snap;
    int frame;
    (void)state;
    setup_world_with_clocks(&s);
    assert_int_equal(ecs_sched_time_advance(s.world), ECS_SCHED_OK);   /* the first reading */
    g_now_ns += ECS_SCHED_MILLISECONDS(16);
    assert_int_equal(ecs_sched_time_advance(s.world), ECS_SCHED_OK);
    snap = take(&s);
    for (frame = 0; frame < 10; frame++) {
        g_now_ns += ECS_SCHED_MILLISECONDS(16);
        assert_int_equal(ecs_sched_time_advance(s.world), ECS_SCHED_OK);
    }
    restore(&s, snap);
    assert_int_equal(virtual_time(&s)->elapsed_ns, ECS_SCHED_MILLISECONDS(16));
    g_now_ns += ECS_SCHED_MILLISECONDS(16);
    assert_int_equal(ecs_sched_time_advance(s.world), ECS_SCHED_OK);
    assert_int_equal(virtual_time(&s)->delta_ns, ECS_SCHED_MILLISECONDS(16));
    assert_int_equal(virtual_time(&s)->elapsed_ns, ECS_SCHED_MILLISECONDS(32));
    ecs_sched_snapshot_free(snap);
    check_and_destroy(s.world);
}

static void restoring_into_another_world_is_refused(void **state) {
    world_setup s, t;
    ecs_sched_snapshot *snap;
    (void)state;
    setup_world(&s);
    setup_world(&t);
    spawn_at(&s, 1.0f);
    snap = take(&s);
    assert_int_equal(ecs_sched_snapshot_restore(t.world, snap), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_failed_with(t.world, &t.log, ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(t.world), "only into the world it was taken of"));
    assert_int_equal(ecs_sched_entity_count(t.world), 0);
    ecs_sched_snapshot_free(snap);
    check_and_destroy(s.world);
    check_and_destroy(t.world);
}

static void handles_reserved_by_a_buffer_refuse_both_ways(void **state) {
    world_setup s;
    ecs_sched_snapshot *snap;
    ecs_sched_commands *cmd;
    (void)state;
    setup_world(&s);
    snap = take(&s);
    cmd = ecs_sched_commands_create(s.world);
    assert_true(ecs_sched_commands_spawn(cmd) != ECS_SCHED_NULL_ENTITY);
    assert_null(ecs_sched_snapshot_take(s.world));
    assert_failed_with(s.world, &s.log, ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ecs_sched_last_error(s.world), "reserved by command buffers"));
    assert_int_equal(ecs_sched_snapshot_restore(s.world, snap), ECS_SCHED_ERR_INVALID_ARGUMENT);
    assert_int_equal(ecs_sched_commands_apply(cmd), ECS_SCHED_OK);
    restore(&s, snap);
    assert_int_equal(ecs_sched_entity_count(s.world), 0);
    ecs_sched_commands_destroy(cmd);
    ecs_sched_snapshot_free(snap);
    check_and_destroy(s.world);
}

static void restored_tracked_values_count_as_changed(void **state) {
    world_setup s;
    ecs_sched_id hp;
    ecs_sched_entity e;
    ecs_sched_snapshot *snap;
    ecs_sched_query_desc d;
    ecs_sched_query *q;
    ecs_sched_iter it;
    Health h = {5};
    int32_t seen = 0;
    (void)state;
    setup_world(&s);
    hp = ecs_sched_tracked_component_register_type(s.world, "Armor", sizeof(Health), ECS_SCHED_ALIGNOF(Health));
    e = ecs_sched_spawn(s.world);
    assert_int_equal(ecs_sched_insert(s.world, e, hp, &h), ECS_SCHED_OK);
    memset(&d, 0, sizeof d);
    d.terms[0] = ecs_sched_changed(hp);
    q = ecs_sched_query_create(s.world, &d);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) seen += it.count;
    assert_int_equal(seen, 1);
    snap = take(&s);
    seen = 0;
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) seen += it.count;
    assert_int_equal(seen, 0);   /* seen already */
    restore(&s, snap);
    it = ecs_sched_query_iter(q);
    while (ecs_sched_iter_next(&it)) seen += it.count;
    assert_int_equal(seen, 1);
    ecs_sched_snapshot_free(snap);
    check_and_destroy(s.world);
}

static void snapshot_bytes_count_the_values_held(void **state) {
    world_setup s;
    ecs_sched_snapshot *small, *big;
    int i;
    (void)state;
    setup_world(&s);
    small = take(&s);
    for (i = 0; i < 1000; i++) spawn_at(&s, (float)i);
    big = take(&s);
    assert_true(ecs_sched_snapshot_bytes(big) >= ecs_sched_snapshot_bytes(small) +
                                                  1000 * (sizeof(Position) + sizeof(ecs_sched_entity)));
    ecs_sched_snapshot_free(small);
    ecs_sched_snapshot_free(big);
    check_and_destroy(s.world);
}

static void a_retaken_snapshot_holds_the_world_as_it_is_now(void **state) {
    world_setup s, t;
    ecs_sched_entity e, later;
    ecs_sched_snapshot *snap;
    size_t bytes;
    int round;
    (void)state;
    setup_world(&s);
    e = spawn_at(&s, 1.0f);
    snap = take(&s);
    bytes = ecs_sched_snapshot_bytes(snap);
    for (round = 0; round < 3; round++) {   /* the same shape each time: the memory is reused */
        ((Position *)ecs_sched_get_mut(s.world, e, s.position))->x = (float)(10 * (round + 1));
        assert_int_equal(ecs_sched_snapshot_retake(s.world, snap), ECS_SCHED_OK);
        assert_int_equal(ecs_sched_snapshot_bytes(snap), bytes);
        ((Position *)ecs_sched_get_mut(s.world, e, s.position))->x = -1.0f;
        restore(&s, snap);
        assert_true(get_position(&s, e)->x > (float)(10 * (round + 1)) - 0.5f);
    }
    later = spawn_at(&s, 7.0f);   /* a new table's rows, and more records */
    assert_int_equal(ecs_sched_snapshot_retake(s.world, snap), ECS_SCHED_OK);
    assert_int_equal(ecs_sched_despawn(s.world, later), ECS_SCHED_OK);
    restore(&s, snap);
    assert_true(ecs_sched_is_alive(s.world, later));
    setup_world(&t);
    assert_int_equal(ecs_sched_snapshot_retake(t.world, snap), ECS_SCHED_ERR_INVALID_ARGUMENT);
    ecs_sched_snapshot_free(snap);
    check_and_destroy(s.world);
    check_and_destroy(t.world);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(restore_brings_back_the_values_changed_since),
        cmocka_unit_test(entities_made_since_go_and_entities_despawned_since_come_back),
        cmocka_unit_test(a_snapshot_restores_as_often_as_asked),
        cmocka_unit_test(tables_made_since_are_emptied_and_queries_agree),
        cmocka_unit_test(resources_come_back_and_resources_inserted_since_go),
        cmocka_unit_test(a_resource_removed_since_comes_back),
        cmocka_unit_test(the_hierarchy_names_and_relationships_come_back),
        cmocka_unit_test(restored_names_outlive_their_snapshot),
        cmocka_unit_test(bases_and_instances_come_back),
        cmocka_unit_test(values_with_hooks_are_copied_and_destroyed_in_pairs),
        cmocka_unit_test(handles_made_after_the_snapshot_never_name_a_later_entity),
        cmocka_unit_test(a_restored_entity_despawned_again_does_not_revive_an_abandoned_handle),
        cmocka_unit_test(delayed_commands_queued_after_the_snapshot_are_dropped_by_a_restore),
        cmocka_unit_test(delayed_commands_waiting_in_the_snapshot_wait_again_after_a_restore),
        cmocka_unit_test(a_delayed_buffer_s_own_delayed_buffers_come_back_with_a_restore),
        cmocka_unit_test(message_queues_come_back_and_later_messages_still_reach_readers),
        cmocka_unit_test(a_state_machine_comes_back_with_its_stack_and_pending_transition),
        cmocka_unit_test(clocks_come_back_but_the_next_frame_measures_from_the_last_reading),
        cmocka_unit_test(restoring_into_another_world_is_refused),
        cmocka_unit_test(handles_reserved_by_a_buffer_refuse_both_ways),
        cmocka_unit_test(restored_tracked_values_count_as_changed),
        cmocka_unit_test(snapshot_bytes_count_the_values_held),
        cmocka_unit_test(a_retaken_snapshot_holds_the_world_as_it_is_now),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
