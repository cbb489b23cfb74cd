# SPDX-License-Identifier: GPL-2.0-or-later
# A user records a trace and perf samples of a CPU-bound program in one
# go (ftc record --sample ... --counters ...): the samples land in instance
# ftc_perf of the same trace.dat, on the trace's clock; trace-cmd reads
# the file, ftc report interleaves samples with the trace and names the
# hot function; a tracepoint counted with perf equals the trace's count.
. "$(dirname "$0")/../lib.sh"
# Files of our own: other test scripts may run at the same time.
OUT="$OUT/record-sample.$$"
mkdir -p "$OUT"
trap '[ "$T_FAILED" = 0 ] && rm -rf "$OUT"' EXIT

command -v cc >/dev/null || { skip "record --sample" "no C compiler to build the hot program"; finish; }
build_hot "$OUT/hot" || { fail "build hot" "cc failed"; finish; }
knobs_save
inst=$(test_instance rsample)
dat="$OUT/sample.dat"

expect_status "record --sample --counters exits 0" 0 "$FTC" record -B "$inst" \
	-e sched:sched_switch -e sched:sched_process_exec -e sched:sched_process_exit \
	--sample cpu-clock --freq 999 --call-graph fp --counters task-clock,page-faults \
	--interval-print 100 -o "$dat" -- "$OUT/hot" 1 0 kernel
cp "$OUT/last.err" "$OUT/rec.err"
expect_match "summary names the samples and the shared clock" \
	"[0-9]+ samples of cpu-clock, 0 lost, [0-9]+ counter readings in instance ftc_perf, on trace clock 'local'" \
	"$(cat "$OUT/rec.err")"

# trace-cmd, the reference reader, opens the file and prints both buffers.
if command -v trace-cmd >/dev/null; then
	expect_status "trace-cmd report reads the file" 0 trace-cmd report "$dat"
	cp "$OUT/last.out" "$OUT/tc.txt"
	cp "$OUT/last.err" "$OUT/tc.err"
	n=$(grep -c ' sample: *ip=0x' "$OUT/tc.txt")
	[ "$n" -ge 200 ] && pass "trace-cmd prints the samples ($n)" ||
		fail "trace-cmd prints the samples" "$n sample lines: $(head -3 "$OUT/tc.err")"
	expect_match "trace-cmd prints the trace's events too" 'sched_process_exec: +filename=' \
		"$(cat "$OUT/tc.txt")"
else
	skip "trace-cmd report" "trace-cmd is not installed"
fi

expect_status "ftc report reads the file" 0 "$FTC" report "$dat"
cp "$OUT/last.out" "$OUT/rep.txt"
pid=$(awk '/sched_process_exec:/ && /hot/ { sub(/.*pid=/, ""); print $1; exit }' "$OUT/rep.txt")
# ts of a line: the field "SECONDS.USECS:".
tsof='{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { printf "%.6f\n", $i + 0; break } }'
exec_ts=$(grep -m1 "sched_process_exec:.*pid=$pid " "$OUT/rep.txt" | awk "$tsof")
exit_ts=$(grep -m1 "sched_process_exit:.*pid=$pid " "$OUT/rep.txt" | awk "$tsof")
grep "^ftc_perf: .*-$pid .* sample: " "$OUT/rep.txt" >"$OUT/samples.txt"
n=$(wc -l <"$OUT/samples.txt")
[ -n "$pid" ] && [ "$n" -ge 200 ] && pass "ftc report shows the command's samples ($n, pid $pid)" ||
	fail "ftc report shows the command's samples" "pid '$pid', $n samples"

# Same clock: every sample of the command's own code lies between its exec
# and its exit as the trace saw them. Ordered by the kernel, not by a margin:
# user code of the new image runs only after execve has passed its
# sched_process_exec tracepoint, and no more after exit_group has reached
# sched_process_exit. (Kernel-mode samples are left out: enable_on_exec
# starts sampling inside execve, before its tracepoint.)
if [ -n "$exec_ts" ] && [ -n "$exit_ts" ]; then
	out=$(grep -v ' ip=0xffff' "$OUT/samples.txt" | awk "$tsof" | awk -v a="$exec_ts" -v b="$exit_ts" \
		'{ n++; if ($1 <= a || $1 >= b) bad++; if (!first) first = $1; last = $1 }
		 END { printf "%d %d %.6f %.6f\n", n, bad, first - a, b - last }')
	set -- $out
	[ "$1" -gt 0 ] && [ "$2" = 0 ] &&
		pass "user samples fall between exec and exit of the command ($1, first +$3 s, last -$4 s)" ||
		fail "user samples fall between exec and exit of the command" "$2 of $1 outside; exec $exec_ts exit $exit_ts; $out"
else
	fail "samples fall between exec and exit" "no exec/exit event of pid '$pid' in the trace"
fi

# Interleaved: the report's timestamps never go back, across both buffers.
bad=$(awk "$tsof" "$OUT/rep.txt" | awk '{ if ($1 < last) bad++; last = $1 } END { print bad + 0 }')
mixed=$(awk '/^ftc_perf: .* sample: / { s = 1 } s && !/^ftc_perf:/ && / sched_switch: / { print "y"; exit }' "$OUT/rep.txt")
[ "$bad" = 0 ] && [ "$mixed" = y ] && pass "samples and trace events interleave in time order" ||
	fail "samples and trace events interleave in time order" "$bad steps back, mixed '$mixed'"

# Symbolized from the mmap records in the file: the hot function dominates.
hot=$(grep -c ' sample: ip=0x[0-9a-f]* hot_function+0x[0-9a-f]* \[hot\]' "$OUT/samples.txt")
awk -v h="$hot" -v n="$n" 'BEGIN { exit !(n > 0 && h >= 0.9 * n) }' &&
	pass "hot_function holds >= 90% of the command's samples ($hot of $n)" ||
	fail "hot_function holds >= 90% of the samples" "$hot of $n: $(grep -v hot_function "$OUT/samples.txt" | head -3)"
expect_match "kernel frames resolve from the kallsyms in the file" \
	' sample: ip=0xffff[0-9a-f]+ [a-z_][a-zA-Z0-9_.]*\+0x[0-9a-f]+ \[k\]' "$(cat "$OUT/rep.txt")"

# Counter readings: every 100 ms, task-clock growing, on the trace's clock,
# and its total agrees with the CPU time the cpu-clock samples stand for.
grep ' counter: task-clock=' "$OUT/rep.txt" >"$OUT/cnt.txt"
periods=$(sed -n 's/.* period=\([0-9]*\).*/\1/p' "$OUT/samples.txt" | awk '{ t += $1 } END { print t + 0 }')
out=$(sed 's/.*task-clock=\([0-9]*\).*/\1/' "$OUT/cnt.txt" |
	awk '{ if ($1 < last) bad++; last = $1; n++ } END { print n + 0, bad + 0, last + 0 }')
set -- $out
awk -v n="$1" -v bad="$2" -v last="$3" -v p="$periods" \
	'BEGIN { exit !(n >= 8 && bad == 0 && p > 0 && last >= 0.85 * p && last <= 1.15 * p) }' &&
	pass "task-clock read $1 times, never decreasing, $3 ns vs $periods ns of samples" ||
	fail "task-clock readings" "count $1, decreases $2, last $3, samples' periods $periods"
# A command's counters start at its exec (enable_on_exec), so no reading
# may come before it: the kernel's own time_enabled says whether the
# counter had started when it was read. The last reading is taken at stop,
# after ftc reaped the command, which the exit tracepoint precedes.
unstarted=$(grep -c ' enabled=0 ' "$OUT/cnt.txt")
[ "$unstarted" = 0 ] && pass "no counter reading before the command's exec (enabled > 0 in all)" ||
	fail "no counter reading before the command's exec" "$unstarted readings with enabled=0: $(grep -m1 ' enabled=0 ' "$OUT/cnt.txt")"
last_c=$(tail -1 "$OUT/cnt.txt" | awk "$tsof")
awk -v c="$last_c" -v b="$exit_ts" 'BEGIN { exit !(b != "" && c > b) }' &&
	pass "the last counter reading follows the command's exit ($exit_ts < $last_c)" ||
	fail "the last counter reading follows the command's exit" "exit $exit_ts, reading $last_c"
