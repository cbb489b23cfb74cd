# SPDX-License-Identifier: GPL-2.0-or-later
# A user records perf samples of a CPU-bound program with one hot function
# (ftc record --sample --call-graph fp) and later reads the profile back from
# the file: ftc report --sample-profile puts the hot function on top, --folded
# accounts for every stored sample, --flamegraph draws a valid SVG; a file
# without samples says so and exits 1; --symfs reads the binaries under a
# folder (a board's files).
. "$(dirname "$0")/../lib.sh"
OUT="$OUT/report-profile.$$"
mkdir -p "$OUT"
trap '[ "$T_FAILED" = 0 ] && rm -rf "$OUT"' EXIT

command -v cc >/dev/null || { skip "report --sample-profile" "no C compiler to build the hot program"; finish; }
build_hot "$OUT/hot" || { fail "build hot" "cc failed"; finish; }
knobs_save
inst=$(test_instance rprofile)
dat="$OUT/sample.dat"

expect_status "record --sample --call-graph fp exits 0" 0 "$FTC" record -B "$inst" \
	-e sched:sched_process_exec --sample cpu-clock --freq 999 --call-graph fp \
	-o "$dat" -- "$OUT/hot" 1
nstored=$("$FTC" report "$dat" | grep -c '^ftc_perf: .* sample: ')

# The table: hot_function first, [.], >= 90% self.
expect_status "report --sample-profile exits 0" 0 "$FTC" report --sample-profile "$dat"
cp "$OUT/last.out" "$OUT/table.txt"
expect_match "table header" '^# +Children +Self +Command +Shared Object +Symbol' "$(cat "$OUT/table.txt")"
top=$(awk '!/^#/ && NF { self = $2; sub(/%/, "", self); if (self + 0 > best) { best = self + 0; line = $0 } }
	END { print best, line }' "$OUT/table.txt")
case "$top" in
*'[.] hot_function') awk -v p="${top%% *}" 'BEGIN { exit !(p >= 90) }' &&
	pass "hot_function has the largest self share (${top%% *}%)" ||
	fail "hot_function has >= 90% self" "$top";;
*) fail "hot_function has the largest self share" "top: $top";;
esac
expect_match "samples counted in the header" "^# Samples: $nstored of event" "$(cat "$OUT/table.txt")"

# Folded: leaf hot_function for >= 90%, and every stored sample counted once.
expect_status "report --folded exits 0" 0 "$FTC" report --folded "$dat"
cp "$OUT/last.out" "$OUT/folded.txt"
set -- $(awk '{ t += $NF; if ($0 ~ /;hot_function [0-9]+$/) h += $NF } END { print h + 0, t + 0 }' \
	"$OUT/folded.txt")
[ "$nstored" -ge 200 ] && [ "$2" = "$nstored" ] &&
	pass "folded stacks hold every stored sample ($2 of $nstored)" ||
	fail "folded stacks hold every stored sample" "folded $2, ftc report shows $nstored"
awk -v h="$1" -v t="$2" 'BEGIN { exit !(t > 0 && h >= 0.9 * t) }' &&
	pass "folded stacks end in hot_function for >= 90% ($1 of $2)" ||
	fail "folded stacks end in hot_function for >= 90%" "$1 of $2: $(sort -k2nr "$OUT/folded.txt" | head -3)"
expect_match "stacks run from the command through main to the leaf" \
	'^hot;.*main;hot_function [0-9]+$' "$(cat "$OUT/folded.txt")"

# Selection options choose the samples a profile takes, as they choose the
# records a report prints: the pid, the CPU, the time window.
folded_total() { "$FTC" report --folded "$@" "$dat" 2>"$OUT/sel.err" | awk '{ t += $NF } END { print t + 0 }'; }
"$FTC" report --ns "$dat" | grep '^ftc_perf: .* sample: ' >"$OUT/samples.txt"
hotpid=$("$FTC" report "$dat" | awk '/sched_process_exec:/ { sub(/.* pid=/, ""); print $1; exit }')
n=$(folded_total --pid "$hotpid")
[ -n "$hotpid" ] && [ "$n" = "$nstored" ] && pass "--pid of the command keeps all its $n samples" ||
	fail "--pid of the command keeps all its samples" "pid '$hotpid': $n of $nstored"
expect_status "--pid of another task: no samples, exit 1" 1 "$FTC" report --sample-profile --pid 1 "$dat"
expect_match "... and says the selection matched none" 'no sample of .* matches the selection' \
	"$(cat "$OUT/last.err")"
mid=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(/:$/, "", $i); print $i } }' \
	"$OUT/samples.txt" | sort -g | awk '{ v[NR] = $0 } END { print v[int(NR / 2)] }')
want=$(awk -v m="$mid" '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(/:$/, "", $i); if ($i + 0 <= m + 0) c++ } } END { print c + 0 }' "$OUT/samples.txt")
n=$(folded_total --to "$mid")
[ "$want" -gt 0 ] && [ "$want" -lt "$nstored" ] && [ "$n" = "$want" ] &&
	pass "--to keeps the samples up to that time ($n of $nstored)" ||
	fail "--to keeps the samples up to that time" "--to $mid: $n, the report shows $want"
for c in 0 1; do
	want=$(grep -c "\[00$c\]" "$OUT/samples.txt")
	n=$(folded_total --cpu "$c")
	[ "$n" = "$want" ] && pass "--cpu $c keeps that CPU's $n samples" ||
		fail "--cpu $c keeps that CPU's samples" "$n, the report shows $want"
done

# Flame graph: well-formed SVG naming the hot function.
expect_status "report --flamegraph exits 0" 0 "$FTC" report --flamegraph "$OUT/f.svg" "$dat"
if command -v xmllint >/dev/null; then
	expect_status "xmllint accepts the SVG" 0 xmllint --noout "$OUT/f.svg"
else
	skip "xmllint" "xmllint is not installed"
fi
grep -q 'hot_function' "$OUT/f.svg" && pass "the flame graph names hot_function" ||
	fail "the flame graph names hot_function" "$(head -c 300 "$OUT/f.svg")"

# A trace without samples: a clear message, exit 1.
expect_status "record without --sample exits 0" 0 "$FTC" record -B "$inst" \
	-e sched:sched_process_exec -o "$OUT/plain.dat" -- true
expect_status "report --sample-profile of a file without samples exits 1" 1 \
	"$FTC" report --sample-profile "$OUT/plain.dat"
expect_match "... and says there are no samples" 'holds no samples .*ftc record --sample' \
	"$(cat "$OUT/last.err")"
expect_status "--limit with a bad value is a usage error" 2 \
	"$FTC" report --sample-profile --limit x "$dat"

# --symfs: the binaries of the machine that recorded (a board's, copied
# here) are read under DIR, never this machine's file of the same path.
mkdir -p "$OUT/symfs$OUT" "$OUT/empty"
cp "$OUT/hot" "$OUT/symfs$OUT/hot" && mv "$OUT/hot" "$OUT/hot.moved"
expect_match "without the binary the profile has no names" '\[\.\] hot\+0x[0-9a-f]+$' \
	"$("$FTC" report --sample-profile "$dat" 2>&1)"
expect_match "--symfs DIR names hot_function from DIR's copy" '\[\.\] hot_function$' \
	"$("$FTC" report --sample-profile --symfs "$OUT/symfs" "$dat" 2>&1)"
expect_match "--symfs names the printed samples too" 'sample: .* hot_function\+0x[0-9a-f]+ \[hot\]' \
	"$("$FTC" report --symfs "$OUT/symfs" "$dat" 2>&1)"
mv "$OUT/hot.moved" "$OUT/hot"
expect_nomatch "--symfs never falls back to this machine's file" 'hot_function' \
	"$("$FTC" report --folded --symfs "$OUT/empty" "$dat" 2>&1)"

knobs_unchanged "report --sample-profile"
finish
