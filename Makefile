# ecs_sched.h: build, test and benchmark.
#   make example                install what is missing, build (what changed) and run the
#                               main examples
#   make test                   the whole suite: gcc and clang under ASan+UBSan, with threads
#                               (gcc) and the threaded tests under TSan (both), compile checks,
#                               the examples (gcc, clang, tcc), modules, layers, doc block,
#                               aliasing, the manual, short fuzzing runs of the JSON loader and
#                               the Lua driver, the explorer page in a browser
#   make test-all               make test, clang's threaded ASan+UBSan tests, the runs of
#                               clang's builds of test_oom, test_parallel_adaptive (and under
#                               TSan test_pool), which make test only compiles, and
#                               compile-checks-all (what make test leaves out for time)
#   make deps                   install the missing Debian packages (elsewhere: list them)
#   make quick [T=test_x]       the edit-compile-test loop: the unit tests (or test_x alone)
#                               built by gcc as C99 under ASan+UBSan, and run
#   make unit | unit-threads | unit-tsan
#                               one family of unit tests (make test builds them all first)
#   make compile-checks         the configurations users rely on, one rule per check and
#                               compiler under build/compile/<compiler>/ (incremental, -j safe)
#   make compile-checks-all     the same, and every example optimized by clang as well
#   make examples-check         every examples/*.c built by gcc and clang under the sanitizers
#                               and by tcc, run, outputs compared
#   make browser-test           the explorer page (examples/remote.c) in headless Chromium
#                               (puppeteer-core from npm, into build/browser; in make test)
#   make check-strict-aliasing  the implementation by gcc -O2 -Wstrict-aliasing=1 -Werror
#   make check-modules          each src/ module parses on its own (what an editor sees)
#   make check-layers           each src/ module uses only what the modules before it define
#                               (docs/architecture.md); make layers-graph draws them
#   make check-doc              the header's documentation block names every public function
#   make fuzz-smoke | fuzz      every tests/fuzz target under libFuzzer: a few seconds each (in
#                               make test), or a minute each and a table of what they did
#   make sweeps                 the long runs make test shortens: the allocation failure sweep
#                               over every point in each configuration, a hundred times more
#                               random schedules
#   make soak [FRAMES=n SEED=s] the game loop example for a million frames (n) of random input
#                               (seed s) under ASan+UBSan, a Lua script reloaded every 10 000:
#                               the library's live bytes at frame n/10 and at the end within
#                               1 %, none left once the app is gone, no leak
#   make stress [STRESS_SECONDS=s] random schedules on 8 threads under TSan, new seeds for s
#                               seconds (120), each checked against the single-threaded run;
#                               STRESS_SEED=x STRESS_COUNT=1 runs seed x alone
#   make graphs                 write build/Main.dot (and .svg with Graphviz) from physics_plugin
#   make coverage               the lines and branches of the implementation the unit tests
#                               run, per src/ module (gcc --coverage, lcov): build/coverage/
#   make bench                  benchmarks; writes build/bench.json
#   make bench FLECS_DIR=dir    the same, with rows beside flecs (dir: its flecs.c, flecs.h)
#   make bench-compare BASE=ref the benchmark against the header of commit ref, alternating,
#                               each row's new/old ratio; rows over 5 % worse are named
#   make amalgamate             regenerate ecs_sched.h from src/
#   make check-amalgamation     fail when ecs_sched.h differs from a fresh generation
#   make clean

PYTHON    ?= python3
TCC       ?= tcc
BUILD     := build
# Asked of pkg-config the first time they are used (after `make deps` has installed stb), then
# kept: a recipe line would otherwise run pkg-config each time it names them.
STB_CFLAGS = $(eval STB_CFLAGS := $(shell pkg-config --cflags stb))$(STB_CFLAGS)
STB_LIBS   = $(eval STB_LIBS := $(shell pkg-config --libs stb))$(STB_LIBS)
STRICT    := -std=c99 -Wall -Wextra -Wpedantic -Werror
THREADED  := -std=c11 -Wall -Wextra -Wpedantic -Werror -DECS_SCHED_THREADS
STRICTXX  := -std=c++11 -Wall -Wextra -Werror
SANITIZE  := -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# The examples run under the sanitizers unoptimized: each one compiles the whole implementation,
# three times faster at -O0, and the optimizer's view of them is the release builds of
# compile-checks (-O2, -O3). So do the compile checks that build a program, each with its own
# copy of the implementation: what they check is how it compiles and links.
EXAMPLE_SANITIZE := -g -O0 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
CHECK_SANITIZE   := $(EXAMPLE_SANITIZE)
TSAN      := -g -O1 -fsanitize=thread -fno-omit-frame-pointer
COMPILERS := gcc clang
CXX_gcc   := g++
CXX_clang := clang++
# (test_lua_scripts builds against Lua libraries: its own rules, LUA_RUNS below)
TESTS     := $(filter-out test_lua_scripts,$(basename $(notdir $(wildcard tests/test_*.c))))
TEST_HEADERS := $(wildcard tests/*.h)
# The tests whose point is threads; the rest run threaded under ASan+UBSan only.
TSAN_TESTS := $(basename $(notdir $(wildcard tests/test_pool.c tests/test_parallel*.c tests/test_states.c tests/test_app.c tests/test_failures.c tests/test_events_parallel.c tests/test_inheritance.c tests/test_trace.c tests/test_delayed_commands.c tests/test_sparse.c tests/test_remote.c)))
SOURCES   := $(wildcard src/*.h src/*.html src/doc/*.txt) tools/amalgamate.py

export ASAN_OPTIONS  := detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS := print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS  := halt_on_error=1:second_deadlock_stack=1

# A recipe that fails leaves no target behind (no half-written output, no stamp).
.DELETE_ON_ERROR:

.PHONY: all deps example main-examples examples-check browser-test graphs test test-all test-binaries quick unit unit-threads unit-tsan fuzz fuzz-smoke \
        sweeps soak stress \
        compile-checks-all \
        compile-checks check-strict-aliasing check-modules check-layers layers-graph check-doc \
        bench bench-compare amalgamate check-amalgamation clean

all: test

deps:
	@sh tools/install_deps.sh test

ifndef NO_AMALGAMATE
ecs_sched.h: $(SOURCES)
	$(PYTHON) tools/amalgamate.py
endif

amalgamate:
	$(PYTHON) tools/amalgamate.py

check-amalgamation:
	$(PYTHON) tools/amalgamate.py --check

# ---- example ----

# The examples `make example` runs, in order. Each binary is a file target: only what changed
# is built again. The build runs in a second make, which sees the packages just installed
# (pkg-config's flags for stb), and which does not regenerate ecs_sched.h (that needs python3,
# which `make example` does not install).
MAIN_EXAMPLES := game_loop world_demo physics_plugin pause_menu scene_graph prefabs scripted
# prefabs.c reads and writes JSON (ECS_SCHED_JSON): the examples link cJSON; hot_reload.c loads
# shared libraries that call its functions (-ldl -rdynamic).
EXAMPLE_LIBS  := -lcjson -ldl -rdynamic
# scripted.c runs Lua scripts (ECS_SCHED_LUA): its builds, and only they, add LuaJIT's flags,
# asked of pkg-config when the recipe runs (after make example installed LuaJIT).
SCRIPTED_BUILDS := $(BUILD)/scripted $(foreach c,gcc clang tcc gcc-threads,$(BUILD)/examples/$(c)/scripted)
$(SCRIPTED_BUILDS): EXAMPLE_EXTRA = $$(pkg-config --cflags --libs luajit)
# remote.c serves the remote protocol (ECS_SCHED_REMOTE): its builds add libmicrohttpd and
# threads; examples-check runs it for 30 frames on a free port (it would otherwise serve
# until interrupted).
REMOTE_BUILDS := $(foreach c,gcc clang tcc gcc-threads,$(BUILD)/examples/$(c)/remote)
$(REMOTE_BUILDS): EXAMPLE_EXTRA = $$(pkg-config --cflags --libs libmicrohttpd) -lpthread
$(addsuffix .out,$(REMOTE_BUILDS)): EXAMPLE_ARGS = 30 0

example:
	@sh tools/install_deps.sh example
	@$(MAKE) --no-print-directory NO_AMALGAMATE=1 main-examples
	@set -e; for e in $(MAIN_EXAMPLES); do echo "== examples/$$e.c"; ./$(BUILD)/$$e; done

main-examples: $(addprefix $(BUILD)/,$(MAIN_EXAMPLES))
	@:

$(addprefix $(BUILD)/,$(MAIN_EXAMPLES)): $(BUILD)/%: examples/%.c ecs_sched.h
	@mkdir -p $(@D)
	cc -std=c99 -O2 -Wall -Wextra -Wpedantic -I. $(STB_CFLAGS) $< $(STB_LIBS) $(EXAMPLE_LIBS) \
	  $(EXAMPLE_EXTRA) -o $@

# The game loop example, built with threads, traced for its first frames (ECS_SCHED_TRACE in
# its environment), and the trace drawn as an SVG timeline.
trace: deps $(BUILD)/trace.svg

$(BUILD)/game_loop_traced: examples/game_loop.c ecs_sched.h
	@mkdir -p $(@D)
	cc $(THREADED) -DECS_SCHED_TRACE -O2 -I. $(STB_CFLAGS) $< $(STB_LIBS) -lpthread -o $@

$(BUILD)/trace.json: $(BUILD)/game_loop_traced
	ECS_SCHED_TRACE=$@ ./$< > /dev/null

$(BUILD)/trace.svg: $(BUILD)/trace.json tools/trace_svg.py
	$(PYTHON) tools/trace_svg.py $< $@

graphs: deps ecs_sched.h
	sh tools/graph.sh

# ---- tests ----

# Everything is built in parallel (one job per core, or the -j given to make), and the unit
# tests run once they are built, beside the builds and the compile checks and examples (each
# program's output grouped, -Otarget), the allocation failure sweeps (the longest runs) from
# the start (test-jobs); then the threaded runs of the tests that time something
# (TIMED_TESTS) run one after another, so that they do not compete for the cores.
JOBS     ?= $(shell nproc 2>/dev/null || echo 2)
PARALLEL  = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(JOBS))

test: deps
	$(MAKE) $(PARALLEL) -Otarget test-jobs
	$(MAKE) -j1 $(filter-out $(CLANG_RUN_LATER_RUNS),$(TIMED_THREADED_RUNS))
	$(MAKE) browser-test
	@echo "all tests passed"

# make, given many goals, starts each round every job it can before it comes back to the first
# goal: the allocation failure sweeps (the longest runs) would start only once every compile
# had. So they get a make of their own, beside the one that does the rest, the two sharing the
# job slots (each make has one slot of its own: with -j2, three jobs at most).
TEST_JOBS = $(filter-out $(CLANG_RUN_LATER_RUNS) $(OOM_RUNS),$(UNIT_RUNS) $(UNTIMED_THREADED_RUNS)) \
             $(LUA_RUNS) \
             compile-checks examples-check fuzz-smoke graphs check-doc \
             check-modules check-strict-aliasing check-layers manual-check test-binaries
.PHONY: test-jobs
test-jobs:
	+@$(MAKE) -Otarget $(OOM_RUNS) & sweeps=$$!; \
	  $(MAKE) -Otarget $(TEST_JOBS); rest=$$?; \
	  wait $$sweeps && exit $$rest

# make test, and what it leaves out to keep its time down: the threaded tests built by clang
# under ASan+UBSan (gcc's are in make test, and clang's under TSan), the runs of clang's builds
# of the tests that compile the implementation themselves optimized (CLANG_RUN_LATER: make
# test compiles them), and compile-checks-all.
test-all: test
	$(MAKE) $(PARALLEL) -Otarget compile-checks-all $(filter-out $(TIMED_CLANG_THREADS_RUNS) \
	  $(TIMED_THREADED_RUNS),$(CLANG_THREADS_RUNS) $(CLANG_RUN_LATER_RUNS))
	$(MAKE) -j1 $(TIMED_CLANG_THREADS_RUNS) $(filter $(TIMED_THREADED_RUNS),$(CLANG_RUN_LATER_RUNS))

# build/<compiler>/      C99, no threads, ASan+UBSan (gcc and clang)
# build/<compiler>-mt/   C11 with ECS_SCHED_THREADS, ASan+UBSan (gcc; clang in make test-all)
# build/<compiler>-tsan/ C11 with ECS_SCHED_THREADS, ThreadSanitizer (gcc and clang)
# The tests of the world's own structures (they reach into the implementation, which they
# compile themselves, and use no threads) run in gcc's build without threads only.
GCC_ONLY_TESTS   := test_world_check
UNIT_BINARIES    := $(addprefix $(BUILD)/gcc/,$(TESTS)) \
                    $(addprefix $(BUILD)/clang/,$(filter-out $(GCC_ONLY_TESTS),$(TESTS)))
THREADS_BINARIES := $(addprefix $(BUILD)/gcc-mt/,$(filter-out $(GCC_ONLY_TESTS),$(TESTS)))
CLANG_THREADS_BINARIES := $(addprefix $(BUILD)/clang-mt/,$(filter-out $(GCC_ONLY_TESTS),$(TESTS)))
TSAN_BINARIES    := $(foreach c,$(COMPILERS),$(addprefix $(BUILD)/$(c)-tsan/,$(TSAN_TESTS)))

QUICK_BINARIES := $(addprefix $(BUILD)/gcc/,$(if $(T),$(T),$(TESTS)))

quick: $(QUICK_BINARIES)
	@set -e; for t in $(QUICK_BINARIES); do echo "== $$t"; ./$$t; done

# Each test program runs as a target of its own, <program>.run (never a file: it runs each time
# it is asked for), in the order listed, or two at a time under make -j2.
UNIT_RUNS    := $(addsuffix .run,$(UNIT_BINARIES))
THREADS_RUNS := $(addsuffix .run,$(THREADS_BINARIES))
CLANG_THREADS_RUNS := $(addsuffix .run,$(CLANG_THREADS_BINARIES))
TSAN_RUNS    := $(addsuffix .run,$(TSAN_BINARIES))
.PHONY: $(UNIT_RUNS) $(THREADS_RUNS) $(CLANG_THREADS_RUNS) $(TSAN_RUNS)

# The tests that read a clock or sleep: their threaded runs go one at a time, alone.
TIMED_TESTS := $(basename $(notdir $(shell grep -l 'clock_gettime\|nanosleep\|usleep\|sched_yield' \
                 tests/test_*.c)))
timed_runs = $(filter $(addprefix %/,$(addsuffix .run,$(TIMED_TESTS))),$(1))
TIMED_THREADED_RUNS   := $(call timed_runs,$(THREADS_RUNS) $(TSAN_RUNS))
UNTIMED_THREADED_RUNS := $(filter-out $(TIMED_THREADED_RUNS),$(THREADS_RUNS) $(TSAN_RUNS))
TIMED_CLANG_THREADS_RUNS := $(call timed_runs,$(CLANG_THREADS_RUNS))


# The native driver's tests load shared libraries built from tests/native/: two versions of one
# script, to reload one over the other, and a library that is no script. The programs that load
# them export the library's functions to them (-rdynamic, in TEST_LIBS).
NATIVE_SCRIPTS := $(BUILD)/native/steer_v1.so $(BUILD)/native/steer_v2.so \
                  $(BUILD)/native/no_entry.so
$(BUILD)/native/steer_v%.so: tests/native/steer.c ecs_sched.h
	@mkdir -p $(@D)
	cc -std=c99 -Wall -Wextra -Wpedantic -Werror -shared -fPIC -DECS_SCHED_NATIVE_SCRIPTS \
	  -DSTEER_VERSION=$* -I. $(STB_CFLAGS) $< -o $@
$(BUILD)/native/no_entry.so: tests/native/no_entry.c
	@mkdir -p $(@D)
	cc -std=c99 -Wall -Wextra -Wpedantic -Werror -shared -fPIC $< -o $@
$(filter %/test_native_scripts.run,$(UNIT_RUNS) $(THREADS_RUNS) $(CLANG_THREADS_RUNS)): \
  $(NATIVE_SCRIPTS)
quick: $(NATIVE_SCRIPTS)

# The Lua driver's tests (ECS_SCHED_LUA), built against LuaJIT 2.1 and against Lua 5.4: each
# program compiles the implementation itself, with that flavour's headers and library
# (pkg-config), as C99 under ASan+UBSan by gcc, unoptimized (it runs in a second; -O1 would
# double its build). make test runs both (LUA_RUNS).
LUA_FLAVOURS := luajit lua54
LUA_PACKAGE_luajit := luajit
LUA_PACKAGE_lua54 := lua5.4
LUA_BINARIES := $(addprefix $(BUILD)/lua/test_lua_scripts_,$(LUA_FLAVOURS))
LUA_RUNS     := $(addsuffix .run,$(LUA_BINARIES))
.PHONY: $(LUA_RUNS)
$(LUA_BINARIES): $(BUILD)/lua/test_lua_scripts_%: tests/test_lua_scripts.c ecs_sched.h $(TEST_HEADERS)
	@mkdir -p $(@D)
	gcc -std=c99 $(STRICT) $(SANITIZE) -O0 -DECS_SCHED_LUA -I. $(STB_CFLAGS) \
	  $$(pkg-config --cflags $(LUA_PACKAGE_$*)) $< $(STB_LIBS) $$(pkg-config --libs $(LUA_PACKAGE_$*)) \
	  -lcmocka -lm -o $@
$(LUA_RUNS): %.run: %
	@echo "== $<"
	@./$<

# The same tests with threads under ThreadSanitizer (Lua 5.4; the Lua library itself is not
# instrumented, the driver is): a script's systems take turns on its Lua state while the
# systems of another script run beside them. And clang's warnings on both flavours (as
# errors; no code generated: gcc's builds above run the tests).
LUA_TSAN := $(BUILD)/lua/test_lua_scripts_lua54_tsan
LUA_CLANG_CHECKS := $(addprefix $(BUILD)/lua/clang_checked_,$(LUA_FLAVOURS))
$(LUA_TSAN): tests/test_lua_scripts.c ecs_sched.h $(TEST_HEADERS)
	@mkdir -p $(@D)
	gcc $(THREADED) $(TSAN) -DECS_SCHED_LUA -I. $(STB_CFLAGS) $$(pkg-config --cflags lua5.4) \
	  $< $(STB_LIBS) $$(pkg-config --libs lua5.4) -lcmocka -lm -lpthread -o $@
$(LUA_CLANG_CHECKS): $(BUILD)/lua/clang_checked_%: tests/test_lua_scripts.c ecs_sched.h $(TEST_HEADERS)
	@mkdir -p $(@D)
	clang $(STRICT) -fsyntax-only -DECS_SCHED_LUA -I. $(STB_CFLAGS) \
	  $$(pkg-config --cflags $(LUA_PACKAGE_$*)) $<
	@touch $@
LUA_RUNS += $(LUA_TSAN).run $(LUA_CLANG_CHECKS)
.PHONY: $(LUA_TSAN).run
$(LUA_TSAN).run: $(LUA_TSAN)
	@echo "== $<"
	@./$<

unit-threads: $(THREADS_RUNS)

unit-tsan: $(TSAN_RUNS)

$(UNIT_RUNS) $(THREADS_RUNS) $(CLANG_THREADS_RUNS) $(TSAN_RUNS): %.run: %
	@echo "== $<"
	@$(RUN_ENV) ./$<

# The allocation failure sweep is the suite's longest test. make test sweeps every point once
# between two runs: gcc's build without threads takes the even points, gcc's threaded build
# the odd ones (OOM_POINTS); every eighth point a run sweeps is checked by LeakSanitizer as
# well as by the test's own count of blocks (OOM_LSAN, tests/test_oom.c). make test-all adds
# clang's builds, each a share. make sweeps sweeps every point in every configuration, each
# under LeakSanitizer.
$(BUILD)/gcc/test_oom.run: RUN_ENV := OOM_POINTS=0/2
$(BUILD)/clang/test_oom.run: RUN_ENV := OOM_POINTS=2/4
$(BUILD)/gcc-mt/test_oom.run: RUN_ENV := OOM_POINTS=1/2
$(BUILD)/clang-mt/test_oom.run: RUN_ENV := OOM_POINTS=0/2

OOM_BINARIES := $(filter %/test_oom,$(UNIT_BINARIES) $(THREADS_BINARIES) $(CLANG_THREADS_BINARIES))
OOM_RUNS = $(filter-out $(CLANG_RUN_LATER_RUNS),$(filter %/test_oom.run,$(THREADS_RUNS) $(UNIT_RUNS)))
RANDOM_SCHEDULE_BINARIES := $(filter %/test_schedule_flatten_random,$(UNIT_BINARIES))

sweeps: $(OOM_BINARIES) $(RANDOM_SCHEDULE_BINARIES)
	@set -e; for t in $(OOM_BINARIES); do \
	  echo "== $$t, every point, each under LeakSanitizer"; OOM_LSAN=1 ./$$t; done
	@set -e; for t in $(RANDOM_SCHEDULE_BINARIES); do \
	  echo "== $$t, a million schedules"; RANDOM_SCHEDULES=1000000 ./$$t; done

# make soak: the game of examples/game_loop.c (#included by tests/soak/soak_game_loop.c, its
# main renamed) for FRAMES frames with random input drawn from SEED, under ASan+UBSan, with
# the Lua driver built against Lua 5.4 (whose allocations go through the library's hooks, so
# the Lua states count in the live bytes). It fails when the library's live bytes at frame
# FRAMES/10 and at the end differ by more than 1 %, when the destroyed app leaves any, and on
# any sanitizer report (LeakSanitizer at exit). FRAMES: a multiple of 100 000.
FRAMES ?= 1000000
SEED   ?= 1
SOAK   := $(BUILD)/soak/soak_game_loop
$(SOAK): tests/soak/soak_game_loop.c examples/game_loop.c ecs_sched.h
	@mkdir -p $(@D)
	gcc $(STRICT) $(SANITIZE) -I. $(STB_CFLAGS) $$(pkg-config --cflags lua5.4) $< $(STB_LIBS) \
	  $$(pkg-config --libs lua5.4) -lm -o $@

soak: deps
	@$(MAKE) --no-print-directory $(SOAK)
	./$(SOAK) $(FRAMES) $(SEED)

# make stress: random schedules (tests/random_schedule_fixture.h) on a pool of 8 threads under
# ThreadSanitizer, a new seed after another for STRESS_SECONDS, each run beside the
# single-threaded executor and checked as tests/test_parallel_executor.c checks them: the
# rules of every frame, and the world byte for byte. STRESS_SEED (the first seed; default
# from the clock) and STRESS_COUNT (that many seeds, whatever the time) reproduce a failure.
STRESS_SECONDS ?= 120
STRESS := $(BUILD)/stress/stress_schedules
$(STRESS): tests/stress/stress_schedules.c $(TEST_HEADERS) ecs_sched.h $(BUILD)/gcc-tsan/impl.o
	@mkdir -p $(@D)
	gcc $(THREADED) $(TSAN) $(OPTIONAL) -I. $(STB_CFLAGS) $< $(BUILD)/gcc-tsan/impl.o \
	  $(STB_LIBS) -lcmocka $(TEST_LIBS) -lpthread -o $@

stress: deps
	@$(MAKE) --no-print-directory $(STRESS)
	STRESS_SECONDS=$(STRESS_SECONDS) STRESS_SEED=$(STRESS_SEED) STRESS_COUNT=$(STRESS_COUNT) \
	  ./$(STRESS)

# The tests that compile the implementation themselves, because they set its hooks (assert,
# log, allocator) or reach its private functions; every other test links the implementation
# built once per configuration.
OWN_IMPL_TESTS := test_error_rule test_errors test_oom test_pool test_parallel_adaptive test_world_check
impl_for = $(if $(filter $(1),$(OWN_IMPL_TESTS)),,$(2)/impl.o)
# A test program is compiled unoptimized (-O0 compiles twice as fast): the library it checks is
# the implementation object, built at -O1 under the sanitizers, and what the optimizer says of
# the header is the compile checks' business. The tests whose runs are long and which compile
# the implementation themselves are optimized (-O1): OPTIMIZED_TESTS under ASan+UBSan, every
# one of OWN_IMPL_TESTS under TSan.
OPTIMIZED_TESTS := test_oom test_parallel_adaptive

# The tests that compile the implementation themselves, optimized (OPTIMIZED_TESTS; under TSan
# every one of OWN_IMPL_TESTS), take clang a minute or two each to build: make test has clang
# compile them (-O0, warnings as errors: clang's warnings do not depend on the optimizer; the
# object <test>.o) and leaves their runs to make test-all, since gcc's builds of each run in
# make test under the same sanitizers (test_oom's sweep: gcc's two builds cover every point).
CLANG_RUN_LATER := $(addprefix $(BUILD)/clang/,$(OPTIMIZED_TESTS)) \
                   $(addprefix $(BUILD)/clang-tsan/,$(filter $(OWN_IMPL_TESTS),$(TSAN_TESTS)))
CLANG_RUN_LATER_RUNS := $(addsuffix .run,$(CLANG_RUN_LATER))

unit: $(filter-out $(CLANG_RUN_LATER_RUNS),$(UNIT_RUNS))

# $(1): the compiler; $(2): the configuration's directory; $(3): its flags; $(4): its libraries;
# $(5): the tests it compiles at -O1 (the others at -O0).
define unit_config
$(2)/impl.o: tests/impl.c ecs_sched.h
	@mkdir -p $$(@D)
	$(1) $(3) -I. $(STB_CFLAGS) -c $$< -o $$@
$(2)/%: tests/%.c ecs_sched.h $(TEST_HEADERS)
	@mkdir -p $$(@D)
	$(1) $(3) $$(if $$(filter $$*,$(5)),,-O0) -I. $(STB_CFLAGS) $$< $$(call impl_for,$$*,$(2)) \
	  $(STB_LIBS) -lcmocka $(4) -o $$@
# (only the tests that link it wait for it: the others start building at once)
$(addprefix $(2)/,$(filter-out $(OWN_IMPL_TESTS),$(TESTS))): $(2)/impl.o
# A test compiled, not linked, unoptimized (CLANG_RUN_LATER)
$(2)/%.o: tests/%.c ecs_sched.h $(TEST_HEADERS)
	@mkdir -p $$(@D)
	$(1) $(3) -O0 -I. $(STB_CFLAGS) -c $$< -o $$@
endef
# The tests build the optional parts too: JSON files (ECS_SCHED_JSON, cJSON), the trace
# (ECS_SCHED_TRACE), language drivers with the native one (ECS_SCHED_NATIVE_SCRIPTS) and the
# remote protocol (ECS_SCHED_REMOTE, libmicrohttpd: pkg-config, asked once), all in the one
# implementation object each configuration shares.
MHD_CFLAGS = $(eval MHD_CFLAGS := $(shell pkg-config --cflags libmicrohttpd))$(MHD_CFLAGS)
MHD_LIBS   = $(eval MHD_LIBS := $(shell pkg-config --libs libmicrohttpd))$(MHD_LIBS)
OPTIONAL = -DECS_SCHED_JSON -DECS_SCHED_TRACE -DECS_SCHED_NATIVE_SCRIPTS -DECS_SCHED_REMOTE $(MHD_CFLAGS)
JSON_LIBS := -lcjson
TEST_LIBS = $(JSON_LIBS) -ldl -rdynamic $(MHD_LIBS) -lpthread
define unit_rule
$(call unit_config,$(1),$(BUILD)/$(1),$(STRICT) $(SANITIZE) $(OPTIONAL),$(TEST_LIBS),$(OPTIMIZED_TESTS))
$(call unit_config,$(1),$(BUILD)/$(1)-mt,$(THREADED) $(SANITIZE) $(OPTIONAL),$(TEST_LIBS),\
  $(OPTIMIZED_TESTS))
$(call unit_config,$(1),$(BUILD)/$(1)-tsan,$(THREADED) $(TSAN) $(OPTIONAL),$(TEST_LIBS),\
  $(OWN_IMPL_TESTS))
endef
$(foreach c,$(COMPILERS),$(eval $(call unit_rule,$(c))))

# ---- compile checks ----

# Each check builds (and most run) a program in a configuration users rely on, once per
# compiler, in build/compile/<compiler>/. A check that runs leaves <name>.ok when it passed;
# a check that only compiles is its object file. Each depends on its own sources, ecs_sched.h
# and the test fixtures, so it reruns only when one of them changes, and a failing one reruns
# alone.
COMPILE := $(BUILD)/compile

# What each check verifies, printed when it runs.
CHECK_cxx_impl    := header and implementation as C++
CHECK_two_tu      := implementation in one of two translation units
CHECK_static_api  := ECS_SCHED_API=static
CHECK_stb_own     := user of stb_ds short names, stb_ds implementation compiled by the user
CHECK_stb_lib     := user of stb_ds short names, stb_ds implementation from -lstb
CHECK_threads_c99 := threads: implementation as C11 with ECS_SCHED_THREADS, API used from C99
CHECK_threads_cxx := threads: implementation as C11 with ECS_SCHED_THREADS, API used from C++
CHECK_pool_fenced := the pool with ordinary fences only (ECS_SCHED_NO_MEMBARRIER)
CHECK_stb_routed  := stb_ds allocations routed through the library's hooks
CHECK_config_mismatch := a file whose configuration macros differ from the implementation's does not link
CHECK_minimal     := every optional feature left out (ECS_SCHED_MINIMAL): the core and the scheduler run

RUN_CHECKS     := cxx_impl two_tu static_api stb_own stb_lib threads_c99 threads_cxx \
                  pool_fenced stb_routed minimal
# Checks that only compile: the implementation optimized (-O2 -Werror); the examples, which
# pass values of known size into the inlined copies, at -O3 -Werror (where gcc's object-size
# warnings are at their most eager; the copies are the same with threads); and the
# benchmarks with threads (C11) and as C99 without.
COMPILE_ONLY   := impl_o2.o examples_o3_c99.o bench_c11_threads.o bench_c99.o \
                  release_c99.o release_c11_threads.o release_cxx.o \
                  warnings_c99.o warnings_c11_threads.o warnings_cxx.o
# The whole-program builds of the examples (each compiles the implementation), optimized:
# make test runs some with gcc, whose optimizer warns the most eagerly (O3_EXAMPLES); every
# one, and clang's, are part of compile-checks-all, which make test leaves out to keep the
# suite's time down. The C
# release builds of make test compile the implementation once; compile-checks-all also builds
# every source whole (release_whole_*), with both compilers.
WHOLE_EXAMPLE_BUILDS := examples_o3_c99.o release_cxx.o
RELEASE_WHOLE_BUILDS := release_whole_c99.o release_whole_c11_threads.o
# The examples make test compiles whole at -O3 (each takes a quarter of a minute): the two
# that insert, set and spawn values of the most kinds; compile-checks-all compiles every one.
O3_EXAMPLES := examples/game_loop.c examples/tour_commands.c
# clang's builds of the benchmarks, its release builds and its configuration mismatch check
# are left to compile-checks-all too: gcc's are in make test.
CLANG_ALL_ONLY := bench_c11_threads.o bench_c99.o release_c99.o release_c11_threads.o
# The benchmarks as C99 without threads: gcc's too.
GCC_ALL_ONLY := bench_c99.o
COMPILE_ONLY_gcc   := $(filter-out $(GCC_ALL_ONLY),$(COMPILE_ONLY))
COMPILE_ONLY_clang := $(filter-out $(WHOLE_EXAMPLE_BUILDS) $(CLANG_ALL_ONLY),$(COMPILE_ONLY))
# Checks whose point is a link that fails: their recipe builds, links and runs by itself.
LINK_CHECKS    := config_mismatch
LINK_CHECKS_gcc   := $(LINK_CHECKS)
LINK_CHECKS_clang :=
# The switches that leave features out (ECS_SCHED_NO_*, docs/building.md): the implementation
# compiled with each one, gcc, -O0 (a missing guard is a compile error; no need to optimize),
# with ECS_SCHED_TRACE so that stepping is there to leave out; ECS_SCHED_MINIMAL also as C11
# with threads. minimal (RUN_CHECKS) runs a program built with ECS_SCHED_MINIMAL.
FEATURE_SWITCHES := NO_RELATIONS NO_INHERITANCE NO_REFLECT NO_SNAPSHOT NO_STEPPING NO_STATES \
                    NO_APP NO_QUERY_TEXT MINIMAL
SWITCH_BUILDS := $(addprefix $(COMPILE)/gcc/switch_,$(addsuffix .o,$(FEATURE_SWITCHES))) \
                 $(COMPILE)/gcc/switch_MINIMAL_c11_threads.o $(COMPILE)/gcc/remote_alone.o \
                 $(COMPILE)/gcc/remote_no_app.o
COMPILE_STAMPS := $(foreach c,$(COMPILERS),$(addprefix $(COMPILE)/$(c)/,\
                    $(addsuffix .ok,$(RUN_CHECKS) $(LINK_CHECKS_$(c))) $(COMPILE_ONLY_$(c)))) \
                  $(SWITCH_BUILDS)
COMPILE_BUILDS := $(foreach c,$(COMPILERS),$(addprefix $(COMPILE)/$(c)/,\
                    $(RUN_CHECKS) $(COMPILE_ONLY_$(c))))
COMPILE_STAMPS_ALL := $(COMPILE_STAMPS) \
  $(addprefix $(COMPILE)/clang/,$(WHOLE_EXAMPLE_BUILDS) $(CLANG_ALL_ONLY) $(LINK_CHECKS:=.ok)) \
  $(addprefix $(COMPILE)/gcc/,$(GCC_ALL_ONLY)) \
  $(foreach c,$(COMPILERS),$(addprefix $(COMPILE)/$(c)/,$(RELEASE_WHOLE_BUILDS) examples_o3_all_c99.o))

compile-checks: $(COMPILE_STAMPS)

compile-checks-all: $(COMPILE_STAMPS_ALL)

$(COMPILE)/%.ok: $(COMPILE)/%
	@echo "== $(*D): $(CHECK_$(*F))"
	./$<
	@touch $@

$(COMPILE)/gcc/switch_%.o: tests/compile/two_tu_impl.c ecs_sched.h
	@mkdir -p $(@D)
	@echo "== gcc: the implementation with ECS_SCHED_$* (C99, ECS_SCHED_TRACE, -O0 -Werror)"
	gcc $(STRICT) -O0 -DECS_SCHED_$* -DECS_SCHED_TRACE -I. $(STB_CFLAGS) -c $< -o $@

# The remote protocol without the trace (its methods for statistics, trace and stepping left
# out), and without the app.
$(COMPILE)/gcc/remote_alone.o $(COMPILE)/gcc/remote_no_app.o: tests/compile/two_tu_impl.c ecs_sched.h
	@mkdir -p $(@D)
	@echo "== gcc: the implementation with ECS_SCHED_REMOTE$(if $(findstring no_app,$@), and ECS_SCHED_NO_APP,) only (C99, -O0 -Werror)"
	gcc $(STRICT) -O0 -DECS_SCHED_REMOTE $(if $(findstring no_app,$@),-DECS_SCHED_NO_APP) -I. \
	  $(STB_CFLAGS) $(MHD_CFLAGS) -c $< -o $@

$(COMPILE)/gcc/switch_MINIMAL_c11_threads.o: tests/compile/two_tu_impl.c ecs_sched.h
	@mkdir -p $(@D)
	@echo "== gcc: the implementation with ECS_SCHED_MINIMAL (C11, ECS_SCHED_THREADS, -O0 -Werror)"
	gcc $(THREADED) -O0 -DECS_SCHED_MINIMAL -I. $(STB_CFLAGS) -c $< -o $@

# The warnings game projects turn on, documented in the README: the header, the
# implementation and a file that uses it build clean under them as C99, as C11 with threads
# and as C++ (stb_ds.h, which is not ours, from -isystem); clang adds -Weverything but for
# padding, casts to a stricter alignment (the executor carves one aligned block), C++98 and
# declarations after statements (C99 allows them; the test program that uses the API has some).
USER_WARNINGS := -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-qual \
                 -Wswitch-enum -Wformat-nonliteral -Wshadow -Wundef -Wdouble-promotion \
                 -Wpointer-arith -Wvla -Wwrite-strings -Wredundant-decls -Werror
USER_WARNINGS_C := $(USER_WARNINGS) -Wstrict-prototypes -Wmissing-prototypes
EVERYTHING_clang := -Weverything -Wno-padded -Wno-cast-align -Wno-c++98-compat \
                    -Wno-declaration-after-statement
STB_SYSTEM     = $(patsubst -I%,-isystem %,$(STB_CFLAGS))
WARNING_C_SOURCES := tests/compile/two_tu_impl.c tests/compile/two_tu_main.c

# Release builds (-DNDEBUG, which turns the asserts off, -O2 -Werror) of every example and
# every compile check's source, as C99, as C11 with ECS_SCHED_THREADS, and as C++: nothing
# used only by an assert may warn. In C: the implementation alone, once, and each source with
# the implementation left out (-DECS_SCHED__IMPLEMENTED, the header's guard against a second
# copy), but for ECS_SCHED_API=static, which declares what it does not define; the
# release_whole_* builds compile each source whole.
# (scripted.c needs Lua's headers: examples-check builds it, with them.)
RELEASE_EXAMPLES := $(filter-out examples/scripted.c,$(wildcard examples/*.c))
RELEASE_C_SOURCES := $(filter-out examples/scripted.c,$(wildcard examples/*.c)) \
                     $(filter-out tests/compile/config_mismatch.c,$(wildcard tests/compile/*.c))
# ECS_SCHED_API=static declares what it does not define, and a file that sets the
# implementation's hooks (ECS_SCHED_REALLOC, _FREE, _ASSERT, _LOG) writes functions only the
# implementation calls: those are compiled whole, by the release_whole_* builds only (make
# test-all), each a whole implementation of its own (their code apart from the hooks is that
# of the implementation make test compiles once).
RELEASE_WHOLE_ONLY := tests/compile/static_api.c \
                      $(shell grep -l '^\#define ECS_SCHED_\(REALLOC\|FREE\|ASSERT\|LOG\)\b' \
                        examples/*.c tests/compile/*.c)
RELEASE_SHARED_SOURCES := $(filter-out $(RELEASE_WHOLE_ONLY) tests/compile/two_tu_impl.c,\
                          $(RELEASE_C_SOURCES))

# $(1): the C compiler, $(2): its C++ driver.
define compile_checks
$(COMPILE)/$(1)/cxx_impl: tests/compile/cxx_impl.cpp ecs_sched.h
	@mkdir -p $$(@D)
	$(2) $(STRICTXX) $(CHECK_SANITIZE) -I. $(STB_CFLAGS) $$< $(STB_LIBS) -o $$@

$(COMPILE)/$(1)/two_tu: tests/compile/two_tu_main.c tests/compile/two_tu_impl.c ecs_sched.h
	@mkdir -p $$(@D)
	$(1) $(STRICT) $(CHECK_SANITIZE) -I. $(STB_CFLAGS) $$(filter %.c,$$^) $(STB_LIBS) -o $$@

# One compile serves three checks: the implementation optimized, the object the configuration
# mismatch check links against (CONFIG_FLAGS), and gcc's strictest aliasing warning
# (check-strict-aliasing, IMPL_O2_WARNINGS): none of their flags changes what another warns.
$(COMPILE)/$(1)/impl_o2.o: tests/compile/two_tu_impl.c ecs_sched.h
	@mkdir -p $$(@D)
	@echo "== $(1): the implementation optimized (-O2 -Werror$$(foreach w,$$(IMPL_O2_WARNINGS_$(1)), $$(w)))"
	$(1) $(STRICT) $(CONFIG_FLAGS) $$(IMPL_O2_WARNINGS_$(1)) -I. $(STB_CFLAGS) -c $$< -o $$@

# Examples compiled whole, one after another, into one stamp-like object (the last one
# compiled): those of O3_EXAMPLES, or every one (examples_o3_all_c99.o).
$(COMPILE)/$(1)/examples_o3_c99.o: $(O3_EXAMPLES) ecs_sched.h
	@mkdir -p $$(@D)
	@echo "== $(1): $(notdir $(O3_EXAMPLES)) at -O3 -Werror (C99)"
	@for ex in $(O3_EXAMPLES); do \
	  $(1) $(STRICT) -O3 -I. $(STB_CFLAGS) -c $$$$ex -o $$@ || exit 1; done

$(COMPILE)/$(1)/examples_o3_all_c99.o: $(RELEASE_EXAMPLES) ecs_sched.h
	@mkdir -p $$(@D)
	@echo "== $(1): every example at -O3 -Werror (C99)"
	@for ex in $(RELEASE_EXAMPLES); do \
	  $(1) $(STRICT) -O3 -I. $(STB_CFLAGS) -c $$$$ex -o $$@ || exit 1; done

$(COMPILE)/$(1)/release_c99.o: $(RELEASE_C_SOURCES) ecs_sched.h
	@mkdir -p $$(@D)
	@echo "== $(1): release builds, -DNDEBUG -O2 -Werror (C99): examples and compile checks"
	$(1) $(STRICT) -DNDEBUG -O2 -I. $(STB_CFLAGS) -c tests/compile/two_tu_impl.c -o $$@
	@for f in $(RELEASE_SHARED_SOURCES); do \
	  $(1) $(STRICT) -DNDEBUG -O2 -DECS_SCHED__IMPLEMENTED -I. $(STB_CFLAGS) -c $$$$f -o $$@ \
	  || exit 1; done

$(COMPILE)/$(1)/release_whole_c99.o: $(RELEASE_C_SOURCES) ecs_sched.h
	@mkdir -p $$(@D)
	@echo "== $(1): release builds, -DNDEBUG -O2 -Werror (C99): examples and compile checks, whole"
	@for f in $(RELEASE_C_SOURCES); do \
	  $(1) $(STRICT) -DNDEBUG -O2 -I. $(STB_CFLAGS) -c $$$$f -o $$@ || exit 1; done

$(COMPILE)/$(1)/release_c11_threads.o: $(RELEASE_C_SOURCES) ecs_sched.h
	@mkdir -p $$(@D)
	@echo "== $(1): release builds, -DNDEBUG -O2 -Werror (C11, ECS_SCHED_THREADS)"
	$(1) $(THREADED) -DNDEBUG -O2 -I. $(STB_CFLAGS) -c tests/compile/two_tu_impl.c -o $$@
	@for f in $(RELEASE_SHARED_SOURCES); do \
	  $(1) $(THREADED) -DNDEBUG -O2 -DECS_SCHED__IMPLEMENTED -I. $(STB_CFLAGS) -c $$$$f -o $$@ \
	  || exit 1; done

$(COMPILE)/$(1)/release_whole_c11_threads.o: $(RELEASE_C_SOURCES) ecs_sched.h
	@mkdir -p $$(@D)
	@echo "== $(1): release builds, -DNDEBUG -O2 -Werror (C11, ECS_SCHED_THREADS), whole"
	@for f in $(RELEASE_C_SOURCES); do \
	  $(1) $(THREADED) -DNDEBUG -O2 -I. $(STB_CFLAGS) -c $$$$f -o $$@ || exit 1; done

$(COMPILE)/$(1)/release_cxx.o: $(wildcard examples/*.cpp tests/compile/*.cpp) ecs_sched.h
	@mkdir -p $$(@D)
	@echo "== $(2): release builds, -DNDEBUG -O2 -Werror (C++11)"
	@for f in $(wildcard examples/*.cpp tests/compile/*.cpp); do \
	  $(2) $(STRICTXX) -DNDEBUG -O2 -I. $(STB_CFLAGS) -c $$$$f -o $$@ || exit 1; done

$(COMPILE)/$(1)/warnings_c99.o: $(WARNING_C_SOURCES) ecs_sched.h
	@mkdir -p $$(@D)
	@echo "== $(1): the warnings users turn on (C99): $(USER_WARNINGS_C) $(EVERYTHING_$(1))"
	@for f in $(WARNING_C_SOURCES); do \
	  $(1) -std=c99 $(USER_WARNINGS_C) $(EVERYTHING_$(1)) -I. $(STB_SYSTEM) -c $$$$f -o $$@ \
	  || exit 1; done

$(COMPILE)/$(1)/warnings_c11_threads.o: $(WARNING_C_SOURCES) ecs_sched.h
	@mkdir -p $$(@D)
	@echo "== $(1): the warnings users turn on (C11, ECS_SCHED_THREADS, ECS_SCHED_JSON, ECS_SCHED_TRACE)"
	@for f in $(WARNING_C_SOURCES); do \
	  $(1) -std=c11 -DECS_SCHED_THREADS $(OPTIONAL) $(USER_WARNINGS_C) $(EVERYTHING_$(1)) -I. \
	    $(STB_SYSTEM) -c $$$$f -o $$@ || exit 1; done

$(COMPILE)/$(1)/warnings_cxx.o: tests/compile/cxx_impl.cpp ecs_sched.h
	@mkdir -p $$(@D)
	@echo "== $(2): the warnings users turn on (C++11, ECS_SCHED_JSON, ECS_SCHED_TRACE)"
	$(2) -std=c++11 $(USER_WARNINGS) $(OPTIONAL) -I. $(STB_SYSTEM) -c $$< -o $$@

$(COMPILE)/$(1)/static_api: tests/compile/static_api.c ecs_sched.h
	@mkdir -p $$(@D)
	$(1) $(STRICT) $(CHECK_SANITIZE) -I. $(STB_CFLAGS) $$< $(STB_LIBS) -o $$@

# stb_user_impl.c includes stb_user_lib.c; no -lstb: stb_ds is compiled there.
$(COMPILE)/$(1)/stb_own: tests/compile/stb_user_short_names.c tests/compile/stb_user_impl.c \
                         tests/compile/stb_user_lib.c ecs_sched.h
	@mkdir -p $$(@D)
	$(1) $(STRICT) $(CHECK_SANITIZE) -I. $(STB_CFLAGS) tests/compile/stb_user_short_names.c \
	  tests/compile/stb_user_impl.c -o $$@

$(COMPILE)/$(1)/stb_lib: tests/compile/stb_user_short_names.c tests/compile/stb_user_lib.c \
                         ecs_sched.h
	@mkdir -p $$(@D)
	$(1) $(STRICT) $(CHECK_SANITIZE) -I. $(STB_CFLAGS) tests/compile/stb_user_short_names.c \
	  tests/compile/stb_user_lib.c $(STB_LIBS) -o $$@

$(COMPILE)/$(1)/impl_mt.o: tests/compile/two_tu_impl.c ecs_sched.h
	@mkdir -p $$(@D)
	$(1) $(THREADED) $(CHECK_SANITIZE) -I. $(STB_CFLAGS) -c $$< -o $$@

$(COMPILE)/$(1)/threads_c99.o: tests/compile/threads_api.c ecs_sched.h
	@mkdir -p $$(@D)
	$(1) $(STRICT) $(CHECK_SANITIZE) -I. $(STB_CFLAGS) -c $$< -o $$@

$(COMPILE)/$(1)/threads_cxx.o: tests/compile/threads_api.c ecs_sched.h
	@mkdir -p $$(@D)
	$(2) -x c++ $(STRICTXX) $(CHECK_SANITIZE) -I. $(STB_CFLAGS) -c $$< -o $$@

$(COMPILE)/$(1)/threads_c99: $(COMPILE)/$(1)/threads_c99.o $(COMPILE)/$(1)/impl_mt.o
	$(1) $(CHECK_SANITIZE) $$^ $(STB_LIBS) -lpthread -o $$@

$(COMPILE)/$(1)/threads_cxx: $(COMPILE)/$(1)/threads_cxx.o $(COMPILE)/$(1)/impl_mt.o
	$(2) $(CHECK_SANITIZE) $$^ $(STB_LIBS) -lpthread -o $$@

$(COMPILE)/$(1)/pool_fenced: tests/test_pool.c ecs_sched.h $(TEST_HEADERS)
	@mkdir -p $$(@D)
	$(1) $(THREADED) $(CHECK_SANITIZE) -DECS_SCHED_NO_MEMBARRIER -I. $(STB_CFLAGS) $$< $(STB_LIBS) \
	  -lcmocka -lpthread -o $$@

# Its cmocka report is long: kept in pool_fenced.out, shown whole only when it fails.
$(COMPILE)/$(1)/pool_fenced.ok: $(COMPILE)/$(1)/pool_fenced
	@echo "== $(1): $(CHECK_pool_fenced)"
	@./$$< > $$<.out 2>&1 || { cat $$<.out; exit 1; }
	@tail -n 1 $$<.out
	@touch $$@

$(COMPILE)/$(1)/bench_c11_threads.o: bench/bench.c $(wildcard bench/*.c bench/*.h) examples/game_loop.c ecs_sched.h
	@mkdir -p $$(@D)
	@echo "== $(1): the benchmarks compile with threads (C11)"
	$(1) $(THREADED) -O2 -I. $(STB_CFLAGS) -c bench/game_loop_row.c -o $$(@:.o=_game_loop.o)
	$(1) $(THREADED) -O2 -I. $(STB_CFLAGS) -c bench/untraced_copy.c -o $$(@:.o=_untraced.o)
	$(1) $(THREADED) -O2 -I. $(STB_CFLAGS) -c bench/traced_copy.c -o $$(@:.o=_traced.o)
	$(1) $(THREADED) -O2 -I. $(STB_CFLAGS) -c $$< -o $$@

$(COMPILE)/$(1)/bench_c99.o: bench/bench.c $(wildcard bench/*.c bench/*.h) examples/game_loop.c ecs_sched.h
	@mkdir -p $$(@D)
	@echo "== $(1): the benchmarks compile as C99 without threads"
	$(1) $(STRICT) -O2 -I. $(STB_CFLAGS) -c bench/game_loop_row.c -o $$(@:.o=_game_loop.o)
	$(1) $(STRICT) -O2 -I. $(STB_CFLAGS) -c bench/untraced_copy.c -o $$(@:.o=_untraced.o)
	$(1) $(STRICT) -O2 -I. $(STB_CFLAGS) -c bench/traced_copy.c -o $$(@:.o=_traced.o)
	$(1) $(STRICT) -O2 -I. $(STB_CFLAGS) -c $$< -o $$@

$(COMPILE)/$(1)/minimal: tests/compile/minimal.c ecs_sched.h
	@mkdir -p $$(@D)
	$(1) $(STRICT) $(CHECK_SANITIZE) -I. $(STB_CFLAGS) $$< $(STB_LIBS) -o $$@

$(COMPILE)/$(1)/stb_routed: tests/compile/stb_routed.c ecs_sched.h
	@mkdir -p $$(@D)
	$(1) $(STRICT) $(CHECK_SANITIZE) -I. $(STB_CFLAGS) $$< -o $$@

# A file that sees another value of one configuration macro than the implementation must not
# link, and the linker must name that macro and the value the file wants, even optimized with
# unused sections collected: config_mismatch.c (ECS_SCHED_MAX_REFS 2) against the default
# implementation; then, against an implementation with MAX_REFS 2, the file with one other
# macro of the list changed (CONFIG_OTHERS), so that only that macro disagrees. Against an implementation
# with the same values it links and runs.
$(COMPILE)/$(1)/config_mismatch.ok: tests/compile/config_mismatch.c tests/compile/two_tu_impl.c \
                                    ecs_sched.h $(COMPILE)/$(1)/impl_o2.o
	@mkdir -p $$(@D)
	@echo "== $(1): $(CHECK_config_mismatch)"
	@cp $(COMPILE)/$(1)/impl_o2.o $$(@D)/config_impl_default.o
	@$(1) $(STRICT) $(CONFIG_FLAGS) -DECS_SCHED_MAX_REFS=2 -I. $(STB_CFLAGS) \
	  -c tests/compile/two_tu_impl.c -o $$(@D)/config_impl_refs_2.o
	@set -e; for case in MAX_REFS=2:default $(addsuffix :refs_2,$(CONFIG_OTHERS)); do \
	  wants=$$$${case%:*}; impl=$$$${case#*:}; macro=$$$${wants%=*}; value=$$$${wants#*=}; \
	  define=$$$$( [ $$$$macro = MAX_REFS ] || echo -DECS_SCHED_$$$$wants ); \
	  symbol=ecs_sched_implementation_with_$$$${macro}_$$$$value; \
	  log=$$(@D)/config_mismatch_$$$$macro.log; \
	  $(1) $(STRICT) $(CONFIG_FLAGS) $$$$define -I. $(STB_CFLAGS) -c tests/compile/config_mismatch.c \
	    -o $$(@D)/config_mismatch_$$$$macro.o; \
	  if $(1) -Wl,--gc-sections $$(@D)/config_mismatch_$$$$macro.o $$(@D)/config_impl_$$$$impl.o \
	      $(STB_LIBS) -o $$(@D)/config_mismatch > $$$$log 2>&1; then \
	    echo "config_mismatch: linked although its ECS_SCHED_$$$$macro differs"; exit 1; fi; \
	  grep -q "undefined reference to .$$$$symbol'" $$$$log || \
	    { cat $$$$log; echo "config_mismatch: the link failed without naming $$$$symbol"; exit 1; }; \
	  sed -n 's/.*\(undefined reference to .*\)/  the linker: \1/p' $$$$log; \
	done
	$(1) $(STRICT) $(CHECK_SANITIZE) -DECS_SCHED_MAX_REFS=2 -I. $(STB_CFLAGS) $$(filter %.c,$$^) \
	  $(STB_LIBS) -o $$(@D)/config_match
	./$$(@D)/config_match
	@touch $$@
endef
CONFIG_FLAGS  := -O2 -ffunction-sections -fdata-sections
# The macros of the configuration list (ECS_SCHED__CONFIGURATION_LIST in src/base.h); each but
# MAX_REFS (the file's own) is tried with the value 3, which is no default.
CONFIG_MACROS := $(shell awk '/^\#define ECS_SCHED__CONFIGURATION_LIST/{on=1} on{print} \
                   on && !/\\$$/{exit}' src/base.h | grep -o 'X([A-Z_]*)' | sed 's/X(\(.*\))/\1/')
CONFIG_OTHERS := $(addsuffix =3,$(filter-out MAX_REFS,$(CONFIG_MACROS)))
$(foreach c,$(COMPILERS),$(eval $(call compile_checks,$(c),$(CXX_$(c)))))

# The implementation under gcc's strictest (and noisiest) aliasing warning, as C99 and as C11
# with threads: no type punning through incompatible pointers, e.g. void **. (The C99 one is
# gcc's impl_o2.o, built with the warning.)
IMPL_O2_WARNINGS_gcc := -Wstrict-aliasing=1
STRICT_ALIASING := $(COMPILE)/gcc/impl_o2.o \
                   $(COMPILE)/gcc/impl_o2_strict_aliasing_c11_threads.o

check-strict-aliasing: $(STRICT_ALIASING)

$(COMPILE)/gcc/impl_o2_strict_aliasing_c11_threads.o: tests/compile/two_tu_impl.c ecs_sched.h
	@mkdir -p $(@D)
	@echo "== gcc: the implementation, -O2 -Wstrict-aliasing=1 -Werror (C11, ECS_SCHED_THREADS)"
	gcc $(THREADED) -O2 -Wstrict-aliasing=1 -I. $(STB_CFLAGS) -c $< -o $@

# ---- modules ----

# Each module of src/ parses on its own, as an editor's language server reads it: a file that
# includes only that module, syntax only, as C99 and as C11 with threads. It fails on errors;
# the warnings go to build/modules/<module>.<configuration>.log, counted on the screen. (A
# module declares the few static functions of later modules it calls, which it cannot see:
# gcc reports those as "used but never defined", and no option turns that off.)
MODULES       := $(basename $(notdir $(filter-out src/doc.h,$(wildcard src/*.h))))
MODULE_CHECKS := $(foreach m,$(MODULES),$(BUILD)/modules/$(m).c99.ok $(BUILD)/modules/$(m).c11-threads.ok)
MODULE_FLAGS  := -fsyntax-only -Wall -Wextra -Wpedantic -Wno-unused-function -I. $(STB_CFLAGS)

check-modules: $(MODULE_CHECKS)

# The layers: a module uses only the functions, macros, types and constants of the modules
# before it in the generator's order (docs/architecture.md).
check-layers:
	$(PYTHON) tools/check_layers.py

# The module graph, drawn: build/layers.dot, and docs/layers.svg with Graphviz's dot.
layers-graph:
	@mkdir -p $(BUILD)
	$(PYTHON) tools/check_layers.py --dot $(BUILD)/layers.dot || true
	@if command -v dot >/dev/null 2>&1; then dot -Tsvg $(BUILD)/layers.dot -o docs/layers.svg && echo "wrote docs/layers.svg"; \
	 else echo "Graphviz's dot is not installed (apt-get install graphviz): only build/layers.dot"; fi

# $(1): the configuration's name, $(2): its flags.
define module_check
$(BUILD)/modules/%.$(1).ok: src/%.h $(wildcard src/*.h)
	@mkdir -p $$(@D)
	@echo '#include "src/$$*.h"' | gcc $(2) $(MODULE_FLAGS) -x c - > $$(@:.ok=.log) 2>&1 || \
	  { cat $$(@:.ok=.log); echo "== module src/$$*.h does not parse on its own ($(1))"; exit 1; }
	@n=$$$$(grep -c 'warning:' $$(@:.ok=.log) || true); \
	  if [ "$$$$n" = 0 ]; then echo "== module src/$$*.h on its own ($(1)): ok"; \
	  else echo "== module src/$$*.h on its own ($(1)): ok, $$$$n warning(s) in $$(@:.ok=.log)"; fi
	@touch $$@
endef
$(eval $(call module_check,c99,-std=c99))
$(eval $(call module_check,c11-threads,-std=c11 -DECS_SCHED_THREADS))
$(eval $(call module_check,c11-trace,-std=c11 -DECS_SCHED_THREADS -DECS_SCHED_TRACE))

# ---- documentation block ----

check-doc: ecs_sched.h
	$(PYTHON) tools/check_doc.py

# ---- fuzzing ----

# Every tests/fuzz/fuzz_<name>.c is a libFuzzer target (clang, ASan and UBSan, coverage
# instrumented), its seeds in tests/fuzz/corpus/<name>/ and the inputs that once made it fail
# in tests/fuzz/regressions/<name>/ (each replayed by the smoke run, before the seeds).
#   make fuzz-smoke         each target a few seconds (FUZZ_SMOKE_SECONDS), seeded (in make test)
#   make fuzz               each target FUZZ_SECONDS (60), then a table of executions and coverage
#   make fuzz-<name>        one target FUZZ_SECONDS; fuzz-<name>-smoke its smoke run
# The corpora grow in build/fuzz/corpus/<name>, never in the repository; a failing input is
# written to build/fuzz/<name>-crash-... (libFuzzer's artifact).
#
# The targets share one implementation object, built with threads (C11) and every optional
# module (JSON, Lua, the remote protocol, the trace); each target's file leaves the
# implementation out (-DECS_SCHED__IMPLEMENTED, the header's guard against a second copy).
FUZZ_FLAGS := -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
              -DECS_SCHED_THREADS -DECS_SCHED_JSON -DECS_SCHED_LUA -DECS_SCHED_REMOTE \
              -DECS_SCHED_TRACE
FUZZ_LUA ?= lua54
FUZZ_LUA_CFLAGS = $$(pkg-config --cflags $(LUA_PACKAGE_$(FUZZ_LUA)))
FUZZ_LIBS = $(STB_LIBS) -lcjson $$(pkg-config --libs $(LUA_PACKAGE_$(FUZZ_LUA))) $(MHD_LIBS) \
            -lpthread -lm
FUZZ_TARGETS  := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINARIES := $(addprefix $(BUILD)/fuzz/fuzz_,$(FUZZ_TARGETS))
FUZZ_SECONDS  ?= 60
FUZZ_SMOKE_SECONDS ?= 3
# Per target: the longest input (FUZZ_LEN_<name>, default 4096) and libFuzzer's other flags.
FUZZ_LEN_remote := 2048
FUZZ_LEN_lua_script := 2048
FUZZ_LEN_world := 512
FUZZ_OPTS_lua_script := -timeout=10
FUZZ_LEN_snapshot := 1024
FUZZ_OPTS_json := -dict=tests/fuzz/json.dict
fuzz_run_flags = -max_len=$(or $(FUZZ_LEN_$(1)),4096) $(FUZZ_OPTS_$(1)) -print_final_stats=1 \
                 -artifact_prefix=$(BUILD)/fuzz/$(1)-

$(BUILD)/fuzz/impl.o: tests/compile/two_tu_impl.c ecs_sched.h
	@mkdir -p $(@D)
	clang $(subst fuzzer,fuzzer-no-link,$(FUZZ_FLAGS)) -I. $(STB_CFLAGS) $(FUZZ_LUA_CFLAGS) \
	  $(MHD_CFLAGS) -c $< -o $@

$(FUZZ_BINARIES): $(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c ecs_sched.h $(BUILD)/fuzz/impl.o
	@mkdir -p $(@D)
	clang $(FUZZ_FLAGS) -DECS_SCHED__IMPLEMENTED -I. $(STB_CFLAGS) $(FUZZ_LUA_CFLAGS) \
	  $(MHD_CFLAGS) $< $(BUILD)/fuzz/impl.o $(FUZZ_LIBS) -o $@

# The corpus to run: the seeds copied into the growing one.
fuzz_corpus = mkdir -p $(BUILD)/fuzz/corpus/$(1) && cp tests/fuzz/corpus/$(1)/* $(BUILD)/fuzz/corpus/$(1)/
fuzz_regressions = $(wildcard tests/fuzz/regressions/$(1)/*)

FUZZ_SMOKES := $(addprefix fuzz-,$(addsuffix -smoke,$(FUZZ_TARGETS)))
FUZZ_LONGS  := $(addprefix fuzz-,$(FUZZ_TARGETS))
.PHONY: $(FUZZ_SMOKES) $(FUZZ_LONGS)

fuzz-smoke: deps
	+@$(MAKE) --no-print-directory $(FUZZ_SMOKES)

# (the smoke run starts from the seeds alone, in a corpus of its own: the same work each time)
$(FUZZ_SMOKES): fuzz-%-smoke: $(BUILD)/fuzz/fuzz_%
	@rm -rf $(BUILD)/fuzz/smoke/$* && mkdir -p $(BUILD)/fuzz/smoke/$* && \
	  cp tests/fuzz/corpus/$*/* $(BUILD)/fuzz/smoke/$*/
	$(if $(call fuzz_regressions,$*),./$< $(call fuzz_run_flags,$*) $(call fuzz_regressions,$*))
	./$< -max_total_time=$(FUZZ_SMOKE_SECONDS) -seed=1 $(call fuzz_run_flags,$*) \
	  $(BUILD)/fuzz/smoke/$*

$(FUZZ_LONGS): fuzz-%: $(BUILD)/fuzz/fuzz_%
	@$(call fuzz_corpus,$*)
	@echo "== fuzz_$*, $(FUZZ_SECONDS) s (its output: $(BUILD)/fuzz/$*.log)"
	@./$< -max_total_time=$(FUZZ_SECONDS) $(call fuzz_run_flags,$*) $(BUILD)/fuzz/corpus/$* \
	  >$(BUILD)/fuzz/$*.log 2>&1; status=$$?; \
	  grep -v '^#[0-9]*\s*\(NEW\|REDUCE\|pulse\|INITED\|RELOAD\)' $(BUILD)/fuzz/$*.log | tail -n 25; \
	  exit $$status

# One target after another (each uses one core), then what each did.
fuzz: deps $(FUZZ_BINARIES)
	@set -e; for t in $(FUZZ_TARGETS); do $(MAKE) --no-print-directory fuzz-$$t; done
	@printf '\n%-12s %12s %8s %8s %8s\n' target executions exec/s edges features
	@for t in $(FUZZ_TARGETS); do \
	  awk -v t=$$t '/number_of_executed_units/ {n=$$2} /average_exec_per_sec/ {s=$$2} \
	    /^#[0-9]+/ && /cov:/ {for (i=1;i<NF;i++) {if ($$i=="cov:") c=$$(i+1); if ($$i=="ft:") f=$$(i+1)}} \
	    END {printf "%-12s %12s %8s %8s %8s\n", t, n, s, c, f}' $(BUILD)/fuzz/$$t.log; done

# ---- examples ----

# Every examples/*.c built by gcc and clang under the sanitizers (C99, warnings as errors), by
# tcc, and by gcc as C11 with ECS_SCHED_THREADS (the parallel executor and the thread pool,
# under the sanitizers), each run; all four print the same thing, as the library promises.
# build/examples/<build>/<example> and its .out; build/examples/<example>.same when the
# outputs agree.
EXAMPLES       := $(basename $(notdir $(wildcard examples/*.c)))
EXAMPLE_CCS    := $(COMPILERS) tcc gcc-threads
EXAMPLE_BUILDS := $(foreach c,$(EXAMPLE_CCS),$(addprefix $(BUILD)/examples/$(c)/,$(EXAMPLES)))

EXAMPLE_OUTS   := $(addsuffix .out,$(EXAMPLE_BUILDS))

examples-check: $(addprefix $(BUILD)/examples/,$(addsuffix .same,$(EXAMPLES)))

# Reached through pattern rules only, they would count as intermediate and be deleted.
.SECONDARY: $(EXAMPLE_BUILDS) $(EXAMPLE_OUTS)

# Each sanitized build compiles the implementation once (with the JSON files, which prefabs.c
# reads) and links it into every example, compiled with the implementation left out
# (-DECS_SCHED__IMPLEMENTED, the header's guard against a second copy); an example that sets
# the implementation's hooks compiles its own (EXAMPLES_OWN_IMPL), and tcc, which takes a
# moment for it, compiles every example whole. (compile-checks builds every example whole,
# optimized.)
EXAMPLES_OWN_IMPL := tour_commands hot_reload scripted remote
example_impl = $(if $(filter $(1),$(EXAMPLES_OWN_IMPL)),,-DECS_SCHED__IMPLEMENTED $(2))

# $(1): the build's name, $(2): its compiler, $(3): its flags, $(4): its libraries.
define example_rule
$(BUILD)/examples/$(1)/impl.o: tests/compile/two_tu_impl.c ecs_sched.h
	@mkdir -p $$(@D)
	$(2) $(3) $(EXAMPLE_SANITIZE) -DECS_SCHED_JSON -I. $(STB_CFLAGS) -c $$< -o $$@
$(BUILD)/examples/$(1)/%: examples/%.c ecs_sched.h $(BUILD)/examples/$(1)/impl.o
	@mkdir -p $$(@D)
	$(2) $(3) $(EXAMPLE_SANITIZE) -I. $(STB_CFLAGS) $$< $$(call example_impl,$$*,$$(@D)/impl.o) \
	  $(STB_LIBS) $(EXAMPLE_LIBS) $(4) $$(EXAMPLE_EXTRA) -o $$@
endef
$(foreach c,$(COMPILERS),$(eval $(call example_rule,$(c),$(c),$(STRICT))))
$(eval $(call example_rule,gcc-threads,gcc,$(THREADED),-lpthread))

$(BUILD)/examples/tcc/%: examples/%.c ecs_sched.h
	@mkdir -p $(@D)
	$(TCC) -std=c99 -I. $(STB_CFLAGS) $< $(STB_LIBS) $(EXAMPLE_LIBS) $(EXAMPLE_EXTRA) -o $@

$(BUILD)/examples/%.out: $(BUILD)/examples/%
	@echo "== $(*D): examples/$(*F)"
	./$< $(EXAMPLE_ARGS) > $@

$(BUILD)/examples/%.same: $(foreach c,$(EXAMPLE_CCS),$(BUILD)/examples/$(c)/%.out)
	cmp $(BUILD)/examples/gcc/$*.out $(BUILD)/examples/clang/$*.out
	cmp $(BUILD)/examples/gcc/$*.out $(BUILD)/examples/tcc/$*.out
	cmp $(BUILD)/examples/gcc/$*.out $(BUILD)/examples/gcc-threads/$*.out
	@touch $@

# Every examples/*.cpp built by g++ and clang++ (C++11, warnings as errors, the sanitizers)
# and run: each prints what the C example of the same name prints.
CXX_EXAMPLES       := $(basename $(notdir $(wildcard examples/*.cpp)))
CXX_EXAMPLE_CCS    := $(foreach c,$(COMPILERS),$(CXX_$(c)))
CXX_EXAMPLE_BUILDS := $(foreach c,$(CXX_EXAMPLE_CCS),$(addprefix $(BUILD)/examples/$(c)/,$(CXX_EXAMPLES)))

examples-check: $(addprefix $(BUILD)/examples/,$(addsuffix .cxx-same,$(CXX_EXAMPLES)))

.SECONDARY: $(CXX_EXAMPLE_BUILDS) $(addsuffix .out,$(CXX_EXAMPLE_BUILDS))

define cxx_example_rule
$(BUILD)/examples/$(1)/%: examples/%.cpp ecs_sched.h
	@mkdir -p $$(@D)
	$(1) $(STRICTXX) -Wpedantic $(EXAMPLE_SANITIZE) -I. $(STB_CFLAGS) $$< $(STB_LIBS) -o $$@
endef
$(foreach c,$(CXX_EXAMPLE_CCS),$(eval $(call cxx_example_rule,$(c))))

$(BUILD)/examples/%.cxx-same: $(foreach c,$(CXX_EXAMPLE_CCS),$(BUILD)/examples/$(c)/%.out) \
                              $(BUILD)/examples/gcc/%.out
	@set -e; for c in $(CXX_EXAMPLE_CCS); do cmp $(BUILD)/examples/gcc/$*.out $(BUILD)/examples/$$c/$*.out; done
	@touch $@

# ---- the explorer page in a browser ----

# The explorer page (src/remote_page.html, served by examples/remote.c) in Debian's headless
# Chromium, driven by puppeteer-core from npm (the version pinned in tests/browser/package.json
# and its lock file), installed into build/browser; node's test runner runs
# tests/browser/*.test.js. SCREENSHOT=docs/images/explorer.png also saves the page there.
BROWSER_MODULES := $(BUILD)/browser/node_modules/.installed

$(BROWSER_MODULES): tests/browser/package.json tests/browser/package-lock.json
	@mkdir -p $(BUILD)/browser
	cp tests/browser/package.json tests/browser/package-lock.json $(BUILD)/browser/
	cd $(BUILD)/browser && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

browser-test: $(BROWSER_MODULES) $(BUILD)/examples/gcc/remote
	REMOTE_EXAMPLE=$(BUILD)/examples/gcc/remote node --test $(wildcard tests/browser/*.test.js)

# ---- the manual ----

# Every ```c block of README.md and docs/*.md built by gcc (C99, warnings as errors, the
# sanitizers; marked ones as C11 with ECS_SCHED_THREADS) against the unit tests'
# implementation object, and run, two at a time; its links checked too. The markers and the
# rest are described in tools/check_manual.py. MANUAL_PAGES=docs/x.md checks one page.
.PHONY: manual-check
manual-check: ecs_sched.h $(BUILD)/gcc/impl.o $(BUILD)/gcc-mt/impl.o
	$(PYTHON) tools/check_manual.py --out $(BUILD)/manual --jobs 2 --cc gcc \
	  --cflags "$(STRICT) $(EXAMPLE_SANITIZE) -I. $(STB_CFLAGS)" \
	  --impl $(BUILD)/gcc/impl.o --libs "$(STB_LIBS) $(EXAMPLE_LIBS) $(MHD_LIBS) -lpthread" \
	  --threads-cflags "$(THREADED) $(EXAMPLE_SANITIZE) -I. $(STB_CFLAGS)" \
	  --threads-impl $(BUILD)/gcc-mt/impl.o --threads-libs "$(STB_LIBS) $(EXAMPLE_LIBS) $(MHD_LIBS) -lpthread" \
	  $(MANUAL_PAGES)

# ---- what make test builds first ----

# Every program and object the tests need (after the lists above: a rule's prerequisites are
# read where it stands); running them is left to unit, compile-checks, examples-check...
test-binaries: $(filter-out $(CLANG_RUN_LATER),$(UNIT_BINARIES) $(THREADS_BINARIES) $(TSAN_BINARIES)) \
               $(addsuffix .o,$(CLANG_RUN_LATER)) $(LUA_BINARIES) \
               $(COMPILE_BUILDS) $(EXAMPLE_BUILDS) $(CXX_EXAMPLE_BUILDS)

# ---- coverage ----

# Which lines and branches of the implementation the unit tests run: every tests/test_*.c built
# by gcc with --coverage (-O0, no sanitizers) against a copy of the header whose lines name their
# place in src/ (tools/amalgamate.py --line-directives), so that gcov counts each line against
# its module: the tests without threads (C99, the optional modules of the unit tests), the
# remote protocol's test, the Lua driver's (LuaJIT), and with threads (C11, ECS_SCHED_THREADS)
# the tests whose point is threads (TSAN_TESTS: the parallel executor, the pool). The allocation
# failure sweep runs at every point (each child writes its counts at exit; a minute or two; set
# COVERAGE_OOM_STEP=k to sweep every k-th point only).
# The counts are updated atomically: threads share them, and a count two threads race on can
# come out negative, which gcov reports as such.
# lcov reports the src/ modules only: a table of each module's lines, functions and branches
# with the totals (build/coverage/summary.txt, also printed), and each module annotated in
# build/coverage/html/index.html. (geninfo's Perl warnings about redefined subroutines, which
# Debian's lcov prints on every run, go to build/coverage/lcov.log.)
COV          := $(BUILD)/coverage
COV_HEADER   := $(COV)/include/ecs_sched.h
COV_CFLAGS   := -g -O0 --coverage -fprofile-update=atomic -I$(COV)/include -I.
COVERAGE_OOM_STEP ?= 1
COV_BINARIES := $(addprefix $(COV)/c99/,$(TESTS)) $(addprefix $(COV)/mt/,$(TSAN_TESTS)) \
                $(COV)/lua/test_lua_scripts
LCOV         := lcov --quiet --rc lcov_branch_coverage=1

$(COV_HEADER): $(SOURCES)
	$(PYTHON) tools/amalgamate.py --line-directives $@

# $(1): the configuration's directory; $(2): its flags; $(3): its libraries.
define coverage_config
$(1)/impl.o: tests/impl.c $(COV_HEADER)
	@mkdir -p $$(@D)
	gcc $(2) $(COV_CFLAGS) $(STB_CFLAGS) -c $$< -o $$@
$(1)/%.o: tests/%.c $(COV_HEADER) $(TEST_HEADERS)
	@mkdir -p $$(@D)
	gcc $(2) $(COV_CFLAGS) $(STB_CFLAGS) -c $$< -o $$@
$(1)/%: $(1)/%.o $(1)/impl.o
	gcc --coverage $$< $$(call impl_for,$$*,$(1)) $(STB_LIBS) -lcmocka $(TEST_LIBS) $(3) -o $$@
endef
$(eval $(call coverage_config,$(COV)/c99,$(STRICT) $(OPTIONAL),))
$(eval $(call coverage_config,$(COV)/mt,$(THREADED) $(OPTIONAL),-lpthread))
.SECONDARY: $(COV_BINARIES) $(addsuffix .o,$(COV_BINARIES)) $(COV)/c99/impl.o $(COV)/mt/impl.o

$(COV)/lua/test_lua_scripts: tests/test_lua_scripts.c $(COV_HEADER) $(TEST_HEADERS)
	@mkdir -p $(@D)
	gcc $(STRICT) -DECS_SCHED_LUA $(COV_CFLAGS) $(STB_CFLAGS) $$(pkg-config --cflags luajit) \
	  -c $< -o $@.o
	gcc --coverage $@.o $(STB_LIBS) $$(pkg-config --libs luajit) -lcmocka -lm -o $@

.PHONY: coverage coverage-binaries
coverage-binaries: $(COV_BINARIES) $(NATIVE_SCRIPTS)

coverage: deps
	@sh tools/install_deps.sh coverage
	$(MAKE) $(PARALLEL) coverage-binaries
	@find $(COV) -name '*.gcda' -delete
	@set -e; for t in $(COV_BINARIES); do echo "== $$t"; \
	  case $$t in */test_oom) OOM_LSAN=1 OOM_POINTS=0/$(COVERAGE_OOM_STEP) ./$$t;; \
	              *) ./$$t;; esac > $$t.log 2>&1 || { cat $$t.log; exit 1; }; done
	@rm -rf $(COV)/html
	@echo "== lcov: the counts of every program"
	@$(LCOV) --capture --directory $(COV) --base-directory . -o $(COV)/all.info \
	  > $(COV)/lcov.log 2>&1 || { cat $(COV)/lcov.log; exit 1; }
	@$(LCOV) --extract $(COV)/all.info '$(CURDIR)/src/*' -o $(COV)/src.info >> $(COV)/lcov.log 2>&1 \
	  || { cat $(COV)/lcov.log; exit 1; }
	@genhtml --quiet --branch-coverage --title "ecs_sched.h, the unit tests" -o $(COV)/html \
	  $(COV)/src.info >> $(COV)/lcov.log 2>&1 || { cat $(COV)/lcov.log; exit 1; }
	@$(LCOV) --list $(COV)/src.info 2>> $(COV)/lcov.log > $(COV)/summary.txt
	@cat $(COV)/summary.txt
	@echo "each module annotated: $(COV)/html/index.html"

# ---- benchmarks ----

# The two copies trace_off compares are compiled with their functions and loops on 64-byte
# boundaries: otherwise where each copy's dispatch loop happens to fall decides the row (up to
# 1.2x either way), not what ECS_SCHED_TRACE changes.
BENCH_FLAGS := -std=c11 -O2 -Wall -Wextra -Wpedantic -DECS_SCHED_THREADS -DECS_SCHED_JSON \
               -DECS_SCHED_NATIVE_SCRIPTS -I. $(STB_CFLAGS)
# The bench program itself (not the copies beside it) serves the remote protocol for the
# remote rows (bench/remote_rows.c): ECS_SCHED_REMOTE and libmicrohttpd.
BENCH_REMOTE = -DECS_SCHED_REMOTE $(MHD_CFLAGS)
# The Lua rows (bench/lua_rows.c) run in the bench against LuaJIT ("lua_" rows) and in a second
# program against Lua 5.4 ("lua54_" rows, build/bench_lua54.json).
BENCH_LUA = -DECS_SCHED_LUA $$(pkg-config --cflags $(1)) $$(pkg-config --libs $(1))
BENCH_ALIGNED := -falign-functions=64 -falign-loops=64

# make bench FLECS_DIR=<a directory holding flecs.c and flecs.h of a flecs release> adds the
# rows that run the same work through flecs (bench/flecs_rows.c). flecs.c is compiled once, as
# its own object, in its release configuration (NDEBUG), and kept in build/.
ifdef FLECS_DIR
BENCH_FLECS_OBJ   := $(BUILD)/flecs.o
BENCH_FLECS_FLAGS := -DBENCH_FLECS -DBENCH_FLECS_DIR='"$(FLECS_DIR)"' -I$(FLECS_DIR)
$(BUILD)/flecs.o: $(FLECS_DIR)/flecs.c $(FLECS_DIR)/flecs.h
	@mkdir -p $(@D)
	cc -std=gnu99 -O2 -DNDEBUG -I$(FLECS_DIR) -c $< -o $@
endif

bench: deps ecs_sched.h $(BENCH_FLECS_OBJ) $(NATIVE_SCRIPTS)
	@mkdir -p $(BUILD)
	cc $(BENCH_FLAGS) $(BENCH_ALIGNED) -c bench/untraced_copy.c -o $(BUILD)/bench_untraced_copy.o
	cc $(BENCH_FLAGS) $(BENCH_ALIGNED) -c bench/traced_copy.c -o $(BUILD)/bench_traced_copy.o
	cc $(BENCH_FLAGS) $(BENCH_REMOTE) $(BENCH_FLECS_FLAGS) bench/bench.c bench/game_loop_row.c $(BUILD)/bench_untraced_copy.o $(BUILD)/bench_traced_copy.o $(BENCH_FLECS_OBJ) $(STB_LIBS) $(JSON_LIBS) $(MHD_LIBS) $(call BENCH_LUA,luajit) -ldl -rdynamic -lpthread -lm -o $(BUILD)/bench
	cc $(BENCH_FLAGS) $(BENCH_REMOTE) bench/bench.c bench/game_loop_row.c $(BUILD)/bench_untraced_copy.o $(BUILD)/bench_traced_copy.o $(STB_LIBS) $(JSON_LIBS) $(MHD_LIBS) $(call BENCH_LUA,lua5.4) -ldl -rdynamic -lpthread -lm -o $(BUILD)/bench_lua54
	./$(BUILD)/bench
	./$(BUILD)/bench_lua54 lua54_ --json=$(BUILD)/bench_lua54.json

# The benchmark built against the ecs_sched.h of an earlier commit and against the working
# tree's, run in alternation (ROUNDS each), each row's new/old ratio with its spread; a row over
# 5 % worse beyond the spread is named, and the exit status is 1 (tools/bench_compare.py).
#   make bench-compare BASE=<git ref> [ROUNDS=5] [ROWS="spawn commands"]
ROUNDS ?= 5
bench-compare: deps ecs_sched.h
	@test -n "$(BASE)" || { echo "make bench-compare BASE=<git ref>: which commit to compare with"; exit 2; }
	$(PYTHON) tools/bench_compare.py $(BASE) --rounds $(ROUNDS) $(ROWS)

clean:
	rm -rf $(BUILD)
