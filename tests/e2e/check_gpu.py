# SPDX-License-Identifier: GPL-2.0
"""Checks of the panthor and i915 OA recordings and of the recorder's perf.data
files (called by check.py).  Expectations come from sim_panthor.py,
sim_i915.py and sim_hmu.py, independent models of the seeded devices."""
import itertools
import json
import os
import re
import struct
import subprocess

import sim_hmu
import sim_i915
import sim_panthor

# panthor_perf_sim lose_every= of the pt_lost run in init.sh
PT_LOSE_EVERY = 20


def whole(recs, aux_size, units):
    """Records hold whole units (units(data) -> their lengths, or None) and no
    unit crosses the end of the AUX buffer."""
    for off, _size, _f, data in recs:
        lens = units(data)
        if lens is None or sum(lens) != len(data):
            return False
        for n in lens:
            if off // aux_size != (off + n - 1) // aux_size:
                return False
            off += n
    return True


def oa_units(data):
    """A report and the loss records just before it form one unit."""
    try:
        recs = sim_i915.walk(data)
    except ValueError:
        return None
    lens, cur = [], 0
    for t, body in recs:
        cur += 8 + len(body)
        if t == 1:
            lens.append(cur)
            cur = 0
    return lens + ([cur] if cur else [])


def panthor_raw(check, name, recs, aux_size, seed, layout, expect):
    ss = sim_panthor.sample_size(layout)
    check(whole(recs, aux_size, lambda d: [ss] * (len(d) // ss)),
          "%s: records are whole %d-byte samples, none across the buffer end" % (name, ss))
    j, bad, n, over, after, seen = 0, [], 0, 0, 0, False
    lose = PT_LOSE_EVERY if expect == "lost" else 0
    for _off, _size, flags, data in recs:
        for p in range(0, len(data) - ss + 1, ss):
            hdr, blks = sim_panthor.parse_sample(data[p:p + ss], layout)
            if lose:
                # the device dropped (m, k] at every m % lose == 0 it passed
                bad += ["k=%d: a lost period has a sample" % hdr["k"]] * (hdr["k"] % lose == 0)
                j = max(j, (hdr["k"] - 1) // lose * lose)
            bad += sim_panthor.check_sample(seed, layout, j, hdr, blks)
            over += hdr["flags"] & 1
            j, n, after = hdr["k"], n + 1, after + seen
        seen |= bool(flags & 1)
    check(n > 0 and not bad, "%s: %d samples (layout %d) equal the model (seed %d)%s"
          % (name, n, layout, seed, "".join("\n    " + b for b in bad[:5])))
    trunc = sum(1 for r in recs if r[2] & 1)
    if expect == "exact":
        check(over == 0 and trunc == 0 and j == n,
              "%s: one sample per period, no OVERFLOW or TRUNCATED" % name)
    elif expect == "lost":
        # the ring overflow is reported as one empty TRUNCATED record, then the PMU
        # stops until the reader re-enables it
        empty = all(size == 0 for _o, size, f, _d in recs if f & 1)
        check(trunc > 0 and trunc >= j // lose and empty and after > 0 and j > lose,
              "%s: forced sample-ring overflow every %d periods: %d TRUNCATED records "
              "(empty: %s), samples after the loss restart the accumulation at the lost "
              "period, last period %d" % (name, lose, trunc, empty, j))
    elif expect == "small":
        check(trunc == 0 and n >= 15, "%s: %d samples in a 4-page buffer, no TRUNCATED"
              % (name, n))
    else:
        # the counters wait in the device: nothing is lost, so nothing is TRUNCATED
        check(over > 0 and trunc == 0, "%s: AUX overrun: %d OVERFLOW samples carry the "
              "counters over, %d TRUNCATED records (want 0: nothing lost)" % (name, over, trunc))


def i915_raw(check, name, recs, aux_size, seed, exp, fmt, expect):
    items, bad, mismatch = [], [], 0
    for off, _size, flags, data in recs:
        try:
            walked = list(sim_i915.walk(data))
            # TRUNCATED exactly on the records that hold a loss record
            mismatch += bool(flags & 1) != any(t in (2, 3) for t, _b in walked)
            for t, body in walked:
                if t == 1:
                    k = sim_i915.k_of_ts(struct.unpack_from("<I", body, 4)[0], exp)
                    items.append(("sample", k, body == sim_i915.report(seed, exp, fmt, k)))
                elif t in (2, 3) and not body:
                    items.append(("report_lost" if t == 2 else "buffer_lost",))
                else:
                    bad.append("record type %d size %d at %#x" % (t, len(body), off))
        except ValueError as e:
            bad.append(str(e))
    check(whole(recs, aux_size, oa_units) and not bad,
          "%s: records are whole i915 perf records, none across the buffer end%s"
          % (name, "".join("\n    " + b for b in bad[:5])))
    probs, n, rl, bl = sim_i915.check_stream(seed, exp, fmt, items)
    check(n > 0 and not probs, "%s: %d reports (format %d) equal the model byte for byte, in "
          "sequence%s" % (name, n, fmt, "".join("\n    " + b for b in probs[:5])))
    check(mismatch == 0, "%s: TRUNCATED exactly on the records with a loss record "
          "(%d differ)" % (name, mismatch))
    if expect == "exact":
        check(rl == bl == 0, "%s: no lost records" % name)
    else:
        # which of the two a loss becomes depends on how long the reader
        # sleeps against the 16-report OA buffer: either proves the loss path
        check(rl + bl > 0 and any(r[2] & 1 for r in recs),
              "%s: AUX overrun: %d OA_REPORT_LOST, %d OA_BUFFER_LOST, TRUNCATED" %
              (name, rl, bl))


def oa_fill(check, name, recs, aux_size, threshold, report_size):
    """With fill_threshold the OA unit is polled once it holds that many reports:
    fewer per record only where a record ends at the buffer end (the next unit
    goes on at 0) or at the drain on stop."""
    unit = 8 + report_size
    small = sum(1 for off, size, _f, _d in recs
                if size < threshold * unit and (off + size) % aux_size)
    check(recs and small <= 1, "%s: fill_threshold=%d: %d records, %d with fewer reports "
          "not at the buffer end (at most the stop's drain)" % (name, threshold, len(recs), small))


def tool(args):
    r = subprocess.run(args, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def script_json(hwt, path):
    rc, out, err = tool([hwt, "script", "--json", "-i", path])
    return rc, [json.loads(ln) for ln in out.splitlines() if ln.startswith("{")], err


def data_hmu(check, hwt, path, seed, gran, rsize, thr, aux_size):
    rc, out, err = tool([hwt, "report", "-D", "-i", path])
    lines = out.splitlines()
    heads = [ln for ln in lines if ln.startswith("Header 0: units: ")]
    # the device drops hot units when its hotlist overflows: TRUNCATED records
    trunc = sum(1 for ln in lines if "PERF_RECORD_AUX " in ln and "[T" in ln)
    model = sim_hmu.SimHmu(seed, (rsize << 28) >> gran, 16, thr).packets()
    # a packet ends where a model batch ends: one drain per epoch, or one
    # drain of several batches when it was delayed past an epoch (a loaded
    # host); only the AUX buffer's end cuts a batch, and the packet after the
    # cut ends at a batch end again.  A packet is a 16-byte header and 8 bytes
    # per unit (the RFC's layout); their sizes must add up to the AUXTRACE
    # records' for the positions to be trusted.
    units = [int(h.split()[3], 16) for h in heads if h.endswith(" counter_width 10")]
    ends = list(itertools.accumulate(units))
    where = list(itertools.accumulate(16 + 8 * n for n in units))
    aux_bytes = sum(int(m.group(1), 16) for m in
                    (re.search(r": PERF_RECORD_AUXTRACE size: (0x[0-9a-f]+) ", ln)
                     for ln in lines) if m)
    batch_ends, total = set(), 0
    while ends and total < ends[-1]:
        total += next(model)[0]
        batch_ends.add(total)
    part = len(units) == len(heads) and bool(where) and where[-1] == aux_bytes and all(
        e in batch_ends or
        (where[i] % aux_size == 0 and i + 1 < len(ends) and ends[i + 1] in batch_ends)
        for i, e in enumerate(ends))
    check(rc == 0 and heads and (part or trunc > 0) and "Header 1 : deadbeef" in lines and
          any(re.fullmatch(r"\. \.\.\. CXL_HMU data: size \d+ bytes", ln) for ln in lines),
          "rec_hmu: `report -D` prints the RFC's lines; %d packet headers end at the model's "
          "batch ends (a late drain takes several, only the end of the %d-byte AUX buffer "
          "cuts one), or the device lost units (%d TRUNCATED records)"
          % (len(heads), aux_size, trunc))
    rc, recs, err = script_json(hwt, path)
    got = [(r["unit"], r["count"]) for r in recs if r.get("type") == "cxl_hmu_unit"]
    want = ((e >> 16, e & 0xFFFF) for _, es in
            sim_hmu.SimHmu(seed, (rsize << 28) >> gran, 16, thr).packets() for e in es)
    skipped, ok = 0, True
    for g in got:
        for w in want:
            if w == g:
                break
            skipped += 1
            if skipped > 100000:
                ok = False
                break
        if not ok:
            break
    check(rc == 0 and got and ok and (skipped == 0 or trunc > 0),
          "rec_hmu: `script --json`: %d units/counts equal the model, %d missing where the "
          "device lost units (%d TRUNCATED records)" % (len(got), skipped, trunc))


def data_panthor(check, hwt, path, seed, layout):
    rc, recs, err = script_json(hwt, path)
    samples = {}
    for r in recs:
        if r.get("type") == "panthor_block":
            samples.setdefault(r["sample"], []).append(r)
    j, bad = 0, []
    bl = sim_panthor.blocks(layout)
    for s in sorted(samples):
        blks = samples[s]
        k = int(blks[0]["user_data"], 16)     # hex fields are JSON strings
        if len(blks) != len(bl) or k <= j:
            bad.append("sample %d: %d blocks, user_data %d after %d" % (s, len(blks), k, j))
            j = k
            continue
        cyc = sim_panthor.cycles(j, k)
        for (b, x), r in zip(bl, blks):
            st = sim_panthor.states(k, b, x)
            want = dict(block_type=sim_panthor.KINDS[b], block_idx=x,
                        block_states=[n for i, n in enumerate(sim_panthor.STATE_NAMES)
                                      if st >> i & 1],
                        flags=["OVERFLOW"] if k - j > 1 else [],
                        cycles=cyc[sim_panthor.CLOCK[b]],
                        values=sim_panthor.counters(seed, j, k, b, x))
            got = {key: r.get(key) for key in want}
            if got != want:
                bad.append("sample %d k=%d %s %d: %s" % (
                    s, k, want["block_type"], x,
                    [key for key in want if got[key] != want[key]]))
        j = k
    check(rc == 0 and samples and not bad,
          "rec_panthor: `script --json`: %d samples (layout %d) equal the model%s"
          % (len(samples), layout, "".join("\n    " + b for b in bad[:5])))


def data_i915(check, hwt, path, seed, exp, fmt):
    rc, recs, err = script_json(hwt, path)
    items = []
    for r in recs:
        if r.get("type") == "i915_oa_lost":
            items.append((r["kind"],))
        elif r.get("type") == "i915_oa_report":
            k = sim_i915.k_of_ts(r["ts"], exp)
            v = sim_i915.values(seed, exp, fmt, k)
            reason = ["timer"] if v["reason"] == 1 else ["context-switch"]
            ok = (r["reason"] == reason and r["ctx"] == hex(v["ctx"]) and r["ctx_valid"] and
                  r["ticks"] == v["ticks"] and r.get("a", []) == v["a"] and
                  r["b"] == v["b"] and r["c"] == v["c"])
            items.append(("sample", k, ok))
    probs, n, rl, bl = sim_i915.check_stream(seed, exp, fmt, items)
    check(rc == 0 and n > 0 and not probs,
          "rec_i915: `script --json`: %d reports (format %d) equal the model%s"
          % (n, fmt, "".join("\n    " + b for b in probs[:5])))
    # record put the PMU's caps/ into AUXTRACE_INFO: report --metrics finds the
    # set and the topology, and each context's GpuTime is the time its deltas
    # cover, from the model's timestamps (19.2 MHz, none across a loss)
    rc, out, err = tool([hwt, "report", "--metrics", "--json", "-i", path])
    groups = [json.loads(ln) for ln in out.splitlines() if ln.startswith("{")]
    # the model's reports, in the order and with the losses check_stream()
    # accepted above: each delta's ticks go to the context of its first report
    ticks, prev = {}, None
    for it in items:
        if it[0] != "sample":
            prev = None
            continue
        v = sim_i915.values(seed, exp, fmt, it[1])
        if prev is not None:
            c = hex(prev["ctx"])
            ticks[c] = ticks.get(c, 0) + ((v["ts"] - prev["ts"]) & 0xffffffff)
        prev = v
    want = {c: t * 10**9 // sim_i915.TS_FREQ for c, t in ticks.items()}
    got = {g["ctx"]: g["metrics"].get("GpuTime") for g in groups}
    check(rc == 0 and groups and all(g["metric_set"] == "RenderBasic" for g in groups) and
          got == want,
          "rec_i915: `report --metrics`: RenderBasic per context, GpuTime as the model's "
          "timestamps say (%s vs %s)%s" % (got, want, err.strip()[:200]))


def oa_among_cpu(check, hwt, path, outdir):
    """Issue 11: OA reports carry CPU time; after inject, stock perf script
    shows them among the CPU's samples, in time order.  perf may print a CPU
    sample that reached its ring late (after its round was flushed): such a
    sample is earlier than one printed before it.  No OA report may be late
    (inject holds back the rounds that would make one late, and says when
    it cannot), and once the late CPU samples are set aside the rest is in
    order."""
    inj = os.path.join(outdir, "rec_i915_cpu.inj")
    rc, out, err = tool([hwt, "inject", "-i", path, "-o", inj])
    rc2, out2, err2 = tool(["perf", "script", "-i", inj, "-F", "time,event"])
    seq = []
    for ln in out2.splitlines():
        m = re.match(r"\s*(\d+\.\d+):\s+(\S+?):?\s*$", ln)
        if m:
            seq.append((float(m.group(1)), "i915_oa_report" in m.group(2),
                        "cpu-clock" in m.group(2)))
    oa = [t for t, is_oa, _ in seq if is_oa]
    cpu = [t for t, _, is_cpu in seq if is_cpu]
    late, late_oa, top = 0, 0, 0.0
    for t, is_oa, _ in seq:
        if t < top:
            late_oa += is_oa
            late += not is_oa
        top = max(top, t)
    inside = [t for t in cpu if oa and oa[0] < t < oa[-1]]
    check(rc == 0 and rc2 == 0 and len(oa) > 10 and len(cpu) > 10 and min(oa) > 0 and
          oa == sorted(oa) and inside and cpu[0] - 1 < oa[0] and oa[-1] < cpu[-1] + 1 and
          not late_oa and late <= len(seq) // 100 and "out of order" not in err,
          "rec_i915_cpu: after inject, stock perf script shows %d OA reports among %d CPU "
          "samples in time order (%d CPU samples between the first and last report; %d "
          "late CPU samples, %d late OA reports)%s"
          % (len(oa), len(cpu), len(inside), late, late_oa, (err + err2).strip()[:300]))
