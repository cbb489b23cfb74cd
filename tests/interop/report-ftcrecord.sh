# SPDX-License-Identifier: GPL-2.0-or-later
# ftc report on files written by ftc record (v6, v7 none/zstd/zlib): it
# agrees with trace-cmd report where trace-cmd can read the file, and it
# finds exactly the system calls a known workload made (also for zlib, which
# this trace-cmd cannot read).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/report-lib.sh"

"$FTC" record --help >/dev/null 2>&1 || { skip "report-ftcrecord" "this ftc has no record command yet"; finish; }
command -v python3 >/dev/null || { skip "report-ftcrecord" "python3 is not installed"; finish; }
knobs_save
D=$OUT/report-ftcrecord
rm -rf "$D"; mkdir -p "$D"
inst=$(test_instance rec)
work='i=0; while [ $i -lt 300 ]; do echo x; i=$((i+1)); done >/dev/null'

for v in "v6 --file-version 6" "none --compression none" "zstd --compression zstd" "zlib --compression zlib"; do
	set -- $v; name=$1; shift
	if ! timeout 60 "$FTC" record -q -B "$inst" -F -e syscalls:sys_enter_write -e sched:sched_switch \
		"$@" -o "$D/$name.dat" -- sh -c "$work" >"$D/$name.rec.log" 2>&1; then
		fail "report-ftcrecord: ftc record $name" "$(tail -2 "$D/$name.rec.log")"; continue
	fi
	"$FTC" report -t --no-header "$D/$name.dat" >"$D/$name.ftc" 2>"$D/$name.err" ||
		{ fail "report-ftcrecord: ftc report $name" "$(tail -2 "$D/$name.err")"; continue; }
	# The workload's pid is the one with the most 2-byte writes to fd 1 (decoded
	# by plugin_ftc_syscalls, raw without it).
	n=$(grep -E ': sys_enter_write: fd: (0x0+)?1, .*count: (0x0*)?2$' "$D/$name.ftc" |
		sed -E 's/^.*-([0-9]+) +\[.*$/\1/' | sort | uniq -c | sort -rn | awk 'NR == 1 { print $1 }')
	[ "$n" = 300 ] && pass "report-ftcrecord: $name: the 300 writes of the workload" ||
		fail "report-ftcrecord: $name: the 300 writes of the workload" "found $n"
	if [ $name = zlib ] && ! trace-cmd list -c 2>/dev/null | grep -q zlib; then
		skip "report-ftcrecord: zlib against trace-cmd" "this trace-cmd cannot read zlib"
		continue
	fi
	trace-cmd report -t "$D/$name.dat" 2>/dev/null | report_normalize tc >"$D/$name.tc.norm"
	report_normalize ftc <"$D/$name.ftc" >"$D/$name.ftc.norm"
	# ftc record saves the command lines at the start and again at the end;
	# both readers must take the last (comm is compared too).
	trace-cmd dump --cmd-lines "$D/$name.dat" 2>/dev/null | grep -E '^[0-9]+ ' >"$D/$name.cmdlines"
	if [ -s "$D/$name.tc.norm" ] && cmp -s "$D/$name.tc.norm" "$D/$name.ftc.norm"; then
		pass "report-ftcrecord: $name: $(wc -l <"$D/$name.tc.norm") records agree with trace-cmd"
	elif [ -s "$D/$name.tc.norm" ] &&
	     split=$(report_comm_split "$D/$name.tc.norm" "$D/$name.ftc.norm" "$D/$name.cmdlines"); then
		pass "report-ftcrecord: $name: $(wc -l <"$D/$name.tc.norm") records agree with trace-cmd but for the names of ${split#* } tasks with stale saved names (${split% *} lines)"
	else
		fail "report-ftcrecord: $name agrees with trace-cmd" "$(diff "$D/$name.tc.norm" "$D/$name.ftc.norm" | head -8)"
	fi
done
# A v6 file needs no restore, even cut short (the parse fails before the
# version check once did).
if [ -s "$D/v6.dat" ]; then
	head -c $(( $(stat -c %s "$D/v6.dat") * 7 / 10 )) "$D/v6.dat" >"$D/v6-cut.dat"
	expect_status "report-ftcrecord: restore of a cut v6 file fails with 1" 1 "$FTC" restore "$D/v6-cut.dat"
	expect_match "report-ftcrecord: restore of a cut v6 file says v6 needs none" \
		"v6-cut.dat: version 6 file: ftc restore handles version 7 \(an unfinished v6 file is already readable" \
		"$(cat "$OUT/last.err")"
fi
[ -d "$TRACEFS/instances/$inst" ] && rmdir "$TRACEFS/instances/$inst"
knobs_unchanged "report-ftcrecord"
finish
