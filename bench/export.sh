# SPDX-License-Identifier: GPL-2.0-or-later
# ftc convert --to perfetto and --to chrome, and ftc report --timeline, over
# a capture of N getppid calls (their
# syscall enter and exit records, generic events in Perfetto's format) and
# the sched events around them (compact), as records/s on one CPU (median
# of RUNS runs; the target is >= 3 M records/s) and peak RSS, beside
# trace-cmd report of the same file (the text every reader starts from)
# and ftc convert to trace.dat; then peak RSS over a capture of 4 x N,
# which must stay flat: memory follows the CPUs, tasks and symbols, not
# the records. Not a test.
#   N=calls (default 500000) RUNS=N (default 5)
set -u
. "$(dirname "$0")/lib.sh"
RUNS=${RUNS:-5}
N=${N:-500000}

[ -w /sys/kernel/tracing/instances ] || { echo "export bench: needs root and tracefs"; exit 0; }
build_getppid_loop "$OUT/getppid" || { echo "export bench: cc failed"; exit 0; }
capture() {	# capture FILE CALLS
	"$FTC" record -q -b 16384 -o "$1" -e sched -e syscalls:sys_enter_getppid \
		-e syscalls:sys_exit_getppid -- "$OUT/getppid" "$2" >/dev/null 2>&1
}
capture "$OUT/export.dat" "$N" || { echo "export bench: the capture failed"; exit 0; }
n=$("$FTC" report --stat "$OUT/export.dat" 2>/dev/null | awk '/^records:/ { print $2 }')
# secs_rss COMMAND...: "SECONDS KB" of one run
secs_rss() { /usr/bin/time -f '%e %M' "$@" 2>&1 >/dev/null | tail -1; }
: >"$OUT/export.times"
for r in $(seq "$RUNS"); do
	echo "pf $(secs_rss "$FTC" convert --to perfetto "$OUT/export.dat" /dev/null)"
	echo "ch $(secs_rss "$FTC" convert --to chrome "$OUT/export.dat" /dev/null)"
	echo "tl $(secs_rss "$FTC" report --timeline /dev/null "$OUT/export.dat")"
	echo "tc $(secs_rss trace-cmd report -i "$OUT/export.dat")"
	rm -f "$OUT/export-copy.dat"
	echo "dat $(secs_rss "$FTC" convert "$OUT/export.dat" "$OUT/export-copy.dat")"
done >>"$OUT/export.times"
pick() { awk -v k="$1" -v c="$2" '$1 == k { print $c }' "$OUT/export.times" | median; }
pf=$(pick pf 2) tc=$(pick tc 2) dat=$(pick dat 2)
size=$("$FTC" convert --to perfetto "$OUT/export.dat" - | wc -c)
echo "convert --to perfetto over $n records ($N getppid calls), median of $RUNS runs" \
	"($(date -u +%F), $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg))"
printf '%-30s %9s %12s %9s\n' "" "seconds" "records/s" "RSS MB"
for k in pf ch tl tc dat; do
	case $k in
	pf) name="ftc convert --to perfetto" ;;
	ch) name="ftc convert --to chrome" ;;
	tl) name="ftc report --timeline" ;;
	tc) name="trace-cmd report (text)" ;;
	dat) name="ftc convert (trace.dat)" ;;
	esac
	awk -v name="$name" -v n="$n" -v s="$(pick $k 2)" -v m="$(pick $k 3)" 'BEGIN {
		printf "%-30s %9.2f %11.2fM %9.1f\n", name, s, (s > 0 ? n / s / 1e6 : 0), m / 1024 }'
done
echo "perfetto vs trace-cmd report: $(ratio "$pf" "$tc")x the time; the Perfetto file:" \
	"$((size / 1024)) KB, the trace.dat: $(($(stat -c %s "$OUT/export.dat") / 1024)) KB"
if capture "$OUT/export-4.dat" $((N * 4)); then
	n4=$("$FTC" report --stat "$OUT/export-4.dat" 2>/dev/null | awk '/^records:/ { print $2 }')
	m4=$(peak_rss_kb "$FTC" convert --to perfetto "$OUT/export-4.dat" /dev/null)
	echo "peak RSS at 4 x N ($n4 records): $(awk -v m="$m4" 'BEGIN { printf "%.1f", m / 1024 }') MB" \
		"(at N: $(awk -v m="$(pick pf 3)" 'BEGIN { printf "%.1f", m / 1024 }') MB)"
fi
rm -f "$OUT/export.dat" "$OUT/export-4.dat" "$OUT/export-copy.dat"
