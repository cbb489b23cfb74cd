# SPDX-License-Identifier: GPL-2.0-or-later
# ftc stat's overhead against perf stat's on the same workloads: wall time
# of the whole run (tool start-up, counter set-up, workload, report), medians
# of alternating runs, printed with the ratios to the bare workload and to
# perf. Not a test: it prints numbers.
set -u
. "$(dirname "$0")/lib.sh"
RUNS=${RUNS:-11}
# Opening ~360 syscall tracepoints costs the kernel ~9 s (perf and ftc alike).
GLOB_RUNS=${GLOB_RUNS:-3}

command -v perf >/dev/null || { echo "stat bench: perf is not installed (apt install linux-perf)"; exit 0; }
build_getppid_loop "$OUT/syscalls" || { echo "stat bench: cc failed"; exit 0; }

now() { date +%s.%N; }
# elapsed COMMAND...: wall seconds of one run, output thrown away.
elapsed() { local t0; t0=$(now); "$@" >/dev/null 2>&1; awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.6f\n", b - a }'; }

# bench NAME EVENTS WORKLOAD...: alternate bare, ftc and perf runs.
bench() {
	local name=$1 events=$2 i; shift 2
	local eopt=()
	[ -n "$events" ] && eopt=(-e "$events")
	: >"$OUT/stat-bare" ; : >"$OUT/stat-ftc" ; : >"$OUT/stat-perf"
	for i in $(seq "${N:-$RUNS}"); do
		elapsed "$@" >>"$OUT/stat-bare"
		elapsed "$FTC" stat "${eopt[@]}" -- "$@" >>"$OUT/stat-ftc"
		elapsed perf stat "${eopt[@]}" -- "$@" >>"$OUT/stat-perf"
	done
	local b f p
	b=$(median <"$OUT/stat-bare"); f=$(median <"$OUT/stat-ftc"); p=$(median <"$OUT/stat-perf")
	printf '%-34s bare %8.4fs  ftc %8.4fs  perf %8.4fs  ftc/bare %s  perf/bare %s  ftc/perf %s\n' \
		"$name" "$b" "$f" "$p" "$(ratio "$f" "$b")" "$(ratio "$p" "$b")" "$(ratio "$f" "$p")"
}

echo "stat: medians of $RUNS alternating runs ($GLOB_RUNS for the glob), wall time, tool included"
bench "default set, true" "" true
bench "default set, 1M getppid" "" "$OUT/syscalls" 1000000
bench "sys_enter_getppid, 1M getppid" "syscalls:sys_enter_getppid" "$OUT/syscalls" 1000000
N=$GLOB_RUNS bench "sys_enter_* (glob), 200k getppid" "syscalls:sys_enter_*" "$OUT/syscalls" 200000
bench "default set, sh forking 200 times" "" sh -c 'i=0; while [ $i -lt 200 ]; do /bin/true; i=$((i+1)); done'
