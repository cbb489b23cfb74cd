# SPDX-License-Identifier: GPL-2.0-or-later
# A user records a flood into a buffer far too small for it (issue 19):
# the load counts its own getppid calls on each CPU, so the true loss is
# known, 2 x calls - records per CPU. Every figure ftc gives must be that
# number: the record summary, the markers in the text and JSON reports
# (one where the loss happened), report --stat's lost column, the
# kernel's overrun in the file (a fresh instance: same count), and
# ftc stream's markers and summary. trace-cmd must still read the file.
# Not timed: the recorder is stopped a moment (SIGSTOP) so that it loses
# whatever its speed; how much depends on the load, that all figures agree
# does not.
. "$(dirname "$0")/../lib.sh"

I=ftc-lost-$$-rec
S=ftc-lost-$$-stream
D=$(mktemp -d /tmp/ftc-lost.XXXXXX)
cleanup() {
	for i in "$I" "$S"; do
		[ -d "$TRACEFS/instances/$i" ] && "$FTC" reset -q -B "$i" -d >/dev/null 2>&1
	done
	if [ -n "${KEEP:-}" ]; then echo "# kept $D"; else rm -rf "$D"; fi
}
trap cleanup EXIT
# Only the load's events (-F would miss its threads): a filter on its name.
F='comm == "ftclostgen"'
EV=(-e syscalls:sys_enter_getppid -f "$F" -e syscalls:sys_exit_getppid -f "$F")
NCPU=2
[ "$(nproc)" -ge 2 ] || NCPU=1
setup "build the counting load" cc -O2 -o "$D/ftclostgen" "$TOP/tests/fixtures/getppid-cpus.c" \
	-lpthread || finish

# truth FILE: "lost0 lost1 ..." from the load's output FILE and records R0 R1 ...
truth() {
	local out=$1; shift
	for c in $(seq 0 $((NCPU - 1))); do
		calls=$(awk -v c="$c" '$1 == "cpu" && $2 == c { print $4 }' "$out")
		echo -n "$(( 2 * calls - $1 )) "; shift
	done
}

# pause PID: stops the recorder a moment while the load runs, so that the
# buffer overflows whatever the recorder's speed (its readers are real-time).
# It waits for the load to run (an ASan build starts slowly).
pause() {
	for k in $(seq 50); do pgrep -x ftclostgen >/dev/null && break; sleep 0.1; done
	sleep 0.2; kill -STOP "$1"; sleep 0.3; kill -CONT "$1"
}

# 1. ftc record into a one-page buffer per CPU: it must lose.
"$FTC" record -B "$I" -b 4 "${EV[@]}" -o "$D/r.dat" -- "$D/ftclostgen" 1.2 $NCPU \
	>"$D/gen.out" 2>"$D/rec.err" &
pid=$!
pause $pid
wait $pid
rc=$?
[ $rc = 0 ] || { fail "record -b 4 of the flood" "exit $rc: $(tail -2 "$D/rec.err")"; finish; }
"$FTC" report --stat "$D/r.dat" >"$D/stat" 2>&1
recs="" stat_lost="" marks="" overrun=""
for c in $(seq 0 $((NCPU - 1))); do
	line=$(awk -v i="$I" -v c="$c" '$1 == i && $2 == c' "$D/stat")
	set -- $line
	recs="$recs$3 " stat_lost="$stat_lost$4 " marks="$marks$5 " overrun="$overrun$7 "
done
want=$(truth "$D/gen.out" $recs)
echo "# calls: $(awk '{ printf "%s ", $4 }' "$D/gen.out"); records: $recs; true loss: $want"
case " $want " in
*" 0 "*) fail "a stopped recorder loses events on every CPU" "true loss: $want"; finish ;;
esac
[ "$stat_lost" = "$want" ] && pass "report --stat: lost per CPU is 2 x calls - records ($want)" ||
	fail "report --stat: lost per CPU" "says $stat_lost, true $want"
said=$(sed -n 's/^ftc record: [0-9]* events, [0-9]* lost (per CPU: \([0-9/]*\)).*/\1/p' "$D/rec.err" | tr / ' ')
[ "$said " = "$want" ] && pass "record summary: lost per CPU is the true loss ($said)" ||
	fail "record summary: lost per CPU" "says '$said', true $want: $(grep lost "$D/rec.err" | head -1)"
[ "$overrun" = "$want" ] && pass "the file's overrun (a fresh instance) is the true loss ($overrun)" ||
	fail "the file's overrun" "says $overrun, true $want"
for c in $(seq 0 $((NCPU - 1))); do
	n=$(echo $marks | cut -d' ' -f$((c + 1)))
	[ "$n" -gt 0 ] || fail "report --stat: CPU $c has markers" "none, lost $(echo $want | cut -d' ' -f$((c + 1)))"
done

# 2. The markers, where it happened: text and JSON, sums per CPU.
"$FTC" report "$D/r.dat" >"$D/r.txt" 2>"$D/r.err"
"$FTC" report --json "$D/r.dat" >"$D/r.json" 2>>"$D/r.err"
txt="" json="" unknown=0
for c in $(seq 0 $((NCPU - 1))); do
	txt="$txt$(awk -v p="$I: CPU $c: [[]LOST " 'index($0, "CPU " '"$c"' ": [LOST") && $0 ~ "^" p { s += $5 } END { print s + 0 }' "$D/r.txt") "
	json="$json$(grep '"type":"lost"' "$D/r.json" | grep "\"cpu\":$c," |
		sed -n 's/.*"count":\([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }') "
done
unknown=$(grep -c '\[LOST EVENTS\]' "$D/r.txt")
[ "$txt" = "$want" ] && pass "text markers 'CPU N: [LOST M EVENTS]' add up to the loss ($txt; $unknown without a count)" ||
	fail "text markers add up to the loss" "sum $txt, true $want; $(grep -m3 LOST "$D/r.txt")"
[ "$json" = "$want" ] && pass "JSON lost records add up to the loss ($json)" ||
	fail "JSON lost records add up to the loss" "sum $json, true $want"
# A marker stands right before a record of its CPU, at the place of the gap.
bad=$(awk -v i="$I" '
	/\[LOST/ { split($0, a, "CPU "); split(a[2], b, ":"); want = b[1]; next }
	want != "" { if (match($0, /\[0*[0-9]+\]/)) { c = substr($0, RSTART + 1, RLENGTH - 2) + 0;
		if (c != want + 0) n++ } want = "" }
	END { print n + 0 }' "$D/r.txt")
[ "$bad" = 0 ] && pass "each marker comes right before a record of its own CPU" ||
	fail "each marker comes right before a record of its own CPU" "$bad do not"

# 3. trace-cmd reads the file with ftc's option in it, every record.
if command -v trace-cmd >/dev/null; then
	tc=$(trace-cmd report "$D/r.dat" 2>"$D/tc.err" | grep -c ': sys_e[a-z]*_getppid:')
	all=$(echo $recs | tr ' ' + | bc)
	[ "$tc" = "$all" ] && pass "trace-cmd report reads every record of the file ($tc)" ||
		fail "trace-cmd report reads the file" "$tc records of $all: $(head -2 "$D/tc.err")"
else
	skip "trace-cmd report reads the file" "trace-cmd is not installed"
fi

# 4. ftc stream: the markers and the summary give the same loss as the load.
# (the load's own output apart: it would land in the middle of a line)
"$FTC" stream -B "$S" -b 4 "${EV[@]}" -- sh -c "'$D/ftclostgen' 1.2 $NCPU >'$D/s.gen'" \
	>"$D/s.out" 2>"$D/s.err" &
pid=$!
pause $pid
wait $pid
srecs="" smarks=""
for c in $(seq 0 $((NCPU - 1))); do
	srecs="$srecs$(grep -c "\[00$c\] .*: sys_e[a-z]*_getppid:" "$D/s.out") "
	smarks="$smarks$(awk 'index($0, "CPU '"$c"': [LOST ") == 1 { s += $4 } END { print s + 0 }' "$D/s.out") "
done
swant=$(truth "$D/s.gen" $srecs)
ssum=$(sed -n 's/^ftc stream: .* \([0-9]*\) lost$/\1/p' "$D/s.err")
case " $swant " in *" 0 "*) fail "a stopped ftc stream loses events on every CPU" "true loss: $swant" ;; esac
[ "$smarks" = "$swant" ] && pass "stream markers add up to the loss per CPU ($smarks)" ||
	fail "stream markers add up to the loss" "sum $smarks, true $swant"
[ "$ssum" = "$(( $(echo $swant | tr ' ' +) ))" ] && pass "stream summary: lost is the true loss ($ssum)" ||
	fail "stream summary: lost" "says '$ssum', true $swant: $(tail -2 "$D/s.err")"
finish
