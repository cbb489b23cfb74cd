# SPDX-License-Identifier: GPL-2.0-or-later
# The analysis passes alone, each over a capture of its own events: ftc
# kwork (the softirqs of UDP datagrams over loopback), ftc block (512-byte
# O_DIRECT writes to a loop device on tmpfs) and ftc funclatency (a uprobe
# pair on a user function), as records/s (median of RUNS runs; the target
# is >= 5 M records/s on one CPU) and peak RSS; then peak RSS over a capture
# of 4 x N operations, which must stay flat: memory follows the keys
# (handlers, devices, functions), not the records. Not a test.
#   N=operations (default 500000) RUNS=N (default 5)
set -u
. "$(dirname "$0")/lib.sh"
RUNS=${RUNS:-5}
N=${N:-500000}

[ -w /sys/kernel/tracing/instances ] || { echo "passes bench: needs root and tracefs"; exit 0; }
printf '%s\n' '#include <arpa/inet.h>' '#include <stdlib.h>' '#include <sys/socket.h>' \
	'int main(int argc, char **argv) { long n = atol(argv[1]); char c = 0;' \
	'struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };' \
	'socklen_t l = sizeof(a); int s = socket(AF_INET, SOCK_DGRAM, 0);' \
	'if (s < 0 || bind(s, (struct sockaddr *)&a, l) || getsockname(s, (struct sockaddr *)&a, &l)) return 1;' \
	'for (long i = 0; i < n; i++) if (sendto(s, &c, 1, 0, (struct sockaddr *)&a, l) != 1 || recv(s, &c, 1, 0) != 1) return 1;' \
	'return 0; }' >"$OUT/udp.c"
printf '%s\n' '#include <stdlib.h>' '__attribute__((noinline)) long work(long i) { return i * 3; }' \
	'int main(int argc, char **argv) { long n = atol(argv[1]), s = 0;' \
	'for (long i = 0; i < n; i++) s += work(i); return s == 1; }' >"$OUT/calls.c"
cc -O2 -o "$OUT/udp" "$OUT/udp.c" && cc -O1 -g -o "$OUT/calls" "$OUT/calls.c" ||
	{ echo "passes bench: cc failed"; exit 0; }

LOOP=""
cleanup() { [ -n "$LOOP" ] && losetup -d "$LOOP"; rm -f /dev/shm/ftc-bench-disk.img; }
trap cleanup EXIT
# capture KIND FILE OPS: records OPS operations of KIND's workload
capture() {
	local rec=("$FTC" record -q -b 16384 -o "$2")
	case $1 in
	kwork) "${rec[@]}" -e irq -- "$OUT/udp" "$3" ;;
	block) "${rec[@]}" -e block -- dd if=/dev/zero of="$LOOP" bs=512 count="$3" oflag=direct ;;
	funclatency) "${rec[@]}" -F --probe "$OUT/calls:work" --probe "$OUT/calls:work%return" \
		-- "$OUT/calls" "$3" ;;
	esac >/dev/null 2>&1
}
if truncate -s 2G /dev/shm/ftc-bench-disk.img && LOOP=$(losetup -f --show /dev/shm/ftc-bench-disk.img); then
	:
else
	echo "passes bench: no loop device (losetup); block is skipped"
fi

echo "the analysis passes over their own captures, N=$N operations, median of $RUNS runs ($(date -u +%F), $(nproc) CPUs)"
printf '%-14s %10s %9s %12s %10s %16s\n' "pass" "records" "seconds" "records/s" "RSS MB" "RSS MB at 4xN"
for kind in kwork block funclatency; do
	[ $kind = block ] && [ -z "$LOOP" ] && continue
	if ! capture $kind "$OUT/pass-$kind.dat" "$N"; then
		echo "$kind: the capture failed"
		continue
	fi
	n=$("$FTC" report --stat "$OUT/pass-$kind.dat" 2>/dev/null | awk '/^records:/ { print $2 }')
	: >"$OUT/pass-$kind.times"
	for r in $(seq "$RUNS"); do
		/usr/bin/time -f '%e %M' "$FTC" $kind "$OUT/pass-$kind.dat" 2>&1 >/dev/null | tail -1 \
			>>"$OUT/pass-$kind.times"
	done
	s=$(awk '{ print $1 }' "$OUT/pass-$kind.times" | median)
	m=$(awk '{ print $2 }' "$OUT/pass-$kind.times" | median)
	m4=""
	if capture $kind "$OUT/pass-$kind-4.dat" $((N * 4)); then
		m4=$(peak_rss_kb "$FTC" $kind "$OUT/pass-$kind-4.dat")
		n4=$("$FTC" report --stat "$OUT/pass-$kind-4.dat" 2>/dev/null | awk '/^records:/ { print $2 }')
		m4="$(awk -v m="$m4" 'BEGIN { printf "%.1f", m / 1024 }') ($n4 rec)"
	fi
	awk -v k=$kind -v n="$n" -v s="$s" -v m="$m" -v m4="$m4" 'BEGIN {
		printf "%-14s %10d %9.2f %11.2fM %10.1f %16s\n", k, n, s, (s > 0 ? n / s / 1e6 : 0), m / 1024, m4 }'
	rm -f "$OUT/pass-$kind-4.dat"
done
