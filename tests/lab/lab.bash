# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel lab: runs a shell scenario inside a QEMU guest that boots
# Debian's 6.1 kernel (function tracers, kprobes, snapshot, hist triggers:
# what the host kernel refuses). Source it after tests/lib.sh; see
# tests/lab/README.md. The API:
#
#   lab_run NAME SCENARIO [FILE[=GUESTPATH]...]
#	Boots the guest once and runs SCENARIO (a busybox sh script, or "-"
#	for stdin) in /tmp with /bin/ftc (ftc-static), tracefs at
#	/sys/kernel/tracing, and each FILE at /lab/BASENAME or GUESTPATH.
#	Returns 0 when the scenario exited 0 (after a PASS line), 2 after a
#	SKIP line when the lab cannot run here (no qemu, no kernel), and 1
#	after a FAIL line with the console's tail (panic, hang, timeout,
#	non-zero exit). Sets LAB_OUTPUT, the file with what the scenario
#	printed (kernel lines may be mixed in), and LAB_CONSOLE, the whole
#	serial log ($OUT/lab-NAME.console).
#   lab_section TITLE
#	Prints the lines of LAB_OUTPUT between "== TITLE" and the next "== "
#	line (the scenario echoes such titles to mark its parts).
#   lab_file NAME GUESTPATH DEST
#	Writes to DEST a file that the scenario of run NAME sent back with
#	lab_export; checks its size and sha256. Returns 1 with a reason on
#	stderr when it is missing or damaged.
#
# Inside the guest the scenario can call:
#   lab_export FILE	send FILE back over the console (base64)
#
# Settings (environment):
#   LAB_TIMEOUT		seconds for the scenario inside the guest (default 60)
#   LAB_QEMU_TIMEOUT	seconds for the whole qemu run (default LAB_TIMEOUT + 60)
#   LAB_SLOWDOWN	both timeouts are this many times what is set (default 3:
#			a timeout catches a hung guest, and a busy machine runs
#			the guest slower)
#   LAB_EXPECT=panic	the scenario crashes the guest on purpose: a panic
#			passes, a clean end fails
#   LAB_REBOOTS=N	the scenario crashes or reboots (reboot -f) the guest on
#			purpose and the guest boots again, N times (panic=1,
#			qemu keeps its RAM): /init runs the same scenario
#			again, which tells the boots apart by what survived
#			(pstore, a persistent trace buffer); the run passes
#			when each of the first N boots panicked or rebooted
#			and the last ended with 0. Each later boot's output
#			follows a "== reboot" line
#   LAB_CACHE		the kernel cache folder (default .cache/lab)
#   LAB_ACCEL		qemu's -accel value (default tcg,thread=single; see
#			lab_boot and tests/lab/README.md, "Guest panics")
#   LAB_APPEND		kernel parameters appended to the guest's command line,
#			as one string, e.g. the output of ftc boot-args (quotes
#			and spaces reach the kernel as written)
#   LAB_QEMU_ARGS	more qemu arguments, split at blanks, e.g. a character
#			device and the port it backs, as tests/lab/listen.sh's
#			"-serial mon:stdio -chardev socket,id=c0,host=127.0.0.1,port=P
#			-serial chardev:c0" (the guest's ttyS1; a -serial of one's
#			own replaces the console's, hence the first)
#   LAB_ARCH		the guest: x86_64 (default; qemu-system-x86_64), arm64
#			(qemu-system-aarch64 -M virt -cpu max, a board with
#			an Armv8 PMU) or armhf (qemu-system-arm -M virt); set
#			it before sourcing this file
#   LAB_SMP		the guest's CPUs (default 2; armhf 1)
#   LAB_ICOUNT=1	arm64, armhf: -icount shift=0, so that the emulated
#			PMU counts instructions (exactly) and cycles run at
#			one per instruction
#   FTC_STATIC		the ftc put in the guest (default ftc-static, on
#			arm64 ftc-static-arm64, on armhf ftc-static-armhf)
#   LAB_BUSYBOX		a static busybox (default /bin/busybox; on Arm the
#			one scripts/cross-sysroot unpacks)
#   LAB_BATCH		collect:DIR or replay:DIR, for a boot shared by several
#			test scripts (see "Shared boots" below and
#			tests/lab/kernel-6.12.sh)

LAB_TIMEOUT=${LAB_TIMEOUT:-60}
export LAB_ARCH=${LAB_ARCH:-x86_64}
export LAB_CACHE=${LAB_CACHE:-$TOP/.cache/lab}
case $LAB_ARCH in
x86_64)	LAB_QEMU=qemu-system-x86_64 LAB_QEMU_PKG=qemu-system-x86 LAB_TTY=ttyS0 LAB_CROSS=""
	FTC_STATIC=${FTC_STATIC:-$TOP/ftc-static}
	LAB_BUSYBOX=${LAB_BUSYBOX:-/bin/busybox} ;;
arm64|armhf)
	LAB_TTY=ttyAMA0 LAB_QEMU_PKG=qemu-system-arm
	LAB_QEMU=qemu-system-arm
	LAB_CROSS=arm-linux-gnueabihf-
	[ "$LAB_ARCH" = arm64 ] && LAB_QEMU=qemu-system-aarch64 LAB_CROSS=aarch64-linux-gnu-
	# Debian's armmp 6.1 stops after the PL011 probe with a second
	# vCPU (qemu 7.2, TCG), and boots with one.
	[ "$LAB_ARCH" = armhf ] && LAB_SMP=${LAB_SMP:-1}
	FTC_STATIC=${FTC_STATIC:-$TOP/ftc-static-$LAB_ARCH}
	LAB_BUSYBOX=${LAB_BUSYBOX:-$("$TOP/scripts/cross-sysroot" "$LAB_ARCH" 2>/dev/null)/bin/busybox} ;;
*)	echo "lab.bash: LAB_ARCH='$LAB_ARCH': want x86_64, arm64 or armhf" >&2
	LAB_QEMU=false ;;
esac
LAB_SMP=${LAB_SMP:-2}

# lab_ready: sets LAB_KERNEL, or sets LAB_WHY to why the lab cannot run here
# and returns 1.
lab_ready() {
	LAB_WHY=""
	if ! command -v "$LAB_QEMU" >/dev/null; then
		LAB_WHY="$LAB_QEMU not found (scripts/install-deps installs $LAB_QEMU_PKG)"
	elif ! command -v cpio >/dev/null; then
		LAB_WHY="cpio not found (scripts/install-deps installs it)"
	elif [ ! -x "$LAB_BUSYBOX" ]; then
		LAB_WHY="$LAB_BUSYBOX not found (install busybox-static)"
	elif ldd "$LAB_BUSYBOX" >/dev/null 2>&1; then
		# It would find no C library in the initramfs.
		LAB_WHY="$LAB_BUSYBOX is dynamically linked (install busybox-static)"
	elif ! LAB_KERNEL=$("$TOP/scripts/lab-kernel" 2>"$OUT/lab-kernel.err"); then
		LAB_WHY="no lab kernel: $(tail -1 "$OUT/lab-kernel.err")"
	fi
	[ -z "$LAB_WHY" ]
}

# The guest's /init. It runs as PID 1 with busybox's sh.
lab_write_init() {
	cat >"$1" <<'EOF'
#!/bin/busybox sh
/bin/busybox mkdir -p /proc /sys /dev /tmp /usr/bin /usr/sbin /sbin
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/tmp
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
# Without a /dev/console in the archive the kernel gave init no stdio.
exec </dev/console >/dev/console 2>&1
mount -t tracefs tracefs /sys/kernel/tracing
read t0 _ </proc/uptime
# The newline ends the firmware's escape sequences on the same line.
echo
echo "@@LAB BEGIN $(uname -r) uptime=$t0"
cd /tmp
timeout -s KILL "$(cat /lab/.timeout)" sh -c '. /lab/.guest.sh; . /lab/.scenario'
st=$?
read t1 _ </proc/uptime
[ "$st" = 137 ] && [ "${t1%.*}" -ge $((${t0%.*} + $(cat /lab/.timeout))) ] &&
	echo "@@LAB TIMEOUT after $(cat /lab/.timeout) s"
echo
echo "@@LAB END status=$st uptime=$t1"
poweroff -f
EOF
	chmod 755 "$1"
}

# Helpers the scenario sees.
lab_write_guest_lib() {
	cat >"$1" <<'EOF'
# lab_export FILE: prints FILE in base64 between markers that lab_file finds.
# The kernel's console messages are held back meanwhile so that they do not
# land inside the data.
lab_export() {
	[ -f "$1" ] || { echo "lab_export: '$1' is not a file in the guest" >&2; return 1; }
	set -- "$1" "$(cat /proc/sys/kernel/printk)"
	echo 1 >/proc/sys/kernel/printk
	echo "@@LAB FILE $1 BEGIN"
	base64 <"$1"
	echo "@@LAB FILE $1 END size=$(wc -c <"$1") sha256=$(sha256sum <"$1" | cut -d' ' -f1)"
	echo "$2" >/proc/sys/kernel/printk
}

# lab_part NAME SECONDS: one scenario of a boot shared by several
# (LAB_BATCH): from an empty /tmp, with its files put in place, under its
# own time limit, between markers at which lab_run's replay cuts the
# console; then lab_clean.
lab_part() {
	local t0 t1 st
	read t0 _ </proc/uptime
	echo
	echo "@@LAB PART $1 BEGIN uptime=$t0"
	cd / && rm -rf /tmp && mkdir /tmp && cd /tmp || return 1
	cp -a "/lab/.parts/$1/root/." / || echo "lab_part: cannot put $1's files in place"
	timeout -s KILL "$2" sh -c ". /lab/.guest.sh; . /lab/.parts/$1/scenario"
	st=$?
	read t1 _ </proc/uptime
	[ "$st" = 137 ] && [ "${t1%.*}" -ge $((${t0%.*} + $2)) ] && echo "@@LAB TIMEOUT after $2 s"
	echo
	echo "@@LAB PART $1 END status=$st uptime=$t1"
	lab_clean
}

# lab_clean: what a scenario leaves in tracefs (it was written for a boot of
# its own: a function filter, a hist trigger, a synthetic event, an
# instance) is put back as a fresh boot has it, buffers expanded aside, so
# that the next part meets the kernel it was written for. What was reset
# shows on the console between the parts.
lab_clean() {
	local t=/sys/kernel/tracing i
	ftc reset -a -t 2>&1 | sed 's/^/lab_clean: /'
	for i in "$t"/instances/*; do
		[ -d "$i" ] && { rmdir "$i" || echo "lab_clean: cannot remove $i"; }
	done
	grep -q . "$t/dynamic_events" && { echo >"$t/dynamic_events" || echo "lab_clean: dynamic_events left"; }
	return 0
}
EOF
}

# lab_copy_files ROOT FILES...: each FILE[=GUESTPATH] under the guest's
# tree ROOT, at /lab/BASENAME or GUESTPATH.
lab_copy_files() {
	local root=$1 f src dst
	shift
	for f in "$@"; do
		src=${f%%=*}
		case $f in *=*) dst=${f#*=} ;; *) dst=/lab/$(basename "$src") ;; esac
		if ! mkdir -p "$root$(dirname "$dst")" || ! cp -a "$src" "$root$dst"; then
			echo "lab_run: cannot copy '$src' to the guest's $dst" >&2
			return 1
		fi
	done
}

# lab_initrd STAGE SCENARIO FILES...: writes the guest's tree under STAGE/root
# and its uncompressed cpio archive (about 3.5 MB) to STAGE/initrd.
lab_initrd() {
	local stage=$1 scenario=$2
	shift 2
	mkdir -p "$stage/root/bin" "$stage/root/lab" "$stage/root/dev" || return 1
	cp "$LAB_BUSYBOX" "$stage/root/bin/busybox" || return 1
	cp "$FTC_STATIC" "$stage/root/bin/ftc" || return 1
	# The kernel opens /dev/console for init before devtmpfs is mounted.
	[ "$(id -u)" = 0 ] && mknod -m 600 "$stage/root/dev/console" c 5 1 2>/dev/null
	lab_write_init "$stage/root/init"
	lab_write_guest_lib "$stage/root/lab/.guest.sh"
	echo "$LAB_TIMEOUT" >"$stage/root/lab/.timeout"
	if [ "$scenario" = - ]; then cat >"$stage/root/lab/.scenario"
	else cp "$scenario" "$stage/root/lab/.scenario"; fi || return 1
	lab_copy_files "$stage/root" "$@" || return 1
	(cd "$stage/root" && find . | cpio -o -H newc -R 0:0 --quiet) >"$stage/initrd" ||
		return 1
}

# lab_oops CONSOLE: one line on the guest's first oops: what the kernel
# reported, the faulting code (RIP), the task that ran on the CPU, whether it
# was in an interrupt, and whose fault to suspect. A panic stops the guest
# whoever caused it, so the verdict must say where to look: a fault in a
# task named ftc* (ftc itself, its threads, a workload before its exec) in
# process context came from a system call of ftc's; a fault in an interrupt
# or in another task (swapper, a kworker, the workload) is the kernel's or
# the emulator's, even while ftc is tracing (tests/lab/README.md, "Guest
# panics").
lab_oops() {
	tr -d '\r' <"$1" | sed 's/^\[ *[0-9.]*\] //' | awk '
		!what && /^(BUG: |general protection fault|kernel BUG at|invalid opcode|int3: |stack segment|double fault|Oops: |sysrq: Trigger a crash)/ {
			what = $0 }
		!comm && /^CPU: [0-9]+ PID: [0-9]+ Comm: / { cpu = $2; pid = $4; comm = $6 }
		!rip && /^RIP: 0010:/ { rip = $2; sub(/^0010:/, "", rip) }
		/^ *<(IRQ|NMI)>$/ || /Fatal exception in interrupt/ { irq = 1 }
		# An int3 trap reports the address after the int3: FUNC+0x1 is a
		# function whose first byte, the patched call to __fentry__, ran as
		# int3 (qemu ran code from before the patch was finished).
		/asm_exc_int3/ { int3 = 1 }
		int3 && !stray && /^RIP: [0-9a-f]+:[^ ]+\+0x1\// { stray = $2; sub(/^[0-9a-f]+:/, "", stray) }
		# panic() itself prints the task after its own line.
		/^Kernel panic - not syncing: / { panicked = 1 }
		END {
			if (!what && !comm)
				exit
			if (!what)
				what = panicked ? "a panic without an oops" : "no oops line"
			line = what
			if (rip != "")
				line = line "; RIP " rip
			if (comm != "")
				line = line "; task " comm " (PID " pid ", CPU " cpu ")"
			if (irq)
				line = line " in an interrupt"
			if (stray != "")
				line = line ": a stray int3 at " stray " after code patching, likely the emulator'"'"'s fault"
			else if (comm ~ /^ftc/ && !irq)
				line = line ": in ftc'"'"'s own task, look at what ftc asked of the kernel"
			else
				line = line ": not in ftc'"'"'s task, a kernel or emulator fault"
			print line
		}'
}

lab_tail() { tr -d '\r' <"$1" | grep -v '^$' | tail -n "${2:-15}"; }

# lab_verdict NAME RC SECONDS QEMU_TIMEOUT: reads the console, reports the run.
lab_verdict() {
	local name=$1 rc=$2 secs=$3 qtmo=$4 con=$LAB_CONSOLE why="" st k
	if [ -n "${LAB_REBOOTS:-}" ]; then
		lab_reboot_verdict "$@"
		return
	fi
	st=$(tr -d '\r' <"$con" | sed -n 's/^@@LAB END status=\([0-9]*\).*/\1/p' | tail -1)
	if [ "${LAB_EXPECT:-}" = panic ]; then
		if grep -q 'Kernel panic' "$con"; then
			pass "$name: the guest panicked as the scenario meant ($secs s)"
			return 0
		fi
		why="the scenario was meant to panic the guest, but it did not (qemu exited $rc)"
	elif grep -q 'Kernel panic' "$con"; then
		why="the guest kernel panicked: $(grep -m1 'Kernel panic' "$con" | tr -d '\r' |
			sed 's/.*Kernel panic - not syncing: //') [oops: $(lab_oops "$con")]"
	elif grep -q '^@@LAB TIMEOUT' "$con"; then
		why="the scenario was killed after LAB_TIMEOUT=$LAB_TIMEOUT s"
	elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		why="qemu was killed after LAB_QEMU_TIMEOUT=$qtmo s (guest hung?)"
		# The kernel's own word on the hang names the stuck task.
		k=$(tr -d '\r' <"$con" | grep -m1 -E 'soft lockup|hung_task|rcu.*stall' |
			sed 's/^\[ *[0-9.]*\] //')
		[ -n "$k" ] && why="$why [kernel: $k]"
	elif ! grep -q '@@LAB BEGIN' "$con"; then
		why="the guest never ran /init (qemu exited $rc)"
	elif [ -z "$st" ]; then
		why="the guest stopped before the scenario ended (qemu exited $rc)"
	elif [ "$st" != 0 ]; then
		why="the scenario exited $st"
	fi
	if [ -z "$why" ]; then
		pass "$name: guest ran the scenario ($secs s ${LAB_SPAN:-boot to poweroff})"
		return 0
	fi
	fail "$name" "$why; console tail: $(lab_tail "$con" 3 | tr '\n' '|')"
	echo "---- last lines of $con:"
	lab_tail "$con" 25 | sed 's/^/    /'
	echo "----"
	return 1
}

# lab_reboot_verdict NAME RC SECONDS QEMU_TIMEOUT (LAB_REBOOTS=N): each of
# the first N boots must end in a panic or a reboot (reboot -f) and boot
# again; the last is judged as any run, on its own part of the console (a
# panic there fails, and with panic=1 it would boot once more, which fails
# too).
lab_reboot_verdict() {
	local con=$LAB_CONSOLE want=$((LAB_REBOOTS + 1)) n bad
	n=$(tr -d '\r' <"$con" | grep -c '@@LAB BEGIN')
	# the first boot whose part of the console shows neither
	bad=$(tr -d '\r' <"$con" | awk -v last="$want" '
		/@@LAB BEGIN/ { if (n && !ok) { print n; exit } n++; ok = 0 }
		/Kernel panic|reboot: Restarting system/ { ok = 1 }
		n == last { exit }')
	if [ "$n" != "$want" ] || [ -n "$bad" ]; then
		fail "$1" "LAB_REBOOTS=$LAB_REBOOTS: want a panic (or reboot -f), then one more boot of /init, $LAB_REBOOTS times; got $n boots${bad:+, boot $bad ended in neither} (qemu exited $2); console tail: $(lab_tail "$con" 3 | tr '\n' '|')"
		return 1
	fi
	tr -d '\r' <"$con" | awk -v last="$want" '/@@LAB BEGIN/ { n++ } n == last' >"$con.reboot"
	LAB_REBOOTS="" LAB_CONSOLE=$con.reboot lab_verdict "$1 (after the reboot)" "$2" "$3" "$4"
}

# lab_boot STAGE SECONDS: one boot of the guest, its console in $LAB_CONSOLE.
# -enable-kvm hangs on these hosts: TCG only. Single-threaded TCG, because
# multi-threaded TCG (qemu 7.2) lets one vCPU run a stale translation of
# kernel code that the other vCPU has just patched: switching function_graph
# on or off rewrites every call site through int3 (text_poke_bp), and a vCPU
# that still runs the int3 after the patch is done takes an int3 that no
# handler claims, recursing until the kernel panics ("Fatal exception in
# interrupt"), or it freezes the guest in soft lockups. One host thread
# running both vCPUs in turn cannot race with itself; it was no slower here
# (tests/lab/README.md, "Guest panics", has the counts). Two vCPUs still,
# so per-CPU buffers and IPIs are tested. stdin is /dev/null so that qemu
# leaves the terminal alone. LAB_REBOOTS: a panic reboots after 1 s, and
# qemu resets the machine (keeping its RAM) instead of exiting.
lab_boot() {
	local panic=-1 noreboot=-no-reboot
	[ -n "${LAB_REBOOTS:-}" ] && panic=1 noreboot=""
	timeout -k 5 "$2" \
		"$LAB_QEMU" $(lab_machine) -accel "${LAB_ACCEL:-tcg,thread=single}" -m 512 -smp "$LAB_SMP" \
		-kernel "$LAB_KERNEL" -initrd "$1/initrd" \
		-append "console=$LAB_TTY quiet panic=$panic mitigations=off${LAB_APPEND:+ $LAB_APPEND}" \
		-nic none -nographic $noreboot ${LAB_QEMU_ARGS:-} </dev/null >"$LAB_CONSOLE" 2>&1
}

# lab_machine: qemu's board options for LAB_ARCH (the x86 guest: qemu's
# default PC). -cpu max on arm64 has the Armv8 PMU (PMUv3) that ftc stat
# and profile count with; -icount is not compatible with multi-threaded TCG.
lab_machine() {
	case $LAB_ARCH in
	arm64) echo "-M virt -cpu max" ;;
	armhf) echo "-M virt,highmem=off" ;;
	esac
	[ -n "${LAB_ICOUNT:-}" ] && [ "$LAB_ARCH" != x86_64 ] && echo "-icount shift=0"
}

lab_run() {
	# A timeout is there to catch a hung guest, nothing more, and a guest on
	# a busy machine runs several times slower (the lab tier runs beside the
	# others): each is LAB_SLOWDOWN times what the test names.
	local slow=${LAB_SLOWDOWN:-3}
	local name=$1 scenario=$2 qtmo=$(( ${LAB_QEMU_TIMEOUT:-$((LAB_TIMEOUT + 60))} * slow ))
	local stage rc t0 t1 secs
	shift 2
	LAB_CONSOLE=$OUT/lab-$name.console
	LAB_OUTPUT=$OUT/lab-$name.out
	: >"$LAB_CONSOLE"; : >"$LAB_OUTPUT"
	case ${LAB_BATCH:-} in
	collect:*) lab_collect "${LAB_BATCH#collect:}" "$name" "$scenario" "$@"; return 2 ;;
	replay:*) lab_replay "${LAB_BATCH#replay:}" "$name"; return ;;
	esac
	local LAB_TIMEOUT=$((LAB_TIMEOUT * slow))
	if ! lab_ready; then
		skip "lab $name" "$LAB_WHY"
		return 2
	fi
	if [ ! -x "$FTC_STATIC" ]; then
		fail "lab $name" "$FTC_STATIC not found: run 'make static${LAB_CROSS:+ CROSS_COMPILE=$LAB_CROSS}' first"
		return 1
	fi
	if [ -n "$(find "$TOP/cmd" "$TOP/libftc" -newer "$FTC_STATIC" -name '*.[ch]' 2>/dev/null | head -1)" ]; then
		echo "NOTE: sources are newer than $FTC_STATIC: run 'make static${LAB_CROSS:+ CROSS_COMPILE=$LAB_CROSS}' to test them"
	fi
	stage=$(mktemp -d "${TMPDIR:-/tmp}/ftc-lab.XXXXXX") || return 1
	if ! lab_initrd "$stage" "$scenario" "$@"; then
		rm -rf "$stage"
		fail "lab $name" "could not build the initramfs"
		return 1
	fi
	t0=$(date +%s.%N)
	lab_boot "$stage" "$qtmo"
	rc=$?
	# No second boot after a freeze or a panic: the freezes that once seemed
	# to need one came with multi-threaded TCG, as the panics did, and none
	# was counted without it (see lab_boot); another boot would hide a hang
	# of ftc's as well.
	t1=$(date +%s.%N)
	rm -rf "$stage"
	secs=$(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }')
	echo "lab $name: $(basename "$LAB_KERNEL") under qemu exited $rc after $secs s; console in $LAB_CONSOLE"
	LAB_QEMU_RC=$rc LAB_QEMU_LIMIT=$qtmo
	lab_scenario_output
	lab_verdict "lab $name" "$rc" "$secs" "$qtmo"
}

# lab_scenario_output: LAB_OUTPUT from LAB_CONSOLE, the scenario's own
# lines without the exported files' data.
lab_scenario_output() {
	tr -d '\r' <"$LAB_CONSOLE" | awk '
		/^@@LAB END /	{ exit }
		on && /@@LAB BEGIN / { print "== reboot"; next }
		on && /^@@LAB FILE .* BEGIN$/ { skip = 1; next }
		skip && /^@@LAB FILE .* END / { skip = 0; print "(exported " $3 ")"; next }
		on && !skip	{ print }
		/@@LAB BEGIN /	{ on = 1 }' >"$LAB_OUTPUT"
}

# Shared boots (tests/lab/kernel-6.12.sh): a boot costs more than most
# scenarios, so several scenarios can run in one. A test script runs twice:
# with LAB_BATCH=collect:DIR its lab_run keeps the scenario, its files and
# its time limit in DIR/NAME and boots nothing (returning 2, so the script
# stops there); one boot then runs every kept scenario in turn (lab_part),
# its console in DIR/console; with LAB_BATCH=replay:DIR the script's
# lab_run takes its scenario's part of that console as its own, judges it
# as if it had booted alone, and the script's checks run on it unchanged.
# Scenarios that panic or reboot on purpose, or need boot arguments of
# their own, cannot share a boot.

# lab_collect DIR NAME SCENARIO FILES...
lab_collect() {
	local dir=$1 part=$1/$2 scenario=$3
	shift 3
	rm -rf "$part" && mkdir -p "$part/root" || return 1
	if [ "$scenario" = - ]; then cat >"$part/scenario"
	else cp "$scenario" "$part/scenario"; fi || return 1
	echo "$LAB_TIMEOUT" >"$part/timeout"
	lab_copy_files "$part/root" "$@" || return 1
	echo "$(basename "$part")" >>"$dir/list"
}

# lab_batch_scenario DIR: the shared boot's scenario, every kept part in
# the order kept, each under LAB_SLOWDOWN times its own limit.
lab_batch_scenario() {
	local p
	while read -r p; do
		echo "lab_part $p $(($(cat "$1/$p/timeout") * ${LAB_SLOWDOWN:-3}))"
	done <"$1/list"
}

# lab_replay DIR NAME: NAME's part of the shared boot's console (DIR/console;
# qemu's exit status and time limit in DIR/rc and DIR/limit) as
# LAB_CONSOLE, judged as a boot of its own.
lab_replay() {
	local con=$1/console name=$2 kernel rc=0 secs
	kernel=$(tr -d '\r' <"$con" | sed -n 's/^@@LAB BEGIN \([^ ]*\) .*/\1/p' | head -1)
	if ! tr -d '\r' <"$con" | grep -q "^@@LAB PART $name BEGIN "; then
		fail "lab $name" "the shared boot never began this scenario (an earlier one stopped the guest?): $con"
		return 1
	fi
	# A part without its end marker ran until the guest stopped: its slice
	# runs to the console's end, where the panic or the hang shows.
	tr -d '\r' <"$con" | awk -v b="@@LAB PART $name BEGIN " -v e="@@LAB PART $name END " -v k="$kernel" '
		index($0, b) == 1 { on = 1; sub(/.* uptime=/, ""); print "@@LAB BEGIN " k " uptime=" $0; next }
		on && index($0, e) == 1 { sub(/^@@LAB PART [^ ]* END /, "@@LAB END "); print; exit }
		on' >"$LAB_CONSOLE"
	grep -q '^@@LAB END ' "$LAB_CONSOLE" || rc=$(cat "$1/rc")
	secs=$(sed -n 's/^@@LAB \(BEGIN\|END\) .*uptime=\([0-9.]*\).*/\2/p' "$LAB_CONSOLE" |
		awk 'NR == 1 { t0 = $1 } { t1 = $1 } END { printf "%.1f", t1 - t0 }')
	echo "lab $name: part of the shared boot of $kernel ($con), $secs s"
	lab_scenario_output
	LAB_SPAN="in a shared boot" lab_verdict "lab $name" "$rc" "$secs" "$(cat "$1/limit")"
}

# lab_module TEST: builds the lab's module (tests/lab/module, against the
# lab kernel's headers) and sets LAB_KO to its .ko; without the headers, a
# SKIP line for TEST with the reason, and 1.
lab_module() {
	if ! LAB_KO=$("$TOP/tests/lab/module/build" 2>"$OUT/lab-module-build.err"); then
		skip "$1" "$(cat "$OUT/lab-module-build.err")"
		return 1
	fi
}

# lab_binary_files BIN NAME: the lab_run FILE arguments that put the host's
# BIN in the guest as /bin/NAME, with the libraries it loads where the
# guest's loader finds them (the guest has no C library of its own), one
# a line: mapfile -t -O "${#args[@]}" args < <(lab_binary_files ...).
lab_binary_files() {
	local lib
	echo "$(command -v "$1")=/bin/$2"
	for lib in $(ldd "$(command -v "$1")" | awk '$2 == "=>" { print $3 } $1 ~ /^\// { print $1 }'); do
		echo "$(readlink -f "$lib")=$lib"
	done
}

# lab_section TITLE: the lines the scenario printed between "== TITLE" and
# the next "== " line, to assert on one part of the output at a time.
lab_section() {
	sed -n "/^== $1\$/,/^== /p" "$LAB_OUTPUT" | sed '1d;/^== /d'
}

lab_file() {
	local con=$OUT/lab-$1.console path=$2 dest=$3 end want_size want_sum
	[ -f "$con" ] || { echo "lab_file: no console log $con: did lab_run $1 run?" >&2; return 1; }
	end=$(tr -d '\r' <"$con" | grep -F "@@LAB FILE $path END " | tail -1)
	if [ -z "$end" ]; then
		echo "lab_file: the guest did not export '$path' (call lab_export $path in the scenario)" >&2
		return 1
	fi
	want_size=$(echo "$end" | sed -n 's/.* size=\([0-9]*\).*/\1/p')
	want_sum=$(echo "$end" | sed -n 's/.* sha256=\([0-9a-f]*\).*/\1/p')
	tr -d '\r' <"$con" | awk -v b="@@LAB FILE $path BEGIN" -v e="@@LAB FILE $path END " '
		$0 == b		{ on = 1; n = 0; next }
		on && index($0, e) == 1 { on = 0; next }
		# an emergency kernel line ("[   12.458660] Disabling IRQ #4", which
		# printk level 1 still shows) may cut into a line: it is no data, and
		# the size and sha256 below vouch for what is left
		on		{ sub(/\[ *[0-9]+\.[0-9]+\] .*$/, ""); data[n++] = $0 }
		END		{ for (i = 0; i < n; i++) print data[i] }' | base64 -d >"$dest" 2>/dev/null ||
		{ echo "lab_file: '$path' from $con is not valid base64 (kernel messages mixed in?)" >&2; return 1; }
	if [ "$(wc -c <"$dest")" != "$want_size" ] ||
	   [ "$(sha256sum <"$dest" | cut -d' ' -f1)" != "$want_sum" ]; then
		echo "lab_file: '$path' came back damaged: $(wc -c <"$dest") bytes, want $want_size with sha256 $want_sum" >&2
		return 1
	fi
}

# lab_fetch RUN PATH DEST WHAT: lab_file, or else a failure "WHAT comes back"
# with lab_file's reason, and the end of the test (nothing after it can pass).
lab_fetch() {
	lab_file "$1" "$2" "$3" 2>"$OUT/last.err" && return 0
	fail "$4 comes back" "$(cat "$OUT/last.err")"
	finish
}
