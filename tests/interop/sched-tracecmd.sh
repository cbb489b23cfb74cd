# SPDX-License-Identifier: GPL-2.0-or-later
# ftc sched on trace-cmd's file of the same run as on ftc's own: an
# instance of ours records the sched events through tracefs while ftc
# record records them into another (the first inside the second's window),
# around two threads pinned to one CPU ping-ponging N times; trace-cmd extract then writes the first instance's
# file (trace-cmd record dies on this kernel: it writes knobs it is
# refused). Both instances see every tracepoint hit, each stamping its own
# copy, so per thread the counts are equal (switches, wakeups, delays,
# preemptions) and the times equal but for the stamps' own jitter: the two
# stamps of one hit are a moment apart, and that moment varies (an ASan
# build beside a busy machine: 80 ns a switch, 4.8% of these 2 us
# delays), so the sums may differ by 2% or 250 ns a switch, the larger.
. "$(dirname "$0")/../lib.sh"

for t in trace-cmd cc python3; do
	command -v $t >/dev/null || { skip "sched-tracecmd" "$t is not installed"; finish; }
done
D=$OUT/sched-tracecmd.$$
rm -rf "$D"; mkdir -p "$D"
A=$(test_instance schedtc-ftc) B=$(test_instance schedtc-tc)
trap 'instances_remove "$A" "$B"; [ "$T_FAILED" = 0 ] && rm -rf "$D"' EXIT
knobs_save
cc -O2 -pthread -o "$D/pp" "$TOP/tests/fixtures/pingpong.c" || { fail "setup: build the ping-pong" "cc failed"; finish; }
EVENTS="sched_switch sched_wakeup sched_wakeup_new sched_migrate_task"
dir=$TRACEFS/instances/$B
if ! mkdir "$dir" || ! echo 0 >"$dir/tracing_on" || ! echo 8192 >"$dir/buffer_size_kb"; then
	fail "setup: instance $B" "mkdir, tracing_on or buffer_size_kb refused"
	finish
fi
for e in $EVENTS; do echo 1 >"$dir/events/sched/$e/enable"; done
N=2000
# The second instance traces inside ftc's window, and the ping-pong inside
# its own: both see the whole life of its threads.
"$FTC" record -q -B "$A" -b 8192 -o "$D/ftc.dat" $(printf -- '-e sched:%s ' $EVENTS) -- \
	sh -c 'echo 1 >"$1/tracing_on"; "$2" "$3"; s=$?; echo 0 >"$1/tracing_on"; exit $s' sh \
	"$dir" "$D/pp" $N >"$D/rec.log" 2>&1
rc=$?
[ $rc = 0 ] || { fail "setup: ftc record of the ping-pong" "$(tail -3 "$D/rec.log")"; finish; }
if ! trace-cmd extract -B "$B" -o "$D/tc.dat" >"$D/extract.log" 2>&1; then
	fail "setup: trace-cmd extract -B $B" "$(tail -3 "$D/extract.log")"
	finish
fi
pass "ftc record and trace-cmd extract took the same run"

rows() {
	"$FTC" sched latency --json --comm pp "$1" 2>"$D/$2.err" | python3 -c '
import json, sys
for t in json.load(sys.stdin)["tasks"]:
	print(t["pid"], t["switches"], t["wakeups"], t["delays"], t["preempted"], t["run_ns"],
	      t["delay_ns"], t["lost_gaps"])' | sort >"$D/$2.rows"
}
rows "$D/ftc.dat" ftc
rows "$D/tc.dat" tc
[ "$(wc -l <"$D/ftc.rows")" = 2 ] && [ "$(wc -l <"$D/tc.rows")" = 2 ] &&
	pass "both files hold the two pp threads" ||
	fail "both files hold the two pp threads" "ftc: $(tr '\n' ';' <"$D/ftc.rows") trace-cmd: $(tr '\n' ';' <"$D/tc.rows") $(cat "$D/tc.err")"
join "$D/ftc.rows" "$D/tc.rows" >"$D/both"
# The two copies of one hit are stamped a moment apart, but a moment that
# can grow: a busy host that stops the vCPU between the two writes (CI saw
# one such hit of 550 us move that much from one thread's run time to the
# other's delay). Pair the pp threads' switches and wakeups of both files,
# in order per CPU: a hit stamped G late in one file moves a thread's sums
# by G at most, so the bound widens by the wide gaps' sum.
switches() {
	"$FTC" report --json --event sched:sched_switch --event sched:sched_wakeup "$1" 2>/dev/null |
		python3 -c '
import json, sys
pids = set(sys.argv[1:])
for l in sys.stdin:
	r = json.loads(l); f = r["fields"]
	who = [f["pid"]] if "pid" in f else [f["prev_pid"], f["next_pid"]]
	if any(str(p) in pids for p in who):
		print(r["cpu"], r["ts"], r["event"], *who)' $(cut -d" " -f1 "$D/both") |
		sort -s -n -k1,1 >"$D/$2.sw"
}
switches "$D/ftc.dat" ftc
switches "$D/tc.dat" tc
jitter=$(python3 - "$D/ftc.sw" "$D/tc.sw" <<'PY'
import sys
a = [l.split() for l in open(sys.argv[1])]
b = [l.split() for l in open(sys.argv[2])]
if not a or len(a) != len(b) or any(x[0] != y[0] or x[2:] != y[2:] for x, y in zip(a, b)):
	print("unpaired", len(a), len(b)); sys.exit()
g = sorted(int(y[1]) - int(x[1]) for x, y in zip(a, b))
mid = g[len(g) // 2]
wide = [abs(x - mid) for x in g if abs(x - mid) > 10000]
print(max(abs(x - mid) for x in g), len(wide), sum(wide), len(g))
PY
)
set -- $jitter
lost=$(awk '$8 + $15 > 0' "$D/both")
# A wide gap is a rare hit, not the rule: more than 1% over 10 us would be
# stamps read wrong, not a stopped vCPU.
if [ -n "$lost" ]; then
	skip "the switches pair up across the files" "events were lost"
elif [ "$1" != unpaired ] && [ $(($2 * 100)) -le "$4" ]; then
	pass "the $4 switches and wakeups pair up across the files; the widest gap beyond the usual is $1 ns ($2 over 10 us, $3 ns in all)"
else
	fail "the pp threads' switches and wakeups pair up across the files, a moment apart" "$jitter"
fi
gap=$([ "$1" != unpaired ] && echo "$3" || echo 0)
while read -r pid sw wk dl pre run del lost tsw twk tdl tpre trun tdel tlost; do
	[ "$lost$tlost" = 00 ] || { skip "thread $pid: counts" "events were lost ($lost, $tlost gaps)"; continue; }
	[ "$sw $wk $dl $pre" = "$tsw $twk $tdl $tpre" ] && [ "$sw" -ge "$N" ] &&
		pass "thread $pid: $sw switches, $wk wakeups, $dl delays, $pre preemptions in both files" ||
		fail "thread $pid: the same counts in both files" "ftc's: $sw $wk $dl $pre; trace-cmd's: $tsw $twk $tdl $tpre"
	# close: A B SWITCHES: |A - B| within 2% of A or 250 ns a switch, the
	# larger, and the wide gaps
	close() { awk -v a="$1" -v b="$2" -v n="$3" -v g="$gap" 'BEGIN { d = b - a; d = d < 0 ? -d : d
		t = a * 0.02; t = n * 250 > t ? n * 250 : t; exit !(d <= t + g) }'; }
	close "$run" "$trun" "$sw" &&
		pass "thread $pid: run time $run ns, $trun ns in trace-cmd's (2% or 250 ns a switch, + $gap)" ||
		fail "thread $pid: the same run time (2% or 250 ns a switch, + $gap)" "ftc's $run ns, trace-cmd's $trun ns"
	close "$del" "$tdel" "$sw" &&
		pass "thread $pid: delays $del ns, $tdel ns in trace-cmd's (2% or 250 ns a switch, + $gap)" ||
		fail "thread $pid: the same delays (2% or 250 ns a switch, + $gap)" "ftc's $del ns, trace-cmd's $tdel ns"
done <"$D/both"
knobs_unchanged "sched-tracecmd"
finish
