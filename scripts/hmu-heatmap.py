# SPDX-License-Identifier: GPL-2.0
# description: SVG heatmap of CXL HMU hotness, merged DPA regions x time
# args: [-- [-o heat.svg] [--rows N] [--cols N] [--bins N] [--max-cells N] [--pmu NAME] [--hpa]]
#
#   perf hwtrace script -i perf.data -s scripts/hmu-heatmap.py -- [-o heat.svg] [--rows N] ...
#   perf script -i inj.data -s scripts/hmu-heatmap.py -- [same options]
#   python3 scripts/hmu-heatmap.py -i perf.data [same options]   (the hwtrace module)
#
# The DPA span the reports cover is cut into --bins equal slices (default
# 4 x rows); adjacent slices are then merged, always the pair whose heat
# (count per byte over the whole input) differs least, until --rows regions
# (default 48) remain.  Cold and empty stretches merge first and the hot
# ones keep their own rows, as DAMON merges regions of similar access
# frequency.  Columns (at most --cols, default 60) hold the same number of
# whole drains each.  A cell is count / MiB / s, colour log-scaled.
# --max-cells N (default 2M) bounds memory: past N distinct (drain, address)
# pairs, addresses are kept in power-of-two blocks twice as large as before,
# and slice edges fall on block boundaries, so every count stays exact.
# --pmu NAME keeps one PMU's reports (DPAs of two devices are different
# spaces); --hpa places reports by host physical address (give --hdm).
# Documentation/plots.rst describes the picture.
import bisect
import math
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(sys.argv[0])), 'lib'))
import hwtrun  # noqa: E402
import hwtsvg  # noqa: E402

OUT = 'hmu-heatmap.svg'
ROWS = 48
COLS = 60
BINS = None
MAX_CELLS = 2 << 20
PMU = None
HPA = False
cells = defaultdict(int)        # (time ns, dpa block start) -> count
shift = [0]                     # log2 of the address block size cells are kept in
pmus = set()
reports = [0]
no_hpa = [0]


def usage(msg):
    sys.stderr.write('hmu-heatmap.py: %s\n' % msg)
    sys.exit(2)


def trace_begin():
    global OUT, ROWS, COLS, BINS, MAX_CELLS, PMU, HPA
    a = sys.argv[1:]
    while a:
        k = a.pop(0)
        if k in ('-o', '--output') and a:
            OUT = a.pop(0)
        elif k == '--pmu' and a:
            PMU = a.pop(0)
        elif k == '--hpa':
            HPA = True
        elif k in ('--rows', '--cols', '--bins', '--max-cells') and a:
            v = a.pop(0)
            if not v.isdigit() or int(v) < 1:
                usage('%s wants a positive number, not %r' % (k, v))
            if k == '--rows':
                ROWS = int(v)
            elif k == '--cols':
                COLS = int(v)
            elif k == '--max-cells':
                MAX_CELLS = int(v)
            else:
                BINS = int(v)
        else:
            usage('unknown argument %r' % k)
    if BINS is None:
        BINS = 4 * ROWS


def trace_unhandled(event_name, context, fields, perf_sample_dict=None):
    if event_name == 'hwtrace__cxl_hmu_unit':
        if PMU is not None and fields['pmu'] != PMU:
            return
        addr = fields['hpa'] if HPA else fields['dpa']
        if HPA and not addr:            # no HDM decoder maps this unit
            no_hpa[0] += 1
            return
        t = fields['common_s'] * 1000000000 + fields['common_ns']
        cells[(t, addr >> shift[0] << shift[0])] += fields['count']
        pmus.add(fields['pmu'])
        reports[0] += 1
        if len(cells) > MAX_CELLS:
            coarsen()


def coarsen():
    """Double the address block until the cells fit in half of MAX_CELLS
    (so that this does not run again at the next record)."""
    global cells
    while len(cells) > MAX_CELLS // 2 and shift[0] < 64:
        shift[0] += 1
        merged = defaultdict(int)
        for (t, d), c in cells.items():
            merged[(t, d >> shift[0] << shift[0])] += c
        cells = merged


def merge_regions(edges, totals, rows):
    """Merge adjacent slices [edges[i], edges[i+1]) until rows are left.

    Each step merges the adjacent pair whose heat (total / bytes) differs
    least; ties go to the narrower pair.  Returns [(lo, hi, total)].
    """
    reg = [[edges[i], edges[i + 1], totals[i]] for i in range(len(totals))]
    while len(reg) > rows:
        best, key = 0, None
        for i in range(len(reg) - 1):
            a, b = reg[i], reg[i + 1]
            d = abs(a[2] / (a[1] - a[0]) - b[2] / (b[1] - b[0]))
            k = (d, b[1] - a[0])
            if key is None or k < key:
                best, key = i, k
        a, b = reg[best], reg.pop(best + 1)
        a[1], a[2] = b[1], a[2] + b[2]
    return [tuple(r) for r in reg]


def column_edges(times):
    """Time edges (ns): each column holds the same number of whole drains.

    Equal time spans would hold one drain here and two there and stripe the
    picture; a column starts at a drain and the last one ends a typical gap
    after the last drain.
    """
    gaps = sorted(b - a for a, b in zip(times, times[1:]))
    last = gaps[len(gaps) // 2] if gaps else 1000000000
    k = -(-len(times) // COLS)
    return times[::k] + [times[-1] + last]


def trace_end():
    if no_hpa[0]:
        sys.stderr.write('hmu-heatmap.py: %d reports without an hpa left out (--hdm maps DPA to HPA)\n'
                         % no_hpa[0])
    if not cells:
        print('hmu-heatmap.py: no cxl_hmu_unit records%s, nothing written'
              % (' of PMU %s' % PMU if PMU else ''))
        return
    dpas = sorted({d for _, d in cells})
    # a unit's (or kept block's) size: the largest power of two all DPAs
    # are multiples of (4 KiB if all are 0)
    align = 0
    for d in dpas:
        align |= d
    unit = (align & -align) if align else 4096
    lo, hi = dpas[0], dpas[-1] + unit
    nb = max(1, min(BINS, (hi - lo) // unit))
    # edges on unit (block) boundaries: a kept block never straddles two slices
    edges = [lo + (hi - lo) * i // nb // unit * unit for i in range(nb)] + [hi]
    totals = [0] * nb
    for (t, d), c in cells.items():
        totals[bisect.bisect_right(edges, d) - 1] += c
    regions = merge_regions(edges, totals, ROWS)
    starts = [r[0] for r in regions]
    times = sorted({t for t, _ in cells})
    tedges = column_edges(times)
    grid = defaultdict(int)
    for (t, d), c in cells.items():
        grid[(bisect.bisect_right(starts, d) - 1, bisect.bisect_right(tedges, t) - 1)] += c
    ncols = len(tedges) - 1
    val = {}
    for (r, col), c in grid.items():
        mib = (regions[r][1] - regions[r][0]) / float(1 << 20)
        secs = (tedges[col + 1] - tedges[col]) / 1e9
        val[(r, col)] = c / mib / secs
    vmax = max(val.values())
    vmin = min(v for v in val.values() if v > 0) if any(val.values()) else vmax
    if vmax <= vmin:
        vmin = vmax / 10.0 if vmax else 1.0
    draw(regions, tedges, ncols, val, vmin, vmax)


def frac(v, vmin, vmax):
    return math.log(max(v, vmin) / vmin) / math.log(vmax / vmin)


def draw(regions, tedges, ncols, val, vmin, vmax):
    nrows = len(regions)
    rh = max(6, min(16, 560 // nrows))
    left, top = 110, 64
    pw = max(480, min(900, ncols * 12))
    cw = pw / float(ncols)
    ph = nrows * rh
    w, h = left + pw + 150, top + ph + 70
    t0 = tedges[0]
    span = regions[-1][1] - regions[0][0]
    div, uname = hwtsvg.bytes_unit(span)
    hot = max(range(nrows), key=lambda r: (regions[r][2] / (regions[r][1] - regions[r][0]), -r))
    title = 'CXL HMU hotness over time'
    svg = hwtsvg.Svg(w, h, title)
    svg.text(left, 24, title, size=16, weight='bold', cls='title')
    svg.text(left, 42, '%d hotlist reports, %s; %d regions merged from %d slices (rows not to scale)%s'
             % (reports[0], ', '.join(sorted(pmus)), nrows, BINS,
                '; addresses kept in %d KiB blocks' % ((1 << shift[0]) >> 10) if shift[0] else ''),
             size=11, cls='subtitle')
    svg.add('<g class="heatmap" data-box="%d,%d,%.1f,%d" data-t0="%d" data-vmin="%r" data-vmax="%r">'
            % (left, top, pw, ph, t0, vmin, vmax))
    svg.add('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>'
            % (left, top, pw, ph, hwtsvg.EMPTY))
    for r, (lo, hi, total) in enumerate(regions):
        y = top + ph - (r + 1) * rh          # low addresses at the bottom
        svg.add('<g class="region" data-lo="%d" data-hi="%d" data-count="%d" data-heat="%r"%s>'
                % (lo, hi, total, total / float(hi - lo), ' data-hottest="1"' if r == hot else ''))
        for col in range(ncols):
            v = val.get((r, col))
            if v is None:
                continue
            x = left + col * cw
            svg.add('<rect x="%.2f" y="%d" width="%.2f" height="%d" fill="%s">'
                    '<title>0x%x-0x%x, %.3f-%.3f s: %.4g /MiB/s</title></rect>'
                    % (x, y, cw + 0.3, rh, hwtsvg.heat_colour(frac(v, vmin, vmax)), lo, hi - 1,
                       (tedges[col] - t0) / 1e9, (tedges[col + 1] - t0) / 1e9, v))
        svg.add('</g>')
    svg.add('<rect x="%d" y="%d" width="%.1f" height="%d" fill="none" stroke="#555"/>'
            % (left, top, pw, ph))
    svg.add('</g>')
    # y axis: region boundaries, labelled where there is room
    last_y = None
    for r in range(nrows + 1):
        addr = regions[r][0] if r < nrows else regions[-1][1]
        y = top + ph - r * rh
        svg.add('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#555"/>' % (left - 4, y, left, y))
        if last_y is None or last_y - y >= 14 or r == nrows:
            if last_y is not None and r == nrows and last_y - y < 14:
                continue
            svg.text(left - 7, y + 4, '%.1f' % (addr / float(div)) if div == 1 << 30 else
                     '%.0f' % (addr / float(div)), anchor='end', size=11, cls='ytick')
            last_y = y
    svg.text(24, top + ph / 2, '%s (%s), region boundaries' % ('HPA' if HPA else 'DPA', uname), anchor='middle', rotate=True,
             cls='ylabel')
    # x axis: seconds from the first drain
    secs = (tedges[-1] - t0) / 1e9
    ticks, step = hwtsvg.nice_ticks(0.0, secs, 8)
    for t in ticks:
        if t > secs + 1e-12:
            continue
        x = left + t / secs * pw
        svg.add('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#555"/>' % (x, top + ph, x, top + ph + 5))
        svg.text(x, top + ph + 18, hwtsvg.fmt_num(t, step), anchor='middle', size=11, cls='xtick')
    svg.text(left + pw / 2, top + ph + 36, 'time (s) from %.6f s' % (t0 / 1e9), anchor='middle',
             cls='xlabel')
    colour_scale(svg, left + pw + 30, top, min(ph, 320), vmin, vmax)
    svg.write(OUT)
    lo, hi, total = regions[hot]
    print('hmu-heatmap.py: %d reports, %d regions x %d columns, hottest 0x%x-0x%x (%d), wrote %s'
          % (reports[0], nrows, ncols, lo, hi - 1, total, OUT))


def colour_scale(svg, x, y, h, vmin, vmax):
    """Vertical colour bar, log scale, labelled at decades (or at the ends)."""
    svg.add('<defs><linearGradient id="heat" x1="0" y1="1" x2="0" y2="0">')
    for i in range(21):
        svg.add('<stop offset="%.2f" stop-color="%s"/>' % (i / 20.0, hwtsvg.heat_colour(i / 20.0)))
    svg.add('</linearGradient></defs>')
    svg.add('<g class="colour-scale">')
    svg.add('<rect x="%d" y="%d" width="16" height="%d" fill="url(#heat)" stroke="#555"/>' % (x, y, h))
    lo, hi = math.floor(math.log10(vmin)), math.ceil(math.log10(vmax))
    marks = [10 ** e for e in range(lo, hi + 1) if vmin <= 10 ** e <= vmax]
    if len(marks) < 2:
        marks = [vmin, vmax]
    for v in marks:
        yy = y + h - frac(v, vmin, vmax) * h
        svg.add('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#555"/>' % (x + 16, yy, x + 21, yy))
        svg.text(x + 24, yy + 4, hwtsvg.fmt_num(v), size=11, cls='ctick')
    svg.text(x, y + h + 18, 'count / MiB / s', size=11, cls='clabel')
    svg.text(x, y + h + 32, '(log scale)', size=11, cls='clabel')
    svg.add('<rect x="%d" y="%d" width="16" height="10" fill="%s" stroke="#555"/>'
            % (x, y + h + 44, hwtsvg.EMPTY))
    svg.text(x + 22, y + h + 53, 'no report', size=11, cls='clabel')
    svg.add('</g>')


if __name__ == '__main__' and hwtrun.standalone():
    hwtrun.run('hmu-heatmap.py', trace_begin, trace_unhandled, trace_end)
