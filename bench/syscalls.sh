# SPDX-License-Identifier: GPL-2.0-or-later
# What tracing a program's system calls costs the program: its run time
# alone, under ftc syscalls -s -- PROG, perf trace -s -- PROG and
# strace -c -f -- PROG, for a program that calls getppid N times (the
# cheapest call: the worst case for every tracer); medians of RUNS
# alternating runs, as slowdowns against the bare run. Then ftc syscalls
# -s over the recorded file alone, in records/s. Not a test.
#   N=calls (default 200000: perf trace takes about 12 s and strace 40 s a
#   run here) RUNS=N (default 5)
set -u
. "$(dirname "$0")/lib.sh"
RUNS=${RUNS:-5}
N=${N:-200000}

[ -w /sys/kernel/tracing/instances ] || { echo "syscalls bench: needs root and tracefs"; exit 0; }
# The program times itself (into FILE): the tracers' own start and end are not its cost.
printf '%s\n' '#include <stdio.h>' '#include <stdlib.h>' '#include <sys/syscall.h>' '#include <time.h>' \
	'#include <unistd.h>' 'static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);' \
	'return t.tv_sec + t.tv_nsec / 1e9; }' \
	'int main(int argc, char **argv) { long n = atol(argv[1]); double t0 = now(); FILE *f;' \
	'for (long i = 0; i < n; i++) syscall(SYS_getppid);' \
	'f = fopen(argv[2], "w"); if (!f) return 1; fprintf(f, "%.4f\n", now() - t0); return fclose(f) != 0; }' \
	>"$OUT/getppid-timed.c"
cc -O2 -o "$OUT/getppid" "$OUT/getppid-timed.c" || { echo "syscalls bench: cc failed"; exit 0; }
have_perf=0 have_strace=0
perf trace -s -o /dev/null -- true >/dev/null 2>&1 && have_perf=1
command -v strace >/dev/null && have_strace=1

T=$OUT/syscalls.t
prog_secs() {	# prog_secs [TRACER...]: the program's own seconds under it
	rm -f "$T"
	"$@" "$OUT/getppid" "$N" "$T" >/dev/null 2>&1
	cat "$T" 2>/dev/null || echo 0
}
: >"$OUT/syscalls.times"
for r in $(seq "$RUNS"); do
	bare=$(prog_secs)
	ftc=$(prog_secs "$FTC" syscalls -s --)
	perf=$([ $have_perf = 1 ] && prog_secs perf trace -s -o /dev/null -- || echo 0)
	strace=$([ $have_strace = 1 ] && prog_secs strace -c -f -o /dev/null || echo 0)
	echo "$bare $ftc $perf $strace" >>"$OUT/syscalls.times"
done
col() { awk -v c="$1" '{ print $c }' "$OUT/syscalls.times" | median; }
b=$(col 1) f=$(col 2) p=$(col 3) s=$(col 4)
echo "getppid x $N, the program's own time, median of $RUNS alternating runs ($(date -u +%F), $(nproc) CPUs)"
printf '%-34s %10s %12s\n' "" "seconds" "x bare"
printf '%-34s %10s %12s\n' "bare" "$b" "1.00"
printf '%-34s %10s %12s\n' "ftc syscalls -s -- PROG" "$f" "$(ratio "$f" "$b")"
[ $have_perf = 1 ] && printf '%-34s %10s %12s\n' "perf trace -s -- PROG" "$p" "$(ratio "$p" "$b")"
[ $have_strace = 1 ] && printf '%-34s %10s %12s\n' "strace -c -f PROG" "$s" "$(ratio "$s" "$b")"

# The pass alone, over a file of the same program's calls.
if "$FTC" record -q -b 16384 -e raw_syscalls -F -o "$OUT/syscalls.dat" -- "$OUT/getppid" "$N" "$T" \
	>/dev/null 2>&1; then
	n=$("$FTC" report --stat "$OUT/syscalls.dat" 2>/dev/null | awk '/^records:/ { print $2 }')
	: >"$OUT/syscalls.pass"
	for r in $(seq "$RUNS"); do
		/usr/bin/time -f '%e %M' "$FTC" syscalls -s "$OUT/syscalls.dat" 2>&1 >/dev/null | tail -1 \
			>>"$OUT/syscalls.pass"
	done
	ps=$(awk '{ print $1 }' "$OUT/syscalls.pass" | median)
	rss=$(awk '{ print $2 }' "$OUT/syscalls.pass" | median)
	awk -v n="$n" -v s="$ps" -v m="$rss" 'BEGIN { printf "ftc syscalls -s over %d records: %.2f s, %.2f M records/s, %.1f MB peak RSS\n", n, s, (s > 0 ? n / s / 1e6 : 0), m / 1024 }'
else
	echo "syscalls bench: ftc record -e raw_syscalls failed"
fi
