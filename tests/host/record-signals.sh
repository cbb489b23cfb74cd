# SPDX-License-Identifier: GPL-2.0-or-later
# A user's capture ends badly: Ctrl-C, SIGTERM, SIGKILL, a full disk,
# another reader on the buffer, a command that does not exist. Each time
# the file must stay readable by trace-cmd and tracefs must be as before.
. "$(dirname "$0")/../lib.sh"

D=$(mktemp -d /tmp/ftc-rec-host.XXXXXX)
cleanup() {
	mountpoint -q "$D/full" 2>/dev/null && umount "$D/full"
	rm -rf "$D"
}
trap cleanup EXIT
knobs_save

have_tc=1
command -v trace-cmd >/dev/null || have_tc=0
# events NAME FILE: the number of events trace-cmd (or, without it, ftc) reads.
events() {
	if [ $have_tc = 1 ]; then trace-cmd report "$1" 2>/dev/null | grep -c ': '
	else "$FTC" report "$1" 2>/dev/null | grep -vc '^#'; fi
}
# marker writes into an instance every 10 ms, until killed.
ticker() {
	i=0; while :; do i=$((i+1)); { echo "tick-$i" > "$TRACEFS/instances/$1/trace_marker"; } 2>/dev/null || exit 0; sleep 0.01; done
}

# Ctrl-C ends a system-wide capture normally: exit 0, file complete.
inst=$(test_instance sigint)
"$FTC" record -B "$inst" -e sched:sched_switch -e sched:sched_process_exec -a -o "$D/int.dat" 2>"$D/err" & pid=$!
sleep 2; ticker "$inst" & tk=$!; sleep 1.5
kill -INT $pid; wait $pid; rc=$?; kill $tk 2>/dev/null; wait $tk 2>/dev/null
[ $rc = 0 ] && pass "SIGINT ends 'record -a' with 0" || fail "SIGINT ends 'record -a' with 0" "exit $rc: $(tail -2 "$D/err")"
n=$(events "$D/int.dat")
[ "$n" -gt 10 ] && pass "after SIGINT the file is readable ($n events)" || fail "after SIGINT the file is readable" "$n events"
expect_match "after SIGINT a summary is printed" "^ftc record: [0-9]+ events, [0-9]+ lost" "$(cat "$D/err")"
[ -d "$TRACEFS/instances/$inst" ] && fail "SIGINT: the instance is removed" "still there" || pass "SIGINT: the instance is removed"

# SIGTERM while a command runs: interrupted (130), file complete.
inst=$(test_instance sigterm)
"$FTC" record -q -B "$inst" -e sched -o "$D/term.dat" -- sleep 30 2>"$D/err" & pid=$!
sleep 2; child=$(pgrep -P $pid); kill -TERM $pid; wait $pid; rc=$?
[ $rc = 130 ] && pass "SIGTERM during a command exits 130" || fail "SIGTERM during a command exits 130" "exit $rc: $(tail -2 "$D/err")"
if [ $have_tc = 1 ]; then
	expect_match "after SIGTERM trace-cmd reads the file" "sched_process_exec" "$(trace-cmd report "$D/term.dat" 2>&1)"
fi
[ -n "$child" ] && kill $child 2>/dev/null

# SIGKILL: nothing can clean up, yet the file holds what was written up
# to the last checkpoint (one per second).
inst=$(test_instance sigkill)
"$FTC" record -q -B "$inst" -e sched -o "$D/kill.dat" -a 2>"$D/err" & pid=$!
# Tracing goes on once the readers run. A new instance starts with tracing
# on, and ftc turns it off while it configures, then writes the file's head,
# then turns it on: only a non-empty file and tracing_on 1 say the capture
# runs (on a busy machine the instance's first 1 came long before).
recording_started "$inst" "$D/kill.dat"
# The marks, then enough filler on the same CPU to complete their chunks,
# then time for a checkpoint.
taskset -c 0 sh -c "for i in \$(seq 1 300); do echo killmark-\$i > $TRACEFS/instances/$inst/trace_marker; done
	for i in \$(seq 1 3000); do echo filler-\$i > $TRACEFS/instances/$inst/trace_marker; done"
sleep 2.5
kill -KILL $pid; wait $pid 2>/dev/null
if [ $have_tc = 1 ]; then
	got=$(trace-cmd report "$D/kill.dat" 2>/dev/null | grep -o 'killmark-[0-9]*' | sed 's/.*-//')
	[ "$got" = "$(seq 1 300)" ] && pass "after SIGKILL trace-cmd reads every completed chunk (300 marks in order)" ||
		fail "after SIGKILL trace-cmd reads every completed chunk" "$(echo "$got" | wc -l) marks"
else
	skip "after SIGKILL trace-cmd reads the file" "trace-cmd is not installed"
fi
# ftc restore finishes it in place: no gaps left, nothing lost.
apparent=$(stat -c %s "$D/kill.dat")
expect_status "ftc restore finishes the killed file" 0 "$FTC" restore "$D/kill.dat"
expect_match "ftc restore says what it did" "kill.dat: finished" "$(cat "$OUT/last.out")"
small=$(stat -c %s "$D/kill.dat")
[ "$small" -lt $((64 << 20)) ] && [ "$small" -lt "$apparent" ] &&
	pass "restore removes the gaps ($apparent -> $small bytes)" ||
	fail "restore removes the gaps" "$apparent -> $small bytes"
if [ $have_tc = 1 ]; then
	got=$(trace-cmd report "$D/kill.dat" 2>/dev/null | grep -o 'killmark-[0-9]*' | sed 's/.*-//')
	[ "$got" = "$(seq 1 300)" ] && pass "after restore trace-cmd still reads the 300 marks in order" ||
		fail "after restore trace-cmd still reads the 300 marks" "$(echo "$got" | wc -l) marks"
fi
expect_status "restore of a finished file changes nothing" 0 "$FTC" restore "$D/kill.dat"
expect_match "restore says it was complete" "complete already" "$(cat "$OUT/last.out")"
expect_status "restore of a non-trace file fails with 1" 1 "$FTC" restore /etc/hostname
expect_match "restore names the bad file" "/etc/hostname: not a trace.dat" "$(cat "$OUT/last.err")"

# What SIGKILL left behind in tracefs, the guardian puts back from the
# journal file (tests/host/journal-guardian.sh checks every knob).
for i in $(seq 1 100); do [ -d "$TRACEFS/instances/$inst" ] || break; sleep 0.1; done
[ -d "$TRACEFS/instances/$inst" ] && fail "after SIGKILL the guardian removes the instance" "still there" ||
	pass "after SIGKILL the guardian removes the instance"
{ echo 0 > "$TRACEFS/instances/$inst/tracing_on"; rmdir "$TRACEFS/instances/$inst"; } 2>/dev/null

# A full disk: a clear error naming the file, a readable file, tracefs restored.
mkdir -p "$D/full"
if mount -t tmpfs -o size=4m ftc-full "$D/full" 2>/dev/null; then
	inst=$(test_instance full)
	# A syscall storm fills 4 MB (the metadata, kallsyms most, takes about 1 MB) in about a second.
	dd if=/dev/zero of=/dev/null bs=1 count=20000000 2>/dev/null & dd_pid=$!
	"$FTC" record -B "$inst" -e syscalls -a --duration 20 -o "$D/full/f.dat" 2>"$D/err"; rc=$?
	kill $dd_pid 2>/dev/null; wait $dd_pid 2>/dev/null
	[ $rc = 1 ] && pass "a full disk stops record with 1" || fail "a full disk stops record with 1" "exit $rc"
	expect_match "a full disk is named with the file" "full/f.dat: .*No space left on device" "$(cat "$D/err")"
	n=$(events "$D/full/f.dat")
	[ "$n" -gt 100 ] && pass "after a full disk the file is readable ($n events)" ||
		fail "after a full disk the file is readable" "$n events"
	[ -d "$TRACEFS/instances/$inst" ] && fail "full disk: the instance is removed" "still there" ||
		pass "full disk: the instance is removed"
	umount "$D/full"
else
	skip "full disk" "cannot mount a tmpfs here"
fi

# Another reader on the buffer is named before anything starts.
inst=$(test_instance reader)
mkdir "$TRACEFS/instances/$inst"
cat "$TRACEFS/instances/$inst/per_cpu/cpu0/trace_pipe_raw" >/dev/null & cat_pid=$!
sleep 0.3
expect_status "another reader of the buffer stops record" 1 "$FTC" record -B "$inst" -e sched -o "$D/r.dat" -- true
expect_match "the other reader is named" "pid $cat_pid \(cat\).*cpu0/trace_pipe_raw" "$(cat "$OUT/last.err")"
kill $cat_pid; wait $cat_pid 2>/dev/null
rmdir "$TRACEFS/instances/$inst"

# A capture longer than two seconds shows a live status line on a terminal.
if command -v script >/dev/null; then
	inst=$(test_instance status)
	script -qc "$FTC record -B $inst -e sched -o $D/st.dat --duration 3.5" "$D/tty" >/dev/null 2>&1
	expect_match "a long capture shows a status line (events/s, MB, lost per CPU)" \
		'[0-9]+s +[0-9]+ events/s +[0-9.]+ MB written +lost per CPU: [0-9]+(/[0-9]+)*' "$(tr '\r' '\n' < "$D/tty")"
else
	skip "status line" "script(1) is not installed to give record a terminal"
fi

# Mistakes.
expect_status "a missing command exits 127, as a shell does" 127 "$FTC" record -B "$(test_instance nocmd)" -o "$D/n.dat" -- /no/such/command
expect_match "the missing command is named" "cannot run '/no/such/command'" "$(cat "$OUT/last.err")"
expect_status "-F without a command is a usage error" 2 "$FTC" record -F -o "$D/n.dat"
expect_status "--file-version 6 with zstd is a usage error" 2 "$FTC" record --file-version 6 --compression zstd -o "$D/n.dat" -- true
expect_status "a bad --compression is a usage error" 2 "$FTC" record --compression lz4 -- true
expect_status "an unwritable output fails with 1" 1 "$FTC" record -B "$(test_instance unw)" -o /proc/no/such/file -- true
expect_match "the unwritable output is named" "/proc/no/such/file" "$(cat "$OUT/last.err")"

# An ordinary capture on this host (where trace-cmd record fails) never
# touches ftrace_enabled or set_ftrace_filter.
inst=$(test_instance plain)
expect_status "record of a command in an instance works here" 0 "$FTC" record -q -B "$inst" -e sched -o "$D/p.dat" -- true

knobs_unchanged "record signals"
finish
