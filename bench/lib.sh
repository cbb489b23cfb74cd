# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for benchmarks: paths, medians, ratios, a syscall workload.
TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
FTC=${FTC:-$TOP/ftc}
OUT=${OUT:-$TOP/tests/out/bench}
mkdir -p "$OUT"

# median: reads numbers, one per line, prints their median.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# ratio A B: prints A/B with two decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "inf"; else printf "%.2f\n", a / b }'; }

# peak_rss_kb COMMAND...: runs it under /usr/bin/time and prints the peak RSS in KB.
peak_rss_kb() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1; }

# build_getppid_loop DEST: a program that makes N getppid syscalls (argv[1]),
# the cheapest syscall with a tracepoint pair, for a known event count.
build_getppid_loop() {
	printf '%s\n' '#include <stdlib.h>' '#include <sys/syscall.h>' '#include <unistd.h>' \
		'int main(int argc, char **argv)' \
		'{ long n = atol(argv[1]); for (long i = 0; i < n; i++) syscall(SYS_getppid); return 0; }' \
		>"$1.c" && cc -O2 -o "$1" "$1.c"
}

# build_rate_gen DEST: bench/getppid-gen.c, the rate-paced getppid load of
# the record, stream and top benches (RATE/s per CPU, SECS, NTHREADS [cpu]).
build_rate_gen() { cc -O2 -o "$1" "$TOP/bench/getppid-gen.c" -lpthread; }
