/* snapshot: a copy of a world's entities, components, resources, relationships, names,
   bases and the parts other modules register, and its restore. */
#pragma once
#include "inherit.h"

typedef struct ecs_sched_snapshot ecs_sched_snapshot;

/* A copy of the world as it is: every entity with its components (copied with the copy
   hooks), the entity index (handles and generations), the resources, the relationships, the
   names and the bases, and what other modules keep beside them (delayed commands, message
   queues, state machines, the clocks' time; see SNAPSHOTS). Not schedules, systems,
   observers or queries: code, not data. It holds no pointer into the world and outlives it; it restores into
   this world only. NULL on failure. Refused while a command buffer holds reserved handles
   (apply or destroy it first) and inside systems that may not change the world. */
ECS_SCHED_API ecs_sched_snapshot *ecs_sched_snapshot_take(ecs_sched_world *world);
/* Brings the world back to the snapshot exactly: entities made since are gone, entities
   despawned since are back with the same handles, every value is the snapshot's. A handle
   made since stays stale: generations move forward across a restore, so that no entity
   spawned later is given it. Components,
   relationship kinds, queries, systems and schedules registered since stay (they are not
   data); no observer hears anything; tracked components count every restored value as
   added and changed now. All or nothing. */
ECS_SCHED_API ecs_sched_result ecs_sched_snapshot_restore(ecs_sched_world *world,
                                                          const ecs_sched_snapshot *snapshot);
/* Takes the snapshot again, of the same world as it is now, reusing the snapshot's memory
   where it is large enough: for rollback, a snapshot retaken every frame allocates nothing
   once the world stops growing. On failure (out of memory) the snapshot is emptied: restoring
   it is refused until a retake succeeds. */
ECS_SCHED_API ecs_sched_result ecs_sched_snapshot_retake(ecs_sched_world *world,
                                                         ecs_sched_snapshot *snapshot);
ECS_SCHED_API void ecs_sched_snapshot_free(ecs_sched_snapshot *snapshot);
/* The memory the snapshot holds, in bytes. */
ECS_SCHED_API size_t ecs_sched_snapshot_bytes(const ecs_sched_snapshot *snapshot);

/*@@ implementation @@*/
/* snapshot: copies of worlds. A snapshot keeps the non-empty tables' rows, column by column,
   by table index: tables are never deleted, so a restore writes each table's rows back in
   place, and the queries' caches of tables stay true. The structures beside the tables
   (relationships, names, bases) are copied whole. */

typedef struct ecs_sched__values {
    ecs_sched_id id;
    int32_t count;
    ecs_sched__component type;      /* size, alignment and hooks, to destroy the copies */
    unsigned char *data;            /* NULL for no values */
} ecs_sched__values;

typedef struct ecs_sched__rows_copy {
    uint32_t table;
    int32_t count;
    int32_t capacity;               /* rows its blocks hold (a retake reuses them) */
    ecs_sched_entity *entities;
    ecs_sched__values *columns;     /* as the table's columns */
    uint64_t *toggles;              /* as the table's toggles: the bits of each, for capacity
                                       rows, one after the other (NULL: none) */
} ecs_sched__rows_copy;

struct ecs_sched_snapshot {
    ecs_sched__env env;             /* the allocator it was made with */
    uint64_t world;                 /* the serial of the world it was taken of; 0: emptied by
                                       a failed retake */
    uint32_t layout_changes;        /* the world's count of components whose layout changed
                                       (script.h): values of another layout are not restored */
    uint32_t table_count;
    ecs_sched__rows_copy *rows;     /* the non-empty tables */
    uint32_t row_copies;
    ecs_sched__record *records;
    uint32_t record_capacity;
    uint32_t record_count, free_head, free_count;
    int32_t alive_count;
    ecs_sched__values *resources;
    uint32_t resource_count;
    ecs_sched__links *relations;
    ecs_sched__names *names;
    ecs_sched__inheritance *inherit;
    struct ecs_sched__sparse_copy *sparse;   /* per sparse set of the world, in its order */
    uint32_t sparse_count;
    bool linked;
    size_t bytes;
    struct {                        /* what the registered snapshot parts keep (registry.h) */
        const ecs_sched__snapshot_part *part;
        void *copy;
    } parts[ECS_SCHED__SNAPSHOT_PARTS];
    int32_t part_count;
};

/* A copy of a sparse set's members and values. */
typedef struct ecs_sched__sparse_copy {
    ecs_sched_entity *members;
    ecs_sched__values values;
} ecs_sched__sparse_copy;

/* ---- values ---- */

/* A copy of n values of component c (copy hooks); false when out of memory. */
static bool ecs_sched__values_copy(ecs_sched__env *env, const ecs_sched__component *c,
                                   ecs_sched_id id, const void *from, int32_t n,
                                   ecs_sched__values *out, size_t *bytes) {
    out->id = id;
    out->count = n;
    out->type = *c;
    out->type.name = NULL;
    out->data = NULL;
    if (c->size == 0 || n == 0) return true;
    out->data = (unsigned char *)ecs_sched__aligned_alloc(env, (size_t)n * c->size, c->alignment);
    if (!out->data) return false;
    ecs_sched__construct(c, out->data, from, n);
    *bytes += (size_t)n * c->size;
    return true;
}

static void ecs_sched__values_free(ecs_sched__env *env, ecs_sched__values *v) {
    if (!v->data) return;
    ecs_sched__destruct(&v->type, v->data, v->count);
    ecs_sched__aligned_free(env, v->data);
    v->data = NULL;
}

/* ---- the structures beside the tables ---- */

static void *ecs_sched__clone_block(ecs_sched__env *env, const void *from, size_t bytes, bool *ok) {
    void *to;
    if (!from || bytes == 0) return NULL;
    to = ecs_sched__alloc(env, bytes);
    if (!to) {
        *ok = false;
        return NULL;
    }
    memcpy(to, from, bytes);
    return to;
}

/* ---- sparse sets ---- */

static void ecs_sched__sparse_copies_free(ecs_sched__env *env, ecs_sched_snapshot *s) {
    uint32_t i;
    for (i = 0; s->sparse && i < s->sparse_count; i++) {
        ecs_sched__free(env, s->sparse[i].members);
        ecs_sched__values_free(env, &s->sparse[i].values);
    }
    ecs_sched__free(env, s->sparse);
    s->sparse = NULL;
    s->sparse_count = 0;
}

static bool ecs_sched__snapshot_sparse(ecs_sched_world *w, ecs_sched_snapshot *s) {
    uint32_t i;
    if (!w->sparse_count) return true;
    s->sparse = (ecs_sched__sparse_copy *)ecs_sched__calloc(&w->env, w->sparse_count * sizeof *s->sparse);
    if (!s->sparse) return false;
    s->sparse_count = w->sparse_count;
    for (i = 0; i < w->sparse_count; i++) {
        const ecs_sched__sparse_set *set = &w->sparse_sets[i];
        ecs_sched__sparse_copy *copy = &s->sparse[i];
        bool ok = true;
        copy->members = (ecs_sched_entity *)ecs_sched__clone_block(
            &w->env, set->members, set->count * sizeof *set->members, &ok);
        if (!ok || !ecs_sched__values_copy(&w->env, &w->components[set->id], set->id, set->values,
                                           (int32_t)set->count, &copy->values, &s->bytes)) {
            return false;
        }
        copy->values.count = (int32_t)set->count;   /* a tag's members are there with no bytes */
        s->bytes += set->count * sizeof *set->members;
    }
    return true;
}

/* Room in the world's sets for the snapshot's members. */
static bool ecs_sched__restore_sparse_reserve(ecs_sched_world *w, const ecs_sched_snapshot *s) {
    uint32_t i;
    for (i = 0; i < s->sparse_count; i++) {
        ecs_sched__sparse_set *set = &w->sparse_sets[i];
        uint32_t had = set->position_capacity, count = (uint32_t)s->sparse[i].values.count;
        if (count > set->capacity && !ecs_sched__sparse_grow(w, set, count - set->count)) return false;
        if (s->record_count > had) {
            if (!ECS_SCHED__GROW(&w->env, set->position, &set->position_capacity, s->record_count)) return false;
            memset(set->position + had, 0, (size_t)(set->position_capacity - had) * sizeof *set->position);
        }
    }
    return true;
}

/* Every set's members become the snapshot's (none for a set made after it); tracked values
   count as added and changed now. */
static void ecs_sched__restore_sparse(ecs_sched_world *w, const ecs_sched_snapshot *s) {
    uint32_t i, k, tick = ecs_sched__tick_now(w);
    for (i = 0; i < w->sparse_count; i++) {
        ecs_sched__sparse_set *set = &w->sparse_sets[i];
        const ecs_sched__component *c = &w->components[set->id];
        const ecs_sched__sparse_copy *copy = i < s->sparse_count ? &s->sparse[i] : NULL;
        ecs_sched__destruct(c, set->values, (int32_t)set->count);
        for (k = 0; k < set->count; k++) set->position[ECS_SCHED_ENTITY_INDEX(set->members[k])] = 0;
        set->count = copy ? (uint32_t)copy->values.count : 0;
        if (!set->count) continue;
        memcpy(set->members, copy->members, set->count * sizeof *set->members);
        ecs_sched__construct(c, set->values, copy->values.data, (int32_t)set->count);
        for (k = 0; k < set->count; k++) {
            set->position[ECS_SCHED_ENTITY_INDEX(set->members[k])] = k + 1u;
            if (set->stamps) set->stamps[k].added = set->stamps[k].changed = tick;
        }
    }
}


/* Relationships as `from` has them (NULL: none), for the kinds `now` has registered. */
static ecs_sched__links *ecs_sched__links_clone(ecs_sched_world *w, const ecs_sched__links *from,
                                                const ecs_sched__links *now) {
    ecs_sched__links *r = (ecs_sched__links *)ecs_sched__calloc(&w->env, sizeof *r);
    uint32_t k, i;
    bool ok = r != NULL;
    if (!r) return NULL;
    r->kinds = (ecs_sched__kind *)ecs_sched__calloc(&w->env, (size_t)now->kind_capacity * sizeof *r->kinds);
    r->kind_capacity = r->kinds ? now->kind_capacity : 0;
    r->kind_ids = (ecs_sched_id *)ecs_sched__clone_block(&w->env, now->kind_ids,
                                                         now->kind_count * sizeof *now->kind_ids, &ok);
    r->kind_count = r->kind_id_capacity = now->kind_count;
    if (!r->kinds) ok = false;
    for (i = 0; ok && i < now->kind_count; i++) {
        ecs_sched_id kind = now->kind_ids[i];
        const ecs_sched__kind *src = from && kind < from->kind_capacity ? &from->kinds[kind] : NULL;
        ecs_sched__kind *dst = &r->kinds[kind];
        size_t slot = w->components[kind].size;
        dst->payload_size = now->kinds[kind].payload_size;
        dst->hooks = now->kinds[kind].hooks;   /* what modules attached, as registered now */
        if (!src) continue;
        dst->pairs = src->pairs;
        dst->extra_count = src->extra_count;
        dst->sources = (ecs_sched__sources *)ecs_sched__clone_block(
            &w->env, src->sources, src->source_capacity * sizeof *src->sources, &ok);
        dst->source_capacity = ok ? src->source_capacity : 0;
        for (k = 0; k < dst->source_capacity; k++) {   /* every entry, so none keeps the original's */
            dst->sources[k].items = (ecs_sched_entity *)(ok ? ecs_sched__clone_block(
                &w->env, src->sources[k].items, src->sources[k].count * sizeof(ecs_sched_entity), &ok) : NULL);
            dst->sources[k].capacity = dst->sources[k].items ? dst->sources[k].count : 0;
            if (!dst->sources[k].items) dst->sources[k].count = 0;
        }
        dst->extra = (ecs_sched__extra *)ecs_sched__clone_block(
            &w->env, src->extra, src->extra_capacity * sizeof *src->extra, &ok);
        dst->extra_capacity = ok ? src->extra_capacity : 0;
        for (k = 0; k < dst->extra_capacity; k++) {
            dst->extra[k].slots = (unsigned char *)(ok ? ecs_sched__clone_block(
                &w->env, src->extra[k].slots, src->extra[k].count * slot, &ok) : NULL);
            dst->extra[k].capacity = dst->extra[k].slots ? dst->extra[k].count : 0;
            if (!dst->extra[k].slots) dst->extra[k].count = 0;
        }
    }
    if (ok && from) {
        r->pairs = from->pairs;
        r->targets = (uint64_t *)ecs_sched__clone_block(&w->env, from->targets,
                                                        from->target_words * sizeof *from->targets, &ok);
        r->target_words = r->targets ? from->target_words : 0;
    }
    if (!ok) {   /* freed the way the world frees its own */
        ecs_sched__links *kept = ecs_sched__links_of(w);
        ecs_sched__part_set(w, &ecs_sched__links_key, r);
        ecs_sched__relations_free(w);
        ecs_sched__part_set(w, &ecs_sched__links_key, kept);
        return NULL;
    }
    return r;
}

static ecs_sched__names *ecs_sched__names_clone(ecs_sched_world *w, const ecs_sched__names *from) {
    ecs_sched__names *n;
    uint32_t i;
    bool ok = true;
    if (!from) return NULL;
    n = (ecs_sched__names *)ecs_sched__calloc(&w->env, sizeof *n);
    if (!n) return NULL;
    n->by_index = (ecs_sched__entity_name *)ecs_sched__clone_block(
        &w->env, from->by_index, from->capacity * sizeof *from->by_index, &ok);
    n->capacity = ok ? from->capacity : 0;
    for (i = 0; i < n->capacity; i++) {
        const char *text = n->by_index[i].text;
        n->by_index[i].text = NULL;
        if (ok && text && !(n->by_index[i].text = ecs_sched__strdup(&w->env, text))) ok = false;
    }
    if (ok && ecs_sched__name_slots_clone(&w->env, n, from)) return n;
    {
        ecs_sched__names *kept = ecs_sched__names_of(w);
        ecs_sched__part_set(w, &ecs_sched__names_key, n);
        ecs_sched__names_free(w);
        ecs_sched__part_set(w, &ecs_sched__names_key, kept);
    }
    return NULL;
}

static ecs_sched__inheritance *ecs_sched__inheritance_clone(ecs_sched_world *w,
                                                            const ecs_sched__inheritance *from) {
    ecs_sched__inheritance *h;
    uint32_t i;
    bool ok = true;
    if (!from) return NULL;
    h = (ecs_sched__inheritance *)ecs_sched__calloc(&w->env, sizeof *h);
    if (!h) return NULL;
    h->first_mark = from->first_mark;
    h->by_id = (ecs_sched__base *)ecs_sched__clone_block(&w->env, from->by_id,
                                                         from->capacity * sizeof *from->by_id, &ok);
    h->capacity = ok ? from->capacity : 0;
    for (i = 0; i < h->capacity; i++) {
        const ecs_sched_id *ids = h->by_id[i].auto_ids;
        h->by_id[i].auto_ids = (ecs_sched_id *)(ok ? ecs_sched__clone_block(
            &w->env, ids, h->by_id[i].auto_count * sizeof *ids, &ok) : NULL);
        h->by_id[i].auto_capacity = h->by_id[i].auto_ids ? h->by_id[i].auto_count : 0;
        if (!h->by_id[i].auto_ids) h->by_id[i].auto_count = 0;
    }
    h->mark_of.keys = (uint64_t *)ecs_sched__clone_block(&w->env, from->mark_of.keys,
                                                         from->mark_of.capacity * sizeof(uint64_t), &ok);
    h->mark_of.values = (uint32_t *)ecs_sched__clone_block(
        &w->env, from->mark_of.values, from->mark_of.capacity * sizeof(uint32_t), &ok);
    if (ok) {
        h->mark_of.capacity = from->mark_of.capacity;
        h->mark_of.count = from->mark_of.count;
        return h;
    }
    {
        ecs_sched__inheritance *kept = ecs_sched__inheritance_of(w);
        ecs_sched__part_set(w, &ecs_sched__inheritance_key, h);
        ecs_sched__inheritance_free(w);
        ecs_sched__part_set(w, &ecs_sched__inheritance_key, kept);
    }
    return NULL;
}

/* Frees the structures a snapshot or a failed restore holds, with the world's functions. */
static void ecs_sched__beside_free(ecs_sched_world *w, ecs_sched__links *relations,
                                   ecs_sched__names *names, ecs_sched__inheritance *inherit) {
    ecs_sched__links *r = ecs_sched__links_of(w);
    ecs_sched__names *n = ecs_sched__names_of(w);
    ecs_sched__inheritance *h = ecs_sched__inheritance_of(w);
    ecs_sched__part_set(w, &ecs_sched__links_key, relations);
    ecs_sched__part_set(w, &ecs_sched__names_key, names);
    ecs_sched__part_set(w, &ecs_sched__inheritance_key, inherit);
    ecs_sched__relations_free(w);
    ecs_sched__names_free(w);
    ecs_sched__inheritance_free(w);
    ecs_sched__part_set(w, &ecs_sched__links_key, r);
    ecs_sched__part_set(w, &ecs_sched__names_key, n);
    ecs_sched__part_set(w, &ecs_sched__inheritance_key, h);
}

/* ---- taking ---- */

/* Handles reserved by command buffers belong to no snapshot: they would come back reserved
   for a buffer that no longer holds them. */
static ecs_sched_result ecs_sched__refuse_reserved(ecs_sched_world *w, const char *operation) {
    uint32_t i, reserved = 0;
    for (i = 1; i < w->record_count; i++) reserved += w->records[i].table == ECS_SCHED__RESERVED;
    if (!reserved) return ECS_SCHED_OK;
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "%s: %u entity handles are reserved by command buffers not applied "
                           "yet; apply or destroy those buffers first", operation,
                           (unsigned)reserved);
}

static ecs_sched_result ecs_sched__snapshot_check(ecs_sched_world *w, const char *operation) {
    if (w->observed && ecs_sched__refused_in_observer(w, operation)) return ECS_SCHED_ERR_ACCESS;
    if (ecs_sched__change_refused(w, operation)) return ECS_SCHED_ERR_ACCESS;
    return ecs_sched__refuse_reserved(w, operation);
}

/* Copies the bits of t's toggleable components into r (the block allocated now if r has
   none). */
static bool ecs_sched__toggles_fill(ecs_sched_world *w, const ecs_sched__table *t,
                                    ecs_sched__rows_copy *r, size_t *bytes) {
    size_t words = ecs_sched__toggle_words(r->capacity);
    int32_t k;
    if (!t->toggle_count) return true;
    if (!r->toggles) {
        r->toggles = (uint64_t *)ecs_sched__alloc(&w->env, (size_t)t->toggle_count * words * sizeof(uint64_t));
        if (!r->toggles) return false;
    }
    for (k = 0; k < t->toggle_count; k++) {
        memcpy(r->toggles + (size_t)k * words, t->toggles[k].bits,
               ecs_sched__toggle_words(t->count) * sizeof(uint64_t));
    }
    *bytes += (size_t)t->toggle_count * words * sizeof(uint64_t);
    return true;
}

/* Copies table t's rows into r, which holds blocks for r->capacity rows of this table's
   columns (its old values destroyed first) or none (allocated now). */
static bool ecs_sched__rows_fill(ecs_sched_world *w, const ecs_sched__table *t, ecs_sched__rows_copy *r,
                                 size_t *bytes) {
    int32_t c;
    if (r->entities && r->capacity >= t->count) {   /* a retake: the blocks are reused */
        for (c = 0; c < t->column_count; c++) {
            ecs_sched__values *v = &r->columns[c];
            if (v->data) ecs_sched__destruct(&v->type, v->data, v->count);
            if (v->data) ecs_sched__construct(&w->components[v->id], v->data, t->columns[c].data, t->count);
            v->count = t->count;
            *bytes += (size_t)r->capacity * v->type.size;
        }
        memcpy(r->entities, t->entities, (size_t)t->count * sizeof *t->entities);
        r->count = t->count;
        *bytes += (size_t)r->capacity * sizeof *t->entities;
        return ecs_sched__toggles_fill(w, t, r, bytes);
    }
    {
        bool ok = true;
        r->count = r->capacity = t->count;
        r->entities = (ecs_sched_entity *)ecs_sched__clone_block(&w->env, t->entities,
                                                                 (size_t)t->count * sizeof *t->entities, &ok);
        r->columns = (ecs_sched__values *)ecs_sched__calloc(
            &w->env, (size_t)(t->column_count + 1) * sizeof *r->columns);
        if (!ok || !r->columns) return false;
        *bytes += (size_t)t->count * sizeof *t->entities;
        for (c = 0; c < t->column_count; c++) {
            const ecs_sched__column *col = &t->columns[c];
            if (!ecs_sched__values_copy(&w->env, &w->components[col->id], col->id, col->data,
                                        t->count, &r->columns[c], bytes)) {
                return false;
            }
        }
        return ecs_sched__toggles_fill(w, t, r, bytes);
    }
}

static void ecs_sched__rows_free(ecs_sched__env *env, ecs_sched__rows_copy *r) {
    int32_t c;
    for (c = 0; r->columns && r->columns[c].id; c++) ecs_sched__values_free(env, &r->columns[c]);
    ecs_sched__free(env, r->columns);
    ecs_sched__free(env, r->entities);
    ecs_sched__free(env, r->toggles);
    memset(r, 0, sizeof *r);
}

/* The non-empty tables' rows, taking the blocks of `spare` (a retake's old copies, by table
   index) where they are large enough; what is left of spare is freed. */
static bool ecs_sched__snapshot_rows(ecs_sched_world *w, ecs_sched_snapshot *s,
                                     ecs_sched__rows_copy *spare, uint32_t spare_count) {
    uint32_t i, next = 0, k;
    bool ok = true;
    for (i = 0; i < w->table_count; i++) s->row_copies += w->tables[i]->count > 0;
    s->rows = (ecs_sched__rows_copy *)ecs_sched__calloc(&w->env, (s->row_copies + 1) * sizeof *s->rows);
    if (!s->rows) ok = false;
    s->row_copies = 0;
    for (i = 0; ok && i < w->table_count; i++) {
        const ecs_sched__table *t = w->tables[i];
        ecs_sched__rows_copy *r;
        if (t->count == 0) continue;
        r = &s->rows[s->row_copies++];
        while (next < spare_count && spare[next].table < i) next++;
        if (next < spare_count && spare[next].table == i && spare[next].capacity >= t->count) {
            *r = spare[next];
            memset(&spare[next], 0, sizeof spare[next]);
        }
        r->table = i;
        ok = ecs_sched__rows_fill(w, t, r, &s->bytes);
    }
    for (k = 0; k < spare_count; k++) ecs_sched__rows_free(&w->env, &spare[k]);
    ecs_sched__free(&w->env, spare);
    return ok;
}

static bool ecs_sched__snapshot_resources(ecs_sched_world *w, ecs_sched_snapshot *s) {
    uint32_t id;
    s->resources = (ecs_sched__values *)ecs_sched__calloc(&w->env, w->component_count * sizeof *s->resources);
    if (!s->resources) return false;
    for (id = 1; id < w->component_count; id++) {
        ecs_sched__values *v;
        if (!w->resources[id]) continue;
        v = &s->resources[s->resource_count++];
        if (!ecs_sched__values_copy(&w->env, &w->components[id], id, w->resources[id], 1, v, &s->bytes)) {
            return false;
        }
        v->count = 1;   /* a tag resource is there with no bytes */
    }
    return true;
}

/* A snapshot keeps the dead indices as one list linked through its copy of the records, in
   the order the world would hand them out (its stack's top first, then its linked ones). */
static void ecs_sched__snapshot_link_free(const ecs_sched_world *w, ecs_sched_snapshot *s) {
    uint32_t next = w->free_head, k;
    for (k = 0; k < w->free_stack_count; k++) {
        uint32_t index = w->free_stack[k];
        s->records[index].row = next;
        next = index;
    }
    s->free_head = next;
}

/* After a restore: the linked dead indices go back on the stack, in the same order, when the
   stack can grow to hold them (else they stay linked, which works as well, only slower). */
static void ecs_sched__restore_free_stack(ecs_sched_world *w) {
    uint32_t at = w->free_head, k = w->free_count;
    w->free_stack_count = 0;
    if (k > w->free_stack_capacity &&
        !ECS_SCHED__GROW(&w->env, w->free_stack, &w->free_stack_capacity, k)) {
        return;
    }
    while (at != ECS_SCHED__NONE) {
        uint32_t next = w->records[at].row;
        w->free_stack[--k] = at;
        w->records[at].row = k;
        at = next;
    }
    w->free_stack_count = w->free_count;
    w->free_head = ECS_SCHED__NONE;
}

/* ---- the snapshot parts other modules keep (registry.h) ---- */

static void ecs_sched__snapshot_parts_free(ecs_sched_snapshot *s) {
    while (s->part_count) {
        s->part_count--;
        if (s->parts[s->part_count].copy) {
            s->parts[s->part_count].part->free(&s->env, s->parts[s->part_count].copy);
        }
    }
}

static bool ecs_sched__snapshot_parts_take(ecs_sched_world *w, ecs_sched_snapshot *s) {
    int32_t i;
    for (i = 0; i < w->snapshot_part_count; i++) {
        s->parts[i].part = w->snapshot_parts[i];
        s->parts[i].copy = NULL;
        s->part_count = i + 1;
        if (!w->snapshot_parts[i]->take(w, &s->parts[i].copy, &s->bytes)) return false;
    }
    return true;
}

/* What the snapshot keeps of `part`: NULL when it was taken before the part was registered. */
static const void *ecs_sched__snapshot_part_copy(const ecs_sched_snapshot *s,
                                                 const ecs_sched__snapshot_part *part) {
    int32_t i;
    for (i = 0; i < s->part_count; i++) {
        if (s->parts[i].part == part) return s->parts[i].copy;
    }
    return NULL;
}

/* Each registered part gets ready to restore its copy; all or none. */
static bool ecs_sched__restore_parts_prepare(ecs_sched_world *w, const ecs_sched_snapshot *s,
                                             void **prepared) {
    int32_t i;
    for (i = 0; i < w->snapshot_part_count; i++) {
        const ecs_sched__snapshot_part *part = w->snapshot_parts[i];
        prepared[i] = NULL;
        if (!part->prepare(w, ecs_sched__snapshot_part_copy(s, part), &prepared[i])) {
            while (i-- > 0) w->snapshot_parts[i]->discard(w, prepared[i]);
            return false;
        }
    }
    return true;
}

static void ecs_sched__restore_parts_apply(ecs_sched_world *w, const ecs_sched_snapshot *s,
                                           void **prepared) {
    int32_t i;
    for (i = 0; i < w->snapshot_part_count; i++) {
        const ecs_sched__snapshot_part *part = w->snapshot_parts[i];
        part->apply(w, ecs_sched__snapshot_part_copy(s, part), prepared[i]);
    }
}

/* ---- generations across a restore ----

   Generations only move forward, across restores too: a handle made in the abandoned
   timeline (after the snapshot) must never name an entity of the restored one. So for each
   index, the generation it is handed out with next is the highest of the two timelines: an
   index dead in the snapshot (or new since it) takes the current timeline's next generation
   when it is higher; an index alive in the snapshot keeps its handle, and its next release
   skips past the generations the abandoned timeline handed out there (the world's floors).
   Indices new since the snapshot stay, dead, handed out after the snapshot's free ones. */

/* The generation index i of the world as it is would be handed out with next. */
static uint32_t ecs_sched__next_generation(const ecs_sched_world *w, uint32_t i) {
    const ecs_sched__record *r = &w->records[i];
    uint32_t next = r->table < ECS_SCHED__RESERVED ? r->generation + 1u : r->generation;
    uint32_t floor = i < w->generation_floor_capacity ? w->generation_floor[i] : 0;
    return floor > next ? floor : next;
}

/* Whether index i, alive in the snapshot, needs a floor: the abandoned timeline handed out
   generations past the snapshot's on it. */
static bool ecs_sched__needs_floor(const ecs_sched_world *w, const ecs_sched_snapshot *s, uint32_t i) {
    return i < w->record_count && s->records[i].table < ECS_SCHED__RESERVED &&
           ecs_sched__next_generation(w, i) > s->records[i].generation + 1u;
}

/* Room for the floors the restore sets, and for the indices of both timelines. */
static bool ecs_sched__restore_generations_reserve(ecs_sched_world *w, const ecs_sched_snapshot *s) {
    uint32_t i, top = 0, had = w->generation_floor_capacity;
    uint32_t count = w->record_count > s->record_count ? w->record_count : s->record_count;
    if (!ECS_SCHED__GROW(&w->env, w->records, &w->record_capacity, count)) return false;
    for (i = 1; i < s->record_count; i++) {
        if (ecs_sched__needs_floor(w, s, i)) top = i + 1;
    }
    if (top <= had) return true;
    if (!ECS_SCHED__GROW(&w->env, w->generation_floor, &w->generation_floor_capacity, top)) return false;
    memset(w->generation_floor + had, 0, (size_t)(w->generation_floor_capacity - had) * sizeof *w->generation_floor);
    ecs_sched__index_bounds(w);
    return true;
}

/* The entity index becomes the snapshot's, generations as the rule above says; the free
   indices stay linked (ecs_sched__restore_free_stack stacks them). */
static void ecs_sched__restore_records(ecs_sched_world *w, const ecs_sched_snapshot *s) {
    uint32_t i, count = w->record_count > s->record_count ? w->record_count : s->record_count;
    uint32_t first_new = ECS_SCHED__NONE, last_new = ECS_SCHED__NONE, new_count = 0;
    if (s->record_count) w->records[0] = s->records[0];
    for (i = 1; i < count; i++) {
        uint32_t next = i < w->record_count ? ecs_sched__next_generation(w, i) : 0;
        ecs_sched__record *r = &w->records[i];
        bool floored = i < w->generation_floor_capacity;
        if (floored) w->generation_floor[i] = 0;
        if (i >= s->record_count) {   /* new since the snapshot: free, after its free ones */
            r->table = ECS_SCHED__DEAD;
            r->generation = next;
            r->row = ECS_SCHED__NONE;
            if (last_new == ECS_SCHED__NONE) first_new = i;
            else w->records[last_new].row = i;
            last_new = i;
            new_count++;
            continue;
        }
        if (s->records[i].table < ECS_SCHED__RESERVED && next > s->records[i].generation + 1u) {
            w->generation_floor[i] = next;   /* within the room reserved: `next` is as then */
        }
        *r = s->records[i];
        if (r->table >= ECS_SCHED__RESERVED && r->generation < next) r->generation = next;
    }
    w->record_count = count;
    w->free_head = s->free_head;
    if (first_new != ECS_SCHED__NONE) {
        uint32_t at = s->free_head;
        if (at == ECS_SCHED__NONE) {
            w->free_head = first_new;
        } else {
            while (w->records[at].row != ECS_SCHED__NONE) at = w->records[at].row;
            w->records[at].row = first_new;
        }
    }
    w->free_count = s->free_count + new_count;
}

ecs_sched_snapshot *ecs_sched_snapshot_take(ecs_sched_world *w) {
    ecs_sched_snapshot *s;
    bool ok = true;
    ECS_SCHED__CHECK_WORLD(w);
    if (ecs_sched__snapshot_check(w, "snapshot_take") != ECS_SCHED_OK) return NULL;
    s = (ecs_sched_snapshot *)ecs_sched__calloc(&w->env, sizeof *s);
    if (!s) {
        ecs_sched__out_of_memory(w, "taking a snapshot");
        return NULL;
    }
    s->env.allocator = w->env.allocator;
    s->world = w->serial;
    s->layout_changes = w->layout_changes;
    s->table_count = w->table_count;
    s->record_count = w->record_count;
    s->free_head = w->free_head;
    s->free_count = w->free_count;
    s->alive_count = w->alive_count;
    s->linked = w->linked;
    s->records = (ecs_sched__record *)ecs_sched__clone_block(&w->env, w->records,
                                                             w->record_count * sizeof *w->records, &ok);
    s->record_capacity = s->records ? w->record_count : 0;
    if (s->records) ecs_sched__snapshot_link_free(w, s);
    s->bytes = sizeof *s + w->record_count * sizeof *w->records;
    if (!ok || !ecs_sched__snapshot_rows(w, s, NULL, 0) || !ecs_sched__snapshot_resources(w, s) ||
        !ecs_sched__snapshot_sparse(w, s) ||
        !(s->relations = ecs_sched__links_clone(w, ecs_sched__links_of(w), ecs_sched__links_of(w))) ||
        (ecs_sched__names_of(w) && !(s->names = ecs_sched__names_clone(w, ecs_sched__names_of(w)))) ||
        (ecs_sched__inheritance_of(w) && !(s->inherit = ecs_sched__inheritance_clone(w, ecs_sched__inheritance_of(w)))) ||
        !ecs_sched__snapshot_parts_take(w, s)) {
        ecs_sched__beside_free(w, s->relations, s->names, s->inherit);
        s->relations = NULL;
        s->names = NULL;
        s->inherit = NULL;
        ecs_sched_snapshot_free(s);
        ecs_sched__out_of_memory(w, "taking a snapshot");
        return NULL;
    }
    return s;
}

size_t ecs_sched_snapshot_bytes(const ecs_sched_snapshot *s) {
    return s ? s->bytes : 0;
}

/* ---- retaking ---- */

/* Everything but the rows' blocks is taken again from nothing (it is small beside them). */
static void ecs_sched__snapshot_empty_but_rows(ecs_sched_world *w, ecs_sched_snapshot *s) {
    uint32_t i;
    for (i = 0; s->resources && i < s->resource_count; i++) ecs_sched__values_free(&s->env, &s->resources[i]);
    ecs_sched__free(&s->env, s->resources);
    s->resources = NULL;
    s->resource_count = 0;
    ecs_sched__beside_free(w, s->relations, s->names, s->inherit);
    s->relations = NULL;
    s->names = NULL;
    s->inherit = NULL;
    ecs_sched__sparse_copies_free(&s->env, s);
    ecs_sched__snapshot_parts_free(s);
}

ecs_sched_result ecs_sched_snapshot_retake(ecs_sched_world *w, ecs_sched_snapshot *s) {
    ecs_sched__rows_copy *spare;
    uint32_t spare_count;
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    if (!s) return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT, "snapshot_retake: snapshot is NULL");
    if (s->world && s->world != w->serial) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "snapshot_retake: the snapshot was taken of world #%llu and this is "
                               "world #%llu; retake it of its own world", (unsigned long long)s->world,
                               (unsigned long long)w->serial);
    }
    result = ecs_sched__snapshot_check(w, "snapshot_retake");
    if (result != ECS_SCHED_OK) return result;
    ecs_sched__snapshot_empty_but_rows(w, s);
    spare = s->rows;
    spare_count = s->row_copies;
    if (s->layout_changes != w->layout_changes) {   /* blocks sized for the layouts before */
        uint32_t i;
        for (i = 0; i < spare_count; i++) ecs_sched__rows_free(&s->env, &spare[i]);
        spare_count = 0;
    }
    s->rows = NULL;
    s->row_copies = 0;
    s->world = 0;   /* until the retake is whole */
    if (w->record_count > s->record_capacity) {
        ecs_sched__record *grown = (ecs_sched__record *)ecs_sched__realloc(
            &w->env, s->records, w->record_count * sizeof *s->records);
        if (grown) {
            s->records = grown;
            s->record_capacity = w->record_count;
        }
    }
    s->bytes = sizeof *s + w->record_count * sizeof *w->records;
    if (!ecs_sched__snapshot_rows(w, s, spare, spare_count) || w->record_count > s->record_capacity ||
        !ecs_sched__snapshot_resources(w, s) || !ecs_sched__snapshot_sparse(w, s) ||
        !(s->relations = ecs_sched__links_clone(w, ecs_sched__links_of(w), ecs_sched__links_of(w))) ||
        (ecs_sched__names_of(w) && !(s->names = ecs_sched__names_clone(w, ecs_sched__names_of(w)))) ||
        (ecs_sched__inheritance_of(w) && !(s->inherit = ecs_sched__inheritance_clone(w, ecs_sched__inheritance_of(w)))) ||
        !ecs_sched__snapshot_parts_take(w, s)) {
        uint32_t i;
        ecs_sched__snapshot_empty_but_rows(w, s);
        for (i = 0; s->rows && i < s->row_copies; i++) ecs_sched__rows_free(&s->env, &s->rows[i]);
        ecs_sched__free(&s->env, s->rows);
        s->rows = NULL;
        s->row_copies = 0;
        return ecs_sched__out_of_memory(w, "retaking a snapshot (it is empty now)");
    }
    if (w->record_count) memcpy(s->records, w->records, w->record_count * sizeof *w->records);
    s->world = w->serial;
    s->layout_changes = w->layout_changes;
    s->table_count = w->table_count;
    s->record_count = w->record_count;
    ecs_sched__snapshot_link_free(w, s);
    s->free_count = w->free_count;
    s->alive_count = w->alive_count;
    s->linked = w->linked;
    return ECS_SCHED_OK;
}

/* ---- freeing ---- */

/* The structures beside the tables, freed without a world: the same walk as the world's. */
static void ecs_sched__snapshot_free_beside(ecs_sched_snapshot *s) {
    ecs_sched__env *env = &s->env;
    uint32_t kind, i;
    if (s->relations) {
        ecs_sched__links *r = s->relations;
        for (kind = 0; kind < r->kind_capacity; kind++) {
            ecs_sched__kind *k = &r->kinds[kind];
            for (i = 0; i < k->source_capacity; i++) ecs_sched__free(env, k->sources[i].items);
            for (i = 0; i < k->extra_capacity; i++) ecs_sched__free(env, k->extra[i].slots);
            ecs_sched__free(env, k->sources);
            ecs_sched__free(env, k->extra);
        }
        ecs_sched__free(env, r->kinds);
        ecs_sched__free(env, r->kind_ids);
        ecs_sched__free(env, r->targets);
        ecs_sched__free(env, r);
    }
    if (s->names) {
        for (i = 0; i < s->names->capacity; i++) ecs_sched__free(env, s->names->by_index[i].text);
        ecs_sched__free(env, s->names->by_index);
        ecs_sched__name_slots_free(env, s->names);
        ecs_sched__free(env, s->names);
    }
    if (s->inherit) {
        for (i = 0; i < s->inherit->capacity; i++) ecs_sched__free(env, s->inherit->by_id[i].auto_ids);
        ecs_sched__free(env, s->inherit->by_id);
        ecs_sched__map_free(env, &s->inherit->mark_of);
        ecs_sched__free(env, s->inherit);
    }
}

void ecs_sched_snapshot_free(ecs_sched_snapshot *s) {
    ecs_sched__env *env;
    uint32_t i;
    if (!s) return;
    env = &s->env;
    for (i = 0; s->rows && i < s->row_copies; i++) ecs_sched__rows_free(env, &s->rows[i]);
    for (i = 0; s->resources && i < s->resource_count; i++) ecs_sched__values_free(env, &s->resources[i]);
    ecs_sched__free(env, s->rows);
    ecs_sched__free(env, s->resources);
    ecs_sched__free(env, s->records);
    ecs_sched__snapshot_free_beside(s);
    ecs_sched__sparse_copies_free(env, s);
    ecs_sched__snapshot_parts_free(s);
    ecs_sched__free(env, s);
}

/* ---- restoring ---- */

/* What a restore allocates, allocated before anything changes. */
typedef struct ecs_sched__restoring {
    ecs_sched__links *relations;
    ecs_sched__names *names;
    ecs_sched__inheritance *inherit;
    void **blocks;                  /* by component id: a resource's new block */
} ecs_sched__restoring;

static bool ecs_sched__restore_reserve(ecs_sched_world *w, const ecs_sched_snapshot *s,
                                       ecs_sched__restoring *r) {
    uint32_t i;
    memset(r, 0, sizeof *r);
    if (!ecs_sched__restore_generations_reserve(w, s)) return false;
    for (i = 0; i < s->row_copies; i++) {
        ecs_sched__table *t = w->tables[s->rows[i].table];
        if (s->rows[i].count > t->count && !ecs_sched__table_reserve(w, t, s->rows[i].count - t->count)) {
            return false;
        }
    }
    r->blocks = (void **)ecs_sched__calloc(&w->env, w->component_count * sizeof *r->blocks);
    if (!r->blocks) return false;
    for (i = 0; i < s->resource_count; i++) {
        const ecs_sched__component *c = &w->components[s->resources[i].id];
        if (w->resources[s->resources[i].id]) continue;
        r->blocks[s->resources[i].id] = ecs_sched__aligned_alloc(&w->env, c->size ? c->size : 1, c->alignment);
        if (!r->blocks[s->resources[i].id]) return false;
    }
    r->relations = ecs_sched__links_clone(w, s->relations, ecs_sched__links_of(w));
    if (!r->relations) return false;
    if (s->names && !(r->names = ecs_sched__names_clone(w, s->names))) return false;
    if (s->inherit && !(r->inherit = ecs_sched__inheritance_clone(w, s->inherit))) return false;
    return true;
}

static void ecs_sched__restoring_free(ecs_sched_world *w, ecs_sched__restoring *r) {
    uint32_t i;
    for (i = 0; r->blocks && i < w->component_count; i++) ecs_sched__aligned_free(&w->env, r->blocks[i]);
    ecs_sched__free(&w->env, r->blocks);
    ecs_sched__beside_free(w, r->relations, r->names, r->inherit);
}

/* Every row of a tracked table was added and changed now; the log starts again. */
static void ecs_sched__restamp(ecs_sched_world *w, ecs_sched__table *t) {
    uint32_t tick = ecs_sched__tick_now(w), now = ecs_sched__tick_load(w) + 1u;
    int32_t i, row;
    for (i = 0; i < t->tick_count; i++) {
        ecs_sched__ticks *k = &t->ticks[i];
        k->has_bulk = false;
        ecs_sched__change_log_cut(w, &k->log);
        for (row = 0; row < t->count; row++) {
            k->added[row] = k->changed[row] = tick;
            ecs_sched__ticks_note(k, row, tick, now);
        }
    }
}

/* The bits of t's toggleable components become the copy's; the rows past them have none. */
static void ecs_sched__restore_toggles(ecs_sched__table *t, const ecs_sched__rows_copy *copy) {
    int32_t k;
    for (k = 0; k < t->toggle_count && t->capacity; k++) {
        uint64_t *bits = t->toggles[k].bits;
        memset(bits, 0, ecs_sched__toggle_words(t->capacity) * sizeof *bits);
        if (copy) {
            memcpy(bits, copy->toggles + (size_t)k * ecs_sched__toggle_words(copy->capacity),
                   ecs_sched__toggle_words(copy->count) * sizeof *bits);
        }
    }
}

/* Table t's rows become the copy's (NULL: none). */
static void ecs_sched__restore_table(ecs_sched_world *w, ecs_sched__table *t,
                                     const ecs_sched__rows_copy *copy) {
    int32_t c;
    for (c = 0; c < t->column_count; c++) {
        ecs_sched__destruct(&w->components[t->columns[c].id], t->columns[c].data, t->count);
    }
    t->count = copy ? copy->count : 0;
    if (copy) {
        memcpy(t->entities, copy->entities, (size_t)copy->count * sizeof *t->entities);
        for (c = 0; c < t->column_count; c++) {
            ecs_sched__construct(&w->components[t->columns[c].id], t->columns[c].data,
                                 copy->columns[c].data, copy->count);
        }
    }
    if (t->tick_count) ecs_sched__restamp(w, t);
    if (t->toggle_count) ecs_sched__restore_toggles(t, copy);
}

static void ecs_sched__restore_resources(ecs_sched_world *w, const ecs_sched_snapshot *s,
                                         ecs_sched__restoring *r) {
    uint32_t id, i = 0;
    for (id = 1; id < w->component_count; id++) {
        const ecs_sched__values *v = i < s->resource_count && s->resources[i].id == id ? &s->resources[i++]
                                                                                       : NULL;
        const ecs_sched__component *c = &w->components[id];
        if (w->resources[id]) {
            ecs_sched__destruct(c, w->resources[id], 1);
            if (!v) {
                ecs_sched__aligned_free(&w->env, w->resources[id]);
                w->resources[id] = NULL;
                continue;
            }
        } else if (v) {
            w->resources[id] = r->blocks[id];
            r->blocks[id] = NULL;
        }
        if (!v) continue;
        ecs_sched__construct(c, w->resources[id], v->data, 1);
        if (w->ticks_on) w->resource_stamps[id].added = w->resource_stamps[id].changed = ecs_sched__tick_now(w);
    }
}

ecs_sched_result ecs_sched_snapshot_restore(ecs_sched_world *w, const ecs_sched_snapshot *s) {
    ecs_sched__restoring r;
    void *prepared[ECS_SCHED__SNAPSHOT_PARTS];
    ecs_sched__links *relations;
    ecs_sched__names *names;
    ecs_sched__inheritance *inherit;
    ecs_sched_result result;
    uint32_t i, next = 0;
    ECS_SCHED__CHECK_WORLD(w);
    if (!s) return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT, "snapshot_restore: snapshot is NULL");
    if (!s->world) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "snapshot_restore: the snapshot is empty: its last retake failed "
                               "(out of memory); retake it before restoring");
    }
    if (s->world != w->serial) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "snapshot_restore: the snapshot was taken of world #%llu and this "
                               "is world #%llu; a snapshot restores only into the world it was "
                               "taken of (its tables and component ids are that world's)",
                               (unsigned long long)s->world, (unsigned long long)w->serial);
    }
    if (s->layout_changes != w->layout_changes) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_REFUSED,
                               "snapshot_restore: the snapshot was taken before component '%s' "
                               "changed its layout (a script's reload migrated its values): it "
                               "holds values in the layout before; take a new snapshot",
                               ecs_sched__component_label(w, w->layout_changed));
    }
    result = ecs_sched__snapshot_check(w, "snapshot_restore");
    if (result != ECS_SCHED_OK) return result;
    if (!ecs_sched__restore_reserve(w, s, &r) || !ecs_sched__restore_sparse_reserve(w, s) ||
        !ecs_sched__restore_parts_prepare(w, s, prepared)) {
        ecs_sched__restoring_free(w, &r);
        return ecs_sched__out_of_memory(w, "restoring a snapshot");
    }
    for (i = 0; i < w->table_count; i++) {
        const ecs_sched__rows_copy *copy = next < s->row_copies && s->rows[next].table == i ? &s->rows[next++]
                                                                                          : NULL;
        if (copy || w->tables[i]->count) ecs_sched__restore_table(w, w->tables[i], copy);
    }
    ecs_sched__restore_records(w, s);
    ecs_sched__restore_free_stack(w);
    if (w->ranged) ecs_sched__index_lists_fit(w);   /* the range is the world's, not the snapshot's */
    w->alive_count = s->alive_count;
    ecs_sched__restore_sparse(w, s);
    ecs_sched__restore_resources(w, s, &r);
    relations = ecs_sched__links_of(w);
    names = ecs_sched__names_of(w);
    inherit = ecs_sched__inheritance_of(w);
    ecs_sched__part_set(w, &ecs_sched__links_key, r.relations);
    ecs_sched__part_set(w, &ecs_sched__names_key, r.names);
    ecs_sched__part_set(w, &ecs_sched__inheritance_key, r.inherit);
    r.relations = relations;   /* the world's old ones go with what is left of r */
    r.names = names;
    r.inherit = inherit;
    ecs_sched__restoring_free(w, &r);
    w->linked = w->linked || s->linked;
    w->rows_version++;
    ecs_sched__restore_parts_apply(w, s, prepared);
    return ECS_SCHED_OK;
}
