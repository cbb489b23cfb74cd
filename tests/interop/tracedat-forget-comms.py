#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Makes a copy of a trace.dat v6 (little endian) whose command-lines section
names no task that can exist: every line becomes "4194305 forgotten" (a pid
above the kernel's PID_MAX_LIMIT), padded to the section's own size so that
no offset moves. This is what a capture looks like when the kernel's
saved_cmdlines lost the traced tasks (a busy machine's pid churn evicts
them): a reader can only learn their names from the events it prints.
Walks the v6 head with Python's struct, none of ftc's code.

    tracedat-forget-comms.py IN OUT

Exit 1 with a message on anything unexpected."""
import struct
import sys

NOBODY = b"4194305 "


def die(msg):
    print("tracedat-forget-comms: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    if len(sys.argv) != 3:
        die("usage: tracedat-forget-comms.py IN OUT")
    d = bytearray(open(sys.argv[1], "rb").read())
    pos = 0

    def take(n):
        nonlocal pos
        if pos + n > len(d):
            die("offset %d: the file ends" % pos)
        pos += n
        return d[pos - n:pos]

    def num(size):
        return struct.unpack("<I" if size == 4 else "<Q", take(size))[0]

    def cstr():
        nonlocal pos
        end = d.find(b"\0", pos)
        if end < 0:
            die("offset %d: a string without its NUL" % pos)
        s, pos = d[pos:end], end + 1
        return s

    if take(10) != b"\x17\x08Dtracing":
        die("not a trace.dat")
    if cstr() != b"6":
        die("not a version 6 file")
    if take(2)[0]:
        die("a big-endian file")
    num(4)                                  # page size
    for name in (b"header_page\0", b"header_event\0"):
        if take(len(name)) != name:
            die("offset %d: no %r" % (pos, name))
        take(num(8))
    for _ in range(num(4)):                 # ftrace event formats
        take(num(8))
    for _ in range(num(4)):                 # event systems
        cstr()
        for _ in range(num(4)):
            take(num(8))
    take(num(4))                            # kallsyms
    take(num(4))                            # printk formats
    size = num(8)
    start = pos
    take(size)
    # lines of 10 to 72 bytes: a comm of 1 to 63 characters
    out = b""
    while size - len(out) > 0:
        left = size - len(out)
        n = min(left, 72) if left - min(left, 72) == 0 or left - min(left, 72) >= 10 else 62
        if n < 10:
            die("a command-lines section of %d bytes: too small to rewrite" % size)
        out += NOBODY + b"f" * (n - len(NOBODY) - 1) + b"\n"
    d[start:start + size] = out
    open(sys.argv[2], "wb").write(d)


main()
