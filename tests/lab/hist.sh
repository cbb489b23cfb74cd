# SPDX-License-Identifier: GPL-2.0-or-later
# ftc hist where the kernel has hist triggers: a kmalloc histogram keyed by
# call_site.sym while ls runs (symbols in the table, hitcounts adding up to
# the kernel's Hits), the execs of a known workload (exactly its rows),
# --raw against the hist file the workload itself read, a filtered log2
# histogram, sched_switch of a sleep, an instance made for the run, --show
# of a trigger set by hand, a trigger that exists already (left alone), and
# a SIGKILLed ftc undone by its guardian, or, the guardian killed too, by
# `ftc reset --journal`. Every trigger ftc set is gone afterwards.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

LAB_TIMEOUT=150 lab_run hist - <<'EOF' || finish
T=/sys/kernel/tracing
export FTC_JOURNAL_DIR=/tmp/j
# hists EVENT: how many hist triggers the event has
hists() { grep -c '^hist' "$T/events/$1/trigger"; }
# guardian PID: the ftc-guardian that PID forked
guardian() {
	for d in /proc/[0-9]*; do
		[ "$(cat "$d/comm" 2>/dev/null)" = ftc-guardian ] &&
			grep -q "^PPid:[[:space:]]*$1\$" "$d/status" && echo "${d#/proc/}"
	done
}
# appears EVENT: waits (5 s at most) for a hist trigger on EVENT
appears() {
	for i in $(seq 1 50); do [ "$(hists "$1")" -gt 0 ] && return 0; sleep 0.1; done
	return 1
}
gone() {
	for i in $(seq 1 50); do [ "$(hists "$1")" = 0 ] && return 0; sleep 0.1; done
	return 1
}

echo "== kmalloc"
ftc hist -e kmem:kmalloc --key call_site.sym --value bytes_req --sort hitcount.descending \
	-o /tmp/kmalloc.txt -- ls / >/dev/null
echo "status=$?"
cat /tmp/kmalloc.txt
echo "triggers=$(hists kmem/kmalloc)"

echo "== exec"
ftc hist -e sched:sched_process_exec --key common_pid.execname -- \
	sh -c '/bin/true; /bin/true; echo workload done'
echo "status=$?"
echo "triggers=$(hists sched/sched_process_exec)"

echo "== raw"
ftc hist --raw -e sched:sched_process_exec --key common_pid.execname -o /tmp/raw -- \
	sh -c "/bin/true; cat $T/events/sched/sched_process_exec/hist >/tmp/kernel"
echo "status=$?"
cat /tmp/raw
# ftc paused the trigger before it read: the one difference
sed 's/ \[paused\]$/ [active]/' /tmp/raw | cmp - /tmp/kernel && echo "raw=kernel's"
echo "triggers=$(hists sched/sched_process_exec)"

echo "== log2"
ftc hist -e kmem:kmalloc --key bytes_req.log2 -f 'bytes_req > 64' -- sh -c 'ls / >/dev/null'
echo "status=$?"
echo "triggers=$(hists kmem/kmalloc)"

echo "== switch"
ftc hist -e sched:sched_switch --key common_pid.execname -- sh -c 'echo "child=$$"; exec sleep 1'
echo "status=$?"
echo "triggers=$(hists sched/sched_switch)"

echo "== instance"
ftc hist -q -B ftc-hist-lab -e sched:sched_process_exec --key common_pid.execname -- /bin/true
echo "status=$?"
echo "instance left: $(ls $T/instances)"

echo "== show"
echo 'hist:keys=common_pid.execname' >>$T/events/sched/sched_process_exec/trigger
/bin/true
echo 'hist:keys=common_pid.execname:pause' >>$T/events/sched/sched_process_exec/trigger
ftc hist --show --raw -e sched:sched_process_exec >/tmp/a; echo "show raw status=$?"
cmp /tmp/a $T/events/sched/sched_process_exec/hist && echo "show raw=kernel's"
ftc hist --show -e sched:sched_process_exec; echo "show status=$?"
echo "triggers=$(hists sched/sched_process_exec)"

echo "== exists"
ftc hist -e sched:sched_process_exec --key common_pid.execname -- /bin/true
echo "status=$?"
echo "triggers=$(hists sched/sched_process_exec)"
echo '!hist:keys=common_pid.execname' >>$T/events/sched/sched_process_exec/trigger
echo "cleaned=$(hists sched/sched_process_exec)"

echo "== sigint"
# Ctrl-C ends a count without a command: the table, exit 0; with a command,
# the table and 130.
ftc hist -q -e sched:sched_switch --key common_pid >/tmp/int.txt 2>&1 &
pid=$!
appears sched/sched_switch
kill -INT $pid
wait $pid
echo "status=$?"
echo "hits lines=$(grep -c '^    Hits: [0-9]' /tmp/int.txt)"
echo "triggers=$(hists sched/sched_switch)"
ftc hist -q -e sched:sched_switch --key common_pid -- sleep 30 >/tmp/int.txt 2>&1 &
pid=$!
appears sched/sched_switch
kill -INT $pid
wait $pid
echo "command status=$?"
echo "command hits lines=$(grep -c '^    Hits: [0-9]' /tmp/int.txt)"
echo "command triggers=$(hists sched/sched_switch)"

echo "== killed"
ftc hist -q -e kmem:kmalloc --key bytes_req.log2 -f 'bytes_req > 64' --duration 60 \
	>/dev/null 2>/tmp/kill.err &
pid=$!
appears kmem/kmalloc && echo "set=$(hists kmem/kmalloc)"
kill -KILL $pid
gone kmem/kmalloc
echo "after the guardian=$(hists kmem/kmalloc)"
cat /tmp/kill.err
ftc hist -q -e kmem:kmalloc --key bytes_req.log2 -f 'bytes_req > 64' --duration 60 \
	>/dev/null 2>/dev/null &
pid=$!
appears kmem/kmalloc
sleep 0.5
g=$(guardian $pid)
echo "guardian=${g:-none}"
kill -KILL $g
kill -KILL $pid
sleep 0.5
echo "both killed=$(hists kmem/kmalloc)"
ftc reset --journal; echo "reset status=$?"
echo "after reset=$(hists kmem/kmalloc)"
echo "== end"
EOF

# rows SECTION: the table's rows, between its two rules
rows() { lab_section "$1" | awk '/^-+( +-+)*$/ { n++; next } n == 1'; }
# total SECTION: the total row; hits SECTION: the kernel's Hits
total() { lab_section "$1" | awk '/^total / { print $2 }'; }
hits() { lab_section "$1" | sed -n 's/^    Hits: \([0-9]*\)$/\1/p'; }
entries() { lab_section "$1" | sed -n 's/^    Entries: \([0-9]*\)$/\1/p'; }

# hitcount_adds_up SECTION COL: the hitcounts (field COL from the end of
# each row, 0 the last) add up to the total row and to the kernel's Hits.
hitcount_adds_up() {
	local sum n
	sum=$(rows "$1" | awk -v c="$2" '{ s += $(NF - c) } END { print s + 0 }')
	n=$(rows "$1" | grep -c .)
	[ -n "$(hits "$1")" ] && [ "$sum" = "$(hits "$1")" ] && [ "$sum" = "$(total "$1")" ] &&
		pass "lab hist $1: the hitcounts add up to the kernel's Hits ($sum)" ||
		fail "lab hist $1: the hitcounts add up to the kernel's Hits" \
			"rows $sum, total row '$(total "$1")', Hits '$(hits "$1")'"
	[ "$n" = "$(entries "$1")" ] && pass "lab hist $1: one row per entry ($n)" ||
		fail "lab hist $1: one row per entry" "$n rows, Entries '$(entries "$1")'"
}

k=$(lab_section kmalloc)
expect_match "lab hist kmalloc: exits 0" '^status=0$' "$k"
expect_match "lab hist kmalloc: the title is the kernel's trigger, paused" \
	'^# kmem:kmalloc: hist:keys=call_site.sym:vals=hitcount,bytes_req:sort=hitcount.descending:size=2048 \[paused\]$' "$k"
expect_match "lab hist kmalloc: the header names the key and values" \
	'^call_site\.sym +hitcount +bytes_req$' "$k"
expect_match "lab hist kmalloc: keys are symbols with their addresses" \
	'^\[ffffffff[0-9a-f]{8}\] [a-z_][a-z0-9_.]* +[0-9]+ +[0-9]+$' "$(rows kmalloc)"
hitcount_adds_up kmalloc 1
first=$(rows kmalloc | awk '{ print $(NF - 1) }' | head -1)
max=$(rows kmalloc | awk '{ print $(NF - 1) }' | sort -n | tail -1)
[ -n "$first" ] && [ "$first" = "$max" ] && pass "lab hist kmalloc: sorted by hitcount, descending" ||
	fail "lab hist kmalloc: sorted by hitcount, descending" "first row $first, largest $max"
expect_match "lab hist kmalloc: the trigger is removed" '^triggers=0$' "$k"

e=$(lab_section exec)
expect_match "lab hist exec: exits with the command's status" '^status=0$' "$e"
exec_rows=$(rows exec | sed -E 's/[0-9]+\]/N]/')
[ "$(printf '%s\n' "$exec_rows" | sort | tr -s ' ')" = "$(printf 'sh [N] 1\ntrue [N] 1\ntrue [N] 1')" ] &&
	pass "lab hist exec: exactly the workload's execs: sh, true, true" ||
	fail "lab hist exec: exactly the workload's execs: sh, true, true" "$exec_rows"
hitcount_adds_up exec 0
expect_match "lab hist exec: the trigger is removed" '^triggers=0$' "$e"

r=$(lab_section raw)
expect_match "lab hist raw: exits 0" '^status=0$' "$r"
expect_match "lab hist raw: --raw is the kernel's text" '^# trigger info: hist:keys=common_pid.execname' "$r"
expect_match "lab hist raw: --raw equals the hist file the workload read (but for the pause)" \
	"^raw=kernel's$" "$r"
expect_match "lab hist raw: the trigger is removed" '^triggers=0$' "$r"

l=$(lab_section log2)
expect_match "lab hist log2: exits 0" '^status=0$' "$l"
expect_match "lab hist log2: the filter is in the trigger" 'if bytes_req > 64 \[paused\]$' "$l"
expect_match "lab hist log2: buckets of powers of two" '^~ 2\^[0-9]+ +[0-9]+$' "$(rows log2)"
expect_nomatch "lab hist log2: none below 2^6 (the filter counts)" '^~ 2\^[0-5] ' "$(rows log2)"
hitcount_adds_up log2 0
expect_match "lab hist log2: the filtered trigger is removed (with its filter)" '^triggers=0$' "$l"

s=$(lab_section switch)
expect_match "lab hist switch: exits 0" '^status=0$' "$s"
# The command's task is a row. Its name is the kernel's comm cache's
# (saved_cmdlines): sleep, or still sh or ftc if the cache kept the name
# it had before the exec (seen once: "ftc [125]"), or exe: busybox's sh
# runs an applet by exec of /proc/self/exe, whose base name the kernel
# takes (seen once: "exe [126]").
child=$(printf '%s\n' "$s" | sed -n 's/^child=\([0-9]*\)$/\1/p')
expect_match "lab hist switch: the command's task ($child) is a row" \
	"^(sleep|sh|ftc|exe) +\\[${child:-none}\\] +[1-9][0-9]*\$" "$(rows switch)"
hitcount_adds_up switch 0
expect_match "lab hist switch: the trigger is removed" '^triggers=0$' "$s"

i=$(lab_section instance)
expect_match "lab hist instance: exits 0" '^status=0$' "$i"
expect_match "lab hist instance: the title names the instance" \
	'^# sched:sched_process_exec in instance ftc-hist-lab: hist:' "$i"
expect_match "lab hist instance: counts there" '^true +\[[0-9]+\] +1$' "$(rows instance)"
expect_match "lab hist instance: the instance made for it is removed" '^instance left: *$' "$i"

w=$(lab_section show)
expect_match "lab hist show: --show --raw exits 0" '^show raw status=0$' "$w"
expect_match "lab hist show: --show --raw is the hist file" "^show raw=kernel's$" "$w"
expect_match "lab hist show: --show prints the table" '^true +\[[0-9]+\] +1$' "$(rows show)"
expect_match "lab hist show: exits 0" '^show status=0$' "$w"
expect_match "lab hist show: the trigger set by hand stays" '^triggers=1$' "$w"

x=$(lab_section exists)
expect_match "lab hist exists: the same trigger again exits 1" '^status=1$' "$x"
expect_match "lab hist exists: says it is set already" 'already set there.*--show -e sched:sched_process_exec' "$x"
expect_match "lab hist exists: the trigger found there is left alone" '^triggers=1$' "$x"
expect_match "lab hist exists: (cleaned up)" '^cleaned=0$' "$x"

c=$(lab_section sigint)
expect_match "lab hist sigint: Ctrl-C ends a count without a command: exit 0" '^status=0$' "$c"
expect_match "lab hist sigint: the table is printed" '^hits lines=1$' "$c"
expect_match "lab hist sigint: the trigger is removed" '^triggers=0$' "$c"
expect_match "lab hist sigint: with a command: exit 130" '^command status=130$' "$c"
expect_match "lab hist sigint: with a command: the table is printed" '^command hits lines=1$' "$c"
expect_match "lab hist sigint: with a command: the trigger is removed" '^command triggers=0$' "$c"

d=$(lab_section killed)
expect_match "lab hist killed: the trigger is set while it counts" '^set=1$' "$d"
expect_match "lab hist killed: the guardian removes it after SIGKILL" '^after the guardian=0$' "$d"
expect_match "lab hist killed: the guardian says so" 'ftc-guardian: pid [0-9]+ \(ftc hist\) died' "$d"
expect_match "lab hist killed: a guardian was found" '^guardian=[0-9]+$' "$d"
expect_match "lab hist killed: both killed, the trigger stays" '^both killed=1$' "$d"
expect_match "lab hist killed: ftc reset --journal exits 0" '^reset status=0$' "$d"
expect_match "lab hist killed: ftc reset --journal removes it" '^after reset=0$' "$d"
finish
