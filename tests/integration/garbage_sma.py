#!/usr/bin/env python3
"""A node whose SMA answers garbage, for the SM's robustness test (weft_iboe_fabric_test.py).

    garbage_sma.py IFNAME SECONDS

On a packet socket on IFNAME it answers directed-route SMPs in weft's IB-over-Ethernet framing
(control/sm/IBOE_SMP.md). NodeInfo is answered well, as a 4-port switch, so that the SM takes it
for one and goes on to ask it more; every other request gets the next of a cycle of bad replies:

  truncated  the frame ends inside the MAD
  version    MAD base version 7
  attribute  the reply names another attribute than the request
  status     status "invalid field"
  tid        the reply carries a TID nobody asked for
  noise      a well-formed reply whose attribute data is random bytes
  twice      a noise reply sent twice (the second one is late: matches nothing)
  silence    no reply at all

After SECONDS it prints a JSON line of what it received and sent by kind, and exits.
"""
import json
import random
import socket
import struct
import sys
import time
import zlib

ETHERTYPE = 0x88B5
SMP_GROUP_MAC = bytes.fromhex("0180c200000e")
HEADER = 14 + 8 + 12 + 8  # Ethernet, LRH, BTH, DETH
NODE_INFO, SWITCH_INFO = 0x0011, 0x0012
KINDS = ["truncated", "version", "attribute", "status", "tid", "noise", "twice", "silence"]


def icrc(packet):
    """weft's ICRC: CRC-32 with the variant fields (LRH VL, BTH resv8a) read as ones."""
    masked = bytes([packet[0] | 0xF0]) + packet[1:12] + b"\xff" + packet[13:]
    return struct.pack("<I", zlib.crc32(masked) & 0xFFFFFFFF)


def frame(request, mad, src_mac):
    """The reply frame: the request's headers, `mad`, a fresh ICRC, to the SMP group address."""
    packet = request[14:HEADER] + mad
    eth = SMP_GROUP_MAC + src_mac + struct.pack("!H", ETHERTYPE)
    return eth + packet + icrc(packet)


def reply_mad(req):
    """The request turned into a well-formed directed-route GetResp from the end of its path."""
    mad = bytearray(req)
    hops = mad[7]
    mad[3] = 0x81  # GetResp
    mad[4] = 0x80  # D: on the way back; status 0
    mad[5] = 0
    mad[6] = hops  # hop pointer (C14-13:1): the reply leaves by the port the request came in
    mad[192 + hops] = 1
    return mad


def node_info(guid):
    d = bytearray(64)
    d[0], d[1], d[2], d[3] = 1, 1, 2, 4  # base version, class version, switch, 4 ports
    d[4:12] = struct.pack("!Q", guid)
    d[12:20] = struct.pack("!Q", guid)
    d[20:28] = struct.pack("!Q", guid)
    d[28:30] = struct.pack("!H", 64)  # partition cap
    d[36] = 1  # local port: the one the request came in on
    d[37:40] = bytes.fromhex("0002c9")  # vendor id
    return bytes(d)


def main():
    ifname, seconds = sys.argv[1], float(sys.argv[2])
    rng = random.Random(29)
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETHERTYPE))
    s.bind((ifname, 0))
    s.settimeout(0.05)
    with open("/sys/class/net/%s/address" % ifname) as f:
        mac = bytes.fromhex(f.read().strip().replace(":", ""))
    received, sent, turn = {}, {k: 0 for k in KINDS + ["node_info"]}, 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            f = s.recv(4096)
        except socket.timeout:
            continue
        if len(f) < HEADER + 256 or f[12:14] != struct.pack("!H", ETHERTYPE):
            continue
        req = f[HEADER:HEADER + 256]
        if req[1] != 0x81 or req[3] not in (0x01, 0x02) or req[4] & 0x80:
            continue  # not a directed-route Get/Set on its way out
        attr = struct.unpack("!H", req[16:18])[0]
        received["0x%04x" % attr] = received.get("0x%04x" % attr, 0) + 1
        mad = reply_mad(req)
        if attr == NODE_INFO:
            mad[64:128] = node_info(0x0002C90000DEAD00)
            s.send(frame(f, bytes(mad), mac))
            sent["node_info"] += 1
            continue
        kind = KINDS[turn % len(KINDS)]
        turn += 1
        sent[kind] += 1
        if kind == "silence":
            continue
        if kind == "truncated":
            s.send(frame(f, bytes(mad), mac)[:HEADER + 100])
            continue
        if kind == "version":
            mad[0] = 7
        elif kind == "attribute":
            mad[16:18] = struct.pack("!H", SWITCH_INFO if attr != SWITCH_INFO else NODE_INFO)
        elif kind == "status":
            mad[5] = 0x1C  # invalid field
        elif kind == "tid":
            mad[8:16] = struct.pack("!Q", struct.unpack("!Q", mad[8:16])[0] ^ 0x5A5A0000)
        else:  # noise, twice
            mad[64:128] = bytes(rng.getrandbits(8) for _ in range(64))
        s.send(frame(f, bytes(mad), mac))
        if kind == "twice":
            time.sleep(0.01)
            s.send(frame(f, bytes(mad), mac))
    print(json.dumps({"received": received, "sent": sent}), flush=True)


if __name__ == "__main__":
    main()
