#!/usr/bin/env python3
"""UDP traffic for the tests that follow flows across weft switches: a paced sender of numbered
datagrams over many flows, a flood of cross traffic, and a receiver that records what arrived.

  udp_flows.py send DST DPORT FLOWS PPS SECONDS    numbered datagrams (flow k from source port
                                                   10000 + k), paced per millisecond
  udp_flows.py flood DST DPORT SECONDS SIZE PPS     cross traffic, paced per millisecond
  udp_flows.py recv PORT SINK_PORT IDLE             prints "ready", then records every numbered
                                                   datagram until none came for IDLE seconds;
                                                   SINK_PORT is bound and never read (cross traffic
                                                   dies there without ICMP replies). Prints one
                                                   JSON line: sequence numbers, send and receive
                                                   times (CLOCK_MONOTONIC, shared by every
                                                   namespace of the machine).
"""
import json
import socket
import struct
import sys
import time

HEADER = struct.Struct("!IId")  # flow, sequence number, send time
SIZE = 100


def send(dst, dport, flows, pps, seconds):
    socks = []
    for k in range(flows):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("0.0.0.0", 10000 + k))
        socks.append(s)
    pad = b"\0" * (SIZE - HEADER.size)
    start = time.monotonic()
    seq = 0
    while True:
        now = time.monotonic()
        if now - start >= seconds:
            break
        due = int((now - start) * pps)
        while seq < due:
            k = seq % flows
            try:
                socks[k].sendto(HEADER.pack(k, seq, time.monotonic()) + pad, (dst, dport))
            except OSError:
                pass  # a neighbour not resolved yet, a full queue: the datagram counts as lost
            seq += 1
        time.sleep(0.001)
    print(json.dumps({"sent": seq}), flush=True)


def flood(dst, dport, seconds, size, pps):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    payload = b"x" * size
    start = time.monotonic()
    n = 0
    while True:
        now = time.monotonic()
        if now - start >= seconds:
            break
        due = int((now - start) * pps)
        while n < due:
            try:
                s.sendto(payload, (dst, dport))
            except OSError:
                pass
            n += 1
        time.sleep(0.001)
    print(json.dumps({"sent": n}), flush=True)


def recv(port, sink_port, idle):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    s.bind(("0.0.0.0", port))
    sink = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sink.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sink.bind(("0.0.0.0", sink_port))
    print("ready", flush=True)
    seqs, sent, got = [], [], []
    s.settimeout(idle)
    first = True
    start = time.monotonic()
    while True:
        try:
            data = s.recv(2048)
        except socket.timeout:
            if first and time.monotonic() - start < 60:
                continue  # nothing yet: keep waiting for the first datagram
            break
        first = False
        if len(data) < HEADER.size:
            continue
        _, seq, t = HEADER.unpack_from(data)
        seqs.append(seq)
        sent.append(round(t, 6))
        got.append(round(time.monotonic(), 6))
    print(json.dumps({"seq": seqs, "sent": sent, "recv": got}), flush=True)


if __name__ == "__main__":
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == "send":
        send(args[0], int(args[1]), int(args[2]), float(args[3]), float(args[4]))
    elif mode == "flood":
        flood(args[0], int(args[1]), float(args[2]), int(args[3]), float(args[4]))
    elif mode == "recv":
        recv(int(args[0]), int(args[1]), float(args[2]))
