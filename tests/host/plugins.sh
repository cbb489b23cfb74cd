# SPDX-License-Identifier: GPL-2.0-or-later
# ftc's libtraceevent plugins (plugins/*.so), as a user meets them: a
# program with known syscalls is traced, and ftc report, trace-cmd report
# (TRACEEVENT_PLUGIN_DIR at the build's plugins/) and ftc-static print the
# decoded lines: openat(AT_FDCWD, 0x.., O_RDONLY|O_CLOEXEC), openat = -2
# ENOENT, kill(PID, SIGUSR1), the syscalls:* fields alike and the signal
# events' names (sig=SIGUSR1 code=SI_TKILL res=ignored); --no-plugins
# gives libtraceevent's own text in both; a copy of the trace whose uname
# says arm64 names the raw numbers from arm64's table; ftc_perf samples get
# their symbols in trace-cmd as in ftc.
. "$(dirname "$0")/../lib.sh"
OUT="$OUT/plugins.$$"
mkdir -p "$OUT"
trap '[ "$T_FAILED" = 0 ] && rm -rf "$OUT"' EXIT
PLUGDIR=$TOP/plugins
STATIC=${FTC_STATIC:-$TOP/ftc-static}
# ftc's plugins where the system's libtraceevent looks (a `make install`):
# then every reader loads them, whatever the environment says.
sys_installed=
[ -e "$(pkg-config --variable=libdir libtraceevent 2>/dev/null)/traceevent/plugins/plugin_ftc_syscalls.so" ] &&
	sys_installed=1

for p in syscalls signal perf; do
	[ -f "$PLUGDIR/plugin_ftc_$p.so" ] ||
		{ fail "plugins: plugin_ftc_$p.so is built" "not in $PLUGDIR (make)"; finish; }
done
command -v cc >/dev/null || { skip "plugins" "no C compiler for the test program"; finish; }
setup "build the syscalls program" cc -O1 -o "$OUT/sc" "$TOP/tests/fixtures/syscalls.c" || finish
inst="ftc-plugins-$$-sc"
dat=$OUT/sc.dat

# Only the record of the traced program counts: one instance of ours, -F.
setup "record the program" "$FTC" record -q -B "$inst" -F -e raw_syscalls \
	-e syscalls:sys_enter_openat -e syscalls:sys_exit_openat -e syscalls:sys_enter_kill \
	-e syscalls:sys_exit_kill -e syscalls:sys_enter_mmap -e syscalls:sys_exit_mmap \
	-e signal:signal_generate \
	--file-version 6 -o "$dat" -- "$OUT/sc" || finish
[ ! -d "$TRACEFS/instances/$inst" ] && pass "plugins: record removed its instance" ||
	fail "plugins: record removed its instance" "$inst is still there"

# "comm-pid [cpu] ... TS: event: text" -> "event: text", the layout's padding dropped.
events() { sed -nE 's/^.* [0-9]+\.[0-9]{6}: ([a-z_0-9]+): +/\1: /p'; }
"$FTC" report "$dat" >"$OUT/ftc.txt" 2>"$OUT/ftc.err"
events <"$OUT/ftc.txt" >"$OUT/ftc.ev"
# The program's pid: the task of the failed openat (its comm may be <...>).
pid=$(grep -m1 -E ': sys_exit: +openat = -2 ENOENT$' "$OUT/ftc.txt" | sed -E 's/^.*-([0-9]+) +\[.*$/\1/')
want_lines() {	# want_lines WHO FILE: the exact decoded lines
	local who=$1 f=$2
	for re in \
		'sys_enter: openat\(AT_FDCWD, 0x[0-9a-f]+, O_RDONLY\|O_CLOEXEC\)' \
		'sys_exit: openat = -2 ENOENT' \
		'sys_enter_openat: dfd: AT_FDCWD, filename: 0x[0-9a-f]+, flags: O_RDONLY\|O_CLOEXEC, mode: 0' \
		'sys_exit_openat: -2 ENOENT' \
		'sys_enter: mmap\(NULL, 0x2000, PROT_READ\|PROT_WRITE, MAP_PRIVATE\|MAP_ANONYMOUS, -1, 0x0\)' \
		'sys_enter_mmap: addr: NULL, len: 0x2000, prot: PROT_READ\|PROT_WRITE, flags: MAP_PRIVATE\|MAP_ANONYMOUS, fd: -1, off: 0x0' \
		'sys_exit: mmap = 0x[0-9a-f]{8,}' \
		'sys_exit_mmap: 0x[0-9a-f]{8,}' \
		'sys_enter: mprotect\(0x[0-9a-f]+, 0x1000, PROT_READ\)' \
		'sys_enter: openat\(AT_FDCWD, 0x[0-9a-f]+, O_RDONLY\)' \
		'sys_enter: write\(3, 0x[0-9a-f]+, 3\)' \
		'sys_exit: write = -9 EBADF' \
		'sys_enter: close\(3\)' \
		'sys_enter: rt_sigaction\(SIGUSR1, 0x[0-9a-f]+, (NULL|0x[0-9a-f]+), 8\)' \
		'sys_enter: getpid\(\)' \
		"sys_exit: getpid = $pid" \
		"sys_enter: kill\\($pid, SIGUSR1\\)" \
		"sys_enter_kill: pid: $pid, sig: SIGUSR1" \
		'sys_exit_kill: 0' \
		"sys_enter: tgkill\\($pid, $pid, SIGUSR1\\)" \
		'sys_enter: exit_group\(0\)' \
		"signal_generate: sig=SIGUSR1 errno=0 code=SI_USER comm=sc pid=$pid grp=1 res=ignored" \
		"signal_generate: sig=SIGUSR1 errno=0 code=SI_TKILL comm=sc pid=$pid grp=0 res=ignored"; do
		grep -qE "^$re\$" "$f" && pass "plugins: $who: /$re/" ||
			fail "plugins: $who: /$re/" "no such line in $f"
	done
}
if [ -n "$pid" ]; then want_lines "ftc report" "$OUT/ftc.ev"
else fail "plugins: ftc report shows the program" "no openat = -2 ENOENT: $(head -3 "$OUT/ftc.err")"; fi

if command -v trace-cmd >/dev/null; then
	TRACEEVENT_PLUGIN_DIR=$PLUGDIR trace-cmd report "$dat" 2>"$OUT/tc.err" | events >"$OUT/tc.ev"
	want_lines "trace-cmd report" "$OUT/tc.ev"
	n=$(wc -l <"$OUT/tc.ev")
	cmp -s "$OUT/tc.ev" "$OUT/ftc.ev" &&
		pass "plugins: trace-cmd report prints what ftc report prints ($n events)" ||
		fail "plugins: trace-cmd report prints what ftc report prints" \
			"$(diff "$OUT/tc.ev" "$OUT/ftc.ev" | head -4)"
	# --no-plugins: libtraceevent's own text, in both.
	"$FTC" report --no-plugins "$dat" | events >"$OUT/ftc-N.ev"
	TRACEEVENT_PLUGIN_DIR=$PLUGDIR trace-cmd report -N "$dat" 2>/dev/null | events >"$OUT/tc-N.ev"
	expect_match "plugins: --no-plugins: raw sys_enter" \
		'^sys_enter: NR 257 \(ffffff9c, [0-9a-f]+, 80000, ' "$(cat "$OUT/ftc-N.ev")"
	expect_match "plugins: --no-plugins: raw sys_enter_openat" \
		'^sys_enter_openat: dfd: 0xffffff9c, filename: 0x[0-9a-f]+, flags: 0x00080000, mode: 0x00000000$' \
		"$(cat "$OUT/ftc-N.ev")"
	expect_match "plugins: --no-plugins: raw sys_exit" '^sys_exit: NR 257 = -2$' "$(cat "$OUT/ftc-N.ev")"
	expect_match "plugins: --no-plugins: raw signal_generate" \
		"^signal_generate: sig=10 errno=0 code=0 comm=sc pid=$pid grp=1 res=1\$" "$(cat "$OUT/ftc-N.ev")"
	cmp -s "$OUT/tc-N.ev" "$OUT/ftc-N.ev" &&
		pass "plugins: --no-plugins: ftc report -N prints what trace-cmd report -N prints" ||
		fail "plugins: --no-plugins: ftc report -N prints what trace-cmd report -N prints" \
			"$(diff "$OUT/tc-N.ev" "$OUT/ftc-N.ev" | head -4)"
	# Without the build's directory, trace-cmd prints the old text.
	TRACEEVENT_PLUGIN_DIR=/nonexistent trace-cmd report "$dat" 2>/dev/null | events >"$OUT/tc-old.ev"
	if [ -n "$sys_installed" ]; then
		skip "plugins: trace-cmd without the plugin dir" "ftc's plugins are installed system-wide"
	else
		cmp -s "$OUT/tc-old.ev" "$OUT/ftc-N.ev" &&
			pass "plugins: trace-cmd without the plugin dir prints the raw text" ||
			fail "plugins: trace-cmd without the plugin dir prints the raw text" \
				"$(diff "$OUT/tc-old.ev" "$OUT/ftc-N.ev" | head -4)"
	fi
else
	skip "plugins: trace-cmd report" "trace-cmd is not installed"
fi
# FTC_PLUGIN_DIR set but empty: none of the build's plugins (the system's
# directory still counts: after a `make install`, ftc's are there too).
FTC_PLUGIN_DIR= TRACEEVENT_PLUGIN_DIR=/nonexistent "$FTC" report "$dat" | events >"$OUT/ftc-none.ev"
if [ -n "$sys_installed" ]; then
	skip "plugins: FTC_PLUGIN_DIR= loads none of ftc's" "ftc's plugins are installed system-wide"
else
	expect_match "plugins: FTC_PLUGIN_DIR= loads none of ftc's" '^sys_exit: NR 257 = -2$' \
		"$(cat "$OUT/ftc-none.ev")"
fi

# arm64: the same records, with a uname that says the trace was made on
# arm64 (x86_64 -> arm64 in the v6 file's uname option, same length): raw
# numbers are named from arm64's table, syscalls:* events by their names.
python3 - "$dat" "$OUT/arm.dat" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
i = d.find(b' x86_64\x00\t\x00')	# the uname, then the next option (9: the version)
if i < 0:
    sys.exit(1)
open(sys.argv[2], 'wb').write(d[:i] + b' arm64\x00\x00' + d[i + 8:])
PY
if [ $? -ne 0 ]; then
	skip "plugins: arm64 names" "no x86_64 uname in the capture (not an x86_64 host)"
else
	gen=$TOP/build/default/gen/syscall-names.c
	arm_name() { sed -n '/arm64_names/,/^};/p' "$gen" | sed -nE "s/^\t\[$1\] = \"(.*)\",/\1/p"; }
	"$FTC" report "$OUT/arm.dat" | events >"$OUT/arm.ev"
	n62=$(arm_name 62)
	[ -n "$n62" ] && expect_match "plugins: arm64: x86_64's kill (62) is arm64's $n62" \
		"^sys_enter: $n62\\($pid, " "$(cat "$OUT/arm.ev")"
	expect_nomatch "plugins: arm64: no x86_64 names for raw numbers" '^sys_enter: (kill|tgkill|openat)\(' \
		"$(cat "$OUT/arm.ev")"
	expect_match "plugins: arm64: syscalls:* events keep their names" \
		"^sys_enter_kill: pid: $pid, sig: SIGUSR1$" "$(cat "$OUT/arm.ev")"
	expect_match "plugins: arm64: 257 has no arm64 name" '^sys_enter: NR 257 \(ffffff9c, ' \
		"$(cat "$OUT/arm.ev")"
	if command -v trace-cmd >/dev/null; then
		TRACEEVENT_PLUGIN_DIR=$PLUGDIR trace-cmd report -O ftc_syscalls:arch=aarch64 \
			"$OUT/arm.dat" 2>/dev/null | events >"$OUT/arm-tc.ev"
		cmp -s "$OUT/arm-tc.ev" "$OUT/arm.ev" &&
			pass "plugins: arm64: trace-cmd -O ftc_syscalls:arch=aarch64 prints the same" ||
			fail "plugins: arm64: trace-cmd -O ftc_syscalls:arch=aarch64 prints the same" \
				"$(diff "$OUT/arm-tc.ev" "$OUT/arm.ev" | head -4)"
	fi
fi

# ftc-static: the plugins are linked in; no .so is read.
if [ -x "$STATIC" ]; then
	FTC_PLUGIN_DIR= TRACEEVENT_PLUGIN_DIR=/nonexistent "$STATIC" report "$dat" | events >"$OUT/static.ev"
	want_lines "ftc-static" "$OUT/static.ev"
	grep -E '^(sys_(enter|exit)|signal_)' "$OUT/ftc.ev" >"$OUT/ftc.sys"
	grep -E '^(sys_(enter|exit)|signal_)' "$OUT/static.ev" >"$OUT/static.sys"
	cmp -s "$OUT/static.sys" "$OUT/ftc.sys" &&
		pass "plugins: ftc-static prints the syscalls and signals as ftc does" ||
		fail "plugins: ftc-static prints the syscalls and signals as ftc does" \
			"$(diff "$OUT/static.sys" "$OUT/ftc.sys" | head -4)"
	"$STATIC" report -N "$dat" | events | grep -E '^(sys_(enter|exit)|signal_)' >"$OUT/static-N.sys"
	"$FTC" report -N "$dat" | events | grep -E '^(sys_(enter|exit)|signal_)' >"$OUT/ftc-N.sys"
	cmp -s "$OUT/static-N.sys" "$OUT/ftc-N.sys" &&
		pass "plugins: ftc-static --no-plugins prints the raw text" ||
		fail "plugins: ftc-static --no-plugins prints the raw text" \
			"$(diff "$OUT/static-N.sys" "$OUT/ftc-N.sys" | head -4)"
else
	skip "plugins: ftc-static" "$STATIC is not built (make static)"
fi

# ftc_perf samples: trace-cmd names the sampled functions as ftc does.
if command -v trace-cmd >/dev/null; then
	build_hot "$OUT/hot" && setup "record samples" "$FTC" record -q -B "ftc-plugins-$$-perf" \
		-e sched:sched_process_exit --sample cpu-clock --freq 999 --call-graph fp \
		--counters task-clock -o "$OUT/perf.dat" -- "$OUT/hot" 1 0 kernel
	"$FTC" report "$OUT/perf.dat" | events | grep -E '^(sample|counter):' >"$OUT/perf-ftc.ev"
	TRACEEVENT_PLUGIN_DIR=$PLUGDIR trace-cmd report "$OUT/perf.dat" 2>/dev/null | events |
		grep -E '^(sample|counter):' >"$OUT/perf-tc.ev"
	n=$(grep -cE '^sample: ip=0x[0-9a-f]+ [A-Za-z_].*\+0x[0-9a-f]+ \[' "$OUT/perf-tc.ev")
	[ "$n" -ge 100 ] && pass "plugins: trace-cmd names the sampled functions ($n samples)" ||
		fail "plugins: trace-cmd names the sampled functions" "$n: $(head -2 "$OUT/perf-tc.ev")"
	expect_match "plugins: trace-cmd names hot's function" '^sample: ip=0x[0-9a-f]+ hot_function\+0x' \
		"$(cat "$OUT/perf-tc.ev")"
	# The same record's address named NAME+0xOFF by both, with another NAME: two
	# kernel symbols at one address (__pi___x86_indirect_thunk_rax and
	# __x86_indirect_thunk_rax); libtraceevent's lookup lands on either.
	aliases=$(python3 - "$OUT/perf-tc.ev" "$OUT/perf-ftc.ev" <<'PY'
import re, sys
a, b = (open(f).read().splitlines() for f in sys.argv[1:3])
sym = re.compile(r"^[A-Za-z_.][\w.]*\+(0x[0-9a-f]+)$")
n = 0
if len(a) != len(b):
    sys.exit(1)
for x, y in zip(a, b):
    if x == y:
        continue
    tx, ty = x.split(" "), y.split(" ")
    if len(tx) != len(ty):
        sys.exit(1)
    for u, v in zip(tx, ty):
        mu, mv = sym.match(u), sym.match(v)
        if u != v and not (mu and mv and mu.group(1) == mv.group(1)):
            sys.exit(1)
    n += 1
print(n)
PY
)
	[ -n "$aliases" ] &&
		pass "plugins: ftc_perf samples and counters: trace-cmd prints what ftc prints ($aliases lines name an alias)" ||
		fail "plugins: ftc_perf samples and counters: trace-cmd prints what ftc prints" \
			"$(diff "$OUT/perf-tc.ev" "$OUT/perf-ftc.ev" | head -4)"
fi
finish
