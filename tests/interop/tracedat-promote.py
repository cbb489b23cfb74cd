#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Makes an instance's pages the top-level buffer's in a trace.dat v6 (little
endian), for trace-cmd 3.1's split, which reads the top-level buffer only,
while the tests may trace in their own instances only. Walks the v6 head as
trace-cmd does (Python's struct, none of ftc's code), finds the top-level
flyrecord and the instance's one that its BUFFER option points at, and
writes a copy whose top-level per-CPU offsets and sizes are the instance's.
The instance stays listed (ftc convert -B top then keeps the top alone).

    tracedat-promote.py IN OUT INSTANCE

Exit 1 with a message on anything unexpected."""
import struct
import sys


def die(msg):
    print("tracedat-promote: " + msg, file=sys.stderr)
    sys.exit(1)


class Cur:
    def __init__(self, data, pos):
        self.d, self.pos = data, pos

    def take(self, n):
        if self.pos + n > len(self.d):
            die("offset %d: the file ends" % self.pos)
        b = self.d[self.pos:self.pos + n]
        self.pos += n
        return b

    def u16(self):
        return struct.unpack("<H", self.take(2))[0]

    def u32(self):
        return struct.unpack("<I", self.take(4))[0]

    def u64(self):
        return struct.unpack("<Q", self.take(8))[0]

    def cstr(self):
        end = self.d.find(b"\0", self.pos)
        if end < 0:
            die("offset %d: a string without its NUL" % self.pos)
        s = self.d[self.pos:end]
        self.pos = end + 1
        return s

    def tag(self, want):
        got = self.take(len(want))
        if got != want:
            die("offset %d: %r where %r belongs" % (self.pos - len(want), got, want))


def main():
    if len(sys.argv) != 4:
        die("usage: tracedat-promote.py IN OUT INSTANCE")
    data = bytearray(open(sys.argv[1], "rb").read())
    want = sys.argv[3].encode()
    c = Cur(data, 0)
    c.tag(b"\x17\x08Dtracing")
    if c.cstr() != b"6":
        die("not a version 6 file")
    endian, _long = c.take(2)
    if endian:
        die("a big-endian file")
    c.u32()                                 # page size
    c.tag(b"header_page\0")
    c.take(c.u64())
    c.tag(b"header_event\0")
    c.take(c.u64())
    for _ in range(c.u32()):                # ftrace event formats
        c.take(c.u64())
    for _ in range(c.u32()):                # event systems
        c.cstr()
        for _ in range(c.u32()):
            c.take(c.u64())
    c.take(c.u32())                         # kallsyms
    c.take(c.u32())                         # printk formats
    c.take(c.u64())                         # saved command lines
    ncpus = c.u32()
    c.tag(b"options  \0")
    inst = None
    while True:
        oid = c.u16()
        if oid == 0:
            break
        payload = c.take(c.u32())
        if oid == 3 and payload[8:].rstrip(b"\0") == want:
            inst = struct.unpack("<Q", payload[:8])[0]
    if inst is None:
        die("no BUFFER option for instance %r" % sys.argv[3])
    c.tag(b"flyrecord\0")
    top = c.pos
    fly = Cur(data, inst)
    fly.tag(b"flyrecord\0")
    pairs = fly.take(16 * ncpus)
    data[top:top + 16 * ncpus] = pairs
    open(sys.argv[2], "wb").write(data)


main()
