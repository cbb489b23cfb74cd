# SPDX-License-Identifier: GPL-2.0-or-later
# ftc sched against perf sched latency on the same run: perf sched record
# (system-wide) runs ftc sched record, which runs two threads pinned to one
# CPU ping-ponging N times. perf's columns, accounted for per thread (-p):
# its Switches are the delays it measures, and with the sched_waking events
# its record records, those are the delays after a preemption only (plus
# the thread's first switch-in): ftc's preempted_wait count, +-2. Its Max
# delay is not compared: perf sees the main thread from its fork, ftc's
# capture later (seen: 1.08 ms before it), and perf drops a few delays
# (seen: 7 us for perf, 35 us for ftc's longest). Its Runtime
# (sched_stat_runtime) is ftc's run time (switch-in to switch-out) +-10%,
# plus the time the host stole meanwhile, for the thread
# made inside the capture, and holds ftc's for the other.
# ftc's DELAYS column counts the wakeup delays too: about N per thread.
. "$(dirname "$0")/../lib.sh"

for t in perf cc python3; do
	command -v $t >/dev/null || { skip "sched-perf" "$t is not installed"; finish; }
done
perf sched record -o /dev/null -- true >/dev/null 2>&1 ||
	{ skip "sched-perf" "perf sched record fails here"; finish; }
D=$OUT/sched-perf.$$
rm -rf "$D"; mkdir -p "$D"
I=$(test_instance schedperf)
trap 'instances_remove "$I"; [ "$T_FAILED" = 0 ] && rm -rf "$D"' EXIT
knobs_save
cc -O2 -pthread -o "$D/pp" "$TOP/tests/fixtures/pingpong.c" || { fail "setup: build the ping-pong" "cc failed"; finish; }
N=1000
# Time the host stole from the vCPU while a task ran is in ftc's run time,
# switch-in to switch-out, but not in perf's Runtime (sched_stat_runtime
# counts the task's clock, which leaves steal out): a busy host's steal of
# 0.5 ms is 10% of these runs. What /proc/stat counts of it during the run
# (all CPUs, in ms, 10 ms a tick) widens the bound.
taken_ms() { awk '$1 == "cpu" { print $9 * 10; exit }' /proc/stat; }
taken0=$(taken_ms)
if ! perf sched record -o "$D/perf.data" -- "$FTC" sched record -q -B "$I" -o "$D/pp.dat" -- \
	"$D/pp" $N >"$D/rec.log" 2>&1; then
	fail "setup: perf sched record of ftc sched record" "$(tail -3 "$D/rec.log")"
	finish
fi
taken=$(( $(taken_ms) - taken0 ))
pass "perf sched record and ftc sched record took the same run ($taken ms stolen)"
# perf: "pp:PID | Runtime ms | Switches | avg: ms | max: ms | ..."
perf sched latency -p -i "$D/perf.data" 2>/dev/null |
	awk -F'|' '$1 ~ /^ *pp:[0-9]+ *$/ { split($1, t, ":"); gsub(/[^0-9.]/, "", $2); gsub(/ /, "", $3)
		sub(/.*max: */, "", $5); sub(/ ms.*/, "", $5); gsub(/[^0-9.]/, "", $6)
		print t[2] + 0, $2, $3, $5, $6 }' |
	sort >"$D/perf.rows"
"$FTC" sched latency --json --comm pp "$D/pp.dat" 2>/dev/null | python3 -c '
import json, sys
for t in json.load(sys.stdin)["tasks"]:
	w = t["preempted_wait"]
	print(t["pid"], t["run_ns"] / 1e6, w["count"], w["max_ns"], t["delays"])' | sort >"$D/ftc.rows"
[ "$(wc -l <"$D/perf.rows")" = 2 ] && [ "$(wc -l <"$D/ftc.rows")" = 2 ] &&
	pass "both see the two pp threads" ||
	fail "both see the two pp threads" "perf: $(cat "$D/perf.rows" | tr '\n' ';') ftc: $(cat "$D/ftc.rows" | tr '\n' ';')"
join "$D/perf.rows" "$D/ftc.rows" >"$D/both"
# the main thread was ftc's child before its exec, and ran there for perf
# before ftc's capture began; the other thread was made inside the capture
born=$(sort -n "$D/both" | tail -1 | cut -d' ' -f1)
while read -r pid prun psw pmax pat frun fpre fmax fdel; do
	d=$((psw - fpre))
	[ $d -ge -2 ] && [ $d -le 2 ] &&
		pass "thread $pid: perf's $psw Switches are ftc's $fpre delays after a preemption (+-2)" ||
		fail "thread $pid: perf's Switches are ftc's delays after a preemption" "perf $psw, ftc $fpre"
	if [ "$pid" = "$born" ]; then
		awk -v p="$prun" -v f="$frun" -v t="$taken" 'BEGIN { exit !(f >= p * 0.9 && f <= p * 1.1 + t) }' &&
			pass "thread $pid (made in the capture): perf's Runtime $prun ms is ftc's run time $frun ms (+-10%, + $taken ms)" ||
			fail "thread $pid: perf's Runtime is ftc's run time +-10% (+ $taken ms)" "perf $prun ms, ftc $frun ms"
	else
		awk -v p="$prun" -v f="$frun" -v t="$taken" 'BEGIN { exit !(f <= p * 1.1 + t) }' &&
			pass "thread $pid (forked before the capture): ftc's run time $frun ms is within perf's $prun ms" ||
			fail "thread $pid: ftc's run time is within perf's" "perf $prun ms, ftc $frun ms"
	fi
	[ "$fdel" -ge $((N - 5)) ] &&
		pass "thread $pid: ftc's DELAYS ($fdel) count the wakeups too: about N ($N)" ||
		fail "thread $pid: ftc's DELAYS count the wakeups too" "$fdel of $N"
done <"$D/both"
[ -s "$D/both" ] || fail "perf's and ftc's threads are the same pids" "perf: $(cat "$D/perf.rows") ftc: $(cat "$D/ftc.rows")"
knobs_unchanged "sched-perf"
finish
