#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The 6.1 scenarios again on Debian 12's 6.12 (LAB_KERNEL=6.12), in one
# shared boot: each test script below runs twice, unchanged, first to keep
# its scenario (LAB_BATCH=collect), then, after the one boot that runs them
# all, to check what its part printed (LAB_BATCH=replay), as it checks its
# own boot on 6.1. Results read "6.12: lab NAME: ...". A boot per script
# would cost 23 boots; sharing one keeps the 6.12 pass to what the
# scenarios themselves take.
# Not here: scenarios that crash or reboot the guest on purpose, or need
# boot arguments or a serial line of their own (tests/lab/README.md,
# "Kernels", says where each runs).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

# check-lab first: it checks a kernel whose buffers no one has used yet;
# module before the others that load the module: it loads it under ftc.
PARTS=${LAB_PARTS:-"check-lab module probe funclatency block boot control-function
	extract-trigger function-tracer hist kwork list-functions plugins record-filesystems
	record-function record-graph report-graph sched session-example stream synth syscalls top"}
export LAB_KERNEL=6.12
B=$OUT/kernel-6.12
rm -rf "$B" && mkdir -p "$B/parts" "$B/collect" "$B/replay" || exit 1

# A script that fails before its lab_run (building its program, say) says
# so here; one that skips will skip again when replayed.
for p in $PARTS; do
	LAB_BATCH=collect:$B/parts OUT=$B/collect bash "$TOP/tests/lab/$p.sh" >"$B/collect/$p.log" 2>&1
	grep '^FAIL ' "$B/collect/$p.log" | sed 's/^FAIL /FAIL 6.12: /'
done
[ -s "$B/parts/list" ] || { skip "lab 6.12" "no scenario was kept (see $B/collect)"; finish; }

limit=0
while read -r p; do limit=$((limit + $(cat "$B/parts/$p/timeout"))); done <"$B/parts/list"
lab_batch_scenario "$B/parts" >"$B/scenario"
# The shared boot's own verdict: a panic or a hang is reported here, and
# the parts it cut short each fail in their replay.
LAB_TIMEOUT=$limit lab_run kernel-6.12 "$B/scenario" "$B/parts=/lab/.parts"
[ $? = 2 ] && finish
export LAB_KERNEL=6.12	# lab_run made it the image's path: the scripts want the name
cp "$LAB_CONSOLE" "$B/console"
echo "$LAB_QEMU_RC" >"$B/rc"
echo "$LAB_QEMU_LIMIT" >"$B/limit"

for p in $PARTS; do
	LAB_BATCH=replay:$B OUT=$B/replay bash "$TOP/tests/lab/$p.sh" 2>&1 |
		sed -E 's/^(PASS|FAIL|SKIP) /\1 6.12: /'
	[ "${PIPESTATUS[0]}" = 0 ] || T_FAILED=1
done
finish
