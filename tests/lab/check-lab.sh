# SPDX-License-Identifier: GPL-2.0-or-later
# On a kernel that has them (Debian's 6.1 in the lab), ftc check finds the
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
snap >before
echo "== check"
ftc check
echo "check status=$?"
snap >after
echo "== diff"
diff before after && echo "no difference"
echo "== oops"
ftc oops-dump on; echo "on status=$?"
echo "value=$(cat /proc/sys/kernel/ftrace_dump_on_oops)"
ftc oops-dump off; echo "off status=$?"
echo "value=$(cat /proc/sys/kernel/ftrace_dump_on_oops)"
echo "== end"
EOF

check=$(lab_section check)
expect_match "lab check: ftc check exits 0" '^check status=0$' "$(cat "$LAB_OUTPUT")"
for cap in function function_graph set_ftrace_filter snapshot kprobes trigger-hist; do
	expect_match "lab check: $cap is ok on Debian's 6.1" "^$cap +ok " "$check"
done
expect_match "lab check: tracefs left as found" '^no difference$' "$(lab_section diff)"
oops=$(lab_section oops)
expect_match "lab check: oops-dump on exits 0" '^on status=0$' "$oops"
expect_match "lab check: on wrote 1" '^value=1$' "$oops"
expect_match "lab check: oops-dump off exits 0" '^off status=0$' "$oops"
expect_match "lab check: off wrote 0" '^value=0$' "$oops"
finish
