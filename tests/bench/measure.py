#!/usr/bin/env python3
"""measure.py CMD...: run CMD (stdout to /dev/null), print 'seconds maxrss_kib'.

Wall time and the child's peak RSS (getrusage of the waited child), so the
benchmarks need no GNU time.  A child killed by a signal prints no figure
and fails (a crash must not pass for a fast run).
"""
import os
import resource
import subprocess
import sys
import time

t0 = time.monotonic()
with open(os.devnull, "wb") as null:
    rc = subprocess.call(sys.argv[1:], stdout=null, stderr=null)
dt = time.monotonic() - t0
if rc < 0:
    # a crash is no figure: no line, so the caller's read fails
    sys.exit(f"measure.py: {' '.join(sys.argv[1:])}: killed by signal {-rc}")
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(f"{dt:.4f} {rss}")
sys.exit(rc)
