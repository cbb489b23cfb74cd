#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Where users keep their traces: ext4, xfs, btrfs, tmpfs, and the vfat or
# exfat of a board's SD card (no sparse files there). On each, a capture
# is readable, survives SIGKILL once `ftc restore` has finished it, and
# never looks larger than the free space it started with.
. "$(dirname "$0")/../lib.sh"

D=$(mktemp -d /tmp/ftc-fs.XXXXXX)
MNT=""
INSTS=""
cleanup() {
	for m in $MNT; do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	# shellcheck disable=SC2086
	instances_remove $INSTS
	rm -rf "$D"
}
trap cleanup EXIT
knobs_save

have_tc=1
command -v trace-cmd >/dev/null || have_tc=0
[ "$(id -u)" = 0 ] || { skip "file systems" "needs root for loop mounts"; finish; }

# ticker INST N: N numbered markers, one every 10 ms.
ticker() {
	for i in $(seq 1 "$2"); do
		{ echo "fsmark-$i" > "$TRACEFS/instances/$1/trace_marker"; } 2>/dev/null
		sleep 0.01
	done
}


# mount_fs FS DIR: a fresh, empty file system of that type at DIR.
mount_fs() {
	local fs=$1 dir=$2 img="$D/$1.img" size=300M
	mkdir -p "$dir"
	if [ "$fs" = tmpfs ]; then
		mount -t tmpfs -o size=64m ftc-fs-test "$dir" || return 1
		MNT="$MNT $dir"
		return 0
	fi
	case $fs in
	vfat) mk="mkfs.vfat" ;;
	*) mk="mkfs.$fs" ;;
	esac
	command -v "$mk" >/dev/null || { echo "no $mk (install ${PKG[$fs]})"; return 2; }
	truncate -s $size "$img"
	case $fs in
	ext4|xfs|btrfs) "$mk" -q -f "$img" >/dev/null 2>&1 || "$mk" -q -F "$img" >/dev/null 2>&1 || return 1 ;;
	*) "$mk" "$img" >/dev/null 2>&1 || return 1 ;;
	esac
	if ! grep -qw "$fs" /proc/filesystems; then
		echo "this kernel has no $fs driver (/proc/filesystems); tests/lab/record-filesystems.sh tries it with the lab kernel's driver"
		return 2
	fi
	# mount -o loop detaches the loop device itself at umount.
	mount -o loop "$img" "$dir" || return 1
	MNT="$MNT $dir"
}
declare -A PKG=([vfat]=dosfstools [exfat]=exfatprogs [xfs]=xfsprogs [btrfs]=btrfs-progs
		[ext4]=e2fsprogs)

on_fs() {
	local fs=$1 dir="$D/mnt-$1" why inst pid free big size n got
	why=$(mount_fs "$fs" "$dir"); rc=$?
	if [ $rc != 0 ]; then
		skip "$fs" "${why:-cannot make or mount a $fs file system here}"
		return
	fi
	free=$(df -B1 --output=avail "$dir" | tail -1)

	# A short capture: complete, read by ftc and trace-cmd.
	inst=$(test_instance "fs-$fs"); INSTS="$INSTS $inst"
	"$FTC" record -q -B "$inst" -e sched:sched_process_exec -a -o "$dir/a.dat" 2>"$D/$fs.err" &
	pid=$!
	recording_started "$inst" "$dir/a.dat"
	big=0
	ticker "$inst" 100 &
	tk=$!
	while kill -0 $tk 2>/dev/null; do
		size=$(stat -c %s "$dir/a.dat" 2>/dev/null || echo 0)
		[ "$size" -gt "$big" ] && big=$size
		sleep 0.2
	done
	kill -INT $pid; wait $pid; rc=$?
	[ $rc = 0 ] && pass "$fs: record ends with 0" || fail "$fs: record ends with 0" "exit $rc: $(tail -3 "$D/$fs.err")"
	[ "$big" -le $((free + (1 << 20))) ] &&
		pass "$fs: the file never looks larger than the free space ($big <= $free bytes)" ||
		fail "$fs: the file never looks larger than the free space" "$big > $free bytes"
	n=$("$FTC" report "$dir/a.dat" 2>/dev/null | grep -c 'fsmark-')
	[ "$n" = 100 ] && pass "$fs: ftc report reads the 100 marks" || fail "$fs: ftc report reads the 100 marks" "$n"
	if [ $have_tc = 1 ]; then
		n=$(trace-cmd report "$dir/a.dat" 2>/dev/null | grep -c 'fsmark-')
		[ "$n" = 100 ] && pass "$fs: trace-cmd reads the 100 marks" || fail "$fs: trace-cmd reads the 100 marks" "$n"
	fi
	rm -f "$dir/a.dat"

	# Killed: restore finishes the file in place.
	inst=$(test_instance "fs-$fs-kill"); INSTS="$INSTS $inst"
	"$FTC" record -q -B "$inst" -e sched:sched_process_exec -a -o "$dir/k.dat" 2>"$D/$fs.err" &
	pid=$!
	recording_started "$inst" "$dir/k.dat"
	ticker "$inst" 100
	sleep 2.5
	size=$(stat -c %s "$dir/k.dat")
	kill -KILL $pid; wait $pid 2>/dev/null
	[ "$size" -le $((free + (1 << 20))) ] &&
		pass "$fs: a killed capture's file is no larger than the free space ($size <= $free)" ||
		fail "$fs: a killed capture's file is no larger than the free space" "$size > $free"
	expect_status "$fs: ftc restore finishes the killed file" 0 "$FTC" restore "$dir/k.dat"
	n=$("$FTC" report "$dir/k.dat" 2>/dev/null | grep -c 'fsmark-')
	[ "$n" = 100 ] && pass "$fs: after restore ftc report reads the 100 marks" ||
		fail "$fs: after restore ftc report reads the 100 marks" "$n"
	if [ $have_tc = 1 ]; then
		n=$(trace-cmd report "$dir/k.dat" 2>/dev/null | grep -c 'fsmark-')
		[ "$n" = 100 ] && pass "$fs: after restore trace-cmd reads the 100 marks" ||
			fail "$fs: after restore trace-cmd reads the 100 marks" "$n"
	fi
	size=$(stat -c %s "$dir/k.dat")
	[ "$size" -lt $((32 << 20)) ] && pass "$fs: the restored file is small ($size bytes)" ||
		fail "$fs: the restored file is small" "$size bytes"
	{ echo 0 > "$TRACEFS/instances/$inst/tracing_on"; } 2>/dev/null
	rmdir "$TRACEFS/instances/$inst" 2>/dev/null
	umount "$dir" && MNT=${MNT/ $dir/}
}

for fs in ${FTC_TEST_FS:-ext4 xfs btrfs tmpfs vfat exfat}; do
	on_fs "$fs"
done

# Each CPU's region is its share of the free space: one busy CPU beside an
# idle one fills its own long before the disk is full, and the capture then
# ends as on a full disk (exit 1, the file, the CPU and what to do), with
# every CPU complete up to that moment and the file finished.
dir="$D/mnt-share"
mkdir -p "$dir"
if mount -t tmpfs -o size=12m ftc-fs-share "$dir"; then
	MNT="$MNT $dir"
	inst=$(test_instance fs-share); INSTS="$INSTS $inst"
	taskset -c 0 dd if=/dev/zero of=/dev/null bs=1 count=100000000 2>/dev/null & dd_pid=$!
	# v6 is uncompressed: the storm fills a 2 MB region within a second.
	"$FTC" record -B "$inst" -e syscalls:sys_enter_read -a --duration 20 --file-version 6 \
		-o "$dir/s.dat" 2>"$D/share.err"; rc=$?
	kill $dd_pid 2>/dev/null; wait $dd_pid 2>/dev/null
	[ $rc = 1 ] && pass "a full region ends the capture with 1" ||
		fail "a full region ends the capture with 1" "exit $rc: $(tail -2 "$D/share.err")"
	expect_match "a full region is named with the file, its CPU and what to do" \
		"s.dat: CPU 0's region .* has no room .*: No space left on device .*-m" \
		"$(cat "$D/share.err")"
	# Finished, not left at its last checkpoint: no hole is left in it.
	set -- $(stat -c '%b %B %s' "$dir/s.dat")
	[ $(($1 * $2 + (64 << 10))) -ge "$3" ] &&
		pass "the file is finished: no unused region is left ($3 bytes, $(($1 * $2)) allocated)" ||
		fail "the file is finished: no unused region is left" "$3 bytes, $(($1 * $2)) allocated"
	if [ $have_tc = 1 ]; then
		n=$(trace-cmd report "$dir/s.dat" 2>/dev/null | grep -c 'sys_enter_read')
		[ "$n" -gt 1000 ] && pass "a file with a full region is readable ($n events)" ||
			fail "a file with a full region is readable" "$n events"
	fi
	umount "$dir"
fi

knobs_unchanged "record on file systems"
finish
