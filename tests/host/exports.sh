# SPDX-License-Identifier: GPL-2.0-or-later
# A program that links libftc.so sees the public API and nothing else:
# every symbol the library exports is an ftc_* function declared in a header
# that `make install` installs (the list comes from the Makefile, `make
# public-headers`), and every function those headers declare is exported.
# Reads the built library and the headers only: no tracefs, no kernel.
. "$(dirname "$0")/../lib.sh"

SO=${LIBFTC_SO:-$TOP/build/default/libftc.so}

# The functions declared at file scope in C headers: comments, preprocessor
# lines, attributes, typedefs and struct members left out; the first
# "name(" of each declaration is the function it declares.
declared_functions() {
	awk '
	{ text = text $0 "\n" }
	END {
		while ((i = index(text, "/*")) > 0) {
			rest = substr(text, i + 2)
			j = index(rest, "*/")
			text = substr(text, 1, i - 1) " " (j ? substr(rest, j + 2) : "")
		}
		gsub(/\/\/[^\n]*/, "", text)
		n = split(text, lines, "\n")
		code = ""; cont = 0
		for (k = 1; k <= n; k++) {
			l = lines[k]
			skip = cont || l ~ /^[ \t]*#/
			cont = skip && l ~ /\\$/
			if (!skip)
				code = code " " l
		}
		ns = split(code, stmts, ";")
		for (k = 1; k <= ns; k++) {
			s = stmts[k]
			sub(/^.*[{}]/, "", s)
			gsub(/__attribute__[ \t]*\(\(.*\)\)/, "", s)
			if (s ~ /(^|[^A-Za-z0-9_])typedef[^A-Za-z0-9_]/)
				continue
			while (match(s, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
				name = substr(s, RSTART, RLENGTH)
				after = substr(s, RSTART + RLENGTH)
				sub(/[ \t]*\($/, "", name)
				if (after !~ /^[ \t]*\*/) {
					print name
					break
				}
				s = after
			}
		}
	}' "$@" | sort -u
}

if [ ! -f "$SO" ]; then
	skip "libftc.so exports" "$SO is not built (make)"
	finish
fi
if ! command -v nm >/dev/null; then
	skip "libftc.so exports" "nm (binutils) is not installed"
	finish
fi
if ! headers=$(make -s --no-print-directory -C "$TOP" public-headers) || [ -z "$headers" ]; then
	fail "the Makefile lists the public headers" "make public-headers printed nothing"
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
