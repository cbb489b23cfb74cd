# SPDX-License-Identifier: GPL-2.0-or-later
# A user counts page faults and syscalls of fixed programs with ftc stat and
# with perf stat: the deterministic counts agree within 1%.
. "$(dirname "$0")/../lib.sh"

command -v perf >/dev/null || { skip "stat counts vs perf" "perf is not installed (apt install linux-perf)"; finish; }
command -v cc >/dev/null || { skip "stat counts vs perf" "no C compiler to build the fixed programs"; finish; }

# A program touching N fresh pages: N page faults plus its start-up's.
cat >"$OUT/touch-pages.c" <<'C'
#include <stdlib.h>
#include <sys/mman.h>
int main(int argc, char **argv)
{
	long n = atol(argv[1]), page = 4096;
	char *p = mmap(NULL, n * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	for (long i = 0; i < n; i++)
		p[i * page] = 1;
	return 0;
}
C
# A program calling getppid() N times (through syscall(), so no libc cache).
cat >"$OUT/getppid-loop.c" <<'C'
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	long n = atol(argv[1]);
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	return argc > 2 ? atoi(argv[2]) : 0;
}
C
cc -O1 -o "$OUT/touch-pages" "$OUT/touch-pages.c" || { fail "build touch-pages" "cc failed"; finish; }
cc -O1 -o "$OUT/getppid-loop" "$OUT/getppid-loop.c" || { fail "build getppid-loop" "cc failed"; finish; }

knobs_save

# value EVENT FILE: the count of EVENT in a CSV output (first field).
value() { awk -F';' -v e="$1" '$3 == e { print $1; exit }' "$2"; }

# within_1pct NAME A B
within_1pct() {
	if [ -n "$2" ] && [ -n "$3" ] && awk -v a="$2" -v b="$3" \
		'BEGIN { d = a - b; if (d < 0) d = -d; m = a > b ? a : b; exit !(m > 0 && d <= m / 100) }'
	then pass "$1 ($2 vs perf $3)"; else fail "$1" "ftc $2, perf $3: not within 1%"; fi
}

"$FTC" stat -x';' -e page-faults -- "$OUT/touch-pages" 20000 2>"$OUT/ftc-pf.csv"
perf stat -x';' -e page-faults -- "$OUT/touch-pages" 20000 2>"$OUT/perf-pf.csv"
f=$(value page-faults "$OUT/ftc-pf.csv"); p=$(value page-faults "$OUT/perf-pf.csv")
within_1pct "page faults of 20000 touched pages agree with perf stat" "$f" "$p"
[ "${f:-0}" -ge 20000 ] && pass "page faults count every touched page ($f >= 20000)" ||
	fail "page faults count every touched page" "got '$f'"

ev=syscalls:sys_enter_getppid
if [ -d "$TRACEFS/events/syscalls/sys_enter_getppid" ]; then
	"$FTC" stat -x';' -e $ev -- "$OUT/getppid-loop" 100000 2>"$OUT/ftc-tp.csv"
	perf stat -x';' -e $ev -- "$OUT/getppid-loop" 100000 2>"$OUT/perf-tp.csv"
	f=$(value $ev "$OUT/ftc-tp.csv"); p=$(value $ev "$OUT/perf-tp.csv")
	within_1pct "getppid tracepoint count agrees with perf stat" "$f" "$p"
	[ "$f" = 100000 ] && pass "getppid() 100000 times counts exactly 100000" ||
		fail "getppid() 100000 times counts exactly 100000" "got '$f'"

	# A glob expands to every matching tracepoint; all are shown, zeros too.
	"$FTC" stat -x';' -e 'syscalls:sys_enter_getp*' -- \
		"$OUT/getppid-loop" 1000 2>"$OUT/ftc-glob.csv"
	want=$(ls -d "$TRACEFS"/events/syscalls/sys_enter_getp* | wc -l)
	got=$(grep -c ';syscalls:sys_enter_getp' "$OUT/ftc-glob.csv")
	[ "$got" = "$want" ] && pass "glob expands to all $want matching tracepoints" ||
		fail "glob expands to all matching tracepoints" "got $got lines, want $want"
	expect_match "glob member counts the loop" '^1000;;syscalls:sys_enter_getppid;' "$(cat "$OUT/ftc-glob.csv")"
	expect_match "a tracepoint with no hits shows 0" '^0;;syscalls:sys_enter_getpgrp;' "$(cat "$OUT/ftc-glob.csv")"

	# Inherited by children: a shell running the loop twice counts both.
	"$FTC" stat -x';' -e $ev -- sh -c "'$OUT/getppid-loop' 500; '$OUT/getppid-loop' 700" 2>"$OUT/ftc-inh.csv"
	f=$(value $ev "$OUT/ftc-inh.csv")
	[ "${f:-0}" -ge 1200 ] && [ "${f:-0}" -le 1210 ] && pass "children are counted (1200 getppid, got $f)" ||
		fail "children are counted" "want ~1200, got '$f'"

	# -r repeats and the mean of a fixed count has no spread.
	"$FTC" stat -r 3 -x';' -e $ev -- "$OUT/getppid-loop" 1000 2>"$OUT/ftc-rep.csv"
	expect_match "-r 3: mean count and 0% spread" '^1000;;syscalls:sys_enter_getppid;0\.00%;' "$(cat "$OUT/ftc-rep.csv")"
else
	skip "getppid tracepoint count" "no syscalls:sys_enter_getppid in $TRACEFS/events"
fi

# The command's exit status is ftc stat's.
expect_status "the command's exit status is passed on" 7 "$FTC" stat -e page-faults -- "$OUT/getppid-loop" 1 7
expect_status "a command that cannot run exits 127" 127 "$FTC" stat -- "$OUT/no-such-program"
expect_match "a command that cannot run is named" "cannot run '.*no-such-program'" "$(cat "$OUT/last.err")"

knobs_unchanged "ftc stat"
finish
