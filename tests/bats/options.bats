#!/usr/bin/env bats
# The option contract of every verb (design.rst 6): one table per verb parses
# the options, prints -h / `help VERB`, answers --list-opts for completion and
# feeds the man pages; bad values are usage errors (exit 2, nothing on stdout)
# before any input is read; -F's forms; script -s in any order with the hook's
# arguments after --; the bash completion file.

load lib/common

setup_file() {
	export T="$BATS_FILE_TMPDIR"
	"$HWTRACE" synth --type cxl-hmu --seed 7 --size 64K --manifest "$T/m.txt" -o "$T/hmu.data"
	"$HWTRACE" synth --type panthor --seed 3 --size 64K -o "$T/pt.data"
	# an input nobody writes: a verb that opens it for reading hangs (and
	# `timeout` makes that a failure), one that checks its options first does not
	mkfifo "$T/fifo"
	printf 'def trace_begin():\n    import sys\n    print("argv", sys.argv[1:])\n' >"$T/hook.py"
	printf '{}\n' >"$T/info.json"
	printf '1000000000\n' >"$T/clock"
	mkdir -p "$T/bin"
	ln -sf "$HWTRACE" "$T/bin/perf-hwtrace"
}

verbs() {
	"$HWTRACE" --list-cmds | tr ' ' '\n' | grep -v -e '^help$' -e '^$'
}

# A sensible value for option $1 of verb $2 when it takes one; none for flags.
value_of() {
	case $1 in
	--input) echo "$T/none.data" ;;
	--output) echo "$T/out.data" ;;
	--type) [[ $2 == script || $2 == report ]] && echo cxl_hmu_unit || echo cxl-hmu ;;
	--fields) echo unit,count ;;
	--script) echo "$T/hook.py" ;;
	--hdm) echo base=0,size=0x10000000,ways=1,granularity=256,pos=0 ;;
	--granual) echo 12 ;;
	--width) echo 16 ;;
	--pmu) echo cxl_hmu_mem0.0.0 ;;
	--top) echo 5 ;;
	--sort) [[ $2 == top ]] && echo mem || echo total ;;
	--oa-format) echo A32u40_A4u32_B8_C8 ;;
	--gen) echo 12 ;;
	--ts-freq) echo 19200000 ;;
	--devid) echo 0x9a49 ;;
	--info) echo "$T/info.json" ;;
	--layout) echo 6 ;;
	--insert | --extract) echo 0 ;;
	--slots) echo 8 ;;
	--format) echo ring ;;
	--seed) echo 1 ;;
	--size) echo 64K ;;
	--auxtrace-type) echo 7 ;;
	--manifest) echo "$T/man.txt" ;;
	--to-perfetto) echo "$T/out.pftrace" ;;
	--threshold | --range-size) echo 1 ;;
	--pmu-type) echo 42 ;;
	--counters) echo 64 ;;
	--clients) echo 2 ;;
	--unset) echo 0 ;;
	--event) echo cpu-clock ;;
	--cpu) echo 0 ;;
	--mmap-pages) echo 16,16 ;;
	--sysfs | --sys | --proc) echo "$T" ;;
	--listen) echo 127.0.0.1:0 ;;
	--delay) echo 1 ;;
	--iterations) echo 1 ;;
	--rescan) echo 5 ;;
	--rank-memory) echo 64M ;;
	--rank-counters) echo 65536 ;;
	--clock-file) echo "$T/clock" ;;
	--interval-print) echo 100 ;;
	--field-separator) echo , ;;
	--time) echo 1.0,2.0 ;;
	--metric-set) echo RenderBasic ;;
	--uuid) echo 0fc397c0-4833-492c-9ccd-4929d574d5b8 ;;
	--lost | --switch-back) echo 1 ;;
	--record) echo "$T/rec.data" ;;
	--cpu) echo 0 ;;
	--pid | --tid) echo 1 ;;
	--gen-script) echo python ;;
	esac
}

@test "every option a verb's --list-opts advertises is accepted by that verb" {
	local verb opt n=0
	for verb in $(verbs); do
		run "$HWTRACE" "$verb" --list-opts
		[ "$status" -eq 0 ]
		[ -n "$output" ]
		for opt in $output; do
			# the option (and its value) parsed, then --help answers: exit 0
			# and the verb's usage; an unknown option or a refused value is 2
			run "$HWTRACE" "$verb" "$opt" $(value_of "$opt" "$verb") --help
			echo "$verb $opt: $status ${lines[0]}"
			[ "$status" -eq 0 ]
			[[ "${lines[0]}" == *"usage: perf hwtrace $verb "* ]]
			n=$((n + 1))
		done
	done
	[ "$n" -gt 60 ]
}

@test "VERB -h, VERB --help and help VERB print that verb's usage and exit 0" {
	local verb
	for verb in $(verbs); do
		for args in "$verb -h" "$verb --help" "help $verb"; do
			run "$HWTRACE" $args
			echo "$args: $status"
			[ "$status" -eq 0 ]
			[[ "${lines[0]}" == " usage: perf hwtrace $verb "* ]]
			[[ "$output" == *"-h, --help"* ]]
		done
	done
	run "$HWTRACE" help nosuch
	[ "$status" -eq 2 ]
}

@test "help lists exactly the options the parser takes, and so does the man page" {
	local verb want
	[ "$(verbs | wc -l)" -eq 11 ]
	for verb in $(verbs); do
		want=$("$HWTRACE" "$verb" --list-opts | tr ' ' '\n' | grep . | sort -u)
		got=$("$HWTRACE" "$verb" --help | grep -oE '^ +(-., )?--[a-z0-9-]+' |
			grep -oE -- '--[a-z0-9-]+' | grep -vx -- --help | sort -u)
		echo "$verb: want [$want] got [$got]"
		[ "$want" = "$got" ]
		man=$(sed -n 's/^\.B \(\\-., \)\?\\-\\-\([a-z0-9\\-]*\).*/--\2/p' \
			"$BATS_TEST_DIRNAME/../../Documentation/man/perf-hwtrace-$verb.1" |
			sed 's/\\-/-/g' | grep -vx -- --help | sort -u)
		[ "$want" = "$man" ]
	done
	# the committed pages are what the generator makes from today's tables
	mkdir -p "$T/man"
	"$BATS_TEST_DIRNAME/../../Documentation/man/gen-verb-pages.sh" "$HWTRACE" "$T/man"
	for verb in $(verbs); do
		diff "$T/man/perf-hwtrace-$verb.1" \
			"$BATS_TEST_DIRNAME/../../Documentation/man/perf-hwtrace-$verb.1"
	done
}

# Run a verb whose options are bad; the input is the FIFO (or none at all).
bad() {
	status=0
	timeout 10 "$HWTRACE" "$@" >"$T/out" 2>"$T/err" || status=$?
	cat "$T/err"
	[ "$status" -eq 2 ]
	[ ! -s "$T/out" ]
}

@test "bad option values are usage errors, before the input is read" {
	bad report --top -5 -i "$T/fifo"
	grep -q -- "--top" "$T/err"
	bad report --top 1000001 -i "$T/fifo"
	bad report --top five -i "$T/fifo"
	bad report --granual 99 -i "$T/fifo"
	grep -q -- "--granual: '99'" "$T/err"
	bad report --hdm base=0,size=0x10000000,ways=0,granularity=256,pos=0 -i "$T/fifo"
	grep -q "ways 0" "$T/err"
	bad report --width 0 -i "$T/fifo"
	bad script --ts-freq 0 -i "$T/fifo"
	bad script --layout 3 -i "$T/fifo"
	bad inject --width 0 -i "$T/fifo" -o "$T/inj.data"
	[ ! -e "$T/inj.data" ]
	bad decode --type i915-oa --gen 12.x "$T/fifo"
	bad synth --type panthor --layout 3 -o "$T/bad.data"
	[ ! -e "$T/bad.data" ]
	bad synth --type cxl-hmu --seed -1 -o "$T/bad.data"
	bad synth --type cxl-hmu --size 12Q -o "$T/bad.data"
	bad top -n 0 --proc "$T"
	bad top -d -1 --proc "$T"
	bad stat -I 5 -e cpu-clock -a
	bad record -m 3 -e cpu-clock -a -o "$T/rec.data"
	[ ! -e "$T/rec.data" ]
	# a file option is read whole or refused: missing, or past 16 MiB
	bad decode --type panthor --info "$T/no-such.json" "$T/fifo"
	grep -q -- "--info $T/no-such.json: No such file or directory" "$T/err"
	{ printf '{"x": "'; head -c $((16 << 20)) /dev/zero | tr '\0' a; printf '"}\n'; } >"$T/big.json"
	bad decode --type panthor --info "$T/big.json" "$T/fifo"
	grep -q -- "--info $T/big.json: larger than 16 MiB" "$T/err"
	rm -f "$T/big.json"
}

@test "an unknown --oa-format is a usage error that lists the valid names" {
	bad report --oa-format nosuch -i "$T/fifo"
	grep -q "nosuch" "$T/err"
	grep -q "A32u40_A4u32_B8_C8" "$T/err"
	grep -q "A24u40_A14u32_B8_C8" "$T/err"
}

@test "-F with an unknown field is a usage error naming it" {
	bad script -F nosuch -i "$T/fifo"
	grep -q "'nosuch'" "$T/err"
	bad script -F unit,cnt -i "$T/fifo"
	grep -q "'cnt'" "$T/err"
	bad script -F cxl_hmu_unit:unit,nosuch -i "$T/fifo"
	grep -q "'nosuch'" "$T/err"
	bad script -F nosuch_type:unit -i "$T/fifo"
	grep -q "nosuch_type" "$T/err"
	bad decode --type cxl-hmu -F cnt "$T/fifo"
	grep -q "'cnt'" "$T/err"
}

@test "script -s DIRECTORY is a usage error" {
	bad script -s "$T" -i "$T/fifo"
	grep -q "directory" "$T/err"
	bad script -s "$T/nosuch.py" -i "$T/fifo"
}

@test "a decoder option the input's device does not take is a usage error" {
	bad report --rank-memory 64M -i "$T/pt.data"
	grep -q -- "--rank-memory is not an option of the input's device (panthor)" "$T/err"
	bad report -D --layout 6 -i "$T/hmu.data"
	grep -q "cxl-hmu" "$T/err"
	bad script --rank-memory 64M -i - <"$T/pt.data"
	bad decode --type panthor --rank-memory 64M "$T/fifo"
	grep -q -- "--rank-memory is not an option of panthor" "$T/err"
	# the device's own options stay fine
	run "$HWTRACE" report --top 3 -i "$T/hmu.data"
	[ "$status" -eq 0 ]
}

@test "unique prefixes of long options work; ambiguous ones are refused" {
	run "$HWTRACE" report --stat -i "$T/hmu.data"
	[ "$status" -eq 0 ]
	want=$("$HWTRACE" report --stats -i "$T/hmu.data")
	[ "$output" = "$want" ]
	run "$HWTRACE" script --js --inp="$T/hmu.data"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == '{"type":"cxl_hmu_unit"'* ]]
	run "$HWTRACE" report --dump-raw -i "$T/hmu.data"	# --dump-raw-trace(s): aliases
	[ "$status" -eq 0 ]
	bad report --d -i "$T/fifo"
	grep -q "ambiguous option '--d'" "$T/err"
	bad report --in "$T/hmu.data"
	grep -q "ambiguous" "$T/err"
	bad report --nosuch -i "$T/fifo"
	grep -q "unknown option '--nosuch'" "$T/err"
	# short options: attached and separate values, clusters of flags
	run "$HWTRACE" report -i"$T/hmu.data" --top=2
	[ "$status" -eq 0 ]
	# --no- only for booleans that take it
	run "$HWTRACE" report --no-stats -i "$T/hmu.data"
	[ "$status" -eq 0 ]
	bad report --no-top 5 -i "$T/fifo"
}

@test "-F TYPE:fields and +field forms" {
	bats_require_minimum_version 1.5.0
	run --separate-stderr "$HWTRACE" script -F cxl_hmu_unit:unit,count -i "$T/hmu.data"
	[ "$status" -eq 0 ]
	# the manifest's unit and count columns, as "unit=U count=C" lines
	want=$(grep -v '^#' "$T/m.txt" | awk '{ print "cxl_hmu_unit: unit=" $3 " count=" $4 }')
	[ "$output" = "$want" ]
	# +raw: the default fields and raw (which the default line leaves out)
	run --separate-stderr "$HWTRACE" script -F +raw --raw-time -i "$T/hmu.data"
	[ "$status" -eq 0 ]
	first=$(grep -v '^#' "$T/m.txt" | head -1)
	read -r cpu time unit count dpa <<<"$first"
	[[ "${lines[0]}" == "cxl_hmu_unit: cpu=$cpu time=$time pmu="*" unit=$unit count=$count "*" dpa=$dpa raw=0x"* ]]
	run --separate-stderr "$HWTRACE" script -i "$T/hmu.data"
	[[ "${lines[0]}" != *"raw="* ]]
	bad script -F +raw,unit -i "$T/fifo"
}

@test "script -s HOOK -i FILE and -i FILE -s HOOK both work; hook arguments follow --" {
	[ -e "$BUILD/perf-hwtrace-python.so" ] || skip "no Python runner built"
	run "$HWTRACE" script -s "$T/hook.py" -i "$T/hmu.data" -- --top 5
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "argv ['--top', '5']" ]]
	run "$HWTRACE" script -i "$T/hmu.data" -s "$T/hook.py"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "argv []" ]]
	# perf's way too: the first non-option starts the hook's arguments
	run "$HWTRACE" script -i "$T/hmu.data" -s "$T/hook.py" a1 --x
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "argv ['a1', '--x']" ]]
}

@test "--list-cmds lists the verbs, as perf --list-cmds does" {
	run "$HWTRACE" --list-cmds
	[ "$status" -eq 0 ]
	for v in report script decode synth inject record top list stat; do
		[[ " $output " == *" $v "* ]]
	done
}

# Call the completion function bash would call for the words given.
complete_words() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMPREPLY=()
	local fn
	fn=$(complete -p "$1" | sed 's/.* -F \([^ ]*\) .*/\1/')
	"$fn" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	echo "${COMPREPLY[*]}"
}

@test "the bash completion offers hwtrace's verbs and options after perf-hwtrace and perf hwtrace" {
	PATH="$T/bin:$PATH"
	. "$BATS_TEST_DIRNAME/../../plugins/perf-hwtrace/perf-hwtrace.bash-completion"
	[ "$(complete_words perf-hwtrace re)" = "report record" ]
	[ "$(complete_words perf-hwtrace report --st)" = "--stats --stdio" ]
	[ "$(complete_words perf-hwtrace script --oa)" = "--oa-format" ]
	[ "$(complete_words perf-hwtrace help sy)" = "synth" ]
	[ "$(complete_words perf hwtrace sc)" = "script" ]
	[ "$(complete_words perf hwtrace report --dump-raw-traces)" = "--dump-raw-traces" ]
	[ "$(complete_words perf hwtrace decode --ty)" = "--type" ]
	[ "$(complete_words perf hw)" = "hwtrace" ]
}

@test "the bash completion leaves perf's own commands to perf's completion" {
	[ -r /usr/share/bash-completion/completions/perf ] || skip "no linux-perf completion"
	PATH="$T/bin:$PATH"
	. "$BATS_TEST_DIRNAME/../../plugins/perf-hwtrace/perf-hwtrace.bash-completion"
	declare -F _perf
	[[ " $(complete_words perf rep) " == *" report "* ]]
	[[ " $(complete_words perf report --stdi) " == *" --stdio "* ]]
	[[ " $(complete_words perf record --all-c) " == *" --all-cpus "* ]]
}
