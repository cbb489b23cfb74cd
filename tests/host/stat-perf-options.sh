# SPDX-License-Identifier: GPL-2.0-or-later
# A perf stat user types perf's options to ftc stat and gets perf's answer:
# -n (null run) prints perf's lines, -t counts one thread as perf does, -G
# counts a cgroup as perf does, -I 1 prints an interval each millisecond,
# -B groups thousands as perf does (by default too), -d adds perf's detailed
# events, -M shows the metrics asked for; errors name the option and value.
# Each comparison runs perf itself on the same workload, at the same time
# where the machine's load could tell them apart.
. "$(dirname "$0")/../lib.sh"

command -v perf >/dev/null || { skip "stat vs perf options" "perf is not installed (apt install linux-perf)"; finish; }
command -v cc >/dev/null || { skip "stat vs perf options" "no C compiler to build the spinning thread"; finish; }

T=$(mktemp -d "$OUT/stat-perf-options.XXXXXX")
CG=
SPIN_PIDS=
cleanup() {
	for p in $SPIN_PIDS; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	[ -n "$CG" ] && [ -d "$CG" ] && rmdir "$CG"
	rm -rf "$T"
}
trap cleanup EXIT

# A process whose second thread spins while the first sleeps: it prints the
# spinning thread's id, then lives for argv[1] seconds.
cat >"$T/spin.c" <<'C'
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
static void *spin(void *arg)
{
	printf("%ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	for (volatile unsigned long i = 0; ; i++)
		;
	return arg;
}
int main(int argc, char **argv)
{
	pthread_t t;
	pthread_create(&t, NULL, spin, NULL);
	usleep((useconds_t)(atof(argv[1]) * 1e6));
	return 0;
}
C
setup "build the spinning thread" cc -O1 -pthread -o "$T/spin" "$T/spin.c" || finish

# spin SECONDS: starts one; sets PID and TID (the spinning thread).
spin() {
	"$T/spin" "$1" >"$T/tid.$$" &
	PID=$!
	SPIN_PIDS="$SPIN_PIDS $PID"
	for _ in $(seq 50); do [ -s "$T/tid.$$" ] && break; sleep 0.02; done
	TID=$(cat "$T/tid.$$")
}

# The shape of perf stat's output: digits are N, blanks squeezed.
shape() { sed -E 's/[0-9]+/N/g; s/ +/ /g; s/ $//' "$1"; }

# same_shape NAME FTC-FILE PERF-FILE
same_shape() {
	if d=$(diff <(shape "$3") <(shape "$2")); then pass "$1"; else
		fail "$1" "perf (<) and ftc (>) differ: $(echo "$d" | head -8 | tr '\n' '|')"; fi
}

# within PCT NAME A B [WHAT]: A (ftc's) within PCT % of B (perf's, or WHAT's).
within() {
	if [ -n "$3" ] && [ -n "$4" ] && awk -v a="$3" -v b="$4" -v p="$1" \
		'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * p / 100) }'
	then pass "$2 ($3 vs ${5:-perf} $4)"; else fail "$2" "ftc '$3', ${5:-perf} '$4': not within $1%"; fi
}

# csv_value EVENT FILE: the first field of EVENT's line in a -x, output.
csv_value() { awk -F, -v e="$1" '$3 == e { print $1; exit }' "$2"; }

knobs_save

# ---- -n --null: no counters, the elapsed time, as perf prints it ----
for args in "-- sleep 0.05" "-a -- sleep 0.05" "-r 3 -- sleep 0.02" "-e task-clock -- sleep 0.02" \
	    "-I 20 -- sleep 0.05" "-x, -- sleep 0.01"; do
	# shellcheck disable=SC2086
	"$FTC" stat -n $args 2>"$T/n-ftc.txt" >/dev/null
	# shellcheck disable=SC2086
	perf stat -n $args 2>"$T/n-perf.txt" >/dev/null
	same_shape "ftc stat -n $args prints perf's lines" "$T/n-ftc.txt" "$T/n-perf.txt"
done
"$FTC" stat -n -- sleep 0.2 2>"$T/n.txt"
t=$(awk '/seconds time elapsed/ { print $1 }' "$T/n.txt")
awk -v t="$t" 'BEGIN { exit !(t >= 0.2 && t < 1) }' && pass "-n times the command ($t s for sleep 0.2)" ||
	fail "-n times the command" "elapsed '$t' for sleep 0.2"
expect_nomatch "-n counts no event" 'task-clock|page-faults|<not' "$(cat "$T/n.txt")"
# The count without -n ends with perf's blank lines too.
"$FTC" stat -e task-clock -- sleep 0.02 2>"$T/d-ftc.txt"
perf stat -e task-clock -- sleep 0.02 2>"$T/d-perf.txt"
same_shape "the table and footer are perf's lines (-e task-clock)" "$T/d-ftc.txt" "$T/d-perf.txt"

# ---- -t --tid: one thread of a process ----
spin 4
if [ -n "$TID" ] && [ "$TID" != "$PID" ]; then
	"$FTC" stat -x, -t "$TID" -e task-clock -- sleep 1 2>"$T/t-ftc.csv" &
	f=$!
	perf stat -x, -t "$TID" -e task-clock -- sleep 1 2>"$T/t-perf.csv"
	wait $f
	within 10 "-t TID counts the spinning thread's task-clock as perf" \
		"$(csv_value task-clock "$T/t-ftc.csv")" "$(csv_value task-clock "$T/t-perf.csv")"
	"$FTC" stat -x, -t "$PID" -e task-clock -- sleep 0.3 2>"$T/t-main.csv"
	v=$(csv_value task-clock "$T/t-main.csv")
	[[ $v == "<not counted>" ]] || awk -v v="$v" 'BEGIN { exit !(v < 30) }' &&
		pass "-t of the sleeping thread leaves the spinning one out ($v)" ||
		fail "-t counts only the thread given" "the sleeping main thread got '$v' ms"
	"$FTC" stat -t "$TID,$PID" -e task-clock -- sleep 0.1 2>"$T/t-hdr-ftc.txt"
	perf stat -t "$TID,$PID" -e task-clock -- sleep 0.1 2>"$T/t-hdr-perf.txt"
	a=$(grep 'counter stats' "$T/t-hdr-ftc.txt") b=$(grep 'counter stats' "$T/t-hdr-perf.txt")
	[ -n "$a" ] && [ "$a" = "$b" ] && pass "-t TID,TID: the header names the threads as perf's" ||
		fail "-t TID,TID: the header as perf's" "ftc '$a', perf '$b'"
	"$FTC" stat -p "$PID" -e task-clock -- sleep 0.1 2>"$T/p-hdr-ftc.txt"
	perf stat -p "$PID" -e task-clock -- sleep 0.1 2>"$T/p-hdr-perf.txt"
	same_shape "-p PID -- sleep: perf's lines" "$T/p-hdr-ftc.txt" "$T/p-hdr-perf.txt"
	# Without a command, -t ends with its thread (the process lives 4 s).
	start=$(date +%s.%N)
	timeout 10 "$FTC" stat -t "$TID" -e task-clock 2>"$T/t-end.txt"
	rc=$? end=$(date +%s.%N)
	awk -v a="$start" -v b="$end" 'BEGIN { exit !(b - a < 5) }' && [ $rc = 0 ] &&
		pass "-t without a command ends with the thread, exit 0" ||
		fail "-t without a command ends with the thread" "exit $rc after $(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }') s"
else
	fail "setup: the spinning thread" "no thread id from $T/spin (pid '$PID', tid '$TID')"
fi
expect_status "-t of a thread that does not exist exits 1" 1 "$FTC" stat -t 4194000 -- true
expect_match "... and names it" "no thread 4194000" "$(cat "$OUT/last.err")"
expect_status "-t 'x' exits 2" 2 "$FTC" stat -t x -- true
expect_match "... naming -t and the value" "-t 'x': not a thread id list" "$(cat "$OUT/last.err")"
expect_status "--tid '1,,2' exits 2" 2 "$FTC" stat --tid 1,,2 -- true
expect_match "... naming --tid and the value" "--tid '1,,2'" "$(cat "$OUT/last.err")"
expect_status "-t with -p exits 2" 2 "$FTC" stat -t 1 -p 1 -- true
expect_status "-t with -a exits 2" 2 "$FTC" stat -t 1 -a -- true

# ---- -G --cgroup: a cgroup of our own, with a spinning process in it ----
mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
cgname=ftc-test-$$-cg
if [ -n "$mnt" ] && mkdir "$mnt/$cgname" 2>/dev/null; then
	CG=$mnt/$cgname
	spin 5
	if echo "$PID" >"$CG/cgroup.procs" 2>"$T/cg.err"; then
		"$FTC" stat -a -x, -e task-clock,context-switches -G "$cgname" -- sleep 1 2>"$T/g-ftc.csv" &
		f=$!
		perf stat -a -x, -e task-clock,context-switches -G "$cgname" -- sleep 1 2>"$T/g-perf.csv"
		wait $f
		within 10 "-G counts the cgroup's task-clock as perf" \
			"$(csv_value task-clock "$T/g-ftc.csv")" "$(csv_value task-clock "$T/g-perf.csv")"
		expect_match "-G with -x: the cgroup is the field after the event, as perf" \
			"^[0-9.]+,msec,task-clock,$cgname,[0-9]+,100\\.00," "$(cat "$T/g-ftc.csv")"
		nf=$(awk -F, '{ print NF; exit }' "$T/g-ftc.csv") np=$(awk -F, '{ print NF; exit }' "$T/g-perf.csv")
		[ "$nf" = "$np" ] && pass "-G with -x: as many fields as perf ($nf)" ||
			fail "-G with -x: as many fields as perf" "ftc $nf, perf $np"
		# One -G for the events before it only; the later event counts everywhere.
		"$FTC" stat -a -e task-clock -G "$cgname" -e cpu-clock -- sleep 0.2 2>"$T/g2-ftc.txt"
		perf stat -a -e task-clock -G "$cgname" -e cpu-clock -- sleep 0.2 2>"$T/g2-perf.txt"
		same_shape "-e A -G CG -e B: A in the cgroup, B everywhere, perf's lines" "$T/g2-ftc.txt" "$T/g2-perf.txt"
		c=$(awk '/cpu-clock/ { print $1 }' "$T/g2-ftc.txt") g=$(awk '/task-clock/ { print $1 }' "$T/g2-ftc.txt")
		awk -v c="$c" -v g="$g" 'BEGIN { exit !(c > g) }' &&
			pass "the event after -G counts more than the cgroup's ($c > $g ms)" ||
			fail "the event after -G counts every task" "cpu-clock $c, cgroup task-clock $g"
		# Cgroups go to the events in order; an empty name skips one.
		"$FTC" stat -a -x, -e task-clock,cpu-clock,context-switches -G "$cgname,,$cgname" -- sleep 0.1 2>"$T/g3.csv"
		expect_match "-G A,,B: the second event has no cgroup" '^[0-9.]+,msec,cpu-clock,,' "$(cat "$T/g3.csv")"
		expect_match "-G A,,B: the third has B" ",context-switches,$cgname," "$(cat "$T/g3.csv")"
		expect_status "more cgroups than events exits 2" 2 "$FTC" stat -a -e task-clock -G "$cgname,$cgname" -- true
		expect_match "... and says so" "-G '$cgname,$cgname': cgroup '$cgname' is cgroup 2 but only 1 event" "$(cat "$OUT/last.err")"
		perf stat -a -e task-clock -G "$cgname,$cgname" -- true >/dev/null 2>&1
		[ $? != 0 ] && pass "perf refuses more cgroups than events too" || fail "perf refuses more cgroups than events" "perf took it"
	else
		fail "setup: move a process into $CG" "$(cat "$T/cg.err")"
	fi
	kill "$PID" 2>/dev/null
	wait "$PID" 2>/dev/null
else
	skip "-G against perf" "no cgroup2 mount, or cannot create $mnt/$cgname"
fi
expect_status "-G without -a exits 2, as perf refuses it" 2 "$FTC" stat -e task-clock -G x -- true
expect_match "... and says to add -a" "-G counts a cgroup's tasks on CPUs: use it with -a or -C" "$(cat "$OUT/last.err")"
expect_status "-G before any -e exits 2" 2 "$FTC" stat -a -G x -- true
expect_match "... naming -G and the value" "-G 'x': no events before it" "$(cat "$OUT/last.err")"
expect_status "--cgroup of no cgroup exits 2" 2 "$FTC" stat -a -e cpu-clock --cgroup ftc-no-such-cgroup -- true
expect_match "... naming it and where it was looked for" "no cgroup 'ftc-no-such-cgroup' \\(/.*/ftc-no-such-cgroup: No such file" "$(cat "$OUT/last.err")"
expect_status "-G '../x' exits 2" 2 "$FTC" stat -a -e cpu-clock -G ../x -- true

# ---- -I: from 1 ms, as perf ----
"$FTC" stat -I 1 -x, -e task-clock -- sleep 0.1 2>"$T/i1-ftc.csv"
perf stat -I 1 -x, -e task-clock -- sleep 0.1 2>"$T/i1-perf.csv"
nf=$(wc -l <"$T/i1-ftc.csv") np=$(wc -l <"$T/i1-perf.csv")
med=$(awk -F, 'NR > 1 { printf "%.6f\n", $1 - p } { p = $1 }' "$T/i1-ftc.csv" | sort -g |
	awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
awk -v m="$med" 'BEGIN { exit !(m >= 0.0009 && m <= 0.0015) }' &&
	pass "-I 1 prints intervals 1 ms apart (median $med s, $nf lines; perf $np)" ||
	fail "-I 1 prints intervals 1 ms apart" "median gap '$med' s over $nf lines (perf $np)"
[ "$nf" -ge $((np * 8 / 10)) ] && pass "-I 1 prints at least as many intervals as perf, less 20% ($nf vs $np)" ||
	fail "-I 1 prints as many intervals as perf" "ftc $nf, perf $np"
"$FTC" stat -I 0 -e task-clock -- true 2>"$T/i0-ftc.txt"
perf stat -I 0 -e task-clock -- true 2>"$T/i0-perf.txt"
same_shape "-I 0 prints the totals, as perf" "$T/i0-ftc.txt" "$T/i0-perf.txt"
expect_status "-I 4294967295 (perf's largest) is taken" 0 "$FTC" stat -I 4294967295 -e task-clock -- true
expect_status "-I 4294967296 exits 2" 2 "$FTC" stat -I 4294967296 -- true
expect_match "... naming -I, the value and the range" "-I '4294967296': out of range: an interval is 0 to 4294967295 milliseconds" "$(cat "$OUT/last.err")"
expect_status "--interval-print -1 exits 2" 2 "$FTC" stat --interval-print -1 -- true
expect_match "... naming --interval-print and the value" "--interval-print '-1'" "$(cat "$OUT/last.err")"

# ---- -B --big-num: thousands grouped as perf groups them, by default too ----
loc=$T/locale
if command -v localedef >/dev/null && mkdir -p "$loc" && localedef -i en_US -f UTF-8 "$loc/en_US.UTF-8" >/dev/null 2>&1; then
	secs=$(awk -v n="$(nproc)" 'BEGIN { printf "%.2f", 1.3 / n }')
	for b in "" -B --no-big-num; do
		# shellcheck disable=SC2086
		LOCPATH=$loc LC_ALL=en_US.UTF-8 "$FTC" stat $b -a -e cpu-clock -- sleep "$secs" 2>"$T/b-ftc.txt"
		# shellcheck disable=SC2086
		LOCPATH=$loc LC_ALL=en_US.UTF-8 perf stat $b -a -e cpu-clock -- sleep "$secs" 2>"$T/b-perf.txt"
		same_shape "ftc stat ${b:-(default)} -a: msec as perf groups them" "$T/b-ftc.txt" "$T/b-perf.txt"
	done
	expect_match "-B: 1,2NN.NN msec" '^ +[0-9],[0-9]{3}\.[0-9]{2} msec cpu-clock' "$(LOCPATH=$loc LC_ALL=en_US.UTF-8 "$FTC" stat -a -e cpu-clock -- sleep "$secs" 2>&1)"
	LOCPATH=$loc LC_ALL=en_US.UTF-8 "$FTC" stat -e page-faults -- dd if=/dev/zero of=/dev/null bs=4M count=30 2>"$T/bp-ftc.txt"
	LOCPATH=$loc LC_ALL=en_US.UTF-8 perf stat -e page-faults -- dd if=/dev/zero of=/dev/null bs=4M count=30 2>"$T/bp-perf.txt"
	expect_match "page-faults grouped by default, as perf" '^ +[0-9],[0-9]{3} +page-faults' "$(cat "$T/bp-ftc.txt")"
	same_shape "... the same lines as perf's" <(grep page-faults "$T/bp-ftc.txt") <(grep page-faults "$T/bp-perf.txt")
	LOCPATH=$loc LC_ALL=en_US.UTF-8 "$FTC" stat -x, -e page-faults -- dd if=/dev/zero of=/dev/null bs=4M count=30 2>"$T/bx.csv"
	expect_match "-x: no separators (as perf)" '^[0-9]{4},,page-faults,' "$(cat "$T/bx.csv")"
else
	skip "-B against perf" "localedef cannot make en_US.UTF-8 here"
fi
expect_status "-B with -x exits 2" 2 "$FTC" stat -B -x, -- true
expect_match "... and says why" "-B and -x do not mix" "$(cat "$OUT/last.err")"
perf stat -B -x, -- true >/dev/null 2>&1
[ $? != 0 ] && pass "perf refuses -B with -x too" || fail "perf refuses -B with -x" "perf took it"

# ---- -d --detailed: perf's events, in perf's order ----
for d in -d -dd -ddd "-d -e page-faults"; do
	# shellcheck disable=SC2086
	"$FTC" stat $d -x, -- true 2>"$T/dd-ftc.csv"
	# shellcheck disable=SC2086
	perf stat $d -x, -- true 2>"$T/dd-perf.csv"
	a=$(cut -d, -f3 "$T/dd-ftc.csv" | tr '\n' ' ') b=$(cut -d, -f3 "$T/dd-perf.csv" | tr '\n' ' ')
	[ "$a" = "$b" ] && pass "$d counts perf's events ($(wc -l <"$T/dd-ftc.csv"))" ||
		fail "$d counts perf's events" "ftc: $a / perf: $b"
	a=$(grep -c '^<not supported>' "$T/dd-ftc.csv") b=$(grep -c '^<not supported>' "$T/dd-perf.csv")
	[ "$a" = "$b" ] && pass "$d: as many <not supported> as perf ($a)" ||
		fail "$d: <not supported> as perf" "ftc $a, perf $b"
done

# ---- -M --metrics ----
"$FTC" stat -x, -M page_faults_per_second,CPUs_utilized -- "$T/spin" 0.2 2>"$T/m.csv" >/dev/null
pf=$(csv_value page-faults "$T/m.csv") tc=$(csv_value task-clock "$T/m.csv")
m=$(awk -F, '$3 == "page-faults" { print $6 }' "$T/m.csv")
want=$(awk -v p="$pf" -v t="$tc" 'BEGIN { if (t > 0) printf "%.3f", p / (t / 1000) }')
within 1 "-M page_faults_per_second is page-faults per second of task-clock" "$m" "$want" "the counts'"
expect_match "-M CPUs_utilized on task-clock, with its unit and name" \
	'^[0-9.]+,msec,task-clock,[0-9]+,100\.00,[0-9.]+,CPUs  CPUs_utilized$' "$(cat "$T/m.csv")"
n=$(wc -l <"$T/m.csv")
[ "$n" = 2 ] && pass "-M alone counts only the events its metrics read" || fail "-M alone counts its events only" "$n lines: $(cat "$T/m.csv")"
"$FTC" stat -M ipc,Default -- true 2>"$T/md.txt"
expect_match "-M Default: a group of perf's (cs_per_second)" '# +[0-9.]+ cs/sec  cs_per_second' "$(cat "$T/md.txt")"
if grep -q '<not supported> +cycles' "$T/md.txt"; then
	expect_nomatch "-M ipc: not shown when cycles are not counted" 'IPC|insn_per_cycle' "$(cat "$T/md.txt")"
fi
expect_status "-M of an unknown metric exits 2" 2 "$FTC" stat -M nosuch -- true
expect_match "... naming -M and the value, listing the known ones" \
	"-M 'nosuch': unknown metric or metric group 'nosuch'; known: CPUs_utilized, .*insn_per_cycle" "$(cat "$OUT/last.err")"
expect_match "'ftc stat --list' lists the metrics" '^insn_per_cycle +\[metric\] instructions / cycles' "$("$FTC" stat --list)"

# ---- --help and completion ----
long=$("$FTC" stat --help | awk 'length($0) > 100')
[ -z "$long" ] && pass "ftc stat --help fits 100 columns" || fail "ftc stat --help fits 100 columns" "$long"
(
	PATH=$(dirname "$FTC"):$PATH
	. "$TOP/bash-completion/ftc"
	cw() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _ftc; printf '%s\n' "${COMPREPLY[@]}"; }
	expect_match "TAB after stat -M offers the metrics" '^insn_per_cycle$' "$(cw ftc stat -M insn)"
	expect_match "TAB after stat -t offers thread ids" "^$$\$" "$(cw ftc stat -t "$$")"
	expect_match "TAB after stat --no-b offers --no-big-num" '^--no-big-num$' "$(cw ftc stat --no-b)"
	# -B is a flag: what follows completes as after -a, not as an instance name.
	a=$(cw ftc stat -B ftc) b=$(cw ftc stat -a ftc)
	[ "$a" = "$b" ] && pass "TAB after stat -B completes as after a flag" ||
		fail "TAB after stat -B completes as after a flag" "after -B: $a / after -a: $b"
	exit $T_FAILED
) || T_FAILED=1

knobs_unchanged "ftc stat"
finish
