#!/usr/bin/env bats
# inject, script -s, the libtraceevent plugin and the Python module against
# Debian's stock perf 6.1 and trace-cmd.  Expected values come from synth's
# manifest (the generator's own account), from gen_igt.py, and from what
# stock perf itself passes to the same hook on the injected file.

load lib/common

setup_file() {
	export T="$BATS_FILE_TMPDIR"
	"$HWTRACE" synth --type cxl-hmu --seed 3 --size 16K --manifest "$T/m.txt" -o "$T/hmu.data"
	"$HWTRACE" synth --type panthor --seed 3 --size 16K -o "$T/panthor.data"
	"$HWTRACE" synth --type i915-oa --seed 3 --size 16K -o "$T/oa.data"
	python3 "$BATS_TEST_DIRNAME/../fixtures/gen_igt.py" --reports 40 -o "$T/igt.rec" \
		--manifest "$T/igt.json" >/dev/null
	for f in hmu panthor oa; do
		"$HWTRACE" inject -i "$T/$f.data" -o "$T/$f.inj" 2>/dev/null
	done
	"$HWTRACE" inject -i "$T/igt.rec" -o "$T/igt.inj" 2>/dev/null
	# a hook that prints every value it gets, with its Python type
	cat >"$T/probe.py" <<'EOF'
import sys
def trace_begin():
    print("argv", sys.argv[1:])
def hwtrace__cxl_hmu_unit(event_name, context, common_cpu, common_secs, common_nsecs,
                          common_pid, common_comm, common_callchain, *fields):
    print(event_name, type(context).__name__, common_cpu, common_secs, common_nsecs,
          common_pid, repr(common_comm), common_callchain, [(type(v).__name__, v) for v in fields])
def trace_unhandled(event_name, context, fields, perf_sample_dict):
    s = perf_sample_dict["sample"]
    print(event_name, sorted((k, type(v).__name__, v) for k, v in fields.items()),
          sorted(perf_sample_dict), perf_sample_dict["ev_name"], perf_sample_dict["raw_buf"].hex(),
          perf_sample_dict["attr"].hex(), sorted((k, v) for k, v in s.items() if k != "values"))
def trace_end():
    print("end")
EOF
}

# perf-hwtrace with embedded Python; libpython's own allocations are not leaks of ours
pyhw() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$HWTRACE" "$@"
}

@test "stock perf script prints every hotlist entry with the generator's values" {
	run perf script -i "$T/hmu.inj"
	[ "$status" -eq 0 ]
	echo "$output" >"$T/perf.txt"
	python3 - "$T/perf.txt" "$T/m.txt" <<'EOF'
import re, sys
got = []
for l in open(sys.argv[1]):
    m = re.search(r"\[(\d+)\]\s+(\d+)\.(\d+): +hwtrace:cxl_hmu_unit: cpu=(\d+) time=(\d+) "
                  r"pmu=(\S+) unit=(\d+) count=(\d+) counter_width=(\d+) dpa=(0x[0-9a-f]+)", l)
    assert m, l
    sec, usec = int(m.group(2)), int(m.group(3))
    got.append((int(m.group(4)), int(m.group(5)), int(m.group(7)), int(m.group(8)),
                int(m.group(10), 16)))
    assert int(m.group(1)) == got[-1][0]                 # sample cpu
    assert sec * 1000000 + usec == got[-1][1] // 1000    # sample time
want = [tuple(int(x, 0) for x in l.split()) for l in open(sys.argv[2]) if not l.startswith("#")]
assert len(got) == len(want) > 100, (len(got), len(want))
assert got == want
EOF
}

@test "stock perf script reads panthor, i915 OA and raw IGT injections" {
	for f in panthor oa igt; do
		run perf script -i "$T/$f.inj"
		[ "$status" -eq 0 ]
		[[ "$output" == *"hwtrace:"* ]]
	done
	n=$(perf script -i "$T/igt.inj" | grep -c 'hwtrace:i915_oa_report')
	[ "$n" -gt 0 ]
	[ "$n" -eq "$("$HWTRACE" script -i "$T/igt.rec" 2>/dev/null | grep -c '^i915_oa_report')" ]
}

@test "inject -o - streams pipe mode that perf script -i - reads" {
	perf script -i "$T/hmu.inj" >"$T/file.txt"
	"$HWTRACE" inject -i "$T/hmu.data" -o - 2>/dev/null | perf script -i - >"$T/pipe.txt"
	[ -s "$T/pipe.txt" ]
	cmp "$T/file.txt" "$T/pipe.txt"
	# and pipe-mode input
	"$HWTRACE" synth --type cxl-hmu --seed 3 --size 16K --pipe -o - |
		"$HWTRACE" inject -i - -o "$T/pin.inj" 2>/dev/null
	perf script -i "$T/pin.inj" | cmp - "$T/file.txt"
}

@test "the same hook gets identical values from stock perf script -s and perf hwtrace script -s" {
	for f in hmu panthor oa; do
		perf script -i "$T/$f.inj" -s "$T/probe.py" a1 --x >"$T/stock.txt" 2>/dev/null
		pyhw script -i "$T/$f.data" -s "$T/probe.py" a1 --x >"$T/ours.txt" 2>/dev/null
		[ "$(wc -l <"$T/stock.txt")" -gt 3 ]
		head -1 "$T/ours.txt" | grep -qF "argv ['a1', '--x']"
		cmp "$T/stock.txt" "$T/ours.txt"
	done
	perf script -i "$T/igt.inj" -s "$T/probe.py" >"$T/stock.txt" 2>/dev/null
	pyhw script -i "$T/igt.rec" -s "$T/probe.py" >"$T/ours.txt" 2>/dev/null
	cmp "$T/stock.txt" "$T/ours.txt"
	# stock perf on a pipe too
	"$HWTRACE" inject -i "$T/hmu.data" -o - 2>/dev/null |
		perf script -i - -s "$T/probe.py" a1 --x 2>/dev/null >"$T/stock.txt"
	pyhw script -i "$T/hmu.data" -s "$T/probe.py" a1 --x 2>/dev/null | cmp - "$T/stock.txt"
}

@test "perf_sample_dict is passed only to handlers that take it, as perf does" {
	cat >"$T/dict.py" <<'EOF'
def hwtrace__cxl_hmu_unit(event_name, context, common_cpu, common_secs, common_nsecs,
                          common_pid, common_comm, common_callchain, cpu, time, pmu, unit,
                          count, counter_width, dpa, hpa, raw, perf_sample_dict):
    print(dpa, count, perf_sample_dict["ev_name"], perf_sample_dict["sample"]["time"])
EOF
	perf script -i "$T/hmu.inj" -s "$T/dict.py" >"$T/stock.txt" 2>/dev/null
	pyhw script -i "$T/hmu.data" -s "$T/dict.py" >"$T/ours.txt" 2>/dev/null
	[ -s "$T/ours.txt" ]
	cmp "$T/stock.txt" "$T/ours.txt"
	python3 -c '
import sys
for l in open(sys.argv[1]):
    if not l.startswith("#"):
        c, t, u, n, d = l.split()
        print(int(d, 16), n, "hwtrace:cxl_hmu_unit", t)' "$T/m.txt" | cmp - "$T/ours.txt"
}

@test "shipped scripts give identical output under both runners" {
	S="$BATS_TEST_DIRNAME/../../scripts"
	for pair in hmu-top.py:hmu hmu-heatmap.py:hmu oa-csv.py:oa panthor-rates.py:panthor; do
		s=${pair%%:*}; f=${pair#*:}
		(cd "$T" && perf script -i "$T/$f.inj" -s "$S/$s" >"$T/stock.txt" 2>/dev/null)
		(cd "$T" && pyhw script -i "$T/$f.data" -s "$S/$s" >"$T/ours.txt" 2>/dev/null)
		[ -s "$T/ours.txt" ]
		cmp "$T/stock.txt" "$T/ours.txt"
	done
	grep -q '^<svg' "$T/hmu-heatmap.svg"
	# hmu-top's all-input table: the hottest unit's total equals the manifest's
	top=$(pyhw script -i "$T/hmu.data" -s "$S/hmu-top.py" --top 1 2>/dev/null | sed -n 3p | awk '{print $NF}')
	want=$(grep -v '^#' "$T/m.txt" | awk '{ s[$3] += $4 } END { for (u in s) if (s[u] > m) m = s[u]; print m }')
	[ "$top" = "$want" ]
}

@test "inject writes this machine's features when the input has none" {
	# a raw IGT stream carries no perf.data features
	run perf report --header-only -i "$T/igt.inj"
	[ "$status" -eq 0 ]
	[[ "$output" == *"# cmdline : perf-hwtrace inject -i $T/igt.rec -o $T/igt.inj"* ]]
	[[ "$output" == *"# nrcpus online : $(nproc)"* ]]
	[[ "$output" == *"# hostname : $(uname -n)"* ]]
	[[ "$output" == *"# arch : $(uname -m)"* ]]
}

@test "perf data convert --to-ctf works on injected files and carries the fields" {
	for f in hmu panthor oa; do
		rm -rf "$T/ctf-$f"
		run perf data convert -i "$T/$f.inj" --to-ctf "$T/ctf-$f"
		[ "$status" -eq 0 ]
		[[ "$output" == *"Converted and wrote"* ]]
	done
	grep -aq ' dpa;' "$T/ctf-hmu/metadata"
	grep -aq ' count;' "$T/ctf-hmu/metadata"
	python3 - "$T/ctf-hmu" "$T/m.txt" <<'EOF'
import glob, struct, sys
data = b"".join(open(p, "rb").read() for p in glob.glob(sys.argv[1] + "/perf_stream_*"))
want = [l.split() for l in open(sys.argv[2]) if not l.startswith("#")]
for w in want[:50]:
    assert struct.pack("<QQ", int(w[3]), 16) in data, w      # count, counter_width
    assert struct.pack("<Q", int(w[4], 16)) in data, w        # dpa
EOF
}

@test "the libtraceevent plugin changes stock perf's line and trace-cmd lists it" {
	mkdir -p "$T/plugins"
	cp "$BUILD/plugin_hwtrace.so" "$T/plugins/"
	line=$(perf script -i "$T/hmu.inj" | head -1)
	[[ "$line" == *" time="*" raw=0x"* ]]
	pline=$(TRACEEVENT_PLUGIN_DIR="$T/plugins" perf script -i "$T/hmu.inj" | head -1)
	[[ "$pline" == *"hwtrace:cxl_hmu_unit: pmu=cxl_hmu_mem"*" dpa=0x"* ]]
	[[ "$pline" != *" time="* ]]
	[[ "$pline" != *" raw="* ]]
	# the same entry: dpa and count agree with the plain line
	[ "$(grep -o 'dpa=0x[0-9a-f]*' <<<"$line")" = "$(grep -o 'dpa=0x[0-9a-f]*' <<<"$pline")" ]
	[ "$(grep -o ' count=[0-9]*' <<<"$line")" = "$(grep -o ' count=[0-9]*' <<<"$pline")" ]
	# counter arrays are summarised
	TRACEEVENT_PLUGIN_DIR="$T/plugins" perf script -i "$T/panthor.inj" | head -1 |
		grep -q 'values\[64\]{sum=[0-9]* max='
	run env TRACEEVENT_PLUGIN_DIR="$T/plugins" trace-cmd list -O
	[ "$status" -eq 0 ]
	[[ "$output" == *"plugin:"*"hwtrace"* ]]
	# only the tep_*/trace_seq_* functions perf 6.1 exports are needed
	nm -D --undefined-only "$BUILD/plugin_hwtrace.so" | awk '/ (tep_|trace_seq)/ { print $2 }' |
	while read -r sym; do
		nm -D "$(command -v perf)" | grep -q " T $sym\$"
	done
}

@test "the plugin reads a list field only up to its __data_loc length" {
	mkdir -p "$T/plugins"
	cp "$BUILD/plugin_hwtrace.so" "$T/plugins/"
	cp "$T/panthor.inj" "$T/cut.inj"
	# shorten one sample's values text to K numbers and the first digit of the
	# next one (no NUL inside the length): prints "N SUM_CUT SUM_IF_READ_ON"
	read -r n want bad < <(python3 - "$T/cut.inj" "$BATS_TEST_DIRNAME/lib" <<'EOF'
import struct, sys
sys.path.insert(0, sys.argv[2])
import perfdata
path = sys.argv[1]
for off, typ, size, extra, data in perfdata.walk(path):
    if typ != 9:                               # PERF_RECORD_SAMPLE
        continue
    raw = off + 52                             # header, id, tid, time, cpu, period, u32 size
    rsize = struct.unpack_from("<I", data, off + 48)[0]
    for slot in range(raw + 8, raw + rsize - 4, 8):
        loc = struct.unpack_from("<I", data, slot)[0]
        o, ln = loc & 0xffff, loc >> 16
        text = data[raw + o:raw + o + ln]
        if not text.endswith(b"\0") or text.count(b",") != 63:
            continue
        nums = text[:-1].split(b",")
        if not all(x.isdigit() for x in nums):
            continue
        k = next((k for k in range(1, 63) if len(nums[k]) >= 2), None)
        if k is None:
            continue
        cut = sum(len(x) + 1 for x in nums[:k]) + 1
        with open(path, "r+b") as f:
            f.seek(slot)
            f.write(struct.pack("<I", o | cut << 16))
        head = sum(int(x) for x in nums[:k])
        print(k + 1, head + int(nums[k][:1]), head + int(nums[k]))
        sys.exit(0)
sys.exit("no sample to cut")
EOF
)
	[ -n "$n" ]
	[ "$want" != "$bad" ]
	out=$(TRACEEVENT_PLUGIN_DIR="$T/plugins" perf script -i "$T/cut.inj")
	grep -q "values\[$n\]{sum=$want " <<<"$out"
	# the other samples are untouched
	[ "$(grep -c 'values\[64\]{sum=' <<<"$out")" -gt 0 ]
}

@test "hwtrace Python module records equal script --json objects" {
	for f in hmu panthor oa; do
		"$HWTRACE" script --json -i "$T/$f.data" 2>/dev/null >"$T/$f.json"
		PYTHONPATH="$BUILD/python" python3 - "$T/$f.data" "$T/$f.json" <<'EOF'
import hwtrace, json, sys
# JSON writes hex fields and integers above 2^53 as strings; Python has exact ints
def num(v):
    if isinstance(v, list):
        return [num(x) for x in v]
    if isinstance(v, str) and (v.startswith("0x") or v.isdigit()):
        return int(v, 0)
    return v
recs = list(hwtrace.open(sys.argv[1]))
want = [{k: num(v) for k, v in json.loads(l).items()} for l in open(sys.argv[2])]
assert len(recs) == len(want) > 0, (len(recs), len(want))
assert recs == want
EOF
	done
	PYTHONPATH="$BUILD/python" python3 -c '
import hwtrace
try:
    hwtrace.open("/nonexistent/x.data")
except OSError:
    pass
else:
    raise SystemExit("no OSError")'
}

@test "inject picks free sample ids when the input uses the largest one" {
	cp "$T/hmu.data" "$T/maxid.data"
	# the last id of the last attr becomes 2^64 - 1: ours must not wrap to 0
	python3 - "$T/maxid.data" <<'EOF'
import struct, sys
with open(sys.argv[1], "r+b") as f:
    d = f.read()
    asz, = struct.unpack_from("<Q", d, 16)
    ao, an = struct.unpack_from("<QQ", d, 24)
    io, isz = struct.unpack_from("<QQ", d, ao + an - 16)
    assert isz >= 8
    f.seek(io + isz - 8)
    f.write(struct.pack("<Q", 2**64 - 1))
EOF
	"$HWTRACE" inject -i "$T/maxid.data" -o "$T/maxid.inj" 2>/dev/null || true
	n=$(perf script -i "$T/maxid.inj" 2>/dev/null | grep -c 'hwtrace:cxl_hmu_unit')
	[ "$n" -eq "$(grep -vc '^#' "$T/m.txt")" ]
}

@test "inject: usage errors exit 2, a cut input exits 1 with the output still readable" {
	run "$HWTRACE" inject -i "$T/hmu.data"
	[ "$status" -eq 2 ]
	size=$(stat -c %s "$T/hmu.data")
	head -c $((size * 2 / 3)) "$T/hmu.data" >"$T/cut.data"
	run "$HWTRACE" inject -i "$T/cut.data" -o "$T/cut.inj"
	[ "$status" -eq 1 ]
	n=$(perf script -i "$T/cut.inj" 2>/dev/null | grep -c 'hwtrace:cxl_hmu_unit')
	[ "$n" -gt 0 ]
	[ "$n" -eq "$("$HWTRACE" script -i "$T/cut.data" 2>/dev/null | grep -c '^cxl_hmu_unit')" ]
}

# ---- ordinary recordings pass through (stock perf records them) -------------------

# perf script lines with perf's column padding squeezed: the event name column
# is as wide as the longest event name, and the output adds hwtrace:* events
squeezed_script() {
	perf script -i "$1" 2>/dev/null | tr -s ' '
}

# "TYPE count" per record type of perf report --stats, without @2's types
stats_counts() {
	perf report --stats -i "$1" 2>/dev/null |
		awk -v skip="$2" '$2 == "stats:" && $1 != "Aggregated" { exit } / events: / && $1 != "TOTAL" && $1 !~ "^(" skip ")$" { print $1, $3 }'
}

# record FILE PERF-RECORD-ARGS...: a stock perf recording of sleep 0.1, or skip
record_or_skip() {
	local out=$1
	shift
	if ! perf record -q "$@" -o "$out" -- sleep 0.1 >/dev/null 2>&1 || [ ! -s "$out" ]; then
		skip "perf record $* does not work here (perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid))"
	fi
}

# inject IN and compare what stock perf reads: script lines, stats counts
# (SKIP: record types that only the input can have)
check_passthrough() {
	local in=$1 skip=${2:-NONE}
	run "$HWTRACE" inject -i "$in" -o "$in.inj"
	[ "$status" -eq 0 ]
	[[ "$output" != *"warning:"* ]]
	[[ "$output" == *"; 0 errors, 0 warnings"* ]]
	squeezed_script "$in" >"$in.s1"
	squeezed_script "$in.inj" >"$in.s2"
	[ "$(grep -c . "$in.s1")" -gt 0 ]
	diff "$in.s1" "$in.s2"
	perf script -i "$in.inj" >/dev/null
	stats_counts "$in" "$skip" >"$in.c1"
	stats_counts "$in.inj" "$skip" >"$in.c2"
	grep -q '^SAMPLE [1-9]' "$in.c1"
	diff "$in.c1" "$in.c2"
}

@test "inject passes a plain perf recording through as stock perf reads it" {
	record_or_skip "$T/plain.data" -e cpu-clock
	# the old output failed here: "failed to process type: 78"
	check_passthrough "$T/plain.data"
	perf evlist -v -i "$T/plain.data.inj" | grep -q '^cpu-clock: .*sample_type: IP|TID|TIME|PERIOD|IDENTIFIER,'
}

@test "inject passes a -g recording through with its callchains" {
	record_or_skip "$T/g.data" -g -e cpu-clock
	check_passthrough "$T/g.data"
	# callchain lines are there (indented addresses)
	[ "$(grep -Ec '^[[:space:]]+[0-9a-f]+ ' "$T/g.data.s2")" -gt "$(grep -c 'cpu-clock:' "$T/g.data.s2")" ]
}

@test "inject passes a -z recording through, its records inflated" {
	record_or_skip "$T/z.data" -z -e cpu-clock
	perf report --stats -i "$T/z.data" | grep -q 'COMPRESSED events: *[1-9]'
	check_passthrough "$T/z.data" COMPRESSED
	! perf report --stats -i "$T/z.data.inj" | grep -q COMPRESSED || false
}

@test "inject passes pipe-mode recordings through, to a file and to a pipe" {
	record_or_skip "$T/pipe.data" -e cpu-clock
	perf record -q -e cpu-clock -o - -- sleep 0.1 2>/dev/null | cat >"$T/pipe.data"
	# the pipe header records become the file's header
	check_passthrough "$T/pipe.data" 'ATTR|FEATURE|TRACING_DATA|BUILD_ID'
	"$HWTRACE" inject -i - -o - <"$T/pipe.data" 2>/dev/null | perf script -i - | tr -s ' ' |
		diff "$T/pipe.data.s1" -
}

@test "inject passes two-event recordings through, each sample with its event" {
	record_or_skip "$T/two.data" -e cpu-clock,task-clock
	check_passthrough "$T/two.data"
	grep -q ' task-clock: ' "$T/two.data.s2"
	grep -q ' cpu-clock: ' "$T/two.data.s2"
	record_or_skip "$T/dummy.data" -e cpu-clock -e dummy
	check_passthrough "$T/dummy.data"
}

# ids section sizes 0, ID_INDEX entries 0: the events have no sample id at all
strip_ids() {
	python3 - "$1" "$BATS_TEST_DIRNAME/lib" <<'EOF'
import struct, sys
sys.path.insert(0, sys.argv[2])
import perfdata
path = sys.argv[1]
with open(path, "r+b") as f:
    d = f.read()
    asz, ao, an = struct.unpack_from("<QQQ", d, 16)
    for e in range(ao, ao + an, asz):
        f.seek(e + asz - 8)
        f.write(struct.pack("<Q", 0))
    for off, typ, size, extra, data in perfdata.walk(path):
        if typ == 69:
            f.seek(off + 8)
            f.write(struct.pack("<Q", 0))
EOF
}

@test "inject gives a lone event without ids a fresh one, EVENT_UPDATE too" {
	record_or_skip "$T/noid.data" -e cpu-clock
	strip_ids "$T/noid.data"
	perf evlist -v -i "$T/noid.data" >/dev/null
	check_passthrough "$T/noid.data"
	# the id the attr declares is the one EVENT_UPDATE and the samples name
	id=$(perf report --header-only -i "$T/noid.data.inj" |
		sed -n 's/^# event : name = cpu-clock, .*id = { \([0-9]*\) }.*/\1/p')
	[ -n "$id" ]
	n=$(perf report -D -i "$T/noid.data.inj" | grep -A1 'PERF_RECORD_EVENT_UPDATE' |
		awk -v id="$id" '$1 == "..." && $2 == "id:" { if ($3 != id) exit 1; n++ } END { print n }')
	[ "$n" -gt 0 ]
}

@test "inject refuses records of several events it cannot tell apart, writing nothing" {
	record_or_skip "$T/noid2.data" -e cpu-clock,task-clock
	strip_ids "$T/noid2.data"
	echo old >"$T/noid2.inj"
	run "$HWTRACE" inject -i "$T/noid2.data" -o "$T/noid2.inj"
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: $T/noid2.data: offset 0x"*": PERF_RECORD_"*"names none of the input's events"* ]]
	[[ "$output" == *"not written (input refused)"* ]]
	[ "$(cat "$T/noid2.inj")" = old ]
	[ -z "$(ls -A "$T" | grep '^\.noid2')" ]
}

# reports of one OA drain dated back over rounds the recorder finished
# meanwhile (perfdata.py oa-rounds): perf's rounds would deliver CPU samples
# after them first
oa_rounds() {
	"$HWTRACE" synth --type i915-oa --seed 5 --size 100K --pipe -o "$T/r.pipe" \
		--manifest "$T/r.man"
	python3 "$BATS_TEST_DIRNAME/lib/perfdata.py" oa-rounds "$T/r.pipe" "$T/$1.data" 4 "${2:-0}" \
		>"$T/$1.gen"
}

@test "inject keeps OA reports dated rounds back in time order for stock perf" {
	oa_rounds lag
	run "$HWTRACE" inject -i "$T/lag.data" -o "$T/lag.inj"
	[ "$status" -eq 0 ]
	[[ "$output" == *"FINISHED_ROUND moved to the end"* ]]
	[[ "$output" != *"out of order"* ]]
	perf script -i "$T/lag.inj" -F time,event >"$T/lag.s" 2>"$T/lag.e"
	# perf delivered every record in its turn: no warning, times in order
	! grep -q 'out of order' "$T/lag.e" || false
	python3 - "$T/lag.s" "$T/r.man" "$T/lag.gen" <<'EOF'
import sys
lines = [ln.split() for ln in open(sys.argv[1])]
times = [float(ln[0].rstrip(":")) for ln in lines]
assert times == sorted(times), "out of order"
kinds = [ln[1].rstrip(":") for ln in lines]
man = [ln.split()[0] for ln in open(sys.argv[2])]
gen = open(sys.argv[3]).read().split()
assert kinds.count("hwtrace:i915_oa_report") == man.count("report")
assert kinds.count("hwtrace:i915_oa_lost") == man.count("lost")
assert kinds.count("cpu-clock") == int(gen[1]) > 100, kinds.count("cpu-clock")
# reports and CPU samples alternate many times: the test is about their order
runs = sum(1 for a, b in zip(kinds, kinds[1:]) if (a == "cpu-clock") != (b == "cpu-clock"))
assert runs > 20, runs
EOF
	# no round lost: the synth's and the generator's are all there
	want=$(( $(python3 "$BATS_TEST_DIRNAME/lib/perfdata.py" records "$T/r.pipe" |
		awk '$2 == 68' | wc -l) + $(awk '{ print $4 }' "$T/lag.gen") ))
	perf report --stats -i "$T/lag.inj" | grep -Eq "FINISHED_ROUND events: +$want "
}

@test "inject counts the samples it cannot keep in order as perf does" {
	# before the last drain the CPU's samples run 3 s past its reports,
	# more than a round waits: those reports come late, and both say so
	oa_rounds gap 3
	run "$HWTRACE" inject -i "$T/gap.data" -o "$T/gap.inj"
	[ "$status" -eq 0 ]
	n=$(sed -n 's/.*: i915_oa_report: \([0-9]*\) injected samples, from this one on, are dated before records of rounds already written.*/\1/p' <<<"$output")
	[ "${n:-0}" -gt 0 ]
	perf script -i "$T/gap.inj" -F time,event >/dev/null 2>"$T/gap.e"
	grep -q "^$n out of order events recorded" "$T/gap.e"
}
