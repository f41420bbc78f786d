/* delay: commands applied once a clock has advanced by a delay.

   The delayed buffers hang on the buffer that made them until it is applied (through the
   companion hooks of commands.h), then wait in queues beside the clocks (time.h), whose
   hooks, set at the first buffer queued, apply those due as a clock advances and free the
   queues with the clocks: the core and the clocks call nothing of this module by name. */
#pragma once
#include "time.h"

/* The clock a delay is counted on. */
typedef enum ecs_sched_clock {
    ECS_SCHED_CLOCK_VIRTUAL,     /* Time<Virtual>: the game's time (pauses, speeds up) */
    ECS_SCHED_CLOCK_FIXED        /* Time<Fixed>: the fixed steps */
} ecs_sched_clock;

/* A buffer whose commands are applied once `clock` has advanced by delay_ns (>= 0): record
   into it as into any buffer (spawn, insert, remove, despawn, a resource, ...).

       ecs_sched_commands *later = ecs_sched_commands_after(ecs_sched_ctx_commands(ctx),
                                                            ECS_SCHED_CLOCK_VIRTUAL,
                                                            ECS_SCHED_SECONDS(2));
       ecs_sched_commands_despawn(later, bullet);

   `commands` owns it: when `commands` is applied (a system's buffer: at the next sync point)
   it goes to the world's queue, and with `commands` when that is destroyed. Asked again for
   the same clock and delay before then, it is the same buffer. The delay counts from when
   `commands` is applied: for a system's buffer, the sync point after it in the same frame or
   fixed step, so from the clock's time the system read (the clock is read then, not by systems
   running at once). The world applies it, whole, when the clock's elapsed time reaches that
   time plus delay_ns: on the virtual clock at the end of ecs_sched_time_advance (the start of
   an app's update, before First runs), on the fixed clock at the start of a fixed step, once
   the clock has advanced and before FixedMain runs. Buffers that fall due together are applied
   in the order of their due times, then in the order their owners were applied (the plan order
   of systems at a sync point), which makes it the same on every executor. A delay of 0 applies
   at the next of those points. Handles the owner spawns may be used in the delayed buffer; a
   handle the delayed buffer spawns stays reserved until it is applied (snapshots are refused
   meanwhile). A buffer that fails to apply stays first in the queue with what is left, for the
   next point. NULL with the error recorded for a bad clock or delay, a world without clocks,
   or no memory. Not to be applied or destroyed by hand. */
ECS_SCHED_API ecs_sched_commands *ecs_sched_commands_after(ecs_sched_commands *commands,
                                                           ecs_sched_clock clock,
                                                           int64_t delay_ns);
/* Delayed buffers waiting in the world's queue for `clock` (handed over, not yet applied). */
ECS_SCHED_API int32_t ecs_sched_commands_waiting(const ecs_sched_world *world,
                                                 ecs_sched_clock clock);

/*@@ implementation @@*/
/* delay: commands applied once a clock has advanced by a delay. */

static ecs_sched_result ecs_sched__delays_apply_due(ecs_sched_world *w, int clock, int64_t now);
static void ecs_sched__delays_free(ecs_sched_world *w);

/* The clocks call back when they advance and when they go, once buffers may wait for them. */
static void ecs_sched__delays_hook(ecs_sched__clocks *clocks) {
    clocks->advanced = ecs_sched__delays_apply_due;
    clocks->closing = ecs_sched__delays_free;
}

static bool ecs_sched__delays_hand_over(ecs_sched_commands *cmd);
static void ecs_sched__delays_detach(ecs_sched_commands *cmd);

/* A buffer's delayed buffers go to the world's queue when it is applied, and with it when
   it is destroyed (commands.h calls these). */
static bool ecs_sched__delays_applying(ecs_sched_commands *cmd) {
    return cmd->after_count == 0 || ecs_sched__delays_hand_over(cmd);
}

static const ecs_sched__commands_companion ecs_sched__delays_companion = {
    ecs_sched__delays_applying, ecs_sched__delays_detach};

/* The elapsed time of a delayed buffer's clock, or -1 with the failure recorded. Read when
   its owner is applied, not when it is asked for: systems running at once must not read a
   clock a system may be writing, and a system's buffer is applied in the same frame or
   fixed step it ran in, when the clocks still read what they read then. */
static int64_t ecs_sched__delay_clock_now(ecs_sched_world *w, const ecs_sched_commands *later) {
    ecs_sched_id id = later->delayed - 1 == ECS_SCHED_CLOCK_FIXED ? ecs_sched__clocks_of(w)->fixed
                                                                  : ecs_sched__clocks_of(w)->virtual_;
    const ecs_sched_time *t = (const ecs_sched_time *)ecs_sched_resource_get(w, id);
    if (!t) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_MISSING_RESOURCE,
                        "applying commands: delayed commands count on resource '%s', which "
                        "was removed; the library made it and needs it",
                        ecs_sched__component_label(w, id));
        return -1;
    }
    return t->elapsed_ns;
}

static ecs_sched_commands *ecs_sched__delayed_make(ecs_sched_commands *owner, uint8_t delayed,
                                                   int64_t delay_ns) {
    ecs_sched_world *w = owner->world;
    ecs_sched_commands *later;
    if (!ECS_SCHED__GROW(&w->env, owner->after, &owner->after_capacity,
                         (uint32_t)owner->after_count + 1)) {
        return NULL;
    }
    owner->companion = &ecs_sched__delays_companion;   /* its list goes with it */
    /* not in the world's list of buffers: systems running at once may each make one */
    later = (ecs_sched_commands *)ecs_sched__calloc(&w->env, sizeof *later);
    if (!later) return NULL;
    later->world = w;
    later->owner = owner;
    later->delayed = delayed;
    later->due_ns = delay_ns;     /* until it is handed over: then the due time */
    later->companion = &ecs_sched__delays_companion;
    owner->after[owner->after_count++] = later;
    return later;
}

ecs_sched_commands *ecs_sched_commands_after(ecs_sched_commands *cmd, ecs_sched_clock clock,
                                             int64_t delay_ns) {
    ecs_sched_world *w;
    uint8_t delayed = (uint8_t)(clock + 1);
    ecs_sched_commands *later;
    int32_t i;
    ECS_SCHED_ASSERT(cmd != NULL);
    w = cmd->world;
    if (clock != ECS_SCHED_CLOCK_VIRTUAL && clock != ECS_SCHED_CLOCK_FIXED) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "commands_after: clock %d is not a clock (ECS_SCHED_CLOCK_VIRTUAL or "
                        "ECS_SCHED_CLOCK_FIXED)", (int)clock);
        return NULL;
    }
    if (delay_ns < 0) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "commands_after: the delay is %lld ns; it must be >= 0",
                        (long long)delay_ns);
        return NULL;
    }
    if (!ecs_sched__clocks_of(w)) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_MISSING_RESOURCE,
                        "commands_after: this world has no clocks (create an app, or call "
                        "ecs_sched_time_setup first)");
        return NULL;
    }
    for (i = 0; i < cmd->after_count; i++) {
        later = cmd->after[i];
        if (later->delayed == delayed && later->due_ns == delay_ns) return later;
    }
    later = ecs_sched__delayed_make(cmd, delayed, delay_ns);
    if (!later) ecs_sched__out_of_memory(w, "making a buffer of delayed commands");
    return later;
}

/* ---- delayed commands in snapshots ----

   The buffers waiting in the queues are game data (a despawn due in two seconds), so a
   snapshot holds a copy of each: its commands not applied yet, its due time and place in the
   queue, and the delayed buffers it made in turn. A restore replaces the queues by copies of
   those. (A buffer whose spawns reserved handles refuses snapshots: see snapshot.h.) */

typedef struct ecs_sched__delays_copy {
    uint64_t delay_serial;
    uint32_t count[2];
    ecs_sched_commands **waiting[2];  /* copies of the queues, in their order */
} ecs_sched__delays_copy;

static void ecs_sched__delayed_copy_free(ecs_sched__env *env, ecs_sched_commands *c) {
    int32_t i;
    for (i = 0; i < c->after_count; i++) ecs_sched__delayed_copy_free(env, c->after[i]);
    ecs_sched__free(env, c->after);
    while (c->first) {
        ecs_sched__command_block *next = c->first->next;
        ecs_sched__aligned_free(env, c->first);
        c->first = next;
    }
    ecs_sched__free(env, c);
}

/* A copy of the blocks from `from` to `last` (the one being written), whole, so that the
   values stay at their alignment; NULL when out of memory (what was copied is freed). */
static ecs_sched__command_block *ecs_sched__blocks_copy(ecs_sched__env *env,
                                                        const ecs_sched__command_block *from,
                                                        const ecs_sched__command_block *last,
                                                        ecs_sched__command_block **copy_of_last,
                                                        size_t *bytes) {
    const size_t header = ecs_sched__align_up(sizeof(ecs_sched__command_block), ECS_SCHED_MAX_ALIGNMENT);
    ecs_sched__command_block *first = NULL, **link = &first, *block = NULL;
    for (; from; from = from->next) {
        size_t capacity = from->used ? from->used : sizeof(uint32_t);
        block = (ecs_sched__command_block *)ecs_sched__aligned_alloc(env, header + capacity,
                                                                     ECS_SCHED_MAX_ALIGNMENT);
        if (!block) {
            while (first) {
                ecs_sched__command_block *next = first->next;
                ecs_sched__aligned_free(env, first);
                first = next;
            }
            return NULL;
        }
        block->data = (unsigned char *)block + header;
        block->used = from->used;
        block->capacity = capacity;
        block->next = NULL;
        memcpy(block->data, from->data, from->used);
        *bytes += header + capacity;
        *link = block;
        link = &block->next;
        if (from == last) break;
    }
    *copy_of_last = block;
    return first;
}

/* A copy of delayed buffer `from` as far as it is not applied, with the delayed buffers it
   made, for world w; NULL when out of memory. */
static ecs_sched_commands *ecs_sched__delayed_copy(ecs_sched__env *env, ecs_sched_world *w,
                                                   const ecs_sched_commands *from, size_t *bytes) {
    ecs_sched_commands *c = (ecs_sched_commands *)ecs_sched__calloc(env, sizeof *c);
    int32_t i;
    if (!c) return NULL;
    c->world = w;
    c->companion = &ecs_sched__delays_companion;
    c->delayed = from->delayed;
    c->due_ns = from->due_ns;
    c->serial = from->serial;
    c->pending = from->pending;
    c->read_at = from->read_at;
    c->read_entity = from->read_entity;
    c->write_entity = from->write_entity;
    *bytes += sizeof *c;
    if (from->read) {
        c->first = c->read = ecs_sched__blocks_copy(env, from->read, from->write, &c->write, bytes);
        if (!c->first) {
            ecs_sched__delayed_copy_free(env, c);
            return NULL;
        }
    }
    if (from->after_count) {
        c->after = (ecs_sched_commands **)ecs_sched__calloc(env, (size_t)from->after_count * sizeof *c->after);
        if (!c->after) {
            ecs_sched__delayed_copy_free(env, c);
            return NULL;
        }
        c->after_capacity = (uint32_t)from->after_count;
        for (i = 0; i < from->after_count; i++) {
            c->after[i] = ecs_sched__delayed_copy(env, w, from->after[i], bytes);
            if (!c->after[i]) {
                ecs_sched__delayed_copy_free(env, c);
                return NULL;
            }
            c->after[i]->owner = c;
            c->after_count = i + 1;
        }
    }
    return c;
}

static void ecs_sched__delays_copy_free(ecs_sched__env *env, void *copy) {
    ecs_sched__delays_copy *d = (ecs_sched__delays_copy *)copy;
    int clock;
    uint32_t i;
    for (clock = 0; clock < 2; clock++) {
        for (i = 0; d->waiting[clock] && i < d->count[clock]; i++) {
            if (d->waiting[clock][i]) ecs_sched__delayed_copy_free(env, d->waiting[clock][i]);
        }
        ecs_sched__free(env, d->waiting[clock]);
    }
    ecs_sched__free(env, d);
}

/* A copy of queues `from` (NULL: empty queues) for world w; NULL when out of memory. */
static ecs_sched__delays_copy *ecs_sched__delays_copy_make(ecs_sched_world *w,
                                                          const ecs_sched__delays_copy *from,
                                                          size_t *bytes) {
    ecs_sched__delays_copy *d = (ecs_sched__delays_copy *)ecs_sched__calloc(&w->env, sizeof *d);
    int clock;
    uint32_t i;
    if (!d) return NULL;
    if (!from) return d;
    d->delay_serial = from->delay_serial;
    for (clock = 0; clock < 2; clock++) {
        if (!from->count[clock]) continue;
        d->waiting[clock] = (ecs_sched_commands **)ecs_sched__calloc(
            &w->env, from->count[clock] * sizeof *d->waiting[clock]);
        if (!d->waiting[clock]) break;
        d->count[clock] = from->count[clock];
        for (i = 0; i < from->count[clock]; i++) {
            d->waiting[clock][i] = ecs_sched__delayed_copy(&w->env, w, from->waiting[clock][i], bytes);
            if (!d->waiting[clock][i]) break;
        }
        if (i < from->count[clock]) break;
    }
    if (clock < 2) {
        ecs_sched__delays_copy_free(&w->env, d);
        return NULL;
    }
    return d;
}

static bool ecs_sched__delays_take(ecs_sched_world *w, void **copy, size_t *bytes) {
    ecs_sched__delays_copy now;
    int clock;
    memset(&now, 0, sizeof now);
    now.delay_serial = ecs_sched__clocks_of(w)->delay_serial;
    for (clock = 0; clock < 2; clock++) {
        now.count[clock] = ecs_sched__clocks_of(w)->waiting_count[clock];
        now.waiting[clock] = ecs_sched__clocks_of(w)->waiting[clock];
    }
    *copy = ecs_sched__delays_copy_make(w, &now, bytes);
    return *copy != NULL;
}

/* The copies that go into the queues, and room in the queues for them. */
static bool ecs_sched__delays_prepare(ecs_sched_world *w, const void *copy, void **prepared) {
    const ecs_sched__delays_copy *from = (const ecs_sched__delays_copy *)copy;
    size_t bytes = 0;
    int clock;
    ecs_sched__delays_hook(ecs_sched__clocks_of(w));   /* the queues grow: they go with the clocks */
    for (clock = 0; from && clock < 2; clock++) {
        if (!ECS_SCHED__GROW(&w->env, ecs_sched__clocks_of(w)->waiting[clock], &ecs_sched__clocks_of(w)->waiting_capacity[clock],
                             from->count[clock])) {
            return false;
        }
    }
    *prepared = ecs_sched__delays_copy_make(w, from, &bytes);
    return *prepared != NULL;
}

static void ecs_sched__delays_discard(ecs_sched_world *w, void *prepared) {
    ecs_sched__delays_copy_free(&w->env, prepared);
}

/* The queues become the prepared copies; the buffers waiting now go. */
static void ecs_sched__delays_apply(ecs_sched_world *w, const void *copy, void *prepared) {
    ecs_sched__clocks *clocks = ecs_sched__clocks_of(w);
    ecs_sched__delays_copy *d = (ecs_sched__delays_copy *)prepared;
    int clock;
    uint32_t i;
    (void)copy;
    for (clock = 0; clock < 2; clock++) {
        while (clocks->waiting_count[clock]) {
            ecs_sched_commands *b = clocks->waiting[clock][--clocks->waiting_count[clock]];
            b->waiting = false;
            ecs_sched_commands_destroy(b);
        }
        for (i = 0; i < d->count[clock]; i++) {
            clocks->waiting[clock][i] = d->waiting[clock][i];
            clocks->waiting[clock][i]->waiting = true;
        }
        clocks->waiting_count[clock] = d->count[clock];
        d->count[clock] = 0;   /* the queue has them now */
    }
    if (copy) clocks->delay_serial = d->delay_serial;
    ecs_sched__delays_copy_free(&w->env, d);
}

static const ecs_sched__snapshot_part ecs_sched__delays_part = {
    ecs_sched__delays_take, ecs_sched__delays_prepare, ecs_sched__delays_apply,
    ecs_sched__delays_discard, ecs_sched__delays_copy_free};

/* The queue of buffers waiting for a clock: sorted by due time, then serial. */
static uint32_t ecs_sched__delay_slot(const ecs_sched__clocks *clocks, int clock,
                                      const ecs_sched_commands *b) {
    uint32_t low = 0, high = clocks->waiting_count[clock];
    while (low < high) {
        uint32_t mid = low + (high - low) / 2;
        const ecs_sched_commands *m = clocks->waiting[clock][mid];
        if (m->due_ns < b->due_ns || (m->due_ns == b->due_ns && m->serial < b->serial)) {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    return low;
}

static void ecs_sched__delay_enqueue(ecs_sched__clocks *clocks, ecs_sched_commands *b) {
    int clock = b->delayed - 1;
    uint32_t at = ecs_sched__delay_slot(clocks, clock, b);
    ecs_sched_commands **items = clocks->waiting[clock];
    memmove(items + at + 1, items + at, (clocks->waiting_count[clock] - at) * sizeof *items);
    items[at] = b;
    clocks->waiting_count[clock]++;
    b->waiting = true;
    b->owner = NULL;
    ecs_sched__delays_hook(clocks);
}

static void ecs_sched__delay_dequeue(ecs_sched__clocks *clocks, ecs_sched_commands *b) {
    int clock = b->delayed - 1;
    uint32_t i, n = clocks->waiting_count[clock];
    ecs_sched_commands **items = clocks->waiting[clock];
    for (i = 0; i < n; i++) {
        if (items[i] == b) {
            memmove(items + i, items + i + 1, (n - i - 1) * sizeof *items);
            clocks->waiting_count[clock]--;
            break;
        }
    }
    b->waiting = false;
}

/* `cmd` is being applied; the buffers it made join the
   queue, due at their clock's time now plus their delay (those with nothing in them are
   dropped). All or nothing: the clocks and room first. */
static bool ecs_sched__delays_hand_over(ecs_sched_commands *cmd) {
    ecs_sched_world *w = cmd->world;
    ecs_sched__clocks *clocks = ecs_sched__clocks_of(w);
    int64_t now[2] = {0, 0};
    int32_t i, per_clock[2] = {0, 0};
    if (!clocks) {   /* the clocks went (world end): the buffers go too */
        while (cmd->after_count) ecs_sched_commands_destroy(cmd->after[cmd->after_count - 1]);
        return true;
    }
    ecs_sched__delays_hook(clocks);   /* the queues grow: they go with the clocks */
    for (i = 0; i < cmd->after_count; i++) {
        int clock = cmd->after[i]->delayed - 1;
        if (per_clock[clock]++ == 0) {
            now[clock] = ecs_sched__delay_clock_now(w, cmd->after[i]);
            if (now[clock] < 0) return false;
        }
    }
    for (i = 0; i < 2; i++) {
        if (!ECS_SCHED__GROW(&w->env, clocks->waiting[i], &clocks->waiting_capacity[i],
                             clocks->waiting_count[i] + (uint32_t)per_clock[i])) {
            ecs_sched__out_of_memory(w, "queueing delayed commands");
            return false;
        }
    }
    for (i = 0; i < cmd->after_count; i++) {
        ecs_sched_commands *later = cmd->after[i];
        if (later->pending == 0 && later->after_count == 0) {
            later->owner = NULL;
            ecs_sched_commands_destroy(later);
            continue;
        }
        later->due_ns = ecs_sched__add_saturated(now[later->delayed - 1], later->due_ns);
        later->serial = clocks->delay_serial++;
        ecs_sched__delay_enqueue(clocks, later);
        ecs_sched__snapshot_part_add(w, &ecs_sched__delays_part);
    }
    cmd->after_count = 0;
    return true;
}

/* `cmd` is being destroyed. Its delayed buffers go with it;
   a delayed buffer leaves its owner's list or the queue. */
static void ecs_sched__delays_detach(ecs_sched_commands *cmd) {
    ecs_sched_world *w = cmd->world;
    while (cmd->after_count) {
        ecs_sched_commands *later = cmd->after[--cmd->after_count];
        later->owner = NULL;
        ecs_sched_commands_destroy(later);
    }
    ecs_sched__free(&w->env, cmd->after);
    cmd->after = NULL;
    cmd->after_capacity = 0;
    if (cmd->owner) {
        ecs_sched_commands *owner = cmd->owner;
        int32_t i;
        for (i = 0; i < owner->after_count; i++) {
            if (owner->after[i] == cmd) {
                owner->after[i] = owner->after[--owner->after_count];
                break;
            }
        }
        cmd->owner = NULL;
    }
    if (cmd->waiting && ecs_sched__clocks_of(w)) ecs_sched__delay_dequeue(ecs_sched__clocks_of(w), cmd);
}

/* The clocks' hook (time.h): applies the buffers due on `clock` at `now`, in queue order.
   Each is taken out before it is applied (applying may queue more); one that fails goes
   back in front with what is left. */
static ecs_sched_result ecs_sched__delays_apply_due(ecs_sched_world *w, int clock, int64_t now) {
    ecs_sched__clocks *clocks = ecs_sched__clocks_of(w);
    while (clocks->waiting_count[clock] && clocks->waiting[clock][0]->due_ns <= now) {
        ecs_sched_commands *b = clocks->waiting[clock][0];
        ecs_sched_result result;
        ecs_sched__delay_dequeue(clocks, b);
        result = ecs_sched__commands_apply(b);
        if (result != ECS_SCHED_OK) {
            ecs_sched__delay_enqueue(clocks, b);   /* its serial puts it first again */
            return result;
        }
        ecs_sched_commands_destroy(b);
    }
    return ECS_SCHED_OK;
}

/* The clocks' hook (time.h): the queued buffers go with the clocks. */
static void ecs_sched__delays_free(ecs_sched_world *w) {
    ecs_sched__clocks *clocks = ecs_sched__clocks_of(w);
    int i;
    for (i = 0; i < 2; i++) {
        while (clocks->waiting_count[i]) {
            ecs_sched_commands *b = clocks->waiting[i][--clocks->waiting_count[i]];
            b->waiting = false;
            ecs_sched_commands_destroy(b);
        }
        ecs_sched__free(&w->env, clocks->waiting[i]);
        clocks->waiting[i] = NULL;
    }
}

int32_t ecs_sched_commands_waiting(const ecs_sched_world *w, ecs_sched_clock clock) {
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__clocks_of(w) || (clock != ECS_SCHED_CLOCK_VIRTUAL && clock != ECS_SCHED_CLOCK_FIXED)) {
        return 0;
    }
    return (int32_t)ecs_sched__clocks_of(w)->waiting_count[clock];
}
