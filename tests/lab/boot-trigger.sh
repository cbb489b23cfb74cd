# SPDX-License-Identifier: GPL-2.0-or-later
# Boot-time triggers proven on a kernel that has them (Debian 12's 6.12;
# the 6.1 guest refuses trace_trigger=, see boot-trace.sh): the guest
# boots with what ftc boot-args prints for two triggers with filters,
#   sched_switch: stacktrace if prev_state == 2 (a stack for each switch
#     out in D state, none for the others),
#   sched_process_exec: traceoff if pid > 1 (tracing stops at the first
#     program the init script starts),
# and ftc extract writes the boot's records: every kernel stack follows a
# switch out of a task in D, there are such stacks, the last exec is the
# only one by a pid past 1, tracing_on reads 0, and trace-cmd reads the
# file the same.
. "$(dirname "$0")/../lib.sh"
export LAB_KERNEL=6.12
. "$(dirname "$0")/lab.bash"

NAME="lab boot-trigger"
if ! ARGS=$("$FTC" boot-args --kernel 6.12 -C local -e sched:sched_switch -R 'stacktrace if prev_state == 2' \
	-e sched:sched_process_exec -R 'traceoff if pid > 1' 2>"$OUT/boot-trigger.err"); then
	fail "$NAME: ftc boot-args" "$(cat "$OUT/boot-trigger.err")"
	finish
fi
expect_match "$NAME: boot-args prints both triggers, with their filters" \
	'trace_trigger="sched_switch\.stacktrace if prev_state == 2,sched_process_exec\.traceoff if pid > 1"' "$ARGS"

LAB_APPEND=$ARGS LAB_TIMEOUT=60 lab_run boot-trigger - <<'EOF' || finish
T=/sys/kernel/tracing
echo "== state"
echo "tracing_on=$(cat $T/tracing_on)"
grep -v '^#' $T/events/sched/sched_switch/trigger
grep -v '^#' $T/events/sched/sched_process_exec/trigger
ftc extract -q -o /tmp/bt.dat
echo "extract=$?"
lab_export /tmp/bt.dat
EOF

state=$(lab_section state)
expect_match "$NAME: the exec trigger stopped tracing (tracing_on 0)" '^tracing_on=0$' "$state"
expect_match "$NAME: the switch trigger is installed, filter and all" \
	'^stacktrace:unlimited if prev_state == 2' "$state"
expect_match "$NAME: ftc extract exits 0" '^extract=0$' "$state"
if ! lab_file boot-trigger /tmp/bt.dat "$OUT/boot-trigger.dat"; then
	fail "$NAME: the capture came back" "see $OUT/lab-boot-trigger.console"
	finish
fi
# Each stack is the record after its switch on the same CPU; the switch's
# prev_state is the letter before "==>".
check=$("$FTC" report "$OUT/boot-trigger.dat" 2>&1 | python3 -c '
import re, sys
last, stacks, bad, execs = {}, 0, [], []
for l in sys.stdin:
	m = re.search(r"\[(\d+)\] \S+ +[\d.]+: (\w+): (.*)$", l)
	if not m:
		continue
	cpu, ev, rest = m.groups()
	if ev == "kernel_stack":
		stacks += 1
		s = re.search(r" (\S+) ==> ", last.get(cpu, ""))
		if not s or s.group(1) != "D":
			bad.append(last.get(cpu, "none")[:60])
	elif ev == "sched_process_exec":
		execs.append(int(re.search(r"\bpid=(\d+)", rest).group(1)))
	last[cpu] = rest if ev == "sched_switch" else ""
late = [p for p in execs if p > 1]
print("stacks=%d bad=%d %s" % (stacks, len(bad), ";".join(bad[:3])))
print("execs=%d late=%d last=%s" % (len(execs), len(late), execs[-1] if execs else "none"))')
expect_match "$NAME: the boot's switches out in D have stacks" '^stacks=[1-9][0-9]* ' "$check"
expect_match "$NAME: and every stack follows a switch out in D (the filter held)" ' bad=0 ' "$check"
expect_match "$NAME: the last exec is the only one by a pid past 1 (traceoff held)" \
	'^execs=[0-9]+ late=1 last=([2-9]|[1-9][0-9]+)$' "$check"
tc=$(trace-cmd report -i "$OUT/boot-trigger.dat" 2>&1 | grep -c ' sched_switch: ')
ftc_n=$("$FTC" report "$OUT/boot-trigger.dat" 2>&1 | grep -c ' sched_switch: ')
[ "$tc" -gt 0 ] && [ "$tc" = "$ftc_n" ] &&
	pass "$NAME: trace-cmd reads as many sched_switch records ($tc)" ||
	fail "$NAME: trace-cmd reads as many sched_switch records" "trace-cmd $tc, ftc $ftc_n"
finish
