#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every command against ftc(1)'s EXIT STATUS table: a missing instance is 3 everywhere, a
# bad option 2, a missing file 1; Ctrl-C ends what runs until Ctrl-C with 0 and a running
# command with 130; record, stat and profile exit with their command's status.
. "$(dirname "$0")/../lib.sh"
D=$OUT/cli-exit; rm -rf "$D"; mkdir -p "$D"
I=$(test_instance exit)
NOSUCH=ftc-no-such-$$

setup "a capture" "$FTC" record -q -B "$I" -e sched:sched_process_exec -o "$D/t.dat" -- true
# A missing instance, in every command whose -B names an existing one. record, start,
# stream, top, hist and boot-args are left out: their -B creates the instance (or only
# prints it); hist --show reads one.
for c in $("$FTC" --list-cmds); do
	case "$c" in record|start|stream|top|boot-args|hist) continue ;; esac
	"$FTC" "$c" --list-opts=table | grep -q $'^-B\t--instance\t' || continue
	args=(-B "$NOSUCH")
	[ "$c" = marker ] && args+=(text)
	[ "$c" = convert ] && args+=("$D/t.dat" "$D/c.dat")	# an instance of the file
	expect_status "$c -B of a missing instance exits 3" 3 "$FTC" "$c" "${args[@]}"
	expect_match "$c names the missing instance" "$NOSUCH" "$(cat "$OUT/last.err")"
done
# sched's is --instance alone (in perf's letters -B is --big-num), of a file
expect_status "sched --instance of a missing instance exits 3" 3 "$FTC" sched --instance "$NOSUCH" "$D/t.dat"
expect_match "sched names the missing instance" "$NOSUCH" "$(cat "$OUT/last.err")"
expect_status "hist --show -B of a missing instance exits 3" 3 "$FTC" hist --show -e sched:sched_switch \
	-B "$NOSUCH"
expect_match "hist --show names the missing instance" "instance '$NOSUCH' does not exist" "$(cat "$OUT/last.err")"
# the file's instances are names like tracefs's
expect_status "report --instance the file lacks exits 3" 3 "$FTC" report --instance "$NOSUCH" "$D/t.dat"
expect_status "report --event the file lacks exits 3" 3 "$FTC" report --event no_such_event "$D/t.dat"
expect_status "report of a missing file exits 1" 1 "$FTC" report "$D/none.dat"
expect_status "dump of a missing file exits 1" 1 "$FTC" dump "$D/none.dat"
expect_status "report --first with --last exits 2" 2 "$FTC" report --first 1 --last 1 "$D/t.dat"

# The command's own status, as stat has always given it.
for c in "record -q -B $I -e sched:sched_process_exit -o $D/s.dat" "stat -e task-clock" \
	 "profile -o $D/p.txt"; do
	expect_status "${c%% *} exits with its command's status (7)" 7 $FTC $c -- sh -c 'exit 7'
	expect_status "${c%% *} exits 128+9 when its command is killed" 137 $FTC $c -- sh -c 'kill -9 $$'
	expect_status "${c%% *} exits 127 when its command cannot run" 127 $FTC $c -- "$D/no-such-program"
done

# signal_status DELAY COMMAND...: SIGINT after DELAY seconds; the exit status in $rc
signal_status() {
	local delay=$1; shift
	"$@" >"$D/sig.out" 2>"$D/sig.err" &
	local pid=$!
	sleep "$delay"
	kill -INT "$pid"
	wait "$pid"; rc=$?
}
setup "an instance to read from" "$FTC" start -q -B "$I" -e sched:sched_switch
for c in "record -q -B $I -e sched:sched_switch -o $D/i.dat" "stat -a -e task-clock" \
	 "profile -a -o $D/i.txt" "show -B $I -p"; do
	signal_status 1 $FTC $c
	[ "$rc" = 0 ] && pass "Ctrl-C ends '${c%% -*}' (until Ctrl-C) with 0" ||
		fail "Ctrl-C ends '${c%% -*}' (until Ctrl-C) with 0" "exit $rc: $(tail -2 "$D/sig.err")"
done
for c in "record -q -B $I -e sched:sched_switch -o $D/j.dat" "stat -e task-clock" "profile -o $D/j.txt"; do
	signal_status 1 $FTC $c -- sleep 30
	[ "$rc" = 130 ] && pass "Ctrl-C while '${c%% *}' runs a command exits 130" ||
		fail "Ctrl-C while '${c%% *}' runs a command exits 130" "exit $rc: $(tail -2 "$D/sig.err")"
done
[ -s "$D/i.dat" ] && "$FTC" report "$D/i.dat" >/dev/null && pass "the file of a Ctrl-C'd record reads back" ||
	fail "the file of a Ctrl-C'd record reads back" "$(ls -l "$D/i.dat" 2>&1)"
# reset -b takes the size as every -b does (K multiplies) and writes it in KB
expect_status "reset -B -b 2K exits 0" 0 "$FTC" reset -q -B "$I" -b 2K
kb=$(sed 's/ .*//' "$TRACEFS/instances/$I/buffer_size_kb")	# the kernel rounds up to whole pages
[ "$kb" -ge 2048 ] && [ "$kb" -lt 2112 ] && pass "reset -b 2K left buffer_size_kb at 2048 (+ rounding): $kb" ||
	fail "reset -b 2K left buffer_size_kb at 2048 (+ rounding)" "buffer_size_kb $kb"
"$FTC" reset -q -B "$I" -d >/dev/null 2>&1
[ -d "$TRACEFS/instances/$I" ] && fail "the test's instance is gone" "still there" || pass "the test's instance is gone"
finish
