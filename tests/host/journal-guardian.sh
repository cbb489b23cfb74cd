# SPDX-License-Identifier: GPL-2.0-or-later
# A capture killed with SIGKILL cannot restore tracefs itself: its journal
# file and its guardian (ftc-guardian) put every knob back. When the
# guardian is killed too, `ftc status` names the journal left behind and
# `ftc reset --journal` restores it.
. "$(dirname "$0")/../lib.sh"

D=$(mktemp -d /tmp/ftc-journal.XXXXXX)
bg=""
cleanup() {
	for p in $bg; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$D"
}
trap cleanup EXIT
knobs_save

# tracing NAME INST: waits until the buffer of instance INST records, as
# it does once the capture runs (at the top level, which records already,
# until sched_switch is enabled).
tracing() {
	local f=$TRACEFS/events/sched/sched_switch/enable
	[ -n "$2" ] && f=$TRACEFS/instances/$2/tracing_on
	for i in $(seq 1 100); do
		[ "$(cat "$f" 2>/dev/null)" = 1 ] && [ -n "$(guardian "$pid")" ] && return 0
		sleep 0.1
	done
	fail "$1: the capture starts" "$(tail -3 "$D/err")"
	return 1
}
guardian() { pgrep -P "$1" -x ftc-guardian; }
# gone PID: waits (10 s at most) for a process that is not our child to end.
gone() {
	for i in $(seq 1 100); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
	return 1
}

# killed NAME INST JOURNAL_DIR ARGS...: starts ftc ARGS, SIGKILLs ftc alone
# once it traces, and checks that its guardian restores everything.
killed() {
	local name=$1 inst=$2 jdir=$3 g j kids; shift 3
	"$FTC" "$@" 2>"$D/err" & pid=$!
	bg="$bg $pid"
	tracing "$name" "$inst" || { kill -KILL $pid; wait $pid 2>/dev/null; return; }
	g=$(guardian $pid)
	kids=$(pgrep -P $pid | grep -vx "$g")
	j=$jdir/journal.$pid
	[ -s "$j" ] && pass "$name: the journal $j grows while it runs" ||
		fail "$name: the journal $j grows while it runs" "$(ls -l "$jdir" 2>&1)"
	kill -KILL $pid; wait $pid 2>/dev/null
	# the traced command outlives ftc: it must not hold the guardian back
	gone "$g" && pass "$name: the guardian ends after restoring" ||
		fail "$name: the guardian ends after restoring" "pid $g still runs"
	[ -e "$j" ] && fail "$name: the journal is removed" "$j is still there" ||
		pass "$name: the journal is removed"
	expect_match "$name: the guardian says what it did" \
		"ftc-guardian: pid $pid \(ftc $1\) died before restoring tracefs: [0-9]+ changes restored" \
		"$(cat "$D/err")"
	for k in $kids; do kill -KILL "$k" 2>/dev/null; done
}

# record into an instance it creates: the instance goes away again.
inst=$(test_instance rec)
killed "record -B (new instance)" "$inst" /run/ftc record -q -B "$inst" -e sched -e syscalls -a -o "$D/a.dat"
[ -d "$TRACEFS/instances/$inst" ] && fail "record -B: the instance is removed" "still there" ||
	pass "record -B: the instance is removed"
knobs_unchanged "record -B killed"

# An instance that was there before keeps every knob as it was.
export FTC_JOURNAL_DIR=$D/j
inst=$(test_instance old)
mkdir "$TRACEFS/instances/$inst"
echo 1 > "$TRACEFS/instances/$inst/options/stacktrace" 2>/dev/null
instance_knobs "$TRACEFS/instances/$inst" >"$D/old.before"
killed "record -B (existing instance, -C, -b, a filter)" "$inst" "$D/j" record -q -B "$inst" \
	-e sched:sched_switch -f 'prev_pid != 0' -e syscalls:sys_enter_read -C mono -b 2048 -a -o "$D/b.dat"
instance_knobs "$TRACEFS/instances/$inst" >"$D/old.after"
d=$(diff "$D/old.before" "$D/old.after") && pass "record -B: the existing instance is as it was" ||
	fail "record -B: the existing instance is as it was" "$(echo "$d" | head -6)"
rmdir "$TRACEFS/instances/$inst"
knobs_unchanged "record into an existing instance killed"

# A traced command outlives ftc, and must not keep the guardian waiting.
inst=$(test_instance cmd)
killed "record -F -- sleep" "$inst" "$D/j" record -q -B "$inst" -e sched -F -o "$D/c.dat" -- sleep 30
[ -d "$TRACEFS/instances/$inst" ] && fail "record -- CMD: the instance is removed" "still there" ||
	pass "record -- CMD: the instance is removed"
knobs_unchanged "record of a command killed"

# The top level, events only (the buffer size is not touched), when no
# one else reads it.
if "$FTC" record -q -e sched:sched_process_exit -o "$D/probe.dat" -- true 2>"$D/err"; then
	killed "record (top level)" "" "$D/j" record -q -e sched:sched_switch -e sched:sched_wakeup \
		-a -o "$D/t.dat"
	knobs_unchanged "record at the top level killed"
else
	skip "record (top level)" "$(tail -1 "$D/err")"
fi

# Ctrl-C reaches the whole process group: ftc restores, the guardian only
# leaves.
inst=$(test_instance int)
setsid "$FTC" record -q -B "$inst" -e sched -a -o "$D/i.dat" 2>"$D/err" & pid=$!
bg="$bg $pid"
# a new instance traces from its mkdir: the capture runs once the file's
# head is written (else Ctrl-C comes in the set-up: exit 130)
for _ in $(seq 100); do [ -s "$D/i.dat" ] && break; sleep 0.1; done
if tracing "Ctrl-C" "$inst"; then
	g=$(guardian $pid)
	kill -INT -- -$pid; wait $pid; rc=$?
	[ $rc = 0 ] && pass "Ctrl-C to the group: record ends with 0" ||
		fail "Ctrl-C to the group: record ends with 0" "exit $rc: $(tail -2 "$D/err")"
	gone "$g" && pass "Ctrl-C to the group: the guardian leaves too" ||
		fail "Ctrl-C to the group: the guardian leaves too" "pid $g still runs"
	expect_nomatch "Ctrl-C to the group: the guardian had nothing to do" "ftc-guardian" "$(cat "$D/err")"
	[ -e "$D/j/journal.$pid" ] && fail "Ctrl-C: the journal is removed" "still there" ||
		pass "Ctrl-C: the journal is removed"
fi
knobs_unchanged "record ended by Ctrl-C"

# ftc start keeps its changes on purpose: no journal, no guardian is left.
inst=$(test_instance start)
expect_status "ftc start -B" 0 "$FTC" start -q -B "$inst" -e sched:sched_switch
left=$(ls "$D/j"; pgrep -x ftc-guardian -P $$)
[ -z "$left" ] && pass "ftc start leaves no journal and no guardian" ||
	fail "ftc start leaves no journal and no guardian" "$left"
[ "$(cat "$TRACEFS/instances/$inst/events/sched/sched_switch/enable" 2>/dev/null)" = 1 ] &&
	pass "ftc start keeps what it started" || fail "ftc start keeps what it started" "not enabled"
"$FTC" reset -q -B "$inst" -d 2>/dev/null
knobs_unchanged "ftc start, then reset -d"

# ftc start killed half-way (each step slowed down): the instance it was
# configuring is as it was, one it created is gone.
inst=$(test_instance halfstart)
mkdir "$TRACEFS/instances/$inst"
instance_knobs "$TRACEFS/instances/$inst" >"$D/half.before"
for target in "$inst" "$(test_instance newstart)"; do
	FTC_CONTROL_STEP_DELAY_MS=150 "$FTC" start -B "$target" -C mono -b 512 -O noirq-info \
		-e irq:softirq_entry -e sched:sched_waking -e sched:sched_process_exit 2>"$D/err" & pid=$!
	sleep 0.8; g=$(guardian $pid)
	kill -KILL $pid; wait $pid 2>/dev/null
	gone "$g" && pass "start -B $target killed: the guardian ends" ||
		fail "start -B $target killed: the guardian ends" "pid '$g' still runs"
	expect_match "start -B $target killed: the guardian restores" \
		"ftc-guardian: pid $pid \(ftc start\) died before restoring tracefs: [0-9]+ changes" "$(cat "$D/err")"
done
instance_knobs "$TRACEFS/instances/$inst" >"$D/half.after"
d=$(diff "$D/half.before" "$D/half.after") && pass "start killed: the existing instance is as it was" ||
	fail "start killed: the existing instance is as it was" "$(echo "$d" | head -6)"
rmdir "$TRACEFS/instances/$inst"
knobs_unchanged "ftc start killed half-way"

# ftc and its guardian both killed: the journal stays, status names it and
# reset --journal restores it.
inst=$(test_instance orphan)
setsid "$FTC" record -q -B "$inst" -e sched -e syscalls -a -o "$D/o.dat" 2>"$D/err" & pid=$!
bg="$bg $pid"
if tracing "orphan" "$inst"; then
	# the guardian left the group (setsid): it is killed by its pid, first
	kill -KILL "$(guardian $pid)" $pid; wait $pid 2>/dev/null
	sleep 0.2
	[ -d "$TRACEFS/instances/$inst" ] && pass "both killed: the instance is left" ||
		fail "both killed: the instance is left" "nothing was left to restore"
	expect_match "ftc status names the orphaned journal" \
		"^journal $D/j/journal.$pid: owner pid $pid \(ftc record\) is gone; [0-9]+ changes not restored: run 'ftc reset --journal'" \
		"$("$FTC" status -B "$inst" 2>&1)"
	expect_status "ftc reset --journal restores it" 0 "$FTC" reset --journal
	expect_match "ftc reset --journal says what it restored" \
		"^restored [0-9]+ changes of pid $pid \(ftc record\) from $D/j/journal.$pid" "$(cat "$OUT/last.out")"
	[ -e "$D/j/journal.$pid" ] && fail "reset --journal removes the journal" "still there" ||
		pass "reset --journal removes the journal"
	[ -d "$TRACEFS/instances/$inst" ] && fail "reset --journal removes the instance" "still there" ||
		pass "reset --journal removes the instance"
	expect_status "a second reset --journal has nothing to do" 0 "$FTC" reset --journal
	expect_match "and says so" "nothing to restore" "$(cat "$OUT/last.out")"
fi
knobs_unchanged "record and guardian killed, then reset --journal"

# A running owner's journal is shown and left alone.
inst=$(test_instance alive)
"$FTC" record -q -B "$inst" -e sched -a -o "$D/l.dat" 2>"$D/err" & pid=$!
bg="$bg $pid"
if tracing "running owner" "$inst"; then
	expect_match "ftc status shows a running owner's journal" \
		"^journal $D/j/journal.$pid: owner pid $pid \(ftc record\) is running" "$("$FTC" status -B "$inst")"
	expect_status "reset --journal FILE refuses a running owner's journal" 1 \
		"$FTC" reset --journal "$D/j/journal.$pid"
	expect_match "and names the owner" "pid $pid \(ftc record\) still holds the journal" \
		"$(cat "$OUT/last.err")"
	kill -INT $pid; wait $pid
fi
knobs_unchanged "a running owner's journal left alone"

# A journal cut short by a kill in the middle of a line: the torn line is
# not taken; a damaged one is refused with the file and the line.
printf 'ftc-journal 1 999999 1 srecord\nplain - n stracing_on stracing_on s1\nplain - n sbuffer_perc' >"$D/j/journal.999999"
expect_match "a torn last entry is not counted" \
	"journal.999999: owner pid 999999 \(ftc record\) is gone; 1 changes" "$("$FTC" status -B nonexistent 2>&1)"
printf 'ftc-journal 1 999998 1 srecord\nplain - n stracing_on\n' >"$D/j/journal.999998"
rm -f "$D/j/journal.999999"
expect_status "a damaged journal is refused" 1 "$FTC" reset --journal "$D/j/journal.999998"
expect_match "with the file and the line" "journal.999998: line 2 is not a journal entry" "$(cat "$OUT/last.err")"
rm -f "$D/j/journal.999998"
# The instance a dead owner created was removed by hand meanwhile: there is
# nothing left to put back in it, and that is no error.
printf 'ftc-journal 1 999997 1 sstart\ninstance - s%s sinstances sinstances n\nplain - s%s stracing_on stracing_on s1\n' \
	"$(test_instance gone)" "$(test_instance gone)" >"$D/j/journal.999997"
expect_status "a journal whose instance is gone restores cleanly" 0 \
	"$FTC" reset --journal "$D/j/journal.999997"
[ ! -e "$D/j/journal.999997" ] && pass "and is removed" || fail "and is removed" "still there"
unset FTC_JOURNAL_DIR

# stat and profile change no tracefs knob: killed, nothing is left.
for cmd in "stat -e task-clock,sched:sched_switch" "profile"; do
	"$FTC" $cmd -- sleep 5 >/dev/null 2>&1 & pid=$!
	sleep 1; kids=$(pgrep -P $pid)
	kill -KILL $pid; wait $pid 2>/dev/null
	for k in $kids; do kill -KILL "$k" 2>/dev/null; done
done
knobs_unchanged "stat and profile killed"

# check write-tests in a private instance of its own: killed at any point
# of its ~0.3 s, its guardian removes that instance.
for ms in 10 30 50 70 90 120 150 200; do
	"$FTC" check >/dev/null 2>&1 & pid=$!
	sleep "0.$(printf '%03d' $ms)"
	g=$(guardian $pid)
	kill -KILL $pid; wait $pid 2>/dev/null
	[ -z "$g" ] || gone "$g"
done
left=$(ls "$TRACEFS/instances" | grep '^ftc-probe-')
[ -z "$left" ] && pass "check killed at 8 points leaves no private instance" ||
	fail "check killed at 8 points leaves no private instance" "left: $left"
knobs_unchanged "check killed"
finish
