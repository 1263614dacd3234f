#!/usr/bin/env bats
# synth --type cxl-hmu: stock perf 6.1 walks what we write, and the payload
# it dumps is what the generator's manifest says it put in.
#
# Stock perf has no CXL HMU decoder, so the files borrow auxtrace type 6
# (hisi_ptt): `perf report -D` then prints every AUXTRACE record and dumps its
# payload 4 bytes a line.  The expected values come from the manifest (the
# generator's own account), never from our reader or decoder.

setup() {
	T=$(mktemp -d)
	command -v perf >/dev/null || skip "stock perf not installed"
}

teardown() {
	rm -rf "$T"
}

# "# aux ... size S ..." lines of a manifest, one S per line
manifest_sizes() {
	sed -n 's/^# aux .* size \([0-9]*\) .*/\1/p' "$1"
}

# AUXTRACE payload sizes (decimal, one a line) from a perf report -D dump
dump_sizes() {
	sed -n 's/.*PERF_RECORD_AUXTRACE size: \(0x[0-9a-f]*\|0\) .*/\1/p' "$1" |
		while read -r h; do echo $((h)); done
}

sum() {
	awk '{ s += $1 } END { printf "%d\n", s }'
}

# Check a perf report -D dump against a manifest: AUXTRACE sizes and offsets,
# PERF_RECORD_AUX sizes and times, the HISI PTT dump sizes, and every hotlist
# entry perf printed.  $3 = max chunks to compare (0: all; pipe mode: perf
# stops early), $4 = hotness_granual (12).
check_dump() {
	python3 - "$1" "$2" "${3:-0}" "${4:-12}" <<'EOF'
import re, sys

dump, man, maxchunks, granual = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
chunks = []                 # manifest: dicts with the aux line and its entries
for line in open(man):
    if line.startswith('# aux '):
        f = line.split()
        chunks.append(dict(zip(f[2::2], map(int, f[3::2])), entries=[]))
    elif not line.startswith('#'):
        cpu, time, unit, count, dpa = line.split()
        assert int(cpu) == 0 and int(time) == chunks[-1]['time'], line
        assert int(dpa, 16) == int(unit) << granual, line
        chunks[-1]['entries'].append((int(unit), int(count), int(dpa, 16)))

auxtrace, aux, ptt = [], [], []     # from perf's dump
for line in open(dump):
    m = re.search(r'PERF_RECORD_AUXTRACE size: (0x[0-9a-f]+|0)  offset: (0x[0-9a-f]+|0)', line)
    if m:
        auxtrace.append((int(m.group(1), 16), int(m.group(2), 16)))
        continue
    m = re.match(r'\d+ (\d+) 0x[0-9a-f]+ \[0x40\]: PERF_RECORD_AUX offset: (0x[0-9a-f]+|0) size: (0x[0-9a-f]+)', line)
    if m:
        aux.append((int(m.group(1)), int(m.group(2), 16), int(m.group(3), 16)))
        continue
    m = re.match(r'\. \.\.\. HISI PTT data: size (\d+) bytes', line)
    if m:
        ptt.append([int(m.group(1)), bytearray()])
        continue
    m = re.match(r'\.  ([0-9a-f]{8}): ((?:[0-9a-f]{2} ){4})', line)
    if m and ptt:
        ptt[-1][1] += bytes.fromhex(m.group(2))

n = maxchunks or len(chunks)
assert len(auxtrace) >= n and len(ptt) >= n, (len(auxtrace), len(ptt), n)
if not maxchunks:
    assert len(auxtrace) == len(chunks) == len(ptt), (len(auxtrace), len(chunks), len(ptt))
    assert sorted(aux) == [(c['time'], c['offset'], c['size']) for c in chunks], 'AUX records'
entries = 0
for i, c in enumerate(chunks[:n]):
    assert auxtrace[i] == (c['size'], c['offset']), (i, auxtrace[i], c)
    shown, data = ptt[i]
    # hisi_ptt prints the chunk rounded down to whole 16/32-byte packets
    assert shown <= c['size'] and c['size'] - shown < 32 and shown % 16 == 0, (i, shown)
    assert len(data) == shown, (i, len(data), shown)
    got, pos, packets = [], 0, 0
    while pos + 16 <= len(data):
        h0 = int.from_bytes(data[pos:pos + 8], 'little')
        assert int.from_bytes(data[pos + 8:pos + 16], 'little') == 0xdeadbeef, (i, pos)
        units, width = h0 & 0xffff, (h0 >> 16) & 0xff
        pos += 16
        packets += 1
        for k in range(units):
            if pos + 8 > len(data):
                break
            e = int.from_bytes(data[pos:pos + 8], 'little')
            got.append((e >> width, e & ((1 << width) - 1)))
            pos += 8
    want = [(u, cnt) for u, cnt, dpa in c['entries']]
    # only what perf printed can be compared; at most 3 entries fall in the cut
    assert got == want[:len(got)] and len(want) - len(got) <= 3, (i, len(got), len(want))
    assert packets == c['packets'], (i, packets, c['packets'])
    entries += len(got)
assert entries > 0
print('checked', n, 'chunks,', entries, 'entries')
EOF
}

@test "synth cxl-hmu file: stock perf report -D walks every AUXTRACE and dumps the manifest's entries" {
	run "$HWTRACE" synth --type cxl-hmu --auxtrace-type 6 --seed 3 --size 256K \
		--manifest "$T/m" -o "$T/f.data"
	[ "$status" -eq 0 ]
	# totals line first; the bytes add up over the drains
	head -1 "$T/m" | grep -Eq '^# packets [0-9]+ units [0-9]+ bytes [0-9]+$'
	total=$(head -1 "$T/m" | awk '{print $7}')
	[ "$(manifest_sizes "$T/m" | sum)" -eq "$total" ]
	[ "$(grep -vc '^#' "$T/m")" -eq "$(head -1 "$T/m" | awk '{print $5}')" ]

	perf report -D -i "$T/f.data" >"$T/dump" 2>"$T/err"
	[ "$(grep -c 'failed to process' "$T/err")" -eq 0 ]
	nchunks=$(manifest_sizes "$T/m" | wc -l)
	[ "$nchunks" -gt 5 ]
	[ "$(grep -c 'PERF_RECORD_AUXTRACE size:' "$T/dump")" -eq "$nchunks" ]
	[ "$(grep -c '^\. \.\.\. HISI PTT data: size [0-9]* bytes$' "$T/dump")" -eq "$nchunks" ]
	diff <(dump_sizes "$T/dump") <(manifest_sizes "$T/m")
	grep -q 'PERF_RECORD_AUXTRACE_INFO type: 6' "$T/dump"
	check_dump "$T/dump" "$T/m"
	# stock perf script walks it too (hisi_ptt makes no samples)
	perf script -i "$T/f.data" >/dev/null 2>&1
	# the attrs, names and PMU mapping are what perf sees
	perf report --header-only -i "$T/f.data" >"$T/hdr" 2>&1
	name='cxl_hmu_mem0.0.0/epoch_type=0,access_type=6,hotness_threshold=1024,epoch_multiplier=4,'
	name+='epoch_scale=4,range_base=0,range_size=1024,randomized_downsampling=0,'
	name+='downsampling_factor=32,hotness_granual=12/'
	grep -qF "event : name = $name, , id = { 11 }, type = 42, size = 128, config = 0x100011018," \
		"$T/hdr"
	grep -q 'config1 } = 0xc00000400' "$T/hdr"
	grep -q 'config2 } = 0x40000000000' "$T/hdr"
	grep -q 'event : name = dummy:u' "$T/hdr"
	grep -q 'pmu mappings: .*cxl_hmu_mem0.0.0 = 42' "$T/hdr"
	grep -q 'contains AUX area data' "$T/hdr"
}

@test "synth cxl-hmu pipe: stock perf reads the stream; inject re-emits it byte for byte" {
	run "$HWTRACE" synth --type cxl-hmu --auxtrace-type 6 --seed 3 --size 256K \
		--manifest "$T/m" --pipe -o "$T/p.data"
	[ "$status" -eq 0 ]
	"$HWTRACE" synth --type cxl-hmu --auxtrace-type 6 --seed 3 --size 256K -o - >"$T/stdout.data"
	cmp "$T/p.data" "$T/stdout.data"
	head -c 16 "$T/p.data" | od -An -c | grep -q 'P   E   R   F   I   L   E   2 020'

	# perf 6.1's hisi_ptt decoder reads the payload from the pipe itself and
	# the session then skips it again, so perf loses sync after the first
	# AUXTRACE ("bad event header size"): only the first chunk can be checked.
	# It must be a real pipe: with stdin redirected from a file perf lseek()s
	# to the pipe-relative offset and dumps from 16 bytes too early.
	cat "$T/p.data" | perf report -D -i - >"$T/dump" 2>"$T/err" || true
	grep -q 'PERF_RECORD_ATTR' "$T/dump"
	grep -q 'PERF_RECORD_FEATURE' "$T/dump"
	check_dump "$T/dump" "$T/m" 1

	# With a type perf does not decode, perf inject parses every record of
	# the stream (payloads included) and writes it back unchanged.
	"$HWTRACE" synth --type cxl-hmu --auxtrace-type 99 --seed 3 --size 256K -o - |
		perf inject -i - -o "$T/inj.data"
	"$HWTRACE" synth --type cxl-hmu --auxtrace-type 99 --seed 3 --size 256K -o "$T/p99.data" --pipe
	cmp "$T/inj.data" "$T/p99.data"
}

@test "synth is deterministic: same seed same bytes, other seed other bytes" {
	"$HWTRACE" synth --type cxl-hmu --seed 7 --size 64K --manifest "$T/m1" -o "$T/a"
	"$HWTRACE" synth --type cxl-hmu --seed 7 --size 64K --manifest "$T/m2" -o "$T/b"
	"$HWTRACE" synth --type cxl-hmu --seed 8 --size 64K --manifest "$T/m3" -o "$T/c"
	cmp "$T/a" "$T/b"
	cmp "$T/m1" "$T/m2"
	# (a bare "! cmd" does not fail a bats test: use run)
	run cmp -s "$T/a" "$T/c"
	[ "$status" -ne 0 ]
	run cmp -s "$T/m1" "$T/m3"
	[ "$status" -ne 0 ]
	# the manifest does not change the file
	"$HWTRACE" synth --type cxl-hmu --seed 7 --size 64K -o "$T/d"
	cmp "$T/a" "$T/d"
}

@test "synth --size is honoured within one packet (16 + 512 * 8 bytes)" {
	for size in 1 1000 100K 1M 3M; do
		"$HWTRACE" synth --type cxl-hmu --seed 1 --size "$size" --manifest "$T/m" -o "$T/f"
		want=$(numfmt --from=iec "$size")
		got=$(head -1 "$T/m" | awk '{print $7}')
		echo "size $size: want $want got $got"
		[ "$got" -ge "$want" ]
		[ "$got" -lt $((want + 16 + 512 * 8)) ]
		[ "$(manifest_sizes "$T/m" | sum)" -eq "$got" ]
	done
	# and that is what the file holds: the sum of the AUXTRACE sizes perf sees
	"$HWTRACE" synth --type cxl-hmu --auxtrace-type 6 --seed 1 --size 1M --manifest "$T/m" -o "$T/f"
	perf report -D -i "$T/f" >"$T/dump" 2>/dev/null
	[ "$(dump_sizes "$T/dump" | sum)" -eq "$(head -1 "$T/m" | awk '{print $7}')" ]
}

@test "synth cxl-hmu options reach the attr, the packets and the manifest" {
	"$HWTRACE" synth --type cxl-hmu --auxtrace-type 6 --seed 2 --size 32K --granual 16 \
		--threshold 100 --width 12 --pmu-type 77 --manifest "$T/m" -o "$T/f"
	perf report --header-only -i "$T/f" >"$T/hdr" 2>&1
	grep -q 'hotness_threshold=100,.*hotness_granual=16/, .* type = 77,' "$T/hdr"
	grep -q 'config1 } = 0x1000000064' "$T/hdr"
	grep -q 'cxl_hmu_mem0.0.0 = 77' "$T/hdr"
	perf report -D -i "$T/f" 2>/dev/null | grep -q 'PMU Type           77'
	# counts within [threshold, 2^width)
	awk '!/^#/ && ($4 < 100 || $4 >= 4096) { bad = 1 } END { exit bad }' "$T/m"
	perf report -D -i "$T/f" >"$T/dump" 2>/dev/null
	check_dump "$T/dump" "$T/m" 0 16
}

@test "synth usage errors exit 2" {
	run "$HWTRACE" synth
	[ "$status" -eq 2 ]
	run "$HWTRACE" synth -o "$T/f"
	[ "$status" -eq 2 ]
	run "$HWTRACE" synth --type nosuch -o "$T/f"
	[ "$status" -eq 2 ]
	run "$HWTRACE" synth --type cxl-hmu
	[ "$status" -eq 2 ]
	run "$HWTRACE" synth --type cxl-hmu --size 12Q -o "$T/f"
	[ "$status" -eq 2 ]
	run "$HWTRACE" synth --type cxl-hmu --seed -o "$T/f"
	[ "$status" -eq 2 ]
	run "$HWTRACE" synth --type cxl-hmu --bogus 1 -o "$T/f"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--bogus"* ]]
	run "$HWTRACE" synth --type cxl-hmu -o
	[ "$status" -eq 2 ]
	run "$HWTRACE" synth --type cxl-hmu --manifest - -o -
	[ "$status" -eq 2 ]
	run "$HWTRACE" synth --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"cxl-hmu"* ]]
	[ ! -e "$T/f" ]
}

@test "synth: an unwritable output is an error, not a crash" {
	run "$HWTRACE" synth --type cxl-hmu --size 4K -o "$T/no/such/dir/f"
	[ "$status" -eq 1 ]
	[[ "$output" == *"no/such/dir"* ]]
	if [ -w /dev/full ]; then
		run "$HWTRACE" synth --type cxl-hmu --size 1M -o /dev/full
		[ "$status" -eq 1 ]
	fi
}
