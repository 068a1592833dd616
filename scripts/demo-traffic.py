#!/usr/bin/env python3
"""Writes the demo's input pcap: 64 small UDP flows to 10.1/16 (the ARS group) interleaved with
1400-byte cross traffic to 10.2/16 (which only loads port 1 once the demo routes it).
Plain python3 (struct), no scapy; the frame and pcap builders are the integration tests' own.
Usage: demo-traffic.py OUT.pcap"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "integration"))
from weft_frames import udp4, write_pcap  # noqa: E402


def main(path):
    frames = []
    for k in range(64):
        frames.append(udp4("10.0.0.1", "10.1.%d.%d" % (k // 16, 1 + k % 16), 1000 + k, 4000 + k, 100))
        for j in range(3):
            frames.append(udp4("10.0.0.2", "10.2.0.%d" % (1 + (k + j) % 8), 2000, 3000, 1400))
    write_pcap(path, frames)


if __name__ == "__main__":
    main(sys.argv[1])
