#!/usr/bin/env bats
# top --record FILE (Documentation/drm-usage.rst): refreshes of a fake
# --proc/--sys tree, replayed 1 s apart with --clock-file, land in a perf.data
# whose records script --json, stock perf (after inject) and the Perfetto
# export show with the values the tree says (deltas worked out by hand here).

load lib/common

READ="python3 $BATS_TEST_DIRNAME/../perfetto_read.py"

setup() {
	T="$BATS_TEST_TMPDIR"
	printf '1000000000\n2000000000\n' >"$T/clock"
	for s in 0 1; do
		mkfd "$T/p$s" 100 Xorg 3 /dev/dri/card0 "$(i915 $((346249 + s * 250000000)) $((s * 1000000000)))"
		# a forked child holding the same client: the record names the lowest pid
		mkfd "$T/p$s" 101 Xorg-child 4 /dev/dri/card0 "$(i915 $((346249 + s * 250000000)) $((s * 1000000000)))"
	done
	mkamd "$T/sys"
}

# mkfd ROOT PID COMM FD LINK-TARGET FDINFO-TEXT
mkfd() {
	local d="$1/$2"
	mkdir -p "$d/fd" "$d/fdinfo"
	echo "$3" >"$d/comm"
	ln -sfn "$5" "$d/fd/$4"
	printf '%s' "$6" >"$d/fdinfo/$4"
}

i915() { # $1 render ns, $2 video ns (video has capacity 2)
	printf 'drm-driver:\ti915\ndrm-client-id:\t39\ndrm-pdev:\t0000:00:02.0\n'
	printf 'drm-total-system0:\t6044 KiB\ndrm-resident-system0:\t4 MiB\n'
	printf 'drm-engine-render:\t%s ns\ndrm-engine-video:\t%s ns\n' "$1" "$2"
	printf 'drm-engine-capacity-video:\t2\n'
}

# mkamd ROOT: one amdgpu card the way sysfs shows it (frequency, VRAM, hwmon)
mkamd() {
	local dev="$1/devices/pci0000:00/0000:63:00.0"
	mkdir -p "$dev/drm/card1" "$1/class/drm" "$dev/hwmon/hwmon5"
	printf 'DRIVER=amdgpu\nPCI_CLASS=30000\nPCI_SLOT_NAME=0000:63:00.0\n' >"$dev/uevent"
	ln -sfn ../../../0000:63:00.0 "$dev/drm/card1/device"
	ln -sfn ../../devices/pci0000:00/0000:63:00.0/drm/card1 "$1/class/drm/card1"
	printf '0: 500Mhz \n1: 1200Mhz *\n2: 2100Mhz \n' >"$dev/pp_dpm_sclk"
	echo 17163091968 >"$dev/mem_info_vram_total"
	echo 1073741824 >"$dev/mem_info_vram_used"
	echo 45000 >"$dev/hwmon/hwmon5/temp1_input"
	# 35000.5 mW: llround()'s halves away from zero give 35001
	echo 35000500 >"$dev/hwmon/hwmon5/power1_average"
}

top_rec() { # FILE: two refreshes of the tree into FILE
	"$HWTRACE" top --proc "$T/p0" --proc "$T/p1" --sys "$T/sys" -n 2 -d 0 \
		--clock-file "$T/clock" --json --record "$1" >/dev/null
}

# jsel FILE PYTHON-EXPR: evaluate EXPR with r = the script --json records of FILE
jsel() {
	"$HWTRACE" script --json -i "$1" >"$T/script.json"
	python3 -c 'import json,sys
r = [json.loads(l) for l in open(sys.argv[1])]
print(eval(sys.argv[2]))' "$T/script.json" "$2"
}

@test "top --record: script --json gives the clients and GPU the tree says" {
	top_rec "$T/rec.data"
	# per refresh: 2 engines + 2 memory kinds of one client, one GPU
	[ "$(jsel "$T/rec.data" 'len(r)')" -eq 10 ]
	[ "$(jsel "$T/rec.data" 'sorted({(x["time"], x["type"]) for x in r})[0]')" = "(1000000000, 'drm_usage_engine')" ]
	# render: 250 ms busy in 1 s = 25 %; video: 1 s busy over capacity 2 = 50 %
	[ "$(jsel "$T/rec.data" '[(x["engine"], x["busy_ns"], x.get("util_ppm")) for x in r if x["type"] == "drm_usage_engine" and x["time"] == 2000000000]')" = "[('render', 250346249, 250000), ('video', 1000000000, 500000)]" ]
	# the first refresh has no utilisation yet: util_ppm absent, not 0
	[ "$(jsel "$T/rec.data" '[("util_ppm" in x) for x in r if x["type"] == "drm_usage_engine" and x["time"] == 1000000000]')" = "[False, False]" ]
	[ "$(jsel "$T/rec.data" '{(x["pid"], x["comm"], x["driver"], x["pdev"], x["client_id"]) for x in r if x["type"] != "drm_usage_gpu"}')" = "{(100, 'Xorg', 'i915', '0000:00:02.0', 39)}" ]
	[ "$(jsel "$T/rec.data" '[(x["region"], x["kind"], x["bytes"]) for x in r if x["type"] == "drm_usage_memory" and x["time"] == 2000000000]')" = "[('system0', 'total', 6189056), ('system0', 'resident', 4194304)]" ]
	[ "$(jsel "$T/rec.data" '[(x["card"], x["driver"], x["cur_mhz"], x["max_mhz"], x["temp_mc"], x["power_mw"], x["vram_total"], x["vram_used"]) for x in r if x["type"] == "drm_usage_gpu"][1]')" = "('card1', 'amdgpu', 1200, 2100, 45000, 35001, 17163091968, 1073741824)" ]
	run "$HWTRACE" report -i "$T/rec.data"
	[ "$status" -eq 0 ]
	[[ "$output" == *"drm-usage (auxtrace type 0x48570003"* ]]
	[[ "$output" == *"records decoded:           10"* ]]
}

@test "top --record: a power past 64 bits of mW is recorded as the largest, not wrapped" {
	# energy that leaps 10^13 uJ while the clock says 1 ns went by: 10^16 W
	# (past 2^53, JSON carries the number as a string)
	local hw="$T/sys/devices/pci0000:00/0000:63:00.0/hwmon/hwmon5"
	rm "$hw/power1_average"
	echo 0 >"$hw/energy1_input"
	printf '1000000000\n1000000001\n' >"$T/clock"
	# rewritten halfway between the two refreshes, a second from each
	(sleep 1 && echo 10000000000000 >"$hw/energy1_input") &
	"$HWTRACE" top --proc "$T/p0" --proc "$T/p1" --sys "$T/sys" -n 2 -d 2 \
		--clock-file "$T/clock" --json --record "$T/big.data" >/dev/null
	wait
	[ "$(jsel "$T/big.data" '[x.get("power_mw") for x in r if x["type"] == "drm_usage_gpu"]')" = "[None, '9223372036854775807']" ]
}

@test "top --record: an existing recording is continued, anything else is refused untouched" {
	top_rec "$T/rec.data"
	top_rec "$T/rec.data"
	[ "$(jsel "$T/rec.data" 'len(r)')" -eq 20 ]
	[ "$(jsel "$T/rec.data" 'sum(1 for x in r if x.get("util_ppm") == 250000)')" -eq 2 ]
	"$HWTRACE" synth --type panthor --size 4K -o "$T/other.data"
	cp "$T/other.data" "$T/keep"
	run "$HWTRACE" top --proc "$T/p0" -n 1 --json --record "$T/other.data"
	[ "$status" -eq 2 ]
	[ -z "$output" ] || [[ "$output" == *"holds no top --record samples"* ]]
	cmp "$T/other.data" "$T/keep"
	mkdir "$T/dir"
	run "$HWTRACE" top --proc "$T/p0" -n 1 --json --record "$T/dir"
	[ "$status" -eq 2 ]
}

@test "top --record | inject: stock perf script shows the samples" {
	top_rec "$T/rec.data"
	"$HWTRACE" inject -i "$T/rec.data" -o "$T/rec.inj"
	run perf script -i "$T/rec.inj"
	[ "$status" -eq 0 ]
	[ "$(grep -c 'hwtrace:drm_usage_engine:' <<<"$output")" -eq 4 ]
	grep -q 'engine=video busy_ns=1000000000 .*capacity=2 util_ppm=500000' <<<"$output"
	grep -q 'hwtrace:drm_usage_gpu: .*card=card1 driver=amdgpu .*cur_mhz=1200' <<<"$output"
	grep -q 'region=system0 kind=resident bytes=4194304' <<<"$output"
}

@test "top --record | convert --to-perfetto: per client engine and memory tracks" {
	top_rec "$T/rec.data"
	"$HWTRACE" convert --to-perfetto "$T/rec.pftrace" -i "$T/rec.data"
	protoc --decode_raw <"$T/rec.pftrace" >/dev/null
	$READ "$T/rec.pftrace" >"$T/tracks.json"
	tr() {
		python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["tracks"][sys.argv[2]]["points"])' "$T/tracks.json" "$1"
	}
	[ "$(tr 'Xorg 39 render busy (ppm)')" = "[[2000000000, 250000]]" ]
	[ "$(tr 'Xorg 39 video busy (ppm)')" = "[[2000000000, 500000]]" ]
	[ "$(tr 'Xorg 39 system0 total memory')" = "[[1000000000, 6189056], [2000000000, 6189056]]" ]
	[ "$(tr 'Xorg 39 system0 resident memory')" = "[[1000000000, 4194304], [2000000000, 4194304]]" ]
	[ "$(tr 'card1 frequency (MHz)')" = "[[1000000000, 1200], [2000000000, 1200]]" ]
	[ "$(tr 'card1 VRAM used')" = "[[1000000000, 1073741824], [2000000000, 1073741824]]" ]
}

@test "synth --type drm-usage: script --json has what the generator says it wrote" {
	"$HWTRACE" synth --type drm-usage --clients 3 --size 10K --manifest "$T/mf" -o "$T/s.data"
	"$HWTRACE" script --json -i "$T/s.data" | python3 -c '
import json, sys
got = []
for l in sys.stdin:
    x = json.loads(l)
    k = (x["time"] - 1000000000) // 1000000000
    if x["type"] == "drm_usage_engine":
        got.append("engine %d %d %s %d %s" % (k, x["client_id"], x["engine"], x["busy_ns"], x.get("util_ppm", "-")))
    elif x["type"] == "drm_usage_memory":
        got.append("memory %d %d %s %s %d" % (k, x["client_id"], x["region"], x["kind"], x["bytes"]))
    elif x["type"] == "drm_usage_gpu":
        got.append("gpu %d %d %d" % (k, x["cur_mhz"], x["power_mw"]))
print("\n".join(got))' >"$T/got"
	grep -v '^#' "$T/mf" >"$T/want"
	[ "$(wc -l <"$T/want")" -eq 65 ]
	diff "$T/want" "$T/got"
}

@test "drm-usage decoder: bad records are reported with offset and type, the rest decoded" {
	python3 - "$T/raw.bin" <<'PY'
import struct, sys
def rec(t, body, strs):
    s = b"".join(x.encode() + b"\0" for x in strs)
    size = (8 + len(body) + len(s) + 7) // 8 * 8
    return (struct.pack("<HHI", t, size, 0) + body + s).ljust(size, b"\0")
eng = struct.pack("<QQIIQQQII", 5, 7, 42, 0x13, 1000, 0, 0, 1, 123456)
mem = struct.pack("<QQIIQII", 5, 7, 42, 1, 4096, 9, 0)
open(sys.argv[1], "wb").write(rec(1, eng, ["i915", "", "comm", "render"]) +
    rec(2, mem, ["i915", "", "comm", "vram"]) + rec(1, eng, ["i915", "", "x", "y"]) +
    struct.pack("<HHI", 1, 12, 0) + b"\0" * 16)
PY
	# engine 88 bytes at 0, memory 64 at 0x58 (kind 9), engine 80 at 0x98,
	# then a header claiming 12 bytes at 0xe8 with 16 more bytes behind it
	run "$HWTRACE" decode --type drm-usage "$T/raw.bin"
	[ "$status" -eq 1 ]
	[[ "$output" == *"offset 0x58: drm_usage record: memory kind 9 unknown"* ]]
	[[ "$output" == *"offset 0xe8: drm_usage record: type 1: size 12"* ]]
	[ "$(grep -c '^drm_usage_engine:' <<<"$output")" -eq 2 ]
	[[ "$output" == *"168 decoded, 88 skipped"* ]]
}

@test "top --record: the Python module reads the records as script --json shows them" {
	top_rec "$T/rec.data"
	"$HWTRACE" script --json -i "$T/rec.data" >"$T/rec.json"
	PYTHONPATH="$BUILD/python" python3 - "$T/rec.data" "$T/rec.json" <<'PY'
import hwtrace, json, sys
got = list(hwtrace.open(sys.argv[1]))
want = [json.loads(l) for l in open(sys.argv[2])]
assert got == want, (got[:2], want[:2])
assert [r["util_ppm"] for r in got if r.get("engine") == "video" and "util_ppm" in r] == [500000]
PY
}

@test "top --record: SIGINT ends top and the samples so far are in FILE" {
	"$HWTRACE" top --proc "$T/p0" --sys "$T/sys" -d 0.05 --json --record "$T/rec.data" \
		>"$T/out.json" &
	local pid=$! i
	for i in $(seq 200); do
		[ "$(wc -l <"$T/out.json")" -ge 3 ] && break
		sleep 0.05
	done
	kill -INT "$pid"
	wait "$pid"
	local n
	n=$(wc -l <"$T/out.json")
	# one engine pair, one memory pair and one GPU per refresh printed
	[ "$(jsel "$T/rec.data" 'len(r)')" -eq $((n * 5)) ]
	# nothing left beside it
	[ -z "$(ls -A "$T" | grep '^\.rec\.data')" ]
}

@test "top --record: clients without drm-client-id stay apart by their fd everywhere" {
	# one lima process, two fds, no id: two clients (as top's fd4 and fd5)
	for s in 0 1; do
		mkfd "$T/n$s" 11 noid 4 /dev/dri/renderD128 \
			"$(printf 'drm-driver:\tlima\ndrm-engine-gp:\t%d ns\ndrm-resident-memory:\t%d KiB\n' $((s * 100000000)) 4)"
		mkfd "$T/n$s" 11 noid 5 /dev/dri/renderD128 \
			"$(printf 'drm-driver:\tlima\ndrm-engine-gp:\t%d ns\ndrm-resident-memory:\t%d KiB\n' $((s * 300000000)) 8)"
	done
	"$HWTRACE" top --proc "$T/n0" --proc "$T/n1" --sys "$T/sys" -n 2 -d 0 \
		--clock-file "$T/clock" --json --record "$T/n.data" >"$T/n.json"
	# --json: client_id null, fd the client's
	[ "$(python3 -c 'import json,sys
d = [json.loads(l) for l in open(sys.argv[1])][-1]
print(sorted((c["client_id"], c["fd"]) for c in d["clients"]))' "$T/n.json")" = "[(None, 4), (None, 5)]" ]
	# the records: fd instead of client_id, each client its own utilisation
	[ "$(jsel "$T/n.data" 'sorted((x["fd"], "client_id" in x, x["util_ppm"]) for x in r if x["type"] == "drm_usage_engine" and "util_ppm" in x)')" = "[(4, False, 100000), (5, False, 300000)]" ]
	[ "$(jsel "$T/n.data" 'sorted((x["fd"], x["bytes"]) for x in r if x["type"] == "drm_usage_memory" and x["time"] == 2000000000)')" = "[(4, 4096), (5, 8192)]" ]
	# Perfetto: a track per client, named as top names them
	"$HWTRACE" convert --to-perfetto "$T/n.pftrace" -i "$T/n.data"
	$READ "$T/n.pftrace" >"$T/tracks.json"
	python3 -c 'import json,sys
t = json.load(open(sys.argv[1]))["tracks"]
assert t["noid fd4 gp busy (ppm)"]["points"] == [[2000000000, 100000]], t.keys()
assert t["noid fd5 gp busy (ppm)"]["points"] == [[2000000000, 300000]], t.keys()
assert t["noid fd5 memory resident memory"]["points"] == [[1000000000, 8192], [2000000000, 8192]]' "$T/tracks.json"
	# stock perf after inject
	"$HWTRACE" inject -i "$T/n.data" -o "$T/n.inj"
	run perf script -i "$T/n.inj"
	[ "$status" -eq 0 ]
	# at 2 s each fd's own busy ns and share of the replayed second, once each
	[ "$(grep -c ' 2.000000: *hwtrace:drm_usage_engine: .* fd=4 pid=11 comm=noid engine=gp busy_ns=100000000 .* util_ppm=100000$' <<<"$output")" -eq 1 ]
	[ "$(grep -c ' 2.000000: *hwtrace:drm_usage_engine: .* fd=5 pid=11 comm=noid engine=gp busy_ns=300000000 .* util_ppm=300000$' <<<"$output")" -eq 1 ]
}
