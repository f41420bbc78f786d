/* world: components, archetype tables and the entity index. */
#pragma once
#include "pool.h"

/* An entity handle: index in the low 32 bits, generation in the high 32 bits. */
typedef uint64_t ecs_sched_entity;
/* A registered component (or tag, or resource type). 0 is never a valid id. */
typedef uint32_t ecs_sched_id;

#define ECS_SCHED_NULL_ENTITY ((ecs_sched_entity)0)
#define ECS_SCHED_ENTITY_INDEX(e) ((uint32_t)((e) & 0xffffffffu))
#define ECS_SCHED_ENTITY_GENERATION(e) ((uint32_t)((e) >> 32))

typedef struct ecs_sched_world ecs_sched_world;

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

/* Where a component's values live (see Storage and Sparse storage in THE WORLD). */
typedef enum ecs_sched_storage {
    ECS_SCHED_STORAGE_TABLE = 0,   /* in the entity's archetype table: fastest to iterate */
    ECS_SCHED_STORAGE_SPARSE       /* in a set of its own: adding or removing it moves
                                      nothing else; for markers that come and go */
} ecs_sched_storage;

typedef struct ecs_sched_component_desc {
    const char *name;     /* required, unique */
    size_t size;          /* 0 registers a tag */
    size_t alignment;     /* 0: the largest power of two dividing size, at most 16 */
    ecs_sched_type_hooks hooks;
    bool tracked;         /* keep, per entity, when it was added and last changed, for
                             added/changed query terms (see Change detection in THE
                             WORLD'S EVENTS); fixed at registration */
    ecs_sched_storage storage;   /* 0: in tables; fixed at registration */
    bool toggleable;      /* may be switched off on one entity without moving it (see
                             Component disabling in THE WORLD); table storage only; fixed
                             at registration */
    bool scripted;        /* defined by a script, not by a C type (a script driver sets it):
                             its layout may change, its values migrated
                             (ecs_sched_component_migrate); fixed at registration */
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
    ecs_sched_error_policy on_error;  /* what a run does when a system fails; 0: HOOK with an
                                         error hook, else STOP (see ERRORS) */
    ecs_sched_error_hook error_hook;  /* gets every failure of the world's runs */
} ecs_sched_world_desc;

/* ---- world ---- */

/* The message of the last failed call, naming the culprit; "" when none failed yet. */
ECS_SCHED_API const char *ecs_sched_last_error(const ecs_sched_world *world);
ECS_SCHED_API ecs_sched_result ecs_sched_last_result(const ecs_sched_world *world);
ECS_SCHED_API void ecs_sched_clear_error(ecs_sched_world *world);
ECS_SCHED_API int32_t ecs_sched_entity_count(const ecs_sched_world *world);
ECS_SCHED_API int32_t ecs_sched_archetype_count(const ecs_sched_world *world);

/* ---- components ---- */

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
/* Where the component's values live (ECS_SCHED_STORAGE_TABLE for an unknown id). */
ECS_SCHED_API ecs_sched_storage ecs_sched_component_storage(const ecs_sched_world *world,
                                                            ecs_sched_id id);

/* The world's thread pool, created on first use with ecs_sched_world_desc.thread_count
   workers (the thread that first asks is worker 0). NULL when it cannot be created. */
ECS_SCHED_API ecs_sched_pool *ecs_sched_world_pool(ecs_sched_world *world);
/* Replaces the world's error policy and hook (ecs_sched_world_desc.on_error, .error_hook);
   DEFAULT means HOOK with a hook, else STOP. Schedules that chose their own keep it; a run
   already started keeps the policy and hook it started with. */
ECS_SCHED_API ecs_sched_result ecs_sched_world_set_error_policy(ecs_sched_world *world,
                                                               ecs_sched_error_policy policy,
                                                               ecs_sched_error_hook hook);


/*@@ implementation @@*/
/* world: components, archetype tables and the entity index (what is done to one entity:
   entity.h; change ticks: ticks.h; resources: resource.h). */

#define ECS_SCHED__NONE UINT32_MAX
#define ECS_SCHED__DEAD UINT32_MAX             /* record.table of a free index */
#define ECS_SCHED__RESERVED (UINT32_MAX - 1u)  /* record.table of a handle a buffer reserved */
#define ECS_SCHED__UNLISTED (UINT32_MAX - 1u)  /* record.row of a dead index on no free list:
                                                  outside the entity range, not handed out */
#define ECS_SCHED__MAX_INDEX (UINT32_MAX - 2u) /* the largest entity index */
#define ECS_SCHED__MAX_TYPE 256                /* components on one entity */
#define ECS_SCHED__DISABLED_NAME "ecs_sched.Disabled"   /* the tag of disabled entities */
#define ECS_SCHED__PREFAB_NAME "ecs_sched.Prefab"       /* the tag of prefabs */
#define ECS_SCHED__MAX_BATCHED_INSERTS 32
/* ecs_sched__component.relation: a relationship kind's properties (relation.h). */
#define ECS_SCHED__KIND_RELATION 0x1u
#define ECS_SCHED__KIND_EXCLUSIVE 0x2u
#define ECS_SCHED__KIND_ACYCLIC 0x4u
#define ECS_SCHED__KIND_POLICY_SHIFT 3    /* two bits: what a target's despawn does */
#define ECS_SCHED__CHILD_OF_NAME "ecs_sched.ChildOf"
#define ECS_SCHED__IS_A_NAME "ecs_sched.IsA"
/* A recorded command keeps its component id in 26 bits (commands.h). */
#define ECS_SCHED__MAX_COMPONENTS (1u << 26)

typedef struct ecs_sched__record {
    uint32_t table;       /* table index, ECS_SCHED__DEAD or ECS_SCHED__RESERVED */
    uint32_t row;         /* row in the table; while dead: its position on the free stack,
                             the next linked free index, or ECS_SCHED__UNLISTED */
    uint32_t generation;
} ecs_sched__record;

/* Kept to one cache line: spawns, moves and despawns read one per column. */
typedef struct ecs_sched__component {
    char *name;
    ecs_sched_type_hooks hooks;
    uint32_t size;
    uint32_t queue;                /* a message type: its queue + 1 (message.h), else 0 */
    uint32_t removals;             /* tracked: the queue of its removals + 1 */
    uint8_t alignment;             /* at most ECS_SCHED_MAX_ALIGNMENT */
    bool non_send;                 /* as a resource: main-thread-only */
    bool tracked;                  /* keeps change ticks per entity */
    uint8_t relation;              /* a relationship kind: ECS_SCHED__KIND_* flags (relation.h) */
    uint16_t sparse;               /* sparse storage: its set in world->sparse_sets + 1 */
    bool managed;                  /* added and removed by the library only (a base's mark,
                                      which follows IsA relationships: inherit.h) */
    bool toggleable;               /* tables keep a bit per row: enabled or not (table.h) */
    bool scripted;                 /* a script defined it: its layout may change (script.h) */
} ecs_sched__component;

typedef struct ecs_sched__column {
    unsigned char *data;
    uint32_t size;
    ecs_sched_id id;
} ecs_sched__column;

/* When a value was added and last changed (ticks). */
typedef struct ecs_sched__stamp {
    uint32_t added;
    uint32_t changed;
} ecs_sched__stamp;

/* Rows per entry of a tick column's `newest`. */
#define ECS_SCHED__TICK_BLOCK 64

/* An entry of a change log: row `row` changed. A row has at most one live entry, found
   through its `logged` serial: a newer change kills the old entry, a row that moves within
   its table takes its entry along, and a row that leaves kills it. */
#define ECS_SCHED__DEAD_ROW UINT32_MAX
typedef struct ecs_sched__change {
    uint32_t row;           /* ECS_SCHED__DEAD_ROW: the entry stands for nothing */
    uint32_t seq;           /* the world's tick when it was logged: entries are in its order */
    uint32_t serial;        /* the log's count of entries when it was logged */
    uint32_t changed;       /* the row's changed tick then (and still, while it stands) */
} ecs_sched__change;

/* The rows of a tick column that changed, in the order they did, so that a query for the
   few that changed among many visits those only. A ring of bounded size: when it is full the
   oldest quarter goes, and readers whose window starts before what is left look at every
   row instead (change.h). */
typedef struct ecs_sched__change_log {
    ecs_sched__change *items;
    uint32_t start, count, capacity;   /* capacity: 0 or a power of two */
    uint32_t serial;                   /* entries logged so far */
    uint32_t first_serial;             /* the serial of the entry at start */
    uint32_t since;                    /* with truncated: it holds every change logged from */
    bool truncated;                    /* this tick on (else, every change ever) */
} ecs_sched__change_log;

/* A tracked component's change ticks in one table (see change.h for what a tick is). A row
   changed at least as recently as `bulk` when has_bulk is set: a query that hands out the
   whole table for writing marks it so, in one store instead of one per row. */
typedef struct ecs_sched__ticks {
    uint32_t *added;        /* per row: the tick its component was added */
    uint32_t *changed;      /* per row: the tick its value last changed */
    uint32_t *logged;       /* per row: the serial of its entry in the log */
    uint32_t *newest;       /* per block of rows: no older than any changed tick in it */
    uint32_t bulk;
    ecs_sched_id id;
    bool has_bulk;
    ecs_sched__change_log log;
} ecs_sched__ticks;

/* The values of a sparse component (sparse.h): its members packed in `members`, their values
   at the same positions, and by entity index where each one is. */
typedef struct ecs_sched__sparse_set {
    uint32_t *position;           /* by entity index: position in members + 1, 0: not one */
    uint32_t position_capacity;
    ecs_sched_entity *members;
    unsigned char *values;        /* size bytes per member (NULL for a tag) */
    ecs_sched__stamp *stamps;     /* tracked: when each member's value was added and changed */
    uint32_t count, capacity;
    ecs_sched_id id;
} ecs_sched__sparse_set;

/* A toggleable component's bits in one table: per row, 1 while the component is enabled;
   rows past the table's count are 0. Word w holds rows [64 w, 64 w + 64), the rows of tick
   block w (change.h filters both a block at a time). */
typedef struct ecs_sched__toggle {
    uint64_t *bits;
    ecs_sched_id id;
} ecs_sched__toggle;

/* A step from a table to the one with a component more or less, remembered by the table. */
typedef struct ecs_sched__step {
    uint32_t key;                     /* id * 2, + 1 for a removal; 0: none */
    uint32_t table;                   /* the index of the table it leads to */
} ecs_sched__step;

/* Steps a table remembers, by key modulo this: an insert and a remove of the same component
   (one key apart) never evict each other. */
#define ECS_SCHED__TABLE_STEPS 8

/* An archetype: every entity with exactly this sorted set of components. What a query reads
   of it comes first, in one cache line: a schedule of many small queries misses the cache on
   every table it visits. The steps follow, in the next line, read by inserts and removes
   only; after them, in the same block, the map from id to column, the columns, the tick
   columns, the toggles and the type (table_graph.h). */
typedef struct ecs_sched__table {
    uint32_t index;
    int32_t type_count;
    int32_t column_count;
    int32_t count;
    int32_t capacity;
    int32_t tick_count;
    uint32_t column_map;              /* entries of the map from id to column that follows
                                         the table (ids below it); 0: none, search the
                                         columns */
    uint32_t id_bits;                 /* bit id % 32 set for each id of the type: most ids a
                                         table lacks are told by this one word */
    ecs_sched_id *type;               /* sorted */
    ecs_sched__column *columns;       /* the sized components, sorted by id */
    ecs_sched_entity *entities;
    ecs_sched__ticks *ticks;          /* the tracked components, sorted by id */
    ecs_sched__step steps[ECS_SCHED__TABLE_STEPS];
    bool hooked;                      /* a column's values have a move or a destroy hook: a
                                         row that moves cannot be copied byte for byte */
    int32_t toggle_count;             /* toggleable components in the type: 0 for most
                                         tables, whose rows move without looking further */
    ecs_sched__toggle *toggles;       /* their bits, sorted by id */
} ecs_sched__table;

/* Open addressing from a 64-bit key to a table index. Keys may repeat (type hashes can
   collide); ecs_sched__map_next walks every value stored under a key. */
typedef struct ecs_sched__map {
    uint64_t *keys;
    uint32_t *values;     /* ECS_SCHED__NONE marks an empty slot */
    uint32_t capacity;    /* a power of two, or 0 */
    uint32_t count;
} ecs_sched__map;




/* Data a module keeps beside the entities and resources that a snapshot holds too
   (snapshot.h): the module registers its part with the world when it first keeps such data,
   so that the snapshot module names no feature. */
typedef struct ecs_sched__snapshot_part {
    /* A copy of the module's data as it is now, in *copy (NULL: nothing to keep); adds what
       it holds to *bytes. False when out of memory. */
    bool (*take)(ecs_sched_world *w, void **copy, size_t *bytes);
    /* Before a restore changes anything: makes, in *prepared, what `apply` needs to bring
       `copy` back (NULL copy: the snapshot is older than the part: the module's data goes).
       False when out of memory, with nothing left behind. */
    bool (*prepare)(ecs_sched_world *w, const void *copy, void **prepared);
    /* Brings the copy back, after the entities and resources; cannot fail. Takes prepared. */
    void (*apply)(ecs_sched_world *w, const void *copy, void *prepared);
    /* Frees what prepare made, when the restore stops before apply. */
    void (*discard)(ecs_sched_world *w, void *prepared);
    /* Frees a copy, with the allocator of the snapshot (which may outlive the world). */
    void (*free)(ecs_sched__env *env, void *copy);
} ecs_sched__snapshot_part;

#define ECS_SCHED__SNAPSHOT_PARTS 8

/* What a module above the registry keeps in a world (its relationships, names, schedules,
   state machines, clocks...) is a part of the world: the world holds it in the slot of the
   module's key without knowing its type, and world.h has each module free its own. A key
   gets its slot the first time any world stores a part under it, the same slot in every
   world; slot 0 is never given, so that a module no world has used finds NULL. */
#define ECS_SCHED__MAX_PARTS 24
typedef struct ecs_sched__part_key {
#ifdef ECS_SCHED_THREADS
    atomic_uint slot;
#else
    uint32_t slot;
#endif
} ecs_sched__part_key;

struct ecs_sched_world {
    ecs_sched__env env;
    uint64_t serial;                     /* tells worlds apart (snapshot.h) */
    uint32_t layout_changes;             /* components whose layout changed, values migrated
                                            (script.h); older snapshots are refused */
    ecs_sched_id layout_changed;         /* the last of them, for the message */
    ecs_sched__component *components;    /* by id; slot 0 unused */
#ifdef ECS_SCHED_THREADS
    atomic_uint tick;                    /* the last change tick handed out (change.h) */
#else
    uint32_t tick;
#endif
    bool ticks_on;                       /* something tracks changes: systems take ticks */
#ifdef ECS_SCHED_TRACE
    bool watched;                        /* the executors take their watched paths (trace.h) */
    bool stats_on, outcomes_on;
    int32_t disabled_systems;
    int32_t stepping_schedules;
    int64_t watch_ticks0, watch_ns0;     /* the trace clock and the monotonic clock, read when
                                            the world first timed something */
#endif
    uint32_t tick_checked;               /* the tick at the last check for old ticks */
    ecs_sched__stamp *resource_stamps;   /* by component id (kept while ticks_on) */
    uint32_t resource_stamp_capacity;
    uint32_t component_count;
    uint32_t component_capacity;
    ecs_sched__name_map component_names;
    void **resources;                    /* by component id */
    uint32_t resource_capacity;
    ecs_sched__record *records;          /* by entity index; slot 0 unused */
    uint32_t record_count;
    uint32_t record_capacity;
    uint32_t free_head;                  /* dead indices the stack had no room for, linked */
    uint32_t free_count;                 /* dead indices in all */
    uint32_t *free_stack;                /* dead indices to hand out again, newest last: a
                                            batch takes them without chasing links */
    uint32_t free_stack_count, free_stack_capacity;
    uint32_t *generation_floor;          /* by index, set by snapshot restores (snapshot.h):
                                            the generation an index alive again skips to when
                                            it is released, past the handles an abandoned
                                            timeline made on it; 0: none. NULL until needed */
    uint32_t generation_floor_capacity;
    uint32_t range_first, range_last;    /* the indices spawns hand out (entity.h:
                                            ecs_sched_set_entity_range); 0, 0: any */
    bool ranged;                         /* a range was set once: dead indices outside it
                                            may be unlisted */
    uint32_t fresh_end;                  /* new indices stay below it (the range's end);
                                            0 while the range's first index is ahead */
    uint32_t release_first, release_span;  /* a released index in release_first +
                                            [0, release_span] (in the range, past the
                                            generation floors) goes on the stack at once */
    int32_t alive_count;
    ecs_sched__table **tables;           /* tables[0] is the empty archetype */
    uint32_t table_count;
    uint32_t table_capacity;
    ecs_sched__map types;                /* type hash -> table */
    ecs_sched__map edges;                /* (table, component, add/remove) -> table */
    ecs_sched__sparse_set *sparse_sets;  /* sparse.h: one per sparse component */
    uint32_t sparse_count, sparse_capacity;
    bool fixed_step_since_update;        /* a fixed step ran since the messages' last update */
    ecs_sched_id disabled;               /* disable.h: the Disabled tag */
    ecs_sched_id prefab;                 /* disable.h: the Prefab tag */
    ecs_sched_id child_of;               /* hierarchy.h: the ChildOf relationship */
    ecs_sched_id is_a;                   /* inherit.h: the IsA relationship */
    ecs_sched_id wildcard;               /* relation.h: "*", any kind (0 until first asked) */
    bool linked;                         /* some entity was related or named: despawns
                                            look at relationships and names */
    uint32_t rows_version;               /* moves on whenever a row joins or leaves a table,
                                            a block of values may move (a table or a sparse
                                            set grows), or a relationship changes: the lists
                                            hierarchy.h keeps point into those blocks */
    bool observed;                       /* an observer was added (observer.h): the
                                            operations call observers */
    /* The core's extension points for the modules above it (docs/architecture.md): each is
       NULL until its module installs it, and the core calls it only where the world uses
       what the module adds. */
    struct {
        /* despawns a live entity of a linked world (relationships or names keep it linked to
           others), with what its relationships' rules take along: relation.h, with the
           world's relationships (ChildOf, at world creation) */
        ecs_sched_result (*despawn_linked)(ecs_sched_world *w, ecs_sched_entity e);
        /* ecs_sched_remove of a relationship kind the entity has: every target goes
           (relation.h, likewise) */
        ecs_sched_result (*remove_kind)(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id kind);
        /* the value of `id` that the entities of table t inherit from a base, or NULL (for a
           tag too: see *found): inherit.h, with the first base */
        void *(*inherited_value)(const ecs_sched_world *w, const ecs_sched__table *t,
                                 ecs_sched_id id, bool *found);
        /* an entity's name, for messages, or NULL: name.h, with the first name */
        const char *(*entity_name)(const ecs_sched_world *w, ecs_sched_entity e);
        /* what a module keeps about entity `index` goes, as it is despawned (its name:
           name.h, likewise; called by despawn_linked, names keeping the world linked) */
        void (*forget)(ecs_sched_world *w, uint32_t index);
        /* applies what observers deferred, for observer.h, whose yield_existing calls
           observers outside any operation: entity.h, at world creation */
        void (*apply_observed)(ecs_sched_world *w);
        /* an entity just spawned while a scope is set goes into it (a child of w->scope), and
           a component or a system added then is named after it: scope.h, when a scope is
           first set. The name: written into `out` (capacity bytes); false when it does not
           fit */
        void (*enter_scope)(ecs_sched_world *w, ecs_sched_entity e);
        /* base e gains (ON_SET, after) or is about to lose (ON_UNSET) its value of id: the
           ON_SET / ON_UNSET observers hear it for the instances that see that value:
           inherit.h, with the first base */
        void (*base_value)(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id,
                           int event);
        bool (*scoped_name)(const ecs_sched_world *w, const char *name, char *out, size_t capacity);
        /* whether `ancestor` is one of e's ancestors (ChildOf), for .up observers of
           components' events (observer.h): emit.h's, at world creation; never NULL */
        bool (*is_ancestor)(const ecs_sched_world *w, ecs_sched_entity ancestor,
                            ecs_sched_entity e);
    } hooks;
    ecs_sched_entity scope;              /* scope.h: the current scope, or 0 */
    void *parts[ECS_SCHED__MAX_PARTS];   /* by the slot of a module's key (see above) */
    const ecs_sched__snapshot_part *snapshot_parts[ECS_SCHED__SNAPSHOT_PARTS];
    int32_t snapshot_part_count;         /* registered, in order (never removed) */
    ecs_sched_pool *pool;                /* created on first use */
#ifdef ECS_SCHED_THREADS
    pthread_t schedule_thread;           /* the one running the outermost schedule */
#endif
    int32_t thread_count;
    ecs_sched_executor executor;
    ecs_sched_error_policy on_error;     /* resolved: never DEFAULT */
    ecs_sched_error_hook error_hook;
#ifdef ECS_SCHED_THREADS
    atomic_int failure_lock;             /* systems running at once may fail at once */
#endif
};


/* What the world asks of the modules that keep state in it, defined there: queries keep a
   cache of matching tables (query.h), command buffers and schedules belong to the world and
   go with it (commands.h, graph.h), and so do state machines (state.h) and clocks (time.h). */
/* relation.h: relationships go with their sources and targets; ChildOf comes with the
   world. */

/* ---- small helpers ---- */

#define ECS_SCHED__CHECK_WORLD(world) ECS_SCHED_ASSERT((world) != NULL)

/* A structural change through the world pointer while a system that is not exclusive runs:
   with threads a data race, and on one thread a change under the feet of the systems that
   hold pointers into the world. Refused, as the system's failure. */
static bool ecs_sched__change_refused(ecs_sched_world *w, const char *what) {
    const ecs_sched__running *running = ecs_sched__running_in(&w->env);
    if (!running || ecs_sched__running_may_change(running)) return false;
    ecs_sched__refuse(&w->env, ECS_SCHED_ERR_ACCESS,
                      "%s through the world while the schedule runs, but only exclusive systems "
                      "change the world directly: record it in the system's commands instead "
                      "(declare .commands = true, then ecs_sched_ctx_commands)", what);
    return true;
}

/* The world's last failure again, with who it concerns in front ("add_system('move'), query
   0: "), for a failure found by a call made on someone's behalf. */
static ecs_sched_result ecs_sched__fail_again_for(ecs_sched_world *w, const char *who) {
    char message[ECS_SCHED__ERROR_CAPACITY], prefix[ECS_SCHED__ERROR_CAPACITY];
    const ecs_sched__running *running = ecs_sched__running_in(&w->env);
    size_t skip = 0;
    memcpy(message, w->env.last_error, sizeof message);
    if (running) {   /* the running system's name goes in front once, not twice */
        size_t n = ecs_sched__running_prefix(running, prefix, sizeof prefix);
        if (strncmp(message, prefix, n) == 0) skip = n;
    }
    return ecs_sched__fail(&w->env, w->env.last_result, "%s: %s", who, message + skip);
}

static ecs_sched_result ecs_sched__out_of_memory(ecs_sched_world *w, const char *what) {
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_OUT_OF_MEMORY, "out of memory while %s", what);
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

/* The set of a sparse component (NULL: it lives in tables). */
static inline ecs_sched__sparse_set *ecs_sched__sparse_of(const ecs_sched_world *w,
                                                          ecs_sched_id id) {
    uint16_t set = w->components[id].sparse;
    return set ? &w->sparse_sets[set - 1] : NULL;
}

/* Where entity index `index` is in set s, + 1 (0: not a member, or no set). */
static inline uint32_t ecs_sched__sparse_slot(const ecs_sched__sparse_set *s, uint32_t index) {
    return s && index < s->position_capacity ? s->position[index] : 0;
}

/* Whether any of ids is sparse (a world without sparse components asks nothing more). */
static inline bool ecs_sched__any_sparse(const ecs_sched_world *w, int32_t count,
                                         const ecs_sched_id *ids) {
    int32_t k;
    if (!w->sparse_count) return false;
    for (k = 0; k < count; k++) {
        if (w->components[ids[k]].sparse) return true;
    }
    return false;
}

static inline uint32_t ecs_sched__id_bit(ecs_sched_id id) {
    return 1u << (id & 31u);
}

/* The position of id in the table's sorted type, or -1. */
static inline int32_t ecs_sched__type_find(const ecs_sched__table *t, ecs_sched_id id) {
    int32_t lo = 0, hi = t->type_count;
    if (!(t->id_bits & ecs_sched__id_bit(id))) return -1;
    while (lo < hi) {
        int32_t mid = (lo + hi) / 2;
        if (t->type[mid] < id) lo = mid + 1;
        else hi = mid;
    }
    return lo < t->type_count && t->type[lo] == id ? lo : -1;
}

/* Whether the entity at `index`, in table t, has component id (in t, or in its set). */
static inline bool ecs_sched__owns(const ecs_sched_world *w, const ecs_sched__table *t,
                                   uint32_t index, ecs_sched_id id) {
    const ecs_sched__sparse_set *s = w->sparse_count ? ecs_sched__sparse_of(w, id) : NULL;
    return s ? ecs_sched__sparse_slot(s, index) != 0 : ecs_sched__type_find(t, id) >= 0;
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

/* A relationship kind's value is a target, which only relate gives (the lists of sources
   must follow). */
static ecs_sched_result ecs_sched__kind_inserted(ecs_sched_world *w, ecs_sched_id kind,
                                                const char *operation) {
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "%s: '%s' is a relationship kind, which needs a target: use "
                           "ecs_sched_relate (or ecs_sched_commands_relate)", operation,
                           w->components[kind].name);
}

/* A component the library manages: a base's mark follows its IsA relationships (inherit.h). */
static ecs_sched_result ecs_sched__mark_touched(ecs_sched_world *w, ecs_sched_id mark,
                                                const char *operation) {
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "%s: '%s' marks the instances of a base and follows their IsA "
                           "relationships: use ecs_sched_relate / ecs_sched_unrelate with "
                           "ecs_sched_is_a", operation, w->components[mark].name);
}

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
        if (w->components[ids[i]].relation) return ecs_sched__kind_inserted(w, ids[i], operation);
        if (w->components[ids[i]].managed) return ecs_sched__mark_touched(w, ids[i], operation);
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

static size_t ecs_sched__default_alignment(size_t size) {
    size_t alignment = 1;
    if (size == 0) return 1;
    while (alignment < 16 && size % (alignment * 2) == 0) alignment *= 2;
    return alignment;
}

/* memcpy of one small value: fixed sizes let the compiler use plain moves instead of a call,
   which matters on the per-entity paths.
   Inlined where the caller passes a value of known size (say an 8-byte Position), gcc 12 at
   -O3 checks every case against that object, and warns (-Warray-bounds, -Wstringop-overread)
   that the 12- and 16-byte copies would read past it: it cannot know that `size` is the
   component's registered size, which the value has. Those warnings are off for these lines
   only. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
#if __GNUC__ >= 11
#pragma GCC diagnostic ignored "-Wstringop-overread"
#endif
#endif
static inline void ecs_sched__copy_value(void *dst, const void *src, size_t size) {
    switch (size) {
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    case 12: memcpy(dst, src, 12); break;
    case 16: memcpy(dst, src, 16); break;
    default: memcpy(dst, src, size); break;
    }
}

/* The same for zeroing a value. */
static inline void ecs_sched__zero_value(void *dst, size_t size) {
    switch (size) {
    case 4: memset(dst, 0, 4); break;
    case 8: memset(dst, 0, 8); break;
    case 12: memset(dst, 0, 12); break;
    case 16: memset(dst, 0, 16); break;
    default: memset(dst, 0, size); break;
    }
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

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

ecs_sched_storage ecs_sched_component_storage(const ecs_sched_world *w, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__component_valid(w, id) && w->components[id].sparse ? ECS_SCHED_STORAGE_SPARSE
                                                                        : ECS_SCHED_STORAGE_TABLE;
}

bool ecs_sched_component_is_tracked(const ecs_sched_world *w, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__component_valid(w, id) && w->components[id].tracked;
}

ecs_sched_id ecs_sched_component_lookup(const ecs_sched_world *w, const char *name) {
    int32_t id;
    ECS_SCHED__CHECK_WORLD(w);
    id = ecs_sched__name_map_get(&w->component_names, name);
    return id < 0 ? 0 : (ecs_sched_id)id;
}

const char *ecs_sched_component_name(const ecs_sched_world *w, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__component_valid(w, id) ? w->components[id].name : NULL;
}

size_t ecs_sched_component_size(const ecs_sched_world *w, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__component_valid(w, id) ? w->components[id].size : 0;
}

/* ---- entity index ---- */

static inline bool ecs_sched__is_live_record(const ecs_sched_world *w, ecs_sched_entity e) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    const ecs_sched__record *r;
    if (index == 0 || index >= w->record_count) return false;
    r = &w->records[index];
    return r->generation == ECS_SCHED_ENTITY_GENERATION(e) && r->table < ECS_SCHED__RESERVED;
}

/* The record of a live entity, or NULL: the same test with one branch fewer, for the paths
   that reach components by handle (record 0 is dead, so the null handle fails it). */
static inline const ecs_sched__record *ecs_sched__live_record(const ecs_sched_world *w,
                                                             ecs_sched_entity e) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    const ecs_sched__record *r;
    if (index >= w->record_count) return NULL;
    r = &w->records[index];
    return r->generation == ECS_SCHED_ENTITY_GENERATION(e) && r->table < ECS_SCHED__RESERVED
               ? r : NULL;
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

/* ---- which indices are handed out: the free lists and the entity range ---- */

static inline bool ecs_sched__in_entity_range(const ecs_sched_world *w, uint32_t index) {
    return !w->range_first || (index >= w->range_first && index <= w->range_last);
}

/* The entity range's derived bounds, set again whenever the range, the generation floors or
   (for fresh_end, which only gets too low) the record count change. */
static void ecs_sched__index_bounds(ecs_sched_world *w) {
    uint32_t last = w->range_first ? w->range_last : ECS_SCHED__MAX_INDEX;
    uint32_t first = w->generation_floor_capacity > w->range_first ? w->generation_floor_capacity
                                                                   : w->range_first;
    w->fresh_end = w->record_count < w->range_first ? 0 : last + 1u;
    if (first > last) {   /* index - UINT32_MAX is never 0: every release looks twice */
        w->release_first = UINT32_MAX;
        w->release_span = 0;
    } else {
        w->release_first = first;
        w->release_span = last - first;
    }
}

/* Room for one more dead index on the stack: at once for as many as there are records, so
   that a despawn of many copies nothing (the pages of the block are touched as it fills). */
ECS_SCHED__NOINLINE static bool ecs_sched__free_stack_grow(ecs_sched_world *w) {
    uint32_t needed = w->free_stack_count + 1;
    if (needed < w->record_count) needed = w->record_count;
    return ECS_SCHED__GROW(&w->env, w->free_stack, &w->free_stack_capacity, needed);
}

/* Lists a dead index for reuse: on the stack, its row its position there (so that spawn_at
   takes it off at once), or linked from free_head when the stack cannot grow. */
static void ecs_sched__list_index(ecs_sched_world *w, uint32_t index) {
    ecs_sched__record *r = &w->records[index];
    if (w->free_stack_count < w->free_stack_capacity || ecs_sched__free_stack_grow(w)) {
        r->row = w->free_stack_count;
        w->free_stack[w->free_stack_count++] = index;
    } else {
        r->row = w->free_head;
        w->free_head = index;
    }
    w->free_count++;
}

/* Takes a listed dead index off the free lists: the top of the stack fills its place. */
static void ecs_sched__unlist_index(ecs_sched_world *w, uint32_t index) {
    ecs_sched__record *r = &w->records[index];
    uint32_t at = r->row;
    if (at < w->free_stack_count && w->free_stack[at] == index) {
        uint32_t moved = w->free_stack[--w->free_stack_count];
        w->free_stack[at] = moved;
        w->records[moved].row = at;
    } else {   /* linked (the stack could not grow): found from free_head */
        uint32_t *link = &w->free_head;
        while (*link != index) link = &w->records[*link].row;
        *link = r->row;
    }
    r->row = ECS_SCHED__UNLISTED;
    w->free_count--;
}

/* Makes the records up to `index`, past the last one: those before it are dead and listed
   where spawns may hand them out (lowest first), `index` itself dead and unlisted, for the
   caller to take. False when out of memory, with nothing changed. */
static bool ecs_sched__index_reach(ecs_sched_world *w, uint32_t index) {
    uint32_t i, from = w->record_count;
    if (!ECS_SCHED__GROW(&w->env, w->records, &w->record_capacity, index + 1u)) return false;
    for (i = from; i <= index; i++) {
        w->records[i].table = ECS_SCHED__DEAD;
        w->records[i].row = ECS_SCHED__UNLISTED;
        w->records[i].generation = 0;
    }
    w->record_count = index + 1u;
    for (i = index; i-- > from;) {
        if (ecs_sched__in_entity_range(w, i)) ecs_sched__list_index(w, i);
    }
    return true;
}

/* Brings the free lists in line with the entity range: free indices outside it come off,
   unlisted ones inside it (every one, without a range) go back on, lowest handed out first. */
static void ecs_sched__index_lists_fit(ecs_sched_world *w) {
    uint32_t i, kept = 0, *link = &w->free_head;
    for (i = 0; i < w->free_stack_count; i++) {
        uint32_t index = w->free_stack[i];
        if (ecs_sched__in_entity_range(w, index)) {
            w->free_stack[kept] = index;
            w->records[index].row = kept++;
        } else {
            w->records[index].row = ECS_SCHED__UNLISTED;
            w->free_count--;
        }
    }
    w->free_stack_count = kept;
    while (*link != ECS_SCHED__NONE) {
        ecs_sched__record *r = &w->records[*link];
        if (ecs_sched__in_entity_range(w, *link)) {
            link = &r->row;
        } else {
            *link = r->row;
            r->row = ECS_SCHED__UNLISTED;
            w->free_count--;
        }
    }
    for (i = w->record_count; i-- > 1;) {
        const ecs_sched__record *r = &w->records[i];
        if (r->table == ECS_SCHED__DEAD && r->row == ECS_SCHED__UNLISTED &&
            ecs_sched__in_entity_range(w, i)) {
            ecs_sched__list_index(w, i);
        }
    }
    ecs_sched__index_bounds(w);
}

/* reserve_indices past fresh_end: the step up to the range's first index (the indices
   skipped are dead and unlisted), then the range's end or the largest index. */
ECS_SCHED__NOINLINE static bool ecs_sched__reserve_far_indices(ecs_sched_world *w, uint32_t count) {
    uint64_t needed;
    if (w->record_count < w->range_first && !ecs_sched__index_reach(w, w->range_first - 1u)) {
        return false;
    }
    ecs_sched__index_bounds(w);
    needed = (uint64_t)w->record_count + (count - w->free_count);
    if (needed > w->fresh_end) return false;
    return ECS_SCHED__GROW(&w->env, w->records, &w->record_capacity, (uint32_t)needed);
}

/* Makes sure `count` indices can be handed out without allocating. False when out of memory
   or out of indices (ecs_sched__indices_refused tells which). */
static inline bool ecs_sched__reserve_indices(ecs_sched_world *w, uint32_t count) {
    uint64_t needed;
    if (count <= w->free_count) return true;
    needed = (uint64_t)w->record_count + (count - w->free_count);
    if (needed > w->fresh_end) return ecs_sched__reserve_far_indices(w, count);
    return ECS_SCHED__GROW(&w->env, w->records, &w->record_capacity, (uint32_t)needed);
}

/* The failure of an ecs_sched__reserve_indices(w, count) that said no, for `what`. */
static ecs_sched_result ecs_sched__indices_refused(ecs_sched_world *w, uint32_t count,
                                                   const char *what) {
    uint64_t fresh = w->record_count > w->range_first ? w->record_count : w->range_first;
    uint64_t end = (uint64_t)(w->range_first ? w->range_last : ECS_SCHED__MAX_INDEX) + 1u;
    if (count <= w->free_count || fresh + (count - w->free_count) <= end) {
        return ecs_sched__out_of_memory(w, what);
    }
    if (!w->range_first) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_LIMIT,
                               "%s: every entity index up to %u is taken", what,
                               (unsigned)ECS_SCHED__MAX_INDEX);
    }
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_LIMIT,
                           "%s: the entity range [%u, %u] is used up (%u more wanted, %u free); "
                           "widen it with ecs_sched_set_entity_range, or despawn entities in it",
                           what, (unsigned)w->range_first, (unsigned)w->range_last,
                           (unsigned)count, (unsigned)w->free_count);
}

/* Hands out an index reserved with ecs_sched__reserve_indices. */
static uint32_t ecs_sched__take_index(ecs_sched_world *w) {
    uint32_t index;
    if (w->free_stack_count) {
        index = w->free_stack[--w->free_stack_count];
        w->free_count--;
    } else if (w->free_head != ECS_SCHED__NONE) {
        index = w->free_head;
        w->free_head = w->records[index].row;
        w->free_count--;
    } else {
        index = w->record_count++;
        w->records[index].generation = 0;
    }
    return index;
}

/* A despawn cannot fail: an index the stack has no room for (its growth failed) is linked
   from free_head instead. */
/* Registers a module's part of what snapshots hold (once; a second call does nothing). */
/* ---- the world's parts ---- */

#ifdef ECS_SCHED_THREADS
static atomic_uint ecs_sched__part_slots;   /* slots given so far */
static inline uint32_t ecs_sched__part_slot(const ecs_sched__part_key *key) {
    return atomic_load_explicit(&((ecs_sched__part_key *)(uintptr_t)key)->slot, memory_order_relaxed);
}
/* The key's slot, given now when it has none (by whichever world asks first). */
static uint32_t ecs_sched__part_slot_given(ecs_sched__part_key *key) {
    unsigned int none = 0, slot = ecs_sched__part_slot(key);
    if (slot) return slot;
    slot = atomic_fetch_add(&ecs_sched__part_slots, 1u) + 1u;
    ECS_SCHED_ASSERT(slot < ECS_SCHED__MAX_PARTS);
    if (!atomic_compare_exchange_strong(&key->slot, &none, slot)) slot = none;
    return slot;
}
#else
static uint32_t ecs_sched__part_slots;
static inline uint32_t ecs_sched__part_slot(const ecs_sched__part_key *key) {
    return key->slot;
}
static uint32_t ecs_sched__part_slot_given(ecs_sched__part_key *key) {
    if (!key->slot) {
        key->slot = ++ecs_sched__part_slots;
        ECS_SCHED_ASSERT(key->slot < ECS_SCHED__MAX_PARTS);
    }
    return key->slot;
}
#endif

/* The part a module keeps in the world under `key`, or NULL. */
static inline void *ecs_sched__part(const ecs_sched_world *w, const ecs_sched__part_key *key) {
    return w->parts[ecs_sched__part_slot(key)];
}

static void ecs_sched__part_set(ecs_sched_world *w, ecs_sched__part_key *key, void *part) {
    w->parts[ecs_sched__part_slot_given(key)] = part;
}

static void ecs_sched__snapshot_part_add(ecs_sched_world *w, const ecs_sched__snapshot_part *part) {
    int32_t i;
    for (i = 0; i < w->snapshot_part_count; i++) {
        if (w->snapshot_parts[i] == part) return;
    }
    ECS_SCHED_ASSERT(w->snapshot_part_count < ECS_SCHED__SNAPSHOT_PARTS);
    w->snapshot_parts[w->snapshot_part_count++] = part;
}

/* A released index whose entity came back with a restore skips the generations handed out
   on it in the abandoned timeline, so that none of those handles names a later entity. */
ECS_SCHED__NOINLINE static void ecs_sched__generation_skip(ecs_sched_world *w, uint32_t index) {
    uint32_t *floor = &w->generation_floor[index];
    if (*floor && w->records[index].generation < *floor) w->records[index].generation = *floor;
    *floor = 0;
}

/* The rare ends of releasing an index: a generation floor a restore left, an index outside
   the entity range (no spawn hands it out: it stays unlisted), a full free stack. */
ECS_SCHED__NOINLINE static void ecs_sched__release_index_slow(ecs_sched_world *w, uint32_t index) {
    if (index < w->generation_floor_capacity) ecs_sched__generation_skip(w, index);
    if (ecs_sched__in_entity_range(w, index)) ecs_sched__list_index(w, index);
    else w->records[index].row = ECS_SCHED__UNLISTED;
}

/* Small enough to inline into every despawn: one test (release_first and release_span) tells
   the common case from all the rare ones. */
static inline void ecs_sched__release_index(ecs_sched_world *w, uint32_t index) {
    ecs_sched__record *r = &w->records[index];
    r->table = ECS_SCHED__DEAD;
    r->generation++;
    if (ECS_SCHED__LIKELY((uint32_t)(index - w->release_first) <= w->release_span &&
                          w->free_stack_count < w->free_stack_capacity)) {
        r->row = w->free_stack_count;
        w->free_stack[w->free_stack_count++] = index;
        w->free_count++;
    } else {
        ecs_sched__release_index_slow(w, index);
    }
}

/* ---- world ---- */

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

ecs_sched_result ecs_sched_world_set_error_policy(ecs_sched_world *w,
                                                  ecs_sched_error_policy policy,
                                                  ecs_sched_error_hook hook) {
    ECS_SCHED__CHECK_WORLD(w);
    if ((unsigned)policy > (unsigned)ECS_SCHED_ON_ERROR_HOOK ||
        (policy == ECS_SCHED_ON_ERROR_HOOK && !hook.fn)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "world_set_error_policy: the policy is not one of "
                               "ECS_SCHED_ON_ERROR_DEFAULT, _STOP, _CONTINUE or _HOOK, or is "
                               "_HOOK without hook.fn");
    }
    if (policy == ECS_SCHED_ON_ERROR_DEFAULT) {
        policy = hook.fn ? ECS_SCHED_ON_ERROR_HOOK : ECS_SCHED_ON_ERROR_STOP;
    }
    w->on_error = policy;
    w->error_hook = hook;
    return ECS_SCHED_OK;
}

ecs_sched_pool *ecs_sched_world_pool(ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    if (!w->pool) {
        ecs_sched_pool_desc desc;
        memset(&desc, 0, sizeof desc);
        desc.thread_count = w->thread_count;
        desc.allocator = w->env.allocator;
        desc.logger = w->env.logger;
        w->pool = ecs_sched_pool_create(&desc);
        if (!w->pool) {
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_OUT_OF_MEMORY,
                            "the world's thread pool (%d threads) could not be created",
                            (int)w->thread_count);
        }
    }
    return w->pool;
}

/* ---- consistency check ---- */

static ecs_sched_result ecs_sched__inconsistent(ecs_sched_world *w, const char *what,
                                                unsigned a, unsigned b) {
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INCONSISTENT,
                           "world_check: %s (%u, %u)", what, a, b);
}

static ecs_sched_result ecs_sched__check_records(ecs_sched_world *w) {
    uint32_t i, live = 0, dead = 0, unlisted = 0, walked = 0, at;
    for (i = 1; i < w->record_count; i++) {
        const ecs_sched__record *r = &w->records[i];
        if (r->table == ECS_SCHED__DEAD) {
            dead++;
            if (r->row == ECS_SCHED__UNLISTED && ecs_sched__in_entity_range(w, i)) {
                return ecs_sched__inconsistent(w, "a free index spawns may take is on no free list", i, 0);
            }
            unlisted += r->row == ECS_SCHED__UNLISTED;
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
    for (i = 0; i < w->free_stack_count; i++) {
        at = w->free_stack[i];
        if (at == 0 || at >= w->record_count || w->records[at].table != ECS_SCHED__DEAD ||
            w->records[at].row != i || !ecs_sched__in_entity_range(w, at) || ++walked > dead) {
            return ecs_sched__inconsistent(w, "stack of free indices is broken", at, walked);
        }
    }
    for (at = w->free_head; at != ECS_SCHED__NONE; at = w->records[at].row) {
        if (at == 0 || at >= w->record_count || w->records[at].table != ECS_SCHED__DEAD ||
            !ecs_sched__in_entity_range(w, at) || ++walked > dead) {
            return ecs_sched__inconsistent(w, "free list is broken", at, walked);
        }
    }
    if (walked + unlisted != dead || walked != w->free_count) {
        return ecs_sched__inconsistent(w, "free list length", walked, dead);
    }
    return ECS_SCHED_OK;
}
