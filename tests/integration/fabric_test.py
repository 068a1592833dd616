#!/usr/bin/env python3
"""A fabric of real weft switches brought up by the SM inside one of them (scripts/fabric), in
network namespaces, three times:

1. IB-over-Ethernet: the smallest fat tree (2 spines, 2 leaves, 1 host each), hosts running
   weft-ca. Checked: every host hears every other host by LID; the SM's `show sm json` reports
   every switch programmed and every CA found; a leaf-spine cable cut under traffic is trapped
   and the SM re-programs the fabric around it, and again when it is restored; a spine that
   stops and starts again (issue 29, test 4) is routed around and back, and the other switches
   end with the tables they had.
2. Ethernet/RoCE (issue 29, test 1): 2 spines, 4 leaves, 2 Linux IP hosts each. Checked: every
   host pair pings and every host's numbered UDP flows reach every other host; every switch's
   routes and ARS groups (`show route json`, `show ars nhg all json`) are what weft-route
   compiles from the same topology with the engine the SM used; every leaf's UDP traffic to the
   other leaves leaves by both spines; a cut and a restore under traffic as above.

3. IB-over-Ethernet as in 1 on net_af_xdp ports (issue 29, test 6): a veth gives AF_XDP one
   queue, so every SMP a switch sends leaves through its worker (no control TX queue).

The times (bring-up, trap to re-programmed) and the frames lost are printed, not asserted.

    fabric_test.py FABRIC_SCRIPT BUILD_DIR

Exit 77 (skipped) when not root or without network namespaces.
"""
import json
import os
import subprocess
import sys
import tempfile

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def verdict():
    """The exit status of a test made of check()s, said on its last line."""
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("OK")
    return 0


def cannot_run():
    """Why this machine cannot bring a fabric up (not root, no network namespaces), or None."""
    if os.geteuid() != 0:
        return "needs root (network namespaces, AF_PACKET)"
    probe = f"wfprobe{os.getpid() % 100000}"
    if subprocess.run(["ip", "netns", "add", probe], capture_output=True).returncode != 0:
        return "no network namespace support"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


def run(script, build, args, rate=2000):
    """scripts/fabric with `args`; its figures, or None when it did not come up."""
    with tempfile.TemporaryDirectory(prefix="weft-fabric-test-") as tmp:
        figures = os.path.join(tmp, "figures.json")
        r = subprocess.run([script, "--build", build, "--rate", str(rate), "--timeout", "60", "--dir",
                            os.path.join(tmp, "run"), "--json", figures] + args,
                           capture_output=True, text=True, timeout=240)
        print(r.stdout, end="")
        print(r.stderr, end="")
        check(r.returncode == 0, f"scripts/fabric {' '.join(args)}: exit 0 ({r.returncode})")
        if not os.path.exists(figures):
            return None
        with open(figures) as f:
            return json.load(f)


def failover(mode, fig):
    for event in ("cut", "restore"):
        e = fig.get(event)
        check(e is not None, f"{mode} {event}: the SM re-programmed the fabric")
        if e:
            check(e["trap_to_programmed_ms"] is not None, f"{mode} {event}: a trap started the sweep")
            print(f"     {event}: trap to re-programmed {e['trap_to_programmed_ms']} ms, sweep {e['sweep_ms']:.3f} ms, "
                  f"{e['sweep_smps']} SMPs; {e['frames_lost']} frames lost of {e['frames_received']}")
    print(f"     bring-up {fig.get('bring_up_s', 0):.3f} s")


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    script, build = sys.argv[1:]
    if why := cannot_run():
        print("SKIP: " + why)
        return 77
    iboe = run(script, build, ["--spines", "2", "--leaves", "2", "--hosts", "1", "--fail", "l1-s0", "--restart", "s1"])
    if iboe:
        sm = iboe.get("sm", {})
        last = sm.get("last_sweep") or {}
        check(sm.get("state") == "running", "iboe: the SM runs inside its switch")
        check(last.get("outcome") == "programmed", f"iboe: its last sweep programmed the fabric: {last.get('outcome')}")
        check(len(last.get("programmed_switches", [])) == 4 and last.get("switches") == 4,
              f"iboe: every switch found and programmed: {last.get('programmed_switches')}")
        check(last.get("cas") == 2 and last.get("links") == 6,
              f"iboe: 2 CAs, 6 links: {last.get('cas')}, {last.get('links')}")
        check(last.get("engine") == "ftree", f"iboe: ftree routed the fat tree: {last.get('engine')}")
        failover("iboe", iboe)
        r = iboe.get("restart") or {}
        check(r.get("programmed_around_s") is not None and r.get("programmed_again_s") is not None,
              f"iboe: a spine that restarts: the SM programs the fabric without it, then with it again: {r}")
        check(r.get("others_changed") == [], f"iboe: the other switches' LFTs end as they were: {r.get('others_changed')}")
    eth = run(script, build, ["--mode", "ethernet", "--spines", "2", "--leaves", "4", "--hosts", "2",
                              "--fail", "l1-s0"])
    if eth:
        last = eth.get("sm", {}).get("last_sweep") or {}
        check(len(last.get("programmed_switches", [])) == 6, f"ethernet: all 6 switches programmed")
        check(last.get("cas") == 8 and last.get("engine") == "ftree",
              f"ethernet: the 8 host ports are the end nodes ftree routed: {last.get('cas')}, {last.get('engine')}")
        tables = eth.get("tables", {})
        check(tables.get("checked") == 48 and not tables.get("problems"),
              f"ethernet: 48 subnet routes on 6 switches as weft-route compiles them: {tables}")
        for leaf, by_spine in sorted(eth.get("spread", {}).items()):
            check(len(by_spine) == 2 and min(by_spine.values()) > 0.2 * sum(by_spine.values()),
                  f"ethernet: {leaf}'s traffic to the other leaves takes both spines: {by_spine}")
        failover("ethernet", eth)
    xdp = run(script, build, ["--ports", "af_xdp", "--spines", "2", "--leaves", "2", "--hosts", "1",
                              "--fail", "l1-s0"])
    if xdp:
        last = xdp.get("sm", {}).get("last_sweep") or {}
        check(len(last.get("programmed_switches", [])) == 4 and last.get("cas") == 2,
              f"af_xdp: every switch programmed through ports without a control TX queue: "
              f"{last.get('programmed_switches')}")
        failover("af_xdp", xdp)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
