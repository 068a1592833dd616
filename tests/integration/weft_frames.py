"""Frames and pcap files for the integration tests that drive weft with net_pcap."""
import socket
import struct

SWITCH_IN_MAC = bytes.fromhex("0200000000bb")
HOST_MAC = bytes.fromhex("0200000000aa")


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s) & 0xFFFF


def udp4(src, dst, sport, dport, size):
    """An Ethernet/IPv4/UDP frame of `size` bytes (no FCS) from the host to the switch."""
    payload = b"\x5a" * max(0, size - 14 - 20 - 8)
    l4 = struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(l4), 1, 0, 64, 17, 0, socket.inet_aton(src),
                     socket.inet_aton(dst))
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    return SWITCH_IN_MAC + HOST_MAC + b"\x08\x00" + ip + l4


def write_pcap(path, frames):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(frames):
            f.write(struct.pack("<IIII", 1, i, len(fr), len(fr)) + fr)
