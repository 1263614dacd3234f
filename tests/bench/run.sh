#!/usr/bin/env bash
# make bench: run every tests/bench/*.sh (except this one) with the tool path.
set -u
tool=${1:?usage: run.sh PATH/TO/perf-hwtrace}
here=$(cd "$(dirname "$0")" && pwd)
status=0
for b in "$here"/*.sh; do
	[ "$(basename "$b")" = run.sh ] && continue
	echo "=== $(basename "$b" .sh)"
	bash "$b" "$tool" || { echo "bench $(basename "$b") FAILED"; status=1; }
	echo
done
exit $status
