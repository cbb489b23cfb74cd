# SPDX-License-Identifier: GPL-2.0-or-later
# Turns the kernel's asm/unistd_64.h ("#define __NR_read 0") into the C
# initializers of ftc top's syscall name table ("[0] = \"read\","), so the
# names come from the installed headers and are never typed in.
# Usage: awk -f scripts/syscall-names.awk /usr/include/x86_64-linux-gnu/asm/unistd_64.h
$1 == "#define" && $2 ~ /^__NR_[a-z0-9_]+$/ && $3 ~ /^[0-9]+$/ {
	name = substr($2, 6)
	printf "\t[%d] = \"%s\",\n", $3, name
}
