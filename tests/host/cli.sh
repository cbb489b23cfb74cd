# SPDX-License-Identifier: GPL-2.0-or-later
# A user meets the command line: help, version, and mistakes.
. "$(dirname "$0")/../lib.sh"

expect_status "ftc --version exits 0" 0 "$FTC" --version
expect_match "ftc --version names the version" '^ftc [0-9]+\.[0-9]+\.[0-9]+' "$(cat "$OUT/last.out")"
expect_status "ftc --help exits 0" 0 "$FTC" --help
help=$(cat "$OUT/last.out")
for c in $("$FTC" --list-cmds); do
	expect_match "ftc --help lists $c" "^  $c " "$help"
	expect_status "ftc $c --help exits 0" 0 "$FTC" "$c" --help
	expect_match "ftc $c --help shows usage" "^usage: ftc $c" "$(cat "$OUT/last.out")"
	expect_status "ftc $c rejects an unknown option with 2" 2 "$FTC" "$c" --no-such-option
	expect_match "ftc $c names the unknown option" "no-such-option" "$(cat "$OUT/last.err")"
	[ -f "$TOP/Documentation/ftc-$c.1" ] && pass "ftc-$c.1 exists" || fail "ftc-$c.1 exists" "no man page"
	opts=$("$FTC" "$c" --list-opts)
	expect_match "ftc $c --list-opts feeds completion" '^--help$' "$opts"
done
# Every man page renders without groff warnings and documents exit codes.
for page in "$TOP"/Documentation/*.1; do
	n=$(basename "$page")
	w=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
	[ -z "$w" ] && pass "$n renders cleanly" || fail "$n renders cleanly" "$w"
	grep -q '^\.SH EXIT STATUS' "$page" && pass "$n documents exit status" ||
		fail "$n documents exit status" "no EXIT STATUS section"
done
expect_status "unknown command exits 2" 2 "$FTC" frobnicate
expect_match "unknown command is named" "'frobnicate' is not an ftc command" "$(cat "$OUT/last.err")"
expect_status "no command exits 2" 2 "$FTC"
finish
