#!/usr/bin/env python3
"""IPv4 header checksums verified by the NIC: the real weft on two net_tap ports.

net_tap offers the IPv4 checksum RX offload (the PMD checks each frame and sets
RTE_MBUF_F_RX_IP_CKSUM_GOOD or _BAD, as a NIC does), so weft turns it on and takes the port's
verdict instead of summing the header itself. The test writes frames into the first tap's kernel
interface with a packet socket (weft receives them on port 0) and reads what weft sends out of
port 1 on the second tap's interface. Both interfaces are the test's own (named with its pid),
carry no addresses and have IPv6 off, so nothing but the test's frames crosses them.

Two runs, the same frames (good UDP flows, frames with a wrong header checksum among them):
- default: `show port info 0 json` says the NIC verifies (`ipv4_checksum` "nic", the offload bit
  active); the bad frames are counted as `ipv4_nic_bad_checksum`, none as `ipv4_bad_checksum`;
- `--no-rx-csum-offload`: "software", the offload off, the same frames counted as
  `ipv4_bad_checksum`.
Every good frame leaves port 1 once, with TTL 63, the neighbour's MAC and a correct checksum.

Exit 77 (skip) when not root or without /dev/net/tun.
"""
import os
import shutil
import struct
import sys
import tempfile
import time

from weft_frames import csum, udp4
from weft_session import LiveWeft, eal_prefix
from weft_tap import json_line, received, tap_sockets

WEFT = sys.argv[1]
PID = os.getpid()
TAG = "%05d" % (PID % 100000)
IF_IN, IF_OUT = "wtci" + TAG, "wtco" + TAG
NEIGH_MAC = bytes.fromhex("020000000202")
GOOD, BAD = 48, 7
RX_OFFLOAD_IPV4_CKSUM = 1 << 1  # RTE_ETH_RX_OFFLOAD_IPV4_CKSUM
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def frames():
    """(frame, good) pairs: GOOD UDP flows to 10.20.9.9, BAD of them with the checksum broken."""
    out = []
    for i in range(GOOD + BAD):
        f = bytearray(udp4("10.20.1.%d" % (2 + i % 50), "10.20.9.9", 20000 + i, 9999, 64))
        good = i % 8 != 3 or i // 8 >= BAD
        if not good:
            f[14 + 10] ^= 0x5A  # the header checksum, wrong now
        out.append((bytes(f), good))
    assert sum(1 for _, g in out if not g) == BAD
    return out


def udp_to_9999(data):
    """An IPv4/UDP frame to port 9999 (the test's)."""
    return len(data) >= 42 and data[12:14] == b"\x08\x00" and data[23] == 17 and data[36:38] == struct.pack("!H", 9999)


def run(offload):
    tmp = tempfile.mkdtemp(prefix="weft-tapck-")
    cmds = os.path.join(tmp, "cmds")
    with open(cmds, "w") as f:
        f.write("neigh add 10.20.2.2 02:00:00:00:02:02 port 1\nnhg add 1 ports 1\nroute add 10.20.9.0/24 nhg 1\n")
    args = [WEFT, "-l", "0-1", "--no-huge", "--no-pci", "-m", "256", "--file-prefix=" + eal_prefix("tapck_%d" % offload),
            "--vdev=net_tap0,iface=" + IF_IN, "--vdev=net_tap1,iface=" + IF_OUT, "--",
            "-i", "--nb-cores", "1", "--cmdline-file", cmds]
    if not offload:
        args.append("--no-rx-csum-offload")
    w = LiveWeft()
    w.start(args)
    try:
        sockets = tap_sockets(w, IF_IN, IF_OUT)
        if sockets is None:
            check(False, "weft starts on two net_tap ports")
            return
        tx, rx = sockets
        sent = frames()
        for f, _ in sent:
            tx.send(f)
        got = received(rx, 2.0, udp_to_9999)
        tx.close()
        rx.close()
        w.proc.stdin.write("show port info 0 json\nshow drops json\nquit\n")
        w.proc.stdin.flush()
    finally:
        rc, out = w.finish(30)
        shutil.rmtree(tmp, ignore_errors=True)
    mode = "offload" if offload else "software"
    check(rc == 0, "%s: weft exits 0 (%s)" % (mode, rc))
    info = json_line(out, '"ipv4_checksum"').get("ports", [{}])[0]
    want = "nic" if offload else "software"
    check(info.get("ipv4_checksum") == want, "%s: show port info says %s verifies (%s)" % (mode, want, info.get("ipv4_checksum")))
    active = (info.get("rx_offloads", 0) & RX_OFFLOAD_IPV4_CKSUM) != 0
    check(active == offload, "%s: the IPv4 checksum RX offload is %s (rx_offloads %s)" %
          (mode, "on" if offload else "off", info.get("rx_offloads")))
    drops = json_line(out, '"ipv4_nic_bad_checksum"')
    nic, soft = drops.get("ipv4_nic_bad_checksum"), drops.get("ipv4_bad_checksum")
    if offload:
        check(nic == BAD and soft == 0, "offload: the bad frames are the NIC's drops (nic %s, software %s)" % (nic, soft))
    else:
        check(nic == 0 and soft == BAD, "software: the bad frames are weft's drops (nic %s, software %s)" % (nic, soft))
    sports = sorted(struct.unpack("!H", g[34:36])[0] for g in got)
    want_sports = sorted(struct.unpack("!H", f[34:36])[0] for f, good in sent if good)
    check(sports == want_sports, "%s: every good frame leaves port 1 once (%d of %d)" % (mode, len(got), GOOD))
    ok = all(g[:6] == NEIGH_MAC and g[22] == 63 and csum(g[14:34]) == 0 for g in got)
    check(bool(got) and ok, "%s: forwarded frames carry the neighbour MAC, TTL 63 and a correct checksum" % mode)


def main():
    if os.geteuid() != 0 or not os.path.exists("/dev/net/tun"):
        print("skip: needs root and /dev/net/tun")
        return 77
    run(True)
    run(False)
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
