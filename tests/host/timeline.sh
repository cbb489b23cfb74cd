# SPDX-License-Identifier: GPL-2.0-or-later
# A user draws a capture with ftc report --timeline FILE.html and opens it
# in a browser (headless Chromium): the page loads with no console error,
# the slices it draws are the switch-ins of the selection as trace-cmd
# report prints them from the same file (every CPU; the busiest CPU; the
# busiest task; the middle third of the switches), zooming narrows the
# visible range and draws fewer, and each selection makes the file smaller.
# A copy with pages marked lost has a mark at each, as report prints them.
# A CPU the file lacks, --from after --to, a window outside the capture,
# a directory that does not exist and a file without sched_switch get
# their exit codes, and leave no file behind.
# The capture is recorded in an instance of ours (a few programs, 300 runs
# of true to fill a CPU's pages, and two markers); TIMELINE_CAPTURE=FILE checks FILE instead and records nothing.
. "$(dirname "$0")/../lib.sh"

browser=$(command -v chromium || command -v chromium-browser)
[ -n "$browser" ] ||
	{ skip "timeline" "chromium is not installed (scripts/install-deps installs it)"; finish; }
command -v trace-cmd >/dev/null || { skip "timeline" "trace-cmd is not installed"; finish; }
D=$OUT/timeline.$$
rm -rf "$D"; mkdir -p "$D"

if [ -n "$TIMELINE_CAPTURE" ]; then
	cap=$TIMELINE_CAPTURE
	[ -r "$cap" ] || { fail "TIMELINE_CAPTURE" "$cap: not readable"; finish; }
	marks_want=
	trap '[ "$T_FAILED" = 0 ] && rm -rf "$D"' EXIT
else
	I=$(test_instance timeline)
	trap 'instances_remove "$I"; [ "$T_FAILED" = 0 ] && rm -rf "$D"' EXIT
	knobs_save
	cap=$D/t.dat
	if ! "$FTC" record -q -B "$I" -e sched:sched_switch -e sched:sched_wakeup \
		-e sched:sched_wakeup_new -o "$cap" -- sh -c "'$FTC' marker -B '$I' timeline one;
		ls / >/dev/null; i=0; while [ \$i -lt 300 ]; do /bin/true; i=\$((i + 1)); done
		sleep 0.05; '$FTC' marker -B '$I' 'timeline two </script><b>\"&'" \
		>"$D/rec.out" 2>&1; then
		fail "record a capture" "$(tail -3 "$D/rec.out")"
		finish
	fi
	marks_want=2
fi

# Chromium as root needs --no-sandbox; a private profile keeps runs apart;
# its console goes to stderr (--enable-logging), where an error would show.
chrome() { timeout 90 nice -n 19 "$browser" --headless --no-sandbox --disable-gpu \
	--user-data-dir="$D/chromium-profile" --enable-logging=stderr --v=0 \
	--virtual-time-budget=5000 --window-size=1400,900 "$@" 2>"$D/chromium.err"; }

# status FILE.html [HASH]: the page's own figures after it drew (its ftc-status block)
status() {
	chrome --dump-dom "file://$1$2" | sed -n 's/.*<pre id="ftc-status"[^>]*>\([^<]*\)<.*/\1/p' |
		sed 's/&quot;/"/g'
}
# field JSON NAME: a number of the status, or the first of a pair
field() { printf '%s\n' "$1" | grep -oE "\"$2\":\[?-?[0-9.e+]+" | grep -oE -- '-?[0-9.e+]+$'; }

inst=$("$FTC" report --stat "$cap" 2>/dev/null | awk '$4 ~ /^[0-9]+$/ && $3 > 0 && $1 != "(top)" &&
	$1 != "ftc_perf" && NR > 1 { print $1; exit }')
# switch-ins as trace-cmd prints them: "TIME: sched_switch: prev ==> comm:pid [prio]";
# the fields after it are CPU [NNN], the time, the next pid
switch_ins() { trace-cmd report -t "$cap" 2>/dev/null | awk -v inst="$1" '
	/ sched_switch: / && (inst == "" || $1 == inst ":") {
		cpu = ""; ts = ""
		for (i = 1; i <= NF; i++) {
			if (cpu == "" && $i ~ /^\[[0-9]+\]$/)
				cpu = substr($i, 2, length($i) - 2) + 0
			if (ts == "" && $i ~ /^[0-9]+\.[0-9]+:$/) ts = substr($i, 1, length($i) - 1)
		}
		s = $0; sub(/.*==> /, "", s); sub(/ \[[0-9]+\][[:space:]]*$/, "", s)
		pid = s; sub(/.*:/, "", pid)
		if (pid != 0) print cpu, ts, pid
	}'; }
switch_ins "$inst" >"$D/switch-ins"
# a file of one buffer may be printed without the instance's name before each line
[ -s "$D/switch-ins" ] || switch_ins "" >"$D/switch-ins"
total=$(wc -l <"$D/switch-ins")
[ "$total" -gt 0 ] ||
	{ fail "switch-ins in the capture" "trace-cmd report shows none in $cap"; finish; }

# count [CPU] [FROM TO] [PID]: switch-ins of the selection ("-" for none)
count() {
	awk -v c="$1" -v f="$2" -v t="$3" -v p="$4" 'function ns(x, a) { split(x, a, ".");
		return a[1] * 1e9 + a[2] }
		(c == "-" || $1 == c) && (p == "-" || $3 == p) &&
		(f == "-" || (ns($2) >= ns(f) && ns($2) <= ns(t))) { n++ } END { print n + 0 }' \
		"$D/switch-ins"
}

# draws NAME FILE.html WANT: the page loads clean and draws WANT slices at full view
draws() {
	local st
	st=$(status "$2")
	if [ -z "$st" ]; then
		fail "$1: the page loads" "no status block: $(tail -3 "$D/chromium.err")"
		return
	fi
	if grep -qiE 'Uncaught|CONSOLE\(.*(error|exception)' "$D/chromium.err" ||
	   [ "$(printf '%s' "$st" | grep -o '"errors":\[[^]]*\]')" != '"errors":[]' ]; then
		fail "$1: no console error" \
			"$(grep -iE 'Uncaught|CONSOLE' "$D/chromium.err" | head -3) $st"
	else
		pass "$1: no console error"
	fi
	got=$(field "$st" drawnSlices)
	[ "$got" = "$3" ] && [ "$(field "$st" slices)" = "$3" ] &&
		pass "$1: $3 slices drawn, trace-cmd's switch-ins" ||
		fail "$1: slices drawn are the switch-ins" "drew $got (file says $(field "$st" slices)), trace-cmd shows $3"
}

all=$D/all.html
expect "--timeline writes the page" "$FTC" report --timeline "$all" "$cap"
draws "whole capture" "$all" "$total"
expect_nomatch "the page loads nothing from elsewhere" '<(script|link|img)[^>]* (src|href)=' \
	"$(cat "$all")"

# zoom: #zoom=8 opens the page zoomed 8 times about the middle
st=$(status "$all" "#zoom=8")
pair() { printf '%s\n' "$1" | sed -n "s/.*\"$2\":\[\([^]]*\)\].*/\1/p" | tr ',' ' '; }
r0=$(pair "$st" initial)
r1=$(pair "$st" range)
if awk -v a="$r0" -v b="$r1" 'BEGIN { split(a, x, " "); split(b, y, " ");
	w0 = x[2] - x[1]; w1 = y[2] - y[1]; exit !(w0 > 0 && w1 > 0 && w1 < w0 / 7 && w1 > w0 / 9 &&
	y[1] > x[1] && y[2] < x[2]) }'; then
	pass "zooming 8x narrows the visible range 8x, inside it ($r0-> $r1)"
else
	fail "zooming narrows the visible range" "from [$r0] to [$r1]: $st"
fi
zd=$(field "$st" drawnSlices)
[ -n "$zd" ] && [ "$zd" -lt "$total" ] && pass "zoomed in, fewer slices drawn ($zd of $total)" ||
	fail "zoomed in, fewer slices drawn" "$zd of $total"

# --cpu: the busiest CPU
cpu=$(awk '{ n[$1]++ } END { for (c in n) if (n[c] > m) { m = n[c]; b = c } print b }' "$D/switch-ins")
expect "--timeline --cpu $cpu" "$FTC" report --timeline "$D/cpu.html" --cpu "$cpu" "$cap"
draws "--cpu $cpu" "$D/cpu.html" "$(count "$cpu" - - -)"
# --pid: the task switched in most
pid=$(awk '{ n[$3]++ } END { for (p in n) if (n[p] > m) { m = n[p]; b = p } print b }' "$D/switch-ins")
expect "--timeline --pid $pid" "$FTC" report --timeline "$D/pid.html" --pid "$pid" "$cap"
draws "--pid $pid" "$D/pid.html" "$(count - - - "$pid")"
# --from/--to: the middle third of the switches, at their own times
from=$(awk -v n="$total" 'NR == int(n / 3) + 1 { print $2 }' "$D/switch-ins")
to=$(awk -v n="$total" 'NR == int(2 * n / 3) + 1 { print $2 }' "$D/switch-ins")
expect "--timeline --from $from --to $to" "$FTC" report --timeline "$D/win.html" --from "$from" \
	--to "$to" "$cap"
draws "--from $from --to $to" "$D/win.html" "$(count - "$from" "$to" -)"

size() { wc -c <"$1"; }
sizes="pid win"
if [ "$(awk '{ print $1 }' "$D/switch-ins" | sort -u | wc -l)" -gt 1 ]; then
	sizes="cpu $sizes"
else
	skip "the cpu selection makes a smaller file" "every switch-in is on CPU $cpu"
fi
for f in $sizes; do
	[ "$(size "$D/$f.html")" -lt "$(size "$all")" ] &&
		pass "the $f selection makes a smaller file ($(size "$D/$f.html") < $(size "$all") bytes)" ||
		fail "the $f selection makes a smaller file" "$(size "$D/$f.html") >= $(size "$all")"
done

# the markers: one holds what would end the page's data block if written as it is
if [ -n "$marks_want" ]; then
	n=$(grep -c '^\[2,.*timeline \(one\|two\)' "$all")
	m=$(field "$(status "$all")" marks)
	[ "$n" = "$marks_want" ] && [ "$m" = "$marks_want" ] &&
		pass "the markers are on the page, </script> in one too" ||
		fail "the markers are on the page" "$n in the file, $m drawn, of $marks_want"
fi

# lost events: a copy with two pages marked as the kernel marks a loss (an unknown
# number on one, 12 events counted on a later one: the first with room for the count)
# has two marks, as report prints them
"$FTC" convert --file-version 6 --compression none "$cap" "$D/v6.dat" 2>"$D/lose.err"
set -- $("$FTC" dump --buffers "$D/v6.dat" 2>/dev/null | awk -v i="\"$inst\"" '
	$1 == "buffer" { b = $2 } b == i && $1 == "cpu" && $6 > size { off = $4; size = $6 }
	END { print off, size }')
if [ "${2:-0}" -lt $((4096 * 4)) ]; then
	skip "lost-event marks" "no CPU of the capture fills 4 pages (${2:-0} bytes)"
elif python3 "$TOP/tests/fixtures/tracedat-lose.py" "$D/v6.dat" "$D/lose.dat" \
	$(($1 + 4096)) $(($1 + 4096 * 2)):12 >/dev/null 2>>"$D/lose.err" &&
     "$FTC" report --timeline "$D/lose.html" "$D/lose.dat" 2>>"$D/lose.err"; then
	got=$(grep -o '^\[3,[0-9]*,[0-9]*,-\?[0-9]*\]' "$D/lose.html" | cut -d, -f4 | tr -d ']' |
	      tr '\n' ' ')
	[ "$got" = "-1 12 " ] && grep -q '"lost":2,' "$D/lose.html" &&
		pass "two pages marked lost: two marks, an unknown number and 12 events" ||
		fail "two pages marked lost: two marks" "got '$got': $(tail -2 "$D/lose.err")"
	want=$("$FTC" report "$D/lose.dat" --cpu "$(grep -o '^\[3,[0-9]*,[0-9]*' "$D/lose.html" |
		head -1 | cut -d, -f3)" | grep -c 'LOST')
	[ "$want" = 2 ] && pass "... as many as report prints" || fail "... as many as report prints" "$want"
else
	fail "setup: a copy with two pages marked lost" "$(tail -3 "$D/lose.err")"
fi

# a cut capture: what precedes the cut is drawn, and the exit status says it was cut
head -c $(($(wc -c <"$D/v6.dat") - 4096 - 100)) "$D/v6.dat" >"$D/cut.dat"
"$FTC" report --timeline "$D/cut.html" "$D/cut.dat" >/dev/null 2>"$D/cut.err"
st=$?
[ "$st" = 1 ] && grep -q "cut at" "$D/cut.err" && grep -q '"meta":' "$D/cut.html" &&
	pass "a cut capture: the page of what precedes the cut, exit 1" ||
	fail "a cut capture: the page of what precedes the cut, exit 1" "exit $st: $(cat "$D/cut.err")"

# errors: their exit codes (ftc-report(1)), a message naming the value, no file left
no_file() {
	if ls "$D"/bad.html* >/dev/null 2>&1; then
		fail "$1: nothing written" "$(ls "$D"/bad.html*)"
		rm -f "$D"/bad.html*
	else
		pass "$1: nothing written"
	fi
}
ncpus=$("$FTC" report --stat "$cap" | awk '/^cpus:/ { print $2 }')
expect_status "a CPU the file lacks: exit 3" 3 "$FTC" report --timeline "$D/bad.html" \
	--cpu "$((ncpus + 3))" "$cap"
expect_match "the message names the CPU" "no CPU $((ncpus + 3))" "$(cat "$OUT/last.err")"
no_file "a CPU the file lacks"
expect_status "--from after --to: exit 2" 2 "$FTC" report --timeline "$D/bad.html" \
	--from "$to" --to "$from" "$cap"
expect_match "the message names both" "is after --to" "$(cat "$OUT/last.err")"
no_file "--from after --to"
last=$(tail -1 "$D/switch-ins" | awk '{ split($2, a, "."); print a[1] + 100 }')
expect_status "a window after the capture: exit 3" 3 "$FTC" report --timeline "$D/bad.html" \
	--from "$last" "$cap"
expect_match "the message says where the records are" "records run from" "$(cat "$OUT/last.err")"
no_file "a window after the capture"
expect_status "a directory that does not exist: exit 1" 1 "$FTC" report --timeline \
	"$D/none/bad.html" "$cap"
expect_match "the message names the path" "$D/none/bad.html: cannot create" "$(cat "$OUT/last.err")"
# a full disk, as a file size limit makes it (EFBIG): the page is not half written
(ulimit -f 8; "$FTC" report --timeline "$D/bad.html" "$cap" >/dev/null 2>"$D/full.err")
st=$?
[ "$st" = 1 ] && grep -q "bad.html: File too large" "$D/full.err" &&
	pass "a write that fails: exit 1, naming the page" ||
	fail "a write that fails: exit 1, naming the page" "exit $st: $(cat "$D/full.err")"
no_file "a write that fails"
expect_status "a directory as the page: exit 2" 2 "$FTC" report --timeline "$D" "$cap"
expect_status "a pid that never ran: exit 3" 3 "$FTC" report --timeline "$D/bad.html" \
	--pid 4194303 "$cap"
no_file "a pid that never ran"
expect_status "--timeline with --json: exit 2" 2 "$FTC" report --timeline "$D/bad.html" --json "$cap"
if [ -z "$TIMELINE_CAPTURE" ]; then
	"$FTC" record -q -B "$I" -e sched:sched_process_exec -o "$D/noswitch.dat" -- true \
		>/dev/null 2>&1
	expect_status "a capture without sched_switch: exit 3" 3 "$FTC" report --timeline \
		"$D/bad.html" "$D/noswitch.dat"
	no_file "a capture without sched_switch"
	knobs_unchanged "ftc record and report --timeline"
else
	skip "a capture without sched_switch" "TIMELINE_CAPTURE: nothing is recorded"
fi
expect_match "--timeline - writes the page to standard output" '"meta":' \
	"$("$FTC" report --timeline - "$cap" 2>/dev/null | grep -F '"meta":')"
finish
