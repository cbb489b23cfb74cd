#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# No command closes a descriptor twice: the second close of a number may hit a
# file another thread opened in between (a CPU's trace_pipe_raw, the output).
# strace sees a close that fails with EBADF, the trace of the first mistake.
. "$(dirname "$0")/../lib.sh"
command -v strace >/dev/null || { skip "descriptors closed once" "strace is not installed"; finish; }
D=$OUT/fd-close; rm -rf "$D"; mkdir -p "$D"
I=$(test_instance fdclose)
n=0
for c in "record -q -B $I -e sched:sched_process_exit -o $D/r.dat" "stat -e task-clock" \
	 "profile -o $D/p.txt" "record -q -B $I -e sched:sched_process_exit --sample cpu-clock -o $D/s.dat" \
	 "stream -q -B $I -e sched:sched_process_exit --record $D/st.dat"; do
	n=$((n + 1))
	# LeakSanitizer cannot run under ptrace (the asan tier's ftc-asan): leaks are its other tests'
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -e trace=close -o "$D/strace.$n" $FTC $c -- sh -c 'true' >/dev/null 2>"$D/err.$n"
	bad=$(grep 'EBADF' "$D/strace.$n" | head -3)
	[ -z "$bad" ] && pass "ftc ${c%% *} (with a command) closes each descriptor once" ||
		fail "ftc ${c%% *} (with a command) closes each descriptor once" "$bad"
done
[ -d "$TRACEFS/instances/$I" ] && fail "the instance is gone" "still there" || pass "the instance is gone"
finish
