#!/bin/bash
# top.sh TOOL - CPU time per `top` refresh on a /proc-shaped tree of 1000
# processes x 8 DRM fds (+ 8 non-DRM fds each): the cached refresh (kept
# fdinfo fds, pread, then a compare or an in-place update) vs a naive full
# rescan every refresh.  Two layouts: each process's 8 fds are 2 clients
# (card + render node, each dup'd 4 times: the common case), and 8 distinct
# clients (worst case for the cache: every fd must still be read).  The
# trees do not change, so a cached refresh finds every text as it was (idle
# clients: compared, not parsed); --reparse times the same refresh with
# every line of every text parsed and every client rendered again, the worst
# case of a busy machine.  Last, on a copy of each tree, fake_proc.py
# --churn rewrites every client's text after each refresh: busy clients for
# real (no text found unchanged), but with 0.1 s between refreshes for the
# writer, during which the caches cool as they do in real use (-d 1).
# The cached and re-parsed refreshes are timed twice: with --json, and as
# batch text (-b, a line per client: the other view that renders every
# client; the terminal view renders the rows that fit the window).
# Figures come from `top --stats` (CLOCK_PROCESS_CPUTIME_ID per phase; in a
# quick refresh each client's row is rendered as soon as it is read, so
# read+parse holds most of the render, and "render" is the sort and the
# copy-out); the best of $TOP_BENCH_REPS runs is reported, as other load on
# the machine only ever adds time.  The trees are built once by
# fake_proc.py (shared with exporter.sh) and cached under <build>/bench/.
# The JSON of the cached, reparsed, naive and fd-starved (ulimit -n 512: most
# clients re-read by path) runs must be identical, and so must the text of
# the cached and reparsed batch runs, or the bench fails.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TOOL=$(cd "$(dirname "${1:?usage: top.sh path/to/perf-hwtrace}")" && pwd)/$(basename "$1")
N=${TOP_BENCH_REFRESHES:-50}
NAIVE=${TOP_BENCH_NAIVE_REFRESHES:-5}
REPS=${TOP_BENCH_REPS:-5}
VERSION=2	# bump when fake_proc.py changes
CACHE=${TOP_BENCH_DIR:-$(dirname "$TOOL")/bench/top}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if [ "$(cat "$CACHE/stamp" 2>/dev/null)" != "$VERSION" ]; then
	rm -rf "$CACHE"
	mkdir -p "$CACHE"
	for per in 2 8; do
		python3 "$HERE/fake_proc.py" "$CACHE/proc$per" $per
	done
	echo $VERSION >"$CACHE/stamp"
fi

# run TREE OUT-PREFIX ARGS...: stats line to OUT.stats, last JSON object (time cut) to OUT.json
run() {
	local tree=$1 out=$2
	shift 2
	"$TOOL" top --proc "$tree" -d 0 --json --stats "$@" 2>"$out.stats" |
		tail -n 1 | sed 's/^{"time":[0-9.]*,//' >"$out.json"
}

# run_text TREE OUT-PREFIX ARGS...: the same as batch text (the last block, its time line cut)
run_text() {
	local tree=$1 out=$2
	shift 2
	"$TOOL" top --proc "$tree" -d 0 -b --stats "$@" 2>"$out.stats" |
		awk '/^# time / { n = 0; delete b; next } { b[n++] = $0 } END { for (i = 0; i < n; i++) print b[i] }' \
		>"$out.txt"
}

field() { # FILE KEY
	sed -n "s/.* $2 \([0-9.]*\).*/\1/p" "$1"
}

# min of the values on stdin
min() {
	sort -g | head -n 1
}

status=0
for per in 2 8; do
	tree=$CACHE/proc$per
	: >"$T/cached" && : >"$T/naive" && : >"$T/reparsed"
	: >"$T/tcached" && : >"$T/treparsed"
	for r in $(seq "$REPS"); do
		run "$tree" "$T/c" -n $((N + 1)) --rescan 86400
		run "$tree" "$T/p" -n $((N + 1)) --rescan 86400 --reparse
		run "$tree" "$T/n" -n "$NAIVE" --rescan 0
		run_text "$tree" "$T/tc" -n $((N + 1)) --rescan 86400
		run_text "$tree" "$T/tp" -n $((N + 1)) --rescan 86400 --reparse
		awk -v q="$(field "$T/c.stats" quick_ms)" -v r="$(field "$T/c.stats" render_ms)" \
			'BEGIN { printf "%.3f %.3f %.3f\n", q + r, q, r }' >>"$T/cached"
		awk -v q="$(field "$T/p.stats" quick_ms)" -v r="$(field "$T/p.stats" render_ms)" \
			'BEGIN { printf "%.3f %.3f %.3f\n", q + r, q, r }' >>"$T/reparsed"
		awk -v q="$(field "$T/tc.stats" quick_ms)" -v r="$(field "$T/tc.stats" render_ms)" \
			'BEGIN { printf "%.3f %.3f %.3f\n", q + r, q, r }' >>"$T/tcached"
		awk -v q="$(field "$T/tp.stats" quick_ms)" -v r="$(field "$T/tp.stats" render_ms)" \
			'BEGIN { printf "%.3f %.3f %.3f\n", q + r, q, r }' >>"$T/treparsed"
		awk -v f="$(field "$T/n.stats" full_ms)" -v r="$(field "$T/n.stats" render_ms)" \
			'BEGIN { printf "%.3f\n", f + r }' >>"$T/naive"
	done
	(ulimit -n 512 && run "$tree" "$T/s" -n 3 --rescan 86400)
	clients=$(field "$T/c.stats" clients)
	if [ "$clients" != $((1000 * per)) ] || ! cmp -s "$T/c.json" "$T/n.json" ||
	   ! cmp -s "$T/c.json" "$T/s.json" || ! cmp -s "$T/c.json" "$T/p.json" ||
	   [ "$(field "$T/c.stats" same_reads)" != $((N * 1000 * per)) ] ||
	   [ "$(field "$T/p.stats" same_reads)" != 0 ]; then
		echo "top bench: FAILED: $clients clients, or cached/reparsed/naive/fd-starved" \
		     "JSON differ, or texts not found unchanged"
		status=1
	fi
	if [ "$(wc -l <"$T/tc.txt")" != $((1000 * per + 2)) ] || ! cmp -s "$T/tc.txt" "$T/tp.txt"; then
		echo "top bench: FAILED: batch text of $((1000 * per)) clients, cached and reparsed differ"
		status=1
	fi
	rm -rf "$T/churn" && cp -a "$tree" "$T/churn"
	# a run where the writer fell behind (a refresh found a text unchanged)
	# is not a busy run: it is run again, up to REPS times in all
	: >"$T/busy"
	late=0
	while [ "$(wc -l <"$T/busy")" -lt "$REPS" ] && [ "$late" -lt "$REPS" ]; do
		python3 "$HERE/fake_proc.py" --churn "$T/churn" "$TOOL" top --proc "$T/churn" \
			-d 0.1 --json --stats -n $((N / 2 + 1)) --rescan 86400 2>"$T/b.stats" >/dev/null
		if [ "$(field "$T/b.stats" same_reads)" != 0 ]; then
			late=$((late + 1))
			continue
		fi
		awk -v q="$(field "$T/b.stats" quick_ms)" -v r="$(field "$T/b.stats" render_ms)" \
			'BEGIN { printf "%.3f\n", q + r }' >>"$T/busy"
	done
	if [ ! -s "$T/busy" ]; then
		echo "top bench: FAILED: every busy run found texts unchanged (the writer fell behind)"
		status=1
		echo nan >"$T/busy"
	fi
	read -r cached quick render < <(min <"$T/cached")
	read -r reparsed rquick rrender < <(min <"$T/reparsed")
	naive=$(min <"$T/naive")
	read -r tcached tquick trender < <(min <"$T/tcached")
	read -r treparsed trquick trrender < <(min <"$T/treparsed")
	# issue 13's targets, CPU per refresh with the render: 5 ms for 2000 clients, 20 for 8000
	target=$([ "$per" = 2 ] && echo 5 || echo 20)
	met() { awk -v c="$1" -v t="$target" 'BEGIN { print (c <= t) ? "met" : "NOT met" }'; }
	echo "top bench: 1000 procs x 8 DRM fds, $clients clients, target <= $target ms:" \
	     "cached ${cached} ms/refresh, idle clients (read+compare ${quick}, render ${render}:" \
	     "$(met "$cached")); every client re-parsed (--reparse, the worst case of busy ones)" \
	     "${reparsed} ms/refresh (read+parse ${rquick}, render ${rrender}: $(met "$reparsed"));" \
	     "naive full rescan ${naive} ms/refresh (best of $REPS; kept fds" \
	     "$(field "$T/c.stats" kept_fds), with ulimit -n 512: $(field "$T/s.stats" kept_fds))"
	echo "top bench: the same as batch text (-b, every client a line): cached ${tcached}" \
	     "ms/refresh (read+compare ${tquick}, render ${trender}: $(met "$tcached"));" \
	     "every client re-parsed ${treparsed} ms/refresh (read+parse ${trquick}," \
	     "render ${trrender}: $(met "$treparsed"))"
	echo "top bench: $clients clients, every text rewritten between refreshes 0.1 s apart" \
	     "(fake_proc.py --churn): $(min <"$T/busy") ms/refresh (best of $(wc -l <"$T/busy")," \
	     "$late run(s) where the writer fell behind run again; cooled caches; no target)"
done

# One client with 20000 engines (each named by two keys, the second ones in
# reverse order): the parse must stay linear in the engines per fdinfo.
python3 - "$T/wide" <<'PY'
import os, sys
d = f"{sys.argv[1]}/1000"
os.makedirs(f"{d}/fd")
os.makedirs(f"{d}/fdinfo")
with open(f"{d}/comm", "w") as f:
    f.write("wide\n")
os.symlink("/dev/dri/renderD128", f"{d}/fd/3")
n = 20000
with open(f"{d}/fdinfo/3", "w") as f:
    f.write("drm-driver:\txe\ndrm-client-id:\t1\n")
    f.write("".join(f"drm-engine-e{i}:\t{i} ns\n" for i in range(n)))
    f.write("".join(f"drm-cycles-e{i}:\t{i}\n" for i in reversed(range(n))))
PY
: >"$T/wide.ms"
for r in $(seq "$REPS"); do
	run "$T/wide" "$T/w" -n 3 --rescan 0
	field "$T/w.stats" full_ms >>"$T/wide.ms"
done
echo "top bench: 1 client x 20000 engines: $(min <"$T/wide.ms") ms/refresh (full rescan," \
     "best of $REPS; linear parse)"
exit $status
