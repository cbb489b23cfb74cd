# SPDX-License-Identifier: GPL-2.0-or-later
# A packager runs `make install` with DESTDIR and PREFIX, then a developer
# builds a program against the installed libftc through pkg-config.
. "$(dirname "$0")/../lib.sh"

root=$OUT/install-root
rm -rf "$root"
expect "make install DESTDIR PREFIX" make -s -C "$TOP" install DESTDIR="$root" PREFIX=/usr
for f in usr/bin/ftc usr/lib/libftc.a usr/lib/libftc.so usr/include/ftc/ftc.h \
	 usr/lib/pkgconfig/libftc.pc usr/share/man/man1/ftc.1 \
	 usr/share/bash-completion/completions/ftc; do
	[ -e "$root/$f" ] && pass "installed $f" || fail "installed $f" "missing under $root"
done
for m in $("$FTC" --list-cmds); do
	[ -e "$root/usr/share/man/man1/ftc-$m.1" ] && pass "installed ftc-$m.1" ||
		fail "installed ftc-$m.1" "missing"
done

cat >"$OUT/use-libftc.c" <<'C'
#include <stdio.h>
#include <ftc.h>
int main(void) { printf("%s\n", ftc_version()); return 0; }
C
export PKG_CONFIG_PATH=$root/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root
if cc -o "$OUT/use-libftc" "$OUT/use-libftc.c" $(pkg-config --cflags --libs libftc) \
	$(pkg-config --libs libtracefs libtraceevent libelf libdw zlib libzstd) 2>"$OUT/cc.err"; then
	pass "a program builds against the installed libftc.pc"
	got=$(LD_LIBRARY_PATH=$root/usr/lib "$OUT/use-libftc")
	want=$("$FTC" --version | sed -n 's/^ftc \([^ ]*\).*/\1/p')
	[ "$got" = "$want" ] && pass "installed libftc reports version $want" ||
		fail "installed libftc reports its version" "got '$got', want '$want'"
else
	fail "a program builds against the installed libftc.pc" "$(head -3 "$OUT/cc.err")"
fi
finish
