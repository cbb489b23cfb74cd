# SPDX-License-Identifier: GPL-2.0-or-later
# A developer runs `make static` for a board or the lab: ftc-static is a
# stripped, fully static ftc, and ftc-static.debug beside it holds its debug
# information, tied to it by build-id and .gnu_debuglink so gdb finds it.
. "$(dirname "$0")/../lib.sh"

BIN=$TOP/ftc-static
DBG=$TOP/ftc-static.debug

if ! command -v readelf >/dev/null; then
	skip "make static" "readelf (binutils) is not installed"
	finish
fi
setup "make static" make -s -C "$TOP" static || finish

sections() { readelf -W -S "$1" | sed -n 's/^ *\[ *[0-9]*\] \([^ ]*\) .*/\1/p'; }
build_id() { readelf -n "$1" | sed -n 's/^ *Build ID: //p'; }

got=$(sections "$BIN")
expect_nomatch "ftc-static has no symbol table" '^\.symtab$' "$got"
expect_nomatch "ftc-static has no debug information" '^\.debug_' "$got"
expect_match "ftc-static has a .gnu_debuglink" '^\.gnu_debuglink$' "$got"
expect_nomatch "ftc-static is static (no dynamic section)" '^\.(dynamic|interp)$' "$got"
expect_match "ftc-static runs" '^ftc [0-9]' "$("$BIN" --version 2>&1)"

got=$(sections "$DBG")
expect_match "ftc-static.debug has debug information" '^\.debug_info$' "$got"
expect_match "ftc-static.debug has the symbol table" '^\.symtab$' "$got"

id=$(build_id "$BIN")
[ -n "$id" ] && [ "$id" = "$(build_id "$DBG")" ] &&
	pass "ftc-static and ftc-static.debug share build-id $id" ||
	fail "ftc-static and ftc-static.debug share a build-id" "'$id' vs '$(build_id "$DBG")'"

# The link names the file and carries its CRC32, which gdb checks.
link=$(readelf --string-dump=.gnu_debuglink "$BIN" | sed -n 's/^ *\[ *0\] *//p')
[ "$link" = ftc-static.debug ] && pass "the debuglink names ftc-static.debug" ||
	fail "the debuglink names ftc-static.debug" "it names '$link'"
if command -v python3 >/dev/null; then
	objcopy --dump-section .gnu_debuglink="$OUT/static-debuglink.bin" "$BIN" "$OUT/static-copy"
	got=$(python3 - "$OUT/static-debuglink.bin" "$DBG" <<'PY'
import sys, zlib
want = int.from_bytes(open(sys.argv[1], 'rb').read()[-4:], 'little')
got = zlib.crc32(open(sys.argv[2], 'rb').read())
print('crc %08x %08x' % (want, got))
PY
)
	[[ $got =~ ^crc\ ([0-9a-f]+)\ ([0-9a-f]+)$ ]] && [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] &&
		pass "the debuglink's CRC is ftc-static.debug's" ||
		fail "the debuglink's CRC is ftc-static.debug's" "$got"
	rm -f "$OUT/static-debuglink.bin" "$OUT/static-copy"
fi
if command -v gdb >/dev/null; then
	got=$(cd / && gdb -batch -ex 'info line cmd_usage' "$BIN" 2>&1)
	expect_match "gdb finds ftc-static's source lines through the debuglink" \
		'^Line [0-9]+ of "cmd/options.c"' "$got"
else
	skip "gdb reads ftc-static.debug" "gdb is not installed"
fi
finish
