# plugins/python/build.mk - Python pieces, included by the top-level Makefile.
#
#   perf-hwtrace script -s HOOK.py: build/perf-hwtrace-python.so, the embedded
#   libpython runner (python3-config --embed), dlopen()ed by the tool for -s
#   build/python/hwtrace<EXT_SUFFIX>: the `hwtrace` module, a streaming
#   iterator over decoded records (import with PYTHONPATH=build/python)
# Without python3-config both are left out and `script -s` says so.

# Debian's python3-config (libpython3-dev) when present, the interpreter stock
# perf embeds too; another python3-config on PATH (pyenv, venv) only otherwise
PYTHON_CONFIG ?= $(firstword $(wildcard /usr/bin/python3-config) python3-config)
PY_INCLUDES := $(shell $(PYTHON_CONFIG) --includes 2>/dev/null)
PY_EMBED    := $(shell $(PYTHON_CONFIG) --embed --ldflags 2>/dev/null)
PY_EXT      := $(shell $(PYTHON_CONFIG) --extension-suffix 2>/dev/null)

# Objects loaded into foreign processes (python3, perf, trace-cmd) must not be
# sanitizer-instrumented: build them against a plain copy of the library then.
ifneq ($(findstring -fsanitize,$(CFLAGS)),)
PLAIN_LIB := $(BUILD)/plain/libhwtrace.a
else
PLAIN_LIB := $(STATIC_LIB)
endif
PLAIN_CFLAGS := $(CPPFLAGS) $(WARN) -O2 -g -fPIC

# -MMD: a changed header rebuilds these too (a stale object of another
# struct layout crashes the module)
$(BUILD)/plain/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(PLAIN_CFLAGS) -MMD -MP -c $< -o $@

-include $(shell find $(BUILD)/plain/obj -name '*.d' 2>/dev/null)

$(BUILD)/plain/libhwtrace.a: $(LIB_SRC:%.c=$(BUILD)/plain/obj/%.o)
	@rm -f $@
	ar rcs $@ $^

# The tool exports its symbols (-rdynamic, in the top Makefile) so that the
# Python runner, a module it dlopen()s only for `script -s`, links against
# it: other commands never load libpython.

ifneq ($(PY_INCLUDES),)
PY_RUNNER := $(BUILD)/perf-hwtrace-python.so
all: $(PY_RUNNER)

$(PY_RUNNER): plugins/perf-hwtrace/script_python.c
	$(CC) $(ALL_CFLAGS) -DHAVE_PYTHON $(PY_INCLUDES) -shared -o $@ $< $(PY_EMBED)

# its headers (out.h's inline writers among them), as -MMD listed them
-include $(BUILD)/perf-hwtrace-python.d

.PHONY: install-python-runner
install: install-python-runner
install-python-runner: $(PY_RUNNER)
	install -d $(DESTDIR)$(PREFIX)/lib/hwtrace
	install -m 0755 $(PY_RUNNER) $(DESTDIR)$(PREFIX)/lib/hwtrace/

PY_MODULE := $(BUILD)/python/hwtrace$(PY_EXT)
all: $(PY_MODULE)

# hwtrace.c: the module and its objects; feed.c: the worker thread that runs
# the session and queues its records (no Python there)
$(PY_MODULE): plugins/python/hwtrace.c plugins/python/feed.c plugins/python/feed.h $(PLAIN_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(PLAIN_CFLAGS) $(PY_INCLUDES) -shared -o $@ $(filter %.c,$^) $(PLAIN_LIB) \
		$(LDLIBS)
endif
