# SPDX-License-Identifier: GPL-2.0-or-later
# The reader under libFuzzer (ASan + UBSan + leak checks) for 30 s from real
# trace-cmd seeds: no crash, no leak, no hang. tests/fuzz/run --long fuzzes longer.
. "$(dirname "$0")/../lib.sh"

command -v clang >/dev/null || { skip "fuzz reader" "clang is not installed (apt package clang)"; finish; }
knobs_save
"$TOP/tests/fuzz/run" --time "${FTC_FUZZ_TIME:-30}" >"$OUT/fuzz-reader.log" 2>&1
st=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$OUT/fuzz-reader.log")
if [ $st = 3 ]; then
	skip "fuzz reader" "$(tail -1 "$OUT/fuzz-reader.log")"
elif [ $st = 0 ] && [ "${runs:-0}" -gt 100 ]; then
	pass "fuzz reader: $runs inputs, no crash, leak or hang"
else
	fail "fuzz reader" "exit $st after ${runs:-0} inputs: $(grep -m3 -E 'ERROR|SUMMARY|runtime error|Test unit' "$OUT/fuzz-reader.log" | tr '\n' ' ')"
fi
knobs_unchanged "fuzz reader"
finish
