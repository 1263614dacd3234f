#!/usr/bin/env bats
# The SVG plot hooks (scripts/hmu-heatmap.py, scripts/counter-plot.py): each
# picture is valid XML (xmllint), renders in headless Chromium to a PNG that
# is not blank, and shows the values the inputs hold.  Expected values come
# from synth's manifest, gen_igt.py's manifest, script --json and the
# fdinfo text written here; a drawn point is read back through the
# data-box / data-x / data-y mapping its panel carries.

load lib/common

setup_file() {
	export T="$BATS_FILE_TMPDIR"
	export SCRIPTS="$BATS_TEST_DIRNAME/../../scripts"
	export PNG="$BATS_TEST_DIRNAME/lib/png_stats.py"
	"$HWTRACE" synth --type cxl-hmu --seed 3 --size 1M --manifest "$T/hmu.txt" -o "$T/hmu.data"
}

# render SVG PNG: headless Chromium at the SVG's own size, then "W H colours nonwhite-permille"
render() {
	local size
	size=$(python3 -c '
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
print("%s,%s" % (r.get("width"), r.get("height")))' "$1")
	rm -f "$2"
	timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--screenshot="$2" --window-size="$size" "$1" >/dev/null 2>&1 || true
	[ -s "$2" ] || { echo "chromium wrote no $2"; return 1; }
	python3 "$PNG" "$2"
}

# valid SVG 1.1 with a viewBox and pixel width/height (not "100%%")
valid_svg() {
	xmllint --noout "$1"
	python3 - "$1" <<'EOF'
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
assert r.tag == "{http://www.w3.org/2000/svg}svg", r.tag
w, h = int(r.get("width")), int(r.get("height"))
assert r.get("viewBox") == "0 0 %d %d" % (w, h), r.get("viewBox")
assert "%" not in open(sys.argv[1]).read().split("<title>")[0]
EOF
}

@test "hmu-heatmap.py: merged regions cover the DPA span and the hottest is the band synth made hot" {
	run "$HWTRACE" script -i "$T/hmu.data" -s "$SCRIPTS/hmu-heatmap.py" -- -o "$T/heat.svg" --rows 40
	echo "$output"
	[ "$status" -eq 0 ]
	valid_svg "$T/heat.svg"
	python3 - "$T/heat.svg" "$T/hmu.txt" <<'EOF'
import sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
svg = ET.parse(sys.argv[1]).getroot()
units = [l.split() for l in open(sys.argv[2]) if not l.startswith("#")]
pts = [(int(u[1]), int(u[3]), int(u[4], 16)) for u in units]    # time, count, dpa
regions = [g for g in svg.iter(NS + "g") if g.get("class") == "region"]
assert len(regions) == 40, len(regions)
spans = [(int(g.get("data-lo")), int(g.get("data-hi")), int(g.get("data-count"))) for g in regions]
# contiguous, low to high, from the lowest DPA synth wrote to past the highest
assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
dpas = [d for _, _, d in pts]
assert spans[0][0] == min(dpas) and max(dpas) < spans[-1][1] <= max(dpas) + 4096, spans[-1]
# every region's count is what the manifest puts in its range
for lo, hi, n in spans:
    assert n == sum(c for _, c, d in pts if lo <= d < hi), (lo, hi, n)
# synth's model makes low unit ids hot: the hottest band is the lowest one
hot = [g for g in regions if g.get("data-hottest")]
assert len(hot) == 1 and hot[0] is regions[0], [g.get("data-lo") for g in hot]
heat = [n / (hi - lo) for lo, hi, n in spans]
assert heat[0] == max(heat)
# cold regions were merged, hot ones kept narrow: the top region is the widest
widths = [hi - lo for lo, hi, _ in spans]
assert widths[0] < widths[-1], (widths[0], widths[-1])
# one column per 1..k drains, no cell outside them; cells equal count/MiB/s
cells = sum(1 for g in regions for r in g.iter(NS + "rect"))
assert cells > 40 * 20, cells
text = {t.get("class"): [] for t in svg.iter(NS + "text")}
for t in svg.iter(NS + "text"):
    text[t.get("class")].append(t.text)
assert text["ylabel"] == ["DPA (GiB), region boundaries"], text["ylabel"]
assert text["xlabel"][0].startswith("time (s)"), text["xlabel"]
assert "count / MiB / s" in text["clabel"], text["clabel"]
assert len(text["xtick"]) >= 4 and len(text["ytick"]) >= 10 and len(text["ctick"]) >= 2, text
assert text["title"] == ["CXL HMU hotness over time"]
EOF
	run render "$T/heat.svg" "$T/heat.png"
	echo "$output"
	[ "$status" -eq 0 ]
	read -r w h colours nonwhite <<<"$output"
	[ "$colours" -ge 50 ]
	[ "$nonwhite" -ge 300 ]
	# on the picture: the lowest (hottest) row is lighter than the highest one
	box=$(python3 -c '
import sys, xml.etree.ElementTree as ET
for g in ET.parse(sys.argv[1]).getroot().iter("{http://www.w3.org/2000/svg}g"):
    if g.get("class") == "heatmap":
        print(*[int(float(v)) for v in g.get("data-box").split(",")])' "$T/heat.svg")
	read -r x y pw ph <<<"$box"
	rh=$((ph / 40))
	bottom=$(python3 "$PNG" "$T/heat.png" luma $((x + 2)) $((y + ph - rh + 2)) $((x + pw - 2)) $((y + ph - 2)))
	top=$(python3 "$PNG" "$T/heat.png" luma $((x + 2)) $((y + 2)) $((x + pw - 2)) $((y + rh - 2)))
	echo "bottom $bottom top $top"
	python3 -c "import sys; assert float(sys.argv[1]) > float(sys.argv[2]) + 60" "$bottom" "$top"
}

@test "hmu-heatmap.py --max-cells: addresses kept in larger blocks, every region's count still exact" {
	run "$HWTRACE" script -i "$T/hmu.data" -s "$SCRIPTS/hmu-heatmap.py" -- -o "$T/coarse.svg" \
		--max-cells 40000
	echo "$output"
	[ "$status" -eq 0 ]
	valid_svg "$T/coarse.svg"
	python3 - "$T/coarse.svg" "$T/hmu.txt" <<'EOF'
import re, sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
svg = ET.parse(sys.argv[1]).getroot()
pts = [l.split() for l in open(sys.argv[2]) if not l.startswith("#")]
pts = [(int(u[3]), int(u[4], 16)) for u in pts]
sub = [t.text for t in svg.iter(NS + "text") if t.get("class") == "subtitle"][0]
m = re.search(r"addresses kept in (\d+) KiB blocks", sub)
assert m, sub
block = int(m.group(1)) << 10
spans = [(int(g.get("data-lo")), int(g.get("data-hi")), int(g.get("data-count")))
         for g in svg.iter(NS + "g") if g.get("class") == "region"]
assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
assert all(lo % block == 0 for lo, _, _ in spans)
assert sum(n for _, _, n in spans) == sum(c for c, _ in pts)
for lo, hi, n in spans:
    assert n == sum(c for c, d in pts if lo <= d < hi), (lo, hi, n)
cells = sum(1 for g in svg.iter(NS + "g") if g.get("class") == "region" for _ in g.iter(NS + "rect"))
print(sub, len(spans), "regions", cells, "cells")
EOF
}

@test "hmu-heatmap.py --hpa --pmu: regions by host address, counts equal script --json's records" {
	"$HWTRACE" synth --type cxl-hmu --seed 1 --size 256K --range-size 1 -o "$T/r1.data"
	hdm=base=0x100000000,size=512M,ways=2,granularity=4096,pos=1
	"$HWTRACE" script -i "$T/r1.data" --hdm "$hdm" --json 2>/dev/null >"$T/r1.json"
	run "$HWTRACE" script -i "$T/r1.data" --hdm "$hdm" -s "$SCRIPTS/hmu-heatmap.py" -- \
		-o "$T/hpa.svg" --hpa --pmu cxl_hmu_mem0.0.0 --rows 24
	echo "$output"
	[ "$status" -eq 0 ]
	valid_svg "$T/hpa.svg"
	python3 - "$T/hpa.svg" "$T/r1.json" <<'EOF'
import json, sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
svg = ET.parse(sys.argv[1]).getroot()
recs = [json.loads(l) for l in open(sys.argv[2])]
pts = [(int(r["hpa"], 16), r["count"]) for r in recs if "hpa" in r]
assert len(pts) == len(recs) > 30000, (len(pts), len(recs))
spans = [(int(g.get("data-lo")), int(g.get("data-hi")), int(g.get("data-count")))
         for g in svg.iter(NS + "g") if g.get("class") == "region"]
assert len(spans) == 24
assert spans[0][0] == min(h for h, _ in pts) >= 0x100000000
for lo, hi, n in spans:
    assert n == sum(c for h, c in pts if lo <= h < hi), (lo, hi, n)
ylabel = [t.text for t in svg.iter(NS + "text") if t.get("class") == "ylabel"]
assert ylabel == ["HPA (MiB), region boundaries"], ylabel
EOF
	# another PMU's name keeps nothing: said, and no file
	run "$HWTRACE" script -i "$T/r1.data" -s "$SCRIPTS/hmu-heatmap.py" -- -o "$T/none.svg" --pmu nope
	[ "$status" -eq 0 ]
	[[ "$output" == *"no cxl_hmu_unit records of PMU nope, nothing written"* ]]
	[ ! -e "$T/none.svg" ]
}

@test "the plot hooks draw the same pictures under stock perf script on the injected files" {
	"$HWTRACE" script -i "$T/hmu.data" -s "$SCRIPTS/hmu-heatmap.py" -- -o "$T/a.svg"
	"$HWTRACE" inject -i "$T/hmu.data" -o "$T/inj.data"
	perf script -i "$T/inj.data" -s "$SCRIPTS/hmu-heatmap.py" -- -o "$T/b.svg"
	cmp "$T/a.svg" "$T/b.svg"
	python3 "$BATS_TEST_DIRNAME/../fixtures/gen_igt.py" --reports 120 -o "$T/igt2.rec" >/dev/null
	"$HWTRACE" synth --type panthor --seed 4 --size 32K -o "$T/pan2.data" 2>/dev/null
	for f in igt2.rec pan2.data; do
		"$HWTRACE" script -i "$T/$f" -s "$SCRIPTS/counter-plot.py" -- -o "$T/$f.a.svg" \
			--oa-counter a7 --field i915_oa_report.dticks 2>/dev/null
		"$HWTRACE" inject -i "$T/$f" -o "$T/$f.inj" 2>/dev/null
		perf script -i "$T/$f.inj" -s "$SCRIPTS/counter-plot.py" -- -o "$T/$f.b.svg" \
			--oa-counter a7 --field i915_oa_report.dticks 2>/dev/null
		grep -q 'class="series"' "$T/$f.a.svg"
		cmp "$T/$f.a.svg" "$T/$f.b.svg"
	done
}

@test "python3 HOOK.py -i FILE reads through the hwtrace module and draws what the hook draws" {
	export PYTHONPATH="$BUILD/python"
	python3 "$BATS_TEST_DIRNAME/../fixtures/gen_igt.py" --reports 120 -o "$T/igt3.rec" >/dev/null
	"$HWTRACE" synth --type panthor --seed 4 --size 32K -o "$T/pan3.data" 2>/dev/null
	python3 "$SCRIPTS/hmu-heatmap.py" -i "$T/hmu.data" -o "$T/m1.svg" --rows 30
	"$HWTRACE" script -i "$T/hmu.data" -s "$SCRIPTS/hmu-heatmap.py" -- -o "$T/m2.svg" --rows 30
	cmp "$T/m1.svg" "$T/m2.svg"
	for f in igt3.rec pan3.data; do
		python3 "$SCRIPTS/counter-plot.py" -i "$T/$f" -o "$T/$f.m1.svg" --oa-counter a3 2>/dev/null
		"$HWTRACE" script -i "$T/$f" -s "$SCRIPTS/counter-plot.py" -- -o "$T/$f.m2.svg" \
			--oa-counter a3 2>/dev/null
		grep -q 'class="series"' "$T/$f.m1.svg"
		cmp "$T/$f.m1.svg" "$T/$f.m2.svg"
	done
	# without -i the heatmap has nothing to read: a usage error, nothing written
	run python3 "$SCRIPTS/hmu-heatmap.py" -o "$T/m3.svg"
	[ "$status" -eq 2 ]
	[[ "$output" == *"-i FILE is needed"* ]]
	[ ! -e "$T/m3.svg" ]
	# an input that is no perf.data: exit 1, nothing written
	echo "no perf.data" >"$T/text"
	run python3 "$SCRIPTS/hmu-heatmap.py" -i "$T/text" -o "$T/m4.svg"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == "hmu-heatmap.py: $T/text: "* ]]
	[ ! -e "$T/m4.svg" ]
}

# point_check SVG PANEL-TITLE EXPECTED.json: each series' drawn points, read
# back through the panel's mapping, equal the expected {series: [[x, y]...]}
point_check() {
	python3 - "$@" <<'EOF'
import json, re, sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
svg = ET.parse(sys.argv[1]).getroot()
want = json.load(open(sys.argv[3]))
panel = [g for g in svg.iter(NS + "g") if g.get("data-title") == sys.argv[2]]
assert len(panel) == 1, [g.get("data-title") for g in svg.iter(NS + "g")]
p = panel[0]
left, top, w, h = (float(v) for v in p.get("data-box").split(","))
x0, x1 = (float(v) for v in p.get("data-x").split(","))
y0, y1 = (float(v) for v in p.get("data-y").split(","))
got = {}
for s in p.iter(NS + "path"):
    pts = re.findall(r"[ML](-?[\d.]+),(-?[\d.]+)", s.get("d"))
    got[s.get("data-series")] = [(x0 + (float(a) - left) / w * (x1 - x0),
                                  y0 + (top + h - float(b)) / h * (y1 - y0)) for a, b in pts]
assert sorted(got) == sorted(want), (sorted(got), sorted(want))
# coordinates have 2 decimals: 0.006 px of either axis
ex, ey = 0.006 / w * (x1 - x0), 0.006 / h * (y1 - y0)
for k in want:
    assert len(got[k]) == len(want[k]), (k, len(got[k]), len(want[k]))
    for (gx, gy), (wx, wy) in zip(got[k], want[k]):
        assert abs(gx - wx) <= ex and abs(gy - wy) <= ey, (k, gx, gy, wx, wy)
print(sys.argv[2], {k: len(v) for k, v in got.items()})
EOF
}

@test "counter-plot.py: OA GpuBusy, frequency and raw counters per context equal gen_igt's reports" {
	python3 "$BATS_TEST_DIRNAME/../fixtures/gen_igt.py" --reports 300 -o "$T/igt.rec" \
		--manifest "$T/igt.json"
	run "$HWTRACE" script -i "$T/igt.rec" -s "$SCRIPTS/counter-plot.py" -- -o "$T/oa.svg" \
		--oa-counter a7,c3 --field i915_oa_report.dticks
	echo "$output"
	[ "$status" -eq 0 ]
	valid_svg "$T/oa.svg"
	# the expected series from the generator's own reports: a delta belongs
	# to the previous report's context, time is the OA clock unwrapped
	python3 - "$T/igt.json" "$T" <<'EOF'
import json, sys
from collections import defaultdict
lines = [json.loads(l) for l in open(sys.argv[1])]
freq = [l for l in lines if l["type"] == "meta"][0]["ts_freq"]
busy, mhz, raw, dt = (defaultdict(list) for _ in range(4))
t, last, prev = 0, None, None
for r in lines:
    if r["type"] != "i915_oa_report":
        continue
    if last is not None:
        t += (r["ts"] - last) & 0xffffffff
    last = r["ts"]
    ctx, prev = prev, r["ctx"]
    s = t / freq
    dt["dticks ctx %s" % r["ctx"]].append((s - 0, r.get("dticks", 0)))
    if not r.get("dts") or ctx is None:
        continue
    el = r["dts"] / freq
    busy["ctx " + ctx].append((s, 100.0 * r["da"][0] / r["dticks"]))
    mhz["ctx " + ctx].append((s, r["dticks"] / el / 1e6))
    raw["a7 ctx " + ctx].append((s, r["da"][7] / el))
    raw["c3 ctx " + ctx].append((s, r["dc"][3] / el))
assert len(busy) == 2, busy.keys()          # ctx 0x10 and 0x20
d = sys.argv[2]
for name, v in (("busy", busy), ("mhz", mhz), ("raw", raw), ("dticks", dt)):
    json.dump(v, open("%s/want_%s.json" % (d, name), "w"))
EOF
	point_check "$T/oa.svg" "i915 OA: GpuBusy per context" "$T/want_busy.json"
	point_check "$T/oa.svg" "i915 OA: GPU frequency per context" "$T/want_mhz.json"
	point_check "$T/oa.svg" "i915 OA: raw counters" "$T/want_raw.json"
	point_check "$T/oa.svg" "record fields by name: dticks" "$T/want_dticks.json"
	grep -q '>frequency (MHz)</text>' "$T/oa.svg"
	grep -q '>GpuBusy (%)</text>' "$T/oa.svg"
	run render "$T/oa.svg" "$T/oa.png"
	echo "$output"
	[ "$status" -eq 0 ]
	read -r w h colours nonwhite <<<"$output"
	[ "$colours" -ge 20 ]
	[ "$nonwhite" -ge 100 ]
}

@test "counter-plot.py: a long series is drawn with at most 4 points per pixel, extremes kept" {
	python3 "$BATS_TEST_DIRNAME/../fixtures/gen_igt.py" --reports 8000 --no-lost -o "$T/long.rec" \
		--manifest "$T/long.json"
	"$HWTRACE" script -i "$T/long.rec" -s "$SCRIPTS/counter-plot.py" -- -o "$T/long.svg" 2>/dev/null
	valid_svg "$T/long.svg"
	python3 - "$T/long.svg" "$T/long.json" <<'EOF'
import json, re, sys, xml.etree.ElementTree as ET
from collections import defaultdict
NS = "{http://www.w3.org/2000/svg}"
lines = [json.loads(l) for l in open(sys.argv[2])]
want, prev = defaultdict(list), None
for r in lines:
    if r["type"] != "i915_oa_report":
        continue
    ctx, prev = prev, r["ctx"]
    if r.get("dts") and ctx:
        want["ctx " + ctx].append(100.0 * r["da"][0] / r["dticks"])
p = [g for g in ET.parse(sys.argv[1]).getroot().iter(NS + "g")
     if g.get("data-title") == "i915 OA: GpuBusy per context"][0]
left, top, w, h = (float(v) for v in p.get("data-box").split(","))
y0, y1 = (float(v) for v in p.get("data-y").split(","))
for s in p.iter(NS + "path"):
    k = s.get("data-series")
    ys = [y0 + (top + h - float(b)) / h * (y1 - y0) for b in re.findall(r"[ML][\d.]+,([\d.]+)", s.get("d"))]
    assert int(s.get("data-points")) == len(want[k]) > 4 * w, (k, s.get("data-points"), len(want[k]))
    assert len(ys) <= 4 * w, len(ys)
    e = 0.006 / h * (y1 - y0)
    assert abs(max(ys) - max(want[k])) <= e and abs(min(ys) - min(want[k])) <= e, k
    print(k, len(want[k]), "points drawn as", len(ys))
EOF
}

@test "counter-plot.py: panthor per-second rates per block equal script --json's values over their intervals" {
	"$HWTRACE" synth --type panthor --seed 2 --size 64K -o "$T/pan.data"
	"$HWTRACE" script --json -i "$T/pan.data" 2>/dev/null >"$T/pan.json"
	names=$(python3 -c '
import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if "panthor_block" in l][0]
c = [k for k in r["counters"] if k not in ("TIMESTAMP_LO", "TIMESTAMP_HI", "PRFCNT_EN", "RESERVED")]
print(c[0] + "," + c[5])' "$T/pan.json")
	run "$HWTRACE" script -i "$T/pan.data" -s "$SCRIPTS/counter-plot.py" -- -o "$T/pan.svg" \
		--panthor-counter "$names"
	echo "$output"
	[ "$status" -eq 0 ]
	valid_svg "$T/pan.svg"
	python3 - "$T/pan.json" "$names" >"$T/want_pan.json" <<'EOF'
import json, sys
from collections import defaultdict
names = sys.argv[2].split(",")
recs = [json.loads(l) for l in open(sys.argv[1])]
recs = [r for r in recs if r["type"] == "panthor_block" and r["timestamp_end_ns"] > r["timestamp_start_ns"]]
t0 = recs[0]["timestamp_start_ns"]
want = defaultdict(list)
for r in recs:
    secs = (r["timestamp_end_ns"] - r["timestamp_start_ns"]) / 1e9
    for n in names:
        if n in r["counters"]:
            key = "%s[%d] %s" % (r["block_type"], r["block_idx"], n)
            want[key].append(((r["timestamp_end_ns"] - t0) / 1e9, r["counters"][n] / secs))
assert len(want) >= 4, list(want)
json.dump({k: sorted(v) for k, v in want.items()}, sys.stdout)
EOF
	point_check "$T/pan.svg" "panthor: counter rates per block" "$T/want_pan.json"
	run render "$T/pan.svg" "$T/pan.png"
	echo "$output"
	[ "$status" -eq 0 ]
	read -r w h colours nonwhite <<<"$output"
	[ "$colours" -ge 20 ]
	[ "$nonwhite" -ge 100 ]
}

# mkclient TREE RENDER_NS COPY_NS: one i915 client (pid 100) in a /proc-shaped tree
mkclient() {
	local d="$1/100"
	mkdir -p "$d/fd" "$d/fdinfo"
	echo glxgears >"$d/comm"
	ln -sfn /dev/dri/renderD128 "$d/fd/5"
	printf 'pos:\t0\ndrm-driver:\ti915\ndrm-client-id:\t39\ndrm-pdev:\t0000:00:02.0\n' >"$d/fdinfo/5"
	printf 'drm-total-system0:\t8192 KiB\ndrm-resident-system0:\t%s KiB\n' "$4" >>"$d/fdinfo/5"
	printf 'drm-engine-render:\t%s ns\ndrm-engine-copy:\t%s ns\n' "$2" "$3" >>"$d/fdinfo/5"
}

@test "counter-plot.py --drm: engine utilisation and resident memory from top --json, also without perf" {
	mkclient "$T/s1" 0 0 6144
	mkclient "$T/s2" 250000000 100000000 6144
	mkclient "$T/s3" 750000000 100000000 10240
	printf '1000000000\n2000000000\n3000000000\n' >"$T/clock"
	"$HWTRACE" top --json -n 3 -d 0 --proc "$T/s1" --proc "$T/s2" --proc "$T/s3" \
		--clock-file "$T/clock" >"$T/top.json"
	# no hook runner: python3 alone reads the JSON lines
	run python3 "$SCRIPTS/counter-plot.py" --drm "$T/top.json" -o "$T/drm.svg"
	echo "$output"
	[ "$status" -eq 0 ]
	valid_svg "$T/drm.svg"
	# busy ns over 1 s steps: 25 % then 50 % render, 10 % then 0 % copy
	echo '{"glxgears[100] i915 render": [[1, 25], [2, 50]], "glxgears[100] i915 copy": [[1, 10], [2, 0]]}' \
		>"$T/want_util.json"
	echo '{"glxgears[100] i915 system0": [[0, 6], [1, 6], [2, 10]]}' >"$T/want_mem.json"
	point_check "$T/drm.svg" "DRM clients: engine utilisation" "$T/want_util.json"
	point_check "$T/drm.svg" "DRM clients: resident memory" "$T/want_mem.json"
	run render "$T/drm.svg" "$T/drm.png"
	echo "$output"
	[ "$status" -eq 0 ]
	read -r w h colours nonwhite <<<"$output"
	[ "$colours" -ge 10 ]
	[ "$nonwhite" -ge 100 ]
}

@test "plot hooks: a bad option is a usage error (exit 2) and nothing is written" {
	run "$HWTRACE" script -i "$T/hmu.data" -s "$SCRIPTS/hmu-heatmap.py" -- --rows 0 -o "$T/no1.svg"
	echo "$output"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--rows wants a positive number"* ]]
	run "$HWTRACE" script -i "$T/hmu.data" -s "$SCRIPTS/counter-plot.py" -- --oa-counter x9 -o "$T/no2.svg"
	echo "$output"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--oa-counter wants names like a0"* ]]
	run python3 "$SCRIPTS/counter-plot.py" --drm "$T/missing.json" -o "$T/no3.svg"
	[ "$status" -eq 2 ]
	[ ! -e "$T/no1.svg" ]
	[ ! -e "$T/no2.svg" ]
	[ ! -e "$T/no3.svg" ]
}

@test "installed plot hooks find their lib/ under stock perf script report NAME" {
	make -s -C "$BATS_TEST_DIRNAME/../.." BUILD="$BUILD" install PREFIX="$T/prefix" >/dev/null
	exec_path=$T/prefix/libexec/perf-core
	[ -f "$exec_path/scripts/python/lib/hwtsvg.py" ]
	[ -f "$exec_path/scripts/python/lib/hwtrun.py" ]
	"$HWTRACE" inject -i "$T/hmu.data" -o "$T/inst.data"
	cd "$T"
	run env PERF_EXEC_PATH="$exec_path" perf script report hmu-heatmap -i inst.data -- -o inst.svg
	echo "$output"
	[ "$status" -eq 0 ]
	"$HWTRACE" script -i hmu.data -s "$SCRIPTS/hmu-heatmap.py" -- -o tree.svg
	cmp inst.svg tree.svg
	# lib/ is not a hook: perf script -l lists only the hooks
	run env PERF_EXEC_PATH="$exec_path" perf script -l
	[[ "$output" == *"counter-plot [-- [-o F.svg]"* ]]
	[[ "$output" != *hwtsvg* ]]
	[[ "$output" != *hwtrun* ]]
}
