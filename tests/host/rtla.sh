# SPDX-License-Identifier: GPL-2.0-or-later
# ftc rtla and --tracer-opt where the kernel has no latency tracers (this
# host's 6.18 lists none): `ftc check` names timerlat and osnoise absent,
# live ftc rtla and record -p timerlat exit 3 saying so, a --tracer-opt
# the kernel lacks exits 3 before anything is written and leaves tracefs
# as found; a capture without their records exits 3 naming how to record
# one; bad words exit 2. The figures themselves are tested on a file laid
# out by hand (tests/unit/test-rtla.c) and on 6.12 PREEMPT_RT in the lab
# (tests/lab/rtla.sh).
. "$(dirname "$0")/../lib.sh"

D=$OUT/rtla.$$
rm -rf "$D"; mkdir -p "$D"
I=$(test_instance rtla)
trap 'instances_remove "$I"; [ "$T_FAILED" = 0 ] && rm -rf "$D"' EXIT
knobs_save

if ! "$FTC" record -q -B "$I" -e sched:sched_switch -o "$D/s.dat" -- true >"$D/rec.log" 2>&1; then
	fail "setup: ftc record -e sched:sched_switch" "$(tail -2 "$D/rec.log")"
	finish
fi
expect_status "a capture without timerlat records: exit 3" 3 "$FTC" rtla "$D/s.dat"
expect_match "... saying how to record one" 'has no timerlat record: record with -p timerlat' \
	"$(cat "$OUT/last.err")"
expect_status "osnoise view of it: exit 3" 3 "$FTC" rtla osnoise "$D/s.dat"
expect_match "... naming osnoise" 'has no osnoise record: record with -p osnoise' "$(cat "$OUT/last.err")"
expect_status "--hist with osnoise: exit 2" 2 "$FTC" rtla osnoise --hist "$D/s.dat"
expect_status "an unknown view: exit 2" 2 "$FTC" rtla noisy "$D/s.dat"
expect_status "--duration without a live target: exit 2" 2 "$FTC" rtla --duration 1 "$D/s.dat"
expect_match "... naming --all-cpus, not rtla's -a" 'goes with --all-cpus or -- COMMAND' \
	"$(cat "$OUT/last.err")"
expect_status "a missing file: exit 1" 1 "$FTC" rtla "$D/none.dat"

check=$("$FTC" check timerlat osnoise 2>&1)
if grep -q '^timerlat *ok' <<<"$check"; then
	skip "rtla: what a kernel without timerlat says" "this kernel has timerlat"
else
	expect_match "ftc check: timerlat absent, with the reason" \
		"^timerlat +absent .*available_tracers: no 'timerlat'" "$check"
	expect_status "live ftc rtla where timerlat is absent: exit 3" 3 \
		"$FTC" rtla --all-cpus --duration 1
	expect_match "... naming the tracer" 'timerlat' "$(cat "$OUT/last.err")"
fi
if [ -d "$TRACEFS/osnoise" ]; then
	skip "rtla: a setting the kernel lacks" "this kernel has osnoise/"
else
	expect_status "--tracer-opt osnoise/period_us where there is no osnoise/: exit 3" 3 \
		"$FTC" record -B "$I" -e sched:sched_switch --tracer-opt osnoise/period_us=1000 \
		-o "$D/o.dat" -- true
	expect_match "... naming the file and where the settings are" \
		'this kernel has no osnoise/period_us .*osnoise/ and hwlat_detector/' "$(cat "$OUT/last.err")"
fi
expect_status "--tracer-opt outside the tracers' folders: exit 2" 2 \
	"$FTC" record -B "$I" --tracer-opt tracing_on=0 -- true
expect_match "... saying which folders" 'FILE=VALUE with FILE in osnoise/ or hwlat_detector/' \
	"$(cat "$OUT/last.err")"
knobs_unchanged "ftc rtla"
finish
