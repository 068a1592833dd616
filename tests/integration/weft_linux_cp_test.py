#!/usr/bin/env python3
"""The Linux control-plane mirror (--linux-cp): weft runs in a network namespace of its own, where
it makes a TAP per port (weft0, weft1) with the port's MAC; two Linux hosts sit on its ports.

    host A (netns lcp-a-<pid>)        weft's netns lcp-w-<pid>             host B (netns lcp-b-<pid>)
    hA 10.20.1.2/24 <-- veth --> wA  port 0 / weft0 10.20.1.1/24
                                     port 1 / weft1 10.20.2.1/24  wB <-- veth --> hB 10.20.2.2/24

The switch's addresses are given with `ip addr` on the TAPs, as on any router. The kernel there answers nothing on
weft's own veth ends (no ARP, strict reverse-path filter), so only the TAPs reach its stack, and IP forwarding
stays off in weft's namespace, so the kernel there cannot forward: a packet that crosses from one
host to the other was forwarded by weft's workers.

Checks: A pings 10.20.1.1 (ARP answered by the kernel through weft0, the echo too); weft learns
the addresses (`show linux-cp json`) and the kernel's neighbour for A with hA's MAC; a route from
the FPM server through B, which nothing has resolved yet, is held for its neighbour until the
mirror has the kernel resolve B (a managed neighbour entry), then installed; B pings A
through the switch (B's gateway 10.20.2.1 resolved by the kernel, then the workers route with the
learned MACs: replies arrive with TTL 63) while weft's forwarded-frame counter grows; the
neighbour's host route is in `show route`; the kernel's addresses are the switch's host subnets
(`show sma json`), `port N ip [del]` puts them on and takes them off the TAP, a fabric port's
address is no host subnet; an address deleted with `ip addr del` leaves weft; a
link cut (hA down) takes weft0's carrier down and back up. Namespaces are always removed. Exit 77
(skip) when not root, without `ip netns` or /dev/net/tun.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import fpm_frames
from weft_session import LiveWeft, eal_prefix, sh, sysctl

WEFT = sys.argv[1]
PID = os.getpid()
TAG = "%05d" % (PID % 100000)
NS_W, NS_A, NS_B = "lcp-w-%d" % PID, "lcp-a-%d" % PID, "lcp-b-%d" % PID
WA, HA, WB, HB = "wA" + TAG, "hA" + TAG, "wB" + TAG, "hB" + TAG
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def no_offloads(ifname, ns):
    for feature in ("rx", "tx", "tso", "gso", "gro", "sg"):
        sh("ethtool", "-K", ifname, feature, "off", ns=ns, check_rc=False)


def setup():
    for ns in (NS_W, NS_A, NS_B):
        sh("ip", "netns", "add", ns)
        sh("ip", "link", "set", "lo", "up", ns=ns)
    sysctl("net/ipv4/ip_forward", 0, NS_W)
    sysctl("net/ipv4/conf/all/rp_filter", 1, NS_W)
    for w, h, ns, addr in ((WA, HA, NS_A, "10.20.1.2/24"), (WB, HB, NS_B, "10.20.2.2/24")):
        sh("ip", "link", "add", w, "netns", NS_W, "type", "veth", "peer", "name", h, "netns", ns)
        for side, sns in ((w, NS_W), (h, ns)):
            sysctl("net/ipv6/conf/%s/disable_ipv6" % side, 1, sns)
            no_offloads(side, sns)
            sh("ip", "link", "set", side, "up", ns=sns)
        sh("ip", "addr", "add", addr, "dev", h, ns=ns)
        # weft's veth ends carry its MACs, which are the TAPs' too: the kernel of weft's namespace
        # must not answer through them for the TAPs' addresses (weak host). No ARP on them, and
        # strict reverse-path filtering drops IP arriving there (its source is reached through
        # the TAP). The packet sockets of net_af_packet have their copy before either.
        sh("ip", "link", "set", w, "arp", "off", ns=NS_W)
        sysctl("net/ipv4/conf/%s/rp_filter" % w, 1, NS_W)
    sh("ip", "route", "add", "default", "via", "10.20.1.1", ns=NS_A)
    sh("ip", "route", "add", "default", "via", "10.20.2.1", ns=NS_B)


def cleanup():
    for ns in (NS_A, NS_B, NS_W):
        subprocess.run(["ip", "netns", "del", ns], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def mac_of(ifname, ns):
    return sh("cat", "/sys/class/net/%s/address" % ifname, ns=ns).strip()


class Weft(LiveWeft):
    def __init__(self, work):
        self.prefix = eal_prefix("lcp")
        cmds = os.path.join(work, "lcp.txt")
        with open(cmds, "w") as f:
            f.write("show linux-cp\n")
        args = ["ip", "netns", "exec", NS_W, WEFT, "--no-huge", "--no-pci", "-m", "512", "-l", "0-1",
                "--file-prefix=" + self.prefix, "--log-level=lib.eal:warning",
                "--vdev=net_af_packet0,iface=%s,qpairs=2" % WA, "--vdev=net_af_packet1,iface=%s,qpairs=2" % WB,
                "--", "-i", "--nb-cores", "1", "--rxq", "2", "--linux-cp", "--fpm", "--cmdline-file", cmds,
                "--idle-sleep-max-us", "500", "--run-time", "150"]
        self.start(args)

    def ask_json(self, command, key, timeout=10):
        """The JSON object weft prints for `command` (one line starting with {"<key>")."""
        start = len(self.text())
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            m = re.search(r'^(\{"%s".*\})\s*$' % key, self.text()[start:], re.M)
            if m:
                return json.loads(m.group(1))
            time.sleep(0.05)
        return None

    def ask(self, command, pattern, timeout=10):
        start = len(self.text())
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            m = re.search(pattern, self.text()[start:], re.M)
            if m:
                return m
            time.sleep(0.05)
        return None


def wait_until(what, fn, timeout=10):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = fn()
        if v:
            return v
        time.sleep(0.2)
    return fn()


def ping(ns, dst, count=3):
    r = subprocess.run(["ip", "netns", "exec", ns, "ping", "-n", "-c", str(count), "-i", "0.2", "-W", "2", dst],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=30)
    received = re.search(r"(\d+) received", r.stdout)
    ttls = [int(t) for t in re.findall(r"ttl=(\d+)", r.stdout)]
    return (int(received.group(1)) if received else 0), ttls, r.stdout


def fpm_route_through_b(w):
    """A route from zebra (as the FPM server hears it) through host B, whom the kernel has not
    resolved: held for its neighbour, then installed once the mirror had the kernel resolve B."""
    ifindex = int(sh("cat", "/sys/class/net/weft1/ifindex", ns=NS_W).strip())
    msg = fpm_frames.frame(fpm_frames.route("10.99.0.0/24", gateway="10.20.2.2", oif=ifindex))
    sh("python3", "-c", "import socket,sys\ns=socket.create_connection(('127.0.0.1',2620))\n"
       "s.sendall(bytes.fromhex(sys.argv[1]))\nimport time\ntime.sleep(1)", msg.hex(), ns=NS_W)
    first = w.ask_json("show fpm json", "state")
    print("     fpm right after the route: pending %s" % (first or {}).get("pending"))

    def installed():
        routes = (w.ask_json("show route json", "routes") or {}).get("routes", [])
        return next((r for r in routes if r["prefix"] == "10.99.0.0/24"), None)
    route = wait_until("fpm route", installed, timeout=15)
    neigh = sh("ip", "-d", "neigh", "show", "10.20.2.2", "dev", "weft1", ns=NS_W, check_rc=False).strip()
    lcp = w.ask_json("show linux-cp json", "interfaces") or {}
    check(route is not None and "managed" in neigh and lcp.get("resolutions_asked", 0) >= 1,
          "a route through B, held until the mirror had the kernel resolve B (%s; asked %s), is installed" %
          (neigh, lcp.get("resolutions_asked")))
    f = w.ask_json("show fpm json", "state") or {}
    check(f.get("pending_total") == 0 and f.get("held_applied", 0) >= 1,
          "the FPM server applied the held route (held then applied %s)" % f.get("held_applied"))
    # Gone again, so that no group holds B's MAC when the kernel later forgets B.
    msg = fpm_frames.frame(fpm_frames.route("10.99.0.0/24", add=False))
    sh("python3", "-c", "import socket,sys\ns=socket.create_connection(('127.0.0.1',2620))\n"
       "s.sendall(bytes.fromhex(sys.argv[1]))\nimport time\ntime.sleep(1)", msg.hex(), ns=NS_W)
    gone = wait_until("fpm route gone", lambda: installed() is None, timeout=10)
    check(gone, "and leaves weft when zebra deletes it")


BGPD = "/usr/lib/frr/bgpd"
BGP_CONF = {
    "a": """router bgp 65002
 bgp router-id 10.20.1.2
 no bgp ebgp-requires-policy
 no bgp network import-check
 neighbor 10.20.1.1 remote-as 65001
 neighbor 10.20.1.1 timers connect 1
 address-family ipv4 unicast
  network 10.99.0.0/24
 exit-address-family
""",
    "w": """router bgp 65001
 bgp router-id 10.20.1.1
 no bgp ebgp-requires-policy
 neighbor 10.20.1.2 remote-as 65002
 neighbor 10.20.1.2 timers connect 1
""",
}


def bgp_peering(work):
    """FRR's bgpd in weft's namespace peers with a bgpd on host A through weft0 (eBGP: TTL 1, so
    the punt comes before the TTL test) and receives A's prefix. Without zebra (-Z): this is the
    mirror's part, not the FPM's. Skipped without FRR."""
    if not os.path.exists(BGPD):
        print("skip BGP: no %s" % BGPD)
        return
    pids = []
    try:
        for side, ns in (("a", NS_A), ("w", NS_W)):
            d = os.path.join(work, "bgp-" + side)
            os.makedirs(d)
            os.chmod(d, 0o777)
            conf = os.path.join(d, "bgpd.conf")
            with open(conf, "w") as f:
                f.write(BGP_CONF[side])
            sh(BGPD, "-d", "-Z", "-S", "-f", conf, "-i", os.path.join(d, "bgpd.pid"), "--vty_socket", d,
               "-P", "0", "--log", "file:" + os.path.join(d, "log"), ns=ns)
            pids.append(os.path.join(d, "bgpd.pid"))

        def summary():
            out = sh("vtysh", "--vty_socket", os.path.join(work, "bgp-w"), "-d", "bgpd", "-c",
                     "show bgp ipv4 unicast summary json", ns=NS_W, check_rc=False)
            try:
                peer = json.loads(out)["peers"]["10.20.1.2"]
            except (ValueError, KeyError):
                return None
            return peer if peer.get("state") == "Established" and peer.get("pfxRcd") == 1 else None
        peer = wait_until("bgp", summary, timeout=30)
        check(peer is not None, "FRR's bgpd on the switch peers with host A through weft0 and receives its prefix")
    finally:
        for pidfile in pids:
            try:
                with open(pidfile) as f:
                    os.kill(int(f.read().strip()), 15)
            except (OSError, ValueError):
                pass


def subnets(w):
    """The host subnets the switch agent gives the SM (show sma json), as (port, prefix)."""
    m = w.ask("show sma json", r'^(\{.*"publications".*\})\s*$')
    j = json.loads(m.group(1)) if m else {}
    return sorted((s["port"], s["prefix"]) for s in j.get("ethernet_table", {}).get("host_subnets", []))


def kernel_has(ifname, address):
    return (" %s " % address) in sh("ip", "-o", "addr", "show", "dev", ifname, ns=NS_W, check_rc=False)


def host_subnets(w):
    """`ip addr` and `port N ip` are one set of addresses: the kernel's, which are the host subnets
    the SM routes to the switch, except on fabric ports (their addresses are the links')."""
    both = [(0, "10.20.1.0/24"), (1, "10.20.2.0/24")]
    check(wait_until("subnets", lambda: subnets(w) == both),
          "the addresses given with ip addr are the switch's host subnets (show sma: %s)" % subnets(w))
    w.ask("port 1 ip 10.20.3.1/24", r"^")
    check(wait_until("kernel address", lambda: kernel_has("weft1", "10.20.3.1/24")) and
          wait_until("subnet", lambda: (1, "10.20.3.0/24") in subnets(w)),
          "port 1 ip 10.20.3.1/24 puts the address on weft1 and its subnet among the host subnets")
    m = w.ask("port 1 ip 10.20.3.1/24", r"error: (.*)")
    check(m is not None and "exists" in m.group(1), "the same address again: the kernel's refusal (%s)" %
          (m.group(1) if m else None))
    w.ask("port 1 ip del 10.20.3.1/24", r"^")
    check(wait_until("kernel address gone", lambda: not kernel_has("weft1", "10.20.3.1/24")) and
          wait_until("subnet gone", lambda: subnets(w) == both),
          "port 1 ip del takes it off weft1 and out of the host subnets")
    w.ask("port 0 fabric on", r"^")
    check(wait_until("fabric", lambda: subnets(w) == [(1, "10.20.2.0/24")]) and kernel_has("weft0", "10.20.1.1/24"),
          "port 0 made a fabric port: its address stays the kernel's, its subnet is no host subnet")
    m = w.ask("port 0 ip 10.20.4.1/24", r"error: (.*)")
    check(m is not None and "fabric port" in m.group(1), "port 0 ip on the fabric port: refused (%s)" %
          (m.group(1) if m else None))
    w.ask("port 0 fabric off", r"^")
    check(wait_until("host again", lambda: subnets(w) == both), "fabric off: a host subnet again")


def main():
    if os.geteuid() != 0 or subprocess.run(["ip", "netns", "list"], stdout=subprocess.DEVNULL).returncode != 0 \
            or not os.path.exists("/dev/net/tun"):
        print("skip: needs root, ip netns and /dev/net/tun")
        return 77
    cleanup()
    w = None
    try:
        setup()
        with tempfile.TemporaryDirectory() as work:
            w = Weft(work)
            check(w.wait_for(r"weft: cmdline-file \S+ done, 0 errors", 120) is not None, "weft starts with --linux-cp")
            taps = sh("ip", "-o", "link", "show", ns=NS_W)
            check("weft0" in taps and "weft1" in taps, "weft0 and weft1 exist in weft's namespace")
            check(mac_of("weft0", NS_W) == mac_of(WA, NS_W), "weft0 carries port 0's MAC (%s)" % mac_of("weft0", NS_W))
            sh("ip", "addr", "add", "10.20.1.1/24", "dev", "weft0", ns=NS_W)
            sh("ip", "addr", "add", "10.20.2.1/24", "dev", "weft1", ns=NS_W)
            lcp = wait_until("addresses", lambda: (lambda j: j if j and "10.20.1.1/24" in j["interfaces"][0]["addresses"]
                                                   and "10.20.2.1/24" in j["interfaces"][1]["addresses"] else None)(
                w.ask_json("show linux-cp json", "interfaces")))
            check(lcp is not None, "weft learns the addresses given with ip addr")
            got, ttls, out = ping(NS_A, "10.20.1.1")
            check(got == 3, "host A pings the switch's address 10.20.1.1 (%d/3 replies, ttl %s)" % (got, ttls))
            mac_a = mac_of(HA, NS_A)
            def neigh_a():
                j = w.ask_json("show linux-cp json", "interfaces")
                return j if j and any(n["ip"] == "10.20.1.2" and n["mac"] == mac_a and n["port"] == 0
                                      for n in j["neighbours"]) else None
            lcp = wait_until("neighbour", neigh_a)
            check(lcp is not None, "the kernel's neighbour 10.20.1.2 (%s) reached weft on port 0" % mac_a)
            if lcp:
                print("     to kernel %d frames, from kernel %d frames on port 0" %
                      (lcp["interfaces"][0]["to_kernel_frames"], lcp["interfaces"][0]["from_kernel_frames"]))
            fpm_route_through_b(w)
            # B resolves its gateway through the kernel first, and weft learns B from that ARP:
            # until then a reply to B would be routed to the kernel (the connected subnet), which
            # does not forward here.
            got, _, _ = ping(NS_B, "10.20.2.1", count=1)
            check(got == 1, "host B pings its gateway 10.20.2.1 on weft1")
            check(wait_until("neighbour B", lambda: any(
                n["ip"] == "10.20.2.2" for n in (w.ask_json("show linux-cp json", "interfaces") or {}).get("neighbours", []))),
                "the kernel's neighbour 10.20.2.2 reached weft on port 1")
            before = w.ask_json("show port stats json", "ports")
            got, ttls, out = ping(NS_B, "10.20.1.2", count=5)
            check(got == 5 and all(t == 63 for t in ttls),
                  "host B pings host A through the switch (%d/5 replies, ttl %s: one routed hop)" % (got, ttls))
            after = w.ask_json("show port stats json", "ports")
            if before and after:
                keys = [k for k in after if "forward" in k]
                print("     weft counters %s: %s" % (keys, [after[k] - before.get(k, 0) for k in keys]))
            m = w.ask("show route", r"10\.20\.1\.2/32")
            check(m is not None, "the neighbour's host route 10.20.1.2/32 is in weft's FIB")
            bgp_peering(work)
            host_subnets(w)
            sh("ip", "addr", "del", "10.20.2.1/24", "dev", "weft1", ns=NS_W)
            lcp = wait_until("deleted", lambda: (lambda j: j if j and "10.20.2.1/24" not in j["interfaces"][1]["addresses"] else None)(
                w.ask_json("show linux-cp json", "interfaces")))
            check(lcp is not None, "an address removed with ip addr del leaves weft")
            check(wait_until("subnet gone", lambda: subnets(w) == [(0, "10.20.1.0/24")]),
                  "and its subnet leaves the switch's host subnets (%s)" % subnets(w))
            carrier = lambda want: wait_until("carrier", lambda: sh(
                "cat", "/sys/class/net/weft0/carrier", ns=NS_W, check_rc=False).strip() == want)
            w.ask("set link-down port 0", r"^")
            check(carrier("0"), "port 0 set link-down: weft0's carrier goes down")
            w.ask("set link-up port 0", r"^")
            check(carrier("1"), "and up again with set link-up")
            # A cable cut: what net_af_packet reports of the veth's state, the carrier follows.
            sh("ip", "link", "set", HA, "down", ns=NS_A)
            time.sleep(1)
            info = w.ask_json("show port info json", "ports")
            seen = sh("cat", "/sys/class/net/weft0/carrier", ns=NS_W, check_rc=False).strip()
            print("     peer down: weft0 carrier %s, weft's port 0: %s" % (
                seen, info["ports"][0] if info and info.get("ports") else info))
            sh("ip", "link", "set", HA, "up", ns=NS_A)
            j = w.ask_json("show linux-cp json", "interfaces")
            if j:
                print("     drops: %s" % {k: v for k, v in j["drops"].items() if v})
                check(all(v == 0 for v in j["drops"].values()), "no frame or kernel message lost or refused")
            rc, text = w.finish(30)
            check(rc == 0, "weft exits cleanly (rc %s)" % rc)
            w = None
    finally:
        if w is not None:
            rc, text = w.finish(10)
            print(text[-3000:])
        cleanup()
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
