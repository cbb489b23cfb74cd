# SPDX-License-Identifier: GPL-2.0-or-later
# The lab's scenarios on a board: the arm64 guest (Debian's arm64 kernel on
# qemu-system-aarch64 -M virt -cpu max, ftc-static-arm64) runs the x86
# tests that make sense there, unchanged: function-tracer.sh (the function
# tracer with a filter) and extract-trigger.sh (a traceon trigger, ftc
# extract, a snapshot trigger and extract -s); their results are named
# "lab arm64 ...". Then function_graph, with a filter of three functions:
# unfiltered, switching function_graph on patches all 42,000 functions,
# which takes minutes under arm64 TCG (record-graph.sh timed out at 90 s),
# while the function tracer needs about 10 s. The counters are in
# arm64-counters.sh.
. "$(dirname "$0")/../lib.sh"
LAB_ARCH=arm64
. "$(dirname "$0")/lab.bash"

for t in function-tracer extract-trigger; do
	# Their own consoles and files, apart from the x86 runs'.
	res=$(OUT=$OUT/arm64 LAB_ARCH=arm64 bash "$TOP/tests/lab/$t.sh" 2>&1 |
		sed -E 's/^(PASS|FAIL|SKIP) lab /\1 lab arm64 /')
	printf '%s\n' "$res"
	printf '%s\n' "$res" | grep -q '^FAIL ' && T_FAILED=1
done

LAB_TIMEOUT=90 lab_run arm64-graph - <<'EOF' || finish
echo "== record"
ftc record -p function_graph -l do_sys_openat2 -l do_filp_open -l getname_flags \
	-o /tmp/g.dat -- ls / >/dev/null
echo "status=$?"
echo "tracer=$(cat /sys/kernel/tracing/current_tracer)"
echo "== syscalls"
ftc record -q -e raw_syscalls -F -o /tmp/s.dat -- cat /ftc-no-such-file 2>/dev/null
echo "== end"
lab_export /tmp/g.dat
lab_export /tmp/s.dat
EOF
s=$(lab_section record)
expect_match "lab arm64-graph: ftc record -p function_graph exits 0" '^status=0$' "$s"
expect_match "lab arm64-graph: the tracer is back to nop" '^tracer=nop$' "$s"
dat=$OUT/lab-arm64-graph.dat
lab_fetch arm64-graph /tmp/g.dat "$dat" "lab arm64-graph: the trace.dat"
rep=$("$FTC" report "$dat" 2>&1)
# " 1)               |  do_sys_openat2() {", " 1) ! 214.144 us  |    do_filp_open();"
expect_match "lab arm64-graph: ftc report opens do_sys_openat2 with '{'" \
	'^ *[0-9]+\) +\|  do_sys_openat2\(\) \{$' "$rep"
expect_match "lab arm64-graph: ... nests do_filp_open inside it, with its duration" \
	'^ *[0-9]+\) [!+#@*$ ]*[0-9]+\.[0-9]+ us +\|    do_filp_open\(\);$' "$rep"
expect_match "lab arm64-graph: ... and closes it with a duration" \
	'^ *[0-9]+\) [!+#@*$ ]*[0-9]+\.[0-9]+ us +\|  \}$' "$rep"
n_ftc=$(printf '%s\n' "$rep" | grep -c 'do_sys_openat2() {')
n_tc=$(trace-cmd report "$dat" 2>&1 | grep -c 'do_sys_openat2() {')
expect_match "lab arm64-graph: trace-cmd reads as many do_sys_openat2 blocks ($n_tc, ftc $n_ftc)" \
	"^$n_ftc\$" "$n_tc"

# Captured on the board, read on the laptop: the arm64 capture as Perfetto's
# trace and Chrome's JSON, each call of trace-cmd's report in them.
if command -v protoc >/dev/null; then
	"$FTC" convert --to perfetto "$dat" "$dat.pf" 2>"$dat.err" &&
		protoc -I"$TOP/Documentation" --decode=ftc.perfetto.Trace \
			"$TOP/Documentation/perfetto-subset.proto" <"$dat.pf" >"$dat.pf.txt" 2>>"$dat.err"
	trace-cmd report -t -R -i "$dat" >"$dat.raw" 2>/dev/null
	got=$(python3 "$TOP/tests/interop/perfetto-check.py" "$dat.pf.txt" "$dat.raw" 2>&1 |
		python3 -c 'import json, sys; r = json.load(sys.stdin)
print(r["records"], r["missing"], r["extra"], r["mismatches"], r["names"].get("funcgraph_exit", 0))' 2>&1)
	set -- $got
	[ "${1:-0}" -gt 0 ] && [ "$2 $3 $4" = "0 0 0" ] && [ "${5:-0}" -gt 0 ] &&
		pass "lab arm64-graph: as Perfetto's trace on the host, each of trace-cmd's $1 records, $5 funcgraph exits" ||
		fail "lab arm64-graph: as Perfetto's trace on the host" "records, missing, extra, mismatches, exits: $got $(head -2 "$dat.err")"
else
	skip "lab arm64-graph: as Perfetto's trace" "protoc is not installed (protobuf-compiler)"
fi
"$FTC" convert --to chrome "$dat" "$dat.json" 2>"$dat.err" &&
	got=$(python3 "$TOP/tests/interop/chrome-check.py" "$dat.json" "$dat.raw" 2>&1 |
		python3 -c 'import json, sys; r = json.load(sys.stdin); print(r["calls"], r["calls_equal"])' 2>&1)
set -- ${got:-0 False}
[ "$1" -gt 0 ] && [ "$2" = True ] &&
	pass "lab arm64-graph: as Chrome's JSON on the host, its $1 calls as trace-cmd's exits give them" ||
	fail "lab arm64-graph: as Chrome's JSON on the host" "${got:-} $(head -2 "$dat.err")"

# The syscalls plugin on a real arm64 capture: arm64's numbers (openat is
# 56 there, 257 on x86_64) named from arm64's table, by ftc and by
# trace-cmd with the build's plugins (lib.sh points it there).
sc=$OUT/lab-arm64-syscalls.dat
if expect "lab arm64-graph: the syscall capture comes back" lab_file arm64-graph /tmp/s.dat "$sc"; then
	for tool in ftc trace-cmd; do
		if [ $tool = ftc ]; then rep=$("$FTC" report "$sc" 2>&1)
		else rep=$(trace-cmd report -i "$sc" 2>&1); fi
		expect_match "lab arm64 syscalls: $tool names cat's openat from arm64's table" \
			'sys_enter: +openat\(AT_FDCWD, 0x[0-9a-f]+, O_RDONLY' "$rep"
		expect_match "lab arm64 syscalls: ... and its ENOENT" 'sys_exit: +openat = -2 ENOENT' "$rep"
	done
fi
finish
