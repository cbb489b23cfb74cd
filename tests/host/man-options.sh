# SPDX-License-Identifier: GPL-2.0-or-later
# Every command's man page documents exactly the options that its --help
# lists: the tags of the OPTIONS section of Documentation/ftc-CMD.1, as
# groff renders them ("-o, --output FILE", "--cpu CPUS"), against the rows
# of `ftc CMD --list-opts=table`: the same letter, long name and argument
# name, none missing and none stale. record documents its own options and
# refers to ftc-start(1) for the tracing control options they share. Reads
# no tracefs.
. "$(dirname "$0")/../lib.sh"

# The options of a page, one "SHORT<TAB>LONG<TAB>ARG" line each, "-" when
# absent, as --list-opts=table prints them. A tag may name two options
# ("--first N, --last N"); a short tag shares its line with the text that
# follows, so only a word such as FILE, N, FILE.svg or FUNC:CMD[:N] is
# taken as the argument (FILE=VALUE too).
page_options() {
	groff -man -Tascii -P-cbou -rLL=250n "$1" 2>/dev/null | awk '
	/^[^ ]/ { sec = $0; next }
	sec != "OPTIONS" || !/^       -/ { next }
	{
		line = substr($0, 8)
		sub(/  .*/, "", line)
		n = split(line, part, ", ")
		short = "-"
		for (i = 1; i <= n; i++) {
			if (part[i] ~ /^-[A-Za-z0-9]$/) { short = part[i]; continue }
			if (part[i] !~ /^--/) continue
			split(part[i], w, " ")
			arg = "-"
			if (w[2] ~ /^[A-Z][A-Z0-9_]*([.:=][][A-Za-z0-9_:]*)*$/) arg = w[2]
			printf "%s\t%s\t%s\n", short, w[1], arg
			short = "-"
		}
		if (short != "-")	# a letter alone, such as profile -g
			printf "%s\t-\t-\n", short
	}' | sort -u
}

table() { "$FTC" "$1" --list-opts=table | sort -u; }

out=$OUT/man-options
mkdir -p "$out"
table start >"$out/shared"
for c in $("$FTC" --list-cmds); do
	page=$TOP/Documentation/ftc-$c.1
	[ -f "$page" ] || { fail "ftc-$c.1 options" "no man page"; continue; }
	table "$c" >"$out/$c.table"
	page_options "$page" >"$out/$c.page"
	missing=$(comm -23 "$out/$c.table" "$out/$c.page")
	if [ "$c" = record ] || [ "$c" = stream ] || [ "$c" = top ]; then	# the control options: ftc-start(1)
		missing=$(printf '%s\n' "$missing" | grep -v -x -F -f "$out/shared" |
			  grep -v '^$')
	fi
	stale=$(comm -13 "$out/$c.table" "$out/$c.page")
	if [ -z "$missing" ] && [ -z "$stale" ]; then
		pass "ftc-$c.1 documents the options of ftc $c --help"
	else
		fail "ftc-$c.1 documents the options of ftc $c --help" \
			"not in the page: $(echo $missing); not in --help: $(echo $stale)"
	fi
done

# The check itself can fail: a page that lost an option and kept an old one.
sed -e 's/\\-\\-sleep/\\-\\-slept/' "$TOP/Documentation/ftc-record.1" >"$out/broken.1"
table record >"$out/record.table"
page_options "$out/broken.1" >"$out/broken.page"
expect_match "a renamed option is seen as missing" $'--sleep\tUSECS' \
	"$(comm -23 "$out/record.table" "$out/broken.page")"
expect_match "and its old name as stale" $'--slept\tUSECS' \
	"$(comm -13 "$out/record.table" "$out/broken.page")"
finish
