# SPDX-License-Identifier: GPL-2.0-or-later
# A user reads the help in an 100-column terminal: no line of `ftc --help`,
# `ftc CMD --help` or `ftc help CMD` is wider, and `ftc help CMD` is the
# command's own help.
. "$(dirname "$0")/../lib.sh"

WIDTH=100

check_width() {	# check_width WHAT COMMAND...
	local what=$1 wide
	shift
	if ! "$@" >"$OUT/help.out" 2>&1; then
		fail "$what fits $WIDTH columns" "'$*' failed: $(tail -2 "$OUT/help.out")"
		return
	fi
	wide=$(awk -v w=$WIDTH 'length($0) > w { printf "%d columns: %s\n", length($0), $0 }' \
		"$OUT/help.out")
	[ -z "$wide" ] && pass "$what fits $WIDTH columns" ||
		fail "$what fits $WIDTH columns" "$wide"
}

check_width "ftc --help" "$FTC" --help
for c in $("$FTC" --list-cmds); do
	check_width "ftc $c --help" "$FTC" "$c" --help
	"$FTC" "$c" --help >"$OUT/help.own" 2>&1
	"$FTC" help "$c" >"$OUT/help.out" 2>&1
	cmp -s "$OUT/help.own" "$OUT/help.out" && pass "ftc help $c prints ftc $c --help" ||
		fail "ftc help $c prints ftc $c --help" "$(diff "$OUT/help.own" "$OUT/help.out" | head -3)"
done
expect_status "ftc help with an unknown command exits 2" 2 "$FTC" help frobnicate
expect_match "ftc help names the unknown command" "'frobnicate' is not an ftc command" \
	"$(cat "$OUT/last.err")"
expect_status "ftc help alone lists the commands" 0 "$FTC" help
expect_match "ftc help alone prints ftc --help" '^commands:$' "$(cat "$OUT/last.out")"
finish
