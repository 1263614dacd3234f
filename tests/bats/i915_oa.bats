#!/usr/bin/env bats
# i915 OA: IGT recorder files vs Debian's i915-perf-reader, raw streams, synth perf.data.

load lib/common

GEN="python3 $BATS_TEST_DIRNAME/../fixtures/gen_igt.py"
READER=$(command -v i915-perf-reader || echo /usr/bin/i915-perf-reader)

setup() {
	T=$(mktemp -d)
}

teardown() {
	[ -z "${CG:-}" ] || rmdir "$CG" 2>/dev/null || true
	rm -rf "$T"
}

# fmt_threads FILE OUT: how many rendering threads (hwtrace-fmt) `script --json`
# of FILE runs, in $CG, counted while its output, a pipe no one reads yet, is
# full (the decoding thread blocked in write(), syscall 1: the workers start
# before the first batch is written); the output to OUT.
fmt_threads() {
	local fifo=$T/fifo pid n sc
	rm -f "$fifo" && mkfifo "$fifo"
	sh -c 'echo $$ > "$1/cgroup.procs" && exec "$2" script --json -i "$3"' _ \
		"$CG" "$HWTRACE" "$1" > "$fifo" &
	pid=$!
	exec 3< "$fifo"
	for _ in $(seq 1000); do
		sc=
		[ "$(cat "/proc/$pid/comm")" != perf-hwtrace ] || read -r sc _ < "/proc/$pid/syscall" || true
		[ "$sc" != 1 ] || break
		sleep 0.01
	done
	n=$(cat /proc/$pid/task/*/comm | grep -cx hwtrace-fmt || true)
	cat <&3 > "$2"
	exec 3<&-
	wait "$pid"
	echo "$n"
}

# Compare our per-context totals and per-report deltas with i915-perf-reader
# (FORMAT REPORTS [generator options]).  The reader prints one delta per
# context timeline and ignores BUFFER_LOST; the generator reports both
# accountings (igt_* = the reader's).
peer_check() {
	local fmt=$1 n=$2
	shift 2
	$GEN --format "$fmt" --reports "$n" "$@" -o "$T/f.rec" > "$T/man.json"
	"$READER" -c GpuTime,GpuCoreClocks "$T/f.rec" > "$T/igt.txt"
	"$READER" -r -c GpuTime,GpuCoreClocks "$T/f.rec" > "$T/igt_r.txt"
	run "$HWTRACE" script -i "$T/f.rec" --json
	[ "$status" -eq 0 ]
	echo "$output" > "$T/ours.json"
	python3 - "$T" "$BATS_TEST_DIRNAME/../fixtures" <<'PY'
import json, re, sys
d = sys.argv[1]
man = [json.loads(l) for l in open(d + '/man.json')]
meta = man[0]
freq = meta['ts_freq']
ours = [json.loads(l) for l in open(d + '/ours.json') if l.startswith('{')]
reps = [r for r in ours if r['type'] == 'i915_oa_report']
want = [m for m in man if m['type'] in ('i915_oa_report', 'i915_oa_lost')]
# CPU time (from correlation points) is checked in i915_metrics.bats
got = [{k: v for k, v in r.items() if k != 'time'} for r in ours
       if r['type'] in ('i915_oa_report', 'i915_oa_lost')]
assert all('time' in r for r in reps), 'a report without CPU time'
assert got == want, 'script --json differs from what the generator wrote'
# reader totals, summed per hw_id over its timelines
sys.path.insert(0, sys.argv[2])
from cmp_igt_metrics import reader_sums
igt = reader_sums(open(d + '/igt.txt').read())
ctxs = [m for m in man if m['type'] == 'i915_oa_context']
assert igt, 'reader printed no timeline'
for c in ctxs:
    assert igt[c['ctx']] == [c['igt_GpuTime'], c['igt_GpuCoreClocks']], (c, igt)
# per-report deltas: the reader's -r lines, in order, against ours where we have one
r_igt, inrep = [], False
for l in open(d + '/igt_r.txt'):
    if l.startswith('hw_id='):
        inrep = False       # the timeline's totals follow, not a report's
    if l.startswith(' report'):
        r_igt.append([])
        inrep = True
    m = re.match(r'   (GpuTime|GpuCoreClocks): (\d+)', l)
    if m and inrep:
        r_igt[-1].append(int(m.group(2)))
assert len(r_igt) == len(reps) - 1, (len(r_igt), len(reps))
checked = 0
for r, g in zip(reps[1:], r_igt):
    if 'dts' in r:
        assert [r['dts'] * 10**9 // freq, r['dticks']] == g, (r['dts'], r['dticks'], g)
        checked += 1
assert checked >= len(reps) - 3
print('per-report deltas checked:', checked)
PY
}


# $T/rep.txt (our report)'s per-context GpuTime and GpuCoreClocks equal the
# sums of i915-perf-reader's per-timeline totals in $T/igt.txt
totals_equal_reader() {
	python3 - "$T" "$BATS_TEST_DIRNAME/../fixtures" <<'PY'
import sys
d = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from cmp_igt_metrics import reader_sums
igt = reader_sums(open(d + '/igt.txt').read())
ours = {}
rows = open(d + '/rep.txt').read().split('i915_oa_context:')[1].splitlines()
for l in rows[2:]:
    f = l.split()
    if len(f) < 5 or not f[0].startswith('0x'):
        break
    ours[int(f[0], 16)] = [int(f[3]), int(f[4])]
assert igt and ours == igt, (ours, igt)
PY
}

@test "i915-oa: peer check vs i915-perf-reader, TGL A32u40_A4u32_B8_C8" {
	peer_check A32u40_A4u32_B8_C8 60
}

@test "i915-oa: peer check vs i915-perf-reader, TGL with idle counters (lists mix short and long numbers)" {
	peer_check A32u40_A4u32_B8_C8 600 --idle-counters
	grep -q '"da":\[[0-9]*,0,' "$T/ours.json"
}

@test "i915-oa: peer check vs i915-perf-reader, DG2 A24u40_A14u32_B8_C8 (Gfx12.5 shift)" {
	peer_check A24u40_A14u32_B8_C8 60
}

@test "i915-oa: peer check vs i915-perf-reader, HSW A45_B8_C8" {
	peer_check A45_B8_C8 40
}

@test "i915-oa: peer check vs i915-perf-reader, SKL (ctx-valid bit 16)" {
	peer_check SKL_A32u40_A4u32_B8_C8 40
}

@test "i915-oa: report per-context totals equal the reader's on a file without BUFFER_LOST" {
	$GEN --no-lost --reports 50 -o "$T/f.rec" > "$T/man.json"
	"$READER" -c GpuTime,GpuCoreClocks "$T/f.rec" > "$T/igt.txt"
	"$HWTRACE" script -i "$T/f.rec" --json > /dev/null
	run "$HWTRACE" report -i "$T/f.rec"
	[ "$status" -eq 0 ]
	echo "$output" > "$T/rep.txt"
	totals_equal_reader
}

@test "i915-oa: an IGT recording through a pipe or FIFO is taken as from the file" {
	$GEN --no-lost --reports 50 -o "$T/f.rec" > "$T/man.json"
	"$READER" -c GpuTime,GpuCoreClocks "$T/f.rec" > "$T/igt.txt"
	# stdin a pipe: the head is read without taking it out of the pipe
	cat "$T/f.rec" | "$HWTRACE" report -i - > "$T/rep.txt"
	totals_equal_reader
	"$HWTRACE" script --json -i "$T/f.rec" > "$T/file.json"
	# a FIFO whose writer sends the first 10 bytes, then the rest later:
	# the probe waits for the 16 it needs
	mkfifo "$T/fifo"
	(head -c 10 "$T/f.rec"; sleep 0.3; tail -c +11 "$T/f.rec") > "$T/fifo" &
	timeout 20 "$HWTRACE" script --json -i "$T/fifo" > "$T/fifo.json"
	wait
	cmp "$T/file.json" "$T/fifo.json"
	# and the reports are the ones the generator wrote (CPU time aside:
	# i915_metrics.bats checks it against i915-perf-reader)
	python3 - "$T" <<'PY'
import json, sys
d = sys.argv[1]
man = [json.loads(l) for l in open(d + '/man.json')]
want = [m for m in man if m['type'] == 'i915_oa_report']
got = [{k: v for k, v in r.items() if k != 'time'}
       for r in map(json.loads, open(d + '/fifo.json')) if r['type'] == 'i915_oa_report']
assert len(want) == 50 and got == want, (len(got), len(want))
PY
	# a pipe that ends before 16 bytes is no IGT file, and says so
	run bash -c "head -c 10 '$T/f.rec' | '$HWTRACE' report -i -"
	[ "$status" -eq 1 ]
	[[ "$output" == *"offset 0: perf.data header: input too short (10 bytes)"* ]]
}

@test "i915-oa: script renders in threads: every report as generated, the bytes of one thread" {
	# 4000 reports: a hundred batches or so for the rendering threads
	$GEN --no-lost --reports 4000 -o "$T/f.rec" > "$T/man.json"
	"$HWTRACE" script --json -i "$T/f.rec" > "$T/ours.json"
	python3 - "$T" <<'PY'
import json, sys
d = sys.argv[1]
man = [json.loads(l) for l in open(d + '/man.json')]
want = [m for m in man if m['type'] in ('i915_oa_report', 'i915_oa_lost')]
got = [{k: v for k, v in r.items() if k != 'time'}
       for r in map(json.loads, open(d + '/ours.json'))
       if r['type'] in ('i915_oa_report', 'i915_oa_lost')]
assert len(want) == 4000 and got == want, (len(got), len(want))
PY
	# one CPU: one thread renders; the same bytes, text, CSV and metrics too
	taskset -c 0 "$HWTRACE" script --json -i "$T/f.rec" > "$T/one.json"
	cmp "$T/ours.json" "$T/one.json"
	"$HWTRACE" script --metrics --json -i "$T/f.rec" > "$T/m.json"
	taskset -c 0 "$HWTRACE" script --metrics --json -i "$T/f.rec" > "$T/m1.json"
	cmp "$T/m.json" "$T/m1.json"
	# every report but the first (no delta yet) has its metrics
	[ "$(grep -c '"GpuBusy":' "$T/m.json")" -eq 3999 ]
	"$HWTRACE" script -i "$T/f.rec" > "$T/t.txt"
	taskset -c 0 "$HWTRACE" script -i "$T/f.rec" > "$T/t1.txt"
	cmp "$T/t.txt" "$T/t1.txt"
	"$HWTRACE" script --csv -i "$T/f.rec" > "$T/c.csv"
	taskset -c 0 "$HWTRACE" script --csv -i "$T/f.rec" > "$T/c1.csv"
	cmp "$T/c.csv" "$T/c1.csv"
	[ "$(grep -c '^i915_oa_report,' "$T/c.csv")" -eq 4000 ]
	# --reltime and --deltatime render in threads too: each time relative
	# to the first record's or the one before, as from the absolute times
	"$HWTRACE" script --json --reltime -i "$T/f.rec" > "$T/rel.json"
	"$HWTRACE" script --json --deltatime -i "$T/f.rec" > "$T/delta.json"
	python3 - "$T" <<'PY'
import json, sys
d = sys.argv[1]
load = lambda n: [json.loads(l) for l in open(d + '/' + n)]
ab, rel, delta = load('ours.json'), load('rel.json'), load('delta.json')
assert len(ab) == len(rel) == len(delta) == 4000
first = prev = None
for a, r, e in zip(ab, rel, delta):
    assert {k: v for k, v in a.items() if k != 'time'} == {k: v for k, v in r.items() if k != 'time'}
    if 'time' not in a:
        assert 'time' not in r and 'time' not in e
        continue
    t = a['time']
    first = t if first is None else first
    prev = t if prev is None else prev
    assert r['time'] == t - first and e['time'] == t - prev, (t, r['time'], e['time'])
    prev = t
PY
	"$HWTRACE" script --deltatime -i "$T/f.rec" > "$T/d.txt"
	taskset -c 0 "$HWTRACE" script --deltatime -i "$T/f.rec" > "$T/d1.txt"
	cmp "$T/d.txt" "$T/d1.txt"
	# a reader that stops early ends it quietly, as perf script | head does
	run bash -c '"$HWTRACE" script --metrics --json -i "$1" | head -c 100 > /dev/null; echo "${PIPESTATUS[0]}"' _ "$T/f.rec"
	[ "$output" = 141 ]
}

@test "i915-oa: script renders in no more threads than the cgroup's CPU limit" {
	local cpus workers
	cpus=$(nproc)
	[ "$cpus" -ge 2 ] || skip "one CPU: script renders in one thread anyway"
	cpu_cgroup_new || skip "no cgroup with the cpu controller can be made here"
	workers=$((cpus - 1 < 7 ? cpus - 1 : 7))
	$GEN --no-lost --reports 4000 -o "$T/f.rec" > /dev/null
	# no limit: a worker per CPU less one, as without the cgroup
	cpu_limit max
	[ "$(fmt_threads "$T/f.rec" "$T/all.json")" -eq "$workers" ]
	# a limit of one CPU: the decoding thread renders alone
	cpu_limit 1
	[ "$(fmt_threads "$T/f.rec" "$T/one.json")" -eq 0 ]
	# 1.5 CPUs round up to two: one worker
	cpu_limit 1.5
	[ "$(fmt_threads "$T/f.rec" "$T/two.json")" -eq 1 ]
	cmp "$T/all.json" "$T/one.json"
	cmp "$T/all.json" "$T/two.json"
	[ "$(grep -c '"type":"i915_oa_report"' "$T/one.json")" -eq 4000 ]
}

@test "i915-oa: script of a short input starts no rendering thread, a long one some" {
	[ "$(nproc)" -ge 2 ] || skip "one CPU: script renders in one thread anyway"
	$GEN --no-lost --reports 5 -o "$T/short.rec" > /dev/null
	$GEN --no-lost --reports 4000 -o "$T/long.rec" > /dev/null
	# threads are clone()s with CLONE_THREAD: none for 5 reports (one
	# batch), some for 4000.  (LeakSanitizer cannot run under ptrace, and
	# its own clone at exit is no thread of the process.)
	local asan="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	ASAN_OPTIONS=$asan strace -f -qq -e trace=clone,clone3 -o "$T/short.st" \
		"$HWTRACE" script --json -i "$T/short.rec" > "$T/short.json"
	ASAN_OPTIONS=$asan strace -f -qq -e trace=clone,clone3 -o "$T/long.st" \
		"$HWTRACE" script --json -i "$T/long.rec" > /dev/null
	[ "$(grep -c 'CLONE_THREAD' "$T/short.st" || true)" -eq 0 ]
	[ "$(grep -c 'CLONE_THREAD' "$T/long.st")" -ge 1 ]
	# --deltatime too (each time relative to the record before)
	ASAN_OPTIONS=$asan strace -f -qq -e trace=clone,clone3 -o "$T/delta.st" \
		"$HWTRACE" script --deltatime -i "$T/long.rec" > /dev/null
	[ "$(grep -c 'CLONE_THREAD' "$T/delta.st")" -ge 1 ]
	[ "$(grep -c '"type":"i915_oa_report"' "$T/short.json")" -eq 5 ]
}

@test "i915-oa: decode of a raw stream equals the generator" {
	$GEN --raw --reports 30 -o "$T/f.raw" > "$T/man.json"
	run "$HWTRACE" decode --type i915-oa --oa-format A32u40_A4u32_B8_C8 --ts-freq 19200000 --json "$T/f.raw"
	[ "$status" -eq 0 ]
	echo "$output" | grep '"type":"i915_oa_' > "$T/ours.json" || true
	python3 -c '
import json, sys
man = [json.loads(l) for l in open(sys.argv[1]) if "\"i915_oa_report\"" in l or "\"i915_oa_lost\"" in l]
ours = [json.loads(l) for l in open(sys.argv[2]) if "\"i915_oa_report\"" in l or "\"i915_oa_lost\"" in l]
assert man == ours, "decode differs"' "$T/man.json" "$T/ours.json"
}

@test "i915-oa: decode rejects an unknown --oa-format with exit 2 or 1" {
	printf 'x' > "$T/f.raw"
	run "$HWTRACE" decode --type i915-oa --oa-format A99 "$T/f.raw"
	[ "$status" -ne 0 ]
	[[ "$output" == *"A99"* ]]
}

@test "i915-oa: malformed stream: errors with offsets, records around them decoded, exit 1" {
	$GEN --raw --no-lost --reports 6 -o "$T/good.raw" > /dev/null
	python3 - "$T" <<'PY'
import struct, sys
d = sys.argv[1]
b = open(d + '/good.raw', 'rb').read()
rec = 8 + 256
out = b[:2 * rec]                          # two good reports
out += struct.pack('<IHH', 1, 0, 0)        # size 0 at offset 528
out += b'\xde\xad\xbe\xef' * 3             # garbage
out += b[2 * rec:4 * rec]                  # two more
out += struct.pack('<IHH', 2, 0, 12) + b'\0' * 4   # odd size REPORT_LOST
out += struct.pack('<IHH', 1, 0, 8 + 64) + b'\0' * 64   # SAMPLE smaller than a report
out += b[4 * rec:6 * rec]
out += struct.pack('<IHH', 1, 0, rec) + b'\0' * 20   # past the end
open(d + '/bad.raw', 'wb').write(out)
PY
	run "$HWTRACE" decode --type i915-oa --oa-format A32u40_A4u32_B8_C8 --json "$T/bad.raw"
	[ "$status" -eq 1 ]
	[ "$(echo "$output" | grep -c '"type":"i915_oa_report"')" -eq 6 ]
	[[ "$output" == *"528"* || "$output" == *"0x210"* ]]
	[[ "$output" == *"smaller than the 256-byte"* ]]
	[[ "$output" == *"past the end"* ]]
}

@test "i915-oa: synth perf.data round trip (report, script --json, report -D)" {
	"$HWTRACE" synth --type i915-oa --seed 3 --size 64K --manifest "$T/man.txt" -o "$T/oa.data"
	run "$HWTRACE" script -i "$T/oa.data" --json
	[ "$status" -eq 0 ]
	echo "$output" > "$T/ours.json"
	python3 - "$T" <<'PY'
import json, sys
d = sys.argv[1]
ours = [json.loads(l) for l in open(d + '/ours.json') if l.startswith('{')]
ours = [r for r in ours if r['type'] in ('i915_oa_report', 'i915_oa_lost')]
man = [l.split() for l in open(d + '/man.txt')]
assert len(ours) == len(man), (len(ours), len(man))
prev = None
for o, m in zip(ours, man):
    if m[0] == 'lost':
        # its time is the report's before it (perf keeps it there)
        assert o == {'type': 'i915_oa_lost', 'kind': m[1], 'time': prev['time']}, (o, m)
        continue
    prev = o
    kv = dict(x.split('=') for x in m[2:])
    assert o['ts'] == int(kv['ts']) and o['ctx'] == hex(int(kv['ctx'])), (o, m)
    assert o['ticks'] == int(kv['ticks']) and o['a'][0] == int(kv['a0']), (o, m)
    assert ('dts' in o) == ('dts' in kv), (o, m)
    if 'dts' in kv:
        assert o['dts'] == int(kv['dts']) and o['dticks'] == int(kv['dticks']), (o, m)
PY
	run "$HWTRACE" report -i "$T/oa.data"
	[ "$status" -eq 0 ]
	[[ "$output" == *"i915_oa_context"* ]]
	[[ "$output" == *"0x20"* ]]
	# the stream names its metric set as AUXTRACE_INFO does: TGL RenderBasic's
	# uuid, as libi915_perf lists it
	uuid=$(python3 "$BATS_TEST_DIRNAME/../fixtures/igt_metric_sets.py" 0x9a49 |
		awk '$1 == "RenderBasic" { print $2 }')
	[ "$uuid" = 0fc397c0-4833-492c-9ccd-4929d574d5b8 ]
	run "$HWTRACE" synth --type i915-oa --seed 3 --size 64K --uuid "$uuid" -o "$T/u.data"
	[ "$status" -eq 0 ]
	run "$HWTRACE" report -i "$T/u.data"
	[ "$status" -eq 0 ]
	[[ "$output" == *"i915_oa_stream:"*" 19200000 $uuid "* ]]
	# none named: --metrics says so, and how to name one
	"$HWTRACE" synth --type i915-oa --seed 3 --size 64K --devid 0x9a49 -o "$T/n.data"
	run "$HWTRACE" report --metrics -i "$T/n.data"
	[ "$status" -eq 0 ]
	[[ "$output" == *"PERF_RECORD_AUXTRACE_INFO: no metrics: the input names no metric set; --metric-set NAME"* ]]
	run "$HWTRACE" report -D -i "$T/oa.data"
	[ "$status" -eq 0 ]
	[[ "$output" == *"OA report ts"* ]]
	[[ "$output" == *"OA buffer_lost"* ]]
}

@test "i915-oa: synth --gen 12.5 is Gfx12.5 (timestamps shifted), a bad --gen is refused" {
	"$HWTRACE" synth --type i915-oa --oa-format A24u40_A14u32_B8_C8 --gen 12.5 --size 8K \
		--manifest "$T/man.txt" -o "$T/oa.data"
	run "$HWTRACE" report -i "$T/oa.data"
	[ "$status" -eq 0 ]
	[[ "$output" == *" 1250 "* ]]
	run "$HWTRACE" script -i "$T/oa.data" --json
	[ "$status" -eq 0 ]
	# the generator's ts is in OA units after the Gfx12.5 shift: the decoder must agree
	want=$(grep '^report' "$T/man.txt" | sed 's/.* ts=\([0-9]*\) .*/\1/' | tr '\n' ' ')
	got=$(echo "$output" | grep '"type":"i915_oa_report"' | sed 's/.*"ts":\([0-9]*\),.*/\1/' | tr '\n' ' ')
	[ -n "$want" ]
	[ "$got" = "$want" ]
	run "$HWTRACE" synth --type i915-oa --gen 12.x -o "$T/bad.data"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--gen: '12.x' is not a graphics version"* ]]
}

@test "i915-oa: an IGT file of another VERSION is named as such, and decoded as version 1" {
	$GEN --reports 5 --no-lost -o "$T/f.igt" > /dev/null
	# VERSION's body (its u32 at byte 8) says 2
	printf '\x02' | dd of="$T/f.igt" bs=1 seek=8 conv=notrunc 2>/dev/null
	run "$HWTRACE" script -i "$T/f.igt"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"offset 0: IGT VERSION: unsupported recording version 2 (want 1)"* ]]
	[[ "$output" != *"PERFILE2"* ]]
	[ "$(grep -c '^i915_oa_report:' <<< "$output")" -eq 5 ]
}

@test "i915-oa: a DEVICE_INFO timestamp frequency of 0 is a warning at its offset" {
	$GEN --reports 5 --no-lost -o "$T/f.igt" > /dev/null
	# DEVICE_INFO's body starts at 24 (16-byte VERSION, 8-byte header): u64 frequency first
	printf '\0\0\0\0\0\0\0\0' | dd of="$T/f.igt" bs=1 seek=24 conv=notrunc 2>/dev/null
	run "$HWTRACE" report -i "$T/f.igt"
	[ "$status" -eq 0 ]
	[[ "$output" == *"offset 0x10: IGT DEVICE_INFO: timestamp frequency 0"* ]]
}
