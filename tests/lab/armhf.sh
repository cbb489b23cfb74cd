# SPDX-License-Identifier: GPL-2.0-or-later
# A 32-bit board: Debian's armmp 6.1 kernel on qemu-system-arm -M virt
# (one vCPU, see lab.bash) runs ftc-static-armhf. Its ring buffer's
# sub-buffer header has a 32-bit commit field (local_t), and a page that
# lost events stores the count, where it fits, as a 32-bit long. A capture
# that loses events on purpose (an 8 KB buffer, every event, no reader:
# ftc start, then ftc extract) comes back to the x86 host, where ftc
# report marks the drops as trace-cmd does and --stat shows the board's
# overrun.
. "$(dirname "$0")/../lib.sh"
LAB_ARCH=armhf
. "$(dirname "$0")/lab.bash"

LAB_TIMEOUT=90 lab_run armhf - <<'EOF' || finish
echo "== board"
uname -m
grep -E 'commit|data' /sys/kernel/tracing/events/header_page
echo "== record"
# No reader while it runs: the 8 KB buffer overwrites, deterministically.
ftc start -q -b 8 -e all
sh -c 'i=0; while [ $i -lt 20 ]; do ls / >/dev/null; i=$((i+1)); done'
ftc stop
ftc extract -q -o /tmp/h.dat
echo "status=$?"
grep '^overrun' /sys/kernel/tracing/per_cpu/cpu0/stats
echo "== end"
lab_export /tmp/h.dat
EOF

s=$(lab_section board)
expect_match "lab armhf: the guest is a 32-bit Arm board" '^armv7l$' "$s"
expect_match "lab armhf: its sub-buffer commit field is 32-bit" \
	'field: local_t commit;.*size:4;' "$s"
s=$(lab_section record)
expect_match "lab armhf: ftc extract exits 0" '^status=0$' "$s"
lost=$(printf "%s\n" "$s" | sed -n "s/^overrun: \([0-9]*\)$/\1/p")
expect_match "lab armhf: the 8 KB buffer overran ($lost events)" '^[1-9][0-9]*$' "$lost"
dat=$OUT/lab-armhf.dat
lab_fetch armhf /tmp/h.dat "$dat" "lab armhf: the trace.dat"
# A drop marker: trace-cmd's "CPU:0 [141 EVENTS DROPPED]", ftc's "CPU 0:
# [LOST 141 EVENTS]", without the number when the page had no room for it.
# Prints the markers, the sum of the counts, the count-less ones.
drops() {
	awk '/\[([0-9]+ )?EVENTS DROPPED\]|\[LOST ([0-9]+ )?EVENTS\]/ {
			n++
			if (match($0, /\[(LOST )?[0-9]+ /)) {
				t = substr($0, RSTART, RLENGTH); gsub(/[^0-9]/, "", t); s += t
			} else
				u++
		}
		END { printf "%d %d %d\n", n, s, u }'
}
d_ftc=$("$FTC" report "$dat" 2>&1 | drops)
d_tc=$(trace-cmd report "$dat" 2>/dev/null | drops)
set -- $d_ftc
expect_match "lab armhf: x86 ftc report marks the drops ($1 markers, $2 events counted, $3 without a count)" \
	'^[1-9][0-9]* [0-9]+ [0-9]+$' "$d_ftc"
expect_match "lab armhf: trace-cmd reads the 32-bit capture with the same drops ($d_tc)" \
	"^$d_ftc\$" "$d_tc"
n_ftc=$("$FTC" report "$dat" 2>&1 | grep -c ' sched_switch: ')
n_tc=$(trace-cmd report "$dat" 2>/dev/null | grep -c ' sched_switch: ')
expect_match "lab armhf: ... and as many sched_switch ($n_tc, ftc $n_ftc)" "^$n_ftc\$" "$n_tc"
# instance cpu records lost markers entries overrun: the 32-bit board's
# CPU stats, stored in the file, are the guest's.
st=$("$FTC" report --stat "$dat" 2>&1)
expect_match "lab armhf: --stat: lost is the markers' sum, the overrun the board's ($lost)" \
	"^\\(top\\) +0 +[0-9]+ +$2 +$1 +[0-9]+ +$lost " "$st"
if [ "$3" != 0 ]; then
	expect_match "lab armhf: --stat counts the markers without a count ($3)" \
		"^lost-event markers without a count: $3 " "$st"
fi
finish
