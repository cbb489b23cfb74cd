# SPDX-License-Identifier: GPL-2.0-or-later
# A kernel developer configures tracing with ftc start in a private
# instance and checks, file by file, that the kernel took what was asked;
# then stops, restarts, clears and resets it, leaving tracefs as found.
. "$(dirname "$0")/../lib.sh"


I=$(test_instance start)
D=$TRACEFS/instances/$I
rd() { cat "$D/$1" 2>&1; }
cleanup() {
	for i in "$I" "${P:-}"; do
		[ -n "$i" ] && [ -d "$TRACEFS/instances/$i" ] && "$FTC" reset -q -B "$i" -d >/dev/null 2>&1
	done
}
trap cleanup EXIT

knobs_save
expect_status "start with events, globs, filters, triggers, buffers, options, pids" 0 \
	"$FTC" start -B "$I" \
	-e sched:sched_switch -f 'prev_comm == "sleep"' -R 'traceoff:3 if next_pid == 999999' \
	-e '*:sched_process_exit' -R stacktrace \
	-e 'sched:sched_wak*' -e irq:softirq_entry -f 'vec == 1' \
	-C global -b 300 --subbuf-size 8 -M 1 -O noirq-info -O sym-offset -T
out=$(cat "$OUT/last.out")
expect_match "start reports the instance it created" "^instance $I: created" "$out"
expect_match "start reports each knob it set" "instances/$I/trace_clock = global" "$out"

ev=$(rd set_event)
expect_match "set_event has sched:sched_switch" '^sched:sched_switch$' "$ev"
expect_match "'*:sched_process_exit' enabled sched_process_exit" '^sched:sched_process_exit$' "$ev"
expect_match "'sched:sched_wak*' enabled sched_wakeup" '^sched:sched_wakeup$' "$ev"
expect_match "'sched:sched_wak*' enabled sched_waking" '^sched:sched_waking$' "$ev"
expect_nomatch "the glob did not enable sched_migrate_task" 'sched_migrate_task' "$ev"
expect_match "softirq_entry enabled" '^irq:softirq_entry$' "$ev"
expect_match "event filter reads back" '^prev_comm == "sleep"$' "$(rd events/sched/sched_switch/filter)"
expect_match "second event's filter reads back" '^vec == 1$' "$(rd events/irq/softirq_entry/filter)"
expect_match "trigger with count and if filter reads back" \
	'^traceoff:count=3 if next_pid == 999999$' "$(rd events/sched/sched_switch/trigger)"
expect_match "stacktrace trigger reads back" '^stacktrace:unlimited$' \
	"$(rd events/sched/sched_process_exit/trigger)"
expect_match "trace_clock is global" '\[global\]' "$(rd trace_clock)"
bs=$(rd buffer_size_kb)
[ "$bs" -ge 300 ] 2>/dev/null && [ "$bs" -lt 330 ] && pass "buffer_size_kb is 300 (rounded: $bs)" ||
	fail "buffer_size_kb is 300" "reads '$bs'"
expect_match "buffer_subbuf_size_kb is 8" '^8$' "$(rd buffer_subbuf_size_kb)"
expect_match "tracing_cpumask is 1" '^0*1$' "$(rd tracing_cpumask)"
expect_match "noirq-info cleared the option" '^0$' "$(rd options/irq-info)"
expect_match "sym-offset set" '^1$' "$(rd options/sym-offset)"
expect_match "-T set options/stacktrace" '^1$' "$(rd options/stacktrace)"
expect_match "tracing_on is 1 after start" '^1$' "$(rd tracing_on)"
expect_match "the top level was not touched by -B" '^local|\[local\]' "$(cat "$TRACEFS/trace_clock")"

# The kernel really filters: only CPU 0 (mask 1), and sched_switch only
# when a sleep goes to sleep (ours, pinned to CPU 0).
for _ in 1 2 3 4 5; do taskset -c 0 sleep 0.02; done
sw=$(rd trace | grep 'sched_switch:' || true)
expect_match "sched_switch was recorded" 'prev_comm=sleep ' "$sw"
expect_nomatch "sched_switch lines all have prev_comm=sleep" 'prev_comm=([^s]|s[^l])' "$sw"
expect_nomatch "only CPU 0 was traced" '\[00[1-9]\]' "$sw"

# PIDs: set_event_pid, and -c (children: options/event-fork), in a second instance
P=$(test_instance pids)
expect_status "start with -P and -c" 0 "$FTC" start -B "$P" -e sched:sched_process_fork \
	-P $$ -P 1 -c
pids=$(cat "$TRACEFS/instances/$P/set_event_pid")
expect_match "set_event_pid has our PID" "^$$\$" "$pids"
expect_match "set_event_pid has PID 1" '^1$' "$pids"
expect_match "-c set options/event-fork" '^1$' "$(cat "$TRACEFS/instances/$P/options/event-fork")"
expect_nomatch "set_ftrace_pid is not written without a function tracer" 'set_ftrace_pid' "$(cat "$OUT/last.out")"
sh -c 'sleep 0.01'
expect_match "a child of ours was added by event-fork" "^$$\$" "$(cat "$TRACEFS/instances/$P/set_event_pid")"
[ "$(wc -l <"$TRACEFS/instances/$P/set_event_pid")" -gt 2 ] && pass "event-fork added the child's PID" ||
	fail "event-fork added the child's PID" "set_event_pid: $(cat "$TRACEFS/instances/$P/set_event_pid" | tr '\n' ' ')"
setup "reset -B -d the PID instance" "$FTC" reset -q -B "$P" -d

# stop / restart / clear / show: each changes only what it is for.
knobs_save_mid() { instance_knobs "$D" >"$OUT/knobs.mid"; }
only_changed() { # NAME REGEX [must]: every changed line matches REGEX
	instance_knobs "$D" >"$OUT/knobs.mid2"
	d=$(diff "$OUT/knobs.mid" "$OUT/knobs.mid2" | grep '^[<>]' || true)
	if [ -z "$d" ] && [ -n "$3" ]; then fail "$1" "nothing changed"; return; fi
	if printf '%s\n' "$d" | grep -v -E -- "$2" | grep -q .; then
		fail "$1" "$(printf '%s\n' "$d" | grep -v -E -- "$2" | head -5)"
	else pass "$1"; fi
}
knobs_save_mid
expect_status "ftc stop -B exits 0" 0 "$FTC" stop -B "$I"
expect_match "stop: tracing_on 0" '^0$' "$(rd tracing_on)"
only_changed "stop changes only tracing_on" "^[<>] tracing_on=" must
knobs_save_mid
expect_status "ftc restart -B exits 0" 0 "$FTC" restart -B "$I"
expect_match "restart: tracing_on 1" '^1$' "$(rd tracing_on)"
taskset -c 0 sh -c "echo ftc-control-test-marker >'$D/trace_marker'"
"$FTC" stop -B "$I"
expect_match "marker is in the buffer" 'ftc-control-test-marker' "$(rd trace)"
knobs_save_mid
expect_status "ftc clear -B exits 0" 0 "$FTC" clear -B "$I"
expect_nomatch "clear emptied the buffer" 'ftc-control-test-marker' "$(rd trace)"
only_changed "clear changes no setting" '^$' ""
knobs_save_mid
expect_status "ftc show -B prints trace" 0 "$FTC" show -B "$I"
expect_match "show prints the trace header" '^# tracer: nop' "$(cat "$OUT/last.out")"
expect_status "ftc show -B FILE prints a setting" 0 "$FTC" show -B "$I" trace_clock
expect_match "show trace_clock" '\[global\]' "$(cat "$OUT/last.out")"
expect_status "ftc show an event's filter" 0 "$FTC" show -B "$I" events/sched/sched_switch/filter
expect_match "show the filter" '^prev_comm == "sleep"$' "$(cat "$OUT/last.out")"
expect_status "ftc show -c 0 prints CPU 0's buffer" 0 "$FTC" show -B "$I" -c 0
expect_status "ftc show of a missing file exits 3" 3 "$FTC" show -B "$I" no_such_file
only_changed "show changes nothing" '^$' ""

# reset: back to the kernel's defaults, then the instance is removed
expect_status "ftc reset -B exits 0" 0 "$FTC" reset -B "$I"
expect_match "reset lists what it reset" "reset instances/$I/trace_clock" "$(cat "$OUT/last.out")"
# A kernel that refuses function filtering lets no one read or set the
# set_ftrace_* files: reset has nothing to say about each, only one closing
# line naming what it could not check.
if ! cat "$TRACEFS/instances/$I/set_ftrace_filter" >/dev/null 2>&1; then
	expect_nomatch "reset: no line per set_ftrace knob no one can have set" \
		'left as is: .*set_ftrace' "$(cat "$OUT/last.err")"
	expect_match "reset: one closing line names what was not checked" \
		'^ftc reset: not checked, as the kernel lets no one read them .*: set_ftrace_filter, .*in 1 buffer \(' \
		"$(cat "$OUT/last.err")"
	[ "$(grep -c 'set_ftrace' "$OUT/last.err")" = 1 ] &&
		pass "reset: set_ftrace files named on one line only" ||
		fail "reset: set_ftrace files named on one line only" "$(cat "$OUT/last.err")"
else
	skip "reset on a kernel that refuses function filtering" "set_ftrace_filter is readable here"
fi
expect_match "reset: set_event empty" '^$' "$(rd set_event)"
expect_match "reset: filter none" '^none$' "$(rd events/sched/sched_switch/filter)"
expect_nomatch "reset: no triggers left" '^[a-z]' "$(rd events/sched/sched_switch/trigger; rd events/sched/sched_process_exit/trigger)"
expect_match "reset: clock local" '\[local\]' "$(rd trace_clock)"
expect_match "reset: subbuf 4" '^4$' "$(rd buffer_subbuf_size_kb)"
fresh=$(test_instance fresh)
mkdir "$TRACEFS/instances/$fresh"
diffs=""
for f in buffer_size_kb tracing_cpumask tracing_on set_event_pid current_tracer; do
	[ "$(rd $f)" = "$(cat "$TRACEFS/instances/$fresh/$f")" ] || diffs="$diffs $f"
done
for f in "$TRACEFS/instances/$fresh"/options/*; do
	o=${f##*/}
	[ "$(rd options/$o)" = "$(cat "$f")" ] || diffs="$diffs options/$o"
done
rmdir "$TRACEFS/instances/$fresh"
[ -z "$diffs" ] && pass "reset instance equals a fresh instance (sizes, mask, pids, options)" ||
	fail "reset instance equals a fresh instance" "differs in:$diffs"
expect_status "ftc reset -B -d removes the instance" 0 "$FTC" reset -q -B "$I" -d
[ -d "$D" ] && fail "instance removed" "$D still exists" || pass "instance removed"
knobs_unchanged "start/stop/restart/clear/show/reset in an instance"
finish
