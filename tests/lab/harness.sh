# SPDX-License-Identifier: GPL-2.0-or-later
# The lab must never turn a broken run into a pass: a guest panic, a hung
# guest, a scenario past its time or failing, and a missing ftc-static are
# failures with the console's tail; no qemu or no kernel is a skip with the
# reason. Each case runs lab_run in a subshell and checks what it reported.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"
# the timeouts themselves are under test here: as named, not scaled
export LAB_SLOWDOWN=1

if ! lab_ready; then
	skip "lab harness" "$LAB_WHY"
	finish
fi

out=$(lab_run h-panic - <<'EOF'
echo 1 >/proc/sys/kernel/sysrq
echo c >/proc/sysrq-trigger
EOF
echo "rc=$?")
expect_match "lab harness: a guest panic fails" '^FAIL lab h-panic: the guest kernel panicked' "$out"
expect_match "lab harness: a guest panic shows the console's tail" '^    .*(RIP|Call Trace|Kernel Offset|sysrq)' "$out"
expect_match "lab harness: a guest panic returns 1" '^rc=1$' "$out"
expect_match "lab harness: a panic names the oops's task" \
	'^FAIL lab h-panic: .*\[oops: .*task sh \(PID [0-9]+, CPU [0-9]\): not in ftc.s task' "$out"
# LAB_EXPECT=panic judges the same consoles the other way round.
out=$(LAB_EXPECT=panic LAB_CONSOLE=$OUT/lab-h-panic.console lab_verdict "lab h-panic" 0 1 1)
expect_match "lab harness: LAB_EXPECT=panic passes a panic" '^PASS lab h-panic: the guest panicked' "$out"

# An oops in an interrupt (the kind function_graph once met under
# multi-threaded TCG) is told apart from one in ftc's own task: both fail,
# and the reason says where to look. The consoles are written here, trimmed
# from 6.1's oops layout, since no scenario can crash the kernel that way
# on purpose.
oops_console() { # FILE TASK-LINE IRQ(0/1)
	{
		echo "@@LAB BEGIN 6.1.0-lab uptime=1.8"
		echo "[   12.345678] BUG: unable to handle page fault for address: ffffffffc0201000"
		echo "[   12.345680] Oops: 0010 [#1] PREEMPT SMP NOPTI"
		echo "[   12.345681] $2 Not tainted 6.1.0-lab #1  Debian"
		echo "[   12.345683] RIP: 0010:ftrace_return_to_handler+0x9/0x120"
		echo "[   12.345684] Call Trace:"
		[ "$3" = 1 ] && echo "[   12.345685]  <IRQ>"
		echo "[   12.345686]  ? prepare_ftrace_return+0x5a/0xa0"
		[ "$3" = 1 ] && echo "[   12.345687]  </IRQ>"
		echo "[   12.345691] RIP: 0010:ftrace_return_to_handler+0x9/0x120"
		[ "$3" = 1 ] && echo "[   12.345692] Kernel panic - not syncing: Fatal exception in interrupt" ||
			echo "[   12.345692] Kernel panic - not syncing: Fatal exception"
	} >"$1"
}
oops_console "$OUT/lab-h-oops-irq.console" "CPU: 1 PID: 0 Comm: swapper/1" 1
out=$(LAB_CONSOLE=$OUT/lab-h-oops-irq.console lab_verdict "lab h-oops-irq" 0 1 1)
expect_match "lab harness: an oops in an interrupt is not blamed on ftc" \
	'^FAIL lab h-oops-irq: the guest kernel panicked: Fatal exception in interrupt \[oops: BUG: unable to handle page fault .*; RIP ftrace_return_to_handler\+0x9/0x120; task swapper/1 \(PID 0, CPU 1\) in an interrupt: not in ftc.s task, a kernel or emulator fault\]' \
	"$out"
# The oops multi-threaded TCG caused (README, "Guest panics"), trimmed.
printf '%s\n' "@@LAB BEGIN 6.1.0-lab uptime=3.0" "[ 4.5] kernel BUG at kernel/entry/common.c:463!" \
	"[ 4.5] invalid opcode: 0000 [#1] PREEMPT SMP NOPTI" \
	"[ 4.5] CPU: 1 PID: 152 Comm: ls Not tainted 6.1.0-56-amd64 #1  Debian 6.1.192-2" \
	"[ 4.5] RIP: 0010:irqentry_nmi_enter+0x2a/0x30" "[ 4.5] Call Trace:" "[ 4.5]  <TASK>" \
	"[ 4.5]  exc_int3+0x3a/0x120" "[ 4.5]  asm_exc_int3+0x35/0x40" \
	"[ 4.5] RIP: 0010:get_kprobe+0x1/0x40" "[ 4.5]  kprobe_int3_handler+0x42/0x1b0" \
	"[ 4.5] Kernel panic - not syncing: Fatal exception in interrupt" >"$OUT/lab-h-oops-int3.console"
out=$(LAB_CONSOLE=$OUT/lab-h-oops-int3.console lab_verdict "lab h-oops-int3" 0 1 1)
expect_match "lab harness: a stray int3 after code patching is named" \
	'^FAIL lab h-oops-int3: .*task ls \(PID 152, CPU 1\) in an interrupt: a stray int3 at get_kprobe\+0x1/0x40 after code patching, likely the emulator.s fault\]' \
	"$out"
oops_console "$OUT/lab-h-oops-ftc.console" "CPU: 0 PID: 97 Comm: ftc" 0
out=$(LAB_CONSOLE=$OUT/lab-h-oops-ftc.console lab_verdict "lab h-oops-ftc" 0 1 1)
expect_match "lab harness: an oops in ftc's task says so" \
	'^FAIL lab h-oops-ftc: the guest kernel panicked: Fatal exception \[oops: .*; task ftc \(PID 97, CPU 0\): in ftc.s own task' "$out"

out=$(LAB_TIMEOUT=2 lab_run h-timeout - <<'EOF'
echo started
sleep 60
EOF
echo "rc=$?")
expect_match "lab harness: a scenario past LAB_TIMEOUT fails" \
	'^FAIL lab h-timeout: the scenario was killed after LAB_TIMEOUT=2 s' "$out"
expect_match "lab harness: a killed scenario returns 1" '^rc=1$' "$out"

out=$(LAB_TIMEOUT=60 LAB_QEMU_TIMEOUT=4 lab_run h-hang - <<'EOF'
sleep 60
EOF
echo "rc=$?")
expect_match "lab harness: a guest that does not power off in time fails" \
	'^FAIL lab h-hang: qemu was killed after LAB_QEMU_TIMEOUT=4 s' "$out"
expect_match "lab harness: a hung guest returns 1" '^rc=1$' "$out"
# A freeze is never booted again: that would hide a hang of ftc's too.
expect_nomatch "lab harness: a hung guest is not booted a second time" 'booting once more' "$out"
expect_match "lab harness: a hung guest's run names one boot" \
	'^lab h-hang: .* exited 124 after [0-9.]+ s' "$out"
# A frozen kernel's own soft-lockup report is quoted (the lines of a freeze
# seen under multi-threaded TCG).
printf '%s\n' "@@LAB BEGIN 6.1.0-lab uptime=2.9" \
	"[   36.777542] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [sh:96]" \
	"[   41.659690] rcu: INFO: rcu_preempt self-detected stall on CPU" >"$OUT/lab-h-freeze.console"
out=$(LAB_CONSOLE=$OUT/lab-h-freeze.console lab_verdict "lab h-freeze" 124 1 210)
expect_match "lab harness: a frozen guest's soft lockup is named" \
	'^FAIL lab h-freeze: qemu was killed after LAB_QEMU_TIMEOUT=210 s \(guest hung\?\) \[kernel: watchdog: BUG: soft lockup - CPU#0 stuck for 22s! \[sh:96\]\]' \
	"$out"

out=$(lab_run h-exit - <<'EOF'
echo "said before failing"
exit 3
EOF
echo "rc=$?")
expect_match "lab harness: a scenario's non-zero exit fails" '^FAIL lab h-exit: the scenario exited 3' "$out"
expect_match "lab harness: a failed scenario's output is kept" '^said before failing$' \
	"$(cat "$OUT/lab-h-exit.out")"
out=$(LAB_EXPECT=panic LAB_CONSOLE=$OUT/lab-h-exit.console lab_verdict "lab h-exit" 0 1 1)
expect_match "lab harness: LAB_EXPECT=panic fails a run that did not panic" \
	'^FAIL lab h-exit: the scenario was meant to panic the guest' "$out"

# LAB_REBOOTS=1 (import-pstore.sh boots it): a panic, then a second boot
# that ends well, passes; no reboot, or a second boot that fails too,
# fails. Consoles only, as the real one takes a boot of its own.
reboot_console() { # FILE SECOND-BOOT-LINES...
	local f=$1
	shift
	{
		echo "@@LAB BEGIN 6.1.0-lab uptime=1.8"
		echo "[    7.7] Kernel panic - not syncing: sysrq triggered crash"
		echo "[    8.7] Rebooting in 1 seconds.."
		printf '%s\n' "$@"
	} >"$f"
}
reboot_console "$OUT/lab-h-reboot.console" "@@LAB BEGIN 6.1.0-lab uptime=1.9" "@@LAB END status=0 uptime=3.0"
out=$(LAB_REBOOTS=1 LAB_CONSOLE=$OUT/lab-h-reboot.console lab_verdict "lab h-reboot" 0 1 1)
expect_match "lab harness: LAB_REBOOTS=1 passes a panic and a clean second boot" \
	'^PASS lab h-reboot \(after the reboot\): guest ran the scenario' "$out"
reboot_console "$OUT/lab-h-reboot1.console"
out=$(LAB_REBOOTS=1 LAB_CONSOLE=$OUT/lab-h-reboot1.console lab_verdict "lab h-reboot1" 0 1 1)
expect_match "lab harness: LAB_REBOOTS=1 fails a guest that did not boot again" \
	'^FAIL lab h-reboot1: LAB_REBOOTS=1: want a panic \(or reboot -f\), then one more boot of /init, 1 times; got 1 boots' "$out"
reboot_console "$OUT/lab-h-reboot2.console" "@@LAB BEGIN 6.1.0-lab uptime=1.9" "@@LAB END status=4 uptime=3.0"
out=$(LAB_REBOOTS=1 LAB_CONSOLE=$OUT/lab-h-reboot2.console lab_verdict "lab h-reboot2" 0 1 1)
expect_match "lab harness: LAB_REBOOTS=1 judges the second boot: its exit 4 fails" \
	'^FAIL lab h-reboot2 \(after the reboot\): the scenario exited 4' "$out"
# LAB_REBOOTS=2 (persistent.sh): a reboot -f counts as a panic does; a boot
# that ended in neither (the guest reset for another reason) fails.
printf '%s\n' "@@LAB BEGIN 6.12-lab uptime=1.8" "[    5.1] reboot: Restarting system" \
	"@@LAB BEGIN 6.12-lab uptime=1.9" "[    6.2] Kernel panic - not syncing: sysrq triggered crash" \
	"@@LAB BEGIN 6.12-lab uptime=1.9" "@@LAB END status=0 uptime=3.0" >"$OUT/lab-h-reboots.console"
out=$(LAB_REBOOTS=2 LAB_CONSOLE=$OUT/lab-h-reboots.console lab_verdict "lab h-reboots" 0 1 1)
expect_match "lab harness: LAB_REBOOTS=2 passes a reboot -f, a panic and a clean third boot" \
	'^PASS lab h-reboots \(after the reboot\): guest ran the scenario' "$out"
printf '%s\n' "@@LAB BEGIN 6.12-lab uptime=1.8" "[    5.1] reboot: Restarting system" \
	"@@LAB BEGIN 6.12-lab uptime=1.9" "@@LAB BEGIN 6.12-lab uptime=1.9" \
	"@@LAB END status=0 uptime=3.0" >"$OUT/lab-h-reboots2.console"
out=$(LAB_REBOOTS=2 LAB_CONSOLE=$OUT/lab-h-reboots2.console lab_verdict "lab h-reboots2" 0 1 1)
expect_match "lab harness: LAB_REBOOTS=2 fails a boot that neither panicked nor rebooted" \
	'^FAIL lab h-reboots2: LAB_REBOOTS=2: .*got 3 boots, boot 2 ended in neither' "$out"
out=$(LAB_REBOOTS=1 LAB_CONSOLE=$OUT/lab-h-exit.console lab_verdict "lab h-exit" 0 1 1)
expect_match "lab harness: LAB_REBOOTS=1 fails a first boot that did not panic" \
	'^FAIL lab h-exit: LAB_REBOOTS=1: want a panic' "$out"

# A shared boot (LAB_BATCH, tests/lab/kernel-6.12.sh) judges each part as a
# boot of its own: a part that fails or overruns fails alone, the next
# starts with an empty /tmp and its own files, a panic fails its part and
# every part it kept from running.
B=$OUT/h-batch
rm -rf "$B" && mkdir -p "$B/parts" && echo "the file given" >"$OUT/h-batch-file"
LAB_BATCH=collect:$B/parts lab_run h-ok - <<'EOF'
echo left >/tmp/leftover
echo "ok part ran"
EOF
LAB_BATCH=collect:$B/parts lab_run h-bad - <<'EOF'
echo "bad part ran"
exit 3
EOF
LAB_BATCH=collect:$B/parts LAB_TIMEOUT=2 lab_run h-slow - <<'EOF'
sleep 60
EOF
LAB_BATCH=collect:$B/parts lab_run h-clean - "$OUT/h-batch-file=/lab/given" <<'EOF'
ls /tmp/leftover 2>/dev/null || echo "no leftover"
cat /lab/given
EOF
LAB_BATCH=collect:$B/parts lab_run h-crash - <<'EOF'
echo 1 >/proc/sys/kernel/sysrq
echo c >/proc/sysrq-trigger
EOF
LAB_BATCH=collect:$B/parts lab_run h-never - </dev/null
lab_batch_scenario "$B/parts" >"$B/scenario"
out=$(LAB_TIMEOUT=80 lab_run h-batch "$B/scenario" "$B/parts=/lab/.parts"; echo "rc=$?")
expect_match "lab harness: a shared boot that panics fails as a whole" '^FAIL lab h-batch: the guest kernel panicked' "$out"
# (qemu exits 0 after the panic: -no-reboot; its limit was (80 + 60) s)
cp "$OUT/lab-h-batch.console" "$B/console" && echo 0 >"$B/rc" && echo 140 >"$B/limit"
replay() { LAB_BATCH=replay:$B lab_run "$@" - </dev/null; echo "rc=$?"; }
out=$(replay h-ok)
expect_match "lab harness: a shared boot's good part passes" '^PASS lab h-ok: guest ran the scenario \([0-9.]+ s in a shared boot\)' "$out"
expect_match "lab harness: ... with its own output" '^ok part ran$' "$(cat "$OUT/lab-h-ok.out")"
expect_nomatch "lab harness: ... and no other part's" 'bad part ran' "$(cat "$OUT/lab-h-ok.out")"
expect_match "lab harness: a shared boot's failing part fails" '^FAIL lab h-bad: the scenario exited 3' "$(replay h-bad)"
expect_match "lab harness: a shared boot's part past its limit fails" 	'^FAIL lab h-slow: the scenario was killed after LAB_TIMEOUT=2 s' "$(LAB_TIMEOUT=2 replay h-slow)"
out=$(replay h-clean)
expect_match "lab harness: the part after a killed one runs" '^PASS lab h-clean: ' "$out"
expect_match "lab harness: each part starts with an empty /tmp" '^no leftover$' "$(cat "$OUT/lab-h-clean.out")"
expect_match "lab harness: each part has its own files" '^the file given$' "$(cat "$OUT/lab-h-clean.out")"
expect_match "lab harness: a part that panics the guest fails" '^FAIL lab h-crash: the guest kernel panicked' "$(replay h-crash)"
out=$(replay h-never)
expect_match "lab harness: a part the panic kept from running fails" 	'^FAIL lab h-never: the shared boot never began this scenario' "$out"
expect_match "lab harness: ... and returns 1" '^rc=1$' "$out"

out=$(FTC_STATIC=/nonexistent/ftc-static lab_run h-noftc - </dev/null; echo "rc=$?")
expect_match "lab harness: a missing ftc-static fails" \
	'^FAIL lab h-noftc: /nonexistent/ftc-static not found: run .make static.' "$out"

out=$(PATH=/nonexistent lab_run h-noqemu - </dev/null; echo "rc=$?")
expect_match "lab harness: no qemu is a skip with the reason" \
	'^SKIP lab h-noqemu: qemu-system-x86_64 not found' "$out"
expect_match "lab harness: a skip returns 2" '^rc=2$' "$out"

# No cached kernel and no network: apt-get is replaced by one that fails as
# it does offline.
fake=$(mktemp -d "${TMPDIR:-/tmp}/ftc-lab-fake.XXXXXX")
printf '#!/bin/sh\necho "E: Failed to fetch http://deb.debian.org/debian (offline)" >&2\nexit 100\n' \
	>"$fake/apt-get"
chmod +x "$fake/apt-get"
out=$(PATH=$fake:$PATH LAB_CACHE=$fake/cache lab_run h-offline - </dev/null; echo "rc=$?")
expect_match "lab harness: a kernel that cannot be downloaded is a skip with the reason" \
	"^SKIP lab h-offline: no lab kernel: .*(apt-get download linux-image-.*offline|run 'apt-get update')" "$out"
expect_match "lab harness: a failed download returns 2" '^rc=2$' "$out"
expect_nomatch "lab harness: a failed download leaves no half-made kernel" 'vmlinuz' \
	"$(ls -R "$fake/cache")"
rm -rf "$fake"
finish
