#!/usr/bin/env bats
# Output contracts (Documentation/perf-hwtrace.rst, "Writing the output" and
# "Output formats"): write errors on stdout, a reader that goes away, control
# characters from the system, JSON and CSV that programs load exactly.
# Expected values come from synth's manifests, from packets built here and
# from arithmetic done here.

load lib/common

setup_file() {
	export T="$BATS_FILE_TMPDIR"
	"$HWTRACE" synth --type cxl-hmu --seed 3 --size 64K -o "$T/hmu.data"
	# big enough that the output outlasts a pipe's buffer
	"$HWTRACE" synth --type cxl-hmu --seed 3 --size 2M -o "$T/big.data"
	"$HWTRACE" synth --type panthor --seed 5 --size 100K --manifest "$T/pan.txt" \
		-o "$T/pan.data"
	"$HWTRACE" synth --type i915-oa --seed 3 --size 64K --manifest "$T/oa.txt" -o "$T/oa.data"
	cat >"$T/hook.py" <<'EOF'
def hwtrace__cxl_hmu_unit(event_name, context, common_cpu, common_secs, common_nsecs,
                          common_pid, common_comm, common_callchain, *fields):
    print(event_name, fields[3])
EOF
	# a sysfs PMU and a /proc client whose strings carry escapes and newlines
	local d="$T/sys/bus/event_source/devices/evil"
	mkdir -p "$d/format" "$d/events"
	echo 42 >"$d/type"
	echo config:0-7 >"$d/format/ev"
	printf 'ev=0x1\033[31m\n' >"$d/events/red"
	mkdir -p "$T/sys/bus/event_source/devices/two"$'\n'"lines"
	echo 43 >"$T/sys/bus/event_source/devices/two"$'\n'"lines/type"
	local p="$T/proc/100"
	mkdir -p "$p/fd" "$p/fdinfo"
	printf 'evil\033[31mX\ny\n' >"$p/comm"
	ln -s /dev/dri/card0 "$p/fd/3"
	printf 'drm-driver: i915\033]0;t\ndrm-client-id: 7\ndrm-engine-ren\033der: 5 ns\n' \
		>"$p/fdinfo/3"
}

# every verb that writes stdout (stat writes stderr, as perf stat; its -o
# write errors are in stat_perf.bats), as "name|command line" (T and HWTRACE expanded by bash -c)
verbs() {
	cat <<'EOF'
report|"$HWTRACE" report -i "$T/hmu.data"
report -D|"$HWTRACE" report -D -i "$T/hmu.data"
report --stats|"$HWTRACE" report --stats -i "$T/hmu.data"
script|"$HWTRACE" script -i "$T/hmu.data"
script --json|"$HWTRACE" script --json -i "$T/hmu.data"
script --csv|"$HWTRACE" script --csv -i "$T/hmu.data"
script -s|"$HWTRACE" script -i "$T/hmu.data" -s "$T/hook.py"
decode|"$HWTRACE" decode --type cxl-hmu --granual 12 "$T/raw.bin"
decode --json|"$HWTRACE" decode --type cxl-hmu --granual 12 --json "$T/raw.bin"
list|"$HWTRACE" list --sysfs "$T/sys"
top -b|"$HWTRACE" top --proc "$T/proc" -b -n 1
top --json|"$HWTRACE" top --proc "$T/proc" --json -n 1
synth -o -|"$HWTRACE" synth --type cxl-hmu --seed 1 --size 64K -o -
inject -o -|"$HWTRACE" inject -i "$T/hmu.data" -o -
EOF
}

raw_packet() {
	rm -f "$T/raw.bin"
	python3 "$BATS_TEST_DIRNAME/lib/perfdata.py" hmu-packet "$T/raw.bin" 2 16 0x50003 \
		0xfffffffffff00ff
}

# check_write_error REDIRECTION REASON: every verb exits 1 and names the reason
check_write_error() {
	local redir=$1 reason=$2 name cmd bad=0
	raw_packet
	while IFS='|' read -r name cmd; do
		run bash -c "$cmd $redir"
		if [ "$status" -ne 1 ] || [[ "$output" != *"write error: $reason"* ]]; then
			echo "$name $redir: status $status: $output" | head -3
			bad=1
		fi
	done < <(verbs)
	[ "$bad" -eq 0 ]
}

@test "a full disk on stdout: 'write error: No space left on device', exit 1, every verb" {
	check_write_error '>/dev/full' 'No space left on device'
}

@test "a closed stdout: 'write error: Bad file descriptor', exit 1, every verb" {
	check_write_error '>&-' 'Bad file descriptor'
}

@test "a closed stdout does not become the output file's descriptor" {
	run bash -c '"$HWTRACE" synth --type cxl-hmu --seed 3 --size 64K -o "$T/c.data" >&-'
	[ "$status" -eq 0 ]
	cmp <("$HWTRACE" script -i "$T/c.data" 2>/dev/null) \
	    <("$HWTRACE" script -i "$T/hmu.data" 2>/dev/null)
}

# pipe_status CMD...: "<status of CMD> <its stderr>" with CMD | head -1
pipe_status() {
	bash -c '"$@" 2>"$T/pipe.err" | head -1 >/dev/null; echo "${PIPESTATUS[0]}"' _ "$@"
}

@test "a reader that goes away: quiet exit 141, directly and under stock perf" {
	local bin
	bin=$(dirname "$HWTRACE")
	for v in "" --json --csv; do
		[ "$(pipe_status "$HWTRACE" script $v -i "$T/big.data")" -eq 141 ]
		[ ! -s "$T/pipe.err" ]
		[ "$(PATH="$bin:$PATH" pipe_status perf hwtrace script $v -i "$T/big.data")" -eq 141 ]
		[ ! -s "$T/pipe.err" ]
	done
	[ "$(PATH="$bin:$PATH" pipe_status perf hwtrace report -D -i "$T/big.data")" -eq 141 ]
	[ ! -s "$T/pipe.err" ]
}

@test "a hook printing to a closed pipe: exit 141, no BrokenPipeError traceback" {
	local bin
	bin=$(dirname "$HWTRACE")
	[ "$(pipe_status "$HWTRACE" script -i "$T/big.data" -s "$T/hook.py")" -eq 141 ]
	[ ! -s "$T/pipe.err" ]
	[ "$(PATH="$bin:$PATH" pipe_status perf hwtrace script -i "$T/big.data" -s "$T/hook.py")" \
	  -eq 141 ]
	[ ! -s "$T/pipe.err" ]
	# and the hook's prints arrive in order through the tool's stdout
	"$HWTRACE" script -i "$T/hmu.data" -s "$T/hook.py" 2>/dev/null >"$T/hook.out"
	"$HWTRACE" script --csv -F unit -i "$T/hmu.data" 2>/dev/null | tail -n +2 |
		sed 's/^cxl_hmu_unit,/hwtrace__cxl_hmu_unit /' >"$T/hook.want"
	[ -s "$T/hook.want" ]
	cmp "$T/hook.out" "$T/hook.want"
}

@test "top and list escape control characters from /proc, fdinfo and sysfs" {
	run "$HWTRACE" top --proc "$T/proc" -b -n 1
	[ "$status" -eq 0 ]
	[[ "$output" == *'evil\x1b[31mX\ny'* ]]
	[[ "$output" == *'i915\x1b]0;t'* ]]
	[[ "$output" == *'ren\x1bder:-'* ]]
	[[ "$output" != *$'\033'* ]]
	run "$HWTRACE" list --sysfs "$T/sys"
	[ "$status" -eq 0 ]
	[[ "$output" == *'ev=0x1\x1b[31m'* ]]
	[[ "$output" == *'two\nlines (type 43)'* ]]
	[[ "$output" != *$'\033'* ]]
	# JSON keeps the bytes, escaped as JSON does
	run "$HWTRACE" top --proc "$T/proc" --json -n 1
	[ "$(echo "$output" | jq -r '.clients[0].comm')" = $'evil\033[31mX\ny' ]
}

@test "JSON: masks and addresses are hex strings jq keeps exact; cpu -1; one base everywhere" {
	# panthor: enable_mask words from synth's manifest ("<sample> <type> <idx> st fl m0 m1 ...")
	"$HWTRACE" script --json -i "$T/pan.data" 2>/dev/null |
		jq -r 'select(.type=="panthor_block") | .enable_mask | join(" ")' >"$T/masks.got"
	grep -v '^#' "$T/pan.txt" | while read -r _ _ _ _ _ m0 m1 _; do
		printf '0x%x 0x%x\n' "$m0" "$m1"
	done >"$T/masks.want"
	[ -s "$T/masks.want" ]
	cmp "$T/masks.got" "$T/masks.want"
	grep -q '^0xffffffffffffffff ' "$T/masks.want"
	# a DPA above 2^53: the unit (entry >> 16, width 16) << granual 12
	raw_packet
	want=$(printf '0x%x' $(((0xfffffffffff00ff >> 16) << 12)))
	[ $(((0xfffffffffff00ff >> 16) << 12)) -gt $((1 << 53)) ]
	run bash -c '"$HWTRACE" decode --type cxl-hmu --granual 12 --json "$T/raw.bin" 2>/dev/null'
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -r '.dpa' | tail -1)" = "$want" ]
	[ "$(echo "$output" | python3 -c 'import json,sys; print([json.loads(l)["dpa"] for l in sys.stdin][-1])')" = "$want" ]
	# the same base in text and CSV; an unknown cpu (raw decode) is -1 in all three
	[ "$(echo "$output" | jq -r '.cpu' | sort -u)" = "-1" ]
	run bash -c '"$HWTRACE" decode --type cxl-hmu --granual 12 "$T/raw.bin" 2>/dev/null'
	[[ "${lines[1]}" == "cxl_hmu_unit: cpu=-1 "*" dpa=$want" ]]
	run bash -c '"$HWTRACE" decode --type cxl-hmu --granual 12 --csv -F cpu,dpa "$T/raw.bin" 2>/dev/null'
	[ "${lines[0]}" = "type,cpu,dpa" ]
	[ "${lines[2]}" = "cxl_hmu_unit,-1,$want" ]
}

@test "CSV: one header row, the union of the types' fields; rows per type as the manifest" {
	"$HWTRACE" script --csv -i "$T/oa.data" 2>/dev/null >"$T/oa.csv"
	python3 - "$T/oa.csv" "$T/oa.txt" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
head, body = rows[0], rows[1:]
assert head[0] == "type" and len(set(head)) == len(head), head
assert all(r[0] != "type" for r in body), "a second header row"
assert all(len(r) == len(head) for r in body), "ragged rows"
# the generator's account: "lost KIND" or "report N ..." per record
man = [l.split()[0] for l in open(sys.argv[2]) if l.strip() and not l.startswith("#")]
want = {"i915_oa_report": man.count("report"), "i915_oa_lost": man.count("lost")}
got = {t: sum(1 for r in body if r[0] == t) for t in want}
assert want["i915_oa_lost"] > 0 and got == want, (got, want)
kind = head.index("kind")
assert {r[kind] for r in body if r[0] == "i915_oa_lost"} == {"report_lost", "buffer_lost"}
print("ok")
EOF
	# -F: only the chosen fields, still one header
	run bash -c '"$HWTRACE" script --csv -F ts,kind -i "$T/oa.data" 2>/dev/null'
	[ "${lines[0]}" = "type,ts,kind" ]
	[ "$(printf '%s\n' "${lines[@]}" | grep -c '^type')" -eq 1 ]
}
