#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# convert --to-perfetto: time, throughput and peak RSS for two input sizes of
# each kind (memory must not grow with the input), against script --null on
# the same file in the same run (the decoding alone).  $1 = perf-hwtrace.
#  1. CXL HMU synth perf.data: 100 MiB and BENCH_SIZE (default 1G)
#  2. i915 OA IGT recording: ~10 MB and ~40 MB (tests/fixtures/gen_igt.py),
#     with --raw-counters too (one track per A/B/C counter per context)
set -euo pipefail
tool=${1:?usage: convert.sh path/to/perf-hwtrace}
here=$(cd "$(dirname "$0")" && pwd)
size=${BENCH_SIZE:-1G}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
measure() { python3 "$here/measure.py" "$@"; }

# one line: NAME FILE [convert options]
row() {
	local name=$1 in=$2 bytes t rss tn
	shift 2
	read -r t rss < <(measure "$tool" convert --to-perfetto "$TMP/out.pftrace" -i "$in" "$@")
	read -r tn _ < <(measure "$tool" script --null -i "$in")
	bytes=$(stat -L -c %s "$in")
	printf '%-28s %6d MiB  %7.2fs  %7.1f MB/s  peak RSS %5d MiB  out %7d KiB  script --null %.2fs (%.1fx)\n' \
		"$name" $((bytes >> 20)) "$t" "$(echo "$bytes / $t / 1000000" | bc -l)" $((rss / 1024)) \
		$(($(stat -c %s "$TMP/out.pftrace") >> 10)) "$tn" "$(echo "$t / $tn" | bc -l)"
	echo "$rss" >>"$TMP/rss.$name"
}

"$tool" synth --type cxl-hmu --seed 1 --size 100M -o "$TMP/small.data" 2>/dev/null
"$tool" synth --type cxl-hmu --seed 1 --size "$size" -o "$TMP/big.data" 2>/dev/null
row "cxl-hmu (100M)" "$TMP/small.data"
row "cxl-hmu ($size)" "$TMP/big.data"
# most of it is the first pass: the hottest units are report's ranking
read -r t rss < <(measure "$tool" report -i "$TMP/big.data")
printf '%-28s report (the same ranking) %.2fs, peak RSS %d MiB\n' "cxl-hmu ($size)" "$t" $((rss / 1024))
read -r t rss < <(measure "$tool" convert --to-perfetto "$TMP/out.pftrace" -i - <"$TMP/big.data")
printf '%-28s convert -i - (one pass, no hot units) %.2fs, peak RSS %d MiB\n' "cxl-hmu ($size)" "$t" \
	$((rss / 1024))
rm -f "$TMP/small.data" "$TMP/big.data"

python3 "$here/../fixtures/gen_igt.py" --no-lost --reports 4000 --scale 10 -o "$TMP/igt10.rec" >/dev/null
python3 "$here/../fixtures/gen_igt.py" --no-lost --reports 4000 --scale 40 -o "$TMP/igt40.rec" >/dev/null
row "i915-oa IGT (10 MB)" "$TMP/igt10.rec"
row "i915-oa IGT (40 MB)" "$TMP/igt40.rec"
row "i915-oa IGT raw (10 MB)" "$TMP/igt10.rec" --raw-counters
row "i915-oa IGT raw (40 MB)" "$TMP/igt40.rec" --raw-counters
