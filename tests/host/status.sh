# SPDX-License-Identifier: GPL-2.0-or-later
# A user looks at the live tracing state of an instance they configured by
# hand (events, a filter, triggers with counts and filters, options, clock,
# pid filter, buffer sizes) and of the top level; nothing is changed.
. "$(dirname "$0")/../lib.sh"
OUT=$OUT/status.$$; mkdir -p "$OUT"; trap 'rm -rf "$OUT"' EXIT

inst=$(test_instance status)
I=$TRACEFS/instances/$inst
mkdir "$I" || { fail "make a test instance" "mkdir failed"; finish; }
cleanup_instance() {
	echo '!traceoff:0' >>"$I/events/sched/sched_wakeup/trigger" 2>/dev/null
	echo '!stacktrace' >>"$I/events/sched/sched_wakeup/trigger" 2>/dev/null
	echo 0 >"$I/events/enable" 2>/dev/null
	rmdir "$I" 2>/dev/null
}
trap 'cleanup_instance; rm -rf "$OUT"' EXIT
echo 0 >"$I/tracing_on"
echo 1 >"$I/events/sched/sched_switch/enable"
echo 'prev_pid == 1' >"$I/events/sched/sched_switch/filter"
echo 'traceoff:3 if pid == 1' >>"$I/events/sched/sched_wakeup/trigger"
echo 'stacktrace' >>"$I/events/sched/sched_wakeup/trigger"
echo 1 >"$I/options/sym-offset"
echo global >"$I/trace_clock"
echo $$ >"$I/set_event_pid"
echo 512 >"$I/per_cpu/cpu0/buffer_size_kb"
snap_instance() { for f in tracing_on trace_clock set_event_pid buffer_size_kb per_cpu/cpu0/buffer_size_kb \
	options/sym-offset events/sched/sched_switch/enable events/sched/sched_switch/filter \
	events/sched/sched_wakeup/trigger; do echo "$f=$(cat "$I/$f")"; done; }
snap_instance >"$OUT/inst.before"
knobs_save

"$FTC" status -B "$inst" >"$OUT/st" 2>"$OUT/st.err"; rc=$?
st=$(cat "$OUT/st")
[ $rc = 0 ] && pass "status -B exits 0" || fail "status -B exits 0" "exited $rc: $(cat "$OUT/st.err")"
expect_match "the block names the instance" "^# instance $inst\$" "$st"
expect_match "tracer" '^current_tracer nop$' "$st"
expect_match "tracing_on" '^tracing_on 0$' "$st"
expect_match "the current clock" '^trace_clock global$' "$st"
expect_match "the enabled event" '^events/sched/sched_switch/enable 1$' "$st"
expect_match "its filter" '^events/sched/sched_switch/filter prev_pid == 1$' "$st"
expect_match "a trigger with a count and a filter" \
	'^events/sched/sched_wakeup/trigger traceoff:count=3 if pid == 1|^events/sched/sched_wakeup/trigger traceoff:3 if pid == 1' "$st"
expect_match "a second trigger on its own line" '^events/sched/sched_wakeup/trigger stacktrace:unlimited$' "$st"
expect_match "the soft-enabled event its triggers hold" '^events/sched/sched_wakeup/enable 0\*$' "$st"
expect_nomatch "events left at their defaults are not shown" '^events/irq/' "$st"
expect_match "the option that differs from the default" '^options/sym-offset 1$' "$st"
expect_nomatch "options at their default are not shown" '^options/print-parent ' "$st"
expect_match "the pid filter" "^set_event_pid $$\$" "$st"
# The kernel rounds sizes to whole pages: what the file says is the truth.
expect_match "CPU 0's own buffer size" "^per_cpu/cpu0/buffer_size_kb $(cat "$I/per_cpu/cpu0/buffer_size_kb")\$" "$st"
expect_match "buffer_size_kb says X when CPUs differ" '^buffer_size_kb X$' "$st"
expect_match "the subbuffer size" '^buffer_subbuf_size_kb [0-9]+$' "$st"
expect_nomatch "the top level's sysctls are not an instance's" '^/proc/sys' "$st"

# Files the kernel refuses are shown as refused, not fatal.
if cat "$TRACEFS/set_ftrace_filter" >/dev/null 2>&1; then
	skip "a refused set_ftrace_filter is shown as refused" "this kernel lets set_ftrace_filter be read"
else
	expect_match "a refused set_ftrace_filter is shown as refused" \
		'^set_ftrace_filter refused \(Operation not permitted\)$' "$st"
fi

# The top level, and everything.
"$FTC" status >"$OUT/top"; rc=$?
top=$(cat "$OUT/top")
[ $rc = 0 ] && pass "status exits 0" || fail "status exits 0" "exited $rc"
expect_match "the top level's block" '^# top level$' "$top"
expect_match "the top level's tracer, as the file says" "^current_tracer $(cat "$TRACEFS/current_tracer")\$" "$top"
expect_match "the ftrace_dump_on_oops sysctl" \
	"^/proc/sys/kernel/ftrace_dump_on_oops $(cat /proc/sys/kernel/ftrace_dump_on_oops)\$" "$top"
expect_match "the instances by name" "^instances .*$inst" "$top"
expect_nomatch "without -a, no instance block" "^# instance " "$top"
"$FTC" status -a >"$OUT/all"
expect_match "-a adds each instance's block" "^# instance $inst\$" "$(cat "$OUT/all")"
expect_status "-B of a missing instance exits 3, as stop and show" 3 "$FTC" status -B "no-such-$$"
expect_status "an extra argument exits 2" 2 "$FTC" status extra

knobs_unchanged "ftc status"
snap_instance >"$OUT/inst.after"
d=$(diff "$OUT/inst.before" "$OUT/inst.after") && pass "the instance's settings are left" ||
	fail "the instance's settings are left" "$d"
finish
