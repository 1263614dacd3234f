# Shared set-up for the bats suites: the tool under test and the build dir.
: "${HWTRACE:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)/build/perf-hwtrace}"
: "${BUILD:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)/build}"
export HWTRACE BUILD
