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
# runs trace-cmd record; TC=0 leaves it out. Not a test.
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

# The record bench's generator: each CPU calls getppid RATE times a second.
cat >"$OUT/sgen.c" <<'C'
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
static long rate, done[256];
static double secs;
static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}
static void *run(void *arg)
{
	long id = (long)arg, n = 0;
	double t0 = now(), t;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(id, &set);
	sched_setaffinity(0, sizeof(set), &set);
	while ((t = now()) - t0 < secs) {
		long want = rate ? (long)((t - t0) * rate) + 1000 : n + 1000;
		while (n < want) {
			syscall(SYS_getppid);
			n++;
		}
		if (rate) {
			long ahead = n - (long)((now() - t0) * rate);
			if (ahead > 0 && ahead < rate) {
				struct timespec s = { 0, ahead * 1000000000L / rate };
				nanosleep(&s, NULL);
			}
		}
	}
	done[id] = n;
	return NULL;
}
int main(int argc, char **argv)
{
	int nt = atoi(argv[3]);
	pthread_t th[256];
	long total = 0;
	rate = atol(argv[1]);
	secs = atof(argv[2]);
	for (long i = 0; i < nt; i++)
		pthread_create(&th[i], NULL, run, (void *)i);
	for (int i = 0; i < nt; i++) {
		pthread_join(th[i], NULL);
		total += done[i];
	}
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("%ld %.6f\n", total, ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	return 0;
}
C
cc -O2 -o "$OUT/sgen" "$OUT/sgen.c" -lpthread || exit 0
echo 1 > "$OUT/fe"; : > "$OUT/null_f"
saved_kb=$(cat $T/buffer_size_kb)
saved_on=$(cat $T/tracing_on)
restore_top() { [ "$TC" = 1 ] && { echo "$saved_kb" > $T/buffer_size_kb; echo "$saved_on" > $T/tracing_on; }; }
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
		per=$((rate / 2 / NCPU)); gen="$OUT/sgen $per $SECS $NCPU"; fi
	rm -f "$OUT/calls" "$OUT/s.dat"
	case $who in
	stream)
		cputime "$FTC" stream -q -B "$INST" -b 256 $EV -F -c -- \
			sh -c "exec $gen > $OUT/calls" | wc -l > "$OUT/lines" ;;
	record)
		cputime "$FTC" record -q -B "$INST" -b 256 $EV -F -c -o "$OUT/s.dat" -- \
			sh -c "exec $gen > $OUT/calls" >/dev/null
		echo 0 > "$OUT/lines" ;;
	tc)
		{ sleep 1.5; sh -c "$gen" > "$OUT/calls"; } &
		cputime timeout -s INT $((SECS + 3)) unshare -m sh -c '
			mount --bind '"$OUT"'/fe /proc/sys/kernel/ftrace_enabled
			for f in set_ftrace_filter set_ftrace_notrace set_ftrace_pid set_graph_function \
				 set_graph_notrace set_ftrace_notrace_pid; do
				[ -e '"$T"'/$f ] && mount --bind '"$OUT"'/null_f '"$T"'/$f
			done
			exec trace-cmd stream -b 256 '"$EV"'' | wc -l > "$OUT/lines"
		wait
		restore_top ;;
	esac
	# The generator is ftc's child (-F): its own CPU time is taken off.
	[ -s "$OUT/calls" ] || echo "0 0" > "$OUT/calls"
	read -r calls gcpu < "$OUT/calls"
	[ "$who" = tc ] && gcpu=0
	echo "$((calls * 2)) $(cat "$OUT/lines") $(awk -v t="$(cat "$OUT/time")" -v g="${gcpu:-0}" 'BEGIN { printf "%.6f", t - g }')"
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
		[ "$who" = record ] && lines=file || lines="$lines lines"
		awk -v r="$rate" -v e="$ev" -v c="$cpu" -v i="$idle" -v s="$SECS" \
			'BEGIN { printf "~%d ev/s asked: %.0f ev/s made, CPU %.2f s (idle run %.2f s): %.1f %% of a CPU, %.0f ns/event\n", r, e / s, c, i, (c - i) / s * 100, (e > 0 ? (c - i) * 1e9 / e : 0) }' |
			sed "s|^|  $name: |; s|made,|made ($lines),|"
	done
done
