# SPDX-License-Identifier: GPL-2.0-or-later
# A 32-bit board: Debian's armmp 6.1 kernel on qemu-system-arm -M virt
# (one vCPU, see lab.bash) runs ftc-static-armhf. Its ring buffer's
# sub-buffer header has a 32-bit commit field (local_t), and a page that
# lost events stores the count as a 32-bit long. A capture that loses
# events on purpose (a 4 KB buffer, every event) comes back to the x86
# host, where ftc report prints and counts the drops as trace-cmd does,
# and --stat's lost column adds them up.
. "$(dirname "$0")/../lib.sh"
LAB_ARCH=armhf
. "$(dirname "$0")/lab.bash"

LAB_TIMEOUT=90 lab_run armhf - <<'EOF' || finish
echo "== board"
uname -m
grep -E 'commit|data' /sys/kernel/tracing/events/header_page
echo "== record"
ftc record -b 4 -e all -o /tmp/h.dat -- \
	sh -c 'i=0; while [ $i -lt 120 ]; do ls / >/dev/null; i=$((i+1)); done' >/tmp/rec.out 2>&1
echo "status=$?"
tr '\r' '\n' </tmp/rec.out | grep '^ftc record: '
echo "== end"
lab_export /tmp/h.dat
EOF

s=$(lab_section board)
expect_match "lab armhf: the guest is a 32-bit Arm board" '^armv7l$' "$s"
expect_match "lab armhf: its sub-buffer commit field is 32-bit" \
	'field: local_t commit;.*size:4;' "$s"
s=$(lab_section record)
expect_match "lab armhf: ftc record exits 0" '^status=0$' "$s"
lost=$(printf '%s\n' "$s" | sed -n 's/^ftc record: [0-9]* events, \([0-9]*\) lost .*/\1/p')
expect_match "lab armhf: the 4 KB buffer lost events ($lost)" '^[1-9][0-9]*$' "$lost"
dat=$OUT/lab-armhf.dat
if ! lab_file armhf /tmp/h.dat "$dat" 2>"$OUT/last.err"; then
	fail "lab armhf: the trace.dat comes back" "$(cat "$OUT/last.err")"
	finish
fi
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
expect_match "lab armhf: x86 ftc report marks drops ($d_ftc: markers, sum, without count)" \
	'^[1-9][0-9]* [1-9][0-9]* [0-9]+$' "$d_ftc"
expect_match "lab armhf: trace-cmd reads the 32-bit capture with the same drops ($d_tc)" \
	"^$d_ftc\$" "$d_tc"
n_ftc=$("$FTC" report "$dat" 2>&1 | grep -c ' sched_switch: ')
n_tc=$(trace-cmd report "$dat" 2>/dev/null | grep -c ' sched_switch: ')
expect_match "lab armhf: ... and as many sched_switch ($n_tc, ftc $n_ftc)" "^$n_ftc\$" "$n_tc"
st=$("$FTC" report --stat "$dat" 2>&1)
set -- $d_ftc
expect_match "lab armhf: --stat's lost column is the drops' sum ($2)" \
	"^\\(top\\) +0 +[0-9]+ +$2 +[0-9]+ +$lost " "$st"
if [ "$3" != 0 ]; then
	expect_match "lab armhf: --stat counts the pages whose count was not stored ($3)" \
		"^pages with an unknown number of lost events: $3\$" "$st"
fi
finish
