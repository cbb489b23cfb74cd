# SPDX-License-Identifier: GPL-2.0-or-later
# A user wants an oops to dump the trace buffers: ftc oops-dump shows the
# setting, sets it where the kernel allows, and says clearly where it does not.
. "$(dirname "$0")/../lib.sh"
OUT=$OUT/oops-dump.$$; mkdir -p "$OUT"; trap 'rm -rf "$OUT"' EXIT
SYSCTL=/proc/sys/kernel/ftrace_dump_on_oops

[ -e $SYSCTL ] || { skip "ftc oops-dump" "no $SYSCTL on this kernel"; finish; }
orig=$(cat $SYSCTL)
knobs_save
expect_status "status exits 0" 0 "$FTC" oops-dump status
expect_match "status shows the kernel's value" "^ftrace_dump_on_oops $orig: " "$(cat "$OUT/last.out")"

# Does this kernel let the value be written? Ask it directly: the same value back.
if echo "$orig" >$SYSCTL 2>/dev/null; then
	trap 'echo "$orig" >$SYSCTL; rm -rf "$OUT"' EXIT
	expect_status "on exits 0" 0 "$FTC" oops-dump on
	[ "$(cat $SYSCTL)" = 1 ] && pass "on writes 1" || fail "on writes 1" "$(cat $SYSCTL)"
	expect_status "orig_cpu exits 0" 0 "$FTC" oops-dump orig_cpu
	expect_match "orig_cpu is the oopsing CPU only" "(2|orig_cpu)" "$(cat $SYSCTL)"
	expect_status "off exits 0" 0 "$FTC" oops-dump off
	[ "$(cat $SYSCTL)" = 0 ] && pass "off writes 0" || fail "off writes 0" "$(cat $SYSCTL)"
	echo "$orig" >$SYSCTL
else
	err=$( (echo "$orig" >$SYSCTL) 2>&1 | sed 's/.*: //')
	for w in on off orig_cpu; do
		expect_status "$w exits 3 where the kernel refuses" 3 "$FTC" oops-dump $w
		expect_match "$w's refusal names the sysctl and the kernel's error" \
			"$SYSCTL: $err" "$(cat "$OUT/last.err")"
	done
	expect_match "the refusal points at the boot parameter" "boot-args --dump-on-oops" "$(cat "$OUT/last.err")"
	[ "$(cat $SYSCTL)" = "$orig" ] && pass "the value is unchanged" || fail "the value is unchanged" "$(cat $SYSCTL)"
fi
expect_status "no argument exits 2" 2 "$FTC" oops-dump
expect_status "an unknown word exits 2" 2 "$FTC" oops-dump sometimes
expect_status "two words exit 2" 2 "$FTC" oops-dump on off
knobs_unchanged "ftc oops-dump"
finish
