# SPDX-License-Identifier: GPL-2.0-or-later
# libftc's folders are the steps of the data path (Documentation/design.md):
# a folder may use the folders below it, never one above, so the folders
# form no cycle. Two kinds of use are checked: a function one folder's
# objects call and another's define (nm of the built objects), and an
# internal header one folder includes from another. Files form no cycle
# either, inside a folder or across. libftc/ itself holds
# only the public headers. Reads the build and the sources: no tracefs.
. "$(dirname "$0")/../lib.sh"

OBJ=${LIBFTC_OBJ:-$TOP/build/default/libftc}
D=$OUT/layers
rm -rf "$D"; mkdir -p "$D"

if ! command -v nm >/dev/null || ! command -v tsort >/dev/null; then
	skip "libftc folders" "nm (binutils) or tsort (coreutils) is not installed"
	finish
fi
if ! ls "$OBJ"/*/*.o >/dev/null 2>&1; then
	skip "libftc folders" "$OBJ/*/*.o are not built (make)"
	finish
fi

stray=$(cd "$TOP/libftc" && ls | while read -r f; do
	[ -d "$f" ] || case $f in ftc*.h | libftc.pc.in | libftc.map) ;; *) echo "$f" ;; esac
done)
[ -z "$stray" ] && pass "libftc/ holds only the public headers, the code is in folders" ||
	fail "libftc/ holds only the public headers, the code is in folders" "at the top: $(echo $stray)"

folders=$(cd "$TOP/libftc" && find . -mindepth 1 -maxdepth 1 -type d | sed 's|^\./||' | sort)

# "symbol folder" lines: what each folder's objects define, and use.
for f in $folders; do
	for o in "$OBJ/$f"/*.o; do
		[ -f "$o" ] || continue
		nm -g --defined-only "$o" | awk -v f="$f" 'NF == 3 { print $3, f }' >>"$D/defs"
		nm -u "$o" | awk -v f="$f" '{ print $NF, f }' >>"$D/uses"
	done
done
sort -u -o "$D/defs" "$D/defs"; sort -u -o "$D/uses" "$D/uses"
# "user definer symbol", across folders only.
join "$D/uses" "$D/defs" | awk '$2 != $3 { print $2, $3, $1 }' | sort -u >"$D/calls"

# Internal headers: included by name, found in exactly one folder.
for f in $folders; do
	for h in "$TOP/libftc/$f"/*.h; do [ -f "$h" ] && echo "$(basename "$h") $f"; done
done | sort >"$D/headers"
for f in $folders; do
	grep -H -o '^#include "[^"]*"' "$TOP/libftc/$f"/*.[ch] 2>/dev/null |
		sed -E 's|^.*/([^/:]*):#include "(.*)"|\2 \1|' | awk -v f="$f" '{ print $1, f, $2 }'
done | sort >"$D/includes"
# "user definer header (file)", across folders only.
join "$D/includes" "$D/headers" | awk '$2 != $4 { print $2, $4, $1 " (" $3 ")" }' | sort -u >"$D/incl"

[ -s "$D/calls" ] && pass "the folders' objects call each other ($(wc -l <"$D/calls") cross-folder calls)" ||
	fail "the folders' objects call each other" "no cross-folder call found: is $OBJ the build?"

# edges_of FILE: "a b" pairs, one per folder pair.
edges_of() { awk '{ print $1, $2 }' "$1" | sort -u; }
cat <(edges_of "$D/calls") <(edges_of "$D/incl") | sort -u >"$D/edges"
echo "folder uses (user -> used): $(awk '{ printf "%s->%s ", $1, $2 }' "$D/edges")"

# tsort names a loop on stderr; the example call or include shows why.
if tsort "$D/edges" >"$D/order" 2>"$D/loop"; then
	pass "no cycle between libftc's folders (bottom up: $(tac "$D/order" | tr '\n' ' '))"
else
	why=$(grep -v 'input contains a loop' "$D/loop" | sed 's/^tsort: //' | sort -u | tr '\n' ' ')
	ex=""
	for a in $why; do
		for b in $why; do
			l=$(awk -v a="$a" -v b="$b" '$1 == a && $2 == b { print; exit }' "$D/calls" "$D/incl")
			[ -n "$l" ] && ex="$ex; $l"
		done
	done
	fail "no cycle between libftc's folders" "loop through: $why(user, used, by what$ex)"
fi

# Files: inside libftc no file calls a function of another that, directly
# or through a chain, calls back into the first. A hub file holding both
# the shared helpers and the code that calls the others makes such a loop;
# its helpers belong in a file below. "file symbol" lines, as for folders.
for o in "$OBJ"/*/*.o; do
	f=${o#"$OBJ"/}; f=${f%.o}.c
	[ -f "$TOP/libftc/$f" ] || continue	# a stale object of a moved file
	nm -g --defined-only "$o" | awk -v f="$f" 'NF == 3 { print $3, f }' >>"$D/fdefs"
	nm -u "$o" | awk -v f="$f" '{ print $NF, f }' >>"$D/fuses"
done
sort -u -o "$D/fdefs" "$D/fdefs"; sort -u -o "$D/fuses" "$D/fuses"
# "user definer symbol", between files.
join "$D/fuses" "$D/fdefs" | awk '$2 != $3 { print $2, $3, $1 }' | sort -u >"$D/fcalls"
# Strongly connected components (Tarjan): one line per loop of two or
# more files, its files then each call inside it.
awk '
function visit(v,   i, w, c, s) {
	idx[v] = low[v] = ++n; stk[++sp] = v; on[v] = 1
	for (i = 1; i <= deg[v]; i++) {
		w = adj[v, i]
		if (!(w in idx)) { visit(w); if (low[w] < low[v]) low[v] = low[w] }
		else if (on[w] && idx[w] < low[v]) low[v] = idx[w]
	}
	if (low[v] != idx[v]) return
	c = 0; s = ""
	do { w = stk[sp--]; on[w] = 0; comp[w] = v; c++; s = s " " w } while (w != v)
	if (c > 1) { size[v] = c; files[v] = s }
}
{ if (!seen[$1, $2]++) adj[$1, ++deg[$1]] = $2; node[$1]; node[$2]; call[NR] = $0 }
END {
	for (v in node) if (!(v in idx)) visit(v)
	for (r in size) {
		line = "loop of " size[r] " files:" files[r] " ("
		for (k = 1; k <= NR; k++) {
			split(call[k], e, " ")
			if (comp[e[1]] == r && comp[e[2]] == r) line = line " " e[1] "->" e[2] " " e[3] ";"
		}
		print line " )"
	}
}' "$D/fcalls" | sort >"$D/floops"
[ -s "$D/fcalls" ] || fail "libftc's files call each other" "no call between files found"
if [ -s "$D/floops" ]; then
	fail "no cycle between libftc's files" "$(wc -l <"$D/floops") loops: $(cat "$D/floops")"
else
	pass "no cycle between libftc's files ($(wc -l <"$D/fcalls") calls between files)"
fi

# The library stays quiet: no signal handler, no environment, no printing
# of its own (Documentation/libftc.md); the program owns all three. What
# its objects call is checked; fprintf/fputs/fwrite stay allowed, for they
# write to a FILE the caller gives. Two forked children set their own
# dispositions before they run: workload.c's child before exec (SIG_DFL;
# sigaction to read SIGHUP's, for nohup's SIG_IGN stays),
# the guardian in state-guard.c (SIG_IGN and an empty mask, for it must
# outlive Ctrl-C to its owner's group); nothing else may.
quiet_allowed="control/state-guard.c signal
control/state-guard.c sigprocmask
control/workload.c sigaction
control/workload.c signal"
for o in "$OBJ"/*/*.o; do
	f=${o#"$OBJ"/}; f=${f%.o}.c
	[ -f "$TOP/libftc/$f" ] || continue	# a stale object of a moved file
	nm -u "$o" | awk -v f="$f" '$NF ~ /^(getenv|secure_getenv|sigaction|signal|sigset|bsd_signal|sysv_signal|sigprocmask|stdout|stderr|stdin|printf|__printf_chk|vprintf|__vprintf_chk|puts|putchar|perror|psignal|psiginfo|warn|warnx|err|errx|error|error_at_line)$/ { print f, $NF }'
done | sort >"$D/loud"
loud=$(printf '%s\n' "$quiet_allowed" | sort | comm -23 "$D/loud" -)
[ -z "$loud" ] && pass "libftc installs no signal handler, reads no environment and prints nothing of its own ($(wc -l <"$D/loud") allowed uses in forked children)" ||
	fail "libftc installs no signal handler, reads no environment and prints nothing of its own" "$(echo $loud)"

# Each folder is a step the design document names.
for f in $folders; do
	grep -q "libftc/$f/" "$TOP/Documentation/design.md" &&
		pass "Documentation/design.md names libftc/$f/" ||
		fail "Documentation/design.md names libftc/$f/" "add the folder to its data-path map"
done
finish
