# SPDX-License-Identifier: GPL-2.0-or-later
# ftc kwork against trace-cmd: the irq and workqueue events of a few
# seconds of disk and timer work, recorded in an instance of ours; per hard
# interrupt, softirq vector and work function, the runs and their time
# equal what trace-cmd report's records of the same file add up to (entry
# to exit on one CPU; times to trace-cmd's microseconds); latency's delays
# likewise from each vector's first raise. Bad values and a file without
# these events get their exit codes.
. "$(dirname "$0")/../lib.sh"

for t in trace-cmd python3; do
	command -v $t >/dev/null || { skip "kwork" "$t is not installed"; finish; }
done
D=$OUT/kwork.$$
rm -rf "$D"; mkdir -p "$D"
I=$(test_instance kwork)
trap 'instances_remove "$I"; [ "$T_FAILED" = 0 ] && rm -rf "$D"' EXIT
knobs_save
work="for i in 1 2 3 4 5 6 7 8; do dd if=/dev/zero of=$D/f bs=64k count=64 conv=fsync 2>/dev/null; sleep 0.05; done; rm -f $D/f"
if ! "$FTC" record -q -B "$I" -e irq -e workqueue -o "$D/k.dat" -- sh -c "$work" >"$D/rec.log" 2>&1; then
	fail "setup: ftc record -e irq -e workqueue" "$(tail -2 "$D/rec.log")"
	finish
fi
# tc_rows [FROM_US]: "CLASS NAME-OR-ID COUNT TOTAL_US DELAYS DELAY_US" from
# trace-cmd's records (of FROM_US on), microseconds
tc_rows() { trace-cmd report -N -i "$D/k.dat" 2>/dev/null | python3 -c '
import re, sys, collections
start = int(sys.argv[1]) if len(sys.argv) > 1 else 0
cur, si, wq, queued = {}, {}, {}, {}
raised = collections.defaultdict(dict)
n = collections.Counter(); t = collections.Counter(); d = collections.Counter(); dt = collections.Counter()
for l in sys.stdin:
    m = re.search(r"\[(\d+)\]\s+(\d+)\.(\d+): (\w+):\s+(.*)", l)
    if not m:
        continue
    cpu, ev, rest = int(m.group(1)), m.group(4), m.group(5)
    ts = int(m.group(2)) * 10**6 + int(m.group(3).ljust(6, "0")[:6])
    if ts < start:
        continue
    def f(name):
        # workqueue events print "work struct=0x..", "work struct 0x..:", "function NAME"
        m = re.search(name + r"[= ](\S+?):?(?:\s|$)", rest)
        return m.group(1) if m else ""

    if ev == "irq_handler_entry":
        cur[cpu] = (f("irq"), ts)
    elif ev == "irq_handler_exit":
        if cur.get(cpu, (None,))[0] == f("irq"):
            k = ("irq", f("irq")); n[k] += 1; t[k] += ts - cur[cpu][1]
        cur.pop(cpu, None)
    elif ev == "softirq_raise":
        raised[cpu].setdefault(f("vec"), ts)
    elif ev == "softirq_entry":
        si[cpu] = (f("vec"), ts, raised[cpu].pop(f("vec"), None))
    elif ev == "softirq_exit":
        if si.get(cpu, (None,))[0] == f("vec"):
            k = ("softirq", f("vec")); n[k] += 1; t[k] += ts - si[cpu][1]
            if si[cpu][2] is not None:
                d[k] += 1; dt[k] += si[cpu][1] - si[cpu][2]
        si.pop(cpu, None)
    elif ev == "workqueue_queue_work":
        queued.setdefault(f("struct"), ts)
    elif ev == "workqueue_execute_start":
        wq[cpu] = (f("struct"), f("function"), ts, queued.pop(f("struct"), None))
    elif ev == "workqueue_execute_end":
        if wq.get(cpu, (None,))[0] == f("struct"):
            k = ("work", wq[cpu][1]); n[k] += 1; t[k] += ts - wq[cpu][2]
            if wq[cpu][3] is not None:
                d[k] += 1; dt[k] += wq[cpu][2] - wq[cpu][3]
        wq.pop(cpu, None)
for k in sorted(n):
    print(k[0], k[1], n[k], t[k], d[k], dt[k])
' "$@" | sort; }
# ftc_rows ARGS...: the same from ftc kwork --json: ids for irqs and vectors, function names for work
ftc_rows() { "$FTC" kwork --json "$@" 2>"$D/k.err" | python3 -c '
import json, sys
for i in json.load(sys.stdin)["items"]:
    key = i["name"] if i["class"] == "work" else str(i["id"])
    print(i["class"], key, i["count"], i["run_ns"] // 1000, i["delays"], i["delay_ns"] // 1000)
' | sort; }
# compare A B: "ROWS DIFFERING WHY"
compare() { python3 - "$1" "$2" <<'PY'
import sys
def rows(p):
    return {tuple(l.split()[:2]): [int(x) for x in l.split()[2:]] for l in open(p)}
tc, ft = rows(sys.argv[1]), rows(sys.argv[2])
bad = []
for k in sorted(set(tc) | set(ft)):
    a, b = tc.get(k), ft.get(k)
    if a is None or b is None:
        bad.append("%s: trace-cmd %s, ftc %s" % (" ".join(k), a, b))
        continue
    # times: trace-cmd's microseconds, each run's ends cut apart (1 us per run)
    if a[0] != b[0] or a[2] != b[2] or abs(a[1] - b[1]) > a[0] + 1 or abs(a[3] - b[3]) > a[2] + 1:
        bad.append("%s: trace-cmd %s, ftc %s" % (" ".join(k), a, b))
print(len(tc), len(bad), "; ".join(bad[:3]))
PY
}
tc_rows >"$D/tc.rows"
ftc_rows "$D/k.dat" >"$D/ftc.rows"
compare "$D/tc.rows" "$D/ftc.rows" >"$D/cmp"
read -r nrows nbad why <"$D/cmp"
[ "${nrows:-0}" -ge 2 ] && [ "$nbad" = 0 ] &&
	pass "every one of the $nrows handlers: the runs, time and delays trace-cmd's records give" ||
	fail "every handler: the runs, time and delays trace-cmd's records give" "$nrows rows, $nbad differ: $why"
n=$(grep -c '^softirq ' "$D/ftc.rows")
[ "$n" -ge 1 ] && pass "softirqs were timed ($n vectors)" || fail "softirqs were timed" "$(cat "$D/ftc.rows")"

# --from: what trace-cmd's records give from the middle of the capture on
# (a microsecond with no record near it: trace-cmd rounds to microseconds)
mid=$(mid_gap "$D/k.dat")
tc_rows "${mid/./}" >"$D/tc-from.rows"
ftc_rows --from "$mid" "$D/k.dat" >"$D/ftc-from.rows"
read -r nrows nbad why < <(compare "$D/tc-from.rows" "$D/ftc-from.rows")
n_all=$(awk '{ n += $3 } END { print n + 0 }' "$D/ftc.rows")
n_from=$(awk '{ n += $3 } END { print n + 0 }' "$D/ftc-from.rows")
[ "${nrows:-0}" -ge 1 ] && [ "$nbad" = 0 ] && [ "$n_from" -lt "$n_all" ] &&
	pass "--from $mid: trace-cmd's runs from then on ($n_from of $n_all)" ||
	fail "--from $mid: trace-cmd's runs from then on" "$nrows rows, $nbad differ ($n_from of $n_all): $why"
expect_status "--from after --to exits 2" 2 "$FTC" kwork --from 2 --to 1 "$D/k.dat"
expect_match "... saying so" "is after --to" "$(cat "$OUT/last.err")"
expect_status "a window before the capture exits 3" 3 "$FTC" kwork --to 1 "$D/k.dat"
expect_match "... saying where the capture's records are" \
	'no irq or workqueue record lies between the start and --to 1\.000000000; the capture.s records run from [0-9]+\.[0-9]{9} on$' \
	"$(cat "$OUT/last.err")"
expect_status "--from that is not a time exits 2" 2 "$FTC" kwork --from 1x "$D/k.dat"

# Live: every CPU's interrupts and work while the command runs.
"$FTC" kwork --json -- sh -c "$work" >"$D/live.json" 2>"$D/live.err"
st=$?
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
classes = {i["class"] for i in d["items"]}
sys.exit(0 if "softirq" in classes and "irq" in classes else 1)' "$D/live.json" 2>/dev/null &&
	[ $st = 0 ] && pass "live -- COMMAND: exit 0, its disk's interrupts and softirqs counted" ||
	fail "live -- COMMAND: exit 0, interrupts and softirqs counted" "exit $st: $(head -c 300 "$D/live.json") $(tail -2 "$D/live.err")"
expect_status "live: the command's exit status is passed on" 3 "$FTC" kwork -- sh -c 'exit 3'
expect_status "-a --duration 1 exits 0" 0 "$FTC" kwork -a --duration 1
expect_match "... a table" '^  CLASS +NAME' "$(cat "$OUT/last.out")"
expect_status "-a with a file exits 2" 2 "$FTC" kwork -a "$D/k.dat"
expect_status "--duration without -a or a command exits 2" 2 "$FTC" kwork --duration 1 "$D/k.dat"
[ -z "$(ls -d "$TRACEFS"/instances/ftc_kwork_* 2>/dev/null)" ] && pass "live: no instance left" ||
	fail "live: no instance left" "$(ls -d "$TRACEFS"/instances/ftc_kwork_*)"

expect_status "latency exits 0" 0 "$FTC" kwork latency "$D/k.dat"
expect_match "... its table" '^  CLASS +NAME +CPU +DELAYS' "$(cat "$OUT/last.out")"
expect_status "-k softirq --per-cpu exits 0" 0 "$FTC" kwork -k softirq --per-cpu "$D/k.dat"
grep -qv '^  softirq \|^  CLASS' "$OUT/last.out" && fail "-k softirq: softirqs only" "$(head -3 "$OUT/last.out")" ||
	pass "-k softirq: softirqs only"
"$FTC" record -q -B "$I" -e sched:sched_switch -o "$D/nok.dat" -- true >/dev/null 2>&1
expect_status "a file without irq or workqueue events exits 3" 3 "$FTC" kwork "$D/nok.dat"
expect_match "... and says what to record" "record -e irq -e workqueue" "$(cat "$OUT/last.err")"
expect_status "a bad class exits 2" 2 "$FTC" kwork -k irqs "$D/k.dat"
expect_status "a bad sort key exits 2" 2 "$FTC" kwork -s nosuch "$D/k.dat"
expect_status "-s delay with report exits 2" 2 "$FTC" kwork report -s delay "$D/k.dat"
expect_status "an unknown view exits 2" 2 "$FTC" kwork reprot "$D/k.dat"
knobs_unchanged "ftc kwork"
finish
