#!/usr/bin/env python3
"""A VM's live migration on an IB-over-Ethernet fabric of weft switches (issue 32, test 6):
scripts/fabric with --vms and --migrate-vm (scripts/fabric_vm.py) on the smallest fat tree that
has two leaves under two spines, two hosts on each, the SM in a leaf (--sm-vms
vfs=2,load=50,vlids=extended, -R vswitch-ftree,updn).

Checked: every switch answers WeftExtendedLids, so the VMs' LIDs are vLIDs (0x10000 and up),
forwarded by the switches' secondary LFTs; one host sends numbered frames to every other VM's
vLID while the SM moves one VM to the other leaf and back, once by FTreeMinRC, ItRC and a full
re-route each (`sm migrate VM to HOST method M`). Every frame to the moved VM sent outside the
moves reaches the host it ran on then, and no other; every frame to the VMs that did not move
arrives once, in order, at their own host, but for those a full re-route overtakes while it
re-balances their routes (counted and printed: the baseline's cost); FTreeMinRC and ItRC change
no other LID's entry. The SM ends with the VM where the last move put it.
Printed, not asserted: what each move sent and where the frames sent while it ran went (the old
host, the new one, or lost). Then moves the SM must refuse with a clear message (test 7): an
unknown VM, an unknown host, a switch, a full hypervisor.

    weft_vm_migration_test.py FABRIC_SCRIPT BUILD_DIR

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
    probe = f"wvprobe{os.getpid() % 100000}"
    if subprocess.run(["ip", "netns", "add", probe], capture_output=True).returncode != 0:
        print("SKIP: no network namespace support")
        return 77
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    methods = ["ftree-minrc", "itrc", "full"]
    with tempfile.TemporaryDirectory(prefix="weft-vm-migration-") as tmp:
        figures = os.path.join(tmp, "figures.json")
        r = subprocess.run([script, "--build", build, "--spines", "2", "--leaves", "2", "--hosts", "2",
                            "-R", "vswitch-ftree,updn", "--vms", "vfs=2,load=50,vlids=extended", "--migrate-vm",
                            "--reconfig", ",".join(methods), "--rate", "200", "--timeout", "60",
                            "--dir", os.path.join(tmp, "run"), "--json", figures],
                           capture_output=True, text=True, timeout=240)
        print(r.stdout, end="")
        print(r.stderr, end="")
        check(r.returncode == 0, f"scripts/fabric --migrate-vm: exit 0 ({r.returncode})")
        if not os.path.exists(figures):
            check(False, "the fabric came up and reported its figures")
            return 1
        with open(figures) as f:
            fig = json.load(f).get("vm_migration", {})
    check(fig.get("vlids") is True and fig.get("vms") == 4,
          f"4 VMs, one per host, with vLIDs: every switch forwards them ({fig.get('vms')}, {fig.get('vlids')})")
    check(fig.get("lid", 0) >= 0x10000, f"the moved VM's LID is a vLID: {fig.get('lid')}")
    moves = fig.get("moves", [])
    check([m.get("method") for m in moves] == methods, f"moved by {methods}: {[m.get('method') for m in moves]}")
    for k, m in enumerate(moves):
        check(m.get("lft_blocks") and m.get("switches"), f"move {k + 1} ({m.get('method')}, {m.get('from')} -> "
              f"{m.get('to')}): {m.get('switches')} switches, {m.get('lft_blocks')} LFT blocks, "
              f"{m.get('command_to_reply_ms', 0):.1f} ms from the command to the SM's reply")
        d, o = m.get("during", {}), m.get("other_vms", {})
        print(f"     {m.get('lft_entries')} LFT entries changed, {m.get('other_lid_entries')} of them for other LIDs; "
              f"frames to the moved VM sent during the move: {d.get('sent')}, {d.get('at_old')} at the old host, "
              f"{d.get('at_new')} at the new one, {d.get('lost')} lost; to the other VMs {o.get('sent')}, "
              f"{o.get('lost')} lost, {o.get('reordered')} out of order")
        if m.get("method") != "full":
            check(m.get("other_lid_entries") == 0 and not (o.get("lost") or o.get("twice") or o.get("elsewhere") or
                                                         o.get("reordered")),
                  f"move {k + 1} ({m.get('method')}) changes no other LID's route and disturbs no other VM's frame")
    s = fig.get("moved_vm_outside_moves", {})
    check(s.get("sent", 0) > 0 and s.get("right_host") == s.get("sent") and not s.get("lost"),
          f"frames to the moved VM outside the moves all reach the host it ran on: {s}")
    o = fig.get("other_vms", {})
    check(o.get("sent", 0) > 0 and not (o.get("lost") or o.get("twice") or o.get("elsewhere") or o.get("reordered")),
          f"frames to the VMs that did not move, sent while no move ran: none lost, doubled, misdelivered or out of "
          f"order: {o}")
    check(not fig.get("problems"), f"no problem reported: {fig.get('problems')}")
    # Moves refused with a clear message (issue 32, test 7), nothing moved.
    want = ["expected the name of a VM of the fabric", "expected a hypervisor of the fabric",
            "expected a hypervisor of the fabric", "is full (2 of 2 VFs in use)"]
    said = list(fig.get("refusals", {}).items())
    check(len(said) == len(want), f"{len(want)} bad moves tried: {len(said)}")
    for (command, line), w in zip(said, want):
        check(line is not None and line.startswith("error: ") and w in line, f"`{command}` refused: {line}")
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
