#!/usr/bin/env bats
# list / stat on a CXL CPMU sysfs fixture (the upstream drivers/perf/cxl_pmu.c
# format terms) and real counting of software events against stock perf stat.

setup() {
	T=$(mktemp -d)
	local d="$T/sys/bus/event_source/devices/cxl_pmu_mem0.0"
	mkdir -p "$d/format" "$d/events" "$T/sys/bus/event_source/devices/software"
	echo 12 >"$d/type"
	echo 0 >"$d/cpumask"
	echo 1 >"$T/sys/bus/event_source/devices/software/type"
	put() { echo "$2" >"$d/$1"; }
	put format/mask config:0-31
	put format/gid config:32-47
	put format/vid config:48-63
	put format/threshold config1:0-15
	put format/invert config1:16
	put format/edge config1:17
	put format/hdm_filter_en config1:18
	put format/hdm config2:0-15
	# aliases: config = vid << 48 | gid << 32 | mask (vid 0x1e98 = CXL)
	put events/clock_ticks config=0x1e98000000000001
	put events/d2h_req_rdcurr config=0x1e98001000000001
}

teardown() {
	rm -rf "$T"
}

@test "list: PMU, format terms with ranges, event aliases" {
	run "$HWTRACE" list --sysfs "$T/sys"
	[ "$status" -eq 0 ]
	[[ "$output" == *"cxl_pmu_mem0.0 (type 12, cpus 0, counting only, system-wide)"* ]]
	[[ "$output" == *"mask"*"config:0-31"* ]]
	[[ "$output" == *"hdm_filter_en"*"config1:18"* ]]
	[[ "$output" == *"cxl_pmu_mem0.0/clock_ticks/"*"config=0x1e98000000000001"* ]]
	[[ "$output" == *"software/cpu-clock/"* ]]
}

@test "list with a glob" {
	run "$HWTRACE" list --sysfs "$T/sys" 'cxl*'
	[ "$status" -eq 0 ]
	[[ "$output" == *"vid"*"config:48-63"* ]]
	[[ "$output" != *"software"* ]]
	run "$HWTRACE" list --sysfs "$T/sys" 'd2h*'
	[ "$status" -eq 0 ]
	[[ "$output" == *"d2h_req_rdcurr"* ]]
	[[ "$output" != *"clock_ticks"* ]]
}

@test "stat --dry-run: terms and aliases encode into config/config1/config2" {
	run "$HWTRACE" stat --sysfs "$T/sys" --dry-run -a \
		-e 'cxl_pmu_mem0.0/mask=0xff,gid=0x10,vid=0x1e98,threshold=3,invert,edge,hdm_filter_en,hdm=5/' \
		-e cxl_pmu_mem0.0/clock_ticks/ -e 'cxl_pmu_mem0.0/d2h_req_rdcurr,mask=4/'
	[ "$status" -eq 0 ]
	# 0x1e98 << 48 | 0x10 << 32 | 0xff ; 3 | 1 << 16 | 1 << 17 | 1 << 18
	[ "${lines[0]}" = "cxl_pmu_mem0.0/mask=0xff,gid=0x10,vid=0x1e98,threshold=3,invert,edge,hdm_filter_en,hdm=5/: type=12 config=0x1e980010000000ff config1=0x70003 config2=0x5 cpus=0" ]
	[ "${lines[1]}" = "cxl_pmu_mem0.0/clock_ticks/: type=12 config=0x1e98000000000001 config1=0 config2=0 cpus=0" ]
	[ "${lines[2]}" = "cxl_pmu_mem0.0/d2h_req_rdcurr,mask=4/: type=12 config=0x1e98001000000004 config1=0 config2=0 cpus=0" ]
}

@test "stat: errors name the term and its bit range" {
	run "$HWTRACE" stat --sysfs "$T/sys" -a -e 'cxl_pmu_mem0.0/mask=0x100000000/'
	[ "$status" -eq 2 ]
	[[ "$output" == *"value 0x100000000 for term 'mask' does not fit config:0-31 (32 bits"* ]]
	run "$HWTRACE" stat --sysfs "$T/sys" -a -e 'cxl_pmu_mem0.0/threshold=0x10000/'
	[[ "$output" == *"'threshold' does not fit config1:0-15 (16 bits"* ]]
	run "$HWTRACE" stat --sysfs "$T/sys" -a -e 'cxl_pmu_mem0.0/invert=2/'
	[[ "$output" == *"'invert' does not fit config1:16 (1 bit"* ]]
	run "$HWTRACE" stat --sysfs "$T/sys" -a -e 'cxl_pmu_mem0.0/colour=1/'
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown term 'colour'; terms:"*"mask"* ]]
	run "$HWTRACE" stat --sysfs "$T/sys" -a -e 'nosuch/x=1/'
	[[ "$output" == *"unknown PMU 'nosuch'"* ]]
}

@test "stat refuses per-task and sampling use of a counting-only PMU, with the reason" {
	run "$HWTRACE" stat --sysfs "$T/sys" -e cxl_pmu_mem0.0/clock_ticks/ -- true
	[ "$status" -eq 2 ]
	[[ "$output" == *"cxl_pmu_mem0.0 counts only system-wide"*"use -a"* ]]
	run "$HWTRACE" stat --sysfs "$T/sys" -a -e 'cxl_pmu_mem0.0/clock_ticks,period=1000/'
	[ "$status" -eq 2 ]
	[[ "$output" == *"counting-only PMU: it cannot sample"* ]]
}

# value of cpu-clock in ms from our -x, output and from perf's
@test "stat counts cpu-clock and software/cpu-clock/ like perf stat" {
	command -v perf >/dev/null || skip "stock perf not installed"
	perf stat -x, -e cpu-clock -a -- sleep 0.5 2>"$T/perf.csv" ||
		skip "perf stat cannot count here"
	local ref ours ours2
	ref=$(awk -F, '/cpu-clock/ { printf "%d", $1 }' "$T/perf.csv")
	run "$HWTRACE" stat -x, -e cpu-clock -e software/cpu-clock/ -a -- sleep 0.5
	[ "$status" -eq 0 ]
	# msec, as perf shows the clocks
	ours=$(echo "${lines[0]}" | awk -F, '{ printf "%d", $1 }')
	ours2=$(echo "${lines[1]}" | awk -F, '{ printf "%d", $1 }')
	echo "perf $ref ms, ours $ours ms and $ours2 ms"
	[ "$ref" -gt 0 ]
	# both ran 0.5 s on every CPU: within 15 % of each other
	[ $((ours * 100)) -ge $((ref * 85)) ]
	[ $((ours * 100)) -le $((ref * 115)) ]
	[ $((ours2 * 100)) -ge $((ref * 85)) ]
	[ $((ours2 * 100)) -le $((ref * 115)) ]
}

@test "stat -I prints interval counts; per-task counts a command" {
	run "$HWTRACE" stat -e cpu-clock -a -I 100 -- sleep 0.35
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -ge 4 ]
	[[ "${lines[1]}" == *" cpu-clock "* ]]
	run "$HWTRACE" stat -x, -e task-clock -- sleep 0.1
	[ "$status" -eq 0 ]
	# sleep hardly runs: well under its 100 ms of wall time, but not zero
	local ns=${lines[0]#*,*,*,}
	ns=${ns%%,*}
	[ "$ns" -gt 0 ]
	[ "$ns" -lt 100000000 ]
}

@test "stat usage errors" {
	run "$HWTRACE" stat
	[ "$status" -eq 2 ]
	run "$HWTRACE" stat -e cpu-clock
	[ "$status" -eq 2 ]
	[[ "$output" == *"give -a"* ]]
	run "$HWTRACE" stat -e no-such-event -a
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown event 'no-such-event'"* ]]
}

# arm_spe_0 as Linux 6.3+ has it (inv_event_filter in config3) plus a format
# file of a syntax we do not know: the PMU stays listed, the bad term is
# dropped with a warning naming its file.
spe() {
	local d="$T/sys/bus/event_source/devices/arm_spe_0"
	mkdir -p "$d/format"
	echo 8 >"$d/type"
	echo config:0 >"$d/format/ts_enable"
	echo config2:0-11 >"$d/format/min_latency"
	echo config3:0-63 >"$d/format/inv_event_filter"
	echo config9:0-3 >"$d/format/future"
}

@test "list: a config3 term is kept and a bad format file costs only its term" {
	spe
	run "$HWTRACE" list --sysfs "$T/sys" 'arm_spe*'
	[ "$status" -eq 0 ]
	[[ "$output" == *"arm_spe_0 (type 8"* ]]
	[[ "$output" == *"inv_event_filter"*"config3:0-63"* ]]
	[[ "$output" == *"min_latency"*"config2:0-11"* ]]
	[[ "$output" == *"warning: arm_spe_0/format/future: "*"term dropped"* ]]
	run "$HWTRACE" stat --sysfs "$T/sys" --dry-run -a -e 'arm_spe_0/ts_enable,min_latency=20/'
	[ "$status" -eq 0 ]
	[[ "$output" == *"arm_spe_0/ts_enable,min_latency=20/: type=8 config=0x1 config1=0 config2=0x14"* ]]
}

# hv_24x7 (arch/powerpc/perf/hv-24x7.c): chip events carry "chip=?", which the
# user fills in as perf does: hv_24x7/PM_XLINK_CYCLES__PHYS_CHIP,chip=1/
@test "stat: a '?' parameter takes the user's value; unset, it is an error naming it" {
	local d="$T/sys/bus/event_source/devices/hv_24x7"
	mkdir -p "$d/format" "$d/events"
	echo 20 >"$d/type"
	echo config:0-3 >"$d/format/domain"
	echo config:16-31 >"$d/format/offset"
	echo config:32-47 >"$d/format/chip"
	echo config1:0-15 >"$d/format/lpar"
	echo 'domain=0x1,offset=0x230,chip=?,lpar=0x0' >"$d/events/PM_XLINK_CYCLES__PHYS_CHIP"
	run "$HWTRACE" stat --sysfs "$T/sys" --dry-run -a -e 'hv_24x7/PM_XLINK_CYCLES__PHYS_CHIP,chip=1/'
	[ "$status" -eq 0 ]
	# 1 | 0x230 << 16 | 1 << 32
	[[ "$output" == *": type=20 config=0x102300001 config1=0 config2=0"* ]]
	run "$HWTRACE" stat --sysfs "$T/sys" --dry-run -a -e 'hv_24x7/PM_XLINK_CYCLES__PHYS_CHIP/'
	[ "$status" -eq 2 ]
	[[ "$output" == *"parameter 'chip'"*"needs a value"* ]]
}

@test "stat: a term given twice is an error" {
	run "$HWTRACE" stat --sysfs "$T/sys" --dry-run -a -e 'cxl_pmu_mem0.0/mask=1,mask=2/'
	[ "$status" -eq 2 ]
	[[ "$output" == *"term 'mask' given twice"* ]]
}

@test "stat -e 'a/x=1/,b/y=1/' is two events, as in perf" {
	run "$HWTRACE" stat --sysfs "$T/sys" --dry-run -a \
		-e 'cxl_pmu_mem0.0/mask=4,gid=1/,cxl_pmu_mem0.0/clock_ticks/'
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]}" = "cxl_pmu_mem0.0/mask=4,gid=1/: type=12 config=0x100000004 config1=0 config2=0 cpus=0" ]
	[ "${lines[1]}" = "cxl_pmu_mem0.0/clock_ticks/: type=12 config=0x1e98000000000001 config1=0 config2=0 cpus=0" ]
}

@test "record -e 'cpu-clock,no-such-event' is two events: the second is the one refused" {
	run "$HWTRACE" record -e 'cpu-clock,no-such-event' -o "$T/x.data" -- true
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown event 'no-such-event'"* ]]
	[ ! -e "$T/x.data" ]
}
