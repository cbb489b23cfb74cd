# SPDX-License-Identifier: GPL-2.0-or-later
# A user records with ftc and reads the file with trace-cmd 3.1: every
# format ftc writes (v7 zstd/zlib/none, v6; record, extract, -m, -F, -c)
# must show the workload's events, all of them, in the order written.
# The workload writes N unique, numbered payloads into a private
# instance's trace_marker, so the expected events are known exactly.
. "$(dirname "$0")/../lib.sh"

N=2000
D=$(mktemp -d /tmp/ftc-rec-interop.XXXXXX)
trap 'rm -rf "$D"' EXIT
knobs_save

if ! command -v trace-cmd >/dev/null; then
	skip "record interop" "trace-cmd is not installed"
	finish
fi

# marks INSTANCE N TAG: a shell that writes "TAG-1" .. "TAG-N" into the marker.
marks_cmd() {
	echo "i=1; while [ \$i -le $2 ]; do echo $3-\$i > $TRACEFS/instances/$1/trace_marker; i=\$((i+1)); done"
}

# check_marks NAME FILE N TAG [FIRST]: the report holds TAG-FIRST..TAG-N, in order.
check_marks() {
	name=$1 file=$2 n=$3 tag=$4 first=${5:-1}
	got=$(trace-cmd report "$file" 2>/dev/null | grep -o "tracing_mark_write: $tag-[0-9]*" | sed 's/.*-//')
	want=$(seq "$first" "$n")
	if [ "$got" = "$want" ]; then
		pass "$name: trace-cmd report shows marks $first..$n in order"
	else
		fail "$name: trace-cmd report shows marks $first..$n in order" \
			"got $(echo "$got" | wc -l) marks, first $(echo "$got" | head -1), last $(echo "$got" | tail -1)"
	fi
}

# run_record NAME FILE [OPTIONS]: $PIN (e.g. "taskset -c 0") runs the workload on one CPU.
run_record() {
	name=$1 file=$2; shift 2
	inst=$(test_instance rec$RANDOM)
	if "$FTC" record -B "$inst" -e sched:sched_process_exec -o "$file" "$@" \
		-- ${PIN:-} sh -c "$(marks_cmd "$inst" $N "$name")" 2>"$D/err"; then
		pass "$name: ftc record exits 0"
	else
		fail "$name: ftc record exits 0" "$(tail -3 "$D/err")"
	fi
	expect_match "$name: summary counts the events" "^ftc record: [0-9]+ events, 0 lost" "$(cat "$D/err")"
}

for fmt in "v7-zstd" "v7-none" "v6"; do
	case $fmt in
	v7-zstd) opts="" ;;
	v7-none) opts="--compression none" ;;
	v6) opts="--file-version 6" ;;
	esac
	run_record "$fmt" "$D/$fmt.dat" $opts
	check_marks "$fmt" "$D/$fmt.dat" $N "$fmt"
	rep=$(trace-cmd report "$D/$fmt.dat" 2>&1)
	expect_match "$fmt: the exec of the command is recorded" "sched_process_exec: +filename=/(usr/)?bin/sh" "$rep"
	expect_nomatch "$fmt: trace-cmd reports no error" "(error|warning|truncated|Unknown)" "$(trace-cmd report "$D/$fmt.dat" 2>&1 >/dev/null)"
	said=$(sed -n 's/^ftc record: \([0-9]*\) events.*/\1/p' "$D/err")
	read=$(trace-cmd report "$D/$fmt.dat" 2>/dev/null | grep -c '^ *[^ ].*\[[0-9]*\] .*: ')
	[ "$said" = "$read" ] && pass "$fmt: the summary's event count is what trace-cmd reads ($read)" ||
		fail "$fmt: the summary's event count is what trace-cmd reads" "summary $said, trace-cmd $read"
	expect_match "$fmt: per-CPU stats are stored (CPUSTAT)" "^read events: [0-9]+" "$(trace-cmd report --stat "$D/$fmt.dat" 2>/dev/null)"
	# The stats belong to the instance: ftc report's header counts what was read.
	hdr=$("$FTC" report "$D/$fmt.dat" 2>/dev/null | grep '^# entries-in-buffer')
	expect_match "$fmt: the header counts the $read events read" "entries-written: $read/$read " "$hdr"
done

# Compressed files are much smaller than the uncompressed ones.
zs=$(stat -c %s "$D/v7-zstd.dat"); ns=$(stat -c %s "$D/v7-none.dat")
[ "$zs" -lt $((ns / 3)) ] && pass "zstd file is compressed ($zs vs $ns bytes)" || fail "zstd file is compressed" "$zs vs $ns bytes"

# zlib: Debian's trace-cmd 3.1.6 is built with zstd only.
run_record "v7-zlib" "$D/zlib.dat" --compression zlib
if trace-cmd list -c 2>/dev/null | grep -qw zlib; then
	check_marks "v7-zlib" "$D/zlib.dat" $N "v7-zlib"
else
	skip "v7-zlib: trace-cmd report" "this trace-cmd supports no zlib ('trace-cmd list -c' lists only $(trace-cmd list -c 2>/dev/null | tail -1 | tr -d '\t'))"
	got=$("$FTC" report "$D/zlib.dat" 2>/dev/null | grep -o "tracing_mark_write: v7-zlib-[0-9]*" | sed 's/.*-//')
	[ "$got" = "$(seq 1 $N)" ] && pass "v7-zlib: ftc report (independent reader) shows marks 1..$N in order" ||
		fail "v7-zlib: ftc report shows marks 1..$N in order" "got $(echo "$got" | wc -l) marks"
fi
expect_match "v7-zlib: the file says zlib" "zlib" "$(head -c 64 "$D/zlib.dat" | tr -c 'a-z0-9' ' ')"

# -m KB keeps the newest events only, still in order.
# -m is per CPU: keep the workload on one CPU so "the newest" is one run of marks.
if command -v taskset >/dev/null; then PIN="taskset -c 0"; else PIN=""; fi
run_record "max" "$D/max.dat" -m 32 --compression none
PIN=
got=$(trace-cmd report "$D/max.dat" 2>/dev/null | grep -o "tracing_mark_write: max-[0-9]*" | sed 's/.*-//')
last=$(echo "$got" | tail -1); firstm=$(echo "$got" | head -1)
[ "$last" = "$N" ] && pass "-m keeps the newest mark" || fail "-m keeps the newest mark" "last is '$last'"
[ -n "$firstm" ] && [ "$firstm" -gt 1 ] && pass "-m drops the oldest marks (first kept: $firstm)" ||
	fail "-m drops the oldest marks" "first is '$firstm'"
[ "$got" = "$(seq "$firstm" "$N")" ] && pass "-m: the kept marks are contiguous and in order" ||
	fail "-m: the kept marks are contiguous and in order" "$(echo "$got" | wc -l) marks"

# -F traces only the command; -c its children too.
inst=$(test_instance recc)
"$FTC" record -q -B "$inst" -c -e sched:sched_process_exec -o "$D/c.dat" -- sh -c 'sh -c true; ls / >/dev/null' 2>"$D/err"
rep=$(trace-cmd report "$D/c.dat" 2>/dev/null)
expect_match "-c: the command's children are traced (ls)" "filename=/(usr/)?bin/ls" "$rep"
inst=$(test_instance recF2)
"$FTC" record -q -B "$inst" -F -e sched:sched_process_exec -o "$D/F2.dat" -- sh -c 'ls / >/dev/null; true' 2>"$D/err"
rep=$(trace-cmd report "$D/F2.dat" 2>/dev/null)
expect_match "-F: the command's own exec is traced" "filename=/(usr/)?bin/sh" "$rep"
expect_nomatch "-F: its children are not traced" "filename=/(usr/)?bin/ls" "$rep"

# extract: what the buffer holds now, after the fact.
inst=$(test_instance ext)
mkdir "$TRACEFS/instances/$inst"
sh -c "$(marks_cmd "$inst" $N ext)"
expect_status "extract exits 0" 0 "$FTC" extract -q -B "$inst" -o "$D/ext.dat"
check_marks "extract" "$D/ext.dat" $N ext
sh -c "$(marks_cmd "$inst" $N ext6)"
expect_status "extract v6 exits 0" 0 "$FTC" extract -q -B "$inst" --file-version 6 -o "$D/ext6.dat"
check_marks "extract v6" "$D/ext6.dat" $N ext6
expect_status "extract again finds an empty buffer" 0 "$FTC" extract -q -B "$inst" -o "$D/ext-empty.dat"
n=$(trace-cmd report "$D/ext-empty.dat" 2>/dev/null | grep -c tracing_mark_write)
[ "$n" = 0 ] && pass "the empty extract holds no event" || fail "the empty extract holds no event" "$n events"
rmdir "$TRACEFS/instances/$inst"
if [ -e "$TRACEFS/snapshot" ]; then
	skip "extract -s refused" "this kernel has a snapshot buffer (the lab tests extract -s)"
else
	expect_status "extract -s without a snapshot buffer exits 3" 3 "$FTC" extract -s -o "$D/snap.dat"
	expect_match "extract -s names the missing snapshot" "snapshot" "$(cat "$OUT/last.err")"
	[ -e "$D/snap.dat" ] && fail "a refused extract leaves no file" "$D/snap.dat exists" ||
		pass "a refused extract leaves no file"
fi

# Several instances (-B a ... -B b ...): one buffer per instance in the
# file, in the order given; trace-cmd reads both and sees in each exactly
# what ftc's reader sees. Each instance gets its own numbered marks.
MA=$(test_instance mia) MB=$(test_instance mib)
for fmt in v7 v6; do
	[ $fmt = v6 ] && opts="--file-version 6" || opts=""
	f=$D/multi-$fmt.dat
	"$FTC" record -B "$MA" -e sched:sched_switch -B "$MB" -e syscalls:sys_enter_getppid $opts \
		-o "$f" -- sh -c "$(marks_cmd "$MA" 300 ma); $(marks_cmd "$MB" 200 mb);
		python3 -c 'import os; [os.getppid() for _ in range(100)]'" 2>"$D/err"
	expect_status "multi-$fmt: trace-cmd reports no error" 0 sh -c "! trace-cmd report '$f' 2>&1 >/dev/null | grep -E 'error|warning|truncated|Unknown'"
	rep=$(trace-cmd report "$f" 2>/dev/null)
	for pair in "$MA:ma:300" "$MB:mb:200"; do
		i=${pair%%:*} rest=${pair#*:}; tag=${rest%%:*} n=${rest#*:}
		got=$(printf '%s\n' "$rep" | grep "^ *$i: " | grep -o "tracing_mark_write: $tag-[0-9]*" | sed 's/.*-//')
		[ "$got" = "$(seq 1 "$n")" ] && pass "multi-$fmt: trace-cmd shows $tag-1..$n under its instance, in order" ||
			fail "multi-$fmt: trace-cmd shows $tag-1..$n under its instance" "got $(echo "$got" | grep -c .) marks"
		tc=$(printf '%s\n' "$rep" | grep -c "^ *$i: ")
		fr=$("$FTC" report "$f" 2>/dev/null | grep -c "^ *$i: ")
		said=$(sed -n "s/^ftc record: instance $i: \([0-9]*\) events.*/\1/p" "$D/err")
		[ "$tc" = "$fr" ] && [ "$tc" = "$said" ] &&
			pass "multi-$fmt: $i: trace-cmd, ftc report and the summary count the same ($tc)" ||
			fail "multi-$fmt: $i: trace-cmd, ftc report and the summary count the same" \
				"trace-cmd $tc, ftc report $fr, summary $said"
	done
	expect_nomatch "multi-$fmt: no getppid under instance a" "^ *$MA: .*sys_enter_getppid" "$rep"
	expect_nomatch "multi-$fmt: no sched_switch under instance b" "^ *$MB: .*sched_switch" "$rep"
	expect_match "multi-$fmt: getppid under instance b" "^ *$MB: .*sys_enter_getppid" "$rep"
done
# v7 keeps each instance's stats: --stat lists the buffers, in order, and
# the events each CPU read add up to what trace-cmd reports for it.
st=$(trace-cmd report --stat "$D/multi-v7.dat" 2>/dev/null)
bufs=$(printf '%s\n' "$st" | sed -n 's/^Buffer: //p' | tr '\n' ' ')
[ "$bufs" = "$MA $MB " ] && pass "multi-v7: trace-cmd --stat lists buffers $MA, $MB in order" ||
	fail "multi-v7: trace-cmd --stat lists both buffers in order" "lists '$bufs'"
for i in "$MA" "$MB"; do
	sum=$(printf '%s\n' "$st" | awk -v b="Buffer: $i" '/^Buffer: /{on = ($0 == b)} on && /^read events:/{s += $3} END{print s+0}')
	tc=$(trace-cmd report "$D/multi-v7.dat" 2>/dev/null | grep -c "^ *$i: ")
	[ "$sum" = "$tc" ] && pass "multi-v7: $i's per-CPU stats add up to its $tc events" ||
		fail "multi-v7: $i's per-CPU stats add up to its events" "stats $sum, reported $tc"
done
# extract -B a -B b: both buffers into one file.
mkdir "$TRACEFS/instances/$MA" "$TRACEFS/instances/$MB"
sh -c "$(marks_cmd "$MA" 100 xa); $(marks_cmd "$MB" 50 xb)"
expect_status "extract -B a -B b exits 0" 0 "$FTC" extract -q -B "$MA" -B "$MB" -o "$D/multi-ext.dat"
rep=$(trace-cmd report "$D/multi-ext.dat" 2>/dev/null)
ga=$(printf '%s\n' "$rep" | grep "^ *$MA: " | grep -o "tracing_mark_write: xa-[0-9]*" | sed 's/.*-//')
gb=$(printf '%s\n' "$rep" | grep "^ *$MB: " | grep -o "tracing_mark_write: xb-[0-9]*" | sed 's/.*-//')
[ "$ga" = "$(seq 1 100)" ] && [ "$gb" = "$(seq 1 50)" ] &&
	pass "extract of two instances: trace-cmd shows each one's marks under it" ||
	fail "extract of two instances: trace-cmd shows each one's marks under it" \
		"$(echo "$ga" | grep -c .) and $(echo "$gb" | grep -c .) marks"
rmdir "$TRACEFS/instances/$MA" "$TRACEFS/instances/$MB"

knobs_unchanged "record interop"
finish
