# shdb — GNU make build.
#
#   make                  build ./shdb and the libraries
#   make run              install what is missing, build, compile the bundled corpus
#   make check            install what is missing, build, run the whole test suite
#   make SANITIZE=1 check the same under AddressSanitizer + UBSan (objects in build-san/)
#   make bench            benchmarks (bench/)
#   make corpus-check     every unit of ../shared/corpus through the front end
#   make ir3-check        every unit of ../shared/corpus through the ir3 backend, verified
#                         and run in the simulator against the interpreter (ten targets)
#   make etna-check       the same through the etnaviv backend (Vivante targets)
#   make records-diff BASE=COMMIT  the corpus's records of this tree and of COMMIT compared
#   make fuzz FUZZ_S=N    each libFuzzer target (fuzz/) for N seconds (clang, in build-fuzz/)
#   make SANITIZE=1 san-corpus   the sanitizer build on a sample of ../shared/corpus
#   make nightly-demo     two small histories of the bundled corpus, and their reports
#   make report-screenshot  the demo's report as headless Chromium draws it (installs it)
#   make install PREFIX=/usr/local
#   make V=1 ...          show full commands
#
# Sources are picked up by directory, so adding a file needs no edit here.

SHELL      := /bin/bash
CC         ?= gcc
PREFIX     ?= /usr/local
SHARED     ?= $(abspath ../shared)
PROVE      ?= prove
NPROC      := $(shell nproc 2>/dev/null || echo 2)

ifeq ($(FUZZ),1)
# libFuzzer's builds (fuzz/README.md): clang, everything instrumented for coverage
BUILD      := build-fuzz
CC         := clang
OPT        := -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
              -fno-sanitize-recover=all
else ifeq ($(SANITIZE),1)
BUILD      := build-san
OPT        := -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
else
BUILD      := build
OPT        := -O2
endif

PKGS       := glslang SPIRV-Tools jansson libpcre2-8 zlib
# Read when the Makefile is parsed: the goals that install packages first (run,
# check, …) run `make deps`, then a sub-make that parses this afresh.
PKG_OK     := $(shell pkg-config --exists $(PKGS) 2>/dev/null && echo yes)
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

CFLAGS     ?= -g
ALL_CFLAGS  = -std=c11 -D_GNU_SOURCE $(OPT) $(CFLAGS) -Wall -Wextra -Werror \
              -Wno-missing-field-initializers -Wno-override-init -fno-common \
              -I. -I$(BUILD)/gen $(PKG_CFLAGS)
# glslang is C++ underneath: its C interface needs these beside pkg-config's answer
# (../shared/DESIGN.md, "Facts measured on these machines").
LDLIBS      = $(PKG_LIBS) -lSPIRV -lglslang-default-resource-limits -lSPIRV-Tools-opt \
              -lSPIRV-Tools -lstdc++ -lm -lpthread
ALL_LDFLAGS = $(OPT) $(LDFLAGS)

ifneq ($(V),1)
Q          := @
QUIET_CC    = @echo '   CC      ' $@;
QUIET_AR    = @echo '   AR      ' $@;
QUIET_LINK  = @echo '   LINK    ' $@;
QUIET_GEN   = @echo '   GEN     ' $@;
endif

# The vocabulary of records, the statistics table (stats/stats.def) and the
# stage names: below both the compiler, which writes records, and the tools,
# which read them (README.md, Layout).
VOCAB_SRC    := stats/stat.c stats/stage.c stats/json_text.c
# The compiler library: everything under compiler/ except its subcommands and
# the SPIR-V grammar generator (a program of its own, below).
COMPILER_SRC := $(filter-out compiler/cli/% compiler/spirv/gen/%,\
                  $(wildcard compiler/*.c compiler/*/*.c compiler/*/*/*.c)) \
                $(VOCAB_SRC)
# The tools on top of it: one folder per subcommand, plus stats/ used by several.
TOOLS_SRC    := $(filter-out $(VOCAB_SRC),$(wildcard runner/*.c stats/*.c cmp/*.c reports/*.c)) \
                $(wildcard compiler/cli/*.c)
# The shdb dispatcher, on top of everything.
MAIN_SRC     := cli/main.c
UNIT_SRC     := $(wildcard tests/unit/*.c)
BENCH_SRC    := $(wildcard bench/*.c)
CHECK_SRC    := tests/corpus/check.c
# Fuzz targets: fuzz/fuzz_NAME.c, each linked with libFuzzer (make fuzz) or with
# fuzz/standalone.c, which runs it on files (tests/t0950 on tests/fuzz/NAME/).
FUZZ_SRC     := $(wildcard fuzz/fuzz_*.c)
FUZZ_LIB_SRC := fuzz/util.c
FUZZ_NAMES   := $(patsubst fuzz/fuzz_%.c,%,$(FUZZ_SRC))

obj = $(patsubst %.c,$(BUILD)/%.o,$(1))
COMPILER_LIB := $(BUILD)/libshdb-compiler.a
TOOLS_LIB    := $(BUILD)/libshdb-tools.a
SHDB_BIN     := $(BUILD)/shdb
UNIT_BINS    := $(patsubst tests/unit/%.c,$(BUILD)/unit/%,$(UNIT_SRC))
BENCH_BINS   := $(patsubst bench/%.c,$(BUILD)/benchbin/%,$(BENCH_SRC))
CORPUS_CHECK := $(BUILD)/corpus-check
FUZZ_RUNNERS := $(patsubst %,$(BUILD)/fuzz-run/%,$(FUZZ_NAMES))
FUZZ_BINS    := $(patsubst %,$(BUILD)/fuzz-bin/%,$(FUZZ_NAMES))
ALL_OBJS     := $(call obj,$(COMPILER_SRC) $(TOOLS_SRC) $(MAIN_SRC) $(UNIT_SRC) $(BENCH_SRC) \
                       $(CHECK_SRC) $(FUZZ_SRC) $(FUZZ_LIB_SRC) fuzz/standalone.c)

.PHONY: all deps deps-list with-deps run check bench corpus-check ir3-check etna-check records-diff \
        nightly-demo report-screenshot clean install \
        need-libs fuzz fuzz-build san-corpus FORCE
.DEFAULT_GOAL := all
# keep objects of chained rules (unit tests, benchmarks)
.SECONDARY:

ifeq ($(SANITIZE),1)
all: $(SHDB_BIN) $(UNIT_BINS)
else
all: shdb $(UNIT_BINS)

shdb: $(SHDB_BIN)
	$(Q)cp $< $@
endif

# The version baked into the binary: rewritten only when the git description or the
# flags change, so an unchanged tree rebuilds nothing.
$(BUILD)/gen/version.h: FORCE
	@mkdir -p $(@D)
	@desc=$$(git describe --always --dirty --tags 2>/dev/null || echo unknown); \
	new="#define SHDB_GIT_DESCRIBE \"$$desc\"\n#define SHDB_CFLAGS_HASH \"$$(echo '$(ALL_CFLAGS)' | cksum | cut -d' ' -f1)\""; \
	if [ ! -f $@ ] || [ "$$(cat $@)" != "$$(printf "$$new")" ]; then printf "$$new\n" > $@; fi

# Objects depend on the flags they were built with.
$(BUILD)/gen/cflags: FORCE
	@mkdir -p $(@D)
	@if [ ! -f $@ ] || [ "$$(cat $@)" != '$(ALL_CFLAGS)' ]; then echo '$(ALL_CFLAGS)' > $@; fi

$(BUILD)/%.o: %.c $(BUILD)/gen/cflags
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) -MMD -MP -MF $(@:.o=.d) -MQ $@ -c -o $@ $<

$(call obj,cli/main.c): $(BUILD)/gen/version.h

# The SPIR-V grammar tables, generated from SPIRV-Headers' JSON (compiler/spirv/grammar.h).
# Every object may include them (order-only here; -MMD records the real dependency).
SPIRV_GRAMMAR_DIR ?= /usr/include/spirv/unified1
SPIRV_GRAMMAR     := $(SPIRV_GRAMMAR_DIR)/spirv.core.grammar.json \
                     $(SPIRV_GRAMMAR_DIR)/extinst.glsl.std.450.grammar.json
GRAMMAR_GEN       := $(BUILD)/tools/grammar_gen
GRAMMAR_OUT       := $(BUILD)/gen/spirv_grammar.h $(BUILD)/gen/spirv_grammar.inc

$(GRAMMAR_GEN): compiler/spirv/gen/grammar_gen.c $(BUILD)/gen/cflags
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(shell pkg-config --libs jansson 2>/dev/null)

$(GRAMMAR_OUT) &: $(GRAMMAR_GEN) $(SPIRV_GRAMMAR)
	@mkdir -p $(@D)
	$(QUIET_GEN)$(GRAMMAR_GEN) $(SPIRV_GRAMMAR) $(GRAMMAR_OUT)

$(ALL_OBJS): | $(GRAMMAR_OUT)

# A build without the libraries stops here with what to do, not with linker errors.
need-libs:
ifneq ($(PKG_OK),yes)
	@echo "shdb: missing libraries (pkg-config $(PKGS)); run 'make deps' first, or 'make run' / 'make check', which do" >&2
	@exit 1
endif

$(BUILD)/gen/cflags: | need-libs

$(COMPILER_LIB): $(call obj,$(COMPILER_SRC))
	$(Q)rm -f $@
	$(QUIET_AR)ar rcs $@ $^

$(TOOLS_LIB): $(call obj,$(TOOLS_SRC))
	$(Q)rm -f $@
	$(QUIET_AR)ar rcs $@ $^

$(SHDB_BIN): $(call obj,$(MAIN_SRC)) $(TOOLS_LIB) $(COMPILER_LIB)
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/unit/%: $(BUILD)/tests/unit/%.o $(TOOLS_LIB) $(COMPILER_LIB)
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/benchbin/%: $(BUILD)/bench/%.o $(TOOLS_LIB) $(COMPILER_LIB)
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LDLIBS)

$(CORPUS_CHECK): $(call obj,$(CHECK_SRC)) $(COMPILER_LIB)
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LDLIBS)

# A fuzz target run on files (every build), and with libFuzzer (FUZZ=1 only).
$(BUILD)/fuzz-run/%: $(BUILD)/fuzz/fuzz_%.o $(call obj,fuzz/standalone.c $(FUZZ_LIB_SRC)) \
		     $(TOOLS_LIB) $(COMPILER_LIB)
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/fuzz-bin/%: $(BUILD)/fuzz/fuzz_%.o $(call obj,$(FUZZ_LIB_SRC)) $(TOOLS_LIB) $(COMPILER_LIB)
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

# Missing packages: installed when we can, else the exact apt-get line (.ci/deps,
# from the one list in .ci/packages).
deps:
	$(Q).ci/deps

deps-list:
	$(Q).ci/deps --list

# The goals a newcomer types install what is missing first; then one sub-make, given
# every goal of the command line, reads pkg-config's answers afresh (this make
# parsed them before the install).
NEEDS_DEPS := run check bench corpus-check ir3-check etna-check records-diff nightly-demo \
              report-screenshot fuzz san-corpus
ifneq ($(SHDB_DEPS_DONE)$(filter $(NEEDS_DEPS),$(MAKECMDGOALS)),)
ifneq ($(SHDB_DEPS_DONE),1)
$(MAKECMDGOALS): with-deps
	@:
with-deps: deps
	$(Q)$(MAKE) --no-print-directory SHDB_DEPS_DONE=1 $(MAKECMDGOALS)
else

# The bundled corpus for every target into results/ (replaced each time), then the summary.
run: all
	$(Q)./$(if $(filter 1,$(SANITIZE)),$(SHDB_BIN),shdb) run --force -o results shaders/

# prove runs every unit-test binary and every shell test; each speaks TAP.  The
# tests of shdb report make their histories with bench/gen-runs; every other
# benchmark is built too, so that make bench cannot break unseen.
check: all $(BENCH_BINS) $(FUZZ_RUNNERS)
	$(Q)SHDB=$(abspath $(SHDB_BIN)) SHDB_BUILD=$(abspath $(BUILD)) SHDB_SHARED=$(SHARED) \
	  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  $(PROVE) -j$(NPROC) $(PROVE_OPTS) $(UNIT_BINS) $(wildcard tests/t[0-9]*.sh)

bench: all $(BENCH_BINS)
	$(Q)SHDB=$(abspath $(SHDB_BIN)) SHDB_BUILD=$(abspath $(BUILD)) SHDB_SHARED=$(SHARED) \
	  bench/run

# Each corpus unit through the front end in a child process (tests/corpus/check.c),
# and shdb's own collection of the other formats (tests/collections, its Fossilize
# database written by tests/foz-write.pl); fails when a unit crashes or hangs, or a
# file of the collection does not reach the backend.  CORPUS_CHECK_OPTS=-v lists
# every failure.
COLLECTION := $(BUILD)/collections
corpus-check: all $(CORPUS_CHECK)
	$(Q)rm -rf $(COLLECTION) && cp -r tests/collections $(COLLECTION) && \
	  perl tests/foz-write.pl --deflate --crc $(COLLECTION)/fossilize/app.foz \
	  $(COLLECTION)/fossilize/app.spec
	$(Q)$(CORPUS_CHECK) $(CORPUS_CHECK_OPTS) -c $(COLLECTION) $(SHARED)/corpus

# Each corpus unit through the ir3 backend for every target with both
# verifiers and the differential test (shdb run --verify-exec: all ten
# targets, about 1.3 min more than without on 2 loaded cores); fails when a
# target compiles less than 99% of the units that reach it (failures grouped
# by reason), on any unit whose final code differs from the interpreter, or
# below EXEC_MIN_SHARE agreement when it is set (tests/corpus/exec-table.pl).
ir3-check: all
	$(Q)SHDB=$(abspath $(SHDB_BIN)) SHDB_BUILD=$(abspath $(BUILD)) SHDB_SHARED=$(SHARED) \
	  tests/corpus/backend-check.sh ir3

# The same through the etnaviv backend for every Vivante target, against
# mesa-etnaviv-dev.tsv.
etna-check: all
	$(Q)SHDB=$(abspath $(SHDB_BIN)) SHDB_BUILD=$(abspath $(BUILD)) SHDB_SHARED=$(SHARED) \
	  tests/corpus/backend-check.sh etna

# The records of the whole corpus against those of BASE (a commit), time_us
# aside: a refactoring must leave them byte-identical (tests/corpus/records-diff.sh).
records-diff: all
	$(Q)SHDB=$(abspath $(SHDB_BIN)) SHDB_BUILD=$(abspath $(BUILD)) SHDB_SHARED=$(SHARED) \
	  BASE=$(BASE) tests/corpus/records-diff.sh

# With SANITIZE=1: a quarter of ../shared/corpus (the same files every time)
# through four targets, verified, under ASan + UBSan; fails on any crash,
# hang or sanitizer report, naming the files (tests/corpus/san-run.sh).
san-corpus: all
	$(Q)SHDB=$(abspath $(SHDB_BIN)) SHDB_BUILD=$(abspath $(BUILD)) SHDB_SHARED=$(SHARED) \
	  tests/corpus/san-run.sh

# Six "nights" of the bundled corpus, with shdb's compiler and with a stand-in
# (reports/nightly-demo.sh says what each shows), rendered by shdb report.
nightly-demo: all
	$(Q)SHDB=$(abspath $(SHDB_BIN)) reports/nightly-demo.sh $(BUILD)/nightly-demo

# The stand-in history's report as headless Chromium draws it, for the eye
# ($(BUILD)/report-screenshot.png, 1280 x 6000): Chromium is an optional package
# of .ci/packages, installed for this goal only.
report-screenshot: nightly-demo
	$(Q).ci/deps --with chromium
	$(Q)reports/screenshot.sh $(BUILD)/nightly-demo/standin/report/index.html \
	  $(BUILD)/report-screenshot.png

# Each libFuzzer target for FUZZ_S seconds (fuzz/run.sh): clang builds them in
# build-fuzz/; corpora grow in FUZZ_STATE (default build-fuzz/state).
FUZZ_S     ?= 60
FUZZ_STATE ?= $(abspath build-fuzz/state)
fuzz:
	$(Q)$(MAKE) --no-print-directory FUZZ=1 fuzz-build
	$(Q)SHDB_SHARED=$(SHARED) fuzz/run.sh build-fuzz/fuzz-bin $(FUZZ_STATE) $(FUZZ_S) $(FUZZ_NAMES)

endif
endif

fuzz-build: $(FUZZ_BINS)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/doc/shdb
	install -m 755 $(SHDB_BIN) $(DESTDIR)$(PREFIX)/bin/shdb
	install -m 644 README.md $(DESTDIR)$(PREFIX)/share/doc/shdb/README.md

clean:
	rm -rf build build-san build-fuzz shdb results

-include $(ALL_OBJS:.o=.d)
