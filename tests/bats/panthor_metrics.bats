#!/usr/bin/env bats
# panthor's readable report and derived metrics (issue 11 items 5 and 6).
# Expected figures are computed here, in python, from the raw counters that
# `script --json` prints of a synth file; sample intervals from the samples'
# timestamp_end_ns (not from the decoder's interval_ns field).

load lib/common

setup_file() {
	export T="$BATS_FILE_TMPDIR"
	"$HWTRACE" synth --type panthor --seed 7 --size 200K -o "$T/p.data"
	"$HWTRACE" synth --type panthor --counters 128 --seed 3 --size 200K -o "$T/p128.data"
	"$HWTRACE" synth --type cxl-hmu --seed 5 --size 16K -o "$T/hmu.data"
	"$HWTRACE" script --json -i "$T/p.data" > "$T/p.json" 2>/dev/null
	"$HWTRACE" script --json -i "$T/p128.data" > "$T/p128.json" 2>/dev/null
	cat > "$T/expect.py" <<'PY'
# Per block instance and counter, from script --json: total over all samples,
# per_second = values of samples with an interval / their intervals, where the
# interval of sample k is end_ns[k] - end_ns[k-1] (none for the first).
import json, sys
ends, tot, tot_iv, iv = {}, {}, {}, {}
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
for r in recs:
    ends.setdefault(r["sample"], r["timestamp_end_ns"])
order = sorted(ends)
gap = {s: (ends[s] - ends[p] if ends[s] > ends[p] else 0) for p, s in zip(order, order[1:])}
for r in recs:
    key = (r["block_type"], r["block_idx"])
    g = gap.get(r["sample"], 0)
    iv[key] = iv.get(key, 0) + g
    for name, v in r["counters"].items():
        if name in ("TIMESTAMP_LO", "TIMESTAMP_HI", "PRFCNT_EN", "RESERVED"):
            continue
        k = key + (name,)
        tot[k] = tot.get(k, 0) + v
        tot_iv[k] = tot_iv.get(k, 0) + (v if g else 0)
shift = {("shader", "FRAG_SHADER_THREADS"): 2} if len(sys.argv) > 2 else {}
for k in sorted(tot):
    sh = shift.get((k[0], k[2]), 0)
    ns = iv[k[:2]]
    ps = ((tot_iv[k] << sh) * 10**9 + ns // 2) // ns if ns else "-"
    print(k[0], k[1], k[2], tot[k] << sh, ps)
PY
	cat > "$T/metrics.py" <<'PY'
# Derived metrics of each sample from its raw counters (script --json), with
# the formulas of Documentation/panthor.rst; prints "sample name value".
import json, math, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
samples = {}
for r in recs:
    samples.setdefault(r["sample"], []).append(r)
order = sorted(samples)
prev = {s: p for p, s in zip(order, order[1:])}
def div(a, b):
    return a / b if b and a is not None else None
for s in order:
    blocks = samples[s]
    end = blocks[0]["timestamp_end_ns"]
    ns = end - samples[prev[s]][0]["timestamp_end_ns"] if s in prev else 0
    live = [b for b in blocks if "OFF" not in b["block_states"]]
    def tot(kind, name):
        vals = [b["counters"][name] for b in live if b["block_type"] == kind and name in b["counters"]]
        return sum(vals) if vals else None
    active = tot("cshw", "GPU_ACTIVE")
    core = tot("shader", "SHADER_CORE_ACTIVE")
    cores = sum(1 for b in live if b["block_type"] == "shader")
    prims = tot("tiler", "TRIANGLES") + tot("tiler", "LINES") + tot("tiler", "POINTS")
    secs = ns / 1e9
    rd, wr = tot("memsys", "L2_EXT_READ_BEATS") * 16, tot("memsys", "L2_EXT_WRITE_BEATS") * 16
    m = {
        "MaliGPUActiveCy": active,
        "MaliFragQueueUtil": 100 * div(tot("cshw", "ITER_FRAG_ACTIVE"), active),
        "MaliCompQueueUtil": 100 * div(tot("cshw", "ITER_COMP_ACTIVE"), active),
        "MaliTilerQueueUtil": 100 * div(tot("cshw", "ITER_TILER_ACTIVE"), active),
        "MaliTilerUtil": 100 * div(tot("tiler", "TILER_ACTIVE"), active),
        "MaliCoreCount": cores,
        "MaliCoreActiveCy": core,
        "MaliCoreUtil": 100 * div(core, cores * active),
        "MaliFragUtil": 100 * div(tot("shader", "FRAG_ACTIVE"), core),
        "MaliCompUtil": 100 * div(tot("shader", "COMPUTE_ACTIVE"), core),
        "MaliEngUtil": 100 * div(tot("shader", "EXEC_CORE_ACTIVE"), core),
        "MaliExtBusRdBy": rd, "MaliExtBusWrBy": wr,
        "MaliExtBusRdBw": div(rd, secs), "MaliExtBusWrBw": div(wr, secs),
        "MaliGeomTotalPrim": prims,
        "MaliGeomVisibleRate": 100 * div(tot("tiler", "PRIM_VISIBLE"), prims),
        "IntervalNs": ns or None,
    }
    for k, v in m.items():
        print(s, k, "null" if v is None else repr(float(v)))
PY
}

# report --json style: the panthor_counter table of report's text as "type idx name total ps"
counter_rows() {
	awk '/^  panthor_counter:/ { on = 1; getline; next } /^$/ { on = 0 }
	     on { print $1, $2, $3, $4, ($5 == "" ? "-" : $5) }' "$1"
}

@test "panthor report: one row per counter, every line fits 100 columns" {
	"$HWTRACE" report -i "$T/p.data" > "$T/r.txt" 2>/dev/null
	awk 'length($0) > 100 { print "too wide: " length($0); bad = 1 } END { exit bad }' "$T/r.txt"
	# per_mcycle and scaled columns cut off: compare block, idx, counter, total, per second
	counter_rows "$T/r.txt" | sort > "$T/got.txt"
	python3 "$T/expect.py" "$T/p.json" | sort > "$T/want.txt"
	[ "$(wc -l < "$T/want.txt")" -gt 500 ]
	diff "$T/want.txt" "$T/got.txt"
	grep -q '^    gpu  *Mali-G610$' "$T/r.txt"
}

@test "panthor report: --sort per_second --top 7 keeps the 7 highest rates, in order" {
	"$HWTRACE" report -i "$T/p.data" --sort per_second --top 7 > "$T/r.txt" 2>/dev/null
	counter_rows "$T/r.txt" > "$T/got.txt"
	python3 "$T/expect.py" "$T/p.json" | sort -k5,5nr -s | head -7 > "$T/want.txt"
	[ "$(wc -l < "$T/got.txt")" -eq 7 ]
	# equal rates may come in either order: compare the rates, then the rows as sets
	diff <(awk '{ print $5 }' "$T/want.txt") <(awk '{ print $5 }' "$T/got.txt")
	[ "$(awk '/^  panthor_aggregate:/ { on = 1; getline; next } /^$|^bytes:/ { on = 0 } on' \
		"$T/r.txt" | wc -l)" -eq 7 ]
	"$HWTRACE" report -i "$T/p.data" --sort name --top 3 > "$T/n.txt" 2>/dev/null
	counter_rows "$T/n.txt" | awk '{ print $3 }' > "$T/names.txt"
	sort -c "$T/names.txt"
}

@test "panthor report: libGPUCounters' shift scales FRAG_SHADER_THREADS on G715" {
	"$HWTRACE" report -i "$T/p128.data" > "$T/r.txt" 2>/dev/null
	counter_rows "$T/r.txt" | sort > "$T/got.txt"
	python3 "$T/expect.py" "$T/p128.json" shift | sort > "$T/want.txt"
	diff "$T/want.txt" "$T/got.txt"
	grep -E '^ +shader +0 +FRAG_SHADER_THREADS .* 2$' "$T/r.txt"
}

@test "panthor rates: report, script --json, the Python module and panthor-rates.py agree" {
	# fw[0] counter 7: issue 11 found report and the script 5x apart on it
	ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	want=$(python3 "$T/expect.py" "$T/p.json" | awk '$1 == "fw" && $2 == 0 && $3 == 7 { print $5 }')
	[ -n "$want" ]
	"$HWTRACE" report -i "$T/p.data" 2>/dev/null > "$T/r.txt"
	rep=$(counter_rows "$T/r.txt" | awk '$1 == "fw" && $2 == 0 && $3 == 7 { print $5 }')
	scr=$("$HWTRACE" script -i "$T/p.data" -s "$ROOT/scripts/panthor-rates.py" -- --csv \
		2>/dev/null | awk -F, '$1 == "fw" && $2 == 0 && $3 == 7 { print $6 }')
	# the module: sum of values over the sum of the records' interval_ns
	mod=$(PYTHONPATH="$BUILD/python" python3 -c '
import hwtrace, sys
v = ns = 0
for r in hwtrace.open(sys.argv[1]):
    if r["block_type"] == "fw" and r["interval_ns"]:
        v += r["counters"]["7"]; ns += r["interval_ns"]
print((v * 10**9 + ns // 2) // ns)' "$T/p.data")
	# script --json: the same from its interval_ns field
	js=$(python3 -c '
import json, sys
v = ns = 0
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["block_type"] == "fw" and r["interval_ns"]:
        v += r["counters"]["7"]; ns += r["interval_ns"]
print((v * 10**9 + ns // 2) // ns)' "$T/p.json")
	# and the script under stock perf, on the injected file
	"$HWTRACE" inject -i "$T/p.data" -o "$T/p.inj" 2>/dev/null
	stock=$(perf script -i "$T/p.inj" -s "$ROOT/scripts/panthor-rates.py" -- --csv 2>/dev/null |
		awk -F, '$1 == "fw" && $2 == 0 && $3 == 7 { print $6 }')
	echo "want $want report $rep script $scr module $mod json $js stock perf $stock"
	[ "$rep" = "$want" ]
	[ "$scr" = "$want" ]
	[ "$mod" = "$want" ]
	[ "$js" = "$want" ]
	[ "$stock" = "$want" ]
}

@test "panthor rates of scaled counters: panthor-rates.py, here and in stock perf, equal the shifted rates" {
	# FRAG_SHADER_THREADS counts in fours on G715: records keep the value
	# read and say so in "scaled"; the script applies it, as report does
	ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	# want: the rates worked out here from the raw counters, with the G715 shift
	python3 "$T/expect.py" "$T/p128.json" shift | sort > "$T/rep.txt"
	"$HWTRACE" script -i "$T/p128.data" -s "$ROOT/scripts/panthor-rates.py" -- --csv \
		2>/dev/null | awk -F, 'NR > 1 { print $1, $2, $3, $4, $6 }' | sort > "$T/scr.txt"
	"$HWTRACE" inject -i "$T/p128.data" -o "$T/p128.inj" 2>/dev/null
	perf script -i "$T/p128.inj" -s "$ROOT/scripts/panthor-rates.py" -- --csv 2>/dev/null |
		awk -F, 'NR > 1 { print $1, $2, $3, $4, $6 }' | sort > "$T/stock.txt"
	grep -q '^shader 0 FRAG_SHADER_THREADS ' "$T/rep.txt"
	[ "$(wc -l < "$T/rep.txt")" -gt 100 ]
	diff "$T/rep.txt" "$T/scr.txt"
	diff "$T/rep.txt" "$T/stock.txt"
	# the record says which counter is scaled, and by what
	"$HWTRACE" script --json -i "$T/p128.data" 2>/dev/null |
		jq -c 'select(.block_type == "shader") | .scaled' | sort -u > "$T/sc.txt"
	[ "$(cat "$T/sc.txt")" = '{"FRAG_SHADER_THREADS":2}' ]
}

@test "panthor options: --sort/--top checked, and refused for a device without them, before input" {
	run "$HWTRACE" report -i "$T/p.data" --sort bogus
	[ "$status" -eq 2 ]
	[[ "$output" == *"--sort: 'bogus'"* ]]
	run "$HWTRACE" report -i "$T/hmu.data" --sort total
	[ "$status" -eq 2 ]
	[[ "$output" == *"--sort is not an option of the input's device (cxl-hmu)"* ]]
	[[ "$output" != *cxl_hmu_summary* ]]
	run "$HWTRACE" report -i "$T/nosuch.data" --sort total --top x
	[ "$status" -eq 2 ]
}

@test "panthor metrics: script --metrics --json per sample equal the formulas on raw counters" {
	"$HWTRACE" script -i "$T/p.data" --metrics --json > "$T/m.json" 2>/dev/null
	python3 "$T/metrics.py" "$T/p.json" > "$T/want.txt"
	python3 - "$T/m.json" "$T/want.txt" <<'PY'
import json, math, sys
got = {}
for l in open(sys.argv[1]):
    r = json.loads(l)
    if "metrics" in r:
        assert r["sample"] not in got, r["sample"]
        got[r["sample"]] = r["metrics"]
want = [l.split() for l in open(sys.argv[2])]
samples = {int(s) for s, _, _ in want}
assert set(got) == samples, (len(got), len(samples))
n = 0
for s, name, v in want:
    g = got[int(s)][name]
    if v == "null":
        assert g is None, (s, name, g)
    else:
        assert g is not None and math.isclose(g, float(v), rel_tol=1e-12), (s, name, g, v)
    n += 1
# the first sample has no interval: no bandwidth
assert got[0]["MaliExtBusRdBw"] is None and got[1]["MaliExtBusRdBw"] > 0
assert any(m["MaliCoreCount"] == 3 for m in got.values())	# shader 3 OFF
print("ok", n)
PY
}

@test "panthor metrics: report --metrics [--json] per run, -F picks metrics" {
	"$HWTRACE" report -i "$T/p.data" --metrics --json > "$T/run.json" 2>/dev/null
	python3 - "$T/p.json" "$T/run.json" <<'PY'
import json, math, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
ends = {}
for r in recs:
    ends.setdefault(r["sample"], r["timestamp_end_ns"])
order = sorted(ends)
gap = {s: ends[s] - ends[p] for p, s in zip(order, order[1:])}
def tot(kind, name):
    return sum(r["counters"][name] for r in recs if r["sample"] in gap
               and r["block_type"] == kind and "OFF" not in r["block_states"])
secs = sum(gap.values()) / 1e9
(run,) = [json.loads(l) for l in open(sys.argv[2])]
assert run["run"] == "all" and run["metric_set"] == "panthor"
m = run["metrics"]
active = tot("cshw", "GPU_ACTIVE")
assert m["MaliGPUActiveCy"] == active
assert math.isclose(m["MaliFragQueueUtil"], 100 * tot("cshw", "ITER_FRAG_ACTIVE") / active)
assert math.isclose(m["MaliExtBusRdBw"], tot("memsys", "L2_EXT_READ_BEATS") * 16 / secs)
assert math.isclose(m["MaliExtBusWrBy"], tot("memsys", "L2_EXT_WRITE_BEATS") * 16)
cxa = sum(sum(1 for r in recs if r["sample"] == s and r["block_type"] == "shader"
              and "OFF" not in r["block_states"]) *
          sum(r["counters"]["GPU_ACTIVE"] for r in recs if r["sample"] == s and r["block_type"] == "cshw")
          for s in gap)
assert math.isclose(m["MaliCoreUtil"], 100 * tot("shader", "SHADER_CORE_ACTIVE") / cxa)
print("ok")
PY
	run "$HWTRACE" report -i "$T/p.data" --metrics
	[ "$status" -eq 0 ]
	[[ "$output" == *"MaliExtBusRdBw"*"bytes/s"* ]]
	"$HWTRACE" script -i "$T/p.data" --metrics --json -F sample,MaliCoreUtil > "$T/f.json" 2>/dev/null
	python3 -c '
import json, sys
rs = [json.loads(l) for l in open(sys.argv[1])]
with_m = [r for r in rs if "metrics" in r]
assert with_m and all(list(r["metrics"]) == ["MaliCoreUtil"] for r in with_m), with_m[:1]
' "$T/f.json"
	run "$HWTRACE" script -i "$T/p.data" --metrics -F NoSuchMetric
	[ "$status" -eq 2 ]
}

@test "panthor metrics: the Python module gives the same metrics as script --metrics --json" {
	"$HWTRACE" script -i "$T/p.data" --metrics --json > "$T/m.json" 2>/dev/null
	PYTHONPATH="$BUILD/python" python3 - "$T/p.data" "$T/m.json" <<'PY'
import hwtrace, json, math, sys
mod = [r.get("metrics") for r in hwtrace.open(sys.argv[1], metrics=True)]
js = [json.loads(l).get("metrics") for l in open(sys.argv[2])]
assert len(mod) == len(js) and sum(m is not None for m in mod) > 10
for a, b in zip(mod, js):
    assert (a is None) == (b is None) and (a is None or list(a) == list(b)), (a, b)
    for k in a or {}:
        # JSON carries 15 significant digits, the module the double itself
        assert (a[k] is None and b[k] is None) or math.isclose(a[k], b[k], rel_tol=1e-14), k
assert all("metrics" not in r for r in hwtrace.open(sys.argv[1]))
PY
}
