# SPDX-License-Identifier: GPL-2.0-or-later
# ftc record with the function_graph tracer, graphing only do_sys_openat2
# three calls deep, around ls in the guest. On the host ftc report folds the
# entries and exits into the nested "DURATION | func() {" ... "}" layout with
# durations, and trace-cmd report agrees on every call (task, CPU,
# timestamp, depth, function) and every duration (whole microseconds).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

# Graphing patches every kernel function (seconds under emulation, both
# ways); the capture is about 1 MB (kallsyms), so lab_export takes seconds too.
LAB_TIMEOUT=90 lab_run record-graph - <<'EOF' || finish
echo "== record"
ftc record -p function_graph -g do_sys_openat2 --max-graph-depth 3 -o /tmp/g.dat \
	-- ls / /proc >/dev/null
echo "record status=$?"
echo "== after"
cd /sys/kernel/tracing
echo "current_tracer=$(cat current_tracer)"
echo "max_graph_depth=$(cat max_graph_depth)"
echo "set_graph_function=$(grep -v '^#' set_graph_function | tr '\n' ' ')"
cd /tmp
echo "== end"
lab_export /tmp/g.dat
EOF

out=$(lab_section record)
expect_match "lab record-graph: ftc record exits 0" '^record status=0$' "$out"
nrec=$(printf '%s\n' "$out" | sed -n 's/^ftc record: \([0-9]*\) events, .*/\1/p')
expect_match "lab record-graph: ftc record's summary counts the events" '^[1-9][0-9]*$' "$nrec"
after=$(lab_section after)
expect_match "lab record-graph: the tracer is back to nop afterwards" '^current_tracer=nop$' "$after"
expect_match "lab record-graph: max_graph_depth is back to 0 afterwards" '^max_graph_depth=0$' "$after"
expect_match "lab record-graph: set_graph_function is cleared afterwards" '^set_graph_function= *$' "$after"

dat=$OUT/lab-record-graph.dat
lab_fetch record-graph /tmp/g.dat "$dat" "lab record-graph: the trace.dat"
pass "lab record-graph: the trace.dat comes back"

# graph_entries: one line per printed entry, from either tool's layout:
# "TASK-PID [CPU] NS DEPTH TEXT US", where TEXT is "func() {", "func();" or
# "}" and US the whole microseconds of the duration ("-" when none).
graph_entries() {
	awk '{
		ev = 0
		for (i = 2; i <= NF; i++)
			if ($i ~ /^funcgraph_(entry|exit):$/) { ev = i; break }
		if (!ev)
			next
		rest = substr($0, index($0, $ev) + length($ev))
		bar = index(rest, "|")
		dur = substr(rest, 1, bar - 1)
		us = match(dur, /[0-9]+/) ? substr(dur, RSTART, RLENGTH) : "-"
		call = substr(rest, bar + 1)
		ind = match(call, /[^ ]/) - 1
		sub(/^ +/, "", call)
		sub(/ +$/, "", call)
		print $1, $2, $(ev - 1), (ind - 2) / 2, call, us
	}' "$1"
}

if ! trace-cmd report -t -i "$dat" >"$OUT/lab-record-graph.tc" 2>"$OUT/last.err"; then
	fail "lab record-graph: trace-cmd report reads ftc's file" "$(tail -3 "$OUT/last.err")"
	finish
fi
pass "lab record-graph: trace-cmd report reads ftc's file"
if ! "$FTC" report --ns --graph-layout events "$dat" >"$OUT/lab-record-graph.ftc" 2>"$OUT/last.err"; then
	fail "lab record-graph: ftc report reads the file" "$(tail -3 "$OUT/last.err")"
	finish
fi
pass "lab record-graph: ftc report reads the file"

rep=$(cat "$OUT/lab-record-graph.ftc")
expect_match "lab record-graph: ftc report names the function_graph tracer" \
	'^# tracer: function_graph$' "$rep"
# "ls-98 [001] ...1. 20.067909530: funcgraph_entry:     |  do_sys_openat2() {"
expect_match "lab record-graph: ftc report opens ls's do_sys_openat2 with '{' at depth 0" \
	'^ *ls-[0-9]+ +\[[0-9]+\] .*: funcgraph_entry: +\|  do_sys_openat2\(\) \{$' "$rep"
expect_match "lab record-graph: ftc report folds leaves into 'DURATION us | func();'" \
	': funcgraph_entry: [!+#*@$ ] *[0-9]+\.[0-9]+ us +\|    +[a-z_0-9.]+\(\);$' "$rep"
expect_match "lab record-graph: ftc report closes a block with '}' and its duration" \
	': funcgraph_exit: [!+#*@$ ] *[0-9]+\.[0-9]+ us +\|  \}$' "$rep"

ftc=$(graph_entries "$OUT/lab-record-graph.ftc")
# Every ls do_sys_openat2() { is closed by a "}" at depth 0 on its CPU, ls
# calls nothing else at depth 0 (-g), and nothing goes deeper than
# --max-graph-depth 3 allows (depths 0 to 2).
check=$(printf '%s\n' "$ftc" | awk '
	$1 ~ /^ls-/ && $4 == 0 && $5 == "do_sys_openat2()" { open[$2]++; calls++ }
	$1 ~ /^ls-/ && $4 == 0 && $5 == "}" && open[$2] { open[$2]--; closed++ }
	$1 ~ /^ls-/ && $4 == 0 && $5 != "do_sys_openat2()" && $5 != "}" { others++ }
	$4 > max { max = $4 }
	END { printf "calls=%d closed=%d others=%d maxdepth=%d\n", calls, closed, others, max }')
expect_match "lab record-graph: each of ls's do_sys_openat2 blocks closes ($check)" \
	'^calls=([1-9][0-9]*) closed=\1 ' "$check"
expect_match "lab record-graph: -g kept ls's graph to do_sys_openat2 at depth 0 ($check)" \
	' others=0 ' "$check"
expect_match "lab record-graph: the graph is exactly 3 levels deep ($check)" \
	' maxdepth=2$' "$check"
# Like the kernel, ftc folds an entry whose next record on the same CPU is
# its exit; trace-cmd 3.1 folds only when the exit is the next record of
# all CPUs. So compare what both must agree on: every call entered (task,
# CPU, ns, depth, function) and every duration (whole us), and check that
# ftc left no foldable pair unfolded.
entries() { awk '$5 != "}" { f = $5; sub(/\(\).*/, "", f); print $1, $2, $3, $4, f }'; }
durations() { awk '$NF != "-" { print $NF }' | sort -n; }
tc=$(graph_entries "$OUT/lab-record-graph.tc")
n=$(printf '%s\n' "$ftc" | entries | grep -c .)
if [ "$n" -gt 0 ] && [ "$(printf '%s\n' "$ftc" | entries)" = "$(printf '%s\n' "$tc" | entries)" ]; then
	pass "lab record-graph: trace-cmd agrees on all $n calls (task, CPU, ns, depth, function)"
else
	fail "lab record-graph: trace-cmd agrees on the calls" "$n from ftc; $(diff \
		<(printf '%s\n' "$tc" | entries) <(printf '%s\n' "$ftc" | entries) | head -6 | tr '\n' '|')"
fi
nd=$(printf '%s\n' "$ftc" | durations | grep -c .)
if [ "$nd" -gt 0 ] && [ "$(printf '%s\n' "$ftc" | durations)" = "$(printf '%s\n' "$tc" | durations)" ]; then
	pass "lab record-graph: trace-cmd agrees on all $nd durations"
else
	fail "lab record-graph: trace-cmd agrees on the durations" "$nd from ftc; $(diff \
		<(printf '%s\n' "$tc" | durations) <(printf '%s\n' "$ftc" | durations) | head -6 | tr '\n' '|')"
fi
unfolded=$(printf '%s\n' "$ftc" | awk '
	$5 == "}" && last[$2] == $1 " " $4 " {" { n++ }
	{ last[$2] = $1 " " $4 " " ($6 == "{" ? "{" : $5) }
	END { print n + 0 }')
expect_match "lab record-graph: ftc folds every entry directly followed by its exit on its CPU" \
	'^0$' "$unfolded"
# --no-graph prints every entry and exit record as it is.
nraw=$("$FTC" report --no-graph --no-header "$dat" 2>&1 | grep -c ': funcgraph_e')
expect_match "lab record-graph: ftc report --no-graph prints all $nrec records unfolded" \
	"^$nrec\$" "$nraw"
finish
