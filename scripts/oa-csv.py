# SPDX-License-Identifier: GPL-2.0
# description: i915 OA reports as CSV with deltas and derived metrics
# args: [-- [--ts-freq HZ] [-o out.csv]]
#
#   perf hwtrace script -i oa.data -s scripts/oa-csv.py -- [--ts-freq HZ] [-o out.csv]
#   perf script -i inj.data -s scripts/oa-csv.py -- [same options]
#
# One row per report that has a predecessor in its context (dts etc. are
# absent after a break, i.e. 0 / empty here).  Derived: elapsed_ns from the
# command-streamer timestamp (--ts-freq, default 19.2 MHz as on gen12) and
# gpu_mhz = dticks / elapsed.  Counter deltas da*, db*, dc* follow.
import sys

TS_FREQ = 19200000.0
out = sys.stdout
header = None
lost = 0


def ints(s):
    return [int(x, 0) for x in s.split(',')] if s else []


def trace_begin():
    global TS_FREQ, out
    a = sys.argv[1:]
    while a:
        k = a.pop(0)
        if k == '--ts-freq' and a:
            TS_FREQ = float(a.pop(0))
        elif k in ('-o', '--output') and a:
            out = open(a.pop(0), 'w')
        else:
            sys.exit('oa-csv.py: unknown argument %r' % k)


def trace_unhandled(event_name, context, fields, perf_sample_dict=None):
    global header, lost
    if event_name == 'hwtrace__i915_oa_lost':
        lost += 1
        return
    if event_name != 'hwtrace__i915_oa_report':
        return
    da, db, dc = ints(fields['da']), ints(fields['db']), ints(fields['dc'])
    if not da and not fields['dts']:
        return                      # first report of a context or after a break
    if header is None:
        header = (['ts', 'ctx', 'reason', 'dts', 'dticks', 'elapsed_ns', 'gpu_mhz'] +
                  ['da%d' % i for i in range(len(da))] + ['db%d' % i for i in range(len(db))] +
                  ['dc%d' % i for i in range(len(dc))])
        out.write(','.join(header) + '\n')
    elapsed = fields['dts'] * 1e9 / TS_FREQ
    mhz = fields['dticks'] / elapsed * 1e3 if elapsed else 0.0
    row = [fields['ts'], fields['ctx'], fields['reason'], fields['dts'], fields['dticks'],
           '%.1f' % elapsed, '%.2f' % mhz] + da + db + dc
    out.write(','.join(str(v) for v in row) + '\n')


def trace_end():
    if lost:
        sys.stderr.write('oa-csv.py: %d lost-report records\n' % lost)
    out.flush()
