# SPDX-License-Identifier: GPL-2.0-or-later
# A kernel developer whose kernel dies before userspace turns a record-style
# command line into boot parameters. The expected strings follow the syntax
# of Documentation/admin-guide/kernel-parameters.txt: ftrace=, ftrace_filter=
# and ftrace_graph_filter= take comma-separated function lists, trace_event=
# a comma-separated event list, trace_trigger= "<event>.<trigger>[ if
# <filter>]" (the docs' own example is trace_trigger="sched_switch.stacktrace
# if prev_state == 2"), trace_buf_size=nn[KMG], trace_options= a comma list,
# ftrace_dump_on_oops[=orig_cpu], traceoff_on_warning.
. "$(dirname "$0")/../lib.sh"
OUT=$OUT/boot-args.$$; mkdir -p "$OUT"; trap 'rm -rf "$OUT"' EXIT

knobs_save
# expect_args NAME WANT ARGS...: ftc boot-args ARGS prints exactly WANT on
# stdout (warnings go to stderr, $OUT/args.err).
expect_args() {
	name=$1; want=$2; shift 2
	got=$("$FTC" boot-args "$@" 2>"$OUT/args.err"); rc=$?
	if [ $rc = 0 ] && [ "$got" = "$want" ]; then pass "$name"; else
		fail "$name" "rc=$rc got '$got', want '$want'"; fi
}

expect_args "the docs' trigger example" \
	'trace_event=sched:sched_switch trace_trigger="sched_switch.stacktrace if prev_state == 2"' \
	-e sched:sched_switch -R 'stacktrace if prev_state == 2'
expect_args "function graph on one function with a depth" \
	'ftrace=function_graph ftrace_graph_filter=do_sys_openat2 ftrace_graph_max_depth=5' \
	-p function_graph -g do_sys_openat2 --max-graph-depth 5
expect_args "repeated -l become one list, globs and :mod: kept" \
	'ftrace=function ftrace_filter=vfs_*,:mod:ext4 ftrace_notrace=*spin*' \
	-p function -l 'vfs_*' -l ':mod:ext4' -n '*spin*'
expect_args "events, a system, a buffer size in KiB, a clock, options" \
	'trace_event=sched:sched_switch,irq trace_buf_size=4096K trace_clock=global trace_options=sym-offset,nooverwrite' \
	-e sched:sched_switch -e irq -b 4096 -C global -O sym-offset -O nooverwrite
expect_args "triggers on two events, with a count" \
	'trace_event=sched:sched_switch,sched:sched_wakeup trace_trigger=sched_switch.traceoff:1,sched_wakeup.stacktrace' \
	-e sched:sched_switch -R traceoff:1 -e sched:sched_wakeup -R stacktrace
expect_args "oops dump and traceoff on warning" \
	'ftrace_dump_on_oops traceoff_on_warning' --dump-on-oops --traceoff-on-warning
expect_args "oops dump of the oopsing CPU only" 'ftrace_dump_on_oops=orig_cpu' --dump-orig-cpu
expect_args "--lines prints one parameter per line" "ftrace=function
ftrace_dump_on_oops" --lines -p function --dump-on-oops

# Warnings on stderr, the parameters still on stdout. trace_trigger= came
# with Linux 6.2: 6.1 hands it to init (tests/lab/boot-trace.sh boots it).
expect_args "a trigger for a 6.1 target is still printed" \
	'trace_event=sched:sched_switch trace_trigger=sched_switch.traceoff trace_clock=local' \
	-e sched:sched_switch -R traceoff -C local --kernel 6.1.0-56-amd64
expect_match "--kernel 6.1: a warning names trace_trigger=, 6.2 and the target" \
	'^ftc boot-args: warning: trace_trigger= needs Linux 6\.2 or later; kernel 6\.1\.0-56-amd64 \(--kernel\) ignores it' \
	"$(cat "$OUT/args.err")"
for v in 6.2 6.12.3 7.0; do
	expect_args "--kernel $v: the trigger is printed" \
		'trace_event=sched:sched_switch trace_trigger=sched_switch.traceoff trace_clock=local' \
		-e sched:sched_switch -R traceoff -C local --kernel "$v"
	expect_nomatch "--kernel $v: no warning" . "$(cat "$OUT/args.err")"
done
expect_args "--kernel 5.15 without a trigger: nothing to warn of" 'trace_clock=local' \
	-C local --kernel 5.15
expect_nomatch "--kernel 5.15 without a trigger: no warning" . "$(cat "$OUT/args.err")"
# Without --kernel the running kernel is the target.
running=$(uname -r)
"$FTC" boot-args -e sched:sched_switch -R traceoff -C local >/dev/null 2>"$OUT/args.err"
case $running in
[0-5].*|6.[01].*|6.[01])
	expect_match "without --kernel, the running kernel $running is compared" "kernel $running \\(uname -r\\)" \
		"$(cat "$OUT/args.err")" ;;
*)
	expect_nomatch "without --kernel, the running kernel $running (6.2 or later) has it" . \
		"$(cat "$OUT/args.err")" ;;
esac
# Without trace_clock= a kernel whose sched_clock is unstable switches to
# the global clock late in boot and empties the buffer (seen in the lab).
for a in "-p function" "-e initcall:*"; do
	"$FTC" boot-args $a >/dev/null 2>"$OUT/args.err"
	expect_match "'$a' without -C: a warning that the boot's records may be lost" \
		'^ftc boot-args: warning: no -C: .*empties the buffer.*give -C local or -C global' \
		"$(cat "$OUT/args.err")"
	"$FTC" boot-args $a -C global >/dev/null 2>"$OUT/args.err"
	expect_nomatch "'$a -C global': no clock warning" . "$(cat "$OUT/args.err")"
done
"$FTC" boot-args --dump-on-oops >/dev/null 2>"$OUT/args.err"
expect_nomatch "--dump-on-oops alone traces nothing at boot: no clock warning" . "$(cat "$OUT/args.err")"
expect_status "--kernel that is not a version exits 2" 2 "$FTC" boot-args -p function --kernel six
expect_match "the reason names --kernel and the value" "--kernel 'six'" "$(cat "$OUT/last.err")"

# What no boot parameter can say is refused, with the reason.
expect_status "nothing to convert exits 2" 2 "$FTC" boot-args
expect_status "-R without an event exits 2" 2 "$FTC" boot-args -R traceoff
expect_status "-R after a glob exits 2" 2 "$FTC" boot-args -e 'sched:*' -R traceoff
expect_match "the reason names trace_trigger's form" "trace_trigger= takes <event>.<trigger>" "$(cat "$OUT/last.err")"
expect_status "a comma inside a value exits 2" 2 "$FTC" boot-args -e 'a,b'
expect_status "a quote in a trigger exits 2" 2 "$FTC" boot-args -e sched:sched_switch -R 'traceoff if comm == "x"'
expect_status "a buffer size that is not a number exits 2" 2 "$FTC" boot-args -b 4X
expect_status "-b 0 exits 2" 2 "$FTC" boot-args -b 0
# trace_buf_size= goes through memparse, which takes K/M/G: -b takes them as
# every KB option of ftc does (a number of KiB, multiplied).
expect_args "-b 4M is 4M KiB" 'trace_buf_size=4194304K trace_clock=local' -b 4M -C local
expect_args "-b 2K is 2048 KiB" 'trace_buf_size=2048K trace_clock=local' -b 2K -C local
expect_match "-b's help says K/M/G multiply" '-b, --buffer-size KB .*K/M/G multiply' \
	"$("$FTC" boot-args --help)"

# What can be known without the target is checked: events against
# --events-from (the target's available_events) or this machine's list.
printf 'sched:sched_switch\nsched:sched_wakeup\r\n\nirq:irq_handler_entry\n' >"$OUT/events"
expect_args "--events-from: a known event, a system, :event" \
	'trace_event=sched:sched_switch,irq,:sched_wakeup trace_clock=local' \
	--events-from "$OUT/events" -e sched:sched_switch -e irq -e :sched_wakeup -C local
expect_nomatch "--events-from: no warning for known events" . "$(cat "$OUT/args.err")"
expect_status "--events-from: an event the target lacks exits 3" 3 "$FTC" boot-args \
	--events-from "$OUT/events" -e sched:sched_switch -e irq:nosuch -C local
expect_match "the message names the value and the file" \
	"-e 'irq:nosuch': .*events lists no such event or system" "$(cat "$OUT/last.err")"
expect_match "nothing is printed" '^$' "$(cat "$OUT/last.out")"
expect_status "--events-from: a glob trace_event= does not take exits 3" 3 "$FTC" boot-args \
	--events-from "$OUT/events" -e 'sched:sched_sw*' -C local
printf 'sched:sched_switch\nnot an event\n' >"$OUT/bad-events"
expect_status "--events-from: a line that is not system:event exits 2" 2 "$FTC" boot-args \
	--events-from "$OUT/bad-events" -e sched:sched_switch
expect_match "the message names the file and the line" "bad-events': line 2 is not system:event" \
	"$(cat "$OUT/last.err")"
expect_status "--events-from: a file that is not there exits 1" 1 "$FTC" boot-args \
	--events-from "$OUT/nosuch" -e sched:sched_switch
expect_status "--events-from without -e exits 2" 2 "$FTC" boot-args --events-from "$OUT/events" -p nop
expect_match "the message says --events-from checks -e" '^ftc boot-args: --events-from checks -e values, and none was given' \
	"$(cat "$OUT/last.err")"
# A trigger needs one event: a system printed sched.stacktrace before.
expect_status "-e SYSTEM -R exits 2" 2 "$FTC" boot-args --events-from "$OUT/events" \
	-e sched -R stacktrace
expect_match "the message says the -e names a system" \
	"-R 'stacktrace': -e 'sched' names a system \\(2 events\\), and trace_trigger= takes one event" \
	"$(cat "$OUT/last.err")"
if [ -r "$TRACEFS/available_events" ] && grep -q '^sched:' "$TRACEFS/available_events"; then
	expect_status "-e sched -R (this machine's events) exits 2" 2 "$FTC" boot-args -e sched \
		-R stacktrace
else
	skip "-e sched -R against this machine's events" "no sched events here"
fi
expect_args "-e EVENT (no system) -R is the kernel's own form" \
	'trace_event=sched_switch trace_trigger=sched_switch.stacktrace trace_clock=local' \
	--events-from "$OUT/events" -e sched_switch -R stacktrace -C local
expect_status "-R=x (not a trigger command) exits 2" 2 "$FTC" boot-args -e sched:sched_switch -R=x
expect_match "the message names -R and its value" "^ftc boot-args: -R '=x': not a trigger" \
	"$(cat "$OUT/last.err")"
# Without --events-from, this machine's events: a warning, still printed.
expect_args "an event this machine lacks is printed" \
	'trace_event=nosys:nosuch_event trace_clock=local' -e nosys:nosuch_event -C local
expect_match "with a warning that suggests --events-from" \
	"^ftc boot-args: warning: 1 -e value \\(first 'nosys:nosuch_event'\\) matches no event of this machine: .*--events-from FILE" \
	"$(cat "$OUT/args.err")"

# Tracers, clocks, options: mainline's names and this machine's.
expect_status "an unknown tracer exits 3" 3 "$FTC" boot-args -p functon -C local
expect_match "the message names -p and the tracer" "^ftc boot-args: -p 'functon': neither mainline Linux nor this machine" \
	"$(cat "$OUT/last.err")"
expect_status "an unknown clock exits 3" 3 "$FTC" boot-args -e sched:sched_switch -C lcoal
expect_status "an unknown option exits 3" 3 "$FTC" boot-args -O sym-ofset -C local
expect_status "an unknown noOPTION exits 3" 3 "$FTC" boot-args -O nofrob -C local
expect_args "mainline names pass: wakeup_rt, mono_raw, nooverwrite, funcgraph-proc" \
	'ftrace=wakeup_rt trace_clock=mono_raw trace_options=nooverwrite,funcgraph-proc' \
	-p wakeup_rt -C mono_raw -O nooverwrite -O funcgraph-proc
if ! grep -qw wakeup_rt "$TRACEFS/available_tracers" 2>/dev/null; then
	expect_match "a mainline tracer this machine lacks is warned of" \
		"^ftc boot-args: warning: -p 'wakeup_rt': this machine's kernel has no such tracer" \
		"$(cat "$OUT/args.err")"
fi

# Options without the tracer they act under.
expect_status "-l without -p exits 2" 2 "$FTC" boot-args -l vfs_read
expect_match "the message names -l and what to give" '^ftc boot-args: -l \(ftrace_filter=\) .*no -p was given: give -p function' \
	"$(cat "$OUT/last.err")"
expect_status "-n with -p nop exits 2" 2 "$FTC" boot-args -p nop -n vfs_read
expect_status "-g with -p function exits 2" 2 "$FTC" boot-args -p function -g vfs_read
expect_match "the message names -g and function_graph" "^ftc boot-args: -g .*-p is 'function': give -p function_graph" \
	"$(cat "$OUT/last.err")"
expect_status "--max-graph-depth without -p exits 2" 2 "$FTC" boot-args --max-graph-depth 3

# What the kernel would cut or drop.
set --
for i in $(seq 60); do set -- "$@" -e "sched:sched_switch_event_number_$i"; done
expect_status "60 -e values past the 2048-byte command line exit 2" 2 "$FTC" boot-args "$@" -C local
expect_match "the message gives the length" '^ftc boot-args: the parameters take 2[0-9]{3} bytes, past the kernel.s command line \(2048' \
	"$(cat "$OUT/last.err")"
expect_match "nothing is printed" '^$' "$(cat "$OUT/last.out")"
set --
for i in $(seq 33); do set -- "$@" -e sched:sched_switch -R traceoff; done
expect_status "33 triggers (the kernel keeps 32) exit 2" 2 "$FTC" boot-args "$@" -C local
set -- -O sym-offset -O sym-addr -O print-parent -O nooverwrite -O record-tgid \
	-O latency-format -O noannotate -O nocontext-info -O noirq-info -O nomarkers
expect_status "trace_options= past its 100-byte buffer exits 2" 2 "$FTC" boot-args "$@" -C local
set --
expect_status "a command after the options exits 2" 2 "$FTC" boot-args -p function -- ls

# A persistent buffer (6.12): the memory kept over a reboot, named, and the
# instance mapped onto it with the -e events, checked before a reboot finds them.
expect_status "--persistent: exit 0" 0 "$FTC" boot-args --persistent boot_map -e sched:sched_switch \
	-e irq -C global --kernel 6.12
expect_match "... reserve_mem= and trace_instance= with the events, in the instance" \
	'^reserve_mem=8M:4096:boot_map trace_instance=boot_map@boot_map,sched:sched_switch,irq trace_clock=global$' \
	"$(cat "$OUT/last.out")"
expect_match "... warning that reserve_mem='s memory may move under KASLR" \
	'reserve_mem= may find other memory at the next boot .*--persistent-at ADDR' "$(cat "$OUT/last.err")"
expect_status "--persistent-at 0x18000000: exit 0" 0 "$FTC" boot-args --persistent boot_map \
	--persistent-at 0x18000000 -e sched:sched_switch -C global --kernel 6.12
expect_match "... memmap='s fixed address, and the instance mapped there" \
	'^memmap=8M\$0x18000000 trace_instance=boot_map@0x18000000:8M,sched:sched_switch trace_clock=global$' \
	"$(cat "$OUT/last.out")"
expect "... and no warning for 6.12" test ! -s "$OUT/last.err"
expect_status "--persistent-at not page-aligned exits 2" 2 "$FTC" boot-args --persistent bm \
	--persistent-at 0x18000010
expect_status "--persistent-at without --persistent exits 2" 2 "$FTC" boot-args --persistent-at 0x18000000 -e sched
expect_status "--persistent-size 16M --no-tracing-on: exit 0" 0 "$FTC" boot-args --persistent bm \
	--persistent-size 16M --no-tracing-on --kernel 6.1
expect_match "... the size and ^traceoff" '^reserve_mem=16M:4096:bm trace_instance=bm\^traceoff@bm$' \
	"$(cat "$OUT/last.out")"
expect_match "... and for 6.1 a warning that it needs 6.12" 'reserve_mem= needs Linux 6.12' "$(cat "$OUT/last.err")"
expect_status "--persistent-size without --persistent exits 2" 2 "$FTC" boot-args --persistent-size 8M -e sched
expect_status "--persistent with -R exits 2" 2 "$FTC" boot-args --persistent bm -e sched:sched_switch -R traceoff
expect_match "... saying where triggers go" 'set its triggers after the boot' "$(cat "$OUT/last.err")"
expect_status "a name longer than reserve_mem keeps exits 2" 2 "$FTC" boot-args --persistent abcdefghijklmnop
expect_status "a name beginning with '-' exits 2" 2 "$FTC" boot-args --persistent -x -e sched
expect_status "a size under 1M exits 2" 2 "$FTC" boot-args --persistent bm --persistent-size 4K
knobs_unchanged "ftc boot-args writes nothing"
finish
