#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# vfat and exfat with their real drivers: the host kernel has neither, so
# tests/host/record-filesystems.sh skips them. The guest loads them (and
# loop) from the lab kernel's own package and mounts images made here with
# mkfs.vfat and mkfs.exfat. On each: a capture ends with 0, never looks
# larger than the free space it started with, shrinks to its content at
# the end and gives its clusters back; a capture killed with SIGKILL keeps,
# once `ftc restore` has finished it, every mark written 1.5 s before the
# kill, and shrinks too. trace-cmd reads two of the files here on the host.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

NAME=record-filesystems
FSES="vfat exfat"
# Small images: each lives in the guest's RAM (512 MB) as a loop file,
# and a capture on a file system without holes allocates all its free space.
IMG_MB=64

D=$(mktemp -d /tmp/ftc-labfs.XXXXXX)
trap 'rm -rf "$D"' EXIT

if ! MODS=$("$TOP/scripts/lab-kernel" --modules 2>"$D/mods.err"); then
	skip "lab $NAME" "no lab kernel modules: $(tail -1 "$D/mods.err")"
	finish
fi
args=("$MODS=/lab/mod")
for fs in $FSES; do
	case $fs in vfat) mk=mkfs.vfat pkg=dosfstools ;; exfat) mk=mkfs.exfat pkg=exfatprogs ;; esac
	if ! command -v "$mk" >/dev/null; then
		skip "lab $NAME: $fs" "no $mk here (install $pkg)"
		continue
	fi
	truncate -s ${IMG_MB}M "$D/$fs.img"
	if ! "$mk" "$D/$fs.img" >"$D/$fs.mkfs" 2>&1; then
		fail "lab $NAME: $mk makes an image" "$(tail -2 "$D/$fs.mkfs")"
		continue
	fi
	# The empty image packs to a few KB: the initramfs stays small.
	gzip -1 "$D/$fs.img"
	args+=("$D/$fs.img.gz=/lab/$fs.img.gz")
done

LAB_TIMEOUT=90 lab_run "$NAME" - "${args[@]}" <<'EOF' || finish
T=/sys/kernel/tracing
# Absent modules are built in or missing: /proc/filesystems tells.
for m in $(cat /lab/mod/modules.list); do
	insmod /lab/mod/$m.ko || echo "insmod $m failed"
done

now() { read u _ </proc/uptime; echo "$u"; }
freeb() { stat -f -c '%a %S' "$1" | awk '{ print $1 * $2 }'; }

# wait_on INST FILE: until ftc has written the head and turned tracing on.
wait_on() {
	for i in $(seq 1 100); do
		[ -s "$2" ] && [ "$(cat $T/instances/$1/tracing_on 2>/dev/null)" = 1 ] && return
		usleep 100000
	done
	echo "ftc did not start on $2"
}

# poll FILE OUT: until OUT.stop appears, the largest apparent size of
# FILE and the least free space of its file system, into OUT.
poll() {
	big=0 least=
	while [ ! -e "$2.stop" ]; do
		s=$(stat -c %s "$1" 2>/dev/null || echo 0)
		f=$(freeb "$(dirname "$1")")
		[ "$s" -gt "$big" ] && big=$s
		[ -z "$least" ] || [ "$f" -lt "$least" ] && least=$f
		echo "$big $least" >"$2"
		usleep 100000
	done
}

# ticker INST LOG [N]: numbered marks every 10 ms (N of them, or until
# killed), each logged with the uptime it was written at. No command
# forks here (a fork costs milliseconds under TCG): read -t on a FIFO
# that nobody writes is the sleep.
mkfifo /tmp/never
ticker() {
	exec 3<>/tmp/never
	i=0
	while [ -z "$3" ] || [ $i -lt "$3" ]; do
		i=$((i + 1))
		echo "fsmark-$i" >$T/instances/$1/trace_marker 2>/dev/null &&
			read u _ </proc/uptime && echo "$i $u" >>"$2"
		read -t 0.01 _ <&3
	done
}

onfs() {
	fs=$1
	echo "== $fs"
	echo "start uptime=$(now)"
	if ! grep -qw "$fs" /proc/filesystems; then
		echo "no $fs driver"
		return
	fi
	[ -f /lab/$fs.img.gz ] || { echo "no $fs image"; return; }
	gunzip -c /lab/$fs.img.gz >/tmp/$fs.img
	mkdir -p /mnt
	if ! mount -t $fs -o loop /tmp/$fs.img /mnt; then
		echo "mount failed"
		rm -f /tmp/$fs.img
		return
	fi
	echo "mounted $(grep ' /mnt ' /proc/mounts)"
	echo "f_type=$(stat -f -c %t /mnt)"
	free=$(freeb /mnt)
	echo "free=$free"

	rm -f /tmp/poll.*
	# A whole capture: all sched events and 100 marks.
	: >/tmp/c.log
	ftc record -B c$fs -e sched -a -o /mnt/c.dat >/tmp/c.out 2>&1 &
	pid=$!
	wait_on c$fs /mnt/c.dat
	poll /mnt/c.dat /tmp/poll.c &
	pp=$!
	ticker c$fs /tmp/c.log 100
	usleep 300000
	kill -INT $pid
	wait $pid
	echo "clean status=$?"
	touch /tmp/poll.c.stop
	wait $pp
	cat /tmp/c.out
	read big least </tmp/poll.c
	echo "clean max_size=$big least_free=$least"
	echo "clean size=$(stat -c %s /mnt/c.dat) free_after=$(freeb /mnt)"
	ftc report /mnt/c.dat >/tmp/c.rep 2>&1
	echo "clean report status=$? lines=$(wc -l </tmp/c.rep) marks=$(grep -c 'fsmark-' /tmp/c.rep) switches=$(grep -c 'sched_switch' /tmp/c.rep)"
	cp /mnt/c.dat /tmp/$fs-c.dat
	rm /mnt/c.dat

	# Killed after 3 s with marks going on; restore finishes it in place.
	: >/tmp/k.log
	ftc record -q -B k$fs -e sched:sched_process_exec -a -o /mnt/k.dat 2>/tmp/k.err &
	pid=$!
	wait_on k$fs /mnt/k.dat
	poll /mnt/k.dat /tmp/poll.k &
	pp=$!
	ticker k$fs /tmp/k.log &
	tk=$!
	sleep 3
	k=$(now)
	kill -KILL $pid
	wait $pid 2>/dev/null
	kill $tk
	wait $tk 2>/dev/null
	touch /tmp/poll.k.stop
	wait $pp
	read big least </tmp/poll.k
	echo "killed max_size=$big least_free=$least size_at_kill=$(stat -c %s /mnt/k.dat)"
	cat /tmp/k.err
	ftc restore /mnt/k.dat
	echo "restore status=$?"
	echo "restored size=$(stat -c %s /mnt/k.dat) free_after=$(freeb /mnt)"
	# Every mark written 1.5 s or more before the kill (the reason for
	# 1.5 s is in tests/host/record-killed.sh).
	need=$(awk -v k="$k" '$2 <= k - 1.5 { n = $1 } END { print n + 0 }' /tmp/k.log)
	ftc report /mnt/k.dat 2>&1 | grep -o 'fsmark-[0-9]*' | sed 's/.*-//' | sort -un >/tmp/k.got
	missing=$(awk -v n="$need" '{ got[$1] = 1 }
		END { for (i = 1; i <= n && m < 5; i++) if (!(i in got)) { printf "%d ", i; m++ } }' /tmp/k.got)
	echo "killed written=$(wc -l </tmp/k.log) need=$need got=$(wc -l </tmp/k.got) missing=${missing:-none}"
	cp /mnt/k.dat /tmp/$fs-k.dat
	echo "end uptime=$(now)"
	umount /mnt
	rm -f /tmp/$fs.img
}

for fs in vfat exfat; do
	onfs $fs
done
echo "== end"
# lab_export moves about 200 KB a second and each file is about 1 MB (the
# guest's kallsyms): two come back, not four. They cover the end of a
# capture (vfat) and ftc restore (exfat), each on one driver; ftc report
# in the guest read all four.
# A file that kept its zero-filled regions (64 MB) would take minutes.
for f in /tmp/vfat-c.dat /tmp/exfat-k.dat; do
	[ -f "$f" ] || continue
	if [ "$(stat -c %s "$f")" -lt 4194304 ]; then
		lab_export "$f"
	else
		echo "not exported: $f has $(stat -c %s "$f") bytes"
	fi
done
EOF

# num TEXT KEY: the number after the first " KEY=" (or one at a line's start) in TEXT.
num() { printf '%s\n' "$1" | grep -oE "(^| )$2=[0-9]+" | head -1 | cut -d= -f2; }

for fs in $FSES; do
	[ -f "$D/$fs.img.gz" ] || continue
	n="lab $NAME: $fs"
	out=$(lab_section "$fs")
	if ! printf '%s\n' "$out" | grep -q '^mounted '; then
		if printf '%s\n' "$out" | grep -q "^no $fs driver"; then
			skip "$n" "the lab kernel has no $fs driver (modules: $(tr '\n' ' ' <"$MODS/modules.list"))"
		else
			fail "$n: the image mounts in the guest" "$(printf '%s' "$out" | head -3)"
		fi
		continue
	fi
	pass "$n: the image mounts in the guest with the real driver"
	free=$(num "$out" free)
	line=$(printf '%s\n' "$out" | grep '^clean ')

	expect_match "$n: ftc record ends with 0" '^clean status=0$' "$out"
	big=$(num "$line" max_size)
	if [ -n "$big" ] && [ "$big" -gt 0 ] && [ "$big" -le "$free" ]; then
		pass "$n: the file never looks larger than the free space ($big <= $free bytes)"
	else
		fail "$n: the file never looks larger than the free space" "${big:-?} > $free bytes"
	fi
	marks=$(num "$line" marks)
	if [ "$marks" = 100 ]; then
		pass "$n: ftc report reads the 100 marks and $(num "$line" switches) sched_switch"
	else
		fail "$n: ftc report reads the 100 marks" "${marks:-?}: $(printf '%s\n' "$line" | grep report)"
	fi
	size=$(num "$line" size)
	after=$(num "$line" free_after)
	# The slots were allocated and zeroed: the end cuts them off and the
	# file system has its clusters back (all but the file and a cluster).
	if [ -n "$size" ] && [ "$size" -lt $((4 << 20)) ] && [ "$after" -ge $((free - size - (1 << 20))) ]; then
		pass "$n: the finished file is small and the space is back ($size bytes, $after of $free free)"
	else
		fail "$n: the finished file is small and the space is back" \
			"${size:-?} bytes, ${after:-?} of $free free"
	fi

	line=$(printf '%s\n' "$out" | grep -E '^(killed|restore|restored) ')
	big=$(num "$line" max_size)
	if [ -n "$big" ] && [ "$big" -gt 0 ] && [ "$big" -le "$free" ]; then
		pass "$n: the killed capture never looked larger than the free space ($big <= $free bytes)"
	else
		fail "$n: the killed capture never looked larger than the free space" "${big:-?} > $free bytes"
	fi
	expect_match "$n: ftc restore finishes the killed file" '^restore status=0$' "$out"
	need=$(num "$line" need)
	if [ -n "$need" ] && [ "$need" -ge 50 ] && printf '%s\n' "$line" | grep -q 'missing=none$'; then
		pass "$n: every mark older than 1.5 s is in the restored file ($need wanted, $(num "$line" got) found)"
	else
		fail "$n: every mark older than 1.5 s is in the restored file" \
			"$(printf '%s\n' "$line" | grep '^killed written')"
	fi
	size=$(num "$(printf '%s\n' "$line" | grep '^restored')" size)
	after=$(num "$(printf '%s\n' "$line" | grep '^restored')" free_after)
	if [ -n "$size" ] && [ "$size" -lt $((4 << 20)) ] && [ "$after" -ge $((free - size - (1 << 20))) ]; then
		pass "$n: the restored file is small and the space is back ($size bytes, $after of $free free)"
	else
		fail "$n: the restored file is small and the space is back" \
			"${size:-?} bytes, ${after:-?} of $free free"
	fi

	command -v trace-cmd >/dev/null || { skip "$n: trace-cmd reads the files" "no trace-cmd"; continue; }
	case $fs in vfat) kind=c what=finished want=100 ;; *) kind=k what=restored want=$need ;; esac
	if ! lab_file "$NAME" "/tmp/$fs-$kind.dat" "$D/$fs-$kind.dat" 2>"$D/last.err"; then
		fail "$n: the $what file comes back" \
			"$(grep "^not exported: /tmp/$fs-$kind.dat" "$LAB_OUTPUT" || cat "$D/last.err")"
		continue
	fi
	got=$(trace-cmd report -i "$D/$fs-$kind.dat" 2>"$D/tc.err" | grep -c 'fsmark-')
	if [ "$got" -gt 0 ] && [ "$got" -ge "${want:-1}" ]; then
		pass "$n: trace-cmd reads the $what file ($got marks)"
	else
		fail "$n: trace-cmd reads the $what file" "$got marks of ${want:-?}: $(head -c 300 "$D/tc.err")"
	fi
done
finish
