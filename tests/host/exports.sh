# SPDX-License-Identifier: GPL-2.0-or-later
# A program that links libftc.so sees the public API and nothing else:
# every symbol the library exports is an ftc_* function declared in a header
# that `make install` installs (the list comes from the Makefile, `make
# public-headers`), and every function those headers declare is exported.
# The structures those headers define (their layout is ABI) are the options
# structures and value types that Documentation/libftc.md lists, no more
# and no fewer; every other structure is an opaque handle, declared only.
# Reads the built library, the headers and the document only: no tracefs,
# no kernel.
. "$(dirname "$0")/../lib.sh"

SO=${LIBFTC_SO:-$TOP/build/default/libftc.so}

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

# The structures Documentation/libftc.md lists as options structures and
# value types: the first cells of the table rows under "What is public".
documented_structs() {
	awk '/^## / { sec = $0 ~ /^## What is public/ }
	sec && /^\| *`struct [A-Za-z0-9_]+`/ {
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

if [ ! -f "$SO" ]; then
	skip "libftc.so exports" "$SO is not built (make)"
	finish
fi
if ! command -v nm >/dev/null; then
	skip "libftc.so exports" "nm (binutils) is not installed"
	finish
fi
declared=$(cd "$TOP" && declared_functions $headers)
# The linker's own markers are not the library's.
exported=$(nm -D --defined-only "$SO" | awk 'NF == 3 { print $3 }' |
	grep -v -x -e _init -e _fini -e _edata -e _end -e __bss_start | sort -u)
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
