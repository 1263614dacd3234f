# SPDX-License-Identifier: GPL-2.0
"""Independent Python model of kernel/panthor_perf/sim.c (its header comment).

Written from the documented formulas and the panthor uAPI layout
(Documentation/panthor.rst: 56-byte sample header, 24-byte block header), not
from the C code, so a kernel recording is checked against what the model
says it must hold.
"""
import struct

KINDS = ["fw", "csg", "cshw", "tiler", "memsys", "shader"]
COUNTS = [1, 2, 1, 1, 4, 4]
TYPES = {6: [1, None, 2, 3, 4, 5], 2: [1, 2, 3, 4, 5, 6]}
CLOCK = [0, 0, 0, 1, 1, 2]
CPB = 64
ON, OFF, AVAIL, UNAVAIL, NORMAL, PROT = 1, 2, 4, 8, 0x10, 0x20
STATE_NAMES = ["ON", "OFF", "AVAILABLE", "UNAVAILABLE", "NORMAL", "PROTECTED"]
OVERFLOW = 1


def blocks(layout):
    """[(kind index, instance)] in sample order."""
    return [(b, x) for b in range(6) if TYPES[layout][b] is not None for x in range(COUNTS[b])]


def sample_size(layout):
    return 56 + len(blocks(layout)) * (24 + 8 * CPB)


def powered(m, b, x):
    return not (b == 5 and x == 3 and m % 10 == 0)


def states(k, b, x):
    if b == 5 and x == 3 and k % 10 == 0:
        return OFF | AVAIL
    if b == 3 and k % 7 == 0:
        return ON | AVAIL | PROT
    return ON | AVAIL | NORMAL


def counters(seed, j, k, b, x):
    ts = k << 24
    v = [ts & 0xFFFFFFFF, ts >> 32, 0xFFFFFFFF, 0]
    for i in range(4, CPB):
        a = (seed * 131 + b * 1009 + x * 257 + i * 37) % 4096
        c = (b + x + i) % 5
        v.append(sum(a + m * c for m in range(j + 1, k + 1) if powered(m, b, x)))
    return v


def cycles(j, k):
    n = k - j
    return [n * 800000, n * 800000, n * 1000000]


def parse_sample(data, layout):
    """One raw sample -> (header dict, [block dicts])."""
    ts0, ts1, bset, flags, user, c0, c1, c2 = struct.unpack_from("<QQB3xIQQQQ", data, 0)
    hdr = dict(ts_start=ts0, ts_end=ts1, block_set=bset, flags=flags, k=user,
               cycles=[c0, c1, c2])
    out, pos = [], 56
    for _ in blocks(layout):
        t, idx, st, clk, pad, em0, em1 = struct.unpack_from("<BBBBIQQ", data, pos)
        vals = list(struct.unpack_from("<%dQ" % CPB, data, pos + 24))
        out.append(dict(type=t, idx=idx, states=st, clock=clk, pad=pad, em=[em0, em1],
                        values=vals))
        pos += 24 + 8 * CPB
    return hdr, out


def check_sample(seed, layout, j, hdr, blks):
    """Problems of one sample that follows the one at period j ([] when right)."""
    k, bad = hdr["k"], []
    if k <= j:
        return ["user_data %d not after %d" % (k, j)]
    if hdr["flags"] != (OVERFLOW if k - j > 1 else 0):
        bad.append("k=%d flags %#x with %d periods" % (k, hdr["flags"], k - j))
    if hdr["cycles"] != cycles(j, k):
        bad.append("k=%d cycles %s" % (k, hdr["cycles"]))
    if hdr["ts_end"] < hdr["ts_start"]:
        bad.append("k=%d end before start" % k)
    for (b, x), blk in zip(blocks(layout), blks):
        want = dict(type=TYPES[layout][b], idx=x, states=states(k, b, x), clock=CLOCK[b],
                    pad=0, em=[2**64 - 1, 0], values=counters(seed, j, k, b, x))
        if blk != want:
            bad.append("k=%d %s %d differs" % (k, KINDS[b], x))
    return bad
