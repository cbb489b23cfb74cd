# SPDX-License-Identifier: GPL-2.0-or-later
# ftc convert --to chrome against trace-cmd and speedscope: ftc's capture
# (sched_switch, atrace-style markers, perf samples with call stacks, perf
# counter readings) and a function_graph dump imported from a console log
# are converted to Chrome's Trace Event Format; the JSON parses, and
# chrome-check.py finds each CPU's lane slices, each function_graph call,
# each marker, the samples' stacks and the counter readings as trace-cmd
# report -R and ftc report --folded give them. speedscope (npm, installed by
# scripts/install-deps into .cache/npm) opens the function_graph file in
# headless Chromium: a profile per thread, each weighing its calls.
. "$(dirname "$0")/../lib.sh"

for t in trace-cmd python3; do
	command -v $t >/dev/null || { skip "chrome" "$t is not installed"; finish; }
done
D=$OUT/chrome.$$
rm -rf "$D"; mkdir -p "$D"
A=$(test_instance chrome)
HTTP=""
trap '[ -n "$HTTP" ] && kill $HTTP 2>/dev/null; [ "$T_FAILED" = 0 ] && rm -rf "$D"' EXIT
knobs_save
CHECK=$TOP/tests/interop/chrome-check.py

# json KEY FILE: one value of chrome-check.py's answer
json() { python3 -c 'import json, sys; v = json.load(open(sys.argv[2]))[sys.argv[1]]
print(json.dumps(v) if isinstance(v, (list, dict)) else v)' "$1" "$2"; }

# check NAME TRACE.DAT JSON [FOLDED]: the answer in JSON.out
check() {
	if ! python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$3" 2>"$D/parse.err"; then
		fail "$1: the file is JSON" "$(tail -1 "$D/parse.err")"
		return 1
	fi
	pass "$1: the file is JSON"
	trace-cmd report -t -R -i "$2" >"$2.raw" 2>/dev/null
	python3 "$CHECK" "$3" "$2.raw" ${4:-} >"$3.out" ||
		{ fail "$1: chrome-check.py" "$(tail -3 "$3.out")"; return 1; }
	[ "$(json unnamed_threads "$3.out")" = 0 ] && pass "$1: every thread and lane is named" ||
		fail "$1: every thread and lane is named" "$(json unnamed_threads "$3.out") are not"
}

# --- ftc's capture ----------------------------------------------------------
cc -O1 -g -fno-omit-frame-pointer -o "$D/hot" "$TOP/tests/fixtures/hot.c" ||
	{ fail "setup: build the sampled program" "cc failed"; finish; }
# The shell writes its markers itself: a begin and its end on one thread.
mark() { printf 'echo "%s" >%s/instances/%s/trace_marker; ' "$1" "$TRACEFS" "$A"; }
work="$(mark 'B|$$|load') $D/hot 0.3 >/dev/null; $(mark 'C|$$|queue|42')
	$(mark 'E|$$') $(mark 'plain text') sleep 0.1"
"$FTC" record -q -B "$A" -e sched:sched_switch --sample cpu-clock --freq 500 --call-graph fp \
	--counters task-clock --interval-print 100 -o "$D/ftc.dat" -- sh -c "$work" \
	>"$D/record.log" 2>&1 || { fail "setup: ftc record" "$(tail -3 "$D/record.log")"; finish; }
"$FTC" convert --to chrome "$D/ftc.dat" "$D/ftc.json" >"$D/conv.out" 2>"$D/conv.err"
st=$?
[ $st = 0 ] && [ ! -s "$D/conv.out" ] && [ ! -s "$D/conv.err" ] &&
	pass "ftc's capture: converted, silently" ||
	fail "ftc's capture: converted" "exit $st: $(cat "$D/conv.out" "$D/conv.err" | head -3)"
"$FTC" report --folded "$D/ftc.dat" >"$D/ftc.folded" 2>/dev/null
if check "ftc's capture" "$D/ftc.dat" "$D/ftc.json" "$D/ftc.folded"; then
	o=$D/ftc.json.out
	n=$(json lanes "$o")
	[ "$n" -gt 10 ] && [ "$(json lanes_equal "$o")" = True ] &&
		pass "ftc's capture: the $n CPU lane slices are what ran between trace-cmd's switches" ||
		fail "ftc's capture: the CPU lane slices" "$n: $(json diffs "$o")"
	[ "$(json markers "$o")" = 4 ] && [ "$(json markers_equal "$o")" = True ] &&
		[ "$(json marker_phases "$o")" = '{"B": 1, "C": 1, "E": 1, "i": 1}' ] &&
		pass "ftc's capture: the markers as a begin, a counter, an end and an instant" ||
		fail "ftc's capture: the markers" "$(json marker_phases "$o"): $(json diffs "$o")"
	want=$("$FTC" report -R "$D/ftc.dat" 2>/dev/null | grep -c '^ftc_perf: .* sample: ')
	[ "$want" -gt 10 ] && [ "$(json samples "$o")" = "$want" ] &&
		[ "$(json stacks_equal "$o")" = True ] &&
		pass "ftc's capture: the $want samples are instants whose stacks fold as ftc report --folded's" ||
		fail "ftc's capture: the samples" "$(json samples "$o") of $want; stacks equal: $(json stacks_equal "$o")"
	n=$(json readings "$o")
	[ "$n" -ge 3 ] && [ "$(json readings_equal "$o")" = True ] &&
		pass "ftc's capture: the $n counter readings, each the count since the one before" ||
		fail "ftc's capture: the counter readings" "$n, equal: $(json readings_equal "$o")"
fi

# --- function_graph, from an imported console log ---------------------------
FX=$TOP/tests/fixtures/import
if "$FTC" import -q --kallsyms "$FX/graph-orig-cpu.kallsyms" -o "$D/graph.dat" \
	"$FX/graph-orig-cpu.log" 2>"$D/import.err" &&
   "$FTC" convert --to chrome "$D/graph.dat" "$D/graph.json" 2>"$D/conv.err"; then
	if check "function_graph" "$D/graph.dat" "$D/graph.json"; then
		n=$(json calls "$D/graph.json.out")
		[ "$n" -gt 20 ] && [ "$(json calls_equal "$D/graph.json.out")" = True ] &&
			pass "function_graph: each of the $n calls is its exit record's function, start and duration" ||
			fail "function_graph: the calls" "$n: $(json diffs "$D/graph.json.out")"
	fi
else
	fail "setup: import and convert a function_graph dump" "$(cat "$D/import.err" "$D/conv.err" | head -3)"
fi

# --- speedscope opens it ----------------------------------------------------
browser=$(command -v chromium || command -v chromium-browser)
ss=$TOP/.cache/npm/node_modules/speedscope/dist/release
if [ ! -f "$ss/index.html" ]; then
	skip "speedscope" "not installed ($ss: scripts/install-deps installs it with npm)"
elif [ -z "$browser" ]; then
	skip "speedscope" "chromium is not installed"
elif [ -f "$D/graph.json" ]; then
	mkdir -p "$D/www" && cp -r "$ss/." "$D/www/" && cp "$D/graph.json" "$D/www/t.json"
	port=$((20000 + $$ % 20000))
	(cd "$D/www" && exec python3 -m http.server "$port" --bind 127.0.0.1) >"$D/http.log" 2>&1 &
	HTTP=$!
	for _ in $(seq 50); do
		python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' \
			"$port" 2>/dev/null && break
		sleep 0.1
	done
	timeout 90 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$D/chromium" \
		--virtual-time-budget=10000 --dump-dom \
		"http://127.0.0.1:$port/index.html#profileURL=http://127.0.0.1:$port/t.json&title=ftc" \
		>"$D/speedscope.html" 2>"$D/chromium.err"
	# speedscope lists a profile per thread with its total weight
	got=$(grep -oE '<span>ftc <span[^>]*>\(1/[0-9]+\)' "$D/speedscope.html" | grep -oE '/[0-9]+' | tr -d /)
	weights=$(grep -oE '<td class="[^"]*">[0-9.]+(µs|ms|s)</td>' "$D/speedscope.html" |
		sed -E 's/<[^>]*>//g' | sort)
	want=$(python3 - "$D/graph.json" <<'PY'
import collections, json, sys
ev = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e["ph"] == "X"]
by = collections.defaultdict(list)
for e in ev:
    by[e["tid"]].append(e)
for tid, calls in by.items():
    calls.sort(key=lambda e: (e["ts"], -e["dur"]))
    total, end = 0.0, -1.0
    for e in calls:  # the calls no other call of the thread contains
        if e["ts"] >= end - 1e-9:
            total += e["dur"]
            end = e["ts"] + e["dur"]
    print("%d %.3f" % (tid, total))
PY
)
	ok=1
	[ "$got" = "$(echo "$want" | wc -l)" ] || ok=0
	for w in $(echo "$want" | awk '{ print $2 }'); do
		echo "$weights" | python3 -c 'import re, sys
w = float(sys.argv[1])
for line in sys.stdin:
    m = re.match(r"([0-9.]+)(µs|ms|s)$", line.strip())
    if m:
        v = float(m.group(1)) * {"µs": 1, "ms": 1e3, "s": 1e6}[m.group(2)]
        if abs(v - w) <= max(0.01 * w, 0.01):
            sys.exit(0)
sys.exit(1)' "$w" || ok=0
	done
	[ "$ok" = 1 ] && pass "speedscope opens it: a profile per thread ($got), each weighing its calls" ||
		fail "speedscope opens it: a profile per thread, each weighing its calls" \
			"profiles: ${got:-none} of $(echo "$want" | wc -l); weights: $(echo $weights); want: $(echo $want) (see $D/speedscope.html)"
	kill $HTTP 2>/dev/null
	HTTP=""
fi

# --- bad input ----------------------------------------------------------------
expect_status "--to chrome with -B: exit 2" 2 "$FTC" convert --to chrome -B "$A" "$D/ftc.dat" "$D/x.json"
expect_match "... saying what to leave out" "--to chrome takes every buffer" "$(cat "$OUT/last.err")"
expect_status "--to chrome --no-compact-sched: exit 2" 2 \
	"$FTC" convert --to chrome --no-compact-sched "$D/ftc.dat" "$D/x.json"
expect_status "--to chrome of a missing file: exit 1" 1 "$FTC" convert --to chrome "$D/none.dat" "$D/x.json"
[ ! -e "$D/x.json" ] && pass "bad input: no file is made" || fail "bad input: no file is made" "$D/x.json"
"$FTC" convert --to chrome "$D/ftc.dat" - 2>/dev/null | python3 -c 'import json, sys; json.load(sys.stdin)' &&
	pass "OUT '-': the JSON on standard output" || fail "OUT '-': the JSON on standard output" "not JSON"
knobs_unchanged "chrome"
finish
