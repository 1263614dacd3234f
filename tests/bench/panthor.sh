#!/usr/bin/env bash
# panthor benchmark (issue 3): records-only decode of a >= 1 GiB synth stream
# vs `cat file >/dev/null`, as blocks/s and MB/s, and the ratio (target: decode
# >= 1 GB/s); issue 11: the same with the derived metrics (`script --metrics
# --null`, `report --metrics`), target >= 1 GB/s with peak RSS flat (within
# 8 MiB of the records-only decode's).  $1 = perf-hwtrace.  BENCH_SIZE
# overrides the size (e.g. 64M).
set -eu
tool=$1
dir=${BENCH_DIR:-build/bench}
size=${BENCH_SIZE:-1G}
mkdir -p "$dir"
m() { python3 "$(dirname "$0")/measure.py" "$@"; }
calc() { python3 -c "print(f'{$1:.${2:-0}f}')"; }

f=$dir/panthor-$size.data
[ -s "$f" ] || "$tool" synth --type panthor --seed 1 --size "$size" -o "$f"
bytes=$(stat -c %s "$f")
# blocks in the file: samples x 11 blocks (synth v6: FW, CSHW, TILER, 4 MEMSYS, 4 SHADER)
blocks=$(( bytes / 5952 * 11 ))

cat "$f" >/dev/null	# warm the page cache for every reader alike
read -r t_cat _ < <(m cat "$f")
read -r t_dec rss < <(m "$tool" script --null -i "$f")
read -r t_met rss_met < <(m "$tool" script --metrics --null -i "$f")
read -r t_rep rss_rep < <(m "$tool" report --metrics -i "$f")
met() { python3 -c "print('met' if $1 else 'not met')"; }

echo "input: $f ($bytes bytes, ~$blocks blocks)"
echo "cat:                 $(calc "$bytes/1e6/$t_cat") MB/s"
echo "records-only decode: $(calc "$bytes/1e6/$t_dec") MB/s, $(calc "$blocks/$t_dec") blocks/s," \
     "peak RSS $((rss / 1024)) MiB  target >= 1000 MB/s"
echo "decode/cat ratio:    $(calc "$t_cat/$t_dec" 3)"
for w in "script --metrics --null:$t_met:$rss_met" "report --metrics:$t_rep:$rss_rep"; do
	IFS=: read -r name t r <<<"$w"
	echo "$name: $(calc "$bytes/1e6/$t") MB/s, peak RSS $((r / 1024)) MiB" \
	     "(records-only $((rss / 1024)) MiB); metrics/records-only time ratio" \
	     "$(calc "$t/$t_dec" 3); target >= 1000 MB/s, flat memory:" \
	     "$(met "$bytes/1e6/$t >= 1000 and $r - $rss <= 8192")"
done
