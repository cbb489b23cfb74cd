# SPDX-License-Identifier: GPL-2.0-or-later
# ftc report on function and function_graph captures (the host refuses these
# tracers): in the guest, ftc extract captures them and ftc report folds
# entry/exit pairs into leaves with durations and nests calls in { }; on the
# host, trace-cmd report reads the same file and sees the same events.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

LAB_TIMEOUT=${LAB_TIMEOUT:-100} lab_run report-graph - <<'SCEN' || finish
# The tracers are set up with raw tracefs writes, filter first (tracing
# every function under emulation is very slow); ftc extract writes the file.
T=/sys/kernel/tracing
echo do_sys_openat2 >$T/set_graph_function
echo function_graph >$T/current_tracer
ls / >/dev/null
echo 0 >$T/tracing_on
ftc extract -q -o /tmp/g.dat
echo "record status=$?"
echo nop >$T/current_tracer
echo >$T/set_graph_function
echo "== graph"
ftc report /tmp/g.dat
echo "report status=$?"
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
graph=$(lab_section graph)
expect_match "lab report-graph: header names the tracer" '^# tracer: function_graph$' "$graph"
expect_match "lab report-graph: do_sys_openat2 opens a block" \
	'funcgraph_entry: +\| +do_sys_openat2\(\) \{$' "$graph"
expect_match "lab report-graph: leaves fold with a duration" \
	'funcgraph_entry: +[+!#*@$ ] [0-9]+\.[0-9]+ us +\| +[a-z_0-9.]+\(\);$' "$graph"
expect_match "lab report-graph: blocks close with a duration" \
	'funcgraph_exit: +[+!#*@$ ] [0-9]+(\.[0-9]+)? us +\| +\}$' "$graph"
# Nesting: a leaf sits deeper than the block that holds it.
expect_match "lab report-graph: nested calls are indented" \
	'\|    +[a-z_0-9.]+\(\);$' "$graph"
raw=$(lab_section graph-raw)
entries=$(printf '%s\n' "$raw" | grep -c ': funcgraph_entry: ')
exits=$(printf '%s\n' "$raw" | grep -c ': funcgraph_exit: ')
leaves=$(printf '%s\n' "$graph" | grep -c '();$')
opens=$(printf '%s\n' "$graph" | grep -c '() {$')
[ "$entries" -gt 0 ] && [ $((leaves + opens)) = "$entries" ] &&
	pass "lab report-graph: every entry is a leaf or a block ($leaves + $opens = $entries)" ||
	fail "lab report-graph: entries accounted for" "leaves $leaves + blocks $opens != entries $entries"
[ $((exits - leaves)) = "$(printf '%s\n' "$graph" | grep -c '|  *}$')" ] &&
	pass "lab report-graph: each folded leaf ate its exit" ||
	fail "lab report-graph: folded exits" "exits $exits, leaves $leaves"
expect_match "lab report-graph: function tracer prints func <-parent" \
	': do_sys_openat2 <-[a-z_0-9.]+$' "$(lab_section function)"

if expect "lab report-graph: trace.dat comes back" lab_file report-graph /tmp/g.dat "$OUT/lab-g.dat"; then
	tc=$(trace-cmd report "$OUT/lab-g.dat" 2>/dev/null | grep -c 'funcgraph_entry:')
	ours=$("$FTC" report --no-graph --no-header "$OUT/lab-g.dat" | grep -c ': funcgraph_entry: ')
	[ "$tc" -gt 0 ] && [ "$tc" = "$ours" ] &&
		pass "lab report-graph: trace-cmd sees the same $tc entries" ||
		fail "lab report-graph: trace-cmd agrees" "trace-cmd $tc entries, ftc $ours"
fi
finish
