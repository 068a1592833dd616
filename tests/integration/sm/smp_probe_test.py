#!/usr/bin/env python3
"""The SM core's directed-route SMPs on ibsim (through libumad2sim), checked twice: against the
net file the fabric was built from (GUIDs, node types, port counts, descriptions, which switch
ports are linked), and against infiniband-diags' smpquery reading the same attributes of the
same nodes through the same simulator (every field both print).

    smp_probe_test.py SMP_PROBE WEFT_ROUTE

A fat tree from weft-route's generator, with a host moved to the head of the net file so the SM
sits on a CA (ibsim attaches its client to the first node) and hop 1 is a leaf switch. With
WEFT_SM_CAPTURE=DIR the replies the probe received are kept there (fuzz seeds). Then the
trap path: the probe claims the SM role on the leaf, a link is cut in ibsim's console, and the
leaf's trap 128 must reach the probe and be answered with TrapRepress.
Exit 77 (skipped) when ibsim, smpquery or libumad2sim are missing.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

UMAD2SIM = os.environ.get("UMAD2SIM", "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so")

LINK_STATES = {"Down": 1, "Initialize": 2, "Armed": 3, "Active": 4}
PHYS_STATES = {"Sleep": 1, "Polling": 2, "Disabled": 3, "PortConfigurationTraining": 4, "LinkUp": 5,
               "LinkErrorRecovery": 6, "PhyTest": 7}
MTUS = {"256": 1, "512": 2, "1024": 3, "2048": 4, "4096": 5}
WIDTHS = {"1X": 1, "4X": 2, "8X": 4, "12X": 8, "2X": 16}

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def host_first(net):
    """The net file with its first Hca block moved to the front."""
    head, *blocks = re.split(r"\n(?=(?:switchguid|caguid)=)", net)
    ca = next(b for b in blocks if re.search(r"^Hca", b, re.M))
    return head + "\n" + "\n".join([ca] + [b for b in blocks if b is not ca]) + "\n"


def parse_net(net):
    """name -> {type, ports, guid, links: {port: (peer, peer_port)}} of an ibsim net file."""
    nodes, cur, guid = {}, None, None
    for line in net.splitlines():
        line = line.split("#", 1)[0].strip()
        if m := re.match(r"(switchguid|caguid)=(0x[0-9a-fA-F]+)", line):
            guid = int(m.group(2), 16)
        elif m := re.match(r'(Switch|Hca|Ca)\s+(\d+)\s+"([^"]+)"', line):
            cur = nodes[m.group(3)] = {"type": 2 if m.group(1) == "Switch" else 1, "ports": int(m.group(2)),
                                       "guid": guid, "links": {}}
        elif (m := re.match(r'\[(\d+)\]\s+"([^"]+)"\[(\d+)\]', line)) and cur is not None:
            cur["links"][int(m.group(1))] = (m.group(2), int(m.group(3)))
    return nodes


def kv(line):
    return dict(tok.split("=", 1) for tok in line.split()[1:] if "=" in tok)


def smpquery(env, *args):
    out = subprocess.run(["smpquery", "-D", *args], env=env, capture_output=True, text=True, timeout=30)
    if out.returncode != 0:
        failures.append(f"smpquery {' '.join(args)}: {out.stderr.strip()}")
        return {}
    fields = {}
    for line in out.stdout.splitlines():
        if m := re.match(r"(\w+):\.*(.*)$", line):
            fields[m.group(1)] = m.group(2).strip()
    return fields


def num(text):
    return int(text, 0)


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    probe, weft_route = sys.argv[1:]
    if not (shutil.which("ibsim") and shutil.which("smpquery") and os.access(UMAD2SIM, os.R_OK)):
        print("skipped: ibsim, smpquery or libumad2sim missing")
        return 77
    # No fabric there: a clear message and exit 2, not a hang or a crash.
    out = subprocess.run([probe, "--ca", "weft-no-such-ca", "--port", "1"], capture_output=True, text=True,
                         timeout=30)
    check(out.returncode == 2 and "cannot reach the fabric: umad_get_port(weft-no-such-ca, 1)" in out.stderr,
          f"no fabric: exit {out.returncode}, {out.stderr.strip()}")
    work = tempfile.mkdtemp(prefix="weft-sm-probe-")
    sim = None
    try:
        gen = os.path.join(work, "gen.net")
        subprocess.run([weft_route, "--gen", "kary:k=4,n=2", "--write-net", gen, "-q"], check=True,
                       capture_output=True)
        net_text = host_first(open(gen).read())
        net_file = os.path.join(work, "fabric.net")
        open(net_file, "w").write(net_text)
        nodes = parse_net(net_text)
        sm_node = next(iter(nodes))

        env = dict(os.environ, IBSIM_SOCKNAME=f"weftsm-{os.getpid()}")
        log = open(os.path.join(work, "ibsim.log"), "w")
        # ibsim's console on a pipe: the trap phase unlinks a port through it.
        sim = subprocess.Popen(["ibsim", "-s", net_file], env=env, stdout=log, stderr=subprocess.STDOUT,
                               stdin=subprocess.PIPE, text=True)
        for _ in range(100):
            if "Network simulator ready" in open(os.path.join(work, "ibsim.log")).read():
                break
            if sim.poll() is not None:
                print("ibsim exited:", open(os.path.join(work, "ibsim.log")).read()[-500:])
                return 1
            time.sleep(0.1)
        penv = dict(env, LD_PRELOAD=UMAD2SIM)
        capture = os.path.join(work, "capture")
        os.mkdir(capture)
        out = subprocess.run([probe, "--capture", capture, "--max-wire", "4"], env=penv, capture_output=True,
                             text=True, timeout=60)
        print(out.stdout, end="")
        print(out.stderr, end="", file=sys.stderr)
        check(out.returncode == 0, f"smp_probe exited {out.returncode}")
        lines = out.stdout.splitlines()
        node_lines = [kv(l) for l in lines if l.startswith("node ")]
        port_lines = {int(d["port"]): d for d in (kv(l) for l in lines if l.startswith("port "))}
        switch_line = next((kv(l) for l in lines if l.startswith("switch ")), None)
        check(len(node_lines) == 2, "two nodes (hop 0 and hop 1) answered")
        if len(node_lines) != 2 or switch_line is None:
            return 1

        # Against the net file.
        hop0, hop1 = node_lines
        sm = nodes[sm_node]
        check(num(hop0["type"]) == 1 and num(hop0["ports"]) == sm["ports"], "hop 0 is the SM's CA")
        check(num(hop0["guid"]) == sm["guid"], f"hop 0 node GUID {hop0['guid']} is {sm['guid']:#x}")
        check(num(hop0["port_guid"]) == sm["guid"] + 1, "hop 0 port GUID (ibsim: CA GUID + port)")
        check(hop0["desc"] == sm_node, f"hop 0 description {hop0['desc']}")
        sm_port = num(hop0["local_port"])
        leaf_name, leaf_port = sm["links"][sm_port]
        leaf = nodes[leaf_name]
        check(num(hop1["type"]) == 2 and num(hop1["ports"]) == leaf["ports"], "hop 1 is the SM's leaf switch")
        check(num(hop1["guid"]) == leaf["guid"] and num(hop1["port_guid"]) == leaf["guid"], "hop 1 GUIDs")
        check(num(hop1["local_port"]) == leaf_port, f"hop 1 entered by port {leaf_port}")
        check(hop1["desc"] == leaf_name, f"hop 1 description {hop1['desc']}")
        check(sorted(port_lines) == list(range(leaf["ports"] + 1)), "PortInfo of every switch port, 0 included")
        for p in range(1, leaf["ports"] + 1):
            linked = p in leaf["links"]
            phys = num(port_lines[p]["phys"])
            check((phys == 5) == linked, f"switch port {p}: physical state {phys}, linked={linked}")

        # Against smpquery through the same simulator.
        for path, mine in (("0", hop0), ("0," + str(sm_port), hop1)):
            theirs = smpquery(penv, "nodeinfo", path)
            for ours, field in (("type", None), ("ports", "NumPorts"), ("guid", "Guid"), ("port_guid", "PortGuid"),
                                ("system_guid", "SystemGuid"), ("local_port", "LocalPort"),
                                ("partition_cap", "PartCap"), ("device_id", "DevId"), ("revision", "Revision"),
                                ("vendor_id", "VendorId")):
                if field:
                    check(num(mine[ours]) == num(theirs.get(field, "-1")), f"nodeinfo {path} {field}")
            desc = subprocess.run(["smpquery", "-D", "nodedesc", path], env=penv, capture_output=True, text=True)
            check(mine["desc"] in desc.stdout, f"nodedesc {path}")
        path = "0," + str(sm_port)
        theirs = smpquery(penv, "switchinfo", path)
        for ours, field in (("linear_fdb_cap", "LinearFdbCap"), ("random_fdb_cap", "RandomFdbCap"),
                            ("multicast_fdb_cap", "McastFdbCap"), ("linear_fdb_top", "LinearFdbTop"),
                            ("default_port", "DefPort"), ("life_time", "LifeTime"),
                            ("port_state_change", "StateChange"), ("lids_per_port", "LidsPerPort"),
                            ("partition_enforcement_cap", "PartEnforceCap"), ("enhanced_port0", "EnhancedPort0"),
                            ("multicast_fdb_top", "MulticastFDBTop")):
            check(num(switch_line[ours]) == num(theirs.get(field, "-1")), f"switchinfo {field}")
        for p, mine in port_lines.items():
            theirs = smpquery(penv, "portinfo", path, str(p))
            pairs = [("lid", num(theirs.get("Lid", "-1"))), ("sm_lid", num(theirs.get("SMLid", "-1"))),
                     ("lmc", num(theirs.get("LMC", "-1"))), ("local_port", num(theirs.get("LocalPort", "-1"))),
                     ("capability_mask", num(theirs.get("CapMask", "-1"))),
                     ("state", LINK_STATES.get(theirs.get("LinkState"), -1)),
                     ("phys", PHYS_STATES.get(theirs.get("PhysLinkState"), -1)),
                     ("vl_stall", num(theirs.get("VLStallCount", "-1"))),
                     ("vl_arb_high", num(theirs.get("VLArbHighCap", "-1"))),
                     ("vl_arb_low", num(theirs.get("VLArbLowCap", "-1")))]
            if theirs.get("LinkWidthActive") in WIDTHS:
                pairs.append(("width_active", WIDTHS[theirs["LinkWidthActive"]]))
            if theirs.get("NeighborMTU") in MTUS:
                pairs.append(("neighbor_mtu", MTUS[theirs["NeighborMTU"]]))
            if theirs.get("MtuCap") in MTUS:
                pairs.append(("mtu_cap", MTUS[theirs["MtuCap"]]))
            for ours, value in pairs:
                check(num(mine[ours]) == value, f"portinfo port {p} {ours}: ours {mine[ours]}, smpquery {value}")

        # The switch's tables: SL2VL as smpquery reads it; no routes yet (ibroute agrees: nothing
        # programmed the switch).
        tables = next((kv(l) for l in lines if l.startswith("tables ")), None)
        check(tables is not None, "the switch's LFT, MFT and SL2VL blocks answered")
        if tables:
            sl2vl = subprocess.run(["smpquery", "-D", "sl2vl", path, tables["sl2vl_out"]], env=penv,
                                   capture_output=True, text=True).stdout
            row = re.search(r"in\s+%s, out\s+%s:\s*\|(.*)\|" % (tables["sl2vl_in"], tables["sl2vl_out"]), sl2vl)
            check(row is not None, f"smpquery sl2vl row for in {tables['sl2vl_in']}: {sl2vl}")
            if row:
                theirs = ",".join(str(int(v)) for v in row.group(1).split("|"))
                check(tables["sl2vl"] == theirs, f"sl2vl ours {tables['sl2vl']}, smpquery {theirs}")
            routes = subprocess.run(["ibroute", "-D", path], env=penv, capture_output=True, text=True).stdout
            mroutes = subprocess.run(["ibroute", "-M", "-D", path], env=penv, capture_output=True, text=True).stdout
            check(num(tables["lft_routes"]) == 0 and "0 valid lids dumped" in routes, f"no unicast routes: {routes}")
            check(num(tables["mft_ports"]) == 0 and "0 valid mlids dumped" in mroutes, f"no multicast routes: {mroutes}")

        # The engine: every request answered once, the window filled and never overrun.
        for l in lines:
            if l.startswith("counters "):
                c = kv(l)
                check(c["sent"] == c["received"] and c["timed_out"] == "0" and c["malformed"] == "0",
                      f"counters {l}")
        window = next(kv(l) for l in lines if l.startswith("window "))
        check(num(window["max_outstanding"]) == 4, f"window filled to max_wire 4: {window}")
        check(window["unmatched"] == "0", "no unmatched replies")

        # Traps: the probe becomes the leaf's SM (IsSM, MasterSMLID, a route back, the link
        # ACTIVE) and waits; a port of the leaf towards a spine is unlinked in ibsim's console;
        # the leaf's trap 128 must arrive, name the leaf's LID, and be answered (ibsim logs the
        # TrapRepress it receives).
        spine_port = next(p for p, (peer, _) in sorted(leaf["links"].items()) if nodes[peer]["type"] == 2)
        leaf_lid = num(smpquery(penv, "portinfo", path, "0").get("Lid", "-1"))
        trap_probe = subprocess.Popen([probe, "--await-trap", "10", "--capture", capture], env=penv,
                                      stdout=subprocess.PIPE, text=True)
        trap_lines = []
        for line in trap_probe.stdout:
            trap_lines.append(line)
            if line.startswith("ready "):
                sim.stdin.write(f'Unlink "{leaf_name}"[{spine_port}]\n')
                sim.stdin.flush()
        check(trap_probe.wait(timeout=30) == 0, f"smp_probe --await-trap exited {trap_probe.returncode}")
        trap = next((kv(l) for l in trap_lines if l.startswith("trap ")), None)
        print("".join(l for l in trap_lines if l.startswith(("ready", "trap", "error"))), end="")
        check(trap is not None, "a trap arrived")
        if trap:
            check(trap["method"] == "Trap" and trap["number"] == "128", f"trap 128: {trap}")
            check(num(trap["lid"]) == leaf_lid and num(trap["issuer_lid"]) == leaf_lid and
                  num(trap["slid"]) == leaf_lid, f"from the leaf's LID {leaf_lid}: {trap}")
            check(trap["producer"] == "2", "produced by a switch")
            time.sleep(0.2)
            check("got trap repress" in open(os.path.join(work, "ibsim.log")).read(), "ibsim got the TrapRepress")

        if os.environ.get("WEFT_SM_CAPTURE"):
            shutil.copytree(capture, os.environ["WEFT_SM_CAPTURE"], dirs_exist_ok=True)
    finally:
        if sim is not None:
            try:
                sim.stdin.close()
            except OSError:
                pass
            sim.send_signal(signal.SIGTERM)
            try:
                sim.wait(timeout=5)
            except subprocess.TimeoutExpired:
                sim.kill()
        shutil.rmtree(work, ignore_errors=True)
    print("FAILED:" if failures else "ok", len(failures), "failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
