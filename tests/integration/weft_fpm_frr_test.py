#!/usr/bin/env python3
"""weft under the real FRR: zebra with dplane_fpm_nl connected to weft's FPM server, staticd's
routes in weft's FIB, traffic forwarded by them, and zebra killed and restarted.

Topology (names carry this process's pid):

    host A (netns fa-<pid>)           router (netns fr-<pid>): weft, zebra, staticd      host B (netns fb-<pid>)
    hA 10.10.1.2/24 <-- veth --> wA 10.10.1.1/24  weft port 0
                                 wB 10.10.2.1/24  weft port 1  <-- veth -->  hB 10.10.2.2/24, 2001:db8:2::2/64
                                 wC 10.10.3.1/24  weft port 2  <-- veth -->  hC 10.10.3.2/24
                                                                             lo 10.20.0.1/32, 10.30.0.1/32

The router's veth ends carry the addresses zebra sees (the interfaces weft's ports stand for,
mapped with `fpm port`); the kernel there does not forward (ip_forward 0), weft does, on
net_af_packet ports over the same veths. weft answers no ARP: the hosts have permanent neighbour
entries for the weft ports' MACs, and weft `neigh add` entries for the hosts (the Linux
control-plane mirror will learn them from the kernel).

Checks:
1. staticd's routes (a single gateway, an ECMP pair, IPv6, a blackhole) reach weft through zebra
   and FPM: weft's routes and their groups' members match `vtysh -c 'show ip route json'` (and
   ipv6) for every FIB-installed route weft can take (the blackhole as a drop group).
2. A ping from host A to 10.20.0.1 crosses weft by its FPM route (TTL 63), and UDP to 10.30.0.1;
   a ping into the blackhole is dropped and counted (drop reason blackhole).
3. A route changed (new gateway), one deleted, one replaced (ECMP to single): weft follows.
4. zebra and staticd killed (SIGKILL); weft keeps its routes; both restarted with one static
   route fewer: zebra reconnects and replays; weft's route count never drops to 0 while it does
   (sampled every 50 ms); after the grace period the route not replayed is gone, the others stay.
Exit 77 (skip) when not root, without `ip netns`, or without FRR's zebra, staticd and
dplane_fpm_nl.
"""
import json
import os
import pwd
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from weft_session import LiveWeft, eal_prefix, frr_missing, sh, sysctl

WEFT = sys.argv[1]
PID = os.getpid()
TAG = "%05d" % (PID % 100000)
NS_R, NS_A, NS_B = "fr-%d" % PID, "fa-%d" % PID, "fb-%d" % PID
ZEBRA, STATICD = "/usr/lib/frr/zebra", "/usr/lib/frr/staticd"
FPM_MODULE = "dplane_fpm_nl"
# (router side, host side, host netns, router address, host address)
LINKS = [("wA" + TAG, "hA" + TAG, NS_A, "10.10.1.1", "10.10.1.2"),
         ("wB" + TAG, "hB" + TAG, NS_B, "10.10.2.1", "10.10.2.2"),
         ("wC" + TAG, "hC" + TAG, NS_B, "10.10.3.1", "10.10.3.2")]
GRACE = 6
STATIC = [
    "ip route 10.20.0.0/16 10.10.2.2",
    "ip route 10.30.0.0/16 10.10.2.2",
    "ip route 10.30.0.0/16 10.10.3.2",
    "ip route 10.50.0.0/24 10.10.2.2",
    "ip route 10.60.0.0/24 10.10.3.2",
    "ip route 10.40.0.0/16 blackhole",
    "ipv6 route 2001:db8:20::/48 2001:db8:2::2",
]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def mac_of(ifname, ns):
    return sh("cat", "/sys/class/net/%s/address" % ifname, ns=ns).strip()


def skip_reason():
    if os.geteuid() != 0:
        return "not root"
    if not shutil.which("ip") or subprocess.run(["ip", "netns", "list"], capture_output=True).returncode != 0:
        return "no ip netns"
    return frr_missing((ZEBRA, STATICD), FPM_MODULE)


def setup():
    for ns in (NS_R, NS_A, NS_B):
        sh("ip", "netns", "add", ns)
        sh("ip", "link", "set", "lo", "up", ns=ns)
        sysctl("net/ipv4/conf/all/rp_filter", 0, ns)
        sysctl("net/ipv6/conf/all/accept_dad", 0, ns)
        sysctl("net/ipv6/conf/default/accept_dad", 0, ns)
    sysctl("net/ipv4/ip_forward", 0, NS_R)  # weft forwards, not the router's kernel
    sysctl("net/ipv6/conf/all/forwarding", 0, NS_R)
    for rside, hside, ns, raddr, haddr in LINKS:
        sh("ip", "link", "add", rside, "netns", NS_R, "type", "veth", "peer", "name", hside, "netns", ns)
        for ifname, where in ((rside, NS_R), (hside, ns)):
            for feature in ("rx", "tx", "tso", "gso", "gro", "sg"):
                sh("ethtool", "-K", ifname, feature, "off", ns=where, check_rc=False)
            sysctl("net/ipv4/conf/%s/rp_filter" % ifname, 0, where)
        sh("ip", "addr", "add", raddr + "/24", "dev", rside, ns=NS_R)
        sh("ip", "addr", "add", haddr + "/24", "dev", hside, ns=ns)
        sh("ip", "link", "set", rside, "up", ns=NS_R)
        sh("ip", "link", "set", hside, "up", ns=ns)
    sh("ip", "-6", "addr", "add", "2001:db8:2::1/64", "dev", LINKS[1][0], "nodad", ns=NS_R)
    sh("ip", "-6", "addr", "add", "2001:db8:2::2/64", "dev", LINKS[1][1], "nodad", ns=NS_B)
    for a in ("10.20.0.1/32", "10.30.0.1/32", "10.50.0.1/32", "10.60.0.1/32"):
        sh("ip", "addr", "add", a, "dev", "lo", ns=NS_B)
    # The hosts send through weft: its port MACs as permanent neighbours.
    ra, ha, _, raddr_a, _ = LINKS[0]
    sh("ip", "neigh", "replace", raddr_a, "lladdr", mac_of(ra, NS_R), "dev", ha, "nud", "permanent", ns=NS_A)
    sh("ip", "route", "add", "default", "via", raddr_a, ns=NS_A)
    for rside, hside, _, raddr, _ in LINKS[1:]:
        sh("ip", "neigh", "replace", raddr, "lladdr", mac_of(rside, NS_R), "dev", hside, "nud", "permanent", ns=NS_B)
    sh("ip", "route", "add", "10.10.1.0/24", "via", LINKS[1][3], ns=NS_B)


def cleanup():
    for ns in (NS_R, NS_A, NS_B):
        subprocess.run(["ip", "netns", "pids", ns], capture_output=True)
        out = subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True).stdout.split()
        for p in out:
            try:
                os.kill(int(p), signal.SIGKILL)
            except (OSError, ValueError):
                pass
        subprocess.run(["ip", "netns", "del", ns], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


class Frr:
    """zebra (with dplane_fpm_nl) and staticd in the router's namespace, their sockets, config and
    logs in a directory of their own (nothing shared with a system FRR)."""

    def __init__(self, work):
        self.dir = os.path.join(work, "frr")
        os.makedirs(self.dir, exist_ok=True)
        # FRR's daemons run as its user (root is not in its vty group): the directory is theirs.
        user = pwd.getpwnam("frr")
        os.chown(work, user.pw_uid, user.pw_gid)
        os.chown(self.dir, user.pw_uid, user.pw_gid)
        self.zserv = os.path.join(self.dir, "zserv.api")
        self.procs = {}

    def write_configs(self, static_lines):
        with open(os.path.join(self.dir, "zebra.conf"), "w") as f:
            f.write("hostname weft-fpm-test\nfpm address 127.0.0.1 port 2620\n")
        with open(os.path.join(self.dir, "staticd.conf"), "w") as f:
            f.write("hostname weft-fpm-test\n" + "\n".join(static_lines) + "\n")

    def start(self):
        common = ["--vty_socket", self.dir, "-z", self.zserv, "-u", "frr", "-g", "frr", "-P", "0"]
        for name, exe, extra in (("zebra", ZEBRA, ["-M", FPM_MODULE]), ("staticd", STATICD, [])):
            log = open(os.path.join(self.dir, name + ".out"), "a")
            args = ["ip", "netns", "exec", NS_R, exe] + extra + common + [
                "-f", os.path.join(self.dir, name + ".conf"), "-i", os.path.join(self.dir, name + ".pid"),
                "--log", "file:" + os.path.join(self.dir, name + ".log")]
            self.procs[name] = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
            if name == "zebra":  # staticd connects to zebra's socket
                end = time.monotonic() + 15
                while not os.path.exists(self.zserv) and time.monotonic() < end:
                    time.sleep(0.1)

    def kill(self):
        for p in self.procs.values():
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
                p.wait()
        for name in ("zserv.api", "zebra.vty", "staticd.vty"):
            try:
                os.unlink(os.path.join(self.dir, name))
            except OSError:
                pass

    def vtysh(self, *cmds):
        args = ["vtysh", "--vty_socket", self.dir]
        for c in cmds:
            args += ["-c", c]
        return sh(*args, ns=NS_R, check_rc=False)

    def routes(self, family):
        out = self.vtysh("show %s route json" % ("ip" if family == 4 else "ipv6"))
        try:
            return json.loads(out)
        except ValueError:
            return {}


class Weft(LiveWeft):
    def __init__(self, work, ifindex):
        self.prefix = eal_prefix("fpm_frr")
        cmds = os.path.join(work, "weft.cmds")
        lines = ["fpm grace %d" % GRACE]
        for i, (rside, hside, ns, _raddr, haddr) in enumerate(LINKS):
            lines.append("fpm port %s %d" % (rside, i))
            lines.append("neigh add %s %s port %d" % (haddr, mac_of(hside, ns), i))
        lines.append("neigh add 2001:db8:2::2 %s port 1" % mac_of(LINKS[1][1], NS_B))
        with open(cmds, "w") as f:
            f.write("\n".join(lines) + "\n")
        args = ["ip", "netns", "exec", NS_R, WEFT, "--no-huge", "--no-pci", "-m", "512", "-l", "0-1",
                "--file-prefix=" + self.prefix, "--log-level=lib.eal:warning"]
        args += ["--vdev=net_af_packet%d,iface=%s,qpairs=1" % (i, l[0]) for i, l in enumerate(LINKS)]
        args += ["--", "-i", "--cmdline-file", cmds, "--fpm", "--run-time", "280"]
        self.start(args)

    def fpm(self):
        return self.ask_json("show fpm json", "state")

    def table(self):
        """prefix -> sorted [(port, via, weight)] of weft's routes (groups resolved)."""
        routes = self.ask_json("show route json", "routes")
        nhgs = self.ask_json("show nhg json", "nhgs")
        if routes is None or nhgs is None:
            return None
        members = {g["id"]: sorted((m["port"], m["via"], m["weight"]) for m in g["members"]) for g in nhgs["nhgs"]}
        return {r["prefix"]: members.get(r["nhg"]) for r in routes["routes"]}


def expected_table(frr, port_of):
    """What weft should hold for zebra's FIB-installed routes: prefix -> sorted (port, via, 1),
    for the routes through weft's ports (connected ones with no via: the port's peer), blackholes
    with no members (a drop group), not IPv6 link-local ones (one per interface; zebra sends one)."""
    out = {}
    for family in (4, 6):
        for prefix, entries in frr.routes(family).items():
            for e in entries:
                if not e.get("installed") or e.get("protocol") in ("kernel", "local") or prefix.startswith("fe80"):
                    continue
                hops = [h for h in e.get("nexthops", []) if h.get("fib")]
                if any(h.get("unreachable") or h.get("blackhole") for h in hops):
                    out[prefix] = []
                    continue
                members = sorted((port_of[h["interfaceName"]], h.get("ip"), 1) for h in hops
                                 if h.get("interfaceName") in port_of)
                if members:
                    out[prefix] = members
    return out


def wait_for(what, fn, timeout=20):
    end = time.monotonic() + timeout
    value = fn()
    while not what(value) and time.monotonic() < end:
        time.sleep(0.2)
        value = fn()
    return value


def udp_count(count=20):
    """UDP datagrams from host A to 10.30.0.1 counted by host B's receiving socket."""
    rx = subprocess.Popen(["ip", "netns", "exec", NS_B, "python3", "-c",
                           "import socket,sys\ns=socket.socket(socket.AF_INET,socket.SOCK_DGRAM)\n"
                           "s.bind(('10.30.0.1',9999))\ns.settimeout(3)\nn=0\nprint('ready',flush=True)\n"
                           "try:\n  while True:\n    s.recv(100); n+=1\nexcept socket.timeout:\n  pass\nprint(n)"],
                          stdout=subprocess.PIPE, text=True)
    rx.stdout.readline()
    sh("python3", "-c",
       "import socket\ns=socket.socket(socket.AF_INET,socket.SOCK_DGRAM)\n"
       "for i in range(%d): s.sendto(b'x'*64,('10.30.0.1',9999))" % count, ns=NS_A)
    out, _ = rx.communicate(timeout=20)
    return int(out.strip().split()[-1])


def main():
    why = skip_reason()
    if why:
        print("SKIP: " + why)
        return 77
    work = tempfile.mkdtemp(prefix="weft_fpm_frr_")
    weft = None
    frr = None
    try:
        setup()
        port_of = {l[0]: i for i, l in enumerate(LINKS)}
        weft = Weft(work, None)
        check(weft.wait_for(r"weft: cmdline-file \S+ done, 0 errors", 120) is not None, "weft starts")
        check(weft.wait_for(r"fpm listening on 127.0.0.1 port 2620", 5) is not None, "weft listens for FPM")
        frr = Frr(work)
        frr.write_configs(STATIC)
        frr.start()

        # 1. The routes arrive and match zebra's FIB.
        s = wait_for(lambda f: f and f["state"] == "connected", weft.fpm)
        check(s is not None and s["state"] == "connected", "zebra connects to weft (peer %s)" % (s or {}).get("peer"))
        expected = wait_for(lambda e: len(e) >= 6, lambda: expected_table(frr, port_of))
        print("zebra's FIB through weft's ports:", json.dumps(expected, sort_keys=True))
        check(len(expected) >= 6, "zebra installed the static routes (%d)" % len(expected))
        table = wait_for(lambda t: t is not None and all(t.get(p) == m for p, m in expected.items()), weft.table)
        print("weft:", json.dumps(table, sort_keys=True))
        for prefix, members in sorted(expected.items()):
            check(table is not None and table.get(prefix) == members,
                  "weft routes %s as zebra does: %s" % (prefix, members))
        check(table is not None and sorted(table.get("10.30.0.0/16") or []) == [(1, "10.10.2.2", 1), (2, "10.10.3.2", 1)]
              if table else False, "10.30.0.0/16 is an ECMP group of ports 1 and 2")
        s = weft.fpm()
        print("show fpm:", json.dumps(s))
        check(s["messages"]["new_route"] >= 6, "route messages counted (%d)" % s["messages"]["new_route"])
        check(s["messages"]["new_nexthop"] >= 2, "nexthop messages counted (zebra sends its groups: %d)" %
              s["messages"]["new_nexthop"])
        nhgs = weft.ask_json("show nhg json", "nhgs") or {"nhgs": []}
        routes = weft.ask_json("show route json", "routes") or {"routes": []}
        hole = next((r["nhg"] for r in routes["routes"] if r["prefix"] == "10.40.0.0/16"), None)
        mode = next((g["mode"] for g in nhgs["nhgs"] if g["id"] == hole), None)
        check(table.get("10.40.0.0/16") == [] and mode == "drop",
              "the blackhole route is a drop group (nhg %s, mode %s)" % (hole, mode))
        check(sum(s["errors"].values()) == 0, "no FPM errors")

        # 2. Traffic forwarded by FPM routes.
        ping = sh("ping", "-c", "3", "-W", "2", "-i", "0.2", "10.20.0.1", ns=NS_A, check_rc=False)
        check(re.search(r"3 received", ping) is not None and "ttl=63" in ping,
              "ping 10.20.0.1 crosses weft by its FPM route (TTL 63)")
        n = udp_count()
        check(n == 20, "UDP to 10.30.0.1 (ECMP group) arrives: %d of 20" % n)
        before = (weft.ask_json("show drops json", "eth_truncated") or {}).get("blackhole", 0)
        sh("ping", "-c", "3", "-W", "1", "-i", "0.2", "10.40.0.1", ns=NS_A, check_rc=False)
        after = (weft.ask_json("show drops json", "eth_truncated") or {}).get("blackhole", 0)
        check(after - before == 3, "pings into the blackhole 10.40.0.0/16 are dropped as blackhole (%d)" % (
            after - before))

        # 3. Changed, deleted, replaced.
        frr.vtysh("configure terminal", "no ip route 10.20.0.0/16 10.10.2.2", "ip route 10.20.0.0/16 10.10.3.2",
                  "no ip route 10.50.0.0/24 10.10.2.2", "no ip route 10.30.0.0/16 10.10.2.2")
        t = wait_for(lambda t: t is not None and t.get("10.20.0.0/16") == [(2, "10.10.3.2", 1)]
                     and "10.50.0.0/24" not in t and t.get("10.30.0.0/16") == [(2, "10.10.3.2", 1)], weft.table)
        check(t is not None and t.get("10.20.0.0/16") == [(2, "10.10.3.2", 1)], "a changed gateway follows (10.20/16 -> port 2)")
        check(t is not None and "10.50.0.0/24" not in t, "a deleted route leaves weft")
        check(t is not None and t.get("10.30.0.0/16") == [(2, "10.10.3.2", 1)], "ECMP replaced by a single path")
        expected = expected_table(frr, port_of)
        check(t is not None and all(t.get(p) == m for p, m in expected.items()) and
              set(p for p in t if not p.startswith("fe80")) <= set(expected),
              "weft matches zebra's FIB again (%d routes)" % len(expected))
        frr.vtysh("configure terminal", "ip route 10.30.0.0/16 10.10.2.2")  # back to ECMP

        # 4. zebra and staticd killed, restarted with one route fewer: replay, no flush, sweep.
        before = wait_for(lambda t: t is not None and t.get("10.30.0.0/16") and len(t["10.30.0.0/16"]) == 2, weft.table)
        n_before = len(before)
        frr.kill()
        # A killed zebra leaves its routes in the kernel, and a new one takes them as its own and
        # may send them before it removes them itself (a delete, not weft's sweep). Taken away
        # here, the removed route is one zebra no longer sends at all: only the sweep removes it.
        sh("ip", "route", "del", "10.60.0.0/24", ns=NS_R, check_rc=False)
        time.sleep(1)
        s = weft.fpm()
        check(s["state"] == "listening" and len(weft.table()) == n_before,
              "zebra gone: weft keeps its %d routes (state %s)" % (n_before, s["state"]))
        frr.write_configs([l for l in STATIC if "10.60.0.0" not in l] + ["ip route 10.30.0.0/16 10.10.2.2"])
        t0 = time.monotonic()
        frr.start()
        counts, reconnected_at, swept_at = [], None, None
        while time.monotonic() - t0 < GRACE + 25:
            f = weft.fpm()
            if f is None:
                break
            counts.append(f["installed"])
            if reconnected_at is None and f["connections"] >= 2:
                reconnected_at = time.monotonic() - t0
            if f["sweeps"] >= 1:
                swept_at = time.monotonic() - t0
                break
            time.sleep(0.05)
        print("installed routes sampled during the restart (%d samples): min %d max %d" %
              (len(counts), min(counts or [0]), max(counts or [0])))
        check(reconnected_at is not None, "zebra reconnected after %.1f s" % (reconnected_at or -1))
        check(counts and min(counts) > 0, "weft's route count never dropped to 0 during the replay")
        check(swept_at is not None, "the sweep ran %.1f s after the restart (grace %d s)" % (swept_at or -1, GRACE))
        s = weft.fpm()
        print("show fpm after the sweep:", json.dumps(s))
        t = weft.table()
        check(t is not None and "10.60.0.0/24" not in t and s["swept_routes"] >= 1,
              "the route not replayed is gone (%d swept)" % s["swept_routes"])
        expected = wait_for(lambda e: len(e) >= 4, lambda: expected_table(frr, port_of))
        check(t is not None and all(t.get(p) == m for p, m in expected.items()),
              "the replayed routes stay, as zebra has them (%d)" % len(expected))
        check(s["stale"] == 0, "nothing stale left")
        ping = sh("ping", "-c", "2", "-W", "2", "-i", "0.2", "10.20.0.1", ns=NS_A, check_rc=False)
        check(re.search(r"2 received", ping) is not None, "traffic still forwards after the restart")
    finally:
        if frr:
            frr.kill()
        if weft:
            rc, out = weft.finish(30)
            check(rc == 0, "weft exits cleanly (rc %s)" % rc)
            if failures:
                print("---- weft output (tail) ----\n" + out[-4000:])
                for name in ("zebra.log", "zebra.out"):
                    p = os.path.join(work, "frr", name)
                    if os.path.exists(p):
                        print("---- %s (tail) ----\n%s" % (name, open(p).read()[-3000:]))
        cleanup()
        shutil.rmtree(work, ignore_errors=True)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
