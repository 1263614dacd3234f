# SPDX-License-Identifier: GPL-2.0
"""Independent Python model of kernel/i915_oa/sim.c (its header comment).

Reports are built from the documented formulas and the Gen12 report layouts
of Documentation/i915-oa.rst (A32u40_A4u32_B8_C8: A0-31 low dwords at 16, their
high bytes at 160, A32-35 at 144, B at 192, C at 224; C4_B8: C0-3 at 16, B at
32), not from the C code.
"""
import struct

TS_FREQ = 19200000
SIZES = {10: 256, 7: 64}
M64 = (1 << 64) - 1


def wrap(k, lead, inc, bits):
    return (((k - lead) & M64) * inc & M64) & ((1 << bits) - 1)


def values(seed, exp, fmt, k):
    """Decoded view of report k: reason, ts, ctx, ticks, a, b, c."""
    per, q = 2 << exp, seed + 1
    v = dict(reason=8 if k and k % 64 == 0 else 1, ts=wrap(k, 4, per, 32),
             ctx=0x20 if (k // 64) % 2 else 0x10, ticks=wrap(k, 10, 55 * per, 32))
    v["a"] = ([wrap(k, 6, q * (i + 1) * 4099, 40) for i in range(32)] +
              [wrap(k, 7, q * (i + 1) * 1031, 32) for i in range(32, 36)]) if fmt == 10 else []
    v["b"] = [wrap(k, 8, q * (i + 1) * 523, 32) for i in range(8)]
    v["c"] = [wrap(k, 9, q * (i + 1) * 211, 32) for i in range(8 if fmt == 10 else 4)]
    return v


def report(seed, exp, fmt, k):
    """The report bytes."""
    v = values(seed, exp, fmt, k)
    r = bytearray(SIZES[fmt])
    struct.pack_into("<IIII", r, 0, v["reason"] << 19 | 1 << 16, v["ts"], v["ctx"], v["ticks"])
    if fmt == 10:
        for i in range(32):
            struct.pack_into("<I", r, 16 + 4 * i, v["a"][i] & 0xFFFFFFFF)
            r[160 + i] = v["a"][i] >> 32
        struct.pack_into("<4I", r, 144, *v["a"][32:])
        struct.pack_into("<8I", r, 192, *v["b"])
        struct.pack_into("<8I", r, 224, *v["c"])
    else:
        struct.pack_into("<4I", r, 16, *v["c"])
        struct.pack_into("<8I", r, 32, *v["b"])
    return bytes(r)


def k_of_ts(ts, exp):
    """Report number from its timestamp (unique below 2^(31 - exp) reports)."""
    per = 2 << exp
    return (ts // per + 4) % (1 << (32 - exp - 1))


def walk(data):
    """Raw stream -> [(type, body)] or raises ValueError on bad framing."""
    out, pos = [], 0
    while pos < len(data):
        t, pad, size = struct.unpack_from("<IHH", data, pos)
        if size < 8 or pad or pos + size > len(data):
            raise ValueError("bad record at %d: type %d pad %d size %d" % (pos, t, pad, size))
        out.append((t, data[pos + 8:pos + size]))
        pos += size
    return out


def check_stream(seed, exp, fmt, items):
    """items: [("sample", k_or_None, ok_bool) | ("report_lost",) | ("buffer_lost",)].

    Returns (problems, samples, report_lost, buffer_lost).  Report numbers must
    start at 0 and rise by one, except right after a lost record.
    """
    bad, prev, lost, n, rl, bl = [], -1, False, 0, 0, 0
    for it in items:
        if it[0] == "report_lost":
            rl += 1
            lost = True
            continue
        if it[0] == "buffer_lost":
            bl += 1
            lost = True
            continue
        _, k, ok = it
        n += 1
        if not ok:
            bad.append("report %d (k=%s) differs from the model" % (n - 1, k))
        if k != prev + 1 and not (lost and k > prev + 1):
            bad.append("report k=%s follows k=%d without a lost record" % (k, prev))
        prev, lost = k, False
    return bad, n, rl, bl
