#!/usr/bin/env python3
"""weft-sm on ibsim when the fabric answers badly: what goes wrong is a located log line and a
count, the sweep carries on with the rest, and the next sweep after the fault heals is whole.

    weft_sm_faults_test.py WEFT_SM WEFT_ROUTE

On a 2-level fat tree (kary:k=4,n=2: 8 switches, 16 hosts), through ibsim's console:
1. Timeouts: `Error "leaf" 100 21` (the leaf answers NodeInfo but never PortInfo, a switch
   that stops answering half-way). weft-sm -o: each lost PortInfo is a located line naming the
   switch and its path, the sweep's summary counts the timeouts, the leaf is left out as
   vanished, and the rest is routed and programmed (ibtracert between hosts of other leaves).
2. NodeDescription never answered by one host: logged ("kept without one"), the host still
   routed.
3. Duplicate GUID: `Guid "spine" <another spine's GUID>`: the second switch met with that GUID is
   a duplicate (logged, counted), the cable that led to it is left out, the rest programmed and
   verified.
4. The faults cleared (`Error ... 0`, the GUID restored): the next weft-sm -o brings every port
   ACTIVE and every host pair reaching, with nothing logged as a problem.
Malformed replies cannot be made by ibsim; unit tests (SimFabric's corrupt_reply) and the fuzz
targets cover them.
Exit 77 (skipped) when ibsim, infiniband-diags or libumad2sim are missing.
"""
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import weft_sm_test as base  # noqa: E402  (Sim, parsers, check)

check = base.check


def run_sm(sim, weft_sm, work, tag, *extra):
    r = sim.run(weft_sm, "-o", "-R", "updn", "--guid2lid", os.path.join(work, "guid2lid"), *extra)
    print(f"--- {tag}: weft-sm -o -R updn: exit {r.returncode}")
    print(r.stderr, end="")
    return r


def hosts_reach(sim, work, net_nodes, skip_guids=()):
    lids = base.guid2lid(os.path.join(work, "guid2lid"))
    hosts = sorted(lids[g + 1] for g, (kind, _, _) in net_nodes.items() if kind == "ca" and g not in skip_guids)
    bad = 0
    for src in hosts[:4]:
        for dst in hosts[-4:]:
            if src == dst:
                continue
            t = sim.run("ibtracert", str(src), str(dst))
            bad += not (t.returncode == 0 and f"lid {dst}-{dst}" in t.stdout)
    return len(hosts), bad


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    weft_sm, weft_route = sys.argv[1:3]
    tools = ["ibsim", "ibtracert", "iblinkinfo"]
    if not (all(shutil.which(t) for t in tools) and os.access(base.UMAD2SIM, os.R_OK)):
        print("skipped: ibsim, infiniband-diags or libumad2sim missing")
        return 77
    work = tempfile.mkdtemp(prefix="weft-sm-faults-")
    sim = None
    try:
        sim = base.generated_sim(weft_route, work, "kary:k=4,n=2", "faults")
        net_nodes, _ = base.parse_net(open(sim.net).read())
        by_name = {desc: g for g, (_, _, desc) in net_nodes.items()}
        # The SM sits on the first host; pick a leaf that is not its own.
        sm_host = next(desc for g, (kind, _, desc) in net_nodes.items() if kind == "ca")
        leaves = sorted(d for d, g in by_name.items() if net_nodes[g][0] == "switch" and d.startswith("L1"))
        spines = sorted(d for d, g in by_name.items() if net_nodes[g][0] == "switch" and d.startswith("L2"))
        text = open(sim.net).read()
        sm_leaf = re.search(r'caguid=.*?\n(?:.*\n)*?\[1\]\s+"([^"]+)"', text).group(1)
        leaf = next(l for l in leaves if l != sm_leaf)
        print(f"SM on {sm_host} (leaf {sm_leaf}); faulty leaf {leaf}; spines {spines}")

        # 1. A leaf that answers NodeInfo but never PortInfo.
        sim.console(f'Error "{leaf}" 100 21')
        r = run_sm(sim, weft_sm, work, "portinfo lost")
        lost = [l for l in r.stderr.splitlines() if "discovery: PortInfo" in l and "timed out" in l]
        check(r.returncode == 0, f"portinfo lost: the sweep carried on and programmed (exit {r.returncode})")
        check(lost and all(f"'{leaf}'" in l and "via path" in l for l in lost),
              f"portinfo lost: located lines naming {leaf}: {lost[:2]}")
        m = re.search(r"timed out (\d+)", next((l for l in r.stderr.splitlines() if "sweep programmed" in l), ""))
        check(m is not None and int(m.group(1)) >= len(lost) > 0, "portinfo lost: the summary counts the timeouts")
        check(any("vanished mid-sweep and is left out" in l for l in lost), "portinfo lost: the leaf is left out")
        behind = {g for g, (kind, _, _) in net_nodes.items() if kind == "ca"
                  and re.search(r'caguid=%#x\n(?:.*\n)*?\[1\]\s+"%s"' % (g, re.escape(leaf)), text)}
        n, bad = hosts_reach(sim, work, net_nodes, skip_guids=behind)
        check(bad == 0, f"portinfo lost: {bad} of the sampled pairs of {n} hosts do not reach")
        sim.console(f'Error "{leaf}" 0')

        # 2. A host's NodeDescription never answered.
        quiet_host = sorted(d for d, g in by_name.items() if net_nodes[g][0] == "ca")[-1]
        sim.console(f'Error "{quiet_host}" 100 16')
        r = run_sm(sim, weft_sm, work, "description lost")
        check(r.returncode == 0, f"description lost: exit {r.returncode}")
        check(any("NodeDescription" in l and "kept without one" in l for l in r.stderr.splitlines()),
              "description lost: logged as kept without one")
        sim.console(f'Error "{quiet_host}" 0')

        # 3. Two spines with one GUID.
        twin, original = spines[1], by_name[spines[1]]
        sim.console(f'Guid "{twin}" {by_name[spines[0]]:#x}')
        r = run_sm(sim, weft_sm, work, "duplicate guid")
        dup = [l for l in r.stderr.splitlines() if "duplicate" in l.lower()]
        check(dup, "duplicate guid: logged")
        check(r.returncode == 0 and "no credit loop" in base.phase_line(r.stderr, "verification"),
              f"duplicate guid: the rest routed, verified and programmed (exit {r.returncode})")
        n, bad = hosts_reach(sim, work, net_nodes)
        check(bad == 0, f"duplicate guid: {bad} sampled pairs of {n} hosts do not reach")
        sim.console(f'Guid "{twin}" {original:#x}')

        # 4. Healed: everything again, no problem logged.
        r = run_sm(sim, weft_sm, work, "healed")
        check(r.returncode == 0 and "0 problems" in base.phase_line(r.stderr, "discovery"),
              f"healed: a clean discovery: {base.phase_line(r.stderr, 'discovery')}")
        ends = [l for l in sim.run("iblinkinfo").stdout.splitlines() if "==(" in l and '""' not in l]
        check(ends and all("Active/" in l for l in ends), "healed: every port ACTIVE")
        n, bad = hosts_reach(sim, work, net_nodes)
        check(n == 16 and bad == 0, f"healed: {bad} sampled pairs of {n} hosts do not reach")
    finally:
        if sim:
            sim.stop()
        shutil.rmtree(work, ignore_errors=True)
    print("FAILED:" if base.failures else "ok", len(base.failures), "failures")
    return 1 if base.failures else 0


if __name__ == "__main__":
    sys.exit(main())
