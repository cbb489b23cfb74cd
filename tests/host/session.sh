# SPDX-License-Identifier: GPL-2.0-or-later
# The session API's second client, Documentation/examples/ftc-graph.c, built
# from the public headers alone (-I libftc/, never its folders) against
# libftc.so, run on this kernel: where function_graph is refused it exits 3
# naming the tracer and changes nothing; with events in a private instance
# it records the command alone (an exec loop runs beside it), ftc report
# and trace-cmd report read the file, the command's exit status and an
# exec failure (127) come back, Ctrl-C ends a run with a readable file, and
# tracefs is left as found. The lab records a real function_graph with it
# (tests/lab/session-example.sh). The commands that run a command are the
# session's clients (the command's release and the wait are its).
. "$(dirname "$0")/../lib.sh"

B=${B:-build/default}
D=$(mktemp -d /tmp/ftc-session.XXXXXX)
I=$(test_instance s)
cleanup() {
	[ -n "${LOOP:-}" ] && kill "$LOOP" 2>/dev/null
	instances_remove "$I"
	rm -rf "$D"
}
trap cleanup EXIT

# The commands that run a command or watch processes are the session's
# clients: it releases the command and waits for its end; none of them
# starts a command or watches a pid itself.
for c in record start stream top stat profile hist; do
	grep -q 'ftc_session_' "$TOP/cmd/$c.c" && pass "ftc $c is a client of the session" ||
		fail "ftc $c is a client of the session" "cmd/$c.c calls no ftc_session_ function"
done
own=$(grep -ln 'ftc_workload_start\|pidfd_open\|ppoll' "$TOP"/cmd/*.c)
[ -z "$own" ] && pass "no command releases its command or watches a pid itself" ||
	fail "no command releases its command or watches a pid itself" "$own"

if [ ! -f "$TOP/$B/libftc.so" ]; then
	skip "session example" "$TOP/$B/libftc.so is not built (make)"
	finish
fi
ex=$D/ftc-graph
if ! out=$(cc -std=c11 -Wall -Wextra -Werror -O2 -I"$TOP/libftc" -o "$ex" \
	"$TOP/Documentation/examples/ftc-graph.c" -L"$TOP/$B" -lftc -Wl,-rpath,"$TOP/$B" 2>&1); then
	fail "ftc-graph builds from the public headers and libftc.so" "$(echo "$out" | tail -3)"
	finish
fi
pass "ftc-graph builds from the public headers and libftc.so"
if [ ! -w "$TRACEFS/current_tracer" ]; then
	skip "session example on this kernel" "no writable tracefs at $TRACEFS"
	finish
fi
knobs_save

# 1. function_graph, as the example does by default.
"$ex" -B "$I" -o "$D/g.dat" -g vfs_read -- true 2>"$D/g.err"
rc=$?
if grep -qw function_graph "$TRACEFS/available_tracers" 2>/dev/null; then
	[ $rc = 0 ] && pass "function_graph: records (this kernel has it)" ||
		fail "function_graph: records (this kernel has it)" "exit $rc: $(tail -2 "$D/g.err")"
else
	[ $rc = 3 ] && pass "function_graph refused here: exit 3" ||
		fail "function_graph refused here: exit 3" "exit $rc: $(tail -2 "$D/g.err")"
	# the first knob refused is the tracer's pid filter (follow), its graph
	# function, or the tracer itself, in the kernel's order
	expect_match "function_graph refused here: the message names the knob it stopped at" \
		'set_ftrace_pid|set_graph_function|current_tracer' "$(cat "$D/g.err")"
fi
[ -d "$TRACEFS/instances/$I" ] && fail "function_graph: the instance it made is gone" "$I is left" ||
	pass "function_graph: the instance it made is gone"

# 2. Events, the command alone: an exec loop beside it must not show.
( while :; do /bin/true; done ) &
LOOP=$!
"$ex" -B "$I" -p nop -e sched:sched_process_exec -o "$D/e.dat" -- sleep 0.5 2>"$D/e.err"
rc=$?
kill "$LOOP"; wait "$LOOP" 2>/dev/null; LOOP=
[ $rc = 0 ] && pass "events: exits 0" || fail "events: exits 0" "exit $rc: $(tail -2 "$D/e.err")"
expect_match "events: counts what it recorded" "^ftc-graph: [1-9][0-9]* events, 0 lost, in $D/e.dat\$" \
	"$(cat "$D/e.err")"
ours=$("$FTC" report "$D/e.dat" 2>&1 | grep -c 'sched_process_exec:')
theirs=$(trace-cmd report -i "$D/e.dat" 2>/dev/null | grep -c 'sched_process_exec:')
[ "$ours" = 1 ] && pass "events: one exec, the command's, none of the loop beside it" ||
	fail "events: one exec, the command's, none of the loop beside it" "$ours execs: $("$FTC" report "$D/e.dat" 2>&1 | grep -m3 exec)"
expect_match "events: the exec is sleep's" 'sched_process_exec: filename=[^ ]*sleep ' \
	"$("$FTC" report "$D/e.dat" 2>&1)"
[ "$theirs" = "$ours" ] && pass "events: trace-cmd report reads the same" ||
	fail "events: trace-cmd report reads the same" "trace-cmd: $theirs, ftc: $ours"

# 3. The command's status, and a command that cannot run.
expect_status "the command's exit status comes back" 7 "$ex" -B "$I" -p nop -e sched:sched_process_exit \
	-o "$D/x.dat" -- sh -c 'exit 7'
expect_status "a command that cannot run: 127" 127 "$ex" -B "$I" -p nop -e sched:sched_process_exit \
	-o "$D/n.dat" -- /nonexistent/cmd
expect_match "a command that cannot run: says why" 'No such file|not found|nonexistent' \
	"$(cat "$OUT/last.err")"
"$ex" -B "$I" -p nop -e sched:no_such_event -o "$D/u.dat" -- true 2>"$D/u.err"
rc=$?
[ $rc -ne 0 ] && grep -q 'no_such_event' "$D/u.err" &&
	pass "an unknown event fails, naming it (exit $rc)" ||
	fail "an unknown event fails, naming it" "exit $rc: $(tail -2 "$D/u.err")"

# 4. Ctrl-C: a readable file, tracefs put back.
"$ex" -B "$I" -p nop -e sched:sched_switch -o "$D/i.dat" -- sleep 30 2>"$D/i.err" &
pid=$!
recording_started "$I" "$D/i.dat"
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] && pass "Ctrl-C: exit 130" || fail "Ctrl-C: exit 130" "exit $rc: $(tail -2 "$D/i.err")"
"$FTC" report "$D/i.dat" >/dev/null 2>"$D/r.err" && pass "Ctrl-C: the file reads" ||
	fail "Ctrl-C: the file reads" "$(tail -2 "$D/r.err")"

knobs_unchanged "session example"
finish
