#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""perfetto_read.py TRACE: read a Perfetto protobuf trace with a wire-format
reader of its own (no protobuf library) and print one JSON object:

  {"tracks": {NAME: {"unit": U, "parent": PARENT-NAME, "points": [[ts, v], ...]}},
   "instants": [{"ts": T, "pid": P, "tid": T, "thread": NAME, "name": N, "cat": C}],
   "threads": {TID: {"pid": P, "name": N}}, "processes": {PID: NAME},
   "clock": CLOCK-ID, "primary_clock": ID, "packets": N}

It checks what Perfetto requires of a sequence as it goes and exits 1 on the
first violation: one trusted_packet_sequence_id, the first packet clears
incremental state, packets that use interned ids say they need it and the
ids were defined before, and every track_uuid was described before use.
Field numbers: Documentation/perfetto.rst.
"""
import json
import struct
import sys


def fields(buf):
    """(field number, wire type, value) of each field of message @buf."""
    i, n = 0, len(buf)
    while i < n:
        key, i = varint(buf, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(buf, i)
        elif wt == 1:
            v, i = buf[i:i + 8], i + 8
        elif wt == 2:
            ln, i = varint(buf, i)
            v, i = buf[i:i + ln], i + ln
            if i > n:
                raise ValueError('length past the end')
        elif wt == 5:
            v, i = buf[i:i + 4], i + 4
        else:
            raise ValueError('wire type %d' % wt)
        yield num, wt, v


def varint(buf, i):
    v, shift = 0, 0
    while True:
        b = buf[i]
        i += 1
        v |= (b & 0x7f) << shift
        shift += 7
        if not b & 0x80:
            return v, i


def msg(buf):
    """{field: [values]}"""
    d = {}
    for num, wt, v in fields(buf):
        d.setdefault(num, []).append(v)
    return d


def one(d, k, default=None):
    return d[k][-1] if k in d else default


def s64(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def fail(why):
    print('perfetto_read: ' + why, file=sys.stderr)
    sys.exit(1)


def main():
    data = open(sys.argv[1], 'rb').read()
    tracks, names, threads, procs = {}, {}, {}, {}
    interned = {1: {}, 2: {}}   # event_categories, event_names
    out = {'tracks': {}, 'instants': [], 'threads': {}, 'processes': {}, 'clock': None,
           'primary_clock': None, 'packets': 0}
    first = True
    for num, wt, pkt in fields(data):
        if num != 1 or wt != 2:
            fail('Trace has field %d, not packet (1)' % num)
        p = msg(pkt)
        out['packets'] += 1
        if one(p, 10) != 1:
            fail('packet without trusted_packet_sequence_id 1')
        flags = one(p, 13, 0)
        if first and not flags & 1:
            fail('the first packet does not clear incremental state')
        first = False
        if 6 in p:      # ClockSnapshot
            cs = msg(one(p, 6))
            out['primary_clock'] = one(cs, 2)
        if 12 in p:     # InternedData
            idata = msg(one(p, 12))
            for kind in (1, 2):
                for e in idata.get(kind, []):
                    e = msg(e)
                    interned[kind][one(e, 1)] = one(e, 2).decode()
        if 60 in p:     # TrackDescriptor
            td = msg(one(p, 60))
            uuid = one(td, 1)
            if 4 in td:
                th = msg(one(td, 4))
                tid = one(th, 2)
                name = one(th, 5, b'').decode()
                threads[tid] = {'pid': one(th, 1), 'name': name}
                tracks[uuid] = ('thread', tid)
            elif 3 in td:
                pr = msg(one(td, 3))
                procs[one(pr, 1)] = one(pr, 6, b'').decode()
                tracks[uuid] = ('process', one(pr, 1))
            else:
                name = one(td, 2).decode()
                names[uuid] = name
                if 8 in td:
                    cd = msg(one(td, 8))
                    parent = names.get(one(td, 5))
                    if one(td, 5) is not None and parent is None:
                        fail('track %s: parent not described before' % name)
                    out['tracks'][name] = {'unit': one(cd, 3, 0), 'parent': parent,
                                           'points': []}
                    tracks[uuid] = ('counter', name)
                else:
                    tracks[uuid] = ('group', name)
        if 11 in p:     # TrackEvent
            te = msg(one(p, 11))
            ts = one(p, 8)
            clock = one(p, 58)
            if ts is None:
                fail('track event without a timestamp')
            if out['clock'] is None:
                out['clock'] = clock
            elif clock != out['clock']:
                fail('timestamps on two clocks')
            uuid = one(te, 11)
            if uuid not in tracks:
                fail('track_uuid %s used before its descriptor' % uuid)
            kind, what = tracks[uuid]
            typ = one(te, 9)
            if typ == 4:
                if kind != 'counter':
                    fail('counter value on a %s track' % kind)
                if 30 in te:
                    v = s64(one(te, 30))
                elif 44 in te:
                    v = struct.unpack('<d', one(te, 44))[0]
                else:
                    fail('counter event without a value')
                out['tracks'][what]['points'].append([ts, v])
            elif typ == 3:
                if kind != 'thread':
                    fail('instant on a %s track' % kind)
                if not flags & 2:
                    fail('interned ids without SEQ_NEEDS_INCREMENTAL_STATE')
                niid, ciid = one(te, 10), one(te, 3)
                if niid not in interned[2] or ciid not in interned[1]:
                    fail('interned id used before it was defined')
                out['instants'].append({'ts': ts, 'tid': what,
                                        'pid': threads[what]['pid'],
                                        'thread': threads[what]['name'],
                                        'name': interned[2][niid], 'cat': interned[1][ciid]})
            else:
                fail('track event type %s' % typ)
    out['threads'] = {str(k): v for k, v in threads.items()}
    out['processes'] = {str(k): v for k, v in procs.items()}
    json.dump(out, sys.stdout)
    print()


main()
