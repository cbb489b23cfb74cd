# SPDX-License-Identifier: GPL-2.0-or-later
# ftc import end to end: the guest traces with ftc (oops-dump on, a
# filtered function tracer or function_graph), sends its kallsyms back,
# and crashes through sysrq; the serial console is the log, and on the
# host ftc import --kallsyms makes a capture whose last records on the
# crashing CPU lead into sysrq_handle_crash, which ftc report and
# trace-cmd both print. Three boots: ftrace_dump_on_oops=1 with the
# function tracer; orig_cpu with function_graph; and a buffer frozen
# before the crash. The 6.1 guest has no way to raise a WARN from user
# space without a module (LKDTM is not built), so the frozen buffer is
# made by a traceoff function trigger, which stops the ring buffer the way
# traceoff_on_warning does (tracing_off()), with traceoff_on_warning set
# too; the dump then ends where tracing stopped, not at the crash.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

# The guest's text symbols, gzipped (about 440 KB, 3 s of lab_export).
KSYMS='grep " [tTwW] " /proc/kallsyms | gzip -c >/tmp/k.gz; lab_export /tmp/k.gz'

# crash_cpu CONSOLE: the CPU of the panic's "CPU: N PID: P Comm: sh" line.
crash_cpu() {
	tr -d '\r' <"$1" | sed -n 's/.*\] CPU: \([0-9]*\) PID: [0-9]* Comm: sh .*/\1/p' | head -1
}

# import NAME: the console and kallsyms of boot NAME into $OUT/NAME.dat (not
# $name: expect_status sets that).
import() {
	local b=$1
	if ! lab_file "$b" /tmp/k.gz "$OUT/$b.k.gz" ||
	   ! gzip -dc "$OUT/$b.k.gz" >"$OUT/$b.kallsyms"; then
		fail "lab $b: the guest's kallsyms come back" "see $LAB_CONSOLE"
		return 1
	fi
	expect_status "lab $b: ftc import --kallsyms of the serial console exits 0" 0 \
		"$FTC" import --kallsyms "$OUT/$b.kallsyms" -o "$OUT/$b.dat" "$LAB_CONSOLE"
	cat "$OUT/last.out" "$OUT/last.err"
	"$FTC" report -i "$OUT/$b.dat" >"$OUT/$b.ftc" 2>&1
	trace-cmd report -i "$OUT/$b.dat" >"$OUT/$b.tc" 2>&1
	return 0
}

if LAB_TIMEOUT=60 LAB_EXPECT=panic lab_run import-func - <<EOF
ftc oops-dump on; echo "on status=\$?"
ftc start -q -p function -l 'sysrq*' -l __handle_sysrq -l do_sys_openat2 -e sched:sched_process_exec
echo "start status=\$?"
echo lab-import-marker >/sys/kernel/tracing/trace_marker
ls / >/dev/null
$KSYMS
echo 1 >/proc/sys/kernel/sysrq
echo c >/proc/sysrq-trigger
EOF
then
	expect_match "lab import-func: ftc start exits 0" '^start status=0$' "$(cat "$LAB_OUTPUT")"
	if import import-func; then
		cpu=$(crash_cpu "$LAB_CONSOLE")
		last=$(grep -E "^ *[^ ]+ +\[0*$cpu\] " "$OUT/import-func.ftc" | tail -1)
		expect_match "lab import-func: the crashing CPU's ($cpu) last record is sh's sysrq_handle_crash" \
			'^ *sh-[0-9]+ +\[[0-9]+\] .* sysrq_handle_crash <-__handle_sysrq' "$last"
		expect_match "lab import-func: __handle_sysrq <-write_sysrq_trigger is there as a function record" \
			'__handle_sysrq <-write_sysrq_trigger$' "$(cat "$OUT/import-func.ftc")"
		expect_match "lab import-func: the marker and the exec event are kept by name" \
			'tracing_mark_write: lab-import-marker$' "$(cat "$OUT/import-func.ftc")"
		expect_match "lab import-func: trace-cmd prints the crash as a function record" \
			"sh-[0-9]+ +\[0*$cpu\] .*function: +sysrq_handle_crash" "$(cat "$OUT/import-func.tc")"
		expect_match "lab import-func: trace-cmd prints sched_process_exec by name" \
			'sched_process_exec: +filename=/' "$(cat "$OUT/import-func.tc")"
	fi
fi

if LAB_TIMEOUT=90 LAB_EXPECT=panic lab_run import-graph - <<EOF
ftc oops-dump orig_cpu; echo "orig_cpu status=\$?"
ftc start -q -p function_graph -g __handle_sysrq -g do_sys_openat2 --max-graph-depth 3
echo "start status=\$?"
ls / >/dev/null
$KSYMS
echo 1 >/proc/sys/kernel/sysrq
echo c >/proc/sysrq-trigger
EOF
then
	expect_match "lab import-graph: ftc start exits 0" '^start status=0$' "$(cat "$LAB_OUTPUT")"
	if import import-graph; then
		cpu=$(crash_cpu "$LAB_CONSOLE")
		expect_match "lab import-graph: orig_cpu dumped the crashing CPU ($cpu) only" \
			"^ +$cpu\) " "$(grep -E '^ +[0-9]+\) ' "$OUT/import-graph.ftc" | sed -E 's/^ +([0-9]+)\).*/ \1) /' | sort -u)"
		[ "$(grep -E '^ +[0-9]+\) ' "$OUT/import-graph.ftc" | sed -E 's/^ +([0-9]+)\).*/\1/' | sort -u | wc -l)" = 1 ] &&
			pass "lab import-graph: one CPU in the capture" ||
			fail "lab import-graph: one CPU in the capture" "$(grep -E '^ +[0-9]+\) ' "$OUT/import-graph.ftc" | cut -c1-5 | sort -u | tr '\n' ' ')"
		expect_match "lab import-graph: the graph enters sysrq_handle_crash near its end" \
			'\| +sysrq_handle_crash\(\) \{$' "$(tail -4 "$OUT/import-graph.ftc")"
		expect_match "lab import-graph: trace-cmd shows the funcgraph entry of sysrq_handle_crash" \
			"\[0*$cpu\] .*funcgraph_entry: .*sysrq_handle_crash\(\) \{" "$(cat "$OUT/import-graph.tc")"
	fi
fi

if LAB_TIMEOUT=60 LAB_EXPECT=panic lab_run import-frozen - <<EOF
ftc oops-dump on
echo 1 >/proc/sys/kernel/traceoff_on_warning
ftc start -q -p function -l 'sysrq*' -l __handle_sysrq -l do_sys_openat2 -l 'vfs_fsync*' \
	--func-trigger 'vfs_fsync_range:traceoff' -e sched:sched_process_exec
echo "start status=\$?"
echo before-freeze >/sys/kernel/tracing/trace_marker
sync /tmp
echo "tracing_on=\$(cat /sys/kernel/tracing/tracing_on)"
echo after-freeze >/sys/kernel/tracing/trace_marker 2>/dev/null
$KSYMS
echo 1 >/proc/sys/kernel/sysrq
echo c >/proc/sysrq-trigger
EOF
then
	expect_match "lab import-frozen: the trigger froze the buffer" '^tracing_on=0$' "$(cat "$LAB_OUTPUT")"
	if import import-frozen; then
		last=$(grep -vE '^#' "$OUT/import-frozen.ftc" | tail -1)
		expect_match "lab import-frozen: the capture ends where tracing stopped: sync's vfs_fsync_range" \
			'sync-[0-9]+ +\[[0-9]+\] .* vfs_fsync_range <-' "$last"
		expect_match "lab import-frozen: the marker before the freeze is there" 'before-freeze$' \
			"$(cat "$OUT/import-frozen.ftc")"
		expect_nomatch "lab import-frozen: nothing after it (no marker, no sysrq)" 'after-freeze|sysrq' \
			"$(cat "$OUT/import-frozen.ftc")"
	fi
fi
finish
