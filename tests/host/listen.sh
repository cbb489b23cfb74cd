#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Off-board capture over loopback (127.0.0.1 only): `ftc record -N` streams
# to `ftc listen`, which writes the trace.dat a local capture would have.
# Checked: the same markers, formats and loss figures as a local capture
# of the same kind, trace-cmd reads it, the recorder keeps no file, a cut
# connection ends the capture with an error and leaves a readable file,
# and hostile input is refused without harm (tests/host/listen-send.py).
. "$(dirname "$0")/../lib.sh"

D=$(mktemp -d /tmp/ftc-listen.XXXXXX)
SEND="python3 $TOP/tests/host/listen-send.py"
INSTS="" LPID=""
cleanup() {
	[ -n "$LPID" ] && kill "$LPID" 2>/dev/null && wait "$LPID" 2>/dev/null
	# shellcheck disable=SC2086
	instances_remove $INSTS
	[ -n "$KEEP" ] || rm -rf "$D"
}
trap cleanup EXIT
have_tc=1
command -v trace-cmd >/dev/null || have_tc=0

# start_listen DIR [OPTIONS]: ftc listen on a free loopback port -> $PORT, $LPID.
start_listen() {
	local dir=$1
	shift
	mkdir -p "$dir"
	"$FTC" listen -p 0 --bind "${BIND:-127.0.0.1}" -d "$dir" "$@" >"$dir.port" 2>"$dir.log" & LPID=$!
	for _ in $(seq 1 50); do
		PORT=$(awk '/^listening on/ { print $5 }' "$dir.port" 2>/dev/null)
		[ -n "$PORT" ] && return 0
		sleep 0.1
	done
	fail "setup: listen" "no port printed: $(cat "$dir.log")"
	return 1
}

# wait_listen: the --once listener's exit status.
wait_listen() { wait "$LPID"; local st=$?; LPID=""; return $st; }

# markers INST N: N numbered markers into an instance, as the traced command.
MARK='for i in $(seq 1 '"\$2"'); do echo "listen-mark-$i" > '"$TRACEFS"'/instances/$1/trace_marker; done'
markers() { sh -c "$MARK" markers "$@"; }

# print_lines FILE: the markers a report shows, in order.
print_lines() { "$FTC" report -i "$1" 2>/dev/null | grep -o 'listen-mark-[0-9]*'; }

# --- a capture over the network and the same capture on disk -----------
inst=ftc-listen-$$-a
INSTS="$INSTS $inst"
mkdir -p "$D/rec"
if start_listen "$D/net" --once; then
	( cd "$D/rec" && "$FTC" record -B "$inst" -e sched -N "127.0.0.1:$PORT" -- \
		sh -c "$MARK" markers "$inst" 300 ) >"$D/net.rec" 2>&1
	st=$?
	wait_listen; lst=$?
	[ $st = 0 ] && [ $lst = 0 ] && pass "record -N and listen --once exit 0" ||
		fail "record -N and listen --once exit 0" "record $st, listen $lst: $(tail -3 "$D/net.rec" "$D/net.log")"
	net=$(ls "$D"/net/trace.127.0.0.1:*.dat 2>/dev/null | head -1)
	[ -n "$net" ] && pass "listen names the file trace.HOST:PORT.dat" ||
		fail "listen names the file trace.HOST:PORT.dat" "$(ls "$D/net")"
	[ -z "$(ls -A "$D/rec")" ] && pass "the recorder keeps no file" ||
		fail "the recorder keeps no file" "$(ls -A "$D/rec")"
	"$FTC" record -B "$inst" -e sched -o "$D/local.dat" -- \
		sh -c "$MARK" markers "$inst" 300 >"$D/local.rec" 2>&1
	if [ -n "$net" ]; then
		a=$(print_lines "$net"); b=$(print_lines "$D/local.dat")
		[ "$a" = "$b" ] && [ "$(echo "$a" | wc -l)" = 300 ] &&
			pass "the streamed file holds the same 300 markers as a local capture" ||
			fail "the streamed file holds the same 300 markers as a local capture" \
				"$(echo "$a" | wc -l) vs $(echo "$b" | wc -l)"
		# The file's own description: version, compression, clock, CPUs, instances.
		hdr() { "$FTC" report -i "$1" --stat | sed -n '/^version:/,/^records:/p' | grep -v '^records:'; }
		a=$(hdr "$net"); b=$(hdr "$D/local.dat")
		[ -n "$a" ] && [ "$a" = "$b" ] && pass "report --stat describes both files alike" ||
			fail "report --stat describes both files alike" "$(diff <(echo "$a") <(echo "$b") | head -5)"
		# The loss the recorder printed is what the file's stats say.
		lost_rec=$(grep -o '[0-9]* lost' "$D/net.rec" | awk '{ print $1 }')
		lost_file=$("$FTC" report -i "$net" --stat | awk '/^instance +cpu/ { t = 1; next }
			t && NF >= 4 { s += $4 } END { print s + 0 }')
		[ -n "$lost_rec" ] && [ "$lost_rec" = "$lost_file" ] &&
			pass "loss printed by record -N ($lost_rec) = the file's CPU stats" ||
			fail "loss printed by record -N = the file's CPU stats" "'$lost_rec' vs '$lost_file'"
		expect_match "record -N names where the trace went" "in 127\.0\.0\.1:$PORT" "$(cat "$D/net.rec")"
		if [ $have_tc = 1 ]; then
			a=$(trace-cmd report -i "$net" 2>/dev/null | grep -o 'listen-mark-[0-9]*')
			b=$(trace-cmd report -i "$D/local.dat" 2>/dev/null | grep -o 'listen-mark-[0-9]*')
			[ "$(echo "$a" | wc -l)" = 300 ] && [ "$a" = "$b" ] &&
				pass "trace-cmd report reads the streamed file like the local one" ||
				fail "trace-cmd report reads the streamed file like the local one" \
					"$(trace-cmd report -i "$net" 2>&1 | head -3)"
			nrec=$(trace-cmd report -i "$net" 2>/dev/null | grep -c ': ')
			nftc=$("$FTC" report -i "$net" --stat | awk '/^records:/ { print $2 }')
			[ "$nrec" = "$nftc" ] && pass "trace-cmd and ftc count the same $nrec records" ||
				fail "trace-cmd and ftc count the same records" "$nrec vs $nftc"
		else
			skip "trace-cmd reads the streamed file" "trace-cmd is not installed"
		fi
	fi
fi

# --- an IPv4 board seen by an IPv6 socket (the default, dual-stack) -----
# The socket names it ::ffff:127.0.0.1; the file and messages name 127.0.0.1.
if ! BIND=::ffff:127.0.0.1 start_listen "$D/v4m" --once 2>/dev/null; then
	skip "an IPv4 peer on a dual-stack socket" "no IPv6 socket here: $(cat "$D/v4m.log")"
else
	"$FTC" record -e sched:sched_switch -N "127.0.0.1:$PORT" -- true >"$D/v4m.rec" 2>&1
	wait_listen
	f=$(cd "$D/v4m" && ls)
	case $f in
	trace.127.0.0.1:[0-9]*.dat) pass "an IPv4 peer on a dual-stack socket: file $f" ;;
	*) fail "an IPv4 peer on a dual-stack socket: file trace.127.0.0.1:PORT.dat" "$f" ;;
	esac
	expect_match "an IPv4 peer on a dual-stack socket: the message" \
		"^ftc listen: connection from 127\.0\.0\.1:[0-9]+: writing" "$(cat "$D/v4m.log")"
fi

# --- loss: a small buffer and a syscall storm, streamed and local ------
# record prints per CPU the larger of the kernel's overrun+dropped and the
# loss its page headers count; the file's CPU stats must give the same.
LOAD='i=0; while [ $i -lt 20000 ]; do i=$((i+1)); : >/dev/null; done; for i in $(seq 200); do cat /dev/null; done'
loss_check() {	# NAME RECORD-OUTPUT FILE
	local rec file
	rec=$(sed -n 's/.*per CPU: \([0-9/]*\)).*/\1/p' "$2" | tr '/' ' ')
	file=$("$FTC" report -i "$3" --stat 2>/dev/null | awk '/^instance +cpu/ { t = 1; next }
		t && NF >= 8 && $2 ~ /^[0-9]+$/ { a = $4; b = $6 + $8; printf "%s ", (a > b ? a : b) }' | sed 's/ $//')
	[ -n "$rec" ] && [ "$rec" = "$file" ] && pass "$1: per-CPU loss printed ($rec) = the file's" ||
		fail "$1: per-CPU loss printed = the file's" "'$rec' vs '$file'"
}
inst=ftc-listen-$$-l
INSTS="$INSTS $inst"
if start_listen "$D/loss" --once; then
	"$FTC" record -B "$inst" -b 8 -e syscalls -N "127.0.0.1:$PORT" -- sh -c "$LOAD" >"$D/loss.rec" 2>&1
	wait_listen
	f=$(ls "$D"/loss/*.dat 2>/dev/null | head -1)
	[ -n "$f" ] && loss_check "loss, streamed" "$D/loss.rec" "$f"
	"$FTC" record -B "$inst" -b 8 -e syscalls -o "$D/loss-local.dat" -- sh -c "$LOAD" \
		>"$D/loss-local.rec" 2>&1
	loss_check "loss, local" "$D/loss-local.rec" "$D/loss-local.dat"
fi

# --- version 6 and no compression go the same way ----------------------
inst=ftc-listen-$$-b
INSTS="$INSTS $inst"
for v in "--file-version 6" "--compression none"; do
	if start_listen "$D/v" --once; then
		# shellcheck disable=SC2086
		"$FTC" record -q -B "$inst" $v -N "127.0.0.1:$PORT" -- \
			sh -c "$MARK" markers "$inst" 50 >"$D/v.rec" 2>&1
		wait_listen
		f=$(ls -t "$D"/v/*.dat | head -1)
		[ "$(print_lines "$f" | wc -l)" = 50 ] && pass "record -N $v: 50 markers arrive" ||
			fail "record -N $v: 50 markers arrive" "$(cat "$D/v.rec" "$D/v.log" | tail -3)"
		rm -rf "$D/v"
	fi
done

# --- a mixed session: perf samples ride in the same stream --------------
if start_listen "$D/smp" --once; then
	"$FTC" record -B "$inst" -e sched:sched_switch --sample cpu-clock -N "127.0.0.1:$PORT" -- \
		sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done' >"$D/smp.rec" 2>&1
	wait_listen
	f=$(ls "$D"/smp/*.dat 2>/dev/null | head -1)
	want=$(sed -n 's/.* \([0-9]*\) samples of cpu-clock.*/\1/p' "$D/smp.rec")
	got=0; [ -n "$f" ] && got=$("$FTC" report -i "$f" --stat | awk '$1 == "sample" { print $2 }')
	[ -n "$want" ] && [ "$want" -gt 0 ] && [ "$got" = "$want" ] &&
		pass "record -N --sample: the $want samples arrive" ||
		fail "record -N --sample: the samples arrive" "'$got' vs '$want': $(tail -2 "$D/smp.rec")"
fi

# --- --send fd:N and --send FIFO ----------------------------------------
if start_listen "$D/fd" --once; then
	"$FTC" record -q -B "$inst" --send fd:3 -- sh -c "$MARK" markers "$inst" 40 \
		3<>/dev/tcp/127.0.0.1/"$PORT" >"$D/fd.rec" 2>&1
	wait_listen
	f=$(ls "$D"/fd/*.dat 2>/dev/null | head -1)
	[ -n "$f" ] && [ "$(print_lines "$f" | wc -l)" = 40 ] && pass "record --send fd:3 (a socket)" ||
		fail "record --send fd:3 (a socket)" "$(tail -3 "$D/fd.rec" "$D/fd.log")"
fi
if start_listen "$D/fifo" --once; then
	mkfifo "$D/pipe"
	$SEND relay "$PORT" "$D/pipe" & rpid=$!
	"$FTC" record -q -B "$inst" --send "$D/pipe" -- sh -c "$MARK" markers "$inst" 40 \
		>"$D/fifo.rec" 2>&1
	wait "$rpid"
	wait_listen
	f=$(ls "$D"/fifo/*.dat 2>/dev/null | head -1)
	[ -n "$f" ] && [ "$(print_lines "$f" | wc -l)" = 40 ] && pass "record --send FIFO" ||
		fail "record --send FIFO" "$(tail -3 "$D/fifo.rec" "$D/fifo.log")"
fi

# --- the command line ---------------------------------------------------
expect_status "record -N with -o is a usage error" 2 "$FTC" record -N 127.0.0.1:1 -o x.dat -- true
expect_status "record -N with -m is a usage error" 2 "$FTC" record -N 127.0.0.1:1 -m 100 -- true
expect_status "record -N without a port is a usage error" 2 "$FTC" record -N localhost -- true
expect_match "record -N without a port: the error says HOST:PORT" "HOST:PORT" "$(cat "$OUT/last.err")"
expect_status "listen without -p is a usage error" 2 "$FTC" listen
expect_status "listen -p 70000 is a usage error" 2 "$FTC" listen -p 70000
: >"$D/regular"
"$FTC" record -B "$inst" --send "$D/regular" -- true >/dev/null 2>"$D/reg.err"
st=$?
[ $st = 1 ] && grep -q 'regular file' "$D/reg.err" && pass "--send refuses a regular file" ||
	fail "--send refuses a regular file" "exit $st: $(cat "$D/reg.err")"
# A port nobody listens on (the listener bound it, then went away).
if start_listen "$D/gone"; then
	kill "$LPID"; wait "$LPID" 2>/dev/null; LPID=""
	"$FTC" record -B "$inst" -N "127.0.0.1:$PORT" -- true >/dev/null 2>"$D/gone.err"
	st=$?
	[ $st = 1 ] && grep -q "cannot connect.*ftc listen" "$D/gone.err" &&
		pass "record -N to no listener: a clear error" ||
		fail "record -N to no listener: a clear error" "exit $st: $(cat "$D/gone.err")"
fi

# --- a connection cut mid-capture ---------------------------------------
inst=ftc-listen-$$-c
INSTS="$INSTS $inst"
if start_listen "$D/cut" --once; then
	$SEND proxy "$PORT" 3 >"$D/proxy.port" & ppid=$!
	for _ in $(seq 1 50); do pport=$(cat "$D/proxy.port"); [ -n "$pport" ] && break; sleep 0.1; done
	# Markers for 8 s; the proxy cuts the connection after 3.
	"$FTC" record -B "$inst" -e sched -N "127.0.0.1:$pport" -- \
		sh -c 'i=0; while [ $i -lt 800 ]; do i=$((i+1)); echo "listen-mark-$i" > '"$TRACEFS"'/instances/'"$inst"'/trace_marker; sleep 0.01; done' \
		>"$D/cut.rec" 2>&1
	st=$?
	wait "$ppid"
	wait_listen; lst=$?
	[ $st = 1 ] && grep -Eq 'sending the trace: (Broken pipe|Connection reset)' "$D/cut.rec" &&
		pass "a cut connection ends record -N with an error" ||
		fail "a cut connection ends record -N with an error" "exit $st: $(tail -3 "$D/cut.rec")"
	[ $lst = 1 ] && grep -q 'cut short: the file holds what arrived' "$D/cut.log" &&
		pass "listen says the capture was cut short (exit 1)" ||
		fail "listen says the capture was cut short (exit 1)" "exit $lst: $(cat "$D/cut.log")"
	f=$(ls "$D"/cut/*.dat 2>/dev/null | head -1)
	n=0; [ -n "$f" ] && n=$(print_lines "$f" | wc -l)
	[ "$n" -gt 10 ] && [ "$n" -lt 800 ] && pass "what arrived before the cut is readable ($n markers)" ||
		fail "what arrived before the cut is readable" "$n markers in '$f'"
	if [ $have_tc = 1 ] && [ -n "$f" ]; then
		m=$(trace-cmd report -i "$f" 2>/dev/null | grep -c 'listen-mark-')
		[ "$m" = "$n" ] && pass "trace-cmd reads the cut file too" ||
			fail "trace-cmd reads the cut file too" "$m vs $n: $(trace-cmd report -i "$f" 2>&1 | head -2)"
	fi
	# The file was made whole (no sparse regions of terabytes).
	sz=$(stat -c %s "$f" 2>/dev/null || echo 0)
	[ "$sz" -lt $((256 << 20)) ] && pass "the cut file's gaps are closed ($sz bytes)" ||
		fail "the cut file's gaps are closed" "$sz bytes"
fi
# The recorder killed: the listener keeps what came.
if start_listen "$D/kill" --once; then
	"$FTC" record -q -B "$inst" -e sched -N "127.0.0.1:$PORT" -- \
		sh -c 'i=0; while [ $i -lt 800 ]; do i=$((i+1)); echo "listen-mark-$i" > '"$TRACEFS"'/instances/'"$inst"'/trace_marker; sleep 0.01; done' \
		>/dev/null 2>&1 & rpid=$!
	sleep 4
	kill -9 "$rpid"; wait "$rpid" 2>/dev/null
	wait_listen; lst=$?
	f=$(ls "$D"/kill/*.dat 2>/dev/null | head -1)
	n=0; [ -n "$f" ] && n=$(print_lines "$f" | wc -l)
	[ $lst = 1 ] && [ "$n" -gt 10 ] && pass "a SIGKILLed recorder: listen keeps $n markers" ||
		fail "a SIGKILLed recorder: listen keeps what came" "exit $lst, $n markers: $(cat "$D/kill.log")"
	"$FTC" reset -B "$inst" -q >/dev/null 2>&1
fi

# --- hostile input ---------------------------------------------------------
if start_listen "$D/host"; then
	for k in garbage truncated huge-len huge-off huge-move bad-type bad-version after-end; do
		got=$($SEND "$k" "$PORT" 2>&1)
		[ "$got" = closed ] && kill -0 "$LPID" 2>/dev/null &&
			pass "hostile '$k': connection closed, listen lives" ||
			fail "hostile '$k': connection closed, listen lives" "$got"
	done
	# The fuzz target's regression inputs, whole, to the real listener.
	bad=""
	for f in "$TOP"/tests/fuzz/regress-listen/*; do
		got=$($SEND file "$PORT" "$f" 2>&1)
		{ [ "$got" = closed ] && kill -0 "$LPID" 2>/dev/null; } || bad="$bad $(basename "$f"):$got"
	done
	[ -z "$bad" ] && pass "tests/fuzz/regress-listen/*: each closed, listen lives" ||
		fail "tests/fuzz/regress-listen/*: each closed, listen lives" "$bad"
	log=$(cat "$D/host.log")
	expect_match "garbage: a clear error" "does not begin with ftc's stream magic" "$log"
	expect_match "a huge message: a clear error" "a message larger than 1 MB" "$log"
	expect_match "a huge offset: a clear error" "WRITE past the largest file" "$log"
	expect_match "a huge MOVE: a clear error" "MOVE (of more than the stream wrote|out of bounds)" "$log"
	expect_match "a truncated header: a clear error" "closed before the end of the capture" "$log"
	got=$($SEND second "$PORT" 2>&1)
	expect_match "a second connection is closed at once" "^second closed" "$got"
	expect_match "the first connection still completes" "^first closed" "$got"
	expect_match "a second connection: a clear error" "refused a connection from 127\.0\.0\.1" \
		"$(cat "$D/host.log")"
	hwm=$(awk '/^VmHWM/ { print $2 }' /proc/"$LPID"/status)
	[ -n "$hwm" ] && [ "$hwm" -lt 65536 ] && pass "listen's peak memory stays small (${hwm} kB)" ||
		fail "listen's peak memory stays small" "VmHWM ${hwm} kB"
	# A file stays only for a stream that wrote into it, each said so in the log.
	n=$(grep -c 'no file kept' "$D/host.log")
	kept=$(ls "$D/host" | wc -l)
	said=$(grep -cE ': complete,|recorder on .* failed|cut short' "$D/host.log")
	[ "$n" -ge 6 ] && [ "$kept" = "$said" ] &&
		pass "refused streams that wrote nothing leave no file ($n); $kept kept, each logged" ||
		fail "refused streams that wrote nothing leave no file" "$n refused, $kept kept, $said logged: $(ls "$D/host")"
	kill -TERM "$LPID"; wait "$LPID"; st=$?; LPID=""
	[ $st = 130 ] && pass "listen ends on SIGTERM with 130" || fail "listen ends on SIGTERM with 130" "exit $st"
fi
finish
