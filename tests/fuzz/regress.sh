# SPDX-License-Identifier: GPL-2.0-or-later
# Every input the fuzzer (or a review) found that once broke the reader, in
# tests/fuzz/regress/, through every path the fuzz target walks: report as
# text, raw, JSON, both function_graph layouts, dump, convert and split
# (tests/fuzz/run --target split), and the scheduling pass (ftc sched). Each must end in a
# clear error or a report, never a signal, a hang or a sanitizer report.
# The asan tier reruns this script with FTC=./ftc-asan.
. "$(dirname "$0")/../lib.sh"

D=$OUT/fuzz-regress
rm -rf "$D"; mkdir -p "$D"
modes=("report" "report --raw" "report --json" "report --graph-layout events"
       "report --graph-proc --graph-abstime" "report --graph-layout kernel --graph-proc --graph-abstime"
       "report --no-graph" "dump" "dump --buffers"
       "convert --file-version 6 -o $D/conv.dat" "split -e 7 -o $D/part"
       "sched latency" "sched offcpu" "sched timehist")
n=0
for in in "$TOP"/tests/fuzz/regress/*; do
	[ -f "$in" ] || continue
	name=$(basename "$in")
	for m in "${modes[@]}"; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		timeout 20 "$FTC" $m "$in" >"$D/o" 2>"$D/e"
		st=$?
		if [ $st -ge 124 ]; then
			fail "fuzz regress: $name: ftc $m" "exit $st (signal or hang): $(tail -2 "$D/e" | tr '\n' ' ')"
		elif grep -qE 'AddressSanitizer|runtime error|LeakSanitizer' "$D/e"; then
			fail "fuzz regress: $name: ftc $m" "sanitizer report: $(grep -m2 -E 'ERROR|runtime error' "$D/e" | tr '\n' ' ')"
		elif [ $st -ne 0 ] && [ ! -s "$D/e" ]; then
			fail "fuzz regress: $name: ftc $m" "exit $st without an error message"
		else
			pass "fuzz regress: $name: ftc $m (exit $st)"
		fi
	done
done
[ $n -gt 0 ] || fail "fuzz regress" "no inputs in tests/fuzz/regress"

# The import target's findings (tests/fuzz/run --target import): console logs.
for in in "$TOP"/tests/fuzz/regress-import/*; do
	[ -f "$in" ] || continue
	name=$(basename "$in")
	timeout 20 "$FTC" import -q --kallsyms "$TOP/tests/fixtures/import/graph-orig-cpu.kallsyms" \
		-o "$D/imp.dat" "$in" >"$D/o" 2>"$D/e"
	st=$?
	if [ $st -ge 124 ]; then
		fail "fuzz regress: import $name" "exit $st (signal or hang): $(tail -2 "$D/e" | tr '\n' ' ')"
	elif grep -qE 'AddressSanitizer|runtime error|LeakSanitizer' "$D/e"; then
		fail "fuzz regress: import $name" "sanitizer report: $(grep -m2 -E 'ERROR|runtime error' "$D/e" | tr '\n' ' ')"
	elif [ $st -ne 0 ] && [ ! -s "$D/e" ]; then
		fail "fuzz regress: import $name" "exit $st without an error message"
	elif [ $st = 0 ] && ! "$FTC" report "$D/imp.dat" >"$D/o" 2>"$D/e"; then
		fail "fuzz regress: import $name" "ftc report refuses what import wrote: $(tail -1 "$D/e")"
	else
		pass "fuzz regress: import $name (exit $st)"
	fi
done

# The record the 4 GB malloc came from is named, and the report goes on.
in=$TOP/tests/fuzz/regress/report-sigbus-4g-malloc.dat
"$FTC" report "$in" >"$D/o" 2>/dev/null
expect_match "fuzz regress: short ftrace:print record printed as damaged" \
	"<damaged record: cpu 0 offset 0x[0-9a-f]+: ftrace:print field 'ip' at 8\\+8 exceeds the record's 12 bytes>" \
	"$(cat "$D/o")"
after=$(sed -n '/<damaged record/,$p' "$D/o" | wc -l)
[ "$after" -gt 1 ] && pass "fuzz regress: the report goes on after the damaged record" ||
	fail "fuzz regress: the report goes on after the damaged record" "nothing after it"
"$FTC" report --json "$in" >"$D/o" 2>/dev/null
expect_match "fuzz regress: JSON names the damaged record" \
	'"type":"damaged",.*"offset":[0-9]+,"system":"ftrace","event":"print","reason":' "$(cat "$D/o")"

# Probe SPECs the fuzzer (tests/fuzz/run --target probe) kept, in
# tests/fuzz/regress-probe/ (the first byte: given with -x), through the
# command line's parse only (--help ends the command before any write):
# a usage error or help, never a signal or a sanitizer report.
np=0
for in in "$TOP"/tests/fuzz/regress-probe/*; do
	[ -f "$in" ] || continue
	np=$((np + 1))
	name=$(basename "$in")
	spec=$(tail -c +2 "$in" | tr -d '\0')
	[ "$(head -c 1 "$in" | od -An -tu1 | tr -d ' ')" = 1 ] && spec="/bin/true:$spec"
	timeout 20 "$FTC" record --probe "$spec" --help >"$D/o" 2>"$D/e"
	st=$?
	if [ $st -ge 124 ] || grep -qE 'AddressSanitizer|runtime error|LeakSanitizer' "$D/e"; then
		fail "fuzz regress: probe spec $name" "exit $st: $(grep -m2 -E 'ERROR|runtime error' "$D/e" | tr '\n' ' ')"
	elif [ $st != 0 ] && [ $st != 2 ]; then
		fail "fuzz regress: probe spec $name" "exit $st, want 0 (parsed) or 2 (usage)"
	else
		pass "fuzz regress: probe spec $name (exit $st)"
	fi
done
[ $np -gt 0 ] || fail "fuzz regress" "no inputs in tests/fuzz/regress-probe"

# exit_023 WHAT STATUS: a result (0), a usage error (2) or a name that is
# not there (3), never a signal, a hang or a sanitizer report in $D/e.
exit_023() {
	if [ "$2" -ge 124 ] || grep -qE 'AddressSanitizer|runtime error|LeakSanitizer' "$D/e"; then
		fail "fuzz regress: $1" "exit $2: $(grep -m2 -E 'ERROR|runtime error' "$D/e" | tr '\n' ' ')"
	elif [ "$2" != 0 ] && [ "$2" != 2 ] && [ "$2" != 3 ]; then
		fail "fuzz regress: $1" "exit $2, want 0, 2 or 3: $(head -1 "$D/e")"
	else
		pass "fuzz regress: $1 (exit $2)"
	fi
}

# boot-args values and --events-from files the fuzzer (tests/fuzz/run
# --target boot) kept, in tests/fuzz/regress-boot/ (the first line a value,
# the rest the file), as each option that takes such a value: a parameter
# line (0), a usage error (2) or a name no kernel has (3), never a signal
# or a sanitizer report.
nb=0
for in in "$TOP"/tests/fuzz/regress-boot/*; do
	[ -f "$in" ] || continue
	name=$(basename "$in")
	value=$(head -1 "$in" | tr -d '\0')
	tail -n +2 "$in" >"$D/events"
	for opt in -e -p -C -O; do
		nb=$((nb + 1))
		timeout 20 "$FTC" boot-args --kernel 6.1.0 --events-from "$D/events" "$opt" "$value" \
			>"$D/o" 2>"$D/e"
		exit_023 "boot $name $opt" $?
	done
done
[ $nb -gt 0 ] || fail "fuzz regress" "no inputs in tests/fuzz/regress-boot"

# Filters the fuzzer (tests/fuzz/run --target filter) kept, in
# tests/fuzz/regress-filter/, through ftc report -F over a small capture of
# the events they name: a report (0), a malformed filter (2) or a name the
# file lacks (3), never a signal or a sanitizer report.
nf=0
FI=$(test_instance fregress)
if "$FTC" record -q -B "$FI" -e sched:sched_switch -e sched:sched_wakeup -e sched:sched_process_exec \
	-o "$D/filter.dat" -- sh -c '/bin/true; sleep 0.01' >"$D/o" 2>"$D/e"; then
	for in in "$TOP"/tests/fuzz/regress-filter/*; do
		[ -f "$in" ] || continue
		nf=$((nf + 1))
		name=$(basename "$in")
		timeout 20 "$FTC" report -F "$(tr -d '\0' <"$in")" "$D/filter.dat" >"$D/o" 2>"$D/e"
		exit_023 "filter $name" $?
	done
	[ $nf -gt 0 ] || fail "fuzz regress" "no inputs in tests/fuzz/regress-filter"
else
	skip "fuzz regress: filters" "no capture to filter: $(tail -1 "$D/e")"
fi
[ -d "$TRACEFS/instances/$FI" ] && "$FTC" reset -q -B "$FI" -d >/dev/null 2>&1
finish
