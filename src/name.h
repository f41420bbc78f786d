/* name: entity names, unique among siblings, found by name in a scope or by path. Without
   relationships (ECS_SCHED_NO_RELATIONS) every entity is a root: names are unique in the
   world, and paths are left out. */
#pragma once
#include "hierarchy.h"

/* Names the entity (a copy of `name` is kept; NULL takes the name away). Names are unique
   among the children of one parent, and among roots: a name another sibling has is refused
   with ECS_SCHED_ERR_NAME_CLASH, naming both. So is a set_parent that would bring two equal
   names under one parent. An empty name is refused. Like a structural change, naming is for
   code outside the schedule, or exclusive systems. */
ECS_SCHED_API ecs_sched_result ecs_sched_set_name(ecs_sched_world *world, ecs_sched_entity entity,
                                                  const char *name);
/* The entity's name, or NULL. Valid until the name changes or the entity goes. */
ECS_SCHED_API const char *ecs_sched_name(const ecs_sched_world *world, ecs_sched_entity entity);
/* The child of `scope` with this name (scope ECS_SCHED_NULL_ENTITY: the root with it), or
   ECS_SCHED_NULL_ENTITY. Hashed: no scan of the children. */
ECS_SCHED_API ecs_sched_entity ecs_sched_lookup(const ecs_sched_world *world,
                                                ecs_sched_entity scope, const char *name);
#ifndef ECS_SCHED_NO_RELATIONS
/* Follows a path of names from scope (ECS_SCHED_NULL_ENTITY: from the roots), each name
   separated by `separator` (NULL: "."), as in "ship.turret_left.barrel". A part "#<index>"
   names the live entity with that index if it is in that scope (what ecs_sched_path writes
   for an unnamed entity); a backslash makes the next character part of a name (see
   ecs_sched_path); an empty path names the scope itself. A path that does not resolve is a
   miss: ECS_SCHED_NULL_ENTITY, nothing recorded (see ERRORS). A dead scope is a failure
   (ECS_SCHED_ERR_STALE_ENTITY). */
ECS_SCHED_API ecs_sched_entity ecs_sched_lookup_path(ecs_sched_world *world,
                                                     ecs_sched_entity scope, const char *path,
                                                     const char *separator);
/* Writes the entity's path from its root (names joined by separator, NULL: "."; an entity
   without a name appears as "#" and its index) into out, at most capacity bytes with the
   terminating zero; returns the length of the whole path (snprintf's rule), or -1 for a dead
   entity. In a name, a backslash goes before each backslash, each character of the separator
   and a leading '#', so that ecs_sched_lookup_path(w, 0, path, separator) finds the entity. */
ECS_SCHED_API int32_t ecs_sched_path(const ecs_sched_world *world, ecs_sched_entity entity,
                                     const char *separator, char *out, int32_t capacity);
#endif

/*@@ implementation @@*/
/* name: entity names. A name is kept by entity index, with the scope it was filed under (the
   parent, or none); one hash map from (scope, name) to the entity finds it, so a lookup costs
   a hash of the name and a probe, whatever the number of siblings. Reparenting files the
   name under the new scope; a despawn takes it out. */

typedef struct ecs_sched__entity_name {
    char *text;                     /* NULL: no name */
    ecs_sched_entity scope;         /* the parent it is filed under, or 0 for a root */
    uint64_t key;
} ecs_sched__entity_name;

/* A slot of the hash map of names, found from the home of its name's key: what a lookup
   compares, in one place, so that a hit on a name shorter than 8 bytes reads the slot alone
   (not the entity's record, its entry by index nor its text), and a longer one the text. */
typedef struct ecs_sched__name_slot {
    uint64_t tail;                  /* the name's last 8 bytes (ecs_sched__name_tail) */
    ecs_sched_entity scope;
    ecs_sched_entity entity;        /* 0: an empty slot */
    const char *text;               /* the entity's by_index text */
} ecs_sched__name_slot;

typedef struct ecs_sched__names ecs_sched__names;

/* The part of the world this module keeps (registry.h). */
static ecs_sched__part_key ecs_sched__names_key;

struct ecs_sched__names {
    ecs_sched__entity_name *by_index;
    uint32_t capacity;
    ecs_sched__name_slot *slots;    /* open addressing by key; keys may collide */
    uint32_t slot_capacity;         /* a power of two, or 0 */
    uint32_t slot_count;
};

static inline ecs_sched__names *ecs_sched__names_of(const ecs_sched_world *w) {
    return (ecs_sched__names *)ecs_sched__part(w, &ecs_sched__names_key);
}

/* The key of a name in a scope: FNV-1a over its bytes, seeded with the scope, then mixed.
   A path lookup computes it as it scans a part (ecs_sched__path_part), one byte at a time. */
#define ECS_SCHED__NAME_SEED 14695981039346656037ull
#define ECS_SCHED__NAME_PRIME 1099511628211ull

static inline uint64_t ecs_sched__name_key_end(uint64_t h) {
    return h ^ (h >> 29);
}

static uint64_t ecs_sched__name_key(ecs_sched_entity scope, const char *name, size_t length) {
    uint64_t h = ECS_SCHED__NAME_SEED ^ scope;
    size_t i;
    for (i = 0; i < length; i++) h = (h ^ (unsigned char)name[i]) * ECS_SCHED__NAME_PRIME;
    return ecs_sched__name_key_end(h);
}

/* The last 8 bytes of a name of `length` bytes, shifted in one by one (as a path lookup does
   while it scans a part): for two names shorter than 8 bytes, equal only when the names are
   (a name holds no zero byte). */
static inline uint64_t ecs_sched__name_tail(const char *name, size_t length) {
    uint64_t tail = 0;
    size_t i;
    for (i = length > 8 ? length - 8 : 0; i < length; i++) tail = (tail << 8) | (unsigned char)name[i];
    return tail;
}

/* Where the slot of a name of this key starts its search. */
static inline uint32_t ecs_sched__name_home(const ecs_sched__names *n, uint64_t key) {
    return ecs_sched__hash_slot(key, n->slot_capacity);
}

/* Room for `extra` more names in the map (load at most one half). */
static bool ecs_sched__name_slots_reserve(ecs_sched__env *env, ecs_sched__names *n, uint32_t extra) {
    ecs_sched__name_slot *grown;
    uint32_t i, capacity = n->slot_capacity ? n->slot_capacity : 16;
    if ((n->slot_count + extra) * 2 <= n->slot_capacity) return true;
    while ((n->slot_count + extra) * 2 > capacity) capacity *= 2;
    grown = (ecs_sched__name_slot *)ecs_sched__calloc(env, (size_t)capacity * sizeof *grown);
    if (!grown) return false;
    for (i = 0; i < n->slot_capacity; i++) {
        const ecs_sched__name_slot *from = &n->slots[i];
        uint32_t s;
        if (!from->entity) continue;
        uint64_t key = n->by_index[ECS_SCHED_ENTITY_INDEX(from->entity)].key;
        for (s = ecs_sched__hash_slot(key, capacity); grown[s].entity; s = (s + 1) & (capacity - 1)) {}
        grown[s] = *from;
    }
    ecs_sched__free(env, n->slots);
    n->slots = grown;
    n->slot_capacity = capacity;
    return true;
}

static void ecs_sched__name_slots_free(ecs_sched__env *env, ecs_sched__names *n) {
    ecs_sched__free(env, n->slots);
    n->slots = NULL;
    n->slot_capacity = n->slot_count = 0;
}

/* A copy of from's map into to, whose by_index holds copies of from's texts (a snapshot). */
static bool ecs_sched__name_slots_clone(ecs_sched__env *env, ecs_sched__names *to,
                                        const ecs_sched__names *from) {
    uint32_t i;
    if (!from->slot_capacity) return true;
    to->slots = (ecs_sched__name_slot *)ecs_sched__alloc(env, (size_t)from->slot_capacity * sizeof *to->slots);
    if (!to->slots) return false;
    memcpy(to->slots, from->slots, (size_t)from->slot_capacity * sizeof *to->slots);
    to->slot_capacity = from->slot_capacity;
    to->slot_count = from->slot_count;
    for (i = 0; i < to->slot_capacity; i++) {
        ecs_sched__name_slot *s = &to->slots[i];
        if (s->entity) s->text = to->by_index[ECS_SCHED_ENTITY_INDEX(s->entity)].text;
    }
    return true;
}

static const ecs_sched__entity_name *ecs_sched__name_record(const ecs_sched_world *w, uint32_t index) {
    const ecs_sched__names *n = ecs_sched__names_of(w);
    return n && index < n->capacity && n->by_index[index].text ? &n->by_index[index] : NULL;
}

/* The entity_name hook (registry.h): the name, for messages. */
static const char *ecs_sched__entity_name_of(const ecs_sched_world *w, ecs_sched_entity e) {
    const ecs_sched__entity_name *r = ecs_sched__name_record(w, ECS_SCHED_ENTITY_INDEX(e));
    return r && ecs_sched__is_live_record(w, e) ? r->text : NULL;
}

/* The entity filed under scope with the name (length bytes, no zero byte among them) whose
   key and tail are given, or 0. */
static inline ecs_sched_entity ecs_sched__find_keyed_name(const ecs_sched_world *w, ecs_sched_entity scope,
                                                          uint64_t key, uint64_t tail,
                                                          const char *name, size_t length) {
    const ecs_sched__names *n = ecs_sched__names_of(w);
    uint32_t s, mask;
    if (!n || !n->slot_capacity) return ECS_SCHED_NULL_ENTITY;
    mask = n->slot_capacity - 1;
    for (s = ecs_sched__name_home(n, key); n->slots[s].entity; s = (s + 1) & mask) {
        const ecs_sched__name_slot *slot = &n->slots[s];
        if (slot->tail != tail || slot->scope != scope) continue;
        if (length < sizeof tail ||
            (strncmp(slot->text, name, length) == 0 && slot->text[length] == '\0')) {
            return slot->entity;
        }
    }
    return ECS_SCHED_NULL_ENTITY;
}

/* The entity filed under scope with the name (length bytes), or 0. */
static ecs_sched_entity ecs_sched__find_name(const ecs_sched_world *w, ecs_sched_entity scope,
                                             const char *name, size_t length) {
    if (!ecs_sched__names_of(w)) return ECS_SCHED_NULL_ENTITY;
    return ecs_sched__find_keyed_name(w, scope, ecs_sched__name_key(scope, name, length),
                                      ecs_sched__name_tail(name, length), name, length);
}

/* Takes the slot of entity index out of the map (backward shift: no tombstones). */
static void ecs_sched__name_unfile(ecs_sched__names *n, uint32_t index) {
    uint32_t mask = n->slot_capacity - 1, hole, j;
    for (hole = ecs_sched__name_home(n, n->by_index[index].key);
         ECS_SCHED_ENTITY_INDEX(n->slots[hole].entity) != index; hole = (hole + 1) & mask) {}
    n->slots[hole].entity = ECS_SCHED_NULL_ENTITY;
    n->slot_count--;
    for (j = (hole + 1) & mask; n->slots[j].entity; j = (j + 1) & mask) {
        uint32_t home = ecs_sched__name_home(n, n->by_index[ECS_SCHED_ENTITY_INDEX(n->slots[j].entity)].key);
        /* an entry moves into the hole unless its home lies cyclically in (hole, j] */
        bool stays = hole < j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (stays) continue;
        n->slots[hole] = n->slots[j];
        n->slots[j].entity = ECS_SCHED_NULL_ENTITY;
        hole = j;
    }
}

/* Files entity e (its text set) under scope (the map has room). */
static void ecs_sched__name_file(ecs_sched__names *n, ecs_sched_entity e, ecs_sched_entity scope) {
    ecs_sched__entity_name *r = &n->by_index[ECS_SCHED_ENTITY_INDEX(e)];
    size_t length = strlen(r->text);
    uint32_t s;
    r->scope = scope;
    r->key = ecs_sched__name_key(scope, r->text, length);
    for (s = ecs_sched__name_home(n, r->key); n->slots[s].entity; s = (s + 1) & (n->slot_capacity - 1)) {}
    n->slots[s].tail = ecs_sched__name_tail(r->text, length);
    n->slots[s].entity = e;
    n->slots[s].scope = scope;
    n->slots[s].text = r->text;
    n->slot_count++;
}

static ecs_sched_result ecs_sched__name_clash(ecs_sched_world *w, const char *operation,
                                             ecs_sched_entity e, const char *name,
                                             ecs_sched_entity scope, ecs_sched_entity other) {
    char where[128];
    if (scope) snprintf(where, sizeof where, "among the children of %s", ecs_sched__entity_label(w, scope).text);
    else snprintf(where, sizeof where, "among the roots");
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_NAME_CLASH,
                           "%s: %s cannot be named '%s' %s: %s has that name there already; "
                           "names are unique among siblings", operation,
                           ecs_sched__entity_label(w, e).text, name, where,
                           ecs_sched__entity_label(w, other).text);
}

/* The scope an entity's name is filed under: its parent, or 0 for a root. */
static ecs_sched_entity ecs_sched__name_scope(const ecs_sched_world *w, ecs_sched_entity e) {
#ifdef ECS_SCHED_NO_RELATIONS
    (void)w;
    (void)e;
    return ECS_SCHED_NULL_ENTITY;
#else
    return ecs_sched_parent_of(w, e);
#endif
}

/* Names follow ChildOf and go with their entities: the hooks this module installs in the
   world (registry.h) and in ChildOf (relation.h), with the first name. */
static void ecs_sched__names_attach(ecs_sched_world *w);

static bool ecs_sched__names_reserve(ecs_sched_world *w, uint32_t index) {
    ecs_sched__names *n = ecs_sched__names_of(w);
    uint32_t had;
    if (!n) {
        n = (ecs_sched__names *)ecs_sched__calloc(&w->env, sizeof *n);
        if (!n) return false;
        ecs_sched__part_set(w, &ecs_sched__names_key, n);
        ecs_sched__names_attach(w);
    }
    had = n->capacity;
    if (index >= had) {
        if (!ECS_SCHED__GROW(&w->env, n->by_index, &n->capacity, index + 1)) return false;
        memset(n->by_index + had, 0, (n->capacity - had) * sizeof *n->by_index);
    }
    return ecs_sched__name_slots_reserve(&w->env, n, 1);
}

ecs_sched_result ecs_sched_set_name(ecs_sched_world *w, ecs_sched_entity e, const char *name) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    ecs_sched_entity scope, other;
    ecs_sched__entity_name *r;
    char *copy;
    ECS_SCHED__CHECK_WORLD(w);
    if (ecs_sched__change_refused(w, "set_name")) return ECS_SCHED_ERR_ACCESS;
    if (!ecs_sched__is_live_record(w, e)) return ecs_sched__stale(w, e, "set_name");
    if (!name) {
        if (ecs_sched__name_record(w, index)) {
            r = &ecs_sched__names_of(w)->by_index[index];
            ecs_sched__name_unfile(ecs_sched__names_of(w), index);
            ecs_sched__free(&w->env, r->text);
            r->text = NULL;
        }
        return ECS_SCHED_OK;
    }
    if (!name[0]) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "set_name: %s cannot be given an empty name (NULL takes a name "
                               "away)", ecs_sched__entity_label(w, e).text);
    }
    scope = ecs_sched__name_scope(w, e);
    other = ecs_sched__find_name(w, scope, name, strlen(name));
    if (other == e) return ECS_SCHED_OK;
    if (other) return ecs_sched__name_clash(w, "set_name", e, name, scope, other);
    copy = ecs_sched__strdup(&w->env, name);
    if (!copy || !ecs_sched__names_reserve(w, index)) {
        ecs_sched__free(&w->env, copy);
        return ecs_sched__out_of_memory(w, "naming an entity");
    }
    r = &ecs_sched__names_of(w)->by_index[index];
    if (r->text) {
        ecs_sched__name_unfile(ecs_sched__names_of(w), index);
        ecs_sched__free(&w->env, r->text);
    }
    r->text = copy;
    ecs_sched__name_file(ecs_sched__names_of(w), e, scope);
    w->linked = true;   /* despawns take names away */
    return ECS_SCHED_OK;
}

const char *ecs_sched_name(const ecs_sched_world *w, ecs_sched_entity e) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__entity_name_of(w, e);
}

ecs_sched_entity ecs_sched_lookup(const ecs_sched_world *w, ecs_sched_entity scope, const char *name) {
    ECS_SCHED__CHECK_WORLD(w);
    if (!name) return ECS_SCHED_NULL_ENTITY;
    return ecs_sched__find_name(w, scope, name, strlen(name));
}

#ifndef ECS_SCHED_NO_RELATIONS
/* A part of a path: its bytes up to the first separator not escaped by a backslash. */
typedef struct ecs_sched__path_piece {
    const char *end;                /* the separator after it, or the terminating zero */
    size_t length;
    uint64_t key;                   /* its name's key in the scope, and its name's tail */
    uint64_t tail;
    bool escaped;                   /* it has a backslash */
} ecs_sched__path_piece;

/* The characters a part of a path stops at to look closer: the zero, the backslash, and the
   ASCII punctuation but '_' and '-', among which the usual separators' first characters (a
   separator starting with another character marks its own, ecs_sched_lookup_path). */
static const unsigned char ecs_sched__path_stops[256] = {
    1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1,
    1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0,
    1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
};

/* The part of a path at `at`, its name's key and tail computed as it is scanned (a part with
   a backslash is looked up again from its name without the escapes). `stops` marks at least
   the characters that may end a part or escape: the zero, the backslash and the separator's
   first character; the others cost one test each. */
static ecs_sched__path_piece ecs_sched__path_part(const char *at, const char *separator,
                                                  size_t sep_length, const unsigned char *stops,
                                                  ecs_sched_entity scope) {
    ecs_sched__path_piece piece;
    const unsigned char *p = (const unsigned char *)at;
    uint64_t h = ECS_SCHED__NAME_SEED ^ scope, tail = 0;
    bool backslash = false;
    for (;; p++) {
        unsigned char c = *p;
        if (!ECS_SCHED__LIKELY(!stops[c])) {
            /* a call per character only where the separator's first one is */
            if (c == (unsigned char)separator[0] &&
                (sep_length == 1 || strncmp((const char *)p, separator, sep_length) == 0)) {
                break;
            }
            if (c == '\\' && p[1]) {
                backslash = true;
                c = *++p;
            } else if (c == '\0') {
                break;
            }
        }
        h = (h ^ c) * ECS_SCHED__NAME_PRIME;
        tail = (tail << 8) | c;
    }
    piece.end = (const char *)p;
    piece.length = (size_t)((const char *)p - at);
    piece.key = ecs_sched__name_key_end(h);
    piece.tail = tail;
    piece.escaped = backslash;
    return piece;
}

/* The part without its escapes, into out (room for length + 1 bytes); returns its length. */
static size_t ecs_sched__path_unescape(const char *at, size_t length, char *out) {
    size_t i, n = 0;
    for (i = 0; i < length; i++) {
        if (at[i] == '\\' && i + 1 < length) i++;
        out[n++] = at[i];
    }
    out[n] = '\0';
    return n;
}

/* Whether the part is "#<index>" (not escaped); if so, *found is the live entity with that
   index in scope, or 0. */
static bool ecs_sched__path_index(const ecs_sched_world *w, ecs_sched_entity scope, const char *at,
                                  size_t length, ecs_sched_entity *found) {
    uint64_t index = 0;
    size_t i;
    if (length < 2 || at[0] != '#') return false;
    for (i = 1; i < length; i++) {
        if (at[i] < '0' || at[i] > '9') return false;
        if (index <= UINT32_MAX) index = index * 10 + (uint64_t)(at[i] - '0');
    }
    *found = ECS_SCHED_NULL_ENTITY;
    if (index < w->record_count) {
        ecs_sched_entity e = ecs_sched__make_entity((uint32_t)index, w->records[index].generation);
        if (ecs_sched__is_live_record(w, e) && ecs_sched_parent_of(w, e) == scope) *found = e;
    }
    return true;
}

/* The child of scope a part of a path names, or 0, into *found; false when out of memory. */
static bool ecs_sched__path_step(ecs_sched_world *w, ecs_sched_entity scope, const char *at,
                                 const ecs_sched__path_piece *piece, ecs_sched_entity *found) {
    char local[128], *name = local;
    size_t length = piece->length;
    if (!piece->escaped) {
        if (at[0] != '#' || !ecs_sched__path_index(w, scope, at, length, found)) {
            *found = ecs_sched__find_keyed_name(w, scope, piece->key, piece->tail, at, length);
        }
        return true;
    }
    if (length >= sizeof local && !(name = (char *)ecs_sched__alloc(&w->env, length + 1))) {
        ecs_sched__out_of_memory(w, "looking up a path");
        return false;
    }
    length = ecs_sched__path_unescape(at, length, name);
    *found = ecs_sched__find_name(w, scope, name, length);
    if (name != local) ecs_sched__free(&w->env, name);
    return true;
}

ecs_sched_entity ecs_sched_lookup_path(ecs_sched_world *w, ecs_sched_entity scope, const char *path,
                                       const char *separator) {
    const char *at = path;
    const unsigned char *stops = ecs_sched__path_stops;
    unsigned char own_stops[256];
    size_t sep_length;
    ECS_SCHED__CHECK_WORLD(w);
    if (!separator || !separator[0]) separator = ".";
    sep_length = strlen(separator);
    if (!path) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT, "lookup_path: the path is NULL");
        return ECS_SCHED_NULL_ENTITY;
    }
    if (scope && !ecs_sched__is_live_record(w, scope)) {
        ecs_sched__stale(w, scope, "lookup_path (the scope)");
        return ECS_SCHED_NULL_ENTITY;
    }
    if (!path[0]) return scope;
    if (!stops[(unsigned char)separator[0]]) {
        memset(own_stops, 0, sizeof own_stops);
        own_stops[0] = own_stops[(unsigned char)'\\'] = own_stops[(unsigned char)separator[0]] = 1;
        stops = own_stops;
    }
    for (;;) {
        ecs_sched__path_piece piece = ecs_sched__path_part(at, separator, sep_length, stops, scope);
        ecs_sched_entity next;
        if (!ecs_sched__path_step(w, scope, at, &piece, &next)) return ECS_SCHED_NULL_ENTITY;
        if (!next || !*piece.end) return next;   /* !next: a miss, an answer */
        scope = next;
        at = piece.end + sep_length;
    }
}

/* A name in a path: a backslash before what would read as a separator, an escape or an
   index. */
static void ecs_sched__print_path_name(ecs_sched__printing *t, const char *name,
                                       const char *separator) {
    const char *p;
    for (p = name; *p; p++) {
        if (*p == '\\' || strchr(separator, *p) || (p == name && *p == '#')) {
            ecs_sched__print_bytes(t, "\\", 1);
        }
        ecs_sched__print_bytes(t, p, 1);
    }
}

int32_t ecs_sched_path(const ecs_sched_world *w, ecs_sched_entity e, const char *separator,
                       char *out, int32_t capacity) {
    ecs_sched_entity chain[64];
    ecs_sched__printing t;
    int32_t depth, i;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__is_live_record(w, e)) return -1;
    if (!separator) separator = ".";
    t.out = capacity > 0 ? out : NULL;
    t.capacity = capacity;
    t.length = 0;
    depth = ecs_sched_ancestors(w, e, chain, 64);
    if (depth > 64) depth = 64;   /* deeper: the path starts at the 64th ancestor */
    for (i = depth; i >= 0; i--) {
        ecs_sched_entity at = i == 0 ? e : chain[i - 1];
        const char *name = ecs_sched__entity_name_of(w, at);
        if (i != depth) ecs_sched__print_bytes(&t, separator, strlen(separator));
        if (name) ecs_sched__print_path_name(&t, name, separator);
        else ecs_sched__printf_to(&t, "#%u", (unsigned)ECS_SCHED_ENTITY_INDEX(at));
    }
    ecs_sched__print_end(&t);
    return t.length;
}
#endif /* ECS_SCHED_NO_RELATIONS */

/* ---- what world.h and the hooks ask of names ---- */

#ifndef ECS_SCHED_NO_RELATIONS

/* Whether e may be filed under new_scope (its name, if any, is free there). */
static ecs_sched_result ecs_sched__name_may_move(ecs_sched_world *w, ecs_sched_entity e,
                                                 ecs_sched_entity new_scope, const char *operation) {
    const ecs_sched__entity_name *r = ecs_sched__name_record(w, ECS_SCHED_ENTITY_INDEX(e));
    ecs_sched_entity other;
    if (!r || r->scope == new_scope) return ECS_SCHED_OK;
    other = ecs_sched__find_name(w, new_scope, r->text, strlen(r->text));
    if (!other || other == e) return ECS_SCHED_OK;
    return ecs_sched__name_clash(w, operation, e, r->text, new_scope, other);
}

/* Files e's name under its parent now (after a ChildOf change). */
static void ecs_sched__name_refile(ecs_sched_world *w, ecs_sched_entity e) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    if (!ecs_sched__name_record(w, index)) return;
    ecs_sched__name_unfile(ecs_sched__names_of(w), index);
    ecs_sched__name_file(ecs_sched__names_of(w), e, ecs_sched_parent_of(w, e));
}
#endif

/* A despawned entity's name goes. */
static void ecs_sched__name_drop(ecs_sched_world *w, uint32_t index) {
    ecs_sched__entity_name *r;
    if (!ecs_sched__name_record(w, index)) return;
    r = &ecs_sched__names_of(w)->by_index[index];
    ecs_sched__name_unfile(ecs_sched__names_of(w), index);
    ecs_sched__free(&w->env, r->text);
    r->text = NULL;
}

static void ecs_sched__names_free(ecs_sched_world *w) {
    ecs_sched__names *n = ecs_sched__names_of(w);
    uint32_t i;
    if (!n) return;
    for (i = 0; i < n->capacity; i++) ecs_sched__free(&w->env, n->by_index[i].text);
    ecs_sched__free(&w->env, n->by_index);
    ecs_sched__name_slots_free(&w->env, n);
    ecs_sched__free(&w->env, n);
    ecs_sched__part_set(w, &ecs_sched__names_key, NULL);
}

/* Every name is filed under its entity's parent, and the map holds nothing else. */
static ecs_sched_result ecs_sched__check_names(ecs_sched_world *w) {
    const ecs_sched__names *n = ecs_sched__names_of(w);
    uint32_t i, named = 0;
    if (!n) return ECS_SCHED_OK;
    for (i = 0; i < n->capacity; i++) {
        const ecs_sched__entity_name *r = &n->by_index[i];
        ecs_sched_entity e;
        if (!r->text) continue;
        named++;
        e = ecs_sched__make_entity(i, w->records[i].generation);
        if (!ecs_sched__is_live_record(w, e) || r->scope != ecs_sched__name_scope(w, e) ||
            ecs_sched__find_name(w, r->scope, r->text, strlen(r->text)) != e) {
            return ecs_sched__inconsistent(w, "a name is not filed under its entity's parent", i,
                                           named);
        }
    }
    if (named != n->slot_count) return ecs_sched__inconsistent(w, "the name map size", named, n->slot_count);
    for (i = 0; i < n->slot_capacity; i++) {   /* each slot holds what its entity's entry holds */
        const ecs_sched__name_slot *slot = &n->slots[i];
        uint32_t index = ECS_SCHED_ENTITY_INDEX(slot->entity);
        if (!slot->entity) continue;
        if (index >= n->capacity || slot->text != n->by_index[index].text ||
            slot->scope != n->by_index[index].scope ||
            slot->tail != ecs_sched__name_tail(slot->text, strlen(slot->text))) {
            return ecs_sched__inconsistent(w, "a slot of the name map differs from its entity's name",
                                           i, index);
        }
    }
    return ECS_SCHED_OK;
}

/* ---- the hooks ---- */

#ifdef ECS_SCHED_NO_RELATIONS
/* Without relationships, names alone keep a world linked (registry.h): a despawn takes the
   name away, after the observers heard of it. */
static ecs_sched_result ecs_sched__despawn_named(ecs_sched_world *w, ecs_sched_entity e) {
    if (w->observed) {
        ecs_sched__observe_despawning(w, e);
        if (w->sparse_count) ecs_sched__sparse_observe_despawning(w, e);
    }
    ecs_sched__name_drop(w, ECS_SCHED_ENTITY_INDEX(e));
    ecs_sched__despawn_live(w, ECS_SCHED_ENTITY_INDEX(e));
    return ECS_SCHED_OK;
}
#endif

static void ecs_sched__names_attach(ecs_sched_world *w) {
#ifdef ECS_SCHED_NO_RELATIONS
    w->hooks.despawn_linked = ecs_sched__despawn_named;
#else
    ecs_sched__kind_hooks *h = &ecs_sched__kind_of(w, w->child_of)->hooks;
    h->may_relate = ecs_sched__name_may_move;   /* unique among its new siblings */
    h->moved = ecs_sched__name_refile;
#endif
    w->hooks.entity_name = ecs_sched__entity_name_of;
    w->hooks.forget = ecs_sched__name_drop;
}
