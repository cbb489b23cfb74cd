# SPDX-License-Identifier: GPL-2.0-or-later
# A user profiles a stripped program: its hot spot shows as dso+offset, and
# as the function's name once a separate debug file (.gnu_debuglink) is
# beside it; and the offset shown is the one the symbol table gives.
. "$(dirname "$0")/../lib.sh"

for t in cc strip objcopy nm; do
	command -v $t >/dev/null || { skip "stripped symbols" "$t is not installed"; finish; }
done
d=$OUT/symbols
mkdir -p "$d"
cat >"$d/spin.c" <<'C'
#include <time.h>
static volatile unsigned long sink;
__attribute__((noinline)) static void spin_here(void)
{
	struct timespec t0, t;
	unsigned long x = 1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			x = x * 6364136223846793005UL + 1;
		sink = x;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < 400);
}
int main(void)
{
	spin_here();
	return 0;
}
C
cc -g -O1 -o "$d/spin.full" "$d/spin.c" || { fail "build spin" "cc failed"; finish; }
cp "$d/spin.full" "$d/spin"; strip --strip-all "$d/spin"
objcopy --only-keep-debug "$d/spin.full" "$d/spin2.debug"
cp "$d/spin" "$d/spin2"; objcopy --add-gnu-debuglink="$d/spin2.debug" "$d/spin2"
knobs_save

# A static function in a stripped file: no name anywhere, so dso+offset.
top=$("$FTC" profile -e cpu-clock:u -F 1000 -- "$d/spin" 2>/dev/null | grep -m1 '%')
expect_match "stripped: the hot spot is dso+offset" '\[\.\] spin\+0x[0-9a-f]+$' "$top"
off=$(printf '%d' "$(echo "$top" | sed 's/.*spin+//')")
set -- $(nm -S "$d/spin.full" | awk '$4 == "spin_here" { print $1, $2 }')
start=$((16#${1:-0})); size=$((16#${2:-0}))
# The executable PT_LOAD maps file offsets to vaddrs: vaddr = offset + (vaddr - offset).
set -- $(readelf -lW "$d/spin.full" | awk '$1 == "LOAD" && / R?W?E / { print $2, $3; exit }')
vo=$(( ${2:-0} - ${1:-0} ))
if [ -n "$start" ] && [ $((off + vo)) -ge "$start" ] && [ $((off + vo)) -lt $((start + size)) ]; then
	pass "stripped: the offset falls inside spin_here per nm"
else
	fail "stripped: the offset falls inside spin_here per nm" "offset $off (+$vo), spin_here at $start size $size"
fi
top=$("$FTC" profile -e cpu-clock:u -F 1000 -- "$d/spin2" 2>/dev/null | grep -m1 '%')
expect_match "debug file by .gnu_debuglink: the name is back" '\[\.\] spin_here$' "$top"
knobs_unchanged "ftc profile symbols"
finish
