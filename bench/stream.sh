# SPDX-License-Identifier: GPL-2.0-or-later
# ftc stream's own CPU use while it prints ~100 K and ~1 M events/s
# (getppid enter+exit on every CPU, the record bench's generator), beside
# trace-cmd stream and ftc record on the same load, runs alternating,
# medians printed. The streams print text into a pipe to wc -l, which is
# not counted; their CPU time is the process tree's (ftc: the main thread,
# the readers, the guardian). An idle run of the same length is taken off,
# so what remains is the cost of the events. ftc traces the generator only
# (-F -c, in its own instance); the generator, then ftc's child, reports
# its own CPU time, which is taken off. trace-cmd 3.1.6 stream crashes with -B
# (segfault), so it runs in the top-level buffer, in a private mount
# namespace that hides the knobs it insists on writing, as bench/record.sh
# runs trace-cmd record; it hangs at exit now and then (even idle): killed 3 s
# after its SIGINT. TC=0 leaves it out. Not a test.
#   RUNS=N (3) SECS=N (3) RATES="events/s ..." ("100000 1000000") TC=0|1 (1)
set -u
. "$(dirname "$0")/lib.sh"
RUNS=${RUNS:-3}
SECS=${SECS:-3}
RATES=${RATES:-"100000 1000000"}
TC=${TC:-1}
T=/sys/kernel/tracing
NCPU=$(nproc)
EV="-e syscalls:sys_enter_getppid -e syscalls:sys_exit_getppid"
INST=ftc-stream-bench-$$

command -v python3 >/dev/null || { echo "stream bench: needs python3 (CPU times)"; exit 0; }
[ -w $T/instances ] || { echo "stream bench: needs root and tracefs"; exit 0; }
command -v trace-cmd >/dev/null || TC=0

# The record bench's generator, with its own CPU time ("cpu").
build_rate_gen "$OUT/sgen" || exit 0
echo 1 > "$OUT/fe"; : > "$OUT/null_f"
saved_kb=$(cat $T/buffer_size_kb)
saved_on=$(cat $T/tracing_on)
saved_in=$(cat $T/events/syscalls/sys_enter_getppid/enable)
saved_out=$(cat $T/events/syscalls/sys_exit_getppid/enable)
# trace-cmd stream's top-level changes, its events included (a trace-cmd
# killed at its time limit leaves them on)
restore_top() {
	[ "$TC" = 1 ] || return 0
	echo "$saved_kb" > $T/buffer_size_kb; echo "$saved_on" > $T/tracing_on
	echo "${saved_in%\*}" > $T/events/syscalls/sys_enter_getppid/enable
	echo "${saved_out%\*}" > $T/events/syscalls/sys_exit_getppid/enable
}
trap 'restore_top; rm -f "$OUT/s.dat"' EXIT

# cputime OUTFILE COMMAND...: runs it with its stdout passed on, writes the
# CPU seconds of its process tree into $OUT/time.
cputime() {
	python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[2:], stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write("%.6f\n" % (r.ru_utime + r.ru_stime))' "$OUT/time" "$@"
}

# run WHO RATE: one run; prints "events lines cpu_s" (RATE idle: no load).
# ftc traces the generator (-F -c); trace-cmd the whole top level, with the
# generator started beside it once it is set up.
run() {
	who=$1 rate=$2
	if [ "$rate" = idle ]; then gen="sleep $SECS"; else
		per=$((rate / 2 / NCPU)); gen="$OUT/sgen $per $SECS $NCPU cpu"; fi
	rm -f "$OUT/calls" "$OUT/s.dat"
	case $who in
	stream)
		cputime "$FTC" stream -q -B "$INST" -b 256 $EV -F -c -- \
			sh -c "exec $gen > $OUT/calls" | grep -c getppid > "$OUT/lines" ;;
	record)
		cputime "$FTC" record -q -B "$INST" -b 256 $EV -F -c -o "$OUT/s.dat" -- \
			sh -c "exec $gen > $OUT/calls" >/dev/null
		# the records that reached the file (not timed)
		if [ "$rate" = idle ]; then echo 0; else "$FTC" report "$OUT/s.dat" |
			grep -c getppid; fi > "$OUT/lines" ;;
	tc)
		{ sleep 1.5; sh -c "$gen" > "$OUT/calls"; } &
		cputime timeout -s INT -k 3 $((SECS + 3)) unshare -m sh -c '
			mount --bind '"$OUT"'/fe /proc/sys/kernel/ftrace_enabled
			for f in set_ftrace_filter set_ftrace_notrace set_ftrace_pid set_graph_function \
				 set_graph_notrace set_ftrace_notrace_pid; do
				[ -e '"$T"'/$f ] && mount --bind '"$OUT"'/null_f '"$T"'/$f
			done
			exec trace-cmd stream -b 256 '"$EV"'' | grep -c getppid > "$OUT/lines"
		wait
		restore_top ;;
	esac
	# The generator is ftc's child (-F): its own CPU time is taken off.
	[ -s "$OUT/calls" ] || echo "0 0" > "$OUT/calls"
	read -r calls gcpu < "$OUT/calls"
	[ "$who" = tc ] && gcpu=0
	# sh -c asks getppid once (dash's $PPID) before exec: 2 events more
	made=$((calls * 2)); [ "$who" != tc ] && [ "$calls" != 0 ] && made=$((made + 2))
	echo "$made $(cat "$OUT/lines") $(awk -v t="$(cat "$OUT/time")" -v g="${gcpu:-0}" 'BEGIN { printf "%.6f", t - g }')"
}

whos="stream record"
[ "$TC" = 1 ] && whos="stream tc record"
echo "stream bench: $NCPU CPUs, ${SECS}s of load per run, $RUNS alternating runs, 256 KB/CPU"
for who in $whos; do : > "$OUT/idle.$who"; done
for i in $(seq 1 "$RUNS"); do
	for who in $whos; do run $who idle | awk '{ print $3 }' >> "$OUT/idle.$who"; done
done
for rate in $RATES; do
	for who in $whos; do : > "$OUT/r.$who"; done
	for i in $(seq 1 "$RUNS"); do
		for who in $whos; do run $who "$rate" >> "$OUT/r.$who"; done
	done
	for who in $whos; do
		idle=$(median < "$OUT/idle.$who")
		ev=$(awk '{ print $1 }' "$OUT/r.$who" | median)
		lines=$(awk '{ print $2 }' "$OUT/r.$who" | median)
		cpu=$(awk '{ print $3 }' "$OUT/r.$who" | median)
		case $who in stream) name="ftc stream" ;; tc) name="trace-cmd stream" ;; *) name="ftc record" ;; esac
		# lost: the events made that it did not print (record: not in the
		# file), summed over the runs; trace-cmd traces everyone: no count
		lost=$(awk '{ l += $1 - $2 } END { print l + 0 }' "$OUT/r.$who")
		made=$(awk '{ m += $1 } END { print m + 0 }' "$OUT/r.$who")
		[ "$who" = record ] && lines="$lines in the file" || lines="$lines lines"
		awk -v r="$rate" -v e="$ev" -v c="$cpu" -v i="$idle" -v s="$SECS" \
			'BEGIN { printf "~%d ev/s asked: %.0f ev/s made, CPU %.2f s (idle run %.2f s): %.1f %% of a CPU, %.0f ns/event\n", r, e / s, c, i, (c - i) / s * 100, (e > 0 ? (c - i) * 1e9 / e : 0) }' |
			sed "s|^|  $name: |; s|made,|made ($lines),|"
		[ "$who" = tc ] || awk -v l="$lost" -v m="$made" -v n="$RUNS" \
			'BEGIN { printf "    lost over the %d runs: %d of %d events (%.4f %%)\n", n, l, m, m ? l * 100 / m : 0 }'
		[ "$who" = stream ] && sc=$cpu si=$idle
		[ "$who" = tc ] && tcc=$cpu tci=$idle
	done
	if [ "$TC" = 1 ]; then
		echo "  CPU ratio ftc stream / trace-cmd stream: $(ratio "$(awk -v a="$sc" -v b="$si" 'BEGIN { print a - b }')" "$(awk -v a="$tcc" -v b="$tci" 'BEGIN { print a - b }')") (target < 1)"
	fi
done
