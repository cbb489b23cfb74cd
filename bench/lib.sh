# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for benchmarks: medians and ratios.

# median: reads numbers, one per line, prints their median.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# ratio A B: prints A/B with two decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "inf"; else printf "%.2f\n", a / b }'; }

# peak_rss_kb COMMAND...: runs it under /usr/bin/time and prints the peak RSS in KB.
peak_rss_kb() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1; }
