#!/usr/bin/env bats
# script and report filters (--time, -C, --pid, --tid, --type), script's time
# column (--ns, --raw-time, --reltime, --deltatime) and inject's short AUX
# event name.  Each selection is compared with what stock perf 6.1 selects
# on the injected copy of the same file, or with arithmetic on perf's times.

load lib/common

setup_file() {
	export T="$BATS_FILE_TMPDIR"
	local pd="$BATS_TEST_DIRNAME/lib/perfdata.py" n=0 off
	"$HWTRACE" synth --type cxl-hmu --seed 5 --size 200K -o "$T/m.data"
	# every second AUXTRACE on cpu 1 by tid 77, the others as synth wrote them
	# (cpu 0, tid -1)
	for off in $(python3 "$pd" records "$T/m.data" | awk '$2 == 71 { print $1 }'); do
		n=$((n + 1))
		if [ $((n % 2)) = 0 ]; then
			python3 "$pd" set-u64 "$T/m.data" $((off + 32)) $((77 << 32))
			python3 "$pd" set-u64 "$T/m.data" $((off + 40)) 1
		fi
	done
	"$HWTRACE" inject -i "$T/m.data" -o "$T/m.inj" 2>/dev/null
	# stock perf's view: cpu, tid and time of every injected sample
	perf script -i "$T/m.inj" -F cpu,time 2>/dev/null >"$T/perf.all"
}

# ours: "cpu time" per record
ours() {
	"$HWTRACE" script -i "$T/m.data" "$@" -F cpu,time 2>/dev/null |
		sed -E 's/.*cpu=([0-9]+) time=([0-9.]+)/\1 \2/'
}

perfs() {
	perf script -i "$T/m.inj" "$@" -F cpu,time 2>/dev/null |
		awk '{ gsub(/[\[\]:]/, ""); print $1 + 0, $2 }'
}

@test "script --time X,Y -C 1 selects what stock perf selects on the injected file" {
	[ "$(wc -l <"$T/perf.all")" -gt 1000 ]
	ours --time 1.02,1.05 -C 1 >"$T/a"
	perfs --time 1.02,1.05 -C 1 >"$T/b"
	[ -s "$T/a" ]
	cmp "$T/a" "$T/b"
	# and -C 0, open ranges, several ranges
	for args in "-C 0" "--time 1.03," "--time ,1.01" "-C 0-1"; do
		ours $args >"$T/a"
		perfs $args >"$T/b"
		[ -s "$T/a" ]
		cmp "$T/a" "$T/b"
	done
	ours --time "1.0,1.01 1.05,1.07" >"$T/a"
	perfs --time "1.0,1.01 1.05,1.07" >"$T/b"
	[ -s "$T/a" ]
	cmp "$T/a" "$T/b"
	# and the line counts differ between the selections (the filters did something)
	[ "$(ours -C 1 | wc -l)" -lt "$(wc -l <"$T/perf.all")" ]
}

@test "script --pid and --tid select what stock perf selects" {
	for args in "--pid 77" "--tid 77" "--pid 5,77"; do
		ours $args >"$T/a"
		perfs $args >"$T/b"
		[ -s "$T/a" ]
		cmp "$T/a" "$T/b"
	done
}

@test "script --time a%/n and a%-b% select the slices of the span of perf's times" {
	python3 - "$T/perf.all" >"$T/slices" <<'PY'
import sys
t = [round(float(l.split()[1].rstrip(':')) * 1e6) * 1000 for l in open(sys.argv[1])]
first, last = min(t), max(t)
total = last - first
def sel(a, b):
    s = first + int(total * a / 100)
    e = last if b >= 100 else first + int(total * b / 100) - 1
    return sum(1 for x in t if s <= x <= e)
print(sel(20, 40), sel(0, 50), sel(50, 100))
PY
	read -r n1 n2 n3 <"$T/slices"
	[ "$(ours --time 20%/2 | wc -l)" = "$n1" ]
	[ "$(ours --time 0%-50% | wc -l)" = "$n2" ]
	[ "$(ours --time 50%-100% | wc -l)" = "$n3" ]
	[ $((n2 + n3)) -ge "$(wc -l <"$T/perf.all")" ]
}

@test "script's time is perf's secs.usecs; --ns, --reltime, --deltatime as perf script" {
	ours >"$T/a"
	perfs >"$T/b"
	cmp "$T/a" "$T/b"
	for args in "--ns" "--reltime" "--deltatime" "--ns --reltime"; do
		ours $args >"$T/a"
		perfs $args >"$T/b"
		cmp "$T/a" "$T/b"
	done
	run "$HWTRACE" script -i "$T/m.data" --raw-time -F time
	[[ "${lines[0]}" == "cxl_hmu_unit: time=1000000000" ]]
	run "$HWTRACE" script -i "$T/m.data" --csv -F time
	[ "${lines[1]}" = "cxl_hmu_unit,1.000000" ]
	run "$HWTRACE" script -i "$T/m.data" --json -F time
	[[ "${lines[0]}" == '{"type":"cxl_hmu_unit","time":1000000000}' ]]
}

@test "script --type and report filters count the same records as perf" {
	n=$(perfs -C 1 --time 1.0,1.1 | wc -l)
	[ "$(ours --type cxl_hmu_unit -C 1 --time 1.0,1.1 | wc -l)" = "$n" ]
	run "$HWTRACE" report -i "$T/m.data" -C 1 --time 1.0,1.1
	[ "$status" -eq 0 ]
	[[ "$output" == *"records selected by the filters: $n"* ]]
	[[ "$output" == *"cxl_hmu_unit "*" $n"* ]]
	# another type: nothing selected
	[ "$(ours --type i915_oa_report | wc -l)" = 0 ]
}

# A hook printing what it is called with; the same file runs under both runners.
hook_lines() {
	cat >"$T/hook.py" <<'PY'
import sys
def hwtrace__cxl_hmu_unit(event_name, context, cpu, secs, nsecs, pid, comm, callchain, *f):
    print(cpu, secs, nsecs, pid, f[3], f[4])
def trace_unhandled(event_name, context, fields):
    print("unhandled", event_name)
PY
}

@test "script -s with --time, -C, --pid, --tid: the hooks get what stock perf script -s gives them" {
	hook_lines
	for args in "--time 1.02,1.05 -C 1" "-C 0" "--pid 77" "--tid 77" "--time 1.05,"; do
		"$HWTRACE" script -i "$T/m.data" $args -s "$T/hook.py" 2>/dev/null >"$T/a"
		perf script -i "$T/m.inj" $args -s "$T/hook.py" 2>/dev/null >"$T/b"
		echo "$args: $(wc -l <"$T/a") $(wc -l <"$T/b")"
		[ -s "$T/b" ]
		cmp "$T/a" "$T/b"
		# and fewer than all: the filter did something
		[ "$(wc -l <"$T/a")" -lt "$(wc -l <"$T/perf.all")" ]
	done
	# percent ranges: stock perf takes the span from a feature injected files
	# lack, so the count of script's text lines (checked against perf's times
	# above) is the reference
	for args in "--time 20%/2" "--time 50%-100%"; do
		n=$(ours $args | wc -l)
		[ "$n" -gt 0 ]
		[ "$("$HWTRACE" script -i "$T/m.data" $args -s "$T/hook.py" 2>/dev/null | wc -l)" = "$n" ]
	done
	# two ranges in one argument
	"$HWTRACE" script -i "$T/m.data" --time "1.0,1.01 1.05,1.07" -s "$T/hook.py" 2>/dev/null >"$T/a"
	perf script -i "$T/m.inj" --time "1.0,1.01 1.05,1.07" -s "$T/hook.py" 2>/dev/null >"$T/b"
	[ -s "$T/b" ]
	cmp "$T/a" "$T/b"
	# --type: the records script --type selects, none of another type
	n=$(ours --type cxl_hmu_unit -C 1 | wc -l)
	[ "$("$HWTRACE" script -i "$T/m.data" --type cxl_hmu_unit -C 1 -s "$T/hook.py" 2>/dev/null |
		wc -l)" = "$n" ]
	[ "$("$HWTRACE" script -i "$T/m.data" --type i915_oa_report -s "$T/hook.py" 2>/dev/null |
		wc -l)" = 0 ]
	# time formats stay refused with -s: the hook gets common_secs and common_nsecs
	run "$HWTRACE" script -i "$T/m.data" --ns -s "$T/hook.py"
	[ "$status" -eq 2 ]
}

@test "filter usage errors exit 2 before reading the input" {
	for args in "--time 1.5" "--time 2,1" "--time 120%/1" "-C x" "-C 3-1" "--pid a" \
		    "--type nosuch" "--reltime --deltatime"; do
		run "$HWTRACE" script -i /nonexistent $args
		[ "$status" -eq 2 ]
		[[ "$output" != *nonexistent* ]]
	done
	run "$HWTRACE" script -i - --time 10%/1 </dev/null
	[ "$status" -eq 2 ]
	run "$HWTRACE" report -D -C 0 -i /nonexistent
	[ "$status" -eq 2 ]
}

@test "inject: stock perf script lines are not padded by the AUX event's long name" {
	perf evlist -i "$T/m.inj" 2>/dev/null | grep -qx 'cxl_hmu_mem0.0.0//'
	max=$(perf script -i "$T/m.inj" -F tid,cpu,time,event 2>/dev/null |
		awk '{ if (length($0) > m) m = length($0) } END { print m }')
	[ "$max" -lt 120 ]
	# a whole line: the header and the fields, no ~180-column gap between
	# (perf pads the name to the longest event's, hwtrace:drm_usage_gpu_engine)
	perf script -i "$T/m.inj" 2>/dev/null | head -1 >"$T/line"
	grep -qE ': {1,10}hwtrace:cxl_hmu_unit: ' "$T/line"
	[ "$(awk '{ print length($0) }' "$T/line")" -lt 200 ]
}
