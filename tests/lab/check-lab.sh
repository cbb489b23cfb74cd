# SPDX-License-Identifier: GPL-2.0-or-later
# On a kernel that has them (Debian's 6.1 and 6.12 in the lab), ftc check finds the
# features the host refuses, leaves tracefs as it found it, and ftc
# oops-dump really sets ftrace_dump_on_oops.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

LAB_TIMEOUT=90 lab_run check-lab - <<'EOF' || finish
snap() {
	cd /sys/kernel/tracing
	for f in current_tracer tracing_on trace_clock buffer_size_kb set_ftrace_filter \
		set_ftrace_notrace set_graph_function set_event set_event_pid kprobe_events \
		dynamic_events uprobe_events snapshot; do
		echo "$f=$(head -c 2000 $f 2>&1 | grep -v '^#' | tr '\n' ' ')"
	done
	echo "instances=$(ls instances | tr '\n' ' ')"
	echo "ftrace_enabled=$(cat /proc/sys/kernel/ftrace_enabled)"
	echo "dump_on_oops=$(cat /proc/sys/kernel/ftrace_dump_on_oops)"
	cd /tmp
}
# Whether a new instance shares the top level's unexpanded buffers (6.1)
# or comes with its own, expanded (6.12): only then may check switch a
# tracer in its private instance on a fresh kernel.
mkdir /sys/kernel/tracing/instances/lab-fresh
echo "== instance"
cat /sys/kernel/tracing/instances/lab-fresh/buffer_size_kb
rmdir /sys/kernel/tracing/instances/lab-fresh
# A fresh kernel has not expanded its buffers: check must not do it.
snap >before
echo "== check fresh"
ftc check
echo "check status=$?"
snap >after
echo "== diff fresh"
diff before after && echo "no difference"
# Once tracing was used, check really switches tracers in its private instance.
echo 1408 >/sys/kernel/tracing/buffer_size_kb
snap >before
echo "== check"
ftc check
echo "check status=$?"
snap >after
echo "== diff"
diff before after && echo "no difference"
echo do_sys_openat2 >/sys/kernel/tracing/set_ftrace_filter
echo "== status"
ftc status | grep '^set_ftrace_filter '
echo "== functions"
ftc list -f '^do_sys_open'; echo "list status=$?"
echo >/sys/kernel/tracing/set_ftrace_filter
echo "== oops"
ftc oops-dump on; echo "on status=$?"
echo "value=$(cat /proc/sys/kernel/ftrace_dump_on_oops)"
ftc oops-dump off; echo "off status=$?"
echo "value=$(cat /proc/sys/kernel/ftrace_dump_on_oops)"
echo "== end"
EOF

fresh=$(lab_section "check fresh")
check=$(lab_section check)
expect_match "lab check: ftc check exits 0 on a fresh kernel" '^check status=0$' "$fresh"
expect_match "lab check: ftc check exits 0" '^check status=0$' "$check"
for cap in function function_graph set_ftrace_filter snapshot kprobes trigger-hist; do
	expect_match "lab check: $cap is ok on the lab's kernel" "^$cap +ok " "$check"
	expect_match "lab check: $cap is ok on a freshly booted one too" "^$cap +ok " "$fresh"
done
expect_match "lab check: the function tracer was really switched" \
	"^function +ok +current_tracer: 'function' set and reset in a private instance" "$check"
if lab_section instance | grep -q 'expanded:'; then
	expect_match "lab check: ... but not while the buffers are unexpanded" \
		"^function +ok +listed in available_tracers \(not switched" "$fresh"
else
	expect_match "lab check: ... and on a fresh kernel too, whose new instances come expanded" \
		"^function +ok +current_tracer: 'function' set and reset in a private instance" "$fresh"
fi
expect_match "lab check: a fresh kernel's tracefs (buffers unexpanded) left as found" \
	'^no difference$' "$(lab_section "diff fresh")"
expect_match "lab check: tracefs left as found" '^no difference$' "$(lab_section diff)"
expect_match "lab check: status shows a readable function filter" '^set_ftrace_filter do_sys_openat2$' \
	"$(lab_section status)"
expect_match "lab check: list -f lists filterable functions" '^do_sys_openat2$' "$(lab_section functions)"
expect_match "lab check: list -f exits 0 where readable" '^list status=0$' "$(lab_section functions)"
oops=$(lab_section oops)
expect_match "lab check: oops-dump on exits 0" '^on status=0$' "$oops"
expect_match "lab check: on wrote 1" '^value=1$' "$oops"
expect_match "lab check: oops-dump off exits 0" '^off status=0$' "$oops"
expect_match "lab check: off wrote 0" '^value=0$' "$oops"
finish
