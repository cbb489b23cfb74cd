# SPDX-License-Identifier: GPL-2.0-or-later
# The trace that survives the crash, on Debian 12's 6.12 (LAB_KERNEL=6.12):
# the guest boots with what `ftc boot-args --persistent boot_map
# --persistent-at ADDR --no-tracing-on -e sched:sched_switch` prints, four
# times in one run (LAB_REBOOTS=3; qemu keeps the RAM over each reset).
# Each boot turns tracing on in the instance, writes a stage marker and
# ends the boot its own way; the next finds that marker among the previous
# boot's records, `ftc extract -B boot_map` writes them to a file, and the
# buffer is cleared for its own stage:
#   warm:  reboot -f; the file holds the records up to the reboot's exec;
#   hang:  the lab module spins with preemption off (softlockup_panic, a
#          1 s watchdog); the file ends at the watchdog's report, which
#          names ftclab_hang (printk:console records);
#   crash: sysrq c (panic=1); the file ends at the panic, whose stack,
#          taken in the previous boot, is named through last_boot_info's
#          text delta: sysrq_handle_crash.
# trace-cmd reads the files too.
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
files=()
lab_module "$NAME: hang" && files=("$LAB_KO=/lab/ftclab.ko")
LAB_REBOOTS=3 LAB_TIMEOUT=60 LAB_QEMU_TIMEOUT=300 LAB_APPEND="$APPEND" \
	lab_run persistent - "${files[@]}" <<'EOF' || finish
I=/sys/kernel/tracing/instances/boot_map
stage() { grep -q "ftc-lab-stage-$1\$" $I/trace 2>/dev/null; }
# extract STAGE: the previous boot's records to /tmp/STAGE.dat, then the
# buffer is this boot's
extract() {
	echo "== $1"
	echo "info: $(tr '\n' ';' <$I/last_boot_info)"
	ftc status 2>&1 | grep -m1 'previous boot'
	ftc extract -B boot_map -o /tmp/$1.dat
	echo "extract=$?"
	ftc report /tmp/$1.dat | tail -3
	lab_export /tmp/$1.dat
	echo >$I/trace
}
arm() {
	echo 1 >$I/tracing_on
	echo ftc-lab-stage-$1 >$I/trace_marker
	sleep 0.2
}
if stage crash; then
	extract crash
	exit 0
fi
if stage hang; then
	extract hang
	# kernel stacks: this boot's addresses, named after the reboot through
	# last_boot_info's text delta (KASLR moves the kernel every boot)
	echo stacktrace >$I/events/sched/sched_switch/trigger
	echo 1 >$I/events/printk/console/enable
	echo 'stacktrace if msg ~ "*sysrq triggered crash*"' >$I/events/printk/console/trigger
	arm crash
	echo c >/proc/sysrq-trigger
	echo "the crash returned"
	exit 1
fi
if stage warm; then
	extract warm
	if [ ! -f /lab/ftclab.ko ]; then
		echo "no module: no hang"
		exit 0
	fi
	insmod /lab/ftclab.ko
	echo 1 >$I/events/printk/console/enable
	echo 1 >/proc/sys/kernel/softlockup_panic
	echo 1 >/proc/sys/kernel/watchdog_thresh
	arm hang
	echo hang >/proc/ftclab
	echo "the hang returned"
	exit 1
fi
echo "== first"
echo "info: $(tr '\n' ';' <$I/last_boot_info)"
echo 1 >$I/events/sched/sched_process_exec/enable
arm warm
ls / >/dev/null
echo ftc-lab-warm-last >$I/trace_marker
reboot -f
EOF

get() { # STAGE: the stage's file, on the host
	lab_file persistent /tmp/$1.dat "$OUT/persistent-$1.dat" ||
		{ fail "$NAME: $1: the capture came back" "see $OUT/lab-persistent.console"; return 1; }
}
tc_reads() { # STAGE PATTERN
	command -v trace-cmd >/dev/null || return 0
	expect_match "$NAME: $1: trace-cmd reads the file" "$2" \
		"$(trace-cmd report -i "$OUT/persistent-$1.dat" 2>&1)"
}
for st in warm hang crash; do
	out=$(lab_section $st)
	expect_match "$NAME: $st: the next boot finds the marker in boot_map" '^info: ' "$out"
	expect_match "$NAME: $st: ftc status names the instance that holds the previous boot" \
		'^instance boot_map holds the previous boot.s records' "$out"
	expect_match "$NAME: $st: ftc extract -B boot_map exits 0" '^extract=0$' "$out"
done

# warm: the records up to the reboot, in order: the stage's marker, ls's
# exec, the marker written just before reboot -f, reboot's exec (sleep is
# one of the applets busybox sh runs without an exec)
if get warm; then
	rep=$("$FTC" report "$OUT/persistent-warm.dat" 2>&1)
	order=$(grep -oE 'ftc-lab-(stage-warm|warm-last)|sched_process_exec' <<<"$rep" | tr '\n' ' ')
	expect_match "$NAME: warm: the marker, ls's exec, the last marker, reboot's exec, in order ($order)" \
		'^ftc-lab-stage-warm sched_process_exec ftc-lab-warm-last sched_process_exec $' "$order"
	n=$(grep -c ' sched_switch: ' <<<"$rep")
	[ "$n" -ge 1 ] && pass "$NAME: warm: and its sched_switch records ($n)" ||
		fail "$NAME: warm: and its sched_switch records" "$(tail -3 <<<"$rep")"
	tc_reads warm 'ftc-lab-stage-warm'
fi

# hang: the watchdog's report of the spinning module function ends the file
if [ ${#files[@]} -gt 0 ] && get hang; then
	rep=$("$FTC" report "$OUT/persistent-hang.dat" 2>&1)
	expect_match "$NAME: hang: the marker is in the file" 'tracing_mark_write: ftc-lab-stage-hang' "$rep"
	expect_match "$NAME: hang: the soft lockup's report is in the file" \
		'console: .*soft lockup - CPU#[0-9]+ stuck' "$rep"
	expect_match "$NAME: hang: the file's last console lines name the spinning function" \
		'ftclab_hang' "$(grep ' console: ' <<<"$rep" | tail -60)"
	tc_reads hang 'soft lockup'
fi

# crash: the panic and the stack that led to it, named across KASLR
if get crash; then
	rep=$("$FTC" report "$OUT/persistent-crash.dat" 2>&1)
	expect_match "$NAME: crash: the marker is in the file" 'tracing_mark_write: ftc-lab-stage-crash' "$rep"
	expect_match "$NAME: crash: the file keeps last_boot_info (trace-cmd's LAST_BOOT_INFO option)" \
		'LAST_BOOT_INFO' "$("$FTC" dump "$OUT/persistent-crash.dat" 2>&1)"
	expect_match "$NAME: crash: the panic's message is in the file" \
		'console: Kernel panic - not syncing: sysrq triggered crash' "$rep"
	# the panic's message and call trace are the file's last records (the
	# trigger's stacks print among them: no fixed count of lines)
	expect_match "$NAME: crash: the file ends at the crashing path (the panic's call trace)" \
		'console: +sysrq_handle_crash\+' "$(sed -n '/Kernel panic - not syncing/,$p' <<<"$rep")"
	expect_match "$NAME: crash: its stack, named through the previous boot's text delta" \
		'=> sysrq_handle_crash' "$rep"
	expect_match "$NAME: crash: the switches' stacks too: __schedule" '=> (__schedule|schedule)\b' "$rep"
	tc_reads crash 'ftc-lab-stage-crash'
fi
finish
