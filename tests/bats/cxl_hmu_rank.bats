#!/usr/bin/env bats
# CXL HMU ranking (issue 14 item 7): every unit is ranked, whatever the number
# of distinct units, exactly within --rank-memory and with a printed bound
# past it.  Inputs are raw hotlists (design.rst 4.1: u64 header 0 = entries |
# counter width << 16, u64 header 1 = 0xdeadbeef, entries (unit << 16) |
# count) written here by a small generator that also computes the true
# totals; the report is read back by column name.

load lib/common

teardown() {
	[ -z "${CG:-}" ] || rmdir "$CG" 2>/dev/null || true
}

# gen OUT TRUTH MODE: write the hotlist and the true totals (of the 1000
# hottest units for "late", of all for "skew") ("unit total" lines, hottest first, ties by lower unit).
gen() {
	python3 - "$@" <<'EOF_PY'
import heapq, sys
from array import array
out, truth, mode = sys.argv[1:4]
ents, tot = array("Q"), {}
def put(u, c):
    ents.append(u << 16 | c)
    tot[u] = tot.get(u, 0) + c
if mode == "late":
    # 2^22 + 4096 distinct units of small counts, a few warm units early,
    # then the hottest unit, never seen before, only at the very end
    n = (1 << 22) + 4096
    ents.extend(u << 16 | (1 + u % 13) for u in range(n))
    tot = dict(zip(range(n), (1 + u % 13 for u in range(n))))
    for r in range(20):
        for u in (3, 70000, 1 << 21):
            put(u, 900 + u % 50)
    late = n + 12345
    for r in range(40):
        put(late, 65000)
else:
    # "skew": 200000 distinct units, a few heavy ones spread through the stream
    import random
    rnd = random.Random(14)
    heavy = [11, 222, 3333, 44444, 150000]
    for i in range(400000):
        if i % 8 == 0:
            put(heavy[(i // 8) % len(heavy)] , 4000 + 1000 * ((i // 8) % len(heavy)))
        else:
            put(rnd.randrange(200000), rnd.randrange(1, 200))
f = open(out, "wb")
for i in range(0, len(ents), 65535):
    chunk = ents[i:i + 65535]
    f.write(array("Q", [len(chunk) | 16 << 16, 0xdeadbeef]).tobytes())
    f.write(chunk.tobytes())
with open(truth, "w") as t:
    for u, c in heapq.nsmallest(1000 if mode == "late" else len(tot), tot.items(), key=lambda x: (-x[1], x[0])):
        t.write(f"{u} {c}\n")
EOF_PY
}

# report.py REPORT TABLE: the rows of TABLE ("cxl_hmu_hot", "cxl_hmu_summary")
# as "name=value" words; an empty cell (an absent optional field) is left out.
table() {
	python3 - "$@" <<'EOF_PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
i = lines.index("  " + sys.argv[2] + ":")
head = lines[i + 1]
cols = [(m.end(), m.group()) for m in __import__("re").finditer(r"\S+", head)]
for row in lines[i + 2:]:
    if not row.startswith("    "):
        break
    vals = {m.end(): m.group() for m in __import__("re").finditer(r"\S+", row)}
    print(" ".join(f"{name}={vals[end]}" for end, name in cols if end in vals))
EOF_PY
}

@test "a unit first seen after 2^22 distinct units and hottest is ranked first" {
	local d=$BATS_TEST_TMPDIR late=$(( (1 << 22) + 4096 + 12345 ))
	gen "$d/late.bin" "$d/truth" late
	# the default budget (256 MiB) does not hold them all: still first, within the bound
	run "$HWTRACE" decode --type cxl-hmu --granual 12 --report --top 5 "$d/late.bin"
	[ "$status" -eq 0 ]
	echo "$output" >"$d/rep"
	bound=$(table "$d/rep" cxl_hmu_summary | sed -E 's/.*max_overcount=([0-9]+).*/\1/')
	read -r unit total < <(table "$d/rep" cxl_hmu_hot | head -n1 |
		sed -E 's/.*unit=([0-9]+) .*total_count=([0-9]+).*/\1 \2/')
	[ "$unit" -eq "$late" ]
	[ "$total" -ge $((40 * 65000)) ]
	[ "$total" -le $((40 * 65000 + bound)) ]
	# a budget that holds every unit: the ranking is exact
	run "$HWTRACE" decode --type cxl-hmu --granual 12 --report --top 5 --rank-memory 1G \
		"$d/late.bin"
	[ "$status" -eq 0 ]
	echo "$output" >"$d/rep"
	table "$d/rep" cxl_hmu_summary >"$d/sum"
	grep -q " max_overcount=0 " "$d/sum"
	grep -q " distinct_units=$(( (1 << 22) + 4096 + 1 )) " "$d/sum"
	# the top 5 are the generator's top 5, exactly
	table "$d/rep" cxl_hmu_hot | sed -E 's/.*unit=([0-9]+) .*total_count=([0-9]+).*/\1 \2/' \
		>"$d/got"
	head -n5 "$d/truth" | diff - "$d/got"
	[ "$(head -n1 "$d/got")" = "$late $((40 * 65000))" ]
}

@test "past --rank-memory counts are within the printed bound and no heavy unit is lost" {
	gen "$BATS_TEST_TMPDIR/skew.bin" "$BATS_TEST_TMPDIR/truth" skew
	run "$HWTRACE" decode --type cxl-hmu --granual 12 --report --top 20 --rank-memory 64K \
		"$BATS_TEST_TMPDIR/skew.bin"
	[ "$status" -eq 0 ]
	check_skew
}

@test "--rank-counters: a summary smaller than the budget, within its printed bound" {
	gen "$BATS_TEST_TMPDIR/skew.bin" "$BATS_TEST_TMPDIR/truth" skew
	run "$HWTRACE" decode --type cxl-hmu --granual 12 --report --top 20 --rank-memory 1M \
		--rank-counters 300 "$BATS_TEST_TMPDIR/skew.bin"
	[ "$status" -eq 0 ]
	check_skew
	# 16M and more: two worker tables (past their halves of the budget), one bound
	run "$HWTRACE" decode --type cxl-hmu --granual 12 --report --top 20 --rank-memory 16M \
		--rank-counters 300 "$BATS_TEST_TMPDIR/skew.bin"
	[ "$status" -eq 0 ]
	check_skew
	run "$HWTRACE" decode --type cxl-hmu --granual 12 --report --rank-counters 0 /nonexistent
	[ "$status" -eq 2 ]
	[[ "$output" == *"--rank-counters"*"'0'"* ]]
}

# check_skew: $output is a report of the "skew" stream past the exact budget:
# counts within the printed bound, each unit listed once, no heavy unit lost.
check_skew() {
	echo "$output" >"$BATS_TEST_TMPDIR/rep"
	table "$BATS_TEST_TMPDIR/rep" cxl_hmu_summary >"$BATS_TEST_TMPDIR/sum"
	table "$BATS_TEST_TMPDIR/rep" cxl_hmu_hot >"$BATS_TEST_TMPDIR/hot"
	python3 - "$BATS_TEST_TMPDIR/sum" "$BATS_TEST_TMPDIR/hot" "$BATS_TEST_TMPDIR/truth" <<'EOF_PY'
import sys
row = lambda l: dict(w.split("=") for w in l.split())
s = row(open(sys.argv[1]).read())
hot = [row(l) for l in open(sys.argv[2])]
true = {int(u): int(c) for u, c in (l.split() for l in open(sys.argv[3]))}
bound = int(s["max_overcount"])
assert "distinct_units" not in s, s          # not known once counters are dropped
assert 0 < bound < 200000, bound             # approximate, and the bound is useful
got = {int(h["unit"]): int(h["total_count"]) for h in hot}
assert len(hot) == 20, len(hot)
assert len(got) == 20, hot                   # a unit is never counted in two slots
for u, c in got.items():                     # over by at most the bound, never under
    assert true[u] <= c <= true[u] + bound, (u, c, true[u], bound)
heavy = [u for u, c in true.items() if c > bound]
assert 0 < len(heavy) <= 20, heavy
for u in heavy:                              # every unit above the bound is ranked
    assert u in got, (u, true[u], bound)
EOF_PY
}

@test "--rank-memory takes K/M/G byte counts; a bad one is a usage error before input" {
	run "$HWTRACE" decode --type cxl-hmu --granual 12 --report --rank-memory 12Q /nonexistent
	[ "$status" -eq 2 ]
	[[ "$output" == *"--rank-memory"*"12Q"* ]]
	run "$HWTRACE" decode --type cxl-hmu --granual 12 --report --rank-memory 1K /nonexistent
	[ "$status" -eq 2 ]
	printf '\001\000\020\000\000\000\000\000\357\276\255\336\000\000\000\000\003\000\005\000\000\000\000\000' \
		>"$BATS_TEST_TMPDIR/one.bin"
	for m in 4096 64K 1M 1G; do
		run "$HWTRACE" decode --type cxl-hmu --granual 12 --report --rank-memory "$m" \
			"$BATS_TEST_TMPDIR/one.bin"
		[ "$status" -eq 0 ]
		echo "$output" | grep -E '^ +1 +5 +0x5000 +3 +1$'
	done
}

@test "a small --rank-counters summary after a large exact table takes no more than a few purges" {
	# 4 million entries over 2^26 units: the exact table grows to the
	# default budget (2^22 slots) before it shrinks to 4096 counters; a
	# purge quantile that sampled slots, not counters, found none in it
	# and swept the large table again and again (minutes)
	"$HWTRACE" synth --type cxl-hmu --seed 1 --size 32M --auxtrace-type 6 \
		-o "$BATS_TEST_TMPDIR/h.data"
	run timeout 60 "$HWTRACE" report --rank-counters 4096 --top 3 -i "$BATS_TEST_TMPDIR/h.data"
	[ "$status" -eq 0 ]
	echo "$output" >"$BATS_TEST_TMPDIR/rep"
	table "$BATS_TEST_TMPDIR/rep" cxl_hmu_summary | grep -Eq " max_overcount=[1-9][0-9]* "
	[ "$(table "$BATS_TEST_TMPDIR/rep" cxl_hmu_hot | wc -l)" -eq 3 ]
}

# clones D LIMIT: the threads (clone()s with CLONE_THREAD) of report on
# $d/skew.bin in $CG with a CPU limit of LIMIT, its output to D.txt
cg_clones() {
	local asan="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	cpu_limit "$2"
	ASAN_OPTIONS=$asan strace -f -qq -e trace=clone,clone3 -o "$1.st" \
		sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' _ "$CG" \
		"$HWTRACE" decode --type cxl-hmu --granual 12 --report --top 20 "$d/skew.bin" \
		> "$1.txt"
	grep -c 'CLONE_THREAD' "$1.st" || true
}

@test "report ranks on two worker threads, in the decoding thread alone on one CPU" {
	local d=$BATS_TEST_TMPDIR
	[ "$(nproc)" -ge 2 ] || skip "one CPU: no worker threads anyway"
	gen "$d/skew.bin" "$d/truth" skew
	# threads are clone()s with CLONE_THREAD (LeakSanitizer cannot run
	# under ptrace); taskset makes the affinity mask one CPU
	local asan="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	ASAN_OPTIONS=$asan strace -f -qq -e trace=clone,clone3 -o "$d/two.st" \
		"$HWTRACE" decode --type cxl-hmu --granual 12 --report --top 20 "$d/skew.bin" \
		> "$d/two.txt"
	ASAN_OPTIONS=$asan strace -f -qq -e trace=clone,clone3 -o "$d/one.st" \
		taskset -c 0 "$HWTRACE" decode --type cxl-hmu --granual 12 --report --top 20 \
		"$d/skew.bin" > "$d/one.txt"
	[ "$(grep -c 'CLONE_THREAD' "$d/two.st")" -eq 2 ]
	[ "$(grep -c 'CLONE_THREAD' "$d/one.st" || true)" -eq 0 ]
	# the same ranking either way: the generator's top 20, exactly
	cmp "$d/two.txt" "$d/one.txt"
	table "$d/one.txt" cxl_hmu_hot | sed -E 's/.*unit=([0-9]+) .*total_count=([0-9]+).*/\1 \2/' \
		> "$d/got"
	head -n20 "$d/truth" | diff - "$d/got"
	# a cgroup CPU limit (where one can be made): one CPU, no worker; two, both
	cpu_cgroup_new || return 0
	[ "$(cg_clones "$d/cg1" 1)" -eq 0 ]
	[ "$(cg_clones "$d/cg2" 2)" -eq 2 ]
	cmp "$d/two.txt" "$d/cg1.txt"
	cmp "$d/two.txt" "$d/cg2.txt"
}
