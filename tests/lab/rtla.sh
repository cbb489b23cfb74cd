# SPDX-License-Identifier: GPL-2.0-or-later
# The real-time latency tracers on Debian 12's 6.12 PREEMPT_RT kernel
# (LAB_KERNEL=6.12-rt; the plain flavour has them off): in one boot,
# ftc record -p timerlat and -p osnoise -e osnoise with their settings
# (--tracer-opt), each put back afterwards; ftc rtla's every per-CPU figure
# recomputed on the host from the same file's records as trace-cmd prints
# them; and rtla itself (Debian's, run in the guest back to back, same
# period) giving figures of the same order.
. "$(dirname "$0")/../lib.sh"
export LAB_KERNEL=6.12-rt
. "$(dirname "$0")/lab.bash"

NAME="lab rtla"
D=$(mktemp -d /tmp/ftc-labrtla.XXXXXX)
trap 'rm -rf "$D"' EXIT
args=()
# Debian's rtla, and its libraries, are the host's: an x86_64 guest only
if [ "${LAB_ARCH:-x86_64}" = x86_64 ] && command -v rtla >/dev/null; then
	mapfile -t args < <(lab_binary_files rtla rtla)
fi

# noirqdebug: under timerlat the spurious-IRQ check disabled the console's
# IRQ 4 ("Disabling IRQ #4") and the scenario's last lines never came out
LAB_APPEND=noirqdebug LAB_TIMEOUT=120 lab_run rtla - "${args[@]}" <<'EOF' || finish
T=/sys/kernel/tracing
echo "== tracers"
cat $T/available_tracers
echo "period_before=$(cat $T/osnoise/timerlat_period_us)"
echo "== timerlat"
ftc record -q -p timerlat --tracer-opt osnoise/timerlat_period_us=1000 -o /tmp/t.dat -- sleep 3
echo "record=$?"
echo "period_after=$(cat $T/osnoise/timerlat_period_us) tracer=$(cat $T/current_tracer)"
ftc rtla /tmp/t.dat
lab_export /tmp/t.dat
echo "== osnoise"
# in the kernel's order: the runtime must fit the period when each is written
ftc record -q -p osnoise -e osnoise --tracer-opt osnoise/runtime_us=50000 \
	--tracer-opt osnoise/period_us=100000 -o /tmp/n.dat -- sleep 3
echo "record=$?"
ftc rtla osnoise /tmp/n.dat
lab_export /tmp/n.dat
echo "== rtla"
if [ -x /bin/rtla ]; then
	# its screen's colour escapes and no final newline would hide the end mark
	rtla timerlat top -q -d 3 -p 1000 2>&1 | tr -d '\033' | tail -8
	echo
fi
echo "== end"
EOF

expect_match "$NAME: the -rt kernel has timerlat and osnoise" 'timerlat.*osnoise|osnoise.*timerlat' \
	"$(lab_section tracers)"
tl=$(lab_section timerlat)
expect_match "$NAME: ftc record -p timerlat exits 0" '^record=0$' "$tl"
before=$(lab_section tracers | sed -n 's/^period_before=//p')
expect_match "$NAME: --tracer-opt's period is put back, and the tracer" \
	"^period_after=$before tracer=nop$" "$tl"

# recompute: per CPU and context, count/min/max/sum in ns, from trace-cmd's text
# (the format's "seq:%u context:%d timer_latency:%llu"; context 0 irq, 1 thread, 2 user)
recompute_timerlat() {
	trace-cmd report -i "$1" 2>/dev/null | python3 -c '
import re, sys, collections
names = {"0": "irq", "1": "thread", "2": "user"}
s = collections.defaultdict(lambda: [0, None, 0, 0])
for l in sys.stdin:
	m = re.search(r"\[(\d+)\].* timerlat:\s+seq:\d+\s+context:(\w+)\s+timer_latency:(\d+)", l)
	if not m:
		continue
	k = (int(m.group(1)), names.get(m.group(2), m.group(2)))
	v = int(m.group(3))
	e = s[k]
	e[0] += 1; e[1] = v if e[1] is None else min(e[1], v); e[2] = max(e[2], v); e[3] += v
for (cpu, ctx), e in sorted(s.items()):
	print(cpu, ctx, e[0], e[1], e[2], e[3])'
}
ftc_timerlat() {
	"$FTC" rtla --json "$1" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
for c in d["timerlat"]:
	for ctx in ("irq", "thread", "user"):
		if ctx in c:
			l = c[ctx]
			print(c["cpu"], ctx, l["count"], l["min_ns"], l["max_ns"], l["avg_ns"] * l["count"])'
}
if lab_file rtla /tmp/t.dat "$D/t.dat"; then
	want=$(recompute_timerlat "$D/t.dat")
	got=$(ftc_timerlat "$D/t.dat")
	# the JSON's average is rounded down: compare the sums to a count's worth of ns
	same=$(paste <(echo "$want") <(echo "$got") | awk '{ d = $6 - $12; if (d < 0) d = -d
		if ($1 != $7 || $2 != $8 || $3 != $9 || $4 != $10 || $5 != $11 || d > $3) bad++; n++ }
		END { print (n && !bad) ? "same " n : "differ" }')
	[ -n "$want" ] && [ "${same%% *}" = same ] &&
		pass "$NAME: timerlat: every CPU and context's count, min, max and sum are trace-cmd's records' (${same#same } rows)" ||
		fail "$NAME: timerlat: the figures are trace-cmd's records'" "trace-cmd: $(echo "$want" | head -3 | tr '\n' ';') ftc: $(echo "$got" | head -3 | tr '\n' ';')"
	rt=$(lab_section rtla)
	if [ -n "$rt" ]; then
		# rtla's rows "  CPU COUNT | cur min avg max | cur min avg max" in us: its
		# IRQ average against ours, the same order (within 20x either way)
		ra=$(echo "$rt" | awk -F'|' '$1 ~ /^ *[0-9]+ +#?[0-9]+ *$/ { split($2, v, " "); s += v[3]; n++ }
			END { if (n) print s / n }')
		fa=$("$FTC" rtla --json "$D/t.dat" | python3 -c '
import json, sys
c = [x["irq"] for x in json.load(sys.stdin)["timerlat"] if "irq" in x]
print(sum(x["avg_ns"] for x in c) / len(c) / 1000 if c else "")')
		awk -v a="$ra" -v b="$fa" 'BEGIN { exit !(a > 0 && b > 0 && a / b < 20 && b / a < 20) }' &&
			pass "$NAME: rtla timerlat top's IRQ average and ftc's are of the same order ($ra us, $fa us)" ||
			fail "$NAME: rtla timerlat top's IRQ average and ftc's are of the same order" "rtla '$ra' us, ftc '$fa' us: $(echo "$rt" | tail -3 | tr '\n' ';')"
	else
		skip "$NAME: against rtla" "$([ "${LAB_ARCH:-x86_64}" = x86_64 ] &&
			echo "rtla is not installed on the host (apt-get install rtla)" ||
			echo "the host's rtla runs on x86_64 only, not in the $LAB_ARCH guest")"
	fi
fi

on=$(lab_section osnoise)
expect_match "$NAME: ftc record -p osnoise -e osnoise exits 0" '^record=0$' "$on"
if lab_file rtla /tmp/n.dat "$D/n.dat"; then
	# the format prints no runtime: "noise:%llu max_sample:%llu hw:%u nmi:%u irq:%u softirq:%u thread:%u"
	want=$(trace-cmd report -i "$D/n.dat" 2>/dev/null | python3 -c '
import re, sys, collections
s = collections.defaultdict(lambda: [0, 0, 0, 0, 0, 0, 0, 0])
for l in sys.stdin:
	m = re.search(r"\[(\d+)\].* osnoise:\s+noise:(\d+)\s+max_sample:(\d+)\s+hw:(\d+)\s+nmi:(\d+)\s+irq:(\d+)\s+softirq:(\d+)\s+thread:(\d+)", l)
	if m:
		v = [int(x) for x in m.groups()]
		e = s[v[0]]
		e[0] += 1; e[1] += v[1]; e[2] = max(e[2], v[2])
		for i in range(3, 8):
			e[i] += v[i]
for cpu, e in sorted(s.items()):
	print(cpu, *e)')
	got=$("$FTC" rtla osnoise --json "$D/n.dat" 2>/dev/null | python3 -c '
import json, sys
for c in json.load(sys.stdin)["osnoise"]:
	print(c["cpu"], c["periods"], c["noise_us"], c["max_single_us"], c["hw"], c["nmi"], c["irq"],
	      c["softirq"], c["thread"])')
	[ -n "$want" ] && [ "$want" = "$got" ] &&
		pass "$NAME: osnoise: every CPU's periods, noise, longest noise and counts are trace-cmd's records' ($(echo "$got" | wc -l) CPUs)" ||
		fail "$NAME: osnoise: the sums are trace-cmd's records'" "trace-cmd: $(echo "$want" | tr '\n' ';') ftc: $(echo "$got" | tr '\n' ';')"
	# runtime_us=50000 a period. The kernel ends a period at the first
	# sample at or past 50 ms, so a period overshoots by one sample, and a
	# sample is no longer than the longest noise (CI's busy TCG guest: 62 ms
	# a period beside 66 ms of noise); stopping cuts each CPU's last one
	# short. The default runtime (1 s a period) stays far outside.
	expect_match "$NAME: osnoise: --tracer-opt's runtime took effect (50 ms a period, plus a sample)" '^ok$' \
		"$("$FTC" rtla osnoise --json "$D/n.dat" 2>/dev/null | python3 -c '
import json, sys
c = [x for x in json.load(sys.stdin)["osnoise"] if x["periods"]]
def ok(x):
	p = x["periods"]
	return 50000 * (p - 1) <= x["runtime_us"] <= p * (50000 + x["max_single_us"] + 1000)
print("ok" if c and all(ok(x) for x in c) else c)')"
	expect_match "$NAME: osnoise: the noise events name their sources" '"kind": ?"(irq|softirq|thread)"' \
		"$("$FTC" rtla osnoise --json "$D/n.dat" 2>&1)"
fi
finish
