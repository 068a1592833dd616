#!/usr/bin/env python3
"""An IB-over-Ethernet fabric of real weft switches, managed by an SM that runs in an end node:
every weft is an SMA (issue 29, test 2).

    h1 (weft-ca --sm) -- L1 -- S -- L2 -- h2 (weft-ca)

Three weft processes (leaves L1, L2, spine S), each in a namespace of its own with its ports on
veth pairs through net_af_packet (qpairs=2 with --rxq 2: the second TX queue is the control
thread's, which sends the SMA's SMPs), --idle-sleep-max-us 1000 so that they share the machine's
cores; two hosts running weft-ca. Checked:

  1. h1's SM discovers the fabric through the switches' SMAs (3 switches, 2 CAs), assigns LIDs
     and programs it; each switch's `show sma json` reports the LID the SM gave it and its
     `show lft json` is the tree's only routing (every LID to the port towards it; the switch's
     own LID has no entry: it is port 0, the switch itself).
  2. h1 and h2 exchange LID-addressed data frames across L1, S and L2: all arrive, in order, from
     the right source LID, none misdelivered.
  3. With L1's host port no longer a fabric port (`port 1 fabric off`), the SM's SMPs are
     dropped there and counted ("not a fabric port"), and the SM finds nothing.
  4. M_Key: from h1's wire (a raw socket, SMPs encoded here independently of weft_sm), L1's
     PortInfo is read and set back with an M_Key and protection 2; a Set and a Get with a wrong
     key then go unanswered, are counted as M_Key violations, and change nothing (the LID stays).
     While L1 is protected by a key the SM does not know, the SM sweeps on, finds nothing behind
     L1, and no switch's LFT changes.
  5. A node behind L2 whose SMA answers garbage (garbage_sma.py: NodeInfo as a switch, then
     truncated frames, a wrong base version, attribute, status or TID, random attribute data,
     late duplicates, silence): the SM keeps sweeping and counts them, h1 and h2 keep their
     LIDs and exchange frames meanwhile without a loss, and the LFT entries of every
     well-behaved node stay as they were.

    weft_iboe_fabric_test.py WEFT WEFT_CA

Creates and removes its own namespaces. Exit 77 (skipped) when not root or without netns.
"""
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from weft_session import READY, LiveWeft, eal_prefix  # noqa: E402

failures = []
TAG = "%05d" % (os.getpid() % 100000)
SWITCHES = {  # name: (node GUID, [(port, peer name)])
    "L1": (0x0002C90000A00001, ["S", "h1"]),
    "L2": (0x0002C90000A00002, ["S", "h2", "G"]),
    "S": (0x0002C90000A0000F, ["L1", "L2"]),
}
HOSTS = {"h1": 0x0002C90000B00001, "h2": 0x0002C90000B00002}
# G: a node whose SMA answers garbage (garbage_sma.py); its link is down until the test uses it.
GARBAGE = "G"
LINKS = [("L1", "S"), ("L2", "S"), ("L1", "h1"), ("L2", "h2"), ("L2", GARBAGE)]


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def sh(*args, check_rc=True):
    return subprocess.run(args, check=check_rc, capture_output=True, text=True)


def ns(name):
    return "wif%s%s" % (name, TAG)


def ifname(a, b):
    return "%s%s%s" % (a, b, TAG)  # a's end of the link a-b


class Fabric:
    def __enter__(self):
        self.names = list(SWITCHES) + list(HOSTS) + [GARBAGE]
        for n in self.names:
            sh("ip", "netns", "add", ns(n))
            sh("ip", "-n", ns(n), "link", "set", "lo", "up")
        for a, b in LINKS:
            sh("ip", "link", "add", ifname(a, b), "type", "veth", "peer", "name", ifname(b, a))
            for x, y in ((a, b), (b, a)):
                sh("ip", "link", "set", ifname(x, y), "netns", ns(x))
                sh("ip", "netns", "exec", ns(x), "sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=1" % ifname(x, y),
                   check_rc=False)
                sh("ip", "-n", ns(x), "link", "set", ifname(x, y), "up")
        garbage_link(False)
        return self

    def __exit__(self, *exc):
        for n in self.names:
            sh("ip", "netns", "del", ns(n), check_rc=False)


def garbage_link(up):
    sh("ip", "-n", ns(GARBAGE), "link", "set", ifname(GARBAGE, "L2"), "up" if up else "down")


class Switch(LiveWeft):
    def __init__(self, weft, name, tmp):
        guid, peers = SWITCHES[name]
        self.name = name
        cmds = os.path.join(tmp, name + ".cmds")
        with open(cmds, "w") as f:
            f.write("show sma\n")
        vdevs = ["--vdev=net_af_packet%d,iface=%s,qpairs=2" % (i, ifname(name, p)) for i, p in enumerate(peers)]
        self.start(["ip", "netns", "exec", ns(name), weft, "--no-huge", "--no-pci", "-m", "256", "-l", "0-1",
                    "--file-prefix=" + eal_prefix("iboe" + name), *vdevs, "--", "-i", "--nb-cores", "1",
                    "--rxq", "2", "--idle-sleep-max-us", "1000", "--fabric-ports", "all",
                    "--node-guid", hex(guid), "--node-desc", "weft " + name, "--cmdline-file", cmds])

    def query(self, command, timeout=10):
        """Types `command` (a `... json` one) and returns the JSON line it prints."""
        before = len(self.text())
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for line in self.text()[before:].splitlines():
                if line.startswith("{"):
                    try:
                        return json.loads(line)
                    except ValueError:
                        pass
            time.sleep(0.05)
        return None

    def type(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()


def ca(weft_ca, host, args):
    peer = [a for a, b in LINKS if b == host][0]
    return subprocess.Popen(["ip", "netns", "exec", ns(host), weft_ca, "--if", ifname(host, peer), "--guid",
                             hex(HOSTS[host]), "--json", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="backslashreplace")


def finish(proc, name, timeout=90):
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    if err.strip():
        print("%s stderr (tail):\n%s" % (name, "\n".join(err.strip().splitlines()[-5:])))
    try:
        return proc.returncode, json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        check(False, "%s: a JSON summary (rc %s): %r" % (name, proc.returncode, out[-300:]))
        return proc.returncode, {}


def expected_lft(lids):
    """The tree's only routing: LID -> the dataplane port of each switch towards its owner."""
    # Which neighbour of each switch leads to each node.
    adj = {}
    for a, b in LINKS:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)

    def behind(sw, via):  # every node reached from sw through neighbour via
        seen, todo = {sw}, [via]
        while todo:
            n = todo.pop()
            if n in seen:
                continue
            seen.add(n)
            todo += adj.get(n, [])
        return seen - {sw}

    out = {}
    for sw, (_, peers) in SWITCHES.items():
        table = {}
        for port, peer in enumerate(peers):
            for node in behind(sw, peer):
                if node in lids:
                    table[lids[node]] = port
        out[sw] = table
    return out


def bring_up(weft_ca, switches):
    # 1. the SM's sweeps over the fabric of weft switches
    count = 300
    sm = ca(weft_ca, "h1", ["--sm", "-R", "minhop", "--sweep", "500", "--duration", "6", "--receive"])
    h2 = ca(weft_ca, "h2", ["--duration", "6", "--receive"])
    _, s = finish(sm, "h1 (SM)")
    finish(h2, "h2")
    info = s.get("sm", {})
    print("SM: %s sweeps, last %s in %.1f ms: %s switches, %s CAs" % (
        info.get("sweeps"), info.get("outcome"), info.get("seconds", 0) * 1000, info.get("switches"),
        info.get("cas")))
    check(info.get("outcome") == "programmed", "the SM programmed the fabric: %s" % info.get("why"))
    check(info.get("switches") == 3 and info.get("cas") == 2, "3 switches and 2 CAs discovered")
    by_guid = {int(e["node_guid"], 16): e["lid"] for e in info.get("lids", [])}
    lids = {n: by_guid.get(g) for n, g in list(HOSTS.items()) + [(k, v[0]) for k, v in SWITCHES.items()]}
    print("LIDs:", lids)
    check(all(lids.values()) and len(set(lids.values())) == 5, "five distinct LIDs: %s" % lids)
    if not all(lids.values()):
        return None
    want = expected_lft(lids)
    for name, w in switches.items():
        st = w.query("show sma json") or {}
        check(st.get("lid") == lids[name], "%s reports LID %s as the SM assigned (%s)" % (name, st.get("lid"),
                                                                                    lids[name]))
        check(st.get("dropped_total") == 0 and st.get("m_key_violations") == 0 and st.get("publish_failures") == 0,
              "%s: no SMP dropped, no table refused: %s" % (name, {k: st.get(k) for k in (
                  "dropped_total", "table_refusals", "publish_failures", "last_error")}))
        lft = w.query("show lft json") or {}
        have = {e["lid"]: e.get("port") for e in lft.get("lft", [])}
        check(have == want[name], "%s: LFT %s is the tree's routing %s" % (name, have, want[name]))
        ports = [p["state"] for p in st.get("ports", [])]
        check(ports[:2] == ["Active", "Active"], "%s: the ports to S and the host Active (%s)" % (name, ports))
    # What the SM programmed is the SM's: the running-config keeps the fabric ports, not the LFT.
    l1 = switches["L1"]
    before = len(l1.text())
    l1.type("show running-config")
    check(l1.wait_for(r"# ports\n", 10) is not None, "L1 prints its running-config")
    text = l1.text()[before:]
    check("programmed by the SM (not saved)" in text and "lft set" not in text and "port 0 fabric on" in text,
          "L1's running-config: fabric ports, no LFT entries of the SM's")

    # 2. LID-addressed data across the three switches (the SM's LIDs stay: switches keep theirs,
    # and the SM's discovery order gives the hosts the same ones again)
    common = ["--count", str(count), "--rate", "2000", "--expect", str(count), "--receive", "--duration", "30"]
    sm = ca(weft_ca, "h1", ["--sm", "-R", "minhop", "--sweep", "1000", "--send-to", str(lids["h2"]), *common])
    h2 = ca(weft_ca, "h2", ["--send-to", str(lids["h1"]), *common])
    _, a = finish(sm, "h1 (SM)")
    _, b = finish(h2, "h2")
    for name, x, peer in (("h1", a, "h2"), ("h2", b, "h1")):
        check(x.get("lid") == lids[name], "%s: LID %s again" % (name, x.get("lid")))
        flows = x.get("flows", [])
        print("%s: sent %s, received %s, flows %s" % (name, x.get("sent"), x.get("received"), flows))
        check(x.get("sent") == count and x.get("received") == count, "%s: sent and received %d" % (name, count))
        check(len(flows) == 1 and flows[0]["slid"] == lids[peer] and flows[0]["missing"] == 0 and
              flows[0]["reordered"] == 0 and flows[0]["highest_seq"] == count - 1,
              "%s: one flow from %s, every sequence number in order" % (name, peer))
        check(x.get("misdelivered") == 0, "%s: nothing misdelivered" % name)
    return lids


def not_fabric(weft_ca, l1):
    before = (l1.query("show sma json") or {}).get("dropped", {}).get("not a fabric port", 0)
    l1.type("port 1 fabric off")
    sm = ca(weft_ca, "h1", ["--sm", "-R", "minhop", "--sweep", "300", "--duration", "2"])
    _, s = finish(sm, "h1 (SM)")
    after = l1.query("show sma json") or {}
    dropped = after.get("dropped", {}).get("not a fabric port", 0)
    check(dropped > before, "L1 drops and counts the SMPs on its non-fabric port (%d -> %d)" % (before, dropped))
    check(s.get("sm", {}).get("switches") == 0, "the SM finds no switch behind it")
    check(not after.get("ports", [{}, {}])[1].get("fabric", True), "show sma: port 1 not a fabric port")
    l1.type("port 1 fabric on")


def lft_of(w):
    return {e["lid"]: e.get("port") for e in (w.query("show lft json") or {}).get("lft", [])}


def garbage(weft_ca, switches, lids):
    """Test 4: a node behind L2 claims to be a switch and answers every later SMP with garbage.
    The SM sweeps on, counts what it got, and changes nothing for the nodes that answer well."""
    before = {n: lft_of(w) for n, w in switches.items()}
    garbage_link(True)
    time.sleep(0.5)
    g = subprocess.Popen(["ip", "netns", "exec", ns(GARBAGE), sys.executable,
                          os.path.join(os.path.dirname(os.path.abspath(__file__)), "garbage_sma.py"),
                          ifname(GARBAGE, "L2"), "12"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    count = 2000
    common = ["--count", str(count), "--rate", "400", "--expect", str(count), "--receive", "--duration", "8"]
    sm = ca(weft_ca, "h1", ["--sm", "-R", "minhop", "--sweep", "500", "--send-to", str(lids["h2"]), *common])
    h2 = ca(weft_ca, "h2", ["--send-to", str(lids["h1"]), *common])
    rc, a = finish(sm, "h1 (SM)")
    _, b = finish(h2, "h2")
    out, err = g.communicate(timeout=30)
    garbage_link(False)
    told = json.loads(out.strip().splitlines()[-1]) if out.strip() else {}
    print("garbage SMA: received %s, sent %s" % (told.get("received"), told.get("sent")))
    if err.strip():
        print("garbage SMA stderr:", err.strip()[-300:])
    sent = told.get("sent", {})
    check(sent.get("node_info", 0) > 0 and all(sent.get(k, 0) > 0 for k in ("truncated", "version", "attribute",
                                                                            "status", "tid", "noise", "twice")),
          "the SM asked the garbage node enough to get every kind of bad reply: %s" % sent)
    info, smps = a.get("sm", {}), a.get("sm", {}).get("smps", {})
    print("SM: rc %s, %s sweeps, last %s (%s), SMPs %s" % (rc, info.get("sweeps"), info.get("outcome"),
                                                         info.get("why"), smps))
    check(rc is not None and info.get("sweeps", 0) >= 3, "the SM kept sweeping (%s sweeps)" % info.get("sweeps"))
    check(smps.get("malformed", 0) > 0 and smps.get("error_status", 0) > 0 and smps.get("unmatched", 0) > 0,
          "the SM counted malformed replies, error statuses and unmatched replies: %s" % smps)
    by_guid = {int(e["node_guid"], 16): e["lid"] for e in info.get("lids", [])}
    same = all(by_guid.get(g_) == lids[n] for n, g_ in list(HOSTS.items()) + [(k, v[0]) for k, v in SWITCHES.items()])
    check(same, "every well-behaved node keeps its LID")
    for name, x, peer in (("h1", a, "h2"), ("h2", b, "h1")):
        flows = x.get("flows", [])
        check(x.get("received") == count and len(flows) == 1 and flows[0]["missing"] == 0 and
              flows[0]["reordered"] == 0, "%s: all %d frames from %s arrived in order meanwhile (%s)" % (
                  name, count, peer, flows))
    real = set(lids.values())
    for n, w in switches.items():
        after = lft_of(w)
        check(w.proc.poll() is None, "%s still runs" % n)
        kept = {lid: port for lid, port in after.items() if lid in real}
        check(kept == {lid: port for lid, port in before[n].items() if lid in real},
              "%s: the LFT entries of the well-behaved nodes unchanged (%s)" % (n, kept))


def m_key_unknown(weft_ca, switches, lids):
    """Test 4: L1 protected by an M_Key the SM does not know: L1 drops the SM's SMPs, the SM carries
    on, and no switch's tables change."""
    before = {n: lft_of(w) for n, w in switches.items()}
    l1 = switches["L1"]
    violations = (l1.query("show sma json") or {}).get("m_key_violations", 0)
    rc, s = finish(ca(weft_ca, "h1", ["--sm", "-R", "minhop", "--sweep", "300", "--duration", "2"]), "h1 (SM)")
    info = s.get("sm", {})
    after = l1.query("show sma json") or {}
    check(rc is not None and info.get("sweeps", 0) >= 2 and info.get("switches") == 0,
          "the SM sweeps on and finds nothing behind the protected L1 (%s sweeps, %s switches)" % (
              info.get("sweeps"), info.get("switches")))
    check(after.get("m_key_violations", 0) > violations,
          "L1 counted the SM's SMPs as M_Key violations (%s -> %s)" % (violations, after.get("m_key_violations")))
    check(after.get("lid") == lids["L1"], "L1 keeps its LID")
    for n, w in switches.items():
        check(lft_of(w) == before[n], "%s: LFT unchanged" % n)


ETHERTYPE = 0x88B5
SMP_GROUP_MAC = bytes.fromhex("0180c200000e")


def smp_frame(src_mac, slid, dlid, method, attr, attr_mod, data, m_key, tid):
    """A LID-routed SMP (class 0x01) in weft's IB-over-Ethernet frame (control/sm/IBOE_SMP.md)."""
    mad = struct.pack("!BBBBHHQHHIQ", 1, 0x01, 1, method, 0, 0, tid, attr, 0, attr_mod, m_key)
    mad += bytes(32) + data.ljust(64, b"\0") + bytes(128)
    assert len(mad) == 256
    lrh = struct.pack("!BBHHH", 0xF0, 0x02, dlid, (8 + 12 + 8 + 256 + 4) // 4, slid)
    bth = struct.pack("!BBHB3sB3s", 0x64, 0, 0xFFFF, 0, bytes(3), 0, bytes(3))
    deth = struct.pack("!IB3s", 0, 0, bytes(3))
    packet = lrh + bth + deth + mad
    # ICRC: CRC-32 (zlib's) with the variant fields (LRH VL, BTH resv8a) read as ones.
    masked = bytes([packet[0] | 0xF0]) + packet[1:12] + b"\xff" + packet[13:]
    import zlib
    icrc = struct.pack("<I", zlib.crc32(masked) & 0xFFFFFFFF)
    return SMP_GROUP_MAC + src_mac + struct.pack("!H", ETHERTYPE) + packet + icrc


class RawPort:
    """h1's end of the link to L1, as a packet socket in h1's namespace (a child process)."""

    def __init__(self, host, peer):
        self.ifname = ifname(host, peer)
        self.ns = ns(host)

    def exchange(self, frame, tid, wait=1.0):
        """Sends `frame`; returns the MAD of the reply with TID `tid`, or None."""
        code = r"""
import socket, sys, time, struct
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(%d))
s.bind((%r, 0))
s.settimeout(0.05)
s.send(bytes.fromhex(%r))
end = time.monotonic() + %f
while time.monotonic() < end:
    try:
        f = s.recv(4096)
    except socket.timeout:
        continue
    mad = f[14 + 8 + 12 + 8:14 + 8 + 12 + 8 + 256]
    if len(mad) == 256 and mad[1] == 0x01 and struct.unpack("!Q", mad[8:16])[0] == %d:
        print(mad.hex())
        break
""" % (ETHERTYPE, self.ifname, frame.hex(), wait, tid)
        r = sh("ip", "netns", "exec", self.ns, sys.executable, "-c", code, check_rc=False)
        out = r.stdout.strip()
        return bytes.fromhex(out) if out else None

    def mac(self):
        return bytes.fromhex(sh("ip", "netns", "exec", self.ns, "cat",
                                "/sys/class/net/%s/address" % self.ifname).stdout.strip().replace(":", ""))


def m_key(weft_ca, switches, lids):
    l1 = switches["L1"]
    port = RawPort("h1", "L1")
    src = port.mac()
    slid, dlid = lids["h1"], lids["L1"]
    port_info = 0x0015
    reply = port.exchange(smp_frame(src, slid, dlid, 0x01, port_info, 0, b"", 0, 0x5001), 0x5001)
    check(reply is not None and reply[3] == 0x81 and reply[4:6] == b"\0\0",
          "L1 answers a LID-routed Get PortInfo from h1's wire")
    if reply is None:
        return
    data = bytearray(reply[64:128])
    key = 0x1122334455667788
    data[0:8] = struct.pack("!Q", key)
    data[26:28] = b"\0\0"  # no lease: the protection stays
    data[32] &= 0xF0  # PortState: no change
    data[33] &= 0x0F  # PortPhysicalState: no change
    data[34] = (data[34] & 0x3F) | 0x80  # M_KeyProtectBits 2: Gets need the key too
    reply = port.exchange(smp_frame(src, slid, dlid, 0x02, port_info, 0, bytes(data), 0, 0x5002), 0x5002)
    check(reply is not None and reply[4:6] == b"\0\0", "L1 takes the M_Key (Set with no key while it has none)")
    before = (l1.query("show sma json") or {}).get("m_key_violations", -1)
    wrong = bytearray(data)
    wrong[16:18] = struct.pack("!H", 0x77)  # would change the LID
    r1 = port.exchange(smp_frame(src, slid, dlid, 0x02, port_info, 0, bytes(wrong), 0xDEAD, 0x5003), 0x5003)
    r2 = port.exchange(smp_frame(src, slid, dlid, 0x01, port_info, 0, b"", 0xDEAD, 0x5004), 0x5004)
    after = l1.query("show sma json") or {}
    check(r1 is None and r2 is None, "a Set and a Get with the wrong M_Key are not answered")
    check(after.get("m_key_violations") == before + 2,
          "both counted as M_Key violations (%s -> %s)" % (before, after.get("m_key_violations")))
    check(after.get("lid") == lids["L1"] and after.get("m_key_protect") == 2,
          "L1's LID unchanged (%s), protection 2" % after.get("lid"))
    m_key_unknown(weft_ca, switches, lids)
    # The right key still works (and takes the key away again, for the SM of a later run).
    data[0:8] = bytes(8)
    data[34] &= 0x3F
    reply = port.exchange(smp_frame(src, slid, dlid, 0x02, port_info, 0, bytes(data), key, 0x5005), 0x5005)
    check(reply is not None and reply[4:6] == b"\0\0", "a Set with the right M_Key is taken")


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    weft, weft_ca = sys.argv[1], sys.argv[2]
    if os.geteuid() != 0:
        print("SKIP: needs root (network namespaces, AF_PACKET)")
        return 77
    probe = "wifprobe" + TAG
    if sh("ip", "netns", "add", probe, check_rc=False).returncode != 0:
        print("SKIP: no network namespace support")
        return 77
    sh("ip", "netns", "del", probe, check_rc=False)
    tmp = tempfile.mkdtemp(prefix="weft-iboe-")
    with Fabric():
        switches = {n: Switch(weft, n, tmp) for n in SWITCHES}
        try:
            for n, w in switches.items():
                check(w.wait_for(READY, 120) is not None, "%s starts" % n)
            time.sleep(1)  # links up, seen by the control loops
            for n, w in switches.items():
                st = w.query("show sma json") or {}
                check([p["control_tx"] for p in st.get("ports", [])] == [True] * len(SWITCHES[n][1]),
                      "%s: every port has the control TX queue" % n)
            if not failures:
                lids = bring_up(weft_ca, switches)
                not_fabric(weft_ca, switches["L1"])
                if lids:
                    garbage(weft_ca, switches, lids)
                    m_key(weft_ca, switches, lids)
        finally:
            for n, w in switches.items():
                rc, out = w.finish(20)
                if rc != 0 or failures:
                    print("--- %s (rc %s), tail:\n%s" % (n, rc, "\n".join(out.splitlines()[-12:])))
    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
