#!/usr/bin/env python3
# fake_proc.py ROOT CLIENTS_PER_PROC - the /proc-shaped tree top.sh and
# exporter.sh time: 1000 processes (pids 1000-1999), each with 8 non-DRM fds
# (sockets, with a short fdinfo) and 8 DRM fds 10-17 spread over
# CLIENTS_PER_PROC distinct i915 clients (2: card0 and renderD128 clients,
# each dup'd 4 times, the common case; 8: every fd its own client).  Client
# ids run from 0 across the tree; a client's render engine has id * 1000 ns.
# Every client prints 4 engines (render, copy, video, video-enhance), a
# capacity and the 5 memory kinds of system0.
import os
import sys

TEXT = ("pos:\t0\nflags:\t02100002\nmnt_id:\t26\nino:\t284\ndrm-driver:\ti915\n"
        "drm-client-id:\t{id}\ndrm-pdev:\t0000:00:02.0\n"
        "drm-total-system0:\t6044 KiB\ndrm-shared-system0:\t0\ndrm-active-system0:\t0\n"
        "drm-resident-system0:\t6044 KiB\ndrm-purgeable-system0:\t1688 KiB\n"
        "drm-engine-render:\t{ns} ns\ndrm-engine-copy:\t0 ns\ndrm-engine-video:\t0 ns\n"
        "drm-engine-capacity-video:\t2\ndrm-engine-video-enhance:\t0 ns\n")


def main():
    root, per = sys.argv[1], int(sys.argv[2])
    if per not in (1, 2, 4, 8):
        sys.exit("fake_proc.py: CLIENTS_PER_PROC must divide 8")
    cid = 0
    for p in range(1000, 2000):
        d = f"{root}/{p}"
        os.makedirs(f"{d}/fd")
        os.makedirs(f"{d}/fdinfo")
        with open(f"{d}/comm", "w") as f:
            f.write(f"app{p}\n")
        for fd in range(8):             # non-DRM fds
            os.symlink(f"socket:[{p * 100 + fd}]", f"{d}/fd/{fd}")
            with open(f"{d}/fdinfo/{fd}", "w") as f:
                f.write("pos:\t0\nflags:\t02\n")
        for i in range(8):
            c = cid + i * per // 8
            node = "/dev/dri/card0" if c % 2 == 0 else "/dev/dri/renderD128"
            os.symlink(node, f"{d}/fd/{10 + i}")
            with open(f"{d}/fdinfo/{10 + i}", "w") as f:
                f.write(TEXT.format(id=c, ns=c * 1000))
        cid += per


main()
