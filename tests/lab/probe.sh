#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Dynamic probes where the kernel has kprobes and eprobes (issue 16): in one
# boot, a kprobe and a kretprobe with arguments on do_sys_openat2, on a
# function of the lab's module (tests/lab/module, ftclab: its chain runs N
# times for each N written to /proc/ftclab, so the values are exact), an
# eprobe on the module's event, probes left by nothing once the commands
# end, and the kernel's error_log with its caret for specs it rejects.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

NAME="lab probe"
lab_module "$NAME" || finish
KO=$LAB_KO

LAB_TIMEOUT=${LAB_TIMEOUT_PROBE:-120} lab_run probe - "$KO=/lab/ftclab.ko" <<'EOF' || finish
T=/sys/kernel/tracing
# vals FILE EVENT: the values of EVENT's records, one line each
# (the probe address, "(ip)", that k/uprobes print first, left out)
vals() { ftc report -i "$1" | grep " $2: " | sed -e 's/^.*: //' -e 's/^ *//' -e 's/^([^)]*) *//'; }
insmod /lab/ftclab.ko
echo hello >/tmp/hello.txt
echo "== check"
ftc check 2>/dev/null | grep -E '^(kprobes|eprobes) '
echo "== kernel"
ftc record -q -F -o /tmp/k.dat \
	--probe 'do_sys_openat2 dfd=$arg1:s32 path=+0($arg2):ustring' \
	--probe 'do_sys_openat2%return ret=$retval:s32' -- cat /tmp/hello.txt
echo "status=$?"
vals /tmp/k.dat do_sys_openat2 | grep hello.txt
vals /tmp/k.dat do_sys_openat2__return | sort -u
echo "left=$(grep -c '^.:ftc/' $T/kprobe_events)"
echo "== module"
i=$(cat /proc/ftclab)
echo "iter=$i"
ftc record -q -F -o /tmp/m.dat --probe 'ftclab:ftclab_step_b x=$arg1:u32' \
	--probe 'ftclab:ftclab_step_b%return r=$retval:u32' -- sh -c 'echo 3 >/proc/ftclab'
echo "status=$?"
vals /tmp/m.dat ftclab_step_b
vals /tmp/m.dat ftclab_step_b__return
echo "left=$(grep -c '^.:ftc/' $T/kprobe_events)"
echo "== eprobe"
i=$(cat /proc/ftclab)
echo "iter=$i"
ftc record -q -F -o /tmp/e.dat --probe 'e:ftclab:ftclab_done it=$iter:u32 res=$result:u32' \
	-- sh -c 'echo 2 >/proc/ftclab'
echo "status=$?"
vals /tmp/e.dat ftclab_done
echo "left=$(grep -c '^e:ftc/' $T/dynamic_events)"
echo "== add"
ftc probe add 'ftclab:ftclab_run' 'vfs_read%return $retval'; echo "status=$?"
ftc probe list | cut -f1
ftc probe del 'ftc:*'; echo "status=$?"
echo "left=$(grep -c '^.:ftc/' $T/kprobe_events)"
echo "== reset"
echo 'p:other/keep_me vfs_write' >>$T/kprobe_events
ftc probe add 'vfs_read' >/dev/null; echo "status=$?"
ftc reset -q --keep-probes; echo "status=$?"
echo "kept=$(grep -c '^.:ftc/' $T/kprobe_events)"
ftc reset >/tmp/reset.out; echo "status=$?"
grep "ftc's probes" /tmp/reset.out
echo "left=$(grep -c '^.:ftc/' $T/kprobe_events) other=$(grep -c '^.:other/' $T/kprobe_events)"
echo '-:other/keep_me' >>$T/kprobe_events
echo "== badreg"
ftc probe add 'do_sys_openat2 x=%zz' 2>&1; echo "status=$?"
echo "== badsym"
ftc probe add 'ftclab:ftclab_stepb' 2>&1; echo "status=$?"
ftc probe add 'vfs_raed' 2>&1; echo "status=$?"
echo "== pending"
# a module that is not loaded: the kernel keeps the probe until it loads
ftc probe add 'nosuchmod:some_fn' 2>&1; echo "status=$?"
ftc probe del 'ftc:*' 2>&1
echo "== badfield"
ftc probe add 'e:ftclab:ftclab_done x=$nosuchfield' 2>&1; echo "status=$?"
echo "== end"
# the kernel as found, for a scenario after this one in a shared boot
rmmod ftclab
EOF

# want SECTION TEXT: the section holds exactly TEXT
want() {
	local got
	got=$(lab_section "$1")
	if [ "$got" = "$2" ]; then pass "$NAME: $1"
	else fail "$NAME: $1" "got: $(echo "$got" | tr '\n' '|'), want: $(echo "$2" | tr '\n' '|')"; fi
}
# caret_at SECTION TEXT: the error_log caret stands under TEXT in the Command
# line (6.1 points at an argument's start, 6.12 at the $-variable in it)
caret_at() {
	local s cmdline caret
	s=$(lab_section "$1")
	cmdline=$(echo "$s" | grep 'Command:')
	caret=$(echo "$s" | grep -E '^ *\^$')
	if [ -n "$caret" ] && awk -v c="$caret" -v l="$cmdline" -v t="$2" 'BEGIN {
		at = index(c, "^"); from = index(l, t)
		exit !(from && at >= from && at < from + length(t)) }'; then
		pass "$NAME: $1: the error_log caret points into $2"
	else fail "$NAME: $1: the error_log caret points into $2" "$(echo "$s" | tr '\n' '|')"; fi
}
expect_match "$NAME: the guest has kprobes" '^kprobes +ok' "$(lab_section check)"
k=$(lab_section kernel)
expect_match "$NAME: kprobe: record exits 0" '^status=0$' "$k"
expect_match "$NAME: kprobe: the dfd and path of cat's open" '^dfd=-100 path="/tmp/hello.txt"$' "$k"
expect_match "$NAME: kretprobe: the descriptor it returned" '^ret=3$' "$k"
expect_match "$NAME: kprobe: record removed its probes" '^left=0$' "$k"
i=$(lab_section module | sed -n 's/^iter=//p')
exp_x="" exp_r=""
for n in 1 2 3; do
	exp_x="$exp_x
x=$((i + n + 1))"
	exp_r="$exp_r
r=$((3 * (i + n + 1) + 1))"
done
want module "iter=$i
status=0$exp_x$exp_r
left=0"
i=$(lab_section eprobe | sed -n 's/^iter=//p')
want eprobe "iter=$i
status=0
it=$((i + 1)) res=$((3 * (i + 2) + 1))
it=$((i + 2)) res=$((3 * (i + 3) + 1))
left=0"
want add "ftc:ftclab_run
ftc:vfs_read__return
status=0
ftc:ftclab_run
ftc:vfs_read__return
status=0
left=0"
want reset "status=0
status=0
kept=1
status=0
removed 1 of ftc's probes (ftc:*, synthetic:ftc_*)
left=0 other=1"
b=$(lab_section badreg)
expect_match "$NAME: badreg: the kernel's error" 'trace_kprobe: error: Invalid register name' "$b"
caret_at badreg "%zz"
expect_match "$NAME: badreg: exit 1" '^status=1$' "$b"
s=$(lab_section badsym)
expect_match "$NAME: badsym: a module function's nearest names" \
	"no function 'ftclab_stepb' in module ftclab; nearest: ftclab_step_b, " "$s"
expect_match "$NAME: badsym: a kernel function's nearest names" \
	"no function 'vfs_raed' in the kernel; nearest: vfs_read[,( ]" "$s"
expect "$NAME: badsym: both exit 1" test "$(echo "$s" | grep -c '^status=1$')" = 2
expect_match "$NAME: pending: a probe on a module not loaded yet is left to the kernel" \
	'^ftc:some_fn$|kprobe_events: cannot write' "$(lab_section pending)"
f=$(lab_section badfield)
expect_nomatch "$NAME: badfield: refused" '^status=0$' "$f"
expect_match "$NAME: badfield: the kernel's error_log entry" 'event_probe: error: ' "$f"
caret_at badfield 'x=$nosuchfield'
finish
