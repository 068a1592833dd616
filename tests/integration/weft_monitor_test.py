#!/usr/bin/env python3
"""ARS monitoring capture in the real weft: a pcapng record for each reassigned packet.

Port 0 (net_pcap) replays 64 UDP flows x 16 packets once; an ARS group over ports 1-3 (net_null)
uses flowlet-random with a 1 us idle time, so almost every packet starts a new flowlet and about
two in three move their flow to another port. The pcapng file is parsed here, block by block.

1. `monitor start file F` (every ARS object monitored): the number of records equals the
   group's next-hop reassignment counter and what `show monitor json` wrote; every record is on
   the interface of its egress port (the interface blocks name the ports' devices) and carries
   the frame as sent there (that port's MAC as source, its neighbour's as destination, TTL 63).
2. `monitor file F` with an ACL rule monitoring half of the flows (destination ports
   4000-4031, routed to group 1; the other half goes to group 5 over the same ports): the
   records are exactly group 1's reassignments, and none is of group 5's flows.
3. IB-over-Ethernet: 64 IBoE flows (SLID and BTH QP vary) to a DLID whose LFT entry is the ARS
   group: one record per reassignment, each on its egress port's interface with the frame as
   sent there (the port's MAC as source, the LRH VL from that port's SL2VL, LRH and BTH
   otherwise the received ones).
"""
import glob
import json
import os
import shutil
import struct
import sys
import tempfile
import time

from weft_frames import udp4, write_pcap
from weft_session import run_steps

WEFT = sys.argv[1]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def read_pcapng(path):
    """(interfaces, records): interfaces as dicts of options, records as (interface, time ns, frame)."""
    data = open(path, "rb").read()
    pos, bo, ifaces, records = 0, "<", [], []
    while pos + 12 <= len(data):
        btype = struct.unpack_from("<I", data, pos)[0]
        if btype == 0x0A0D0D0A:
            bo = "<" if struct.unpack_from("<I", data, pos + 8)[0] == 0x1A2B3C4D else ">"
        blen = struct.unpack_from(bo + "I", data, pos + 4)[0]
        if blen < 12 or pos + blen > len(data) or struct.unpack_from(bo + "I", data, pos + blen - 4)[0] != blen:
            raise ValueError("bad block at offset %d" % pos)
        if btype == 1:  # interface description: link type, snaplen, options
            opts, o, iface = data[pos + 16:pos + blen - 4], 0, {}
            while o + 4 <= len(opts):
                code, olen = struct.unpack_from(bo + "HH", opts, o)
                if code == 0:
                    break
                iface[code] = opts[o + 4:o + 4 + olen]
                o += 4 + ((olen + 3) & ~3)
            ifaces.append(iface)
        elif btype == 6:  # enhanced packet
            iface, hi, lo, caplen, _ = struct.unpack_from(bo + "IIIII", data, pos + 8)
            records.append((iface, (hi << 32) | lo, data[pos + 28:pos + 28 + caplen]))
        pos += blen
    if pos != len(data):
        raise ValueError("trailing bytes after offset %d" % pos)
    return ifaces, records


NEIGH = ["neigh add 10.9.%d.2 02:00:00:00:%02d:02 port %d" % (p, p, p) for p in (1, 2, 3)]


def run(work, name, setup, steps):
    cmds = os.path.join(work, name + ".txt")
    with open(cmds, "w") as f:
        f.write("\n".join(setup) + "\n")
    args = [WEFT, "--no-huge", "--no-pci", "-m", "512", "-l", "0-1",
            "--file-prefix=weft_monitor_%s_%d" % (name, os.getpid()), "--log-level=lib.eal:warning",
            "--vdev=net_pcap0,rx_pcap=%s" % os.path.join(work, "in.pcap"),
            "--vdev=net_null1,no-rx=1", "--vdev=net_null2,no-rx=1", "--vdev=net_null3,no-rx=1",
            "--", "-i", "--cmdline-file", cmds, "--run-time", "30"]
    rc, out = run_steps(args, steps)
    check(rc == 0, "%s: weft exits 0 (rc=%s)" % (name, rc))
    check("done, 0 errors" in out, "%s: the set-up commands are accepted" % name)
    return out


def json_after(out, command):
    """The JSON objects printed right after each echo of `command`."""
    res = []
    for part in out.split("weft> " + command + "\n")[1:]:
        try:
            res.append(json.loads(part.split("\n", 1)[0]))
        except ValueError:
            check(False, "`%s` prints JSON" % command)
    return res


def ars_counter(out, nhg):
    js = [j for j in json_after(out, "show ars nhg %d json" % nhg)]
    return js[-1]["counters"]["next_hop_reassignments"] if js else -1


def flow_of(frame):
    """(destination MAC, source MAC, TTL, UDP destination port) of an IPv4/UDP frame."""
    return frame[0:6], frame[6:12], frame[22], struct.unpack_from("!H", frame, 36)[0]


def check_records(name, out, path, expected_ports):
    ifaces, records = read_pcapng(path)
    info = json_after(out, "show port info all json")
    macs = dict((p["port"], bytes.fromhex(p["mac"].replace(":", ""))) for p in info[-1]["ports"]) if info else {}
    names = [i.get(15, b"").decode() for i in ifaces]  # if_description: the device
    check(names == ["vdev-net_pcap0", "vdev-net_null1", "vdev-net_null2", "vdev-net_null3"],
          "%s: one interface per port, named by device (%s)" % (name, names))
    bad = []
    for iface, _, frame in records:
        dst, src, ttl, dport = flow_of(frame)
        if iface not in expected_ports or dst != bytes.fromhex("02000000%02x02" % iface) or \
                src != macs.get(iface) or ttl != 63 or dport not in expected_ports[iface]:
            bad.append((iface, dst.hex(), src.hex(), ttl, dport))
    check(not bad, "%s: every record is on its egress port's interface with the frame as sent there (%s)" % (
        name, bad[:3]))
    stamps = [t for _, t, _ in records]
    now = time.time_ns()
    check(bool(stamps) and stamps == sorted(stamps) and now - 120 * 10 ** 9 < stamps[0] <= now,
          "%s: time stamps are wall-clock time, in order" % name)
    return records


IBOE = 0x88B5


def iboe(dlid, slid, sl, qp):
    """Ethernet + LRH (LNH 2: BTH follows) + BTH + 16 payload bytes + ICRC."""
    rest = struct.pack("!BBHB", 4, 0x40, 0xFFFF, 0) + qp.to_bytes(3, "big") + b"\x80\x00\x00\x01" + \
        b"\xab" * 16 + b"\0" * 4
    lrh = struct.pack("!BBHHH", 0x00, (sl << 4) | 2, dlid, (8 + len(rest)) // 4, slid)
    return bytes.fromhex("0200000000bb") + bytes.fromhex("0200000000aa") + struct.pack("!H", IBOE) + lrh + rest


def check_iboe_records(out, path, sent):
    """Each record: the frame received with SLID s (sent[s]) as weft sent it on its port."""
    ifaces, records = read_pcapng(path)
    info = json_after(out, "show port info all json")
    macs = dict((p["port"], bytes.fromhex(p["mac"].replace(":", ""))) for p in info[-1]["ports"]) if info else {}
    bad = []
    for iface, _, frame in records:
        slid = struct.unpack_from("!H", frame, 20)[0] if len(frame) >= 22 else -1
        orig = sent.get(slid)
        if iface not in (1, 2, 3) or orig is None or len(frame) != len(orig) or frame[0:6] != orig[0:6] or \
                frame[6:12] != macs.get(iface) or frame[14] != (iface << 4) | (orig[14] & 0x0F) or \
                frame[12:14] != orig[12:14] or frame[15:] != orig[15:]:
            bad.append((iface, frame[:24].hex()))
    check(not bad, "iboe: every record is on its egress port's interface with the frame as sent there "
          "(source MAC, VL from the port's SL2VL) (%s)" % bad[:3])
    return records


def remove_eal_dirs():
    """EAL leaves each run's runtime directory (config, telemetry socket) behind; remove ours."""
    for base in ("/var/run/dpdk", os.path.join(os.environ.get("XDG_RUNTIME_DIR", "/tmp"), "dpdk")):
        for d in glob.glob(os.path.join(base, "weft_monitor_*_%d" % os.getpid())):
            shutil.rmtree(d, ignore_errors=True)


def main():
    work = tempfile.mkdtemp(prefix="weft_monitor_")
    frames = []
    for _ in range(16):
        for k in range(64):
            frames.append(udp4("10.0.0.1", "10.1.%d.%d" % (k // 16, 1 + k % 16), 1000 + k, 4000 + k, 100))
    write_pcap(os.path.join(work, "in.pcap"), frames)
    ars = ["ars object add 1 mode flowlet-random idle-time 1 max-flows 1024"]
    finish = [(2.0, "show ars nhg 1 json"), (0.0, "show ars nhg 5 json"), (0.0, "show port info all json"),
              (0.0, "show monitor json"), (0.0, "monitor stop"), (0.0, "show monitor json"), (0.2, "quit")]

    # 1. Every ARS object monitored.
    pcapng = os.path.join(work, "all.pcapng")
    out = run(work, "all", NEIGH + ars + ["nhg add 1 ars 1 primary 1,2,3", "route add 10.1.0.0/16 nhg 1",
                                          "monitor start file " + pcapng], finish)
    moved = ars_counter(out, 1)
    records = check_records("all", out, pcapng, dict((p, range(4000, 4064)) for p in (1, 2, 3)))
    mon = json_after(out, "show monitor json")
    cap = mon[-1]["capture"] if mon else {}
    print("all: %d reassignments, %d records, capture %s" % (moved, len(records), cap))
    check(moved > 300, "all: the flows were reassigned many times (%d)" % moved)
    check(len(records) == moved, "all: %d records = %d reassignments" % (len(records), moved))
    check(cap.get("written") == moved and cap.get("captured") == moved and cap.get("dropped") == 0 and
          not cap.get("active") and mon[0]["capture"]["active"],
          "all: show monitor json counts the same records, none dropped, and the file closed at stop")

    # 2. ACL monitoring only: half the flows, on their own group.
    pcapng = os.path.join(work, "acl.pcapng")
    out = run(work, "acl", NEIGH + ars + [
        "nhg add 1 ars 1 primary 1,2,3", "nhg add 5 ars 1 primary 1,2,3",
        "route add 10.1.0.0/23 nhg 1", "route add 10.1.2.0/23 nhg 5",
        "acl add 10 ip-version 4 proto 17 dport 4000-4031 action monitor on",
        "monitor file " + pcapng], finish)
    moved1, moved5 = ars_counter(out, 1), ars_counter(out, 5)
    records = check_records("acl", out, pcapng, dict((p, range(4000, 4032)) for p in (1, 2, 3)))
    print("acl: group 1 %d reassignments, group 5 %d, %d records" % (moved1, moved5, len(records)))
    check(moved1 > 100 and moved5 > 100, "acl: both groups' flows were reassigned")
    check(len(records) == moved1, "acl: %d records = group 1's %d reassignments" % (len(records), moved1))

    # 3. IB-over-Ethernet through an LFT entry naming the ARS group.
    sent = dict((0x100 + k, iboe(0x0020, 0x100 + k, 3, 0x1000 + k)) for k in range(64))
    write_pcap(os.path.join(work, "in.pcap"), [sent[0x100 + k] for _ in range(16) for k in range(64)])
    pcapng = os.path.join(work, "iboe.pcapng")
    out = run(work, "iboe", NEIGH + ars + ["nhg add 1 ars 1 primary 1,2,3", "lft set 0x20 nhg 1"] +
              ["sl2vl set port %d sl 3 vl %d" % (p, p) for p in (1, 2, 3)] + ["monitor start file " + pcapng],
              finish)
    moved = ars_counter(out, 1)
    records = check_iboe_records(out, pcapng, sent)
    print("iboe: %d reassignments, %d records" % (moved, len(records)))
    check(moved > 300, "iboe: the flows were reassigned many times (%d)" % moved)
    check(len(records) == moved, "iboe: %d records = %d reassignments" % (len(records), moved))

    remove_eal_dirs()
    if failures:
        print("%d checks failed (files kept in %s)" % (len(failures), work))
        return 1
    shutil.rmtree(work, ignore_errors=True)
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
