# SPDX-License-Identifier: GPL-2.0-or-later
# The ftc_ prefix is libftc's: a symbol that ftc's command (cmd/) defines
# never takes it, so that a reader (or a linker) can tell at a glance which
# side of the API a name is on, and no cmd/ symbol can collide with the
# library it links. Reads the built objects with nm only: no tracefs, no
# kernel, safe anywhere.
. "$(dirname "$0")/../lib.sh"

B=${FTC_BUILD_DIR:-$TOP/build/default}
LIB=$B/libftc.a

if ! command -v nm >/dev/null; then
	skip "cmd/ symbol names" "nm (binutils) is not installed"
	finish
fi
objs=$(ls "$B"/cmd/*.o 2>/dev/null)
if [ -z "$objs" ] || [ ! -f "$LIB" ]; then
	skip "cmd/ symbol names" "$B/cmd/*.o or $LIB is not built (make)"
	finish
fi

# Every symbol the objects define, global or static, as "TYPE NAME".
# gcc's clones (name.part.0, name.cold, name.constprop.0) keep the name
# they were cloned from.
defined() { nm --defined-only "$@" 2>/dev/null | awk 'NF == 3 { sub(/\..*/, "", $3); print $2, $3 }' | sort -u; }

cmd_syms=$(defined $objs)
# libftc's static inline helpers, compiled into a cmd/ object when not
# inlined, are the library's names, not cmd/'s.
inline=$(sed -nE 's/^static inline .*[ *](ftc_[a-z0-9_]+)\(.*/\1/p' $(find "$TOP/libftc" -name '*.h') | sort -u)
bad=$(echo "$cmd_syms" | awk '$2 ~ /^ftc_/ { print $2 }' | sort -u | comm -23 - <(echo "$inline"))
[ -z "$bad" ] && pass "no symbol defined in cmd/ starts with ftc_" ||
	fail "no symbol defined in cmd/ starts with ftc_" \
		"$(echo "$bad" | wc -l): $(echo $bad | cut -c1-600)"

cmd_globals=$(echo "$cmd_syms" | awk '$1 ~ /^[A-Z]$/ && $1 != "U" { print $2 }' | sort -u)
lib_globals=$(defined "$LIB" | awk '$1 ~ /^[A-Z]$/ && $1 != "U" { print $2 }' | sort -u)
echo "$(echo "$cmd_globals" | grep -c .) global symbols in cmd/, $(echo "$lib_globals" | grep -c .) in libftc.a"
both=$(comm -12 <(echo "$cmd_globals") <(echo "$lib_globals"))
[ -z "$both" ] && pass "no cmd/ global collides with a libftc.a one" ||
	fail "no cmd/ global collides with a libftc.a one" "$(echo $both | cut -c1-600)"
finish
