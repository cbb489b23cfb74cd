# SPDX-License-Identifier: GPL-2.0-or-later
# The recorder on a board: ftc record's CPU time per event and its peak RSS
# in the arm64 lab guest (qemu-system-aarch64 -M virt -cpu max, TCG:
# figures of the emulated board, not of real hardware), next to the same
# figures in the x86 lab guest of the same run (same emulator, same
# scenario, same load). The load, a getppid loop, runs beside the recorder
# (not its child, so that busybox time counts ftc alone); ftc records
# sys_enter_getppid for 3 s, once idle and once under the load: the CPU
# per event is the difference over the events'. Skips without the lab
# (tests/lab/README.md).
# Not a test.
set -u
. "$TOP/tests/lib.sh"

# run_arch ARCH CC: one boot; prints "ARCH events cpu_s idle_cpu_s rss_kb".
run_arch() (
	LAB_ARCH=$1
	. "$TOP/tests/lab/lab.bash"
	wl=$OUT/board-$1-workload
	$2 -std=gnu11 -O2 -static -o "$wl" "$TOP/tests/lab/board/workload.c" 2>/dev/null ||
		{ echo "$1: cannot build the workload with $2"; return 1; }
	LAB_TIMEOUT=120 lab_run "bench-$1" - "$wl=/lab/workload" <<'EOF' >"$OUT/bench-$1.log" 2>&1
# rec TAG: ftc record for 3 s, its events, CPU seconds and peak RSS.
rec() {
	busybox time -v ftc record -b 1024 -e syscalls:sys_enter_getppid -o /tmp/b.dat -- \
		sleep 3 >/tmp/rec.out 2>&1
	tr '\r' '\n' </tmp/rec.out | grep -E '^ftc record: [0-9]+ events|User time|System time|Maximum resident' |
		sed "s/^/$1 /"
}
rec idle
/lab/workload sys 1000000000 &
load=$!
sleep 1
rec load
kill $load
EOF
	case $? in
	0) ;;
	2) echo "$1: skipped: $(grep -m1 '^SKIP' "$OUT/bench-$1.log")"; return 1 ;;
	*) echo "$1: the guest failed: $(grep -m1 '^FAIL' "$OUT/bench-$1.log")"; return 1 ;;
	esac
	awk -v a="$1" '
		/ ftc record: [0-9]+ events/ { ev[$1] = $4 }
		/User time|System time/ { cpu[$1] += $NF }
		/Maximum resident/ { rss[$1] = $NF }
		END { print a, ev["load"] - ev["idle"], cpu["load"] - cpu["idle"], cpu["idle"],
			rss["load"] + 0 }' "$LAB_OUTPUT"
)

x86=$(run_arch x86_64 cc) || { echo "board bench: $x86"; exit 0; }
arm=$(run_arch arm64 aarch64-linux-gnu-gcc) || { echo "board bench: $arm"; exit 0; }
# CPU per event: what the load added over an idle run of the same length
# (the idle run's CPU is the fixed cost: set-up, kallsyms, the file's end).
printf '%s\n%s\n' "$x86" "$arm" | awk '
	{ per[$1] = $2 > 0 ? $3 / $2 * 1e6 : 0; ev[$1] = $2; fixed[$1] = $4; rss[$1] = $5 }
	END {
		printf "%-8s %10s %14s %12s %12s\n", "guest", "events", "cpu us/event",
			"fixed cpu s", "peak rss KB"
		for (a in per)
			printf "%-8s %10d %14.2f %12.2f %12d\n", a, ev[a], per[a], fixed[a], rss[a]
		if (per["x86_64"] > 0 && rss["x86_64"] > 0 && fixed["x86_64"] > 0)
			printf "arm64/x86_64: cpu per event %.2f, fixed cpu %.2f, peak rss %.2f\n",
				per["arm64"] / per["x86_64"], fixed["arm64"] / fixed["x86_64"],
				rss["arm64"] / rss["x86_64"]
	}'
