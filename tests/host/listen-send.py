#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Speaks to `ftc listen` on 127.0.0.1 for tests/host/listen.sh: hostile
streams, a second connection, a proxy that cuts a capture, a FIFO relay.
   listen-send.py KIND PORT [ARGS]
Prints "closed" when the listener closed the connection within 5 s, else
"open". The stream format is libftc/writer/stream.h."""
import select
import socket
import struct
import sys
import time

HELLO = b"ftcstrm1" + struct.pack("<II", 1, 0)


def head(kind, length, arg):
    return struct.pack("<IIQ", kind, length, arg)


def conn(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    return s


def closed_by_peer(s, secs=5.0):
    end = time.time() + secs
    while time.time() < end:
        r, _, _ = select.select([s], [], [], 0.2)
        if r:
            try:
                if not s.recv(4096):
                    return True
            except OSError:
                return True
    return False


def send_and_check(port, data, shut=False):
    s = conn(port)
    try:
        s.sendall(data)
    except OSError:
        print("closed")
        return
    if shut:
        s.shutdown(socket.SHUT_WR)
    print("closed" if closed_by_peer(s) else "open")
    s.close()


STREAMS = {
    "garbage": b"GET / HTTP/1.0\r\n\r\n" + bytes(range(256)) * 8,
    "truncated": HELLO + head(1, 4096, 0)[:7],
    "huge-len": HELLO + head(1, 0xFFFFFFFF, 0) + b"x" * 64,
    "huge-off": HELLO + head(1, 16, 1 << 62) + b"y" * 16,
    "huge-move": HELLO + head(1, 16, 0) + b"z" * 16 + head(3, 16, 1 << 40)
    + struct.pack("<QQ", 0, 1 << 40),
    "bad-type": HELLO + head(99, 0, 0),
    "bad-version": b"ftcstrm1" + struct.pack("<II", 7, 0),
    "after-end": HELLO + head(4, 0, 0) + b"more",
}


def second(port):
    """A valid capture in progress, then a second connection: the second is
    closed at once, the first still completes."""
    a = conn(port)
    a.sendall(HELLO + head(1, 5, 0) + b"hello")
    time.sleep(0.3)
    b = conn(port)
    print("second " + ("closed" if closed_by_peer(b, 3) else "open"))
    b.close()
    a.sendall(head(4, 0, 0))
    a.shutdown(socket.SHUT_WR)
    print("first " + ("closed" if closed_by_peer(a) else "open"))
    a.close()


def proxy(port, cut_secs):
    """Forwards one connection to the listener, then cuts both sides."""
    ls = socket.socket()
    ls.bind(("127.0.0.1", 0))
    ls.listen(1)
    print(ls.getsockname()[1], flush=True)
    c, _ = ls.accept()
    t = conn(port)
    end = time.time() + cut_secs
    while time.time() < end:
        r, _, _ = select.select([c], [], [], 0.1)
        if r:
            data = c.recv(65536)
            if not data:
                break
            t.sendall(data)
    for s in (c, t):
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()


def relay(port, fifo):
    t = conn(port)
    with open(fifo, "rb") as f:
        while True:
            data = f.read(65536)
            if not data:
                break
            t.sendall(data)
    t.shutdown(socket.SHUT_WR)
    closed_by_peer(t, 10)
    t.close()


def main():
    kind, port = sys.argv[1], int(sys.argv[2])
    if kind in STREAMS:
        send_and_check(port, STREAMS[kind], shut=(kind == "truncated"))
    elif kind == "second":
        second(port)
    elif kind == "proxy":
        proxy(port, float(sys.argv[3]))
    elif kind == "file":
        # a fuzz regression input: its first byte is the target's piece size
        with open(sys.argv[3], "rb") as f:
            send_and_check(port, f.read()[1:], shut=True)
    elif kind == "relay":
        relay(port, sys.argv[3])
    else:
        sys.exit("unknown kind " + kind)


main()
