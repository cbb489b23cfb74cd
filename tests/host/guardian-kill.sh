# SPDX-License-Identifier: GPL-2.0-or-later
# Every command that journals its changes to tracefs (record, stream, top,
# start, hist, check) is SIGKILLed at a random moment of its set-up, 0 to
# 300 ms after it starts: alone (kill -9 PID) or with its whole process
# group (kill -9 -PGID, what timeout(1) and a shell's kill of a job do).
# Its guardian must be armed before the first change and outlive the
# group: within 10 s the journal is gone, no instance of the run is left,
# and at the end tracefs is as found. KILLS=N kills per command (20).
. "$(dirname "$0")/../lib.sh"

D=$(mktemp -d /tmp/ftc-gkill.XXXXXX)
export FTC_JOURNAL_DIR=$D/j
mkdir -m 700 "$FTC_JOURNAL_DIR"
trap 'rm -rf "$D"' EXIT
KILLS=${KILLS:-20}
knobs_save

# one NAME INST PIDINST ARGS...: one run of ftc ARGS killed at random; INST
# is the instance the run names, PIDINST the prefix of one named after
# ftc's pid (ftc-top-, ftc-probe-), or "".
one() {
	local name=$1 inst=$2 pidinst=$3 pid rc how
	shift 3
	# setsid: ftc leads a process group of its own, as under timeout(1)
	setsid "$FTC" "$@" >/dev/null 2>>"$D/err" & pid=$!
	sleep "0.$(printf %03d $((RANDOM % 300)))"
	if [ $((RANDOM % 2)) = 0 ]; then how=group; kill -KILL -- -$pid 2>/dev/null
	else how=alone; kill -KILL $pid 2>/dev/null; fi
	wait $pid 2>/dev/null; rc=$?
	for _ in $(seq 100); do
		[ -e "$FTC_JOURNAL_DIR/journal.$pid" ] || break
		sleep 0.1
	done
	# ftc start keeps what it set when it finished first, that is its
	# job: killed after it let go of its journal (exit 137), the instance
	# is there, complete (its event enabled).
	if [ "$name" = start ] && [ ! -e "$FTC_JOURNAL_DIR/journal.$pid" ] &&
	   [ "$(cat "$TRACEFS/instances/$inst/events/sched/sched_switch/enable" 2>/dev/null)" = 1 ]; then
		"$FTC" reset -q -B "$inst" -d >/dev/null 2>&1
		[ $rc = 137 ] && rc=kept
	fi
	if [ -e "$FTC_JOURNAL_DIR/journal.$pid" ]; then
		bad=$((bad + 1))
		echo "$name ($how, exit $rc): journal.$pid left: $(head -c 300 "$FTC_JOURNAL_DIR/journal.$pid" | tr '\n' ' ')" >>"$D/why"
		"$FTC" reset -q --journal "$FTC_JOURNAL_DIR/journal.$pid" >/dev/null 2>&1
	fi
	for i in $inst ${pidinst:+$pidinst$pid}; do
		# rmdir of an instance takes a moment after the journal went
		for _ in $(seq 50); do [ -d "$TRACEFS/instances/$i" ] || break; sleep 0.1; done
		if [ -d "$TRACEFS/instances/$i" ]; then
			bad=$((bad + 1))
			echo "$name ($how, exit $rc): instance $i left" >>"$D/why"
			"$FTC" reset -q -B "$i" -d >/dev/null 2>&1
		fi
	done
	if [ "$rc" = 137 ]; then killed_runs=$((killed_runs + 1)); else done_runs=$((done_runs + 1)); fi
}

# kills NAME INST PIDINST ARGS...: KILLS runs, then the verdict.
kills() {
	local name=$1
	bad=0 killed_runs=0 done_runs=0
	: >"$D/why"
	for _ in $(seq "$KILLS"); do one "$@"; done
	[ $bad = 0 ] && pass "$name killed $killed_runs times in its set-up ($done_runs ended first): journal and instances gone" ||
		fail "$name killed at random: journal and instances gone" "$bad left: $(head -3 "$D/why")"
	left=$(ls "$FTC_JOURNAL_DIR")
	[ -z "$left" ] || fail "$name: no journal left" "$left"
	knobs_unchanged "$name killed $KILLS times"
}

I=$(test_instance gk)
kills record "$I" "" record -q -B "$I" -e sched -e syscalls:sys_enter_read -o "$D/r.dat" -- sleep 1
kills stream "$I" "" stream -q -B "$I" -e sched:sched_switch -- sleep 1
kills top "" ftc-top- top --batch -d 0.2 --iterations 3 -e sched:sched_switch
kills start "$I" "" start -q -B "$I" -e sched:sched_switch -C mono -b 512
kills hist "$I" "" hist -q -B "$I" -e sched:sched_switch --key prev_pid --duration 1
kills check "" ftc-probe- check -q
[ -s "$D/err" ] && grep -q 'ftc-guardian: .*restoring it from .* failed' "$D/err" &&
	fail "no guardian failed to restore" "$(grep -m3 'ftc-guardian' "$D/err")"
finish
