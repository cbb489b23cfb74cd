# SPDX-License-Identifier: GPL-2.0-or-later
# ftc stream with the function tracers, which the host refuses (one boot;
# the top-level buffer: 6.1 refuses function_graph in an instance):
# -p function_graph -g do_sys_openat2 prints folded graph lines as ftc
# report prints the same kind of capture (ftc record in the same guest):
# entries "do_sys_openat2() {", leaves "func();" (an entry right before its
# exit, which stream must fold without report's look-ahead), closing braces,
# nesting balanced, lines of report's shape; -p function
# -l prints one line per call with its caller; afterwards tracer and
# instances are as before. ftc's own calls stay out (set_ftrace_notrace_pid).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

LAB_TIMEOUT=120 lab_run stream - <<'EOF' || finish
T=/sys/kernel/tracing
echo "== graph"
ftc stream -p function_graph -g do_sys_openat2 -- cat /proc/version \
	>/tmp/sg.out 2>/tmp/sg.err
echo "status=$?"
cat /tmp/sg.out /tmp/sg.err
echo "== graph-report"
ftc record -p function_graph -g do_sys_openat2 -o /tmp/g.dat -- cat /proc/version \
	>/dev/null 2>/tmp/rg.err
echo "record status=$?"
cat /tmp/rg.err
ftc report /tmp/g.dat
echo "== function"
ftc stream -B ftc-lab-sf -p function -l do_sys_openat2 -- cat /proc/version \
	>/tmp/sf.out 2>/tmp/sf.err
echo "status=$?"
cat /tmp/sf.out
echo "tracer=$(cat $T/current_tracer) instances=$(ls $T/instances | tr '\n' ' ')"
echo "== end"
EOF

graph=$(lab_section graph)
rgraph=$(lab_section graph-report)
func=$(lab_section function)
expect_match "lab stream graph: exits 0" '^status=0$' "$graph"
expect_match "lab stream graph: do_sys_openat2 opens a block" 'do_sys_openat2\(\) \{$' "$graph"
expect_match "lab stream graph: blocks close" '\|[[:space:]]+\}' "$graph"
open=$(printf '%s\n' "$graph" | grep -c '() {$')
close=$(printf '%s\n' "$graph" | grep -cE '\|[[:space:]]+\}')
[ "$open" -gt 0 ] && [ "$open" = "$close" ] &&
	pass "lab stream graph: every entry is closed ($open blocks)" ||
	fail "lab stream graph: every entry is closed" "$open entries, $close closing braces"
expect_match "lab stream graph: ftc record of the same kind" '^record status=0$' "$rgraph"
# ftc's own opens (/proc/PID/comm) are not traced: only busybox cat's one
# open of /proc/version (6 blocks before ftc kept itself out of the
# function tracers with set_ftrace_notrace_pid)
opens() { grep -cE '\|  do_sys_openat2\(\) \{$'; }
expect_match "lab stream graph: only the command's open, not ftc's own" '^1$' \
	"$(printf '%s\n' "$graph" | opens)"
# The graph lines: "CPU) [mark] [DURATION us] |  INDENT func() {|func();|}"
# (the context-switch banners and cat's own output aside).
graph_lines() { grep -E '^ *[0-9]+\) .*\|'; }
odd() { graph_lines | grep -vE '^ *[0-9]+\) +([+!#*@$] +)?([0-9]+\.[0-9]+ us +)?\| +([A-Za-z_][A-Za-z_0-9.]*\(\)( \{|;)|\}( /\* .* \*/)?)$'; }
expect_nomatch "lab stream graph: every graph line reads as report's" . "$(printf '%s\n' "$graph" | odd)"
expect_nomatch "lab stream graph: (report's lines, the same check)" . "$(printf '%s\n' "$rgraph" | odd)"
# An entry right before its own exit on the same CPU is a leaf: "func();".
unfolded() {
	graph_lines | awk '{ cpu = $1 } /\(\) \{$/ { e = cpu; next } /\}$/ && e == cpu { n++ } { e = "" }
		END { print n + 0 }'
}
expect_match "lab stream graph: no leaf left unfolded" '^0$' "$(printf '%s\n' "$graph" | unfolded)"
expect_match "lab stream graph: (report: none either)" '^0$' "$(printf '%s\n' "$rgraph" | unfolded)"
leaves=$(printf '%s\n' "$graph" | grep -cE '\| +[A-Za-z_][A-Za-z_0-9.]*\(\);$')
r_leaves=$(printf '%s\n' "$rgraph" | grep -cE '\| +[A-Za-z_][A-Za-z_0-9.]*\(\);$')
[ "$leaves" -gt 0 ] && [ "$r_leaves" -gt 0 ] &&
	pass "lab stream graph: leaves folded as report folds them ($leaves; report $r_leaves)" ||
	fail "lab stream graph: leaves folded as report folds them" "stream $leaves, report $r_leaves"

expect_match "lab stream function: exits 0" '^status=0$' "$func"
expect_match "lab stream function: do_sys_openat2 calls with their callers" \
	'do_sys_openat2 <-[a-z_0-9]+' "$func"
expect_nomatch "lab stream function: only the function asked for" \
	': [a-z_0-9]+ <-' "$(printf '%s\n' "$func" | grep -v 'do_sys_openat2 <-')"
expect_match "lab stream: tracer and instances restored" '^tracer=nop instances= ?$' "$func"
finish
