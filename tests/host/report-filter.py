#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# The oracle of tests/host/report-filter.sh: ALL and SEL are `ftc report
# --raw` outputs (unfiltered, filtered); COND a Python expression over a
# record (ev, f: its fields, n(name): a field as a number, comm, pid, cpu).
# Prints: selected, wanted, records, selected but not wanted, wanted but
# not selected.
import re
import sys

LINE = re.compile(r'^\S+:\s+(.*)-(\d+)\s+\[(\d+)\]\s+\S+\s+(\d+\.\d+): (\w+):\s*(.*)$')


def records(path):
    with open(path) as fh:
        for line in fh:
            m = LINE.match(line.rstrip('\n'))
            if m:
                yield m.groups()


def key(r):
    return ' '.join(r[3:])


def main():
    all_path, sel_path, cond = sys.argv[1:4]
    want, total = set(), 0
    for r in records(all_path):
        comm, pid, cpu, _, ev, rest = r
        total += 1
        fields = dict(kv.split('=', 1) for kv in rest.split() if '=' in kv)
        env = {'ev': ev, 'f': fields, 'n': lambda k: int(fields[k], 10),
               'comm': comm.strip(), 'pid': int(pid), 'cpu': int(cpu), 're': re}
        if eval(cond, env):
            want.add(key(r))
    got = set(key(r) for r in records(sel_path))
    print(len(got), len(want), total, len(got - want), len(want - got))


main()
