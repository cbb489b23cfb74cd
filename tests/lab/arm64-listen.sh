#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Off-board capture from the arm64 guest: listen.sh's scenario, unchanged,
# with LAB_ARCH=arm64. x86 ftc listen on the host's loopback receives what
# `ftc record --send /dev/ttyS0` streams from the guest through a PCI 16550
# (qemu's pci-serial backed by a socket character device; the virt board's
# one PL011 is the console). Results are named "lab arm64 listen ...".
. "$(dirname "$0")/../lib.sh"
LAB_ARCH=arm64
. "$(dirname "$0")/lab.bash"

# Without a cross compiler there is no ftc-static-arm64 to put in the guest.
if [ ! -x "$FTC_STATIC" ] && ! command -v aarch64-linux-gnu-gcc >/dev/null; then
	skip "lab arm64 listen" "no $FTC_STATIC and no aarch64-linux-gnu-gcc (scripts/install-deps installs it)"
	finish
fi
res=$(OUT=$OUT/arm64 LAB_ARCH=arm64 LAB_TIMEOUT=${LAB_TIMEOUT:-150} \
	bash "$TOP/tests/lab/listen.sh" 2>&1 | sed -E 's/^(PASS|FAIL|SKIP) lab /\1 lab arm64 /')
printf '%s\n' "$res"
printf '%s\n' "$res" | grep -q '^FAIL ' && T_FAILED=1
finish
