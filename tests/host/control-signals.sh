# SPDX-License-Identifier: GPL-2.0-or-later
# A user presses Ctrl-C (or a supervisor sends SIGTERM) while ftc works:
# ftc exits 130 and tracefs is exactly as it was before the command.
. "$(dirname "$0")/../lib.sh"


I=$(test_instance sig)
J=$(test_instance sig2)
D=$TRACEFS/instances/$I
trap 'for i in "$I" "$J"; do [ -d "$TRACEFS/instances/$i" ] && "$FTC" reset -q -B "$i" -d >/dev/null 2>&1; done' EXIT

same_instance() { # NAME FILE_BEFORE
	instance_knobs "$D" >"$OUT/sig.after"
	if d=$(diff "$2" "$OUT/sig.after"); then pass "$1"; else fail "$1" "$(echo "$d" | head -6)"; fi
}
# run_and_signal SIGNAL DELAY COMMAND...: the exit status in $rc
run_and_signal() {
	sig=$1; delay=$2; shift 2
	"$@" >"$OUT/sig.out" 2>"$OUT/sig.err" &
	pid=$!
	sleep "$delay"
	kill -"$sig" "$pid"
	wait "$pid"; rc=$?
}

knobs_save
setup "start a private instance to work in" \
	"$FTC" start -q -B "$I" -e sched:sched_switch -e sched:sched_wakeup -f 'pid > 1' -C global
instance_knobs "$D" >"$OUT/sig.before"

run_and_signal INT 0.5 "$FTC" show -B "$I" -p
[ "$rc" = 0 ] && pass "show -p ended by Ctrl-C exits 0 (its normal end)" || fail "show -p ended by Ctrl-C exits 0 (its normal end)" "exit $rc: $(tail -2 "$OUT/sig.err")"
grep -q 'sched_' "$OUT/sig.out" && pass "show --pipe streamed events before the signal" ||
	fail "show --pipe streamed events before the signal" "$(head -c 300 "$OUT/sig.out")"
same_instance "show --pipe interrupted leaves the instance as found" "$OUT/sig.before"

# A slow start (each step delayed) interrupted half-way, into the existing
# instance: everything it had written is put back, the instance stays.
export FTC_CONTROL_STEP_DELAY_MS=150
run_and_signal INT 0.8 "$FTC" start -B "$I" -C mono -b 512 -O noirq-info -M 1 \
	-e irq:softirq_entry -e sched:sched_waking -R stacktrace -e sched:sched_process_exit
[ "$rc" = 130 ] && pass "start interrupted by SIGINT exits 130" || fail "start interrupted by SIGINT exits 130" "exit $rc"
expect_match "it says it was interrupted" 'interrupted' "$(cat "$OUT/sig.err")"
same_instance "start interrupted by SIGINT restores the instance" "$OUT/sig.before"

run_and_signal TERM 0.6 "$FTC" start -B "$I" -C counter -b 300 -e irq -O nooverwrite
[ "$rc" = 130 ] && pass "start interrupted by SIGTERM exits 130" || fail "start interrupted by SIGTERM exits 130" "exit $rc"
same_instance "start interrupted by SIGTERM restores the instance" "$OUT/sig.before"

# Interrupted while creating its own instance: the instance goes away again.
run_and_signal INT 0.5 "$FTC" start -B "$J" -C global -b 256 -e sched:sched_switch
[ "$rc" = 130 ] && pass "start of a new instance interrupted exits 130" || fail "start of a new instance interrupted exits 130" "exit $rc"
[ -d "$TRACEFS/instances/$J" ] && fail "the new instance is removed again" "still there" ||
	pass "the new instance is removed again"
unset FTC_CONTROL_STEP_DELAY_MS

setup "reset -B -d the working instance" "$FTC" reset -q -B "$I" -d
knobs_unchanged "interrupted show and start"
finish
