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
expect_status "a buffer size that is not a number exits 2" 2 "$FTC" boot-args -b 4M
expect_status "a command after the options exits 2" 2 "$FTC" boot-args -p function -- ls
knobs_unchanged "ftc boot-args writes nothing"
finish
