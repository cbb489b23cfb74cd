# SPDX-License-Identifier: GPL-2.0-or-later
# ftc convert --to perfetto against protoc and trace-cmd: ftc's capture
# (sched, irq, workqueue, task, openat syscalls, markers, perf samples with
# call stacks, perf counter readings), trace-cmd's file of an instance, a function_graph dump
# imported from a console log, a copy with lost events marked and a copy cut
# short are each converted; protoc decodes each with our schema of
# Perfetto's field numbers (Documentation/perfetto-subset.proto), and
# perfetto-check.py finds every record trace-cmd report -R prints as one
# event on the same CPU, nanosecond and name with the same field values,
# the lost-event marks on the records after each loss, the samples'
# stacks folding to what ftc report --folded prints, and each counter
# reading a point of its counter track. Bad input gets a
# message and the documented exit code, and no file.
. "$(dirname "$0")/../lib.sh"

for t in trace-cmd python3 protoc; do
	command -v $t >/dev/null || { skip "perfetto" "$t is not installed (protobuf-compiler)"; finish; }
done
D=$OUT/perfetto.$$
rm -rf "$D"; mkdir -p "$D"
A=$(test_instance pf-ftc) B=$(test_instance pf-tc)
trap 'instances_remove "$B"; [ "$T_FAILED" = 0 ] && rm -rf "$D"' EXIT
knobs_save
SCHEMA=$TOP/Documentation/perfetto-subset.proto
CHECK=$TOP/tests/interop/perfetto-check.py

# decode FILE: protoc's text of a Perfetto file, into FILE.txt
decode() {
	protoc -I"$(dirname "$SCHEMA")" --decode=ftc.perfetto.Trace "$SCHEMA" <"$1" >"$1.txt" 2>"$1.err"
}

# json KEY FILE.json: one value of perfetto-check.py's answer
json() { python3 -c 'import json, sys; v = json.load(open(sys.argv[2]))[sys.argv[1]]
print(json.dumps(v) if isinstance(v, (list, dict)) else v)' "$1" "$2"; }

# same_records NAME TRACE.DAT PF [FOLDED]: the Perfetto file holds every
# record of the trace.dat, field for field; the answer in PF.json
same_records() {
	local name=$1 dat=$2 pf=$3 folded=${4:-}
	if ! decode "$pf"; then
		fail "$name: protoc decodes it" "$(head -3 "$pf.err")"
		return 1
	fi
	pass "$name: protoc --decode reads it with Perfetto's field numbers"
	trace-cmd report -t -R -i "$dat" >"$dat.raw" 2>/dev/null
	python3 "$CHECK" "$pf.txt" "$dat.raw" $folded >"$pf.json" || {
		fail "$name: perfetto-check.py" "$(tail -3 "$pf.json")"; return 1; }
	local n m x f c e
	n=$(json records "$pf.json") m=$(json missing "$pf.json") x=$(json extra "$pf.json")
	f=$(json mismatches "$pf.json") c=$(json fields_compared "$pf.json") e=$(json errors "$pf.json")
	[ "$n" -gt 0 ] && [ "$m" = 0 ] && [ "$x" = 0 ] &&
		pass "$name: each of trace-cmd's $n records is one event, same CPU, ns and name" ||
		fail "$name: each of trace-cmd's records is one event" \
			"$n records, $m missing, $x extra: $(json examples "$pf.json")"
	[ "$c" -gt "$n" ] && [ "$f" = 0 ] &&
		pass "$name: $c field values as trace-cmd prints them" ||
		fail "$name: the field values are trace-cmd's" "$f of $c differ: $(json examples "$pf.json")"
	[ "$e" = "[]" ] && pass "$name: every interned symbol, frame and stack defined before use" ||
		fail "$name: interned entries defined before use" "$e"
}

# --- ftc's capture --------------------------------------------------------
cc -O1 -g -fno-omit-frame-pointer -o "$D/hot" "$TOP/tests/fixtures/hot.c" ||
	{ fail "setup: build the sampled program" "cc failed"; finish; }
# The shell writes its markers itself: a begin and its end on one thread.
marker=$TRACEFS/instances/$A/trace_marker
work="echo \"B|\$\$|phase-one\" >$marker; $D/hot 0.3 >/dev/null; ls / /usr >/dev/null
	echo \"E|\$\$\" >$marker; sleep 0.1"
"$FTC" record -q -B "$A" -e sched -e irq -e workqueue -e task -e 'syscalls:sys_*_openat' \
	--sample cpu-clock --freq 500 --call-graph fp --counters task-clock,context-switches \
	--interval-print 100 -o "$D/ftc.dat" -- sh -c "$work" \
	>"$D/record.log" 2>&1 || { fail "setup: ftc record" "$(tail -3 "$D/record.log")"; finish; }
"$FTC" convert --to perfetto "$D/ftc.dat" "$D/ftc.pf" >"$D/conv.out" 2>"$D/conv.err"
st=$?
[ $st = 0 ] && [ ! -s "$D/conv.out" ] && [ ! -s "$D/conv.err" ] && [ -s "$D/ftc.pf" ] &&
	pass "ftc's capture: converted, silently" ||
	fail "ftc's capture: converted" "exit $st: $(cat "$D/conv.out" "$D/conv.err" | head -3)"
"$FTC" report --folded "$D/ftc.dat" >"$D/ftc.folded" 2>/dev/null
if same_records "ftc's capture" "$D/ftc.dat" "$D/ftc.pf" "$D/ftc.folded"; then
	names=$(json names "$D/ftc.pf.json")
	for ev in sched_switch sched_waking sched_process_exec print sys_enter_openat; do
		expect_match "ftc's capture: $ev events are there" "\"$ev\": [1-9]" "$names"
	done
	grep -q 'switch_timestamp:' "$D/ftc.pf.txt" && ! grep -q 'sched_switch {' "$D/ftc.pf.txt" &&
		pass "ftc's capture: sched_switch in the compact arrays" ||
		fail "ftc's capture: sched_switch in the compact arrays" "see $D/ftc.pf.txt"
	grep -q 'buf: "B|[0-9]*|phase-one' "$D/ftc.pf.txt" &&
		pass "ftc's capture: the marker's text is print's buf (atrace B| for Perfetto's slices)" ||
		fail "ftc's capture: the marker's text is print's buf" "$(grep -m2 -A3 'print {' "$D/ftc.pf.txt")"
	want=$("$FTC" report -R "$D/ftc.dat" 2>/dev/null | grep -c '^ftc_perf: .* sample: ')
	got=$(json samples "$D/ftc.pf.json")
	[ "$want" -gt 10 ] && [ "$got" = "$want" ] &&
		pass "ftc's capture: each of the $want perf samples is a PerfSample" ||
		fail "ftc's capture: each perf sample is a PerfSample" "$got of $want"
	[ "$(json folded_equal "$D/ftc.pf.json")" = True ] &&
		pass "ftc's capture: the samples' stacks fold as ftc report --folded's" ||
		fail "ftc's capture: the samples' stacks fold as ftc report --folded's" \
			"differ: $(json folded_diff "$D/ftc.pf.json")"
	grep -q 'str: "hot_function"' "$D/ftc.pf.txt" &&
		pass "ftc's capture: the sampled program's function is an interned name" ||
		fail "ftc's capture: the sampled program's function is named" "no hot_function in $D/ftc.pf.txt"
	n=$(json readings "$D/ftc.pf.json")
	[ "$n" -ge 4 ] && [ "$(json counter_errors "$D/ftc.pf.json")" = "[]" ] &&
		pass "ftc's capture: each of the $n counter readings is a point of its track, the count since the one before" ||
		fail "ftc's capture: counter readings as counter tracks" \
			"$n readings: $(json counter_errors "$D/ftc.pf.json")"
	[ "$(json release "$D/ftc.pf.json")" = "$(uname -r)" ] &&
		pass "ftc's capture: the system info names this kernel's release" ||
		fail "ftc's capture: the system info names the release" "$(json release "$D/ftc.pf.json")"
	pid=$(awk '/^ftc_perf: .* sample: / { sub(/.*-/, "", $2); print $2; exit }' \
		<("$FTC" report -R "$D/ftc.dat" 2>/dev/null))
	grep -B1 -A2 "tid: $pid\$" "$D/ftc.pf.txt" | grep -q "tgid: $pid" &&
		pass "ftc's capture: the sampled task is its process's thread (tgid from perf)" ||
		fail "ftc's capture: the sampled task's process" "pid $pid: $(grep -A3 "tid: $pid\$" "$D/ftc.pf.txt" | head -4)"
fi
"$FTC" convert --to perfetto --no-compact-sched "$D/ftc.dat" "$D/typed.pf" 2>"$D/conv.err" &&
	same_records "--no-compact-sched" "$D/ftc.dat" "$D/typed.pf" &&
	{ grep -q 'sched_switch {' "$D/typed.pf.txt" && ! grep -q 'compact_sched' "$D/typed.pf.txt" &&
		pass "--no-compact-sched: sched_switch typed, no compact arrays" ||
		fail "--no-compact-sched: sched_switch typed" "see $D/typed.pf.txt"; }
"$FTC" convert --to perfetto "$D/ftc.dat" - >"$D/stdout.pf" 2>"$D/conv.err"
cmp -s "$D/stdout.pf" "$D/ftc.pf" && pass "OUT '-': the same bytes on standard output" ||
	fail "OUT '-': the same bytes on standard output" "$(cat "$D/conv.err" | head -2)"

# --- trace-cmd's file -------------------------------------------------------
dir=$TRACEFS/instances/$B
if mkdir "$dir" && echo 0 >"$dir/tracing_on" && echo 1 >"$dir/events/sched/enable" &&
   echo 1 >"$dir/events/irq/enable" && echo 1 >"$dir/tracing_on"; then
	sh -c 'ls / >/dev/null; sleep 0.2'
	echo 0 >"$dir/tracing_on"
	if trace-cmd extract -B "$B" -o "$D/tc.dat" >"$D/extract.log" 2>&1; then
		"$FTC" convert --to perfetto "$D/tc.dat" "$D/tc.pf" 2>"$D/conv.err" &&
			same_records "trace-cmd's file" "$D/tc.dat" "$D/tc.pf" ||
			fail "trace-cmd's file: converted" "$(head -3 "$D/conv.err")"
	else
		fail "setup: trace-cmd extract -B $B" "$(tail -3 "$D/extract.log")"
	fi
else
	fail "setup: instance $B with sched and irq events" "refused"
fi
instances_remove "$B"

# --- function_graph, from an imported console log --------------------------
FX=$TOP/tests/fixtures/import
if "$FTC" import -q --kallsyms "$FX/graph-orig-cpu.kallsyms" -o "$D/graph.dat" \
	"$FX/graph-orig-cpu.log" 2>"$D/import.err" &&
   "$FTC" convert --to perfetto "$D/graph.dat" "$D/graph.pf" 2>"$D/conv.err"; then
	same_records "an imported function_graph dump" "$D/graph.dat" "$D/graph.pf"
	n=$(json names "$D/graph.pf.json")
	expect_match "function_graph: funcgraph_entry and _exit typed" \
		'"funcgraph_entry": [1-9].*"funcgraph_exit": [1-9]|"funcgraph_exit": [1-9].*"funcgraph_entry": [1-9]' "$n"
	want=$("$FTC" report "$D/graph.dat" | grep -oE '[A-Za-z_0-9.]+\(\)' | tr -d '()' | sort -u)
	got=$(awk '/kernel_symbols \{/ { k = 1 } k && /str:/ { gsub(/"/, "", $2); print $2; k = 0 }' \
		"$D/graph.pf.txt" | sort -u)
	[ -n "$want" ] && [ "$got" = "$want" ] &&
		pass "function_graph: the interned kernel symbols are the functions ftc report names ($(echo "$got" | wc -l))" ||
		fail "function_graph: the interned kernel symbols" "$(diff <(echo "$want") <(echo "$got") | head -4)"
	grep -q 'system_info {' "$D/graph.pf.txt" && ! grep -q 'utsname' "$D/graph.pf.txt" &&
		pass "function_graph: no uname from an imported file (it names no kernel)" ||
		fail "function_graph: no uname from an imported file" "$(grep -A5 system_info "$D/graph.pf.txt")"
else
	fail "setup: import and convert a function_graph dump" "$(cat "$D/import.err" "$D/conv.err" | head -3)"
fi

# --- lost events ------------------------------------------------------------
# Three pages of ftc's capture marked as after a loss (two counted, one not).
"$FTC" convert -B "$A" --file-version 6 "$D/ftc.dat" "$D/v6.dat" 2>/dev/null
offs=$("$FTC" dump --buffers "$D/v6.dat" | awk -v b="\"$A\"" '/^  buffer/ { on = $2 == b }
	on && /^    cpu/ && $6 >= 4 * 4096 { print $4 }' | head -2)
set -- $offs
if [ $# -ge 1 ] && python3 "$TOP/tests/fixtures/tracedat-lose.py" "$D/v6.dat" "$D/lose.dat" \
	$(($1 + 4096)):7 $(($1 + 4096 * 3)) ${2:+$(($2 + 4096)):3} >/dev/null 2>"$D/lose.err"; then
	"$FTC" convert --to perfetto "$D/lose.dat" "$D/lose.pf" 2>"$D/conv.err"
	same_records "lost events" "$D/lose.dat" "$D/lose.pf"
	want=$("$FTC" report -t "$D/lose.dat" | grep -A1 'LOST' | grep -v LOST | awk '{
		for (i = 1; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) { c = substr($i, 2, length($i) - 2) + 0; break }
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
			t = substr($i, 1, length($i) - 1); sub(/\./, "", t); sub(/^0+/, "", t); print c, t } }' | sort)
	got=$(json lost_at "$D/lose.pf.json" | tr -d '[]"' | tr ',' '\n' | sed 's/^ //' | sort)
	[ -n "$want" ] && [ "$(echo "$want" | wc -l)" -ge 2 ] && [ "$got" = "$want" ] &&
		pass "lost events: each loss marks the bundle whose first record is the first after it ($(echo "$want" | wc -l))" ||
		fail "lost events: the marks fall after each loss" "ftc report: $(echo $want); perfetto: $(echo $got)"
else
	fail "setup: a copy with lost events" "$(cat "$D/lose.err") (offsets: $offs)"
fi

# --- damaged and bad input ---------------------------------------------------
size=$(stat -c %s "$D/v6.dat")
head -c $((size - 3 * 4096 - 100)) "$D/v6.dat" >"$D/cut.dat"
"$FTC" convert --to perfetto "$D/cut.dat" "$D/cut.pf" >/dev/null 2>"$D/cut.err"
st=$?
want=$("$FTC" report -R "$D/cut.dat" 2>/dev/null | grep -vc '^#')
[ $st = 1 ] && grep -q "is damaged" "$D/cut.err" && grep -q "cut at" "$D/cut.err" &&
	pass "a file cut short: exit 1, says where" ||
	fail "a file cut short: exit 1, says where" "exit $st: $(head -2 "$D/cut.err")"
# (trace-cmd 3.1.6 can crash on a cut file: the count alone is checked)
decode "$D/cut.pf" && : >"$D/cut.raw" && python3 "$CHECK" "$D/cut.pf.txt" "$D/cut.raw" >"$D/cut.json"
[ "$want" -gt 0 ] && [ "$(json events "$D/cut.json" 2>/dev/null)" = "$want" ] &&
	pass "a file cut short: OUT holds the $want records before the cut" ||
	fail "a file cut short: OUT holds the records before the cut" \
		"$(json events "$D/cut.json" 2>&1 | head -1) of $want"

expect_status "--to with an unknown format: exit 2" 2 "$FTC" convert --to pprof "$D/ftc.dat" "$D/x.pf"
expect_match "... naming the formats" "'pprof': not an output format \(trace.dat, perfetto or chrome\)" \
	"$(cat "$OUT/last.err")"
expect_status "--to perfetto with -B: exit 2" 2 "$FTC" convert --to perfetto -B "$A" "$D/ftc.dat" "$D/x.pf"
expect_match "... saying what to leave out" "leave --file-version, --compression and -B out" "$(cat "$OUT/last.err")"
expect_status "--no-compact-sched without --to perfetto: exit 2" 2 \
	"$FTC" convert --no-compact-sched "$D/ftc.dat" "$D/x.dat"
expect_status "a missing input: exit 1" 1 "$FTC" convert --to perfetto "$D/nothing.dat" "$D/x.pf"
expect_match "... naming it" "nothing.dat" "$(cat "$OUT/last.err")"
expect_status "not a trace.dat: exit 1" 1 "$FTC" convert --to perfetto "$SCHEMA" "$D/x.pf"
expect_status "an output in a missing directory: exit 1" 1 \
	"$FTC" convert --to perfetto "$D/ftc.dat" "$D/no/such/dir.pf"
expect_match "... naming it" "no/such/dir.pf" "$(cat "$OUT/last.err")"
[ ! -e "$D/x.pf" ] && [ ! -e "$D/x.dat" ] && pass "bad input: no file is made" ||
	fail "bad input: no file is made" "$(ls "$D"/x.* 2>/dev/null)"
mkdir -p "$D/small"
if mount -t tmpfs -o size=8k none "$D/small" 2>/dev/null; then
	"$FTC" convert --to perfetto "$D/ftc.dat" "$D/small/full.pf" >/dev/null 2>"$D/full.err"
	st=$?
	[ $st = 1 ] && grep -q "No space left" "$D/full.err" && [ ! -e "$D/small/full.pf" ] &&
		pass "a full disk: exit 1, says so, leaves no partial file" ||
		fail "a full disk: exit 1, says so, leaves no file" "exit $st: $(head -2 "$D/full.err"); $(ls "$D/small")"
	umount "$D/small"
else
	skip "a full disk" "cannot mount a small tmpfs here"
fi
knobs_unchanged "perfetto"
finish
