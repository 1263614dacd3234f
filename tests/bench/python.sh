#!/usr/bin/env bash
# python.sh TOOL - the hwtrace Python module as a streaming iterator: time
# from hwtrace.open() to the first record of a 64 MiB file (target < 50 ms),
# peak RSS over a whole 64 MiB and a whole 1 GiB file (target: flat, the
# 1 GiB run within PY_BENCH_SLACK_KIB (8192) of the 64 MiB one), and records/s
# of `for r in hwtrace.open(f): n += 1` (target >= 1M/s).  Each figure comes
# from a child process of its own (time.monotonic, getrusage ru_maxrss);
# first-record times are the best of PY_BENCH_RUNS (3).  PY_BENCH_BIG sets
# the large size (1G).  The module is build/python next to TOOL.
set -eu
tool=${1:?usage: python.sh PATH/TO/perf-hwtrace}
big=${PY_BENCH_BIG:-1G}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$tool" synth --type cxl-hmu --seed 1 --size 64M -o "$dir/64m.data"
"$tool" synth --type cxl-hmu --seed 1 --size "$big" -o "$dir/big.data"

PYTHONPATH="$(cd "$(dirname "$tool")" && pwd)/python" python3 - "$dir" "$big" <<'PY'
import os, subprocess, sys

d, big = sys.argv[1], sys.argv[2]
runs = int(os.environ.get("PY_BENCH_RUNS", "3"))
slack = int(os.environ.get("PY_BENCH_SLACK_KIB", "8192"))

# the child: one measurement, printed as "KEY VALUE" lines
child = r'''
import resource, sys, time
import hwtrace
f, what = sys.argv[1], sys.argv[2]
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = time.monotonic()
it = hwtrace.open(f)
next(it)
t1 = time.monotonic()
print("first_ms", (t1 - t0) * 1e3)
if what == "all":
    n = 1
    t1 = time.monotonic()
    for r in it:
        n += 1
    t2 = time.monotonic()
    print("records", n)
    print("rate", (n - 1) / (t2 - t1))
    print("maxrss_kib", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    print("base_kib", base)
'''

def run(f, what):
    out = subprocess.run([sys.executable, "-c", child, f, what], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    return {k: float(v) for k, v in (l.split() for l in out.splitlines())}

first = min(run(d + "/64m.data", "first")["first_ms"] for _ in range(runs))
small = run(d + "/64m.data", "all")
large = run(d + "/big.data", "all")
mib = os.path.getsize(d + "/64m.data") / 2**20
bmib = os.path.getsize(d + "/big.data") / 2**20
print("first record, %.0f MiB file:  %8.1f ms (best of %d)   target < 50 ms  %s"
      % (mib, first, runs, "met" if first < 50 else "NOT met"))
print("peak RSS, %5.0f MiB file:     %8.0f KiB (python + module at open: %.0f KiB), %d records"
      % (mib, small["maxrss_kib"], small["base_kib"], small["records"]))
print("peak RSS, %5.0f MiB file:     %8.0f KiB (python + module at open: %.0f KiB), %d records"
      % (bmib, large["maxrss_kib"], large["base_kib"], large["records"]))
grow = large["maxrss_kib"] - small["maxrss_kib"]
print("peak RSS growth %s/64M:       %+8.0f KiB          target <= %d KiB (flat)  %s"
      % (big, grow, slack, "met" if grow <= slack else "NOT met"))
rate = min(small["rate"], large["rate"])
print("records/s into a Python loop: %8.0f (64M: %.0f, %s: %.0f)   target >= 1000000  %s"
      % (rate, small["rate"], big, large["rate"], "met" if rate >= 1e6 else "NOT met"))
PY
