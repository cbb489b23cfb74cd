#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ftc restore on a disk with no room for a finished copy (a capture killed
# on a full card) finishes the file in place; killed at any write or sync
# of that, it leaves a file that reads at least what it did before, and
# a second restore finishes it. The kills are strace's fault injection
# (signal=KILL at the Nth pwrite64, fsync or fdatasync). Run with one
# instance (the CPU regions move), with two (a buffer's section head
# moves too) and uncompressed (raw pages).
. "$(dirname "$0")/../lib.sh"

command -v strace >/dev/null || { skip "restore-in-place" "no strace"; finish; }
D=$(mktemp -d /tmp/ftc-inplace.XXXXXX)
M=$D/mnt
INSTS=""
cleanup() {
	umount "$M" 2>/dev/null
	# shellcheck disable=SC2086
	instances_remove $INSTS
	[ -n "$KEEP" ] || rm -rf "$D"
}
trap cleanup EXIT
knobs_save
mkdir -p "$M"
if ! mount -t tmpfs -o size=48m tmpfs "$M"; then
	skip "restore-in-place" "cannot mount a tmpfs"
	finish
fi
marks() { "$FTC" report "$1" 2>/dev/null | grep -c 'inplace-'; }
# LeakSanitizer cannot run under strace (the asan tier runs this with ftc-asan).
traced() { ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f "$@"; }

# killed_capture NAME INSTANCE...: 3000 marks in each, killed 2.5 s later.
killed_capture() {
	local sc=$1 args=() pid i
	shift
	for i in "$@"; do args+=(-B "$i" -e sched:sched_process_exec); done
	INSTS="$INSTS $*"
	"$FTC" record -q "${args[@]}" -a $REC_OPTS -o "$M/k.dat" 2>"$D/rec.err" &
	pid=$!
	recording_started "$1" "$M/k.dat"
	for i in "$@"; do
		seq -f "inplace-$i-%g" 1 3000 > "$TRACEFS/instances/$i/trace_marker"
	done
	sleep 2.5
	kill -KILL $pid
	wait $pid 2>/dev/null
	cp --sparse=always "$M/k.dat" "$D/killed.dat"
	before=$(marks "$D/killed.dat")
	[ "$before" -gt 0 ] && pass "$sc: the killed capture reads ($before marks)" ||
		fail "$sc: the killed capture reads" "$(head -3 "$D/rec.err")"
}

# fresh KB: the killed file on the tmpfs, with KB free beside it.
fresh() {
	local avail
	rm -f "$M/k.dat" "$M/filler"
	cp --sparse=always "$D/killed.dat" "$M/k.dat"
	avail=$(df -k --output=avail "$M" | tail -1)
	dd if=/dev/zero of="$M/filler" bs=1k count=$((avail - $1)) 2>/dev/null
}

# whole NAME: one restore, with room for the largest block, not for a copy.
whole() {
	local sc=$1 n
	fresh $ROOM
	expect_status "$sc: the whole restore in place" 0 \
		traced -o "$D/st.log" -e trace=openat,pwrite64,fsync,fdatasync \
		"$FTC" restore "$M/k.dat"
	grep -q 'k\.dat", O_RDWR' "$D/st.log" && pass "$sc: it was done in place" ||
		fail "$sc: it was done in place" "$(grep -E 'openat.*(k\.dat|restore)' "$D/st.log")"
	cp "$M/k.dat" "$D/whole.dat"
	all=$(marks "$D/whole.dat")
	[ "$all" -ge "$before" ] && pass "$sc: the restored file has every mark ($all >= $before)" ||
		fail "$sc: the restored file has every mark" "$all < $before"
	size=$(stat -c %s "$D/whole.dat")
	# As small as restore's copy, on a disk with room for it.
	cp --sparse=always "$D/killed.dat" "$D/copy.dat"
	"$FTC" restore -q "$D/copy.dat"
	copy=$(stat -c %s "$D/copy.dat")
	[ "$size" -le $((copy + 4096)) ] &&
		pass "$sc: the gaps are gone ($size bytes; the copy $copy)" ||
		fail "$sc: the gaps are gone" "$size bytes, the copy $copy"
	"$FTC" restore "$D/whole.dat" | grep -q 'complete already' &&
		pass "$sc: a second restore finds it complete" ||
		fail "$sc: a second restore finds it complete" ""
	if command -v trace-cmd >/dev/null; then
		n=$(trace-cmd report "$D/whole.dat" 2>/dev/null | grep -c 'inplace-')
		[ "$n" = "$all" ] && pass "$sc: trace-cmd reads the $n marks" ||
			fail "$sc: trace-cmd reads the marks" "$n of $all"
	fi
}

# killed_at NAME CALL:N: killed at the Nth CALL, then restored again.
killed_at() {
	local sc=$1 p=$2 call=${2%:*} got rc
	fresh $ROOM
	traced -o /dev/null -e trace="$call" -e inject="$call":signal=KILL:when="${p#*:}" \
		"$FTC" restore "$M/k.dat" >/dev/null 2>&1 &
	wait $! 2>/dev/null
	got=$(marks "$M/k.dat")
	if [ "$got" -lt "$before" ]; then
		fail "$sc: killed at $p: the file still reads" "$got marks, $before before"
		cp "$M/k.dat" "$OUT/restore-in-place-$sc-$call-${p#*:}.dat"
		return 1
	fi
	cp --sparse=always "$M/k.dat" "$D/after-kill.dat"
	"$FTC" restore "$M/k.dat" >/dev/null 2>"$D/again.err"
	rc=$?
	got=$(marks "$M/k.dat")
	if [ $rc -ne 0 ] || [ "$got" != "$all" ] ||
	   [ "$(stat -c %s "$M/k.dat")" -gt $((size + 65536)) ] ||
	   ls "$M"/.k.dat.restore-* >/dev/null 2>&1; then
		fail "$sc: killed at $p: a second restore finishes it" \
			"status $rc, $got marks of $all, $(stat -c %s "$M/k.dat") bytes, $(ls -a "$M" | tr '\n' ' '): $(head -2 "$D/again.err")"
		cp "$M/k.dat" "$OUT/restore-in-place-$sc-$call-${p#*:}.dat"
		cp --sparse=always "$D/after-kill.dat" "$OUT/restore-in-place-$sc-$call-${p#*:}-killed.dat"
		return 1
	fi
}

# scenario NAME INSTANCE...: the whole restore, then a kill at each write and sync.
scenario() {
	local sc=$1 call n bad=0 tried=0
	killed_capture "$@"
	whole "$sc"
	# The count includes the copy's attempt, which comes first.
	for call in fsync fdatasync pwrite64; do
		for n in $(seq 1 "$(grep -c "^[0-9]* *$call(" "$D/st.log")"); do
			tried=$((tried + 1))
			killed_at "$sc" "$call:$n" || bad=1
		done
	done
	[ $bad = 0 ] && pass "$sc: killed at each of $tried writes and syncs, the file reads as before, and a second restore finishes it (and removes the copy a killed one left)"
}

ROOM=512
REC_OPTS=
scenario one "$(test_instance inplace1)"
rm -f "$M/k.dat" "$M/filler"
scenario two "$(test_instance inplace2a)" "$(test_instance inplace2b)"
# Raw pages: a restore taken up later must not read an index as a page.
rm -f "$M/k.dat" "$M/filler"
REC_OPTS="--compression none"
scenario raw "$(test_instance inplace3)"
knobs_mine_only
finish
