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

#ifndef ECS_SCHED_H
#define ECS_SCHED_H

#ifdef __cplusplus
extern "C" {
#endif

/*=================================== src/base.h (public) ====================================*/
/* base: configuration, allocator/assert/log hooks, result codes, error text, and the small
   tools every module uses (growing arrays, bitsets, an arena, long messages). */

#define ECS_SCHED_VERSION_MAJOR 0
#define ECS_SCHED_VERSION_MINOR 3
#define ECS_SCHED_VERSION_PATCH 0
#define ECS_SCHED_VERSION_STRING "0.3.0"

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/* ---- configuration ----

   Every macro a user may define, in one place. Define them before including the header; the
   limits and ECS_SCHED_API must be the same in every file that includes it.

   Limits (fixed-size arrays in desc structs and contexts):
     ECS_SCHED_MAX_TERMS       terms per query                                    default 16
     ECS_SCHED_MAX_QUERIES     queries per system or condition                    default 4
     ECS_SCHED_MAX_RESOURCES   resources read, and written, per system/condition  default 8
     ECS_SCHED_MAX_CONDITIONS  run_if entries per system, set or group            default 4
     ECS_SCHED_MAX_REFS        names per in_set / before / after / ambiguous_with default 8
     ECS_SCHED_MAX_STATE_VALUES values of one state machine                       default 32
     ECS_SCHED_MAX_STATE_SOURCES machines a computed state is computed from        default 8
     ECS_SCHED_ITER_ROWS       rows per call of ecs_sched_iter_next_rows          default 64
   Fixed:
     ECS_SCHED_MAX_ALIGNMENT   the largest component alignment storage honours    64
     ECS_SCHED_DEFAULT_GRAIN   the largest piece a parallel iteration with grain 0 makes: 4096
                               items, fewer when that would leave a worker fewer than 8 pieces

   Switches:
     ECS_SCHED_IMPLEMENTATION  in exactly one file: compile the implementation there
     ECS_SCHED_STATIC          the whole library private to the one file that includes it
                               (public functions static; unused ones are not warned about)
     ECS_SCHED_API             how public functions are declared (default extern)
     ECS_SCHED_THREADS         the work-stealing pool and the parallel executor; the file
                               with the implementation is then compiled as C11 (<stdatomic.h>)
     ECS_SCHED_NO_MEMBARRIER   (with threads, Linux) ordinary fences instead of membarrier(2)

   Hooks (read where the implementation is compiled):
     ECS_SCHED_REALLOC(p, n), ECS_SCHED_FREE(p)  the allocator of worlds without their own
                               (define both or neither; default realloc and free)
     ECS_SCHED_ASSERT(cond)    programmer errors that cannot be reported (default assert)
     ECS_SCHED_ABORT()         the stop after an allocation failure inside stb_ds (abort)
     ECS_SCHED_LOG(level, result, message)  messages of worlds without a logger, and of the
                               stb_ds bridge (default: warnings and worse to stderr) */

#ifndef ECS_SCHED_MAX_TERMS
#define ECS_SCHED_MAX_TERMS 16
#endif
#ifndef ECS_SCHED_ITER_ROWS
#define ECS_SCHED_ITER_ROWS 64
#endif
#ifndef ECS_SCHED_MAX_QUERIES
#define ECS_SCHED_MAX_QUERIES 4
#endif
#ifndef ECS_SCHED_MAX_RESOURCES
#define ECS_SCHED_MAX_RESOURCES 8
#endif
#ifndef ECS_SCHED_MAX_CONDITIONS
#define ECS_SCHED_MAX_CONDITIONS 4
#endif
#ifndef ECS_SCHED_MAX_REFS
#define ECS_SCHED_MAX_REFS 8
#endif
#ifndef ECS_SCHED_MAX_STATE_VALUES
#define ECS_SCHED_MAX_STATE_VALUES 32
#endif
#ifndef ECS_SCHED_MAX_STATE_SOURCES
#define ECS_SCHED_MAX_STATE_SOURCES 8
#endif
#define ECS_SCHED_MAX_ALIGNMENT 64
#define ECS_SCHED_DEFAULT_GRAIN 4096

#ifndef ECS_SCHED_API
#ifdef ECS_SCHED_STATIC
#define ECS_SCHED_API static
#else
#define ECS_SCHED_API extern
#endif
#endif

/* The MAX macros size arrays in public structs, so a file that saw other values than the
   implementation passes structs of another layout. To make that a link error instead of
   memory corruption, every file refers to a function whose name spells out the values it
   saw; the implementation defines the one for its own values. A file that disagrees fails to
   link with "undefined reference to `ecs_sched_implementation_with_MAX_TERMS_16_..._MAX_REFS_2
   _...'": the values that file wants. (`retain` keeps the reference through --gc-sections.)
   The values must therefore be plain integer literals, such as 2, not (2). */
#define ECS_SCHED__CONFIG_PASTE(terms, queries, resources, conditions, refs, values, sources) \
    ecs_sched_implementation_with_MAX_TERMS_##terms##_MAX_QUERIES_##queries##                \
        _MAX_RESOURCES_##resources##_MAX_CONDITIONS_##conditions##_MAX_REFS_##refs##          \
            _MAX_STATE_VALUES_##values##_MAX_STATE_SOURCES_##sources
#define ECS_SCHED__CONFIG_NAME(terms, queries, resources, conditions, refs, values, sources) \
    ECS_SCHED__CONFIG_PASTE(terms, queries, resources, conditions, refs, values, sources)
#define ECS_SCHED__CONFIGURATION                                                          \
    ECS_SCHED__CONFIG_NAME(ECS_SCHED_MAX_TERMS, ECS_SCHED_MAX_QUERIES, ECS_SCHED_MAX_RESOURCES, \
                           ECS_SCHED_MAX_CONDITIONS, ECS_SCHED_MAX_REFS,                      \
                           ECS_SCHED_MAX_STATE_VALUES, ECS_SCHED_MAX_STATE_SOURCES)

#ifndef ECS_SCHED_STATIC   /* a private copy is compiled with the one file that uses it */
ECS_SCHED_API int ECS_SCHED__CONFIGURATION(void);
#if defined(__GNUC__) || defined(__clang__) || defined(__TINYC__)
#if defined(__has_attribute)
#if __has_attribute(retain)
#define ECS_SCHED__RETAIN retain,
#endif
#endif
#ifndef ECS_SCHED__RETAIN
#define ECS_SCHED__RETAIN
#endif
static int (*const ecs_sched__configuration)(void) __attribute__((ECS_SCHED__RETAIN used)) =
    ECS_SCHED__CONFIGURATION;
#endif
#endif

/* Every result code and its text, in one list. */
/* A printf-like function: its callers' formats are checked against their arguments, and its
   own use of the format it is given is not a non-literal format. (The reserved spellings, so
   that a program defining a printf macro does not change it.) */
#if defined(__GNUC__) || defined(__clang__)
#define ECS_SCHED__PRINTF(fmt_at, args_at) __attribute__((__format__(__printf__, fmt_at, args_at)))
#else
#define ECS_SCHED__PRINTF(fmt_at, args_at)
#endif

#define ECS_SCHED__RESULT_LIST(X)                                                       \
    X(OK,                     "ok")                                                     \
    X(ERR_OUT_OF_MEMORY,      "out of memory")                                          \
    X(ERR_INVALID_ARGUMENT,   "invalid argument")                                       \
    X(ERR_STALE_ENTITY,       "entity handle is stale, despawned or never spawned")     \
    X(ERR_UNKNOWN_COMPONENT,  "component id is not registered")                         \
    X(ERR_COMPONENT_MISMATCH, "component name registered again with another layout")    \
    X(ERR_MISSING_COMPONENT,  "entity does not have this component")                    \
    X(ERR_MISSING_RESOURCE,   "resource does not exist")                                \
    X(ERR_INVALID_QUERY,      "query terms contradict each other")                      \
    X(ERR_LIMIT,              "a size limit of the library was reached")                \
    X(ERR_INCONSISTENT,       "world consistency check failed")                        \
    X(ERR_ACCESS,             "a system used data it did not declare")                  \
    X(ERR_UNKNOWN_SCHEDULE,   "no schedule has this label")                             \
    X(ERR_RECURSIVE_RUN,      "a schedule was run while it was already running")        \
    X(ERR_DEPENDENCY_CYCLE,   "the before/after constraints form a cycle")              \
    X(ERR_HIERARCHY_CYCLE,    "the in_set relations form a cycle")                      \
    X(ERR_HIERARCHY_REDUNDANT, "a node is in a set both directly and through another")  \
    X(ERR_ORDER_AGAINST_PARENT, "a node is ordered against a set that contains it")     \
    X(ERR_DUPLICATE_NAME,     "ordering or ambiguous_with names several systems")       \
    X(ERR_NAME_CONFLICT,      "a name is used both for systems and for a set")          \
    X(ERR_CROSS_SET_DEPENDENCY, "a dependency joins nodes that are not siblings")       \
    X(ERR_UNKNOWN_SET,        "a set is referenced but nothing configures or fills it") \
    X(ERR_AMBIGUITY,          "systems with conflicting access have no order")          \
    X(ERR_CONDITION_WRITES,   "a run condition asks for write access")              \
    X(ERR_SCHEDULE_RUNNING,   "the schedule is running and cannot be rebuilt now")      \
    X(ERR_UNKNOWN_STATE,      "id is not a registered state machine")                   \
    X(ERR_STATE_MISMATCH,     "state machine name registered again with other values")  \
    X(ERR_STATE_ABSENT,       "the state machine does not exist now (a sub-state)")     \
    X(ERR_STATE_CYCLE,        "state machines would be computed from each other")      \
    X(ERR_PLUGIN_CYCLE,       "plugins need each other in a cycle")                     \
    X(ERR_SYSTEM_FAILED,      "a system reported a failure")                            \
    X(ERR_RELATION_CYCLE,     "a relationship would make an entity its own ancestor")   \
    X(ERR_REFUSED,            "a rule set at registration refuses the operation")       \
    X(ERR_NAME_CLASH,         "two entities would have the same name in one scope")     \
    X(ERR_NOT_FOUND,          "nothing has this name or path")

typedef enum ecs_sched_result {
#define ECS_SCHED__RESULT_ENUM(name, text) ECS_SCHED_##name,
    ECS_SCHED__RESULT_LIST(ECS_SCHED__RESULT_ENUM)
#undef ECS_SCHED__RESULT_ENUM
    ECS_SCHED_RESULT_COUNT
} ecs_sched_result;

/* The short fixed text of a result code ("out of memory"). */
ECS_SCHED_API const char *ecs_sched_result_string(ecs_sched_result result);

typedef enum ecs_sched_log_level {
    ECS_SCHED_LOG_DEBUG,
    ECS_SCHED_LOG_INFO,
    ECS_SCHED_LOG_WARN,
    ECS_SCHED_LOG_ERROR,
    ECS_SCHED_LOG_FATAL
} ecs_sched_log_level;

/* Receives every message the library writes, errors included. `result` is the code of the
   failure (or, for a warning, of the rule that warns: ECS_SCHED_ERR_AMBIGUITY, ...), and
   ECS_SCHED_OK for plain information, so a logger can filter without reading the text. */
typedef struct ecs_sched_logger {
    void (*fn)(ecs_sched_log_level level, ecs_sched_result result, const char *message,
               void *user_data);
    void *user_data;
} ecs_sched_logger;

/* A failure inside a schedule run, as the error hook gets it. */
typedef struct ecs_sched_failure {
    ecs_sched_result code;
    const char *kind;           /* "system", or "condition" */
    const char *name;           /* the system's (or condition's) name */
    const char *schedule;       /* the schedule it ran in */
    const char *message;        /* whole, e.g. "system 'spawn' in schedule 'Update': insert:
                                   entity 12v3 is stale" */
} ecs_sched_failure;

/* What a run does when a system fails (see ERRORS in the documentation block). */
typedef enum ecs_sched_error_policy {
    ECS_SCHED_ON_ERROR_DEFAULT = 0,  /* a schedule: the world's; a world: HOOK when it has an
                                        error hook, else STOP */
    ECS_SCHED_ON_ERROR_STOP,         /* no further system of the run starts */
    ECS_SCHED_ON_ERROR_CONTINUE,     /* every system runs */
    ECS_SCHED_ON_ERROR_HOOK          /* the world's error hook decides, failure by failure */
} ecs_sched_error_policy;

typedef enum ecs_sched_error_action {
    ECS_SCHED_ERROR_STOP,            /* as ECS_SCHED_ON_ERROR_STOP, from this failure on */
    ECS_SCHED_ERROR_CONTINUE,        /* the run goes on, and returns the failure */
    ECS_SCHED_ERROR_IGNORE           /* the run goes on as if it had not failed */
} ecs_sched_error_action;

/* Gets every failure of every run of the world (also under the STOP and CONTINUE policies,
   where what it returns is not asked). It may be called on a worker thread, never by two
   threads at once. */
typedef struct ecs_sched_error_hook {
    ecs_sched_error_action (*fn)(const ecs_sched_failure *failure, void *user_data);
    void *user_data;
} ecs_sched_error_hook;

/* A run-time allocator. realloc_fn(NULL, n) allocates; it is never called with size 0;
   returning NULL is an allocation failure the library recovers from. */
typedef struct ecs_sched_allocator {
    void *(*realloc_fn)(void *ptr, size_t size, void *user_data);
    void (*free_fn)(void *ptr, void *user_data);
    void *user_data;
} ecs_sched_allocator;

/* Allocation functions for stb_ds, for users who compile stb_ds's implementation themselves:
       #define STBDS_REALLOC(ctx, p, n) ecs_sched_stbds_realloc(ctx, p, n)
       #define STBDS_FREE(ctx, p)       ecs_sched_stbds_free(ctx, p)
   They use the compile-time ECS_SCHED_REALLOC/ECS_SCHED_FREE. stb_ds cannot survive a failed
   allocation, so a failure here is logged at FATAL level and ends the process with
   ECS_SCHED_ABORT() instead of letting stb_ds write through a NULL pointer. */
ECS_SCHED_API void *ecs_sched_stbds_realloc(void *context, void *ptr, size_t size);
ECS_SCHED_API void ecs_sched_stbds_free(void *context, void *ptr);

/*=================================== src/pool.h (public) ====================================*/
/* pool: a work-stealing thread pool (threads only with ECS_SCHED_THREADS). */

/* A pool of worker threads that run small tasks. The thread that creates the pool is worker 0
   and works while it waits; the pool starts thread_count - 1 more threads. Each worker keeps
   its tasks in its own deque and takes the newest; an idle worker steals from a random other
   worker about half of its tasks (up to 16, oldest first) at once, runs one and queues the
   rest as its own, and sleeps when there is nothing to steal.

   Without ECS_SCHED_THREADS the same API runs everything inline on the calling thread: submit
   calls the task at once, and the pool has one worker. */
typedef struct ecs_sched_pool ecs_sched_pool;

/* Tasks submitted with a group can be waited for together. Reusable once waited for. */
typedef struct ecs_sched_task_group ecs_sched_task_group;

typedef void (*ecs_sched_task_fn)(void *arg);
typedef void (*ecs_sched_range_fn)(int64_t begin, int64_t end, void *arg);

typedef struct ecs_sched_pool_desc {
    int32_t thread_count;           /* workers, the creating thread included; 0: one per
                                       hardware thread. 1 runs every task on the caller. */
    int32_t queue_capacity;         /* tasks a worker's deque holds (a power of two; 0: 4096).
                                       Submitting to a full deque runs the task at once. */
    ecs_sched_allocator allocator;  /* zero: ECS_SCHED_REALLOC / ECS_SCHED_FREE */
    ecs_sched_logger logger;        /* zero: errors to stderr */
} ecs_sched_pool_desc;

/* NULL when out of memory or when a thread cannot be started (the log says which). */
ECS_SCHED_API ecs_sched_pool *ecs_sched_pool_create(const ecs_sched_pool_desc *desc);
/* Runs every task already submitted, those they submit included, then stops and joins the
   threads. Call it when no other thread submits or waits (any thread may call it). */
ECS_SCHED_API void ecs_sched_pool_destroy(ecs_sched_pool *pool);
ECS_SCHED_API int32_t ecs_sched_pool_thread_count(const ecs_sched_pool *pool);
/* The calling thread's worker number, 0 .. thread_count - 1, to index per-thread scratch
   memory; -1 for a thread that is not one of the pool's. */
ECS_SCHED_API int32_t ecs_sched_pool_worker_index(const ecs_sched_pool *pool);

ECS_SCHED_API ecs_sched_task_group *ecs_sched_pool_group_create(ecs_sched_pool *pool);
ECS_SCHED_API void ecs_sched_pool_group_destroy(ecs_sched_pool *pool, ecs_sched_task_group *group);

/* Queues fn(arg) on the calling worker's deque; group may be NULL. Call it from a worker (the
   creating thread, or inside a task); on any other thread the task runs at once. */
ECS_SCHED_API void ecs_sched_pool_submit(ecs_sched_pool *pool, ecs_sched_task_group *group,
                                         ecs_sched_task_fn fn, void *arg);
/* Returns once every task of the group has run, running tasks (of any group) meanwhile. */
ECS_SCHED_API void ecs_sched_pool_wait(ecs_sched_pool *pool, ecs_sched_task_group *group);
/* Calls fn(b, e, arg) over disjoint pieces [b, e) of [begin, end), each at most `grain` long
   (grain <= 0: chosen for you), in parallel; returns when all are done. */
ECS_SCHED_API void ecs_sched_pool_parallel_for(ecs_sched_pool *pool, int64_t begin, int64_t end,
                                               int64_t grain, ecs_sched_range_fn fn, void *arg);

/*=================================== src/world.h (public) ===================================*/
/* world: components, archetype tables and the entity index. */

/* An entity handle: index in the low 32 bits, generation in the high 32 bits. */
typedef uint64_t ecs_sched_entity;
/* A registered component (or tag, or resource type). 0 is never a valid id. */
typedef uint32_t ecs_sched_id;

#define ECS_SCHED_NULL_ENTITY ((ecs_sched_entity)0)
#define ECS_SCHED_ENTITY_INDEX(e) ((uint32_t)((e) & 0xffffffffu))
#define ECS_SCHED_ENTITY_GENERATION(e) ((uint32_t)((e) >> 32))

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
    bool tracked;         /* keep, per entity, when it was added and last changed, for
                             added/changed query terms (see CHANGE DETECTION); fixed at
                             registration */
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
/* The same with .tracked set: ECS_SCHED_TRACKED_COMPONENT(world, Position). */
ECS_SCHED_API ecs_sched_id ecs_sched_tracked_component_register_type(ecs_sched_world *world,
                                                                     const char *name,
                                                                     size_t size,
                                                                     size_t alignment);
#define ECS_SCHED_TRACKED_COMPONENT(world, T) \
    ecs_sched_tracked_component_register_type((world), #T, sizeof(T), ECS_SCHED_ALIGNOF(T))
/* Whether the component was registered with .tracked. */
ECS_SCHED_API bool ecs_sched_component_is_tracked(const ecs_sched_world *world, ecs_sched_id id);

/* The world's thread pool, created on first use with ecs_sched_world_desc.thread_count
   workers (the thread that first asks is worker 0). NULL when it cannot be created. */
ECS_SCHED_API ecs_sched_pool *ecs_sched_world_pool(ecs_sched_world *world);
/* Replaces the world's error policy and hook (ecs_sched_world_desc.on_error, .error_hook);
   DEFAULT means HOOK with a hook, else STOP. Schedules that chose their own keep it. */
ECS_SCHED_API ecs_sched_result ecs_sched_world_set_error_policy(ecs_sched_world *world,
                                                               ecs_sched_error_policy policy,
                                                               ecs_sched_error_hook hook);

/*=================================== src/ticks.h (public) ===================================*/
/* ticks: the change ticks of tracked components, kept beside the rows of their tables. */

/*=================================== src/query.h (public) ===================================*/
/* query: queries, their cached tables, iteration and parallel iteration. */

/* ---- queries ---- */

typedef enum ecs_sched_term_kind {
    ECS_SCHED_TERM_DEFAULT = 0,    /* as READ; with id 0, the zero term that ends the list */
    ECS_SCHED_TERM_READ,           /* required, read */
    ECS_SCHED_TERM_WRITE,          /* required, written */
    ECS_SCHED_TERM_OPTIONAL_READ,  /* field NULL where absent */
    ECS_SCHED_TERM_OPTIONAL_WRITE,
    ECS_SCHED_TERM_WITHOUT,        /* only entities without it; field always NULL */
    /* change detection (tracked components only; see CHANGE DETECTION): */
    ECS_SCHED_TERM_ADDED,          /* required, read; rows added since the last look */
    ECS_SCHED_TERM_CHANGED,        /* required, read; rows changed since the last look */
    ECS_SCHED_TERM_WRITE_MANUAL,   /* required, written; marks no row changed by itself:
                                      the loop marks what it changes, with
                                      ecs_sched_iter_mark_changed */
    /* relationships and hierarchies (see RELATIONSHIPS and HIERARCHY): */
    ECS_SCHED_TERM_RELATED,        /* required, read: relationship kind `id` to `target` */
    ECS_SCHED_TERM_FROM_PARENT,    /* required: component `id` of the entity's ChildOf
                                      parent, read; the field holds one pointer per row */
    ECS_SCHED_TERM_OPTIONAL_FROM_PARENT,  /* the same, the pointer NULL where the entity has
                                             no parent or the parent lacks `id` */
    ECS_SCHED_TERM_CASCADE         /* optional read of relationship `id` (ChildOf, or a kind
                                      registered acyclic and exclusive), and iteration in
                                      depth order: every target before its sources */
} ecs_sched_term_kind;

typedef struct ecs_sched_term {
    ecs_sched_id id;               /* 0 ends the term list */
    ecs_sched_term_kind kind;
    ecs_sched_entity target;       /* ECS_SCHED_TERM_RELATED: the target */
} ecs_sched_term;

static inline ecs_sched_term ecs_sched_read(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_READ; return t;
}
static inline ecs_sched_term ecs_sched_write(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_WRITE; return t;
}
static inline ecs_sched_term ecs_sched_optional_read(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_OPTIONAL_READ; return t;
}
static inline ecs_sched_term ecs_sched_optional_write(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_OPTIONAL_WRITE; return t;
}
static inline ecs_sched_term ecs_sched_without(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_WITHOUT; return t;
}
static inline ecs_sched_term ecs_sched_added(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_ADDED; return t;
}
static inline ecs_sched_term ecs_sched_changed(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_CHANGED; return t;
}
static inline ecs_sched_term ecs_sched_write_manual(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_WRITE_MANUAL; return t;
}
/* Entities with a relationship of kind `kind` to `target` (read(kind) asks for any target,
   without(kind) for none). */
static inline ecs_sched_term ecs_sched_related(ecs_sched_id kind, ecs_sched_entity target) {
    ecs_sched_term t; t.id = kind; t.target = target; t.kind = ECS_SCHED_TERM_RELATED; return t;
}
static inline ecs_sched_term ecs_sched_from_parent(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_FROM_PARENT; return t;
}
static inline ecs_sched_term ecs_sched_optional_from_parent(ecs_sched_id id) {
    ecs_sched_term t; t.id = id; t.target = 0; t.kind = ECS_SCHED_TERM_OPTIONAL_FROM_PARENT;
    return t;
}
static inline ecs_sched_term ecs_sched_cascade(ecs_sched_id kind) {
    ecs_sched_term t; t.id = kind; t.target = 0; t.kind = ECS_SCHED_TERM_CASCADE; return t;
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
   to the first value of its column (NULL for tags, absent optionals and without-terms). A
   query with added or changed terms, or one that writes a tracked component, hands out runs
   of rows instead: the rows of a table that pass its filters, in table order. */
typedef struct ecs_sched_iter {
    int32_t count;
    const ecs_sched_entity *entities;
    void *fields[ECS_SCHED_MAX_TERMS];
    const ecs_sched_query *query_;   /* private */
    int32_t next_;                   /* private */
    int32_t row_;                    /* private: the row after this run (-1 before the
                                        first ecs_sched_iter_next) */
    int32_t at_;                     /* private: the next change-log entry, or -1 */
    uint32_t last_run_, this_run_;   /* private: the window of changes it sees */
    bool by_rows_;                   /* private: advanced by ecs_sched_iter_next_rows */
    int32_t rows[ECS_SCHED_ITER_ROWS];   /* ecs_sched_iter_next_rows: the rows handed out */
} ecs_sched_iter;

#define ECS_SCHED_FIELD(it, T, index) ((T *)(it)->fields[(index)])
/* A from_parent term's field: per row, a pointer to the parent's value (or NULL). */
#define ECS_SCHED_PARENT_FIELD(it, T, index) ((const T *const *)(it)->fields[(index)])

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
/* The same rows as ecs_sched_iter_next, handed out by index: up to ECS_SCHED_ITER_ROWS rows
   of one table at a time, it->rows[0 .. it->count - 1], with it->fields and it->entities
   pointing at the table's first row (the i-th row's value is field[it->rows[i]]). For a query
   with added or changed terms that matches few rows of many: the rows come from the table's
   change log, in the order they changed, with no call per row (see CHANGE DETECTION). An
   iterator is advanced by one of the two functions only. */
ECS_SCHED_API bool ecs_sched_iter_next_rows(ecs_sched_iter *it);
/* Marks row `row` (0 .. it->count - 1) of the current run changed, in the component of term
   `term`: a written term of a tracked component (what an ECS_SCHED_TERM_WRITE_MANUAL loop
   calls for each row it changes). After ecs_sched_iter_next_rows, `row` is an index into
   it->rows. */
ECS_SCHED_API ecs_sched_result ecs_sched_iter_mark_changed(ecs_sched_iter *it, int32_t term,
                                                           int32_t row);

/* Receives one piece of a query: it->count rows of one table, it->entities and it->fields
   pointing at the piece's first row. Pieces are disjoint; several run at once. */
typedef void (*ecs_sched_chunk_fn)(ecs_sched_iter *it, void *arg);
/* Iterates a query in pieces of at most `grain` rows spread over the pool, and returns when
   every piece is done (grain 0: see ECS_SCHED_DEFAULT_GRAIN). Structural changes are not
   allowed meanwhile. */
ECS_SCHED_API void ecs_sched_query_par_iter(ecs_sched_query *query, ecs_sched_pool *pool,
                                            int32_t grain, ecs_sched_chunk_fn fn, void *arg);

/*================================= src/resource.h (public) ==================================*/
/* resource: one value per component type, owned by the world. */

/* Creates or overwrites. value NULL: default value. */
ECS_SCHED_API ecs_sched_result ecs_sched_resource_insert(ecs_sched_world *world, ecs_sched_id id,
                                                         const void *value);
ECS_SCHED_API const void *ecs_sched_resource_get(ecs_sched_world *world, ecs_sched_id id);
ECS_SCHED_API void *ecs_sched_resource_get_mut(ecs_sched_world *world, ecs_sched_id id);
ECS_SCHED_API ecs_sched_result ecs_sched_resource_remove(ecs_sched_world *world, ecs_sched_id id);
ECS_SCHED_API bool ecs_sched_resource_exists(const ecs_sched_world *world, ecs_sched_id id);
/* Inserts a resource (or sets it) and makes it main-thread-only ("non-send": a window, a GL
   context): a system that declares it in .reads or .writes, or that a condition reading it
   guards, runs on the thread that runs the schedule, as if it asked for .main_thread. Reading
   it through a system context on any other thread is refused with ECS_SCHED_ERR_ACCESS.
   Make it so before the schedules that use it are built (they are built at their first run). */
ECS_SCHED_API ecs_sched_result ecs_sched_resource_insert_non_send(ecs_sched_world *world,
                                                                 ecs_sched_id id,
                                                                 const void *value);
ECS_SCHED_API bool ecs_sched_resource_is_non_send(const ecs_sched_world *world, ecs_sched_id id);

/*================================== src/entity.h (public) ===================================*/
/* entity: spawning, despawning, and the components of one entity. */

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

/*================================= src/commands.h (public) ==================================*/
/* commands: command buffers and their application. */

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

/*================================== src/context.h (public) ==================================*/
/* context: what a running system or condition can reach: its queries, the resources it
   declared, its command buffer, and (exclusive systems only) the world. */


typedef struct ecs_sched_system_ctx ecs_sched_system_ctx;
typedef void (*ecs_sched_system_fn)(ecs_sched_system_ctx *ctx);

ECS_SCHED_API const char *ecs_sched_ctx_name(const ecs_sched_system_ctx *ctx);
ECS_SCHED_API void *ecs_sched_ctx_user_data(const ecs_sched_system_ctx *ctx);
/* The index-th query of the system's desc; NULL (and ERR_ACCESS) when there is none. */
ECS_SCHED_API ecs_sched_query *ecs_sched_ctx_query(ecs_sched_system_ctx *ctx, int32_t index);
/* Shorthand for ecs_sched_query_iter(ecs_sched_ctx_query(ctx, index)). */
ECS_SCHED_API ecs_sched_iter ecs_sched_ctx_iter(ecs_sched_system_ctx *ctx, int32_t index);
/* A resource the system declared in .reads or .writes. Anything else is refused with
   ERR_ACCESS, a failure of the system. A declared resource that does not exist gives NULL
   and ERR_MISSING_RESOURCE, a failure of the system too. */
ECS_SCHED_API const void *ecs_sched_ctx_resource(ecs_sched_system_ctx *ctx, ecs_sched_id id);
/* A resource the system declared in .writes. */
ECS_SCHED_API void *ecs_sched_ctx_resource_mut(ecs_sched_system_ctx *ctx, ecs_sched_id id);
/* The same for a resource the system can live without: NULL, and no failure, when it does
   not exist (Bevy's Option<Res<T>>). It is declared in .reads or .writes all the same. */
ECS_SCHED_API const void *ecs_sched_ctx_optional_resource(ecs_sched_system_ctx *ctx,
                                                         ecs_sched_id id);
ECS_SCHED_API void *ecs_sched_ctx_optional_resource_mut(ecs_sched_system_ctx *ctx,
                                                       ecs_sched_id id);
/* The system's command buffer: the system must declare .commands = true. */
ECS_SCHED_API ecs_sched_commands *ecs_sched_ctx_commands(ecs_sched_system_ctx *ctx);
/* The whole world: exclusive systems only. */
ECS_SCHED_API ecs_sched_world *ecs_sched_ctx_world(ecs_sched_system_ctx *ctx);

/* ---- failures (see ERRORS in the documentation block) ----

   A system fails by calling ecs_sched_ctx_fail, or by leaving a failed library call it made
   while it ran unhandled: the first failure of a run of the system is recorded on its
   context, and counts when the system returns unless it called ecs_sched_ctx_clear_error.
   (A refused access, ERR_ACCESS, cannot be cleared.) The same holds for a condition. */

/* Records a failure of the running system: `code` (not ECS_SCHED_OK; ECS_SCHED_ERR_SYSTEM_FAILED
   when nothing fits better) and a printf-style message, which gets the system's and the
   schedule's names in front. Returns code. */
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_fail(ecs_sched_system_ctx *ctx, ecs_sched_result code,
                                                 const char *format, ...) ECS_SCHED__PRINTF(3, 4);
/* The failure recorded on the running system so far, or ECS_SCHED_OK. */
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_error(const ecs_sched_system_ctx *ctx);
/* The system handled what failed: the failure recorded so far does not count (a refused
   access stays). */
ECS_SCHED_API void ecs_sched_ctx_clear_error(ecs_sched_system_ctx *ctx);
/* The same for query `index` of a system, on the world's pool, within the system's declared
   access. ECS_SCHED_ERR_ACCESS for an undeclared query; ECS_SCHED_ERR_OUT_OF_MEMORY when the
   pool cannot be created (then nothing ran). */
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_par_iter(ecs_sched_system_ctx *ctx, int32_t index,
                                                      int32_t grain, ecs_sched_chunk_fn fn,
                                                      void *arg);

/*================================== src/message.h (public) ==================================*/
/* message: messages between systems, and the lists of removed components. */

/* ---- messages ----

   A message type is registered like a component; its id is what systems declare: a sender
   in .writes, a reader in .reads. Messages are copied in, kept in send order, and read once
   by each reader (each with its own cursor). A message lives for two updates of the queues
   (ecs_sched_messages_update; an app updates them once a frame, see MESSAGES in the
   documentation block), then goes (its type's dtor hook runs). */

typedef struct ecs_sched_message_desc {
    const char *name;                 /* required, unique among components and messages */
    size_t size;                      /* 0: a message without data (only its count matters) */
    size_t alignment;                 /* 0: as for components */
    ecs_sched_type_hooks hooks;       /* copy, move and dtor are used (owned payloads) */
} ecs_sched_message_desc;

/* Registers a message type; returns its id, or 0 on failure. Registering it again with the
   same layout returns the same id. */
ECS_SCHED_API ecs_sched_id ecs_sched_message_register(ecs_sched_world *world,
                                                      const ecs_sched_message_desc *desc);
ECS_SCHED_API ecs_sched_id ecs_sched_message_register_type(ecs_sched_world *world,
                                                           const char *name, size_t size,
                                                           size_t alignment);
/* Registers C type T as a message type: ECS_SCHED_MESSAGE(world, Hit). */
#define ECS_SCHED_MESSAGE(world, T) \
    ecs_sched_message_register_type((world), #T, sizeof(T), ECS_SCHED_ALIGNOF(T))
ECS_SCHED_API bool ecs_sched_is_message(const ecs_sched_world *world, ecs_sched_id id);

/* Sends a message (its bytes are copied; NULL: a zeroed one) from a system that declared the
   type in .writes. */
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_send(ecs_sched_system_ctx *ctx, ecs_sched_id id,
                                                  const void *message);
/* Sends a new message, zeroed, and returns it for the system to fill in (NULL on failure):
   no copy, for systems that send many. It stays valid until the system sends the next
   message of that type. */
ECS_SCHED_API void *ecs_sched_ctx_send_new(ecs_sched_system_ctx *ctx, ecs_sched_id id);
/* Sends `count` messages from an array of them. */
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_send_batch(ecs_sched_system_ctx *ctx,
                                                        ecs_sched_id id, int32_t count,
                                                        const void *messages);
/* The same outside systems (or from an exclusive system). */
ECS_SCHED_API ecs_sched_result ecs_sched_send(ecs_sched_world *world, ecs_sched_id id,
                                              const void *message);
ECS_SCHED_API ecs_sched_result ecs_sched_send_batch(ecs_sched_world *world, ecs_sched_id id,
                                                    int32_t count, const void *messages);

/* What a read hands out: the messages not read yet, oldest first, in at most two runs of
   `count` values at `data` (ecs_sched_messages_next moves to the next run). `missed` counts
   the messages that were dropped before this reader read them (it fell behind by more than
   two updates), `total` the messages of the read. */
typedef struct ecs_sched_messages {
    const void *data;
    int32_t count;
    int32_t total;
    int64_t missed;
    const void *queue_;               /* private */
    uint64_t from_, to_;              /* private: the sequence numbers read */
    int32_t part_;                    /* private */
} ecs_sched_messages;

ECS_SCHED_API bool ecs_sched_messages_next(ecs_sched_messages *read);

/* Reads the messages of a type the system declared (in .reads, or .writes), sent since the
   system last read them: each message once. */
ECS_SCHED_API ecs_sched_messages ecs_sched_ctx_messages(ecs_sched_system_ctx *ctx,
                                                        ecs_sched_id id);

/* A reader outside systems: a cursor of its own. A new cursor starts at the oldest message
   still kept. */
typedef struct ecs_sched_message_cursor {
    ecs_sched_id id;
    uint64_t next_;                   /* private: the sequence number it reads next */
    int64_t missed;                   /* messages it missed, in all */
} ecs_sched_message_cursor;

ECS_SCHED_API ecs_sched_message_cursor ecs_sched_message_cursor_make(ecs_sched_world *world,
                                                                     ecs_sched_id id);
ECS_SCHED_API ecs_sched_messages ecs_sched_message_read(ecs_sched_world *world,
                                                        ecs_sched_message_cursor *cursor);
/* Messages sent so far that the cursor has not read (without reading them). */
ECS_SCHED_API int32_t ecs_sched_message_unread(ecs_sched_world *world,
                                               const ecs_sched_message_cursor *cursor);

/* Drops the messages sent before the previous update and keeps those sent since: every
   message lives for two updates. An app does it once a frame (see MESSAGES); a world without
   an app calls it itself, once a frame. */
ECS_SCHED_API void ecs_sched_messages_update(ecs_sched_world *world);

/* State-scoped messages: the messages of this type are dropped when state machine `machine`
   leaves `value` (on_enter false) or reaches it (true), so that, say, a menu's clicks do not
   reach the game. Readers do not count them as missed. */
ECS_SCHED_API ecs_sched_result ecs_sched_message_scope_to_state(ecs_sched_world *world,
                                                               ecs_sched_id message,
                                                               ecs_sched_id machine,
                                                               int32_t value, bool on_enter);

/* ---- removed components ----

   A tracked component (registered with .tracked) keeps the entities that lost it (removed,
   or despawned with it) as messages of its own: ecs_sched_entity values, read like any
   messages. They live for two updates of the queues, as messages do. */

/* The entities that lost the component since the system last looked (in the order they lost
   it). The system need not declare anything for it. */
ECS_SCHED_API ecs_sched_messages ecs_sched_ctx_removed(ecs_sched_system_ctx *ctx,
                                                       ecs_sched_id component);
/* A cursor outside systems, read with ecs_sched_message_read. */
ECS_SCHED_API ecs_sched_message_cursor ecs_sched_removed_cursor_make(ecs_sched_world *world,
                                                                     ecs_sched_id component);

/*================================= src/condition.h (public) =================================*/
/* condition: run conditions, their combinators, and the built-in conditions. */


/* A condition reads the world through its context (its queries and declared resources) and
   says whether what it guards runs. It must not write: a condition that declares write
   access is refused when the schedule is built. */
typedef bool (*ecs_sched_condition_fn)(ecs_sched_system_ctx *ctx);
/* For ECS_SCHED_CONDITION_RESOURCE_EQUALS: true when the resource equals the value. */
typedef bool (*ecs_sched_equals_fn)(const void *resource, const void *value, void *user_data);

typedef enum ecs_sched_condition_kind {
    ECS_SCHED_CONDITION_FN = 0,           /* fn(ctx) */
    ECS_SCHED_CONDITION_AND,              /* operands[0] && operands[1], short-circuit */
    ECS_SCHED_CONDITION_OR,               /* operands[0] || operands[1], short-circuit */
    ECS_SCHED_CONDITION_NOT,              /* !operands[0] */
    ECS_SCHED_CONDITION_RESOURCE_EXISTS,  /* the resource `resource` exists */
    ECS_SCHED_CONDITION_RESOURCE_EQUALS,  /* it exists and equals `value` */
    ECS_SCHED_CONDITION_RUN_ONCE,         /* true the first time it is evaluated only */
    ECS_SCHED_CONDITION_IN_STATE,         /* state machine `resource` is at `state_value` */
    ECS_SCHED_CONDITION_STATE_EXISTS,     /* state machine `resource` has a value */
    ECS_SCHED_CONDITION_STATE_CHANGED,    /* its value changed since this instance last looked */
    ECS_SCHED_CONDITION_STATE_IN_STACK,   /* `state_value` is current or covered by a push */
    ECS_SCHED_CONDITION_ON_TIMER,         /* time.h: each time `duration_ns` elapses */
    ECS_SCHED_CONDITION_ONCE_AFTER_DELAY, /* time.h: once, when `duration_ns` has elapsed */
    ECS_SCHED_CONDITION_REPEATING_AFTER_DELAY, /* time.h: always, once `duration_ns` elapsed */
    ECS_SCHED_CONDITION_TIME_PAUSED,      /* time.h: the virtual clock is paused */
    ECS_SCHED_CONDITION_RESOURCE_ADDED,   /* `resource` was added since this instance looked */
    ECS_SCHED_CONDITION_RESOURCE_CHANGED, /* it exists and changed (or was added) since */
    ECS_SCHED_CONDITION_ON_MESSAGE,       /* messages of type `resource` came since it looked */
    ECS_SCHED_CONDITION_ANY_COMPONENT_REMOVED /* tracked component `resource` was removed
                                                 from an entity since it looked */
} ecs_sched_condition_kind;

/* A condition, by value. Adding it to a system or set copies it (operands, value bytes and
   all), so the originals may go out of scope afterwards. Each run_if entry is its own
   instance: evaluated at most once per schedule run, right before the first system it
   guards would run. */
typedef struct ecs_sched_condition {
    ecs_sched_condition_kind kind;
    const char *name;                 /* for messages and graphs; a default is derived */
    ecs_sched_condition_fn fn;
    void *user_data;                  /* for fn, and for equals */
    ecs_sched_query_desc queries[ECS_SCHED_MAX_QUERIES];
    ecs_sched_id reads[ECS_SCHED_MAX_RESOURCES];
    ecs_sched_id writes[ECS_SCHED_MAX_RESOURCES];   /* must stay empty */
    ecs_sched_id resource;            /* RESOURCE_*; the machine of STATE_* */
    int32_t state_value;              /* IN_STATE, STATE_IN_STACK */
    int64_t duration_ns;              /* ON_TIMER, ONCE_AFTER_DELAY, REPEATING_AFTER_DELAY */
    const void *value;                /* RESOURCE_EQUALS: value_size bytes, copied */
    size_t value_size;
    ecs_sched_equals_fn equals;       /* RESOURCE_EQUALS: NULL compares bytes */
    const struct ecs_sched_condition *operands[2];  /* AND, OR, NOT */
} ecs_sched_condition;

ECS_SCHED_API ecs_sched_condition ecs_sched_condition_and(const ecs_sched_condition *a,
                                                         const ecs_sched_condition *b);
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_or(const ecs_sched_condition *a,
                                                        const ecs_sched_condition *b);
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_not(const ecs_sched_condition *a);
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_resource_exists(ecs_sched_id resource);
/* value_size must be the resource's size. */
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_resource_equals(ecs_sched_id resource,
                                                                     const void *value,
                                                                     size_t value_size);
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_resource_equals_with(
    ecs_sched_id resource, const void *value, size_t value_size, ecs_sched_equals_fn equals,
    void *user_data);
/* The same for a main-thread-only resource (ecs_sched_resource_insert_non_send): they are
   evaluated on the thread that runs the schedule, as every condition that reads one is. */
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_non_send_resource_exists(ecs_sched_id resource);
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_non_send_resource_equals(ecs_sched_id resource,
                                                                              const void *value,
                                                                              size_t value_size);
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_run_once(void);
/* True when the resource was inserted (added), or written through resource_insert,
   resource_get_mut, ecs_sched_ctx_resource_mut or a command (changed), since this
   condition's previous evaluation; false while it does not exist. The first evaluation sees
   everything before it. (CHANGE DETECTION) */
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_resource_added(ecs_sched_id resource);
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_resource_changed(ecs_sched_id resource);
/* True when messages of the type were sent since this condition last looked (it reads them
   with a cursor of its own, so a system it guards still reads them all). */
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_on_message(ecs_sched_id message);
/* True when a tracked component was removed from an entity (or despawned with it) since this
   condition last looked. */
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_any_component_removed(ecs_sched_id component);

/* (C99) The address of a condition made by an expression, for run_if lists:
       .run_if = {ECS_SCHED_COND(ecs_sched_condition_resource_exists(score_id))}
   It lives until the end of the enclosing block, long enough for the add call, which copies
   it. In C++, keep the condition in a variable and take its address instead. */
#define ECS_SCHED_COND(condition) ((const ecs_sched_condition[1]){condition})

/*=================================== src/graph.h (public) ===================================*/
/* graph: schedules as stored: systems, sets, their configuration, labels. */

/* How a build reports a problem that does not make the graph unsolvable. */
typedef enum ecs_sched_report {
    ECS_SCHED_REPORT_DEFAULT = 0,    /* the rule's default */
    ECS_SCHED_REPORT_IGNORE,
    ECS_SCHED_REPORT_WARN,           /* log a warning, build anyway */
    ECS_SCHED_REPORT_ERROR           /* fail the build */
} ecs_sched_report;

/* Where a system or set sits: the sets it is in, what it runs before and after (systems or
   sets, by name), its run conditions, and which conflicts with it are known to be harmless.
   Configuration only ever adds; it is solved when the schedule is built.
   Run conditions are given by address (NULL entries are skipped) and copied when added, so a
   condition can be defined once and used by many systems:
       static const ecs_sched_condition not_paused = {.fn = is_running, .reads = {paused_id}};
       ... .run_if = {&not_paused} ...
       ... .run_if = {&(ecs_sched_condition){.fn = every_other_frame}} ...      (C99)
       ... .run_if = {ECS_SCHED_COND(ecs_sched_condition_run_once())} ...      (C99) */
#define ECS_SCHED__NODE_CONFIG                                                              \
    bool ambiguous_with_all;                                                                \
    const char *in_set[ECS_SCHED_MAX_REFS];                                                 \
    const char *before[ECS_SCHED_MAX_REFS];                                                 \
    const char *after[ECS_SCHED_MAX_REFS];                                                  \
    /* the same, without an automatic sync point for this edge */                           \
    const char *before_ignore_deferred[ECS_SCHED_MAX_REFS];                                 \
    const char *after_ignore_deferred[ECS_SCHED_MAX_REFS];                                  \
    const ecs_sched_condition *run_if[ECS_SCHED_MAX_CONDITIONS];                            \
    const char *ambiguous_with[ECS_SCHED_MAX_REFS]

typedef struct ecs_sched_system_desc {
    const char *name;                /* default: "system" */
    ecs_sched_system_fn fn;          /* ecs_sched_apply_deferred makes a sync point */
    void *user_data;
    ecs_sched_query_desc queries[ECS_SCHED_MAX_QUERIES];
    ecs_sched_id reads[ECS_SCHED_MAX_RESOURCES];    /* resources read */
    ecs_sched_id writes[ECS_SCHED_MAX_RESOURCES];   /* resources written */
    bool exclusive;                  /* gets the whole world, runs alone */
    bool commands;                   /* records commands in its own buffer */
    bool main_thread;                /* runs on the thread that runs the schedule (for APIs
                                        bound to the thread that made a window or context);
                                        unlike exclusive, others run meanwhile */
    ECS_SCHED__NODE_CONFIG;
} ecs_sched_system_desc;

typedef struct ecs_sched_set_desc {
    const char *name;                /* required */
    ECS_SCHED__NODE_CONFIG;
} ecs_sched_set_desc;

/* Several systems at once. A shared in_set puts each system in those sets; the rest of the
   shared configuration (before, after, run_if, ...) applies to the group as a whole, through an
   anonymous set holding them: its conditions are evaluated once for the group. With chain,
   each system runs before the next. */
typedef struct ecs_sched_systems_desc {
    const ecs_sched_system_desc *systems;
    int32_t count;
    bool chain;
    bool chain_ignore_deferred;      /* chain without automatic sync points (implies chain) */
    ECS_SCHED__NODE_CONFIG;
} ecs_sched_systems_desc;

typedef struct ecs_sched_schedule_desc {
    const char *default_set;         /* systems added without in_set go in this set */
    ecs_sched_report cross_set_dependencies;  /* default warn */
    ecs_sched_report unknown_sets;            /* default error */
    ecs_sched_report ambiguities;             /* default warn */
    ecs_sched_report duplicate_names;         /* default error */
    bool no_auto_sync;               /* do not insert sync points after command writers */
    uint64_t shuffle_seed;           /* nonzero: shuffle the unconstrained order with it */
    ecs_sched_executor executor;     /* default: the world's (ecs_sched_world_desc.executor) */
    ecs_sched_error_policy on_error; /* default: the world's; HOOK uses the world's hook */
} ecs_sched_schedule_desc;

/* The sync-point system: use it as a system's fn. When it runs, the pending commands of every
   system of the schedule are applied, in plan order. */
ECS_SCHED_API void ecs_sched_apply_deferred(ecs_sched_system_ctx *ctx);

/* Each of these creates the schedule when the label is new, and marks a built schedule for
   rebuilding before its next run. */
ECS_SCHED_API ecs_sched_result ecs_sched_schedule_configure(ecs_sched_world *world,
                                                           const char *schedule,
                                                           const ecs_sched_schedule_desc *desc);
ECS_SCHED_API ecs_sched_result ecs_sched_add_system(ecs_sched_world *world, const char *schedule,
                                                   const ecs_sched_system_desc *desc);
ECS_SCHED_API ecs_sched_result ecs_sched_add_systems(ecs_sched_world *world, const char *schedule,
                                                    const ecs_sched_systems_desc *desc);
ECS_SCHED_API ecs_sched_result ecs_sched_configure_set(ecs_sched_world *world,
                                                      const char *schedule,
                                                      const ecs_sched_set_desc *desc);
/* Orders sets one after the other: sets[0] before sets[1] before ... */
ECS_SCHED_API ecs_sched_result ecs_sched_chain_sets(ecs_sched_world *world, const char *schedule,
                                                   const char *const *sets, int32_t count,
                                                   bool ignore_deferred);
ECS_SCHED_API bool ecs_sched_schedule_exists(const ecs_sched_world *world, const char *schedule);

/*=================================== src/build.h (public) ===================================*/
/* build: name resolution, hierarchy and dependency checks, flattening, ordering. */

/*================================== src/access.h (public) ===================================*/
/* access: what each system touches, conflicts, and ambiguity detection. */

/*=================================== src/plan.h (public) ====================================*/
/* plan: sync points and the built plan. */

/* Builds now (a run builds when needed). A failed build leaves the schedule unbuilt. */
ECS_SCHED_API ecs_sched_result ecs_sched_schedule_build(ecs_sched_world *world,
                                                       const char *schedule);
/* The built plan's order: up to `capacity` names (systems, and "apply_deferred" for
   automatic sync points). Returns the number of entries in the plan, or -1 on failure. */
ECS_SCHED_API int32_t ecs_sched_schedule_order(ecs_sched_world *world, const char *schedule,
                                              const char **names, int32_t capacity);

/*================================== src/change.h (public) ===================================*/
/* change: change ticks, iteration by what changed, and keeping old ticks meaningful. */

/* The last change tick handed out: systems and conditions take one each time they run (while
   something in the world tracks changes), and so does a query with added or changed terms
   iterated outside systems. */
ECS_SCHED_API uint32_t ecs_sched_change_tick(const ecs_sched_world *world);
/* Moves the change tick on by `ticks`, as if that many systems had run, keeping every tick in
   the world meaningful on the way (see CHANGE DETECTION). For tests of programs that run for
   a long time: a 32-bit tick wraps after about four billion system runs. */
ECS_SCHED_API void ecs_sched_change_tick_advance(ecs_sched_world *world, uint32_t ticks);

/*================================= src/observer.h (public) ==================================*/
/* observer: code that runs the moment a component is added, written or removed. */

/* ---- observers ----

   An observer is a function called for an event on a component, right where the change
   happens: in a direct world call, in the application of a command buffer (on the thread
   that applies it), in a batch spawn. Several observers of an event run in the order they
   were added. Inside one, the world can be read and values written (ecs_sched_get_mut);
   structural changes (spawn, insert, remove, despawn, resource insert) made through the world
   are deferred: recorded in the observer's own command buffer and applied once the
   operation that triggered it is complete (a spawn returns a handle that comes alive then).
   Running a schedule, applying commands or state transitions, adding or removing observers
   and removing a resource are refused inside an observer (ECS_SCHED_ERR_ACCESS). An observer
   fails like a system (ecs_sched_ctx_fail, or an unhandled failed call); the failure, named
   after the observer, becomes the failure of the system that made the change, or the
   world's last error outside systems. */

typedef enum ecs_sched_observer_event {
    ECS_SCHED_ON_ADD = 1,      /* the entity gains the component */
    ECS_SCHED_ON_INSERT,       /* a value is written by an insert (new or over an old one),
                                  a spawn with it, or a command; after ON_ADD */
    ECS_SCHED_ON_REMOVE,       /* the entity is about to lose it (remove, despawn, the world's
                                  destruction); its value can still be read */
    ECS_SCHED_ON_DESPAWN       /* the entity is about to be despawned (component 0), before
                                  the ON_REMOVE of its components */
} ecs_sched_observer_event;

/* What happened. */
typedef struct ecs_sched_trigger {
    ecs_sched_observer_event event;
    ecs_sched_entity entity;
    ecs_sched_id component;    /* 0 for ON_DESPAWN */
    ecs_sched_entity target;   /* for a relationship kind: the target (else 0) */
} ecs_sched_trigger;

/* Gets the observer's context: ecs_sched_ctx_world, ecs_sched_ctx_user_data,
   ecs_sched_ctx_commands, ecs_sched_ctx_fail work as in an exclusive system. */
typedef void (*ecs_sched_observer_fn)(ecs_sched_system_ctx *ctx, const ecs_sched_trigger *trigger);

#ifndef ECS_SCHED_MAX_OBSERVER_FILTER
#define ECS_SCHED_MAX_OBSERVER_FILTER 4
#endif

typedef struct ecs_sched_observer_desc {
    const char *name;                                 /* for messages; default "observer" */
    ecs_sched_observer_event event;                   /* required */
    ecs_sched_id component;                           /* required, but 0 for ON_DESPAWN */
    ecs_sched_observer_fn fn;                         /* required */
    void *user_data;
    ecs_sched_id with[ECS_SCHED_MAX_OBSERVER_FILTER];    /* only entities that have these */
    ecs_sched_id without[ECS_SCHED_MAX_OBSERVER_FILTER]; /* and none of these */
} ecs_sched_observer_desc;

/* Adds an observer; returns its id (never 0 and never reused), or 0 on failure. */
ECS_SCHED_API uint32_t ecs_sched_observer_add(ecs_sched_world *world,
                                              const ecs_sched_observer_desc *desc);
/* Removes it; an id that is not an observer of the world (removed already) is
   ECS_SCHED_ERR_INVALID_ARGUMENT. */
ECS_SCHED_API ecs_sched_result ecs_sched_observer_remove(ecs_sched_world *world, uint32_t id);

/*================================= src/executor.h (public) ==================================*/
/* executor: running a built plan on a world, single-threaded and parallel. */

/* Runs a stored schedule: builds it first when it is new or changed, then runs its systems in
   plan order, evaluating conditions as it goes, applying commands at sync points and once
   more at the end. Works from an exclusive system too (nested runs), but a schedule cannot
   run while it is already running. */
ECS_SCHED_API ecs_sched_result ecs_sched_run_schedule(ecs_sched_world *world,
                                                     const char *schedule);

/*=================================== src/time.h (public) ====================================*/
/* time: the real, virtual and fixed clocks, and the fixed-timestep runner. */

#define ECS_SCHED_NS_PER_SECOND INT64_C(1000000000)
/* Durations in integer nanoseconds: ECS_SCHED_MILLISECONDS(250), ECS_SCHED_SECONDS(2). */
#define ECS_SCHED_MILLISECONDS(ms) ((int64_t)(ms) * INT64_C(1000000))
#define ECS_SCHED_SECONDS(s) ((int64_t)(s) * ECS_SCHED_NS_PER_SECOND)
/* The step of a rate: ECS_SCHED_HZ(64) is 15 625 000 ns exactly (a rate that does not divide
   a second is rounded down to whole nanoseconds: ECS_SCHED_HZ(60) is 16 666 666). */
#define ECS_SCHED_HZ(rate) (ECS_SCHED_NS_PER_SECOND / (int64_t)(rate))

/* The schedule the fixed-timestep runner runs once per step. */
#define ECS_SCHED_FIXED_MAIN "FixedMain"

/* What a clock reads. Times are kept in integer nanoseconds, so that sums are exact; the
   seconds are the same values as doubles, for arithmetic. */
typedef struct ecs_sched_time {
    int64_t delta_ns;             /* since the clock's previous advance (fixed: one step) */
    int64_t elapsed_ns;           /* since the clock started: the sum of its deltas */
    double delta_seconds;
    double elapsed_seconds;
} ecs_sched_time;

/* Resource "Time<Real>": the wall clock as the clock hook reads it, unaffected by pause,
   speed or the cap on a frame's delta. */
typedef struct ecs_sched_time_real {
    ecs_sched_time time;
    int64_t last_reading_ns;      /* the clock hook's reading at the last clock-driven advance
                                     (ecs_sched_time_advance); 0 before the first */
} ecs_sched_time_real;

/* Resource "Time<Virtual>": the game's clock. Its delta is the real delta, capped at
   max_delta_ns, times relative_speed, or 0 while paused. A system may change the settings
   through ecs_sched_ctx_resource_mut (declaring the write); the next advance checks them. */
typedef struct ecs_sched_time_virtual {
    ecs_sched_time time;
    bool paused;
    double relative_speed;        /* 1: real time; 2: twice as fast; 0: stopped; never < 0 */
    int64_t max_delta_ns;         /* a frame advances the game by at most this; > 0 */
} ecs_sched_time_virtual;

/* Resource "Time<Fixed>": the fixed-timestep clock. Virtual time accumulates in overstep_ns;
   the runner takes whole steps from it, one run of FixedMain each, and leaves the rest. */
typedef struct ecs_sched_time_fixed {
    ecs_sched_time time;          /* delta_ns is one step; elapsed_ns counts steps run */
    int64_t step_ns;              /* > 0; default ECS_SCHED_HZ(64) */
    int64_t overstep_ns;          /* accumulated virtual time not stepped yet */
    double overstep_fraction;     /* overstep_ns / step_ns: in [0, 1) after each runner run;
                                     how far the present is past the last step, for
                                     interpolating between the last two fixed states */
    int32_t max_steps_per_frame;  /* 0: no cap; else whole steps beyond it are dropped */
    int32_t steps_this_frame;     /* the steps the runner's last run took */
    int64_t dropped_steps;        /* whole steps dropped by the cap, in total */
} ecs_sched_time_fixed;

/* The clock hook: a monotonic reading in nanoseconds (any origin). */
typedef int64_t (*ecs_sched_clock_fn)(void *user_data);
/* The sleep hook used to pace frames (ecs_sched_app_run). */
typedef void (*ecs_sched_sleep_fn)(int64_t duration_ns, void *user_data);

typedef struct ecs_sched_time_desc {
    ecs_sched_clock_fn clock;     /* default: the system's monotonic clock */
    ecs_sched_sleep_fn sleep;     /* default: the system's sleep */
    void *clock_user_data;        /* passed to both */
    int64_t fixed_step_ns;        /* default ECS_SCHED_HZ(64) */
    int64_t max_delta_ns;         /* default ECS_SCHED_MILLISECONDS(250) */
    int32_t max_steps_per_frame;  /* default 0: no cap */
} ecs_sched_time_desc;

/* Creates the four clock resources ("Time", "Time<Real>", "Time<Virtual>", "Time<Fixed>"),
   all at zero. An app does it when it is created; call it yourself to use the clocks in a
   world without an app. Calling it again changes nothing and returns
   ECS_SCHED_ERR_INVALID_ARGUMENT. */
ECS_SCHED_API ecs_sched_result ecs_sched_time_setup(ecs_sched_world *world,
                                                   const ecs_sched_time_desc *desc);
/* Resource "Time": the clock a system reads. In the main schedules it holds the virtual
   clock; while the fixed-timestep runner runs FixedMain, the fixed clock. Declare it in
   .reads and read it with ecs_sched_ctx_time. 0 before ecs_sched_time_setup. */
ECS_SCHED_API ecs_sched_id ecs_sched_time_id(const ecs_sched_world *world);
ECS_SCHED_API ecs_sched_id ecs_sched_time_real_id(const ecs_sched_world *world);
ECS_SCHED_API ecs_sched_id ecs_sched_time_virtual_id(const ecs_sched_world *world);
ECS_SCHED_API ecs_sched_id ecs_sched_time_fixed_id(const ecs_sched_world *world);
/* The current clock (resource "Time"), or NULL (the read is not declared: ERR_ACCESS). */
ECS_SCHED_API const ecs_sched_time *ecs_sched_ctx_time(ecs_sched_system_ctx *ctx);

/* Advances real and virtual time: by the clock hook's reading since the last advance (0 the
   first time), or by `real_delta_ns`. "Time" becomes the virtual clock. Fails with
   ECS_SCHED_ERR_INVALID_ARGUMENT, advancing nothing, when a delta or a setting of
   Time<Virtual> is out of range. An app does this at the start of each update. */
ECS_SCHED_API ecs_sched_result ecs_sched_time_advance(ecs_sched_world *world);
ECS_SCHED_API ecs_sched_result ecs_sched_time_advance_by(ecs_sched_world *world,
                                                        int64_t real_delta_ns);
/* The clock hook's reading now, in nanoseconds; and a sleep through the sleep hook. */
ECS_SCHED_API int64_t ecs_sched_time_now(const ecs_sched_world *world);
ECS_SCHED_API void ecs_sched_time_sleep(const ecs_sched_world *world, int64_t duration_ns);

/* Settings, checked: a bad value is ECS_SCHED_ERR_INVALID_ARGUMENT and changes nothing. */
ECS_SCHED_API ecs_sched_result ecs_sched_time_set_paused(ecs_sched_world *world, bool paused);
ECS_SCHED_API ecs_sched_result ecs_sched_time_set_speed(ecs_sched_world *world,
                                                       double relative_speed);
ECS_SCHED_API ecs_sched_result ecs_sched_time_set_max_delta(ecs_sched_world *world,
                                                           int64_t max_delta_ns);
/* The accumulated overstep is kept as time (it is virtual time not simulated yet), so a new
   step takes effect at the next runner run, which steps that time in the new unit. */
ECS_SCHED_API ecs_sched_result ecs_sched_time_set_fixed_step(ecs_sched_world *world,
                                                            int64_t step_ns);
ECS_SCHED_API ecs_sched_result ecs_sched_time_set_max_steps_per_frame(ecs_sched_world *world,
                                                                     int32_t max_steps);
/* Forgets the accumulated overstep (after a loading screen, say), so the next frames do not
   catch up on it. */
ECS_SCHED_API ecs_sched_result ecs_sched_time_discard_overstep(ecs_sched_world *world);

/* The fixed-timestep runner, an exclusive system: adds the virtual delta to the overstep,
   then runs schedule ECS_SCHED_FIXED_MAIN once per whole step in it, with "Time" holding the
   fixed clock, and leaves the rest as overstep. The app puts it in RunFixedMainLoop. */
ECS_SCHED_API void ecs_sched_run_fixed_main_loop(ecs_sched_system_ctx *ctx);
/* The runner as a system desc (exclusive, named "run_fixed_main_loop"), to add somewhere. */
ECS_SCHED_API ecs_sched_system_desc ecs_sched_fixed_main_loop_system(void);

/* ---- conditions on time (each instance keeps its own timer, fed by "Time"'s delta each
   time it is evaluated: the virtual clock in the main schedules, the fixed clock in the
   fixed ones) ---- */

/* True once each time `period_ns` elapses, like a repeating timer: when several periods
   elapse between two evaluations it is still true once. period_ns > 0. */
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_on_timer(int64_t period_ns);
/* True once, at the first evaluation at which delay_ns has elapsed. */
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_once_after_delay(int64_t delay_ns);
/* True at every evaluation from the one at which delay_ns has elapsed on. */
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_repeating_after_delay(int64_t delay_ns);
/* True while the virtual clock is paused. */
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_time_paused(void);

/*=================================== src/state.h (public) ===================================*/
/* state: state machines, their transitions and the schedules that run on them. */

/* No value: the machine does not exist (yet). */
#define ECS_SCHED_STATE_NONE (-1)

/* A computed state's value from the current values of its sources (in the order of
   .sources; ECS_SCHED_STATE_NONE for a source that has no value): one of its own values, or
   ECS_SCHED_STATE_NONE for "does not exist". It must depend on those values only. */
typedef int32_t (*ecs_sched_state_compute_fn)(const int32_t *source_values, void *user_data);

typedef struct ecs_sched_state_desc {
    const char *name;                                 /* required, e.g. "GameState" */
    const char *values[ECS_SCHED_MAX_STATE_VALUES];   /* required: value i is named values[i] */
    int32_t initial;              /* entered at the first apply (a sub-state: each time it
                                     starts to exist); default 0; a computed state has none */
    int32_t stack_capacity;           /* how many values pushes may cover at once; default 8 */
    /* A computed state: its value is compute(values of .sources) and follows them; it cannot
       be queued. The sources are machines registered before, listed without gaps. */
    ecs_sched_id sources[ECS_SCHED_MAX_STATE_SOURCES];
    ecs_sched_state_compute_fn compute;
    void *user_data;                  /* passed to compute */
    /* A sub-state: it exists only while machine .parent has a value v with parent_values[v]
       true; it starts at .initial when the parent reaches one of them, and stops existing
       when the parent leaves them. */
    ecs_sched_id parent;
    bool parent_values[ECS_SCHED_MAX_STATE_VALUES];
} ecs_sched_state_desc;

/* The resource that holds a machine's current value; its id is the machine's id. It exists
   from the machine's first value on; a sub-state or computed state that stops existing keeps
   it with value ECS_SCHED_STATE_NONE (ecs_sched_condition_state_exists tells). */
typedef struct ecs_sched_state_current {
    int32_t value;
    uint32_t changes;         /* transitions applied so far, the initial enter included */
} ecs_sched_state_current;

/* A machine's last transition. Both values ECS_SCHED_STATE_NONE: none yet. */
typedef struct ecs_sched_state_transition {
    int32_t from;             /* ECS_SCHED_STATE_NONE: the machine started to exist */
    int32_t to;               /* ECS_SCHED_STATE_NONE: it stopped existing (a sub-state, a
                                 computed state) */
    bool this_run;            /* it happened during the current top-level schedule run (or,
                                 between runs, during the last one); one applied outside any
                                 run (ecs_sched_state_apply) counts for the next run */
} ecs_sched_state_transition;

/* Registers a state machine; returns its id, or 0. The same name with the same desc gives
   the same id again; with another .initial it replaces the initial value until the machine's
   first value (then ECS_SCHED_ERR_STATE_MISMATCH); with other values, stack capacity,
   sources, parent or compute function it is ECS_SCHED_ERR_STATE_MISMATCH, and with sources
   that lead back to it ECS_SCHED_ERR_STATE_CYCLE. Register a machine's sources or parent
   before it. */
ECS_SCHED_API ecs_sched_id ecs_sched_state_register(ecs_sched_world *world,
                                                    const ecs_sched_state_desc *desc);
/* The id of a machine's pending slot, to declare as a write by systems that queue values. */
ECS_SCHED_API ecs_sched_id ecs_sched_state_next_id(ecs_sched_world *world, ecs_sched_id machine);
/* The current value, or ECS_SCHED_STATE_NONE when the machine has none (or is unknown). */
ECS_SCHED_API int32_t ecs_sched_state_get(ecs_sched_world *world, ecs_sched_id machine);
/* A value's name ("Playing"), or NULL. */
ECS_SCHED_API const char *ecs_sched_state_value_name(ecs_sched_world *world,
                                                     ecs_sched_id machine, int32_t value);
/* Queues `value` for the next apply; queuing again before it replaces the value. Queuing the
   current value does nothing; _reenter asks for its OnExit and OnEnter to run again. */
ECS_SCHED_API ecs_sched_result ecs_sched_state_set(ecs_sched_world *world, ecs_sched_id machine,
                                                   int32_t value);
ECS_SCHED_API ecs_sched_result ecs_sched_state_set_reenter(ecs_sched_world *world,
                                                           ecs_sched_id machine, int32_t value);
/* The stack: queues pushing `value` over the current one (OnPause(current), then
   OnEnter(value)), or popping back (OnExit(top), then OnResume(revealed)). A covered value is
   neither exited nor entered again. A push past stack_capacity is ECS_SCHED_ERR_LIMIT, a pop
   with nothing covered ECS_SCHED_ERR_INVALID_ARGUMENT; a queued push, pop or set replaces the
   one queued before. */
ECS_SCHED_API ecs_sched_result ecs_sched_state_push(ecs_sched_world *world, ecs_sched_id machine,
                                                    int32_t value);
ECS_SCHED_API ecs_sched_result ecs_sched_state_pop(ecs_sched_world *world, ecs_sched_id machine);
/* How many values pushes cover now (0: none), or -1 for an unknown machine. */
ECS_SCHED_API int32_t ecs_sched_state_depth(ecs_sched_world *world, ecs_sched_id machine);
/* The same from a running system: reading needs the machine's id in `reads`, queuing its
   ecs_sched_state_next_id in `writes` (else ECS_SCHED_ERR_ACCESS). */
ECS_SCHED_API int32_t ecs_sched_ctx_state(ecs_sched_system_ctx *ctx, ecs_sched_id machine);
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_state_set(ecs_sched_system_ctx *ctx,
                                                       ecs_sched_id machine, int32_t value);
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_state_set_reenter(ecs_sched_system_ctx *ctx,
                                                               ecs_sched_id machine,
                                                               int32_t value);
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_state_push(ecs_sched_system_ctx *ctx,
                                                        ecs_sched_id machine, int32_t value);
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_state_pop(ecs_sched_system_ctx *ctx,
                                                       ecs_sched_id machine);
/* The labels of a machine's transition schedules, owned by the world:
   "OnEnter(GameState::Playing)", "OnExit(GameState::Playing)",
   "OnTransition(GameState::Menu, GameState::Playing)". NULL for an unknown machine or a
   value out of range. Add systems to them like to any schedule. */
ECS_SCHED_API const char *ecs_sched_on_enter(ecs_sched_world *world, ecs_sched_id machine,
                                             int32_t value);
ECS_SCHED_API const char *ecs_sched_on_exit(ecs_sched_world *world, ecs_sched_id machine,
                                            int32_t value);
ECS_SCHED_API const char *ecs_sched_on_transition(ecs_sched_world *world, ecs_sched_id machine,
                                                  int32_t from, int32_t to);
/* "OnPause(GameState::Playing)", "OnResume(GameState::Playing)": the stack's schedules. */
ECS_SCHED_API const char *ecs_sched_on_pause(ecs_sched_world *world, ecs_sched_id machine,
                                             int32_t value);
ECS_SCHED_API const char *ecs_sched_on_resume(ecs_sched_world *world, ecs_sched_id machine,
                                              int32_t value);
/* The machine's last transition, into *out. */
ECS_SCHED_API ecs_sched_result ecs_sched_state_last_transition(ecs_sched_world *world,
                                                               ecs_sched_id machine,
                                                               ecs_sched_state_transition *out);
/* The same from a running system, which declares the machine's id in `reads`. */
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_state_last_transition(
    ecs_sched_system_ctx *ctx, ecs_sched_id machine, ecs_sched_state_transition *out);
/* State-scoped entities: an entity with a machine's scope component (ecs_sched_state_scope_id)
   is despawned when the machine exits `on_exit` (right after OnExit of it; a value covered by
   a push is not exited) or enters `on_enter` (right before OnEnter of it); either may be
   ECS_SCHED_STATE_NONE. Insert it like any component, from systems through commands. */
typedef struct ecs_sched_state_scoped {
    int32_t on_exit;
    int32_t on_enter;
} ecs_sched_state_scoped;

ECS_SCHED_API ecs_sched_state_scoped ecs_sched_despawn_on_exit(int32_t value);
ECS_SCHED_API ecs_sched_state_scoped ecs_sched_despawn_on_enter(int32_t value);
/* The id of the component "StateScoped(GameState)", or 0 for an unknown machine. */
ECS_SCHED_API ecs_sched_id ecs_sched_state_scope_id(ecs_sched_world *world, ecs_sched_id machine);

/* Conditions on a machine; each declares a read of the machine's id. state_changed is true
   when the machine changed value (or was re-entered) since this instance last looked. */
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_in_state(ecs_sched_id machine,
                                                               int32_t value);
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_state_exists(ecs_sched_id machine);
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_state_changed(ecs_sched_id machine);
/* True when `value` is the current value or one a push covers. */
ECS_SCHED_API ecs_sched_condition ecs_sched_condition_state_in_stack(ecs_sched_id machine,
                                                                     int32_t value);

/*================================ src/transition.h (public) =================================*/
/* transition: applying queued state transitions, and the schedules that run on them. */

/* The exclusive system that applies the queued transitions of every machine: use it as a
   system's fn (with .exclusive = true), in any schedule, as many times as needed. */
ECS_SCHED_API void ecs_sched_apply_state_transitions(ecs_sched_system_ctx *ctx);
/* A system desc for it, named "apply_state_transitions", for one machine and the machines
   that depend on it (0: every machine); set its ordering fields and add it. */
ECS_SCHED_API ecs_sched_system_desc ecs_sched_state_transitions_system(ecs_sched_id machine);
/* Applies the queued transitions from outside any schedule (for a user who runs schedules by
   hand, or a loader), for one machine and the machines that depend on it (0: every machine).
   Returns the first failure of a transition schedule. A transition applied outside any run
   counts as "this run" for the next one (ecs_sched_state_transition.this_run). */
ECS_SCHED_API ecs_sched_result ecs_sched_state_apply(ecs_sched_world *world, ecs_sched_id machine);

/*==================================== src/app.h (public) ====================================*/
/* app: an app's default schedules and their order, the frame loop, plugins. */

/* The default schedule labels. Main runs the main order each update; FixedMain (time.h) runs
   the fixed order once per fixed step. */
#define ECS_SCHED_MAIN "Main"
#define ECS_SCHED_PRE_STARTUP "PreStartup"
#define ECS_SCHED_STARTUP "Startup"
#define ECS_SCHED_POST_STARTUP "PostStartup"
#define ECS_SCHED_FIRST "First"
#define ECS_SCHED_PRE_UPDATE "PreUpdate"
#define ECS_SCHED_STATE_TRANSITION "StateTransition"
#define ECS_SCHED_RUN_FIXED_MAIN_LOOP "RunFixedMainLoop"
#define ECS_SCHED_UPDATE "Update"
#define ECS_SCHED_POST_UPDATE "PostUpdate"
#define ECS_SCHED_LAST "Last"
#define ECS_SCHED_FIXED_FIRST "FixedFirst"
#define ECS_SCHED_FIXED_PRE_UPDATE "FixedPreUpdate"
#define ECS_SCHED_FIXED_UPDATE "FixedUpdate"
#define ECS_SCHED_FIXED_POST_UPDATE "FixedPostUpdate"
#define ECS_SCHED_FIXED_LAST "FixedLast"

typedef struct ecs_sched_app ecs_sched_app;

typedef struct ecs_sched_app_desc {
    ecs_sched_world_desc world;       /* the world the app creates and owns */
    ecs_sched_time_desc time;         /* its clocks */
} ecs_sched_app_desc;

/* The three orders of schedule labels an app runs. */
typedef enum ecs_sched_app_order {
    ECS_SCHED_ORDER_STARTUP = 0,      /* once, in the first update: PreStartup .. PostStartup */
    ECS_SCHED_ORDER_MAIN,             /* each update: First .. Last */
    ECS_SCHED_ORDER_FIXED             /* each fixed step: FixedFirst .. FixedLast */
} ecs_sched_app_order;

/* Creates an app: its world (with the clocks of time.h), the default schedules (empty, but
   for the systems that run the orders, StateTransition's apply_state_transitions for every
   machine and RunFixedMainLoop's run_fixed_main_loop), and resource "AppExit". NULL when out
   of memory or when desc->time is out of range (the log says which). desc NULL: defaults. */
ECS_SCHED_API ecs_sched_app *ecs_sched_app_create(const ecs_sched_app_desc *desc);
/* Destroys the app and its world. */
ECS_SCHED_API void ecs_sched_app_destroy(ecs_sched_app *app);
ECS_SCHED_API ecs_sched_world *ecs_sched_app_world(ecs_sched_app *app);

/* One frame: real and virtual time advance (by the clock hook's reading, or by exactly
   delta_ns), then schedule Main runs. In the first update Main first runs StateTransition
   (the initial states are entered) and the startup order, then the main order. An update
   stops at the first schedule run that fails and returns its code; ecs_sched_last_error
   says what failed. A startup schedule that failed runs again in the next update, with the
   startup schedules after it (not those before it), before the main order. */
ECS_SCHED_API ecs_sched_result ecs_sched_app_update(ecs_sched_app *app);
ECS_SCHED_API ecs_sched_result ecs_sched_app_update_by(ecs_sched_app *app, int64_t delta_ns);
/* Updates made so far, failed ones included (their clocks advanced). */
ECS_SCHED_API uint64_t ecs_sched_app_frame_count(const ecs_sched_app *app);

typedef struct ecs_sched_app_run_desc {
    int64_t frame_ns;       /* pace: an update starts at most every frame_ns, sleeping the rest
                               (ECS_SCHED_HZ(30) for 30 frames a second); 0: back to back */
    int64_t delta_ns;       /* nonzero: each update advances time by exactly this, whatever the
                               clock says (headless, replays, tests) */
    int64_t max_frames;     /* nonzero: stop after this many updates */
} ecs_sched_app_run_desc;

/* Updates until exit is requested (or max_frames). Returns ECS_SCHED_OK then, with the exit
   code in *exit_code (0 when none was requested; exit_code may be NULL), or the first failing
   update's code. desc NULL: defaults. */
ECS_SCHED_API ecs_sched_result ecs_sched_app_run(ecs_sched_app *app,
                                                const ecs_sched_app_run_desc *desc,
                                                int32_t *exit_code);

/* Resource "AppExit": whether exit was requested, and with which code. */
typedef struct ecs_sched_app_exit {
    bool requested;
    int32_t code;
} ecs_sched_app_exit;
/* Its id: declare it in .writes of a system that requests exit. 0 without an app. */
ECS_SCHED_API ecs_sched_id ecs_sched_app_exit_id(const ecs_sched_world *world);
/* Requests exit: ecs_sched_app_run returns after the current update. A second request keeps
   the first code (and says so at debug log level). The request stays, so a later
   ecs_sched_app_run returns before its first update; to go on, set `requested` of resource
   AppExit (ecs_sched_app_exit_id) back to false. */
ECS_SCHED_API ecs_sched_result ecs_sched_ctx_request_exit(ecs_sched_system_ctx *ctx, int32_t code);
ECS_SCHED_API ecs_sched_result ecs_sched_app_request_exit(ecs_sched_app *app, int32_t code);
/* Whether exit was requested; its code in *code (may be NULL). */
ECS_SCHED_API bool ecs_sched_app_exit_requested(const ecs_sched_app *app, int32_t *code);

/* Inserts a new schedule label into the order that holds `anchor` (startup, main or fixed),
   right before or after it, and creates the schedule. A label already in an order (or Main,
   FixedMain) is ECS_SCHED_ERR_INVALID_ARGUMENT; an anchor in no order is
   ECS_SCHED_ERR_UNKNOWN_SCHEDULE; during an update, ECS_SCHED_ERR_SCHEDULE_RUNNING; into the
   startup order after the first update, ECS_SCHED_ERR_INVALID_ARGUMENT. */
ECS_SCHED_API ecs_sched_result ecs_sched_app_insert_schedule_before(ecs_sched_app *app,
                                                                   const char *anchor,
                                                                   const char *label);
ECS_SCHED_API ecs_sched_result ecs_sched_app_insert_schedule_after(ecs_sched_app *app,
                                                                  const char *anchor,
                                                                  const char *label);
/* Copies up to `capacity` labels of an order into `labels`; returns how many it holds. */
ECS_SCHED_API int32_t ecs_sched_app_schedule_order(const ecs_sched_app *app,
                                                  ecs_sched_app_order order,
                                                  const char **labels, int32_t capacity);

/* ---- plugins ---- */

/* A set a plugin makes public: users order their systems against it. */
typedef struct ecs_sched_plugin_set {
    const char *schedule;
    const char *set;
} ecs_sched_plugin_set;

/* A plugin: a named build function that adds systems, sets, resources, states (and other
   plugins) to the app. Its name identifies it: adding a name the app has is a no-op. The
   plugins in .needs are added before it when missing, so a plugin that only needs others
   (no build) is a plugin group, adding them in order. The sets in .exports are configured in
   their schedules before build runs, so they exist even while nothing fills them. */
typedef struct ecs_sched_plugin {
    const char *name;                 /* required */
    ecs_sched_result (*build)(ecs_sched_app *app, void *user_data);   /* may be NULL */
    void *user_data;
    const struct ecs_sched_plugin *needs[ECS_SCHED_MAX_REFS];
    ecs_sched_plugin_set exports[ECS_SCHED_MAX_REFS];
} ecs_sched_plugin;

/* Adds a plugin: its needs first, then its exported sets, then its build. A build that fails
   makes this fail with the plugin's name in the message; the plugin is not recorded as added
   (what its build added stays). */
ECS_SCHED_API ecs_sched_result ecs_sched_app_add_plugin(ecs_sched_app *app,
                                                       const ecs_sched_plugin *plugin);
/* Adds several in order; all are checked (names, needs) before any is added. */
ECS_SCHED_API ecs_sched_result ecs_sched_app_add_plugins(ecs_sched_app *app,
                                                        const ecs_sched_plugin *const *plugins,
                                                        int32_t count);
ECS_SCHED_API bool ecs_sched_app_has_plugin(const ecs_sched_app *app, const char *name);

/*================================== src/disable.h (public) ==================================*/
/* disable: disabled entities, which keep their components and are hidden from queries. */

/* The Disabled tag ("ecs_sched.Disabled"), which every world registers when it is made. A
   query that names it sees disabled entities: only them with a required term
   (ecs_sched_read), them and the others with an optional one (ecs_sched_optional_read). */
ECS_SCHED_API ecs_sched_id ecs_sched_disabled_tag(ecs_sched_world *world);
/* The Prefab tag ("ecs_sched.Prefab"), which every world registers: an entity with it is a
   prefab, a template for other entities, hidden from queries the way disabled entities are
   (a query that names the tag sees them). Insert it like any tag. */
ECS_SCHED_API ecs_sched_id ecs_sched_prefab_tag(ecs_sched_world *world);
/* Hides the entity from every query that does not name the Disabled tag (see
   ecs_sched_disabled_tag); it keeps its components, and ecs_sched_get, commands
   and observers work on it as before. Disabling a disabled entity changes nothing. A
   structural change: from a system, record it (ecs_sched_commands_disable). */
ECS_SCHED_API ecs_sched_result ecs_sched_disable(ecs_sched_world *world, ecs_sched_entity entity);
/* Shows it to every query again; enabling an enabled entity changes nothing. */
ECS_SCHED_API ecs_sched_result ecs_sched_enable(ecs_sched_world *world, ecs_sched_entity entity);
ECS_SCHED_API bool ecs_sched_is_disabled(const ecs_sched_world *world, ecs_sched_entity entity);
/* The same, recorded in a command buffer. */
ECS_SCHED_API ecs_sched_result ecs_sched_commands_disable(ecs_sched_commands *commands,
                                                          ecs_sched_entity entity);
ECS_SCHED_API ecs_sched_result ecs_sched_commands_enable(ecs_sched_commands *commands,
                                                         ecs_sched_entity entity);

/*==================================== src/dot.h (public) ====================================*/
/* dot: Graphviz export of a built schedule. */

/* Writes the built schedule as a Graphviz digraph, piece by piece, through `write`. */
ECS_SCHED_API ecs_sched_result ecs_sched_schedule_write_dot(
    ecs_sched_world *world, const char *schedule,
    void (*write)(const char *text, void *user_data), void *user_data);

/*================================= src/relation.h (public) ==================================*/
/* relation: relationships between entities: kinds, targets and the sources of a target. */

/* What despawning a target does to the entities related to it. */
typedef enum ecs_sched_target_despawn {
    ECS_SCHED_TARGET_DEFAULT = 0,        /* REMOVE, except for ChildOf: DESPAWN_SOURCES */
    ECS_SCHED_TARGET_REMOVE,             /* the sources lose the relationship */
    ECS_SCHED_TARGET_DESPAWN_SOURCES,    /* the sources are despawned too, and theirs in turn */
    ECS_SCHED_TARGET_REFUSE              /* the despawn fails while sources remain */
} ecs_sched_target_despawn;

typedef struct ecs_sched_relation_desc {
    const char *name;                    /* required, unique among components */
    size_t payload_size;                 /* 0: the relationship carries no data */
    size_t payload_alignment;            /* 0: as for components */
    bool exclusive;                      /* at most one target per source (ChildOf is) */
    bool acyclic;                        /* relating an entity to its own descendant is
                                            refused (ChildOf is); needed to cascade */
    ecs_sched_target_despawn on_target_despawn;
} ecs_sched_relation_desc;

/* Registers a relationship kind, a component whose value is the target (an
   ecs_sched_entity) followed by the payload: struct { ecs_sched_entity target; P payload; }.
   Registering a name again with the same properties returns the existing id. 0 on failure. */
ECS_SCHED_API ecs_sched_id ecs_sched_relation_register(ecs_sched_world *world,
                                                       const ecs_sched_relation_desc *desc);
ECS_SCHED_API bool ecs_sched_is_relation(const ecs_sched_world *world, ecs_sched_id id);
/* ChildOf ("ecs_sched.ChildOf"), registered by every world: exclusive, acyclic, and despawning
   a parent despawns its children (see HIERARCHY). */
ECS_SCHED_API ecs_sched_id ecs_sched_child_of(const ecs_sched_world *world);
/* Relates source to target with kind `kind`, with a copy of `payload` (NULL: zeroed for a new
   relationship, unchanged for an existing one). For an exclusive kind this replaces the
   source's target. A structural change: from a system, record it (ecs_sched_commands_relate). */
ECS_SCHED_API ecs_sched_result ecs_sched_relate(ecs_sched_world *world, ecs_sched_entity source,
                                                ecs_sched_id kind, ecs_sched_entity target,
                                                const void *payload);
/* Removes one relationship (nothing to do when there is none). ecs_sched_remove(world,
   source, kind) removes every target of the kind. */
ECS_SCHED_API ecs_sched_result ecs_sched_unrelate(ecs_sched_world *world, ecs_sched_entity source,
                                                  ecs_sched_id kind, ecs_sched_entity target);
/* Whether source relates to target with the kind (target ECS_SCHED_NULL_ENTITY: to any). */
ECS_SCHED_API bool ecs_sched_has_relation(const ecs_sched_world *world, ecs_sched_entity source,
                                          ecs_sched_id kind, ecs_sched_entity target);
ECS_SCHED_API int32_t ecs_sched_target_count(const ecs_sched_world *world,
                                             ecs_sched_entity source, ecs_sched_id kind);
/* The index-th target (0 .. count - 1), or ECS_SCHED_NULL_ENTITY. The first is the one a
   query's field holds; the order of the others changes when one is removed. */
ECS_SCHED_API ecs_sched_entity ecs_sched_target(const ecs_sched_world *world,
                                                ecs_sched_entity source, ecs_sched_id kind,
                                                int32_t index);
/* The payload of one relationship, or NULL (with last_error set). */
ECS_SCHED_API void *ecs_sched_relation_payload(ecs_sched_world *world, ecs_sched_entity source,
                                               ecs_sched_id kind, ecs_sched_entity target);
/* The sources that relate to target with the kind, in the order they did (for ChildOf, the
   children in their order); *count receives how many. Valid until the next structural change.
   An entity that is no target gives NULL and 0. */
ECS_SCHED_API const ecs_sched_entity *ecs_sched_sources(const ecs_sched_world *world,
                                                        ecs_sched_id kind,
                                                        ecs_sched_entity target, int32_t *count);
/* The same, recorded in a command buffer; the payload is copied now. A relate whose target
   is dead when the buffer is applied is skipped, like a command on a dead entity. */
ECS_SCHED_API ecs_sched_result ecs_sched_commands_relate(ecs_sched_commands *commands,
                                                         ecs_sched_entity source,
                                                         ecs_sched_id kind,
                                                         ecs_sched_entity target,
                                                         const void *payload);
ECS_SCHED_API ecs_sched_result ecs_sched_commands_unrelate(ecs_sched_commands *commands,
                                                           ecs_sched_entity source,
                                                           ecs_sched_id kind,
                                                           ecs_sched_entity target);

/*================================= src/hierarchy.h (public) =================================*/
/* hierarchy: parents and children (the ChildOf relationship), and queries that read through
   them: a parent's values, and the order of depth. */

/* Makes child a child of parent, last among its children (parent ECS_SCHED_NULL_ENTITY: the
   child becomes a root). Refused when parent is child or below it (ECS_SCHED_ERR_RELATION_CYCLE,
   naming the path). A structural change: from a system, use ecs_sched_commands_set_parent. */
ECS_SCHED_API ecs_sched_result ecs_sched_set_parent(ecs_sched_world *world, ecs_sched_entity child,
                                                    ecs_sched_entity parent);
/* The same, placed at `index` among the parent's children (past the end: last). A child of
   that parent already moves to `index`. Inside an observer it is recorded, and the child
   goes last. */
ECS_SCHED_API ecs_sched_result ecs_sched_set_parent_at(ecs_sched_world *world,
                                                       ecs_sched_entity child,
                                                       ecs_sched_entity parent, int32_t index);
/* The parent, or ECS_SCHED_NULL_ENTITY for a root (or a dead entity). */
ECS_SCHED_API ecs_sched_entity ecs_sched_parent_of(const ecs_sched_world *world,
                                                   ecs_sched_entity entity);
/* The children in their order; *count receives how many (NULL and 0 for none). Valid until
   the next structural change. */
ECS_SCHED_API const ecs_sched_entity *ecs_sched_children(const ecs_sched_world *world,
                                                         ecs_sched_entity parent, int32_t *count);
/* How many ancestors the entity has (0 for a root); -1 for a dead entity. */
ECS_SCHED_API int32_t ecs_sched_depth(const ecs_sched_world *world, ecs_sched_entity entity);
/* The entity's ancestors, its parent first: up to `capacity` into out; returns how many
   there are (which may be more than capacity), or -1 for a dead entity. */
ECS_SCHED_API int32_t ecs_sched_ancestors(const ecs_sched_world *world, ecs_sched_entity entity,
                                          ecs_sched_entity *out, int32_t capacity);

typedef enum ecs_sched_traversal {
    ECS_SCHED_DEPTH_FIRST,       /* each entity, then its subtree, children in their order */
    ECS_SCHED_BREADTH_FIRST      /* level by level, each level in the children's order */
} ecs_sched_traversal;

/* The entity's descendants (not itself) in the order asked: up to `capacity` into out;
   returns how many there are (which may be more than capacity), or -1 for a dead entity or
   when out of memory. */
ECS_SCHED_API int32_t ecs_sched_descendants(ecs_sched_world *world, ecs_sched_entity entity,
                                            ecs_sched_traversal order, ecs_sched_entity *out,
                                            int32_t capacity);
ECS_SCHED_API ecs_sched_result ecs_sched_commands_set_parent(ecs_sched_commands *commands,
                                                             ecs_sched_entity child,
                                                             ecs_sched_entity parent);

/*=================================== src/name.h (public) ====================================*/
/* name: entity names, unique among siblings, found by name in a scope or by path. */

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
/* Follows a path of names from scope (ECS_SCHED_NULL_ENTITY: from the roots), each name
   separated by `separator` (NULL: "."), as in "ship.turret_left.barrel". A name that does not
   resolve gives ECS_SCHED_NULL_ENTITY, with ECS_SCHED_ERR_NOT_FOUND naming the part that did
   not (ecs_sched_last_error). */
ECS_SCHED_API ecs_sched_entity ecs_sched_lookup_path(ecs_sched_world *world,
                                                     ecs_sched_entity scope, const char *path,
                                                     const char *separator);
/* Writes the entity's path from its root (names joined by separator, NULL: "."; an entity
   without a name appears as "#" and its index) into out, at most capacity bytes with the
   terminating zero; returns the length of the whole path (snprintf's rule), or -1 for a dead
   entity. */
ECS_SCHED_API int32_t ecs_sched_path(const ecs_sched_world *world, ecs_sched_entity entity,
                                     const char *separator, char *out, int32_t capacity);

/*================================== src/reflect.h (public) ==================================*/
/* reflect: what the fields of a component are, and what can be done with them knowing that:
   print a value, read and write a field by path, compare and hash values. */

/* The kinds of field a description names. */
typedef enum ecs_sched_field_kind {
    ECS_SCHED_FIELD_NONE = 0,
    ECS_SCHED_FIELD_BOOL,     /* bool */
    ECS_SCHED_FIELD_I8, ECS_SCHED_FIELD_I16, ECS_SCHED_FIELD_I32, ECS_SCHED_FIELD_I64,
    ECS_SCHED_FIELD_U8, ECS_SCHED_FIELD_U16, ECS_SCHED_FIELD_U32, ECS_SCHED_FIELD_U64,
    ECS_SCHED_FIELD_F32, ECS_SCHED_FIELD_F64,
    ECS_SCHED_FIELD_ENTITY,   /* an ecs_sched_entity */
    ECS_SCHED_FIELD_CHARS,    /* a char array holding a zero-terminated string */
    ECS_SCHED_FIELD_ENUM,     /* an integer of 1, 2, 4 or 8 bytes with named values */
    ECS_SCHED_FIELD_STRUCT    /* a described component or type (`type`) */
} ecs_sched_field_kind;

typedef struct ecs_sched_enum_value {
    const char *name;
    int64_t value;
} ecs_sched_enum_value;

/* One field of a described type. The ECS_SCHED_MEMBER macros fill offset and size from the
   compiler; a fixed array of a number, entity, enum or struct is described by its whole size
   (the element count follows). */
typedef struct ecs_sched_field {
    const char *name;
    ecs_sched_field_kind kind;
    size_t offset;
    size_t size;                           /* of the whole field, every element */
    ecs_sched_id type;                     /* STRUCT: the described component or type */
    const ecs_sched_enum_value *values;    /* ENUM: its named values */
    int32_t value_count;
} ecs_sched_field;

#define ECS_SCHED_MEMBER(T, member, kind) \
    {#member, (kind), offsetof(T, member), sizeof(((T *)0)->member), 0, NULL, 0}
#define ECS_SCHED_MEMBER_STRUCT(T, member, type) \
    {#member, ECS_SCHED_FIELD_STRUCT, offsetof(T, member), sizeof(((T *)0)->member), (type), NULL, 0}
#define ECS_SCHED_MEMBER_ENUM(T, member, values, count) \
    {#member, ECS_SCHED_FIELD_ENUM, offsetof(T, member), sizeof(((T *)0)->member), 0, (values), (count)}

/* Describes a registered component (or a type registered only to be described, see
   ecs_sched_component_register_type) by its fields. The fields must lie inside the type,
   not overlap, and cover it: nothing between them but the padding their alignment needs (a
   gap smaller than the next field's alignment counts as padding: describe every field).
   A struct field names a type described before. Describing a type again replaces its
   description. */
ECS_SCHED_API ecs_sched_result ecs_sched_describe(ecs_sched_world *world, ecs_sched_id id,
                                                  const ecs_sched_field *fields, int32_t count);
ECS_SCHED_API bool ecs_sched_is_described(const ecs_sched_world *world, ecs_sched_id id);

/* Writes a described value as text, "{x: 1.5, y: 2, name: \"bob\", state: WALKING}", into
   out (at most capacity bytes with the zero); returns the length of the whole text
   (snprintf's rule). A type without a description prints as "<Name: 8 bytes>". */
ECS_SCHED_API int32_t ecs_sched_value_print(const ecs_sched_world *world, ecs_sched_id id,
                                            const void *value, char *out, int32_t capacity);

/* What a path inside a described value names. */
typedef struct ecs_sched_field_info {
    ecs_sched_field_kind kind;
    size_t size;        /* of one element */
    int32_t count;      /* elements (1 unless the path names a whole array) */
    ecs_sched_id type;  /* STRUCT: its type */
} ecs_sched_field_info;

/* The address of the field a path names inside a value of type id: "position.x",
   "slots[2].count" (a nested struct by name, an array element by index). NULL, with the
   reason as the last error, for a path that does not resolve. */
ECS_SCHED_API void *ecs_sched_value_field(ecs_sched_world *world, ecs_sched_id id, void *value,
                                          const char *path, ecs_sched_field_info *info);
/* Reads a number, bool, entity index or enum through a path. */
ECS_SCHED_API ecs_sched_result ecs_sched_value_get_number(ecs_sched_world *world, ecs_sched_id id,
                                                          const void *value, const char *path,
                                                          double *out);
/* Writes a number into a numeric, bool or enum field; a value the field cannot hold (out of
   its range, a fraction into an integer, not one of an enum's values) is refused. */
ECS_SCHED_API ecs_sched_result ecs_sched_value_set_number(ecs_sched_world *world, ecs_sched_id id,
                                                          void *value, const char *path,
                                                          double number);
ECS_SCHED_API ecs_sched_result ecs_sched_value_set_int(ecs_sched_world *world, ecs_sched_id id,
                                                       void *value, const char *path,
                                                       int64_t number);
/* Writes text into a chars field (it must fit with its zero) or an enum field (a value's
   name). */
ECS_SCHED_API ecs_sched_result ecs_sched_value_set_string(ecs_sched_world *world, ecs_sched_id id,
                                                          void *value, const char *path,
                                                          const char *text);
/* Orders two values field by field (negative, 0, positive). Floats by value, -0 equal to 0
   and NaN equal to NaN, after every number; chars as strings. */
ECS_SCHED_API int ecs_sched_value_compare(const ecs_sched_world *world, ecs_sched_id id,
                                          const void *a, const void *b);
/* A hash that agrees with ecs_sched_value_compare: equal values hash alike (padding and the
   bytes after a string's zero do not count). */
ECS_SCHED_API uint64_t ecs_sched_value_hash(const ecs_sched_world *world, ecs_sched_id id,
                                            const void *value);

/*=================================== src/sort.h (public) ====================================*/
/* sort: queries that hand out their rows sorted by a component, or grouped by a target. */

/* Orders two entities by their values: negative when a comes first, positive when b does,
   0 when either may (they then keep table order). */
typedef int (*ecs_sched_order_fn)(ecs_sched_entity a, const void *value_a, ecs_sched_entity b,
                                  const void *value_b);

/* Hands out the query's rows in the order `compare` gives by `component`, which must be a
   sized component one of its terms reads or writes on the entity itself. The query keeps the
   sorted list, and sorts again only when a row joined or left a table, a relationship
   changed, or the component's values changed: for a tracked component (see CHANGE
   DETECTION) only then; an untracked one cannot tell, and is sorted at every iteration.
   Not with a cascade term (a query has one order). */
ECS_SCHED_API ecs_sched_result ecs_sched_query_order_by(ecs_sched_query *query,
                                                        ecs_sched_id component,
                                                        ecs_sched_order_fn compare);
/* Hands out the rows grouped by their target of `kind`, an exclusive relationship kind (all
   children of one parent together, for ChildOf): groups in the order of their targets'
   indices, the entities without a target first; within a group, order_by's order if set,
   else table order. */
ECS_SCHED_API ecs_sched_result ecs_sched_query_group_by(ecs_sched_query *query, ecs_sched_id kind);

#ifdef __cplusplus
}
#endif

#endif /* ECS_SCHED_H */

#if defined(ECS_SCHED_IMPLEMENTATION) && !defined(ECS_SCHED__IMPLEMENTED)
#define ECS_SCHED__IMPLEMENTED

/* With ECS_SCHED_STATIC, functions the including file does not call are not an
   error. */
#if defined(ECS_SCHED_STATIC) && (defined(__GNUC__) || defined(__clang__))
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#endif

/*=============================== src/base.h (implementation) ================================*/
/* base: hooks, result texts, the environment of a world, and shared tools. */

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#if defined(ECS_SCHED_REALLOC) && !defined(ECS_SCHED_FREE) || \
    !defined(ECS_SCHED_REALLOC) && defined(ECS_SCHED_FREE)
#error "ecs_sched.h: define both ECS_SCHED_REALLOC and ECS_SCHED_FREE, or neither"
#endif
#ifndef ECS_SCHED_REALLOC
#define ECS_SCHED_REALLOC(ptr, size) realloc((ptr), (size))
#define ECS_SCHED_FREE(ptr) free(ptr)
#endif

#ifndef ECS_SCHED_ASSERT
#ifdef NDEBUG
/* Not evaluated, but what it names still counts as used: a release build (-DNDEBUG -Werror)
   warns no more than a debug one. */
#define ECS_SCHED_ASSERT(cond) ((void)sizeof(!(cond)))
#else
#include <assert.h>
#define ECS_SCHED_ASSERT(cond) assert(cond)
#endif
#endif

#ifndef ECS_SCHED_ABORT
#define ECS_SCHED_ABORT() abort()
#endif

/* The sink for messages of worlds created without a logger, and of the stb_ds bridge. */
#ifndef ECS_SCHED_LOG
#define ECS_SCHED__DEFAULT_LOG
#define ECS_SCHED_LOG(level, result, message) \
    ecs_sched__log_to_stderr((level), (result), (message))
#endif

/* stb_ds is used only for the name maps (below). Its short names stay out of this file unless
   the user included stb_ds.h before this header. */
#ifndef INCLUDE_STB_DS_H
#ifndef STBDS_NO_SHORT_NAMES
#define STBDS_NO_SHORT_NAMES
#define ECS_SCHED__UNDEF_STBDS_NO_SHORT_NAMES
#endif
#if defined(__has_include)
#if !__has_include("stb_ds.h")
#error "ecs_sched.h needs stb_ds.h on the include path: on Debian, apt-get install libstb-dev and build with $(pkg-config --cflags --libs stb); or copy stb_ds.h next to your files and, in one of them, #define STB_DS_IMPLEMENTATION before #include \"stb_ds.h\""
#endif
#endif
#include "stb_ds.h"
#ifdef ECS_SCHED__UNDEF_STBDS_NO_SHORT_NAMES
#undef STBDS_NO_SHORT_NAMES
#undef ECS_SCHED__UNDEF_STBDS_NO_SHORT_NAMES
#endif
#endif

#ifndef ECS_SCHED_STATIC
/* See ECS_SCHED__CONFIGURATION: the name files with this configuration link against. */
int ECS_SCHED__CONFIGURATION(void) {
    return 1;
}
#endif

#define ECS_SCHED__ERROR_CAPACITY 512


#ifdef ECS_SCHED_THREADS
#if defined(__cplusplus)
#error "ECS_SCHED_THREADS: compile the implementation in a C11 file (a .c with -std=c11 and ECS_SCHED_THREADS), and include ecs_sched.h without ECS_SCHED_IMPLEMENTATION in your C++ files; the threads use C11 atomics, which C++ compilers do not provide"
#elif !defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L || defined(__STDC_NO_ATOMICS__)
#error "ECS_SCHED_THREADS needs the implementation compiled as C11 with <stdatomic.h> (e.g. -std=c11)"
#endif
#include <stdatomic.h>
#endif

/* What every allocation and every message of a world goes through. */
typedef struct ecs_sched__env {
    ecs_sched_allocator allocator;
    ecs_sched_logger logger;
    ecs_sched_result last_result;
    char last_error[ECS_SCHED__ERROR_CAPACITY];
#ifdef ECS_SCHED_THREADS
    atomic_int error_lock;     /* systems running at once may fail at once */
    atomic_int log_lock;       /* and the logger hears them one at a time */
#endif
} ecs_sched__env;

/* ---- what is running ----

   The system (or condition) running on this thread, as its context (an ecs_sched_system_ctx,
   which context.h defines), or NULL. A library call that fails while it runs is recorded on
   that context (the first failure, with its name and schedule in front of the message), and
   the executor looks there when the system returns. A nested run saves and restores it. What
   a run of a system costs is two stores and a load more than a plain call. */
/* Thread-local wherever the compiler can: without ECS_SCHED_THREADS the library has no
   threads of its own, but a program may still run separate worlds on separate threads. */
#if defined(ECS_SCHED_THREADS)
#define ECS_SCHED__THREAD_LOCAL _Thread_local
#elif defined(__cplusplus) && __cplusplus >= 201103L
#define ECS_SCHED__THREAD_LOCAL thread_local
#elif defined(__GNUC__) || defined(__clang__)
#define ECS_SCHED__THREAD_LOCAL __thread
#elif defined(_MSC_VER)
#define ECS_SCHED__THREAD_LOCAL __declspec(thread)
#else
#define ECS_SCHED__THREAD_LOCAL
#endif

static ECS_SCHED__THREAD_LOCAL void *ecs_sched__running_now;

/* Keeps a function that is rarely worth its call (a loop behind a test that usually fails)
   out of its caller, so that the caller's common case stays a test. */
#if defined(__GNUC__) || defined(__clang__)
#define ECS_SCHED__NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define ECS_SCHED__NOINLINE __declspec(noinline)
#else
#define ECS_SCHED__NOINLINE
#endif

/* The other way round, for a small function that a hot loop must not call (compilers weigh
   it against the header's size, which grows), and the common case of a branch, which the
   compiler then lays out straight. */
#if defined(__GNUC__) || defined(__clang__)
#define ECS_SCHED__ALWAYS_INLINE inline __attribute__((always_inline))
#define ECS_SCHED__LIKELY(x) __builtin_expect(!!(x), 1)
#elif defined(_MSC_VER)
#define ECS_SCHED__ALWAYS_INLINE __forceinline
#define ECS_SCHED__LIKELY(x) (x)
#else
#define ECS_SCHED__ALWAYS_INLINE inline
#define ECS_SCHED__LIKELY(x) (x)
#endif

/* context.h: a running context's world; its "system 'x' in schedule 'S': " (returns the
   length); whether it may change the world directly; keeping a failure on it. */
static const ecs_sched__env *ecs_sched__running_env(const void *ctx);
static size_t ecs_sched__running_prefix(const void *ctx, char *out, size_t n);
static bool ecs_sched__running_may_change(const void *ctx);
static void ecs_sched__running_keep(void *ctx, ecs_sched_result code, const char *message,
                                    bool refused);

/* What runs on this thread for the world of env, or NULL. */
static void *ecs_sched__running_in(const ecs_sched__env *env) {
    void *ctx = ecs_sched__running_now;
    return ctx && ecs_sched__running_env(ctx) == env ? ctx : NULL;
}

#ifdef ECS_SCHED_THREADS
static void ecs_sched__error_lock(ecs_sched__env *env) {
    while (atomic_exchange_explicit(&env->error_lock, 1, memory_order_acquire)) {
    }
}
static void ecs_sched__error_unlock(ecs_sched__env *env) {
    atomic_store_explicit(&env->error_lock, 0, memory_order_release);
}
#else
#define ecs_sched__error_lock(env) ((void)(env))
#define ecs_sched__error_unlock(env) ((void)(env))
#endif

static const char *const ecs_sched__result_texts[] = {
#define ECS_SCHED__RESULT_TEXT(name, text) text,
    ECS_SCHED__RESULT_LIST(ECS_SCHED__RESULT_TEXT)
#undef ECS_SCHED__RESULT_TEXT
};

const char *ecs_sched_result_string(ecs_sched_result result) {
    if ((int)result < 0 || result >= ECS_SCHED_RESULT_COUNT) return "unknown result code";
    return ecs_sched__result_texts[result];
}

#ifdef ECS_SCHED__DEFAULT_LOG
static void ecs_sched__log_to_stderr(ecs_sched_log_level level, ecs_sched_result result,
                                     const char *message) {
    static const char *const names[] = {"debug", "info", "warning", "error", "fatal"};
    (void)result;  /* the message names the problem */
    if (level < ECS_SCHED_LOG_WARN) return;
    fprintf(stderr, "ecs_sched %s: %s\n", names[level], message);
}
#endif

static void *ecs_sched__default_realloc(void *ptr, size_t size, void *user_data) {
    (void)user_data;
    return ECS_SCHED_REALLOC(ptr, size);
}

static void ecs_sched__default_free(void *ptr, void *user_data) {
    (void)user_data;
    ECS_SCHED_FREE(ptr);
}

/* The allocator a desc asks for, or the compile-time one when it leaves a function out. */
static ecs_sched_allocator ecs_sched__allocator_defaults(const ecs_sched_allocator *allocator) {
    ecs_sched_allocator a;
    if (allocator && allocator->realloc_fn && allocator->free_fn) return *allocator;
    a.realloc_fn = ecs_sched__default_realloc;
    a.free_fn = ecs_sched__default_free;
    a.user_data = NULL;
    return a;
}

static void ecs_sched__env_init(ecs_sched__env *env, const ecs_sched_allocator *allocator,
                                const ecs_sched_logger *logger) {
    memset(env, 0, sizeof *env);
#ifdef ECS_SCHED_THREADS
    atomic_init(&env->error_lock, 0);
    atomic_init(&env->log_lock, 0);
#endif
    env->allocator = ecs_sched__allocator_defaults(allocator);
    if (logger) env->logger = *logger;
}

static void *ecs_sched__realloc(ecs_sched__env *env, void *ptr, size_t size) {
    ECS_SCHED_ASSERT(size > 0);
    return env->allocator.realloc_fn(ptr, size, env->allocator.user_data);
}

static void *ecs_sched__alloc(ecs_sched__env *env, size_t size) {
    return ecs_sched__realloc(env, NULL, size);
}

static void *ecs_sched__calloc(ecs_sched__env *env, size_t size) {
    void *p = ecs_sched__realloc(env, NULL, size);
    if (p) memset(p, 0, size);
    return p;
}

static void ecs_sched__free(ecs_sched__env *env, void *ptr) {
    if (ptr) env->allocator.free_fn(ptr, env->allocator.user_data);
}

/* Over-allocates by the alignment and keeps the original pointer just below the block, so
   columns honour any component alignment up to ECS_SCHED_MAX_ALIGNMENT whatever the hook
   returns. */
/* `skew` extra bytes shift the block's start, so that blocks used side by side (the columns
   of a table) do not all start at the same offset in a page, where loads from one and stores
   to another would falsely alias in the CPU. */
static void *ecs_sched__aligned_alloc_skewed(ecs_sched__env *env, size_t size, size_t alignment,
                                             size_t skew) {
    size_t total = size + alignment + sizeof(void *) + skew;
    unsigned char *raw = (unsigned char *)ecs_sched__alloc(env, total);
    uintptr_t aligned;
    if (!raw) return NULL;
    aligned = ((uintptr_t)(raw + sizeof(void *) + skew) + alignment - 1) &
              ~(uintptr_t)(alignment - 1);
    memcpy((void *)(aligned - sizeof(void *)), &raw, sizeof raw);
    return (void *)aligned;
}

static void *ecs_sched__aligned_alloc(ecs_sched__env *env, size_t size, size_t alignment) {
    return ecs_sched__aligned_alloc_skewed(env, size, alignment, 0);
}

static void ecs_sched__aligned_free(ecs_sched__env *env, void *ptr) {
    void *raw;
    if (!ptr) return;
    memcpy(&raw, (unsigned char *)ptr - sizeof(void *), sizeof raw);
    ecs_sched__free(env, raw);
}

static char *ecs_sched__strdup(ecs_sched__env *env, const char *text) {
    size_t n = strlen(text) + 1;
    char *copy = (char *)ecs_sched__alloc(env, n);
    if (copy) memcpy(copy, text, n);
    return copy;
}

/* The logger hears one message at a time, whichever threads fail at once; a logger that
   makes the library log again (on its own thread) is not held up by itself. */
static void ecs_sched__log(ecs_sched__env *env, ecs_sched_log_level level,
                           ecs_sched_result result, const char *message) {
#ifdef ECS_SCHED_THREADS
    static _Thread_local bool logging;
    bool serialize = env && !logging;
    if (serialize) {
        while (atomic_exchange_explicit(&env->log_lock, 1, memory_order_acquire)) {
        }
        logging = true;
    }
#endif
    if (env && env->logger.fn) {
        env->logger.fn(level, result, message, env->logger.user_data);
    } else {
        ECS_SCHED_LOG(level, result, message);
    }
#ifdef ECS_SCHED_THREADS
    if (serialize) {
        logging = false;
        atomic_store_explicit(&env->log_lock, 0, memory_order_release);
    }
#endif
}

static void ecs_sched__logf(ecs_sched__env *env, ecs_sched_log_level level,
                            ecs_sched_result result, const char *fmt, ...)
    ECS_SCHED__PRINTF(4, 5);
static void ecs_sched__logf(ecs_sched__env *env, ecs_sched_log_level level,
                            ecs_sched_result result, const char *fmt, ...) {
    char message[ECS_SCHED__ERROR_CAPACITY];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    ecs_sched__log(env, level, result, message);
}

/* Records a failure: the code, a message naming the culprit, and a copy to the log. Inside a
   system, the failure is also the system's (refused: one it cannot clear). */
static ecs_sched_result ecs_sched__vfail_on(ecs_sched__env *env, void *running,
                                            ecs_sched_result code, bool refused, const char *fmt,
                                            va_list args) ECS_SCHED__PRINTF(5, 0);
static ecs_sched_result ecs_sched__vfail_on(ecs_sched__env *env, void *running,
                                            ecs_sched_result code, bool refused, const char *fmt,
                                            va_list args) {
    char message[ECS_SCHED__ERROR_CAPACITY];
    size_t at = running ? ecs_sched__running_prefix(running, message, sizeof message) : 0;
    vsnprintf(message + at, sizeof message - at, fmt, args);
    ecs_sched__error_lock(env);   /* the pieces of a parallel query may fail at once */
    if (running) ecs_sched__running_keep(running, code, message, refused);
    memcpy(env->last_error, message, strlen(message) + 1);
    env->last_result = code;
    ecs_sched__error_unlock(env);
    ecs_sched__log(env, ECS_SCHED_LOG_ERROR, code, message);
    return code;
}

static ecs_sched_result ecs_sched__vfail(ecs_sched__env *env, ecs_sched_result code, bool refused,
                                         const char *fmt, va_list args) ECS_SCHED__PRINTF(4, 0);
static ecs_sched_result ecs_sched__vfail(ecs_sched__env *env, ecs_sched_result code, bool refused,
                                         const char *fmt, va_list args) {
    return ecs_sched__vfail_on(env, ecs_sched__running_in(env), code, refused, fmt, args);
}

static ecs_sched_result ecs_sched__fail(ecs_sched__env *env, ecs_sched_result code,
                                        const char *fmt, ...) ECS_SCHED__PRINTF(3, 4);
static ecs_sched_result ecs_sched__fail(ecs_sched__env *env, ecs_sched_result code,
                                        const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    code = ecs_sched__vfail(env, code, false, fmt, args);
    va_end(args);
    return code;
}

/* A failure that is a refused access: inside a system, one it cannot clear. */
static ecs_sched_result ecs_sched__refuse(ecs_sched__env *env, ecs_sched_result code,
                                          const char *fmt, ...) ECS_SCHED__PRINTF(3, 4);
static ecs_sched_result ecs_sched__refuse(ecs_sched__env *env, ecs_sched_result code,
                                          const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    code = ecs_sched__vfail(env, code, true, fmt, args);
    va_end(args);
    return code;
}

void *ecs_sched_stbds_realloc(void *context, void *ptr, size_t size) {
    void *result;
    char message[160];
    (void)context;
    if (size == 0) {
        ECS_SCHED_FREE(ptr);
        return NULL;
    }
    result = ECS_SCHED_REALLOC(ptr, size);
    if (!result) {
        snprintf(message, sizeof message,
                 "out of memory inside stb_ds (%lu bytes); stb_ds cannot recover from a failed "
                 "allocation, so the process stops here",
                 (unsigned long)size);
        ECS_SCHED_LOG(ECS_SCHED_LOG_FATAL, ECS_SCHED_ERR_OUT_OF_MEMORY, message);
        ECS_SCHED_ABORT();
    }
    return result;
}

void ecs_sched_stbds_free(void *context, void *ptr) {
    (void)context;
    ECS_SCHED_FREE(ptr);
}

/* ---- text: a growing string for long messages; a failed allocation truncates it ---- */

typedef struct ecs_sched__text {
    ecs_sched__env *env;
    char *data;
    size_t length;
    size_t capacity;
} ecs_sched__text;

static void ecs_sched__text_init(ecs_sched__text *t, ecs_sched__env *env) {
    memset(t, 0, sizeof *t);
    t->env = env;
}

static void ecs_sched__text_free(ecs_sched__text *t) {
    ecs_sched__free(t->env, t->data);
    t->data = NULL;
    t->length = t->capacity = 0;
}

static void ecs_sched__text_printf(ecs_sched__text *t, const char *fmt, ...)
    ECS_SCHED__PRINTF(2, 3);
static void ecs_sched__text_printf(ecs_sched__text *t, const char *fmt, ...) {
    va_list args;
    int needed;
    va_start(args, fmt);
    needed = vsnprintf(NULL, 0, fmt, args);
    va_end(args);
    if (needed < 0) return;
    if (t->length + (size_t)needed + 1 > t->capacity) {
        size_t capacity = t->capacity ? t->capacity : 256;
        char *grown;
        while (capacity < t->length + (size_t)needed + 1) capacity *= 2;
        grown = (char *)ecs_sched__realloc(t->env, t->data, capacity);
        if (!grown) return;
        t->data = grown;
        t->capacity = capacity;
    }
    va_start(args, fmt);
    vsnprintf(t->data + t->length, t->capacity - t->length, fmt, args);
    va_end(args);
    t->length += (size_t)needed;
}

static const char *ecs_sched__text_get(const ecs_sched__text *t) {
    return t->data ? t->data : "";
}

/* ---- printing into a caller's buffer, with snprintf's rule: what does not fit is cut, and
   the length counts all of it ---- */

typedef struct ecs_sched__printing {
    char *out;
    int32_t capacity;
    int32_t length;
} ecs_sched__printing;

static void ecs_sched__printf_to(ecs_sched__printing *t, const char *format, ...)
    ECS_SCHED__PRINTF(2, 3);
static void ecs_sched__printf_to(ecs_sched__printing *t, const char *format, ...) {
    char *at = t->out && t->length < t->capacity ? t->out + t->length : NULL;
    va_list args;
    int n;
    va_start(args, format);
    n = vsnprintf(at, at ? (size_t)(t->capacity - t->length) : 0, format, args);
    va_end(args);
    if (n > 0) t->length += n;
}

/* Ends the text with its zero (cut at the capacity). */
static void ecs_sched__print_end(ecs_sched__printing *t) {
    if (t->out && t->capacity > 0) t->out[t->length < t->capacity ? t->length : t->capacity - 1] = '\0';
}

static void ecs_sched__print_bytes(ecs_sched__printing *t, const char *text, size_t n) {
    if (t->out && t->length < t->capacity) {
        int32_t room = t->capacity - t->length;
        memcpy(t->out + t->length, text, n < (size_t)room ? n : (size_t)room);
    }
    t->length += (int32_t)n;
}

/* Records a failure whose message may be long: the log gets all of it, last_error as much as
   fits. */
static ecs_sched_result ecs_sched__fail_text(ecs_sched__env *env, ecs_sched_result code,
                                             const char *text) {
    char whole[4 * ECS_SCHED__ERROR_CAPACITY];
    void *running = ecs_sched__running_in(env);
    size_t n;
    if (running) {   /* the system's name in front, as ecs_sched__fail does */
        size_t at = ecs_sched__running_prefix(running, whole, sizeof whole);
        snprintf(whole + at, sizeof whole - at, "%s", text);
        text = whole;
    }
    n = strlen(text);
    ecs_sched__error_lock(env);
    if (running) ecs_sched__running_keep(running, code, text, false);
    if (n >= sizeof env->last_error) {
        memcpy(env->last_error, text, sizeof env->last_error - 4);
        memcpy(env->last_error + sizeof env->last_error - 4, "...", 4);
    } else {
        memcpy(env->last_error, text, n + 1);
    }
    env->last_result = code;
    ecs_sched__error_unlock(env);
    ecs_sched__log(env, ECS_SCHED_LOG_ERROR, code, text);
    return code;
}

/* ---- arena: many allocations freed at once (schedule builds and plans) ---- */

typedef struct ecs_sched__arena_block {
    struct ecs_sched__arena_block *next;
    size_t used;
    size_t capacity;
} ecs_sched__arena_block;

typedef struct ecs_sched__arena {
    ecs_sched__env *env;
    ecs_sched__arena_block *blocks;
} ecs_sched__arena;

static void ecs_sched__arena_init(ecs_sched__arena *a, ecs_sched__env *env) {
    a->env = env;
    a->blocks = NULL;
}

/* Zeroed, aligned for any scalar; NULL when the allocator fails. */
static void *ecs_sched__arena_alloc(ecs_sched__arena *a, size_t size) {
    const size_t align = 16, header = (sizeof(ecs_sched__arena_block) + 15) & ~(size_t)15;
    ecs_sched__arena_block *b = a->blocks;
    unsigned char *p;
    size = (size + align - 1) & ~(align - 1);
    if (size == 0) size = align;
    if (!b || b->capacity - b->used < size) {
        size_t capacity = size > 65536 ? size : 65536;
        b = (ecs_sched__arena_block *)ecs_sched__alloc(a->env, header + capacity);
        if (!b) return NULL;
        b->capacity = capacity;
        b->used = 0;
        b->next = a->blocks;
        a->blocks = b;
    }
    p = (unsigned char *)b + header + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

static void ecs_sched__arena_free(ecs_sched__arena *a) {
    while (a->blocks) {
        ecs_sched__arena_block *next = a->blocks->next;
        ecs_sched__free(a->env, a->blocks);
        a->blocks = next;
    }
}

/* ---- growing arrays ---- */

/* The block of an array with room for `needed` elements of `element_size` bytes: the same
   block, or a larger one (*capacity then grows). On failure it returns the block unchanged
   and leaves *capacity below `needed`. */
static void *ecs_sched__grow_block(ecs_sched__env *env, void *array, uint32_t *capacity,
                                   uint32_t needed, size_t element_size) {
    uint32_t new_capacity;
    void *grown;
    if (needed <= *capacity) return array;
    new_capacity = *capacity ? *capacity : 8;
    while (new_capacity < needed) {
        if (new_capacity > UINT32_MAX / 2) {
            new_capacity = needed;
            break;
        }
        new_capacity *= 2;
    }
    if ((size_t)new_capacity > SIZE_MAX / element_size) return array;
    grown = ecs_sched__realloc(env, array, (size_t)new_capacity * element_size);
    if (!grown) return array;
    *capacity = new_capacity;
    return grown;
}

/* Makes room for `needed` elements in `array` (a typed pointer lvalue with its uint32_t
   capacity); true on success, false with the array unchanged. The pointer is assigned with
   its own type, never through a void **. */
#ifdef __cplusplus
template <typename T> static T *ecs_sched__as_typed(T *, void *block) {
    return static_cast<T *>(block);
}
#define ECS_SCHED__GROW(env, array, capacity, needed)                                          \
    ((array) = ecs_sched__as_typed((array), ecs_sched__grow_block((env), (array), (capacity),  \
                                                                  (needed), sizeof *(array))), \
     *(capacity) >= (needed))
#else
#define ECS_SCHED__GROW(env, array, capacity, needed)                                          \
    ((array) = ecs_sched__grow_block((env), (array), (capacity), (needed), sizeof *(array)),   \
     *(capacity) >= (needed))
#endif

/* ---- bitsets ---- */

static bool ecs_sched__bit(const uint64_t *bits, int32_t i) {
    return (bits[i >> 6] >> (i & 63)) & 1u;
}

static void ecs_sched__set_bit(uint64_t *bits, int32_t i) {
    bits[i >> 6] |= (uint64_t)1 << (i & 63);
}

static void ecs_sched__clear_bit(uint64_t *bits, int32_t i) {
    bits[i >> 6] &= ~((uint64_t)1 << (i & 63));
}

/* Row i of a matrix of bits, `words` words a row. */
static uint64_t *ecs_sched__row(uint64_t *bits, int32_t words, int32_t i) {
    return bits + (size_t)i * (size_t)words;
}

/* The index of the lowest set bit of a non-zero word. */
static int32_t ecs_sched__lowest_bit(uint64_t word) {
#if defined(__GNUC__) || defined(__clang__)
    return (int32_t)__builtin_ctzll(word);
#else
    int32_t bit = 0;
    while (!((word >> bit) & 1u)) bit++;
    return bit;
#endif
}

/* The index of the highest set bit of a non-zero word. */
static int32_t ecs_sched__highest_bit(uint64_t word) {
#if defined(__GNUC__) || defined(__clang__)
    return 63 - (int32_t)__builtin_clzll(word);
#else
    int32_t bit = 63;
    while (!((word >> bit) & 1u)) bit--;
    return bit;
#endif
}

/* How many bits of a word are set. */
static int32_t ecs_sched__popcount(uint64_t word) {
    int32_t n = 0;
    for (; word; word &= word - 1) n++;
    return n;
}

/* ---- name maps: text -> index, on stb_ds's string hash map ----

   The only place stb_ds is used. Its maps keep their header just before the entries and reach
   it by pointer arithmetic inside its macros, which gcc's most eager aliasing check
   (-Wstrict-aliasing=1) cannot tell from a violation; the map is only ever touched through
   stb_ds's own macros, here, so the check is relaxed for these few lines. Keys are not copied:
   each belongs to whoever put it and must outlive the entry. */

typedef struct ecs_sched__name_entry {
    char *key;
    int32_t value;
} ecs_sched__name_entry;

typedef struct ecs_sched__name_map {
    ecs_sched__name_entry *entries;
} ecs_sched__name_map;

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-aliasing"
#endif

/* The value stored under `key`, or -1. (stb_ds's lookup writes a scratch slot in the map's
   header, hence the copy of the pointer; the entries are unchanged.) */
static int32_t ecs_sched__name_map_get(const ecs_sched__name_map *m, const char *key) {
    ecs_sched__name_entry *entries = m->entries;
    char *lookup;   /* stb_ds takes the key as void *, though it only reads it */
    ptrdiff_t i;
    if (!entries || !key) return -1;
    memcpy(&lookup, &key, sizeof lookup);
    i = stbds_shgeti(entries, lookup);
    return i < 0 ? -1 : entries[i].value;
}

static void ecs_sched__name_map_put(ecs_sched__name_map *m, char *key, int32_t value) {
    stbds_shput(m->entries, key, value);
}

static void ecs_sched__name_map_free(ecs_sched__name_map *m) {
    if (m->entries) stbds_shfree(m->entries);
    m->entries = NULL;
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

/*=============================== src/pool.h (implementation) ================================*/
/* pool: a work-stealing thread pool (threads only with ECS_SCHED_THREADS). */

#define ECS_SCHED__DEFAULT_QUEUE_CAPACITY 4096

/* What grain 0 means in every parallel iteration: pieces of at most ECS_SCHED_DEFAULT_GRAIN
   items, smaller when that would leave a worker fewer than about eight pieces to balance. */
static int64_t ecs_sched__default_grain(int32_t thread_count, int64_t n) {
    int64_t pieces = (int64_t)(thread_count > 0 ? thread_count : 1) * 8;
    int64_t grain = (n + pieces - 1) / pieces;
    if (grain > ECS_SCHED_DEFAULT_GRAIN) grain = ECS_SCHED_DEFAULT_GRAIN;
    return grain > 0 ? grain : 1;
}

static int32_t ecs_sched__hardware_threads(void);  /* 1 without ECS_SCHED_THREADS */

/* Every zero field of a pool desc resolved; `desc` may be NULL. */
static ecs_sched_pool_desc ecs_sched__pool_desc_defaults(const ecs_sched_pool_desc *desc) {
    ecs_sched_pool_desc d;
    if (desc) d = *desc;
    else memset(&d, 0, sizeof d);
    if (d.thread_count == 0) d.thread_count = ecs_sched__hardware_threads();
    if (d.queue_capacity == 0) d.queue_capacity = ECS_SCHED__DEFAULT_QUEUE_CAPACITY;
    d.allocator = ecs_sched__allocator_defaults(&d.allocator);
    return d;
}

/* Checked with and without threads, so a program is refused the same way in both builds. */
static bool ecs_sched__pool_desc_valid(ecs_sched__env *env, const ecs_sched_pool_desc *desc) {
    if (!desc) return true;
    if (desc->thread_count < 0) {
        ecs_sched__fail(env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "pool_create: thread_count is %d; give 1 or more, or 0 for one thread "
                        "per hardware thread", (int)desc->thread_count);
        return false;
    }
    if (desc->queue_capacity < 0 || (desc->queue_capacity & (desc->queue_capacity - 1))) {
        ecs_sched__fail(env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "pool_create: queue_capacity %d is not a power of two; give one "
                        "(such as 1024), or 0 for the default %d", (int)desc->queue_capacity,
                        ECS_SCHED__DEFAULT_QUEUE_CAPACITY);
        return false;
    }
    return true;
}

#ifndef ECS_SCHED_THREADS

struct ecs_sched_pool {
    ecs_sched__env env;
};

struct ecs_sched_task_group {
    int32_t unused;
};

static int32_t ecs_sched__hardware_threads(void) {
    return 1;
}

ecs_sched_pool *ecs_sched_pool_create(const ecs_sched_pool_desc *given) {
    ecs_sched__env env;
    ecs_sched_pool *pool;
    ecs_sched_pool_desc desc = ecs_sched__pool_desc_defaults(given);
    ecs_sched__env_init(&env, &desc.allocator, &desc.logger);
    if (!ecs_sched__pool_desc_valid(&env, given)) return NULL;
    pool = (ecs_sched_pool *)ecs_sched__calloc(&env, sizeof *pool);
    if (!pool) {
        ecs_sched__fail(&env, ECS_SCHED_ERR_OUT_OF_MEMORY, "out of memory creating a pool");
        return NULL;
    }
    pool->env = env;
    return pool;
}

void ecs_sched_pool_destroy(ecs_sched_pool *pool) {
    if (pool) {
        ecs_sched__env env = pool->env;
        ecs_sched__free(&env, pool);
    }
}

int32_t ecs_sched_pool_thread_count(const ecs_sched_pool *pool) {
    (void)pool;
    return 1;
}

int32_t ecs_sched_pool_worker_index(const ecs_sched_pool *pool) {
    (void)pool;
    return 0;
}

ecs_sched_task_group *ecs_sched_pool_group_create(ecs_sched_pool *pool) {
    ECS_SCHED_ASSERT(pool != NULL);
    return (ecs_sched_task_group *)ecs_sched__calloc(&pool->env, sizeof(ecs_sched_task_group));
}

void ecs_sched_pool_group_destroy(ecs_sched_pool *pool, ecs_sched_task_group *group) {
    ECS_SCHED_ASSERT(pool != NULL);
    ecs_sched__free(&pool->env, group);
}

void ecs_sched_pool_submit(ecs_sched_pool *pool, ecs_sched_task_group *group,
                           ecs_sched_task_fn fn, void *arg) {
    ECS_SCHED_ASSERT(pool != NULL && fn != NULL);
    (void)group;
    fn(arg);
}

void ecs_sched_pool_wait(ecs_sched_pool *pool, ecs_sched_task_group *group) {
    (void)pool;
    (void)group;
}

void ecs_sched_pool_parallel_for(ecs_sched_pool *pool, int64_t begin, int64_t end,
                                 int64_t grain, ecs_sched_range_fn fn, void *arg) {
    ECS_SCHED_ASSERT(pool != NULL && fn != NULL);
    if (grain <= 0) grain = ecs_sched__default_grain(1, end - begin);
    while (begin < end) {
        int64_t stop = end - begin > grain ? begin + grain : end;
        fn(begin, stop, arg);
        begin = stop;
    }
}

#else /* ECS_SCHED_THREADS */

#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__) && !defined(ECS_SCHED_NO_MEMBARRIER)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#if defined(SYS_membarrier)
#define ECS_SCHED__MEMBARRIER 1
#ifndef ECS_SCHED__SYSCALL_DECLARED
#define ECS_SCHED__SYSCALL_DECLARED
long syscall(long number, ...);   /* <unistd.h> declares it only for _DEFAULT_SOURCE */
#endif
#endif
#endif

/* ThreadSanitizer does not model fences. The deque's and the event count's seq_cst fences only
   order accesses to atomics, and no plain data relies on them (tasks are published with a
   release store), so TSan still sees every data race; gcc's warning about them is silenced.
   The same holds for the asymmetric barriers below. */
#if defined(__SANITIZE_THREAD__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wtsan"
#endif

#define ECS_SCHED__SPIN_ROUNDS 1024    /* looks for work this many times (some 40 us) before
                                          sleeping, so that workers stay awake across the small
                                          gaps between the parts of a frame */
/* With more threads than the machine runs at once, an idle worker yields its core between
   looks, so that one with work gets it. It looks as long as in a pool that fits: going to
   sleep sooner made each frame pay more wake-ups than the yields cost (4 threads on 2 cores,
   busy_systems: 64 looks 158-178 us a frame, 1024 looks 143-149 us, 2 threads 131-140). */
#define ECS_SCHED__CROWDED_YIELD_EVERY 8
#define ECS_SCHED__CACHE_LINE 64
#define ECS_SCHED__FULL_PUSHES 32      /* see ecs_sched__deque_push */
#define ECS_SCHED__RUNS_PER_DONE_CHECK 8  /* see ecs_sched__pool_work_until */
#define ECS_SCHED__STEAL_BATCH 16      /* most tasks one steal takes: see ecs_sched__deque_take */

#if defined(__x86_64__) || defined(__i386__)
#define ECS_SCHED__CPU_RELAX() __builtin_ia32_pause()
#else
#define ECS_SCHED__CPU_RELAX() ((void)0)
#endif

/* One deque slot. Its words are atomics because a thief may read a slot the owner is
   overwriting; such a read is discarded when the thief's CAS on top fails. */
typedef struct ecs_sched__slot {
    _Atomic(ecs_sched_task_fn) fn;
    _Atomic(void *) arg;
    _Atomic(ecs_sched_task_group *) group;
} ecs_sched__slot;

typedef struct ecs_sched__task {
    ecs_sched_task_fn fn;
    void *arg;
    ecs_sched_task_group *group;
} ecs_sched__task;

/* The Chase-Lev deque with the memory orders of Le, Pop, Cohen and Zappa Nardelli (PPoPP 2013),
   on a bounded ring: the owner pushes and takes at bottom, thieves steal at top. Push's
   "release fence, relaxed store of bottom" is made a release store of bottom, which orders the
   same and lets ThreadSanitizer see the publication. Thieves take a batch (half, as in Go's
   and Tokio's schedulers), which changes take: see ecs_sched__deque_take. */
typedef struct ecs_sched__deque {
    atomic_int_least64_t top;        /* thieves' end, on a cache line of its own */
    char pad0[ECS_SCHED__CACHE_LINE];
    atomic_int_least64_t bottom;     /* the owner's end */
    int64_t top_seen;                /* the owner's last reading of top: a lower bound */
    int32_t full_pushes_left;        /* pushes still to refuse before reading top again */
    ecs_sched__slot *ring;
    int64_t mask;
    char pad1[ECS_SCHED__CACHE_LINE];
} ecs_sched__deque;

/* An event count: a sleeper reads the epoch, looks for work once more, and sleeps only if no
   notify bumped the epoch since. Notifiers that see no sleeper pay one fence and one load.

   Both sides need a full fence between their store and their load (a notifier publishes work
   and then looks for sleepers; a sleeper announces itself and then looks for work), or each
   may miss the other. Work is published on every submit and sleeping is rare, so where Linux
   offers membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) the fence is made asymmetric: the
   notifier's is a compiler barrier only, and the sleeper's is a membarrier call, which runs a
   full fence on every thread of the process that is running at that moment. Not in a pool
   with more threads than cores, whose workers sleep often: there each membarrier (tens of
   microseconds in a virtual machine) interrupted the threads doing the work. */
typedef struct ecs_sched__event {
    atomic_int waiters;
    atomic_uint epoch;
    bool asymmetric;                 /* light fences for notifiers, membarrier for sleepers */
    pthread_mutex_t lock;
    pthread_cond_t wake;
} ecs_sched__event;

typedef struct ecs_sched__worker {
    ecs_sched__deque deque;
    ecs_sched_pool *pool;
    pthread_t thread;
    uint64_t random;
    int32_t index;
    bool started;
} ecs_sched__worker;

struct ecs_sched_pool {
    ecs_sched__env env;
    int32_t count;
    ecs_sched__worker *workers;
    ecs_sched__event idle;
    atomic_bool stopping;
    atomic_int group_waiters;        /* group waits going to sleep or asleep */
    bool crowded;                    /* more threads than the hardware runs at once */
    pthread_t creator;               /* worker 0 */
    uint64_t id;                     /* unique in the process, unlike the pool's address */
};

/* A worker's counts for one group; only that worker writes them. */
typedef struct ecs_sched__group_slot {
    atomic_int_least64_t submitted;
    atomic_int_least64_t completed;
    char pad[2 * ECS_SCHED__CACHE_LINE - 2 * sizeof(int64_t)];  /* apart even unaligned */
} ecs_sched__group_slot;

/* A group made by ecs_sched_pool_group_create counts per worker, so that submitting and
   finishing its tasks share no cache line between threads; the pool's own short-lived groups
   (on the stack) use one counter. */
struct ecs_sched_task_group {
    atomic_int_least64_t pending;    /* without slots: submitted and not finished */
    ecs_sched__group_slot *slots;    /* per worker, or NULL */
    int32_t slot_count;
    char pad[2 * ECS_SCHED__CACHE_LINE];  /* read by every finishing task: nothing else here */
};

/* Which pool and worker the running thread was last made part of. The creating thread is
   also recognised by its id, since it may have created other pools since. */
static _Thread_local uint64_t ecs_sched__tls_pool_id;   /* 0: none */
static _Thread_local int32_t ecs_sched__tls_index;
static _Thread_local int32_t ecs_sched__tls_task_depth;  /* tasks running on this thread */
static atomic_uint_least64_t ecs_sched__pool_ids;        /* pools made so far: ids never repeat */

/* Nanoseconds on a clock that only goes forward where the system has one (under strict ISO
   C, glibc hides CLOCK_MONOTONIC and the C11 wall clock stands in). For cost estimates. */
static int64_t ecs_sched__now_ns(void) {
    struct timespec ts;
#if defined(CLOCK_MONOTONIC)
    clock_gettime(CLOCK_MONOTONIC, &ts);
#else
    timespec_get(&ts, TIME_UTC);
#endif
    return (int64_t)ts.tv_sec * 1000000000 + (int64_t)ts.tv_nsec;
}

/* ---- deque ---- */

static bool ecs_sched__deque_init(ecs_sched__env *env, ecs_sched__deque *q, int64_t capacity) {
    int64_t i;
    q->ring = (ecs_sched__slot *)ecs_sched__alloc(env, sizeof *q->ring * (size_t)capacity);
    if (!q->ring) return false;
    for (i = 0; i < capacity; i++) {
        atomic_init(&q->ring[i].fn, (ecs_sched_task_fn)NULL);
        atomic_init(&q->ring[i].arg, (void *)NULL);
        atomic_init(&q->ring[i].group, (ecs_sched_task_group *)NULL);
    }
    q->mask = capacity - 1;
    q->top_seen = 0;
    q->full_pushes_left = 0;
    atomic_init(&q->top, 0);
    atomic_init(&q->bottom, 0);
    return true;
}

static void ecs_sched__slot_read(ecs_sched__slot *slot, ecs_sched__task *task) {
    task->fn = atomic_load_explicit(&slot->fn, memory_order_relaxed);
    task->arg = atomic_load_explicit(&slot->arg, memory_order_relaxed);
    task->group = atomic_load_explicit(&slot->group, memory_order_relaxed);
}

static void ecs_sched__slot_write(ecs_sched__slot *slot, const ecs_sched__task *task) {
    atomic_store_explicit(&slot->fn, task->fn, memory_order_relaxed);
    atomic_store_explicit(&slot->arg, task->arg, memory_order_relaxed);
    atomic_store_explicit(&slot->group, task->group, memory_order_relaxed);
}

/* Owner only, after claiming [t, b] by moving top to b + 1 (bottom is b): the tasks t..b-1
   go back on the deque above b, oldest first. Copying in order is safe in place: a target
   slot that wraps onto a source slot was read already. */
static void ecs_sched__deque_requeue(ecs_sched__deque *q, int64_t t, int64_t b) {
    int64_t count = b - t, i;
    for (i = 0; i < count; i++) {
        ecs_sched__task task;
        ecs_sched__slot_read(&q->ring[(t + i) & q->mask], &task);
        ecs_sched__slot_write(&q->ring[(b + 1 + i) & q->mask], &task);
    }
    q->top_seen = b + 1;
    atomic_store_explicit(&q->bottom, b + 1 + count, memory_order_release);
}

/* Owner only. False when the ring is full. top is read only when the last reading says the
   ring may be full: thieves only raise it, so the cached value errs on the safe side, and the
   owner stays off the line the thieves write. A ring found full means the thieves are behind;
   the next few pushes then fail without reading top again, since each reading would pull its
   line away from a thief for one task's worth of work. */
static bool ecs_sched__deque_push(ecs_sched__deque *q, const ecs_sched__task *task) {
    int64_t b = atomic_load_explicit(&q->bottom, memory_order_relaxed);
    if (b - q->top_seen > q->mask) {
        if (q->full_pushes_left > 0) {
            q->full_pushes_left--;
            return false;
        }
        q->top_seen = atomic_load_explicit(&q->top, memory_order_acquire);
        if (b - q->top_seen > q->mask) {
            q->full_pushes_left = ECS_SCHED__FULL_PUSHES;
            return false;
        }
    }
    ecs_sched__slot_write(&q->ring[b & q->mask], task);
    atomic_store_explicit(&q->bottom, b + 1, memory_order_release);
    return true;
}

/* Owner only: the newest task.

   Thieves take up to ECS_SCHED__STEAL_BATCH of the oldest tasks at once, so the classic rule
   (only the last task is contested) no longer holds by itself: a thief that read top before the
   owner's fence may have read bottom before the owner lowered it, and claim from that stale
   view. Only one such claim can succeed (it must find top unchanged), it starts at the top the
   owner reads, and it spans at most STEAL_BATCH tasks; thieves that read top after the fence
   see the lowered bottom. So the newest task is the owner's without a CAS while STEAL_BATCH or
   more tasks lie below it. Closer to top, the owner claims them all with one CAS, keeps the
   newest and queues the others again above it, in the same order; *requeued says it did, for
   those tasks looked gone for a moment (a worker deciding to sleep may have missed them). */
static bool ecs_sched__deque_take(ecs_sched__deque *q, ecs_sched__task *task, bool *requeued) {
    *requeued = false;
    for (;;) {
        int64_t b = atomic_load_explicit(&q->bottom, memory_order_relaxed) - 1;
        int64_t t;
        atomic_store_explicit(&q->bottom, b, memory_order_relaxed);
        atomic_thread_fence(memory_order_seq_cst);
        t = atomic_load_explicit(&q->top, memory_order_relaxed);
        if (t > b) {
            atomic_store_explicit(&q->bottom, b + 1, memory_order_relaxed);
            return false;
        }
        ecs_sched__slot_read(&q->ring[b & q->mask], task);
        if (b - t >= ECS_SCHED__STEAL_BATCH) return true;
        if (atomic_compare_exchange_strong_explicit(&q->top, &t, b + 1, memory_order_seq_cst,
                                                    memory_order_relaxed)) {
            ecs_sched__deque_requeue(q, t, b);
            *requeued = t < b;
            return true;
        }
        atomic_store_explicit(&q->bottom, b + 1, memory_order_relaxed);  /* a thief won: again */
    }
}

/* Any thread: about half of the tasks queued, oldest first, at most `most` (and at most
   ECS_SCHED__STEAL_BATCH), into out. 0 when empty or when another thread won the race. */
static int32_t ecs_sched__deque_steal(ecs_sched__deque *q, ecs_sched__task *out, int32_t most) {
    int64_t t = atomic_load_explicit(&q->top, memory_order_acquire);
    int64_t b, queued, count, i;
    atomic_thread_fence(memory_order_seq_cst);
    b = atomic_load_explicit(&q->bottom, memory_order_acquire);
    queued = b - t;
    if (queued <= 0) return 0;
    count = queued - queued / 2;
    if (count > most) count = most;
    if (count > ECS_SCHED__STEAL_BATCH) count = ECS_SCHED__STEAL_BATCH;
    for (i = 0; i < count; i++) ecs_sched__slot_read(&q->ring[(t + i) & q->mask], &out[i]);
    if (!atomic_compare_exchange_strong_explicit(&q->top, &t, t + count, memory_order_seq_cst,
                                                 memory_order_relaxed)) {
        return 0;
    }
    return (int32_t)count;
}

/* Owner only, on its empty deque: queues tasks a steal brought (no more than the capacity). */
static void ecs_sched__deque_refill(ecs_sched__deque *q, const ecs_sched__task *tasks,
                                    int32_t count) {
    int64_t b = atomic_load_explicit(&q->bottom, memory_order_relaxed);
    int32_t i;
    q->top_seen = atomic_load_explicit(&q->top, memory_order_acquire);
    ECS_SCHED_ASSERT(q->top_seen == b && count <= q->mask + 1);
    q->full_pushes_left = 0;
    for (i = 0; i < count; i++) ecs_sched__slot_write(&q->ring[(b + i) & q->mask], &tasks[i]);
    atomic_store_explicit(&q->bottom, b + count, memory_order_release);
}

static bool ecs_sched__deque_looks_empty(ecs_sched__deque *q) {
    return atomic_load_explicit(&q->top, memory_order_acquire) >=
           atomic_load_explicit(&q->bottom, memory_order_acquire);
}

/* ---- asymmetric fences ---- */

#ifdef ECS_SCHED__MEMBARRIER
/* 0: not tried yet, 1: registered, 2: not available (old kernel, seccomp, valgrind, ...) */
static atomic_int ecs_sched__membarrier_state;

static bool ecs_sched__membarrier_available(void) {
    int state = atomic_load_explicit(&ecs_sched__membarrier_state, memory_order_acquire);
    if (state == 0) {
        long commands = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0);
        bool usable = commands > 0 && (commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
                      syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0) == 0;
        state = usable ? 1 : 2;
        atomic_store_explicit(&ecs_sched__membarrier_state, state, memory_order_release);
    }
    return state == 1;
}
#else
static bool ecs_sched__membarrier_available(void) {
    return false;
}
#endif

/* The frequent side of a store-then-load handshake. */
static void ecs_sched__light_fence(const ecs_sched__event *e) {
    if (e->asymmetric) atomic_signal_fence(memory_order_seq_cst);
    else atomic_thread_fence(memory_order_seq_cst);
}

/* The rare side: a full fence here and, when asymmetric, on every running thread. */
static void ecs_sched__heavy_fence(const ecs_sched__event *e) {
    (void)e;
    atomic_thread_fence(memory_order_seq_cst);
#ifdef ECS_SCHED__MEMBARRIER
    if (e->asymmetric && syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0) != 0) {
        ECS_SCHED_ASSERT(0 && "membarrier failed after it was registered");
    }
#endif
}

/* ---- event count ---- */

/* `sleeps_often`: threads will sleep about as often as others notify (a crowded pool), so
   the fences are made symmetric: a membarrier per sleep would cost more than a fence per
   notify, and it interrupts every running thread. */
static bool ecs_sched__event_init(ecs_sched__event *e, bool sleeps_often) {
    atomic_init(&e->waiters, 0);
    atomic_init(&e->epoch, 0u);
    e->asymmetric = !sleeps_often && ecs_sched__membarrier_available();
    if (pthread_mutex_init(&e->lock, NULL) != 0) return false;
    if (pthread_cond_init(&e->wake, NULL) != 0) {
        pthread_mutex_destroy(&e->lock);
        return false;
    }
    return true;
}

static void ecs_sched__event_destroy(ecs_sched__event *e) {
    pthread_cond_destroy(&e->wake);
    pthread_mutex_destroy(&e->lock);
}

/* Announces a sleeper; returns the epoch to sleep on. Look for work again after this. */
static unsigned ecs_sched__event_prepare(ecs_sched__event *e) {
    unsigned epoch;
    atomic_fetch_add_explicit(&e->waiters, 1, memory_order_seq_cst);
    epoch = atomic_load_explicit(&e->epoch, memory_order_seq_cst);
    ecs_sched__heavy_fence(e);  /* the re-check reads after the announcement */
    return epoch;
}

static void ecs_sched__event_cancel(ecs_sched__event *e) {
    atomic_fetch_sub_explicit(&e->waiters, 1, memory_order_relaxed);
}

/* Sleeps until a notify after ecs_sched__event_prepare returned `epoch`. */
static void ecs_sched__event_sleep(ecs_sched__event *e, unsigned epoch) {
    pthread_mutex_lock(&e->lock);
    while (atomic_load_explicit(&e->epoch, memory_order_relaxed) == epoch) {
        pthread_cond_wait(&e->wake, &e->lock);
    }
    pthread_mutex_unlock(&e->lock);
    atomic_fetch_sub_explicit(&e->waiters, 1, memory_order_relaxed);
}

/* Wakes one sleeper (all with `everyone`), if any. Call after publishing what they wait for. */
static void ecs_sched__event_notify(ecs_sched__event *e, bool everyone) {
    ecs_sched__light_fence(e);
    if (atomic_load_explicit(&e->waiters, memory_order_relaxed) == 0) return;
    pthread_mutex_lock(&e->lock);
    atomic_fetch_add_explicit(&e->epoch, 1u, memory_order_relaxed);
    if (everyone) pthread_cond_broadcast(&e->wake);
    else pthread_cond_signal(&e->wake);
    pthread_mutex_unlock(&e->lock);
}

/* ---- running tasks ---- */

/* After a group's task is counted done: a waiter that went to sleep on it is woken (the
   waiter's heavy fence is in event_prepare, after it counted itself in group_waiters). */
static void ecs_sched__wake_group_waiters(ecs_sched_pool *pool) {
    ecs_sched__light_fence(&pool->idle);
    if (atomic_load_explicit(&pool->group_waiters, memory_order_relaxed) > 0) {
        ecs_sched__event_notify(&pool->idle, true);
    }
}

/* Runs a task on worker self (-1: a thread outside the pool) and counts it done. The group
   is not touched once counted: its waiter may return and free it. */
static void ecs_sched__task_run(ecs_sched_pool *pool, int32_t self, const ecs_sched__task *task) {
    ecs_sched_task_group *group = task->group;
    ecs_sched__tls_task_depth++;
    task->fn(task->arg);
    ecs_sched__tls_task_depth--;
    if (!group) return;
    if (group->slots) {
        if (self < 0) return;  /* run at once on an outside thread: never counted */
        atomic_store_explicit(&group->slots[self].completed,
                              atomic_load_explicit(&group->slots[self].completed,
                                                   memory_order_relaxed) + 1,
                              memory_order_release);
        ecs_sched__wake_group_waiters(pool);
    } else if (atomic_fetch_sub_explicit(&group->pending, 1, memory_order_acq_rel) == 1) {
        ecs_sched__wake_group_waiters(pool);
    }
}

static uint64_t ecs_sched__next_random(uint64_t *state) {
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

/* A task from the worker's own deque, else stolen from the others, starting at a random
   victim. A worker steals about half of a victim's tasks at once: it runs the oldest and
   queues the rest on its own deque, where others may steal them in turn. *moved_others says
   that other tasks changed place (queued here, or queued again by the take). */
static bool ecs_sched__find_task(ecs_sched_pool *pool, int32_t self, ecs_sched__task *task,
                                 bool *moved_others) {
    ecs_sched__task stolen[ECS_SCHED__STEAL_BATCH];
    int32_t n = pool->count, i, start = 0, most = 1;
    *moved_others = false;
    if (self >= 0) {
        ecs_sched__deque *own = &pool->workers[self].deque;
        if (ecs_sched__deque_take(own, task, moved_others)) return true;
        if (n == 1) return false;
        start = (int32_t)(ecs_sched__next_random(&pool->workers[self].random) % (uint64_t)n);
        most = own->mask < ECS_SCHED__STEAL_BATCH ? (int32_t)own->mask + 1 : ECS_SCHED__STEAL_BATCH;
    }
    for (i = 0; i < n; i++) {
        int32_t victim = (start + i) % n, count;
        if (victim == self) continue;
        count = ecs_sched__deque_steal(&pool->workers[victim].deque, stolen, most);
        if (count == 0) continue;
        *task = stolen[0];
        if (count > 1) {
            ecs_sched__deque_refill(&pool->workers[self].deque, stolen + 1, count - 1);
            *moved_others = true;
        }
        return true;
    }
    return false;
}

static bool ecs_sched__any_task_visible(ecs_sched_pool *pool) {
    int32_t i;
    for (i = 0; i < pool->count; i++) {
        if (!ecs_sched__deque_looks_empty(&pool->workers[i].deque)) return true;
    }
    return false;
}

/* Runs one task if there is one. Tasks that changed place may have been missed by a worker
   that looked for work and went to sleep meanwhile: one sleeper is woken for them, as for a
   submit (with nobody asleep, that costs a fence and a load). */
static bool ecs_sched__pool_help(ecs_sched_pool *pool, int32_t self) {
    ecs_sched__task task;
    bool moved_others;
    if (!ecs_sched__find_task(pool, self, &task, &moved_others)) return false;
    if (moved_others) ecs_sched__event_notify(&pool->idle, false);
    ecs_sched__task_run(pool, self, &task);
    return true;
}

/* Runs tasks until done(arg) holds; spins a little when idle, then sleeps until notified.
   While tasks keep coming, done() is asked only every few of them: it reads counters other
   workers write, and reading them after every tiny task cost more than the task. Not inside
   a task, though: a wait there that ran past its end would nest other tasks' waits deeper
   and deeper (a parallel_for overflowed its stack that way).
   Whoever makes done() true must notify pool->idle; when `sleeping` is not NULL, it is
   counted up while this thread goes to sleep, and whoever makes done() true may skip the
   notify while it reads 0 (a waiter that is awake needs none: waking a sleeping worker for
   it cost a futex call, and that worker's later sleep a membarrier that interrupts the
   waiter). self is -1 on a thread outside the pool, which only steals. */
static void ecs_sched__pool_work_until(ecs_sched_pool *pool, int32_t self,
                                       bool (*done)(void *arg), void *arg,
                                       atomic_int *sleeping) {
    int32_t idle_rounds = 0, ran_unchecked = 0;
    int32_t check_every = ecs_sched__tls_task_depth == 0 ? ECS_SCHED__RUNS_PER_DONE_CHECK : 1;
    for (;;) {
        unsigned epoch;
        if (ran_unchecked == 0 && done(arg)) return;
        if (ecs_sched__pool_help(pool, self)) {
            idle_rounds = 0;
            ran_unchecked = (ran_unchecked + 1) % check_every;
            continue;
        }
        ran_unchecked = 0;
        if (++idle_rounds < ECS_SCHED__SPIN_ROUNDS) {
            if (pool->crowded && idle_rounds % ECS_SCHED__CROWDED_YIELD_EVERY == 0) sched_yield();
            else ECS_SCHED__CPU_RELAX();
            continue;
        }
        if (sleeping) atomic_fetch_add_explicit(sleeping, 1, memory_order_seq_cst);
        epoch = ecs_sched__event_prepare(&pool->idle);   /* its fence orders the count too */
        if (done(arg) || ecs_sched__any_task_visible(pool)) {
            ecs_sched__event_cancel(&pool->idle);
        } else {
            ecs_sched__event_sleep(&pool->idle, epoch);
        }
        if (sleeping) atomic_fetch_sub_explicit(sleeping, 1, memory_order_relaxed);
        idle_rounds = 0;
    }
}

static bool ecs_sched__pool_stopping(void *arg) {
    ecs_sched_pool *pool = (ecs_sched_pool *)arg;
    return atomic_load_explicit(&pool->stopping, memory_order_acquire) &&
           !ecs_sched__any_task_visible(pool);
}

static void *ecs_sched__worker_main(void *arg) {
    ecs_sched__worker *worker = (ecs_sched__worker *)arg;
    ecs_sched__tls_pool_id = worker->pool->id;
    ecs_sched__tls_index = worker->index;
    ecs_sched__pool_work_until(worker->pool, worker->index, ecs_sched__pool_stopping, worker->pool,
                               NULL);
    return NULL;
}

/* The calling thread's worker number in this pool, or -1. */
static int32_t ecs_sched__self(const ecs_sched_pool *pool) {
    if (ecs_sched__tls_pool_id == pool->id) return ecs_sched__tls_index;
    return pthread_equal(pthread_self(), pool->creator) ? 0 : -1;
}

/* ---- API ---- */

static int32_t ecs_sched__hardware_threads(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int32_t)(n < 256 ? n : 256) : 1;
}

static void ecs_sched__pool_free(ecs_sched_pool *pool) {
    ecs_sched__env env = pool->env;
    int32_t i;
    if (pool->workers) {
        for (i = 0; i < pool->count; i++) ecs_sched__free(&env, pool->workers[i].deque.ring);
        ecs_sched__free(&env, pool->workers);
    }
    ecs_sched__free(&env, pool);
}

static void ecs_sched__pool_join(ecs_sched_pool *pool) {
    int32_t i;
    atomic_store_explicit(&pool->stopping, true, memory_order_release);
    ecs_sched__event_notify(&pool->idle, true);
    for (i = 1; i < pool->count; i++) {
        if (pool->workers[i].started) pthread_join(pool->workers[i].thread, NULL);
    }
}

ecs_sched_pool *ecs_sched_pool_create(const ecs_sched_pool_desc *given) {
    ecs_sched__env env;
    ecs_sched_pool *pool;
    ecs_sched_pool_desc desc;
    int32_t count, i;
    int64_t capacity;
    desc = ecs_sched__pool_desc_defaults(given);
    ecs_sched__env_init(&env, &desc.allocator, &desc.logger);
    if (!ecs_sched__pool_desc_valid(&env, given)) return NULL;
    count = desc.thread_count;
    capacity = desc.queue_capacity;
    pool = (ecs_sched_pool *)ecs_sched__calloc(&env, sizeof *pool);
    if (!pool) {
        ecs_sched__fail(&env, ECS_SCHED_ERR_OUT_OF_MEMORY, "out of memory creating a pool");
        return NULL;
    }
    pool->env = env;
    pool->count = count;
    pool->crowded = count > ecs_sched__hardware_threads();
    atomic_init(&pool->stopping, false);
    atomic_init(&pool->group_waiters, 0);
    pool->workers = (ecs_sched__worker *)ecs_sched__calloc(&env, sizeof *pool->workers * (size_t)count);
    if (!pool->workers) {
        ecs_sched__pool_free(pool);
        ecs_sched__fail(&env, ECS_SCHED_ERR_OUT_OF_MEMORY, "out of memory creating a pool");
        return NULL;
    }
    for (i = 0; i < count; i++) {
        ecs_sched__worker *worker = &pool->workers[i];
        worker->pool = pool;
        worker->index = i;
        worker->random = UINT64_C(0x9E3779B97F4A7C15) * (uint64_t)(i + 1);
        if (!ecs_sched__deque_init(&env, &worker->deque, capacity)) {
            ecs_sched__pool_free(pool);
            ecs_sched__fail(&env, ECS_SCHED_ERR_OUT_OF_MEMORY, "out of memory creating a pool");
            return NULL;
        }
    }
    if (!ecs_sched__event_init(&pool->idle, pool->crowded)) {
        ecs_sched__pool_free(pool);
        ecs_sched__fail(&env, ECS_SCHED_ERR_OUT_OF_MEMORY, "pool_create: no mutex for the pool");
        return NULL;
    }
    pool->creator = pthread_self();
    pool->id = atomic_fetch_add_explicit(&ecs_sched__pool_ids, 1, memory_order_relaxed) + 1;
    ecs_sched__tls_pool_id = pool->id;   /* the quick answer for this thread's newest pool */
    ecs_sched__tls_index = 0;
    for (i = 1; i < count; i++) {
        if (pthread_create(&pool->workers[i].thread, NULL, ecs_sched__worker_main,
                           &pool->workers[i]) != 0) {
            ecs_sched__pool_join(pool);
            ecs_sched__event_destroy(&pool->idle);
            ecs_sched__pool_free(pool);
            ecs_sched__fail(&env, ECS_SCHED_ERR_LIMIT,
                            "pool_create: could not start thread %d of %d", (int)i, (int)count);
            return NULL;
        }
        pool->workers[i].started = true;
    }
    return pool;
}

static bool ecs_sched__no_task_left(void *arg) {
    ecs_sched_pool *pool = (ecs_sched_pool *)arg;
    return !ecs_sched__any_task_visible(pool);
}

void ecs_sched_pool_destroy(ecs_sched_pool *pool) {
    int32_t self;
    if (!pool) return;
    self = ecs_sched__self(pool);
    ecs_sched__pool_work_until(pool, self, ecs_sched__no_task_left, pool, NULL);
    ecs_sched__pool_join(pool);
    /* the workers drained their own deques before leaving; anything left is worker 0's */
    while (ecs_sched__pool_help(pool, self)) {
    }
    ecs_sched__event_destroy(&pool->idle);
    ecs_sched__pool_free(pool);
}

int32_t ecs_sched_pool_thread_count(const ecs_sched_pool *pool) {
    ECS_SCHED_ASSERT(pool != NULL);
    return pool->count;
}

int32_t ecs_sched_pool_worker_index(const ecs_sched_pool *pool) {
    ECS_SCHED_ASSERT(pool != NULL);
    return ecs_sched__self(pool);
}

ecs_sched_task_group *ecs_sched_pool_group_create(ecs_sched_pool *pool) {
    ecs_sched_task_group *group;
    int32_t i;
    ECS_SCHED_ASSERT(pool != NULL);
    group = (ecs_sched_task_group *)ecs_sched__alloc(&pool->env, sizeof *group);
    if (!group) return NULL;
    atomic_init(&group->pending, 0);
    group->slots = (ecs_sched__group_slot *)ecs_sched__alloc(
        &pool->env, sizeof *group->slots * (size_t)pool->count);
    if (!group->slots) {
        ecs_sched__free(&pool->env, group);
        return NULL;
    }
    group->slot_count = pool->count;
    for (i = 0; i < pool->count; i++) {
        atomic_init(&group->slots[i].submitted, 0);
        atomic_init(&group->slots[i].completed, 0);
    }
    return group;
}

void ecs_sched_pool_group_destroy(ecs_sched_pool *pool, ecs_sched_task_group *group) {
    ECS_SCHED_ASSERT(pool != NULL);
    if (!group) return;
    ecs_sched__free(&pool->env, group->slots);
    ecs_sched__free(&pool->env, group);
}

/* Whether the calling worker's deque still holds tasks nobody has taken (false on a thread
   outside the pool). Reads the worker's own ends only. */
static bool ecs_sched__pool_holds_tasks(ecs_sched_pool *pool, int32_t self) {
    return self >= 0 && !ecs_sched__deque_looks_empty(&pool->workers[self].deque);
}

/* Submits a task; a sleeping worker is woken only with `wake` (the executor leaves small
   offers to the workers that are awake, and takes them back itself when none is). */
static void ecs_sched__pool_offer(ecs_sched_pool *pool, ecs_sched_task_group *group,
                                  ecs_sched_task_fn fn, void *arg, bool wake) {
    int32_t self = ecs_sched__self(pool);
    ecs_sched__task task;
    task.fn = fn;
    task.arg = arg;
    task.group = group;
    if (group && group->slots) {
        if (self >= 0) {
            atomic_int_least64_t *submitted = &group->slots[self].submitted;
            atomic_store_explicit(submitted,
                                  atomic_load_explicit(submitted, memory_order_relaxed) + 1,
                                  memory_order_relaxed);
        }
    } else if (group) {
        atomic_fetch_add_explicit(&group->pending, 1, memory_order_relaxed);
    }
    if (self >= 0 && ecs_sched__deque_push(&pool->workers[self].deque, &task)) {
        if (wake) ecs_sched__event_notify(&pool->idle, false);
        return;
    }
    ecs_sched__task_run(pool, self, &task);  /* a full deque, or a thread outside the pool */
}

void ecs_sched_pool_submit(ecs_sched_pool *pool, ecs_sched_task_group *group,
                           ecs_sched_task_fn fn, void *arg) {
    ECS_SCHED_ASSERT(pool != NULL && fn != NULL);
    ecs_sched__pool_offer(pool, group, fn, arg, true);
}

/* Completions are read before submissions: equal sums then mean that every task submitted
   so far has finished, and a finished task submits no more. */
static bool ecs_sched__group_done(void *arg) {
    ecs_sched_task_group *group = (ecs_sched_task_group *)arg;
    int64_t completed = 0, submitted = 0;
    int32_t i, n;
    if (!group->slots) return atomic_load_explicit(&group->pending, memory_order_acquire) == 0;
    n = group->slot_count;
    for (i = 0; i < n; i++) {
        completed += atomic_load_explicit(&group->slots[i].completed, memory_order_acquire);
    }
    for (i = 0; i < n; i++) {
        submitted += atomic_load_explicit(&group->slots[i].submitted, memory_order_acquire);
    }
    return completed == submitted;
}

/* A wait for a group that also stops when also(arg) holds (checked first; `also` may be
   NULL). Whoever makes also() true must notify pool->idle. */
typedef struct ecs_sched__wait_or {
    ecs_sched_task_group *group;
    bool (*also)(void *arg);
    void *arg;
} ecs_sched__wait_or;

static bool ecs_sched__wait_or_done(void *p) {
    ecs_sched__wait_or *w = (ecs_sched__wait_or *)p;
    return (w->also && w->also(w->arg)) || ecs_sched__group_done(w->group);
}

static void ecs_sched__pool_wait_or(ecs_sched_pool *pool, ecs_sched_task_group *group,
                                    bool (*also)(void *arg), void *arg) {
    ecs_sched__wait_or w;
    w.group = group;
    w.also = also;
    w.arg = arg;
    ecs_sched__pool_work_until(pool, ecs_sched__self(pool), ecs_sched__wait_or_done, &w,
                               &pool->group_waiters);
}

void ecs_sched_pool_wait(ecs_sched_pool *pool, ecs_sched_task_group *group) {
    ecs_sched__pool_wait_or(pool, group, NULL, NULL);
}

typedef struct ecs_sched__range {
    ecs_sched_pool *pool;
    int64_t begin, end, grain;
    ecs_sched_range_fn fn;
    void *arg;
} ecs_sched__range;

/* Halves the range until a piece fits the grain: the right half becomes a task others may
   steal, the left half is worked on here. Each level waits for its right half, so the tasks
   can live on the stack. */
static void ecs_sched__range_run(void *p) {
    ecs_sched__range *r = (ecs_sched__range *)p;
    if (r->end - r->begin > r->grain) {
        struct ecs_sched_task_group group;
        ecs_sched__range left = *r, right = *r;
        left.end = right.begin = r->begin + (r->end - r->begin) / 2;
        atomic_init(&group.pending, 0);
        group.slots = NULL;
        group.slot_count = 0;
        ecs_sched_pool_submit(r->pool, &group, ecs_sched__range_run, &right);
        ecs_sched__range_run(&left);
        ecs_sched_pool_wait(r->pool, &group);
        return;
    }
    r->fn(r->begin, r->end, r->arg);
}

void ecs_sched_pool_parallel_for(ecs_sched_pool *pool, int64_t begin, int64_t end,
                                 int64_t grain, ecs_sched_range_fn fn, void *arg) {
    ecs_sched__range r;
    ECS_SCHED_ASSERT(pool != NULL && fn != NULL);
    if (end <= begin) return;
    r.pool = pool;
    r.begin = begin;
    r.end = end;
    r.grain = grain > 0 ? grain : ecs_sched__default_grain(pool->count, end - begin);
    r.fn = fn;
    r.arg = arg;
    ecs_sched__range_run(&r);
}

#endif /* ECS_SCHED_THREADS */

/*=============================== src/world.h (implementation) ===============================*/
/* world: components, archetype tables and the entity index (what is done to one entity:
   entity.h; change ticks: ticks.h; resources: resource.h). */

#define ECS_SCHED__NONE UINT32_MAX
#define ECS_SCHED__DEAD UINT32_MAX             /* record.table of a free index */
#define ECS_SCHED__RESERVED (UINT32_MAX - 1u)  /* record.table of a handle a buffer reserved */
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
/* A recorded command keeps its component id in 27 bits (commands.h). */
#define ECS_SCHED__MAX_COMPONENTS (1u << 27)

typedef struct ecs_sched__record {
    uint32_t table;       /* table index, ECS_SCHED__DEAD or ECS_SCHED__RESERVED */
    uint32_t row;         /* row in the table; next free index while dead */
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

/* An archetype: every entity with exactly this sorted set of components. Kept small: a
   schedule of many small queries misses the cache on every table it visits, and tables
   allocated close together share the lines fetched. */
typedef struct ecs_sched__table {
    uint32_t index;
    int32_t type_count;
    int32_t column_count;
    int32_t count;
    int32_t capacity;
    int32_t tick_count;
    ecs_sched_id *type;               /* sorted */
    ecs_sched__column *columns;       /* the sized components, sorted by id */
    ecs_sched_entity *entities;
    ecs_sched__ticks *ticks;          /* the tracked components, sorted by id */
} ecs_sched__table;

/* Open addressing from a 64-bit key to a table index. Keys may repeat (type hashes can
   collide); ecs_sched__map_next walks every value stored under a key. */
typedef struct ecs_sched__map {
    uint64_t *keys;
    uint32_t *values;     /* ECS_SCHED__NONE marks an empty slot */
    uint32_t capacity;    /* a power of two, or 0 */
    uint32_t count;
} ecs_sched__map;



typedef struct ecs_sched__schedules ecs_sched__schedules;
typedef struct ecs_sched__states ecs_sched__states;
typedef struct ecs_sched__clocks ecs_sched__clocks;
typedef struct ecs_sched__messages ecs_sched__messages;
typedef struct ecs_sched__observers ecs_sched__observers;
typedef struct ecs_sched__links ecs_sched__links;
typedef struct ecs_sched__names ecs_sched__names;
typedef struct ecs_sched__descriptions ecs_sched__descriptions;

struct ecs_sched_world {
    ecs_sched__env env;
    ecs_sched__component *components;    /* by id; slot 0 unused */
#ifdef ECS_SCHED_THREADS
    atomic_uint tick;                    /* the last change tick handed out (change.h) */
#else
    uint32_t tick;
#endif
    bool ticks_on;                       /* something tracks changes: systems take ticks */
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
    ecs_sched__schedules *schedules;     /* graph.h; NULL until the first schedule */
    ecs_sched__states *states;           /* state.h; NULL until the first state machine */
    ecs_sched__clocks *clocks;           /* time.h; NULL until ecs_sched_time_setup */
    ecs_sched__messages *messages;       /* message.h; NULL until a message type or tracked
                                            component is registered */
    bool fixed_step_since_update;        /* a fixed step ran since the messages' last update */
    ecs_sched_id disabled;               /* disable.h: the Disabled tag */
    ecs_sched_id prefab;                 /* disable.h: the Prefab tag */
    ecs_sched_id child_of;               /* hierarchy.h: the ChildOf relationship */
    ecs_sched__links *relations;     /* relation.h; made with ChildOf, the first kind */
    bool linked;                         /* some entity was related or named: despawns
                                            look at relationships and names */
    ecs_sched__names *names;             /* name.h; NULL until the first name */
    ecs_sched__descriptions *descriptions;   /* reflect.h; NULL until the first description */
    uint32_t rows_version;               /* moves on whenever a row joins or leaves a table,
                                            or a relationship changes (hierarchy.h's caches) */
    ecs_sched__observers *observers;     /* observer.h; NULL until the first observer */
    struct ecs_sched_app *app;           /* app.h; the app that owns the world, or NULL */
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
static bool ecs_sched__queries_reserve_match(ecs_sched_world *w);
static void ecs_sched__queries_add_table(ecs_sched_world *w, ecs_sched__table *t);
static ecs_sched_result ecs_sched__check_queries(ecs_sched_world *w);
static void ecs_sched__queries_free(ecs_sched_world *w);
static void ecs_sched__buffers_free(ecs_sched_world *w);
static void ecs_sched__schedules_free(ecs_sched_world *w);
static void ecs_sched__states_free(ecs_sched_world *w);
static void ecs_sched__time_free(ecs_sched_world *w);
/* ticks.h: the change ticks of tracked components, kept beside their tables' rows. */
static inline uint32_t ecs_sched__tick_now(const ecs_sched_world *w);
static void ecs_sched__ticks_turn_on(ecs_sched_world *w);
static size_t ecs_sched__tick_words(int32_t capacity);
static void ecs_sched__ticks_move(ecs_sched_world *w, ecs_sched__ticks *k, uint32_t *fresh,
                                  int32_t count, int32_t capacity);
static void ecs_sched__ticks_free(ecs_sched_world *w, ecs_sched__table *t);
static void ecs_sched__ticks_stamp_new(ecs_sched_world *w, ecs_sched__table *t, int32_t first,
                                       int32_t n, uint32_t tick);
static void ecs_sched__ticks_move_row(ecs_sched_world *w, ecs_sched__table *dst, int32_t to,
                                      const ecs_sched__table *src, int32_t from);
static void ecs_sched__ticks_delete_row(ecs_sched_world *w, ecs_sched__table *t, int32_t row,
                                        int32_t last);
static void ecs_sched__ticks_inserted(ecs_sched_world *w, ecs_sched__table *t, int32_t row,
                                      const ecs_sched__table *before, ecs_sched_id id);
static void ecs_sched__value_changed(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id);
/* resource.h: the world's resources go with it. */
static void ecs_sched__resources_free(ecs_sched_world *w);
/* message.h: the queues of messages and removals. */
static void ecs_sched__messages_free(ecs_sched_world *w);
static bool ecs_sched__removals_create(ecs_sched_world *w, ecs_sched_id id);
static void ecs_sched__removed(ecs_sched_world *w, ecs_sched_id id, ecs_sched_entity e);
/* observer.h: calling observers, and the changes they defer. The world calls them only while
   it has observers (w->observers). */
static void ecs_sched__observers_free(ecs_sched_world *w);
static void ecs_sched__observe_inserted(ecs_sched_world *w, ecs_sched_entity e,
                                        const ecs_sched__table *before, int32_t count,
                                        const ecs_sched_id *ids);
static void ecs_sched__observe_removing(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id);
static void ecs_sched__observe_despawning(ecs_sched_world *w, ecs_sched_entity e);
static void ecs_sched__observers_flush(ecs_sched_world *w);
static ecs_sched_commands *ecs_sched__deferring(const ecs_sched_world *w);
static bool ecs_sched__refused_in_observer(ecs_sched_world *w, const char *what);
/* observer.h: an observer's structural changes, recorded in its buffer. */
static ecs_sched_entity ecs_sched__defer_spawn_with(ecs_sched_world *w, int32_t count,
                                                    const ecs_sched_id *ids,
                                                    const void *const *values);
static ecs_sched_result ecs_sched__defer_despawn(ecs_sched_world *w, ecs_sched_entity e);
static ecs_sched_result ecs_sched__defer_insert(ecs_sched_world *w, ecs_sched_entity e,
                                                ecs_sched_id id, const void *value);
static ecs_sched_result ecs_sched__defer_remove(ecs_sched_world *w, ecs_sched_entity e,
                                                ecs_sched_id id);
static ecs_sched_result ecs_sched__defer_set_resource(ecs_sched_world *w, ecs_sched_id id,
                                                      const void *value);
/* relation.h: relationships go with their sources and targets; ChildOf comes with the
   world. */
static ecs_sched_id ecs_sched__register_child_of(ecs_sched_world *w);
static ecs_sched_result ecs_sched__despawn_related(ecs_sched_world *w, ecs_sched_entity e);
static ecs_sched_result ecs_sched__remove_relation(ecs_sched_world *w, ecs_sched_entity source,
                                                   ecs_sched_id kind);
static void ecs_sched__observe_relations_removing(ecs_sched_world *w, ecs_sched_entity e,
                                                  ecs_sched_id kind);
static bool ecs_sched__apply_relation(ecs_sched_world *w, uint32_t op, ecs_sched_entity source,
                                      ecs_sched_id kind, const void *slot,
                                      ecs_sched_result *result);
static ecs_sched_result ecs_sched__check_relations(ecs_sched_world *w);
static void ecs_sched__relations_free(ecs_sched_world *w);
/* name.h: an entity's name, for messages (NULL when it has none); names follow their
   entities' parents and go with them. */
static const char *ecs_sched__entity_name_of(const ecs_sched_world *w, ecs_sched_entity e);
static ecs_sched_result ecs_sched__name_may_move(ecs_sched_world *w, ecs_sched_entity e,
                                                 ecs_sched_entity new_scope, const char *operation);
static void ecs_sched__name_refile(ecs_sched_world *w, ecs_sched_entity e);
static void ecs_sched__name_drop(ecs_sched_world *w, uint32_t index);
static void ecs_sched__names_free(ecs_sched_world *w);
static ecs_sched_result ecs_sched__check_names(ecs_sched_world *w);
/* reflect.h: the descriptions of types go with the world. */
static void ecs_sched__descriptions_free(ecs_sched_world *w);

/* ---- small helpers ---- */

#define ECS_SCHED__CHECK_WORLD(world) ECS_SCHED_ASSERT((world) != NULL)

/* A structural change through the world pointer while a system that is not exclusive runs:
   with threads a data race, and on one thread a change under the feet of the systems that
   hold pointers into the world. Refused, as the system's failure. */
static bool ecs_sched__change_refused(ecs_sched_world *w, const char *what) {
    const void *running = ecs_sched__running_in(&w->env);
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
    const void *running = ecs_sched__running_in(&w->env);
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
        if (c->tracked != desc->tracked) {
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_COMPONENT_MISMATCH,
                            "component '%s' is already registered %s change tracking; whether "
                            "a component is tracked is fixed when it is first registered "
                            "(register it with .tracked = %s everywhere)",
                            desc->name, c->tracked ? "with" : "without",
                            c->tracked ? "true" : "false");
            return 0;
        }
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
    if (!ECS_SCHED__GROW(&w->env, w->components, &w->component_capacity, w->component_count + 1) ||
        !ECS_SCHED__GROW(&w->env, w->resources, &w->resource_capacity, w->component_count + 1) ||
        !ECS_SCHED__GROW(&w->env, w->resource_stamps, &w->resource_stamp_capacity,
                         w->component_count + 1)) {
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
    c->alignment = (uint8_t)alignment;   /* at most 64: checked above */
    c->hooks = desc->hooks;
    c->tracked = desc->tracked;
    w->resources[id] = NULL;
    ecs_sched__name_map_put(&w->component_names, c->name, (int32_t)id);
    w->component_count++;
    if (c->tracked) {
        ecs_sched__ticks_turn_on(w);
        if (!ecs_sched__removals_create(w, id)) {
            ecs_sched__logf(&w->env, ECS_SCHED_LOG_WARN, ECS_SCHED_ERR_OUT_OF_MEMORY,
                            "component_register: '%s' is tracked, but the list of its removals "
                            "could not be made (out of memory): its removals are not kept",
                            c->name);
        }
    }
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

ecs_sched_id ecs_sched_tracked_component_register_type(ecs_sched_world *w, const char *name,
                                                       size_t size, size_t alignment) {
    ecs_sched_component_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.name = name;
    desc.size = size;
    desc.alignment = alignment;
    desc.tracked = true;
    return ecs_sched_component_register(w, &desc);
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

static void ecs_sched__table_free(ecs_sched_world *w, ecs_sched__table *t) {
    int32_t i;
    for (i = 0; i < t->column_count; i++) {
        ecs_sched__column *col = &t->columns[i];
        ecs_sched__destruct(&w->components[col->id], col->data, t->count);
        ecs_sched__aligned_free(&w->env, col->data);
    }
    ecs_sched__ticks_free(w, t);
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
    int32_t i, columns = 0, tracked = 0;
    size_t bytes;
    unsigned char *block;
    for (i = 0; i < count; i++) {
        columns += w->components[type[i]].size > 0;
        tracked += w->components[type[i]].tracked;
    }
    if (!ECS_SCHED__GROW(&w->env, w->tables, &w->table_capacity, w->table_count + 1) ||
        !ecs_sched__map_reserve(&w->env, &w->types, 1)) {
        ecs_sched__out_of_memory(w, "creating an archetype table");
        return NULL;
    }
    if (!ecs_sched__queries_reserve_match(w)) {
        ecs_sched__out_of_memory(w, "creating an archetype table");
        return NULL;
    }
    bytes = sizeof *t + (size_t)columns * sizeof(ecs_sched__column) +
            (size_t)tracked * sizeof(ecs_sched__ticks) + (size_t)count * sizeof(ecs_sched_id);
    block = (unsigned char *)ecs_sched__calloc(&w->env, bytes);
    if (!block) {
        ecs_sched__out_of_memory(w, "creating an archetype table");
        return NULL;
    }
    /* one block: the table, then its columns, its tick columns, and its type */
    t = (ecs_sched__table *)(void *)block;
    t->columns = (ecs_sched__column *)(void *)(block + sizeof *t);
    t->ticks = (ecs_sched__ticks *)(void *)(block + sizeof *t +
                                            (size_t)columns * sizeof *t->columns);
    t->type = (ecs_sched_id *)(void *)(block + sizeof *t + (size_t)columns * sizeof *t->columns +
                                       (size_t)tracked * sizeof *t->ticks);
    t->type_count = count;
    if (count) memcpy(t->type, type, (size_t)count * sizeof *type);
    for (i = 0; i < count; i++) {
        uint32_t size = w->components[type[i]].size;
        if (w->components[type[i]].tracked) t->ticks[t->tick_count++].id = type[i];
        if (size == 0) continue;
        t->columns[t->column_count].id = type[i];
        t->columns[t->column_count].size = size;
        t->column_count++;
    }
    t->index = w->table_count;
    w->tables[w->table_count++] = t;
    ecs_sched__map_insert_unchecked(&w->types, hash, t->index);
    ecs_sched__queries_add_table(w, t);
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

/* Columns start on a cache line whatever their component's alignment: a kernel's vector
   loads and stores then never straddle two lines (a column of 16-byte values starting 8
   bytes into a line made x = x * a + b over it some 10 % slower). */
#define ECS_SCHED__COLUMN_ALIGNMENT 64

/* Makes room for `extra` more rows; on failure the table is unchanged. */
static bool ecs_sched__table_grow(ecs_sched_world *w, ecs_sched__table *t, int32_t extra) {
    unsigned char *data[ECS_SCHED__MAX_TYPE];
    uint32_t *ticks[ECS_SCHED__MAX_TYPE];
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
        size_t skew = (size_t)(i % 13) * 320;  /* distinct page offsets, whole cache lines */
        size_t alignment = c->alignment > ECS_SCHED__COLUMN_ALIGNMENT ? c->alignment
                                                                      : ECS_SCHED__COLUMN_ALIGNMENT;
        data[i] = (unsigned char *)ecs_sched__aligned_alloc_skewed(
            &w->env, (size_t)capacity * c->size, alignment, skew);
        if (!data[i]) {
            while (i-- > 0) ecs_sched__aligned_free(&w->env, data[i]);
            ecs_sched__free(&w->env, entities);
            return false;
        }
    }
    for (i = 0; i < t->tick_count; i++) {
        ticks[i] = (uint32_t *)ecs_sched__alloc(&w->env,
                                                 ecs_sched__tick_words(capacity) * sizeof(uint32_t));
        if (!ticks[i]) {
            while (i-- > 0) ecs_sched__free(&w->env, ticks[i]);
            for (i = 0; i < t->column_count; i++) ecs_sched__aligned_free(&w->env, data[i]);
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
    for (i = 0; i < t->tick_count; i++) ecs_sched__ticks_move(w, &t->ticks[i], ticks[i], t->count, capacity);
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
    if (t->tick_count) ecs_sched__ticks_delete_row(w, t, row, last);
    t->count = last;
    w->rows_version++;
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
    if (dst->tick_count) ecs_sched__ticks_move_row(w, dst, dst_row, src, row);
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
    return ECS_SCHED__GROW(&w->env, w->records, &w->record_capacity, (uint32_t)needed);
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

/* The executor a zero field means: parallel where there are threads. */
static ecs_sched_executor ecs_sched__default_executor(void) {
#ifdef ECS_SCHED_THREADS
    return ECS_SCHED_EXECUTOR_PARALLEL;
#else
    return ECS_SCHED_EXECUTOR_SINGLE_THREADED;
#endif
}

/* Every zero field of a world desc resolved; `desc` may be NULL. */
static ecs_sched_world_desc ecs_sched__world_desc_defaults(const ecs_sched_world_desc *desc) {
    ecs_sched_world_desc d;
    if (desc) d = *desc;
    else memset(&d, 0, sizeof d);
    d.allocator = ecs_sched__allocator_defaults(&d.allocator);
    if (d.entity_capacity < 0) d.entity_capacity = 0;
    if (d.thread_count == 0) d.thread_count = ecs_sched__hardware_threads();
    if (d.executor == ECS_SCHED_EXECUTOR_DEFAULT) d.executor = ecs_sched__default_executor();
    if (d.on_error == ECS_SCHED_ON_ERROR_DEFAULT) {
        d.on_error = d.error_hook.fn ? ECS_SCHED_ON_ERROR_HOOK : ECS_SCHED_ON_ERROR_STOP;
    }
    return d;
}

static bool ecs_sched__world_desc_valid(ecs_sched__env *env, const ecs_sched_world_desc *desc) {
    if (!desc) return true;
    if (desc->thread_count < 0) {
        ecs_sched__log(env, ECS_SCHED_LOG_ERROR, ECS_SCHED_ERR_INVALID_ARGUMENT,
                       "world_create: thread_count is negative; give 1 or more, or 0 for one "
                       "thread per hardware thread");
        return false;
    }
    if ((unsigned)desc->executor > (unsigned)ECS_SCHED_EXECUTOR_PARALLEL) {
        ecs_sched__log(env, ECS_SCHED_LOG_ERROR, ECS_SCHED_ERR_INVALID_ARGUMENT,
                       "world_create: executor is not one of ECS_SCHED_EXECUTOR_DEFAULT, "
                       "_SINGLE_THREADED or _PARALLEL");
        return false;
    }
    if ((unsigned)desc->on_error > (unsigned)ECS_SCHED_ON_ERROR_HOOK ||
        (desc->on_error == ECS_SCHED_ON_ERROR_HOOK && !desc->error_hook.fn)) {
        ecs_sched__log(env, ECS_SCHED_LOG_ERROR, ECS_SCHED_ERR_INVALID_ARGUMENT,
                       "world_create: on_error is not one of ECS_SCHED_ON_ERROR_DEFAULT, _STOP, "
                       "_CONTINUE or _HOOK, or is _HOOK without error_hook.fn");
        return false;
    }
    return true;
}

ecs_sched_world *ecs_sched_world_create(const ecs_sched_world_desc *given) {
    ecs_sched_world_desc desc;
    ecs_sched__env env;
    ecs_sched_world *w;
    ecs_sched__env_init(&env, given ? &given->allocator : NULL, given ? &given->logger : NULL);
    if (!ecs_sched__world_desc_valid(&env, given)) return NULL;
    desc = ecs_sched__world_desc_defaults(given);
    w = (ecs_sched_world *)ecs_sched__calloc(&env, sizeof *w);
    if (!w) {
        ecs_sched__log(&env, ECS_SCHED_LOG_ERROR, ECS_SCHED_ERR_OUT_OF_MEMORY,
                       "world_create: out of memory");
        return NULL;
    }
    w->env = env;
    w->thread_count = desc.thread_count;
    w->executor = desc.executor;
    w->on_error = desc.on_error;
    w->error_hook = desc.error_hook;
    w->component_count = 1;
    w->record_count = 1;
    w->free_head = ECS_SCHED__NONE;
    if (!ECS_SCHED__GROW(&w->env, w->components, &w->component_capacity, 1) ||
        !ECS_SCHED__GROW(&w->env, w->resources, &w->resource_capacity, 1) ||
        !ECS_SCHED__GROW(&w->env, w->resource_stamps, &w->resource_stamp_capacity, 1) ||
        !ECS_SCHED__GROW(&w->env, w->records, &w->record_capacity,
                         1 + (uint32_t)desc.entity_capacity) ||
        !ecs_sched__table_create(w, NULL, 0, ecs_sched__hash_type(NULL, 0))) {
        ecs_sched__log(&env, ECS_SCHED_LOG_ERROR, ECS_SCHED_ERR_OUT_OF_MEMORY,
                       "world_create: out of memory");
        ecs_sched_world_destroy(w);
        return NULL;
    }
    memset(&w->components[0], 0, sizeof w->components[0]);
    w->resources[0] = NULL;
    memset(&w->records[0], 0, sizeof w->records[0]);
    w->records[0].table = ECS_SCHED__DEAD;
    /* registered now, not at its first use: that may be a command recorded by a system
       running beside others, which must not grow the component array under them */
    w->disabled = ecs_sched_component_register_type(w, ECS_SCHED__DISABLED_NAME, 0, 0);
    w->child_of = w->disabled ? ecs_sched__register_child_of(w) : 0;
    w->prefab = w->child_of ? ecs_sched_component_register_type(w, ECS_SCHED__PREFAB_NAME, 0, 0) : 0;
    if (!w->prefab) {
        ecs_sched__log(&env, ECS_SCHED_LOG_ERROR, ECS_SCHED_ERR_OUT_OF_MEMORY,
                       "world_create: out of memory");
        ecs_sched_world_destroy(w);
        return NULL;
    }
    return w;
}

/* The world goes: the observers of ON_REMOVE hear of every component of every entity (what
   they defer is dropped with the world). */
static void ecs_sched__observe_world_end(ecs_sched_world *w) {
    uint32_t i;
    int32_t row, k;
    for (i = 0; i < w->table_count; i++) {
        const ecs_sched__table *t = w->tables[i];
        for (row = 0; row < t->count; row++) {
            for (k = 0; k < t->type_count; k++) {
                if (w->components[t->type[k]].relation) {
                    ecs_sched__observe_relations_removing(w, t->entities[row], t->type[k]);
                } else {
                    ecs_sched__observe_removing(w, t->entities[row], t->type[k]);
                }
            }
        }
    }
}

void ecs_sched_world_destroy(ecs_sched_world *w) {
    uint32_t i;
    if (!w) return;
    if (w->observers) ecs_sched__observe_world_end(w);
    ecs_sched__states_free(w);
    ecs_sched__time_free(w);
    ecs_sched__schedules_free(w);
    ecs_sched_pool_destroy(w->pool);
    ecs_sched__observers_free(w);
    ecs_sched__buffers_free(w);
    ecs_sched__queries_free(w);
    ecs_sched__messages_free(w);
    for (i = 0; i < w->table_count; i++) ecs_sched__table_free(w, w->tables[i]);
    ecs_sched__relations_free(w);
    ecs_sched__names_free(w);
    ecs_sched__descriptions_free(w);
    ecs_sched__resources_free(w);
    ecs_sched__name_map_free(&w->component_names);
    for (i = 1; i < w->component_count; i++) ecs_sched__free(&w->env, w->components[i].name);
    ecs_sched__free(&w->env, w->components);
    ecs_sched__free(&w->env, w->resources);
    ecs_sched__free(&w->env, w->resource_stamps);
    ecs_sched__free(&w->env, w->records);
    ecs_sched__free(&w->env, w->tables);
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
        if (ecs_sched__table_find(w, t->type, t->type_count,
                                  ecs_sched__hash_type(t->type, t->type_count)) != t) {
            return ecs_sched__inconsistent(w, "table missing from the type map", i, 0);
        }
        for (k = 1; k < t->type_count; k++) {
            if (t->type[k - 1] >= t->type[k]) {
                return ecs_sched__inconsistent(w, "unsorted type", i, (unsigned)k);
            }
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
ecs_sched_result ecs_sched_world_check(ecs_sched_world *w) {
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    result = ecs_sched__check_tables(w);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_records(w);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_queries(w);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_relations(w);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_names(w);
    return result;
}

/*=============================== src/ticks.h (implementation) ===============================*/
/* ticks: the change ticks of tracked components, kept beside the rows of their tables.

   A table keeps, for each tracked component in its type, a tick column (ecs_sched__ticks,
   world.h): per row the tick the component was added and the tick it last changed, per block
   of ECS_SCHED__TICK_BLOCK rows the newest change in it, and a log of the rows that changed in
   the order they did. The world's table code calls in here whenever rows are made, moved or
   deleted; what a tick means to a reader, and the iteration by what changed, are change.h's. */

static uint32_t ecs_sched__running_tick(const void *running);  /* context.h */

static inline uint32_t ecs_sched__tick_load(const ecs_sched_world *w) {
#ifdef ECS_SCHED_THREADS
    return atomic_load_explicit((atomic_uint *)(uintptr_t)&w->tick, memory_order_relaxed);
#else
    return w->tick;
#endif
}

/* Hands out the next tick: to a system or condition that runs, to a query iterated outside
   systems. Systems that run at once take theirs from any thread. */
static inline uint32_t ecs_sched__tick_take(ecs_sched_world *w) {
#ifdef ECS_SCHED_THREADS
    return atomic_fetch_add_explicit(&w->tick, 1u, memory_order_relaxed) + 1u;
#else
    return ++w->tick;
#endif
}

/* The tick of a change made now: the running system's, else (outside systems, or commands
   being applied) the next one to be handed out, so that every system that runs from now on
   sees the change and none that ran before saw it. */
static inline uint32_t ecs_sched__tick_now(const ecs_sched_world *w) {
    const void *running = ecs_sched__running_in(&w->env);
    return running ? ecs_sched__running_tick(running) : ecs_sched__tick_load(w) + 1u;
}

/* From now on systems take ticks and resources keep theirs; the resources there are count
   as added and changed now. */
static void ecs_sched__ticks_turn_on(ecs_sched_world *w) {
    uint32_t i, now = ecs_sched__tick_load(w) + 1u;
    if (w->ticks_on) return;
    for (i = 1; i < w->component_count; i++) {
        w->resource_stamps[i].added = w->resource_stamps[i].changed = now;
    }
    w->ticks_on = true;
}

/* Whether `tick` is newer than `than`, seen from `now`: ticks wrap, so what counts is their
   age, now - tick. */
static inline bool ecs_sched__tick_newer(uint32_t tick, uint32_t than, uint32_t now) {
    return (uint32_t)(now - tick) < (uint32_t)(now - than);
}

static inline uint32_t ecs_sched__tick_newest(uint32_t a, uint32_t b, uint32_t now) {
    return ecs_sched__tick_newer(a, b, now) ? a : b;
}

static inline ecs_sched__ticks *ecs_sched__ticks_find(const ecs_sched__table *t, ecs_sched_id id) {
    int32_t i;
    for (i = 0; i < t->tick_count; i++) {
        if (t->ticks[i].id == id) return &t->ticks[i];
    }
    return NULL;
}

/* Row `row` changed at `tick`: its block's newest keeps up. */
static inline void ecs_sched__ticks_note(ecs_sched__ticks *k, int32_t row, uint32_t tick,
                                         uint32_t now) {
    uint32_t *newest = &k->newest[row / ECS_SCHED__TICK_BLOCK];
    *newest = ecs_sched__tick_newest(*newest, tick, now);
}

/* The entry with this serial, while the log holds it. */
static inline ecs_sched__change *ecs_sched__log_entry(const ecs_sched__change_log *log,
                                                      uint32_t serial) {
    uint32_t at = serial - log->first_serial;
    return at < log->count ? &log->items[(log->start + at) & (log->capacity - 1)] : NULL;
}

/* The live entry of row `row`, or NULL (its `logged` may be anything for a row never
   logged: the entry found must name the row). */
static inline ecs_sched__change *ecs_sched__row_entry(const ecs_sched__ticks *k, uint32_t row) {
    ecs_sched__change *e = ecs_sched__log_entry(&k->log, k->logged[row]);
    return e && e->row == row ? e : NULL;
}

/* The log no longer holds changes logged before now (or it could not keep one). */
static void ecs_sched__change_log_cut(ecs_sched_world *w, ecs_sched__change_log *log) {
    log->first_serial = log->serial + 1u;
    log->start = log->count = 0;
    log->truncated = true;
    log->since = ecs_sched__tick_load(w) + 1u;
}

/* The most entries a table's log keeps: a quarter of its rows, and at least 256. */
static uint32_t ecs_sched__change_log_limit(const ecs_sched__table *t) {
    uint32_t limit = 256;
    while (limit < (uint32_t)t->count / 4u && limit < (UINT32_C(1) << 30)) limit *= 2;
    return limit;
}

/* Room for one more entry: a bigger ring, or the oldest quarter dropped. */
static bool ecs_sched__change_log_room(ecs_sched_world *w, const ecs_sched__table *t,
                                       ecs_sched__change_log *log) {
    uint32_t dropped, i;
    if (log->count < log->capacity) return true;
    if (log->capacity < ecs_sched__change_log_limit(t)) {
        uint32_t capacity = log->capacity ? log->capacity * 2 : 64;
        ecs_sched__change *items =
            (ecs_sched__change *)ecs_sched__alloc(&w->env, capacity * sizeof *items);
        if (items) {
            for (i = 0; i < log->count; i++) {
                items[i] = log->items[(log->start + i) & (log->capacity - 1)];
            }
            ecs_sched__free(&w->env, log->items);
            log->items = items;
            log->capacity = capacity;
            log->start = 0;
            return true;
        }
    }
    if (log->capacity == 0) return false;
    dropped = log->count / 4 ? log->count / 4 : 1;
    log->since = log->items[(log->start + dropped - 1) & (log->capacity - 1)].seq + 1u;
    log->truncated = true;
    log->start = (log->start + dropped) & (log->capacity - 1);
    log->count -= dropped;
    log->first_serial += dropped;
    return true;
}

/* Row `row` of t changed: its entry in the log. */
static void ecs_sched__log_change(ecs_sched_world *w, const ecs_sched__table *t,
                                  ecs_sched__ticks *k, int32_t row) {
    ecs_sched__change_log *log = &k->log;
    ecs_sched__change *entry = ecs_sched__row_entry(k, (uint32_t)row);
    if (entry) entry->row = ECS_SCHED__DEAD_ROW;
    if (!ecs_sched__change_log_room(w, t, log)) {
        ecs_sched__change_log_cut(w, log);
        return;
    }
    if (log->count == 0) log->first_serial = log->serial + 1u;
    entry = &log->items[(log->start + log->count++) & (log->capacity - 1)];
    entry->row = (uint32_t)row;
    entry->changed = k->changed[row];
    entry->seq = ecs_sched__tick_load(w);
    entry->serial = ++log->serial;
    k->logged[row] = entry->serial;
}

/* Every tick of row `row`, which holds another entity than before (a new row, or one that
   moved here). */
static void ecs_sched__ticks_set(ecs_sched_world *w, const ecs_sched__table *t,
                                 ecs_sched__ticks *k, int32_t row, uint32_t added,
                                 uint32_t changed, uint32_t now) {
    k->added[row] = added;
    k->changed[row] = changed;
    ecs_sched__ticks_note(k, row, changed, now);
    ecs_sched__log_change(w, t, k, row);
}

/* The value of row `row` changed at `tick`. Its entry moves to the end of the log even when
   the tick is the one it had: the log's order is the order of the changes, whatever ticks
   the executor handed out (so that both executors hand out the same rows in the same
   order). */
static void ecs_sched__ticks_change(ecs_sched_world *w, const ecs_sched__table *t,
                                    ecs_sched__ticks *k, int32_t row, uint32_t tick,
                                    uint32_t now) {
    k->changed[row] = tick;
    ecs_sched__ticks_note(k, row, tick, now);
    ecs_sched__log_change(w, t, k, row);
}

/* Every row of a table with a bulk mark gets it for its own, so that a row can join the
   table without inheriting a change it did not have. The log never had those changes: it
   starts again. */
static void ecs_sched__ticks_flush(ecs_sched_world *w, ecs_sched__ticks *k, int32_t count,
                                   uint32_t now) {
    int32_t r;
    if (!k->has_bulk) return;
    for (r = 0; r < count; r++) k->changed[r] = ecs_sched__tick_newest(k->changed[r], k->bulk, now);
    for (r = 0; r < (count + ECS_SCHED__TICK_BLOCK - 1) / ECS_SCHED__TICK_BLOCK; r++) {
        k->newest[r] = ecs_sched__tick_newest(k->newest[r], k->bulk, now);
    }
    k->has_bulk = false;
    ecs_sched__change_log_cut(w, &k->log);
}

/* The new rows [first, first + n) of t were added (and changed) at `tick`. */
static void ecs_sched__ticks_stamp_new(ecs_sched_world *w, ecs_sched__table *t, int32_t first,
                                       int32_t n, uint32_t tick) {
    uint32_t now = ecs_sched__tick_load(w) + 1u;
    int32_t i, r;
    for (i = 0; i < t->tick_count; i++) {
        for (r = first; r < first + n; r++) ecs_sched__ticks_set(w, t, &t->ticks[i], r, tick, tick, now);
    }
}

static int32_t ecs_sched__tick_blocks(int32_t rows) {
    return (rows + ECS_SCHED__TICK_BLOCK - 1) / ECS_SCHED__TICK_BLOCK;
}

/* Words of a tick column with room for `capacity` rows: added, changed, logged, newest. */
static size_t ecs_sched__tick_words(int32_t capacity) {
    return 3 * (size_t)capacity + (size_t)ecs_sched__tick_blocks(capacity);
}

/* Moves a tick column into `fresh`, with room for `capacity` rows. */
static void ecs_sched__ticks_move(ecs_sched_world *w, ecs_sched__ticks *k, uint32_t *fresh,
                                  int32_t count, int32_t capacity) {
    uint32_t *added = fresh, *changed = fresh + capacity, *logged = fresh + 2 * (size_t)capacity;
    uint32_t *newest = fresh + 3 * (size_t)capacity;
    int32_t blocks = ecs_sched__tick_blocks(capacity), used = ecs_sched__tick_blocks(count);
    if (count) {
        memcpy(added, k->added, (size_t)count * sizeof *added);
        memcpy(changed, k->changed, (size_t)count * sizeof *changed);
        memcpy(logged, k->logged, (size_t)count * sizeof *logged);
        memcpy(newest, k->newest, (size_t)used * sizeof *newest);
    }
    memset(newest + used, 0, (size_t)(blocks - used) * sizeof *newest);
    ecs_sched__free(&w->env, k->added);
    k->added = added;
    k->changed = changed;
    k->logged = logged;
    k->newest = newest;
}

/* The ticks of src's row `from` become those of dst's new last row `to`, for the tracked
   components both tables have. dst's older rows first take its bulk marks for their own. */
static void ecs_sched__ticks_move_row(ecs_sched_world *w, ecs_sched__table *dst, int32_t to,
                                      const ecs_sched__table *src, int32_t from) {
    uint32_t now = ecs_sched__tick_load(w) + 1u;
    int32_t i = 0, j = 0;
    for (j = 0; j < dst->tick_count; j++) ecs_sched__ticks_flush(w, &dst->ticks[j], to, now);
    j = 0;
    while (i < src->tick_count && j < dst->tick_count) {
        const ecs_sched__ticks *s = &src->ticks[i];
        ecs_sched__ticks *d = &dst->ticks[j];
        if (s->id == d->id) {
            uint32_t changed = s->changed[from];
            if (s->has_bulk) changed = ecs_sched__tick_newest(changed, s->bulk, now);
            ecs_sched__ticks_set(w, dst, d, to, s->added[from], changed, now);
            i++;
            j++;
        } else if (s->id < d->id) {
            i++;
        } else {
            j++;
        }
    }
}

/* Row `row` leaves its table and the last row takes its place: the ticks follow, and so
   does the last row's log entry; the leaving row's entry dies. */
static void ecs_sched__ticks_delete_row(ecs_sched_world *w, ecs_sched__table *t, int32_t row,
                                        int32_t last) {
    uint32_t now = ecs_sched__tick_load(w) + 1u;
    int32_t i;
    for (i = 0; i < t->tick_count; i++) {
        ecs_sched__ticks *k = &t->ticks[i];
        ecs_sched__change *gone = ecs_sched__row_entry(k, (uint32_t)row), *moved;
        if (gone) gone->row = ECS_SCHED__DEAD_ROW;
        if (row == last) continue;
        moved = ecs_sched__row_entry(k, (uint32_t)last);
        if (moved) moved->row = (uint32_t)row;
        k->added[row] = k->added[last];
        k->changed[row] = k->changed[last];
        k->logged[row] = k->logged[last];
        ecs_sched__ticks_note(k, row, k->changed[row], now);
    }
}

/* A tracked component was inserted on row `row` of t: added now unless `before` had it, and
   changed now either way. */
static void ecs_sched__ticks_inserted(ecs_sched_world *w, ecs_sched__table *t, int32_t row,
                                      const ecs_sched__table *before, ecs_sched_id id) {
    ecs_sched__ticks *k = ecs_sched__ticks_find(t, id);
    uint32_t tick = ecs_sched__tick_now(w), now = ecs_sched__tick_load(w) + 1u;
    bool had = ecs_sched__type_find(before, id) >= 0;
    if (had) ecs_sched__ticks_change(w, t, k, row, tick, now);
    else ecs_sched__ticks_set(w, t, k, row, tick, tick, now);
}

static void ecs_sched__ticks_free(ecs_sched_world *w, ecs_sched__table *t) {
    int32_t i;
    for (i = 0; i < t->tick_count; i++) {
        ecs_sched__free(&w->env, t->ticks[i].added);
        ecs_sched__free(&w->env, t->ticks[i].log.items);
    }
}

/* The entity's value of a tracked component changed now (the caller may write it). */
static void ecs_sched__value_changed(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    const ecs_sched__record *r = &w->records[ECS_SCHED_ENTITY_INDEX(e)];
    ecs_sched__table *t = w->tables[r->table];
    ecs_sched__ticks_change(w, t, ecs_sched__ticks_find(t, id), (int32_t)r->row,
                            ecs_sched__tick_now(w), ecs_sched__tick_load(w) + 1u);
}

/*=============================== src/query.h (implementation) ===============================*/
/* query: queries, their cached tables, iteration and parallel iteration. */

typedef struct ecs_sched__match {
    ecs_sched__table *table;
    int16_t column[ECS_SCHED_MAX_TERMS];  /* column per term, -1 when the field is NULL */
} ecs_sched__match;

/* A ticked query's tick column per term of each match (-1 when untracked), apart from the
   matches, which every iteration reads. */
typedef struct ecs_sched__match_ticks {
    int16_t of[ECS_SCHED_MAX_TERMS];
} ecs_sched__match_ticks;

/* What iteration reads comes first, on one cache line. */
struct ecs_sched_query {
    ecs_sched__match *matches;
    uint32_t match_count;
    int32_t term_count;
    ecs_sched_world *world;
    bool ticked;                      /* filters on ticks, or marks changes: see change.h */
    bool filtered;                    /* has added or changed terms: */
    int16_t filter_count;             /* how many, */
    int16_t log_term;                 /* and the first, whose change log it follows */
    bool marks;                       /* writes a tracked component, marking what it hands out */
    bool sees_disabled;               /* matches tables of disabled entities (disable.h) */
    bool sees_prefabs;                /* matches tables of prefabs (disable.h) */
    bool related;                     /* has related terms: a filter on rows (relation.h) */
    bool hierarchical;                /* has from_parent or cascade terms (hierarchy.h) */
    bool listed;                      /* hands out the rows of a list it keeps: hierarchical
                                         or sorted (hierarchy.h, sort.h) */
    struct ecs_sched__hier_cache *hier;   /* hierarchical: the rows in order (hierarchy.h) */
    uint32_t last_iter;               /* outside systems: the tick of its last iteration */
    uint32_t match_capacity;
    ecs_sched__match_ticks *match_ticks;  /* ticked queries: per match */
    uint32_t match_ticks_capacity;
    int32_t read_count;
    int32_t write_count;
    ecs_sched_term terms[ECS_SCHED_MAX_TERMS];
    ecs_sched_id reads[ECS_SCHED_MAX_TERMS + 1];   /* + ChildOf, read by hierarchical terms */
    ecs_sched_id writes[ECS_SCHED_MAX_TERMS];
};

/* relation.h: whether a row has the targets of the query's related terms. */
static bool ecs_sched__row_related(const ecs_sched_query *q, const ecs_sched__match *m,
                                   int32_t row);
/* hierarchy.h: a hierarchical query's iteration, in the order it keeps, and its end. */
static bool ecs_sched__iter_next_hier(ecs_sched_iter *it, bool by_rows);
static void ecs_sched__hier_free(ecs_sched_query *q);
static int32_t ecs_sched__hier_count(ecs_sched_query *q);

/* Whether a term's field is a column of the entity's own table (not of its parent, and not
   a without-term). */
static bool ecs_sched__term_on_parent(ecs_sched_term_kind kind) {
    return kind == ECS_SCHED_TERM_FROM_PARENT || kind == ECS_SCHED_TERM_OPTIONAL_FROM_PARENT;
}

static bool ecs_sched__term_on_self(ecs_sched_term_kind kind) {
    return kind != ECS_SCHED_TERM_WITHOUT && kind != ECS_SCHED_TERM_FROM_PARENT &&
           kind != ECS_SCHED_TERM_OPTIONAL_FROM_PARENT;
}

static bool ecs_sched__query_matches(const ecs_sched_query *q, ecs_sched__table *t,
                                     ecs_sched__match *out) {
    int32_t i;
    /* disabled entities and prefabs are hidden unless asked for */
    if (!q->sees_disabled && ecs_sched__type_find(t, q->world->disabled) >= 0) return false;
    if (!q->sees_prefabs && ecs_sched__type_find(t, q->world->prefab) >= 0) return false;
    for (i = 0; i < q->term_count; i++) {
        const ecs_sched_term *term = &q->terms[i];
        bool present = ecs_sched__type_find(t, term->id) >= 0;
        switch (term->kind) {
        case ECS_SCHED_TERM_DEFAULT:
        case ECS_SCHED_TERM_READ:
        case ECS_SCHED_TERM_WRITE:
        case ECS_SCHED_TERM_ADDED:
        case ECS_SCHED_TERM_CHANGED:
        case ECS_SCHED_TERM_WRITE_MANUAL:
            if (!present) return false;
            break;
        case ECS_SCHED_TERM_WITHOUT:
            if (present) return false;
            break;
        case ECS_SCHED_TERM_RELATED:
            if (!present) return false;
            break;
        case ECS_SCHED_TERM_FROM_PARENT:
            if (ecs_sched__type_find(t, q->world->child_of) < 0) return false;
            break;
        case ECS_SCHED_TERM_OPTIONAL_READ:
        case ECS_SCHED_TERM_OPTIONAL_WRITE:
        case ECS_SCHED_TERM_OPTIONAL_FROM_PARENT:
        case ECS_SCHED_TERM_CASCADE:
            break;
        }
        if (out) {
            int32_t column = ecs_sched__term_on_self(term->kind) ? ecs_sched__column_find(t, term->id)
                                                                 : -1;
            out->column[i] = (int16_t)column;
        }
    }
    if (out) out->table = t;
    return true;
}

/* A ticked query's tick columns of a table it matches, by term. */
static void ecs_sched__match_ticks_fill(const ecs_sched_query *q, const ecs_sched__table *t,
                                        ecs_sched__match_ticks *out) {
    int32_t i;
    for (i = 0; i < q->term_count; i++) {
        const ecs_sched__ticks *ticks = ecs_sched__term_on_self(q->terms[i].kind)
                                            ? ecs_sched__ticks_find(t, q->terms[i].id) : NULL;
        out->of[i] = (int16_t)(ticks ? ticks - t->ticks : -1);
    }
}

/* Room for one more match (and its ticks, for a ticked query). */
static bool ecs_sched__query_reserve_match(ecs_sched_world *w, ecs_sched_query *q) {
    return ECS_SCHED__GROW(&w->env, q->matches, &q->match_capacity, q->match_count + 1) &&
           (!q->ticked || ECS_SCHED__GROW(&w->env, q->match_ticks, &q->match_ticks_capacity,
                                          q->match_count + 1));
}

/* Adds table t as the query's next match when it matches. */
static void ecs_sched__query_add_match(ecs_sched_query *q, ecs_sched__table *t) {
    if (!ecs_sched__query_matches(q, t, &q->matches[q->match_count])) return;
    if (q->ticked) ecs_sched__match_ticks_fill(q, t, &q->match_ticks[q->match_count]);
    q->match_count++;
}

/* ---- queries ---- */

static bool ecs_sched__term_writes(ecs_sched_term_kind kind) {
    return kind == ECS_SCHED_TERM_WRITE || kind == ECS_SCHED_TERM_OPTIONAL_WRITE ||
           kind == ECS_SCHED_TERM_WRITE_MANUAL;
}

/* Whether an entity must have the term's component to match. */
static bool ecs_sched__term_required(ecs_sched_term_kind kind) {
    return kind == ECS_SCHED_TERM_READ || kind == ECS_SCHED_TERM_WRITE ||
           kind == ECS_SCHED_TERM_ADDED || kind == ECS_SCHED_TERM_CHANGED ||
           kind == ECS_SCHED_TERM_WRITE_MANUAL || kind == ECS_SCHED_TERM_RELATED;
}

/* Terms that read through the hierarchy: the query hands out its rows in the order
   hierarchy.h keeps for it. */
static bool ecs_sched__term_hierarchical(ecs_sched_term_kind kind) {
    return kind == ECS_SCHED_TERM_FROM_PARENT || kind == ECS_SCHED_TERM_OPTIONAL_FROM_PARENT ||
           kind == ECS_SCHED_TERM_CASCADE;
}

/* What a relationship or hierarchy term asks of its component and target. */
static ecs_sched_result ecs_sched__check_relational_term(ecs_sched_world *w,
                                                        const ecs_sched_term *term, int32_t i) {
    const ecs_sched__component *c = &w->components[term->id];
    if (term->target && term->kind != ECS_SCHED_TERM_RELATED) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                               "query_create: term %d ('%s') has a target, but only a related "
                               "term (ecs_sched_related) has one", (int)i, c->name);
    }
    if ((term->kind == ECS_SCHED_TERM_RELATED || term->kind == ECS_SCHED_TERM_CASCADE) &&
        !c->relation) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                               "query_create: term %d names '%s' as a relationship, but it is a "
                               "component; register relationship kinds with "
                               "ecs_sched_relation_register", (int)i, c->name);
    }
    if (term->kind == ECS_SCHED_TERM_RELATED && !ecs_sched__is_live_record(w, term->target)) {
        return ecs_sched__stale(w, term->target, "query_create: the target of a related term");
    }
    if (term->kind == ECS_SCHED_TERM_CASCADE &&
        (c->relation & (ECS_SCHED__KIND_EXCLUSIVE | ECS_SCHED__KIND_ACYCLIC)) !=
            (ECS_SCHED__KIND_EXCLUSIVE | ECS_SCHED__KIND_ACYCLIC)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                               "query_create: term %d cascades along '%s', which is not both "
                               "exclusive and acyclic (ChildOf is); only such a kind gives each "
                               "entity one depth", (int)i, c->name);
    }
    if ((term->kind == ECS_SCHED_TERM_FROM_PARENT ||
         term->kind == ECS_SCHED_TERM_OPTIONAL_FROM_PARENT) && c->size == 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                               "query_create: term %d reads '%s' from the parent, but '%s' is a "
                               "tag and has no value", (int)i, c->name, c->name);
    }
    if (c->relation && ecs_sched__term_writes(term->kind) &&
        c->size == sizeof(ecs_sched_entity)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                               "query_create: term %d writes '%s', a relationship without a "
                               "payload: its value is the target, which only ecs_sched_relate "
                               "changes; read it instead", (int)i, c->name);
    }
    return ECS_SCHED_OK;
}

static bool ecs_sched__term_filters(ecs_sched_term_kind kind) {
    return kind == ECS_SCHED_TERM_ADDED || kind == ECS_SCHED_TERM_CHANGED;
}

/* Written terms other than WRITE_MANUAL mark each row they hand out changed. */
static bool ecs_sched__term_marks(ecs_sched_term_kind kind) {
    return kind == ECS_SCHED_TERM_WRITE || kind == ECS_SCHED_TERM_OPTIONAL_WRITE;
}

/* Whether a term is the zero term, which ends a query's list (and a query whose first term
   is, ends a list of queries). */
static bool ecs_sched__term_ends(const ecs_sched_term *term) {
    return term->id == 0 && term->kind == ECS_SCHED_TERM_DEFAULT;
}

/* A term with id 0 that is not the zero term names a component that was never registered (or
   an id not set yet); a term after the zero term was meant to count. Either would end the list
   early without a word, and the system would read a field that is not there. */
static ecs_sched_result ecs_sched__check_term_list(ecs_sched_world *w,
                                                  const ecs_sched_query_desc *desc) {
    int32_t i, end = -1;
    for (i = 0; i < ECS_SCHED_MAX_TERMS; i++) {
        const ecs_sched_term *term = &desc->terms[i];
        if (ecs_sched__term_ends(term)) {
            if (end < 0) end = i;
            continue;
        }
        if (term->id == 0) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_UNKNOWN_COMPONENT,
                                   "query_create: term %d has component id 0, a component that "
                                   "was never registered or an id not set yet; register the "
                                   "component before making the query", (int)i);
        }
        if (end >= 0) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "query_create: term %d comes after the end of the list (term "
                                   "%d is the zero term); list the terms without gaps",
                                   (int)i, (int)end);
        }
    }
    return ECS_SCHED_OK;
}

/* A hierarchical query reads ChildOf (for its order and its parents' values); it keeps one
   order, which cannot follow changes as well. */
static ecs_sched_result ecs_sched__check_hierarchical(ecs_sched_world *w, ecs_sched_query *q) {
    int32_t i, cascade = -1, filter = -1;
    if (!q->hierarchical) return ECS_SCHED_OK;
    for (i = 0; i < q->term_count; i++) {
        if (q->terms[i].kind == ECS_SCHED_TERM_CASCADE) {
            if (cascade >= 0) {
                return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                                       "query_create: terms %d and %d both cascade; a query "
                                       "has one order", (int)cascade, (int)i);
            }
            cascade = i;
        }
        if (ecs_sched__term_filters(q->terms[i].kind) && filter < 0) filter = i;
    }
    if (filter >= 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                               "query_create: term %d asks for entities whose '%s' was %s, and "
                               "the query reads through the hierarchy; one query cannot do "
                               "both: use a second query for what changed", (int)filter,
                               w->components[q->terms[filter].id].name,
                               q->terms[filter].kind == ECS_SCHED_TERM_ADDED ? "added"
                                                                             : "changed");
    }
    for (i = 0; i < q->read_count && q->reads[i] != w->child_of; i++) {}
    if (i == q->read_count) q->reads[q->read_count++] = w->child_of;
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__query_init_terms(ecs_sched_world *w, ecs_sched_query *q,
                                                   const ecs_sched_query_desc *desc) {
    int32_t i, j;
    ecs_sched_result result = ecs_sched__check_term_list(w, desc);
    if (result != ECS_SCHED_OK) return result;
    for (i = 0; i < ECS_SCHED_MAX_TERMS && desc->terms[i].id; i++) {
        const ecs_sched_term *term = &desc->terms[i];
        if (!ecs_sched__component_valid(w, term->id)) {
            return ecs_sched__unknown_component(w, term->id, "query_create");
        }
        if ((unsigned)term->kind > (unsigned)ECS_SCHED_TERM_CASCADE) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "query_create: term %d ('%s') has an unknown kind %d", (int)i,
                                   w->components[term->id].name, (int)term->kind);
        }
        if (ecs_sched__term_filters(term->kind) && !w->components[term->id].tracked) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                                   "query_create: term %d asks for entities whose '%s' was %s, "
                                   "but '%s' is not tracked; register it with .tracked = true "
                                   "(ECS_SCHED_TRACKED_COMPONENT) to keep its change ticks",
                                   (int)i, w->components[term->id].name,
                                   term->kind == ECS_SCHED_TERM_ADDED ? "added" : "changed",
                                   w->components[term->id].name);
        }
        result = ecs_sched__check_relational_term(w, term, i);
        if (result != ECS_SCHED_OK) return result;
        for (j = 0; j < i; j++) {
            /* a component may be read both from the entity and from its parent */
            if (q->terms[j].id == term->id &&
                ecs_sched__term_on_parent(q->terms[j].kind) ==
                    ecs_sched__term_on_parent(term->kind)) {
                return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                                       "query_create: component '%s' appears in terms %d and %d; "
                                       "name each component once (write access includes read)",
                                       w->components[term->id].name, (int)j, (int)i);
            }
        }
        q->terms[i] = *term;
        if (term->kind == ECS_SCHED_TERM_DEFAULT) q->terms[i].kind = ECS_SCHED_TERM_READ;
        if (ecs_sched__term_filters(term->kind)) {
            if (!q->filtered) q->log_term = (int16_t)i;
            q->filtered = true;
            q->filter_count++;
        }
        if (ecs_sched__term_filters(term->kind) ||
            (ecs_sched__term_writes(term->kind) && w->components[term->id].tracked)) {
            q->ticked = true;
        }
        if (ecs_sched__term_marks(term->kind) && w->components[term->id].tracked) q->marks = true;
        if (term->kind == ECS_SCHED_TERM_RELATED) q->related = q->filtered = q->ticked = true;
        if (ecs_sched__term_hierarchical(term->kind)) q->hierarchical = q->listed = q->ticked = true;
        if (term->kind == ECS_SCHED_TERM_WITHOUT) continue;
        if (ecs_sched__term_writes(term->kind)) q->writes[q->write_count++] = term->id;
        else q->reads[q->read_count++] = term->id;
    }
    q->term_count = i;
    return ecs_sched__check_hierarchical(w, q);
}

/* Whether a term names a hidden tag (Disabled, Prefab) other than to leave it out: a query
   that does sees those entities (all of them with a required term, as well as the others
   with an optional one). */
static bool ecs_sched__query_names(const ecs_sched_query *q, ecs_sched_id tag) {
    int32_t i;
    for (i = 0; i < q->term_count; i++) {
        if (q->terms[i].id == tag && q->terms[i].kind != ECS_SCHED_TERM_WITHOUT) return true;
    }
    return false;
}

ecs_sched_query *ecs_sched_query_create(ecs_sched_world *w, const ecs_sched_query_desc *desc) {
    ecs_sched_query *q;
    uint32_t i;
    ECS_SCHED__CHECK_WORLD(w);
    if (!desc) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT, "query_create: desc is NULL");
        return NULL;
    }
    if (!ECS_SCHED__GROW(&w->env, w->queries, &w->query_capacity, w->query_count + 1)) {
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
    q->sees_disabled = ecs_sched__query_names(q, w->disabled);
    q->sees_prefabs = ecs_sched__query_names(q, w->prefab);
    for (i = 0; i < w->table_count; i++) {
        if (!ecs_sched__query_matches(q, w->tables[i], NULL)) continue;
        if (!ecs_sched__query_reserve_match(w, q)) {
            ecs_sched__free(&w->env, q->matches);
            ecs_sched__free(&w->env, q->match_ticks);
            ecs_sched__free(&w->env, q);
            ecs_sched__out_of_memory(w, "creating a query");
            return NULL;
        }
        ecs_sched__query_add_match(q, w->tables[i]);
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
    ecs_sched__free(&w->env, q->match_ticks);
    ecs_sched__hier_free(q);
    ecs_sched__free(&w->env, q);
}

/* The world's side of queries (declared in world.h): every new table is offered to every
   query, and the queries go with the world. */
static bool ecs_sched__queries_reserve_match(ecs_sched_world *w) {
    uint32_t q;
    for (q = 0; q < w->query_count; q++) {
        if (!ecs_sched__query_reserve_match(w, w->queries[q])) return false;
    }
    return true;
}

static void ecs_sched__queries_add_table(ecs_sched_world *w, ecs_sched__table *t) {
    uint32_t q;
    for (q = 0; q < w->query_count; q++) ecs_sched__query_add_match(w->queries[q], t);
}

static void ecs_sched__queries_free(ecs_sched_world *w) {
    while (w->query_count) ecs_sched_query_destroy(w->queries[w->query_count - 1]);
    ecs_sched__free(&w->env, w->queries);
    w->queries = NULL;
    w->query_capacity = 0;
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
    int32_t total = 0, row;
    uint32_t i;
    ECS_SCHED_ASSERT(q != NULL);
    /* a hierarchical query keeps the rows it hands out; a related one tests each row */
    if (q->listed) return ecs_sched__hier_count((ecs_sched_query *)(uintptr_t)q);
    for (i = 0; i < q->match_count; i++) {
        if (!q->related) {
            total += q->matches[i].table->count;
            continue;
        }
        for (row = 0; row < q->matches[i].table->count; row++) {
            total += ecs_sched__row_related(q, &q->matches[i], row);
        }
    }
    return total;
}

/* change.h: the window of changes an iteration sees, and iteration by runs of rows. */
static void ecs_sched__iter_window(const ecs_sched_query *q, uint32_t *last_run,
                                   uint32_t *this_run);
ECS_SCHED__NOINLINE static bool ecs_sched__iter_next_ticked(ecs_sched_iter *it);

/* The fields are filled by each ecs_sched_iter_next; they are not zeroed here, which costs
   more than the rest of a small query's iteration. */
/* An iterator at the start of q (NULL: one that hands out nothing). */
static inline ecs_sched_iter ecs_sched__iter_of(const ecs_sched_query *q) {
    ecs_sched_iter it;
    it.count = 0;
    it.entities = NULL;
    it.query_ = q;
    it.next_ = 0;
    it.row_ = -1;   /* a ticked query takes its window, and sets the rest, at its first next */
    return it;
}

ecs_sched_iter ecs_sched_query_iter(const ecs_sched_query *q) {
    ECS_SCHED_ASSERT(q != NULL);
    return ecs_sched__iter_of(q);
}

bool ecs_sched_iter_next(ecs_sched_iter *it) {
    const ecs_sched_query *q = it->query_;
    if (!q) return false;
    if (q->ticked) return ecs_sched__iter_next_ticked(it);
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


/* ---- parallel query iteration ---- */

typedef struct ecs_sched__par_query {
    const ecs_sched_query *query;
    ecs_sched_pool *pool;
    int64_t grain;
    ecs_sched_chunk_fn fn;
    void *arg;
    uint32_t last_run, this_run;   /* a ticked query's window */
} ecs_sched__par_query;

/* change.h: a piece of a query with added or changed terms, run by run; written rows of
   tracked components marked before the pieces run. */
static void ecs_sched__par_rows_filtered(const ecs_sched__par_query *pq,
                                         const ecs_sched__match *m, int32_t begin, int32_t end);
static void ecs_sched__par_mark_tables(const ecs_sched__par_query *pq);

typedef struct ecs_sched__par_table {
    const ecs_sched__par_query *pq;
    const ecs_sched__match *match;
    int64_t unit;                  /* rows per item: 1, or a tick block for a ticked query */
} ecs_sched__par_table;

static void ecs_sched__par_rows(int64_t begin, int64_t end, void *arg) {
    const ecs_sched__par_table *pt = (const ecs_sched__par_table *)arg;
    const ecs_sched_query *q = pt->pq->query;
    const ecs_sched__table *t = pt->match->table;
    ecs_sched_iter it;
    int32_t i;
    begin *= pt->unit;
    end = end * pt->unit < t->count ? end * pt->unit : t->count;
    if (q->filtered) {
        ecs_sched__par_rows_filtered(pt->pq, pt->match, (int32_t)begin, (int32_t)end);
        return;
    }
    it = ecs_sched__iter_of(NULL);
    it.count = (int32_t)(end - begin);
    it.entities = t->entities + begin;
    for (i = 0; i < q->term_count; i++) {
        int32_t c = pt->match->column[i];
        it.fields[i] = c >= 0 ? t->columns[c].data + (size_t)begin * t->columns[c].size : NULL;
    }
    pt->pq->fn(&it, pt->pq->arg);
}

static void ecs_sched__par_tables(int64_t begin, int64_t end, void *arg) {
    const ecs_sched__par_query *pq = (const ecs_sched__par_query *)arg;
    int64_t m;
    for (m = begin; m < end; m++) {
        ecs_sched__par_table pt;
        int64_t items;
        pt.pq = pq;
        pt.match = &pq->query->matches[m];
        /* a ticked query's pieces hold whole tick blocks, so that no two mark the same one */
        pt.unit = pq->query->ticked ? ECS_SCHED__TICK_BLOCK : 1;
        items = (pt.match->table->count + pt.unit - 1) / pt.unit;
        if (items == 0) continue;
        ecs_sched_pool_parallel_for(pq->pool, 0, items, (pq->grain + pt.unit - 1) / pt.unit,
                                    ecs_sched__par_rows, &pt);
    }
}

void ecs_sched_query_par_iter(ecs_sched_query *query, ecs_sched_pool *pool, int32_t grain,
                              ecs_sched_chunk_fn fn, void *arg) {
    ecs_sched__par_query pq;
    ECS_SCHED_ASSERT(query != NULL && pool != NULL && fn != NULL);
    if (query->listed) {   /* its order is its point: one piece after the other */
        ecs_sched_iter it = ecs_sched_query_iter(query);
        while (ecs_sched_iter_next(&it)) fn(&it, arg);
        return;
    }
    pq.query = query;
    pq.pool = pool;
    pq.grain = grain > 0 ? grain
                         : ecs_sched__default_grain(ecs_sched_pool_thread_count(pool),
                                                    ecs_sched_query_count(query));
    pq.fn = fn;
    pq.arg = arg;
    pq.last_run = pq.this_run = 0;
    if (query->ticked) {
        ecs_sched__iter_window(query, &pq.last_run, &pq.this_run);
        ecs_sched__par_mark_tables(&pq);
    }
    ecs_sched_pool_parallel_for(pool, 0, query->match_count, 1, ecs_sched__par_tables, &pq);
}

/*============================= src/resource.h (implementation) ==============================*/
/* resource: one value per component type, owned by the world (freed with it, world.h). A
   resource keeps when it was added and last changed while the world tracks changes. */

ecs_sched_result ecs_sched_resource_insert(ecs_sched_world *w, ecs_sched_id id, const void *value) {
    const ecs_sched__component *c;
    void *data;
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observers && ecs_sched__deferring(w)) {
        return ecs_sched__defer_set_resource(w, id, value);
    }
    if (ecs_sched__change_refused(w, "resource_insert")) return ECS_SCHED_ERR_ACCESS;
    if (!ecs_sched__component_valid(w, id)) {
        return ecs_sched__unknown_component(w, id, "resource_insert");
    }
    c = &w->components[id];
    if (w->resources[id]) {
        ecs_sched__assign(c, w->resources[id], value);
        if (w->ticks_on) w->resource_stamps[id].changed = ecs_sched__tick_now(w);
        return ECS_SCHED_OK;
    }
    data = ecs_sched__aligned_alloc(&w->env, c->size ? c->size : 1, c->alignment);
    if (!data) return ecs_sched__out_of_memory(w, "inserting a resource");
    ecs_sched__construct(c, data, value, 1);
    w->resources[id] = data;
    if (w->ticks_on) {
        w->resource_stamps[id].added = w->resource_stamps[id].changed = ecs_sched__tick_now(w);
    }
    return ECS_SCHED_OK;
}

/* The resource's value, or NULL with the reason as the last error. */
static void *ecs_sched__resource_value(ecs_sched_world *w, ecs_sched_id id) {
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

void *ecs_sched_resource_get_mut(ecs_sched_world *w, ecs_sched_id id) {
    void *value;
    ECS_SCHED__CHECK_WORLD(w);
    value = ecs_sched__resource_value(w, id);
    if (value && w->ticks_on) w->resource_stamps[id].changed = ecs_sched__tick_now(w);
    return value;
}

const void *ecs_sched_resource_get(ecs_sched_world *w, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__resource_value(w, id);
}

ecs_sched_result ecs_sched_resource_remove(ecs_sched_world *w, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observers && ecs_sched__refused_in_observer(w, "removing a resource")) {
        return ECS_SCHED_ERR_ACCESS;
    }
    if (ecs_sched__change_refused(w, "resource_remove")) return ECS_SCHED_ERR_ACCESS;
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

ecs_sched_result ecs_sched_resource_insert_non_send(ecs_sched_world *w, ecs_sched_id id,
                                                   const void *value) {
    ecs_sched_result result = ecs_sched_resource_insert(w, id, value);
    if (result == ECS_SCHED_OK) w->components[id].non_send = true;
    return result;
}

bool ecs_sched_resource_is_non_send(const ecs_sched_world *w, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__component_valid(w, id) && w->components[id].non_send;
}

/* The world's side (declared in world.h): its resources go with it. */
static void ecs_sched__resources_free(ecs_sched_world *w) {
    uint32_t i;
    for (i = 1; i < w->component_count; i++) {
        if (w->resources[i]) ecs_sched_resource_remove(w, i);
    }
}

/*============================== src/entity.h (implementation) ===============================*/
/* entity: spawning, despawning, and the components of one entity: each moves the entity
   between the world's tables (world.h), keeps its change ticks (ticks.h) and calls the
   observers watching it (observer.h). */

/* A relationship kind's value is a target, which only relate gives (the lists of sources
   must follow). */
static ecs_sched_result ecs_sched__kind_inserted(ecs_sched_world *w, ecs_sched_id kind,
                                                const char *operation) {
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "%s: '%s' is a relationship kind, which needs a target: use "
                           "ecs_sched_relate (or ecs_sched_commands_relate)", operation,
                           w->components[kind].name);
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
    if (t->tick_count) ecs_sched__ticks_stamp_new(w, t, row, 1, ecs_sched__tick_now(w));
    w->alive_count++;
    w->rows_version++;
    return true;
}

ecs_sched_entity ecs_sched_spawn(ecs_sched_world *w) {
    return ecs_sched_spawn_with(w, 0, NULL, NULL);
}

ecs_sched_entity ecs_sched_spawn_with(ecs_sched_world *w, int32_t count, const ecs_sched_id *ids,
                                      const void *const *values) {
    ecs_sched__table *t;
    ecs_sched_entity e;
    uint32_t index;
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observers && ecs_sched__deferring(w)) {
        return ecs_sched__defer_spawn_with(w, count, ids, values);
    }
    if (ecs_sched__change_refused(w, "spawn")) return ECS_SCHED_NULL_ENTITY;
    if (ecs_sched__check_ids(w, count, ids, "spawn") != ECS_SCHED_OK) return ECS_SCHED_NULL_ENTITY;
    t = ecs_sched__table_adding(w, w->tables[0], count, ids);
    if (!t) return ECS_SCHED_NULL_ENTITY;
    if (!ecs_sched__reserve_indices(w, 1) || !ecs_sched__table_reserve(w, t, 1)) {
        ecs_sched__out_of_memory(w, "spawning an entity");
        return ECS_SCHED_NULL_ENTITY;
    }
    index = ecs_sched__take_index(w);
    ecs_sched__place(w, index, t, count, ids, values);
    e = ecs_sched__make_entity(index, w->records[index].generation);
    if (w->observers) {
        ecs_sched__observe_inserted(w, e, NULL, count, ids);
        ecs_sched__observers_flush(w);
    }
    return e;
}

/* spawn_batch inside an observer: a deferred spawn per entity. */
static ecs_sched_result ecs_sched__defer_spawn_batch(ecs_sched_world *w, int32_t entity_count,
                                                     int32_t count, const ecs_sched_id *ids,
                                                     const void *const *arrays,
                                                     ecs_sched_entity *out_entities) {
    const void *values[ECS_SCHED__MAX_TYPE];
    ecs_sched_result result = ecs_sched__check_ids(w, count, ids, "spawn_batch");
    int32_t i, k;
    if (result != ECS_SCHED_OK) return result;
    for (i = 0; i < entity_count; i++) {
        ecs_sched_entity e;
        for (k = 0; k < count; k++) {
            const unsigned char *array = arrays ? (const unsigned char *)arrays[k] : NULL;
            values[k] = array ? array + (size_t)i * w->components[ids[k]].size : NULL;
        }
        e = ecs_sched__defer_spawn_with(w, count, ids, values);
        if (e == ECS_SCHED_NULL_ENTITY) return w->env.last_result;
        if (out_entities) out_entities[i] = e;
    }
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_spawn_batch(ecs_sched_world *w, int32_t entity_count, int32_t count,
                                       const ecs_sched_id *ids, const void *const *arrays,
                                       ecs_sched_entity *out_entities) {
    ecs_sched__table *t;
    ecs_sched_result result;
    int32_t first, i, c;
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observers && ecs_sched__deferring(w)) {
        return ecs_sched__defer_spawn_batch(w, entity_count, count, ids, arrays, out_entities);
    }
    if (ecs_sched__change_refused(w, "spawn_batch")) return ECS_SCHED_ERR_ACCESS;
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
    if (t->tick_count) ecs_sched__ticks_stamp_new(w, t, first, entity_count, ecs_sched__tick_now(w));
    t->count += entity_count;
    w->alive_count += entity_count;
    w->rows_version++;
    if (w->observers) {
        for (i = 0; i < entity_count; i++) {
            ecs_sched__observe_inserted(w, t->entities[first + i], NULL, count, ids);
        }
        ecs_sched__observers_flush(w);
    }
    return ECS_SCHED_OK;
}

static void ecs_sched__despawn_live(ecs_sched_world *w, uint32_t index) {
    ecs_sched__record *r = &w->records[index];
    ecs_sched__table *t = w->tables[r->table];
    int32_t i;
    for (i = 0; i < t->tick_count; i++) {
        ecs_sched__removed(w, t->ticks[i].id, ecs_sched__make_entity(index, r->generation));
    }
    for (i = 0; i < t->column_count; i++) {
        ecs_sched__destruct(&w->components[t->columns[i].id], ecs_sched__cell(t, i, r->row), 1);
    }
    ecs_sched__table_delete_row(w, t, (int32_t)r->row);
    ecs_sched__release_index(w, index);
    w->alive_count--;
}

/* A despawn in a world with observers or relationships, kept out of the plain one. */
ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__despawn_observed(ecs_sched_world *w,
                                                                       ecs_sched_entity e) {
    ecs_sched_result result = ECS_SCHED_OK;
    if (w->observers && ecs_sched__deferring(w)) return ecs_sched__defer_despawn(w, e);
    if (ecs_sched__change_refused(w, "despawn")) return ECS_SCHED_ERR_ACCESS;
    if (!ecs_sched__is_live_record(w, e)) return ecs_sched__stale(w, e, "despawn");
    if (w->linked) {
        result = ecs_sched__despawn_related(w, e);
    } else {
        ecs_sched__observe_despawning(w, e);
        ecs_sched__despawn_live(w, ECS_SCHED_ENTITY_INDEX(e));
    }
    if (w->observers) ecs_sched__observers_flush(w);
    return result;
}

ecs_sched_result ecs_sched_despawn(ecs_sched_world *w, ecs_sched_entity e) {
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observers || w->linked) return ecs_sched__despawn_observed(w, e);
    if (ecs_sched__change_refused(w, "despawn")) return ECS_SCHED_ERR_ACCESS;
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
    ecs_sched__table *t = w->tables[r->table];
    int32_t i;
    for (i = 0; i < count; i++) {
        const ecs_sched__component *c = &w->components[ids[i]];
        const void *value = values ? values[i] : NULL;
        int32_t column;
        if (c->tracked) ecs_sched__ticks_inserted(w, t, (int32_t)r->row, before, ids[i]);
        if (c->size == 0) continue;
        column = ecs_sched__column_find(t, ids[i]);
        if (ecs_sched__type_find(before, ids[i]) < 0) {
            ecs_sched__construct(c, ecs_sched__cell(t, column, r->row), value, 1);
        } else {
            ecs_sched__assign(c, ecs_sched__cell(t, column, r->row), value);
        }
    }
}

/* insert_many inside an observer: deferred inserts. */
static ecs_sched_result ecs_sched__defer_inserts(ecs_sched_world *w, ecs_sched_entity e,
                                                 int32_t count, const ecs_sched_id *ids,
                                                 const void *const *values) {
    ecs_sched_result result = ecs_sched__check_ids(w, count, ids, "insert");
    int32_t i;
    for (i = 0; i < count && result == ECS_SCHED_OK; i++) {
        result = ecs_sched__defer_insert(w, e, ids[i], values ? values[i] : NULL);
    }
    return result;
}

ecs_sched_result ecs_sched_insert_many(ecs_sched_world *w, ecs_sched_entity e, int32_t count,
                                       const ecs_sched_id *ids, const void *const *values) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    ecs_sched__table *src, *dst;
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observers && ecs_sched__deferring(w)) return ecs_sched__defer_inserts(w, e, count, ids, values);
    if (ecs_sched__change_refused(w, "insert")) return ECS_SCHED_ERR_ACCESS;
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
    if (w->observers) {
        ecs_sched__observe_inserted(w, e, src, count, ids);
        ecs_sched__observers_flush(w);
    }
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
    if (w->observers && ecs_sched__deferring(w)) {
        return ecs_sched__defer_remove(w, e, id);
    }
    if (ecs_sched__change_refused(w, "remove")) return ECS_SCHED_ERR_ACCESS;
    if (!ecs_sched__is_live_record(w, e)) return ecs_sched__stale(w, e, "remove");
    if (!ecs_sched__component_valid(w, id)) return ecs_sched__unknown_component(w, id, "remove");
    src = w->tables[w->records[index].table];
    if (ecs_sched__type_find(src, id) < 0) return ECS_SCHED_OK;
    if (w->components[id].relation) return ecs_sched__remove_relation(w, e, id);
    if (w->observers) ecs_sched__observe_removing(w, e, id);
    dst = ecs_sched__table_step(w, src, id, true);
    if (!dst) return w->env.last_result;
    if (!ecs_sched__move_entity(w, index, dst)) {
        return ecs_sched__out_of_memory(w, "moving an entity to a new archetype");
    }
    if (w->components[id].tracked) ecs_sched__removed(w, id, e);
    if (w->observers) ecs_sched__observers_flush(w);
    return ECS_SCHED_OK;
}

/* The entity's value of the component, or NULL with the reason as the last error. */
static void *ecs_sched__value(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
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

void *ecs_sched_get_mut(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    void *value;
    ECS_SCHED__CHECK_WORLD(w);
    value = ecs_sched__value(w, e, id);
    if (value && w->components[id].tracked) ecs_sched__value_changed(w, e, id);
    return value;
}

const void *ecs_sched_get(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__value(w, e, id);
}

bool ecs_sched_has(const ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__is_live_record(w, e)) return false;
    return ecs_sched__type_find(w->tables[w->records[ECS_SCHED_ENTITY_INDEX(e)].table], id) >= 0;
}

/*============================= src/commands.h (implementation) ==============================*/
/* commands: command buffers and their application. */


enum {
    ECS_SCHED__CMD_SPAWN,
    ECS_SCHED__CMD_DESPAWN,
    ECS_SCHED__CMD_INSERT,
    ECS_SCHED__CMD_REMOVE,
    ECS_SCHED__CMD_SET_RESOURCE,
    ECS_SCHED__CMD_RELATE,         /* value: the kind's slot, target and payload */
    ECS_SCHED__CMD_UNRELATE,       /* value: a slot with the target */
    ECS_SCHED__CMD_RELATE_KEEP     /* a relate without payload: an existing one stays */
};

/* A recorded command is one 32-bit word (operation, flags, component id), then the entity
   unless it is the same as the previous command's (a spawn followed by its inserts), then
   the value at the component's alignment. Small records keep recording and applying within
   the memory bandwidth a game can spare. */
#define ECS_SCHED__CMD_OP_MASK 0x7u
#define ECS_SCHED__CMD_HAS_VALUE 0x8u
#define ECS_SCHED__CMD_SAME_ENTITY 0x10u
#define ECS_SCHED__CMD_ID_SHIFT 5

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
                                    ecs_sched__command_block **block, size_t *at) {
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
    ecs_sched__command_block *block = cmd->read;
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
    if (!ECS_SCHED__GROW(&w->env, w->buffers, &w->buffer_capacity, w->buffer_count + 1)) {
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

/* The world's side of buffers (declared in world.h): they go with the world. */
static void ecs_sched__buffers_free(ecs_sched_world *w) {
    while (w->buffer_count) ecs_sched_commands_destroy(w->buffers[w->buffer_count - 1]);
    ecs_sched__free(&w->env, w->buffers);
    w->buffers = NULL;
    w->buffer_capacity = 0;
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

/* A relationship command: its value is a slot of the kind (relation.h), the target and then
   `payload_size` bytes of payload (zeros when payload is NULL). */
static ecs_sched_result ecs_sched__record_slot_command(ecs_sched_commands *cmd, uint32_t op,
                                                      ecs_sched_entity source, ecs_sched_id kind,
                                                      ecs_sched_entity target, const void *payload,
                                                      size_t payload_size) {
    ecs_sched_world *w = cmd->world;
    const ecs_sched__component *c = &w->components[kind];
    size_t offset = c->alignment > sizeof target ? c->alignment : sizeof target;
    size_t worst = sizeof(uint32_t) + sizeof source + c->alignment + c->size, at;
    uint32_t word = op | (kind << ECS_SCHED__CMD_ID_SHIFT) | ECS_SCHED__CMD_HAS_VALUE;
    ecs_sched__command_block *block = ecs_sched__command_room(cmd, ecs_sched__align_up(worst, sizeof(uint32_t)));
    bool same;
    if (!block) return ecs_sched__out_of_memory(w, "recording a command");
    same = block->used > 0 && source == cmd->write_entity;
    if (same) word |= ECS_SCHED__CMD_SAME_ENTITY;
    at = block->used;
    memcpy(block->data + at, &word, sizeof word);
    at += sizeof word;
    if (!same) {
        memcpy(block->data + at, &source, sizeof source);
        at += sizeof source;
    }
    at = ecs_sched__align_up(at, c->alignment);
    memset(block->data + at, 0, c->size);
    memcpy(block->data + at, &target, sizeof target);
    if (payload) memcpy(block->data + at + offset, payload, payload_size);
    block->used = ecs_sched__align_up(at + c->size, sizeof word);
    cmd->write_entity = source;
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

/* What ecs_sched_ctx_commands gives a system that did not declare .commands: NULL, and a
   refused access that is already its failure. Recording into it does nothing more. Outside a
   running system a NULL buffer is a programmer error. */
static bool ecs_sched__no_buffer(const ecs_sched_commands *cmd) {
    if (cmd) return false;
    ECS_SCHED_ASSERT(ecs_sched__running_now != NULL);
    return true;
}

ecs_sched_entity ecs_sched_commands_spawn(ecs_sched_commands *cmd) {
    ecs_sched_world *w;
    uint32_t index;
    ecs_sched_entity e;
    if (ecs_sched__no_buffer(cmd)) return ECS_SCHED_NULL_ENTITY;
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
    if (ecs_sched__no_buffer(cmd)) return ECS_SCHED_NULL_ENTITY;
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
    if (ecs_sched__no_buffer(cmd)) return ECS_SCHED_ERR_ACCESS;
    result = ecs_sched__check_target(cmd, e, "commands_despawn");
    if (result != ECS_SCHED_OK) return result;
    return ecs_sched__record_command(cmd, ECS_SCHED__CMD_DESPAWN, e, 0, NULL);
}

ecs_sched_result ecs_sched_commands_insert(ecs_sched_commands *cmd, ecs_sched_entity e,
                                           ecs_sched_id id, const void *value) {
    ecs_sched_result result;
    if (ecs_sched__no_buffer(cmd)) return ECS_SCHED_ERR_ACCESS;
    result = ecs_sched__check_target(cmd, e, "commands_insert");
    if (result != ECS_SCHED_OK) return result;
    if (!ecs_sched__component_valid(cmd->world, id)) {
        return ecs_sched__unknown_component(cmd->world, id, "commands_insert");
    }
    if (cmd->world->components[id].relation) {
        return ecs_sched__kind_inserted(cmd->world, id, "commands_insert");
    }
    return ecs_sched__record_command(cmd, ECS_SCHED__CMD_INSERT, e, id, value);
}

ecs_sched_result ecs_sched_commands_remove(ecs_sched_commands *cmd, ecs_sched_entity e,
                                           ecs_sched_id id) {
    ecs_sched_result result;
    if (ecs_sched__no_buffer(cmd)) return ECS_SCHED_ERR_ACCESS;
    result = ecs_sched__check_target(cmd, e, "commands_remove");
    if (result != ECS_SCHED_OK) return result;
    if (!ecs_sched__component_valid(cmd->world, id)) {
        return ecs_sched__unknown_component(cmd->world, id, "commands_remove");
    }
    return ecs_sched__record_command(cmd, ECS_SCHED__CMD_REMOVE, e, id, NULL);
}

ecs_sched_result ecs_sched_commands_set_resource(ecs_sched_commands *cmd, ecs_sched_id id,
                                                 const void *value) {
    if (ecs_sched__no_buffer(cmd)) return ECS_SCHED_ERR_ACCESS;
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
            if (ok && w->observers) {
                ecs_sched__observe_inserted(w, c.entity, NULL, n, ids);
                ecs_sched__observers_flush(w);
            }
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
            if (ecs_sched__is_live_record(w, c.entity) && w->linked) {
                /* a despawn a kind refuses is skipped; its reason is the last error */
                ecs_sched_result result = ecs_sched_despawn(w, c.entity);
                if (result == ECS_SCHED_ERR_REFUSED) cmd->skipped++;
                else if (result != ECS_SCHED_OK) return -1;
            } else if (ecs_sched__is_live_record(w, c.entity)) {
                if (w->observers) ecs_sched__observe_despawning(w, c.entity);
                ecs_sched__despawn_live(w, ECS_SCHED_ENTITY_INDEX(c.entity));
                if (w->observers) ecs_sched__observers_flush(w);
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
    case ECS_SCHED__CMD_RELATE:
    case ECS_SCHED__CMD_UNRELATE:
    case ECS_SCHED__CMD_RELATE_KEEP: {
        ecs_sched_result result = ECS_SCHED_OK;
        if (!ecs_sched__is_live_record(w, c.entity) ||
            !ecs_sched__apply_relation(w, c.op, c.entity, c.id, c.value, &result)) {
            goto skipped;
        }
        ok = result == ECS_SCHED_OK;
        break;
    }
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
    ecs_sched__command_block *block;
    ECS_SCHED_ASSERT(cmd != NULL);
    if (cmd->world->observers && ecs_sched__refused_in_observer(cmd->world, "applying commands")) {
        return ECS_SCHED_ERR_ACCESS;
    }
    cmd->skipped = 0;
    block = cmd->read;
    while (ecs_sched__command_step(cmd, &block, &cmd->read_at)) {
        int32_t consumed;
        cmd->read = block;
        consumed = ecs_sched__apply_one(cmd);
        if (consumed < 0) return cmd->world->env.last_result;
        cmd->pending -= consumed;
    }
    ecs_sched__release_reserved(cmd);  /* nothing is left to release: this just empties it */
    return ECS_SCHED_OK;
}

/*============================== src/context.h (implementation) ==============================*/
/* context: what a running system or condition can reach. */

/* What a run of a typical system touches (its queries, its user data, the violation the
   executor looks at after it) comes first. */
struct ecs_sched_system_ctx {
    ecs_sched_result failure;         /* the first failure of its run so far; OK while none,
                                         and whenever it is not running: whoever runs it takes
                                         the failure after (on the line of the system's fn) */
    bool failure_refused;             /* with failure: a refused access, not clearable */
    bool applying;                    /* its commands are applied at a sync point right now */
    ecs_sched_query *queries[ECS_SCHED_MAX_QUERIES];
    void *user_data;
    int32_t query_count;
    ecs_sched_world *world;
    ecs_sched_commands *commands;
    const char *name;
    const char *kind;                 /* "system" or "condition", for messages */
    const char *schedule;             /* the label of its schedule, for messages */
    const char *guards_kind;          /* conditions: "system" or "set", what they guard, */
    const char *guards_name;          /* and its name */
    char *failure_message;            /* made at its first failure, kept for the next */
    int32_t read_count;
    int32_t write_count;
    ecs_sched_id reads[ECS_SCHED_MAX_RESOURCES];
    ecs_sched_id writes[ECS_SCHED_MAX_RESOURCES];
    bool exclusive;
    bool read_only;                   /* conditions */
    bool observer;                    /* an observer's (observer.h) */
    ecs_sched_id sending_id;          /* the message type it sent last, checked, */
    void *sending;                    /* and its queue (message.h) */
    struct ecs_sched__cursor *cursors;    /* its places in message queues (message.h) */
    int32_t cursor_count;
    uint32_t cursor_capacity;
    uint32_t last_run;                /* change ticks: of its previous run, and of this one */
    uint32_t this_run;                /* (or the last), taken while ticks_on (change.h) */
};

/* ---- the running context (see base.h) ---- */

static const ecs_sched__env *ecs_sched__running_env(const void *running) {
    return &((const ecs_sched_system_ctx *)running)->world->env;
}

/* Appends text at out[at], as far as it fits in n (always terminated); returns the end. */
static size_t ecs_sched__append(char *out, size_t n, size_t at, const char *text) {
    size_t k = strlen(text);
    if (at >= n) return at;
    if (k > n - 1 - at) k = n - 1 - at;
    memcpy(out + at, text, k);
    out[at + k] = '\0';
    return at + k;
}

/* "system 'x' in schedule 'S': " or "condition 'c' (guarding set 's') in schedule 'S': ".
   (Put together piece by piece: a system that fails every frame pays for it each time.) */
static size_t ecs_sched__running_prefix(const void *running, char *out, size_t n) {
    const ecs_sched_system_ctx *ctx = (const ecs_sched_system_ctx *)running;
    size_t at = 0;
    at = ecs_sched__append(out, n, at, ctx->kind);
    at = ecs_sched__append(out, n, at, " '");
    at = ecs_sched__append(out, n, at, ctx->name);
    if (ctx->guards_name) {
        at = ecs_sched__append(out, n, at, "' (guarding ");
        at = ecs_sched__append(out, n, at, ctx->guards_kind);
        at = ecs_sched__append(out, n, at, " '");
        at = ecs_sched__append(out, n, at, ctx->guards_name);
        at = ecs_sched__append(out, n, at, "')");
    } else {
        at = ecs_sched__append(out, n, at, "'");
    }
    if (!ctx->schedule) return ecs_sched__append(out, n, at, ": ");   /* an observer */
    at = ecs_sched__append(out, n, at, " in schedule '");
    at = ecs_sched__append(out, n, at, ctx->schedule);
    return ecs_sched__append(out, n, at, "': ");
}

static bool ecs_sched__running_may_change(const void *running) {
    const ecs_sched_system_ctx *ctx = (const ecs_sched_system_ctx *)running;
    return ctx->exclusive || ctx->applying;
}

/* Keeps a failure on the context: the first one, or a refused access over one that is not.
   Without room for the message (out of memory), the code alone is kept. */
static void ecs_sched__running_keep(void *running, ecs_sched_result code, const char *message,
                                    bool refused) {
    ecs_sched_system_ctx *ctx = (ecs_sched_system_ctx *)running;
    if (ctx->failure != ECS_SCHED_OK && (ctx->failure_refused || !refused)) return;
    ctx->failure = code;
    ctx->failure_refused = refused;
    if (!ctx->failure_message) {
        ctx->failure_message = (char *)ecs_sched__alloc(&ctx->world->env, ECS_SCHED__ERROR_CAPACITY);
        if (!ctx->failure_message) return;
    }
    ecs_sched__append(ctx->failure_message, ECS_SCHED__ERROR_CAPACITY, 0, message);
}

/* The message of the failure kept on ctx; when there was no memory to keep it, its names
   and code, written into buf. */
static const char *ecs_sched__ctx_failure_message(const ecs_sched_system_ctx *ctx, char *buf,
                                                  size_t n) {
    size_t at;
    if (ctx->failure_message) return ctx->failure_message;
    at = ecs_sched__running_prefix(ctx, buf, n);
    snprintf(buf + at, n - at, "%s (out of memory keeping the whole message)",
             ecs_sched_result_string(ctx->failure));
    return buf;
}

static uint32_t ecs_sched__running_tick(const void *running) {
    const ecs_sched_system_ctx *ctx = (const ecs_sched_system_ctx *)running;
    return ctx->applying ? ecs_sched__tick_load(ctx->world) + 1u : ctx->this_run;
}

/* ctx runs once more: its window of changes moves on (while something tracks changes). */
static void ecs_sched__ctx_take_tick(ecs_sched_system_ctx *ctx) {
    ctx->last_run = ctx->this_run;
    ctx->this_run = ecs_sched__tick_take(ctx->world);
}

/* ctx runs on this thread from here to ecs_sched__running_end; returns what ran before. */
static void *ecs_sched__running_begin(ecs_sched_system_ctx *ctx) {
    void *outer = ecs_sched__running_now;
    ctx->failure = ECS_SCHED_OK;
    ecs_sched__running_now = ctx;
    return outer;
}

static void ecs_sched__running_end(void *outer) {
    ecs_sched__running_now = outer;
}

/* A failure of what ctx belongs to, kept on ctx (from whichever thread it was handed to),
   its names in front of the message. */
static ecs_sched_result ecs_sched__ctx_vfail(ecs_sched_system_ctx *ctx, ecs_sched_result code,
                                             bool refused, const char *fmt, ...)
    ECS_SCHED__PRINTF(4, 5);
static ecs_sched_result ecs_sched__ctx_vfail(ecs_sched_system_ctx *ctx, ecs_sched_result code,
                                             bool refused, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    code = ecs_sched__vfail_on(&ctx->world->env, ctx, code, refused, fmt, args);
    va_end(args);
    return code;
}

/* Refuses what a system asked for: fmt and what follows say what it asked. */
static void *ecs_sched__ctx_refuse(ecs_sched_system_ctx *ctx, const char *fmt, ...)
    ECS_SCHED__PRINTF(2, 3);
static void *ecs_sched__ctx_refuse(ecs_sched_system_ctx *ctx, const char *fmt, ...) {
    char detail[400];
    va_list args;
    va_start(args, fmt);
    vsnprintf(detail, sizeof detail, fmt, args);
    va_end(args);
    ecs_sched__ctx_vfail(ctx, ECS_SCHED_ERR_ACCESS, true, "%s", detail);
    return NULL;
}

ecs_sched_result ecs_sched_ctx_fail(ecs_sched_system_ctx *ctx, ecs_sched_result code,
                                    const char *format, ...) {
    va_list args;
    ECS_SCHED_ASSERT(ctx != NULL && format != NULL);
    if (code == ECS_SCHED_OK) return ECS_SCHED_OK;
    va_start(args, format);
    code = ecs_sched__vfail_on(&ctx->world->env, ctx, code, false, format, args);
    va_end(args);
    return code;
}

ecs_sched_result ecs_sched_ctx_error(const ecs_sched_system_ctx *ctx) {
    ECS_SCHED_ASSERT(ctx != NULL);
    return ctx->failure;
}

void ecs_sched_ctx_clear_error(ecs_sched_system_ctx *ctx) {
    ECS_SCHED_ASSERT(ctx != NULL);
    if (!ctx->failure_refused) ctx->failure = ECS_SCHED_OK;
}

const char *ecs_sched_ctx_name(const ecs_sched_system_ctx *ctx) {
    ECS_SCHED_ASSERT(ctx != NULL);
    return ctx->name;
}

void *ecs_sched_ctx_user_data(const ecs_sched_system_ctx *ctx) {
    ECS_SCHED_ASSERT(ctx != NULL);
    return ctx->user_data;
}

ecs_sched_query *ecs_sched_ctx_query(ecs_sched_system_ctx *ctx, int32_t index) {
    char number[16];
    ECS_SCHED_ASSERT(ctx != NULL);
    if (index >= 0 && index < ctx->query_count) return ctx->queries[index];
    snprintf(number, sizeof number, "%d", (int)index);
    return (ecs_sched_query *)ecs_sched__ctx_refuse(
        ctx, "asked for query %s, which its desc does not declare", number);
}

ecs_sched_iter ecs_sched_ctx_iter(ecs_sched_system_ctx *ctx, int32_t index) {
    return ecs_sched__iter_of(ecs_sched_ctx_query(ctx, index));   /* NULL: nothing */
}

static bool ecs_sched__ids_contain(const ecs_sched_id *ids, int32_t count, ecs_sched_id id) {
    int32_t i;
    for (i = 0; i < count; i++) {
        if (ids[i] == id) return true;
    }
    return false;
}

/* A main-thread-only resource asked for on another thread than the one running the
   schedule. */
static bool ecs_sched__off_main_thread(const ecs_sched_world *w, ecs_sched_id id) {
#ifdef ECS_SCHED_THREADS
    return ecs_sched__component_valid(w, id) && w->components[id].non_send &&
           !pthread_equal(pthread_self(), w->schedule_thread);
#else
    (void)w;
    (void)id;
    return false;
#endif
}

static void *ecs_sched__ctx_refuse_off_main_thread(ecs_sched_system_ctx *ctx, ecs_sched_id id) {
    return ecs_sched__ctx_refuse(ctx, "asks for main-thread-only resource '%s' on another thread "
                                      "than the one running the schedule: use it in the system "
                                      "itself (declaring it keeps the system on that thread)",
                                 ecs_sched__component_label(ctx->world, id));
}

/* A declared resource that is not in the world: the system's failure. */
static void *ecs_sched__ctx_missing_resource(ecs_sched_system_ctx *ctx, ecs_sched_id id) {
    ecs_sched__ctx_vfail(ctx, ECS_SCHED_ERR_MISSING_RESOURCE, false,
                         "reads resource '%s', which does not exist: insert it before the "
                         "schedule runs, guard %s with ecs_sched_condition_resource_exists, or "
                         "read it with ecs_sched_ctx_optional_resource if it can do without",
                         ecs_sched__component_label(ctx->world, id),
                         ctx->read_only ? "what it guards" : "the system");
    return NULL;
}

/* A declared resource, or NULL (and a refusal) for one it did not declare or may not reach
   on this thread; *declared tells which. */
static void *ecs_sched__ctx_reach(ecs_sched_system_ctx *ctx, ecs_sched_id id, bool write,
                                  bool *declared) {
    bool reads = ecs_sched__ids_contain(ctx->reads, ctx->read_count, id);
    bool writes = ecs_sched__ids_contain(ctx->writes, ctx->write_count, id);
    *declared = false;
    if (write && ctx->read_only) {
        return ecs_sched__ctx_refuse(ctx, "asks to write resource '%s', but conditions are "
                                          "read-only",
                                     ecs_sched__component_label(ctx->world, id));
    }
    if (write ? !writes : !reads && !writes) {
        return ecs_sched__ctx_refuse(ctx, "%s resource '%s' without declaring it: add it to "
                                          "the desc's .%s",
                                     write ? "writes" : "reads",
                                     ecs_sched__component_label(ctx->world, id),
                                     write ? "writes" : "reads");
    }
    if (ecs_sched__off_main_thread(ctx->world, id)) {
        return ecs_sched__ctx_refuse_off_main_thread(ctx, id);
    }
    *declared = true;
    if (write && ctx->world->ticks_on && ctx->world->resources[id]) {
        ctx->world->resource_stamps[id].changed = ctx->this_run;
    }
    return ctx->world->resources[id];
}

const void *ecs_sched_ctx_resource(ecs_sched_system_ctx *ctx, ecs_sched_id id) {
    bool declared;
    void *value;
    ECS_SCHED_ASSERT(ctx != NULL);
    value = ecs_sched__ctx_reach(ctx, id, false, &declared);
    return value || !declared ? value : ecs_sched__ctx_missing_resource(ctx, id);
}

void *ecs_sched_ctx_resource_mut(ecs_sched_system_ctx *ctx, ecs_sched_id id) {
    bool declared;
    void *value;
    ECS_SCHED_ASSERT(ctx != NULL);
    value = ecs_sched__ctx_reach(ctx, id, true, &declared);
    return value || !declared ? value : ecs_sched__ctx_missing_resource(ctx, id);
}

const void *ecs_sched_ctx_optional_resource(ecs_sched_system_ctx *ctx, ecs_sched_id id) {
    bool declared;
    ECS_SCHED_ASSERT(ctx != NULL);
    return ecs_sched__ctx_reach(ctx, id, false, &declared);
}

void *ecs_sched_ctx_optional_resource_mut(ecs_sched_system_ctx *ctx, ecs_sched_id id) {
    bool declared;
    ECS_SCHED_ASSERT(ctx != NULL);
    return ecs_sched__ctx_reach(ctx, id, true, &declared);
}

ecs_sched_commands *ecs_sched_ctx_commands(ecs_sched_system_ctx *ctx) {
    ECS_SCHED_ASSERT(ctx != NULL);
    if (!ctx->commands) {
        return (ecs_sched_commands *)ecs_sched__ctx_refuse(
            ctx, "asks for a command buffer%s",
            ctx->read_only ? ", but conditions are read-only and record no commands"
                           : ": declare .commands = true in its desc");
    }
    return ctx->commands;
}

ecs_sched_world *ecs_sched_ctx_world(ecs_sched_system_ctx *ctx) {
    ECS_SCHED_ASSERT(ctx != NULL);
    if (!ctx->exclusive) {
        return (ecs_sched_world *)ecs_sched__ctx_refuse(
            ctx, "asks for the whole world%s: only systems declared .exclusive = true get it",
            ctx->read_only ? " from a condition" : "");
    }
    return ctx->world;
}

/* A piece of a system's parallel query runs as the system, on whichever thread runs it: what
   fails there is the system's, and what the system may not do there is refused. */
typedef struct ecs_sched__ctx_piece {
    ecs_sched_system_ctx *ctx;
    ecs_sched_chunk_fn fn;
    void *arg;
} ecs_sched__ctx_piece;

static void ecs_sched__ctx_run_piece(ecs_sched_iter *it, void *arg) {
    const ecs_sched__ctx_piece *piece = (const ecs_sched__ctx_piece *)arg;
    void *outer = ecs_sched__running_now;
    ecs_sched__running_now = piece->ctx;
    piece->fn(it, piece->arg);
    ecs_sched__running_now = outer;
}

ecs_sched_result ecs_sched_ctx_par_iter(ecs_sched_system_ctx *ctx, int32_t index, int32_t grain,
                                        ecs_sched_chunk_fn fn, void *arg) {
    ecs_sched_query *q;
    ecs_sched_pool *pool;
    ecs_sched__ctx_piece piece;
    ECS_SCHED_ASSERT(ctx != NULL && fn != NULL);
    q = ecs_sched_ctx_query(ctx, index);
    if (!q) return ECS_SCHED_ERR_ACCESS;
    pool = ecs_sched_world_pool(ctx->world);
    if (!pool) return ECS_SCHED_ERR_OUT_OF_MEMORY;
    piece.ctx = ctx;
    piece.fn = fn;
    piece.arg = arg;
    ecs_sched_query_par_iter(q, pool, grain, ecs_sched__ctx_run_piece, &piece);
    return ECS_SCHED_OK;
}

/*============================== src/message.h (implementation) ==============================*/
/* message: messages between systems, and the lists of removed components. */

/* A queue of messages (of a message type, or of a tracked component's removals): two
   buffers, the older and the newer; sequence numbers count every message ever sent. */
typedef struct ecs_sched__queue {
    ecs_sched_id id;
    bool removals;                    /* the entities that lost component `id` */
    uint32_t size;
    uint32_t alignment;
    ecs_sched_type_hooks hooks;
    unsigned char *data[2];           /* [0] the older, [1] the newer */
    int32_t count[2];
    int32_t capacity[2];
    uint64_t first[2];                /* the sequence number of each buffer's first message
                                         (the next one sent: first[1] + count[1]) */
    uint64_t cleared;                 /* those before it were dropped on purpose */
} ecs_sched__queue;

typedef struct ecs_sched__message_scope {
    uint32_t queue;
    ecs_sched_id machine;
    int32_t value;
    bool on_enter;
} ecs_sched__message_scope;

struct ecs_sched__messages {
    ecs_sched__queue **queues;
    uint32_t count;
    uint32_t capacity;
    ecs_sched__message_scope *scopes;
    uint32_t scope_count;
    uint32_t scope_capacity;
};

/* A reader's place in one queue (kept by a context per queue it reads). */
typedef struct ecs_sched__cursor {
    uint32_t queue;
    uint64_t next;
} ecs_sched__cursor;

static ecs_sched__queue *ecs_sched__queue_at(const ecs_sched_world *w, uint32_t index) {
    return w->messages->queues[index];
}

/* The sequence number of the next message sent. */
static inline uint64_t ecs_sched__queue_end(const ecs_sched__queue *q) {
    return q->first[1] + (uint64_t)q->count[1];
}

static void ecs_sched__queue_drop(ecs_sched__queue *q, int b) {
    if (q->hooks.dtor && q->count[b] > 0) q->hooks.dtor(q->data[b], q->count[b], q->hooks.ctx);
    q->count[b] = 0;
}

static void ecs_sched__queue_free(ecs_sched_world *w, ecs_sched__queue *q) {
    ecs_sched__queue_drop(q, 0);
    ecs_sched__queue_drop(q, 1);
    ecs_sched__aligned_free(&w->env, q->data[0]);
    ecs_sched__aligned_free(&w->env, q->data[1]);
    ecs_sched__free(&w->env, q);
}

/* The world's side (declared in world.h): the queues go with the world. */
static void ecs_sched__messages_free(ecs_sched_world *w) {
    uint32_t i;
    if (!w->messages) return;
    for (i = 0; i < w->messages->count; i++) ecs_sched__queue_free(w, w->messages->queues[i]);
    ecs_sched__free(&w->env, w->messages->queues);
    ecs_sched__free(&w->env, w->messages->scopes);
    ecs_sched__free(&w->env, w->messages);
    w->messages = NULL;
}

/* A new queue for component `id`; its index + 1, or 0 when out of memory. */
static uint32_t ecs_sched__queue_create(ecs_sched_world *w, ecs_sched_id id, bool removals,
                                        uint32_t size, uint32_t alignment,
                                        const ecs_sched_type_hooks *hooks) {
    ecs_sched__messages *all;
    ecs_sched__queue *q;
    if (!w->messages) {
        w->messages = (ecs_sched__messages *)ecs_sched__calloc(&w->env, sizeof *w->messages);
        if (!w->messages) return 0;
    }
    all = w->messages;
    if (!ECS_SCHED__GROW(&w->env, all->queues, &all->capacity, all->count + 1) ||
        !(q = (ecs_sched__queue *)ecs_sched__calloc(&w->env, sizeof *q))) {
        return 0;
    }
    q->id = id;
    q->removals = removals;
    q->size = size;
    q->alignment = alignment;
    if (hooks) q->hooks = *hooks;
    all->queues[all->count++] = q;
    return all->count;
}

/* Room for `n` more messages in the newer buffer; false when out of memory. */
static bool ecs_sched__queue_reserve(ecs_sched_world *w, ecs_sched__queue *q, int32_t n) {
    int64_t needed = (int64_t)q->count[1] + n;
    int32_t capacity = q->capacity[1] ? q->capacity[1] : 16;
    unsigned char *data;
    size_t size = q->size ? q->size : 1;
    if (needed <= q->capacity[1]) return true;
    if (needed > INT32_MAX / 2) return false;
    while (capacity < needed) capacity *= 2;
    data = (unsigned char *)ecs_sched__aligned_alloc(&w->env, (size_t)capacity * size, q->alignment);
    if (!data) return false;
    if (q->count[1]) {
        if (q->hooks.move) q->hooks.move(data, q->data[1], q->count[1], q->hooks.ctx);
        else memcpy(data, q->data[1], (size_t)q->count[1] * size);
    }
    ecs_sched__aligned_free(&w->env, q->data[1]);
    q->data[1] = data;
    q->capacity[1] = capacity;
    return true;
}

/* Appends `n` messages (NULL: zeroed ones). */
static bool ecs_sched__queue_push(ecs_sched_world *w, ecs_sched__queue *q, int32_t n,
                                  const void *values) {
    unsigned char *dst;
    if (n <= 0) return true;
    if (!ecs_sched__queue_reserve(w, q, n)) return false;
    dst = q->data[1] + (size_t)q->count[1] * q->size;
    if (q->size) {
        memset(dst, 0, (size_t)n * q->size);
        if (values) {
            if (q->hooks.copy) q->hooks.copy(dst, values, n, q->hooks.ctx);
            else memcpy(dst, values, (size_t)n * q->size);
        }
    }
    q->count[1] += n;
    return true;
}

static void ecs_sched__queue_update(ecs_sched__queue *q) {
    unsigned char *data = q->data[0];
    int32_t capacity = q->capacity[0];
    ecs_sched__queue_drop(q, 0);
    q->data[0] = q->data[1];
    q->count[0] = q->count[1];
    q->capacity[0] = q->capacity[1];
    q->first[0] = q->first[1];
    q->data[1] = data;              /* the dropped buffer is reused */
    q->capacity[1] = capacity;
    q->count[1] = 0;
    q->first[1] = q->first[0] + (uint64_t)q->count[0];
}

/* Drops every message kept (a state-scoped clear): readers skip them without counting them
   missed. */
static void ecs_sched__queue_clear(ecs_sched__queue *q) {
    uint64_t end = ecs_sched__queue_end(q);
    ecs_sched__queue_drop(q, 0);
    ecs_sched__queue_drop(q, 1);
    q->first[0] = q->first[1] = q->cleared = end;
}

void ecs_sched_messages_update(ecs_sched_world *w) {
    uint32_t i;
    ECS_SCHED__CHECK_WORLD(w);
    if (!w->messages) return;
    for (i = 0; i < w->messages->count; i++) ecs_sched__queue_update(w->messages->queues[i]);
    w->fixed_step_since_update = false;
}

/* ---- registering ---- */

static const ecs_sched__queue *ecs_sched__message_queue(const ecs_sched_world *w, ecs_sched_id id) {
    if (!ecs_sched__component_valid(w, id) || !w->components[id].queue) return NULL;
    return ecs_sched__queue_at(w, w->components[id].queue - 1);
}

bool ecs_sched_is_message(const ecs_sched_world *w, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__message_queue(w, id) != NULL;
}

ecs_sched_id ecs_sched_message_register(ecs_sched_world *w, const ecs_sched_message_desc *desc) {
    ecs_sched_component_desc c;
    ecs_sched_id id, existing;
    uint32_t queue;
    ECS_SCHED__CHECK_WORLD(w);
    if (!desc || !desc->name) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "message_register: a message type needs a non-empty name");
        return 0;
    }
    existing = ecs_sched_component_lookup(w, desc->name);
    if (existing && !w->components[existing].queue) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_COMPONENT_MISMATCH,
                        "message_register: '%s' is already registered as a component; a "
                        "message type needs a name of its own", desc->name);
        return 0;
    }
    memset(&c, 0, sizeof c);
    c.name = desc->name;
    c.size = desc->size;
    c.alignment = desc->alignment;
    c.hooks = desc->hooks;
    id = ecs_sched_component_register(w, &c);
    if (!id || existing) return id;
    queue = ecs_sched__queue_create(w, id, false, w->components[id].size,
                                    w->components[id].alignment, &desc->hooks);
    if (!queue) {
        ecs_sched__out_of_memory(w, "registering a message type");
        return 0;   /* the name stays a component: registering it again fails the same way */
    }
    w->components[id].queue = queue;
    return id;
}

ecs_sched_id ecs_sched_message_register_type(ecs_sched_world *w, const char *name, size_t size,
                                             size_t alignment) {
    ecs_sched_message_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.name = name;
    desc.size = size;
    desc.alignment = alignment;
    return ecs_sched_message_register(w, &desc);
}

/* The world's side (declared in world.h): a tracked component gets its removals' queue. */
static bool ecs_sched__removals_create(ecs_sched_world *w, ecs_sched_id id) {
    uint32_t queue = ecs_sched__queue_create(w, id, true, sizeof(ecs_sched_entity),
                                             (uint32_t)sizeof(ecs_sched_entity), NULL);
    if (!queue) return false;
    w->components[id].removals = queue;
    return true;
}

/* The world's side: `e` loses tracked component `id` (removed, or despawned). A removal
   that cannot be kept (out of memory) is lost, and the log says so. */
static void ecs_sched__removed(ecs_sched_world *w, ecs_sched_id id, ecs_sched_entity e) {
    uint32_t queue = w->components[id].removals;
    if (!queue || !ecs_sched__queue_push(w, ecs_sched__queue_at(w, queue - 1), 1, &e)) {
        ecs_sched__logf(&w->env, ECS_SCHED_LOG_WARN, ECS_SCHED_ERR_OUT_OF_MEMORY,
                        "the removal of '%s' from entity %u is not kept (out of memory): "
                        "readers of its removals will not see it",
                        w->components[id].name, (unsigned)ECS_SCHED_ENTITY_INDEX(e));
    }
}

static ecs_sched_result ecs_sched__removals_of_untracked(ecs_sched_world *w, ecs_sched_id id,
                                                        const char *operation) {
    if (!ecs_sched__component_valid(w, id)) return ecs_sched__unknown_component(w, id, operation);
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "%s: '%s' is not tracked, so its removals are not kept; register "
                           "it with .tracked = true (ECS_SCHED_TRACKED_COMPONENT)",
                           operation, w->components[id].name);
}

/* ---- sending ---- */

static ecs_sched_result ecs_sched__not_a_message(ecs_sched_world *w, ecs_sched_id id,
                                                 const char *operation) {
    if (!ecs_sched__component_valid(w, id)) return ecs_sched__unknown_component(w, id, operation);
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "%s: '%s' is a component, not a message type (register it with "
                           "ecs_sched_message_register or ECS_SCHED_MESSAGE)",
                           operation, w->components[id].name);
}

static ecs_sched_result ecs_sched__send(ecs_sched_world *w, ecs_sched_id id, int32_t count,
                                        const void *messages, const char *operation) {
    const ecs_sched__queue *q = ecs_sched__message_queue(w, id);
    if (!q || q->removals) return ecs_sched__not_a_message(w, id, operation);
    if (count < 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "%s: %d messages of '%s'", operation, (int)count,
                               w->components[id].name);
    }
    if (!ecs_sched__queue_push(w, (ecs_sched__queue *)(uintptr_t)q, count, messages)) {
        return ecs_sched__out_of_memory(w, "sending messages");
    }
    return ECS_SCHED_OK;
}

/* Whether a running system declared `id` as written (or, reading, as read or written);
   refused as its failure otherwise. */
static bool ecs_sched__ctx_declared(ecs_sched_system_ctx *ctx, ecs_sched_id id, bool write,
                                    const char *what) {
    bool writes = ecs_sched__ids_contain(ctx->writes, ctx->write_count, id);
    bool reads = ecs_sched__ids_contain(ctx->reads, ctx->read_count, id);
    if (write ? writes : reads || writes) return true;
    ecs_sched__ctx_refuse(ctx, "%s messages of '%s' without declaring them: add it to the "
                               "desc's .%s",
                          what, ecs_sched__component_label(ctx->world, id),
                          write ? "writes" : "reads");
    return false;
}

ecs_sched_result ecs_sched_ctx_send_batch(ecs_sched_system_ctx *ctx, ecs_sched_id id,
                                          int32_t count, const void *messages) {
    ECS_SCHED_ASSERT(ctx != NULL);
    if (!ecs_sched__message_queue(ctx->world, id)) {
        return ecs_sched__not_a_message(ctx->world, id, "send");
    }
    if (!ecs_sched__ctx_declared(ctx, id, true, "sends")) return ECS_SCHED_ERR_ACCESS;
    return ecs_sched__send(ctx->world, id, count, messages, "send");
}

/* The first send of a type by a context checks it, and keeps its queue for the next ones. */
ECS_SCHED__NOINLINE static ecs_sched_result ecs_sched__ctx_send_first(ecs_sched_system_ctx *ctx,
                                                                      ecs_sched_id id,
                                                                      const void *message) {
    ecs_sched_result result = ecs_sched_ctx_send_batch(ctx, id, 1, message);
    if (result == ECS_SCHED_OK) {
        ctx->sending_id = id;
        ctx->sending = ecs_sched__queue_at(ctx->world, ctx->world->components[id].queue - 1);
    }
    return result;
}

void *ecs_sched_ctx_send_new(ecs_sched_system_ctx *ctx, ecs_sched_id id) {
    ecs_sched__queue *q;
    unsigned char *slot;
    ECS_SCHED_ASSERT(ctx != NULL);
    q = (ecs_sched__queue *)ctx->sending;
    if (id != ctx->sending_id || q->count[1] >= q->capacity[1]) {
        if (ecs_sched__ctx_send_first(ctx, id, NULL) != ECS_SCHED_OK) return NULL;
        q = (ecs_sched__queue *)ctx->sending;
        return q->data[1] + (size_t)(q->count[1] - 1) * q->size;
    }
    slot = q->data[1] + (size_t)q->count[1]++ * q->size;
    ecs_sched__zero_value(slot, q->size);
    return slot;
}

ecs_sched_result ecs_sched_ctx_send(ecs_sched_system_ctx *ctx, ecs_sched_id id,
                                    const void *message) {
    ecs_sched__queue *q;
    ECS_SCHED_ASSERT(ctx != NULL);
    q = (ecs_sched__queue *)ctx->sending;
    /* the common case: the type it sent last, room in its buffer, a plain value */
    if (id == ctx->sending_id && message && !q->hooks.copy && q->count[1] < q->capacity[1]) {
        ecs_sched__copy_value(q->data[1] + (size_t)q->count[1] * q->size, message, q->size);
        q->count[1]++;
        return ECS_SCHED_OK;
    }
    return ecs_sched__ctx_send_first(ctx, id, message);
}

ecs_sched_result ecs_sched_send_batch(ecs_sched_world *w, ecs_sched_id id, int32_t count,
                                      const void *messages) {
    ECS_SCHED__CHECK_WORLD(w);
    if (ecs_sched__change_refused(w, "send")) return ECS_SCHED_ERR_ACCESS;
    return ecs_sched__send(w, id, count, messages, "send");
}

ecs_sched_result ecs_sched_send(ecs_sched_world *w, ecs_sched_id id, const void *message) {
    return ecs_sched_send_batch(w, id, 1, message);
}

/* ---- reading ---- */

/* The oldest message a queue still keeps (the older buffer's first: the buffers hold
   consecutive messages). */
static uint64_t ecs_sched__queue_oldest(const ecs_sched__queue *q) {
    return q->first[0];
}

/* Reads from *next on: what was dropped before it is missed (unless cleared on purpose),
   and *next moves past the last message. */
static ecs_sched_messages ecs_sched__read_from(const ecs_sched__queue *q, uint64_t *next) {
    ecs_sched_messages read;
    uint64_t oldest = ecs_sched__queue_oldest(q), from = *next;
    memset(&read, 0, sizeof read);
    if (from < oldest) {
        uint64_t skipped_on_purpose = q->cleared > from ? q->cleared - from : 0;
        uint64_t gone = oldest - from;
        read.missed = (int64_t)(gone > skipped_on_purpose ? gone - skipped_on_purpose : 0);
        from = oldest;
    }
    read.queue_ = q;
    read.from_ = from;
    read.to_ = ecs_sched__queue_end(q);
    read.total = (int32_t)(ecs_sched__queue_end(q) - from);
    read.part_ = 0;
    *next = ecs_sched__queue_end(q);
    return read;
}

bool ecs_sched_messages_next(ecs_sched_messages *read) {
    const ecs_sched__queue *q = (const ecs_sched__queue *)read->queue_;
    ECS_SCHED_ASSERT(read != NULL);
    while (q && read->part_ < 2) {
        int b = read->part_++;
        uint64_t first = q->first[b], end = first + (uint64_t)q->count[b];
        uint64_t from = read->from_ > first ? read->from_ : first;
        uint64_t to = read->to_ < end ? read->to_ : end;
        if (from >= to) continue;
        read->data = q->data[b] + (size_t)(from - first) * q->size;
        read->count = (int32_t)(to - from);
        return true;
    }
    read->data = NULL;
    read->count = 0;
    return false;
}

/* The cursor of a context for a queue, made at its first read at the oldest message kept;
   NULL when out of memory (with the failure kept on ctx). */
static ecs_sched__cursor *ecs_sched__ctx_cursor(ecs_sched_system_ctx *ctx, uint32_t queue) {
    ecs_sched_world *w = ctx->world;
    ecs_sched__cursor *c;
    int32_t i;
    for (i = 0; i < ctx->cursor_count; i++) {
        if (ctx->cursors[i].queue == queue) return &ctx->cursors[i];
    }
    if (!ECS_SCHED__GROW(&w->env, ctx->cursors, &ctx->cursor_capacity,
                         (uint32_t)ctx->cursor_count + 1)) {
        ecs_sched__out_of_memory(w, "keeping a reader's place in a message queue");
        return NULL;
    }
    c = &ctx->cursors[ctx->cursor_count++];
    c->queue = queue;
    c->next = ecs_sched__queue_oldest(ecs_sched__queue_at(w, queue - 1));
    return c;
}

static ecs_sched_messages ecs_sched__no_messages(void) {
    ecs_sched_messages read;
    memset(&read, 0, sizeof read);
    return read;
}

ecs_sched_messages ecs_sched_ctx_messages(ecs_sched_system_ctx *ctx, ecs_sched_id id) {
    const ecs_sched__queue *q;
    ecs_sched__cursor *c;
    ECS_SCHED_ASSERT(ctx != NULL);
    q = ecs_sched__message_queue(ctx->world, id);
    if (!q || q->removals) {
        ecs_sched__not_a_message(ctx->world, id, "read");
        return ecs_sched__no_messages();
    }
    if (!ecs_sched__ctx_declared(ctx, id, false, "reads")) return ecs_sched__no_messages();
    c = ecs_sched__ctx_cursor(ctx, ctx->world->components[id].queue);
    return c ? ecs_sched__read_from(q, &c->next) : ecs_sched__no_messages();
}

ecs_sched_messages ecs_sched_ctx_removed(ecs_sched_system_ctx *ctx, ecs_sched_id component) {
    ecs_sched_world *w;
    ecs_sched__cursor *c;
    ECS_SCHED_ASSERT(ctx != NULL);
    w = ctx->world;
    if (!ecs_sched__component_valid(w, component) || !w->components[component].removals) {
        ecs_sched__removals_of_untracked(w, component, "removed");
        return ecs_sched__no_messages();
    }
    c = ecs_sched__ctx_cursor(ctx, w->components[component].removals);
    return c ? ecs_sched__read_from(ecs_sched__queue_at(w, c->queue - 1), &c->next)
             : ecs_sched__no_messages();
}

ecs_sched_message_cursor ecs_sched_message_cursor_make(ecs_sched_world *w, ecs_sched_id id) {
    ecs_sched_message_cursor cursor;
    const ecs_sched__queue *q;
    ECS_SCHED__CHECK_WORLD(w);
    memset(&cursor, 0, sizeof cursor);
    q = ecs_sched__message_queue(w, id);
    if (!q || q->removals) {
        ecs_sched__not_a_message(w, id, "message_cursor_make");
        return cursor;
    }
    cursor.id = id;
    cursor.next_ = ecs_sched__queue_oldest(q);
    return cursor;
}

ecs_sched_message_cursor ecs_sched_removed_cursor_make(ecs_sched_world *w, ecs_sched_id component) {
    ecs_sched_message_cursor cursor;
    ECS_SCHED__CHECK_WORLD(w);
    memset(&cursor, 0, sizeof cursor);
    if (!ecs_sched__component_valid(w, component) || !w->components[component].removals) {
        ecs_sched__removals_of_untracked(w, component, "removed_cursor_make");
        return cursor;
    }
    cursor.id = component;
    cursor.next_ = ecs_sched__queue_oldest(ecs_sched__queue_at(w, w->components[component].removals - 1));
    return cursor;
}

/* The queue a cursor reads: a message type's, or a tracked component's removals. */
static const ecs_sched__queue *ecs_sched__cursor_queue(const ecs_sched_world *w,
                                                      const ecs_sched_message_cursor *cursor) {
    const ecs_sched__component *c;
    if (!ecs_sched__component_valid(w, cursor->id)) return NULL;
    c = &w->components[cursor->id];
    if (c->queue) return ecs_sched__queue_at(w, c->queue - 1);
    if (c->removals) return ecs_sched__queue_at(w, c->removals - 1);
    return NULL;
}

ecs_sched_messages ecs_sched_message_read(ecs_sched_world *w, ecs_sched_message_cursor *cursor) {
    const ecs_sched__queue *q;
    ecs_sched_messages read;
    ECS_SCHED__CHECK_WORLD(w);
    ECS_SCHED_ASSERT(cursor != NULL);
    q = ecs_sched__cursor_queue(w, cursor);
    if (!q) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "message_read: the cursor was not made by ecs_sched_message_cursor_make or "
                        "ecs_sched_removed_cursor_make (its id %u has no messages)",
                        (unsigned)cursor->id);
        return ecs_sched__no_messages();
    }
    read = ecs_sched__read_from(q, &cursor->next_);
    cursor->missed += read.missed;
    return read;
}

int32_t ecs_sched_message_unread(ecs_sched_world *w, const ecs_sched_message_cursor *cursor) {
    const ecs_sched__queue *q;
    uint64_t from;
    ECS_SCHED__CHECK_WORLD(w);
    q = ecs_sched__cursor_queue(w, cursor);
    if (!q) return 0;
    from = cursor->next_ > ecs_sched__queue_oldest(q) ? cursor->next_ : ecs_sched__queue_oldest(q);
    return (int32_t)(ecs_sched__queue_end(q) - from);
}

/* The context's unread messages in a queue, taken (for the on_message and
   any_component_removed conditions). */
static bool ecs_sched__ctx_take_unread(ecs_sched_system_ctx *ctx, uint32_t queue) {
    ecs_sched__cursor *c = queue ? ecs_sched__ctx_cursor(ctx, queue) : NULL;
    const ecs_sched__queue *q;
    uint64_t from;
    if (!c) return false;
    q = ecs_sched__queue_at(ctx->world, queue - 1);
    from = c->next > ecs_sched__queue_oldest(q) ? c->next : ecs_sched__queue_oldest(q);
    c->next = ecs_sched__queue_end(q);
    return from < ecs_sched__queue_end(q);
}

/* ---- state-scoped messages ---- */

/* Adds a scope (checked by the state module, which defines ecs_sched_message_scope_to_state). */
static ecs_sched_result ecs_sched__message_scope_add(ecs_sched_world *w, ecs_sched_id message,
                                                    ecs_sched_id machine, int32_t value,
                                                    bool on_enter) {
    ecs_sched__messages *all = w->messages;
    ecs_sched__message_scope *scope;
    if (!ECS_SCHED__GROW(&w->env, all->scopes, &all->scope_capacity, all->scope_count + 1)) {
        return ecs_sched__out_of_memory(w, "scoping messages to a state");
    }
    scope = &all->scopes[all->scope_count++];
    scope->queue = w->components[message].queue - 1;
    scope->machine = machine;
    scope->value = value;
    scope->on_enter = on_enter;
    return ECS_SCHED_OK;
}

/* Called by the state transitions: `machine` leaves (or reaches) `value`. */
static void ecs_sched__messages_state_moved(ecs_sched_world *w, ecs_sched_id machine,
                                            int32_t value, bool on_enter) {
    uint32_t i;
    if (!w->messages) return;
    for (i = 0; i < w->messages->scope_count; i++) {
        const ecs_sched__message_scope *s = &w->messages->scopes[i];
        if (s->machine == machine && s->value == value && s->on_enter == on_enter) {
            ecs_sched__queue_clear(ecs_sched__queue_at(w, s->queue));
        }
    }
}

/*============================= src/condition.h (implementation) =============================*/
/* condition: run conditions, their combinators, and the built-in conditions. */

#define ECS_SCHED__CONDITION_DEPTH 32

/* One node of a condition tree, copied into a schedule. */
typedef struct ecs_sched__cond {
    ecs_sched_condition_kind kind;
    int32_t operands[2];
    ecs_sched_condition_fn fn;
    ecs_sched_id resource;
    int32_t state_value;
    uint32_t seen_changes;            /* STATE_CHANGED: the machine's change count last seen */
    int64_t duration_ns;              /* the time conditions: their period or delay */
    int64_t timer_ns;                 /* and the time they have seen elapse */
    ecs_sched_id first_write;         /* a write it asked for, refused at build */
    bool first_write_is_resource;
    bool has_run;
    ecs_sched_equals_fn equals;
    unsigned char *value;
    size_t value_size;
    char *name;
    ecs_sched_system_ctx ctx;         /* read-only view for fn */
} ecs_sched__cond;

/* The conditions of one schedule: nodes live at stable addresses. */
typedef struct ecs_sched__conds {
    ecs_sched__cond **items;
    uint32_t count;
    uint32_t capacity;
} ecs_sched__conds;

/* The state conditions ask the state module (state.h), defined there. */
static ecs_sched_result ecs_sched__state_condition_fill(ecs_sched_world *w, ecs_sched__cond *node,
                                                        const ecs_sched_condition *c);
static bool ecs_sched__state_is(const ecs_sched_world *w, ecs_sched_id machine, int32_t value);
static uint32_t ecs_sched__state_changes(const ecs_sched_world *w, ecs_sched_id machine);
static bool ecs_sched__state_exists(const ecs_sched_world *w, ecs_sched_id machine);
static bool ecs_sched__state_in_stack(const ecs_sched_world *w, ecs_sched_id machine,
                                      int32_t value);
/* So do the time conditions the time module (time.h). */
static ecs_sched_result ecs_sched__time_condition_fill(ecs_sched_world *w, ecs_sched__cond *node,
                                                       const ecs_sched_condition *c);
static bool ecs_sched__time_condition_eval(ecs_sched_world *w, ecs_sched__cond *c);

static bool ecs_sched__is_time_condition(ecs_sched_condition_kind kind) {
    return kind >= ECS_SCHED_CONDITION_ON_TIMER && kind <= ECS_SCHED_CONDITION_TIME_PAUSED;
}

static ecs_sched_condition ecs_sched__condition_of(ecs_sched_condition_kind kind) {
    ecs_sched_condition c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    return c;
}

ecs_sched_condition ecs_sched_condition_and(const ecs_sched_condition *a,
                                            const ecs_sched_condition *b) {
    ecs_sched_condition c = ecs_sched__condition_of(ECS_SCHED_CONDITION_AND);
    c.operands[0] = a;
    c.operands[1] = b;
    return c;
}

ecs_sched_condition ecs_sched_condition_or(const ecs_sched_condition *a,
                                           const ecs_sched_condition *b) {
    ecs_sched_condition c = ecs_sched__condition_of(ECS_SCHED_CONDITION_OR);
    c.operands[0] = a;
    c.operands[1] = b;
    return c;
}

ecs_sched_condition ecs_sched_condition_not(const ecs_sched_condition *a) {
    ecs_sched_condition c = ecs_sched__condition_of(ECS_SCHED_CONDITION_NOT);
    c.operands[0] = a;
    return c;
}

ecs_sched_condition ecs_sched_condition_resource_exists(ecs_sched_id resource) {
    ecs_sched_condition c = ecs_sched__condition_of(ECS_SCHED_CONDITION_RESOURCE_EXISTS);
    c.resource = resource;
    return c;
}

ecs_sched_condition ecs_sched_condition_resource_equals(ecs_sched_id resource, const void *value,
                                                        size_t value_size) {
    return ecs_sched_condition_resource_equals_with(resource, value, value_size, NULL, NULL);
}

/* The resource's mark, not the condition, keeps these on the calling thread. */
ecs_sched_condition ecs_sched_condition_non_send_resource_exists(ecs_sched_id resource) {
    return ecs_sched_condition_resource_exists(resource);
}

ecs_sched_condition ecs_sched_condition_non_send_resource_equals(ecs_sched_id resource,
                                                                const void *value,
                                                                size_t value_size) {
    return ecs_sched_condition_resource_equals(resource, value, value_size);
}

ecs_sched_condition ecs_sched_condition_resource_equals_with(ecs_sched_id resource,
                                                             const void *value, size_t value_size,
                                                             ecs_sched_equals_fn equals,
                                                             void *user_data) {
    ecs_sched_condition c = ecs_sched__condition_of(ECS_SCHED_CONDITION_RESOURCE_EQUALS);
    c.resource = resource;
    c.value = value;
    c.value_size = value_size;
    c.equals = equals;
    c.user_data = user_data;
    return c;
}

ecs_sched_condition ecs_sched_condition_run_once(void) {
    return ecs_sched__condition_of(ECS_SCHED_CONDITION_RUN_ONCE);
}

ecs_sched_condition ecs_sched_condition_resource_added(ecs_sched_id resource) {
    ecs_sched_condition c = ecs_sched__condition_of(ECS_SCHED_CONDITION_RESOURCE_ADDED);
    c.resource = resource;
    return c;
}

ecs_sched_condition ecs_sched_condition_resource_changed(ecs_sched_id resource) {
    ecs_sched_condition c = ecs_sched__condition_of(ECS_SCHED_CONDITION_RESOURCE_CHANGED);
    c.resource = resource;
    return c;
}

ecs_sched_condition ecs_sched_condition_on_message(ecs_sched_id message) {
    ecs_sched_condition c = ecs_sched__condition_of(ECS_SCHED_CONDITION_ON_MESSAGE);
    c.resource = message;
    return c;
}

ecs_sched_condition ecs_sched_condition_any_component_removed(ecs_sched_id component) {
    ecs_sched_condition c = ecs_sched__condition_of(ECS_SCHED_CONDITION_ANY_COMPONENT_REMOVED);
    c.resource = component;
    return c;
}

/* A condition's name when it is given none, by kind (the state conditions get theirs from
   their machine and value, in state.h). */
static const char *ecs_sched__condition_default_name(ecs_sched_condition_kind kind) {
    static const char *const names[] = {
        "condition", "and", "or", "not", "resource_exists", "resource_equals", "run_once",
        "condition", "condition", "condition", "condition",
        "on_timer", "once_after_delay", "repeating_after_delay", "time_paused",
        "resource_added", "resource_changed", "on_message", "any_component_removed"};
    int index = (int)kind;
    return index >= 0 && index < (int)(sizeof names / sizeof names[0]) ? names[index]
                                                                       : "condition";
}

static void ecs_sched__cond_free(ecs_sched_world *w, ecs_sched__cond *c) {
    int32_t i;
    if (!c) return;
    for (i = 0; i < c->ctx.query_count; i++) ecs_sched_query_destroy(c->ctx.queries[i]);
    ecs_sched__free(&w->env, c->ctx.failure_message);
    ecs_sched__free(&w->env, c->ctx.cursors);
    ecs_sched__free(&w->env, c->value);
    ecs_sched__free(&w->env, c->name);
    ecs_sched__free(&w->env, c);
}

static void ecs_sched__conds_free(ecs_sched_world *w, ecs_sched__conds *conds) {
    uint32_t i;
    for (i = 0; i < conds->count; i++) ecs_sched__cond_free(w, conds->items[i]);
    ecs_sched__free(&w->env, conds->items);
    memset(conds, 0, sizeof *conds);
}

/* Tells the nodes from `first` on (one condition tree) what they guard, for messages. */
static void ecs_sched__conds_guard(ecs_sched__conds *conds, uint32_t first, const char *kind,
                                   const char *name, const char *schedule) {
    uint32_t i;
    for (i = first; i < conds->count; i++) {
        conds->items[i]->ctx.guards_kind = kind;
        conds->items[i]->ctx.guards_name = name;
        conds->items[i]->ctx.schedule = schedule;
    }
}

/* Drops the nodes added after `count` (a half-copied tree). */
static void ecs_sched__conds_truncate(ecs_sched_world *w, ecs_sched__conds *conds, uint32_t count) {
    while (conds->count > count) ecs_sched__cond_free(w, conds->items[--conds->count]);
}

static ecs_sched_result ecs_sched__cond_fill(ecs_sched_world *w, ecs_sched__cond *node,
                                             const ecs_sched_condition *c) {
    int32_t i, t;
    const char *name = c->name ? c->name : ecs_sched__condition_default_name(c->kind);
    node->kind = c->kind;
    node->fn = c->fn;
    node->resource = c->resource;
    node->state_value = c->state_value;
    node->equals = c->equals;
    node->operands[0] = node->operands[1] = -1;
    node->name = ecs_sched__strdup(&w->env, name);
    if (!node->name) return ecs_sched__out_of_memory(w, "copying a run condition");
    node->ctx.world = w;
    node->ctx.name = node->name;
    node->ctx.kind = "condition";
    node->ctx.user_data = c->user_data;
    node->ctx.read_only = true;
    if (c->kind == ECS_SCHED_CONDITION_FN && !c->fn) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "condition '%s' has no function", name);
    }
    if ((c->kind == ECS_SCHED_CONDITION_RESOURCE_EXISTS ||
         c->kind == ECS_SCHED_CONDITION_RESOURCE_EQUALS ||
         c->kind == ECS_SCHED_CONDITION_RESOURCE_ADDED ||
         c->kind == ECS_SCHED_CONDITION_RESOURCE_CHANGED) &&
        !ecs_sched__component_valid(w, c->resource)) {
        return ecs_sched__unknown_component(w, c->resource, name);
    }
    if (c->kind == ECS_SCHED_CONDITION_RESOURCE_ADDED ||
        c->kind == ECS_SCHED_CONDITION_RESOURCE_CHANGED) {
        ecs_sched__ticks_turn_on(w);
    }
    if (c->kind == ECS_SCHED_CONDITION_ON_MESSAGE && !ecs_sched_is_message(w, c->resource)) {
        return ecs_sched__not_a_message(w, c->resource, name);
    }
    if (c->kind == ECS_SCHED_CONDITION_ANY_COMPONENT_REMOVED &&
        (!ecs_sched__component_valid(w, c->resource) || !w->components[c->resource].removals)) {
        return ecs_sched__removals_of_untracked(w, c->resource, name);
    }
    if (c->kind == ECS_SCHED_CONDITION_IN_STATE || c->kind == ECS_SCHED_CONDITION_STATE_EXISTS ||
        c->kind == ECS_SCHED_CONDITION_STATE_CHANGED ||
        c->kind == ECS_SCHED_CONDITION_STATE_IN_STACK) {
        ecs_sched_result result = ecs_sched__state_condition_fill(w, node, c);
        if (result != ECS_SCHED_OK) return result;
    }
    if (ecs_sched__is_time_condition(c->kind)) {
        ecs_sched_result result = ecs_sched__time_condition_fill(w, node, c);
        if (result != ECS_SCHED_OK) return result;
    }
    if (c->kind == ECS_SCHED_CONDITION_RESOURCE_EQUALS) {
        if (!c->value || c->value_size != w->components[c->resource].size || c->value_size == 0) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "condition '%s': the value to compare with resource '%s' must "
                                   "be %u bytes, the resource's size (got %lu)",
                                   name, w->components[c->resource].name,
                                   (unsigned)w->components[c->resource].size,
                                   (unsigned long)c->value_size);
        }
        node->value = (unsigned char *)ecs_sched__alloc(&w->env, c->value_size);
        if (!node->value) return ecs_sched__out_of_memory(w, "copying a run condition");
        memcpy(node->value, c->value, c->value_size);
        node->value_size = c->value_size;
    }
    for (i = 0; i < ECS_SCHED_MAX_RESOURCES; i++) {
        if (c->reads[i] && !ecs_sched__component_valid(w, c->reads[i])) {
            return ecs_sched__unknown_component(w, c->reads[i], name);
        }
        if (c->reads[i]) node->ctx.reads[node->ctx.read_count++] = c->reads[i];
        if (c->writes[i] && !node->first_write) {
            node->first_write = c->writes[i];
            node->first_write_is_resource = true;
        }
    }
    for (i = 0; i < ECS_SCHED_MAX_QUERIES && !ecs_sched__term_ends(&c->queries[i].terms[0]); i++) {
        ecs_sched_query *q = ecs_sched_query_create(w, &c->queries[i]);
        if (!q) {
            char who[200];
            snprintf(who, sizeof who, "condition '%s', query %d", name, (int)i);
            return ecs_sched__fail_again_for(w, who);
        }
        node->ctx.queries[node->ctx.query_count++] = q;
        for (t = 0; t < q->term_count; t++) {
            if (ecs_sched__term_writes(q->terms[t].kind) && !node->first_write) {
                node->first_write = q->terms[t].id;
            }
        }
    }
    return ECS_SCHED_OK;
}

/* Copies a condition tree into `conds`; returns the root's index, or -1 with the world's
   error set (and nothing added). */
static int32_t ecs_sched__cond_copy_at(ecs_sched_world *w, ecs_sched__conds *conds,
                                       const ecs_sched_condition *c, int depth) {
    ecs_sched__cond *node;
    int32_t index, operands = 0, i;
    if (depth > ECS_SCHED__CONDITION_DEPTH) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "a condition nests deeper than %d levels (does an operand point back at "
                        "its own condition?)", ECS_SCHED__CONDITION_DEPTH);
        return -1;
    }
    if (!ECS_SCHED__GROW(&w->env, conds->items, &conds->capacity, conds->count + 1) ||
        !(node = (ecs_sched__cond *)ecs_sched__calloc(&w->env, sizeof *node))) {
        ecs_sched__out_of_memory(w, "copying a run condition");
        return -1;
    }
    index = (int32_t)conds->count;
    conds->items[conds->count++] = node;
    if (ecs_sched__cond_fill(w, node, c) != ECS_SCHED_OK) return -1;
    if (c->kind == ECS_SCHED_CONDITION_AND || c->kind == ECS_SCHED_CONDITION_OR) operands = 2;
    if (c->kind == ECS_SCHED_CONDITION_NOT) operands = 1;
    for (i = 0; i < operands; i++) {
        int32_t child;
        if (!c->operands[i]) {
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                            "condition '%s' needs %d operand(s)", node->name, (int)operands);
            return -1;
        }
        child = ecs_sched__cond_copy_at(w, conds, c->operands[i], depth + 1);
        if (child < 0) return -1;
        conds->items[index]->operands[i] = child;
    }
    return index;
}

static int32_t ecs_sched__cond_copy(ecs_sched_world *w, ecs_sched__conds *conds,
                                    const ecs_sched_condition *c) {
    uint32_t before = conds->count;
    int32_t root = ecs_sched__cond_copy_at(w, conds, c, 0);
    if (root < 0) ecs_sched__conds_truncate(w, conds, before);
    return root;
}

/* The first write access anywhere in the tree (0 when read-only). */
static const ecs_sched__cond *ecs_sched__cond_find_write(const ecs_sched__conds *conds,
                                                         int32_t index) {
    const ecs_sched__cond *c = conds->items[index];
    int32_t i;
    if (c->first_write) return c;
    for (i = 0; i < 2; i++) {
        if (c->operands[i] >= 0) {
            const ecs_sched__cond *found = ecs_sched__cond_find_write(conds, c->operands[i]);
            if (found) return found;
        }
    }
    return NULL;
}

/* Evaluates a condition tree; AND and OR short-circuit. The context of the first condition
   function that fails (see ecs_sched_ctx_fail) goes to *failed, NULL until then. */
static bool ecs_sched__cond_eval(const ecs_sched__conds *conds, int32_t index,
                                 ecs_sched_system_ctx **failed) {
    ecs_sched__cond *c = conds->items[index];
    ecs_sched_world *w = c->ctx.world;
    bool result = false;
    if (w->ticks_on) ecs_sched__ctx_take_tick(&c->ctx);
    switch (c->kind) {
    case ECS_SCHED_CONDITION_FN: {
        void *outer = ecs_sched__running_begin(&c->ctx);
        result = c->fn(&c->ctx);
        ecs_sched__running_end(outer);
        if (c->ctx.failure != ECS_SCHED_OK && !*failed) *failed = &c->ctx;
        break;
    }
    case ECS_SCHED_CONDITION_AND:
        result = ecs_sched__cond_eval(conds, c->operands[0], failed) &&
                 ecs_sched__cond_eval(conds, c->operands[1], failed);
        break;
    case ECS_SCHED_CONDITION_OR:
        result = ecs_sched__cond_eval(conds, c->operands[0], failed) ||
                 ecs_sched__cond_eval(conds, c->operands[1], failed);
        break;
    case ECS_SCHED_CONDITION_NOT:
        result = !ecs_sched__cond_eval(conds, c->operands[0], failed);
        break;
    case ECS_SCHED_CONDITION_RESOURCE_EXISTS:
        result = ecs_sched_resource_exists(w, c->resource);
        break;
    case ECS_SCHED_CONDITION_RESOURCE_EQUALS:
        if (ecs_sched_resource_exists(w, c->resource)) {
            const void *current = w->resources[c->resource];
            result = c->equals ? c->equals(current, c->value, c->ctx.user_data)
                               : memcmp(current, c->value, c->value_size) == 0;
        }
        break;
    case ECS_SCHED_CONDITION_RESOURCE_ADDED:
    case ECS_SCHED_CONDITION_RESOURCE_CHANGED:
        if (ecs_sched_resource_exists(w, c->resource)) {
            const ecs_sched__stamp *stamp = &w->resource_stamps[c->resource];
            uint32_t tick = c->kind == ECS_SCHED_CONDITION_RESOURCE_ADDED ? stamp->added
                                                                           : stamp->changed;
            result = ecs_sched__tick_newer(tick, c->ctx.last_run, c->ctx.this_run);
        }
        break;
    case ECS_SCHED_CONDITION_ON_MESSAGE:
        result = ecs_sched__ctx_take_unread(&c->ctx, w->components[c->resource].queue);
        break;
    case ECS_SCHED_CONDITION_ANY_COMPONENT_REMOVED:
        result = ecs_sched__ctx_take_unread(&c->ctx, w->components[c->resource].removals);
        break;
    case ECS_SCHED_CONDITION_RUN_ONCE:
        result = !c->has_run;
        c->has_run = true;
        break;
    case ECS_SCHED_CONDITION_IN_STATE:
        result = ecs_sched__state_is(w, c->resource, c->state_value);
        break;
    case ECS_SCHED_CONDITION_STATE_EXISTS:
        result = ecs_sched__state_exists(w, c->resource);
        break;
    case ECS_SCHED_CONDITION_STATE_IN_STACK:
        result = ecs_sched__state_in_stack(w, c->resource, c->state_value);
        break;
    case ECS_SCHED_CONDITION_STATE_CHANGED: {
        uint32_t changes = ecs_sched__state_changes(w, c->resource);
        result = changes != c->seen_changes;
        c->seen_changes = changes;
        break;
    }
    case ECS_SCHED_CONDITION_ON_TIMER:
    case ECS_SCHED_CONDITION_ONCE_AFTER_DELAY:
    case ECS_SCHED_CONDITION_REPEATING_AFTER_DELAY:
    case ECS_SCHED_CONDITION_TIME_PAUSED:
        result = ecs_sched__time_condition_eval(w, c);
        break;
    }
    return result;
}

/*=============================== src/graph.h (implementation) ===============================*/
/* graph: schedules as stored: systems, sets, their configuration, labels. */

#define ECS_SCHED__MAX_NESTED_RUNS 64

/* The built plan of a schedule (plan.h); NULL until its first build. */
typedef struct ecs_sched__plan ecs_sched__plan;
static void ecs_sched__plan_free(ecs_sched__env *env, ecs_sched__plan *plan);

enum {
    ECS_SCHED__REL_IN_SET,
    ECS_SCHED__REL_BEFORE,
    ECS_SCHED__REL_AMBIGUOUS,
    ECS_SCHED__REL_KINDS
};

/* A reference to a node before the build resolves names: a system instance (>= 0), or a name
   (-(name index) - 1) that the build resolves to a set or to the systems of that name. */
typedef int32_t ecs_sched__ref;

/* One piece of configuration: subject in_set / before / ambiguous_with object. ("a after b"
   is stored as "b before a".) */
typedef struct ecs_sched__relation {
    ecs_sched__ref subject;
    ecs_sched__ref object;
    bool ignore_deferred;
} ecs_sched__relation;

/* The relations of one kind, in the order configured. Each pass of a build reads one kind,
   and a schedule can hold hundreds of thousands of orderings against a few in_set. */
typedef struct ecs_sched__relations {
    ecs_sched__relation *items;
    uint32_t count;
    uint32_t capacity;
} ecs_sched__relations;

/* A run condition instance attached to a system or a set. */
typedef struct ecs_sched__guard {
    ecs_sched__ref subject;
    int32_t cond;
} ecs_sched__guard;

typedef struct ecs_sched__name {
    char *text;
    bool configured;          /* configure_set, chain_sets, or an anonymous group */
    bool anonymous;           /* a group's set: not reachable by name */
    bool ambiguous_with_all;
    int32_t system_count;     /* systems with this name */
    int32_t first_system;
    /* relations naming it, counted as they come and go so that a build need not read them
       all to tell which names are sets */
    int32_t references;       /* as subject or object, of any kind */
    int32_t set_references;   /* as the set of an in_set */
    int32_t orderings;        /* in a before/after or an ambiguous_with */
} ecs_sched__name;

typedef struct ecs_sched__system {
    ecs_sched_system_fn fn;   /* next to the start of ctx, which a run reads */
    ecs_sched_system_ctx ctx;
    int32_t name;
    bool is_apply_deferred;
    bool ambiguous_with_all;
    bool explicit_set;        /* its desc (or its group's) named a set */
    bool main_thread;         /* asked for; a non-send resource in its access also makes it so */
} ecs_sched__system;


typedef struct ecs_sched__schedule {
    char *label;
    ecs_sched_world *world;
    ecs_sched_schedule_desc settings;
    int32_t default_set;                 /* name index, -1 for none */
    ecs_sched__system **systems;
    uint32_t system_count;
    uint32_t system_capacity;
    ecs_sched__name *names;
    uint32_t name_count;
    uint32_t name_capacity;
    ecs_sched__name_map name_index;      /* name text -> names[] */
    ecs_sched__relations relations[ECS_SCHED__REL_KINDS];
    ecs_sched__guard *guards;
    uint32_t guard_count;
    uint32_t guard_capacity;
    ecs_sched__conds conds;
    int32_t group_count;
    bool built;                          /* the plan matches the configuration */
    bool running;
    ecs_sched__plan *plan;
    /* the failures of the current (or last) run, kept by executor.h */
    int32_t failure_at;                  /* plan position of the first in plan order */
    ecs_sched_result failure_code;       /* OK: none */
    bool stopped;                        /* the run stopped at a failure */
    char failure_message[ECS_SCHED__ERROR_CAPACITY];
} ecs_sched__schedule;

struct ecs_sched__schedules {
    ecs_sched__schedule **items;
    uint32_t count;
    uint32_t capacity;
    ecs_sched__name_map by_label;        /* label -> items[] */
    ecs_sched__schedule *stack[ECS_SCHED__MAX_NESTED_RUNS];  /* schedules now running */
    int32_t depth;
    uint64_t top_runs;                   /* runs started with no other schedule running */
    bool top_runs_held;                  /* an apply of state transitions outside any run is
                                            running: its schedules are not counted (state.h) */
};

/* ---- storage ---- */

/* Every zero field of a schedule desc resolved, the executor against the world's; `desc` may
   be NULL. The default set is kept interned by the schedule instead. */
static ecs_sched_schedule_desc ecs_sched__schedule_desc_defaults(
    const ecs_sched_world *w, const ecs_sched_schedule_desc *desc) {
    ecs_sched_schedule_desc d;
    if (desc) d = *desc;
    else memset(&d, 0, sizeof d);
    d.default_set = NULL;
    if (!d.cross_set_dependencies) d.cross_set_dependencies = ECS_SCHED_REPORT_WARN;
    if (!d.unknown_sets) d.unknown_sets = ECS_SCHED_REPORT_ERROR;
    if (!d.ambiguities) d.ambiguities = ECS_SCHED_REPORT_WARN;
    if (!d.duplicate_names) d.duplicate_names = ECS_SCHED_REPORT_ERROR;
    if (!d.executor) d.executor = w->executor;
    return d;
}

/* Where the executor choice is read: the parallel executor exists only with threads. */
static bool ecs_sched__runs_in_parallel(const ecs_sched__schedule *s) {
#ifdef ECS_SCHED_THREADS
    return s->settings.executor == ECS_SCHED_EXECUTOR_PARALLEL;
#else
    (void)s;
    return false;
#endif
}

void ecs_sched_apply_deferred(ecs_sched_system_ctx *ctx) {
    (void)ctx;  /* the executor applies the buffers when it reaches this system */
}

static void ecs_sched__system_free(ecs_sched_world *w, ecs_sched__system *s) {
    int32_t i;
    for (i = 0; i < s->ctx.query_count; i++) ecs_sched_query_destroy(s->ctx.queries[i]);
    ecs_sched_commands_destroy(s->ctx.commands);
    ecs_sched__free(&w->env, s->ctx.failure_message);
    ecs_sched__free(&w->env, s->ctx.cursors);
    ecs_sched__free(&w->env, s);
}

static void ecs_sched__schedule_free(ecs_sched_world *w, ecs_sched__schedule *s) {
    uint32_t i;
    ecs_sched__plan_free(&w->env, s->plan);
    for (i = 0; i < s->system_count; i++) ecs_sched__system_free(w, s->systems[i]);
    ecs_sched__name_map_free(&s->name_index);
    for (i = 0; i < s->name_count; i++) ecs_sched__free(&w->env, s->names[i].text);
    ecs_sched__conds_free(w, &s->conds);
    ecs_sched__free(&w->env, s->systems);
    ecs_sched__free(&w->env, s->names);
    for (i = 0; i < ECS_SCHED__REL_KINDS; i++) ecs_sched__free(&w->env, s->relations[i].items);
    ecs_sched__free(&w->env, s->guards);
    ecs_sched__free(&w->env, s->label);
    ecs_sched__free(&w->env, s);
}

static void ecs_sched__schedules_free(ecs_sched_world *w) {
    ecs_sched__schedules *all = w->schedules;
    uint32_t i;
    if (!all) return;
    for (i = 0; i < all->count; i++) ecs_sched__schedule_free(w, all->items[i]);
    ecs_sched__name_map_free(&all->by_label);
    ecs_sched__free(&w->env, all->items);
    ecs_sched__free(&w->env, all);
    w->schedules = NULL;
}

static ecs_sched__schedule *ecs_sched__schedule_find(const ecs_sched_world *w, const char *label) {
    ecs_sched__schedules *all = w->schedules;
    int32_t i;
    if (!all) return NULL;
    i = ecs_sched__name_map_get(&all->by_label, label);
    return i < 0 ? NULL : all->items[i];
}

static ecs_sched__schedule *ecs_sched__schedule_get(ecs_sched_world *w, const char *label) {
    ecs_sched__schedules *all;
    ecs_sched__schedule *s;
    if (!label || !label[0]) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT, "a schedule needs a label");
        return NULL;
    }
    s = ecs_sched__schedule_find(w, label);
    if (s) return s;
    if (!w->schedules) {
        w->schedules = (ecs_sched__schedules *)ecs_sched__calloc(&w->env, sizeof *w->schedules);
        if (!w->schedules) {
            ecs_sched__out_of_memory(w, "creating a schedule");
            return NULL;
        }
    }
    all = w->schedules;
    if (!ECS_SCHED__GROW(&w->env, all->items, &all->capacity, all->count + 1) ||
        !(s = (ecs_sched__schedule *)ecs_sched__calloc(&w->env, sizeof *s))) {
        ecs_sched__out_of_memory(w, "creating a schedule");
        return NULL;
    }
    s->label = ecs_sched__strdup(&w->env, label);
    if (!s->label) {
        ecs_sched__free(&w->env, s);
        ecs_sched__out_of_memory(w, "creating a schedule");
        return NULL;
    }
    s->world = w;
    s->default_set = -1;
    s->settings = ecs_sched__schedule_desc_defaults(w, NULL);
    all->items[all->count] = s;
    ecs_sched__name_map_put(&all->by_label, s->label, (int32_t)all->count);
    all->count++;
    return s;
}

/* A new name entry; -1 when out of memory. */
static int32_t ecs_sched__name_new(ecs_sched_world *w, ecs_sched__schedule *s, const char *text) {
    ecs_sched__name *n;
    if (!ECS_SCHED__GROW(&w->env, s->names, &s->name_capacity, s->name_count + 1)) {
        ecs_sched__out_of_memory(w, "naming a system or set");
        return -1;
    }
    n = &s->names[s->name_count];
    memset(n, 0, sizeof *n);
    n->first_system = -1;
    n->text = ecs_sched__strdup(&w->env, text);
    if (!n->text) {
        ecs_sched__out_of_memory(w, "naming a system or set");
        return -1;
    }
    return (int32_t)s->name_count++;
}

/* The index of a name, interned on first use; -1 when out of memory. */
static int32_t ecs_sched__intern(ecs_sched_world *w, ecs_sched__schedule *s, const char *text) {
    int32_t name = ecs_sched__name_map_get(&s->name_index, text);
    if (name >= 0) return name;
    name = ecs_sched__name_new(w, s, text);
    if (name >= 0) ecs_sched__name_map_put(&s->name_index, s->names[name].text, name);
    return name;
}

static ecs_sched__ref ecs_sched__name_ref(int32_t name) {
    return -name - 1;
}

/* Counts the names a relation refers to (delta 1), or stops counting them (-1). */
static void ecs_sched__count_references(ecs_sched__schedule *s, int kind,
                                        const ecs_sched__relation *r, int32_t delta) {
    if (r->subject < 0) {
        ecs_sched__name *n = &s->names[-r->subject - 1];
        n->references += delta;
        if (kind != ECS_SCHED__REL_IN_SET) n->orderings += delta;
    }
    if (r->object < 0) {
        ecs_sched__name *n = &s->names[-r->object - 1];
        n->references += delta;
        if (kind != ECS_SCHED__REL_IN_SET) n->orderings += delta;
        if (kind == ECS_SCHED__REL_IN_SET) n->set_references += delta;
    }
}

static bool ecs_sched__add_relation(ecs_sched_world *w, ecs_sched__schedule *s, int kind,
                                    ecs_sched__ref subject, ecs_sched__ref object,
                                    bool ignore_deferred) {
    ecs_sched__relations *list = &s->relations[kind];
    ecs_sched__relation *r;
    if (!ECS_SCHED__GROW(&w->env, list->items, &list->capacity, list->count + 1)) {
        ecs_sched__out_of_memory(w, "configuring a schedule");
        return false;
    }
    r = &list->items[list->count++];
    r->subject = subject;
    r->object = object;
    r->ignore_deferred = ignore_deferred;
    ecs_sched__count_references(s, kind, r, 1);
    return true;
}

/* Adds "subject <kind> name" for each name of a list. */
static bool ecs_sched__relate_names(ecs_sched_world *w, ecs_sched__schedule *s, int kind,
                                    ecs_sched__ref subject, const char *const *names,
                                    bool reversed, bool ignore_deferred) {
    int32_t i;
    for (i = 0; i < ECS_SCHED_MAX_REFS && names[i]; i++) {
        int32_t name = ecs_sched__intern(w, s, names[i]);
        ecs_sched__ref object;
        if (name < 0) return false;
        object = ecs_sched__name_ref(name);
        if (!ecs_sched__add_relation(w, s, kind, reversed ? object : subject,
                                     reversed ? subject : object, ignore_deferred)) {
            return false;
        }
    }
    return true;
}

/* The configuration shared by systems, sets and groups. Everything is validated before the
   schedule changes, so a refused call adds nothing. */
typedef struct ecs_sched__node_config {
    const char *const *in_set;
    const char *const *before;
    const char *const *after;
    const char *const *before_ignore_deferred;
    const char *const *after_ignore_deferred;
    const ecs_sched_condition *const *run_if;
    const char *const *ambiguous_with;
    bool ambiguous_with_all;
} ecs_sched__node_config;

#define ECS_SCHED__CONFIG_OF(desc, config)                                   \
    do {                                                                     \
        (config).in_set = (desc)->in_set;                                    \
        (config).before = (desc)->before;                                    \
        (config).after = (desc)->after;                                      \
        (config).before_ignore_deferred = (desc)->before_ignore_deferred;    \
        (config).after_ignore_deferred = (desc)->after_ignore_deferred;      \
        (config).run_if = (desc)->run_if;                                    \
        (config).ambiguous_with = (desc)->ambiguous_with;                    \
        (config).ambiguous_with_all = (desc)->ambiguous_with_all;            \
    } while (0)

static bool ecs_sched__config_is_empty(const ecs_sched__node_config *c) {
    int32_t i;
    if (c->ambiguous_with_all || c->in_set[0] || c->before[0] || c->after[0] ||
        c->before_ignore_deferred[0] || c->after_ignore_deferred[0] || c->ambiguous_with[0]) {
        return false;
    }
    for (i = 0; i < ECS_SCHED_MAX_CONDITIONS; i++) {
        if (c->run_if[i]) return false;
    }
    return true;
}

static bool ecs_sched__apply_config(ecs_sched_world *w, ecs_sched__schedule *s,
                                    ecs_sched__ref subject, const ecs_sched__node_config *c) {
    int32_t i;
    uint32_t first;
    if (!ecs_sched__relate_names(w, s, ECS_SCHED__REL_IN_SET, subject, c->in_set, false, false) ||
        !ecs_sched__relate_names(w, s, ECS_SCHED__REL_BEFORE, subject, c->before, false, false) ||
        !ecs_sched__relate_names(w, s, ECS_SCHED__REL_BEFORE, subject, c->after, true, false) ||
        !ecs_sched__relate_names(w, s, ECS_SCHED__REL_BEFORE, subject, c->before_ignore_deferred,
                                 false, true) ||
        !ecs_sched__relate_names(w, s, ECS_SCHED__REL_BEFORE, subject, c->after_ignore_deferred,
                                 true, true) ||
        !ecs_sched__relate_names(w, s, ECS_SCHED__REL_AMBIGUOUS, subject, c->ambiguous_with,
                                 false, false)) {
        return false;
    }
    for (i = 0; i < ECS_SCHED_MAX_CONDITIONS; i++) {
        int32_t cond;
        if (!c->run_if[i]) continue;
        if (!ECS_SCHED__GROW(&w->env, s->guards, &s->guard_capacity, s->guard_count + 1)) {
            ecs_sched__out_of_memory(w, "adding a run condition");
            return false;
        }
        first = s->conds.count;
        cond = ecs_sched__cond_copy(w, &s->conds, c->run_if[i]);
        if (cond < 0) return false;
        ecs_sched__conds_guard(&s->conds, first, subject >= 0 ? "system" : "set",
                               s->names[subject >= 0 ? s->systems[subject]->name : -subject - 1].text,
                               s->label);
        s->guards[s->guard_count].subject = subject;
        s->guards[s->guard_count].cond = cond;
        s->guard_count++;
    }
    if (c->ambiguous_with_all) {
        if (subject >= 0) s->systems[subject]->ambiguous_with_all = true;
        else s->names[-subject - 1].ambiguous_with_all = true;
    }
    return true;
}

/* What add/configure calls leave behind when they fail half way: the counts to return to. */
typedef struct ecs_sched__mark {
    uint32_t systems, relations[ECS_SCHED__REL_KINDS], guards, conds;
} ecs_sched__mark;

static ecs_sched__mark ecs_sched__mark_of(const ecs_sched__schedule *s) {
    ecs_sched__mark m;
    int kind;
    m.systems = s->system_count;
    for (kind = 0; kind < ECS_SCHED__REL_KINDS; kind++) {
        m.relations[kind] = s->relations[kind].count;
    }
    m.guards = s->guard_count;
    m.conds = s->conds.count;
    return m;
}

static void ecs_sched__rollback(ecs_sched_world *w, ecs_sched__schedule *s, ecs_sched__mark m) {
    int kind;
    for (kind = 0; kind < ECS_SCHED__REL_KINDS; kind++) {
        ecs_sched__relations *list = &s->relations[kind];
        while (list->count > m.relations[kind]) {
            ecs_sched__count_references(s, kind, &list->items[--list->count], -1);
        }
    }
    while (s->system_count > m.systems) {
        ecs_sched__system *sys = s->systems[--s->system_count];
        ecs_sched__name *n = &s->names[sys->name];
        if (--n->system_count == 0) n->first_system = -1;
        ecs_sched__system_free(w, sys);
    }
    s->guard_count = m.guards;
    ecs_sched__conds_truncate(w, &s->conds, m.conds);
}

static void ecs_sched__mark_changed(ecs_sched__schedule *s) {
    s->built = false;
}

static bool ecs_sched__check_resources(ecs_sched_world *w, const ecs_sched_id *ids,
                                       const char *who) {
    int32_t i;
    for (i = 0; i < ECS_SCHED_MAX_RESOURCES; i++) {
        if (ids[i] && !ecs_sched__component_valid(w, ids[i])) {
            ecs_sched__unknown_component(w, ids[i], who);
            return false;
        }
    }
    return true;
}

/* Creates a system instance from its desc (queries, command buffer), not yet configured. */
static ecs_sched__system *ecs_sched__system_create(ecs_sched_world *w, ecs_sched__schedule *s,
                                                   const ecs_sched_system_desc *d) {
    ecs_sched__system *sys;
    const char *name = d->name ? d->name : (d->fn == ecs_sched_apply_deferred ? "apply_deferred"
                                                                              : "system");
    int32_t i, name_index;
    if (!d->fn) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "add_system: system '%s' has no function", name);
        return NULL;
    }
    if (!ecs_sched__check_resources(w, d->reads, name) ||
        !ecs_sched__check_resources(w, d->writes, name)) {
        return NULL;
    }
    name_index = ecs_sched__intern(w, s, name);
    if (name_index < 0) return NULL;
    if (!ECS_SCHED__GROW(&w->env, s->systems, &s->system_capacity, s->system_count + 1) ||
        !(sys = (ecs_sched__system *)ecs_sched__calloc(&w->env, sizeof *sys))) {
        ecs_sched__out_of_memory(w, "adding a system");
        return NULL;
    }
    sys->name = name_index;
    sys->fn = d->fn;
    sys->is_apply_deferred = d->fn == ecs_sched_apply_deferred;
    sys->ctx.world = w;
    sys->ctx.kind = "system";
    sys->ctx.schedule = s->label;
    sys->ctx.user_data = d->user_data;
    sys->ctx.exclusive = d->exclusive || sys->is_apply_deferred;
    sys->main_thread = d->main_thread;
    for (i = 0; i < ECS_SCHED_MAX_RESOURCES; i++) {
        if (d->reads[i]) sys->ctx.reads[sys->ctx.read_count++] = d->reads[i];
        if (d->writes[i]) sys->ctx.writes[sys->ctx.write_count++] = d->writes[i];
    }
    for (i = 0; i < ECS_SCHED_MAX_QUERIES && !ecs_sched__term_ends(&d->queries[i].terms[0]); i++) {
        ecs_sched_query *q = ecs_sched_query_create(w, &d->queries[i]);
        if (!q) {
            char who[200];
            snprintf(who, sizeof who, "add_system('%s'), query %d", name, (int)i);
            ecs_sched__fail_again_for(w, who);
            ecs_sched__system_free(w, sys);
            return NULL;
        }
        sys->ctx.queries[sys->ctx.query_count++] = q;
    }
    if (d->commands && !(sys->ctx.commands = ecs_sched_commands_create(w))) {
        ecs_sched__system_free(w, sys);
        return NULL;
    }
    s->systems[s->system_count] = sys;
    {
        ecs_sched__name *n = &s->names[name_index];
        if (n->system_count++ == 0) n->first_system = (int32_t)s->system_count;
    }
    s->system_count++;
    sys->ctx.name = s->names[name_index].text;
    return sys;
}

static bool ecs_sched__refs_present(const char *const *names) {
    return names[0] != NULL;
}

static ecs_sched_result ecs_sched__add_one_system(ecs_sched_world *w, ecs_sched__schedule *s,
                                                  const ecs_sched_system_desc *d,
                                                  bool group_names_set) {
    ecs_sched__node_config config;
    ecs_sched__system *sys = ecs_sched__system_create(w, s, d);
    if (!sys) return w->env.last_result;
    sys->explicit_set = group_names_set || ecs_sched__refs_present(d->in_set);
    ECS_SCHED__CONFIG_OF(d, config);
    if (!ecs_sched__apply_config(w, s, (ecs_sched__ref)(s->system_count - 1), &config)) {
        return w->env.last_result;
    }
    return ECS_SCHED_OK;
}

/* Whether a group has configuration beyond in_set, which its members carry themselves. */
static bool ecs_sched__group_needs_set(const ecs_sched__node_config *shared) {
    static const char *const no_refs[1] = {NULL};
    ecs_sched__node_config rest = *shared;
    rest.in_set = no_refs;
    return !ecs_sched__config_is_empty(&rest);
}

/* The rest of a group's configuration lives on an anonymous set holding its systems, so its
   conditions are evaluated once for the group and its order applies to the group as a whole.
   The set is in the group's sets too, so it is a sibling of what it is ordered against. */
static ecs_sched_result ecs_sched__add_group_set(ecs_sched_world *w, ecs_sched__schedule *s,
                                                 uint32_t first, int32_t count,
                                                 const ecs_sched__node_config *shared) {
    char text[48];
    int32_t group, i;
    snprintf(text, sizeof text, "(group %d)", (int)++s->group_count);
    group = ecs_sched__name_new(w, s, text);
    if (group < 0) return w->env.last_result;
    s->names[group].configured = s->names[group].anonymous = true;
    for (i = 0; i < count; i++) {
        if (!ecs_sched__add_relation(w, s, ECS_SCHED__REL_IN_SET, (ecs_sched__ref)first + i,
                                     ecs_sched__name_ref(group), false)) {
            return w->env.last_result;
        }
    }
    if (!ecs_sched__apply_config(w, s, ecs_sched__name_ref(group), shared)) {
        return w->env.last_result;
    }
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_add_system(ecs_sched_world *w, const char *label,
                                      const ecs_sched_system_desc *desc) {
    ecs_sched_systems_desc group;
    ECS_SCHED__CHECK_WORLD(w);
    memset(&group, 0, sizeof group);
    group.systems = desc;
    group.count = 1;
    return ecs_sched_add_systems(w, label, &group);
}

ecs_sched_result ecs_sched_add_systems(ecs_sched_world *w, const char *label,
                                       const ecs_sched_systems_desc *desc) {
    ecs_sched__schedule *s;
    ecs_sched__node_config shared;
    ecs_sched__mark mark;
    ecs_sched_result result = ECS_SCHED_OK;
    uint32_t first;
    int32_t i;
    ECS_SCHED__CHECK_WORLD(w);
    if (!desc || desc->count < 0 || (desc->count > 0 && !desc->systems)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "add_systems: desc needs `count` systems");
    }
    s = ecs_sched__schedule_get(w, label);
    if (!s) return w->env.last_result;
    mark = ecs_sched__mark_of(s);
    first = s->system_count;
    ECS_SCHED__CONFIG_OF(desc, shared);
    for (i = 0; i < desc->count && result == ECS_SCHED_OK; i++) {
        result = ecs_sched__add_one_system(w, s, &desc->systems[i],
                                           ecs_sched__refs_present(desc->in_set));
        /* the group's sets are each member's own, so a member may also name one of them */
        if (result == ECS_SCHED_OK &&
            !ecs_sched__relate_names(w, s, ECS_SCHED__REL_IN_SET, (ecs_sched__ref)first + i,
                                     desc->in_set, false, false)) {
            result = w->env.last_result;
        }
    }
    for (i = 1; i < desc->count && result == ECS_SCHED_OK &&
                (desc->chain || desc->chain_ignore_deferred); i++) {
        if (!ecs_sched__add_relation(w, s, ECS_SCHED__REL_BEFORE, (ecs_sched__ref)first + i - 1,
                                     (ecs_sched__ref)first + i, desc->chain_ignore_deferred)) {
            result = w->env.last_result;
        }
    }
    if (result == ECS_SCHED_OK && ecs_sched__group_needs_set(&shared)) {
        result = ecs_sched__add_group_set(w, s, first, desc->count, &shared);
    }
    if (result != ECS_SCHED_OK) {
        ecs_sched__rollback(w, s, mark);
        return result;
    }
    ecs_sched__mark_changed(s);
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_configure_set(ecs_sched_world *w, const char *label,
                                         const ecs_sched_set_desc *desc) {
    ecs_sched__schedule *s;
    ecs_sched__node_config config;
    ecs_sched__mark mark;
    int32_t name;
    ECS_SCHED__CHECK_WORLD(w);
    if (!desc || !desc->name || !desc->name[0]) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "configure_set: a set needs a name");
    }
    s = ecs_sched__schedule_get(w, label);
    if (!s) return w->env.last_result;
    mark = ecs_sched__mark_of(s);
    name = ecs_sched__intern(w, s, desc->name);
    if (name < 0) return w->env.last_result;
    ECS_SCHED__CONFIG_OF(desc, config);
    if (!ecs_sched__apply_config(w, s, ecs_sched__name_ref(name), &config)) {
        ecs_sched__rollback(w, s, mark);
        return w->env.last_result;
    }
    s->names[name].configured = true;
    ecs_sched__mark_changed(s);
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_chain_sets(ecs_sched_world *w, const char *label,
                                      const char *const *sets, int32_t count,
                                      bool ignore_deferred) {
    ecs_sched__schedule *s;
    ecs_sched__mark mark;
    int32_t i, previous = -1;
    ECS_SCHED__CHECK_WORLD(w);
    if (count < 0 || (count > 0 && !sets)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "chain_sets: needs `count` set names");
    }
    s = ecs_sched__schedule_get(w, label);
    if (!s) return w->env.last_result;
    mark = ecs_sched__mark_of(s);
    for (i = 0; i < count; i++) {
        int32_t name = sets[i] ? ecs_sched__intern(w, s, sets[i]) : -1;
        if (name < 0 ||
            (previous >= 0 &&
             !ecs_sched__add_relation(w, s, ECS_SCHED__REL_BEFORE, ecs_sched__name_ref(previous),
                                      ecs_sched__name_ref(name), ignore_deferred))) {
            ecs_sched__rollback(w, s, mark);
            if (!sets[i]) {
                return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                       "chain_sets: set name %d is NULL", (int)i);
            }
            return w->env.last_result;
        }
        previous = name;
    }
    for (i = 0; i < count; i++) s->names[ecs_sched__intern(w, s, sets[i])].configured = true;
    ecs_sched__mark_changed(s);
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_schedule_configure(ecs_sched_world *w, const char *label,
                                              const ecs_sched_schedule_desc *desc) {
    ecs_sched__schedule *s;
    int32_t default_set = -1;
    ECS_SCHED__CHECK_WORLD(w);
    if (desc && (unsigned)desc->executor > (unsigned)ECS_SCHED_EXECUTOR_PARALLEL) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "schedule_configure(\"%s\"): executor %d is not one of "
                               "ECS_SCHED_EXECUTOR_DEFAULT, _SINGLE_THREADED or _PARALLEL",
                               label ? label : "(null)", (int)desc->executor);
    }
    if (desc && (unsigned)desc->on_error > (unsigned)ECS_SCHED_ON_ERROR_HOOK) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "schedule_configure(\"%s\"): on_error %d is not one of "
                               "ECS_SCHED_ON_ERROR_DEFAULT, _STOP, _CONTINUE or _HOOK",
                               label ? label : "(null)", (int)desc->on_error);
    }
    s = ecs_sched__schedule_get(w, label);
    if (!s) return w->env.last_result;
    if (desc && desc->default_set) {
        default_set = ecs_sched__intern(w, s, desc->default_set);
        if (default_set < 0) return w->env.last_result;
    }
    s->settings = ecs_sched__schedule_desc_defaults(w, desc);
    s->default_set = default_set;
    ecs_sched__mark_changed(s);
    return ECS_SCHED_OK;
}

bool ecs_sched_schedule_exists(const ecs_sched_world *w, const char *label) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__schedule_find(w, label) != NULL;
}

static ecs_sched__schedule *ecs_sched__schedule_known(ecs_sched_world *w, const char *label) {
    ecs_sched__schedule *s = ecs_sched__schedule_find(w, label);
    if (!s) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_UNKNOWN_SCHEDULE,
                        "there is no schedule '%s': add a system to it first",
                        label ? label : "(null)");
    }
    return s;
}

/*=============================== src/build.h (implementation) ===============================*/
/* build: name resolution, hierarchy and dependency checks, flattening, ordering. */

/* A directed graph in compressed rows: the successors of v are adj[start[v] .. start[v+1]). */
typedef struct ecs_sched__csr {
    int32_t n;
    int32_t *start;
    int32_t *adj;
} ecs_sched__csr;

/* What one side of a before relation stands for once sets are replaced by the systems under
   them: its systems (those under its set, those of its name, or the system itself), and
   whether every node it names is in no set. A name's side is worked out once per build, since
   thousands of relations can name it; every subject system runs before every object system. */
typedef struct ecs_sched__side {
    const int32_t *systems;
    int32_t count;
    bool at_top;
} ecs_sched__side;

/* Everything one build works out, grouped by the pass that fills it; all of it lives in
   `tmp` and goes when the build ends. Nodes 0 .. S-1 are the systems, S .. S+T-1 the sets. */
/* One query a system runs under, its own or a condition's (which only reads). */
typedef struct ecs_sched__query_use {
    int32_t system;
    bool reads_only;
    const ecs_sched_query *query;
} ecs_sched__query_use;

typedef struct ecs_sched__build {
    ecs_sched_world *w;
    ecs_sched__schedule *s;
    ecs_sched__arena tmp;
    ecs_sched__text text;         /* the message being written */
    bool quiet;                   /* warnings not logged: a rebuild made only to draw */
    int32_t system_count;
    int32_t set_count;
    int32_t node_count;

    /* resolve_names */
    int32_t *set_of_name;         /* name -> set number, or -1 */
    int32_t *name_of_set;
    int32_t *instance;            /* system -> its number among systems of the same name */
    int32_t *instances;           /* systems grouped by name (CSR by name) */
    int32_t *instances_start;
    bool orders_shared_name;      /* a before/after or ambiguous_with names a name several
                                     systems carry */

    /* build_hierarchy */
    ecs_sched__csr parents;       /* node -> the sets it is directly in, first given first */
    int32_t *child_count;         /* set -> direct members */
    int32_t set_words;
    uint64_t *ancestors;          /* node -> bitset of the sets it is in, at any depth */
    int32_t *depth;               /* set -> nesting depth, 0 at the top */
    ecs_sched__csr members;       /* set -> systems under it, at any depth */

    /* collect_dependencies: the dependencies between nodes, flattened to systems as bitsets */
    ecs_sched__side *name_sides;  /* name -> what it stands for, flattened */
    int32_t system_words;         /* words of a bitset over the systems */
    uint64_t *flat;               /* system -> the systems it runs before; NULL without any */
    uint64_t *plain;              /* the same, by a dependency that keeps the sync point; NULL
                                     while no dependency ignores it (flat then says it all) */
    int32_t *flat_in;             /* system -> how many systems run before it */
    int32_t flat_ordered;         /* systems in flat_order: all of them unless flat has a cycle */
    int32_t *flat_order;          /* a topological order of flat */
    int32_t *flat_position;       /* system -> its position in flat_order */
    uint64_t *flat_preds;         /* system -> the positions in flat_order of its predecessors;
                                     of all its ancestors once flatten has run */

    /* flatten */
    ecs_sched__csr successors;    /* systems -> systems, deduplicated; without the edges that
                                     other paths imply and no sync point needs */
    uint8_t *successor_ignore;
    uint8_t *explicit_sync;       /* system -> an apply_deferred that always runs */
    uint8_t *carries;             /* system -> leaves commands pending for its successors */

    /* order_systems */
    int32_t *order;               /* systems in topological order */
    int32_t *key;                 /* tie-break key of each system */

    /* compute_access, check_ambiguities (access.h) */
    int32_t access_words;
    uint64_t *access;             /* system -> 4 bitsets: comp read, comp write, res read, write */
    int32_t ambiguous_count;
    int32_t *ambiguous;           /* pairs of systems */
    uint32_t use_count;           /* the queries of every system and of its conditions, */
    uint32_t use_capacity;        /* grouped by system; kept only when some query has a */
    ecs_sched__query_use *uses;   /* without term (owned, freed after the build) */
    int32_t *use_start;           /* system -> its first use, or NULL */
    uint8_t *excludes;            /* system -> one of its uses has a without term */
    uint32_t serial_count;        /* unordered pairs that must not overlap: conflicting access */
    uint32_t serial_capacity;     /* (silenced or not), or both recording commands */
    int32_t *serial;              /* pairs of systems; owned, freed after the build */

    /* make_plan (plan.h): plan nodes are the systems, then the automatic sync points */
    int32_t plan_node_count;
    int32_t *sync_distance;       /* system -> how many sync points must run before it */
    int32_t *sync_of_distance;    /* distance -> the sync point node for it, or -1 */
    ecs_sched__csr plan_edges;    /* the dependencies between plan nodes, sync points included */
    ecs_sched__csr plan_bound;    /* plan_edges and those that bind the order (or the same) */
    int32_t *plan_order;          /* plan position -> node */
    int32_t *plan_position;       /* node -> plan position */
    int32_t *plan_set_of;         /* set -> its plan set (a set with conditions), or -1 */
} ecs_sched__build;

static void ecs_sched__build_begin(ecs_sched__build *b, ecs_sched_world *w,
                                   ecs_sched__schedule *s) {
    memset(b, 0, sizeof *b);
    b->w = w;
    b->s = s;
    b->system_count = (int32_t)s->system_count;
    ecs_sched__arena_init(&b->tmp, &w->env);
    ecs_sched__text_init(&b->text, &w->env);
}

static void ecs_sched__build_end(ecs_sched__build *b) {
    ecs_sched__text_free(&b->text);
    ecs_sched__arena_free(&b->tmp);
    ecs_sched__free(&b->w->env, b->serial);
    ecs_sched__free(&b->w->env, b->uses);
}

#define ECS_SCHED__ALLOC_N(b, type, n) \
    ((type *)ecs_sched__arena_alloc(&(b)->tmp, sizeof(type) * (size_t)((n) > 0 ? (n) : 1)))

static bool ecs_sched__csr_build(ecs_sched__build *b, ecs_sched__csr *g, int32_t n, int32_t count,
                                 const int32_t *from, const int32_t *to) {
    int32_t i, *fill;
    g->n = n;
    g->start = ECS_SCHED__ALLOC_N(b, int32_t, n + 1);
    g->adj = ECS_SCHED__ALLOC_N(b, int32_t, count);
    fill = ECS_SCHED__ALLOC_N(b, int32_t, n);
    if (!g->start || !g->adj || !fill) return false;
    for (i = 0; i < count; i++) g->start[from[i] + 1]++;
    for (i = 0; i < n; i++) g->start[i + 1] += g->start[i];
    for (i = 0; i < count; i++) g->adj[g->start[from[i]] + fill[from[i]]++] = to[i];
    return true;
}

/* Edges gathered one by one (room for all of them made first), then made into rows. */
typedef struct ecs_sched__edges {
    int32_t count;
    int32_t capacity;
    int32_t *from;
    int32_t *to;
} ecs_sched__edges;

static bool ecs_sched__edges_begin(ecs_sched__build *b, ecs_sched__edges *list, int64_t capacity) {
    if (capacity > INT32_MAX) return false;
    list->count = 0;
    list->capacity = (int32_t)capacity;
    list->from = ECS_SCHED__ALLOC_N(b, int32_t, capacity);
    list->to = ECS_SCHED__ALLOC_N(b, int32_t, capacity);
    return list->from && list->to;
}

static void ecs_sched__edge_add(ecs_sched__edges *list, int32_t from, int32_t to) {
    ECS_SCHED_ASSERT(list->count < list->capacity);
    list->from[list->count] = from;
    list->to[list->count++] = to;
}

/* Adds every edge of g, or of g reversed. */
static void ecs_sched__edges_add_graph(ecs_sched__edges *list, const ecs_sched__csr *g,
                                       bool reversed) {
    int32_t v, e;
    for (v = 0; v < g->n; v++) {
        for (e = g->start[v]; e < g->start[v + 1]; e++) {
            if (reversed) ecs_sched__edge_add(list, g->adj[e], v);
            else ecs_sched__edge_add(list, v, g->adj[e]);
        }
    }
}

static bool ecs_sched__edges_end(ecs_sched__build *b, const ecs_sched__edges *list, int32_t n,
                                 ecs_sched__csr *g) {
    return ecs_sched__csr_build(b, g, n, list->count, list->from, list->to);
}

/* Drops the repeated edges of each row, keeping the first of each in place. */
static bool ecs_sched__csr_drop_duplicates(ecs_sched__build *b, ecs_sched__csr *g) {
    int32_t *seen_from = ECS_SCHED__ALLOC_N(b, int32_t, g->n), out = 0, v, e;
    if (!seen_from) return false;
    for (v = 0; v < g->n; v++) seen_from[v] = -1;
    for (v = 0; v < g->n; v++) {
        int32_t first = g->start[v];
        g->start[v] = out;
        for (e = first; e < g->start[v + 1]; e++) {
            int32_t t = g->adj[e];
            if (seen_from[t] == v) continue;
            seen_from[t] = v;
            g->adj[out++] = t;
        }
    }
    g->start[g->n] = out;
    return true;
}

/* "system 'x'", "system 'x' #2" (when several share the name) or "set 'y'". */
static const char *ecs_sched__node_label(ecs_sched__build *b, int32_t node, char *buf, size_t n) {
    const ecs_sched__schedule *s = b->s;
    if (node < b->system_count) {
        const ecs_sched__name *name = &s->names[s->systems[node]->name];
        if (name->system_count > 1) {
            snprintf(buf, n, "system '%s' #%d", name->text, (int)b->instance[node] + 1);
        } else {
            snprintf(buf, n, "system '%s'", name->text);
        }
    } else {
        snprintf(buf, n, "set '%s'", s->names[b->name_of_set[node - b->system_count]].text);
    }
    return buf;
}

static ecs_sched_result ecs_sched__build_fail(ecs_sched__build *b, ecs_sched_result code) {
    return ecs_sched__fail_text(&b->w->env, code, ecs_sched__text_get(&b->text));
}

static void ecs_sched__text_begin(ecs_sched__build *b) {
    b->text.length = 0;
    if (b->text.data) b->text.data[0] = '\0';
    ecs_sched__text_printf(&b->text, "schedule '%s': ", b->s->label);
}

/* Sends the message in b->text as the setting asks; returns an error only for ERROR. */
static ecs_sched_result ecs_sched__report(ecs_sched__build *b, ecs_sched_report level,
                                          ecs_sched_result code) {
    if (level == ECS_SCHED_REPORT_ERROR) return ecs_sched__build_fail(b, code);
    if (level == ECS_SCHED_REPORT_WARN && !b->quiet) {
        ecs_sched__log(&b->w->env, ECS_SCHED_LOG_WARN, code, ecs_sched__text_get(&b->text));
    }
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__oom(ecs_sched__build *b) {
    return ecs_sched__out_of_memory(b->w, "building a schedule");
}

/* Whether a reference is a name that several systems carry. */
static bool ecs_sched__ref_shared(const ecs_sched__schedule *s, ecs_sched__ref ref) {
    return ref < 0 && s->names[-ref - 1].system_count > 1;
}

/* Which names are sets is decided afresh at each build, from the configuration that stands:
   a name is declared a set by configuring it, by something in it, or by being the default
   set; a name only ordered against (or otherwise named by a relation) is a set while no
   system carries it. */
static bool ecs_sched__declared_set(const ecs_sched__schedule *s, int32_t name) {
    return s->names[name].configured || s->names[name].set_references > 0 ||
           name == s->default_set;
}

static bool ecs_sched__implicit_set(const ecs_sched__schedule *s, int32_t name) {
    return s->names[name].references > 0 && s->names[name].system_count == 0;
}

/* Numbers the sets, groups systems by name, and refuses a name used for both. */
static ecs_sched_result ecs_sched__resolve_names(ecs_sched__build *b) {
    ecs_sched__schedule *s = b->s;
    uint32_t i;
    int32_t *fill;
    b->set_of_name = ECS_SCHED__ALLOC_N(b, int32_t, s->name_count);
    b->name_of_set = ECS_SCHED__ALLOC_N(b, int32_t, s->name_count);
    b->instances_start = ECS_SCHED__ALLOC_N(b, int32_t, s->name_count + 1);
    b->instances = ECS_SCHED__ALLOC_N(b, int32_t, s->system_count);
    b->instance = ECS_SCHED__ALLOC_N(b, int32_t, s->system_count);
    fill = ECS_SCHED__ALLOC_N(b, int32_t, s->name_count);
    if (!b->set_of_name || !b->name_of_set || !b->instances_start || !b->instances ||
        !b->instance || !fill) {
        return ecs_sched__oom(b);
    }
    for (i = 0; i < s->name_count; i++) {
        const ecs_sched__name *n = &s->names[i];
        bool declared = ecs_sched__declared_set(s, (int32_t)i);
        b->set_of_name[i] = -1;
        if (declared && n->system_count > 0) {
            ecs_sched__text_begin(b);
            ecs_sched__text_printf(&b->text,
                                   "'%s' names %d system(s) and also a set; systems and sets "
                                   "share one namespace, so rename the set or the system",
                                   n->text, (int)n->system_count);
            return ecs_sched__build_fail(b, ECS_SCHED_ERR_NAME_CONFLICT);
        }
        if (n->orderings > 0 && n->system_count > 1) b->orders_shared_name = true;
        if (declared || ecs_sched__implicit_set(s, (int32_t)i)) {
            b->name_of_set[b->set_count] = (int32_t)i;
            b->set_of_name[i] = b->set_count++;
        }
        b->instances_start[i + 1] = b->instances_start[i] + n->system_count;
    }
    for (i = 0; i < s->system_count; i++) {
        int32_t name = s->systems[i]->name;
        b->instance[i] = fill[name];
        b->instances[b->instances_start[name] + fill[name]++] = (int32_t)i;
    }
    b->node_count = b->system_count + b->set_count;
    return ECS_SCHED_OK;
}

/* The nodes a reference stands for: one system, one set, or every system of a name. */
static int32_t ecs_sched__ref_nodes(const ecs_sched__build *b, ecs_sched__ref ref,
                                    int32_t *single, const int32_t **nodes) {
    int32_t name;
    if (ref >= 0) {
        *single = ref;
        *nodes = single;
        return 1;
    }
    name = -ref - 1;
    if (b->set_of_name[name] >= 0) {
        *single = b->system_count + b->set_of_name[name];
        *nodes = single;
        return 1;
    }
    *nodes = b->instances + b->instances_start[name];
    return b->instances_start[name + 1] - b->instances_start[name];
}

/* The instances of a shared name, "#1, #2, ...", after what names them. */
static void ecs_sched__print_instances(ecs_sched__build *b, const ecs_sched__name *n) {
    int32_t j;
    ecs_sched__text_printf(&b->text, "%d systems are named '%s' (", (int)n->system_count, n->text);
    for (j = 0; j < n->system_count; j++) {
        ecs_sched__text_printf(&b->text, "%s#%d", j ? ", " : "", (int)j + 1);
    }
    ecs_sched__text_printf(&b->text, ")");
}

/* Refuses (as the setting asks) an ordering or an ambiguous_with entry that names several
   systems at once: it ties what names it to every one of them, which is rarely what was
   meant. */
static ecs_sched_result ecs_sched__check_duplicate_names(ecs_sched__build *b) {
    ecs_sched__schedule *s = b->s;
    int kind;
    char label[160];
    for (kind = ECS_SCHED__REL_BEFORE; b->orders_shared_name && kind <= ECS_SCHED__REL_AMBIGUOUS;
         kind++) {
        const ecs_sched__relations *list = &s->relations[kind];
        bool ordering = kind == ECS_SCHED__REL_BEFORE;
        uint32_t i;
        for (i = 0; i < list->count; i++) {
            const ecs_sched__relation *r = &list->items[i];
            ecs_sched__ref refs[2];
            int k;
            refs[0] = r->subject;
            refs[1] = r->object;
            for (k = ordering ? 0 : 1; k < 2; k++) {
                const ecs_sched__name *n;
                int32_t single;
                const int32_t *other;
                ecs_sched_result result;
                if (!ecs_sched__ref_shared(s, refs[k])) continue;
                n = &s->names[-refs[k] - 1];
                ecs_sched__ref_nodes(b, refs[1 - k], &single, &other);
                ecs_sched__text_begin(b);
                ecs_sched__text_printf(&b->text, "%s is %s '%s', but ",
                                       ecs_sched__node_label(b, other[0], label, sizeof label),
                                       !ordering ? "declared ambiguous_with"
                                       : k == 0  ? "ordered after"
                                                 : "ordered before",
                                       n->text);
                ecs_sched__print_instances(b, n);
                if (ordering) {
                    ecs_sched__text_printf(&b->text,
                                           ", so the order would tie it to all of them. Put the "
                                           "instance you mean in a set and order against the "
                                           "set, or order from that instance's side (its own "
                                           "before/after), or chain them");
                } else {
                    ecs_sched__text_printf(&b->text,
                                           ", so the allowance would cover all of them. Put the "
                                           "instance you mean in a set and name the set, or "
                                           "declare it from that instance's side (its own "
                                           "ambiguous_with)");
                }
                result = ecs_sched__report(b, s->settings.duplicate_names,
                                           ECS_SCHED_ERR_DUPLICATE_NAME);
                if (result != ECS_SCHED_OK) return result;
            }
        }
    }
    return ECS_SCHED_OK;
}

/* Finds a cycle in g among the nodes not yet `done`; writes its nodes to path (first node
   repeated at the end) and returns the length, or 0 when there is none. */
static int32_t ecs_sched__find_cycle(ecs_sched__build *b, const ecs_sched__csr *g,
                                     int32_t *path) {
    uint8_t *color = ECS_SCHED__ALLOC_N(b, uint8_t, g->n);
    int32_t *stack = ECS_SCHED__ALLOC_N(b, int32_t, g->n);
    int32_t *next = ECS_SCHED__ALLOC_N(b, int32_t, g->n);
    int32_t root, top, i;
    if (!color || !stack || !next) return -1;
    for (root = 0; root < g->n; root++) {
        if (color[root]) continue;
        top = 0;
        stack[top++] = root;
        color[root] = 1;
        next[root] = g->start[root];
        while (top > 0) {
            int32_t v = stack[top - 1];
            if (next[v] < g->start[v + 1]) {
                int32_t u = g->adj[next[v]++];
                if (color[u] == 1) {
                    int32_t n = 0, at = top - 1;
                    while (stack[at] != u) at--;
                    for (i = at; i < top; i++) path[n++] = stack[i];
                    path[n++] = u;
                    return n;
                }
                if (color[u] == 0) {
                    color[u] = 1;
                    next[u] = g->start[u];
                    stack[top++] = u;
                }
            } else {
                color[v] = 2;
                top--;
            }
        }
    }
    return 0;
}

static void ecs_sched__print_path(ecs_sched__build *b, const int32_t *path, int32_t n,
                                  const char *arrow) {
    char label[160];
    int32_t i;
    for (i = 0; i < n; i++) {
        ecs_sched__text_printf(&b->text, "%s%s", i ? arrow : "",
                               ecs_sched__node_label(b, path[i], label, sizeof label));
    }
}

/* The "is in" edges, node -> set: each in_set relation, and the default set of every system
   given none. The same in_set given twice is one membership. */
static ecs_sched_result ecs_sched__collect_memberships(ecs_sched__build *b) {
    ecs_sched__schedule *s = b->s;
    ecs_sched__edges in_set;
    int32_t i;
    const ecs_sched__relations *list = &s->relations[ECS_SCHED__REL_IN_SET];
    uint32_t r;
    if (!ecs_sched__edges_begin(b, &in_set, (int64_t)list->count + s->system_count)) {
        return ecs_sched__oom(b);
    }
    for (r = 0; r < list->count; r++) {
        const ecs_sched__relation *rel = &list->items[r];
        int32_t single_a, single_b;
        const int32_t *subject, *object;
        ecs_sched__ref_nodes(b, rel->subject, &single_a, &subject);
        ecs_sched__ref_nodes(b, rel->object, &single_b, &object);
        ecs_sched__edge_add(&in_set, subject[0], object[0]);
    }
    if (s->default_set >= 0) {
        for (i = 0; i < b->system_count; i++) {
            if (s->systems[i]->explicit_set) continue;
            ecs_sched__edge_add(&in_set, i, b->system_count + b->set_of_name[s->default_set]);
        }
    }
    if (!ecs_sched__edges_end(b, &in_set, b->node_count, &b->parents) ||
        !ecs_sched__csr_drop_duplicates(b, &b->parents)) {
        return ecs_sched__oom(b);
    }
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__check_hierarchy_cycle(ecs_sched__build *b) {
    int32_t *path = ECS_SCHED__ALLOC_N(b, int32_t, b->node_count + 1), n;
    if (!path) return ecs_sched__oom(b);
    n = ecs_sched__find_cycle(b, &b->parents, path);
    if (n < 0) return ecs_sched__oom(b);
    if (n == 0) return ECS_SCHED_OK;
    ecs_sched__text_begin(b);
    ecs_sched__text_printf(&b->text, "the sets contain each other in a cycle: ");
    ecs_sched__print_path(b, path, n, " is in ");
    ecs_sched__text_printf(&b->text, ". Remove one of these in_set relations");
    return ecs_sched__build_fail(b, ECS_SCHED_ERR_HIERARCHY_CYCLE);
}

/* Ancestors, depth and direct member counts, parents before children: Kahn's order over the
   memberships reversed, a node being ready once all its parents are. */
static ecs_sched_result ecs_sched__compute_ancestors(ecs_sched__build *b) {
    ecs_sched__edges reversed;
    ecs_sched__csr children;
    int32_t N = b->node_count, S = b->system_count, head = 0, tail = 0, i, j, k;
    int32_t *ready = ECS_SCHED__ALLOC_N(b, int32_t, N);
    int32_t *pending = ECS_SCHED__ALLOC_N(b, int32_t, N);
    b->set_words = (b->set_count + 63) / 64;
    b->ancestors = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)N * b->set_words);
    b->depth = ECS_SCHED__ALLOC_N(b, int32_t, b->set_count);
    b->child_count = ECS_SCHED__ALLOC_N(b, int32_t, b->set_count);
    if (!b->ancestors || !b->depth || !b->child_count || !ready || !pending ||
        !ecs_sched__edges_begin(b, &reversed, b->parents.start[N])) {
        return ecs_sched__oom(b);
    }
    ecs_sched__edges_add_graph(&reversed, &b->parents, true);
    if (!ecs_sched__edges_end(b, &reversed, N, &children)) return ecs_sched__oom(b);
    for (i = 0; i < N; i++) {
        pending[i] = b->parents.start[i + 1] - b->parents.start[i];
        if (pending[i] == 0) ready[tail++] = i;
        if (i >= S) b->child_count[i - S] = children.start[i + 1] - children.start[i];
    }
    while (head < tail) {
        int32_t v = ready[head++], set = v - S;
        const uint64_t *va = ecs_sched__row(b->ancestors, b->set_words, v);
        for (j = children.start[v]; j < children.start[v + 1]; j++) {
            int32_t c = children.adj[j];
            uint64_t *ca = ecs_sched__row(b->ancestors, b->set_words, c);
            for (k = 0; k < b->set_words; k++) ca[k] |= va[k];
            ecs_sched__set_bit(ca, set);
            if (c >= S && b->depth[c - S] < b->depth[set] + 1) b->depth[c - S] = b->depth[set] + 1;
            if (--pending[c] == 0) ready[tail++] = c;
        }
    }
    return ECS_SCHED_OK;
}

/* Refuses a direct membership that another membership already implies. A group's own
   (anonymous) set repeats the sets its members are in, and is let through. */
static ecs_sched_result ecs_sched__check_redundant_memberships(ecs_sched__build *b) {
    const ecs_sched__schedule *s = b->s;
    const ecs_sched__csr *p = &b->parents;
    int32_t S = b->system_count, i, j, k;
    for (i = 0; i < b->node_count; i++) {
        for (j = p->start[i]; j < p->start[i + 1]; j++) {
            for (k = p->start[i]; k < p->start[i + 1]; k++) {
                int32_t outer = p->adj[j], inner = p->adj[k];
                char a[160], o[160], q[160];
                if (j == k || s->names[b->name_of_set[inner - S]].anonymous) continue;
                if (!ecs_sched__bit(ecs_sched__row(b->ancestors, b->set_words, inner), outer - S)) {
                    continue;
                }
                ecs_sched__text_begin(b);
                ecs_sched__text_printf(&b->text,
                                       "%s is in %s directly and also through %s, which is in it "
                                       "already: remove the direct in_set of %s",
                                       ecs_sched__node_label(b, i, a, sizeof a),
                                       ecs_sched__node_label(b, outer, o, sizeof o),
                                       ecs_sched__node_label(b, inner, q, sizeof q), o);
                return ecs_sched__build_fail(b, ECS_SCHED_ERR_HIERARCHY_REDUNDANT);
            }
        }
    }
    return ECS_SCHED_OK;
}

/* The systems under each set, at any depth, read from their ancestor bits. */
static ecs_sched_result ecs_sched__collect_members(ecs_sched__build *b) {
    ecs_sched__edges under;
    int64_t total = 0;
    int32_t i, k;
    for (i = 0; i < b->system_count; i++) {
        const uint64_t *bits = ecs_sched__row(b->ancestors, b->set_words, i);
        for (k = 0; k < b->set_words; k++) total += ecs_sched__popcount(bits[k]);
    }
    if (!ecs_sched__edges_begin(b, &under, total)) return ecs_sched__oom(b);
    for (i = 0; i < b->system_count; i++) {
        const uint64_t *bits = ecs_sched__row(b->ancestors, b->set_words, i);
        for (k = 0; k < b->set_words; k++) {
            uint64_t word;
            for (word = bits[k]; word; word &= word - 1) {
                ecs_sched__edge_add(&under, k * 64 + ecs_sched__lowest_bit(word), i);
            }
        }
    }
    if (!ecs_sched__edges_end(b, &under, b->set_count, &b->members)) return ecs_sched__oom(b);
    return ECS_SCHED_OK;
}

/* The set hierarchy: who is in what, checked, with ancestors, depths and members. */
static ecs_sched_result ecs_sched__build_hierarchy(ecs_sched__build *b) {
    ecs_sched_result result = ecs_sched__collect_memberships(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_hierarchy_cycle(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__compute_ancestors(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_redundant_memberships(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__collect_members(b);
    return result;
}

static bool ecs_sched__node_under(const ecs_sched__build *b, int32_t node, int32_t set_node) {
    return set_node >= b->system_count &&
           ecs_sched__bit(ecs_sched__row(b->ancestors, b->set_words, node), set_node - b->system_count);
}

/* Siblings share a parent set, or both are at the top. */
static bool ecs_sched__siblings(const ecs_sched__build *b, int32_t x, int32_t y) {
    int32_t i, j;
    const ecs_sched__csr *p = &b->parents;
    if (p->start[x] == p->start[x + 1] && p->start[y] == p->start[y + 1]) return true;
    for (i = p->start[x]; i < p->start[x + 1]; i++) {
        for (j = p->start[y]; j < p->start[y + 1]; j++) {
            if (p->adj[i] == p->adj[j]) return true;
        }
    }
    return false;
}

static bool ecs_sched__at_top(const ecs_sched__build *b, int32_t node) {
    return b->parents.start[node] == b->parents.start[node + 1];
}

/* The side of every name, for ecs_sched__side_of. */
static bool ecs_sched__side_names(ecs_sched__build *b) {
    const ecs_sched__schedule *s = b->s;
    uint32_t name;
    b->name_sides = ECS_SCHED__ALLOC_N(b, ecs_sched__side, s->name_count);
    if (!b->name_sides) return false;
    for (name = 0; name < s->name_count; name++) {
        ecs_sched__side *side = &b->name_sides[name];
        int32_t set = b->set_of_name[name], k;
        side->at_top = true;
        if (set >= 0) {
            side->systems = b->members.adj + b->members.start[set];
            side->count = b->members.start[set + 1] - b->members.start[set];
            side->at_top = ecs_sched__at_top(b, b->system_count + set);
            continue;
        }
        side->systems = b->instances + b->instances_start[name];
        side->count = b->instances_start[name + 1] - b->instances_start[name];
        for (k = 0; k < side->count; k++) {
            side->at_top = side->at_top && ecs_sched__at_top(b, side->systems[k]);
        }
    }
    return true;
}

/* The side of a relation's subject or object, which ref points at. */
static inline ecs_sched__side ecs_sched__side_of(const ecs_sched__build *b,
                                                const ecs_sched__ref *ref) {
    ecs_sched__side side;
    if (*ref < 0) return b->name_sides[-*ref - 1];
    side.systems = ref;
    side.count = 1;
    side.at_top = ecs_sched__at_top(b, *ref);
    return side;
}

/* Refuses a dependency on a node's own set; reports one that crosses sets, as the setting
   asks. */
static ecs_sched_result ecs_sched__check_dependency(ecs_sched__build *b, int32_t from, int32_t to) {
    char x[160], y[160];
    if (ecs_sched__node_under(b, from, to) || ecs_sched__node_under(b, to, from)) {
        int32_t inner = ecs_sched__node_under(b, from, to) ? from : to;
        int32_t outer = inner == from ? to : from;
        ecs_sched__text_begin(b);
        ecs_sched__text_printf(&b->text,
                               "%s is ordered %s %s, which contains it; a set's members cannot "
                               "run before or after the set itself. Order it against a sibling "
                               "instead",
                               ecs_sched__node_label(b, inner, x, sizeof x),
                               inner == from ? "before" : "after",
                               ecs_sched__node_label(b, outer, y, sizeof y));
        return ecs_sched__build_fail(b, ECS_SCHED_ERR_ORDER_AGAINST_PARENT);
    }
    if (!ecs_sched__siblings(b, from, to)) {
        ecs_sched__text_begin(b);
        ecs_sched__text_printf(&b->text,
                               "%s runs before %s, but they are not in a common set, so this "
                               "order also ties together the sets around them. Order their sets "
                               "instead, or put both in one set",
                               ecs_sched__node_label(b, from, x, sizeof x),
                               ecs_sched__node_label(b, to, y, sizeof y));
        return ecs_sched__report(b, b->s->settings.cross_set_dependencies,
                                 ECS_SCHED_ERR_CROSS_SET_DEPENDENCY);
    }
    return ECS_SCHED_OK;
}

/* Checks the dependencies a relation gives, one for each subject node and object node. Two
   nodes in no set need none: neither holds the other, and they are siblings at the top. */
static ecs_sched_result ecs_sched__check_relation(ecs_sched__build *b,
                                                 const ecs_sched__relation *r) {
    int32_t single_subject, single_object, subject_count, object_count, i, j;
    const int32_t *subjects, *objects;
    subject_count = ecs_sched__ref_nodes(b, r->subject, &single_subject, &subjects);
    object_count = ecs_sched__ref_nodes(b, r->object, &single_object, &objects);
    for (i = 0; i < subject_count; i++) {
        for (j = 0; j < object_count; j++) {
            ecs_sched_result result;
            if (ecs_sched__at_top(b, subjects[i]) && ecs_sched__at_top(b, objects[j])) continue;
            result = ecs_sched__check_dependency(b, subjects[i], objects[j]);
            if (result != ECS_SCHED_OK) return result;
        }
    }
    return ECS_SCHED_OK;
}

/* plain starts as a copy of flat: every dependency before the first that ignores deferred
   commands kept them. */
static bool ecs_sched__begin_plain(ecs_sched__build *b) {
    size_t words = (size_t)b->system_count * (size_t)b->system_words;
    b->plain = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)words);
    if (!b->plain) return false;
    memcpy(b->plain, b->flat, sizeof(uint64_t) * words);
    return true;
}

/* Every system of one side runs before every system of the other. Bits, not edges: the same
   pair given by many relations (sets ordered against sets) costs nothing more. */
static inline void ecs_sched__flatten_relation(ecs_sched__build *b, const ecs_sched__side *from,
                                               const ecs_sched__side *to, bool ignore_deferred) {
    int32_t W = b->system_words, i, j;
    bool plain = b->plain && !ignore_deferred;
    for (i = 0; i < from->count; i++) {
        uint64_t *row = ecs_sched__row(b->flat, W, from->systems[i]);
        for (j = 0; j < to->count; j++) {
            int32_t t = to->systems[j];
            if (!ecs_sched__bit(row, t)) {
                ecs_sched__set_bit(row, t);
                b->flat_in[t]++;
            }
        }
        for (j = 0; plain && j < to->count; j++) {
            ecs_sched__set_bit(ecs_sched__row(b->plain, W, from->systems[i]), to->systems[j]);
        }
    }
}

/* Kahn's order of flat; each system also gets the positions of its predecessors in it.
   Returns how many systems it ordered (fewer when flat has a cycle), or -1. */
static int32_t ecs_sched__order_flat(ecs_sched__build *b) {
    int32_t S = b->system_count, W = b->system_words, head = 0, tail = 0, i;
    int32_t *pending = ECS_SCHED__ALLOC_N(b, int32_t, S);
    b->flat_order = ECS_SCHED__ALLOC_N(b, int32_t, S);
    b->flat_position = ECS_SCHED__ALLOC_N(b, int32_t, S);
    b->flat_preds = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)S * W);
    if (!pending || !b->flat_order || !b->flat_position || !b->flat_preds) return -1;
    for (i = 0; i < S; i++) {
        pending[i] = b->flat_in[i];
        if (pending[i] == 0) b->flat_order[tail++] = i;
    }
    for (head = 0; head < tail; head++) {
        const uint64_t *row = ecs_sched__row(b->flat, W, b->flat_order[head]);
        int32_t k;
        for (k = 0; k < W; k++) {
            uint64_t word;
            for (word = row[k]; word; word &= word - 1) {
                int32_t t = k * 64 + ecs_sched__lowest_bit(word);
                ecs_sched__set_bit(ecs_sched__row(b->flat_preds, W, t), head);
                if (--pending[t] == 0) b->flat_order[tail++] = t;
            }
        }
    }
    for (i = 0; i < tail; i++) b->flat_position[b->flat_order[i]] = i;
    return tail;
}

/* The dependencies between nodes as a graph, an edge for each in the order configured (each
   subject node against each object node, relation by relation). */
static bool ecs_sched__node_graph(ecs_sched__build *b, ecs_sched__csr *g) {
    const ecs_sched__relations *list = &b->s->relations[ECS_SCHED__REL_BEFORE];
    ecs_sched__edges edges;
    int64_t count = 0;
    int32_t single_subject, single_object, subject_count, object_count, i, j;
    const int32_t *subjects, *objects;
    uint32_t r;
    for (r = 0; r < list->count; r++) {
        subject_count = ecs_sched__ref_nodes(b, list->items[r].subject, &single_subject, &subjects);
        object_count = ecs_sched__ref_nodes(b, list->items[r].object, &single_object, &objects);
        count += (int64_t)subject_count * object_count;
    }
    if (!ecs_sched__edges_begin(b, &edges, count)) return false;
    for (r = 0; r < list->count; r++) {
        subject_count = ecs_sched__ref_nodes(b, list->items[r].subject, &single_subject, &subjects);
        object_count = ecs_sched__ref_nodes(b, list->items[r].object, &single_object, &objects);
        for (i = 0; i < subject_count; i++) {
            for (j = 0; j < object_count; j++) ecs_sched__edge_add(&edges, subjects[i], objects[j]);
        }
    }
    return ecs_sched__edges_end(b, &edges, b->node_count, g);
}

/* The first cycle a search finds among the nodes' dependencies; 0 when there is none, -1 when
   out of memory. */
static int32_t ecs_sched__find_node_cycle(ecs_sched__build *b, int32_t *path) {
    ecs_sched__csr g;
    if (!ecs_sched__node_graph(b, &g)) return -1;
    return ecs_sched__find_cycle(b, &g, path);
}

static bool ecs_sched__empty_set(const ecs_sched__build *b, int32_t node) {
    int32_t set = node - b->system_count;
    return set >= 0 && b->members.start[set] == b->members.start[set + 1];
}

/* ---- orderings through sets without systems ----

   A set with no system under it (a plugin's set nobody filled, a feature switched off) still
   orders what comes before it against what comes after it: each system that runs before it
   runs before each system that runs after it, through any number of such sets in a row. The
   edge keeps its sync point unless both halves ignore it. An empty set's predecessors are
   gathered as bits (`all`, and `plain`: those reaching it by a path that keeps the sync point),
   the empty sets taken in an order where each comes after the empty sets before it. */
typedef struct ecs_sched__through {
    int32_t count;                /* empty sets named by a relation */
    int32_t *index;               /* set -> its number among them, or -1 */
    int32_t *order;               /* their numbers, each after those it follows */
    uint64_t *all;                /* number -> the systems that run before it */
    uint64_t *plain;              /* number -> those of them that keep the sync point */
    ecs_sched__csr next;          /* number -> the relations from it, by relation number */
} ecs_sched__through;

/* The empty side of a relation as its number in t, or -1 when the side has systems. */
static int32_t ecs_sched__through_index(const ecs_sched__build *b, const ecs_sched__through *t,
                                        ecs_sched__ref ref) {
    int32_t name;
    if (ref >= 0) return -1;
    name = -ref - 1;
    return b->set_of_name[name] >= 0 ? t->index[b->set_of_name[name]] : -1;
}

static bool ecs_sched__through_begin(ecs_sched__build *b, ecs_sched__through *t) {
    const ecs_sched__relations *list = &b->s->relations[ECS_SCHED__REL_BEFORE];
    int32_t i, words = b->system_words, *from, *to, *in, head, tail = 0;
    uint32_t r, n = 0;
    t->count = 0;
    t->index = ECS_SCHED__ALLOC_N(b, int32_t, b->set_count);
    if (!t->index) return false;
    for (i = 0; i < b->set_count; i++) {
        t->index[i] = ecs_sched__empty_set(b, b->system_count + i) ? t->count++ : -1;
    }
    t->order = ECS_SCHED__ALLOC_N(b, int32_t, t->count);
    t->all = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)t->count * words);
    t->plain = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)t->count * words);
    from = ECS_SCHED__ALLOC_N(b, int32_t, list->count);
    to = ECS_SCHED__ALLOC_N(b, int32_t, list->count);
    in = ECS_SCHED__ALLOC_N(b, int32_t, t->count);
    if (!t->order || !t->all || !t->plain || !from || !to || !in) return false;
    for (r = 0; r < list->count; r++) {
        int32_t x = ecs_sched__through_index(b, t, list->items[r].subject);
        int32_t y = ecs_sched__through_index(b, t, list->items[r].object);
        if (x < 0) continue;
        from[n] = x;
        to[n++] = (int32_t)r;
        if (y >= 0) in[y]++;
    }
    if (!ecs_sched__csr_build(b, &t->next, t->count, (int32_t)n, from, to)) return false;
    for (i = 0; i < t->count; i++) {
        if (in[i] == 0) t->order[tail++] = i;
    }
    for (head = 0; head < tail; head++) {   /* no cycle among them: it was looked for first */
        int32_t e, x = t->order[head];
        for (e = t->next.start[x]; e < t->next.start[x + 1]; e++) {
            int32_t y = ecs_sched__through_index(b, t, list->items[t->next.adj[e]].object);
            if (y >= 0 && --in[y] == 0) t->order[tail++] = y;
        }
    }
    return tail == t->count;
}

/* Each system in `systems` (bits) runs before each system of `to`; `plain` says which of
   them keep the sync point. */
static void ecs_sched__flatten_bits(ecs_sched__build *b, const uint64_t *systems,
                                    const uint64_t *plain, const ecs_sched__side *to) {
    int32_t W = b->system_words, k, j;
    for (k = 0; k < W; k++) {
        uint64_t word;
        for (word = systems[k]; word; word &= word - 1) {
            int32_t u = k * 64 + ecs_sched__lowest_bit(word);
            uint64_t *row = ecs_sched__row(b->flat, W, u);
            bool keeps = b->plain && ecs_sched__bit(plain, u);
            for (j = 0; j < to->count; j++) {
                int32_t v = to->systems[j];
                if (!ecs_sched__bit(row, v)) {
                    ecs_sched__set_bit(row, v);
                    b->flat_in[v]++;
                }
                if (keeps) ecs_sched__set_bit(ecs_sched__row(b->plain, W, u), v);
            }
        }
    }
}

static void ecs_sched__bits_or(uint64_t *into, const uint64_t *bits, int32_t words) {
    int32_t k;
    for (k = 0; k < words; k++) into[k] |= bits[k];
}

/* Joins the systems before each empty set to the systems after it. */
static ecs_sched_result ecs_sched__order_through_empty_sets(ecs_sched__build *b) {
    const ecs_sched__relations *list = &b->s->relations[ECS_SCHED__REL_BEFORE];
    int32_t W = b->system_words, q, e, k;
    ecs_sched__through t;
    uint32_t r;
    if (!ecs_sched__through_begin(b, &t)) return ecs_sched__oom(b);
    for (r = 0; r < list->count; r++) {   /* systems straight before an empty set */
        const ecs_sched__relation *rel = &list->items[r];
        int32_t y = ecs_sched__through_index(b, &t, rel->object);
        ecs_sched__side from = ecs_sched__side_of(b, &rel->subject);
        for (k = 0; y >= 0 && k < from.count; k++) {
            ecs_sched__set_bit(ecs_sched__row(t.all, W, y), from.systems[k]);
            if (!rel->ignore_deferred) ecs_sched__set_bit(ecs_sched__row(t.plain, W, y), from.systems[k]);
        }
    }
    for (q = 0; q < t.count; q++) {
        int32_t x = t.order[q];
        const uint64_t *all = ecs_sched__row(t.all, W, x), *plain = ecs_sched__row(t.plain, W, x);
        for (e = t.next.start[x]; e < t.next.start[x + 1]; e++) {
            const ecs_sched__relation *rel = &list->items[t.next.adj[e]];
            int32_t y = ecs_sched__through_index(b, &t, rel->object);
            const uint64_t *kept = rel->ignore_deferred ? plain : all;
            if (y >= 0) {
                ecs_sched__bits_or(ecs_sched__row(t.all, W, y), all, W);
                ecs_sched__bits_or(ecs_sched__row(t.plain, W, y), kept, W);
            } else {
                ecs_sched__side to = ecs_sched__side_of(b, &rel->object);
                ecs_sched__flatten_bits(b, all, kept, &to);
            }
        }
    }
    return ECS_SCHED_OK;
}

/* A cycle between nodes shows as one between the systems under them, unless it passes through
   a set with none: the nodes are searched first when there is such a set (the orderings
   through it need a graph without cycles among those sets), else only once the systems have a
   cycle, which names the cycle as configured. A cycle that only shows among the systems (one in
   two sets ordered against each other) is named when the systems are ordered. */
static ecs_sched_result ecs_sched__check_dependency_cycle(ecs_sched__build *b, bool empty_set) {
    int32_t *path, n = 0;
    path = ECS_SCHED__ALLOC_N(b, int32_t, b->node_count + 1);
    if (!path) return ecs_sched__oom(b);
    if (empty_set) {
        n = ecs_sched__find_node_cycle(b, path);
        if (n == 0) {
            ecs_sched_result result = ecs_sched__order_through_empty_sets(b);
            if (result != ECS_SCHED_OK) return result;
        }
    }
    if (n == 0) {
        b->flat_ordered = ecs_sched__order_flat(b);
        if (b->flat_ordered < 0) return ecs_sched__oom(b);
        if (b->flat_ordered == b->system_count || empty_set) return ECS_SCHED_OK;
        n = ecs_sched__find_node_cycle(b, path);
    }
    if (n < 0) return ecs_sched__oom(b);
    if (n == 0) return ECS_SCHED_OK;
    ecs_sched__text_begin(b);
    ecs_sched__text_printf(&b->text, "the before/after constraints form a cycle: ");
    ecs_sched__print_path(b, path, n, " runs before ");
    ecs_sched__text_printf(&b->text, ". Remove one of these orderings");
    return ecs_sched__build_fail(b, ECS_SCHED_ERR_DEPENDENCY_CYCLE);
}

/* Checks each dependency and flattens it into flat, then looks for cycles. Half a million
   relations are nothing unusual (each set after every earlier one), so this loop is kept
   tight: a relation at a time, the checks only where a node is in a set. */
static ecs_sched_result ecs_sched__collect_dependencies(ecs_sched__build *b) {
    const ecs_sched__relations *list = &b->s->relations[ECS_SCHED__REL_BEFORE];
    bool empty_set = false;
    uint32_t r;
    b->system_words = (b->system_count + 63) / 64;
    b->flat_ordered = b->system_count;
    if (list->count == 0) return ECS_SCHED_OK;
    b->flat = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)b->system_count * b->system_words);
    b->flat_in = ECS_SCHED__ALLOC_N(b, int32_t, b->system_count);
    if (!b->flat || !b->flat_in || !ecs_sched__side_names(b)) return ecs_sched__oom(b);
    for (r = 0; r < list->count; r++) {
        const ecs_sched__relation *rel = &list->items[r];
        ecs_sched__side from = ecs_sched__side_of(b, &rel->subject);
        ecs_sched__side to = ecs_sched__side_of(b, &rel->object);
        if (!from.at_top || !to.at_top) {
            ecs_sched_result result = ecs_sched__check_relation(b, rel);
            if (result != ECS_SCHED_OK) return result;
        }
        if (rel->ignore_deferred && !b->plain && !ecs_sched__begin_plain(b)) {
            return ecs_sched__oom(b);
        }
        if (from.count == 0 || to.count == 0) empty_set = true;
        ecs_sched__flatten_relation(b, &from, &to, rel->ignore_deferred);
    }
    return ecs_sched__check_dependency_cycle(b, empty_set);
}

/* The edit distance between two names, letters compared without case, or a large number
   when either is too long to be a likely typo of the other. */
static int32_t ecs_sched__name_distance(const char *x, const char *y) {
    int32_t row[65], n = (int32_t)strlen(x), m = (int32_t)strlen(y), i, j;
    if (n > 64 || m > 64) return 1000;
    for (j = 0; j <= m; j++) row[j] = j;
    for (i = 1; i <= n; i++) {
        int32_t diagonal = row[0];
        row[0] = i;
        for (j = 1; j <= m; j++) {
            int32_t above = row[j];
            int32_t cost = tolower((unsigned char)x[i - 1]) != tolower((unsigned char)y[j - 1]);
            int32_t best = diagonal + cost;
            if (above + 1 < best) best = above + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[m];
}

/* The name of the schedule closest to `name` (a system's, or a set that exists because it
   is configured or has members), when it is close enough to be what was meant; or NULL. */
static const char *ecs_sched__closest_name(const ecs_sched__build *b, int32_t name) {
    const ecs_sched__schedule *s = b->s;
    const char *text = s->names[name].text, *best = NULL;
    int32_t length = (int32_t)strlen(text), limit = length <= 4 ? 1 : length <= 8 ? 2 : 3;
    int32_t best_distance = limit + 1;
    uint32_t i;
    for (i = 0; i < s->name_count; i++) {
        const ecs_sched__name *n = &s->names[i];
        int32_t set = b->set_of_name[i], distance;
        bool real = n->system_count > 0 ||
                    (set >= 0 && (n->configured || b->child_count[set] > 0));
        if ((int32_t)i == name || n->anonymous || !real) continue;
        distance = ecs_sched__name_distance(text, n->text);
        if (distance < best_distance) {
            best_distance = distance;
            best = n->text;
        }
    }
    return best;
}

/* What first names `name` in an ordering or an ambiguous_with: "system 'x' is ordered after". */
static void ecs_sched__print_first_mention(ecs_sched__build *b, int32_t name) {
    static const char *const verbs[2][2] = {{"is ordered before", "is ordered after"},
                                            {"is declared ambiguous_with", "is named by"}};
    ecs_sched__ref ref = -name - 1;
    char label[160];
    int kind;
    for (kind = ECS_SCHED__REL_BEFORE; kind <= ECS_SCHED__REL_AMBIGUOUS; kind++) {
        const ecs_sched__relations *list = &b->s->relations[kind];
        uint32_t r;
        for (r = 0; r < list->count; r++) {
            const ecs_sched__relation *rel = &list->items[r];
            int32_t single;
            const int32_t *nodes;
            bool object = rel->object == ref;
            if (!object && rel->subject != ref) continue;
            ecs_sched__ref_nodes(b, object ? rel->subject : rel->object, &single, &nodes);
            ecs_sched__text_printf(&b->text, "%s %s ",
                                   ecs_sched__node_label(b, nodes[0], label, sizeof label),
                                   verbs[kind == ECS_SCHED__REL_AMBIGUOUS][!object]);
            return;
        }
    }
    ecs_sched__text_printf(&b->text, "something names ");
}

/* A name that an ordering or ambiguous_with gives, but that nothing in the schedule carries:
   no system has it, no system or set is in it, and it is never configured. Most often a
   typo, which would silently drop the ordering. */
static ecs_sched_result ecs_sched__check_unknown_sets(ecs_sched__build *b) {
    ecs_sched__schedule *s = b->s;
    int32_t set;
    for (set = 0; set < b->set_count; set++) {
        int32_t name = b->name_of_set[set];
        const ecs_sched__name *n = &s->names[name];
        const char *closest;
        ecs_sched_result result;
        if (n->configured || b->child_count[set] > 0) continue;
        ecs_sched__text_begin(b);
        ecs_sched__print_first_mention(b, name);
        ecs_sched__text_printf(&b->text, "'%s', which names nothing in this schedule: no system "
                                         "has that name, and no set of that name is configured "
                                         "or has members",
                               n->text);
        closest = ecs_sched__closest_name(b, name);
        if (closest) ecs_sched__text_printf(&b->text, ". Did you mean '%s'?", closest);
        else ecs_sched__text_printf(&b->text, " (a misspelled name?)");
        ecs_sched__text_printf(&b->text, " For a set meant to stay empty for now, configure it "
                                         "(ecs_sched_configure_set); the schedule's unknown_sets "
                                         "setting lowers this error to a warning");
        result = ecs_sched__report(b, s->settings.unknown_sets, ECS_SCHED_ERR_UNKNOWN_SET);
        if (result != ECS_SCHED_OK) return result;
    }
    return ECS_SCHED_OK;
}

/* An apply_deferred that runs whenever the schedule does: no condition on it or on a set it is
   in. Such a sync point counts like an automatic one, and serves where one would go. */
static bool ecs_sched__explicit_sync(const ecs_sched__build *b, int32_t v) {
    const ecs_sched__schedule *s = b->s;
    uint32_t k;
    if (!s->systems[v]->is_apply_deferred) return false;
    for (k = 0; k < s->guard_count; k++) {
        int32_t single, i;
        const int32_t *nodes;
        int32_t n = ecs_sched__ref_nodes(b, s->guards[k].subject, &single, &nodes);
        for (i = 0; i < n; i++) {
            if (nodes[i] == v || ecs_sched__node_under(b, v, nodes[i])) return false;
        }
    }
    return true;
}

/* Which systems leave commands pending for what runs after them: their own (.commands), or
   those an ordering that ignores deferred commands passed on to them. Ignoring them only spares
   that ordering a sync point: what runs after through an ordering that keeps them (or any
   exclusive system) still gets one. An explicit sync point leaves nothing pending. Worked out
   over every edge of flat, in its order, before the implied edges go. */
static bool ecs_sched__find_carriers(ecs_sched__build *b) {
    int32_t S = b->system_count, W = b->system_words, q, k;
    uint64_t *ends = ECS_SCHED__ALLOC_N(b, uint64_t, W);   /* exclusive systems, apply_deferred */
    b->explicit_sync = ECS_SCHED__ALLOC_N(b, uint8_t, S);
    b->carries = ECS_SCHED__ALLOC_N(b, uint8_t, S);
    if (!ends || !b->explicit_sync || !b->carries) return false;
    for (q = 0; q < S; q++) {
        const ecs_sched__system *system = b->s->systems[q];
        b->explicit_sync[q] = ecs_sched__explicit_sync(b, q) ? 1 : 0;
        b->carries[q] = !b->s->settings.no_auto_sync && system->ctx.commands != NULL;
        if (system->ctx.exclusive || system->is_apply_deferred) ecs_sched__set_bit(ends, q);
    }
    if (!b->flat || !b->plain || b->flat_ordered != S) return true;
    for (q = 0; q < S; q++) {
        int32_t v = b->flat_order[q];
        const uint64_t *row = ecs_sched__row(b->flat, W, v), *plain = ecs_sched__row(b->plain, W, v);
        if (b->explicit_sync[v]) b->carries[v] = 0;
        if (!b->carries[v]) continue;
        for (k = 0; k < W; k++) {
            uint64_t word;
            for (word = row[k] & ~plain[k] & ~ends[k]; word; word &= word - 1) {
                b->carries[k * 64 + ecs_sched__lowest_bit(word)] = 1;
            }
        }
    }
    return true;
}

/* Leaves in each row of flat only the edges that need a sync point of their own (the rule of
   ecs_sched__needs_sync, by rows of bits). */
static bool ecs_sched__keep_sync_edges(ecs_sched__build *b) {
    int32_t S = b->system_count, W = b->system_words, v, k;
    uint64_t *deferred = ECS_SCHED__ALLOC_N(b, uint64_t, W);   /* apply_deferred systems */
    uint64_t *exclusive = ECS_SCHED__ALLOC_N(b, uint64_t, W);  /* see commands regardless */
    if (!deferred || !exclusive) return false;
    for (v = 0; v < S; v++) {
        if (b->s->systems[v]->is_apply_deferred) ecs_sched__set_bit(deferred, v);
        if (b->s->systems[v]->ctx.exclusive) ecs_sched__set_bit(exclusive, v);
    }
    for (v = 0; v < S; v++) {
        uint64_t *row = ecs_sched__row(b->flat, W, v);
        const uint64_t *plain = b->plain ? ecs_sched__row(b->plain, W, v) : row;
        for (k = 0; k < W; k++) {
            row[k] = b->carries[v] ? row[k] & (plain[k] | exclusive[k]) & ~deferred[k] : 0;
        }
    }
    return true;
}

/* Adds to flat the edges no other path implies (the transitive reduction). The systems go in
   flat_order; a system's predecessors from the latest back, so that one an ancestor of a later
   predecessor reaches is seen to be implied. Each row of flat_preds becomes the positions of
   the system's ancestors, which the systems after it read. */
static bool ecs_sched__keep_unimplied_edges(ecs_sched__build *b) {
    int32_t S = b->system_count, W = b->system_words, q, k, j;
    uint64_t *reached = ECS_SCHED__ALLOC_N(b, uint64_t, W);
    if (!reached) return false;
    for (q = 0; q < S; q++) {
        int32_t t = b->flat_order[q];
        uint64_t *row = ecs_sched__row(b->flat_preds, W, t);
        memset(reached, 0, sizeof(uint64_t) * (size_t)W);
        for (k = q / 64; k >= 0; k--) {
            uint64_t fresh;
            while ((fresh = row[k] & ~reached[k]) != 0) {
                int32_t p = k * 64 + ecs_sched__highest_bit(fresh), u = b->flat_order[p];
                const uint64_t *theirs = ecs_sched__row(b->flat_preds, W, u);
                ecs_sched__set_bit(ecs_sched__row(b->flat, W, u), t);
                for (j = 0; j <= k; j++) reached[j] |= theirs[j];
                ecs_sched__set_bit(reached, p);
            }
        }
        memcpy(row, reached, sizeof(uint64_t) * (size_t)W);
    }
    return true;
}

/* Places successor y of system x, the edge left in flat, at the next place of x's row. */
static void ecs_sched__place_successor(ecs_sched__build *b, int32_t *fill, int32_t x, int32_t y) {
    int32_t W = b->system_words, e = b->successors.start[x] + fill[x]++;
    ecs_sched__clear_bit(ecs_sched__row(b->flat, W, x), y);
    b->successors.adj[e] = y;
    /* ignored only when every dependency giving the edge ignores it */
    b->successor_ignore[e] = b->plain && !ecs_sched__bit(ecs_sched__row(b->plain, W, x), y);
}

/* Places the edges left in flat that a relation gives, in the rows not yet complete; returns
   how many. Each row sees its edges in the order of the object's systems, as it would
   dependency by dependency. */
static int32_t ecs_sched__place_relation(ecs_sched__build *b, int32_t *fill,
                                         const ecs_sched__relation *r) {
    const ecs_sched__csr *g = &b->successors;
    ecs_sched__side from = ecs_sched__side_of(b, &r->subject);
    ecs_sched__side to = ecs_sched__side_of(b, &r->object);
    int32_t placed = 0, i, j;
    for (i = 0; i < from.count; i++) {
        int32_t x = from.systems[i];
        const uint64_t *row = ecs_sched__row(b->flat, b->system_words, x);
        for (j = 0; j < to.count && fill[x] < g->start[x + 1] - g->start[x]; j++) {
            if (!ecs_sched__bit(row, to.systems[j])) continue;
            ecs_sched__place_successor(b, fill, x, to.systems[j]);
            placed++;
        }
    }
    return placed;
}

/* How many edges of row v are left in flat. */
static int32_t ecs_sched__flat_count(const ecs_sched__build *b, int32_t v) {
    const uint64_t *row;
    int32_t k, n = 0;
    if (!b->flat) return 0;
    row = ecs_sched__row(b->flat, b->system_words, v);
    for (k = 0; k < b->system_words; k++) n += ecs_sched__popcount(row[k]);
    return n;
}

/* The edges left in flat become the successors, each row in the order the dependencies that
   give them come: an edge takes the place of its first; the edges only an empty set gives
   come last, by system number. A row of one edge needs no walk over the dependencies, and a
   walk ends once every longer row is placed. */
static ecs_sched_result ecs_sched__successors_from_flat(ecs_sched__build *b) {
    const ecs_sched__relations *list = &b->s->relations[ECS_SCHED__REL_BEFORE];
    int32_t S = b->system_count, W = b->system_words, v, k, remaining = 0;
    int32_t *fill = ECS_SCHED__ALLOC_N(b, int32_t, S);
    ecs_sched__csr *g = &b->successors;
    const uint64_t *row;
    uint32_t r;
    g->n = S;
    g->start = ECS_SCHED__ALLOC_N(b, int32_t, S + 1);
    if (!fill || !g->start) return ecs_sched__oom(b);
    for (v = 0; v < S; v++) g->start[v + 1] = g->start[v] + ecs_sched__flat_count(b, v);
    g->adj = ECS_SCHED__ALLOC_N(b, int32_t, g->start[S]);
    b->successor_ignore = ECS_SCHED__ALLOC_N(b, uint8_t, g->start[S]);
    if (!g->adj || !b->successor_ignore) return ecs_sched__oom(b);
    for (v = 0; v < S; v++) {
        int32_t count = g->start[v + 1] - g->start[v];
        if (count != 1) {
            remaining += count;
            continue;
        }
        row = ecs_sched__row(b->flat, W, v);
        for (k = 0; k < W; k++) {
            if (row[k]) {
                ecs_sched__place_successor(b, fill, v, k * 64 + ecs_sched__lowest_bit(row[k]));
            }
        }
    }
    for (r = 0; remaining > 0 && r < list->count; r++) {
        remaining -= ecs_sched__place_relation(b, fill, &list->items[r]);
    }
    for (v = 0; remaining > 0 && v < S; v++) {   /* edges through empty sets, by number */
        row = ecs_sched__row(b->flat, W, v);
        for (k = 0; k < W; k++) {
            for (; row[k]; remaining--) {
                ecs_sched__place_successor(b, fill, v, k * 64 + ecs_sched__lowest_bit(row[k]));
            }
        }
    }
    return ECS_SCHED_OK;
}

/* Whether some path leads from system x to system y or back (once the edges are flattened,
   and in a schedule without a cycle). */
static bool ecs_sched__ordered(const ecs_sched__build *b, int32_t x, int32_t y) {
    const uint64_t *ancestors_x, *ancestors_y;
    if (!b->flat) return false;
    ancestors_x = b->flat_preds + (size_t)x * (size_t)b->system_words;
    ancestors_y = b->flat_preds + (size_t)y * (size_t)b->system_words;
    return ecs_sched__bit(ancestors_y, b->flat_position[x]) ||
           ecs_sched__bit(ancestors_x, b->flat_position[y]);
}

/* Node-level dependencies become system-level ones: every system under the first node runs
   before every system under the second. Duplicates are dropped, and so is every edge that
   another path implies and that places no sync point of its own: the order, the sync points
   and the plan's edges come out the same, and dense orderings (each set after all the earlier
   ones) stay small. With a cycle every edge is kept, for the search that names it. */
static ecs_sched_result ecs_sched__flatten(ecs_sched__build *b) {
    if (!ecs_sched__find_carriers(b)) return ecs_sched__oom(b);
    if (b->flat && b->flat_ordered == b->system_count &&
        (!ecs_sched__keep_sync_edges(b) || !ecs_sched__keep_unimplied_edges(b))) {
        return ecs_sched__oom(b);
    }
    return ecs_sched__successors_from_flat(b);
}

/* A min-heap of node numbers ordered by key. */
typedef struct ecs_sched__heap {
    int32_t *items;
    int32_t count;
    const int32_t *key;
} ecs_sched__heap;

static void ecs_sched__heap_push(ecs_sched__heap *h, int32_t v) {
    int32_t i = h->count++;
    while (i > 0) {
        int32_t parent = (i - 1) / 2;
        if (h->key[h->items[parent]] <= h->key[v]) break;
        h->items[i] = h->items[parent];
        i = parent;
    }
    h->items[i] = v;
}

static int32_t ecs_sched__heap_pop(ecs_sched__heap *h) {
    int32_t top = h->items[0], last = h->items[--h->count], i = 0;
    for (;;) {
        int32_t child = 2 * i + 1;
        if (child >= h->count) break;
        if (child + 1 < h->count && h->key[h->items[child + 1]] < h->key[h->items[child]]) child++;
        if (h->key[last] <= h->key[h->items[child]]) break;
        h->items[i] = h->items[child];
        i = child;
    }
    if (h->count > 0) h->items[i] = last;
    return top;
}

/* Topological order of g, ties broken by the smallest key; returns how many nodes it
   ordered (fewer than g->n when there is a cycle). */
static int32_t ecs_sched__toposort(ecs_sched__build *b, const ecs_sched__csr *g, const int32_t *key,
                                   int32_t *order) {
    int32_t *pending = ECS_SCHED__ALLOC_N(b, int32_t, g->n), i, e, n = 0;
    ecs_sched__heap heap;
    heap.items = ECS_SCHED__ALLOC_N(b, int32_t, g->n);
    heap.count = 0;
    heap.key = key;
    if (!pending || !heap.items) return -1;
    for (e = 0; e < g->start[g->n]; e++) pending[g->adj[e]]++;
    for (i = 0; i < g->n; i++) {
        if (pending[i] == 0) ecs_sched__heap_push(&heap, i);
    }
    while (heap.count > 0) {
        int32_t v = ecs_sched__heap_pop(&heap);
        order[n++] = v;
        for (e = g->start[v]; e < g->start[v + 1]; e++) {
            if (--pending[g->adj[e]] == 0) ecs_sched__heap_push(&heap, g->adj[e]);
        }
    }
    return n;
}

/* The order in which unconstrained systems run: the order they were added, or a shuffle. */
static void ecs_sched__make_keys(ecs_sched__build *b) {
    int32_t i;
    uint64_t state = b->s->settings.shuffle_seed;
    for (i = 0; i < b->system_count; i++) b->key[i] = i;
    if (!state) return;
    for (i = b->system_count - 1; i > 0; i--) {
        int32_t j, tmp;
        state ^= state << 13;  /* xorshift64 */
        state ^= state >> 7;
        state ^= state << 17;
        j = (int32_t)(state % (uint64_t)(i + 1));
        tmp = b->key[i];
        b->key[i] = b->key[j];
        b->key[j] = tmp;
    }
}

/* Whether node stands for system v: it is v, or a set v is in. */
static bool ecs_sched__holds(const ecs_sched__build *b, int32_t node, int32_t v) {
    return node == v || ecs_sched__node_under(b, v, node);
}

/* The shortest chain of orderings from system x (or a set it is in) to system y (or a set it
   is in) whose inner nodes are sets without systems: how the build came to order x before y.
   Writes its nodes to path and returns how many, or 0 (-1 when out of memory). */
static int32_t ecs_sched__ordering_path(ecs_sched__build *b, const ecs_sched__csr *g, int32_t x,
                                        int32_t y, int32_t *path) {
    int32_t N = b->node_count, head = 0, tail = 0, v, e, n;
    int32_t *from = ECS_SCHED__ALLOC_N(b, int32_t, N), *queue = ECS_SCHED__ALLOC_N(b, int32_t, N);
    if (!from || !queue) return -1;
    for (v = 0; v < N; v++) {
        from[v] = -2;   /* not reached */
        if (ecs_sched__holds(b, v, x)) {
            from[v] = -1;
            queue[tail++] = v;
        }
    }
    for (head = 0; head < tail; head++) {
        v = queue[head];
        for (e = g->start[v]; e < g->start[v + 1]; e++) {
            int32_t u = g->adj[e];
            if (ecs_sched__holds(b, u, y)) {
                for (n = 1, path[0] = u; v >= 0; v = from[v]) path[n++] = v;
                for (e = 0; e < n / 2; e++) {
                    int32_t t = path[e];
                    path[e] = path[n - 1 - e];
                    path[n - 1 - e] = t;
                }
                return n;
            }
            if (from[u] == -2 && ecs_sched__empty_set(b, u)) {
                from[u] = v;
                queue[tail++] = u;
            }
        }
    }
    return 0;
}

/* "system 'x' is in set 'A', set 'A' runs before set 'B' (which has no systems), ...". */
static void ecs_sched__print_ordering(ecs_sched__build *b, const int32_t *path, int32_t n,
                                      int32_t x, int32_t y) {
    char one[160], two[160];
    int32_t i;
    if (n == 0) {
        ecs_sched__text_printf(&b->text, "%s runs before %s",
                               ecs_sched__node_label(b, x, one, sizeof one),
                               ecs_sched__node_label(b, y, two, sizeof two));
        return;
    }
    if (path[0] != x) {
        ecs_sched__text_printf(&b->text, "%s is in %s, ", ecs_sched__node_label(b, x, one, sizeof one),
                               ecs_sched__node_label(b, path[0], two, sizeof two));
    }
    for (i = 0; i + 1 < n; i++) {
        ecs_sched__text_printf(&b->text, "%s%s runs before %s%s", i ? ", " : "",
                               ecs_sched__node_label(b, path[i], one, sizeof one),
                               ecs_sched__node_label(b, path[i + 1], two, sizeof two),
                               ecs_sched__empty_set(b, path[i + 1]) ? " (which has no systems)" : "");
    }
    if (path[n - 1] != y) {
        ecs_sched__text_printf(&b->text, ", %s is in %s", ecs_sched__node_label(b, y, one, sizeof one),
                               ecs_sched__node_label(b, path[n - 1], two, sizeof two));
    }
}

/* A cycle among the systems that no cycle among the nodes shows: each step of it explained by
   the orderings and memberships that give it. */
static ecs_sched_result ecs_sched__report_flattened_cycle(ecs_sched__build *b, const int32_t *cycle,
                                                          int32_t length) {
    int32_t *path = ECS_SCHED__ALLOC_N(b, int32_t, b->node_count + 1), i, n;
    ecs_sched__csr g;
    char label[160];
    if (!path || !ecs_sched__node_graph(b, &g)) return ecs_sched__oom(b);
    ecs_sched__text_begin(b);
    ecs_sched__text_printf(&b->text, "once sets are replaced by their systems, the order has a "
                                     "cycle: ");
    for (i = 0; i + 1 < length; i++) {
        n = ecs_sched__ordering_path(b, &g, cycle[i], cycle[i + 1], path);
        if (n < 0) return ecs_sched__oom(b);
        if (i) ecs_sched__text_printf(&b->text, "; ");
        ecs_sched__print_ordering(b, path, n, cycle[i], cycle[i + 1]);
    }
    if (length == 2) {
        ecs_sched__text_printf(&b->text, "; so %s must run after itself",
                               ecs_sched__node_label(b, cycle[0], label, sizeof label));
    } else {
        ecs_sched__text_printf(&b->text, "; so ");
        ecs_sched__print_path(b, cycle, length, " runs before ");
    }
    ecs_sched__text_printf(&b->text, ". A system in two sets that are ordered against each other "
                                     "(directly or through sets without systems), or a system "
                                     "ordered against a set it shares members with, causes this; "
                                     "remove one of the orderings or memberships");
    return ecs_sched__build_fail(b, ECS_SCHED_ERR_DEPENDENCY_CYCLE);
}

static ecs_sched_result ecs_sched__order_systems(ecs_sched__build *b) {
    int32_t n, *path;
    b->order = ECS_SCHED__ALLOC_N(b, int32_t, b->system_count);
    b->key = ECS_SCHED__ALLOC_N(b, int32_t, b->system_count + 64);
    path = ECS_SCHED__ALLOC_N(b, int32_t, b->system_count + 1);
    if (!b->order || !b->key || !path) return ecs_sched__oom(b);
    ecs_sched__make_keys(b);
    n = ecs_sched__toposort(b, &b->successors, b->key, b->order);
    if (n < 0) return ecs_sched__oom(b);
    if (n < b->system_count) {
        int32_t len = ecs_sched__find_cycle(b, &b->successors, path);
        if (len < 0) return ecs_sched__oom(b);
        return ecs_sched__report_flattened_cycle(b, path, len);
    }
    return ECS_SCHED_OK;
}

/*============================== src/access.h (implementation) ===============================*/
/* access: what each system touches, conflicts, and ambiguity detection. */

#define ECS_SCHED__MAX_REPORTED_PAIRS 64  /* ambiguous pairs listed in one message */

static ecs_sched_result ecs_sched__check_condition_access(ecs_sched__build *b) {
    ecs_sched__schedule *s = b->s;
    uint32_t g;
    char label[160];
    for (g = 0; g < s->guard_count; g++) {
        const ecs_sched__cond *c = ecs_sched__cond_find_write(&s->conds, s->guards[g].cond);
        int32_t single;
        const int32_t *node;
        if (!c) continue;
        ecs_sched__ref_nodes(b, s->guards[g].subject, &single, &node);
        ecs_sched__text_begin(b);
        ecs_sched__text_printf(&b->text,
                               "condition '%s' of %s asks to write %s '%s'; conditions only read. "
                               "Declare it as a read, or move the write into a system",
                               c->name, ecs_sched__node_label(b, node[0], label, sizeof label),
                               c->first_write_is_resource ? "resource" : "component",
                               ecs_sched__component_label(b->w, c->first_write));
        return ecs_sched__build_fail(b, ECS_SCHED_ERR_CONDITION_WRITES);
    }
    return ECS_SCHED_OK;
}

enum { ECS_SCHED__COMP_READ, ECS_SCHED__COMP_WRITE, ECS_SCHED__RES_READ, ECS_SCHED__RES_WRITE };

static uint64_t *ecs_sched__access_of(const ecs_sched__build *b, int32_t system, int kind) {
    return b->access + ((size_t)system * 4 + (size_t)kind) * (size_t)b->access_words;
}

static bool ecs_sched__query_excludes(const ecs_sched_query *query) {
    int32_t i;
    for (i = 0; i < query->term_count; i++) {
        if (query->terms[i].kind == ECS_SCHED_TERM_WITHOUT) return true;
    }
    return false;
}

/* Keeps the query for the check of disjoint queries; false when out of memory. */
static bool ecs_sched__add_query_use(ecs_sched__build *b, int32_t system,
                                     const ecs_sched_query *query, bool reads_only) {
    ecs_sched__query_use *use;
    if (!ECS_SCHED__GROW(&b->w->env, b->uses, &b->use_capacity, b->use_count + 1)) return false;
    use = &b->uses[b->use_count++];
    use->system = system;
    use->reads_only = reads_only;
    use->query = query;
    return true;
}

static bool ecs_sched__add_ctx_access(ecs_sched__build *b, int32_t system,
                                      const ecs_sched_system_ctx *ctx, bool reads_only) {
    int32_t i, q;
    for (i = 0; i < ctx->read_count; i++) {
        ecs_sched__set_bit(ecs_sched__access_of(b, system, ECS_SCHED__RES_READ), (int32_t)ctx->reads[i]);
    }
    for (i = 0; i < ctx->write_count; i++) {
        ecs_sched__set_bit(ecs_sched__access_of(b, system, reads_only ? ECS_SCHED__RES_READ
                                                                      : ECS_SCHED__RES_WRITE),
                           (int32_t)ctx->writes[i]);
    }
    for (q = 0; q < ctx->query_count; q++) {
        ecs_sched_access a = ecs_sched_query_access(ctx->queries[q]);
        if (!ecs_sched__add_query_use(b, system, ctx->queries[q], reads_only)) return false;
        for (i = 0; i < a.read_count; i++) {
            ecs_sched__set_bit(ecs_sched__access_of(b, system, ECS_SCHED__COMP_READ), (int32_t)a.reads[i]);
        }
        for (i = 0; i < a.write_count; i++) {
            ecs_sched__set_bit(ecs_sched__access_of(b, system, reads_only ? ECS_SCHED__COMP_READ
                                                                          : ECS_SCHED__COMP_WRITE),
                               (int32_t)a.writes[i]);
        }
    }
    return true;
}

static bool ecs_sched__add_cond_access(ecs_sched__build *b, int32_t system, int32_t cond) {
    const ecs_sched__cond *c = b->s->conds.items[cond];
    int32_t i;
    if (!ecs_sched__add_ctx_access(b, system, &c->ctx, true)) return false;
    if (c->resource) {
        ecs_sched__set_bit(ecs_sched__access_of(b, system, ECS_SCHED__RES_READ), (int32_t)c->resource);
    }
    for (i = 0; i < 2; i++) {
        if (c->operands[i] >= 0 && !ecs_sched__add_cond_access(b, system, c->operands[i])) {
            return false;
        }
    }
    return true;
}

/* Groups the uses by system (a counting sort into the arena), when a query somewhere has a
   without term; otherwise no two queries can be disjoint and the uses are dropped. */
static bool ecs_sched__group_query_uses(ecs_sched__build *b) {
    int32_t S = b->system_count, i;
    uint32_t u;
    bool any = false;
    ecs_sched__query_use *grouped;
    int32_t *next;
    for (u = 0; u < b->use_count && !any; u++) any = ecs_sched__query_excludes(b->uses[u].query);
    if (!any) {
        b->use_count = 0;
        return true;
    }
    b->use_start = ECS_SCHED__ALLOC_N(b, int32_t, S + 1);
    b->excludes = ECS_SCHED__ALLOC_N(b, uint8_t, S);
    next = ECS_SCHED__ALLOC_N(b, int32_t, S);
    grouped = ECS_SCHED__ALLOC_N(b, ecs_sched__query_use, b->use_count);
    if (!b->use_start || !b->excludes || !next || !grouped) return false;
    memset(b->use_start, 0, sizeof *b->use_start * (size_t)(S + 1));
    memset(b->excludes, 0, (size_t)S);
    for (u = 0; u < b->use_count; u++) {
        b->use_start[b->uses[u].system + 1]++;
        if (ecs_sched__query_excludes(b->uses[u].query)) b->excludes[b->uses[u].system] = 1;
    }
    for (i = 0; i < S; i++) b->use_start[i + 1] += b->use_start[i];
    memcpy(next, b->use_start, sizeof *next * (size_t)S);
    for (u = 0; u < b->use_count; u++) grouped[next[b->uses[u].system]++] = b->uses[u];
    memcpy(b->uses, grouped, sizeof *grouped * b->use_count);
    return true;
}

/* What each system touches, its conditions and those of its sets included. */
static ecs_sched_result ecs_sched__compute_access(ecs_sched__build *b) {
    ecs_sched__schedule *s = b->s;
    int32_t i;
    uint32_t g;
    b->access_words = (int32_t)((b->w->component_count + 63) / 64);
    b->access = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)b->system_count * 4 * b->access_words);
    if (!b->access) return ecs_sched__oom(b);
    for (i = 0; i < b->system_count; i++) {
        if (!ecs_sched__add_ctx_access(b, i, &s->systems[i]->ctx, false)) return ecs_sched__oom(b);
    }
    for (g = 0; g < s->guard_count; g++) {
        int32_t single, n, k;
        const int32_t *node;
        n = ecs_sched__ref_nodes(b, s->guards[g].subject, &single, &node);
        for (k = 0; k < n; k++) {
            if (node[k] < b->system_count) {
                if (!ecs_sched__add_cond_access(b, node[k], s->guards[g].cond)) {
                    return ecs_sched__oom(b);
                }
            } else {
                int32_t set = node[k] - b->system_count, m;
                for (m = b->members.start[set]; m < b->members.start[set + 1]; m++) {
                    if (!ecs_sched__add_cond_access(b, b->members.adj[m], s->guards[g].cond)) {
                        return ecs_sched__oom(b);
                    }
                }
            }
        }
    }
    return ecs_sched__group_query_uses(b) ? ECS_SCHED_OK : ecs_sched__oom(b);
}

/* Per system, for the pairwise check: its writes and everything it touches, components and
   resources side by side (2 * access_words words each), and whether it can conflict at all. */
typedef struct ecs_sched__conflict_table {
    int32_t words;
    uint64_t *writes;
    uint64_t *touches;
    uint8_t *kind;        /* 0 reads only (or nothing), 1 writes, 2 exclusive */
    const ecs_sched__query_use *uses;  /* the build's, when some query has a without term */
    const int32_t *use_start;
    const uint8_t *excludes;
} ecs_sched__conflict_table;

static bool ecs_sched__conflict_table_make(ecs_sched__build *b, ecs_sched__conflict_table *t) {
    int32_t S = b->system_count, W = b->access_words, i, k;
    t->words = 2 * W;
    t->writes = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)S * t->words);
    t->touches = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)S * t->words);
    t->kind = ECS_SCHED__ALLOC_N(b, uint8_t, S);
    if (!t->writes || !t->touches || !t->kind) return false;
    for (i = 0; i < S; i++) {
        uint64_t *wr = ecs_sched__row(t->writes, t->words, i), *to = ecs_sched__row(t->touches, t->words, i);
        for (k = 0; k < W; k++) {
            wr[k] = ecs_sched__access_of(b, i, ECS_SCHED__COMP_WRITE)[k];
            wr[W + k] = ecs_sched__access_of(b, i, ECS_SCHED__RES_WRITE)[k];
            to[k] = wr[k] | ecs_sched__access_of(b, i, ECS_SCHED__COMP_READ)[k];
            to[W + k] = wr[W + k] | ecs_sched__access_of(b, i, ECS_SCHED__RES_READ)[k];
            if (wr[k] | wr[W + k]) t->kind[i] = 1;
        }
        if (b->s->systems[i]->ctx.exclusive) t->kind[i] = 2;
    }
    t->uses = b->use_start ? b->uses : NULL;
    t->use_start = b->use_start;
    t->excludes = b->excludes;
    return true;
}

/* Whether every entity `a` matches has a component that `b` excludes. */
static bool ecs_sched__query_rules_out(const ecs_sched_query *a, const ecs_sched_query *b) {
    int32_t i, j;
    for (i = 0; i < a->term_count; i++) {
        if (!ecs_sched__term_required(a->terms[i].kind)) continue;
        for (j = 0; j < b->term_count; j++) {
            if (b->terms[j].kind == ECS_SCHED_TERM_WITHOUT && b->terms[j].id == a->terms[i].id) {
                return true;
            }
        }
    }
    return false;
}

static bool ecs_sched__term_written(const ecs_sched__query_use *use, int32_t term) {
    return !use->reads_only && ecs_sched__term_writes(use->query->terms[term].kind);
}

/* Two queries touch the same data in conflicting ways: no entity can match both unless
   neither requires what the other excludes, and then one writes a component the other
   touches. */
static bool ecs_sched__queries_conflict(const ecs_sched__query_use *a,
                                        const ecs_sched__query_use *b) {
    int32_t i, j;
    /* entities the two cannot share keep their data apart, but a term read from the parent
       reaches entities its query does not match */
    bool disjoint = ecs_sched__query_rules_out(a->query, b->query) ||
                    ecs_sched__query_rules_out(b->query, a->query);
    for (i = 0; i < a->query->term_count; i++) {
        ecs_sched_term_kind ka = a->query->terms[i].kind;
        if (ka == ECS_SCHED_TERM_WITHOUT) continue;
        for (j = 0; j < b->query->term_count; j++) {
            ecs_sched_term_kind kb = b->query->terms[j].kind;
            if (kb == ECS_SCHED_TERM_WITHOUT || b->query->terms[j].id != a->query->terms[i].id) {
                continue;
            }
            if (disjoint && ecs_sched__term_on_self(ka) && ecs_sched__term_on_self(kb)) continue;
            if (ecs_sched__term_written(a, i) || ecs_sched__term_written(b, j)) return true;
        }
    }
    return false;
}

/* The components' side of a conflict, query by query (components are only touched through
   queries). */
static bool ecs_sched__queries_of_conflict(const ecs_sched__conflict_table *t, int32_t x,
                                           int32_t y) {
    int32_t i, j;
    for (i = t->use_start[x]; i < t->use_start[x + 1]; i++) {
        for (j = t->use_start[y]; j < t->use_start[y + 1]; j++) {
            if (ecs_sched__queries_conflict(&t->uses[i], &t->uses[j])) return true;
        }
    }
    return false;
}

/* Whether systems x and y conflict: either is exclusive, or one writes a resource the other
   touches, or a pair of their queries conflicts. The union of each system's components
   answers first; only when it says yes and a query of either has a without term are the
   queries compared pair by pair. */
static inline bool ecs_sched__conflict(const ecs_sched__conflict_table *t, int32_t x, int32_t y) {
    const uint64_t *wx = ecs_sched__row(t->writes, t->words, x), *wy = ecs_sched__row(t->writes, t->words, y);
    const uint64_t *tx = ecs_sched__row(t->touches, t->words, x), *ty = ecs_sched__row(t->touches, t->words, y);
    uint64_t components = 0, resources = 0;
    int32_t k, half = t->words / 2;
    if ((t->kind[x] | t->kind[y]) == 0) return false;
    if (t->kind[x] == 2 || t->kind[y] == 2) return true;
    for (k = 0; k < half; k++) components |= (wx[k] & ty[k]) | (wy[k] & tx[k]);
    for (k = half; k < t->words; k++) resources |= (wx[k] & ty[k]) | (wy[k] & tx[k]);
    if (resources) return true;
    if (!components) return false;
    if (!t->uses || !(t->excludes[x] || t->excludes[y])) return true;
    return ecs_sched__queries_of_conflict(t, x, y);
}

/* Whether each system is ambiguous with everything: marked so itself (an apply_deferred
   is), or in a set marked so, at any depth. NULL when out of memory. */
static uint8_t *ecs_sched__ambiguous_with_all(ecs_sched__build *b) {
    const ecs_sched__schedule *s = b->s;
    int32_t S = b->system_count, W = b->set_words, i, k;
    uint8_t *with_all = ECS_SCHED__ALLOC_N(b, uint8_t, S);
    uint64_t *marked = ECS_SCHED__ALLOC_N(b, uint64_t, W);   /* sets */
    if (!with_all || !marked) return NULL;
    for (i = 0; i < b->set_count; i++) {
        if (s->names[b->name_of_set[i]].ambiguous_with_all) ecs_sched__set_bit(marked, i);
    }
    for (i = 0; i < S; i++) {
        const uint64_t *sets = b->ancestors + (size_t)i * (size_t)W;
        with_all[i] = s->systems[i]->ambiguous_with_all || s->systems[i]->is_apply_deferred;
        for (k = 0; k < W && !with_all[i]; k++) with_all[i] = (sets[k] & marked[k]) != 0;
    }
    return with_all;
}

static bool ecs_sched__is_or_under(const ecs_sched__build *b, int32_t system, int32_t node) {
    return system == node || ecs_sched__node_under(b, system, node);
}

/* Declared harmless with ambiguous_with: a pair, a system or a whole set (with_all: whether
   each system is ambiguous with everything). */
static bool ecs_sched__silenced(const ecs_sched__build *b, const uint8_t *with_all, int32_t x,
                                int32_t y) {
    const ecs_sched__relations *list = &b->s->relations[ECS_SCHED__REL_AMBIGUOUS];
    uint32_t r;
    if (with_all[x] || with_all[y]) return true;
    for (r = 0; r < list->count; r++) {
        const ecs_sched__relation *rel = &list->items[r];
        int32_t sa, sb, na, nb, i, j;
        const int32_t *a, *c;
        na = ecs_sched__ref_nodes(b, rel->subject, &sa, &a);
        nb = ecs_sched__ref_nodes(b, rel->object, &sb, &c);
        for (i = 0; i < na; i++) {
            for (j = 0; j < nb; j++) {
                if ((ecs_sched__is_or_under(b, x, a[i]) && ecs_sched__is_or_under(b, y, c[j])) ||
                    (ecs_sched__is_or_under(b, y, a[i]) && ecs_sched__is_or_under(b, x, c[j]))) {
                    return true;
                }
            }
        }
    }
    return false;
}

/* The outermost set that holds x but not y, or x itself: how the report groups pairs. */
static int32_t ecs_sched__group_of(const ecs_sched__build *b, int32_t x, int32_t y) {
    int32_t set, best = x;
    for (set = 0; set < b->set_count; set++) {
        int32_t node = b->system_count + set;
        if (!ecs_sched__node_under(b, x, node) || ecs_sched__node_under(b, y, node)) continue;
        if (best == x || b->depth[set] < b->depth[best - b->system_count]) best = node;
    }
    return best;
}

static void ecs_sched__describe_conflict(ecs_sched__build *b, int32_t x, int32_t y) {
    static const char *const what[] = {"component", "component", "resource", "resource"};
    int32_t id, shown = 0, W = b->access_words;
    const ecs_sched_system_ctx *cx = &b->s->systems[x]->ctx, *cy = &b->s->systems[y]->ctx;
    if (cx->exclusive || cy->exclusive) {
        ecs_sched__text_printf(&b->text, "%s is exclusive", cx->exclusive ? "the first" : "the second");
        return;
    }
    for (id = 1; id < (int32_t)b->w->component_count && shown < 4; id++) {
        int k;
        for (k = 0; k < 4; k += 2) {
            bool xw = ecs_sched__bit(ecs_sched__access_of(b, x, k + 1), id);
            bool yw = ecs_sched__bit(ecs_sched__access_of(b, y, k + 1), id);
            bool xr = xw || ecs_sched__bit(ecs_sched__access_of(b, x, k), id);
            bool yr = yw || ecs_sched__bit(ecs_sched__access_of(b, y, k), id);
            if (!((xw && yr) || (yw && xr))) continue;
            ecs_sched__text_printf(&b->text, "%s%s '%s' (%s)", shown++ ? ", " : "", what[k],
                                   b->w->components[id].name,
                                   xw && yw ? "both write" : xw ? "first writes, second reads"
                                                               : "first reads, second writes");
        }
    }
    (void)W;
}

static int ecs_sched__compare_pairs(const void *pa, const void *pb) {
    const int32_t *a = (const int32_t *)pa, *c = (const int32_t *)pb;
    int i;
    for (i = 0; i < 4; i++) {
        if (a[i] != c[i]) return a[i] < c[i] ? -1 : 1;
    }
    return 0;
}

static ecs_sched_result ecs_sched__report_ambiguities(ecs_sched__build *b, int32_t *pairs,
                                                     int32_t found, ecs_sched_report level) {
    int32_t k;
    if (found == 0 || level == ECS_SCHED_REPORT_IGNORE) return ECS_SCHED_OK;
    /* without sets, pairs come out already grouped (by system) and in order */
    if (b->set_count > 0) qsort(pairs, (size_t)found, 4 * sizeof(int32_t), ecs_sched__compare_pairs);
    ecs_sched__text_begin(b);
    ecs_sched__text_printf(&b->text, "%d pair(s) of systems access the same data in conflicting "
                                     "ways and nothing orders them:",
                           (int)found);
    for (k = 0; k < found; k++) {
        const int32_t *p = pairs + 4 * k;
        char x[160], y[160];
        if (k == ECS_SCHED__MAX_REPORTED_PAIRS) {
            ecs_sched__text_printf(&b->text, "\n  ... and %d more pair(s)", (int)(found - k));
            break;
        }
        if (p[0] == p[2] && p[1] == p[3]) {
            ecs_sched__text_printf(&b->text, "\n  %s and %s: ",
                                   ecs_sched__node_label(b, p[2], x, sizeof x),
                                   ecs_sched__node_label(b, p[3], y, sizeof y));
            ecs_sched__describe_conflict(b, p[2], p[3]);
            continue;
        }
        if (k == 0 || p[0] != p[-4] || p[1] != p[-3]) {
            ecs_sched__text_printf(&b->text, "\n  between %s and %s:",
                                   ecs_sched__node_label(b, p[0], x, sizeof x),
                                   ecs_sched__node_label(b, p[1], y, sizeof y));
        }
        ecs_sched__text_printf(&b->text, "\n    %s and %s: ",
                               ecs_sched__node_label(b, p[2], x, sizeof x),
                               ecs_sched__node_label(b, p[3], y, sizeof y));
        ecs_sched__describe_conflict(b, p[2], p[3]);
    }
    ecs_sched__text_printf(&b->text, "\nOrder each pair (or their sets) with before/after, or, "
                                     "when either order is fine, declare them ambiguous_with "
                                     "each other");
    return ecs_sched__report(b, level, ECS_SCHED_ERR_AMBIGUITY);
}

/* Whether the plan must bind its order for a parallel executor (see ecs_sched__bind_plan_order);
   a schedule that runs on one thread needs none of it. */
static bool ecs_sched__binds_order(const ecs_sched__build *b) {
    return ecs_sched__runs_in_parallel(b->s);
}

static bool ecs_sched__add_serial_pair(ecs_sched__build *b, int32_t x, int32_t y) {
    if (!ECS_SCHED__GROW(&b->w->env, b->serial, &b->serial_capacity, 2 * (b->serial_count + 1))) {
        return false;
    }
    b->serial[2 * b->serial_count] = x;
    b->serial[2 * b->serial_count + 1] = y;
    b->serial_count++;
    return true;
}

/* The pairwise check as it goes: what it reads, and the ambiguous pairs found so far. */
typedef struct ecs_sched__pair_scan {
    ecs_sched__conflict_table table;
    uint8_t *with_all;            /* system -> ambiguous with everything */
    bool serial;                  /* unordered pairs that must not overlap are kept too */
    int32_t *pairs;               /* group x, group y, x, y; owned */
    uint32_t capacity;
    int32_t found;
} ecs_sched__pair_scan;

/* Whether systems x and y must not run at once: their access conflicts, or both record
   commands where that matters (commands_x: x does, and the order binds). Buffers reserve
   entities in the world as they record, so writers of commands take turns too; that is not
   reported as an ambiguity. */
static inline bool ecs_sched__clash(const ecs_sched__build *b, const ecs_sched__conflict_table *t,
                                    int32_t x, int32_t y, bool commands_x) {
    return ecs_sched__conflict(t, x, y) || (commands_x && b->s->systems[y]->ctx.commands);
}

/* Systems x < y clash: keeps them as a serial pair and as an ambiguity as they qualify.
   False when out of memory. */
static bool ecs_sched__keep_pair(ecs_sched__build *b, ecs_sched__pair_scan *scan, int32_t x,
                                 int32_t y) {
    bool conflict = ecs_sched__conflict(&scan->table, x, y);
    int32_t *p;
    if (ecs_sched__ordered(b, x, y)) return true;
    if (scan->serial && !ecs_sched__add_serial_pair(b, x, y)) return false;
    if (!conflict || ecs_sched__silenced(b, scan->with_all, x, y)) return true;
    if (!ECS_SCHED__GROW(&b->w->env, scan->pairs, &scan->capacity,
                         4 * (uint32_t)(scan->found + 1))) {
        return false;
    }
    p = scan->pairs + 4 * scan->found++;
    p[0] = ecs_sched__group_of(b, x, y);
    p[1] = ecs_sched__group_of(b, y, x);
    p[2] = x;
    p[3] = y;
    return true;
}

/* Every pair of systems, each looked at once. A system that only reads (or touches nothing)
   conflicts only with writers, and a schedule of many such systems has few writers: those are
   all its row need look at. */
static bool ecs_sched__scan_pairs(ecs_sched__build *b, ecs_sched__pair_scan *scan) {
    const ecs_sched__conflict_table table = scan->table;   /* a copy the calls cannot change */
    int32_t S = b->system_count, writer_count = 0, next_writer = 0, i, j;
    int32_t *writers = ECS_SCHED__ALLOC_N(b, int32_t, S);   /* ascending */
    if (!writers) return false;
    for (j = 0; j < S; j++) {
        if (table.kind[j]) writers[writer_count++] = j;
    }
    for (i = 0; i < S; i++) {
        bool commands_i = scan->serial && b->s->systems[i]->ctx.commands != NULL;
        while (next_writer < writer_count && writers[next_writer] <= i) next_writer++;
        if (table.kind[i] == 0 && !commands_i) {
            for (j = next_writer; j < writer_count; j++) {
                if (ecs_sched__clash(b, &table, i, writers[j], false) &&
                    !ecs_sched__keep_pair(b, scan, i, writers[j])) {
                    return false;
                }
            }
            continue;
        }
        for (j = i + 1; j < S; j++) {
            if (ecs_sched__clash(b, &table, i, j, commands_i) &&
                !ecs_sched__keep_pair(b, scan, i, j)) {
                return false;
            }
        }
    }
    return true;
}

/* Finds the pairs of systems that no path orders and that must not run at once; reports those
   whose access conflicts as ambiguities, unless silenced. */
static ecs_sched_result ecs_sched__check_ambiguities(ecs_sched__build *b) {
    ecs_sched__pair_scan scan;
    ecs_sched_result result;
    int32_t k;
    memset(&scan, 0, sizeof scan);
    scan.serial = ecs_sched__binds_order(b);
    scan.with_all = ecs_sched__ambiguous_with_all(b);
    if (!scan.with_all || !ecs_sched__conflict_table_make(b, &scan.table)) {
        return ecs_sched__oom(b);
    }
    if (!ecs_sched__scan_pairs(b, &scan) ||
        !(b->ambiguous = ECS_SCHED__ALLOC_N(b, int32_t, scan.found * 2))) {
        ecs_sched__free(&b->w->env, scan.pairs);
        return ecs_sched__oom(b);
    }
    b->ambiguous_count = scan.found;
    for (k = 0; k < scan.found; k++) {
        b->ambiguous[2 * k] = scan.pairs[4 * k + 2];
        b->ambiguous[2 * k + 1] = scan.pairs[4 * k + 3];
    }
    result = ecs_sched__report_ambiguities(b, scan.pairs, scan.found, b->s->settings.ambiguities);
    ecs_sched__free(&b->w->env, scan.pairs);
    return result;
}

/*=============================== src/plan.h (implementation) ================================*/
/* plan: sync points and the built plan. */

typedef struct ecs_sched__plan_node {
    ecs_sched__system *system;   /* NULL for an automatic sync point */
    int32_t dependency_count;    /* predecessors in the plan */
    int32_t successor_start;
    int32_t successor_count;
    int32_t guard_set_start;     /* sets whose conditions guard it, outermost first */
    int32_t guard_set_count;
    int32_t cond_start;          /* its own conditions */
    int32_t cond_count;
    bool sync;                   /* applies pending commands: automatic, or apply_deferred */
    bool exclusive;
    bool main_thread;            /* runs (and its conditions are evaluated) on the calling thread */
} ecs_sched__plan_node;

typedef struct ecs_sched__plan_set {
    int32_t name;
    int32_t cond_start;
    int32_t cond_count;
    int32_t first_node;          /* the first plan position it guards: where a failure of its
                                    conditions counts, whichever node had them evaluated */
} ecs_sched__plan_set;

/* A built schedule, in an order that respects every dependency. Per node: dependency count,
   successors, guarding sets, conditions and access, so an executor can run it in order or
   dispatch ready nodes in parallel. */
/* The parallel executor's state for a plan (executor.h). */
typedef struct ecs_sched__run ecs_sched__run;

/* The last few times of whole runs made one way. The parallel executor compares the least of
   each way's: noise (another process, a late wake-up) only ever adds time. */
#define ECS_SCHED__RECENT_RUNS 4
typedef struct ecs_sched__run_times {
    int64_t recent[ECS_SCHED__RECENT_RUNS];  /* nanoseconds; 0: not measured */
    int32_t next;
} ecs_sched__run_times;

struct ecs_sched__plan {
    ecs_sched__arena arena;
    int32_t node_count;
    ecs_sched__plan_node *nodes;
    int32_t *successors;          /* those no other path implies, binding edges included */
    int32_t *guard_sets;
    int32_t *conds;
    int32_t set_count;
    ecs_sched__plan_set *sets;
    uint8_t *set_state;          /* per run: 0 not evaluated, 1 true, 2 false */
    int32_t access_words;        /* per node: component reads, writes, resource reads, writes */
    uint64_t *access;
    int32_t exclusive_count;     /* exclusive nodes (sync points too), their positions in */
    int32_t *exclusive_at;       /* plan order: the runs between them can be spread */
    int32_t writer_count;        /* systems with command buffers, in plan order */
    ecs_sched__plan_node **writers;
    int32_t ambiguous_count;     /* unordered conflicting pairs, as plan positions */
    int32_t *ambiguous;
    ecs_sched__run *run_state;   /* the parallel executor's, one block, made on first use */
    /* how the parallel executor chooses (executor.h); nanoseconds, 0 until measured */
    int64_t work_ns;             /* what its non-exclusive nodes take, run in plan order */
    ecs_sched__run_times single;    /* whole runs on the calling thread */
    ecs_sched__run_times parallel;  /* whole parallel runs */
    uint32_t runs;               /* runs so far: measurements are taken on some of them */
    uint32_t parallel_runs;
    uint32_t retry_at;           /* the run that tries again the way that lost */
    uint32_t retry_every;
    uint32_t warmed_at;          /* the run that woke the workers for a parallel retry */
};

static void ecs_sched__plan_free(ecs_sched__env *env, ecs_sched__plan *plan) {
    if (!plan) return;
    ecs_sched__free(env, plan->run_state);
    ecs_sched__arena_free(&plan->arena);
    ecs_sched__free(env, plan);
}

/* ---- helpers of the plan ---- */

static int ecs_sched__compare_guard_sets(const void *pa, const void *pb, const int32_t *depth) {
    int32_t a = *(const int32_t *)pa, c = *(const int32_t *)pb;
    if (depth[a] != depth[c]) return depth[a] < depth[c] ? -1 : 1;
    return a < c ? -1 : a > c;
}

/* Outermost first: by depth, then by set number. */
static void ecs_sched__sort_guard_sets(int32_t *sets, int32_t n, const int32_t *depth) {
    int32_t i, j;
    for (i = 1; i < n; i++) {
        int32_t x = sets[i];
        for (j = i; j > 0 && ecs_sched__compare_guard_sets(&sets[j - 1], &x, depth) > 0; j--) {
            sets[j] = sets[j - 1];
        }
        sets[j] = x;
    }
}

#define ECS_SCHED__MAX_REDUCED_NODES 8192   /* above: N*N bits is too much; keep every edge */

/* Marks the plan edges that no other path implies (a transitive reduction). Dropping the rest
   keeps the order, leaves the executors fewer dependencies to count and the drawing readable.
   Nodes go from last to first in plan order; a node's successors in ascending position, so a
   successor that another one reaches is always seen after it. */
static uint8_t *ecs_sched__reduced_edges(ecs_sched__build *b, const ecs_sched__csr *g,
                                         const int32_t *order, const int32_t *position,
                                         int32_t N) {
    int32_t words = (N + 63) / 64, p, e, k;
    uint8_t *keep = ECS_SCHED__ALLOC_N(b, uint8_t, g->start[N]);
    uint64_t *reach, *next;
    int32_t *edge_of;
    if (!keep) return NULL;
    if (N > ECS_SCHED__MAX_REDUCED_NODES) {
        memset(keep, 1, (size_t)g->start[N]);
        return keep;
    }
    reach = ECS_SCHED__ALLOC_N(b, uint64_t, (int64_t)words * N);
    next = ECS_SCHED__ALLOC_N(b, uint64_t, words);
    edge_of = ECS_SCHED__ALLOC_N(b, int32_t, N);
    if (!reach || !next || !edge_of) return NULL;
    for (p = N - 1; p >= 0; p--) {
        int32_t v = order[p];
        uint64_t *mine = ecs_sched__row(reach, words, p);
        for (e = g->start[v + 1] - 1; e >= g->start[v]; e--) {  /* the first of duplicates wins */
            ecs_sched__set_bit(next, position[g->adj[e]]);
            edge_of[position[g->adj[e]]] = e;
        }
        for (k = 0; k < words; k++) {
            while (next[k]) {
                int32_t t = k * 64 + ecs_sched__lowest_bit(next[k]), j;
                const uint64_t *theirs = ecs_sched__row(reach, words, t);
                next[k] &= next[k] - 1;
                if (ecs_sched__bit(mine, t)) continue;
                keep[edge_of[t]] = 1;
                ecs_sched__set_bit(mine, t);
                for (j = t / 64; j < words; j++) mine[j] |= theirs[j];
            }
        }
    }
    return keep;
}

/* ---- the plan, step by step ----

   make_plan turns the ordered systems into the plan the executors run: automatic sync points
   placed, the order fixed and (for the parallel executor) made binding, conditions, guarding
   sets, access and the reduced edges copied out in plan order. Its steps fill the plan_ part
   of the build, which the DOT export reads too. */

/* Whether successor edge e of system v needs an automatic sync point: v leaves commands
   pending (ecs_sched__find_carriers), the edge keeps them (or leads to an exclusive system,
   which has the whole world and so must see them), and the successor is not an apply_deferred
   of its own. */
static bool ecs_sched__needs_sync(const ecs_sched__build *b, int32_t v, int32_t e) {
    const ecs_sched__system *t = b->s->systems[b->successors.adj[e]];
    return b->carries[v] && !t->is_apply_deferred && (!b->successor_ignore[e] || t->ctx.exclusive);
}

/* Each system gets the number of sync points that must run before it (its distance): one more
   than a predecessor whose edge needs a sync point, or that it is itself an explicit sync
   point. The edges that need a sync point for distance d share one: the first explicit sync
   point at that distance, else an automatic one, numbered after the systems. */
static ecs_sched_result ecs_sched__place_sync_points(ecs_sched__build *b) {
    const ecs_sched__csr *g = &b->successors;
    int32_t S = b->system_count, i, e;
    const uint8_t *explicit_sync = b->explicit_sync;
    b->sync_distance = ECS_SCHED__ALLOC_N(b, int32_t, S);
    b->sync_of_distance = ECS_SCHED__ALLOC_N(b, int32_t, S + 1);
    if (!b->sync_distance || !b->sync_of_distance) return ecs_sched__oom(b);
    b->plan_node_count = S;
    for (i = 0; i < S; i++) {
        int32_t v = b->order[i];
        for (e = g->start[v]; e < g->start[v + 1]; e++) {
            int32_t t = g->adj[e];
            int32_t d = b->sync_distance[v] + (ecs_sched__needs_sync(b, v, e) || explicit_sync[t]);
            if (d > b->sync_distance[t]) b->sync_distance[t] = d;
        }
    }
    for (i = 0; i <= S; i++) b->sync_of_distance[i] = -1;
    for (i = 0; i < S; i++) {
        int32_t v = b->order[i];
        if (explicit_sync[v] && b->sync_of_distance[b->sync_distance[v]] < 0) {
            b->sync_of_distance[b->sync_distance[v]] = v;
        }
    }
    for (i = 0; i < S; i++) {
        int32_t v = b->order[i];
        for (e = g->start[v]; e < g->start[v + 1]; e++) {
            int32_t d = b->sync_distance[g->adj[e]];
            if (ecs_sched__needs_sync(b, v, e) && b->sync_of_distance[d] < 0) {
                b->sync_of_distance[d] = b->plan_node_count++;
            }
        }
    }
    return ECS_SCHED_OK;
}

/* The dependencies between plan nodes: each one between systems, and the same through the
   sync point it needs. Many edges share a sync point: the repeats are dropped. */
static ecs_sched_result ecs_sched__connect_plan_nodes(ecs_sched__build *b) {
    const ecs_sched__csr *g = &b->successors;
    ecs_sched__edges list;
    int64_t count = 0;
    int32_t v, e;
    for (v = 0; v < b->system_count; v++) {
        for (e = g->start[v]; e < g->start[v + 1]; e++) count += ecs_sched__needs_sync(b, v, e) ? 3 : 1;
    }
    if (!ecs_sched__edges_begin(b, &list, count)) return ecs_sched__oom(b);
    for (v = 0; v < b->system_count; v++) {
        for (e = g->start[v]; e < g->start[v + 1]; e++) {
            int32_t t = g->adj[e];
            ecs_sched__edge_add(&list, v, t);
            if (ecs_sched__needs_sync(b, v, e)) {
                int32_t sync = b->sync_of_distance[b->sync_distance[t]];
                ecs_sched__edge_add(&list, v, sync);
                ecs_sched__edge_add(&list, sync, t);
            }
        }
    }
    if (!ecs_sched__edges_end(b, &list, b->plan_node_count, &b->plan_edges) ||
        !ecs_sched__csr_drop_duplicates(b, &b->plan_edges)) {
        return ecs_sched__oom(b);
    }
    return ECS_SCHED_OK;
}

/* Asked for, or a main-thread-only resource among what it (or a condition guarding it)
   declares. */
static bool ecs_sched__runs_on_main_thread(const ecs_sched__build *b, int32_t system) {
    const ecs_sched_world *w = b->w;
    const uint64_t *reads = ecs_sched__access_of(b, system, ECS_SCHED__RES_READ);
    const uint64_t *writes = ecs_sched__access_of(b, system, ECS_SCHED__RES_WRITE);
    uint32_t id;
    if (b->s->systems[system]->main_thread) return true;
    for (id = 1; id < w->component_count; id++) {
        if (w->components[id].non_send &&
            (ecs_sched__bit(reads, (int32_t)id) || ecs_sched__bit(writes, (int32_t)id))) {
            return true;
        }
    }
    return false;
}

static bool ecs_sched__plan_node_exclusive(const ecs_sched__build *b, int32_t node) {
    return node >= b->system_count || b->s->systems[node]->ctx.exclusive;
}

/* plan_bound: plan_edges and the edges that make the plan's order binding wherever running at
   once could change the result: each serial pair in plan order, and each exclusive node
   (exclusive systems, apply_deferred, sync points) after everything before it and before
   everything after it. The order does not change. A parallel executor then needs no access
   checks at run time and gives the single-threaded result. */
static bool ecs_sched__bind_plan_order(ecs_sched__build *b) {
    const int32_t *order = b->plan_order, *position = b->plan_position;
    int32_t N = b->plan_node_count, i, q;
    int64_t exclusive = 0;
    uint32_t k;
    ecs_sched__edges list;
    for (i = 0; i < N; i++) exclusive += ecs_sched__plan_node_exclusive(b, i);
    if (exclusive == 0 && b->serial_count == 0) return true;  /* nothing to bind */
    if (!ecs_sched__edges_begin(b, &list, (int64_t)b->plan_edges.start[N] + b->serial_count +
                                              exclusive * N)) {
        return false;
    }
    ecs_sched__edges_add_graph(&list, &b->plan_edges, false);
    for (k = 0; k < b->serial_count; k++) {
        int32_t x = b->serial[2 * k], y = b->serial[2 * k + 1];
        bool x_first = position[x] < position[y];
        ecs_sched__edge_add(&list, x_first ? x : y, x_first ? y : x);
    }
    for (i = 0; i < N; i++) {
        if (!ecs_sched__plan_node_exclusive(b, i)) continue;
        for (q = 0; q < N; q++) {
            if (q < position[i]) ecs_sched__edge_add(&list, order[q], i);
            if (q > position[i]) ecs_sched__edge_add(&list, i, order[q]);
        }
    }
    return ecs_sched__edges_end(b, &list, N, &b->plan_bound);
}

/* The plan's order: the systems' tie-break keys, the sync points after them in the order
   they were numbered; then, when the executor may run nodes at once, the binding edges. */
static ecs_sched_result ecs_sched__order_plan(ecs_sched__build *b) {
    int32_t N = b->plan_node_count, S = b->system_count, i;
    int32_t *key = ECS_SCHED__ALLOC_N(b, int32_t, N);
    b->plan_order = ECS_SCHED__ALLOC_N(b, int32_t, N);
    b->plan_position = ECS_SCHED__ALLOC_N(b, int32_t, N);
    if (!key || !b->plan_order || !b->plan_position) return ecs_sched__oom(b);
    for (i = 0; i < S; i++) key[i] = b->key[i];
    for (i = S; i < N; i++) key[i] = S + i;
    if (ecs_sched__toposort(b, &b->plan_edges, key, b->plan_order) != N) return ecs_sched__oom(b);
    for (i = 0; i < N; i++) b->plan_position[b->plan_order[i]] = i;
    b->plan_bound = b->plan_edges;
    if (ecs_sched__binds_order(b) && !ecs_sched__bind_plan_order(b)) return ecs_sched__oom(b);
    return ECS_SCHED_OK;
}

/* The sets with conditions become the plan's sets, numbered in the order their first
   condition was added. */
static ecs_sched_result ecs_sched__number_plan_sets(ecs_sched__build *b, ecs_sched__plan *plan) {
    const ecs_sched__schedule *s = b->s;
    int32_t S = b->system_count, i;
    uint32_t k;
    b->plan_set_of = ECS_SCHED__ALLOC_N(b, int32_t, b->set_count);
    if (!b->plan_set_of) return ecs_sched__oom(b);
    for (i = 0; i < b->set_count; i++) b->plan_set_of[i] = -1;
    for (k = 0; k < s->guard_count; k++) {
        int32_t single;
        const int32_t *node;
        ecs_sched__ref_nodes(b, s->guards[k].subject, &single, &node);
        if (node[0] >= S && b->plan_set_of[node[0] - S] < 0) {
            b->plan_set_of[node[0] - S] = plan->set_count++;
        }
    }
    return ECS_SCHED_OK;
}

/* n items of type in the plan's own arena (the plan outlives the build), zeroed. */
#define ECS_SCHED__PLAN_ALLOC_N(plan, type, n) \
    ((type *)ecs_sched__arena_alloc(&(plan)->arena, sizeof(type) * ((size_t)(n) + 1)))

static ecs_sched_result ecs_sched__allocate_plan(ecs_sched__build *b, ecs_sched__plan *plan) {
    int32_t N = b->plan_node_count;
    plan->node_count = N;
    plan->nodes = ECS_SCHED__PLAN_ALLOC_N(plan, ecs_sched__plan_node, N);
    plan->successors = ECS_SCHED__PLAN_ALLOC_N(plan, int32_t, b->plan_bound.start[N]);
    plan->sets = ECS_SCHED__PLAN_ALLOC_N(plan, ecs_sched__plan_set, plan->set_count);
    plan->set_state = ECS_SCHED__PLAN_ALLOC_N(plan, uint8_t, plan->set_count);
    plan->conds = ECS_SCHED__PLAN_ALLOC_N(plan, int32_t, b->s->guard_count);
    plan->access_words = b->access_words;
    plan->access = ECS_SCHED__PLAN_ALLOC_N(plan, uint64_t, 4 * (size_t)b->access_words * (size_t)N);
    plan->writers = ECS_SCHED__PLAN_ALLOC_N(plan, ecs_sched__plan_node *, b->system_count);
    plan->exclusive_at = ECS_SCHED__PLAN_ALLOC_N(plan, int32_t, N);
    plan->ambiguous = ECS_SCHED__PLAN_ALLOC_N(plan, int32_t, 2 * (size_t)b->ambiguous_count);
    if (!plan->nodes || !plan->successors || !plan->sets || !plan->set_state || !plan->conds ||
        !plan->access || !plan->writers || !plan->exclusive_at || !plan->ambiguous) {
        return ecs_sched__oom(b);
    }
    return ECS_SCHED_OK;
}

/* The conditions, in one array: those of the plan sets first, grouped per set, then each
   system's own. Each node gets its system, its flags and its access. */
static ecs_sched_result ecs_sched__describe_plan_nodes(ecs_sched__build *b, ecs_sched__plan *plan) {
    const ecs_sched__schedule *s = b->s;
    int32_t S = b->system_count, at = 0, set, i;
    size_t words = 4 * (size_t)b->access_words;   /* per node */
    uint32_t k;
    for (set = 0; set < b->set_count; set++) {
        ecs_sched__plan_set *ps;
        if (b->plan_set_of[set] < 0) continue;
        ps = &plan->sets[b->plan_set_of[set]];
        ps->name = b->name_of_set[set];
        ps->cond_start = at;
        for (k = 0; k < s->guard_count; k++) {
            int32_t single;
            const int32_t *node;
            ecs_sched__ref_nodes(b, s->guards[k].subject, &single, &node);
            if (node[0] == S + set) plan->conds[at++] = s->guards[k].cond;
        }
        ps->cond_count = at - ps->cond_start;
    }
    for (i = 0; i < b->plan_node_count; i++) {
        int32_t p = b->plan_position[i];
        ecs_sched__plan_node *pn = &plan->nodes[p];
        if (i >= S) {   /* an automatic sync point */
            pn->sync = true;
            pn->exclusive = true;
            continue;
        }
        pn->system = s->systems[i];
        pn->sync = pn->system->is_apply_deferred;
        pn->exclusive = pn->system->ctx.exclusive;
        pn->main_thread = ecs_sched__runs_on_main_thread(b, i);
        pn->cond_start = at;
        for (k = 0; k < s->guard_count; k++) {
            if (s->guards[k].subject == i) plan->conds[at++] = s->guards[k].cond;
        }
        pn->cond_count = at - pn->cond_start;
        memcpy(plan->access + (size_t)p * words, b->access + (size_t)i * words,
               sizeof(uint64_t) * words);
    }
    plan->exclusive_count = 0;
    for (i = 0; i < plan->node_count; i++) {
        if (plan->nodes[i].exclusive) plan->exclusive_at[plan->exclusive_count++] = i;
    }
    return ECS_SCHED_OK;
}

/* The plan sets that guard system i (the sets with conditions it is under) in set order, read
   from its ancestor bits; written to out unless it is NULL. Returns how many. */
static int32_t ecs_sched__guard_sets_of(const ecs_sched__build *b, int32_t i, int32_t *out) {
    const uint64_t *bits = ecs_sched__row(b->ancestors, b->set_words, i);
    int32_t n = 0, k;
    for (k = 0; k < b->set_words; k++) {
        uint64_t word;
        for (word = bits[k]; word; word &= word - 1) {
            int32_t plan_set = b->plan_set_of[k * 64 + ecs_sched__lowest_bit(word)];
            if (plan_set < 0) continue;
            if (out) out[n] = plan_set;
            n++;
        }
    }
    return n;
}

/* Each system's guarding plan sets, outermost first. */
static ecs_sched_result ecs_sched__plan_guard_sets(ecs_sched__build *b, ecs_sched__plan *plan) {
    int32_t S = b->system_count, total = 0, at = 0, set, i;
    int32_t *depth_of_plan_set = ECS_SCHED__ALLOC_N(b, int32_t, plan->set_count);
    if (!depth_of_plan_set) return ecs_sched__oom(b);
    for (set = 0; set < b->set_count; set++) {
        if (b->plan_set_of[set] >= 0) depth_of_plan_set[b->plan_set_of[set]] = b->depth[set];
    }
    for (i = 0; i < S; i++) total += ecs_sched__guard_sets_of(b, i, NULL);
    plan->guard_sets = ECS_SCHED__PLAN_ALLOC_N(plan, int32_t, total);
    if (!plan->guard_sets) return ecs_sched__oom(b);
    for (set = 0; set < plan->set_count; set++) plan->sets[set].first_node = INT32_MAX;
    for (i = 0; i < S; i++) {
        int32_t p = b->plan_position[i], k;
        ecs_sched__plan_node *pn = &plan->nodes[p];
        pn->guard_set_start = at;
        pn->guard_set_count = ecs_sched__guard_sets_of(b, i, plan->guard_sets + at);
        for (k = 0; k < pn->guard_set_count; k++) {
            ecs_sched__plan_set *ps = &plan->sets[plan->guard_sets[at + k]];
            if (p < ps->first_node) ps->first_node = p;
        }
        at += pn->guard_set_count;
        ecs_sched__sort_guard_sets(plan->guard_sets + pn->guard_set_start, pn->guard_set_count,
                                   depth_of_plan_set);
    }
    return ECS_SCHED_OK;
}

/* The bound edges no other path implies, as plan positions, and each node's dependency count;
   the systems with command buffers, in plan order. */
static ecs_sched_result ecs_sched__plan_successors(ecs_sched__build *b, ecs_sched__plan *plan) {
    const ecs_sched__csr *g = &b->plan_bound;
    const uint8_t *keep = ecs_sched__reduced_edges(b, g, b->plan_order, b->plan_position,
                                                   b->plan_node_count);
    int32_t at = 0, p, e;
    if (!keep) return ecs_sched__oom(b);
    for (p = 0; p < plan->node_count; p++) {
        int32_t v = b->plan_order[p];
        ecs_sched__plan_node *pn = &plan->nodes[p];
        pn->successor_start = at;
        for (e = g->start[v]; e < g->start[v + 1]; e++) {
            int32_t t = b->plan_position[g->adj[e]];
            if (!keep[e]) continue;
            plan->successors[at++] = t;
            plan->nodes[t].dependency_count++;
        }
        pn->successor_count = at - pn->successor_start;
        if (pn->system && pn->system->ctx.commands) plan->writers[plan->writer_count++] = pn;
    }
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__plan_ambiguities(ecs_sched__build *b, ecs_sched__plan *plan) {
    int32_t i;
    for (i = 0; i < 2 * b->ambiguous_count; i++) {
        plan->ambiguous[i] = b->plan_position[b->ambiguous[i]];
    }
    plan->ambiguous_count = b->ambiguous_count;
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__make_plan(ecs_sched__build *b, ecs_sched__plan *plan) {
    ecs_sched_result result = ecs_sched__place_sync_points(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__connect_plan_nodes(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__order_plan(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__number_plan_sets(b, plan);
    if (result == ECS_SCHED_OK) result = ecs_sched__allocate_plan(b, plan);
    if (result == ECS_SCHED_OK) result = ecs_sched__describe_plan_nodes(b, plan);
    if (result == ECS_SCHED_OK) result = ecs_sched__plan_guard_sets(b, plan);
    if (result == ECS_SCHED_OK) result = ecs_sched__plan_successors(b, plan);
    if (result == ECS_SCHED_OK) result = ecs_sched__plan_ambiguities(b, plan);
    return result;
}

/* Every pass of a build, in order, ending with the plan. */
static ecs_sched_result ecs_sched__build_passes(ecs_sched__build *b, ecs_sched__plan *plan) {
    ecs_sched_result result = ecs_sched__resolve_names(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__build_hierarchy(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_duplicate_names(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__collect_dependencies(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_unknown_sets(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_condition_access(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__flatten(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__order_systems(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__compute_access(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__check_ambiguities(b);
    if (result == ECS_SCHED_OK) result = ecs_sched__make_plan(b, plan);
    return result;
}

static ecs_sched__plan *ecs_sched__plan_create(ecs_sched_world *w) {
    ecs_sched__plan *plan = (ecs_sched__plan *)ecs_sched__calloc(&w->env, sizeof *plan);
    if (plan) ecs_sched__arena_init(&plan->arena, &w->env);
    return plan;
}

/* Builds a schedule's plan. A failed build leaves the schedule as it was. */
static ecs_sched_result ecs_sched__build_schedule(ecs_sched_world *w, ecs_sched__schedule *s) {
    ecs_sched__build b;
    ecs_sched_result result;
    ecs_sched__plan *plan = ecs_sched__plan_create(w);
    if (!plan) return ecs_sched__out_of_memory(w, "building a schedule");
    ecs_sched__build_begin(&b, w, s);
    result = ecs_sched__build_passes(&b, plan);
    ecs_sched__build_end(&b);
    if (result != ECS_SCHED_OK) {
        ecs_sched__plan_free(&w->env, plan);
        return result;
    }
    ecs_sched__plan_free(&w->env, s->plan);
    s->plan = plan;
    s->built = true;
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__ensure_built(ecs_sched_world *w, ecs_sched__schedule *s) {
    if (s->built) return ECS_SCHED_OK;
    if (s->running) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_SCHEDULE_RUNNING,
                               "schedule '%s' was changed while it runs, so it cannot be built "
                               "now; it is rebuilt when its next run starts",
                               s->label);
    }
    return ecs_sched__build_schedule(w, s);
}

ecs_sched_result ecs_sched_schedule_build(ecs_sched_world *w, const char *label) {
    ecs_sched__schedule *s;
    ECS_SCHED__CHECK_WORLD(w);
    s = ecs_sched__schedule_known(w, label);
    if (!s) return w->env.last_result;
    return ecs_sched__ensure_built(w, s);
}

static const char *ecs_sched__plan_node_name(const ecs_sched__plan_node *pn) {
    return pn->system ? pn->system->ctx.name : "apply_deferred";
}

int32_t ecs_sched_schedule_order(ecs_sched_world *w, const char *label, const char **names,
                                 int32_t capacity) {
    ecs_sched__schedule *s;
    int32_t i;
    ECS_SCHED__CHECK_WORLD(w);
    s = ecs_sched__schedule_known(w, label);
    if (!s || ecs_sched__ensure_built(w, s) != ECS_SCHED_OK) return -1;
    for (i = 0; i < s->plan->node_count && i < capacity; i++) {
        names[i] = ecs_sched__plan_node_name(&s->plan->nodes[i]);
    }
    return s->plan->node_count;
}

/*============================== src/change.h (implementation) ===============================*/
/* change: change ticks, iteration by what changed, and keeping old ticks meaningful.

   A tick is a 32-bit count that wraps. A tracked component keeps, per entity, the tick it was
   added and the tick it last changed (ticks.h); a resource keeps the same. A reader (a system
   or condition, through its context, or a query outside systems) sees a change when the
   change is newer than the reader's previous look and no newer than this one: what counts is
   age, now - tick, so that wrapping does not matter as long as no age passes 2^32. Ages are
   kept below that by a check at the start of schedule runs, once every
   ECS_SCHED__TICK_CHECK_EVERY ticks: every tick older than ECS_SCHED__TICK_MAX_AGE is moved
   up to just past that age, in an order that keeps every comparison between a change and a
   reader as it was (the readers' old ticks are ranked, and each old change is placed between
   the ranks it fell between). So a system that has not run for a very long time still sees
   exactly the changes made since it last ran. */

#define ECS_SCHED__TICK_CHECK_EVERY (UINT32_C(1) << 29)
#define ECS_SCHED__TICK_MAX_AGE (UINT32_MAX - (UINT32_C(1) << 30) - (UINT32_C(1) << 20))
#define ECS_SCHED__TICK_MAX_READERS (UINT32_C(1) << 18)   /* old readers the check can rank */

uint32_t ecs_sched_change_tick(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__tick_load(w);
}

/* ---- the window an iteration sees ---- */

/* Inside a system or condition: the changes since its previous run. Outside: since this
   query's previous iteration, which takes a tick of its own. */
static void ecs_sched__iter_window(const ecs_sched_query *q, uint32_t *last_run,
                                   uint32_t *this_run) {
    ecs_sched_query *own = (ecs_sched_query *)(uintptr_t)q;   /* its own window moves on */
    const ecs_sched_system_ctx *ctx =
        (const ecs_sched_system_ctx *)ecs_sched__running_in(&q->world->env);
    if (ctx && !ctx->applying) {
        *last_run = ctx->last_run;
        *this_run = ctx->this_run;
        return;
    }
    *last_run = own->last_iter;
    *this_run = own->last_iter = ecs_sched__tick_take(own->world);
}

/* ---- iteration by runs of rows ---- */

/* The tick column of term `term` in the table of match m (-1: untracked). */
static inline int32_t ecs_sched__tick_index(const ecs_sched_query *q, const ecs_sched__match *m,
                                            int32_t term) {
    return q->match_ticks[m - q->matches].of[term];
}

/* What an iteration compares ticks with. */
typedef struct ecs_sched__window {
    uint32_t this_run;
    uint32_t span;       /* this_run - last_run: a tick is newer when this_run - tick < span */
} ecs_sched__window;

static inline bool ecs_sched__in_window(ecs_sched__window win, uint32_t tick) {
    return (uint32_t)(win.this_run - tick) < win.span;
}

/* The rows of block `block` (from `first` on, below `count`) whose tick passes, as bits. */
static uint64_t ecs_sched__block_bits(const uint32_t *ticks, int32_t block, int32_t first,
                                      int32_t count, ecs_sched__window win) {
    int32_t base = block * ECS_SCHED__TICK_BLOCK, end = base + ECS_SCHED__TICK_BLOCK, r;
    uint64_t bits = 0;
    if (end > count) end = count;
    for (r = base; r < end; r++) {
        uint64_t in = ecs_sched__in_window(win, ticks[r]) ? 1u : 0u;
        bits |= in << (r - base);
    }
    return bits & (~(uint64_t)0 << (first - base));
}

/* Of the rows `bits` of a block, those with the targets of the query's related terms. */
static uint64_t ecs_sched__related_bits(const ecs_sched_query *q, const ecs_sched__match *m,
                                        int32_t block, uint64_t bits) {
    uint64_t out = 0;
    while (bits) {
        int32_t bit = ecs_sched__lowest_bit(bits);
        if (ecs_sched__row_related(q, m, block * ECS_SCHED__TICK_BLOCK + bit)) out |= (uint64_t)1 << bit;
        bits &= bits - 1u;
    }
    return out;
}

/* The rows of a block that pass every filter term of the query, from `first` on. */
static uint64_t ecs_sched__filtered_bits(const ecs_sched_query *q, const ecs_sched__match *m,
                                         int32_t block, int32_t first, ecs_sched__window win) {
    const ecs_sched__table *t = m->table;
    uint64_t bits = ~(uint64_t)0 << (first - block * ECS_SCHED__TICK_BLOCK);
    int32_t i, rows = t->count - block * ECS_SCHED__TICK_BLOCK;
    if (rows < ECS_SCHED__TICK_BLOCK) bits &= ((uint64_t)1 << rows) - 1u;
    if (q->related) bits &= ecs_sched__related_bits(q, m, block, bits);
    for (i = 0; i < q->term_count && bits; i++) {
        const ecs_sched__ticks *k;
        ecs_sched_term_kind kind = q->terms[i].kind;
        if (!ecs_sched__term_filters(kind)) continue;
        k = &t->ticks[ecs_sched__tick_index(q, m, i)];
        if (kind == ECS_SCHED_TERM_CHANGED) {
            if (k->has_bulk && ecs_sched__in_window(win, k->bulk)) continue;
            if (!ecs_sched__in_window(win, k->newest[block])) return 0;
            bits &= ecs_sched__block_bits(k->changed, block, first, t->count, win);
        } else {
            /* a row is changed whenever it is added, so changed ticks bound added ones */
            if (!(k->has_bulk && ecs_sched__in_window(win, k->bulk)) &&
                !ecs_sched__in_window(win, k->newest[block])) {
                return 0;
            }
            bits &= ecs_sched__block_bits(k->added, block, first, t->count, win);
        }
    }
    return bits;
}

/* The next run [*begin, *end) of rows of the match's table at or after `from` that pass the
   query's filters; false when none is left. */
static bool ecs_sched__next_rows(const ecs_sched_query *q, const ecs_sched__match *m,
                                 int32_t from, ecs_sched__window win, int32_t *begin,
                                 int32_t *end) {
    int32_t count = m->table->count, block;
    uint64_t bits;
    if (!q->filtered) {
        *begin = from;
        *end = count;
        return from < count;
    }
    for (;;) {
        if (from >= count) return false;
        block = from / ECS_SCHED__TICK_BLOCK;
        bits = ecs_sched__filtered_bits(q, m, block, from, win);
        if (bits) break;
        from = (block + 1) * ECS_SCHED__TICK_BLOCK;
    }
    *begin = block * ECS_SCHED__TICK_BLOCK + ecs_sched__lowest_bit(bits);
    /* the run goes on while the rows after it pass, into the next blocks if need be */
    for (;;) {
        uint64_t gaps = ~bits & (~(uint64_t)0 << (*begin > block * ECS_SCHED__TICK_BLOCK
                                                      ? *begin - block * ECS_SCHED__TICK_BLOCK
                                                      : 0));
        if (gaps) {
            *end = block * ECS_SCHED__TICK_BLOCK + ecs_sched__lowest_bit(gaps);
            break;
        }
        block++;
        if (block * ECS_SCHED__TICK_BLOCK >= count) {
            *end = count;
            break;
        }
        bits = ecs_sched__filtered_bits(q, m, block, block * ECS_SCHED__TICK_BLOCK, win);
        if (!(bits & 1u)) {
            *end = block * ECS_SCHED__TICK_BLOCK;
            break;
        }
    }
    if (*end > count) *end = count;
    return true;
}

/* Rows [begin, end) of a tick column of t changed at `tick`. */
static void ecs_sched__ticks_mark(ecs_sched_world *w, const ecs_sched__table *t,
                                  ecs_sched__ticks *k, int32_t begin, int32_t end, uint32_t tick) {
    uint32_t now = ecs_sched__tick_load(w) + 1u;
    int32_t r;
    for (r = begin; r < end; r++) ecs_sched__ticks_change(w, t, k, r, tick, now);
}

/* The rows handed out for writing are changed: the whole table at once by a bulk mark, a run
   row by row. */
static void ecs_sched__mark_written(const ecs_sched_query *q, const ecs_sched__match *m,
                                    int32_t begin, int32_t end, uint32_t tick) {
    ecs_sched__table *t = m->table;
    ecs_sched_world *w = q->world;
    uint32_t now;
    int32_t i;
    if (!q->marks) return;
    now = ecs_sched__tick_load(w) + 1u;
    for (i = 0; i < q->term_count; i++) {
        ecs_sched__ticks *k;
        if (ecs_sched__tick_index(q, m, i) < 0 || !ecs_sched__term_marks(q->terms[i].kind)) continue;
        k = &t->ticks[ecs_sched__tick_index(q, m, i)];
        if (begin == 0 && end == t->count) {
            k->bulk = k->has_bulk ? ecs_sched__tick_newest(k->bulk, tick, now) : tick;
            k->has_bulk = true;
        } else {
            ecs_sched__ticks_mark(w, t, k, begin, end, tick);
        }
    }
}

/* ---- iteration by the change log ---- */

/* The tick column whose log a filtered query follows: that of its first filter term. */
static inline ecs_sched__ticks *ecs_sched__log_column(const ecs_sched_query *q,
                                                      const ecs_sched__match *m) {
    return &m->table->ticks[ecs_sched__tick_index(q, m, q->log_term)];
}

/* Where in the log of the match's table an iteration with this window starts, or -1 when the
   log cannot tell every row the window needs (it was cut after the window opened, or a whole
   table mark in the window never went into it): then every row is looked at. */
static int32_t ecs_sched__log_start(const ecs_sched_query *q, const ecs_sched__match *m,
                                    ecs_sched__window win) {
    const ecs_sched__ticks *k = ecs_sched__log_column(q, m);
    const ecs_sched__change_log *log = &k->log;
    uint32_t lo = 0, hi = log->count, last_age = win.span;
    int32_t i;
    for (i = 0; i < q->term_count; i++) {
        const ecs_sched__ticks *f;
        if (!ecs_sched__term_filters(q->terms[i].kind)) continue;
        f = &m->table->ticks[ecs_sched__tick_index(q, m, i)];
        if (f->has_bulk && ecs_sched__in_window(win, f->bulk)) return -1;
    }
    if (log->truncated && (uint32_t)(win.this_run - log->since) < last_age) return -1;
    while (lo < hi) {   /* the first entry logged since the window opened */
        uint32_t mid = (lo + hi) / 2;
        const ecs_sched__change *e = &log->items[(log->start + mid) & (log->capacity - 1)];
        if ((uint32_t)(win.this_run - e->seq) > last_age) lo = mid + 1;
        else hi = mid;
    }
    return (int32_t)lo;
}

/* Whether a log entry still stands for a row, and the row passes every filter. A live entry
   knows its row's changed tick: a query whose only filter is changed on the log's column
   reads no other tick. */
static inline bool ecs_sched__entry_passes(const ecs_sched_query *q, const ecs_sched__match *m,
                                           const ecs_sched__change *e, ecs_sched__window win) {
    int32_t i, row = (int32_t)e->row;
    if (e->row == ECS_SCHED__DEAD_ROW) return false;
    if (q->filter_count == 1 && q->terms[q->log_term].kind == ECS_SCHED_TERM_CHANGED) {
        return ecs_sched__in_window(win, e->changed);
    }
    for (i = 0; i < q->term_count; i++) {
        const ecs_sched__ticks *f;
        ecs_sched_term_kind kind = q->terms[i].kind;
        if (!ecs_sched__term_filters(kind)) continue;
        f = &m->table->ticks[ecs_sched__tick_index(q, m, i)];
        if (!ecs_sched__in_window(win, kind == ECS_SCHED_TERM_ADDED ? f->added[row] : f->changed[row])) {
            return false;
        }
    }
    return true;
}

/* Readers of the log go through its entries in order; what they will look at next is
   fetched this many entries ahead, so that the misses of a sparse walk overlap. */
#define ECS_SCHED__LOG_LOOKAHEAD 32

static inline void ecs_sched__log_prefetch(const ecs_sched_query *q, const ecs_sched__match *m,
                                           const ecs_sched__change *e) {
#if defined(__GNUC__) || defined(__clang__)
    const ecs_sched__table *t = m->table;
    int32_t i;
    if (e->row == ECS_SCHED__DEAD_ROW) return;
    for (i = 0; i < q->term_count; i++) {
        if (m->column[i] >= 0) {
            const ecs_sched__column *col = &t->columns[m->column[i]];
            __builtin_prefetch(col->data + (size_t)e->row * col->size);
        }
    }
#else
    (void)q; (void)m; (void)e;
#endif
}

/* The next run of rows from the log, entries from *at on: rows that pass, consecutive in the
   table and in the log. */
static bool ecs_sched__log_rows(const ecs_sched_query *q, const ecs_sched__match *m,
                                int32_t *at, ecs_sched__window win, int32_t *begin, int32_t *end) {
    const ecs_sched__ticks *k = ecs_sched__log_column(q, m);
    const ecs_sched__change_log *log = &k->log;
    uint32_t mask = log->capacity - 1, i = (uint32_t)*at;
    while (i < log->count) {
        const ecs_sched__change *e = &log->items[(log->start + i++) & mask];
        if (i + ECS_SCHED__LOG_LOOKAHEAD < log->count) {
            ecs_sched__log_prefetch(q, m, &log->items[(log->start + i + ECS_SCHED__LOG_LOOKAHEAD) & mask]);
        }
        if (!ecs_sched__entry_passes(q, m, e, win)) continue;
        *begin = (int32_t)e->row;
        *end = *begin + 1;
        while (i < log->count) {
            const ecs_sched__change *next = &log->items[(log->start + i) & mask];
            if (next->row != (uint32_t)*end || !ecs_sched__entry_passes(q, m, next, win)) break;
            (*end)++;
            i++;
        }
        *at = (int32_t)i;
        return true;
    }
    *at = (int32_t)i;
    return false;
}

static inline ecs_sched__window ecs_sched__iter_window_of(const ecs_sched_iter *it) {
    ecs_sched__window win;
    win.this_run = it->this_run_;
    win.span = it->this_run_ - it->last_run_;
    return win;
}

/* The match an iteration is in, moving on to the next one when this one is done (and
   finding where in its log to start); NULL when every match is done. */
static const ecs_sched__match *ecs_sched__iter_match(ecs_sched_iter *it, ecs_sched__window win) {
    const ecs_sched_query *q = it->query_;
    while (it->next_ == 0 || (it->at_ < 0 && it->row_ >= q->matches[it->next_ - 1].table->count)) {
        const ecs_sched__match *m;
        if ((uint32_t)it->next_ >= q->match_count) return NULL;
        m = &q->matches[it->next_++];
        it->row_ = 0;
        /* a related query scans its rows: the log cannot tell targets */
        it->at_ = q->filter_count && !q->related && m->table->count ? ecs_sched__log_start(q, m, win)
                                                                     : -1;
    }
    return &q->matches[it->next_ - 1];
}

/* Kept out of ecs_sched_iter_next, whose common case stays small. */
ECS_SCHED__NOINLINE static bool ecs_sched__iter_next_ticked(ecs_sched_iter *it) {
    const ecs_sched_query *q = it->query_;
    ecs_sched__window win;
    if (q->listed) return ecs_sched__iter_next_hier(it, false);
    if (it->row_ < 0) {   /* the first call: the window opens now */
        ecs_sched__iter_window(q, &it->last_run_, &it->this_run_);
        it->row_ = 0;
        it->at_ = -1;
        it->by_rows_ = false;
    }
    win = ecs_sched__iter_window_of(it);
    for (;;) {
        const ecs_sched__match *m = ecs_sched__iter_match(it, win);
        const ecs_sched__table *t;
        int32_t begin, end, i;
        bool found;
        if (!m) break;
        t = m->table;
        found = it->at_ >= 0 ? ecs_sched__log_rows(q, m, &it->at_, win, &begin, &end)
                             : ecs_sched__next_rows(q, m, it->row_, win, &begin, &end);
        if (!found) {
            it->row_ = t->count;
            it->at_ = -1;
            continue;
        }
        it->row_ = end;
        it->count = end - begin;
        it->entities = t->entities + begin;
        for (i = 0; i < q->term_count; i++) {
            const ecs_sched__column *col = m->column[i] >= 0 ? &t->columns[m->column[i]] : NULL;
            it->fields[i] = col ? col->data + (size_t)begin * col->size : NULL;
        }
        ecs_sched__mark_written(q, m, begin, end, it->this_run_);
        return true;
    }
    it->count = 0;
    return false;
}

/* ---- iteration by index ---- */

/* Up to ECS_SCHED_ITER_ROWS rows from the log, entries from *at on, into `rows`: one test
   per entry and no call per row, which is what a sparse reader pays for. */
static int32_t ecs_sched__log_gather(const ecs_sched_query *q, const ecs_sched__match *m,
                                     int32_t *at, ecs_sched__window win, int32_t *rows) {
    const ecs_sched__change_log *log = &ecs_sched__log_column(q, m)->log;
    uint32_t mask = log->capacity - 1, i = (uint32_t)*at;
    int32_t n = 0;
    while (i < log->count && n < ECS_SCHED_ITER_ROWS) {
        const ecs_sched__change *e = &log->items[(log->start + i++) & mask];
        if (i + ECS_SCHED__LOG_LOOKAHEAD < log->count) {
            ecs_sched__log_prefetch(q, m, &log->items[(log->start + i + ECS_SCHED__LOG_LOOKAHEAD) & mask]);
        }
        if (ecs_sched__entry_passes(q, m, e, win)) rows[n++] = (int32_t)e->row;
    }
    *at = (int32_t)i;
    return n;
}

/* Up to ECS_SCHED_ITER_ROWS rows that pass, from row *from on, into `rows`. */
static int32_t ecs_sched__scan_gather(const ecs_sched_query *q, const ecs_sched__match *m,
                                      int32_t *from, ecs_sched__window win, int32_t *rows) {
    int32_t n = 0, begin, end;
    while (n < ECS_SCHED_ITER_ROWS && ecs_sched__next_rows(q, m, *from, win, &begin, &end)) {
        if (end - begin > ECS_SCHED_ITER_ROWS - n) end = begin + (ECS_SCHED_ITER_ROWS - n);
        while (begin < end) rows[n++] = begin++;
        *from = end;
    }
    return n;
}

bool ecs_sched_iter_next_rows(ecs_sched_iter *it) {
    const ecs_sched_query *q;
    ecs_sched__window win;
    ECS_SCHED_ASSERT(it != NULL);
    q = it->query_;
    if (!q) return false;
    it->by_rows_ = true;
    if (q->listed) return ecs_sched__iter_next_hier(it, true);
    if (it->row_ < 0) {   /* the first call: a ticked query's window opens now */
        if (q->ticked) ecs_sched__iter_window(q, &it->last_run_, &it->this_run_);
        else it->last_run_ = it->this_run_ = 0;
        it->row_ = 0;
        it->at_ = -1;
    }
    win = ecs_sched__iter_window_of(it);
    for (;;) {
        const ecs_sched__match *m = ecs_sched__iter_match(it, win);
        const ecs_sched__table *t;
        int32_t n, i;
        if (!m) break;
        t = m->table;
        n = it->at_ >= 0 ? ecs_sched__log_gather(q, m, &it->at_, win, it->rows)
                         : ecs_sched__scan_gather(q, m, &it->row_, win, it->rows);
        if (n == 0) {
            it->row_ = t->count;
            it->at_ = -1;
            continue;
        }
        it->count = n;
        it->entities = t->entities;
        for (i = 0; i < q->term_count; i++) {
            it->fields[i] = m->column[i] >= 0 ? t->columns[m->column[i]].data : NULL;
        }
        if (q->marks) {
            for (i = 0; i < n; i++) ecs_sched__mark_written(q, m, it->rows[i], it->rows[i] + 1, it->this_run_);
        }
        return true;
    }
    it->count = 0;
    return false;
}

/* ---- parallel iteration ---- */

/* A query without filters hands out every row: its written tables are marked whole first. */
static void ecs_sched__par_mark_tables(const ecs_sched__par_query *pq) {
    const ecs_sched_query *q = pq->query;
    uint32_t i;
    if (q->filtered) return;
    for (i = 0; i < q->match_count; i++) {
        const ecs_sched__match *m = &q->matches[i];
        if (m->table->count) ecs_sched__mark_written(q, m, 0, m->table->count, pq->this_run);
    }
}

/* One piece [begin, end) of a table, its rows that pass the filters run by run; pieces hold
   whole tick blocks, so the marks of one never touch another's. */
static void ecs_sched__par_rows_filtered(const ecs_sched__par_query *pq,
                                         const ecs_sched__match *m, int32_t begin, int32_t end) {
    const ecs_sched_query *q = pq->query;
    const ecs_sched__table *t = m->table;
    ecs_sched__window win;
    ecs_sched_iter it;
    int32_t from = begin, first, last, i;
    win.this_run = pq->this_run;
    win.span = pq->this_run - pq->last_run;
    it = ecs_sched__iter_of(NULL);
    while (from < end && ecs_sched__next_rows(q, m, from, win, &first, &last) && first < end) {
        if (last > end) last = end;
        it.count = last - first;
        it.entities = t->entities + first;
        for (i = 0; i < q->term_count; i++) {
            const ecs_sched__column *col = m->column[i] >= 0 ? &t->columns[m->column[i]] : NULL;
            it.fields[i] = col ? col->data + (size_t)first * col->size : NULL;
        }
        ecs_sched__mark_written(q, m, first, last, pq->this_run);
        pq->fn(&it, pq->arg);
        from = last;
    }
}

ecs_sched_result ecs_sched_iter_mark_changed(ecs_sched_iter *it, int32_t term, int32_t row) {
    const ecs_sched_query *q;
    const ecs_sched__match *m;
    ecs_sched_world *w;
    ECS_SCHED_ASSERT(it != NULL && it->query_ != NULL);
    q = it->query_;
    w = q->world;
    if (term < 0 || term >= q->term_count || !ecs_sched__term_writes(q->terms[term].kind) ||
        !w->components[q->terms[term].id].tracked) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "iter_mark_changed: term %d is not a written term of a tracked "
                               "component (write, optional write or write_manual, and a "
                               "component registered with .tracked = true)", (int)term);
    }
    if (it->next_ == 0 || row < 0 || row >= it->count) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "iter_mark_changed: row %d is not a row of the current run "
                               "(0 to %d)", (int)row, (int)it->count - 1);
    }
    m = &q->matches[it->next_ - 1];
    if (ecs_sched__tick_index(q, m, term) >= 0) {
        ecs_sched__ticks *k = &m->table->ticks[ecs_sched__tick_index(q, m, term)];
        int32_t at = it->by_rows_ ? it->rows[row] : it->row_ - it->count + row;
        ecs_sched__ticks_mark(w, m->table, k, at, at + 1, it->this_run_);
    }
    return ECS_SCHED_OK;
}

/* ---- keeping old ticks meaningful ---- */

/* The old ages of the readers, oldest first, each once. */
typedef struct ecs_sched__old_readers {
    uint32_t *ages;
    uint32_t count;
    uint32_t capacity;
    uint32_t now;
    bool overflow;
} ecs_sched__old_readers;

static uint32_t ecs_sched__age(uint32_t tick, uint32_t now) {
    return now - tick;
}

static void ecs_sched__old_reader_add(ecs_sched_world *w, ecs_sched__old_readers *r, uint32_t tick) {
    uint32_t age = ecs_sched__age(tick, r->now);
    if (age <= ECS_SCHED__TICK_MAX_AGE) return;
    if (r->count >= ECS_SCHED__TICK_MAX_READERS ||
        !ECS_SCHED__GROW(&w->env, r->ages, &r->capacity, r->count + 1)) {
        r->overflow = true;
        return;
    }
    r->ages[r->count++] = age;
}

static void ecs_sched__ctx_readers(ecs_sched_world *w, ecs_sched__old_readers *r,
                                   const ecs_sched_system_ctx *ctx) {
    ecs_sched__old_reader_add(w, r, ctx->last_run);
    ecs_sched__old_reader_add(w, r, ctx->this_run);
}

/* Every reader's ticks: systems' and conditions' contexts, queries iterated outside. */
static void ecs_sched__gather_readers(ecs_sched_world *w, ecs_sched__old_readers *r) {
    uint32_t i, j;
    for (i = 0; i < w->query_count; i++) ecs_sched__old_reader_add(w, r, w->queries[i]->last_iter);
    if (!w->schedules) return;
    for (i = 0; i < w->schedules->count; i++) {
        const ecs_sched__schedule *s = w->schedules->items[i];
        for (j = 0; j < s->system_count; j++) ecs_sched__ctx_readers(w, r, &s->systems[j]->ctx);
        for (j = 0; j < s->conds.count; j++) ecs_sched__ctx_readers(w, r, &s->conds.items[j]->ctx);
    }
}

static int ecs_sched__older_first(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x > y ? -1 : x < y ? 1 : 0;
}

/* What an old tick is to the readers' ticks: a reader's own, a change (newer than the
   readers strictly older), or the tick an entry was logged at (from the readers as old or
   older on: a reader looks at the entries logged since its tick, that tick included). */
typedef enum ecs_sched__tick_role {
    ECS_SCHED__TICK_READER,
    ECS_SCHED__TICK_CHANGE,
    ECS_SCHED__TICK_LOGGED
} ecs_sched__tick_role;

/* The age an old tick moves to. Readers of rank i (1 for the oldest) move to base - (2i - 1);
   a change to base - 2r, r the number of readers strictly older than it (a logged tick: as
   old or older): so each compares with every reader as it did. Ticks that are not old stay. */
static uint32_t ecs_sched__moved_tick(const ecs_sched__old_readers *r, uint32_t tick,
                                      ecs_sched__tick_role role) {
    uint32_t age = ecs_sched__age(tick, r->now), base = ECS_SCHED__TICK_MAX_AGE + 2u * r->count + 2u;
    uint32_t lo = 0, hi = r->count;
    if (age <= ECS_SCHED__TICK_MAX_AGE) return tick;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        bool before = role == ECS_SCHED__TICK_LOGGED ? r->ages[mid] >= age : r->ages[mid] > age;
        if (before) lo = mid + 1;
        else hi = mid;
    }
    if (role == ECS_SCHED__TICK_READER) return r->now - (base - (2u * lo + 1u));   /* rank lo + 1 */
    return r->now - (base - 2u * lo);
}

static void ecs_sched__move_ticks(const ecs_sched__old_readers *r, uint32_t *ticks, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) ticks[i] = ecs_sched__moved_tick(r, ticks[i], ECS_SCHED__TICK_CHANGE);
}

static void ecs_sched__move_log_ticks(const ecs_sched__old_readers *r, ecs_sched__change_log *log) {
    uint32_t i;
    for (i = 0; i < log->count; i++) {
        ecs_sched__change *e = &log->items[(log->start + i) & (log->capacity - 1)];
        e->seq = ecs_sched__moved_tick(r, e->seq, ECS_SCHED__TICK_LOGGED);
    }
    log->since = ecs_sched__moved_tick(r, log->since, ECS_SCHED__TICK_CHANGE);
}

static void ecs_sched__move_ctx(const ecs_sched__old_readers *r, ecs_sched_system_ctx *ctx) {
    ctx->last_run = ecs_sched__moved_tick(r, ctx->last_run, ECS_SCHED__TICK_READER);
    ctx->this_run = ecs_sched__moved_tick(r, ctx->this_run, ECS_SCHED__TICK_READER);
}

static void ecs_sched__move_change_ticks(ecs_sched_world *w, const ecs_sched__old_readers *r) {
    uint32_t i;
    int32_t k;
    for (i = 0; i < w->table_count; i++) {
        ecs_sched__table *t = w->tables[i];
        for (k = 0; k < t->tick_count; k++) {
            ecs_sched__ticks *ticks = &t->ticks[k];
            ecs_sched__move_ticks(r, ticks->added, (size_t)t->count);
            ecs_sched__move_ticks(r, ticks->changed, (size_t)t->count);
            ecs_sched__move_ticks(r, ticks->newest, (size_t)ecs_sched__tick_blocks(t->count));
            ticks->bulk = ecs_sched__moved_tick(r, ticks->bulk, ECS_SCHED__TICK_CHANGE);
            ecs_sched__move_log_ticks(r, &ticks->log);
        }
    }
    for (i = 1; i < w->component_count; i++) {
        w->resource_stamps[i].added = ecs_sched__moved_tick(r, w->resource_stamps[i].added, ECS_SCHED__TICK_CHANGE);
        w->resource_stamps[i].changed = ecs_sched__moved_tick(r, w->resource_stamps[i].changed, ECS_SCHED__TICK_CHANGE);
    }
}

static void ecs_sched__move_reader_ticks(ecs_sched_world *w, const ecs_sched__old_readers *r) {
    uint32_t i, j;
    for (i = 0; i < w->query_count; i++) {
        w->queries[i]->last_iter = ecs_sched__moved_tick(r, w->queries[i]->last_iter, ECS_SCHED__TICK_READER);
    }
    if (!w->schedules) return;
    for (i = 0; i < w->schedules->count; i++) {
        ecs_sched__schedule *s = w->schedules->items[i];
        for (j = 0; j < s->system_count; j++) ecs_sched__move_ctx(r, &s->systems[j]->ctx);
        for (j = 0; j < s->conds.count; j++) ecs_sched__move_ctx(r, &s->conds.items[j]->ctx);
    }
}

/* Moves every old tick up (see the top of this module). Without memory to rank the readers,
   old readers and old changes all move to the same age instead: a reader that has not run for
   that long then misses the old changes it had not seen, and says so in the log. */
static void ecs_sched__ticks_check(ecs_sched_world *w) {
    ecs_sched__old_readers r;
    uint32_t i, unique = 0;
    memset(&r, 0, sizeof r);
    r.now = ecs_sched__tick_load(w);
    ecs_sched__gather_readers(w, &r);
    if (r.overflow) {
        ecs_sched__logf(&w->env, ECS_SCHED_LOG_WARN, ECS_SCHED_ERR_OUT_OF_MEMORY,
                       "change ticks: too many readers (or no memory) to keep the order of "
                       "very old ticks; readers that have not run for over %lu ticks may miss "
                       "changes older than that",
                       (unsigned long)ECS_SCHED__TICK_MAX_AGE);
        r.count = 0;
    }
    if (r.count) qsort(r.ages, r.count, sizeof *r.ages, ecs_sched__older_first);
    for (i = 0; i < r.count; i++) {
        if (unique == 0 || r.ages[unique - 1] != r.ages[i]) r.ages[unique++] = r.ages[i];
    }
    r.count = unique;
    ecs_sched__move_change_ticks(w, &r);
    ecs_sched__move_reader_ticks(w, &r);
    ecs_sched__free(&w->env, r.ages);
    w->tick_checked = r.now;
}

/* Called where a schedule run starts. */
static inline void ecs_sched__ticks_maybe_check(ecs_sched_world *w) {
    if (w->ticks_on && (uint32_t)(ecs_sched__tick_load(w) - w->tick_checked) >= ECS_SCHED__TICK_CHECK_EVERY) {
        ecs_sched__ticks_check(w);
    }
}

void ecs_sched_change_tick_advance(ecs_sched_world *w, uint32_t ticks) {
    ECS_SCHED__CHECK_WORLD(w);
    while (ticks > 0) {
        uint32_t step = ticks < ECS_SCHED__TICK_CHECK_EVERY / 2 ? ticks : ECS_SCHED__TICK_CHECK_EVERY / 2;
#ifdef ECS_SCHED_THREADS
        atomic_fetch_add_explicit(&w->tick, step, memory_order_relaxed);
#else
        w->tick += step;
#endif
        ticks -= step;
        ecs_sched__ticks_maybe_check(w);
    }
}

/*============================= src/observer.h (implementation) ==============================*/
/* observer: code that runs the moment a component is added, written or removed. */

#define ECS_SCHED__OBSERVER_ROUNDS 1000   /* rounds of deferred changes before giving up */

typedef struct ecs_sched__observer {
    uint32_t id;
    ecs_sched_observer_event event;
    ecs_sched_id component;
    ecs_sched_observer_fn fn;
    ecs_sched_id with[ECS_SCHED_MAX_OBSERVER_FILTER];
    ecs_sched_id without[ECS_SCHED_MAX_OBSERVER_FILTER];
    bool filtered;                   /* has with or without */
    char *name;
    ecs_sched_system_ctx ctx;        /* kind "observer", with a command buffer of its own */
} ecs_sched__observer;

/* How many observers watch a component, by event (ON_DESPAWN watches no component). */
typedef struct ecs_sched__watchers {
    uint32_t count[ECS_SCHED_ON_REMOVE + 1];
} ecs_sched__watchers;

struct ecs_sched__observers {
    ecs_sched__observer **items;     /* in the order they were added */
    uint32_t count;
    uint32_t capacity;
    uint32_t next_id;
    int32_t dispatching;             /* observers are being called (nesting depth) */
    bool deferred;                   /* some left changes that no flush applied yet */
    bool flushing;                   /* their deferred changes are being applied */
    ecs_sched__watchers *watchers;   /* by component id, below watcher_capacity */
    uint32_t watcher_capacity;
};

static void ecs_sched__observer_free(ecs_sched_world *w, ecs_sched__observer *o) {
    ecs_sched_commands_destroy(o->ctx.commands);
    ecs_sched__free(&w->env, o->ctx.failure_message);
    ecs_sched__free(&w->env, o->ctx.cursors);
    ecs_sched__free(&w->env, o->name);
    ecs_sched__free(&w->env, o);
}

/* The world's side (declared in world.h): observers go with the world (before its command
   buffers). */
static void ecs_sched__observers_free(ecs_sched_world *w) {
    uint32_t i;
    if (!w->observers) return;
    for (i = 0; i < w->observers->count; i++) ecs_sched__observer_free(w, w->observers->items[i]);
    ecs_sched__free(&w->env, w->observers->items);
    ecs_sched__free(&w->env, w->observers->watchers);
    ecs_sched__free(&w->env, w->observers);
    w->observers = NULL;
}

/* The observer running on this thread for w, or NULL. */
static ecs_sched_system_ctx *ecs_sched__observer_running(const ecs_sched_world *w) {
    ecs_sched_system_ctx *ctx;
    if (!w->observers || !w->observers->dispatching) return NULL;
    ctx = (ecs_sched_system_ctx *)ecs_sched__running_in(&w->env);
    return ctx && ctx->observer ? ctx : NULL;
}

/* For what an observer may not do: refuses it (its failure) when one is running. */
static bool ecs_sched__refused_in_observer(ecs_sched_world *w, const char *what) {
    if (!ecs_sched__observer_running(w)) return false;
    ecs_sched__refuse(&w->env, ECS_SCHED_ERR_ACCESS,
                      "%s inside an observer: an observer runs in the middle of a change to the "
                      "world; do it from a system (or record what it needs in a command)", what);
    return true;
}

/* ---- adding and removing ---- */

static ecs_sched_result ecs_sched__observer_check(ecs_sched_world *w,
                                                  const ecs_sched_observer_desc *d) {
    const char *name = d && d->name ? d->name : "observer";
    int32_t i;
    if (!d || !d->fn) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "observer_add: observer '%s' has no function", name);
    }
    if (d->event < ECS_SCHED_ON_ADD || d->event > ECS_SCHED_ON_DESPAWN) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "observer_add: observer '%s' has no event (ECS_SCHED_ON_ADD, "
                               "_ON_INSERT, _ON_REMOVE or _ON_DESPAWN)", name);
    }
    if (d->event == ECS_SCHED_ON_DESPAWN ? d->component != 0
                                         : !ecs_sched__component_valid(w, d->component)) {
        if (d->event == ECS_SCHED_ON_DESPAWN) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "observer_add: observer '%s' watches ON_DESPAWN, an event of "
                                   "entities: leave .component 0", name);
        }
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_UNKNOWN_COMPONENT,
                               "observer_add: observer '%s' watches component id %u, which is "
                               "not registered in this world", name, (unsigned)d->component);
    }
    if (w->components[d->component].queue) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "observer_add: observer '%s' watches '%s', a message type; "
                               "read messages with ecs_sched_ctx_messages", name,
                               w->components[d->component].name);
    }
    for (i = 0; i < ECS_SCHED_MAX_OBSERVER_FILTER; i++) {
        ecs_sched_id id = d->with[i] ? d->with[i] : d->without[i];
        if ((d->with[i] && !ecs_sched__component_valid(w, d->with[i])) ||
            (d->without[i] && !ecs_sched__component_valid(w, d->without[i]))) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_UNKNOWN_COMPONENT,
                                   "observer_add: observer '%s' filters on component id %u, "
                                   "which is not registered in this world", name,
                                   (unsigned)(d->with[i] && !ecs_sched__component_valid(w, d->with[i])
                                                  ? d->with[i] : d->without[i]));
        }
        (void)id;
    }
    return ECS_SCHED_OK;
}

/* Room in the watcher counts for component `id` (new counts are zero). */
static bool ecs_sched__watchers_reserve(ecs_sched_world *w, ecs_sched__observers *all,
                                        ecs_sched_id id) {
    uint32_t had = all->watcher_capacity;
    if (id < had) return true;
    if (!ECS_SCHED__GROW(&w->env, all->watchers, &all->watcher_capacity, id + 1)) return false;
    memset(all->watchers + had, 0, (all->watcher_capacity - had) * sizeof *all->watchers);
    return true;
}

/* Whether some observer watches `event` on component `id`. */
static inline bool ecs_sched__watched(const ecs_sched_world *w, ecs_sched_id id,
                                      ecs_sched_observer_event event) {
    const ecs_sched__observers *all = w->observers;
    return id < all->watcher_capacity && all->watchers[id].count[event] != 0;
}

uint32_t ecs_sched_observer_add(ecs_sched_world *w, const ecs_sched_observer_desc *desc) {
    ecs_sched__observers *all;
    ecs_sched__observer *o;
    ECS_SCHED__CHECK_WORLD(w);
    if (ecs_sched__refused_in_observer(w, "adding an observer")) return 0;
    if (ecs_sched__observer_check(w, desc) != ECS_SCHED_OK) return 0;
    if (!w->observers &&
        !(w->observers = (ecs_sched__observers *)ecs_sched__calloc(&w->env, sizeof *w->observers))) {
        ecs_sched__out_of_memory(w, "adding an observer");
        return 0;
    }
    all = w->observers;
    if (!ecs_sched__watchers_reserve(w, all, desc->component) ||
        !ECS_SCHED__GROW(&w->env, all->items, &all->capacity, all->count + 1) ||
        !(o = (ecs_sched__observer *)ecs_sched__calloc(&w->env, sizeof *o))) {
        ecs_sched__out_of_memory(w, "adding an observer");
        return 0;
    }
    o->name = ecs_sched__strdup(&w->env, desc->name ? desc->name : "observer");
    o->ctx.commands = o->name ? ecs_sched_commands_create(w) : NULL;
    if (!o->name || !o->ctx.commands) {
        ecs_sched__free(&w->env, o->name);
        ecs_sched__free(&w->env, o);
        ecs_sched__out_of_memory(w, "adding an observer");
        return 0;
    }
    o->id = ++all->next_id;
    o->event = desc->event;
    o->component = desc->component;
    o->fn = desc->fn;
    memcpy(o->with, desc->with, sizeof o->with);
    memcpy(o->without, desc->without, sizeof o->without);
    o->filtered = desc->with[0] || desc->without[0];
    {
        int32_t i;
        for (i = 0; i < ECS_SCHED_MAX_OBSERVER_FILTER; i++) o->filtered |= desc->with[i] || desc->without[i];
    }
    o->ctx.world = w;
    o->ctx.name = o->name;
    o->ctx.kind = "observer";
    o->ctx.user_data = desc->user_data;
    o->ctx.exclusive = true;
    o->ctx.observer = true;
    all->items[all->count++] = o;
    if (o->component) all->watchers[o->component].count[o->event]++;
    return o->id;
}

ecs_sched_result ecs_sched_observer_remove(ecs_sched_world *w, uint32_t id) {
    ecs_sched__observers *all;
    uint32_t i;
    ECS_SCHED__CHECK_WORLD(w);
    if (ecs_sched__refused_in_observer(w, "removing an observer")) return ECS_SCHED_ERR_ACCESS;
    all = w->observers;
    for (i = 0; all && i < all->count; i++) {
        ecs_sched__observer *o = all->items[i];
        if (o->id != id) continue;
        if (o->component) all->watchers[o->component].count[o->event]--;
        memmove(&all->items[i], &all->items[i + 1], (all->count - i - 1) * sizeof *all->items);
        all->count--;
        ecs_sched__observer_free(w, o);
        return ECS_SCHED_OK;
    }
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "observer_remove: %u is not an observer of this world (was it "
                           "removed already?)", (unsigned)id);
}

/* ---- calling them ---- */

static bool ecs_sched__observer_filters_pass(const ecs_sched_world *w, const ecs_sched__observer *o,
                                             ecs_sched_entity e) {
    const ecs_sched__table *t = w->tables[w->records[ECS_SCHED_ENTITY_INDEX(e)].table];
    int32_t i;
    for (i = 0; i < ECS_SCHED_MAX_OBSERVER_FILTER; i++) {
        if (o->with[i] && ecs_sched__type_find(t, o->with[i]) < 0) return false;
        if (o->without[i] && ecs_sched__type_find(t, o->without[i]) >= 0) return false;
    }
    return true;
}

/* A failure of an observer: the failure of what made the change (a system, a command
   applier), or the world's last error. */
static void ecs_sched__observer_failed(ecs_sched_world *w, ecs_sched__observer *o) {
    char fallback[ECS_SCHED__ERROR_CAPACITY];
    const char *message = ecs_sched__ctx_failure_message(&o->ctx, fallback, sizeof fallback);
    ecs_sched_result code = o->ctx.failure;
    o->ctx.failure = ECS_SCHED_OK;
    o->ctx.failure_refused = false;
    ecs_sched__fail_text(&w->env, code, message);
}

/* Calls the observers of `event` on `component` for entity e, in the order they were added
   (target: of a relationship, else 0). */
static void ecs_sched__observe_target(ecs_sched_world *w, ecs_sched_observer_event event,
                                      ecs_sched_entity e, ecs_sched_id component,
                                      ecs_sched_entity target) {
    ecs_sched__observers *all = w->observers;
    ecs_sched_trigger trigger;
    uint32_t i;
    trigger.event = event;
    trigger.entity = e;
    trigger.component = component;
    trigger.target = target;
    for (i = 0; i < all->count; i++) {
        ecs_sched__observer *o = all->items[i];
        void *outer;
        if (o->event != event || o->component != component ||
            (o->filtered && !ecs_sched__observer_filters_pass(w, o, e))) {
            continue;
        }
        if (w->ticks_on) {   /* its changes carry the tick of the one it observes */
            uint32_t tick = ecs_sched__tick_now(w);
            o->ctx.last_run = o->ctx.this_run;
            o->ctx.this_run = tick;
        }
        all->dispatching++;
        outer = ecs_sched__running_begin(&o->ctx);
        o->fn(&o->ctx, &trigger);
        ecs_sched__running_end(outer);
        all->dispatching--;
        if (o->ctx.commands->pending) all->deferred = true;   /* a flush has work */
        if (o->ctx.failure != ECS_SCHED_OK) ecs_sched__observer_failed(w, o);
    }
}

static void ecs_sched__observe(ecs_sched_world *w, ecs_sched_observer_event event,
                               ecs_sched_entity e, ecs_sched_id component) {
    ecs_sched__observe_target(w, event, e, component, ECS_SCHED_NULL_ENTITY);
}

/* The world's side (declared in world.h). An entity got components `ids` (those `before`
   lacked are new): ON_ADD for the new ones, then ON_INSERT for all. */
static void ecs_sched__observe_inserted(ecs_sched_world *w, ecs_sched_entity e,
                                        const ecs_sched__table *before, int32_t count,
                                        const ecs_sched_id *ids) {
    int32_t i;
    for (i = 0; i < count; i++) {
        if (ecs_sched__watched(w, ids[i], ECS_SCHED_ON_ADD) &&
            (!before || ecs_sched__type_find(before, ids[i]) < 0)) {
            ecs_sched__observe(w, ECS_SCHED_ON_ADD, e, ids[i]);
        }
    }
    for (i = 0; i < count; i++) {
        if (ecs_sched__watched(w, ids[i], ECS_SCHED_ON_INSERT)) {
            ecs_sched__observe(w, ECS_SCHED_ON_INSERT, e, ids[i]);
        }
    }
}

/* An entity is about to lose component `id`. */
static void ecs_sched__observe_removing(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id id) {
    if (ecs_sched__watched(w, id, ECS_SCHED_ON_REMOVE)) {
        ecs_sched__observe(w, ECS_SCHED_ON_REMOVE, e, id);
    }
}

/* An entity is about to be despawned: ON_DESPAWN, then ON_REMOVE for each component. The
   type is copied: an observer may register components (which moves nothing), but the type
   is read between calls. */
static void ecs_sched__observe_despawning(ecs_sched_world *w, ecs_sched_entity e) {
    ecs_sched_id type[ECS_SCHED__MAX_TYPE];
    const ecs_sched__table *t = w->tables[w->records[ECS_SCHED_ENTITY_INDEX(e)].table];
    int32_t i, n = t->type_count;
    memcpy(type, t->type, (size_t)n * sizeof *type);
    ecs_sched__observe(w, ECS_SCHED_ON_DESPAWN, e, 0);
    for (i = 0; i < n; i++) {
        if (w->components[type[i]].relation) ecs_sched__observe_relations_removing(w, e, type[i]);
        else ecs_sched__observe_removing(w, e, type[i]);
    }
}

/* Applies the observers' deferred changes, which may call observers again; until none is
   left (or, for observers that keep triggering each other, ECS_SCHED__OBSERVER_ROUNDS
   rounds). Called at the end of each operation that may call observers. */
static void ecs_sched__observers_flush(ecs_sched_world *w) {
    ecs_sched__observers *all = w->observers;
    int32_t round;
    if (!all || !all->deferred || all->flushing || all->dispatching) return;
    all->flushing = true;
    for (round = 0; round < ECS_SCHED__OBSERVER_ROUNDS; round++) {
        bool pending = false;
        uint32_t i;
        for (i = 0; i < all->count; i++) {
            ecs_sched_commands *cmd = all->items[i]->ctx.commands;
            if (ecs_sched_commands_pending(cmd) == 0) continue;
            pending = true;
            if (ecs_sched_commands_apply(cmd) != ECS_SCHED_OK) {
                ecs_sched__fail_again_for(w, all->items[i]->name);
            }
        }
        if (!pending) break;
    }
    all->deferred = false;
    if (round == ECS_SCHED__OBSERVER_ROUNDS) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_LIMIT,
                        "observers kept making changes that called observers again, %d rounds "
                        "in a row; the changes still pending are left for the next operation "
                        "(do two observers undo each other?)", ECS_SCHED__OBSERVER_ROUNDS);
    }
    all->flushing = false;
}

/* ---- what an observer does through the world: deferred into its buffer ---- */

/* The buffer deferred changes go to, when an observer runs; NULL otherwise. */
static ecs_sched_commands *ecs_sched__deferring(const ecs_sched_world *w) {
    ecs_sched_system_ctx *ctx = ecs_sched__observer_running(w);
    return ctx ? ctx->commands : NULL;
}

static ecs_sched_entity ecs_sched__defer_spawn_with(ecs_sched_world *w, int32_t count,
                                                    const ecs_sched_id *ids,
                                                    const void *const *values) {
    return ecs_sched_commands_spawn_with(ecs_sched__deferring(w), count, ids, values);
}

static ecs_sched_result ecs_sched__defer_despawn(ecs_sched_world *w, ecs_sched_entity e) {
    return ecs_sched_commands_despawn(ecs_sched__deferring(w), e);
}

static ecs_sched_result ecs_sched__defer_insert(ecs_sched_world *w, ecs_sched_entity e,
                                                ecs_sched_id id, const void *value) {
    return ecs_sched_commands_insert(ecs_sched__deferring(w), e, id, value);
}

static ecs_sched_result ecs_sched__defer_remove(ecs_sched_world *w, ecs_sched_entity e,
                                                ecs_sched_id id) {
    return ecs_sched_commands_remove(ecs_sched__deferring(w), e, id);
}

static ecs_sched_result ecs_sched__defer_set_resource(ecs_sched_world *w, ecs_sched_id id,
                                                      const void *value) {
    return ecs_sched_commands_set_resource(ecs_sched__deferring(w), id, value);
}

/*============================= src/executor.h (implementation) ==============================*/
/* executor: running a built plan on a world, single-threaded and parallel. */

/* ---- failures ----

   A node fails when its system, a condition guarding it, or a command it recorded fails (see
   ERRORS in the documentation block). The run keeps the failure first in plan order, so that
   the parallel executor returns what the single-threaded one does, and the policy (or the
   hook) says whether the run stops. */

static ecs_sched_error_policy ecs_sched__error_policy(const ecs_sched_world *w,
                                                      const ecs_sched__schedule *s) {
    ecs_sched_error_policy policy = s->settings.on_error ? s->settings.on_error : w->on_error;
    return policy == ECS_SCHED_ON_ERROR_HOOK && !w->error_hook.fn ? ECS_SCHED_ON_ERROR_STOP
                                                                 : policy;
}

#ifdef ECS_SCHED_THREADS
static void ecs_sched__failure_lock(ecs_sched_world *w) {
    while (atomic_exchange_explicit(&w->failure_lock, 1, memory_order_acquire)) {
        ECS_SCHED__CPU_RELAX();
    }
}
static void ecs_sched__failure_unlock(ecs_sched_world *w) {
    atomic_store_explicit(&w->failure_lock, 0, memory_order_release);
}
#else
#define ecs_sched__failure_lock(w) ((void)(w))
#define ecs_sched__failure_unlock(w) ((void)(w))
#endif

/* What the hook says of a failure. Hooks hear one failure at a time, and a hook that makes
   something fail again (on its own thread) does not wait for itself; outside any running
   context, so that what fails inside it is nobody's failure. */
static ecs_sched_error_action ecs_sched__ask_hook(ecs_sched_world *w, ecs_sched__schedule *s,
                                                  ecs_sched_system_ctx *ctx, const char *message) {
    static ECS_SCHED__THREAD_LOCAL bool hearing;
    void *running = ecs_sched__running_now;
    bool serialize = !hearing;
    ecs_sched_failure failure;
    ecs_sched_error_action said;
    failure.code = ctx->failure;
    failure.kind = ctx->kind;
    failure.name = ctx->name;
    failure.schedule = s->label;
    failure.message = message;
    if (serialize) {
        ecs_sched__failure_lock(w);
        hearing = true;
    }
    ecs_sched__running_now = NULL;
    said = w->error_hook.fn(&failure, w->error_hook.user_data);
    ecs_sched__running_now = running;
    if (serialize) {
        hearing = false;
        ecs_sched__failure_unlock(w);
    }
    return said;
}

/* The node at plan position `at` failed, as the context kept (its system's, a condition's
   guarding it, or its commands'). The hook hears of it and, under the HOOK policy, decides;
   unless ignored, the run keeps it when it is the first in plan order. The context's failure
   is taken. */
static ecs_sched_error_action ecs_sched__node_failed_as(ecs_sched__schedule *s, int32_t at,
                                                        ecs_sched_system_ctx *ctx) {
    ecs_sched_world *w = ctx->world;
    ecs_sched_error_policy policy = ecs_sched__error_policy(w, s);
    ecs_sched_error_action action =
        policy == ECS_SCHED_ON_ERROR_CONTINUE ? ECS_SCHED_ERROR_CONTINUE : ECS_SCHED_ERROR_STOP;
    char fallback[ECS_SCHED__ERROR_CAPACITY];
    const char *message = ecs_sched__ctx_failure_message(ctx, fallback, sizeof fallback);
    if (w->error_hook.fn) {
        ecs_sched_error_action said = ecs_sched__ask_hook(w, s, ctx, message);
        if (policy == ECS_SCHED_ON_ERROR_HOOK) action = said;
    }
    ecs_sched__error_lock(&w->env);
    if (action != ECS_SCHED_ERROR_IGNORE && s->failure_code == ECS_SCHED_OK) {
        s->failure_at = INT32_MAX;   /* the run's first failure */
        s->stopped = false;
    }
    if (action != ECS_SCHED_ERROR_IGNORE && at < s->failure_at) {
        s->failure_at = at;
        s->failure_code = ctx->failure;
        ecs_sched__append(s->failure_message, sizeof s->failure_message, 0, message);
    }
    if (action == ECS_SCHED_ERROR_STOP) s->stopped = true;
    ecs_sched__error_unlock(&w->env);
    ctx->failure = ECS_SCHED_OK;
    return action;
}

/* The same; returns whether the run stops. */
static bool ecs_sched__node_failed(ecs_sched__schedule *s, int32_t at, ecs_sched_system_ctx *ctx) {
    return ecs_sched__node_failed_as(s, at, ctx) == ECS_SCHED_ERROR_STOP;
}

/* Applies the pending commands of the schedule's systems, in plan order, each buffer as its
   system's: a command that cannot be applied fails that system (the commands after it stay
   pending for the next sync point). Applying changes the world, which the system's context
   is allowed meanwhile. Returns whether the run stops. */
ECS_SCHED__NOINLINE static bool ecs_sched__apply_pending_of_writers(ecs_sched__schedule *s) {
    ecs_sched__plan *plan = s->plan;
    bool stop = false;
    int32_t i;
    for (i = 0; i < plan->writer_count; i++) {
        ecs_sched__plan_node *writer = plan->writers[i];
        ecs_sched_system_ctx *ctx = &writer->system->ctx;
        void *outer;
        if (ecs_sched_commands_pending(ctx->commands) == 0) continue;
        outer = ecs_sched__running_begin(ctx);
        ctx->applying = true;
        ecs_sched_commands_apply(ctx->commands);
        ctx->applying = false;
        ecs_sched__running_end(outer);
        if (ctx->failure != ECS_SCHED_OK &&
            ecs_sched__node_failed(s, (int32_t)(writer - plan->nodes), ctx)) {
            stop = true;
        }
    }
    return stop;
}

/* The same, its common case (a schedule without command writers) kept to a test where it is
   called. */
static bool ecs_sched__apply_pending(ecs_sched__schedule *s) {
    return s->plan->writer_count != 0 && ecs_sched__apply_pending_of_writers(s);
}

/* Reports every condition function of these trees that failed in this evaluation (in tree
   order). Returns whether one of them was not ignored: then what they guard does not run,
   since a condition that failed could not tell. */
static bool ecs_sched__report_condition_tree(ecs_sched__schedule *s, int32_t index, int32_t at,
                                             bool *stop) {
    ecs_sched__cond *c = s->conds.items[index];
    bool counted = false;
    int32_t k;
    for (k = 0; k < 2; k++) {
        if (c->operands[k] >= 0 && ecs_sched__report_condition_tree(s, c->operands[k], at, stop)) {
            counted = true;
        }
    }
    if (c->kind == ECS_SCHED_CONDITION_FN && c->ctx.failure != ECS_SCHED_OK) {
        ecs_sched_error_action action = ecs_sched__node_failed_as(s, at, &c->ctx);
        if (action == ECS_SCHED_ERROR_STOP) *stop = true;
        if (action != ECS_SCHED_ERROR_IGNORE) counted = true;
    }
    return counted;
}

static bool ecs_sched__report_condition_failures(ecs_sched__schedule *s, const int32_t *conds,
                                                 int32_t count, int32_t at, bool *stop) {
    bool counted = false;
    int32_t i;
    for (i = 0; i < count; i++) {
        if (ecs_sched__report_condition_tree(s, conds[i], at, stop)) counted = true;
    }
    return counted;
}

/* All of a node's conditions (`count` indexes into the schedule's conditions) are evaluated,
   each at most once per run, then combined. A failing one fails the node at `at`; *stop
   says whether the run stops. */
static bool ecs_sched__conditions_hold(ecs_sched__schedule *s, const int32_t *conds,
                                       int32_t count, int32_t at, bool *stop) {
    ecs_sched_system_ctx *failed = NULL;
    bool all = true;
    int32_t i;
    for (i = 0; i < count; i++) {
        if (!ecs_sched__cond_eval(&s->conds, conds[i], &failed)) all = false;
    }
    if (failed && ecs_sched__report_condition_failures(s, conds, count, at, stop)) all = false;
    return all;
}

/* Whether a node runs: the conditions of its sets, outermost first and each set once per run,
   then its own. */
static ECS_SCHED__ALWAYS_INLINE bool ecs_sched__node_may_run(ecs_sched__schedule *s,
                                                             ecs_sched__plan *plan, int32_t at,
                                                             bool *stop) {
    const ecs_sched__plan_node *pn = &plan->nodes[at];
    int32_t i;
    for (i = 0; i < pn->guard_set_count; i++) {
        int32_t set = plan->guard_sets[pn->guard_set_start + i];
        if (plan->set_state[set] == 0) {
            const ecs_sched__plan_set *ps = &plan->sets[set];
            plan->set_state[set] =
                ecs_sched__conditions_hold(s, plan->conds + ps->cond_start, ps->cond_count,
                                           ps->first_node, stop) ? 1 : 2;
        }
        if (plan->set_state[set] == 2) return false;
    }
    return pn->cond_count == 0 ||
           ecs_sched__conditions_hold(s, plan->conds + pn->cond_start, pn->cond_count, at, stop);
}

/* Runs plan node `p` that is not a plain system: a sync point applies the pending commands; a
   guarded system runs if its conditions hold. Returns whether the run stops. `tracked`: the
   world tracks changes, and a system that runs takes a tick. */
static ECS_SCHED__ALWAYS_INLINE bool ecs_sched__execute_node_as(ecs_sched__schedule *s,
                                                               int32_t p, bool tracked) {
    ecs_sched__plan *plan = s->plan;
    const ecs_sched__plan_node *pn = &plan->nodes[p];
    ecs_sched__system *sys = pn->system;
    bool stop = false;
    void *outer;
    if (!sys) return ecs_sched__apply_pending(s);
    if ((pn->guard_set_count || pn->cond_count) && !ecs_sched__node_may_run(s, plan, p, &stop)) {
        return stop;
    }
    if (stop) return true;
    if (pn->sync) return ecs_sched__apply_pending(s);
    if (tracked) ecs_sched__ctx_take_tick(&sys->ctx);
    outer = ecs_sched__running_begin(&sys->ctx);
    sys->fn(&sys->ctx);
    ecs_sched__running_end(outer);
    return sys->ctx.failure != ECS_SCHED_OK && ecs_sched__node_failed(s, p, &sys->ctx);
}

/* Runs plan nodes [from, to) one by one, each as its kind asks, in a world that tracks
   changes. */
ECS_SCHED__NOINLINE static bool ecs_sched__execute_nodes(ecs_sched__schedule *s, int32_t from,
                                                         int32_t to) {
    int32_t p;
    for (p = from; p < to; p++) {
        if (ecs_sched__execute_node_as(s, p, true)) return true;
    }
    return false;
}

/* Whether plan node `pn` is a plain system: one with no condition to evaluate. */
static inline bool ecs_sched__plain_node(const ecs_sched__plan_node *pn) {
    return pn->system && !(pn->guard_set_count | pn->cond_count | pn->sync);
}

/* Runs the nodes from `from` on that are not plain systems, up to the next plain system or
   `to`, in a world that tracks no changes. Returns where it stopped, or -1 when the run
   stops. Kept out of the loop of plain systems, whose registers it would otherwise take;
   a group of systems guarded by conditions is run by one call. */
ECS_SCHED__NOINLINE static int32_t ecs_sched__execute_others(ecs_sched__schedule *s,
                                                             int32_t from, int32_t to) {
    const ecs_sched__plan_node *nodes = s->plan->nodes;
    int32_t p;
    for (p = from; p < to && !ecs_sched__plain_node(&nodes[p]); p++) {
        if (ecs_sched__execute_node_as(s, p, false)) return -1;
    }
    return p;
}


/* Runs plan nodes [from, to) on the calling thread. Returns whether the run stops (a failure
   under the STOP policy): then no further node starts. A system with no condition, in a world
   that tracks no changes, is the common node; it is called here, with what ran before read
   once for the whole range, and its context's failure not reset (a store before the call
   costs a fifth of an empty system). Whether the world tracks changes is read once too: one
   that starts tracking them in the middle of a range runs the rest of it as before, and those
   systems take their first tick at their next run, whose window then opens at the start, as a
   first run's does. */
static bool ecs_sched__execute_range(ecs_sched__schedule *s, int32_t from, int32_t to) {
    const ecs_sched__plan_node *nodes = s->plan->nodes;
    void *outer = ecs_sched__running_now;
    int32_t p;
    if (s->world->ticks_on) return ecs_sched__execute_nodes(s, from, to);
    for (p = from; p < to; p++) {
        const ecs_sched__plan_node *pn = &nodes[p];
        ecs_sched__system *sys = pn->system;
        if (ECS_SCHED__LIKELY(sys && !(pn->guard_set_count | pn->cond_count | pn->sync))) {
            ecs_sched_system_ctx *ctx = &sys->ctx;
            ecs_sched__running_now = ctx;   /* its failure is OK: see failure */
            sys->fn(ctx);
            ecs_sched__running_now = outer;
            if (ctx->failure != ECS_SCHED_OK && ecs_sched__node_failed(s, p, ctx)) return true;
        } else {
            int32_t next = ecs_sched__execute_others(s, p, to);
            if (next < 0) return true;
            p = next - 1;   /* on to the next plain system, or to */
        }
    }
    return false;
}

/* What a failed run leaves: the world's last error is its first failure (later ones, and the
   sync point that applied the last commands, wrote theirs since), and a system running it
   (an exclusive system that ran this schedule) fails with it in turn, its name in front. */
static ecs_sched_result ecs_sched__run_failed(ecs_sched_world *w, ecs_sched__schedule *s,
                                              ecs_sched_result result) {
    void *outer = ecs_sched__running_in(&w->env);
    if (s->failure_code == ECS_SCHED_OK) return result;   /* the pool could not be made */
    if (outer) return ecs_sched__fail_text(&w->env, s->failure_code, s->failure_message);
    ecs_sched__error_lock(&w->env);
    memcpy(w->env.last_error, s->failure_message, strlen(s->failure_message) + 1);
    w->env.last_result = s->failure_code;
    ecs_sched__error_unlock(&w->env);
    return s->failure_code;
}

/* Whether a run that returned `result` did not go through: it stopped at a failure, or it
   could not start (a build error, a recursive run). Runners of several schedules (an app's
   orders, the fixed steps) stop there; after a failure under CONTINUE they go on. */
static bool ecs_sched__run_cut_short(const ecs_sched__schedule *s, ecs_sched_result result) {
    return result != ECS_SCHED_OK && (s->stopped || s->failure_code == ECS_SCHED_OK);
}

/* A run's failures start afresh: the rest of the record is reset by its first failure
   (ecs_sched__node_failed_as), so that a run without one pays a single store. */
static void ecs_sched__failures_reset(ecs_sched__schedule *s) {
    s->failure_code = ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__execute(ecs_sched_world *w, ecs_sched__schedule *s) {
    ecs_sched__plan *plan = s->plan;
    (void)w;
    if (plan->set_count) memset(plan->set_state, 0, (size_t)plan->set_count);
    ecs_sched__execute_range(s, 0, plan->node_count);
    ecs_sched__apply_pending(s);
    return s->failure_code;
}

/* ---- the parallel executor ----

   How it decides where a system runs. A schedule whose measured cost is small (the time its
   non-exclusive systems and their conditions take, below ECS_SCHED_PARALLEL_MIN_NS) runs on
   the calling thread in plan order, as on the single-threaded executor, and is timed once
   every ECS_SCHED__SAMPLE_EVERY runs: handing work to another thread would cost more than it
   saves. Above, the calling thread starts with every node that has no predecessor (the
   roots, in plan order), and each thread runs what it holds itself: first the nodes it made
   ready, newest first, then its roots in order. Whenever what it holds beyond the node it
   runs next is worth ECS_SCHED_OFFER_MIN_NS, it offers about half of all its work as one
   task: the last of its roots (found by cost, from running sums of the roots' estimates), or
   when it has no roots left the oldest of its ready nodes. A worker that is awake takes the
   offer (and offers half of it in turn when that is worth it); if none is, the thread takes
   it back once it has run the rest. A sleeping worker is woken only for an offer worth
   ECS_SCHED_WAKE_MIN_NS. A node's cost is what its conditions and system took, averaged:
   measured on its first parallel run, on every run once it costs ECS_SCHED__TIMED_ALWAYS_NS,
   and one run in ECS_SCHED__SAMPLE_EVERY otherwise. Where a node runs never changes what it
   sees: every edge that could change the result is in the plan (ecs_sched__bind_plan_order),
   and a node runs only once its predecessors are done. */

#ifdef ECS_SCHED_THREADS

#ifndef ECS_SCHED_PARALLEL_MIN_NS
#define ECS_SCHED_PARALLEL_MIN_NS 4000
#endif
#ifndef ECS_SCHED_OFFER_MIN_NS
#define ECS_SCHED_OFFER_MIN_NS 2000
#endif
#ifndef ECS_SCHED_WAKE_MIN_NS
#define ECS_SCHED_WAKE_MIN_NS 20000
#endif
#define ECS_SCHED__TIMED_ALWAYS_NS 1000
#define ECS_SCHED__SAMPLE_EVERY 32u   /* a power of two */

/* A node's part of the run state. The first node of an offered batch also holds the batch,
   and is the task's argument. */
typedef struct ecs_sched__run_slot {
    ecs_sched__run *run;
    int32_t node;
    int32_t newer, older;        /* its neighbours in the ready list that holds it, or -1 */
    int32_t cost_ns;             /* estimated cost; 0 until measured */
    int32_t batch_first;         /* a batch of roots: their positions in run->roots, [first, */
    int32_t batch_last;          /* last); a batch of ready nodes: the oldest and newest */
    int32_t batch_count;         /* ready nodes in the batch; -1 for a batch of roots */
    int64_t batch_cost;
    int32_t main_next;           /* in run->main_ready: the node handed over before it, or -1 */
} ecs_sched__run_slot;

/* What one thread holds: roots not started yet, and the nodes it made ready, linked through
   their slots. */
typedef struct ecs_sched__work {
    int32_t first, end;          /* run->roots[first, end) */
    int32_t newest, oldest, count;
    int64_t ready_cost;          /* the sum of the ready nodes' estimates */
} ecs_sched__work;

/* The state of a plan's parallel runs, one block, made on its first parallel run. Every
   edge that could change the result when ignored is in the plan, so a node runs as soon as
   its predecessors are done, with no access check. An exclusive node (sync points too) is
   left for the calling thread; it is ordered against every other node, so when it is ready,
   nothing else is. */
struct ecs_sched__run {
    ecs_sched__schedule *s;
    ecs_sched_pool *pool;
    ecs_sched__run_slot *slots;      /* per node */
    int32_t *roots;                  /* the nodes without predecessors, in plan order */
    int64_t *root_sums;              /* root_sums[i]: the estimates of roots[0, i) */
    int32_t root_count;
    int32_t *joins;                  /* the nodes with several: they count them down */
    int32_t join_count;
    atomic_int *pending;             /* per node: predecessors not done yet (joins only) */
    atomic_uchar *set_state;         /* per plan set: 0 unknown, 1 evaluating, 2 true, 3 false */
    int64_t clock_ns;                /* what reading the clock costs: taken off each timing */
    struct ecs_sched_task_group group;   /* the batches offered during a run */
    char pad0[ECS_SCHED__CACHE_LINE];    /* the shared words each on a line of their own */
    atomic_int exclusive_ready;      /* an exclusive node for the calling thread, or -1 */
    char pad1[ECS_SCHED__CACHE_LINE];
    atomic_int main_ready;           /* main-thread nodes other threads found ready, newest
                                        first through their slots' main_next; -1: none */
    int32_t caller;                  /* the calling thread's worker index (-1: outside) */
    bool has_main;                   /* the plan has main-thread nodes */
    char pad3[ECS_SCHED__CACHE_LINE];
    atomic_int stop_at;              /* after a failure that stops the run: no node after this
                                        plan position starts; INT32_MAX while none */
    char pad2[ECS_SCHED__CACHE_LINE];
    atomic_int_least64_t cost_ns;    /* the estimates of the nodes run, summed per batch */
    atomic_bool root_sums_stale;     /* a root's estimate changed since they were summed */
};

/* ---- the run state ---- */

#define ECS_SCHED__RUN_ALIGN(size) (((size) + 15) & ~(size_t)15)

/* The least time seen between two readings of the clock: a timing of a system includes it,
   which would make a tiny system look several times its cost. */
static int64_t ecs_sched__clock_cost_ns(void) {
    int64_t least = INT64_MAX;
    int i;
    for (i = 0; i < 16; i++) {
        int64_t a = ecs_sched__now_ns(), b = ecs_sched__now_ns();
        if (b - a < least) least = b - a;
    }
    return least > 0 ? least : 0;
}

/* Where each part of the block goes; returns its size. */
typedef struct ecs_sched__run_layout {
    size_t slots, sums, roots, joins, pending, sets;
} ecs_sched__run_layout;

static size_t ecs_sched__run_layout_of(const ecs_sched__plan *plan, ecs_sched__run_layout *at) {
    size_t n = (size_t)plan->node_count;
    at->slots = ECS_SCHED__RUN_ALIGN(sizeof(ecs_sched__run));
    at->sums = at->slots + ECS_SCHED__RUN_ALIGN(sizeof(ecs_sched__run_slot) * n);
    at->roots = at->sums + sizeof(int64_t) * (n + 1);
    at->joins = at->roots + sizeof(int32_t) * n;
    at->pending = ECS_SCHED__RUN_ALIGN(at->joins + sizeof(int32_t) * n);
    at->sets = at->pending + sizeof(atomic_int) * n;
    return at->sets + sizeof(atomic_uchar) * (size_t)plan->set_count + 1;
}

/* The calling thread starts with the roots in plan order and offers the last ones: with the
   main-thread roots first (in plan order still), what it offers can run elsewhere. The order
   of roots is free: edges alone decide what may run when. */
static void ecs_sched__main_thread_roots_first(ecs_sched__run *r, const ecs_sched__plan *plan) {
    int32_t i, at = 0, moved;
    for (i = 0; i < r->root_count; i++) {
        int32_t node = r->roots[i];
        if (!plan->nodes[node].main_thread) continue;
        for (moved = i; moved > at; moved--) r->roots[moved] = r->roots[moved - 1];
        r->roots[at++] = node;
    }
}

static ecs_sched__run *ecs_sched__run_state_init(unsigned char *block,
                                                 const ecs_sched__run_layout *at,
                                                 ecs_sched__schedule *s, ecs_sched_pool *pool) {
    ecs_sched__plan *plan = s->plan;
    size_t n = (size_t)plan->node_count, i;
    ecs_sched__run *r = (ecs_sched__run *)block;
    r->s = s;
    r->pool = pool;
    r->slots = (ecs_sched__run_slot *)(block + at->slots);
    r->root_sums = (int64_t *)(block + at->sums);
    r->roots = (int32_t *)(block + at->roots);
    r->joins = (int32_t *)(block + at->joins);
    r->pending = (atomic_int *)(block + at->pending);
    r->set_state = (atomic_uchar *)(block + at->sets);
    r->root_count = r->join_count = 0;
    for (i = 0; i < n; i++) {
        int32_t deps = plan->nodes[i].dependency_count;
        ecs_sched__run_slot *slot = &r->slots[i];
        memset(slot, 0, sizeof *slot);
        slot->run = r;
        slot->node = (int32_t)i;
        if (deps == 0) r->roots[r->root_count++] = (int32_t)i;
        if (deps > 1) r->joins[r->join_count++] = (int32_t)i;
        atomic_init(&r->pending[i], 0);
    }
    ecs_sched__main_thread_roots_first(r, plan);
    memset(r->root_sums, 0, sizeof(int64_t) * (n + 1));
    for (i = 0; i < (size_t)plan->set_count; i++) atomic_init(&r->set_state[i], 0);
    r->clock_ns = ecs_sched__clock_cost_ns();
    atomic_init(&r->group.pending, 0);
    r->group.slots = NULL;
    r->group.slot_count = 0;
    atomic_init(&r->exclusive_ready, -1);
    atomic_init(&r->main_ready, -1);
    r->caller = -1;
    r->has_main = false;
    for (i = 0; i < n; i++) r->has_main = r->has_main || plan->nodes[i].main_thread;
    atomic_init(&r->stop_at, INT32_MAX);
    atomic_init(&r->cost_ns, 0);
    atomic_init(&r->root_sums_stale, true);
    return r;
}

static ecs_sched__run *ecs_sched__run_state(ecs_sched_world *w, ecs_sched__schedule *s,
                                            ecs_sched_pool *pool) {
    ecs_sched__plan *plan = s->plan;
    ecs_sched__run_layout at;
    unsigned char *block;
    if (plan->run_state) return plan->run_state;
    block = (unsigned char *)ecs_sched__alloc(&w->env, ecs_sched__run_layout_of(plan, &at));
    if (!block) {
        ecs_sched__out_of_memory(w, "preparing a parallel run");
        return NULL;
    }
    plan->run_state = ecs_sched__run_state_init(block, &at, s, pool);
    return plan->run_state;
}

/* A failure at plan position `at` stops the run: no node after it starts (those before it
   still run, as they would on one thread). */
static void ecs_sched__run_stop(ecs_sched__run *r, int32_t at) {
    int seen = atomic_load_explicit(&r->stop_at, memory_order_relaxed);
    while (at < seen &&
           !atomic_compare_exchange_weak_explicit(&r->stop_at, &seen, at, memory_order_relaxed,
                                                  memory_order_relaxed)) {
    }
}

static bool ecs_sched__run_stopped_before(ecs_sched__run *r, int32_t node) {
    return node > atomic_load_explicit(&r->stop_at, memory_order_relaxed);
}

/* ---- conditions ---- */

/* A set's conditions, evaluated by the first thread that needs them (for node `node`); the
   others wait for the answer. */
static bool ecs_sched__run_set_holds(ecs_sched__run *r, int32_t set, int32_t node) {
    atomic_uchar *state = &r->set_state[set];
    unsigned char seen = atomic_load_explicit(state, memory_order_acquire), expected = 0;
    if (seen < 2 &&
        atomic_compare_exchange_strong_explicit(state, &expected, 1, memory_order_acq_rel,
                                                memory_order_acquire)) {
        const ecs_sched__plan *plan = r->s->plan;
        const ecs_sched__plan_set *ps = &plan->sets[set];
        bool stop = false;
        bool holds = ecs_sched__conditions_hold(r->s, plan->conds + ps->cond_start, ps->cond_count,
                                                ps->first_node, &stop);
        /* as on one thread, where the set's first node stops the run: nothing from it on */
        if (stop) ecs_sched__run_stop(r, ps->first_node - 1);
        (void)node;
        atomic_store_explicit(state, holds ? 2 : 3, memory_order_release);
        return holds;
    }
    while ((seen = atomic_load_explicit(state, memory_order_acquire)) < 2) ECS_SCHED__CPU_RELAX();
    return seen == 2;
}

static bool ecs_sched__run_node_may_run(ecs_sched__run *r, int32_t node) {
    const ecs_sched__plan *plan = r->s->plan;
    const ecs_sched__plan_node *pn = &plan->nodes[node];
    bool holds, stop = false;
    int32_t i;
    for (i = 0; i < pn->guard_set_count; i++) {
        if (!ecs_sched__run_set_holds(r, plan->guard_sets[pn->guard_set_start + i], node)) {
            return false;
        }
    }
    if (pn->cond_count == 0) return true;
    holds = ecs_sched__conditions_hold(r->s, plan->conds + pn->cond_start, pn->cond_count, node,
                                       &stop);
    if (stop) ecs_sched__run_stop(r, node);
    return holds && !stop;
}

/* ---- what a thread holds ---- */

static void ecs_sched__work_clear(ecs_sched__work *work) {
    work->first = work->end = 0;
    work->newest = work->oldest = -1;
    work->count = 0;
    work->ready_cost = 0;
}

static void ecs_sched__work_push(ecs_sched__run *r, ecs_sched__work *work, int32_t node) {
    ecs_sched__run_slot *slot = &r->slots[node];
    slot->older = work->newest;
    slot->newer = -1;
    if (work->newest >= 0) r->slots[work->newest].newer = node;
    else work->oldest = node;
    work->newest = node;
    work->count++;
    work->ready_cost += slot->cost_ns;
}

/* The newest ready node, else the first root; -1 when nothing is left. */
static int32_t ecs_sched__work_take(ecs_sched__run *r, ecs_sched__work *work) {
    int32_t node = work->newest;
    const ecs_sched__run_slot *slot;
    if (node < 0) return work->first < work->end ? r->roots[work->first++] : -1;
    slot = &r->slots[node];
    work->newest = slot->older;
    if (work->newest >= 0) r->slots[work->newest].newer = -1;
    else work->oldest = -1;
    work->count--;
    work->ready_cost -= slot->cost_ns;
    return node;
}

static int64_t ecs_sched__roots_cost(const ecs_sched__run *r, int32_t first, int32_t end) {
    return r->root_sums[end] - r->root_sums[first];
}

static int64_t ecs_sched__work_cost(const ecs_sched__run *r, const ecs_sched__work *work) {
    return work->ready_cost + ecs_sched__roots_cost(r, work->first, work->end);
}

/* A node is done: its successors lose a predecessor; those left with none join the work, the
   first successor on top, so that it runs next. */
static void ecs_sched__run_successors(ecs_sched__run *r, int32_t node, ecs_sched__work *work) {
    const ecs_sched__plan *plan = r->s->plan;
    const ecs_sched__plan_node *pn = &plan->nodes[node];
    int32_t e = pn->successor_start + pn->successor_count;
    while (e-- > pn->successor_start) {
        int32_t t = plan->successors[e];
        if (plan->nodes[t].dependency_count == 1 ||
            atomic_fetch_sub_explicit(&r->pending[t], 1, memory_order_acq_rel) == 1) {
            ecs_sched__work_push(r, work, t);
        }
    }
}

/* ---- offering work ---- */

static void ecs_sched__run_batch(void *arg);

static void ecs_sched__offer(ecs_sched__run *r, ecs_sched__run_slot *first, int64_t cost) {
    first->batch_cost = cost;
    ecs_sched__pool_offer(r->pool, &r->group, ecs_sched__run_batch, first,
                          cost >= ECS_SCHED_WAKE_MIN_NS);
}

/* Offers the last roots, from the one after which the rest costs no more than `target`
   (at least one root). */
static void ecs_sched__offer_roots(ecs_sched__run *r, ecs_sched__work *work, int64_t target) {
    int32_t low = work->first, high = work->end - 1;
    ecs_sched__run_slot *first;
    while (low < high) {   /* the first position p in [first, end) with sums[end] - sums[p] <= target */
        int32_t mid = low + (high - low) / 2;
        if (ecs_sched__roots_cost(r, mid, work->end) <= target) high = mid;
        else low = mid + 1;
    }
    first = &r->slots[r->roots[low]];
    first->batch_first = low;
    first->batch_last = work->end;
    first->batch_count = -1;
    work->end = low;
    ecs_sched__offer(r, first, ecs_sched__roots_cost(r, low, first->batch_last));
}

/* Offers the oldest ready nodes, up to about `target` (at least one node). */
static void ecs_sched__offer_ready(ecs_sched__run *r, ecs_sched__work *work, int64_t target) {
    ecs_sched__run_slot *first = &r->slots[work->oldest];
    int64_t cost = first->cost_ns;
    int32_t last = work->oldest, count = 1;
    while (cost < target && r->slots[last].newer >= 0) {
        last = r->slots[last].newer;
        cost += r->slots[last].cost_ns;
        count++;
    }
    work->oldest = r->slots[last].newer;
    if (work->oldest >= 0) r->slots[work->oldest].older = -1;
    else work->newest = -1;
    work->count -= count;
    work->ready_cost -= cost;
    r->slots[last].newer = -1;
    first->batch_first = first->node;
    first->batch_last = last;
    first->batch_count = count;
    ecs_sched__offer(r, first, cost);
}

/* Offers about half of all the thread's work: the work left and the node it runs next,
   which costs `running_ns`. Roots go first: they are the oldest. */
static void ecs_sched__offer_half(ecs_sched__run *r, ecs_sched__work *work, int32_t running_ns) {
    int64_t target = (ecs_sched__work_cost(r, work) + running_ns) / 2;
    if (work->first < work->end) ecs_sched__offer_roots(r, work, target);
    else ecs_sched__offer_ready(r, work, target);
}

/* ---- running nodes ---- */

/* Calls the system at plan position `at`, running on this thread meanwhile; returns whether
   the run stops. */
static bool ecs_sched__call_system(ecs_sched__schedule *s, ecs_sched__system *sys, int32_t at) {
    void *outer;
    if (s->world->ticks_on) ecs_sched__ctx_take_tick(&sys->ctx);
    outer = ecs_sched__running_begin(&sys->ctx);
    sys->fn(&sys->ctx);
    ecs_sched__running_end(outer);
    return sys->ctx.failure != ECS_SCHED_OK && ecs_sched__node_failed(s, at, &sys->ctx);
}

/* Calls the system of node `node`; a failure that stops the run stops it there. */
static void ecs_sched__run_system(ecs_sched__run *r, ecs_sched__system *sys, int32_t node) {
    if (ecs_sched__call_system(r->s, sys, node)) ecs_sched__run_stop(r, node);
}

static bool ecs_sched__time_this(int32_t cost_ns, uint32_t turn) {
    return cost_ns == 0 || cost_ns >= ECS_SCHED__TIMED_ALWAYS_NS ||
           (turn & (ECS_SCHED__SAMPLE_EVERY - 1u)) == 0;
}

/* The estimate after one more measurement: the first one as it is, then a running average
   that gives the new one half the weight. */
static int32_t ecs_sched__averaged_cost(int32_t estimate, int64_t measured) {
    int64_t sample = measured < 1 ? 1 : measured > INT32_MAX / 4 ? INT32_MAX / 4 : measured;
    return estimate == 0 ? (int32_t)sample : (int32_t)(((int64_t)estimate + sample) / 2);
}

/* An exclusive node whose conditions hold is left for the calling thread (a main-thread
   one with its conditions unevaluated: the calling thread evaluates them). */
static void ecs_sched__leave_exclusive(ecs_sched__run *r, int32_t node, ecs_sched__work *work) {
    const ecs_sched__plan_node *pn = &r->s->plan->nodes[node];
    if (!pn->main_thread && (pn->guard_set_count || pn->cond_count) &&
        !ecs_sched__run_stopped_before(r, node) && !ecs_sched__run_node_may_run(r, node)) {
        ecs_sched__run_successors(r, node, work);
    } else {
        atomic_store_explicit(&r->exclusive_ready, node, memory_order_release);
    }
}

/* A main-thread node another thread found ready: the calling thread runs it (and evaluates
   its conditions), when it next looks (between nodes, or while it waits). */
static void ecs_sched__hand_to_caller(ecs_sched__run *r, int32_t node) {
    ecs_sched__run_slot *slot = &r->slots[node];
    int32_t head = atomic_load_explicit(&r->main_ready, memory_order_relaxed);
    do {
        slot->main_next = head;
    } while (!atomic_compare_exchange_weak_explicit(&r->main_ready, &head, node,
                                                    memory_order_release, memory_order_relaxed));
    ecs_sched__event_notify(&r->pool->idle, true);  /* the caller may sleep in its wait */
}

/* The calling thread takes the main-thread nodes handed to it into its work. */
static bool ecs_sched__take_main_ready(ecs_sched__run *r, ecs_sched__work *work) {
    int32_t node;
    if (atomic_load_explicit(&r->main_ready, memory_order_relaxed) < 0) return false;
    node = atomic_exchange_explicit(&r->main_ready, -1, memory_order_acquire);
    while (node >= 0) {
        int32_t next = r->slots[node].main_next;
        ecs_sched__work_push(r, work, node);
        node = next;
    }
    return true;
}

/* Runs a ready node (its conditions, then its system) and adds the nodes it makes ready to
   the work. Returns the node's estimate. */
static int32_t ecs_sched__run_node(ecs_sched__run *r, int32_t node, ecs_sched__work *work) {
    const ecs_sched__plan *plan = r->s->plan;
    const ecs_sched__plan_node *pn = &plan->nodes[node];
    ecs_sched__run_slot *slot = &r->slots[node];
    bool timed;
    int64_t start;
    if (pn->exclusive) {
        ecs_sched__leave_exclusive(r, node, work);
        return 0;
    }
    if (pn->main_thread && ecs_sched__self(r->pool) != r->caller) {
        ecs_sched__hand_to_caller(r, node);
        return 0;
    }
    timed = ecs_sched__time_this(slot->cost_ns, plan->runs + (uint32_t)node);
    start = timed ? ecs_sched__now_ns() : 0;
    if (!ecs_sched__run_stopped_before(r, node) &&
        (!(pn->guard_set_count || pn->cond_count) || ecs_sched__run_node_may_run(r, node))) {
        ecs_sched__run_system(r, pn->system, node);
    }
    if (timed) {
        int32_t was = slot->cost_ns;
        slot->cost_ns = ecs_sched__averaged_cost(was, ecs_sched__now_ns() - start - r->clock_ns);
        if (pn->dependency_count == 0 && slot->cost_ns != was) {
            atomic_store_explicit(&r->root_sums_stale, true, memory_order_relaxed);
        }
    }
    ecs_sched__run_successors(r, node, work);
    return slot->cost_ns;
}

/* Runs the work to its end, offering half of it whenever that is worth a hand-off and the
   last offer was taken: while an offer waits in this thread's deque, no other thread is
   looking for work, and another offer would only cost a push now and a take back later
   (lazy binary splitting). */
static void ecs_sched__run_work(ecs_sched__run *r, ecs_sched__work *work) {
    int32_t self = ecs_sched__self(r->pool);
    bool may_offer = r->pool->count > 1, gathers_main = r->has_main && self == r->caller;
    int64_t spent = 0;
    int32_t node;
    for (;;) {
        if (gathers_main) ecs_sched__take_main_ready(r, work);
        if ((node = ecs_sched__work_take(r, work)) < 0) break;
        if (may_offer && (work->count > 0 || work->first < work->end) &&
            !ecs_sched__pool_holds_tasks(r->pool, self) &&
            ecs_sched__work_cost(r, work) >= ECS_SCHED_OFFER_MIN_NS) {
            ecs_sched__offer_half(r, work, r->slots[node].cost_ns);
        }
        spent += ecs_sched__run_node(r, node, work);
    }
    if (spent) atomic_fetch_add_explicit(&r->cost_ns, spent, memory_order_relaxed);
}

static void ecs_sched__run_batch(void *arg) {
    ecs_sched__run_slot *first = (ecs_sched__run_slot *)arg;
    ecs_sched__work work;
    ecs_sched__work_clear(&work);
    if (first->batch_count < 0) {
        work.first = first->batch_first;
        work.end = first->batch_last;
    } else {
        work.oldest = first->batch_first;
        work.newest = first->batch_last;
        work.count = first->batch_count;
        work.ready_cost = first->batch_cost;
    }
    ecs_sched__run_work(first->run, &work);
}

/* Runs the exclusive node a thread left for the calling thread. */
static void ecs_sched__run_exclusive(ecs_sched__run *r, int32_t node) {
    const ecs_sched__plan_node *pn = &r->s->plan->nodes[node];
    if (ecs_sched__run_stopped_before(r, node)) return;
    if (pn->sync) {
        if (ecs_sched__apply_pending(r->s)) ecs_sched__run_stop(r, node);
    } else {
        ecs_sched__run_system(r, pn->system, node);
    }
}

static void ecs_sched__sum_root_costs(ecs_sched__run *r) {
    int64_t sum = 0;
    int32_t i;
    for (i = 0; i < r->root_count; i++) {
        r->root_sums[i] = sum;
        sum += r->slots[r->roots[i]].cost_ns;
    }
    r->root_sums[r->root_count] = sum;
}

/* Gets the run state ready for a run; the work of the calling thread: all the roots. */
static void ecs_sched__run_reset(ecs_sched__run *r, ecs_sched__work *work) {
    const ecs_sched__plan *plan = r->s->plan;
    int32_t i;
    for (i = 0; i < r->join_count; i++) {
        int32_t node = r->joins[i];
        atomic_store_explicit(&r->pending[node], plan->nodes[node].dependency_count,
                              memory_order_relaxed);
    }
    for (i = 0; i < plan->set_count; i++) {
        atomic_store_explicit(&r->set_state[i], 0, memory_order_relaxed);
    }
    if (atomic_exchange_explicit(&r->root_sums_stale, false, memory_order_relaxed)) {
        ecs_sched__sum_root_costs(r);
    }
    atomic_store_explicit(&r->exclusive_ready, -1, memory_order_relaxed);
    atomic_store_explicit(&r->stop_at, INT32_MAX, memory_order_relaxed);
    atomic_store_explicit(&r->cost_ns, 0, memory_order_relaxed);
    ecs_sched__work_clear(work);
    work->end = r->root_count;
}

/* Whether a main-thread node waits for the calling thread: its wait stops for it. */
static bool ecs_sched__main_waits(void *arg) {
    ecs_sched__run *r = (ecs_sched__run *)arg;
    return atomic_load_explicit(&r->main_ready, memory_order_acquire) >= 0;
}

static ecs_sched_result ecs_sched__execute_parallel(ecs_sched__run *r) {
    ecs_sched__plan *plan = r->s->plan;
    ecs_sched__work work;
    int32_t node;
    ecs_sched__run_reset(r, &work);
    r->caller = ecs_sched__self(r->pool);
    for (;;) {
        const ecs_sched__plan_node *pn;
        ecs_sched__run_work(r, &work);
        ecs_sched__pool_wait_or(r->pool, &r->group, r->has_main ? ecs_sched__main_waits : NULL, r);
        if (ecs_sched__take_main_ready(r, &work)) continue;
        node = atomic_exchange_explicit(&r->exclusive_ready, -1, memory_order_acq_rel);
        if (node < 0) break;
        pn = &plan->nodes[node];
        if (pn->main_thread && (pn->guard_set_count || pn->cond_count) &&
            !ecs_sched__run_stopped_before(r, node) && !ecs_sched__run_node_may_run(r, node)) {
            ecs_sched__run_successors(r, node, &work);
            continue;
        }
        ecs_sched__run_exclusive(r, node);
        ecs_sched__run_successors(r, node, &work);
    }
    ecs_sched__apply_pending(r->s);
    return r->s->failure_code;
}

/* ---- choosing, run by run ---- */

#define ECS_SCHED__RETRY_FIRST 16u
#define ECS_SCHED__RETRY_MOST 256u

static void ecs_sched__run_times_add(ecs_sched__run_times *t, int64_t took) {
    t->recent[t->next] = took > 1 ? took : 1;
    t->next = (t->next + 1) % ECS_SCHED__RECENT_RUNS;
}

/* The least recent time; 0 when there is none. */
static int64_t ecs_sched__run_times_best(const ecs_sched__run_times *t) {
    int64_t best = 0;
    int32_t i;
    for (i = 0; i < ECS_SCHED__RECENT_RUNS; i++) {
        if (t->recent[i] > 0 && (best == 0 || t->recent[i] < best)) best = t->recent[i];
    }
    return best;
}

/* A run on the calling thread, timed: the part a parallel run could spread (all but the
   exclusive nodes) goes to plan->work_ns, the whole run to *took. */
static ecs_sched_result ecs_sched__execute_measured(ecs_sched__schedule *s, int64_t *took) {
    ecs_sched__plan *plan = s->plan;
    bool whole = plan->exclusive_count == 0;   /* all of it could be spread: one timing */
    bool stopped = false;
    int64_t began = ecs_sched__now_ns(), work = 0;
    int32_t p = 0, k;
    if (plan->set_count) memset(plan->set_state, 0, (size_t)plan->set_count);
    for (k = 0; k <= plan->exclusive_count && !stopped; k++) {
        int32_t end = k < plan->exclusive_count ? plan->exclusive_at[k] : plan->node_count;
        if (p < end) {
            int64_t start = whole ? 0 : ecs_sched__now_ns();
            stopped = ecs_sched__execute_range(s, p, end);
            if (!whole) work += ecs_sched__now_ns() - start;
        }
        if (!stopped && end < plan->node_count) stopped = ecs_sched__execute_range(s, end, end + 1);
        p = end + 1;
    }
    ecs_sched__apply_pending(s);
    *took = ecs_sched__now_ns() - began;
    if (whole) work = *took;
    plan->work_ns = work > 1 ? work : 1;
    return s->failure_code;
}

/* A parallel run, timed. Its first one, made before any system had an estimate, offered
   nothing, so it says nothing about what threads gain. When the estimates of the systems it
   ran add up to less than ECS_SCHED_PARALLEL_MIN_NS, the schedule is cheap again. */
static ecs_sched_result ecs_sched__execute_parallel_measured(ecs_sched__run *r, bool counts) {
    ecs_sched__plan *plan = r->s->plan;
    int64_t began = ecs_sched__now_ns(), took, estimates;
    ecs_sched_result result = ecs_sched__execute_parallel(r);
    took = ecs_sched__now_ns() - began;
    if (plan->parallel_runs++ > 0 && counts) ecs_sched__run_times_add(&plan->parallel, took);
    estimates = atomic_load_explicit(&r->cost_ns, memory_order_relaxed);
    if (estimates < ECS_SCHED_PARALLEL_MIN_NS) plan->work_ns = estimates > 1 ? estimates : 1;
    return result;
}

/* Before a parallel run that follows runs on the calling thread: node estimates change only
   in parallel runs, so while the calling thread wins they can drift far from what the nodes
   now take (the first ones, made on cold caches, stay for thousands of runs). Their total is
   brought back to the last timing of the whole work when it is off by more than half (too
   high, a run would wake workers for work that is not there; too low, it would keep work it
   should share). */
static void ecs_sched__rescale_estimates(ecs_sched__run *r, int64_t work_ns) {
    const ecs_sched__plan *plan = r->s->plan;
    int64_t total = 0;
    int32_t i;
    for (i = 0; i < plan->node_count; i++) total += r->slots[i].cost_ns;
    if (total <= 0 || (total <= 2 * work_ns && 2 * total >= work_ns)) return;
    for (i = 0; i < plan->node_count; i++) {
        ecs_sched__run_slot *slot = &r->slots[i];
        if (slot->cost_ns > 0) {
            int64_t scaled = (int64_t)((double)slot->cost_ns * (double)work_ns / (double)total);
            slot->cost_ns = scaled > 1 ? (int32_t)scaled : 1;
        }
    }
    atomic_store_explicit(&r->root_sums_stale, true, memory_order_relaxed);
}

static bool ecs_sched__parallel_wins(const ecs_sched__plan *plan) {
    int64_t parallel = ecs_sched__run_times_best(&plan->parallel);
    return parallel > 0 && parallel < ecs_sched__run_times_best(&plan->single);
}

/* Runs the way that has been faster; now and then, the other way, to see whether that has
   changed: soon after a change of winner, less and less often while the winner stays. Until
   a parallel run has been timed, every run is parallel. Trying the parallel way again takes
   two runs, and only the second counts: after many runs on the calling thread the workers
   sleep, and the first run pays for waking them (hundreds of microseconds in some virtual
   machines), which runs back to back would not pay again. */
static ecs_sched_result ecs_sched__execute_faster(ecs_sched__plan *plan, ecs_sched__schedule *s,
                                                  uint32_t turn) {
    bool parallel_known = ecs_sched__run_times_best(&plan->parallel) > 0;
    bool parallel_won = ecs_sched__parallel_wins(plan);
    bool retry = !parallel_known || turn >= plan->retry_at;
    bool warm_up = retry && parallel_known && !parallel_won && plan->warmed_at != turn - 1u;
    ecs_sched_result result;
    if (parallel_won != retry) {
        if (warm_up) ecs_sched__rescale_estimates(plan->run_state, plan->work_ns);
        result = ecs_sched__execute_parallel_measured(plan->run_state, !warm_up);
        if (warm_up) {
            plan->warmed_at = turn;
            return result;
        }
    } else {
        int64_t took;
        result = ecs_sched__execute_measured(s, &took);
        ecs_sched__run_times_add(&plan->single, took);
    }
    if (!parallel_known) {
        plan->retry_every = ECS_SCHED__RETRY_FIRST;
        plan->retry_at = turn + ECS_SCHED__RETRY_FIRST;
    } else if (retry) {
        bool changed = ecs_sched__parallel_wins(plan) != parallel_won;
        uint32_t every = plan->retry_every ? plan->retry_every : ECS_SCHED__RETRY_FIRST;
        plan->retry_every = changed ? ECS_SCHED__RETRY_FIRST
                          : every < ECS_SCHED__RETRY_MOST ? 2 * every : every;
        plan->retry_at = turn + plan->retry_every;
    }
    return result;
}

/* A cheap schedule's run on the calling thread, timed. When it is cheap no more, both ways
   are measured afresh. */
static ecs_sched_result ecs_sched__execute_cheap_measured(ecs_sched__plan *plan,
                                                         ecs_sched__schedule *s) {
    int64_t took;
    ecs_sched_result result = ecs_sched__execute_measured(s, &took);
    if (plan->work_ns >= ECS_SCHED_PARALLEL_MIN_NS) {
        memset(&plan->single, 0, sizeof plan->single);
        memset(&plan->parallel, 0, sizeof plan->parallel);
        ecs_sched__run_times_add(&plan->single, took);
        plan->retry_every = 0;
    }
    return result;
}

/* A schedule set to the parallel executor: on the calling thread while it is cheap (timed
   once every ECS_SCHED__SAMPLE_EVERY runs), else the faster way. With
   ECS_SCHED_PARALLEL_MIN_NS 0, every run is parallel. */
static ecs_sched_result ecs_sched__execute_adaptive(ecs_sched_world *w, ecs_sched__schedule *s) {
    ecs_sched__plan *plan = s->plan;
    uint32_t turn = ++plan->runs;
    if (plan->node_count == 0) return ECS_SCHED_OK;
    /* made on the first run, whichever way it goes, so that what a run allocates does not
       depend on how long systems took */
    if (!plan->run_state) {
        ecs_sched_pool *pool = ecs_sched_world_pool(w);
        if (!pool || !ecs_sched__run_state(w, s, pool)) return w->env.last_result;
    }
    if (ECS_SCHED_PARALLEL_MIN_NS <= 0) return ecs_sched__execute_parallel(plan->run_state);
    if (plan->work_ns >= ECS_SCHED_PARALLEL_MIN_NS) return ecs_sched__execute_faster(plan, s, turn);
    if (plan->work_ns == 0 || (turn & (ECS_SCHED__SAMPLE_EVERY - 1u)) == 1u) {
        return ecs_sched__execute_cheap_measured(plan, s);
    }
    return ecs_sched__execute(w, s);
}

#endif /* ECS_SCHED_THREADS */

/* Runs a built schedule with the executor its settings ask for. */
static ecs_sched_result ecs_sched__execute_chosen(ecs_sched_world *w, ecs_sched__schedule *s) {
#ifdef ECS_SCHED_THREADS
    if (ecs_sched__runs_in_parallel(s)) return ecs_sched__execute_adaptive(w, s);
#endif
    return ecs_sched__execute(w, s);
}

/* Runs a stored schedule found already (state transitions keep theirs). */
static ecs_sched_result ecs_sched__run_schedule(ecs_sched_world *w, ecs_sched__schedule *s) {
    ecs_sched__schedules *all = w->schedules;
    ecs_sched_result result;
    if (w->observers && ecs_sched__refused_in_observer(w, "running a schedule")) {
        return ECS_SCHED_ERR_ACCESS;
    }
    if (s->running) {
        ecs_sched__text text;
        int32_t i;
        ecs_sched__text_init(&text, &w->env);
        ecs_sched__text_printf(&text, "schedule '%s' is run while it is already running (", s->label);
        for (i = 0; i < all->depth; i++) ecs_sched__text_printf(&text, "%s -> ", all->stack[i]->label);
        ecs_sched__text_printf(&text, "%s); a schedule cannot run itself, directly or through "
                                      "other schedules",
                               s->label);
        result = ecs_sched__fail_text(&w->env, ECS_SCHED_ERR_RECURSIVE_RUN,
                                      text.data ? text.data : "schedule runs itself");
        ecs_sched__text_free(&text);
        return result;
    }
    ecs_sched__failures_reset(s);   /* a run that fails to start has none either */
    if (all->depth >= ECS_SCHED__MAX_NESTED_RUNS) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_LIMIT,
                               "running schedule '%s' would nest more than %d schedule runs",
                               s->label, ECS_SCHED__MAX_NESTED_RUNS);
    }
    result = ecs_sched__ensure_built(w, s);
    if (result != ECS_SCHED_OK) return result;
    ecs_sched__ticks_maybe_check(w);
    s->running = true;
#ifdef ECS_SCHED_THREADS
    if (all->depth == 0) w->schedule_thread = pthread_self();
#endif
    if (all->depth == 0 && !all->top_runs_held) all->top_runs++;
    all->stack[all->depth++] = s;
    result = ecs_sched__execute_chosen(w, s);
    all->depth--;
    s->running = false;
    if (result == ECS_SCHED_OK) return ECS_SCHED_OK;
    return ecs_sched__run_failed(w, s, result);
}

ecs_sched_result ecs_sched_run_schedule(ecs_sched_world *w, const char *label) {
    ecs_sched__schedule *s;
    ECS_SCHED__CHECK_WORLD(w);
    s = ecs_sched__schedule_known(w, label);
    if (!s) return w->env.last_result;
    return ecs_sched__run_schedule(w, s);
}

/*=============================== src/time.h (implementation) ================================*/
/* time: the real, virtual and fixed clocks, and the fixed-timestep runner. */

#if defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#else
#include <time.h>
#include <sys/time.h>
#include <sys/select.h>
#if !defined(CLOCK_MONOTONIC) && defined(__linux__)
/* Strict ISO C (-std=c99 with glibc): <time.h> hides clock_gettime and <unistd.h> hides
   syscall, but the system call itself is there. */
#include <sys/syscall.h>
#if defined(SYS_clock_gettime)
#define ECS_SCHED__CLOCK_BY_SYSCALL 1
#ifndef ECS_SCHED__SYSCALL_DECLARED
#define ECS_SCHED__SYSCALL_DECLARED
long syscall(long number, ...);
#endif
#endif
#endif
#endif

/* What the world keeps for its clocks. */
struct ecs_sched__clocks {
    ecs_sched_id time, real, virtual_, fixed;
    ecs_sched_clock_fn clock;
    ecs_sched_sleep_fn sleep;
    void *user_data;
    ecs_sched__schedule *fixed_main;     /* found at the runner's first run */
    bool has_reading;                    /* the clock hook was read by an advance */
};

/* ---- the default clock and sleep ---- */

#if defined(_WIN32)
static int64_t ecs_sched__system_clock(void *user_data) {
    LARGE_INTEGER frequency, counter;
    (void)user_data;
    QueryPerformanceFrequency(&frequency);
    QueryPerformanceCounter(&counter);
    return (int64_t)((double)counter.QuadPart * 1e9 / (double)frequency.QuadPart);
}

static void ecs_sched__system_sleep(int64_t duration_ns, void *user_data) {
    (void)user_data;
    if (duration_ns > 0) Sleep((DWORD)((duration_ns + 999999) / 1000000));
}
#else
/* The monotonic clock. Where neither clock_gettime nor its system call can be reached, the
   fallback, gettimeofday, follows changes of the system clock: set a clock hook there. */
static int64_t ecs_sched__system_clock(void *user_data) {
    (void)user_data;
#if defined(CLOCK_MONOTONIC)
    {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (int64_t)ts.tv_sec * ECS_SCHED_NS_PER_SECOND + (int64_t)ts.tv_nsec;
    }
#elif defined(ECS_SCHED__CLOCK_BY_SYSCALL)
    {
        long ts[2];   /* what this call fills on Linux: seconds and nanoseconds, both long */
        syscall(SYS_clock_gettime, 1L /* CLOCK_MONOTONIC */, ts);
        return (int64_t)ts[0] * ECS_SCHED_NS_PER_SECOND + (int64_t)ts[1];
    }
#else
    {
        struct timeval tv;
        gettimeofday(&tv, NULL);
        return (int64_t)tv.tv_sec * ECS_SCHED_NS_PER_SECOND + (int64_t)tv.tv_usec * 1000;
    }
#endif
}

static void ecs_sched__system_sleep(int64_t duration_ns, void *user_data) {
    struct timeval tv;
    (void)user_data;
    if (duration_ns <= 0) return;
    tv.tv_sec = (time_t)(duration_ns / ECS_SCHED_NS_PER_SECOND);
    tv.tv_usec = (long)(duration_ns % ECS_SCHED_NS_PER_SECOND / 1000);
    select(0, NULL, NULL, NULL, &tv);
}
#endif

/* ---- the clocks ---- */

static void ecs_sched__time_free(ecs_sched_world *w) {
    ecs_sched__free(&w->env, w->clocks);
    w->clocks = NULL;
}

/* a + b for b >= 0, stopping at INT64_MAX: clocks and timers saturate rather than wrap. */
static int64_t ecs_sched__add_saturated(int64_t a, int64_t b) {
    return b > 0 && a > INT64_MAX - b ? INT64_MAX : a + b;
}

static void ecs_sched__clock_advance(ecs_sched_time *t, int64_t delta_ns) {
    t->delta_ns = delta_ns;
    t->elapsed_ns = ecs_sched__add_saturated(t->elapsed_ns, delta_ns);
    t->delta_seconds = (double)delta_ns / 1e9;
    t->elapsed_seconds = (double)t->elapsed_ns / 1e9;
}

/* The clocks, or NULL with `operation`'s failure recorded. */
static ecs_sched__clocks *ecs_sched__clocks_known(ecs_sched_world *w, const char *operation) {
    if (!w->clocks) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_MISSING_RESOURCE,
                        "%s: this world has no clocks (create an app, or call "
                        "ecs_sched_time_setup first)", operation);
    }
    return w->clocks;
}

/* A resource the library made (a clock), or NULL with `operation`'s failure recorded (it was
   removed). */
static void *ecs_sched__required_resource(ecs_sched_world *w, ecs_sched_id id,
                                          const char *operation) {
    void *value = ecs_sched_resource_get_mut(w, id);
    if (!value) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_MISSING_RESOURCE,
                        "%s: resource '%s' was removed; the library made it and needs it",
                        operation, ecs_sched__component_label(w, id));
    }
    return value;
}

static ecs_sched_time_virtual *ecs_sched__virtual_clock(ecs_sched_world *w, const char *operation) {
    return ecs_sched__clocks_known(w, operation)
               ? (ecs_sched_time_virtual *)ecs_sched__required_resource(w, w->clocks->virtual_,
                                                                     operation)
               : NULL;
}

static ecs_sched_time_fixed *ecs_sched__fixed_clock(ecs_sched_world *w, const char *operation) {
    return ecs_sched__clocks_known(w, operation)
               ? (ecs_sched_time_fixed *)ecs_sched__required_resource(w, w->clocks->fixed, operation)
               : NULL;
}

static ecs_sched_id ecs_sched__register_clock(ecs_sched_world *w, const char *name, size_t size,
                                              const void *initial) {
    ecs_sched_id id = ecs_sched_component_register_type(w, name, size, 8);
    if (id && ecs_sched_resource_insert(w, id, initial) != ECS_SCHED_OK) return 0;
    return id;
}

static bool ecs_sched__speed_valid(double speed) {
    return speed >= 0 && speed <= 1e9;    /* false for NaN too */
}

static ecs_sched_result ecs_sched__bad_setting(ecs_sched_world *w, const char *what,
                                               const char *rule, double value) {
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT, "%s is %g; it must be %s",
                           what, value, rule);
}

static ecs_sched_result ecs_sched__check_time_desc(ecs_sched_world *w,
                                                   const ecs_sched_time_desc *d) {
    if (d->fixed_step_ns < 0) {
        return ecs_sched__bad_setting(w, "time_setup: fixed_step_ns", "> 0 (0: 1/64 s)",
                                      (double)d->fixed_step_ns);
    }
    if (d->max_delta_ns < 0) {
        return ecs_sched__bad_setting(w, "time_setup: max_delta_ns", "> 0 (0: 250 ms)",
                                      (double)d->max_delta_ns);
    }
    if (d->max_steps_per_frame < 0) {
        return ecs_sched__bad_setting(w, "time_setup: max_steps_per_frame", ">= 0 (0: no cap)",
                                      (double)d->max_steps_per_frame);
    }
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_time_setup(ecs_sched_world *w, const ecs_sched_time_desc *desc) {
    ecs_sched_time_desc d;
    ecs_sched__clocks *clocks;
    ecs_sched_time_real real;
    ecs_sched_time_virtual virt;
    ecs_sched_time_fixed fixed;
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    if (w->clocks) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "time_setup: this world has its clocks already (an app sets them "
                               "up; change them with the ecs_sched_time_set_... functions)");
    }
    memset(&d, 0, sizeof d);
    if (desc) d = *desc;
    result = ecs_sched__check_time_desc(w, &d);
    if (result != ECS_SCHED_OK) return result;
    clocks = (ecs_sched__clocks *)ecs_sched__calloc(&w->env, sizeof *clocks);
    if (!clocks) return ecs_sched__out_of_memory(w, "setting up the clocks");
    clocks->clock = d.clock ? d.clock : ecs_sched__system_clock;
    clocks->sleep = d.sleep ? d.sleep : ecs_sched__system_sleep;
    clocks->user_data = d.clock_user_data;
    memset(&real, 0, sizeof real);
    memset(&virt, 0, sizeof virt);
    virt.relative_speed = 1.0;
    virt.max_delta_ns = d.max_delta_ns ? d.max_delta_ns : ECS_SCHED_MILLISECONDS(250);
    memset(&fixed, 0, sizeof fixed);
    fixed.step_ns = d.fixed_step_ns ? d.fixed_step_ns : ECS_SCHED_HZ(64);
    fixed.time.delta_ns = fixed.step_ns;
    fixed.time.delta_seconds = (double)fixed.step_ns / 1e9;
    fixed.max_steps_per_frame = d.max_steps_per_frame;
    if (!(clocks->time = ecs_sched__register_clock(w, "Time", sizeof(ecs_sched_time), NULL)) ||
        !(clocks->real = ecs_sched__register_clock(w, "Time<Real>", sizeof real, &real)) ||
        !(clocks->virtual_ =
              ecs_sched__register_clock(w, "Time<Virtual>", sizeof virt, &virt)) ||
        !(clocks->fixed = ecs_sched__register_clock(w, "Time<Fixed>", sizeof fixed, &fixed))) {
        result = w->env.last_result;
        if (clocks->time) ecs_sched_resource_remove(w, clocks->time);
        if (clocks->real) ecs_sched_resource_remove(w, clocks->real);
        if (clocks->virtual_) ecs_sched_resource_remove(w, clocks->virtual_);
        ecs_sched__free(&w->env, clocks);
        return result != ECS_SCHED_OK ? result : ECS_SCHED_ERR_OUT_OF_MEMORY;
    }
    w->clocks = clocks;
    return ECS_SCHED_OK;
}

ecs_sched_id ecs_sched_time_id(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return w->clocks ? w->clocks->time : 0;
}

ecs_sched_id ecs_sched_time_real_id(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return w->clocks ? w->clocks->real : 0;
}

ecs_sched_id ecs_sched_time_virtual_id(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return w->clocks ? w->clocks->virtual_ : 0;
}

ecs_sched_id ecs_sched_time_fixed_id(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return w->clocks ? w->clocks->fixed : 0;
}

const ecs_sched_time *ecs_sched_ctx_time(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *w = ctx->world;
    if (!w->clocks) {
        ecs_sched__ctx_vfail(ctx, ECS_SCHED_ERR_MISSING_RESOURCE, false,
                             "reads the time, but this world has no clocks (create an app, or "
                             "call ecs_sched_time_setup first)");
        return NULL;
    }
    if (!ecs_sched_resource_exists(w, w->clocks->time)) {
        ecs_sched__ctx_vfail(ctx, ECS_SCHED_ERR_MISSING_RESOURCE, false,
                             "reads the time, but resource 'Time' was removed");
        return NULL;
    }
    return (const ecs_sched_time *)ecs_sched_ctx_resource(ctx, w->clocks->time);
}

int64_t ecs_sched_time_now(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    if (!w->clocks) return ecs_sched__system_clock(NULL);
    return w->clocks->clock(w->clocks->user_data);
}

void ecs_sched_time_sleep(const ecs_sched_world *w, int64_t duration_ns) {
    ECS_SCHED__CHECK_WORLD(w);
    if (!w->clocks) {
        ecs_sched__system_sleep(duration_ns, NULL);
        return;
    }
    w->clocks->sleep(duration_ns, w->clocks->user_data);
}

/* The settings a system may have written into Time<Virtual>, checked before they are used. */
static ecs_sched_result ecs_sched__check_virtual(ecs_sched_world *w,
                                                 const ecs_sched_time_virtual *v) {
    if (!ecs_sched__speed_valid(v->relative_speed)) {
        return ecs_sched__bad_setting(w, "Time<Virtual>.relative_speed",
                                      "between 0 and 1e9 (set it with ecs_sched_time_set_speed)",
                                      v->relative_speed);
    }
    if (v->max_delta_ns <= 0) {
        return ecs_sched__bad_setting(w, "Time<Virtual>.max_delta_ns",
                                      "> 0 (set it with ecs_sched_time_set_max_delta)",
                                      (double)v->max_delta_ns);
    }
    return ECS_SCHED_OK;
}

static int64_t ecs_sched__virtual_delta(const ecs_sched_time_virtual *v, int64_t real_delta) {
    int64_t clamped = real_delta < v->max_delta_ns ? real_delta : v->max_delta_ns;
    double scaled;
    if (v->paused) return 0;
    if (v->relative_speed == 1.0) return clamped;
    scaled = (double)clamped * v->relative_speed + 0.5;
    return scaled >= 9.2e18 ? INT64_MAX : (int64_t)scaled;
}

ecs_sched_result ecs_sched_time_advance_by(ecs_sched_world *w, int64_t real_delta_ns) {
    const char *operation = "time_advance";
    ecs_sched_time_real *real;
    ecs_sched_time_virtual *virt;
    ecs_sched_time *now;
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__clocks_known(w, operation)) return w->env.last_result;
    if (real_delta_ns < 0) {
        return ecs_sched__bad_setting(w, "time_advance: the delta", ">= 0 (in nanoseconds)",
                                      (double)real_delta_ns);
    }
    if (!(real = (ecs_sched_time_real *)ecs_sched__required_resource(w, w->clocks->real, operation)) ||
        !(virt = ecs_sched__virtual_clock(w, operation)) ||
        !(now = (ecs_sched_time *)ecs_sched__required_resource(w, w->clocks->time, operation))) {
        return w->env.last_result;
    }
    result = ecs_sched__check_virtual(w, virt);
    if (result != ECS_SCHED_OK) return result;
    ecs_sched__clock_advance(&real->time, real_delta_ns);
    ecs_sched__clock_advance(&virt->time, ecs_sched__virtual_delta(virt, real_delta_ns));
    *now = virt->time;
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_time_advance(ecs_sched_world *w) {
    ecs_sched_time_real *real;
    int64_t reading, delta;
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__clocks_known(w, "time_advance")) return w->env.last_result;
    real = (ecs_sched_time_real *)ecs_sched__required_resource(w, w->clocks->real, "time_advance");
    if (!real) return w->env.last_result;
    reading = w->clocks->clock(w->clocks->user_data);
    delta = !w->clocks->has_reading || reading < real->last_reading_ns
                ? 0 : reading - real->last_reading_ns;
    result = ecs_sched_time_advance_by(w, delta);
    if (result == ECS_SCHED_OK) {
        real->last_reading_ns = reading;
        w->clocks->has_reading = true;
    }
    return result;
}

ecs_sched_result ecs_sched_time_set_paused(ecs_sched_world *w, bool paused) {
    ecs_sched_time_virtual *virt;
    ECS_SCHED__CHECK_WORLD(w);
    virt = ecs_sched__virtual_clock(w, "time_set_paused");
    if (!virt) return w->env.last_result;
    virt->paused = paused;
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_time_set_speed(ecs_sched_world *w, double relative_speed) {
    ecs_sched_time_virtual *virt;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__speed_valid(relative_speed)) {
        return ecs_sched__bad_setting(w, "time_set_speed: the relative speed",
                                      "between 0 and 1e9 (1: real time; pause with "
                                      "ecs_sched_time_set_paused)", relative_speed);
    }
    virt = ecs_sched__virtual_clock(w, "time_set_speed");
    if (!virt) return w->env.last_result;
    virt->relative_speed = relative_speed;
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_time_set_max_delta(ecs_sched_world *w, int64_t max_delta_ns) {
    ecs_sched_time_virtual *virt;
    ECS_SCHED__CHECK_WORLD(w);
    if (max_delta_ns <= 0) {
        return ecs_sched__bad_setting(w, "time_set_max_delta: the maximum delta",
                                      "> 0 nanoseconds (default 250 ms)", (double)max_delta_ns);
    }
    virt = ecs_sched__virtual_clock(w, "time_set_max_delta");
    if (!virt) return w->env.last_result;
    virt->max_delta_ns = max_delta_ns;
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_time_set_fixed_step(ecs_sched_world *w, int64_t step_ns) {
    ecs_sched_time_fixed *fixed;
    ECS_SCHED__CHECK_WORLD(w);
    if (step_ns <= 0) {
        return ecs_sched__bad_setting(w, "time_set_fixed_step: the step",
                                      "> 0 nanoseconds (ECS_SCHED_HZ(64) is 1/64 s)",
                                      (double)step_ns);
    }
    fixed = ecs_sched__fixed_clock(w, "time_set_fixed_step");
    if (!fixed) return w->env.last_result;
    fixed->step_ns = step_ns;
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_time_set_max_steps_per_frame(ecs_sched_world *w, int32_t max_steps) {
    ecs_sched_time_fixed *fixed;
    ECS_SCHED__CHECK_WORLD(w);
    if (max_steps < 0) {
        return ecs_sched__bad_setting(w, "time_set_max_steps_per_frame: the cap",
                                      ">= 0 (0: no cap)", (double)max_steps);
    }
    fixed = ecs_sched__fixed_clock(w, "time_set_max_steps_per_frame");
    if (!fixed) return w->env.last_result;
    fixed->max_steps_per_frame = max_steps;
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_time_discard_overstep(ecs_sched_world *w) {
    ecs_sched_time_fixed *fixed;
    ECS_SCHED__CHECK_WORLD(w);
    fixed = ecs_sched__fixed_clock(w, "time_discard_overstep");
    if (!fixed) return w->env.last_result;
    fixed->overstep_ns = 0;
    fixed->overstep_fraction = 0;
    return ECS_SCHED_OK;
}

/* ---- the fixed-timestep runner ---- */

/* The clocks the runner works on, looked up again after each step: a system of FixedMain may
   have removed one (then NULL, with the failure recorded). */
typedef struct ecs_sched__runner_clocks {
    ecs_sched_time_virtual *virt;
    ecs_sched_time_fixed *fixed;
    ecs_sched_time *now;
} ecs_sched__runner_clocks;

static bool ecs_sched__runner_clocks_find(ecs_sched_world *w, ecs_sched__runner_clocks *c) {
    const char *operation = "run_fixed_main_loop";
    return (c->virt = ecs_sched__virtual_clock(w, operation)) != NULL &&
           (c->fixed = ecs_sched__fixed_clock(w, operation)) != NULL &&
           (c->now = (ecs_sched_time *)ecs_sched__required_resource(w, w->clocks->time,
                                                                    operation)) != NULL;
}

/* What the runner needs before it takes any time: its clocks, FixedMain, valid settings. */
static ecs_sched_result ecs_sched__runner_ready(ecs_sched_world *w, ecs_sched__runner_clocks *c) {
    const ecs_sched_time_fixed *fixed;
    if (!ecs_sched__runner_clocks_find(w, c)) return w->env.last_result;
    if (!w->clocks->fixed_main) {
        w->clocks->fixed_main = ecs_sched__schedule_known(w, ECS_SCHED_FIXED_MAIN);
        if (!w->clocks->fixed_main) return w->env.last_result;
    }
    fixed = c->fixed;
    if (fixed->step_ns <= 0) {
        return ecs_sched__bad_setting(w, "Time<Fixed>.step_ns",
                                      "> 0 (set it with ecs_sched_time_set_fixed_step)",
                                      (double)fixed->step_ns);
    }
    if (fixed->max_steps_per_frame < 0) {
        return ecs_sched__bad_setting(w, "Time<Fixed>.max_steps_per_frame", ">= 0",
                                      (double)fixed->max_steps_per_frame);
    }
    return ECS_SCHED_OK;
}

/* Drops the whole steps left when the cap stopped the runner; the part of a step stays. */
static void ecs_sched__drop_whole_steps(ecs_sched_time_fixed *fixed, int64_t step) {
    int64_t whole = fixed->overstep_ns / step;
    fixed->overstep_ns -= whole * step;
    fixed->dropped_steps = ecs_sched__add_saturated(fixed->dropped_steps, whole);
}

/* One step: the fixed clock advances, "Time" shows it, and FixedMain runs. */
static ecs_sched_result ecs_sched__fixed_step(ecs_sched_world *w, ecs_sched__runner_clocks *c,
                                              int64_t step) {
    ecs_sched_time_fixed *fixed = c->fixed;
    fixed->overstep_ns -= step;
    ecs_sched__clock_advance(&fixed->time, step);
    fixed->overstep_fraction = (double)fixed->overstep_ns / (double)step;
    *c->now = fixed->time;
    return ecs_sched__run_schedule(w, w->clocks->fixed_main);
}

/* The step is read once per run: a step set while FixedMain runs applies from the next run. */
void ecs_sched_run_fixed_main_loop(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *w = ctx->world;
    ecs_sched__runner_clocks c = {NULL, NULL, NULL};
    ecs_sched_result result = ecs_sched__runner_ready(w, &c);
    int64_t step;
    int32_t steps = 0;
    if (result != ECS_SCHED_OK) return;   /* the system's failure already */
    step = c.fixed->step_ns;
    c.fixed->overstep_ns = ecs_sched__add_saturated(c.fixed->overstep_ns, c.virt->time.delta_ns);
    while (c.fixed->overstep_ns >= step) {
        if (c.fixed->max_steps_per_frame && steps >= c.fixed->max_steps_per_frame) {
            ecs_sched__drop_whole_steps(c.fixed, step);
            break;
        }
        steps++;
        result = ecs_sched__fixed_step(w, &c, step);
        w->fixed_step_since_update = true;
        if (!ecs_sched__runner_clocks_find(w, &c)) return;   /* a step removed the clocks */
        /* a step that failed is this system's failure already; the steps left run unless
           FixedMain's run stopped at it */
        if (ecs_sched__run_cut_short(w->clocks->fixed_main, result)) break;
    }
    c.fixed->overstep_fraction = (double)c.fixed->overstep_ns / (double)step;
    c.fixed->steps_this_frame = steps;
    *c.now = c.virt->time;
}

ecs_sched_system_desc ecs_sched_fixed_main_loop_system(void) {
    ecs_sched_system_desc d;
    memset(&d, 0, sizeof d);
    d.name = "run_fixed_main_loop";
    d.fn = ecs_sched_run_fixed_main_loop;
    d.exclusive = true;
    return d;
}

/* ---- conditions on time ---- */

static ecs_sched_condition ecs_sched__time_condition(ecs_sched_condition_kind kind,
                                                     int64_t duration_ns) {
    ecs_sched_condition c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.duration_ns = duration_ns;
    return c;
}

ecs_sched_condition ecs_sched_condition_on_timer(int64_t period_ns) {
    return ecs_sched__time_condition(ECS_SCHED_CONDITION_ON_TIMER, period_ns);
}

ecs_sched_condition ecs_sched_condition_once_after_delay(int64_t delay_ns) {
    return ecs_sched__time_condition(ECS_SCHED_CONDITION_ONCE_AFTER_DELAY, delay_ns);
}

ecs_sched_condition ecs_sched_condition_repeating_after_delay(int64_t delay_ns) {
    return ecs_sched__time_condition(ECS_SCHED_CONDITION_REPEATING_AFTER_DELAY, delay_ns);
}

ecs_sched_condition ecs_sched_condition_time_paused(void) {
    return ecs_sched__time_condition(ECS_SCHED_CONDITION_TIME_PAUSED, 0);
}

/* Checks a time condition as it is added and points it at the clock it reads. */
static ecs_sched_result ecs_sched__time_condition_fill(ecs_sched_world *w, ecs_sched__cond *node,
                                                       const ecs_sched_condition *c) {
    const char *name = ecs_sched__condition_default_name(c->kind);
    bool periodic = c->kind == ECS_SCHED_CONDITION_ON_TIMER;
    if (!w->clocks) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_MISSING_RESOURCE,
                               "condition '%s' reads the time, but this world has no clocks "
                               "(create an app, or call ecs_sched_time_setup first)",
                               c->name ? c->name : name);
    }
    if (c->duration_ns < 0 || (periodic && c->duration_ns == 0)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "condition '%s': its duration is %lld ns; it must be %s",
                               c->name ? c->name : name, (long long)c->duration_ns,
                               periodic ? "> 0" : ">= 0");
    }
    node->resource = c->kind == ECS_SCHED_CONDITION_TIME_PAUSED ? w->clocks->virtual_
                                                                : w->clocks->time;
    node->duration_ns = c->duration_ns;
    return ECS_SCHED_OK;
}

/* Feeds the condition's timer with the current delta and says whether it fires. */
static bool ecs_sched__time_condition_eval(ecs_sched_world *w, ecs_sched__cond *c) {
    const void *clock = c->resource < w->component_count ? w->resources[c->resource] : NULL;
    if (!clock) return false;
    if (c->kind == ECS_SCHED_CONDITION_TIME_PAUSED) {
        return ((const ecs_sched_time_virtual *)clock)->paused;
    }
    if (c->kind != ECS_SCHED_CONDITION_ON_TIMER && c->has_run) {
        return c->kind == ECS_SCHED_CONDITION_REPEATING_AFTER_DELAY;
    }
    c->timer_ns = ecs_sched__add_saturated(c->timer_ns, ((const ecs_sched_time *)clock)->delta_ns);
    if (c->timer_ns < c->duration_ns) return false;
    if (c->kind == ECS_SCHED_CONDITION_ON_TIMER) {
        c->timer_ns %= c->duration_ns;
    } else {
        c->has_run = true;
    }
    return true;
}

/*=============================== src/state.h (implementation) ===============================*/
/* state: state machines, their transitions and the schedules that run on them. */

/* The pending slot of a machine (a resource, so that queuing is a declared write). */
typedef struct ecs_sched__state_next {
    int32_t value;
    int32_t request;                  /* ECS_SCHED__STATE_REQUEST_* */
} ecs_sched__state_next;

enum {
    ECS_SCHED__STATE_REQUEST_NONE,
    ECS_SCHED__STATE_REQUEST_SET,     /* nothing happens when it is the current value */
    ECS_SCHED__STATE_REQUEST_REENTER, /* exit and enter again when it is the current value */
    ECS_SCHED__STATE_REQUEST_PUSH,    /* cover the current value with `value` */
    ECS_SCHED__STATE_REQUEST_POP      /* back to the value the top covers */
};

/* The schedules each value has, and how their labels start. */
enum {
    ECS_SCHED__ON_ENTER,
    ECS_SCHED__ON_EXIT,
    ECS_SCHED__ON_PAUSE,
    ECS_SCHED__ON_RESUME,
    ECS_SCHED__VALUE_SCHEDULES
};

static const char *const ecs_sched__value_schedule_names[ECS_SCHED__VALUE_SCHEDULES] = {
    "OnEnter", "OnExit", "OnPause", "OnResume"};

#define ECS_SCHED__DEFAULT_STATE_STACK 8

/* Where a transition schedule is, found once: schedules are never removed, so a schedule
   found stays; a label not found is looked up again only after new schedules appear. */
typedef struct ecs_sched__schedule_ref {
    ecs_sched__schedule *schedule;
    uint32_t looked_at;               /* the schedule count when looked up, plus 1; 0: never */
} ecs_sched__schedule_ref;

/* What decides a machine's value. */
enum {
    ECS_SCHED__STATE_ROOT,            /* queued values */
    ECS_SCHED__STATE_COMPUTED,        /* compute(its sources' values) */
    ECS_SCHED__STATE_SUB              /* queued values, while its parent is in parent_values */
};

typedef struct ecs_sched__state_machine {
    char *name;
    ecs_sched_id id;                  /* its current value's resource */
    ecs_sched_id next;                /* its pending slot's resource */
    ecs_sched_id scope;               /* its StateScoped component */
    ecs_sched_query *scoped;          /* the entities that have it */
    int32_t value_count;
    int32_t initial;
    char **value_names;               /* value_count of each */
    char **labels[ECS_SCHED__VALUE_SCHEDULES];   /* per value: "OnEnter(GameState::Menu)", ... */
    ecs_sched__schedule_ref *refs[ECS_SCHED__VALUE_SCHEDULES];
    char **transition_labels;         /* value_count * value_count, made when first asked */
    ecs_sched__schedule_ref *transition_refs;
    int32_t *stack;                   /* the values pushes cover, bottom first */
    int32_t depth;
    int32_t stack_capacity;
    bool entered;                     /* the first apply has given it its value */
    ecs_sched_state_transition last;
    uint64_t last_run;                /* the top-level run of the last transition */
    int kind;                         /* ECS_SCHED__STATE_ROOT, _COMPUTED or _SUB */
    /* the machines it depends on, as indexes into the registration order (always earlier):
       a computed state's sources, a sub-state's parent */
    uint32_t sources[ECS_SCHED_MAX_STATE_SOURCES];
    int32_t source_count;
    ecs_sched_state_compute_fn compute;
    void *user_data;
    bool parent_values[ECS_SCHED_MAX_STATE_VALUES];
} ecs_sched__state_machine;

/* What one apply does to one machine, decided before anything runs. */
typedef struct ecs_sched__state_step {
    int32_t from;                     /* ECS_SCHED_STATE_NONE: it starts to exist */
    int32_t to;                       /* ECS_SCHED_STATE_NONE: it stops existing */
    int request;                      /* ECS_SCHED__STATE_REQUEST_SET, _PUSH or _POP */
    bool moves;                       /* something runs for this machine */
    bool unwinds;                     /* the values its stack covers are exited too */
    bool restarts;                    /* exited and entered afresh: a re-enter, or a restart
                                         of a dependent machine; its dependents restart too */
    bool included;                    /* the apply is for this machine (or one it depends on) */
} ecs_sched__state_step;

struct ecs_sched__states {
    ecs_sched__state_machine *items;  /* in registration order */
    uint32_t count;
    uint32_t capacity;
    ecs_sched__state_step *steps;     /* per machine, in registration order: what an apply
                                         does, decided ahead */
    uint32_t step_capacity;
    bool applying;                    /* an apply is running its transition schedules */
    uint64_t run;                     /* the top-level run the running apply counts for */
};

/* ---- lookups ---- */

static ecs_sched__state_machine *ecs_sched__state_find(const ecs_sched_world *w,
                                                       ecs_sched_id machine) {
    uint32_t i;
    if (!w->states || !machine) return NULL;
    for (i = 0; i < w->states->count; i++) {
        if (w->states->items[i].id == machine) return &w->states->items[i];
    }
    return NULL;
}

/* The machine, or NULL with ECS_SCHED_ERR_UNKNOWN_STATE recorded for `operation`. */
static ecs_sched__state_machine *ecs_sched__state_known(ecs_sched_world *w, ecs_sched_id machine,
                                                        const char *operation) {
    ecs_sched__state_machine *m = ecs_sched__state_find(w, machine);
    if (!m) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_UNKNOWN_STATE,
                        "%s: id %u is not a state machine (register it with "
                        "ecs_sched_state_register)", operation, (unsigned)machine);
    }
    return m;
}

/* Whether `value` is one of m's values; records ECS_SCHED_ERR_INVALID_ARGUMENT if not. */
static bool ecs_sched__state_value_valid(ecs_sched_world *w, const ecs_sched__state_machine *m,
                                         int32_t value, const char *operation) {
    if (value >= 0 && value < m->value_count) return true;
    ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                    "%s: %d is not a value of state machine '%s' (its values are 0 to %d, "
                    "'%s' to '%s')", operation, (int)value, m->name, (int)m->value_count - 1,
                    m->value_names[0], m->value_names[m->value_count - 1]);
    return false;
}

static const ecs_sched_state_current *ecs_sched__state_current(const ecs_sched_world *w,
                                                               ecs_sched_id machine) {
    return machine < w->component_count ? (const ecs_sched_state_current *)w->resources[machine]
                                        : NULL;
}

static bool ecs_sched__state_is(const ecs_sched_world *w, ecs_sched_id machine, int32_t value) {
    const ecs_sched_state_current *current = ecs_sched__state_current(w, machine);
    return current && current->value == value;
}

static bool ecs_sched__state_exists(const ecs_sched_world *w, ecs_sched_id machine) {
    const ecs_sched_state_current *current = ecs_sched__state_current(w, machine);
    return current && current->value != ECS_SCHED_STATE_NONE;
}

static uint32_t ecs_sched__state_changes(const ecs_sched_world *w, ecs_sched_id machine) {
    const ecs_sched_state_current *current = ecs_sched__state_current(w, machine);
    return current ? current->changes : 0;
}

/* ---- registration ---- */

static void ecs_sched__strings_free(ecs_sched_world *w, char **strings, int32_t count) {
    int32_t i;
    if (!strings) return;
    for (i = 0; i < count; i++) ecs_sched__free(&w->env, strings[i]);
    ecs_sched__free(&w->env, strings);
}

static void ecs_sched__state_machine_free(ecs_sched_world *w, ecs_sched__state_machine *m) {
    int k;
    ecs_sched__strings_free(w, m->value_names, m->value_count);
    for (k = 0; k < ECS_SCHED__VALUE_SCHEDULES; k++) {
        ecs_sched__strings_free(w, m->labels[k], m->value_count);
        ecs_sched__free(&w->env, m->refs[k]);
    }
    ecs_sched__strings_free(w, m->transition_labels, m->value_count * m->value_count);
    ecs_sched__free(&w->env, m->transition_refs);
    ecs_sched__free(&w->env, m->stack);
    if (m->scoped && w->queries) ecs_sched_query_destroy(m->scoped);
    ecs_sched__free(&w->env, m->name);
}

static void ecs_sched__states_free(ecs_sched_world *w) {
    uint32_t i;
    if (!w->states) return;
    for (i = 0; i < w->states->count; i++) ecs_sched__state_machine_free(w, &w->states->items[i]);
    ecs_sched__free(&w->env, w->states->items);
    ecs_sched__free(&w->env, w->states->steps);
    ecs_sched__free(&w->env, w->states);
    w->states = NULL;
}

/* A string made by printf, owned by the world's allocator; NULL when out of memory. */
static char *ecs_sched__state_format(ecs_sched_world *w, const char *fmt, ...)
    ECS_SCHED__PRINTF(2, 3);
static char *ecs_sched__state_format(ecs_sched_world *w, const char *fmt, ...) {
    char buffer[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(buffer, sizeof buffer, fmt, args);
    va_end(args);
    return ecs_sched__strdup(&w->env, buffer);
}

static int32_t ecs_sched__state_desc_value_count(const ecs_sched_state_desc *desc) {
    int32_t n = 0;
    while (n < ECS_SCHED_MAX_STATE_VALUES && desc->values[n]) n++;
    return n;
}

static int32_t ecs_sched__state_stack_capacity(const ecs_sched_state_desc *desc) {
    return desc->stack_capacity > 0 ? desc->stack_capacity : ECS_SCHED__DEFAULT_STATE_STACK;
}

/* Whether an existing machine has exactly the values (and stack capacity) of desc; its
   initial value may differ. */
static bool ecs_sched__state_same_values(const ecs_sched__state_machine *m,
                                         const ecs_sched_state_desc *desc, int32_t count) {
    int32_t i;
    if (count != m->value_count || ecs_sched__state_stack_capacity(desc) != m->stack_capacity) {
        return false;
    }
    for (i = 0; i < count; i++) {
        if (strcmp(desc->values[i], m->value_names[i]) != 0) return false;
    }
    return true;
}

static ecs_sched_result ecs_sched__state_desc_check(ecs_sched_world *w,
                                                    const ecs_sched_state_desc *desc,
                                                    int32_t count) {
    int32_t i, j;
    if (!desc || !desc->name || !desc->name[0]) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "state_register: a state machine needs a name");
    }
    if (count == 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "state_register('%s'): give the names of its values in .values",
                               desc->name);
    }
    for (i = count; i < ECS_SCHED_MAX_STATE_VALUES; i++) {
        if (desc->values[i]) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "state_register('%s'): .values[%d] is NULL but .values[%d] "
                                   "is not; list the values without gaps",
                                   desc->name, (int)count, (int)i);
        }
    }
    for (i = 0; i < count; i++) {
        if (!desc->values[i][0]) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "state_register('%s'): value %d has an empty name",
                                   desc->name, (int)i);
        }
        for (j = 0; j < i; j++) {
            if (strcmp(desc->values[i], desc->values[j]) == 0) {
                return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                       "state_register('%s'): values %d and %d are both named "
                                       "'%s'", desc->name, (int)j, (int)i, desc->values[i]);
            }
        }
    }
    if (desc->stack_capacity < 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "state_register('%s'): stack_capacity %d is negative (0 means "
                               "the default, %d)", desc->name, (int)desc->stack_capacity,
                               ECS_SCHED__DEFAULT_STATE_STACK);
    }
    if (desc->initial < 0 || desc->initial >= count) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "state_register('%s'): initial value %d is not one of its %d "
                               "values", desc->name, (int)desc->initial, (int)count);
    }
    return ECS_SCHED_OK;
}

/* The names and labels of m, from desc; false when out of memory (m then half-filled, for
   ecs_sched__state_machine_free). */
static bool ecs_sched__state_machine_fill(ecs_sched_world *w, ecs_sched__state_machine *m,
                                          const ecs_sched_state_desc *desc, int32_t count) {
    ecs_sched__env *env = &w->env;
    size_t n = (size_t)count;
    int32_t i, k;
    m->value_count = count;
    m->initial = desc->initial;
    m->stack_capacity = ecs_sched__state_stack_capacity(desc);
    m->last.from = m->last.to = ECS_SCHED_STATE_NONE;
    m->name = ecs_sched__strdup(env, desc->name);
    m->value_names = (char **)ecs_sched__calloc(env, sizeof(char *) * n);
    m->transition_labels = (char **)ecs_sched__calloc(env, sizeof(char *) * n * n);
    m->transition_refs =
        (ecs_sched__schedule_ref *)ecs_sched__calloc(env, sizeof(ecs_sched__schedule_ref) * n * n);
    m->stack = (int32_t *)ecs_sched__calloc(env, sizeof(int32_t) * (size_t)m->stack_capacity);
    if (!m->name || !m->value_names || !m->transition_labels || !m->transition_refs ||
        !m->stack) {
        return false;
    }
    for (k = 0; k < ECS_SCHED__VALUE_SCHEDULES; k++) {
        m->labels[k] = (char **)ecs_sched__calloc(env, sizeof(char *) * n);
        m->refs[k] = (ecs_sched__schedule_ref *)ecs_sched__calloc(
            env, sizeof(ecs_sched__schedule_ref) * n);
        if (!m->labels[k] || !m->refs[k]) return false;
    }
    for (i = 0; i < count; i++) {
        m->value_names[i] = ecs_sched__strdup(env, desc->values[i]);
        if (!m->value_names[i]) return false;
        for (k = 0; k < ECS_SCHED__VALUE_SCHEDULES; k++) {
            m->labels[k][i] = ecs_sched__state_format(w, "%s(%s::%s)",
                                                      ecs_sched__value_schedule_names[k],
                                                      desc->name, desc->values[i]);
            if (!m->labels[k][i]) return false;
        }
    }
    return true;
}

/* The resource types of a machine: "State(GameState)" and "NextState(GameState)". */
static bool ecs_sched__state_register_types(ecs_sched_world *w, ecs_sched__state_machine *m) {
    ecs_sched_component_desc c;
    char name[256];
    memset(&c, 0, sizeof c);
    c.name = name;
    snprintf(name, sizeof name, "State(%s)", m->name);
    c.size = sizeof(ecs_sched_state_current);
    m->id = ecs_sched_component_register(w, &c);
    snprintf(name, sizeof name, "NextState(%s)", m->name);
    c.size = sizeof(ecs_sched__state_next);
    m->next = m->id ? ecs_sched_component_register(w, &c) : 0;
    snprintf(name, sizeof name, "StateScoped(%s)", m->name);
    c.size = sizeof(ecs_sched_state_scoped);
    m->scope = m->next ? ecs_sched_component_register(w, &c) : 0;
    if (m->scope) {
        ecs_sched_query_desc q;
        memset(&q, 0, sizeof q);
        q.terms[0] = ecs_sched_read(m->scope);
        m->scoped = ecs_sched_query_create(w, &q);
    }
    return m->scoped && ecs_sched_resource_insert(w, m->next, NULL) == ECS_SCHED_OK;
}

static ecs_sched__state_machine *ecs_sched__state_find_name(const ecs_sched_world *w,
                                                            const char *name) {
    uint32_t i;
    if (!w->states) return NULL;
    for (i = 0; i < w->states->count; i++) {
        if (strcmp(w->states->items[i].name, name) == 0) return &w->states->items[i];
    }
    return NULL;
}

/* ---- computed states and sub-states ---- */

/* The machines desc depends on, as ids: a computed state's sources, a sub-state's parent. */
static int32_t ecs_sched__state_desc_dependencies(const ecs_sched_state_desc *desc,
                                                  ecs_sched_id *out) {
    int32_t n = 0;
    if (desc->parent) {
        out[0] = desc->parent;
        return 1;
    }
    while (n < ECS_SCHED_MAX_STATE_SOURCES && desc->sources[n]) {
        out[n] = desc->sources[n];
        n++;
    }
    return n;
}

static int32_t ecs_sched__state_index(const ecs_sched_world *w, const ecs_sched__state_machine *m) {
    return (int32_t)(m - w->states->items);
}

static bool ecs_sched__state_any_parent_value(const ecs_sched_state_desc *desc) {
    int32_t i;
    for (i = 0; i < ECS_SCHED_MAX_STATE_VALUES; i++) {
        if (desc->parent_values[i]) return true;
    }
    return false;
}

static ecs_sched_result ecs_sched__state_computed_check(ecs_sched_world *w,
                                                        const ecs_sched_state_desc *desc) {
    ecs_sched_id sources[ECS_SCHED_MAX_STATE_SOURCES];
    int32_t n = ecs_sched__state_desc_dependencies(desc, sources), i;
    for (i = n; i < ECS_SCHED_MAX_STATE_SOURCES; i++) {
        if (desc->sources[i]) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "state_register('%s'): .sources[%d] is 0 but .sources[%d] is "
                                   "not; list the sources without gaps",
                                   desc->name, (int)n, (int)i);
        }
    }
    if (!desc->compute) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "state_register('%s'): .sources is given without .compute; a "
                               "computed state needs the function that computes its value",
                               desc->name);
    }
    if (n == 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "state_register('%s'): .compute is given without .sources; list "
                               "the machines its value is computed from", desc->name);
    }
    for (i = 0; i < n; i++) {
        if (!ecs_sched__state_find(w, sources[i])) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_UNKNOWN_STATE,
                                   "state_register('%s'): .sources[%d], id %u, is not a state "
                                   "machine; register the sources before the states computed "
                                   "from them", desc->name, (int)i, (unsigned)sources[i]);
        }
    }
    if (desc->parent || ecs_sched__state_any_parent_value(desc) || desc->initial != 0 ||
        desc->stack_capacity != 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "state_register('%s'): a computed state takes no .parent, "
                               ".parent_values, .initial or .stack_capacity: its value is always "
                               "what .compute makes of its sources' values", desc->name);
    }
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__state_sub_check(ecs_sched_world *w,
                                                   const ecs_sched_state_desc *desc) {
    const ecs_sched__state_machine *parent = ecs_sched__state_find(w, desc->parent);
    int32_t i;
    if (!parent) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_UNKNOWN_STATE,
                               "state_register('%s'): .parent, id %u, is not a state machine; "
                               "register the parent before its sub-states", desc->name,
                               (unsigned)desc->parent);
    }
    if (!ecs_sched__state_any_parent_value(desc)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "state_register('%s'): a sub-state needs .parent_values: set "
                               ".parent_values[v] = true for each value v of '%s' it exists in",
                               desc->name, parent->name);
    }
    for (i = parent->value_count; i < ECS_SCHED_MAX_STATE_VALUES; i++) {
        if (desc->parent_values[i]) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "state_register('%s'): .parent_values[%d] is set, but parent "
                                   "'%s' has only %d values", desc->name, (int)i, parent->name,
                                   (int)parent->value_count);
        }
    }
    return ECS_SCHED_OK;
}

/* Checks what makes desc a computed state or a sub-state, if anything does. */
static ecs_sched_result ecs_sched__state_derived_check(ecs_sched_world *w,
                                                       const ecs_sched_state_desc *desc) {
    int32_t i;
    bool sources = desc->compute != NULL;
    for (i = 0; i < ECS_SCHED_MAX_STATE_SOURCES; i++) sources = sources || desc->sources[i];
    if (sources) return ecs_sched__state_computed_check(w, desc);
    if (desc->parent) return ecs_sched__state_sub_check(w, desc);
    if (ecs_sched__state_any_parent_value(desc)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "state_register('%s'): .parent_values is given without .parent; "
                               "a sub-state names its parent machine", desc->name);
    }
    return ECS_SCHED_OK;
}

/* Whether machine `from` depends on machine `target` (or is it), through its sources. */
static bool ecs_sched__state_depends(const ecs_sched_world *w, uint32_t from, uint32_t target) {
    const ecs_sched__state_machine *m = &w->states->items[from];
    int32_t i;
    if (from == target) return true;
    for (i = 0; i < m->source_count; i++) {
        if (ecs_sched__state_depends(w, m->sources[i], target)) return true;
    }
    return false;
}

/* Registering desc again under the name of `existing` must not make it depend on itself
   (machines depend on machines registered before them, so that is the only way to a cycle).
   The message follows one path of the cycle. */
static ecs_sched_result ecs_sched__state_cycle_check(ecs_sched_world *w,
                                                     const ecs_sched_state_desc *desc,
                                                     const ecs_sched__state_machine *existing) {
    ecs_sched_id deps[ECS_SCHED_MAX_STATE_SOURCES];
    uint32_t target = (uint32_t)ecs_sched__state_index(w, existing), at = target;
    int32_t n = ecs_sched__state_desc_dependencies(desc, deps), i, k;
    ecs_sched__text text;
    ecs_sched_result result;
    for (i = 0; i < n; i++) {
        at = (uint32_t)ecs_sched__state_index(w, ecs_sched__state_find(w, deps[i]));
        if (ecs_sched__state_depends(w, at, target)) break;
    }
    if (i == n) return ECS_SCHED_OK;
    ecs_sched__text_init(&text, &w->env);
    ecs_sched__text_printf(&text, "state_register('%s'): the state machines would be computed "
                                  "from each other: %s", desc->name, desc->name);
    for (;;) {
        const ecs_sched__state_machine *m = &w->states->items[at];
        ecs_sched__text_printf(&text, " -> %s", m->name);
        if (at == target) break;
        for (k = 0; !ecs_sched__state_depends(w, m->sources[k], target); k++) continue;
        at = m->sources[k];
    }
    ecs_sched__text_printf(&text, " (each depends on the next); a machine can depend only on "
                                  "machines registered before it");
    result = ecs_sched__fail_text(&w->env, ECS_SCHED_ERR_STATE_CYCLE,
                                  text.data ? text.data : "state machines in a cycle");
    ecs_sched__text_free(&text);
    return result;
}

/* Whether an existing machine depends on the same machines, the same way, as desc. */
static bool ecs_sched__state_same_dependencies(const ecs_sched_world *w,
                                               const ecs_sched__state_machine *m,
                                               const ecs_sched_state_desc *desc) {
    ecs_sched_id deps[ECS_SCHED_MAX_STATE_SOURCES];
    int32_t n = ecs_sched__state_desc_dependencies(desc, deps), i;
    if (n != m->source_count || m->compute != desc->compute || m->user_data != desc->user_data ||
        memcmp(m->parent_values, desc->parent_values, sizeof m->parent_values) != 0) {
        return false;
    }
    for (i = 0; i < n; i++) {
        if (w->states->items[m->sources[i]].id != deps[i]) return false;
    }
    return true;
}

/* What decides m's value, from desc (already checked). */
static void ecs_sched__state_machine_link(const ecs_sched_world *w, ecs_sched__state_machine *m,
                                          const ecs_sched_state_desc *desc) {
    ecs_sched_id deps[ECS_SCHED_MAX_STATE_SOURCES];
    int32_t i;
    m->kind = desc->compute ? ECS_SCHED__STATE_COMPUTED
              : desc->parent ? ECS_SCHED__STATE_SUB : ECS_SCHED__STATE_ROOT;
    m->source_count = ecs_sched__state_desc_dependencies(desc, deps);
    for (i = 0; i < m->source_count; i++) {
        m->sources[i] = (uint32_t)ecs_sched__state_index(w, ecs_sched__state_find(w, deps[i]));
    }
    m->compute = desc->compute;
    m->user_data = desc->user_data;
    memcpy(m->parent_values, desc->parent_values, sizeof m->parent_values);
}

ecs_sched_id ecs_sched_state_register(ecs_sched_world *w, const ecs_sched_state_desc *desc) {
    ecs_sched__state_machine m, *existing;
    int32_t count;
    ECS_SCHED__CHECK_WORLD(w);
    count = desc ? ecs_sched__state_desc_value_count(desc) : 0;
    if (ecs_sched__state_desc_check(w, desc, count) != ECS_SCHED_OK ||
        ecs_sched__state_derived_check(w, desc) != ECS_SCHED_OK) {
        return 0;
    }
    if (w->states && w->states->applying) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "state_register('%s'): state transitions are being applied; register "
                        "state machines before (outside OnEnter, OnExit and OnTransition)",
                        desc->name);
        return 0;
    }
    existing = ecs_sched__state_find_name(w, desc->name);
    if (existing) {
        if (ecs_sched__state_cycle_check(w, desc, existing) != ECS_SCHED_OK) return 0;
        if (ecs_sched__state_same_values(existing, desc, count) &&
            ecs_sched__state_same_dependencies(w, existing, desc)) {
            /* another initial value replaces the first until the machine has had a value,
               so a game can override a plugin's default */
            if (desc->initial == existing->initial || !existing->entered) {
                existing->initial = desc->initial;
                return existing->id;
            }
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_STATE_MISMATCH,
                            "state_register('%s'): another initial value (%s, was %s) comes "
                            "too late: the machine has had its first value; register it again "
                            "before the first apply", desc->name,
                            existing->value_names[desc->initial],
                            existing->value_names[existing->initial]);
            return 0;
        }
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_STATE_MISMATCH,
                        "state_register('%s'): a state machine of that name is registered with "
                        "other values, another stack capacity or other sources, parent or "
                        "compute function; register it once, or give the other machine another "
                        "name", desc->name);
        return 0;
    }
    if (!w->states) {
        w->states = (ecs_sched__states *)ecs_sched__calloc(&w->env, sizeof *w->states);
        if (!w->states) {
            ecs_sched__out_of_memory(w, "registering a state machine");
            return 0;
        }
    }
    memset(&m, 0, sizeof m);
    if (!ECS_SCHED__GROW(&w->env, w->states->items, &w->states->capacity,
                         w->states->count + 1) ||
        !ECS_SCHED__GROW(&w->env, w->states->steps, &w->states->step_capacity,
                         w->states->count + 1) ||
        !ecs_sched__state_machine_fill(w, &m, desc, count)) {
        ecs_sched__state_machine_free(w, &m);
        ecs_sched__out_of_memory(w, "registering a state machine");
        return 0;
    }
    if (!ecs_sched__state_register_types(w, &m)) {
        ecs_sched__state_machine_free(w, &m);  /* the world's error says why */
        return 0;
    }
    ecs_sched__state_machine_link(w, &m, desc);
    w->states->items[w->states->count++] = m;
    return m.id;
}

/* ---- reading and queuing ---- */

ecs_sched_id ecs_sched_state_next_id(ecs_sched_world *w, ecs_sched_id machine) {
    const ecs_sched__state_machine *m;
    ECS_SCHED__CHECK_WORLD(w);
    m = ecs_sched__state_known(w, machine, "state_next_id");
    return m ? m->next : 0;
}

int32_t ecs_sched_state_get(ecs_sched_world *w, ecs_sched_id machine) {
    const ecs_sched_state_current *current;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__state_known(w, machine, "state_get")) return ECS_SCHED_STATE_NONE;
    current = ecs_sched__state_current(w, machine);
    return current ? current->value : ECS_SCHED_STATE_NONE;
}

const char *ecs_sched_state_value_name(ecs_sched_world *w, ecs_sched_id machine, int32_t value) {
    const ecs_sched__state_machine *m;
    ECS_SCHED__CHECK_WORLD(w);
    m = ecs_sched__state_known(w, machine, "state_value_name");
    if (!m || !ecs_sched__state_value_valid(w, m, value, "state_value_name")) return NULL;
    return m->value_names[value];
}

/* Whether the stack allows the request, as it will stand at the next apply (only applies
   change it, and the request replaces any queued before). */
static bool ecs_sched__state_stack_allows(ecs_sched_world *w, const ecs_sched__state_machine *m,
                                          int request, const char *operation) {
    if (request == ECS_SCHED__STATE_REQUEST_PUSH && m->depth >= m->stack_capacity) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_LIMIT,
                        "%s: state machine '%s' already covers %d values, its stack_capacity; "
                        "pop first, or register it with a larger .stack_capacity",
                        operation, m->name, (int)m->depth);
        return false;
    }
    if (request == ECS_SCHED__STATE_REQUEST_POP && m->depth == 0) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "%s: state machine '%s' has nothing pushed to pop back from", operation,
                        m->name);
        return false;
    }
    return true;
}

/* Whether m takes queued values now: a computed state never does, a sub-state only while it
   exists. */
static bool ecs_sched__state_queueable(ecs_sched_world *w, const ecs_sched__state_machine *m,
                                       int32_t value, int request, const char *operation) {
    const ecs_sched__state_machine *parent;
    ecs_sched__text text;
    char what[160];
    int32_t v;
    const char *separator = " ";
    if (m->kind == ECS_SCHED__STATE_ROOT) return true;
    if (m->kind == ECS_SCHED__STATE_SUB && ecs_sched__state_exists(w, m->id)) return true;
    if (request == ECS_SCHED__STATE_REQUEST_POP) {
        snprintf(what, sizeof what, "%s(%s)", operation, m->name);
    } else {
        snprintf(what, sizeof what, "%s(%s::%s)", operation, m->name, m->value_names[value]);
    }
    if (m->kind == ECS_SCHED__STATE_COMPUTED) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "%s: '%s' is a computed state, its value follows its sources; queue "
                        "values for them instead", what, m->name);
        return false;
    }
    parent = &w->states->items[m->sources[0]];
    ecs_sched__text_init(&text, &w->env);
    ecs_sched__text_printf(&text, "%s: sub-state '%s' does not exist now: it exists only "
                                  "while '%s' is", what, m->name, parent->name);
    for (v = 0; v < parent->value_count; v++) {
        if (!m->parent_values[v]) continue;
        ecs_sched__text_printf(&text, "%s%s", separator, parent->value_names[v]);
        separator = " or ";
    }
    ecs_sched__text_printf(&text, ", from the apply that gets it there on; queue its values "
                                  "while it exists");
    ecs_sched__fail_text(&w->env, ECS_SCHED_ERR_STATE_ABSENT,
                         text.data ? text.data : "the sub-state does not exist now");
    ecs_sched__text_free(&text);
    return false;
}

/* Writes a request into m's pending slot `next` (already reached with the right access). */
static ecs_sched_result ecs_sched__state_queue(ecs_sched_world *w,
                                               const ecs_sched__state_machine *m,
                                               ecs_sched__state_next *next, int32_t value,
                                               int request, const char *operation) {
    if (request != ECS_SCHED__STATE_REQUEST_POP &&
        !ecs_sched__state_value_valid(w, m, value, operation)) {
        return w->env.last_result;
    }
    if (!ecs_sched__state_queueable(w, m, value, request, operation) ||
        !ecs_sched__state_stack_allows(w, m, request, operation)) {
        return w->env.last_result;
    }
    next->value = value;
    next->request = request;
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__state_queue_world(ecs_sched_world *w, ecs_sched_id machine,
                                                     int32_t value, int request,
                                                     const char *operation) {
    const ecs_sched__state_machine *m;
    ECS_SCHED__CHECK_WORLD(w);
    m = ecs_sched__state_known(w, machine, operation);
    if (!m) return w->env.last_result;
    return ecs_sched__state_queue(w, m,
                                  (ecs_sched__state_next *)w->resources[m->next], value,
                                  request, operation);
}

ecs_sched_result ecs_sched_state_set(ecs_sched_world *w, ecs_sched_id machine, int32_t value) {
    return ecs_sched__state_queue_world(w, machine, value, ECS_SCHED__STATE_REQUEST_SET,
                                        "state_set");
}

ecs_sched_result ecs_sched_state_set_reenter(ecs_sched_world *w, ecs_sched_id machine,
                                             int32_t value) {
    return ecs_sched__state_queue_world(w, machine, value, ECS_SCHED__STATE_REQUEST_REENTER,
                                        "state_set_reenter");
}

/* Whether a running system declared a read (or write) of the machine; refuses it if not. */
static bool ecs_sched__ctx_reads_state(ecs_sched_system_ctx *ctx,
                                       const ecs_sched__state_machine *m) {
    if (ecs_sched__ids_contain(ctx->reads, ctx->read_count, m->id) ||
        ecs_sched__ids_contain(ctx->writes, ctx->write_count, m->id)) {
        return true;
    }
    ecs_sched__ctx_refuse(ctx, "reads state machine '%s' without declaring it: add its id to "
                               "the desc's .reads", m->name);
    return false;
}

ecs_sched_result ecs_sched_state_push(ecs_sched_world *w, ecs_sched_id machine, int32_t value) {
    return ecs_sched__state_queue_world(w, machine, value, ECS_SCHED__STATE_REQUEST_PUSH,
                                        "state_push");
}

ecs_sched_result ecs_sched_state_pop(ecs_sched_world *w, ecs_sched_id machine) {
    return ecs_sched__state_queue_world(w, machine, 0, ECS_SCHED__STATE_REQUEST_POP,
                                        "state_pop");
}

int32_t ecs_sched_state_depth(ecs_sched_world *w, ecs_sched_id machine) {
    const ecs_sched__state_machine *m;
    ECS_SCHED__CHECK_WORLD(w);
    m = ecs_sched__state_known(w, machine, "state_depth");
    return m ? m->depth : -1;
}

int32_t ecs_sched_ctx_state(ecs_sched_system_ctx *ctx, ecs_sched_id machine) {
    const ecs_sched__state_machine *m;
    const ecs_sched_state_current *current;
    ECS_SCHED_ASSERT(ctx != NULL);
    m = ecs_sched__state_known(ctx->world, machine, "ctx_state");
    if (!m || !ecs_sched__ctx_reads_state(ctx, m)) return ECS_SCHED_STATE_NONE;
    current = ecs_sched__state_current(ctx->world, machine);
    return current ? current->value : ECS_SCHED_STATE_NONE;
}

static ecs_sched_result ecs_sched__state_queue_ctx(ecs_sched_system_ctx *ctx,
                                                   ecs_sched_id machine, int32_t value,
                                                   int request, const char *operation) {
    const ecs_sched__state_machine *m;
    ecs_sched__state_next *next;
    ECS_SCHED_ASSERT(ctx != NULL);
    m = ecs_sched__state_known(ctx->world, machine, operation);
    if (!m) return ctx->world->env.last_result;
    next = (ecs_sched__state_next *)ecs_sched_ctx_resource_mut(ctx, m->next);
    if (!next) return ECS_SCHED_ERR_ACCESS;
    return ecs_sched__state_queue(ctx->world, m, next, value, request, operation);
}

ecs_sched_result ecs_sched_ctx_state_set(ecs_sched_system_ctx *ctx, ecs_sched_id machine,
                                         int32_t value) {
    return ecs_sched__state_queue_ctx(ctx, machine, value, ECS_SCHED__STATE_REQUEST_SET,
                                      "ctx_state_set");
}

ecs_sched_result ecs_sched_ctx_state_set_reenter(ecs_sched_system_ctx *ctx, ecs_sched_id machine,
                                                 int32_t value) {
    return ecs_sched__state_queue_ctx(ctx, machine, value, ECS_SCHED__STATE_REQUEST_REENTER,
                                      "ctx_state_set_reenter");
}

ecs_sched_result ecs_sched_ctx_state_push(ecs_sched_system_ctx *ctx, ecs_sched_id machine,
                                          int32_t value) {
    return ecs_sched__state_queue_ctx(ctx, machine, value, ECS_SCHED__STATE_REQUEST_PUSH,
                                      "ctx_state_push");
}

ecs_sched_result ecs_sched_ctx_state_pop(ecs_sched_system_ctx *ctx, ecs_sched_id machine) {
    return ecs_sched__state_queue_ctx(ctx, machine, 0, ECS_SCHED__STATE_REQUEST_POP,
                                      "ctx_state_pop");
}

/* The number of the current top-level schedule run (between runs: of the last one). */
static uint64_t ecs_sched__top_run(const ecs_sched_world *w) {
    return w->schedules ? w->schedules->top_runs : 0;
}

/* The run a transition applied now counts for: the current one, or, outside any run, the
   next. */
static uint64_t ecs_sched__transition_run(const ecs_sched_world *w) {
    bool running = w->schedules && w->schedules->depth > 0;
    return ecs_sched__top_run(w) + (running ? 0 : 1);
}

ecs_sched_result ecs_sched_state_last_transition(ecs_sched_world *w, ecs_sched_id machine,
                                                 ecs_sched_state_transition *out) {
    const ecs_sched__state_machine *m;
    ECS_SCHED__CHECK_WORLD(w);
    m = ecs_sched__state_known(w, machine, "state_last_transition");
    if (!m) return w->env.last_result;
    if (!out) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "state_last_transition('%s'): needs somewhere to write", m->name);
    }
    *out = m->last;
    out->this_run = (m->last.from != ECS_SCHED_STATE_NONE || m->last.to != ECS_SCHED_STATE_NONE) &&
                    (m->last_run == ecs_sched__top_run(w) ||
                     m->last_run == ecs_sched__transition_run(w) ||
                     (w->states->applying && m->last_run == w->states->run));
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_ctx_state_last_transition(ecs_sched_system_ctx *ctx,
                                                     ecs_sched_id machine,
                                                     ecs_sched_state_transition *out) {
    const ecs_sched__state_machine *m;
    ECS_SCHED_ASSERT(ctx != NULL);
    m = ecs_sched__state_known(ctx->world, machine, "ctx_state_last_transition");
    if (!m) return ctx->world->env.last_result;
    if (!ecs_sched__ctx_reads_state(ctx, m)) return ECS_SCHED_ERR_ACCESS;
    return ecs_sched_state_last_transition(ctx->world, machine, out);
}

/* ---- labels ---- */

/* The label of one of a value's schedules (ECS_SCHED__ON_*), or NULL. */
static const char *ecs_sched__value_schedule(ecs_sched_world *w, ecs_sched_id machine,
                                             int32_t value, int kind, const char *operation) {
    const ecs_sched__state_machine *m;
    ECS_SCHED__CHECK_WORLD(w);
    m = ecs_sched__state_known(w, machine, operation);
    if (!m || !ecs_sched__state_value_valid(w, m, value, operation)) return NULL;
    return m->labels[kind][value];
}

const char *ecs_sched_on_enter(ecs_sched_world *w, ecs_sched_id machine, int32_t value) {
    return ecs_sched__value_schedule(w, machine, value, ECS_SCHED__ON_ENTER, "on_enter");
}

const char *ecs_sched_on_exit(ecs_sched_world *w, ecs_sched_id machine, int32_t value) {
    return ecs_sched__value_schedule(w, machine, value, ECS_SCHED__ON_EXIT, "on_exit");
}

const char *ecs_sched_on_pause(ecs_sched_world *w, ecs_sched_id machine, int32_t value) {
    return ecs_sched__value_schedule(w, machine, value, ECS_SCHED__ON_PAUSE, "on_pause");
}

const char *ecs_sched_on_resume(ecs_sched_world *w, ecs_sched_id machine, int32_t value) {
    return ecs_sched__value_schedule(w, machine, value, ECS_SCHED__ON_RESUME, "on_resume");
}

const char *ecs_sched_on_transition(ecs_sched_world *w, ecs_sched_id machine, int32_t from,
                                    int32_t to) {
    ecs_sched__state_machine *m;
    char **label;
    ECS_SCHED__CHECK_WORLD(w);
    m = ecs_sched__state_known(w, machine, "on_transition");
    if (!m || !ecs_sched__state_value_valid(w, m, from, "on_transition") ||
        !ecs_sched__state_value_valid(w, m, to, "on_transition")) {
        return NULL;
    }
    label = &m->transition_labels[from * m->value_count + to];
    if (!*label) {
        *label = ecs_sched__state_format(w, "OnTransition(%s::%s, %s::%s)", m->name,
                                         m->value_names[from], m->name, m->value_names[to]);
        if (!*label) ecs_sched__out_of_memory(w, "naming a transition schedule");
    }
    return *label;
}

/* ---- state-scoped entities ---- */

ecs_sched_state_scoped ecs_sched_despawn_on_exit(int32_t value) {
    ecs_sched_state_scoped scope;
    scope.on_exit = value;
    scope.on_enter = ECS_SCHED_STATE_NONE;
    return scope;
}

ecs_sched_state_scoped ecs_sched_despawn_on_enter(int32_t value) {
    ecs_sched_state_scoped scope;
    scope.on_exit = ECS_SCHED_STATE_NONE;
    scope.on_enter = value;
    return scope;
}

ecs_sched_id ecs_sched_state_scope_id(ecs_sched_world *w, ecs_sched_id machine) {
    const ecs_sched__state_machine *m;
    ECS_SCHED__CHECK_WORLD(w);
    m = ecs_sched__state_known(w, machine, "state_scope_id");
    return m ? m->scope : 0;
}

/* ---- conditions ---- */

static ecs_sched_condition ecs_sched__state_condition(ecs_sched_condition_kind kind,
                                                      ecs_sched_id machine, int32_t value) {
    ecs_sched_condition c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.resource = machine;
    c.state_value = value;
    return c;
}

ecs_sched_condition ecs_sched_condition_in_state(ecs_sched_id machine, int32_t value) {
    return ecs_sched__state_condition(ECS_SCHED_CONDITION_IN_STATE, machine, value);
}

ecs_sched_condition ecs_sched_condition_state_exists(ecs_sched_id machine) {
    return ecs_sched__state_condition(ECS_SCHED_CONDITION_STATE_EXISTS, machine, 0);
}

ecs_sched_condition ecs_sched_condition_state_changed(ecs_sched_id machine) {
    return ecs_sched__state_condition(ECS_SCHED_CONDITION_STATE_CHANGED, machine, 0);
}

ecs_sched_condition ecs_sched_condition_state_in_stack(ecs_sched_id machine, int32_t value) {
    return ecs_sched__state_condition(ECS_SCHED_CONDITION_STATE_IN_STACK, machine, value);
}

static bool ecs_sched__state_in_stack(const ecs_sched_world *w, ecs_sched_id machine,
                                      int32_t value) {
    const ecs_sched__state_machine *m;
    int32_t i;
    if (ecs_sched__state_is(w, machine, value)) return true;
    m = ecs_sched__state_find(w, machine);
    for (i = 0; m && i < m->depth; i++) {
        if (m->stack[i] == value) return true;
    }
    return false;
}

/* Checks a state condition's machine (and value) and names it, unless it has a name:
   "in_state(GameState::Playing)", "state_exists(GameState)", "state_changed(GameState)". */
static ecs_sched_result ecs_sched__state_condition_fill(ecs_sched_world *w, ecs_sched__cond *node,
                                                        const ecs_sched_condition *c) {
    const ecs_sched__state_machine *m = ecs_sched__state_known(w, c->resource, "a state condition");
    bool valued = c->kind == ECS_SCHED_CONDITION_IN_STATE ||
                  c->kind == ECS_SCHED_CONDITION_STATE_IN_STACK;
    char *name;
    if (!m) return w->env.last_result;
    if (valued && !ecs_sched__state_value_valid(w, m, c->state_value, "a state condition")) {
        return w->env.last_result;
    }
    if (c->name) return ECS_SCHED_OK;
    if (valued) {
        name = ecs_sched__state_format(w, "%s(%s::%s)",
                                       c->kind == ECS_SCHED_CONDITION_IN_STATE ? "in_state"
                                                                                : "state_in_stack",
                                       m->name, m->value_names[c->state_value]);
    } else {
        name = ecs_sched__state_format(w, "%s(%s)",
                                       c->kind == ECS_SCHED_CONDITION_STATE_EXISTS
                                           ? "state_exists" : "state_changed", m->name);
    }
    if (!name) return ecs_sched__out_of_memory(w, "copying a run condition");
    ecs_sched__free(&w->env, node->name);
    node->name = name;
    node->ctx.name = name;
    return ECS_SCHED_OK;
}

/*============================ src/transition.h (implementation) =============================*/
/* transition: applying queued state transitions, and the schedules that run on them. */

/* ---- applying transitions ---- */

/* The schedule of `label`, or NULL while nobody has added anything to it. */
static ecs_sched__schedule *ecs_sched__schedule_of(ecs_sched_world *w, const char *label,
                                                   ecs_sched__schedule_ref *ref) {
    const ecs_sched__schedules *all = w->schedules;
    uint32_t count = all ? all->count : 0;
    if (ref->schedule || ref->looked_at == count + 1) return ref->schedule;
    ref->schedule = label ? ecs_sched__schedule_find(w, label) : NULL;
    ref->looked_at = count + 1;
    return ref->schedule;
}

static void ecs_sched__keep_first(ecs_sched_result *first, ecs_sched_result result) {
    if (result != ECS_SCHED_OK && *first == ECS_SCHED_OK) *first = result;
}

/* Runs a transition schedule if anything was ever added to it; keeps the first failure. */
static void ecs_sched__state_run(ecs_sched_world *w, const char *label,
                                 ecs_sched__schedule_ref *ref, ecs_sched_result *first) {
    ecs_sched__schedule *s = ecs_sched__schedule_of(w, label, ref);
    ecs_sched_result result;
    if (!s) return;
    result = ecs_sched__run_schedule(w, s);
    if (result != ECS_SCHED_OK && *first == ECS_SCHED_OK) *first = result;
}

/* ---- deciding what an apply does ---- */

/* m as it is: nothing moves. */
static ecs_sched__state_step ecs_sched__state_stays(const ecs_sched_world *w,
                                                    const ecs_sched__state_machine *m) {
    ecs_sched__state_step step;
    const ecs_sched_state_current *current = ecs_sched__state_current(w, m->id);
    step.from = current ? current->value : ECS_SCHED_STATE_NONE;
    step.to = step.from;
    step.request = ECS_SCHED__STATE_REQUEST_SET;
    step.moves = false;
    step.unwinds = false;
    step.restarts = false;
    step.included = false;
    return step;
}

static ecs_sched__state_next *ecs_sched__state_pending(const ecs_sched_world *w,
                                                       const ecs_sched__state_machine *m) {
    return (ecs_sched__state_next *)w->resources[m->next];
}

/* Whether a push or pop queued earlier still fits the stack: one queued by a transition
   schedule was checked against the stack as it stood before that apply changed it. */
static bool ecs_sched__state_request_fits(ecs_sched_world *w, const ecs_sched__state_machine *m,
                                          int request, ecs_sched_result *first) {
    if (request == ECS_SCHED__STATE_REQUEST_PUSH && m->depth >= m->stack_capacity) {
        ecs_sched__keep_first(first, ecs_sched__fail(
            &w->env, ECS_SCHED_ERR_LIMIT,
            "state machine '%s': a push queued during the previous apply no longer fits (the "
            "stack covers %d values, its stack_capacity) and is dropped", m->name,
            (int)m->depth));
        return false;
    }
    if (request == ECS_SCHED__STATE_REQUEST_POP && m->depth == 0) {
        ecs_sched__keep_first(first, ecs_sched__fail(
            &w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
            "state machine '%s': a pop queued during the previous apply has nothing to pop "
            "back from now (that apply emptied the stack) and is dropped", m->name));
        return false;
    }
    return true;
}

/* Takes the request waiting in m's pending slot, if any. */
static void ecs_sched__state_take(ecs_sched_world *w, const ecs_sched__state_machine *m,
                                  ecs_sched__state_step *step, ecs_sched_result *first) {
    ecs_sched__state_next *next = ecs_sched__state_pending(w, m);
    if (!ecs_sched__state_request_fits(w, m, next->request, first)) {
        next->request = ECS_SCHED__STATE_REQUEST_NONE;
        return;
    }
    if (next->request == ECS_SCHED__STATE_REQUEST_PUSH ||
        next->request == ECS_SCHED__STATE_REQUEST_POP) {
        step->request = next->request;
        step->to = next->request == ECS_SCHED__STATE_REQUEST_PUSH ? next->value
                                                                  : m->stack[m->depth - 1];
        step->moves = true;
    } else if (next->request != ECS_SCHED__STATE_REQUEST_NONE) {
        step->to = next->value;
        step->moves = step->to != step->from || next->request == ECS_SCHED__STATE_REQUEST_REENTER;
        step->restarts = step->to == step->from && step->moves;
    }
    next->request = ECS_SCHED__STATE_REQUEST_NONE;
}

/* A root machine: its initial value at the first apply, then what is queued (a request
   queued before the first apply waits for the second). */
static void ecs_sched__state_plan_root(ecs_sched_world *w, ecs_sched__state_machine *m,
                                       ecs_sched__state_step *step, ecs_sched_result *first) {
    if (m->entered) {
        ecs_sched__state_take(w, m, step, first);
        return;
    }
    step->to = m->initial;   /* m is marked entered once the value is in place */
    step->moves = true;
}

/* A computed state: compute() of its sources' new values, when one of them moves (or at the
   first apply). A value out of range is refused and the machine keeps its value. */
static void ecs_sched__state_plan_computed(ecs_sched_world *w, ecs_sched__state_machine *m,
                                           const ecs_sched__state_step *steps,
                                           ecs_sched__state_step *step, ecs_sched_result *first) {
    int32_t values[ECS_SCHED_MAX_STATE_SOURCES], to, i;
    bool moved = false, restarted = false;
    for (i = 0; i < m->source_count; i++) {
        const ecs_sched__state_step *source = &steps[m->sources[i]];
        values[i] = source->to;
        moved = moved || source->moves;
        restarted = restarted || source->restarts;
    }
    if (m->entered && !moved) return;
    m->entered = true;
    to = m->compute(values, m->user_data);
    if (to != ECS_SCHED_STATE_NONE && (to < 0 || to >= m->value_count)) {
        ecs_sched__keep_first(first, ecs_sched__fail(
            &w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
            "computed state '%s': its compute function returned %d, which is neither one of "
            "its values (0 to %d) nor ECS_SCHED_STATE_NONE; it keeps its value", m->name,
            (int)to, (int)m->value_count - 1));
        return;
    }
    step->to = to;
    step->restarts = restarted && to == step->from && to != ECS_SCHED_STATE_NONE;
    step->moves = to != step->from || step->restarts;
}

/* A sub-state: it takes its own requests while its parent stays among its parent values; it
   starts at its initial value when the parent reaches them, restarts there when the parent
   restarts, and stops existing when the parent leaves them. Starting, restarting or stopping
   drops a queued request and exits the values its stack covers. */
static void ecs_sched__state_plan_sub(ecs_sched_world *w, ecs_sched__state_machine *m,
                                      const ecs_sched__state_step *steps,
                                      ecs_sched__state_step *step, ecs_sched_result *first) {
    const ecs_sched__state_step *parent = &steps[m->sources[0]];
    bool exists = parent->to != ECS_SCHED_STATE_NONE && m->parent_values[parent->to];
    if (exists && step->from != ECS_SCHED_STATE_NONE && !parent->restarts) {
        ecs_sched__state_take(w, m, step, first);
        return;
    }
    ecs_sched__state_pending(w, m)->request = ECS_SCHED__STATE_REQUEST_NONE;
    step->to = exists ? m->initial : ECS_SCHED_STATE_NONE;
    step->moves = exists || step->from != ECS_SCHED_STATE_NONE;
    step->restarts = exists && step->from != ECS_SCHED_STATE_NONE;
    step->unwinds = step->moves && m->depth > 0;
}

/* Whether the apply is for m: every machine, `only`, or one that depends on it. */
static bool ecs_sched__state_included(const ecs_sched__state_machine *m,
                                      const ecs_sched__state_step *steps,
                                      const ecs_sched__state_machine *only) {
    int32_t i;
    if (!only || m == only) return true;
    for (i = 0; i < m->source_count; i++) {
        if (steps[m->sources[i]].included) return true;
    }
    return false;
}

/* Decides every machine's step, sources before the machines that depend on them (the
   registration order), so that each sees its sources' new values. `only` limits the apply to
   one machine and those that depend on it. */
static void ecs_sched__plan_transitions(ecs_sched_world *w, const ecs_sched__state_machine *only,
                                        ecs_sched_result *first) {
    ecs_sched__states *states = w->states;
    uint32_t i;
    for (i = 0; i < states->count; i++) {
        ecs_sched__state_machine *m = &states->items[i];
        ecs_sched__state_step *step = &states->steps[i];
        *step = ecs_sched__state_stays(w, m);
        step->included = ecs_sched__state_included(m, states->steps, only);
        if (!step->included) continue;
        if (m->kind == ECS_SCHED__STATE_ROOT) ecs_sched__state_plan_root(w, m, step, first);
        if (m->kind == ECS_SCHED__STATE_COMPUTED) {
            ecs_sched__state_plan_computed(w, m, states->steps, step, first);
        }
        if (m->kind == ECS_SCHED__STATE_SUB) {
            ecs_sched__state_plan_sub(w, m, states->steps, step, first);
        }
    }
}

/* ---- carrying it out ---- */

/* The new value in place, counted, and remembered as the last transition. */
static ecs_sched_result ecs_sched__state_change(ecs_sched_world *w, ecs_sched__state_machine *m,
                                                const ecs_sched__state_step *step) {
    ecs_sched_state_current *current = (ecs_sched_state_current *)w->resources[m->id];
    if (!current) {
        ecs_sched_result result = ecs_sched_resource_insert(w, m->id, NULL);
        if (result != ECS_SCHED_OK) {
            m->entered = false;   /* it has no value yet: the next apply tries again */
            return result;
        }
        current = (ecs_sched_state_current *)w->resources[m->id];
    }
    if (step->request == ECS_SCHED__STATE_REQUEST_PUSH) m->stack[m->depth++] = step->from;
    if (step->request == ECS_SCHED__STATE_REQUEST_POP) m->depth--;
    if (step->unwinds) m->depth = 0;
    current->value = step->to;
    current->changes++;
    m->entered = true;
    m->last.from = step->from;
    m->last.to = step->to;
    m->last_run = w->states->run;
    return ECS_SCHED_OK;
}

/* Despawns the entities scoped to leaving (on_exit) or reaching (on_enter) `value`. The
   matches are gathered first: despawning while iterating would move rows under the
   iterator. */
static ecs_sched_result ecs_sched__despawn_scoped(ecs_sched_world *w,
                                                 const ecs_sched__state_machine *m,
                                                 int32_t value, bool on_exit) {
    ecs_sched_entity *doomed;
    ecs_sched_iter it;
    int32_t count = 0, n, i;
    ecs_sched_result result = ECS_SCHED_OK;
    if (m->scoped->match_count == 0) return ECS_SCHED_OK;   /* the component is on no entity */
    n = ecs_sched_query_count(m->scoped);
    if (n == 0) return ECS_SCHED_OK;
    doomed = (ecs_sched_entity *)ecs_sched__alloc(&w->env, sizeof *doomed * (size_t)n);
    if (!doomed) return ecs_sched__out_of_memory(w, "despawning state-scoped entities");
    it = ecs_sched_query_iter(m->scoped);
    while (ecs_sched_iter_next(&it)) {
        const ecs_sched_state_scoped *scope = ECS_SCHED_FIELD(&it, const ecs_sched_state_scoped, 0);
        for (i = 0; i < it.count; i++) {
            if ((on_exit ? scope[i].on_exit : scope[i].on_enter) == value) {
                doomed[count++] = it.entities[i];
            }
        }
    }
    for (i = 0; i < count && result == ECS_SCHED_OK; i++) result = ecs_sched_despawn(w, doomed[i]);
    ecs_sched__free(&w->env, doomed);
    return result;
}

/* Runs one of a value's schedules (ECS_SCHED__ON_*). */
static void ecs_sched__state_run_value(ecs_sched_world *w, ecs_sched__state_machine *m, int kind,
                                       int32_t value, ecs_sched_result *first) {
    ecs_sched__state_run(w, m->labels[kind][value], &m->refs[kind][value], first);
}

/* Leaving a value: OnExit and the despawns of its scoped entities (then, when the stack
   unwinds, the same for each covered value, top first), or OnPause for a push. */
static void ecs_sched__state_leave(ecs_sched_world *w, ecs_sched__state_machine *m,
                                   const ecs_sched__state_step *step, ecs_sched_result *first) {
    int32_t d;
    if (step->from == ECS_SCHED_STATE_NONE) return;
    if (step->request == ECS_SCHED__STATE_REQUEST_PUSH) {
        ecs_sched__state_run_value(w, m, ECS_SCHED__ON_PAUSE, step->from, first);
        return;
    }
    ecs_sched__state_run_value(w, m, ECS_SCHED__ON_EXIT, step->from, first);
    ecs_sched__keep_first(first, ecs_sched__despawn_scoped(w, m, step->from, true));
    ecs_sched__messages_state_moved(w, m->id, step->from, false);
    for (d = step->unwinds ? m->depth - 1 : -1; d >= 0; d--) {
        ecs_sched__state_run_value(w, m, ECS_SCHED__ON_EXIT, m->stack[d], first);
        ecs_sched__keep_first(first, ecs_sched__despawn_scoped(w, m, m->stack[d], true));
        ecs_sched__messages_state_moved(w, m->id, m->stack[d], false);
    }
}

/* The new value, then OnTransition for a set between two values. A value that cannot be put
   in place (out of memory) enters nothing. */
static void ecs_sched__state_move(ecs_sched_world *w, ecs_sched__state_machine *m,
                                  ecs_sched__state_step *step, ecs_sched_result *first) {
    int32_t pair = step->from * m->value_count + step->to;
    ecs_sched_result result = ecs_sched__state_change(w, m, step);
    if (result != ECS_SCHED_OK) {
        ecs_sched__keep_first(first, result);
        step->moves = false;
        return;
    }
    if (step->from == ECS_SCHED_STATE_NONE || step->to == ECS_SCHED_STATE_NONE ||
        step->request != ECS_SCHED__STATE_REQUEST_SET) {
        return;
    }
    if (!m->transition_labels[pair]) {   /* the label is made the first time */
        ecs_sched_on_transition(w, m->id, step->from, step->to);
    }
    ecs_sched__state_run(w, m->transition_labels[pair], &m->transition_refs[pair], first);
}

/* Reaching a value: the despawns of entities scoped to entering it, then OnEnter; or
   OnResume after a pop. */
static void ecs_sched__state_reach(ecs_sched_world *w, ecs_sched__state_machine *m,
                                   const ecs_sched__state_step *step, ecs_sched_result *first) {
    if (step->to == ECS_SCHED_STATE_NONE) return;
    if (step->request == ECS_SCHED__STATE_REQUEST_POP) {
        ecs_sched__state_run_value(w, m, ECS_SCHED__ON_RESUME, step->to, first);
        return;
    }
    ecs_sched__keep_first(first, ecs_sched__despawn_scoped(w, m, step->to, false));
    ecs_sched__messages_state_moved(w, m->id, step->to, true);
    ecs_sched__state_run_value(w, m, ECS_SCHED__ON_ENTER, step->to, first);
}

ecs_sched_result ecs_sched_message_scope_to_state(ecs_sched_world *w, ecs_sched_id message,
                                                  ecs_sched_id machine, int32_t value,
                                                  bool on_enter) {
    const ecs_sched__state_machine *m;
    const char *operation = "message_scope_to_state";
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched_is_message(w, message)) return ecs_sched__not_a_message(w, message, operation);
    m = ecs_sched__state_known(w, machine, operation);
    if (!m) return w->env.last_result;
    if (!ecs_sched__state_value_valid(w, m, value, operation)) return w->env.last_result;
    return ecs_sched__message_scope_add(w, message, machine, value, on_enter);
}

/* Applies the transitions queued when it starts, for one machine and those that depend on
   it, or for all (NULL). Every step is decided first; then the exits of all moving machines,
   the most dependent first (the reverse registration order); then each one's new value and
   OnTransition, sources first; then the enters, sources first. A value queued meanwhile
   waits for the next apply. Returns the first failure; the rest still runs. */
static ecs_sched_result ecs_sched__apply_transitions(ecs_sched_world *w,
                                                     const ecs_sched__state_machine *only) {
    ecs_sched__states *states = w->states;
    ecs_sched__schedules *held;
    ecs_sched_result first = ECS_SCHED_OK;
    int32_t count, i;
    /* an apply inside a transition schedule applies nothing: what was queued meanwhile waits
       for the next apply, as everywhere else */
    if (!states || states->count == 0 || states->applying) return ECS_SCHED_OK;
    count = (int32_t)states->count;
    /* outside any run, the transitions count for the next run, and the transition schedules
       they run are part of them rather than runs of their own */
    held = w->schedules && w->schedules->depth == 0 ? w->schedules : NULL;
    states->applying = true;
    states->run = ecs_sched__transition_run(w);
    if (held) held->top_runs_held = true;
    ecs_sched__plan_transitions(w, only, &first);
    for (i = count - 1; i >= 0; i--) {
        if (states->steps[i].moves) {
            ecs_sched__state_leave(w, &states->items[i], &states->steps[i], &first);
        }
    }
    for (i = 0; i < count; i++) {
        if (states->steps[i].moves) {
            ecs_sched__state_move(w, &states->items[i], &states->steps[i], &first);
        }
    }
    for (i = 0; i < count; i++) {
        if (states->steps[i].moves) {
            ecs_sched__state_reach(w, &states->items[i], &states->steps[i], &first);
        }
    }
    states->applying = false;
    if (held) held->top_runs_held = false;
    return first;
}

/* A failing transition schedule is this system's failure already (a nested run). */
void ecs_sched_apply_state_transitions(ecs_sched_system_ctx *ctx) {
    ECS_SCHED_ASSERT(ctx != NULL);
    ecs_sched__apply_transitions(ctx->world, NULL);
}

static void ecs_sched__apply_state_transitions_of(ecs_sched_system_ctx *ctx) {
    ecs_sched_world *w;
    const ecs_sched__state_machine *m;
    ECS_SCHED_ASSERT(ctx != NULL);
    w = ctx->world;
    m = ecs_sched__state_known(w, (ecs_sched_id)(uintptr_t)ctx->user_data,
                               "apply_state_transitions");
    if (m) ecs_sched__apply_transitions(w, m);
}

ecs_sched_system_desc ecs_sched_state_transitions_system(ecs_sched_id machine) {
    ecs_sched_system_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.name = "apply_state_transitions";
    desc.exclusive = true;
    desc.fn = machine ? ecs_sched__apply_state_transitions_of : ecs_sched_apply_state_transitions;
    desc.user_data = (void *)(uintptr_t)machine;
    return desc;
}

ecs_sched_result ecs_sched_state_apply(ecs_sched_world *w, ecs_sched_id machine) {
    const ecs_sched__state_machine *m = NULL;
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observers && ecs_sched__refused_in_observer(w, "applying state transitions")) {
        return ECS_SCHED_ERR_ACCESS;
    }
    if (machine) {
        m = ecs_sched__state_known(w, machine, "state_apply");
        if (!m) return w->env.last_result;
    }
    return ecs_sched__apply_transitions(w, m);
}

/*================================ src/app.h (implementation) ================================*/
/* app: an app's default schedules and their order, the frame loop, plugins. */

#define ECS_SCHED__PLUGIN_DEPTH 32

typedef struct ecs_sched__order_entry {
    char *label;
    ecs_sched__schedule *schedule;
} ecs_sched__order_entry;

typedef struct ecs_sched__label_order {
    ecs_sched__order_entry *items;
    uint32_t count;
    uint32_t capacity;
} ecs_sched__label_order;

struct ecs_sched_app {
    ecs_sched_world *world;
    ecs_sched__label_order orders[3];    /* by ecs_sched_app_order */
    ecs_sched__schedule *main;
    ecs_sched__schedule *state_transition;
    ecs_sched_id exit;
    char **plugins;                      /* names of the plugins added */
    uint32_t plugin_count;
    uint32_t plugin_capacity;
    const ecs_sched_plugin *building[ECS_SCHED__PLUGIN_DEPTH];   /* being added, outermost first */
    int32_t building_count;
    uint64_t frames;
    uint32_t startup_done;               /* startup schedules run: StateTransition, then the
                                            startup order */
    bool updating;
};

static const char *const ecs_sched__default_orders[3][8] = {
    {ECS_SCHED_PRE_STARTUP, ECS_SCHED_STARTUP, ECS_SCHED_POST_STARTUP, NULL},
    {ECS_SCHED_FIRST, ECS_SCHED_PRE_UPDATE, ECS_SCHED_STATE_TRANSITION,
     ECS_SCHED_RUN_FIXED_MAIN_LOOP, ECS_SCHED_UPDATE, ECS_SCHED_POST_UPDATE, ECS_SCHED_LAST, NULL},
    {ECS_SCHED_FIXED_FIRST, ECS_SCHED_FIXED_PRE_UPDATE, ECS_SCHED_FIXED_UPDATE,
     ECS_SCHED_FIXED_POST_UPDATE, ECS_SCHED_FIXED_LAST, NULL},
};

static const char *const ecs_sched__order_names[3] = {"startup", "main", "fixed"};

/* ---- the orders ---- */

/* Runs the schedules of an order; one that failed stops the order only if its run stopped
   (its policy said so). Returns the first failure. */
static ecs_sched_result ecs_sched__run_order(ecs_sched_world *w, const ecs_sched__label_order *o) {
    ecs_sched_result first = ECS_SCHED_OK;
    uint32_t i;
    for (i = 0; i < o->count; i++) {
        ecs_sched__schedule *s = o->items[i].schedule;
        ecs_sched_result result = ecs_sched__run_schedule(w, s);
        if (result != ECS_SCHED_OK && first == ECS_SCHED_OK) first = result;
        if (ecs_sched__run_cut_short(s, result)) break;
    }
    return first;
}

/* The initial states, then the startup order, each schedule once. One that fails is run
   again by the next update, and the rest after it. */
static ecs_sched_result ecs_sched__run_startup(ecs_sched_app *app) {
    const ecs_sched__label_order *startup = &app->orders[ECS_SCHED_ORDER_STARTUP];
    while (app->startup_done <= startup->count) {
        ecs_sched__schedule *s = app->startup_done == 0
                                     ? app->state_transition
                                     : startup->items[app->startup_done - 1].schedule;
        ecs_sched_result result = ecs_sched__run_schedule(app->world, s);
        if (result != ECS_SCHED_OK) return result;
        app->startup_done++;
    }
    return ECS_SCHED_OK;
}

/* Main's system: startup the first time, then the main order. */
static void ecs_sched__run_main_order(ecs_sched_system_ctx *ctx) {
    ecs_sched_app *app = (ecs_sched_app *)ctx->user_data;
    if (ecs_sched__run_startup(app) == ECS_SCHED_OK) {   /* a failure is this system's already */
        ecs_sched__run_order(ctx->world, &app->orders[ECS_SCHED_ORDER_MAIN]);
    }
}

/* FixedMain's system. */
static void ecs_sched__run_fixed_order(ecs_sched_system_ctx *ctx) {
    ecs_sched_app *app = (ecs_sched_app *)ctx->user_data;
    ecs_sched__run_order(ctx->world, &app->orders[ECS_SCHED_ORDER_FIXED]);
}

/* Where `label` is in the orders: *order and *index, or false. */
static bool ecs_sched__order_find(const ecs_sched_app *app, const char *label, int *order,
                                  uint32_t *index) {
    int o;
    uint32_t i;
    for (o = 0; o < 3; o++) {
        for (i = 0; i < app->orders[o].count; i++) {
            if (strcmp(app->orders[o].items[i].label, label) == 0) {
                *order = o;
                *index = i;
                return true;
            }
        }
    }
    return false;
}

/* Puts `label` at `index` of order `o`, creating its schedule: the schedule comes last, so
   that a failure leaves no schedule that is in no order. */
static ecs_sched_result ecs_sched__order_insert(ecs_sched_app *app, int o, uint32_t index,
                                                const char *label) {
    ecs_sched_world *w = app->world;
    ecs_sched__label_order *order = &app->orders[o];
    ecs_sched__order_entry entry;
    if (!ECS_SCHED__GROW(&w->env, order->items, &order->capacity, order->count + 1) ||
        !(entry.label = ecs_sched__strdup(&w->env, label))) {
        return ecs_sched__out_of_memory(w, "inserting a schedule label");
    }
    entry.schedule = ecs_sched__schedule_get(w, label);
    if (!entry.schedule) {
        ecs_sched__free(&w->env, entry.label);
        return w->env.last_result;
    }
    memmove(order->items + index + 1, order->items + index,
            (order->count - index) * sizeof *order->items);
    order->items[index] = entry;
    order->count++;
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__insert_schedule(ecs_sched_app *app, const char *anchor,
                                                   const char *label, bool after) {
    ecs_sched_world *w;
    const char *operation = after ? "app_insert_schedule_after" : "app_insert_schedule_before";
    int o, existing_order = 0;
    uint32_t index, existing_index;
    bool runner;
    ECS_SCHED_ASSERT(app != NULL);
    w = app->world;
    if (!label || !label[0] || !anchor || !anchor[0]) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "%s: both the anchor and the new label are required", operation);
    }
    if (app->updating) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_SCHEDULE_RUNNING,
                               "%s: cannot insert '%s' while the app is updating; insert it "
                               "before the first update (a plugin's build is a good place)",
                               operation, label);
    }
    runner = strcmp(label, ECS_SCHED_MAIN) == 0 || strcmp(label, ECS_SCHED_FIXED_MAIN) == 0;
    if (runner || ecs_sched__order_find(app, label, &existing_order, &existing_index)) {
        char where[32] = "";
        if (!runner) {
            snprintf(where, sizeof where, " (in the %s order)",
                     ecs_sched__order_names[existing_order]);
        }
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "%s: schedule '%s' is already run by the app%s; a label can be "
                               "in the orders once", operation, label, where);
    }
    if (!ecs_sched__order_find(app, anchor, &o, &index)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_UNKNOWN_SCHEDULE,
                               "%s: '%s' is in none of the app's orders, so '%s' cannot go %s "
                               "it (ecs_sched_app_schedule_order lists them)",
                               operation, anchor, label, after ? "after" : "before");
    }
    if (o == ECS_SCHED_ORDER_STARTUP && app->startup_done > 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "%s: the startup order ran in the first update; '%s' would "
                               "never run (insert startup schedules before the first update)",
                               operation, label);
    }
    return ecs_sched__order_insert(app, o, after ? index + 1 : index, label);
}

ecs_sched_result ecs_sched_app_insert_schedule_before(ecs_sched_app *app, const char *anchor,
                                                      const char *label) {
    return ecs_sched__insert_schedule(app, anchor, label, false);
}

ecs_sched_result ecs_sched_app_insert_schedule_after(ecs_sched_app *app, const char *anchor,
                                                     const char *label) {
    return ecs_sched__insert_schedule(app, anchor, label, true);
}

int32_t ecs_sched_app_schedule_order(const ecs_sched_app *app, ecs_sched_app_order order,
                                     const char **labels, int32_t capacity) {
    const ecs_sched__label_order *o;
    int32_t i;
    ECS_SCHED_ASSERT(app != NULL);
    if ((int)order < 0 || (int)order > 2) return 0;
    o = &app->orders[order];
    for (i = 0; i < capacity && i < (int32_t)o->count; i++) labels[i] = o->items[i].label;
    return (int32_t)o->count;
}

/* ---- creation ---- */

/* Adds one of the systems that run the orders. */
static ecs_sched_result ecs_sched__add_runner(ecs_sched_app *app, const char *schedule,
                                             const char *name, ecs_sched_system_fn fn) {
    ecs_sched_system_desc d;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.fn = fn;
    d.user_data = app;
    d.exclusive = true;
    return ecs_sched_add_system(app->world, schedule, &d);
}

static ecs_sched_result ecs_sched__app_fill(ecs_sched_app *app, const ecs_sched_time_desc *time) {
    ecs_sched_world *w = app->world;
    ecs_sched_system_desc apply = ecs_sched_state_transitions_system(0);
    ecs_sched_system_desc fixed = ecs_sched_fixed_main_loop_system();
    int o, i;
    ecs_sched_result result = ecs_sched_time_setup(w, time);
    if (result != ECS_SCHED_OK) return result;
    app->exit = ecs_sched_component_register_type(w, "AppExit", sizeof(ecs_sched_app_exit),
                                                  ECS_SCHED_ALIGNOF(ecs_sched_app_exit));
    if (!app->exit) return w->env.last_result;
    if ((result = ecs_sched_resource_insert(w, app->exit, NULL)) != ECS_SCHED_OK) return result;
    for (o = 0; o < 3; o++) {
        for (i = 0; ecs_sched__default_orders[o][i]; i++) {
            result = ecs_sched__order_insert(app, o, (uint32_t)i, ecs_sched__default_orders[o][i]);
            if (result != ECS_SCHED_OK) return result;
        }
    }
    if ((result = ecs_sched__add_runner(app, ECS_SCHED_MAIN, "run_main_order",
                                        ecs_sched__run_main_order)) != ECS_SCHED_OK ||
        (result = ecs_sched__add_runner(app, ECS_SCHED_FIXED_MAIN, "run_fixed_order",
                                        ecs_sched__run_fixed_order)) != ECS_SCHED_OK ||
        (result = ecs_sched_add_system(w, ECS_SCHED_STATE_TRANSITION, &apply)) != ECS_SCHED_OK ||
        (result = ecs_sched_add_system(w, ECS_SCHED_RUN_FIXED_MAIN_LOOP, &fixed)) != ECS_SCHED_OK) {
        return result;
    }
    app->main = ecs_sched__schedule_find(w, ECS_SCHED_MAIN);
    app->state_transition = ecs_sched__schedule_find(w, ECS_SCHED_STATE_TRANSITION);
    return ECS_SCHED_OK;
}

static void ecs_sched__app_free(ecs_sched_app *app) {
    ecs_sched_world *w = app->world;
    ecs_sched_allocator allocator = w->env.allocator;
    uint32_t i;
    int o;
    for (o = 0; o < 3; o++) {
        for (i = 0; i < app->orders[o].count; i++) ecs_sched__free(&w->env, app->orders[o].items[i].label);
        ecs_sched__free(&w->env, app->orders[o].items);
    }
    for (i = 0; i < app->plugin_count; i++) ecs_sched__free(&w->env, app->plugins[i]);
    ecs_sched__free(&w->env, app->plugins);
    ecs_sched_world_destroy(w);
    allocator.free_fn(app, allocator.user_data);
}

ecs_sched_app *ecs_sched_app_create(const ecs_sched_app_desc *desc) {
    ecs_sched_app_desc d;
    ecs_sched_world *w;
    ecs_sched_app *app;
    memset(&d, 0, sizeof d);
    if (desc) d = *desc;
    w = ecs_sched_world_create(&d.world);
    if (!w) return NULL;
    app = (ecs_sched_app *)ecs_sched__calloc(&w->env, sizeof *app);
    if (!app) {
        ecs_sched__out_of_memory(w, "creating an app");
        ecs_sched_world_destroy(w);
        return NULL;
    }
    app->world = w;
    w->app = app;
    if (ecs_sched__app_fill(app, &d.time) != ECS_SCHED_OK) {
        ecs_sched__log(&w->env, ECS_SCHED_LOG_ERROR, w->env.last_result,
                       "app_create: the app could not be made (see the error above)");
        ecs_sched__app_free(app);
        return NULL;
    }
    return app;
}

void ecs_sched_app_destroy(ecs_sched_app *app) {
    if (app) ecs_sched__app_free(app);
}

ecs_sched_world *ecs_sched_app_world(ecs_sched_app *app) {
    ECS_SCHED_ASSERT(app != NULL);
    return app->world;
}

/* ---- the frame loop ---- */

static ecs_sched_result ecs_sched__app_update(ecs_sched_app *app, bool by_clock, int64_t delta_ns) {
    ecs_sched_world *w;
    ecs_sched_result result;
    ECS_SCHED_ASSERT(app != NULL);
    w = app->world;
    if (app->updating) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_RECURSIVE_RUN,
                               "app_update: the app is updating already (a system cannot run "
                               "a frame of its own app)");
    }
    result = by_clock ? ecs_sched_time_advance(w) : ecs_sched_time_advance_by(w, delta_ns);
    if (result != ECS_SCHED_OK) return result;
    /* messages live two updates, counted in frames that ran a fixed step: a reader in
       FixedUpdate then misses none, however many frames pass between two steps */
    if (w->messages && w->fixed_step_since_update) ecs_sched_messages_update(w);
    app->updating = true;
    result = ecs_sched__run_schedule(w, app->main);
    app->updating = false;
    app->frames++;
    return result;
}

ecs_sched_result ecs_sched_app_update(ecs_sched_app *app) {
    return ecs_sched__app_update(app, true, 0);
}

ecs_sched_result ecs_sched_app_update_by(ecs_sched_app *app, int64_t delta_ns) {
    return ecs_sched__app_update(app, false, delta_ns);
}

uint64_t ecs_sched_app_frame_count(const ecs_sched_app *app) {
    ECS_SCHED_ASSERT(app != NULL);
    return app->frames;
}

static ecs_sched_result ecs_sched__check_run_desc(ecs_sched_world *w,
                                                  const ecs_sched_app_run_desc *d) {
    const char *field = d->frame_ns < 0 ? "frame_ns" : d->delta_ns < 0 ? "delta_ns"
                        : d->max_frames < 0 ? "max_frames" : NULL;
    if (!field) return ECS_SCHED_OK;
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "app_run: %s is negative; it must be >= 0 (0: the default)", field);
}

ecs_sched_result ecs_sched_app_run(ecs_sched_app *app, const ecs_sched_app_run_desc *desc,
                                   int32_t *exit_code) {
    ecs_sched_app_run_desc d;
    ecs_sched_world *w;
    ecs_sched_result result = ECS_SCHED_OK;
    int64_t frames;
    ECS_SCHED_ASSERT(app != NULL);
    w = app->world;
    memset(&d, 0, sizeof d);
    if (desc) d = *desc;
    if (exit_code) *exit_code = 0;
    result = ecs_sched__check_run_desc(w, &d);
    if (result != ECS_SCHED_OK) return result;
    for (frames = 0; !d.max_frames || frames < d.max_frames; frames++) {
        int64_t start = d.frame_ns ? ecs_sched_time_now(w) : 0;
        if (ecs_sched_app_exit_requested(app, exit_code)) break;
        result = d.delta_ns ? ecs_sched_app_update_by(app, d.delta_ns) : ecs_sched_app_update(app);
        if (result != ECS_SCHED_OK) break;
        if (d.frame_ns) {
            int64_t spent = ecs_sched_time_now(w) - start;
            if (spent < d.frame_ns) ecs_sched_time_sleep(w, d.frame_ns - spent);
        }
    }
    ecs_sched_app_exit_requested(app, exit_code);
    return result;
}

/* ---- exit ---- */

ecs_sched_id ecs_sched_app_exit_id(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return w->app ? w->app->exit : 0;
}

static ecs_sched_result ecs_sched__request_exit(ecs_sched_world *w, ecs_sched_app_exit *exit_,
                                                int32_t code) {
    if (exit_->requested) {
        ecs_sched__logf(&w->env, ECS_SCHED_LOG_DEBUG, ECS_SCHED_OK,
                       "exit requested again (code %d); keeping the first code, %d", (int)code,
                       (int)exit_->code);
        return ECS_SCHED_OK;
    }
    exit_->requested = true;
    exit_->code = code;
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_ctx_request_exit(ecs_sched_system_ctx *ctx, int32_t code) {
    ecs_sched_world *w;
    ecs_sched_app_exit *exit_;
    ECS_SCHED_ASSERT(ctx != NULL);
    w = ctx->world;
    if (!w->app) {
        return ecs_sched__ctx_vfail(ctx, ECS_SCHED_ERR_MISSING_RESOURCE, false,
                                    "requests exit, but its world has no app");
    }
    if (!ecs_sched_resource_exists(w, w->app->exit)) {
        return ecs_sched__ctx_vfail(ctx, ECS_SCHED_ERR_MISSING_RESOURCE, false,
                                    "requests exit, but resource 'AppExit' was removed");
    }
    exit_ = (ecs_sched_app_exit *)ecs_sched_ctx_resource_mut(ctx, w->app->exit);
    if (!exit_) return w->env.last_result;
    return ecs_sched__request_exit(w, exit_, code);
}

ecs_sched_result ecs_sched_app_request_exit(ecs_sched_app *app, int32_t code) {
    ecs_sched_app_exit *exit_;
    ECS_SCHED_ASSERT(app != NULL);
    exit_ = (ecs_sched_app_exit *)ecs_sched__required_resource(app->world, app->exit,
                                                               "app_request_exit");
    if (!exit_) return app->world->env.last_result;
    return ecs_sched__request_exit(app->world, exit_, code);
}

bool ecs_sched_app_exit_requested(const ecs_sched_app *app, int32_t *code) {
    const ecs_sched_app_exit *exit_;
    ECS_SCHED_ASSERT(app != NULL);
    if (!ecs_sched_resource_exists(app->world, app->exit)) return false;   /* removed */
    exit_ = (const ecs_sched_app_exit *)ecs_sched_resource_get(app->world, app->exit);
    if (!exit_->requested) return false;
    if (code) *code = exit_->code;
    return true;
}

/* ---- plugins ---- */

bool ecs_sched_app_has_plugin(const ecs_sched_app *app, const char *name) {
    uint32_t i;
    ECS_SCHED_ASSERT(app != NULL);
    if (!name) return false;
    for (i = 0; i < app->plugin_count; i++) {
        if (strcmp(app->plugins[i], name) == 0) return true;
    }
    return false;
}

/* The path of plugins being added or checked, outermost first. */
typedef struct ecs_sched__plugin_path {
    const ecs_sched_plugin *items[ECS_SCHED__PLUGIN_DEPTH + 1];
    int32_t count;
} ecs_sched__plugin_path;

static ecs_sched_result ecs_sched__plugin_cycle(ecs_sched_app *app,
                                                const ecs_sched__plugin_path *path,
                                                const ecs_sched_plugin *p) {
    ecs_sched__text text;
    ecs_sched_result result;
    int32_t i, from = 0;
    for (i = 0; i < path->count; i++) {
        if (strcmp(path->items[i]->name, p->name) == 0) from = i;
    }
    ecs_sched__text_init(&text, &app->world->env);
    ecs_sched__text_printf(&text, "plugins need each other in a cycle: ");
    for (i = from; i < path->count; i++) ecs_sched__text_printf(&text, "%s -> ", path->items[i]->name);
    ecs_sched__text_printf(&text, "%s; remove one of these needs", p->name);
    result = ecs_sched__fail_text(&app->world->env, ECS_SCHED_ERR_PLUGIN_CYCLE,
                                  text.data ? text.data : "plugins need each other in a cycle");
    ecs_sched__text_free(&text);
    return result;
}

static bool ecs_sched__plugin_on_path(const ecs_sched__plugin_path *path, const char *name) {
    int32_t i;
    for (i = 0; i < path->count; i++) {
        if (strcmp(path->items[i]->name, name) == 0) return true;
    }
    return false;
}

static bool ecs_sched__named(const char *name) {
    return name && name[0];
}

/* An export names both a schedule and a set, or neither (an unused slot). */
static ecs_sched_result ecs_sched__plugin_check_export(ecs_sched_world *w,
                                                       const ecs_sched_plugin *p, int i) {
    const ecs_sched_plugin_set *e = &p->exports[i];
    bool has_set = ecs_sched__named(e->set);
    if (ecs_sched__named(e->schedule) == has_set) return ECS_SCHED_OK;
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "plugin '%s': export %d names %s '%s' but no %s", p->name, i,
                           has_set ? "set" : "schedule", has_set ? e->set : e->schedule,
                           has_set ? "schedule" : "set");
}

/* Checks a plugin and everything it needs that the app does not have, before anything is
   added: names, exports, and needs that lead back to a plugin on the path. */
static ecs_sched_result ecs_sched__plugin_check(ecs_sched_app *app, ecs_sched__plugin_path *path,
                                                const ecs_sched_plugin *p) {
    ecs_sched_world *w = app->world;
    ecs_sched_result result = ECS_SCHED_OK;
    int i;
    if (!p || !p->name || !p->name[0]) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "app_add_plugin: a plugin needs a name (it identifies the plugin, "
                               "so that adding it twice adds it once)%s%s",
                               path->count ? "; it is needed by plugin " : "",
                               path->count ? path->items[path->count - 1]->name : "");
    }
    if (ecs_sched__plugin_on_path(path, p->name)) return ecs_sched__plugin_cycle(app, path, p);
    if (path->count >= ECS_SCHED__PLUGIN_DEPTH) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_LIMIT,
                               "app_add_plugin: plugin '%s' is more than %d needs deep",
                               p->name, ECS_SCHED__PLUGIN_DEPTH);
    }
    for (i = 0; i < ECS_SCHED_MAX_REFS && result == ECS_SCHED_OK; i++) {
        result = ecs_sched__plugin_check_export(w, p, i);
    }
    path->items[path->count++] = p;
    for (i = 0; i < ECS_SCHED_MAX_REFS && result == ECS_SCHED_OK; i++) {
        if (p->needs[i] && !ecs_sched_app_has_plugin(app, p->needs[i]->name)) {
            result = ecs_sched__plugin_check(app, path, p->needs[i]);
        }
    }
    path->count--;
    return result;
}

/* The plugins being added now: the base of every check's path. */
static void ecs_sched__plugin_path_of_app(const ecs_sched_app *app, ecs_sched__plugin_path *path) {
    int32_t i;
    for (i = 0; i < app->building_count; i++) path->items[i] = app->building[i];
    path->count = app->building_count;
}

static ecs_sched_result ecs_sched__plugin_record(ecs_sched_app *app, const char *name) {
    ecs_sched_world *w = app->world;
    char *copy;
    if (!ECS_SCHED__GROW(&w->env, app->plugins, &app->plugin_capacity, app->plugin_count + 1) ||
        !(copy = ecs_sched__strdup(&w->env, name))) {
        return ecs_sched__out_of_memory(w, "recording a plugin");
    }
    app->plugins[app->plugin_count++] = copy;
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__plugin_build(ecs_sched_app *app, const ecs_sched_plugin *p) {
    ecs_sched_world *w = app->world;
    ecs_sched_result result = ECS_SCHED_OK;
    int i;
    for (i = 0; i < ECS_SCHED_MAX_REFS && result == ECS_SCHED_OK; i++) {
        if (p->needs[i]) result = ecs_sched_app_add_plugin(app, p->needs[i]);
    }
    for (i = 0; i < ECS_SCHED_MAX_REFS && result == ECS_SCHED_OK; i++) {
        ecs_sched_set_desc set;
        if (!ecs_sched__named(p->exports[i].set)) continue;
        memset(&set, 0, sizeof set);
        set.name = p->exports[i].set;
        result = ecs_sched_configure_set(w, p->exports[i].schedule, &set);
    }
    if (result != ECS_SCHED_OK || !p->build) return result;
    ecs_sched_clear_error(w);        /* so that a failure recorded by the build tells */
    result = p->build(app, p->user_data);
    if (result != ECS_SCHED_OK) {
        char cause[ECS_SCHED__ERROR_CAPACITY] = "it recorded no message";
        if (ecs_sched_last_result(w) != ECS_SCHED_OK) {
            memcpy(cause, w->env.last_error, sizeof cause);
        }
        ecs_sched__fail(&w->env, result, "plugin '%s' failed to build (%s): %s", p->name,
                        ecs_sched_result_string(result), cause);
    }
    return result;
}

ecs_sched_result ecs_sched_app_add_plugin(ecs_sched_app *app, const ecs_sched_plugin *plugin) {
    ecs_sched_result result;
    ecs_sched__plugin_path path;
    ECS_SCHED_ASSERT(app != NULL);
    if (plugin && plugin->name && ecs_sched_app_has_plugin(app, plugin->name)) {
        ecs_sched__logf(&app->world->env, ECS_SCHED_LOG_DEBUG, ECS_SCHED_OK,
                       "plugin '%s' is added already; adding it again does nothing",
                       plugin->name);
        return ECS_SCHED_OK;
    }
    ecs_sched__plugin_path_of_app(app, &path);
    result = ecs_sched__plugin_check(app, &path, plugin);
    if (result != ECS_SCHED_OK) return result;
    app->building[app->building_count++] = plugin;
    result = ecs_sched__plugin_build(app, plugin);
    app->building_count--;
    if (result != ECS_SCHED_OK) return result;
    return ecs_sched__plugin_record(app, plugin->name);
}

ecs_sched_result ecs_sched_app_add_plugins(ecs_sched_app *app,
                                           const ecs_sched_plugin *const *plugins, int32_t count) {
    int32_t i;
    ecs_sched_result result;
    ecs_sched__plugin_path path;
    ECS_SCHED_ASSERT(app != NULL);
    if (count < 0 || (count > 0 && !plugins)) {
        return ecs_sched__fail(&app->world->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "app_add_plugins: %d plugins at %p", (int)count, (const void *)plugins);
    }
    for (i = 0; i < count; i++) {
        if (plugins[i] && plugins[i]->name && ecs_sched_app_has_plugin(app, plugins[i]->name)) continue;
        ecs_sched__plugin_path_of_app(app, &path);
        result = ecs_sched__plugin_check(app, &path, plugins[i]);
        if (result != ECS_SCHED_OK) return result;
    }
    for (i = 0; i < count; i++) {
        result = ecs_sched_app_add_plugin(app, plugins[i]);
        if (result != ECS_SCHED_OK) return result;
    }
    return ECS_SCHED_OK;
}

/*============================== src/disable.h (implementation) ==============================*/
/* disable: disabled entities. An entity is disabled by the Disabled tag (registered by
   world_create), so that disabling moves it to the tables of disabled entities, which
   queries leave out when they match tables (query.h): iteration pays nothing for it. */

ecs_sched_id ecs_sched_prefab_tag(ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return w->prefab;
}

ecs_sched_id ecs_sched_disabled_tag(ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return w->disabled;
}

ecs_sched_result ecs_sched_disable(ecs_sched_world *w, ecs_sched_entity e) {
    ecs_sched_id tag;
    ECS_SCHED__CHECK_WORLD(w);
    if (ecs_sched__change_refused(w, "disable")) return ECS_SCHED_ERR_ACCESS;
    if (!ecs_sched__is_live_record(w, e)) return ecs_sched__stale(w, e, "disable");
    tag = w->disabled;
    if (ecs_sched_has(w, e, tag)) return ECS_SCHED_OK;
    return ecs_sched_insert(w, e, tag, NULL);
}

ecs_sched_result ecs_sched_enable(ecs_sched_world *w, ecs_sched_entity e) {
    ECS_SCHED__CHECK_WORLD(w);
    if (ecs_sched__change_refused(w, "enable")) return ECS_SCHED_ERR_ACCESS;
    if (!ecs_sched__is_live_record(w, e)) return ecs_sched__stale(w, e, "enable");
    if (!ecs_sched_has(w, e, w->disabled)) return ECS_SCHED_OK;
    return ecs_sched_remove(w, e, w->disabled);
}

bool ecs_sched_is_disabled(const ecs_sched_world *w, ecs_sched_entity e) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched_has(w, e, w->disabled);
}

ecs_sched_result ecs_sched_commands_disable(ecs_sched_commands *cmd, ecs_sched_entity e) {
    ECS_SCHED_ASSERT(cmd != NULL);
    return ecs_sched_commands_insert(cmd, e, cmd->world->disabled, NULL);
}

ecs_sched_result ecs_sched_commands_enable(ecs_sched_commands *cmd, ecs_sched_entity e) {
    ECS_SCHED_ASSERT(cmd != NULL);
    return ecs_sched_commands_remove(cmd, e, cmd->world->disabled);
}

/*================================ src/dot.h (implementation) ================================*/
/* dot: Graphviz export of a built schedule. */

/* ---- Graphviz export ---- */

/* What only a drawing needs, worked out by the export from a build of its own: the set
   hierarchy as clusters (a tree of first parents) and the configured edges no other of them
   implies (without the edges that only bind the parallel order). */
typedef struct ecs_sched__drawing {
    int32_t cluster_count;        /* every set: its name and first parent, or -1 */
    int32_t *cluster_name;
    int32_t *cluster_parent;
    int32_t *node_cluster;        /* per plan position: the first set it is in, or -1 */
    int32_t edge_count;
    int32_t *edges;               /* pairs of plan positions */
} ecs_sched__drawing;

typedef struct ecs_sched__dot {
    void (*write)(const char *text, void *user_data);
    void *user_data;
    const ecs_sched__schedule *s;
    const ecs_sched__plan *plan;
    ecs_sched__drawing drawing;
} ecs_sched__dot;

/* The first set node v is directly in, as a set number, or -1. */
static int32_t ecs_sched__first_parent(const ecs_sched__build *b, int32_t v) {
    const ecs_sched__csr *p = &b->parents;
    return p->start[v] < p->start[v + 1] ? p->adj[p->start[v]] - b->system_count : -1;
}

static bool ecs_sched__draw_clusters(ecs_sched__build *b, ecs_sched__drawing *d) {
    int32_t S = b->system_count, i;
    d->cluster_count = b->set_count;
    d->cluster_name = ECS_SCHED__ALLOC_N(b, int32_t, b->set_count);
    d->cluster_parent = ECS_SCHED__ALLOC_N(b, int32_t, b->set_count);
    d->node_cluster = ECS_SCHED__ALLOC_N(b, int32_t, b->plan_node_count);
    if (!d->cluster_name || !d->cluster_parent || !d->node_cluster) return false;
    for (i = 0; i < b->set_count; i++) {
        d->cluster_name[i] = b->name_of_set[i];
        d->cluster_parent[i] = ecs_sched__first_parent(b, S + i);
    }
    for (i = 0; i < b->plan_node_count; i++) {
        d->node_cluster[b->plan_position[i]] = i < S ? ecs_sched__first_parent(b, i) : -1;
    }
    return true;
}

static bool ecs_sched__draw_edges(ecs_sched__build *b, ecs_sched__drawing *d) {
    const ecs_sched__csr *g = &b->plan_edges;
    int32_t N = b->plan_node_count, at = 0, p, e;
    const uint8_t *keep = ecs_sched__reduced_edges(b, g, b->plan_order, b->plan_position, N);
    if (!keep) return false;
    for (e = 0; e < g->start[N]; e++) d->edge_count += keep[e];
    d->edges = ECS_SCHED__ALLOC_N(b, int32_t, 2 * (int64_t)d->edge_count);
    if (!d->edges) return false;
    for (p = 0; p < N; p++) {
        int32_t v = b->plan_order[p];
        for (e = g->start[v]; e < g->start[v + 1]; e++) {
            if (!keep[e]) continue;
            d->edges[at++] = p;
            d->edges[at++] = b->plan_position[g->adj[e]];
        }
    }
    return true;
}

static void ecs_sched__dot_printf(ecs_sched__dot *d, const char *fmt, ...)
    ECS_SCHED__PRINTF(2, 3);
static void ecs_sched__dot_printf(ecs_sched__dot *d, const char *fmt, ...) {
    char text[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    d->write(text, d->user_data);
}

/* A name as a DOT string body: quotes and backslashes escaped. */
static const char *ecs_sched__dot_escape(const char *name, char *out, size_t n) {
    size_t o = 0;
    for (; *name && o + 2 < n; name++) {
        if (*name == '"' || *name == '\\') out[o++] = '\\';
        out[o++] = *name;
    }
    out[o] = '\0';
    return out;
}

static void ecs_sched__dot_conditions(ecs_sched__dot *d, int32_t start, int32_t count) {
    char name[128];
    int32_t i;
    for (i = 0; i < count; i++) {
        const ecs_sched__cond *c = d->s->conds.items[d->plan->conds[start + i]];
        ecs_sched__dot_printf(d, "%s%s", i ? ", " : "\\nrun_if: ",
                              ecs_sched__dot_escape(c->name, name, sizeof name));
    }
}

static void ecs_sched__dot_node(ecs_sched__dot *d, int32_t p) {
    const ecs_sched__plan_node *pn = &d->plan->nodes[p];
    char name[128];
    if (!pn->system) {
        ecs_sched__dot_printf(d, "    n%d [label=\"apply_deferred\\n(automatic sync point)\", "
                                 "shape=octagon, style=filled, fillcolor=gold];\n", (int)p);
        return;
    }
    ecs_sched__dot_printf(d, "    n%d [label=\"%s", (int)p,
                          ecs_sched__dot_escape(pn->system->ctx.name, name, sizeof name));
    if (pn->exclusive && !pn->sync) ecs_sched__dot_printf(d, "\\n(exclusive)");
    if (pn->system->ctx.commands) ecs_sched__dot_printf(d, "\\n(records commands)");
    ecs_sched__dot_conditions(d, pn->cond_start, pn->cond_count);
    ecs_sched__dot_printf(d, "\"%s];\n", pn->sync ? ", shape=octagon, style=filled, fillcolor=gold"
                                                  : "");
}

static void ecs_sched__dot_cluster(ecs_sched__dot *d, int32_t c, int depth) {
    const ecs_sched__schedule *s = d->s;
    const ecs_sched__plan *plan = d->plan;
    const ecs_sched__drawing *drawing = &d->drawing;
    char name[128];
    int32_t i, k;
    if (depth > 64) return;
    ecs_sched__dot_printf(d, "  subgraph cluster_%d {\n    label=\"%s", (int)c,
                          ecs_sched__dot_escape(s->names[drawing->cluster_name[c]].text, name,
                                                sizeof name));
    for (k = 0; k < plan->set_count; k++) {
        if (plan->sets[k].name == drawing->cluster_name[c]) {
            ecs_sched__dot_conditions(d, plan->sets[k].cond_start, plan->sets[k].cond_count);
        }
    }
    ecs_sched__dot_printf(d, "\";\n    style=rounded;\n");
    for (i = 0; i < drawing->cluster_count; i++) {
        if (drawing->cluster_parent[i] == c) ecs_sched__dot_cluster(d, i, depth + 1);
    }
    for (i = 0; i < plan->node_count; i++) {
        if (drawing->node_cluster[i] == c) ecs_sched__dot_node(d, i);
    }
    ecs_sched__dot_printf(d, "  }\n");
}

static void ecs_sched__dot_write(ecs_sched__dot *d) {
    const ecs_sched__plan *plan = d->plan;
    const ecs_sched__drawing *drawing = &d->drawing;
    char name[128];
    int32_t i;
    ecs_sched__dot_printf(d, "digraph \"%s\" {\n  compound=true;\n  rankdir=LR;\n"
                             "  node [shape=box, fontname=\"Helvetica\"];\n",
                          ecs_sched__dot_escape(d->s->label, name, sizeof name));
    for (i = 0; i < drawing->cluster_count; i++) {
        if (drawing->cluster_parent[i] < 0) ecs_sched__dot_cluster(d, i, 0);
    }
    for (i = 0; i < plan->node_count; i++) {
        if (drawing->node_cluster[i] < 0) ecs_sched__dot_node(d, i);
    }
    for (i = 0; i < drawing->edge_count; i++) {
        ecs_sched__dot_printf(d, "  n%d -> n%d;\n", (int)drawing->edges[2 * i],
                              (int)drawing->edges[2 * i + 1]);
    }
    for (i = 0; i < plan->ambiguous_count; i++) {
        ecs_sched__dot_printf(d, "  n%d -> n%d [dir=none, style=dashed, color=red, "
                                 "constraint=false, label=\"ambiguous\", fontcolor=red];\n",
                              (int)plan->ambiguous[2 * i], (int)plan->ambiguous[2 * i + 1]);
    }
    ecs_sched__dot_printf(d, "}\n");
}

/* The schedule is built first, as by a run, so that its errors and warnings come as usual.
   The drawing then comes from a second build of its own, quiet, whose plan is the same:
   what only a drawing needs is not kept by every build. */
ecs_sched_result ecs_sched_schedule_write_dot(ecs_sched_world *w, const char *label,
                                              void (*write)(const char *text, void *user_data),
                                              void *user_data) {
    ecs_sched__schedule *s;
    ecs_sched__plan *plan;
    ecs_sched__build b;
    ecs_sched__dot d;
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    if (!write) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "schedule_write_dot: needs a write function");
    }
    s = ecs_sched__schedule_known(w, label);
    if (!s) return w->env.last_result;
    if (ecs_sched__ensure_built(w, s) != ECS_SCHED_OK) return w->env.last_result;
    plan = ecs_sched__plan_create(w);
    if (!plan) return ecs_sched__out_of_memory(w, "drawing a schedule");
    ecs_sched__build_begin(&b, w, s);
    b.quiet = true;
    result = ecs_sched__build_passes(&b, plan);
    memset(&d, 0, sizeof d);
    if (result == ECS_SCHED_OK &&
        (!ecs_sched__draw_clusters(&b, &d.drawing) || !ecs_sched__draw_edges(&b, &d.drawing))) {
        result = ecs_sched__out_of_memory(w, "drawing a schedule");
    }
    if (result == ECS_SCHED_OK) {
        d.write = write;
        d.user_data = user_data;
        d.s = s;
        d.plan = plan;
        ecs_sched__dot_write(&d);
    }
    ecs_sched__build_end(&b);
    ecs_sched__plan_free(&w->env, plan);
    return result;
}

/*============================= src/relation.h (implementation) ==============================*/
/* relation: relationships between entities.

   A relationship kind is a component whose value starts with the target: an entity keeps its
   first target of a kind in its table like any value, and queries read it in place, so a
   world of many parents with few children each keeps one table per set of components, not
   one per parent (measured: iterating 100k children of 100k parents took 8.8 times as long
   with one table per parent as with the target in a column, which iterates like a flat
   world). What the column cannot hold is kept beside it, by entity index: a source's further
   targets of a kind that is not exclusive, and each target's list of sources, in the order
   they were related (a parent's children). */

typedef struct ecs_sched__sources {
    ecs_sched_entity *items;
    uint32_t count;
    uint32_t capacity;
} ecs_sched__sources;

/* A source's targets after the first, as slots like the column's. */
typedef struct ecs_sched__extra {
    unsigned char *slots;
    uint32_t count;
    uint32_t capacity;
} ecs_sched__extra;

typedef struct ecs_sched__kind {
    ecs_sched__sources *sources;    /* by target index */
    uint32_t source_capacity;
    ecs_sched__extra *extra;        /* by source index */
    uint32_t extra_capacity;
    uint32_t extra_count;           /* sources with further targets */
    uint32_t payload_size;
    uint64_t pairs;                 /* (source, target) pairs of this kind */
} ecs_sched__kind;

struct ecs_sched__links {
    ecs_sched__kind *kinds;         /* by component id, below kind_capacity */
    uint32_t kind_capacity;
    ecs_sched_id *kind_ids;         /* the kinds, in the order they were registered */
    uint32_t kind_count;
    uint32_t kind_id_capacity;
    uint64_t pairs;                 /* (source, target) pairs related */
    uint64_t *targets;              /* by entity index, a bit: it may have sources (a despawn
                                       looks no further for most entities) */
    uint32_t target_words;
    uint32_t *marks;                /* a despawn's entities, by index: the stamp of it */
    uint32_t mark_capacity;
    uint32_t mark_stamp;
    ecs_sched_entity *doomed;       /* a despawn's entities, targets before sources */
    ecs_sched_id *doomed_via;       /* the kind each was taken along by (0: the first) */
    uint32_t *order;                /* the order they are despawned in (see order_doomed) */
    uint32_t doomed_capacity;
    uint32_t via_capacity;
    uint32_t order_capacity;
};

/* ---- kinds ---- */

static inline size_t ecs_sched__payload_offset(const ecs_sched__component *c) {
    return c->alignment > sizeof(ecs_sched_entity) ? c->alignment : sizeof(ecs_sched_entity);
}

static inline ecs_sched__kind *ecs_sched__kind_of(const ecs_sched_world *w, ecs_sched_id kind) {
    return &w->relations->kinds[kind];
}

static ecs_sched_target_despawn ecs_sched__kind_policy(const ecs_sched_world *w, ecs_sched_id kind) {
    return (ecs_sched_target_despawn)((w->components[kind].relation >> ECS_SCHED__KIND_POLICY_SHIFT) & 3u);
}

static bool ecs_sched__is_kind(const ecs_sched_world *w, ecs_sched_id id) {
    return ecs_sched__component_valid(w, id) && w->components[id].relation != 0;
}

static uint8_t ecs_sched__relation_flags(const ecs_sched_relation_desc *d, bool child_of) {
    ecs_sched_target_despawn policy = d->on_target_despawn;
    if (policy == ECS_SCHED_TARGET_DEFAULT) {
        policy = child_of ? ECS_SCHED_TARGET_DESPAWN_SOURCES : ECS_SCHED_TARGET_REMOVE;
    }
    return (uint8_t)(ECS_SCHED__KIND_RELATION | (d->exclusive ? ECS_SCHED__KIND_EXCLUSIVE : 0u) |
                     (d->acyclic ? ECS_SCHED__KIND_ACYCLIC : 0u) |
                     ((unsigned)policy << ECS_SCHED__KIND_POLICY_SHIFT));
}

static ecs_sched_result ecs_sched__relation_desc_check(ecs_sched_world *w,
                                                      const ecs_sched_relation_desc *d) {
    if (!d || !d->name || !d->name[0]) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "relation_register: a relationship kind needs a name");
    }
    if ((unsigned)d->on_target_despawn > (unsigned)ECS_SCHED_TARGET_REFUSE) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "relation_register('%s'): on_target_despawn %d is not one of "
                               "ECS_SCHED_TARGET_DEFAULT, _REMOVE, _DESPAWN_SOURCES or _REFUSE",
                               d->name, (int)d->on_target_despawn);
    }
    if (d->payload_alignment & (d->payload_alignment - 1u) ||
        d->payload_alignment > ECS_SCHED_MAX_ALIGNMENT) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "relation_register('%s'): payload alignment %zu is not a power of "
                               "two up to %d", d->name, d->payload_alignment,
                               (int)ECS_SCHED_MAX_ALIGNMENT);
    }
    return ECS_SCHED_OK;
}

/* The world's relationships, made with its first kind. */
static bool ecs_sched__relations_reserve(ecs_sched_world *w, ecs_sched_id kind) {
    ecs_sched__links *r = w->relations;
    uint32_t had;
    if (!r) {
        r = (ecs_sched__links *)ecs_sched__calloc(&w->env, sizeof *r);
        if (!r) return false;
        w->relations = r;
    }
    if (!ECS_SCHED__GROW(&w->env, r->kind_ids, &r->kind_id_capacity, r->kind_count + 1)) {
        return false;
    }
    had = r->kind_capacity;
    if (kind < had) return true;
    if (!ECS_SCHED__GROW(&w->env, r->kinds, &r->kind_capacity, kind + 1)) return false;
    memset(r->kinds + had, 0, (r->kind_capacity - had) * sizeof *r->kinds);
    return true;
}

ecs_sched_id ecs_sched_relation_register(ecs_sched_world *w, const ecs_sched_relation_desc *d) {
    ecs_sched_component_desc cd;
    size_t align, offset;
    ecs_sched_id id;
    uint8_t flags;
    ECS_SCHED__CHECK_WORLD(w);
    if (ecs_sched__relation_desc_check(w, d) != ECS_SCHED_OK) return 0;
    flags = ecs_sched__relation_flags(d, strcmp(d->name, ECS_SCHED__CHILD_OF_NAME) == 0);
    align = d->payload_alignment ? d->payload_alignment : ecs_sched__default_alignment(d->payload_size);
    if (align < ECS_SCHED_ALIGNOF(ecs_sched_entity)) align = ECS_SCHED_ALIGNOF(ecs_sched_entity);
    offset = align > sizeof(ecs_sched_entity) ? align : sizeof(ecs_sched_entity);
    id = ecs_sched_component_lookup(w, d->name);
    if (id && (w->components[id].relation != flags ||
               (id < w->relations->kind_capacity &&
                w->relations->kinds[id].payload_size != d->payload_size))) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_COMPONENT_MISMATCH,
                        "relation_register: '%s' is registered already, %s; register each kind "
                        "once, with one set of properties", d->name,
                        w->components[id].relation ? "as a relationship with other properties"
                                                   : "as a component");
        return 0;
    }
    memset(&cd, 0, sizeof cd);
    cd.name = d->name;
    cd.size = (offset + d->payload_size + align - 1u) & ~(align - 1u);
    cd.alignment = align;
    if (!ecs_sched__relations_reserve(w, w->component_count)) {
        ecs_sched__out_of_memory(w, "registering a relationship kind");
        return 0;
    }
    id = ecs_sched_component_register(w, &cd);
    if (!id) return 0;
    if (!w->components[id].relation) w->relations->kind_ids[w->relations->kind_count++] = id;
    w->components[id].relation = flags;
    w->relations->kinds[id].payload_size = (uint32_t)d->payload_size;
    return id;
}

bool ecs_sched_is_relation(const ecs_sched_world *w, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__is_kind(w, id);
}

ecs_sched_id ecs_sched_child_of(const ecs_sched_world *w) {
    ECS_SCHED__CHECK_WORLD(w);
    return w->child_of;
}

/* The world's side (declared in world.h): ChildOf is registered with the world. */
static ecs_sched_id ecs_sched__register_child_of(ecs_sched_world *w) {
    ecs_sched_relation_desc d;
    memset(&d, 0, sizeof d);
    d.name = ECS_SCHED__CHILD_OF_NAME;
    d.exclusive = true;
    d.acyclic = true;
    return ecs_sched_relation_register(w, &d);
}

/* ---- entity labels, for messages ---- */


typedef struct ecs_sched__label {
    char text[96];
} ecs_sched__label;

/* "entity 5" (with its name in quotes when it has one). */
static ecs_sched__label ecs_sched__entity_label(const ecs_sched_world *w, ecs_sched_entity e) {
    ecs_sched__label label;
    const char *name = ecs_sched__entity_name_of(w, e);
    if (name) {
        snprintf(label.text, sizeof label.text, "entity %u '%s'", (unsigned)ECS_SCHED_ENTITY_INDEX(e),
                 name);
    } else {
        snprintf(label.text, sizeof label.text, "entity %u", (unsigned)ECS_SCHED_ENTITY_INDEX(e));
    }
    return label;
}

/* ---- slots: a target and its payload ---- */

/* The entity's first slot of the kind, or NULL when it has none. */
static unsigned char *ecs_sched__rel_first_slot(const ecs_sched_world *w, ecs_sched_entity source,
                                            ecs_sched_id kind) {
    const ecs_sched__record *r = &w->records[ECS_SCHED_ENTITY_INDEX(source)];
    const ecs_sched__table *t = w->tables[r->table];
    int32_t column = ecs_sched__column_find(t, kind);
    return column < 0 ? NULL : (unsigned char *)ecs_sched__cell(t, column, r->row);
}

static inline ecs_sched_entity ecs_sched__rel_slot_target(const unsigned char *slot) {
    ecs_sched_entity target;
    memcpy(&target, slot, sizeof target);
    return target;
}

static ecs_sched__extra *ecs_sched__extra_of(const ecs_sched_world *w, ecs_sched_id kind,
                                             ecs_sched_entity source) {
    const ecs_sched__kind *k = ecs_sched__kind_of(w, kind);
    uint32_t index = ECS_SCHED_ENTITY_INDEX(source);
    return k->extra_count && index < k->extra_capacity ? &k->extra[index] : NULL;
}

/* The slot of (source, kind, target), or NULL. */
static unsigned char *ecs_sched__rel_slot_of(const ecs_sched_world *w, ecs_sched_entity source,
                                         ecs_sched_id kind, ecs_sched_entity target) {
    unsigned char *slot = ecs_sched__rel_first_slot(w, source, kind);
    const ecs_sched__extra *x;
    uint32_t i;
    if (!slot || ecs_sched__rel_slot_target(slot) == target) return slot;
    x = ecs_sched__extra_of(w, kind, source);
    for (i = 0; x && i < x->count; i++) {
        unsigned char *s = x->slots + (size_t)i * w->components[kind].size;
        if (ecs_sched__rel_slot_target(s) == target) return s;
    }
    return NULL;
}

static void ecs_sched__rel_slot_write(const ecs_sched_world *w, ecs_sched_id kind, unsigned char *slot,
                                  ecs_sched_entity target, const void *payload, bool fresh) {
    const ecs_sched__component *c = &w->components[kind];
    size_t offset = ecs_sched__payload_offset(c);
    if (fresh) memset(slot, 0, c->size);
    memcpy(slot, &target, sizeof target);
    if (payload) memcpy(slot + offset, payload, ecs_sched__kind_of(w, kind)->payload_size);
}

/* ---- the sources of a target ---- */

static ecs_sched__sources *ecs_sched__sources_of(const ecs_sched_world *w, ecs_sched_id kind,
                                                 ecs_sched_entity target) {
    const ecs_sched__kind *k = ecs_sched__kind_of(w, kind);
    uint32_t index = ECS_SCHED_ENTITY_INDEX(target);
    return index < k->source_capacity && k->sources[index].count ? &k->sources[index] : NULL;
}

/* Room for one more source of target (and the list itself); false when out of memory. */
static bool ecs_sched__sources_reserve(ecs_sched_world *w, ecs_sched_id kind,
                                       ecs_sched_entity target) {
    ecs_sched__kind *k = ecs_sched__kind_of(w, kind);
    uint32_t index = ECS_SCHED_ENTITY_INDEX(target), had = k->source_capacity;
    ecs_sched__sources *s;
    if (index >= had) {
        if (!ECS_SCHED__GROW(&w->env, k->sources, &k->source_capacity, index + 1)) return false;
        memset(k->sources + had, 0, (k->source_capacity - had) * sizeof *k->sources);
    }
    if (index / 64u >= w->relations->target_words) {
        ecs_sched__links *r = w->relations;
        uint32_t words = r->target_words;
        if (!ECS_SCHED__GROW(&w->env, r->targets, &words, index / 64u + 1u)) return false;
        memset(r->targets + r->target_words, 0, (words - r->target_words) * sizeof *r->targets);
        r->target_words = words;
    }
    s = &k->sources[index];
    return ECS_SCHED__GROW(&w->env, s->items, &s->capacity, s->count + 1);
}

/* Whether the entity may have sources of some kind (the bit is set by its first source and
   cleared when it is despawned). */
static inline bool ecs_sched__may_be_target(const ecs_sched__links *r, ecs_sched_entity e) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    return index / 64u < r->target_words && ((r->targets[index / 64u] >> (index % 64u)) & 1u);
}

/* Inserts source at `at` (count: at the end) of a list with room. */
static void ecs_sched__sources_insert(ecs_sched__sources *s, ecs_sched_entity source, uint32_t at) {
    if (at > s->count) at = s->count;
    memmove(s->items + at + 1, s->items + at, (s->count - at) * sizeof *s->items);
    s->items[at] = source;
    s->count++;
}

/* Takes source out of the list, keeping the others' order. Searched from the end: a tree
   despawned leaves first takes each list's sources from the back. */
static bool ecs_sched__sources_drop(ecs_sched__sources *s, ecs_sched_entity source) {
    uint32_t i = s->count;
    while (i > 0 && s->items[i - 1] != source) i--;
    if (i == 0) return false;
    memmove(s->items + i - 1, s->items + i, (s->count - i) * sizeof *s->items);
    s->count--;
    return true;
}

static void ecs_sched__link(ecs_sched_world *w, ecs_sched_id kind, ecs_sched_entity source,
                            ecs_sched_entity target, uint32_t at) {
    ecs_sched__sources_insert(&ecs_sched__kind_of(w, kind)->sources[ECS_SCHED_ENTITY_INDEX(target)],
                              source, at);
    w->relations->pairs++;
    w->relations->targets[ECS_SCHED_ENTITY_INDEX(target) / 64u] |=
        (uint64_t)1 << (ECS_SCHED_ENTITY_INDEX(target) % 64u);
    ecs_sched__kind_of(w, kind)->pairs++;
    w->linked = true;
    w->rows_version++;
}

/* (A target despawned before its source dropped its list whole: nothing is left to drop.) */
static void ecs_sched__unlink(ecs_sched_world *w, ecs_sched_id kind, ecs_sched_entity source,
                              ecs_sched_entity target) {
    ecs_sched__sources *s = ecs_sched__sources_of(w, kind, target);
    w->rows_version++;
    if (!s || !ecs_sched__sources_drop(s, source)) return;
    w->relations->pairs--;
    ecs_sched__kind_of(w, kind)->pairs--;
}

/* ---- checks ---- */

static ecs_sched_result ecs_sched__not_a_kind(ecs_sched_world *w, ecs_sched_id kind,
                                              const char *operation) {
    if (!ecs_sched__component_valid(w, kind)) return ecs_sched__unknown_component(w, kind, operation);
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "%s: '%s' is a component, not a relationship kind; register kinds "
                           "with ecs_sched_relation_register", operation,
                           w->components[kind].name);
}

/* Refuses relating source to target along an acyclic kind when target is source or one of
   its descendants; the message gives the path. */
static ecs_sched_result ecs_sched__check_acyclic(ecs_sched_world *w, ecs_sched_entity source,
                                                 ecs_sched_id kind, ecs_sched_entity target,
                                                 const char *operation) {
    char path[ECS_SCHED__ERROR_CAPACITY];
    ecs_sched_entity at = target;
    size_t used = 0;
    int32_t steps = 0;
    while (at != source) {
        const unsigned char *slot = ecs_sched__rel_first_slot(w, at, kind);
        if (!slot) return ECS_SCHED_OK;
        at = ecs_sched__rel_slot_target(slot);
        steps++;
    }
    /* the path from source down to target: walk up from target, write in reverse */
    path[0] = '\0';
    at = target;
    while (steps-- >= 0 && used < sizeof path) {
        ecs_sched__label l = ecs_sched__entity_label(w, at);
        int n = snprintf(path + used, sizeof path - used, "%s%s", used ? " -> " : "", l.text);
        if (n < 0) break;
        used += (size_t)n;
        if (at == source) break;
        at = ecs_sched__rel_slot_target(ecs_sched__rel_first_slot(w, at, kind));
    }
    if (target == source && kind == w->child_of) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_RELATION_CYCLE,
                               "%s: %s cannot be its own parent (a cycle)", operation,
                               ecs_sched__entity_label(w, source).text);
    }
    if (target == source) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_RELATION_CYCLE,
                               "%s: relating %s to itself with '%s' would make a cycle, and "
                               "'%s' is acyclic", operation, ecs_sched__entity_label(w, source).text,
                               w->components[kind].name, w->components[kind].name);
    }
    if (kind == w->child_of) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_RELATION_CYCLE,
                               "%s: %s cannot become a child of %s, which is below it already "
                               "(%s: each one a child of the next); that would make a cycle. "
                               "Move %s elsewhere first, or choose another parent", operation,
                               ecs_sched__entity_label(w, source).text,
                               ecs_sched__entity_label(w, target).text, path,
                               ecs_sched__entity_label(w, target).text);
    }
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_RELATION_CYCLE,
                           "%s: relating %s to %s with '%s' would make a cycle: %s already "
                           "reaches %s through it (%s), and '%s' is acyclic; relate them the "
                           "other way, or detach one first", operation,
                           ecs_sched__entity_label(w, source).text,
                           ecs_sched__entity_label(w, target).text, w->components[kind].name,
                           ecs_sched__entity_label(w, target).text,
                           ecs_sched__entity_label(w, source).text, path, w->components[kind].name);
}

static ecs_sched_result ecs_sched__relate_check(ecs_sched_world *w, ecs_sched_entity source,
                                                ecs_sched_id kind, ecs_sched_entity target,
                                                const char *operation) {
    if (!ecs_sched__is_live_record(w, source)) return ecs_sched__stale(w, source, operation);
    if (!ecs_sched__is_kind(w, kind)) return ecs_sched__not_a_kind(w, kind, operation);
    if (!ecs_sched__is_live_record(w, target)) {
        char what[ECS_SCHED__ERROR_CAPACITY];
        snprintf(what, sizeof what, "%s (the target of '%s' for %s)", operation,
                 w->components[kind].name, ecs_sched__entity_label(w, source).text);
        return ecs_sched__stale(w, target, what);
    }
    if (w->components[kind].relation & ECS_SCHED__KIND_ACYCLIC) {
        return ecs_sched__check_acyclic(w, source, kind, target, operation);
    }
    return ECS_SCHED_OK;
}

/* ---- relating ---- */

static void ecs_sched__observe_relation(ecs_sched_world *w, ecs_sched_observer_event event,
                                        ecs_sched_entity source, ecs_sched_id kind,
                                        ecs_sched_entity target) {
    if (w->observers && ecs_sched__watched(w, kind, event)) {
        ecs_sched__observe_target(w, event, source, kind, target);
    }
}

/* The entity gains the kind's column: its first slot, raw. NULL when out of memory. */
static unsigned char *ecs_sched__gain_kind(ecs_sched_world *w, ecs_sched_entity source,
                                           ecs_sched_id kind) {
    uint32_t index = ECS_SCHED_ENTITY_INDEX(source);
    ecs_sched__table *src = w->tables[w->records[index].table];
    ecs_sched__table *dst = ecs_sched__table_step(w, src, kind, false);
    if (!dst || !ecs_sched__move_entity(w, index, dst)) return NULL;
    return ecs_sched__rel_first_slot(w, source, kind);
}

/* A further target of a kind that is not exclusive; false when out of memory. */
static bool ecs_sched__extra_add(ecs_sched_world *w, ecs_sched_entity source, ecs_sched_id kind,
                                 ecs_sched_entity target, const void *payload) {
    ecs_sched__kind *k = ecs_sched__kind_of(w, kind);
    uint32_t index = ECS_SCHED_ENTITY_INDEX(source), had = k->extra_capacity, size;
    ecs_sched__extra *x;
    size_t bytes;
    if (index >= had) {
        if (!ECS_SCHED__GROW(&w->env, k->extra, &k->extra_capacity, index + 1)) return false;
        memset(k->extra + had, 0, (k->extra_capacity - had) * sizeof *k->extra);
    }
    x = &k->extra[index];
    size = w->components[kind].size;
    if (x->count == x->capacity) {
        uint32_t capacity = x->capacity ? x->capacity * 2 : 2;
        unsigned char *slots;
        bytes = (size_t)capacity * size;
        slots = (unsigned char *)ecs_sched__realloc(&w->env, x->slots, bytes);
        if (!slots) return false;
        x->slots = slots;
        x->capacity = capacity;
    }
    if (x->count == 0) k->extra_count++;
    ecs_sched__rel_slot_write(w, kind, x->slots + (size_t)x->count * size, target, payload, true);
    x->count++;
    return true;
}

static void ecs_sched__extra_drop(ecs_sched_world *w, ecs_sched_id kind, ecs_sched__extra *x,
                                  uint32_t i) {
    size_t size = w->components[kind].size;
    memmove(x->slots + i * size, x->slots + (i + 1) * size, (x->count - i - 1) * size);
    if (--x->count == 0) {
        ecs_sched__free(&w->env, x->slots);
        x->slots = NULL;
        x->capacity = 0;
        ecs_sched__kind_of(w, kind)->extra_count--;
    }
}

/* Relates a checked source and target; `at` places source among target's sources (UINT32_MAX:
   last). */
static ecs_sched_result ecs_sched__relate_checked(ecs_sched_world *w, ecs_sched_entity source,
                                                  ecs_sched_id kind, ecs_sched_entity target,
                                                  const void *payload, uint32_t at) {
    unsigned char *slot = ecs_sched__rel_first_slot(w, source, kind), *same;
    bool exclusive = (w->components[kind].relation & ECS_SCHED__KIND_EXCLUSIVE) != 0;
    ecs_sched_entity old = slot ? ecs_sched__rel_slot_target(slot) : ECS_SCHED_NULL_ENTITY;
    same = slot ? ecs_sched__rel_slot_of(w, source, kind, target) : NULL;
    if (same) {   /* related already: a new payload, and no move among the sources */
        if (payload) ecs_sched__rel_slot_write(w, kind, same, target, payload, false);
        ecs_sched__observe_relation(w, ECS_SCHED_ON_INSERT, source, kind, target);
        return ECS_SCHED_OK;
    }
    if (kind == w->child_of) {   /* its name moves to the new parent's children */
        ecs_sched_result result = ecs_sched__name_may_move(w, source, target, "relate");
        if (result != ECS_SCHED_OK) return result;
    }
    if (!ecs_sched__sources_reserve(w, kind, target)) {
        return ecs_sched__out_of_memory(w, "relating two entities");
    }
    if (!slot) {
        slot = ecs_sched__gain_kind(w, source, kind);
        if (!slot) return ecs_sched__out_of_memory(w, "moving an entity to a new archetype");
        ecs_sched__rel_slot_write(w, kind, slot, target, payload, true);
    } else if (exclusive) {
        ecs_sched__observe_relation(w, ECS_SCHED_ON_REMOVE, source, kind, old);
        ecs_sched__unlink(w, kind, source, old);
        slot = ecs_sched__rel_first_slot(w, source, kind);   /* an observer may have moved it */
        ecs_sched__rel_slot_write(w, kind, slot, target, payload, true);
    } else if (!ecs_sched__extra_add(w, source, kind, target, payload)) {
        return ecs_sched__out_of_memory(w, "relating two entities");
    }
    ecs_sched__link(w, kind, source, target, at);
    if (kind == w->child_of) ecs_sched__name_refile(w, source);
    ecs_sched__observe_relation(w, ECS_SCHED_ON_ADD, source, kind, target);
    ecs_sched__observe_relation(w, ECS_SCHED_ON_INSERT, source, kind, target);
    return ECS_SCHED_OK;
}

/* What an observer does through the world is recorded in its buffer. */
static ecs_sched_result ecs_sched__relate_at(ecs_sched_world *w, ecs_sched_entity source,
                                             ecs_sched_id kind, ecs_sched_entity target,
                                             const void *payload, uint32_t at,
                                             const char *operation) {
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observers && ecs_sched__deferring(w)) {
        return ecs_sched_commands_relate(ecs_sched__deferring(w), source, kind, target, payload);
    }
    if (ecs_sched__change_refused(w, operation)) return ECS_SCHED_ERR_ACCESS;
    result = ecs_sched__relate_check(w, source, kind, target, operation);
    if (result != ECS_SCHED_OK) return result;
    result = ecs_sched__relate_checked(w, source, kind, target, payload, at);
    if (w->observers) ecs_sched__observers_flush(w);
    return result;
}

ecs_sched_result ecs_sched_relate(ecs_sched_world *w, ecs_sched_entity source, ecs_sched_id kind,
                                  ecs_sched_entity target, const void *payload) {
    return ecs_sched__relate_at(w, source, kind, target, payload, UINT32_MAX, "relate");
}

/* Takes one relationship away; the entity loses the kind's column with its last target. */
static ecs_sched_result ecs_sched__unrelate_checked(ecs_sched_world *w, ecs_sched_entity source,
                                                    ecs_sched_id kind, ecs_sched_entity target) {
    unsigned char *slot;
    ecs_sched__extra *x;
    if (kind == w->child_of) {   /* a root now: its name must be free among the roots */
        ecs_sched_result result = ecs_sched__name_may_move(w, source, ECS_SCHED_NULL_ENTITY, "unrelate");
        if (result != ECS_SCHED_OK) return result;
    }
    ecs_sched__observe_relation(w, ECS_SCHED_ON_REMOVE, source, kind, target);
    slot = ecs_sched__rel_first_slot(w, source, kind);
    if (!slot || !ecs_sched__rel_slot_of(w, source, kind, target)) return ECS_SCHED_OK;
    x = ecs_sched__extra_of(w, kind, source);
    if (ecs_sched__rel_slot_target(slot) == target) {
        if (x && x->count) {   /* the last further target takes the column's place */
            memcpy(slot, x->slots + (size_t)(x->count - 1) * w->components[kind].size,
                   w->components[kind].size);
            ecs_sched__extra_drop(w, kind, x, x->count - 1);
        } else {
            uint32_t index = ECS_SCHED_ENTITY_INDEX(source);
            ecs_sched__table *src = w->tables[w->records[index].table];
            ecs_sched__table *dst = ecs_sched__table_step(w, src, kind, true);
            if (!dst || !ecs_sched__move_entity(w, index, dst)) {
                return ecs_sched__out_of_memory(w, "moving an entity to a new archetype");
            }
        }
    } else {
        uint32_t i;
        size_t size = w->components[kind].size;
        for (i = 0; i < x->count && ecs_sched__rel_slot_target(x->slots + i * size) != target; i++) {}
        ecs_sched__extra_drop(w, kind, x, i);
    }
    ecs_sched__unlink(w, kind, source, target);
    if (kind == w->child_of) ecs_sched__name_refile(w, source);
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_unrelate(ecs_sched_world *w, ecs_sched_entity source, ecs_sched_id kind,
                                    ecs_sched_entity target) {
    ecs_sched_result result;
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observers && ecs_sched__deferring(w)) {
        return ecs_sched_commands_unrelate(ecs_sched__deferring(w), source, kind, target);
    }
    if (ecs_sched__change_refused(w, "unrelate")) return ECS_SCHED_ERR_ACCESS;
    if (!ecs_sched__is_live_record(w, source)) return ecs_sched__stale(w, source, "unrelate");
    if (!ecs_sched__is_kind(w, kind)) return ecs_sched__not_a_kind(w, kind, "unrelate");
    if (!ecs_sched__is_live_record(w, target)) return ecs_sched__stale(w, target, "unrelate (target)");
    if (!ecs_sched__rel_slot_of(w, source, kind, target)) return ECS_SCHED_OK;
    result = ecs_sched__unrelate_checked(w, source, kind, target);
    if (w->observers) ecs_sched__observers_flush(w);
    return result;
}

/* The world's side (declared in world.h): ecs_sched_remove of a kind removes each target. */
static ecs_sched_result ecs_sched__remove_relation(ecs_sched_world *w, ecs_sched_entity source,
                                                   ecs_sched_id kind) {
    const unsigned char *slot;
    while ((slot = ecs_sched__rel_first_slot(w, source, kind)) != NULL) {
        const ecs_sched__extra *x = ecs_sched__extra_of(w, kind, source);
        ecs_sched_entity target = x && x->count
            ? ecs_sched__rel_slot_target(x->slots + (size_t)(x->count - 1) * w->components[kind].size)
            : ecs_sched__rel_slot_target(slot);
        ecs_sched_result result = ecs_sched__unrelate_checked(w, source, kind, target);
        if (result != ECS_SCHED_OK) return result;
    }
    if (w->observers) ecs_sched__observers_flush(w);
    return ECS_SCHED_OK;
}

/* ---- reading ---- */

bool ecs_sched_has_relation(const ecs_sched_world *w, ecs_sched_entity source, ecs_sched_id kind,
                            ecs_sched_entity target) {
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__is_live_record(w, source) || !ecs_sched__is_kind(w, kind)) return false;
    if (target == ECS_SCHED_NULL_ENTITY) return ecs_sched__rel_first_slot(w, source, kind) != NULL;
    return ecs_sched__rel_slot_of(w, source, kind, target) != NULL;
}

int32_t ecs_sched_target_count(const ecs_sched_world *w, ecs_sched_entity source,
                               ecs_sched_id kind) {
    const ecs_sched__extra *x;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__is_live_record(w, source) || !ecs_sched__is_kind(w, kind) ||
        !ecs_sched__rel_first_slot(w, source, kind)) {
        return 0;
    }
    x = ecs_sched__extra_of(w, kind, source);
    return 1 + (x ? (int32_t)x->count : 0);
}

ecs_sched_entity ecs_sched_target(const ecs_sched_world *w, ecs_sched_entity source,
                                  ecs_sched_id kind, int32_t index) {
    const unsigned char *slot;
    const ecs_sched__extra *x;
    ECS_SCHED__CHECK_WORLD(w);
    if (index < 0 || !ecs_sched__is_live_record(w, source) || !ecs_sched__is_kind(w, kind) ||
        !(slot = ecs_sched__rel_first_slot(w, source, kind))) {
        return ECS_SCHED_NULL_ENTITY;
    }
    if (index == 0) return ecs_sched__rel_slot_target(slot);
    x = ecs_sched__extra_of(w, kind, source);
    if (!x || (uint32_t)index > x->count) return ECS_SCHED_NULL_ENTITY;
    return ecs_sched__rel_slot_target(x->slots + (size_t)(index - 1) * w->components[kind].size);
}

void *ecs_sched_relation_payload(ecs_sched_world *w, ecs_sched_entity source, ecs_sched_id kind,
                                 ecs_sched_entity target) {
    unsigned char *slot;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__is_live_record(w, source)) {
        ecs_sched__stale(w, source, "relation_payload");
        return NULL;
    }
    if (!ecs_sched__is_kind(w, kind)) {
        ecs_sched__not_a_kind(w, kind, "relation_payload");
        return NULL;
    }
    slot = ecs_sched__rel_slot_of(w, source, kind, target);
    if (!slot || ecs_sched__kind_of(w, kind)->payload_size == 0) {
        ecs_sched__fail(&w->env, slot ? ECS_SCHED_ERR_INVALID_ARGUMENT : ECS_SCHED_ERR_MISSING_COMPONENT,
                        "relation_payload: %s %s '%s' to %s", ecs_sched__entity_label(w, source).text,
                        slot ? "has no payload in its" : "has no", w->components[kind].name,
                        ecs_sched__entity_label(w, target).text);
        return NULL;
    }
    return slot + ecs_sched__payload_offset(&w->components[kind]);
}

const ecs_sched_entity *ecs_sched_sources(const ecs_sched_world *w, ecs_sched_id kind,
                                          ecs_sched_entity target, int32_t *count) {
    const ecs_sched__sources *s;
    ECS_SCHED__CHECK_WORLD(w);
    if (count) *count = 0;
    if (!ecs_sched__is_kind(w, kind) || !ecs_sched__is_live_record(w, target)) return NULL;
    s = ecs_sched__sources_of(w, kind, target);
    if (!s) return NULL;
    if (count) *count = (int32_t)s->count;
    return s->items;
}

/* ---- commands ---- */

ecs_sched_result ecs_sched_commands_relate(ecs_sched_commands *cmd, ecs_sched_entity source,
                                           ecs_sched_id kind, ecs_sched_entity target,
                                           const void *payload) {
    ecs_sched_world *w;
    ecs_sched_result result;
    if (ecs_sched__no_buffer(cmd)) return ECS_SCHED_ERR_ACCESS;
    w = cmd->world;
    result = ecs_sched__check_target(cmd, source, "commands_relate");
    if (result != ECS_SCHED_OK) return result;
    if (!ecs_sched__is_kind(w, kind)) return ecs_sched__not_a_kind(w, kind, "commands_relate");
    result = ecs_sched__check_target(cmd, target, "commands_relate (target)");
    if (result != ECS_SCHED_OK) return result;
    return ecs_sched__record_slot_command(cmd, payload ? ECS_SCHED__CMD_RELATE
                                                       : ECS_SCHED__CMD_RELATE_KEEP,
                                          source, kind, target, payload,
                                          ecs_sched__kind_of(w, kind)->payload_size);
}

ecs_sched_result ecs_sched_commands_unrelate(ecs_sched_commands *cmd, ecs_sched_entity source,
                                             ecs_sched_id kind, ecs_sched_entity target) {
    ecs_sched_world *w;
    ecs_sched_result result;
    if (ecs_sched__no_buffer(cmd)) return ECS_SCHED_ERR_ACCESS;
    w = cmd->world;
    result = ecs_sched__check_target(cmd, source, "commands_unrelate");
    if (result != ECS_SCHED_OK) return result;
    if (!ecs_sched__is_kind(w, kind)) return ecs_sched__not_a_kind(w, kind, "commands_unrelate");
    result = ecs_sched__check_target(cmd, target, "commands_unrelate (target)");
    if (result != ECS_SCHED_OK) return result;
    return ecs_sched__record_slot_command(cmd, ECS_SCHED__CMD_UNRELATE, source, kind, target,
                                          NULL, 0);
}

/* The world's side (declared in world.h): a relate or unrelate command, applied. A command
   whose target died meanwhile is skipped (false). */
static bool ecs_sched__apply_relation(ecs_sched_world *w, uint32_t op, ecs_sched_entity source,
                                      ecs_sched_id kind, const void *slot, ecs_sched_result *result) {
    ecs_sched_entity target = ecs_sched__rel_slot_target((const unsigned char *)slot);
    if (!ecs_sched__is_live_record(w, target)) return false;
    if (op == ECS_SCHED__CMD_UNRELATE) {
        *result = ecs_sched_unrelate(w, source, kind, target);
    } else {
        const unsigned char *payload = (const unsigned char *)slot +
                                       ecs_sched__payload_offset(&w->components[kind]);
        *result = ecs_sched_relate(w, source, kind, target,
                                   op == ECS_SCHED__CMD_RELATE ? payload : NULL);
    }
    return true;
}

/* ---- despawning ----

   A despawn gathers the entity and what its kinds' rules take along (targets before their
   sources), checks the rules that refuse, detaches the sources that stay, then despawns the
   gathered entities sources first. A source taken along by an exclusive kind does not leave
   its target's list one by one: the target, despawned after it, drops the whole list. */

/* Room for `count` entities of a despawn (and their marks, when `marking`). */
static bool ecs_sched__doomed_reserve(ecs_sched_world *w, uint32_t count, bool marking) {
    ecs_sched__links *r = w->relations;
    uint32_t had = r->mark_capacity;
    if (marking && w->record_count > had) {
        if (!ECS_SCHED__GROW(&w->env, r->marks, &r->mark_capacity, w->record_count)) return false;
        memset(r->marks + had, 0, (r->mark_capacity - had) * sizeof *r->marks);
    }
    return ECS_SCHED__GROW(&w->env, r->doomed, &r->doomed_capacity, count) &&
           ECS_SCHED__GROW(&w->env, r->doomed_via, &r->via_capacity, count) &&
           ECS_SCHED__GROW(&w->env, r->order, &r->order_capacity, count);
}

/* Whether the rules of kinds other than those that despawn sources have work: only then is
   each gathered entity marked, to tell the sources that stay from those that go. */
static bool ecs_sched__despawn_needs_marks(const ecs_sched_world *w) {
    const ecs_sched__links *r = w->relations;
    uint32_t k, taking = 0;
    for (k = 0; k < r->kind_count; k++) {
        ecs_sched_id kind = r->kind_ids[k];
        if (r->kinds[kind].pairs == 0) continue;
        if (ecs_sched__kind_policy(w, kind) != ECS_SCHED_TARGET_DESPAWN_SOURCES) return true;
        /* two kinds that take sources along may reach one entity twice, and so may one that
           is not exclusive */
        if (++taking > 1 || !(w->components[kind].relation & ECS_SCHED__KIND_EXCLUSIVE)) return true;
    }
    return false;
}

/* A tree's lists are scattered in memory: the walk asks for the lists of the entities a few
   steps ahead (their entries first, then what the entries point to), so that the misses of
   one wait overlap those of the next. */
static inline void ecs_sched__prefetch_sources(const ecs_sched_world *w, const ecs_sched__links *r,
                                               ecs_sched_entity e, bool items) {
#if defined(__GNUC__) || defined(__clang__)
    uint32_t k, index = ECS_SCHED_ENTITY_INDEX(e);
    if (!e || !ecs_sched__may_be_target(r, e)) return;
    for (k = 0; k < r->kind_count; k++) {
        const ecs_sched__kind *kind = &r->kinds[r->kind_ids[k]];
        if (index >= kind->source_capacity || !kind->pairs) continue;
        if (!items) __builtin_prefetch(&kind->sources[index]);
        else if (kind->sources[index].count) __builtin_prefetch(kind->sources[index].items);
    }
    (void)w;
#else
    (void)w; (void)r; (void)e; (void)items;
#endif
}

/* Gathers e and every entity its despawn takes along (through kinds that despawn sources),
   targets before sources, into relations->doomed; returns how many, or -1 when out of
   memory. */
static int32_t ecs_sched__gather_doomed(ecs_sched_world *w, ecs_sched_entity e, bool marking,
                                       bool drop_lists) {
    ecs_sched__links *r = w->relations;
    uint32_t n = 0, at, k;
    if (marking && ++r->mark_stamp == 0) {   /* the stamp wrapped: old marks could match */
        if (r->marks) memset(r->marks, 0, r->mark_capacity * sizeof *r->marks);
        r->mark_stamp = 1;
    }
    if (!ecs_sched__doomed_reserve(w, 1, marking)) return -1;
    r->doomed_via[n] = 0;
    r->doomed[n++] = e;
    if (marking) r->marks[ECS_SCHED_ENTITY_INDEX(e)] = r->mark_stamp;
    for (at = 0; at < n; at++) {
        ecs_sched__prefetch_sources(w, r, at + 32u < n ? r->doomed[at + 32u] : 0, false);
        ecs_sched__prefetch_sources(w, r, at + 16u < n ? r->doomed[at + 16u] : 0, true);
        for (k = 0; k < r->kind_count; k++) {
            ecs_sched_id kind = r->kind_ids[k];
            const ecs_sched__sources *s;
            uint32_t i;
            if (ecs_sched__kind_policy(w, kind) != ECS_SCHED_TARGET_DESPAWN_SOURCES ||
                !ecs_sched__may_be_target(r, r->doomed[at])) {
                continue;
            }
            s = ecs_sched__sources_of(w, kind, r->doomed[at]);
            if (!s) continue;
            if (!ecs_sched__doomed_reserve(w, n + s->count, false)) return -1;
            s = ecs_sched__sources_of(w, kind, r->doomed[at]);
            for (i = 0; i < s->count; i++) {
                if (marking) {
                    uint32_t index = ECS_SCHED_ENTITY_INDEX(s->items[i]);
                    if (r->marks[index] == r->mark_stamp) continue;
                    r->marks[index] = r->mark_stamp;
                }
                r->doomed_via[n] = kind;
                r->doomed[n++] = s->items[i];
            }
            if (drop_lists && (w->components[kind].relation & ECS_SCHED__KIND_EXCLUSIVE)) {
                /* every source goes, none leaves the list on its own: it goes now */
                ecs_sched__sources *list = ecs_sched__sources_of(w, kind, r->doomed[at]);
                ecs_sched__kind_of(w, kind)->pairs -= list->count;
                r->pairs -= list->count;
                list->count = 0;
                w->rows_version++;
            }
        }
    }
    return (int32_t)n;
}

/* A kind that refuses its targets' despawn, with a source that stays: the failure. */
static ecs_sched_result ecs_sched__check_refusals(ecs_sched_world *w, int32_t n) {
    const ecs_sched__links *r = w->relations;
    uint32_t k;
    int32_t i;
    for (k = 0; k < r->kind_count; k++) {
        ecs_sched_id kind = r->kind_ids[k];
        if (ecs_sched__kind_policy(w, kind) != ECS_SCHED_TARGET_REFUSE || !r->kinds[kind].pairs) continue;
        for (i = 0; i < n; i++) {
            const ecs_sched__sources *s = ecs_sched__sources_of(w, kind, r->doomed[i]);
            uint32_t j;
            for (j = 0; s && j < s->count; j++) {
                if (r->marks[ECS_SCHED_ENTITY_INDEX(s->items[j])] == r->mark_stamp) continue;
                return ecs_sched__fail(&w->env, ECS_SCHED_ERR_REFUSED,
                                       "despawn: %s is the target of '%s' for %s, and '%s' "
                                       "refuses the despawn of its targets; unrelate or despawn "
                                       "the sources first", ecs_sched__entity_label(w, r->doomed[i]).text,
                                       w->components[kind].name,
                                       ecs_sched__entity_label(w, s->items[j]).text,
                                       w->components[kind].name);
            }
        }
    }
    return ECS_SCHED_OK;
}

/* The sources that stay lose their relationships to an entity that goes (those that go too
   leave with their own despawn). */
static ecs_sched_result ecs_sched__detach_sources(ecs_sched_world *w, ecs_sched_entity target) {
    const ecs_sched__links *r = w->relations;
    uint32_t k;
    for (k = 0; k < r->kind_count; k++) {
        ecs_sched_id kind = r->kind_ids[k];
        const ecs_sched__sources *s = ecs_sched__sources_of(w, kind, target);
        uint32_t i = s ? s->count : 0;
        while (i-- > 0) {
            ecs_sched_entity source;
            ecs_sched_result result;
            s = ecs_sched__sources_of(w, kind, target);
            if (!s || i >= s->count) continue;   /* an observer's doing */
            source = s->items[i];
            if (r->marks[ECS_SCHED_ENTITY_INDEX(source)] == r->mark_stamp) continue;
            result = ecs_sched__unrelate_checked(w, source, kind, target);
            if (result != ECS_SCHED_OK) return result;
        }
    }
    return ECS_SCHED_OK;
}

/* The entity's own relationships go (as a source), without moving it; `via` (an exclusive
   kind it was taken along by, or 0) is left to its target, which goes after it. */
static void ecs_sched__drop_own_links(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_id via) {
    const ecs_sched__table *t = w->tables[w->records[ECS_SCHED_ENTITY_INDEX(e)].table];
    int32_t i;
    for (i = 0; i < t->type_count; i++) {
        ecs_sched_id kind = t->type[i];
        ecs_sched__extra *x;
        if (!w->components[kind].relation || kind == via) continue;
        ecs_sched__unlink(w, kind, e, ecs_sched__rel_slot_target(ecs_sched__rel_first_slot(w, e, kind)));
        x = ecs_sched__extra_of(w, kind, e);
        while (x && x->count) {
            ecs_sched__unlink(w, kind, e,
                              ecs_sched__rel_slot_target(x->slots + (size_t)(x->count - 1) *
                                                                    w->components[kind].size));
            ecs_sched__extra_drop(w, kind, x, x->count - 1);
        }
    }
}

/* The lists of an entity that goes: whoever is still in them went before it, without
   leaving (see ecs_sched__drop_own_links). */
static void ecs_sched__drop_sources(ecs_sched_world *w, ecs_sched_entity e) {
    ecs_sched__links *r = w->relations;
    uint32_t k, index = ECS_SCHED_ENTITY_INDEX(e);
    if (!ecs_sched__may_be_target(r, e)) return;
    r->targets[index / 64u] &= ~((uint64_t)1 << (index % 64u));
    for (k = 0; k < r->kind_count; k++) {
        ecs_sched__kind *kind = &r->kinds[r->kind_ids[k]];
        ecs_sched__sources *s;
        if (!kind->pairs) continue;
        s = ecs_sched__sources_of(w, r->kind_ids[k], e);
        if (!s) continue;
        kind->pairs -= s->count;
        r->pairs -= s->count;
        s->count = 0;
        w->rows_version++;
    }
}

/* The world's side (declared in world.h): despawns a live entity in a world with
   relationships or names, with what its kinds' rules take along. All or nothing for the
   rules; an entity whose sources lose their relationship (REMOVE) may have lost some of them
   when the allocator fails midway. */
/* The order the gathered entities are despawned in, into relations->order (positions in
   doomed). Sources before their targets (the reverse of the gathering), unless the targets'
   lists went whole already (drop_lists): then, when the entities' indices are dense (a tree
   made together), in the order of their indices, so that their records and rows are visited
   as they lie in memory. */
static void ecs_sched__order_doomed(ecs_sched_world *w, int32_t n, bool drop_lists) {
    ecs_sched__links *r = w->relations;
    uint32_t lo = UINT32_MAX, hi = 0, i, out = 0;
    int32_t k;
    for (k = 0; k < n; k++) r->order[k] = (uint32_t)(n - 1 - k);
    if (!drop_lists || n < 16) return;
    for (k = 0; k < n; k++) {
        uint32_t index = ECS_SCHED_ENTITY_INDEX(r->doomed[k]);
        if (index < lo) lo = index;
        if (index > hi) hi = index;
    }
    if (hi - lo > 4u * (uint32_t)n || !ecs_sched__doomed_reserve(w, (uint32_t)n, true)) return;
    /* marks are free while nothing is marked: each index's position in doomed */
    for (k = 0; k < n; k++) r->marks[ECS_SCHED_ENTITY_INDEX(r->doomed[k])] = (uint32_t)k;
    for (i = lo; i <= hi; i++) {
        uint32_t at = r->marks[i];
        if (at < (uint32_t)n && ECS_SCHED_ENTITY_INDEX(r->doomed[at]) == i) r->order[out++] = at;
    }
    /* back to "not marked" (0 is never a stamp) */
    memset(r->marks + lo, 0, (size_t)(hi - lo + 1u) * sizeof *r->marks);
}

/* Whether entities of the table have relationships of their own. */
static bool ecs_sched__table_relates(const ecs_sched_world *w, const ecs_sched__table *t) {
    int32_t i;
    for (i = 0; i < t->type_count; i++) {
        if (w->components[t->type[i]].relation) return true;
    }
    return false;
}

static ecs_sched_result ecs_sched__despawn_related(ecs_sched_world *w, ecs_sched_entity e) {
    ecs_sched__links *r = w->relations;
    uint32_t index = ECS_SCHED_ENTITY_INDEX(e);
    bool marking;
    ecs_sched_result result;
    int32_t n, i;
    if (!ecs_sched__may_be_target(r, e) &&
        !ecs_sched__table_relates(w, w->tables[w->records[index].table])) {
        /* neither source nor target: a plain despawn (and its name) */
        if (w->observers) ecs_sched__observe_despawning(w, e);
        if (w->names) ecs_sched__name_drop(w, index);
        ecs_sched__despawn_live(w, index);
        return ECS_SCHED_OK;
    }
    marking = ecs_sched__despawn_needs_marks(w);
    n = ecs_sched__gather_doomed(w, e, marking, !marking && !w->observers);
    if (n < 0) return ecs_sched__out_of_memory(w, "despawning an entity and its sources");
    if (marking) {
        result = ecs_sched__check_refusals(w, n);
        if (result != ECS_SCHED_OK) return result;
        for (i = 0; i < n; i++) {
            result = ecs_sched__detach_sources(w, r->doomed[i]);
            if (result != ECS_SCHED_OK) return result;
        }
    }
    ecs_sched__order_doomed(w, n, !marking && !w->observers);
    for (i = 0; i < n; i++) {
        ecs_sched_entity d = r->doomed[r->order[i]];
        ecs_sched_id via = r->doomed_via[r->order[i]];
        if (!ecs_sched__is_live_record(w, d)) continue;   /* an observer's doing */
        if (w->observers) ecs_sched__observe_despawning(w, d);
        if (via && !(w->components[via].relation & ECS_SCHED__KIND_EXCLUSIVE)) via = 0;
        ecs_sched__drop_own_links(w, d, via);
        ecs_sched__drop_sources(w, d);
        if (w->names) ecs_sched__name_drop(w, ECS_SCHED_ENTITY_INDEX(d));
        ecs_sched__despawn_live(w, ECS_SCHED_ENTITY_INDEX(d));
    }
    return ECS_SCHED_OK;
}

/* The world's side (declared in world.h): the ON_REMOVE of each target of a kind, for an
   entity about to lose them all. */
static void ecs_sched__observe_relations_removing(ecs_sched_world *w, ecs_sched_entity e,
                                                  ecs_sched_id kind) {
    const unsigned char *slot = ecs_sched__rel_first_slot(w, e, kind);
    const ecs_sched__extra *x = ecs_sched__extra_of(w, kind, e);
    uint32_t i, n = x ? x->count : 0;
    if (!ecs_sched__watched(w, kind, ECS_SCHED_ON_REMOVE) || !slot) return;
    ecs_sched__observe_target(w, ECS_SCHED_ON_REMOVE, e, kind, ecs_sched__rel_slot_target(slot));
    for (i = 0; i < n; i++) {
        x = ecs_sched__extra_of(w, kind, e);
        if (!x || i >= x->count) break;
        ecs_sched__observe_target(w, ECS_SCHED_ON_REMOVE, e, kind,
                                  ecs_sched__rel_slot_target(x->slots + (size_t)i * w->components[kind].size));
    }
}

/* ---- queries ---- */

/* The world's side (declared in query.h): whether a row has every related term's target. */
static bool ecs_sched__row_related(const ecs_sched_query *q, const ecs_sched__match *m,
                                   int32_t row) {
    const ecs_sched__table *t = m->table;
    int32_t i;
    for (i = 0; i < q->term_count; i++) {
        const ecs_sched_term *term = &q->terms[i];
        const unsigned char *slot;
        if (term->kind != ECS_SCHED_TERM_RELATED) continue;
        slot = (const unsigned char *)ecs_sched__cell(t, m->column[i], (uint32_t)row);
        if (ecs_sched__rel_slot_target(slot) == term->target) continue;
        if (!ecs_sched__rel_slot_of(q->world, t->entities[row], term->id, term->target)) return false;
    }
    return true;
}

/* ---- consistency and cleanup ---- */

/* Every relationship in a column or a source's further targets is in its target's list, and
   the lists hold nothing else. */
static ecs_sched_result ecs_sched__check_relations(ecs_sched_world *w) {
    const ecs_sched__links *r = w->relations;
    uint64_t links = 0, listed = 0;
    uint32_t kind, i, j;
    int32_t row, c;
    if (!r) return ECS_SCHED_OK;
    for (i = 0; i < w->table_count; i++) {
        const ecs_sched__table *t = w->tables[i];
        for (c = 0; c < t->column_count; c++) {
            kind = t->columns[c].id;
            if (!w->components[kind].relation) continue;
            for (row = 0; row < t->count; row++) {
                ecs_sched_entity source = t->entities[row];
                ecs_sched_entity target = ecs_sched__rel_slot_target((const unsigned char *)ecs_sched__cell(t, c, (uint32_t)row));
                const ecs_sched__extra *x = ecs_sched__extra_of(w, kind, source);
                uint32_t n = 1 + (x ? x->count : 0), k;
                for (k = 0; k < n; k++) {
                    const ecs_sched__sources *s;
                    if (k > 0) target = ecs_sched__rel_slot_target(x->slots + (size_t)(k - 1) * w->components[kind].size);
                    s = ecs_sched__is_live_record(w, target) ? ecs_sched__sources_of(w, kind, target) : NULL;
                    for (j = 0; s && j < s->count && s->items[j] != source; j++) {}
                    if (!s || j == s->count) {
                        return ecs_sched__inconsistent(w, "a relationship is missing from its target's sources",
                                                       kind, ECS_SCHED_ENTITY_INDEX(source));
                    }
                    links++;
                }
            }
        }
    }
    for (kind = 1; kind < r->kind_capacity; kind++) {
        for (i = 0; i < r->kinds[kind].source_capacity; i++) listed += r->kinds[kind].sources[i].count;
    }
    if (links != listed || links != r->pairs) {
        return ecs_sched__inconsistent(w, "the lists of sources hold relationships no source has",
                                       (uint32_t)links, (uint32_t)listed);
    }
    return ECS_SCHED_OK;
}

/* The world's side (declared in world.h): the relationships go with the world. */
static void ecs_sched__relations_free(ecs_sched_world *w) {
    ecs_sched__links *r = w->relations;
    uint32_t kind, i;
    if (!r) return;
    for (kind = 0; kind < r->kind_capacity; kind++) {
        ecs_sched__kind *k = &r->kinds[kind];
        for (i = 0; i < k->source_capacity; i++) ecs_sched__free(&w->env, k->sources[i].items);
        for (i = 0; i < k->extra_capacity; i++) ecs_sched__free(&w->env, k->extra[i].slots);
        ecs_sched__free(&w->env, k->sources);
        ecs_sched__free(&w->env, k->extra);
    }
    ecs_sched__free(&w->env, r->kinds);
    ecs_sched__free(&w->env, r->kind_ids);
    ecs_sched__free(&w->env, r->marks);
    ecs_sched__free(&w->env, r->doomed);
    ecs_sched__free(&w->env, r->doomed_via);
    ecs_sched__free(&w->env, r->order);
    ecs_sched__free(&w->env, r->targets);
    ecs_sched__free(&w->env, r);
    w->relations = NULL;
}

/*============================= src/hierarchy.h (implementation) =============================*/
/* hierarchy: parents and children.

   A hierarchical query (with from_parent or cascade terms) keeps its rows in a list, with a
   pointer to the parent's value for each from_parent term. When it cascades, the list hands
   out every parent before its children: in table order when that already does (entities
   parented in the order they were made, as scenes usually are: the runs are then as long as
   the tables), else in depth order (roots, then their children, and so on; within a depth in
   table order). The list is
   made again at the first iteration after a row joined or left any table, or a relationship
   changed (the world's rows_version): that costs a pass over the query's rows and their
   ancestors, once. An iteration with nothing changed walks the list: runs of consecutive rows
   of one table, the parent pointers beside them. */

/* ---- parents and children ---- */

ecs_sched_result ecs_sched_set_parent_at(ecs_sched_world *w, ecs_sched_entity child,
                                         ecs_sched_entity parent, int32_t index) {
    uint32_t at = index < 0 ? 0u : (uint32_t)index;
    ecs_sched_entity old;
    ecs_sched__sources *s;
    ECS_SCHED__CHECK_WORLD(w);
    if (w->observers && ecs_sched__deferring(w)) {   /* recorded: the child goes last */
        return ecs_sched_commands_set_parent(ecs_sched__deferring(w), child, parent);
    }
    if (!ecs_sched__is_live_record(w, child)) return ecs_sched__stale(w, child, "set_parent");
    old = ecs_sched_parent_of(w, child);
    if (parent == ECS_SCHED_NULL_ENTITY) {
        return old ? ecs_sched_unrelate(w, child, w->child_of, old) : ECS_SCHED_OK;
    }
    if (old != parent) return ecs_sched__relate_at(w, child, w->child_of, parent, NULL, at, "set_parent");
    /* a child of that parent already: a move among its siblings */
    if (ecs_sched__change_refused(w, "set_parent")) return ECS_SCHED_ERR_ACCESS;
    s = ecs_sched__sources_of(w, w->child_of, parent);
    if (at >= s->count) at = s->count - 1u;
    ecs_sched__sources_drop(s, child);
    ecs_sched__sources_insert(s, child, at);
    w->rows_version++;
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_set_parent(ecs_sched_world *w, ecs_sched_entity child,
                                      ecs_sched_entity parent) {
    return ecs_sched_set_parent_at(w, child, parent, INT32_MAX);
}

ecs_sched_result ecs_sched_commands_set_parent(ecs_sched_commands *cmd, ecs_sched_entity child,
                                               ecs_sched_entity parent) {
    if (ecs_sched__no_buffer(cmd)) return ECS_SCHED_ERR_ACCESS;
    if (parent != ECS_SCHED_NULL_ENTITY) {
        return ecs_sched_commands_relate(cmd, child, cmd->world->child_of, parent, NULL);
    }
    /* no parent: the child's ChildOf goes, whatever it is by then */
    {
        ecs_sched_result result = ecs_sched__check_target(cmd, child, "commands_set_parent");
        if (result != ECS_SCHED_OK) return result;
        return ecs_sched_commands_remove(cmd, child, cmd->world->child_of);
    }
}

ecs_sched_entity ecs_sched_parent_of(const ecs_sched_world *w, ecs_sched_entity e) {
    const unsigned char *slot;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__is_live_record(w, e)) return ECS_SCHED_NULL_ENTITY;
    slot = ecs_sched__rel_first_slot(w, e, w->child_of);
    return slot ? ecs_sched__rel_slot_target(slot) : ECS_SCHED_NULL_ENTITY;
}

const ecs_sched_entity *ecs_sched_children(const ecs_sched_world *w, ecs_sched_entity parent,
                                           int32_t *count) {
    return ecs_sched_sources(w, w->child_of, parent, count);
}

int32_t ecs_sched_ancestors(const ecs_sched_world *w, ecs_sched_entity e, ecs_sched_entity *out,
                            int32_t capacity) {
    int32_t n = 0;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__is_live_record(w, e)) return -1;
    for (;;) {
        const unsigned char *slot = ecs_sched__rel_first_slot(w, e, w->child_of);
        if (!slot) return n;
        e = ecs_sched__rel_slot_target(slot);
        if (out && n < capacity) out[n] = e;
        n++;
    }
}

int32_t ecs_sched_depth(const ecs_sched_world *w, ecs_sched_entity e) {
    return ecs_sched_ancestors(w, e, NULL, 0);
}

/* Pushes the children of e on a stack, last child first (so the first is popped first). */
static bool ecs_sched__push_children(ecs_sched_world *w, ecs_sched_entity e,
                                     ecs_sched_entity **stack, uint32_t *count,
                                     uint32_t *capacity, bool reversed) {
    int32_t n, i;
    const ecs_sched_entity *children = ecs_sched_children(w, e, &n);
    if (!children) return true;
    if (!ECS_SCHED__GROW(&w->env, *stack, capacity, *count + (uint32_t)n)) return false;
    for (i = 0; i < n; i++) (*stack)[(*count)++] = children[reversed ? n - 1 - i : i];
    return true;
}

int32_t ecs_sched_descendants(ecs_sched_world *w, ecs_sched_entity e, ecs_sched_traversal order,
                              ecs_sched_entity *out, int32_t capacity) {
    ecs_sched_entity *pending = NULL;
    uint32_t count = 0, cap = 0, head = 0;
    int32_t n = 0;
    bool ok;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__is_live_record(w, e)) {
        ecs_sched__stale(w, e, "descendants");
        return -1;
    }
    /* depth first: a stack; breadth first: a queue read from `head` */
    ok = ecs_sched__push_children(w, e, &pending, &count, &cap, order == ECS_SCHED_DEPTH_FIRST);
    while (ok && head < count) {
        ecs_sched_entity next = order == ECS_SCHED_DEPTH_FIRST ? pending[--count] : pending[head++];
        if (out && n < capacity) out[n] = next;
        n++;
        ok = ecs_sched__push_children(w, next, &pending, &count, &cap, order == ECS_SCHED_DEPTH_FIRST);
    }
    ecs_sched__free(&w->env, pending);
    if (!ok) {
        ecs_sched__out_of_memory(w, "listing descendants");
        return -1;
    }
    return n;
}

/* ---- hierarchical queries ---- */

typedef struct ecs_sched__hier_row {
    uint32_t match;
    int32_t row;
} ecs_sched__hier_row;

typedef struct ecs_sched__hier_cache {
    uint32_t version;              /* the world's rows_version it was made at */
    bool made;
    ecs_sched__hier_row *rows;     /* in iteration order */
    uint32_t *run_end;             /* per row: where its run of consecutive rows ends */
    uint32_t count;
    uint32_t capacity;
    uint32_t run_capacity;
    const void **parents;          /* per from_parent term, `capacity` pointers */
    uint32_t parents_capacity;
    int16_t parent_slot[ECS_SCHED_MAX_TERMS];   /* the term's block of parents, or -1 */
    int32_t parent_terms;
    int32_t cascade;               /* the cascading term, or -1 */
    uint32_t *depths;              /* scratch: per row, then per depth */
    uint32_t depth_capacity;
    uint32_t *memo;                /* by entity index: depth + 1 when memo_stamp matches */
    uint32_t *memo_stamp;
    uint32_t memo_capacity;
    uint32_t stamp;
    ecs_sched__hier_row *sorted;   /* scratch for the sort */
    uint32_t sorted_capacity;
    /* sort.h: */
    int32_t order_term;            /* the term whose component orders the rows, or -1 */
    int (*order)(ecs_sched_entity, const void *, ecs_sched_entity, const void *);
    ecs_sched_id group_kind;       /* rows grouped by their target of this kind, or 0 */
    struct ecs_sched__sort_seen *seen;   /* per match: the order column's changes seen */
    uint32_t seen_capacity;
} ecs_sched__hier_cache;

/* sort.h: whether the order's values changed since the list was made, and the sort. */
static bool ecs_sched__sort_stale(ecs_sched_query *q, ecs_sched__hier_cache *c);
static bool ecs_sched__sort_rows(ecs_sched_query *q, ecs_sched__hier_cache *c);

static void ecs_sched__hier_free(ecs_sched_query *q) {
    ecs_sched__hier_cache *c = q->hier;
    ecs_sched__env *env = &q->world->env;
    if (!c) return;
    ecs_sched__free(env, c->rows);
    ecs_sched__free(env, c->run_end);
    ecs_sched__free(env, c->parents);
    ecs_sched__free(env, c->depths);
    ecs_sched__free(env, c->memo);
    ecs_sched__free(env, c->memo_stamp);
    ecs_sched__free(env, c->sorted);
    ecs_sched__free(env, c->seen);
    ecs_sched__free(env, c);
    q->hier = NULL;
}

/* The list of a query, made empty at first. */
static ecs_sched__hier_cache *ecs_sched__hier_create(ecs_sched_query *q) {
    ecs_sched__hier_cache *c = (ecs_sched__hier_cache *)ecs_sched__calloc(&q->world->env, sizeof *c);
    int32_t i;
    if (!c) return NULL;
    c->cascade = -1;
    c->order_term = -1;
    for (i = 0; i < q->term_count; i++) {
        ecs_sched_term_kind kind = q->terms[i].kind;
        c->parent_slot[i] = -1;
        if (kind == ECS_SCHED_TERM_FROM_PARENT || kind == ECS_SCHED_TERM_OPTIONAL_FROM_PARENT) {
            c->parent_slot[i] = (int16_t)c->parent_terms++;
        }
        if (kind == ECS_SCHED_TERM_CASCADE) c->cascade = i;
    }
    q->hier = c;
    return c;
}

/* The target of e along `kind` (exclusive), or 0. */
static inline ecs_sched_entity ecs_sched__up(const ecs_sched_world *w, ecs_sched_entity e,
                                             ecs_sched_id kind) {
    const ecs_sched__record *r = &w->records[ECS_SCHED_ENTITY_INDEX(e)];
    const ecs_sched__table *t = w->tables[r->table];
    int32_t column = ecs_sched__column_find(t, kind);
    return column < 0 ? ECS_SCHED_NULL_ENTITY
                      : ecs_sched__rel_slot_target((const unsigned char *)ecs_sched__cell(t, column, r->row));
}

/* e's depth along `kind`, remembered for the entities on the way up. */
static uint32_t ecs_sched__memo_depth(const ecs_sched_world *w, ecs_sched__hier_cache *c,
                                      ecs_sched_entity e, ecs_sched_id kind) {
    ecs_sched_entity at = e;
    uint32_t steps = 0, depth, d;
    /* up to a root or an entity whose depth is known */
    while (at) {
        uint32_t index = ECS_SCHED_ENTITY_INDEX(at);
        if (c->memo_stamp[index] == c->stamp) break;
        at = ecs_sched__up(w, at, kind);
        steps++;
    }
    depth = at ? c->memo[ECS_SCHED_ENTITY_INDEX(at)] - 1u + steps : steps - 1u;
    /* down again, writing each depth */
    for (at = e, d = depth; steps > 0; steps--, d--) {
        uint32_t index = ECS_SCHED_ENTITY_INDEX(at);
        c->memo[index] = d + 1u;
        c->memo_stamp[index] = c->stamp;
        at = ecs_sched__up(w, at, kind);
    }
    return depth;
}

/* Room for the rows of every match, and the memo of depths by entity index. */
static bool ecs_sched__hier_reserve(ecs_sched_query *q, ecs_sched__hier_cache *c) {
    ecs_sched_world *w = q->world;
    uint32_t rows = 0, i, had = c->memo_capacity;
    for (i = 0; i < q->match_count; i++) rows += (uint32_t)q->matches[i].table->count;
    if (!ECS_SCHED__GROW(&w->env, c->rows, &c->capacity, rows) ||
        !ECS_SCHED__GROW(&w->env, c->run_end, &c->run_capacity, rows + 1u) ||
        !ECS_SCHED__GROW(&w->env, c->sorted, &c->sorted_capacity, rows) ||
        !ECS_SCHED__GROW(&w->env, c->depths, &c->depth_capacity, rows + 1u) ||
        !ECS_SCHED__GROW(&w->env, c->parents, &c->parents_capacity,
                         rows * (uint32_t)c->parent_terms + 1u)) {
        return false;
    }
    if (w->record_count > had) {
        uint32_t cap = c->memo_capacity;
        if (!ECS_SCHED__GROW(&w->env, c->memo, &cap, w->record_count)) return false;
        if (!ECS_SCHED__GROW(&w->env, c->memo_stamp, &c->memo_capacity, w->record_count)) return false;
        memset(c->memo_stamp + had, 0, (c->memo_capacity - had) * sizeof *c->memo_stamp);
    }
    return true;
}

/* Whether table order already hands out every parent (that the query matches) before its
   children: then it is kept, runs as long as the tables. */
static bool ecs_sched__hier_table_order_fits(ecs_sched_query *q, ecs_sched__hier_cache *c) {
    const ecs_sched_world *w = q->world;
    ecs_sched_id kind = q->terms[c->cascade].id;
    uint32_t i;
    for (i = 0; i < c->count; i++) {   /* 1: matched, not handed out yet */
        const ecs_sched__table *t = q->matches[c->rows[i].match].table;
        uint32_t index = ECS_SCHED_ENTITY_INDEX(t->entities[c->rows[i].row]);
        c->memo[index] = 1;
        c->memo_stamp[index] = c->stamp;
    }
    for (i = 0; i < c->count; i++) {   /* 2: handed out */
        const ecs_sched__table *t = q->matches[c->rows[i].match].table;
        ecs_sched_entity e = t->entities[c->rows[i].row];
        ecs_sched_entity parent = ecs_sched__up(w, e, kind);
        if (parent) {
            uint32_t p = ECS_SCHED_ENTITY_INDEX(parent);
            if (c->memo_stamp[p] == c->stamp && c->memo[p] == 1) return false;
        }
        c->memo[ECS_SCHED_ENTITY_INDEX(e)] = 2;
    }
    return true;
}

/* Sorts the rows by depth, keeping table order within a depth (a counting sort). */
static void ecs_sched__hier_sort(ecs_sched_query *q, ecs_sched__hier_cache *c) {
    ecs_sched_id kind = q->terms[c->cascade].id;
    uint32_t i, max = 0, *count;
    for (i = 0; i < c->count; i++) {
        const ecs_sched__table *t = q->matches[c->rows[i].match].table;
        c->sorted[i] = c->rows[i];
        c->depths[i] = ecs_sched__memo_depth(q->world, c, t->entities[c->rows[i].row], kind);
        if (c->depths[i] > max) max = c->depths[i];
    }
    count = (uint32_t *)ecs_sched__calloc(&q->world->env, ((size_t)max + 2u) * sizeof *count);
    if (!count) {   /* out of memory: table order; every row is still handed out */
        return;
    }
    for (i = 0; i < c->count; i++) count[c->depths[i] + 1u]++;
    for (i = 1; i <= max + 1u; i++) count[i] += count[i - 1u];
    for (i = 0; i < c->count; i++) c->rows[count[c->depths[i]]++] = c->sorted[i];
    ecs_sched__free(&q->world->env, count);
}

/* The parent's value of each from_parent term for each row; rows whose required parent value
   is missing are dropped. */
static void ecs_sched__hier_parents(ecs_sched_query *q, ecs_sched__hier_cache *c) {
    const ecs_sched_world *w = q->world;
    uint32_t i, kept = 0;
    int32_t term;
    for (i = 0; i < c->count; i++) {
        const ecs_sched__table *t = q->matches[c->rows[i].match].table;
        ecs_sched_entity parent = ecs_sched__up(w, t->entities[c->rows[i].row], w->child_of);
        const ecs_sched__table *pt = NULL;
        uint32_t prow = 0;
        bool keep = true;
        if (parent) {
            const ecs_sched__record *r = &w->records[ECS_SCHED_ENTITY_INDEX(parent)];
            pt = w->tables[r->table];
            prow = r->row;
        }
        for (term = 0; term < q->term_count; term++) {
            int32_t column;
            const void *value = NULL;
            if (c->parent_slot[term] < 0) continue;
            column = pt ? ecs_sched__column_find(pt, q->terms[term].id) : -1;
            if (column >= 0) value = ecs_sched__cell(pt, column, prow);
            if (!value && q->terms[term].kind == ECS_SCHED_TERM_FROM_PARENT) keep = false;
            c->parents[(size_t)c->parent_slot[term] * c->capacity + kept] = value;
        }
        if (keep) c->rows[kept++] = c->rows[i];
    }
    c->count = kept;
}

/* Where each row's run of rows consecutive in one table ends, so that an iteration hands
   out a run without looking at its rows. */
static void ecs_sched__hier_runs(ecs_sched__hier_cache *c) {
    uint32_t i = c->count;
    while (i-- > 0) {
        bool joins = i + 1u < c->count && c->rows[i + 1u].match == c->rows[i].match &&
                     c->rows[i + 1u].row == c->rows[i].row + 1;
        c->run_end[i] = joins ? c->run_end[i + 1u] : i + 1u;
    }
}

/* Makes the list again when the world's rows or relationships changed since. */
static bool ecs_sched__hier_update(ecs_sched_query *q) {
    ecs_sched__hier_cache *c = q->hier ? q->hier : ecs_sched__hier_create(q);
    ecs_sched_world *w = q->world;
    uint32_t m;
    if (!c) return false;
    if (c->made && c->version == w->rows_version &&
        !(c->order_term >= 0 && ecs_sched__sort_stale(q, c))) {
        return true;
    }
    if (!ecs_sched__hier_reserve(q, c)) return false;
    c->count = 0;
    for (m = 0; m < q->match_count; m++) {
        const ecs_sched__match *match = &q->matches[m];
        int32_t row;
        for (row = 0; row < match->table->count; row++) {
            if (q->related && !ecs_sched__row_related(q, match, row)) continue;
            c->rows[c->count].match = m;
            c->rows[c->count].row = row;
            c->count++;
        }
    }
    if (++c->stamp == 0) {
        memset(c->memo_stamp, 0, c->memo_capacity * sizeof *c->memo_stamp);
        c->stamp = 1;
    }
    if (c->cascade >= 0 && !ecs_sched__hier_table_order_fits(q, c)) {
        if (++c->stamp == 0) {
            memset(c->memo_stamp, 0, c->memo_capacity * sizeof *c->memo_stamp);
            c->stamp = 1;
        }
        ecs_sched__hier_sort(q, c);
    }
    if ((c->order_term >= 0 || c->group_kind) && !ecs_sched__sort_rows(q, c)) return false;
    if (c->parent_terms) ecs_sched__hier_parents(q, c);
    ecs_sched__hier_runs(c);
    c->version = w->rows_version;
    c->made = true;
    return true;
}

/* The world's side (declared in query.h): how many rows the query hands out (-1 when out of
   memory). */
static int32_t ecs_sched__hier_count(ecs_sched_query *q) {
    if (!ecs_sched__hier_update(q)) {
        ecs_sched__out_of_memory(q->world, "ordering a hierarchical query");
        return -1;
    }
    return (int32_t)q->hier->count;
}

static void ecs_sched__hier_fields(ecs_sched_iter *it, const ecs_sched__hier_cache *c,
                                   const ecs_sched__match *m, int32_t first_row, uint32_t at) {
    const ecs_sched_query *q = it->query_;
    const ecs_sched__table *t = m->table;
    int32_t i;
    for (i = 0; i < q->term_count; i++) {
        if (c->parent_slot[i] >= 0) {
            it->fields[i] = (void *)(uintptr_t)&c->parents[(size_t)c->parent_slot[i] * c->capacity + at];
        } else {
            const ecs_sched__column *col = m->column[i] >= 0 ? &t->columns[m->column[i]] : NULL;
            it->fields[i] = col ? col->data + (size_t)first_row * col->size : NULL;
        }
    }
}

/* The world's side (declared in query.h): the next run of rows of a hierarchical query, rows
   consecutive in one table (by_rows: up to ECS_SCHED_ITER_ROWS rows of one table, by
   index). it->at_ is the position in the list; it->next_ the match of the run + 1, as in
   the other iterations (ecs_sched_iter_mark_changed reads it). */
static bool ecs_sched__iter_next_hier(ecs_sched_iter *it, bool by_rows) {
    ecs_sched_query *q = (ecs_sched_query *)(uintptr_t)it->query_;
    const ecs_sched__hier_cache *c;
    const ecs_sched__match *m;
    uint32_t at, end;
    if (it->row_ < 0) {   /* the first call */
        if (q->marks) ecs_sched__iter_window(q, &it->last_run_, &it->this_run_);
        else it->last_run_ = it->this_run_ = 0;
        it->row_ = 0;
        it->at_ = 0;
        it->by_rows_ = by_rows;
        if (!ecs_sched__hier_update(q)) {
            ecs_sched__out_of_memory(q->world, "ordering a hierarchical query");
            it->at_ = INT32_MAX;
        }
    }
    c = q->hier;
    at = (uint32_t)it->at_;
    if (!c || at >= c->count) {
        it->count = 0;
        return false;
    }
    m = &q->matches[c->rows[at].match];
    end = at + 1;
    if (by_rows) {
        while (end < c->count && end - at < ECS_SCHED_ITER_ROWS &&
               c->rows[end].match == c->rows[at].match) {
            end++;
        }
        for (it->count = 0; at + (uint32_t)it->count < end; it->count++) {
            it->rows[it->count] = c->rows[at + (uint32_t)it->count].row;
        }
        it->entities = m->table->entities;
        ecs_sched__hier_fields(it, c, m, 0, at);
        if (q->marks) {
            int32_t i;
            for (i = 0; i < it->count; i++) {
                ecs_sched__mark_written(q, m, it->rows[i], it->rows[i] + 1, it->this_run_);
            }
        }
    } else {
        end = c->run_end[at];
        it->count = (int32_t)(end - at);
        it->entities = m->table->entities + c->rows[at].row;
        it->row_ = c->rows[at].row + it->count;
        ecs_sched__hier_fields(it, c, m, c->rows[at].row, at);
        ecs_sched__mark_written(q, m, c->rows[at].row, it->row_, it->this_run_);
    }
    it->next_ = (int32_t)c->rows[at].match + 1;
    it->at_ = (int32_t)end;
    return true;
}

/*=============================== src/name.h (implementation) ================================*/
/* name: entity names. A name is kept by entity index, with the scope it was filed under (the
   parent, or none); one hash map from (scope, name) to the entity finds it, so a lookup costs
   a hash of the name and a probe, whatever the number of siblings. Reparenting files the
   name under the new scope; a despawn takes it out. */

typedef struct ecs_sched__entity_name {
    char *text;                     /* NULL: no name */
    ecs_sched_entity scope;         /* the parent it is filed under, or 0 for a root */
    uint64_t key;
} ecs_sched__entity_name;

struct ecs_sched__names {
    ecs_sched__entity_name *by_index;
    uint32_t capacity;
    ecs_sched__map map;             /* key -> entity index; keys may collide */
};

static uint64_t ecs_sched__name_key(ecs_sched_entity scope, const char *name, size_t length) {
    uint64_t h = 14695981039346656037ull ^ scope;
    size_t i;
    for (i = 0; i < length; i++) {
        h ^= (unsigned char)name[i];
        h *= 1099511628211ull;
    }
    return h ^ (h >> 29);
}

static const ecs_sched__entity_name *ecs_sched__name_record(const ecs_sched_world *w, uint32_t index) {
    const ecs_sched__names *n = w->names;
    return n && index < n->capacity && n->by_index[index].text ? &n->by_index[index] : NULL;
}

/* The world's side (declared in world.h): the name, for messages. */
static const char *ecs_sched__entity_name_of(const ecs_sched_world *w, ecs_sched_entity e) {
    const ecs_sched__entity_name *r = ecs_sched__name_record(w, ECS_SCHED_ENTITY_INDEX(e));
    return r && ecs_sched__is_live_record(w, e) ? r->text : NULL;
}

/* The entity filed under scope with the name (length bytes), or 0. */
static ecs_sched_entity ecs_sched__find_name(const ecs_sched_world *w, ecs_sched_entity scope,
                                             const char *name, size_t length) {
    const ecs_sched__names *n = w->names;
    uint64_t key;
    uint32_t slot = ECS_SCHED__NONE, index;
    if (!n) return ECS_SCHED_NULL_ENTITY;
    key = ecs_sched__name_key(scope, name, length);
    while ((index = ecs_sched__map_next(&n->map, key, &slot)) != ECS_SCHED__NONE) {
        const ecs_sched__entity_name *r = &n->by_index[index];
        if (r->scope == scope && strncmp(r->text, name, length) == 0 && r->text[length] == '\0') {
            return ecs_sched__make_entity(index, w->records[index].generation);
        }
    }
    return ECS_SCHED_NULL_ENTITY;
}

/* Takes the entry of entity index out of the map (backward shift: no tombstones). */
static void ecs_sched__name_unfile(ecs_sched__names *n, uint32_t index) {
    ecs_sched__map *m = &n->map;
    uint32_t mask = m->capacity - 1, slot = ECS_SCHED__NONE, hole, j;
    while (ecs_sched__map_next(m, n->by_index[index].key, &slot) != index) {}
    hole = slot;
    m->values[hole] = ECS_SCHED__NONE;
    m->count--;
    for (j = (hole + 1) & mask; m->values[j] != ECS_SCHED__NONE; j = (j + 1) & mask) {
        uint32_t home = ecs_sched__hash_slot(m->keys[j], m->capacity);
        /* an entry moves into the hole unless its home lies cyclically in (hole, j] */
        bool stays = hole < j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (stays) continue;
        m->keys[hole] = m->keys[j];
        m->values[hole] = m->values[j];
        m->values[j] = ECS_SCHED__NONE;
        hole = j;
    }
}

/* Files entity index under scope (the map has room). */
static void ecs_sched__name_file(ecs_sched__names *n, uint32_t index, ecs_sched_entity scope) {
    ecs_sched__entity_name *r = &n->by_index[index];
    r->scope = scope;
    r->key = ecs_sched__name_key(scope, r->text, strlen(r->text));
    ecs_sched__map_insert_unchecked(&n->map, r->key, index);
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

static bool ecs_sched__names_reserve(ecs_sched_world *w, uint32_t index) {
    ecs_sched__names *n = w->names;
    uint32_t had;
    if (!n) {
        n = (ecs_sched__names *)ecs_sched__calloc(&w->env, sizeof *n);
        if (!n) return false;
        w->names = n;
    }
    had = n->capacity;
    if (index >= had) {
        if (!ECS_SCHED__GROW(&w->env, n->by_index, &n->capacity, index + 1)) return false;
        memset(n->by_index + had, 0, (n->capacity - had) * sizeof *n->by_index);
    }
    return ecs_sched__map_reserve(&w->env, &n->map, 1);
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
            r = &w->names->by_index[index];
            ecs_sched__name_unfile(w->names, index);
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
    scope = ecs_sched_parent_of(w, e);
    other = ecs_sched__find_name(w, scope, name, strlen(name));
    if (other == e) return ECS_SCHED_OK;
    if (other) return ecs_sched__name_clash(w, "set_name", e, name, scope, other);
    copy = ecs_sched__strdup(&w->env, name);
    if (!copy || !ecs_sched__names_reserve(w, index)) {
        ecs_sched__free(&w->env, copy);
        return ecs_sched__out_of_memory(w, "naming an entity");
    }
    r = &w->names->by_index[index];
    if (r->text) {
        ecs_sched__name_unfile(w->names, index);
        ecs_sched__free(&w->env, r->text);
    }
    r->text = copy;
    ecs_sched__name_file(w->names, index, scope);
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

ecs_sched_entity ecs_sched_lookup_path(ecs_sched_world *w, ecs_sched_entity scope, const char *path,
                                       const char *separator) {
    const char *at = path;
    size_t sep_length;
    ECS_SCHED__CHECK_WORLD(w);
    if (!separator || !separator[0]) separator = ".";
    sep_length = strlen(separator);
    if (!path || !path[0]) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT, "lookup_path: the path is empty");
        return ECS_SCHED_NULL_ENTITY;
    }
    for (;;) {
        const char *end = strstr(at, separator);
        size_t length = end ? (size_t)(end - at) : strlen(at);
        ecs_sched_entity next = ecs_sched__find_name(w, scope, at, length);
        if (!next) {
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_NOT_FOUND,
                            "lookup_path('%s'): no entity named '%.*s' %s%s", path, (int)length,
                            at, scope ? "among the children of " : "among the roots",
                            scope ? ecs_sched__entity_label(w, scope).text : "");
            return ECS_SCHED_NULL_ENTITY;
        }
        if (!end) return next;
        scope = next;
        at = end + sep_length;
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
        if (name) ecs_sched__print_bytes(&t, name, strlen(name));
        else ecs_sched__printf_to(&t, "#%u", (unsigned)ECS_SCHED_ENTITY_INDEX(at));
    }
    ecs_sched__print_end(&t);
    return t.length;
}

/* ---- the world's side (declared in world.h) ---- */

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
    ecs_sched__name_unfile(w->names, index);
    ecs_sched__name_file(w->names, index, ecs_sched_parent_of(w, e));
}

/* A despawned entity's name goes. */
static void ecs_sched__name_drop(ecs_sched_world *w, uint32_t index) {
    ecs_sched__entity_name *r;
    if (!ecs_sched__name_record(w, index)) return;
    r = &w->names->by_index[index];
    ecs_sched__name_unfile(w->names, index);
    ecs_sched__free(&w->env, r->text);
    r->text = NULL;
}

static void ecs_sched__names_free(ecs_sched_world *w) {
    ecs_sched__names *n = w->names;
    uint32_t i;
    if (!n) return;
    for (i = 0; i < n->capacity; i++) ecs_sched__free(&w->env, n->by_index[i].text);
    ecs_sched__free(&w->env, n->by_index);
    ecs_sched__map_free(&w->env, &n->map);
    ecs_sched__free(&w->env, n);
    w->names = NULL;
}

/* Every name is filed under its entity's parent, and the map holds nothing else. */
static ecs_sched_result ecs_sched__check_names(ecs_sched_world *w) {
    const ecs_sched__names *n = w->names;
    uint32_t i, named = 0;
    if (!n) return ECS_SCHED_OK;
    for (i = 0; i < n->capacity; i++) {
        const ecs_sched__entity_name *r = &n->by_index[i];
        ecs_sched_entity e;
        if (!r->text) continue;
        named++;
        e = ecs_sched__make_entity(i, w->records[i].generation);
        if (!ecs_sched__is_live_record(w, e) || r->scope != ecs_sched_parent_of(w, e) ||
            ecs_sched__find_name(w, r->scope, r->text, strlen(r->text)) != e) {
            return ecs_sched__inconsistent(w, "a name is not filed under its entity's parent", i,
                                           named);
        }
    }
    if (named != n->map.count) return ecs_sched__inconsistent(w, "the name map size", named, n->map.count);
    return ECS_SCHED_OK;
}

/*============================== src/reflect.h (implementation) ==============================*/
/* reflect: descriptions of types, kept by component id, and the walks over values they
   allow. */

typedef struct ecs_sched__field_desc {
    char *name;
    ecs_sched_field_kind kind;
    uint32_t offset;
    uint32_t element;               /* bytes of one element */
    int32_t count;                  /* elements */
    ecs_sched_id type;              /* STRUCT */
    ecs_sched_enum_value *values;   /* ENUM, names copied */
    int32_t value_count;
} ecs_sched__field_desc;

typedef struct ecs_sched__description {
    ecs_sched__field_desc *fields;  /* in the order given */
    int32_t count;
} ecs_sched__description;

struct ecs_sched__descriptions {
    ecs_sched__description *by_id;
    uint32_t capacity;
};

static const char *const ecs_sched__field_kind_names[] = {
    "none", "bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64",
    "entity", "chars", "enum", "struct"};

/* The bytes of one element of a scalar kind (0: not a scalar). */
static size_t ecs_sched__scalar_size(ecs_sched_field_kind kind) {
    switch (kind) {
    case ECS_SCHED_FIELD_BOOL: return sizeof(bool);
    case ECS_SCHED_FIELD_I8: case ECS_SCHED_FIELD_U8: return 1;
    case ECS_SCHED_FIELD_I16: case ECS_SCHED_FIELD_U16: return 2;
    case ECS_SCHED_FIELD_I32: case ECS_SCHED_FIELD_U32: case ECS_SCHED_FIELD_F32: return 4;
    case ECS_SCHED_FIELD_I64: case ECS_SCHED_FIELD_U64: case ECS_SCHED_FIELD_F64:
    case ECS_SCHED_FIELD_ENTITY: return 8;
    case ECS_SCHED_FIELD_NONE: case ECS_SCHED_FIELD_CHARS: case ECS_SCHED_FIELD_ENUM:
    case ECS_SCHED_FIELD_STRUCT: return 0;
    }
    return 0;
}

static const ecs_sched__description *ecs_sched__description_of(const ecs_sched_world *w,
                                                               ecs_sched_id id) {
    const ecs_sched__descriptions *d = w->descriptions;
    return d && id < d->capacity && d->by_id[id].fields ? &d->by_id[id] : NULL;
}

bool ecs_sched_is_described(const ecs_sched_world *w, ecs_sched_id id) {
    ECS_SCHED__CHECK_WORLD(w);
    return ecs_sched__description_of(w, id) != NULL;
}

static void ecs_sched__description_clear(ecs_sched_world *w, ecs_sched__description *d) {
    int32_t i, v;
    for (i = 0; i < d->count; i++) {
        ecs_sched__free(&w->env, d->fields[i].name);
        for (v = 0; v < d->fields[i].value_count; v++) {
            ecs_sched__free(&w->env, (void *)(uintptr_t)d->fields[i].values[v].name);
        }
        ecs_sched__free(&w->env, d->fields[i].values);
    }
    ecs_sched__free(&w->env, d->fields);
    d->fields = NULL;
    d->count = 0;
}

/* The world's side (declared in world.h): descriptions go with the world. */
static void ecs_sched__descriptions_free(ecs_sched_world *w) {
    ecs_sched__descriptions *d = w->descriptions;
    uint32_t i;
    if (!d) return;
    for (i = 0; i < d->capacity; i++) ecs_sched__description_clear(w, &d->by_id[i]);
    ecs_sched__free(&w->env, d->by_id);
    ecs_sched__free(&w->env, d);
    w->descriptions = NULL;
}

/* ---- describing ---- */

#define ECS_SCHED__MAX_FIELDS 256    /* fields in one description */

static bool ecs_sched__descriptions_reserve(ecs_sched_world *w, ecs_sched_id id) {
    ecs_sched__descriptions *d = w->descriptions;
    uint32_t had;
    if (!d) {
        d = (ecs_sched__descriptions *)ecs_sched__calloc(&w->env, sizeof *d);
        if (!d) return false;
        w->descriptions = d;
    }
    had = d->capacity;
    if (id < had) return true;
    if (!ECS_SCHED__GROW(&w->env, d->by_id, &d->capacity, id + 1u)) return false;
    memset(d->by_id + had, 0, (d->capacity - had) * sizeof *d->by_id);
    return true;
}

/* One field's element size, count and alignment, checked. */
static ecs_sched_result ecs_sched__check_field(ecs_sched_world *w, ecs_sched_id id,
                                               const ecs_sched_field *f, uint32_t *element,
                                               int32_t *count, size_t *align) {
    const char *type_name = w->components[id].name;
    size_t scalar = ecs_sched__scalar_size(f->kind);
    if (!f->name || !f->name[0]) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "describe('%s'): a field has no name", type_name);
    }
    if (f->kind <= ECS_SCHED_FIELD_NONE || f->kind > ECS_SCHED_FIELD_STRUCT) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "describe('%s'): field '%s' has no kind (ECS_SCHED_FIELD_...)",
                               type_name, f->name);
    }
    if (f->size == 0 || f->offset + f->size > w->components[id].size) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "describe('%s'): field '%s' (offset %zu, %zu bytes) does not lie "
                               "inside the type's %u bytes", type_name, f->name, f->offset,
                               f->size, (unsigned)w->components[id].size);
    }
    if (scalar) {
        *element = (uint32_t)scalar;
        *align = scalar;
    } else if (f->kind == ECS_SCHED_FIELD_CHARS) {
        *element = (uint32_t)f->size;
        *align = 1;
    } else if (f->kind == ECS_SCHED_FIELD_ENUM) {
        if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "describe('%s'): enum field '%s' is %zu bytes; an enum is "
                                   "1, 2, 4 or 8 bytes (arrays of enums are not described)",
                                   type_name, f->name, f->size);
        }
        if (f->value_count < 0 || (f->value_count > 0 && !f->values)) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "describe('%s'): enum field '%s' has %d values and no list",
                                   type_name, f->name, (int)f->value_count);
        }
        *element = (uint32_t)f->size;
        *align = f->size;
    } else {   /* STRUCT */
        if (f->type == id || !ecs_sched__description_of(w, f->type)) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "describe('%s'): struct field '%s' names %s; describe that "
                                   "type first (a type cannot hold itself)", type_name, f->name,
                                   ecs_sched__component_valid(w, f->type) ? "a type with no description"
                                                                         : "no registered type");
        }
        *element = w->components[f->type].size;
        *align = w->components[f->type].alignment;
    }
    if (f->size % *element != 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "describe('%s'): field '%s' is %zu bytes, not a whole number of "
                               "%s elements of %u bytes", type_name, f->name, f->size,
                               ecs_sched__field_kind_names[f->kind], (unsigned)*element);
    }
    *count = (int32_t)(f->size / *element);
    return ECS_SCHED_OK;
}

/* The fields, in the order of their offsets, must follow each other with nothing between
   them but alignment padding, from offset 0 to the type's end. */
static ecs_sched_result ecs_sched__check_cover(ecs_sched_world *w, ecs_sched_id id,
                                               const ecs_sched_field *fields, int32_t count,
                                               const size_t *align, int32_t *order) {
    const ecs_sched__component *c = &w->components[id];
    size_t end = 0;
    int32_t i, j;
    for (i = 0; i < count; i++) order[i] = i;
    for (i = 1; i < count; i++) {   /* insertion sort by offset */
        int32_t k = order[i];
        for (j = i; j > 0 && fields[order[j - 1]].offset > fields[k].offset; j--) order[j] = order[j - 1];
        order[j] = k;
    }
    for (i = 0; i < count; i++) {
        const ecs_sched_field *f = &fields[order[i]];
        if (f->offset < end) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "describe('%s'): field '%s' (offset %zu) overlaps field '%s' "
                                   "(which ends at %zu)", c->name, f->name, f->offset,
                                   fields[order[i - 1]].name, end);
        }
        if (f->offset - end >= align[order[i]]) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "describe('%s'): bytes %zu to %zu, before field '%s', are no "
                                   "field's; the description must cover the type", c->name, end,
                                   f->offset - 1, f->name);
        }
        end = f->offset + f->size;
    }
    if (c->size - end >= c->alignment) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "describe('%s'): bytes %zu to %u, at the end, are no field's; the "
                               "description must cover the type", c->name, end,
                               (unsigned)c->size - 1u);
    }
    return ECS_SCHED_OK;
}

/* Copies the enum values, names included; false when out of memory. */
static bool ecs_sched__copy_values(ecs_sched_world *w, const ecs_sched_field *f,
                                   ecs_sched__field_desc *out) {
    int32_t v;
    if (f->kind != ECS_SCHED_FIELD_ENUM || f->value_count == 0) return true;
    out->values = (ecs_sched_enum_value *)ecs_sched__calloc(&w->env, (size_t)f->value_count *
                                                                          sizeof *out->values);
    if (!out->values) return false;
    out->value_count = f->value_count;
    for (v = 0; v < f->value_count; v++) {
        out->values[v].value = f->values[v].value;
        out->values[v].name = ecs_sched__strdup(&w->env, f->values[v].name ? f->values[v].name : "");
        if (!out->values[v].name) return false;
    }
    return true;
}

ecs_sched_result ecs_sched_describe(ecs_sched_world *w, ecs_sched_id id,
                                    const ecs_sched_field *fields, int32_t count) {
    ecs_sched__description fresh;
    ecs_sched_result result = ECS_SCHED_OK;
    size_t align[ECS_SCHED__MAX_FIELDS];
    int32_t order[ECS_SCHED__MAX_FIELDS], i, j;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__component_valid(w, id)) return ecs_sched__unknown_component(w, id, "describe");
    if (w->components[id].size == 0 || count < 1 || count > ECS_SCHED__MAX_FIELDS || !fields) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "describe('%s'): %s", w->components[id].name,
                               w->components[id].size == 0 ? "a tag has no fields"
                                                           : "give 1 to 256 fields");
    }
    memset(&fresh, 0, sizeof fresh);
    fresh.fields = (ecs_sched__field_desc *)ecs_sched__calloc(&w->env, (size_t)count * sizeof *fresh.fields);
    if (!fresh.fields) return ecs_sched__out_of_memory(w, "describing a type");
    fresh.count = count;
    for (i = 0; i < count && result == ECS_SCHED_OK; i++) {
        ecs_sched__field_desc *out = &fresh.fields[i];
        result = ecs_sched__check_field(w, id, &fields[i], &out->element, &out->count, &align[i]);
        for (j = 0; j < i && result == ECS_SCHED_OK; j++) {
            if (strcmp(fields[j].name, fields[i].name) == 0) {
                result = ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                         "describe('%s'): two fields are named '%s'",
                                         w->components[id].name, fields[i].name);
            }
        }
        if (result != ECS_SCHED_OK) break;
        out->kind = fields[i].kind;
        out->offset = (uint32_t)fields[i].offset;
        out->type = fields[i].type;
        out->name = ecs_sched__strdup(&w->env, fields[i].name);
        if (!out->name || !ecs_sched__copy_values(w, &fields[i], out)) {
            result = ecs_sched__out_of_memory(w, "describing a type");
        }
    }
    if (result == ECS_SCHED_OK) result = ecs_sched__check_cover(w, id, fields, count, align, order);
    if (result == ECS_SCHED_OK && !ecs_sched__descriptions_reserve(w, id)) {
        result = ecs_sched__out_of_memory(w, "describing a type");
    }
    if (result != ECS_SCHED_OK) {
        ecs_sched__description_clear(w, &fresh);
        return result;
    }
    ecs_sched__description_clear(w, &w->descriptions->by_id[id]);
    w->descriptions->by_id[id] = fresh;
    return ECS_SCHED_OK;
}

/* ---- reading scalars ---- */

/* The integer kind an enum of `size` bytes is stored as. */
static ecs_sched_field_kind ecs_sched__enum_storage(uint32_t size) {
    return size == 1 ? ECS_SCHED_FIELD_I8 : size == 2 ? ECS_SCHED_FIELD_I16
         : size == 4 ? ECS_SCHED_FIELD_I32 : ECS_SCHED_FIELD_I64;
}

/* A bool, integer (not u64) or enum element, widened. */
static int64_t ecs_sched__load_int(const unsigned char *p, ecs_sched_field_kind kind, uint32_t size) {
    if (kind == ECS_SCHED_FIELD_ENUM) kind = ecs_sched__enum_storage(size);
    if (kind == ECS_SCHED_FIELD_I8) { int8_t v; memcpy(&v, p, 1); return v; }
    if (kind == ECS_SCHED_FIELD_I16) { int16_t v; memcpy(&v, p, 2); return v; }
    if (kind == ECS_SCHED_FIELD_I32) { int32_t v; memcpy(&v, p, 4); return v; }
    if (kind == ECS_SCHED_FIELD_I64) { int64_t v; memcpy(&v, p, 8); return v; }
    if (kind == ECS_SCHED_FIELD_U8) { uint8_t v; memcpy(&v, p, 1); return v; }
    if (kind == ECS_SCHED_FIELD_U16) { uint16_t v; memcpy(&v, p, 2); return v; }
    if (kind == ECS_SCHED_FIELD_U32) { uint32_t v; memcpy(&v, p, 4); return v; }
    if (kind == ECS_SCHED_FIELD_BOOL) { bool v; memcpy(&v, p, sizeof v); return v ? 1 : 0; }
    return 0;
}

static uint64_t ecs_sched__load_u64(const unsigned char *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static double ecs_sched__load_float(const unsigned char *p, ecs_sched_field_kind kind) {
    if (kind == ECS_SCHED_FIELD_F32) {
        float v;
        memcpy(&v, p, 4);
        return (double)v;
    } else {
        double v;
        memcpy(&v, p, 8);
        return v;
    }
}

static bool ecs_sched__is_float(ecs_sched_field_kind kind) {
    return kind == ECS_SCHED_FIELD_F32 || kind == ECS_SCHED_FIELD_F64;
}

static const char *ecs_sched__enum_name(const ecs_sched__field_desc *f, int64_t value) {
    int32_t v;
    for (v = 0; v < f->value_count; v++) {
        if (f->values[v].value == value) return f->values[v].name;
    }
    return NULL;
}

/* ---- printing ---- */

static void ecs_sched__print_value(const ecs_sched_world *w, ecs_sched_id id,
                                   const unsigned char *value, ecs_sched__printing *t);

static void ecs_sched__print_chars(const unsigned char *p, uint32_t size, ecs_sched__printing *t) {
    uint32_t i;
    ecs_sched__print_bytes(t, "\"", 1);
    for (i = 0; i < size && p[i]; i++) {
        unsigned char c = p[i];
        if (c == '"' || c == '\\') ecs_sched__printf_to(t, "\\%c", c);
        else if (c == '\n') ecs_sched__print_bytes(t, "\\n", 2);
        else if (c < 32 || c == 127) ecs_sched__printf_to(t, "\\x%02x", (unsigned)c);
        else ecs_sched__print_bytes(t, (const char *)&p[i], 1);
    }
    ecs_sched__print_bytes(t, "\"", 1);
}

static void ecs_sched__print_element(const ecs_sched_world *w, const ecs_sched__field_desc *f,
                                     const unsigned char *p, ecs_sched__printing *t) {
    ecs_sched_field_kind kind = f->kind;
    if (kind == ECS_SCHED_FIELD_BOOL) {
        ecs_sched__printf_to(t, "%s", ecs_sched__load_int(p, kind, f->element) ? "true" : "false");
    } else if (kind == ECS_SCHED_FIELD_U64) {
        ecs_sched__printf_to(t, "%llu", (unsigned long long)ecs_sched__load_u64(p));
    } else if (ecs_sched__is_float(kind)) {
        ecs_sched__printf_to(t, "%g", ecs_sched__load_float(p, kind));
    } else if (kind == ECS_SCHED_FIELD_ENTITY) {
        ecs_sched_entity e = (ecs_sched_entity)ecs_sched__load_u64(p);
        const char *name = ecs_sched__entity_name_of(w, e);
        if (!e) ecs_sched__printf_to(t, "0");
        else if (name) ecs_sched__printf_to(t, "#%u '%.40s'", (unsigned)ECS_SCHED_ENTITY_INDEX(e), name);
        else ecs_sched__printf_to(t, "#%u", (unsigned)ECS_SCHED_ENTITY_INDEX(e));
    } else if (kind == ECS_SCHED_FIELD_CHARS) {
        ecs_sched__print_chars(p, f->element, t);
    } else if (kind == ECS_SCHED_FIELD_ENUM) {
        int64_t v = ecs_sched__load_int(p, kind, f->element);
        const char *name = ecs_sched__enum_name(f, v);
        if (name) ecs_sched__print_bytes(t, name, strlen(name));
        else ecs_sched__printf_to(t, "%lld", (long long)v);
    } else if (kind == ECS_SCHED_FIELD_STRUCT) {
        ecs_sched__print_value(w, f->type, p, t);
    } else {
        ecs_sched__printf_to(t, "%lld", (long long)ecs_sched__load_int(p, kind, f->element));
    }
}

static void ecs_sched__print_value(const ecs_sched_world *w, ecs_sched_id id,
                                   const unsigned char *value, ecs_sched__printing *t) {
    const ecs_sched__description *d = ecs_sched__description_of(w, id);
    int32_t i, k;
    if (!d) {
        ecs_sched__printf_to(t, "<%.40s: %u bytes>", w->components[id].name, (unsigned)w->components[id].size);
        return;
    }
    ecs_sched__print_bytes(t, "{", 1);
    for (i = 0; i < d->count; i++) {
        const ecs_sched__field_desc *f = &d->fields[i];
        if (i) ecs_sched__print_bytes(t, ", ", 2);
        ecs_sched__print_bytes(t, f->name, strlen(f->name));
        ecs_sched__print_bytes(t, ": ", 2);
        if (f->count > 1) ecs_sched__print_bytes(t, "[", 1);
        for (k = 0; k < f->count; k++) {
            if (k) ecs_sched__print_bytes(t, ", ", 2);
            ecs_sched__print_element(w, f, value + f->offset + (size_t)k * f->element, t);
        }
        if (f->count > 1) ecs_sched__print_bytes(t, "]", 1);
    }
    ecs_sched__print_bytes(t, "}", 1);
}

int32_t ecs_sched_value_print(const ecs_sched_world *w, ecs_sched_id id, const void *value,
                              char *out, int32_t capacity) {
    ecs_sched__printing t;
    ECS_SCHED__CHECK_WORLD(w);
    t.out = capacity > 0 ? out : NULL;
    t.capacity = capacity;
    t.length = 0;
    if (!ecs_sched__component_valid(w, id) || !value) {
        ecs_sched__printf_to(&t, "<no value>");
    } else {
        ecs_sched__print_value(w, id, (const unsigned char *)value, &t);
    }
    ecs_sched__print_end(&t);
    return t.length;
}

/* ---- paths ---- */

/* Resolves path inside a value of type id: the field's element (or the whole array), and
   its description; NULL with the reason. */
static unsigned char *ecs_sched__resolve(ecs_sched_world *w, ecs_sched_id id, unsigned char *value,
                                         const char *path, const ecs_sched__field_desc **field,
                                         bool *whole_array, const char *operation) {
    const char *at = path;
    ecs_sched_id type = id;
    ECS_SCHED__CHECK_WORLD(w);
    if (!ecs_sched__component_valid(w, id)) {
        ecs_sched__unknown_component(w, id, operation);
        return NULL;
    }
    if (!value || !path || !path[0]) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT, "%s('%s'): no value or no path",
                        operation, w->components[id].name);
        return NULL;
    }
    for (;;) {
        const ecs_sched__description *d = ecs_sched__description_of(w, type);
        size_t length = strcspn(at, ".[");
        const ecs_sched__field_desc *f = NULL;
        int32_t i, index = -1;
        if (!d) {
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                            "%s('%s', \"%s\"): '%s' has no description (ecs_sched_describe)",
                            operation, w->components[id].name, path, w->components[type].name);
            return NULL;
        }
        for (i = 0; i < d->count && !f; i++) {
            if (strncmp(d->fields[i].name, at, length) == 0 && d->fields[i].name[length] == '\0') {
                f = &d->fields[i];
            }
        }
        if (!f) {
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_NOT_FOUND,
                            "%s('%s', \"%s\"): '%s' has no field '%.*s'", operation,
                            w->components[id].name, path, w->components[type].name, (int)length, at);
            return NULL;
        }
        at += length;
        if (*at == '[') {
            char *end;
            long n = strtol(at + 1, &end, 10);
            if (end == at + 1 || *end != ']' || n < 0 || n >= f->count) {
                ecs_sched__fail(&w->env, ECS_SCHED_ERR_NOT_FOUND,
                                "%s('%s', \"%s\"): field '%s' has %d element%s; the index is "
                                "not one of them", operation, w->components[id].name, path,
                                f->name, (int)f->count, f->count == 1 ? "" : "s");
                return NULL;
            }
            index = (int32_t)n;
            at = end + 1;
        }
        value += f->offset + (size_t)(index < 0 ? 0 : index) * f->element;
        if (*at == '\0') {
            *field = f;
            *whole_array = index < 0 && f->count > 1;
            return value;
        }
        if (*at != '.' || f->kind != ECS_SCHED_FIELD_STRUCT || (index < 0 && f->count > 1)) {
            ecs_sched__fail(&w->env, ECS_SCHED_ERR_NOT_FOUND,
                            "%s('%s', \"%s\"): field '%s' %s", operation, w->components[id].name,
                            path, f->name, f->kind != ECS_SCHED_FIELD_STRUCT ? "has no fields"
                                                                            : "is an array: give an index");
            return NULL;
        }
        type = f->type;
        at++;
    }
}

void *ecs_sched_value_field(ecs_sched_world *w, ecs_sched_id id, void *value, const char *path,
                            ecs_sched_field_info *info) {
    const ecs_sched__field_desc *f;
    bool whole;
    unsigned char *p = ecs_sched__resolve(w, id, (unsigned char *)value, path, &f, &whole, "value_field");
    if (p && info) {
        info->kind = f->kind;
        info->size = f->element;
        info->count = whole ? f->count : 1;
        info->type = f->type;
    }
    return p;
}

/* A field a number can be read from or written to: one element. */
static unsigned char *ecs_sched__number_field(ecs_sched_world *w, ecs_sched_id id, void *value,
                                              const char *path, const ecs_sched__field_desc **f,
                                              const char *operation) {
    bool whole;
    unsigned char *p = ecs_sched__resolve(w, id, (unsigned char *)value, path, f, &whole, operation);
    if (!p) return NULL;
    if (whole || (*f)->kind == ECS_SCHED_FIELD_STRUCT || (*f)->kind == ECS_SCHED_FIELD_CHARS) {
        ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                        "%s('%s', \"%s\"): field '%s' is %s, not a number", operation,
                        w->components[id].name, path, (*f)->name,
                        whole ? "an array (give an index)" : (*f)->kind == ECS_SCHED_FIELD_STRUCT
                                                                 ? "a struct" : "text");
        return NULL;
    }
    return p;
}

ecs_sched_result ecs_sched_value_get_number(ecs_sched_world *w, ecs_sched_id id,
                                            const void *value, const char *path, double *out) {
    const ecs_sched__field_desc *f;
    unsigned char *p = ecs_sched__number_field(w, id, (void *)(uintptr_t)value, path, &f, "value_get_number");
    if (!p) return w->env.last_result;
    if (ecs_sched__is_float(f->kind)) {
        *out = ecs_sched__load_float(p, f->kind);
    } else if (f->kind == ECS_SCHED_FIELD_U64 || f->kind == ECS_SCHED_FIELD_ENTITY) {
        uint64_t u = ecs_sched__load_u64(p);
        if (f->kind == ECS_SCHED_FIELD_ENTITY) u = ECS_SCHED_ENTITY_INDEX(u);
        *out = (double)u;
    } else {
        int64_t v = ecs_sched__load_int(p, f->kind, f->element);
        *out = (double)v;
    }
    return ECS_SCHED_OK;
}

/* The range of an integer kind (enum: of its storage): lo <= x < end. */
static void ecs_sched__int_range(ecs_sched_field_kind kind, uint32_t size, double *lo, double *end) {
    if (kind == ECS_SCHED_FIELD_ENUM) kind = ecs_sched__enum_storage(size);
    *lo = 0;
    *end = 9223372036854775808.0;
    if (kind == ECS_SCHED_FIELD_BOOL) {
        *end = 2.0;
    } else if (kind == ECS_SCHED_FIELD_U8) {
        *end = 256.0;
    } else if (kind == ECS_SCHED_FIELD_U16) {
        *end = 65536.0;
    } else if (kind == ECS_SCHED_FIELD_U32) {
        *end = 4294967296.0;
    } else if (kind == ECS_SCHED_FIELD_U64) {
        *end = 18446744073709551616.0;
    } else if (kind == ECS_SCHED_FIELD_I8) {
        *lo = -128.0;
        *end = 128.0;
    } else if (kind == ECS_SCHED_FIELD_I16) {
        *lo = -32768.0;
        *end = 32768.0;
    } else if (kind == ECS_SCHED_FIELD_I32) {
        *lo = -2147483648.0;
        *end = 2147483648.0;
    } else {
        *lo = -9223372036854775808.0;
    }
}

/* Whether a number in range has a fraction (floats are not compared for equality: the
   whole part is compared both ways). */
static bool ecs_sched__has_fraction_u64(double number, uint64_t whole) {
    return (double)whole < number || (double)whole > number;
}

static bool ecs_sched__has_fraction_i64(double number, int64_t whole) {
    return (double)whole < number || (double)whole > number;
}

/* Stores an integer known to fit. */
static void ecs_sched__store_int(unsigned char *p, ecs_sched_field_kind kind, uint32_t size, int64_t v,
                                 uint64_t u) {
    if (kind == ECS_SCHED_FIELD_BOOL) {
        bool b = v != 0;
        memcpy(p, &b, sizeof b);
    } else if (kind == ECS_SCHED_FIELD_U64 || kind == ECS_SCHED_FIELD_ENTITY) {
        memcpy(p, &u, 8);
    } else if (size == 1) {
        int8_t x = (int8_t)(uint8_t)v;
        memcpy(p, &x, 1);
    } else if (size == 2) {
        int16_t x = (int16_t)(uint16_t)v;
        memcpy(p, &x, 2);
    } else if (size == 4) {
        int32_t x = (int32_t)(uint32_t)v;
        memcpy(p, &x, 4);
    } else {
        memcpy(p, &v, 8);
    }
}

static ecs_sched_result ecs_sched__out_of_range(ecs_sched_world *w, ecs_sched_id id, const char *path,
                                                const ecs_sched__field_desc *f, const char *what,
                                                const char *operation) {
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "%s('%s', \"%s\"): %s does not fit field '%s' (%s)", operation,
                           w->components[id].name, path, what, f->name,
                           ecs_sched__field_kind_names[f->kind]);
}

ecs_sched_result ecs_sched_value_set_number(ecs_sched_world *w, ecs_sched_id id, void *value,
                                            const char *path, double number) {
    const ecs_sched__field_desc *f;
    unsigned char *p = ecs_sched__number_field(w, id, value, path, &f, "value_set_number");
    char what[48];
    double lo, end;
    if (!p) return w->env.last_result;
    snprintf(what, sizeof what, "%g", number);
    if (f->kind == ECS_SCHED_FIELD_F32) {
        /* a finite number beyond what a float holds; infinities and NaN pass as they are */
        bool finite = number >= -1.7976931348623157e308 && number <= 1.7976931348623157e308;
        float x;
        if (finite && (number > 3.4028234663852886e38 || number < -3.4028234663852886e38)) {
            return ecs_sched__out_of_range(w, id, path, f, what, "value_set_number");
        }
        x = (float)number;
        memcpy(p, &x, 4);
        return ECS_SCHED_OK;
    }
    if (f->kind == ECS_SCHED_FIELD_F64) {
        memcpy(p, &number, 8);
        return ECS_SCHED_OK;
    }
    if (f->kind == ECS_SCHED_FIELD_ENTITY) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "value_set_number('%s', \"%s\"): field '%s' holds an entity: write "
                               "the handle with ecs_sched_value_set_int", w->components[id].name,
                               path, f->name);
    }
    ecs_sched__int_range(f->kind, f->element, &lo, &end);
    if (!(number >= lo && number < end)) {   /* NaN too */
        return ecs_sched__out_of_range(w, id, path, f, what, "value_set_number");
    }
    if (f->kind == ECS_SCHED_FIELD_U64) {
        uint64_t whole = (uint64_t)number;
        if (ecs_sched__has_fraction_u64(number, whole)) {
            return ecs_sched__out_of_range(w, id, path, f, what, "value_set_number");
        }
        ecs_sched__store_int(p, f->kind, f->element, 0, whole);
        return ECS_SCHED_OK;
    }
    {
        int64_t whole = (int64_t)number;
        if (ecs_sched__has_fraction_i64(number, whole) ||
            (f->kind == ECS_SCHED_FIELD_ENUM && !ecs_sched__enum_name(f, whole))) {
            return ecs_sched__out_of_range(w, id, path, f, what, "value_set_number");
        }
        ecs_sched__store_int(p, f->kind, f->element, whole, (uint64_t)whole);
    }
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_value_set_int(ecs_sched_world *w, ecs_sched_id id, void *value,
                                         const char *path, int64_t number) {
    const ecs_sched__field_desc *f;
    unsigned char *p = ecs_sched__number_field(w, id, value, path, &f, "value_set_int");
    char what[32];
    double lo, end;
    if (!p) return w->env.last_result;
    snprintf(what, sizeof what, "%lld", (long long)number);
    if (ecs_sched__is_float(f->kind)) {
        return ecs_sched_value_set_number(w, id, value, path, (double)number);
    }
    if (f->kind == ECS_SCHED_FIELD_ENTITY || f->kind == ECS_SCHED_FIELD_U64) {
        if (f->kind == ECS_SCHED_FIELD_U64 && number < 0) {
            return ecs_sched__out_of_range(w, id, path, f, what, "value_set_int");
        }
        ecs_sched__store_int(p, f->kind, f->element, number, (uint64_t)number);
        return ECS_SCHED_OK;
    }
    ecs_sched__int_range(f->kind, f->element, &lo, &end);
    if ((double)number < lo || (double)number >= end ||
        (f->kind == ECS_SCHED_FIELD_ENUM && !ecs_sched__enum_name(f, number))) {
        return ecs_sched__out_of_range(w, id, path, f, what, "value_set_int");
    }
    ecs_sched__store_int(p, f->kind, f->element, number, (uint64_t)number);
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_value_set_string(ecs_sched_world *w, ecs_sched_id id, void *value,
                                            const char *path, const char *text) {
    const ecs_sched__field_desc *f;
    bool whole;
    unsigned char *p = ecs_sched__resolve(w, id, (unsigned char *)value, path, &f, &whole,
                                          "value_set_string");
    int32_t v;
    if (!p) return w->env.last_result;
    if (!text) text = "";
    if (f->kind == ECS_SCHED_FIELD_CHARS) {
        size_t n = strlen(text);
        if (n >= f->element) {
            return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                                   "value_set_string('%s', \"%s\"): \"%.40s\" is %zu bytes with "
                                   "its zero; field '%s' holds %u", w->components[id].name, path,
                                   text, n + 1, f->name, (unsigned)f->element);
        }
        memset(p, 0, f->element);
        memcpy(p, text, n);
        return ECS_SCHED_OK;
    }
    if (f->kind == ECS_SCHED_FIELD_ENUM) {
        for (v = 0; v < f->value_count; v++) {
            if (strcmp(f->values[v].name, text) == 0) {
                ecs_sched__store_int(p, f->kind, f->element, f->values[v].value,
                                     (uint64_t)f->values[v].value);
                return ECS_SCHED_OK;
            }
        }
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "value_set_string('%s', \"%s\"): '%.40s' is not a value of enum "
                               "field '%s'", w->components[id].name, path, text, f->name);
    }
    return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                           "value_set_string('%s', \"%s\"): field '%s' is %s, not text or an "
                           "enum", w->components[id].name, path, f->name,
                           ecs_sched__field_kind_names[f->kind]);
}

/* ---- compare and hash ---- */

/* Floats in a total order where -0 equals 0 and NaN equals NaN, after every number. */
static int ecs_sched__compare_floats(double a, double b) {
    bool na = !(a >= a), nb = !(b >= b);   /* NaN is the one value not >= itself */
    if (na || nb) return na == nb ? 0 : na ? 1 : -1;
    return (a > b) - (a < b);
}

static int ecs_sched__compare_element(const ecs_sched_world *w, const ecs_sched__field_desc *f,
                                      const unsigned char *a, const unsigned char *b) {
    ecs_sched_field_kind kind = f->kind;
    if (ecs_sched__is_float(kind)) {
        return ecs_sched__compare_floats(ecs_sched__load_float(a, kind), ecs_sched__load_float(b, kind));
    }
    if (kind == ECS_SCHED_FIELD_U64 || kind == ECS_SCHED_FIELD_ENTITY) {
        uint64_t x = ecs_sched__load_u64(a), y = ecs_sched__load_u64(b);
        return (x > y) - (x < y);
    }
    if (kind == ECS_SCHED_FIELD_CHARS) {
        int c = strncmp((const char *)a, (const char *)b, f->element);
        return (c > 0) - (c < 0);
    }
    if (kind == ECS_SCHED_FIELD_STRUCT) return ecs_sched_value_compare(w, f->type, a, b);
    {
        int64_t x = ecs_sched__load_int(a, kind, f->element), y = ecs_sched__load_int(b, kind, f->element);
        return (x > y) - (x < y);
    }
}

int ecs_sched_value_compare(const ecs_sched_world *w, ecs_sched_id id, const void *a, const void *b) {
    const ecs_sched__description *d;
    int32_t i, k;
    ECS_SCHED__CHECK_WORLD(w);
    ECS_SCHED_ASSERT(ecs_sched__component_valid(w, id) && a && b);
    d = ecs_sched__description_of(w, id);
    if (!d) {
        int c = memcmp(a, b, w->components[id].size);
        return (c > 0) - (c < 0);
    }
    for (i = 0; i < d->count; i++) {
        const ecs_sched__field_desc *f = &d->fields[i];
        for (k = 0; k < f->count; k++) {
            size_t at = f->offset + (size_t)k * f->element;
            int c = ecs_sched__compare_element(w, f, (const unsigned char *)a + at,
                                               (const unsigned char *)b + at);
            if (c) return c;
        }
    }
    return 0;
}

static uint64_t ecs_sched__hash_bytes(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static uint64_t ecs_sched__hash_element(const ecs_sched_world *w, const ecs_sched__field_desc *f,
                                        const unsigned char *p, uint64_t h) {
    ecs_sched_field_kind kind = f->kind;
    if (ecs_sched__is_float(kind)) {
        double x = ecs_sched__load_float(p, kind);
        unsigned char nan = !(x >= x);
        if (nan) return ecs_sched__hash_bytes(h, &nan, 1);   /* every NaN alike */
        if (!(x < 0.0) && !(x > 0.0)) x = 0.0;                /* -0 as 0 */
        h = ecs_sched__hash_bytes(h, &nan, 1);
        return ecs_sched__hash_bytes(h, &x, sizeof x);
    }
    if (kind == ECS_SCHED_FIELD_CHARS) {
        size_t n = 0;
        while (n < f->element && p[n]) n++;
        return ecs_sched__hash_bytes(h, p, n);
    }
    if (kind == ECS_SCHED_FIELD_STRUCT) {
        return h ^ (ecs_sched_value_hash(w, f->type, p) * 0x9e3779b97f4a7c15ull);
    }
    if (kind == ECS_SCHED_FIELD_U64 || kind == ECS_SCHED_FIELD_ENTITY) {
        uint64_t x = ecs_sched__load_u64(p);
        return ecs_sched__hash_bytes(h, &x, sizeof x);
    }
    {
        int64_t x = ecs_sched__load_int(p, kind, f->element);
        return ecs_sched__hash_bytes(h, &x, sizeof x);
    }
}

uint64_t ecs_sched_value_hash(const ecs_sched_world *w, ecs_sched_id id, const void *value) {
    const ecs_sched__description *d;
    uint64_t h = 14695981039346656037ull;
    int32_t i, k;
    ECS_SCHED__CHECK_WORLD(w);
    ECS_SCHED_ASSERT(ecs_sched__component_valid(w, id) && value);
    d = ecs_sched__description_of(w, id);
    if (!d) return ecs_sched__hash_bytes(h, value, w->components[id].size);
    for (i = 0; i < d->count; i++) {
        const ecs_sched__field_desc *f = &d->fields[i];
        for (k = 0; k < f->count; k++) {
            h = ecs_sched__hash_element(w, f, (const unsigned char *)value + f->offset +
                                                  (size_t)k * f->element, h);
        }
    }
    return h;
}

/*=============================== src/sort.h (implementation) ================================*/
/* sort: sorted and grouped queries. The rows go into the list a hierarchical query keeps
   (hierarchy.h), sorted by a stable merge sort; iterating an unchanged sorted query walks the
   list, one call per run of rows consecutive in a table (or ECS_SCHED_ITER_ROWS rows by
   index), so a sort that scatters a table's rows costs a call per row with
   ecs_sched_iter_next: read such a query with ecs_sched_iter_next_rows. */

/* What a match's order column had seen at the last sort. */
typedef struct ecs_sched__sort_seen {
    uint32_t serial;                 /* its change log's entries so far */
    uint32_t bulk;
    bool has_bulk;
} ecs_sched__sort_seen;

/* The query becomes one that keeps a list: its iterations take that path (query.h's
   ticked), so each match needs its tick columns. */
static ecs_sched_result ecs_sched__query_listed(ecs_sched_query *q, const char *operation) {
    ecs_sched_world *w = q->world;
    uint32_t i;
    if (!q->hier && !ecs_sched__hier_create(q)) return ecs_sched__out_of_memory(w, operation);
    if (!q->ticked) {
        if (q->match_count &&
            !ECS_SCHED__GROW(&w->env, q->match_ticks, &q->match_ticks_capacity, q->match_count)) {
            return ecs_sched__out_of_memory(w, operation);
        }
        for (i = 0; i < q->match_count; i++) {
            ecs_sched__match_ticks_fill(q, q->matches[i].table, &q->match_ticks[i]);
        }
        q->ticked = true;
    }
    q->listed = true;
    q->hier->made = false;
    return ECS_SCHED_OK;
}

static ecs_sched_result ecs_sched__check_no_cascade(ecs_sched_query *q, const char *operation) {
    int32_t i;
    for (i = 0; i < q->term_count; i++) {
        if (q->terms[i].kind == ECS_SCHED_TERM_CASCADE) {
            return ecs_sched__fail(&q->world->env, ECS_SCHED_ERR_INVALID_QUERY,
                                   "%s: the query cascades (term %d) and has that order; a "
                                   "query has one order", operation, (int)i);
        }
    }
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_query_order_by(ecs_sched_query *q, ecs_sched_id component,
                                          ecs_sched_order_fn compare) {
    ecs_sched_world *w;
    ecs_sched_result result;
    int32_t i;
    ECS_SCHED_ASSERT(q != NULL);
    w = q->world;
    if (!compare) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_ARGUMENT,
                               "query_order_by: no compare function");
    }
    if (!ecs_sched__component_valid(w, component)) {
        return ecs_sched__unknown_component(w, component, "query_order_by");
    }
    for (i = 0; i < q->term_count; i++) {
        if (q->terms[i].id == component && ecs_sched__term_on_self(q->terms[i].kind)) break;
    }
    if (i == q->term_count || w->components[component].size == 0) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                               "query_order_by: the query %s '%s'; sort by a component with a "
                               "value that a term reads or writes on the entity itself",
                               i == q->term_count ? "has no term on the entity for" : "reads a tag,",
                               w->components[component].name);
    }
    result = ecs_sched__check_no_cascade(q, "query_order_by");
    if (result == ECS_SCHED_OK) result = ecs_sched__query_listed(q, "query_order_by");
    if (result != ECS_SCHED_OK) return result;
    q->hier->order_term = i;
    q->hier->order = compare;
    return ECS_SCHED_OK;
}

ecs_sched_result ecs_sched_query_group_by(ecs_sched_query *q, ecs_sched_id kind) {
    ecs_sched_world *w;
    ecs_sched_result result;
    ECS_SCHED_ASSERT(q != NULL);
    w = q->world;
    if (!ecs_sched__is_kind(w, kind)) return ecs_sched__not_a_kind(w, kind, "query_group_by");
    if (!(w->components[kind].relation & ECS_SCHED__KIND_EXCLUSIVE)) {
        return ecs_sched__fail(&w->env, ECS_SCHED_ERR_INVALID_QUERY,
                               "query_group_by: '%s' is not exclusive, so an entity could be in "
                               "several groups; group by an exclusive kind (ChildOf is)",
                               w->components[kind].name);
    }
    result = ecs_sched__check_no_cascade(q, "query_group_by");
    if (result == ECS_SCHED_OK) result = ecs_sched__query_listed(q, "query_group_by");
    if (result != ECS_SCHED_OK) return result;
    q->hier->group_kind = kind;
    return ECS_SCHED_OK;
}

/* ---- the sort ---- */

/* The order column's change state in a match's table (untracked: NULL). */
static const ecs_sched__ticks *ecs_sched__order_ticks(const ecs_sched_query *q,
                                                      const ecs_sched__hier_cache *c, uint32_t m) {
    return ecs_sched__ticks_find(q->matches[m].table, q->terms[c->order_term].id);
}

/* The world's side (declared in hierarchy.h): whether the order's values may have changed
   since the last sort. */
static bool ecs_sched__sort_stale(ecs_sched_query *q, ecs_sched__hier_cache *c) {
    uint32_t m;
    if (!q->world->components[q->terms[c->order_term].id].tracked) return true;
    if (c->seen_capacity < q->match_count) return true;
    for (m = 0; m < q->match_count; m++) {
        const ecs_sched__ticks *k = ecs_sched__order_ticks(q, c, m);
        const ecs_sched__sort_seen *s = &c->seen[m];
        if (k && (k->log.serial != s->serial || k->has_bulk != s->has_bulk ||
                  (k->has_bulk && k->bulk != s->bulk))) {
            return true;
        }
    }
    return false;
}

static void ecs_sched__sort_remember(ecs_sched_query *q, ecs_sched__hier_cache *c) {
    uint32_t m;
    for (m = 0; m < q->match_count && m < c->seen_capacity; m++) {
        const ecs_sched__ticks *k = ecs_sched__order_ticks(q, c, m);
        ecs_sched__sort_seen *s = &c->seen[m];
        s->serial = k ? k->log.serial : 0;
        s->bulk = k ? k->bulk : 0;
        s->has_bulk = k ? k->has_bulk : false;
    }
}

/* Negative when row a comes before row b. */
static int ecs_sched__compare_rows(const ecs_sched_query *q, const ecs_sched__hier_cache *c,
                                   const ecs_sched__hier_row *a, const ecs_sched__hier_row *b) {
    const ecs_sched__table *ta = q->matches[a->match].table, *tb = q->matches[b->match].table;
    ecs_sched_entity ea = ta->entities[a->row], eb = tb->entities[b->row];
    if (c->group_kind) {
        uint32_t ga = ECS_SCHED_ENTITY_INDEX(ecs_sched__up(q->world, ea, c->group_kind));
        uint32_t gb = ECS_SCHED_ENTITY_INDEX(ecs_sched__up(q->world, eb, c->group_kind));
        if (ga != gb) return ga < gb ? -1 : 1;
    }
    if (c->order_term >= 0) {
        int32_t ca = q->matches[a->match].column[c->order_term];
        int32_t cb = q->matches[b->match].column[c->order_term];
        return c->order(ea, ecs_sched__cell(ta, ca, (uint32_t)a->row), eb,
                        ecs_sched__cell(tb, cb, (uint32_t)b->row));
    }
    return 0;
}

/* The world's side (declared in hierarchy.h): a stable merge sort of the list, bottom up,
   through the scratch list. */
static bool ecs_sched__sort_rows(ecs_sched_query *q, ecs_sched__hier_cache *c) {
    ecs_sched__hier_row *from = c->rows, *to = c->sorted, *swap;
    uint32_t n = c->count, width, i;
    if (c->order_term >= 0 &&
        !ECS_SCHED__GROW(&q->world->env, c->seen, &c->seen_capacity, q->match_count + 1u)) {
        return false;
    }
    for (width = 1; width < n; width *= 2) {
        for (i = 0; i < n; i += 2 * width) {
            uint32_t left = i, mid = i + width < n ? i + width : n;
            uint32_t right = mid, end = i + 2 * width < n ? i + 2 * width : n, out = i;
            while (left < mid && right < end) {
                if (ecs_sched__compare_rows(q, c, &from[right], &from[left]) < 0) to[out++] = from[right++];
                else to[out++] = from[left++];
            }
            while (left < mid) to[out++] = from[left++];
            while (right < end) to[out++] = from[right++];
        }
        swap = from;
        from = to;
        to = swap;
    }
    if (from != c->rows) memcpy(c->rows, from, (size_t)n * sizeof *from);
    if (c->order_term >= 0) ecs_sched__sort_remember(q, c);
    return true;
}

#if defined(ECS_SCHED_STATIC) && (defined(__GNUC__) || defined(__clang__))
#pragma GCC diagnostic pop
#endif

#endif /* ECS_SCHED_IMPLEMENTATION */
