# plugins/python/build.mk - Python pieces, included by the top-level Makefile.
#
#   perf-hwtrace script -s HOOK.py: embedded libpython (python3-config --embed)
#   build/python/hwtrace<EXT_SUFFIX>: the `hwtrace` module (import with
#   PYTHONPATH=build/python)
# Without python3-config both are left out and `script -s` says so.

PYTHON_CONFIG ?= python3-config
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

$(BUILD)/plain/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(PLAIN_CFLAGS) -c $< -o $@

$(BUILD)/plain/libhwtrace.a: $(LIB_SRC:%.c=$(BUILD)/plain/obj/%.o)
	@rm -f $@
	ar rcs $@ $^

ifneq ($(PY_INCLUDES),)
$(BUILD)/obj/plugins/perf-hwtrace/script_python.o: ALL_CFLAGS += -DHAVE_PYTHON $(PY_INCLUDES)
$(TOOL) $(UNIT_BIN): LDLIBS += $(PY_EMBED)

PY_MODULE := $(BUILD)/python/hwtrace$(PY_EXT)
all: $(PY_MODULE)

$(PY_MODULE): plugins/python/hwtrace.c $(PLAIN_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(PLAIN_CFLAGS) $(PY_INCLUDES) -shared -o $@ $< $(PLAIN_LIB) -lzstd -lm
endif
