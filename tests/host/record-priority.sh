# SPDX-License-Identifier: GPL-2.0-or-later
# ftc record's reader threads are SCHED_FIFO 1 by default (so a busy load
# cannot delay them until a small buffer overflows), at -r PRIO's priority
# when given, and not real-time with -r 0. Read from the kernel's view of
# the running recorder's threads (ps -L), one reader per traced CPU.
. "$(dirname "$0")/../lib.sh"

I=ftc-prio-$$
D=$(mktemp -d /tmp/ftc-prio.XXXXXX)
trap '[ -d "$TRACEFS/instances/$I" ] && "$FTC" reset -q -B "$I" -d >/dev/null 2>&1; rm -rf "$D"' EXIT
NCPU=$(nproc)

# fifo_threads ARGS...: "N PRIO" for the recorder's SCHED_FIFO threads
fifo_threads() {
	"$FTC" record -q -B "$I" -e sched:sched_switch -o "$D/t.dat" "$@" -- sleep 3 \
		>"$D/rec.out" 2>&1 &
	local pid=$! rec="" n=0
	# the recorder is the ftc process whose threads read tracefs
	for _ in $(seq 50); do
		rec=$(ps -L -o cls=,rtprio= -p "$pid" 2>/dev/null | awk '$1 == "FF"')
		[ "$(echo "$rec" | grep -c FF)" -ge "$NCPU" ] && break
		sleep 0.1
	done
	wait "$pid"
	n=$(echo "$rec" | grep -c FF)
	echo "$n $(echo "$rec" | awk 'NF { print $2 }' | sort -u | tr '\n' ' ')"
}

expect "record: default readers" test "$(fifo_threads)" = "$NCPU 1 "
expect "record -r 7: readers at priority 7" test "$(fifo_threads -r 7)" = "$NCPU 7 "
expect "record -r 0: no real-time thread" test "$(fifo_threads -r 0)" = "0 "
expect_status "record -r 100 is a usage error" 2 "$FTC" record -r 100 -o "$D/x.dat" -- true
finish
