#!/usr/bin/env bats
# The container reader against stock perf: files recorded here and now by
# perf 6.1, counted by `perf report --stats` and by `perf hwtrace report --stats`.
#
# Counting rule (matched by the reader): every record perf processes counts
# once; for `perf record -z` both each COMPRESSED record and every record
# inflated from it count; in pipe mode HEADER_ATTR and HEADER_FEATURE records
# count as ATTR and FEATURE.

load lib/common

setup() {
	TMP=$(mktemp -d)
	if ! command -v perf >/dev/null; then
		[ "${CI:-}" = true ] && { echo "perf is missing in CI" >&2; return 1; }
		skip "LOUD: perf is not installed: stock perf comparison NOT run"
	fi
	if ! perf record -q -e cpu-clock -a -o "$TMP/probe.data" -- true >/dev/null 2>&1; then
		[ "${CI:-}" = true ] && { echo "perf record fails in CI" >&2; return 1; }
		skip "LOUD: perf record cannot run here (perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)): stock perf comparison NOT run"
	fi
}

teardown() {
	rm -rf "$TMP"
}

# The "Aggregated stats:" block: title and the "<NAME> events: <n>" lines.
aggregated() {
	awk '/^Aggregated stats/ { on = 1; print; next }
	     on && / events: / { print; next }
	     on { exit }'
}

compare_stats() {
	local f=$1

	perf report --stats -i "$f" 2>/dev/null | aggregated >"$TMP/stock"
	run "$HWTRACE" report --stats -i "$f"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | aggregated >"$TMP/ours"
	grep -q 'SAMPLE events:' "$TMP/stock"
	diff -u "$TMP/stock" "$TMP/ours"
	# a clean file: every byte decoded or skipped, none lost
	local size dec skip
	size=$(stat -c %s "$f")
	# the totals line: "bytes: D decoded, S skipped, L lost; ..."
	dec=$(printf '%s\n' "$output" | sed -n 's/^bytes: \([0-9]*\) decoded.*/\1/p')
	skip=$(printf '%s\n' "$output" | sed -n 's/^bytes: .* \([0-9]*\) skipped.*/\1/p')
	[ "$((dec + skip))" -eq "$size" ]
	printf '%s\n' "$output" | grep -q '^bytes: .* 0 lost;'
}

@test "report --stats counts like perf report --stats: file mode" {
	perf record -q -e cpu-clock -a -o "$TMP/f.data" -- sleep 0.2 >/dev/null 2>&1
	compare_stats "$TMP/f.data"
}

@test "report --stats counts like perf report --stats: zstd (-z) COMPRESSED records" {
	perf record -q -z -e cpu-clock -a -o "$TMP/z.data" -- sleep 0.2 >/dev/null 2>&1
	perf report --stats -i "$TMP/z.data" 2>/dev/null | grep -q 'COMPRESSED events:'
	compare_stats "$TMP/z.data"
}

# the bytes of the COMPRESSED (81) and COMPRESSED2 (83) records of perf.data $1,
# from a walk of its data section here: [type u32, misc u16, size u16] records
compressed_bytes() {
	python3 - "$1" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
off, size = struct.unpack_from('<QQ', b, 40)
pos, n = off, 0
while pos + 8 <= off + size:
    t, _, sz = struct.unpack_from('<IHH', b, pos)
    if sz < 8:
        break
    if t in (81, 83):
        n += sz
    pos += sz
print(n)
PY
}

@test "without libzstd: the compressed records are skipped with an error, the rest is read" {
	perf record -q -z -e cpu-clock -a -o "$TMP/z.data" -- sleep 0.2 >/dev/null 2>&1
	ncomp=$(perf report --stats -i "$TMP/z.data" 2>/dev/null | awk '/COMPRESSED events:/ { print $3; exit }')
	[ "${ncomp:-0}" -gt 0 ]
	zbytes=$(compressed_bytes "$TMP/z.data")
	[ "$zbytes" -gt 0 ]
	run "$HWTRACE" report --stats -i "$TMP/z.data"
	[ "$status" -eq 0 ]
	skipped=$(sed -n 's/^bytes: .* \([0-9]*\) skipped.*/\1/p' <<< "$output")
	without_lib libzstd.so.1 "$HWTRACE" report --stats -i "$TMP/z.data"
	[ "$status" -eq 1 ]
	# said once, with the library, its package and what it costs
	[ "$(grep -c 'cannot load libzstd.so.1 (Debian package libzstd1)' <<< "$output")" -eq 1 ]
	[[ "$output" == *"compressed records are skipped"* ]]
	# every COMPRESSED record still counted, and its bytes skipped, no more
	grep -Eq "COMPRESSED events: +$ncomp( |$)" <<< "$output"
	[ "$(sed -n 's/^bytes: .* \([0-9]*\) skipped.*/\1/p' <<< "$output")" -eq $((skipped + zbytes)) ]
}

@test "report --stats counts like perf report --stats: pipe mode (-o -)" {
	perf record -q -e cpu-clock -a -o - -- sleep 0.2 >"$TMP/p.data" 2>/dev/null
	perf report --stats -i "$TMP/p.data" 2>/dev/null | grep -q 'FEATURE events:'
	compare_stats "$TMP/p.data"
}

@test "report --stats reads pipe mode from standard input" {
	perf record -q -e cpu-clock -a -o - -- sleep 0.2 >"$TMP/p.data" 2>/dev/null
	perf report --stats -i "$TMP/p.data" 2>/dev/null | aggregated >"$TMP/stock"
	run bash -c "cat '$TMP/p.data' | '$HWTRACE' report --stats -i -"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | aggregated >"$TMP/ours"
	diff -u "$TMP/stock" "$TMP/ours"
}

@test "an ID_INDEX entry whose id no event has is an error, as perf fails on it" {
	# stock perf record -a writes an ID_INDEX (idx: the ring's index);
	# its first entry's id is made one no attr declares
	perf record -q -e cpu-clock -a -o "$TMP/i.data" -- sleep 0.1 >/dev/null 2>&1
	compare_stats "$TMP/i.data"
	off=$(python3 - "$TMP/i.data" "$BATS_TEST_DIRNAME/lib" <<-'PY'
	import struct, sys
	sys.path.insert(0, sys.argv[2])
	import perfdata
	for off, typ, size, extra, data in perfdata.walk(sys.argv[1]):
	    if typ == 69:
	        with open(sys.argv[1], "r+b") as f:
	            f.seek(off + 16)
	            f.write(struct.pack("<Q", 999999999))
	        print(hex(off))
	        break
	PY
	)
	[ -n "$off" ]
	perf report --stdio -i "$TMP/i.data" 2>&1 | grep -q "^$off \[0x[0-9a-f]*\]: failed to process type: 69"
	run "$HWTRACE" report -i "$TMP/i.data"
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: $TMP/i.data: offset $off: PERF_RECORD_ID_INDEX: entry 0: id 999999999 is no event's"* ]]
}
