# SPDX-License-Identifier: GPL-2.0-or-later
# ftc sched against the kernel's own answers, in the lab (6.1): the
# wakeup-latency synthetic event and hist trigger of the kernel's histogram
# documentation run beside an ftc capture of the same sleeper, in the same
# (top-level) buffer: the trigger's common_timestamp is then the very
# timestamp of the record ftc reads, so the wakeup-to-run latencies ftc
# measures are the kernel's: as many, each to the microsecond (the kernel
# subtracts two timestamps each cut to us), and the summary's count and
# maximum for the task are the histogram's. Then the
# slow disk of perf's tutorials: a dm-delay target (real dmsetup) with
# 30 ms of read delay over a loop device, a program reading it N times
# with O_DIRECT: ftc sched record and offcpu give the time the reads took
# by the program's own clock, +-10%, in state D under io_schedule, with the
# block path above it and the program's own main in the user stack; each
# read takes 30 ms or more (dm-delay's timer waits whole jiffies: 32-36 ms
# at this kernel's 250 Hz); on the host, the same file gives the same time.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

NAME="lab sched"
N=20
D=$(mktemp -d /tmp/ftc-labsched.XXXXXX)
trap 'rm -rf "$D"' EXIT
if ! MODS=$("$TOP/scripts/lab-kernel" --modules 2>"$D/mods.err"); then
	skip "$NAME" "no lab kernel modules: $(tail -1 "$D/mods.err")"
	finish
fi
for t in cc dmsetup python3; do
	command -v $t >/dev/null || { skip "$NAME" "$t is not installed"; finish; }
done
cat >"$D/nap.c" <<'EOF'
#include <time.h>
int main(void)
{
	struct timespec t = { 0, 10000000 };

	for (int i = 0; i < 100; i++)
		nanosleep(&t, 0);
	return 0;
}
EOF
cat >"$D/slowread.c" <<'EOF'
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
static long long now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}
int main(int argc, char **argv)
{
	int fd = open(argv[1], O_RDONLY | O_DIRECT), n = atoi(argv[2]);
	long long t0 = now_us();
	void *b;

	if (fd < 0 || posix_memalign(&b, 4096, 4096))
		return 1;
	for (int i = 0; i < n; i++)
		if (pread(fd, b, 4096, (off_t)i * 8192) != 4096)
			return 1;
	printf("read_us=%lld\n", now_us() - t0);
	return 0;
}
EOF
# static (the guest has no libc); the user stacks are unwound with DWARF: glibc's
# pread has no frame pointer, and an fp chain would skip main
for p in nap slowread; do
	if ! cc -static -O0 -fno-omit-frame-pointer -o "$D/$p" "$D/$p.c" 2>"$D/cc.err"; then
		skip "$NAME" "cannot build a static program: $(tail -1 "$D/cc.err")"
		finish
	fi
done
echo $N >"$D/n"
args=("$MODS=/lab/mod" "$D/nap=/lab/nap" "$D/slowread=/lab/slowread" "$D/n=/lab/n")
mapfile -t -O "${#args[@]}" args < <(lab_binary_files dmsetup dmsetup)

LAB_TIMEOUT=120 lab_run sched - "${args[@]}" <<'EOF' || finish
T=/sys/kernel/tracing
N=$(cat /lab/n)
for m in $(cat /lab/mod/modules.list); do
	insmod /lab/mod/$m.ko 2>/dev/null || echo "insmod $m failed"
done
echo "== hist"
# one clock for every CPU on both sides: a guest's local clocks drift apart
echo global >$T/trace_clock
echo 'wakeup_latency u64 lat; pid_t pid' >>$T/synthetic_events
echo 'hist:keys=pid,lat:sort=pid,lat' >>$T/events/synthetic/wakeup_latency/trigger
# Armed before the capture, for a name only the sleeper has from its exec
# on; ftc's records mark that exec: both count its wakeups from there.
echo 'hist:keys=pid:ts0=common_timestamp.usecs if comm=="napz"' >>$T/events/sched/sched_waking/trigger
echo 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid) if next_comm=="napz"' \
	>>$T/events/sched/sched_switch/trigger
echo "triggers=$?"
cp /lab/nap /tmp/napz
# The top-level buffer, where the triggers are: an instance's records are
# stamped a moment apart from the ones the triggers read.
ftc record -q -C global -e sched:sched_switch -e sched:sched_waking \
	-e sched:sched_process_exec -o /tmp/w.dat -- /tmp/napz
echo "record=$?"
grep -E '^\{' $T/events/synthetic/wakeup_latency/hist
ftc report /tmp/w.dat | grep -m1 'sched_process_exec:.*napz' |
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) print "armed=" $i }'
ftc sched timehist --comm napz /tmp/w.dat
echo "sched=$?"
lab_export /tmp/w.dat
echo "== disk"
dd if=/dev/zero of=/tmp/disk.img bs=1M count=4 2>/dev/null
losetup /dev/loop0 /tmp/disk.img
echo "0 8192 delay /dev/loop0 0 30" | DM_DISABLE_UDEV=1 dmsetup create slow --noudevsync
echo "dmsetup=$?"
ftc sched record -q -B d --call-graph dwarf -o /tmp/d.dat -- /lab/slowread /dev/mapper/slow $N
echo "record=$?"
ftc sched offcpu --comm slowread --folded /tmp/d.dat
echo "offcpu=$?"
DM_DISABLE_UDEV=1 dmsetup remove slow --noudevsync
losetup -d /dev/loop0
lab_export /tmp/d.dat
EOF

# --- the kernel's histogram and ftc's wakeup latency -----------------------
hist=$(lab_section hist)
expect_match "$NAME: the synthetic event and hist triggers are set" '^triggers=0$' "$hist"
expect_match "$NAME: ftc records the sleeper beside them" '^record=0$' "$hist"
# The kernel's: "{ pid: P, lat: US } hitcount: N", one latency per line.
echo "$hist" | awk '/^\{ pid: / { gsub(/[{},:]/, " "); for (i = 0; i < $NF; i++) print $4 }' |
	sort -n >"$D/kernel.lat"
# ftc's: the delay of each stretch woken after the exec (switched out at
# $1, it ran $6 ms after a delay of $5 ms), after a sleep (S or D), not a
# preemption (as the kernel's).
armed=$(echo "$hist" | sed -n 's/^armed=\(.*\):$/\1/p')
echo "$hist" | awk -v armed="${armed:-0}" '$3 ~ /^napz\[/ {
	if ((out == "S" || out == "D") && $1 - ($6 + $5) / 1000 > armed)
		printf "%d\n", $5 * 1000 + 0.5
	out = $7 }' | sort -n >"$D/ftc.lat"
# The kernel's histogram also takes a waking of the sleeper while it runs
# (it was going to sleep, and did not), and the next switch-in, after a
# preemption, ends that latency. ftc counts wakeups of a task off the CPU
# only. Those are found in the records, from the exec on (the sleeper
# runs then), and taken out of the kernel's.
lab_file sched /tmp/w.dat "$D/w.dat" && "$FTC" report -t "$D/w.dat" 2>/dev/null |
	python3 -c '
import re, sys
pid, run, stale, on = sys.argv[1], True, None, False
for l in sys.stdin:
	on = on or "sched_process_exec:" in l and "napz" in l
	m = on and re.search(r" ([0-9.]+): (sched_switch|sched_waking): (.*)$", l)
	if not m:
		continue
	ts, ev, rest = float(m.group(1)), m.group(2), m.group(3)
	if ev == "sched_waking" and re.search(r"\bpid=%s\b" % pid, rest):
		stale = ts if run else None
	elif ev == "sched_switch" and re.search(r"==> napz:%s " % pid, rest):
		if stale is not None:
			print(int((ts - stale) * 1e6))
		run, stale = True, None
	elif ev == "sched_switch" and rest.startswith("napz:%s " % pid):
		run = False' "$(echo "$hist" | sed -n 's/^.*napz\[\([0-9]*\)\].*$/\1/p' | head -1)" >"$D/stale.lat"
python3 - "$D/kernel.lat" "$D/stale.lat" >"$D/kernel.kept" <<'PY'
import sys
lat = [int(x) for x in open(sys.argv[1])]
for s in (int(x) for x in open(sys.argv[2])):
	near = [v for v in lat if abs(v - s) <= max(25, s / 20)]
	if near:
		lat.remove(min(near, key=lambda v: abs(v - s)))
print("\n".join(str(v) for v in sorted(lat)))
PY
stale=$(wc -l <"$D/stale.lat")
mv "$D/kernel.kept" "$D/kernel.lat"
kc=$(wc -l <"$D/kernel.lat"); fc=$(wc -l <"$D/ftc.lat")
# the evidence of a disagreement, kept for the reader of the log
keep_evidence() {
	mkdir -p "$OUT/lab-sched" && cp "$D"/*.lat "$OUT/lab-sched/" &&
		{ [ ! -f "$D/w.dat" ] || cp "$D/w.dat" "$OUT/lab-sched/"; } &&
		echo "$hist" >"$OUT/lab-sched/hist.txt"
}
[ "$kc" = "$fc" ] || keep_evidence
[ -n "$armed" ] && [ "$kc" -ge 90 ] && [ "$kc" = "$fc" ] &&
	pass "$NAME: ftc measures as many wakeup latencies of the sleeper as the kernel's histogram: $kc (and $stale from a waking while it ran)" ||
	fail "$NAME: ftc measures as many wakeup latencies as the kernel's histogram" \
		"kernel $kc, ftc $fc (exec at ${armed:-?})"
# The same timestamps on both sides: the kernel's latency is the switch's
# us less the waking's us, ftc's the difference in ns shown in us: they
# differ by 1 us at most, never more (sorted apart, a pair may be two
# neighbours: the sums must then agree to 1 us a latency too).
ok=$(paste "$D/kernel.lat" "$D/ftc.lat" | awk '{ d = $1 - $2; d = d < 0 ? -d : d
	if (d <= 1) n++ } END { print n + 0 }')
sums=$(paste "$D/kernel.lat" "$D/ftc.lat" | awk '{ k += $1; f += $2 } END { print k + 0, f + 0 }')
read -r ksum fsum <<<"$sums"
kmax=$(tail -1 "$D/kernel.lat"); fmax=$(tail -1 "$D/ftc.lat")
[ "$kc" -ge 90 ] && [ "$ok" = "$kc" ] &&
	pass "$NAME: all $kc latencies are the kernel's to 1 us (sum: ftc $fsum us, kernel $ksum us; longest: ftc $fmax, kernel $kmax)" ||
	fail "$NAME: every latency is the kernel's to 1 us" \
		"$ok of $kc: $(paste "$D/kernel.lat" "$D/ftc.lat" | awk '{ d = $1 - $2 } d > 1 || d < -1' |
		head -4 | tr '\n\t' '; ')"
# The summary (ftc sched latency --json): the sleeper's wakeups seen asleep
# and their longest latency, against the histogram's count and maximum.
if [ -f "$D/w.dat" ]; then
	sum=$("$FTC" sched latency --json --comm napz "$D/w.dat" 2>&1 | python3 -c '
import json, sys
t = [t for t in json.load(sys.stdin)["tasks"] if t["comm"] == "napz"][0]
print(t["woken"]["count"], t["woken"]["max_ns"])' 2>&1)
	read -r wc wmax <<<"$sum"
	expect_match "$NAME: the summary's wakeup count is the histogram's: $wc (kernel $kc)" "^$kc\$" "$wc"
	expect_match "$NAME: the summary's longest wakeup latency is the histogram's: ${wmax:-?} ns (kernel $kmax us)" \
		'^ok$' "$(awk -v n="$wmax" -v k="$kmax" 'BEGIN { d = int(n / 1000) - k
			print (n != "" && d <= 1 && d >= -1) ? "ok" : "off by " d " us" }')"
fi

# --- the slow disk -----------------------------------------------------------
disk=$(lab_section disk)
expect_match "$NAME: dmsetup makes the 30 ms delay target" '^dmsetup=0$' "$disk"
expect_match "$NAME: ftc sched record --call-graph dwarf records the reader" '^record=0$' "$disk"
within() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; }
us=$(echo "$disk" | awk '/^slowread;.*;main;.*io_schedule[a-z_]*_\[k\];.*;\[D\] [0-9]+$/ { s += $NF }
	END { print s + 0 }')
read_us=$(echo "$disk" | sed -n 's/^read_us=//p')
[ "${read_us:-0}" -ge $((N * 30000)) ] &&
	pass "$NAME: the $N reads took $read_us us by the program's clock, 30 ms or more each" ||
	fail "$NAME: the $N reads took 30 ms or more each" "${read_us:-no} us"
within "$us" $((${read_us:-0} * 9 / 10)) $((${read_us:-0} * 11 / 10)) &&
	pass "$NAME: offcpu: $us us in D under main and io_schedule (the reads' $read_us us +-10%)" ||
	fail "$NAME: offcpu: the reads' time +-10% in D under main and io_schedule" \
		"$us us of ${read_us:-?}: $(echo "$disk" | grep '^slowread' | head -3)"
expect_match "$NAME: the block path is in the stack" \
	'^slowread;.*(blkdev|__blk|submit_bio)[a-z_]*_\[k\].*\[D\] [0-9]+$' "$disk"
# The host has not the guest's program to unwind its user stacks with:
# both sides count every stack under io_schedule, with main or without.
d_time() { awk '/io_schedule[a-z_]*_\[k\];.*;\[D\] [0-9]+$/ { s += $NF } END { print s + 0 }'; }
if lab_file sched /tmp/d.dat "$D/d.dat"; then
	host=$("$FTC" sched offcpu --comm slowread --folded "$D/d.dat" 2>/dev/null | d_time)
	guest=$(echo "$disk" | grep '^slowread;' | d_time)
	[ "$host" = "$guest" ] && pass "$NAME: the host reads the same D time from the file: $host us" ||
		fail "$NAME: the host reads the same D time from the file" "host $host us, guest $guest us"
else
	fail "$NAME: the capture comes back to the host" "$(tail -3 "$LAB_CONSOLE")"
fi
finish
