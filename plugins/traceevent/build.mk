# plugins/traceevent/build.mk - the libtraceevent plugin, included by the
# top-level Makefile.  Built against libtraceevent-dev's headers; it uses only
# the tep_*/trace_seq_* functions Debian's perf 6.1 exports, so it loads both
# there and in trace-cmd's libtraceevent.so.

TE_CFLAGS := $(shell pkg-config --cflags libtraceevent 2>/dev/null)
TE_PLUGIN := $(BUILD)/plugin_hwtrace.so
TE_DIR    := $(PREFIX)/lib/traceevent/plugins
TE_USER   := $(HOME)/.local/lib/traceevent/plugins

all: $(TE_PLUGIN)

$(TE_PLUGIN): plugins/traceevent/plugin_hwtrace.c $(PLAIN_LIB)
	$(CC) $(PLAIN_CFLAGS) $(TE_CFLAGS) -shared -o $@ $< $(PLAIN_LIB) $(LDLIBS)

.PHONY: install-plugin install-user
install: install-plugin

install-plugin: $(TE_PLUGIN)
	install -d $(DESTDIR)$(TE_DIR)
	install -m 0755 $(TE_PLUGIN) $(DESTDIR)$(TE_DIR)/
	@echo "libtraceevent plugin installed in $(TE_DIR)."
	@echo "Debian's perf loads plugins only from ~/.local/lib/traceevent/plugins and"
	@echo "\$$TRACEEVENT_PLUGIN_DIR: export TRACEEVENT_PLUGIN_DIR=$(TE_DIR)"
	@echo "(or run 'make install-user')."

install-user: $(TE_PLUGIN)
	install -d $(TE_USER)
	install -m 0755 $(TE_PLUGIN) $(TE_USER)/
	@echo "libtraceevent plugin installed in $(TE_USER) (perf and trace-cmd look there)."
