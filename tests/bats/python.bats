#!/usr/bin/env bats
# The `hwtrace` Python module as a streaming iterator, and the C code that
# talks to CPython (the module, the -s runner) using only its public C API.
# Expected records come from `script --json` and synth's manifest; error
# positions from the bytes the test itself broke.

load lib/common

setup_file() {
	export T="$BATS_FILE_TMPDIR"
	"$HWTRACE" synth --type cxl-hmu --seed 5 --size 256K --manifest "$T/m.txt" -o "$T/hmu.data"
	export PYTHONPATH="$BUILD/python"
}

@test "plugins use only CPython's public C API (no _Py* names, no object internals)" {
	ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	# the patterns are spelt with a bracket so that this file does not match them
	run grep -rnE -e '(^|[^A-Za-z0-9_])_P[y][A-Za-z_]' -e 'ob_digi[t]|ob_ival|long_valu[e]' \
		-e '->ob_(refcnt|type|size)' "$ROOT/plugins" --include='*.c' --include='*.h'
	echo "$output"
	[ "$status" -eq 1 ]
}
