# SPDX-License-Identifier: GPL-2.0-or-later
# A user reads ftc stat's output as perf stat users expect it: the default
# table with derived ratios and <not supported> events, CSV, intervals,
# repeats, per-CPU counts, groups, modifiers, and clear errors.
. "$(dirname "$0")/../lib.sh"

knobs_save

"$FTC" stat -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' 2>"$OUT/def.txt"
rc=$?; out=$(cat "$OUT/def.txt")
[ $rc = 0 ] && pass "default run exits 0" || fail "default run exits 0" "exited $rc: $out"
expect_match "header names the command" "^ Performance counter stats for 'sh -c" "$out"
expect_match "task-clock in msec with CPUs utilized" '^ +[0-9]+\.[0-9]{2} msec task-clock +# +[0-9]+\.[0-9]{3} CPUs utilized' "$out"
for e in context-switches cpu-migrations page-faults; do
	expect_match "default set has $e with a /sec rate" "^ +[0-9]+ +$e +# +[0-9.]+ [KMG]?/sec" "$out"
done
expect_match "elapsed time" '^ +[0-9]+\.[0-9]{9} seconds time elapsed' "$out"
expect_match "user time" '^ +[0-9]+\.[0-9]{9} seconds user' "$out"

# Hardware events: whatever perf says of this PMU, ftc says too.
if command -v perf >/dev/null; then
	perf stat -x, -e cycles -- true 2>"$OUT/perf-cyc.csv"
	if grep -q '^<not supported>' "$OUT/perf-cyc.csv"; then
		for e in cycles instructions branches branch-misses; do
			expect_match "$e is <not supported> on this PMU, as perf says" "^ +<not supported> +$e *\$" "$out"
		done
	else
		expect_match "cycles counted where perf counts them" '^ +[0-9]+ +cycles +# +[0-9.]+ GHz' "$out"
	fi
else
	skip "<not supported> as perf says" "perf is not installed"
fi

# CSV: value,unit,event,run time,running %,metric,metric unit.
"$FTC" stat -x, -- true 2>"$OUT/csv.txt"
csv=$(cat "$OUT/csv.txt")
bad=$(awk -F, 'NF != 7 || ($1 !~ /^[0-9.]+$/ && $1 !~ /^<not (supported|counted)>$/) || $5 !~ /^[0-9.]+$/' "$OUT/csv.txt")
[ -z "$bad" ] && [ "$(wc -l <"$OUT/csv.txt")" = 8 ] && pass "-x, prints 8 lines of 7 fields" ||
	fail "-x, prints 8 lines of 7 fields" "bad lines: $bad / $csv"
expect_match "-x, task-clock line" '^[0-9.]+,msec,task-clock,[0-9]+,100\.00,[0-9.]+,CPUs utilized$' "$csv"

# Intervals: -I 100 on a 0.55 s command gives 5 or 6 rising timestamps.
"$FTC" stat -I 100 -e task-clock,page-faults -- sleep 0.55 2>"$OUT/int.txt"
n=$(grep -c 'page-faults' "$OUT/int.txt")
[ "$n" -ge 5 ] && [ "$n" -le 7 ] && pass "-I 100 prints an interval each 100 ms ($n)" ||
	fail "-I 100 prints an interval each 100 ms" "got $n: $(cat "$OUT/int.txt")"
if awk '/page-faults/ { if ($1 <= last) exit 1; last = $1 }' "$OUT/int.txt"; then
	pass "-I timestamps rise"; else fail "-I timestamps rise" "$(cat "$OUT/int.txt")"; fi
expect_match "-I header" '^# +time +counts unit events' "$(cat "$OUT/int.txt")"
"$FTC" stat -I 100 -x, -e page-faults -- sleep 0.25 2>"$OUT/intcsv.txt"
expect_match "-I with -x: time first" '^[0-9]+\.[0-9]{9},[0-9]+,,page-faults,' "$(cat "$OUT/intcsv.txt")"

# Repeats.
"$FTC" stat -r 3 -e task-clock,page-faults -- true 2>"$OUT/rep.txt"
rep=$(cat "$OUT/rep.txt")
expect_match "-r 3 says (3 runs)" "stats for 'true' \\(3 runs\\):" "$rep"
expect_match "-r 3 shows the spread of elapsed time" 'seconds time elapsed +\( \+- +[0-9.]+% \)' "$rep"

# System wide, per CPU.
ncpu=$(grep -c '^processor' /proc/cpuinfo)
"$FTC" stat -a -A -e context-switches,cpu-clock -- sleep 0.1 2>"$OUT/percpu.txt"
n=$(grep -c '^CPU[0-9]+* .*cpu-clock' "$OUT/percpu.txt")
[ "$n" = "$ncpu" ] && pass "-a -A: one cpu-clock line per CPU ($n)" ||
	fail "-a -A: one cpu-clock line per CPU" "got $n, want $ncpu: $(cat "$OUT/percpu.txt")"
"$FTC" stat -a -e cpu-clock -- sleep 0.2 2>"$OUT/sys.txt"
u=$(awk '/cpu-clock/ { print $5 }' "$OUT/sys.txt")
awk -v u="$u" -v n="$ncpu" 'BEGIN { exit !(u > n * 0.9 && u < n * 1.1) }' &&
	pass "-a: every CPU is utilized by cpu-clock ($u of $ncpu)" ||
	fail "-a: CPUs utilized" "got '$u', want about $ncpu"
"$FTC" stat -C 0 -x, -e cpu-clock -- sleep 0.1 2>"$OUT/cpu0.txt"
expect_match "-C 0 counts one CPU" '^[0-9.]+,msec,cpu-clock,.*,1\.0[0-9]*,CPUs utilized$|^[0-9.]+,msec,cpu-clock,.*,0\.9[0-9]*,CPUs utilized$' "$(cat "$OUT/cpu0.txt")"

# Groups and modifiers.
"$FTC" stat -x, -e '{task-clock,page-faults}:u' -- true 2>"$OUT/grp.txt"
expect_match "a group with :u counts its members" '^[0-9]+,,page-faults:u,' "$(cat "$OUT/grp.txt")"
k=$("$FTC" stat -x, -e page-faults:k -- true 2>&1 | cut -d, -f1)
u=$("$FTC" stat -x, -e page-faults:u -- true 2>&1 | cut -d, -f1)
[ -n "$k" ] && [ -n "$u" ] && pass "page-faults:k ($k) and :u ($u) both count" || fail ":k/:u" "k='$k' u='$u'"

# A running process, until Ctrl-C.
sleep 5 & sp=$!
"$FTC" stat -p $sp -e task-clock,context-switches 2>"$OUT/pid.txt" & st=$!
sleep 0.3; kill -INT $st; wait $st; rc=$?; kill $sp 2>/dev/null
[ $rc = 0 ] && pass "-p ends on Ctrl-C with 0" || fail "-p ends on Ctrl-C with 0" "exited $rc"
expect_match "-p names the process" "process id '$sp'" "$(cat "$OUT/pid.txt")"

# System wide intervals with no command, until Ctrl-C.
"$FTC" stat -a -I 100 -x, -e cpu-clock 2>"$OUT/aint.txt" & st=$!
sleep 0.45; kill -INT $st; wait $st; rc=$?
n=$(grep -c ',cpu-clock,' "$OUT/aint.txt")
[ $rc = 0 ] && [ "$n" -ge 3 ] && pass "-a -I without a command: intervals until Ctrl-C ($n), exit 0" ||
	fail "-a -I without a command" "exit $rc, $n intervals: $(head -3 "$OUT/aint.txt")"
expect_match "-a -I: each interval has every CPU busy or idle, in msec" '^[0-9.]+,[0-9.]+,msec,cpu-clock,' "$(cat "$OUT/aint.txt")"

# Mistakes.
expect_status "an unknown event exits 2" 2 "$FTC" stat -e no-such-event -- true
expect_match "an unknown event is named" "unknown event 'no-such-event'" "$(cat "$OUT/last.err")"
expect_status "a tracepoint glob matching nothing exits 2" 2 "$FTC" stat -e 'nosys:nothing*' -- true
expect_match "the glob is named" "no tracepoint matches 'nosys:nothing\\*'" "$(cat "$OUT/last.err")"
expect_status "a bad modifier exits 2" 2 "$FTC" stat -e page-faults:z -- true
expect_status "no command and no target exits 2" 2 "$FTC" stat
expect_status "-r without a command exits 2" 2 "$FTC" stat -a -r 2
if command -v perf >/dev/null && grep -q '^<not supported>' "$OUT/perf-cyc.csv"; then
	expect_status "only refused events exit 3" 3 "$FTC" stat -e cycles -- true
	expect_match "only refused events: the run is still shown" '<not supported> +cycles' "$(cat "$OUT/last.err")"
	expect_match "only refused events: said why" "refused every event" "$(cat "$OUT/last.err")"
fi
# A user that perf_event_paranoid keeps out of system-wide counting.
if command -v setpriv >/dev/null && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ] &&
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$FTC" 2>/dev/null; then
	expect_status "-a refused to an unprivileged user exits 3" 3 \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$FTC" stat -a -e cpu-clock -- true
	expect_match "-a refused: says where to look" "Permission denied.*perf_event_paranoid" "$(cat "$OUT/last.err")"
	expect_match "-a with a command: still 'system wide'" "stats for 'system wide'" "$(cat "$OUT/last.err")"
	# where the kernel is out of bounds, perf counts user space alone and says ":u"
	if [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ]; then
		expect_status "unprivileged stat of its own command exits 0" 0 \
			setpriv --reuid=65534 --regid=65534 --clear-groups "$FTC" stat -e task-clock,page-faults -- true
		ftc_names=$(awk '/task-clock|page-faults/ { print $2 == "msec" ? $3 : $2 }' "$OUT/last.err" | tr '\n' ' ')
		if command -v perf >/dev/null; then
			perf_names=$(setpriv --reuid=65534 --regid=65534 --clear-groups perf stat \
				-e task-clock,page-faults -- true 2>&1 |
				awk '/task-clock|page-faults/ { print $2 == "msec" ? $3 : $2 }' | tr '\n' ' ')
			[ "$ftc_names" = "$perf_names" ] && pass "unprivileged: the events fall back to user space as perf's do ($ftc_names)" ||
				fail "unprivileged: the events fall back to user space as perf's do" "ftc: $ftc_names perf: $perf_names"
		fi
		expect_match "unprivileged: task-clock:u counted" '[0-9.]+ msec task-clock:u' "$(cat "$OUT/last.err")"
		expect_status "an explicit :k is not changed, and refused: exit 3" 3 \
			setpriv --reuid=65534 --regid=65534 --clear-groups "$FTC" stat -e task-clock:k -- true
	fi
else
	skip "unprivileged -a exits 3" "no setpriv, perf_event_paranoid < 1, or $FTC not reachable by nobody"
fi
knobs_unchanged "ftc stat"
finish
