#!/usr/bin/env python3
"""Runs the real weft between Linux hosts in network namespaces, over veth pairs and one of the
kernel-backed port types: net_af_packet (the default) or net_af_xdp (second argument `af_xdp`).

Topology (every name carries this process's pid, so parallel runs and leftovers never collide):

    host A (netns weft-h1-<pid>)            weft (root netns)              host B (netns weft-h2-<pid>)
    hA 10.10.1.2/24  <-- veth -->  wA  port 0
                                          wB  port 1  <-- veth -->  hB 10.10.2.2/24
                                          wC  port 2  <-- veth -->  hC 10.10.3.2/24
                                                                    lo 10.10.9.9/32 (the target)

weft routes 10.10.9.0/24 over an NHG with members ports 1 and 2 (once plain ECMP, once an ARS
group), and 10.10.1.0/24 back to port 0. weft answers no ARP, so each host has a permanent
neighbour entry for the weft port MAC it talks to (net_af_packet takes the veth's own MAC).

Checks, per NHG kind: A pings B (`ping -c 3`, or the same three echoes over a raw ICMP socket when
there is no ping binary; replies must arrive with TTL 63: B sends 64 and weft is one routed hop); 64 UDP flows from A (distinct source ports) reach B's socket, which reads the
ingress interface of each datagram (IP_PKTINFO): both egress paths must carry flows; with ECMP
every flow must stay on one path. The interface counters (/sys/class/net/*/statistics) of hB/hC
must agree with what the socket saw, and so must weft's `show port stats json` deltas (port 0 in,
ports 1 and 2 out).

With net_af_xdp, the PMD attaches its XDP program (libxdp's xsk_def_prog) to each weft-side veth.
veth runs it in native (driver) mode, and AF_XDP binds in copy mode (veth has no zero-copy); the
peer needs no XDP program of its own, since AF_XDP's TX enters the veth as an skb. The test checks
that the program sits on every weft port while weft runs and is gone after it exits, and it prints
the mode. The UMEM lies over weft's mbuf pool, which --no-huge makes of 4 KiB pages; AF_XDP only
needs it page-aligned.

Namespaces and veths are always removed (try/finally). Exit 77 (skip) when not root, without
`ip netns`, or for af_xdp without AF_XDP sockets (kernel or permissions) or DPDK's net_af_xdp PMD.
"""
import glob
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

from weft_session import LiveWeft, eal_prefix

WEFT = sys.argv[1]
PORT_TYPE = sys.argv[2] if len(sys.argv) > 2 else "af_packet"
PID = os.getpid()
TAG = "%05d" % (PID % 100000)
NS_A = "weft-h1-%d" % PID
NS_B = "weft-h2-%d" % PID
# (weft side, host side, namespace, host address, weft-side "gateway" address)
LINKS = [("wA" + TAG, "hA" + TAG, NS_A, "10.10.1.2", "10.10.1.1"),
         ("wB" + TAG, "hB" + TAG, NS_B, "10.10.2.2", "10.10.2.1"),
         ("wC" + TAG, "hC" + TAG, NS_B, "10.10.3.2", "10.10.3.1")]
TARGET = "10.10.9.9"
FLOWS = 64
PKTS_PER_FLOW = 4
DPORT = 9999
failures = []
notes = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def sh(*cmd, ns=None, check_rc=True, timeout=20):
    full = (["ip", "netns", "exec", ns] if ns else []) + list(cmd)
    r = subprocess.run(full, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    if check_rc and r.returncode != 0:
        raise RuntimeError("%s -> rc %d: %s" % (" ".join(full), r.returncode, r.stdout.strip()))
    return r.stdout


def sysctl(path, value, ns=None):
    sh("sh", "-c", "echo %s > /proc/sys/%s" % (value, path), ns=ns)


def read_stat(ifname, stat, ns=None):
    return int(sh("cat", "/sys/class/net/%s/statistics/%s" % (ifname, stat), ns=ns).strip())


def mac_of(ifname, ns=None):
    return sh("cat", "/sys/class/net/%s/address" % ifname, ns=ns).strip()


def quiet_link(ifname, ns=None):
    """No IPv6 on the link at all (so no DAD, RS or MLD noise), and no offloads: af_packet would
    otherwise see partial checksums and unsegmented super-frames."""
    for key, val in (("accept_dad", 0), ("dad_transmits", 0), ("router_solicitations", 0), ("disable_ipv6", 1)):
        sysctl("net/ipv6/conf/%s/%s" % (ifname, key), val, ns=ns)
    if shutil.which("ethtool"):
        for feature in ("rx", "tx", "tso", "gso", "gro", "sg"):
            sh("ethtool", "-K", ifname, feature, "off", ns=ns, check_rc=False)
        out = sh("ethtool", "-k", ifname, ns=ns, check_rc=False)
        still = [l.strip() for l in out.splitlines()
                 if re.match(r"\s*(tx-checksumming|rx-checksumming|tcp-segmentation-offload|"
                             r"generic-segmentation-offload):\s+on", l)]
        if still:
            raise RuntimeError("offloads still on for %s: %s" % (ifname, still))


def setup():
    sh("ip", "netns", "add", NS_A)
    sh("ip", "netns", "add", NS_B)
    for ns in (NS_A, NS_B):
        sh("ip", "link", "set", "lo", "up", ns=ns)
        sysctl("net/ipv4/ip_default_ttl", 64, ns=ns)
        for conf in ("all", "default"):
            sysctl("net/ipv4/conf/%s/rp_filter" % conf, 0, ns=ns)
            sysctl("net/ipv6/conf/%s/accept_dad" % conf, 0, ns=ns)
            sysctl("net/ipv6/conf/%s/router_solicitations" % conf, 0, ns=ns)
    for wside, hside, ns, addr, _gw in LINKS:
        sh("ip", "link", "add", wside, "type", "veth", "peer", "name", hside)
        sh("ip", "link", "set", hside, "netns", ns)
        quiet_link(wside)
        quiet_link(hside, ns=ns)
        sysctl("net/ipv4/conf/%s/rp_filter" % hside, 0, ns=ns)
        sh("ip", "addr", "add", addr + "/24", "dev", hside, ns=ns)
        sh("ip", "link", "set", wside, "up")
        sh("ip", "link", "set", hside, "up", ns=ns)
    sh("ip", "addr", "add", TARGET + "/32", "dev", "lo", ns=NS_B)
    # Static neighbours for weft's port MACs; A sends B-bound traffic to weft port 0, B answers via port 1.
    wa, ha, _, _, gwa = LINKS[0]
    wb, hb, _, _, gwb = LINKS[1]
    sh("ip", "neigh", "replace", gwa, "lladdr", mac_of(wa), "dev", ha, "nud", "permanent", ns=NS_A)
    sh("ip", "route", "add", "10.10.9.0/24", "via", gwa, "dev", ha, ns=NS_A)
    sh("ip", "neigh", "replace", gwb, "lladdr", mac_of(wb), "dev", hb, "nud", "permanent", ns=NS_B)
    sh("ip", "route", "add", "10.10.1.0/24", "via", gwb, "dev", hb, ns=NS_B)


def cleanup():
    for ns in (NS_A, NS_B):
        subprocess.run(["ip", "netns", "del", ns], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for wside, _h, _n, _a, _g in LINKS:  # deleting a namespace deletes its veth ends and their peers
        if os.path.exists("/sys/class/net/" + wside):
            subprocess.run(["ip", "link", "del", wside], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def vdev(port_type, index, ifname):
    """The --vdev argument of weft port `index` on interface `ifname`: one queue pair either way
    (a veth has one RX queue unless made with more)."""
    if port_type == "af_xdp":
        return "net_af_xdp%d,iface=%s,start_queue=0,queue_count=1" % (index, ifname)
    return "net_af_packet%d,iface=%s,qpairs=1" % (index, ifname)


def xdp_mode(ifname):
    """The XDP attachment `ip link` shows on `ifname`: "xdp" (native), "xdpgeneric" (skb),
    "xdpoffload", or None when no program is attached."""
    out = sh("ip", "-d", "link", "show", "dev", ifname, check_rc=False)
    m = re.search(r"\b(xdp|xdpgeneric|xdpoffload|xdpmulti)\b", out.split("\n", 1)[0])
    return m.group(1) if m and "prog/xdp" in out else None


def af_xdp_missing():
    """Why AF_XDP cannot run here (None when it can): the kernel's AF_XDP sockets (family 44,
    CONFIG_XDP_SOCKETS; creating one needs CAP_NET_RAW) and DPDK's net_af_xdp PMD, which EAL
    loads from its driver directory."""
    try:
        socket.socket(44, socket.SOCK_RAW, 0).close()
    except OSError as e:
        return "no AF_XDP socket: %s" % e
    if not glob.glob("/usr/lib/*/dpdk/pmds-*/librte_net_af_xdp.so*") + glob.glob(
            "/usr/local/lib*/**/librte_net_af_xdp.so*", recursive=True):
        return "DPDK's net_af_xdp PMD is not installed (Debian: librte-net-af-xdp23)"
    return None


class Weft(LiveWeft):
    def __init__(self, name, work, route_cmds):
        self.prefix = eal_prefix("netns_" + name)
        cmds = os.path.join(work, name + ".txt")
        lines = ["neigh add %s %s port %d" % (LINKS[i][3], mac_of(LINKS[i][1], ns=LINKS[i][2]), i) for i in range(3)]
        lines += ["nhg add 1 ports 0", "route add 10.10.1.0/24 nhg 1"] + route_cmds + ["show nhg"]
        with open(cmds, "w") as f:
            f.write("\n".join(lines) + "\n")
        args = [WEFT, "--no-huge", "--no-pci", "-m", "512", "-l", "0-1", "--file-prefix=" + self.prefix,
                "--log-level=lib.eal:warning"]
        args += ["--vdev=" + vdev(PORT_TYPE, i, LINKS[i][0]) for i in range(3)]
        args += ["--", "-i", "--cmdline-file", cmds, "--run-time", "40"]
        self.start(args)

    def stats(self, timeout=10):
        """weft's `show port stats json`, parsed; None when it does not answer in time."""
        start = len(self.text())
        self.proc.stdin.write("show port stats json\n")
        self.proc.stdin.flush()
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            m = re.search(r'(\{"ports":\[.*?\],"rx_packets".*?\})\s*\n', self.text()[start:], re.S)
            if m:
                return json.loads(m.group(1))
            time.sleep(0.05)
        return None

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.reader.join(timeout=5)
        # EAL leaves its runtime directory (config, telemetry socket) behind; it is this run's own.
        for base in ("/var/run/dpdk", os.path.join(os.environ.get("XDG_RUNTIME_DIR", "/tmp"), "dpdk")):
            shutil.rmtree(os.path.join(base, self.prefix), ignore_errors=True)
        return self.proc.returncode


PING_PY = r"""
import os, socket, struct, sys, time
dst, count, timeout = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
def csum(b):
    if len(b) % 2: b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16: s = (s & 0xFFFF) + (s >> 16)
    return (~s) & 0xFFFF
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
ident = os.getpid() & 0xFFFF
got = 0
for seq in range(1, count + 1):
    body = struct.pack("!d", time.time()) + b"weft-netns" * 4
    hdr = struct.pack("!BBHHH", 8, 0, 0, ident, seq)
    pkt = struct.pack("!BBHHH", 8, 0, csum(hdr + body), ident, seq) + body
    t0 = time.monotonic()
    s.sendto(pkt, (dst, 0))
    end = t0 + timeout
    while True:
        left = end - time.monotonic()
        if left <= 0:
            print("timeout seq=%d" % seq, flush=True); break
        s.settimeout(left)
        try:
            data, addr = s.recvfrom(2048)
        except socket.timeout:
            continue
        ihl = (data[0] & 15) * 4
        t, c, _, i, q = struct.unpack("!BBHHH", data[ihl:ihl + 8])
        if t == 0 and i == ident and q == seq and addr[0] == dst:
            print("reply from %s: icmp_seq=%d ttl=%d time=%.3f ms" % (addr[0], seq, data[8], (time.monotonic() - t0) * 1e3), flush=True)
            got += 1
            break
    if seq < count: time.sleep(0.2)
sys.exit(0 if got == count else 1)
"""

RECV_PY = r"""
import json, socket, struct, sys, time
port, expect, timeout = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
IP_PKTINFO = getattr(socket, "IP_PKTINFO", 8)  # <linux/in.h>; Python 3.11 lacks the name
s.setsockopt(socket.IPPROTO_IP, IP_PKTINFO, 1)
s.bind(("0.0.0.0", port))
print("ready", flush=True)
flows, n = {}, 0
end = time.monotonic() + timeout
while n < expect and time.monotonic() < end:
    s.settimeout(max(0.01, end - time.monotonic()))
    try:
        data, anc, _, addr = s.recvmsg(2048, 256)
    except socket.timeout:
        break
    ifindex = None
    for level, typ, cdata in anc:
        if level == socket.IPPROTO_IP and typ == IP_PKTINFO:
            ifindex = struct.unpack("I", cdata[:4])[0]
    flows.setdefault(str(addr[1]), []).append(socket.if_indextoname(ifindex))
    n += 1
print(json.dumps(flows), flush=True)
"""

SEND_PY = r"""
import socket, sys, time
dst, port, flows, per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
socks = []
for i in range(flows):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0", 20000 + i))
    socks.append(s)
for r in range(per):
    for i, s in enumerate(socks):
        s.sendto(b"weft flow %d packet %d" % (i, r), (dst, port))
        time.sleep(0.001)
    time.sleep(0.02)
"""


def ping(dst, count):
    """`ping -c` when the binary exists, else the same exchange over a raw ICMP socket. Returns (ok, output)."""
    if shutil.which("ping"):
        r = subprocess.run(["ip", "netns", "exec", NS_A, "ping", "-n", "-c", str(count), "-W", "2", "-i", "0.2", dst],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=30)
    else:
        r = subprocess.run(["ip", "netns", "exec", NS_A, sys.executable, "-c", PING_PY, dst, str(count), "2"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=30)
    return r.returncode == 0, r.stdout


def wait_ping(timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ok, _ = ping(TARGET, 1)
        if ok:
            return True
    return False


def run_case(name, work, route_cmds, sticky):
    print("---- %s ----" % name, flush=True)
    weft = Weft(name, work, route_cmds)
    try:
        done = weft.wait_for(r"cmdline-file \S+ done, (\d+) errors", 60)
        check(done is not None and done.group(1) == "0", "%s: weft takes the cmdline file without errors" % name)
        if done is None:
            return
        st = weft.stats()
        check(st is not None, "%s: weft answers show port stats json" % name)
        macs = [p["mac"].lower() for p in (st or {}).get("ports", [])]
        check(macs == [mac_of(l[0]) for l in LINKS], "%s: weft ports 0..2 are wA/wB/wC by MAC (%s)" % (name, macs))
        if PORT_TYPE == "af_xdp":
            modes = [xdp_mode(l[0]) for l in LINKS]
            print("%s: XDP attachment on wA/wB/wC: %s" % (name, modes), flush=True)
            check(all(m in ("xdp", "xdpgeneric") for m in modes),
                  "%s: the PMD's XDP program is on every weft port (%s)" % (name, modes))
        check(wait_ping(15), "%s: A reaches B through weft within 15 s" % name)
        ok, out = ping(TARGET, 3)
        print(out.strip(), flush=True)
        ttls = [int(t) for t in re.findall(r"ttl=(\d+)", out)]
        check(ok and len(ttls) == 3, "%s: ping -c 3 from A to %s: 3 replies" % (name, TARGET))
        check(ttls and all(t == 63 for t in ttls), "%s: reply TTL 64 -> 63 (one routed hop) %s" % (name, ttls))

        before = {l[1]: read_stat(l[1], "rx_packets", ns=NS_B) for l in LINKS[1:]}
        wbefore = weft.stats()
        expect = FLOWS * PKTS_PER_FLOW
        recv = subprocess.Popen(["ip", "netns", "exec", NS_B, sys.executable, "-c", RECV_PY, str(DPORT), str(expect), "10"],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        ready = recv.stdout.readline().strip()
        check(ready == "ready", "%s: receiver on B is up (%r)" % (name, ready))
        sh(sys.executable, "-c", SEND_PY, TARGET, str(DPORT), str(FLOWS), str(PKTS_PER_FLOW), ns=NS_A, timeout=30)
        rout, _ = recv.communicate(timeout=30)
        try:
            flows = json.loads(rout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            flows = {}
            print(rout)
        after = {l[1]: read_stat(l[1], "rx_packets", ns=NS_B) for l in LINKS[1:]}
        got = sum(len(v) for v in flows.values())
        hb, hc = LINKS[1][1], LINKS[2][1]
        per_if = {hb: 0, hc: 0}
        flows_on = {hb: 0, hc: 0}
        split = 0
        for sport, ifs in flows.items():
            for i in ifs:
                per_if[i] = per_if.get(i, 0) + 1
            for i in set(ifs):
                flows_on[i] = flows_on.get(i, 0) + 1
            split += len(set(ifs)) > 1
        delta = {k: after[k] - before[k] for k in after}
        print("%s: %d/%d datagrams in %d flows; datagrams per interface %s; flows per interface %s; "
              "flows seen on both %d; rx_packets deltas %s" % (name, got, expect, len(flows), per_if, flows_on,
                                                               split, delta), flush=True)
        # A lost datagram or two on a loaded 2-core box is not weft's fault; most must arrive.
        check(got >= expect * 0.9 and len(flows) == FLOWS, "%s: B receives the UDP flows (%d/%d)" % (name, got, expect))
        check(flows_on[hb] >= FLOWS // 8 and flows_on[hc] >= FLOWS // 8,
              "%s: flows spread over both egress paths (%s)" % (name, flows_on))
        if sticky:
            check(split == 0, "%s: ECMP keeps every flow on one path (%d flows split)" % (name, split))
        # The kernel counters see every datagram the socket saw on that interface (nothing else is sent to B now).
        check(all(delta[k] >= per_if[k] for k in per_if) and delta[hb] > 0 and delta[hc] > 0,
              "%s: hB/hC rx_packets counters agree (%s vs %s)" % (name, delta, per_if))
        wafter = weft.stats()
        if wbefore and wafter:
            wtx = [wafter["ports"][i]["tx_packets"] - wbefore["ports"][i]["tx_packets"] for i in range(3)]
            wrx = [wafter["ports"][i]["rx_packets"] - wbefore["ports"][i]["rx_packets"] for i in range(3)]
            print("%s: weft port stats deltas rx %s tx %s" % (name, wrx, wtx), flush=True)
            check(wrx[0] >= got and wtx[1] + wtx[2] >= got and wtx[1] >= per_if[hb] and wtx[2] >= per_if[hc] and wtx[1] > 0 and wtx[2] > 0,
                  "%s: weft's own counters: port 0 took the flows in, ports 1 and 2 both sent" % name)
        else:
            check(False, "%s: weft answers show port stats json around the flows" % name)
    finally:
        rc = weft.stop()
        text = weft.text()
        print("\n".join(text.splitlines()[-12:]), flush=True)
        check(rc == 0, "%s: weft exits 0 after SIGINT (rc=%s)" % (name, rc))
        if PORT_TYPE == "af_xdp":
            left = [l[0] for l in LINKS if xdp_mode(l[0])]
            check(not left, "%s: the XDP program is removed when weft exits (%s)" % (name, left))


def main():
    if os.geteuid() != 0:
        print("skip: needs root for network namespaces")
        return 77
    if not shutil.which("ip") or subprocess.run(["ip", "netns", "list"], stdout=subprocess.DEVNULL,
                                                stderr=subprocess.DEVNULL).returncode != 0:
        print("skip: ip netns unavailable")
        return 77
    if PORT_TYPE not in ("af_packet", "af_xdp"):
        print("usage: weft_netns_test.py WEFT [af_packet|af_xdp]")
        return 2
    if PORT_TYPE == "af_xdp" and af_xdp_missing():
        print("skip: " + af_xdp_missing())
        return 77
    print("port type: net_%s" % PORT_TYPE, flush=True)
    if not shutil.which("ethtool"):
        notes.append("ethtool missing: veth offloads left on (af_packet may see partial checksums)")
    t0 = time.monotonic()
    work = tempfile.mkdtemp(prefix="weft_netns_")
    try:
        try:
            setup()
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            check(False, "namespace setup: %s" % e)
            return 1
        run_case("ecmp", work, ["nhg add 2 ports 1 2", "route add 10.10.9.0/24 nhg 2"], sticky=True)
        run_case("ars", work, ["ars object add 1 mode flowlet-quality idle-time 100 max-flows 1024",
                               "nhg add 2 ars 1 primary 1,2", "route add 10.10.9.0/24 nhg 2"], sticky=False)
    finally:
        cleanup()
        left = [n for n in (NS_A, NS_B) if n in sh("ip", "netns", "list", check_rc=False)]
        left += [l[0] for l in LINKS if os.path.exists("/sys/class/net/" + l[0])]
        check(not left, "namespaces and veths removed (%s)" % left)
    for n in notes:
        print("note: " + n)
    print("%d failures in %.1f s" % (len(failures), time.monotonic() - t0))
    if not failures:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
