#!/usr/bin/env python3
"""weft-sm live migration on ibsim (seed 002): VMs on the discovered hosts, moved one by one with
full re-route, ItRC and FTreeMinRC, each sending only the LFT blocks it changes.

    weft_sm_vswitch_test.py WEFT_SM WEFT_ROUTE

On a 3-level fat tree (kary:k=2,n=3: 12 switches, 8 hosts), each method on a fresh ibsim:
1. `weft-sm -o -R vswitch-ftree --vms vfs=2,load=50,vlids=extended --migrate-pattern random
   --reconfig M`: ibsim's switches do not answer WeftExtendedLids (an IBA switch would answer
   "unsupported"), so the sweep falls back to 16-bit VF LIDs (the legacy mode, said in the vswitch
   phase line) and programs them; the 7 hosts other than the SM's own are the hypervisors;
2. each migration sends exactly the LFT blocks its plan counts, and nothing else (its SMPs are
   its Sets); ItRC and FTreeMinRC send fewer than the full re-route over the same moves;
3. after the moves every pair reaches (weft-sm's trace), the LFTs every switch holds (ibroute,
   LID-routed, and infiniband-diags' dump_lfts) are weft-sm's dump after the moves, and the
   last moved VM's LID leads to its new hypervisor's port on that hypervisor's leaf.
4. resident (no -o, light sweeps every second): the moves, then a spine link cut and restored:
   each trap's sweep keeps the VMs where they went (the vswitch phase says "kept") and the last
   moved VM's LID still leads to its new hypervisor.
A bad --vms, a migration with no --vms and a --reconfig without a migration are refused.
Exit 77 (skipped) when ibsim, infiniband-diags or libumad2sim are missing.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import weft_sm_test as base  # noqa: E402  (Sim, parsers, check)

check = base.check
VMS = "vfs=2,load=50,vlids=extended,seed=3"


def leaf_of(net_text, host_desc):
    """(switch guid, port) the host's port 1 is cabled to, from a net file."""
    nodes, links = base.parse_net(net_text)
    guid = next(g for g, (kind, _, desc) in nodes.items() if kind == "ca" and desc == host_desc)
    for link in links:
        ends = sorted(link)
        for (g, p), other in ((ends[0], ends[1]), (ends[1], ends[0])):
            if g == guid and p == 1:
                return other
    return None


def run_method(weft_sm, weft_route, work, method):
    sim = base.generated_sim(weft_route, work, "kary:k=2,n=3", f"vsw-{method}")
    try:
        out = os.path.join(work, method)
        os.makedirs(out, exist_ok=True)
        r = sim.run(weft_sm, "-o", "-R", "vswitch-ftree", "--vms", VMS, "--migrate-pattern", "random",
                    "--reconfig", method, "--seed", "5", "-D", out, "--guid2lid", os.path.join(work, f"g2l-{method}"),
                    "--write-net", os.path.join(out, "discovered.net"))
        print(f"--- weft-sm {method}: exit {r.returncode}")
        print(r.stderr, end="")
        check(r.returncode == 0, f"{method}: weft-sm exit {r.returncode}")
        vsw = base.phase_line(r.stderr, "vswitch")
        # ibsim does not answer an attribute it does not know (an IBA switch answers 0x000c): either
        # way the switch is legacy.
        check("7 hypervisors, 7 VMs placed" in vsw and "legacy fallback to 16-bit LIDs" in vsw and
              ("timed out" in vsw or "0x000c" in vsw) and "(and 11 more switches)" in vsw,
              f"{method}: ibsim's switches do not forward vLIDs: the legacy fallback ({vsw})")
        moves = re.findall(r"migrate: (vm\d+) '([^']*)' -> '([^']*)' \(LID (\d+) .*?: (\d+) switches, "
                           r"(\d+) LFT blocks \(planned (\d+)\), (\d+) SMPs sent, (\d+) failures", r.stderr)
        check(len(moves) == 14, f"{method}: 14 migrations (2 x hypervisors) logged ({len(moves)})")
        for i, m in enumerate(moves):
            blocks, planned, sent, failed = int(m[5]), int(m[6]), int(m[7]), int(m[8])
            check(blocks == planned and sent == blocks and failed == 0,
                  f"{method}: migrate {i + 1} ({m[0]}): {blocks} blocks set, {planned} planned, {sent} SMPs sent, "
                  f"{failed} failures")
        done = re.search(r"migrations done: (\d+) switches, (\d+) LFT blocks, (\d+) SMPs, (\d+) failures; after "
                         r"them (\d+) pairs unreachable, (\d+) loops", r.stderr)
        check(done is not None and done.group(5) == "0" and done.group(6) == "0",
              f"{method}: every pair reaches after the moves ({done.group(0) if done else 'no summary'})")

        # The switches hold weft-sm's tables after the moves.
        dump = base.parse_dump(open(os.path.join(out, "opensm-lfts.dump")).read())
        lids = base.guid2lid(os.path.join(work, f"g2l-{method}"))
        for g, want in dump.items():
            sw, routes = base.parse_ibroute(sim.run("ibroute", str(lids[g])).stdout)
            check(sw == g and routes == base.ibroute_view(want), f"{method}: switch {g:#x}: ibroute reads weft-sm's LFT")
        diags = sim.run("dump_lfts")
        read = {}
        for block in re.split(r"\n(?=Unicast lids)", diags.stdout):
            g, routes = base.parse_ibroute(block)
            if g is not None:
                read[g] = routes
        check(diags.returncode == 0 and len(read) == len(dump) and
              all(read.get(g) == base.ibroute_view(want) for g, want in dump.items()),
              f"{method}: dump_lfts reads weft-sm's LFT on every switch ({len(read)} read)")
        if moves:
            last = moves[-1]
            leaf = leaf_of(open(os.path.join(out, "discovered.net")).read(), last[2])
            check(leaf is not None and dump.get(leaf[0], {}).get(int(last[3])) == leaf[1],
                  f"{method}: {last[0]}'s LID {last[3]} leads to {last[2]}'s port {leaf} on its leaf")
        return int(done.group(3)) if done else 0
    finally:
        sim.stop()


def resident(weft_sm, weft_route, work):
    """A resident weft-sm moves the VMs, then keeps them where they went through a cable's cut and
    restore (each a trap and a sweep)."""
    sim = base.generated_sim(weft_route, work, "kary:k=2,n=3", "vsw-resident")
    out = os.path.join(work, "resident")
    os.makedirs(out)
    log = os.path.join(out, "weft-sm.log")
    sm = subprocess.Popen([weft_sm, "-s", "1", "-R", "vswitch-ftree", "--vms", VMS, "--migrate-pattern", "random",
                           "--seed", "5", "-D", out, "-f", log, "--guid2lid", os.path.join(work, "g2l-resident"),
                           "--write-net", os.path.join(out, "discovered.net")],
                          env=sim.penv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        text = base.wait_for(log, "migrations done", 1)
        done = re.search(r"migrations done: .* (\d+) pairs unreachable, (\d+) loops", text)
        check(done is not None and done.group(1) == "0" and done.group(2) == "0",
              f"resident: the moves, every pair reaching after them ({done.group(0) if done else 'no summary'})")
        moves = re.findall(r"migrate: (vm\d+) '[^']*' -> '([^']*)' \(LID (\d+) ", text)
        print(f"--- resident: {len(moves)} moves; {done.group(0) if done else 'no summary'}")
        check(len(moves) == 14, f"resident: 14 moves logged ({len(moves)})")
        check(sm.poll() is None, "resident: weft-sm stays up after the moves (no -o needed)")
        # A switch-to-switch cable, as weft_sm_test's resident run picks one.
        net = open(sim.net).read()
        nodes, _ = base.parse_net(net)
        kind = {desc: k for (k, _, desc) in nodes.values()}
        leaf, port = next((m.group(1), int(p.group(1)))
                          for block in re.split(r"\n(?=(?:switchguid|caguid)=)", net)
                          if (m := re.search(r'Switch\s+\d+\s+"([^"]+)"', block))
                          for p in re.finditer(r'^\[(\d+)\]\s+"([^"]+)"', block, re.M)
                          if kind.get(p.group(2)) == "switch")
        for what, command in (("cut", f'Unlink "{leaf}"[{port}]'), ("restored", f'ReLink "{leaf}"[{port}]')):
            before = open(log).read().count("sweep programmed")
            sim.console(command)
            text = base.wait_for(log, "sweep programmed", before + 1)
            vsw = [l for l in text.splitlines() if "phase vswitch:" in l][-1:]
            print(f"--- resident: link {leaf}[{port}] {what}: {vsw}")
            check(bool(vsw) and "7 hypervisors, 7 VMs kept" in vsw[0],
                  f"resident: link {what}: the trap's sweep keeps the VMs ({vsw})")
        if moves:
            vm, host, lid = moves[-1]
            dump = base.parse_dump(open(os.path.join(out, "opensm-lfts.dump")).read())
            where = leaf_of(open(os.path.join(out, "discovered.net")).read(), host)
            check(where is not None and dump.get(where[0], {}).get(int(lid)) == where[1],
                  f"resident: after both sweeps {vm}'s LID {lid} still leads to {host}'s port {where}")
    finally:
        sm.send_signal(signal.SIGTERM)
        check(sm.wait(timeout=10) == 0, f"resident: weft-sm exit {sm.returncode}")
        sim.stop()


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    weft_sm, weft_route = sys.argv[1:3]
    for args, want in (((["--vms", "vfs=0"]), "vfs as an integer 1..4096"),
                       ((["--migrate-pattern", "random"]), "need --vms"),
                       ((["-o", "--vms", "vfs=2", "--reconfig", "itrc"]), "--reconfig needs --migrate")):
        r = subprocess.run([weft_sm, *args], capture_output=True, text=True, timeout=30)
        check(r.returncode == 2 and want in r.stderr, f"refused: {args}: exit {r.returncode}, {r.stderr.strip()}")
    tools = ["ibsim", "ibroute", "dump_lfts"]
    if not (all(shutil.which(t) for t in tools) and os.access(base.UMAD2SIM, os.R_OK)):
        print("skipped: ibsim, infiniband-diags or libumad2sim missing")
        return 77
    work = tempfile.mkdtemp(prefix="weft-sm-vsw-")
    try:
        smps = {m: run_method(weft_sm, weft_route, work, m) for m in ("full", "itrc", "ftree-minrc")}
        print("SMPs over the same 14 moves:", smps)
        check(0 < smps["ftree-minrc"] <= smps["itrc"] < smps["full"],
              f"FTreeMinRC sends no more than ItRC, both fewer than the full re-route ({smps})")
        resident(weft_sm, weft_route, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("FAILED:" if base.failures else "ok", len(base.failures), "failures")
    return 1 if base.failures else 0


if __name__ == "__main__":
    sys.exit(main())
