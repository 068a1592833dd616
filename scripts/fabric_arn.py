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


def configure(fab, speed, util_on, util_off, interval_us):
    sw = fab.topo.switches
    host_of_prefix = {fab.host_ip(h, 0) + "/24": h for h in fab.topo.hosts}
    problems = []
    for s in sw:
        g = group(s)
        lines = []
        for a in (x for x in sw if group(x) == g):
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
        routes = fab.cli(s, "show route json", "routes") or {"routes": []}
        nhg_group = {}
        for r in routes["routes"]:
            h = host_of_prefix.get(r["prefix"])
            if h is not None and group(fab.topo.hosts[h]) != g:
                nhg_group[r["nhg"]] = group(fab.topo.hosts[h])
        lines += ["arn nhg %d group %d" % (n, d) for n, d in sorted(nhg_group.items())]
        lines += ["arn threshold util %d %d" % (util_on, util_off), "arn interval %d" % interval_us, "arn enable"]
        for line in lines:
            fab.send(s, line)
            time.sleep(0.02)
        st = fab.cli(s, "show arn json", "bpt", timeout=10)
        if st is None or not st.get("enabled") or not st.get("bpt"):
            problems.append("%s: ARN not on, or no best-path table (%s)" % (s, st and st.get("bpt")))
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


def wait_news(fab, peers, owner_guid, port, condition, timeout):
    got, end = {}, time.monotonic() + timeout
    while time.monotonic() < end and len(got) < len(peers):
        for s in peers:
            if s not in got:
                n = news_of(fab, s, owner_guid, port)
                if n and n["condition"] == condition:
                    got[s] = n
        time.sleep(0.1)
    return got


BLAST = r"""
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
dst, rate, seconds = (sys.argv[1], 9), int(sys.argv[2]), float(sys.argv[3])
payload, start, n = bytes(1000), time.monotonic(), 0
while time.monotonic() - start < seconds:
    for _ in range(20):
        s.sendto(payload, dst)
    n += 20
    ahead = n / rate - (time.monotonic() - start)
    if ahead > 0:
        time.sleep(ahead)
"""


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
    problems = configure(fab, a.arn_speed, 50, 30, a.arn_interval)
    for p in problems:
        print("arn: " + p)
    time.sleep(1.0)
    before = shares(fab, peers, owner, 2.0)
    rate = a.arn_speed * 1000 * 1000 // 8 // 1000 * 2  # twice the modelled rate, 1000-byte datagrams
    blaster = subprocess.Popen(["ip", "netns", "exec", fab.ns(src), sys.executable, "-c", BLAST, fab.host_ip(dst, 2),
                                str(rate), str(a.arn_seconds)])
    owner_guid = fab.guids[owner]
    detected = {}
    end = time.monotonic() + a.arn_seconds
    while time.monotonic() < end:
        st = fab.cli(owner, "show arn json", "bpt") or {}
        p = st.get("ports", [{}] * (port + 1))[port]
        if p.get("told") == "congested":
            detected = p
            break
        time.sleep(0.1)
    got = wait_news(fab, peers, owner_guid, port, "congested", 5.0)
    during = shares(fab, peers, owner, 2.0)
    blaster.wait()
    cleared = wait_news(fab, peers, owner_guid, port, "clear", 15.0)
    time.sleep(1.0)
    after = shares(fab, peers, owner, 2.0)
    latency = None
    if detected and len(got) == len(peers):
        latency = max(n["changed_at_us"] for n in got.values()) - detected["changed_at_us"]
    rc = 0 if not problems else 1
    print("arn: %s detected congestion on port %d: %s (utilization %s%%, severity %s)" %
          (owner, port, "yes" if detected else "NO", detected.get("util_percent"), detected.get("severity")))
    print("arn: group 0's other switches with the news: %d of %d (%s)" %
          (len(got), len(peers), ", ".join("%s seq %s" % (s, n["sequence"]) for s, n in sorted(got.items()))))
    if latency is not None:
        print("arn: detection to last switch updated: %.3f ms" % (latency / 1000.0))
    for s in peers:
        def share(x):
            return "%.0f%%" % (100.0 * x[0] / max(1, x[0] + x[1]))
        print("arn: %s packets toward %s of its switch ports: before %s, during %s, after %s" %
              (s, owner, share(before[s]), share(during[s]), share(after[s])))
    print("arn: elimination reached %d of %d" % (len(cleared), len(peers)))
    if not detected or len(got) != len(peers) or len(cleared) != len(peers):
        rc = 1
    for s in peers:
        if not during[s][0] * (before[s][0] + before[s][1]) < before[s][0] * (during[s][0] + during[s][1]):
            print("arn: %s did not move traffic off the congested path" % s)
            rc = 1
    figures["arn"] = {"owner": owner, "port": port, "latency_us": latency, "peers_told": len(got),
                      "peers": len(peers), "cleared": len(cleared), "before": before, "during": during,
                      "after": after}
    return rc
