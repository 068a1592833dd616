#!/usr/bin/env python3
"""weft-ca in two network namespaces joined by a veth pair, in weft's IB-over-Ethernet frames:
one runs as the SM of the two-node fabric (--sm -R minhop), the other as a plain CA. Checked from
both programs' JSON summaries: the SM discovers the peer CA, assigns both LIDs and activates both
ports; each sends LID-addressed data frames to the other and receives all of them, in order,
from the right source LID; a frame for a LID nobody has is counted as misdelivered, not taken.

    weft_ca_test.py WEFT_CA

The peer starts after the SM's first sweep, so the SM's resident sweeps must find it later.
Creates and removes its own namespaces only. Exit 77 (skipped) when not root or without netns.
"""
import json
import os
import subprocess
import sys
import time

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def sh(*args, check_rc=True):
    return subprocess.run(args, check=check_rc, capture_output=True, text=True)


class Pair:
    """Two namespaces and a veth pair between them, removed on exit."""

    def __init__(self):
        tag = f"{os.getpid() % 100000}"
        self.ns = [f"wca{tag}a", f"wca{tag}b"]
        self.ifs = [f"wca{tag}a", f"wca{tag}b"]

    def __enter__(self):
        for ns in self.ns:
            sh("ip", "netns", "add", ns)
        sh("ip", "link", "add", self.ifs[0], "type", "veth", "peer", "name", self.ifs[1])
        for ns, ifname in zip(self.ns, self.ifs):
            sh("ip", "link", "set", ifname, "netns", ns)
            sh("ip", "-n", ns, "link", "set", ifname, "up")
        return self

    def __exit__(self, *exc):
        for ns in self.ns:
            sh("ip", "netns", "del", ns, check_rc=False)


def start(weft_ca, ns, args):
    return subprocess.Popen(["ip", "netns", "exec", ns, weft_ca, "--json", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(proc, name):
    out, err = proc.communicate(timeout=60)
    if err.strip():
        print(f"{name} stderr:\n{err}")
    try:
        return proc.returncode, json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        failures.append(f"{name}: no JSON summary (rc {proc.returncode}): {out!r}")
        return proc.returncode, {}


def exchange(weft_ca, pair):
    count = 300
    common = ["--count", str(count), "--rate", "3000", "--expect", str(count), "--duration", "20"]
    sm = start(weft_ca, pair.ns[0], ["--if", pair.ifs[0], "--guid", "0x0002c90000001000", "--sm", "-R",
                                     "minhop", "--sweep", "300", "--send-to", "2", *common])
    time.sleep(0.5)  # the SM's first sweep finds nobody
    ca = start(weft_ca, pair.ns[1], ["--if", pair.ifs[1], "--guid", "0x0002c90000002000", "--desc", "peer",
                                     "--send-to", "1", *common])
    sm_rc, s = finish(sm, "sm")
    ca_rc, c = finish(ca, "ca")
    check(sm_rc == 0 and ca_rc == 0, f"both done (rc sm {sm_rc}, ca {ca_rc})")
    if not s or not c:
        return
    print(f"sm: lid {s['lid']}, {s['sm'].get('sweeps')} sweeps, last {s['sm'].get('outcome')} in "
          f"{s['sm'].get('seconds', 0) * 1000:.1f} ms; ca: lid {c['lid']}; "
          f"received {s['received']} / {c['received']}")
    check(s["sm"].get("outcome") == "programmed", f"the SM programmed the fabric: {s['sm']}")
    check(s["sm"].get("cas") == 2 and s["sm"].get("switches") == 0, f"2 CAs found: {s['sm']}")
    check(s["sm"]["sweeps"] >= 2, "the peer came after the first sweep: found by a later one")
    lids = {e["node_guid"]: e["lid"] for e in s["sm"].get("lids", [])}
    check(lids.get(s["node_guid"]) == s["lid"] == 1, f"SM's own LID 1: {lids}")
    check(lids.get(c["node_guid"]) == c["lid"] == 2, f"the peer's LID 2, as the SM assigned: {lids}")
    for name, x, peer in (("sm", s, c), ("ca", c, s)):
        check(x["port_state"] == "Active", f"{name}: port Active ({x['port_state']})")
        check(x["sm_lid"] == 1, f"{name}: SM LID 1 ({x['sm_lid']})")
        check(x["sent"] == count and x["send_failed"] == 0, f"{name}: sent {x['sent']}")
        check(x["received"] == count, f"{name}: received {x['received']} of {count}")
        flows = x["flows"]
        check(len(flows) == 1 and flows[0]["slid"] == peer["lid"], f"{name}: one flow, from the peer: {flows}")
        if flows:
            check(flows[0]["missing"] == 0 and flows[0]["reordered"] == 0 and flows[0]["highest_seq"] == count - 1,
                  f"{name}: every sequence number, in order: {flows[0]}")
        check(x["misdelivered"] == 0 and not x["frames_refused"] and x["sma_dropped"] == 0,
              f"{name}: nothing refused or dropped: {x['misdelivered']} {x['frames_refused']} {x['sma_dropped']}")
    check(c["smp_frames_in"] > 0 and c["smp_frames_in"] == c["smp_frames_out"],
          f"the CA answered every SMP frame ({c['smp_frames_in']} in, {c['smp_frames_out']} out)")


def misaddressed(weft_ca, pair):
    sm = start(weft_ca, pair.ns[0], ["--if", pair.ifs[0], "--guid", "0x1000", "--sm", "--receive",
                                     "--duration", "3"])
    ca = start(weft_ca, pair.ns[1], ["--if", pair.ifs[1], "--guid", "0x2000", "--send-to", "7", "--count", "50",
                                     "--linger", "0", "--duration", "10"])
    ca_rc, c = finish(ca, "ca")
    sm_rc, s = finish(sm, "sm")
    check(ca_rc == 0 and c.get("sent") == 50, f"50 frames to LID 7 sent (rc {ca_rc})")
    check(s.get("received") == 0 and s.get("misdelivered") == 50,
          f"LID 7 is nobody's: counted as misdelivered ({s.get('received')}, {s.get('misdelivered')})")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    weft_ca = sys.argv[1]
    if os.geteuid() != 0:
        print("SKIP: needs root (network namespaces, AF_PACKET)")
        return 77
    probe = f"wcaprobe{os.getpid() % 100000}"
    if sh("ip", "netns", "add", probe, check_rc=False).returncode != 0:
        print("SKIP: no network namespace support")
        return 77
    sh("ip", "netns", "del", probe, check_rc=False)
    with Pair() as pair:
        exchange(weft_ca, pair)
    with Pair() as pair:
        misaddressed(weft_ca, pair)
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
