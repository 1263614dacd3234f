# Shared set-up for the bats suites: the tool under test and the build dir.
: "${HWTRACE:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)/build/perf-hwtrace}"
: "${BUILD:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)/build}"
export HWTRACE BUILD
# make check: libpython's allocations at exit are not ours to report
export LSAN_OPTIONS="suppressions=$(cd "$BATS_TEST_DIRNAME/.." && pwd)/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

# without_lib SONAME CMD...: run CMD with the shared library SONAME replaced
# by an empty file, in a mount namespace of its own (the system is not
# touched); the test is skipped where the library or the namespace is not
# to be had.  Sets $output and $status as bats' run does.
without_lib() {
	local so=$1 path empty
	shift
	path=$(ldconfig -p | awk -v so="$so" '$1 == so { print $NF; exit }')
	[ -n "$path" ] || skip "$so not installed"
	unshare -m true 2>/dev/null || skip "no mount namespace here (needs root)"
	empty=$(mktemp)
	run unshare -m sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' sh \
		"$empty" "$path" "$@"
	rm -f "$empty"
}

# A new cgroup with the cpu controller (v1's, else v2's) in $CG; false when
# none can be made here (not root, no cgroupfs, a read-only one).
cpu_cgroup_new() {
	local d
	for d in /sys/fs/cgroup/cpu /sys/fs/cgroup/cpu,cpuacct /sys/fs/cgroup; do
		[ -w "$d/cgroup.procs" ] || continue
		[ "$d" != /sys/fs/cgroup ] || grep -qw cpu "$d/cgroup.subtree_control" 2>/dev/null || continue
		CG=$d/hwtrace-test-$$
		mkdir "$CG" 2>/dev/null && return 0
	done
	CG=
	return 1
}

# cpu_limit CPUS: $CG's CPU bandwidth set to CPUS (a decimal) or "max"
cpu_limit() {
	local q=max
	[ "$1" = max ] || q=$(echo "$1 * 100000 / 1" | bc)
	if [ -e "$CG/cpu.max" ]; then
		echo "$q 100000" > "$CG/cpu.max"
	else
		echo "100000" > "$CG/cpu.cfs_period_us"
		[ "$q" != max ] || q=-1
		echo "$q" > "$CG/cpu.cfs_quota_us"
	fi
}
