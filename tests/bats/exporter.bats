#!/usr/bin/env bats
# perf hwtrace exporter against Debian's own Prometheus: the exporter serves
# a /proc-shaped tree written here (fdinfo with known memory and busy time),
# a real `prometheus` scrapes it every second, and its query API must give
# back what the tree says.  Ports are free loopback ports chosen at run
# time; every wait is bounded; both servers are killed in teardown.
# --rescan 0: the tree is plain files, which a kept fd reads after they are
# deleted or replaced, so every scrape rescans it as it would /proc.

load lib/common
load lib/gpu_sysfs

setup() {
	T=$(mktemp -d)
	EXP_PID= PROM_PID= WRITER_PID=
	P=$T/proc
	mkdir -p "$P"
}

teardown() {
	local p
	for p in $WRITER_PID $PROM_PID $EXP_PID; do
		kill "$p" 2>/dev/null || true
	done
	for p in $WRITER_PID $PROM_PID $EXP_PID; do
		timeout 20 tail --pid="$p" -f /dev/null 2>/dev/null || kill -9 "$p" 2>/dev/null || true
	done
	rm -rf "$T"
}

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# mkfd PID COMM FD LINK-TARGET FDINFO-TEXT (the fdinfo replaced by a rename, whole)
mkfd() {
	local d=$P/$1
	mkdir -p "$d/fd" "$d/fdinfo"
	printf '%s\n' "$2" >"$d/comm"
	ln -sfn "$4" "$d/fd/$3"
	printf '%s' "$5" >"$d/fdinfo/.$3.tmp"
	mv -f "$d/fdinfo/.$3.tmp" "$d/fdinfo/$3"
}

i915() { # $1 render ns
	printf 'drm-driver:\ti915\ndrm-client-id:\t39\ndrm-pdev:\t0000:00:02.0\n'
	printf 'drm-total-system0:\t6044 KiB\ndrm-shared-system0:\t0\ndrm-active-system0:\t0\n'
	printf 'drm-resident-system0:\t4096 KiB\ndrm-purgeable-system0:\t1688 KiB\n'
	printf 'drm-engine-render:\t%s ns\ndrm-engine-copy:\t500 ns\n' "$1"
	printf 'drm-engine-video:\t0 ns\ndrm-engine-capacity-video:\t2\n'
}

xe() {
	printf 'drm-driver:\txe\ndrm-client-id:\t7\ndrm-pdev:\t0000:03:00.0\n'
	printf 'drm-total-vram0:\t23992 KiB\ndrm-resident-vram0:\t23992 KiB\n'
	printf 'drm-cycles-rcs:\t123456\ndrm-total-cycles-rcs:\t999999\n'
}

# The fixture: client 39 held by pids 100 and 101 (100 the lowest), client 7
# by pid 300 whose comm needs escaping (quote, backslash, newline, a byte
# that is not UTF-8).
fixture() {
	mkfd 101 Xorg-child 7 /dev/dri/card0 "$(i915 1000000000)"
	mkfd 100 Xorg 3 /dev/dri/card0 "$(i915 1000000000)"
	mkfd 100 Xorg 4 'socket:[1234]' 'drm-driver: not-drm'
	mkfd 300 "$(printf 'we"ird\\na\nme\xff')" 5 /dev/dri/renderD128 "$(xe)"
}

# start_exporter ARGS...: on a free port; EP its port, URL its /metrics
start_exporter() {
	EP=$(free_port)
	URL=http://127.0.0.1:$EP/metrics
	"$HWTRACE" exporter --listen "127.0.0.1:$EP" --proc "$P" --rescan 0 "$@" \
		2>"$T/exporter.err" &
	EXP_PID=$!
	timeout 20 bash -c "until curl -sf -o /dev/null '$URL'; do sleep 0.1; done" || {
		cat "$T/exporter.err"
		return 1
	}
}

start_prometheus() {
	PP=$(free_port)
	PROM=http://127.0.0.1:$PP
	cat >"$T/prometheus.yml" <<-EOF
	global:
	  scrape_interval: 1s
	  scrape_timeout: 1s
	scrape_configs:
	  - job_name: hwtrace
	    static_configs:
	      - targets: ['127.0.0.1:$EP']
	EOF
	prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/tsdb" \
		--web.listen-address="127.0.0.1:$PP" --log.level=warn >"$T/prometheus.log" 2>&1 &
	PROM_PID=$!
	timeout 60 bash -c "until curl -sf -o /dev/null '$PROM/-/ready'; do sleep 0.2; done" || {
		cat "$T/prometheus.log"
		return 1
	}
}

# query PROMQL: one "labels=value" line per result, labels as JSON, sorted
query() {
	curl -sf --max-time 10 --get --data-urlencode "query=$1" "$PROM/api/v1/query" |
		python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["status"] == "success", r
for s in sorted(r["data"]["result"], key=lambda s: json.dumps(s["metric"], sort_keys=True)):
    m = {k: v for k, v in s["metric"].items() if k not in ("__name__", "job", "instance")}
    print(json.dumps(m, sort_keys=True, ensure_ascii=False) + "=" + s["value"][1])
'
}

# series_line VALUE NAME=VALUE...: what query prints for that series
series_line() {
	python3 -c 'import json, sys
print(json.dumps(dict(a.split("=", 1) for a in sys.argv[2:]), sort_keys=True,
                 ensure_ascii=False) + "=" + sys.argv[1])' "$@"
}

# wait_for PROMQL TEST: until the query's output passes the bash test TEST on
# $out (60 s at most)
wait_for() {
	local i
	for i in $(seq 120); do
		out=$(query "$1") || true
		eval "$2" && return 0
		sleep 0.5
	done
	echo "gave up waiting: $1 -> [$out]"
	return 1
}

@test "exporter: Prometheus stores the memory gauges the fdinfo tree holds, with the issue's labels" {
	command -v prometheus || skip "no prometheus (Debian package prometheus)"
	fixture
	start_exporter
	start_prometheus
	wait_for 'hwtrace_drm_client_memory_bytes' '[ "$(echo "$out" | grep -c .)" -eq 7 ]'
	# independent figures: the fixture's KiB x 1024
	expected=$(python3 - <<-'PY'
	import json
	c39 = {"client_id": "39", "comm": "Xorg", "driver": "i915", "pdev": "0000:00:02.0", "pid": "100"}
	c7 = {"client_id": "7", "comm": "we\"ird\\na\nme\ufffd", "driver": "xe", "pdev": "0000:03:00.0", "pid": "300"}
	rows = []
	for kind, kib in (("total", 6044), ("shared", 0), ("active", 0), ("resident", 4096),
	                  ("purgeable", 1688)):
	    rows.append((dict(c39, region="system0", kind=kind), kib * 1024))
	for kind in ("total", "resident"):
	    rows.append((dict(c7, region="vram0", kind=kind), 23992 * 1024))
	lines = sorted(json.dumps(m, sort_keys=True, ensure_ascii=False) for m, _ in rows)
	vals = {json.dumps(m, sort_keys=True, ensure_ascii=False): v for m, v in rows}
	print("\n".join(f"{l}={vals[l]}" for l in lines))
	PY
	)
	echo "got:"; echo "$out"; echo "expected:"; echo "$expected"
	[ "$out" = "$expected" ]
	# the other series the issue names, as the tree says
	local c39=(client_id=39 comm=Xorg driver=i915 pdev=0000:00:02.0 pid=100)
	local c7=(client_id=7 "comm=$(printf 'we"ird\\na\nme\xef\xbf\xbd')" driver=xe
		  pdev=0000:03:00.0 pid=300)
	out=$(query 'hwtrace_drm_client_engine_capacity')
	[ "$out" = "$(series_line 2 "${c39[@]}" engine=video)" ]
	out=$(query 'hwtrace_drm_client_engine_cycles_total')
	[ "$out" = "$(series_line 123456 "${c7[@]}" engine=rcs)" ]
	out=$(query 'hwtrace_drm_client_engine_busy_seconds_total{engine="copy"}')
	[ "$out" = "$(series_line 5e-07 "${c39[@]}" engine=copy)" ]
	out=$(query 'hwtrace_exporter_scrape_errors_total')
	[ "$out" = "{}=0" ]
	out=$(query 'hwtrace_exporter_scrape_duration_seconds > 0')
	[ -n "$out" ]
}

@test "exporter: Prometheus's rate() of the busy counter equals the rate the tree's writer keeps" {
	command -v prometheus || skip "no prometheus (Debian package prometheus)"
	fixture
	# render busy time grows at 0.25 s per second of wall time, rewritten every
	# 20 ms in both holders' fdinfo (one client: the kernel prints the same)
	python3 - "$(i915 @NS@)" "$P/100/fdinfo/3" "$P/101/fdinfo/7" <<-'PY' &
	import os, sys, time
	text, paths = sys.argv[1], sys.argv[2:]
	t0 = time.time()
	while True:
	    ns = 1000000000 + int((time.time() - t0) * 0.25e9)
	    for path in paths:
	        with open(path + ".tmp", "w") as f:
	            f.write(text.replace("@NS@", str(ns)))
	        os.rename(path + ".tmp", path)
	    time.sleep(0.02)
	PY
	WRITER_PID=$!
	start_exporter
	start_prometheus
	# samples 1 s apart covering more than the rate window: rate() then needs
	# no extrapolation to the window's start, where the series did not exist
	wait_for 'count_over_time(hwtrace_drm_client_engine_busy_seconds_total{engine="render"}[30s])' \
		'[ "${out##*=}" -ge 14 ] 2>/dev/null'
	out=$(query 'rate(hwtrace_drm_client_engine_busy_seconds_total{engine="render"}[10s])')
	echo "$out"
	# Each sample is the writer's value of up to 20 ms before the read, and
	# the scrape's timestamp is taken a few ms before the read: over ~9 s
	# between the window's first and last samples that is < 1% either way;
	# 3% leaves room for a loaded machine delaying the writer.
	python3 -c 'import sys; r = float(sys.argv[1]); print(r); assert abs(r - 0.25) <= 0.25 * 0.03' \
		"${out##*=}"
	# the counters the tree keeps still have a rate of exactly 0
	out=$(query 'rate(hwtrace_drm_client_engine_busy_seconds_total{engine="copy"}[10s])')
	[ "${out##*=}" = 0 ]
}

@test "exporter: an exited client's series disappear, from /metrics and from Prometheus" {
	command -v prometheus || skip "no prometheus (Debian package prometheus)"
	fixture
	start_exporter
	start_prometheus
	wait_for 'hwtrace_drm_client_memory_bytes{client_id="7"}' '[ -n "$out" ]'
	rm -rf "$P/300"
	curl -sf "$URL" >"$T/m"
	! grep -q 'client_id="7"' "$T/m" || false
	grep -q 'client_id="39"' "$T/m"
	# a series gone from the scrape is marked stale: instant queries stop returning it
	wait_for 'hwtrace_drm_client_memory_bytes{client_id="7"}' '[ -z "$out" ]'
	out=$(query 'count(hwtrace_drm_client_memory_bytes{client_id="39"})')
	[ "$out" = "{}=5" ]
	# client 39 outlives its first holder: pid becomes the lowest one left
	rm -rf "$P/100"
	curl -sf "$URL" >"$T/m"
	grep -q 'client_id="39",pid="101",comm="Xorg-child"' "$T/m"
}

@test "exporter: with no full rescan due, each scrape finds new clients and drops exited ones" {
	fixture
	start_exporter --rescan 86400	# only the cheap scan for new clients runs
	curl -sf "$URL" >"$T/m"
	grep -q 'client_id="39",pid="100",comm="Xorg"' "$T/m"
	grep -q 'client_id="7"' "$T/m"
	! grep -q 'client_id="40"' "$T/m" || false
	# a new process
	mkfd 400 newapp 9 /dev/dri/card0 "$(i915 5000 | sed 's/client-id:\t39/client-id:\t40/')"
	curl -sf "$URL" >"$T/m"
	grep -q 'hwtrace_drm_client_engine_busy_seconds_total{driver="i915",pdev="0000:00:02.0",client_id="40",pid="400",comm="newapp",engine="render"} 0.000005000$' "$T/m"
	# a new DRM fd in a process already known (pid 300 held only client 7)
	mkfd 300 ignored 11 /dev/dri/card0 "$(i915 7000 | sed 's/client-id:\t39/client-id:\t41/')"
	curl -sf "$URL" >"$T/m"
	grep -q 'client_id="41",pid="300",.*engine="render"} 0.000007000$' "$T/m"
	grep -q 'client_id="7",pid="300"' "$T/m"
	# exits: the process's clients go, a shared client's pid becomes the lowest left
	rm -rf "$P/400" "$P/100"
	curl -sf "$URL" >"$T/m"
	! grep -q 'client_id="40"' "$T/m" || false
	grep -q 'client_id="39",pid="101",comm="Xorg-child"' "$T/m"
	! grep -q 'pid="100"' "$T/m" || false
	# a closed fd: client 41 goes, client 7 of the same process stays
	rm -f "$P/300/fd/11" "$P/300/fdinfo/11"
	curl -sf "$URL" >"$T/m"
	! grep -q 'client_id="41"' "$T/m" || false
	grep -q 'client_id="7",pid="300"' "$T/m"
	# pid 300 reused by another process (a new directory, same fd count): its
	# <pid>/fd kept since the last scan is not the one to stat
	rm -rf "$P/300"
	mkfd 300 reborn 5 /dev/dri/card0 "$(i915 9000 | sed 's/client-id:\t39/client-id:\t42/')"
	curl -sf "$URL" >"$T/m"
	grep -q 'client_id="42",pid="300",comm="reborn",engine="render"} 0.000009000$' "$T/m"
	! grep -q 'client_id="7"' "$T/m" || false
}

# syscalls SINCE: the traced exporter's readlinkat, <pid>/fd stat and O_PATH open calls after
# line SINCE of the trace; a stat of a kept fd (no path) is "newfstatat kept"
syscalls() {
	tail -n +"$(($1 + 1))" "$T/trace" |
		grep -E 'readlinkat\(|newfstatat\([0-9]+, ("[0-9]+/fd"|"", .*AT_EMPTY_PATH)|openat\([0-9]+, "[0-9]+/fd", [^)]*O_PATH' |
		sed -E 's/^[0-9]+ +//; s/\(([0-9]+, )?"?([^",]*)"?.*/ \2/; s/^newfstatat $/newfstatat kept/' |
		sort
}

@test "exporter: the scan for new clients classifies only fds it has not seen (strace)" {
	command -v strace || skip "no strace (Debian package strace)"
	fixture
	EP=$(free_port)
	URL=http://127.0.0.1:$EP/metrics
	# strace is the exporter's parent (no ptrace permission needed); exec keeps the pid
	strace -f -qq -e trace=readlinkat,newfstatat,openat -o "$T/trace" \
		bash -c 'echo $$ >"$1"; shift; exec "$@"' - "$T/pid" \
		"$HWTRACE" exporter --listen "127.0.0.1:$EP" --proc "$P" --rescan 86400 \
		2>"$T/exporter.err" &
	WRITER_PID=$!	# strace: killed in teardown too
	timeout 20 bash -c "until curl -sf -o /dev/null '$URL'; do sleep 0.1; done"
	EXP_PID=$(cat "$T/pid")
	# the first scan for new clients opens each <pid>/fd (O_PATH) and keeps it for the next
	n=$(wc -l <"$T/trace")
	curl -sf "$URL" >"$T/m"
	run syscalls "$n"
	[ "$output" = "$(printf 'newfstatat kept\nnewfstatat kept\nnewfstatat kept\nopenat 100/fd\nopenat 101/fd\nopenat 300/fd')" ]
	n=$(wc -l <"$T/trace")
	curl -sf "$URL" >"$T/m"
	# nothing changed: one stat of a kept fd per process (no path walk), no fd classified
	run syscalls "$n"
	[ "$output" = "$(printf 'newfstatat kept\nnewfstatat kept\nnewfstatat kept')" ]
	mkfd 300 ignored 11 /dev/dri/card0 "$(i915 7000 | sed 's/client-id:\t39/client-id:\t41/')"
	n=$(wc -l <"$T/trace")
	curl -sf "$URL" >"$T/m"
	grep -q 'client_id="41",pid="300"' "$T/m"
	# pid 300 changed: its one new fd is classified (a stat that fails here, then the
	# link), its known fd 5 is not
	run syscalls "$n"
	[ "$(grep -c '^newfstatat kept$' <<<"$output")" = 3 ]
	[ "$(grep -c '^readlinkat' <<<"$output")" = 1 ]
}

@test "exporter: promtool check metrics passes on a scrape, and label values are escaped" {
	command -v promtool || skip "no promtool (Debian package prometheus)"
	fixture
	start_exporter
	curl -sf -D "$T/headers" "$URL" >"$T/m"
	promtool check metrics <"$T/m"
	grep -qi '^content-type: text/plain; version=0.0.4; charset=utf-8' "$T/headers"
	# the comm label: " and \ escaped, the newline as \n, the bad byte as U+FFFD
	grep -qF "comm=\"we\\\"ird\\\\na\\nme$(printf '\xef\xbf\xbd')\"" "$T/m"
	# every family once, with HELP and TYPE; counters end in _total
	for f in hwtrace_drm_client_engine_busy_seconds_total:counter \
		 hwtrace_drm_client_engine_cycles_total:counter \
		 hwtrace_drm_client_engine_capacity:gauge hwtrace_drm_client_memory_bytes:gauge \
		 hwtrace_exporter_scrape_duration_seconds:gauge \
		 hwtrace_exporter_scrape_errors_total:counter; do
		[ "$(grep -c "^# TYPE ${f%:*} ${f#*:}\$" "$T/m")" -eq 1 ]
		[ "$(grep -c "^# HELP ${f%:*} " "$T/m")" -eq 1 ]
	done
	# busy seconds are the ns exactly: 1000000000 ns
	grep -q '^hwtrace_drm_client_engine_busy_seconds_total{.*client_id="39".*engine="render"} 1.000000000$' "$T/m"
}

@test "exporter: 50 concurrent scrapes all get 200 and the whole text" {
	fixture
	start_exporter
	local i pids=()
	for i in $(seq 50); do
		curl -s --max-time 30 -o "$T/c.$i" -w '%{http_code}\n' "$URL" >"$T/code.$i" &
		pids+=($!)
	done
	wait "${pids[@]}"
	for i in $(seq 50); do
		[ "$(cat "$T/code.$i")" = 200 ]
		tail -n 1 "$T/c.$i" | grep -q '^hwtrace_exporter_scrape_errors_total 0$'
	done
}

@test "exporter: a slow client, a 1 MiB request line and unknown paths leave it serving" {
	fixture
	start_exporter
	# a client that sends half a request and keeps the connection open
	python3 - "$EP" <<-'PY' &
	import socket, sys, time
	s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
	s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
	time.sleep(8)
	PY
	local slow=$!
	sleep 0.5
	[ "$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' "$URL")" = 200 ]
	# a 1 MiB request line is refused (4xx) or the connection closed, never served
	code=$(python3 - "$EP" <<-'PY'
	import socket, sys
	s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
	try:
	    s.sendall(b"GET /" + b"a" * (1 << 20) + b" HTTP/1.1\r\nHost: x\r\n\r\n")
	    print(s.recv(64).split(b" ")[1].decode() or "closed")
	except (OSError, IndexError):
	    print("closed")
	PY
	)
	echo "1 MiB request line: $code"
	[[ $code == 4?? || $code == closed ]]
	[ "$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$EP/nope")" = 404 ]
	[ "$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$EP/")" = 404 ]
	# an escaped NUL does not end the path early
	[ "$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$EP/metrics%00")" = 404 ]
	[ "$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$EP/metrics%00x")" = 404 ]
	[ "$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' -X POST "$URL")" = 405 ]
	[ "$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' "$URL")" = 200 ]
	kill "$slow" 2>/dev/null || true
	wait "$slow" 2>/dev/null || true
	kill -0 "$EXP_PID"
}

@test "exporter: SIGTERM and SIGINT stop it with status 0" {
	fixture
	local sig
	for sig in TERM INT; do
		start_exporter
		kill -s "$sig" "$EXP_PID"
		st=0
		timeout 20 bash -c "while kill -0 $EXP_PID 2>/dev/null; do sleep 0.1; done"
		wait "$EXP_PID" || st=$?
		EXP_PID=
		echo "SIG$sig: $st"
		[ "$st" -eq 0 ]
	done
}

@test "exporter -e: a PMU event's system-wide count, as its own counter series" {
	fixture
	start_exporter -e cpu-clock
	if grep -q 'not supported here' "$T/exporter.err"; then
		skip "cpu-clock cannot be opened here: $(cat "$T/exporter.err")"
	fi
	a=$(curl -sf "$URL" | sed -n 's/^hwtrace_pmu_event_total{pmu="software",event="cpu-clock"} //p')
	t0=$(date +%s%N)
	sleep 1
	b=$(curl -sf "$URL" | sed -n 's/^hwtrace_pmu_event_total{pmu="software",event="cpu-clock"} //p')
	t1=$(date +%s%N)
	# cpu-clock counts ns on every online CPU: the count grows by CPUs x wall time
	ncpu=$(getconf _NPROCESSORS_ONLN)
	echo "a=$a b=$b wall=$((t1 - t0)) ncpu=$ncpu"
	python3 -c 'import sys; a, b, w, n = map(int, sys.argv[1:]); assert abs((b - a) - n * w) <= 0.1 * n * w' \
		"$a" "$b" $((t1 - t0)) "$ncpu"
	curl -sf "$URL" | promtool check metrics
}

@test "exporter: usage errors exit 2 before listening" {
	local port
	port=$(free_port)
	# ARGS|what the message must say
	while IFS='|' read -r args want; do
		run timeout 10 "$HWTRACE" exporter $args
		echo "$args: $status $output"
		[ "$status" -eq 2 ]
		[[ $output == "perf hwtrace exporter: "*"$want"* ]]
		[[ $output != *serving* ]]
	done <<EOF
|--listen ADDR:PORT is required
--listen 127.0.0.1|'127.0.0.1': not HOST:PORT
--listen 127.0.0.1:99999|bad port '99999' (0 to 65535)
--listen 127.0.0.1:x|bad port 'x'
--listen ::1:$port|an IPv6 address goes in brackets: [::1]:PORT
--listen [::1]|'[::1]': not HOST:PORT
--listen [::1:$port|'[::1:$port': an IPv6 address goes in brackets
--listen no.such.host.invalid:$port|'no.such.host.invalid':
--listen 127.0.0.1:$port -e no_such_pmu/foo/|unknown PMU 'no_such_pmu'
--listen 127.0.0.1:$port -e software/config=0,period=1000/|the exporter only counts
--listen 127.0.0.1:$port -e cpu-clock -e software/cpu-clock/|the same series as -e cpu-clock (pmu="software", event="cpu-clock")
--listen 127.0.0.1:$port --rescan -1|bad interval '-1'
--listen 127.0.0.1:$port extra|unexpected argument 'extra'
EOF
	# a port in use is not a usage error: it says so and exits 1
	python3 -c 'import socket, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
print(s.getsockname()[1], flush=True); time.sleep(10)' >"$T/held" &
	local holder=$!
	timeout 10 bash -c "until [ -s '$T/held' ]; do sleep 0.1; done"
	port=$(cat "$T/held")
	run timeout 10 "$HWTRACE" exporter --listen "127.0.0.1:$port" --proc "$P"
	kill "$holder" || true
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"cannot listen on 127.0.0.1:$port: Address already in use"* ]]
}

@test "exporter: hwtrace_gpu_* gauges are what the GPUs' sysfs and hwmon files say, absent values have no series" {
	command -v prometheus || skip "no prometheus (Debian package prometheus)"
	fixture
	mksys "$T/sys"
	start_exporter --sys "$T/sys"
	start_prometheus
	local i915=(card=card0 driver=i915 pdev=0000:00:02.0)
	local amd=(card=card1 driver=amdgpu pdev=0000:63:00.0)
	local xe=(card=card2 driver=xe pdev=0000:03:00.0)
	wait_for 'hwtrace_gpu_frequency_hertz' '[ "$(echo "$out" | grep -c .)" -eq 3 ]'
	# MHz files x 1e6; amdgpu's current level is the one marked '*'
	[ "$out" = "$(series_line 350000000 "${i915[@]}")
$(series_line 1200000000 "${amd[@]}")
$(series_line 1500000000 "${xe[@]}")" ]
	out=$(query 'hwtrace_gpu_max_frequency_hertz{card="card1"}')
	[ "$out" = "$(series_line 2100000000 "${amd[@]}")" ]
	# millidegrees / 1000; the i915 has no temp1_input: no series
	out=$(query 'hwtrace_gpu_temperature_celsius')
	[ "$out" = "$(series_line 45 "${amd[@]}")
$(series_line 52.5 "${xe[@]}")" ]
	# microwatts and microjoules
	out=$(query 'hwtrace_gpu_power_watts{card="card1"}')
	[ "$out" = "$(series_line 35 "${amd[@]}")" ]
	out=$(query 'hwtrace_gpu_energy_joules_total')
	[ "$out" = "$(series_line 1 "${i915[@]}")
$(series_line 7 "${xe[@]}")" ]
	out=$(query 'hwtrace_gpu_vram_total_bytes')
	[ "$out" = "$(series_line 17163091968 "${amd[@]}")
$(series_line 8589934592 "${xe[@]}")" ]
	out=$(query 'hwtrace_gpu_vram_used_bytes')
	[ "$out" = "$(series_line 1073741824 "${amd[@]}")" ]
	# a fake tree's PMU is never opened: no engine busy series
	[ -z "$(query 'hwtrace_gpu_engine_busy_seconds_total')" ]
	curl -sf "$URL" >"$T/m"
	promtool check metrics <"$T/m"
}

@test "exporter: a client without drm-client-id is labelled pid/fd, one per fd" {
	# two lima fds of pid 500, no id: two clients, as top shows fd4 and fd5
	mkfd 500 noid 4 /dev/dri/renderD128 $'drm-driver:\tlima\ndrm-engine-gp:\t2000 ns\n'
	mkfd 500 noid 5 /dev/dri/renderD128 $'drm-driver:\tlima\ndrm-engine-gp:\t3000 ns\n'
	start_exporter
	curl -sf "$URL" >"$T/m"
	grep -qxF 'hwtrace_drm_client_engine_busy_seconds_total{driver="lima",pdev="",client_id="500/4",pid="500",comm="noid",engine="gp"} 0.000002000' "$T/m"
	grep -qxF 'hwtrace_drm_client_engine_busy_seconds_total{driver="lima",pdev="",client_id="500/5",pid="500",comm="noid",engine="gp"} 0.000003000' "$T/m"
	promtool check metrics <"$T/m"
}
