# SPDX-License-Identifier: GPL-2.0-or-later
# A user counts a tracepoint with ftc stat inside an ftc record of the same
# run: the count equals the number of those events in the capture (as ftc
# report and trace-cmd report see it).
. "$(dirname "$0")/../lib.sh"

"$FTC" --list-cmds | grep -qx record || { skip "stat vs record" "this ftc has no record command"; finish; }
[ -d "$TRACEFS/events/syscalls/sys_enter_getppid" ] || { skip "stat vs record" "no syscalls:sys_enter_getppid"; finish; }
command -v cc >/dev/null || { skip "stat vs record" "no C compiler"; finish; }
cat >"$OUT/getppid-rec.c" <<'C'
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	for (long i = 0, n = atol(argv[1]); i < n; i++)
		syscall(SYS_getppid);
	return 0;
}
C
cc -O1 -o "$OUT/getppid-rec" "$OUT/getppid-rec.c" || { fail "build getppid-rec" "cc failed"; finish; }
knobs_save
inst=$(test_instance statrec)
ev=syscalls:sys_enter_getppid
# ftc record follows ftc stat and its children (-F -c) in a private instance.
timeout 120 "$FTC" record -q -F -c -B "$inst" -e $ev -o "$OUT/statrec.dat" -- \
	"$FTC" stat -x';' -e $ev -o "$OUT/statrec.csv" -- "$OUT/getppid-rec" 5000
rc=$?
[ $rc = 0 ] && pass "ftc record of ftc stat exits 0" || fail "ftc record of ftc stat exits 0" "exited $rc"
counted=$(awk -F';' '$3 == "'$ev'" { print $1 }' "$OUT/statrec.csv")
# Only the program's own events: an instrumented ftc (ASan's leak checker
# calls getppid) may add some of its own to the capture.
captured=$("$FTC" report -i "$OUT/statrec.dat" --comm getppid-rec 2>/dev/null | grep -c 'sys_enter_getppid')
[ -n "$counted" ] && [ "$counted" = "$captured" ] &&
	pass "ftc stat count equals the events in the capture ($counted)" ||
	fail "ftc stat count equals the events in the capture" "stat '$counted', capture '$captured'"
if command -v trace-cmd >/dev/null; then
	tc=$(trace-cmd report "$OUT/statrec.dat" 2>/dev/null | grep 'getppid-rec' | grep -c 'sys_enter_getppid')
	[ "$tc" = "$counted" ] && pass "trace-cmd report agrees ($tc)" ||
		fail "trace-cmd report agrees" "trace-cmd '$tc', stat '$counted'"
else
	skip "trace-cmd report agrees" "trace-cmd is not installed"
fi
[ -d "$TRACEFS/instances/$inst" ] && fail "instance removed" "$inst left behind" || pass "instance removed"
knobs_unchanged "ftc stat under ftc record"
finish
