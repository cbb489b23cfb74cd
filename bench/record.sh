# SPDX-License-Identifier: GPL-2.0-or-later
# ftc record against trace-cmd record, side by side on the same workload
# (getppid syscalls on every CPU, enter+exit events, 256 KB per CPU, top-level
# buffer since trace-cmd can only be run here in the top level), runs
# alternating between the two, medians printed as ratios ftc/trace-cmd:
#   - the highest event rate recorded with zero loss (ladder of rates);
#   - recorder CPU time per event, both writing zstd v7;
#   - time from the end of the command to the closed file.
# trace-cmd record runs as docs/kernels.md §4 says (a private mount
# namespace hides the knobs it insists on writing). Not a test.
#   RUNS=N (3) SECS=N (2) RATES="per-CPU calls/s ladder" (RATES=none: skip part 1)
set -u
. "$(dirname "$0")/lib.sh"
RUNS=${RUNS:-3}
SECS=${SECS:-2}
RATES=${RATES:-"100000 200000 300000 400000 500000 0"}
T=/sys/kernel/tracing
NCPU=$(nproc)
EV="-e syscalls:sys_enter_getppid -e syscalls:sys_exit_getppid"

command -v python3 >/dev/null || { echo "record bench: needs python3 (CPU times to the microsecond)"; exit 0; }
command -v trace-cmd >/dev/null || { echo "record bench: trace-cmd is not installed"; exit 0; }
[ -w $T/instances ] || { echo "record bench: needs root and tracefs"; exit 0; }
if pgrep -f 'trace-cmd record|ftc record' >/dev/null; then
	echo "record bench: another recorder is running; it would steal events"; exit 0
fi

# The load: each CPU calls getppid at RATE per second (0: flat out).
build_rate_gen "$OUT/gen" || exit 0

# trace-cmd leaves buffer_size_kb changed: put the top level back after each run.
saved_kb=$(cat $T/buffer_size_kb)
saved_on=$(cat $T/tracing_on)
restore_top() { echo "$saved_kb" > $T/buffer_size_kb; echo "$saved_on" > $T/tracing_on; }
trap restore_top EXIT
echo 1 > "$OUT/fe"; : > "$OUT/null_f"

# The command both recorders run only waits (so that their CPU time is
# theirs alone) and notes the moment it ends; the load runs beside it,
# starting once both have had time to set up.
workload() { echo "sleep $((SECS + 2)); date +%s.%N > $OUT/stop"; }
load() { sleep 1; "$OUT/gen" "$1" "$SECS" "$NCPU" > "$OUT/calls"; }

# cputime COMMAND...: runs it, writes its CPU seconds (and its children's,
# to the microsecond) into $OUT/time.
cputime() {
	python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write("%.6f\n" % (r.ru_utime + r.ru_stime))' "$OUT/time" "$@"
}

# rec ftc|tc RATE FILE: records one run; prints "events lost cpu_s stop_to_close_s".
rec() {
	who=$1 rate=$2 file=$3
	rm -f "$file" "$OUT/stop"
	if [ "$who" = ftc ]; then
		cputime "$FTC" record -q -b 256 $EV -o "$file" \
			-- sh -c "$(workload)" 2>/dev/null &
	else
		cputime unshare -m sh -c '
			mount --bind '"$OUT"'/fe /proc/sys/kernel/ftrace_enabled
			for f in set_ftrace_filter set_ftrace_notrace set_ftrace_pid set_graph_function \
				 set_graph_notrace set_ftrace_notrace_pid; do
				[ -e '"$T"'/$f ] && mount --bind '"$OUT"'/null_f '"$T"'/$f
			done
			exec trace-cmd record -q -b 256 '"$EV"' --file-version 7 --compression zstd \
				-o '"$file"' sh -c "'"$(workload)"'"' >/dev/null 2>&1 &
	fi
	if [ "$rate" = idle ]; then echo 0 > "$OUT/calls"; else load "$rate"; fi
	wait
	end=$(date +%s.%N)
	restore_top
	calls=$(cat "$OUT/calls" 2>/dev/null || echo 0)
	lost=$(trace-cmd report --stat "$file" 2>/dev/null |
		awk '/^overrun:|^dropped events:/ { s += $NF } END { print s + 0 }')
	cpu=$(cat "$OUT/time")
	stop=$(cat "$OUT/stop" 2>/dev/null || echo "$end")
	# The file is closed at its last write: its mtime (restoring tracefs
	# afterwards is not part of the measure, for either recorder).
	closed=$(stat -c %.9Y "$file" 2>/dev/null || echo "$end")
	echo "$((calls * 2)) $lost $cpu $(awk -v a="$closed" -v b="$stop" 'BEGIN { print a - b }')"
}

echo "record bench: $NCPU CPUs, ${SECS}s of load per run, $RUNS alternating runs per point, 256 KB/CPU"

# 1. The highest zero-loss rate: climb the ladder; a recorder's figure is
# the highest rate reached before its first point with a loss (median).
best_ftc=0 best_tc=0 lossy_ftc=0 lossy_tc=0
[ "$RATES" = none ] && RATES=
for rate in $RATES; do
	for who in ftc tc; do
		: > "$OUT/ladder.$who"
	done
	for i in $(seq 1 "$RUNS"); do
		for who in ftc tc; do
			set -- $(rec $who "$rate" "$OUT/$who.dat")
			echo "$1 $2" >> "$OUT/ladder.$who"
		done
	done
	for who in ftc tc; do
		ev=$(awk '{ print $1 }' "$OUT/ladder.$who" | median)
		lost=$(awk '{ print $2 }' "$OUT/ladder.$who" | median)
		evs=$(awk -v e="$ev" -v s="$SECS" 'BEGIN { printf "%.0f", e / s }')
		printf '  %-9s %-7s calls/s/CPU: %9s events/s, median lost %s\n' "$who" "$rate" "$evs" "$lost"
		if [ "$lost" = 0 ]; then
			[ $who = ftc ] && [ $lossy_ftc = 0 ] && [ "$evs" -gt "$best_ftc" ] && best_ftc=$evs
			[ $who = tc ] && [ $lossy_tc = 0 ] && [ "$evs" -gt "$best_tc" ] && best_tc=$evs
		else
			[ $who = ftc ] && lossy_ftc=1
			[ $who = tc ] && lossy_tc=1
		fi
	done
done
[ -n "$RATES" ] || echo "zero-loss rate: skipped (RATES=none)"
[ -n "$RATES" ] && {
[ $lossy_ftc = 0 ] && best_ftc="$best_ftc+"	# never lost: the load was the limit
[ $lossy_tc = 0 ] && best_tc="$best_tc+"
echo "zero-loss rate: ftc $best_ftc events/s, trace-cmd $best_tc events/s, ratio $(ratio "${best_ftc%+}" "${best_tc%+}") (target >= 1.5; '+': no loss at any rate, the generator was the limit)"
}

# 2 and 3. CPU per event and stop-to-file at a rate both keep up with. The
# CPU time of an idle run of the same length (setup: formats, kallsyms) is
# taken off, so what remains is the cost of the events.
rate=${CPU_RATE:-100000}
SECS=${CPU_SECS:-4}
: > "$OUT/cpu.ftc"; : > "$OUT/cpu.tc"
for i in $(seq 1 "$RUNS"); do
	for who in ftc tc; do
		set -- $(rec $who idle "$OUT/$who.dat")
		idle=$3
		set -- $(rec $who "$rate" "$OUT/$who.dat")
		awk -v e="$1" -v c="$3" -v i="$idle" -v s="$4" \
			'BEGIN { printf "%.1f %.3f\n", (c - i) * 1e9 / e, s }' >> "$OUT/cpu.$who"
	done
done
cf=$(awk '{ print $1 }' "$OUT/cpu.ftc" | median); ct=$(awk '{ print $1 }' "$OUT/cpu.tc" | median)
sf=$(awk '{ print $2 }' "$OUT/cpu.ftc" | median); st=$(awk '{ print $2 }' "$OUT/cpu.tc" | median)
echo "recorder CPU per event (zstd): ftc $cf ns, trace-cmd $ct ns, ratio $(ratio "$cf" "$ct") (target <= 0.5)"

# The floor under both: what compressing these pages alone costs. Both
# recorders must compress every byte the kernel wrote (trace-cmd at the end,
# at zstd's default level 3; ftc as it goes, at level 1), so no recorder's
# CPU per event can be below this. The same load, uncompressed; the idle
# run's file (formats, kallsyms) is taken off to leave the pages' bytes.
if command -v zstd >/dev/null; then
	rec_none() { # RATE FILE: events
		rm -f "$2"
		"$FTC" record -q -b 256 $EV --compression none -o "$2" -- sh -c "$(workload)" 2>/dev/null &
		if [ "$1" = idle ]; then echo 0 > "$OUT/calls"; else load "$1"; fi
		wait
		restore_top
		echo $(( $(cat "$OUT/calls") * 2 ))
	}
	rec_none idle "$OUT/idle-none.dat" >/dev/null
	events=$(rec_none "$rate" "$OUT/load-none.dat")
	bytes=$(( $(stat -c %s "$OUT/load-none.dat") - $(stat -c %s "$OUT/idle-none.dat") ))
	for lvl in 1 3; do
		mbs=$(zstd -b$lvl -B40960 -i2 "$OUT/load-none.dat" 2>&1 | tr '\r' '\n' |
			awk '/MB\/s/ { v = ""; for (i = 1; i < NF; i++) if (v == "" && $(i + 1) ~ /^MB\/s/) v = $i }
			     END { print v + 0 }')	# the last report; compression speed first
		awk -v b="$bytes" -v e="$events" -v m="$mbs" -v l="$lvl" -v t="$ct" 'BEGIN {
			if (e <= 0 || m <= 0) exit
			ns = b / e / m * 1000
			printf "floor: zstd level %d alone on these pages (%.1f bytes/event, %.0f MB/s): %.1f ns/event = %.2f x trace-cmd'"'"'s whole cost\n", l, b / e, m, ns, ns / t }'
	done
	rm -f "$OUT/idle-none.dat" "$OUT/load-none.dat"
fi
echo "stop to closed file: ftc $sf s, trace-cmd $st s, ratio $(ratio "$sf" "$st") (target <= 0.25)"
