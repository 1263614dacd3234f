#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# i915 OA decode throughput.  $1 = perf-hwtrace.
#  1. reports/s for a >= 1 GiB raw stream (decode, totals only) vs cat
#  2. on one IGT file: our report vs i915-perf-reader -c all (totals),
#     our script --json vs i915-perf-reader -r -c all (per report)
set -euo pipefail
HWTRACE=${1:?usage: i915_oa.sh path/to/perf-hwtrace}
DIR=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
GEN="python3 $DIR/fixtures/gen_igt.py"
READER=$(command -v i915-perf-reader || true)

now() { date +%s.%N; }
secs() { local t0; t0=$(now); "$@" > /dev/null 2>&1 || true; echo "$(now) - $t0" | bc -l; }

# 1 GiB raw stream: 4000 records (~1 MiB) repeated
$GEN --raw --no-lost --reports 4000 --scale 1024 -o "$TMP/big.raw" > /dev/null
bytes=$(stat -c %s "$TMP/big.raw")
reports=$((bytes / 264))
cat "$TMP/big.raw" > /dev/null
t_cat=$(secs cat "$TMP/big.raw")
t_dec=$(secs "$HWTRACE" decode --type i915-oa --oa-format A32u40_A4u32_B8_C8 --ts-freq 19200000 \
	--report "$TMP/big.raw")
printf 'i915-oa: %d MiB raw stream, %d reports: decode %.2fs (%.0f reports/s, %.0f MB/s), cat %.2fs\n' \
	$((bytes >> 20)) "$reports" "$t_dec" "$(echo "$reports / $t_dec" | bc -l)" \
	"$(echo "$bytes / $t_dec / 1000000" | bc -l)" "$t_cat"

# the same IGT file for both tools (~10 MB, as the issue's measurement)
$GEN --no-lost --reports 4000 --scale 10 -o "$TMP/igt.rec" > /dev/null
if [ -z "$READER" ]; then
	echo "i915-oa: i915-perf-reader not installed, peer timing skipped"
	exit 0
fi
t_rt=$(secs "$READER" -c all "$TMP/igt.rec")
t_ot=$(secs "$HWTRACE" report -i "$TMP/igt.rec")
t_rr=$(secs "$READER" -r -c all "$TMP/igt.rec")
t_or=$(secs "$HWTRACE" script --json -i "$TMP/igt.rec")
printf 'i915-oa: totals: ours %.3fs vs i915-perf-reader -c all %.3fs (%.1fx, target 2x)\n' \
	"$t_ot" "$t_rt" "$(echo "$t_rt / $t_ot" | bc -l)"
printf 'i915-oa: per report: ours script --json %.3fs vs i915-perf-reader -r -c all %.3fs (%.1fx, target 5x)\n' \
	"$t_or" "$t_rr" "$(echo "$t_rr / $t_or" | bc -l)"
