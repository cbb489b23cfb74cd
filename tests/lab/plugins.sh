# SPDX-License-Identifier: GPL-2.0-or-later
# ftc's plugins on the lab's kernel (Debian's 6.1, its own event formats):
# ftc-static, which has the syscalls and signal plugins linked in, records
# and reports a shell's failed open and an ignored SIGUSR1 in the guest;
# on the host ftc report and trace-cmd report (TRACEEVENT_PLUGIN_DIR at the
# build's plugins/) print the same decoded lines from the exported file.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

LAB_TIMEOUT=60 lab_run plugins - <<'EOF' || finish
echo "== record"
cd /tmp
ftc record -q -B ftc-plugins-lab -e raw_syscalls -e syscalls:sys_enter_openat \
	-e syscalls:sys_exit_openat -e signal -F -c -o /tmp/p.dat -- \
	sh -c 'trap "" USR1; kill -USR1 $$; cat /nonexistent-ftc-lab 2>/dev/null; true'
echo "record status=$?"
echo "== report"
ftc report /tmp/p.dat >/tmp/p.txt
echo "report status=$?"
grep -E ': (sys_exit: open(at)? = -2 ENOENT|sys_exit_openat: -2 ENOENT|signal_generate: sig=SIGUSR1 .*res=ignored|sys_enter: kill\()' \
	/tmp/p.txt | sed -E 's/^.* [0-9]+\.[0-9]{6}: ([a-z_0-9]+): /\1: /'
echo "== end"
lab_export /tmp/p.dat
EOF

rec=$(lab_section record)
expect_match "lab plugins: ftc-static record exits 0" '^record status=0$' "$rec"
guest=$(lab_section report)
expect_match "lab plugins: ftc-static report exits 0" '^report status=0$' "$guest"
expect_match "lab plugins: guest: the failed open by name with its errno" \
	'^sys_exit: openat? = -2 ENOENT$' "$guest"
expect_match "lab plugins: guest: sys_exit_openat with its errno" '^sys_exit_openat: -2 ENOENT$' "$guest"
expect_match "lab plugins: guest: kill by name with the signal's name" \
	'^sys_enter: kill\([0-9]+, SIGUSR1\)$' "$guest"
expect_match "lab plugins: guest: the ignored signal" \
	'^signal_generate: sig=SIGUSR1 errno=0 code=SI_USER comm=sh pid=[0-9]+ grp=1 res=ignored$' "$guest"

dat=$OUT/lab-plugins.dat
lab_fetch plugins /tmp/p.dat "$dat" "lab plugins: the trace.dat"
ev() { sed -nE 's/^.* [0-9]+\.[0-9]{6}: ([a-z_0-9]+): +/\1: /p'; }
"$FTC" report "$dat" | ev >"$OUT/lab-plugins.ftc"
want=$(printf '%s\n' "$guest" | grep -E '^(sys_|signal_)')
have=$(grep -Fx -f <(printf '%s\n' "$want") "$OUT/lab-plugins.ftc")
[ -n "$want" ] && [ "$want" = "$have" ] &&
	pass "lab plugins: the host's ftc report prints the guest's lines" ||
	fail "lab plugins: the host's ftc report prints the guest's lines" "guest: $want; host: $have"
if command -v trace-cmd >/dev/null; then
	TRACEEVENT_PLUGIN_DIR=$TOP/plugins trace-cmd report "$dat" 2>/dev/null | ev >"$OUT/lab-plugins.tc"
	n=$(wc -l <"$OUT/lab-plugins.tc")
	[ "$n" -gt 10 ] && cmp -s "$OUT/lab-plugins.tc" "$OUT/lab-plugins.ftc" &&
		pass "lab plugins: trace-cmd report prints what ftc report prints ($n events)" ||
		fail "lab plugins: trace-cmd report prints what ftc report prints" \
			"$n events; $(diff "$OUT/lab-plugins.tc" "$OUT/lab-plugins.ftc" | head -4)"
fi
finish
