# SPDX-License-Identifier: GPL-2.0
# description: hottest CXL HMU units and DPA ranges per time window
# args: [-- [--window S] [--top N] [--range B]]
#
#   perf hwtrace script -i perf.data -s scripts/hmu-top.py -- [--window S] [--top N] [--range B]
#   perf hwtrace inject -i perf.data -o inj.data
#   perf script -i inj.data -s scripts/hmu-top.py -- [same options]
#
# Both runners call the hooks the same way.  The hook reads fields by name
# through trace_unhandled(), so it keeps working when record types gain fields.
# --window S: seconds per window (default: one window for the whole input);
# --top N: rows per table (10); --range B: DPA range size in bytes (2 MiB).
import sys
from collections import defaultdict

WINDOW = None
TOP = 10
RANGE = 2 << 20


def parse_args(argv):
    global WINDOW, TOP, RANGE
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ('--window', '--top', '--range') and i + 1 < len(argv):
            v = argv[i + 1]
            if a == '--window':
                WINDOW = float(v)
            elif a == '--top':
                TOP = int(v)
            else:
                RANGE = int(v, 0)
            i += 2
        else:
            sys.exit('hmu-top.py: unknown argument %r' % a)


windows = defaultdict(lambda: (defaultdict(int), defaultdict(int), [0]))
first_ns = None


def trace_begin():
    parse_args(sys.argv)


def trace_unhandled(event_name, context, fields, perf_sample_dict=None):
    global first_ns
    if event_name != 'hwtrace__cxl_hmu_unit':
        return
    t = fields['common_s'] * 1000000000 + fields['common_ns']
    if first_ns is None:
        first_ns = t
    w = int((t - first_ns) / (WINDOW * 1e9)) if WINDOW else 0
    units, ranges, n = windows[w]
    key = (fields['pmu'], fields['unit'], fields['dpa'])
    units[key] += fields['count']
    ranges[(fields['pmu'], fields['dpa'] // RANGE * RANGE)] += fields['count']
    n[0] += 1


def trace_end():
    for w in sorted(windows):
        units, ranges, n = windows[w]
        if WINDOW:
            print('window %d: %.3f s .. %.3f s, %d reports' % (w, w * WINDOW, (w + 1) * WINDOW, n[0]))
        else:
            print('all input: %d reports' % n[0])
        print('  %-18s %-12s %-18s %12s' % ('pmu', 'unit', 'dpa', 'count'))
        for (pmu, unit, dpa), c in sorted(units.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP]:
            print('  %-18s %-12d 0x%-16x %12d' % (pmu, unit, dpa, c))
        print('  %-18s %-37s %12s' % ('pmu', 'dpa range', 'count'))
        for (pmu, base), c in sorted(ranges.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP]:
            print('  %-18s 0x%016x-0x%016x %12d' % (pmu, base, base + RANGE - 1, c))
