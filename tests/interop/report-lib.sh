# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the report tests: a fixture made by trace-cmd on this host,
# and a normaliser that turns trace-cmd's and ftc's text into comparable
# records. Sourced by tests/interop/report-*.sh and tests/fuzz/*.sh; run on
# its own (as tests/run does) it checks the normaliser on known lines.

# report_fixture FILE BUFFER_KB [MARKERS]: events from sched, syscalls and
# trace_marker in a private instance, extracted by trace-cmd (v7 zstd).
report_fixture() {
	local file=$1 kb=$2 n=${3:-2000} inst i dir
	inst=$(test_instance "report$RANDOM")
	dir=$TRACEFS/instances/$inst
	mkdir "$dir" || return 1
	echo "$kb" >"$dir/buffer_size_kb"
	echo 1 >"$dir/events/sched/sched_switch/enable"
	echo 1 >"$dir/events/sched/sched_wakeup/enable" 2>/dev/null
	echo 1 >"$dir/events/syscalls/sys_enter_write/enable" 2>/dev/null
	for i in $(seq "$n"); do
		echo "marker $i" >"$dir/trace_marker"
		[ $((i % 200)) = 0 ] && sleep 0.001
	done
	echo 0 >"$dir/tracing_on"
	trace-cmd extract -B "$inst" -o "$file" >"$file.log" 2>&1
	local st=$?
	# trace-cmd removes the instance it extracted; make sure it is gone.
	[ -d "$dir" ] && rmdir "$dir" 2>/dev/null
	[ $st = 0 ] && [ -s "$file" ]
}

# report_normalize tc|ftc: one line per record, "DROP..." markers attached to
# the next record, sorted by timestamp (ties by content: both tools order
# equal timestamps differently).
report_normalize() {
	python3 -c '
import re, sys
mode = sys.argv[1]
ev = re.compile(r"^(?:(\S+): )?\s*(.*)-(\d+)\s+\[(\d+)\]\s+(?:\S+\s+)?(\d+)\.(\d+): ([^: ]+):\s*(.*)$")
drop = re.compile(r"^(?:(\S+): )?(CPU:\d+ \[(?:\d+ )?EVENTS DROPPED\])$")
# ftc says it its own way: "CPU 1: [LOST 12 EVENTS]", "CPU 1: [LOST EVENTS]".
ftc_drop = re.compile(r"^(?:(\S+): )?CPU (\d+): \[LOST (?:(\d+) )?EVENTS\]$")
out, pend, pinst = [], "", ""
for line in sys.stdin:
    line = line.rstrip("\n")
    m = ftc_drop.match(line)
    if m:
        line = (m.group(1) + ": " if m.group(1) else "") + "CPU:%s [%sEVENTS DROPPED]" % (
            m.group(2), m.group(3) + " " if m.group(3) else "")
    if not line or line.startswith("#") or line.startswith("cpus=") or line.startswith("version"):
        continue
    m = drop.match(line)
    if m:
        pend += m.group(2) + ";"
        pinst = m.group(1) or ""
        continue
    m = ev.match(line)
    if not m:
        out.append((0, "UNPARSED " + line))
        continue
    inst, comm, pid, cpu, s, frac, name, info = m.groups()
    ns = int(s) * 10**9 + int(frac.ljust(9, "0"))
    info = " ".join(info.split())
    # trace-cmd prints the instance once, on the lost marker before the record.
    if pend and not inst:
        inst = pinst
    out.append((ns, "%s|%d|%d|%d|%s|%s|%s|%s" % (inst or "", ns, int(cpu), int(pid), comm.strip(), name, info, pend)))
    pend = ""
out.sort()
for _, l in out:
    print(l)
' "$1"
}

# report_diff TC.norm FTC.norm: the records that differ (as diff's "<" and
# ">" lines), or nothing and success. The COMM column alone may differ for a
# pid the records name twice (it exec'd in the capture: "R ==> bash:N",
# then "sleep:N S ==>"): ftc names it as the file's saved command lines do,
# trace-cmd as libtraceevent's sched_switch plugin last registered it, which
# depends on where the report starts (P11: "bash" against "sleep" in a
# buffer whose first pages were overwritten).
report_diff() {
	python3 - "$1" "$2" <<'PY'
import re, sys
a = open(sys.argv[1]).read().splitlines()
b = open(sys.argv[2]).read().splitlines()
names = {}
for l in a + b:
    f = l.split("|")
    if len(f) >= 8:
        for c, p in re.findall(r"(\S+):(\d+) \[", f[6]):
            names.setdefault(p, set()).add(c)
def same(x, y):
    if x == y:
        return True
    f, g = x.split("|"), y.split("|")
    return (len(f) == len(g) >= 8 and f[:4] + f[5:] == g[:4] + g[5:] and
            len(names.get(f[3], ())) > 1)
bad = [(x, y) for x, y in zip(a, b) if not same(x, y)]
if len(a) != len(b):
    bad.append(("%d records" % len(a), "%d records" % len(b)))
for x, y in bad[:3]:
    print("< " + x)
    print("> " + y)
sys.exit(1 if bad else 0)
PY
}

# report_sorted: succeeds when the timestamps of ftc text on stdin never go back.
report_sorted() {
	python3 -c '
import re, sys
last = -1
for line in sys.stdin:
    m = re.search(r"\s(\d+)\.(\d+): ", line)
    if line.startswith("#") or not m:
        continue
    ns = int(m.group(1)) * 10**9 + int(m.group(2).ljust(9, "0"))
    if ns < last:
        sys.exit(1)
    last = ns
'
}

# report_comm_split TC_NORM FTC_NORM CMDLINES: succeeds when the two
# normalised reports differ only in task names that the readers take from
# different places, printing "LINES PIDS". A pid whose saved name in the file
# (CMDLINES: "PID COMM" lines) is stale (32768 pids wrap within a test run,
# and the kernel skips a cmdline update it cannot lock) is named by each
# reader from the file or from a sched_switch or sched_wakeup naming it
# (libtraceevent keeps a plugin's registration made before its first lookup
# as a second entry, which its search may find): seen named "ftc-asan" (the
# name before the exec) by trace-cmd, "sh" (its name then) by ftc and
# "sleep" (another task's, long before) by the file. Each name must be one
# the file gives that pid; every other field must be equal.
report_comm_split() {
	python3 - "$@" <<'PY'
import re, sys
tc = open(sys.argv[1]).read().splitlines()
ft = open(sys.argv[2]).read().splitlines()
saved = dict(l.split(None, 1) for l in open(sys.argv[3]) if len(l.split(None, 1)) == 2)
if len(tc) != len(ft):
    sys.exit(1)
# every name the records give each pid (sched_switch and sched_wakeup name both tasks)
names = {}
for l in tc:
    f = l.split("|")
    if len(f) > 6 and f[5] in ("sched_switch", "sched_wakeup"):
        for comm, pid in re.findall(r"(?:^|\s|=)([^\s=]+):(\d+)", f[6]):
            names.setdefault(pid, set()).add(comm)
lines, pids = 0, set()
for a, b in zip(tc, ft):
    if a == b:
        continue
    fa, fb = a.split("|"), b.split("|")
    if len(fa) != len(fb) or len(fa) < 7 or fa[:4] + fa[5:] != fb[:4] + fb[5:]:
        sys.exit(1)
    pid = fa[3]
    known = names.get(pid, set()) | {saved.get(pid, "").strip()}
    if fa[4] not in known or fb[4] not in known:
        sys.exit(1)
    lines += 1
    pids.add(pid)
print(lines, len(pids))
PY
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	. "$(dirname "$0")/../lib.sh"
	tc='cpus=2
inst:             bash-7577  [001]   608.034382742: sched_switch:         bash:7577 [120] S ==> x:1 [120]
inst: CPU:0 [12 EVENTS DROPPED]
inst:           <idle>-0     [000]   608.034694620: print:                tracing_mark_write: hi'
	ft='# tracer: nop
inst:           <idle>-0       [000] d..2.   608.034694620: print: tracing_mark_write: hi
inst: CPU 0: [LOST 12 EVENTS]
inst:             bash-7577    [001] d..2.   608.034382742: sched_switch: bash:7577 [120] S ==> x:1 [120]'
	a=$(printf '%s\n' "$tc" | report_normalize tc)
	b=$(printf '%s\n' "$ft" | report_normalize ftc)
	# The marker moves with its record, so the two must differ here...
	if [ "$(echo "$a" | wc -l)" = 2 ] && ! echo "$a$b" | grep -q UNPARSED; then
		pass "report-lib: normaliser parses both layouts"
	else
		fail "report-lib: normaliser parses both layouts" "$a / $b"
	fi
	[ "$a" != "$b" ] && pass "report-lib: a moved lost marker is a difference" ||
		fail "report-lib: a moved lost marker is a difference" "normaliser hides it"
	c=$(printf '%s\n' "$ft" | sed 's/ hi$/ ho/' | report_normalize ftc)
	[ "$c" != "$b" ] && pass "report-lib: a changed field is a difference" ||
		fail "report-lib: a changed field is a difference" "normaliser hides it"
	if printf '%s\n' "$ft" | report_sorted; then
		fail "report-lib: out-of-order timestamps are caught" "report_sorted accepted them"
	else
		pass "report-lib: out-of-order timestamps are caught"
	fi
	finish
fi
