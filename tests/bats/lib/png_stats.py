#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""png_stats.py - read an 8-bit RGB/RGBA PNG with zlib alone and print what a
test checks about a rendered picture.

usage: png_stats.py FILE                      -> "W H distinct nonwhite_permille"
       png_stats.py FILE luma X0 Y0 X1 Y1     -> mean luma (0-255) of that box
"""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit('%s: not a PNG' % path)
    pos, idat = 8, []
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat.append(body)
        pos += 12 + n
    if depth != 8 or ctype not in (2, 6) or interlace:
        sys.exit('%s: only 8-bit RGB/RGBA non-interlaced PNGs (depth %d, type %d)'
                 % (path, depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b''.join(idat))
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 0xff
            elif f == 2:
                line[i] = (line[i] + b) & 0xff
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xff
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xff
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


def main():
    w, h, rows = read_png(sys.argv[1])
    if len(sys.argv) > 2 and sys.argv[2] == 'luma':
        x0, y0, x1, y1 = (int(v) for v in sys.argv[3:7])
        px = [rows[y][x] for y in range(y0, y1) for x in range(x0, x1)]
        print('%.2f' % (sum(0.2126 * r + 0.7152 * g + 0.0722 * b for r, g, b in px) / len(px)))
        return
    colours = set()
    nonwhite = 0
    for row in rows:
        colours.update(row)
        nonwhite += sum(1 for p in row if p != (255, 255, 255))
    print(w, h, len(colours), nonwhite * 1000 // (w * h))


main()
