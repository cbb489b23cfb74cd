#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Dynamic probes on the host, where uprobes work: a -g -O0 program with
# known arguments and a string (tests/fixtures/probe-target.c), probed on
# functions, a line, a return and libc's malloc; record and report show the
# value of every call; -L/-V agree with perf probe; errors name the nearest
# names and lines; the kernel's error_log caret is shown; probes made by
# record disappear when it ends or is SIGKILLed (the guardian), and
# uprobe_events (global) is left as found.
. "$(dirname "$0")/../lib.sh"

D=$(mktemp -d "$OUT/ftc-probe.XXXXXX")	# under $OUT: its uprobes are this run's (knobs_mine_only)
INST=$(test_instance probe)
LIBC=/lib/x86_64-linux-gnu/libc.so.6
cleanup() {
	# only our group's events, never anyone else's
	grep -o '^[pre]:ftc/[A-Za-z0-9_]*' "$TRACEFS/uprobe_events" 2>/dev/null |
		sed 's/^.:/-:/' | while read -r l; do echo "$l" >>"$TRACEFS/uprobe_events"; done
	rmdir "$TRACEFS/instances/$INST" 2>/dev/null
	[ -n "$INST2" ] && rmdir "$TRACEFS/instances/$INST2" 2>/dev/null
	[ -n "$KEEP" ] || rm -rf "$D"
}
trap cleanup EXIT

if [ ! -w "$TRACEFS/uprobe_events" ]; then
	skip "probe" "no uprobe_events in $TRACEFS"
	finish
fi
if grep -q '^.:ftc/' "$TRACEFS/uprobe_events"; then
	skip "probe" "group ftc already has probes (another run?): $(grep '^.:ftc/' "$TRACEFS/uprobe_events" | head -2)"
	finish
fi
setup "build the target" cc -g -O0 -o "$D/target" "$TOP/tests/fixtures/probe-target.c" || finish
knobs_save
T=$D/target

# -L and -V as perf probe prints them: the same probe-able lines (numbered
# from the function's first line) and the same variables.
numbered() { awk '$1 ~ /^[0-9]+$/ { print $1 }'; }
# "TYPE NAME" lines of -V, in any order
vlines() { awk 'NR > 2 { $1 = $1; print }' | sort; }
if command -v perf >/dev/null && perf probe -x "$T" -L greet >/dev/null 2>&1; then
	for f in greet weigh main; do
		a=$("$FTC" probe -x "$T" -L $f | numbered | tr '\n' ' ')
		b=$(perf probe -x "$T" -L $f 2>/dev/null | numbered | tr '\n' ' ')
		if [ -n "$a" ] && [ "$a" = "$b" ]; then pass "-L $f: the lines perf probe lists ($a)"
		else fail "-L $f: the lines perf probe lists" "ftc: $a; perf: $b"; fi
	done
	for f in "$T greet" "$T weigh" "$T main" "$LIBC malloc"; do
		a=$("$FTC" probe -x ${f% *} -V ${f#* } | vlines | tr '\n' ',')
		b=$(perf probe -x ${f% *} -V ${f#* } 2>/dev/null | vlines | tr '\n' ',')
		if [ -n "$a" ] && [ "$a" = "$b" ]; then pass "-V ${f#* }: the variables and types perf probe lists ($a)"
		else fail "-V ${f#* }: the variables and types perf probe lists" "ftc: $a; perf: $b"; fi
	done
else
	skip "-L/-V against perf probe" "perf probe cannot read $T"
fi

# record: every call's values, exactly
out=$("$FTC" record -B "$INST" -F -o "$D/t.dat" \
	--probe "$T:greet count buf:string scale" \
	--probe "$T:greet%return \$retval" \
	--probe "$T:weigh factor" \
	--probe "$T:probe-target.c:39 i sum" \
	--probe "$LIBC:malloc bytes" -- "$T" 2>&1)
st=$?
if [ $st = 0 ] && echo "$out" | grep -qx 391; then pass "record --probe: the target ran (391) and record succeeded"
else fail "record --probe" "exit $st: $(echo "$out" | tail -3)"; fi
rep=$("$FTC" report -i "$D/t.dat" 2>&1 | grep -v '^#')
ev() { printf '%s\n' "$rep" | grep -E " $1: " | sed 's/.*: ([^)]*) *//'; }
check_events() {
	local name=$1 want=$2 label=${3:-report} got
	got=$(ev "$name" | tr '\n' '|')
	if [ "$got" = "$want" ]; then pass "$label: $name has every call's values ($want)"
	else fail "$label: $name has every call's values" "want '$want', got '$got'"; fi
}
check_events greet 'count=1 buf="alpha" scale=10|count=2 buf="beta" scale=20|count=3 buf="gamma" scale=30|'
check_events greet__return 'retval=12|retval=24|retval=41|'
check_events weigh 'factor=1|factor=2|'
check_events probe_target_c_L39 'i=0 sum=0|'
n=$(ev malloc | grep -cx 'bytes=12346')
if [ "$n" = 1 ]; then pass "report: libc malloc's argument (bytes=12346 once)"
else fail "report: libc malloc's argument" "bytes=12346 seen $n times: $(ev malloc | head -3)"; fi
expect_nomatch "record removed its probes" '^.:ftc/' "$(cat "$TRACEFS/uprobe_events")"

# A non-PIE build (file offsets from other load addresses) and a stripped
# one whose DWARF is in a .gnu_debuglink file beside it.
setup "build non-PIE" cc -g -O0 -no-pie -o "$D/np" "$TOP/tests/fixtures/probe-target.c" &&
"$FTC" record -B "$INST" -F -o "$D/np.dat" --probe "$D/np:greet count buf:string" \
	--probe "$D/np:greet+4" -- "$D/np" >/dev/null 2>&1
rep=$("$FTC" report -i "$D/np.dat" 2>&1 | grep -v '^#')
check_events greet 'count=1 buf="alpha"|count=2 buf="beta"|count=3 buf="gamma"|' "non-PIE"
n=$(printf '%s\n' "$rep" | grep -c ' greet_4: ')
[ "$n" = 3 ] && pass "non-PIE: FUNC+OFF fires on every call (3)" || fail "non-PIE: FUNC+OFF fires on every call" "$n times"
mkdir -p "$D/dl"
if setup "split debug file" sh -c "cp '$T' '$D/dl/t' && cd '$D/dl' && objcopy --only-keep-debug t t.debug &&
	strip -g t && objcopy --add-gnu-debuglink=t.debug t"; then
	a=$("$FTC" probe -x "$D/dl/t" -V greet | vlines 2>/dev/null | tr '\n' ',')
	b=$("$FTC" probe -x "$T" -V greet | vlines 2>/dev/null | tr '\n' ',')
	if [ -n "$a" ] && [ "$a" = "$b" ]; then pass ".gnu_debuglink: the variables come from the debug file"
	else fail ".gnu_debuglink: the variables come from the debug file" "stripped: $a; full: $b"; fi
fi

# stream: the same probe, live
out=$(timeout 60 "$FTC" stream -B "$INST" -F --probe "$T:greet count buf:string" -- "$T" 2>&1)
got=$(printf '%s\n' "$out" | grep ' greet: ' | sed 's/.*: ([^)]*) *//' | tr '\n' '|')
if [ "$got" = 'count=1 buf="alpha"|count=2 buf="beta"|count=3 buf="gamma"|' ]; then
	pass "stream --probe prints every call's values"
else fail "stream --probe prints every call's values" "got '$got': $(echo "$out" | tail -2)"; fi
expect_nomatch "stream removed its probe" '^.:ftc/' "$(cat "$TRACEFS/uprobe_events")"

# validation before anything is written
expect_status "unknown function: exit 1" 1 "$FTC" probe add -x "$T" gret count
expect_match "unknown function: the nearest names" "no function 'gret' \(nearest: greet" "$(cat "$OUT/last.err")"
expect_status "line without code: exit 1" 1 "$FTC" probe add -x "$T" probe-target.c:38
expect_match "line without code: the nearest lines" "probe-target.c:38 has no code \(nearest lines with code: 35 and 39\)" "$(cat "$OUT/last.err")"
expect_status "unknown variable: exit 1" 1 "$FTC" probe add -x "$T" greet cnt
expect_match "unknown variable: the nearest names" "variable 'cnt' is not visible .*nearest: count" "$(cat "$OUT/last.err")"
expect_status "variable of an inner block: exit 1" 1 "$FTC" probe add -x "$T" main i
expect_match "variable of an inner block: where it is" "'i' is not visible .*declared at line 39, in an inner block" "$(cat "$OUT/last.err")"
expect_status "bad spec: usage" 2 "$FTC" probe add -x "$T" 'greet+x'
expect_status "bad --probe: usage" 2 "$FTC" record --probe 'e:nosuch' -o "$D/x.dat" -- true
expect_status "kernel rejects a type: exit 1" 1 "$FTC" probe add -x "$T" greet count:badtype
err=$(cat "$OUT/last.err")
expect_match "kernel rejects a type: error_log entry" "trace_uprobe: error: Unknown type" "$err"
caret=$(printf '%s\n' "$err" | awk '/Command:/ { c = index($0, "badtype") } /^ *\^$/ { print index($0, "^") == c ? "ok" : "off" }')
if [ "$caret" = ok ]; then pass "kernel rejects a type: the caret points at it"
else fail "kernel rejects a type: the caret points at it" "$err"; fi
if [ ! -e "$TRACEFS/kprobe_events" ]; then
	expect_status "kprobe where the kernel has none: refused" 3 "$FTC" probe add vfs_read
	expect_match "kprobe: ftc check's words" "kprobe_events: absent.*ftc check" "$(cat "$OUT/last.err")"
fi
if [ ! -e "$TRACEFS/synthetic_events" ]; then
	expect_status "synthetic event where the kernel has none: refused" 3 \
		"$FTC" probe add 's:ftc_lat u64 lat; pid_t pid'
	expect_match "synthetic: ftc check's words" \
		"synthetic_events: absent: .*hist triggers .*\(\`ftc check\`: trigger-hist absent\)" \
		"$(cat "$OUT/last.err")"
	expect_match "synthetic: ftc check says the same" '^trigger-hist +absent ' \
		"$("$FTC" check 2>/dev/null)"
	expect_status "synthetic --probe where the kernel has none: refused" 3 \
		"$FTC" record --probe 's:ftc_lat u64 lat' -o "$D/x.dat" -- true
	expect_match "synthetic --probe: ftc check's words" "trigger-hist absent" \
		"$(cat "$OUT/last.err")"
fi
expect_status "synthetic without ftc_: usage" 2 "$FTC" probe add 's:wakeup_lat u64 lat'
expect_match "synthetic without ftc_: the name to give" \
	"'wakeup_lat': ftc's names begin with ftc_ \(s:ftc_wakeup_lat \.\.\.\)" "$(cat "$OUT/last.err")"
expect_status "del of a synthetic event not there: exit 1" 1 "$FTC" probe del 'synthetic:ftc_nosuch'
expect_status "synthetic without a field: usage" 2 "$FTC" probe add 's:ftc_lat'
expect_status "synthetic field without a name: usage" 2 "$FTC" probe add 's:ftc_lat u64'
expect_status "synthetic bad type: usage" 2 "$FTC" probe add 's:ftc_lat u6$ lat'

# add keeps, with unique names; list; del
a1=$("$FTC" probe add -x "$T" greet count 2>&1)
a2=$("$FTC" probe add "$T:greet" 2>&1)
if [ "$a1" = ftc:greet ] && [ "$a2" = ftc:greet_1 ]; then pass "add: unique names from the spec ($a1 $a2)"
else fail "add: unique names from the spec" "$a1 / $a2"; fi
l=$("$FTC" probe list)
expect_match "list shows the kept probes" "^ftc:greet_1	p:ftc/greet_1 $T:0x" "$l"
expect "del by glob" "$FTC" probe del 'greet*'
expect_nomatch "del removed them" '^.:ftc/' "$(cat "$TRACEFS/uprobe_events")"
expect_status "del of nothing: exit 1" 1 "$FTC" probe del greet

# add is all or nothing
expect_status "add with a bad second spec fails" 1 "$FTC" probe add -x "$T" 'greet count' 'nosuch x'
expect_nomatch "and leaves no probe" '^.:ftc/' "$(cat "$TRACEFS/uprobe_events")"

# SIGKILL: the guardian removes the probe record made
"$FTC" record -B "$INST" -o "$D/k.dat" --probe "$T:weigh factor" -- sleep 30 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 50); do grep -q '^p:ftc/weigh' "$TRACEFS/uprobe_events" && break; sleep 0.1; done
sleep 0.5
kids=$(pgrep -P $pid)
kill -KILL $pid; wait $pid 2>/dev/null
for _ in $(seq 50); do grep -q '^.:ftc/' "$TRACEFS/uprobe_events" || break; sleep 0.1; done
expect_nomatch "SIGKILL: the guardian removed the probe" '^.:ftc/' "$(cat "$TRACEFS/uprobe_events")"
[ -n "$kids" ] && kill $kids 2>/dev/null

# ftc and its guardian both killed: the probe stays in the journal, and
# ftc reset --journal removes it (a private journal folder: only ours)
export FTC_JOURNAL_DIR=$D/j
setsid "$FTC" record -B "$INST" -o "$D/o.dat" --probe "$T:weigh factor" -- sleep 30 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 50); do grep -q '^p:ftc/weigh' "$TRACEFS/uprobe_events" && break; sleep 0.1; done
sleep 0.5
# the guardian is out of the group (setsid): killed by its pid, first
kill -KILL $(pgrep -P $pid -x ftc-guardian) 2>/dev/null
kill -KILL -- -$pid; wait $pid 2>/dev/null
sleep 0.2
expect_match "both killed: the probe is left" '^p:ftc/weigh ' "$(cat "$TRACEFS/uprobe_events")"
expect_status "ftc reset --journal" 0 "$FTC" reset --journal
expect_nomatch "ftc reset --journal removed the probe" '^.:ftc/' "$(cat "$TRACEFS/uprobe_events")"
unset FTC_JOURNAL_DIR

# ftc start keeps its probe, enabled; del refuses an enabled one until -B
INST2=$(test_instance probe2)
expect_status "start --probe" 0 "$FTC" start -B "$INST2" --probe "$T:weigh factor"
expect_match "start kept the probe" '^p:ftc/weigh ' "$(cat "$TRACEFS/uprobe_events")"
expect_match "start enabled it in its instance" '^1$' "$(cat "$TRACEFS/instances/$INST2/events/ftc/weigh/enable" 2>&1)"
"$FTC" probe del weigh >/dev/null 2>"$D/del.err"
st=$?
if [ $st != 0 ] && grep -q 'enabled' "$D/del.err"; then pass "del of an enabled probe is refused, saying why"
else fail "del of an enabled probe is refused, saying why" "exit $st: $(cat "$D/del.err")"; fi
expect "del -B disables it there, then removes it" "$FTC" probe del -B "$INST2" weigh
expect "reset -d removes start's instance" "$FTC" reset -q -d -B "$INST2"
expect_nomatch "nothing of ours is left" '^.:ftc/' "$(cat "$TRACEFS/uprobe_events")"

# fprobes (f:FUNC): where `ftc check` says absent, add exits 3 saying why and
# writes nothing; where it says ok (6.12 in the lab: tests/lab/fprobe.sh).
if "$FTC" check fprobes 2>/dev/null | grep -q '^fprobes *ok'; then
	skip "fprobe refusal" "this kernel takes fprobes (tests/lab/fprobe.sh tests them)"
else
	expect_status "an fprobe where the kernel has none: exit 3" 3 "$FTC" probe add 'f:vfs_read count'
	expect_match "... saying why and what to use instead" 'has no fprobes .*use a kprobe' \
		"$(cat "$OUT/last.err")"
	expect_nomatch "... and nothing is written" '^f:ftc/' "$(cat "$TRACEFS/dynamic_events")"
fi
expect_status "an fprobe with an offset: exit 2" 2 "$FTC" probe add 'f:vfs_read+4'
knobs_unchanged "probe"
finish
