#!/usr/bin/env bats
# One device, one place: what a device is (its AUXTRACE_INFO priv[] layout,
# its symbols, its PMU names, its generator) lives in its folder under
# decoders/ and in the one device table, decoders/core/devices.c.  These
# checks read the source tree; they need no build.

ROOT="$BATS_TEST_DIRNAME/../.."
DEVICES="cxl_hmu panthor i915_oa drm_usage"
DEV_RE=$(echo $DEVICES | tr ' ' '|')

# Code files (not docs) below the given folders, as paths from the root,
# this file left out (it names the patterns it looks for).
code_grep() {
	local re=$1
	shift
	(cd "$ROOT" && grep -rnE "$re" --include='*.c' --include='*.h' --include='*.py' \
		--include='*.sh' --include='*.bats' "$@" 2>/dev/null) |
		grep -v '^tests/bats/layout\.bats:' || true
}

@test "layout: no bare numeric priv[] index outside the device folders" {
	found=$(code_grep 'priv\[[0-9]' decoders plugins tests kernel scripts |
		grep -vE "^decoders/($DEV_RE)/" || true)
	[ -z "$found" ] || { echo "priv[] by number outside decoders/<device>/:"; echo "$found"; false; }
}

@test "layout: a device's priv[] enum is used only in its folder and its tests" {
	for d in $DEVICES; do
		D=$(echo "$d" | tr a-z A-Z)
		found=$(code_grep "HWT_${D}_N?PRIV" decoders plugins kernel scripts |
			grep -v "^decoders/$d/" || true)
		[ -z "$found" ] || { echo "HWT_${D}_PRIV_* outside decoders/$d/:"; echo "$found"; false; }
	done
}

@test "layout: device symbols are named only in their folder and the device table" {
	re="hwt_device_($DEV_RE)\\b|hwt_($DEV_RE)_(decoder|synth|options)\\b"
	re="$re|hwt_($DEV_RE)__auxinfo"'|&hwt_rt_|REC_AUX_(CXL|PANTHOR|I915)'
	re="$re|synth_($DEV_RE)\\b"'|"(cxl_hmu_mem|panthor_perf|i915_oa)\*"'
	found=$(code_grep "$re" decoders plugins scripts |
		grep -vE "^decoders/($DEV_RE)/" |
		grep -vE '^decoders/core/devices\.c:[0-9]+:	&hwt_device_[a-z0-9_]+,$' || true)
	[ -z "$found" ] || { echo "a second registry or a device named outside its folder:"; echo "$found"; false; }
}

@test "layout: record types have no list of their own beside the device table" {
	found=$(code_grep '\bhwt_record_types\b' decoders plugins tests scripts)
	[ -z "$found" ] || { echo "$found"; false; }
}

@test "layout: each device folder holds its device entry, AUXTRACE_INFO encoder and generator" {
	for d in $DEVICES; do
		for f in device.c auxinfo.c synth.c "include/hwtrace/$d.h"; do
			[ -f "$ROOT/decoders/$d/$f" ] || { echo "missing decoders/$d/$f"; false; }
		done
	done
	run ls "$ROOT"/plugins/perf-hwtrace/synth_*.c
	[ "$status" -ne 0 ]
}

@test "layout: the CLI assembles no AUXTRACE_INFO and no samples" {
	found=$(code_grep 'type = (HWT_REC_AUXTRACE_INFO|PERF_RECORD_SAMPLE)\b' plugins)
	[ -z "$found" ] || { echo "record assembly in the CLI:"; echo "$found"; false; }
}
