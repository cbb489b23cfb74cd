#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A capture SIGKILLed on a quiet machine: events trickle in (about 100 a
# second, far from filling a page, let alone a chunk), yet everything
# that reached the kernel's buffer more than about a second before the
# kill must be in the file once `ftc restore` has finished it.
. "$(dirname "$0")/../lib.sh"

D=$(mktemp -d /tmp/ftc-killed.XXXXXX)
INSTS=""
cleanup() {
	# shellcheck disable=SC2086
	instances_remove $INSTS
	[ -n "$KEEP" ] || rm -rf "$D"
}
trap cleanup EXIT
knobs_save

have_tc=1
command -v trace-cmd >/dev/null || have_tc=0

# ticker INST LOG: a numbered marker every 10 ms, each logged with the
# time it was written, until killed.
ticker() {
	local i=0
	while :; do
		i=$((i + 1))
		[ -d "$TRACEFS/instances/$1" ] || exit 0
		{ echo "slowmark-$i" > "$TRACEFS/instances/$1/trace_marker"; } 2>/dev/null &&
			echo "$i $EPOCHREALTIME" >> "$2"
		sleep 0.01
	done
}

# killed NAME RECORD-OPTIONS...: records the ticker, kills ftc, restores.
killed() {
	local kind=$1 inst pid tk k need got missing
	shift
	inst=$(test_instance "killed-$kind")
	INSTS="$INSTS $inst"
	"$FTC" record -q -B "$inst" -e sched:sched_process_exec -a -o "$D/$kind.dat" "$@" \
		2>"$D/$kind.err" & pid=$!
	# A new instance starts with tracing on; ftc turns it off, writes the
	# file's head, then turns it on: wait for that.
	recording_started "$inst" "$D/$kind.dat"
	: > "$D/$kind.log"
	ticker "$inst" "$D/$kind.log" & tk=$!
	# The window ends when the ticker has written its marks, however slow
	# this machine is today (two busy loops beside it: 80 marks in 4 s),
	# and at least 4 s after it began: then 1.6 s more, so that all of
	# them are older than 1.5 s at the kill.
	t0=$SECONDS
	while [ "$(wc -l < "$D/$kind.log")" -lt $MARKS ] || [ $((SECONDS - t0)) -lt 4 ]; do
		[ $((SECONDS - t0)) -lt 60 ] || break
		sleep 0.1
	done
	sleep 1.6
	k=$EPOCHREALTIME
	kill -KILL $pid
	wait $pid 2>/dev/null
	kill $tk 2>/dev/null
	wait $tk 2>/dev/null
	# Every mark written 1.5 s or more before the kill. What orders it: ftc
	# checkpoints once a second, and a checkpoint waits at most 500 ms
	# (FLUSH_WAIT_MS in libftc/capture/capture.c) for each idle reader to hand
	# over its partial page; so a checkpoint that began after the mark
	# has completed, and the file's index covers the mark, by then.
	need=$(awk -v k="$k" '$2 <= k - 1.5 { n = $1 } END { print n + 0 }' "$D/$kind.log")
	if [ "$kind" = v6 ]; then
		# A v6 file has no room to rebuild an index: it is read as left.
		:
	else
		expect_status "$kind: ftc restore finishes the killed file" 0 "$FTC" restore "$D/$kind.dat"
		# Finished now: a second restore has nothing to do and writes nothing.
		cp "$D/$kind.dat" "$D/$kind.once"
		expect_match "$kind: a second restore finds it complete" "complete already" \
			"$("$FTC" restore "$D/$kind.dat" 2>&1)"
		cmp -s "$D/$kind.dat" "$D/$kind.once" &&
			pass "$kind: a second restore leaves it byte for byte as it was" ||
			fail "$kind: a second restore leaves it byte for byte as it was" \
				"$(cmp "$D/$kind.dat" "$D/$kind.once" | head -1)"
		ls -a "$D" | grep -q '\.restore-' &&
			fail "$kind: restore leaves no temporary file" "$(ls -a "$D" | grep restore-)"
	fi
	"$FTC" report "$D/$kind.dat" 2>"$D/$kind.rerr" | grep -o 'slowmark-[0-9]*' |
		sed 's/.*-//' | sort -n | uniq > "$D/$kind.got"
	got=$(wc -l < "$D/$kind.got")
	missing=$(comm -23 <(seq 1 "$need" | sort) <(sort "$D/$kind.got") | sort -n | head -5 | tr '\n' ' ')
	if [ "$need" -lt $MARKS ]; then
		fail "$kind: every mark older than 1.5 s is in the file" \
			"setup: the ticker wrote only $need marks older than 1.5 s in 60 s, not $MARKS"
	elif [ -z "$missing" ]; then
		pass "$kind: every mark older than 1.5 s is in the file ($need wanted, $got found)"
	else
		fail "$kind: every mark older than 1.5 s is in the file" \
			"$need wanted (kill at $k, first mark at $(head -1 "$D/$kind.log")), $got found, missing: ${missing:-none}$(head -c 300 "$D/$kind.rerr")"
	fi
	if [ $have_tc = 1 ]; then
		got=$(trace-cmd report "$D/$kind.dat" 2>/dev/null | grep -c 'slowmark-')
		[ "$got" -ge "$need" ] && pass "$kind: trace-cmd reads the restored file ($got marks)" ||
			fail "$kind: trace-cmd reads the restored file" "$got marks of $need"
	fi
	{ echo 0 > "$TRACEFS/instances/$inst/tracing_on"; } 2>/dev/null
	rmdir "$TRACEFS/instances/$inst" 2>/dev/null
}

# Enough marks to span several of ftc's checkpoints (once a second).
MARKS=150
killed zstd
killed none --compression none
killed v6 --file-version 6

knobs_unchanged "tracefs is as before"
finish
