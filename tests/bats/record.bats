#!/usr/bin/env bats
# perf hwtrace record on this host's software PMUs: the files it writes are
# read back by stock perf (report --stats, script, evlist, --header-only),
# whose counts are the reference.  The AUX path needs an AUX PMU and is
# exercised in the QEMU end-to-end test (tests/e2e, make e2e).

load lib/common

setup() {
	TMP=$(mktemp -d)
	if ! command -v perf >/dev/null; then
		[ "${CI:-}" = true ] && { echo "perf is missing in CI" >&2; return 1; }
		skip "LOUD: perf is not installed: recorder checks against stock perf NOT run"
	fi
	if ! "$HWTRACE" record -q -e cpu-clock -a -o "$TMP/probe.data" -- true >/dev/null 2>&1; then
		[ "${CI:-}" = true ] && { echo "cannot open cpu-clock -a in CI" >&2; return 1; }
		skip "LOUD: no system-wide perf events here (perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)): recorder NOT tested"
	fi
}

teardown() {
	rm -rf "$TMP"
}

# "<NAME> events: <n>" lines of the "Aggregated stats:" block
aggregated() {
	awk '/^Aggregated stats/ { on = 1; next }
	     on && / events: / { print; next }
	     on { exit }'
}

# SAMPLE count that stock perf report --stats prints for file $1
stock_samples() {
	perf report --stats -i "$1" 2>/dev/null | aggregated | awk '$1 == "SAMPLE" { print $3 }'
}

# stock and our report --stats agree on every record type of file $1
same_stats() {
	perf report --stats -i "$1" 2>/dev/null | aggregated >"$TMP/stock"
	"$HWTRACE" report --stats -i "$1" 2>/dev/null | aggregated >"$TMP/ours"
	grep -q 'SAMPLE events:' "$TMP/stock"
	diff -u "$TMP/stock" "$TMP/ours"
}

@test "record -e cpu-clock -a -- sleep 0.2: stock perf report and script read it" {
	run "$HWTRACE" record -e cpu-clock -a -o "$TMP/a.data" -- sleep 0.2
	[ "$status" -eq 0 ]
	[[ "$output" == *"0 AUX records truncated, 0 bytes lost"* ]]
	[[ "$output" == *"0 PERF_RECORD_LOST"* ]]
	run perf report --stats -i "$TMP/a.data"
	[ "$status" -eq 0 ]
	n=$(stock_samples "$TMP/a.data")
	[ "$n" -gt 0 ]
	same_stats "$TMP/a.data"
	# one perf script line per sample, on the CPUs that exist
	run perf script -F cpu,event -i "$TMP/a.data"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -c 'cpu-clock')" -eq "$n" ]
	ncpu=$(nproc)
	printf '%s\n' "$output" | awk -v max="$ncpu" '{ gsub(/[][]/, "", $1); if ($1 + 0 >= max) exit 1 }'
}

@test "record writes the header features and the event name" {
	"$HWTRACE" record -q -e cpu-clock -a -o "$TMP/h.data" -- true
	run perf report --header-only -i "$TMP/h.data"
	[ "$status" -eq 0 ]
	[[ "$output" == *"# hostname : $(uname -n)"* ]]
	[[ "$output" == *"# os release : $(uname -r)"* ]]
	[[ "$output" == *"# arch : $(uname -m)"* ]]
	[[ "$output" == *"# nrcpus online : $(nproc)"* ]]
	[[ "$output" == *"# cmdline : perf-hwtrace record -q -e cpu-clock -a -o $TMP/h.data -- true"* ]]
	[[ "$output" == *"# event : name = cpu-clock"* ]]
	[[ "$output" == *"software = 1"* ]]
}

@test "record -e software/cpu-clock/ (sysfs PMU syntax)" {
	"$HWTRACE" record -q -e software/cpu-clock/ -a -o "$TMP/s.data" -- sleep 0.2
	run perf evlist -i "$TMP/s.data"
	[ "$status" -eq 0 ]
	[ "$output" = "software/cpu-clock/" ]
	[ "$(stock_samples "$TMP/s.data")" -gt 0 ]
	same_stats "$TMP/s.data"
	run perf script -i "$TMP/s.data"
	[ "$status" -eq 0 ]
}

@test "record -o - (pipe mode) is read by perf report -i -" {
	"$HWTRACE" record -q -e cpu-clock -a -o - -- sleep 0.2 >"$TMP/p.data"
	run bash -c "cat '$TMP/p.data' | perf report --stats -i -"
	[ "$status" -eq 0 ]
	n=$(printf '%s\n' "$output" | aggregated | awk '$1 == "SAMPLE" { print $3 }')
	[ "$n" -gt 0 ]
	same_stats "$TMP/p.data"
	# the command's stdout must not land in the stream
	run bash -c "'$HWTRACE' record -q -e cpu-clock -a -o - -- echo hello 2>/dev/null | perf report --stats -i - >/dev/null"
	[ "$status" -eq 0 ]
}

@test "record without -a follows the command (per task, inherited)" {
	"$HWTRACE" record -q -e task-clock -o "$TMP/t.data" -- \
		sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'
	run perf script -F comm,pid -i "$TMP/t.data"
	[ "$status" -eq 0 ]
	[ -n "$output" ]
	# every sample belongs to the one shell the recorder started
	[ "$(printf '%s\n' "$output" | awk '{ print $1, $2 }' | sort -u | wc -l)" -eq 1 ]
	[[ "$output" == *"sh "* ]]
}

@test "record -C 0 samples only CPU 0" {
	"$HWTRACE" record -q -e cpu-clock -C 0 -o "$TMP/c.data" -- sleep 0.2
	run perf script -F cpu -i "$TMP/c.data"
	[ "$status" -eq 0 ]
	[ -n "$output" ]
	[ "$(printf '%s\n' "$output" | tr -d ' ' | sort -u)" = "[000]" ]
}

@test "record stops cleanly on SIGINT without a command" {
	"$HWTRACE" record -q -e cpu-clock -a -o "$TMP/i.data" &
	pid=$!
	# past the start (kallsyms and /proc are read first: ~0.5 s on a busy host)
	sleep 1.5
	kill -INT "$pid"
	wait "$pid"
	[ "$(stock_samples "$TMP/i.data")" -gt 0 ]
	same_stats "$TMP/i.data"
}

@test "record usage errors exit 2" {
	run "$HWTRACE" record
	[ "$status" -eq 2 ]
	[[ "$output" == *"no event"* ]]
	run "$HWTRACE" record -e cpu-clock -m 3 -- true
	[ "$status" -eq 2 ]
	[[ "$output" == *"bad -m '3'"* ]]
	# 2^34 GiB wraps to 0 bytes when shifted unchecked: too large, not one page
	run "$HWTRACE" record -e cpu-clock -m 1,17179869184G -- true
	[ "$status" -eq 2 ]
	[[ "$output" == *"bad -m '1,17179869184G'"* ]]
	run "$HWTRACE" record -e cpu-clock -a -C 0 -- true
	[ "$status" -eq 2 ]
	run "$HWTRACE" record -e cpu-clock -C x -- true
	[ "$status" -eq 2 ]
	[[ "$output" == *"bad CPU list"* ]]
	run "$HWTRACE" record -e cpu-clock --bogus
	[ "$status" -eq 2 ]
	run "$HWTRACE" record -e no-such-event -a -- true
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown event 'no-such-event'"* ]]
	run "$HWTRACE" record --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"--mmap-pages"* ]]
}

@test "record names an unknown PMU" {
	run "$HWTRACE" record -e nosuch_pmu0/foo=1/ -a -o "$TMP/u.data" -- true
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown PMU 'nosuch_pmu0'"* ]]
	[ ! -s "$TMP/u.data" ]
}

@test "record: a command that cannot run is an error" {
	run "$HWTRACE" record -q -e cpu-clock -a -o "$TMP/x.data" -- /nonexistent/cmd
	[ "$status" -eq 1 ]
	[[ "$output" == *"cannot run '/nonexistent/cmd'"* ]]
}

@test "record: an AUX PMU whose AUX area cannot be mapped is refused clearly" {
	# a fake cxl_hmu PMU that is really the software PMU: no AUX support
	d=$TMP/sys/bus/event_source/devices/cxl_hmu_mem0.0.0
	mkdir -p "$d/format"
	echo 1 >"$d/type"
	echo 0 >"$d/cpumask"
	echo 'config:0-1' >"$d/format/epoch_type"
	run "$HWTRACE" record --sysfs "$TMP/sys" -e cxl_hmu_mem0.0.0/epoch_type=0/ -a \
		-o "$TMP/m.data" -- true
	[ "$status" -eq 1 ]
	[[ "$output" == *"cannot mmap the AUX area"* ]]
}

# build id that readelf -n prints for ELF file $1
readelf_id() {
	readelf -n "$1" 2>/dev/null | awk '/Build ID:/ { print $3; exit }'
}

# kill the background processes named by $BG (started by a test)
stop_bg() {
	for p in $BG; do kill "$p" 2>/dev/null || true; done
}

@test "record -a names the processes running before it (COMM/MMAP2 as perf synthesizes)" {
	# comm is the executable's name (/proc/PID/comm), so run a copy of yes
	cp "$(command -v yes)" "$TMP/hwtbusy"
	"$TMP/hwtbusy" >/dev/null &
	BG=$!
	python3 -c 'import threading, time
[threading.Thread(target=time.sleep, args=(30,), daemon=True).start() for _ in range(2)]
time.sleep(30)' &
	BG="$BG $!"
	py=$!
	# python starts slowly on a loaded machine: wait for its 3 threads
	for _ in $(seq 100); do
		[ "$(ls "/proc/$py/task" 2>/dev/null | wc -l)" -ge 3 ] && break
		sleep 0.1
	done
	busy=${BG%% *}
	run "$HWTRACE" record -q -e cpu-clock -a -o "$TMP/n.data" -- sleep 0.3
	tids=$(ls "/proc/$py/task" | sort -n)
	pycomm=$(cat "/proc/$py/comm")
	stop_bg
	[ "$status" -eq 0 ]
	# stock perf names the busy process's samples by its comm, not ":PID"
	run perf script -F comm,pid -i "$TMP/n.data"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | awk -v p="$busy" '$2 == p' >"$TMP/busy"
	[ -s "$TMP/busy" ]
	[ "$(awk '{ print $1 }' "$TMP/busy" | sort -u)" = hwtbusy ]
	run perf script --show-task-events --show-mmap-events -i "$TMP/n.data"
	[ "$status" -eq 0 ]
	[[ "$output" == *"PERF_RECORD_COMM: hwtbusy:$busy/$busy"* ]]
	[[ "$output" == *"PERF_RECORD_MMAP2 $busy/$busy: "*" r-xp $TMP/hwtbusy"* ]]
	# one COMM per thread of /proc/PID/task
	for t in $tids; do
		[[ "$output" == *"PERF_RECORD_COMM: $pycomm:$py/$t"* ]]
	done
	same_stats "$TMP/n.data"
}

@test "record -a: stock perf buildid-list lists the kernel's and the mapped files' build ids" {
	cp "$(command -v yes)" "$TMP/hwtbusy"
	"$TMP/hwtbusy" >/dev/null &
	BG=$!
	sleep 0.2
	"$HWTRACE" record -q -e cpu-clock -a -o "$TMP/b.data" -- true
	stop_bg
	run perf buildid-list -i "$TMP/b.data"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$TMP/ids"
	want=$(readelf_id "$TMP/hwtbusy")
	[ -n "$want" ]
	grep -qx "$want $TMP/hwtbusy" "$TMP/ids"
	# every file listed has the id readelf reads from it
	n=0
	while read -r id path; do
		[[ "$path" == /* ]] || continue
		[ "$(readelf_id "$path")" = "$id" ] || { echo "$path: $id" >&2; return 1; }
		n=$((n + 1))
	done <"$TMP/ids"
	[ "$n" -ge 2 ]
	# the kernel's, as perf itself reads it from /sys/kernel/notes
	if k=$(perf buildid-list -k 2>/dev/null) && [ -n "$k" ]; then
		grep -qx "$k \[kernel.kallsyms\]" "$TMP/ids"
	fi
}

@test "record -a without libelf: the files' build ids are left out with a warning, the kernel's kept" {
	without_lib libelf.so.1 "$HWTRACE" record -q -e cpu-clock -a -o "$TMP/b.data" -- true
	[ "$status" -eq 0 ]
	[ "$(grep -c "warning: cannot load libelf.so.1 (Debian package libelf1): .*: the build ids of [0-9]* mapped files are left out" <<< "$output")" -eq 1 ]
	run perf buildid-list -i "$TMP/b.data"
	[ "$status" -eq 0 ]
	# no file of a process, but the kernel's id, read from sysfs notes
	[ "$(grep -c ' /' <<< "$output")" -eq 0 ]
	if k=$(perf buildid-list -k 2>/dev/null) && [ -n "$k" ]; then
		grep -qx "$k \[kernel.kallsyms\]" <<< "$output"
	fi
}

@test "record -a --proc/--sysfs: a process and a module of given trees" {
	cp "$(command -v yes)" "$TMP/hwtbusy"
	want=$(readelf_id "$TMP/hwtbusy")
	# a process tree with one task mapping hwtbusy, and a kernel thread
	mkdir -p "$TMP/proc/4242/task/4242" "$TMP/proc/4242/task/4243" "$TMP/proc/7/task/7"
	echo fakeproc >"$TMP/proc/4242/task/4242/comm"
	echo fakethread >"$TMP/proc/4242/task/4243/comm"
	echo kthreadx >"$TMP/proc/7/task/7/comm"
	printf 'Name:\tfakeproc\nTgid:\t4242\nPPid:\t4100\n' >"$TMP/proc/4242/status"
	printf 'Name:\tkthreadx\nTgid:\t7\nPPid:\t2\n' >"$TMP/proc/7/status"
	cat >"$TMP/proc/4242/maps" <<-MAPS
	555500000000-555500002000 r--p 00000000 fe:01 1234 $TMP/hwtbusy
	555500002000-555500006000 r-xp 00002000 fe:01 1234 $TMP/hwtbusy
	7fff00000000-7fff00001000 rw-p 00000000 00:00 0 [stack]
	MAPS
	: >"$TMP/proc/7/maps"
	# kernel text from _text to _etext, as perf reads them
	printf '%s\n' 'ffffffffa0000000 T _stext' 'ffffffffa0000000 T _text' \
		'ffffffffa0001000 t some_function' 'ffffffffa0123450 T _etext' >"$TMP/proc/kallsyms"
	# modules, the newest first as the kernel lists them; one mid-load
	# with no address shown yet
	cat >"$TMP/proc/modules" <<-MODS
	fakemod 20480 1 - Live 0xffffffffc0300000 (OE)
	i915_oa_sim 16384 0 - Live 0xffffffffc0200000
	cxl_hmu_sim 40960 2 fakemod,i915_oa_sim, Live 0xffffffffc0100000 (O)
	halfway 8192 0 - Loading 0x0000000000000000
	MODS
	# a sysfs with the CPU list, a module whose note is hwtbusy's, no kernel notes
	mkdir -p "$TMP/sys/devices/system/cpu" "$TMP/sys/module/fakemod/notes"
	cp /sys/devices/system/cpu/online "$TMP/sys/devices/system/cpu/online"
	objcopy -O binary --only-section=.note.gnu.build-id "$TMP/hwtbusy" \
		"$TMP/sys/module/fakemod/notes/.note.gnu.build-id"
	"$HWTRACE" record -q -e cpu-clock -a --proc "$TMP/proc" --sysfs "$TMP/sys" \
		-o "$TMP/f.data" -- true
	run perf script --show-task-events --show-mmap-events -i "$TMP/f.data"
	[ "$status" -eq 0 ]
	[[ "$output" == *"PERF_RECORD_COMM: fakeproc:4242/4242"* ]]
	[[ "$output" == *"PERF_RECORD_COMM: fakethread:4242/4243"* ]]
	[[ "$output" == *"PERF_RECORD_COMM: kthreadx:7/7"* ]]
	# perf's order: each thread's FORK then COMM, the leader's maps after
	# its COMM; the leader's parent from status, a thread's the leader
	[ "$(printf '%s\n' "$output" | grep -o 'PERF_RECORD_.*' | grep -E '\(4242:|[ :]4242/')" = "$(printf '%s\n' \
	  'PERF_RECORD_FORK(4242:4242):(4100:4100)' 'PERF_RECORD_COMM: fakeproc:4242/4242' \
	  "PERF_RECORD_MMAP2 4242/4242: [0x555500002000(0x4000) @ 0x2000 fe:01 1234 0]: r-xp $TMP/hwtbusy" \
	  'PERF_RECORD_FORK(4242:4243):(4242:4242)' 'PERF_RECORD_COMM: fakethread:4242/4243')" ]
	[[ "$output" == *"PERF_RECORD_FORK(7:7):(2:2)"* ]]
	[[ "$output" == *"PERF_RECORD_MMAP2 4242/4242: [0x555500002000(0x4000) @ 0x2000 fe:01 1234 0]: r-xp $TMP/hwtbusy"* ]]
	# one synthesized MMAP2 (the kernel's for `true` come from the live system)
	[ "$(printf '%s\n' "$output" | grep -c 'PERF_RECORD_MMAP2 4242/')" -eq 1 ]
	[[ "$output" == *"PERF_RECORD_MMAP -1/0: [0xffffffffa0000000(0x123450) @ 0xffffffffa0000000]: x [kernel.kallsyms]_text"* ]]
	# then the modules', by address as perf writes them, none at address 0
	[ "$(printf '%s\n' "$output" | grep -o 'PERF_RECORD_MMAP -1/0: .*' | sed 1d)" = "$(printf '%s\n' \
		'PERF_RECORD_MMAP -1/0: [0xffffffffc0100000(0xa000) @ 0]: x [cxl_hmu_sim]' \
		'PERF_RECORD_MMAP -1/0: [0xffffffffc0200000(0x4000) @ 0]: x [i915_oa_sim]' \
		'PERF_RECORD_MMAP -1/0: [0xffffffffc0300000(0x5000) @ 0]: x [fakemod]')" ]
	run perf buildid-list -i "$TMP/f.data"
	[ "$status" -eq 0 ]
	# no kernel notes in this sysfs: the module first, then the files by name
	[ "$(printf '%s\n' "$output" | sed -n 1p)" = "$want [fakemod]" ]
	printf '%s\n' "$output" | grep -qx "$want $TMP/hwtbusy"
	! printf '%s\n' "$output" | grep -q 'kernel.kallsyms' || false
}

@test "record -a -o - (pipe mode) names the running processes too" {
	cp "$(command -v yes)" "$TMP/hwtbusy"
	"$TMP/hwtbusy" >/dev/null &
	BG=$!
	sleep 0.2
	"$HWTRACE" record -q -e cpu-clock -a -o - -- true >"$TMP/p.data"
	stop_bg
	run perf script --show-task-events -i - <"$TMP/p.data"
	[ "$status" -eq 0 ]
	[[ "$output" == *"PERF_RECORD_COMM: hwtbusy:$BG/$BG"* ]]
}

@test "record -a: the kernel text's MMAP as perf writes it; kernel samples are [kernel.kallsyms]" {
	text=$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms)
	etext=$(awk '$3 == "_etext" { print $1; exit }' /proc/kallsyms)
	if [ -z "$text" ] || [ "$((16#$text))" -eq 0 ]; then
		skip "LOUD: /proc/kallsyms hides addresses (kptr_restrict): kernel MMAP NOT tested"
	fi
	run "$HWTRACE" record -q -e cpu-clock -a -o "$TMP/k.data" -- sleep 0.2
	[ "$status" -eq 0 ]
	run perf script --show-mmap-events -i "$TMP/k.data"
	[ "$status" -eq 0 ]
	len=$(printf '0x%x' $((16#$etext - 16#$text)))
	[[ "$output" == *"PERF_RECORD_MMAP -1/0: [0x$text($len) @ 0x$text]: x [kernel.kallsyms]_text"* ]]
	# samples at kernel addresses (misc KERNEL) resolve to the kernel's map
	run perf script -F ip,dso -i "$TMP/k.data"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -q '^ *ffffffff[0-9a-f]* (\[kernel.kallsyms\])$'
	! printf '%s\n' "$output" | grep -q '^ *ffffffff[0-9a-f]* (\[unknown\])$' || false
}

@test "record -a: a running process's FORK, COMM and MMAP2 records are stock perf record's" {
	# a process with two more threads, started before both recordings
	python3 -c 'import threading, time
for _ in range(2):
    threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
time.sleep(30)' &
	BG=$!
	for _ in $(seq 100); do
		[ "$(ls "/proc/$BG/task" | wc -l)" -eq 3 ] && break
		sleep 0.05
	done
	[ "$(ls "/proc/$BG/task" | wc -l)" -eq 3 ]
	perf record -q -a -o "$TMP/stock.data" -- sleep 0.1 2>/dev/null
	"$HWTRACE" record -q -e cpu-clock -a -o "$TMP/ours.data" -- sleep 0.1
	for f in stock ours; do
		perf script --show-task-events --show-mmap-events -i "$TMP/$f.data" 2>/dev/null |
			grep -o 'PERF_RECORD_.*' | grep -E "\\($BG:|[ :]$BG/" >"$TMP/$f.txt"
	done
	stop_bg
	# FORK, COMM, the maps, then each thread's FORK and COMM
	[ "$(grep -c 'PERF_RECORD_FORK' "$TMP/stock.txt")" -eq 3 ]
	[ "$(grep -c 'PERF_RECORD_MMAP2' "$TMP/stock.txt")" -ge 1 ]
	diff "$TMP/stock.txt" "$TMP/ours.txt"
}

# ID_INDEX entries ("idx: N  cpu: N  tid: N", the ids left out), THREAD_MAP
# and CPU_MAP lines (the task's pid as TASK), as stock perf
# report -D prints them for file $1; the first $2 entries only (stock perf
# adds a tracking dummy event after the ones asked for)
maps_lines() {
	perf report -D -i "$1" 2>/dev/null | awk -v n="$2" '
		/PERF_RECORD_THREAD_MAP/ { sub(/.*PERF_RECORD_/, ""); pid = $NF; sub(/ -?[0-9]+$/, " TASK"); print; next }
		/PERF_RECORD_CPU_MAP/ { sub(/.*PERF_RECORD_/, ""); print; next }
		/PERF_RECORD_ID_INDEX/ { sub(/.*PERF_RECORD_/, ""); on = 1; next }
		on && $1 == "..." && $2 == "id:" { if (k++ < n) e[k] = $4 " " $5 " " $6 " " $7 " " $8 " " $9; next }
		on { on = 0 }
		END { for (i = 1; i <= k && i <= n; i++) { sub(" " pid "$", " TASK", e[i]); print "entry " e[i] } }'
}

# the record types of file $1 in file order, one a line (perfdata.walk)
types_in_order() {
	python3 - "$1" "$BATS_TEST_DIRNAME/lib" <<-'PY'
	import sys
	sys.path.insert(0, sys.argv[2])
	import perfdata
	for off, typ, size, extra, data in perfdata.walk(sys.argv[1]):
	    print(typ)
	PY
}

@test "record: ID_INDEX, THREAD_MAP, CPU_MAP and FINISHED_INIT as stock perf record writes them" {
	local online last modes=(-a per-task)
	online=$(getconf _NPROCESSORS_ONLN)
	# the last online CPU alone: a range that starts past 0
	last=$(tr ',' '\n' </sys/devices/system/cpu/online | tail -n 1 | sed 's/.*-//')
	[ "$last" -gt 0 ] && modes+=("-C $last")
	for mode in "${modes[@]}"; do
		a=() && [ "$mode" != per-task ] && read -ra a <<<"$mode"
		perf record -q -e cpu-clock "${a[@]}" -o "$TMP/stock.data" -- sleep 0.1 2>/dev/null
		"$HWTRACE" record -q -e cpu-clock "${a[@]}" -o "$TMP/ours.data" -- sleep 0.1
		n=$(perf report -D -i "$TMP/ours.data" 2>/dev/null | sed -n 's/.*PERF_RECORD_ID_INDEX nr: //p')
		# an id per CPU, each read from its own ring
		[ "$n" -eq "$([ "$mode" = "-C $last" ] && echo 1 || echo "$online")" ]
		maps_lines "$TMP/stock.data" "$n" >"$TMP/stock.txt"
		maps_lines "$TMP/ours.data" "$n" >"$TMP/ours.txt"
		echo "$mode:" && cat "$TMP/stock.txt"
		[ "$(grep -c '^entry ' "$TMP/ours.txt")" -eq "$n" ]
		diff "$TMP/stock.txt" "$TMP/ours.txt"
		# ID_INDEX first; THREAD_MAP, CPU_MAP after the kernel's and the
		# modules' MMAPs; FINISHED_INIT once, after every synthesized
		# record and before the first sample (a CPU's idle time is
		# sampled too: system-wide there is one; the quick command
		# followed per task may have none)
		types_in_order "$TMP/ours.data" | tr '\n' ' ' >"$TMP/order"
		cat "$TMP/order"
		[[ "$(cat "$TMP/order")" =~ ^69\ (1\ )*73\ 74\ ([0-9]+\ )*82\  ]]
		[ "$mode" = per-task ] || [[ "$(cat "$TMP/order")" =~ \ 82\ ([0-9]+\ )*9\  ]]
		[ "$(grep -o '\b82\b' "$TMP/order" | wc -l)" -eq 1 ]
		# no sample nor FINISHED_ROUND before it: only what was synthesized
		! sed 's/ 82 .*//' "$TMP/order" | grep -qwE '9|68' || false
		same_stats "$TMP/ours.data"
	done
}

@test "record -a: a kernel sample in a loaded module is that module's in stock perf" {
	# this kernel's samples, a module list of our own (no module here is
	# loaded anywhere else, so only the file can tell stock perf of it)
	mkdir -p "$TMP/proc"
	printf '%s\n' 'ffffffffa0000000 T _text' 'ffffffffa0123450 T _etext' >"$TMP/proc/kallsyms"
	echo 'i915_oa_sim 16384 0 - Live 0xffffffffc0200000' >"$TMP/proc/modules"
	run "$HWTRACE" record -q -e cpu-clock -a --proc "$TMP/proc" -o "$TMP/m.data" -- sleep 0.3
	[ "$status" -eq 0 ]
	# one kernel sample (misc KERNEL) moved into the module, 0x10 in
	python3 - "$TMP/m.data" <<-'PY'
	import struct, sys
	path = sys.argv[1]
	d = bytearray(open(path, 'rb').read())
	attrs, = struct.unpack_from('<Q', d, 24)
	stype, = struct.unpack_from('<Q', d, attrs + 24)
	assert stype & 1, 'no PERF_SAMPLE_IP'
	ip_at = 16 if stype & (1 << 16) else 8	# after PERF_SAMPLE_IDENTIFIER
	off, size = struct.unpack_from('<QQ', d, 40)
	end = off + size
	while off < end:
	    typ, misc, rsize = struct.unpack_from('<IHH', d, off)
	    if typ == 9 and misc & 7 == 1:
	        struct.pack_into('<Q', d, off + ip_at, 0xffffffffc0200010)
	        open(path, 'wb').write(d)
	        sys.exit(0)
	    off += rsize
	sys.exit('no kernel sample recorded')
	PY
	run perf script -F ip,dso -i "$TMP/m.data"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -q '^ *ffffffffc0200010 (\[i915_oa_sim\])$'
}

# a copy of yes started by the recorded command, after the recording began:
# the kernel's COMM/MMAP2 name it, and its build id is in the file
late_cmd() {
	cp "$(command -v yes)" "$TMP/hwtlate"
	echo "sleep 0.1; timeout 0.3 $TMP/hwtlate >/dev/null; true"
}

@test "record -a: a process started during the recording has its COMM, MMAP2 and build id" {
	cmd=$(late_cmd)
	want=$(readelf_id "$TMP/hwtlate")
	[ -n "$want" ]
	run "$HWTRACE" record -q -e cpu-clock -a -o "$TMP/l.data" -- sh -c "$cmd"
	[ "$status" -eq 0 ]
	run perf script --show-task-events --show-mmap-events -i "$TMP/l.data"
	[ "$status" -eq 0 ]
	pid=$(printf '%s\n' "$output" | awk '/PERF_RECORD_COMM exec: hwtlate:/ { sub(/.*hwtlate:/, ""); sub(/\/.*/, ""); print; exit }')
	[ -n "$pid" ]
	[[ "$output" == *"PERF_RECORD_MMAP2 $pid/$pid: "*" r-xp $TMP/hwtlate"* ]]
	# its samples carry its name and, in its code, its file as the dso
	run perf script -F comm,pid,ip,dso -i "$TMP/l.data"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | awk -v p="$pid" -v d="($TMP/hwtlate)" \
		'$1 == "hwtlate" && $2 == p && $4 == d { n++ } END { exit !n }'
	# perf buildid-list: the id readelf reads from the binary, and every
	# file listed has the id readelf reads from it
	run perf buildid-list -i "$TMP/l.data"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$TMP/ids"
	grep -qx "$want $TMP/hwtlate" "$TMP/ids"
	while read -r id path; do
		[[ "$path" == /* ]] || continue
		[ -e "$path" ] || continue
		[ "$(readelf_id "$path")" = "$id" ] || { echo "$path: $id" >&2; return 1; }
	done <"$TMP/ids"
	same_stats "$TMP/l.data"
}

@test "record -- CMD (per task): the command's MMAP2 and its build id, as perf record" {
	cp "$(command -v yes)" "$TMP/hwtlate"
	want=$(readelf_id "$TMP/hwtlate")
	run "$HWTRACE" record -q -e cpu-clock -o "$TMP/t.data" -- "$TMP/hwtlate" --version
	[ "$status" -eq 0 ]
	run perf script --show-mmap-events -i "$TMP/t.data"
	[ "$status" -eq 0 ]
	[[ "$output" == *"PERF_RECORD_MMAP2 "*" r-xp $TMP/hwtlate"* ]]
	run perf buildid-list -i "$TMP/t.data"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -qx "$want $TMP/hwtlate"
}

@test "record -a -o -: build ids follow as HEADER_BUILD_ID records that stock perf reads" {
	cmd=$(late_cmd)
	want=$(readelf_id "$TMP/hwtlate")
	"$HWTRACE" record -q -e cpu-clock -a -o - -- sh -c "$cmd" >"$TMP/lp.data"
	run perf report --stats -i - <"$TMP/lp.data"
	[ "$status" -eq 0 ]
	n=$(printf '%s\n' "$output" | awk '$1 == "BUILD_ID" && $2 == "events:" { print $3 }')
	[ "${n:-0}" -gt 0 ]
	# after the last sample in the stream, as perf inject -b writes them
	perf report -D -i - <"$TMP/lp.data" 2>/dev/null >"$TMP/stock.D"
	offsets() {
		awk -v t="$1" 'index($5, t) == 1 { print $3 }' "$TMP/stock.D" |
			while read -r h; do echo $((h)); done | sort -n
	}
	last=$(offsets PERF_RECORD_SAMPLE | tail -1)
	first=$(offsets PERF_RECORD_BUILD_ID | head -1)
	[ -n "$last" ]
	[ -n "$first" ]
	[ "$first" -gt "$last" ]
	run perf buildid-list -i - <"$TMP/lp.data"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -qx "$want $TMP/hwtlate"
	# our -D prints them as perf does (the vdso's temporary name aside)
	perf report -D -i - <"$TMP/lp.data" 2>/dev/null | grep -v 'dso: ' >"$TMP/stock.D"
	# (ours ends with one more line, the byte totals)
	"$HWTRACE" report -D -i - <"$TMP/lp.data" 2>/dev/null | sed '$d' | grep -v 'dso: ' \
		>"$TMP/ours.D"
	diff -u "$TMP/stock.D" "$TMP/ours.D"
}

@test "record -a --proc: a root that cannot be listed is an error, no file is left" {
	run "$HWTRACE" record -q -e cpu-clock -a --proc "$TMP/noproc" -o "$TMP/x.data" -- true
	[ "$status" -eq 1 ]
	[[ "$output" == *"$TMP/noproc: cannot list the running processes: No such file or directory"* ]]
	[ ! -e "$TMP/x.data" ]
}
