#!/usr/bin/env bats
# make install: the subcommand, libhwtrace (static and shared), headers, a
# pkg-config file and the man page land under PREFIX, and a program built
# against the installed library through pkg-config decodes a synth file.

load lib/common

setup_file() {
	export P="$BATS_FILE_TMPDIR/prefix"
	make -s -C "$BATS_TEST_DIRNAME/../.." BUILD="$BUILD" install PREFIX="$P" >/dev/null
}

@test "install puts every piece under PREFIX" {
	[ -x "$P/bin/perf-hwtrace" ]
	[ -f "$P/lib/libhwtrace.a" ]
	[ -f "$P/lib/libhwtrace.so.0" ]
	[ -f "$P/include/hwtrace/decoder.h" ]
	[ -f "$P/include/hwtrace/perf_data.h" ]
	[ -f "$P/lib/pkgconfig/libhwtrace.pc" ]
	[ -f "$P/share/man/man1/perf-hwtrace.1" ]
	man -l "$P/share/man/man1/perf-hwtrace.1" 2>/dev/null | grep -q "perf-hwtrace"
	for verb in report script decode synth inject record top list stat; do
		grep -q "^\.TH PERF-HWTRACE-${verb^^} 1" "$P/share/man/man1/perf-hwtrace-$verb.1"
		man -l "$P/share/man/man1/perf-hwtrace-$verb.1" 2>/dev/null | grep -q -- "--help"
	done
	[ -f "$P/share/bash-completion/completions/perf-hwtrace" ]
	[ "$(readlink "$P/share/bash-completion/completions/perf")" = perf-hwtrace ]
}

@test "perf finds the installed subcommand on PATH" {
	"$P/bin/perf-hwtrace" synth --type cxl-hmu --seed 2 --size 16K -o "$BATS_FILE_TMPDIR/i.data"
	PATH="$P/bin:$PATH" run perf hwtrace script --json -i "$BATS_FILE_TMPDIR/i.data"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == '{"type":"cxl_hmu_unit",'* ]]
}

@test "the installed perf-hwtrace finds its Python runner for script -s" {
	[ -f "$P/lib/hwtrace/perf-hwtrace-python.so" ]
	"$P/bin/perf-hwtrace" synth --type cxl-hmu --seed 2 --size 16K \
		--manifest "$BATS_FILE_TMPDIR/mp" -o "$BATS_FILE_TMPDIR/p.data"
	cat >"$BATS_FILE_TMPDIR/count.py" <<'PY'
n = 0
def hwtrace__cxl_hmu_unit(*args):
    global n
    n += 1
def trace_end():
    print("units", n)
PY
	run "$P/bin/perf-hwtrace" script -i "$BATS_FILE_TMPDIR/p.data" -s "$BATS_FILE_TMPDIR/count.py"
	[ "$status" -eq 0 ]
	[[ "$output" == *"units $(grep -vc '^#' "$BATS_FILE_TMPDIR/mp")"* ]]
}

@test "a program links libhwtrace through pkg-config and counts the records" {
	src=$BATS_FILE_TMPDIR/count.c
	cat >"$src" <<'C'
#include <stdio.h>
#include <hwtrace/decoder.h>

static void rec(void *ctx, const struct hwt_record *r)
{
	if (r->type->kind == HWT_RK_DATA)
		++*(unsigned long *)ctx;
}

int main(int argc, char **argv)
{
	unsigned long n = 0;
	struct hwt_diag diag = { 0 };
	struct hwt_session_opts o = { 0 };
	struct hwt_sink sink = { .record = rec, .ctx = &n };
	int ret = hwt_session__run(argv[1], &o, &sink, &diag);

	printf("%lu %d\n", n, ret);
	return ret != 0;
}
C
	export PKG_CONFIG_PATH="$P/lib/pkgconfig"
	# the same compiler and link flags as the library (sanitizers in make check)
	${TEST_CC:-cc} ${TEST_LDFLAGS:-} -o "$BATS_FILE_TMPDIR/count" "$src" \
		$(pkg-config --cflags libhwtrace) $(pkg-config --libs --static libhwtrace) \
		-Wl,-rpath,"$P/lib"
	"$P/bin/perf-hwtrace" synth --type cxl-hmu --seed 2 --size 16K \
		--manifest "$BATS_FILE_TMPDIR/m" -o "$BATS_FILE_TMPDIR/j.data"
	run "$BATS_FILE_TMPDIR/count" "$BATS_FILE_TMPDIR/j.data"
	[ "$status" -eq 0 ]
	[ "$output" = "$(grep -vc '^#' "$BATS_FILE_TMPDIR/m") 0" ]
}
