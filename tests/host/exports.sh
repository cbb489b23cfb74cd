# SPDX-License-Identifier: GPL-2.0-or-later
# A program that links libftc.so sees the public API and nothing else:
# every symbol the library exports is an ftc_* function declared in a header
# that `make install` installs (the list comes from the Makefile, `make
# public-headers`), and every function those headers declare is exported.
# The version script libftc/libftc.map lists exactly those functions, each
# named in the NAME of exactly one libftc-*.3 page, and the library exports
# them in its version node. libftc.a, whose internals a static link sees,
# defines no global without the ftc_ prefix.
# The structures those headers define (their layout is ABI) are the options
# structures and value types that Documentation/libftc.md lists, no more
# and no fewer; every other structure is an opaque handle, declared only.
# Reads the built library, the headers, the map, the man pages and the
# document only: no tracefs, no kernel.
. "$(dirname "$0")/../lib.sh"

# sort and comm agree on the order of names whatever the user's locale.
export LC_ALL=C
SO=${LIBFTC_SO:-$TOP/build/default/libftc.so}
LIBA=${LIBFTC_A:-$TOP/build/default/libftc.a}
MAP=${LIBFTC_MAP:-$TOP/libftc/libftc.map}

# The functions declared at file scope in C headers: comments, preprocessor
# lines, attributes, typedefs and struct members left out; the first
# "name(" of each declaration is the function it declares.
declared_functions() {
	awk -v mode=prototypes -f "$TOP/tests/c-decls.awk" "$@" | cut -f1 | sort -u
}

# The structures and unions defined, not just declared, in C headers, as
# "NAME FIRST-MEMBER" (comments left out, blanks squeezed).
defined_structs() {
	awk -v mode=structs -f "$TOP/tests/c-decls.awk" "$@" | sort -u
}

# The names a version script makes global: comments dropped, the entries
# between "global:" and "local:", one a line.
map_globals() {
	sed -e 's|/\*.*\*/||g' "$1" | awk '/^[ \t]*local:/ { g = 0 }
		g { gsub(/[ \t;]+/, " "); n = split($0, w, " "); for (i = 1; i <= n; i++) print w[i] }
		/^[ \t]*global:/ { g = 1 }' | sort
}

# The ftc_ names in the NAME section of each libftc-*.3 page, as "name page".
page_names() {
	for page in "$@"; do
		sed -n '/^\.SH NAME/,/^\.SH /p' "$page" | sed 's/\\-.*//' | tr -c 'A-Za-z0-9_\n' ' ' |
			tr ' ' '\n' | grep '^ftc_' | sed "s|\$| $(basename "$page")|"
	done | sort -u
}

# The structures Documentation/libftc.md lists as options structures and
# value types: the first cells of the table rows under "What is public",
# or with a second argument only those of the table after the paragraph
# that begins with that bold title ("Sized value types.").
documented_structs() {
	awk -v kind="$2" '/^## / { sec = $0 ~ /^## What is public/ }
	/^\*\*/ { cur = $0 }
	sec && /^\| *`struct [A-Za-z0-9_]+`/ && (kind == "" || index(cur, "**" kind "**") == 1) {
		match($0, /`struct [A-Za-z0-9_]+`/)
		print substr($0, RSTART + 8, RLENGTH - 9)
	}' "$1" | sort -u
}

if ! headers=$(make -s --no-print-directory -C "$TOP" public-headers) || [ -z "$headers" ]; then
	fail "the Makefile lists the public headers" "make public-headers printed nothing"
	finish
fi

DOC=${LIBFTC_DOC:-$TOP/Documentation/libftc.md}
structs=$(cd "$TOP" && defined_structs $headers)
documented=$(documented_structs "$DOC")
echo "$(echo "$structs" | grep -c .) structures defined in the public headers," \
	"$(echo "$documented" | grep -c .) listed in $DOC"
[ -n "$documented" ] || fail "libftc.md lists the public structures" "no table row of $DOC names one"

name="every structure a public header defines is a documented value or options type"
extra=$(comm -23 <(echo "$structs" | awk '{ print $1 }') <(echo "$documented"))
[ -z "$extra" ] && pass "$name" ||
	fail "$name" "$(echo "$extra" | wc -l) are not (make them opaque or list them): $(echo $extra |
		cut -c1-600)"

name="every structure libftc.md lists is defined in a public header"
stale=$(comm -13 <(echo "$structs" | awk '{ print $1 }') <(echo "$documented"))
[ -z "$stale" ] && pass "$name" ||
	fail "$name" "$(echo "$stale" | wc -l) in $DOC are not: $(echo $stale | cut -c1-600)"

name="every options structure begins with size_t size"
unsized=$(echo "$structs" | awk '$1 ~ /_opts$/ && !($2 == "size_t" && $3 == "size") { print $1 }')
[ -z "$unsized" ] && pass "$name" || fail "$name" "$(echo $unsized | cut -c1-600)"

name="every sized value type the library fills begins with size_t size"
sized=$(documented_structs "$DOC" "Sized value types.")
if [ -z "$sized" ]; then
	fail "$name" "no table row under **Sized value types.** in $DOC"
else
	unsized=$(echo "$structs" | awk -v list=" $(echo $sized) " \
		'index(list, " " $1 " ") && !($2 == "size_t" && $3 == "size") { print $1 }')
	[ -z "$unsized" ] && pass "$name" || fail "$name" "$(echo $unsized | cut -c1-600)"
fi

# --- The version script against the headers and the man pages -------------
declared=$(cd "$TOP" && declared_functions $headers)
if [ ! -f "$MAP" ]; then
	fail "the version script exists" "no $MAP"
	mapped=
else
	mapped=$(map_globals "$MAP")
	echo "$(echo "$mapped" | grep -c .) functions in $(basename "$MAP")"
	dup=$(echo "$mapped" | uniq -d)
	[ -z "$dup" ] && pass "the version script names each function once" ||
		fail "the version script names each function once" "twice: $(echo $dup | cut -c1-600)"
	name="every function of the version script is declared FTC_API in a public header"
	stale=$(comm -23 <(echo "$mapped" | uniq) <(echo "$declared"))
	[ -z "$stale" ] && pass "$name" ||
		fail "$name" "$(echo "$stale" | wc -l) are not: $(echo $stale | cut -c1-600)"
	name="every FTC_API function is in the version script"
	missing=$(comm -13 <(echo "$mapped" | uniq) <(echo "$declared"))
	[ -z "$missing" ] && pass "$name" ||
		fail "$name" "$(echo "$missing" | wc -l) are not: $(echo $missing | cut -c1-600)"
	name="the version script makes everything else local"
	sed -e 's|/\*.*\*/||g' "$MAP" | tr -d ' \t\n' | grep -q 'local:\*;};$' && pass "$name" ||
		fail "$name" "$(basename "$MAP") does not end with local: *; };"
fi

pages=$(ls "$TOP"/Documentation/libftc-*.3 2>/dev/null)
named=$(page_names $pages)
name="every exported function is named in exactly one libftc-*.3 page"
bad=$(echo "$mapped" | uniq | while read -r f; do
	[ -n "$f" ] || continue
	n=$(echo "$named" | awk -v f="$f" '$1 == f' | wc -l)
	[ "$n" = 1 ] || echo "$f($n)"
done)
[ -z "$bad" ] && pass "$name" ||
	fail "$name" "$(echo "$bad" | wc -l) are not (name(pages)): $(echo $bad | cut -c1-600)"
name="every function a libftc-*.3 page names is exported"
stale=$(comm -23 <(echo "$named" | awk '{ print $1 }' | sort -u) <(echo "$mapped" | uniq))
[ -z "$stale" ] && pass "$name" ||
	fail "$name" "$(echo "$stale" | wc -l) are not: $(echo $stale | cut -c1-600)"

# --- libftc.a: what a static link sees -------------------------------------
if ! command -v nm >/dev/null; then
	skip "libftc.a and libftc.so exports" "nm (binutils) is not installed"
	finish
fi
name="libftc.a defines no global symbol without the ftc_ prefix"
if [ -f "$LIBA" ]; then
	bad=$(nm -g --defined-only "$LIBA" | awk 'NF == 3 && $3 !~ /^ftc_/ { print $3 }' | sort -u)
	[ -z "$bad" ] && pass "$name" ||
		fail "$name" "$(echo "$bad" | wc -l) without it (static or ftc_): $(echo $bad | cut -c1-600)"
else
	skip "$name" "$LIBA is not built (make)"
fi

# --- libftc.so: what a dynamic link sees -----------------------------------
if [ ! -f "$SO" ]; then
	skip "libftc.so exports" "$SO is not built (make)"
	finish
fi
# The linker's own markers are not the library's, nor is the absolute
# symbol that names a version node; "name@@NODE" is a versioned symbol.
dyn=$(nm -D --defined-only --with-symbol-versions "$SO" |
	awk 'NF == 3 && !($2 == "A" && $3 ~ /^LIBFTC_[0-9]+(@|$)/) { print $3 }' |
	grep -v -e '^_init\(@\|$\)' -e '^_fini\(@\|$\)' -e '^_edata\(@\|$\)' \
		-e '^_end\(@\|$\)' -e '^__bss_start\(@\|$\)' | sort -u)
exported=$(echo "$dyn" | sed 's/@.*//' | sort -u)
node=$(sed -e 's|/\*.*\*/||g' "$MAP" 2>/dev/null | awk '/^[ \t]*[A-Za-z_][A-Za-z0-9_.]*[ \t]*\{/ { print $1; exit }')
name="every exported symbol carries the version script's node${node:+ ($node)}"
unversioned=$(echo "$dyn" | grep -v "@@\?$node\$")
[ -n "$node" ] && [ -z "$unversioned" ] && pass "$name" ||
	fail "$name" "$(echo "$unversioned" | grep -c .) do not (linked without -Wl,--version-script?): $(echo $unversioned | cut -c1-600)"
echo "$(echo "$exported" | grep -c .) symbols exported, $(echo "$declared" | grep -c .) functions declared in: $(echo $headers)"

bad=$(echo "$exported" | grep -v '^ftc_')
[ -z "$bad" ] && pass "every exported symbol has the ftc_ prefix" ||
	fail "every exported symbol has the ftc_ prefix" \
		"$(echo "$bad" | wc -l) without it: $(echo $bad | cut -c1-600)"

extra=$(comm -23 <(echo "$exported") <(echo "$declared"))
[ -z "$extra" ] && pass "every exported symbol is declared in a public header" ||
	fail "every exported symbol is declared in a public header" \
		"$(echo "$extra" | wc -l) are not: $(echo $extra | cut -c1-600)"

missing=$(comm -13 <(echo "$exported") <(echo "$declared"))
[ -z "$missing" ] && pass "every function of the public headers is exported" ||
	fail "every function of the public headers is exported" \
		"$(echo "$missing" | wc -l) are not (FTC_API missing?): $(echo $missing | cut -c1-600)"
finish
