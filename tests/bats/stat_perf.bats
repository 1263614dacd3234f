#!/usr/bin/env bats
# stat beside stock perf stat 6.1 on the same command: the same events,
# units, derived columns and column positions (values differ between two
# runs: both must count), -x columns in the same number and places, -I
# lines as perf prints them.  Software events count in this VM; hardware
# ones may be <not supported> in both.

setup() {
	T=$(mktemp -d)
	command -v perf >/dev/null || skip "stock perf not installed"
	perf stat -e task-clock -- true >/dev/null 2>&1 || skip "perf stat cannot count here"
}

teardown() {
	rm -rf "$T"
}

# event lines as "name|unit|column of the name|column of '#'|metric unit"
layout() {
	awk '/^ *([0-9.]+|<not [a-z]+>) / {
		line = $0; sub(/^ *(<not [a-z]+>|[0-9.]+) +/, "", line)
		n = split(line, w, / +/); unit = (w[1] == "msec") ? "msec" : ""
		name = unit ? w[2] : w[1]
		hash = index($0, "#"); metric = ""
		if (hash) { metric = substr($0, hash + 1); sub(/^ *[0-9.]+%? */, "", metric)
			sub(/ +$/, "", metric); sub(/^[KMG]\/sec$/, "/sec", metric) }
		printf "%s|%s|%d|%d|%s\n", name, unit, index($0, " " name " "), hash, metric }' "$1"
}

@test "stat with perf's default events: same events, units, columns and metrics as perf stat" {
	perf stat -- sleep 0.1 2>"$T/perf.txt" >"$T/perf.out"
	# the counts on stderr, nothing on stdout: as perf stat
	"$HWTRACE" stat -- sleep 0.1 2>"$T/ours.txt" >"$T/ours.out"
	[ ! -s "$T/perf.out" ]
	[ ! -s "$T/ours.out" ]
	layout "$T/perf.txt" >"$T/perf.layout"
	layout "$T/ours.txt" >"$T/ours.layout"
	cat "$T/perf.layout"
	diff "$T/perf.layout" "$T/ours.layout"
	[ "$(wc -l <"$T/ours.layout")" -ge 8 ]
	grep -q "^task-clock|msec|.*|CPUs utilized$" "$T/ours.layout"
	grep -q "^page-faults||.*|/sec$" "$T/ours.layout"
	grep -q " Performance counter stats for 'sleep 0.1':" "$T/ours.txt"
	grep -qE '^ +[0-9]+\.[0-9]{9} seconds time elapsed$' "$T/ours.txt"
	grep -qE '^ +[0-9]+\.[0-9]{9} seconds user$' "$T/ours.txt"
	# the software events counted: task-clock > 0 ms, page-faults > 0
	awk '/ task-clock / { exit !($1 > 0) }' "$T/ours.txt"
	awk '/ page-faults / { exit !($1 > 0) }' "$T/ours.txt"
}

@test "stat -x, gives perf stat -x's columns: count, unit, event, run, %, metric, metric unit" {
	local ev=task-clock,page-faults,context-switches,cycles
	perf stat -x, -e "$ev" -- sleep 0.1 2>"$T/perf.csv" >/dev/null
	run "$HWTRACE" stat -x, -e task-clock -e page-faults -e context-switches -e cycles \
		-- sleep 0.1
	[ "$status" -eq 0 ]
	echo "$output" >"$T/ours.csv"
	cat "$T/perf.csv"
	# same lines, same number of fields, same unit and event and metric unit
	shape() {
		awk -F, '{ m = $7; sub(/^[KMG]\/sec$/, "/sec", m)
			c = ($1 ~ /^</) ? $1 : "N"
			printf "%d|%s|%s|%s|%s|%s\n", NF, c, $2, $3, $5 ~ /^[0-9]+\.[0-9][0-9]$/, m }' "$1"
	}
	diff <(shape "$T/perf.csv") <(shape "$T/ours.csv")
	[ "$(wc -l <"$T/ours.csv")" -eq 4 ]
	# both counted the software events
	for f in "$T/perf.csv" "$T/ours.csv"; do
		awk -F, '$3 == "task-clock" || $3 == "page-faults" || $3 == "context-switches" {
			if (!($1 > 0) || !($4 > 0)) exit 1 }' "$f"
	done
}

@test "stat -I: perf's header, a time column, interval counts; with -x the same fields" {
	perf stat -I 100 -e task-clock,page-faults -- sleep 0.25 2>"$T/perf.txt" >/dev/null
	run "$HWTRACE" stat -I 100 -e task-clock -e page-faults -- sleep 0.25
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$(head -1 "$T/perf.txt")" ]
	[ "${lines[0]}" = "#           time             counts unit events" ]
	# each line: the time (%6lu.%09lu) then perf's event line
	local n=0 l
	for l in "${lines[@]:1}"; do
		[[ "$l" =~ ^\ +[0-9]+\.[0-9]{9}\ +([0-9.]+|\<not\ counted\>)\ (msec|\ \ \ \ )\ (task-clock|page-faults) ]]
		n=$((n + 1))
	done
	[ "$n" -ge 4 ]
	# the first interval counted the command's start
	[[ "${lines[1]}" =~ msec\ task-clock\ +#\ +[0-9.]+\ CPUs\ utilized ]]
	perf stat -x, -I 100 -e task-clock -- sleep 0.15 2>"$T/perf.csv" >/dev/null
	run "$HWTRACE" stat -x, -I 100 -e task-clock -- sleep 0.15
	[ "$status" -eq 0 ]
	[ "$(head -1 "$T/perf.csv" | awk -F, '{ print NF "|" $3 "|" $4 }')" = \
	  "$(echo "${lines[0]}" | awk -F, '{ print NF "|" $3 "|" $4 }')" ]
	[[ "${lines[0]}" =~ ^\ +[0-9]+\.[0-9]{9},[0-9.]+,msec,task-clock,[0-9]+,100.00,[0-9.]+,CPUs\ utilized$ ]]
}

@test "stat -a without -e: perf's defaults with cpu-clock, 'system wide'" {
	run "$HWTRACE" stat -a -- sleep 0.1
	[ "$status" -eq 0 ]
	[[ "$output" == *" Performance counter stats for 'system wide':"* ]]
	[[ "$output" == *" msec cpu-clock "*"CPUs utilized"* ]]
	[[ "$output" != *"seconds user"* ]]
}

# "# started on <ctime>" and a blank line, as perf stat -o writes them
started_on() {
	head -2 "$1" | sed -E 's/^# started on [A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9:]{8} [0-9]{4}$/# started on DATE/'
}

@test "stat -o FILE / --output FILE: the counts in FILE as perf stat -o writes it, none on stderr" {
	perf stat -o "$T/perf.txt" -e task-clock -e page-faults -- sleep 0.1 2>"$T/perf.err"
	run "$HWTRACE" stat -o "$T/ours.txt" -e task-clock -e page-faults -- sleep 0.1
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ "$(started_on "$T/perf.txt")" = "$(printf '# started on DATE\n')" ]
	[ "$(started_on "$T/ours.txt")" = "$(started_on "$T/perf.txt")" ]
	diff <(layout "$T/perf.txt") <(layout "$T/ours.txt")
	[ "$(layout "$T/ours.txt" | grep -vc "^seconds|")" -eq 2 ]
	grep -q " Performance counter stats for 'sleep 0.1':" "$T/ours.txt"
	grep -qE '^ +[0-9]+\.[0-9]{9} seconds time elapsed$' "$T/ours.txt"
	# -x: the same line count and fields after the started-on lines
	perf stat -x, --output "$T/perf.csv" -e task-clock -- sleep 0.1
	"$HWTRACE" stat -x, --output "$T/ours.csv" -e task-clock -- sh -c 'sleep 0.1; exit 3' ||
		st=$?
	[ "${st:-0}" -eq 3 ]
	[ "$(started_on "$T/ours.csv")" = "$(started_on "$T/perf.csv")" ]
	[ "$(wc -l <"$T/ours.csv")" -eq "$(wc -l <"$T/perf.csv")" ]
	[ "$(sed -n 3p "$T/perf.csv" | awk -F, '{ print NF "|" $2 "|" $3 }')" = \
	  "$(sed -n 3p "$T/ours.csv" | awk -F, '{ print NF "|" $2 "|" $3 }')" ]
}

@test "stat -o: a write error is said and exits 1; no half file; usage errors before counting" {
	run "$HWTRACE" stat -o /dev/full -e task-clock -- true
	[ "$status" -eq 1 ]
	[[ "$output" == *"/dev/full: write error: "* ]]
	mkdir "$T/ro"
	run bash -c "trap '' XFSZ; ulimit -f 0; '$HWTRACE' stat -o '$T/ro/c.txt' -e task-clock -- true"
	[ "$status" -eq 1 ]
	[[ "$output" == *"c.txt: write error: "* ]]
	[ -z "$(ls -A "$T/ro")" ]
	# the command is not run when the output cannot be made
	run "$HWTRACE" stat -o "$T/nodir/c.txt" -e task-clock -- touch "$T/ran"
	[ "$status" -eq 1 ]
	[ ! -e "$T/ran" ]
	run "$HWTRACE" stat -o "$T/c.txt" --dry-run -e task-clock
	[ "$status" -eq 2 ]
	[ ! -e "$T/c.txt" ]
}
