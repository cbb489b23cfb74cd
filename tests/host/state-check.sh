#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The "tracefs left as found" check itself: it must forgive the kernel's own
# one-way growth of an unexpanded top-level buffer, and must still catch a
# leak, planted here on purpose, in a copy of tracefs's layout and in the
# real one.
. "$(dirname "$0")/../lib.sh"

# check_verdict: runs knobs_unchanged in a subshell, prints PASS or FAIL.
check_verdict() {
	(knobs_unchanged probe) 2>&1 | sed -n 's/^\(PASS\|FAIL\) probe.*/\1/p'
}

# A tracefs as a freshly booted kernel shows it: buffers not yet expanded.
fake=$OUT/state-check.$$
make_fresh() {
	rm -rf "$fake"
	mkdir -p "$fake/options" "$fake/instances" "$fake/events/sched/sched_switch" \
		"$fake/per_cpu/cpu0" "$fake/per_cpu/cpu1"
	echo "7 (expanded: 1408)" >"$fake/buffer_size_kb"
	echo 4 >"$fake/buffer_subbuf_size_kb"
	echo 0 >"$fake/events/sched/sched_switch/enable"
	echo 1 >"$fake/options/overwrite"
	echo 7 >"$fake/per_cpu/cpu0/buffer_size_kb"
	echo 7 >"$fake/per_cpu/cpu1/buffer_size_kb"
}
grow() {	# grow TOP CPU0 CPU1
	echo "$1" >"$fake/buffer_size_kb"
	echo "$2" >"$fake/per_cpu/cpu0/buffer_size_kb"
	echo "$3" >"$fake/per_cpu/cpu1/buffer_size_kb"
}

# case_of NAME WANT MUTATION...: a fresh fake, knobs_save, the mutation,
# then the check must say WANT.
case_of() {
	local name=$1 want=$2 got
	shift 2
	make_fresh
	TRACEFS=$fake knobs_save
	"$@"
	got=$(TRACEFS=$fake check_verdict)
	if [ "$got" = "$want" ]; then pass "state check: $name"; else
		fail "state check: $name" "the check said '$got', want $want"; fi
}

case_of "nothing changed passes" PASS true
case_of "the kernel's expansion to the promised size passes" PASS grow 1410 1410 1410
case_of "the expansion rounded to a whole sub-buffer passes" PASS grow 1408 1408 1408
case_of "a top-level size written by hand fails" FAIL grow 2048 2048 2048
case_of "one CPU resized during expansion fails" FAIL grow 1410 1410 2048
case_of "a size just past a sub-buffer of rounding fails" FAIL grow 1412 1412 1412
case_of "a CPU left unexpanded fails" FAIL grow 1410 1410 7
case_of "an enabled event left behind fails" FAIL \
	sh -c "echo 1 >'$fake/events/sched/sched_switch/enable'"
case_of "an option left changed fails" FAIL sh -c "echo 0 >'$fake/options/overwrite'"
case_of "a leftover instance fails" FAIL mkdir "$fake/instances/leftover"
case_of "an expansion with a leak beside it fails" FAIL \
	sh -c "echo 1410 | tee '$fake'/buffer_size_kb '$fake'/per_cpu/cpu*/buffer_size_kb >/dev/null;
	       echo 0 >'$fake/options/overwrite'"

# An expanded buffer is not forgiven for shrinking or growing again.
make_fresh
grow 1410 1410 1410
TRACEFS=$fake knobs_save
grow 2820 2820 2820
got=$(TRACEFS=$fake check_verdict)
[ "$got" = FAIL ] && pass "state check: an already expanded buffer resized fails" ||
	fail "state check: an already expanded buffer resized fails" "the check said '$got'"
rm -rf "$fake"

# The real tracefs: a planted change of the trace clock must be caught, then
# put back (this test leaves tracefs as it found it, and checks that too).
if [ -w "$TRACEFS/trace_clock" ]; then
	knobs_save
	old=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$TRACEFS/trace_clock")
	new=global; [ "$old" = global ] && new=local
	echo "$new" >"$TRACEFS/trace_clock"
	got=$(check_verdict)
	echo "$old" >"$TRACEFS/trace_clock"
	[ "$got" = FAIL ] && pass "state check: a trace clock leak on the real tracefs fails" ||
		fail "state check: a trace clock leak on the real tracefs fails" "the check said '$got'"
	knobs_unchanged "state check: the planted leak was undone"
else
	skip "state check: real tracefs" "$TRACEFS/trace_clock is not writable"
fi
finish
