# SPDX-License-Identifier: GPL-2.0
# description: per-second counter rates per Mali block (panthor)
# args: [-- [--top N] [--csv]]
#
#   perf hwtrace script -i gpu.data -s scripts/panthor-rates.py -- [--top N] [--csv]
#   perf script -i inj.data -s scripts/panthor-rates.py -- [same options]
#
# A panthor sample counts events between timestamp_start_ns and
# timestamp_end_ns, so a counter's rate over the capture is the sum of its
# values over the sum of the sample intervals, per block (type, index).
# Prints the N highest rates per block (default 8), or every counter as CSV.
import sys
from collections import defaultdict

TOP = 8
CSV = False
HEADER_WORDS = ('TIMESTAMP_LO', 'TIMESTAMP_HI', 'PRFCNT_EN', 'RESERVED')
BLOCK_TYPES = ['fw', 'csg', 'cshw', 'tiler', 'memsys', 'shader', 'unknown']
totals = defaultdict(lambda: defaultdict(int))
spans = defaultdict(int)


def kvs(s):
    d = {}
    for item in s.split(',') if s else []:
        k, _, v = item.rpartition('=')
        d[k] = int(v, 0)
    return d


def trace_begin():
    global TOP, CSV
    a = sys.argv[1:]
    while a:
        k = a.pop(0)
        if k == '--top' and a:
            TOP = int(a.pop(0))
        elif k == '--csv':
            CSV = True
        else:
            sys.exit('panthor-rates.py: unknown argument %r' % k)


def trace_unhandled(event_name, context, fields, perf_sample_dict=None):
    if event_name != 'hwtrace__panthor_block':
        return
    bt = fields['block_type']
    name = BLOCK_TYPES[bt] if isinstance(bt, int) and bt < len(BLOCK_TYPES) else str(bt)
    key = (name, fields['block_idx'])
    spans[key] += max(0, fields['timestamp_end_ns'] - fields['timestamp_start_ns'])
    t = totals[key]
    for k, v in kvs(fields['counters']).items():
        if k in HEADER_WORDS:
            continue
        t[k] += v


def trace_end():
    if CSV:
        print('block_type,block_idx,counter,total,seconds,per_second')
    for key in sorted(totals):
        secs = spans[key] / 1e9
        rates = sorted(((v / secs if secs else 0.0, k, v) for k, v in totals[key].items()),
                       key=lambda r: (-r[0], r[1]))
        if CSV:
            for rate, k, v in sorted(rates, key=lambda r: r[1]):
                print('%s,%d,%s,%d,%.9f,%.1f' % (key[0], key[1], k, v, secs, rate))
            continue
        print('%s[%d]: %.6f s sampled' % (key[0], key[1], secs))
        for rate, k, v in rates[:TOP]:
            print('  %-32s %16.1f /s  (%d)' % (k, rate, v))
