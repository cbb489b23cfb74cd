# SPDX-License-Identifier: GPL-2.0-or-later
# How long ftc stream takes to print an event: every CPU writes a marker
# every 20 ms among 20000 getppid/s of its own (tests/fixtures/stream-load.c),
# ftc stream -C mono --json prints them, and stream-check.py takes each
# marker's arrival (CLOCK_MONOTONIC) minus its timestamp. Medians of RUNS
# runs of max and p99, in ms, with -r 1 (the default: SCHED_FIFO readers)
# and -r 0. A measurement, not a promise (ftc-stream(1): the thread that
# prints and the reader of its output are ordinary tasks); tests/host/
# stream.sh checks order and completeness. Not a test.
#   RUNS=N (3) SECS=N (3)
set -u
. "$(dirname "$0")/lib.sh"
RUNS=${RUNS:-3}
SECS=${SECS:-3}
T=/sys/kernel/tracing
INST=ftc-stream-delay-$$

command -v python3 >/dev/null || { echo "stream-delay bench: needs python3"; exit 0; }
[ -w $T/instances ] || { echo "stream-delay bench: needs root and tracefs"; exit 0; }
cc -O2 -pthread -o "$OUT/stream-load" "$TOP/tests/fixtures/stream-load.c" ||
	{ echo "stream-delay bench: cannot build the load"; exit 0; }

echo "stream-delay bench: $(nproc) CPUs, ${SECS}s per run, $RUNS runs, a marker per CPU every 20 ms"
for prio in 1 0; do
	: > "$OUT/delay.$prio"
	for _ in $(seq "$RUNS"); do
		"$FTC" stream -r $prio -B "$INST" -C mono --json -e syscalls:sys_enter_getppid -F -c -- \
			"$OUT/stream-load" "$T/instances/$INST/trace_marker" "$SECS" 20 20000 2>/dev/null |
			python3 "$TOP/tests/fixtures/stream-check.py" >> "$OUT/delay.$prio"
	done
	mx=$(awk '{ print $8 }' "$OUT/delay.$prio" | median)
	p99=$(awk '{ print $10 }' "$OUT/delay.$prio" | median)
	echo "  -r $prio: marker delay max $mx ms, p99 $p99 ms (medians of $RUNS runs)"
done
