#!/usr/bin/env bats
# report --header/--header-only/--stats and -D against stock perf 6.1 on the
# same file, recorded here by stock perf (plain, -z and pipe mode).

setup() {
	TMP=$(mktemp -d)
	if ! command -v perf >/dev/null; then
		[ "${CI:-}" = true ] && { echo "perf is missing in CI" >&2; return 1; }
		skip "LOUD: perf is not installed: stock perf comparison NOT run"
	fi
	if ! perf record -q -e cpu-clock -o "$TMP/probe.data" -- true >/dev/null 2>&1; then
		[ "${CI:-}" = true ] && { echo "perf record fails in CI" >&2; return 1; }
		skip "LOUD: perf record cannot run here (perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)): stock perf comparison NOT run"
	fi
}

teardown() {
	rm -rf "$TMP"
}

# The recorded commands run for about 2 ms of CPU: perf's default 4000 Hz
# gives them a handful of samples, which now and then all fall in user space,
# and the comparison needs a kernel sample too (compare_dump_body).  At
# 20000 Hz (perf lowers it to kernel.perf_event_max_sample_rate if need be)
# some always land in the kernel.
rec() {
	case $1 in
	plain) perf record -q -F 20000 -e cpu-clock -o "$TMP/plain.data" -- sleep 0.05 ;;
	z) perf record -q -F 20000 -z -e cpu-clock -o "$TMP/z.data" -- sleep 0.05 ;;
	pipe) perf record -q -F 20000 -e cpu-clock -o - -- sleep 0.05 >"$TMP/pipe.data" ;;
	cpus) perf record -q -F 20000 -e cpu-clock -C 0,1 -o "$TMP/cpus.data" -- sleep 0.1 ;;
	bid) perf record -q -F 20000 --buildid-mmap -e cpu-clock -o "$TMP/bid.data" -- sleep 0.05 ;;
	esac >/dev/null 2>&1
}

# the "# key : value" lines; "captured on" is the file's mtime, equal anyway
header_lines() {
	grep '^# [a-zA-Z].* : \|^# [A-Z_]* info available\|^# missing features\|^# contains '
}

compare_header() {
	local f=$TMP/$1.data

	perf report --header-only -i "$f" 2>/dev/null | header_lines >"$TMP/stock"
	run "$HWTRACE" report --header-only -i "$f"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | header_lines >"$TMP/ours"
	# the fields perf always prints for a recording are there
	for k in hostname 'os release' 'perf version' arch 'nrcpus online' cpudesc cmdline event; do
		grep -q "^# $k : " "$TMP/stock"
	done
	diff -u "$TMP/stock" "$TMP/ours"
	# and nothing but the header
	! printf '%s\n' "$output" | grep -q 'AUX streams\|^bytes:' || false
}

@test "report --header-only: perf's header lines, file mode" {
	rec plain
	compare_header plain
}

@test "report --header-only: perf's header lines, -z (compressed line)" {
	rec z
	compare_header z
	grep -q '^# compressed : Zstd, level = ' "$TMP/ours"
}

@test "report --header-only: perf's header lines, pipe mode" {
	rec pipe
	compare_header pipe
}

@test "report --header-only: the whole block equals perf's but for the capture time" {
	rec plain
	perf report --header-only -i "$TMP/plain.data" 2>/dev/null | grep -v '^# captured on' >"$TMP/stock"
	"$HWTRACE" report --header-only -i "$TMP/plain.data" | grep -v '^# captured on' >"$TMP/ours"
	diff -u "$TMP/stock" "$TMP/ours"
}

@test "report --header: the header, then the report; -q drops the header as perf does" {
	rec plain
	run "$HWTRACE" report --header -i "$TMP/plain.data"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "# ========" ]
	[[ "$output" == *"# hostname : "* ]]
	[[ "$output" == *"no AUX streams"* ]]
	run "$HWTRACE" report --header -q --stdio -v -i "$TMP/plain.data"
	[ "$status" -eq 0 ]
	[[ "$output" != *"# hostname"* ]]
	[[ "$output" != *"bytes:"* ]]
	# perf -q --header-only: no header, the report instead; ours too
	perf report --header-only -q -i "$TMP/plain.data" 2>/dev/null >"$TMP/stock"
	! grep -q '^# hostname' "$TMP/stock" || false
	grep -q '%' "$TMP/stock"
	run "$HWTRACE" report --header-only -q -i "$TMP/plain.data"
	[[ "$output" != *"# hostname"* ]]
	[[ "$output" == *"no AUX streams"* ]]
}

# perf's --stats output, whole: "Aggregated stats:" and "<event> stats:" blocks
compare_stats() {
	local f=$TMP/$1.data

	perf report --stats -i "$f" 2>/dev/null >"$TMP/stock"
	grep -q '^cpu-clock stats:$' "$TMP/stock"
	run "$HWTRACE" report --stats -i "$f"
	[ "$status" -eq 0 ]
	# ours: perf's lines, then our byte totals line
	printf '%s\n' "$output" | sed '$d' >"$TMP/ours"
	diff -u "$TMP/stock" "$TMP/ours"
	[[ "${lines[-1]}" == "bytes: "*" decoded, "* ]]
	# -q: perf's lines only
	"$HWTRACE" report --stats -q -i "$f" >"$TMP/quiet"
	diff -u "$TMP/stock" "$TMP/quiet"
}

@test "report --stats: only perf's stats, per event too: file mode" {
	rec plain
	compare_stats plain
}

@test "report --stats: only perf's stats, per event too: two CPUs" {
	rec cpus
	compare_stats cpus
}

@test "report --stats: only perf's stats, per event too: -z and pipe" {
	rec z
	compare_stats z
	rec pipe
	compare_stats pipe
}

# -D: the "<off>@<file> [<size>]: event: <type>" lines and the
# "<cpu> <time> <off> [<size>]: PERF_RECORD_<name>" lines (name only: the
# details of kernel records are not all printed as perf does)
dump_heads() {
	grep -E '^(0x[0-9a-f]+|0)@|^[-0-9 ]*(0x[0-9a-f]+|0) \[0x[0-9a-f]+\]: PERF_RECORD_' |
		sed -E 's/(PERF_RECORD_[A-Z0-9_]+).*/\1/'
}

compare_dump() {
	local f=$TMP/$1.data

	perf report -D -i "$f" 2>/dev/null | dump_heads >"$TMP/stock"
	[ -s "$TMP/stock" ]
	"$HWTRACE" report -D -i "$f" | dump_heads >"$TMP/ours"
	diff -u "$TMP/stock" "$TMP/ours"
}

# -D whole, every line from perf's heading to its per-event stats: no mask.
# Ours adds one line at the end, the byte totals, checked and cut here.
compare_dump_body() {
	local f=$TMP/$1.data

	perf report -D -i "$f" 2>/dev/null >"$TMP/stock"
	"$HWTRACE" report -D -i "$f" >"$TMP/ours.all"
	[[ "$(tail -n 1 "$TMP/ours.all")" == "bytes: "*" decoded, "* ]]
	sed '$d' "$TMP/ours.all" >"$TMP/ours"
	# the records perf details are there to compare
	# (--buildid-mmap writes the kernel's map as an MMAP2 too)
	for r in $([ "$1" = bid ] || echo MMAP) MMAP2 COMM EXIT SAMPLE ID_INDEX THREAD_MAP \
		 EVENT_UPDATE FINISHED_INIT; do
		grep -qE ": PERF_RECORD_$r([ :(]|$)" "$TMP/stock"
	done
	grep -q ': PERF_RECORD_SAMPLE(IP, 0x[0-9a-f]*): [0-9]*/[0-9]*: 0x[0-9a-f]* period: ' "$TMP/stock"
	# and what perf adds from its threads and maps, its cpu lists and stats
	grep -qE '^ \.\.\. thread: [^:]+:[0-9]+$' "$TMP/stock"
	grep -qE '^ \.\.\.\.\.\. dso: /' "$TMP/stock"
	grep -qx ' ...... dso: \[kernel.kallsyms\]' "$TMP/stock"
	grep -qE ': PERF_RECORD_CPU_MAP: [0-9]' "$TMP/stock"
	grep -qE '^cpu-clock stats:$' "$TMP/stock"
	[ "$(head -n 1 "$TMP/stock")" = "# To display the perf.data header info, please use --header/--header-only options." ]
	diff -u "$TMP/stock" "$TMP/ours"
}

@test "report -D: every line as perf prints it (record details, blank lines), file mode" {
	rec plain
	compare_dump_body plain
}

@test "report -D: every line as perf prints it, pipe mode (nothing after ATTR, FEATURE)" {
	rec pipe
	compare_dump_body pipe
	grep -q ': PERF_RECORD_FEATURE$' "$TMP/ours"
}

@test "report -D: every line as perf prints it, -z and two CPUs (time order)" {
	rec z
	compare_dump_body z
	rec cpus
	compare_dump_body cpus
	grep -q ': PERF_RECORD_FORK(' "$TMP/ours"
}

@test "report -D: every line as perf prints it, --buildid-mmap (MMAP2 with build ids)" {
	rec bid
	compare_dump_body bid
	grep -qE ': PERF_RECORD_MMAP2 [-0-9]+/[0-9]+: \[0x[0-9a-f]+\(0x[0-9a-f]+\) @ [0-9a-fx]+ <[0-9a-f]{40}>\]: ' "$TMP/ours"
}

@test "report -D: every line as perf prints it, -g (FP chains)" {
	perf record -q -F 20000 -g -e cpu-clock -o "$TMP/g.data" -- sleep 0.05 >/dev/null 2>&1
	compare_dump_body g
	grep -qE '^\.\.\. FP chain: nr:[0-9]+$' "$TMP/ours"
	grep -qE '^\.\.\.\.\. +[0-9]+: [0-9a-f]{16}$' "$TMP/ours"
}

@test "report -D: every line as perf prints it, a group read on samples ({a,b}:S)" {
	perf record -q -F 20000 -e '{cpu-clock,task-clock}:S' -o "$TMP/rd.data" -- sleep 0.05 \
		>/dev/null 2>&1
	compare_dump_body rd
	grep -qx '\.\.\.\. group nr 2' "$TMP/ours"
	grep -qx 'task-clock stats:' "$TMP/ours"
}

@test "report -D: every line as perf prints it, --call-graph dwarf (user regs, ustack)" {
	perf record -q -F 20000 --call-graph dwarf -e cpu-clock -o "$TMP/dw.data" -- sleep 0.05 \
		>/dev/null 2>&1
	compare_dump_body dw
	grep -qE '^\.\.\. user regs: mask 0x[0-9a-f]+ ABI 64-bit$' "$TMP/ours"
	grep -qE '^\.\.\.\. [A-Za-z0-9]+ +0x[0-9a-f]{16}$' "$TMP/ours"
	grep -qE '^\.\.\. ustack: size [1-9][0-9]*, offset 0x[0-9a-f]+$' "$TMP/ours"
}

@test "report -D: every line as perf prints it, -d -W --phys-data --transaction --intr-regs, page sizes" {
	perf record -q -F 20000 -d -W --phys-data --transaction --intr-regs --user-regs=AX,SP \
		--data-page-size --code-page-size \
		-e cpu-clock -o "$TMP/all.data" -- sleep 0.05 >/dev/null 2>&1
	compare_dump_body all
	for l in '... intr regs: mask ' '... user regs: mask 0x81 ' '... weight: ' \
		 ' . data_src: 0x' ' .. phys_addr: ' '... transaction: ' \
		 ' .. data page size: ' ' .. code page size: 4K'; do
		grep -qF -- "$l" "$TMP/ours"
	done
}

@test "report -D: every line as perf prints it, forks, execs and a thread (names and maps)" {
	perf record -q -e cpu-clock -o "$TMP/fk.data" -- sh -c 'ls /usr/bin >/dev/null
		(cat /proc/self/maps >/dev/null)
		python3 -c "import threading
t = threading.Thread(target=lambda: sum(range(300000))); t.start(); t.join()"' \
		>/dev/null 2>&1
	compare_dump_body fk
	grep -q ': PERF_RECORD_FORK(' "$TMP/ours"
	grep -q ': PERF_RECORD_COMM exec: ' "$TMP/ours"
	# several threads named (forked children take their parent's name until exec)
	[ "$(grep -E '^ \.\.\. thread: ' "$TMP/ours" | sort -u | wc -l)" -ge 3 ]
}

@test "report -D: every line as perf prints it, switch, namespaces and cgroup records" {
	perf record -q -F 20000 --switch-events --namespaces --all-cgroups -e cpu-clock \
		-o "$TMP/sw.data" -- sleep 0.05 >/dev/null 2>&1
	compare_dump_body sw
	grep -qE ': PERF_RECORD_SWITCH (IN|OUT)' "$TMP/ours"
	perf record -q -F 20000 -C 0,1 --switch-events --namespaces --all-cgroups -e cpu-clock \
		-o "$TMP/swc.data" -- sleep 0.05 >/dev/null 2>&1
	compare_dump_body swc
	grep -qE ': PERF_RECORD_SWITCH_CPU_WIDE (IN +prev|OUT.*next) pid/tid: ' "$TMP/ours"
	grep -qE ': PERF_RECORD_NAMESPACES [0-9]+/[0-9]+ - nr_namespaces: [0-9]+$' "$TMP/ours"
	grep -qE ': PERF_RECORD_CGROUP cgroup: [0-9]+ /' "$TMP/ours"
}

# a file of branch stack samples written by lib/perfdata.py (no LBR here):
# stock perf's -D and ours, every line, for branch_sample_type $*
compare_branch_dump() {
	python3 "$BATS_TEST_DIRNAME/lib/perfdata.py" branch-file "$TMP/br.data" "$@"
	perf report -D -i "$TMP/br.data" 2>/dev/null >"$TMP/stock"
	"$HWTRACE" report -D -i "$TMP/br.data" >"$TMP/ours.all"
	[[ "$(tail -n 1 "$TMP/ours.all")" == "bytes: "*" decoded, "* ]]
	sed '$d' "$TMP/ours.all" >"$TMP/ours"
	diff -u "$TMP/stock" "$TMP/ours"
}

@test "report -D: branch stacks as perf prints them, with and without HW_INDEX" {
	for idx in "" hw-idx; do
		compare_branch_dump $idx
		# what the generator wrote: 3 entries, the flags of each, an empty stack
		[ "$(grep -c '^\.\.\. branch stack: nr:' "$TMP/ours")" -eq 4 ]
		grep -qx '\.\.\. branch stack: nr:0' "$TMP/ours"
		grep -qxF '.....  0: 0000000000401000 -> 0000000000402000 7 cycles M    0 CALL' "$TMP/ours"
		grep -qxF '.....  1: 0000000000402010 -> 0000000000401004 65535 cycles  P   0 RET' "$TMP/ours"
		grep -qxF '.....  2: ffffffff81000000 -> 00007f0000001000 0 cycles   AT 5a COND' "$TMP/ours"
		grep -qxF '.....  0: 0000000000500000 -> 0000000000500100 0 cycles      0 FAULT_DATA' "$TMP/ours"
	done
}

@test "report -D: branch call stacks (CALL_STACK) as perf prints them, with and without HW_INDEX" {
	for idx in "" hw-idx; do
		compare_branch_dump callstack $idx
		# n branches unwind to n + 1 addresses: the first's target, then each source
		grep -qx '\.\.\. branch callstack: nr:4' "$TMP/ours"
		grep -qx '\.\.\. branch callstack: nr:1' "$TMP/ours"
		grep -A4 -x '\.\.\. branch callstack: nr:4' "$TMP/ours" | head -n 5 | tail -n 4 >"$TMP/cs"
		printf '%s\n' '.....  0: 0000000000402000' '.....  1: 0000000000401000' \
			'.....  2: 0000000000402010' '.....  3: ffffffff81000000' | diff -u - "$TMP/cs"
	done
}

@test "report -D: -q drops perf's heading, as perf -q does" {
	rec plain
	perf report -q -D -i "$TMP/plain.data" 2>/dev/null | head -n 3 >"$TMP/stock"
	"$HWTRACE" report -q -D -i "$TMP/plain.data" | head -n 3 >"$TMP/ours"
	! grep -q '^# To display' "$TMP/stock" || false
	diff -u "$TMP/stock" "$TMP/ours"
}

@test "report -D: record header lines as perf's, file mode" {
	rec plain
	compare_dump plain
}

@test "report -D: pipe mode: 0@pipe, PERF_RECORD_ATTR with -1 -1, FEATURE" {
	rec pipe
	compare_dump pipe
	grep -qx '0@pipe \[0x[0-9a-f]*\]: event: 64' "$TMP/ours"
	grep -qx -- '-1 -1 0 \[0x[0-9a-f]*\]: PERF_RECORD_ATTR' "$TMP/ours"
	grep -q ': PERF_RECORD_FEATURE$' "$TMP/ours"
}

@test "report -D: -z: the records inside COMPRESSED ones, as perf" {
	rec z
	compare_dump z
	! grep -q 'PERF_RECORD_COMPRESSED' "$TMP/ours" || false
}

@test "report -D: two CPUs: records ordered by time as perf orders them; --file-order as read" {
	rec cpus
	compare_dump cpus
	# perf's order is not the file's here, or the test proves nothing
	grep -E '@' "$TMP/stock" | sed 's/@.*//' >"$TMP/offs"
	! sort -n -c <(while read -r x; do printf '%d\n' "$x"; done <"$TMP/offs") 2>/dev/null || false
	# --file-order: offsets increase
	"$HWTRACE" report -D --file-order -i "$TMP/cpus.data" | grep -E '^(0x[0-9a-f]+|0)@' |
		sed 's/@.*//' | while read -r x; do printf '%d\n' "$x"; done >"$TMP/fo"
	sort -n -c "$TMP/fo"
	[ "$(wc -l <"$TMP/fo")" -eq "$(wc -l <"$TMP/offs")" ]
}
