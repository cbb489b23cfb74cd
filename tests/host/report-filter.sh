#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ftc report -F (and ftc stream --match) check a filter before libtraceevent
# sees it (libftc/base/filter-expr.c): a half-typed filter, which crashed
# libtraceevent, exits 2 with the filter on one line and a caret under the
# place; a field no selected event has exits 3 and names the event's
# fields; a value of the wrong type exits 2; an event the file lacks exits
# 3; SYSTEM:EVENT works as SYSTEM/EVENT does. Valid filters select the
# records an oracle computes from the unfiltered report. A kernel filter
# (start, record, stream, hist -f) with a syntax error exits 2 with a caret
# before tracefs is touched; a valid one is written.
. "$(dirname "$0")/../lib.sh"

I=$(test_instance filter)
D=$(mktemp -d /tmp/ftc-filter.XXXXXX)
cleanup() {
	[ -d "$TRACEFS/instances/$I" ] && "$FTC" reset -q -B "$I" -d >/dev/null 2>&1
	rm -rf "$D"
}
trap cleanup EXIT
F=$D/t.dat
knobs_save
if ! "$FTC" record -q -B "$I" -e sched:sched_switch -e sched:sched_wakeup -e sched:sched_process_exec \
	-o "$F" -- sh -c 'for i in 1 2 3 4 5; do /bin/true; sleep 0.01; done' >"$D/rec.out" 2>&1; then
	fail "setup: record" "$(tail -3 "$D/rec.out")"
	finish
fi
"$FTC" reset -q -B "$I" -d >/dev/null 2>&1

# bad NAME WANT FILTER COLUMN MESSAGE: exit WANT, the message, the filter
# on one line and a caret under COLUMN (0-based).
bad() {
	local name=$1 want=$2 f=$3 col=$4 msg=$5 pad
	"$FTC" report -F "$f" "$F" >"$D/o" 2>"$D/e"
	local st=$?
	pad=$(printf '%*s' "$col" '')
	if [ $st != "$want" ]; then
		fail "$name: exit $want" "exit $st: $(head -3 "$D/e")"
	elif [ -s "$D/o" ]; then
		fail "$name: nothing is printed" "$(head -2 "$D/o")"
	elif ! grep -qF -- "$msg" "$D/e"; then
		fail "$name: says '$msg'" "$(head -1 "$D/e")"
	elif ! grep -qxF -- "  $f" "$D/e" || [ "$(grep -xF -A1 -- "  $f" "$D/e" | tail -1)" != "  $pad^" ]; then
		fail "$name: caret under column $col" "$(cat "$D/e")"
	else
		pass "$name: exit $want, '$msg', caret under column $col"
	fi
}

# The issue's crashers (SIGSEGV in tep_filter_add_filter_str before).
bad "a comparison without its value" 2 'sched_switch: prev_pid ==' 25 "expected a number or a quoted string after =="
bad "&& without its right side" 2 'sched_switch: prev_pid == 0 &&' 30 "expected a field name"
bad "> and a blank" 2 'sched_switch: prev_pid > ' 25 "expected a number or a quoted string after >"
bad "the kernel's ~ without a value" 2 'sched_switch: prev_comm ~' 24 "use =~ with a regular expression"
bad "an event name after ||" 2 'sched_switch: prev_pid == 0 || sched_wakeup' 43 \
	"expected a comparison after 'sched_wakeup'"
bad "an unclosed (" 2 'sched_switch: (prev_pid == 0' 28 "expected ')' to close the '(' at column 15"
bad "a ) too many" 2 'sched_switch: prev_pid == 0)' 27 "this ')' closes no '('"
bad "= for ==" 2 'sched_switch: prev_pid = 0' 23 "'=' is not one"
bad "two conditions without && or ||" 2 'sched_switch: prev_pid == 0 next_pid == 0' 28 "expected && or ||"
bad "an unterminated string" 2 'sched_switch: prev_comm == "sh' 27 "this string has no closing \""
bad "a bad regular expression" 2 'sched_switch: prev_comm =~ "["' 27 "not a regular expression"
bad "a quote after a backslash" 2 'sched_switch: prev_comm == "a\"b"' 29 "a string cannot hold its own quote"
bad "a ',' in a string" 2 'sched_switch: prev_comm == "a,b"' 29 "a ',' cannot be in a filter's string"
bad "a field on the right" 2 'sched_switch: prev_pid == next_pid' 26 "a field is not taken on the right"
bad "nothing after ':'" 2 'sched_switch:' 13 "expected a filter after ':'"
bad "three colons" 2 'a:b:c: x == 1' 3 "one separator"
# Types.
bad "a string for a number" 2 'sched_switch: prev_pid == "abc"' 26 "field 'prev_pid' is a number"
bad "a number for a string" 2 'sched_switch: prev_comm == 7' 27 "field 'prev_comm' is a string"
bad "'x' for a string" 2 "sched_switch: prev_comm == 'x'" 27 "use \"x\""
bad "< on a string" 2 'sched_switch: prev_comm < "a"' 26 "a string compares only with"
bad "a division by zero" 2 'sched_switch: prev_pid / 0' 25 "a division by zero"
bad "a division by a field (SIGFPE)" 2 'sched_switch: prev_pid % next_pid' 25 "% takes a number (not zero), not a field"
# Names the file lacks.
bad "a misspelt field" 3 'sched_switch: nosuchfield == 1' 14 "no selected event has a field 'nosuchfield'"
expect_match "the misspelt field's message lists sched_switch's fields" \
	'^  fields of sched:sched_switch: prev_comm prev_pid prev_prio prev_state next_comm next_pid next_prio; and common_pid' \
	"$(cat "$D/e")"
bad "an event the file lacks" 3 'nosuch: pid == 1' 0 "no event in the file matches 'nosuch'"
bad "SYSTEM:EVENT the file lacks" 3 'sched:nosuch: pid == 1' 0 "no event in the file matches 'sched:nosuch'"
# The syntax is checked before the file is opened.
expect_status "a half-typed filter is refused before the file is read" 2 \
	"$FTC" report -F 'sched_switch: prev_pid ==' "$D/missing.dat"

# Valid filters select the records an oracle picks from the unfiltered
# --raw report (tests/host/report-filter.py: fields, COMM and CPU of each line).
"$FTC" report --raw "$F" >"$D/all" 2>"$D/e" || fail "setup: report --raw" "$(head -2 "$D/e")"
while IFS=$'\t' read -r f cond; do
	[ -n "$f" ] || continue
	"$FTC" report --raw -F "$f" "$F" >"$D/sel" 2>"$D/e"
	st=$?
	# shellcheck disable=SC2046
	set -- $(python3 "$TOP/tests/host/report-filter.py" "$D/all" "$D/sel" "$cond")
	if [ "$st" != 0 ]; then
		fail "valid filter '$f'" "exit $st: $(head -3 "$D/e")"
	elif [ $# != 5 ] || [ "$1" != "$2" ] || [ "$4" != 0 ] || [ "$5" != 0 ]; then
		fail "valid filter '$f' selects what the oracle does" "got ${1:-?}, want ${2:-?} of ${3:-?} (${4:-?} extra, ${5:-?} missing)"
	else
		pass "valid filter '$f' selects what the oracle does ($1 of $3 records)"
	fi
done <<'EOF'
sched_switch: prev_pid != 0 && next_pid != 0	ev == 'sched_switch' and n('prev_pid') != 0 and n('next_pid') != 0
sched/sched_switch: (prev_pid == 0 || next_pid == 0) && prev_prio < 200	ev == 'sched_switch' and (n('prev_pid') == 0 or n('next_pid') == 0) and n('prev_prio') < 200
sched_switch: !(prev_pid == 0)	ev == 'sched_switch' and not n('prev_pid') == 0
sched_switch: !(prev_pid != 0 && next_pid != 0 || prev_state & 1) || prev_prio < 10	ev == 'sched_switch' and (not ((n('prev_pid') != 0 and n('next_pid') != 0) or n('prev_state') & 1) or n('prev_prio') < 10)
sched_switch: !(!(prev_comm =~ "^s") && next_comm !~ "^sw")	ev == 'sched_switch' and not ((not re.search('^s', f['prev_comm'], re.I)) and not re.search('^sw', f['next_comm'], re.I))
sched_switch: !!next_pid != 0	ev == 'sched_switch' and n('next_pid') != 0
sched_switch: ! prev_pid == 0 || next_prio >= 0x10	ev == 'sched_switch' and (not n('prev_pid') == 0 or n('next_prio') >= 16)
sched_switch: prev_pid != 0 || next_pid != 0 && prev_prio < 0	ev == 'sched_switch' and (n('prev_pid') != 0 or n('next_pid') != 0) and n('prev_prio') < 0
sched_switch: prev_comm == "sh" || next_comm != "swapper/0"	ev == 'sched_switch' and (f['prev_comm'] == 'sh' or f['next_comm'] != 'swapper/0')
sched_switch: prev_comm =~ "^s" && next_comm !~ "^sw"	ev == 'sched_switch' and re.search('^s', f['prev_comm'], re.I) and not re.search('^sw', f['next_comm'], re.I)
sched_switch: prev_comm == 'sh'	ev == 'sched_switch' and f['prev_comm'] == 'sh'
sched_switch: prev_state & 1	ev == 'sched_switch' and n('prev_state') & 1
sched_process_exec: filename == "/bin/true"	ev == 'sched_process_exec' and f['filename'] == '/bin/true'
sched: common_pid != 0	pid != 0
sched_switch,sched_wakeup: COMM == "sh" && CPU == 0	ev in ('sched_switch', 'sched_wakeup') and comm == 'sh' and cpu == 0
sched_wakeup	ev == 'sched_wakeup'
sched:sched_switch: next_pid != 0	ev == 'sched_switch' and n('next_pid') != 0
.*: common_pid > 0	pid > 0
EOF

# SYSTEM:EVENT is SYSTEM/EVENT, and the event alone.
stamps() { grep -oE '[0-9]+\.[0-9]{6}: [a-z_]+:' | sort; }
"$FTC" report -F 'sched:sched_switch: next_pid != 0' "$F" >"$D/colon" 2>"$D/e"
st=$?
"$FTC" report -F 'sched/sched_switch: next_pid != 0' "$F" >"$D/slash"
"$FTC" report -F 'sched_switch: next_pid != 0' "$F" >"$D/plain"
if [ $st = 0 ] && [ "$(stamps <"$D/colon" | wc -l)" -gt 0 ] && cmp -s "$D/colon" "$D/slash" &&
	cmp -s "$D/colon" "$D/plain"; then
	pass "sched:sched_switch: prints what sched/sched_switch: and sched_switch: print"
else
	fail "sched:sched_switch: prints what sched/sched_switch: prints" "exit $st: $(head -2 "$D/e")"
fi
"$FTC" report -F 'sched:sched_switch,sched:sched_wakeup: common_pid >= 0' "$F" | stamps >"$D/a"
"$FTC" report -F 'sched/sched_switch,sched/sched_wakeup: common_pid >= 0' "$F" | stamps >"$D/b"
[ -s "$D/a" ] && cmp -s "$D/a" "$D/b" && pass "a list of SYSTEM:EVENT names" ||
	fail "a list of SYSTEM:EVENT names" "$(wc -l <"$D/a") and $(wc -l <"$D/b") records"

# stream --match: a half-typed filter is refused before tracefs is touched.
S=$(test_instance fstream)
"$FTC" stream -q -B "$S" --match 'sched_switch: prev_pid == 0 &&' -- true >"$D/o" 2>"$D/e"
st=$?
[ $st = 2 ] && grep -qxF '  sched_switch: prev_pid == 0 &&' "$D/e" && [ ! -d "$TRACEFS/instances/$S" ] &&
	pass "stream --match: a half-typed filter exits 2 with a caret, no instance made" ||
	fail "stream --match: a half-typed filter" "exit $st: $(head -3 "$D/e")"
[ -d "$TRACEFS/instances/$S" ] && "$FTC" reset -q -B "$S" -d >/dev/null 2>&1
# Kernel filters (start, record, stream, hist -f): the syntax is checked
# before tracefs is touched; the kernel took 'prev_pid == 0 &&' and then
# matched nothing.
K=$(test_instance kfilter)
for c in "start -B $K -e sched:sched_switch" "record -B $K -o $D/k.dat -e sched:sched_switch" \
	"stream -q -B $K -e sched:sched_switch" "hist -B $K -e sched:sched_switch --key prev_pid"; do
	for f in 'prev_pid == 0 &&' '(prev_pid == 0' 'prev_pid 0' 'prev_pid == 0 next_pid == 1'; do
		# shellcheck disable=SC2086
		if [ "${c%% *}" = start ]; then
			timeout 30 "$FTC" $c -f "$f" >"$D/o" 2>"$D/e"
		else
			timeout 30 "$FTC" $c -f "$f" -- true >"$D/o" 2>"$D/e"
		fi
		st=$?
		if [ $st = 2 ] && grep -qxF "  $f" "$D/e" && grep -qx '  *\^' "$D/e" && [ ! -d "$TRACEFS/instances/$K" ]; then
			pass "${c%% *} -f '$f': exit 2 with a caret, tracefs untouched"
		else
			fail "${c%% *} -f '$f': exit 2 with a caret, tracefs untouched" "exit $st: $(head -3 "$D/e")"
		fi
		[ -d "$TRACEFS/instances/$K" ] && "$FTC" reset -q -B "$K" -d >/dev/null 2>&1
	done
done
for f in 'prev_pid == 1 && next_prio < 100' '!(prev_comm ~ "ba*" || prev_pid == -1)' 'prev_state & 2'; do
	"$FTC" start -q -B "$K" -e sched:sched_switch -f "$f" >"$D/o" 2>"$D/e"
	st=$?
	got=$(cat "$TRACEFS/instances/$K/events/sched/sched_switch/filter" 2>/dev/null)
	[ $st = 0 ] && [ "$got" != none ] && [ -n "$got" ] && pass "start -f '$f' is written (the kernel shows '$got')" ||
		fail "start -f '$f' is written" "exit $st, filter '$got': $(head -3 "$D/e")"
	"$FTC" reset -q -B "$K" -d >/dev/null 2>&1
done
knobs_unchanged "report -F and stream --match"
finish
