# hwtrace top-level Makefile (design.rst section 2).
#
#   make deps     apt-get install what is missing (fast when nothing is)
#   make          libhwtrace (static + shared) and build/perf-hwtrace
#   make demo     deps + build + a synth CXL HMU recording shown by report and script
#   make test     deps + build + every test (C unit tests, bats suites, QEMU e2e)
#   make check    the tests under ASan+UBSan, fuzz targets for a bounded time, lint,
#                 checkpatch on kernel/, then e2e-debug
#   make e2e-debug  the QEMU e2e tests on a lockdep/KASAN kernel built from
#                 linux-source-6.1 (once, cached); fails on any checker report
#   make bench    throughput and memory benchmarks
#   make install  PREFIX=/usr/local (binary, library, headers, pkg-config, man pages,
#                 bash completion, perf scripts, Python module, traceevent plugin)

PREFIX    ?= /usr/local
BUILD     ?= build
CC        ?= cc
OPT       ?= -O2
CFLAGS    ?= $(OPT) -g
WARN      := -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers \
             -Wshadow -Wpointer-arith -Wformat=2 -Werror=implicit-function-declaration
# public headers: decoders/include/hwtrace/ (core) and decoders/<device>/include/hwtrace/
HDR_DIRS  := decoders/include $(sort $(wildcard decoders/*/include))
CPPFLAGS  += -DHWTRACE_VERSION=\"$(VERSION)\" -D_GNU_SOURCE $(addprefix -I,$(HDR_DIRS)) \
             -Idecoders/core -Idecoders
# the dependency rules name the object both ways, relative to this directory
# and absolute, whichever way BUILD named it: a build with BUILD=$PWD/build
# (as the tests set it) and one with BUILD=build must see the same headers
DEP_NAMES  = -MT $(patsubst $(CURDIR)/%,%,$(abspath $@)) -MT $(abspath $@)
ALL_CFLAGS = $(CPPFLAGS) $(WARN) $(CFLAGS) -fPIC -MMD -MP $(DEP_NAMES)
# libzstd (compressed perf.data), libelf (record's build ids), libmicrohttpd
# (exporter) and libi915_perf (--metrics) are dlopen()ed when first needed
# (decoders/core/lazy_lib.h): linked, each would be loaded and relocated at
# every start of every verb.  The static tool links them (HWTRACE_STATIC).
LDLIBS    += -ldl -lpthread
VERSION   := 0.1.0

# Debian packages the build, the tests and the benchmarks need.
DEB_PKGS  := build-essential pkg-config libzstd-dev zstd libelf-dev libtraceevent-dev \
             libpython3-dev python3 bats linux-perf clang llvm intel-gpu-tools \
             trace-cmd tmux hyperfine qemu-system-x86 linux-headers-amd64 busybox-static cpio \
             linux-source-6.1 libxml2-utils chromium libmicrohttpd-dev prometheus \
             protobuf-compiler strace flex bison bc

LIB_SRC   := $(sort $(wildcard decoders/*/*.c))
TOOL_SRC  := $(sort $(filter-out plugins/perf-hwtrace/main.c,$(wildcard plugins/perf-hwtrace/*.c)))
UNIT_SRC  := $(sort $(wildcard tests/unit/test_*.c))
UNIT_LIB  := $(sort $(filter-out $(UNIT_SRC),$(wildcard tests/unit/*.c)))
FUZZ_SRC  := $(sort $(wildcard tests/fuzz/fuzz_*.c))

LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
TOOL_OBJ  := $(TOOL_SRC:%.c=$(BUILD)/obj/%.o)
MAIN_OBJ  := $(BUILD)/obj/plugins/perf-hwtrace/main.o
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
UNIT_LOBJ := $(UNIT_LIB:%.c=$(BUILD)/obj/%.o)

# libperf (stat counts through it) is not packaged in Debian 12: built once
# from linux-source-6.1's tools/lib/perf into build-libperf/, linked statically
LIBPERF_DIR := build-libperf
LIBPERF_A   := $(LIBPERF_DIR)/tools/lib/perf/libperf.a
LIBAPI_A    := $(LIBPERF_DIR)/tools/lib/api/libapi.a
LIBPERF     := $(LIBPERF_A) $(LIBAPI_A)
CPPFLAGS    += -I$(LIBPERF_DIR)/tools/lib/perf/include

STATIC_LIB := $(BUILD)/libhwtrace.a
SHARED_LIB := $(BUILD)/libhwtrace.so.0
TOOL_LIB   := $(BUILD)/libhwtrace-tool.a
TOOL       := $(BUILD)/perf-hwtrace

.PHONY: libperf all deps deps-check demo test unit bats check fuzz fuzz-long lint checkpatch bench install clean kernel e2e e2e-debug \
	install-scripts install-python

all: $(TOOL) $(STATIC_LIB) $(SHARED_LIB) $(UNIT_BIN)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(STATIC_LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# only the documented API (Documentation/libhwtrace.rst) leaves the .so
LIB_MAP    := decoders/libhwtrace.map

$(SHARED_LIB): $(LIB_OBJ) $(LIB_MAP)
	$(CC) -shared -Wl,-soname,libhwtrace.so.0 \
		-Wl,--version-script=$(LIB_MAP) -o $@ $(LIB_OBJ) $(LDLIBS)
	ln -sf libhwtrace.so.0 $(BUILD)/libhwtrace.so

$(TOOL_LIB): $(TOOL_OBJ)
	@rm -f $@
	ar rcs $@ $^

# -rdynamic and whole archives: the Python runner module (plugins/python/
# build.mk), dlopen()ed for script -s, resolves hwtrace's symbols from the tool
$(TOOL): $(MAIN_OBJ) $(TOOL_LIB) $(STATIC_LIB) $(LIBPERF)
	$(CC) $(CFLAGS) $(LDFLAGS) -rdynamic -o $@ $(MAIN_OBJ) \
		-Wl,--whole-archive $(TOOL_LIB) $(STATIC_LIB) -Wl,--no-whole-archive \
		$(LIBPERF) $(LDLIBS)

# unit tests link libzstd (they compress their inputs) and libm
$(BUILD)/tests/%: tests/unit/%.c $(UNIT_LOBJ) $(TOOL_LIB) $(STATIC_LIB) $(LIBPERF)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/unit -o $@ $< $(UNIT_LOBJ) $(TOOL_LIB) $(STATIC_LIB) \
		$(LIBPERF) $(LDLIBS) -lzstd -lm

# these include libperf's headers: unpacked with it
LIBPERF_USERS := cmd_stat stat_event exporter_pmu
$(foreach u,$(LIBPERF_USERS),$(BUILD)/obj/plugins/perf-hwtrace/$(u).o \
	$(BUILD)/static/obj/plugins/perf-hwtrace/$(u).o): | $(LIBPERF)

# Only what tools/lib/perf and tools/lib/api build from; a clean make
# environment so that a caller's CC/CFLAGS (ASan) do not reach the kernel's
# own Makefiles.
$(LIBPERF_A):
	@test -f /usr/src/linux-source-6.1.tar.xz || \
		{ echo "libperf: no /usr/src/linux-source-6.1.tar.xz: run make deps"; exit 1; }
	@mkdir -p $(LIBPERF_DIR)
	tar -xJf /usr/src/linux-source-6.1.tar.xz -C $(LIBPERF_DIR) --strip-components=1 \
		--wildcards --no-wildcards-match-slash '*/tools/lib/perf' '*/tools/lib/api' \
		'*/tools/lib/*.c' '*/tools/include' '*/tools/arch' '*/tools/build' '*/tools/scripts'
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $(MAKE) -s -C $(LIBPERF_DIR)/tools/lib/perf \
		CC=cc libperf.a
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $(MAKE) -s -C $(LIBPERF_DIR)/tools/lib/api \
		CC=cc libapi.a

$(LIBAPI_A): $(LIBPERF_A)

libperf: $(LIBPERF)

# test_abi reads the shared library's symbol table
$(BUILD)/tests/test_abi: $(SHARED_LIB)

# --- set-up ------------------------------------------------------------------

# apt-get install the packages of $(1) that are missing; fast when none are
define apt_install
	@missing=$$(for p in $(1); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
		echo "make deps: installing" $$missing; \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	else \
		echo "make deps: all Debian packages present"; \
	fi
endef

deps:
	$(call apt_install,$(DEB_PKGS))
	$(MAKE) libperf

# make check also lints kernel/ with the kernel's checkpatch.pl, which Debian
# ships only inside linux-source-6.1 (in DEB_PKGS for libperf)
deps-check: deps

demo: deps
	$(MAKE) all
	@mkdir -p $(BUILD)/demo
	$(TOOL) synth --type cxl-hmu --seed 1 --size 256K --range-size 1 -o $(BUILD)/demo/hmu.data
	$(TOOL) report -i $(BUILD)/demo/hmu.data \
		--hdm base=0x4000000000,size=0x20000000,ways=2,granularity=4096,pos=1
	$(TOOL) script -i $(BUILD)/demo/hmu.data | head -n 20

# --- tests -------------------------------------------------------------------

test: deps
	$(MAKE) all
	$(MAKE) unit bats
	$(MAKE) e2e

# under ASan, leaks of the libraries the tests load are theirs (tests/lsan.supp)
unit: $(UNIT_BIN)
	@export LSAN_OPTIONS="suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0$${LSAN_OPTIONS:+:$$LSAN_OPTIONS}"; \
	pass=0; fail=0; \
	for t in $(UNIT_BIN); do \
		if $$t; then pass=$$((pass+1)); else echo "FAIL: $$t"; fail=$$((fail+1)); fi; \
	done; \
	echo "unit: $$pass passed, $$fail failed"; [ $$fail -eq 0 ]

bats: $(TOOL)
	HWTRACE=$(abspath $(TOOL)) BUILD=$(abspath $(BUILD)) TEST_CC="$(CC)" \
		TEST_LDFLAGS="$(LDFLAGS)" bats --print-output-on-failure tests/bats

# ASan+UBSan build of everything in its own tree, then the whole suite on it.
# Both steps get the same variables (the nested make in install.bats too,
# through MAKEFLAGS), so nothing is rebuilt or linked without the sanitizers.
SAN      := -fsanitize=address,undefined
ASAN_VARS = BUILD=build-asan CC=clang OPT=-O1 LDFLAGS="$(SAN)" \
	    CFLAGS="-O1 -g $(SAN) -fno-omit-frame-pointer -fno-sanitize-recover=undefined"

check: deps-check
	$(MAKE) $(ASAN_VARS) all
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 $(MAKE) $(ASAN_VARS) unit bats
	$(MAKE) fuzz
	$(MAKE) lint checkpatch
	$(MAKE) e2e-debug

FUZZ_SECONDS ?= 30
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=build-fuzz/%)
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_OBJ := $(LIB_SRC:%.c=build-fuzz/obj/%.o)

# the library once, instrumented for coverage; each target links against it
# (kept: make would otherwise delete them as intermediates and rebuild each run)
.SECONDARY: $(FUZZ_OBJ)
# (-MMD: a changed header rebuilds what includes it, as in $(BUILD))
build-fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	clang $(CPPFLAGS) -O1 -g -fsanitize=fuzzer-no-link $(FUZZ_SAN) -MMD -MP -c $< -o $@

build-fuzz/%: tests/fuzz/%.c $(FUZZ_OBJ)
	clang $(CPPFLAGS) -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) -MMD -MP -MF $@.d -MT $@ \
		-o $@ $< $(FUZZ_OBJ) $(LDLIBS)

-include $(shell find build-fuzz -name '*.d' 2>/dev/null)

fuzz: $(FUZZ_BIN)
	@for f in $(FUZZ_BIN); do \
		n=$$(basename $$f); mkdir -p build-fuzz/corpus/$$n; \
		seeds=tests/fuzz/seeds/$$n; [ -d $$seeds ] || seeds=; \
		echo "fuzz: $$n for $(FUZZ_SECONDS)s"; \
		$$f -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=1024 -print_final_stats=1 \
			build-fuzz/corpus/$$n $$seeds 2>build-fuzz/$$n.log || { tail -50 build-fuzz/$$n.log; exit 1; }; \
		echo "fuzz: $$n: $$(grep -oE 'stat::number_of_executed_units: [0-9]+' build-fuzz/$$n.log | \
			grep -oE '[0-9]+$$') executions, $$(grep -E 'DONE' build-fuzz/$$n.log | \
			grep -oE 'cov: [0-9]+ ft: [0-9]+' | tail -1)"; \
	done

# Every fuzz target for FUZZ_SECONDS each (10 minutes unless given on the
# command line): `make fuzz-long FUZZ_SECONDS=N`.  Executions and coverage
# (libFuzzer's cov: edges, ft: features) are printed per target.
fuzz-long:
	$(MAKE) fuzz FUZZ_SECONDS=$(if $(filter command line,$(origin FUZZ_SECONDS)),$(FUZZ_SECONDS),600)

lint:
	@if grep -nE '\b(printf|fprintf|puts|fputs|perror)[[:space:]]*\(' $(LIB_SRC); then \
		echo "lint: decoders/ must not print (design.rst section 1)"; exit 1; fi
	@echo "lint: decoders/ print nothing"
	@# bats runs a test under set -e, which ignores a command negated with '!'
	@if grep -nE '^[[:space:]]*! ' tests/bats/*.bats | grep -v '|| false$$'; then \
		echo "lint: a '! cmd' line in a bats test fails nothing: end it with '|| false'"; \
		exit 1; fi
	@# and the same of a test before an &&: only the last of '[ a ] && [ b ]' counts
	@if grep -nE '^[[:space:]]*\[\[? .*\]\]? && \[' tests/bats/*.bats | grep -v '||'; then \
		echo "lint: '[ a ] && [ b ]' in a bats test checks only b: a line each"; \
		exit 1; fi
	@echo "lint: every negated check in tests/bats can fail"

CHECKPATCH := build-checkpatch/scripts/checkpatch.pl
KERNEL_SRC := $(sort $(shell find kernel -name '*.[ch]' ! -name '*.mod.c' 2>/dev/null))

$(CHECKPATCH):
	@mkdir -p build-checkpatch
	tar -xJf /usr/src/linux-source-6.1.tar.xz -C build-checkpatch --strip-components=1 \
		--wildcards '*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'

# kernel coding style: no checkpatch error or warning in kernel/
checkpatch: $(CHECKPATCH)
	@out=$$(for f in $(KERNEL_SRC); do \
		$(CHECKPATCH) --no-tree --terse -f $$f; done | grep -v '^total:'); \
	if [ -n "$$out" ]; then echo "$$out"; exit 1; fi; \
	echo "checkpatch: $(words $(KERNEL_SRC)) kernel/ files clean"

bench: all
	bash tests/bench/run.sh $(abspath $(TOOL))

# --- kernel side (issue: kernel PMU drivers) ----------------------------------

kernel:
	$(MAKE) -C kernel

e2e:
	bash tests/e2e/run.sh

# the same e2e tests on a lockdep/KASAN kernel built once from linux-source-6.1
# (cached in ~/.cache/hwtrace); any checker report fails
e2e-debug:
	bash tests/e2e/debug-kernel.sh

# --- static recorder for the QEMU guest (no Python, libzstd.a) ---------------
.PHONY: static
STATIC_TOOL := $(BUILD)/perf-hwtrace-static
STATIC_OBJ  := $(patsubst %.c,$(BUILD)/static/obj/%.o,$(LIB_SRC) $(TOOL_SRC) plugins/perf-hwtrace/main.c)

static: $(STATIC_TOOL)

$(BUILD)/static/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -DHWTRACE_STATIC $(WARN) $(OPT) -MMD -MP -c $< -o $@

$(STATIC_TOOL): $(STATIC_OBJ) $(LIBPERF)
	$(CC) -static -o $@ $^ -lelf -lz -lzstd -lm

-include $(shell find $(BUILD)/static/obj -name '*.d' 2>/dev/null)

# --- install -----------------------------------------------------------------

install: all install-scripts install-python
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
		$(DESTDIR)$(PREFIX)/include/hwtrace $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 $(TOOL) $(DESTDIR)$(PREFIX)/bin/perf-hwtrace
	install -m 0644 $(STATIC_LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 0755 $(SHARED_LIB) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libhwtrace.so.0 $(DESTDIR)$(PREFIX)/lib/libhwtrace.so
	install -m 0644 $(addsuffix /hwtrace/*.h,$(HDR_DIRS)) $(DESTDIR)$(PREFIX)/include/hwtrace/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' decoders/libhwtrace.pc.in \
		> $(DESTDIR)$(PREFIX)/lib/pkgconfig/libhwtrace.pc
	install -m 0644 Documentation/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 0644 plugins/perf-hwtrace/perf-hwtrace.bash-completion \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/perf-hwtrace
	# `perf hwtrace`: bash-completion loads completions/perf from the first data
	# dir that has one (/usr/local/share before /usr/share); ours loads and wraps
	# the distribution's.  Never over the distribution's own file.
	if [ "$(PREFIX)" != /usr ]; then \
		ln -sf perf-hwtrace $(DESTDIR)$(PREFIX)/share/bash-completion/completions/perf; fi

# The hooks go where stock perf looks for scripts: `perf script -l` lists the
# <exec-path>/scripts/python/bin/NAME-report wrappers by their "# description:"
# and "# args:" lines (taken from the hook), `perf script report NAME -i F`
# runs one and `perf script -s NAME.py` finds the hook there.  Stock perf's
# exec path is its own (/usr/lib/perf-core on Debian): PERF_EXEC_PATH points
# it here.
PERF_EXEC  := $(PREFIX)/libexec/perf-core
PY_HOOKS   := $(sort $(wildcard scripts/*.py))

install-scripts:
	install -d $(DESTDIR)$(PERF_EXEC)/scripts/python/bin
	install -m 0644 $(PY_HOOKS) $(DESTDIR)$(PERF_EXEC)/scripts/python/
	install -d $(DESTDIR)$(PERF_EXEC)/scripts/python/lib
	install -m 0644 scripts/lib/*.py $(DESTDIR)$(PERF_EXEC)/scripts/python/lib/
	for s in $(PY_HOOKS); do \
		n=$$(basename $$s .py); w=$(DESTDIR)$(PERF_EXEC)/scripts/python/bin/$$n-report; \
		{ echo '#!/bin/sh'; grep -m1 '^# description:' $$s; grep -m1 '^# args:' $$s; \
		  echo 'exec perf script -s "$$PERF_EXEC_PATH/scripts/python/'$$n'.py" "$$@"'; } >$$w; \
		chmod 0755 $$w; \
	done

# the `hwtrace` module, where the interpreter it was built for imports from:
# /usr/lib/python3/dist-packages for PREFIX=/usr (Debian), else
# PREFIX/lib/pythonX.Y/dist-packages (on sys.path for /usr/local)
PY_VER  = $(shell $(patsubst %-config,%,$(PYTHON_CONFIG)) -c \
	'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
PY_SITE = $(if $(filter /usr,$(PREFIX)),/usr/lib/python3/dist-packages,$(PREFIX)/lib/python$(PY_VER)/dist-packages)

install-python:
	$(if $(PY_MODULE),install -d $(DESTDIR)$(PY_SITE) && \
		install -m 0644 $(PY_MODULE) $(DESTDIR)$(PY_SITE)/,@echo "no python3-config: hwtrace module not built")

clean:
	rm -rf $(BUILD) build-asan build-fuzz build-checkpatch $(LIBPERF_DIR)

include plugins/python/build.mk plugins/traceevent/build.mk
-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
