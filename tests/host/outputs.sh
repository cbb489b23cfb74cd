#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What ftc writes (ftc(1), EXIT STATUS and OUTPUT FILES):
# - a write that fails (/dev/full, ulimit -f with SIGXFSZ default or
#   ignored) ends every output mode with "ftc NAME: standard output: REASON"
#   (or the file's name) and exit 1, never 0;
# - a closed pipe ends report quietly by SIGPIPE, also when SIGPIPE was
#   ignored, with or without --jobs helpers;
# - report - / dump - refuse what does not start with the trace.dat magic
#   before reading more of it, copy a pipe into $TMPDIR (not memory), print
#   what a file read prints, and call it "standard input";
# - every command that writes a file keeps a previous one as FILE.old and
#   says so, writes a device as it is, and takes "-o -" as standard output
#   for text and refuses it (exit 2) for a trace.dat.
. "$(dirname "$0")/../lib.sh"

I=$(test_instance outputs)
D=$(mktemp -d /tmp/ftc-outputs.XXXXXX)
cleanup() {
	[ -d "$TRACEFS/instances/$I" ] && "$FTC" reset -q -B "$I" -d >/dev/null 2>&1
	rm -rf "$D"
}
trap cleanup EXIT
cd "$D" || exit 1
F=$D/t.dat
S=$D/s.dat
knobs_save
# About 100 K records (over 4 MB of text: more than stdio's buffer, several
# --jobs stretches), and a capture with perf samples for the profile modes.
if ! "$FTC" record -q -B "$I" -e sched -e syscalls -o "$F" -- \
	sh -c 'ls -lR /usr/include >/dev/null 2>&1' >rec.out 2>&1 ||
   ! "$FTC" record -q -B "$I" --sample cpu-clock -e sched:sched_switch -o "$S" -- \
	sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done' >>rec.out 2>&1; then
	fail "setup: record" "$(tail -3 rec.out)"
	finish
fi
[ "$("$FTC" report "$F" | wc -c)" -gt 2000000 ] ||
	fail "setup: a report of over 2 MB" "$("$FTC" report "$F" | wc -c) bytes"

# full NAME WANT ARGS...: ftc ARGS > /dev/full exits 1 and names standard output.
full() {
	local name=$1 want=$2
	shift 2
	"$FTC" "$@" >/dev/full 2>full.err
	local st=$?
	if [ $st = 1 ] && grep -Eq "^ftc( [a-z-]+)?: $want: No space left on device$" full.err; then
		pass "$name > /dev/full: exit 1, '$want: No space left on device'"
	else
		fail "$name > /dev/full" "exit $st: $(head -3 full.err)"
	fi
}
full "report" "standard output" report "$F"
full "report --json" "standard output" report --json "$F"
full "report --stat" "standard output" report --stat "$F"
full "report --jobs 3" "standard output" report --jobs 3 "$F"
full "report --last 10" "standard output" report --last 10 "$F"
full "report --first 10" "standard output" report --first 10 "$F"
full "report -e (endianness)" "standard output" report -e "$F"
full "report --sample-profile" "standard output" report --sample-profile "$S"
full "report --folded" "standard output" report --folded "$S"
full "report --flamegraph -" "standard output" report --flamegraph - "$S"
full "report --timeline -" "standard output" report --timeline - "$F"
full "report - < file" "standard output" report - <"$F"
full "dump" "standard output" dump "$F"
full "dump --options" "standard output" dump --options "$F"
full "list -e" "standard output" list -e
full "show trace_clock" "standard output" show trace_clock
full "report --help" "standard output" report --help
full "ftc --help" "standard output" --help
full "stream" "standard output" stream -B "$I" -e sched:sched_switch -- \
	sh -c 'ls -R /usr/include >/dev/null'
full "profile -o -" "standard output" profile -o - -- true
full "stat -o -" "standard output" stat -o - -e task-clock -- true
"$FTC" stat -o /dev/full -e task-clock -- true 2>full.err; st=$?
[ $st = 1 ] && grep -q "^ftc stat: /dev/full: No space left on device" full.err &&
	pass "stat -o /dev/full: exit 1, names the file" ||
	fail "stat -o /dev/full" "exit $st: $(head -3 full.err)"
"$FTC" report --flamegraph /dev/full "$S" 2>full.err; st=$?
[ $st = 1 ] && grep -q "/dev/full: .*No space left on device" full.err &&
	pass "report --flamegraph /dev/full: exit 1, names the file" ||
	fail "report --flamegraph /dev/full" "exit $st: $(head -3 full.err)"
# the timeline's page goes through a temporary file, but a device is written as it is
"$FTC" report --timeline /dev/full "$F" 2>full.err; st=$?
[ $st = 1 ] && [ -c /dev/full ] && grep -q "/dev/full: .*No space left on device" full.err &&
	pass "report --timeline /dev/full: exit 1, names the file, the device left alone" ||
	fail "report --timeline /dev/full" "exit $st: $(head -3 full.err)"
# A trace.dat into a device: refused, and the device is never removed (convert,
# import and split removed their failed output, /dev/null included). A private
# node: never the system's /dev/null or /dev/full.
if mknod -m 666 "$D/full" c 1 7 2>/dev/null; then
	for args in "convert $F $D/full" "import -q -o $D/full $TOP/tests/fixtures/import/frozen.log" \
		    "record -q -B $I -e sched:sched_switch -o $D/full -- true"; do
		# shellcheck disable=SC2086
		"$FTC" $args 2>full.err; st=$?
		[ $st = 1 ] && [ -c "$D/full" ] && grep -q "full: not a regular file" full.err &&
			pass "${args%% *} into a device: refused (exit 1), the device left alone" ||
			fail "${args%% *} into a device" "exit $st, $(ls -l "$D/full" 2>&1): $(head -2 full.err)"
	done
else
	skip "a trace.dat into a device" "mknod is not allowed here"
fi

# --- ulimit -f: the signal's default (ftc turns it into EFBIG) and ignored
for how in default ignored; do
	for mode in "" --json "--jobs 3"; do
		rm -f cut.txt
		(
			ulimit -f 100
			[ $how = ignored ] && trap '' XFSZ
			# shellcheck disable=SC2086
			exec "$FTC" report $mode "$F" >cut.txt 2>cut.err
		)
		st=$?
		size=$(stat -c %s cut.txt)
		if [ $st = 1 ] && grep -q "^ftc report: standard output: File too large$" cut.err &&
		   [ "$size" = 102400 ]; then
			pass "ulimit -f 100 ($how SIGXFSZ), report $mode: exit 1, 'File too large'"
		else
			fail "ulimit -f 100 ($how SIGXFSZ), report $mode" \
				"exit $st, $size bytes: $(head -2 cut.err)"
		fi
	done
done
(ulimit -f 50; exec "$FTC" record -q -B "$I" -e sched -e syscalls -o "$D/u.dat" -- \
	sh -c 'ls -lR /usr/include >/dev/null 2>&1') 2>cut.err
st=$?
[ $st = 1 ] && grep -q "u.dat: .*File too large" cut.err &&
	pass "ulimit -f 50: record ends with exit 1 and 'File too large', not SIGXFSZ" ||
	fail "ulimit -f 50: record" "exit $st: $(head -2 cut.err)"
[ -d "$TRACEFS/instances/$I" ] &&
	fail "ulimit -f 50: record removes its instance" "$I is still there"

# --- a closed pipe: quiet, by SIGPIPE, also when SIGPIPE is ignored
for how in default ignored; do
	for mode in "" "--jobs 3"; do
		out=$(
			[ $how = ignored ] && trap '' PIPE
			# shellcheck disable=SC2086
			"$FTC" report $mode "$F" 2>pipe.err | head -1 >/dev/null
			echo "${PIPESTATUS[0]}"
		)
		if [ "$out" = 141 ] && [ ! -s pipe.err ]; then
			pass "report $mode | head ($how SIGPIPE): quiet, by SIGPIPE"
		else
			fail "report $mode | head ($how SIGPIPE)" "status $out: $(head -2 pipe.err)"
		fi
	done
done
out=$(
	trap '' PIPE
	"$FTC" stream -B "$I" -e sched:sched_switch -- \
		sh -c 'for i in 1 2 3 4 5; do ls -R /usr/include >/dev/null; done' 2>pipe.err | head -1 >/dev/null
	echo "${PIPESTATUS[0]}"
)
[ "$out" = 0 ] && ! grep -q "standard output" pipe.err &&
	pass "stream | head (ignored SIGPIPE): exit 0, as ftc(1) says" ||
	fail "stream | head (ignored SIGPIPE): exit 0" "status $out: $(head -2 pipe.err)"
sleep 0.5
left=$(pgrep -f "^$FTC report --jobs 3 $F" | head -3)
[ -z "$left" ] && pass "report --jobs 3 | head: no helper left" ||
	fail "report --jobs 3 | head: no helper left" "pids $left"

# --- report - and dump -
for cmd in report dump; do
	# refused at once: a few seconds are plenty, and bound what a copy of it would take
	out=$(timeout ${ZERO_SECS:-3} "$FTC" $cmd - </dev/zero 2>&1); st=$?
	[ $st = 1 ] && expect_match "$cmd - < /dev/zero: exit 1 at once, names standard input" \
		'^ftc '$cmd': standard input: not a trace.dat file' "$out" ||
		fail "$cmd - < /dev/zero" "exit $st: $out"
done
# From a pipe: refused after the magic's 10 bytes, the rest left unread.
rest=$(head -c 50000000 /dev/zero | { "$FTC" report - 2>/dev/null; wc -c; })
[ "$rest" -ge 49000000 ] &&
	pass "report - from a pipe of zeros: refused before reading on ($rest bytes left)" ||
	fail "report - from a pipe of zeros: refused before reading on" "only $rest bytes left"
# Against the same refusal of 10 bytes, so that the binary's own size (an
# ASan build is 20 MB at rest) is not what is measured: 200 MB held would
# show as 200 MB more.
/usr/bin/time -v -o time0.txt sh -c "head -c 10 /dev/zero | '$FTC' report - 2>/dev/null"
/usr/bin/time -v -o time.txt sh -c "head -c 200000000 /dev/zero | '$FTC' report - 2>/dev/null"
rss0=$(awk -F: '/Maximum resident/ { print $2 + 0 }' time0.txt)
rss=$(awk -F: '/Maximum resident/ { print $2 + 0 }' time.txt)
[ "${rss:-999999}" -lt $((${rss0:-0} + 4000)) ] &&
	pass "200 MB of zeros | report -: max RSS $rss KB, as for 10 bytes ($rss0 KB; < 4 MB more)" ||
	fail "200 MB of zeros | report -: max RSS as for 10 bytes" "$rss KB, 10 bytes: $rss0 KB"
printf 'hello\n' | "$FTC" dump - 2>dump.err; st=$?
[ $st = 1 ] && grep -q "standard input: not a trace.dat file" dump.err &&
	pass "dump - of text: exit 1, not a trace.dat" || fail "dump - of text" "exit $st: $(cat dump.err)"
"$FTC" report "$F" >want.txt
"$FTC" report - <"$F" >got1.txt && cmp -s want.txt got1.txt &&
	pass "report - < t.dat prints what report t.dat prints" ||
	fail "report - < t.dat prints what report t.dat prints" "$(cmp want.txt got1.txt 2>&1)"
cat "$F" | "$FTC" report - >got2.txt && cmp -s want.txt got2.txt &&
	pass "cat t.dat | report - prints what report t.dat prints" ||
	fail "cat t.dat | report - prints what report t.dat prints" "$(cmp want.txt got2.txt 2>&1)"
/usr/bin/time -v -o time1.txt "$FTC" report "$F" >/dev/null
cat "$F" | /usr/bin/time -v -o time2.txt "$FTC" report - >/dev/null
r1=$(awk -F: '/Maximum resident/ { print $2 + 0 }' time1.txt)
r2=$(awk -F: '/Maximum resident/ { print $2 + 0 }' time2.txt)
[ "$r2" -le $((r1 + 4096)) ] &&
	pass "cat t.dat | report -: max RSS $r2 KB, as a file read ($r1 KB)" ||
	fail "cat t.dat | report -: max RSS as a file read" "$r2 KB, a file read $r1 KB"
out=$(cat "$F" | TMPDIR=$D/none "$FTC" report - 2>&1 >/dev/null); st=$?
[ $st = 1 ] && expect_match "report - copies a pipe into \$TMPDIR, on disk" \
	"standard input: cannot make a temporary file in $D/none" "$out" ||
	fail "report - copies a pipe into \$TMPDIR" "exit $st: $out"
head -c 100000 "$F" | "$FTC" report - >/dev/null 2>cut.err
head -c 100000 "$F" | "$FTC" dump - >/dev/null 2>>cut.err
expect_match "a cut file on standard input: messages say 'standard input'" \
	'^ftc report: standard input: ' "$(cat cut.err)"
expect_nomatch "a cut file on standard input: no /proc/self/fd path" '/proc/self' "$(cat cut.err)"

# --- FILE.old: keep_old NAME FILE COMMAND...: run twice; the second keeps the first
keep_old() {
	local name=$1 file=$2
	shift 2
	rm -f "$file" "$file.old"
	"$@" >/dev/null 2>k1.err || { fail "$name: first run" "$(tail -2 k1.err)"; return; }
	[ -s "$file" ] || { fail "$name: first run writes $file" "$(tail -2 k1.err)"; return; }
	cp "$file" first.copy
	"$@" >/dev/null 2>k2.err || { fail "$name: second run" "$(tail -2 k2.err)"; return; }
	if cmp -s first.copy "$file.old" && [ -s "$file" ] &&
	   grep -q "kept the previous $file as $file.old" k2.err; then
		pass "$name: a previous $file is kept as $file.old, and said"
	else
		fail "$name: previous $file kept as $file.old" "$(ls "$file"* 2>&1 | tr '\n' ' ') $(tail -2 k2.err)"
	fi
}
L=$TOP/tests/fixtures/import/frozen.log
keep_old "record -o" r.dat "$FTC" record -q -B "$I" -e sched:sched_switch -o r.dat -- true
keep_old "convert" c.dat "$FTC" convert "$F" c.dat
keep_old "import (default trace.dat)" trace.dat "$FTC" import -q "$L"
keep_old "split" p.1 "$FTC" split -i "$F" -o p
keep_old "stat -o" st.txt "$FTC" stat -o st.txt -e task-clock -- true
keep_old "profile -o" pr.txt "$FTC" profile -o pr.txt -- true
keep_old "report --flamegraph" fg.svg "$FTC" report --flamegraph fg.svg "$S"
keep_old "report --timeline" tl.html "$FTC" report --timeline tl.html "$F"
keep_old "profile --flamegraph" pf.svg "$FTC" profile --flamegraph pf.svg -- true
keep_old "stream --record" sr.dat timeout -s INT 30 "$FTC" stream -B "$I" -e sched:sched_switch \
	--record sr.dat -- sh -c 'sleep 0.3'
if "$FTC" start -B "$I" -e sched:sched_switch >/dev/null 2>&1; then
	sleep 0.2
	keep_old "extract -o" x.dat "$FTC" extract -q -B "$I" -o x.dat
	"$FTC" reset -q -B "$I" -d >/dev/null 2>&1
else
	fail "setup: start -B $I" "cannot start the instance for extract"
fi
# listen: a file already named for the peer (its source port chosen ahead) is kept.
mkdir -p ldir
"$FTC" listen -p 0 --bind 127.0.0.1 -d ldir --once >listen.port 2>listen.log & lpid=$!
for _ in $(seq 1 50); do
	port=$(awk '/^listening on/ { print $5 }' listen.port 2>/dev/null)
	[ -n "$port" ] && break
	sleep 0.1
done
if [ -n "$port" ]; then
	python3 - "$port" <<'PY'
import socket, struct, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
with open("ldir/trace.127.0.0.1:%d.dat" % s.getsockname()[1], "w") as f:
    f.write("a previous capture\n")
s.connect(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"ftcstrm1" + struct.pack("<II", 1, 0))
s.close()
PY
	timeout 10 tail --pid=$lpid -f /dev/null
	old=$(ls ldir/*.dat.old 2>/dev/null | head -1)
	[ -n "$old" ] && [ "$(cat "$old")" = "a previous capture" ] &&
		grep -q "kept the previous ldir/trace.127.0.0.1:.*\.dat as .*\.dat\.old" listen.log &&
		pass "listen: a previous file of the peer's name is kept as .old, and said" ||
		fail "listen: a previous file kept as .old" "$(ls ldir) $(tail -3 listen.log)"
else
	fail "setup: listen" "no port printed: $(cat listen.log)"
fi
kill $lpid 2>/dev/null
cp "$F" self.dat
"$FTC" convert self.dat self.dat 2>self.err; st=$?
[ $st = 1 ] && cmp -s self.dat "$F" && [ ! -e self.dat.old ] && grep -q "is the file being read" self.err &&
	pass "convert FILE FILE: refused before anything is kept or written" ||
	fail "convert FILE FILE: refused" "exit $st: $(ls self.dat* | tr '\n' ' ') $(tail -2 self.err)"
: >empty.dat
"$FTC" convert "$F" empty.dat 2>empty.err
[ ! -e empty.dat.old ] && ! grep -q kept empty.err &&
	pass "an empty output file is replaced without a .old" ||
	fail "an empty output file is replaced without a .old" "$(cat empty.err)"
mkfifo fifo.dat
cat fifo.dat >fifo.out & cat_pid=$!
"$FTC" stat -o fifo.dat -e task-clock -- true 2>fifo.err
wait $cat_pid
[ -p fifo.dat ] && [ ! -e fifo.dat.old ] && grep -q "task-clock" fifo.out &&
	pass "a fifo is written as it is, not renamed" ||
	fail "a fifo is written as it is" "$(ls -l fifo.dat* 2>&1) $(cat fifo.err)"
"$FTC" stat -o /dev/null -e task-clock -- true 2>null.err && [ -c /dev/null ] &&
	! grep -q kept null.err &&
	pass "/dev/null is written as it is" || fail "/dev/null is written as it is" "$(cat null.err)"
rm -f p.*
# four parts, then one: parts 2 to 4 and their .old stay as they were
e=$(( $("$FTC" report --stat "$F" | awk '/^records:/ { print $2 }') / 4 + 1 ))
"$FTC" split -i "$F" -o p -r -e $e 2>/dev/null
n1=$(ls p.0* | wc -l)
"$FTC" split -i "$F" -o p -r -e $e 2>/dev/null
"$FTC" split -i "$F" -o p -r -e 1000000000 2>split.err
[ "$n1" -ge 3 ] && [ -e p.0002.old ] && [ -e p.0002 ] && [ -e p.0003.old ] &&
	! grep -q "p.0002" split.err &&
	pass "split: a part no new part replaces, and its .old, are left alone" ||
	fail "split: parts not replaced are left alone" "$(ls p.* | tr '\n' ' ') $(cat split.err)"

# --- -o -
for args in "record -B $I -e sched:sched_switch -o - -- true" "convert $F -o -" "convert $F -" \
	    "import -o - $L" "split -i $F -o -" "extract -B $I -o -" \
	    "stream -B $I --record - -- true"; do
	# shellcheck disable=SC2086
	"$FTC" $args >dash.out 2>dash.err; st=$?
	if [ $st = 2 ] && grep -q "a trace.dat cannot be written to standard output" dash.err &&
	   [ ! -e -  ] && [ ! -s dash.out ]; then
		pass "${args%% *} ... -: refused (exit 2), says why"
	else
		fail "${args%% *} ... -: refused" "exit $st: $(head -2 dash.err)"
	fi
	rm -f ./-
done
out=$("$FTC" stat -o - -e task-clock -- true 2>/dev/null)
expect_match "stat -o -: the counts on standard output" "task-clock" "$out"
out=$("$FTC" report --flamegraph - "$S" 2>/dev/null | head -c 200)
expect_match "report --flamegraph -: the SVG on standard output" "<svg" "$out"
out=$("$FTC" report --timeline - "$F" 2>/dev/null | head -c 200)
expect_match "report --timeline -: the page on standard output" "<!DOCTYPE html>" "$out"
[ ! -e ./- ] && pass "no file named '-' was made" || fail "no file named '-' was made" "$(ls -l ./-)"

knobs_unchanged "outputs"
finish
