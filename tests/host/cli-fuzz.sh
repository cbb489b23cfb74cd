# SPDX-License-Identifier: GPL-2.0-or-later
# Every option that takes a value, of every command, gets values no user
# means: empty, 100 KB long, bytes that are not UTF-8, -1 and a number too
# big for 64 bits. Each call uses less than 2 s of CPU (ASan included)
# and ends within 30 s, without a crash, and by default with exit 2
# (usage) and a message that names the option as typed and the value
# (quoted, cut short, \xHH for bytes that are not printable UTF-8).
# tracefs is left as found and no instance appears.
#
# Where a value is well formed, the check moves to where it belongs; each
# exception is listed in allowed() with its reason:
#  - names the kernel judges (a tracer, clock, trace option, event,
#    function, instance, perf event): '-1' and '9999...' are well-formed
#    names, looked up after parsing; this kernel lacks them: exit 3 (or 2
#    where the lookup happens at parse time). An empty, long (past 255
#    bytes for a tracefs name, 511 for a symbol or event), non-UTF-8 name,
#    or one with '/', a blank or (where not allowed) a glob, is exit 2.
#  - a filter: its syntax is checked first, and '-1' or '9999...' alone is
#    no filter (exit 2); a report or stream filter's event list is looked up
#    after parsing (exit 3 for a name the file or kernel lacks).
#  - free text (a trigger, a separator, a task name): '-1' and
#    '9999...' are text and go through; the kernel (triggers)
#    refuses them with its own message (exit 1 or 3), ftc stat uses the
#    separator, ftc boot-args prints what it was given. Longer than one
#    tracefs write (4095 bytes), not UTF-8, empty: exit 2.
#  - file names: Linux takes any bytes, so '-1', '9999...' and non-UTF-8
#    names are files like others (an output is written, exit 0 or the
#    command's own failure; an input that does not exist is exit 1).
#    Only empty and longer than PATH_MAX are exit 2.
#
# FTC_TEST_FAKE_TRACEFS=1 runs the script in a private mount namespace
# over a fake tracefs (tmpfs), /proc/sys/kernel and journal directory, so
# that no value reaches the kernel: every case runs, including the ones
# that would create an instance named '-1' for real. The default is the
# real tracefs, with those cases left out.
. "$(dirname "$0")/../lib.sh"

if [ "${FTC_TEST_FAKE_TRACEFS:-0}" = 1 ] && [ -z "${FTC_FUZZ_IN_NS:-}" ]; then
	if ! command -v unshare >/dev/null || ! unshare -m true 2>/dev/null; then
		skip "argument fuzz (fake tracefs)" "unshare -m is not allowed here (needs root)"
		finish
	fi
	# shellcheck disable=SC2016
	exec unshare -m bash -c '
		mount --make-rprivate / 2>/dev/null
		mount -t tmpfs none /sys/kernel/tracing || exit 1
		mount -t tmpfs none /sys/kernel/debug 2>/dev/null
		mount -t tmpfs none /proc/sys/kernel 2>/dev/null
		[ -d /run/ftc ] && mount -t tmpfs none /run/ftc
		FTC_FUZZ_IN_NS=1 exec bash "$0"' "$0"
fi

FAKE=${FTC_FUZZ_IN_NS:+1}
I=$(test_instance fuzz)
T=$(mktemp -d "$OUT/cli-fuzz.XXXXXX")
trap 'rm -rf "$T"' EXIT

# A tracefs with the files the commands read first, and the lists the
# library checks names against, so that a value gets as far as it would.
fake_tracefs() {
	local d=$TRACEFS f
	[ "$(stat -f -c %T "$d")" = tmpfs ] || { echo "$d is not a tmpfs: not faking it" >&2; exit 1; }
	rm -rf "${d:?}"/instances/*
	mkdir -p "$d/instances" "$d/options" "$d/per_cpu/cpu0" "$d/events/sched/sched_switch"
	echo "function function_graph nop" >"$d/available_tracers"
	echo nop >"$d/current_tracer"
	echo "[local] global counter mono" >"$d/trace_clock"
	printf 'vfs_read\nschedule\n' >"$d/available_filter_functions"
	echo "sched:sched_switch" >"$d/available_events"
	for f in tracing_on:1 buffer_size_kb:1408 buffer_subbuf_size_kb:4 tracing_cpumask:1 \
		 max_graph_depth:0 saved_cmdlines_size:128 set_event_pid: set_ftrace_pid: \
		 set_ftrace_filter: set_ftrace_notrace: set_graph_function: set_graph_notrace: \
		 set_event: trace: trace_marker: error_log: options/stacktrace:0 \
		 options/event-fork:0 options/function-fork:0 per_cpu/cpu0/buffer_size_kb:1408 \
		 events/enable:0 events/sched/enable:0 events/sched/sched_switch/enable:0 \
		 events/sched/sched_switch/filter:none events/sched/sched_switch/trigger: \
		 events/sched/sched_switch/id:1; do
		# an empty knob reads empty, as the kernel's do (restores write "")
		if [ -n "${f#*:}" ]; then echo "${f#*:}"; fi >"$d/${f%%:*}"
	done
}
[ -n "$FAKE" ] && { fake_tracefs; export FTC_JOURNAL_DIR=$T/journal; mkdir -p "$FTC_JOURNAL_DIR"; }

# outputs named by the values (stat -o -1) land here, not in the tree
cd "$T" || exit 1
printf 'not a trace.dat\n' >"$T/tiny.dat"
long=$(head -c 102400 /dev/zero | tr '\0' a)
values=("" "$long" $'\xff\xfe\x80' -1 99999999999999999999999)
names=(empty long non-utf8 minus-one huge)
# how a message shows each value (see cmd_quote)
shown=("''" "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...' (102400 bytes)" "'\\xff\\xfe\\x80'" "'-1'"
       "'99999999999999999999999'")

# The options a command must run with so that it ends at once and touches
# nothing global: a private instance that does not exist, a workload that
# exits, an output in the temp dir, a file that is not a trace. On the fake
# tracefs, start and record work on its top level (a directory made in a
# tmpfs has no files: they would fail before looking at the value).
base() {
	case $1 in
	start) [ -z "$FAKE" ] && echo "-B $I" ;;
	status|stop|restart|clear|show|snapshot|marker|check) echo "-B $I" ;;
	record) [ -z "$FAKE" ] && echo "-B $I"; echo "-o $T/r.dat" ;;
	stream) [ -z "$FAKE" ] && echo "-B $I" ;;
	top) [ -z "$FAKE" ] && echo "-B $I"; echo "--batch --iterations 1 -d 0.1" ;;
	extract) [ "$2" != --instance ] && echo "-B $I"; echo "-o $T/x.dat" ;;
	hist) echo "-B $I -e sched:sched_switch --key prev_pid" ;;
	convert) [ "$2" != --output ] && echo "-o $T/c.dat" ;;
	import) [ "$2" != --output ] && echo "-o $T/i.dat" ;;
	split) [ "$2" != --input ] && echo "-i $T/tiny.dat" ;;
	*) ;;
	esac
}
# What an option needs before it: a filter or trigger applies to an event.
before() {
	case "$1 $2" in
	"start --filter"|"start --trigger"|"record --filter"|"record --trigger"|\
	"stream --filter"|"stream --trigger")
		echo "-e sched:sched_switch" ;;
	"boot-args --trigger") echo "-e sched_switch" ;;
	"boot-args --func"|"boot-args --notrace") echo "-p function" ;;
	"boot-args --graph-func") echo "-p function_graph" ;;
	"boot-args --events-from") echo "-e sched:sched_switch" ;;
	"stat --field-separator"|"stat --output") ;;
	esac
}
tail_args() {
	case $1 in
	record|stream|stat|profile|hist) echo "-- true" ;;
	report) [ "$2" != --input ] && echo "$T/tiny.dat" ;;
	sched) case $2 in --input) ;; --flamegraph|--folded) echo "offcpu $T/tiny.dat" ;;
		--heatmap) echo "hist $T/tiny.dat" ;;
		*) echo "$T/tiny.dat" ;; esac ;;
	dump|restore|import) echo "$T/tiny.dat" ;;
	syscalls|kwork|block|rtla) [ "$2" != --input ] && echo "$T/tiny.dat" ;;
	funclatency) case $2 in --input) ;; --all-cpus|--pid|--probes) echo "-T x" ;;
		*) echo "$T/tiny.dat" ;; esac ;;
	convert) [ "$2" != --input ] && echo "$T/tiny.dat" ;;
	marker) echo "x" ;;
	probe) case $2 in --line|--vars) ;; *) echo "list" ;; esac ;;
	*) ;;
	esac
}

# Cases the real tracefs must not see, each with its reason.
excluded() {
	[ -n "$FAKE" ] && return 1
	[ "$3" -ge 3 ] || return 1	# the rest is refused before any work
	case "$1 $2" in
	# -1 and 9999... are valid instance names: a real instance would appear
	"start --instance"|"record --instance"|"stream --instance"|"top --instance"|\
	"hist --instance") return 0 ;;
	# these reach for the named instance (or create one) for real
	"reset --instance"|"stop --instance"|"restart --instance"|"clear --instance") return 0 ;;
	esac
	return 1
}

# allowed CMD OPT ARG INDEX: "CODES|CHECK": the exit codes a value may end
# with and what the message must show: opt (the option as typed and the
# quoted value: a usage error), value (the value: a lookup), none (the
# failure is not the value's). See the head of this file.
allowed() {
	local c=$1 o=$2 arg=$3 i=$4
	case $arg in
	FILE|FILE.svg|FILE.html)
		[ "$i" -ge 2 ] || { echo "2|opt"; return; }
		case "$c $o" in
		"report --input") echo "1|value" ;;	# no such file
		"report --flamegraph"|"report --timeline") echo "1|none" ;;	# tiny.dat is not a trace
		"listen --log") echo "2|none" ;;	# then no -p: listen never waits here
		*) echo "0 1 3|none" ;;	# an output: written, or the command's own failure
		esac
		return ;;
	esac
	[ "$i" -ge 3 ] || { echo "2|opt"; return; }
	case "$c $o" in
	"boot-args --event"|"boot-args --func"|"boot-args --notrace"|"boot-args --graph-func")
		echo "0|none"; return ;;	# printed (an event this machine lacks: a warning)
	"boot-args --tracer"|"boot-args --clock"|"boot-args --option")
		echo "3|value"; return ;;	# no kernel has such a name: a typo costs a reboot
	"boot-args --trigger")
		echo "2|opt"; return ;;	# a trigger starts with a trigger command
	"start --filter"|"record --filter"|"stream --filter"|"hist --filter")
		echo "2|opt"; return ;;	# '-1' or a number alone is no filter (filter-kernel.c)
	"start --trigger"|"record --trigger"|"stream --trigger")
		echo "0 1 3|none"; return ;;	# the kernel judges a trigger (the fake takes it)
	"stream --comm")
		echo "0|none"; return ;;	# any text is a task name
	"top --comm")
		echo "0 2|none"; return ;;	# a comm or a pid; more than 15 characters is refused
	"stream --match")	# an event list: judged against the kernel's formats (the fake has none: 1)
		[ -n "$FAKE" ] && echo "1 3|none" || echo "3|value"; return ;;
	"hist --key"|"hist --value")
		echo "1 3|none"; return ;;	# the kernel judges an expression
	"listen --output")
		echo "2|none"; return ;;	# a name; then no -p: listen never waits here
	"sched --input"|"syscalls --input"|"kwork --input"|"block --input"|"funclatency --input"|\
	"rtla --input")
		echo "1|value"; return ;;	# no such file
	"report --filter"|"report --comm"|"report --event"|"report --instance"|"convert --instance"|\
	"sched --instance"|"sched --comm"|"syscalls --instance"|"syscalls --comm"|"syscalls --event"|\
	"kwork --instance"|"kwork --name"|"block --instance"|"funclatency --instance"|"rtla --instance"|\
	"funclatency --trace-funcs")
		echo "1|none"; return ;;	# judged against the file: tiny.dat is not a trace
	"stat --field-separator")
		echo "0 3|none"; return ;;	# any text separates fields (3: no perf here)
	esac
	case $arg in
	CLOCK|FUNC)
		# A known gap: libftc reports a clock or a function this kernel
		# lacks as EINVAL, which is exit 1, not 3. The fake takes any
		# function a real kernel would refuse.
		echo "${FAKE:+0 }1 2 3|value" ;;
	TRACER|OPTION|EVENT|EVENTS|NAME) echo "2 3|value" ;;	# a kernel lookup
	*) echo "2|opt" ;;
	esac
}

# limited COMMAND...: at most 2 s of CPU (ASan included) for ftc's own
# work, and 30 s on the wall clock for a call that blocks. A 2 s wall
# limit measured the machine: with a compiler or two busy loops beside it
# (a load of 9 on 2 CPUs), a usage error that costs 1.2 s of CPU under
# ASan took 3.5 s and was killed.
limited() { (ulimit -t 2; exec timeout -s KILL 30 "$@"); }

# What each failure looked like, to the log and the summary.
knobs_save
ls "$TRACEFS/instances" | sort >"$T/inst.before"
cases=0 bad=0 usage=0 other=0 skipped=0
for c in $("$FTC" --help | awk '/^commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 }'); do
	"$FTC" "$c" --help | sed -nE 's/^  +(-[A-Za-z], )?--([a-z-]+) ([A-Z][^ ]*).*/\2 \3/p' >"$T/opts"
	while read -r opt arg; do
		for i in "${!values[@]}"; do
			if excluded "$c" "--$opt" "$i"; then
				skipped=$((skipped + 1))
				continue
			fi
			cases=$((cases + 1))
			v=${values[$i]}
			what="ftc $c --$opt ${names[$i]}"
			want=$(allowed "$c" "--$opt" "$arg" "$i")
			check=${want#*|} want=${want%|*}
			# The fake has no ring buffer: record fails reading it before
			# it looks some names up (the real run checks those).
			[ -n "$FAKE" ] && { [ "$c" = record ] || [ "$c" = stream ]; } &&
				[ "$check" = value ] && want="$want 1" check=none
			[ -n "$FAKE" ] && [ "$c" = stream ] && [ "$want" = 0 ] && want="0 1"
			# top makes an instance of its own: in the fake, a directory
			# without files, refused (3) before the values are used.
			[ -n "$FAKE" ] && [ "$c" = top ] && want="$want 3" check=none
			# Nor format files: hist fails reading the event's first.
			[ -n "$FAKE" ] && [ "$c" = hist ] && [ "$check" = value ] &&
				want="$want 1" check=none
			# A fresh cwd: an output named by an earlier value ('-1') must
			# not become a later case's input.
			rm -rf "$T/cwd" && mkdir "$T/cwd" && cd "$T/cwd" || exit 1
			# shellcheck disable=SC2046
			limited "$FTC" "$c" $(base "$c" "--$opt") $(before "$c" "--$opt") \
				"--$opt" "$v" $(tail_args "$c" "--$opt") >"$T/out" 2>"$T/err" </dev/null
			rc=$?
			err=$(head -c 400 "$T/err" | tr -d '\0')
			if [ $rc = 2 ]; then usage=$((usage + 1)); else other=$((other + 1)); fi
			if [ $rc -ge 128 ]; then
				why="killed or crashed (exit $rc: 152 is the 2 s CPU limit, 137 the 30 s wall limit): $err"
			elif ! [[ " $want " == *" $rc "* ]]; then
				why="exit $rc, want $want: $err"
			elif [ $rc != 0 ] && [ -z "$err" ]; then
				why="exit $rc without a message"
			elif [ "$check" = opt ] && ! grep -qF -- "--$opt ${shown[$i]}" "$T/err"; then
				why="the message does not name --$opt ${shown[$i]}: $err"
			elif [ "$check" = value ] && [ $rc != 0 ] && ! grep -qF -- "$v" "$T/err"; then
				why="the message does not name the value: $err"
			elif [ $rc = 0 ] && [ "$c" = boot-args ] && ! grep -qF -- "$v" "$T/out"; then
				why="boot-args did not print the value: $(head -c 200 "$T/out")"
			else
				continue
			fi
			bad=$((bad + 1))
			fail "$what" "$why"
		done
		# start's job is to leave what it set, and a fake trigger file
		# keeps the '!' lines that remove a kernel's: on the fake, set it back
		[ -n "$FAKE" ] && { [ "$c" = start ] || [ "$c $opt" = "record trigger" ] ||
			[ "$c $opt" = "stream trigger" ]; } && fake_tracefs
	done <"$T/opts"
done
echo "$cases cases ($skipped left out on the real tracefs): $usage exit 2, $other other, $bad wrong"
[ $bad = 0 ] && pass "every option survives empty, long, non-UTF-8, -1 and huge values ($cases cases)"

# The short names are the same options: the message names what was typed.
err=$("$FTC" record -b '' -- true 2>&1 >/dev/null); rc=$?
[ $rc = 2 ] && [[ $err == "ftc record: -b '': "* ]] && pass "a short option is named as typed" ||
	fail "a short option is named as typed" "exit $rc: $err"

out=$("$FTC" boot-args -e sched_switch -R -1 2>&1)
expect_match "boot-args -R '-1' is not a trigger command" "^ftc boot-args: -R '-1': not a trigger" "$out"

# boot-args' values and --events-from files as a script could give them:
# good values mutated (a byte inserted, replaced or cut, the value doubled)
# and random bytes, one to four options a case. Each case ends within 2 s,
# without a crash, with exit 0 (printed), 1 (a file it cannot read), 2 or 3,
# and a message when not 0. FTC_BOOT_FUZZ_CASES sets the count (300).
boot_fuzz() {
	local good=(sched:sched_switch sched :sched_wakeup 'sched:*' irq 'stacktrace if prev_state == 2'
		    traceoff:1 enable_event:sched:sched_wakeup function function_graph vfs_read
		    'vfs_*' local x86-tsc nooverwrite funcgraph-proc 4096 4M 3 6.1 6.12.3-amd64)
	local opts=(-p -e -R -l -n -g --max-graph-depth -b -C -O --kernel --events-from -e -R)
	local odd=(':' ',' '.' '=' ' ' '*' '?' '[' '"' '\\' $'\t' $'\n' $'\x01' $'\xff' 'no' '' '9')
	local n=0 bad=0 k args v o p rc err
	RANDOM=28
	for ((n = 0; n < ${FTC_BOOT_FUZZ_CASES:-300}; n++)); do
		args=()
		# half the cases give what -l, -g and -R need, so that their values are judged
		[ $((RANDOM % 2)) = 0 ] && args=(-p function_graph -e sched:sched_switch -C local)
		for ((k = 0; k < 1 + RANDOM % 4; k++)); do
			o=${opts[RANDOM % ${#opts[@]}]}
			v=${good[RANDOM % ${#good[@]}]}
			p=$((RANDOM % (${#v} + 1)))
			case $((RANDOM % 9)) in	# 5-8: the value as it is
			0) v=${v:0:p}${odd[RANDOM % ${#odd[@]}]}${v:p} ;;
			1) v=${v:0:p}${odd[RANDOM % ${#odd[@]}]}${v:p+1} ;;
			2) v=${v:0:p} ;;
			3) v=$v$v ;;
			4) v=$(head -c $((RANDOM % 24)) /dev/urandom | tr -d '\0') ;;
			esac
			if [ "$o" = --events-from ]; then
				{ printf '%s\n' "${good[@]:0:4}" "$v"; head -c $((RANDOM % 300)) /dev/urandom; } \
					>"$T/boot-events"
				[ $((RANDOM % 3)) = 0 ] && printf 'sched:sched_switch\nirq:irq_handler_entry\n' \
					>"$T/boot-events"
				v=$T/boot-events
			fi
			args+=("$o" "$v")
		done
		timeout -s KILL 2 "$FTC" boot-args "${args[@]}" >"$T/out" 2>"$T/err" </dev/null
		rc=$?
		err=$(head -c 300 "$T/err" | tr -d '\0')
		if [ $rc -ge 4 ] || { [ $rc != 0 ] && [ -z "$err" ]; }; then
			bad=$((bad + 1))
			[ $bad -le 5 ] && fail "boot-args fuzz case $n" "exit $rc: $(printf '%q ' "${args[@]}" | head -c 300): $err"
		fi
	done
	[ $bad = 0 ] && pass "boot-args: $n fuzzed command lines end with 0-3 and a message, no crash"
}
boot_fuzz

ls "$TRACEFS/instances" | sort >"$T/inst.after"
d=$(comm -13 "$T/inst.before" "$T/inst.after" | grep -v '^ftc-' ) || true
[ -z "$d" ] && pass "no instance was created" || fail "no instance was created" "$d"
knobs_unchanged "argument fuzz"

# Accepted free text does what it says, where the kernel is a fake (start
# leaves its settings: that is its job).
if [ -n "$FAKE" ]; then
	"$FTC" start -e sched:sched_switch -f 'prev_pid == -1' >/dev/null 2>&1
	expect_match "start -f 'prev_pid == -1' writes the filter as given (fake tracefs)" '^prev_pid == -1$' \
		"$(cat "$TRACEFS/events/sched/sched_switch/filter")"
fi
finish
