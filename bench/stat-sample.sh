# SPDX-License-Identifier: GPL-2.0-or-later
# Sampling overhead: how much ftc profile and perf record slow a fixed
# workload down at 1, 4 and 10 kHz of cpu-clock (the workload times itself,
# so tool start-up and symbolization are not counted), with the samples
# each got and the samples each lost. Medians of alternating runs.
# Not a test: it prints numbers.
set -u
. "$(dirname "$0")/lib.sh"
RUNS=${RUNS:-5}

command -v perf >/dev/null || { echo "sample bench: perf is not installed"; exit 0; }
# Fixed work: arithmetic and a syscall now and then; prints its own seconds.
cat >"$OUT/work.c" <<'C'
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
static volatile unsigned long sink;
int main(void)
{
	struct timespec a, b;
	unsigned long x = 1;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < 300000000L; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		if (!(i & 0xfff))
			syscall(SYS_getppid);
	}
	sink = x;
	clock_gettime(CLOCK_MONOTONIC, &b);
	fprintf(stderr, "work_s %.6f\n", (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}
C
cc -O2 -g -fno-omit-frame-pointer -o "$OUT/work" "$OUT/work.c" || { echo "sample bench: cc failed"; exit 0; }
work_s() { awk '/^work_s/ { print $2 }' "$1"; }

echo "sample: medians of $RUNS alternating runs of a fixed workload (its own time), -g"
for hz in 1000 4000 10000; do
	: >"$OUT/s-bare"; : >"$OUT/s-ftc"; : >"$OUT/s-perf"; : >"$OUT/n-ftc"; : >"$OUT/n-perf"
	lf=0; lp=0
	for i in $(seq "$RUNS"); do
		"$OUT/work" 2>"$OUT/w.err"; work_s "$OUT/w.err" >>"$OUT/s-bare"
		"$FTC" profile -g -F $hz -o "$OUT/ftc.table" -- "$OUT/work" 2>"$OUT/w.err"
		work_s "$OUT/w.err" >>"$OUT/s-ftc"
		awk '/^# Samples:/ { print $3; exit }' "$OUT/ftc.table" >>"$OUT/n-ftc"
		lf=$((lf + $(awk -F'lost: ' '/^# Samples:/ { print $2 + 0; exit }' "$OUT/ftc.table")))
		perf record -q -g -F $hz -e cpu-clock -o "$OUT/perf.data" -- "$OUT/work" 2>"$OUT/w.err" >/dev/null
		work_s "$OUT/w.err" >>"$OUT/s-perf"
		perf report -i "$OUT/perf.data" --stats 2>/dev/null >"$OUT/perf.stats"
		awk '/^ *SAMPLE events:/ { print $3; exit }' "$OUT/perf.stats" >>"$OUT/n-perf"
		lp=$((lp + $(awk '/^ *LOST(_SAMPLES)? events:/ { s += $3 } END { print s + 0 }' "$OUT/perf.stats")))
	done
	b=$(median <"$OUT/s-bare"); f=$(median <"$OUT/s-ftc"); p=$(median <"$OUT/s-perf")
	printf '%5d Hz  bare %.3fs  ftc %.3fs (x%s, %s samples, %d lost)  perf %.3fs (x%s, %s samples, %d lost)  ftc/perf %s\n' \
		$hz "$b" "$f" "$(ratio "$f" "$b")" "$(median <"$OUT/n-ftc")" $lf \
		"$p" "$(ratio "$p" "$b")" "$(median <"$OUT/n-perf")" $lp "$(ratio "$f" "$p")"
done
