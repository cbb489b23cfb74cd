# SPDX-License-Identifier: GPL-2.0-or-later
# ftc is a client of libftc's public API: cmd/'s objects linked against
# libftc.so (which exports only the FTC_API functions, tests/host/exports.sh)
# with --no-undefined leave nothing undefined (`make shared-check`), cmd/
# includes no internal header and calls no libtracefs function, and the
# program so linked prints what ./ftc prints. Reads a console log fixture
# and the trace.dat made from it: no tracefs.
. "$(dirname "$0")/../lib.sh"

B=${B:-build/default}
BIN=$TOP/$B/ftc-shared
FX=$TOP/tests/fixtures/import
dir=$OUT/shared-link
rm -rf "$dir"
mkdir -p "$dir"

# --- The sources: public headers only, libtracefs left to libftc ----------
internal=$(cd "$TOP" && for h in $(ls libftc/*/*.h | xargs -n1 basename | sort -u); do
	grep -l "#include \"$h\"" cmd/*.[ch] | sed "s|\$| ($h)|"
done)
[ -z "$internal" ] && pass "cmd/ includes no internal header of libftc" ||
	fail "cmd/ includes no internal header of libftc" "$(echo $internal | cut -c1-600)"
direct=$(cd "$TOP" && grep -n -E '#include <tracefs\.h>|(^|[^_a-z])tracefs_[a-z_]+\(' cmd/*.c)
[ -z "$direct" ] && pass "cmd/ calls no libtracefs function (libftc's tracefs layer does)" ||
	fail "cmd/ calls no libtracefs function (libftc's tracefs layer does)" \
		"$(echo "$direct" | wc -l) lines: $(echo "$direct" | head -5 | cut -c1-300)"

# --- The link -----------------------------------------------------------------
if out=$(make -s --no-print-directory -C "$TOP" B="$B" shared-check 2>&1); then
	pass "cmd/'s objects link against libftc.so with --no-undefined"
else
	undef=$(echo "$out" | grep -o "undefined reference to \`[^']*'" | sort -u | sed "s/.*\`//; s/'//")
	fail "cmd/'s objects link against libftc.so with --no-undefined" \
		"${undef:+undefined: $(echo $undef | cut -c1-600)}${undef:-$(echo "$out" | tail -3)}"
	finish
fi
if command -v readelf >/dev/null; then
	needed=$(readelf -d "$BIN" | grep NEEDED)
	expect_match "ftc-shared needs libftc.so" 'libftc\.so' "$needed"
fi

# --- The same output as ./ftc --------------------------------------------------
same() {	# same NAME ARGS...: ftc-shared and ftc print the same and exit the same
	name=$1; shift
	"$FTC" "$@" >"$dir/ftc.out" 2>"$dir/ftc.err"; a=$?
	"$BIN" "$@" >"$dir/shared.out" 2>"$dir/shared.err"; b=$?
	if [ "$a" != "$b" ]; then
		fail "$name" "ftc exited $a, ftc-shared $b: $(tail -2 "$dir/shared.err")"
	elif ! cmp -s "$dir/ftc.out" "$dir/shared.out" ||
	     ! cmp -s <(sed 's/ftc-shared/ftc/g' "$dir/shared.err") "$dir/ftc.err"; then
		fail "$name" "the output differs: $(diff "$dir/ftc.out" "$dir/shared.out" | head -4)"
	else
		pass "$name"
	fi
}

same "ftc-shared --version prints what ftc prints" --version
dat=$dir/frozen.dat
setup "import the console log fixture" "$FTC" import -q --kallsyms "$FX/frozen.kallsyms" \
	"$FX/frozen.log" -o "$dat" || finish
same "ftc-shared report prints what ftc report prints" report "$dat"
same "ftc-shared dump prints what ftc dump prints" dump "$dat"
same "ftc-shared list -c names the same compression libraries" list -c
"$BIN" import -q --kallsyms "$FX/frozen.kallsyms" "$FX/frozen.log" -o "$dir/shared.dat" \
	>/dev/null 2>&1
"$FTC" report "$dir/shared.dat" >"$dir/shared-import.out" 2>&1
"$FTC" report "$dat" >"$dir/ftc-import.out" 2>&1
cmp -s "$dir/shared-import.out" "$dir/ftc-import.out" &&
	pass "a trace.dat that ftc-shared imports reads as ftc's" ||
	fail "a trace.dat that ftc-shared imports reads as ftc's" \
		"$(diff "$dir/ftc-import.out" "$dir/shared-import.out" | head -4)"
finish
