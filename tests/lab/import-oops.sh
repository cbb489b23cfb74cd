# SPDX-License-Identifier: GPL-2.0-or-later
# ftc import end to end: the guest traces with ftc (oops-dump on, a
# filtered function tracer or function_graph), sends its kallsyms back,
# and crashes through sysrq; the serial console is the log, and on the
# host ftc import --kallsyms makes a capture whose last records on the
# crashing CPU lead into sysrq_handle_crash, which ftc report and
# trace-cmd both print. Three boots: ftrace_dump_on_oops=1 with the
# function tracer; orig_cpu with function_graph; and a buffer that a real
# WARN froze under traceoff_on_warning (ftc boot-args
# --traceoff-on-warning), raised by the lab module (tests/lab/module,
# "echo warn >/proc/ftclab"; the 6.1 guest has no LKDTM): the dump then
# ends at the warning, not at the crash.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

# The guest's text symbols, gzipped (about 440 KB, 3 s of lab_export). The
# sleep lets the tty drain the last KB of base64 before the crash, whose
# messages go straight to the UART and would land inside the data.
KSYMS='grep " [tTwW] " /proc/kallsyms | gzip -c >/tmp/k.gz; lab_export /tmp/k.gz; sleep 1'

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

# The frozen buffer: traceoff_on_warning from the command line that ftc
# boot-args prints, and a real WARN_ON_ONCE raised by the lab module
# (echo warn >/proc/ftclab). The ud2 of WARN_ON_ONCE traps into
# handle_bug, whose report_bug (not traceable) stops tracing
# (tracing_off()) before it calls __warn (traced, and never recorded), so
# the dump at the crash ends at ftclab_warn: ftclab's calls after the
# warning, the marker and sysrq are not in it. (The "Disabling tracing due to warning" line the kernel means to
# write into the buffer first is not there: it needs trace_printk's
# buffers, which nothing in this guest allocated.) The WARNING itself is a warning-level message,
# which quiet keeps off the console: dmesg shows it.
frozen() {
	local ko append
	lab_module "lab import-frozen" || return 1
	ko=$LAB_KO
	if ! append=$("$FTC" boot-args --traceoff-on-warning); then
		fail "lab import-frozen: ftc boot-args --traceoff-on-warning exits 0"
		return 1
	fi
	LAB_APPEND="$append" LAB_TIMEOUT=60 LAB_EXPECT=panic \
		lab_run import-frozen - "$ko=/lab/ftclab.ko" <<EOF
echo "traceoff_on_warning=\$(cat /proc/sys/kernel/traceoff_on_warning)"
insmod /lab/ftclab.ko
ftc oops-dump on
ftc start -q -p function -l ':mod:ftclab' -l __warn -l 'sysrq*' -l __handle_sysrq \
	-l do_sys_openat2 -e sched:sched_process_exec
echo "start status=\$?"
echo before-warn >/sys/kernel/tracing/trace_marker
echo 2 >/proc/ftclab
echo warn >/proc/ftclab
echo "tracing_on=\$(cat /sys/kernel/tracing/tracing_on)"
dmesg | grep -m1 'WARNING: CPU'
echo 3 >/proc/ftclab
echo after-warn >/sys/kernel/tracing/trace_marker 2>/dev/null
$KSYMS
echo 1 >/proc/sys/kernel/sysrq
echo c >/proc/sysrq-trigger
EOF
}

if frozen; then
	expect_match "lab import-frozen: ftc boot-args --traceoff-on-warning set the sysctl at boot" \
		'^traceoff_on_warning=1$' "$(cat "$LAB_OUTPUT")"
	expect_match "lab import-frozen: ftc start exits 0" '^start status=0$' "$(cat "$LAB_OUTPUT")"
	expect_match "lab import-frozen: the module's WARN froze the buffer" '^tracing_on=0$' \
		"$(cat "$LAB_OUTPUT")"
	expect_match "lab import-frozen: the kernel printed the WARNING from ftclab_warn" \
		'WARNING: CPU: [0-9]+ PID: [0-9]+ at .*ftclab_warn' "$(cat "$LAB_OUTPUT")"
	if import import-frozen; then
		recs=$(grep -vE '^#' "$OUT/import-frozen.ftc")
		expect_match "lab import-frozen: the capture ends in the WARN: ftclab_write, ftclab_warn" \
			'sh-[0-9]+ +\[[0-9]+\] .* ftclab_write <-proc_reg_write\| +sh-[0-9]+ +\[[0-9]+\] .* ftclab_warn <-ftclab_write\|$' \
			"$(echo "$recs" | tail -2 | tr '\n' '|')"
		expect_nomatch "lab import-frozen: __warn, called after tracing_off(), is not there" \
			' __warn <-' "$recs"
		expect "lab import-frozen: the 2 runs before the warning are there, 3 calls each" \
			test "$(echo "$recs" | grep -cE ' ftclab_(run|step_a|step_b) <-')" = 6
		expect_match "lab import-frozen: the marker before the warning is there" 'before-warn$' "$recs"
		expect_nomatch "lab import-frozen: nothing after it (no marker, no sysrq)" \
			'after-warn|sysrq' "$recs"
		expect_match "lab import-frozen: trace-cmd prints the path into the warning" \
			'function: +ftclab_warn' "$(cat "$OUT/import-frozen.tc")"
	fi
fi
finish
