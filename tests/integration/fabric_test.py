#!/usr/bin/env python3
"""A fabric of real weft switches brought up by the SM inside one of them (scripts/fabric): the
smallest fat tree (2 spines, 2 leaves, 1 host each) in network namespaces, hosts running
weft-ca. Checked: every host hears every other host by LID; the SM's `show sm json` reports
every switch programmed and every CA found; a leaf-spine cable cut under traffic is trapped and
the SM re-programs the fabric around it, and again when it is restored. The times (bring-up,
trap to re-programmed) and the frames lost are printed, not asserted.

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


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    script, build = sys.argv[1:]
    if os.geteuid() != 0:
        print("SKIP: needs root (network namespaces, AF_PACKET)")
        return 77
    probe = f"wfprobe{os.getpid() % 100000}"
    if subprocess.run(["ip", "netns", "add", probe], capture_output=True).returncode != 0:
        print("SKIP: no network namespace support")
        return 77
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    with tempfile.TemporaryDirectory(prefix="weft-fabric-test-") as tmp:
        figures = os.path.join(tmp, "figures.json")
        r = subprocess.run([script, "--build", build, "--spines", "2", "--leaves", "2", "--hosts", "1",
                            "--rate", "2000", "--fail", "l1-s0", "--timeout", "60", "--dir",
                            os.path.join(tmp, "run"), "--json", figures],
                           capture_output=True, text=True, timeout=240)
        print(r.stdout, end="")
        print(r.stderr, end="")
        check(os.path.exists(figures), f"the fabric came up (exit {r.returncode})")
        if not os.path.exists(figures):
            return 1
        with open(figures) as f:
            fig = json.load(f)
    sm = fig.get("sm", {})
    last = sm.get("last_sweep") or {}
    check(sm.get("state") == "running", "the SM runs inside its switch")
    check(last.get("outcome") == "programmed", f"its last sweep programmed the fabric: {last.get('outcome')}")
    check(len(last.get("programmed_switches", [])) == 4 and last.get("switches") == 4,
          f"every switch found and programmed: {last.get('programmed_switches')}")
    check(last.get("cas") == 2 and last.get("links") == 6, f"2 CAs, 6 links: {last.get('cas')}, {last.get('links')}")
    check(last.get("engine") == "ftree", f"ftree routed the fat tree: {last.get('engine')}")
    for event in ("cut", "restore"):
        e = fig.get(event)
        check(e is not None, f"{event}: the SM re-programmed the fabric")
        if e:
            check(e["trap_to_programmed_ms"] is not None, f"{event}: a trap started the sweep")
            print(f"     {event}: trap to re-programmed {e['trap_to_programmed_ms']} ms, sweep {e['sweep_ms']:.3f} ms, "
                  f"{e['sweep_smps']} SMPs; {e['frames_lost']} frames lost of {e['frames_received']}")
    print(f"     bring-up {fig.get('bring_up_s', 0):.3f} s")
    check(r.returncode == 0, f"scripts/fabric exit 0 ({r.returncode})")
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
