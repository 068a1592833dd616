#!/usr/bin/env python3
"""`route load` while traffic flows: the real weft on net_pcap0 (replaying frames to 4096 flows
of 198.18.0-15.x forever) and two net_null egress ports, group 1 on port 1, group 2 on port 2.

198.18.0.0/16 and its sixteen /24s start on group 1. Route files then go in through the prompt,
one `route load` each, while the frames flow: a file of 20000 other routes that also moves
198.18.0-7.0/24 to group 2 and adds 198.18.8.0/25 to it (with two bad lines, which are reported
as FILE:LINE and counted while the rest goes in); a file that deletes the sixteen /24s and the
20000 others (the /16 takes their traffic back to port 1); and the same two again. Checks:
each load's summary (lines applied and refused, one publication); after each load, where the
frames go (port 2's share of what ports 1 and 2 sent over a second: half and a little more after
the first file, the /25's sixty-fourth after the second); no frame dropped, by any reason, over
the whole run (weft's totals at exit, after the TX buffers drained: received = forwarded); and
`show route json` at the end.
"""
import json
import os
import re
import shutil
import sys
import tempfile
import time

from weft_frames import udp4, write_pcap
from weft_session import READY, LiveWeft, eal_prefix

WEFT = sys.argv[1]
FLOWS = 4096
OTHER = 20000
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def dst_of(i):
    return "198.18.%d.%d" % (i % 16, 1 + (i >> 4) % 254)


class Weft(LiveWeft):
    def __init__(self, work):
        self.prefix = eal_prefix("route_load")
        pcap = os.path.join(work, "in.pcap")
        write_pcap(pcap, [udp4("10.1.%d.%d" % (i >> 8, i & 255), dst_of(i), 1024 + i, 5000, 64) for i in range(FLOWS)])
        setup = os.path.join(work, "setup.txt")
        lines = ["neigh add 10.9.1.2 02:00:00:00:01:02 port 1", "neigh add 10.9.2.2 02:00:00:00:02:02 port 2",
                 "nhg add 1 ports 1", "nhg add 2 ports 2", "route add 198.18.0.0/16 nhg 1"]
        lines += ["route add 198.18.%d.0/24 nhg 1" % k for k in range(16)]
        with open(setup, "w") as f:
            f.write("\n".join(lines) + "\n")
        args = [WEFT, "--no-huge", "--no-pci", "-m", "512", "-l", "0-1", "--file-prefix=" + self.prefix,
                "--log-level=lib.eal:warning", "--vdev=net_pcap0,rx_pcap=%s,infinite_rx=1" % pcap,
                "--vdev=net_null1,no-rx=1", "--vdev=net_null2,no-rx=1",
                "--", "-i", "--mbufs", str(FLOWS + 16384), "--cmdline-file", setup, "--run-time", "90"]
        self.start(args)

    def ask(self, line, pattern, timeout=60):
        """Types `line` and returns the first match of `pattern` in what follows its echo."""
        start = len(self.text())
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            m = re.search(pattern, self.text()[start:], re.S)
            if m:
                return m
            if self.proc.poll() is not None:
                return None
            time.sleep(0.05)
        return None

    def port_tx(self):
        m = self.ask("show port stats json", r'(\{"ports":\[.*?\],"rx_packets".*?\})\s*\n')
        if m is None:
            return None
        return {p["port"]: p["tx_packets"] for p in json.loads(m.group(1))["ports"]}


def share_of_port2(w, seconds=1.0):
    """Port 2's share of the frames ports 1 and 2 sent over `seconds`."""
    a = w.port_tx()
    time.sleep(seconds)
    b = w.port_tx()
    if a is None or b is None:
        return None
    d1, d2 = b[1] - a[1], b[2] - a[2]
    return d2 / float(d1 + d2) if d1 + d2 > 0 else None


def write_files(work):
    other = ["10.%d.%d.0/24" % (i // 256, i % 256) for i in range(OTHER)]
    first = os.path.join(work, "first.routes")
    with open(first, "w") as f:
        f.write("# other routes, then the traffic's\n")
        f.writelines("route add %s nhg 1\n" % p for p in other[:OTHER // 2])
        f.write("route add 10.255.0.0/8 nhg 1\n")  # host bits set: refused (line OTHER/2 + 2)
        f.writelines("route add %s nhg 2\n" % p for p in other[OTHER // 2:])
        f.writelines("route add 198.18.%d.0/24 nhg 2\n" % k for k in range(8))
        f.write("route add 198.18.8.0/25 nhg 2\n")
        f.write("route add 198.18.9.0/24 nhg 7\n")  # no group 7: refused (the last line)
    second = os.path.join(work, "second.routes")
    with open(second, "w") as f:
        f.writelines("route del 198.18.%d.0/24\n" % k for k in range(16))
        f.writelines("route del %s\n" % p for p in other)
    third = os.path.join(work, "third.routes")  # back to the start: the /24s on group 1 again
    with open(third, "w") as f:
        f.writelines("route add 198.18.%d.0/24 nhg 1\n" % k for k in range(16))
        f.write("route del 198.18.8.0/25\n")
    return first, second, third


def main():
    work = tempfile.mkdtemp(prefix="weft_route_load_")
    first, second, third = write_files(work)
    w = Weft(work)
    try:
        check(w.wait_for(READY, 120) is not None, "weft starts")
        time.sleep(1.0)
        s = share_of_port2(w)
        check(s is not None and s < 0.01, "before: every frame leaves by port 1 (port 2's share %s)" % s)
        for rnd in range(2):
            m = w.ask("route load " + first, r"route load \S+: (\d+) lines, (\d+) applied, (\d+) refused; .*?"
                                             r"(one publication|not published)")
            ok = m is not None and m.group(2) == str(OTHER + 9) and m.group(3) == "2" and m.group(4) == "one publication"
            check(ok, "round %d: the first file: %d applied, 2 refused, one publication (%s)" %
                  (rnd, OTHER + 9, m.group(0) if m else w.text()[-500:]))
            if rnd == 0:
                text = w.text()
                check(re.search(r"^  %s:%d: bad prefix 10\.255\.0\.0/8: host bits are set" %
                                (re.escape(first), OTHER // 2 + 2), text, re.M) is not None,
                      "the bad prefix is reported with its file and line")
                check(re.search(r"^  %s:%d: nhg 7 does not exist" % (re.escape(first), OTHER + 12), text, re.M)
                      is not None, "the missing group is reported with its file and line")
            s = share_of_port2(w)
            # 198.18.0-7/24 (8 of 16 flows' /24s) and the lower half of 198.18.8/24's hosts (1..127 of 1..254).
            want = 8 / 16.0 + (127 / 254.0) / 16
            check(s is not None and abs(s - want) < 0.03, "round %d: port 2 takes %.3f of the frames (%s)" %
                  (rnd, want, s))
            m = w.ask("route load " + second, r"route load \S+: (\d+) lines, (\d+) applied, (\d+) refused")
            check(m is not None and m.group(2) == str(OTHER + 16) and m.group(3) == "0",
                  "round %d: the second file deletes the /24s and the others (%s)" % (rnd, m.group(0) if m else None))
            s = share_of_port2(w)
            want = (127 / 254.0) / 16
            check(s is not None and abs(s - want) < 0.01, "round %d: the /16 takes the /24s' frames back, port 2 "
                  "keeps the /25's %.3f (%s)" % (rnd, want, s))
            m = w.ask("route load " + third, r"route load \S+: (\d+) lines, (\d+) applied, (\d+) refused")
            check(m is not None and m.group(2) == "17" and m.group(3) == "0",
                  "round %d: the third file puts the /24s back (%s)" % (rnd, m.group(0) if m else None))
        m = w.ask("show route json", r'(\{"routes":\[.*?\]\})\s*\n')
        routes = {r["prefix"]: r["nhg"] for r in json.loads(m.group(1))["routes"]} if m else {}
        expect = {"198.18.0.0/16": 1}
        expect.update({"198.18.%d.0/24" % k: 1 for k in range(16)})
        check(routes == expect, "the routes are the starting ones again (%d routes)" % len(routes))
        w.proc.stdin.write("quit\n")
        w.proc.stdin.flush()
        rc, out = w.finish(30)
        check(rc == 0, "weft exits 0 (rc=%s)" % rc)
        m = re.search(r"total: rx-packets (\d+) forwarded (\d+) replicas \d+ dropped (\d+)", out)
        check(m is not None and int(m.group(1)) > 100000 and m.group(3) == "0" and m.group(1) == m.group(2),
              "no frame lost while the routes changed: %s" % (m.group(0) if m else out[-300:]))
    finally:
        if w.proc.poll() is None:
            w.proc.kill()
            w.proc.wait()
    print("%d checks failed" % len(failures) if failures else "all checks passed")
    if failures:
        print("(files kept in %s)" % work)
        return 1
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
