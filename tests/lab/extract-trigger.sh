# SPDX-License-Identifier: GPL-2.0-or-later
# The flight-recorder path: ftc start configures a filtered function tracer
# and an event with tracing_on left 0 and a function trigger (ksys_sync:
# traceon:1) that turns it on; what happens before the trigger fires is not
# recorded, what happens after is, and ftc extract writes it into a
# trace.dat that trace-cmd report and ftc report read alike. Then a
# ksys_sync:snapshot trigger and ftc extract -s (read back by ftc report in
# the guest, to spare a second export).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

# Only the sync command reaches ksys_sync, so the trigger fires exactly when
# the scenario runs it. The boot clock is /proc/uptime's, so the guest can
# note when it fired. The capture is about 1 MB (kallsyms).
LAB_TIMEOUT=60 lab_run extract-trigger - <<'EOF' || finish
echo "== start"
ftc start -q --no-tracing-on -C boot -p function -l do_sys_openat2 \
	-e sched:sched_process_exec --func-trigger ksys_sync:traceon:1
echo "start status=$?"
cd /sys/kernel/tracing
echo "tracing_on=$(cat tracing_on)"
echo "== before"
# With the buffer off the kernel refuses the write (EBADF).
echo lab-before-marker 2>/dev/null >trace_marker
echo "marker status=$?"
ls / >/dev/null
ftc --version >/dev/null
echo "tracing_on=$(cat tracing_on)"
read t _ </proc/uptime
echo "t_fire=$t"
sync
echo "== after"
echo "tracing_on=$(cat tracing_on)"
echo "trigger=$(grep ksys_sync set_ftrace_filter)"
echo lab-after-marker >trace_marker
ls /proc >/dev/null
cd /tmp
echo "== extract"
# Stop first: extract reads every event format, and each open would land
# in the capture.
ftc stop
echo "stop status=$?"
ftc extract -o /tmp/x.dat
echo "extract status=$?"
echo "== snapshot"
# The same path with a snapshot trigger: sync swaps the live buffer into
# the snapshot, and ftc extract -s writes that one.
# (Turning tracing_on back on empties the buffer under the function
# tracer, its start callback: so the marker comes after ftc start.)
ftc start -q --func-trigger ksys_sync:snapshot:1
echo "start status=$?"
echo lab-snap-marker >/sys/kernel/tracing/trace_marker
sync
echo lab-live-marker >/sys/kernel/tracing/trace_marker
ftc stop
ftc extract -q -s -o /tmp/s.dat
echo "extract -s status=$?"
echo "snapshot: $(ftc report /tmp/s.dat | grep -o 'lab-[a-z]*-marker' | tr '\n' ' ')"
ftc extract -q -o /tmp/l.dat
echo "extract live status=$?"
echo "live: $(ftc report /tmp/l.dat | grep -o 'lab-[a-z]*-marker' | tr '\n' ' ')"
echo "== end"
lab_export /tmp/x.dat
EOF

expect_match "lab extract-trigger: ftc start exits 0" '^start status=0$' "$(lab_section start)"
expect_match "lab extract-trigger: --no-tracing-on leaves tracing_on 0" '^tracing_on=0$' \
	"$(lab_section start)"
expect_match "lab extract-trigger: tracing is still off before the trigger" '^tracing_on=0$' \
	"$(lab_section before)"
after=$(lab_section after)
expect_match "lab extract-trigger: sync fired the trigger: tracing_on is 1" '^tracing_on=1$' "$after"
# The kernel counts the trigger down: "ksys_sync:traceon:count=0".
expect_match "lab extract-trigger: the trigger fired once (count=0)" \
	'^trigger=ksys_sync:traceon:count=0$' "$after"
expect_match "lab extract-trigger: ftc stop exits 0" '^stop status=0$' "$(lab_section extract)"
expect_match "lab extract-trigger: ftc extract exits 0" '^extract status=0$' "$(lab_section extract)"
t_fire=$(lab_section before | sed -n 's/^t_fire=\([0-9.]*\)$/\1/p')

dat=$OUT/lab-extract-trigger.dat
lab_fetch extract-trigger /tmp/x.dat "$dat" "lab extract-trigger: the trace.dat"
pass "lab extract-trigger: the trace.dat comes back"
if ! trace-cmd report -t -i "$dat" >"$OUT/lab-extract-trigger.tc" 2>"$OUT/last.err"; then
	fail "lab extract-trigger: trace-cmd report reads ftc's file" "$(tail -3 "$OUT/last.err")"
	finish
fi
pass "lab extract-trigger: trace-cmd report reads ftc's file"

tc=$(grep -v '^cpus=' "$OUT/lab-extract-trigger.tc")
expect_match "lab extract-trigger: the marker written after the trigger is there" \
	': print: .*lab-after-marker' "$tc"
expect_nomatch "lab extract-trigger: the marker written before the trigger is not" \
	'lab-before-marker' "$tc"
expect_match "lab extract-trigger: ls's opendir after the trigger is there" \
	'^ *ls-[0-9]+ .*: function: +do_sys_openat2' "$tc"
expect_match "lab extract-trigger: ftc stop's exec is there" \
	': sched_process_exec: +filename=/bin/ftc ' "$tc"
# Every record is later than the uptime noted just before sync (uptime
# shows hundredths, rounded down, so it never runs ahead of the clock).
# trace-cmd 3.1 prints the boot clock in plain nanoseconds.
# Past 99 s the nanoseconds touch the CPU's brackets ("[001]125553673474:").
first=$(printf '%s\n' "$tc" | sed -nE 's/^[^[]*\[[0-9]+\] *([0-9]+(\.[0-9]+)?): .*/\1/p' |
	awk '{ print ($1 ~ /\./) ? $1 : sprintf("%.9f", $1 / 1e9) }' | sort -n | head -1)
if [ -n "$t_fire" ] && [ -n "$first" ] &&
   awk -v a="$first" -v b="$t_fire" 'BEGIN { exit !(a + 0 >= b + 0) }'; then
	pass "lab extract-trigger: no record is older than the trigger (first $first s >= $t_fire s)"
else
	fail "lab extract-trigger: no record is older than the trigger" \
		"first record at '$first' s, trigger at '$t_fire' s"
fi
snap=$(lab_section snapshot)
expect_match "lab extract-trigger: ftc start adds the snapshot trigger" '^start status=0$' "$snap"
expect_match "lab extract-trigger: ftc extract -s exits 0" '^extract -s status=0$' "$snap"
expect_match "lab extract-trigger: extract -s holds what the trigger swapped out, only that" \
	'^snapshot: lab-snap-marker $' "$snap"
expect_match "lab extract-trigger: the live buffer holds what came after, only that" \
	'^live: lab-live-marker $' "$snap"
ntc=$(printf '%s\n' "$tc" | grep -c .)
nftc=$("$FTC" report --no-header "$dat" 2>&1 | grep -vc '^#')
expect_match "lab extract-trigger: ftc report prints as many records as trace-cmd ($ntc)" \
	"^$ntc\$" "$nftc"
finish
