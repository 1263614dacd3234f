#!/usr/bin/env bats
# The `hwtrace` Python module as a streaming iterator, and the C code that
# talks to CPython (the module, the -s runner) using only its public C API.
# Expected records come from `script --json` and synth's manifest; error
# positions from the bytes the test itself broke.

load lib/common

setup_file() {
	export T="$BATS_FILE_TMPDIR"
	"$HWTRACE" synth --type cxl-hmu --seed 5 --size 256K --manifest "$T/m.txt" -o "$T/hmu.data"
	export PYTHONPATH="$BUILD/python"
}

@test "plugins use only CPython's public C API (no _Py* names, no object internals)" {
	ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	# the patterns are spelt with a bracket so that this file does not match them
	run grep -rnE -e '(^|[^A-Za-z0-9_])_P[y][A-Za-z_]' -e 'ob_digi[t]|ob_ival|long_valu[e]' \
		-e '->ob_(refcnt|type|size)' "$ROOT/plugins" --include='*.c' --include='*.h'
	echo "$output"
	[ "$status" -eq 1 ]
}

# Python with the module, the synth files at hand and a helper or two.
py() {
	PYTHONPATH="$BUILD/python" python3 - "$@"
}

@test "records from the iterator equal script --json, in number synth's manifest gives" {
	# 32695 records: many times the queue's 2 MiB, so chunks are reused
	"$HWTRACE" script --json -i "$T/hmu.data" 2>/dev/null >"$T/hmu.json"
	py "$T/hmu.data" "$T/hmu.json" "$T/m.txt" <<'EOF'
import hwtrace, json, sys, time
def num(v):
    if isinstance(v, str) and (v.startswith("0x") or v.isdigit()):
        return int(v, 0)
    return v
want = [{k: num(v) for k, v in json.loads(l).items()} for l in open(sys.argv[2])]
units = sum(1 for l in open(sys.argv[3]) if not l.startswith("#"))
got = []
for i, r in enumerate(hwtrace.open(sys.argv[1])):
    got.append(r)
    if i % 5000 == 0:
        time.sleep(0.05)        # a slow consumer: the worker waits on a full queue
assert len(got) == len(want) == units, (len(got), len(want), units)
assert got == want
assert list(got[0]) == list(want[0])            # keys in script --json's order
assert json.loads(json.dumps(got[-1])) == got[-1]
EOF
}

@test "the first record comes while the input is still being written (a FIFO)" {
	"$HWTRACE" synth --type cxl-hmu --seed 5 --size 256K --pipe -o "$T/pipe.data"
	# the first AUXTRACE with its payload ends here; the manifest's first aux has 1061 units
	end=$(python3 "$BATS_TEST_DIRNAME/lib/perfdata.py" records "$T/pipe.data" |
	      awk '$2 == 71 { print $1 + $3 + $4; exit }')
	mkfifo "$T/fifo"
	timeout 60 env PYTHONPATH="$BUILD/python" python3 - "$T/pipe.data" "$T/fifo" "$end" <<'EOF'
import hwtrace, sys, threading
data, fifo, end = open(sys.argv[1], "rb").read(), sys.argv[2], int(sys.argv[3])
got_first = threading.Event()
def writer():
    with open(fifo, "wb") as w:
        w.write(data[:end])
        w.flush()
        # the rest only once a record came (or after 20 s, so the old code ends too)
        got_first.wait(20)
        w.write(data[end:])
threading.Thread(target=writer).start()
it = hwtrace.open(fifo)
first = next(it)
early = not got_first.is_set()
got_first.set()
n = 1 + sum(1 for _ in it)
assert early, "the first record came only after the whole input"
assert first["type"] == "cxl_hmu_unit", first
assert n == 32695, n
EOF
}

@test "dropping an iterator early (del, break, close, with, exception, exit) stops its worker" {
	"$HWTRACE" synth --type cxl-hmu --seed 1 --size 16M -o "$T/big.data"
	py "$T/big.data" <<'EOF'
import gc, hwtrace, os, resource, sys, time
f = sys.argv[1]
def threads():
    return len(os.listdir("/proc/self/task"))
def rss_kib():
    return int(open("/proc/self/statm").read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
base = threads()
def check(how, t0):
    # the drop joined the worker (it waits 2 s before it would detach it)
    dt = time.monotonic() - t0
    assert dt < 1.0, (how, dt)
    # a joined thread's /proc/self/task entry goes a moment after the join
    # returns (the kernel wakes the joiner before it unhashes the thread)
    end = time.monotonic() + 1.0
    while threads() != base and time.monotonic() < end:
        time.sleep(0.001)
    assert threads() == base, (how, threads(), base)

class Stop(Exception):
    pass
def drops():
    it = hwtrace.open(f)
    for _ in range(10):
        next(it)
    t0 = time.monotonic(); del it; check("del", t0)
    for i, r in enumerate(hwtrace.open(f)):
        if i == 1000:
            t0 = time.monotonic()
            break
    check("break", t0)
    it = hwtrace.open(f)
    next(it)
    t0 = time.monotonic(); it.close(); check("close", t0)
    assert next(it, None) is None           # a closed iterator ends
    with hwtrace.open(f) as it:
        next(it)
        t0 = time.monotonic()
    check("with", t0)
    try:
        for r in hwtrace.open(f):
            t0 = time.monotonic()
            raise Stop
    except Stop:
        pass
    check("exception", t0)
    it = hwtrace.open(f)                    # never iterated
    t0 = time.monotonic(); del it; check("unused", t0)
drops()
rss = rss_kib()
for _ in range(20):
    drops()
gc.collect()
# nothing kept per iterator: 120 more of them moved RSS by less than one queue
assert rss_kib() - rss < 2048, (rss, rss_kib())
EOF
	# an iterator alive at interpreter exit does not keep the process
	run timeout 20 env PYTHONPATH="$BUILD/python" python3 -c '
import hwtrace, sys
it = hwtrace.open(sys.argv[1])
print(next(it)["type"])' "$T/big.data"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = cxl_hmu_unit ]
}

@test "close() from another thread ends a __next__ that waits on a silent pipe" {
	"$HWTRACE" synth --type cxl-hmu --seed 5 --size 256K --pipe -o "$T/pipe2.data"
	end=$(python3 "$BATS_TEST_DIRNAME/lib/perfdata.py" records "$T/pipe2.data" |
	      awk '$2 == 71 { print $1 + $3 + $4; exit }')
	mkfifo "$T/fifo2"
	timeout 60 env PYTHONPATH="$BUILD/python" python3 - "$T/pipe2.data" "$T/fifo2" "$end" <<'EOF'
import hwtrace, os, sys, threading, time
data, fifo, end = open(sys.argv[1], "rb").read(), sys.argv[2], int(sys.argv[3])
base = len(os.listdir("/proc/self/task"))
done = threading.Event()
def writer():
    with open(fifo, "wb") as w:
        w.write(data[:end])
        w.flush()
        done.wait(30)           # silent until the test is over
threading.Thread(target=writer).start()
it = hwtrace.open(fifo)
second = []
def closer():
    time.sleep(0.5)
    try:
        next(it)                # a second __next__ while the first waits
    except ValueError as e:
        second.append(str(e))
    it.close()
threading.Thread(target=closer).start()
t0 = time.monotonic()
n = sum(1 for _ in it)          # 1061 records, then waits for more until close()
dt = time.monotonic() - t0
done.set()
assert n == 1061, n
assert 0.4 < dt < 5, dt
assert second and "already running" in second[0], second
assert next(it, None) is None
for _ in range(50):             # the worker ends once its read returns
    if len(os.listdir("/proc/self/task")) <= base:
        break
    time.sleep(0.1)
else:
    raise SystemExit("threads left: %d" % len(os.listdir("/proc/self/task")))
EOF
}

@test "an error arrives in order: strict=True raises it after the records before it" {
	cp "$T/hmu.data" "$T/bad.data"
	# the second AUXTRACE claims more payload than the file holds
	off=$(python3 "$BATS_TEST_DIRNAME/lib/perfdata.py" records "$T/bad.data" |
	      awk '$2 == 71 { if (++n == 2) { print $1; exit } }')
	python3 "$BATS_TEST_DIRNAME/lib/perfdata.py" set-u64 "$T/bad.data" $((off + 8)) 0x7fffffffffff0000
	# records of the first AUXTRACE, as synth wrote them
	first=$(awk '/^# aux/ { n++ } n == 1 && !/^#/' "$T/m.txt" | wc -l)
	py "$T/bad.data" "$(printf '%#x' "$off")" "$first" <<'EOF'
import hwtrace, sys
f, off, first = sys.argv[1], sys.argv[2], int(sys.argv[3])
got = []
it = hwtrace.open(f, strict=True)
try:
    for r in it:
        got.append(r)
except ValueError as e:
    msg = str(e)
else:
    raise SystemExit("no ValueError")
assert len(got) == first == 1061, (len(got), first)
assert msg.startswith("%s: offset %s: PERF_RECORD_AUXTRACE: " % (f, off)), msg
assert it.errors == 1
assert next(it, None) is None           # it ended there
# without strict the error is counted and decoding goes on past it
it = hwtrace.open(f)
rest = list(it)
assert rest[:first] == got and len(rest) >= first
assert it.errors >= 1
EOF
}

@test "open() raises OSError at once for an input it cannot read" {
	echo "hello, this text is no perf.data" >"$T/text"
	py "$T/text" <<'EOF'
import hwtrace, sys
for f, why in (("/nonexistent/x.data", "cannot open"), (sys.argv[1], "not a perf.data file")):
    try:
        hwtrace.open(f)
    except OSError as e:
        assert why in str(e) and f in str(e), str(e)
    else:
        raise SystemExit("no OSError for " + f)
EOF
}
