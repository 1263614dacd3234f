#!/usr/bin/env python3
"""interleave.py RUNS CMD [';;' CMD]...: the best wall time of each CMD.

Each round runs every command once, in the order given (stdout and stderr
to /dev/null); after RUNS rounds one line holds each command's best time in
seconds, in that order.  A ratio of two tools' times is only as good as
the machine is steady between them: a shared VM's speed drifts by a third
over tens of seconds, and timing all of one tool, then all of the other,
puts that drift into the ratio.  Alternating puts both under the same
drift; the best of each still drops the runs another load slowed.  A
command killed by a signal ends it with an error and no figures.
"""
import os
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: interleave.py RUNS CMD [';;' CMD]...")
    runs = int(sys.argv[1])
    cmds, cur = [], []
    for a in sys.argv[2:]:
        if a == ";;":
            cmds.append(cur)
            cur = []
        else:
            cur.append(a)
    cmds.append(cur)
    if any(not c for c in cmds):
        sys.exit("interleave.py: an empty command")
    best = [None] * len(cmds)
    with open(os.devnull, "wb") as null:
        for _ in range(runs):
            for i, c in enumerate(cmds):
                t0 = time.perf_counter()
                rc = subprocess.call(c, stdout=null, stderr=null)
                dt = time.perf_counter() - t0
                if rc < 0:      # a crash must not pass for a fast run
                    sys.exit("interleave.py: %s: killed by signal %d" % (" ".join(c), -rc))
                if best[i] is None or dt < best[i]:
                    best[i] = dt
    print(" ".join("%.6f" % b for b in best))


if __name__ == "__main__":
    main()
