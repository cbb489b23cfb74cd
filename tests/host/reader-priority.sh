# SPDX-License-Identifier: GPL-2.0-or-later
# The reader threads of ftc record, stream and top are SCHED_FIFO 1 by
# default (so a busy load cannot delay them until a small buffer
# overflows), at -r PRIO's priority when given, and not real-time with -r 0.
# Read from the kernel's view of the running command's threads (ps -L), one
# reader per traced CPU.
. "$(dirname "$0")/../lib.sh"

I=ftc-prio-$$
D=$(mktemp -d /tmp/ftc-prio.XXXXXX)
trap '[ -d "$TRACEFS/instances/$I" ] && "$FTC" reset -q -B "$I" -d >/dev/null 2>&1; rm -rf "$D"' EXIT
NCPU=$(nproc)

# fifo_threads [CMD [ARGS...]]: "N PRIO" for the SCHED_FIFO threads of a
# capture of 3 s (CMD: record, the default, stream or top)
fifo_threads() {
	local cmd=${1:-record}
	[ $# -gt 0 ] && shift
	case $cmd in
	record) set -- record -q -B "$I" -e sched:sched_switch -o "$D/t.dat" "$@" -- sleep 3 ;;
	stream) set -- stream -q -B "$I" -e sched:sched_switch "$@" -- sleep 3 ;;
	top) set -- top --batch -d 1 --iterations 3 -B "$I" -e sched:sched_switch "$@" ;;
	esac
	"$FTC" "$@" >"$D/rec.out" 2>&1 &
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
expect "record -r 7: readers at priority 7" test "$(fifo_threads record -r 7)" = "$NCPU 7 "
expect "record -r 0: no real-time thread" test "$(fifo_threads record -r 0)" = "0 "
expect_status "record -r 100 is a usage error" 2 "$FTC" record -r 100 -o "$D/x.dat" -- true
for c in stream top; do
	expect "$c: default readers" test "$(fifo_threads $c)" = "$NCPU 1 "
	expect "$c -r 7: readers at priority 7" test "$(fifo_threads $c -r 7)" = "$NCPU 7 "
	expect "$c -r 0: no real-time thread" test "$(fifo_threads $c -r 0)" = "0 "
	expect_status "$c -r 100 is a usage error" 2 "$FTC" $c -r 100
done
finish
