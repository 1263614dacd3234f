#!/usr/bin/env bats
# perf hwtrace top on /proc-shaped fixture trees built here from real fdinfo
# outputs (Documentation/drm-usage.rst).  Two snapshots 1 s apart (via the
# hidden --clock-file) with hand-computed counter deltas give exact figures.

load lib/gpu_sysfs

setup() {
	T=$(mktemp -d)
	printf '1000000000\n2000000000\n' >"$T/clock"
}

teardown() {
	rm -rf "$T"
}

# mkfd ROOT PID COMM FD LINK-TARGET [FDINFO-TEXT]
mkfd() {
	local d="$1/$2"
	mkdir -p "$d/fd" "$d/fdinfo"
	echo "$3" >"$d/comm"
	ln -sfn "$5" "$d/fd/$4"
	printf '%s' "${6:-pos: 0}" >"$d/fdinfo/$4"
}

i915() { # $1 render ns, $2 copy ns, $3 video ns
	printf 'pos:    0\nflags:  02100002\nmnt_id: 26\nino:    284\ndrm-driver:     i915\n'
	printf 'drm-client-id:  39\ndrm-pdev:       0000:00:02.0\n'
	printf 'drm-total-system0:      6044 KiB\ndrm-shared-system0:     0\n'
	printf 'drm-active-system0:     0\ndrm-resident-system0:   6044 KiB\n'
	printf 'drm-purgeable-system0:  1688 KiB\ndrm-total-stolen-system0:       0\n'
	printf 'drm-shared-stolen-system0:      0\ndrm-active-stolen-system0:      0\n'
	printf 'drm-resident-stolen-system0:    0\ndrm-purgeable-stolen-system0:   0\n'
	printf 'drm-engine-render:      %s ns\ndrm-engine-copy:        %s ns\n' "$1" "$2"
	printf 'drm-engine-video:       %s ns\ndrm-engine-capacity-video:      2\n' "$3"
	printf 'drm-engine-video-enhance:       0 ns\n'
}

xe() { # $1 rcs cycles, $2 ccs cycles, $3 total cycles
	printf 'drm-driver:     xe\ndrm-client-id:  3\ndrm-pdev:       0000:03:00.0\n'
	printf 'drm-total-gtt:  192 KiB\ndrm-shared-gtt: 0\ndrm-active-gtt: 0\n'
	printf 'drm-resident-gtt:       192 KiB\ndrm-total-vram0:        23992 KiB\n'
	printf 'drm-shared-vram0:       16 MiB\ndrm-active-vram0:       0\n'
	printf 'drm-resident-vram0:     23992 KiB\n'
	printf 'drm-cycles-rcs: %s\ndrm-total-cycles-rcs:   %s\n' "$1" "$3"
	printf 'drm-cycles-ccs: %s\ndrm-total-cycles-ccs:   %s\n' "$2" "$3"
	printf 'drm-engine-capacity-ccs:        4\n'
}

amdgpu() { # transitional: two drm-client-id lines, ' \t' separators
	printf 'drm-driver:\tamdgpu\ndrm-client-id:\t428\ndrm-pdev:\t0000:63:00.0\n'
	printf 'pasid:\t32789\ndrm-driver:\tamdgpu\ndrm-pdev:\t0000:63:00.0\n'
	printf 'drm-client-id:\t641912\ndrm-memory-vram:\t186708 KiB\n'
	printf 'drm-memory-gtt: \t17828 KiB\ndrm-engine-gfx: \t%s ns\n' "$1"
}

msm() {
	printf 'drm-driver:\tmsm\ndrm-client-id:\t6\ndrm-engine-gpu:\t%s ns\n' "$1"
	printf 'drm-cycles-gpu:\t7947908204\ndrm-maxfreq-gpu:\t925000000 Hz\n'
	printf 'drm-total-memory:\t116376 KiB\n'
}

panfrost() {
	printf 'drm-driver:     panfrost\ndrm-client-id:  14\n'
	printf 'drm-engine-fragment:    1846584880 ns\ndrm-cycles-fragment:    1424359409\n'
	printf 'drm-maxfreq-fragment:   799999987 Hz\ndrm-curfreq-fragment:   799999987 Hz\n'
	printf 'drm-engine-vertex-tiler:        71932239 ns\n'
	printf 'drm-cycles-vertex-tiler:        52617357\n'
	printf 'drm-maxfreq-vertex-tiler:       799999987 Hz\n'
	printf 'drm-curfreq-vertex-tiler:       799999987 Hz\n'
	printf 'drm-total-memory:       290 MiB\ndrm-shared-memory:      0 MiB\n'
	printf 'drm-active-memory:      226 MiB\ndrm-resident-memory:    36496 KiB\n'
	printf 'drm-purgeable-memory:   128 KiB\n'
}

panthor() { # profiling knob = cycles only: no drm-engine-panthor, so cycles x maxfreq
	printf 'drm-driver:     panthor\ndrm-client-id:  10\n'
	printf 'drm-cycles-panthor:     %s\ndrm-maxfreq-panthor:    1000000000 Hz\n' "$1"
	printf 'drm-curfreq-panthor:    1000000000 Hz\npanthor-resident-memory:        10396 KiB\n'
	printf 'panthor-active-memory:  10396 KiB\ndrm-total-memory:       16480 KiB\n'
	printf 'drm-shared-memory:      0\ndrm-active-memory:      16200 KiB\n'
	printf 'drm-resident-memory:    16480 KiB\ndrm-purgeable-memory:   0\n'
}

v3d() {
	printf 'drm-driver:     v3d\ndrm-client-id:  81\ndrm-engine-bin:         4916187 ns\n'
	printf 'v3d-jobs-bin:   98 jobs\ndrm-engine-render:      154563573 ns\n'
	printf 'v3d-jobs-render:        98 jobs\ndrm-engine-tfu:         10574 ns\n'
	printf 'v3d-jobs-tfu:   1 jobs\ndrm-engine-csd:         0 ns\nv3d-jobs-csd:   0 jobs\n'
	printf 'drm-engine-cache_clean:         0 ns\nv3d-jobs-cache_clean:   0 jobs\n'
	printf 'drm-engine-cpu:         0 ns\nv3d-jobs-cpu:   0 jobs\n'
	printf 'drm-total-memory:       15168 KiB\ndrm-shared-memory:      9336 KiB\n'
	printf 'drm-active-memory:      0\n'
}

amdxdna() {
	printf 'drm-driver: amdxdna_accel_driver\ndrm-client-id: 76\ndrm-pdev: 0000:c5:00.1\n'
	printf 'drm-engine-npu-amdxdna: %s ns\ndrm-total-memory: 0\ndrm-shared-memory: 0\n' "$1"
	printf 'drm-active-memory: 0\n'
}

# snapshot DIR STEP(0|1): the counters of STEP 1 are STEP 0's plus the known deltas
snapshot() {
	local r=$1 s=$2
	local render=$((346249 + s * 250000000)) copy=$((500 - s * 100)) video=$((s * 1000000000))
	mkfd "$r" 100 Xorg 3 /dev/dri/card0 "$(i915 $render $copy $video)"
	mkfd "$r" 100 Xorg 4 /dev/null 'drm-driver: not-drm-null'
	mkfd "$r" 100 Xorg 5 'socket:[1234]' 'drm-driver: not-drm-socket'
	mkfd "$r" 100 Xorg 6 'anon_inode:[eventfd]' 'drm-driver: not-drm-anon'
	# the same struct file shared with a forked child, plus a dup in the child
	mkfd "$r" 101 Xorg-child 7 /dev/dri/card0 "$(i915 $render $copy $video)"
	mkfd "$r" 101 Xorg-child 8 /dev/dri/card0 "$(i915 $render $copy $video)"
	mkfd "$r" 200 xe-app 3 /dev/dri/renderD129 \
		"$(xe $((28257900 + s * 300)) $((s * 400)) $((7655183225 + s * 1000)))"
	mkfd "$r" 300 amd-app 3 /dev/dri/renderD130 "$(amdgpu $((107322799 + s * 100000000)))"
	for fd in 10 11 12; do	# sway: three fds on one client
		mkfd "$r" 400 sway $fd /dev/dri/card1 "$(msm $((26006942606 + s * 800000000)))"
	done
	mkfd "$r" 500 panfrost-app 3 /dev/dri/renderD131 "$(panfrost)"
	mkfd "$r" 501 panthor-app 3 /dev/dri/renderD132 "$(panthor $((94439687187 + s * 500000000)))"
	mkfd "$r" 502 v3d-app 3 /dev/dri/card2 "$(v3d)"
	mkfd "$r" 600 npu-app 3 /dev/accel/accel0 "$(amdxdna $((s * 100000000)))"
	mkdir -p "$r/self" "$r/700"	# not a pid / no fd dir: ignored
}

huge() { # 200k driver lines (about 5 MB) before the drm keys
	mkdir -p "$1/800/fd" "$1/800/fdinfo"
	echo big >"$1/800/comm"
	ln -s /dev/dri/renderD140 "$1/800/fd/3"
	awk 'BEGIN { for (i = 0; i < 200000; i++) printf "amd-evicted-%d:\t%d KiB\n", i, i;
		printf "drm-driver: amdgpu\ndrm-client-id: 9999\ndrm-engine-gfx: 5 ns\n";
		printf "drm-resident-vram: 12 MiB" }' >"$1/800/fdinfo/3"
}

# jget FILE LINE PYTHON-EXPR: evaluate EXPR on JSON line LINE (1-based) as `d`
jget() {
	python3 -c 'import json,sys
d = json.loads(open(sys.argv[1]).read().splitlines()[int(sys.argv[2]) - 1])
c = {x["driver"] + ":" + str(x["client_id"]): x for x in d["clients"]}
print(eval(sys.argv[3]))' "$@"
}

@test "top --json: every driver's client once, exact utilisation from two snapshots" {
	snapshot "$T/a" 0
	snapshot "$T/b" 1
	run "$HWTRACE" top --proc "$T/a" --proc "$T/b" -n 2 -d 0 --clock-file "$T/clock" --json
	[ "$status" -eq 0 ]
	echo "$output" >"$T/out.json"
	[ "$(wc -l <"$T/out.json")" -eq 2 ]
	# first refresh: no utilisation anywhere
	[ "$(jget "$T/out.json" 1 'sorted({e["util"] is None for x in d["clients"] for e in x["engines"].values()})')" = "[True]" ]
	[ "$(jget "$T/out.json" 2 'len(d["clients"])')" -eq 8 ]
	[ "$(jget "$T/out.json" 2 'd["time"]')" = "2.0" ]
	# shared + dup'd fds: one client with both holder pids
	[ "$(jget "$T/out.json" 2 'c["i915:39"]["pids"]')" = "[100, 101]" ]
	[ "$(jget "$T/out.json" 2 'c["i915:39"]["comm"]')" = "Xorg" ]
	[ "$(jget "$T/out.json" 2 'c["i915:39"]["pdev"]')" = "0000:00:02.0" ]
	[ "$(jget "$T/out.json" 2 'c["i915:39"]["engines"]["render"]["util"]')" = "25.0" ]
	[ "$(jget "$T/out.json" 2 'c["i915:39"]["engines"]["video"]["util"]')" = "50.0" ]
	[ "$(jget "$T/out.json" 2 'c["i915:39"]["engines"]["video"]["capacity"]')" = "2" ]
	# copy went 500 -> 400: held at 500, 0 %
	[ "$(jget "$T/out.json" 2 'c["i915:39"]["engines"]["copy"]')" = "{'busy_ns': 500, 'capacity': 1, 'util': 0.0}" ]
	[ "$(jget "$T/out.json" 2 'c["i915:39"]["memory"]["system0"]')" = "{'total': 6189056, 'shared': 0, 'resident': 6189056, 'purgeable': 1728512, 'active': 0}" ]
	# xe: 300 of 1000 GPU ticks; ccs 400 of 1000 over capacity 4
	[ "$(jget "$T/out.json" 2 'c["xe:3"]["engines"]["rcs"]')" = "{'cycles': 28258200, 'total_cycles': 7655184225, 'capacity': 1, 'util': 30.0}" ]
	[ "$(jget "$T/out.json" 2 'c["xe:3"]["engines"]["ccs"]["util"]')" = "10.0" ]
	[ "$(jget "$T/out.json" 2 'c["xe:3"]["memory"]["vram0"]["shared"]')" = "16777216" ]
	# amdgpu: the first drm-client-id; legacy drm-memory = resident
	[ "$(jget "$T/out.json" 2 'c["amdgpu:428"]["engines"]["gfx"]["util"]')" = "10.0" ]
	[ "$(jget "$T/out.json" 2 'c["amdgpu:428"]["memory"]["vram"]["resident"]')" = "191188992" ]
	[ "$(jget "$T/out.json" 2 '"amdgpu:641912" in c')" = "False" ]
	# msm: busy ns has precedence over cycles x maxfreq
	[ "$(jget "$T/out.json" 2 'c["msm:6"]["pids"]')" = "[400]" ]
	[ "$(jget "$T/out.json" 2 'c["msm:6"]["engines"]["gpu"]["util"]')" = "80.0" ]
	[ "$(jget "$T/out.json" 2 'c["msm:6"]["pdev"]')" = "None" ]
	# panthor: cycles over wall x maxfreq
	[ "$(jget "$T/out.json" 2 'c["panthor:10"]["engines"]["panthor"]["util"]')" = "50.0" ]
	[ "$(jget "$T/out.json" 2 'c["panfrost:14"]["engines"]["fragment"]["util"]')" = "0.0" ]
	[ "$(jget "$T/out.json" 2 'c["panfrost:14"]["memory"]["memory"]["total"]')" = "304087040" ]
	[ "$(jget "$T/out.json" 2 'sorted(c["v3d:81"]["engines"])')" = "['bin', 'cache_clean', 'cpu', 'csd', 'render', 'tfu']" ]
	[ "$(jget "$T/out.json" 2 'c["v3d:81"]["memory"]["memory"]["resident"]')" = "None" ]
	# /dev/accel (major 261) is found too
	[ "$(jget "$T/out.json" 2 'c["amdxdna_accel_driver:76"]["engines"]["npu-amdxdna"]["util"]')" = "10.0" ]
	# sorted by total utilisation: msm 80, i915 25+50, panthor 50
	[ "$(jget "$T/out.json" 2 '[x["driver"] for x in d["clients"]][:3]')" = "['msm', 'i915', 'panthor']" ]
	# fdinfo of non-DRM fds was never read
	[[ "$output" != *not-drm* ]]
}

@test "top: a huge fdinfo is read to its last byte" {
	huge "$T/a"
	run "$HWTRACE" top --proc "$T/a" -n 1 --json
	[ "$status" -eq 0 ]
	echo "$output" >"$T/out.json"
	[ "$(jget "$T/out.json" 1 'c["amdgpu:9999"]["memory"]["vram"]["resident"]')" = "12582912" ]
}

@test "top: engines and clients may appear and vanish between refreshes" {
	mkfd "$T/a" 10 app 3 /dev/dri/renderD128 $'drm-driver: i915\ndrm-client-id: 1\ndrm-engine-render: 0 ns\n'
	mkfd "$T/a" 11 gone 3 /dev/dri/renderD128 $'drm-driver: i915\ndrm-client-id: 2\n'
	mkfd "$T/b" 10 app 3 /dev/dri/renderD128 $'drm-driver: i915\ndrm-client-id: 1\ndrm-engine-render: 100000000 ns\ndrm-engine-copy: 5 ns\n'
	mkfd "$T/b" 12 new 3 /dev/dri/renderD128 $'drm-driver: i915\ndrm-client-id: 3\n'
	run "$HWTRACE" top --proc "$T/a" --proc "$T/b" -n 2 -d 0 --clock-file "$T/clock" --json
	[ "$status" -eq 0 ]
	echo "$output" >"$T/out.json"
	[ "$(jget "$T/out.json" 2 'sorted(c)')" = "['i915:1', 'i915:3']" ]
	[ "$(jget "$T/out.json" 2 'c["i915:1"]["engines"]["render"]["util"]')" = "10.0" ]
	[ "$(jget "$T/out.json" 2 'c["i915:1"]["engines"]["copy"]["util"]')" = "None" ]
}

@test "top -b: batch text for logs" {
	snapshot "$T/a" 0
	snapshot "$T/b" 1
	run "$HWTRACE" top --proc "$T/a" --proc "$T/b" -n 2 -d 0 --clock-file "$T/clock" -b
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "# time 1.000 clients 8" ]]
	[[ "$output" == *"100,101"*"Xorg"*"i915"*"0000:00:02.0"*"render:25.0%"*"video:50.0%"*"system0:5.9M"* ]]
	[[ "$output" == *"render:-"* ]]	# first refresh: no figure
}

@test "top: bad options and a missing proc root" {
	run "$HWTRACE" top -n 0
	[ "$status" -eq 2 ]
	run "$HWTRACE" top --bogus
	[ "$status" -eq 2 ]
	# two outputs at once: refused before any tree is read
	run "$HWTRACE" top --proc "$T/none" -n 1 --json -b
	[ "$status" -eq 2 ]
	[[ "$output" == *"--json and -b"* ]]
	run "$HWTRACE" top --proc "$T/none" -n 1 --json
	[ "$status" -eq 1 ]
	[[ "$output" == *"cannot read"* ]]
}

@test "top on the real /proc runs" {
	run "$HWTRACE" top -n 2 -d 0.05 --json
	[ "$status" -eq 0 ]
	[[ "${lines[1]}" == '{"time":'*'"clients":['* ]]
}

@test "top interactive view in tmux: start, refresh, quit with q" {
	command -v tmux >/dev/null || skip "tmux not installed"
	snapshot "$T/a" 0
	local sock="hwt-top-$$"
	tmux -L "$sock" new-session -d -x 160 -y 40 \
		"$HWTRACE top --proc $T/a -d 0.2; echo EXITED \$?; sleep 5"
	local i screen=
	for i in $(seq 50); do
		screen=$(tmux -L "$sock" capture-pane -p)
		[[ "$screen" == *"hwtrace top - 8 DRM clients"*"sway"* ]] && break
		sleep 0.1
	done
	[[ "$screen" == *"hwtrace top - 8 DRM clients"* ]]
	[[ "$screen" == *"100,101"*"Xorg"* ]]
	sleep 0.5	# at least one refresh
	tmux -L "$sock" send-keys q
	for i in $(seq 50); do
		screen=$(tmux -L "$sock" capture-pane -p)
		[[ "$screen" == *"EXITED 0"* ]] && break
		sleep 0.1
	done
	tmux -L "$sock" kill-server || true
	[[ "$screen" == *"EXITED 0"* ]]
}

# refreshes N DELAY ROOT OUT STATS [ARGS]: top --json with N refreshes DELAY
# s apart (the clock file's times) in the background; returns once the first
# is in OUT, for the caller to change the tree and `wait $!`
refreshes() {
	local n=$1 d=$2 root=$3 out=$4 stats=$5 i
	shift 5
	"$HWTRACE" top --proc "$root" -n "$n" -d "$d" --clock-file "$T/clock" --json --stats \
		"$@" >"$out" 2>"$stats" &
	for i in $(seq 100); do
		[ -s "$out" ] && break
		sleep 0.05
	done
}

two_refreshes() { # ROOT OUT STATS
	refreshes 2 2 "$@"
}

# cp_inplace FROM TO: every fdinfo of tree FROM written over TO's (same
# inodes: top's kept fds see the new texts)
cp_inplace() {
	python3 - "$1" "$2" <<'PY'
import glob, sys
for src in glob.glob(f"{sys.argv[1]}/*/fdinfo/*"):
    with open(src) as f, open(sys.argv[2] + src[len(sys.argv[1]):], "r+") as d:
        d.truncate(0)
        d.write(f.read())
PY
}

@test "top: between rescans the kept fdinfo fds are pread, and see the tree change" {
	local i v=$'drm-driver: i915\ndrm-client-id: 1\ndrm-engine-render: 0 ns\n'
	mkfd "$T/a" 10 app 3 /dev/dri/renderD128 "$v"
	mkfd "$T/a" 10 app 4 /dev/dri/renderD128 "$v"	# a dup: one read per client
	two_refreshes "$T/a" "$T/out.json" "$T/stats"
	# rewritten in place while top sleeps; fd 3 now another client's (a reused
	# fd number: not adopted, the client is read through fd 4 if 3 was kept)
	printf 'drm-driver: i915\ndrm-client-id: 2\ndrm-engine-render: 5 ns\n' >"$T/a/10/fdinfo/3"
	printf 'drm-driver: i915\ndrm-client-id: 1\ndrm-engine-render: 300000000 ns\n' \
		>"$T/a/10/fdinfo/4"
	wait $!
	[ "$(jget "$T/out.json" 2 'c["i915:1"]["engines"]["render"]["util"]')" = "30.0" ]
	[ "$(jget "$T/out.json" 2 'sorted(c)')" = "['i915:1']" ]
	[[ "$(cat "$T/stats")" == *"full_scans 1 new_scans 0 fdinfo_reads "[34]" kept_reads 1 "* ]]
}

# jdev FILE LINE PYTHON-EXPR: like jget, with g = the devices by card
jdev() {
	python3 -c 'import json,sys
d = json.loads(open(sys.argv[1]).read().splitlines()[int(sys.argv[2]) - 1])
g = {x["card"]: x for x in d["devices"]}
print(eval(sys.argv[3]))' "$@"
}

@test "top --sys: a header per GPU from the sysfs files the kernels expose" {
	local amd=$T/sys/devices/pci0000:00/0000:63:00.0/hwmon/hwmon5/temp1_input
	snapshot "$T/a" 0
	mksys "$T/sys"
	# amdgpu's hwmon reads fail while the GPU is runtime-suspended: the
	# channel is still the one to read at the next refresh
	: >"$amd"
	"$HWTRACE" top --proc "$T/a" --sys "$T/sys" -n 2 -d 1.5 --clock-file "$T/clock" --json \
		>"$T/out.json" &
	local i
	for i in $(seq 100); do
		[ -s "$T/out.json" ] && break
		sleep 0.05
	done
	# 5 J more on the i915 and 3 J on the xe over the replayed 1 s
	local d=$T/sys/devices/pci0000:00
	echo 6000000 >"$d/0000:00:02.0/hwmon/hwmon3/energy1_input"
	echo 10000000 >"$d/0000:03:00.0/hwmon/hwmon4/energy1_input"
	echo 45000 >"$amd"
	wait $!
	[ "$(jdev "$T/out.json" 1 'g["card1"]["temp_c"]')" = "None" ]
	[ "$(jdev "$T/out.json" 2 'sorted(g)')" = "['card0', 'card1', 'card2']" ]
	[ "$(jdev "$T/out.json" 2 '[g[c]["driver"] + " " + g[c]["pdev"] for c in sorted(g)]')" = "['i915 0000:00:02.0', 'amdgpu 0000:63:00.0', 'xe 0000:03:00.0']" ]
	[ "$(jdev "$T/out.json" 2 '(g["card0"]["cur_freq_mhz"], g["card0"]["max_freq_mhz"])')" = "(350, 1300)" ]
	[ "$(jdev "$T/out.json" 2 '(g["card1"]["cur_freq_mhz"], g["card1"]["max_freq_mhz"])')" = "(1200, 2100)" ]
	[ "$(jdev "$T/out.json" 2 '(g["card2"]["cur_freq_mhz"], g["card2"]["max_freq_mhz"])')" = "(1500, 2400)" ]
	# power: energy delta over the interval (i915, xe), the driver's average (amdgpu)
	[ "$(jdev "$T/out.json" 1 'g["card0"]["power_w"]')" = "None" ]
	[ "$(jdev "$T/out.json" 2 'g["card0"]["power_w"]')" = "5.0" ]
	[ "$(jdev "$T/out.json" 2 'g["card2"]["power_w"]')" = "3.0" ]
	[ "$(jdev "$T/out.json" 1 'g["card1"]["power_w"]')" = "35.0" ]
	[ "$(jdev "$T/out.json" 2 '(g["card0"]["temp_c"], g["card1"]["temp_c"], g["card2"]["temp_c"])')" = "(None, 45.0, 52.5)" ]
	[ "$(jdev "$T/out.json" 2 '(g["card1"]["vram_total"], g["card1"]["vram_used"])')" = "(17163091968, 1073741824)" ]
	[ "$(jdev "$T/out.json" 2 '(g["card2"]["vram_total"], g["card2"]["vram_used"])')" = "(8589934592, None)" ]
	[ "$(jdev "$T/out.json" 2 '(g["card0"]["vram_total"], g["card1"]["pmu"])')" = "(None, None)" ]
	# the i915 PMU's busy events name the engines; a fake tree's PMU is never opened
	[ "$(jdev "$T/out.json" 2 'g["card0"]["pmu"]')" = "i915" ]
	[ "$(jdev "$T/out.json" 2 'g["card0"]["engines"]')" = "{'bcs0': {'busy': None}, 'rcs0': {'busy': None}}" ]
	# xe's PMU (xe_<pdev>) is found; its engines come from the device node, not the tree
	[ "$(jdev "$T/out.json" 2 '(g["card2"]["pmu"], g["card2"]["engines"])')" = "('xe_0000_03_00.0', {})" ]
	# the clients are still there
	[ "$(jget "$T/out.json" 2 'len(d["clients"])')" -eq 8 ]
}

@test "top -b --sys: one '# gpu' line per GPU; absent values are '-'" {
	snapshot "$T/a" 0
	mksys "$T/sys"
	run "$HWTRACE" top --proc "$T/a" --sys "$T/sys" -n 1 -b
	[ "$status" -eq 0 ]
	[[ "${lines[1]}" == "# gpu card0 i915 0000:00:02.0  freq 350/1300 MHz  power -  temp -  vram -/- bcs0:- rcs0:-" ]]
	[[ "${lines[2]}" == "# gpu card1 amdgpu 0000:63:00.0  freq 1200/2100 MHz  power 35.0 W  temp 45.0 C  vram 1.0G/16.0G" ]]
	[[ "${lines[3]}" == "# gpu card2 xe 0000:03:00.0  freq 1500/2400 MHz  power -  temp 52.5 C  vram -/8.0G" ]]
	[[ "${lines[4]}" == "PID "* ]]
}

@test "top -b --sys: an engine named by a sysfs file is shown escaped, as in JSON" {
	snapshot "$T/a" 0
	mksys "$T/sys"
	echo 'config=0x20000' >"$T/sys/bus/event_source/devices/i915/events/vcs"$'\e'"0-busy"
	run "$HWTRACE" top --proc "$T/a" --sys "$T/sys" -n 1 -b
	[ "$status" -eq 0 ]
	[[ "${lines[1]}" == '# gpu card0 i915 0000:00:02.0  freq 350/1300 MHz  power -  temp -  vram -/- bcs0:- rcs0:- vcs\x1b0:-' ]]
	[[ "$output" != *$'\e'* ]]
	"$HWTRACE" top --proc "$T/a" --sys "$T/sys" -n 1 --json >"$T/out.json"
	[ "$(jdev "$T/out.json" 1 'sorted(g["card0"]["engines"])')" = "['bcs0', 'rcs0', 'vcs\x1b0']" ]
}

@test "top --sysfs is --sys, as list, record and stat name it (and --sy either)" {
	snapshot "$T/a" 0
	mksys "$T/sys"
	# the first line holds the time
	"$HWTRACE" top --proc "$T/a" --sys "$T/sys" -n 1 -b | tail -n +2 >"$T/sys.txt"
	"$HWTRACE" top --proc "$T/a" --sysfs "$T/sys" -n 1 -b | tail -n +2 >"$T/sysfs.txt"
	"$HWTRACE" top --proc "$T/a" --sy "$T/sys" -n 1 -b | tail -n +2 >"$T/sy.txt"
	# the header mksys's files make (as the --sys test above reads them)
	grep -qxF '# gpu card1 amdgpu 0000:63:00.0  freq 1200/2100 MHz  power 35.0 W  temp 45.0 C  vram 1.0G/16.0G' "$T/sysfs.txt"
	cmp "$T/sys.txt" "$T/sysfs.txt"
	cmp "$T/sys.txt" "$T/sy.txt"
	run "$HWTRACE" top --proc "$T/a" --sysfs "$T/nosys" -n 1 -b
	[ "$status" -eq 0 ]
	[[ "$output" != *"# gpu card1"* ]]
}

@test "top -b: total memory where a driver prints no resident, fdN for clients without an id" {
	snapshot "$T/a" 0
	mkfd "$T/a" 700 noid 5 /dev/dri/renderD133 $'drm-driver: lima\ndrm-engine-gp: 5 ns\ndrm-resident-memory: 4 KiB\n'
	run "$HWTRACE" top --proc "$T/a" --sys "$T/nosys" -n 1 -b
	[ "$status" -eq 0 ]
	# v3d prints drm-total-memory (15168 KiB) and no resident: shown, marked t
	[[ "$output" == *"v3d-app"*"14.8Mt"*"| memory:14.8Mt"* ]]
	# panfrost has both: resident (36496 KiB)
	[[ "$output" == *"panfrost-app"*"| memory:35.6M"$'\n'* ]]
	local line
	line=$(grep '^700 ' <<<"$output")
	[[ "$line" == "700          noid            lima     -               fd5 "* ]]
	# one sample: no engine has a utilisation yet, nor has the BUSY column
	[[ "$line" == *" fd5      -    4.0K  gp:- |"* ]]
}

@test "top: a bad drm-engine or drm-*-memory value is a warning once per client and key" {
	local bad=$'drm-driver: i915\ndrm-client-id: 7\ndrm-engine-render: 12x ns\ndrm-resident-system0: 5 XiB\ndrm-engine-copy: 5 ns\n'
	mkfd "$T/a" 10 app 3 /dev/dri/renderD128 "$bad"
	mkfd "$T/a" 10 app 4 /dev/dri/renderD128 "$bad"	# a dup: the same client
	mkfd "$T/a" 11 other 3 /dev/dri/renderD128 "${bad/id: 7/id: 8}"
	# full rescans and cached re-reads: each re-parses the bad lines; offset 34 is
	# where the drm-engine-render line starts (two 17-byte lines before it)
	"$HWTRACE" top --proc "$T/a" -n 4 -d 0 --rescan 0 --json >"$T/out.json" 2>"$T/err"
	"$HWTRACE" top --proc "$T/a" -n 4 -d 0 --json >"$T/out2.json" 2>"$T/err2"
	cat "$T/err"
	[ "$(wc -l <"$T/err")" -eq 4 ]
	[ "$(grep -c 'fdinfo/3: offset 34: drm fdinfo: drm-engine-render: ' "$T/err")" -eq 2 ]
	[ "$(grep -c ': drm-resident-system0: ' "$T/err")" -eq 2 ]
	grep -q "^perf hwtrace top: warning: $T/a/10/fdinfo/3: offset 34: .*(client of pid 10 app; not repeated)" "$T/err"
	grep -q "^perf hwtrace top: warning: $T/a/11/fdinfo/3: offset 34: .*(client of pid 11 other; not repeated)" "$T/err"
	[ "$(wc -l <"$T/err2")" -eq 4 ]
	# the good line of the same text still counts
	[ "$(jget "$T/out.json" 2 'c["i915:7"]["engines"]["copy"]["busy_ns"]')" -eq 5 ]
}

@test "top --sort: columns and reverse order in batch and JSON" {
	snapshot "$T/a" 0
	run "$HWTRACE" top --proc "$T/a" --sys "$T/nosys" -n 1 --json --sort comm
	[ "$status" -eq 0 ]
	echo "$output" >"$T/out.json"
	[ "$(jget "$T/out.json" 1 '[x["comm"] for x in d["clients"]]')" = "['Xorg', 'amd-app', 'npu-app', 'panfrost-app', 'panthor-app', 'sway', 'v3d-app', 'xe-app']" ]
	run "$HWTRACE" top --proc "$T/a" --sys "$T/nosys" -n 1 --json --sort=-pid
	echo "$output" >"$T/out.json"
	[ "$(jget "$T/out.json" 1 '[x["pids"][0] for x in d["clients"]]')" = "[600, 502, 501, 500, 400, 300, 200, 100]" ]
	run "$HWTRACE" top --proc "$T/a" --sys "$T/nosys" -n 1 --json --sort mem
	echo "$output" >"$T/out.json"
	# resident, else total: amdgpu 186708 + 17828 KiB, msm 116376 KiB total, panfrost 36496 KiB
	[ "$(jget "$T/out.json" 1 '[x["driver"] for x in d["clients"]][:3]')" = "['amdgpu', 'msm', 'panfrost']" ]
	run "$HWTRACE" top --sort bogus -n 1
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown column 'bogus'"* ]]
}

# many ROOT N: N i915 clients, ids 1..N, pid 1000+id, id x 4 KiB resident
many() {
	local i
	for i in $(seq "$2"); do
		mkfd "$1" $((1000 + i)) "app$i" 3 /dev/dri/renderD128 \
			"$(printf 'drm-driver: i915\ndrm-client-id: %d\ndrm-pdev: 0000:00:02.0\ndrm-engine-render: %d ns\ndrm-resident-system0: %d KiB\n' "$i" $((i * 1000000)) $((i * 4)))"
	done
}

# sortcheck FILE LINE COLUMN REVERSE: line LINE's clients are in the order
# the man page gives (htop's: numbers largest first, names and ids smallest
# first; -COLUMN reverses the column only; ties by device node, then client
# id), computed here from the JSON's own values
sortcheck() {
	python3 - "$@" <<'PY'
import functools, json, sys
path, line, col, rev = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4] == "1"
d = json.loads(open(path).read().splitlines()[line - 1])
dev = {"i915": 128, "xe": 129}
def mem(x):
    return sum(r["resident"] if r["resident"] is not None else r["total"] or 0
               for r in x["memory"].values())
def busy(x):
    return sum(e["util"] for e in x["engines"].values() if e["util"] is not None)
prim = {
    "pid": lambda x: x["pids"][0], "comm": lambda x: x["comm"],
    "driver": lambda x: x["driver"], "pdev": lambda x: x["pdev"] or "",
    "id": lambda x: x["client_id"], "busy": lambda x: -busy(x), "mem": lambda x: -mem(x),
}[col]
def cmp(a, b):
    pa, pb = prim(a), prim(b)
    r = (pa > pb) - (pa < pb)
    if rev:
        r = -r
    if r:
        return r
    ka, kb = (dev[a["driver"]], a["client_id"]), (dev[b["driver"]], b["client_id"])
    return (ka > kb) - (ka < kb)
got = [(x["driver"], x["client_id"]) for x in d["clients"]]
want = [(x["driver"], x["client_id"]) for x in sorted(d["clients"], key=functools.cmp_to_key(cmp))]
assert len(got) == 36, got
assert got == want, (col, rev, got, want)
PY
}

# busy ROOT STEP: 31 i915 clients on renderD128 (ids 1..31) and 5 xe clients on
# renderD129 (ids 1..5, ties with i915's for the device to break); STEP 1 adds
# a render delta of (i * 7 mod 12) x 10 ms to client i, so busy has ties too
busytree() {
	local i
	for i in $(seq 31); do
		mkfd "$1" $((1000 + i)) "app$i" 3 /dev/dri/renderD128 \
			"$(printf 'drm-driver: i915\ndrm-client-id: %d\ndrm-pdev: 0000:00:02.0\ndrm-engine-render: %d ns\ndrm-resident-system0: %d KiB\n' "$i" $((i * 1000000 + $2 * (i * 7 % 12) * 10000000)) $(((i * 5 % 9) * 4)))"
	done
	for i in 1 2 3 4 5; do
		mkfd "$1" $((2000 + i)) "xe$i" 3 /dev/dri/renderD129 \
			"$(printf 'drm-driver: xe\ndrm-client-id: %d\ndrm-pdev: 0000:03:00.0\ndrm-engine-rcs: %d ns\ndrm-total-vram0: %d KiB\n' "$i" $((i * 1000 + $2 * (i % 3) * 20000000)) $((i % 2 * 8)))"
	done
}

@test "top --json into a pipe: the pipe is raised to 1 MiB, and every client arrives" {
	local max size rest
	many "$T/a" 300	# about 120 KB of JSON a refresh
	max=$(cat /proc/sys/fs/pipe-max-size)
	[ "$max" -gt 1048576 ] && max=1048576
	"$HWTRACE" top --proc "$T/a" -n 2 -d 0 --json | python3 -c '
import fcntl, json, sys
lines = sys.stdin.buffer.read().splitlines()
print(fcntl.fcntl(0, 1032), len(lines), [len(json.loads(l)["clients"]) for l in lines])' >"$T/out"
	# F_GETPIPE_SZ (1032) of the reader's end: the size the writer set, 1 MiB
	# (root may pass pipe-max-size) or the most an unprivileged user may set
	read -r size rest <"$T/out"
	[ "$size" = 1048576 ] || [ "$size" = "$max" ]
	[ "$rest" = "2 [300, 300]" ]
	# a terminal or a file is left alone (the call fails there)
	"$HWTRACE" top --proc "$T/a" -n 1 -d 0 --json >"$T/file.json"
	[ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["clients"]))' "$T/file.json")" = 300 ]
}

@test "top --json: quick refreshes are sorted as the man page says, and equal a full rescan's" {
	local col rev flag
	busytree "$T/a" 0
	busytree "$T/b" 1
	# the second refresh is a quick one (drm_clients.updated renders each
	# client as it is read); the tree changes in place in between
	two_refreshes "$T/a" "$T/quick.json" "$T/stats"
	cp_inplace "$T/b" "$T/a"
	wait $!
	[[ "$(cat "$T/stats")" == *"full_scans 1 "* ]]
	# client i: (i * 7 mod 12) x 10 ms in 1 s
	[ "$(jget "$T/quick.json" 2 '[c["i915:%d" % i]["engines"]["render"]["util"] for i in (1, 2, 5, 12)]')" = "[7.0, 2.0, 11.0, 0.0]" ]
	[ "$(jget "$T/quick.json" 2 '[c["xe:%d" % i]["engines"]["rcs"]["util"] for i in (1, 2, 3)]')" = "[2.0, 4.0, 0.0]" ]
	sortcheck "$T/quick.json" 2 busy 0
	for col in pid comm driver pdev id busy mem; do
		for rev in 0 1; do
			flag=$col
			[ "$rev" = 1 ] && flag=-$col
			"$HWTRACE" top --proc "$T/a" -n 3 -d 0 --json --sort="$flag" >"$T/q.json"
			"$HWTRACE" top --proc "$T/a" -n 3 -d 0 --json --sort="$flag" --rescan 0 >"$T/f.json"
			sortcheck "$T/q.json" 3 "$col" "$rev"
			diff <(sed -n '3s/^{"time":[0-9.]*,//p' "$T/q.json") \
			     <(sed -n '3s/^{"time":[0-9.]*,//p' "$T/f.json")
		done
	done
}

# odd ROOT BUSY: one client whose engine and region names need escaping or
# are long (15, 16, 17, 70 bytes), with counters past 2^53 and BUSY ns on
# the engines whose utilisation printf must round
odd() {
	local n70
	n70=$(printf 'n%.0s' $(seq 70))
	mkfd "$1" 100 app 3 /dev/dri/renderD128 "$(printf 'drm-driver:\ti915\ndrm-client-id:\t7\n'
		printf 'drm-engine-a"b:\t5 ns\ndrm-engine-c\\d:\t6 ns\n'
		printf 'drm-engine-fifteen-chars-x:\t9007199254740993 ns\n'
		printf 'drm-engine-sixteen-chars-xy:\t%s ns\ndrm-engine-seventeen-chars-xy:\t%s ns\n' "$2" "$2"
		printf 'drm-engine-%s:\t12 ns\ndrm-engine-capacity-%s:\t12\n' "$n70" "$n70"
		printf 'drm-total-r\001g:\t3 KiB\ndrm-resident-r\001g:\t9007199254740993\n')"
}

@test "top --json: names to escape or long, counters past 2^53 and percentages printf rounds" {
	# 50000 ns in 1 s is 0.005 %, which only printf rounds as C does; 2e16 ns
	# is 2e9 %, past the digits top writes itself
	odd "$T/a" 0
	odd "$T/b" 50000
	run "$HWTRACE" top --proc "$T/a" --proc "$T/b" -n 2 -d 0 --clock-file "$T/clock" --json
	[ "$status" -eq 0 ]
	echo "$output" | tail -n 1 >"$T/1.json"
	rm -rf "$T/b" && odd "$T/b" 20000000000000000
	run "$HWTRACE" top --proc "$T/a" --proc "$T/b" -n 2 -d 0 --clock-file "$T/clock" --json
	[ "$status" -eq 0 ]
	echo "$output" | tail -n 1 >"$T/2.json"
	# the values the tree holds, the percentages as Python's printf gives them
	python3 - "$T/1.json" "$T/2.json" <<'PY'
import json, sys
for path, busy in zip(sys.argv[1:], (50000, 20000000000000000)):
    text = open(path).read()
    (cl,) = json.loads(text)["clients"]
    e = cl["engines"]
    assert list(e) == ['a"b', "c\\d", "fifteen-chars-x", "sixteen-chars-xy",
                       "seventeen-chars-xy", "n" * 70], list(e)
    assert e['a"b'] == {"busy_ns": 5, "capacity": 1, "util": 0.0}, e
    assert e["c\\d"] == {"busy_ns": 6, "capacity": 1, "util": 0.0}, e
    assert e["fifteen-chars-x"]["busy_ns"] == "9007199254740993", e
    assert e["n" * 70] == {"busy_ns": 12, "capacity": 12, "util": 0.0}, e
    pct = "%.2f" % (100.0 * busy / 1e9)
    num = str(busy) if busy <= 2**53 else '"%d"' % busy	# JSON's exact integers
    for k in ("sixteen-chars-xy", "seventeen-chars-xy"):
        assert '"%s":{"busy_ns":%s,"capacity":1,"util":%s}' % (k, num, pct) in text, (k, pct)
    assert cl["memory"] == {"r\x01g": {"total": 3072, "shared": None,
                            "resident": "9007199254740993", "purgeable": None,
                            "active": None}}, cl["memory"]
    assert '"r\\u0001g":' in text
PY
}

@test "top: an unchanged fdinfo is not parsed again, and prints what a parse would" {
	local r
	printf '%s\n' 1000000000 2000000000 3000000000 4000000000 >"$T/clock"
	busytree "$T/b" 1
	for r in same reparse; do
		rm -rf "$T/a"
		busytree "$T/a" 0
		# refresh 1 is the full scan; the tree changes before refresh 2,
		# then stays as it is for refreshes 3 and 4
		refreshes 4 1.5 "$T/a" "$T/$r.json" "$T/$r.stats" $([ $r = same ] || echo --reparse)
		cp_inplace "$T/b" "$T/a"
		wait $!
	done
	[ "$(wc -l <"$T/same.json")" = 4 ]
	cmp "$T/same.json" "$T/reparse.json"
	# busy for 1 s before refresh 2 (busytree's deltas), idle since: 0 at once
	[ "$(jget "$T/same.json" 2 'c["i915:5"]["engines"]["render"]["util"]')" = "11.0" ]
	[ "$(jget "$T/same.json" 3 'c["i915:5"]["engines"]["render"]["util"]')" = "0.0" ]
	[ "$(jget "$T/same.json" 4 'c["i915:5"]["engines"]["render"]["util"]')" = "0.0" ]
	[ "$(jget "$T/same.json" 4 '[c["xe:%d" % i]["engines"]["rcs"]["util"] for i in (1, 2, 3)]')" = "[0.0, 0.0, 0.0]" ]
	# 36 clients, 33 of them changed before refresh 2 (all but i915 12 and
	# 24, xe 3): 3 unchanged reads then, 36 at refresh 3, 36 at refresh 4
	[[ "$(cat "$T/same.stats")" == *"full_scans 1 "*" kept_reads 108 same_reads 75 "* ]]
	[[ "$(cat "$T/reparse.stats")" == *"full_scans 1 "*" kept_reads 108 same_reads 0 "* ]]
}

@test "top -b: quick refreshes (rows staged as read, steady ones copied) print what full scans do" {
	local r i
	printf '%s\n' 1000000000 2000000000 3000000000 4000000000 >"$T/clock"
	busytree "$T/b" 1
	for r in quick full; do
		rm -rf "$T/a"
		busytree "$T/a" 0
		# the tree changes in place before refresh 2, then stays (3, 4: steady rows)
		"$HWTRACE" top --proc "$T/a" -n 4 -d 1.5 --clock-file "$T/clock" -b --stats \
			$([ $r = quick ] || echo --rescan 0) >"$T/$r.txt" 2>"$T/$r.stats" &
		for i in $(seq 100); do
			[ -s "$T/$r.txt" ] && break
			sleep 0.05
		done
		cp_inplace "$T/b" "$T/a"
		wait $!
	done
	[[ "$(cat "$T/quick.stats")" == *"full_scans 1 "* ]]
	[[ "$(cat "$T/full.stats")" == *"full_scans 4 "* ]]
	[ "$(grep -c '^# time' "$T/quick.txt")" = 4 ]
	cmp "$T/quick.txt" "$T/full.txt"
	# i915 client 5: 110 ms busy in the replayed 1 s, 28 KiB resident; idle after
	row() {
		printf '%-12s %-15s %-8s %-12s %6s %5.1f%% %7s  render:%.1f%% | system0:%s' \
			1005 app5 i915 0000:00:02.0 5 "$1" 28.0K "$1" 28.0K
	}
	[ "$(grep '^1005 ' "$T/quick.txt" | sed -n 2p)" = "$(row 11)" ]
	[ "$(grep '^1005 ' "$T/quick.txt" | sed -n 3p)" = "$(row 0)" ]
	[ "$(grep '^1005 ' "$T/quick.txt" | sed -n 4p)" = "$(row 0)" ]
}

# screen SOCK: the pane's text; waits until it holds $1
pane_wait() {
	local sock=$1 want=$2 i
	for i in $(seq 60); do
		screen=$(tmux -L "$sock" capture-pane -p)
		[[ "$screen" == *$want* ]] && return 0
		sleep 0.1
	done
	return 1
}

# every line of $screen at most $1 columns, exactly $2 lines
pane_fits() {
	local n=0 max=0 line
	while IFS= read -r line; do
		n=$((n + 1))
		[ ${#line} -gt "$max" ] && max=${#line}
	done <<<"$screen"
	echo "lines $n widest $max" >&2
	[ "$max" -le "$1" ]
	[ "$n" -eq "$2" ]
}

@test "top in tmux at 100x12 with 31 clients: fits, header stays, sorts, scrolls, follows SIGWINCH" {
	command -v tmux >/dev/null || skip "tmux not installed"
	many "$T/a" 31
	mksys "$T/sys"
	local sock="hwt-top-fit-$$" screen=
	tmux -L "$sock" new-session -d -x 100 -y 12 \
		"$HWTRACE top --proc $T/a --sys $T/sys -d 60 --sort mem; echo EXITED \$?; sleep 5"
	# one refresh only (-d 60): every later change on screen is a key or SIGWINCH
	pane_wait "$sock" "app31"
	pane_fits 100 12
	[[ "$(sed -n 1p <<<"$screen")" == "hwtrace top - 31 DRM clients"*"rows 1-7"* ]]
	[[ "$(sed -n 2p <<<"$screen")" == "card0 i915 0000:00:02.0  freq 350/1300 MHz"* ]]
	[[ "$(sed -n 5p <<<"$screen")" == "PID "*"MEMv"* ]]
	[[ "$(sed -n 6p <<<"$screen")" == "1031 "*"app31 "* ]]
	# '<' twice moves the sort to ID (smallest first), 'r' reverses it
	tmux -L "$sock" send-keys '<' '<'
	pane_wait "$sock" "ID^"
	[[ "$(sed -n 6p <<<"$screen")" == "1001 "*"app1 "* ]]
	tmux -L "$sock" send-keys r
	pane_wait "$sock" "IDv"
	[[ "$(sed -n 6p <<<"$screen")" == "1031 "*"app31 "* ]]
	tmux -L "$sock" send-keys r
	pane_wait "$sock" "ID^"
	# PgDn: the next 7 rows; Down: one more; the header stays
	tmux -L "$sock" send-keys NPage
	pane_wait "$sock" "rows 8-14"
	[[ "$(sed -n 6p <<<"$screen")" == "1008 "*"app8 "* ]]
	tmux -L "$sock" send-keys Down
	pane_wait "$sock" "rows 9-15"
	[[ "$(sed -n 1p <<<"$screen")" == "hwtrace top - 31 DRM clients"* ]]
	tmux -L "$sock" send-keys End
	pane_wait "$sock" "rows 25-31"
	[[ "$(sed -n 12p <<<"$screen")" == "1031 "* ]]
	# F6 moves the sort column right (ID -> BUSY)
	tmux -L "$sock" send-keys F6 Home
	pane_wait "$sock" "BUSYv"
	# a smaller window: SIGWINCH redraws at once (the next refresh is 60 s away)
	tmux -L "$sock" resize-window -x 60 -y 8
	pane_wait "$sock" "rows 1-3"
	pane_fits 60 8
	[[ "$(sed -n 1p <<<"$screen")" == "hwtrace top - 31 DRM clients"* ]]
	tmux -L "$sock" send-keys q
	pane_wait "$sock" "EXITED 0" || true
	tmux -L "$sock" kill-server || true
	[[ "$screen" == *"EXITED 0"* ]]
}
