#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# i915 OA decode throughput.  $1 = perf-hwtrace.
#  1. a >= 1 GiB raw stream: every report decoded into records (decode --null),
#     also from a pipe, and the per-context totals alone (decode --report), vs cat
#  2. metrics over an IGT file as large: per context and per report, and the
#     peak RSS at a quarter of the size (flat memory)
#  3. on one IGT file: our report vs i915-perf-reader -c all (totals),
#     our script --json vs i915-perf-reader -r -c all (per report), and the
#     same with --metrics; per report again on a file with idle counters
# Each time is the best of $BENCH_RUNS runs (default 3), for both tools alike:
# the machine may be shared.  Step 3's runs take milliseconds, most of them
# start-up, and both tools' times swing by half from run to run on a shared
# machine: there each time is the best of $BENCH_SMALL_RUNS (default 11),
# the two tools' runs alternating (interleave.py).
# BENCH_SIZE=<MiB> shrinks steps 1 and 2 (default 1024).
set -euo pipefail
HWTRACE=${1:?usage: i915_oa.sh path/to/perf-hwtrace}
DIR=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
GEN="python3 $DIR/fixtures/gen_igt.py"
READER=$(command -v i915-perf-reader || true)
RUNS=${BENCH_RUNS:-3}
SMALL_RUNS=${BENCH_SMALL_RUNS:-11}
SIZE=${BENCH_SIZE:-1024}

# exit status 1 is a decode error (still a figure), a signal is a crash: no figure
died() {
	local rc=$1
	shift
	[ "$rc" -lt 128 ] && return 0
	echo "i915-oa: $*: killed by signal $((rc - 128))" >&2
	exit 1
}

# $EPOCHREALTIME (bash 5) reads the clock without forking date: a fork costs
# about a millisecond, too much next to a 5 ms run
secs() {
	local t0 t1 t best=
	for _ in $(seq "$RUNS"); do
		t0=$EPOCHREALTIME
		"$@" > /dev/null 2>&1 || died $? "$@"
		t1=$EPOCHREALTIME
		t=$(echo "${t1/,/.} - ${t0/,/.}" | bc -l)
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
	done
	echo "$best"
}

# raw stream: 4000 records (~1 MiB) repeated SIZE times
$GEN --raw --no-lost --reports 4000 --scale "$SIZE" -o "$TMP/big.raw" > /dev/null
bytes=$(stat -c %s "$TMP/big.raw")
reports=$((bytes / 264))
DEC=("$HWTRACE" decode --type i915-oa --oa-format A32u40_A4u32_B8_C8 --ts-freq 19200000)
cat "$TMP/big.raw" > /dev/null
t_cat=$(secs cat "$TMP/big.raw")
t_rec=$(secs "${DEC[@]}" --null "$TMP/big.raw")
t_tot=$(secs "${DEC[@]}" --report "$TMP/big.raw")
# the same through a pipe (a recorder's output): `cat | cat` is what the pipe alone costs
t_pcat=$(secs bash -c 'cat "$1" | cat' _ "$TMP/big.raw")
t_pipe=$(secs bash -c 'f=$1; shift; cat "$f" | "$@" --null -' _ "$TMP/big.raw" "${DEC[@]}")
printf 'i915-oa: %d MiB raw stream, %d reports, cat %.2fs\n' $((bytes >> 20)) "$reports" "$t_cat"
printf 'i915-oa:   records (decode --null): %.2fs, %.0f reports/s, %.0f MB/s (target >= 1000 MB/s)\n' \
	"$t_rec" "$(echo "$reports / $t_rec" | bc -l)" "$(echo "$bytes / $t_rec / 1000000" | bc -l)"
printf 'i915-oa:   records from a pipe (cat | decode --null -): %.2fs, %.0f MB/s (cat | cat %.2fs)\n' \
	"$t_pipe" "$(echo "$bytes / $t_pipe / 1000000" | bc -l)" "$t_pcat"
printf 'i915-oa:   totals (decode --report): %.2fs, %.0f reports/s, %.0f MB/s\n' \
	"$t_tot" "$(echo "$reports / $t_tot" | bc -l)" "$(echo "$bytes / $t_tot / 1000000" | bc -l)"

# metrics over >= 1 GiB (issue 11): an IGT file of the same reports (TGL
# RenderBasic), per context (report --metrics) and per report (script
# --metrics --null: every equation on every report, nothing printed); peak
# RSS at a quarter of the size as well: memory is flat when both agree
# within 8 MiB
$GEN --no-lost --reports 4000 --scale "$SIZE" -o "$TMP/big.igt" > /dev/null
$GEN --no-lost --reports 4000 --scale $((SIZE / 4 > 0 ? SIZE / 4 : 1)) -o "$TMP/quarter.igt" > /dev/null
ibytes=$(stat -c %s "$TMP/big.igt")
cat "$TMP/big.igt" "$TMP/quarter.igt" > /dev/null
rm -f "$TMP/big.raw"	# the page cache and the disk hold one large file at a time
rss() { python3 "$DIR/bench/measure.py" "$@" | cut -d' ' -f2; }
for w in "per context|report --metrics" "per report|script --metrics --null"; do
	IFS='|' read -r what cmd <<<"$w"
	# shellcheck disable=SC2086 # cmd is words
	t=$(secs "$HWTRACE" $cmd -i "$TMP/big.igt")
	# shellcheck disable=SC2086
	r_big=$(rss "$HWTRACE" $cmd -i "$TMP/big.igt")
	# shellcheck disable=SC2086
	r_small=$(rss "$HWTRACE" $cmd -i "$TMP/quarter.igt")
	mbs=$(echo "$ibytes / $t / 1000000" | bc -l)
	printf 'i915-oa: metrics %s (%s), %d MiB IGT file: %.2fs, %.0f MB/s (target >= 1000 MB/s: %s)\n' \
		"$what" "$cmd" $((ibytes >> 20)) "$t" "$mbs" \
		"$([ "$(echo "$mbs >= 1000" | bc -l)" = 1 ] && echo met || echo "NOT met")"
	printf 'i915-oa:     peak RSS %d MiB at a quarter, %d MiB at the whole (flat within 8 MiB: %s)\n' \
		$((r_small / 1024)) $((r_big / 1024)) \
		"$([ $((r_big - r_small)) -le 8192 ] && [ $((r_small - r_big)) -le 8192 ] && echo met || echo "NOT met")"
done
rm -f "$TMP/big.igt" "$TMP/quarter.igt"

# the same IGT file for both tools (~10 MB, as the issue's measurement)
RUNS=$SMALL_RUNS
$GEN --no-lost --reports 4000 --scale 10 -o "$TMP/igt.rec" > /dev/null
if [ -z "$READER" ]; then
	echo "i915-oa: i915-perf-reader not installed, peer timing skipped"
	exit 0
fi
# every command once a round, the peer's beside ours (interleave.py): the
# ratios do not take in the machine's drift between the two tools' runs.
# The metrics runs are issue 11's, the start-ups (exec and dynamic linking,
# in every time here) a run that does nothing.
read -r t_rt t_ot t_rr t_or t_om t_osm t_start t_rstart < <(python3 "$DIR/bench/interleave.py" "$RUNS" \
	"$READER" -c all "$TMP/igt.rec" ';;' \
	"$HWTRACE" report -i "$TMP/igt.rec" ';;' \
	"$READER" -r -c all "$TMP/igt.rec" ';;' \
	"$HWTRACE" script --json -i "$TMP/igt.rec" ';;' \
	"$HWTRACE" report --metrics -i "$TMP/igt.rec" ';;' \
	"$HWTRACE" script --metrics --json -i "$TMP/igt.rec" ';;' \
	"$HWTRACE" --version ';;' \
	"$READER" --help)
printf 'i915-oa: totals: ours %.3fs vs i915-perf-reader -c all %.3fs (%.1fx, target 2x)\n' \
	"$t_ot" "$t_rt" "$(echo "$t_rt / $t_ot" | bc -l)"
printf 'i915-oa: per report: ours script --json %.3fs vs i915-perf-reader -r -c all %.3fs (%.1fx, target 5x)\n' \
	"$t_or" "$t_rr" "$(echo "$t_rr / $t_or" | bc -l)"

# metrics (issue 11): the same file, RenderBasic, every logical counter
met() { [ "$(echo "$1 >= $2" | bc -l)" = 1 ] && echo met || echo "NOT met"; }
printf 'i915-oa: start-up alone: perf-hwtrace --version %.3fs, i915-perf-reader --help %.3fs\n' \
	"$t_start" "$t_rstart"
r1=$(echo "$t_rt / $t_om" | bc -l)
r2=$(echo "$t_rr / $t_osm" | bc -l)
printf 'i915-oa: metrics per context: report --metrics %.3fs vs i915-perf-reader -c all %.3fs (%.1fx, target 3x: %s)\n' \
	"$t_om" "$t_rt" "$r1" "$(met "$r1" 3)"
printf 'i915-oa: metrics per report: script --metrics --json %.3fs vs i915-perf-reader -r -c all %.3fs (%.1fx, target 5x: %s)\n' \
	"$t_osm" "$t_rr" "$r2" "$(met "$r2" 5)"

# the same per report on a file where a third of the counters idle (no
# deltas), as on a GPU some of whose units have no work: a list of deltas
# mixes zeros with 6-7 digit numbers, one of raw counters the idle ones'
# 6-7 digits with the busy ones' 10 and more, which the generator's
# default (every counter busy) never does within a list
$GEN --no-lost --idle-counters --reports 4000 --scale 10 -o "$TMP/idle.rec" > /dev/null
read -r t_ir t_ior t_iosm < <(python3 "$DIR/bench/interleave.py" "$RUNS" \
	"$READER" -r -c all "$TMP/idle.rec" ';;' \
	"$HWTRACE" script --json -i "$TMP/idle.rec" ';;' \
	"$HWTRACE" script --metrics --json -i "$TMP/idle.rec")
r3=$(echo "$t_ir / $t_ior" | bc -l)
r4=$(echo "$t_ir / $t_iosm" | bc -l)
printf 'i915-oa: idle counters (a third): script --json %.3fs, script --metrics --json %.3fs vs i915-perf-reader -r -c all %.3fs (%.1fx and %.1fx, target 5x: %s and %s)\n' \
	"$t_ior" "$t_iosm" "$t_ir" "$r3" "$r4" "$(met "$r3" 5)" "$(met "$r4" 5)"
