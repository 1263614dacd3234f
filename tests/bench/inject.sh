#!/usr/bin/env bash
# inject.sh TOOL - records/s delivered into a Python hook by `perf hwtrace
# script -s` versus stock `perf script -s` on the injected file (same hook,
# same records; ratio from one run), and inject throughput.  Wall time and
# CPU time (user + sys of the child) are both shown: on a loaded machine the
# CPU ratio is the steadier one.  INJECT_BENCH_SIZE sets the AUX payload (4M).
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

python3 - "$tool" "$dir" <<'PY'
import os, resource, subprocess, sys, time

tool, d = sys.argv[1], sys.argv[2]
env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")

def run(cmd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, check=True)
    wall = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return p.stdout, wall, cpu

_, iw, ic = run([tool, "inject", "-i", d + "/in.data", "-o", d + "/inj.data"])
out, ow, oc = run([tool, "script", "-i", d + "/in.data", "-s", d + "/hook.py"])
sout, sw, sc = run(["perf", "script", "-i", d + "/inj.data", "-s", d + "/hook.py"])
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
PY
