# SPDX-License-Identifier: GPL-2.0-or-later
# ftc report and trace-cmd report agree event for event on files trace-cmd
# writes here (extract from a private instance, converted to v6, v7 none and
# v7 zstd), lost-event markers included. Only the layout is normalised: the
# instance prefix, the column padding and the header lines differ by design
# (ftc prints the kernel's trace layout, trace-cmd its own).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/report-lib.sh"

command -v trace-cmd >/dev/null || { skip "report-tracecmd" "trace-cmd is not installed"; finish; }
command -v python3 >/dev/null || { skip "report-tracecmd" "python3 is not installed"; finish; }

knobs_save
D=$OUT/report-tracecmd
rm -rf "$D"; mkdir -p "$D"

# Events of three kinds on both CPUs, through a private instance.
report_fixture "$D/x7.dat" 4096 || { fail "report-tracecmd: fixture" "trace-cmd extract failed"; finish; }
pass "report-tracecmd: trace-cmd extract wrote a fixture"

convert() {
	trace-cmd convert -i "$D/x7.dat" -o "$D/$1.dat" --file-version "$2" --compression "$3" \
		>"$D/$1.convert.log" 2>&1
}
files="x7"
convert v6 6 none && files="$files v6" || fail "report-tracecmd: convert to v6" "$(tail -2 "$D/v6.convert.log")"
convert v7none 7 none && files="$files v7none" || fail "report-tracecmd: convert to v7 none" "$(tail -2 "$D/v7none.convert.log")"
if trace-cmd list -c 2>/dev/null | grep -q zlib; then
	convert v7zlib 7 zlib && files="$files v7zlib"
else
	skip "report-tracecmd: v7 zlib" "this trace-cmd has no zlib (trace-cmd list -c)"
fi

for f in $files; do
	dat=$D/$f.dat
	trace-cmd report -t "$dat" >"$D/$f.tc" 2>"$D/$f.tc.err"
	"$FTC" report -t "$dat" >"$D/$f.ftc" 2>"$D/$f.ftc.err"; st=$?
	if [ $st -ne 0 ]; then fail "report-tracecmd: ftc report $f" "exit $st: $(tail -2 "$D/$f.ftc.err")"; continue; fi
	n=$(report_normalize tc <"$D/$f.tc" | tee "$D/$f.tc.norm" | wc -l)
	report_normalize ftc <"$D/$f.ftc" >"$D/$f.ftc.norm"
	if [ "$n" -lt 1000 ]; then
		fail "report-tracecmd: $f has events" "only $n records from trace-cmd"
	elif d=$(report_diff "$D/$f.tc.norm" "$D/$f.ftc.norm"); then
		pass "report-tracecmd: $f: $n records agree with trace-cmd (ts, cpu, pid, comm, event, fields)"
	else
		fail "report-tracecmd: $f agrees with trace-cmd" "$(echo "$d" | head -6)"
	fi
	if report_sorted <"$D/$f.ftc"; then pass "report-tracecmd: $f: timestamps never go back"
	else fail "report-tracecmd: $f: timestamps never go back" "ftc output is not in time order"; fi
done

# Without -t both print microseconds, rounded to the nearest as the kernel does.
usecs() { grep -oE ' [0-9]+\.[0-9]{6}: ' | tr -d ' :'; }
trace-cmd report "$D/x7.dat" 2>/dev/null | usecs >"$D/x7.tc.us"
"$FTC" report "$D/x7.dat" 2>/dev/null | usecs >"$D/x7.ftc.us"
if [ -s "$D/x7.tc.us" ] && d=$(diff "$D/x7.tc.us" "$D/x7.ftc.us"); then
	pass "report-tracecmd: microsecond timestamps agree with trace-cmd ($(wc -l <"$D/x7.tc.us"))"
else
	fail "report-tracecmd: microsecond timestamps agree with trace-cmd" "$(echo "$d" | head -4)"
fi

# Each kind of event is there: the comparison covered more than one format.
for ev in sched_switch sys_enter_write print; do
	expect_match "report-tracecmd: $ev present" ": $ev: " "$(cat "$D/x7.ftc")"
done
expect_match "report-tracecmd: header" '^# entries-in-buffer/entries-written: [0-9]+/[0-9]+   #P:[0-9]+$' \
	"$(head -5 "$D/x7.ftc")"

# A buffer too small for the burst: pages carry lost-event counts.
report_fixture "$D/lost.dat" 8 5000 || { fail "report-tracecmd: lost fixture" "extract failed"; finish; }
trace-cmd report -t "$D/lost.dat" >"$D/lost.tc" 2>/dev/null
"$FTC" report -t "$D/lost.dat" >"$D/lost.ftc" 2>"$D/lost.err"
tcl=$(grep -c 'EVENTS DROPPED' "$D/lost.tc")
ftl=$(grep -c '\[LOST .*EVENTS\]' "$D/lost.ftc")
# ftc's wording, "CPU 1: [LOST 12 EVENTS]", for trace-cmd's "CPU:1 [12 EVENTS DROPPED]".
if [ "$tcl" -gt 0 ] && [ "$tcl" = "$ftl" ] &&
   [ "$(grep -o 'CPU:[0-9]* \[[0-9]* EVENTS DROPPED\]' "$D/lost.tc" | sort)" = \
     "$(grep -o 'CPU [0-9]*: \[LOST [0-9]* EVENTS\]' "$D/lost.ftc" |
	sed -E 's/CPU ([0-9]+): \[LOST ([0-9]+) EVENTS\]/CPU:\1 [\2 EVENTS DROPPED]/' | sort)" ]; then
	pass "report-tracecmd: $ftl lost-event markers match trace-cmd's"
elif [ "$tcl" = 0 ]; then
	skip "report-tracecmd: lost markers" "the kernel dropped nothing this time"
else
	fail "report-tracecmd: lost markers" "trace-cmd $tcl, ftc $ftl"
fi
report_normalize tc <"$D/lost.tc" >"$D/lost.tc.norm"
report_normalize ftc <"$D/lost.ftc" >"$D/lost.ftc.norm"
if d=$(report_diff "$D/lost.tc.norm" "$D/lost.ftc.norm"); then
	pass "report-tracecmd: overwritten buffer: records agree"
else
	fail "report-tracecmd: overwritten buffer: records agree" "$(echo "$d" | head -4)"
fi

knobs_unchanged "report-tracecmd"
finish
