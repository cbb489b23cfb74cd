#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Synthetic events where the kernel has hist triggers (issue 16): in one
# boot, ftc record defines a wakeup-latency event with --probe 's:...',
# fills it through hist triggers given with -R (sched_waking saves a
# timestamp per pid, sched_switch's onmatch().trace() emits the event) and
# records it with the sched_switch records it came from; then `probe add`
# keeps one, list and del see ftc's only, del of one that a hist action
# names is refused with the reason, a SIGKILLed record's guardian
# removes its event, and a bad field type shows the kernel's error_log
# caret. On the host: ftc report and trace-cmd report agree on the values.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

NAME="lab synth"

LAB_TIMEOUT=${LAB_TIMEOUT_SYNTH:-120} lab_run synth - <<'EOF' || finish
T=/sys/kernel/tracing
export FTC_JOURNAL_DIR=/tmp/j
synths() { grep -c '^s:' $T/dynamic_events; }
echo "== check"
ftc check 2>/dev/null | grep -E '^trigger-hist '
echo "== record"
# as ftc-probe(1) writes it
a='hist:keys=pid:ts0=common_timestamp'
b='hist:keys=next_pid:lat=common_timestamp-$ts0'
b="$b"':onmatch(sched.sched_waking).trace(ftc_wakeup_lat,next_pid,$lat)'
ftc record -q -o /tmp/s.dat --probe 's:ftc_wakeup_lat pid_t pid; u64 lat' \
	-e sched:sched_waking -R "$a" -e sched:sched_switch -R "$b" \
	-- sh -c 'for i in 1 2 3 4 5 6; do sleep 0.05; done'
echo "status=$?"
echo "left=$(synths)"
echo "triggers=$(cat $T/events/sched/sched_waking/trigger $T/events/sched/sched_switch/trigger | grep -c '^hist')"
lab_export /tmp/s.dat
echo "== add"
echo 's:other_lat u64 x' >>$T/dynamic_events
ftc probe add 's:ftc_kept u64 x; char[16] comm'; echo "status=$?"
ftc probe add 's:ftc_kept u64 x' 2>&1; echo "status=$?"
ftc probe list | cut -f1
ftc probe del '*'; echo "status=$?"
grep '^s:' $T/dynamic_events
echo '-:synthetic/other_lat' >>$T/dynamic_events
echo "== busy"
ftc probe add 's:ftc_busy u64 lat' >/dev/null
W=$T/events/sched/sched_waking/trigger S=$T/events/sched/sched_switch/trigger
h='hist:keys=next_pid:lat=common_timestamp-$ts0:onmatch(sched.sched_waking).trace(ftc_busy,$lat)'
echo 'hist:keys=pid:ts0=common_timestamp' >>$W
echo "$h" >>$S
ftc probe del synthetic:ftc_busy 2>&1; echo "status=$?"
echo "!$h" >>$S
echo '!hist:keys=pid:ts0=common_timestamp' >>$W
ftc probe del synthetic:ftc_busy 2>&1; echo "status=$?"
echo "left=$(synths)"
echo "== killed"
ftc record -q -o /tmp/k.dat --probe 's:ftc_killed u64 x' -- sleep 30 &
p=$!
for i in $(seq 1 100); do grep -q ftc_killed $T/dynamic_events && break; sleep 0.1; done
echo "defined=$(synths)"
kill -9 $p
for i in $(seq 1 100); do [ "$(synths)" = 0 ] && break; sleep 0.1; done
echo "left=$(synths)"
echo "== badtype"
ftc probe add 's:ftc_bad u6 x; u64 lat' 2>&1; echo "status=$?"
echo "== end"
EOF

k=$(lab_section check)
expect_match "$NAME: the guest has hist triggers" '^trigger-hist +ok' "$k"
r=$(lab_section record)
expect_match "$NAME: record exits 0" '^status=0$' "$r"
expect_match "$NAME: record removed its synthetic event" '^left=0$' "$r"
expect_match "$NAME: record removed its hist triggers" '^triggers=0$' "$r"
if expect "$NAME: the capture comes back" lab_file synth /tmp/s.dat "$OUT/s.dat"; then
	"$FTC" report -i "$OUT/s.dat" >"$OUT/synth-ftc.txt" 2>&1
	trace-cmd report -i "$OUT/s.dat" >"$OUT/synth-tc.txt" 2>&1
	for who in ftc tc; do
		f=$OUT/synth-$who.txt
		# pid=N lat=N of each synthetic record
		sed -n 's/.* ftc_wakeup_lat: *pid=\([0-9]*\),* lat=\([0-9]*\)$/\1 \2/p' "$f" >"$f.lat"
		n=$(wc -l <"$f.lat")
		expect "$who report: synthetic records ($n)" test "$n" -ge 3
		# 0 is a latency too: a waking and its switch-in can read the
		# same clock value (seen under load: pid 15, lat 0)
		bad=$(awk '$2 > 10000000000' "$f.lat")
		expect "$who report: every lat is under 10 s" test -z "$bad"
		# each pid is the next_pid of a sched_switch record of the trace
		sed -n 's/.*sched_switch:.*==> .*:\([0-9][0-9]*\) \[[0-9]*\]$/\1/p' "$f" |
			sort -u >"$f.next"
		miss=$(cut -d' ' -f1 "$f.lat" | sort -u | comm -23 - "$f.next")
		expect "$who report: every pid is switched in by a sched_switch record" test -z "$miss"
	done
	expect "ftc and trace-cmd read the same pid/lat pairs" cmp -s "$OUT/synth-ftc.txt.lat" \
		"$OUT/synth-tc.txt.lat"
	only=$("$FTC" report -i "$OUT/s.dat" --event synthetic:ftc_wakeup_lat 2>&1 | grep -v '^#')
	expect "ftc report --event synthetic:ftc_wakeup_lat: those records alone" test \
		"$(echo "$only" | grep -c ' ftc_wakeup_lat: ')" = "$(echo "$only" | wc -l)" -a \
		"$(echo "$only" | wc -l)" = "$(wc -l <"$OUT/synth-ftc.txt.lat")"
fi
a=$(lab_section add)
expect_match "$NAME: add keeps synthetic:ftc_kept" '^synthetic:ftc_kept$' "$a"
expect_match "$NAME: a second one is refused" "synthetic:ftc_kept exists already" "$a"
expect "$NAME: add, refusal, del: exit 0, 1, 0" test "$(echo "$a" | grep '^status=' | tr '\n' ' ')" = \
	"status=0 status=1 status=0 "
expect_nomatch "$NAME: list shows no one else's synthetic event" 'other_lat' \
	"$(echo "$a" | grep -v '^s:')"
expect "$NAME: del '*' leaves only the other one" test \
	"$(echo "$a" | grep '^s:' | cut -d' ' -f1 | cut -f1)" = "s:synthetic/other_lat"
bu=$(lab_section busy)
expect_match "$NAME: busy: del says a hist trigger's action names it" \
	"synthetic:ftc_busy is enabled in some buffer or named by a hist trigger's action" "$bu"
expect "$NAME: busy: exit 1, then 0 once the triggers are gone" test \
	"$(echo "$bu" | grep '^status=' | tr '\n' ' ')" = "status=1 status=0 "
expect_match "$NAME: busy: removed in the end" '^left=0$' "$bu"
kl=$(lab_section killed)
expect_match "$NAME: the killed record had defined its event" '^defined=1$' "$kl"
expect_match "$NAME: its guardian removed the event" '^left=0$' "$kl"
b=$(lab_section badtype)
expect_nomatch "$NAME: badtype: refused" '^status=0$' "$b"
expect_match "$NAME: badtype: the kernel's error_log entry" 'synthetic_events: error: ' "$b"
cmdline=$(echo "$b" | grep 'Command:')
caret=$(echo "$b" | grep -E '^ *\^$')
if [ -n "$caret" ] && [ "$(awk -v c="$caret" 'BEGIN { print index(c, "^") }')" = \
     "$(awk -v c="$cmdline" 'BEGIN { print index(c, "u6 x") }')" ]; then
	pass "$NAME: badtype: the error_log caret points at u6"
else fail "$NAME: badtype: the error_log caret points at u6" "$(echo "$b" | tr '\n' '|')"; fi
finish
