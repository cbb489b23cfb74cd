# SPDX-License-Identifier: GPL-2.0-or-later
# The session API's second client, Documentation/examples/ftc-graph.c
# (built static from the public headers alone: make example-static), on a
# kernel that has function_graph: it records a graph of do_sys_openat2 for
# cat alone (ftc_session_follow), ftc report and trace-cmd report read the
# file back with cat's opens and no other task's, and every knob it wrote
# is back afterwards. A tracer the kernel lacks exits 3 naming it, with
# nothing changed. The host runs the same program where function_graph is
# refused (tests/host/session.sh).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

ex=$TOP/build/default/examples/ftc-graph-static
if [ ! -x "$ex" ]; then
	skip "lab session example" "$ex is not built (make example-static)"
	finish
fi

LAB_TIMEOUT=90 lab_run session-example - "$ex=/lab/ftc-graph" <<'EOF' || finish
T=/sys/kernel/tracing
echo "== graph"
/lab/ftc-graph -o /tmp/g.dat -g do_sys_openat2 -d 2 -- cat /proc/version >/dev/null 2>/tmp/e
echo "status=$?"
cat /tmp/e
echo "== after"
echo "current_tracer=$(cat $T/current_tracer)"
echo "max_graph_depth=$(cat $T/max_graph_depth)"
echo "set_graph_function=$(grep -v '^#' $T/set_graph_function | tr '\n' ' ')"
echo "set_ftrace_pid=$(grep -v '^no pid' $T/set_ftrace_pid | tr '\n' ' ')"
echo "== refused"
/lab/ftc-graph -o /tmp/r.dat -p no_such_tracer -- true
echo "status=$?"
echo "current_tracer=$(cat $T/current_tracer)"
echo "== end"
lab_export /tmp/g.dat
EOF

out=$(lab_section graph)
expect_match "lab session example: exits with the command's status" '^status=0$' "$out"
expect_match "lab session example: counts what it recorded" \
	'^ftc-graph: [1-9][0-9]* events, 0 lost, in /tmp/g.dat$' "$out"
after=$(lab_section after)
expect_match "lab session example: tracer back to nop" '^current_tracer=nop$' "$after"
expect_match "lab session example: max_graph_depth back to 0" '^max_graph_depth=0$' "$after"
expect_match "lab session example: set_graph_function cleared" '^set_graph_function= *$' "$after"
expect_match "lab session example: set_ftrace_pid cleared" '^set_ftrace_pid= *$' "$after"
refused=$(lab_section refused)
expect_match "lab session example: a tracer the kernel lacks exits 3" '^status=3$' "$refused"
expect_match "lab session example: and names it" 'no_such_tracer' "$refused"
expect_match "lab session example: with the tracer untouched" '^current_tracer=nop$' "$refused"

dat=$OUT/lab-session-example.dat
lab_fetch session-example /tmp/g.dat "$dat" "lab session example: the trace.dat"
pass "lab session example: the trace.dat comes back"
if ! "$FTC" report --graph-layout events "$dat" >"$OUT/lab-session-example.ftc" 2>"$OUT/last.err"; then
	fail "lab session example: ftc report reads it" "$(tail -3 "$OUT/last.err")"
	finish
fi
if ! trace-cmd report -i "$dat" >"$OUT/lab-session-example.tc" 2>"$OUT/last.err"; then
	fail "lab session example: trace-cmd report reads it" "$(tail -3 "$OUT/last.err")"
	finish
fi
for tool in ftc tc; do
	f=$OUT/lab-session-example.$tool
	n=$(grep -c 'do_sys_openat2() {' "$f")
	[ "$n" -gt 0 ] && pass "lab session example ($tool): cat's opens are graphed ($n)" ||
		fail "lab session example ($tool): cat's opens are graphed" "$(head -5 "$f")"
	# every record belongs to cat: the pid filter reached the tracer
	cats=$(grep -cE '^ *cat-[0-9]+ +\[' "$f")
	others=$(grep -E '^ *[^ ]+-[0-9]+ +\[' "$f" | grep -vE '^ *cat-[0-9]+ ' | head -3)
	[ "$cats" -gt 0 ] && [ -z "$others" ] &&
		pass "lab session example ($tool): cat's $cats records, no other task's" ||
		fail "lab session example ($tool): cat's records, no other task's" "$cats of cat; $others"
done
finish
