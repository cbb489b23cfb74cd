#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# One version number: the Makefile's VERSION is what ftc --version prints, what
# every man page's header names and the newest release in the changelog.
. "$(dirname "$0")/../lib.sh"

want=$(sed -n 's/^VERSION *:= *//p' "$TOP/Makefile")
expect_match "the Makefile sets one VERSION" '^[0-9]+\.[0-9]+\.[0-9]+$' "$want"
got=$("$FTC" --version)
[ "$got" = "ftc $want (libftc $want)" ] && pass "ftc --version prints $want for ftc and libftc" ||
	fail "ftc --version prints $want for ftc and libftc" "got '$got'"

bad=""
for m in "$TOP"/Documentation/*.[13]; do
	# .TH NAME SECTION "DATE" "ftc VERSION" "ftc manual"
	v=$(grep -m1 '^\.TH ' "$m" | grep -o '"[^"]*"' | sed -n '2{s/"//g;s/^\(lib\)\{0,1\}ftc //p}')
	[ "$v" = "$want" ] || bad="$bad $(basename "$m"):'$v'"
done
[ -z "$bad" ] && pass "every man page's .TH names version $want" ||
	fail "every man page's .TH names version $want" "others:$bad"

top=$(grep -m1 -E '^## [0-9]' "$TOP/Documentation/changelog.md" | sed -E 's/^## ([0-9.]+).*/\1/')
[ "$top" = "$want" ] && pass "the changelog's newest release is $want" ||
	fail "the changelog's newest release is $want" "its first release heading is '$top'"
other=$(grep -rhoE '\b(ftc|libftc) [0-9]+\.[0-9]+\.[0-9]+' "$TOP/README.md" "$TOP"/Documentation/*.md |
	grep -v " $want\$" | sort -u | tr '\n' ' ')
[ -z "$other" ] && pass "README and the docs name no other ftc version" ||
	fail "README and the docs name no other ftc version" "found: $other"
finish
