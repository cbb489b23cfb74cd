# SPDX-License-Identifier: GPL-2.0-or-later
# What the host refuses, with ftc's control commands on a real kernel that
# allows it: function filters (glob, notrace, regex, :mod:), a failed
# filter write undone by the journal, function_graph from one function with
# a depth limit, a function traceon trigger with tracing_on 0, a traceoff
# count, the snapshot buffer, and ftc reset back to the defaults. One boot.
. "$(dirname "$0")/../lib.sh"
# five tracer switches under emulation: about 25 s on an idle host, more
# when other guests share its CPUs
LAB_TIMEOUT=${LAB_TIMEOUT:-240}
. "$(dirname "$0")/lab.bash"

lab_run control-function - <<'EOF' || finish
T=/sys/kernel/tracing
echo "== glob"
ftc start -q -p function -l 'do_sys_open*' -n do_sys_open; echo "status=$?"
cat $T/set_ftrace_filter; echo "-- notrace"; cat $T/set_ftrace_notrace
ls / >/dev/null
ftc stop
echo "-- trace"
grep -v '^#' $T/trace | head -20
echo "== regex"
ftc start -q -l '^vfs_(read|write)$'; echo "status=$?"
cat $T/set_ftrace_filter
echo "== pids"
echo "shell=$$"
ftc start -q -p function -P $$ -c; echo "status=$?"
echo "ftrace pids: $(cat $T/set_ftrace_pid | tr '\n' ' ')"
echo "event pids: $(cat $T/set_event_pid | tr '\n' ' ')"
echo "function-fork=$(cat $T/options/function-fork)"
echo "== restore"
ftc start -q -l do_sys_openat2 -l no_such_function_ftc; echo "status=$?"
cat $T/set_ftrace_filter
ftc start -q --func-trigger vfs_read:traceoff:5 -e nosuchsys:nosuchevent; echo "trigger then failure status=$?"
grep -c ':traceoff' $T/set_ftrace_filter
echo "== mod"
ftc start -q -l '*:mod:ftc_no_such_module'; echo "status=$?"
cat $T/set_ftrace_filter
ftc reset -q; echo "reset status=$?"
echo "== graph"
ftc start -q -p function_graph -g do_sys_openat2 --max-graph-depth 2; echo "status=$?"
cat $T/set_graph_function $T/max_graph_depth
ls / >/dev/null
ftc stop
grep -v '^#' $T/trace | head -40
ftc reset -q; echo "reset status=$?"
echo "== traceon"
ftc start -q -p function -l do_sys_openat2 -l ksys_sync --func-trigger ksys_sync:traceon \
	--no-tracing-on; echo "status=$?"
echo "on before=$(cat $T/tracing_on)"
head -1 /proc/version >/dev/null
sync
ls / >/dev/null
echo "on after=$(cat $T/tracing_on)"
grep ':traceon' $T/set_ftrace_filter
echo "-- trace"
grep -v '^#' $T/trace | head -12
echo "== traceoff"
ftc start -q --func-trigger 'do_sys_openat2:traceoff:3'; echo "status=$?"
grep ':traceoff' $T/set_ftrace_filter
ls / >/dev/null
echo "on after one ls=$(cat $T/tracing_on)"
for i in 1 2 3 4; do ftc restart; ls / >/dev/null; done
echo "on at the end=$(cat $T/tracing_on)"
grep ':traceoff' $T/set_ftrace_filter
ftc start -q --func-trigger '!do_sys_openat2:traceoff:0'; echo "remove status=$?"
echo "traceoff triggers left=$(grep -c ':traceoff' $T/set_ftrace_filter)"
echo "== snapshot"
ftc snapshot -s; echo "take status=$?"
ftc snapshot | head -3
ftc snapshot -r; echo "clear status=$?"
ftc snapshot -c 1 -f; echo "cpu free status=$?"
ftc snapshot -f; echo "free status=$?"
ftc show -s | grep -i 'snapshot is freed'
echo "== reset"
ftc reset -q; echo "reset status=$?"
cat $T/current_tracer $T/set_ftrace_filter $T/set_graph_function $T/tracing_on
echo "== end"
EOF

s=$(lab_section glob)
expect_match "lab control: -p function -l glob -n exits 0" '^status=0$' "$s"
expect_match "lab control: glob put do_sys_openat2 in set_ftrace_filter" '^do_sys_openat2$' "$s"
expect_match "lab control: -n put do_sys_open in set_ftrace_notrace" '^do_sys_open$' \
	"$(printf '%s\n' "$s" | sed -n '/^-- notrace/,/^-- trace/p')"
tr=$(printf '%s\n' "$s" | sed -n '/^-- trace/,$p' | grep -v '^--')
expect_match "lab control: ls's opens traced through do_sys_openat2" ': do_sys_openat2 <-' "$tr"
expect_nomatch "lab control: notrace kept do_sys_open out, the filter kept others out" \
	': (do_sys_open|[a-z_0-9.]*[^2]) <-' "$(printf '%s\n' "$tr" | grep -v ': do_sys_openat2 <-')"

s=$(lab_section regex)
expect_match "lab control: a regex -l exits 0" '^status=0$' "$s"
expect_match "lab control: regex expanded to vfs_read" '^vfs_read$' "$s"
expect_match "lab control: regex expanded to vfs_write" '^vfs_write$' "$s"
expect_nomatch "lab control: regex matched nothing else" '^(vfs_readv|vfs_writev|do_sys_openat2)$' "$s"

s=$(lab_section pids)
sh=$(printf '%s\n' "$s" | sed -n 's/^shell=//p')
expect_match "lab control: -P with a function tracer exits 0" '^status=0$' "$s"
expect_match "lab control: -P wrote set_ftrace_pid" "^ftrace pids: $sh( |\$)" "$s"
expect_match "lab control: -P wrote set_event_pid" "^event pids: $sh( |\$)" "$s"
expect_match "lab control: -c set function-fork too" '^function-fork=1$' "$s"

s=$(lab_section restore)
expect_match "lab control: a function that does not exist exits 1" '^status=1$' "$s"
expect_match "lab control: the failed start put the regex filter back (vfs_read)" '^vfs_read$' "$s"
expect_nomatch "lab control: ... and removed what it had added" '^do_sys_openat2$' "$s"
expect_match "lab control: a start that fails after a function trigger exits 3" \
	'^trigger then failure status=3$' "$s"
expect_match "lab control: ... and its function trigger is removed again" '^0$' "$s"

s=$(lab_section mod)
if printf '%s\n' "$s" | grep -q '^status=0$'; then
	expect_match "lab control: :mod: filter reads back" 'mod:ftc_no_such_module' "$s"
else
	skip "lab control: :mod: filter" "the guest kernel rejects :mod: for a module that is not loaded ($(printf '%s' "$s" | head -1))"
fi

s=$(lab_section graph)
expect_match "lab control: -p function_graph -g exits 0" '^status=0$' "$s"
expect_match "lab control: set_graph_function reads do_sys_openat2" '^do_sys_openat2$' "$s"
expect_match "lab control: max_graph_depth reads 2" '^2$' "$s"
expect_match "lab control: the graph starts at do_sys_openat2" 'do_sys_openat2\(\) \{' "$s"
# Depth 2: do_sys_openat2 { callee(); } -- a callee's own callees never show.
deep=$(printf '%s\n' "$s" | grep -E '\|  {6,}[a-z_]' || true)
[ -z "$deep" ] && pass "lab control: nothing deeper than 2 levels" ||
	fail "lab control: nothing deeper than 2 levels" "$(printf '%s\n' "$deep" | head -3)"
expect_match "lab control: reset after the graph exits 0" '^reset status=0$' "$s"

s=$(lab_section traceon)
expect_match "lab control: start with a traceon trigger exits 0" '^status=0$' "$s"
expect_match "lab control: --no-tracing-on left tracing_on 0" '^on before=0$' "$s"
expect_match "lab control: the trigger turned tracing on" '^on after=1$' "$s"
expect_match "lab control: the trigger reads back" '^ksys_sync:traceon:unlimited$' "$s"
tr=$(printf '%s\n' "$s" | sed -n '/^-- trace/,$p' | grep -v '^--')
expect_match "lab control: ls after the trigger is traced" ' ls-[0-9]+ .*: do_sys_openat2 <-' "$tr"
expect_nomatch "lab control: nothing from before the trigger (head's open)" ' head-[0-9]+ ' "$tr"

s=$(lab_section traceoff)
expect_match "lab control: a traceoff:3 function trigger exits 0" '^status=0$' "$s"
expect_match "lab control: its count reads back" '^do_sys_openat2:traceoff:count=[0-3]$' "$s"
expect_match "lab control: while counting, an open turns tracing off" '^on after one ls=0$' "$s"
expect_match "lab control: the count runs out at 0" '^do_sys_openat2:traceoff:count=0$' "$s"
expect_match "lab control: once spent, tracing stays on" '^on at the end=1$' "$s"
expect_match "lab control: removing the counted trigger with '!' exits 0" '^remove status=0$' "$s"
expect_match "lab control: ... and it is gone" '^traceoff triggers left=0$' "$s"

s=$(lab_section snapshot)
expect_match "lab control: snapshot -s exits 0" '^take status=0$' "$s"
expect_match "lab control: the snapshot prints a trace" '^# tracer: ' "$s"
expect_match "lab control: snapshot -r exits 0" '^clear status=0$' "$s"
expect_match "lab control: freeing one CPU is refused with 1" '^cpu free status=1$' "$s"
expect_match "lab control: snapshot -f exits 0" '^free status=0$' "$s"
expect_match "lab control: show -s after free says freed" 'Snapshot is freed' "$s"

s=$(lab_section reset)
expect_match "lab control: final reset exits 0" '^reset status=0$' "$s"
expect_match "lab control: reset: tracer nop" '^nop$' "$s"
expect_match "lab control: reset: filters back to all functions" '^#### all functions enabled ####$' "$s"
expect_nomatch "lab control: reset: no function triggers left" ':trace(on|off)' "$s"
finish
