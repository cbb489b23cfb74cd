# SPDX-License-Identifier: GPL-2.0-or-later
# ftc report on function and function_graph captures (the host refuses these
# tracers). In the guest the kernel's own trace file is saved next to the
# capture, with the default funcgraph options and again with funcgraph-proc
# and funcgraph-abstime: ftc report of the extracted file must print the same
# lines. The events layout (--graph-layout events) still folds entry/exit
# pairs with the per-record prefix; trace-cmd reads the same file on the host.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

LAB_TIMEOUT=${LAB_TIMEOUT:-100} lab_run report-graph - <<'SCEN' || finish
# The tracers are set up with raw tracefs writes, filter first (tracing
# every function under emulation is very slow); the kernel's trace file is
# read before ftc extract, which consumes the buffer.
T=/sys/kernel/tracing
# One CPU for the shell and its children: the kernel prints a banner where
# the pid changes on a CPU.
taskset -p 1 $$ >/dev/null
echo do_sys_openat2 >$T/set_graph_function
echo 1 >$T/events/sched/sched_process_fork/enable
echo function_graph >$T/current_tracer
# A marker and an event: the kernel shows them as comments in the graph.
echo graph-mark >$T/trace_marker
ls / >/dev/null
echo 0 >$T/tracing_on
echo 0 >$T/events/sched/sched_process_fork/enable
cat $T/trace >/tmp/k1.txt
echo 1 >$T/options/funcgraph-proc
echo 1 >$T/options/funcgraph-abstime
cat $T/trace >/tmp/k2.txt
echo 0 >$T/options/funcgraph-proc
echo 0 >$T/options/funcgraph-abstime
ftc extract -q -o /tmp/g.dat
echo "record status=$?"
echo nop >$T/current_tracer
echo >$T/set_graph_function
echo "== kernel"
cat /tmp/k1.txt
echo "== graph"
ftc report /tmp/g.dat
echo "report status=$?"
echo "== kernel-proc"
cat /tmp/k2.txt
echo "== graph-proc"
ftc report --graph-proc --graph-abstime /tmp/g.dat
echo "== graph-events"
ftc report --graph-layout events /tmp/g.dat
echo "== graph-raw"
ftc report --no-graph --no-header /tmp/g.dat
echo "== function"
echo >$T/trace
echo do_sys_openat2 >$T/set_ftrace_filter
echo function >$T/current_tracer
echo 1 >$T/tracing_on
ls / >/dev/null
echo 0 >$T/tracing_on
ftc extract -q -o /tmp/f.dat
ftc report --no-header /tmp/f.dat
echo "== end"
lab_export /tmp/g.dat
SCEN

out=$(cat "$LAB_OUTPUT")
expect_match "lab report-graph: ftc extract of function_graph exits 0" '^record status=0$' "$out"
expect_match "lab report-graph: ftc report exits 0" '^report status=0$' "$out"

# The kernel layout against the kernel's own trace file, line for line.
# ftc's lost-event markers have no place in the kernel's file: none expected
# in this small capture, and a difference would show them.
compare_layout() { # NAME KERNEL-SECTION FTC-SECTION
	local k=$OUT/lab-report-graph.$2 f=$OUT/lab-report-graph.$3 d=$OUT/lab-report-graph.$3.diff
	lab_section "$2" >"$k"
	lab_section "$3" | grep -v '^report status=' >"$f"
	if [ "$(grep -c '()' "$k")" -lt 10 ]; then
		fail "lab report-graph: $1" \
			"the kernel's trace holds too few calls to compare: $(head -5 "$k" | tr '\n' '|')"
	elif diff "$k" "$f" >"$d"; then
		pass "lab report-graph: $1: identical to the kernel's trace ($(wc -l <"$k") lines)"
	else
		fail "lab report-graph: $1" "$(grep -c '^[<>]' "$d") lines differ from the kernel's
			trace ($d): $(head -12 "$d" | tr '\n' '|')"
	fi
}
compare_layout "default columns" kernel graph
compare_layout "with --graph-proc --graph-abstime" kernel-proc graph-proc

graph=$(lab_section graph)
expect_match "lab report-graph: header names the tracer" '^# tracer: function_graph$' "$graph"
expect_match "lab report-graph: kernel header columns" '^# CPU  DURATION +FUNCTION CALLS$' "$graph"
expect_match "lab report-graph: do_sys_openat2 opens a block" \
	'^ [01]\) +\| +do_sys_openat2\(\) \{$' "$graph"
expect_match "lab report-graph: leaves fold with a duration" \
	'^ [01]\) [+!#*@$ ] +[0-9]+\.[0-9]+ us +\| +[a-z_0-9.]+\(\);$' "$graph"
expect_match "lab report-graph: the marker is a comment" '^ [01]\) +\| +/\* graph-mark \*/$' "$graph"
expect_match "lab report-graph: an event is a comment" \
	'^ [01]\) +\| +/\* sched_process_fork: comm=sh pid=[0-9]+ child_comm=sh child_pid=[0-9]+ \*/$' "$graph"
expect_match "lab report-graph: context-switch banner" \
	'^ 0\) +[a-z]+-[0-9]+ +=> +[a-z]+-[0-9]+ *$' "$graph"

# The events layout (the former default).
ev=$(lab_section graph-events)
expect_match "lab report-graph: events layout opens blocks with the prefix" \
	'funcgraph_entry: +\| +do_sys_openat2\(\) \{$' "$ev"
expect_match "lab report-graph: events layout folds leaves" \
	'funcgraph_entry: +[+!#*@$ ] [0-9]+\.[0-9]+ us +\| +[a-z_0-9.]+\(\);$' "$ev"
expect_match "lab report-graph: events layout closes blocks with a duration" \
	'funcgraph_exit: +[+!#*@$ ] [0-9]+(\.[0-9]+)? us +\| +\}$' "$ev"
expect_match "lab report-graph: nested calls are indented" '\|    +[a-z_0-9.]+\(\);$' "$ev"
raw=$(lab_section graph-raw)
entries=$(printf '%s\n' "$raw" | grep -c ': funcgraph_entry: ')
exits=$(printf '%s\n' "$raw" | grep -c ': funcgraph_exit: ')
leaves=$(printf '%s\n' "$graph" | grep -c '();$')
opens=$(printf '%s\n' "$graph" | grep -c '() {$')
closes=$(printf '%s\n' "$graph" | grep -c '|  *}\( /\* .* \*/\)\?$')
[ "$entries" -gt 0 ] && [ $((leaves + opens)) = "$entries" ] &&
	pass "lab report-graph: every entry is a leaf or a block ($leaves + $opens = $entries)" ||
	fail "lab report-graph: entries accounted for" "leaves $leaves + blocks $opens != entries $entries"
[ $((exits - leaves)) = "$closes" ] &&
	pass "lab report-graph: each folded leaf ate its exit ($exits exits, $leaves leaves)" ||
	fail "lab report-graph: folded exits" "exits $exits, leaves $leaves, closes $closes"
expect_match "lab report-graph: function tracer prints func <-parent" \
	': do_sys_openat2 <-[a-z_0-9.]+$' "$(lab_section function)"

if expect "lab report-graph: trace.dat comes back" lab_file report-graph /tmp/g.dat "$OUT/lab-g.dat"; then
	tc=$(trace-cmd report "$OUT/lab-g.dat" 2>/dev/null | grep -c 'funcgraph_entry:')
	ours=$("$FTC" report --no-graph --no-header "$OUT/lab-g.dat" | grep -c ': funcgraph_entry: ')
	[ "$tc" -gt 0 ] && [ "$tc" = "$ours" ] &&
		pass "lab report-graph: trace-cmd sees the same $tc entries" ||
		fail "lab report-graph: trace-cmd agrees" "trace-cmd $tc entries, ftc $ours"
	# The host's ftc prints the guest's file as the guest's ftc did.
	"$FTC" report "$OUT/lab-g.dat" >"$OUT/lab-report-graph.host"
	if diff "$OUT/lab-report-graph.graph" "$OUT/lab-report-graph.host" >"$OUT/last.out"; then
		pass "lab report-graph: the host's ftc report matches the guest's"
	else
		fail "lab report-graph: host report" "$(head -6 "$OUT/last.out" | tr '\n' '|')"
	fi
	# --jobs: an entry at a stretch's end folds its exit in the next one
	# (each process takes it off the merge alike), so the events layout
	# prints the same with stretches of 1 to 5 records.
	one=$("$FTC" report --jobs 1 --graph-layout events "$OUT/lab-g.dat" | md5sum)
	bad=""
	for s in 1 2 3 5; do
		[ "$(FTC_REPORT_STRETCH=$s "$FTC" report --jobs 3 --graph-layout events \
			"$OUT/lab-g.dat" | md5sum)" = "$one" ] || bad="$bad $s"
	done
	[ -z "$bad" ] && pass "lab report-graph: --jobs 3 folds across stretches as --jobs 1" ||
		fail "lab report-graph: --jobs 3, events layout" "differs with stretches of$bad"
fi
finish
