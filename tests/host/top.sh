#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ftc top: the batch table with exact counts for a known workload (N
# getppid calls by a program of a known name), and the ncurses screen in a
# real terminal (tmux): views, filter, sort, pause, help, resize, q, Ctrl-C
# and a SIGKILL, after each of which tracefs must be as it was.
. "$(dirname "$0")/../lib.sh"

D=$(mktemp -d /tmp/ftc-top.XXXXXX)
S=ftc-top-test-$$
export FTC_JOURNAL_DIR=$D/j
. "$(dirname "$0")/tmux.bash"
cleanup() {
	tmux_cleanup
	rm -rf "$D"
}
trap cleanup EXIT
knobs_save

GEN=$D/top-getppid	# its comm: top-getppid
printf '%s\n' '#include <stdlib.h>' '#include <sys/syscall.h>' '#include <unistd.h>' \
	'int main(int argc, char **argv)' \
	'{ long n = atol(argv[1]); for (long i = 0; i < n; i++) syscall(SYS_getppid); return 0; }' \
	>"$GEN.c"
setup "build the workload" cc -O2 -o "$GEN" "$GEN.c" || finish


# ---- batch: exact counts ----------------------------------------------------
inst=$(test_instance batch)
"$FTC" top --batch --delay 1 --iterations 4 --view syscall --comm top-getppid -B "$inst" \
	--width 100 >"$D/batch.out" 2>"$D/batch.err" & pid=$!
# the first table is out: the events are on (a new instance's tracing_on
# reads 1 before ftc has configured anything)
if wait_for "cat $D/batch.out" '^ftc top - '; then
	"$GEN" 20000
fi
wait $pid; rc=$?
[ $rc = 0 ] && pass "batch: --iterations 4 ends with 0" ||
	fail "batch: --iterations 4 ends with 0" "exit $rc: $(tail -3 "$D/batch.err")"
n=$(grep -c '^ftc top - ' "$D/batch.out")
[ "$n" = 4 ] && pass "batch: one table per refresh" || fail "batch: one table per refresh" "$n tables"
last=$(awk '/^ftc top - /{t=""} {t=t $0 "\n"} END{printf "%s", t}' "$D/batch.out")
expect_match "batch: the workload's 20000 getppid calls, exactly, under its comm" \
	'^ +110 getppid +20000 +[0-9]+$' "$last"
expect_match "batch: the header names the filter and the view" \
	'^view: syscall \(ring buffer\) +sort: COUNT descending +filter: comm top-getppid' "$last"
w=$(grep -E '^ +NR SYSCALL' "$D/batch.out" | head -1 | awk '{ print length($0) }')
[ "$w" = 100 ] && pass "batch: --width 100 lines" || fail "batch: --width 100 lines" "title is $w wide"
[ -d "$TRACEFS/instances/$inst" ] && fail "batch: the instance it made is removed" "still there" ||
	pass "batch: the instance it made is removed"

# The task view: the workload's row, its syscalls counted (fork, exec, exit
# and the calls); output to a pipe is batch without --batch.
"$FTC" top -d 1 -E 20 --iterations 3 --view task --comm top-getppid 2>"$D/task.err" |
	cat >"$D/task.out" &
wait_for "cat $D/task.out" '^ftc top - ' && "$GEN" 5000; wait
expect_match "not a terminal: the task view as text, the workload's syscalls" \
	'^ +[0-9]+ top-getppid +[0-9]+ +[0-9]+ +50[0-9][0-9] ' "$(tail -4 "$D/task.out")"
expect_nomatch "default instance ftc-top-PID is gone" "ftc-top-" "$(ls "$TRACEFS/instances")"

expect_status "--view nosuch is a usage error" 2 "$FTC" top --batch --view nosuch
expect_status "--sort NOSUCH is a usage error" 2 "$FTC" top --batch --view cpu --sort NOSUCH
expect_status "an operand is a usage error" 2 "$FTC" top --batch extra
expect_status "--delay 0 is a usage error" 2 "$FTC" top --batch --delay 0
out=$("$FTC" top --batch --iterations 1 --delay 0.3 --view ipc 2>&1)
if grep -q 'perf counters <not supported>' <<<"$out"; then
	expect_match "ipc view: <not supported> without a PMU" '<not supported> +<not supported>' "$out"
else
	expect_match "ipc view: IPC per task" '^ +[0-9]+ .* [0-9]+\.[0-9][0-9]$' "$out"
fi
knobs_unchanged "ftc top --batch"

# ---- the screen, in tmux ------------------------------------------------------
command -v tmux >/dev/null || { skip "tmux" "not installed"; finish; }
cap() { tm capture-pane -p -t "$S"; }
# The title line of the table: its width is the terminal's.
title() { cap | grep -E '^ +NR +SYSCALL' | head -1; }
# start ARGS...: ftc top in the pane (120x30 again), in place of what ran
# there; $pid is ftc's. The session stays from one start to the next (a
# server left without sessions exits, racing the next new-session).
tm new-session -d -s "$S" -x 120 -y 30 'sleep 600'
tm set-option -t "$S" remain-on-exit on >/dev/null
start() {
	tm resize-window -t "$S" -x 120 -y 30
	rm -f "$D/status"
	tm respawn-pane -k -t "$S" "$FTC top --delay 0.3 $* 2>$D/screen.err; echo \$? >$D/status"
	wait_for cap '^ftc top - instance' || return 1
	pid=$(pgrep -P "$(tm display-message -p -t "$S" '#{pane_pid}')" | head -1)
	[ -n "$pid" ]
}
# ended: ftc top has exited; prints its status.
ended() {
	wait_for "cat $D/status 2>/dev/null" '^[0-9]+$' 50 && cat "$D/status"
}

# 16 MB a CPU: the 30000 calls' 60000 records wait in the buffer while the
# screen is drawn (under ASan the reader once fell behind and lost 2940)
if ! start -b 16384; then
	fail "screen: ftc top starts in a terminal" "$(cap | head -5; tail -3 "$D/screen.err")"
	finish
fi
pass "screen: ftc top starts in a terminal"
mine=ftc-top-$pid
[ -d "$TRACEFS/instances/$mine" ] && pass "screen: it traces in its own instance $mine" ||
	fail "screen: it traces in its own instance $mine" "$(ls "$TRACEFS/instances")"
wait_for cap '^sched:sched_switch +[0-9]+' && pass "screen: the event view first, with its events" ||
	fail "screen: the event view first, with its events" "$(cap | head -6)"

tm send-keys -t "$S" s
wait_for cap '^view: syscall' && pass "screen: s shows the syscall view" ||
	fail "screen: s shows the syscall view" "$(cap | head -3)"
tm send-keys -t "$S" /
wait_for cap '^filter \(comm or pid' && pass "screen: / asks for a filter" ||
	fail "screen: / asks for a filter" "$(cap | tail -2)"
tm send-keys -t "$S" top-getppid Enter
wait_for cap 'filter: comm top-getppid' && pass "screen: the filter is shown" ||
	fail "screen: the filter is shown" "$(cap | head -3)"
"$GEN" 30000
wait_for cap '^ +110 getppid +30000 ' &&
	pass "screen: the workload's 30000 getppid calls appear under its comm" ||
	fail "screen: the workload's 30000 getppid calls appear under its comm" "$(cap | head -8)"

tm send-keys -t "$S" '>'
wait_for cap 'sort: RATE/s descending' && pass "screen: > sorts by the next column" ||
	fail "screen: > sorts by the next column" "$(cap | sed -n 2p)"
expect_match "screen: the sort column is starred" '^ +NR +SYSCALL +COUNT +RATE/s\*$' "$(title)"
tm send-keys -t "$S" '<' r
wait_for cap 'sort: COUNT ascending' && pass "screen: < and r sort by COUNT ascending" ||
	fail "screen: < and r sort by COUNT ascending" "$(cap | sed -n 2p)"
first=$(cap | grep -A1 -E '^ +NR +SYSCALL' | tail -1)
expect_nomatch "screen: ascending puts getppid last, not first" 'getppid' "$first"
tm send-keys -t "$S" r

# pause: the numbers freeze while the workload runs, and catch up after
tm send-keys -t "$S" p
wait_for cap '\[paused\]' && pass "screen: p pauses" || fail "screen: p pauses" "$(cap | sed -n 2p)"
"$GEN" 10000; sleep 1
expect_match "screen: paused, the table stays as it was" '^ +110 getppid +30000 ' "$(cap)"
tm send-keys -t "$S" p
wait_for cap '^ +110 getppid +40000 ' && pass "screen: p again resumes, with what came meanwhile" ||
	fail "screen: p again resumes, with what came meanwhile" "$(cap | head -6)"

tm send-keys -t "$S" z
wait_for cap '^ +NR +SYSCALL' && ! cap | grep -q ' getppid ' &&
	pass "screen: z zeroes the counts" || fail "screen: z zeroes the counts" "$(cap | head -6)"

# the table follows the terminal's size
w=$(title | awk '{ print length($0) }')
[ "$w" = 120 ] && pass "screen: the table is as wide as the terminal (120)" ||
	fail "screen: the table is as wide as the terminal (120)" "title is $w wide: $(title)"
tm resize-window -t "$S" -x 70 -y 20
wait_for "title | awk '{ print length(\$0) }'" '^70$' &&
	pass "screen: resized to 70 columns, the table redraws 70 wide" ||
	fail "screen: resized to 70 columns, the table redraws 70 wide" "$(title)"
tm resize-window -t "$S" -x 150 -y 40
wait_for "title | awk '{ print length(\$0) }'" '^150$' &&
	pass "screen: resized to 150 columns, the table redraws 150 wide" ||
	fail "screen: resized to 150 columns, the table redraws 150 wide" "$(title)"

for v in t:task c:cpu e:event i:ipc f:func; do
	tm send-keys -t "$S" "${v%%:*}"
	wait_for cap "^view: ${v#*:} " && pass "screen: ${v%%:*} shows the ${v#*:} view" ||
		fail "screen: ${v%%:*} shows the ${v#*:} view" "$(cap | sed -n 2p)"
done
# where the kernel refuses the function tracer (this host), the view says
# why; elsewhere it counts functions (tests/lab/top.sh)
wait_for cap 'no function tracer: .*current_tracer|^[a-z_0-9.]+ +[0-9]+ +[0-9]+$' &&
	pass "screen: the func view counts functions or says why not" ||
	fail "screen: the func view counts functions or says why not" "$(cap | sed -n 1,6p)"
tm send-keys -t "$S" h
wait_for cap '^ftc top keys:' && pass "screen: h shows the help" || fail "screen: h shows the help" "$(cap | head -5)"
tm send-keys -t "$S" x
wait_for cap '^ +PID|^FUNCTION' && pass "screen: any key closes the help" ||
	fail "screen: any key closes the help" "$(cap | head -5)"

tm send-keys -t "$S" q
st=$(ended) && [ "$st" = 0 ] && pass "screen: q quits with 0" || fail "screen: q quits with 0" "status '$st'"
[ -d "$TRACEFS/instances/$mine" ] && fail "screen: q removes the instance" "still there" ||
	pass "screen: q removes the instance"
knobs_unchanged "screen: after q"

# Ctrl-C: the journal restores as for q
start -B "$(test_instance intr)" || fail "screen: second start" "$(tail -3 "$D/screen.err")"
tm send-keys -t "$S" C-c
st=$(ended) && [ "$st" = 0 ] && pass "screen: Ctrl-C quits with 0" ||
	fail "screen: Ctrl-C quits with 0" "status '$st': $(tail -2 "$D/screen.err")"
[ -d "$TRACEFS/instances/$(test_instance intr)" ] && fail "screen: Ctrl-C removes the instance" \
	"still there" || pass "screen: Ctrl-C removes the instance"
knobs_unchanged "screen: after Ctrl-C"

# SIGKILL: the guardian restores
if start; then
	mine=ftc-top-$pid
	g=$(pgrep -P "$pid" -x ftc-guardian)
	kill -KILL "$pid"
	wait_for "[ -d $TRACEFS/instances/$mine ] || echo gone" '^gone$' 100 &&
		pass "screen: SIGKILL, the guardian removes the instance" ||
		fail "screen: SIGKILL, the guardian removes the instance" "$mine still there"
	ended >/dev/null
	knobs_unchanged "screen: after SIGKILL (guardian)"
else
	fail "screen: third start" "$(tail -3 "$D/screen.err")"
fi

# SIGKILL of both ftc and its guardian: ftc reset --journal restores
if start; then
	mine=ftc-top-$pid
	g=$(pgrep -P "$pid" -x ftc-guardian)
	kill -KILL "$g" "$pid"
	ended >/dev/null
	[ -d "$TRACEFS/instances/$mine" ] && pass "screen: both killed, the instance stays" ||
		fail "screen: both killed, the instance stays" "gone already"
	expect_status "screen: ftc reset --journal restores what ftc top left" 0 \
		"$FTC" reset -q --journal
	[ -d "$TRACEFS/instances/$mine" ] && fail "screen: reset --journal removes the instance" \
		"still there" || pass "screen: reset --journal removes the instance"
	knobs_unchanged "screen: after SIGKILL of both and reset --journal"
else
	fail "screen: fourth start" "$(tail -3 "$D/screen.err")"
fi
# The terminal itself SIGKILL'd (the tmux server: the pane's tty hangs up):
# ftc top leaves through its own clean-up, the instance goes.
if start; then
	mine=ftc-top-$pid
	kill -KILL "$(tm display-message -p '#{pid}')"
	wait_for "[ -d $TRACEFS/instances/$mine ] || kill -0 $pid 2>/dev/null || echo gone" '^gone$' 100 &&
		pass "screen: a SIGKILL'd terminal: ftc top ends and removes the instance" ||
		fail "screen: a SIGKILL'd terminal: ftc top ends and removes the instance" \
			"$mine still there or ftc top still running"
	knobs_unchanged "screen: after the terminal was killed"
else
	fail "screen: fifth start" "$(tail -3 "$D/screen.err")"
fi
finish
