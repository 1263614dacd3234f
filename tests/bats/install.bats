#!/usr/bin/env bats
# make install: the subcommand, libhwtrace (static and shared), headers, a
# pkg-config file, a man page per verb, the bash completion, the perf scripts,
# the Python module and the libtraceevent plugin land under PREFIX, each where
# its consumer (man, bash, stock perf, python3, trace-cmd) finds it, and a
# program built against the installed library through pkg-config decodes a
# synth file.

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

@test "stock perf script -l lists the installed hooks with their descriptions" {
	exec_path=$P/libexec/perf-core
	run env PERF_EXEC_PATH="$exec_path" perf script -l
	[ "$status" -eq 0 ]
	echo "$output"
	for s in "$BATS_TEST_DIRNAME"/../../scripts/*.py; do
		n=$(basename "$s" .py)
		[ -f "$exec_path/scripts/python/$n.py" ]
		# perf prints "  NAME ARGS  DESCRIPTION": both from the hook's own lines
		desc=$(sed -n 's/^# description: //p' "$s")
		args=$(sed -n 's/^# args: //p' "$s")
		[ -n "$desc" ]
		[ -n "$args" ]
		printf '%s\n' "${lines[@]}" | grep -qxF -- "$(printf '  %-36s %s' "$n $args" "$desc")"
	done
	# stock perf's own scripts are not listed from here: only ours
	[ "$(printf '%s\n' "${lines[@]:1}" | wc -l)" -eq "$(ls "$BATS_TEST_DIRNAME"/../../scripts/*.py | wc -l)" ]
}

@test "stock perf runs an installed hook by name: perf script report NAME, -s NAME.py" {
	exec_path=$P/libexec/perf-core
	"$P/bin/perf-hwtrace" synth --type cxl-hmu --seed 4 --size 16K -o "$BATS_FILE_TMPDIR/s.data"
	"$P/bin/perf-hwtrace" inject -i "$BATS_FILE_TMPDIR/s.data" -o "$BATS_FILE_TMPDIR/s.inj"
	# the hook from the source tree, run by stock perf with a path: the reference
	run perf script -i "$BATS_FILE_TMPDIR/s.inj" \
		-s "$BATS_TEST_DIRNAME/../../scripts/hmu-top.py" -- --top 3
	[ "$status" -eq 0 ]
	want=$output
	[[ "$want" == *"reports"* ]]
	[ "$(grep -c cxl_hmu_mem <<<"$want")" -eq 6 ]
	cd "$BATS_FILE_TMPDIR"
	run env PERF_EXEC_PATH="$exec_path" perf script report hmu-top -i s.inj -- --top 3
	[ "$status" -eq 0 ]
	[ "$output" = "$want" ]
	run env PERF_EXEC_PATH="$exec_path" perf script -i s.inj -s hmu-top.py -- --top 3
	[ "$status" -eq 0 ]
	[ "$output" = "$want" ]
}

@test "python3 imports the installed hwtrace module from where it looks under the prefix" {
	# the interpreter the module is built for (plugins/python/build.mk)
	py=/usr/bin/python3
	[ -x "$py" ] && [ -x /usr/bin/python3-config ] || skip "no Debian python3-config"
	# where Debian's python3 imports from for PREFIX=/usr/local, relative to it
	rel=$("$py" -c 'import sys; print(next(p[len("/usr/local/"):] for p in sys.path
	      if p.startswith("/usr/local/") and p.endswith("-packages")))')
	echo "rel: $rel"
	ls "$P/$rel"/hwtrace.*.so
	"$P/bin/perf-hwtrace" synth --type cxl-hmu --seed 5 --size 16K \
		--manifest "$BATS_FILE_TMPDIR/py.m" -o "$BATS_FILE_TMPDIR/py.data"
	cd "$BATS_FILE_TMPDIR"
	run env PYTHONPATH="$P/$rel" "$py" -c '
import sys, hwtrace
assert hwtrace.__file__.startswith(sys.argv[1]), hwtrace.__file__
print(sum(1 for r in hwtrace.open(sys.argv[2]) if r["type"] == "cxl_hmu_unit"))
' "$P/$rel" py.data
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "$(grep -vc '^#' py.m)" ]
}

@test "stock perf and trace-cmd load the installed traceevent plugin through TRACEEVENT_PLUGIN_DIR" {
	dir=$P/lib/traceevent/plugins
	[ -f "$dir/plugin_hwtrace.so" ]
	"$P/bin/perf-hwtrace" synth --type cxl-hmu --seed 6 --size 16K -o "$BATS_FILE_TMPDIR/t.data"
	"$P/bin/perf-hwtrace" inject -i "$BATS_FILE_TMPDIR/t.data" -o "$BATS_FILE_TMPDIR/t.inj"
	# an empty HOME: no plugin from ~/.local/lib/traceevent/plugins
	home=$BATS_FILE_TMPDIR/home
	mkdir -p "$home"
	without=$(HOME=$home perf script -i "$BATS_FILE_TMPDIR/t.inj" 2>/dev/null | head -1)
	with=$(HOME=$home TRACEEVENT_PLUGIN_DIR=$dir perf script -i "$BATS_FILE_TMPDIR/t.inj" 2>/dev/null | head -1)
	echo "without: $without"
	echo "with:    $with"
	# the plugin drops the raw entry the generic print fmt shows
	[[ "$without" == *raw=* ]]
	[[ "$with" != *raw=* ]]
	[[ "$with" == *cxl_hmu_unit* ]]
	run env HOME="$home" TRACEEVENT_PLUGIN_DIR="$dir" trace-cmd list -O
	[ "$status" -eq 0 ]
	[[ "$output" == *"plugin:	hwtrace"* ]]
}

# --- the ABI (Documentation/libhwtrace.rst) ----------------------------------

@test "install puts exactly the public headers, without private fields" {
	src=$BATS_TEST_DIRNAME/../..
	want=$(cd "$src" && ls decoders/include/hwtrace/*.h decoders/*/include/hwtrace/*.h |
		xargs -n1 basename | sort)
	got=$(cd "$P/include/hwtrace" && ls | sort)
	[ "$got" = "$want" ]
	# simulator and internal headers stay in the tree
	[ ! -e "$P/include/hwtrace/sim_hmu.h" ]
	! ls "$P/include/hwtrace" | grep -q internal || false
	run grep -l 'private:' "$P"/include/hwtrace/*.h
	[ "$status" -eq 1 ]
	[ -z "$output" ]
}

@test "each installed header compiles on its own against the prefix" {
	for h in "$P"/include/hwtrace/*.h; do
		# only the prefix on the include path: an internal header would not be found
		${TEST_CC:-cc} -fsyntax-only -Wall -Wextra -Werror -I"$P/include" \
			-include "hwtrace/$(basename "$h")" -x c /dev/null ||
			{ echo "$h does not compile alone"; return 1; }
	done
}

@test "a program using only the installed libhwtrace.so reads a synth perf.data" {
	src=$BATS_FILE_TMPDIR/abi.c
	cat >"$src" <<'C'
#include <stdio.h>
#include <string.h>
#include <hwtrace/decoder.h>
#include <hwtrace/device.h>
#include <hwtrace/drm_fdinfo.h>
#include <hwtrace/perf_data.h>
#include <hwtrace/record.h>

static void count_data(void *ctx, const struct hwt_record *r)
{
	if (r->type->kind == HWT_RK_DATA)
		++*(unsigned long *)ctx;
}

int main(int argc, char **argv)
{
	static const char fdinfo[] = "drm-driver:\tpanthor\ndrm-engine-panthor:\t7 ns\n";
	struct hwt_diag diag = { 0 }, sdiag = { 0 };
	struct hwt_session_opts o = { 0 };
	unsigned long units = 0, nrec = 0, naux = 0, ninfo = 0;
	struct hwt_sink sink = { .record = count_data, .ctx = &units };
	unsigned long long pulled = 0, promised = 0;
	const struct hwt_record_type *t = hwt_record_type__find("cxl_hmu_unit");
	struct hwt_drm_fdinfo *fi = hwt_drm_fdinfo__new();
	struct hwt_reader *r = hwt_reader__new(argv[1], &diag);
	struct hwt_event ev;
	int ret;

	if (argc != 2 || !r || !t || !fi || !hwt_device__find("cxl-hmu"))
		return 2;
	while ((ret = hwt_reader__next(r, &ev)) == 1) {
		const void *p;
		ssize_t n;

		nrec++;
		if (ev.hdr->type == HWT_REC_AUXTRACE_INFO)
			ninfo++;
		if (ev.hdr->type != HWT_REC_AUXTRACE)
			continue;
		naux++;
		promised += ((const struct hwt_auxtrace *)ev.hdr)->size;
		while ((n = hwt_reader__payload(r, &p)) > 0)
			pulled += n;
	}
	hwt_reader__delete(r);
	if (hwt_session__run(argv[1], &o, &sink, &sdiag))
		return 3;
	if (hwt_drm_fdinfo__parse(fi, fdinfo, strlen(fdinfo), 0, NULL) ||
	    strcmp(hwt_drm_fdinfo__driver(fi), "panthor") ||
	    hwt_drm_fdinfo__engine(fi, "panthor")->busy_ns != 7)
		return 4;
	hwt_drm_fdinfo__delete(fi);
	printf("records %lu info %lu auxtrace %lu bytes %llu/%llu units %lu errors %llu\n",
	       nrec, ninfo, naux, pulled, promised, units,
	       (unsigned long long)(diag.errors + sdiag.errors));
	return ret;
}
C
	export PKG_CONFIG_PATH="$P/lib/pkgconfig"
	${TEST_CC:-cc} ${TEST_LDFLAGS:-} -Wall -Wextra -Werror -o "$BATS_FILE_TMPDIR/abi" "$src" \
		$(pkg-config --cflags --libs libhwtrace) -Wl,-rpath,"$P/lib"
	# linked against the shared library, not the archive next to it
	readelf -d "$BATS_FILE_TMPDIR/abi" | grep -q 'NEEDED.*\[libhwtrace.so.0\]'
	! nm "$BATS_FILE_TMPDIR/abi" | grep -q ' T hwt_reader__next$' || false
	"$P/bin/perf-hwtrace" synth --type cxl-hmu --seed 3 --size 64K \
		--manifest "$BATS_FILE_TMPDIR/abi.m" -o "$BATS_FILE_TMPDIR/abi.data"
	run "$BATS_FILE_TMPDIR/abi" "$BATS_FILE_TMPDIR/abi.data"
	[ "$status" -eq 0 ]
	# the counts, from the file's own bytes (perfdata.py) and the synth manifest
	want=$(python3 "$BATS_TEST_DIRNAME/lib/perfdata.py" records "$BATS_FILE_TMPDIR/abi.data" |
		awk '{ n++ } $2 == 70 { i++ } $2 == 71 { a++; b += $4 }
		     END { printf "records %d info %d auxtrace %d bytes %d/%d", n, i, a, b, b }')
	units=$(grep -vc '^#' "$BATS_FILE_TMPDIR/abi.m")
	echo "got:  $output"
	echo "want: $want units $units errors 0"
	[ "$units" -gt 0 ]
	[ "$output" = "$want units $units errors 0" ]
}

@test "internal functions do not link against the installed libhwtrace.so" {
	export PKG_CONFIG_PATH="$P/lib/pkgconfig"
	for sym in blob_put hwt_src__fill hwt_pmu__add_format hwt_drm_fdinfo__exit perf_record_name; do
		printf 'void %s(void);\nint main(void) { %s(); return 0; }\n' "$sym" "$sym" \
			>"$BATS_FILE_TMPDIR/int.c"
		run ${TEST_CC:-cc} ${TEST_LDFLAGS:-} -o "$BATS_FILE_TMPDIR/int" "$BATS_FILE_TMPDIR/int.c" \
			$(pkg-config --cflags --libs libhwtrace)
		[ "$status" -ne 0 ] || { echo "$sym links"; return 1; }
		[[ "$output" == *"undefined reference to \`$sym'"* ]]
	done
}

teardown() {
	rm -rf "$BATS_TEST_DIRNAME/../../build-deptest-$$"
}

@test "an object's header rules hold whether BUILD was given absolute or relative" {
	# the tests build with BUILD=$PWD/build, a developer with BUILD=build:
	# a header changed after either must rebuild the object for both
	local root b obj
	root=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	b=build-deptest-$$
	obj=obj/decoders/core/blob.o
	for first in "$root/$b" "$b"; do
		rm -rf "${root:?}/$b"
		make -s -C "$root" BUILD="$first" "$first/$obj"
		for then in "$root/$b" "$b"; do
			# up to date as built, out of date once blob.h "changes" (-W)
			make -q -C "$root" BUILD="$then" "$then/$obj"
			run make -q -C "$root" -W decoders/core/blob.h BUILD="$then" "$then/$obj"
			[ "$status" -eq 1 ]
		done
	done
}
