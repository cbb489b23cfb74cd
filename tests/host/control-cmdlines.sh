# SPDX-License-Identifier: GPL-2.0-or-later
# A user who traces many short-lived tasks asks the kernel to remember more
# task names for the capture (--cmdlines-size); the global size is in force
# while the command runs and put back afterwards.
. "$(dirname "$0")/../lib.sh"

I=$(test_instance cmdl)
before=$(cat "$TRACEFS/saved_cmdlines_size")
want=$((before + 128))
knobs_save
"$FTC" record -q -B "$I" --cmdlines-size "$want" -e sched:sched_process_exec \
	-o "$OUT/cmdl.$$.dat" -- sh -c "cat $TRACEFS/saved_cmdlines_size >$OUT/cmdl.$$.during" \
	2>"$OUT/cmdl.$$.err"
st=$?
[ $st = 0 ] && pass "record --cmdlines-size exits 0" || fail "record --cmdlines-size exits 0" "exit $st: $(tail -2 "$OUT/cmdl.$$.err")"
# The kernel rounds the table up to whole pages, so it may read back larger.
got=$(cat "$OUT/cmdl.$$.during" 2>/dev/null)
[ "${got:-0}" -ge "$want" ] && pass "saved_cmdlines_size is at least $want during the capture ($got)" ||
	fail "saved_cmdlines_size is at least $want during the capture" "read '$got'"
after=$(cat "$TRACEFS/saved_cmdlines_size")
[ "$after" = "$before" ] && pass "saved_cmdlines_size is back to $before" ||
	fail "saved_cmdlines_size is back to $before" "reads $after"
for opt in --cmdlines-size -b --subbuf-size; do
	expect_status "$opt 0 is a usage error" 2 "$FTC" start -B "$I" $opt 0
	expect_match "$opt 0: the error names the option and the value" "$opt.*'0'.*(at least|from) 1" "$(cat "$OUT/last.err")"
done
"$FTC" reset -q -B "$I" -d >/dev/null 2>&1
knobs_unchanged "record --cmdlines-size"
finish
