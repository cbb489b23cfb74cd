# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 19's rung: events lost at small buffers while the load calls
# getppid flat out on every CPU (enter+exit events), ftc record against
# trace-cmd record at the same buffer size, each into an instance of its
# own, runs alternating. The load counts its calls
# (tests/fixtures/getppid-cpus.c flat out, bench/getppid-gen.c at a fixed
# rate per CPU) and a filter keeps only its events, so the loss is exact:
# 2 x calls - records in the file (records counted by ftc report --stat,
# which reads both tools' files). Target: ftc loses nothing at 64 KB.
# Flat out, how fast the load runs depends on the recorder (real-time
# readers take CPU time from it) and on the host's other work, so a fixed
# rate both recorders' loads reach is measured too. Prints medians of lost
# events and of the event rate, and the host's load (the CPUs are shared;
# the figures are noisy).
#   RUNS=N (5) SECS=N (2) SIZES="64 32" RATES="0 500000" (calls/s per CPU, 0: flat out)
#   FTC_OLD=PATH: also another ftc build (before a change), in the same rotation
set -u
. "$(dirname "$0")/lib.sh"
RUNS=${RUNS:-5}
SECS=${SECS:-2}
SIZES=${SIZES:-"64 32"}
RATES=${RATES:-"0 500000"}
T=/sys/kernel/tracing
NCPU=$(nproc)
F='comm == "ftclostgen"'

command -v trace-cmd >/dev/null || echo "lost bench: trace-cmd is not installed: ftc only"
[ -w $T/instances ] || { echo "lost bench: needs root and tracefs"; exit 0; }
# Both loads under the name the filter takes.
mkdir -p "$OUT/paced"
cc -O2 -o "$OUT/ftclostgen" "$TOP/tests/fixtures/getppid-cpus.c" -lpthread || exit 0
cc -O2 -o "$OUT/paced/ftclostgen" "$TOP/bench/getppid-gen.c" -lpthread || exit 0
echo 1 > "$OUT/fe"; : > "$OUT/null_f"

# rec ftc|old|tc KB RATE: one run; prints "events lost".
rec() {
	local who=$1 kb=$2 file=$OUT/lost-$1.dat inst=ftc-lost-bench-$1-$$ load
	if [ "$3" = 0 ]; then load="$OUT/ftclostgen $SECS $NCPU"
	else load="$OUT/paced/ftclostgen $3 $SECS $NCPU"; fi
	rm -f "$file"
	if [ "$who" != tc ]; then
		"$([ "$who" = ftc ] && echo "$FTC" || echo "$FTC_OLD")" record -q -b "$kb" -B "$inst" -e syscalls:sys_enter_getppid -f "$F" \
			-e syscalls:sys_exit_getppid -f "$F" -o "$file" \
			-- $load >"$OUT/calls" 2>/dev/null
	else
		# As bench/record.sh: trace-cmd insists on writing knobs this kernel
		# refuses (the function tracer's), in the top level and in its
		# instance; a private mount namespace hides them. So the instance is
		# made first (trace-cmd takes an existing one, and removes it). -b
		# after -B: before it, it would size the top-level buffer instead.
		mkdir $T/instances/$inst || { echo "- -"; return; }
		unshare -m sh -c '
			mount --bind '"$OUT"'/fe /proc/sys/kernel/ftrace_enabled
			for d in '"$T $T/instances/$inst"'; do
				for f in set_ftrace_filter set_ftrace_notrace set_ftrace_pid \
					 set_graph_function set_graph_notrace set_ftrace_notrace_pid; do
					[ -e $d/$f ] && mount --bind '"$OUT"'/null_f $d/$f
				done
			done
			exec trace-cmd record -q -B '"$inst"' -b '"$kb"' \
				-e syscalls:sys_enter_getppid -f '"'$F'"' \
				-e syscalls:sys_exit_getppid -f '"'$F'"' -o '"$file"' \
				'"$load"' >'"$OUT"'/calls' >/dev/null 2>&1
		[ -d $T/instances/$inst ] && rmdir $T/instances/$inst 2>/dev/null
	fi
	calls=$(awk '{ s += $NF } END { print s + 0 }' "$OUT/calls")
	recs=$("$FTC" report --stat "$file" 2>/dev/null | awk '/^records:/ { print $2 }')
	[ -n "$recs" ] && [ "$calls" -gt 0 ] || { echo "- -"; return; }
	echo "$((2 * calls)) $((2 * calls - recs))"
}

echo "lost bench: $NCPU CPUs, load flat out for ${SECS}s per run, $RUNS alternating runs; $(uptime | sed 's/.*load/load/')"
for rate in $RATES; do
for kb in $SIZES; do
	: > "$OUT/lost.ftc"; : > "$OUT/lost.tc"; : > "$OUT/lost.old"
	for i in $(seq 1 "$RUNS"); do
		rec ftc "$kb" "$rate" >> "$OUT/lost.ftc"
		[ -n "${FTC_OLD:-}" ] && rec old "$kb" "$rate" >> "$OUT/lost.old"
		command -v trace-cmd >/dev/null && rec tc "$kb" "$rate" >> "$OUT/lost.tc"
	done
	what=$([ "$rate" = 0 ] && echo "flat out" || echo "$rate calls/s/CPU")
	for who in ftc old tc; do
		[ -s "$OUT/lost.$who" ] || continue
		ev=$(awk '$1 != "-" { print $1 / '"$SECS"' }' "$OUT/lost.$who" | median)
		lost=$(awk '$1 != "-" { print $2 }' "$OUT/lost.$who" | median)
		all=$(awk '{ printf "%s%s", s, $2; s = "/" }' "$OUT/lost.$who")
		zero=$(awk '$2 == 0 { n++ } END { print n + 0 }' "$OUT/lost.$who")
		printf '  %-16s -b %-3s %-9s median lost %7s (runs: %s), %d of %d lossless, median %.0f events/s\n' \
			"$what" "$kb" "$(case $who in ftc) echo ftc;; old) echo ftc-old;; *) echo trace-cmd;; esac)" "$lost" "$all" \
			"$zero" "$RUNS" "$ev"
	done
	if [ -s "$OUT/lost.tc" ]; then
		lf=$(awk '{ print $2 }' "$OUT/lost.ftc" | median)
		lt=$(awk '{ print $2 }' "$OUT/lost.tc" | median)
		rf=$(awk '{ print $1 }' "$OUT/lost.ftc" | median)
		rt=$(awk '{ print $1 }' "$OUT/lost.tc" | median)
		echo "  $what -b $kb ftc/trace-cmd: lost $([ "$lf" = 0 ] && [ "$lt" = 0 ] && echo "0 and 0" ||
			ratio "$lf" "$lt"), events/s $(ratio "$rf" "$rt")"
	fi
done
done
echo "lost bench: done; $(uptime | sed 's/.*load/load/')"
rm -f "$OUT"/lost-*.dat
