# SPDX-License-Identifier: GPL-2.0-or-later
# The trace that survives the crash, on Debian 12's 6.12 (LAB_KERNEL=6.12):
# the guest boots with what `ftc boot-args --persistent boot_map
# --persistent-at ADDR --no-tracing-on -e sched:sched_switch` prints. The
# first boot turns tracing on, writes a marker into the instance and crashes (sysrq c, panic=1); qemu keeps the RAM over the
# reset (LAB_REBOOTS=1), the second boot finds the marker in the instance
# and `ftc extract -B boot_map` writes the previous boot's records to a
# file: the marker, then sched_switch records up to the crash; trace-cmd
# reads the file too, and last_boot_info says where the previous kernel was.
. "$(dirname "$0")/../lib.sh"
export LAB_KERNEL=6.12
. "$(dirname "$0")/lab.bash"

NAME="lab persistent"
# a fixed address (memmap=): reserve_mem='s memory moved under KASLR and lost
# the buffer in 2 reboots of 3 here. Tracing starts after the check for the
# previous boot's records (^traceoff), so a boot's own records never mix
# into the previous boot's.
if ! APPEND=$("$FTC" boot-args --persistent boot_map --persistent-at 0x18000000 --no-tracing-on \
	-e sched:sched_switch -C local --kernel 6.12 2>"$OUT/persistent.err"); then
	fail "$NAME: ftc boot-args --persistent" "$(cat "$OUT/persistent.err")"
	finish
fi
LAB_REBOOTS=1 LAB_TIMEOUT=60 LAB_QEMU_TIMEOUT=180 LAB_APPEND="$APPEND" \
	lab_run persistent - <<'EOF' || finish
I=/sys/kernel/tracing/instances/boot_map
if grep -q ftc-lab-before-crash $I/trace 2>/dev/null; then
	echo "== second"
	echo "info: $(tr '\n' ';' <$I/last_boot_info)"
	ftc status 2>&1 | grep -m1 'previous boot'
	ftc extract -B boot_map -o /tmp/p.dat
	echo "extract=$?"
	ftc report /tmp/p.dat | tail -3
	lab_export /tmp/p.dat
	exit 0
fi
echo "== first"
echo "info: $(tr '\n' ';' <$I/last_boot_info)"
# kernel stacks: this boot's addresses, named after the reboot through
# last_boot_info's text delta (KASLR moves the kernel every boot)
echo stacktrace >$I/events/sched/sched_switch/trigger
echo 1 >$I/tracing_on
echo ftc-lab-before-crash >$I/trace_marker
sleep 0.2
echo c >/proc/sysrq-trigger
EOF

second=$(lab_section second)
expect_match "$NAME: the second boot finds the first's marker in boot_map" '^info: ' "$second"
expect_match "$NAME: ftc extract -B boot_map exits 0" '^extract=0$' "$second"
if ! lab_file persistent /tmp/p.dat "$OUT/persistent.dat"; then
	fail "$NAME: the capture came back" "see $OUT/lab-persistent.console"
	finish
fi
rep=$("$FTC" report "$OUT/persistent.dat" 2>&1)
expect_match "$NAME: the previous boot's marker is in the file" 'tracing_mark_write: ftc-lab-before-crash' "$rep"
expect_match "$NAME: ftc status names the instance that holds the previous boot" \
	'^instance boot_map holds the previous boot.s records' "$second"
expect_match "$NAME: the file keeps last_boot_info (trace-cmd's LAST_BOOT_INFO option)" \
	'LAST_BOOT_INFO' "$("$FTC" dump "$OUT/persistent.dat" 2>&1)"
# the crash's own path, named through the previous boot's text delta
expect_match "$NAME: the previous boot's stacks are named: the switch's __schedule" \
	'=> (__schedule|schedule)\b' "$rep"
n=$(grep -c ' sched_switch: ' <<<"$rep")
[ "$n" -ge 1 ] && pass "$NAME: and its sched_switch records ($n)" ||
	fail "$NAME: and its sched_switch records" "$(tail -3 <<<"$rep")"
if command -v trace-cmd >/dev/null; then
	expect_match "$NAME: trace-cmd reads the file" 'ftc-lab-before-crash' \
		"$(trace-cmd report -i "$OUT/persistent.dat" 2>&1)"
fi
finish
