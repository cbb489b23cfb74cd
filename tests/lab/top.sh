# SPDX-License-Identifier: GPL-2.0-or-later
# ftc top where the kernel has the function tracer and hist triggers (one
# boot): the func view sets the function tracer in ftc top's instance and
# counts the vfs_* functions a workload calls; the syscall view counts from
# a hist trigger on raw_syscalls:sys_enter (the header says so), with the
# exact getppid count of a known workload under its comm; afterwards no
# instance, tracer or trigger is left.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

GEN=$OUT/top-getppid
printf '%s\n' '#include <stdlib.h>' '#include <sys/syscall.h>' '#include <unistd.h>' \
	'int main(int argc, char **argv)' \
	'{ long n = atol(argv[1]); for (long i = 0; i < n; i++) syscall(SYS_getppid); return 0; }' \
	>"$GEN.c"
setup "build the static workload" cc -static -O2 -o "$GEN" "$GEN.c" || finish

LAB_TIMEOUT=120 lab_run top - "$GEN" <<'EOF' || finish
T=/sys/kernel/tracing
# waits for the first table, then runs the workload
after_first() {
	for i in $(seq 1 100); do grep -q '^ftc top - ' "$1" && break; sleep 0.1; done
	shift
	"$@"
}

echo "== func"
ftc top --batch --delay 2 --iterations 3 --view func -l 'vfs_*' --width 100 >/tmp/func.out 2>&1 &
pid=$!
after_first /tmp/func.out sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do cat /proc/version; done' >/dev/null
wait $pid
echo "status=$?"
cat /tmp/func.out
echo "tracer=$(cat $T/current_tracer) instances=$(ls $T/instances | tr '\n' ' ')"

echo "== hist"
ftc top --batch --delay 2 --iterations 3 --view syscall --comm top-getppid --width 100 \
	>/tmp/hist.out 2>&1 &
pid=$!
after_first /tmp/hist.out /lab/top-getppid 20000
wait $pid
echo "status=$?"
cat /tmp/hist.out
echo "instances=$(ls $T/instances | tr '\n' ' ')"
echo "sys_enter trigger=$(grep -c '^hist' $T/events/raw_syscalls/sys_enter/trigger)"
echo "== end"
EOF

func=$(lab_section func)
expect_match "lab top func: exits 0" '^status=0$' "$func"
expect_match "lab top func: the view counts vfs_ functions" '^vfs_read +[1-9][0-9]* +[0-9]+$' "$func"
expect_nomatch "lab top func: no refusal" 'no function tracer' "$func"
expect_match "lab top func: tracer and instance restored" '^tracer=nop instances= ?$' "$func"

hist=$(lab_section hist)
expect_match "lab top hist: exits 0" '^status=0$' "$hist"
expect_match "lab top hist: the syscall view's source is the hist trigger" \
	'^view: syscall \(hist trigger\)' "$hist"
last=$(printf "%s\n" "$hist" | awk '/^ftc top - /{t=""} /^instances=/{exit} {t=t $0 "\n"} END{printf "%s", t}')
expect_match "lab top hist: the workload's 20000 getppid calls, exactly, from the kernel's table" \
	'^ +110 getppid +20000 +[0-9]+$' "$last"
expect_match "lab top hist: no instance left" '^instances= ?$' "$hist"
expect_match "lab top hist: no hist trigger left" '^sys_enter trigger=0$' "$hist"
finish
