# SPDX-License-Identifier: GPL-2.0-or-later
# ftc sched latency and ftc report --profile against trace-cmd report
# --profile (trace-cmd's own scheduling profile) on the same file: a trace
# of sched events only (two threads ping-ponging over pipes, ROUNDS round
# trips), medians of RUNS alternating runs, as records/s and peak RSS; then
# peak RSS on a trace four times longer, which must not grow with the
# records; then ftc sched alone over BIG_ROUNDS round trips (about 10 M
# records: trace-cmd would take minutes a run). Not a test.
#   ROUNDS=N (default 100000: about 0.5 M records) RUNS=N (5)
#   BIG_ROUNDS=N (default 0: skipped; 2000000 is about 10 M records and takes
#   about 3 minutes to record: the unpinned ping-pong makes some 50 K records
#   a second. While it records, the file's apparent size is the writer's
#   sparse layout, tens of GB; it is compacted when the capture ends)
set -u
. "$(dirname "$0")/lib.sh"
RUNS=${RUNS:-5}
ROUNDS=${ROUNDS:-100000}
BIG_ROUNDS=${BIG_ROUNDS:-0}
T=/sys/kernel/tracing

command -v trace-cmd >/dev/null || { echo "sched bench: trace-cmd is not installed"; exit 0; }
[ -w $T/instances ] || { echo "sched bench: needs root and tracefs"; exit 0; }
printf '%s\n' '#include <pthread.h>' '#include <stdlib.h>' '#include <unistd.h>' \
	'static int a[2], b[2]; static long n;' \
	'static void *pong(void *x) { char c; for (long i = 0; i < n; i++) if (read(a[0], &c, 1) != 1 || write(b[1], &c, 1) != 1) break; return x; }' \
	'int main(int argc, char **argv) { pthread_t t; char c = 0; n = atol(argv[1]); if (pipe(a) || pipe(b)) return 1;' \
	'pthread_create(&t, NULL, pong, NULL); for (long i = 0; i < n; i++) if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1) break;' \
	'pthread_join(t, NULL); return 0; }' >"$OUT/pingpong.c"
cc -O2 -pthread -o "$OUT/pingpong" "$OUT/pingpong.c" || { echo "sched bench: cc failed"; exit 0; }

# The top-level buffer: trace-cmd report --profile reads no instance ("Handle not found").
capture() {	# capture FILE ROUNDS
	timeout 600 "$FTC" record -q -b 16384 -o "$1" -e sched:sched_switch \
		-e sched:sched_wakeup -e sched:sched_wakeup_new -e sched:sched_migrate_task -- \
		"$OUT/pingpong" "$2" >/dev/null 2>&1
}
capture "$OUT/sched.dat" "$ROUNDS" || { echo "sched bench: ftc record failed"; exit 0; }
n=$("$FTC" report --stat "$OUT/sched.dat" 2>/dev/null | awk '/^records:/ { print $2 }')

secs() { /usr/bin/time -f '%e' "$@" 2>&1 >/dev/null | tail -1; }
: >"$OUT/sched.times"
for r in $(seq "$RUNS"); do
	echo "$(secs "$FTC" sched latency "$OUT/sched.dat") $(secs trace-cmd report --profile -i "$OUT/sched.dat")" \
		"$(secs "$FTC" report --profile "$OUT/sched.dat")" >>"$OUT/sched.times"
done
col() { awk -v c="$1" '{ print $c }' "$OUT/sched.times" | median; }
wf=$(col 1) wt=$(col 2) wp=$(col 3)
rps() { awk -v n="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.2f M\n", n / s / 1e6; else print "inf" }'; }
row() { printf '%-34s %14s %16s %8s\n' "$@"; }
echo "sched events of a ping-pong, $n records, median of $RUNS alternating runs ($(date -u +%F), $(nproc) CPUs)"
row "" "ftc" "trace-cmd" "ratio"
row "sched latency: wall seconds" "$wf" "$wt" "$(ratio "$wt" "$wf")x"
row "sched latency: records/s" "$(rps "$n" "$wf")" "$(rps "$n" "$wt")" "$(ratio "$wt" "$wf")x"
row "report --profile: wall seconds" "$wp" "$wt" "$(ratio "$wt" "$wp")x"
rf=$(peak_rss_kb "$FTC" sched latency "$OUT/sched.dat")
rt=$(peak_rss_kb trace-cmd report --profile -i "$OUT/sched.dat")
row "peak RSS KB" "$rf" "$rt" "$(ratio "$rf" "$rt")x"
capture "$OUT/sched4.dat" $((ROUNDS * 4)) &&
	row "peak RSS KB, 4x the records" "$(peak_rss_kb "$FTC" sched latency "$OUT/sched4.dat")" \
		"$(peak_rss_kb trace-cmd report --profile -i "$OUT/sched4.dat")" ""
trace-cmd report --profile -i "$OUT/sched.dat" 2>&1 | grep -q '^task:' ||
	echo "sched bench: trace-cmd report --profile printed no task: its figures are not a profile"
rm -f "$OUT/sched.dat" "$OUT/sched4.dat"
[ "$BIG_ROUNDS" -gt 0 ] || exit 0
capture "$OUT/sched10.dat" "$BIG_ROUNDS" || { echo "sched bench: ftc record of the big trace failed"; exit 0; }
nb=$("$FTC" report --stat "$OUT/sched10.dat" 2>/dev/null | awk '/^records:/ { print $2 }')
: >"$OUT/sched10.times"
for r in $(seq "$RUNS"); do secs "$FTC" sched latency "$OUT/sched10.dat" >>"$OUT/sched10.times"; done
wb=$(median <"$OUT/sched10.times")
echo "ftc sched latency alone, $nb records, median of $RUNS runs (target: 5 M records/s or more)"
row "records/s" "$(rps "$nb" "$wb")" "" ""
row "peak RSS KB" "$(peak_rss_kb "$FTC" sched latency "$OUT/sched10.dat")" "" ""
rm -f "$OUT/sched10.dat"
