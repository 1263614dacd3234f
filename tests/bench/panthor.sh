#!/usr/bin/env bash
# panthor benchmark (issues 3 and 11 item 7): what a user runs over a synth
# perf.data holding 1 GiB of raw panthor samples, output included (to
# /dev/null):
#   records-only decode     script --null
#   per-sample metrics      script --metrics --null
#   per-run metrics         report --metrics (prints the run's metrics)
# Time is CPU time (perf stat task-clock, best of 3; the user+system time of
# the child when perf stat cannot count) because the machine may be shared
# and wall time then measures the other load; the wall time of the best run
# is shown next to it.  Peak RSS is measured at a quarter of the size as well:
# memory is flat when the two agree within 8 MiB.  Target: >= 1000 MB/s.
# $1 = perf-hwtrace.  BENCH_SIZE overrides the large size (e.g. 64M).
set -eu
tool=$1
dir=${BENCH_DIR:-build/bench}
size=${BENCH_SIZE:-1G}
mkdir -p "$dir"
m() { python3 "$(dirname "$0")/measure.py" "$@"; }
calc() { python3 -c "print(f'{$1:.${2:-0}f}')"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

small=$(python3 -c "
s = '$size'; u = {'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30}
n = int(s[:-1]) * u[s[-1]] if s[-1] in u else int(s)
print(f'{n // 4 >> 20}M' if n >= 4 << 20 else n // 4)")
for s in "$size" "$small"; do
	[ -s "$dir/panthor-$s.data" ] ||
		"$tool" synth --type panthor --seed 1 --size "$s" -o "$dir/panthor-$s.data"
done
big=$dir/panthor-$size.data
bytes=$(stat -L -c %s "$big")
# blocks in the file: samples x 11 blocks (synth v6: FW, CSHW, TILER, 4 MEMSYS, 4 SHADER)
blocks=$(( bytes / 5952 * 11 ))

clock=task-clock
perf stat -x, -e task-clock -o "$tmp/probe" -- true 2>/dev/null &&
	grep -q '^[0-9.]*,msec,task-clock' "$tmp/probe" || clock=rusage

# cpu CMD...: "cpu_seconds wall_seconds" of the best of 3 runs
cpu() {
	local best='' wall='' t w
	for _ in 1 2 3; do
		if [ $clock = task-clock ]; then
			w=$(m perf stat -x, -e task-clock -o "$tmp/st" -- "$@" | cut -d' ' -f1)
			t=$(awk -F, '$3 == "task-clock" { print $1 / 1000 }' "$tmp/st")
		else
			read -r w t < <(python3 -c '
import resource, subprocess, sys, time
t0 = time.monotonic()
subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{time.monotonic() - t0:.4f} {r.ru_utime + r.ru_stime:.4f}")' "$@")
		fi
		if [ -z "$best" ] || python3 -c "import sys; sys.exit(not $t < $best)"; then
			best=$t wall=$w
		fi
	done
	echo "$best $wall"
}
# rss FILE CMD...: peak RSS in KiB of CMD -i FILE
rss() { local f=$1; shift; m "$@" -i "$f" | cut -d' ' -f2; }
met() { python3 -c "print('met' if $1 else 'NOT met')"; }

cat "$dir/panthor-$small.data" "$big" >/dev/null	# warm the page cache for every reader
read -r t_cat _ < <(cpu cat "$big")
echo "input: $big ($bytes bytes, ~$blocks blocks); time: $clock CPU seconds, best of 3"
echo "cat:                     $(calc "$bytes/1e6/$t_cat") MB/s"
for w in "records-only decode|script --null" "per-sample metrics|script --metrics --null" \
	 "per-run metrics|report --metrics"; do
	IFS='|' read -r what cmd <<<"$w"
	# shellcheck disable=SC2086 # cmd is words
	read -r t wall < <(cpu "$tool" $cmd -i "$big")
	# shellcheck disable=SC2086
	r_big=$(rss "$big" "$tool" $cmd)
	# shellcheck disable=SC2086
	r_small=$(rss "$dir/panthor-$small.data" "$tool" $cmd)
	echo "$what ($cmd): $(calc "$bytes/1e6/$t") MB/s ($(calc "$t" 3) s CPU," \
	     "$(calc "$wall" 3) s wall), $(calc "$blocks/$t") blocks/s;" \
	     "target >= 1000 MB/s: $(met "$bytes/1e6/$t >= 1000")"
	echo "    peak RSS $((r_small / 1024)) MiB at $small, $((r_big / 1024)) MiB at $size;" \
	     "flat memory (within 8 MiB): $(met "abs($r_big - $r_small) <= 8192")"
done
