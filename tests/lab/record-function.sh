# SPDX-License-Identifier: GPL-2.0-or-later
# ftc record captures the function tracer, filtered with -l, around a
# command in the guest; on the host trace-cmd report reads the trace.dat
# and shows ls's calls, and ftc report shows the very same records (comm,
# pid, CPU, nanosecond timestamp, function, parent). Then ftc record -F
# follows ls alone (set_ftrace_pid), read back by ftc report in the guest.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

# busybox ls opens each directory it lists through do_sys_openat2. The
# capture is about 1 MB (the kallsyms section): lab_export takes seconds.
# Another task opens a file in bursts meanwhile (the shell's own redirect,
# no fork: thousands a second): -F must leave it out.
LAB_TIMEOUT=60 lab_run record-function - <<'EOF' || finish
(while :; do for i in 1 2 3 4 5 6 7 8; do read x </proc/version; done; sleep 0.01; done) &
noise=$!
echo "noise=$noise"
echo "== record"
# A second of capture after ls, so the noise task surely runs meanwhile.
ftc record -p function -l 'do_sys_open*' -o /tmp/f.dat -- sh -c 'ls / /proc/self /sys; sleep 1' >/dev/null
echo "record status=$?"
echo "== after"
echo "current_tracer=$(cat /sys/kernel/tracing/current_tracer)"
echo "set_ftrace_filter=$(cat /sys/kernel/tracing/set_ftrace_filter | tr '\n' ' ')"
echo "== follow"
ftc record -q -F -p function -l 'do_sys_open*' -o /tmp/f2.dat -- ls / /proc/self /sys >/dev/null
echo "follow status=$?"
ftc report --no-header /tmp/f2.dat | head -50
kill $noise
echo "== end"
lab_export /tmp/f.dat
EOF

out=$(lab_section record)
expect_match "lab record-function: ftc record exits 0" '^record status=0$' "$out"
# e.g. "ftc record: 4 events, 0 lost (per CPU: 0/0), 0.0 MB of trace in /tmp/f.dat, 0.2 s"
nrec=$(printf '%s\n' "$out" | sed -n 's/^ftc record: \([0-9]*\) events, .*/\1/p')
expect_match "lab record-function: ftc record's summary counts the events" '^[1-9][0-9]*$' "$nrec"
after=$(lab_section after)
expect_match "lab record-function: the tracer is back to nop afterwards" '^current_tracer=nop$' "$after"
expect_nomatch "lab record-function: the function filter is cleared afterwards" \
	'^set_ftrace_filter=.*do_sys_open' "$after"

follow=$(lab_section follow)
expect_match "lab record-function: ftc record -F exits 0" '^follow status=0$' "$follow"
fcalls=$(printf '%s\n' "$follow" | grep -c -E '^ *ls-[0-9]+ .*: do_sys_openat2 <-')
if [ "$fcalls" -ge 3 ]; then
	pass "lab record-function: -F recorded ls's opendirs ($fcalls calls)"
else
	fail "lab record-function: -F recorded ls's opendirs" "$fcalls calls in: $follow"
fi
expect_nomatch "lab record-function: -F recorded no other task" \
	'^ *[^ #]' "$(printf '%s\n' "$follow" | grep -v -E '^ *ls-[0-9]+ ' | grep -v '^follow status=')"

dat=$OUT/lab-record-function.dat
lab_fetch record-function /tmp/f.dat "$dat" "lab record-function: the trace.dat"
pass "lab record-function: the trace.dat comes back"

# trace-cmd: "ls-98 [000] 6.737195134: function: do_sys_openat2 <-- __x64_sys_openat"
# (the parent needs -O parent=1 with trace-cmd 3.1's plugin).
if ! trace-cmd report -t -O parent=1 -i "$dat" >"$OUT/lab-record-function.tc" \
		2>"$OUT/last.err"; then
	fail "lab record-function: trace-cmd report reads ftc's file" "$(tail -3 "$OUT/last.err")"
	finish
fi
pass "lab record-function: trace-cmd report reads ftc's file"
tc=$(awk '$4 == "function:" { print $1, $2, $3, $5, $7 }' "$OUT/lab-record-function.tc")
expect_match "lab record-function: trace-cmd shows ls calling do_sys_openat2" \
	'^ls-[0-9]+ \[[0-9]+\] [0-9]+\.[0-9]{9}: do_sys_openat2 __x64_sys_openat$' "$tc"
funcs=$(printf '%s\n' "$tc" | awk '{ print $4 }' | sort -u)
expect_nomatch "lab record-function: trace-cmd shows no function outside 'do_sys_open*'" \
	'.' "$(printf '%s\n' "$funcs" | grep -v '^do_sys_open')"
ls_calls=$(printf '%s\n' "$tc" | grep -c '^ls-[0-9]* .* do_sys_openat2 ')
noise=$(sed -n 's/^noise=\([0-9]*\)$/\1/p' "$LAB_OUTPUT")
others=$(printf '%s\n' "$tc" | grep -c "^sh-${noise:-none} ")
if [ "$others" -ge 1 ]; then
	pass "lab record-function: without -F the other task's opens are there too ($others)"
else
	fail "lab record-function: without -F the other task's opens are there too" "none in: $tc"
fi
# ls /, /proc/self and /sys: one opendir each at least.
if [ "$ls_calls" -ge 3 ]; then
	pass "lab record-function: ls's three opendirs are there ($ls_calls calls)"
else
	fail "lab record-function: ls's three opendirs are there" "$ls_calls calls by ls in: $tc"
fi
ntc=$(printf '%s\n' "$tc" | grep -c .)
expect_match "lab record-function: trace-cmd counts as many events as ftc record said" \
	"^$nrec\$" "$ntc"

# ftc report: "ls-98 [000] ..... 6.737195134: do_sys_openat2 <-__x64_sys_openat"
if ! "$FTC" report --ns --no-header "$dat" >"$OUT/lab-record-function.ftc" \
		2>"$OUT/last.err"; then
	fail "lab record-function: ftc report reads the file" "$(tail -3 "$OUT/last.err")"
	finish
fi
pass "lab record-function: ftc report reads the file"
ftc=$(grep -v '^#' "$OUT/lab-record-function.ftc" |
	awk '{ p = $6; sub(/^<-/, "", p); print $1, $2, $4, $5, p }')
if [ "$ftc" = "$tc" ]; then
	pass "lab record-function: ftc report shows the same $ntc records as trace-cmd (comm, pid, CPU, ns, function, parent)"
else
	fail "lab record-function: ftc report shows the same records as trace-cmd" \
		"$(diff <(printf '%s\n' "$tc") <(printf '%s\n' "$ftc") | head -6 | tr '\n' '|')"
fi
finish
