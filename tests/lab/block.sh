# SPDX-License-Identifier: GPL-2.0-or-later
# ftc block against a known load on a loop device in the lab: a
# program writes 200 x 64 KB with O_DIRECT to /dev/loop0, and `ftc block
# size` puts 200 requests in the 64K -> 128K bucket of the loop device (the
# kernel splits none: 64 KB is below its limits), latency counts 200
# writes, and snoop names the writer. Then the slow disk of the scheduling
# test, a dm-delay target with 30 ms of delay over the loop device: a dm
# device is bio-based (no requests), so its bios are timed from
# block_bio_queue to block_bio_complete, and live, `ftc block latency -m --
# dio` puts each of 20 reads in 16 ms -> 64 ms, 30 ms or so on average.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

NAME="lab block"
D=$(mktemp -d /tmp/ftc-labblock.XXXXXX)
trap 'rm -rf "$D"' EXIT
if ! MODS=$("$TOP/scripts/lab-kernel" --modules 2>"$D/mods.err"); then
	skip "$NAME" "no lab kernel modules: $(tail -1 "$D/mods.err")"
	finish
fi
# dio PATH w|r COUNT SIZE: COUNT O_DIRECT writes or reads of SIZE bytes
cat >"$D/dio.c" <<'EOF'
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	int w = argc > 2 && argv[2][0] == 'w', n = argc > 3 ? atoi(argv[3]) : 0;
	size_t size = argc > 4 ? (size_t)atol(argv[4]) : 4096;
	int fd = argc > 1 ? open(argv[1], (w ? O_WRONLY : O_RDONLY) | O_DIRECT) : -1;
	void *b;

	if (fd < 0 || posix_memalign(&b, 4096, size))
		return 1;
	memset(b, 0x5a, size);
	for (int i = 0; i < n; i++)
		if ((w ? pwrite(fd, b, size, (off_t)i * size) : pread(fd, b, size, (off_t)i * size)) !=
		    (ssize_t)size)
			return 1;
	return close(fd) ? 1 : 0;
}
EOF
if ! cc -static -O2 -o "$D/dio" "$D/dio.c" 2>"$D/cc.err"; then
	skip "$NAME" "cannot build a static program: $(tail -1 "$D/cc.err")"
	finish
fi
args=("$MODS=/lab/mod" "$D/dio=/lab/dio")
if command -v dmsetup >/dev/null; then
	mapfile -t -O "${#args[@]}" args < <(lab_binary_files dmsetup dmsetup)
fi

LAB_TIMEOUT=120 lab_run block - "${args[@]}" <<'EOF' || finish
for m in $(cat /lab/mod/modules.list); do
	insmod /lab/mod/$m.ko 2>/dev/null || echo "insmod $m failed"
done
dd if=/dev/zero of=/tmp/disk.img bs=1M count=16 2>/dev/null
losetup /dev/loop0 /tmp/disk.img
echo "loop=$(cat /sys/block/loop0/dev)"
echo "== write"
ftc record -q -e block -o /tmp/w.dat -- /lab/dio /dev/loop0 w 200 65536
echo "record=$?"
ftc block size --dev "$(cat /sys/block/loop0/dev)" /tmp/w.dat
ftc block latency --dev "$(cat /sys/block/loop0/dev)" /tmp/w.dat | head -1
ftc block snoop --dev "$(cat /sys/block/loop0/dev)" /tmp/w.dat | tail -1
echo "== slow"
echo "0 8192 delay /dev/loop0 0 30" | DM_DISABLE_UDEV=1 dmsetup create slow --noudevsync
echo "dmsetup=$?"
dm=$(cat /sys/block/dm-0/dev)
echo "dm=$dm"
ftc block latency -m --dev "$dm" -- /lab/dio /dev/mapper/slow r 20 4096
echo "block=$?"
DM_DISABLE_UDEV=1 dmsetup remove slow --noudevsync
losetup -d /dev/loop0
echo "== end"
EOF

loop=$(sed -n 's/^loop=//p' "$LAB_OUTPUT")
w=$(lab_section write)
expect_match "$NAME: ftc record -e block of the writes exits 0" '^record=0$' "$w"
expect_match "$NAME: size: the 200 writes of 64 KB in the 64K -> 128K bucket of $loop" \
	'^ +64K -> 128K +200  \|' "$w"
expect_match "$NAME: latency counts them on $loop" "^# device $loop: 200 requests \\(0 reads, 200 writes, 0 errors\\)" "$w"
expect_match "$NAME: snoop names the writer" "^ *[0-9.]+ dio +[0-9]+ +$loop +W" "$w"

if ! command -v dmsetup >/dev/null; then
	skip "$NAME: dm-delay" "dmsetup is not installed"
	finish
fi
slow=$(lab_section slow)
dm=$(sed -n 's/^dm=//p' <<<"$slow")
expect_match "$NAME: dmsetup makes the 30 ms delay target" '^dmsetup=0$' "$slow"
expect_match "$NAME: live, ftc block -- dio exits with its status (0)" '^block=0$' "$slow"
expect_match "$NAME: $dm is bio-based: its 20 reads timed as bios" \
	"^# device $dm \\(bio-based: bios queued to completed\\): 20 bios \\(20 reads" "$slow"
# dm-delay holds a bio 30 ms: 6.1 by whole jiffies (32-36 ms at 250 Hz),
# 6.12 by a timer (30-35 ms, some in 16ms -> 32ms). ftc times it by the
# trace clock: in a TCG guest a stalled vCPU's jiffies catch up in a burst,
# and a bio can leave early by the clock (P13: one of 20 in 4ms -> 8ms, on
# a quiet host). All 20 are counted, none past 64 ms, at least 18 in 16ms
# -> 64ms, and their average is 28 to 48 ms.
rows=$(grep -E '^ +[0-9.]+[mun]?s? -> ' <<<"$slow")
total=$(awk '{ n += $4 } END { print n + 0 }' <<<"$rows")
in_bucket=$(awk '($1 == "16ms" || $1 == "32ms") && ($3 == "32ms" || $3 == "64ms") { n += $4 }
	END { print n + 0 }' <<<"$rows")
late=$(awk '$4 > 0 && ($3 ~ /[0-9]s$/ && $3 !~ /ms$/ || $3 + 0 > 64 && $3 ~ /ms$/)' <<<"$rows")
avg=$(sed -nE "s/^# device $dm .*latency: average ([0-9.]+) ms.*/\1/p" <<<"$slow")
[ "$total" = 20 ] && [ "${in_bucket:-0}" -ge 18 ] && [ -z "$late" ] &&
	awk -v a="$avg" 'BEGIN { exit !(a != "" && a >= 28 && a <= 48) }' &&
	pass "$NAME: the 20 bios counted, ${in_bucket} in 16ms -> 64ms, none later, average $avg ms" ||
	fail "$NAME: the 20 bios in 16ms -> 64ms, average 28 to 48 ms" "average '$avg' ms; $rows"
finish
