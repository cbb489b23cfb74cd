# SPDX-License-Identifier: GPL-2.0-or-later
# A developer traces the scheduler in one instance and a syscall in
# another, in one run: `ftc record -B a -e ... -B b -e ...` must capture
# both instances into one file (one buffer each, named after it), keep each
# event under its own instance, report per-instance figures, and leave
# tracefs as found. ftc start / extract take several -B the same way, and
# a mistake in any section leaves nothing applied.
. "$(dirname "$0")/../lib.sh"

A=$(test_instance a)
B=$(test_instance b)
C=$(test_instance c)
D=$(mktemp -d /tmp/ftc-rec-inst.XXXXXX)
cleanup() {
	[ -n "${READER:-}" ] && kill "$READER" 2>/dev/null
	for i in "$A" "$B" "$C"; do
		[ -d "$TRACEFS/instances/$i" ] && "$FTC" reset -q -B "$i" -d >/dev/null 2>&1
	done
	rm -rf "$D"
}
trap cleanup EXIT
N=500
WORK="import os, time; [os.getppid() for _ in range($N)]; time.sleep(0.01)"

# count FILE PREFIX EVENT: report lines of buffer PREFIX with EVENT.
count() { "$FTC" report "$1" 2>/dev/null | grep -c "^ *$2: .* $3: " || true; }

knobs_save

# 1. Two sections, each with its own event, following the command.
"$FTC" record -F -B "$A" -e sched:sched_switch -B "$B" -e syscalls:sys_enter_getppid \
	-o "$D/two.dat" -- python3 -c "$WORK" 2>"$D/err"
rc=$?
[ $rc = 0 ] && pass "record -B a -e X -B b -e Y exits 0" ||
	fail "record -B a -e X -B b -e Y exits 0" "exit $rc: $(tail -3 "$D/err")"
err=$(cat "$D/err")
expect_match "the summary has a line for instance a" "^ftc record: instance $A: [0-9]+ events, 0 lost" "$err"
expect_match "the summary has a line for instance b" "^ftc record: instance $B: [0-9]+ events, 0 lost" "$err"
expect_match "the total line names each instance's CPUs" \
	"^ftc record: [0-9]+ events, 0 lost \(per CPU: $A [0-9/]+, $B [0-9/]+\)" "$err"
a_sw=$(count "$D/two.dat" "$A" sched_switch)
a_gp=$(count "$D/two.dat" "$A" sys_enter_getppid)
b_sw=$(count "$D/two.dat" "$B" sched_switch)
b_gp=$(count "$D/two.dat" "$B" sys_enter_getppid)
[ "$a_sw" -gt 0 ] && [ "$a_gp" = 0 ] && pass "instance a holds sched_switch only ($a_sw)" ||
	fail "instance a holds sched_switch only" "sched_switch $a_sw, getppid $a_gp"
[ "$b_gp" -ge $N ] && [ "$b_sw" = 0 ] && pass "instance b holds the $N+ getppid calls only ($b_gp)" ||
	fail "instance b holds the getppid calls only" "getppid $b_gp (want >= $N), sched_switch $b_sw"
said_a=$(sed -n "s/^ftc record: instance $A: \([0-9]*\) events.*/\1/p" "$D/err")
said_b=$(sed -n "s/^ftc record: instance $B: \([0-9]*\) events.*/\1/p" "$D/err")
[ "$said_a" = "$a_sw" ] && [ "$said_b" = "$b_gp" ] &&
	pass "per-instance summary counts are what the file holds ($said_a, $said_b)" ||
	fail "per-instance summary counts are what the file holds" "said $said_a/$said_b, read $a_sw/$b_gp"
others=$("$FTC" report "$D/two.dat" 2>/dev/null | grep -v '^#' | grep -vc -e "^ *$A: " -e "^ *$B: " || true)
[ "$others" = 0 ] && pass "every record is prefixed by its instance name" ||
	fail "every record is prefixed by its instance name" "$others records without the prefix"
# -F: the pid filter reaches both instances (the command's other events are
# not there: no sched_switch between two tasks that are not it).
pids=$("$FTC" report "$D/two.dat" 2>/dev/null | grep " sys_enter_getppid: " | awk '{print $2}' | sed 's/.*-//' | sort -u)
[ "$(echo "$pids" | wc -l)" = 1 ] && pass "-F filtered instance b too (getppid of one pid, $pids)" ||
	fail "-F filtered instance b too" "getppid of pids $(echo $pids)"
[ ! -d "$TRACEFS/instances/$A" ] && [ ! -d "$TRACEFS/instances/$B" ] &&
	pass "both instances ftc created are removed" || fail "both instances ftc created are removed" \
	"$(ls "$TRACEFS/instances" | grep -e "$A" -e "$B")"
knobs_unchanged "record with two instances"

# 2. Options before the first -B belong to it; -F skips a section without
# events; a section's -P stays in it. The command reads the knobs live.
"$FTC" record -q -e sched:sched_process_exec -B "$A" -B "$C" -b 64 -F -o "$D/pre.dat" -- \
	sh -c "cat $TRACEFS/instances/$A/set_event $TRACEFS/instances/$A/set_event_pid \
		$TRACEFS/instances/$C/buffer_size_kb; echo pid-c=\$(cat $TRACEFS/instances/$C/set_event_pid)" \
	>"$D/live" 2>"$D/err"
live=$(cat "$D/live")
expect_match "-e before the first -B went to the first instance" "^sched:sched_process_exec$" "$live"
expect_match "-F set the pid of the instance with events" "^[0-9]+$" "$live"
expect_match "-b after the second -B sized that instance (64, rounded up to pages)" "^(6[4-9]|7[0-9])$" "$live"
expect_match "-F left the instance without events unfiltered" "^pid-c=$" "$live"
knobs_unchanged "record with options before -B"

# 3. Mistakes: the same name twice, a -f without a -e in its own section,
# a bad event in the second section (nothing of the first is left).
expect_status "record: -B NAME twice exits 2" 2 "$FTC" record -B "$A" -e sched:sched_switch -B "$A" -- true
expect_match "the error names the instance given twice" "'$A'.*already given" "$(cat "$OUT/last.err")"
expect_status "start: -B NAME twice exits 2" 2 "$FTC" start -B "$A" -B "$B" -B "$A"
expect_status "extract: -B NAME twice exits 2" 2 "$FTC" extract -B "$A" -B "$A" -o "$D/x.dat"
expect_status "a -f belongs to the -e of its own section" 2 \
	"$FTC" start -B "$A" -e sched:sched_switch -B "$B" -f 'prev_pid == 1'
expect_status "start: a bad event in the second section exits 3" 3 \
	"$FTC" start -B "$A" -e sched:sched_switch -b 128 -B "$B" -e nosuch:nosuch_event
expect_match "the error names the failing section" "instance '$B'.*nosuch:nosuch_event" "$(cat "$OUT/last.err")"
knobs_unchanged "start failing in the second section"
expect_status "record: a bad event in the second section exits 3" 3 \
	"$FTC" record -B "$A" -e sched:sched_switch -B "$B" -e nosuch:nosuch_event -o "$D/bad.dat" -- true
knobs_unchanged "record failing in the second section"

# 4. ftc start with two sections, stop one, extract both into one file.
expect_status "start -B a -e X -B b -e Y" 0 "$FTC" start -q -B "$A" -e sched:sched_switch \
	-B "$B" -e syscalls:sys_enter_getppid
expect_match "a has its event" "^sched:sched_switch$" "$(cat "$TRACEFS/instances/$A/set_event")"
expect_match "b has its event" "^syscalls:sys_enter_getppid$" "$(cat "$TRACEFS/instances/$B/set_event")"
on=$(cat "$TRACEFS/instances/$A/tracing_on" "$TRACEFS/instances/$B/tracing_on" | tr '\n' ' ')
[ "$on" = "1 1 " ] && pass "both instances are tracing" || fail "both instances are tracing" "tracing_on: $on"
python3 -c "$WORK"
expect_status "stop -B a" 0 "$FTC" stop -B "$A"
on=$(cat "$TRACEFS/instances/$A/tracing_on" "$TRACEFS/instances/$B/tracing_on" | tr '\n' ' ')
[ "$on" = "0 1 " ] && pass "stop -B a leaves b tracing" || fail "stop -B a leaves b tracing" "tracing_on: $on"
expect_status "stop -B b" 0 "$FTC" stop -B "$B"
expect_status "extract -B a -B b" 0 "$FTC" extract -B "$A" -B "$B" -o "$D/ext.dat"
expect_match "extract's summary counts each instance" "^ftc extract: instance $B: [1-9][0-9]* pages" "$(cat "$OUT/last.err")"
x_sw=$(count "$D/ext.dat" "$A" sched_switch)
x_gp=$(count "$D/ext.dat" "$B" sys_enter_getppid)
[ "$x_sw" -gt 0 ] && [ "$x_gp" -ge $N ] && pass "the extracted file holds both buffers ($x_sw, $x_gp)" ||
	fail "the extracted file holds both buffers" "sched_switch in a: $x_sw, getppid in b: $x_gp"
expect_status "extract: a missing instance fails (exit 3, as stop and show)" 3 "$FTC" extract -B "$A" -B "$C" -o "$D/miss.dat"
[ ! -e "$D/miss.dat" ] && pass "no file is left for a missing instance" || fail "no file is left for a missing instance" "$D/miss.dat exists"
"$FTC" reset -q -B "$A" -d >/dev/null 2>&1
"$FTC" reset -q -B "$B" -d >/dev/null 2>&1
knobs_unchanged "start, stop, extract and reset of two instances"

# 4b. SIGTERM while start configures the second section: the first is undone too.
FTC_CONTROL_STEP_DELAY_MS=150 "$FTC" start -q -B "$A" -e sched:sched_switch -b 128 \
	-B "$B" -b 128 -C mono -e syscalls:sys_enter_getppid 2>"$D/err" &
ST=$!
for _ in $(seq 100); do [ -d "$TRACEFS/instances/$B" ] && break; sleep 0.05; done
seen=$(cat "$TRACEFS/instances/$A/set_event" 2>/dev/null)
kill -TERM $ST; wait $ST; rc=$?
[ "$seen" = "sched:sched_switch" ] && pass "the first section was applied before the second began" ||
	fail "the first section was applied before the second began" "set_event of a: '$seen'"
[ $rc = 130 ] && pass "start interrupted in the second section exits 130" ||
	fail "start interrupted in the second section exits 130" "exit $rc: $(tail -2 "$D/err")"
knobs_unchanged "start interrupted in the second section"

# 5. Another reader on the second instance: record names it and starts nothing.
mkdir "$TRACEFS/instances/$B"
knobs_save
cat "$TRACEFS/instances/$B/trace_pipe" >/dev/null &
READER=$!
sleep 0.2
expect_status "record refuses when the second instance has a reader" 1 \
	"$FTC" record -B "$A" -e sched:sched_switch -B "$B" -e sched:sched_switch -o "$D/r.dat" -- true
expect_match "the refusal names the instance and the reader" "instance '$B'.*pid $READER" "$(tr '\n' ' ' <"$OUT/last.err")"
kill "$READER"; wait "$READER" 2>/dev/null; READER=
knobs_unchanged "record refused for a reader"
rmdir "$TRACEFS/instances/$B"

# 6. SIGINT while recording two instances system-wide: all put back.
knobs_save
"$FTC" record -q -B "$A" -e sched:sched_switch -B "$B" -e syscalls:sys_enter_getppid -a \
	-o "$D/int.dat" 2>"$D/err" &
REC=$!
# wait until the capture runs: b's tracing_on is the last knob written
for _ in $(seq 100); do [ "$(cat "$TRACEFS/instances/$B/tracing_on" 2>/dev/null)" = 1 ] && break; sleep 0.1; done
sleep 0.3
kill -INT $REC
wait $REC; rc=$?
[ $rc = 0 ] && pass "record -a of two instances ends 0 on SIGINT" || fail "record -a of two instances ends 0 on SIGINT" "exit $rc: $(tail -2 "$D/err")"
[ "$(count "$D/int.dat" "$A" sched_switch)" -gt 0 ] && pass "the interrupted file holds instance a's events" ||
	fail "the interrupted file holds instance a's events" "none"
knobs_unchanged "record of two instances interrupted"

# 7. Sections on different trace clocks: recorded, with a warning naming both.
knobs_save
expect_status "record with a different -C per section exits 0" 0 "$FTC" record -q \
	-B "$A" -e sched:sched_switch -C global -B "$B" -e sched:sched_switch -C mono \
	-o "$D/clk.dat" -- true
expect_match "... and warns that the clocks differ" \
	"warning: instance $B uses trace clock 'mono' but $A uses 'global'" "$(cat "$OUT/last.err")"
expect_status "record with one clock everywhere exits 0" 0 "$FTC" record -q \
	-B "$A" -e sched:sched_switch -B "$B" -e sched:sched_switch -o "$D/clk.dat" -- true
expect_nomatch "... without a clock warning" "trace clock" "$(cat "$OUT/last.err")"
knobs_unchanged "record with mixed clocks"

# 8. A trigger in an instance that was there before: its event is left as
# found. set_event lists an event a trigger alone holds ("0*"); saved with
# that line, the restore enabled it for real once the trigger was gone.
mkdir "$TRACEFS/instances/$C"
expect_status "record with -R stacktrace in an existing instance exits 0" 0 "$FTC" record -q \
	-B "$C" -e sched:sched_switch -R stacktrace -o "$D/trig.dat" -- true
left="set_event=[$(cat "$TRACEFS/instances/$C/set_event")] enable=$(cat "$TRACEFS/instances/$C/events/sched/sched_switch/enable")"
[ "$left" = "set_event=[] enable=0" ] && pass "... and leaves its event disabled, as found" ||
	fail "... and leaves its event disabled, as found" "$left"
rmdir "$TRACEFS/instances/$C"

finish
