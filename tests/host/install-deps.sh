# SPDX-License-Identifier: GPL-2.0-or-later
# A packager sets up a build machine with `scripts/install-deps --build`:
# it lists every package the Makefile's libraries (shared and static) come
# from, and none of what only the tests use; without --build the list is
# the whole suite's.
. "$(dirname "$0")/../lib.sh"

DEPS=$TOP/scripts/install-deps
build=$("$DEPS" --build --list)
full=$("$DEPS" --list)
expect_status "install-deps rejects an unknown option with 2" 2 "$DEPS" --bogus

for p in build-essential pkg-config; do
	expect_match "install-deps --build lists $p" "^$p\$" "$build"
done
for p in qemu-system-x86 chromium valgrind clang trace-cmd linux-perf; do
	expect_nomatch "install-deps --build leaves out the tests' $p" "^$p\$" "$build"
	expect_match "install-deps lists the tests' $p" "^$p\$" "$full"
done
missing=$(comm -23 <(sort <<<"$build") <(sort <<<"$full"))
[ -z "$missing" ] && pass "install-deps without --build lists all of --build" ||
	fail "install-deps without --build lists all of --build" "missing: $missing"

if ! command -v dpkg >/dev/null || ! command -v pkg-config >/dev/null; then
	skip "install-deps --build against the Makefile" "needs dpkg and pkg-config"
	finish
fi
owner() { dpkg -S "$1" 2>/dev/null | head -1 | sed 's/:.*//'; }

# The Makefile's pkg-config modules: each .pc file's package is listed.
mods=$(sed -n 's/^PKGS *:= *//p' "$TOP/Makefile")
for m in $mods; do
	pc=$(pkg-config --path "$m" 2>/dev/null)
	pkg=$(owner "$(readlink -f "$pc")")
	[ -n "$pkg" ] || { fail "the package of pkg-config module $m" "no package owns '$pc'"; continue; }
	expect_match "install-deps --build lists $pkg (pkg-config $m)" "^$pkg\$" "$build"
done
# make static: each archive the static link takes comes from a listed package
# (libc's own, -lm and -lpthread, come with build-essential).
for l in $(pkg-config --libs --static $mods | tr ' ' '\n' | sed -n 's/^-l//p' | sort -u); do
	case "$l" in m|pthread|c|dl|rt) continue ;; esac
	a=$(readlink -f "$(cc -print-file-name="lib$l.a")")
	pkg=$(owner "$a")
	[ -n "$pkg" ] || { fail "the package of lib$l.a (make static)" "no package owns '$a'"; continue; }
	expect_match "install-deps --build lists $pkg (lib$l.a for make static)" "^$pkg\$" "$build"
done
finish
