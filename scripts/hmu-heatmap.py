# SPDX-License-Identifier: GPL-2.0
# description: SVG heatmap of CXL HMU hotness, DPA x time
# args: [-- [-o heat.svg] [--rows N] [--cols N]]
#
#   perf hwtrace script -i perf.data -s scripts/hmu-heatmap.py -- [-o heat.svg] [--rows N] [--cols N]
#   perf script -i inj.data -s scripts/hmu-heatmap.py -- [same options]
#
# Each cell sums the counts of the hotlist entries whose DPA and time fall in
# it; colour is log-scaled.  Plain SVG, no third-party packages.
import math
import sys
from collections import defaultdict

OUT = 'hmu-heatmap.svg'
ROWS = 64
COLS = 64
points = []


def trace_begin():
    global OUT, ROWS, COLS
    a = sys.argv[1:]
    while a:
        k = a.pop(0)
        if k in ('-o', '--output') and a:
            OUT = a.pop(0)
        elif k == '--rows' and a:
            ROWS = max(1, int(a.pop(0)))
        elif k == '--cols' and a:
            COLS = max(1, int(a.pop(0)))
        else:
            sys.exit('hmu-heatmap.py: unknown argument %r' % k)


def trace_unhandled(event_name, context, fields, perf_sample_dict=None):
    if event_name == 'hwtrace__cxl_hmu_unit':
        t = fields['common_s'] * 1000000000 + fields['common_ns']
        points.append((t, fields['dpa'], fields['count']))


def colour(f):
    # dark blue -> red -> yellow
    r = int(255 * min(1.0, 2 * f))
    g = int(255 * max(0.0, 2 * f - 1))
    b = int(128 * (1 - f))
    return '#%02x%02x%02x' % (r, g, b)


def trace_end():
    if not points:
        print('hmu-heatmap.py: no cxl_hmu_unit records')
        return
    t0 = min(p[0] for p in points)
    t1 = max(p[0] for p in points) + 1
    d0 = min(p[1] for p in points)
    d1 = max(p[1] for p in points) + 1
    cells = defaultdict(int)
    for t, dpa, c in points:
        col = (t - t0) * COLS // (t1 - t0)
        row = (dpa - d0) * ROWS // (d1 - d0)
        cells[(row, col)] += c
    top = max(cells.values())
    cw, ch, left, head = 8, 6, 150, 30
    w, h = left + COLS * cw + 10, head + ROWS * ch + 40
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="monospace" font-size="10">' % (w, h),
           '<rect width="100%%" height="100%%" fill="white"/>',
           '<text x="%d" y="15">CXL HMU hotness: %d reports, max cell %d</text>'
           % (left, len(points), top)]
    for (row, col), c in sorted(cells.items()):
        f = math.log1p(c) / math.log1p(top)
        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="%s"><title>%d</title></rect>'
                   % (left + col * cw, head + row * ch, cw, ch, colour(f), c))
    out.append('<text x="4" y="%d">0x%x</text>' % (head + 8, d0))
    out.append('<text x="4" y="%d">0x%x</text>' % (head + ROWS * ch, d1 - 1))
    out.append('<text x="%d" y="%d">%.6f s</text>' % (left, head + ROWS * ch + 15, t0 / 1e9))
    out.append('<text x="%d" y="%d" text-anchor="end">%.6f s</text>'
               % (left + COLS * cw, head + ROWS * ch + 15, (t1 - 1) / 1e9))
    out.append('</svg>')
    with open(OUT, 'w') as f:
        f.write('\n'.join(out) + '\n')
    print('hmu-heatmap.py: %d reports, %d cells, wrote %s' % (len(points), len(cells), OUT))
