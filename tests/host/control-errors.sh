# SPDX-License-Identifier: GPL-2.0-or-later
# A user asks for something the kernel rejects or refuses: ftc says which
# file, which value and why (with the kernel's own error_log entry and its
# caret), exits 1 (rejected value) or 3 (refused or absent feature), and
# leaves tracefs exactly as it found it.
. "$(dirname "$0")/../lib.sh"


I=$(test_instance errors)
trap '[ -d "$TRACEFS/instances/$I" ] && "$FTC" reset -q -B "$I" -d >/dev/null 2>&1' EXIT
knobs_save

expect_status "a rejected event filter exits 1" 1 \
	"$FTC" start -B "$I" -C global -e sched:sched_switch -f 'no_such_field == 1'
err=$(cat "$OUT/last.err")
expect_match "the message names the filter file and the value" \
	"instances/$I/events/sched/sched_switch/filter: cannot write 'no_such_field == 1'" "$err"
expect_match "the kernel's error_log entry is shown" 'Field not found' "$err"
expect_match "with the command line of the entry" 'Command: no_such_field == 1' "$err"
expect_match "and its caret line" '^ +\^$' "$err"
[ -d "$TRACEFS/instances/$I" ] && fail "the instance created for the failed start is removed" "still there" ||
	pass "the instance created for the failed start is removed"

expect_status "a trigger with a bad if-filter exits 1" 1 \
	"$FTC" start -B "$I" -e sched:sched_switch -R 'traceoff:2 if no_field > 3'
expect_match "the trigger's error_log entry is shown" 'Field not found' "$(cat "$OUT/last.err")"
expect_match "the trigger's caret is shown" '^ +\^$' "$(cat "$OUT/last.err")"

# The instance exists before: a failing start restores it, and keeps it.
# The kernel refuses the filter's field at the last step (its syntax passes
# ftc's check, which refuses a malformed filter before any step).
mkdir "$TRACEFS/instances/$I"
before=$(cat "$TRACEFS/instances/$I/trace_clock" "$TRACEFS/instances/$I/buffer_size_kb" \
	"$TRACEFS/instances/$I/set_event" "$TRACEFS/instances/$I/options/irq-info")
expect_status "a failing last step undoes the earlier ones" 1 \
	"$FTC" start -B "$I" -C mono -b 256 -O noirq-info -e sched:sched_wakeup \
	-e sched:sched_switch -f 'no_such_field == 1'
after=$(cat "$TRACEFS/instances/$I/trace_clock" "$TRACEFS/instances/$I/buffer_size_kb" \
	"$TRACEFS/instances/$I/set_event" "$TRACEFS/instances/$I/options/irq-info")
[ "$before" = "$after" ] && pass "clock, buffer size, events and options restored" ||
	fail "clock, buffer size, events and options restored" "before: $before; after: $after"
[ -d "$TRACEFS/instances/$I" ] && pass "an instance that existed is kept" || fail "an instance that existed is kept" "removed"
expect_status "a glob takes the events that have the filter's fields" 0 \
	"$FTC" start -B "$I" -e 'sched:sched_w*' -f 'pid == 1'
ev=$(cat "$TRACEFS/instances/$I/set_event")
expect_match "sched_wakeup (has pid) enabled" '^sched:sched_wakeup$' "$ev"
expect_nomatch "sched_wake_idle_without_ipi (no pid field) not enabled" 'idle_without_ipi' "$ev"
"$FTC" reset -q -B "$I" 2>/dev/null

# Refused and absent features: exit 3, with the file and the reason
expect_status "-p function exits 3 here" 3 "$FTC" start -B "$I" -p function
err=$(cat "$OUT/last.err")
expect_match "names current_tracer and the kernel's reason" \
	"current_tracer: cannot write 'function': Operation not permitted" "$err"
expect_match "says the kernel refuses function tracers and what to run" \
	'refuses the function tracers.*ftc check' "$err"
expect_status "-p function_graph (absent here) exits 3" 3 "$FTC" start -B "$I" -p function_graph
expect_match "absent tracer named with the available ones" "function_graph'.*absent" "$(cat "$OUT/last.err")"
expect_status "-l vfs_read exits 3" 3 "$FTC" start -B "$I" -l vfs_read
expect_match "names set_ftrace_filter and the refusal" \
	'set_ftrace_filter: .*Operation not permitted: this kernel refuses function filtering \(lockdown\?\); run `ftc check`' \
	"$(cat "$OUT/last.err")"
expect_status "--func-trigger exits 3" 3 "$FTC" start -B "$I" --func-trigger vfs_read:traceon:5
expect_status "an event that does not exist exits 3" 3 "$FTC" start -B "$I" -e nosuchsys:nosuchevent
expect_match "and is named" "event 'nosuchsys:nosuchevent': no event matches" "$(cat "$OUT/last.err")"
expect_status "an unknown clock exits 1" 1 "$FTC" start -B "$I" -C sundial
expect_match "the clocks on offer are listed" "'sundial': not a clock.*local" "$(cat "$OUT/last.err")"
expect_status "an unknown option name exits 3" 3 "$FTC" start -B "$I" -O no-such-option
expect_status "-f without -e is a usage error" 2 "$FTC" start -f 'pid == 1'
expect_status "a bad -b is a usage error" 2 "$FTC" start -b lots
expect_status "a malformed --func-trigger is a usage error" 2 "$FTC" start --func-trigger vfs_read
expect_status "a cpumask that is not hex is a usage error" 2 "$FTC" start -M cpu0
expect_status "ftc snapshot exits 3 (no snapshot here)" 3 "$FTC" snapshot -B "$I" -s
expect_match "snapshot: absent, and why" 'snapshot: absent: .*CONFIG_TRACER_SNAPSHOT' "$(cat "$OUT/last.err")"
expect_status "ftc snapshot (print) exits 3" 3 "$FTC" snapshot
expect_status "ftc show -s exits 3" 3 "$FTC" show -s
expect_status "stop on a missing instance exits 3" 3 "$FTC" stop -B "$I-missing"
expect_match "and names it" "instance '$I-missing' does not exist" "$(cat "$OUT/last.err")"
expect_status "reset -d without -B is a usage error" 2 "$FTC" reset -d

# A knob that was not asked for is never written: watch every open for writing.
if command -v strace >/dev/null; then
	# LeakSanitizer cannot run under ptrace; the ASan tier still checks memory errors here.
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -qq -e trace=openat -o "$OUT/control-strace.txt" \
		"$FTC" start -B "$I" -e sched:sched_switch -C global >/dev/null 2>&1
	w=$(grep -E 'O_WRONLY|O_RDWR' "$OUT/control-strace.txt" | grep -o '"[^"]*"' | sort -u)
	expect_nomatch "start never opens ftrace_enabled" 'ftrace_enabled' "$w"
	expect_nomatch "start writes nothing outside its instance" \
		"^\"$TRACEFS/[^i]|^\"/proc" "$w"
	expect_nomatch "start writes no set_ftrace_* file it was not asked for" 'set_ftrace' "$w"
	"$FTC" reset -q -B "$I" -d 2>/dev/null
else
	skip "start never opens ftrace_enabled" "strace is not installed"
fi
rmdir "$TRACEFS/instances/$I" 2>/dev/null
# An empty clock or tracer once looped forever in the word matcher: it
# hung, ignored SIGTERM and left the instance behind.
expect_status "an empty clock is a usage error, at once" 2 timeout -s KILL 5 "$FTC" start -B "$I" -C ''
expect_match "the message names -C" "ftc start: -C '': the CLOCK cannot be empty" "$(cat "$OUT/last.err")"
expect_status "an empty tracer is a usage error, at once" 2 timeout -s KILL 5 "$FTC" record -B "$I" -p '' -- true
[ -d "$TRACEFS/instances/$I" ] && fail "no instance is left by an empty value" "still there" ||
	pass "no instance is left by an empty value"

knobs_unchanged "rejected and refused requests"
finish
