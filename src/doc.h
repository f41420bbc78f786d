/* ecs_sched.h - v0.3.0 - an entity component system for C99, with a Bevy-style scheduler
   License: MIT (the full text is at the end of this comment). No warranty.

   WHAT IT IS

     A single-header entity component system (ECS) for C99, usable from C++, written in the
     manner of the stb libraries: one file to copy, one macro to turn the implementation on,
     plain structs and functions, errors as values.

     Its scheduler is modelled on Bevy's "stageless" design: systems and system sets ordered
     with before/after/in_set, run conditions, states, a fixed timestep, and an executor that
     runs a schedule on one thread or on a work-stealing thread pool.

     It holds the WORLD (entities, components and tags registered at run time, archetype
     tables, resources, cached queries, deferred command buffers); the SCHEDULER (schedules
     stored by label, systems that declare their access, nested sets, before/after and chains,
     validation at build time, run conditions, exclusive systems, sync points, Graphviz
     export, a single-threaded executor, and, with ECS_SCHED_THREADS, a work-stealing thread
     pool, a parallel executor whose result is the single-threaded one to the byte, and
     parallel query iteration); STATES (state machines with OnEnter/OnExit/OnTransition
     schedules, a stack, computed states and sub-states); TIME (real, virtual and fixed clocks,
     the fixed timestep, time conditions); and THE APP (default schedules, the frame loop,
     plugins). Without ECS_SCHED_THREADS there is no thread code at all. Either way, a world
     must not be used by two of your threads at once: the library's own threads work inside a
     schedule run.

     Besides this file it needs stb_ds.h (Debian: libstb-dev; see INCLUDING IT), whose code
     is compiled once in your program: link -lstb, or define STB_DS_IMPLEMENTATION in one file.

   CONTENTS

     Including it ........ one implementation file, and where stb_ds's implementation comes from
     Configuration ....... compile-time macros and run-time hooks
     stb_ds .............. how the library shares stb_ds with your code
     Desc structs ........ every desc at a glance
     From C++ ............ descs without compound literals; threads from C++
     The world ........... entities, components, tags, tables, resources
     Queries ............. terms, iteration, access
     Command buffers ..... deferred structural changes
     The world's events .. change detection, removed components, observers, messages
     Disabled entities ... kept, with their components, out of the queries' sight
     Relationships ....... kinds, targets, sources, queries by target, what a despawn does
     Hierarchy ........... ChildOf, children in order, from_parent and cascade terms
     Names ............... names unique among siblings, lookups by name and by path
     Sorting ............. queries sorted by a component, grouped by a target
     Prefabs and inheritance  IsA, shared and overridden values, auto-override, instantiate
     Prefab data ......... a list of future entities made in one go onto a main entity
     JSON files .......... prefab data read from JSON, nested prefabs, assets, saving worlds
     Snapshots ........... a copy of the world's data, and a restore that brings it back
     Reflection .......... fields of a type: print, read and write by path, compare, hash
     Schedules ........... systems, sets, order, building and checking, conditions, sync points,
                           the executor, Graphviz export
     States .............. state machines, transitions, OnEnter/OnExit/OnTransition schedules,
                           state conditions, the stack, computed states, sub-states
     The app ............. default schedules and their order, the frame loop, exit, plugins
     Time ................ real, virtual and fixed clocks, the fixed step, time conditions
     Threads ............. ECS_SCHED_THREADS, the pool, the parallel executor, parallel queries
     Errors .............. the error rule: what each kind of call returns, what asserts
     API index ........... every public function, by module
     Example ............. a complete program
     License

   INCLUDING IT

     Include "ecs_sched.h" wherever you use the library. In exactly ONE .c (or .cpp) file,
     define ECS_SCHED_IMPLEMENTATION before including it:

         #define ECS_SCHED_IMPLEMENTATION
         #include "ecs_sched.h"

     The implementation uses stb_ds.h (Sean Barrett's dynamic arrays and hash maps; on Debian
     the package libstb-dev, found with `pkg-config stb`) and includes it as "stb_ds.h", so the
     directory holding it must be on the include path. stb_ds.h is itself a single-header
     library: its code must be compiled once in your program, in one of two ways.

       1. Link Debian's prebuilt copy, libstb (-lstb):

             cc -std=c99 -O2 $(pkg-config --cflags stb) game.c $(pkg-config --libs stb)

       2. Compile it yourself, in one of your files (it may be the ECS_SCHED_IMPLEMENTATION file):

             #define STB_DS_IMPLEMENTATION
             #include "stb_ds.h"

          and build without -lstb:

             cc -std=c99 -O2 -I path/to/stb game.c stb_ds_impl.c

     A link that fails with "undefined reference to stbds_hmget_key" (or another stbds_
     function) means neither was done. Nothing else is needed at build or run time: the
     library uses the C99 standard library.

   CONFIGURATION

     Define these before including ecs_sched.h. The ones marked (impl) matter only in the file
     that defines ECS_SCHED_IMPLEMENTATION.

     ECS_SCHED_IMPLEMENTATION
         Compile the implementation into this file. Once per program.

     ECS_SCHED_STATIC
         Together with ECS_SCHED_IMPLEMENTATION: give this one file a private copy of the
         library. Every public function is static, and those the file never calls cause no
         warnings.

     ECS_SCHED_API
         Storage class of every public function; default `extern` (`static` with
         ECS_SCHED_STATIC). Define it yourself to add attributes such as visibility.

     ECS_SCHED_REALLOC(ptr, size), ECS_SCHED_FREE(ptr)                                  (impl)
         The compile-time allocator; default realloc and free. Define both or neither.
         ECS_SCHED_REALLOC(NULL, size) allocates, and returning NULL is a failure the library
         recovers from (see ERRORS). Worlds created without a run-time allocator use these, and
         so do ecs_sched_stbds_realloc and ecs_sched_stbds_free (see STB_DS).

     ECS_SCHED_ASSERT(cond)                                                             (impl)
         Checks programmer errors that cannot be reported as a result, such as a NULL world.
         Default assert(cond) from <assert.h>.

     ECS_SCHED_ABORT()                                                                  (impl)
         Ends the process; called only after a failed allocation inside stb_ds that was routed
         through ecs_sched_stbds_realloc, which nothing can survive. Default abort().

     ECS_SCHED_LOG(level, result, message)                                              (impl)
         Where messages go when a world has no run-time logger, and the messages of the
         stb_ds bridge. `level` is an ecs_sched_log_level (ECS_SCHED_LOG_DEBUG, _INFO, _WARN,
         _ERROR, _FATAL), `result` the ecs_sched_result the message is about (see ERRORS),
         `message` a const char * without a trailing newline. Default: print warnings and
         worse to stderr. (Before v0.3 the macro took no `result`.)

     ECS_SCHED_JSON                                                                     (impl)
         Compile the JSON files (see JSON FILES): reading prefab data and writing entities
         through cJSON (Debian's libcjson-dev; link -lcjson). Without it the library needs
         nothing but stb_ds. Define it in the files that call the JSON functions too.

     ECS_SCHED_THREADS                                                                  (impl)
         Compile the thread pool and the parallel executor (see THREADS). The implementation
         file must then be compiled as C11 (<stdatomic.h>, _Thread_local) with POSIX threads:
         cc -std=c11 ... -lpthread. Without it the library is plain C99 with no thread, atomic
         or pthread code, and the pool API runs everything inline.

     ECS_SCHED_NO_MEMBARRIER                                                            (impl)
         With ECS_SCHED_THREADS on Linux: do not use the membarrier system call, so that a
         worker going to sleep never interrupts the other threads of the process; submitting
         and finishing tasks then pay an ordinary memory fence each.

     ECS_SCHED_PARALLEL_MIN_NS, ECS_SCHED_OFFER_MIN_NS, ECS_SCHED_WAKE_MIN_NS           (impl)
         With ECS_SCHED_THREADS: how the parallel executor decides (see THREADS). A schedule
         whose systems take less than PARALLEL_MIN_NS in all runs on the calling thread
         (default 4000); a thread offers half of its work to the others when that work is
         worth OFFER_MIN_NS (default 2000), and wakes a sleeping worker for an offer worth
         WAKE_MIN_NS (default 20000). Nanoseconds. 0, 0, 0 spreads every run as far as it
         goes, which is slower but shows, in tests, every way systems can overlap.

     ECS_SCHED_MAX_TERMS
         The most terms a query can have, and the number of fields of an iterator; default 16.

     ECS_SCHED_MAX_QUERIES
         The most queries a system or a condition declares; default 4.

     ECS_SCHED_MAX_RESOURCES
         The most resources a system or a condition reads, and the most it writes; default 8.

     ECS_SCHED_MAX_CONDITIONS
         The most run_if entries of one system, set or group; default 4.

     ECS_SCHED_MAX_REFS
         The most names in one in_set, before, after, before_ignore_deferred,
         after_ignore_deferred or ambiguous_with list; default 8.

     ECS_SCHED_MAX_STATE_VALUES
         The most values of one state machine (see STATES); default 32.

     ECS_SCHED_MAX_STATE_SOURCES
         The most machines one computed state is computed from; default 8.

     The seven MAX macros size arrays in public structs, so every file of a program that
     includes ecs_sched.h must see the same values: define them on the compiler's command line,
     as plain integer literals (2, not (2)). A file that sees other values than the
     implementation's does not link (gcc, clang and tcc): each file refers to a function whose
     name spells out the values it saw, and only the implementation's exists. The linker then
     names what the file wanted, e.g.

         undefined reference to `ecs_sched_implementation_with_MAX_TERMS_16_MAX_QUERIES_4_
             MAX_RESOURCES_8_MAX_CONDITIONS_4_MAX_REFS_2_MAX_STATE_VALUES_32_MAX_STATE_SOURCES_8'

     (one name, split here): this file has ECS_SCHED_MAX_REFS 2, the implementation another
     value. Give every file the same values. ECS_SCHED_THREADS changes no public struct, so
     files may differ on it (a C++ or C99 file can use a threaded implementation).

     At run time, ecs_sched_world_desc gives a world its own hooks. A zeroed desc, or a NULL
     pointer, means the defaults above:

         typedef struct ecs_sched_world_desc {
             ecs_sched_allocator allocator;  // realloc_fn(ptr, size, user_data),
                                             // free_fn(ptr, user_data), user_data
             ecs_sched_logger logger;        // fn(level, result, message, user_data),
                                             // user_data
             int32_t entity_capacity;        // entities to make room for up front
             int32_t thread_count;           // the world's pool; 0: hardware threads
             ecs_sched_executor executor;    // for schedules that do not choose one
             ecs_sched_error_policy on_error; // STOP, CONTINUE or HOOK (see ERRORS)
             ecs_sched_error_hook error_hook; // fn(failure, user_data), user_data
         } ecs_sched_world_desc;

     The allocator is used only when both realloc_fn and free_fn are set. realloc_fn(NULL, n)
     allocates, it is never asked for 0 bytes, and it may return NULL. The logger receives
     every message of that world (one at a time, from a worker thread too), including a copy
     of every error, with its result code: the
     failure's code for errors, the rule's code for warnings (a build that warns about an
     ambiguity passes ECS_SCHED_ERR_AMBIGUITY), ECS_SCHED_OK for other messages. (Before v0.3
     the logger had no `result` parameter: add one to existing loggers.)

     Every desc struct of the library (world, pool, component, schedule, system, set) follows
     the same rule: a zero field means its default, resolved once when the desc is used.

   STB_DS

     The implementation includes stb_ds.h with STBDS_NO_SHORT_NAMES defined, so it adds no
     short macros (arrput, hmget, shput...) to your code, and your use of stb_ds does not clash
     with the library's:

       - In files that only include ecs_sched.h (without the implementation), nothing about
         stb_ds is visible. Include stb_ds.h there as you like, before or after.
       - In the file that defines ECS_SCHED_IMPLEMENTATION: if stb_ds.h was included before
         ecs_sched.h, the library uses that inclusion as it is, short names and all. So to use
         the short names in that same file, include stb_ds.h BEFORE ecs_sched.h. Included
         after, it does nothing (its include guard is already set) and the short names are
         missing.

     stb_ds cannot recover from a failed allocation: it writes through the pointer its realloc
     returned without checking it. For that reason the library keeps everything that grows as a
     program runs (the entity index, the table columns, the command buffers) in its own checked
     allocations, and uses stb_ds only for its name maps (component names to ids).

     If you compile stb_ds's implementation yourself, you can route its allocations through the
     library's hooks, so that a failure becomes an orderly stop (logged with ECS_SCHED_LOG at
     FATAL level, then ECS_SCHED_ABORT()) instead of a write through a NULL pointer:

         #include "ecs_sched.h"       // declares the two functions below
         #define STBDS_REALLOC(c, p, s) ecs_sched_stbds_realloc(c, p, s)
         #define STBDS_FREE(c, p)       ecs_sched_stbds_free(c, p)
         #define STB_DS_IMPLEMENTATION
         #include "stb_ds.h"

     The two functions allocate with ECS_SCHED_REALLOC and ECS_SCHED_FREE. stb_ds's arrfree is
     a macro that calls STBDS_FREE where it is used, so define the two STBDS_ macros the same
     way in every file that includes stb_ds.h, including the implementation file of this
     library (define them there before including ecs_sched.h).

     In C++, stb_ds's own implementation does not compile cleanly with -Wextra -Werror; link
     -lstb or compile stb_ds in a C file. With gcc in strict -std=c99 mode, stb_ds's hmput and
     hmget with non-string keys need `typeof`: compile with -std=gnu99, or define typeof as
     __typeof__ before including stb_ds.h. Neither affects the library, which uses only
     string maps.

   DESC STRUCTS

     Every desc at a glance (the world's is under CONFIGURATION); the declarations further
     down carry the same comments. Zero means the default; arrays end at the first zero entry.

         typedef struct ecs_sched_component_desc {   // ecs_sched_component_register
             const char *name;                       // required, unique in the world
             size_t size;                            // 0 registers a tag
             size_t alignment;                       // 0: largest power of two dividing
                                                     // size, at most 16
             ecs_sched_type_hooks hooks;             // ctor, dtor, copy, move, ctx
         } ecs_sched_component_desc;

         typedef struct ecs_sched_query_desc {       // ecs_sched_query_create, .queries
             ecs_sched_term terms[ECS_SCHED_MAX_TERMS];  // ecs_sched_read(id), _write,
         } ecs_sched_query_desc;                         // _optional_read/_write, _without

         typedef void (*ecs_sched_system_fn)(ecs_sched_system_ctx *ctx);

         typedef struct ecs_sched_system_desc {      // ecs_sched_add_system
             const char *name;                       // default "system"
             ecs_sched_system_fn fn;                 // required
             void *user_data;                        // ecs_sched_ctx_user_data
             ecs_sched_query_desc queries[ECS_SCHED_MAX_QUERIES];
             ecs_sched_id reads[ECS_SCHED_MAX_RESOURCES], writes[...];   // resources
             bool exclusive, commands, main_thread;
             bool ambiguous_with_all;                // and, as in every node desc below:
             const char *in_set[ECS_SCHED_MAX_REFS], *before[...], *after[...],
                        *before_ignore_deferred[...], *after_ignore_deferred[...],
                        *ambiguous_with[...];        // names of systems or sets
             const ecs_sched_condition *run_if[ECS_SCHED_MAX_CONDITIONS];
         } ecs_sched_system_desc;

         typedef struct ecs_sched_set_desc {         // ecs_sched_configure_set
             const char *name;                       // required
             // in_set, before, after, ..., run_if, ambiguous_with as above
         } ecs_sched_set_desc;

         typedef struct ecs_sched_systems_desc {     // ecs_sched_add_systems
             const ecs_sched_system_desc *systems;
             int32_t count;
             bool chain, chain_ignore_deferred;
             // in_set, before, after, ..., shared by the group, as above
         } ecs_sched_systems_desc;

         typedef struct ecs_sched_schedule_desc {    // ecs_sched_schedule_configure
             const char *default_set;                // systems added without in_set
             ecs_sched_report cross_set_dependencies, unknown_sets, ambiguities,
                              duplicate_names;       // IGNORE, WARN, ERROR (see SCHEDULES)
             bool no_auto_sync;
             uint64_t shuffle_seed;
             ecs_sched_executor executor;            // default: the world's
             ecs_sched_error_policy on_error;        // default: the world's (see ERRORS)
         } ecs_sched_schedule_desc;

         typedef struct ecs_sched_condition {        // a run condition, by value
             ecs_sched_condition_kind kind;          // FN (0) or a built-in (use the
             const char *name;                       // ecs_sched_condition_... makers)
             bool (*fn)(ecs_sched_system_ctx *ctx);  // FN: reads only
             void *user_data;
             ecs_sched_query_desc queries[ECS_SCHED_MAX_QUERIES];
             ecs_sched_id reads[ECS_SCHED_MAX_RESOURCES], writes[...];   // writes: refused
             // resource, state_value, duration_ns, value, value_size, equals,
             // operands: filled by the makers
         } ecs_sched_condition;

         typedef struct ecs_sched_state_desc {       // ecs_sched_state_register
             const char *name;                       // required
             const char *values[ECS_SCHED_MAX_STATE_VALUES];   // required, value i's name
             int32_t initial, stack_capacity;        // 0 and 8
             ecs_sched_id sources[ECS_SCHED_MAX_STATE_SOURCES];  // computed states:
             ecs_sched_state_compute_fn compute;                 // compute(source values)
             void *user_data;
             ecs_sched_id parent;                    // sub-states: exists while parent's
             bool parent_values[ECS_SCHED_MAX_STATE_VALUES];   // value is marked here
         } ecs_sched_state_desc;

         typedef struct ecs_sched_app_desc {         // ecs_sched_app_create
             ecs_sched_world_desc world;
             ecs_sched_time_desc time;               // clock, sleep, clock_user_data,
         } ecs_sched_app_desc;                       // fixed_step_ns, max_delta_ns,
                                                     // max_steps_per_frame
         typedef struct ecs_sched_app_run_desc {     // ecs_sched_app_run
             int64_t frame_ns, delta_ns, max_frames; // pace, fixed delta, frame limit
         } ecs_sched_app_run_desc;

         typedef struct ecs_sched_plugin {           // ecs_sched_app_add_plugin
             const char *name;                       // required
             ecs_sched_result (*build)(ecs_sched_app *app, void *user_data);
             void *user_data;
             const struct ecs_sched_plugin *needs[ECS_SCHED_MAX_REFS];
             ecs_sched_plugin_set exports[ECS_SCHED_MAX_REFS];   // {schedule, set}
         } ecs_sched_plugin;

         typedef struct ecs_sched_pool_desc {        // ecs_sched_pool_create
             int32_t thread_count, queue_capacity;   // 0: hardware threads, 4096
             ecs_sched_allocator allocator;
             ecs_sched_logger logger;
         } ecs_sched_pool_desc;

     In C, fill one with a compound literal and designated initializers, as the examples do;
     in C++, see FROM C++.

   FROM C++

     The header and its implementation compile as C++11 and later (g++, clang++). C++ has no
     compound literals, and before C++20 no designated initializers, so declare a desc zeroed
     with {} and assign its fields; cast the void * results:

         ecs_sched_system_desc desc{};              // every field its default
         desc.name = "move";
         desc.fn = move;
         desc.queries[0].terms[0] = ecs_sched_write(pos);
         desc.queries[0].terms[1] = ecs_sched_read(vel);
         desc.after[0] = "input";
         ecs_sched_add_system(w, "Update", &desc);
         Frames *f = static_cast<Frames *>(ecs_sched_ctx_resource_mut(ctx, frames_id));

     C++20 designated initializers work in declaration order (name before fn before
     queries...): ecs_sched_system_desc desc{.name = "move", .fn = move}; g++ then warns about
     every field left out under -Wextra: add -Wno-missing-field-initializers. With
     ECS_SCHED_THREADS, compile the implementation in a C11 file (a .c built with -std=c11) and
     include the header without the implementation in your C++ files; examples/hello.cpp is a
     complete program.

   THE WORLD

     ecs_sched_world *w = ecs_sched_world_create(NULL);  ...  ecs_sched_world_destroy(w);

     Entities. An ecs_sched_entity is a 64-bit handle: an index in the low 32 bits and a
     generation in the high 32 bits (ECS_SCHED_ENTITY_INDEX(e), ECS_SCHED_ENTITY_GENERATION(e)).
     A despawned entity's index is reused with a new generation, so an old handle is detected as
     stale (ECS_SCHED_ERR_STALE_ENTITY) and never reads another entity's data.
     ECS_SCHED_NULL_ENTITY (0) is never alive.

     Components are registered at run time by name, size and alignment, and get an
     ecs_sched_id (never 0) that is valid in that world only:

         ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);   // name "Position"
         ecs_sched_id dead = ECS_SCHED_TAG(w, Dead);             // size 0: a tag, no data
         ecs_sched_id hp = ecs_sched_component_register(w, &(ecs_sched_component_desc){
             .name = "Health", .size = sizeof(Health), .hooks = {.dtor = health_dtor}});

     Registering a name again with the same layout returns the same id; with another layout it
     fails. A component may have ctor/dtor/copy/move hooks (ecs_sched_type_hooks) for values
     that own memory; without them values are zeroed, copied and moved as bytes.

     Storage. Entities with the same set of components live in one archetype table, which
     stores each component as a contiguous column. Adding or removing a component moves the
     entity to another table. Pointers into the world (from ecs_sched_get, ecs_sched_get_mut,
     ecs_sched_resource_get and query fields) are valid until the next structural change:
     spawn, despawn, insert, remove, a resource insert or remove, or applying commands.

     Entity functions: ecs_sched_spawn, ecs_sched_spawn_with (several components at once),
     ecs_sched_spawn_batch (many entities with the same components, all or nothing),
     ecs_sched_despawn, ecs_sched_is_alive, ecs_sched_insert (add or overwrite),
     ecs_sched_insert_many (one table move), ecs_sched_remove, ecs_sched_get, ecs_sched_get_mut,
     ecs_sched_has. A NULL value gives a new component its default value (the ctor hook, or
     zero bytes) and leaves a present one unchanged. A value passed to an insert must not
     point into the world: copy it out first.

     Resources are one value per component type, owned by the world rather than by an entity:
     ecs_sched_resource_insert, _get, _get_mut, _remove, _exists. One inserted with
     ecs_sched_resource_insert_non_send is main-thread-only (a window, a GL context; asked with
     ecs_sched_resource_is_non_send): the systems that declare it, and those a condition
     reading it guards, run on the thread that runs the schedule, and a system context refuses
     it (ECS_SCHED_ERR_ACCESS) on any other thread. Insert it before the schedules that use it
     are built.

   QUERIES

     A query lists terms, each a component id and an access kind:

         ecs_sched_read(id)             required, read        field points at the column
         ecs_sched_write(id)            required, written     field points at the column
         ecs_sched_optional_read(id)    not required          field NULL where absent
         ecs_sched_optional_write(id)   not required          field NULL where absent
         ecs_sched_without(id)          must be absent        field always NULL
         ecs_sched_added(id)            required, read        rows added since the last look
         ecs_sched_changed(id)          required, read        rows changed since the last look
         ecs_sched_write_manual(id)     required, written     marks only the rows it marks

     (the last three: see THE WORLD'S EVENTS)

     The list ends at ECS_SCHED_MAX_TERMS or at the zero term (what a zeroed term is: id 0,
     kind ECS_SCHED_TERM_DEFAULT, which reads). A term with id 0 and a kind, such as
     ecs_sched_read(id) of an id never registered, or a term after the zero term, is refused
     when the query (or the system) is made, naming the term's position. The world owns the
     query and keeps its list of matching tables up to date as tables appear. Iteration visits
     one table at a time; fields are numbered as the terms are, and a tag's field is NULL:

         ecs_sched_iter it = ecs_sched_query_iter(q);
         while (ecs_sched_iter_next(&it)) {
             Position *p = ECS_SCHED_FIELD(&it, Position, 0);
             for (int32_t i = 0; i < it.count; i++) ...   // it.entities[i] is the entity
         }

     The fields describe the table the last ecs_sched_iter_next returned true for; before the
     first call, and for fields past the query's terms, they are unspecified.

     Do not spawn, despawn, insert or remove while iterating: record those changes in a
     command buffer and apply it afterwards. ecs_sched_query_count gives the number of matching
     entities; ecs_sched_query_access lists the ids a query reads and the ids it writes, the
     information a scheduler needs to tell which systems may run at the same time.

   COMMAND BUFFERS

     A command buffer (ecs_sched_commands_create) records spawn, despawn, insert, remove and
     set-resource commands to apply later with ecs_sched_commands_apply. The rules:

       - Order: commands are applied in the order they were recorded.
       - Reserved handles: ecs_sched_commands_spawn returns the new entity's handle at once; the
         entity comes alive when the buffer is applied, and later commands of the same buffer
         may already name it.
       - Values: the bytes of an inserted value are copied into the buffer when recorded.
       - Skipped commands: a command aimed at an entity that is dead when its turn comes is
         skipped, not an error; ecs_sched_commands_skipped tells how many the last apply
         skipped.
       - Apply consumes: applied commands leave the buffer. If an apply fails, the commands not
         yet applied stay pending and the next apply continues there; no command is ever
         applied twice. ecs_sched_commands_pending counts what is left.
       - Destroying a buffer drops its pending commands and releases the handles they reserved.

   THE WORLD'S EVENTS

     Change detection. A component registered with .tracked = true
     (ECS_SCHED_TRACKED_COMPONENT(w, T)) keeps, per entity, the change tick it was added and
     the tick it last changed; untracked components pay nothing. The world's tick moves on as
     systems run: each system and condition takes one per run (while anything is tracked) and
     remembers the one before. What counts as a change: an insert (added and changed), an
     insert over a present value, ecs_sched_get_mut, a command applied, and handing out a row
     through a written query term (ecs_sched_write, ecs_sched_optional_write): every row a
     loop is handed counts as changed. A loop that writes only some rows uses
     ecs_sched_write_manual(id) instead and marks each row it changes with
     ecs_sched_iter_mark_changed(&it, term, row). Query filters:

         ecs_sched_added(id)      required, read; the rows whose component was added
         ecs_sched_changed(id)    required, read; the rows whose value changed (or was added)

     since the querying system's previous run (its first run sees every row), or, outside
     systems, since the query's previous iteration (which takes a tick of its own). They count
     as reads for access and ambiguity, and ask for a tracked component (else the query is
     refused, ECS_SCHED_ERR_INVALID_QUERY). A filtered query hands out runs of rows (it.count
     may be 1), in the order the rows changed when the component's change log covers the
     window, else in table order. When few rows of many change, a run is often one row, and
     a call per row costs more than the row: read such a query by index instead, up to
     ECS_SCHED_ITER_ROWS rows of a table per call, with no call per row:

         while (ecs_sched_iter_next_rows(&it)) {
             Position *p = ECS_SCHED_FIELD(&it, Position, 0);   // the table's first row
             for (int32_t i = 0; i < it.count; i++) p[it.rows[i]].x += 1;
         }

     (it.entities[it.rows[i]] is the row's entity; ecs_sched_iter_mark_changed's row is then
     i, the index into it.rows.) Any query can be read so. A system that a condition skips
     keeps its window: when it
     runs again it sees every change since it last ran, once. Resources: the conditions
     ecs_sched_condition_resource_added and _resource_changed, each since its own previous
     evaluation. Ticks are 32-bit and wrap; at the start of schedule runs, once every 2^29
     ticks, ticks older than about 3 billion are moved up in an order that keeps every answer,
     so a system that has not run for any time sees exactly what changed since it did
     (ecs_sched_change_tick reads the tick; ecs_sched_change_tick_advance moves it on, for
     tests).

     Removed components. A tracked component also keeps the entities that lost it (removed,
     or despawned with it), read like messages: ecs_sched_ctx_removed(ctx, id) in a system
     (nothing to declare), or a cursor from ecs_sched_removed_cursor_make read with
     ecs_sched_message_read. They live as messages do (two updates), so a system that stops
     running for two updates or more loses the oldest, and its read counts them as missed.
     The condition ecs_sched_condition_any_component_removed(id) is true when some came since
     it last looked.

     Observers. ecs_sched_observer_add(w, &desc) registers a function for an event on a
     component: ECS_SCHED_ON_ADD (the entity gains it), ECS_SCHED_ON_INSERT (a value is
     written: an insert, new or over an old value, a spawn with it, a command; after ON_ADD),
     ECS_SCHED_ON_REMOVE (about to lose it: remove, despawn, the world's destruction; the value
     is still readable), or ECS_SCHED_ON_DESPAWN (component 0, about to be despawned, before
     the ON_REMOVEs), filtered by .with and .without. Observers run where the change happens
     (a direct call, the application of a command buffer on the thread applying it, a batch
     spawn, once per entity), in the order they were added; the parallel executor makes
     structural changes on one thread only, so they run as on the single-threaded one. An
     observer gets a context like an exclusive system's (ecs_sched_ctx_world, _user_data,
     _commands, _fail) and the trigger (event, entity, component). Inside it, reading the
     world and writing values (ecs_sched_get_mut) happen at once; spawn, insert, remove,
     despawn and resource inserts through the world are deferred into the observer's command
     buffer, applied when the operation that called it is complete (a spawn returns a handle
     that comes alive then), which may call observers in turn (at most 1000 rounds). Running a
     schedule, applying commands or state transitions, adding or removing observers and
     removing a resource are refused inside an observer (ECS_SCHED_ERR_ACCESS). A failing
     observer (ecs_sched_ctx_fail, or a failed call left unhandled) fails the system that made
     the change, its message "system 'x' in schedule 'S': observer 'o': ...", or, outside
     systems, sets the world's last error ("observer 'o': ..."). ecs_sched_observer_remove
     takes an observer away (its id again: ECS_SCHED_ERR_INVALID_ARGUMENT).

     Messages. A message type is registered like a component (ecs_sched_message_register,
     ECS_SCHED_MESSAGE(w, Hit)); its id goes in .writes of a system that sends
     (ecs_sched_ctx_send copies one, ecs_sched_ctx_send_new hands out a zeroed one to fill,
     ecs_sched_ctx_send_batch copies an array) and in .reads of a system that reads
     (ecs_sched_ctx_messages): a sender and a reader conflict as a writer and a reader do, and
     two senders as two writers (the executor never runs them at once; order them, or accept
     the ambiguity). A reader gets every message sent since it last read, in send order, once,
     in at most two runs (ecs_sched_messages_next); readers run after a sender in the same run
     see its messages. Outside systems: ecs_sched_send, ecs_sched_send_batch, and a cursor of
     your own (ecs_sched_message_cursor_make, ecs_sched_message_read,
     ecs_sched_message_unread). Messages are double-buffered: ecs_sched_messages_update drops
     those sent before the previous update, so a message lives for two updates; a reader that
     falls further behind loses the oldest and its read's `missed` counts them (it never reads
     anything else). An app updates the queues at the start of a frame when a fixed step ran
     since the last update: a reader in FixedUpdate then misses nothing however many frames
     pass without a step, and a reader reads each message once however many steps run. A
     world without an app calls ecs_sched_messages_update itself, once a frame. The condition
     ecs_sched_condition_on_message(id) is true when messages came since it last looked (it
     has a cursor of its own). ecs_sched_message_scope_to_state drops a type's messages when a
     state machine leaves (or reaches) a value; readers do not count them missed. A type's dtor
     hook runs on the messages dropped.

   DISABLED ENTITIES

     ecs_sched_disable(w, e) keeps an entity and its components but hides it from every query
     (and so every system) that does not ask for disabled entities; ecs_sched_enable(w, e)
     shows it again, ecs_sched_is_disabled(w, e) tells. A query asks by naming the Disabled
     tag: an optional term sees disabled entities as well as the others, a required one only
     them.

         ecs_sched_id disabled = ecs_sched_disabled_tag(w);
         .terms = {ecs_sched_read(pos), ecs_sched_optional_read(disabled)}   // every one
         .terms = {ecs_sched_read(pos), ecs_sched_read(disabled)}            // disabled only

     The tag is a component named "ecs_sched.Disabled" that every world registers: disabling
     moves the entity to other tables, so it is a structural change (from a system, record
     ecs_sched_commands_disable / _enable), observers hear the tag's ON_ADD and ON_REMOVE, and
     iteration costs nothing more. ecs_sched_get, ecs_sched_insert, commands and despawn work
     on a disabled entity as on any other. Prefabs (entities with the tag
     ecs_sched_prefab_tag(w), "ecs_sched.Prefab") are hidden the same way.

   RELATIONSHIPS

     A relationship kind is a component whose value is a target entity (then an optional
     payload): ecs_sched_relation_register(w, &(ecs_sched_relation_desc){.name = "Likes"}).
     ecs_sched_relate(w, alice, likes, bob, payload) relates alice to bob; an exclusive kind
     (.exclusive = true) keeps one target per source, and relating again replaces it.
     ecs_sched_unrelate takes one away, ecs_sched_remove(w, e, kind) all of them.
     ecs_sched_target, _target_count, _has_relation and _relation_payload read a source's
     side; ecs_sched_sources(w, kind, bob, &n) lists who relates to bob, in order.

         .terms = {ecs_sched_related(likes, bob)}   // the sources of bob only
         .terms = {ecs_sched_read(likes)}           // any target: the field is the first
         .terms = {ecs_sched_without(likes)}        // none

     Storage: the first target sits in the source's table like any value (a column of
     struct { ecs_sched_entity target; P payload; }), further targets and each target's list
     of sources beside the tables. A world of many parents with few children each keeps one
     table per set of components: measured on 100k parents of 1-3 children, one table per
     parent (the other classic design) iterated 8.8 times slower, this one as fast as a flat
     world. A related term tests each row of its tables; ecs_sched_sources is the cheap way
     to a target's sources.

     .on_target_despawn says what despawning a target does: ECS_SCHED_TARGET_REMOVE (the
     default) takes the relationship from its sources, _DESPAWN_SOURCES despawns them (and
     theirs, recursively), _REFUSE fails the despawn (ECS_SCHED_ERR_REFUSED, naming both)
     while sources remain. .acyclic refuses relating an entity to its own descendant
     (ECS_SCHED_ERR_RELATION_CYCLE, with the path). A kind counts as a component for access
     and ambiguity; it cannot be inserted like one (relate gives the target); a query may
     write a kind's payload, never its target. Observers of a kind hear ON_ADD, ON_INSERT and
     ON_REMOVE per relationship, with trigger->target set. ecs_sched_commands_relate and
     _unrelate record them; one whose target died by the time it is applied is skipped.

   HIERARCHY

     ChildOf (ecs_sched_child_of(w), "ecs_sched.ChildOf") is an exclusive, acyclic kind
     registered by every world; despawning a parent despawns its subtree.
     ecs_sched_set_parent(w, child, parent) (NULL parent: a root), ecs_sched_set_parent_at
     (at an index among the children; for a child already there, a move), ecs_sched_parent_of,
     ecs_sched_children (in their order), ecs_sched_depth, ecs_sched_ancestors (the parent
     first) and ecs_sched_descendants (ECS_SCHED_DEPTH_FIRST or _BREADTH_FIRST) walk it.

         .terms = {ecs_sched_write(global), ecs_sched_read(local),
                   ecs_sched_optional_from_parent(global),   // the parent's value, per row
                   ecs_sched_cascade(ecs_sched_child_of(w))}  // parents before children
         const Global *const *parent = ECS_SCHED_PARENT_FIELD(&it, Global, 2);
         global[i] = parent[i] ? compose(parent[i], &local[i]) : local[i];

     A from_parent term's field holds one pointer per row (NULL where the row has no parent,
     or the parent lacks the component; a required from_parent term skips those rows). A
     cascade term hands out every parent before its children: in table order when that
     already does (entities parented in the order they were made), else in depth order. Such
     a query keeps the list of its rows with the parents' pointers, made again at its first
     iteration after any row joined or left a table or a relationship changed (one pass over
     its rows and their ancestors); an unchanged iteration walks the list in runs of
     consecutive rows. ecs_sched_query_par_iter runs such a query's pieces one after the
     other, in order. A hierarchical query cannot also filter on added or changed terms.

   NAMES

     ecs_sched_set_name(w, e, "turret") names an entity; names are unique among the children
     of one parent and among the roots (ECS_SCHED_ERR_NAME_CLASH names both entities, and a
     reparenting into a clash is refused the same way). ecs_sched_lookup(w, scope, name)
     finds a child by name (scope 0: a root), ecs_sched_lookup_path(w, 0, "ship.turret.barrel",
     NULL) follows a path (the separator is the last argument, "." by default;
     ECS_SCHED_ERR_NOT_FOUND names the part that did not resolve), and ecs_sched_path writes
     an entity's path. Lookups are hashed by (parent, name). Names appear in error messages:
     "entity 5 'turret'".

   PREFABS AND INHERITANCE

     A prefab is an entity with the Prefab tag (hidden from queries, like a disabled entity)
     used as a template. IsA (ecs_sched_is_a(w), "ecs_sched.IsA") relates an instance to its
     base: the instance sees every component of the base it does not own.

         ecs_sched_entity orc = ecs_sched_spawn_with(w, 2, (ecs_sched_id[]){hp, prefab}, ...);
         ecs_sched_entity grunt = ecs_sched_instantiate(w, orc);   // IsA orc, and its children
         ecs_sched_get(w, grunt, hp);         // the orc's value, shared
         ecs_sched_get_mut(w, grunt, hp);     // overrides: a copy the grunt owns, then writes
         ecs_sched_remove(w, grunt, hp);      // shares the orc's value again

     ecs_sched_has counts inherited components, ecs_sched_owns only the entity's own;
     ecs_sched_owner says whose value an entity sees. Inserting a component overrides it too.
     Bases nest (a base may have bases) and an instance may have several. The rule: the
     entity's own value, else the nearest base with the component (fewest IsA steps up);
     at equal distance, the first found walking the entity's bases in the order they became
     bases (whatever order they were given in), each base's own bases in the same order. Relationships, the Prefab and Disabled tags are never inherited: an instance of a
     prefab is not a prefab. ecs_sched_auto_override(w, base, id) makes every instance made
     from then on own a copy (each orc its own Health, but one shared Sprite).

     ecs_sched_instantiate(w, prefab) makes one instance of the prefab and one of each of its
     descendants, placed the same way under the new root (same order, same names; the root
     gets no name and no parent), each an instance of its own prefab entity, in one step per
     entity: all or nothing. ecs_sched_commands_instantiate records it; a prefab despawned
     before the buffer is applied makes the command skipped. A base with instances cannot be
     despawned (ECS_SCHED_ERR_REFUSED names them); an IsA cycle is refused
     (ECS_SCHED_ERR_RELATION_CYCLE).

     Queries: a term matches what the entity owns, as in Bevy, unless it asks for inherited
     values (flecs matches both by default; here a plain query never reads another entity's
     data behind the scheduler's back, and costs what it did):

         .terms = {ecs_sched_inherited(hp), ecs_sched_write(pos)}
         const Hp *h = ECS_SCHED_FIELD(&it, Hp, 0);
         if (ecs_sched_field_is_shared(&it, 0)) ...   // one value for every row
         ECS_SCHED_FIELD_AT(&it, Hp, 0, i)            // row i's value, shared or not

     Instances of one base share a table (each base gives its instances a tag of its own, a
     "mark"), so a base's value is one value per table, found once per iteration. A table
     whose entities own the component hands out one value per row. An inherited term is
     read-only (get_mut or a command overrides) and counts as a read of the component for the
     scheduler: a system writing it, on the base or anywhere, is ordered against the reader.
     It cannot be combined with hierarchical or sorted terms.

   PREFAB DATA

     Prefab data is a list of future entities: each entry has an optional parent entry, an
     optional name and component values (copied in with the copy hooks). Entry 0 is the main
     entry.

         ecs_sched_prefab_data *d = ecs_sched_prefab_data_create(w);
         int32_t ship = ecs_sched_prefab_data_add(d, -1);        // the main entry
         int32_t gun = ecs_sched_prefab_data_add(d, ship);       // under it
         ecs_sched_prefab_data_set(d, gun, ammo, &(Ammo){20});
         ecs_sched_prefab_data_set_name(d, gun, "gun");
         ecs_sched_prefab_data_instantiate(w, d, player, made);  // onto `player`, or 0: new

     ecs_sched_prefab_data_instantiate puts entry 0's values on the main entity (one move;
     it keeps what it had) and makes one entity per other entry, ChildOf its parent entry's,
     each placed directly in its final table. ecs_sched_prefab_data_set_entity makes an entity
     field of a value name another entry (filled with the entity made of it), and
     ecs_sched_prefab_data_relate relates two entries' entities (IsA makes one an instance
     of the other): those relationships are made after the entities, and a failure there
     despawns what was made. Checked first, with nothing made: a parent index out of range or
     a cycle of parents (the entries named), sibling entries with one name, a root name the
     world has, a main entry with a parent when a main entity is given, a dead main entity,
     data of another world. ecs_sched_commands_prefab_data_instantiate records it (the data
     must live until the buffer is applied). Relationship kinds and bases' marks are not
     values (set_parent and relate give them).

   JSON FILES

     With ECS_SCHED_JSON: ecs_sched_prefab_data_load(w, "ship.json", &desc) and
     ecs_sched_prefab_data_from_json(w, text, &desc) read prefab data; ecs_sched_json_save
     writes entities in the same format. A file:

         {"entities": [
           {"name": "ship", "components": {"ecs_sched.Prefab": true,
                                           "Hull": {"hp": 100, "label": "frigate"}}},
           {"name": "turret", "parent": 0, "prefab": "turret.json",
            "components": {"Gun": {"ammo": 5, "kind": "LASER"},
                           "Sprite": {"texture": {"asset": "gun.png"}}},
            "relations": {"ecs_sched.IsA": [0]}}
         ]}

     Components by their registered names; a value is an object of its described fields
     (reflection) and a field left out keeps the default value (the ctor hook's, or zero); a
     tag is true. Fixed arrays are JSON arrays, enums their value names, chars strings,
     entity fields the index of an entity of the file (or null), 64-bit integers beyond 2^53
     strings, NaN and infinities "nan", "inf", "-inf". "parent" is an index in the file;
     "relations" maps a kind to target indices.

     "prefab" names a nested prefab file, read through desc.read_file (default: fopen): its
     first entity merges into this entry (this entry's own components win), its other roots
     go under it. {"asset": "path"} in an integer or entity field asks desc.load_asset for a
     handle, which says DONE, LOADING (call ecs_sched_progress_finish when it is) or FAILED.
     desc.progress counts both: loading, done, failed; ecs_sched_progress_complete says
     whether the prefab is whole (nothing loading, nothing failed).

     Bad input fails the load with nothing made, the message naming the file, the entity, the
     component and the field ("json 'ship.json': entity 1, component 'Gun': field 'ammo' is
     i32, and is given a string"), with the line and column of malformed JSON (cJSON gives no
     lines for the rest). Refused: malformed JSON, an unknown component, kind or field, a
     value of the wrong type or out of range, a parent or target index out of range, a prefab
     that includes itself (the files named), a file that cannot be read.

     ecs_sched_json_save(w, NULL, 0, true) writes every entity (roots in index order, each
     followed by its subtree, children in order), or the entities given (and their
     descendants when asked). It writes names, parents, every component (a sized one must be
     described: else refused, naming it) and relationships; a relationship to an entity not
     written is refused, an entity field naming one is written as null. Loading the text into
     a world with the same components, and instantiating it, gives an equal world: the same
     components, values, hierarchy, names and relationships, entity handles remapped. Not
     written: relationship payloads, auto-override marks. The text is cJSON's, freed with
     ecs_sched_json_free; cJSON allocates with malloc, not the world's allocator.

   SNAPSHOTS

     ecs_sched_snapshot_take(w) copies the world's data: every entity with its components
     (through the copy hooks), the entity index (handles, generations, free list), the
     resources (those of state machines and clocks too), the relationships, names and bases.
     ecs_sched_snapshot_restore(w, snap) brings exactly that back, as often as asked: entities
     made since are gone (their handles stale), entities despawned since are back under their
     old handles, every value is the snapshot's. For undo, rollback and tests:

         ecs_sched_snapshot *before = ecs_sched_snapshot_take(w);
         ... simulate ahead ...
         ecs_sched_snapshot_restore(w, before);   // and again, from the same snapshot
         ecs_sched_snapshot_retake(w, before);    // the world as it is now, memory reused
         ecs_sched_snapshot_free(before);

     ecs_sched_snapshot_retake takes a snapshot again into its own memory (a rollback loop
     that snapshots every frame allocates nothing once the world stops growing); if it runs
     out of memory the snapshot is emptied, and restoring it is refused until a retake works.

     What is not data stays as it is: components and kinds registered since, queries,
     systems, schedules, observers, message queues. A restore runs no observer and no
     OnEnter/OnExit schedule; a tracked component counts every restored value as added and
     changed at the restore. A snapshot holds no pointer into its world (it may outlive it,
     and is freed with the allocator it was made with) and restores into that world only
     (ECS_SCHED_ERR_INVALID_ARGUMENT otherwise). Both calls are refused while a command buffer
     holds handles it reserved (apply or destroy it first) and from a system that may not
     change the world. A restore is all or nothing; ecs_sched_snapshot_bytes says what a
     snapshot holds.

   SORTING

     ecs_sched_query_order_by(q, health, compare) hands out the rows sorted by a component the
     query has (compare gets both entities and values; equal keys keep table order), across
     tables; ecs_sched_query_group_by(q, kind) keeps the rows of one target together (the
     children of each parent, for ChildOf). The sorted list is kept: sorted again only when a
     row joined or left a table, a relationship changed, or the key changed (a tracked key
     tells; an untracked one is sorted at every iteration). An unchanged sorted query costs a
     walk of its list: one call per run of rows consecutive in a table, so a sort that
     scatters the rows is best read by index (ecs_sched_iter_next_rows).

   REFLECTION

     A component (or a type registered only to be described) may be described by its fields;
     the ECS_SCHED_MEMBER macros take offsets and sizes from the compiler:

         ecs_sched_field fields[] = {
             ECS_SCHED_MEMBER(Unit, hp, ECS_SCHED_FIELD_I32),
             ECS_SCHED_MEMBER(Unit, name, ECS_SCHED_FIELD_CHARS),        // char name[16]
             ECS_SCHED_MEMBER_STRUCT(Unit, path, vec2),                 // Vec2 path[3]
             ECS_SCHED_MEMBER_ENUM(Unit, gait, gaits, 3),               // named values
         };
         ecs_sched_describe(w, unit, fields, 4);

     Kinds: bool, i8..i64, u8..u64, f32, f64, entity, chars (a zero-terminated string in a
     fixed array), enum (1, 2, 4 or 8 bytes), struct (a described type; describe it first).
     A field of a number, entity or struct kind that is larger than one element is a fixed
     array. The fields must lie inside the type, not overlap, and cover it: a gap counts as
     padding only when it is smaller than the next field's alignment (so padding cannot be
     told from an undescribed field that small; describe every field). Describing again
     replaces a description.

     ecs_sched_value_print writes "{hp: 100, name: \"bob\", path: [{x: 0, y: 0}, ...],
     gait: RUNNING}" (snprintf's rule; an undescribed type prints as "<Name: 8 bytes>").
     ecs_sched_value_field resolves a path ("path[2].y") to an address and what it is;
     ecs_sched_value_get_number, _set_number, _set_int and _set_string read and write through
     a path, refusing what the field cannot hold (out of range, a fraction into an integer,
     an unnamed enum value, text too long) and changing nothing then.
     ecs_sched_value_compare and ecs_sched_value_hash go field by field: padding and the bytes
     after a string's zero do not count, -0 equals 0, NaN equals NaN and follows every number.

   SCHEDULES

     A schedule is a graph of systems and system sets that the world stores under a label.
     The first add or configure call that names a label creates the schedule;
     ecs_sched_run_schedule(w, label) builds it (when new or changed) and runs it. Everything is
     configured with desc structs whose zero fields mean "nothing" or "the default".

     Systems. A system is void fn(ecs_sched_system_ctx *ctx), added with a desc that declares
     what it touches:

         ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
             .name = "integrate", .fn = integrate, .user_data = &game,
             .queries = {{{ecs_sched_write(pos), ecs_sched_read(vel)}}},  // array, desc, terms
             .reads = {gravity_id},            // resources read; .writes: resources written
             .commands = false,                // true: a command buffer of its own
             .exclusive = false,               // true: the whole world, conflicts with all
             .main_thread = false,             // true: on the thread that runs the schedule
             .in_set = {"physics"}, .after = {"input"}});

     Inside, the context gives what was declared: ecs_sched_ctx_query / ecs_sched_ctx_iter
     (query i of the desc; the schedule owns the queries), ecs_sched_ctx_resource (.reads or
     .writes), ecs_sched_ctx_resource_mut (.writes), ecs_sched_ctx_commands (.commands),
     ecs_sched_ctx_world (.exclusive), ecs_sched_ctx_name, ecs_sched_ctx_user_data. Anything
     undeclared returns NULL and is a failure of the system, ECS_SCHED_ERR_ACCESS with a
     message naming it; so is a declared resource that is not in the world
     (ECS_SCHED_ERR_MISSING_RESOURCE), unless read with ecs_sched_ctx_optional_resource. A
     system fails on its own account with ecs_sched_ctx_fail; what a run does with failures
     is under ERRORS:

         static void fire(ecs_sched_system_ctx *ctx) {
             Ammo *ammo = (Ammo *)ecs_sched_ctx_resource_mut(ctx, ammo_id);
             if (!ammo) return;                       // the failure is recorded already
             if (ammo->count == 0) {
                 ecs_sched_ctx_fail(ctx, ECS_SCHED_ERR_SYSTEM_FAILED, "out of ammo");
                 return;
             }
             ...
         }

     A desc naming an unregistered resource is refused when added, and a refused call adds
     nothing.

     Sets and order. in_set puts a system or set in sets (sets nest); before/after name systems
     or sets; an ordering against a set applies to every system under it (sets are flattened
     into system-to-system orderings at build). Systems and sets share one namespace per
     schedule. A name in in_set, or in before/after while no system carries it, is a set, made
     by that mention; ecs_sched_configure_set gives a set configuration of its own. A set with
     no system under it (a plugin's set nobody filled, a feature switched off) still orders
     through itself: with A before B before C and B empty, A's systems run before C's, through
     any number of empty sets in a row. A contradiction that only shows this way (a system in A
     and in C) is a _DEPENDENCY_CYCLE whose message gives the path through the empty set.
     Configuration only adds (configuring a set again adds to it) and the order of the calls
     does not matter. Systems nothing orders run in the order they were added. Order siblings
     (nodes in a common set, or both at the top level). ecs_sched_schedule_desc.default_set
     receives every system added without in_set.

     Several at once. ecs_sched_add_systems takes an array of system descs and configuration
     they share. A shared in_set puts each of them in those sets; the rest is held by an
     anonymous set containing them, "(group N)" in messages: .after orders the group as a
     whole, and a shared run_if is evaluated once for the group. .chain orders each system
     before the next; .chain_ignore_deferred does so without automatic sync points.
     ecs_sched_chain_sets(w, label, names, count, ignore_deferred) chains sets.

     Nested runs. An exclusive system may run other schedules, any number of times:
     ecs_sched_run_schedule(ecs_sched_ctx_world(ctx), "FixedUpdate"). A schedule cannot run
     inside its own run (directly or through others): that call returns
     ECS_SCHED_ERR_RECURSIVE_RUN and the runs under way go on. An unknown label gives
     ECS_SCHED_ERR_UNKNOWN_SCHEDULE. Changes made to a schedule while it runs apply at its next
     run.

     Building and checking. The first run after a change builds the schedule
     (ecs_sched_schedule_build builds at once). A failed build runs nothing, leaves the world
     unchanged, returns the error from the run, and keeps a message in ecs_sched_last_error
     that names the nodes and the path and suggests a fix (the logger gets long ones whole).
     Always errors: _DEPENDENCY_CYCLE (also one that appears only once sets are flattened),
     _HIERARCHY_CYCLE, _HIERARCHY_REDUNDANT (in a set directly and through another),
     _ORDER_AGAINST_PARENT, _NAME_CONFLICT (a name for systems and a set), _CONDITION_WRITES.
     Reported at a level set in ecs_sched_schedule_desc (ECS_SCHED_REPORT_IGNORE, _WARN: logged,
     the build goes on, _ERROR; zero means the default):

         cross_set_dependencies   warn    an ordering between nodes that are not siblings
         unknown_sets             error   a name in before/after/ambiguous_with that names
                                          nothing: no system, no set configured or with
                                          members (a typo; the message suggests the closest
                                          name)
         ambiguities              warn    conflicting systems that nothing orders
         duplicate_names          error   an ordering or ambiguous_with entry names several
                                          systems of one name

     ecs_sched_schedule_configure sets all of these at once (a second call replaces the first).
     Two systems conflict when one writes a component or resource the other reads or writes,
     or when either is exclusive; the reads of the conditions guarding a system count as its
     own. Components are compared query by query: two queries are disjoint, and never
     conflict, when one requires a component (a read, write or tag term; optional terms
     require nothing) that the other excludes with a without term, since no entity can match
     both. So a system writing Position on entities with Player and one writing Position on
     entities without Player neither conflict nor are kept apart by the parallel executor; a
     system with several queries conflicts when any pair of them does. Declare a harmless
     pair with ambiguous_with (system or set names) or
     ambiguous_with_all. A nonzero shuffle_seed shuffles the order of what nothing orders
     (every constraint still holds), to find systems that depend on an unwritten order.

     Run conditions. run_if holds up to ECS_SCHED_MAX_CONDITIONS addresses of
     ecs_sched_condition values (NULL entries are skipped), so one condition can be defined
     once and used by many systems: .run_if = {&not_paused}, or in C99 .run_if =
     {&(ecs_sched_condition){.fn = f}} and .run_if = {ECS_SCHED_COND(ecs_sched_condition_
     run_once())} for a condition made by an expression. A condition is a
     function bool fn(ctx) that only reads (its queries and reads are declared in the
     condition; declaring writes fails the build), or a built-in:
     ecs_sched_condition_resource_exists(id), _resource_equals(id, &value, size) (size must be
     the resource's; bytes compared), _resource_equals_with(..., equals, user_data),
     _non_send_resource_exists(id), _non_send_resource_equals(id, &value, size) (the same,
     for main-thread-only resources, evaluated on the thread that runs the schedule),
     _run_once(); combined with ecs_sched_condition_and(&a, &b), _or, _not, which
     short-circuit. A condition is copied when added (operands and value too). Each run_if
     entry is evaluated at most once per run, right before the first system it guards would
     run: for a system, the conditions of its sets first, outermost first, then its own. All
     entries of a node are evaluated, then combined: everything must be true. A false one skips
     everything under it, whose conditions are then not evaluated.

     Commands and sync points. A system with .commands = true records into its own buffer; the
     commands of every system of the schedule are applied, in plan order, at each sync point:
     the systems whose fn is ecs_sched_apply_deferred, the automatic ones, and the final flush
     that ends every run. The automatic rule: when a system with .commands = true is ordered
     before another system (directly, after flattening sets), a sync point goes between them,
     unless that ordering is ignore-deferred (before_ignore_deferred, after_ignore_deferred,
     chain_ignore_deferred, ecs_sched_chain_sets with ignore_deferred) or the later system is
     an ecs_sched_apply_deferred. Two refinements: an exclusive system gets its sync point even
     after an ignore-deferred ordering (it has the whole world, so it never sees commands
     half-way); and ignoring spares one ordering only: the system after it passes the pending
     commands on, so what follows it through an ordering that keeps them gets a sync point. All
     orderings that can share a sync point share one: one per step of the longest chain that
     needs them, and an ecs_sched_apply_deferred without run conditions (on it or its sets)
     counts as a step and serves where an automatic one would go. An ordering through an empty
     set keeps its sync point unless both halves ignore it. ecs_sched_schedule_desc.no_auto_sync
     = true turns the rule off. A failed apply does not stop the run, which returns its error.

     The executor. The single-threaded executor runs a schedule on the calling thread, in plan
     order: for each step the guarding conditions, then the system or the sync point, then the
     final flush. The parallel one is in THREADS. Either way a run returns the first command
     error, else the failure a system reported (ECS_SCHED_ERR_ACCESS if something undeclared
     was used; the error of a state transition schedule that an apply system ran), else
     ECS_SCHED_OK.
     ecs_sched_schedule_order(w, label, names, capacity) lists the plan ("apply_deferred" for
     automatic sync points) and returns its length (-1: no build).

     Graphviz. ecs_sched_schedule_write_dot(w, label, write, user_data) writes the built
     schedule as a DOT digraph through write(text, user_data): sets as boxes, systems with their
     conditions, sync points as gold octagons, orderings as arrows (those no other path
     implies), ambiguous pairs as dashed red lines. `dot -Tsvg` renders it. It builds the
     schedule if needed (reporting as a run would), then once more for itself, quietly: what
     only a drawing needs (clusters, the configured edges without those that bind a parallel
     order) is worked out there and not kept by every build.

   STATES

     A world has any number of state machines. Each has a name, named values (small integers:
     an enum in your code) and an initial value:

         enum { MENU, PLAYING, PAUSED };
         ecs_sched_id game = ecs_sched_state_register(w, &(ecs_sched_state_desc){
             .name = "GameState", .values = {"Menu", "Playing", "Paused"}});

     The id is that of a resource, State(GameState), an ecs_sched_state_current holding the
     current value: a system or condition that looks at the machine lists the id in its
     .reads, and the ambiguity check and the parallel executor see it like any resource. The
     pending value lives in a second resource, NextState(GameState), whose id
     ecs_sched_state_next_id(w, game) gives; a system that queues values lists it in .writes.

       ecs_sched_state_get(w, game)              current value, or ECS_SCHED_STATE_NONE
       ecs_sched_state_set(w, game, PLAYING)     queue a value (the last queued wins)
       ecs_sched_state_set_reenter(w, game, v)   the same, but queuing the current value exits
                                                 and enters it again (plain set does nothing)
       ecs_sched_ctx_state(ctx, game), ecs_sched_ctx_state_set(ctx, game, v),
       ecs_sched_ctx_state_set_reenter(...)      the same from a running system, checked
                                                 against its declared access

     Transitions are applied by an exclusive system, ecs_sched_apply_state_transitions (every
     machine), or the desc ecs_sched_state_transitions_system(game) gives (one machine; 0 for
     every machine), placed in any schedule, any number of times: in the frame's
     StateTransition step, inside a fixed-update loop, after a turn. One apply takes what is
     queued when it starts; then, for every machine that moves, OnExit(old) runs (the machine
     registered last first), the value changes, OnTransition(old, new) runs, and OnEnter(new)
     (the machine registered first first). A value queued by those schedules waits for the
     next apply: transitions never recurse (an apply system inside a transition schedule
     applies nothing, and registering a machine there is refused). A failing transition
     schedule does not stop the others; the run that applied them returns its error.

     The first apply enters each machine's initial value: until then the machine has no value
     (ECS_SCHED_STATE_NONE, State(...) does not exist), and a value queued before it waits for
     the second apply. If you run schedules by hand, run an apply once before the first frame:
     a schedule holding the apply system, or ecs_sched_state_apply(w, 0) (0: every machine;
     an id: that machine and the machines that depend on it), which applies from outside any
     schedule and returns the first failure.

     OnEnter, OnExit and OnTransition are ordinary schedules (sets, conditions, commands,
     nested runs) whose labels name the machine and values:

         ecs_sched_add_system(w, ecs_sched_on_enter(w, game, PLAYING), &spawn_level);

         ecs_sched_on_enter(w, game, PLAYING)             "OnEnter(GameState::Playing)"
         ecs_sched_on_exit(w, game, MENU)                 "OnExit(GameState::Menu)"
         ecs_sched_on_transition(w, game, MENU, PLAYING)  "OnTransition(GameState::Menu,
                                                          GameState::Playing)"

     The stack, for a pause menu over a running game: ecs_sched_state_push(w, game, PAUSED)
     queues covering the current value: the apply runs OnPause(Playing), then
     OnEnter(Paused); ecs_sched_state_pop(w, game) queues going back: OnExit(Paused), then
     OnResume(Playing). A covered value is neither exited nor entered again; a set while
     values are covered replaces the top only. ecs_sched_state_depth gives how many values
     are covered; ecs_sched_ctx_state_push/_pop queue from systems (the pending slot's write,
     as for set). At most .stack_capacity values (default 8) are covered at once: one more
     push is ECS_SCHED_ERR_LIMIT, a pop with nothing covered ECS_SCHED_ERR_INVALID_ARGUMENT.
     A push or pop queued by a transition schedule is checked against the stack as it was;
     if the apply that ran it changed the stack so that it no longer fits, the next apply
     drops it and returns the same error. Labels: ecs_sched_on_pause(w, game, v), ecs_sched_on_resume(w, game, v).

     State-scoped entities: an entity with the machine's component StateScoped(GameState)
     (id: ecs_sched_state_scope_id(w, game); value: ecs_sched_despawn_on_exit(PLAYING) or
     ecs_sched_despawn_on_enter(MENU), an ecs_sched_state_scoped {on_exit, on_enter}) is
     despawned by the apply: right after OnExit of its on_exit value, or right before OnEnter
     of its on_enter value. A covered value is not exited, so its entities stay while a
     pushed value is on top. Insert it like any component (through commands from a system).

     A schedule nobody added systems to is skipped. ecs_sched_state_last_transition (and
     ecs_sched_ctx_state_last_transition from a system) gives the last transition: from (NONE
     when the machine started to exist), to (NONE when it stopped), and this_run, true during
     the top-level schedule run that applied it ("we just entered Playing"); a transition
     applied outside any run counts for the next one.

     Computed states. A machine whose value is a function of other machines' values: give
     .sources (machines registered before it) and .compute, which gets their current values
     in that order (NONE for one that does not exist) and returns a value of its own, or
     ECS_SCHED_STATE_NONE for "does not exist":

         static int32_t in_game_of(const int32_t *sources, void *user_data) {
             return sources[0] == PLAYING || sources[0] == PAUSED ? 0 : ECS_SCHED_STATE_NONE;
         }
         ecs_sched_id in_game = ecs_sched_state_register(w, &(ecs_sched_state_desc){
             .name = "InGame", .values = {"InGame"}, .sources = {game},
             .compute = in_game_of});

     It is computed again whenever a source moves (and at the first apply), and moves only
     when the result differs: Playing -> Paused leaves InGame alone, Menu -> Playing enters
     it, Paused -> Menu exits it. It has OnEnter, OnExit and OnTransition like any machine,
     and no queue (queuing is ECS_SCHED_ERR_INVALID_ARGUMENT), .initial or stack. A result
     that is not one of its values is reported (ECS_SCHED_ERR_INVALID_ARGUMENT from the
     apply) and the machine keeps its value.

     Sub-states. A machine that exists only while its parent has one of given values:

         ecs_sched_id phase = ecs_sched_state_register(w, &(ecs_sched_state_desc){
             .name = "TurnPhase", .values = {"Move", "Attack", "End"},
             .parent = game, .parent_values = {[PLAYING] = true, [PAUSED] = true}});

     When the parent reaches one of those values, the sub-state starts at its .initial value
     (OnEnter runs); while the parent moves among them it keeps its value and takes queued
     values and pushes like any machine; when the parent leaves them it is exited (each
     value its stack covers too, top first) and has no value again. The parent's value is
     its top: a value pushed over the parent that is not one of parent_values ends the
     sub-state, and the pop starts it again at .initial. Queuing for it while it does not
     exist is ECS_SCHED_ERR_STATE_ABSENT (so a sub-state that starts in an apply takes
     values from its OnEnter on, not from the parent's OnExit); a request queued while it
     exists is dropped when the parent leaves or restarts in the same apply. A sub-state or
     computed state that stops existing keeps its State(...) resource, holding
     ECS_SCHED_STATE_NONE: ask ecs_sched_state_get or the state_exists condition, not
     ecs_sched_resource_exists.

     Machines that depend on each other move in one apply: every machine's new value is
     decided first, sources before the machines computed from them; then the exits run from
     the most dependent machine to its sources, and the enters from sources to dependents
     (the registration order is such an order, since a machine's sources are registered
     before it). A source that is re-entered (set_reenter) restarts what depends on it, and
     what depends on that: a computed state whose value stays is exited and entered again,
     a sub-state goes back to its initial value (OnExit(v), OnTransition(v, initial),
     OnEnter(initial)). An apply for one machine also applies the machines that depend on
     it. A machine cannot depend on itself: registering a name again with sources that lead
     back to it is ECS_SCHED_ERR_STATE_CYCLE, and the message gives the path
     ("AppState -> TurnPhase -> AppState").

     Conditions (each declares a read of the machine): ecs_sched_condition_in_state(game, v),
     ecs_sched_condition_state_exists(game) (true while the machine has a value: from the
     first apply on for a plain machine), and
     ecs_sched_condition_state_changed(game) (true when the machine changed value, or was
     re-entered, since this instance last looked; the initial enter counts), and
     ecs_sched_condition_state_in_stack(game, v) (v is the current value or a covered one;
     in_state sees only the top). Their names in
     messages and graphs read "in_state(GameState::Playing)", "state_changed(GameState)".

     Errors: an unknown machine id is ECS_SCHED_ERR_UNKNOWN_STATE, a value out of range
     ECS_SCHED_ERR_INVALID_ARGUMENT, a name registered again with other values (or another
     stack capacity, other sources, parent or compute function, or another initial value once
     the machine has had a value) ECS_SCHED_ERR_STATE_MISMATCH (the same desc gives the same
     id; another .initial before the machine's first value replaces the initial value, so a
     game can override a plugin's default), a dependency cycle ECS_SCHED_ERR_STATE_CYCLE, and
     queuing for a sub-state
     that does not exist ECS_SCHED_ERR_STATE_ABSENT; each message names the machine and the
     value, and nothing changes. At most ECS_SCHED_MAX_STATE_VALUES values
     (32) per machine.

   THE APP

     An app owns a world (ecs_sched_app_world) and runs it frame by frame, in the shape Bevy
     users know:

         ecs_sched_app *app = ecs_sched_app_create(NULL);     // desc: .world, .time
         ecs_sched_world *w = ecs_sched_app_world(app);
         ecs_sched_add_system(w, ECS_SCHED_UPDATE, &(ecs_sched_system_desc){...});
         int32_t code;
         ecs_sched_result r = ecs_sched_app_run(app, NULL, &code);  // until exit
         ecs_sched_app_destroy(app);                         // and its world

     Each update advances the clocks (see TIME), then runs schedule Main. Main's one system
     runs, the first time, StateTransition (which enters the initial states) and the startup
     order, PreStartup, Startup, PostStartup; then, every time, the main order: First,
     PreUpdate, StateTransition, RunFixedMainLoop, Update, PostUpdate, Last. StateTransition
     holds an apply_state_transitions for every machine; RunFixedMainLoop holds
     run_fixed_main_loop, which runs FixedMain once per fixed step, and FixedMain runs the
     fixed order: FixedFirst, FixedPreUpdate, FixedUpdate, FixedPostUpdate, FixedLast. The
     labels are macros (ECS_SCHED_UPDATE is "Update"); the schedules exist from the start, so
     add systems to any of them.

     The orders are data: ecs_sched_app_insert_schedule_after(app, ECS_SCHED_FIXED_UPDATE,
     "PhysicsSync") (and _before) puts a new label into the order that holds the anchor and
     creates its schedule; ecs_sched_app_schedule_order lists an order. A label can be in the
     orders once; inserting is refused while the app updates.

       ecs_sched_app_update(app)             one frame, time from the clock hook
       ecs_sched_app_update_by(app, ns)      one frame that advances time by exactly ns
       ecs_sched_app_run(app, &desc, &code)  frames until exit is requested: .delta_ns (fixed
                                             frame time), .frame_ns (pace: sleep what is left
                                             of each frame), .max_frames
       ecs_sched_app_frame_count(app)        updates made (failed ones too)

     An update stops at the first schedule run that fails and returns its code (a build error,
     an undeclared access, a failing transition schedule); ecs_sched_last_error says what
     failed; run returns it too. A startup schedule that failed runs again in the next
     update, with those after it in the startup order. A system asks to stop with
     ecs_sched_ctx_request_exit(ctx, code), declaring resource AppExit
     (ecs_sched_app_exit_id(w)) in .writes; the frame completes, then run returns
     ECS_SCHED_OK with the code. A second request keeps the first code. The request stays
     (a later run returns before its first update) until AppExit's `requested` is set back
     to false. ecs_sched_app_update and _update_by do not look at it (as in Bevy, where the
     runner does): called after a request, they run a whole frame, so a loop of your own
     checks ecs_sched_app_exit_requested between updates. From outside:
     ecs_sched_app_request_exit.

     Plugins are named build functions that add systems, sets, resources and states:

         static ecs_sched_result build_physics(ecs_sched_app *app, void *user_data) {
             return ecs_sched_add_system(ecs_sched_app_world(app), ECS_SCHED_FIXED_UPDATE,
                                         &(ecs_sched_system_desc){.name = "integrate", ...,
                                                                  .in_set = {"physics"}});
         }
         static const ecs_sched_plugin physics = {.name = "physics", .build = build_physics,
             .exports = {{ECS_SCHED_FIXED_UPDATE, "physics"}}};
         ecs_sched_app_add_plugin(app, &physics);

     The name identifies a plugin: adding it again does nothing (and says so at debug log
     level). The plugins in .needs are added first when the app lacks them, so a plugin with
     needs and no build is a plugin group; ecs_sched_app_add_plugins adds an array in order,
     checking all of it first. .exports are the plugin's public sets, configured before its
     build, so users order against them (.after = {"physics"}) even before anything fills
     them. A plugin without a name is ECS_SCHED_ERR_INVALID_ARGUMENT; needs in a cycle
     ECS_SCHED_ERR_PLUGIN_CYCLE with the path ("A -> B -> A"); both are found before anything
     is added. A build that fails makes the add fail with the plugin's name; what it added
     stays, and the plugin is not recorded, so adding it again builds it again.

   TIME

     Time is kept in integer nanoseconds, so sums are exact (a 1/64 s step is 15 625 000 ns);
     every clock also gives seconds as doubles. ECS_SCHED_MILLISECONDS(ms), ECS_SCHED_SECONDS(s)
     and ECS_SCHED_HZ(rate) make durations. Four resources hold the clocks (an app creates
     them; ecs_sched_time_setup does it for a world without an app):

       Time<Real>     ecs_sched_time_real: the clock hook's time, whatever the game does
       Time<Virtual>  ecs_sched_time_virtual: the game's clock. Its delta is the real delta
                      capped at .max_delta_ns (250 ms: a frame that took 10 s moves the game
                      by 250 ms, no spiral), times .relative_speed, or 0 while .paused
       Time<Fixed>    ecs_sched_time_fixed: .step_ns (ECS_SCHED_HZ(64)), .overstep_ns,
                      .overstep_fraction, .steps_this_frame, .max_steps_per_frame, .dropped_steps
       Time           ecs_sched_time: the clock a system reads. It is the virtual clock in
                      the main schedules and the fixed clock inside FixedMain, so one system
                      works in both. Declare ecs_sched_time_id(w) in .reads and read it with
                      ecs_sched_ctx_time(ctx)

     run_fixed_main_loop adds the virtual delta to the overstep, runs FixedMain once per whole
     step in it, and keeps the rest: at 60 frames a second a 64 Hz step runs once a frame and
     now and then twice; a paused clock runs no step; speed 2 runs twice as many. For drawing
     between fixed states, blend the last two by .overstep_fraction (in [0, 1) after the
     loop). Settings, checked (a bad value is ECS_SCHED_ERR_INVALID_ARGUMENT and changes
     nothing): ecs_sched_time_set_paused, _set_speed (>= 0), _set_max_delta (> 0),
     _set_fixed_step (> 0; the overstep is kept as time, so a new step applies to it at the
     next loop), _set_max_steps_per_frame (0: no cap; else whole steps beyond it are dropped
     and counted), ecs_sched_time_discard_overstep (after a loading screen). A system may
     write the settings into Time<Virtual> (declaring it); the next update checks them and
     fails, advancing nothing, when one is out of range.

     The clock is a hook: ecs_sched_time_desc .clock returns a monotonic reading in
     nanoseconds and .sleep waits (both default to the system's: the monotonic clock, on
     Linux under strict -std=c99 too; only where no monotonic clock can be reached does the
     default fall back to gettimeofday). A test or a server drives time exactly with
     ecs_sched_app_update_by or a clock of its own. The first clock-driven update has delta 0.

     Conditions on time, each instance with its own timer fed by Time's delta each time it is
     evaluated (the virtual clock in the main schedules, the fixed clock in the fixed ones):
     ecs_sched_condition_on_timer(period) (true once each time the period elapses; several
     periods in one frame still give one true), _once_after_delay(d), _repeating_after_delay(d)
     (true from d on), _time_paused(). They count as reads of Time (or Time<Virtual>).

   THREADS

     With ECS_SCHED_THREADS defined in the implementation file, each world owns a thread pool,
     made on first use with ecs_sched_world_desc.thread_count workers (0: one per hardware
     thread). The thread that makes it (the first parallel run, or ecs_sched_world_pool(w)) is
     worker 0: run the world's schedules from that thread.

     The parallel executor is the default: ecs_sched_schedule_desc.executor, or for all of a
     world's schedules ecs_sched_world_desc.executor, picks ECS_SCHED_EXECUTOR_PARALLEL or
     ECS_SCHED_EXECUTOR_SINGLE_THREADED. It runs the same plan. A system starts as soon as
     the systems before it are done; conditions are evaluated inline (a set's once per run,
     by the first thread that needs it), and a skipped system is done without being called.
     Exclusive systems, apply_deferred and automatic sync points run on the calling thread,
     alone.

     Threads pay off when a schedule holds independent systems whose work adds up to several
     microseconds: a hand-off between threads costs about a microsecond, a tiny system a few
     nanoseconds. So the parallel executor measures and decides on every run. A schedule whose
     systems took less than ECS_SCHED_PARALLEL_MIN_NS in all (4 us; exclusive systems aside)
     runs on the calling thread in plan order, exactly as the single-threaded executor would,
     and is timed again once every 32 runs. Above, whole runs are timed both ways and the
     faster way is used, judged by the least of its last four runs (noise only adds time); the
     other way is tried again 16 runs later, then less often (up to 1 run in 256) while it
     keeps losing; trying the parallel way again takes two runs, and only the second is
     timed (the first wakes the workers). A parallel run: each thread runs the systems it finds ready itself, and
     offers half of its work to the other threads, as one task, whenever what it holds beyond
     the next system is estimated at ECS_SCHED_OFFER_MIN_NS (2 us) or more and its last offer
     was taken (an offer still waiting means no thread is looking for work); a
     sleeping worker is woken only for an offer of ECS_SCHED_WAKE_MIN_NS (20 us) or more. A
     system's estimate is what it took, averaged, timed on its first parallel run, on every
     run once it takes 1 us, and one run in 32 below; before a parallel run that follows runs
     on the calling thread, the estimates are scaled to that thread's timing of the whole work
     when their total is off by more than half. The first run of a schedule is timed on the
     calling thread. None of this changes what a system sees: the decision moves work
     between threads, never across an edge of the plan.

     Main-thread systems (.main_thread = true, or declaring a resource inserted with
     ecs_sched_resource_insert_non_send, or guarded by a condition reading one) run on the
     thread that called ecs_sched_run_schedule, and their conditions are evaluated there; a
     worker that finds one ready hands it to that thread, which takes it between its own
     systems or while it waits. Others keep running beside them.

     The guarantee: after every run, the world is the one the single-threaded executor leaves,
     byte for byte. The build makes the plan's order binding wherever it could matter: two
     systems whose access conflicts (even when declared ambiguous_with each other) and that
     nothing orders run in plan order, never at once; so do two systems that record commands
     (their buffers reserve entities as they record); an exclusive node waits for everything
     before it in plan order, and everything after it waits for it. Each system's commands go
     to its own buffer, applied at sync points in plan order. So systems only overlap when
     their declared access allows it, and no check is needed while running. The plan keeps
     only the edges that no other path implies.

     Parallel queries. Inside a system, ecs_sched_ctx_par_iter(ctx, index, grain, fn, arg)
     splits one of its queries into pieces of at most grain rows (0: 4096) and calls
     fn(ecs_sched_iter *it, void *arg) for each, on the world's pool, returning when all are
     done; it->count, it->entities and it->fields describe one piece. Pieces may run at once:
     write only the piece's rows, and leave the context and the command buffer to the
     system's own thread (record commands before or after the call).
     ecs_sched_query_par_iter(query, pool, grain, fn, arg) does the same outside schedules.
     Without ECS_SCHED_THREADS both run the pieces in order.

     The pool. ecs_sched_pool_create(&(ecs_sched_pool_desc){.thread_count = n}) makes one of
     your own: each worker keeps its tasks in a Chase-Lev deque (a bounded ring; a full deque
     runs the task at once), idle workers steal from random others (half of a victim's tasks, up
     to 16, in one steal, so that a burst of tiny tasks is not handed over one at a time),
     spin briefly (about 40 us; with more threads than the hardware runs at once, yielding
     the core between looks), then sleep on an event count (on Linux, in a pool that fits the
     hardware, the sleeper's fence is a membarrier call, so submitting and finishing tasks
     need none; a crowded pool, whose workers sleep often, fences both sides instead). A
     finished group wakes its waiter only when the waiter went to sleep. ecs_sched_pool_submit(pool, group, fn, arg) queues fn(arg)
     (call it from the creating thread or from a task), ecs_sched_pool_wait(pool, group) runs
     tasks until the group's are done, ecs_sched_pool_parallel_for(pool, begin, end, grain,
     fn, arg) covers a range in pieces, ecs_sched_pool_worker_index(pool) numbers the calling
     thread for per-thread scratch, and ecs_sched_pool_destroy runs every task still pending,
     then stops the threads. Submitting allocates nothing.

     With threads, the allocator and logger hooks may be called from several threads at once.

   ERRORS

     One rule for every public function:

       1. A function that does something and returns nothing else returns an ecs_sched_result:
          ECS_SCHED_OK (0), or the code of the failure.
       2. A function that makes or finds something returns it (a pointer, an id, an entity
          handle), or NULL / 0 / ECS_SCHED_NULL_ENTITY when it fails.
       3. A function that returns a count returns -1 when it fails
          (ecs_sched_schedule_order).
       4. A question (is_alive, has, resource_exists, schedule_exists, component_lookup,
          component_name, component_size, commands_pending...) never fails: what it cannot
          find is simply not there (false, 0, NULL), and nothing is recorded.
       5. A failure of 1-3 is recorded in the world and logged:

              ecs_sched_last_result(w)    the code, e.g. ECS_SCHED_ERR_STALE_ENTITY
              ecs_sched_last_error(w)     a message that names the culprit (the entity, the
                                          component, the systems, the path of a cycle) and
                                          what to do about it; "" until something fails
              ecs_sched_result_string(r)  the fixed text of a code ("out of memory")

          The record stays until the next failure or ecs_sched_clear_error(w); a success does
          not clear it. The message also goes to the world's logger (or ECS_SCHED_LOG) at
          ECS_SCHED_LOG_ERROR level, with the code. Failures with no world to record them in
          (ecs_sched_world_create, ecs_sched_pool_create) go to the desc's logger only.
       6. Programmer errors that leave nothing to report to assert (ECS_SCHED_ASSERT): a NULL
          world, query, command buffer, system context or pool, and a NULL function where
          a call needs one to run (pool_submit, pool_parallel_for, the par_iter calls). Every other
          bad argument (NULL desc, NULL or empty name, unknown id, out-of-range value) is a
          failure of rule 5.
       7. Inside a running system, an access the system did not declare is refused at the
          call (NULL or ECS_SCHED_ERR_ACCESS), and is a failure of the system (below).
          Changing a schedule from one of its own systems is allowed: it is rebuilt when its
          next run starts; asking to build it before then gives
          ECS_SCHED_ERR_SCHEDULE_RUNNING.

     A call that fails, out of memory included, leaves the world as it was and usable.
     ecs_sched_world_check cross-checks the world's internal structures, for tests.

     Failures inside a schedule run. Systems (and conditions) are void functions, so a
     failure is recorded on the running system's context rather than returned (existing
     systems keep compiling, and a system can fail from a helper deep in its code):

       - A system fails by calling ecs_sched_ctx_fail(ctx, code, "format", ...), or by
         leaving a failed library call unhandled: a call that fails while the system runs
         (through its context or the world) is recorded on it, the first one of the run.
         ecs_sched_ctx_error(ctx) tells what is recorded; ecs_sched_ctx_clear_error(ctx) says
         the system handled it, and then it does not count. A refused access (undeclared
         data, a structural change through the world from a system that is not exclusive,
         a command buffer not declared) cannot be cleared. A condition fails the same way,
         and then the node it guards does not run.
       - Misuse is a failure, never silence: a declared resource that does not exist
         (ECS_SCHED_ERR_MISSING_RESOURCE; ecs_sched_ctx_optional_resource and
         ecs_sched_ctx_optional_resource_mut read one the system can do without), spawn,
         insert, remove, despawn or resource_insert through the world pointer from a system
         that is not exclusive (ECS_SCHED_ERR_ACCESS: record it in commands instead),
         ecs_sched_ctx_commands without .commands (ECS_SCHED_ERR_ACCESS; it returns NULL, and
         recording into NULL does nothing), a query term with id 0 that is not the zero term
         that ends the list (refused when the query or the system is made, naming the term).
       - A command that cannot be applied at a sync point or at the final flush is a failure
         of the system that recorded it. A command skipped because its entity is dead is not
         (it is counted: ecs_sched_commands_skipped).
       - The message names the system and the schedule: "system 'spawn_bullets' in schedule
         'Update': insert: entity 12v3 is stale"; a condition's also names what it guards.
       - The run returns the failure first in plan order (the order ecs_sched_schedule_order
         lists), so both executors return the same one, and ecs_sched_last_error holds its
         message when the run returns. The logger gets every failure as it happens (from a
         worker thread too, one message at a time): none is lost when several fail.
       - A policy says what the run does meanwhile: the world's (ecs_sched_world_desc
         .on_error, or ecs_sched_world_set_error_policy), which a schedule may override
         (ecs_sched_schedule_desc.on_error):

             ECS_SCHED_ON_ERROR_STOP      the default: no node after the failing one (in plan
                                          order) starts; systems already running finish; the
                                          final flush still applies the commands of the
                                          systems that ran, the failing one's included
             ECS_SCHED_ON_ERROR_CONTINUE  every system runs; the run returns the first failure
             ECS_SCHED_ON_ERROR_HOOK      the world's error hook decides, failure by failure:
                                          ECS_SCHED_ERROR_STOP, _CONTINUE, or _IGNORE (the run
                                          goes on as if it had not failed)

         The hook (ecs_sched_world_desc.error_hook, an ecs_sched_error_hook) hears every
         failure of every run under any policy, with its code, kind, name, schedule and
         message; it may be called on a worker thread, never by two threads at once. A world
         given a hook and no policy uses HOOK. On the parallel executor, "no node after it
         starts" is about plan order too: nodes before the failing one still run, and nodes
         after it that had started finish.
       - Nested runs: a schedule that a system runs (the fixed update, a transition schedule,
         a run of your own) and that fails is a failure of that system in turn, with its name
         in front ("system 'runner' in schedule 'Update': system 'deep' in schedule 'Inner':
         ..."), unless it clears it. The fixed-step runner skips the frame's remaining steps
         when FixedMain's run stopped; an app's order of schedules goes on after a failed
         schedule unless that run stopped; ecs_sched_app_update and _run return the failure.


   API INDEX

     Every public function, by the module (src/<module>.h) that declares it:

     base       ecs_sched_result_string, ecs_sched_stbds_realloc, ecs_sched_stbds_free
     pool       ecs_sched_pool_create, ecs_sched_pool_destroy, ecs_sched_pool_thread_count,
                ecs_sched_pool_worker_index, ecs_sched_pool_group_create,
                ecs_sched_pool_group_destroy, ecs_sched_pool_submit, ecs_sched_pool_wait,
                ecs_sched_pool_parallel_for
     world      ecs_sched_world_create, ecs_sched_world_destroy, ecs_sched_last_error,
                ecs_sched_last_result, ecs_sched_clear_error, ecs_sched_world_check,
                ecs_sched_entity_count, ecs_sched_archetype_count, ecs_sched_world_pool,
                ecs_sched_world_set_error_policy,
                ecs_sched_component_register, ecs_sched_component_register_type,
                ecs_sched_component_lookup, ecs_sched_component_name,
                ecs_sched_component_size, ecs_sched_spawn, ecs_sched_spawn_with,
                ecs_sched_spawn_batch, ecs_sched_despawn, ecs_sched_is_alive,
                ecs_sched_insert, ecs_sched_insert_many, ecs_sched_remove, ecs_sched_get,
                ecs_sched_get_mut, ecs_sched_has, ecs_sched_resource_insert,
                ecs_sched_resource_get, ecs_sched_resource_get_mut,
                ecs_sched_resource_remove, ecs_sched_resource_exists,
                ecs_sched_resource_insert_non_send, ecs_sched_resource_is_non_send,
                ecs_sched_tracked_component_register_type, ecs_sched_component_is_tracked
     query      ecs_sched_query_create, ecs_sched_query_destroy, ecs_sched_query_access,
                ecs_sched_query_count, ecs_sched_query_iter, ecs_sched_iter_next,
                ecs_sched_iter_next_rows, ecs_sched_iter_mark_changed, ecs_sched_query_par_iter
     commands   ecs_sched_commands_create, ecs_sched_commands_destroy,
                ecs_sched_commands_spawn, ecs_sched_commands_spawn_with,
                ecs_sched_commands_despawn, ecs_sched_commands_insert,
                ecs_sched_commands_remove, ecs_sched_commands_set_resource,
                ecs_sched_commands_pending, ecs_sched_commands_apply,
                ecs_sched_commands_skipped
     context    ecs_sched_ctx_name, ecs_sched_ctx_user_data, ecs_sched_ctx_query,
                ecs_sched_ctx_iter, ecs_sched_ctx_resource, ecs_sched_ctx_resource_mut,
                ecs_sched_ctx_optional_resource, ecs_sched_ctx_optional_resource_mut,
                ecs_sched_ctx_commands, ecs_sched_ctx_world, ecs_sched_ctx_par_iter,
                ecs_sched_ctx_fail, ecs_sched_ctx_error, ecs_sched_ctx_clear_error
     message    ecs_sched_message_register, ecs_sched_message_register_type,
                ecs_sched_is_message, ecs_sched_ctx_send, ecs_sched_ctx_send_new,
                ecs_sched_ctx_send_batch, ecs_sched_send, ecs_sched_send_batch,
                ecs_sched_messages_next, ecs_sched_ctx_messages,
                ecs_sched_message_cursor_make, ecs_sched_message_read,
                ecs_sched_message_unread, ecs_sched_messages_update,
                ecs_sched_message_scope_to_state (defined with the states),
                ecs_sched_ctx_removed, ecs_sched_removed_cursor_make
     condition  ecs_sched_condition_and, ecs_sched_condition_or, ecs_sched_condition_not,
                ecs_sched_condition_resource_exists, ecs_sched_condition_resource_equals,
                ecs_sched_condition_resource_equals_with, ecs_sched_condition_run_once,
                ecs_sched_condition_non_send_resource_exists,
                ecs_sched_condition_non_send_resource_equals,
                ecs_sched_condition_resource_added, ecs_sched_condition_resource_changed,
                ecs_sched_condition_on_message, ecs_sched_condition_any_component_removed
     graph      ecs_sched_schedule_configure, ecs_sched_add_system, ecs_sched_add_systems,
                ecs_sched_configure_set, ecs_sched_chain_sets, ecs_sched_schedule_exists,
                ecs_sched_apply_deferred
     plan       ecs_sched_schedule_build, ecs_sched_schedule_order
     dot        ecs_sched_schedule_write_dot
     change     ecs_sched_change_tick, ecs_sched_change_tick_advance
     observer   ecs_sched_observer_add, ecs_sched_observer_remove
     disable    ecs_sched_disable, ecs_sched_enable, ecs_sched_is_disabled,
                ecs_sched_disabled_tag, ecs_sched_prefab_tag, ecs_sched_commands_disable,
                ecs_sched_commands_enable
     relation   ecs_sched_relation_register, ecs_sched_is_relation, ecs_sched_child_of,
                ecs_sched_relate, ecs_sched_unrelate, ecs_sched_has_relation,
                ecs_sched_target_count, ecs_sched_target, ecs_sched_relation_payload,
                ecs_sched_sources, ecs_sched_commands_relate, ecs_sched_commands_unrelate
     hierarchy  ecs_sched_set_parent, ecs_sched_set_parent_at, ecs_sched_parent_of,
                ecs_sched_children, ecs_sched_depth, ecs_sched_ancestors,
                ecs_sched_descendants, ecs_sched_commands_set_parent
     name       ecs_sched_set_name, ecs_sched_name, ecs_sched_lookup, ecs_sched_lookup_path,
                ecs_sched_path
     reflect    ecs_sched_describe, ecs_sched_is_described, ecs_sched_value_print,
                ecs_sched_value_field, ecs_sched_value_get_number, ecs_sched_value_set_number,
                ecs_sched_value_set_int, ecs_sched_value_set_string, ecs_sched_value_compare,
                ecs_sched_value_hash
     inherit    ecs_sched_is_a, ecs_sched_instantiate, ecs_sched_commands_instantiate,
                ecs_sched_auto_override, ecs_sched_owns, ecs_sched_owner
     prefab     ecs_sched_prefab_data_create, ecs_sched_prefab_data_free, ecs_sched_prefab_data_add,
                ecs_sched_prefab_data_set_parent, ecs_sched_prefab_data_set,
                ecs_sched_prefab_data_set_name, ecs_sched_prefab_data_set_entity,
                ecs_sched_prefab_data_relate, ecs_sched_prefab_data_count,
                ecs_sched_prefab_data_parent, ecs_sched_prefab_data_name,
                ecs_sched_prefab_data_get, ecs_sched_prefab_data_has,
                ecs_sched_prefab_data_instantiate, ecs_sched_commands_prefab_data_instantiate
     json       (ECS_SCHED_JSON) ecs_sched_prefab_data_from_json, ecs_sched_prefab_data_load,
                ecs_sched_json_save, ecs_sched_json_free, ecs_sched_progress_finish,
                ecs_sched_progress_complete
     snapshot   ecs_sched_snapshot_take, ecs_sched_snapshot_restore, ecs_sched_snapshot_retake,
                ecs_sched_snapshot_free, ecs_sched_snapshot_bytes
     sort       ecs_sched_query_order_by, ecs_sched_query_group_by
     executor   ecs_sched_run_schedule
     state      ecs_sched_state_register, ecs_sched_state_next_id, ecs_sched_state_get,
                ecs_sched_state_value_name, ecs_sched_state_set, ecs_sched_state_set_reenter,
                ecs_sched_ctx_state, ecs_sched_ctx_state_set, ecs_sched_ctx_state_set_reenter,
                ecs_sched_on_enter, ecs_sched_on_exit, ecs_sched_on_transition,
                ecs_sched_state_last_transition, ecs_sched_ctx_state_last_transition,
                ecs_sched_condition_in_state, ecs_sched_condition_state_exists,
                ecs_sched_condition_state_changed, ecs_sched_state_push, ecs_sched_state_pop,
                ecs_sched_state_depth, ecs_sched_ctx_state_push, ecs_sched_ctx_state_pop,
                ecs_sched_on_pause, ecs_sched_on_resume, ecs_sched_condition_state_in_stack,
                ecs_sched_despawn_on_exit, ecs_sched_despawn_on_enter, ecs_sched_state_scope_id
     transition ecs_sched_apply_state_transitions, ecs_sched_state_transitions_system,
                ecs_sched_state_apply
     time       ecs_sched_time_setup, ecs_sched_time_id, ecs_sched_time_real_id,
                ecs_sched_time_virtual_id, ecs_sched_time_fixed_id, ecs_sched_ctx_time,
                ecs_sched_time_advance, ecs_sched_time_advance_by, ecs_sched_time_now,
                ecs_sched_time_sleep, ecs_sched_time_set_paused, ecs_sched_time_set_speed,
                ecs_sched_time_set_max_delta, ecs_sched_time_set_fixed_step,
                ecs_sched_time_set_max_steps_per_frame, ecs_sched_time_discard_overstep,
                ecs_sched_run_fixed_main_loop, ecs_sched_fixed_main_loop_system,
                ecs_sched_condition_on_timer, ecs_sched_condition_once_after_delay,
                ecs_sched_condition_repeating_after_delay, ecs_sched_condition_time_paused
     app        ecs_sched_app_create, ecs_sched_app_destroy, ecs_sched_app_world,
                ecs_sched_app_update, ecs_sched_app_update_by, ecs_sched_app_frame_count,
                ecs_sched_app_run, ecs_sched_app_exit_id, ecs_sched_ctx_request_exit,
                ecs_sched_app_request_exit, ecs_sched_app_exit_requested,
                ecs_sched_app_insert_schedule_before, ecs_sched_app_insert_schedule_after,
                ecs_sched_app_schedule_order, ecs_sched_app_add_plugin,
                ecs_sched_app_add_plugins, ecs_sched_app_has_plugin

     (build and access, between graph and plan, have no public functions: they are the
     passes of a schedule build.) `make test` checks that this index names every function
     the header declares.

   EXAMPLE

     #define ECS_SCHED_IMPLEMENTATION
     #include "ecs_sched.h"
     #include <stdio.h>

     typedef struct { float x, y; } Position;
     typedef struct { float x, y; } Velocity;

     // Moves everything; what climbs above 1.5 is despawned through the command buffer.
     static void move(ecs_sched_system_ctx *ctx) {
         ecs_sched_commands *cmd = ecs_sched_ctx_commands(ctx);
         ecs_sched_iter it = ecs_sched_ctx_iter(ctx, 0);
         while (ecs_sched_iter_next(&it)) {
             Position *p = ECS_SCHED_FIELD(&it, Position, 0);
             const Velocity *v = ECS_SCHED_FIELD(&it, const Velocity, 1);
             for (int32_t i = 0; i < it.count; i++) {
                 p[i].x += v[i].x;
                 p[i].y += v[i].y;
                 if (p[i].y > 1.5f) ecs_sched_commands_despawn(cmd, it.entities[i]);
             }
         }
     }

     static void report(ecs_sched_system_ctx *ctx) {
         printf("%d moving\n", (int)ecs_sched_query_count(ecs_sched_ctx_query(ctx, 0)));
     }

     int main(void) {
         ecs_sched_world *w = ecs_sched_world_create(NULL);          // NULL: defaults
         ecs_sched_id pos = ECS_SCHED_COMPONENT(w, Position);
         ecs_sched_id vel = ECS_SCHED_COMPONENT(w, Velocity);
         for (int n = 0; n < 3; n++) {
             Position p = {0, 0};
             Velocity v = {1, (float)n};
             const ecs_sched_id ids[] = {pos, vel};
             const void *values[] = {&p, &v};
             ecs_sched_spawn_with(w, 2, ids, values);
         }

         ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
             .name = "move", .fn = move, .commands = true,
             .queries = {{{ecs_sched_write(pos), ecs_sched_read(vel)}}}});
         ecs_sched_add_system(w, "Update", &(ecs_sched_system_desc){
             .name = "report", .fn = report, .after = {"move"},  // a sync point goes between
             .queries = {{{ecs_sched_read(pos)}}}});

         for (int frame = 0; frame < 2; frame++) {              // prints 2 moving, 1 moving
             if (ecs_sched_run_schedule(w, "Update") != ECS_SCHED_OK)
                 fprintf(stderr, "%s\n", ecs_sched_last_error(w));
         }
         ecs_sched_world_destroy(w);      // frees the schedules, their queries and buffers too
         return 0;
     }

   LICENSE

     MIT License

     Copyright (c) 2026 the ecs_sched.h authors

     Permission is hereby granted, free of charge, to any person obtaining a copy of this
     software and associated documentation files (the "Software"), to deal in the Software
     without restriction, including without limitation the rights to use, copy, modify, merge,
     publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons
     to whom the Software is furnished to do so, subject to the following conditions:

     The above copyright notice and this permission notice shall be included in all copies or
     substantial portions of the Software.

     THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED,
     INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR
     PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE
     FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR
     OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
     DEALINGS IN THE SOFTWARE.
*/
