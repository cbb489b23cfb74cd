# SPDX-License-Identifier: GPL-2.0-or-later
# ftc report against trace-cmd report (and perf script on a perf capture of
# the same workload and events): the same file, text to /dev/null, medians of
# alternating runs. First what users record: every event (ftc record -e all)
# during disk, file and process work, hundreds of event types; then events/s
# and peak RSS on a repetitive trace, peak RSS on one ten times longer, and a
# trace of many kinds of events whose fields rarely repeat. Not a test: it
# prints numbers.
#   EVENTS=N (syscall pairs in the base trace, default 100000) RUNS=N (5)
#   MIXED_ROUNDS=N (rounds of the all-events workload, default 2: ~600 K records)
set -u
. "$(dirname "$0")/lib.sh"
RUNS=${RUNS:-5}
N=${EVENTS:-100000}
T=/sys/kernel/tracing

command -v trace-cmd >/dev/null || { echo "report bench: trace-cmd is not installed"; exit 0; }
[ -w $T/instances ] || { echo "report bench: needs root and tracefs"; exit 0; }
build_getppid_loop "$OUT/getppid" || { echo "report bench: cc failed"; exit 0; }

# capture FILE CALLS [EVENTS]: getppid enter/exit + sched_switch (or EVENTS,
# system-wide) in a private instance.
capture() {
	local inst=ftc-bench-$$ kb=$(( $2 / 8 + 2048 ))
	mkdir $T/instances/$inst || return 1
	echo $kb >$T/instances/$inst/buffer_size_kb
	for e in ${3:-syscalls/sys_enter_getppid syscalls/sys_exit_getppid sched/sched_switch}; do
		{ echo 1 >$T/instances/$inst/events/$e/enable; } 2>/dev/null
	done
	if [ -n "${3:-}" ]; then
		# Many kinds of events with ever-changing fields: a machine at work.
		find /usr -name '*.h' 2>/dev/null | head -n "$2" | xargs cat >/dev/null 2>&1
	else
		# Only the workload's own events (others may run getppid too).
		sh -c "echo \$\$ >$T/instances/$inst/set_event_pid; exec taskset -c 0 '$OUT/getppid' $2"
	fi
	echo 0 >$T/instances/$inst/tracing_on
	trace-cmd extract -B $inst -o "$1" >/dev/null 2>&1
	[ -d $T/instances/$inst ] && rmdir $T/instances/$inst
	[ -s "$1" ]
}

# mixed_workload ROUNDS: disk, file and process activity (a tar written and
# synced, a directory walk, short-lived processes).
mixed_workload() {
	local i j
	for i in $(seq "$1"); do
		tar cf "$OUT/mixed-work.tar" /usr/include/linux 2>/dev/null
		sync
		rm -f "$OUT/mixed-work.tar"
		ls -lR /usr/share/doc >/dev/null 2>&1
		for j in 1 2 3 4 5; do /bin/true; done
	done
}

# The all-events trace, by ftc record into an instance of its own.
all_events() {
	local inst=ftc-bench-all-$$
	export -f mixed_workload
	timeout 300 "$FTC" record -q -B $inst -b 8192 -e all -o "$1" -- \
		bash -c "OUT='$OUT'; mixed_workload ${MIXED_ROUNDS:-2}" >/dev/null 2>&1
	[ -d $T/instances/$inst ] && rmdir $T/instances/$inst 2>/dev/null
	[ -s "$1" ]
}

# all_events_table: ftc report vs trace-cmd report on the all-events trace;
# also ftc's compiled print formats against libtraceevent's own printing
# (FTC_FORMAT_TEP=1), byte for byte, and how many records each printed.
all_events_table() {
	local f=$OUT/report-all.dat n types stats same
	all_events "$f" || { echo "report bench: all-events capture failed"; return; }
	n=$("$FTC" report --stat "$f" | awk '/^records:/ { print $2 }')
	types=$("$FTC" report --stat "$f" | awk '/^events:/ { e = 1; next } e && NF == 2 { t++ } e && NF != 2 { e = 0 } END { print t + 0 }')
	: >"$OUT/rep-ftc-all"; : >"$OUT/rep-ftc1-all"; : >"$OUT/rep-tc-all"
	for i in $(seq "$RUNS"); do
		measure "$OUT/rep-ftc-all" "$FTC" report "$f"
		measure "$OUT/rep-ftc1-all" "$FTC" report --jobs 1 "$f"
		measure "$OUT/rep-tc-all" trace-cmd report "$f"
	done
	FTC_FORMAT_STATS=1 "$FTC" report "$f" >"$OUT/all.ftc" 2>"$OUT/all.stats"
	FTC_FORMAT_TEP=1 "$FTC" report "$f" >"$OUT/all.tep" 2>/dev/null
	cmp -s "$OUT/all.ftc" "$OUT/all.tep" && same=yes || same=NO
	stats=$(tail -1 "$OUT/all.stats" | sed 's/^ftc format: //')
	local wf wt cf ct rf rt w1 c1
	wf=$(col 1 "$OUT/rep-ftc-all"); wt=$(col 1 "$OUT/rep-tc-all")
	cf=$(col 2 "$OUT/rep-ftc-all"); ct=$(col 2 "$OUT/rep-tc-all")
	rf=$(col 3 "$OUT/rep-ftc-all"); rt=$(col 3 "$OUT/rep-tc-all")
	w1=$(col 1 "$OUT/rep-ftc1-all"); c1=$(col 2 "$OUT/rep-ftc1-all")
	echo "all events (ftc record -e all; disk, file and process work), median of $RUNS alternating runs"
	echo "ftc report formats with one process per CPU by default (here $(nproc), at most 4); --jobs 1: one"
	row "" "ftc report" "trace-cmd" "ratio"
	row "records ($types event types)" "$n" "$n" ""
	row "wall seconds (all events)" "$wf" "$wt" "$(ratio "$wt" "$wf")x"
	row "CPU seconds (all events)" "$cf" "$ct" "$(ratio "$ct" "$cf")x"
	row "wall s, --jobs 1 (all events)" "$w1" "$wt" "$(ratio "$wt" "$w1")x"
	row "CPU s, --jobs 1 (all events)" "$c1" "$ct" "$(ratio "$ct" "$c1")x"
	row "events/s by wall (all events)" "$(eps "$n" "$wf")" "$(eps "$n" "$wt")" "$(ratio "$wt" "$wf")x"
	row "events/s by CPU (all events)" "$(eps "$n" "$cf")" "$(eps "$n" "$ct")" "$(ratio "$ct" "$cf")x"
	row "peak RSS KB (all events)" "$rf" "$rt" "$(ratio "$rf" "$rt")x"
	echo "compiled formats print what libtraceevent prints (cmp): $same; $stats"
	echo "load: $(uptime | sed 's/.*load/load/')"
	echo
	rm -f "$f" "$OUT/all.ftc" "$OUT/all.tep"
}

capture "$OUT/report-1x.dat" "$N" || { echo "report bench: capture failed"; exit 0; }
capture "$OUT/report-10x.dat" $((N * 10)) || { echo "report bench: 10x capture failed"; exit 0; }
capture "$OUT/report-mixed.dat" 20000 "sched syscalls irq timer kmem workqueue block ext4 filemap" ||
	{ echo "report bench: mixed capture failed"; exit 0; }
ev=$("$FTC" report --stat "$OUT/report-1x.dat" | awk '/^records:/ { print $2 }')
evm=$("$FTC" report --stat "$OUT/report-mixed.dat" | awk '/^records:/ { print $2 }')
ev10=$("$FTC" report --stat "$OUT/report-10x.dat" | awk '/^records:/ { print $2 }')

# measure FILE COMMAND...: appends "wall cpu rss_kb" of one run to FILE.
measure() {
	local f=$1; shift
	/usr/bin/time -f '%e %U %S %M' -o "$OUT/time.tmp" "$@" >/dev/null 2>&1
	awk '{ printf "%s %.3f %s\n", $1, $2 + $3, $4 }' "$OUT/time.tmp" >>"$f"
}
col() { awk -v c="$1" '{ print $c }' "$2" | median; }
eps() { awk -v n="$1" -v t="$2" 'BEGIN { if (t <= 0) print "inf"; else printf "%.0f", n / t }'; }
row() { printf '%-30s %12s %12s %8s\n' "$@"; }

all_events_table

for x in 1x 10x mixed; do
	: >"$OUT/rep-ftc-$x"; : >"$OUT/rep-tc-$x"
	runs=$RUNS; [ $x = 10x ] && runs=$(( RUNS < 3 ? RUNS : 3 ))
	# Alternate the tools so a busy machine slows both alike.
	: >"$OUT/rep-ftc1-$x"
	for i in $(seq "$runs"); do
		measure "$OUT/rep-ftc-$x" "$FTC" report "$OUT/report-$x.dat"
		[ $x = 10x ] && measure "$OUT/rep-ftc1-$x" "$FTC" report --jobs 1 "$OUT/report-$x.dat"
		measure "$OUT/rep-tc-$x" trace-cmd report "$OUT/report-$x.dat"
	done
done
wf=$(col 1 "$OUT/rep-ftc-1x"); wt=$(col 1 "$OUT/rep-tc-1x")
cf=$(col 2 "$OUT/rep-ftc-1x"); ct=$(col 2 "$OUT/rep-tc-1x")
rf=$(col 3 "$OUT/rep-ftc-1x"); rt=$(col 3 "$OUT/rep-tc-1x")
wf10=$(col 1 "$OUT/rep-ftc-10x"); wt10=$(col 1 "$OUT/rep-tc-10x")
cf10=$(col 2 "$OUT/rep-ftc-10x"); ct10=$(col 2 "$OUT/rep-tc-10x")
rf10=$(col 3 "$OUT/rep-ftc-10x"); rt10=$(col 3 "$OUT/rep-tc-10x")

echo "ftc report vs trace-cmd report, text to /dev/null, median of $RUNS alternating runs"
row "" "ftc report" "trace-cmd" "ratio"
row "records (1x)" "$ev" "$ev" ""
row "wall seconds (1x)" "$wf" "$wt" "$(ratio "$wt" "$wf")x"
row "CPU seconds (1x)" "$cf" "$ct" "$(ratio "$ct" "$cf")x"
row "events/s by wall (1x)" "$(eps "$ev" "$wf")" "$(eps "$ev" "$wt")" "$(ratio "$wt" "$wf")x"
row "events/s by CPU (1x)" "$(eps "$ev" "$cf")" "$(eps "$ev" "$ct")" "$(ratio "$ct" "$cf")x"
row "peak RSS KB (1x)" "$rf" "$rt" "$(ratio "$rf" "$rt")x"
row "records (10x)" "$ev10" "$ev10" ""
row "wall seconds (10x)" "$wf10" "$wt10" "$(ratio "$wt10" "$wf10")x"
row "CPU seconds (10x)" "$cf10" "$ct10" "$(ratio "$ct10" "$cf10")x"
w110=$(col 1 "$OUT/rep-ftc1-10x"); c110=$(col 2 "$OUT/rep-ftc1-10x")
row "wall s, --jobs 1 (10x)" "$w110" "$wt10" "$(ratio "$wt10" "$w110")x"
row "CPU s, --jobs 1 (10x)" "$c110" "$ct10" "$(ratio "$ct10" "$c110")x"
row "peak RSS KB (10x)" "$rf10" "$rt10" "$(ratio "$rf10" "$rt10")x"
wfm=$(col 1 "$OUT/rep-ftc-mixed"); wtm=$(col 1 "$OUT/rep-tc-mixed")
row "records (mixed events)" "$evm" "$evm" ""
row "wall seconds (mixed)" "$wfm" "$wtm" "$(ratio "$wtm" "$wfm")x"
row "RSS growth 1x -> 10x" "$(ratio "$rf10" "$rf")x" "$(ratio "$rt10" "$rt")x" ""

# perf script on a perf capture of the same workload and tracepoints.
if command -v perf >/dev/null; then
	perf record -q -o "$OUT/report-perf.data" -e syscalls:sys_enter_getppid \
		-e syscalls:sys_exit_getppid -e sched:sched_switch -C 0 -- \
		taskset -c 0 "$OUT/getppid" "$N" >/dev/null 2>&1
	pev=$(perf script -i "$OUT/report-perf.data" 2>/dev/null | wc -l)
	: >"$OUT/rep-perf"
	for i in $(seq "$RUNS"); do
		measure "$OUT/rep-perf" perf script -i "$OUT/report-perf.data"
	done
	wp=$(col 1 "$OUT/rep-perf"); cp=$(col 2 "$OUT/rep-perf")
	row "perf script records" "" "$pev" ""
	row "events/s by wall: ftc / perf" "$(eps "$ev" "$wf")" "$(eps "$pev" "$wp")" \
		"$(awk -v a="$ev" -v b="$wf" -v c="$pev" -v d="$wp" 'BEGIN { printf "%.2fx", (a / b) / (c / d) }')"
	row "events/s by CPU: ftc / perf" "$(eps "$ev" "$cf")" "$(eps "$pev" "$cp")" \
		"$(awk -v a="$ev" -v b="$cf" -v c="$pev" -v d="$cp" 'BEGIN { printf "%.2fx", (a / b) / (c / d) }')"
fi
rm -f "$OUT/report-perf.data" "$OUT/report-1x.dat" "$OUT/report-10x.dat" "$OUT/report-mixed.dat" \
	"$OUT/time.tmp"
