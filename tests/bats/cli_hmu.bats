#!/usr/bin/env bats
# The spine's verbs on CXL HMU data: report, report -D, script (text, JSON,
# CSV, -F), decode, pipe mode, and bad input.  Expected values come from
# synth's manifest (the generator's own account of what it wrote), from a
# test-only Python walker (lib/perfdata.py) and from arithmetic done here.

load lib/common

setup_file() {
	export T="$BATS_FILE_TMPDIR"
	"$HWTRACE" synth --type cxl-hmu --seed 7 --size 64K --manifest "$T/m.txt" -o "$T/hmu.data"
}

@test "script --json gives every hotlist entry the generator wrote, in order" {
	run "$HWTRACE" script --json -i "$T/hmu.data"
	[ "$status" -eq 0 ]
	echo "$output" | grep '^{' >"$T/out.json"
	python3 - "$T/out.json" "$T/m.txt" <<'EOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
want = [l.split() for l in open(sys.argv[2]) if not l.startswith("#")]
assert len(recs) == len(want) > 0, (len(recs), len(want))
for r, w in zip(recs, want):
    assert r["type"] == "cxl_hmu_unit", r
    # addresses are hex strings in JSON, as in the manifest and the text line
    got = (r["cpu"], r["time"], r["unit"], r["count"], r["dpa"])
    exp = (int(w[0]), int(w[1]), int(w[2]), int(w[3]), w[4])
    assert got == exp, (got, exp)
    assert r["counter_width"] == 16 and r["pmu"].startswith("cxl_hmu_mem"), r
    assert r["dpa"] == hex(r["unit"] << 12), r  # hotness_granual=12 in synth's config1
    assert "hpa" not in r                      # no HDM decoder given
EOF
}

@test "script --null counts every entry the generator wrote, and with --time those in range" {
	want=$(grep -vc '^#' "$T/m.txt")
	in_range=$(awk '!/^#/ && $2 >= 1020000000 && $2 <= 1040000000' "$T/m.txt" | wc -l)
	# a range that leaves some out (a '[ ] && [ ]' line: set -e checks only its last test)
	[ "$in_range" -gt 0 ]
	[ "$in_range" -lt "$want" ]
	run "$HWTRACE" script --null -i "$T/hmu.data"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "records: $want" ]
	run "$HWTRACE" script --null --time 1.02,1.04 -i "$T/hmu.data"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "records: $in_range" ]
}

@test "report counts the packets and units the generator wrote" {
	read -r _ _ packets _ units _ < <(head -n1 "$T/m.txt")
	run "$HWTRACE" report -i "$T/hmu.data"
	[ "$status" -eq 0 ]
	[[ "$output" == *"AUX stream 0: cxl-hmu (auxtrace type 0x7"* ]]
	[[ "$output" == *"cxl_hmu_mem0.0.0"* ]]
	echo "$output" | grep -E "^  records decoded: +$units$"
	echo "$output" | grep -E "^ +\S+ +$packets +$units " # cxl_hmu_summary row: pmu packets units
	echo "$output" | grep -E "^bytes: [0-9]+ decoded, 0 skipped, 0 lost; 0 errors"
}

@test "report's hottest unit is the manifest's largest total" {
	run "$HWTRACE" report -i "$T/hmu.data"
	[ "$status" -eq 0 ]
	read -r unit total < <(grep -v '^#' "$T/m.txt" |
		awk '{ t[$3] += $4 } END { for (u in t) print u, t[u] }' | sort -k2,2nr -k1,1n | head -n1)
	# first row under the cxl_hmu_hot table's header row
	row=$(echo "$output" | awk '/cxl_hmu_hot:/ { getline; getline; print; exit }')
	[[ " $row " == *" $total "* ]]
	[[ " $row " == *" $unit "* || " $row " == *" $(printf '0x%x' "$unit") "* ]]
	[[ "$row" =~ ^\ +1\  ]]
}

@test "report -D prints the RFC's exact lines under each AUXTRACE" {
	run "$HWTRACE" report -D -i "$T/hmu.data"
	[ "$status" -eq 0 ]
	# payload sizes from the independent walker
	python3 "$BATS_TEST_DIRNAME/lib/perfdata.py" records "$T/hmu.data" |
		awk '$2 == 71 { print $4 }' >"$T/sizes"
	[ -s "$T/sizes" ]
	echo "$output" | sed -n 's/^\. \.\.\. CXL_HMU data: size \([0-9]*\) bytes$/\1/p' >"$T/dsizes"
	diff "$T/sizes" "$T/dsizes"
	# every entry line is %016lx of (unit << 16 | count), in manifest order
	echo "$output" | grep -E '^[0-9a-f]{16}$' >"$T/entries"
	python3 -c 'import sys
for l in open(sys.argv[1]):
    if not l.startswith("#"):
        c, t, u, n, d = l.split()
        print("%016x" % ((int(u) << 16) | int(n)))' "$T/m.txt" >"$T/want"
	diff "$T/want" "$T/entries"
	echo "$output" | grep -qE '^Header 0: units: [0-9a-f]+ counter_width 10$'
	echo "$output" | grep -qx 'Header 1 : deadbeef'
	echo "$output" | grep -qE '^[0-9]+ [0-9]+ 0x[0-9a-f]+ \[0x30\]: PERF_RECORD_AUXTRACE size: 0x[0-9a-f]+  offset: (0|0x[0-9a-f]+)  ref: (0|0x[0-9a-f]+)  idx: 0  tid: -1  cpu: 0$'
	echo "$output" | grep -qE 'PERF_RECORD_AUXTRACE_INFO type: 7$'
	echo "$output" | grep -qE '^  PMU Type           [0-9]+$'
}

@test "--dump-raw-trace and --dump-raw-traces are -D" {
	a=$("$HWTRACE" report -D -i "$T/hmu.data" | md5sum)
	b=$("$HWTRACE" report --dump-raw-trace -i "$T/hmu.data" | md5sum)
	c=$("$HWTRACE" report --dump-raw-traces -i "$T/hmu.data" | md5sum)
	[ "$a" = "$b" ]
	[ "$a" = "$c" ]
}

@test "script text and CSV with -F carry the same values" {
	run "$HWTRACE" script --csv -F unit,count,dpa -i "$T/hmu.data"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "type,unit,count,dpa" ]
	grep -v '^#' "$T/m.txt" | awk '{ printf "cxl_hmu_unit,%d,%d,%s\n", $3, $4, $5 }' >"$T/want"
	echo "$output" | grep '^cxl_hmu_unit,' >"$T/got"
	diff "$T/want" "$T/got"
	run "$HWTRACE" script --raw-time -i "$T/hmu.data"
	[ "$status" -eq 0 ]
	first=$(grep -v '^#' "$T/m.txt" | head -n1)
	read -r cpu time unit count dpa <<<"$first"
	[[ "${lines[0]}" == "cxl_hmu_unit: cpu=$cpu time=$time "*" count=$count "*"dpa=$dpa"* ]]
}

@test "pipe mode from stdin decodes the same records as file mode" {
	"$HWTRACE" synth --type cxl-hmu --seed 7 --size 64K -o - >"$T/pipe.data"
	head -c 8 "$T/pipe.data" | grep -q PERFILE2
	a=$("$HWTRACE" script --json -i "$T/hmu.data" 2>/dev/null)
	b=$("$HWTRACE" script --json -i - <"$T/pipe.data" 2>/dev/null)
	c=$(cat "$T/pipe.data" | "$HWTRACE" script --json -i - 2>/dev/null)
	[ -n "$a" ]
	[ "$a" = "$b" ]
	[ "$a" = "$c" ]
}

@test "decode --type cxl-hmu: raw packets, DPA from --granual, HPA through --hdm" {
	p=$T/raw.bin
	rm -f "$p"
	# width 16: entries (unit << 16) | count
	python3 "$BATS_TEST_DIRNAME/lib/perfdata.py" hmu-packet "$p" 2 16 0x50003 0x1000000ff
	python3 "$BATS_TEST_DIRNAME/lib/perfdata.py" hmu-packet "$p" 1 16 0x20001
	run "$HWTRACE" decode --type cxl-hmu --granual 12 \
		--hdm base=0x100000000,size=0x40000000,ways=2,granularity=4096,pos=1 --json "$p"
	[ "$status" -eq 0 ]
	echo "$output" | grep '^{' >"$T/raw.json"
	python3 - "$T/raw.json" <<'EOF'
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
want = [(5, 3), (0x10000, 0xff), (2, 1)]   # 0x1000000ff >> 16 = 0x10000
assert [(x["unit"], x["count"]) for x in r] == want, r
for x in r:
    dpa = x["unit"] << 12
    assert x["dpa"] == hex(dpa)
    # 2-way, 4 KiB granularity, position 1: each 4 KiB of DPA is every
    # second 4 KiB of HPA, starting one granule in
    hpa = 0x100000000 + ((dpa // 4096) * 2 + 1) * 4096 + dpa % 4096
    assert x["hpa"] == hex(hpa), (x["hpa"], hex(hpa))
EOF
}

@test "a packet claiming more entries than its chunk holds: error, good data kept, exit 1" {
	p=$T/over.bin
	rm -f "$p"
	python3 "$BATS_TEST_DIRNAME/lib/perfdata.py" hmu-packet "$p" 1 16 0x70007
	python3 "$BATS_TEST_DIRNAME/lib/perfdata.py" hmu-packet "$p" 5 16 0x10001 0x20002
	run "$HWTRACE" decode --type cxl-hmu --json "$p"
	[ "$status" -eq 1 ]
	[[ "$output" == *'"unit":7,"count":7'* ]]
	[[ "$output" == *"error: $p: offset 0x18: cxl_hmu packet:"* ]]
	echo "$output" | grep -E '^bytes: 24 decoded, 32 skipped, 0 lost; 1 errors'
}

@test "a file cut inside an AUXTRACE payload: error with offset, earlier records kept, lost bytes counted" {
	f=$T/cut.data
	last=$(python3 "$BATS_TEST_DIRNAME/lib/perfdata.py" records "$T/hmu.data" | awk '$2 == 71' | tail -n1)
	read -r off _ size extra <<<"$last"
	head -c $((off + size + 40)) "$T/hmu.data" >"$f"
	run "$HWTRACE" script --json -i "$f"
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: $f: offset"*"PERF_RECORD_AUXTRACE"* ]]
	n=$(echo "$output" | grep -c '^{"type":"cxl_hmu_unit"')
	total=$(grep -vc '^#' "$T/m.txt")
	[ "$n" -gt 0 ]
	[ "$n" -lt "$total" ]
	# lost: from the cut to the end of the data section the header promises
	dend=$(python3 -c 'import struct,sys; o,s=struct.unpack_from("<QQ",open(sys.argv[1],"rb").read(56),40); print(o+s)' "$f")
	[ "$dend" -gt $((off + size + extra)) ] || [ "$dend" -eq $((off + size + extra)) ]
	echo "$output" | grep -E "^bytes: .* $((dend - off - size - 40)) lost;"
}

@test "an AUXTRACE whose size runs past the end of the data: clear error, exit 1, no crash" {
	f=$T/absurd.data
	cp "$T/hmu.data" "$f"
	off=$(python3 "$BATS_TEST_DIRNAME/lib/perfdata.py" records "$f" | awk '$2 == 71 { print $1; exit }')
	python3 "$BATS_TEST_DIRNAME/lib/perfdata.py" set-u64 "$f" $((off + 8)) 0x7fffffffffff0000
	run "$HWTRACE" report -i "$f"
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: $f: offset $(printf '%#x' "$off"): PERF_RECORD_AUXTRACE"* ]]
	echo "$output" | grep -E '^bytes: '
}

@test "a record whose size runs past the end: clear error, exit 1" {
	f=$T/pastend.data
	cp "$T/hmu.data" "$f"
	off=$(python3 "$BATS_TEST_DIRNAME/lib/perfdata.py" records "$f" | awk '$2 == 11 { print $1; exit }')
	python3 "$BATS_TEST_DIRNAME/lib/perfdata.py" set-u16 "$f" $((off + 6)) 0xfff8
	run "$HWTRACE" report -i "$f"
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: $f: offset"* ]]
	echo "$output" | grep -E '^bytes: '
}

@test "not a perf.data, missing file, usage errors" {
	echo hello >"$T/text"
	run "$HWTRACE" report -i "$T/text"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$T/text"* ]]
	run "$HWTRACE" report -i "$T/does-not-exist"
	[ "$status" -eq 1 ]
	run "$HWTRACE" report --bogus
	[ "$status" -eq 2 ]
	run "$HWTRACE" decode "$T/text"
	[ "$status" -eq 2 ]
	run "$HWTRACE" decode --type nosuch "$T/text"
	[ "$status" -eq 2 ]
	run "$HWTRACE" frobnicate
	[ "$status" -eq 2 ]
}

@test "perf hwtrace runs as a perf subcommand from PATH" {
	PATH="$(dirname "$HWTRACE"):$PATH" run perf hwtrace report -i "$T/hmu.data"
	[ "$status" -eq 0 ]
	[[ "$output" == *"AUX stream 0: cxl-hmu"* ]]
}

@test "on synth data typed hisi_ptt, stock perf -D and ours see the same AUXTRACE records and counts" {
	f=$T/ptt.data
	"$HWTRACE" synth --type cxl-hmu --auxtrace-type 6 --seed 5 --size 128K -o "$f"
	perf report -D -i "$f" 2>/dev/null | grep -oE 'PERF_RECORD_AUXTRACE size: .*' >"$T/perf.lines"
	"$HWTRACE" report -D -i "$f" | grep -oE 'PERF_RECORD_AUXTRACE size: .*' >"$T/ours.lines"
	[ "$(wc -l <"$T/perf.lines")" -gt 3 ]
	diff "$T/perf.lines" "$T/ours.lines"
	# the per-type record counts of stock perf's dump and of ours
	perf report -D -i "$f" 2>/dev/null | sed -n '/^Aggregated stats:/,/^$/p' | grep events: >"$T/perf.stats"
	"$HWTRACE" report --stats -i "$f" | sed -n '/^Aggregated stats:/,/^$/p' | grep events: >"$T/ours.stats"
	[ -s "$T/perf.stats" ]
	diff "$T/perf.stats" "$T/ours.stats"
	# and ours decodes it as CXL HMU: the hisi_ptt type is only a carriage
	"$HWTRACE" report -i "$f" | grep -q "AUX stream 0: cxl-hmu (auxtrace type 0x6"
}
