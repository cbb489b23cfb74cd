#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Parsing as ftc(1)'s COMMAND LINE section promises: --opt=value for every long option
# that takes a value, options after the arguments, '-' for standard input.
. "$(dirname "$0")/../lib.sh"
D=$OUT/cli-parse; rm -rf "$D"; mkdir -p "$D"
I=$(test_instance parse)

# --opt=VALUE reaches the option's own check: an empty one is refused naming the option.
n=0; bad=""
for c in $("$FTC" --list-cmds); do
	while IFS=$'\t' read -r s l arg; do
		[ "$l" = - ] || [ "$arg" = - ] && continue
		n=$((n + 1))
		"$FTC" "$c" "$l=" </dev/null >/dev/null 2>"$D/err"; rc=$?
		grep -q -- "$l ''" "$D/err" && [ $rc = 2 ] || bad="$bad ftc $c $l= (exit $rc: $(head -c 120 "$D/err"));"
	done < <("$FTC" "$c" --list-opts=table)
done
[ -z "$bad" ] && pass "every long option takes --opt=VALUE ($n options)" || fail "every long option takes --opt=VALUE" "$bad"

setup "a capture" "$FTC" record -q -B "$I" -e sched:sched_process_exec -e sched:sched_process_exit \
	-o "$D/t.dat" -- sh -c 'true; /bin/true'
"$FTC" report --stat "$D/t.dat" >"$D/before" 2>&1
"$FTC" report "$D/t.dat" --stat >"$D/after" 2>&1
[ -s "$D/before" ] && cmp -s "$D/before" "$D/after" && pass "report FILE --stat is report --stat FILE" ||
	fail "report FILE --stat is report --stat FILE" "$(diff "$D/before" "$D/after" | head -3)"
"$FTC" report "$D/t.dat" >"$D/file.txt"
"$FTC" report - <"$D/t.dat" >"$D/redirect.txt"
cat "$D/t.dat" | "$FTC" report - >"$D/pipe.txt"
cmp -s "$D/file.txt" "$D/redirect.txt" && pass "report - reads a redirected file" ||
	fail "report - reads a redirected file" "$(diff "$D/file.txt" "$D/redirect.txt" | head -3)"
cmp -s "$D/file.txt" "$D/pipe.txt" && pass "report - reads a pipe" ||
	fail "report - reads a pipe" "$(diff "$D/file.txt" "$D/pipe.txt" | head -3)"
cat "$D/t.dat" | "$FTC" dump --sections - >"$D/dump-pipe.txt"
"$FTC" dump "$D/t.dat" --sections >"$D/dump-file.txt"
cmp -s "$D/dump-file.txt" "$D/dump-pipe.txt" && pass "dump - reads a pipe, options after FILE" ||
	fail "dump - reads a pipe, options after FILE" "$(diff "$D/dump-file.txt" "$D/dump-pipe.txt" | head -3)"
head -c 3000 "$D/t.dat" | "$FTC" report - >/dev/null 2>"$D/cut.err"; rc=$?
[ $rc = 1 ] && pass "a cut file on standard input exits 1" || fail "a cut file on standard input exits 1" "exit $rc"
# record keeps its command's options as the command's own
expect_status "record's command keeps its own options" 0 "$FTC" record -q -B "$I" \
	-e sched:sched_process_exit -o "$D/c.dat" -- ls -l -d /
expect_match "ls got -l -d" '^d.* /$' "$(cat "$OUT/last.out")"
finish
