# SPDX-License-Identifier: GPL-2.0-or-later
# ftc kwork against the kernel's own counts, in the lab (every CPU traced):
# a program reads /proc/softirqs, works for half a second (sleeps, a busy
# loop, pipe wake-ups: timer, RCU and scheduler softirqs), and reads it
# again, with a trace_marker line before and after each read. Per vector,
# the /proc/softirqs delta lies between ftc kwork's counts over the window
# between the reads (--from the first read's end --to the second's start)
# and over the reads included (from the first's start to the second's end);
# a softirq that ran during a read itself is the only one either may miss.
# Live, ftc kwork -- COMMAND counts the same vectors.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

NAME="lab kwork"
D=$(mktemp -d /tmp/ftc-labkwork.XXXXXX)
trap 'rm -rf "$D"' EXIT
cat >"$D/softwin.c" <<'EOF'
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int marker;

static void mark(const char *what)
{
	if (write(marker, what, strlen(what)) < 0)
		perror("trace_marker");
}

/* "VEC n0 n1..." lines of /proc/softirqs, read in one read() as the kernel makes them */
static void snapshot(const char *name, char *buf, size_t size)
{
	char b[64], e[64];
	int fd = open("/proc/softirqs", O_RDONLY);
	ssize_t n;

	snprintf(b, sizeof(b), "softwin %s begin", name);
	snprintf(e, sizeof(e), "softwin %s end", name);
	mark(b);
	n = fd >= 0 ? read(fd, buf, size - 1) : -1;
	mark(e);
	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	static char a[8192], z[8192];
	struct timespec ms = { 0, 1000000 }, t0, t;
	int p[2];
	char c = 0;

	marker = open("/sys/kernel/tracing/trace_marker", O_WRONLY);
	if (marker < 0 || pipe(p))
		return 1;
	snapshot("r1", a, sizeof(a));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 20; i++)
			nanosleep(&ms, NULL);
		if (write(p[1], &c, 1) != 1 || read(p[0], &c, 1) != 1)
			return 1;
		for (volatile long i = 0; i < 2000000; i++)
			;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + t.tv_nsec - t0.tv_nsec < 500000000L);
	snapshot("r2", z, sizeof(z));
	printf("@r1\n%s@r2\n%s", a, z);
	return 0;
}
EOF
if ! cc -static -O2 -o "$D/softwin" "$D/softwin.c" 2>"$D/cc.err"; then
	skip "$NAME" "cannot build a static program: $(tail -1 "$D/cc.err")"
	finish
fi

LAB_TIMEOUT=120 lab_run kwork - "$D/softwin=/lab/softwin" <<'EOF' || finish
echo "== record"
# one clock for every CPU: the markers are on one CPU, the softirqs on both
ftc record -q -C global -e irq -o /tmp/k.dat -- /lab/softwin >/tmp/snap
echo "record=$?"
cat /tmp/snap
ftc report -t /tmp/k.dat | awk '/ tracing_mark_write: softwin r[12] (begin|end)/ {
	for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) ts = substr($i, 1, length($i) - 1)
	sub(/\./, "", ts); print "at " $(NF - 1) "_" $NF " " ts }'
echo "== end"
lab_export /tmp/k.dat
echo "== live"
ftc kwork -k softirq -- /lab/softwin >/dev/null
echo "live=$?"
EOF

rec=$(lab_section record)
expect_match "$NAME: ftc record of the window exits 0" '^record=0$' "$rec"
at() { sed -n "s/^at $1 //p" <<<"$rec" | head -1; }
r1b=$(at r1_begin) r1e=$(at r1_end) r2b=$(at r2_begin) r2e=$(at r2_end)
if [ -z "$r1b" ] || [ -z "$r1e" ] || [ -z "$r2b" ] || [ -z "$r2e" ]; then
	fail "$NAME: the four markers are in the capture" "$(grep '^at ' <<<"$rec")"
	finish
fi
if ! lab_file kwork /tmp/k.dat "$D/k.dat"; then
	fail "$NAME: the capture came back" "see $OUT/lab-kwork.console"
	finish
fi
secs() { echo "$(( $1 / 1000000000 )).$(printf %09d $(( $1 % 1000000000 )))"; }
# count FROM TO: "VECTOR COUNT" of ftc kwork -k softirq over [FROM, TO] (ns)
count() {
	"$FTC" kwork --json -k softirq --from "$(secs "$1")" --to "$(secs "$2")" "$D/k.dat" 2>/dev/null |
		python3 -c 'import json, sys
for i in json.load(sys.stdin)["items"]:
    print(i["name"], i["count"])'
}
count "$r1e" "$r2b" >"$D/inner"
count "$r1b" "$r2e" >"$D/outer"
# /proc/softirqs: the delta of each vector, all CPUs
awk '/^@r1/ { s = 1; next } /^@r2/ { s = 2; next } s && $1 ~ /:$/ {
	v = substr($1, 1, length($1) - 1); n = 0; for (i = 2; i <= NF; i++) n += $i
	if (s == 1) a[v] = n; else z[v] = n } END { for (v in z) print v, z[v] - a[v] }' <<<"$rec" >"$D/delta"
verdict=$(python3 - "$D/inner" "$D/outer" "$D/delta" <<'PY'
import sys
def rows(p):
    return {l.split()[0]: int(l.split()[1]) for l in open(p) if l.strip()}
inner, outer, delta = (rows(p) for p in sys.argv[1:4])
bad, exact, total = [], 0, 0
for v, d in sorted(delta.items()):
    lo, hi = inner.get(v, 0), outer.get(v, 0)
    total += d
    exact += lo == d
    if not lo <= d <= hi:
        bad.append("%s: %d not in [%d, %d]" % (v, d, lo, hi))
print(total, exact, len(delta), "; ".join(bad) or "-")
PY
)
read -r total exact nvec bad <<<"$verdict"
[ "${total:-0}" -ge 50 ] && [ "$bad" = "-" ] &&
	pass "$NAME: every vector's /proc/softirqs delta between kwork's counts of the window ($total softirqs; $exact of $nvec vectors exactly)" ||
	fail "$NAME: every vector's /proc/softirqs delta between kwork's counts of the window" \
		"$total softirqs: $bad; kwork: $(tr '\n' ' ' <"$D/inner") / $(tr '\n' ' ' <"$D/outer"); delta: $(tr '\n' ' ' <"$D/delta")"
live=$(lab_section live)
expect_match "$NAME: live -- COMMAND exits with its status (0)" '^live=0$' "$live"
finish
