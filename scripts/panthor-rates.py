# SPDX-License-Identifier: GPL-2.0
# description: per-second counter rates per Mali block (panthor)
# args: [-- [--top N] [--csv]]
#
#   perf hwtrace script -i gpu.data -s scripts/panthor-rates.py -- [--top N] [--csv]
#   perf script -i inj.data -s scripts/panthor-rates.py -- [same options]
#
# A panthor sample's counters count from the previous sample's dump to its
# own; the decoder puts that time in each record's interval_ns (0 for the
# first sample, which has no known start).  A counter's rate is the sum of
# its values over the samples that have an interval divided by the sum of
# those intervals, per block (type, index), rounded to whole events per
# second: the figure `perf hwtrace report` prints (Documentation/panthor.rst).
# A counter the hardware counts in units of 1 << shift (the record's
# `scaled` field, from libGPUCounters) is multiplied by it, as report does.
# Prints the N highest rates per block (default 8), or every counter as CSV.
import sys
from collections import defaultdict

TOP = 8
CSV = False
HEADER_WORDS = ('TIMESTAMP_LO', 'TIMESTAMP_HI', 'PRFCNT_EN', 'RESERVED')
BLOCK_TYPES = ['fw', 'csg', 'cshw', 'tiler', 'memsys', 'shader', 'unknown']
totals = defaultdict(lambda: defaultdict(int))     # all samples, as report's total
counted = defaultdict(lambda: defaultdict(int))    # samples with an interval
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
    iv = fields['interval_ns']
    t, c = totals[key], counted[key]
    spans[key] += iv
    shift = kvs(fields.get('scaled') or '')
    for k, v in kvs(fields['counters']).items():
        if k in HEADER_WORDS:
            continue
        v <<= shift.get(k, 0)
        t[k] += v
        if iv:
            c[k] += v


def per_second(v, ns):
    # as report: rounded half up, in integers (no float error on big counts)
    return (v * 1000000000 + ns // 2) // ns if ns else 0


def trace_end():
    if CSV:
        print('block_type,block_idx,counter,total,seconds,per_second')
    for key in sorted(totals):
        ns = spans[key]
        rates = sorted(((per_second(counted[key][k], ns), k, v) for k, v in totals[key].items()),
                       key=lambda r: (-r[0], r[1]))
        if CSV:
            for rate, k, v in sorted(rates, key=lambda r: r[1]):
                print('%s,%d,%s,%d,%.9f,%d' % (key[0], key[1], k, v, ns / 1e9, rate))
            continue
        print('%s[%d]: %.6f s sampled' % (key[0], key[1], ns / 1e9))
        for rate, k, v in rates[:TOP]:
            print('  %-32s %16d /s  (%d)' % (k, rate, v))
