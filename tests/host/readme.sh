#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every ftc command line the README shows is true of this binary: each is run
# here, in a scratch instance (-B is added or replaces the README's) and a
# scratch directory, with small stand-ins for the README's ./repro.sh,
# ./workload, ./poke and ./app. A line whose feature this kernel refuses
# must say so with exit 3 (the capability is asked of `ftc check` first); a
# line only a boot, a module or a board can run names the lab test that runs
# it, and must still be well-formed here (never exit 2, never a signal). A
# README line this table does not know fails: add it here.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.bash"

D=$OUT/readme.$$
inst=$(test_instance readme)
rm -rf "$D"; mkdir -p "$D"; cd "$D" || exit 1
printf '#!/bin/sh\nls / >/dev/null; cat /etc/hostname >/dev/null; sleep 0.2\n' >repro.sh
chmod +x repro.sh; cp repro.sh workload; cp repro.sh poke
cat >app.c <<'C'
#include <stdio.h>
#include <string.h>
int __attribute__((noinline)) parse_req(int len, const char *buf)
{
	return len + (buf[0] == 'G');
}
int main(void)
{
	const char *req = "GET /";

	return parse_req((int)strlen(req), req) == 6 ? 0 : 1;
}
C
setup "build ./app" gcc -g -O0 -o app app.c || finish
cp "$TOP/tests/fixtures/import/frozen.log" console.log
mkdir -p board-root

# The README's code lines that start with "ftc", continuations joined,
# comments dropped.
readme_lines() {
	awk '/^    [^ ]/ || /^        / { l = substr($0, 5)
		if (cont != "") { sub(/^ +/, "", l); l = cont " " l; cont = "" }
		if (l ~ /\\$/) { sub(/ *\\$/, "", l); cont = l; next }
		sub(/ +# .*$/, "", l); if (l ~ /^ftc /) print l }' "$TOP/README.md"
}

cap_ok() { "$FTC" check -q "$1" >/dev/null 2>&1; }

# The line as run here: in the scratch instance, with this build's ftc.
localize() {
	local l=$1 sub
	l=${l//-B mine/-B $inst}
	sub=$(echo "$l" | awk '{print $2}')
	case $sub in
	record|start|extract|stream|stop|reset)
		case $l in *" -B "*) ;; *) l="ftc $sub -B $inst ${l#ftc $sub }" ;; esac ;;
	sched)	# sched record is record; the views live record into an instance of their own
		case $l in *" -B "*) ;;
		"ftc sched record "*) l="ftc sched record -B $inst ${l#ftc sched record }" ;;
		esac ;;
	esac
	echo "\"\$FTC\"${l#ftc}"
}

# How each line is judged: "0" must succeed; "cap NAME": succeeds where
# `ftc check NAME` is ok, else exits 3 naming the refusal; "after NAME": uses
# what a "cap NAME" line made, skipped where NAME is refused; "lab SCRIPT":
# SCRIPT runs it on a lab kernel, here it must be well-formed.
judge_of() {
	case $1 in
	"ftc check") echo 0 ;;
	"ftc record -B mine -e sched -e 'syscalls:sys_enter_open*' -o t.dat -- ./repro.sh") echo 0 ;;
	"ftc report t.dat") echo 0 ;;
	"ftc record -p function_graph -g do_sys_openat2 --max-graph-depth 5 -- ./repro.sh") echo "cap function_graph" ;;
	"ftc report trace.dat") echo "after function_graph" ;;
	"ftc start --no-tracing-on -p function -l 'do_sys_open*' --func-trigger 'ksys_sync:traceon:1'") echo "cap function-triggers" ;;
	"ftc extract -o t.dat") echo "after function-triggers" ;;
	"ftc stat -e 'syscalls:sys_enter_*' -- ./workload") echo 0 ;;
	"ftc record -e sched --sample cpu-clock --freq 999 --call-graph fp -o t.dat -- ./workload") echo 0 ;;
	"ftc report --sample-profile t.dat") echo 0 ;;
	"ftc stream -B mine -e sched:sched_switch --json | jq .") echo live ;;
	"ftc top --view syscall") echo tty ;;
	"ftc record --probe './app:parse_req len buf:string' -o t.dat -- ./app") echo "cap uprobes" ;;
	"ftc boot-args -e 'initcall:*' -C local -b 512 -O nooverwrite") echo 0 ;;
	"ftc sched offcpu -- ./workload") echo 0 ;;
	"ftc sched record --call-graph fp -o w.dat -- ./workload") echo 0 ;;
	"ftc sched offcpu --comm workload w.dat") echo 0 ;;
	"ftc record -e syscalls -F -o s.dat -- ./workload") echo 0 ;;
	"ftc syscalls --failure s.dat"|"ftc syscalls --failure -- ./workload") echo 0 ;;
	"ftc syscalls -s s.dat") echo 0 ;;
	"ftc record -e block -o io.dat -- ./workload") echo 0 ;;
	"ftc block io.dat"|"ftc block -- ./workload") echo 0 ;;
	"ftc kwork -- ./workload"|"ftc kwork latency -a --duration 2") echo 0 ;;
	"ftc funclatency -T do_sys_openat2 -- ls /") echo "cap function_graph" ;;
	"ftc funclatency -T ./app:parse_req -- ./app") echo "cap uprobes" ;;
	"ftc funclatency -T 'do_*' --per-task trace.dat") echo "after function_graph" ;;
	"ftc funclatency -T do_sys_openat2 --trees --min 1ms -- ls /") echo "cap function_graph" ;;
	"ftc extract -o boot.dat"|"ftc report --initcalls boot.dat | head") echo "lab tests/lab/boot-trace.sh" ;;
	"ftc list --module mymod"|"ftc record -p function -l ':mod:mymod' -o t.dat -- insmod mymod.ko"|\
	"ftc record -p function_graph -g 'mymod_*' -l ':mod:mymod' --max-graph-depth 3 -o g.dat -- ./poke"|\
	"ftc record -e 'mymod:*' -f 'kind == 2' -o e.dat -- ./poke"|"ftc report e.dat"|\
	"ftc start --no-tracing-on -p function -l ':mod:mymod' --func-trigger 'mymod_fail:traceon:1'"|\
	"ftc extract -o x.dat"|"ftc profile -g -- ./poke") echo "lab tests/lab/module.sh" ;;
	"ftc oops-dump on"|"ftc start -p function -l 'sysrq*' -l do_sys_openat2") echo "lab tests/lab/import-oops.sh" ;;
	"ftc boot-args --persistent boot_map -e sched:sched_switch -e irq") echo 0 ;;
	"ftc status | grep 'previous boot'"|"ftc extract -B boot_map -o crash.dat"|\
	"ftc report crash.dat | tail") echo "lab tests/lab/persistent.sh" ;;
	"ftc import --kallsyms /var/tmp/kallsyms -o oops.dat console.log") echo import ;;
	"ftc report oops.dat | tail") echo 0 ;;
	"ftc check | grep perf-") echo 0 ;;
	"ftc stat -e cycles,instructions,task-clock -- ./app") echo 0 ;;
	"ftc record -e sched -e irq --counters cycles,instructions --sample cycles --call-graph fp -o board.dat -- ./app") echo board ;;
	"ftc report board.dat"|"ftc report --stat board.dat"|"ftc report --sample-profile --symfs board-root board.dat") echo 0 ;;
	"ftc convert --to perfetto t.dat t.pftrace"|"ftc convert --to chrome t.dat t.json") echo 0 ;;
	esac
}

export FTC
run_line() {	# run_line COMMAND: its status; output in $D/line.out, .err
	bash -c "$1" </dev/null >"$D/line.out" 2>"$D/line.err"
}

judge() {	# judge README-LINE HOW
	local line=$1 how=$2 cmd rc name
	cmd=$(localize "$line")
	name="README: $line"
	case $how in
	0)	run_line "$cmd"; rc=$?
		[ $rc = 0 ] && pass "$name" || fail "$name" "exited $rc: $(tail -2 "$D/line.err")" ;;
	"cap "*|board)
		local c=${how#cap } want=0
		[ "$how" = board ] && c=perf-hardware
		cap_ok "$c" || want=3
		if [ "$how" = board ] && [ $want = 3 ]; then
			# No PMU here: the README's line must say so, and the board's
			# file is made with software events in their place.
			run_line "$cmd"; rc=$?
			[ $rc = 3 ] && pass "$name: exits 3 without a PMU" ||
				fail "$name: exits 3 without a PMU" "exited $rc: $(tail -2 "$D/line.err")"
			cmd=${cmd//cycles,instructions/cpu-clock,task-clock}; cmd=${cmd//--sample cycles/--sample cpu-clock}
			setup "board.dat with software events" bash -c "$cmd" </dev/null
			return
		fi
		run_line "$cmd"; rc=$?
		[ $rc = $want ] && pass "$name (ftc check $c: $([ $want = 0 ] && echo ok || echo not ok), exit $want)" ||
			fail "$name" "exited $rc, want $want (ftc check $c): $(tail -2 "$D/line.err")"
		if [ $want = 3 ]; then
			expect_match "$name: says why" 'refuse|lacks|absent|not permitted|not available' "$(cat "$D/line.err")"
		fi
		"$FTC" reset -B "$inst" -d >/dev/null 2>&1 ;;
	"after "*)
		if cap_ok "${how#after }"; then run_line "$cmd"; rc=$?
			[ $rc = 0 ] && pass "$name" || fail "$name" "exited $rc: $(tail -2 "$D/line.err")"
		else skip "$name" "needs ${how#after }, which this kernel refuses (see the line before)"; fi ;;
	live)	# Ctrl-C once it streams, then the README's pipe on what it printed.
		bash -c "${cmd%% |*}" </dev/null >"$D/live.out" 2>"$D/line.err" &
		local pid=$!
		wait_for "cat $D/live.out" sched_switch 200
		kill -INT $pid; wait $pid; rc=$?
		[ $rc = 0 ] && jq . <"$D/live.out" >/dev/null && grep -q sched_switch "$D/live.out" &&
			pass "$name: JSON lines that jq reads, exit 0 at Ctrl-C" ||
			fail "$name" "exited $rc: $(tail -2 "$D/line.err")" ;;
	tty)	# In a terminal of its own until its table shows, then q.
		S=ftc-readme-$$; rm -f "$D/status"
		tm new-session -d -s "$S" -x 120 -y 30 "FTC=$FTC bash -c '$cmd' 2>$D/line.err; echo \$? >$D/status"
		if wait_for "tm capture-pane -p -t $S" '^ +[0-9]+ [a-z_0-9]+ +[0-9]+' 100; then
			grep -q 'view: syscall' <(tm capture-pane -p -t "$S") && pass "$name: the syscall view on a terminal" ||
				fail "$name" "no syscall view: $(tm capture-pane -p -t "$S" | head -3)"
			tm send-keys -t "$S" q
		else
			fail "$name" "no table in 10 s: $(tm capture-pane -p -t "$S" | head -3; tail -2 "$D/line.err")"
		fi
		wait_for "cat $D/status 2>/dev/null" '^[0-9]+$' 50
		[ "$(cat "$D/status" 2>/dev/null)" = 0 ] && pass "$name: q ends it with exit 0" ||
			fail "$name: q ends it with exit 0" "status '$(cat "$D/status" 2>/dev/null)'"
		tmux_cleanup ;;
	import)	cp "$TOP/tests/fixtures/import/frozen.kallsyms" "$D/kallsyms"
		run_line "${cmd//\/var\/tmp\/kallsyms/$D/kallsyms}"; rc=$?
		[ $rc = 0 ] && pass "$name (the fixtures' console log)" || fail "$name" "exited $rc: $(tail -2 "$D/line.err")" ;;
	"lab "*)
		local script=$TOP/${how#lab } sub
		sub=$(echo "$line" | awk '{print $2}')
		grep -q "ftc $sub" "$script" 2>/dev/null && pass "$name: run by ${how#lab }" ||
			fail "$name: run by ${how#lab }" "no 'ftc $sub' in it"
		run_line "$cmd"; rc=$?
		[ $rc != 2 ] && [ $rc -lt 128 ] && pass "$name: well-formed here (exit $rc)" ||
			fail "$name: well-formed here" "exited $rc: $(tail -2 "$D/line.err")"
		"$FTC" reset -B "$inst" -d >/dev/null 2>&1 ;;
	*)	fail "$name" "tests/host/readme.sh does not know this line: add it to judge_of" ;;
	esac
}

knobs_save
n=0
while IFS= read -r line; do
	n=$((n + 1))
	judge "$line" "$(judge_of "$line")"
done < <(readme_lines)
[ $n -ge 30 ] && pass "the README shows $n ftc lines, each run" || fail "the README's ftc lines" "only $n found"
"$FTC" reset -B "$inst" -d >/dev/null 2>&1
knobs_unchanged "the README's lines"
cd / && rm -rf "$D"
finish
