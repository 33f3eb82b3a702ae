# graphso build. `make` builds, `make test` installs dependencies, builds and runs every test
# binary, `make demo` runs a concurrent batch in every sharing mode, `make asan` runs the tests
# under AddressSanitizer + UBSan, `make bench` runs the benchmark (`make bench-quick`: the same
# experiments on small graphs, in under a minute), `make install PREFIX=...` installs graphso.

CXX      ?= g++
BUILD    ?= build
OPT      ?= -O2
SANITIZE ?=
EXTRA_WARN ?=
JOBS     := -j$(shell nproc)
# x86-64-v2 (2009 on): hardware POPCNT for the frontier counts.
CXXFLAGS := -std=c++20 $(OPT) -march=x86-64-v2 -g -Wall -Wextra -Werror $(EXTRA_WARN) -fopenmp -I. $(SANITIZE) -MMD -MP
LDFLAGS  := -fopenmp $(SANITIZE)
LDLIBS   := -luring -lpmem -lboost_program_options -lfmt -lz -lstreamvbyte

# Debian 12 packages the build, tests and tools use (see README "Dependencies"). The Python
# scripts run on Debian's /usr/bin/python3, which is where python3-matplotlib installs.
PACKAGES := g++ make pkg-config git liburing-dev libpmem-dev libboost-program-options-dev libfmt-dev \
            catch2 libtomlplusplus-dev zlib1g-dev libstreamvbyte-dev libdivide-dev python3 python3-matplotlib
# Spark (tools/spark, `export --format parquet`, the Spark tests): Java and a virtual environment
# of the checkout's own with tools/spark's pinned Python packages (pyspark, pyarrow). The demo
# needs none of it; the benchmark's `spark` experiment does.
SPARK_PACKAGES := python3-venv openjdk-17-jdk-headless maven
SPARK_VENV := .venv-spark
# tools/spark's GraphX back end (tools/spark/graphx): a Scala jar Maven builds against the Spark
# pyspark ships, with pinned versions; Maven fetches them into ~/.m2 once, then builds offline.
# Always under build/ (tools/spark looks for it there), whatever BUILD is: no C++ flag changes it.
GRAPHX_JAR := build/graphx/graphso-graphx.jar
GRAPHX_SRCS := tools/spark/graphx/pom.xml $(shell find tools/spark/graphx/src -name '*.scala')

LIB_SRCS  := $(wildcard base/*.cc io/*.cc datasets/*.cc engine/*.cc engine/gridgraph/*.cc engine/xstream/*.cc jobs/*.cc \
                        middleware/*.cc store/*.cc store/*/*.cc prep/*.cc integrations/*.cc reference/*.cc)
TOOL_SRCS := $(wildcard tools/graphso/*.cc)
UNIT_SRCS := $(wildcard tests/unit/*.cc) tests/store_checks.cc tests/test_graphs.cc tests/catch_main.cc
E2E_SRCS  := $(wildcard tests/e2e/*.cc) tests/store_checks.cc tests/test_graphs.cc tests/catch_main.cc
# The fuzz targets, run by the test suite over their corpus and generated inputs (fuzz_replay).
FUZZ_TARGETS := job_file edge_list graph_dir store dimacs gapbs metis graphalytics edge_stream
FUZZ_SRCS := $(FUZZ_TARGETS:%=tests/fuzz/fuzz_%.cc) tests/fuzz/fuzz_scratch.cc
FUZZ_TEST_SRCS := $(FUZZ_SRCS) tests/fuzz/fuzz_replay.cc tests/catch_main.cc

LIB_OBJS  := $(LIB_SRCS:%.cc=$(BUILD)/%.o)
TOOL_OBJS := $(TOOL_SRCS:%.cc=$(BUILD)/%.o)
UNIT_OBJS := $(UNIT_SRCS:%.cc=$(BUILD)/%.o)
E2E_OBJS  := $(E2E_SRCS:%.cc=$(BUILD)/%.o)
FUZZ_TEST_OBJS := $(FUZZ_TEST_SRCS:%.cc=$(BUILD)/%.o)

GRAPHSO   := $(BUILD)/graphso
# The bench's textbook in-memory kernels (tools/bench/textbook.cc): no graphso code in it.
TEXTBOOK  := $(BUILD)/textbook
# The bench's client of `ingest --input -` (tools/bench/stream_client.cc): pieces in, acknowledgements timed.
STREAM_CLIENT := $(BUILD)/stream_client
TESTS     := $(BUILD)/tests/unit_tests $(BUILD)/tests/e2e_tests $(BUILD)/tests/fuzz_tests $(BUILD)/tests/peak_rss

.PHONY: test-long all deps deps-core deps-spark test asan demo bench bench-quick fuzz install clean
all: $(GRAPHSO) $(TEXTBOOK) $(STREAM_CLIENT) $(TESTS)

$(BUILD)/%.o: %.cc
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -c $< -o $@

$(BUILD)/libgraphso.a: $(LIB_OBJS)
	ar rcs $@ $^

$(TEXTBOOK): $(BUILD)/tools/bench/textbook.o
	$(CXX) $(LDFLAGS) $^ -o $@

$(STREAM_CLIENT): $(BUILD)/tools/bench/stream_client.o $(BUILD)/libgraphso.a
	$(CXX) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(GRAPHSO): $(TOOL_OBJS) $(BUILD)/libgraphso.a
	$(CXX) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/tests/unit_tests: $(UNIT_OBJS) $(BUILD)/libgraphso.a
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/tests/e2e_tests: $(E2E_OBJS) $(BUILD)/libgraphso.a
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(FUZZ_TEST_OBJS): CXXFLAGS += -DGRAPHSO_FUZZ_REPLAY
$(BUILD)/tests/fuzz_tests: $(FUZZ_TEST_OBJS) $(BUILD)/libgraphso.a
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $^ $(LDLIBS) -o $@

# Measures a child's peak RSS for the memory tests (tests/peak_rss.cc): small and uninstrumented,
# so what it forks starts small in every build.
$(BUILD)/tests/peak_rss: tests/peak_rss.cc
	@mkdir -p $(dir $@)
	$(CXX) -std=c++20 -O2 -Wall -Wextra -Werror $< -o $@

# Idempotent: installs only when a package is missing (CI starts on a clean Debian 12).
# `make deps` installs everything; the demo and the benchmark only what they use (deps-core).
deps: deps-core deps-spark

deps-core:
	@missing=""; for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

deps-spark: deps-core
	@missing=""; for p in $(SPARK_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi
	@$(SPARK_VENV)/bin/python -c 'import pyspark, pyarrow, numpy' 2>/dev/null || { \
	  echo "installing tools/spark/requirements.txt into $(SPARK_VENV)"; \
	  /usr/bin/python3 -m venv $(SPARK_VENV) && \
	  $(SPARK_VENV)/bin/pip install -q --disable-pip-version-check -r tools/spark/requirements.txt; }
	@$(MAKE) --no-print-directory $(GRAPHX_JAR)

$(GRAPHX_JAR): $(GRAPHX_SRCS)
	cd tools/spark/graphx && { mvn -o -q -B package >/dev/null 2>&1 || mvn -q -B package; }
	@test -f $@ && touch $@

test: deps
	$(MAKE) $(JOBS) all
	tests/run_tests.sh $(BUILD)

# The long checks (Catch2 tag [long], hidden from `make test`): every bit of every store metadata
# word flipped, in each mode. CI runs it after `make test`.
test-long: deps
	$(MAKE) $(JOBS) all
	tests/run_tests.sh $(BUILD) "[long]"

# GCC 12 reports false maybe-uninitialized warnings inside libstdc++ (std::regex, used by Catch2)
# when instrumenting; that one warning is off in this build only. Undefined behaviour stops the
# program (-fno-sanitize-recover), so a report fails its test instead of scrolling by (a gear
# store memcpy from an empty span's null pointer did). Objects built with other flags are not
# rebuilt by make: `rm -rf build-asan` after changing them.
asan: deps
	$(MAKE) $(JOBS) all BUILD=build-asan OPT=-O1 EXTRA_WARN=-Wno-maybe-uninitialized \
	  SANITIZE="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
	tests/run_tests.sh build-asan

demo: deps-core
	$(MAKE) $(JOBS) $(GRAPHSO)
	tools/demo.sh $(BUILD)

# deps, not deps-core: the `spark` experiment runs tools/spark on both back ends.
bench: deps
	$(MAKE) $(JOBS) $(GRAPHSO) $(TEXTBOOK) $(STREAM_CLIENT)
	/usr/bin/python3 tools/bench/bench.py --graphso $(GRAPHSO)

bench-quick: deps
	$(MAKE) $(JOBS) $(GRAPHSO) $(TEXTBOOK) $(STREAM_CLIENT)
	/usr/bin/python3 tools/bench/bench.py --quick --graphso $(GRAPHSO)

# libFuzzer (clang, from Debian) on every fuzz target (job file, edge lists, graph directory,
# store, the field's graph formats), FUZZ_SECONDS each (default 300), from the checked-in corpus
# and what earlier runs found (build-fuzz/corpus/<target>). The library is built again with clang, instrumented; a crash, a
# sanitizer report or a rejection of more than one line fails the target.
FUZZ_SECONDS ?= 300
FUZZ_BUILD := build-fuzz
FUZZ_FLAGS := -std=c++20 -g -O1 -march=x86-64-v2 -fopenmp -I. -fsanitize=address,undefined -MMD -MP
FUZZ_LIB_OBJS := $(LIB_SRCS:%.cc=$(FUZZ_BUILD)/%.o)
$(FUZZ_BUILD)/%.o: %.cc
	@mkdir -p $(dir $@)
	clang++ $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c $< -o $@
$(FUZZ_BUILD)/libgraphso.a: $(FUZZ_LIB_OBJS)
	ar rcs $@ $^
$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.cc tests/fuzz/fuzz_scratch.cc $(FUZZ_BUILD)/libgraphso.a
	clang++ $(FUZZ_FLAGS) -fsanitize=fuzzer $^ $(LDLIBS) -o $@
fuzz: deps-core
	@missing=""; for p in clang libclang-rt-14-dev libomp-14-dev; do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; fi
	$(MAKE) $(JOBS) $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)
	@# The checked-in seeds are copied into the run's own corpus: libFuzzer rewrites the inputs it
	@# reduces where it found them, which must not be the repository.
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$t && cp -n tests/fuzz/corpus/$$t/* $(FUZZ_BUILD)/corpus/$$t/; \
	  echo "== fuzz_$$t, $(FUZZ_SECONDS) s"; \
	  $(FUZZ_BUILD)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -rss_limit_mb=4096 -timeout=20 \
	    -artifact_prefix=$(FUZZ_BUILD)/ $(FUZZ_BUILD)/corpus/$$t || exit 1; \
	done

# The binary, the report plotter and the example job file; PREFIX=~/.local for one user.
PREFIX ?= /usr/local
install: $(GRAPHSO)
	install -d $(PREFIX)/bin $(PREFIX)/share/graphso
	install -m 755 $(GRAPHSO) $(PREFIX)/bin/graphso
	install -m 755 tools/plot_report.py $(PREFIX)/share/graphso/plot_report.py
	install -m 644 docs/examples/batch.toml $(PREFIX)/share/graphso/batch.toml

clean:
	rm -rf build build-asan build-fuzz

-include $(LIB_OBJS:.o=.d) $(TOOL_OBJS:.o=.d) $(BUILD)/tools/bench/textbook.d $(BUILD)/tools/bench/stream_client.d $(UNIT_OBJS:.o=.d) $(E2E_OBJS:.o=.d) $(FUZZ_TEST_OBJS:.o=.d) $(FUZZ_LIB_OBJS:.o=.d)
