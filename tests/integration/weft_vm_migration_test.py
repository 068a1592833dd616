#!/usr/bin/env python3
"""A VM's live migration on an IB-over-Ethernet fabric of weft switches (issue 32, test 6):
scripts/fabric with --vms and --migrate-vm (scripts/fabric_vm.py) on the smallest fat tree that
has two leaves under two spines, two hosts on each, the SM in a leaf (--sm-vms
vfs=2,load=50,vlids=extended, -R vswitch-ftree,updn).

Checked: every switch answers WeftExtendedLids, so the VMs' LIDs are vLIDs (0x10000 and up),
forwarded by the switches' secondary LFTs; one host sends numbered frames to every other VM's
vLID while the SM moves one VM to the other leaf and back, once by FTreeMinRC, ItRC and a full
re-route each (`sm migrate VM to HOST method M`). Every frame to the moved VM sent outside the
moves (a move: from the command to 50 ms after the SM's reply, while the switches publish the
tables they answered for) reaches the host it ran on then, and no other. No frame to a VM that
did not move is lost, doubled or delivered to another host, and FTreeMinRC and ItRC change no
other LID's entry. The SM ends with the VM where the last move put it. Then moves the SM must
refuse with a clear message (test 7): an unknown VM, an unknown host, a switch, a full
hypervisor.

Printed, not asserted: what each move sent and where the frames sent while it ran went (the old
host, the new one, or lost), and the other VMs' frames that arrived out of order. A full
re-route re-balances other LIDs too and can overtake their frames in flight (the baseline's
cost); under load, net_af_packet's two queues per port (fanout by hash with rollover when a
queue is full) reorder a flow by themselves, so order is not held against any move.

    weft_vm_migration_test.py FABRIC_SCRIPT BUILD_DIR

Exit 77 (skipped) when not root or without network namespaces.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fabric_test import cannot_run, check, run, verdict  # noqa: E402


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    script, build = sys.argv[1:]
    why = cannot_run()
    if why:
        print("SKIP: " + why)
        return 77
    methods = ["ftree-minrc", "itrc", "full"]
    fig = run(script, build, ["--spines", "2", "--leaves", "2", "--hosts", "2", "-R", "vswitch-ftree,updn",
                              "--vms", "vfs=2,load=50,vlids=extended", "--migrate-vm", "--reconfig", ",".join(methods)],
              rate=200)
    if fig is None:
        check(False, "the fabric came up and reported its figures")
        return 1
    fig = fig.get("vm_migration", {})
    check(fig.get("vlids") is True and fig.get("vms") == 4,
          f"4 VMs, one per host, with vLIDs: every switch forwards them ({fig.get('vms')}, {fig.get('vlids')})")
    check(fig.get("lid", 0) >= 0x10000, f"the moved VM's LID is a vLID: {fig.get('lid')}")
    moves = fig.get("moves", [])
    check([m.get("method") for m in moves] == methods, f"moved by {methods}: {[m.get('method') for m in moves]}")
    for k, m in enumerate(moves):
        check(m.get("lft_blocks") and m.get("switches"), f"move {k + 1} ({m.get('method')}, {m.get('from')} -> "
              f"{m.get('to')}): {m.get('switches')} switches, {m.get('lft_blocks')} LFT blocks, "
              f"{m.get('command_to_reply_ms', 0):.1f} ms from the command to the SM's reply")
        d, z, o = m.get("during", {}), m.get("settling", {}), m.get("other_vms", {})
        print(f"     {m.get('lft_entries')} LFT entries changed, {m.get('other_lid_entries')} of them for other LIDs; "
              f"frames to the moved VM sent during the move: {d.get('sent')}, {d.get('at_old')} at the old host, "
              f"{d.get('at_new')} at the new one, {d.get('lost')} lost; in the 50 ms after the SM's reply "
              f"{z.get('sent')}, {z.get('at_old')} at the old host; to the other VMs {o.get('sent')}, "
              f"{o.get('lost')} lost, {o.get('reordered')} out of order")
        if m.get("method") != "full":
            check(m.get("other_lid_entries") == 0 and not (o.get("lost") or o.get("twice") or o.get("elsewhere")),
                  f"move {k + 1} ({m.get('method')}) changes no other LID's route, and no other VM's frame is lost, "
                  f"doubled or misdelivered")
    s = fig.get("moved_vm_outside_moves", {})
    check(s.get("sent", 0) > 0 and s.get("right_host") == s.get("sent") and not s.get("lost"),
          f"frames to the moved VM outside the moves all reach the host it ran on: {s}")
    o = fig.get("other_vms", {})
    check(o.get("sent", 0) > 0 and not (o.get("lost") or o.get("twice") or o.get("elsewhere")),
          f"frames to the VMs that did not move, sent while no move ran: none lost, doubled or misdelivered ({o})")
    check(not fig.get("problems"), f"no problem reported: {fig.get('problems')}")
    # Moves refused with a clear message (issue 32, test 7), nothing moved.
    want = ["expected the name of a VM of the fabric", "expected a hypervisor of the fabric",
            "expected a hypervisor of the fabric", "is full (2 of 2 VFs in use)"]
    said = list(fig.get("refusals", {}).items())
    check(len(said) == len(want), f"{len(want)} bad moves tried: {len(said)}")
    for (command, line), w in zip(said, want):
        check(line is not None and line.startswith("error: ") and w in line, f"`{command}` refused: {line}")
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
