"""ARN on a dragonfly of weft switches (issue 30, test 2), run by `scripts/fabric --shape dragonfly
--mode ethernet --arn` once the fabric is up: every switch is told its group (local links, the
group's global links, which of its next-hop groups lead to which destination group), a line rate
for its global links (--arn-speed, Mbit/s: veth has none, so congestion is measured against this
one), and ARN is switched on. Then a host behind the owner of group 0's global link to group 1
sends more than that rate across the link: the owner's detector reports it, every other switch
of group 0 receives the news, and their traffic toward group 1 leaves the port toward the owner
for the alternates; once the cross traffic stops, the elimination brings it back. Printed: the
detection-to-last-switch-updated latency (the owner's change sent to the last peer's change
taken, wall clock of one host) and each peer's share of packets toward the owner before, during
and after."""
import subprocess
import sys
import time


def group(name):
    return int(name[1])


def hex_guid(g):
    return "0x%x" % g


def configure(fab, speed, util_on, util_off, interval_us, window_us, hold, topology):
    """topology "sm": the group is the one the SM sends with each switch's table; "config": it is
    configured here, from the names of the switches (d<group><router>)."""
    sw = fab.topo.switches
    host_of_prefix = {fab.host_ip(h, 0) + "/24": h for h in fab.topo.hosts}
    problems = []
    for s in sw:
        g = group(s)
        lines = [] if topology == "config" else ["arn topology sm"]
        for a in (x for x in sw if group(x) == g and topology == "config"):
            for p, peer in enumerate(sw[a]):
                if peer not in sw:
                    continue
                if group(peer) == g and a < peer:
                    lines.append("arn link %s %d %s %d" % (hex_guid(fab.guids[a]), p, hex_guid(fab.guids[peer]),
                                                          sw[peer].index(a)))
                elif group(peer) != g:
                    lines.append("arn global %s %d group %d" % (hex_guid(fab.guids[a]), p, group(peer)))
        for p, peer in enumerate(sw[s]):
            if peer in sw and group(peer) != g:
                lines.append("arn port %d speed %d" % (p, speed))
        routes = fab.cli(s, "show route json", "routes") if topology == "config" else None
        nhg_group = {}
        for r in (routes or {"routes": []})["routes"]:
            h = host_of_prefix.get(r["prefix"])
            if h is not None and group(fab.topo.hosts[h]) != g:
                nhg_group[r["nhg"]] = group(fab.topo.hosts[h])
        lines += ["arn nhg %d group %d" % (n, d) for n, d in sorted(nhg_group.items())]
        lines += ["arn threshold util %d %d" % (util_on, util_off), "arn interval %d" % interval_us,
                  "arn window %d" % window_us, "arn hold %d" % hold, "arn enable"]
        for line in lines:
            fab.send(s, line)
            time.sleep(0.02)
    # The sampler's thread takes the new setup at its next step.
    for s in sw:
        end, st = time.monotonic() + 10, None
        while time.monotonic() < end:
            st = fab.cli(s, "show arn json", "bpt", timeout=10)
            if st is not None and st.get("enabled") and st.get("bpt") and st.get("topology") == topology:
                break
            time.sleep(0.2)
        if st is None or not st.get("enabled") or not st.get("bpt") or st.get("topology") != topology:
            problems.append("%s: ARN not on, no best-path table, or not the %s's group (%s)" %
                            (s, "SM" if topology == "sm" else "configured",
                             st and {k: st.get(k) for k in ("enabled", "topology", "group", "bpt")}))
    return problems


def port_tx(fab, s):
    st = fab.cli(s, "show port stats json", "ports") or {"ports": []}
    return {x["port"]: x["tx_packets"] for x in st["ports"]}


def shares(fab, peers, owner, seconds):
    """Per peer: packets it sent toward the owner and toward its other switch ports over `seconds`."""
    before = {s: port_tx(fab, s) for s in peers}
    time.sleep(seconds)
    out = {}
    for s in peers:
        after = port_tx(fab, s)
        sw = fab.topo.switches[s]
        to_owner = sum(after[p] - before[s].get(p, 0) for p, peer in enumerate(sw) if peer == owner)
        other = sum(after[p] - before[s].get(p, 0) for p, peer in enumerate(sw) if peer in fab.topo.switches and
                    peer != owner)
        out[s] = (to_owner, other)
    return out


def news_of(fab, s, owner_guid, port):
    st = fab.cli(s, "show arn json", "bpt") or {}
    for n in st.get("news", []):
        if n["switch"] == hex_guid(owner_guid) and n["port"] == port:
            return n
    return None


BLAST = r"""
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
dst, rate, seconds = (sys.argv[1], 9), int(sys.argv[2]), float(sys.argv[3])
payload, start, n = bytes(1000), time.monotonic(), 0
while time.monotonic() - start < seconds:
    for _ in range(2):
        s.sendto(payload, dst)
    n += 2
    ahead = n / rate - (time.monotonic() - start)
    if ahead > 0:
        time.sleep(ahead)
"""


def owner_port(fab, owner, port):
    st = fab.cli(owner, "show arn json", "bpt") or {}
    ports = st.get("ports", [])
    return ports[port] if port < len(ports) else {}


def settled(fab, owner, port, peers, owner_guid, condition, timeout):
    """Waits until the owner has told `condition` and every peer holds the news at the severity
    the owner last told, unchanged over two looks; returns (owner's port, {peer: news}) or
    (last look, partial) after `timeout`."""
    end, last = time.monotonic() + timeout, None
    told, got = {}, {}
    while time.monotonic() < end:
        told = owner_port(fab, owner, port)
        got = {}
        if told.get("told") == condition:
            for s in peers:
                n = news_of(fab, s, owner_guid, port)
                if n and n["condition"] == condition and n["severity"] == told.get("told_severity"):
                    got[s] = n
        look = (told.get("changed_at_us"), tuple(sorted((s, n["changed_at_us"]) for s, n in got.items())))
        if len(got) == len(peers) and look == last:
            return told, got
        last = look
        time.sleep(0.2)
    return told, got


def latency_us(told, got, peers):
    if len(got) != len(peers) or not told.get("changed_at_us"):
        return None
    return max(n["changed_at_us"] for n in got.values()) - told["changed_at_us"]


def scenario(fab, a, figures):
    """Returns 0 when every check passed."""
    sw = fab.topo.switches
    owner = next(s for s in sw if group(s) == 0 and any(p in sw and group(p) == 1 for p in sw[s]))
    port = next(i for i, p in enumerate(sw[owner]) if p in sw and group(p) == 1)
    peers = [s for s in sw if group(s) == 0 and s != owner]
    src = next(h for h, leaf in fab.topo.hosts.items() if leaf == owner)
    dst = next(h for h, leaf in fab.topo.hosts.items() if group(leaf) == 1)
    print("arn: congesting %s port %d (group 0 to group 1, modelled at %d Mbit/s) from %s to %s; group 0's other "
          "switches: %s" % (owner, port, a.arn_speed, src, dst, ", ".join(peers)), flush=True)
    topology = a.arn_topology
    if topology == "auto":
        # The SM tells the switches their group when it sees a dragonfly; groups of 2 switches
        # have no triangles, which is what it knows groups by.
        topology = "sm" if len([s for s in sw if group(s) == 0]) >= 3 else "config"
    print("arn: the group of each switch: %s" % ("as the SM found it" if topology == "sm" else "configured"))
    problems = configure(fab, a.arn_speed, 50, 30, a.arn_interval, a.arn_window, a.arn_hold, topology)
    for p in problems:
        print("arn: " + p)
    time.sleep(1.0)
    owner_guid = fab.guids[owner]
    quiet = owner_port(fab, owner, port)
    before = shares(fab, peers, owner, 2.0)
    rate = a.arn_speed * 1000 * 1000 // 8 // 1000 * 2  # twice the modelled rate, 1000-byte datagrams
    # The cross traffic runs until the news has settled and the shares meanwhile are measured.
    blaster = subprocess.Popen(["ip", "netns", "exec", fab.ns(src), sys.executable, "-c", BLAST, fab.host_ip(dst, 2),
                                str(rate), str(a.arn_seconds + 10)])
    try:
        told, got = settled(fab, owner, port, peers, owner_guid, "congested", a.arn_seconds)
        during = shares(fab, peers, owner, 2.0)
        sent_during = (owner_port(fab, owner, port), fab.cli(owner, "show arn json", "bpt") or {})
    finally:
        blaster.terminate()
        blaster.wait()
    told_clear, cleared = settled(fab, owner, port, peers, owner_guid, "clear", 10.0)
    time.sleep(1.0)
    after = shares(fab, peers, owner, 2.0)
    latency = latency_us(told, got, peers)
    latency_clear = latency_us(told_clear, cleared, peers)
    counters = (sent_during[1].get("counters") or {}).get("sent_by_type", {})
    rc = 0 if not problems else 1
    print("arn: before the cross traffic %s port %d told %s (utilization %s%%)" %
          (owner, port, quiet.get("told"), quiet.get("util_percent")))
    print("arn: %s detected congestion on port %d: %s (utilization %s%%, severity %s told)" %
          (owner, port, "yes" if told.get("told") == "congested" else "NO", told.get("util_percent"),
           told.get("told_severity")))
    print("arn: group 0's other switches with the news at that severity: %d of %d (%s)" %
          (len(got), len(peers), ", ".join("%s seq %s" % (s, n["sequence"]) for s, n in sorted(got.items()))))
    if latency is not None:
        print("arn: detection to last switch updated: %.3f ms (elimination: %s)" %
              (latency / 1000.0, "%.3f ms" % (latency_clear / 1000.0) if latency_clear is not None else "-"))
    print("arn: %s's messages while congested: %s" % (owner, counters))
    for s in peers:
        def share(x):
            return "%.0f%%" % (100.0 * x[0] / max(1, x[0] + x[1]))
        print("arn: %s packets toward %s of its switch ports: before %s, during %s, after %s" %
              (s, owner, share(before[s]), share(during[s]), share(after[s])))
    print("arn: elimination reached %d of %d" % (len(cleared), len(peers)))
    if quiet.get("told") == "congested" or told.get("told") != "congested" or len(got) != len(peers) or \
            len(cleared) != len(peers):
        rc = 1
    # Not failed on: a switch process starved of the CPU for longer than the window sends
    # nothing meanwhile, and its detector rightly sees the load gone.
    if counters.get("congestion-eliminated", 0) > 0:
        print("arn: %s told the congestion's end %d times while the cross traffic still ran" %
              (owner, counters["congestion-eliminated"]))
    for s in peers:
        moved = during[s][0] * (before[s][0] + before[s][1]) < before[s][0] * (during[s][0] + during[s][1])
        back = after[s][0] * (during[s][0] + during[s][1]) > during[s][0] * (after[s][0] + after[s][1])
        if not moved:
            print("arn: %s did not move traffic off the congested path" % s)
            rc = 1
        if not back:
            print("arn: %s did not bring traffic back after the elimination" % s)
            rc = 1
    figures["arn"] = {"owner": owner, "port": port, "topology": topology, "latency_us": latency, "elimination_latency_us": latency_clear,
                      "peers_told": len(got), "peers": len(peers), "cleared": len(cleared), "before": before,
                      "during": during, "after": after, "owner_sent_while_congested": counters}
    return rc
