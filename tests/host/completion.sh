# SPDX-License-Identifier: GPL-2.0-or-later
# A user presses TAB: bash completion offers ftc's commands, each command's
# own options, and for an option's value what its type calls for (pids,
# tracers, events, clocks, CPUs, files...), read from wherever tracefs is
# mounted.
. "$(dirname "$0")/../lib.sh"

PATH=$(dirname "$FTC"):$PATH
. "$TOP/bash-completion/ftc"

complete_words() {	# complete_words WORD... : completes the last word
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMPREPLY=()
	_ftc
	printf '%s\n' "${COMPREPLY[@]}"
}

cmds=$("$FTC" --list-cmds)
got=$(complete_words ftc "")
for c in $cmds; do
	expect_match "TAB after ftc offers $c" "^$c\$" "$got"
done
for c in $cmds; do
	got=$(complete_words ftc "$c" --he)
	expect_match "TAB on 'ftc $c --he' offers --help" '^--help$' "$got"
done

# The same letter, two types: stat -p is a PID, start -p a tracer.
got=$(complete_words ftc stat -p "")
expect_match "TAB after 'ftc stat -p' offers this shell's pid" "^$$\$" "$got"
expect_nomatch "TAB after 'ftc stat -p' offers no tracer" '^nop$' "$got"
got=$(complete_words ftc stat --pid="")
expect_match "TAB after 'ftc stat --pid=' offers --pid=PID" "^--pid=$$\$" "$got"
ncpu=$(ls -d /sys/devices/system/cpu/cpu[0-9]* | wc -l)
got=$(complete_words ftc stat --cpu=)
expect_match "TAB after 'ftc stat --cpu=' offers --cpu=0" '^--cpu=0$' "$got"
[ "$(echo "$got" | wc -l)" = "$ncpu" ] && pass "TAB after 'ftc stat --cpu=' offers $ncpu CPUs" ||
	fail "TAB after 'ftc stat --cpu=' offers $ncpu CPUs" "got: $(echo $got)"
got=$(complete_words ftc stat -C 0,)
expect_match "TAB after 'ftc stat -C 0,' completes the list's next CPU" '^0,0$' "$got"
got=$(complete_words ftc record --compression "")
[ "$(echo $got)" = "zstd zlib none" ] && pass "TAB after --compression offers zstd zlib none" ||
	fail "TAB after --compression offers zstd zlib none" "got: $(echo $got)"
got=$(complete_words ftc convert --to "")
[ "$(echo $got)" = "trace.dat perfetto chrome" ] &&
	pass "TAB after 'ftc convert --to' offers trace.dat perfetto chrome" ||
	fail "TAB after 'ftc convert --to' offers trace.dat perfetto chrome" "got: $(echo $got)"
got=$(complete_words ftc boot-args --kernel "")
[ "$(echo $got)" = "$(uname -r)" ] && pass "TAB after 'ftc boot-args --kernel' offers this kernel's version" ||
	fail "TAB after 'ftc boot-args --kernel' offers this kernel's version" "got: $(echo $got)"
got=$(complete_words ftc report --ini)
expect_match "TAB on 'ftc report --ini' offers --initcalls" '^--initcalls$' "$got"
# The options offered go with the output options typed before (report's
# table of which options go together).
got=$(complete_words ftc report --stat --f)
expect_match "TAB on 'ftc report --stat --f' offers --filter" '^--filter$' "$got"
expect_nomatch "TAB on 'ftc report --stat --f' offers no --first (text and --json only)" \
	'^--first$' "$got"
got=$(complete_words ftc report --f)
expect_match "TAB on 'ftc report --f' offers --first" '^--first$' "$got"
expect_nomatch "TAB on 'ftc report --json --s' offers no --stat (another output)" \
	'^--stat$' "$(complete_words ftc report --json --s)"
expect_match "TAB after 'ftc block' offers its views" '^snoop$' "$(complete_words ftc block sn)"
expect_match "TAB after 'ftc kwork' offers its views" '^latency$' "$(complete_words ftc kwork lat)"
expect_match "TAB after 'ftc kwork --' offers commands" '^bash$' "$(complete_words ftc kwork -- bas)"
expect_match "TAB after 'ftc kwork -a --d' offers --duration" '^--duration$' "$(complete_words ftc kwork -a --du)"
got=$(complete_words ftc record -o "$TOP/READ")
expect_match "TAB after 'ftc record -o' completes a file name" '/README.md$' "$got"
got=$(complete_words ftc record -q "")
expect_nomatch "TAB after a flag does not complete a value" '^nop$' "$got"
got=$(complete_words ftc stat -e cpu-cl)
expect_match "TAB after 'ftc stat -e' offers perf's symbolic events" '^cpu-clock$' "$got"

# bash splits words at = and : (COMP_WORDBREAKS), and replaces only the
# text after the last one: the reply must be cut the same way.
got=$(complete_words ftc stat --cpu = "")
expect_match "TAB after 'ftc stat --cpu=' split by bash offers 0" '^0$' "$got"

if [ -r "$TRACEFS/trace_clock" ]; then
	got=$(complete_words ftc start -C gl)
	expect_match "TAB after 'ftc start -C' offers the kernel's clocks" '^global$' "$got"
	got=$(complete_words ftc start -p "")
	expect_match "TAB after 'ftc start -p' offers tracers" '^nop$' "$got"
	expect_nomatch "TAB after 'ftc start -p' offers no pid" "^$$\$" "$got"
	got=$(complete_words ftc record -p n)
	expect_match "TAB after 'ftc record -p' offers tracers" '^nop$' "$got"
	got=$(complete_words ftc record -e sched:sched_sw)
	expect_match "TAB after 'ftc record -e' offers events" '^sched:sched_switch$' "$got"
	got=$(complete_words ftc record -e sched : sched_sw)
	expect_match "TAB after 'ftc record -e sched:' split by bash offers the event part" \
		'^sched_switch$' "$got"
	got=$(complete_words ftc record --event=sched:sched_sw)
	expect_match "TAB after 'ftc record --event=' offers events" '^--event=sched:sched_switch$' "$got"
	got=$(complete_words ftc stat -e cycles,sched:sched_sw)
	expect_match "TAB after 'ftc stat -e' offers tracepoints in a list" \
		'^cycles,sched:sched_switch$' "$got"
	opt=$(ls "$TRACEFS/options" | head -1)
	got=$(complete_words ftc start -O "")
	expect_match "TAB after 'ftc start -O' offers option $opt" "^$opt\$" "$got"
	expect_match "TAB after 'ftc start -O' offers no$opt" "^no$opt\$" "$got"
	inst=$(test_instance compl)
	if setup "mkdir instance $inst" mkdir "$TRACEFS/instances/$inst"; then
		got=$(complete_words ftc stop -B ftc-test-$$-c)
		expect_match "TAB after 'ftc stop -B' offers instances" "^$inst\$" "$got"
		rmdir "$TRACEFS/instances/$inst"
	fi
else
	skip "completion of tracefs values" "tracefs is not mounted"
fi

# tracefs elsewhere: found through /proc/mounts, in a private mount
# namespace where /sys/kernel/tracing and debugfs are hidden under tmpfs.
moved() {	# moved SETUP: runs SETUP then prints _ftc_tracefs and a clock completion
	unshare -m bash -c "
		set -e
		mount -t tmpfs none /sys/kernel/tracing
		mount -t tmpfs none /sys/kernel/debug
		$1
		set +e
		PATH=$PATH
		. '$TOP/bash-completion/ftc'
		echo \"tracefs=\$(_ftc_tracefs)\"
		COMP_WORDS=(ftc start -C gl); COMP_CWORD=3; _ftc
		printf '%s\n' \"\${COMPREPLY[@]}\"" 2>&1
}
if [ "$(id -u)" = 0 ] && [ -r "$TRACEFS/trace_clock" ] && unshare -m true 2>/dev/null; then
	dir=$OUT/completion-tracefs
	mkdir -p "$dir"
	got=$(moved "mount -t tracefs nodev '$dir'")
	expect_match "completion finds tracefs mounted at $dir" "^tracefs=$dir\$" "$got"
	expect_match "completion reads clocks from tracefs at $dir" '^global$' "$got"
	got=$(moved "mount -t debugfs nodev '$dir'")
	expect_match "completion falls back to debugfs's tracing directory" \
		"^tracefs=$dir/tracing\$" "$got"
	expect_match "completion reads clocks from debugfs's tracing" '^global$' "$got"
	rmdir "$dir"
else
	skip "completion with tracefs mounted elsewhere" "needs root, tracefs and unshare -m"
fi

# One real interactive bash: TAB must turn the line into the completed one.
if command -v python3 >/dev/null && [ -r "$TRACEFS/available_events" ]; then
	got=$(python3 - "$TOP/bash-completion/ftc" "$(dirname "$FTC")" <<'PY'
import os, pty, re, select, sys, time
comp, bindir = sys.argv[1], sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
	os.environ.update(PS1='$ ', TERM='dumb', PATH=bindir + ':' + os.environ['PATH'])
	os.execvp('bash', ['bash', '--norc', '--noprofile', '-i'])
def read(secs):
	out, end = b'', time.time() + secs
	while time.time() < end:
		if select.select([fd], [], [], 0.1)[0]:
			try:
				out += os.read(fd, 4096)
			except OSError:
				break
	return out
def send(s, secs=1.0):
	os.write(fd, s.encode())
	return read(secs)
send('. ' + comp + '\n')
for line in ('ftc record -e sched:sched_swit', 'ftc record --compression=zs'):
	send(line + '\t')
	out = send("\x01echo 'LINE:\x05'\n")
	out = re.sub(r'\x1b\[[?0-9;]*[A-Za-z@]', '', out.decode(errors='replace'))
	sys.stdout.write(out.replace('\r', ''))
send('exit\n', 0.3)
PY
)
	expect_match "interactive TAB completes 'ftc record -e sched:sched_swit'" \
		'^LINE:ftc record -e sched:sched_switch $' "$got"
	expect_match "interactive TAB completes 'ftc record --compression=zs'" \
		'^LINE:ftc record --compression=zstd $' "$got"
else
	skip "interactive completion" "needs python3 and tracefs events"
fi
# sched: the view first, then capture files
got=$(complete_words ftc sched "")
expect_match "TAB on 'ftc sched' offers its views and record" \
	'^latency timehist offcpu hist map record$' "$(echo $got)"
mkdir -p "$OUT/compl-sched" && : >"$OUT/compl-sched/t.dat" && : >"$OUT/compl-sched/t.txt"
got=$(cd "$OUT/compl-sched" && complete_words ftc sched offcpu "")
expect_match "TAB on 'ftc sched offcpu' offers .dat files" '^t.dat$' "$(echo $got)"
got=$(complete_words ftc sched hist --heat)
expect_match "TAB on 'ftc sched hist --heat' offers --heatmap" '^--heatmap$' "$got"
got=$(complete_words ftc sched record --call-gr)
expect_match "TAB on 'ftc sched record --call-gr' offers record's --call-graph" \
	'^--call-graph$' "$got"
got=$(complete_words ftc sched record -e sched:sched_sw)
expect_match "TAB on 'ftc sched record -e' offers events as record's does" \
	'^sched:sched_switch$' "$got"

# probe add: a synthetic event's spec starts with ftc's prefix
got=$(complete_words ftc probe add s)
expect_match "TAB on 'ftc probe add s' offers s:ftc_" '^s:ftc_$' "$got"
got=$(complete_words ftc probe add s : f)
expect_match "TAB on 'ftc probe add s:f' completes after the colon" '^ftc_$' "$got"

finish
