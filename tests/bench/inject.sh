#!/usr/bin/env bash
# inject.sh TOOL - records/s delivered into a Python hook by `perf hwtrace
# script -s` versus stock `perf script -s` on the injected file (same hook,
# same records; ratio from one run of this script), and inject throughput.
# Wall time and CPU time (user + sys of the child) are both shown, each the
# best of INJECT_BENCH_RUNS (3) alternating runs of either tool, which keeps
# a busy machine's noise out of the ratio; the CPU ratio is the steadier one.
# INJECT_BENCH_SIZE sets the AUX payload (4M).
# The target ratio is for a handler without perf_sample_dict; a second line
# shows trace_unhandled with perf_sample_dict (what the shipped scripts take).
set -eu
tool=${1:?usage: inject.sh PATH/TO/perf-hwtrace}
size=${INJECT_BENCH_SIZE:-4M}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$tool" synth --type cxl-hmu --seed 1 --size "$size" -o "$dir/in.data"
cat >"$dir/hook.py" <<'PY'
n = 0
def hwtrace__cxl_hmu_unit(event_name, context, common_cpu, common_secs, common_nsecs,
                          common_pid, common_comm, common_callchain, cpu, time, pmu, unit,
                          count, counter_width, dpa, hpa, raw):
    global n
    n += 1
def trace_end():
    print(n)
PY
cat >"$dir/dict.py" <<'PY'
n = 0
def trace_unhandled(event_name, context, fields, perf_sample_dict):
    global n
    n += 1
def trace_end():
    print(n)
PY

python3 - "$tool" "$dir" <<'PY'
import os, resource, subprocess, sys, time

tool, d = sys.argv[1], sys.argv[2]
env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")

runs = int(os.environ.get("INJECT_BENCH_RUNS", "3"))

def run1(cmd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, check=True)
    wall = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return p.stdout, wall, cpu

def best(results):
    return results[0][0], min(r[1] for r in results), min(r[2] for r in results)

def run(cmd):
    return best([run1(cmd)])

def pair(a, b, n):
    """Best of n runs each of a and b, alternated so both see the same machine."""
    ra, rb = [], []
    for _ in range(n):
        ra.append(run1(a))
        rb.append(run1(b))
    return best(ra), best(rb)

_, iw, ic = run([tool, "inject", "-i", d + "/in.data", "-o", d + "/inj.data"])
(out, ow, oc), (sout, sw, sc) = pair([tool, "script", "-i", d + "/in.data", "-s", d + "/hook.py"],
                                    ["perf", "script", "-i", d + "/inj.data", "-s", d + "/hook.py"],
                                    runs)
n, ns = int(out.split()[-1]), int(sout.split()[-1])
if n != ns:
    sys.exit("record counts differ: %d vs %d" % (n, ns))
insz = os.path.getsize(d + "/in.data") / 1e6
outsz = os.path.getsize(d + "/inj.data") / 1e6
print("inject:                 %7.1f MB/s in, %7.1f MB/s out  (%.1f -> %.1f MB, %.2f s wall, "
      "%.2f s cpu, %.0f records/s)" % (insz / iw, outsz / iw, insz, outsz, iw, ic, n / iw))
print("perf hwtrace script -s: %9.0f records/s wall, %9.0f records/s cpu  (%d records)"
      % (n / ow, n / oc, n))
print("stock perf script -s:   %9.0f records/s wall, %9.0f records/s cpu"
      % (n / sw, n / sc))
print("ratio ours/stock:       %9.1fx wall, %9.1fx cpu  (target >= 5x)" % (sw / ow, sc / oc))
out, ow, oc = run([tool, "script", "-i", d + "/in.data", "-s", d + "/dict.py"])
sout, sw, sc = run(["perf", "script", "-i", d + "/inj.data", "-s", d + "/dict.py"])
if int(out.split()[-1]) != n or int(sout.split()[-1]) != n:
    sys.exit("trace_unhandled record counts differ")
print("with perf_sample_dict:  %9.0f records/s cpu ours, %9.0f stock: %.1fx wall, %.1fx cpu"
      % (n / oc, n / sc, sw / ow, sc / oc))
PY
