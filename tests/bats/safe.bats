#!/usr/bin/env bats
# Never destroy, never drop in silence (design.rst 6): an input is never an
# output; an output appears whole or not at all (the old file stays when a
# run fails, and no temporary file is left); synth refuses a size the disk
# cannot hold; stat returns what stock perf stat returns; a perf.data v1 is
# named as such.
#
# Expected bytes are the files as they were before the run (cmp), expected
# statuses are stock perf's, computed in the test.

setup() {
	T=$(mktemp -d)
	"$HWTRACE" synth --type cxl-hmu --seed 3 --size 64K -o "$T/in.data"
	cp "$T/in.data" "$T/orig.data"
}

teardown() {
	if [ -n "${MNT:-}" ]; then
		umount "$MNT" 2>/dev/null || true
	fi
	rm -rf "$T"
}

# No ".NAME.XXXXXX" temporary file left in directory $1.
no_temp_files() {
	local left
	left=$(find "$1" -maxdepth 1 -name '.*.*' -type f)
	echo "left behind: $left"
	[ -z "$left" ]
}

@test "inject -o the input itself (./path) is refused and the input is untouched" {
	cd "$T"
	run "$HWTRACE" inject -i in.data -o ./in.data
	echo "$output"
	[ "$status" -eq 2 ]
	[[ "$output" == *"./in.data"* && "$output" == *"'in.data'"* ]]
	cmp in.data orig.data
	no_temp_files "$T"
}

@test "inject -o a symlink or a hard link to the input is refused" {
	ln -s in.data "$T/sym.data"
	ln "$T/in.data" "$T/hard.data"
	for o in "$T/sym.data" "$T/hard.data"; do
		run "$HWTRACE" inject -i "$T/in.data" -o "$o"
		echo "$output"
		[ "$status" -eq 2 ]
		[[ "$output" == *"$o"* && "$output" == *"$T/in.data"* ]]
		cmp "$T/in.data" "$T/orig.data"
	done
	[ -L "$T/sym.data" ]
	# standard input that is the output file
	run "$HWTRACE" inject -i - -o "$T/in.data" < "$T/in.data"
	[ "$status" -eq 2 ]
	cmp "$T/in.data" "$T/orig.data"
}

@test "inject with a nonexistent input keeps the old output byte for byte" {
	cp "$T/orig.data" "$T/keep.data"
	run "$HWTRACE" inject -i "$T/nonexistent" -o "$T/keep.data"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *nonexistent* ]]
	cmp "$T/keep.data" "$T/orig.data"
	no_temp_files "$T"
}

@test "an inject that completes replaces the output; one that fails writing leaves it" {
	printf 'old' > "$T/out.data"
	run "$HWTRACE" inject -i "$T/in.data" -o "$T/out.data"
	[ "$status" -eq 0 ]
	[ "$(head -c 8 "$T/out.data")" = PERFILE2 ]
	cp "$T/out.data" "$T/out.before"
	# writes past 16 KiB fail with EFBIG (SIGXFSZ ignored): a failed write
	run bash -c "trap '' XFSZ; ulimit -f 16; '$HWTRACE' synth --type cxl-hmu --size 256K -o '$T/big.data'"
	[ "$status" -eq 1 ]
	[ ! -e "$T/big.data" ]
	"$HWTRACE" synth --type cxl-hmu --size 256K -o "$T/big.data"
	run bash -c "trap '' XFSZ; ulimit -f 16; '$HWTRACE' inject -i '$T/big.data' -o '$T/out.data'"
	echo "$output"
	[ "$status" -eq 1 ]
	cmp "$T/out.data" "$T/out.before"
	no_temp_files "$T"
}

@test "a failed synth leaves the old output and manifest intact, no temp files" {
	printf 'old data' > "$T/s.data"
	printf 'old manifest' > "$T/s.txt"
	run bash -c "trap '' XFSZ; ulimit -f 64; '$HWTRACE' synth --type cxl-hmu --size 1M -o '$T/s.data' --manifest '$T/s.txt'"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$(cat "$T/s.data")" = "old data" ]
	[ "$(cat "$T/s.txt")" = "old manifest" ]
	no_temp_files "$T"
	# and a run that succeeds replaces both
	run "$HWTRACE" synth --type cxl-hmu --size 64K -o "$T/s.data" --manifest "$T/s.txt"
	[ "$status" -eq 0 ]
	[ "$(head -c 8 "$T/s.data")" = PERFILE2 ]
	grep -q '^# aux' "$T/s.txt"
	no_temp_files "$T"
}

@test "synth --manifest and -o naming one file is refused" {
	printf 'old' > "$T/o.data"
	ln -s o.data "$T/o.link"
	for m in "$T/o.data" "$T/o.link"; do
		run "$HWTRACE" synth --type cxl-hmu --size 4K -o "$T/o.data" --manifest "$m"
		echo "$output"
		[ "$status" -eq 2 ]
		[ "$(cat "$T/o.data")" = old ]
	done
	no_temp_files "$T"
}

@test "synth --size beyond the free space is refused before writing" {
	MNT="$T/small"
	mkdir "$MNT"
	if ! mount -t tmpfs -o size=4m tmpfs "$MNT" 2>/dev/null; then
		MNT=
		D="$T"
	else
		D="$MNT"
	fi
	# twice what the filesystem has free, computed here (statfs)
	local avail
	avail=$(stat -f -c '%a %S' "$D" | awk '{ printf "%.0f", $1 * $2 }')
	printf 'old' > "$D/f.data"
	run "$HWTRACE" synth --type cxl-hmu --size $((avail * 2)) -o "$D/f.data"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"f.data"*"free"* ]]
	[ "$(cat "$D/f.data")" = old ]
	no_temp_files "$D"
	# what fits is written
	if [ -n "$MNT" ]; then
		run "$HWTRACE" synth --type cxl-hmu --size 1M -o "$D/f.data"
		[ "$status" -eq 0 ]
		[ "$(head -c 8 "$D/f.data")" = PERFILE2 ]
	fi
}

@test "stat exits with the command's status, as stock perf stat does" {
	command -v perf >/dev/null || skip "stock perf not installed"
	perf stat -e task-clock -- true >/dev/null 2>&1 || skip "perf stat cannot count here"
	# Stock 6.1 loses the status of a command that ends before it reaches
	# its wait4(): the SIGCHLD handler (skip_signal) sets child_pid to -1,
	# no wait4() is made and perf exits 0 (seen in 1 run of 40 here). So
	# stock perf is asked about the same command made to outlive that
	# window; ours must give its answer for the quick command as well.
	# A signal is no exit status: perf returns WEXITSTATUS() of it, 0.
	local c want
	for c in 'exit 0:0' 'exit 3:3' 'kill -TERM $$:0'; do
		want=${c##*:} c=${c%:*}
		perf stat -e task-clock -- sh -c "sleep 0.3; $c" >/dev/null 2>&1 && ref=0 || ref=$?
		echo "sleep; $c: perf $ref, expected $want"
		[ "$ref" -eq "$want" ]
		run "$HWTRACE" stat -e task-clock -- sh -c "sleep 0.3; $c"
		echo "sleep; $c: ours $status"
		[ "$status" -eq "$ref" ]
		for i in 1 2 3 4 5; do
			run "$HWTRACE" stat -e task-clock -- sh -c "$c"
			echo "$c: ours $status"
			[ "$status" -eq "$ref" ]
		done
	done
	# the signal is said, as perf says it
	run "$HWTRACE" stat -e task-clock -- sh -c 'kill -TERM $$'
	[[ "$output" == *"sh: Terminated"* ]]
	# a command that cannot start is an error
	run "$HWTRACE" stat -e task-clock -- "$T/nonexistent"
	[ "$status" -eq 1 ]
}

@test "a perf.data v1 (PERFFILE) is named as the v1 format by every reading verb" {
	# the v1 header: magic, header size, attr size, then sections
	printf 'PERFFILE\150\0\0\0\0\0\0\0\110\0\0\0\0\0\0\0' > "$T/v1.data"
	head -c 256 /dev/zero >> "$T/v1.data"
	for v in report script; do
		run "$HWTRACE" $v -i "$T/v1.data"
		echo "$v: $output"
		[ "$status" -eq 1 ]
		[[ "$output" == *"version 1"*"PERFFILE"* ]]
		[[ "$output" != *"not a perf.data"* ]]
	done
	run "$HWTRACE" inject -i "$T/v1.data" -o "$T/out.data"
	[ "$status" -eq 1 ]
	[[ "$output" == *"version 1"*"PERFFILE"* ]]
	[ ! -e "$T/out.data" ]
}
