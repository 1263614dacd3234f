#!/bin/bash
# top.sh TOOL - CPU time per `top` refresh on a /proc-shaped tree of 1000
# processes x 8 DRM fds (+ 8 non-DRM fds each), cached index vs a naive full
# rescan every refresh.  Two layouts: each process's 8 fds are 2 clients
# (card + render node, each dup'd 4 times: the common case), and 8 distinct
# clients (worst case for the cache: every fd must still be read).
set -euo pipefail
TOOL=${1:?usage: top.sh path/to/perf-hwtrace}
N=${TOP_BENCH_REFRESHES:-50}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

mktree() { # DIR CLIENTS-PER-PROCESS
	python3 - "$1" "$2" <<'PY'
import os, sys
root, per = sys.argv[1], int(sys.argv[2])
text = ("pos:\t0\nflags:\t02100002\nmnt_id:\t26\nino:\t284\ndrm-driver:\ti915\n"
        "drm-client-id:\t{id}\ndrm-pdev:\t0000:00:02.0\n"
        "drm-total-system0:\t6044 KiB\ndrm-shared-system0:\t0\ndrm-active-system0:\t0\n"
        "drm-resident-system0:\t6044 KiB\ndrm-purgeable-system0:\t1688 KiB\n"
        "drm-engine-render:\t{ns} ns\ndrm-engine-copy:\t0 ns\ndrm-engine-video:\t0 ns\n"
        "drm-engine-capacity-video:\t2\ndrm-engine-video-enhance:\t0 ns\n")
cid = 0
for p in range(1000, 2000):
    d = f"{root}/{p}"
    os.makedirs(f"{d}/fd"); os.makedirs(f"{d}/fdinfo")
    open(f"{d}/comm", "w").write(f"app{p}\n")
    for fd in range(8):             # non-DRM fds
        os.symlink(f"socket:[{p * 100 + fd}]", f"{d}/fd/{fd}")
        open(f"{d}/fdinfo/{fd}", "w").write("pos:\t0\nflags:\t02\n")
    for i in range(8):
        c = cid + i * per // 8
        node = "/dev/dri/card0" if c % 2 == 0 else "/dev/dri/renderD128"
        os.symlink(node, f"{d}/fd/{10 + i}")
        open(f"{d}/fdinfo/{10 + i}", "w").write(text.format(id=c, ns=c * 1000))
    cid += per
PY
}

cpu_per_refresh() { # TREE EXTRA-ARGS...: ms of CPU per refresh after the first
	local tree=$1; shift
	local one many
	one=$("$TOOL" top --proc "$tree" -n 1 -d 0 --json --stats "$@" 2>&1 >/dev/null |
		sed -n 's/.*cpu_ms_per_refresh \([0-9.]*\).*/\1/p')
	many=$("$TOOL" top --proc "$tree" -n $((N + 1)) -d 0 --json --stats "$@" 2>&1 >/dev/null |
		sed -n 's/.*cpu_ms_per_refresh \([0-9.]*\).*/\1/p')
	awk -v a="$one" -v b="$many" -v n="$N" 'BEGIN { printf "%.3f", (b * (n + 1) - a) / n }'
}

for per in 2 8; do
	mktree "$T/proc$per" $per
	cached=$(cpu_per_refresh "$T/proc$per" --rescan 1000000)
	naive=$(cpu_per_refresh "$T/proc$per" --rescan 0)
	clients=$("$TOOL" top --proc "$T/proc$per" -n 1 --json | python3 -c \
		'import json,sys; print(len(json.load(sys.stdin)["clients"]))')
	echo "top bench: 1000 procs x 8 DRM fds, $clients clients: cached ${cached} ms/refresh" \
	     "(target <= 5 ms), naive full rescan ${naive} ms/refresh"
done
