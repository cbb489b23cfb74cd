# SPDX-License-Identifier: GPL-2.0-or-later
# ftc block against trace-cmd and a known load: dd writes 200 x 64 KB with
# O_DIRECT and fsync into a file here, recorded with the block events in an
# instance of ours. Every request trace-cmd's records pair (issue to
# completion by device and sector) is ftc's, per device, count and total
# latency (to trace-cmd's microseconds); snoop names dd for its requests,
# and its 64 KB writes are at least the 200 it made. Views, options and a
# file without block events get their exit codes.
. "$(dirname "$0")/../lib.sh"

for t in trace-cmd python3 dd; do
	command -v $t >/dev/null || { skip "block" "$t is not installed"; finish; }
done
D=$OUT/block.$$
rm -rf "$D"; mkdir -p "$D"
I=$(test_instance block)
trap 'instances_remove "$I"; [ "$T_FAILED" = 0 ] && rm -rf "$D"' EXIT
knobs_save
if ! "$FTC" record -q -B "$I" -e block -o "$D/b.dat" -- \
	dd if=/dev/zero of="$D/f" bs=64k count=200 oflag=direct conv=fsync >"$D/rec.log" 2>&1; then
	fail "setup: ftc record -e block of dd" "$(tail -2 "$D/rec.log")"
	finish
fi
rm -f "$D/f"
# tc_rows [FROM_US]: "MAJOR:MINOR COUNT TOTAL_US" from trace-cmd's records (of FROM_US on)
tc_rows() { trace-cmd report -N -i "$D/b.dat" 2>/dev/null | python3 -c '
import re, sys, collections
start = int(sys.argv[1]) if len(sys.argv) > 1 else 0
fly, n, t = {}, collections.Counter(), collections.Counter()
for l in sys.stdin:
    m = re.search(r"\s(\d+)\.(\d+): (block_rq_issue|block_rq_complete):\s+(\d+),(\d+) \S+ .*?(\d+) \+ \d+", l)
    if not m:
        continue
    ts = int(m.group(1)) * 10**6 + int(m.group(2).ljust(6, "0")[:6])
    if ts < start:
        continue
    dev, k = m.group(4) + ":" + m.group(5), (m.group(4), m.group(5), m.group(6))
    if m.group(3) == "block_rq_issue":
        fly[k] = ts
    elif k in fly:
        n[dev] += 1
        t[dev] += ts - fly.pop(k)
for d in sorted(n):
    print(d, n[d], t[d])
' "$@"; }
# ftc_rows ARGS...: the same from ftc block --json
ftc_rows() { "$FTC" block --json "$@" 2>"$D/b.err" | python3 -c '
import json, sys
for d in json.load(sys.stdin)["devices"]:
    print(d["dev"], d["requests"], d["lat_ns"] // 1000)
' | sort; }
# same A B: yes when every device's count is the same and its time within 1 us a request
same() { python3 - "$1" "$2" <<'PY'
import sys
a = {l.split()[0]: [int(x) for x in l.split()[1:]] for l in open(sys.argv[1])}
b = {l.split()[0]: [int(x) for x in l.split()[1:]] for l in open(sys.argv[2])}
good = a and a.keys() == b.keys() and all(a[d][0] == b[d][0] and abs(a[d][1] - b[d][1]) <= a[d][0] + 1 for d in a)
print("yes" if good else "no")
PY
}
tc_rows >"$D/tc.rows"
ftc_rows "$D/b.dat" >"$D/ftc.rows"
ok=$(same "$D/tc.rows" "$D/ftc.rows")
[ "$ok" = yes ] && pass "per device, the requests and latency trace-cmd's records give: $(tr '\n' ' ' <"$D/ftc.rows")" ||
	fail "per device, the requests and latency trace-cmd's records give" "trace-cmd: $(tr '\n' ';' <"$D/tc.rows") ftc: $(tr '\n' ';' <"$D/ftc.rows") $(head -2 "$D/b.err")"
"$FTC" block snoop "$D/b.dat" >"$D/snoop" 2>/dev/null
n=$(awk '$2 == "dd" && $5 ~ /W/ && $7 == 65536' "$D/snoop" | wc -l)
[ "$n" -ge 200 ] && pass "snoop: dd's $n writes of 64 KB (it made 200)" ||
	fail "snoop: dd's writes of 64 KB" "$n of 200: $(head -3 "$D/snoop")"
# --from: the requests issued from the middle of the capture on, as trace-cmd's records give them
mid=$(mid_gap "$D/b.dat")
tc_rows "${mid/./}" >"$D/tc-from.rows"
ftc_rows --from "$mid" "$D/b.dat" >"$D/ftc-from.rows"
n_all=$(awk '{ n += $2 } END { print n + 0 }' "$D/ftc.rows")
n_from=$(awk '{ n += $2 } END { print n + 0 }' "$D/ftc-from.rows")
[ "$(same "$D/tc-from.rows" "$D/ftc-from.rows")" = yes ] && [ "$n_from" -lt "$n_all" ] &&
	pass "--from $mid: trace-cmd's requests from then on ($n_from of $n_all)" ||
	fail "--from $mid: trace-cmd's requests from then on" "trace-cmd: $(tr '\n' ';' <"$D/tc-from.rows") ftc: $(tr '\n' ';' <"$D/ftc-from.rows")"
expect_status "--from after --to exits 2" 2 "$FTC" block --from 2 --to 1 "$D/b.dat"
expect_status "a window before the capture exits 3" 3 "$FTC" block --to 1 "$D/b.dat"
expect_match "... saying where the capture's records are" \
	'no block record lies between the start and --to 1\.000000000; the capture.s records run from [0-9]+\.[0-9]{9} on$' \
	"$(cat "$OUT/last.err")"
expect_status "latency -m exits 0" 0 "$FTC" block latency -m "$D/b.dat"
expect_match "... buckets of milliseconds" '^ +0 -> 2ms +[0-9]+  \|' "$(cat "$OUT/last.out")"
expect_status "-m with size exits 2" 2 "$FTC" block size -m "$D/b.dat"

# Live: every CPU's block events while dd runs; its writes are the disk's.
"$FTC" block --json -- dd if=/dev/zero of="$D/f" bs=64k count=200 oflag=direct conv=fsync \
	>"$D/live.json" 2>"$D/live.err"
st=$?
rm -f "$D/f"
n=$(python3 -c 'import json, sys; print(max([d["writes"] for d in json.load(open(sys.argv[1]))["devices"]] or [0]))' \
	"$D/live.json" 2>/dev/null)
[ $st = 0 ] && [ "${n:-0}" -ge 200 ] && pass "live -- dd: exit 0, its disk's $n writes (dd made 200)" ||
	fail "live -- dd: exit 0, its 200 writes" "exit $st, writes '$n': $(tail -2 "$D/live.err")"
expect_status "live: the command's exit status is passed on" 3 "$FTC" block -- sh -c 'exit 3'
expect_status "-a with a file exits 2" 2 "$FTC" block -a "$D/b.dat"
[ -z "$(ls -d "$TRACEFS"/instances/ftc_block_* 2>/dev/null)" ] && pass "live: no instance left" ||
	fail "live: no instance left" "$(ls -d "$TRACEFS"/instances/ftc_block_*)"

# A bio-based device (zram has no requests): 200 bios of 64 KB, each timed
# from block_bio_queue to block_bio_complete, on a zram device of our own.
zram_bios() {
	local z dev
	z=$(cat /sys/class/zram-control/hot_add 2>/dev/null) || return 1
	# devtmpfs makes the node a moment later: dd must not make a file of that name
	for _ in $(seq 50); do [ -b /dev/zram$z ] && break; sleep 0.1; done
	if [ ! -b /dev/zram$z ]; then
		echo "$z" >/sys/class/zram-control/hot_remove
		return 1
	fi
	echo 16M >/sys/block/zram$z/disksize &&
		"$FTC" block --json -- dd if=/dev/zero of=/dev/zram$z bs=64k count=200 oflag=direct \
			>"$D/zram.json" 2>"$D/zram.err"
	dev=$(cat /sys/block/zram$z/dev)
	echo 1 >/sys/block/zram$z/reset
	echo "$z" >/sys/class/zram-control/hot_remove
	echo "$dev"
}
if [ -w /sys/class/zram-control/hot_add ] && zdev=$(zram_bios); then
	got=$(python3 -c '
import json, sys
for d in json.load(open(sys.argv[1]))["devices"]:
    if d["dev"] == sys.argv[2]:
        print(d["bio_based"], d["requests"], d["writes"], d["size_hist"][16])' "$D/zram.json" "$zdev" 2>&1)
	[ "$got" = "True 200 200 200" ] &&
		pass "a bio-based device ($zdev, zram): 200 bios of 64 KB, each from queued to completed" ||
		fail "a bio-based device ($zdev, zram): 200 bios of 64 KB" "bio_based, bios, writes, 64K: '$got' $(tail -2 "$D/zram.err")"
else
	skip "block: a bio-based device" "no zram device can be added here (or no /dev node for it)"
fi

expect_status "size exits 0" 0 "$FTC" block size "$D/b.dat"
expect_match "... 64K -> 128K holds dd's writes" '^ +64K -> 128K +[0-9]+' "$(cat "$OUT/last.out")"
expect_status "latency --heatmap writes an SVG" 0 "$FTC" block latency --heatmap "$D/h.svg" "$D/b.dat"
grep -q '</svg>' "$D/h.svg" 2>/dev/null && pass "... a whole SVG" || fail "... a whole SVG" "$(tail -c 100 "$D/h.svg" 2>&1)"
"$FTC" record -q -B "$I" -e sched:sched_switch -o "$D/nob.dat" -- true >/dev/null 2>&1
expect_status "a file without block events exits 3" 3 "$FTC" block "$D/nob.dat"
expect_match "... and says what to record" "record -e block" "$(cat "$OUT/last.err")"
"$FTC" record -q -B "$I" -F -e block -o "$D/idle.dat" -- true >/dev/null 2>&1
expect_status "block events enabled and none recorded: exit 0" 0 "$FTC" block "$D/idle.dat"
expect_match "... it says nothing went to the disk" "enabled and no request was issued" "$(cat "$OUT/last.err")"
expect_status "--heatmap with size exits 2" 2 "$FTC" block size --heatmap "$D/x.svg" "$D/b.dat"
expect_status "--json with snoop exits 2" 2 "$FTC" block snoop --json "$D/b.dat"
expect_status "a bad device exits 2" 2 "$FTC" block --dev 254 "$D/b.dat"
expect_status "an unknown view exits 2" 2 "$FTC" block latncy "$D/b.dat"
knobs_unchanged "ftc block"
finish
