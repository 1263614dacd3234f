#!/usr/bin/env python3
# fake_proc.py ROOT CLIENTS_PER_PROC - the /proc-shaped tree top.sh and
# exporter.sh time: 1000 processes (pids 1000-1999), each with 8 non-DRM fds
# (sockets, with a short fdinfo) and 8 DRM fds 10-17 spread over
# CLIENTS_PER_PROC distinct i915 clients (2: card0 and renderD128 clients,
# each dup'd 4 times, the common case; 8: every fd its own client).  Client
# ids run from 0 across the tree; a client's render engine has id * 1000 ns.
# Every client prints 4 engines (render, copy, video, video-enhance), a
# capacity and the 5 memory kinds of system0.
#
# fake_proc.py --churn ROOT CMD... - run CMD (top --json on ROOT) and keep
# every DRM client of ROOT busy: after each line CMD prints (a refresh), and
# before the next refresh, rewrite each DRM fd's fdinfo in place (the same
# inode: top's kept fd sees it) with 1 ns more render time than the last
# time, so every refresh finds every text changed.  CMD is stopped
# (SIGSTOP) while the texts are rewritten, so that a writer late on a
# loaded machine pauses a refresh instead of racing it; a refresh that
# began before the writer still finds some texts unchanged, and top's
# same_reads says so.  Prints CMD's last line; exits with CMD's status.
import os
import re
import signal
import subprocess
import sys

TEXT = ("pos:\t0\nflags:\t02100002\nmnt_id:\t26\nino:\t284\ndrm-driver:\ti915\n"
        "drm-client-id:\t{id}\ndrm-pdev:\t0000:00:02.0\n"
        "drm-total-system0:\t6044 KiB\ndrm-shared-system0:\t0\ndrm-active-system0:\t0\n"
        "drm-resident-system0:\t6044 KiB\ndrm-purgeable-system0:\t1688 KiB\n"
        "drm-engine-render:\t{ns} ns\ndrm-engine-copy:\t0 ns\ndrm-engine-video:\t0 ns\n"
        "drm-engine-capacity-video:\t2\ndrm-engine-video-enhance:\t0 ns\n")


def churn(root, cmd):
    # every fd of a client: in /proc the fds of one client (dup'd) show one
    # file, here each is a file of its own, and top reads whichever it chose
    files = []
    for p in sorted(os.listdir(root)):
        for fd in range(10, 18):
            path = f"{root}/{p}/fdinfo/{fd}"
            with open(path, "rb") as f:
                text = f.read()
            m = re.search(rb"drm-engine-render:\t(\d+) ns", text)
            if m:
                files.append((os.open(path, os.O_WRONLY), text[:m.start(1)],
                              int(m.group(1)), text[m.end(1):]))
    top = subprocess.Popen(cmd, stdout=subprocess.PIPE)
    n, last = 0, b""
    for last in top.stdout:
        n += 1
        top.send_signal(signal.SIGSTOP)
        for fd, head, ns, tail in files:
            text = head + str(ns + n).encode() + tail
            os.pwrite(fd, text, 0)
            if len(str(ns + n)) != len(str(ns + n - 1)):
                os.ftruncate(fd, len(text))
        top.send_signal(signal.SIGCONT)
    sys.stdout.buffer.write(last)
    return top.wait()


def main():
    if sys.argv[1] == "--churn":
        sys.exit(churn(sys.argv[2], sys.argv[3:]))
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
