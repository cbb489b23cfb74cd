# SPDX-License-Identifier: GPL-2.0-or-later
# A user follows the man pages' SEE ALSO: ftc(1) leads to every ftc-*(1)
# page and to libftc(3), and no page points to one that does not exist.
. "$(dirname "$0")/../lib.sh"

DOC=$TOP/Documentation

see_also() {	# see_also PAGE: prints "NAME SECTION" for each page SEE ALSO names
	awk '/^\.SH/ { on = ($0 ~ /^\.SH "?SEE ALSO/); next }
	     on && /^\.BR? / { n = $2; s = $3; gsub(/\\-/, "-", n); gsub(/[^0-9]/, "", s)
			       if (s != "") print n, s }' "$1"
}

top=$(see_also "$DOC/ftc.1")
for page in "$DOC"/ftc-*.1; do
	n=$(basename "$page" .1)
	expect_match "ftc(1) SEE ALSO names $n(1)" "^$n 1\$" "$top"
done
expect_match "ftc(1) SEE ALSO names libftc(3)" '^libftc 3$' "$top"

have_man=$(command -v man)
for page in "$DOC"/*.[1-8]; do
	p=$(basename "$page")
	see=$(see_also "$page")
	[ -n "$see" ] || { fail "$p has a SEE ALSO" "no .BR NAME (N) line under .SH SEE ALSO"; continue; }
	while read -r n s; do
		if [ -f "$DOC/$n.$s" ]; then
			pass "$p: SEE ALSO $n($s) is in Documentation/"
		elif [[ $n == ftc* || $n == libftc* ]]; then
			fail "$p: SEE ALSO $n($s) exists" "no Documentation/$n.$s"
		elif [ -z "$have_man" ]; then
			skip "$p: SEE ALSO $n($s) exists" "man is not installed to look it up"
		elif man -w "$s" "$n" >/dev/null 2>&1; then
			pass "$p: SEE ALSO $n($s) is installed"
		else
			fail "$p: SEE ALSO $n($s) exists" \
				"'man -w $s $n' finds nothing (scripts/install-deps installs the peers' pages)"
		fi
	done <<<"$see"
done
finish
