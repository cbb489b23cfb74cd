# SPDX-License-Identifier: GPL-2.0-or-later
# A user has the console log of a crash that dumped the trace buffers
# (ftrace_dump_on_oops) and imports it: ftc report and trace-cmd report
# then print every record with the CPU, task, timestamp and text the dump
# had; with the kernel's kallsyms the function lines are function and
# funcgraph records at the right addresses. The logs are real consoles of
# the 6.1 lab guest (tests/fixtures/import/). Reads no tracefs.
. "$(dirname "$0")/../lib.sh"
OUT=$OUT/import.$$; mkdir -p "$OUT"; trap 'rm -rf "$OUT"' EXIT
FX=$TOP/tests/fixtures/import

command -v trace-cmd >/dev/null || { skip "ftc import" "trace-cmd is not installed"; finish; }

# The dump's records as "comm-pid CPU SECS TEXT" (the latency layout's
# microseconds as seconds).
dump_records() {
	tr -d '\r' <"$1" | sed 's/^\[[^]]*\] //' | awk '
		/^Dumping ftrace buffer:/	{ on = 1; next }
		on && /^-+$/			{ if (++dashes == 2) exit; next }
		on				{ print }' |
	sed -E 's/^ *([^ ]+) +([0-9]+)[^ ]* +([0-9]+)us : (.*)$/\1 \2 \3 \4/' |
	awk '{ us = $3; $3 = sprintf("%d.%06d", us / 1000000, us % 1000000); print }'
}
# ftc report's lines in the same shape ("text: " is a line kept as text).
ftc_records() {
	sed -E -n 's/^ *([^ ]+) +\[0*([0-9]+)\] +[^ ]+ +([0-9.]+): (text: )?(.*)$/\1 \2 \3 \5/p' "$1"
}
# trace-cmd's (its event name column is padded).
tc_records() {
	sed -E -n 's/^ *([^ ]+) +\[0*([0-9]+)\] +([0-9.]+): +([a-z_0-9]+): +(.*)$/\1 \2 \3 \4: \5/p' "$1" |
		sed 's/ text: / /'
}

log=$FX/function-oops.log
expect_status "import of a real oops console exits 0" 0 "$FTC" import "$log" -o "$OUT/f.dat"
expect_match "the summary counts the records" '^.*function-oops.log: dump 1 of 1 \(log lines 29-91\): 60 records written' \
	"$(cat "$OUT/last.out")"
expect_match "it says the function lines stayed text without --kallsyms" \
	'^12 function lines kept as text: give --kallsyms FILE' "$(cat "$OUT/last.out")"
dump_records "$log" >"$OUT/want"
"$FTC" report -i "$OUT/f.dat" >"$OUT/ftc.txt" 2>"$OUT/ftc.err"
ftc_records "$OUT/ftc.txt" >"$OUT/ftc.got"
[ "$(wc -l <"$OUT/want")" = 60 ] && cmp -s "$OUT/want" "$OUT/ftc.got" &&
	pass "ftc report prints the dump's 60 records: CPU, comm-pid, timestamp, text" ||
	fail "ftc report prints the dump's 60 records: CPU, comm-pid, timestamp, text" \
		"$(diff "$OUT/want" "$OUT/ftc.got" | head -5)"
trace-cmd report -i "$OUT/f.dat" >"$OUT/tc.txt" 2>"$OUT/tc.err"
tc_records "$OUT/tc.txt" | sed -E 's/  +/ /g' >"$OUT/tc.got"
sed -E 's/  +/ /g' "$OUT/want" >"$OUT/want1"
cmp -s "$OUT/want1" "$OUT/tc.got" &&
	pass "trace-cmd report prints the same 60 records" ||
	fail "trace-cmd report prints the same 60 records" "$(diff "$OUT/want1" "$OUT/tc.got" | head -5)"
expect_match "trace-cmd shows the events by name: sched_switch: prev_comm=..." \
	'ftc-97 +\[001\] +0\.018380: sched_switch: +prev_comm=ftc prev_pid=97 prev_prio=120 prev_state=S' \
	"$(cat "$OUT/tc.txt")"
expect_nomatch "trace-cmd reads it without a warning" '.' "$(grep -v '^cpus=' "$OUT/tc.err")"

# Function records at kallsyms' addresses, as v7 and v6.
log=$FX/frozen.log
for v in 7 6; do
	expect_status "--kallsyms --file-version $v exits 0" 0 "$FTC" import --kallsyms "$FX/frozen.kallsyms" \
		--file-version $v -o "$OUT/z$v.dat" "$log"
	out=$(trace-cmd report -R -i "$OUT/z$v.dat" 2>&1)
	expect_match "v$v: trace-cmd -R: sh-93's do_sys_openat2 is a function record, symbolized from the file" \
		'sh-93 +\[000\] +0\.025811: function: +ip=do_sys_openat2 parent_ip=__x64_sys_openat$' "$out"
	out=$("$FTC" report --json -i "$OUT/z$v.dat" 2>&1)
	# 0xffffffff85963fa0 and 0xffffffff85964630 in frozen.kallsyms
	expect_match "v$v: its ip and parent_ip are kallsyms' addresses" \
		'"ts":25811000,"cpu":0,.*"pid":93,"comm":"sh","system":"ftrace","event":"function",.*"fields":\{"ip":18446744071655800736,"parent_ip":18446744071655802416\}' "$out"
	# 0xffffffff859abde0 and 0xffffffff859ac210
	expect_match "v$v: sync-100's vfs_fsync_range <-__x64_sys_fsync too" \
		'"ts":55586000,"cpu":1,.*"pid":100,.*"fields":\{"ip":18446744071656095200,"parent_ip":18446744071656096272\}' "$out"
	out=$("$FTC" report -i "$OUT/z$v.dat" 2>&1)
	expect_match "v$v: ftc report symbolizes them from the file's kallsyms" \
		'sync-100 +\[001\] \.\.\.1\. +0\.055586: vfs_fsync_range <-__x64_sys_fsync$' "$out"
	expect_match "v$v: the marker is a tracing_mark_write record" \
		'sh-93 +\[000\] .+ 0\.026514: tracing_mark_write: before-freeze$' "$out"
done
# A System.map has the same lines; a kallsyms of another kernel resolves nothing.
sed 's/$/\t[fake_module]/' "$FX/frozen.kallsyms" >"$OUT/mod.kallsyms"
expect_status "kallsyms lines with a [module] column are read" 0 "$FTC" import -q --kallsyms "$OUT/mod.kallsyms" \
	-o "$OUT/m.dat" "$log"
expect_match "... and resolve" 'function: +ip=do_sys_openat2 parent_ip=__x64_sys_openat' "$(trace-cmd report -R -i "$OUT/m.dat" 2>&1)"
printf 'ffffffff81000000 T _stext\n' >"$OUT/other.map"
expect_status "a map without the dump's names exits 0" 0 "$FTC" import --kallsyms "$OUT/other.map" \
	-o "$OUT/o.dat" "$log"
expect_match "... and says which lines stayed text" '^6 function lines kept as text: names not in --kallsyms' \
	"$(cat "$OUT/last.out")"

# function_graph, orig_cpu: funcgraph records leading into the crash.
log=$FX/graph-orig-cpu.log
expect_status "a function_graph dump imports" 0 "$FTC" import --kallsyms "$FX/graph-orig-cpu.kallsyms" \
	-o "$OUT/g.dat" "$log"
out=$("$FTC" report -i "$OUT/g.dat" 2>&1 | tail -3)
expect_match "ftc report ends in sysrq_handle_crash() { then panic() {" \
	'sysrq_handle_crash\(\) \{' "$out"
expect_match "... panic() last" '^ 0\) +\| +panic\(\) \{$' "$(printf '%s\n' "$out" | tail -1)"
out=$(trace-cmd report -i "$OUT/g.dat" 2>&1)
expect_match "trace-cmd's function_graph plugin shows a leaf with its duration" \
	'funcgraph_entry: +\+ 16\.474 us +\| +getname_flags\.part\.0\(\);' "$out"
expect_match "trace-cmd shows the last entry, panic, on CPU 0" \
	'\[000\] .*funcgraph_entry: .*\| +panic\(\) \{' "$(printf '%s\n' "$out" | tail -1)"

# funcgraph-abstime, -proc, -tail and latency-format: times, pids and flags from the columns.
expect_status "a function_graph dump with all its columns imports" 0 "$FTC" import -q -o "$OUT/gc.dat" \
	"$FX/graph-columns.log"
expect_match "trace-cmd: the crash's entry at its abstime, with sh-93 from the proc column" \
	'sh-93 +\[000\] +7\.970465: text: +\| +sysrq_handle_crash\(\) \{$' "$(trace-cmd report -i "$OUT/gc.dat" 2>&1)"
expect_match "ftc dump shows the dump's header among the file's options" \
	'option 18004 .*tracer: function_graph\\nlayout: function_graph \(columns: CPU, TASK-PID, latency flags' \
	"$("$FTC" dump "$OUT/gc.dat" 2>&1)"

# Logs as users have them: standard input, journalctl, unparsable lines.
expect_status "'-' reads the log from standard input" 0 sh -c "cat '$FX/frozen.log' | '$FTC' import -q -o '$OUT/s.dat' -"
expect_match "... the same records" 'tracing_mark_write: before-freeze' "$("$FTC" report -i "$OUT/s.dat" 2>&1)"
tr -d '\r' <"$FX/frozen.log" | sed 's/^\[[^]]*\] /Nov 24 06:15:01 lab kernel: /' >"$OUT/journal.log"
expect_status "journalctl -k output imports" 0 "$FTC" import -q -o "$OUT/j.dat" "$OUT/journal.log"
expect_match "... with the records" 'sync-100 +\[001\] .+ vfs_fsync_range <-__x64_sys_fsync' \
	"$("$FTC" report -i "$OUT/j.dat" 2>&1)"
sed '33a [    8.525819] this line is damaged \x01\x02' "$FX/frozen.log" >"$OUT/bad.log"
expect_status "a dump with an unparsable line still imports (exit 0)" 0 "$FTC" import -o "$OUT/b.dat" "$OUT/bad.log"
expect_match "... and names the line by its number" 'bad\.log:34: not a dump line, kept out: this line is damaged' \
	"$(cat "$OUT/last.err")"
expect_match "... and counts it" '1 line of the dump could not be parsed' "$(cat "$OUT/last.err")"
cat "$FX/frozen.log" "$FX/function-oops.log" >"$OUT/two.log"
expect_status "two dumps: the last by default" 0 "$FTC" import -o "$OUT/two.dat" "$OUT/two.log"
expect_match "... says so" 'holds 2 dumps: this is the last; --dump N imports another' "$(cat "$OUT/last.out")"
expect_status "--dump 1 takes the first" 0 "$FTC" import --dump 1 -q -o "$OUT/one.dat" "$OUT/two.log"
expect_match "... the frozen dump's marker" 'before-freeze' "$("$FTC" report -i "$OUT/one.dat" 2>&1)"
head -c 3000 "$FX/function-oops.log" >"$OUT/cut.log"
expect_status "a log cut inside the dump imports what it holds" 0 "$FTC" import -q -o "$OUT/c.dat" "$OUT/cut.log"
expect_match "... and says it has no closing line" 'no closing line: the log ends first' "$(cat "$OUT/last.err")"

# Errors.
printf '[    1.000000] Linux version 6.1\n[    2.0] Kernel panic\n' >"$OUT/nodump.log"
expect_status "a log without a dump exits 1" 1 "$FTC" import -o "$OUT/x.dat" "$OUT/nodump.log"
expect_match "... saying what is missing and why" "nodump.log: no ftrace dump found .*ftc oops-dump on" \
	"$(cat "$OUT/last.err")"
[ ! -e "$OUT/x.dat" ] && pass "... and writes no file" || fail "... and writes no file" "x.dat exists"
expect_status "an unreadable log exits 1" 1 "$FTC" import -o "$OUT/x.dat" "$OUT/missing.log"
expect_match "... naming it" 'log .*missing\.log: No such file or directory' "$(cat "$OUT/last.err")"
expect_status "a missing --kallsyms exits 1" 1 "$FTC" import --kallsyms "$OUT/none" -o "$OUT/x.dat" "$log"
expect_match "... naming the option and file" '\-\-kallsyms .*none: No such file' "$(cat "$OUT/last.err")"
expect_status "a --kallsyms that is not one exits 1" 1 "$FTC" import --kallsyms "$log" -o "$OUT/x.dat" "$log"
expect_match "... saying what it should be" '\-\-kallsyms .*graph-orig-cpu.log: no line of the form .ADDRESS TYPE NAME.' \
	"$(cat "$OUT/last.err")"
expect_status "--dump beyond the log's dumps exits 2" 2 "$FTC" import --dump 3 -o "$OUT/x.dat" "$OUT/two.log"
expect_match "... saying how many there are" 'two\.log holds 2 dumps' "$(cat "$OUT/last.err")"
expect_status "no log exits 2" 2 "$FTC" import
expect_status "--dump 0 exits 2" 2 "$FTC" import --dump 0 "$log"
expect_status "--file-version 6 with zstd exits 2" 2 "$FTC" import --file-version 6 --compression zstd "$log"
expect_status "an output that cannot be written exits 1" 1 "$FTC" import -o "$OUT/no/such/dir.dat" "$log"
finish
