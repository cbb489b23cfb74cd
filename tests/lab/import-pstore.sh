# SPDX-License-Identifier: GPL-2.0-or-later
# ftc import of a pstore file, the path for a board with no serial cable:
# the guest boots with 1 MB of RAM reserved (memmap=), loads ramoops on
# it, traces with ftc (oops-dump orig_cpu, a filtered function tracer),
# sends its kallsyms back and crashes through sysrq. The panic writes the
# tail of the kernel log, ftrace's dump included, into that RAM and
# reboots (LAB_REBOOTS=1: panic=1; qemu keeps the guest's RAM across the
# reset). The second boot loads ramoops on the same region, finds the log
# in /sys/fs/pstore/dmesg-ramoops-0 and sends it back; on the host ftc
# import --kallsyms (the crashed kernel's, from the first boot: KASLR
# moves the second) makes a capture whose last records lead into
# sysrq_handle_crash. The serial console is not read for the dump.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

NAME="lab import-pstore"
# 1 MB at 256 MB: far below the initrd, which qemu loads at the top of RAM
# on every boot; KASLR keeps the kernel out of memmap= regions. The
# region holds 4 KB each for console, ftrace and pmsg (absent from this
# kernel) and 3 dmesg records of 256 KB, each more than the whole dump.
RAMOOPS="mem_address=0x10000000 mem_size=0x100000 record_size=0x40000"
if ! MODS=$("$TOP/scripts/lab-kernel" --modules 2>"$OUT/import-pstore.mod.err"); then
	skip "$NAME" "$(tail -1 "$OUT/import-pstore.mod.err")"
	finish
fi
if ! [ -f "$MODS/ramoops.ko" ] || ! [ -f "$MODS/reed_solomon.ko" ]; then
	skip "$NAME" "no ramoops.ko or reed_solomon.ko in $MODS (built in, or not CONFIG_PSTORE_RAM=m)"
	finish
fi

LAB_REBOOTS=1 LAB_TIMEOUT=60 LAB_QEMU_TIMEOUT=150 LAB_APPEND='memmap=1M$0x10000000' \
	lab_run import-pstore - "$MODS=/lab/mod" <<EOF || finish
insmod /lab/mod/reed_solomon.ko
insmod /lab/mod/ramoops.ko $RAMOOPS; echo "ramoops status=\$?"
mount -t pstore pstore /sys/fs/pstore; echo "mount status=\$?"
if [ -n "\$(ls /sys/fs/pstore)" ]; then
	echo "== pstore"
	ls /sys/fs/pstore
	for f in /sys/fs/pstore/dmesg-ramoops-*; do
		cp "\$f" /tmp/ && lab_export "/tmp/\${f##*/}"
	done
	exit 0
fi
echo "== first"
ftc oops-dump orig_cpu; echo "orig_cpu status=\$?"
ftc start -q -p function -l 'sysrq*' -l __handle_sysrq -l do_sys_openat2
echo "start status=\$?"
ls / >/dev/null
grep " [tTwW] " /proc/kallsyms | gzip -c >/tmp/k.gz; lab_export /tmp/k.gz; sleep 1
echo 1 >/proc/sys/kernel/sysrq
echo c >/proc/sysrq-trigger
EOF

# The first boot's output is what comes before "== reboot".
first=$(sed '/^== reboot$/,$d' "$LAB_OUTPUT")
expect_match "$NAME: the first boot loads ramoops on the reserved RAM" '^ramoops status=0$' "$first"
expect_match "$NAME: the first boot finds pstore empty and traces" '^== first$' "$first"
expect_match "$NAME: ftc start exits 0" '^start status=0$' "$first"
again=$(lab_section reboot)
expect_match "$NAME: the second boot loads ramoops on the same RAM" '^ramoops status=0$' "$again"
expect_match "$NAME: after the reboot ramoops finds the panic's log" '^dmesg-ramoops-0$' \
	"$(lab_section pstore)"
lab_fetch import-pstore /tmp/dmesg-ramoops-0 "$OUT/import-pstore.log" "$NAME: dmesg-ramoops-0"
if ! lab_file import-pstore /tmp/k.gz "$OUT/import-pstore.k.gz" 2>"$OUT/last.err" ||
   ! gzip -dc "$OUT/import-pstore.k.gz" >"$OUT/import-pstore.kallsyms"; then
	fail "$NAME: the first boot's kallsyms come back" "$(cat "$OUT/last.err")"
	finish
fi
expect_match "$NAME: the pstore record is the panic's, part 1" '^Panic#1 Part1$' \
	"$(head -1 "$OUT/import-pstore.log")"
expect_match "$NAME: it holds ftrace's dump" '^<[0-9]>\[ *[0-9.]+\] Dumping ftrace buffer:$' \
	"$(cat "$OUT/import-pstore.log")"
expect_status "$NAME: ftc import --kallsyms of the pstore file exits 0" 0 \
	"$FTC" import --kallsyms "$OUT/import-pstore.kallsyms" -o "$OUT/import-pstore.dat" \
	"$OUT/import-pstore.log"
cat "$OUT/last.out" "$OUT/last.err"
"$FTC" report -i "$OUT/import-pstore.dat" >"$OUT/import-pstore.ftc" 2>&1
trace-cmd report -i "$OUT/import-pstore.dat" >"$OUT/import-pstore.tc" 2>&1
cpu=$(sed -n 's/.*\] CPU: \([0-9]*\) PID: [0-9]* Comm: sh .*/\1/p' "$OUT/import-pstore.log" | head -1)
last=$(grep -E "^ *[^ ]+ +\[0*$cpu\] " "$OUT/import-pstore.ftc" | tail -1)
expect_match "$NAME: the crashing CPU's (${cpu:-?}) last record is sh's sysrq_handle_crash" \
	'^ *sh-[0-9]+ +\[[0-9]+\] .* sysrq_handle_crash <-__handle_sysrq' "$last"
expect_match "$NAME: __handle_sysrq <-write_sysrq_trigger leads into it" \
	'__handle_sysrq <-write_sysrq_trigger$' "$(cat "$OUT/import-pstore.ftc")"
expect_match "$NAME: trace-cmd prints the crash as a function record" \
	"sh-[0-9]+ +\[0*$cpu\] .*function: +sysrq_handle_crash" "$(cat "$OUT/import-pstore.tc")"
finish
