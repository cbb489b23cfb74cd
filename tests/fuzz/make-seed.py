#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Shrinks a trace.dat v6 written by trace-cmd into a small fuzzing seed:
kallsyms and printk emptied, command lines cut to a few, event formats cut to the systems
and events given ("sched" keeps a system, "sched:sched_switch" one event of it; ftrace's
formats too), CPU data offsets moved; an instance's data becomes the top buffer's (the last
instance, or the one named: make-seed.py IN OUT KEEP INSTANCE). The result is still a valid
file (trace-cmd reads it).
Every format kept is indexed, and every record formatted three times, in each execution:
a seed with just the formats its records use runs several times faster."""
import re, struct, sys

src, dst = sys.argv[1], sys.argv[2]
keep = set(sys.argv[3].split(",")) if len(sys.argv) > 3 else {"sched"}
want_inst = sys.argv[4].encode() if len(sys.argv) > 4 else None

def kept(system, fmt):
    m = re.search(rb"^name: (\S+)$", fmt, re.M)
    return system in keep or (m is not None and system + ":" + m.group(1).decode() in keep)
d = open(src, "rb").read()
assert d[:10] == b"\x17\x08\x44tracing" and d[10:12] == b"6\0", "want a little-endian v6 file"
p = 12 + 2 + 4
out = bytearray(d[:p])

def take(n):
    global p
    b = d[p:p + n]; p += n; return b

def u(fmt):
    v = struct.unpack("<" + fmt, d[p:p + struct.calcsize(fmt)])[0]
    take(struct.calcsize(fmt)); return v

for tag in (b"header_page\0", b"header_event\0"):
    assert take(len(tag)) == tag
    n = u("Q"); out += tag + struct.pack("<Q", n) + take(n)
n = u("I"); fmts = [take(u("Q")) for _ in range(n)]
fmts = [f for f in fmts if kept("ftrace", f)]
out += struct.pack("<I", len(fmts))
for f in fmts:
    out += struct.pack("<Q", len(f)) + f
nsys = u("I"); systems = []
for _ in range(nsys):
    e = d.index(b"\0", p); name = take(e - p + 1)
    cnt = u("I"); evs = []
    for _ in range(cnt):
        s = u("Q"); evs.append(take(s))
    evs = [e for e in evs if kept(name[:-1].decode(), e)]
    if evs:
        systems.append((name, evs))
out += struct.pack("<I", len(systems))
for name, evs in systems:
    out += name + struct.pack("<I", len(evs))
    for e in evs:
        out += struct.pack("<Q", len(e)) + e
n = u("I"); take(n); out += struct.pack("<I", 0)      # kallsyms
n = u("I"); take(n); out += struct.pack("<I", 0)      # printk
# cmdlines: a few lines are enough for the comm lookups, and each
# execution registers every line.
n = u("Q"); cmd = b"\n".join(take(n).split(b"\n")[:24]) + b"\n"
out += struct.pack("<Q", len(cmd)) + cmd
ncpu = u("I"); out += struct.pack("<I", ncpu)
assert take(10) == b"options  \0"; out += b"options  \0"
inst = None
while True:
    oid = u("H")
    if oid == 0:
        out += struct.pack("<H", 0)
        break
    s = u("I"); body = take(s)
    if oid == 3:             # an instance: its data becomes the top buffer's
        if want_inst is None or body[8:].split(b"\0")[0] == want_inst:
            inst = struct.unpack("<Q", body[:8])[0]
        continue
    if oid == 8 and inst is not None:
        continue
    out += struct.pack("<HI", oid, s) + body
assert want_inst is None or inst is not None, "no instance named %s" % want_inst.decode()
tag = take(10); assert tag == b"flyrecord\0"
out += tag
cpus = [(u("Q"), u("Q")) for _ in range(ncpu)]
clen = u("Q"); clock = take(clen)
if inst is not None:
    p = inst
    assert take(10) == b"flyrecord\0"
    cpus = [(u("Q"), u("Q")) for _ in range(ncpu)]
hdr_len = len(out) + 16 * ncpu + 8 + clen
page = 4096
off = (hdr_len + page - 1) // page * page
newcpus, data = [], bytearray()
for o, s in cpus:
    newcpus.append((off + len(data) if s else 0, s)); data += d[o:o + s]
for o, s in newcpus:
    out += struct.pack("<QQ", o, s)
out += struct.pack("<Q", clen) + clock
out += b"\0" * (off - len(out)) + data
open(dst, "wb").write(out)
