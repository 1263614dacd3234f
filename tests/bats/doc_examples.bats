#!/usr/bin/env bats
# Every shell example of Documentation/*.rst and README.md runs.  An example
# is a "$ " line in a literal block (rst "::" blocks; README's indented or
# ```sh blocks), continued while it ends in "\" or has an open quote; the
# lines after it are its documented output and are not compared.  Markers in
# the example's trailing comment:
#   # exit status N   the exit status it is documented with (else 0)
#   # needs: WHAT     it needs what the test cannot give (hardware, root,
#                     QEMU): skipped, and counted by WHAT
# Each page runs in a directory of its own, in page order, with the inputs
# the examples name made by synth (or the generators the other suites use),
# scripts/ and build/ of the tree beside them, perf-hwtrace first on PATH and
# HOME inside the directory (make install-user and ~/.local stay there).
# `make` examples run in the source tree, as the docs mean them to.

load lib/common

setup_file() {
	export ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	export EXAMPLES=$BATS_FILE_TMPDIR/examples.json
	extract >"$EXAMPLES"
	# as bash arrays, read once by the test
	python3 - "$EXAMPLES" >"$BATS_FILE_TMPDIR/examples.sh" <<'PY'
import json, shlex, sys
ex = json.load(open(sys.argv[1]))["examples"]
for k in ("file", "line", "cmd", "status", "needs"):
    vals = " ".join(shlex.quote(str(e[k]) if e[k] is not None else "") for e in ex)
    print(f"EX_{k.upper()}=({vals})")
PY
	prelude "$BATS_FILE_TMPDIR/inputs"
}

# The examples as JSON: [{file, line, cmd, status, needs}], and in "bare"
# every command-looking literal line without "$ " (an example not run).
extract() {
	python3 - "$ROOT" <<'PY'
import glob, json, os, re, shlex, sys
root = sys.argv[1]
CMD = re.compile(r"^(perf|make|bash|cc|python3|trace-cmd|less|ls)\s|^[A-Z_]+=\S+\s")

def complete(cmd):
    if cmd.endswith("\\"):
        return False
    try:
        shlex.split(cmd, comments=True)
    except ValueError:          # an open quote: the example goes on
        return False
    return True

def blocks_rst(lines):
    i = 0
    while i < len(lines):
        if lines[i].rstrip().endswith("::") and not lines[i].lstrip().startswith(".."):
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            start = j
            while j < len(lines) and (not lines[j].strip() or lines[j][:1] in " \t"):
                j += 1
            yield start, lines[start:j]
            i = j
        else:
            i += 1

def blocks_md(lines):
    i, fence = 0, None
    while i < len(lines):
        l = lines[i]
        if l.startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            if l[3:].strip() in ("sh", "bash", "console", "shell"):
                yield i + 1, lines[i + 1:j]
            i = j + 1
        elif l.startswith("    ") and (i == 0 or not lines[i - 1].strip()):
            j = i
            while j < len(lines) and (lines[j].startswith("    ") or not lines[j].strip()):
                j += 1
            yield i, lines[i:j]
            i = j
        else:
            i += 1

out, bare = [], []
pages = sorted(glob.glob(os.path.join(root, "Documentation", "*.rst"))) + [os.path.join(root, "README.md")]
for path in pages:
    rel = os.path.relpath(path, root)
    lines = open(path, encoding="utf-8").read().split("\n")
    blocks = blocks_md(lines) if path.endswith(".md") else blocks_rst(lines)
    for start, blk in blocks:
        k = 0
        while k < len(blk):
            s = blk[k].strip()
            if s.startswith("$ "):
                cmd, first = s[2:], start + k + 1
                while not complete(cmd) and k + 1 < len(blk):
                    k += 1
                    cmd += "\n" + blk[k].rstrip()[4:] if blk[k].startswith("    ") else "\n" + blk[k]
                tail = cmd.rsplit("\n", 1)[-1]
                m = re.search(r"#\s*exit status (\d+)", tail)
                n = re.search(r"#\s*needs:\s*([^;#]+)", tail)
                out.append({"file": rel, "line": first, "cmd": cmd,
                            "status": int(m.group(1)) if m else 0,
                            "needs": n.group(1).strip() if n else None})
            elif CMD.match(s) and not re.match(r"^perf hwtrace [a-z-]+:", s):
                # a synopsis ("[-i FILE]"), on this line or a continued one
                first, whole = start + k + 1, s
                while whole.endswith("\\") and k + 1 < len(blk):
                    k += 1
                    whole += " " + blk[k].strip()
                if "[" not in whole:
                    bare.append(f"{rel}:{first}: {s}")
            k += 1
json.dump({"examples": out, "bare": bare}, sys.stdout, indent=1)
PY
}

# The inputs the examples name, made once in directory $1 and copied for each
# page (README's and the pages' file names; hot.bin and over.bin hold the
# packets cxl-hmu.rst shows; scripts/ and build/ are links into the tree).
prelude() {
	local d=$1 pd="python3 $ROOT/tests/bats/lib/perfdata.py"
	mkdir -p "$d/home"
	ln -s "$ROOT/scripts" "$d/scripts"
	ln -s "$BUILD" "$d/build"
	(
		cd "$d"
		"$HWTRACE" synth --type cxl-hmu --seed 1 --size 64K -o hmu.data
		"$HWTRACE" synth --type cxl-hmu --seed 2 --size 64K -o perf.data
		"$HWTRACE" synth --type cxl-hmu --seed 3 --size 16K -o in.data
		"$HWTRACE" inject -i hmu.data -o inj.data 2>/dev/null
		# units 0, 1 and 18, counts 643, 868 and 7, counter width 16
		$pd hmu-packet hot.bin 3 16 0x283 0x10364 0x120007
		cp hot.bin hotlist.bin
		# a good packet, then one claiming 5 entries with 2 present
		$pd hmu-packet over.bin 2 16 0x10001 0x20002
		$pd hmu-packet over.bin 5 16 0x30003 0x40004
		python3 "$ROOT/tests/fixtures/gen_igt.py" -o i915_perf.record >/dev/null
		gzip -k i915_perf.record
		# libhwtrace.rst's prog.c, against an installed prefix
		make -s -C "$ROOT" BUILD="$BUILD" install PREFIX="$BATS_FILE_TMPDIR/prefix" >/dev/null
		cat >prog.c <<'C'
#include <hwtrace/decoder.h>

int main(int argc, char **argv)
{
	struct hwt_diag diag = { 0 };
	struct hwt_session_opts o = { 0 };
	struct hwt_sink sink = { 0 };

	return argc > 1 && hwt_session__run(argv[1], &o, &sink, &diag);
}
C
	) >"$d/prelude.log" 2>&1 || { cat "$d/prelude.log"; return 1; }
}

@test "every shell example in the docs runs with its documented exit status" {
	run=0 failed=0
	declare -A skipped
	tmp=$BATS_FILE_TMPDIR/run
	mkdir -p "$tmp"
	# `cc` in an example is the suite's compiler with its link flags (the
	# ASan build's library needs the sanitizer runtime)
	mkdir -p "$BATS_FILE_TMPDIR/shim"
	printf '#!/bin/sh\nexec %s "$@" %s\n' "$(command -v "${TEST_CC:-cc}")" "${TEST_LDFLAGS:-}" \
		>"$BATS_FILE_TMPDIR/shim/cc"
	chmod +x "$BATS_FILE_TMPDIR/shim/cc"
	source "$BATS_FILE_TMPDIR/examples.sh"
	n=${#EX_CMD[@]}
	[ "$n" -gt 0 ]
	for ((i = 0; i < n; i++)); do
		ex_file=${EX_FILE[i]} ex_line=${EX_LINE[i]} ex_cmd=${EX_CMD[i]}
		ex_status=${EX_STATUS[i]} ex_needs=${EX_NEEDS[i]}
		if [ -n "$ex_needs" ]; then
			skipped[$ex_needs]=$((${skipped[$ex_needs]:-0} + 1))
			echo "# skipped ($ex_needs): $ex_file:$ex_line" >&3
			continue
		fi
		page=$tmp/${ex_file//\//_}
		[ -d "$page" ] || cp -a "$BATS_FILE_TMPDIR/inputs" "$page"
		dir=$page
		[[ "$ex_cmd" == make\ * ]] && dir=$ROOT
		st=0
		(cd "$dir" && HOME=$page/home PKG_CONFIG_PATH=$BATS_FILE_TMPDIR/prefix/lib/pkgconfig \
			PATH="$BATS_FILE_TMPDIR/shim:$(dirname "$HWTRACE"):$PATH" timeout 120 \
			bash -c "$ex_cmd") \
			</dev/null >"$page/out" 2>&1 || st=$?
		run=$((run + 1))
		if [ "$st" -ne "$ex_status" ]; then
			failed=$((failed + 1))
			echo "$ex_file:$ex_line: exit status $st, documented $ex_status: $ex_cmd"
			tail -n 15 "$page/out"
		fi
	done
	summary="doc examples: $run run, $failed failed"
	for k in "${!skipped[@]}"; do summary+=", ${skipped[$k]} skipped (needs: $k)"; done
	echo "# $summary" >&3
	echo "$summary"
	[ "$failed" -eq 0 ]
}

@test "every command line in a literal block is a \$ example (or a synopsis)" {
	run python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["bare"]))' "$EXAMPLES"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "the extractor finds the examples the pages show, the python.rst one with --" {
	run python3 - "$EXAMPLES" <<'PY'
import json, sys
ex = json.load(open(sys.argv[1]))["examples"]
by = {(e["file"], e["cmd"].split("   #")[0].strip()) for e in ex}
want = [
    ("Documentation/python.rst", "perf script -i inj.data -s scripts/hmu-top.py -- --top 5"),
    ("Documentation/inject.rst", "perf hwtrace inject -i in.data -o ./in.data"),
    ("README.md", "perf hwtrace script --csv -F unit,count,dpa -i perf.data"),
]
miss = [w for w in want if w not in by]
print(miss)
# a continued example is one command; markers are read from its last line
multi = [e for e in ex if e["file"] == "Documentation/record.rst" and "hotness_granual=12/" in e["cmd"]]
assert len(multi) == 1 and multi[0]["needs"] == "hardware", multi
assert any(e["status"] == 2 for e in ex) and any(e["status"] == 1 for e in ex)
assert {e["file"] for e in ex} >= {"README.md", "Documentation/cxl-hmu.rst", "Documentation/inject.rst"}
sys.exit(1 if miss else 0)
PY
	echo "$output"
	[ "$status" -eq 0 ]
}
