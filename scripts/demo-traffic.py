#!/usr/bin/env python3
"""Writes the demo's input pcap: 64 small UDP flows to 10.1/16 (the ARS group) interleaved with
1400-byte cross traffic to 10.2/16 (which only loads port 1 once the demo routes it).
Plain python3 (struct), no scapy. Usage: demo-traffic.py OUT.pcap"""
import socket
import struct
import sys


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s) & 0xFFFF


def udp4(src, dst, sport, dport, size):
    payload = b"\x5a" * max(0, size - 14 - 20 - 8)
    l4 = struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(l4), 1, 0, 64, 17, 0, socket.inet_aton(src),
                     socket.inet_aton(dst))
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    return bytes.fromhex("0200000000bb0200000000aa0800") + ip + l4


def main(path):
    frames = []
    for k in range(64):
        frames.append(udp4("10.0.0.1", "10.1.%d.%d" % (k // 16, 1 + k % 16), 1000 + k, 4000 + k, 100))
        for j in range(3):
            frames.append(udp4("10.0.0.2", "10.2.0.%d" % (1 + (k + j) % 8), 2000, 3000, 1400))
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(frames):
            f.write(struct.pack("<IIII", 1, i, len(fr), len(fr)) + fr)


if __name__ == "__main__":
    main(sys.argv[1])
