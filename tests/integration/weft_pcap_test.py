#!/usr/bin/env python3
"""Runs the real weft on three net_pcap ports and checks what it wrote.

Port 0 replays in.pcap; ports 1 and 2 only transmit. Routes, neighbours, LFT, MFT and SL2VL
come from --cmdline-file. The frames are built here with struct, byte by byte. Checks: MAC
rewrite, TTL / hop-limit decrement with a valid IPv4 checksum, LFT forwarding by DLID with the
egress SL2VL written into the LRH, MFT replication to every member port but the ingress one,
and malformed or unroutable frames counted by reason and never forwarded. It also reads the
/weft/ telemetry commands over DPDK's telemetry socket while weft runs.
"""
import json
import os
import re
import socket
import struct
import shutil
import sys
import tempfile
import time

from weft_session import READY, LiveWeft, eal_prefix, run_steps

WEFT = sys.argv[1]
IBOE = 0x88B5
NEIGH_MAC = bytes.fromhex("020000000102")
HOST_MAC = bytes.fromhex("0200000000aa")
SWITCH_IN_MAC = bytes.fromhex("0200000000bb")
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s) & 0xFFFF


def eth(ethertype, dst=SWITCH_IN_MAC, src=HOST_MAC):
    return dst + src + struct.pack("!H", ethertype)


def ipv4(proto, src, dst, payload, ttl=64, ihl_words=5):
    options = b"\x01" * (ihl_words * 4 - 20)
    hdr = struct.pack("!BBHHHBBH4s4s", 0x40 | ihl_words, 0, ihl_words * 4 + len(payload), 7, 0, ttl, proto, 0,
                      socket.inet_aton(src), socket.inet_aton(dst)) + options
    hdr = hdr[:10] + struct.pack("!H", csum(hdr)) + hdr[12:]
    return hdr + payload


def ipv6(nh, src, dst, payload, hop=64):
    return struct.pack("!IHBB", 0x60000000, len(payload), nh, hop) + socket.inet_pton(
        socket.AF_INET6, src) + socket.inet_pton(socket.AF_INET6, dst) + payload


def udp(sport, dport, payload):
    return struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload


def bth(qp):
    return struct.pack("!BBHB", 4, 0x40, 0xFFFF, 0) + qp.to_bytes(3, "big") + b"\x80\x00\x00\x01"


def iboe(dlid, slid, sl, qp, payload=b"\xab" * 16):
    """LIDs of 18 bits (seed 002's extended space) put their bits 16-17 in two reserved LRH bits
    each: the DLID's in byte 1 bits 2-3, the SLID's in byte 4 bits 6-7."""
    rest = bth(qp) + payload + b"\0" * 4  # BTH, payload, ICRC
    words = (8 + len(rest)) // 4
    lrh = struct.pack("!BBHHH", 0x00, (sl << 4) | (dlid >> 16) << 2 | 2, dlid & 0xFFFF,
                      (slid >> 16) << 14 | words, slid & 0xFFFF)
    return eth(IBOE) + lrh + rest


def write_pcap(path, frames):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(frames):
            f.write(struct.pack("<IIII", 1, i, len(fr), len(fr)) + fr)


def read_pcap(path):
    if not os.path.exists(path):
        return []
    data = open(path, "rb").read()
    if len(data) < 24:
        return []
    magic = struct.unpack("<I", data[:4])[0]
    endian = "<" if magic in (0xA1B2C3D4, 0xA1B23C4D) else ">"
    frames, off = [], 24
    while off + 16 <= len(data):
        _, _, incl, _ = struct.unpack(endian + "IIII", data[off:off + 16])
        frames.append(data[off + 16:off + 16 + incl])
        off += 16 + incl
    return frames


def telemetry(prefix, commands):
    path = "/var/run/dpdk/%s/dpdk_telemetry.v2" % prefix
    if not os.path.exists(path):
        path = os.path.join(os.environ.get("XDG_RUNTIME_DIR", "/tmp"), "dpdk", prefix, "dpdk_telemetry.v2")
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.connect(path)
    json.loads(s.recv(16384).decode())  # greeting
    out = {}
    for c in commands:
        s.send(c.encode())
        out[c] = json.loads(s.recv(65536).decode())
    s.close()
    return out


def telemetry_after(weft, prefix, received, commands, settle=0.0):
    """`commands` over the telemetry socket once weft is ready and has received `received`
    frames (at most 3 s of polling), `settle` s later; {} when the socket cannot be reached."""
    if not weft.wait_for(READY, 120):
        return {}
    try:
        end = time.monotonic() + 3
        while time.monotonic() < end:
            drops = telemetry(prefix, ["/weft/drops"])["/weft/drops"].get("/weft/drops", {})
            if drops.get("rx_packets") == received:
                break
            time.sleep(0.05)
        time.sleep(settle)
        return telemetry(prefix, commands)
    except OSError as e:
        print("telemetry socket: %s" % e)
        return {}


def pcap_weft(work, prefix, name, lines, tail):
    """weft's command line on three net_pcap ports: port 0 replays <name>.pcap (written by the
    caller) and ports 1-2 replay empty.pcap; port p writes what it sends to out<name>_<p>.pcap.
    `lines` go to a --cmdline-file, `tail` follows it."""
    cmds = os.path.join(work, "cmds_%s.txt" % name)
    with open(cmds, "w") as f:
        f.write("\n".join(lines) + "\n")
    vdevs = ["--vdev=net_pcap%d,rx_pcap=%s/%s,tx_pcap=%s/out%s_%d.pcap" % (
        p, work, name + ".pcap" if p == 0 else "empty.pcap", work, name, p) for p in range(3)]
    return cmds, [WEFT, "--no-huge", "--no-pci", "-m", "512", "-l", "0-1", "--file-prefix=" + prefix,
                  "--log-level=lib.eal:warning"] + vdevs + ["--", "--cmdline-file", cmds] + tail


def ipv6_ars_check(work):
    """IPv6 through an ARS group: 32 UDP flows of 4 frames each, two RoCEv2 queue pairs and one
    frame with a hop-by-hop header (the full parse) over ports 1 and 2, flowlets that never
    expire in the run (every flow stays on one port); one frame with hop limit 1 expires."""
    flows = [(4000 + k, "2001:db8:5::%x" % (k + 1)) for k in range(32)]
    frames = []
    for rep in range(4):
        for sport, dst in flows:
            frames.append(eth(0x86DD) + ipv6(17, "2001:db8:1::1", dst, udp(sport, 9000, bytes([rep]) * 20), hop=20))
    roce = [eth(0x86DD) + ipv6(17, "2001:db8:1::2", "2001:db8:6::1", udp(49152, 4791, bth(qp) + b"\xcd" * 16))
            for qp in (0x11, 0x22)]
    hbh = eth(0x86DD) + ipv6(0, "2001:db8:1::3", "2001:db8:7::1", bytes([17, 0]) + b"\0" * 6 + udp(1, 2, b"ext"))
    expired = eth(0x86DD) + ipv6(17, "2001:db8:1::4", "2001:db8:8::1", udp(1, 2, b"x"), hop=1)
    sent = frames + roce + [hbh, expired]
    write_pcap(os.path.join(work, "in6.pcap"), sent)
    _, args = pcap_weft(work, eal_prefix("it6"), "in6", [
        "neigh add 10.9.1.2 02:00:00:00:01:02 port 1",
        "neigh add 10.9.2.2 02:00:00:00:02:02 port 2",
        "ars object add 1 mode flowlet-random idle-time 1000000 max-flows 1024",
        "nhg add 1 ars 1 primary 1,2",
        "route add 2001:db8::/32 nhg 1",
    ], ["-i", "--run-time", "20"])
    rc, out = run_steps(args, [(1.5, "show ars nhg 1 json"), (0.0, "show drops json"), (0.2, "quit")])
    check(rc == 0, "ipv6: weft exits 0 (rc=%s)" % rc)
    macs = dict((int(p), bytes.fromhex(m.replace(":", ""))) for p, m in re.findall(r"^port (\d+) \(([0-9a-f:]{17})\)", out, re.M))
    outs = {1: read_pcap(os.path.join(work, "outin6_1.pcap")), 2: read_pcap(os.path.join(work, "outin6_2.pcap"))}
    check(not read_pcap(os.path.join(work, "outin6_0.pcap")), "ipv6: nothing goes back out of the ingress port")
    total = len(outs[1]) + len(outs[2])
    check(total == len(sent) - 1, "ipv6: every frame but the expired one forwarded (%d of %d)" % (total, len(sent)))
    bad, port_of = [], {}
    for p, fs in outs.items():
        for fr in fs:
            orig = [o for o in sent if o[14:21] == fr[14:21] and o[22:] == fr[22:]]  # all but MACs, hop limit
            if len(orig) == 0 or fr[21] != orig[0][21] - 1 or fr[0:6] != bytes.fromhex("02000000%02x02" % p) or \
                    fr[6:12] != macs.get(p) or fr[12:14] != b"\x86\xdd":
                bad.append((p, fr[:24].hex()))
            if fr[14 + 6] == 17 and fr[14 + 40 + 2:14 + 40 + 4] == struct.pack("!H", 9000):
                port_of.setdefault(fr[14 + 40:14 + 40 + 2], set()).add(p)
    check(not bad, "ipv6: hop limit decremented, the port's and the neighbour's MACs, the rest unchanged (%s)" % bad[:3])
    check(len(port_of) == 32 and all(len(v) == 1 for v in port_of.values()),
          "ipv6: each UDP flow stays on one port (%d flows seen)" % len(port_of))
    used = set(p for v in port_of.values() for p in v)
    check(used == {1, 2}, "ipv6: the flows spread over both ports (%s)" % sorted(used))
    js = [json.loads(l) for l in out.splitlines() if l.startswith('{"nhg":1,')]
    c = js[-1]["counters"] if js else {}
    check(c.get("packets") == total and c.get("packet_drops") == 0,
          "ipv6: show ars nhg 1 json counts the frames the ports sent (%s)" % c.get("packets"))
    drops = [json.loads(l) for l in out.splitlines() if l.startswith("{") and "ttl_expired" in l]
    check(bool(drops) and drops[-1].get("ttl_expired") == 1,
          "ipv6: the hop-limit-1 frame is counted as ttl_expired (%s)" % (drops[-1] if drops else None))


def vlid_check(work):
    """18-bit LIDs: a DLID with its extra bits set is a vLID, forwarded by the secondary LFT (the
    pLID with the same 16 low bits goes elsewhere); the LRH leaves unchanged but for its VL."""
    prefix = eal_prefix("itv")
    frames = [
        iboe(0x00012, 0x30001, 0, 0x11),  # the pLID 0x12 -> port 2
        iboe(0x10012, 0x30001, 0, 0x22),  # the vLID 0x10012 -> port 1
        iboe(0x3FFFF, 0x00001, 3, 0x33),  # the last vLID -> port 2, SL 3 -> VL 5
        iboe(0x20044, 0x00001, 0, 0x44),  # a vLID without an entry
    ]
    write_pcap(os.path.join(work, "inv.pcap"), frames)
    _, args = pcap_weft(work, prefix, "inv", [
        "lft set 0x12 port 2",
        "lft set 0x10012 port 1",
        "lft set 0x3FFFF port 2",
        "sl2vl set port 2 sl 3 vl 5",
        "show lft",
    ], ["--run-time", "4"])
    weft = LiveWeft()
    weft.start(args)
    tel = telemetry_after(weft, prefix, len(frames), ["/weft/lft", "/weft/lft,65554", "/weft/lft,262144"])
    rc, out = weft.finish(60)
    print(out)
    check(rc == 0, "vlid: weft exits 0 (rc=%s)" % rc)
    check("vlid 0x10012 -> port 1" in out and "lid 0x0012 -> port 2" in out and "3 LFT entries (2 vLIDs)" in out,
          "vlid: show lft lists the pLID and both vLIDs")
    out1 = read_pcap(os.path.join(work, "outinv_1.pcap"))
    out2 = read_pcap(os.path.join(work, "outinv_2.pcap"))
    check([f[14 + 8 + 7] for f in out1] == [0x22], "vlid: port 1 sends the vLID 0x10012's frame alone (%s)" %
          [f[14 + 8 + 7] for f in out1])
    check(sorted(f[14 + 8 + 7] for f in out2) == [0x11, 0x33], "vlid: port 2 sends the pLID 0x12's and the vLID "
          "0x3ffff's frames (%s)" % [f[14 + 8 + 7] for f in out2])
    for f in out1 + out2:
        sent = [o for o in frames if o[14 + 8:] == f[14 + 8:]][0]
        check(f[15:22] == sent[15:22] and (f[14] & 0x0F) == (sent[14] & 0x0F),
              "vlid: LRH bytes 1-7 (the LIDs' extra bits) unchanged, QP 0x%x" % f[14 + 8 + 7])
    last = [f for f in out2 if f[14 + 8 + 7] == 0x33]
    check(bool(last) and last[0][14] >> 4 == 5, "vlid: the vLID's frame gets port 2's SL2VL (SL 3 -> VL 5)")
    check(re.search(r"drop lft_miss 1\b", out) is not None, "vlid: the vLID without an entry is an LFT miss")
    if tel:
        lft = tel["/weft/lft"].get("/weft/lft", {})
        check(lft.get("plid_entries") == 1 and lft.get("vlid_entries") == 2 and
              lft.get("lid") == [0x12, 0x10012, 0x3FFFF] and lft.get("target") == ["port 2", "port 1", "port 2"],
              "vlid: telemetry /weft/lft (%s)" % lft)
        one = tel["/weft/lft,65554"].get("/weft/lft", {})
        check(one.get("lid") == [0x10012] and one.get("target") == ["port 1"], "vlid: telemetry /weft/lft,65554 (%s)" % one)
        check(tel["/weft/lft,262144"].get("/weft/lft") is None, "vlid: telemetry /weft/lft refuses a LID past 0x3ffff")
    else:
        check(False, "vlid: telemetry reachable")


def run(work):
    prefix = eal_prefix("it")
    frames = [
        # 0: routed IPv4 with options -> port 1, TTL 64 -> 63
        eth(0x0800) + ipv4(17, "10.0.0.1", "10.1.2.3", udp(1234, 80, b"hello-ipv4"), ihl_words=6),
        # 1: routed IPv6 -> port 1, hop limit 10 -> 9
        eth(0x86DD) + ipv6(17, "2001:db8:1::1", "2001:db8::5", udp(1, 2, b"hello-ipv6"), hop=10),
        # 2: RoCEv2 -> port 1
        eth(0x0800) + ipv4(17, "10.0.0.1", "10.1.9.9", udp(49152, 4791, bth(0x123) + b"\0" * 20)),
        # 3: TTL 1: expires
        eth(0x0800) + ipv4(17, "10.0.0.1", "10.1.2.3", udp(1, 2, b"x"), ttl=1),
        # 4: no route
        eth(0x0800) + ipv4(17, "10.0.0.1", "192.168.7.7", udp(1, 2, b"x")),
        # 5: IBoE unicast DLID 0x12 -> LFT port 2, SL 3 -> VL 5 on port 2
        iboe(0x0012, 0x0001, 3, 0xBEEF),
        # 6: IBoE multicast MLID 0xC001 -> ports {0,1,2} minus ingress 0
        iboe(0xC001, 0x0001, 0, 0xFFFFFF),
        # 7: bad IHL
        eth(0x0800) + bytes([0x44]) + ipv4(17, "10.0.0.1", "10.1.2.3", udp(1, 2, b"x"))[1:],
        # 8: unknown EtherType (ARP)
        eth(0x0806) + b"\0" * 28,
        # 9: truncated LRH
        eth(IBOE) + b"\0" * 5,
        # 10: IPv4 total length past the frame
        eth(0x0800) + ipv4(17, "10.0.0.1", "10.1.2.3", udp(1, 2, b"x" * 40))[:40],
        # 11: IBoE unicast LID without an LFT entry
        iboe(0x0044, 0x0001, 0, 1),
    ]
    write_pcap(os.path.join(work, "in.pcap"), frames)
    write_pcap(os.path.join(work, "empty.pcap"), [])
    cmds, args = pcap_weft(work, prefix, "in", [
        "neigh add 10.9.0.2 02:00:00:00:01:02 port 1",
        "nhg add 1 ports 1",
        "route add 10.1.0.0/16 nhg 1",
        "route add 2001:db8::/32 nhg 1",
        "lft set 0x12 port 2",
        "sl2vl set port 2 sl 3 vl 5",
        "mft set 0xC001 ports 0 1 2",
        "route add 10.2.0.0/16 nhg 42",  # refused: no nhg 42
        "nonsense here",                  # refused: unknown
        "show route",
    ], ["--run-time", "4"])
    weft = LiveWeft()
    weft.start(args)
    # Telemetry is read while weft forwards (it runs 4 s from then on): once the tables are in
    # and the 12 frames were received, and the quality sampler has run since (every 16 us by default).
    tel = telemetry_after(weft, prefix, len(frames), ["/weft/ports", "/weft/routes", "/weft/drops",
                                                      "/weft/port_stats,1", "/weft/nhg_stats", "/weft/quality"],
                          settle=0.2)
    rc, out = weft.finish(60)
    print(out)
    check(rc == 0, "weft exits 0 (rc=%s)" % rc)
    check("cmdline-file %s done, 2 errors" % cmds in out, "the two bad commands are refused and counted")
    check(re.search(r"10\.1\.0\.0/16\s+1", out) is not None and "10.2.0.0/16" not in out.split("show route")[-1],
          "show route lists the accepted routes only")

    macs = dict((int(p), bytes.fromhex(m.replace(":", ""))) for p, m in re.findall(r"^port (\d+) \(([0-9a-f:]{17})\)", out, re.M))
    check(len(macs) == 3, "three ports reported")
    out0 = read_pcap(os.path.join(work, "outin_0.pcap"))
    out1 = read_pcap(os.path.join(work, "outin_1.pcap"))
    out2 = read_pcap(os.path.join(work, "outin_2.pcap"))
    check(len(out0) == 0, "nothing goes back out of the ingress port (got %d)" % len(out0))
    check(len(out1) == 4, "port 1 sends IPv4, IPv6, RoCEv2 and one multicast replica (got %d)" % len(out1))
    check(len(out2) == 2, "port 2 sends the LFT unicast and one multicast replica (got %d)" % len(out2))

    ip4 = [f for f in out1 if f[12:14] == b"\x08\x00"]
    ip6 = [f for f in out1 if f[12:14] == b"\x86\xdd"]
    ib1 = [f for f in out1 if f[12:14] == struct.pack("!H", IBOE)]
    check(len(ip4) == 2 and len(ip6) == 1 and len(ib1) == 1, "port 1 frame kinds")
    for f in ip4 + ip6:
        check(f[0:6] == NEIGH_MAC, "dst MAC is the neighbour's")
        check(f[6:12] == macs.get(1), "src MAC is port 1's")
    for f in ip4:
        ihl = (f[14] & 0x0F) * 4
        check(f[22] == 63, "IPv4 TTL 64 -> 63")
        check(csum(f[14:14 + ihl]) == 0, "IPv4 header checksum valid after the TTL rewrite")
    sent_v4 = [fr for fr in frames[:3] if fr[12:14] == b"\x08\x00"]
    check(sorted(f[34 + 4:] for f in ip4 if (f[14] & 0xF) == 6) == sorted(fr[38:] for fr in sent_v4[:1]),
          "IPv4 options and payload unchanged")
    if ip6:
        check(ip6[0][21] == 9, "IPv6 hop limit 10 -> 9")
        check(ip6[0][22:] == frames[1][22:], "IPv6 addresses and payload unchanged")

    uni = [f for f in out2 if f[16:18] == b"\x00\x12"]
    check(len(uni) == 1, "DLID 0x12 forwarded on port 2 by the LFT")
    if uni:
        check(uni[0][14] >> 4 == 5, "LRH VL set from port 2's SL2VL (SL 3 -> VL 5)")
        check(uni[0][6:12] == macs.get(2), "src MAC is port 2's")
        check(uni[0][16:] == frames[5][16:], "LRH DLID onward unchanged")
    mc = [f for f in out1 + out2 if f[16:18] == b"\xc0\x01"]
    check(len(mc) == 2, "MLID 0xC001 replicated to ports 1 and 2")
    check(sorted(f[6:12] for f in mc) == sorted([macs.get(1), macs.get(2)]), "each replica carries its port's MAC")
    check(all(f[16:] == frames[6][16:] for f in mc), "replica payloads intact")

    for reason, n in [("ttl_expired", 1), ("no_route", 1), ("ipv4_bad_ihl", 1), ("unknown_ethertype", 1),
                      ("lrh_truncated", 1), ("ipv4_total_length_past_buffer", 1), ("lft_miss", 1)]:
        check(re.search(r"drop %s %d\b" % (reason, n), out) is not None, "drop %s counted %d" % (reason, n))
    check(re.search(r"rx-packets %d forwarded 6 replicas 1 dropped 7" % len(frames), out) is not None,
          "totals: %d received, 6 forwarded (1 replica), 7 dropped" % len(frames))

    if tel:
        check(tel["/weft/ports"].get("/weft/ports") == [0, 1, 2], "telemetry /weft/ports")
        check(tel["/weft/routes"].get("/weft/routes") == {"prefix": ["10.1.0.0/16", "2001:db8::/32"], "nhg": [1, 1]},
              "telemetry /weft/routes: %s" % tel["/weft/routes"])
        drops = tel["/weft/drops"].get("/weft/drops", {})
        check(drops.get("ttl_expired") == 1 and drops.get("rx_packets") == len(frames), "telemetry /weft/drops")
        ps = tel["/weft/port_stats,1"].get("/weft/port_stats", {})
        check(ps.get("tx_packets") == 4, "telemetry /weft/port_stats,1 tx_packets")
        nhg = tel["/weft/nhg_stats"].get("/weft/nhg_stats", {})
        check(nhg.get("1", {}).get("packets") == 3, "telemetry /weft/nhg_stats counts nhg 1")
        q = tel["/weft/quality"].get("/weft/quality", {})
        check(q.get("1", {}).get("tx_bytes", 0) > 0, "telemetry /weft/quality reports port 1 TX bytes")
        check(q.get("1", {}).get("ars_quality") in range(8) and q.get("1", {}).get("ars_link_up") == 1,
              "telemetry /weft/quality reports port 1's ARS band and link")
        check(nhg.get("1", {}).get("mode") == "ecmp", "telemetry /weft/nhg_stats reports the group mode")
    else:
        check(False, "telemetry reachable")

    ipv6_ars_check(work)
    vlid_check(work)

    if failures:
        print("%d checks failed" % len(failures))
        return 1
    print("all checks passed")
    return 0


def main():
    work = tempfile.mkdtemp(prefix="weft_it_")
    rc = 1
    try:
        rc = run(work)
    finally:  # kept for inspection when a check failed, as the ARS test does
        if rc == 0:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print("files kept in %s" % work)
    return rc


if __name__ == "__main__":
    sys.exit(main())
