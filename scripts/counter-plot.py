# SPDX-License-Identifier: GPL-2.0
# description: SVG timelines of OA, panthor and DRM client usage counters
# args: [-- [-o F.svg] [--ts-freq HZ] [--oa-counter a0,..] [--field TYPE.NAME] [--panthor-counter N,..] [--top N] [--drm top.json]]
#
#   perf hwtrace script -i oa.data -s scripts/counter-plot.py -- -o oa.svg
#   perf hwtrace script -i gpu.data -s scripts/counter-plot.py -- --panthor-counter 4,5 -o gpu.svg
#   perf hwtrace top --json -n 30 >top.json; python3 scripts/counter-plot.py --drm top.json -o drm.svg
#   perf script -i inj.data -s scripts/counter-plot.py -- [same options]
#
# One panel per quantity, stacked, each with its own axes, units and legend:
#   i915 OA, per context: GpuBusy (%) = 100 x A0 delta / GPU clock delta
#     (A41 / C2 on Haswell's A45 format), GPU frequency (MHz) = clock delta
#     / elapsed, elapsed = timestamp delta / --ts-freq (default 19.2 MHz);
#     --oa-counter a7,b3: those raw counters' deltas per second.
#   --field TYPE.NAME (repeatable): the value of any numeric field of a
#     record type by name, NAME[i] for an array element, one series per
#     context when the record has a ctx (e.g. a metric-set value).
#   panthor: per-second rates (value / sample interval) of the counters
#     --panthor-counter names, per block; by default the --top N (6)
#     block/counter pairs of highest mean rate.
#   DRM clients (--drm FILE of `perf hwtrace top --json` lines): engine
#     utilisation (%) per client and engine, resident memory (MiB) per
#     client and region.
# Without perf: python3 scripts/counter-plot.py [-i FILE] [options] reads
# FILE through the hwtrace module (and --drm alone without -i).
# Documentation/plots.rst shows examples.
import json
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(sys.argv[0])), 'lib'))
import hwtrun  # noqa: E402
import hwtsvg  # noqa: E402

OUT = 'counters.svg'
TS_FREQ = 19200000.0
OA_COUNTERS = []                # (bank, index)
FIELDS = []                     # (record type, field, index or None)
PANTHOR = []                    # counter names; empty: the TOP busiest
TOP = 6
DRM = None
HEADER_WORDS = ('TIMESTAMP_LO', 'TIMESTAMP_HI', 'PRFCNT_EN', 'RESERVED')
BLOCK_TYPES = ['fw', 'csg', 'cshw', 'tiler', 'memsys', 'shader']

oa = {'t': 0, 'last_ts': None, 'prev_ctx': None, 'lost': 0}
oa_busy = defaultdict(list)     # ctx -> [(s, %)]
oa_mhz = defaultdict(list)
oa_raw = defaultdict(list)      # (ctx, name) -> [(s, /s)]
field_pts = defaultdict(list)   # series name -> [(s, value)]
field_t0 = {}
pan = defaultdict(list)         # (block, counter) -> [(s at the interval end, /s)]
pan_t0 = [None]


def usage(msg):
    sys.stderr.write('counter-plot.py: %s\n' % msg)
    sys.exit(2)


def parse_args(a):
    global OUT, TS_FREQ, TOP, DRM
    while a:
        k = a.pop(0)
        if not a:       # every option takes a value
            usage('%s wants a value' % k if k.startswith('-') else 'unknown argument %r' % k)
        v = a.pop(0)
        if k in ('-o', '--output'):
            OUT = v
        elif k == '--ts-freq':
            try:
                TS_FREQ = float(v)
            except ValueError:
                TS_FREQ = 0
            if TS_FREQ <= 0:
                usage('--ts-freq wants a positive frequency in Hz, not %r' % v)
        elif k == '--oa-counter':
            for c in v.split(','):
                if len(c) < 2 or c[0] not in 'abc' or not c[1:].isdigit():
                    usage('--oa-counter wants names like a0,b3,c7, not %r' % c)
                OA_COUNTERS.append((c[0], int(c[1:])))
        elif k == '--field':
            rtype, _, name = v.partition('.')
            idx = None
            if name.endswith(']') and '[' in name:
                name, _, i = name[:-1].partition('[')
                if not i.isdigit():
                    usage('--field %r: the index must be a number' % v)
                idx = int(i)
            if not rtype or not name:
                usage('--field wants TYPE.NAME or TYPE.NAME[i], not %r' % v)
            FIELDS.append(('hwtrace__' + rtype, name, idx))
        elif k == '--panthor-counter':
            PANTHOR.extend(c for c in v.split(',') if c)
        elif k == '--top':
            if not v.isdigit() or int(v) < 1:
                usage('--top wants a positive number, not %r' % v)
            TOP = int(v)
        elif k == '--drm':
            DRM = v
        else:
            usage('unknown argument %r' % k)
    if DRM is not None and not os.path.isfile(DRM):
        usage('--drm %s: no such file' % DRM)


def trace_begin():
    parse_args(sys.argv[1:])


def ints(s):
    return [int(x, 0) for x in s.split(',')] if s else []


def oa_report(f):
    ts = f['ts']
    if oa['last_ts'] is not None:       # the stream's own clock, 32 bits wrapping
        oa['t'] += (ts - oa['last_ts']) & 0xffffffff
    oa['last_ts'] = ts
    ctx, oa['prev_ctx'] = oa['prev_ctx'], f['ctx']
    if not f['dts'] or ctx is None:
        return                          # no delta: first report or after a break
    da, dc = ints(f['da']), ints(f['dc'])
    secs = oa['t'] / TS_FREQ
    elapsed = f['dts'] / TS_FREQ
    key = '0x%x' % ctx                  # the delta belongs to the previous report's context
    if len(da) == 45:                   # Haswell: GPU clock is C2, busy A41
        busy, clocks = da[41], dc[2] if len(dc) > 2 else 0
    else:
        busy, clocks = (da[0] if da else 0), f['dticks']
    if clocks:
        oa_busy[key].append((secs, 100.0 * busy / clocks))
    oa_mhz[key].append((secs, clocks / elapsed / 1e6))
    banks = {'a': da, 'b': ints(f['db']), 'c': dc}
    for bank, i in OA_COUNTERS:
        if i < len(banks[bank]):
            oa_raw[(key, '%s%d' % (bank, i))].append((secs, banks[bank][i] / elapsed))


def field_value(f, name, idx):
    v = f.get(name)
    if isinstance(v, str) and idx is not None:
        v = ints(v)
    if isinstance(v, list):
        v = v[idx] if idx is not None and idx < len(v) else None
    return v if isinstance(v, (int, float)) else None


def record_time(event_name, f):
    """Seconds from this type's first record: sample time, else the OA clock."""
    t = f['common_s'] + f['common_ns'] / 1e9
    if not t and event_name == 'hwtrace__i915_oa_report':
        t = oa['t'] / TS_FREQ
    t0 = field_t0.setdefault(event_name, t)
    return t - t0


def panthor_block(f):
    start, end = f['timestamp_start_ns'], f['timestamp_end_ns']
    if end <= start:
        return
    if pan_t0[0] is None:
        pan_t0[0] = start
    bt = f['block_type']
    block = '%s[%d]' % (BLOCK_TYPES[bt] if isinstance(bt, int) and bt < len(BLOCK_TYPES)
                        else bt, f['block_idx'])
    secs = (end - start) / 1e9
    for item in f['counters'].split(',') if f['counters'] else []:
        name, _, v = item.rpartition('=')
        if name in HEADER_WORDS or (PANTHOR and name not in PANTHOR):
            continue
        pan[(block, name)].append(((end - pan_t0[0]) / 1e9, int(v, 0) / secs))


def trace_unhandled(event_name, context, fields, perf_sample_dict=None):
    if event_name == 'hwtrace__i915_oa_report':
        oa_report(fields)
    elif event_name == 'hwtrace__i915_oa_lost':
        oa['lost'] += 1
    elif event_name == 'hwtrace__panthor_block':
        panthor_block(fields)
    for rtype, name, idx in FIELDS:
        if rtype != event_name:
            continue
        v = field_value(fields, name, idx)
        if v is None:
            continue
        label = '%s%s' % (name, '[%d]' % idx if idx is not None else '')
        if 'ctx' in fields:
            label += ' ctx 0x%x' % fields['ctx']
        field_pts[label].append((record_time(event_name, fields), v))


def drm_series(path):
    """Engine utilisation and resident memory per client from top --json lines."""
    util, mem = defaultdict(list), defaultdict(list)
    t0 = None
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                snap = json.loads(line)
            except ValueError as e:
                sys.stderr.write('counter-plot.py: %s:%d: not a top --json line: %s\n' % (path, n, e))
                continue
            t = snap.get('time')
            if not isinstance(t, (int, float)):
                continue
            t0 = t if t0 is None else t0
            for c in snap.get('clients', []):
                who = '%s[%s] %s' % (c.get('comm'), ','.join(str(p) for p in c.get('pids', [])),
                                     c.get('driver'))
                for eng, e in sorted((c.get('engines') or {}).items()):
                    if isinstance(e.get('util'), (int, float)):
                        util['%s %s' % (who, eng)].append((t - t0, e['util']))
                for reg, m in sorted((c.get('memory') or {}).items()):
                    if isinstance(m.get('resident'), int):
                        mem['%s %s' % (who, reg)].append((t - t0, m['resident'] / float(1 << 20)))
    return util, mem


def top_series(d, n):
    """The n series of highest mean, by name order among equals."""
    keys = sorted(d, key=lambda k: (-sum(y for _, y in d[k]) / max(1, len(d[k])), str(k)))
    return keys[:n]


def trace_end():
    panels = []         # (title, y label, [(name, points)])
    ctxs = sorted(set(oa_busy) | set(oa_mhz))
    if ctxs:
        panels.append(('i915 OA: GpuBusy per context', 'GpuBusy (%)',
                       [('ctx %s' % c, oa_busy[c]) for c in ctxs if oa_busy[c]]))
        panels.append(('i915 OA: GPU frequency per context', 'frequency (MHz)',
                       [('ctx %s' % c, oa_mhz[c]) for c in ctxs]))
    if oa_raw:
        panels.append(('i915 OA: raw counters', 'events / s',
                       [('%s ctx %s' % (k[1], k[0]), oa_raw[k]) for k in sorted(oa_raw)]))
    if field_pts:
        names = ', '.join(sorted({k.split(' ')[0] for k in field_pts}))
        panels.append(('record fields by name: ' + names, 'value',
                       [(k, field_pts[k]) for k in sorted(field_pts)]))
    if pan:
        keys = sorted(pan) if PANTHOR else top_series(pan, TOP)
        panels.append(('panthor: counter rates per block', 'events / s',
                       [('%s %s' % k, sorted(pan[k])) for k in keys]))
    if DRM:
        util, mem = drm_series(DRM)
        panels.append(('DRM clients: engine utilisation', 'utilisation (%)',
                       [(k, util[k]) for k in top_series(util, 10)]))
        panels.append(('DRM clients: resident memory', 'resident (MiB)',
                       [(k, mem[k]) for k in top_series(mem, 10)]))
    if not panels:
        print('counter-plot.py: no OA, panthor or --drm data, nothing written')
        return
    left, pw, ph, gap = 90, 640, 220, 90
    legend_w = max([len(name) for _, _, s in panels for name, _ in s] + [10]) * 7 + 40
    svg = hwtsvg.Svg(left + pw + legend_w, 20 + len(panels) * (ph + gap), 'hwtrace counters')
    for i, (title, ylabel, series) in enumerate(panels):
        hwtsvg.line_panel(svg, (left, 50 + i * (ph + gap), pw, ph), title, ylabel, series,
                          xlabel='time (s) from the first record')
    svg.write(OUT)
    print('counter-plot.py: %d panels, %d series, wrote %s'
          % (len(panels), sum(len(s) for _, _, s in panels), OUT))
    if oa['lost']:
        sys.stderr.write('counter-plot.py: %d OA lost-report records (no delta across them)\n'
                         % oa['lost'])


if __name__ == '__main__' and hwtrun.standalone():
    hwtrun.run('counter-plot.py', trace_begin, trace_unhandled, trace_end, need_input=False)
