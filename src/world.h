/* world: entities, components, archetype tables, resources, queries, command buffers. */

/* An entity handle: index in the low 32 bits, generation in the high 32 bits. */
typedef uint64_t ecs_sched_entity;
/* A registered component (or tag, or resource type). 0 is never a valid id. */
typedef uint32_t ecs_sched_id;

#define ECS_SCHED_NULL_ENTITY ((ecs_sched_entity)0)
#define ECS_SCHED_ENTITY_INDEX(e) ((uint32_t)((e) & 0xffffffffu))
#define ECS_SCHED_ENTITY_GENERATION(e) ((uint32_t)((e) >> 32))

#ifndef ECS_SCHED_MAX_TERMS
#define ECS_SCHED_MAX_TERMS 16
#endif
/* The largest component alignment the storage honours. */
#define ECS_SCHED_MAX_ALIGNMENT 64

typedef struct ecs_sched_world ecs_sched_world;
typedef struct ecs_sched_query ecs_sched_query;
typedef struct ecs_sched_commands ecs_sched_commands;

/* Lifecycle hooks of a component type; any may be NULL.
     ctor: construct `count` values in raw memory (NULL: zero the bytes).
     dtor: destroy `count` values (NULL: nothing to do).
     copy: copy-assign `count` values from src onto constructed dst (NULL: memcpy).
     move: relocate `count` values from src into raw dst; src is raw afterwards and is not
           destroyed (NULL: memcpy). */
typedef struct ecs_sched_type_hooks {
    void (*ctor)(void *dst, int32_t count, void *ctx);
    void (*dtor)(void *ptr, int32_t count, void *ctx);
    void (*copy)(void *dst, const void *src, int32_t count, void *ctx);
    void (*move)(void *dst, void *src, int32_t count, void *ctx);
    void *ctx;
} ecs_sched_type_hooks;

typedef struct ecs_sched_component_desc {
    const char *name;     /* required, unique */
    size_t size;          /* 0 registers a tag */
    size_t alignment;     /* 0: the largest power of two dividing size, at most 16 */
    ecs_sched_type_hooks hooks;
} ecs_sched_component_desc;

/* How a schedule's systems are run. */
typedef enum ecs_sched_executor {
    ECS_SCHED_EXECUTOR_DEFAULT,          /* parallel with ECS_SCHED_THREADS, else single-threaded */
    ECS_SCHED_EXECUTOR_SINGLE_THREADED,  /* in plan order on the calling thread */
    ECS_SCHED_EXECUTOR_PARALLEL          /* on the world's pool (inline without threads) */
} ecs_sched_executor;

typedef struct ecs_sched_world_desc {
    ecs_sched_allocator allocator;    /* zero: ECS_SCHED_REALLOC / ECS_SCHED_FREE */
    ecs_sched_logger logger;          /* zero: ECS_SCHED_LOG (stderr, warnings and worse) */
    int32_t entity_capacity;          /* entities to make room for up front */
    int32_t thread_count;             /* workers of the world's pool, this thread included;
                                         0: one per hardware thread (ECS_SCHED_THREADS only) */
    ecs_sched_executor executor;      /* for schedules that do not choose one */
} ecs_sched_world_desc;

/* ---- world ---- */

/* desc may be NULL. Returns NULL only when the allocator fails. */
ECS_SCHED_API ecs_sched_world *ecs_sched_world_create(const ecs_sched_world_desc *desc);
/* Destroys every value (dtor hooks), query, command buffer and resource of the world. */
ECS_SCHED_API void ecs_sched_world_destroy(ecs_sched_world *world);
/* The message of the last failed call, naming the culprit; "" when none failed yet. */
ECS_SCHED_API const char *ecs_sched_last_error(const ecs_sched_world *world);
ECS_SCHED_API ecs_sched_result ecs_sched_last_result(const ecs_sched_world *world);
ECS_SCHED_API void ecs_sched_clear_error(ecs_sched_world *world);
/* Cross-checks the entity index, every table, and every query cache. */
ECS_SCHED_API ecs_sched_result ecs_sched_world_check(ecs_sched_world *world);
ECS_SCHED_API int32_t ecs_sched_entity_count(const ecs_sched_world *world);
ECS_SCHED_API int32_t ecs_sched_archetype_count(const ecs_sched_world *world);

/* ---- components ---- */

/* Registers a component and returns its id. Registering a name again with the same size and
   alignment returns the existing id; with another layout it fails (returns 0). */
ECS_SCHED_API ecs_sched_id ecs_sched_component_register(ecs_sched_world *world,
                                                        const ecs_sched_component_desc *desc);
ECS_SCHED_API ecs_sched_id ecs_sched_component_register_type(ecs_sched_world *world,
                                                             const char *name, size_t size,
                                                             size_t alignment);
/* 0 when no component has this name. */
ECS_SCHED_API ecs_sched_id ecs_sched_component_lookup(const ecs_sched_world *world,
                                                      const char *name);
ECS_SCHED_API const char *ecs_sched_component_name(const ecs_sched_world *world, ecs_sched_id id);
ECS_SCHED_API size_t ecs_sched_component_size(const ecs_sched_world *world, ecs_sched_id id);

#if defined(__cplusplus)
#define ECS_SCHED_ALIGNOF(T) alignof(T)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define ECS_SCHED_ALIGNOF(T) _Alignof(T)
#elif defined(__GNUC__) || defined(__clang__)
#define ECS_SCHED_ALIGNOF(T) __alignof__(T)
#else
#define ECS_SCHED_ALIGNOF(T) offsetof(struct { char c; T t; }, t)
#endif
/* Registers C type T under its own name: ECS_SCHED_COMPONENT(world, Position). */
#define ECS_SCHED_COMPONENT(world, T) \
    ecs_sched_component_register_type((world), #T, sizeof(T), ECS_SCHED_ALIGNOF(T))
/* Registers a tag (a component without data): ECS_SCHED_TAG(world, Enemy). */
#define ECS_SCHED_TAG(world, Name) ecs_sched_component_register_type((world), #Name, 0, 0)

/* ---- entities ---- */

ECS_SCHED_API ecs_sched_entity ecs_sched_spawn(ecs_sched_world *world);
/* Spawns an entity with `count` components. values[i] (or the whole array) may be NULL for a
   default-constructed value. Returns ECS_SCHED_NULL_ENTITY on failure. */
ECS_SCHED_API ecs_sched_entity ecs_sched_spawn_with(ecs_sched_world *world, int32_t count,
                                                    const ecs_sched_id *ids,
                                                    const void *const *values);
/* Spawns `entity_count` entities with the same components; arrays[i] holds entity_count
   values of component ids[i] (or is NULL). out_entities (optional) receives the handles.
   All or nothing. */
ECS_SCHED_API ecs_sched_result ecs_sched_spawn_batch(ecs_sched_world *world, int32_t entity_count,
                                                     int32_t count, const ecs_sched_id *ids,
                                                     const void *const *arrays,
                                                     ecs_sched_entity *out_entities);
ECS_SCHED_API ecs_sched_result ecs_sched_despawn(ecs_sched_world *world, ecs_sched_entity entity);
ECS_SCHED_API bool ecs_sched_is_alive(const ecs_sched_world *world, ecs_sched_entity entity);
/* Adds the component, or overwrites its value when present. value NULL: default value for a
   new component, no change for a present one. value must not point into the world. */
ECS_SCHED_API ecs_sched_result ecs_sched_insert(ecs_sched_world *world, ecs_sched_entity entity,
                                                ecs_sched_id id, const void *value);
/* Several inserts with one archetype move. All or nothing. */
ECS_SCHED_API ecs_sched_result ecs_sched_insert_many(ecs_sched_world *world,
                                                     ecs_sched_entity entity, int32_t count,
                                                     const ecs_sched_id *ids,
                                                     const void *const *values);
ECS_SCHED_API ecs_sched_result ecs_sched_remove(ecs_sched_world *world, ecs_sched_entity entity,
                                                ecs_sched_id id);
/* NULL (with last_error set) for a dead entity, a missing component, or a tag. */
ECS_SCHED_API const void *ecs_sched_get(ecs_sched_world *world, ecs_sched_entity entity,
                                        ecs_sched_id id);
ECS_SCHED_API void *ecs_sched_get_mut(ecs_sched_world *world, ecs_sched_entity entity,
                                      ecs_sched_id id);
ECS_SCHED_API bool ecs_sched_has(const ecs_sched_world *world, ecs_sched_entity entity,
                                 ecs_sched_id id);

/* ---- resources: one value per component type, owned by the world ---- */

/* Creates or overwrites. value NULL: default value. */
ECS_SCHED_API ecs_sched_result ecs_sched_resource_insert(ecs_sched_world *world, ecs_sched_id id,
                                                         const void *value);
ECS_SCHED_API const void *ecs_sched_resource_get(ecs_sched_world *world, ecs_sched_id id);
ECS_SCHED_API void *ecs_sched_resource_get_mut(ecs_sched_world *world, ecs_sched_id id);
ECS_SCHED_API ecs_sched_result ecs_sched_resource_remove(ecs_sched_world *world, ecs_sched_id id);
ECS_SCHED_API bool ecs_sched_resource_exists(const ecs_sched_world *world, ecs_sched_id id);

/* ---- queries ---- */

typedef enum ecs_sched_term_kind {
    ECS_SCHED_TERM_READ = 0,       /* required, read */
    ECS_SCHED_TERM_WRITE,          /* required, written */
    ECS_SCHED_TERM_OPTIONAL_READ,  /* field NULL where absent */
    ECS_SCHED_TERM_OPTIONAL_WRITE,
    ECS_SCHED_TERM_WITHOUT         /* only entities without it; field always NULL */
} ecs_sched_term_kind;

typedef struct ecs_sched_term {
    ecs_sched_id id;               /* 0 ends the term list */
    ecs_sched_term_kind kind;
} ecs_sched_term;

static inline ecs_sched_term ecs_sched_read(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.kind = ECS_SCHED_TERM_READ; return t;
}
static inline ecs_sched_term ecs_sched_write(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.kind = ECS_SCHED_TERM_WRITE; return t;
}
static inline ecs_sched_term ecs_sched_optional_read(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.kind = ECS_SCHED_TERM_OPTIONAL_READ; return t;
}
static inline ecs_sched_term ecs_sched_optional_write(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.kind = ECS_SCHED_TERM_OPTIONAL_WRITE; return t;
}
static inline ecs_sched_term ecs_sched_without(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.kind = ECS_SCHED_TERM_WITHOUT; return t;
}

typedef struct ecs_sched_query_desc {
    ecs_sched_term terms[ECS_SCHED_MAX_TERMS];  /* up to the first term with id 0 */
} ecs_sched_query_desc;

/* What a query touches: ids it only reads, ids it writes. */
typedef struct ecs_sched_access {
    const ecs_sched_id *reads;
    int32_t read_count;
    const ecs_sched_id *writes;
    int32_t write_count;
} ecs_sched_access;

/* One matching table at a time: `count` rows, their entities, and per term index a pointer
   to the first value of its column (NULL for tags, absent optionals and without-terms). */
typedef struct ecs_sched_iter {
    int32_t count;
    const ecs_sched_entity *entities;
    void *fields[ECS_SCHED_MAX_TERMS];
    const ecs_sched_query *query_;   /* private */
    int32_t next_;                   /* private */
} ecs_sched_iter;

#define ECS_SCHED_FIELD(it, T, index) ((T *)(it)->fields[(index)])

/* The world owns the query; it is freed by ecs_sched_query_destroy or with the world.
   Returns NULL on failure. */
ECS_SCHED_API ecs_sched_query *ecs_sched_query_create(ecs_sched_world *world,
                                                      const ecs_sched_query_desc *desc);
ECS_SCHED_API void ecs_sched_query_destroy(ecs_sched_query *query);
ECS_SCHED_API ecs_sched_access ecs_sched_query_access(const ecs_sched_query *query);
ECS_SCHED_API int32_t ecs_sched_query_count(const ecs_sched_query *query);  /* matching entities */
/* Structural changes (spawn, insert, remove, despawn) must not happen while iterating:
   record them in a command buffer instead. */
ECS_SCHED_API ecs_sched_iter ecs_sched_query_iter(const ecs_sched_query *query);
ECS_SCHED_API bool ecs_sched_iter_next(ecs_sched_iter *it);

/* ---- command buffers ---- */

/* Records structural changes to apply later, in recorded order. The world owns the buffer;
   it is freed by ecs_sched_commands_destroy or with the world. */
ECS_SCHED_API ecs_sched_commands *ecs_sched_commands_create(ecs_sched_world *world);
/* Unapplied commands are dropped; entities reserved by them are released. */
ECS_SCHED_API void ecs_sched_commands_destroy(ecs_sched_commands *commands);
/* Reserves a handle at once; the entity comes alive when the buffer is applied. The handle
   can be used by later commands of the same buffer. NULL entity on failure. */
ECS_SCHED_API ecs_sched_entity ecs_sched_commands_spawn(ecs_sched_commands *commands);
/* commands_spawn, then an insert per component, in one call (all or nothing). */
ECS_SCHED_API ecs_sched_entity ecs_sched_commands_spawn_with(ecs_sched_commands *commands,
                                                             int32_t count, const ecs_sched_id *ids,
                                                             const void *const *values);
ECS_SCHED_API ecs_sched_result ecs_sched_commands_despawn(ecs_sched_commands *commands,
                                                          ecs_sched_entity entity);
/* The value's bytes are copied into the buffer now, and copied into the world (copy hook)
   when the buffer is applied. */
ECS_SCHED_API ecs_sched_result ecs_sched_commands_insert(ecs_sched_commands *commands,
                                                         ecs_sched_entity entity, ecs_sched_id id,
                                                         const void *value);
ECS_SCHED_API ecs_sched_result ecs_sched_commands_remove(ecs_sched_commands *commands,
                                                         ecs_sched_entity entity, ecs_sched_id id);
ECS_SCHED_API ecs_sched_result ecs_sched_commands_set_resource(ecs_sched_commands *commands,
                                                               ecs_sched_id id, const void *value);
ECS_SCHED_API int32_t ecs_sched_commands_pending(const ecs_sched_commands *commands);
/* Applies and consumes the pending commands in recorded order; a command aimed at an entity
   that is dead by then is skipped. On failure the commands not yet applied stay pending, so a
   later apply continues where this one stopped; none is ever applied twice. */
ECS_SCHED_API ecs_sched_result ecs_sched_commands_apply(ecs_sched_commands *commands);
/* Commands skipped by the last apply because their entity was dead. */
ECS_SCHED_API int32_t ecs_sched_commands_skipped(const ecs_sched_commands *commands);

/*@@ implementation @@*/
/* world: entities, components, archetype tables, resources, queries, command buffers. */

#define ECS_SCHED__NONE UINT32_MAX
#define ECS_SCHED__DEAD UINT32_MAX             /* record.table of a free index */
#define ECS_SCHED__RESERVED (UINT32_MAX - 1u)  /* record.table of a handle a buffer reserved */
#define ECS_SCHED__MAX_TYPE 256                /* components on one entity */
#define ECS_SCHED__MAX_BATCHED_INSERTS 32

typedef struct ecs_sched__record {
    uint32_t table;       /* table index, ECS_SCHED__DEAD or ECS_SCHED__RESERVED */
    uint32_t row;         /* row in the table; next free index while dead */
    uint32_t generation;
} ecs_sched__record;

typedef struct ecs_sched__component {
    char *name;
    uint32_t size;
    uint32_t alignment;
    ecs_sched_type_hooks hooks;
} ecs_sched__component;

typedef struct ecs_sched__column {
    unsigned char *data;
    uint32_t size;
    ecs_sched_id id;
} ecs_sched__column;

/* An archetype: every entity with exactly this sorted set of components. */
typedef struct ecs_sched__table {
    uint32_t index;
    int32_t type_count;
    int32_t column_count;
    int32_t count;
    int32_t capacity;
    uint64_t hash;
    ecs_sched_id *type;               /* sorted */
    ecs_sched__column *columns;       /* the sized components, sorted by id */
    ecs_sched_entity *entities;
} ecs_sched__table;

/* Open addressing from a 64-bit key to a table index. Keys may repeat (type hashes can
   collide); ecs_sched__map_next walks every value stored under a key. */
typedef struct ecs_sched__map {
    uint64_t *keys;
    uint32_t *values;     /* ECS_SCHED__NONE marks an empty slot */
    uint32_t capacity;    /* a power of two, or 0 */
    uint32_t count;
} ecs_sched__map;

typedef struct ecs_sched__name_entry {
    char *key;
    ecs_sched_id value;
} ecs_sched__name_entry;

typedef struct ecs_sched__match {
    ecs_sched__table *table;
    int16_t column[ECS_SCHED_MAX_TERMS];  /* column per term, -1 when the field is NULL */
} ecs_sched__match;

struct ecs_sched_query {
    ecs_sched_world *world;
    int32_t term_count;
    int32_t read_count;
    int32_t write_count;
    uint32_t match_count;
    uint32_t match_capacity;
    ecs_sched_term terms[ECS_SCHED_MAX_TERMS];
    ecs_sched_id reads[ECS_SCHED_MAX_TERMS];
    ecs_sched_id writes[ECS_SCHED_MAX_TERMS];
    ecs_sched__match *matches;
};

enum {
    ECS_SCHED__CMD_SPAWN,
    ECS_SCHED__CMD_DESPAWN,
    ECS_SCHED__CMD_INSERT,
    ECS_SCHED__CMD_REMOVE,
    ECS_SCHED__CMD_SET_RESOURCE
};

/* A recorded command is one 32-bit word (operation, flags, component id), then the entity
   unless it is the same as the previous command's (a spawn followed by its inserts), then
   the value at the component's alignment. Small records keep recording and applying within
   the memory bandwidth a game can spare. */
#define ECS_SCHED__CMD_OP_MASK 0x7u
#define ECS_SCHED__CMD_HAS_VALUE 0x8u
#define ECS_SCHED__CMD_SAME_ENTITY 0x10u
#define ECS_SCHED__CMD_ID_SHIFT 5
#define ECS_SCHED__MAX_COMPONENTS (1u << (32 - ECS_SCHED__CMD_ID_SHIFT))

/* A command read back from a block. */
typedef struct ecs_sched__command {
    uint32_t op;
    ecs_sched_id id;
    ecs_sched_entity entity;
    const void *value;        /* NULL when none was given */
    size_t next;              /* where the next command starts */
} ecs_sched__command;

/* Commands live in a chain of blocks that never move, so recording never copies what was
   recorded before; applied blocks are kept for the next frame. */
typedef struct ecs_sched__command_block {
    struct ecs_sched__command_block *next;
    size_t used;
    size_t capacity;
    unsigned char *data;      /* aligned to ECS_SCHED_MAX_ALIGNMENT, so values are aligned */
} ecs_sched__command_block;

struct ecs_sched_commands {
    ecs_sched_world *world;
    ecs_sched__command_block *first;
    ecs_sched__command_block *write;   /* the block being filled; later blocks are empty */
    ecs_sched__command_block *read;    /* where apply continues */
    size_t read_at;
    ecs_sched_entity read_entity;      /* the entity of the command before read_at */
    ecs_sched_entity write_entity;     /* the entity of the last command recorded */
    int32_t pending;
    int32_t skipped;
    int32_t spawn_count;               /* the components of the last spawn applied, */
    uint32_t spawn_table;              /* and the table they led to */
    ecs_sched_id spawn_ids[ECS_SCHED__MAX_BATCHED_INSERTS];
};

struct ecs_sched_world {
    ecs_sched__env env;
    ecs_sched__component *components;    /* by id; slot 0 unused */
    uint32_t component_count;
    uint32_t component_capacity;
    ecs_sched__name_entry *component_names;  /* stb_ds string map */
    void **resources;                    /* by component id */
    uint32_t resource_capacity;
    ecs_sched__record *records;          /* by entity index; slot 0 unused */
    uint32_t record_count;
    uint32_t record_capacity;
    uint32_t free_head;
    uint32_t free_count;
    int32_t alive_count;
    ecs_sched__table **tables;           /* tables[0] is the empty archetype */
    uint32_t table_count;
    uint32_t table_capacity;
    ecs_sched__map types;                /* type hash -> table */
    ecs_sched__map edges;                /* (table, component, add/remove) -> table */
    ecs_sched_query **queries;
    uint32_t query_count;
    uint32_t query_capacity;
    ecs_sched_commands **buffers;
    uint32_t buffer_count;
    uint32_t buffer_capacity;
    void *schedules;                     /* owned by the graph module */
    void (*free_schedules)(ecs_sched_world *world);
    ecs_sched_pool *pool;                /* created on first use */
    int32_t thread_count;
    ecs_sched_executor executor;
};

/* ---- small helpers ---- */

#define ECS_SCHED__CHECK_WORLD(world) ECS_SCHED_ASSERT((world) != NULL)

static ecs_sched_result ecs_sched__out_of_memory(ecs_sched_world *w, const char *what) {
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_OUT_OF_MEMORY, "out of memory while %s", what);
}

/* Makes room for `needed` elements; on failure the array is unchanged. */
static bool ecs_sched__grow(ecs_sched__env *env, void **array, uint32_t *capacity, uint32_t needed,
                            size_t element_size) {
    uint32_t new_capacity;
    void *grown;
    if (needed <= *capacity) return true;
    new_capacity = *capacity ? *capacity : 8;
    while (new_capacity < needed) {
        if (new_capacity > UINT32_MAX / 2) {
            new_capacity = needed;
            break;
        }
        new_capacity *= 2;
    }
    if ((size_t)new_capacity > SIZE_MAX / element_size) return false;
    grown = ecs_sched__realloc(env, *array, (size_t)new_capacity * element_size);
    if (!grown) return false;
    *array = grown;
    *capacity = new_capacity;
    return true;
}

static inline ecs_sched_entity ecs_sched__make_entity(uint32_t index, uint32_t generation) {
    return (ecs_sched_entity)index | ((ecs_sched_entity)generation << 32);
}

static uint64_t ecs_sched__hash_type(const ecs_sched_id *type, int32_t count) {
    uint64_t h = 14695981039346656037ull;
    int32_t i;
    for (i = 0; i < count; i++) {
        h ^= type[i];
        h *= 1099511628211ull;
    }
    return h;
}

static inline uint32_t ecs_sched__hash_slot(uint64_t key, uint32_t capacity) {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return (uint32_t)key & (capacity - 1);
}

/* ---- the key -> table map ---- */

static void ecs_sched__map_insert_unchecked(ecs_sched__map *m, uint64_t key, uint32_t value) {
    uint32_t slot = ecs_sched__hash_slot(key, m->capacity);
    while (m->values[slot] != ECS_SCHED__NONE) slot = (slot + 1) & (m->capacity - 1);
    m->keys[slot] = key;
    m->values[slot] = value;
    m->count++;
}

/* Makes room for `extra` more entries (load at most one half). */
static bool ecs_sched__map_reserve(ecs_sched__env *env, ecs_sched__map *m, uint32_t extra) {
    ecs_sched__map grown;
    uint32_t i, capacity = m->capacity ? m->capacity : 16;
    if ((m->count + extra) * 2 <= m->capacity) return true;
    while ((m->count + extra) * 2 > capacity) capacity *= 2;
    grown.keys = (uint64_t *)ecs_sched__alloc(env, capacity * sizeof(uint64_t));
    grown.values = (uint32_t *)ecs_sched__alloc(env, capacity * sizeof(uint32_t));
    if (!grown.keys || !grown.values) {
        ecs_sched__free(env, grown.keys);
        ecs_sched__free(env, grown.values);
        return false;
    }
    grown.capacity = capacity;
    grown.count = 0;
    memset(grown.values, 0xff, capacity * sizeof(uint32_t));
    for (i = 0; i < m->capacity; i++) {
        if (m->values[i] != ECS_SCHED__NONE) {
            ecs_sched__map_insert_unchecked(&grown, m->keys[i], m->values[i]);
        }
    }
    ecs_sched__free(env, m->keys);
    ecs_sched__free(env, m->values);
    *m = grown;
    return true;
}

/* Walks the values stored under `key`: start with *slot = ECS_SCHED__NONE. */
static inline uint32_t ecs_sched__map_next(const ecs_sched__map *m, uint64_t key, uint32_t *slot) {
    uint32_t s;
    if (m->capacity == 0) return ECS_SCHED__NONE;
    s = *slot == ECS_SCHED__NONE ? ecs_sched__hash_slot(key, m->capacity)
                                 : ((*slot + 1) & (m->capacity - 1));
    for (; m->values[s] != ECS_SCHED__NONE; s = (s + 1) & (m->capacity - 1)) {
        if (m->keys[s] == key) {
            *slot = s;
            return m->values[s];
        }
    }
    return ECS_SCHED__NONE;
}

static inline uint32_t ecs_sched__map_get(const ecs_sched__map *m, uint64_t key) {
    uint32_t slot = ECS_SCHED__NONE;
    return ecs_sched__map_next(m, key, &slot);
}

static void ecs_sched__map_free(ecs_sched__env *env, ecs_sched__map *m) {
    ecs_sched__free(env, m->keys);
    ecs_sched__free(env, m->values);
    memset(m, 0, sizeof *m);
}

/* ---- components ---- */

static inline bool ecs_sched__component_valid(const ecs_sched_world *w, ecs_sched_id id) {
    return id > 0 && id < w->component_count;
}

static const char *ecs_sched__component_label(const ecs_sched_world *w, ecs_sched_id id) {
    return ecs_sched__component_valid(w, id) ? w->components[id].name : "?";
}

static ecs_sched_result ecs_sched__unknown_component(ecs_sched_world *w, ecs_sched_id id,
                                                     const char *operation) {
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_UNKNOWN_COMPONENT,
                           "%s: component id %u is not registered in this world (register it "
                           "with ecs_sched_component_register or ECS_SCHED_COMPONENT first)",
                           operation, (unsigned)id);
}

static size_t ecs_sched__default_alignment(size_t size) {
    size_t alignment = 1;
    if (size == 0) return 1;
    while (alignment < 16 && size % (alignment * 2) == 0) alignment *= 2;
    return alignment;
}

/* memcpy of one small value: fixed sizes let the compiler use plain moves instead of a call,
   which matters on the per-entity paths. */
static inline void ecs_sched__copy_value(void *dst, const void *src, size_t size) {
    switch (size) {
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    case 12: memcpy(dst, src, 12); break;
    case 16: memcpy(dst, src, 16); break;
    default: memcpy(dst, src, size); break;
    }
}

/* Constructs `n` values at dst from src (n values), or default values when src is NULL. */
static inline void ecs_sched__construct(const ecs_sched__component *c, void *dst, const void *src,
                                 int32_t n) {
    const ecs_sched_type_hooks *h = &c->hooks;
    if (c->size == 0 || n == 0) return;
    if (h->ctor) {
        h->ctor(dst, n, h->ctx);
    } else if (!src || h->copy) {
        /* a copy hook assigns onto a constructed value, and a ctor-less value is zeroed */
        memset(dst, 0, (size_t)c->size * (size_t)n);
    }
    if (src) {
        if (h->copy) h->copy(dst, src, n, h->ctx);
        else if (n == 1) ecs_sched__copy_value(dst, src, c->size);
        else memcpy(dst, src, (size_t)c->size * (size_t)n);
    }
}

static void ecs_sched__assign(const ecs_sched__component *c, void *dst, const void *src) {
    if (c->size == 0 || !src) return;
    if (c->hooks.copy) c->hooks.copy(dst, src, 1, c->hooks.ctx);
    else memcpy(dst, src, c->size);
}

static inline void ecs_sched__destruct(const ecs_sched__component *c, void *ptr, int32_t n) {
    if (c->hooks.dtor && n > 0) c->hooks.dtor(ptr, n, c->hooks.ctx);
}

static inline void ecs_sched__relocate(const ecs_sched__component *c, void *dst, void *src, int32_t n) {
    if (n <= 0) return;
    if (c->hooks.move) c->hooks.move(dst, src, n, c->hooks.ctx);
    else if (n == 1) ecs_sched__copy_value(dst, src, c->size);
    else memcpy(dst, src, (size_t)c->size * (size_t)n);
}

ecs_sched_id ecs_sched_component_register(ecs_sched_world *w, const ecs_sched_component_desc *desc) {
    ecs_sched__component *c;
    ecs_sched_id id;
    size_t alignment;
    ECS_SCHED__CHECK_WORLD(w);
    if (!desc || !desc->name || !desc->name[0]) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "component_register: a component needs a non-empty name");
        return 0;
    }
    alignment = desc->alignment ? desc->alignment : ecs_sched__default_alignment(desc->size);
    if ((alignment & (alignment - 1)) != 0 || alignment > ECS_SCHED_MAX_ALIGNMENT ||
        desc->size > INT32_MAX) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "component_register: '%s' has size %lu and alignment %lu; the alignment "
                        "must be a power of two of at most %d",
                        desc->name, (unsigned long)desc->size, (unsigned long)alignment,
                        ECS_SCHED_MAX_ALIGNMENT);
        return 0;
    }
    id = ecs_sched_component_lookup(w, desc->name);
    if (id) {
        c = &w->components[id];
        if (c->size != desc->size || c->alignment != alignment) {
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_COMPONENT_MISMATCH,
                            "component '%s' is already registered with size %u and alignment "
                            "%u; registering it again with size %lu and alignment %lu is a "
                            "mistake (two different types share the name?)",
                            desc->name, (unsigned)c->size, (unsigned)c->alignment,
                            (unsigned long)desc->size, (unsigned long)alignment);
            return 0;
        }
        return id;
    }
    if (w->component_count >= ECS_SCHED__MAX_COMPONENTS) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_LIMIT,
                        "component_register: '%s' would be component number %u; a world holds "
                        "fewer than %u",
                        desc->name, (unsigned)w->component_count, (unsigned)ECS_SCHED__MAX_COMPONENTS);
        return 0;
    }
    if (!ecs_sched__grow(&w->env, (void **)&w->components, &w->component_capacity,
                         w->component_count + 1, sizeof *w->components) ||
        !ecs_sched__grow(&w->env, (void **)&w->resources, &w->resource_capacity,
                         w->component_count + 1, sizeof *w->resources)) {
        ecs_sched__out_of_memory(w, "registering a component");
        return 0;
    }
    id = w->component_count;
    c = &w->components[id];
    memset(c, 0, sizeof *c);
    c->name = ecs_sched__strdup(&w->env, desc->name);
    if (!c->name) {
        ecs_sched__out_of_memory(w, "registering a component");
        return 0;
    }
    c->size = (uint32_t)desc->size;
    c->alignment = (uint32_t)alignment;
    c->hooks = desc->hooks;
    w->resources[id] = NULL;
    stbds_shput(w->component_names, c->name, id);
    w->component_count++;
    return id;
}

ecs_sched_id ecs_sched_component_register_type(ecs_sched_world *w, const char *name, size_t size,
                                               size_t alignment) {
    ecs_sched_component_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.name = name;
    desc.size = size;
    desc.alignment = alignment;
    return ecs_sched_component_register(w, &desc);
}

ecs_sched_id ecs_sched_component_lookup(const ecs_sched_world *world, const char *name) {
    /* stb_ds's lookup writes a scratch slot in the map header; the world itself is unchanged. */
    ecs_sched_world *w = (ecs_sched_world *)world;
    ptrdiff_t i;
    ECS_SCHED__CHECK_WORLD(w);
    if (!name || !w->component_names) return 0;
    i = stbds_shgeti(w->component_names, name);
    return i < 0 ? 0 : w->component_names[i].value;
}

const char *ecs_sched_component_name(const ecs_sched_world *w, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__component_valid(w, id) ? w->components[id].name : NULL;
}

size_t ecs_sched_component_size(const ecs_sched_world *w, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__component_valid(w, id) ? w->components[id].size : 0;
}

/* ---- tables ---- */

static inline int32_t ecs_sched__type_find(const ecs_sched__table *t, ecs_sched_id id) {
    int32_t lo = 0, hi = t->type_count;
    while (lo < hi) {
        int32_t mid = (lo + hi) / 2;
        if (t->type[mid] < id) lo = mid + 1;
        else hi = mid;
    }
    return lo < t->type_count && t->type[lo] == id ? lo : -1;
}

static inline int32_t ecs_sched__column_find(const ecs_sched__table *t, ecs_sched_id id) {
    int32_t lo = 0, hi = t->column_count;
    while (lo < hi) {
        int32_t mid = (lo + hi) / 2;
        if (t->columns[mid].id < id) lo = mid + 1;
        else hi = mid;
    }
    return lo < t->column_count && t->columns[lo].id == id ? lo : -1;
}

static bool ecs_sched__query_matches(const ecs_sched_query *q, const ecs_sched__table *t,
                                     ecs_sched__match *out) {
    int32_t i;
    for (i = 0; i < q->term_count; i++) {
        const ecs_sched_term *term = &q->terms[i];
        bool present = ecs_sched__type_find(t, term->id) >= 0;
        switch (term->kind) {
        case ECS_SCHED_TERM_READ:
        case ECS_SCHED_TERM_WRITE:
            if (!present) return false;
            break;
        case ECS_SCHED_TERM_WITHOUT:
            if (present) return false;
            break;
        default:
            break;
        }
        if (out) {
            int32_t column = term->kind == ECS_SCHED_TERM_WITHOUT ? -1
                                                                 : ecs_sched__column_find(t, term->id);
            out->column[i] = (int16_t)column;
        }
    }
    if (out) out->table = (ecs_sched__table *)t;
    return true;
}

static void ecs_sched__table_free(ecs_sched_world *w, ecs_sched__table *t) {
    int32_t i;
    for (i = 0; i < t->column_count; i++) {
        ecs_sched__column *col = &t->columns[i];
        ecs_sched__destruct(&w->components[col->id], col->data, t->count);
        ecs_sched__aligned_free(&w->env, col->data);
    }
    ecs_sched__free(&w->env, t->entities);
    ecs_sched__free(&w->env, t);
}

static ecs_sched__table *ecs_sched__table_find(ecs_sched_world *w, const ecs_sched_id *type,
                                               int32_t count, uint64_t hash) {
    uint32_t slot = ECS_SCHED__NONE, index;
    while ((index = ecs_sched__map_next(&w->types, hash, &slot)) != ECS_SCHED__NONE) {
        ecs_sched__table *t = w->tables[index];
        if (t->type_count == count &&
            (count == 0 || memcmp(t->type, type, (size_t)count * sizeof *type) == 0)) {
            return t;
        }
    }
    return NULL;
}

/* Creates the table of a sorted type and registers it with every query. Every allocation
   happens before the world changes, so a failure leaves it as it was. */
static ecs_sched__table *ecs_sched__table_create(ecs_sched_world *w, const ecs_sched_id *type,
                                                 int32_t count, uint64_t hash) {
    ecs_sched__table *t;
    int32_t i, columns = 0;
    uint32_t q;
    size_t bytes;
    for (i = 0; i < count; i++) columns += w->components[type[i]].size > 0;
    if (!ecs_sched__grow(&w->env, (void **)&w->tables, &w->table_capacity, w->table_count + 1,
                         sizeof *w->tables) ||
        !ecs_sched__map_reserve(&w->env, &w->types, 1)) {
        ecs_sched__out_of_memory(w, "creating an archetype table");
        return NULL;
    }
    for (q = 0; q < w->query_count; q++) {
        ecs_sched_query *query = w->queries[q];
        if (!ecs_sched__grow(&w->env, (void **)&query->matches, &query->match_capacity,
                             query->match_count + 1, sizeof *query->matches)) {
            ecs_sched__out_of_memory(w, "creating an archetype table");
            return NULL;
        }
    }
    bytes = sizeof *t + (size_t)columns * sizeof(ecs_sched__column) +
            (size_t)count * sizeof(ecs_sched_id);
    t = (ecs_sched__table *)ecs_sched__calloc(&w->env, bytes);
    if (!t) {
        ecs_sched__out_of_memory(w, "creating an archetype table");
        return NULL;
    }
    t->columns = (ecs_sched__column *)(t + 1);
    t->type = (ecs_sched_id *)(t->columns + columns);
    t->type_count = count;
    t->hash = hash;
    if (count) memcpy(t->type, type, (size_t)count * sizeof *type);
    for (i = 0; i < count; i++) {
        uint32_t size = w->components[type[i]].size;
        if (size == 0) continue;
        t->columns[t->column_count].id = type[i];
        t->columns[t->column_count].size = size;
        t->column_count++;
    }
    t->index = w->table_count;
    w->tables[w->table_count++] = t;
    ecs_sched__map_insert_unchecked(&w->types, hash, t->index);
    for (q = 0; q < w->query_count; q++) {
        ecs_sched_query *query = w->queries[q];
        if (ecs_sched__query_matches(query, t, &query->matches[query->match_count])) {
            query->match_count++;
        }
    }
    return t;
}

static ecs_sched__table *ecs_sched__table_ensure(ecs_sched_world *w, const ecs_sched_id *type,
                                                 int32_t count) {
    uint64_t hash = ecs_sched__hash_type(type, count);
    ecs_sched__table *t = ecs_sched__table_find(w, type, count, hash);
    return t ? t : ecs_sched__table_create(w, type, count, hash);
}

static inline uint64_t ecs_sched__edge_key(const ecs_sched__table *t, ecs_sched_id id, bool removing) {
    return ((uint64_t)t->index << 33) | ((uint64_t)id << 1) | (removing ? 1u : 0u);
}

/* The table reached from t by adding (or removing) one component, through the cached edge. */
static ecs_sched__table *ecs_sched__table_step(ecs_sched_world *w, ecs_sched__table *t,
                                               ecs_sched_id id, bool removing) {
    ecs_sched_id type[ECS_SCHED__MAX_TYPE];
    ecs_sched__table *next;
    int32_t i, n = 0;
    uint32_t cached = ecs_sched__map_get(&w->edges, ecs_sched__edge_key(t, id, removing));
    if (cached != ECS_SCHED__NONE) return w->tables[cached];
    if (!removing && t->type_count >= ECS_SCHED__MAX_TYPE) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_LIMIT,
                        "adding '%s' would give an entity more than %d components",
                        ecs_sched__component_label(w, id), ECS_SCHED__MAX_TYPE);
        return NULL;
    }
    for (i = 0; i < t->type_count; i++) {
        if (!removing && n == i && id < t->type[i]) type[n++] = id;  /* keep the type sorted */
        if (t->type[i] != id) type[n++] = t->type[i];
    }
    if (!removing && n == t->type_count) type[n++] = id;
    next = ecs_sched__table_ensure(w, type, n);
    if (!next) return NULL;
    if (!ecs_sched__map_reserve(&w->env, &w->edges, 2)) {
        ecs_sched__out_of_memory(w, "caching an archetype edge");
        return NULL;
    }
    ecs_sched__map_insert_unchecked(&w->edges, ecs_sched__edge_key(t, id, removing), next->index);
    ecs_sched__map_insert_unchecked(&w->edges, ecs_sched__edge_key(next, id, !removing), t->index);
    return next;
}

/* Makes room for `extra` more rows; on failure the table is unchanged. */
static bool ecs_sched__table_grow(ecs_sched_world *w, ecs_sched__table *t, int32_t extra) {
    unsigned char *data[ECS_SCHED__MAX_TYPE];
    ecs_sched_entity *entities;
    int64_t needed = (int64_t)t->count + extra;
    int32_t i, capacity;
    if (needed > INT32_MAX) return false;
    capacity = t->capacity ? t->capacity : 4;
    while (capacity < needed) capacity = capacity > INT32_MAX / 2 ? (int32_t)needed : capacity * 2;
    entities = (ecs_sched_entity *)ecs_sched__alloc(&w->env, (size_t)capacity * sizeof *entities);
    if (!entities) return false;
    for (i = 0; i < t->column_count; i++) {
        const ecs_sched__component *c = &w->components[t->columns[i].id];
        size_t skew = (size_t)(i % 13) * 320;  /* distinct page offsets per column */
        data[i] = (unsigned char *)ecs_sched__aligned_alloc_skewed(
            &w->env, (size_t)capacity * c->size, c->alignment, skew);
        if (!data[i]) {
            while (i-- > 0) ecs_sched__aligned_free(&w->env, data[i]);
            ecs_sched__free(&w->env, entities);
            return false;
        }
    }
    if (t->count) memcpy(entities, t->entities, (size_t)t->count * sizeof *entities);
    ecs_sched__free(&w->env, t->entities);
    t->entities = entities;
    for (i = 0; i < t->column_count; i++) {
        ecs_sched__column *col = &t->columns[i];
        ecs_sched__relocate(&w->components[col->id], data[i], col->data, t->count);
        ecs_sched__aligned_free(&w->env, col->data);
        col->data = data[i];
    }
    t->capacity = capacity;
    return true;
}

static inline bool ecs_sched__table_reserve(ecs_sched_world *w, ecs_sched__table *t,
                                            int32_t extra) {
    return (int64_t)t->count + extra <= t->capacity || ecs_sched__table_grow(w, t, extra);
}

/* Removes a row whose values were already moved out or destroyed, by moving the last row
   into the hole. */
static void ecs_sched__table_delete_row(ecs_sched_world *w, ecs_sched__table *t, int32_t row) {
    int32_t last = t->count - 1, i;
    if (row != last) {
        ecs_sched_entity moved = t->entities[last];
        for (i = 0; i < t->column_count; i++) {
            ecs_sched__column *col = &t->columns[i];
            ecs_sched__relocate(&w->components[col->id], col->data + (size_t)row * col->size,
                                col->data + (size_t)last * col->size, 1);
        }
        t->entities[row] = moved;
        w->records[ECS_SCHED_ENTITY_INDEX(moved)].row = (uint32_t)row;
    }
    t->count = last;
}

/* Moves an entity's row from its table to dst: shared values are relocated, values dst lacks
   are destroyed, values only dst has are left raw for the caller to construct. */
static bool ecs_sched__move_entity(ecs_sched_world *w, uint32_t index, ecs_sched__table *dst) {
    ecs_sched__record *r = &w->records[index];
    ecs_sched__table *src = w->tables[r->table];
    int32_t row = (int32_t)r->row, dst_row, i = 0, j = 0;
    if (!ecs_sched__table_reserve(w, dst, 1)) return false;
    dst_row = dst->count++;
    dst->entities[dst_row] = src->entities[row];
    while (i < src->column_count || j < dst->column_count) {
        ecs_sched__column *s = i < src->column_count ? &src->columns[i] : NULL;
        ecs_sched__column *d = j < dst->column_count ? &dst->columns[j] : NULL;
        if (s && d && s->id == d->id) {
            ecs_sched__relocate(&w->components[s->id], d->data + (size_t)dst_row * d->size,
                                s->data + (size_t)row * s->size, 1);
            i++;
            j++;
        } else if (s && (!d || s->id < d->id)) {
            ecs_sched__destruct(&w->components[s->id], s->data + (size_t)row * s->size, 1);
            i++;
        } else {
            j++;
        }
    }
    ecs_sched__table_delete_row(w, src, row);
    r->table = dst->index;
    r->row = (uint32_t)dst_row;
    return true;
}

static inline void *ecs_sched__cell(const ecs_sched__table *t, int32_t column, uint32_t row) {
    const ecs_sched__column *col = &t->columns[column];
    return col->data + (size_t)row * col->size;
}

/* ---- entity index ---- */

static inline bool ecs_sched__is_live_record(const ecs_sched_world *w, ecs_sched_entity e) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    const ecs_sched__record *r;
    if (index == 0 || index >= w->record_count) return false;
    r = &w->records[index];
    return r->generation == ECS_SCHED_ENTITY_GENERATION(e) && r->table < ECS_SCHED__RESERVED;
}

static inline bool ecs_sched__is_reserved(const ecs_sched_world *w, ecs_sched_entity e) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    return index > 0 && index < w->record_count &&
           w->records[index].generation == ECS_SCHED_ENTITY_GENERATION(e) &&
           w->records[index].table == ECS_SCHED__RESERVED;
}

static ecs_sched_result ecs_sched__stale(ecs_sched_world *w, ecs_sched_entity e,
                                         const char *operation) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    const char *why = "was never spawned";
    if (e == ECS_SCHED_NULL_ENTITY) {
        why = "is the null entity";
    } else if (index > 0 && index < w->record_count) {
        const ecs_sched__record *r = &w->records[index];
        if (r->generation != ECS_SCHED_ENTITY_GENERATION(e)) {
            why = "is stale: it was despawned and its index reused or freed";
        } else if (r->table == ECS_SCHED__RESERVED) {
            why = "is reserved by a command buffer and comes alive when the buffer is applied";
        } else if (r->table == ECS_SCHED__DEAD) {
            why = "was despawned";
        }
    }
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_STALE_ENTITY,
                           "%s: entity %u (generation %u) %s", operation, (unsigned)index,
                           (unsigned)ECS_SCHED_ENTITY_GENERATION(e), why);
}

/* Makes sure `count` indices can be handed out without allocating. */
static bool ecs_sched__reserve_indices(ecs_sched_world *w, uint32_t count) {
    uint64_t needed;
    if (count <= w->free_count) return true;
    needed = (uint64_t)w->record_count + (count - w->free_count);
    if (needed > UINT32_MAX - 1) return false;
    return ecs_sched__grow(&w->env, (void **)&w->records, &w->record_capacity, (uint32_t)needed,
                           sizeof *w->records);
}

/* Hands out an index reserved with ecs_sched__reserve_indices. */
static uint32_t ecs_sched__take_index(ecs_sched_world *w) {
    uint32_t index;
    if (w->free_head != ECS_SCHED__NONE) {
        index = w->free_head;
        w->free_head = w->records[index].row;
        w->free_count--;
    } else {
        index = w->record_count++;
        w->records[index].generation = 0;
    }
    return index;
}

static void ecs_sched__release_index(ecs_sched_world *w, uint32_t index) {
    ecs_sched__record *r = &w->records[index];
    r->table = ECS_SCHED__DEAD;
    r->generation++;
    r->row = w->free_head;
    w->free_head = index;
    w->free_count++;
}

/* ---- world ---- */

ecs_sched_world *ecs_sched_world_create(const ecs_sched_world_desc *desc) {
    ecs_sched_world_desc defaults;
    ecs_sched__env env;
    ecs_sched_world *w;
    if (!desc) {
        memset(&defaults, 0, sizeof defaults);
        desc = &defaults;
    }
    ecs_sched__env_init(&env, &desc->allocator, &desc->logger);
    if (desc->thread_count < 0) {
        ecs_sched__log(&env, ECS_SCHED_LOG_ERROR,
                       "world_create: thread_count is negative; give 1 or more, or 0 for one "
                       "thread per hardware thread");
        return NULL;
    }
    if ((unsigned)desc->executor > (unsigned)ECS_SCHED_EXECUTOR_PARALLEL) {
        ecs_sched__log(&env, ECS_SCHED_LOG_ERROR,
                       "world_create: executor is not one of ECS_SCHED_EXECUTOR_DEFAULT, "
                       "_SINGLE_THREADED or _PARALLEL");
        return NULL;
    }
    w = (ecs_sched_world *)ecs_sched__calloc(&env, sizeof *w);
    if (!w) {
        ecs_sched__log(&env, ECS_SCHED_LOG_ERROR, "world_create: out of memory");
        return NULL;
    }
    w->env = env;
    w->thread_count = desc->thread_count;
    w->executor = desc->executor;
    w->component_count = 1;
    w->record_count = 1;
    w->free_head = ECS_SCHED__NONE;
    if (!ecs_sched__grow(&w->env, (void **)&w->components, &w->component_capacity, 1,
                         sizeof *w->components) ||
        !ecs_sched__grow(&w->env, (void **)&w->resources, &w->resource_capacity, 1,
                         sizeof *w->resources) ||
        !ecs_sched__grow(&w->env, (void **)&w->records, &w->record_capacity,
                         1 + (uint32_t)(desc->entity_capacity > 0 ? desc->entity_capacity : 0),
                         sizeof *w->records) ||
        !ecs_sched__table_create(w, NULL, 0, ecs_sched__hash_type(NULL, 0))) {
        ecs_sched__log(&env, ECS_SCHED_LOG_ERROR, "world_create: out of memory");
        ecs_sched_world_destroy(w);
        return NULL;
    }
    memset(&w->components[0], 0, sizeof w->components[0]);
    w->resources[0] = NULL;
    memset(&w->records[0], 0, sizeof w->records[0]);
    w->records[0].table = ECS_SCHED__DEAD;
    return w;
}

void ecs_sched_world_destroy(ecs_sched_world *w) {
    uint32_t i;
    if (!w) return;
    if (w->free_schedules) w->free_schedules(w);
    ecs_sched_pool_destroy(w->pool);
    while (w->buffer_count) ecs_sched_commands_destroy(w->buffers[w->buffer_count - 1]);
    while (w->query_count) ecs_sched_query_destroy(w->queries[w->query_count - 1]);
    for (i = 0; i < w->table_count; i++) ecs_sched__table_free(w, w->tables[i]);
    for (i = 1; i < w->component_count; i++) {
        if (w->resources[i]) ecs_sched_resource_remove(w, i);
    }
    if (w->component_names) stbds_shfree(w->component_names);
    for (i = 1; i < w->component_count; i++) ecs_sched__free(&w->env, w->components[i].name);
    ecs_sched__free(&w->env, w->components);
    ecs_sched__free(&w->env, w->resources);
    ecs_sched__free(&w->env, w->records);
    ecs_sched__free(&w->env, w->tables);
    ecs_sched__free(&w->env, w->queries);
    ecs_sched__free(&w->env, w->buffers);
    ecs_sched__map_free(&w->env, &w->types);
    ecs_sched__map_free(&w->env, &w->edges);
    ecs_sched__free(&w->env, w);
}

const char *ecs_sched_last_error(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return w->env.last_error;
}

ecs_sched_result ecs_sched_last_result(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return w->env.last_result;
}

void ecs_sched_clear_error(ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    w->env.last_result = ECS_SCHED_OK;
    w->env.last_error[0] = '\0';
}

int32_t ecs_sched_entity_count(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return w->alive_count;
}

int32_t ecs_sched_archetype_count(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return (int32_t)w->table_count;
}

/* ---- entities ---- */

static ecs_sched_result ecs_sched__check_ids(ecs_sched_world *w, int32_t count,
                                             const ecs_sched_id *ids, const char *operation) {
    int32_t i, j;
    if (count < 0 || (count > 0 && !ids) || count > ECS_SCHED__MAX_TYPE) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "%s: %d components (at most %d, and ids must not be NULL)",
                               operation, (int)count, ECS_SCHED__MAX_TYPE);
    }
    for (i = 0; i < count; i++) {
        if (!ecs_sched__component_valid(w, ids[i])) {
            return ecs_sched__unknown_component(w, ids[i], operation);
        }
        for (j = 0; j < i; j++) {
            if (ids[j] == ids[i]) {
                return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                       "%s: component '%s' is listed twice", operation,
                                       w->components[ids[i]].name);
            }
        }
    }
    return ECS_SCHED_OK;
}

/* The table of `base` plus the given components. */
static ecs_sched__table *ecs_sched__table_adding(ecs_sched_world *w, ecs_sched__table *base,
                                                 int32_t count, const ecs_sched_id *ids) {
    int32_t i;
    for (i = 0; i < count && base; i++) {
        if (ecs_sched__type_find(base, ids[i]) < 0) base = ecs_sched__table_step(w, base, ids[i], false);
    }
    return base;
}

/* Places an index handed out by ecs_sched__take_index (or reserved) in table t with values. */
static bool ecs_sched__place(ecs_sched_world *w, uint32_t index, ecs_sched__table *t,
                             int32_t count, const ecs_sched_id *ids, const void *const *values) {
    ecs_sched__record *r = &w->records[index];
    int32_t row, i;
    if (!ecs_sched__table_reserve(w, t, 1)) return false;
    row = t->count++;
    t->entities[row] = ecs_sched__make_entity(index, r->generation);
    r->table = t->index;
    r->row = (uint32_t)row;
    for (i = 0; i < t->column_count; i++) {
        ecs_sched__column *col = &t->columns[i];
        const void *value = NULL;
        int32_t k;
        for (k = 0; k < count; k++) {
            if (ids[k] == col->id) {
                value = values ? values[k] : NULL;
                break;
            }
        }
        ecs_sched__construct(&w->components[col->id], col->data + (size_t)row * col->size, value, 1);
    }
    w->alive_count++;
    return true;
}

ecs_sched_entity ecs_sched_spawn(ecs_sched_world *w) {
    return ecs_sched_spawn_with(w, 0, NULL, NULL);
}

ecs_sched_entity ecs_sched_spawn_with(ecs_sched_world *w, int32_t count, const ecs_sched_id *ids,
                                      const void *const *values) {
    ecs_sched__table *t;
    uint32_t index;
    ECS_SCHED__CHECK_WORLD(w);
    if (ecs_sched__check_ids(w, count, ids, "spawn") != ECS_SCHED_OK) return ECS_SCHED_NULL_ENTITY;
    t = ecs_sched__table_adding(w, w->tables[0], count, ids);
    if (!t) return ECS_SCHED_NULL_ENTITY;
    if (!ecs_sched__reserve_indices(w, 1) || !ecs_sched__table_reserve(w, t, 1)) {
        ecs_sched__out_of_memory(w, "spawning an entity");
        return ECS_SCHED_NULL_ENTITY;
    }
    index = ecs_sched__take_index(w);
    ecs_sched__place(w, index, t, count, ids, values);
    return ecs_sched__make_entity(index, w->records[index].generation);
}

ecs_sched_result ecs_sched_spawn_batch(ecs_sched_world *w, int32_t entity_count, int32_t count,
                                       const ecs_sched_id *ids, const void *const *arrays,
                                       ecs_sched_entity *out_entities) {
    ecs_sched__table *t;
    ecs_sched_result result;
    int32_t first, i, c;
    ECS_SCHED__CHECK_WORLD(w);
    if (entity_count < 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "spawn_batch: negative entity count %d", (int)entity_count);
    }
    result = ecs_sched__check_ids(w, count, ids, "spawn_batch");
    if (result != ECS_SCHED_OK) return result;
    t = ecs_sched__table_adding(w, w->tables[0], count, ids);
    if (!t) return w->env.last_result;
    if (!ecs_sched__reserve_indices(w, (uint32_t)entity_count) ||
        !ecs_sched__table_reserve(w, t, entity_count)) {
        return ecs_sched__out_of_memory(w, "spawning a batch of entities");
    }
    first = t->count;
    for (i = 0; i < entity_count; i++) {
        uint32_t index = ecs_sched__take_index(w);
        ecs_sched__record *r = &w->records[index];
        ecs_sched_entity e = ecs_sched__make_entity(index, r->generation);
        r->table = t->index;
        r->row = (uint32_t)(first + i);
        t->entities[first + i] = e;
        if (out_entities) out_entities[i] = e;
    }
    for (c = 0; c < t->column_count; c++) {
        ecs_sched__column *col = &t->columns[c];
        const void *values = NULL;
        int32_t k;
        for (k = 0; k < count; k++) {
            if (ids[k] == col->id) values = arrays ? arrays[k] : NULL;
        }
        ecs_sched__construct(&w->components[col->id], col->data + (size_t)first * col->size,
                             values, entity_count);
    }
    t->count += entity_count;
    w->alive_count += entity_count;
    return ECS_SCHED_OK;
}

static void ecs_sched__despawn_live(ecs_sched_world *w, uint32_t index) {
    ecs_sched__record *r = &w->records[index];
    ecs_sched__table *t = w->tables[r->table];
    int32_t i;
    for (i = 0; i < t->column_count; i++) {
        ecs_sched__destruct(&w->components[t->columns[i].id], ecs_sched__cell(t, i, r->row), 1);
    }
    ecs_sched__table_delete_row(w, t, (int32_t)r->row);
    ecs_sched__release_index(w, index);
    w->alive_count--;
}

ecs_sched_result ecs_sched_despawn(ecs_sched_world *w, ecs_sched_entity e) {
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__is_live_record(w, e)) return ecs_sched__stale(w, e, "despawn");
    ecs_sched__despawn_live(w, ECS_SCHED_ENTITY_INDEX(e));
    return ECS_SCHED_OK;
}

bool ecs_sched_is_alive(const ecs_sched_world *w, ecs_sched_entity e) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__is_live_record(w, e);
}

/* Writes values into the entity's current row: constructs the components that `before` did
   not have (they are raw after a move) and assigns the others. */
static void ecs_sched__write_values(ecs_sched_world *w, uint32_t index,
                                    const ecs_sched__table *before, int32_t count,
                                    const ecs_sched_id *ids, const void *const *values) {
    const ecs_sched__record *r = &w->records[index];
    const ecs_sched__table *t = w->tables[r->table];
    int32_t i;
    for (i = 0; i < count; i++) {
        const ecs_sched__component *c = &w->components[ids[i]];
        const void *value = values ? values[i] : NULL;
        int32_t column;
        if (c->size == 0) continue;
        column = ecs_sched__column_find(t, ids[i]);
        if (ecs_sched__type_find(before, ids[i]) < 0) {
            ecs_sched__construct(c, ecs_sched__cell(t, column, r->row), value, 1);
        } else {
            ecs_sched__assign(c, ecs_sched__cell(t, column, r->row), value);
        }
    }
}

ecs_sched_result ecs_sched_insert_many(ecs_sched_world *w, ecs_sched_entity e, int32_t count,
                                       const ecs_sched_id *ids, const void *const *values) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    ecs_sched__table *src, *dst;
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__is_live_record(w, e)) return ecs_sched__stale(w, e, "insert");
    result = ecs_sched__check_ids(w, count, ids, "insert");
    if (result != ECS_SCHED_OK) return result;
    src = w->tables[w->records[index].table];
    dst = ecs_sched__table_adding(w, src, count, ids);
    if (!dst) return w->env.last_result;
    if (dst != src && !ecs_sched__move_entity(w, index, dst)) {
        return ecs_sched__out_of_memory(w, "moving an entity to a new archetype");
    }
    ecs_sched__write_values(w, index, src, count, ids, values);
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_insert(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id,
                                  const void *value) {
    return ecs_sched_insert_many(w, e, 1, &id, &value);
}

ecs_sched_result ecs_sched_remove(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    ecs_sched__table *src, *dst;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__is_live_record(w, e)) return ecs_sched__stale(w, e, "remove");
    if (!ecs_sched__component_valid(w, id)) return ecs_sched__unknown_component(w, id, "remove");
    src = w->tables[w->records[index].table];
    if (ecs_sched__type_find(src, id) < 0) return ECS_SCHED_OK;
    dst = ecs_sched__table_step(w, src, id, true);
    if (!dst) return w->env.last_result;
    if (!ecs_sched__move_entity(w, index, dst)) {
        return ecs_sched__out_of_memory(w, "moving an entity to a new archetype");
    }
    return ECS_SCHED_OK;
}

void *ecs_sched_get_mut(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    const ecs_sched__record *r;
    const ecs_sched__table *t;
    int32_t column;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__is_live_record(w, e)) {
        ecs_sched__stale(w, e, "get");
        return NULL;
    }
    if (!ecs_sched__component_valid(w, id)) {
        ecs_sched__unknown_component(w, id, "get");
        return NULL;
    }
    r = &w->records[ECS_SCHED_ENTITY_INDEX(e)];
    t = w->tables[r->table];
    column = ecs_sched__column_find(t, id);
    if (column < 0) {
        if (w->components[id].size == 0 && ecs_sched__type_find(t, id) >= 0) {
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                            "get: '%s' is a tag and has no value; use ecs_sched_has",
                            w->components[id].name);
        } else {
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_MISSING_COMPONENT,
                            "get: entity %u (generation %u) has no component '%s'",
                            (unsigned)ECS_SCHED_ENTITY_INDEX(e),
                            (unsigned)ECS_SCHED_ENTITY_GENERATION(e), w->components[id].name);
        }
        return NULL;
    }
    return ecs_sched__cell(t, column, r->row);
}

const void *ecs_sched_get(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    return ecs_sched_get_mut(w, e, id);
}

bool ecs_sched_has(const ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__is_live_record(w, e)) return false;
    return ecs_sched__type_find(w->tables[w->records[ECS_SCHED_ENTITY_INDEX(e)].table], id) >= 0;
}

/* ---- resources ---- */

ecs_sched_result ecs_sched_resource_insert(ecs_sched_world *w, ecs_sched_id id, const void *value) {
    const ecs_sched__component *c;
    void *data;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__component_valid(w, id)) {
        return ecs_sched__unknown_component(w, id, "resource_insert");
    }
    c = &w->components[id];
    if (w->resources[id]) {
        ecs_sched__assign(c, w->resources[id], value);
        return ECS_SCHED_OK;
    }
    data = ecs_sched__aligned_alloc(&w->env, c->size ? c->size : 1, c->alignment);
    if (!data) return ecs_sched__out_of_memory(w, "inserting a resource");
    ecs_sched__construct(c, data, value, 1);
    w->resources[id] = data;
    return ECS_SCHED_OK;
}

void *ecs_sched_resource_get_mut(ecs_sched_world *w, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__component_valid(w, id)) {
        ecs_sched__unknown_component(w, id, "resource_get");
        return NULL;
    }
    if (!w->resources[id]) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_MISSING_RESOURCE,
                        "resource_get: there is no resource '%s' (insert it with "
                        "ecs_sched_resource_insert)",
                        w->components[id].name);
        return NULL;
    }
    return w->resources[id];
}

const void *ecs_sched_resource_get(ecs_sched_world *w, ecs_sched_id id) {
    return ecs_sched_resource_get_mut(w, id);
}

ecs_sched_result ecs_sched_resource_remove(ecs_sched_world *w, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__component_valid(w, id)) {
        return ecs_sched__unknown_component(w, id, "resource_remove");
    }
    if (!w->resources[id]) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_MISSING_RESOURCE,
                               "resource_remove: there is no resource '%s'",
                               w->components[id].name);
    }
    ecs_sched__destruct(&w->components[id], w->resources[id], 1);
    ecs_sched__aligned_free(&w->env, w->resources[id]);
    w->resources[id] = NULL;
    return ECS_SCHED_OK;
}

bool ecs_sched_resource_exists(const ecs_sched_world *w, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__component_valid(w, id) && w->resources[id] != NULL;
}

/* ---- queries ---- */

static bool ecs_sched__term_writes(ecs_sched_term_kind kind) {
    return kind == ECS_SCHED_TERM_WRITE || kind == ECS_SCHED_TERM_OPTIONAL_WRITE;
}

static ecs_sched_result ecs_sched__query_init_terms(ecs_sched_world *w, ecs_sched_query *q,
                                                   const ecs_sched_query_desc *desc) {
    int32_t i, j;
    for (i = 0; i < ECS_SCHED_MAX_TERMS && desc->terms[i].id; i++) {
        const ecs_sched_term *term = &desc->terms[i];
        if (!ecs_sched__component_valid(w, term->id)) {
            return ecs_sched__unknown_component(w, term->id, "query_create");
        }
        if ((unsigned)term->kind > (unsigned)ECS_SCHED_TERM_WITHOUT) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "query_create: term %d ('%s') has an unknown kind %d", (int)i,
                                   w->components[term->id].name, (int)term->kind);
        }
        for (j = 0; j < i; j++) {
            if (q->terms[j].id == term->id) {
                return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                                       "query_create: component '%s' appears in terms %d and %d; "
                                       "name each component once (write access includes read)",
                                       w->components[term->id].name, (int)j, (int)i);
            }
        }
        q->terms[i] = *term;
        if (term->kind == ECS_SCHED_TERM_WITHOUT) continue;
        if (ecs_sched__term_writes(term->kind)) q->writes[q->write_count++] = term->id;
        else q->reads[q->read_count++] = term->id;
    }
    q->term_count = i;
    return ECS_SCHED_OK;
}

ecs_sched_query *ecs_sched_query_create(ecs_sched_world *w, const ecs_sched_query_desc *desc) {
    ecs_sched_query *q;
    uint32_t i;
    ECS_SCHED__CHECK_WORLD(w);
    if (!desc) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT, "query_create: desc is NULL");
        return NULL;
    }
    if (!ecs_sched__grow(&w->env, (void **)&w->queries, &w->query_capacity, w->query_count + 1,
                         sizeof *w->queries)) {
        ecs_sched__out_of_memory(w, "creating a query");
        return NULL;
    }
    q = (ecs_sched_query *)ecs_sched__calloc(&w->env, sizeof *q);
    if (!q) {
        ecs_sched__out_of_memory(w, "creating a query");
        return NULL;
    }
    q->world = w;
    if (ecs_sched__query_init_terms(w, q, desc) != ECS_SCHED_OK) {
        ecs_sched__free(&w->env, q);
        return NULL;
    }
    for (i = 0; i < w->table_count; i++) {
        if (!ecs_sched__query_matches(q, w->tables[i], NULL)) continue;
        if (!ecs_sched__grow(&w->env, (void **)&q->matches, &q->match_capacity,
                             q->match_count + 1, sizeof *q->matches)) {
            ecs_sched__free(&w->env, q->matches);
            ecs_sched__free(&w->env, q);
            ecs_sched__out_of_memory(w, "creating a query");
            return NULL;
        }
        ecs_sched__query_matches(q, w->tables[i], &q->matches[q->match_count++]);
    }
    w->queries[w->query_count++] = q;
    return q;
}

void ecs_sched_query_destroy(ecs_sched_query *q) {
    ecs_sched_world *w;
    uint32_t i;
    if (!q) return;
    w = q->world;
    for (i = 0; i < w->query_count; i++) {
        if (w->queries[i] == q) {
            w->queries[i] = w->queries[--w->query_count];
            break;
        }
    }
    ecs_sched__free(&w->env, q->matches);
    ecs_sched__free(&w->env, q);
}

ecs_sched_access ecs_sched_query_access(const ecs_sched_query *q) {
    ecs_sched_access access;
    ECS_SCHED_ASSERT(q != NULL);
    access.reads = q->reads;
    access.read_count = q->read_count;
    access.writes = q->writes;
    access.write_count = q->write_count;
    return access;
}

int32_t ecs_sched_query_count(const ecs_sched_query *q) {
    int32_t total = 0;
    uint32_t i;
    ECS_SCHED_ASSERT(q != NULL);
    for (i = 0; i < q->match_count; i++) total += q->matches[i].table->count;
    return total;
}

ecs_sched_iter ecs_sched_query_iter(const ecs_sched_query *q) {
    ecs_sched_iter it;
    ECS_SCHED_ASSERT(q != NULL);
    memset(&it, 0, sizeof it);
    it.query_ = q;
    return it;
}

bool ecs_sched_iter_next(ecs_sched_iter *it) {
    const ecs_sched_query *q = it->query_;
    if (!q) return false;
    while ((uint32_t)it->next_ < q->match_count) {
        const ecs_sched__match *m = &q->matches[it->next_++];
        const ecs_sched__table *t = m->table;
        int32_t i;
        if (t->count == 0) continue;
        it->count = t->count;
        it->entities = t->entities;
        for (i = 0; i < q->term_count; i++) {
            it->fields[i] = m->column[i] >= 0 ? t->columns[m->column[i]].data : NULL;
        }
        return true;
    }
    it->count = 0;
    return false;
}

/* ---- command buffers ---- */

static inline size_t ecs_sched__align_up(size_t value, size_t alignment) {
    return (value + alignment - 1) & ~(alignment - 1);
}

/* Reads the command at `at`; `previous` is the entity of the command before it. */
static inline void ecs_sched__command_read(const ecs_sched_world *w,
                                    const ecs_sched__command_block *block, size_t at,
                                    ecs_sched_entity previous, ecs_sched__command *out) {
    uint32_t word;
    size_t end = at + sizeof word;
    memcpy(&word, block->data + at, sizeof word);
    out->op = word & ECS_SCHED__CMD_OP_MASK;
    out->id = word >> ECS_SCHED__CMD_ID_SHIFT;
    out->entity = previous;
    if (!(word & ECS_SCHED__CMD_SAME_ENTITY)) {
        memcpy(&out->entity, block->data + end, sizeof out->entity);
        end += sizeof out->entity;
    }
    out->value = NULL;
    if (word & ECS_SCHED__CMD_HAS_VALUE) {
        const ecs_sched__component *c = &w->components[out->id];
        end = ecs_sched__align_up(end, c->alignment);
        out->value = block->data + end;
        end += c->size;
    }
    out->next = ecs_sched__align_up(end, sizeof word);
}

/* Walks the unapplied commands, from the read cursor given in block and at. */
static bool ecs_sched__command_step(const ecs_sched_commands *cmd,
                                    const ecs_sched__command_block **block, size_t *at) {
    while (*block && *at >= (*block)->used) {
        if (*block == cmd->write) return false;
        *block = (*block)->next;
        *at = 0;
    }
    return *block != NULL;
}

/* Releases the handles that unapplied spawn commands reserved, and empties the buffer. */
static void ecs_sched__release_reserved(ecs_sched_commands *cmd) {
    ecs_sched_world *w = cmd->world;
    const ecs_sched__command_block *block = cmd->read;
    ecs_sched__command_block *b;
    ecs_sched_entity previous = cmd->read_entity;
    size_t at = cmd->read_at;
    while (ecs_sched__command_step(cmd, &block, &at)) {
        ecs_sched__command c;
        ecs_sched__command_read(w, block, at, at == 0 ? 0 : previous, &c);
        if (c.op == ECS_SCHED__CMD_SPAWN && ecs_sched__is_reserved(w, c.entity)) {
            ecs_sched__release_index(w, ECS_SCHED_ENTITY_INDEX(c.entity));
        }
        previous = c.entity;
        at = c.next;
    }
    for (b = cmd->first; b; b = b->next) b->used = 0;
    cmd->write = cmd->read = cmd->first;
    cmd->read_at = 0;
    cmd->read_entity = cmd->write_entity = 0;
    cmd->pending = 0;
}

ecs_sched_commands *ecs_sched_commands_create(ecs_sched_world *w) {
    ecs_sched_commands *cmd;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__grow(&w->env, (void **)&w->buffers, &w->buffer_capacity, w->buffer_count + 1,
                         sizeof *w->buffers)) {
        ecs_sched__out_of_memory(w, "creating a command buffer");
        return NULL;
    }
    cmd = (ecs_sched_commands *)ecs_sched__calloc(&w->env, sizeof *cmd);
    if (!cmd) {
        ecs_sched__out_of_memory(w, "creating a command buffer");
        return NULL;
    }
    cmd->world = w;
    w->buffers[w->buffer_count++] = cmd;
    return cmd;
}

void ecs_sched_commands_destroy(ecs_sched_commands *cmd) {
    ecs_sched_world *w;
    uint32_t i;
    if (!cmd) return;
    w = cmd->world;
    ecs_sched__release_reserved(cmd);
    for (i = 0; i < w->buffer_count; i++) {
        if (w->buffers[i] == cmd) {
            w->buffers[i] = w->buffers[--w->buffer_count];
            break;
        }
    }
    while (cmd->first) {
        ecs_sched__command_block *next = cmd->first->next;
        ecs_sched__aligned_free(&w->env, cmd->first);
        cmd->first = next;
    }
    ecs_sched__free(&w->env, cmd);
}

/* A block with room for `bytes` more, switching to (or adding) the next block when the
   current one is full. NULL when the allocator fails. */
static ecs_sched__command_block *ecs_sched__command_room_slow(ecs_sched_commands *cmd,
                                                              size_t bytes) {
    const size_t header = ecs_sched__align_up(sizeof(ecs_sched__command_block), ECS_SCHED_MAX_ALIGNMENT);
    ecs_sched__command_block *block = cmd->write, *fresh;
    size_t capacity;
    if (block && block->next && block->next->capacity >= bytes) {
        cmd->write = block->next;
        cmd->write_entity = 0;
        return cmd->write;
    }
    capacity = block ? block->capacity * 2 : 4096;
    if (capacity > ((size_t)1 << 20)) capacity = (size_t)1 << 20;
    if (capacity < bytes) capacity = bytes;
    fresh = (ecs_sched__command_block *)ecs_sched__aligned_alloc(&cmd->world->env, header + capacity,
                                                                 ECS_SCHED_MAX_ALIGNMENT);
    if (!fresh) return NULL;
    fresh->data = (unsigned char *)fresh + header;
    fresh->used = 0;
    fresh->capacity = capacity;
    if (!block) {
        fresh->next = NULL;
        cmd->first = cmd->write = cmd->read = fresh;
    } else {
        fresh->next = block->next;  /* a retained block too small for this value */
        block->next = fresh;
        cmd->write = fresh;
    }
    cmd->write_entity = 0;
    return fresh;
}

static inline ecs_sched__command_block *ecs_sched__command_room(ecs_sched_commands *cmd,
                                                                size_t bytes) {
    ecs_sched__command_block *block = cmd->write;
    if (block && block->capacity - block->used >= bytes) return block;
    return ecs_sched__command_room_slow(cmd, bytes);
}

/* Writes one command at `end` of a block known to have room; returns where it ends. */
static inline size_t ecs_sched__write_command(ecs_sched__command_block *block, size_t end,
                                              uint32_t word, const ecs_sched_entity *entity,
                                              const ecs_sched__component *c, const void *value) {
    memcpy(block->data + end, &word, sizeof word);
    end += sizeof word;
    if (entity) {
        memcpy(block->data + end, entity, sizeof *entity);
        end += sizeof *entity;
    }
    if (value && c->size) {
        end = ecs_sched__align_up(end, c->alignment);
        ecs_sched__copy_value(block->data + end, value, c->size);
        end += c->size;
    }
    return ecs_sched__align_up(end, sizeof word);
}

/* Appends a command (and a copy of its value); the buffer is unchanged on failure. */
static inline ecs_sched_result ecs_sched__record_command(ecs_sched_commands *cmd, uint32_t op,
                                                  ecs_sched_entity entity, ecs_sched_id id,
                                                  const void *value) {
    ecs_sched_world *w = cmd->world;
    const ecs_sched__component *c = id ? &w->components[id] : NULL;
    ecs_sched__command_block *block;
    bool has_value = value && c && c->size;
    size_t worst = sizeof(uint32_t) + sizeof entity + (has_value ? c->alignment + c->size : 0);
    bool same;
    uint32_t word = op | (id << ECS_SCHED__CMD_ID_SHIFT) | (has_value ? ECS_SCHED__CMD_HAS_VALUE : 0u);
    block = ecs_sched__command_room(cmd, ecs_sched__align_up(worst, sizeof(uint32_t)));
    if (!block) return ecs_sched__out_of_memory(w, "recording a command");
    same = block->used > 0 && entity == cmd->write_entity;
    if (same) word |= ECS_SCHED__CMD_SAME_ENTITY;
    block->used = ecs_sched__write_command(block, block->used, word, same ? NULL : &entity, c,
                                           has_value ? value : NULL);
    cmd->write_entity = entity;
    cmd->pending++;
    return ECS_SCHED_OK;
}

/* Commands may name live entities and entities a buffer reserved. */
static inline ecs_sched_result ecs_sched__check_target(ecs_sched_commands *cmd, ecs_sched_entity e,
                                                       const char *operation) {
    ecs_sched_world *w = cmd->world;
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    if (index > 0 && index < w->record_count &&
        w->records[index].generation == ECS_SCHED_ENTITY_GENERATION(e) &&
        w->records[index].table != ECS_SCHED__DEAD) {
        return ECS_SCHED_OK;
    }
    return ecs_sched__stale(w, e, operation);
}

ecs_sched_entity ecs_sched_commands_spawn(ecs_sched_commands *cmd) {
    ecs_sched_world *w;
    uint32_t index;
    ecs_sched_entity e;
    ECS_SCHED_ASSERT(cmd != NULL);
    w = cmd->world;
    if (!ecs_sched__reserve_indices(w, 1)) {
        ecs_sched__out_of_memory(w, "reserving an entity for a command buffer");
        return ECS_SCHED_NULL_ENTITY;
    }
    index = ecs_sched__take_index(w);
    e = ecs_sched__make_entity(index, w->records[index].generation);
    w->records[index].table = ECS_SCHED__RESERVED;
    if (ecs_sched__record_command(cmd, ECS_SCHED__CMD_SPAWN, e, 0, NULL) != ECS_SCHED_OK) {
        ecs_sched__release_index(w, index);
        return ECS_SCHED_NULL_ENTITY;
    }
    return e;
}

ecs_sched_entity ecs_sched_commands_spawn_with(ecs_sched_commands *cmd, int32_t count,
                                              const ecs_sched_id *ids,
                                              const void *const *values) {
    ecs_sched_world *w;
    ecs_sched__command_block *block;
    size_t worst = sizeof(uint32_t) + sizeof(ecs_sched_entity), end;
    ecs_sched_entity e;
    uint32_t index;
    int32_t i;
    ECS_SCHED_ASSERT(cmd != NULL);
    w = cmd->world;
    if (ecs_sched__check_ids(w, count, ids, "commands_spawn_with") != ECS_SCHED_OK) {
        return ECS_SCHED_NULL_ENTITY;
    }
    for (i = 0; i < count; i++) {
        worst += sizeof(uint32_t) + w->components[ids[i]].alignment + w->components[ids[i]].size;
    }
    if (!ecs_sched__reserve_indices(w, 1) ||
        !(block = ecs_sched__command_room(cmd, ecs_sched__align_up(worst, sizeof(uint32_t))))) {
        ecs_sched__out_of_memory(w, "recording a command");
        return ECS_SCHED_NULL_ENTITY;
    }
    index = ecs_sched__take_index(w);
    e = ecs_sched__make_entity(index, w->records[index].generation);
    w->records[index].table = ECS_SCHED__RESERVED;
    /* the spawn, then its inserts, which name the same entity */
    end = ecs_sched__write_command(block, block->used, ECS_SCHED__CMD_SPAWN, &e, NULL, NULL);
    for (i = 0; i < count; i++) {
        const ecs_sched__component *c = &w->components[ids[i]];
        const void *value = values ? values[i] : NULL;
        uint32_t word = ECS_SCHED__CMD_INSERT | ECS_SCHED__CMD_SAME_ENTITY |
                        (ids[i] << ECS_SCHED__CMD_ID_SHIFT) |
                        (value && c->size ? ECS_SCHED__CMD_HAS_VALUE : 0u);
        end = ecs_sched__write_command(block, end, word, NULL, c, value);
    }
    block->used = end;
    cmd->write_entity = e;
    cmd->pending += count + 1;
    return e;
}

ecs_sched_result ecs_sched_commands_despawn(ecs_sched_commands *cmd, ecs_sched_entity e) {
    ecs_sched_result result;
    ECS_SCHED_ASSERT(cmd != NULL);
    result = ecs_sched__check_target(cmd, e, "commands_despawn");
    if (result != ECS_SCHED_OK) return result;
    return ecs_sched__record_command(cmd, ECS_SCHED__CMD_DESPAWN, e, 0, NULL);
}

ecs_sched_result ecs_sched_commands_insert(ecs_sched_commands *cmd, ecs_sched_entity e,
                                           ecs_sched_id id, const void *value) {
    ecs_sched_result result;
    ECS_SCHED_ASSERT(cmd != NULL);
    result = ecs_sched__check_target(cmd, e, "commands_insert");
    if (result != ECS_SCHED_OK) return result;
    if (!ecs_sched__component_valid(cmd->world, id)) {
        return ecs_sched__unknown_component(cmd->world, id, "commands_insert");
    }
    return ecs_sched__record_command(cmd, ECS_SCHED__CMD_INSERT, e, id, value);
}

ecs_sched_result ecs_sched_commands_remove(ecs_sched_commands *cmd, ecs_sched_entity e,
                                           ecs_sched_id id) {
    ecs_sched_result result;
    ECS_SCHED_ASSERT(cmd != NULL);
    result = ecs_sched__check_target(cmd, e, "commands_remove");
    if (result != ECS_SCHED_OK) return result;
    if (!ecs_sched__component_valid(cmd->world, id)) {
        return ecs_sched__unknown_component(cmd->world, id, "commands_remove");
    }
    return ecs_sched__record_command(cmd, ECS_SCHED__CMD_REMOVE, e, id, NULL);
}

ecs_sched_result ecs_sched_commands_set_resource(ecs_sched_commands *cmd, ecs_sched_id id,
                                                 const void *value) {
    ECS_SCHED_ASSERT(cmd != NULL);
    if (!ecs_sched__component_valid(cmd->world, id)) {
        return ecs_sched__unknown_component(cmd->world, id, "commands_set_resource");
    }
    return ecs_sched__record_command(cmd, ECS_SCHED__CMD_SET_RESOURCE, 0, id, value);
}

int32_t ecs_sched_commands_pending(const ecs_sched_commands *cmd) {
    ECS_SCHED_ASSERT(cmd != NULL);
    return cmd->pending;
}

int32_t ecs_sched_commands_skipped(const ecs_sched_commands *cmd) {
    ECS_SCHED_ASSERT(cmd != NULL);
    return cmd->skipped;
}

/* Gathers the run of inserts on `entity` that starts at `at` in the same block (at most
   ECS_SCHED__MAX_BATCHED_INSERTS, each component once), so they cost one archetype move.
   Returns how many, and where the run ends. */
static int32_t ecs_sched__gather_inserts(const ecs_sched_commands *cmd,
                                         const ecs_sched__command_block *block, size_t at,
                                         ecs_sched_entity entity, ecs_sched_id *ids,
                                         const void **values, size_t *end) {
    const ecs_sched_world *w = cmd->world;
    int32_t n = 0, k;
    while (at < block->used && n < ECS_SCHED__MAX_BATCHED_INSERTS) {
        ecs_sched__command c;
        ecs_sched__command_read(w, block, at, entity, &c);
        if (c.op != ECS_SCHED__CMD_INSERT || c.entity != entity) break;
        for (k = 0; k < n && ids[k] != c.id; k++) {}
        if (k < n) break;  /* the same component twice: apply the second one on its own */
        ids[n] = c.id;
        values[n] = c.value;
        n++;
        at = c.next;
    }
    *end = at;
    return n;
}

/* The table for a spawn with these components. Buffers often spawn many entities alike, so
   the last answer is kept (tables live as long as the world). */
static ecs_sched__table *ecs_sched__spawn_table(ecs_sched_commands *cmd, int32_t n,
                                                const ecs_sched_id *ids) {
    ecs_sched__table *t;
    int32_t i;
    if (n == cmd->spawn_count && n > 0) {
        for (i = 0; i < n && ids[i] == cmd->spawn_ids[i]; i++) {}
        if (i == n) return cmd->world->tables[cmd->spawn_table];
    }
    t = ecs_sched__table_adding(cmd->world, cmd->world->tables[0], n, ids);
    if (t) {
        memcpy(cmd->spawn_ids, ids, (size_t)n * sizeof *ids);
        cmd->spawn_count = n;
        cmd->spawn_table = t->index;
    }
    return t;
}

/* Applies the command at the read cursor (with the inserts that follow it on the same
   entity) and returns how many commands it consumed, or -1 when the world refused (out of
   memory). */
static int32_t ecs_sched__apply_one(ecs_sched_commands *cmd) {
    ecs_sched_world *w = cmd->world;
    const ecs_sched__command_block *block = cmd->read;
    ecs_sched_id ids[ECS_SCHED__MAX_BATCHED_INSERTS];
    const void *values[ECS_SCHED__MAX_BATCHED_INSERTS];
    ecs_sched__command c;
    size_t end;
    int32_t n = 0;
    bool ok = true;
    ecs_sched__command_read(w, block, cmd->read_at, cmd->read_at == 0 ? 0 : cmd->read_entity, &c);
    end = c.next;
    switch (c.op) {
    case ECS_SCHED__CMD_SPAWN:
        if (!ecs_sched__is_reserved(w, c.entity)) goto skipped;
        n = ecs_sched__gather_inserts(cmd, block, end, c.entity, ids, values, &end);
        {
            ecs_sched__table *t = ecs_sched__spawn_table(cmd, n, ids);
            ok = t && ecs_sched__place(w, ECS_SCHED_ENTITY_INDEX(c.entity), t, n, ids, values);
            if (t && !ok) ecs_sched__out_of_memory(w, "applying a spawn command");
        }
        break;
    case ECS_SCHED__CMD_INSERT:
        if (!ecs_sched__is_live_record(w, c.entity)) goto skipped;
        n = ecs_sched__gather_inserts(cmd, block, cmd->read_at, c.entity, ids, values, &end) - 1;
        ok = ecs_sched_insert_many(w, c.entity, n + 1, ids, values) == ECS_SCHED_OK;
        break;
    case ECS_SCHED__CMD_REMOVE:
        if (!ecs_sched__is_live_record(w, c.entity)) goto skipped;
        ok = ecs_sched_remove(w, c.entity, c.id) == ECS_SCHED_OK;
        break;
    case ECS_SCHED__CMD_DESPAWN:
        /* a run of despawns is applied here at once */
        for (;;) {
            ecs_sched__command next;
            if (ecs_sched__is_live_record(w, c.entity)) {
                ecs_sched__despawn_live(w, ECS_SCHED_ENTITY_INDEX(c.entity));
            } else {
                cmd->skipped++;
            }
            if (end >= block->used) break;
            ecs_sched__command_read(w, block, end, c.entity, &next);
            if (next.op != ECS_SCHED__CMD_DESPAWN) break;
            c = next;
            end = c.next;
            n++;
        }
        break;
    case ECS_SCHED__CMD_SET_RESOURCE:
        ok = ecs_sched_resource_insert(w, c.id, c.value) == ECS_SCHED_OK;
        break;
    default:
        ECS_SCHED_ASSERT(0 && "corrupt command buffer");
        break;
    }
    if (!ok) return -1;
    cmd->read_at = end;
    cmd->read_entity = c.entity;
    return n + 1;
skipped:
    cmd->skipped++;
    cmd->read_at = end;
    cmd->read_entity = c.entity;
    return 1;
}

ecs_sched_result ecs_sched_commands_apply(ecs_sched_commands *cmd) {
    const ecs_sched__command_block *block;
    ECS_SCHED_ASSERT(cmd != NULL);
    cmd->skipped = 0;
    block = cmd->read;
    while (ecs_sched__command_step(cmd, &block, &cmd->read_at)) {
        int32_t consumed;
        cmd->read = (ecs_sched__command_block *)block;
        consumed = ecs_sched__apply_one(cmd);
        if (consumed < 0) return cmd->world->env.last_result;
        cmd->pending -= consumed;
    }
    ecs_sched__release_reserved(cmd);  /* nothing is left to release: this just empties it */
    return ECS_SCHED_OK;
}

/* ---- consistency check ---- */

static ecs_sched_result ecs_sched__inconsistent(ecs_sched_world *w, const char *what,
                                                unsigned a, unsigned b) {
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INCONSISTENT,
                           "world_check: %s (%u, %u)", what, a, b);
}

static ecs_sched_result ecs_sched__check_tables(ecs_sched_world *w) {
    uint32_t i;
    int64_t total = 0;
    for (i = 0; i < w->table_count; i++) {
        const ecs_sched__table *t = w->tables[i];
        int32_t row, k;
        if (t->index != i) return ecs_sched__inconsistent(w, "table index", i, t->index);
        if (t->count < 0 || t->count > t->capacity) {
            return ecs_sched__inconsistent(w, "table count exceeds capacity", i, (unsigned)t->count);
        }
        if (ecs_sched__table_find(w, t->type, t->type_count, t->hash) != t) {
            return ecs_sched__inconsistent(w, "table missing from the type map", i, 0);
        }
        for (k = 1; k < t->type_count; k++) {
            if (t->type[k - 1] >= t->type[k]) return ecs_sched__inconsistent(w, "unsorted type", i, k);
        }
        for (k = 0; k < t->column_count; k++) {
            if ((uintptr_t)t->columns[k].data % w->components[t->columns[k].id].alignment) {
                return ecs_sched__inconsistent(w, "misaligned column", i, (unsigned)k);
            }
        }
        for (row = 0; row < t->count; row++) {
            ecs_sched_entity e = t->entities[row];
            uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
            if (!ecs_sched__is_live_record(w, e) || w->records[index].table != i ||
                w->records[index].row != (uint32_t)row) {
                return ecs_sched__inconsistent(w, "table row and entity record disagree", i,
                                               (unsigned)row);
            }
        }
        total += t->count;
    }
    if (total != w->alive_count) {
        return ecs_sched__inconsistent(w, "rows in tables differ from live entities",
                                       (unsigned)total, (unsigned)w->alive_count);
    }
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__check_records(ecs_sched_world *w) {
    uint32_t i, live = 0, dead = 0, walked = 0, at;
    for (i = 1; i < w->record_count; i++) {
        const ecs_sched__record *r = &w->records[i];
        if (r->table == ECS_SCHED__DEAD) {
            dead++;
        } else if (r->table != ECS_SCHED__RESERVED) {
            if (r->table >= w->table_count || r->row >= (uint32_t)w->tables[r->table]->count ||
                w->tables[r->table]->entities[r->row] != ecs_sched__make_entity(i, r->generation)) {
                return ecs_sched__inconsistent(w, "entity record points at a wrong row", i, r->row);
            }
            live++;
        }
    }
    if (live != (uint32_t)w->alive_count) {
        return ecs_sched__inconsistent(w, "live records differ from the live count", live,
                                       (unsigned)w->alive_count);
    }
    for (at = w->free_head; at != ECS_SCHED__NONE; at = w->records[at].row) {
        if (at == 0 || at >= w->record_count || w->records[at].table != ECS_SCHED__DEAD ||
            ++walked > dead) {
            return ecs_sched__inconsistent(w, "free list is broken", at, walked);
        }
    }
    if (walked != dead || walked != w->free_count) {
        return ecs_sched__inconsistent(w, "free list length", walked, dead);
    }
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__check_queries(ecs_sched_world *w) {
    uint32_t qi, i, m;
    for (qi = 0; qi < w->query_count; qi++) {
        const ecs_sched_query *q = w->queries[qi];
        uint32_t expected = 0;
        for (i = 0; i < w->table_count; i++) {
            ecs_sched__match want;
            uint32_t found = 0;
            bool matches = ecs_sched__query_matches(q, w->tables[i], &want);
            for (m = 0; m < q->match_count; m++) {
                if (q->matches[m].table != w->tables[i]) continue;
                found++;
                if (memcmp(q->matches[m].column, want.column,
                           (size_t)q->term_count * sizeof want.column[0]) != 0) {
                    return ecs_sched__inconsistent(w, "query cache has wrong columns", qi, i);
                }
            }
            if (found != (matches ? 1u : 0u)) {
                return ecs_sched__inconsistent(w, "query cache disagrees with tables", qi, i);
            }
            expected += matches;
        }
        if (expected != q->match_count) {
            return ecs_sched__inconsistent(w, "query cache size", qi, q->match_count);
        }
    }
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_world_check(ecs_sched_world *w) {
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    result = ecs_sched__check_tables(w);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_records(w);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_queries(w);
    return result;
}
