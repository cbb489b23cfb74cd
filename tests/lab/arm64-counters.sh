# SPDX-License-Identifier: GPL-2.0-or-later
# Hardware counters on a board: the arm64 guest (qemu-system-aarch64 -M virt
# -cpu max, whose emulated Armv8 PMU counts cycles and, with -icount
# shift=0, exact instructions) runs ftc-static-arm64. ftc check sees the
# PMU; ftc stat prints real counts, the insn-per-cycle ratio and
# <not supported> for what the PMU lacks; an inline-asm loop of known
# length counts within 1%; ftc profile -e cycles finds the hot function.
# Then a mixed session (sched and irq events, counters, cycle samples with
# call chains) comes back to the host, where x86 ftc report (text, --stat,
# --sample-profile with the board's binaries under --symfs) and trace-cmd
# read it. One boot.
. "$(dirname "$0")/../lib.sh"
LAB_ARCH=arm64 LAB_ICOUNT=1
. "$(dirname "$0")/lab.bash"

# The workload, as the board would have it at /lab/workload: the host
# keeps it under $root for --symfs.
root=$OUT/board-arm64
mkdir -p "$root/lab"
if ! command -v aarch64-linux-gnu-gcc >/dev/null; then
	skip "lab arm64-counters" "aarch64-linux-gnu-gcc not found (scripts/install-deps installs it)"
	finish
fi
setup "build the arm64 workload" aarch64-linux-gnu-gcc -std=gnu11 -Wall -Wextra -Werror -O2 -g \
	-fno-omit-frame-pointer -static -o "$root/lab/workload" "$TOP/tests/lab/board/workload.c" ||
	finish

# The loop runs 2 instructions a turn: TURNS turns, and 1 turn for what
# the program costs around it (start-up, exit).
TURNS=10000000
LAB_TIMEOUT=120 lab_run arm64-counters - "$root/lab/workload" <<EOF || finish
echo "== check"
ftc check | grep '^perf-'
echo "== stat"
ftc stat -e cycles,instructions,task-clock -- /lab/workload hot 2000000 2>&1
echo "status=\$?"
echo "== unsupported"
ftc stat -e cycles,branch-misses -- /lab/workload hot 1000 2>&1
echo "== loop"
ftc stat -x, -e instructions:u -- /lab/workload loop $TURNS 2>&1
ftc stat -x, -e instructions:u -- /lab/workload loop 1 2>&1
echo "== profile"
ftc profile -e cycles -- /lab/workload hot 10000000 2>&1 | head -8
echo "== record"
ftc record -e sched -e irq --counters cycles,instructions --sample cycles --call-graph fp \\
	-o /tmp/m.dat -- /lab/workload mixed 4000000
echo "status=\$?"
echo "== end"
lab_export /tmp/m.dat
EOF

s=$(lab_section check)
expect_match "lab arm64-counters: ftc check lists the hardware counters as present" \
	'^perf-hardware +ok ' "$s"
s=$(lab_section stat)
expect_match "lab arm64-counters: ftc stat exits 0" '^status=0$' "$s"
expect_match "lab arm64-counters: ftc stat counts cycles" '^ +[1-9][0-9,]+ +cycles ' "$s"
expect_match "lab arm64-counters: ftc stat counts instructions, with insn per cycle" \
	'^ +[1-9][0-9,]+ +instructions +# +[0-9.]+ +insn per cycle' "$s"
expect_match "lab arm64-counters: ftc stat measures task-clock" '^ +[0-9.]+ msec task-clock ' "$s"
expect_match "lab arm64-counters: what the emulated PMU lacks is <not supported>" \
	'<not supported> +branch-misses' "$(lab_section unsupported)"

# CSV: count,unit,event,...
s=$(lab_section loop)
big=$(printf '%s\n' "$s" | awk -F, '$3 == "instructions:u" { print $1 }' | sed -n 1p)
one=$(printf '%s\n' "$s" | awk -F, '$3 == "instructions:u" { print $1 }' | sed -n 2p)
check=$(awk -v b="$big" -v o="$one" -v n="$TURNS" 'BEGIN {
	if (b !~ /^[0-9]+$/ || o !~ /^[0-9]+$/) { print "no counts: [" b "] [" o "]"; exit }
	want = 2 * n; got = b - o; err = (got - want) / want * 100
	printf "%s %d instructions for %d known (%+.4f%%; %d in all, %d around the loop)",
		(err < 1 && err > -1) ? "ok" : "off", got, want, err, b, o }')
expect_match "lab arm64-counters: the asm loop's instructions agree within 1% ($check)" '^ok ' \
	"$check"

s=$(lab_section profile)
expect_match "lab arm64-counters: ftc profile -e cycles puts the hot loop's function first" \
	'^ +(9[0-9]|[5-8][0-9])\.[0-9]+% +workload +workload +\[\.\] hot_spin$' \
	"$(printf '%s\n' "$s" | grep -m1 '%')"

s=$(lab_section record)
expect_match "lab arm64-counters: ftc record with counters and samples exits 0" '^status=0$' "$s"
expect_match "lab arm64-counters: ftc record took the samples" '^ftc record: [1-9][0-9]* samples of cycles' "$s"
dat=$OUT/lab-arm64-counters.dat
lab_fetch arm64-counters /tmp/m.dat "$dat" "lab arm64-counters: the board's trace.dat"
rep=$("$FTC" report "$dat" 2>&1)
expect_match "lab arm64-counters: x86 ftc report prints the board's sched_switch" \
	' sched_switch: .* ==> ' "$rep"
expect_match "lab arm64-counters: ... its interrupts" ' irq_handler_entry: irq=[0-9]+ ' "$rep"
expect_match "lab arm64-counters: ... its counter readings" 'ftc_perf: .* counter: ' "$rep"
expect_match "lab arm64-counters: ... kernel frames named from the board's kallsyms in the file" \
	'sample: ip=0xffff[0-9a-f]+ [a-z_0-9.]+\+0x[0-9a-f]+ \[k\]' "$rep"
st=$("$FTC" report --stat "$dat" 2>&1)
expect_match "lab arm64-counters: ftc report --stat counts the samples" '^  sample +[1-9]' "$st"
expect_match "lab arm64-counters: ftc report --stat: nothing lost on the board" \
	'^\(top\) +0 +[0-9]+ +0 ' "$st"
p=$("$FTC" report --sample-profile "$dat" 2>&1)
expect_match "lab arm64-counters: without --symfs the board's binary has no names here" \
	'workload +\[\.\] workload\+0x' "$p"
p=$("$FTC" report --sample-profile --symfs "$root" "$dat" 2>&1)
expect_match "lab arm64-counters: --symfs names the hot function from the board's binary" \
	'^ +[0-9.]+% +[5-9][0-9]\.[0-9]+% +workload +workload +\[\.\] hot_spin$' "$p"
expect_match "lab arm64-counters: ... and the kernel's from the file's kallsyms" \
	'\[kernel\.kallsyms\] +\[k\] [a-z_]' "$p"
expect_match "lab arm64-counters: the printed samples take --symfs too" \
	'sample: ip=0x[0-9a-f]+ hot_spin\+0x[0-9a-f]+ \[workload\]' \
	"$("$FTC" report --symfs "$root" "$dat" 2>&1)"
tc=$(trace-cmd report "$dat" 2>&1)
n_ftc=$(printf '%s\n' "$rep" | grep -c ' sched_switch: ')
n_tc=$(printf '%s\n' "$tc" | grep -c ' sched_switch: ')
expect_match "lab arm64-counters: trace-cmd reads the board's file: as many sched_switch ($n_tc, ftc $n_ftc)" \
	"^$n_ftc\$" "$n_tc"
expect_match "lab arm64-counters: trace-cmd sees the samples instance" 'ftc_perf: .*sample:' "$tc"
finish
