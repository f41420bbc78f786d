# ecs_sched.h: build, test and benchmark.
#   make example             install what is missing, build and run the examples
#   make test                the whole suite: gcc and clang, without and with threads, under
#                            ASan+UBSan, the threaded tests under TSan, compile checks
#   make graphs              write build/Main.dot (and .svg with Graphviz) from physics_plugin
#   make bench               benchmarks; writes build/bench.json
#   make amalgamate          regenerate ecs_sched.h from src/
#   make check-amalgamation  fail when ecs_sched.h differs from a fresh generation
#   make check-modules       each src/ module parses on its own (what an editor sees)
#   make check-doc           the header's documentation block names every public function

PYTHON    ?= python3
BUILD     := build
STB_CFLAGS = $(shell pkg-config --cflags stb)
STB_LIBS   = $(shell pkg-config --libs stb)
STRICT    := -std=c99 -Wall -Wextra -Wpedantic -Werror
THREADED  := -std=c11 -Wall -Wextra -Wpedantic -Werror -DECS_SCHED_THREADS
STRICTXX  := -std=c++11 -Wall -Wextra -Werror
SANITIZE  := -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
TSAN      := -g -O1 -fsanitize=thread -fno-omit-frame-pointer
COMPILERS := gcc clang
TESTS     := $(basename $(notdir $(wildcard tests/test_*.c)))
TEST_HEADERS := $(wildcard tests/*.h)
# The tests whose point is threads; the rest run threaded under ASan+UBSan only.
TSAN_TESTS := $(basename $(notdir $(wildcard tests/test_pool.c tests/test_parallel*.c)))
SOURCES   := $(wildcard src/*.h) tools/amalgamate.py

export ASAN_OPTIONS  := detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS := print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS  := halt_on_error=1:second_deadlock_stack=1

.PHONY: all deps example examples-check graphs test test-binaries unit unit-threads unit-tsan \
        compile-checks check-modules check-doc \
        bench amalgamate \
        check-amalgamation clean

all: test

deps:
	@sh tools/install_deps.sh

ecs_sched.h: $(SOURCES)
	$(PYTHON) tools/amalgamate.py

amalgamate:
	$(PYTHON) tools/amalgamate.py

check-amalgamation:
	$(PYTHON) tools/amalgamate.py --check

# ---- example ----

example: deps
	@mkdir -p $(BUILD)
	cc -std=c99 -O2 -Wall -Wextra -Wpedantic -I. $(STB_CFLAGS) examples/world_demo.c $(STB_LIBS) -o $(BUILD)/world_demo
	./$(BUILD)/world_demo
	cc -std=c99 -O2 -Wall -Wextra -Wpedantic -I. $(STB_CFLAGS) examples/physics_plugin.c $(STB_LIBS) -o $(BUILD)/physics_plugin
	./$(BUILD)/physics_plugin

graphs: deps ecs_sched.h
	sh tools/graph.sh

# ---- tests ----

# The test programs build in parallel (one job per core); they run one after another.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

test: deps
	$(MAKE) -j$(JOBS) test-binaries
	$(MAKE) -j$(JOBS) check-modules
	$(MAKE) check-doc unit unit-threads unit-tsan compile-checks examples-check graphs
	@echo "all tests passed"

# build/<compiler>/      C99, no threads, ASan+UBSan
# build/<compiler>-mt/   C11 with ECS_SCHED_THREADS, ASan+UBSan
# build/<compiler>-tsan/ C11 with ECS_SCHED_THREADS, ThreadSanitizer
UNIT_BINARIES    := $(foreach c,$(COMPILERS),$(addprefix $(BUILD)/$(c)/,$(TESTS)))
THREADS_BINARIES := $(foreach c,$(COMPILERS),$(addprefix $(BUILD)/$(c)-mt/,$(TESTS)))
TSAN_BINARIES    := $(foreach c,$(COMPILERS),$(addprefix $(BUILD)/$(c)-tsan/,$(TSAN_TESTS)))

test-binaries: $(UNIT_BINARIES) $(THREADS_BINARIES) $(TSAN_BINARIES)

unit: $(UNIT_BINARIES)
	@set -e; for t in $(UNIT_BINARIES); do echo "== $$t"; ./$$t; done

unit-threads: $(THREADS_BINARIES)
	@set -e; for t in $(THREADS_BINARIES); do echo "== $$t"; ./$$t; done

unit-tsan: $(TSAN_BINARIES)
	@set -e; for t in $(TSAN_BINARIES); do echo "== $$t"; ./$$t; done

define unit_rule
$(BUILD)/$(1)/%: tests/%.c ecs_sched.h $(TEST_HEADERS)
	@mkdir -p $$(dir $$@)
	$(1) $(STRICT) $(SANITIZE) -I. $(STB_CFLAGS) $$< $(STB_LIBS) -lcmocka -o $$@
$(BUILD)/$(1)-mt/%: tests/%.c ecs_sched.h $(TEST_HEADERS)
	@mkdir -p $$(dir $$@)
	$(1) $(THREADED) $(SANITIZE) -I. $(STB_CFLAGS) $$< $(STB_LIBS) -lcmocka -lpthread -o $$@
$(BUILD)/$(1)-tsan/%: tests/%.c ecs_sched.h $(TEST_HEADERS)
	@mkdir -p $$(dir $$@)
	$(1) $(THREADED) $(TSAN) -I. $(STB_CFLAGS) $$< $(STB_LIBS) -lcmocka -lpthread -o $$@
endef
$(foreach c,$(COMPILERS),$(eval $(call unit_rule,$(c))))

# Each check builds (and runs) a program in a configuration users rely on.
compile-checks: ecs_sched.h
	@mkdir -p $(BUILD)/compile
	@set -e; for cc in $(COMPILERS); do \
	  cxx=$$( [ $$cc = gcc ] && echo g++ || echo clang++ ); \
	  echo "== $$cc: header and implementation as C++"; \
	  $$cxx $(STRICTXX) $(SANITIZE) -I. $(STB_CFLAGS) tests/compile/cxx_impl.cpp $(STB_LIBS) -o $(BUILD)/compile/cxx_$$cc; \
	  ./$(BUILD)/compile/cxx_$$cc; \
	  echo "== $$cc: implementation in one of two translation units"; \
	  $$cc $(STRICT) $(SANITIZE) -I. $(STB_CFLAGS) tests/compile/two_tu_main.c tests/compile/two_tu_impl.c $(STB_LIBS) -o $(BUILD)/compile/two_tu_$$cc; \
	  ./$(BUILD)/compile/two_tu_$$cc; \
	  echo "== $$cc: the implementation optimized (-O2 -Werror)"; \
	  $$cc $(STRICT) -O2 -I. $(STB_CFLAGS) -c tests/compile/two_tu_impl.c -o $(BUILD)/compile/impl_o2_$$cc.o; \
	  if [ $$cc = gcc ]; then \
	    echo "== gcc: the implementation under the strictest aliasing check (-O2 -Wstrict-aliasing=1)"; \
	    gcc $(STRICT) -O2 -Wstrict-aliasing=1 -I. $(STB_CFLAGS) -c tests/compile/two_tu_impl.c -o $(BUILD)/compile/impl_alias_c99.o; \
	    gcc $(THREADED) -O2 -Wstrict-aliasing=1 -I. $(STB_CFLAGS) -c tests/compile/two_tu_impl.c -o $(BUILD)/compile/impl_alias_mt.o; \
	  fi; \
	  echo "== $$cc: ECS_SCHED_API=static"; \
	  $$cc $(STRICT) $(SANITIZE) -I. $(STB_CFLAGS) tests/compile/static_api.c $(STB_LIBS) -o $(BUILD)/compile/static_$$cc; \
	  ./$(BUILD)/compile/static_$$cc; \
	  echo "== $$cc: user of stb_ds short names, stb_ds implementation compiled by the user"; \
	  $$cc $(STRICT) $(SANITIZE) -I. $(STB_CFLAGS) tests/compile/stb_user_short_names.c tests/compile/stb_user_impl.c -o $(BUILD)/compile/stb_own_$$cc; \
	  ./$(BUILD)/compile/stb_own_$$cc; \
	  echo "== $$cc: user of stb_ds short names, stb_ds implementation from -lstb"; \
	  $$cc $(STRICT) $(SANITIZE) -I. $(STB_CFLAGS) tests/compile/stb_user_short_names.c tests/compile/stb_user_lib.c $(STB_LIBS) -o $(BUILD)/compile/stb_lib_$$cc; \
	  ./$(BUILD)/compile/stb_lib_$$cc; \
	  echo "== $$cc: threads: the implementation as C11 with ECS_SCHED_THREADS, the API used from C99 and C++"; \
	  $$cc $(THREADED) $(SANITIZE) -I. $(STB_CFLAGS) -c tests/compile/two_tu_impl.c -o $(BUILD)/compile/impl_mt_$$cc.o; \
	  $$cc $(STRICT) $(SANITIZE) -I. $(STB_CFLAGS) -c tests/compile/threads_api.c -o $(BUILD)/compile/threads_c99_$$cc.o; \
	  $$cxx -x c++ $(STRICTXX) $(SANITIZE) -I. $(STB_CFLAGS) -c tests/compile/threads_api.c -o $(BUILD)/compile/threads_cxx_$$cc.o; \
	  $$cc $(SANITIZE) $(BUILD)/compile/threads_c99_$$cc.o $(BUILD)/compile/impl_mt_$$cc.o $(STB_LIBS) -lpthread -o $(BUILD)/compile/threads_c99_$$cc; \
	  ./$(BUILD)/compile/threads_c99_$$cc; \
	  $$cxx $(SANITIZE) $(BUILD)/compile/threads_cxx_$$cc.o $(BUILD)/compile/impl_mt_$$cc.o $(STB_LIBS) -lpthread -o $(BUILD)/compile/threads_cxx_$$cc; \
	  ./$(BUILD)/compile/threads_cxx_$$cc; \
	  echo "== $$cc: the pool with ordinary fences only (ECS_SCHED_NO_MEMBARRIER)"; \
	  $$cc $(THREADED) $(SANITIZE) -DECS_SCHED_NO_MEMBARRIER -I. $(STB_CFLAGS) tests/test_pool.c $(STB_LIBS) -lcmocka -lpthread -o $(BUILD)/compile/pool_fenced_$$cc; \
	  ./$(BUILD)/compile/pool_fenced_$$cc > $(BUILD)/compile/pool_fenced_$$cc.out || { cat $(BUILD)/compile/pool_fenced_$$cc.out; exit 1; }; \
	  tail -n 1 $(BUILD)/compile/pool_fenced_$$cc.out; \
	  echo "== $$cc: the benchmarks compile, with threads and as C99 without"; \
	  $$cc $(THREADED) -O2 -I. $(STB_CFLAGS) -c bench/bench.c -o $(BUILD)/compile/bench_mt_$$cc.o; \
	  $$cc $(STRICT) -O2 -I. $(STB_CFLAGS) -c bench/bench.c -o $(BUILD)/compile/bench_c99_$$cc.o; \
	  echo "== $$cc: stb_ds allocations routed through the library's hooks"; \
	  $$cc $(STRICT) $(SANITIZE) -I. $(STB_CFLAGS) tests/compile/stb_routed.c -o $(BUILD)/compile/stb_routed_$$cc; \
	  ./$(BUILD)/compile/stb_routed_$$cc; \
	done

# Each module of src/ parses on its own, as an editor's language server reads it: a file that
# includes only that module, syntax only, as C99 and as C11 with threads. Warnings are off
# here: a module declares the few functions of later modules it calls, which it cannot see.
MODULES       := $(basename $(notdir $(filter-out src/doc.h,$(wildcard src/*.h))))
MODULE_CHECKS := $(foreach m,$(MODULES),$(BUILD)/modules/$(m).c99.ok $(BUILD)/modules/$(m).c11-threads.ok)

check-modules: $(MODULE_CHECKS)

$(BUILD)/modules/%.c99.ok: src/%.h $(wildcard src/*.h)
	@mkdir -p $(dir $@)
	@echo "== module src/$*.h on its own (C99)"
	@echo '#include "src/$*.h"' | gcc -std=c99 -fsyntax-only -w -I. $(STB_CFLAGS) -x c -
	@touch $@

$(BUILD)/modules/%.c11-threads.ok: src/%.h $(wildcard src/*.h)
	@mkdir -p $(dir $@)
	@echo "== module src/$*.h on its own (C11, ECS_SCHED_THREADS)"
	@echo '#include "src/$*.h"' | gcc -std=c11 -DECS_SCHED_THREADS -fsyntax-only -w -I. $(STB_CFLAGS) -x c -
	@touch $@

check-doc: ecs_sched.h
	$(PYTHON) tools/check_doc.py

# Each example built by both compilers under the sanitizers; both runs print the same thing.
EXAMPLES := $(basename $(notdir $(wildcard examples/*.c)))

examples-check: ecs_sched.h
	@mkdir -p $(BUILD)/examples
	@set -e; for ex in $(EXAMPLES); do \
	  for cc in $(COMPILERS); do \
	    echo "== $$cc: examples/$$ex.c"; \
	    $$cc $(STRICT) $(SANITIZE) -I. $(STB_CFLAGS) examples/$$ex.c $(STB_LIBS) -o $(BUILD)/examples/$${ex}_$$cc; \
	    ./$(BUILD)/examples/$${ex}_$$cc > $(BUILD)/examples/$${ex}_$$cc.out; \
	  done; \
	  cmp $(BUILD)/examples/$${ex}_gcc.out $(BUILD)/examples/$${ex}_clang.out; \
	done

# ---- benchmarks ----

bench: deps ecs_sched.h
	@mkdir -p $(BUILD)
	cc -std=c11 -O2 -Wall -Wextra -Wpedantic -DECS_SCHED_THREADS -I. $(STB_CFLAGS) bench/bench.c $(STB_LIBS) -lpthread -o $(BUILD)/bench
	./$(BUILD)/bench

clean:
	rm -rf $(BUILD)
