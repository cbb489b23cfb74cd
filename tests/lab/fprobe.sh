# SPDX-License-Identifier: GPL-2.0-or-later
# fprobes on a kernel that has them (Debian 12's 6.12, with BTF): in one
# boot, `ftc check` names them ok; an entry probe with the parameters named
# by BTF and an exit probe with $retval on do_sys_openat2 record the file
# cat opened and the descriptor it got; `ftc probe add/list/del` keep and
# remove one; nothing is left in dynamic_events; a parameter the function
# lacks gets the kernel's error_log entry. The host (6.18, function tracer
# refused) and 6.1 (no fprobes) are in tests/host/probe.sh.
. "$(dirname "$0")/../lib.sh"
export LAB_KERNEL=6.12
. "$(dirname "$0")/lab.bash"

NAME="lab fprobe"
LAB_TIMEOUT=90 lab_run fprobe - <<'EOF' || finish
T=/sys/kernel/tracing
vals() { ftc report -i "$1" | grep " $2: " | sed -e 's/^.*: //' -e 's/^ *//' -e 's/^([^)]*) *//'; }
echo hello >/tmp/hello.txt
echo "== check"
ftc check fprobes 2>&1
echo "== record"
ftc record -q -F -o /tmp/f.dat --probe 'f:do_sys_openat2 dfd filename:ustring' \
	--probe 'f:do_sys_openat2%return ret=$retval:s32' -- cat /tmp/hello.txt
echo "status=$?"
vals /tmp/f.dat do_sys_openat2 | grep hello.txt
vals /tmp/f.dat do_sys_openat2__return | sort -u
echo "left=$(grep -c '^f:ftc/' $T/dynamic_events)"
lab_export /tmp/f.dat
echo "== add"
ftc probe add 'f:vfs_read count'; echo "status=$?"
ftc probe list | cut -f2
ftc probe del 'ftc:*'; echo "status=$?"
echo "left=$(grep -c '^f:ftc/' $T/dynamic_events)"
echo "== badarg"
ftc probe add 'f:vfs_read nosucharg' 2>&1; echo "status=$?"
echo "== end"
EOF

expect_match "$NAME: ftc check: fprobes ok" '^fprobes +ok' "$(lab_section check)"
rec=$(lab_section record)
expect_match "$NAME: record --probe f:... exits 0" '^status=0$' "$rec"
expect_match "$NAME: the entry probe has BTF's dfd (AT_FDCWD) and the path cat opened" \
	'^dfd=-100 filename="/tmp/hello\.txt"' "$rec"
expect_match "$NAME: the exit probe has the descriptor cat got" '^ret=3$' "$rec"
expect_match "$NAME: nothing left in dynamic_events after record" '^left=0$' "$rec"
add=$(lab_section add)
expect_match "$NAME: probe add f:vfs_read exits 0" '^status=0$' "$add"
expect_match "$NAME: probe list shows the fprobe's definition" '^f:ftc/vfs_read vfs_read count' "$add"
expect_match "$NAME: probe del removes it" '^left=0$' "$add"
bad=$(lab_section badarg)
expect_match "$NAME: a parameter vfs_read lacks: the kernel's error_log" 'error_log' "$bad"
expect_match "$NAME: ... and exit 1" '^status=1$' "$bad"
if lab_file fprobe /tmp/f.dat "$OUT/fprobe.dat"; then
	expect_match "$NAME: trace-cmd reads the fprobe records" 'do_sys_openat2.*hello\.txt' \
		"$(trace-cmd report -i "$OUT/fprobe.dat" 2>&1)"
fi
finish
