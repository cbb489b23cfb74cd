# SPDX-License-Identifier: GPL-2.0-or-later
# ftc top's own CPU use against trace-cmd stream, side by side on the same
# load (getppid calls, raw_syscalls:sys_enter, one event per call) at about
# 100 K and 1 M events/s, runs alternating between the two, medians:
#   - CPU seconds of the tool per second of load, and per event;
#   - the events it saw (ftc top: the getppid row of its last table, --comm topgen;
#     trace-cmd stream: its getppid lines, anyone's) against the calls made.
# ftc top counts in its own instance (--no-hist: the ring buffer, the
# expensive path); trace-cmd stream formats every event as text into
# /dev/null, in the top-level buffer (it has no instance option there),
# run as bench/record.sh runs trace-cmd (a private mount namespace hides
# the function-tracer knobs it insists on writing). perf top samples the
# same tracepoint with -c 1 (every event through its perf ring buffer) and
# shows shares per formatted event, not counts: only its CPU is compared.
# The loss baseline: ftc record of the same event on the same load, in an
# instance of its own with the same (default) buffer size as ftc top's; its
# loss is the kernel's count (its summary), ftc top's the calls it missed.
# Not a test.
#   RUNS=N (3) SECS=N (3) RATES="total calls/s ..." ("100000 1000000")
#   TC=0: without trace-cmd stream, PERF=0: without perf top
set -u
. "$(dirname "$0")/lib.sh"
RUNS=${RUNS:-3}
SECS=${SECS:-3}
RATES=${RATES:-"100000 1000000"}
T=/sys/kernel/tracing
NCPU=$(nproc)

command -v python3 >/dev/null || { echo "top bench: needs python3 (CPU times)"; exit 0; }
[ -w $T/instances ] || { echo "top bench: needs root and tracefs"; exit 0; }

# The load: NCPU threads, RATE/NCPU calls/s each, for SECS; prints the calls
# made. Its comm is topgen (ftc top's --comm).
build_rate_gen "$OUT/topgen" || exit 0

# trace-cmd stream works in the top level and, when it hangs at exit (it
# does at 1 M events/s: killed after 3 s), leaves its event enabled there.
saved_kb=$(cat $T/buffer_size_kb)
saved_on=$(cat $T/tracing_on)
saved_ev=$(cat $T/events/raw_syscalls/sys_enter/enable)
restore_top() {
	echo "$saved_kb" > $T/buffer_size_kb; echo "$saved_on" > $T/tracing_on
	echo "${saved_ev%\*}" > $T/events/raw_syscalls/sys_enter/enable
}
trap restore_top EXIT
echo 1 > "$OUT/fe"; : > "$OUT/null_f"

# cputime OUTFILE COMMAND...: runs it (stdout to OUTFILE), writes its CPU
# seconds (children included) into $OUT/time.
cputime() {
	python3 -c 'import resource, subprocess, sys
with open(sys.argv[2], "w") as out:
    subprocess.run(sys.argv[3:], stdout=out, stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write("%.6f\n" % (r.ru_utime + r.ru_stime))' "$OUT/time" "$@"
}

# run ftc|tc RATE: one run; prints "calls seen cpu_s".
run() {
	local who=$1 rate=$2 seen
	if [ "$who" = ftc ]; then
		cputime "$OUT/top.out" "$FTC" top --batch --delay 1 --iterations $((SECS + 3)) \
			--no-hist -e raw_syscalls:sys_enter --view syscall --comm topgen &
	elif [ "$who" = record ]; then
		# the loss baseline: ftc record of the same event into a fresh
		# instance, whose buffer is as large as ftc top's
		cputime "$OUT/top.out" sh -c "timeout -s INT -k 3 $((SECS + 3)) $FTC record \
			-B ftc-top-bench-$$ -e raw_syscalls:sys_enter -o $OUT/top.dat 2>&1" &
	elif [ "$who" = perf ]; then
		cputime "$OUT/top.out" timeout -s INT -k 3 $((SECS + 3)) perf top \
			-e raw_syscalls:sys_enter -c 1 --stdio -d 1 </dev/null &
	else
		cputime "$OUT/top.out" timeout -s INT -k 3 $((SECS + 3)) unshare -m sh -c '
			mount --bind '"$OUT"'/fe /proc/sys/kernel/ftrace_enabled
			for f in set_ftrace_filter set_ftrace_notrace set_ftrace_pid set_graph_function \
				 set_graph_notrace set_ftrace_notrace_pid; do
				[ -e '"$T"'/$f ] && mount --bind '"$OUT"'/null_f '"$T"'/$f
			done
			exec trace-cmd stream -e raw_syscalls:sys_enter' &
	fi
	sleep 1.5
	"$OUT/topgen" $((rate / NCPU)) "$SECS" "$NCPU" >"$OUT/calls"
	wait
	restore_top
	if [ "$who" = ftc ]; then
		seen=$(awk '$2 == "getppid" { n = $3 } END { print n + 0 }' "$OUT/top.out")
	elif [ "$who" = record ]; then
		# its summary's count of lost events (anyone's: the comm of a
		# record is known only afterwards, from saved_cmdlines)
		seen=$(sed -n 's/.* events, \([0-9]*\) lost.*/\1/p' "$OUT/top.out" | tail -1)
		seen=$(( $(cat "$OUT/calls") - ${seen:-0} ))
		rm -f "$OUT/top.dat"
	elif [ "$who" = perf ]; then
		seen=0	# perf top shows shares, not counts
	else
		seen=$(grep -c 'NR 110 ' "$OUT/top.out")
	fi
	echo "$(cat "$OUT/calls") $seen $(cat "$OUT/time")"
}

perf_ok=false
command -v perf >/dev/null && [ "${PERF:-1}" != 0 ] && perf_ok=true

tc_ok=true
command -v trace-cmd >/dev/null || tc_ok=false
[ "${TC:-1}" = 0 ] && tc_ok=false
for rate in $RATES; do
	: >"$OUT/ftc.runs"; : >"$OUT/tc.runs"; : >"$OUT/perf.runs"; : >"$OUT/record.runs"
	for i in $(seq 1 "$RUNS"); do
		run ftc "$rate" >>"$OUT/ftc.runs"
		run record "$rate" >>"$OUT/record.runs"
		$tc_ok && run tc "$rate" >>"$OUT/tc.runs"
		$perf_ok && run perf "$rate" >>"$OUT/perf.runs"
	done
	# per run: achieved calls/s, CPU %, ns per event, share seen
	stats() {
		awk -v secs="$SECS" '{ printf "%.0f %.1f %.0f %.4f\n", $1 / secs, $3 * 100 / secs,
			$2 ? $3 * 1e9 / $2 : 0, $1 ? $2 / $1 : 0 }' "$1"
	}
	stats "$OUT/ftc.runs" >"$OUT/ftc.stats"
	stats "$OUT/tc.runs" >"$OUT/tc.stats"
	col() { awk -v c="$2" '{ print $c }' "$1" | median; }
	fr=$(col "$OUT/ftc.stats" 1); fc=$(col "$OUT/ftc.stats" 2); fn=$(col "$OUT/ftc.stats" 3)
	fs=$(col "$OUT/ftc.stats" 4)
	echo "rate $rate/s asked ($fr/s made): ftc top CPU $fc% of one CPU, $fn ns/event, saw $fs of the calls"
	# lost: calls made that were not counted, summed over the runs
	lost() { awk '{ l += $1 - $2; m += $1 } END { printf "%d of %d (%.4f %%)", l, m, m ? l * 100 / m : 0 }' "$1"; }
	echo "rate $rate/s: lost over $RUNS runs: ftc top $(lost "$OUT/ftc.runs"), ftc record $(lost "$OUT/record.runs")"
	if $tc_ok; then
		tr=$(col "$OUT/tc.stats" 1); tcpu=$(col "$OUT/tc.stats" 2); tn=$(col "$OUT/tc.stats" 3)
		ts=$(col "$OUT/tc.stats" 4)
		echo "rate $rate/s asked ($tr/s made): trace-cmd stream CPU $tcpu%, $tn ns/event, saw $ts of the calls"
		echo "rate $rate/s: CPU ratio ftc top / trace-cmd stream $(ratio "$fc" "$tcpu"), per event $(ratio "$fn" "$tn") (target < 1)"
	fi
	if $perf_ok; then
		stats "$OUT/perf.runs" >"$OUT/perf.stats"
		pr=$(col "$OUT/perf.stats" 1); pc=$(col "$OUT/perf.stats" 2)
		echo "rate $rate/s asked ($pr/s made): perf top CPU $pc% (events seen: not shown by perf top)"
		echo "rate $rate/s: CPU ratio ftc top / perf top $(ratio "$fc" "$pc")"
	fi
done
$tc_ok || echo "trace-cmd stream: left out (TC=0, or trace-cmd is not installed)"
$perf_ok || echo "perf top: left out (PERF=0, or perf is not installed)"
