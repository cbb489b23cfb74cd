# SPDX-License-Identifier: GPL-2.0-or-later
# ftc syscalls against strace: a program calls getppid N times and opens
# a list of paths of which two do not exist. Recorded by ftc record -F
# (syscalls:* events, then raw_syscalls), its calls from its exec on are
# strace -c -f's, call for call and error for error; the missing opens
# print "= -2 ENOENT"; the summary counts the same; trace-cmd's v6 copy of
# the file gives the same lines. Filters, a file without syscall events,
# and bad values get their exit codes.
. "$(dirname "$0")/../lib.sh"

for t in strace cc python3; do
	command -v $t >/dev/null || { skip "syscalls" "$t is not installed"; finish; }
done
D=$OUT/syscalls.$$
rm -rf "$D"; mkdir -p "$D"
I=$(test_instance syscalls)
trap 'instances_remove "$I"; [ "$T_FAILED" = 0 ] && rm -rf "$D"' EXIT
knobs_save
cc -O2 -o "$D/sc-known" "$TOP/tests/fixtures/syscalls-known.c" ||
	{ fail "setup: build the program" "cc failed"; finish; }
N=1000
ARGS=("$D/sc-known" $N / /nonexistent-ftc-a /proc/self/status /nonexistent-ftc-b)
strace -c -f -o "$D/strace.txt" "${ARGS[@]}" ||
	{ fail "setup: strace -c -f of the program" "$(tail -2 "$D/strace.txt")"; finish; }
# strace -c: "% time seconds usecs/call calls errors syscall"; errors may be empty
awk '$NF ~ /^[a-z_0-9]+$/ && $4 ~ /^[0-9]+$/ && $NF != "total" {
	print $NF, $4, (NF == 6 ? $5 : 0) }' "$D/strace.txt" | sort >"$D/strace.rows"

# counts FILE: "call calls errors" of the program from its exec on, returned, as ftc syscalls --json gives them
counts() {
	"$FTC" syscalls --json --comm sc-known "$1" 2>"$D/counts.err" | python3 -c '
import json, sys
calls = [json.loads(l) for l in sys.stdin]
start = min((c["ts"] for c in calls if c["call"] == "execve" and c.get("ret") == 0), default=None)
n = {}
for c in calls:
	# strace -c counts the calls that returned (not exit_group)
	if start is None or (c["ts"] or c["end"]) < start or "ret" not in c:
		continue
	k = n.setdefault(c["call"], [0, 0])
	k[0] += 1
	k[1] += "errno" in c
for name in sorted(n):
	print(name, *n[name])'
}
for ev in syscalls raw_syscalls; do
	if ! "$FTC" record -q -B "$I" -F -e $ev -o "$D/$ev.dat" -- "${ARGS[@]}" >"$D/rec.log" 2>&1; then
		fail "setup: ftc record -e $ev" "$(tail -2 "$D/rec.log")"
		continue
	fi
	counts "$D/$ev.dat" | sort >"$D/$ev.rows"
	gp=$(awk '$1 == "getppid" { print $2 }' "$D/$ev.rows")
	[ "$gp" = $N ] && pass "$ev: the $N getppid calls" || fail "$ev: the $N getppid calls" "found ${gp:-none}"
	if cmp -s "$D/strace.rows" "$D/$ev.rows"; then
		pass "$ev: every call and error from the exec on is strace -c -f's ($(wc -l <"$D/$ev.rows") calls)"
	else
		fail "$ev: every call and error is strace -c -f's" "$(diff "$D/strace.rows" "$D/$ev.rows" | head -6 | tr '\n' ' ') $(head -2 "$D/counts.err")"
	fi
	enoent=$("$FTC" syscalls --comm sc-known -e openat --failure "$D/$ev.dat" 2>/dev/null | grep -c ' = -2 ENOENT$')
	want=$(awk '$1 == "openat" { print $3 }' "$D/strace.rows")
	[ "$enoent" = "$want" ] && [ "$want" -ge 2 ] 2>/dev/null &&
		pass "$ev: the $enoent failed opens print = -2 ENOENT, as strace counts them" ||
		fail "$ev: the failed opens print = -2 ENOENT" "$enoent lines, strace: $want"
done

# The summary counts what the lines count.
"$FTC" syscalls -s --json --comm sc-known "$D/syscalls.dat" >"$D/sum.json" 2>"$D/sum.err"
got=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
c = {r["call"]: r for t in d["tasks"] for r in t["calls"]}
print(c["getppid"]["calls"], c["getppid"]["errors"], c["getppid"]["timed"], len(d["all"]) == 0)' "$D/sum.json" 2>&1)
[ "$got" = "$N 0 $N True" ] && pass "summary: getppid $N calls, no error, each timed; no all-task table with --comm" ||
	fail "summary: getppid's row" "$got $(head -2 "$D/sum.err")"
"$FTC" syscalls -s "$D/syscalls.dat" >"$D/sum.txt" 2>&1
expect_match "summary: a table per task and one over all" '^all tasks$' "$(cat "$D/sum.txt")"

# trace-cmd's own copy of the file reads the same.
if trace-cmd convert -i "$D/syscalls.dat" -o "$D/tc6.dat" --file-version 6 >/dev/null 2>&1; then
	"$FTC" syscalls "$D/syscalls.dat" >"$D/a.txt" 2>/dev/null
	"$FTC" syscalls "$D/tc6.dat" >"$D/b.txt" 2>/dev/null
	[ -s "$D/a.txt" ] && cmp -s "$D/a.txt" "$D/b.txt" &&
		pass "trace-cmd's v6 copy: the same $(wc -l <"$D/a.txt") lines" ||
		fail "trace-cmd's v6 copy: the same lines" "$(diff "$D/a.txt" "$D/b.txt" | head -4)"
else
	skip "syscalls: trace-cmd's copy" "trace-cmd convert failed"
fi

# A v6 copy cut inside its largest option (what the capture enabled: every
# syscall event, about 20 KB): report says where it was cut, in one line.
if "$FTC" convert --file-version 6 "$D/syscalls.dat" "$D/v6.dat" >/dev/null 2>&1; then
	set -- $("$FTC" dump --options "$D/v6.dat" | awk '$3 == "FTC_ENABLED" { print $5, $7 }')
	at=$(( ${1:-0} + ${2:-0} / 2 ))
	head -c "$at" "$D/v6.dat" >"$D/v6cut.dat"
	expect_status "a v6 copy cut inside an option: exit 1" 1 "$FTC" report "$D/v6cut.dat"
	expect_match "... one line says where it was cut" "^ftc report: .*v6cut.dat: cut at $at bytes, inside its metadata" \
		"$(cat "$OUT/last.err")"
else
	fail "setup: a v6 copy" "ftc convert failed"
fi

# Filters.
n=$("$FTC" syscalls -e 'getpp*' --comm sc-known "$D/syscalls.dat" 2>/dev/null | wc -l)
[ "$n" = $N ] && pass "-e with a glob: $n lines" || fail "-e with a glob: $N lines" "$n"
n=$("$FTC" syscalls --duration 1000 "$D/syscalls.dat" 2>"$D/dur.err" | wc -l)
[ "$n" = 0 ] && grep -q "no call matched" "$D/dur.err" && pass "--duration 1000: nothing, and it says so" ||
	fail "--duration 1000: nothing, and it says so" "$n lines: $(cat "$D/dur.err")"

# --from: the calls that began from the middle one on (a whole microsecond,
# as the lines print it); a window before the capture says where it is.
lines() { "$FTC" syscalls -e 'getpp*' --comm sc-known "$@" "$D/syscalls.dat" 2>/dev/null; }
mid=$(lines | awk -v n="$N" 'NR == int(n / 2) { print $1 }')
want=$(lines | awk -v m="$mid" '$1 >= m' | wc -l)
n=$(lines --from "$mid" | wc -l)
[ "$n" = "$want" ] && [ "$n" -lt "$N" ] && pass "--from $mid: the $n calls that began then or later" ||
	fail "--from $mid: the calls that began then or later" "$n lines, $want wanted of $N"
expect_status "a window before the capture: exit 3" 3 "$FTC" syscalls --to 1 "$D/syscalls.dat"
expect_match "... saying where the capture's records are" \
	'no syscall record lies between the start and --to 1\.000000000; the capture.s records run from [0-9]+\.[0-9]{9} on$' \
	"$(cat "$OUT/last.err")"

# Live: -- COMMAND records while it runs, then reads; nothing is left.
mkdir -p "$D/tmp"
TMPDIR=$D/tmp "$FTC" syscalls -s --json -- "${ARGS[@]}" >"$D/live.json" 2>"$D/live.err"
rc=$?
got=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(sum(r["calls"] for r in d["all"] if r["call"] == "getppid"))' "$D/live.json" 2>&1)
[ $rc = 0 ] && [ "$got" = $N ] && pass "live -- COMMAND: the $N getppid calls" ||
	fail "live -- COMMAND: the $N getppid calls" "exit $rc, $got: $(head -2 "$D/live.err")"
[ -z "$(ls -A "$D/tmp")" ] && pass "live: the scratch folder is removed" ||
	fail "live: the scratch folder is removed" "$(ls -R "$D/tmp" | head)"
left=$(ls "$TRACEFS/instances" | grep '^ftc_syscalls_')
[ -z "$left" ] && pass "live: its instance is removed" || fail "live: its instance is removed" "$left"
expect_status "live: the command's exit status is passed on" 7 "$FTC" syscalls -s -- sh -c 'exit 7'

# Live paths: cat opens through the C library, so its probes (event probes
# where the kernel takes them, else uprobes on the wrapper) read each path.
# The opens, in order, are strace's; every path ftc prints is the one strace
# printed for that call (never a wrong string), the file cat was given
# among them; a path not read is an address, and standard error counts them.
printf 'x\n' >"$D/name with \"quote\""
TMPDIR=$D/tmp "$FTC" syscalls -e openat -- cat "$D/name with \"quote\"" /nonexistent \
	>"$D/paths.out" 2>"$D/paths.err"
strace -qq -f -e trace=openat -o "$D/paths.strace" cat "$D/name with \"quote\"" /nonexistent \
	>/dev/null 2>&1
# Each open as "PATH-OR-ADDRESS RESULT", RESULT the fd or the errno's name
# (ftc prints = -2 ENOENT, strace = -1 ENOENT (...)), in order.
check=$(python3 - "$D/paths.out" "$D/paths.strace" <<'PY'
import re, sys
pat = re.compile(r'openat\(AT_FDCWD, ("(?:[^"\\]|\\.)*"|0x[0-9a-f]+), .*\) = (-?\d+)(?: ([A-Z0-9]+))?')
def opens(path):
    out = []
    for l in open(path):
        m = pat.search(l)
        if m:
            out.append((m.group(1), m.group(3) if int(m.group(2)) < 0 else m.group(2)))
    return out
f, s = opens(sys.argv[1]), opens(sys.argv[2])
if len(f) != len(s) or not f:
    print("ftc %d opens, strace %d" % (len(f), len(s))); sys.exit()
read = 0
for (fp, fr), (sp, sr) in zip(f, s):
    if fr != sr:
        print("results differ: %s %s / %s %s" % (fp, fr, sp, sr)); sys.exit()
    if fp.startswith('"'):
        read += 1
        if fp != sp:
            print("wrong string: ftc %s, strace %s" % (fp, sp)); sys.exit()
print("ok %d %d" % (len(f), read))
PY
)
expect_match "live paths: the opens are strace's, each path read is strace's ($check)" '^ok ' "$check"
expect_match "live paths: the file cat was given is read, quotes escaped as strace does" \
	'openat\(AT_FDCWD, "[^"]*/name with \\"quote\\"", O_RDONLY\) = 3$' "$(cat "$D/paths.out")"
expect_match "live paths: a missing file's path too, = -2 ENOENT" \
	'openat\(AT_FDCWD, "/nonexistent", O_RDONLY\) = -2 ENOENT$' "$(cat "$D/paths.out")"
read -r _ nopen nread <<<"$check"
if [ -n "$nread" ] && [ "$nread" -lt "$nopen" ]; then
	expect_match "live paths: those not read are counted on standard error" \
		"^ftc syscalls: $((nopen - nread)) of $nopen string arguments \\(paths\\) were not read" \
		"$(cat "$D/paths.err")"
fi
expect_status "a file and -a exit 2" 2 "$FTC" syscalls -a "$D/syscalls.dat"
expect_status "a file and -- COMMAND exit 2" 2 "$FTC" syscalls "$D/syscalls.dat" -- true

# What does not fit.
"$FTC" record -q -B "$I" -e sched:sched_switch -o "$D/nosc.dat" -- true >/dev/null 2>&1
expect_status "a file without syscall events exits 3" 3 "$FTC" syscalls "$D/nosc.dat"
expect_match "... and says what to record" "record -e syscalls" "$(cat "$OUT/last.err")"
expect_status "--limit without -s exits 2" 2 "$FTC" syscalls --limit 3 "$D/syscalls.dat"
expect_status "a bad duration exits 2" 2 "$FTC" syscalls --duration -1 "$D/syscalls.dat"
expect_status "a bad pid exits 2" 2 "$FTC" syscalls -p 0 "$D/syscalls.dat"
expect_status "a missing file exits 1" 1 "$FTC" syscalls "$D/none.dat"

knobs_unchanged "ftc syscalls"
finish
