#!/usr/bin/env python3
"""ARS in the real weft: an ARS next-hop group over egress ports 1, 2 and 3.

Port 0 (net_pcap, infinite_rx) replays a mix of two kinds of IPv4/UDP traffic for as long as it
is started: cross traffic (1400-byte frames to 10.2/16, plain ECMP group 2 = port 1 only), which
loads port 1, and 64 small ARS flows to 10.1/16 (ARS group 1 over ports 1, 2, 3). Ports 1-3 are
net_null sinks. The quality sampler sees port 1's load; the runs check where the ARS flows went:

  flowlet-quality (idle 1 us) and per-packet-quality: new flowlets / packets avoid port 1;
  fixed: the static choice does not move (no reassignment, port 1 keeps its share);
  per-packet-random: the flows spread over all three ports regardless of load;
  link-down: after `set link-down port 2` nothing more leaves port 2;
  primary/alternate (primary port 1, alternate port 2): with every port idle the primary carries
  the traffic; congested below its threshold it hands new flowlets to the alternate; with
  threshold 0 it keeps them.

ARS packets on port 1 = port 1's TX packets - group 2's packets (weft's own counters, read after
`port stop 0` ended the traffic). `show ars nhg 1 json` must agree with what the ports sent.
"""
import json
import os
import re
import shutil
import sys
import tempfile

from weft_frames import udp4, write_pcap
from weft_session import eal_prefix, run_steps

WEFT = sys.argv[1]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def traffic(work, cross):
    frames = []
    for k in range(64):
        frames.append(udp4("10.0.0.1", "10.1.%d.%d" % (k // 16, 1 + k % 16), 1000 + k, 4000 + k, 100))
        if cross:
            for j in range(3):
                frames.append(udp4("10.0.0.2", "10.2.0.%d" % (1 + (k + j) % 8), 2000, 3000, 1400))
    path = os.path.join(work, "in_%s.pcap" % ("cross" if cross else "plain"))
    write_pcap(path, frames)
    return path


SETUP = [
    "neigh add 10.9.1.2 02:00:00:00:01:02 port 1",
    "neigh add 10.9.2.2 02:00:00:00:02:02 port 2",
    "neigh add 10.9.3.2 02:00:00:00:03:02 port 3",
    "nhg add 2 ports 1",
    "route add 10.2.0.0/16 nhg 2",
    # Logarithmic load bands (Mbps at 10G): the congested port and the quiet ones land several
    # bands apart whatever rate this machine forwards at.
    "set ars profile sampling-interval 100",
    "set ars profile band 0 0 1", "set ars profile band 1 1 4", "set ars profile band 2 4 16",
    "set ars profile band 3 16 64", "set ars profile band 4 64 256", "set ars profile band 5 256 1024",
    "set ars profile band 6 1024 4096", "set ars profile band 7 4096 1000000",
]


# The profile's default bands (1.25 Gbps steps at 10G) and ports 1-3 scaled as 800G ports: the
# ARS flows alone leave every port in quality band 7 at any rate this machine forwards.
IDLE_SETUP = SETUP[:6] + ["set ars port %d speed 800" % p for p in (1, 2, 3)]


def run(name, pcap, commands, steps, setup=SETUP):
    """Starts weft with `commands` in a cmdline file, then feeds `steps` ((delay, line)...) on stdin."""
    work = os.path.dirname(pcap)
    cmds = os.path.join(work, name + ".txt")
    with open(cmds, "w") as f:
        f.write("\n".join(setup + commands) + "\n")
    args = [WEFT, "--no-huge", "--no-pci", "-m", "512", "-l", "0-1", "--file-prefix=" + eal_prefix("ars_" + name),
            "--log-level=lib.eal:warning",
            "--vdev=net_pcap0,rx_pcap=%s,tx_pcap=%s/%s_out0.pcap,infinite_rx=1" % (pcap, work, name),
            "--vdev=net_null1,no-rx=1", "--vdev=net_null2,no-rx=1", "--vdev=net_null3,no-rx=1",
            "--", "-i", "--cmdline-file", cmds, "--run-time", "25"]
    rc, out = run_steps(args, steps)
    print("---- %s ----" % name)
    print(out[-6000:])
    check(rc == 0, "%s: weft exits 0 (rc=%s)" % (name, rc))
    return out


def port_tx(block):
    """tx-packets per port from one `show port stats` output block."""
    tx = {}
    for port, pkts in re.findall(r"^port (\d+) \(.*?\n\s+rx-packets \d+ rx-bytes \d+ tx-packets (\d+)", block, re.M):
        tx[int(port)] = int(pkts)
    return tx


def stats_after(out, marker):
    """The output that follows the echoed command `marker`, up to the next prompt."""
    parts = out.split("weft> " + marker + "\n")
    return [p.split("weft> ")[0] for p in parts[1:]]


FINISH = [(0.3, "port stop 0"), (0.3, "show port stats"), (0.0, "show port stats json"), (0.0, "show nhg"),
          (0.0, "show nhg json"), (0.0, "show ars nhg 1 json"), (0.2, "quit")]


def ars_split(out, name):
    """Per-port ARS packets, the JSON of group 1, and the quality JSON at the end of a run."""
    tx = port_tx(stats_after(out, "show port stats")[-1])
    m = re.search(r"^nhg 2: members.*packets (\d+)", out, re.M)
    cross = int(m.group(1)) if m else 0
    js = [l for l in out.splitlines() if l.startswith('{"nhg":1,')]
    q = [l for l in out.splitlines() if l.startswith('{"rounds"')]
    g = json.loads(js[-1]) if js else {}
    # Readings taken while traffic ran; on a loaded box the worker may be descheduled for a few
    # milliseconds, so keep the one that saw port 1 busiest.
    readings = [json.loads(l) for l in q]
    quality = max(readings, key=lambda r: r["ports"][1]["past_mbps"]) if readings else {}
    pj = [json.loads(l) for l in out.splitlines() if l.startswith('{"ports"')]
    check(bool(pj) and dict((p["port"], p["tx_packets"]) for p in pj[-1]["ports"]) == tx,
          "%s: show port stats json agrees with show port stats" % name)
    nj = [json.loads(l) for l in out.splitlines() if l.startswith('{"nhgs"')]
    modes = dict((g["id"], (g["mode"], g["packets"])) for g in nj[-1]["nhgs"]) if nj else {}
    check(modes.get(2) == ("ecmp", cross) and modes.get(1, ("", 0))[0] == "ars",
          "%s: show nhg json lists group 1 as ars and group 2's packets (%s)" % (name, modes))
    ars = {1: tx.get(1, 0) - cross, 2: tx.get(2, 0), 3: tx.get(3, 0)}
    total = sum(ars.values())
    c = g.get("counters", {})
    check(total > 1000, "%s: ARS group forwarded enough packets (%d)" % (name, total))
    check(c.get("packets") == total,
          "%s: show ars nhg 1 json packets %s = ARS packets the ports sent %d" % (name, c.get("packets"), total))
    check(c.get("packet_drops") == 0, "%s: no ARS drops" % name)
    share = dict((p, ars[p] / total if total else 0) for p in ars)
    print("%s: ARS packets per port %s, shares %s, cross traffic %d" % (
        name, ars, dict((p, round(s, 3)) for p, s in share.items()), cross))
    return ars, share, c, quality, cross


# Quality readings while traffic runs; ars_split keeps the one that saw port 1 busiest (on a loaded
# machine a reading may fall where the worker was descheduled).
READINGS = [(2.0, "show ars quality json")] + [(0.2, "show ars quality json")] * 5


def primary_alternate(cross_pcap, plain_pcap):
    """The primary/alternate rule (ars/include/weft/ars/path_rule.hpp): port 1 is the primary,
    port 2 the alternate."""
    # 8. Every port idle (band 7), SAI's defaults (threshold 16, cost 0, bias 0): a tie stays on
    # the primary, so the alternate carries nothing.
    out = run("idle", plain_pcap, [
        "ars object add 1 mode flowlet-quality",
        "nhg add 1 ars 1 primary 1 alternate 2",
        "route add 10.1.0.0/16 nhg 1",
    ], [(1.5, "show ars quality json"), (0.2, "show ars quality json")] + FINISH, setup=IDLE_SETUP)
    ars, share, c, _, _ = ars_split(out, "idle")
    readings = [json.loads(l) for l in out.splitlines() if l.startswith('{"rounds"')]
    bands = [dict((p["port"], p["quality"]) for p in r["ports"]) for r in readings]
    check(len(bands) == 2 and all(b.get(1) == 7 and b.get(2) == 7 for b in bands),
          "idle: ports 1 and 2 read quality band 7 (%s)" % bands)
    check(ars[1] == sum(ars.values()) and ars[2] == 0,
          "idle: the primary port 1 carries every ARS packet, the alternate none (%s)" % ars)
    check(c.get("next_hop_reassignments") == 0, "idle: no flow moved (%s)" % c.get("next_hop_reassignments"))

    # 9. The primary congested by cross traffic, below its threshold (7: any load): new flowlets
    # (1 us idle time: every packet) go to the strictly better alternate.
    out = run("congested", cross_pcap, [
        "ars object add 1 mode flowlet-quality idle-time 1 max-flows 1024",
        "nhg add 1 ars 1 primary 1 alternate 2 threshold 7",
        "route add 10.1.0.0/16 nhg 1",
    ], READINGS + FINISH)
    ars, share, c, quality, cross = ars_split(out, "congested")
    bands = dict((p["port"], p["quality"]) for p in quality.get("ports", []))
    check(cross > 1000, "congested: cross traffic loaded port 1 (%d frames)" % cross)
    check(bands.get(1, 7) < min(7, bands.get(2, 0)),
          "congested: port 1 below the threshold and worse than port 2 (bands %s)" % bands)
    # Most, not all: on a loaded machine the sampler may read port 1 idle for a moment (the worker
    # descheduled), and a tie stays on the primary. The idle run above sends it nothing at all.
    check(share[2] > 0.5, "congested: new flowlets go to the alternate port 2 (share %.3f)" % share[2])
    check(c.get("next_hop_reassignments", 0) > 0, "congested: flowlets were reassigned to the alternate")

    # 10. The same congestion with threshold 0: a primary is never below it, so the traffic
    # stays on the primary however loaded it is.
    out = run("threshold0", cross_pcap, [
        "ars object add 1 mode flowlet-quality idle-time 1 max-flows 1024",
        "nhg add 1 ars 1 primary 1 alternate 2 threshold 0",
        "route add 10.1.0.0/16 nhg 1",
    ], READINGS + FINISH)
    ars, share, c, quality, cross = ars_split(out, "threshold0")
    bands = dict((p["port"], p["quality"]) for p in quality.get("ports", []))
    check(cross > 1000 and bands.get(1, 7) < bands.get(2, 0),
          "threshold0: port 1 congested, worse than port 2 (bands %s)" % bands)
    check(ars[2] == 0 and ars[1] == sum(ars.values()),
          "threshold0: every ARS packet stays on the primary port 1 (%s)" % ars)


def main():
    work = tempfile.mkdtemp(prefix="weft_ars_")
    cross_pcap = traffic(work, True)
    plain_pcap = traffic(work, False)

    # 1. flowlet-quality with a 1 us idle time: every packet of a flow starts a new flowlet
    # (the flow's next frame is one replay loop later), so each goes to the best port.
    out = run("flowlet", cross_pcap, [
        "set ars profile ewma-exponent 40",   # refused: out of range, names the attribute
        "ars object add 1 mode flowlet-quality idle-time 1 max-flows 1024",
        "nhg add 1 ars 1 primary 1,2,3",
        "nhg add 7 ars 1 primary 1 alternate 99",  # refused: no port 99
        "route add 10.1.0.0/16 nhg 1",
    ], [(2.0, "show ars quality json"), (0.2, "show ars quality json"), (0.2, "show ars quality json")] + FINISH)
    check("SAI_ARS_PROFILE_ATTR_PORT_LOAD_EXPONENT" in out and "allowed 1..16" in out,
          "flowlet: a refused profile value prints the attribute and its range")
    check(re.search(r"error: no port 99\nusage: nhg add <id> ars ", out) is not None,
          "flowlet: a bad member prints the group command's usage")
    check("done, 2 errors" in out, "flowlet: the two refused commands are counted")
    ars, share, c, quality, cross = ars_split(out, "flowlet")
    bands = dict((p["port"], p["quality"]) for p in quality.get("ports", []))
    check(cross > 1000, "flowlet: cross traffic loaded port 1 (%d frames)" % cross)
    check(bands.get(1, 7) < min(bands.get(2, 0), bands.get(3, 0)),
          "flowlet: the sampler rates port 1 worse than ports 2 and 3 (bands %s)" % bands)
    check(share[1] < 0.10, "flowlet: new flowlets avoid the congested port 1 (share %.3f)" % share[1])
    check(share[2] > 0.2 and share[3] > 0.2, "flowlet: ports 2 and 3 both carry ARS flowlets")
    check(c.get("decisions_flowlet_quality") == c.get("packets"), "flowlet: every packet decided in flowlet-quality")
    check(c.get("next_hop_reassignments", 0) > 0, "flowlet: flowlets were reassigned")

    # 2. per-packet-quality avoids the loaded port as well.
    out = run("ppq", cross_pcap, [
        "ars object add 1 mode per-packet-quality idle-time 100 max-flows 1024",
        "nhg add 1 ars 1 primary 1,2,3",
        "route add 10.1.0.0/16 nhg 1",
    ], [(2.5, "show ars nhg 1")] + FINISH)
    ars, share, c, _, _ = ars_split(out, "ppq")
    check(share[1] < 0.10, "ppq: per-packet-quality avoids port 1 (share %.3f)" % share[1])
    check(c.get("decisions_per_packet_quality") == c.get("packets"), "ppq: decisions counted per packet")

    # 3. fixed: the hash choice stays, congestion or not.
    out = run("fixed", cross_pcap, [
        "ars object add 1 mode fixed idle-time 1 max-flows 1024",
        "nhg add 1 ars 1 primary 1,2,3",
        "route add 10.1.0.0/16 nhg 1",
    ], [(2.5, "show ars nhg 1")] + FINISH)
    ars, share, c, _, _ = ars_split(out, "fixed")
    check(share[1] > 0.15, "fixed: port 1 keeps its flows despite the load (share %.3f)" % share[1])
    check(c.get("next_hop_reassignments") == 0 and c.get("port_reassignments") == 0,
          "fixed: no reassignment (%s, %s)" % (c.get("next_hop_reassignments"), c.get("port_reassignments")))
    check(c.get("decisions_fixed") == c.get("packets"), "fixed: every packet decided in fixed mode")

    # 4. per-packet-random spreads over every port, loaded or not.
    out = run("ppr", cross_pcap, [
        "ars object add 1 mode per-packet-random idle-time 1 max-flows 1024",
        "nhg add 1 ars 1 primary 1,2,3",
        "route add 10.1.0.0/16 nhg 1",
    ], [(2.5, "show ars nhg 1")] + FINISH)
    ars, share, c, _, _ = ars_split(out, "ppr")
    check(all(0.25 < share[p] < 0.42 for p in (1, 2, 3)),
          "ppr: packets spread evenly over ports 1-3 (%s)" % dict((p, round(s, 3)) for p, s in share.items()))

    # 5. A port with ARS disabled takes no ARS traffic (per-packet-random would otherwise use it).
    out = run("portoff", plain_pcap, [
        "ars object add 1 mode per-packet-random idle-time 1 max-flows 1024",
        "nhg add 1 ars 1 primary 1,2,3",
        "route add 10.1.0.0/16 nhg 1",
        "set ars port 3 disable",
        "set ars port 7 disable",  # refused: no port 7
    ], [(1.2, "show ars nhg 1")] + FINISH)
    check("error: no port 7" in out, "portoff: an unknown port is refused")
    ars, share, c, _, _ = ars_split(out, "portoff")
    check(ars[3] == 0 and ars[1] > 0 and ars[2] > 0,
          "portoff: nothing on the ARS-disabled port 3, ports 1 and 2 share the flows (%s)" % ars)
    check('"port":3,"usable":false' in out, "portoff: show ars nhg marks the member on port 3 not usable")

    # 6. ACL: flows to UDP ports 4000-4015 (16 of the 64) are taken off ARS and hashed statically.
    out = run("acl", cross_pcap, [
        "ars object add 1 mode per-packet-quality idle-time 100 max-flows 1024",
        "nhg add 1 ars 1 primary 1,2,3",
        "route add 10.1.0.0/16 nhg 1",
        "acl add 10 ip-version 4 proto 17 dport 4000-4015 action disable-ars",
        "acl add 5 dscp 99 action disable-ars",  # refused by the CLI: DSCP is 0..63
    ], [(2.5, "show ars nhg 1")] + FINISH)
    check("error: DSCP values are 0..63" in out, "acl: a bad DSCP is refused")
    ars, share, c, _, _ = ars_split(out, "acl")
    static = c.get("static_hash_decisions", 0)
    check(abs(static / max(1, c.get("packets", 1)) - 0.25) < 0.01,
          "acl: a quarter of the packets decided by static hash (%d of %s)" % (static, c.get("packets")))
    check(static + c.get("decisions_per_packet_quality", 0) == c.get("packets"),
          "acl: static-hash and ARS decisions add up to the packets")
    check(ars[1] > 0, "acl: statically hashed flows may use the congested port (%d packets)" % ars[1])

    # 7. link-down: long flowlets, no congestion; port 2 goes down under traffic.
    out = run("linkdown", plain_pcap, [
        "ars object add 1 mode flowlet-quality idle-time 1000000 max-flows 1024",
        "nhg add 1 ars 1 primary 1,2,3",
        "route add 10.1.0.0/16 nhg 1",
    ], [(0.5, "monitor start"), (1.0, "show port stats"), (0.0, "set link-down port 2"), (0.3, "show port stats"),
        (1.0, "show port stats")] + FINISH)
    blocks = [port_tx(b) for b in stats_after(out, "show port stats")]
    ars, share, c, _, _ = ars_split(out, "linkdown")
    if len(blocks) >= 3:
        before, after_down, later = blocks[0], blocks[1], blocks[2]
        check(before.get(2, 0) > 0, "linkdown: port 2 carried flows before (%d)" % before.get(2, 0))
        check(later.get(2) == after_down.get(2),
              "linkdown: nothing leaves port 2 once it is down (%s -> %s)" % (after_down.get(2), later.get(2)))
        check(later.get(1, 0) > after_down.get(1, 0) and later.get(3, 0) > after_down.get(3, 0),
              "linkdown: ports 1 and 3 keep forwarding")
    else:
        check(False, "linkdown: three port stats read")
    check(c.get("link_down_reassignments", 0) > 0,
          "linkdown: flows of port 2 moved at once (%s link-down reassignments)" % c.get("link_down_reassignments"))
    m = re.search(r'"port":2,"usable":true,"link_up":(\w+)', "\n".join(
        l for l in out.splitlines() if l.startswith('{"nhg":1,')))
    check(m is not None and m.group(1) == "false", "linkdown: show ars nhg reports port 2 link down")
    events = re.findall(r"^monitor: worker \d+ nhg 1 bucket \d+ member 1 -> \d+ \(port 2 -> port (\d)\) link-down$",
                        out, re.M)
    check(len(events) > 0 and set(events) <= {"1", "3"},
          "linkdown: monitoring reported the link-down moves off port 2 (%d events)" % len(events))

    primary_alternate(cross_pcap, plain_pcap)

    if failures:
        print("%d checks failed (files kept in %s)" % (len(failures), work))
        return 1
    shutil.rmtree(work, ignore_errors=True)
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
