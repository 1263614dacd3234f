#!/usr/bin/env python3
"""Test-only perf.data walker and corrupter, independent of libhwtrace.

  perfdata.py records FILE            one line per record: offset type size [payload_size]
  perfdata.py payloads FILE OUT       concatenate every AUXTRACE payload into OUT
  perfdata.py set-u64 FILE OFF VAL    overwrite a u64 at byte OFF
  perfdata.py set-u16 FILE OFF VAL    overwrite a u16 at byte OFF
  perfdata.py hmu-packet OUT UNITS WIDTH ENTRY...   append one raw RFC packet to OUT
  perfdata.py branch-file OUT [hw-idx] [callstack]   a perf.data of branch stack samples
  perfdata.py oa-rounds PIPE OUT ROUNDS [GAP_S]   PIPE (synth --pipe) plus cpu-clock samples
                                      in ROUNDS rounds before each AUX drain (see oa_rounds)
"""
import struct
import sys


def walk(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"PERFILE2":
        raise SystemExit("not a perf.data")
    hsize = struct.unpack_from("<Q", data, 8)[0]
    if hsize == 16:  # pipe mode
        off, end = 16, len(data)
    else:
        off, size = struct.unpack_from("<QQ", data, 40)
        end = off + size
    while off + 8 <= end:
        typ, misc, size = struct.unpack_from("<IHH", data, off)
        if size < 8:
            break
        extra = 0
        if typ == 71:
            extra = struct.unpack_from("<Q", data, off + 8)[0]
        elif typ == 66 and hsize == 16:
            extra = (struct.unpack_from("<I", data, off + 8)[0] + 7) & ~7
        yield off, typ, size, extra, data
        off += size + extra


# perf_event_attr bits this writer uses
SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_CPU, SAMPLE_PERIOD = 1, 2, 4, 0x80, 0x100
SAMPLE_BRANCH_STACK = 0x800
BRANCH_ANY, BRANCH_CALL_STACK, BRANCH_HW_INDEX = 0x8, 0x800, 0x20000
ATTR_SIZE = 128  # PERF_ATTR_SIZE_VER7


def branch_flags(mispred=0, predicted=0, in_tx=0, abort=0, cycles=0, btype=0, spec=0,
                 new_type=0, priv=0, reserved=0):
    """perf_branch_entry's third word, bit by bit as in linux/perf_event.h"""
    return (mispred | predicted << 1 | in_tx << 2 | abort << 3 | cycles << 4 |
            btype << 20 | spec << 24 | new_type << 26 | priv << 30 | reserved << 33)


# (from, to, flags) stacks, one per sample: flags of every kind, the branch
# types perf names (4 CALL, 6 RET, 1 COND), 15 = "extended" with a new type,
# an empty stack
BRANCH_SAMPLES = [
    [(0x401000, 0x402000, branch_flags(mispred=1, cycles=7, btype=4)),
     (0x402010, 0x401004, branch_flags(predicted=1, cycles=65535, btype=6)),
     (0xffffffff81000000, 0x7f0000001000, branch_flags(abort=1, in_tx=1, btype=1,
                                                        reserved=0x5a))],
    [(0x500000, 0x500100, branch_flags(btype=15, new_type=1, spec=2, priv=1))],
    [],
    [(0x1, 0x2, branch_flags(btype=11)), (0x3, 0x4, branch_flags(btype=14, cycles=1)),
     (0x5, 0x6, branch_flags())],
]


def branch_file(out, hw_idx, callstack):
    """One cycles attr sampling IP, TID, TIME, CPU, PERIOD and BRANCH_STACK."""
    bst = BRANCH_ANY | (BRANCH_HW_INDEX if hw_idx else 0) | (BRANCH_CALL_STACK if callstack else 0)
    st = SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_CPU | SAMPLE_PERIOD | SAMPLE_BRANCH_STACK
    sample_id_all = 1 << 18
    attr = struct.pack("<IIQQQQQIIQQQQIiQIHHIIQ", 0, ATTR_SIZE, 0, 10000, st, 0, sample_id_all,
                       0, 0, 0, 0, bst, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    assert len(attr) == ATTR_SIZE
    data = b""
    for n, stack in enumerate(BRANCH_SAMPLES):
        body = struct.pack("<QIIQIIQ", stack[0][0] if stack else 0x401000, 1000 + n, 1000 + n,
                           1000000 + 1000 * n, n % 2, 0, 10000)
        body += struct.pack("<Q", len(stack))
        if hw_idx:
            body += struct.pack("<Q", 0xfffffffffffffff0 + n)
        for e in stack:
            body += struct.pack("<QQQ", *e)
        data += struct.pack("<IHH", 9, 2, 8 + len(body)) + body  # SAMPLE, MISC_USER
    hsize = 104
    attrs_off = hsize
    data_off = attrs_off + ATTR_SIZE + 16
    head = b"PERFILE2" + struct.pack("<QQ", hsize, ATTR_SIZE + 16)
    head += struct.pack("<QQQQQQ", attrs_off, ATTR_SIZE + 16, data_off, len(data), 0, 0)
    # one feature, EVENT_DESC (bit 12), naming the event: {u32 nr, u32 attr
    # size, attr, u32 nr_ids, u32 len + the name NUL-padded to 64, no ids}
    head += struct.pack("<Q", 1 << 12) + bytes(24)
    name = b"cycles"
    desc = struct.pack("<II", 1, ATTR_SIZE) + attr + struct.pack("<II", 0, 64)
    desc += name + bytes(64 - len(name))
    feat_off = data_off + len(data) + 16
    index = struct.pack("<QQ", feat_off, len(desc))
    with open(out, "wb") as f:
        f.write(head + attr + struct.pack("<QQ", 0, 0) + data + index + desc)


def oa_rounds(src, out, per_drain, gap_s):
    """A recorder that finishes @per_drain rounds while the OA unit fills a
    drain: before each PERF_RECORD_AUX (after the first), cpu-clock samples
    spread over the time since the previous one, 5 a round, each round ended
    by a FINISHED_ROUND.  The drain's reports are dated back over those
    rounds.  @gap_s > 0: before the last drain the samples run on to its
    time + @gap_s.  Prints the samples and rounds added."""
    st = SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_CPU | SAMPLE_PERIOD | 1 << 16
    attr = struct.pack("<IIQQQQQIIQQQQIiQIHHIIQ", 1, ATTR_SIZE, 0, 250000, st, 0, 1 << 18,
                       0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    cpu_id = 4242
    recs = list(walk(src))
    data = recs[0][4]
    if struct.unpack_from("<Q", data, 8)[0] != 16:
        raise SystemExit("oa-rounds wants a pipe-mode file")
    drains = [off for off, typ, _, _, _ in recs if typ == 11]
    o = bytearray(data[:16])
    nsamples = nrounds = 0
    prev, added = None, False
    for off, typ, size, extra, _ in recs:
        if typ == 11:
            t = struct.unpack_from("<Q", data, off + 40)[0]
            end = t + int(gap_s * 1e9) if off == drains[-1] and gap_s > 0 else t
            if prev is not None:
                for k in range(per_drain * 5):
                    ts = prev + (end - prev) * (k + 1) // (per_drain * 5 + 1)
                    o += struct.pack("<IHH", 9, 1, 56)
                    o += struct.pack("<QQIIQIIQ", cpu_id, 0xffffffff81000000, 0, 0, ts, 0, 0,
                                     250000)
                    nsamples += 1
                    if k % 5 == 4:
                        o += struct.pack("<IHH", 68, 0, 8)
                        nrounds += 1
            prev = end
        o += data[off:off + size + extra]
        if typ == 64 and not added:    # after the OA event's attr
            o += struct.pack("<IHH", 64, 0, 8 + ATTR_SIZE + 8) + attr
            o += struct.pack("<Q", cpu_id)
            # EVENT_UPDATE NAME (2), as perf record's pipe mode names events
            name = b"cpu-clock".ljust(16, b"\0")
            o += struct.pack("<IHHQQ", 78, 0, 24 + len(name), 2, cpu_id) + name
            added = True
    with open(out, "wb") as f:
        f.write(o)
    print("samples %d rounds %d" % (nsamples, nrounds))


def main():
    cmd = sys.argv[1]
    if cmd == "records":
        for off, typ, size, extra, _ in walk(sys.argv[2]):
            print(off, typ, size, extra)
    elif cmd == "payloads":
        with open(sys.argv[3], "wb") as out:
            for off, typ, size, extra, data in walk(sys.argv[2]):
                if typ == 71:
                    out.write(data[off + size: off + size + extra])
    elif cmd in ("set-u64", "set-u16"):
        fmt = "<Q" if cmd == "set-u64" else "<H"
        with open(sys.argv[2], "r+b") as f:
            f.seek(int(sys.argv[3], 0))
            f.write(struct.pack(fmt, int(sys.argv[4], 0)))
    elif cmd == "hmu-packet":
        units, width = int(sys.argv[3], 0), int(sys.argv[4], 0)
        entries = [int(e, 0) for e in sys.argv[5:]]
        with open(sys.argv[2], "ab") as out:
            out.write(struct.pack("<QQ", units | (width << 16), 0xDEADBEEF))
            for e in entries:
                out.write(struct.pack("<Q", e))
    elif cmd == "oa-rounds":
        oa_rounds(sys.argv[2], sys.argv[3], int(sys.argv[4]),
                  float(sys.argv[5]) if len(sys.argv) > 5 else 0)
    elif cmd == "branch-file":
        branch_file(sys.argv[2], "hw-idx" in sys.argv[3:], "callstack" in sys.argv[3:])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
