#!/usr/bin/env python3
"""Test-only perf.data walker and corrupter, independent of libhwtrace.

  perfdata.py records FILE            one line per record: offset type size [payload_size]
  perfdata.py payloads FILE OUT       concatenate every AUXTRACE payload into OUT
  perfdata.py set-u64 FILE OFF VAL    overwrite a u64 at byte OFF
  perfdata.py set-u16 FILE OFF VAL    overwrite a u16 at byte OFF
  perfdata.py hmu-packet OUT UNITS WIDTH ENTRY...   append one raw RFC packet to OUT
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
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
