# SPDX-License-Identifier: GPL-2.0-or-later
# The lab can do what the host refuses: the function tracer, filtered to one
# function, records that function when a program calls it. The setup is raw
# tracefs writes on purpose: this checks the lab, not ftc's control commands.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

lab_run function-tracer - <<'EOF' || finish
cd /sys/kernel/tracing || exit 1
# Filter first: tracing every function under emulation is very slow.
echo do_sys_openat2 >set_ftrace_filter || exit 1
echo function >current_tracer || exit 1
ls / >/dev/null
echo 0 >tracing_on
echo "== current_tracer"
cat current_tracer
echo "== trace"
cat trace
echo "== end"
echo nop >current_tracer
echo >set_ftrace_filter
echo 1 >tracing_on
EOF

expect_match "lab function-tracer: current_tracer took 'function'" '^function$' \
	"$(lab_section current_tracer)"
events=$(lab_section trace | grep -v '^#')
# e.g. "ls-75 [001] ..... 3.219311: do_sys_openat2 <-__x64_sys_openat"
expect_match "lab function-tracer: ls's openat reached do_sys_openat2" \
	'^ *ls-[0-9]+ +\[[0-9]+\] .* [0-9]+\.[0-9]+: do_sys_openat2 <-[a-z_0-9]+' "$events"
expect_nomatch "lab function-tracer: the filter kept every other function out" \
	': ([a-z_0-9.]+) <-' "$(printf '%s\n' "$events" | grep -v ': do_sys_openat2 <-')"
finish
