# SPDX-License-Identifier: GPL-2.0-or-later
# A 32-bit board: Debian's armmp 6.1 kernel on qemu-system-arm -M virt
# (one vCPU, see lab.bash) runs ftc-static-armhf. Its ring buffer's
# sub-buffer header has a 32-bit commit field (local_t), and a page that
# lost events stores the count, where it fits, as a 32-bit long. A capture
# that loses events on purpose (an 8 KB buffer, every event, no reader:
# ftc start, then ftc extract) comes back to the x86 host, where ftc
# report marks the drops as trace-cmd does and --stat shows the board's
# overrun. Before it, ftc record with perf samples and counters beside the
# events (--sample cpu-clock --counters task-clock): the pages ftc packs
# for them must carry the board's 12-byte sub-buffer header, or every
# reader of the file, which walks all its buffers with that one header,
# misreads them; on the host ftc report shows them whole and trace-cmd
# reads as many kernel events, samples and readings in the same file.
. "$(dirname "$0")/../lib.sh"
LAB_ARCH=armhf
. "$(dirname "$0")/lab.bash"

LAB_TIMEOUT=150 lab_run armhf - <<'EOF' || finish
echo "== board"
uname -m
grep -E 'commit|data' /sys/kernel/tracing/events/header_page
echo "== sample"
# A busy shell for a second or so of the emulated CPU.
ftc record -e sched:sched_switch -e sched:sched_process_exec -e sched:sched_process_exit \
	--sample cpu-clock --freq 999 --counters task-clock,page-faults --interval-print 100 \
	-o /tmp/s.dat -- sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done' 2>/tmp/s.err
echo "status=$?"
cat /tmp/s.err
lab_export /tmp/s.dat
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

# record --sample --counters on the board, read on the host.
s=$(lab_section sample)
expect_match "lab armhf: ftc record --sample --counters exits 0" '^status=0$' "$s"
expect_match "lab armhf: ... and sums up its samples and readings" \
	'[1-9][0-9]* samples of cpu-clock, 0 lost, [1-9][0-9]* counter readings' "$s"
sdat=$OUT/lab-armhf-sample.dat
lab_fetch armhf /tmp/s.dat "$sdat" "lab armhf: the sampled trace.dat"
"$FTC" report "$sdat" >"$OUT/lab-armhf-sample.ftc" 2>&1
trace-cmd report "$sdat" >"$OUT/lab-armhf-sample.tc" 2>/dev/null
# kernel events, samples, counter readings, as each reader prints them
tally() {
	awk '/ sched_(switch|process_exec|process_exit): / { k++ }
		/ sample: +ip=0x/ { s++ } / counter: +[a-z-]+=/ { c++ }
		END { printf "%d %d %d\n", k, s, c }' "$1"
}
# The same records field by field: time, event, and a sample's ip, tid and
# period or a reading's value (the readers space and symbolize differently).
fields() {
	awk '/ (sched_[a-z_]+|sample|counter): / {
			out = ""
			for (i = 1; i <= NF; i++)
				if ($i ~ /^[0-9]+\.[0-9]+:$/ || $i ~ /^[a-z_]+:$/ && $i != "ftc_perf:" ||
				    $i ~ /^(ip|tid|period|pid)=/ || $i ~ /^[^=]+:[0-9]+$/ ||
				    $i ~ /^[a-z-]+=[0-9]+$/ && $i !~ /^(enabled|running)=/)
					out = out " " $i
			print out
		}' "$1"
}
t_ftc=$(tally "$OUT/lab-armhf-sample.ftc")
t_tc=$(tally "$OUT/lab-armhf-sample.tc")
expect_match "lab armhf: ftc report reads the board's events, samples and readings ($t_ftc)" \
	'^[1-9][0-9]* [1-9][0-9]* [1-9][0-9]*$' "$t_ftc"
expect_match "lab armhf: trace-cmd reads as many of each in the same file ($t_tc)" \
	"^$t_ftc\$" "$t_tc"
fields "$OUT/lab-armhf-sample.ftc" >"$OUT/lab-armhf-sample.ftc.f"
fields "$OUT/lab-armhf-sample.tc" >"$OUT/lab-armhf-sample.tc.f"
d=$(diff "$OUT/lab-armhf-sample.ftc.f" "$OUT/lab-armhf-sample.tc.f" | head -4)
[ -s "$OUT/lab-armhf-sample.ftc.f" ] && [ -z "$d" ] &&
	pass "lab armhf: ... with the same times, ips, tids, periods and values ($(wc -l <"$OUT/lab-armhf-sample.tc.f") records)" ||
	fail "lab armhf: ftc and trace-cmd read the same records" "${d:-nothing read}"
# Intact: every sample is the command's, with a period; user-mode ones
# (below the 3 GB kernel split) lie between its exec and its exit.
rep=$OUT/lab-armhf-sample.ftc
pid=$(awk '/ sched_process_exec:/ { sub(/.*pid=/, ""); print $1; exit }' "$rep")
tsof='{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { printf "%.6f\n", $i + 0; break } }'
exec_ts=$(grep -m1 " sched_process_exec:.*pid=$pid " "$rep" | awk "$tsof")
exit_ts=$(grep -m1 " sched_process_exit:.*pid=$pid " "$rep" | awk "$tsof")
grep ' sample: *ip=0x' "$rep" >"$OUT/lab-armhf-samples.txt"
out=$(awk -v pid="$pid" '{ n++ } $0 ~ "-" pid " " && / period=[1-9]/ { ok++ }
	END { printf "%d %d\n", n, ok }' "$OUT/lab-armhf-samples.txt")
expect_match "lab armhf: every sample is the command's (pid $pid) with a period ($out)" \
	'^([1-9][0-9]*) \1$' "$out"
out=$(grep -v ' ip=0x[c-f][0-9a-f]\{7\} ' "$OUT/lab-armhf-samples.txt" | awk "$tsof" |
	awk -v a="$exec_ts" -v b="$exit_ts" '{ n++; if ($1 <= a || $1 >= b) bad++ }
		END { printf "%d %d\n", n, bad }')
expect_match "lab armhf: user samples fall between exec ($exec_ts) and exit ($exit_ts): $out" \
	'^[1-9][0-9]* 0$' "$out"
out=$(sed -n 's/.* counter: task-clock=\([0-9]*\) .*/\1/p' "$rep" |
	awk '{ n++; if ($1 + 0 < last + 0) bad++; last = $1 } END { printf "%d %d %s\n", n, bad, last }')
expect_match "lab armhf: task-clock readings grow (count, decreases, last ns: $out)" \
	'^[1-9][0-9]* 0 [1-9][0-9]*$' "$out"
# The busy command had the one CPU from its exec to its exit: its
# task-clock total is about that span.
set -- $out
awk -v t="$3" -v a="$exec_ts" -v b="$exit_ts" \
	'BEGIN { s = (b - a) * 1e9; exit !(a != "" && b != "" && t >= 0.5 * s && t <= 1.2 * s) }' &&
	pass "lab armhf: task-clock's total ($3 ns) is about the command's life ($exec_ts to $exit_ts)" ||
	fail "lab armhf: task-clock's total is about the command's life" "$3 ns, exec $exec_ts, exit $exit_ts"

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
