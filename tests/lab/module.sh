# SPDX-License-Identifier: GPL-2.0-or-later
# Tracing a module the way its developer does (issue 18): tests/lab/module
# (ftclab) is built against the lab kernel's own headers and loaded in the
# guest. Its chain ftclab_run -> ftclab_step_a -> ftclab_step_b runs once
# at load and N times for each N written to /proc/ftclab, so every count
# below is exact. One boot: a :mod: filter set before insmod traces the
# init function; list --module; the function tracer and function_graph
# with --max-graph-depth on the module only; its own events with a filter
# and a trigger; a traceon trigger on a module function and ftc extract;
# samples in the module ([ftclab] as the DSO); rmmod during a capture,
# whose report still names the module's functions and prints its events,
# in the guest after rmmod and on the host, as trace-cmd does.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

NAME="lab module"
lab_module "$NAME" || finish
KO=$LAB_KO

LAB_TIMEOUT=${LAB_TIMEOUT_MODULE:-150} lab_run module - "$KO=/lab/ftclab.ko" <<'EOF' || finish
T=/sys/kernel/tracing
# funcs FILE: "COUNT NAME" for each function the report's records name
funcs() {
	ftc report -i "$1" | awk '{ for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
		print $(i + 1); break } }' | grep -v ':$' | sort | uniq -c | awk '{ print $1, $2 }'
}
echo "== before"
ftc list --module ftclab; echo "status=$?"
echo "== init"
# The kernel keeps a :mod: filter for a module that is not loaded yet.
ftc record -q -p function -l ':mod:ftclab' -o /tmp/init.dat -- insmod /lab/ftclab.ko
echo "status=$?"
ftc report -i /tmp/init.dat | grep -E '^ +insmod-' | sed 's/^.*: //'
echo "== list"
ftc list --module ftclab; echo "status=$?"
echo "== list-f"
ftc list -f --module ftclab 'step'; echo "status=$?"
echo "== list-all"
echo "functions=$(ftc list -f | wc -l) events=$(ftc list -e | wc -l)"
# (6.4 and later add a __probestub_EVENT function per tracepoint: not the
# module's own code, so not counted)
echo "module's: functions=$(ftc list -f | grep ' \[ftclab\]$' | grep -vc '^__probestub_') events=$(ftc list -e | grep -c '^ftclab:')"
echo "== function"
ftc record -q -p function -l ':mod:ftclab' -o /tmp/f.dat -- sh -c 'echo 5 >/proc/ftclab'
echo "status=$?"
funcs /tmp/f.dat
echo "== graph"
ftc record -q -p function_graph -g 'ftclab_*' -l ':mod:ftclab' --max-graph-depth 3 \
	-o /tmp/g.dat -- sh -c 'echo 2 >/proc/ftclab'
echo "status=$?"
ftc report -i /tmp/g.dat | grep '|' | grep -v '^#' | sed 's/^.*|  //'
echo "== events"
i=$(cat /proc/ftclab)
echo "iter=$i"
ftc record -q -e ftclab:ftclab_step -f 'kind == 2' \
	-e ftclab:ftclab_done -R "traceoff if iter == $((i + 3))" \
	-o /tmp/e.dat -- sh -c 'echo 5 >/proc/ftclab'
echo "status=$?"
ftc report -i /tmp/e.dat | grep -E 'ftclab_(step|done):' | sed 's/^.*: \(ftclab_[a-z]*:\)/\1/'
echo "== flight"
ftc start -q --no-tracing-on -p function -l ':mod:ftclab' --func-trigger ftclab_step_b:traceon:1
echo "start status=$?"
echo "tracing_on=$(cat $T/tracing_on)"
echo 3 >/proc/ftclab
echo "tracing_on=$(cat $T/tracing_on)"
ftc stop; ftc extract -q -o /tmp/x.dat
echo "extract status=$?"
funcs /tmp/x.dat
ftc reset -q
echo "== profile"
ftc profile -g --limit 8 -- sh -c 'echo 1000000 >/proc/ftclab'
echo "status=$?"
ftc record -q --sample cpu-clock --call-graph fp -e sched:sched_process_exec -o /tmp/s.dat \
	-- sh -c 'echo 1000000 >/proc/ftclab'
echo "status=$?"
echo "== rmmod"
# The kernel empties every ring buffer when a module whose events were ever
# enabled goes (trace_module_remove_events), so the capture that lives
# through rmmod is one of a fresh load whose events were not used.
rmmod ftclab && insmod /lab/ftclab.ko
ftc record -p function -l ':mod:ftclab' -e sched:sched_process_exec -o /tmp/r.dat 2>/tmp/r.err &
pid=$!
for n in $(seq 1 100); do
	[ -s /tmp/r.dat ] && [ "$(cat $T/tracing_on)" = 1 ] && [ "$(cat $T/current_tracer)" = function ] && break
	usleep 100000
done
echo 2 >/proc/ftclab
rmmod ftclab; echo "rmmod=$?"
sleep 1
kill -INT $pid; wait $pid
echo "status=$?"
funcs /tmp/r.dat
# sleep's exec, after rmmod: the capture went on. Its name is busybox's
# choice ("exe" at exec, "sleep" once the applet names itself; which one the
# capture saw depends on when the task was last seen): any exec after the
# module's last call is sleep's, nothing else runs there.
ftc report -i /tmp/r.dat | awk '/ ftclab_/ { f = NR } / sched_process_exec:/ { s = NR }
	END { print "sleep after rmmod: " (s > f && f ? "yes" : "no") }'
echo "== after-rmmod"
ftc report -i /tmp/e.dat | grep -E 'ftclab_(step|done):' | sed 's/^.*: \(ftclab_[a-z]*:\)/\1/'
echo "== profile-after-rmmod"
ftc report -i /tmp/s.dat --sample-profile --limit 8
echo "status=$?"
echo "== end"
lab_export /tmp/r.dat
lab_export /tmp/e.dat
lab_export /tmp/init.dat
EOF

# want SECTION TEXT: the section holds exactly TEXT (but for the
# __probestub_EVENT functions that 6.4 and later add to a module)
want() {
	local got
	got=$(lab_section "$1" | grep -v '^__probestub_')
	if [ "$got" = "$2" ]; then pass "$NAME: $1"
	else fail "$NAME: $1" "got: $(echo "$got" | tr '\n' '|'), want: $(echo "$2" | tr '\n' '|')"; fi
}
want before "ftc list: --module ftclab: no such module is loaded (/proc/modules lists them)
status=3"
init=$(lab_section init)
expect_match "$NAME: init: insmod under ftc record -l ':mod:ftclab' exits 0" '^status=0$' "$init"
# ftclab_init, then ftclab_run, ftclab_step_a and ftclab_step_b that it calls
expect "$NAME: init: the module's init function and its 3 callees are traced" \
	test "$(echo "$init" | grep -c ' <-')" = 4
expect_match "$NAME: init: the first is the init function, called by do_one_initcall" \
	'<-do_one_initcall$' "$(echo "$init" | grep -m1 ' <-')"
# Loaded during the capture: named from the kallsyms saved again at its end
# (the init function itself is freed by then, so it has no name to save).
expect "$NAME: init: the report names the module's functions loaded during the capture" \
	test "$(echo "$init" | grep ' <-' | tail -3 | sed 's/ <-.*//' | tr '\n' ' ')" = \
	"ftclab_run ftclab_step_a ftclab_step_b "
want list "# events
ftclab:ftclab_done
ftclab:ftclab_step
# functions
__traceiter_ftclab_step [ftclab]
__traceiter_ftclab_done [ftclab]
ftclab_read [ftclab]
ftclab_step_b [ftclab]
ftclab_step_a [ftclab]
ftclab_run [ftclab]
ftclab_work_fn [ftclab]
ftclab_warn [ftclab]
ftclab_sleep [ftclab]
ftclab_hang [ftclab]
ftclab_write [ftclab]
status=0"
want list-f "__traceiter_ftclab_step [ftclab]
ftclab_step_b [ftclab]
ftclab_step_a [ftclab]
status=0"
expect_match "$NAME: list without --module lists the kernel's too" \
	'^functions=[0-9]{5,} events=[0-9]{3,}$' "$(lab_section list-all)"
expect_match "$NAME: list without --module lists the module's among them" \
	"^module's: functions=11 events=2$" "$(lab_section list-all)"
want function "status=0
5 ftclab_run
5 ftclab_step_a
5 ftclab_step_b
1 ftclab_write"
want graph "status=0
ftclab_write() {
  ftclab_run() {
    ftclab_step_a();
  }
  ftclab_run() {
    ftclab_step_a();
  }
}"
i=$(lab_section events | sed -n 's/^iter=//p')
ev=""
for n in 1 2 3; do
	k=$((i + n))
	flags=LEAF; [ $(((k + 1) & 1)) = 1 ] && flags="ODD|LEAF"
	ev="$ev
ftclab_step: name=step_b iter=$k vals=$((k + 1)) $((2 * (k + 1))) $((3 * (k + 1))) 3735928559 flags=$flags kind=STEP_B
ftclab_done: iter=$k result=$((3 * (k + 1) + 1))"
done
# the filter keeps step_b's events; the trigger stops tracing at the 3rd run
want events "iter=$i
status=0$ev"
want after-rmmod "${ev#?}"
flight=$(lab_section flight)
expect_match "$NAME: flight: tracing is off, then on once ftclab_step_b ran" \
	'^start status=0 tracing_on=0 tracing_on=1 extract status=0 ' "$(echo $flight)"
expect_match "$NAME: flight: the extract holds the module's calls after the trigger only" \
	'extract status=0 2 ftclab_run 2 ftclab_step_a [23] ftclab_step_b$' "$(echo $flight)"
prof=$(lab_section profile)
expect_match "$NAME: ftc profile shows the module's functions with [ftclab] as the DSO" \
	'^ +[0-9.]+% +[0-9.]+% +sh +\[ftclab\] +\[k\] ftclab_(write|run|step_a|step_b)$' "$prof"
expect_nomatch "$NAME: ftc profile names no module function as [kernel.kallsyms]" \
	'kernel\.kallsyms\] +\[k\] ftclab_' "$prof"
expect_match "$NAME: report --sample-profile after rmmod: [ftclab] from the capture's kallsyms" \
	'^ +[0-9.]+% +[0-9.]+% +sh +\[ftclab\] +\[k\] ftclab_(write|run|step_a|step_b)$' \
	"$(lab_section profile-after-rmmod)"
want rmmod "rmmod=0
status=0
2 ftclab_run
2 ftclab_step_a
2 ftclab_step_b
1 ftclab_write
sleep after rmmod: yes"

# On the host, where no ftclab module exists.
for f in r e init; do
	lab_fetch module /tmp/$f.dat "$OUT/lab-module-$f.dat" "$NAME: /tmp/$f.dat"
done
# records FILE...: "TIMESTAMP NAME: REST" with single spaces, from a report
records() {
	awk '{ for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
		out = $i; for (j = i + 1; j <= NF; j++) out = out " " $j; print out; break } }' "$@"
}
"$FTC" report -i "$OUT/lab-module-e.dat" >"$OUT/lab-module-e.ftc" 2>&1
trace-cmd report -i "$OUT/lab-module-e.dat" >"$OUT/lab-module-e.tc" 2>&1
got=$(records "$OUT/lab-module-e.ftc" | sed 's/^[^ ]* //')
want_ev="${ev#?}"
if [ "$got" = "$want_ev" ]; then pass "$NAME: host: ftc report prints the module's events from the saved formats"
else fail "$NAME: host: ftc report prints the module's events" "got: $(echo "$got" | head -3 | tr '\n' '|')"; fi
if [ "$(records "$OUT/lab-module-e.ftc")" = "$(records "$OUT/lab-module-e.tc")" ] &&
   [ -n "$(records "$OUT/lab-module-e.tc")" ]; then
	pass "$NAME: host: trace-cmd report prints the module's events line for line as ftc"
else
	fail "$NAME: host: trace-cmd report prints them as ftc" \
		"$(diff <(records "$OUT/lab-module-e.ftc") <(records "$OUT/lab-module-e.tc") | head -4 | tr '\n' '|')"
fi
"$FTC" report -i "$OUT/lab-module-r.dat" >"$OUT/lab-module-r.ftc" 2>&1
got=$(records "$OUT/lab-module-r.ftc" | awk '$2 !~ /:$/ { print $2 }' | sort | uniq -c |
	awk '{ print $1, $2 }' | tr '\n' ' ')
expect "$NAME: host: the report names the module's functions from the capture's kallsyms" \
	test "$got" = "2 ftclab_run 2 ftclab_step_a 2 ftclab_step_b 1 ftclab_write "
got=$(trace-cmd report -i "$OUT/lab-module-r.dat" 2>&1 | grep -oE 'function: +ftclab_[a-z_]+' |
	awk '{ print $2 }' | sort | uniq -c | awk '{ print $1, $2 }' | tr '\n' ' ')
expect "$NAME: host: trace-cmd names them the same" \
	test "$got" = "2 ftclab_run 2 ftclab_step_a 2 ftclab_step_b 1 ftclab_write "
got=$(trace-cmd report -i "$OUT/lab-module-init.dat" 2>&1 | grep -oE 'function: +[a-z_0-9.]+' |
	awk '{ print $2 }' | tail -3 | tr '\n' ' ')
expect "$NAME: host: trace-cmd names the functions of a module loaded during the capture too" \
	test "$got" = "ftclab_run ftclab_step_a ftclab_step_b "
finish
