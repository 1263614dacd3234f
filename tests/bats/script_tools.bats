#!/usr/bin/env bats
# script -l and script -g python beside stock perf 6.1: -l prints the lines
# `perf script -l` prints for the same hooks installed where it looks; the
# handlers -g writes take the arguments stock perf's own -g writes for the
# injected file, and the skeleton run by both runners prints every record
# synth's manifest says it wrote.

load lib/common

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)

setup_file() {
	export T="$BATS_FILE_TMPDIR"
	for t in cxl-hmu panthor i915-oa; do
		mkdir -p "$T/$t"
		"$HWTRACE" synth --type "$t" --seed 7 --size 64K --manifest "$T/$t/m" \
			-o "$T/$t/s.data"
		"$HWTRACE" inject -i "$T/$t/s.data" -o "$T/$t/s.inj" 2>/dev/null
	done
	# the hooks where stock perf looks for them (PERF_EXEC_PATH)
	make -s -C "$ROOT" install-scripts PREFIX="$T/prefix" >/dev/null
	export EXEC_PATH="$T/prefix/libexec/perf-core"
}

@test "script -l from the build tree prints stock perf script -l's lines for the same hooks" {
	run env PERF_EXEC_PATH="$EXEC_PATH" perf script -l
	[ "$status" -eq 0 ]
	want=$output
	run "$HWTRACE" script -l
	[ "$status" -eq 0 ]
	echo "$output"
	[ "${lines[0]}" = "List of available trace scripts:" ]
	[ "${#lines[@]}" -eq $(($(ls "$ROOT"/scripts/*.py | wc -l) + 1)) ]
	# perf lists in directory order, script -l by name: same lines
	[ "$(sort <<<"$output")" = "$(sort <<<"$want")" ]
	[[ "$output" == *"  hmu-top [-- [--window S] [--top N] [--range B]] hottest CXL HMU"* ]]
}

@test "script -l looks in PERF_EXEC_PATH, then the install, then the source tree" {
	# a copy installed under a prefix lists the installed hooks, not the source tree's
	mkdir -p "$T/prefix/bin"
	cp "$HWTRACE" "$T/prefix/bin/perf-hwtrace"
	sed -i 's/^# description: .*/# description: the installed copy/' \
		"$EXEC_PATH/scripts/python/oa-csv.py"
	run "$T/prefix/bin/perf-hwtrace" script -l
	[ "$status" -eq 0 ]
	[[ "$output" == *"oa-csv [-- [--ts-freq HZ] [-o out.csv]] the installed copy"* ]]
	# PERF_EXEC_PATH comes first when it holds a hook
	mkdir -p "$T/exec/scripts/python"
	printf '# description: only me\n# args: [N]\n' >"$T/exec/scripts/python/mine.py"
	run env PERF_EXEC_PATH="$T/exec" "$T/prefix/bin/perf-hwtrace" script -l
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'List of available trace scripts:\n  %-36s %s' 'mine [N]' 'only me')" ]
	# ... and is passed over when it holds none of ours (stock perf's own exec path)
	run env PERF_EXEC_PATH=/usr/lib/perf-core "$HWTRACE" script -l
	[ "${#lines[@]}" -eq $(($(ls "$ROOT"/scripts/*.py | wc -l) + 1)) ]
	# nowhere: the heading alone, as perf prints it
	mkdir -p "$T/lone"
	cp "$HWTRACE" "$T/lone/perf-hwtrace"
	run env -u PERF_EXEC_PATH "$T/lone/perf-hwtrace" script -l
	[ "$status" -eq 0 ]
	[ "$output" = "List of available trace scripts:" ]
}

# The argument list of handler $1 in Python file $2, one per line.
handler_args() {
	python3 - "$1" "$2" <<'PY'
import ast, sys
for node in ast.parse(open(sys.argv[2]).read()).body:
    if isinstance(node, ast.FunctionDef) and node.name == sys.argv[1]:
        print("\n".join(a.arg for a in node.args.args))
PY
}

@test "script -g python: a handler per record type present, arguments as stock perf -g writes" {
	for t in cxl-hmu panthor i915-oa; do
		cd "$T/$t"
		rm -f perf-script.py
		run "$HWTRACE" script -g python -i s.data
		[ "$status" -eq 0 ]
		[[ "$output" == *"generated Python script: perf-script.py"* ]]
		mv perf-script.py ours.py
		# stock perf's skeleton for the injected file: one handler per declared type
		perf script -g python -i s.inj 2>/dev/null
		mv perf-script.py stock.py
		types=$("$HWTRACE" script --json -i s.data 2>/dev/null |
			python3 -c 'import json, sys
print("\n".join(sorted({json.loads(l)["type"] for l in sys.stdin})))')
		[ -n "$types" ]
		got=$(grep -o '^def hwtrace__[a-z0-9_]*' ours.py | sed 's/^def hwtrace__//' | sort)
		[ "$got" = "$types" ]
		for ty in $types; do
			want=$(handler_args "hwtrace__$ty" stock.py)
			[ -n "$want" ]
			[ "$(handler_args "hwtrace__$ty" ours.py)" = "$want" ]
		done
	done
}

@test "the skeleton prints every record under script -s and under stock perf script -s" {
	for t in cxl-hmu panthor i915-oa; do
		cd "$T/$t"
		rm -f perf-script.py
		"$HWTRACE" script -g python -i s.data 2>/dev/null
		n=$(grep -vc '^#' m)
		[ "$n" -gt 0 ]
		[ "$("$HWTRACE" script --json -i s.data 2>/dev/null | wc -l)" -eq "$n" ]
		# stdout only: the runners' warnings on stderr come at other places
		ours=$("$HWTRACE" script -i s.data -s perf-script.py 2>/dev/null)
		[ "$(grep -c '^hwtrace__' <<<"$ours")" -eq "$n" ]
		[ "$(head -n1 <<<"$ours")" = "in trace_begin" ]
		[ "$(tail -n1 <<<"$ours")" = "in trace_end" ]
		stock=$(perf script -i s.inj -s perf-script.py 2>/dev/null)
		[ "$(grep -c '^hwtrace__' <<<"$stock")" -eq "$n" ]
		[ "$ours" = "$stock" ]
	done
}

@test "script -g python never overwrites perf-script.py (perf 6.1 does) and checks before reading" {
	mkdir -p "$T/keep"
	cd "$T/keep"
	echo 'mine' >perf-script.py
	run "$HWTRACE" script -g python -i "$T/cxl-hmu/s.data"
	[ "$status" -eq 2 ]
	[[ "$output" == *"perf-script.py exists: not overwritten"* ]]
	[ "$(cat perf-script.py)" = mine ]
	# refused before the input is read: a missing input is not what is reported
	run "$HWTRACE" script -g python -i "$T/nothing.data"
	[ "$status" -eq 2 ]
	[[ "$output" != *"nothing.data"* ]]
	# the input is never the output
	cd "$T/cxl-hmu"
	rm -f perf-script.py
	cp s.data perf-script.py
	run "$HWTRACE" script -g python -i perf-script.py
	[ "$status" -eq 2 ]
	cmp s.data perf-script.py
	rm perf-script.py
}

@test "script -g python: usage errors exit 2, a write error exits 1 and leaves no file" {
	mkdir -p "$T/err"
	cd "$T/err"
	run "$HWTRACE" script -g perl -i "$T/cxl-hmu/s.data"
	[ "$status" -eq 2 ]
	run "$HWTRACE" script -l -s x.py
	[ "$status" -eq 2 ]
	run "$HWTRACE" script -g python --json -i "$T/cxl-hmu/s.data"
	[ "$status" -eq 2 ]
	run "$HWTRACE" script -l extra
	[ "$status" -eq 2 ]
	[ -z "$(ls -A)" ]
	# a file size limit of 0: the write fails with EFBIG
	run bash -c "trap '' XFSZ; ulimit -f 0; '$HWTRACE' script -g python -i '$T/cxl-hmu/s.data'"
	[ "$status" -eq 1 ]
	[[ "$output" == *"perf-script.py: write error: "* ]]
	[ -z "$(ls -A)" ]
}

@test "the bash completion and the man page know -l/--list and -g/--gen-script" {
	mkdir -p "$T/bin"
	ln -sf "$HWTRACE" "$T/bin/perf-hwtrace"
	PATH="$T/bin:$PATH"
	. "$ROOT/plugins/perf-hwtrace/perf-hwtrace.bash-completion"
	COMP_WORDS=(perf-hwtrace script --gen-) COMP_CWORD=2
	_perf_hwtrace
	[ "${COMPREPLY[*]}" = "--gen-script" ]
	COMP_WORDS=(perf hwtrace script --li) COMP_CWORD=3
	__perf_hwtrace_complete 1
	[ "${COMPREPLY[*]}" = "--list" ]
	grep -q -- '^\.B \\-l, \\-\\-list$' "$ROOT/Documentation/man/perf-hwtrace-script.1"
	grep -q -- '^\.B \\-g, \\-\\-gen\\-script python$' "$ROOT/Documentation/man/perf-hwtrace-script.1"
}
