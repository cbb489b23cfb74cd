# SPDX-License-Identifier: GPL-2.0-or-later
# ftc sched against the kernel and trace-cmd: two threads pinned to one CPU
# ping-pong over pipes N times, recorded in an instance of ours; each
# thread's switch-ins, switch-outs and wakeups equal its records as
# trace-cmd report prints them from the same file (about N switch-ins),
# and timehist has a line per switch-out. A program that sleeps 100 x 10 ms
# sleeps 1.00 s +-5% in state S (latency); off the CPU, under do_nanosleep
# (offcpu, folded and drawn), it spends the time its naps took by its own
# clock +-5%: 1.00 s on a quiet machine, more where it waits for a CPU
# after each wakeup (two busy loops beside it: up to 1.17 s seen), and with
# ftc sched record's perf
# samples under its own main too; live (-- COMMAND, -a) the same without a
# file left. hist holds latency's delays, in buckets and in the heat map;
# map's starred cells are trace-cmd's sched_switch records, one for one.
# Lost events: pages of a copy marked lost give exact gaps and counts,
# marked rows and timehist lines; a real loss (the recorder stopped while
# a one-page buffer floods) gives the figures of report's markers.
# A file without sched_switch, a view or option that does not fit, and a
# missing instance get their exit codes.
. "$(dirname "$0")/../lib.sh"

for t in cc trace-cmd python3; do
	command -v $t >/dev/null || { skip "sched" "$t is not installed"; finish; }
done
D=$OUT/sched.$$
rm -rf "$D"; mkdir -p "$D"
I=$(test_instance sched)
trap 'instances_remove "$I"; [ "$T_FAILED" = 0 ] && rm -rf "$D"' EXIT
knobs_save

# nap writes the time its 100 naps took, in us, to $NAP_US when set
cat >"$D/nap.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
__attribute__((noinline)) static void nap(void)
{
	struct timespec t = { 0, 10000000 };

	nanosleep(&t, NULL);
}
static long long now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}
int main(void)
{
	const char *out = getenv("NAP_US");
	long long t0 = now_us();
	FILE *f;

	for (int i = 0; i < 100; i++)
		nap();
	if (out && (f = fopen(out, "w"))) {
		fprintf(f, "%lld\n", now_us() - t0);
		fclose(f);
	}
	return 0;
}
EOF
# fp/nap: frame pointers, for the user stacks of perf's fp call chains
if ! cc -O2 -pthread -o "$D/pp" "$TOP/tests/fixtures/pingpong.c" || ! cc -O2 -o "$D/nap" "$D/nap.c" ||
   ! mkdir -p "$D/fp" || ! cc -O0 -fno-omit-frame-pointer -o "$D/fp/nap" "$D/nap.c"; then
	fail "setup: build the workloads" "cc failed"
	finish
fi

N=1000
rec() {	# rec FILE COMMAND...: the events ftc sched reads, the stack trigger on the switch
	local f=$1
	shift
	"$FTC" record -q -o "$f" -B "$I" -e sched:sched_switch -R stacktrace -e sched:sched_wakeup \
		-e sched:sched_wakeup_new -e sched:sched_migrate_task -- "$@" >"$D/rec.log" 2>&1
}
if ! rec "$D/pp.dat" "$D/pp" $N; then
	fail "setup: ftc record the ping-pong" "$(tail -3 "$D/rec.log")"
	finish
fi

# --- the ping-pong: each thread's counts are its records --------------------
"$FTC" sched latency --json --comm pp "$D/pp.dat" >"$D/pp.json" 2>"$D/pp.err"
rc=$?
[ $rc = 0 ] && python3 -m json.tool "$D/pp.json" >/dev/null &&
	pass "latency --json exits 0 with valid JSON" ||
	fail "latency --json exits 0 with valid JSON" "exit $rc: $(head -c 300 "$D/pp.json") $(cat "$D/pp.err")"
python3 - "$D/pp.json" >"$D/pp.tasks" <<'EOF'
import json, sys
for t in json.load(open(sys.argv[1]))["tasks"]:
	print(t["pid"], t["switches"] - t["inferred_switches"], t["wakeups"], t["delays"], t["preempted"])
EOF
trace-cmd report -N -i "$D/pp.dat" >"$D/pp.tc" 2>/dev/null
[ "$(wc -l <"$D/pp.tasks")" = 2 ] && pass "two pp threads" ||
	fail "two pp threads" "$(cat "$D/pp.tasks")"
while read -r pid sw wk dl pre; do
	tc_in=$(grep -Ec "sched_switch: .*==> next_comm=[^ ]* next_pid=$pid " "$D/pp.tc")
	tc_out=$(grep -Ec "sched_switch: +prev_comm=[^ ]* prev_pid=$pid " "$D/pp.tc")
	tc_wk=$(grep -Ec "sched_wakeup(_new)?: +comm=[^ ]* pid=$pid " "$D/pp.tc")
	# About N: a preemption (other work on CPU 0, ASan) adds a switch-in each.
	[ "$sw" = "$tc_in" ] && [ "$sw" -ge $N ] && [ $((sw - pre)) -le $((N + 5)) ] &&
		pass "thread $pid: $sw switch-ins ($pre after a preemption), trace-cmd prints $tc_in, N is $N" ||
		fail "thread $pid: switch-ins are its records and about N" "ftc $sw ($pre after a preemption), trace-cmd $tc_in, N $N"
	# Fewer than N: a thread the other preempts on its wakeup is runnable,
	# not asleep, when its turn comes, and is not woken again.
	[ "$wk" = "$tc_wk" ] && [ "$wk" -gt 0 ] && [ "$wk" -le $((N + 5)) ] &&
		pass "thread $pid: $wk wakeups, trace-cmd prints $tc_wk" ||
		fail "thread $pid: wakeups are its records" "ftc $wk, trace-cmd $tc_wk, N $N"
	# A delay per switch-in: from the wakeup, or from the preemption.
	[ "$dl" -ge $((sw - 2)) ] && pass "thread $pid: a delay measured per switch-in ($dl of $sw)" ||
		fail "thread $pid: a delay measured per switch-in" "$dl of $sw"
	th=$("$FTC" sched timehist -p "$pid" "$D/pp.dat" 2>/dev/null | grep -c "\[$pid\]")
	[ "$th" = "$tc_out" ] && pass "thread $pid: timehist has a line per switch-out ($th)" ||
		fail "thread $pid: timehist has a line per switch-out" "timehist $th, trace-cmd $tc_out"
done <"$D/pp.tasks"

# --- the trigger's stacks print as trace-cmd prints them ------------------
# (a kernel_stack record holds as many callers as the stack had, not the 8
# of its format: half of them were once printed as damaged)
bad=$("$FTC" report "$D/pp.dat" 2>/dev/null | grep -c 'damaged record')
a=$("$FTC" report "$D/pp.dat" 2>/dev/null | grep -c '^=> ')
b=$(trace-cmd report -i "$D/pp.dat" 2>/dev/null | grep -c '^=> ')
same=$(cmp -s <("$FTC" report "$D/pp.dat" 2>/dev/null | grep '^=> ') \
	<(trace-cmd report -i "$D/pp.dat" 2>/dev/null | grep '^=> ') && echo yes)
[ "$bad" = 0 ] && [ "$a" -gt "$N" ] && [ "$same" = yes ] &&
	pass "report: every stack's $a frames as trace-cmd prints them, none damaged" ||
	fail "report: the stacks as trace-cmd prints them" "$bad damaged, $a frames, trace-cmd $b"

# --- map: each starred cell is a sched_switch of trace-cmd's, in order -----
"$FTC" sched map "$D/pp.dat" >"$D/pp.map" 2>"$D/map.err"
set -- $(python3 "$TOP/tests/fixtures/sched-map-check.py" "$D/pp.map" "$D/pp.tc" 2>&1)
[ "$1" -gt "$N" ] 2>/dev/null && [ "$1" = "$2" ] && [ -z "${3:-}" ] &&
	pass "map: its $1 switches are trace-cmd's records, cell for cell" ||
	fail "map: its switches are trace-cmd's records" "$* $(head -2 "$D/map.err")"
sel=$("$FTC" sched map --comm pp "$D/pp.dat" 2>/dev/null | grep -c '\*')
tc_pp=$(grep sched_switch "$D/pp.tc" | grep -c 'prev_comm=pp \|next_comm=pp ')
[ "$sel" = "$tc_pp" ] && pass "map --comm pp: the $sel switches into or out of pp" ||
	fail "map --comm pp: the switches into or out of pp" "map $sel, trace-cmd $tc_pp"
expect_status "--limit with map exits 2" 2 "$FTC" sched map --limit 3 "$D/pp.dat"
# A window round the whole capture changes nothing; one past it says where the records are.
[ "$("$FTC" sched latency --comm pp --from 0 --to 999999999 "$D/pp.dat" 2>&1)" = \
  "$("$FTC" sched latency --comm pp "$D/pp.dat" 2>&1)" ] && pass "--from 0 --to 999999999: the whole capture" ||
	fail "--from 0 --to 999999999: the whole capture" "the output differs"
expect_status "a window after the capture exits 3" 3 "$FTC" sched latency --from 999999999 "$D/pp.dat"
expect_match "... saying where the capture's records are" \
	'no sched_switch record lies between --from 999999999\.000000000 and the end; the capture.s records run from [0-9]+\.[0-9]{9} to [0-9]+\.[0-9]{9}$' \
	"$(cat "$OUT/last.err")"

# --- 100 x 10 ms asleep: 1.00 s off the CPU in S, under do_nanosleep -------
if NAP_US=$D/nap1.us rec "$D/nap.dat" "$D/nap"; then
	pass "ftc record the sleeper"
else
	fail "setup: ftc record the sleeper" "$(tail -3 "$D/rec.log")"
	finish
fi
within() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; }
# naps_within US FILE: US is the naps' own time in FILE (1 s or more) +-5%
naps_within() {
	local self
	self=$(cat "$2" 2>/dev/null)
	awk -v v="$1" -v s="${self:-0}" 'BEGIN { exit !(s >= 1000000 && v >= s * 0.95 &&
		v <= s * 1.05) }'
}
sleep_ms=$("$FTC" sched latency --comm nap "$D/nap.dat" 2>/dev/null | awk '$2 == "nap" { print $9 }')
within "${sleep_ms:-0}" 950 1050 && pass "latency: nap slept $sleep_ms ms (1000 +-5%)" ||
	fail "latency: nap slept 1000 ms +-5%" "${sleep_ms:-none}: $("$FTC" sched latency --comm nap "$D/nap.dat" 2>&1 | head -3)"
"$FTC" sched offcpu --comm nap --folded "$D/nap.dat" >"$D/nap.folded" 2>"$D/nap.err"
us=$(awk '/;do_nanosleep_\[k\];.*;\[S\] [0-9]+$/ { s += $NF } END { print s + 0 }' "$D/nap.folded")
naps_within "$us" "$D/nap1.us" &&
	pass "offcpu: $us us in S under do_nanosleep (the naps took $(cat "$D/nap1.us") us +-5%)" ||
	fail "offcpu: the naps' time +-5% in S under do_nanosleep" \
		"$us us, the naps $(cat "$D/nap1.us" 2>&1) us: $(head -c 400 "$D/nap.folded")"
expect_match "offcpu folded stacks start with the task, the state last" '^nap;.*;\[S\] [0-9]+$' \
	"$(cat "$D/nap.folded")"
"$FTC" sched offcpu --comm nap --flamegraph "$D/nap.svg" "$D/nap.dat" >/dev/null 2>&1 &&
	grep -q "do_nanosleep" "$D/nap.svg" && pass "offcpu --flamegraph draws do_nanosleep" ||
	fail "offcpu --flamegraph draws do_nanosleep" "$(head -c 200 "$D/nap.svg" 2>&1)"

# --- hist: the same delays as latency, in buckets and over time ------------
total=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["total"]["delays"])' \
	"$D/pp.json" 2>/dev/null)
"$FTC" sched hist "$D/pp.dat" >"$D/pp.hist" 2>&1
head=$(sed -n 's/^# all tasks: \([0-9]*\) delays.*/\1/p' "$D/pp.hist")
rows=$(awk -F'|' '/ -> / && NF == 3 { split($1, a, " "); s += a[4] } END { print s + 0 }' "$D/pp.hist")
[ -n "$total" ] && [ "$head" = "$total" ] && [ "$rows" = "$total" ] &&
	pass "hist: its rows hold latency's $total delays" ||
	fail "hist: its rows hold latency's delays" "latency ${total:-?}, header ${head:-?}, rows $rows: $(head -5 "$D/pp.hist")"
expect_match "hist: the percentiles and the maximum" '^p50 [0-9.]+ us, p90 [0-9.]+ us, p99 [0-9.]+ us, max [0-9.]+ us' \
	"$(cat "$D/pp.hist")"
n=$("$FTC" sched hist --comm pp --per-task "$D/pp.dat" 2>/dev/null | grep -c '^# pp\[[0-9]*\]: ')
[ "$n" = 2 ] && pass "hist --per-task: one histogram per thread" ||
	fail "hist --per-task: one histogram per thread" "$n"
echo "an older map" >"$D/heat.svg"
"$FTC" sched hist --heatmap "$D/heat.svg" "$D/pp.dat" >/dev/null 2>"$D/heat.err"
cells=$(python3 - "$D/heat.svg" <<'EOF2'
import re, sys, xml.etree.ElementTree as E
ns = '{http://www.w3.org/2000/svg}'
print(sum(int(re.search(r': (\d+) in', t.text).group(1))
	for t in E.parse(sys.argv[1]).getroot().iter(ns + 'title')))
EOF2
)
[ -n "$total" ] && [ "$cells" = "$total" ] && pass "hist --heatmap: valid SVG whose cells hold the $total delays" ||
	fail "hist --heatmap: its cells hold the delays" "${cells:-not SVG} of ${total:-?}: $(cat "$D/heat.err")"
[ -f "$D/heat.svg.old" ] && pass "hist --heatmap keeps the file it replaces as .old" ||
	fail "hist --heatmap keeps the file it replaces as .old" "$(ls "$D" | grep heat)"

# --- ftc sched record: the events, the trigger and, for user stacks, perf ----
if NAP_US=$D/nap2.us "$FTC" sched record -q -o "$D/napu.dat" -B "$I" --call-graph fp -- \
	"$D/fp/nap" >"$D/rec.log" 2>&1; then
	pass "ftc sched record --call-graph fp records the sleeper"
else
	fail "ftc sched record --call-graph fp records the sleeper" "$(tail -3 "$D/rec.log")"
fi
trace-cmd report -i "$D/napu.dat" >"$D/napu.tc" 2>/dev/null
for what in "sched_switch:" "sched_wakeup:" "<stack trace" "sample:"; do
	grep -q -- "$what" "$D/napu.tc" && pass "ftc sched record: trace-cmd reads its $what records" ||
		fail "ftc sched record: trace-cmd reads its $what records" "none in $(wc -l <"$D/napu.tc") lines"
done
"$FTC" sched offcpu --comm nap --folded "$D/napu.dat" >"$D/napu.folded" 2>"$D/napu.err"
us=$(awk '/^nap;.*;main;.*;do_nanosleep_\[k\];.*;\[S\] [0-9]+$/ { s += $NF } END { print s + 0 }' \
	"$D/napu.folded")
naps_within "$us" "$D/nap2.us" &&
	pass "offcpu: $us us in S under main (user) and do_nanosleep (kernel), the naps' $(cat "$D/nap2.us") us +-5%" ||
	fail "offcpu: the naps' time +-5% in S under main and do_nanosleep" \
		"$us us, the naps $(cat "$D/nap2.us" 2>&1) us: $(head -c 600 "$D/napu.folded") $(cat "$D/napu.err")"

# --- report --profile: trace-cmd's profile, its numbers and its layout -------
# trace-cmd's reads the top level only. The sleeper is pinned to CPU 0: this
# kernel does not record every switch out of an idle CPU 1, and trace-cmd
# does not infer the switch-ins the trace lacks.
if "$FTC" sched record -q -o "$D/top.dat" -- taskset -c 0 "$D/nap" >"$D/rec.log" 2>&1; then
	"$FTC" report --profile "$D/top.dat" >"$D/top.ftc" 2>"$D/top.err"
	trace-cmd report --profile -i "$D/top.dat" >"$D/top.tc" 2>/dev/null
	pid=$(sed -n 's/^task: nap-\([0-9]*\)$/\1/p' "$D/top.ftc" | head -1)
	# Before taskset's exec the task may still run on CPU 1: a switch-in the
	# trace lacks there leaves trace-cmd a wakeup it pairs with a later
	# switch-in (seen under ASan: 102 wakeups, 47 ms, where ftc counts 101,
	# 4.2 ms); ftc does not time a wakeup to a switch-in it inferred.
	inf=$("$FTC" sched latency --json -p "${pid:-1}" "$D/top.dat" 2>/dev/null |
		python3 -c 'import json, sys; print(sum(t["inferred_switches"] for t in json.load(sys.stdin)["tasks"]))' 2>/dev/null)
	wake=$(printf 'sched_wakeup:0x%x' "${pid:-0}")
	[ "${inf:-0}" = 0 ] || skip "report --profile: nap's $wake against trace-cmd's" \
		"$inf of nap's switch-ins are not in the trace (pinned too late)"
	for ev in "sched_switch:S" $([ "${inf:-0}" = 0 ] && echo "$wake"); do
		# "Event: NAME (COUNT) Total: NS" in the nap task's block (by pid:
		# trace-cmd names a task as first seen, ftc as last: ftc, then nap)
		get() { awk -v t="-$pid" -v e="$ev" '/^task: / { on = (substr($0, length($0) - length(t) + 1) == t) }
			on && $1 == "Event:" && $2 == e { gsub(/[()]/, "", $3); print $3, $5; exit }' "$1"; }
		f=$(get "$D/top.ftc"); t=$(get "$D/top.tc")
		[ -n "$pid" ] && [ -n "$f" ] && [ "$f" = "$t" ] &&
			pass "report --profile: nap's $ev (count, total ns) is trace-cmd's: $f" ||
			fail "report --profile: nap's $ev is trace-cmd's" "ftc '${f:-none}', trace-cmd '${t:-none}' (pid ${pid:-?})"
	done
	expect_match "report --profile: the S time is under do_nanosleep, in trace-cmd's layout" \
		'^ +\+ .*\(0x[0-9a-f]+\)$' "$(sed -n "/^task: nap-$pid/,/^task:/p" "$D/top.ftc")"
	grep -q "do_nanosleep (0x" "$D/top.ftc" && pass "report --profile names do_nanosleep" ||
		fail "report --profile names do_nanosleep" "$(head -c 400 "$D/top.ftc")"
else
	fail "setup: ftc sched record at the top level" "$(tail -3 "$D/rec.log")"
fi
expect_status "report --profile with --cpu exits 2" 2 "$FTC" report --profile --cpu 0 "$D/pp.dat"

# --- lost events: where, how many, and whose numbers they touch ------------
# Exact first: pages of a copy marked as the kernel marks a loss, 12 events
# counted on one, an unknown number on the other.
"$FTC" convert --file-version 6 --compression none "$D/pp.dat" "$D/pp6.dat" 2>"$D/lose.err"
set -- $("$FTC" dump --buffers "$D/pp6.dat" | awk -v i="\"$I\"" '$1 == "buffer" { b = $2 }
	b == i && $1 == "cpu" && $6 > size { off = $4; size = $6 } END { print off, size }')
if [ "${2:-0}" -ge $((4096 * 16)) ] &&
   python3 "$TOP/tests/fixtures/tracedat-lose.py" "$D/pp6.dat" "$D/lose.dat" $(($1 + 4096 * 3)):12 \
	$(($1 + 4096 * 15)) >/dev/null 2>>"$D/lose.err"; then
	"$FTC" sched latency --json "$D/lose.dat" >"$D/lose.json" 2>"$D/lose.jerr"
	got=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(d["lost_events"], d["total"]["lost_gaps"], *sorted({t["lost_gaps"] for t in d["tasks"] if t["comm"] == "pp"}))' "$D/lose.json")
	[ "$got" = "12 2 2" ] && pass "two marked pages: 12 events lost in 2 gaps, and both inside pp's trace" ||
		fail "two marked pages: 12 lost in 2 gaps, both inside pp's trace" "$got: $(head -2 "$D/lose.jerr")"
	expect_match "... said on standard error" "12 events were lost in instance $I \(2 gaps\)" "$(cat "$D/lose.jerr")"
	"$FTC" sched latency --comm pp "$D/lose.dat" >"$D/lose.tab" 2>/dev/null
	n=$(grep -c '^ *[0-9]\+ pp .* !$' "$D/lose.tab")
	[ "$n" = 2 ] && grep -q '^! events were lost while these tasks were followed (2 gaps, 12 events' "$D/lose.tab" &&
		pass "the table marks both pp threads, and says why" || fail "the table marks both pp threads" "$(cat "$D/lose.tab")"
	"$FTC" sched latency --comm pp "$D/pp.dat" 2>/dev/null | grep -q ' !$' &&
		fail "the table of the unmarked file marks no row" "$("$FTC" sched latency "$D/pp.dat" | grep ' !$')" ||
		pass "the table of the unmarked file marks no row"
	"$FTC" sched timehist "$D/lose.dat" >"$D/lose.th" 2>/dev/null
	a=$(grep -n '\*\*\* lost 12 events' "$D/lose.th" | cut -d: -f1)
	b=$(grep -n '\*\*\* lost events (how many is unknown)' "$D/lose.th" | cut -d: -f1)
	[ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ] && [ "$(grep -c '\*\*\* lost' "$D/lose.th")" = 2 ] &&
		pass "timehist: a line at each gap, in time order" || fail "timehist: a line at each gap" "lines '$a' '$b'"
	# the gap's line comes just before the first stretch closed after it, as report prints the marker
	ts=$(sed -n "${a:-0}p" "$D/lose.th" 2>/dev/null | awk '{ print $1 }')
	rts=$("$FTC" report "$D/lose.dat" | grep -A1 'LOST 12 EVENTS' | tail -1 | grep -o '[0-9]\+\.[0-9]\{6\}' | head -1)
	[ "$ts" = "$rts" ] && pass "timehist: the gap at the time of report's marker ($ts)" ||
		fail "timehist: the gap at the time of report's marker" "timehist $ts, report $rts"
	"$FTC" sched hist --comm pp "$D/lose.dat" 2>/dev/null | grep -q '^# ! events were lost while followed (2 gaps)' &&
		pass "hist says its counts may be short" || fail "hist says its counts may be short" "no such line"
else
	fail "setup: a copy with two pages marked lost" "$(cat "$D/lose.err") (fullest CPU: $*)"
fi
# Then the kernel's own: the recorder stopped a moment while the ping-pong
# floods a one-page buffer. Each figure must be the markers report prints.
"$FTC" record -q -o "$D/flood.dat" -B "$I" -b 4 -e sched:sched_switch -e sched:sched_wakeup \
	-- "$D/pp" 200000 >"$D/flood.log" 2>&1 &
rpid=$!
for k in $(seq 50); do pgrep -x pp >/dev/null && break; sleep 0.1; done
sleep 0.2; kill -STOP $rpid 2>/dev/null; sleep 0.3; kill -CONT $rpid 2>/dev/null
wait $rpid
"$FTC" report "$D/flood.dat" >"$D/flood.txt" 2>/dev/null
marks=$(grep -c "^$I: CPU [0-9]*: \[LOST" "$D/flood.txt")
counted=$(grep -o "^$I: CPU [0-9]*: \[LOST [0-9]* EVENTS" "$D/flood.txt" | awk '{ s += $(NF - 1) } END { print s + 0 }')
got=$("$FTC" sched latency --json "$D/flood.dat" 2>/dev/null | python3 -c 'import json, sys; d = json.load(sys.stdin)
print(d["lost_events"], d["total"]["lost_gaps"])')
if [ "$marks" -gt 0 ]; then
	[ "$got" = "$counted $marks" ] && pass "a real loss: $marks gaps and $counted events, as report's markers" ||
		fail "a real loss: the gaps and events of report's markers" "sched: $got, report: $counted $marks"
	th=$("$FTC" sched timehist "$D/flood.dat" 2>/dev/null | grep -c '\*\*\* lost')
	[ "$th" = "$marks" ] && pass "a real loss: timehist has a line per marker" ||
		fail "a real loss: timehist has a line per marker" "$th lines, $marks markers"
else
	fail "setup: the stopped recorder lost events" "no marker in report: $(tail -2 "$D/flood.log")"
fi

# --- live: the view records while the command runs -------------------------
mkdir -p "$D/tmp"
NAP_US=$D/nap3.us TMPDIR=$D/tmp "$FTC" sched offcpu --folded -- "$D/nap" >"$D/live.folded" \
	2>"$D/live.err"
rc=$?
us=$(awk '/^nap;.*;do_nanosleep_\[k\];.*;\[S\] [0-9]+$/ { s += $NF } END { print s + 0 }' "$D/live.folded")
[ $rc = 0 ] && naps_within "$us" "$D/nap3.us" &&
	pass "live offcpu -- nap: $us us in S under do_nanosleep (the naps' $(cat "$D/nap3.us") us +-5%)" ||
	fail "live offcpu -- nap: the naps' time +-5% under do_nanosleep" \
		"exit $rc, $us us, the naps $(cat "$D/nap3.us" 2>&1) us: $(head -c 300 "$D/live.folded") $(cat "$D/live.err")"
expect_match "live: the command's tasks are shown, and it says so" "the tasks named 'nap'" "$(cat "$D/live.err")"
grep -v '^nap;' "$D/live.folded" | grep -q . && fail "live: only the command's tasks" "$(grep -v '^nap;' "$D/live.folded" | head -3)" ||
	pass "live: only the command's tasks"
[ -z "$(ls -A "$D/tmp")" ] && pass "live: the scratch folder is removed" ||
	fail "live: the scratch folder is removed" "$(ls -R "$D/tmp" | head)"
left=$(ls "$TRACEFS/instances" | grep '^ftc_sched_')
[ -z "$left" ] && pass "live: its instance is removed" || fail "live: its instance is removed" "$left"
expect_status "live: the command's exit status is passed on" 7 "$FTC" sched latency -- sh -c 'exit 7'
expect_status "live -a --duration 1 exits 0" 0 "$FTC" sched latency -a --duration 1
expect_match "... with every task's table" '\(all tasks\)' "$(cat "$OUT/last.out")"
expect_status "a file and -a exit 2" 2 "$FTC" sched latency -a "$D/pp.dat"
expect_status "a file and -- COMMAND exit 2" 2 "$FTC" sched latency "$D/pp.dat" -- true
expect_status "--duration without -a or a command exits 2" 2 "$FTC" sched latency --duration 1 "$D/pp.dat"
expect_status "--instance live exits 2" 2 "$FTC" sched latency --instance x -- true

# --- what does not fit ------------------------------------------------------
"$FTC" record -q -o "$D/nosw.dat" -B "$I" -e sched:sched_wakeup -- true >/dev/null 2>&1
expect_status "a file without sched_switch exits 3" 3 "$FTC" sched latency "$D/nosw.dat"
expect_match "... and says what to record" "sched:sched_switch" "$(cat "$OUT/last.err")"
expect_status "report --profile of a file without sched_switch exits 3" 3 \
	"$FTC" report --profile "$D/nosw.dat"
expect_status "no view word: latency" 0 "$FTC" sched "$D/pp.dat"
expect_match "... its table" '^ +PID COMM +RUN ms +SWITCHES' "$(cat "$OUT/last.out")"
expect_status "an unknown view exits 2" 2 "$FTC" sched lateny "$D/pp.dat"
expect_status "a misspelt view alone exits 2, not 1 for a file" 2 "$FTC" sched lateny
expect_status "--folded with latency exits 2" 2 "$FTC" sched latency --folded "$D/pp.dat"
expect_status "--json with timehist exits 2" 2 "$FTC" sched timehist --json "$D/pp.dat"
expect_status "--json with offcpu exits 2" 2 "$FTC" sched offcpu --json "$D/pp.dat"
expect_status "--limit with timehist exits 2" 2 "$FTC" sched timehist --limit 3 "$D/pp.dat"
expect_status "--per-task with latency exits 2" 2 "$FTC" sched latency --per-task "$D/pp.dat"
expect_status "--heatmap with offcpu exits 2" 2 "$FTC" sched offcpu --heatmap "$D/x.svg" "$D/pp.dat"
expect_status "--limit with hist exits 2" 2 "$FTC" sched hist --limit 3 "$D/pp.dat"
expect_status "a bad sort key exits 2" 2 "$FTC" sched latency -s nosuch "$D/pp.dat"
expect_status "an instance the file lacks exits 3" 3 "$FTC" sched latency --instance nosuch "$D/pp.dat"
expect_match "... and names it" "no instance 'nosuch'" "$(cat "$OUT/last.err")"
expect_status "the instance recorded is read" 0 "$FTC" sched --instance "$I" "$D/pp.dat"
expect_status "a missing file exits 1" 1 "$FTC" sched latency "$D/none.dat"
"$FTC" record -q -o "$D/nowake.dat" -B "$I" -e sched:sched_switch -- "$D/nap" >/dev/null 2>&1
"$FTC" sched latency "$D/nowake.dat" >/dev/null 2>"$D/nowake.err"
expect_match "a file without wakeups says its delays are not measured" \
	"has no sched_wakeup: delays after a sleep are not measured" "$(cat "$D/nowake.err")"

# --- the file says what was enabled --------------------------------------------
jenabled() { python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))["wakeups_enabled"]))' "$1" 2>/dev/null; }
[ "$(jenabled "$D/pp.json")" = true ] && pass "--json: wakeups_enabled is true for a file that recorded them" ||
	fail "--json: wakeups_enabled is true for a file that recorded them" "$(jenabled "$D/pp.json")"
"$FTC" sched latency --json "$D/nowake.dat" >"$D/nowake.json" 2>/dev/null
[ "$(jenabled "$D/nowake.json")" = false ] && pass "--json: wakeups_enabled is false where only sched_switch was" ||
	fail "--json: wakeups_enabled is false where only sched_switch was" "$(jenabled "$D/nowake.json")"
"$FTC" convert "$D/pp.dat" "$D/ppc.dat" >/dev/null 2>&1
"$FTC" sched latency --json "$D/ppc.dat" >"$D/ppc.json" 2>/dev/null
[ "$(jenabled "$D/ppc.json")" = true ] && pass "ftc convert keeps what was enabled" ||
	fail "ftc convert keeps what was enabled" "$(jenabled "$D/ppc.json")"
"$FTC" record -q -o "$D/notr.dat" -B "$I" -e sched:sched_switch --no-tracing-on -- true >/dev/null 2>&1
expect_status "sched_switch enabled, tracing never on: exit 3" 3 "$FTC" sched latency "$D/notr.dat"
expect_match "... saying it was enabled but recorded nothing" \
	"sched_switch was enabled.* but recorded nothing \(was tracing on\?\)" "$(cat "$OUT/last.err")"
expect_status "trace-cmd reads a file with the option" 0 trace-cmd report -i "$D/pp.dat"

# --- the command's last switch ----------------------------------------------
# The parent hears of the exit before the command's last switch; with a
# real-time task taking the command's CPU right then, that switch came
# after tracing stopped (60 of 60 runs before ftc visited every CPU at
# the end). 10 runs, each must hold it.
if [ "$(nproc)" -ge 2 ] && command -v chrt >/dev/null && command -v taskset >/dev/null; then
	cat >"$D/hog.c" <<'EOF2'
#include <time.h>
int main(void)
{
	struct timespec t = { 0, 1000000 }, a, b;

	for (int i = 0; i < 2000; i++) {	/* 8 s at most: 1 ms asleep, 3 ms busy */
		nanosleep(&t, 0);
		clock_gettime(CLOCK_MONOTONIC, &a);
		do
			clock_gettime(CLOCK_MONOTONIC, &b);
		while ((b.tv_sec - a.tv_sec) * 1000000000L + b.tv_nsec - a.tv_nsec < 3000000);
	}
	return 0;
}
EOF2
	if cc -O2 -o "$D/hog" "$D/hog.c" && cc -O2 -o "$D/last" -x c - <<<'int main(void) { return 0; }'; then
		chrt -f 50 taskset -c 1 "$D/hog" &
		hog=$!
		held=0
		for i in 1 2 3 4 5 6 7 8 9 10; do
			taskset -c 0 "$FTC" record -q -o "$D/last.dat" -B "$I" -e sched:sched_switch -- \
				taskset -c 1 "$D/last" >/dev/null 2>&1
			"$FTC" report "$D/last.dat" 2>/dev/null | grep -q ' last:[0-9]* \[[0-9]*\] [XZ] ==>' &&
				held=$((held + 1))
		done
		kill $hog 2>/dev/null; wait $hog 2>/dev/null
		[ $held = 10 ] && pass "the command's last switch is in the capture, a real-time task beside it (10 of 10)" ||
			fail "the command's last switch is in the capture, a real-time task beside it" "$held of 10"
	else
		fail "setup: build the real-time hog" "cc failed"
	fi
else
	skip "the command's last switch" "needs 2 CPUs, chrt and taskset"
fi

knobs_unchanged "ftc sched"
finish
