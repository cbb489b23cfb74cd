# SPDX-License-Identifier: GPL-2.0-or-later
# ftc record --mmap reads the ring buffers through their memory maps (this
# host's 6.18 maps them): 20000 numbered markers written while the readers
# wake every millisecond, so that they take the sub-buffer being written
# again and again, are all in the file, each once and in order, as trace-cmd
# reads it too; the same run with splice gives the same markers; the summary
# says the CPUs were mapped; tracefs is left as found.
. "$(dirname "$0")/../lib.sh"

command -v trace-cmd >/dev/null || { skip "record --mmap" "trace-cmd is not installed"; finish; }
if ! "$FTC" check mmap-ring-buffer 2>/dev/null | grep -q '^mmap-ring-buffer *ok'; then
	skip "record --mmap" "this kernel maps no ring buffer ($("$FTC" check mmap-ring-buffer 2>&1 | tail -1))"
	finish
fi
D=$OUT/record-mmap.$$
rm -rf "$D"; mkdir -p "$D"
I=$(test_instance mmap)
trap 'instances_remove "$I"; [ "$T_FAILED" = 0 ] && rm -rf "$D"' EXIT
knobs_save
N=20000
cat >"$D/marks.sh" <<EOF
#!/bin/sh
i=1
# a pause every 100: the readers, waking each millisecond, find the
# sub-buffer half written and come back for the rest (the mapped file then
# holds about 40% more pages than splice's; 0 of 20000 out of place)
while [ \$i -le $N ]; do
	echo "ftc-mmap \$i"; [ \$((i % 100)) = 0 ] && sleep 0.002; i=\$((i + 1))
done >$TRACEFS/instances/$I/trace_marker
EOF
chmod +x "$D/marks.sh"

# marks FILE: the markers' numbers as the file holds them, one a line
marks() { "$1" report "$2" 2>/dev/null | sed -n 's/.*ftc-mmap \([0-9]*\)$/\1/p'; }
in_order() { awk -v n=$N '$1 != NR { bad++ } END { print (NR == n && !bad) ? "all" : NR " bad " bad + 0 }'; }

for how in mmap splice; do
	opt=; [ $how = mmap ] && opt=--mmap
	# -b 64: a few sub-buffers, so that the writer wraps the ring past the readers
	if ! "$FTC" record $opt -B "$I" -b 64 -s 1000 -o "$D/$how.dat" -- "$D/marks.sh" \
		>"$D/$how.out" 2>"$D/$how.err"; then
		fail "record --mmap: ftc record ($how)" "$(tail -2 "$D/$how.err")"
		continue
	fi
	lost=$(sed -n 's/^ftc record: [0-9]* events, \([0-9]*\) lost.*/\1/p' "$D/$how.err")
	got=$(marks "$FTC" "$D/$how.dat" | in_order)
	if [ "${lost:-0}" = 0 ]; then
		[ "$got" = all ] && pass "record --mmap: $how: all $N markers, each once, in order" ||
			fail "record --mmap: $how: all $N markers, each once, in order" "$got"
	else
		skip "record --mmap: $how: every marker" "the kernel lost $lost events: no complete sequence to check"
	fi
	tc=$(trace-cmd report "$D/$how.dat" 2>/dev/null | grep -c 'ftc-mmap [0-9]*$')
	ours=$(marks "$FTC" "$D/$how.dat" | wc -l)
	[ "$tc" = "$ours" ] && pass "record --mmap: $how: trace-cmd reads the same $tc markers" ||
		fail "record --mmap: $how: trace-cmd reads the same markers" "trace-cmd $tc, ftc $ours"
done
expect_match "record --mmap: the summary says the buffers were mapped" \
	"read through the ring buffers' memory maps \\($(nproc) CPUs\\)" "$(cat "$D/mmap.err")"
expect_nomatch "record --mmap: without it, nothing is said of maps" "memory maps" "$(cat "$D/splice.err")"
knobs_unchanged "record --mmap"
finish
