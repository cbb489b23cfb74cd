# SPDX-License-Identifier: GPL-2.0-or-later
# The real-time latency tracers on a board: rtla.sh, unchanged, on Debian's
# arm64 6.12 PREEMPT_RT kernel (qemu-system-aarch64 -M virt -cpu max,
# ftc-static-arm64), its results named "lab arm64 rtla ...": timerlat and
# osnoise recorded with their settings, and ftc rtla's figures against the
# same file's records as trace-cmd prints them on the host. rtla itself is
# not run there: the host's is an x86_64 program.
. "$(dirname "$0")/../lib.sh"

res=$(OUT=$OUT/arm64 LAB_ARCH=arm64 bash "$TOP/tests/lab/rtla.sh" 2>&1 |
	sed -E 's/^(PASS|FAIL|SKIP) lab /\1 lab arm64 /')
printf '%s\n' "$res"
printf '%s\n' "$res" | grep -q '^FAIL ' && T_FAILED=1
finish
