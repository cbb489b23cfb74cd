# SPDX-License-Identifier: GPL-2.0-or-later
# A user asks what this kernel allows before tracing: ftc check prints one
# line per capability, discovers the host's refusals by itself, and leaves
# tracefs exactly as it found it.
. "$(dirname "$0")/../lib.sh"
# Private files: other developers' tests run at the same time.
OUT=$OUT/check.$$; mkdir -p "$OUT"; trap 'rm -rf "$OUT"' EXIT

# The host VM's answers, from ../shared/docs/kernels.md section 1 (Linux 6.18):
# works: events, filters, triggers traceon/traceoff/stacktrace/enable_event/
# disable_event, instances, trace_clock, buffer_subbuf_size_kb, trace_marker,
# set_event_pid, /proc/kallsyms, trace_pipe_raw, uprobe_events, perf software
# events and tracepoints. Refused: the function tracer (EPERM),
# set_ftrace_filter & friends and available_filter_functions (EPERM), eprobes,
# ftrace_enabled and ftrace_dump_on_oops writes. Absent: function_graph (and so
# set_graph_function), the snapshot file (and the snapshot trigger), kprobe_events,
# hist triggers, a hardware PMU.
expected_host_table() {
	cat <<'EOF'
tracefs ok
instances ok
events ok
event-filter ok
trigger-traceon ok
trigger-traceoff ok
trigger-stacktrace ok
trigger-snapshot absent
trigger-enable_event ok
trigger-disable_event ok
trigger-hist absent
function refused
function_graph absent
set_ftrace_filter refused
set_ftrace_notrace refused
set_ftrace_pid refused
available_filter_functions refused
set_graph_function absent
function-triggers refused
snapshot absent
kprobes absent
uprobes ok
dynamic_events ok
eprobes refused
trace_clock ok
buffer_subbuf_size_kb ok
trace_pipe_raw ok
trace_marker ok
set_event_pid ok
ftrace_enabled-write refused
ftrace_dump_on_oops-write refused
kallsyms ok
perf-software ok
perf-hardware absent
perf-tracepoint ok
fprobes absent
mmap-ring-buffer ok
persistent-buffer absent
timerlat absent
osnoise absent
EOF
}

knobs_save
dyn_before=$(cat "$TRACEFS/dynamic_events")
# In the background only to learn its pid, which names its private instance.
"$FTC" check >"$OUT/check.out" 2>"$OUT/check.err" &
pid=$!
wait $pid; rc=$?
out=$(cat "$OUT/check.out")
[ $rc = 0 ] && pass "ftc check exits 0 when tracefs works" ||
	fail "ftc check exits 0 when tracefs works" "exited $rc: $(tail -3 "$OUT/check.err")"
knobs_unchanged "ftc check"
expect_match "it used a private instance named by its pid" "instances/ftc-probe-$pid " "$out"
[ ! -e "$TRACEFS/instances/ftc-probe-$pid" ] && pass "the private instance is removed" ||
	fail "the private instance is removed" "instances/ftc-probe-$pid is left"
[ "$(cat "$TRACEFS/dynamic_events")" = "$dyn_before" ] &&
	pass "dynamic_events as found" || fail "dynamic_events as found" "$(cat "$TRACEFS/dynamic_events")"

n=$(printf '%s\n' "$out" | grep -c .)
[ "$n" = 40 ] && pass "one line per capability (40)" || fail "one line per capability (40)" "got $n lines"
bad=$(printf '%s\n' "$out" | awk '$2 != "ok" && $2 != "refused" && $2 != "absent"')
[ -z "$bad" ] && pass "every state is ok, refused or absent" || fail "every state is ok, refused or absent" "$bad"
nowhy=$(printf '%s\n' "$out" | awk 'NF < 3')
[ -z "$nowhy" ] && pass "every line says why" || fail "every line says why" "$nowhy"

# The exact table of the documented host kernel.
if [ "$(uname -r | cut -d. -f1,2)" = 6.18 ]; then
	got=$(printf '%s\n' "$out" | awk '{print $1, $2}')
	if d=$(diff <(expected_host_table) <(printf '%s\n' "$got")); then
		pass "the host's capabilities are exactly kernels.md section 1's"
	else
		fail "the host's capabilities are exactly kernels.md section 1's" "$d"
	fi
else
	skip "the host's capabilities are exactly kernels.md section 1's" \
		"this is Linux $(uname -r), not the documented 6.18 host VM"
fi

# The reasons name the file and the kernel's error.
line() { printf '%s\n' "$out" | awk -v n="$1" '$1 == n'; }
expect_match "function's refusal names current_tracer and the errno" \
	"current_tracer.*Operation not permitted" "$(line function)"
expect_match "set_ftrace_filter's refusal names the file" \
	"set_ftrace_filter.*(Operation not permitted|Permission denied)" "$(line set_ftrace_filter)"
expect_match "ftrace_enabled's refusal names the sysctl" \
	"/proc/sys/kernel/ftrace_enabled" "$(line ftrace_enabled-write)"
expect_match "a missing hardware PMU is said as such" "no hardware PMU" "$(line perf-hardware)"
expect_match "snapshot's absence names the file" "snapshot" "$(line snapshot)"

# The probe's answers agree with what the kernel does when asked directly.
inst=$(test_instance check)
mkdir "$TRACEFS/instances/$inst"
if echo function >"$TRACEFS/instances/$inst/current_tracer" 2>/dev/null; then
	echo nop >"$TRACEFS/instances/$inst/current_tracer"; direct=ok
else
	direct=refused
fi
grep -qw function "$TRACEFS/available_tracers" || direct=absent
expect_match "function agrees with a direct write ($direct)" "^function +$direct " "$out"
if cat "$TRACEFS/set_ftrace_filter" >/dev/null 2>&1; then direct=ok; else direct=refused; fi
[ -e "$TRACEFS/set_ftrace_filter" ] || direct=absent
expect_match "set_ftrace_filter agrees with a direct read ($direct)" "^set_ftrace_filter +$direct " "$out"
if grep -qw hist "$TRACEFS/instances/$inst/events/sched/sched_switch/trigger"; then direct=ok; else direct=absent; fi
expect_match "trigger-hist agrees with the trigger file ($direct)" "^trigger-hist +$direct " "$out"

# -B reads an instance; its own settings are kept.
echo global >"$TRACEFS/instances/$inst/trace_clock"
before=$(cat "$TRACEFS/instances/$inst/trace_clock" "$TRACEFS/instances/$inst/current_tracer")
expect_status "ftc check -B INSTANCE exits 0" 0 "$FTC" check -B "$inst"
expect_match "-B reads the instance's files" "^tracefs +ok .*instances/$inst/tracing_on" "$(cat "$OUT/last.out")"
after=$(cat "$TRACEFS/instances/$inst/trace_clock" "$TRACEFS/instances/$inst/current_tracer")
[ "$before" = "$after" ] && pass "-B leaves the instance's clock and tracer" ||
	fail "-B leaves the instance's clock and tracer" "$before -> $after"
rmdir "$TRACEFS/instances/$inst"
expect_status "-B of a missing instance exits 3 (as stop and show)" 3 "$FTC" check -B "$inst"
expect_match "-B of a missing instance says so" "no instance '$inst'" "$(cat "$OUT/last.err")"

# Scripting: -q, -c, --json.
expect_status "-q exits 0" 0 "$FTC" check -q
[ -s "$OUT/last.out" ] && fail "-q prints nothing" "$(head -2 "$OUT/last.out")" || pass "-q prints nothing"
state() { line "$1" | awk '{print $2}'; }
want=0; [ "$(state events)" = ok ] || want=3
expect_status "check events exits $want" $want "$FTC" check events
expect_match "-c prints only that capability" "^events " "$(cat "$OUT/last.out")"
want=0; [ "$(state function)" = ok ] || want=3
expect_status "-c function -c events exits $want (function is $(state function))" $want \
	"$FTC" check function --capability events
expect_status "an unknown capability exits 2" 2 "$FTC" check no-such-cap
expect_match "the unknown name is named" "no-such-cap" "$(cat "$OUT/last.err")"
expect_status "an extra argument exits 2" 2 "$FTC" check extra
expect_status "--json exits 0" 0 "$FTC" check --json
if command -v python3 >/dev/null; then
	n=$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d), d[0]["name"], d[0]["state"])' \
		<"$OUT/last.out" 2>&1)
	[ "$n" = "40 tracefs ok" ] && pass "--json is valid JSON with every capability" ||
		fail "--json is valid JSON with every capability" "$n"
else
	skip "--json is valid JSON with every capability" "no python3 to parse it"
fi
# Interrupted at various points, it still removes its private instance.
left=""
for delay in 0.01 0.03 0.06 0.1; do
	"$FTC" check >/dev/null 2>&1 &
	pid=$!
	sleep $delay; kill -INT $pid 2>/dev/null; wait $pid
	[ -e "$TRACEFS/instances/ftc-probe-$pid" ] && left="$left ftc-probe-$pid"
	grep -q "ftc_probe_$pid" "$TRACEFS/dynamic_events" && left="$left eprobe-$pid"
done
[ -z "$left" ] && pass "SIGINT during ftc check leaves no private instance or eprobe" ||
	fail "SIGINT during ftc check leaves no private instance or eprobe" "left:$left"

# The trigger probes leave the private instance tracing: a traceoff trigger
# fired by sched_switch once turned it off, and trace_marker's probe after it
# was refused (EBADF). ftc check shares a CPU with two busy loops here, so
# that it is switched out between its writes (7 runs of 20 failed so).
taskset -c 0 sh -c 'while :; do :; done' & b1=$!
taskset -c 0 sh -c 'while :; do :; done' & b2=$!
bad=0
for _ in $(seq 20); do
	taskset -c 0 "$FTC" check 2>/dev/null | grep -q '^trace_marker *ok' || bad=$((bad + 1))
done
kill $b1 $b2; wait $b1 $b2 2>/dev/null
[ $bad = 0 ] && pass "trace_marker is ok in 20 runs of ftc check beside busy loops" ||
	fail "trace_marker is ok in 20 runs of ftc check beside busy loops" "refused in $bad"

# A capture running beside ftc check is not disturbed: its instance's knobs
# stay as they were and every marker written before, during and after the
# probes is in its file.
inst=$(test_instance beside)
knobs_of() { (cd "$TRACEFS/instances/$inst" && grep -r . tracing_on current_tracer trace_clock \
	buffer_size_kb set_event_pid events/sched/sched_switch/enable events/sched/sched_switch/filter \
	events/sched/sched_switch/trigger 2>/dev/null); }
"$FTC" record -B "$inst" -e sched:sched_switch -o "$OUT/beside.dat" >"$OUT/beside.log" 2>&1 &
rpid=$!
for _ in $(seq 100); do
	[ "$(cat "$TRACEFS/instances/$inst/events/sched/sched_switch/enable" 2>/dev/null)" = 1 ] &&
		[ "$(cat "$TRACEFS/instances/$inst/tracing_on" 2>/dev/null)" = 1 ] && break
	sleep 0.05
done
before=$(knobs_of)
for i in $(seq 20); do echo "beside-mark-$i" >"$TRACEFS/instances/$inst/trace_marker"; done
"$FTC" check >/dev/null 2>&1 &
cpid=$!
i=20
while kill -0 $cpid 2>/dev/null; do
	i=$((i + 1)); echo "beside-mark-$i" >"$TRACEFS/instances/$inst/trace_marker"; sleep 0.01
done
wait $cpid
for _ in $(seq 20); do i=$((i + 1)); echo "beside-mark-$i" >"$TRACEFS/instances/$inst/trace_marker"; done
after=$(knobs_of)
[ -n "$before" ] && [ "$before" = "$after" ] && pass "ftc check leaves a running capture's instance as it was" ||
	fail "ftc check leaves a running capture's instance as it was" "before: $(echo $before) after: $(echo $after)"
kill -INT $rpid; wait $rpid
got=$("$FTC" report "$OUT/beside.dat" 2>/dev/null | grep -c 'beside-mark-')
[ "$got" = "$i" ] && pass "a capture beside ftc check keeps all $i markers written around it" ||
	fail "a capture beside ftc check keeps all $i markers written around it" "found $got"
knobs_unchanged "ftc check -q, -c, --json, -B, SIGINT"
finish
