#!/usr/bin/env bats
# Inputs that are FIFOs must never hang the tool (issue 14, item 3): each input
# is opened once (a FIFO cannot be opened and read twice: the writer of the
# first open is gone by the second), only regular files are peeked, top skips
# fdinfo entries that are not regular files, and SIGINT/SIGTERM end a tool
# blocked in open() or read().  Every run is bounded by `timeout 10`; a hang
# shows as status 124.

load lib/common

setup() {
	T=$(mktemp -d)
	"$HWTRACE" synth --type cxl-hmu --seed 3 --size 16K --pipe -o "$T/in.data" >/dev/null
}

teardown() {
	# a writer left blocked on a FIFO by a failing run
	for p in ${WRITERS:-}; do
		kill "$p" 2>/dev/null || true
	done
	rm -rf "$T"
}

# writer FIFO FILE: after a short delay, write FILE into FIFO at once and close
# it, as a recorder finishing does (bounded too)
writer() {
	timeout -k 2 10 python3 -c '
import sys, time
data = open(sys.argv[2], "rb").read()
time.sleep(0.2)
with open(sys.argv[1], "wb") as f:
    f.write(data)
' "$1" "$2" &
	WRITERS="${WRITERS:-} $!"
}

@test "script -i FIFO: a delayed writer's perf.data is read, 20 runs, never a hang" {
	"$HWTRACE" script -i "$T/in.data" >"$T/ref" 2>/dev/null
	[ -s "$T/ref" ]
	for i in $(seq 20); do
		rm -f "$T/fifo"
		mkfifo "$T/fifo"
		writer "$T/fifo" "$T/in.data"
		status=0
		timeout -k 2 10 "$HWTRACE" script -i "$T/fifo" >"$T/out" 2>"$T/err" || status=$?
		wait
		echo "run $i: status $status" >&2
		cat "$T/err" >&2
		[ "$status" -eq 0 ]
		cmp "$T/ref" "$T/out"
	done
}

@test "report -i FIFO: same report as from the file, 5 runs, never a hang" {
	"$HWTRACE" report -i "$T/in.data" >"$T/ref" 2>/dev/null
	[ -s "$T/ref" ]
	for i in $(seq 5); do
		rm -f "$T/fifo"
		mkfifo "$T/fifo"
		writer "$T/fifo" "$T/in.data"
		status=0
		timeout -k 2 10 "$HWTRACE" report -i "$T/fifo" >"$T/out" 2>"$T/err" || status=$?
		wait
		echo "run $i: status $status" >&2
		[ "$status" -eq 0 ]
		# the report names its input; the rest must match
		diff <(grep -v "$T" "$T/ref") <(grep -v "$T" "$T/out")
	done
}

@test "a FIFO input is grown to 1 MiB before it is read, and read whole" {
	# the writer asks the pipe's size once the reader has it open, then
	# writes; a 64 KiB pipe made writer and decoder take turns every 64 KiB
	[ "$(cat /proc/sys/fs/pipe-max-size)" -ge 1048576 ] || [ "$(id -u)" = 0 ] ||
		skip "pipe-max-size below 1 MiB: an unprivileged pipe cannot grow to it"
	# the generator's own account of the units it wrote
	"$HWTRACE" synth --type cxl-hmu --seed 3 --size 16K --pipe -o "$T/m.data" \
		--manifest "$T/m.txt" >/dev/null
	cmp "$T/m.data" "$T/in.data"
	want=$(grep -vc '^#' "$T/m.txt")
	mkfifo "$T/fifo"
	timeout -k 2 10 python3 - "$HWTRACE" "$T/fifo" "$T/in.data" >"$T/size" 2>"$T/err" <<'EOF'
import fcntl, os, subprocess, sys, time
F_GETPIPE_SZ = 1032
tool = subprocess.Popen([sys.argv[1], "script", "--null", "-i", sys.argv[2]],
                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
fd = os.open(sys.argv[2], os.O_WRONLY)      # returns once the tool has it open
end = time.time() + 5
while fcntl.fcntl(fd, F_GETPIPE_SZ) < 1 << 20 and time.time() < end:
    time.sleep(0.01)
print(fcntl.fcntl(fd, F_GETPIPE_SZ))
os.write(fd, open(sys.argv[3], "rb").read())
os.close(fd)
sys.stderr.write(tool.communicate()[1].decode())
sys.exit(tool.returncode)
EOF
	[ "$(cat "$T/size")" -eq 1048576 ]
	[ "$want" -gt 0 ]
	grep -qx "records: $want" "$T/err"
}

# a proc tree: pid 100 with a DRM fd whose fdinfo is real text, pid 200 with
# one whose fdinfo is a FIFO, pid 300 whose comm is a FIFO
fifo_tree() {
	local r=$1
	mkdir -p "$r/100/fd" "$r/100/fdinfo" "$r/200/fd" "$r/200/fdinfo" "$r/300/fd" "$r/300/fdinfo"
	echo app >"$r/100/comm"
	ln -s /dev/dri/renderD128 "$r/100/fd/3"
	printf 'drm-driver: i915\ndrm-client-id: 7\ndrm-engine-render: 100 ns\n' >"$r/100/fdinfo/3"
	echo fifo-app >"$r/200/comm"
	ln -s /dev/dri/renderD128 "$r/200/fd/3"
	mkfifo "$r/200/fdinfo/3"
	mkfifo "$r/300/comm"
	ln -s /dev/dri/renderD128 "$r/300/fd/4"
	printf 'drm-driver: i915\ndrm-client-id: 8\ndrm-engine-render: 5 ns\n' >"$r/300/fdinfo/4"
}

@test "top: a FIFO fdinfo or comm in the proc tree is skipped, top returns" {
	fifo_tree "$T/proc"
	run timeout -k 2 10 "$HWTRACE" top --proc "$T/proc" -n 2 -d 0 --json
	[ "$status" -eq 0 ]
	echo "$output" | tail -n 1 >"$T/out.json"
	python3 - "$T/out.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
got = sorted((c["client_id"], c["pids"], c["comm"]) for c in d["clients"])
assert got == [(7, [100], "app"), (8, [300], "")], got
PY
}

# term PID: SIGTERM to PID, which must be gone within 5 s (else it is killed
# and gone stays empty); its exit status in status
term() {
	kill -TERM "$1" 2>/dev/null || true
	gone=
	for i in $(seq 50); do
		kill -0 "$1" 2>/dev/null || { gone=1; break; }
		sleep 0.1
	done
	[ -n "$gone" ] || kill -KILL "$1"
	status=0
	wait "$1" || status=$?
	echo "gone=$gone status $status" >&2
}

@test "SIGTERM ends top promptly (handlers without SA_RESTART), with a status" {
	fifo_tree "$T/proc"
	"$HWTRACE" top --proc "$T/proc" -n 1000000 -d 0.1 --json >"$T/out" 2>&1 &
	sleep 1
	term $!
	[ -n "$gone" ]
	[ "$status" -eq 0 ]
}

@test "SIGTERM ends script blocked opening a FIFO with no writer, promptly, with a status" {
	mkfifo "$T/fifo"
	"$HWTRACE" script -i "$T/fifo" >"$T/out" 2>&1 &
	sleep 0.5
	term $!
	[ -n "$gone" ]
	[ "$status" -ne 0 ]
}
