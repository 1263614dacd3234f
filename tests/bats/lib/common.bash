# Shared set-up for the bats suites: the tool under test and the build dir.
: "${HWTRACE:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)/build/perf-hwtrace}"
: "${BUILD:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)/build}"
export HWTRACE BUILD
# make check: libpython's allocations at exit are not ours to report
export LSAN_OPTIONS="suppressions=$(cd "$BATS_TEST_DIRNAME" && pwd)/lib/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
