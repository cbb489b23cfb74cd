# SPDX-License-Identifier: GPL-2.0-or-later
# A user marks moments of a capture from a script with ftc marker: the
# text lands in the instance's trace, in order, between the kernel's events,
# and trace-cmd report shows it too.
. "$(dirname "$0")/../lib.sh"

I=$(test_instance marker)
knobs_save
"$FTC" record -q -B "$I" -e sched:sched_process_exec -o "$OUT/marker.$$.dat" -- \
	sh -c "'$FTC' marker -B '$I' step one; /bin/true; '$FTC' marker -B '$I' step two" \
	2>"$OUT/marker.$$.err"
st=$?
[ $st = 0 ] && pass "record with markers exits 0" || fail "record with markers exits 0" "exit $st: $(tail -2 "$OUT/marker.$$.err")"
rep=$("$FTC" report "$OUT/marker.$$.dat" 2>&1 | grep -v '^#')
order=$(printf '%s\n' "$rep" | grep -oE 'tracing_mark_write: step (one|two)|filename=/(usr/)?bin/true' | tr '\n' ';')
expect_match "markers and the exec between them, in order" \
	'^tracing_mark_write: step one;filename=/(usr/)?bin/true;tracing_mark_write: step two;$' "$order"
if command -v trace-cmd >/dev/null; then
	expect_match "trace-cmd report shows the marker" 'tracing_mark_write: step two' \
		"$(trace-cmd report "$OUT/marker.$$.dat" 2>/dev/null)"
else
	skip "trace-cmd report shows the marker" "trace-cmd is not installed"
fi
expect_status "marker without text is a usage error" 2 "$FTC" marker -B "$I"
expect_status "marker into a missing instance fails" 3 "$FTC" marker -B "$I-none" hello
expect_match "the error names the instance" "$I-none" "$(cat "$OUT/last.err")"
knobs_unchanged "ftc marker"
finish
