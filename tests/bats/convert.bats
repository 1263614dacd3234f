#!/usr/bin/env bats
# convert --to-perfetto: every trace is decoded twice, by protoc --decode_raw
# (Debian's protobuf-compiler) and by tests/perfetto_read.py (a wire reader of
# its own that also checks the sequence rules), and its counter values and
# timestamps are compared with what script --json, the generators and stock
# perf say the input holds.

load lib/common

READ="python3 $BATS_TEST_DIRNAME/../perfetto_read.py"
GEN_IGT="python3 $BATS_TEST_DIRNAME/../fixtures/gen_igt.py"

setup() {
	T="$BATS_TEST_TMPDIR"
}

# decode_raw FILE: protoc reads it; prints how many TYPE_COUNTER events it saw
decode_raw() {
	protoc --decode_raw <"$1" >"$T/raw.txt"
	grep -c '^    9: 4$' "$T/raw.txt" || true
}

# points FILE: the reader's counter points, summed over tracks
points() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(len(t["points"]) for t in d["tracks"].values()))' "$1"
}

@test "convert: panthor synth -> one track per counter per block, values and times as script --json" {
	"$HWTRACE" synth --type panthor --seed 7 --size 40K -o "$T/p.data"
	"$HWTRACE" convert --to-perfetto "$T/p.pftrace" -i "$T/p.data"
	"$HWTRACE" script -i "$T/p.data" --json >"$T/s.json"
	$READ "$T/p.pftrace" >"$T/r.json"
	python3 - "$T" <<'PY'
import json, sys
d = sys.argv[1]
got = json.load(open(d + '/r.json'))
want = {}
for l in open(d + '/s.json'):
    r = json.loads(l)
    if r['type'] != 'panthor_block':
        continue
    for k, v in r['counters'].items():
        name = 'panthor %s[%d] %s' % (r['block_type'], r['block_idx'], k)
        want.setdefault(name, []).append([r['timestamp_end_ns'], v])
assert want, 'no panthor_block records'
tracks = {n: t['points'] for n, t in got['tracks'].items()}
assert tracks == want, set(tracks) ^ set(want)
assert all(t['parent'] == 'panthor' and t['unit'] == 2 for t in got['tracks'].values())
assert any(n.startswith('panthor shader[3] ') for n in tracks)
assert got['clock'] == 3 and got['primary_clock'] == 3
PY
	n=$(decode_raw "$T/p.pftrace")
	[ "$n" -eq "$(points "$T/r.json")" ]
}

# i915 expected values from the IGT generator's own account (ts_freq, reports),
# at the reports' CPU times.
i915_expect() {
	python3 - "$T" "$1" <<'PY'
import json, sys
d, raw = sys.argv[1], sys.argv[2] == 'raw'
man = [json.loads(l) for l in open(d + '/man.json')]
freq = man[0]['ts_freq']
got = json.load(open(d + '/r.json'))
# a report's CPU time (IGT correlation points) is script's "time", which
# i915_metrics.bats checks against i915-perf-reader's Time: CPU= lines
# (none in a synth perf.data: there the OA timestamp is placed as ns)
times = [r.get('time') for r in map(json.loads, open(d + '/times.json'))
         if r['type'] == 'i915_oa_report']
want, base, last, acc = {}, None, None, 0
for r in man:
    if r.get('type') != 'i915_oa_report':
        continue
    if base is None:
        base, last = r['ts'] * 10**9 // freq, r['ts']
    acc += (r['ts'] - last) & 0xffffffff
    last = r['ts']
    t = times.pop(0)
    t = base + acc * 10**9 // freq if t is None else t
    if 'dts' not in r:
        continue
    c = r['ctx']
    want.setdefault('GpuTime ctx %s' % c, []).append([t, r['dts'] * 10**9 // freq])
    want.setdefault('GpuCoreClocks ctx %s' % c, []).append([t, r['dticks']])
    if r['dts']:
        want.setdefault('GpuCoreFrequency ctx %s (Hz)' % c, []).append(
            [t, r['dticks'] * freq / r['dts']])
    if raw:
        for letter in 'abc':
            for i, v in enumerate(r['d' + letter]):
                want.setdefault('%s%d ctx %s' % (letter.upper(), i, c), []).append([t, v])
tracks = {n: t['points'] for n, t in got['tracks'].items()}
assert set(tracks) == set(want), set(tracks) ^ set(want)
for n in want:
    w, g = want[n], tracks[n]
    assert [p[0] for p in g] == [p[0] for p in w], n
    if 'Frequency' in n:
        assert all(abs(a[1] - b[1]) <= 1e-6 * abs(b[1]) for a, b in zip(g, w)), n
    else:
        assert g == w, n
assert got['tracks']['GpuTime ctx 0x10']['unit'] == 1
PY
}

@test "convert: i915 IGT file -> GpuTime, GpuCoreClocks, frequency per context as the generator says" {
	$GEN_IGT --reports 300 -o "$T/f.rec" >"$T/man.json"
	"$HWTRACE" convert --to-perfetto "$T/o.pftrace" -i "$T/f.rec"
	$READ "$T/o.pftrace" >"$T/r.json"
	"$HWTRACE" script --json -i "$T/f.rec" >"$T/times.json"
	i915_expect plain
	n=$(decode_raw "$T/o.pftrace")
	[ "$n" -eq "$(points "$T/r.json")" ]
	# script --json agrees with the generator, so the values are script's too
	"$HWTRACE" script -i "$T/f.rec" --json | grep -c '"dts"' >"$T/n"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(len(t["points"]) for n,t in d["tracks"].items() if n.startswith("GpuCoreClocks")))' "$T/r.json" >"$T/m"
	[ "$(cat "$T/n")" = "$(cat "$T/m")" ]
}

@test "convert: i915 synth perf.data -> values and times from script --json and the stream's ts_freq" {
	"$HWTRACE" synth --type i915-oa --seed 7 --size 64K -o "$T/o.data"
	"$HWTRACE" convert --to-perfetto "$T/o.pftrace" -i "$T/o.data"
	"$HWTRACE" report -i "$T/o.data" >"$T/report.txt"
	"$HWTRACE" script -i "$T/o.data" --json >"$T/s.json"
	$READ "$T/o.pftrace" >"$T/r.json"
	# the reports are script's; the frequency is the one report shows
	python3 - "$T" <<'PY'
import json, re, sys
d = sys.argv[1]
rep = open(d + '/report.txt').read()
freq = int(re.search(r'^\s+perf \S+\s+\d+\s+\S+\s+(\d+)', rep, re.M)[1])
assert freq == 19200000
with open(d + '/man.json', 'w') as f:
    f.write(json.dumps({'ts_freq': freq}) + '\n')
    f.write(open(d + '/s.json').read())
PY
	cp "$T/s.json" "$T/times.json"
	i915_expect plain
}

@test "convert --raw-counters: i915 A/B/C deltas per context" {
	$GEN_IGT --format A32u40_A4u32_B8_C8 --reports 60 -o "$T/f.rec" >"$T/man.json"
	"$HWTRACE" convert --to-perfetto "$T/o.pftrace" -i "$T/f.rec" --raw-counters
	$READ "$T/o.pftrace" >"$T/r.json"
	"$HWTRACE" script --json -i "$T/f.rec" >"$T/times.json"
	i915_expect raw
	decode_raw "$T/o.pftrace" >/dev/null
}

@test "convert: CXL HMU synth -> per-epoch totals and the --top N units over time" {
	"$HWTRACE" synth --type cxl-hmu --seed 7 --size 64K -o "$T/h.data"
	"$HWTRACE" convert --to-perfetto "$T/h.pftrace" -i "$T/h.data" --top 4
	"$HWTRACE" script -i "$T/h.data" --json >"$T/s.json"
	$READ "$T/h.pftrace" >"$T/r.json"
	python3 - "$T" <<'PY'
import json, sys
d = sys.argv[1]
got = {n: t['points'] for n, t in json.load(open(d + '/r.json'))['tracks'].items()}
recs = [json.loads(l) for l in open(d + '/s.json')]
recs = [r for r in recs if r['type'] == 'cxl_hmu_unit']
pmu = recs[0]['pmu']
tot, n, per_unit, total = {}, {}, {}, {}
for r in recs:
    tot[r['time']] = tot.get(r['time'], 0) + r['count']
    n[r['time']] = n.get(r['time'], 0) + 1
    per_unit.setdefault(r['unit'], []).append([r['time'], r['count']])
    total[r['unit']] = total.get(r['unit'], 0) + r['count']
assert got[pmu + ' epoch total count'] == sorted([t, v] for t, v in tot.items())
assert got[pmu + ' epoch units reported'] == sorted([t, v] for t, v in n.items())
# the 4 hottest by exact totals (no tie at the boundary in this file)
order = sorted(total, key=lambda u: -total[u])
assert total[order[3]] != total[order[4]]
hot = {'%s hot unit %d count' % (pmu, u): per_unit[u] for u in order[:4]}
assert {k: v for k, v in got.items() if ' hot unit ' in k} == hot
PY
	decode_raw "$T/h.pftrace" >/dev/null
}

@test "convert: stock perf CPU samples, COMM and EXIT become instants on thread tracks, in perf's times" {
	if ! /usr/bin/perf record -q -e cpu-clock -c 200000 -o "$T/cpu.data" -- \
	     sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done' >/dev/null 2>&1; then
		skip "perf record does not work here"
	fi
	"$HWTRACE" convert --to-perfetto "$T/c.pftrace" -i "$T/cpu.data"
	/usr/bin/perf script -i "$T/cpu.data" -F pid,tid,time,event --ns 2>/dev/null >"$T/perf.txt"
	/usr/bin/perf script -i "$T/cpu.data" --show-task-events --ns 2>/dev/null | grep PERF_RECORD_ \
		>"$T/tasks.txt"
	$READ "$T/c.pftrace" >"$T/r.json"
	python3 - "$T" <<'PY'
import json, re, sys
d = sys.argv[1]
got = json.load(open(d + '/r.json'))
want = []
for l in open(d + '/perf.txt'):
    m = re.match(r'\s*(\d+)/(\d+)\s+(\d+)\.(\d+):\s+(\S+):', l)
    assert m, l
    want.append([int(m[1]), int(m[2]), int(m[3]) * 10**9 + int(m[4]), m[5]])
samples = [[i['pid'], i['tid'], i['ts'], i['name']] for i in got['instants'] if i['cat'] == 'cpu']
# perf script shows them sorted by time; the trace has them in file order
# (per-CPU buffers), which Perfetto sorts
assert want and sorted(samples) == sorted(want), (len(samples), len(want))
assert any(i['name'] == 'comm sh' for i in got['instants'])
tid = str(want[0][1])
assert got['threads'][tid]['name'] == 'sh'
# task events at the times perf shows them (its COMM of a running task has none)
task = {}
for l in open(d + '/tasks.txt'):
    m = re.search(r'(\d+)\.(\d+): PERF_RECORD_(COMM exec: (\S+?):|EXIT)', l)
    if m and int(m[1]):
        task.setdefault('comm ' + m[4] if m[4] else 'exit', []).append(
            int(m[1]) * 10**9 + int(m[2]))
mine = {}
for i in got['instants']:
    if i['cat'] == 'task':
        mine.setdefault(i['name'], []).append(i['ts'])
assert task and mine == task, (mine, task)
PY
	decode_raw "$T/c.pftrace" >/dev/null
	grep -q '"sh"' "$T/raw.txt"
}

@test "convert: usage errors exit 2 before reading; the input is never the output" {
	"$HWTRACE" synth --type cxl-hmu --seed 1 --size 8K -o "$T/h.data"
	cp "$T/h.data" "$T/orig"
	run "$HWTRACE" convert -i "$T/h.data"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--to-perfetto"* ]]
	run "$HWTRACE" convert --to-perfetto "$T/h.data" -i "$T/h.data"
	[ "$status" -eq 2 ]
	ln -s "$T/h.data" "$T/link"
	run "$HWTRACE" convert --to-perfetto "$T/link" -i "$T/h.data"
	[ "$status" -eq 2 ]
	cmp "$T/h.data" "$T/orig"
	run "$HWTRACE" convert --to-perfetto "$T/x" -i "$T/h.data" extra
	[ "$status" -eq 2 ]
	run "$HWTRACE" convert --to-perfetto "$T/x" -i /nonexistent --top x
	[ "$status" -eq 2 ]
	run "$HWTRACE" convert --to-perfetto "$T/x" -i /nonexistent --no-such-option
	[ "$status" -eq 2 ]
	[ ! -e "$T/x" ]
	run "$HWTRACE" convert --to-perfetto "$T/x" -i /nonexistent
	[ "$status" -eq 1 ]
	[ ! -e "$T/x" ]
}

@test "convert: write errors say 'write error' and exit 1; bad input is reported, still converted" {
	"$HWTRACE" synth --type panthor --seed 7 --size 20K -o "$T/p.data"
	run "$HWTRACE" convert --to-perfetto /dev/full -i "$T/p.data"
	[ "$status" -eq 1 ]
	[[ "$output" == *"write error"* ]]
	# cut the file inside its data: the reader says where, the rest is written
	head -c 15000 "$T/p.data" >"$T/cut.data"
	run "$HWTRACE" convert --to-perfetto "$T/cut.pftrace" -i "$T/cut.data"
	[ "$status" -eq 1 ]
	[[ "$output" == *"cut.data"* ]]
	[ -s "$T/cut.pftrace" ]
	$READ "$T/cut.pftrace" >/dev/null
}

@test "convert: stdin to a file (one pass), and the verb is known to help and completion" {
	"$HWTRACE" synth --type panthor --seed 7 --size 20K -o "$T/p.data"
	"$HWTRACE" convert --to-perfetto "$T/a.pftrace" -i "$T/p.data"
	"$HWTRACE" convert --to-perfetto "$T/b.pftrace" -i - <"$T/p.data"
	cmp "$T/a.pftrace" "$T/b.pftrace"
	# the hottest units need a first pass: a pipe says it has none
	"$HWTRACE" synth --type cxl-hmu --seed 7 --size 16K -o "$T/h.data"
	run "$HWTRACE" convert --to-perfetto "$T/h.pftrace" -i - <"$T/h.data"
	[ "$status" -eq 0 ]
	[[ "$output" == *"no tracks for the hottest units"* ]]
	$READ "$T/h.pftrace" | grep -q 'epoch total count'
	! $READ "$T/h.pftrace" | grep -q 'hot unit' || false
	# an IGT file read once (stdin a file, or a pipe): its frequency comes from
	# its DEVICE_INFO, which comes before the reports: the file's very trace
	$GEN_IGT --reports 40 -o "$T/f.rec" >"$T/man.json"
	"$HWTRACE" script --json -i "$T/f.rec" >"$T/times.json"
	"$HWTRACE" convert --to-perfetto "$T/f.pftrace" -i "$T/f.rec"
	"$HWTRACE" convert --to-perfetto "$T/o.pftrace" -i - <"$T/f.rec"
	cmp "$T/f.pftrace" "$T/o.pftrace"
	cat "$T/f.rec" | "$HWTRACE" convert --to-perfetto "$T/o.pftrace" -i -
	cmp "$T/f.pftrace" "$T/o.pftrace"
	# every track and value as the generator says
	$READ "$T/o.pftrace" >"$T/r.json"
	i915_expect plain
	# a DEVICE_INFO without a frequency (at byte 24: after VERSION and the
	# record header): given with --ts-freq, or said missing
	python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[24:32] = bytes(8); open(sys.argv[2], "wb").write(b)' "$T/f.rec" "$T/nofreq.rec"
	run "$HWTRACE" convert --to-perfetto "$T/o.pftrace" -i - <"$T/nofreq.rec"
	[ "$status" -eq 1 ]
	[[ "$output" == *"tick frequency is unknown (give it with --ts-freq): no tracks of GpuTime, GpuCoreFrequency"* ]]
	! $READ "$T/o.pftrace" | grep -q 'GpuTime ctx' || false
	run "$HWTRACE" convert --to-perfetto "$T/o.pftrace" -i - --ts-freq 12000000 <"$T/nofreq.rec"
	[ "$status" -eq 0 ]
	$READ "$T/o.pftrace" | grep -q 'GpuTime ctx 0x10'
	# and without its TIMESTAMP_CORRELATION records (type 65539) no report has
	# a CPU time either: every one the generator wrote is said left out
	python3 - "$T/nofreq.rec" "$T/nocorr.rec" <<'PY'
import struct, sys
b, out, i = open(sys.argv[1], 'rb').read(), bytearray(), 0
while i + 8 <= len(b):
    t, _, size = struct.unpack_from('<IHH', b, i)
    if t != 65539:
        out += b[i:i + size]
    i += size
open(sys.argv[2], 'wb').write(out)
PY
	reports=$(grep -c '"type": *"i915_oa_report"' "$T/man.json")
	[ "$reports" -eq 40 ]
	run "$HWTRACE" convert --to-perfetto "$T/o.pftrace" -i - <"$T/nocorr.rec"
	[ "$status" -eq 1 ]
	[[ "$output" == *"tick frequency is unknown (give it with --ts-freq): its records are left out"* ]]
	[[ "$output" == *"$reports records could not be placed on the timeline"* ]]
	[[ "$output" != *"no tracks of"* ]]
	run "$HWTRACE" --list-cmds
	[[ "$output" == *convert* ]]
	run "$HWTRACE" convert --list-opts
	[[ "$output" == *"--to-perfetto"* && "$output" == *"--raw-counters"* ]]
}

# metric_tracks TRACE SCRIPT_JSON TEMPLATE: every metric of every record that
# script --metrics --json prints is the same value, in the same order, on the
# track TEMPLATE names ({m} the metric, {ctx} the record's ctx)
metric_tracks() {
	python3 - "$@" <<-'PY'
	import json, math, sys
	tracks = json.load(open(sys.argv[1]))["tracks"]
	want = {}
	for line in open(sys.argv[2]):
	    r = json.loads(line)
	    for m, v in r.get("metrics", {}).items():
	        if v is None:
	            continue
	        name = sys.argv[3].format(m=m, ctx=r.get("ctx"))
	        want.setdefault(name, []).append(float(v))
	assert want, "script printed no metrics"
	for name, vals in want.items():
	    got = [p[1] for p in tracks[name]["points"]]
	    assert len(got) == len(vals), (name, len(got), len(vals))
	    for g, w in zip(got, vals):
	        assert math.isclose(g, w, rel_tol=1e-12, abs_tol=1e-9), (name, g, w)
	print(len(want), "metric tracks")
	PY
}

@test "convert --metrics: a track per i915 metric per context and per panthor derived metric, values as script --metrics --json" {
	$GEN_IGT --reports 60 --no-lost --one-timeline -o "$T/f.igt" >/dev/null
	"$HWTRACE" convert --metrics --to-perfetto "$T/o.pftrace" -i "$T/f.igt"
	$READ "$T/o.pftrace" >"$T/r.json"
	"$HWTRACE" script --metrics --json -i "$T/f.igt" >"$T/s.json"
	run metric_tracks "$T/r.json" "$T/s.json" "{m} ctx {ctx}"
	echo "$output"
	[ "$status" -eq 0 ]
	# RenderBasic's symbols, per context
	grep -q '"GpuBusy ctx 0x10"' "$T/r.json"
	[ "$(decode_raw "$T/o.pftrace")" -eq "$(points "$T/r.json")" ]
	# without --metrics there are none
	"$HWTRACE" convert --to-perfetto "$T/p.pftrace" -i "$T/f.igt"
	! grep -q 'GpuBusy' <($READ "$T/p.pftrace") || false

	"$HWTRACE" synth --type panthor --seed 3 --size 256K -o "$T/p.data"
	"$HWTRACE" convert --metrics --to-perfetto "$T/q.pftrace" -i "$T/p.data"
	$READ "$T/q.pftrace" >"$T/q.json"
	"$HWTRACE" script --metrics --json -i "$T/p.data" >"$T/ps.json"
	run metric_tracks "$T/q.json" "$T/ps.json" "panthor {m}"
	echo "$output"
	[ "$status" -eq 0 ]
}
