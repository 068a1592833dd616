#!/usr/bin/env python3
"""weft-sm on ibsim (through libumad2sim), checked with infiniband-diags and weft-route.

    weft_sm_test.py WEFT_SM WEFT_ROUTE [OPENSM_REF]

1. No fabric: a clear message and exit 3.
2. A generated 3-level fat tree (kary:k=4,n=3: 48 switches, 64 hosts, two LFT blocks), a host
   first in the net file so the SM sits on a CA. `weft-sm -o -R ftree`: the fabric it discovered
   (--write-net) is the net file's (every node, GUID, port count and link); every port is ACTIVE
   (iblinkinfo); every switch's LFT as `ibroute <switch LID>` reads it (LID-routed through the
   programmed tables) is the one `weft-route -R ftree` computes for the same fabric and the
   guid2lid weft-sm wrote, and weft-sm's opensm-lfts.dump is that dump byte for byte;
   `ibtracert` reaches between sampled host pairs, along the LFTs.
   infiniband-diags' dump_lfts reads the same tables, and check_lft_balance -v shows each switch's
   down ports and up ports evenly used.
   With OPENSM_REF (scripts/opensm-ref) and opensm installed, the same fabric is also brought up
   by OpenSM on a simulator of its own: its opensm-lfts.dump and opensm-subnet.lst are weft-sm's,
   byte for byte.
3. `-R minhop` on the same running fabric: the same checks against weft-route -R minhop, and only
   LFT blocks that changed are written (the switches' tables are read first); a third run with
   the same routing writes no block and sets no port.
4. weft-sm left running (-s 1 -A): light sweeps (one SwitchInfo per switch) find nothing and
   start no heavy sweep; then a spine link unlinked in ibsim's console; the switch's trap 128
   makes weft-sm sweep at once, reroute (the unicast cache says why it recomputes; ftree falls back to minhop on the no longer pure tree,
   as OpenSM does, keeping every entry still on a min-hop port) and reprogram: the LFTs are
   `weft-route --reroute`'s for the fabric without that link after the original,
   ibtracert still reaches. ReLink: the ports come back ACTIVE and the ftree tables return.
5. LMC 2 with updn on a fresh 2-level tree: the LIDs ibsim gave that are not aligned to 4 are
   reassigned (logged), every host gets 4 LIDs, the LFTs are weft-route's for -l 2 -R updn, and
   ibtracert reaches the first and the last LID of each sampled host.
   Multicast: three groups (--mcast-groups: every host, every switch, every fifth host); the MFTs
   `ibroute -M` reads on every switch are the trees `weft-route --dump-mfts` builds for the same
   fabric, LIDs and groups, and weft-sm's weft-mfts.dump is that listing.
   A 4x4x4 torus: -R torus-2QoS -Q --torus_config (SL2VL programmed) and -R nue, each checked
   as in 2 (ports ACTIVE, ibroute LFTs = weft-route's, ibtracert reaches).
6. A ring of five switches with -R minhop --no_fallback: the routing has a credit loop, weft-sm
   says so, exits 4 and programs nothing (ibroute finds no route on the switches). Then -R dfsssp
   on the same ring: verified loop-free on 2 VLs and programmed; the SL2VL tables smpquery reads
   on the switches map SL n to VL min(n, 1), the LFTs are weft-route's, ibtracert reaches.
Exit 77 (skipped) when ibsim, infiniband-diags or libumad2sim are missing.
"""
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

UMAD2SIM = os.environ.get("UMAD2SIM", "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so")
TORUS_CONF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts", "torus-2qos-conf")

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)
    return cond


def host_first(net):
    """The net file with its first Hca block moved to the front (ibsim attaches the SM there)."""
    head, *blocks = re.split(r"\n(?=(?:switchguid|caguid)=)", net)
    ca = next(b for b in blocks if re.search(r"^Hca", b, re.M))
    return head + "\n" + "\n".join([ca] + [b for b in blocks if b is not ca]) + "\n"


def parse_net(net):
    """guid -> (type, ports, desc) and the set of links {(guid, port), (guid, port)} of a net file."""
    nodes, names, links, cur = {}, {}, set(), None
    guid = None
    raw = []
    for line in net.splitlines():
        line = line.split("#", 1)[0].strip()
        if m := re.match(r"(switchguid|caguid)=(0x[0-9a-fA-F]+)", line):
            guid = int(m.group(2), 16)
        elif m := re.match(r'(Switch|Hca|Ca)\s+(\d+)\s+"([^"]+)"', line):
            cur = guid
            nodes[guid] = ("switch" if m.group(1) == "Switch" else "ca", int(m.group(2)), m.group(3))
            names[m.group(3)] = guid
        elif (m := re.match(r'\[(\d+)\]\s+"([^"]+)"\[(\d+)\]', line)) and cur is not None:
            raw.append((cur, int(m.group(1)), m.group(2), int(m.group(3))))
    for g, p, peer, pp in raw:
        links.add(frozenset([(g, p), (names[peer], pp)]))
    return nodes, links


def parse_dump(text):
    """switch guid -> {lid: port} of an opensm-lfts.dump."""
    out, cur = {}, None
    for line in text.splitlines():
        if m := re.match(r"Unicast lids \[.*\] of switch Lid \d+ guid (0x[0-9a-f]+)", line):
            cur = out.setdefault(int(m.group(1), 16), {})
        elif (m := re.match(r"(0x[0-9a-f]+) (\d+) ", line)) and cur is not None:
            cur[int(m.group(1), 16)] = int(m.group(2))
    return out


def ibroute_view(routes):
    """A dump's {lid: port} as ibroute shows it: ibroute leaves out the switch's top LID when that
    LID starts a block of 64 (infiniband-diags reads one block too few); ibtracert checks it."""
    top = max(routes, default=0)
    return {l: p for l, p in routes.items() if not (l == top and l % 64 == 0)}


def parse_ibroute(text):
    """(switch guid, {lid: port}) of `ibroute` output."""
    m = re.search(r"guid (0x[0-9a-f]+)", text)
    routes = {int(a, 16): int(b) for a, b in re.findall(r"^(0x[0-9a-f]+) (\d+) ", text, re.M)}
    return (int(m.group(1), 16) if m else None), routes


def parse_ibroute_mft(text):
    """(switch guid, {mlid: [ports]}) of `ibroute -M` output: an x under a port's column."""
    m = re.search(r"guid (0x[0-9a-f]+)", text)
    head = next((l for l in text.splitlines() if l.strip().startswith("Ports:")), "")
    cols = [i for i, ch in enumerate(head) if ch.isdigit() and i > head.index(":")]  # port p at cols[p]
    out = {}
    for line in text.splitlines():
        if rm := re.match(r"(0x[0-9a-f]{4}) ", line):
            out[int(rm.group(1), 16)] = [p for p, c in enumerate(cols) if c < len(line) and line[c] == "x"]
    return (int(m.group(1), 16) if m else None), out


def parse_mft_listing(text):
    """switch guid -> {mlid: [ports]} of weft-route's --dump-mfts (weft-sm's weft-mfts.dump)."""
    out = {}
    for line in text.splitlines():
        if m := re.match(r"(0x[0-9a-f]+) (0x[0-9a-f]+) ([0-9,]+)", line):
            out.setdefault(int(m.group(2), 16), {})[int(m.group(1), 16)] = [int(p) for p in m.group(3).split(",")]
    return out


def guid2lid(path):
    out = {}
    for line in open(path):
        f = line.split()
        if len(f) == 3:
            out[int(f[0], 16)] = int(f[1], 16)
    return out


class Sim:
    """ibsim on a private socket, with the environment that reaches it through umad2sim."""

    def __init__(self, work, net_text, tag):
        self.net = os.path.join(work, f"{tag}.net")
        open(self.net, "w").write(net_text)
        self.env = dict(os.environ, IBSIM_SOCKNAME=f"weftsm-{tag}-{os.getpid()}")
        self.penv = dict(self.env, LD_PRELOAD=UMAD2SIM)
        self.logf = os.path.join(work, f"ibsim-{tag}.log")
        # ibsim's console on a pipe: links are cut and restored through it.
        self.proc = subprocess.Popen(["ibsim", "-s", self.net], env=self.env, stdout=open(self.logf, "w"),
                                     stderr=subprocess.STDOUT, stdin=subprocess.PIPE, text=True)
        for _ in range(100):
            if "Network simulator ready" in open(self.logf).read():
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError("ibsim did not start: " + open(self.logf).read()[-500:])

    def run(self, *args, timeout=120):
        return subprocess.run(list(args), env=self.penv, capture_output=True, text=True, timeout=timeout)

    def console(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()

    def stop(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def unlink_net(net, name, port):
    """The net file text without the cable on port `port` of node `name` (both of its lines)."""
    peer = None
    cur = None
    for line in net.splitlines():
        if m := re.match(r'(?:Switch|Hca|Ca)\s+\d+\s+"([^"]+)"', line):
            cur = m.group(1)
        elif cur == name and (m := re.match(r'\[(\d+)\]\s+"([^"]+)"\[(\d+)\]', line)) and int(m.group(1)) == port:
            peer = (m.group(2), int(m.group(3)))
    out, cur, dropped = [], None, False
    for line in net.splitlines():
        if m := re.match(r'(?:Switch|Hca|Ca)\s+\d+\s+"([^"]+)"', line):
            cur = m.group(1)
        if dropped and line.startswith("# weft-link"):
            continue  # the dropped port line's speed note
        dropped = False
        if m := re.match(r'\[(\d+)\]\s+"', line):
            if (cur, int(m.group(1))) in ((name, port), peer):
                dropped = True
                continue
        out.append(line)
    return "\n".join(out) + "\n", peer


def wait_for(path, needle, count, seconds=30, settle=1.0):
    """Waits until `needle` occurs `count` times in the file and no more for `settle` s; the text."""
    deadline = time.monotonic() + seconds
    seen, since, text = -1, time.monotonic(), ""
    while time.monotonic() < deadline:
        text = open(path).read() if os.path.exists(path) else ""
        n = text.count(needle)
        if n != seen:
            seen, since = n, time.monotonic()
        elif n >= count and time.monotonic() - since >= settle:
            return text
        time.sleep(0.1)
    return text


def compare_lfts(sim, weft_route, work, net_text, engine, tag, dump, extra=(), rerouted_from=None):
    """The switches' LFTs (ibroute, LID-routed) and weft-sm's dump against weft-route's for net_text
    (routed afresh, or, with rerouted_from, re-routed after that fabric as a resident SM does)."""
    net = os.path.join(work, f"{tag}.net")
    open(net, "w").write(net_text)
    ref = os.path.join(work, f"{tag}.dump")
    if rerouted_from:
        first = os.path.join(work, f"{tag}-before.net")
        open(first, "w").write(rerouted_from)
        how = ["--topo", first, "--reroute", net, "--dump-rerouted-lfts", ref]
    else:
        how = ["--topo", net, "--dump-lfts", ref]
    rr = subprocess.run([weft_route, *how, "--guid2lid", os.path.join(work, "guid2lid"), "-R", engine,
                         "-q", *extra], capture_output=True, text=True)
    check(rr.returncode == 0, f"{tag}: weft-route: {rr.stderr}")
    check(open(dump).read() == open(ref).read(), f"{tag}: weft-sm's opensm-lfts.dump is weft-route's")
    want = parse_dump(open(ref).read())
    lids = guid2lid(os.path.join(work, "guid2lid"))
    for g in want:
        sw, routes = parse_ibroute(sim.run("ibroute", str(lids[g])).stdout)
        check(sw == g and routes == ibroute_view(want[g]), f"{tag}: switch {g:#x}: the LFT on the switch is weft-route's")
    print(f"{tag}: {len(want)} switch LFTs compared")


def generated_sim(weft_route, work, spec, tag):
    """ibsim on a fabric from weft-route's generator, a host first (the SM's node)."""
    gen = os.path.join(work, f"{tag}-gen.net")
    subprocess.run([weft_route, "--gen", spec, "--write-net", gen, "-q"], check=True, capture_output=True)
    return Sim(work, host_first(open(gen).read()), tag)


def phase_line(stderr, name):
    return next((l for l in stderr.splitlines() if f"phase {name}:" in l), "")


def weft_sm_run(sim, weft_sm, work, engine, tag, extra=()):
    out_dir = os.path.join(work, tag)
    os.makedirs(out_dir, exist_ok=True)
    t0 = time.monotonic()
    r = sim.run(weft_sm, "-o", "-R", engine, "-D", out_dir, "--guid2lid", os.path.join(work, "guid2lid"),
                "--write-net", os.path.join(out_dir, "discovered.net"), *extra)
    took = time.monotonic() - t0
    print(f"--- weft-sm -o -R {engine} ({took:.2f} s wall): exit {r.returncode}")
    print(r.stderr, end="")
    return r, out_dir


def check_against_opensm(opensm_ref, sim, work, engine, ours):
    """OpenSM routes the same net file with `engine`: its LFT dump and subnet list must be ours."""
    if not opensm_ref or not shutil.which("opensm"):
        print(f"{engine}: OpenSM comparison skipped (no opensm)")
        return
    out = os.path.join(work, f"opensm-{engine}")
    r = subprocess.run([opensm_ref, sim.net, engine, out, "--timeout", "120"], capture_output=True, text=True)
    if not check(r.returncode == 0, f"opensm-ref {engine}: {r.stderr[-300:]}"):
        return
    for name in ("opensm-lfts.dump", "opensm-subnet.lst"):
        theirs = open(os.path.join(out, "dump", name)).read()
        same = check(theirs == open(os.path.join(ours, name)).read(), f"{engine}: OpenSM's {name} is weft-sm's")
        print(f"{engine}: OpenSM's {name} {'identical to' if same else 'differs from'} weft-sm's")


def check_fabric(sim, weft_sm, weft_route, work, engine, tag, pairs, extra=()):
    """Runs weft-sm with `engine` (and `extra` options, given to weft-route too) and checks LFTs,
    states and paths; returns weft-sm's result."""
    r, out_dir = weft_sm_run(sim, weft_sm, work, engine, tag, extra)
    if not check(r.returncode == 0, f"{tag}: weft-sm exited {r.returncode}"):
        return r
    net_nodes, net_links = parse_net(open(sim.net).read())
    found_nodes, found_links = parse_net(open(os.path.join(out_dir, "discovered.net")).read())
    check(found_nodes == net_nodes, f"{tag}: discovered nodes (GUID, kind, ports, description) are the net file's")
    check(found_links == net_links, f"{tag}: discovered links are the net file's "
                                    f"({len(found_links)} found, {len(net_links)} in the file)")

    # Every port of every link ACTIVE.
    links = sim.run("iblinkinfo")
    # Lines of cabled ports (an uncabled one shows no peer: `[  ] "" ( )`).
    ends = [l for l in links.stdout.splitlines() if "==(" in l and '""' not in l]
    check(len(ends) >= len(net_links), f"{tag}: iblinkinfo lists {len(ends)} link ends")
    bad = [l for l in ends if "Active/" not in l]
    check(not bad, f"{tag}: ports not ACTIVE: {bad[:3]}")

    # The reference: weft-route on the same fabric and LIDs.
    ref = os.path.join(out_dir, "weft-route.dump")
    rr = subprocess.run([weft_route, "--topo", sim.net, "--guid2lid", os.path.join(work, "guid2lid"), "-R", engine,
                         "--dump-lfts", ref, "-q", *extra], capture_output=True, text=True)
    check(rr.returncode == 0, f"{tag}: weft-route: {rr.stderr}")
    ours = open(os.path.join(out_dir, "opensm-lfts.dump")).read()
    theirs = open(ref).read()
    check(ours == theirs, f"{tag}: weft-sm's opensm-lfts.dump is weft-route's for the same fabric and LIDs")
    want = parse_dump(theirs)
    lids = guid2lid(os.path.join(work, "guid2lid"))
    switches = [g for g, (kind, _, _) in net_nodes.items() if kind == "switch"]
    read = 0
    for g in switches:
        out = sim.run("ibroute", str(lids[g]))
        sw, routes = parse_ibroute(out.stdout)
        if not check(out.returncode == 0 and sw == g, f"{tag}: ibroute {lids[g]}: {out.stderr.strip()}"):
            continue
        read += 1
        check(routes == ibroute_view(want.get(g, {})), f"{tag}: switch {g:#x}: the LFT on the switch is weft-route's")
    print(f"{tag}: {read} switch LFTs read with ibroute and compared")

    # Host pairs: ibtracert follows the programmed LFTs hop by hop.
    hosts = sorted(lids[g + 1] for g, (kind, _, _) in net_nodes.items() if kind == "ca")
    reached = 0
    # The top LID (which ibroute may not show) is always among the destinations.
    for src, dst in pairs(hosts) + [(hosts[0], hosts[-1])]:
        t = sim.run("ibtracert", str(src), str(dst))
        ok = t.returncode == 0 and re.search(r"^To ca .* lid %d-%d " % (dst, dst), t.stdout, re.M)
        reached += bool(ok)
        check(ok, f"{tag}: ibtracert {src} {dst}: {t.stdout[-200:]} {t.stderr.strip()}")
    print(f"{tag}: ibtracert reached {reached} host pairs")
    return r


def check_diags_balance(sim, work, dump):
    """dump_lfts (every switch by directed route) reads weft-sm's LFTs, and check_lft_balance
    finds ftree's tables balanced."""
    if not (shutil.which("dump_lfts") and shutil.which("check_lft_balance") and shutil.which("ibnetdiscover")):
        print("dump_lfts/check_lft_balance: skipped (not installed)")
        return
    lfts, cache = os.path.join(work, "dump_lfts.txt"), os.path.join(work, "ibnetdiscover.cache")
    out = sim.run("dump_lfts")
    open(lfts, "w").write(out.stdout)
    read = {}
    for block in re.split(r"\n(?=Unicast lids)", out.stdout):
        g, routes = parse_ibroute(block)
        if g is not None:
            read[g] = routes
    want = parse_dump(open(dump).read())
    check(out.returncode == 0 and read and all(read.get(g) == ibroute_view(r) for g, r in want.items()),
          f"dump_lfts: every switch's LFT is weft-sm's ({len(read)} switches read)")
    sim.run("ibnetdiscover", "--cache", cache)
    # check_lft_balance wants every port of a switch equally used, which a fat tree deeper than
    # two levels never is (a middle switch's down ports carry fewer LIDs than its up ports); with
    # -v it lists every switch's port usage: balanced here means all down ports carry the same
    # and all up ports carry the same, at most two values per switch.
    bal = sim.run("check_lft_balance", "-v", "-l", lfts, "-i", cache)
    usage, cur = {}, None
    for line in bal.stdout.splitlines():
        if m := re.search(r"Switch Port Usage: (.*), (0x[0-9a-f]+)", line):
            cur = usage.setdefault(m.group(1), set())
        elif (m := re.match(r"Port (\d+): (\d+)", line)) and cur is not None:
            cur.add(int(m.group(2)))
    worst = max(usage.items(), key=lambda kv: len(kv[1]), default=("", set()))
    print(f"check_lft_balance: {len(usage)} switches; at most {len(worst[1])} port loads on one ({worst[0]})")
    check(bal.returncode == 0 and usage and all(len(v) <= 2 for v in usage.values()),
          f"check_lft_balance: every switch's down ports and up ports evenly used: {worst}")


def check_multicast(sim, weft_sm, weft_route, work):
    """--mcast-groups: the MFTs `ibroute -M` reads on every switch are the trees weft-route builds
    for the same fabric, LIDs and groups; a second run writes no MFT block."""
    groups = os.path.join(work, "groups")
    net_nodes, _ = parse_net(open(sim.net).read())
    hosts = sorted(g + 1 for g, (kind, _, _) in net_nodes.items() if kind == "ca")
    open(groups, "w").write("0xC000 all\n0xC001 switches\n0xC042 %s\n" % " ".join(hex(g) for g in hosts[::5]))
    out_dir = os.path.join(work, "mcast")
    r = sim.run(weft_sm, "-o", "-R", "ftree", "--mcast-groups", groups, "-D", out_dir,
                "--guid2lid", os.path.join(work, "guid2lid"))
    print(phase_line(r.stderr, "multicast"))
    print(phase_line(r.stderr, "programming"))
    if not check(r.returncode == 0, f"mcast: weft-sm exited {r.returncode}: {r.stderr[-300:]}"):
        return
    check("3 trees checked" in phase_line(r.stderr, "multicast"), "mcast: three trees built and checked")
    ref = os.path.join(work, "mcast-ref.txt")
    rr = subprocess.run([weft_route, "--topo", sim.net, "--guid2lid", os.path.join(work, "guid2lid"), "-R", "ftree",
                         "--mcast-groups", groups, "--dump-mfts", ref, "-q"], capture_output=True, text=True)
    check(rr.returncode == 0, f"mcast: weft-route: {rr.stderr}")
    check(open(os.path.join(out_dir, "weft-mfts.dump")).read() == open(ref).read(),
          "mcast: weft-sm's weft-mfts.dump is weft-route's --dump-mfts")
    want = parse_mft_listing(open(ref).read())
    lids = guid2lid(os.path.join(work, "guid2lid"))
    read = entries = 0
    for g, (kind, _, _) in net_nodes.items():
        if kind != "switch":
            continue
        out = sim.run("ibroute", "-M", str(lids[g]))
        sw, mft = parse_ibroute_mft(out.stdout)
        if not check(out.returncode == 0 and sw == g, f"mcast: ibroute -M {lids[g]}: {out.stderr.strip()}"):
            continue
        read += 1
        entries += len(mft)
        check(mft == want.get(g, {}), f"mcast: switch {g:#x}: MFT {mft} is weft-route's {want.get(g, {})}")
    print(f"mcast: {read} switch MFTs read with ibroute -M ({entries} entries) and compared")
    check(entries == sum(len(v) for v in want.values()) and entries > 0, "mcast: every tree entry on the switches")


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    weft_sm, weft_route = sys.argv[1:3]
    opensm_ref = sys.argv[3] if len(sys.argv) == 4 else None
    tools = ["ibsim", "ibroute", "ibtracert", "iblinkinfo"]
    if not (all(shutil.which(t) for t in tools) and os.access(UMAD2SIM, os.R_OK)):
        print("skipped: ibsim, infiniband-diags or libumad2sim missing")
        return 77

    out = subprocess.run([weft_sm, "-o", "--ca", "weft-no-such-ca", "--port", "1"], capture_output=True, text=True,
                         timeout=30)
    check(out.returncode == 3 and "cannot reach the fabric: umad_get_port(weft-no-such-ca, 1)" in out.stderr,
          f"no fabric: exit {out.returncode}, {out.stderr.strip()}")

    work = tempfile.mkdtemp(prefix="weft-sm-test-")
    sims = []
    try:
        sim = generated_sim(weft_route, work, "kary:k=4,n=3", "tree")
        sims.append(sim)
        rng = random.Random(1)

        def sample(hosts):
            pairs = [(a, b) for a in hosts for b in hosts if a != b]
            return rng.sample(pairs, 120)

        r = check_fabric(sim, weft_sm, weft_route, work, "ftree", "ftree", sample)
        check("engine ftree (chain ftree)" in phase_line(r.stderr, "routing"), "ftree routed")
        v = sim.run(weft_sm, "-o", "--verify_only")
        check(v.returncode == 0 and "routing: auto: fat tree" in v.stderr and "(chain auto)" in v.stderr,
              f"the default chain is auto, and it says it found a fat tree: {phase_line(v.stderr, 'routing')}")
        check("0 failures" in phase_line(r.stderr, "programming"), "ftree: no programming failure")
        check_against_opensm(opensm_ref, sim, work, "ftree", os.path.join(work, "ftree"))
        check_diags_balance(sim, work, os.path.join(work, "ftree", "opensm-lfts.dump"))
        check_multicast(sim, weft_sm, weft_route, work)

        r = check_fabric(sim, weft_sm, weft_route, work, "minhop", "minhop", sample)
        prog = phase_line(r.stderr, "programming")
        m = re.search(r"LFT blocks (\d+) written, (\d+) unchanged of (\d+) read", prog)
        check(m is not None, f"minhop: programming line {prog}")
        if m:
            written, unchanged, read = map(int, m.groups())
            check(read == 48 * 2 and written + unchanged == read and written > 0,
                  f"minhop over ftree: every block read, only changed ones written ({prog})")
        check_against_opensm(opensm_ref, sim, work, "minhop", os.path.join(work, "minhop"))
        again, _ = weft_sm_run(sim, weft_sm, work, "minhop", "minhop-again")
        prog = phase_line(again.stderr, "programming")
        check(again.returncode == 0 and "0 LID Sets" in prog and "LFT blocks 0 written, 96 unchanged of 96 read" in prog
              and "0 ports armed, 0 activated" in prog, f"a second identical sweep changes nothing: {prog}")

        # Resident: a link fails and comes back.
        net_text = open(sim.net).read()
        nodes, _ = parse_net(net_text)
        by_name = {desc: kind for (kind, _, desc) in nodes.values()}
        leaf, port = next((m.group(1), int(p.group(1)))
                          for block in re.split(r"\n(?=(?:switchguid|caguid)=)", net_text)
                          if (m := re.search(r'Switch\s+\d+\s+"([^"]+)"', block))
                          for p in re.finditer(r'^\[(\d+)\]\s+"([^"]+)"', block, re.M)
                          if by_name.get(p.group(2)) == "switch")
        res_dir = os.path.join(work, "resident")
        os.makedirs(res_dir)
        log = os.path.join(res_dir, "weft-sm.log")
        resident = subprocess.Popen([weft_sm, "-s", "1", "-R", "ftree", "-A", "-D", res_dir, "-f", log, "-q",
                                     "--guid2lid", os.path.join(work, "guid2lid")], env=sim.penv,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            before = wait_for(log, "sweep programmed", 1).count("sweep programmed")
            quiet = wait_for(log, "light sweep:", 2, settle=0)
            check(re.search(r"light sweep: [0-9.]+ s, 48 SMPs, 48 switches; no change", quiet) is not None,
                  "light sweeps between heavy ones: one SwitchInfo per switch, no change")
            check(quiet.count("sweep programmed") == before, "a quiet fabric gets no heavy sweep")
            t_cut = time.monotonic()
            sim.console(f'Unlink "{leaf}"[{port}]')
            text = wait_for(log, "sweep programmed", before + 1)
            print(f"--- link {leaf}[{port}] unlinked; reprogrammed within {time.monotonic() - t_cut:.2f} s:")
            print("".join(l + "\n" for l in text.splitlines()[1:]), end="")
            check("trap 128 from LID" in text, "link down: the trap arrived")
            check("unicast cache: recomputed: switch-to-switch link down" in text,
                  "link down: -A recomputes (a switch link is not the cache's to absorb) and says why")
            cut_text, peer = unlink_net(net_text, leaf, port)
            check(peer is not None, f"{leaf}[{port}] is cabled")
            # minhop (ftree's fallback on the tree without that link) keeps every entry of the ftree
            # tables that is still a min-hop port, as a resident OpenSM does: weft-route --reroute.
            compare_lfts(sim, weft_route, work, cut_text, "ftree", "link-down", os.path.join(res_dir, "opensm-lfts.dump"),
                         rerouted_from=net_text)
            m = re.search(r"LFT blocks (\d+) written", phase_line(text.split("trap 128 from LID")[-1], "programming"))
            print(f"link down: {m.group(1) if m else '?'} LFT blocks rewritten")
            hosts = sorted(v for g, v in guid2lid(os.path.join(work, "guid2lid")).items() if nodes.get(g - 1, ("",))[0] == "ca")
            for src, dst in sample(hosts)[:20]:
                t = sim.run("ibtracert", str(src), str(dst))
                check(t.returncode == 0 and f"lid {dst}-{dst}" in t.stdout.splitlines()[-1], f"link down: ibtracert {src} {dst}")
            before = text.count("sweep programmed")
            sim.console(f'ReLink "{leaf}"[{port}]')
            text = wait_for(log, "sweep programmed", before + 1)
            print("--- link restored:")
            print("".join(l + "\n" for l in text.splitlines()[-9:]), end="")
            check("2 ports armed, 2 activated" in text, "link restored: both ends ACTIVE again")
            compare_lfts(sim, weft_route, work, net_text, "ftree", "link-up", os.path.join(res_dir, "opensm-lfts.dump"))
            links = sim.run("iblinkinfo").stdout.splitlines()
            check(all("Active/" in l for l in links if "==(" in l and '""' not in l), "link restored: all ports ACTIVE")
        finally:
            resident.send_signal(signal.SIGTERM)
            check(resident.wait(timeout=10) == 0, f"resident weft-sm exit {resident.returncode}")
        sim.stop()
        sims.remove(sim)

        lmc = generated_sim(weft_route, work, "kary:k=4,n=2", "lmc")
        sims.append(lmc)
        os.remove(os.path.join(work, "guid2lid"))
        lmc_dir = os.path.join(work, "lmc")
        os.makedirs(lmc_dir)
        r = lmc.run(weft_sm, "-o", "-l", "2", "-R", "updn", "-D", lmc_dir, "--guid2lid", os.path.join(work, "guid2lid"))
        print(f"--- LMC 2, weft-sm -o -l 2 -R updn: exit {r.returncode}")
        print(phase_line(r.stderr, "lids"))
        check(r.returncode == 0, f"lmc: exit {r.returncode}: {r.stderr[-300:]}")
        check("is not aligned to 4 (LMC 2); reassigned" in r.stderr, "lmc: misaligned LIDs reassigned, logged")
        lmc_nodes, _ = parse_net(open(lmc.net).read())
        ranges = {}
        for line in open(os.path.join(work, "guid2lid")):
            g, base, top = (int(x, 16) for x in line.split())
            ranges[g] = (base, top)
        host_ranges = [ranges[g + 1] for g, (kind, _, _) in lmc_nodes.items() if kind == "ca"]
        check(len(host_ranges) == 16 and all(b % 4 == 0 and t == b + 3 for b, t in host_ranges),
              f"lmc: every host has an aligned block of 4 LIDs: {host_ranges}")
        compare_lfts(lmc, weft_route, work, open(lmc.net).read(), "updn", "lmc", os.path.join(lmc_dir, "opensm-lfts.dump"),
                     ("-l", "2"))
        for (sb, _), (db, dt) in rng.sample([(a, b) for a in host_ranges for b in host_ranges if a != b], 10):
            for dst in (db, dt):
                t = lmc.run("ibtracert", str(sb), str(dst))
                check(t.returncode == 0 and f"lid {db}-{dt}" in t.stdout.splitlines()[-1], f"lmc: ibtracert {sb} {dst}")
        lmc.stop()
        sims.remove(lmc)

        # A 4x4x4 torus: torus-2QoS (its configuration file and QoS, as OpenSM needs them) and nue.
        torus = generated_sim(weft_route, work, "torus:4x4x4,hosts=1", "torus")
        sims.append(torus)
        os.remove(os.path.join(work, "guid2lid"))  # generated GUIDs repeat between fabrics
        conf = os.path.join(work, "torus-2QoS.conf")
        with open(conf, "w") as out:
            subprocess.run([TORUS_CONF, torus.net, "4", "4", "4", "torus"], stdout=out, check=True)

        def torus_pairs(hosts):
            return rng.sample([(a, b) for a in hosts for b in hosts if a != b], 60)

        r = check_fabric(torus, weft_sm, weft_route, work, "torus-2QoS", "torus2qos", torus_pairs,
                         extra=("-Q", "--torus_config", conf, "--no_fallback"))
        check("engine torus-2QoS (chain torus-2QoS)" in phase_line(r.stderr, "routing"), "torus: torus-2QoS routed")
        check("no credit loop" in phase_line(r.stderr, "verification"), "torus-2QoS: verified free of credit loops")
        m = re.search(r"(\d+) SL2VL Sets", phase_line(r.stderr, "programming"))
        check(m is not None and int(m.group(1)) > 0, "torus-2QoS: SL2VL tables programmed")
        r = check_fabric(torus, weft_sm, weft_route, work, "nue", "torus-nue", torus_pairs, extra=("--no_fallback",))
        check("engine nue (chain nue)" in phase_line(r.stderr, "routing"), "torus: nue routed")
        torus.stop()
        sims.remove(torus)

        ring = generated_sim(weft_route, work, "torus:5,hosts=1", "ring")
        sims.append(ring)
        r = ring.run(weft_sm, "-o", "-R", "minhop", "--no_fallback", "--verify_only")
        check(r.returncode == 4 and "credit loop" in r.stderr, f"ring: --verify_only fails too: exit {r.returncode}")
        r = ring.run(weft_sm, "-o", "-R", "dfsssp", "--verify_only")
        check(r.returncode == 0 and "verified (not programmed)" in r.stderr and phase_line(r.stderr, "programming") == "",
              f"ring: dfsssp --verify_only verifies and programs nothing: exit {r.returncode}")
        r = ring.run(weft_sm, "-o", "-R", "minhop", "--no_fallback")
        print(f"--- ring, weft-sm -o -R minhop --no_fallback: exit {r.returncode}")
        print(r.stderr, end="")
        check(r.returncode == 4, f"ring: exit {r.returncode}")
        check("failed verification and is not programmed: credit loop" in r.stderr, "ring: the log says why")
        check(phase_line(r.stderr, "programming") == "", "ring: no programming phase")
        routes = ring.run("ibroute", "-D", "0,1").stdout
        check("0 valid lids dumped" in routes, f"ring: nothing programmed on the SM's switch: {routes[-200:]}")

        ring_dir = os.path.join(work, "ring-dfsssp")
        os.remove(os.path.join(work, "guid2lid"))  # the LMC fabric's (generated GUIDs repeat)
        r = ring.run(weft_sm, "-o", "-R", "dfsssp", "-D", ring_dir, "--guid2lid", os.path.join(work, "guid2lid"))
        print(f"--- ring, weft-sm -o -R dfsssp: exit {r.returncode}")
        print(phase_line(r.stderr, "verification"))
        print(phase_line(r.stderr, "programming"))
        check(r.returncode == 0, f"ring dfsssp: exit {r.returncode}")
        check("no credit loop" in phase_line(r.stderr, "verification") and "on 2 VLs" in phase_line(r.stderr, "verification"),
              "ring dfsssp: loop-free on 2 VLs")
        m = re.search(r"(\d+) SL2VL Sets", phase_line(r.stderr, "programming"))
        check(m is not None and int(m.group(1)) > 0, "ring dfsssp: SL2VL tables programmed")
        pi = ring.run("smpquery", "-D", "portinfo", "0,1", "1").stdout
        print("ring dfsssp: " + next((l for l in pi.splitlines() if l.startswith("OperVLs")), "no OperVLs line"))
        check(re.search(r"^OperVLs:\.*VL0-1$", pi, re.M), "ring dfsssp: the ring ports were armed with 2 operational VLs")
        for path, out_port in (("0,1", 1), ("0,1", 2), ("0,1,1", 2)):
            table = ring.run("smpquery", "-D", "sl2vl", path, str(out_port)).stdout
            rows = re.findall(r"in\s+(\d+), out\s+%d:\s*\|(.*)\|" % out_port, table)
            linked = [(i, row) for i, row in rows if int(i) in (1, 2, 3) and int(i) != out_port]
            check(len(linked) == 2, f"ring dfsssp: sl2vl rows at {path} out {out_port}: {table[-300:]}")
            for i, row in linked:
                vls = [int(v) for v in row.split("|")]
                check(vls == [min(sl, 1) for sl in range(16)], f"ring dfsssp: {path} in {i} out {out_port}: {vls}")
        compare_lfts(ring, weft_route, work, open(ring.net).read(), "dfsssp", "ring-dfsssp",
                     os.path.join(ring_dir, "opensm-lfts.dump"))
        ring_lids = [v for g, v in guid2lid(os.path.join(work, "guid2lid")).items()
                     if parse_net(open(ring.net).read())[0].get(g - 1, ("",))[0] == "ca"]
        for src in ring_lids:
            for dst in ring_lids:
                if src != dst:
                    t = ring.run("ibtracert", str(src), str(dst))
                    check(t.returncode == 0 and f"lid {dst}-{dst}" in t.stdout.splitlines()[-1],
                          f"ring dfsssp: ibtracert {src} {dst}")
    finally:
        for s in sims:
            s.stop()
        shutil.rmtree(work, ignore_errors=True)
    print("FAILED:" if failures else "ok", len(failures), "failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
