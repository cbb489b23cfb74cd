# SPDX-License-Identifier: GPL-2.0-or-later
# ftc syscalls live on a kernel that takes event probes (the host refuses
# them): each path-taking call's entry gets an event probe that reads the
# path at its address (ustring), so a static program (the guest's busybox
# cat, which no C library wrapper serves) has its paths printed: every
# open of the run is read, none is left as an address, and the probes are
# gone afterwards.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

LAB_TIMEOUT=100 lab_run syscalls - <<'EOF2' || finish
T=/sys/kernel/tracing
echo x >"/tmp/a file"
echo "== live"
ftc syscalls -e 'open*,execve' -- cat "/tmp/a file" /nonexistent >/tmp/out 2>/tmp/err
echo "status=$?"
cat /tmp/out
echo "== err"
cat /tmp/err
echo "== after"
echo "dynamic_events=$(cat $T/dynamic_events | tr '\n' ' ')"
echo "== end"
EOF2

live=$(lab_section live)
expect_match "lab syscalls: live exits with cat's status (1: a file is missing)" '^status=1$' "$live"
expect_match "lab syscalls: the path of the file cat read, quoted" \
	'openat\(AT_FDCWD, "/tmp/a file", O_RDONLY[A-Z_|]*\) = 3$' "$live"
expect_match "lab syscalls: the missing file's path, = -2 ENOENT" \
	'openat\(AT_FDCWD, "/nonexistent", O_RDONLY[A-Z_|]*\) = -2 ENOENT$' "$live"
expect_match "lab syscalls: execve's path too" 'execve\("/bin/cat", ' "$live"
addr=$(echo "$live" | grep -cE 'open[a-z0-9]*\([^"]*0x[0-9a-f]{6,}, ' )
expect_match "lab syscalls: no path is left as an address ($addr)" '^0$' "$addr"
expect "lab syscalls: and standard error has no 'not read'" test -z "$(lab_section err | grep 'not read')"
expect_match "lab syscalls: the event probes are removed" '^dynamic_events= *$' "$(lab_section after)"
finish
