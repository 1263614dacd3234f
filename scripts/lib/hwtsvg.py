# SPDX-License-Identifier: GPL-2.0
"""hwtsvg - the SVG pieces the plot hooks share: ticks, unit labels, a
sequential colour map, a categorical palette, axes, legends and line panels.

Not a hook itself (it lives in scripts/lib/ so that `perf script -l` does not
list it); the hooks add this directory to sys.path.  Standard library only.
Every panel carries its data-to-pixel mapping as data-* attributes so that a
test can read a drawn point back as a value.
"""
import math
from xml.sax.saxutils import escape, quoteattr

FONT = 'DejaVu Sans, Liberation Sans, Arial, sans-serif'

# Sequential map for heat: anchors of rising lightness (dark indigo, blue,
# teal, green, yellow, pale yellow) so that a hotter cell is always lighter
# and still readable in grey scale; interpolated linearly in sRGB between
# anchors spaced close enough for the steps to look even.
HEAT_ANCHORS = [
    (0.00, (0x1b, 0x0c, 0x41)),
    (0.18, (0x3a, 0x1f, 0x8f)),
    (0.36, (0x1f, 0x5f, 0xb4)),
    (0.54, (0x13, 0x9c, 0xa0)),
    (0.72, (0x5d, 0xc8, 0x63)),
    (0.88, (0xd8, 0xe2, 0x3a)),
    (1.00, (0xff, 0xf6, 0xa8)),
]
EMPTY = '#c8c8c8'       # a cell with no report: a neutral grey, no colour of the map

# Categorical palette: distinct hues of similar weight on white.
PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf',
       '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22']


def heat_colour(f):
    """Colour for f in [0, 1] on the heat map."""
    f = min(1.0, max(0.0, f))
    for (f0, c0), (f1, c1) in zip(HEAT_ANCHORS, HEAT_ANCHORS[1:]):
        if f <= f1:
            k = (f - f0) / (f1 - f0)
            return '#%02x%02x%02x' % tuple(int(round(a + (b - a) * k)) for a, b in zip(c0, c1))
    return '#%02x%02x%02x' % HEAT_ANCHORS[-1][1]


def nice_ticks(lo, hi, n=6):
    """About n round tick values covering [lo, hi] (steps of 1, 2, 2.5, 5 x 10^k)."""
    if hi <= lo:
        hi = lo + (abs(lo) or 1.0)
    raw = (hi - lo) / max(1, n)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step - 1e-9) * step
    ticks = []
    v = first
    while v <= hi + step * 1e-9:
        ticks.append(0.0 if abs(v) < step * 1e-9 else v)
        v = first + len(ticks) * step
    return ticks, step


def fmt_num(v, step=None):
    """A tick label with as many decimals as the step needs; k/M/G for large values."""
    a = abs(v)
    for div, suf in ((1e9, 'G'), (1e6, 'M'), (1e3, 'k')):
        if a >= div and (step is None or step >= div / 100):
            v, step, a = v / div, (step / div if step else None), a / div
            break
    else:
        suf = ''
    if not step:
        return '%g%s' % (float('%.3g' % v), suf)
    dec = 0
    while dec < 6 and abs(step * 10 ** dec - round(step * 10 ** dec)) > 1e-6:
        dec += 1
    return '%.*f%s' % (dec, v, suf)


def bytes_unit(span):
    """(divisor, name) to label addresses spanning span bytes: MiB or GiB."""
    return (1 << 30, 'GiB') if span >= 4 << 30 else (1 << 20, 'MiB')


class Svg:
    """An SVG document built as a list of lines."""

    def __init__(self, width, height, title):
        self.w, self.h = width, height
        self.out = ['<?xml version="1.0" encoding="UTF-8"?>',
                '<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="%d" height="%d" '
                'viewBox="0 0 %d %d" font-family=%s font-size="12">'
                % (width, height, width, height, quoteattr(FONT)),
                '<title>%s</title>' % escape(title),
                '<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>' % (width, height)]

    def add(self, s):
        self.out.append(s)

    def text(self, x, y, s, anchor='start', size=None, weight=None, rotate=False, cls=None):
        a = ' text-anchor="%s"' % anchor if anchor != 'start' else ''
        a += ' font-size="%s"' % size if size else ''
        a += ' font-weight="%s"' % weight if weight else ''
        a += ' class="%s"' % cls if cls else ''
        a += ' transform="rotate(-90 %.1f %.1f)"' % (x, y) if rotate else ''
        self.out.append('<text x="%.1f" y="%.1f"%s>%s</text>' % (x, y, a, escape(s)))

    def write(self, path):
        with open(path, 'w') as f:
            f.write('\n'.join(self.out + ['</svg>']) + '\n')


def legend(svg, x, y, items, width=None):
    """Colour swatches with names, one per line, from (x, y) down."""
    for i, (name, colour) in enumerate(items):
        yy = y + i * 16
        svg.add('<rect x="%.1f" y="%.1f" width="14" height="4" fill="%s"/>' % (x, yy - 5, colour))
        svg.text(x + 20, yy, name, size=11, cls='legend')


def decimate(pts, px, width):
    """At most 4 points per pixel column: the first, lowest, highest and last
    of each column, in x order.  The line looks the same (every extreme is
    drawn) and the file stays small whatever the input's length."""
    if len(pts) <= 4 * width:
        return pts
    out, col = [], []

    def flush():
        keep = {0, len(col) - 1, min(range(len(col)), key=lambda i: col[i][1]),
                max(range(len(col)), key=lambda i: col[i][1])}
        out.extend(col[i] for i in sorted(keep))

    cur = None
    for p in pts:
        c = int(px(p[0]))
        if c != cur and col:
            flush()
            col = []
        cur = c
        col.append(p)
    if col:
        flush()
    return out


def gap_of(pts):
    """A step over 4x the series' median step is a gap (a context switched
    out, a stopped sample stream), not a line to draw."""
    steps = sorted(b[0] - a[0] for a, b in zip(pts, pts[1:]))
    return 4 * steps[len(steps) // 2] if steps else 0


def path_d(pts, px, py, gap):
    """Path data through pts, a new segment after each gap (never inside one
    pixel column, where decimate() keeps points that were not neighbours)."""
    d = []
    for i, (x, y) in enumerate(pts):
        new = i == 0 or (gap > 0 and x - pts[i - 1][0] > gap and px(x) - px(pts[i - 1][0]) >= 1)
        d.append('%s%.2f,%.2f' % ('M' if new else 'L', px(x), py(y)))
    return ' '.join(d)


def line_panel(svg, box, title, ylabel, series, xlabel='time (s)', xrange=None):
    """A line chart in box = (left, top, width, height) of the plot area.

    series: list of (name, [(x, y), ...]) sorted by x; drawn with markers when short.
    The legend goes right of the box.  Returns the (xmin, xmax, ymin, ymax)
    the axes show.
    """
    left, top, w, h = box
    xs = [p[0] for _, pts in series for p in pts]
    ys = [p[1] for _, pts in series for p in pts]
    xmin, xmax = xrange or ((min(0.0, min(xs)), max(xs)) if xs else (0.0, 1.0))
    if xmax <= xmin:
        xmax = xmin + 1.0
    ymin = min(0.0, min(ys)) if ys else 0.0
    ymax = max(ys) if ys else 1.0
    yt, ystep = nice_ticks(ymin, ymax if ymax > ymin else ymin + 1.0, 5)
    # the axis ends on a tick at or above the highest value
    ymax = max(ymax, ymin + ystep)
    ymax = math.ceil(ymax / ystep - 1e-9) * ystep
    ymin = math.floor(ymin / ystep + 1e-9) * ystep
    yt = [t for t in yt if t <= ymax] + ([ymax] if yt[-1] < ymax - ystep * 1e-9 else [])
    xt, xstep = nice_ticks(xmin, xmax, 8)
    xt = [t for t in xt if xmin - 1e-12 <= t <= xmax + 1e-12]

    def px(x):
        return left + (x - xmin) / (xmax - xmin) * w

    def py(y):
        return top + h - (y - ymin) / (ymax - ymin) * h

    svg.add('<g class="panel" data-title=%s data-box="%.1f,%.1f,%.1f,%.1f" '
        'data-x="%r,%r" data-y="%r,%r">'
        % (quoteattr(title), left, top, w, h, xmin, xmax, ymin, ymax))
    svg.text(left, top - 12, title, size=14, weight='bold', cls='title')
    svg.add('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#fbfbfb" stroke="#888"/>'
        % (left, top, w, h))
    for t in yt:
        y = py(t)
        svg.add('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e0e0e0"/>'
            % (left, y, left + w, y))
        svg.text(left - 6, y + 4, fmt_num(t, ystep), anchor='end', size=11, cls='ytick')
    for t in xt:
        x = px(t)
        svg.add('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#888"/>'
            % (x, top + h, x, top + h + 5))
        svg.text(x, top + h + 18, fmt_num(t, xstep), anchor='middle', size=11, cls='xtick')
    svg.text(left + w / 2, top + h + 34, xlabel, anchor='middle', cls='xlabel')
    svg.text(left - 50, top + h / 2, ylabel, anchor='middle', rotate=True, cls='ylabel')
    items = []
    for i, (name, pts) in enumerate(series):
        colour = PALETTE[i % len(PALETTE)]
        items.append((name, colour))
        drawn = decimate(pts, px, w)
        svg.add('<path class="series" data-series=%s data-points="%d" fill="none" stroke="%s" '
            'stroke-width="%s" stroke-linejoin="round" d="%s"/>'
            % (quoteattr(name), len(pts), colour, '1.8' if drawn is pts else '1',
               path_d(drawn, px, py, gap_of(pts))))
        if len(pts) <= 60:
            for x, y in pts:
                svg.add('<circle cx="%.2f" cy="%.2f" r="2.2" fill="%s"/>' % (px(x), py(y), colour))
    if not series:
        svg.text(left + w / 2, top + h / 2, 'no data', anchor='middle', cls='empty')
    legend(svg, left + w + 16, top + 8, items)
    svg.add('</g>')
    return xmin, xmax, ymin, ymax
