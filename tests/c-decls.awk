# SPDX-License-Identifier: GPL-2.0-or-later
# What C headers (or a man page's SYNOPSIS as C text) declare, for the API
# checks (tests/host/exports.sh, tests/host/examples.sh):
#   awk -v mode=prototypes -f c-decls.awk FILE...: one line per function
#     declared at file scope, "name<TAB>declaration" with blanks normalized
#     (comments, preprocessor lines, attributes, FTC_API and typedefs left
#     out; the first "name(" of a declaration is the function it declares);
#   awk -v mode=structs -f c-decls.awk FILE...: the structures and unions
#     defined, not just declared, as "NAME FIRST-MEMBER".
function norm(s) {
	gsub(/[ \t\n]+/, " ", s)
	gsub(/ *\* */, "*", s); gsub(/ *\( */, "(", s); gsub(/ *\) */, ")", s)
	gsub(/ *, */, ",", s); sub(/^ /, "", s); sub(/ $/, "", s)
	return s
}

function strip_comments(text,    i, j, rest) {
	while ((i = index(text, "/*")) > 0) {
		rest = substr(text, i + 2)
		j = index(rest, "*/")
		text = substr(text, 1, i - 1) " " (j ? substr(rest, j + 2) : "")
	}
	gsub(/\/\/[^\n]*/, "", text)
	return text
}

function prototypes(text,    n, lines, code, cont, skip, k, l, ns, stmts, s, rest, name, after) {
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
		gsub(/FTC_API[ \t]+/, "", s)
		if (s ~ /(^|[^A-Za-z0-9_])typedef[^A-Za-z0-9_]/)
			continue
		rest = s
		while (match(rest, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
			name = substr(rest, RSTART, RLENGTH)
			after = substr(rest, RSTART + RLENGTH)
			sub(/[ \t]*\($/, "", name)
			if (after !~ /^[ \t]*\*/) {
				print name "\t" norm(s)
				break
			}
			rest = after
		}
	}
}

function structs(text,    name, first) {
	gsub(/[ \t\n]+/, " ", text)
	while (match(text, /(struct|union) [A-Za-z_][A-Za-z0-9_]* ?\{/)) {
		name = substr(text, RSTART, RLENGTH)
		text = substr(text, RSTART + RLENGTH)
		sub(/^(struct|union) /, "", name)
		sub(/ ?\{$/, "", name)
		first = substr(text, 1, index(text, ";") - 1)
		gsub(/^ | $/, "", first)
		print name, first
	}
}

{ text = text $0 "\n" }
END {
	text = strip_comments(text)
	if (mode == "structs")
		structs(text)
	else
		prototypes(text)
}
