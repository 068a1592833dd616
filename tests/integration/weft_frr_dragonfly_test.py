#!/usr/bin/env python3
"""weft under FRR in a dragonfly: three groups of one switch each, every pair joined by a global
link, each switch a weft with its Linux mirror (--linux-cp) under its own FRR (zebra with
dplane_fpm_nl into weft's FPM server, bgpd) in a network namespace of its own. BGP runs between
the switches over weft's ports; weft applies the dragonfly policy (`fpm policy weights`,
control/FRR_POLICY.md): the minimal path to a group is its ARS group's primary, the path through
the third group its alternate.

    host 1 --- S1 p0        S1 p1 ---- S2 p1        S2 p0 --- host 2
               S1 p2 ---- S3 p1        S3 p2 ---- S2 p2
    10.<i>.0.0/24 behind switch i; link a-b (a < b) 10.0.<ab>.0/30, a .1, b .2; AS 6500<i>.

BGP (FRR 8.4): every path is multipath (`bgp bestpath as-path ignore`, `multipath-relax`,
every path sent: `addpath-tx-all-paths`) and weighted by link bandwidth: a switch announces its
own prefix with 10 Mbps and a prefix it passes on with 1 Mbps, so zebra installs the minimal path
with weight 90 and the non-minimal one with weight 9; `primary-weight 20` splits them.

Checks, from host 1 to host 2 (UDP, 64 flows, numbered datagrams):
1. Every switch's FIB has the other groups' prefixes as ARS groups of the policy: at S1,
   10.2.0.0/24's primary is port 1 (S2), its alternate port 2 (through S3).
2. Idle: the flows take the primary.
3. The primary's global link congested by cross traffic (UDP to port 5001, kept on the primary
   by an ACL that takes it off ARS): new flowlets take the alternate (most of the flows' packets
   leave by port 2 meanwhile), and arrive.
4. The link S1-S2 cut under traffic (the peer's end set down): traffic continues on the
   alternate before BGP converges (the datagrams arrive again before S1's FIB changes); BGP
   converges and the group is changed in place (same NHG id, port 2 now its primary, no prefix
   moved). Measured: the gap at host 2, datagrams lost, time to the FIB update.
5. The link back: the group changes back in place.
Exit 77 (skip) when not root, without ip netns, /dev/net/tun or FRR's zebra, bgpd and
dplane_fpm_nl.
"""
import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time

from weft_session import LiveWeft, eal_prefix, frr_missing, sh, sysctl

WEFT = sys.argv[1]
PID = os.getpid()
TAG = "%05d" % (PID % 100000)
HERE = os.path.dirname(os.path.abspath(__file__))
FLOWS = os.path.join(HERE, "udp_flows.py")
ZEBRA, BGPD = "/usr/lib/frr/zebra", "/usr/lib/frr/bgpd"
FPM_MODULE = "dplane_fpm_nl"
SW = (1, 2, 3)
NS = {i: "frr3-s%d-%d" % (i, PID) for i in SW}
HOST = {i: "frr3-h%d-%d" % (i, PID) for i in (1, 2)}
# Each switch's ports: 0 its host, then its global links in the order of the other switches.
PEERS = {i: [j for j in SW if j != i] for i in SW}
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def link_addr(a, b):
    """Switch a's address on its link to switch b."""
    lo, hi = min(a, b), max(a, b)
    return "10.0.%d%d.%d" % (lo, hi, 1 if a == lo else 2)


def veth(a, b):
    """Switch a's end of its link to b (b = 'h': its host's link)."""
    return "g%s%s%s" % (a, b, TAG)


def port_ifaces(i):
    return [veth(i, "h")] + [veth(i, j) for j in PEERS[i]]


def skip_reason():
    if os.geteuid() != 0:
        return "not root"
    if subprocess.run(["ip", "netns", "list"], capture_output=True).returncode != 0:
        return "no ip netns"
    if not os.path.exists("/dev/net/tun"):
        return "no /dev/net/tun"
    return frr_missing((ZEBRA, BGPD), FPM_MODULE)


def no_offloads(ifname, ns):
    for feature in ("rx", "tx", "tso", "gso", "gro", "sg"):
        sh("ethtool", "-K", ifname, feature, "off", ns=ns, check_rc=False)


def setup():
    for ns in list(NS.values()) + list(HOST.values()):
        sh("ip", "netns", "add", ns)
        sh("ip", "link", "set", "lo", "up", ns=ns)
    for i in SW:
        # The kernel there forwards nothing (weft does) and sees only the TAPs: no ARP and strict
        # reverse-path filtering on weft's own veth ends (weft_linux_cp_test says why).
        sysctl("net/ipv4/ip_forward", 0, NS[i])
        sysctl("net/ipv4/conf/all/rp_filter", 1, NS[i])
        sysctl("net/ipv6/conf/all/disable_ipv6", 1, NS[i])
        sysctl("net/ipv6/conf/default/disable_ipv6", 1, NS[i])
    for a, b in ((1, 2), (1, 3), (2, 3)):
        sh("ip", "link", "add", veth(a, b), "netns", NS[a], "type", "veth", "peer", "name", veth(b, a),
           "netns", NS[b])
    for i in (1, 2):
        sh("ip", "link", "add", veth(i, "h"), "netns", NS[i], "type", "veth", "peer", "name", "hh%d%s" % (i, TAG),
           "netns", HOST[i])
    # S3's host port: a veth whose other end stays down in S3's namespace (no host there).
    sh("ip", "link", "add", veth(3, "h"), "netns", NS[3], "type", "veth", "peer", "name", "hh3" + TAG, "netns", NS[3])
    for i in SW:
        for ifname in port_ifaces(i):
            no_offloads(ifname, NS[i])
            sh("ip", "link", "set", ifname, "arp", "off", ns=NS[i])
            sysctl("net/ipv4/conf/%s/rp_filter" % ifname, 1, NS[i])
            sh("ip", "link", "set", ifname, "up", ns=NS[i])
    for i in (1, 2):
        h = "hh%d%s" % (i, TAG)
        no_offloads(h, HOST[i])
        sysctl("net/ipv6/conf/all/disable_ipv6", 1, HOST[i])
        sh("ip", "link", "set", h, "up", ns=HOST[i])
        sh("ip", "addr", "add", "10.%d.0.2/24" % i, "dev", h, ns=HOST[i])
        sh("ip", "route", "add", "default", "via", "10.%d.0.1" % i, ns=HOST[i])


def cleanup():
    for ns in list(NS.values()) + list(HOST.values()):
        out = subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True).stdout.split()
        for p in out:
            try:
                os.kill(int(p), 9)
            except (OSError, ValueError):
                pass
        subprocess.run(["ip", "netns", "del", ns], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


# weft's ARS: quality bands close enough together that this machine's rates move them (Mbps at
# 10G); flowlets of 50 us (every datagram of a flow starts one); the policy's rule leaves the
# primary only for an alternate 3 bands better (cost 2), so an idle fabric stays minimal.
WEFT_SETUP = [
    "set ars profile sampling-interval 100",
    "set ars profile band 0 0 2", "set ars profile band 1 2 4", "set ars profile band 2 4 8",
    "set ars profile band 3 8 16", "set ars profile band 4 16 32", "set ars profile band 5 32 64",
    "set ars profile band 6 64 128", "set ars profile band 7 128 1000000",
    "ars object add 1 mode flowlet-quality idle-time 50 max-flows 1024",
    "acl add 10 ip-version 4 proto 17 dport 5001 action disable-ars",
    "fpm policy weights primary-weight 20 object 1 cost 2",
]


class Weft(LiveWeft):
    def __init__(self, i, work):
        self.i = i
        self.prefix = eal_prefix("frr3_df%d" % i)
        cmds = os.path.join(work, "weft%d.txt" % i)
        with open(cmds, "w") as f:
            f.write("\n".join(WEFT_SETUP) + "\n")
        args = ["ip", "netns", "exec", NS[i], WEFT, "--no-huge", "--no-pci", "-m", "512", "-l", "0-1",
                "--file-prefix=" + self.prefix, "--log-level=lib.eal:warning"]
        args += ["--vdev=net_af_packet%d,iface=%s,qpairs=2" % (p, ifname) for p, ifname in enumerate(port_ifaces(i))]
        args += ["--", "-i", "--nb-cores", "1", "--rxq", "2", "--linux-cp", "--fpm", "--cmdline-file", cmds,
                 "--idle-sleep-max-us", "200", "--run-time", "280"]
        self.start(args)

    def group_of(self, prefix):
        """The NHG id of `prefix` in weft's FIB, and that ARS group's members (role, port)."""
        routes = self.ask_json("show route json", "routes")
        nhg = next((r["nhg"] for r in (routes or {}).get("routes", []) if r["prefix"] == prefix), None)
        if nhg is None:
            return None, None
        g = self.ask_json("show ars nhg %d json" % nhg, "nhg")
        return nhg, sorted((m["role"], m["port"]) for m in (g or {}).get("members", []))

    def tx(self):
        j = self.ask_json("show port stats json", "ports")
        return dict((p["port"], p["tx_packets"]) for p in j["ports"]) if j else {}


class Frr:
    """zebra (dplane_fpm_nl into the weft beside it) and bgpd in one switch's namespace, their
    sockets, configuration and logs in a directory of their own."""

    def __init__(self, i, work):
        self.i = i
        self.dir = os.path.join(work, "frr%d" % i)
        os.makedirs(self.dir)
        user = pwd.getpwnam("frr")
        os.chown(self.dir, user.pw_uid, user.pw_gid)
        with open(os.path.join(self.dir, "zebra.conf"), "w") as f:
            f.write("hostname s%d\nfpm address 127.0.0.1 port 2620\n" % i)
        b = ["hostname s%d" % i,
             "bgp as-path access-list OWN seq 5 permit ^$",
             "route-map LINK-BW permit 10", " match as-path OWN", " set extcommunity bandwidth 10", "exit",
             "route-map LINK-BW permit 20", " set extcommunity bandwidth 1", "exit",
             "router bgp 6500%d" % i, " bgp router-id 10.255.0.%d" % i, " no bgp ebgp-requires-policy",
             " bgp bestpath as-path ignore", " bgp bestpath as-path multipath-relax"]
        for j in PEERS[i]:
            b += [" neighbor %s remote-as 6500%d" % (link_addr(j, i), j),
                  " neighbor %s timers 1 3" % link_addr(j, i), " neighbor %s timers connect 1" % link_addr(j, i)]
        b += [" address-family ipv4 unicast", "  network 10.%d.0.0/24" % i, "  maximum-paths 8"]
        for j in PEERS[i]:
            b += ["  neighbor %s route-map LINK-BW out" % link_addr(j, i),
                  "  neighbor %s addpath-tx-all-paths" % link_addr(j, i)]
        b += [" exit-address-family"]
        with open(os.path.join(self.dir, "bgpd.conf"), "w") as f:
            f.write("\n".join(b) + "\n")
        self.procs = []

    def start(self):
        common = ["--vty_socket", self.dir, "-z", os.path.join(self.dir, "zserv.api"), "-u", "frr", "-g", "frr",
                  "-P", "0"]
        for name, exe, extra in (("zebra", ZEBRA, ["-M", FPM_MODULE]), ("bgpd", BGPD, [])):
            log = open(os.path.join(self.dir, name + ".out"), "a")
            self.procs.append(subprocess.Popen(
                ["ip", "netns", "exec", NS[self.i], exe] + extra + common +
                ["-f", os.path.join(self.dir, name + ".conf"), "-i", os.path.join(self.dir, name + ".pid"),
                 "--log", "file:" + os.path.join(self.dir, name + ".log")], stdout=log, stderr=subprocess.STDOUT))
            if name == "zebra":
                end = time.monotonic() + 15
                while not os.path.exists(os.path.join(self.dir, "zserv.api")) and time.monotonic() < end:
                    time.sleep(0.1)

    def kill(self):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
                p.wait()

    def established(self):
        out = sh("vtysh", "--vty_socket", self.dir, "-c", "show bgp ipv4 unicast summary json", ns=NS[self.i],
                 check_rc=False)
        try:
            peers = json.loads(out)["peers"]
        except (ValueError, KeyError):
            return 0
        return sum(1 for p in peers.values() if p.get("state") == "Established")


def wait_until(fn, timeout, step=0.2):
    end = time.monotonic() + timeout
    while True:
        v = fn()
        if v or time.monotonic() >= end:
            return v
        time.sleep(step)


def receiver():
    p = subprocess.Popen(["ip", "netns", "exec", HOST[2], "python3", FLOWS, "recv", "9000", "5001", "1.5"],
                         stdout=subprocess.PIPE, text=True)
    p.stdout.readline()  # ready
    return p


def sender(pps, seconds, flows=64):
    return subprocess.Popen(["ip", "netns", "exec", HOST[1], "python3", FLOWS, "send", "10.2.0.2", "9000",
                             str(flows), str(pps), str(seconds)], stdout=subprocess.PIPE, text=True)


def flood(seconds):
    # About 90 Mbps: port 1's quality band 1 under this test's bands, far below the alternate's 7,
    # without crowding out the flows where they share host 1's link.
    return subprocess.Popen(["ip", "netns", "exec", HOST[1], "python3", FLOWS, "flood", "10.2.0.2", "5001",
                             str(seconds), "1400", "8000"], stdout=subprocess.PIPE, text=True)


def finish(p):
    out, _ = p.communicate(timeout=120)
    lines = [l for l in out.splitlines() if l.startswith("{")]
    return json.loads(lines[-1]) if lines else {}


def flows_phase(s1, name, pps, seconds, with_flood):
    """Flows from host 1 for `seconds` (with cross traffic alongside): datagrams sent and
    received, and S1's packets out of ports 1 and 2 meanwhile."""
    rx = receiver()
    before = s1.tx()
    fl = flood(seconds + 1) if with_flood else None
    if fl:
        time.sleep(1)  # the cross traffic first: the sampler sees port 1 loaded
    tx = sender(pps, seconds)
    quality = None
    if with_flood:
        time.sleep(seconds / 2)
        quality = s1.ask_json("show ars quality json", "rounds")
    sent = finish(tx).get("sent", 0)
    crossed = finish(fl).get("sent", 0) if fl else 0
    after = s1.tx()
    got = finish(rx)
    delta = dict((p, after.get(p, 0) - before.get(p, 0)) for p in (1, 2))
    print("%s: sent %d, received %d; S1 port 1 +%d, port 2 +%d packets; cross traffic %d datagrams" % (
        name, sent, len(got.get("seq", [])), delta[1], delta[2], crossed))
    if quality:
        print("%s: S1 quality %s" % (name, [(q["port"], q["quality"], q["scaled_mbps"]) for q in quality["ports"]]))
    return sent, got, delta, crossed, quality


def main():
    why = skip_reason()
    if why:
        print("SKIP: " + why)
        return 77
    cleanup()
    work = tempfile.mkdtemp(prefix="weft_frr3_df_")
    os.chmod(work, 0o755)
    wefts, frrs = {}, {}
    try:
        setup()
        for i in SW:
            wefts[i] = Weft(i, work)
        for i in SW:
            check(wefts[i].wait_for(r"weft: cmdline-file \S+ done, 0 errors", 120) is not None,
                  "S%d: weft starts with its mirror, FPM server and policy" % i)
        # The switches' addresses, as on any router: on the TAPs.
        for i in SW:
            sh("ip", "addr", "add", "10.%d.0.1/24" % i, "dev", "weft0", ns=NS[i])
            for p, j in enumerate(PEERS[i], start=1):
                sh("ip", "addr", "add", link_addr(i, j) + "/30", "dev", "weft%d" % p, ns=NS[i])
        for i in SW:
            frrs[i] = Frr(i, work)
            frrs[i].start()
        ok = wait_until(lambda: all(frrs[i].established() == 2 for i in SW), 60, 0.5)
        check(ok, "BGP: every switch has its two sessions established over weft's ports")
        # The hosts resolve their gateways (the mirror hands the kernel's neighbours to weft).
        for i in (1, 2):
            sh("ping", "-c", "1", "-W", "2", "10.%d.0.1" % i, ns=HOST[i], check_rc=False)

        # 1. The policy's groups.
        def s1_group():
            nhg, members = wefts[1].group_of("10.2.0.0/24")
            return (nhg, members) if members == [("alternate", 2), ("primary", 1)] else None
        got = wait_until(s1_group, 40, 0.5)
        nhg, members = got or wefts[1].group_of("10.2.0.0/24")
        check(got is not None, "S1: 10.2.0.0/24 is ARS group %s, primary port 1 (S2), alternate port 2 (S3): %s"
              % (nhg, members))
        for i, prefix, want in ((1, "10.3.0.0/24", [("alternate", 1), ("primary", 2)]),
                                (2, "10.1.0.0/24", [("alternate", 2), ("primary", 1)]),
                                (3, "10.2.0.0/24", [("alternate", 1), ("primary", 2)])):
            g = wait_until(lambda: (lambda r: r if r[1] == want else None)(wefts[i].group_of(prefix)), 20, 0.5)
            check(g is not None, "S%d: %s has the minimal path primary, the other alternate (%s)" % (
                i, prefix, (g or wefts[i].group_of(prefix))[1]))
        f = wefts[1].ask_json("show fpm json", "state")
        pol = (f or {}).get("policy") or {}
        print("S1 show fpm policy:", json.dumps(pol))
        check(pol.get("source") == "weights" and pol.get("groups", 0) >= 2 and pol.get("refused_prefixes") == 0,
              "S1: the policy holds its prefixes in ARS groups, none refused")
        check((f or {}).get("ignored", {}).get("kernel_route", 0) > 0 and (f or {}).get("pending_total") == 0,
              "S1: zebra's connected routes are left to the mirror (%s ignored), nothing pending" %
              (f or {}).get("ignored", {}).get("kernel_route"))
        # The hosts' routes: traffic reaches host 2 only when S2 knows it.
        wait_until(lambda: any(r["prefix"] == "10.2.0.2/32" for r in
                               (wefts[2].ask_json("show route json", "routes") or {}).get("routes", [])), 20, 0.5)

        # 2. Idle: the minimal path.
        sent, got, delta, _, _ = flows_phase(wefts[1], "idle", 1000, 3, False)
        n = len(got.get("seq", []))
        check(sent > 1000 and n >= sent * 0.99, "idle: host 2 receives the flows (%d of %d)" % (n, sent))
        check(delta[1] >= sent * 0.9 and delta[2] < sent * 0.05,
              "idle: the flows take the primary, port 1 (+%d), not the alternate (+%d)" % (delta[1], delta[2]))

        # 3. The primary's global link congested: new flowlets take the alternate.
        before = wefts[1].ask_json("show ars nhg %d json" % nhg, "nhg")
        sent, got, delta, crossed, quality = flows_phase(wefts[1], "congested", 1000, 4, True)
        after = wefts[1].ask_json("show ars nhg %d json" % nhg, "nhg")
        n = len(got.get("seq", []))
        moved = (after or {}).get("counters", {}).get("next_hop_reassignments", 0) - \
            (before or {}).get("counters", {}).get("next_hop_reassignments", 0)
        check(delta[2] > sent * 0.5,
              "congested: most of the flows' packets leave by the alternate, port 2 (+%d of %d sent; %d "
              "reassignments)" % (delta[2], sent, moved))
        check(n >= sent * 0.9, "congested: host 2 receives them (%d of %d)" % (n, sent))

        # 4. The link S1-S2 cut under traffic.
        rx = receiver()
        tx = sender(2000, 8)
        time.sleep(2.5)
        t_cut = time.monotonic()
        sh("ip", "link", "set", veth(2, 1), "down", ns=NS[2])
        t_fib = None
        samples = []
        cut_quality = cut_group = None
        while time.monotonic() - t_cut < 6:
            if cut_quality is None and time.monotonic() - t_cut > 1:
                cut_quality = wefts[1].ask_json("show ars quality json", "rounds")
                cut_group = wefts[1].ask_json("show ars nhg %d json" % nhg, "nhg")
            g = wefts[1].group_of("10.2.0.0/24")
            samples.append((round(time.monotonic() - t_cut, 3), g))
            if g[1] == [("primary", 2)]:
                t_fib = time.monotonic()
                break
            time.sleep(0.02)
        sent = finish(tx).get("sent", 0)
        got = finish(rx)
        seq, sent_at, recv_at = got.get("seq", []), got.get("sent", []), got.get("recv", [])
        after_cut = [k for k in range(len(seq)) if sent_at[k] >= t_cut]
        lost = sent - len(set(seq))
        # The gap: the longest time host 2 went without a datagram around the cut.
        times = sorted(recv_at)
        gap, gap_end = 0.0, None
        for a, b in zip(times, times[1:]):
            if b > t_cut - 0.5 and b - a > gap:
                gap, gap_end = b - a, b
        resumed = gap_end  # host 2 hears the flows again: they cross the alternate
        print("cut: FIB samples %s" % samples[-3:])
        print("cut: S1 at the cut + 1 s: quality %s; group counters %s" % (
            [(q["port"], q["quality"], q["link_up"], q["backlog_bytes"]) for q in (cut_quality or {}).get("ports", [])],
            dict((k, v) for k, v in ((cut_group or {}).get("counters") or {}).items() if "reassign" in k)))
        print("cut: sent %d, received %d, lost %d; host 2 heard nothing for %.1f ms, until %.3f s after the cut; "
              "S1's FIB changed %.3f s after the cut" % (
                  sent, len(seq), lost, gap * 1000, (gap_end or t_cut) - t_cut, (t_fib or t_cut) - t_cut))
        check(t_fib is not None and g[0] == nhg,
              "cut: BGP converged and S1 changed group %s in place (same id, port 2 its primary: %s)" % (nhg, g))
        check(resumed is not None and t_fib is not None and resumed < t_fib,
              "cut: traffic continued on the alternate before BGP converged (%.3f s < %.3f s after the cut)" % (
                  (resumed or t_cut) - t_cut, (t_fib or t_cut) - t_cut))
        before_cut = 1 + max((seq[k] for k in range(len(seq)) if sent_at[k] < t_cut), default=-1)
        check(len(after_cut) >= (sent - before_cut) * 0.9,
              "cut: the datagrams sent after the cut arrive (%d of %d)" % (len(after_cut), sent - before_cut))
        f = wefts[1].ask_json("show fpm json", "state")
        pol = (f or {}).get("policy") or {}
        check(pol.get("groups_changed_in_place", 0) >= 1 and pol.get("prefixes_moved") == 0,
              "cut: groups changed in place %s, prefixes moved %s" % (
                  pol.get("groups_changed_in_place"), pol.get("prefixes_moved")))
        print("FAILOVER gap_ms=%.1f lost=%d fib_update_ms=%.0f" % (gap * 1000, lost, ((t_fib or t_cut) - t_cut) * 1000))

        # 5. The link back: the same group takes its alternate back.
        sh("ip", "link", "set", veth(2, 1), "up", ns=NS[2])
        back = wait_until(lambda: (lambda r: r if r[1] == [("alternate", 2), ("primary", 1)] else None)(
            wefts[1].group_of("10.2.0.0/24")), 40, 0.5)
        check(back is not None and back[0] == nhg, "restored: BGP back, group %s in place again (%s)" % (
            nhg, back or wefts[1].group_of("10.2.0.0/24")))
    finally:
        for f in frrs.values():
            f.kill()
        for i, w in wefts.items():
            rc, out = w.finish(30)
            check(rc == 0, "S%d: weft exits cleanly (rc %s)" % (i, rc))
            if failures:
                print("---- S%d weft output (tail) ----\n%s" % (i, out[-2500:]))
        if failures:
            for i in frrs:
                for name in ("zebra.log", "bgpd.log"):
                    p = os.path.join(work, "frr%d" % i, name)
                    if os.path.exists(p):
                        print("---- S%d %s (tail) ----\n%s" % (i, name, open(p).read()[-1500:]))
        cleanup()
        shutil.rmtree(work, ignore_errors=True)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
