# SPDX-License-Identifier: GPL-2.0-or-later
# ftc oops-dump on makes a real oops print the ftrace buffer on the console:
# the guest traces with ftc start (a filtered function tracer, an event, a
# marker), crashes through sysrq, and the panic's console shows "Dumping
# ftrace buffer:" with those records. The control boot sets it on then off
# again, records an event and a marker, crashes, and no dump appears. Two
# boots, since each ends in a panic.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

MARK=lab-oops-marker-4711

# dump_lines CONSOLE: the records between "Dumping ftrace buffer:" and the
# closing dashes, without the kernel's "[ time ]" prefix.
dump_lines() {
	tr -d '\r' <"$1" | sed 's/^\[ *[0-9.]*\] //' | awk '
		/^Dumping ftrace buffer:/	{ on = 1; next }
		on && /^-+$/			{ if (++dashes == 2) exit; next }
		on				{ print }'
}

if LAB_TIMEOUT=40 LAB_EXPECT=panic lab_run oops-dump - <<EOF
echo "== status"
ftc oops-dump status; echo "status=\$?"
ftc oops-dump on; echo "on status=\$?"
ftc oops-dump status; echo "status=\$?"
echo "value=\$(cat /proc/sys/kernel/ftrace_dump_on_oops)"
echo "== start"
ftc start -q -p function -l do_sys_openat2 -e sched:sched_process_exec; echo "start status=\$?"
echo $MARK >/sys/kernel/tracing/trace_marker
ls / >/dev/null
# busybox applets exec /proc/self/exe, if at all: ftc execs by its name.
ftc --version >/dev/null
echo "== crash"
echo 1 >/proc/sys/kernel/sysrq
echo c >/proc/sysrq-trigger
EOF
then
	out=$(lab_section status)
	expect_match "lab oops-dump: status says off on a fresh boot" \
		'^ftrace_dump_on_oops 0: off' "$out"
	expect_match "lab oops-dump: 'on' exits 0" '^on status=0$' "$out"
	expect_match "lab oops-dump: status then says on (all CPUs)" \
		'^ftrace_dump_on_oops 1: on' "$out"
	expect_match "lab oops-dump: the sysctl reads 1" '^value=1$' "$out"
	expect_match "lab oops-dump: ftc start exits 0" '^start status=0$' "$(lab_section start)"
	expect_match "lab oops-dump: the oops panicked the guest" 'Kernel panic - not syncing: sysrq' \
		"$(tr -d '\r' <"$LAB_CONSOLE")"
	expect_match "lab oops-dump: the panic printed 'Dumping ftrace buffer:'" \
		'Dumping ftrace buffer:' "$(tr -d '\r' <"$LAB_CONSOLE")"
	dump=$(dump_lines "$LAB_CONSOLE")
	# e.g. "sh-93        1..... 146869us : tracing_mark_write: lab-oops-marker-4711"
	expect_match "lab oops-dump: the dump holds the trace_marker write" \
		"^ *sh-[0-9]+ +[0-9]+.* : tracing_mark_write: $MARK\$" "$dump"
	expect_match "lab oops-dump: the dump holds ls's do_sys_openat2 call" \
		'^ *ls-[0-9]+ .* : do_sys_openat2 <-[a-z_0-9]+' "$dump"
	expect_match "lab oops-dump: the dump holds the sched_process_exec event" \
		' : sched_process_exec: filename=/bin/ftc ' "$dump"
	expect_nomatch "lab oops-dump: the dump holds no function outside the -l filter" \
		' : ([a-z_0-9.]+) <-' "$(printf '%s\n' "$dump" | grep -v ' : do_sys_openat2 <-')"
fi

# The control: 'on' then 'off', an event and a marker in the buffer (no
# function tracer: switching tracers costs seconds here), and the crash
# dumps nothing.
if LAB_TIMEOUT=40 LAB_EXPECT=panic lab_run oops-dump-off - <<EOF
echo "== off"
ftc oops-dump on; echo "on status=\$?"
ftc oops-dump off; echo "off status=\$?"
echo "value=\$(cat /proc/sys/kernel/ftrace_dump_on_oops)"
ftc start -q -e sched:sched_process_exec; echo "start status=\$?"
echo $MARK >/sys/kernel/tracing/trace_marker
ftc --version >/dev/null
echo "== buffer"
grep -c -e '$MARK' -e 'sched_process_exec: filename=/bin/ftc ' /sys/kernel/tracing/trace
echo "== crash"
echo 1 >/proc/sys/kernel/sysrq
echo c >/proc/sysrq-trigger
EOF
then
	out=$(lab_section off)
	expect_match "lab oops-dump: 'off' exits 0" '^off status=0$' "$out"
	expect_match "lab oops-dump: after off the sysctl reads 0" '^value=0$' "$out"
	expect_match "lab oops-dump: the control's buffer holds records before the crash" \
		'^([2-9]|[1-9][0-9]+)$' "$(lab_section buffer)"
	expect_match "lab oops-dump: the control boot panicked too" \
		'Kernel panic - not syncing: sysrq' "$(tr -d '\r' <"$LAB_CONSOLE")"
	expect_nomatch "lab oops-dump: with oops-dump off the panic dumps no buffer" \
		'Dumping ftrace buffer' "$(tr -d '\r' <"$LAB_CONSOLE")"
fi
finish
