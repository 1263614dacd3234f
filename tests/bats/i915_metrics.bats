#!/usr/bin/env bats
# i915 metric sets (--metrics): every value equals Debian's i915-perf-reader
# (intel-gpu-tools 1.27), per context and per report, for every metric set
# libi915_perf knows for TGL, DG2, SKL, HSW and MTL; the interface around them.

load lib/common

FIX="$BATS_TEST_DIRNAME/../fixtures"
GEN="python3 $FIX/gen_igt.py"
READER=$(command -v i915-perf-reader || echo /usr/bin/i915-perf-reader)

setup() {
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

every_set() {
	run python3 "$FIX/cmp_igt_metrics.py" "$HWTRACE" "$1" "$T"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *" 0 mismatches"* ]]
}

@test "TGL: every metric set equals i915-perf-reader -c all and -r, to its digits" {
	every_set A32u40_A4u32_B8_C8
}

@test "DG2: every metric set equals i915-perf-reader -c all and -r, to its digits" {
	every_set A24u40_A14u32_B8_C8
}

@test "SKL: every metric set equals i915-perf-reader -c all and -r, to its digits" {
	every_set SKL_A32u40_A4u32_B8_C8
}

@test "HSW: every metric set equals i915-perf-reader -c all and -r, to its digits" {
	every_set A45_B8_C8
}

@test "MTL: every metric set equals i915-perf-reader -c all and -r, to its digits" {
	# DG2's report format; IGT 1.27 does not shift MTL's timestamps, nor does hwtrace
	every_set MTL_A24u40_A14u32_B8_C8
}

# report --metrics --json output $2 equals i915-perf-reader -c all output $1,
# every context and every metric, to the reader's digits
same_as_reader() {
	python3 - "$1" "$2" "$3" <<'PY'
import json, re, sys
igt, cur = {}, None
for l in open(sys.argv[1]):
    m = re.match(r'hw_id=0x([0-9a-f]+)', l)
    if m:
        cur = igt.setdefault('0x' + m.group(1), {})
    elif l.startswith('   ') and cur is not None:
        k, v = l.strip().split(': ')
        cur[k] = v
ours = {g['ctx']: g for g in map(json.loads, filter(lambda l: l.startswith('{'), open(sys.argv[2])))}
assert sorted(ours) == sorted(igt) and igt, (sorted(ours), sorted(igt))
n = 0
for ctx, vals in igt.items():
    assert ours[ctx]['metric_set'] == sys.argv[3], ours[ctx]['metric_set']
    assert sorted(ours[ctx]['metrics']) == sorted(vals)
    for k, v in vals.items():
        got = ours[ctx]['metrics'][k]
        assert ('%f' % got == v) if '.' in v else got == int(v), (ctx, k, v, got)
        n += 1
print(n, 'values equal')
PY
}

@test "perf.data (AUXTRACE_INFO layout 2): report --metrics equals the reader on the same reports" {
	# synth's perf.data carries the device and metric set uuid; its AUX payload,
	# wrapped as an IGT file with the platform's DEVICE_INFO and TOPOLOGY, goes
	# to i915-perf-reader: byte for byte the same OA reports on both sides
	local spec fmt gen key devid freq uuid
	for spec in A32u40_A4u32_B8_C8:12:A32u40_A4u32_B8_C8 \
		    A32u40_A4u32_B8_C8:9:SKL_A32u40_A4u32_B8_C8 A45_B8_C8:7.5:A45_B8_C8; do
		IFS=: read -r fmt gen key <<< "$spec"
		read -r devid freq uuid < <(python3 - "$FIX" "$key" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from gen_igt import PLATFORMS
p = PLATFORMS[sys.argv[2]]
print(p[2], p[4], p[6])
PY
)
		"$HWTRACE" synth --type i915-oa --oa-format "$fmt" --gen "$gen" --devid "$devid" \
			--ts-freq "$freq" --uuid "$uuid" --lost 0 --switch-back 0 --size 64K \
			-o "$T/s.data"
		python3 "$BATS_TEST_DIRNAME/lib/perfdata.py" payloads "$T/s.data" "$T/s.raw"
		$GEN --format "$key" --body "$T/s.raw" -o "$T/s.igt" > /dev/null
		"$READER" -c all "$T/s.igt" > "$T/igt.txt"
		"$HWTRACE" report --metrics --json -i "$T/s.data" > "$T/ours.json"
		run same_as_reader "$T/igt.txt" "$T/ours.json" RenderBasic
		echo "$key: $output"
		[ "$status" -eq 0 ]
		[[ "$output" == *" values equal" ]]
	done
}

@test "--metric-set NAME replaces the recording's set: values as the reader's on that set" {
	# same counters, two recordings: one says ComputeBasic, one RenderBasic
	$GEN --reports 9 --no-lost --one-timeline --metric-set ComputeBasic -o "$T/cb.igt" > /dev/null
	$GEN --reports 9 --no-lost --one-timeline -o "$T/rb.igt" > /dev/null
	"$READER" -c all "$T/cb.igt" > "$T/igt.txt"
	grep -q '^Metric used : ComputeBasic' "$T/igt.txt"
	run "$HWTRACE" report --metrics --json --metric-set ComputeBasic -i "$T/rb.igt"
	[ "$status" -eq 0 ]
	echo "$output" > "$T/ours.json"
	python3 - "$T" <<'PY'
import json, re, sys
d = sys.argv[1]
igt, cur = {}, None
for l in open(d + '/igt.txt'):
    m = re.match(r'hw_id=0x([0-9a-f]+)', l)
    if m:
        cur = igt.setdefault('0x' + m.group(1), {})
    elif l.startswith('   ') and cur is not None:
        k, v = l.strip().split(': ')
        cur[k] = v
ours = {g['ctx']: g for g in map(json.loads, filter(lambda l: l.startswith('{'), open(d + '/ours.json')))}
assert sorted(ours) == sorted(igt) == ['0x10', '0x20']
for ctx, vals in igt.items():
    assert ours[ctx]['metric_set'] == 'ComputeBasic'
    assert sorted(ours[ctx]['metrics']) == sorted(vals)
    for k, v in vals.items():
        got = ours[ctx]['metrics'][k]
        assert ('%f' % got == v) if '.' in v else got == int(v), (ctx, k, v, got)
PY
}

@test "report --metrics: per context, IGT symbol name, value and unit as the reader prints it" {
	$GEN --reports 9 --no-lost --one-timeline -o "$T/f.igt" > /dev/null
	"$READER" -c all "$T/f.igt" > "$T/igt.txt"
	run "$HWTRACE" report --metrics -i "$T/f.igt"
	[ "$status" -eq 0 ]
	echo "$output" > "$T/ours.txt"
	python3 - "$T" <<'PY'
import re, sys
d = sys.argv[1]
igt, cur = {}, None
for l in open(d + '/igt.txt'):
    m = re.match(r'hw_id=0x([0-9a-f]+)', l)
    if m:
        cur = igt.setdefault('0x' + m.group(1), {})
    elif l.startswith('   ') and cur is not None:
        k, v = l.strip().split(': ')
        cur[k] = v
ours, cur = {}, None
for l in open(d + '/ours.txt'):
    m = re.match(r'AUX stream \d+: i915-oa metrics, RenderBasic, ctx (0x[0-9a-f]+)', l)
    if m:
        cur = ours.setdefault(m.group(1), {})
    elif l.startswith('  ') and cur is not None:
        f = l.split()
        cur[f[0]] = (float(f[1]), ' '.join(f[2:]))
assert sorted(igt) == sorted(ours) == ['0x10', '0x20'], (igt.keys(), ours.keys())
units = {'GpuBusy': 'percent', 'GpuTime': 'ns', 'AvgGpuCoreFrequency': 'Hz',
         'GpuCoreClocks': 'cycles'}
for ctx in igt:
    assert sorted(igt[ctx]) == sorted(ours[ctx]), ctx
    for k, v in igt[ctx].items():
        got = ours[ctx][k][0]
        assert abs(got - float(v)) <= 5e-7 + abs(got) * 1e-14, (ctx, k, v, got)
    for k, u in units.items():
        assert ours[ctx][k][1] == u, (k, ours[ctx][k])
PY
}

@test "script --metrics --json adds metrics to every report with a delta; -F takes metric names" {
	$GEN --reports 9 --no-lost -o "$T/f.igt" > /dev/null
	"$READER" -r -c GpuBusy,GpuTime "$T/f.igt" > "$T/igt.txt"
	run "$HWTRACE" script --metrics --json -i "$T/f.igt"
	[ "$status" -eq 0 ]
	echo "$output" > "$T/all.json"
	run "$HWTRACE" script --metrics -F ctx,GpuBusy,GpuTime -i "$T/f.igt"
	[ "$status" -eq 0 ]
	echo "$output" > "$T/f.txt"
	python3 - "$T" "$FIX" <<'PY'
import json, re, sys
sys.path.insert(0, sys.argv[2])
from cmp_igt_metrics import parse_reader
d = sys.argv[1]
want = [r for _, _, rs in parse_reader(open(d + '/igt.txt').read()) for r in rs]
recs = [json.loads(l) for l in open(d + '/all.json') if l.startswith('{')]
reps = [r for r in recs if r['type'] == 'i915_oa_report']
assert 'metrics' not in reps[0] and all('metrics' in r for r in reps[1:])
assert len(reps) - 1 == len(want) == 8
for w, r in zip(want, reps[1:]):
    assert '%f' % r['metrics']['GpuBusy'] == w['GpuBusy'], (w, r['metrics'])
    assert r['metrics']['GpuTime'] == int(w['GpuTime'])
lines = [l.split() for l in open(d + '/f.txt') if 'GpuBusy=' in l]
assert len(lines) == 8, lines
for w, l in zip(want, lines):
    kv = dict(x.split('=') for x in l if '=' in x)
    assert abs(float(kv['GpuBusy']) - float(w['GpuBusy'])) <= 5e-7, (w, l)
PY
}

@test "-F metrics shows the whole set, -F +NAME the default fields and NAME alone" {
	$GEN --reports 9 --no-lost -o "$T/f.igt" > /dev/null
	"$READER" -r -c all "$T/f.igt" > "$T/igt.txt"
	run "$HWTRACE" script --metrics --json -F time,metrics -i "$T/f.igt"
	[ "$status" -eq 0 ]
	echo "$output" > "$T/all.json"
	run "$HWTRACE" script --metrics --json -F +GpuBusy -i "$T/f.igt"
	[ "$status" -eq 0 ]
	echo "$output" > "$T/plus.json"
	python3 - "$T" "$FIX" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[2])
from cmp_igt_metrics import parse_reader
d = sys.argv[1]
want = [r for _, _, rs in parse_reader(open(d + '/igt.txt').read()) for r in rs]
assert len(want) == 8 and len(want[0]) > 10, want
def reports(f):
    recs = [json.loads(l) for l in open(d + f) if l.startswith('{')]
    return [r for r in recs if r['type'] == 'i915_oa_report' and 'metrics' in r]
alls, plus = reports('/all.json'), reports('/plus.json')
assert len(alls) == len(plus) == 8
for w, a, p in zip(want, alls, plus):
    # every counter the reader prints, each GpuTime as its
    assert sorted(a['metrics']) == sorted(w), (sorted(a['metrics']), sorted(w))
    assert a['metrics']['GpuTime'] == int(w['GpuTime'])
    assert '%f' % a['metrics']['GpuBusy'] == w['GpuBusy']
    # the default fields, and one metric: the same value
    assert {'ts', 'ctx', 'da'} <= set(p) and list(p['metrics']) == ['GpuBusy'], p
    assert p['metrics']['GpuBusy'] == a['metrics']['GpuBusy']
PY
}

@test "--metric-set: unknown name is a usage error (exit 2) before the input is read" {
	run "$HWTRACE" report --metrics --metric-set NoSuchSet -i "$T/does-not-exist"
	[ "$status" -eq 2 ]
	[[ "$output" == *"NoSuchSet"* ]]
	[[ "$output" != *"does-not-exist"* ]]
}

@test "a metric set the device lacks: warning listing the device's sets, decoding goes on" {
	$GEN --reports 9 --metric-set NoSuchSet0 -o "$T/f.igt" > /dev/null
	run "$HWTRACE" script --metrics --json -i "$T/f.igt"
	[ "$status" -eq 0 ]
	[[ "$output" == *"metric set 'NoSuchSet0' is unknown for device 0x9a49"*"RenderBasic"* ]]
	# at the record that named it: DEVICE_INFO follows the 16-byte VERSION
	[[ "$output" == *"offset 0x10: IGT DEVICE_INFO: no metrics: metric set 'NoSuchSet0'"* ]]
	[ "$(grep -c '"type":"i915_oa_report"' <<< "$output")" -eq 9 ]
	[[ "$output" != *'"metrics"'* ]]
}

@test "a name from the input reaches stderr with its control bytes escaped" {
	# an ESC sequence in DEVICE_INFO's set name must not drive the terminal
	$GEN --reports 5 --no-lost --metric-set $'Bad\e[31mSet' -o "$T/f.igt" > /dev/null
	# an unknown set is a warning: the report goes on, exit 0
	"$HWTRACE" report --metrics -i "$T/f.igt" 2> "$T/err" > /dev/null
	grep -qF "metric set 'Bad\x1b[31mSet' is unknown" "$T/err"
	! grep -q $'\e' "$T/err" || false
	# a file name too, also where problems past the 100th are only counted:
	# 150 all-zero reports, a warning each
	python3 -c "import struct, sys
sys.stdout.buffer.write((struct.pack('<IHH', 1, 0, 264) + bytes(256)) * 150)" > "$T/z"$'\e'
	"$HWTRACE" decode --type i915-oa --oa-format A32u40_A4u32_B8_C8 --null "$T/z"$'\e' \
		2> "$T/err" > /dev/null
	[ "$(grep -c 'report header is all zero' "$T/err")" -eq 100 ]
	grep -qF "z\x1b: further problems are counted, not shown" "$T/err"
	grep -q "0 errors, 150 warnings" "$T/err"
	! grep -q $'\e' "$T/err" || false
}

@test "a TOPOLOGY libi915_perf cannot take is an error at its offset, not an abort" {
	local t off
	$GEN --reports 9 -o "$T/f.igt" > /dev/null
	# at libi915_perf 1.27's limits (6 bytes of subslice masks, 96 of EU
	# masks): the reader and we both compute metrics
	for t in "6 6 16 1 1 7 2 79" "1 48 16 1 6 7 2 103"; do
		python3 "$FIX/igt_topology.py" "$T/f.igt" "$T/ok.igt" $t > /dev/null
		"$READER" -c all "$T/ok.igt" > /dev/null
		run "$HWTRACE" report --metrics --json -i "$T/ok.igt"
		[ "$status" -eq 0 ]
		[[ "$output" == *'"metrics":{"AvgGpuCoreFrequency":'* ]]
	done
	# a byte past either limit: the library's assert aborts the reader (134)
	for t in "7 6 16 1 1 8 2 92" "1 49 16 1 6 7 2 105"; do
		off=$(python3 "$FIX/igt_topology.py" "$T/f.igt" "$T/bad.igt" $t)
		run "$READER" -c all "$T/bad.igt"
		[ "$status" -eq 134 ]
		run "$HWTRACE" report --metrics -i "$T/bad.igt"
		echo "$output"
		[ "$status" -eq 1 ]
		[[ "$output" == *"offset $(printf 0x%x "$off"): IGT DEVICE_TOPOLOGY: "*"libi915_perf holds 6 and 96; record ignored"* ]]
		[[ "$output" == *"no metrics: no EU topology in the input"* ]]
	done
	# masks past the record's end (the library would read beyond it): the
	# same, and every report is still decoded, the record's bytes skipped
	off=$(python3 "$FIX/igt_topology.py" "$T/f.igt" "$T/bad.igt" 1 6 16 1 1 60 2 24)
	run "$HWTRACE" script --metrics --json -i "$T/bad.igt"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"offset $(printf 0x%x "$off"): IGT DEVICE_TOPOLOGY: its masks"*"lie past its 24 bytes of data; record ignored"* ]]
	[ "$(grep -c '"type":"i915_oa_report"' <<< "$output")" -eq 9 ]
	[[ "$output" != *'"metrics"'* ]]
	[[ "$output" == *" 40 skipped"* ]]
	# perf.data (layout 2): in AUXTRACE_INFO, the topology synth's model
	# writes (1 slice, 6 subslices of 16 EUs, masks at 1 and 2, strides 1
	# and 2: the header's 16 bytes, found by value), its EU stride made 200
	"$HWTRACE" synth --type i915-oa --lost 0 --size 64K -o "$T/s.data"
	off=$(python3 - "$T/s.data" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
hdr = struct.pack('<8H', 0, 1, 6, 16, 1, 1, 2, 2)
assert d.count(hdr) == 1, d.count(hdr)
print(d.index(hdr) + 14)
PY
)
	python3 "$BATS_TEST_DIRNAME/lib/perfdata.py" set-u16 "$T/s.data" "$off" 200
	run "$HWTRACE" report --metrics -i "$T/s.data"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"no metrics: the EU topology of AUXTRACE_INFO is unusable: 1 bytes of subslice masks and 1200 of EU masks"* ]]
	# its size word (the one before it, 8 bytes) past the 96 bytes layout 2 has
	"$HWTRACE" synth --type i915-oa --lost 0 --size 64K -o "$T/s.data"
	off=$(python3 - "$T/s.data" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
at = d.index(struct.pack('<8H', 0, 1, 6, 16, 1, 1, 2, 2)) - 8
assert 16 < struct.unpack_from('<Q', d, at)[0] <= 96
print(at)
PY
)
	python3 "$BATS_TEST_DIRNAME/lib/perfdata.py" set-u64 "$T/s.data" "$off" 200
	run "$HWTRACE" report --metrics -i "$T/s.data"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"no metrics: the EU topology of AUXTRACE_INFO is unusable: 200 bytes, more than the 96 that layout 2 holds"* ]]
	# at the AUXTRACE_INFO record, where perf report -D shows it
	info=$(perf report -D -i "$T/s.data" 2>/dev/null | sed -n 's/.* 0x\([0-9a-f]*\) \[0x[0-9a-f]*\]: PERF_RECORD_AUXTRACE_INFO.*/\1/p')
	[ -n "$info" ]
	[[ "$output" == *"offset 0x$info: PERF_RECORD_AUXTRACE_INFO: no metrics: the EU topology"* ]]
}

@test "without libi915_perf: --metrics says why, script and report decode as without it" {
	$GEN --reports 9 -o "$T/f.igt" > /dev/null
	without_lib libi915_perf.so.1.5 "$HWTRACE" report --metrics -i "$T/f.igt"
	[ "$status" -eq 0 ]
	[[ "$output" == *"no metrics: cannot load libi915_perf.so.1.5 (Debian package intel-gpu-tools 1.27)"* ]]
	[[ "$output" == *"no stream of this input has metrics"* ]]
	without_lib libi915_perf.so.1.5 "$HWTRACE" script --metrics --json -i "$T/f.igt"
	[ "$status" -eq 0 ]
	[ "$(grep -c 'no metrics: cannot load' <<< "$output")" -eq 1 ]
	[ "$(grep -c '"type":"i915_oa_report"' <<< "$output")" -eq 9 ]
	[[ "$output" != *'"metrics"'* ]]
	without_lib libi915_perf.so.1.5 "$HWTRACE" report -i "$T/f.igt"
	[ "$status" -eq 0 ]
	[[ "$output" != *"no metrics"* ]]
	[[ "$output" == *"i915_oa_stream:"*"RenderBasic"* ]]
	# a metric name cannot be checked: a usage error that says why
	without_lib libi915_perf.so.1.5 "$HWTRACE" script --metrics -F ts,GpuBusy -i "$T/f.igt"
	[ "$status" -eq 2 ]
	[[ "$output" == *"-F: unknown field 'GpuBusy' (the metric names of i915-oa cannot be checked: cannot load libi915_perf.so.1.5 (Debian package intel-gpu-tools 1.27)"* ]]
	# a record field still needs no library
	without_lib libi915_perf.so.1.5 "$HWTRACE" script -F ts -i "$T/f.igt"
	[ "$status" -eq 0 ]
}

@test "CPU time per report: equals i915-perf-reader's Time: CPU= ends of every timeline" {
	local fmt
	# not DG2: i915-perf-reader 1.27 interpolates DG2's shifted OA
	# timestamps against unshifted correlation timestamps (its CPU times
	# there are about half); hwtrace shifts the correlation points too
	for fmt in A32u40_A4u32_B8_C8 A45_B8_C8 SKL_A32u40_A4u32_B8_C8 MTL_A24u40_A14u32_B8_C8; do
		$GEN --format "$fmt" --reports 30 -o "$T/f.igt" > /dev/null
		"$READER" -c GpuTime "$T/f.igt" > "$T/igt.txt"
		run "$HWTRACE" script --json -F ts,time -i "$T/f.igt"
		[ "$status" -eq 0 ]
		echo "$output" > "$T/ours.json"
		run "$HWTRACE" script -F time -i "$T/f.igt"
		[ "$status" -eq 0 ]
		echo "$output" > "$T/ours.txt"
		python3 - "$T" "$FIX" <<'PY'
import sys
d = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from igt_times import reports, reader_ends
ours = reports(d + '/ours.json')
times = [r['time'] for r in ours]
assert all(a <= b for a, b in zip(times, times[1:])), 'times go backwards'
assert len(reader_ends(ours, d + '/igt.txt')) >= 1   # HSW has no contexts: one timeline
# text: perf's secs.usecs
txt = [l.split('time=')[1].strip() for l in open(d + '/ours.txt') if 'time=' in l]
assert txt[0] == '%d.%06d' % (times[0] // 10**9, times[0] % 10**9 // 1000), (txt[0], times[0])
PY
	done
}

@test "CPU time per report: a report whose bracketing point is in the next 4 MiB piece interpolates" {
	# 23780 reports (6.3 MB: a 4 MiB piece and the rest), a correlation
	# point after every 50 with jittered CPU times, as IGT's recorder writes
	# them.  The timeline that ends at report 15853 (2n/3) ends after the
	# first piece's last point: its bracketing point is in the next piece.
	# Both file layouts: mapped (a file), and read() (a pipe).
	$GEN --reports 23780 --points-every 50 -o "$T/f.igt" > /dev/null
	"$READER" -c GpuTime "$T/f.igt" > "$T/igt.txt"
	"$HWTRACE" script --json -F ts,time -i "$T/f.igt" > "$T/ours.json"
	"$HWTRACE" script --json -F ts,time -i - < "$T/f.igt" > "$T/pipe.json"
	cmp "$T/ours.json" "$T/pipe.json"
	python3 - "$T" "$FIX" <<'PY'
import sys
d = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from igt_times import point_time, reports, reader_ends
cpu, npoints = point_time(d + '/f.igt')
assert npoints == 477, npoints
ours = reports(d + '/ours.json')
assert len(ours) == 23780, len(ours)
bad = [(i, r['ts'], r['time'], cpu(r['ts'])) for i, r in enumerate(ours) if r['time'] != cpu(r['ts'])]
assert not bad, bad[:5]
# and i915-perf-reader's own timeline ends, the one at report 15853 among them
ends = reader_ends(ours, d + '/igt.txt')
assert len(ends) == 3, ends
assert ours[15853]['ts'] in {g1 for g0, g1 in ends}
PY
}

@test "CPU time in perf.data: from the AUX record times; inject makes it stock perf's sample time" {
	# expected, from the file's bytes alone: each PERF_RECORD_AUX's time is
	# that of its drain's last report, earlier reports step back by their GPU
	# timestamp difference at the timestamp frequency, never below the last
	"$HWTRACE" synth --type i915-oa --seed 5 --size 128K --ts-freq 12000000 \
		--manifest "$T/man.txt" -o "$T/oa.data"
	"$HWTRACE" inject -i "$T/oa.data" -o "$T/oa.inj" 2> /dev/null
	"$HWTRACE" script --json -i "$T/oa.data" > "$T/ours.json" 2> /dev/null
	perf script -i "$T/oa.inj" -F time,event 2> /dev/null > "$T/perf.txt"
	# report (no per-report time asked for) gives each context's CPU range
	"$HWTRACE" report -i "$T/oa.data" > "$T/report.txt" 2> /dev/null
	python3 - "$T" <<'PY'
import json, struct, sys
d = sys.argv[1]
data = open(d + '/oa.data', 'rb').read()
off, size = struct.unpack_from('<QQ', data, 40)
end, want, drain, last = off + size, [], None, 0
while off < end:
    typ, _, sz = struct.unpack_from('<IHH', data, off)
    if typ == 11:                   # PERF_RECORD_AUX: aux fields, pid, tid, then time
        drain = struct.unpack_from('<Q', data, off + 8 + 24 + 8)[0]
    extra = struct.unpack_from('<Q', data, off + 8)[0] if typ == 71 else 0
    if typ == 71:
        p, q, ts = off + sz, off + sz + extra, []
        while p + 8 <= q:
            rt, rs = struct.unpack_from('<I2xH', data, p)
            if rt == 1:
                ts.append(struct.unpack_from('<I', data, p + 8 + 4)[0])
            p += rs
        for t in ts:
            c = max(drain - ((ts[-1] - t) & 0xffffffff) * 10**9 // 12000000, last)
            want.append(c)
            last = c
    off += sz + extra
ours = [json.loads(l)['time'] for l in open(d + '/ours.json') if '"i915_oa_report"' in l]
assert len(want) > 100 and ours == want, (len(want), ours[:3], want[:3])
perf = [l.split()[0].rstrip(':') for l in open(d + '/perf.txt') if 'i915_oa_report' in l]
assert perf == ['%d.%06d' % (w // 10**9, w % 10**9 // 1000) for w in want], perf[:3]
assert all(float(t) > 0 for t in perf) and perf == sorted(perf, key=float)
print(len(perf), 'reports,', perf[0], '..', perf[-1])
# each context's first and last report's time (its context as synth wrote it)
man = [dict(x.split('=') for x in l.split()[2:]) for l in open(d + '/man.txt')
       if l.startswith('report ')]
ctxs = [hex(int(m['ctx'])) for m in man]
assert len(ctxs) == len(want), (len(ctxs), len(want))
rng = {}
for c, t in zip(ctxs, want):
    rng[c] = (rng.get(c, (t,))[0], t)
rows = open(d + '/report.txt').read().split('i915_oa_context:\n')[1].splitlines()
assert rows[0].split()[-2:] == ['cpu_start', 'cpu_end'], rows[0]
got = {r.split()[0]: tuple(int(x) for x in r.split()[-2:]) for r in rows[1:] if r.strip()[:2] == '0x'}
assert len(rng) >= 2 and got == rng, (got, rng)
PY
}

@test "the Python module's metrics equal script --metrics --json, record by record, after the run ends" {
	# the records are read after the worker's session ended and freed its
	# metrics computer: each record's names must still be the set's
	$GEN --reports 2000 --no-lost -o "$T/f.igt" > /dev/null
	"$HWTRACE" synth --type i915-oa --size 64K --devid 0x9a49 --ts-freq 19200000 \
		--uuid 397a46d9-03dd-4696-8196-270362e1c575 -o "$T/s.data" > /dev/null
	for f in f.igt s.data; do
		"$HWTRACE" script --metrics --json -i "$T/$f" > "$T/$f.json"
		PYTHONPATH="$BUILD/python" python3 - "$T/$f" "$T/$f.json" <<'PY'
import hwtrace, json, math, sys
py = [r for r in hwtrace.open(sys.argv[1], metrics=True) if 'metrics' in r]
js = [json.loads(l) for l in open(sys.argv[2]) if l.startswith('{')]
js = [r['metrics'] for r in js if 'metrics' in r]
assert len(py) == len(js) > 100, (len(py), len(js))
for p, j in zip(py, js):
    m = p['metrics']
    assert list(m) == list(j), (list(m)[:4], list(j)[:4])
    for k, v in j.items():
        if v is None or m[k] is None:
            assert v is None and m[k] is None, (k, v, m[k])
        else:
            assert math.isclose(m[k], v, rel_tol=1e-14, abs_tol=1e-300), (k, v, m[k])
print(len(py), 'records')
PY
	done
	# and against the peer: every value i915-perf-reader -r prints, to its
	# digits, for an IGT file and for a perf.data (its AUX payload wrapped as
	# an IGT file of the same device and set for the reader)
	$GEN --reports 200 --no-lost --one-timeline -o "$T/o.igt" > /dev/null
	"$READER" -r -c all "$T/o.igt" > "$T/o.txt"
	local devid freq uuid
	read -r devid freq uuid < <(python3 - "$FIX" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from gen_igt import PLATFORMS
p = PLATFORMS['A32u40_A4u32_B8_C8']
print(p[2], p[4], p[6])
PY
)
	"$HWTRACE" synth --type i915-oa --devid "$devid" --ts-freq "$freq" --uuid "$uuid" \
		--lost 0 --switch-back 0 --size 64K -o "$T/p.data" > /dev/null
	python3 "$BATS_TEST_DIRNAME/lib/perfdata.py" payloads "$T/p.data" "$T/p.raw"
	$GEN --format A32u40_A4u32_B8_C8 --body "$T/p.raw" -o "$T/p.igt" > /dev/null
	"$READER" -r -c all "$T/p.igt" > "$T/p.txt"
	for f in o.igt:o.txt p.data:p.txt; do
		PYTHONPATH="$BUILD/python" python3 - "$T/${f%%:*}" "$T/${f##*:}" "$FIX" <<'PY'
import hwtrace, sys
sys.path.insert(0, sys.argv[3])
from cmp_igt_metrics import parse_reader, same
py = [r['metrics'] for r in hwtrace.open(sys.argv[1], metrics=True) if 'metrics' in r]
want = [r for _, _, rs in parse_reader(open(sys.argv[2]).read()) for r in rs]
assert len(py) == len(want) > 100, (len(py), len(want))
n = 0
for w, m in zip(want, py):
    for k, v in w.items():
        assert k in m and same(v, m[k]), (k, v, m.get(k))
        n += 1
print(sys.argv[1], n, 'values equal the reader')
PY
	done
}

@test "-F with a metric name: without --metrics, in CSV or in decode, a usage error before input" {
	mkfifo "$T/fifo"	# never opened for writing: reading it would hang
	# ARGS|the message
	while IFS='|' read -r args want; do
		run timeout 10 "$HWTRACE" $args -i "$T/fifo"
		echo "$args: $status $output"
		[ "$status" -eq 2 ]
		[ "$output" = "$want" ]
	done <<'CASES'
script -F ctx,GpuBusy|perf hwtrace script: -F GpuBusy: a metric; add --metrics
script --metrics --csv -F ctx,GpuBusy|perf hwtrace script: -F GpuBusy: CSV rows have the record type's columns, not metrics; use text or --json
script --csv -F metrics|perf hwtrace script: -F metrics: a metric; add --metrics
decode --type i915-oa -F ctx,metrics|perf hwtrace decode: -F metrics: a metric; only script computes them (script --metrics)
CASES
	# with --metrics, JSON shows that metric alone, each report's as the reader's
	$GEN --reports 50 --no-lost --one-timeline -o "$T/f.igt" > /dev/null
	"$READER" -r -c all "$T/f.igt" > "$T/f.txt"
	run "$HWTRACE" script --metrics --json -F ctx,GpuBusy -i "$T/f.igt"
	[ "$status" -eq 0 ]
	echo "$output" > "$T/f.json"
	python3 - "$T/f.json" "$T/f.txt" "$FIX" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[3])
from cmp_igt_metrics import parse_reader, same
ours = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]
ours = [r['metrics'] for r in ours if 'metrics' in r]
want = [r['GpuBusy'] for _, _, rs in parse_reader(open(sys.argv[2]).read()) for r in rs]
assert len(ours) == len(want) > 40, (len(ours), len(want))
bad = [(m, w) for m, w in zip(ours, want) if list(m) != ['GpuBusy'] or not same(w, m['GpuBusy'])]
assert not bad, bad[:2]
PY
}
