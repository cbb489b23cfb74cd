# SPDX-License-Identifier: GPL-2.0-or-later
# The lab itself: the guest boots Debian's kernel, ftc runs there and sees
# the function tracers the host refuses, and a binary file made in the guest
# comes back byte for byte.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

lab_run boot - <<'EOF' || finish
echo "== version"
ftc --version
echo "version status=$?"
echo "== tracers"
# ftc list -t where it exists, else ftc check, which names the tracers too.
if ftc list -t >/tmp/tracers 2>&1; then
	echo "via list"
else
	ftc check >/tmp/tracers 2>&1
	echo "via check"
fi
cat /tmp/tracers
echo "== available_tracers"
cat /sys/kernel/tracing/available_tracers
echo "== end"
# Every byte value, four times: NUL, CR, LF and 0xff must survive the console.
fmt=$(awk 'BEGIN { for (i = 0; i < 256; i++) printf "\\%03o", i }')
printf "$fmt$fmt$fmt$fmt" >/tmp/bytes.bin
head -c 65536 /bin/ftc >/tmp/ftc-head.bin
lab_export /tmp/bytes.bin && lab_export /tmp/ftc-head.bin
EOF

out=$(lab_section version)
expect_match "lab boot: ftc --version runs in the guest" '^ftc [0-9]+\.[0-9]+' "$out"
expect_match "lab boot: ftc --version exits 0 in the guest" '^version status=0$' "$out"

tracers=$(lab_section tracers)
for t in function function_graph; do
	if printf '%s\n' "$tracers" | grep -qw -- "$t"; then
		pass "lab boot: ftc shows the $t tracer in the guest"
	else
		fail "lab boot: ftc shows the $t tracer in the guest" "not in: $tracers"
	fi
done
if printf '%s\n' "$tracers" | grep -qx 'via list'; then
	# ftc list -t shows whatever the kernel offers (the raw file is the reference).
	missing=""
	for t in $(lab_section available_tracers); do
		printf '%s\n' "$tracers" | grep -qx -- "$t" || missing="$missing $t"
	done
	if [ -n "$(lab_section available_tracers)" ] && [ -z "$missing" ]; then
		pass "lab boot: ftc list -t shows every tracer of available_tracers"
	else
		fail "lab boot: ftc list -t shows every tracer of available_tracers" \
			"missing:${missing:- (no available_tracers read)}"
	fi
else
	expect_match "lab boot: ftc check finds the function tracer usable" '^function +ok' "$tracers"
	expect_match "lab boot: ftc check finds function_graph usable" '^function_graph +ok' "$tracers"
fi

python3 -c 'import sys; sys.stdout.buffer.write(bytes(range(256)) * 4)' \
	>"$OUT/lab-boot.bytes.want"
if lab_file boot /tmp/bytes.bin "$OUT/lab-boot.bytes" 2>"$OUT/last.err" &&
   cmp -s "$OUT/lab-boot.bytes" "$OUT/lab-boot.bytes.want"; then
	pass "lab boot: a file with every byte value comes back byte-exact"
else
	fail "lab boot: a file with every byte value comes back byte-exact" \
		"$(cat "$OUT/last.err") $(cmp "$OUT/lab-boot.bytes" "$OUT/lab-boot.bytes.want" 2>&1)"
fi
head -c 65536 "$FTC_STATIC" >"$OUT/lab-boot.ftc-head.want"
if lab_file boot /tmp/ftc-head.bin "$OUT/lab-boot.ftc-head" 2>"$OUT/last.err" &&
   cmp -s "$OUT/lab-boot.ftc-head" "$OUT/lab-boot.ftc-head.want"; then
	pass "lab boot: 64 KiB of the guest's /bin/ftc come back equal to ftc-static"
else
	fail "lab boot: 64 KiB of the guest's /bin/ftc come back equal to ftc-static" \
		"$(cat "$OUT/last.err") $(cmp "$OUT/lab-boot.ftc-head" "$OUT/lab-boot.ftc-head.want" 2>&1)"
fi
finish
