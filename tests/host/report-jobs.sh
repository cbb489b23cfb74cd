#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ftc report --jobs: helpers format stretches of the records and the parent
# prints them in order. Checked on a real capture (sched, syscalls, kmem:
# sched_switch's plugin registers task names as it prints): the output of
# every layout and selection is byte for byte one process's, with stretches
# of 1 and 997 records; the default uses helpers for a large capture and not
# for a small one; a helper killed mid-report stops the report with exit 1,
# a message naming it, and a prefix of the right output; `| head` ends at
# once and leaves no helper. tests/lab/report-graph.sh checks function_graph
# folding across stretches.
. "$(dirname "$0")/../lib.sh"

I=ftc-jobs-$$
D=$(mktemp -d /tmp/ftc-jobs.XXXXXX)
cleanup() {
	[ -d "$TRACEFS/instances/$I" ] && "$FTC" reset -q -B "$I" -d >/dev/null 2>&1
	[ -n "${RP:-}" ] && kill "$RP" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$D"
}
trap cleanup EXIT
F=$D/t.dat
# Process work for a second: about 300 K records, over 4 MB of ring buffer data.
if ! "$FTC" record -q -B "$I" -b 8192 -e sched -e syscalls -e kmem -o "$F" -- \
	sh -c 'ls -lR /usr/share/doc /usr/include >/dev/null 2>&1' >"$D/rec.out" 2>&1; then
	fail "setup: record" "$(tail -3 "$D/rec.out")"
	finish
fi
"$FTC" reset -q -B "$I" -d >/dev/null 2>&1
n=$("$FTC" report --stat "$F" | awk '/^records:/ { print $2 }')
expect "setup: a capture of over 100000 records ($n)" test "${n:-0}" -gt 100000

# same NAME ARGS...: --jobs 1 against 2 and 3 helpers with two stretch sizes
same() {
	local name=$1 k s
	shift
	"$FTC" report --jobs 1 "$@" "$F" >"$D/one.out" 2>"$D/one.err"
	for k in 2 3; do
		for s in 1 997; do
			[ "$s" = 1 ] && [ "$k" = 2 ] && continue	# 1-record stretches: 3 jobs do
			FTC_REPORT_STRETCH=$s "$FTC" report --jobs $k "$@" "$F" >"$D/k.out" 2>"$D/k.err"
			if ! cmp -s "$D/one.out" "$D/k.out" || ! cmp -s "$D/one.err" "$D/k.err"; then
				fail "--jobs $k, stretches of $s: $name" "differs from --jobs 1 (kept in $D):
$(diff "$D/one.out" "$D/k.out" | head -4)
$(diff "$D/one.err" "$D/k.err" | head -4)"
				KEEP=1
				return
			fi
		done
	done
	pass "--jobs 2 and 3 print what --jobs 1 prints: $name"
}
same "text"
same "--json" --json
same "-R" -R
same "--ns --no-header" --ns --no-header
same "-N (no plugins)" -N
same "--cpu 1" --cpu 1
same "--comm ls" --comm ls
same "--event sched_switch (task names from the others)" --event sched_switch
same "-F on one event" -F 'sched_switch: prev_pid != 0'
same "--first 30000" --first 30000
expect "the default prints what --jobs 1 prints" \
	test "$("$FTC" report "$F" | md5sum)" = "$("$FTC" report --jobs 1 "$F" | md5sum)"

# Task names the file does not hold: here every saved name is blanked, so
# all come from sched_switch's plugin as it prints. -R prints fields without
# it, as trace-cmd -R does: no name at all, whatever the stretches and the
# selection (the records passed over register none either).
G=$D/noname.dat
if "$FTC" record -q -B "$I" --compression none -e sched -e syscalls -o "$G" -- \
	sh -c 'ls -l /usr/include >/dev/null' >"$D/rec2.out" 2>&1; then
	"$FTC" reset -q -B "$I" -d >/dev/null 2>&1
	# The last command lines section: a 16-byte section header, then the
	# text's u64 length, then "PID COMM" lines, blanked but for newlines.
	set -- $("$FTC" dump --sections "$G" | awk '/command lines/ { o = $(NF - 4); n = $(NF - 2) } END { print o, n }')
	python3 -c '
import sys
path, off, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
d = bytearray(open(path, "rb").read())
for i in range(off + 24, off + 16 + size):
	if d[i] not in (0, 10):
		d[i] = 32
open(path, "wb").write(d)' "$G" "$1" "$2"
	expect_match "blanked names: the plugin names the tasks as it prints" \
		' (ls|sh|ftc)-[0-9]+ ' "$("$FTC" report "$G")"
	all=$("$FTC" report -R "$G")
	expect_nomatch "blanked names: -R names no task" ' (ls|sh|ftc)-[0-9]+ ' "$all"
	sel=$("$FTC" report -R --event sys_enter_openat "$G" | grep -v '^#\|^cpus=')
	expect "blanked names: -R --event prints the lines the whole -R prints" \
		test "$sel" = "$(printf '%s\n' "$all" | grep ' sys_enter_openat: ')"
	F0=$F F=$G
	same "-R, names blanked" -R
	F=$F0
else
	fail "setup: record without compression" "$(tail -3 "$D/rec2.out")"
fi

# helpers_of WANT CMD...: GOT, how many children a report printing into a
# FIFO has while the FIFO is not read (it blocks once the pipe is full); then
# the FIFO is drained and the report waited for. The helpers are forked one
# by one: on a busy machine the first can be up long before the last, so
# the count is taken once it reaches WANT (or passes it), or after 5 s.
helpers_of() {
	local want_h=$1
	shift
	GOT=0
	rm -f "$D/fifo"; mkfifo "$D/fifo"
	"$@" >"$D/fifo" 2>"$D/err" & RP=$!
	exec 3<"$D/fifo"
	for _ in $(seq 50); do
		GOT=$(pgrep -c -P "$RP")
		[ "$GOT" -gt 0 ] && [ "$GOT" -ge "$want_h" ] && break
		sleep 0.1
	done
	cat <&3 >/dev/null
	exec 3<&-
	wait "$RP"
	RP=""
}
ncpu=$(nproc)
want=$(( ncpu > 4 ? 3 : ncpu - 1 ))
helpers_of "$want" "$FTC" report "$F"
expect "the default on a large capture: $want helpers ($ncpu CPUs)" test "$GOT" = "$want"
helpers_of 0 "$FTC" report --jobs 1 "$F"
expect "--jobs 1: no helper" test "$GOT" = 0
helpers_of 2 "$FTC" report --jobs 3 "$F"
expect "--jobs 3 starts 2 helpers" test "$GOT" = 2
# A capture under 4 MB of ring buffer data: one process (its text still
# fills the FIFO).
"$FTC" split -i "$F" -o "$D/small" -e 40000 >/dev/null 2>&1
helpers_of 0 "$FTC" report "$D/small.1"
expect "the default on a small capture ($(stat -c %s "$D/small.1") bytes): no helper" \
	test "$GOT" = 0

# A helper killed mid-report: exit 1, the message, and what came before it.
"$FTC" report --jobs 1 "$F" >"$D/full.txt" 2>/dev/null
rm -f "$D/fifo"; mkfifo "$D/fifo"
"$FTC" report --jobs 2 "$F" >"$D/fifo" 2>"$D/err" & RP=$!
exec 3<"$D/fifo"
for _ in $(seq 50); do
	h=$(pgrep -P "$RP")
	[ -n "$h" ] && break
	sleep 0.1
done
kill -KILL $h 2>/dev/null
cat <&3 >"$D/cut.txt"; exec 3<&-
wait "$RP"; st=$?; RP=""
expect "a killed helper: exit 1" test "$st" = 1
expect_match "a killed helper: the message names it and the signal" \
	"helper 1 \(pid $h\) was killed by signal 9 .*run with --jobs 1" "$(cat "$D/err")"
size=$(stat -c %s "$D/cut.txt")
expect "a killed helper: the output is a prefix of the whole ($size bytes)" \
	cmp -s -n "$size" "$D/cut.txt" "$D/full.txt"
expect "a killed helper: the output stops early" test "$size" -lt "$(stat -c %s "$D/full.txt")"

# The reader of the output goes away: the report and its helpers end.
"$FTC" report --jobs 3 "$F" 2>/dev/null | head -1 >/dev/null
# The parent dies of SIGPIPE at its next flush; the kernel then kills the helpers.
for _ in $(seq 30); do
	left=$(pgrep -f "ftc report --jobs 3 $F")
	[ -z "$left" ] && break
	sleep 0.1
done
expect "report | head: no helper is left behind" test -z "$left"

expect_status "--jobs 0 is a usage error" 2 "$FTC" report --jobs 0 "$F"
expect_status "--jobs 17 is a usage error" 2 "$FTC" report --jobs 17 "$F"
expect_match "--jobs x names the value" "--jobs 'x'" "$("$FTC" report --jobs x "$F" 2>&1)"
finish
