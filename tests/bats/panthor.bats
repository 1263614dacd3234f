#!/usr/bin/env bats
# panthor perf samples: raw ring dumps (made here, in python) and synth
# perf.data, decoded and compared with what the generators say they wrote.

setup() {
	: "${HWTRACE:=build/perf-hwtrace}"
	T="$BATS_TEST_TMPDIR"
	cat > "$T/gen.py" <<'PY'
# Ring dump generator: 16 control bytes (extract_idx, insert_idx), then the ring
# BO; layouts typed in from Documentation/panthor.rst, independent of the decoder.
import json, struct, sys
a = dict(x.split("=", 1) for x in sys.argv[1:])
layout = int(a.get("layout", 6)); cpb = int(a.get("cpb", 64))
slots = int(a.get("slots", 4)); ext = int(a.get("extract", 0)); ins = int(a.get("insert", 3))
bad = int(a.get("bad", -1)); ctrl = a.get("ctrl", "1") == "1"
types = {2: [("fw", 1, 1), ("csg", 2, 2), ("cshw", 3, 1), ("tiler", 4, 1), ("memsys", 5, 1),
             ("shader", 6, 2)],
         6: [("fw", 1, 1), ("cshw", 2, 1), ("tiler", 3, 1), ("memsys", 4, 2), ("shader", 5, 2)]}[layout]
nblk = sum(n for _, _, n in types)
ss = 56 + nblk * (24 + 8 * cpb)
info = {"counters_per_block": cpb, "sample_header_size": 56, "block_header_size": 24,
        "flags": 1, "supported_clocks": 7, "gpu_id": "0xa8670000" if cpb == 64 else "0xb0020000",
        "shader_present": "0x5"}
if layout == 6:
    info["sample_size"] = ss
for name, _, n in types:
    info[name + "_blocks"] = n
json.dump(info, open(a["info"], "w"))
ring = bytearray(slots * ss + 64)      # + page padding
order = []
k = ext
while k % slots != ins % slots or (len(order) == 0 and ins - ext >= slots):
    order.append(k % slots); k += 1
    if len(order) > slots: break
man = open(a["manifest"], "w")
for n, slot in enumerate(order):
    p = slot * ss
    flags = 1 if n == 1 else 0
    struct.pack_into("<QQB3xIQQQQ", ring, p, 1000 + n, 2000000 + n * 1000000, 0, flags,
                     4000 + slot, 10, 20, 30)
    p += 56
    for name, t, cnt in types:
        for idx in range(cnt):
            states = 0x15
            em = (1 << min(cpb, 64)) - 1
            em1 = (1 << (cpb - 64)) - 1 if cpb > 64 else 0
            clock = 2 if name == "shader" else 1 if name in ("tiler", "memsys") else 0
            tt = 9 if n == bad and name == "tiler" else t
            struct.pack_into("<BBBB4xQQ", ring, p, tt, idx, states, clock, em, em1)
            vals = [n * 100000 + t * 1000 + idx * 200 + i for i in range(cpb)]
            struct.pack_into("<%dQ" % cpb, ring, p + 24, *vals)
            p += 24 + 8 * cpb
            if tt == t:
                man.write("%d %s %d %s\n" % (n, name, idx, " ".join(map(str, vals))))
with open(a["out"], "wb") as f:
    if ctrl:
        f.write(struct.pack("<QQ", ext, ins))
    f.write(ring)
PY
	cat > "$T/cmp.py" <<'PY'
# script/decode --json lines vs a manifest: "<sample> <type> <idx> v0 v1 ..."
# (synth manifests carry states, flags and enable masks before the values).
import json, sys
skip = int(sys.argv[3]) if len(sys.argv) > 3 else 0
want = [l.split() for l in open(sys.argv[2]) if not l.startswith("#")]
got = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
got = [g for g in got if g["type"] == "panthor_block"]
assert len(got) == len(want), (len(got), len(want))
for g, w in zip(got, want):
    assert list(g)[0] == "type"
    assert [str(g["sample"]), g["block_type"], str(g["block_idx"])] == w[:3], (g, w[:3])
    assert [str(v) for v in g["values"]] == w[3 + skip:], (g["sample"], g["block_type"])
    if skip:
        names = ["ON", "OFF", "AVAILABLE", "UNAVAILABLE", "NORMAL", "PROTECTED"]
        assert g["block_states"] == [n for b, n in enumerate(names) if int(w[3]) >> b & 1]
        assert g["flags"] == [n for b, n in enumerate(["OVERFLOW", "ERROR"]) if int(w[4]) >> b & 1]
        # masks are hex strings in JSON (exact in every reader)
        assert g["enable_mask"] == [hex(int(w[5])), hex(int(w[6]))]
print("ok", len(got))
PY
}

gen() { python3 "$T/gen.py" info="$T/info.json" manifest="$T/man.txt" out="$T/ring.bin" "$@"; }

# Run the tool with stdout to $T/out.json and stderr to $T/err (they would interleave).
jrun() {
	status=0
	"$HWTRACE" "$@" > "$T/out.json" 2> "$T/err" || status=$?
	cat "$T/err"
}

@test "panthor: decode a v6 ring dump, wrapped, with the control words in front" {
	gen layout=6 slots=4 extract=3 insert=2
	jrun decode --type panthor --info "$T/info.json" --json "$T/ring.bin"
	[ "$status" -eq 0 ]
	run python3 "$T/cmp.py" "$T/out.json" "$T/man.txt"
	[ "$status" -eq 0 ]
	[ "$output" = "ok 21" ]
	grep -q '"counters":{"TIMESTAMP_LO":' "$T/out.json"
	grep -q '"GPU_ACTIVE":' "$T/out.json"
	grep -q '"flags":\["OVERFLOW"\]' "$T/out.json"
}

@test "panthor: decode RFC v2 with --layout 2 --insert --extract, 128 counters" {
	gen layout=2 cpb=128 slots=4 extract=1 insert=0 ctrl=0
	jrun decode --type panthor --info "$T/info.json" --layout 2 \
		--insert 0 --extract 1 --json "$T/ring.bin"
	[ "$status" -eq 0 ]
	run python3 "$T/cmp.py" "$T/out.json" "$T/man.txt"
	[ "$status" -eq 0 ]
	[ "$output" = "ok 24" ]
	grep -q '"block_type":"csg"' "$T/out.json"
	grep -q '"RT_RAYS_STARTED":' "$T/out.json"
}

@test "panthor: a bad block is an error with its offset; the samples around it decode" {
	gen layout=6 slots=4 extract=0 insert=3 bad=1
	jrun decode --type panthor --info "$T/info.json" --json "$T/ring.bin"
	[ "$status" -eq 1 ]
	ss=$((56 + 7 * (24 + 512)))
	off=$((16 + ss + 56 + 2 * 536))
	grep -E "unknown block type 9" "$T/err" | grep -qE "(0x$(printf %x $off)|$off)"
	run python3 "$T/cmp.py" "$T/out.json" "$T/man.txt"
	[ "$status" -eq 0 ]
	[ "$output" = "ok 20" ]
}

@test "panthor: impossible ring indices and a bad --info are clear errors" {
	gen layout=6 slots=4 extract=0 insert=3 ctrl=0
	run "$HWTRACE" decode --type panthor --info "$T/info.json" --insert 2 --extract 9 "$T/ring.bin"
	[ "$status" -eq 1 ]
	[[ "$output" == *"behind extract_idx"* ]]
	jrun decode --type panthor --info "$T/info.json" --insert 19 --extract 2 --json \
		"$T/ring.bin"
	[ "$status" -eq 1 ]
	grep -q "exceeds the 4 slots" "$T/err"
	# the newest 4 slots: 3 written samples and a zeroed slot (errors, no blocks)
	[ "$(grep -c '"type":"panthor_block"' "$T/out.json")" -eq 21 ]
	echo '{"counters_per_block": 64,, }' > "$T/bad.json"
	run "$HWTRACE" decode --type panthor --info "$T/bad.json" "$T/ring.bin"
	[ "$status" -ne 0 ]
	[[ "$output" == *"expected a string"* ]]
}

@test "panthor: synth v6 -> script --json matches the manifest; report; report -D" {
	"$HWTRACE" synth --type panthor --seed 7 --size 200K --manifest "$T/m.txt" -o "$T/p.data"
	jrun script -i "$T/p.data" --json
	[ "$status" -eq 0 ]
	run python3 "$T/cmp.py" "$T/out.json" "$T/m.txt" 4
	[ "$status" -eq 0 ]
	samples=$(head -1 "$T/m.txt" | awk '{print $5}')
	blocks=$(head -1 "$T/m.txt" | awk '{print $7}')
	[ "$output" = "ok $blocks" ]
	grep -q '"block_states":\["OFF","AVAILABLE"\]' "$T/out.json"
	grep -q '"flags":\["OVERFLOW"\]' "$T/out.json"
	run "$HWTRACE" report -i "$T/p.data"
	[ "$status" -eq 0 ]
	[[ "$output" == *panthor_summary* ]]
	[[ "$output" == *panthor_block_total* ]]
	[[ "$output" == *panthor_counter* ]]
	[[ "$output" == *panthor_aggregate* ]]
	[[ "$output" == *Mali-G610* ]]
	run "$HWTRACE" report -D -i "$T/p.data"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c '^\. sample [0-9]*: ')" -eq "$samples" ]
	[ "$(echo "$output" | grep -c '^\.  block ')" -eq "$blocks" ]
}

@test "panthor: synth RFC v2 and 128 counters -> script --json and --csv" {
	"$HWTRACE" synth --type panthor --layout 2 --counters 128 --size 100K \
		--manifest "$T/m.txt" -o "$T/p.data"
	jrun script -i "$T/p.data" --json
	[ "$status" -eq 0 ]
	run python3 "$T/cmp.py" "$T/out.json" "$T/m.txt" 4
	[ "$status" -eq 0 ]
	# stdout alone: the decoder's warnings on stderr may come before the rows,
	# rendered in threads and written when a batch is done
	run bash -c '"$HWTRACE" script -i "$1" --csv 2>/dev/null' _ "$T/p.data"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | head -1)" = \
	  "type,sample,timestamp_start_ns,timestamp_end_ns,interval_ns,user_data,flags,block_type,block_idx,block_states,clock,cycles,enable_mask,values,counters,scaled" ]
	[ "$(echo "$output" | grep -c '^panthor_block,')" -eq "$(grep -vc '^#' "$T/m.txt")" ]
}

@test "panthor: synth --unset 1 (v6 kernel) says no clock cycles instead of dividing" {
	"$HWTRACE" synth --type panthor --unset 1 --size 20K -o "$T/p.data"
	run "$HWTRACE" report -i "$T/p.data"
	[ "$status" -eq 0 ]
	[[ "$output" == *"no clock cycles in the headers"* ]]
	# and the metrics that divide by them are null, not 0 Hz or 0 %
	# the run's interval: from the first sample's end to the last's, as the
	# sample headers' timestamp_end_ns say
	"$HWTRACE" script --json -i "$T/p.data" > "$T/p.json"
	run "$HWTRACE" report --metrics --json -i "$T/p.data"
	[ "$status" -eq 0 ]
	python3 -c 'import json, sys
m = [json.loads(l) for l in sys.stdin if l.startswith("{")][0]["metrics"]
ends = {}
for r in map(json.loads, filter(lambda l: l.startswith("{"), open(sys.argv[1]))):
    if r["type"] == "panthor_block":
        ends.setdefault(r["sample"], r["timestamp_end_ns"])
e = [ends[k] for k in sorted(ends)]
assert m["MaliGPUClock"] is None and m["MaliGPUActivePct"] is None, m
assert len(e) > 2 and m["IntervalNs"] == e[-1] - e[0], (m["IntervalNs"], e[:3])' \
		"$T/p.json" <<< "$output"
	"$HWTRACE" synth --type panthor --size 1 -o "$T/one.data"
	run "$HWTRACE" report -i "$T/one.data"
	[ "$status" -eq 0 ]
	[[ "$output" == *"no interval"* ]]
}
