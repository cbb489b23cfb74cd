#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Off-board capture from the guest: `ftc record --send /dev/ttyS1` in the
# guest streams through a second UART, a QEMU character device connected
# to `ftc listen` on the host's loopback (127.0.0.1 only; the guest has no
# network). The host's file must hold what the guest traced, read by
# ftc report and trace-cmd, with the guest's own kernel in it; the guest
# keeps no file. The capture includes the function tracer, which only the lab has.
# With LAB_ARCH=arm64 (tests/lab/arm64-listen.sh) the guest is the arm64
# one, whose virt board has a single PL011 UART, the console: the stream
# goes through a PCI 16550 instead (qemu's pci-serial; Debian's arm64
# kernel has 8250_pci built in), the guest's ttyS0.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

D=$OUT/lab-listen.d
rm -rf "$D"; mkdir -p "$D"
LPID=""
trap '[ -n "$LPID" ] && kill "$LPID" 2>/dev/null' EXIT
if ! lab_ready; then
	skip "lab listen" "$LAB_WHY"
	finish
fi
"$FTC" listen -p 0 --bind 127.0.0.1 --once -d "$D" >"$D.port" 2>"$D.log" & LPID=$!
for _ in $(seq 1 50); do
	PORT=$(awk '/^listening on/ { print $5 }' "$D.port" 2>/dev/null)
	[ -n "$PORT" ] && break
	sleep 0.1
done
[ -n "$PORT" ] || { fail "lab listen: ftc listen on the host" "$(cat "$D.log")"; finish; }

CHR="-chardev socket,id=ftcsend,host=127.0.0.1,port=$PORT"
if [ "$LAB_ARCH" = arm64 ]; then
	DEV=/dev/ttyS0
	export LAB_QEMU_ARGS="$CHR -device pci-serial,chardev=ftcsend"
else
	DEV=/dev/ttyS1
	export LAB_QEMU_ARGS="-serial mon:stdio $CHR -serial chardev:ftcsend"
fi
echo "$DEV" >"$D.dev"
LAB_TIMEOUT=${LAB_TIMEOUT:-120} lab_run listen - "$D.dev=/lab/dev" <<'EOF' || finish
I=ftc-listen-lab
DEV=$(cat /lab/dev)
echo "== record"
ftc record -B $I -p function -l do_sys_openat2 -e sched -e irq --send $DEV -- \
	sh -c 'for i in $(seq 1 200); do echo "listen-lab-$i" > /sys/kernel/tracing/instances/ftc-listen-lab/trace_marker; done; cat /proc/version >/dev/null'
echo "record status=$?"
echo "== files"
# (ftc's journal folder /tmp/ftc-UID is no trace and holds no file after)
find /tmp -type f
echo "== tty"
readlink -f /sys/class/tty/${DEV#/dev/}/device
echo "== uname"
uname -r
uname -m
EOF
wait "$LPID"; lst=$?; LPID=""
out=$(cat "$LAB_OUTPUT")
expect_match "lab listen: record --send $DEV exits 0 in the guest" '^record status=0' "$out"
[ "$LAB_ARCH" = arm64 ] &&
	expect_match "lab listen: $DEV is the PCI 16550" '/pci[0-9a-f]{4}:[0-9a-f]{2}/' "$(lab_section tty)"
[ -z "$(lab_section files)" ] && pass "lab listen: the guest keeps no file" ||
	fail "lab listen: the guest keeps no file" "$(lab_section files)"
[ $lst = 0 ] && pass "lab listen: ftc listen --once exits 0 (the capture came whole)" ||
	fail "lab listen: ftc listen --once exits 0" "exit $lst: $(cat "$D.log")"
f=$(ls "$D"/trace.127.0.0.1:*.dat 2>/dev/null | head -1)
if [ -z "$f" ]; then
	fail "lab listen: the host has the file" "$(ls "$D"; cat "$D.log")"
	finish
fi
n=$("$FTC" report -i "$f" 2>/dev/null | grep -c 'listen-lab-')
[ "$n" = 200 ] && pass "lab listen: ftc report finds the guest's 200 markers" ||
	fail "lab listen: ftc report finds the guest's 200 markers" "$n"
# The function entries name their callers with the guest's own symbols.
sc=__x64_sys_openat
[ "$LAB_ARCH" = arm64 ] && sc=__arm64_sys_openat
expect_match "lab listen: ftc report shows the guest's function tracer, called from $sc" \
	"do_sys_openat2 <-$sc\$" "$("$FTC" report -i "$f" 2>&1 | grep -m3 do_sys_openat2)"
st=$("$FTC" report -i "$f" --stat 2>&1)
expect_match "lab listen: the guest's irq events are in it" 'irq_handler_entry|softirq_entry' "$st"
# The loss the guest's recorder printed is what the file's CPU stats say.
# its summary line ("ftc record: N events, M lost ..."), not another line
# that says lost
lost_rec=$(sed -n 's/^ftc record: [0-9]* events, \([0-9]*\) lost.*/\1/p' "$LAB_OUTPUT" | head -1)
lost_file=$(echo "$st" | awk '/^instance +cpu/ { t = 1; next } t && NF >= 4 { s += $4 } END { print s + 0 }')
[ -n "$lost_rec" ] && [ "$lost_rec" = "$lost_file" ] &&
	pass "lab listen: the guest's printed loss ($lost_rec) = the file's CPU stats" ||
	fail "lab listen: the guest's printed loss = the file's CPU stats" "'$lost_rec' vs '$lost_file'"
if command -v trace-cmd >/dev/null; then
	m=$(trace-cmd report -i "$f" 2>/dev/null | grep -c 'listen-lab-')
	[ "$m" = 200 ] && pass "lab listen: trace-cmd reads the streamed file" ||
		fail "lab listen: trace-cmd reads the streamed file" "$m markers: $(trace-cmd report -i "$f" 2>&1 | head -2)"
	expect_match "lab listen: trace-cmd sees the guest's function tracer (which the host refuses)" \
		'function: +do_sys_openat2' "$(trace-cmd report -i "$f" 2>/dev/null | grep -m3 do_sys_openat2)"
	u=$(lab_section uname | head -1) m=$(lab_section uname | sed -n 2p)
	expect_match "lab listen: the file names the guest's kernel ($u) and machine ($m)" " $u .* $m\$" \
		"$(trace-cmd dump --options -i "$f" 2>&1)"
fi
echo "lab listen: $(stat -c %s "$f") bytes over $DEV; $(grep -o 'complete.*' "$D.log")"
finish
