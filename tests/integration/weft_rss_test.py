#!/usr/bin/env python3
"""Two worker lcores and two RX queues: the real weft with --nb-cores 2 --rxq 2.

Port 0 is net_af_packet on a veth with qpairs=2: the kernel spreads the frames over the two
sockets by flow hash (PACKET_FANOUT_HASH), which is what RSS does on a NIC. The test writes
Ethernet frames of many UDP flows into the veth's peer with a raw socket. Ports 1 and 2 are
net_pcap devices with two TX queues, each queue its own file: a worker sends on its own TX
queue of every port (worker w on queue w), so the file a frame lands in names the worker that
forwarded it. Traffic goes to an ARS group over ports 1 and 2 (flowlet-quality, 1 s idle time,
64K macro flows so that few flows share a bucket).

Phase 1: 128 flows x 4 frames (100 bytes). Then `set link-down port 2`. Phase 2: the same flows
again (120 bytes, so the phases can be told apart in the files).

Checks: both workers forward and poll their share of flows; each flow stays on one worker (its
frames in one worker's files only); every worker's counters (`show fwd stats json`) sum to the
port and total counters (`show port stats json`) and to what the files hold; ARS: in phase 1
both ports carry flows and each flow stays on its port, in phase 2 nothing leaves port 2 and the
group counts one link-down reassignment for each flow that was on port 2.

The kernel's fanout rolls a frame over to the other socket only when a socket's ring is full,
so the frames are paced (about 1 ms apart). Exit 77 (skip) when not root.
"""
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time

from weft_frames import udp4
from weft_session import LiveWeft, eal_prefix

WEFT = sys.argv[1]
PID = os.getpid()
TAG = "%05d" % (PID % 100000)
VETH, PEER = "wrA" + TAG, "wrB" + TAG
FLOWS, PER_FLOW = 128, 4
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def read_pcap(path):
    data = open(path, "rb").read() if os.path.exists(path) else b""
    frames, pos = [], 24
    while pos + 16 <= len(data):
        caplen = struct.unpack_from("<I", data, pos + 8)[0]
        frames.append(data[pos + 16:pos + 16 + caplen])
        pos += 16 + caplen
    return frames


def write_empty_pcap(path):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))


class Weft(LiveWeft):
    def __init__(self, work):
        self.prefix = eal_prefix("rss")
        cmds = os.path.join(work, "setup.txt")
        with open(cmds, "w") as f:
            f.write("\n".join([
                "neigh add 10.9.1.2 02:00:00:00:01:02 port 1", "neigh add 10.9.2.2 02:00:00:00:02:02 port 2",
                "ars object add 1 mode flowlet-quality idle-time 1000000 max-flows 65536",
                "nhg add 1 ars 1 primary 1,2", "route add 10.1.0.0/16 nhg 1", "show config fwd json"]) + "\n")
        empty = os.path.join(work, "empty.pcap")
        write_empty_pcap(empty)
        # Three lcores (main + two workers) floating over the CPUs there are.
        cpus = "0-%d" % (max(2, os.cpu_count() or 2) - 1)
        args = [WEFT, "--no-huge", "--no-pci", "-m", "512", "--lcores", "(0-2)@(%s)" % cpus,
                "--file-prefix=" + self.prefix, "--log-level=lib.eal:warning",
                "--vdev=net_af_packet0,iface=%s,qpairs=2" % VETH]
        for p in (1, 2):
            args.append("--vdev=net_pcap%d,rx_pcap=%s,rx_pcap=%s,tx_pcap=%s,tx_pcap=%s" % (
                p, empty, empty, os.path.join(work, "p%dq0.pcap" % p), os.path.join(work, "p%dq1.pcap" % p)))
        args += ["--", "-i", "--nb-cores", "2", "--rxq", "2", "--cmdline-file", cmds, "--run-time", "90"]
        self.start(args)

    def ask(self, command, timeout=15):
        """Sends `command` and returns the JSON line that follows its echo."""
        start = len(self.text())
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            tail = self.text()[start:]
            i = tail.find("weft> " + command + "\n")
            if i >= 0:
                rest = tail[i + len(command) + 7:]
                if "\n" in rest:
                    return json.loads(rest.split("\n", 1)[0])
            time.sleep(0.05)
        raise RuntimeError("no answer to %r" % command)

    def stop(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=20)
            except (subprocess.TimeoutExpired, BrokenPipeError):
                self.proc.kill()
                self.proc.wait()
        self.reader.join(timeout=5)
        for base in ("/var/run/dpdk", os.path.join(os.environ.get("XDG_RUNTIME_DIR", "/tmp"), "dpdk")):
            shutil.rmtree(os.path.join(base, self.prefix), ignore_errors=True)
        return self.proc.returncode


def send_phase(sock, dst_mac, size):
    for r in range(PER_FLOW):
        for k in range(FLOWS):
            frame = udp4("10.0.0.1", "10.1.%d.%d" % (k // 64, 1 + k % 64), 10000 + k, 4000, size)
            sock.send(dst_mac + frame[6:])
            time.sleep(0.001)


def settle(weft, timeout=20):
    """Waits until port 0's RX count stops moving; returns (port stats, fwd stats) read back to back."""
    last, end = -1, time.monotonic() + timeout
    while time.monotonic() < end:
        ps = weft.ask("show port stats json")
        if ps["ports"][0]["rx_packets"] == last:
            break
        last = ps["ports"][0]["rx_packets"]
        time.sleep(0.5)
    return weft.ask("show port stats json"), weft.ask("show fwd stats json")


def main():
    if os.geteuid() != 0:
        print("skip: needs root for a veth pair")
        return 77
    work = tempfile.mkdtemp(prefix="weft_rss_")
    weft = None
    try:
        subprocess.run(["ip", "link", "add", VETH, "type", "veth", "peer", "name", PEER], check=True)
        for dev in (VETH, PEER):
            with open("/proc/sys/net/ipv6/conf/%s/disable_ipv6" % dev, "w") as f:
                f.write("1")  # no router solicitations or DAD on the wire
            subprocess.run(["ip", "link", "set", dev, "up"], check=True)
        dst_mac = bytes.fromhex(open("/sys/class/net/%s/address" % VETH).read().strip().replace(":", ""))
        weft = Weft(work)
        fwd = weft.ask("show config fwd json", timeout=60)
        polled = sorted((lc["worker"], q["port"], q["queue"]) for lc in fwd["lcores"] for q in lc["rx"])
        check(fwd["cores"] == 2 and (0, 0, 0) in polled and (1, 0, 1) in polled,
              "two workers, queue 0 and queue 1 of port 0 on different workers (%s)" % polled)
        # Both workers must be polling before the frames come.
        end = time.monotonic() + 30
        while time.monotonic() < end and not all(lc["loops"] > 0 for lc in weft.ask("show fwd stats json")["lcores"]):
            time.sleep(0.2)
        sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        sock.bind((PEER, 0))
        send_phase(sock, dst_mac, 100)
        ps1, fs1 = settle(weft)
        weft.ask("show ars nhg 1 json")
        weft.proc.stdin.write("set link-down port 2\n")
        weft.proc.stdin.flush()
        time.sleep(0.3)
        send_phase(sock, dst_mac, 120)
        ps, fs = settle(weft)
        ars = weft.ask("show ars nhg 1 json")
        rc = weft.stop()
        check(rc == 0, "weft exits 0 (rc=%s)" % rc)

        # Which worker and which port each flow's frames left by, per phase.
        seen = {}  # sport -> set of (worker, port, phase)
        files = {}
        for p in (1, 2):
            for w in (0, 1):
                frames = read_pcap(os.path.join(work, "p%dq%d.pcap" % (p, w)))
                files[(p, w)] = len(frames)
                for fr in frames:
                    sport = struct.unpack_from("!H", fr, 34)[0]
                    seen.setdefault(sport, set()).add((w, p, 1 if len(fr) == 100 else 2))
        total = FLOWS * PER_FLOW * 2
        got = sum(files.values())
        workers_of = dict((s, set(w for w, _, _ in v)) for s, v in seen.items())
        per_worker = [sum(1 for v in workers_of.values() if v == {w}) for w in (0, 1)]
        split = [s for s, v in workers_of.items() if len(v) > 1]
        print("frames per (port, worker) file %s; %d/%d forwarded; flows per worker %s; split flows %d" % (
            files, got, total, per_worker, len(split)), flush=True)
        check(got >= total * 0.95 and len(seen) == FLOWS, "weft forwards the flows (%d/%d frames)" % (got, total))
        check(min(per_worker) >= FLOWS // 8, "both workers forward a share of the flows (%s)" % per_worker)
        check(not split, "each flow stays on one worker (%d flows on both)" % len(split))

        lc = fs["lcores"]
        for key in ("rx_packets", "forwarded", "dropped"):
            check(sum(l[key] for l in lc) == fs[key] == ps[key if key != "forwarded" else "forwarded"],
                  "the lcores' %s sum to the total (%s = %d)" % (key, [l[key] for l in lc], ps[key]))
        for p in range(3):
            for key in ("rx_packets", "tx_packets", "tx_bytes"):
                check(sum(l["ports"][p][key] for l in lc) == ps["ports"][p][key],
                      "port %d: the lcores' %s sum to the port's (%s = %d)" % (
                          p, key, [l["ports"][p][key] for l in lc], ps["ports"][p][key]))
        for w in (0, 1):
            sent = [lc[w]["ports"][p]["tx_packets"] for p in (1, 2)]
            check(sent == [files[(1, w)], files[(2, w)]] and lc[w]["forwarded"] > 0,
                  "worker %d's TX counters match its queue files (%s)" % (w, sent))
        check(ps["ports"][0]["rx_packets"] >= got and ps["forwarded"] == got,
              "port 0 received every frame weft forwarded (%d, forwarded %d)" % (ps["ports"][0]["rx_packets"], got))

        # ARS on both workers.
        ports1 = dict((s, set(p for _, p, ph in v if ph == 1)) for s, v in seen.items())
        on2 = [s for s, v in ports1.items() if v == {2}]
        check(len(on2) >= FLOWS // 8 and sum(1 for v in ports1.values() if v == {1}) >= FLOWS // 8,
              "phase 1: ARS spreads the flows over ports 1 and 2 (%d on port 2)" % len(on2))
        check(all(len(v) == 1 for v in ports1.values()), "phase 1: each flow stays on its port")
        late2 = [s for s, v in seen.items() if (0, 2, 2) in v or (1, 2, 2) in v]
        check(not late2, "phase 2: nothing leaves port 2 once it is down (%d flows did)" % len(late2))
        moved = [s for s in on2 if any(ph == 2 for _, _, ph in seen[s])]
        c = ars.get("counters", {})
        # A reassignment moves a macro-flow bucket; two flows sharing a bucket move once.
        down = c.get("link_down_reassignments", -1)
        check(len(moved) > 0 and len(moved) * 0.8 <= down <= len(moved) and c.get("next_hop_reassignments") == down,
              "link-down reassignments %s = flows moved off port 2 (%d, across both workers), no other moves" % (
                  down, len(moved)))
        check(c.get("packets") == got, "ARS group packets %s = frames forwarded %d" % (c.get("packets"), got))
    finally:
        if weft is not None and weft.proc.poll() is None:
            weft.proc.kill()
        subprocess.run(["ip", "link", "del", VETH], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if weft is not None:
            print("\n".join(weft.text().splitlines()[-30:]))
    if failures:
        print("%d checks failed (files kept in %s)" % (len(failures), work))
        return 1
    shutil.rmtree(work, ignore_errors=True)
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
