#!/usr/bin/env python3
"""A VM's live migration on an IB-over-Ethernet fabric of weft switches (issue 32, test 6), run by
`scripts/fabric --vms SPEC --migrate-vm` once the fabric is up: the SM (in a switch, --sm-vms)
made every host a hypervisor and gave its VMs LIDs (vLIDs when every switch forwards them). One
host sends numbered IBoE frames to every VM's LID that is not its own; every hypervisor's wire
is watched. The SM moves one VM to a hypervisor on another leaf and back (`sm migrate`), once per
method of --reconfig, while the frames go on. Reported: where the moved VM's frames arrived when
sent outside the moves (they must all reach the host it ran on then, and nothing else) and while
each move ran (at the old host, the new one, or lost; and in the 50 ms after the SM's reply, while
the switches publish what they answered); the other VMs must lose nothing, receive nothing twice
and nothing out of order, and nothing of theirs may reach another host.

The frame sender and the wire watchers are this file run in a host's namespace:
    fabric_vm.py send IFACE DST_MAC SLID LID[,LID...] RATE
    fabric_vm.py watch IFACE
each runs until SIGTERM and then prints one JSON line."""
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import time

ETHERTYPE = 0x88B5  # weft's IBoE frames
QP = 0x000100  # not weft-ca's data QP (2): its receivers leave these frames alone
MAGIC = b"weft-vm\0"
SETTLE_NS = 50_000_000
PACKET_OUTGOING = 4


def frame(dst_mac, src_mac, dlid, slid, seq, now_ns):
    """LRH (VL 0, SL 0, LNH 2; LID bits 16-17 in the reserved bits as seed 002 puts them), BTH (UD
    SEND_ONLY to QP), DETH, payload (magic, sequence number, send time), ICRC (not checked)."""
    payload = MAGIC + struct.pack("!QQ", seq, now_ns)
    rest = struct.pack("!BBHI", 0x64, 0, 0xFFFF, QP) + struct.pack("!I", seq & 0xFFFFFF)
    rest += struct.pack("!II", 0x11111111, 1) + payload + bytes(4)
    words = (8 + len(rest)) // 4
    lrh = struct.pack("!BBHHH", 0x00, (dlid >> 16) << 2 | 2, dlid & 0xFFFF, (slid >> 16) << 14 | words,
                      slid & 0xFFFF)
    return dst_mac + src_mac + struct.pack("!H", ETHERTYPE) + lrh + rest


def parse(data):
    """(dlid, seq, sent_ns) of one of our frames, or None."""
    if len(data) < 14 + 8 + 12 + 8 + 24 or struct.unpack("!H", data[12:14])[0] != ETHERTYPE:
        return None
    l = data[14:]
    if (struct.unpack("!I", l[12:16])[0] & 0xFFFFFF) != QP or l[28:36] != MAGIC:
        return None
    dlid = (l[1] >> 2 & 3) << 16 | struct.unpack("!H", l[2:4])[0]
    seq, sent = struct.unpack("!QQ", l[36:52])
    return dlid, seq, sent


stop = False


def on_term(*_):
    global stop
    stop = True


def send(ifname, dst_mac, slid, lids, rate):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETHERTYPE))
    s.bind((ifname, ETHERTYPE))
    src_mac = s.getsockname()[4]
    dst = bytes.fromhex(dst_mac.replace(":", ""))
    times = {lid: [] for lid in lids}  # per LID: the send time of each sequence number
    gap = 1.0 / rate  # per LID
    t = time.monotonic()
    while not stop:
        for lid in lids:
            now = time.monotonic_ns()
            s.send(frame(dst, src_mac, lid, slid, len(times[lid]), now))
            times[lid].append(now)
        t += gap
        wait = t - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        elif wait < -0.1:
            t = time.monotonic()  # fell behind (the machine is loaded): no burst to catch up
    print(json.dumps({"sent": {str(lid): v for lid, v in times.items()}}), flush=True)


def watch(ifname):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETHERTYPE))
    s.bind((ifname, ETHERTYPE))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    s.settimeout(0.1)
    got = []
    print("watching", flush=True)
    while not stop:
        try:
            data, addr = s.recvfrom(2048)
        except socket.timeout:
            continue
        except InterruptedError:
            continue
        if addr[2] == PACKET_OUTGOING:
            continue
        x = parse(data)
        if x:
            got.append(list(x))
    print(json.dumps({"got": got}), flush=True)


# ---- the scenario, inside scripts/fabric ----------------------------------------------------

def vms_of(fab, sm_node):
    j = fab.cli(sm_node, "show sm vms json", "vms", timeout=10)
    return j or {}


def helper(fab, host, args):
    return subprocess.Popen(["ip", "netns", "exec", fab.ns(host), sys.executable, os.path.abspath(__file__)] + args,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def finish(p, timeout=20):
    try:
        os.killpg(p.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
    for line in reversed(out.splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    raise RuntimeError("a helper printed no result (rc %s): %s" % (p.returncode, err.strip()[-500:]))


def answer(fab, sm_node, command, timeout=10.0):
    """`command` on the SM's switch: (the first line it answers, "sm: migrate ..." or "error: ...",
    or None; the time it was typed; the time the answer was seen), on CLOCK_MONOTONIC."""
    log = os.path.join(fab.work, sm_node + ".log")
    start = os.path.getsize(log)
    t0 = time.monotonic()
    fab.send(sm_node, command)
    end = t0 + timeout
    while time.monotonic() < end:
        with open(log, errors="replace") as f:
            f.seek(start)
            for line in f.read().splitlines():
                if line.startswith("sm: migrate ") or line.startswith("error: "):
                    return line, t0, time.monotonic()
        time.sleep(0.005)
    return None, t0, time.monotonic()


def programmed(fab, sm_node, timeout=15.0):
    """Until the SM's last heavy sweep programmed the fabric without a failure (a loaded machine
    can make one time out, and the SM then sweeps again)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        last = (fab.cli(sm_node, "show sm json", "state") or {}).get("last_sweep") or {}
        if last.get("outcome") == "programmed" and not last.get("program_failures"):
            return True
        time.sleep(0.2)
    return False


def migrate(fab, sm_node, vm, to, method):
    """`sm migrate` once the SM has a programmed fabric: (the SM's answer, typed, seen)."""
    command = "sm migrate %s to %s%s" % (vm, to, " method " + method if method else "")
    programmed(fab, sm_node)
    return answer(fab, sm_node, command)


def scenario(fab, a, sm_node, figures):
    """The moves: one VM of the first leaf to a host of another leaf and back, once per method of
    --reconfig (a comma-separated list; default the SM's own choice), 1.5 s apart, while one host
    sends to every VM that is not its own."""
    v = vms_of(fab, sm_node)
    vms = v.get("vms", [])
    out = {"vlids": v.get("vlids"), "vms": len(vms), "moves": []}
    figures["vm_migration"] = out
    problems = []
    hosts = list(fab.topo.hosts)
    leaf = fab.topo.hosts
    if not vms or any(vm["hypervisor"] not in hosts for vm in vms):
        print("fabric: vm: the SM reports no VMs on the hosts (%s)" % v)
        return 1
    moved = next((vm for vm in vms if leaf[vm["hypervisor"]] == leaf[hosts[0]]), vms[0])
    home = moved["hypervisor"]
    room = {h: v.get("vfs", 0) - sum(1 for x in vms if x["hypervisor"] == h) for h in hosts}
    away = next((h for h in hosts if leaf[h] != leaf[home] and room[h] > 0), None)
    sender = next((h for h in hosts if h not in (home, away)), None)
    if away is None or sender is None:
        print("fabric: vm: no hypervisor with room on another leaf, or no host left to send")
        return 1
    methods = (a.reconfig or "").split(",")
    targets = [vm for vm in vms if vm["hypervisor"] != sender]
    lids = [vm["lid"] for vm in targets]
    print("fabric: vm: %d VMs (%s); %s sends to %d of them (LIDs %s) at %d frames/s each; %s moves %s" %
          (len(vms), "vLIDs" if v.get("vlids") else "16-bit LIDs", sender, len(lids),
           ",".join("0x%x" % x for x in lids), a.vm_rate, moved["name"],
           " -> ".join([home] + [away if k % 2 == 0 else home for k in range(len(methods))])))
    watchers = {h: helper(fab, h, ["watch", fab.ifs[(h, leaf[h])][0]]) for h in hosts}
    for h, p in watchers.items():
        if p.stdout.readline().strip() != "watching":
            print("fabric: vm: the watcher on %s did not start" % h)
            return 1
    up = leaf[sender]
    snd = helper(fab, sender, ["send", fab.ifs[(sender, up)][0], fab.mac(up, fab.ifs[(up, sender)][0]),
                               str(fab.lids[sender]), ",".join(map(str, lids)), str(a.vm_rate)])
    moves = []  # (method, from, to, typed, replied) in CLOCK_MONOTONIC ns
    where = home
    time.sleep(1.5)
    for k, method in enumerate(methods):
        to = away if k % 2 == 0 else home
        line, t_cmd, t_done = migrate(fab, sm_node, moved["name"], to, method)
        print("fabric: vm: the SM said: %s (%.1f ms after the command was typed)" % (line, (t_done - t_cmd) * 1e3))
        if line is None or not line.startswith("sm: migrate "):
            problems.append("move %d: the SM did not report it: %s" % (k + 1, line))
        m = re.search(r"\): ([a-z-]+): (\d+) switches, (\d+) LFT blocks.*; (\d+) LFT entries changed, (\d+) of them",
                      line or "")
        moves.append({"method": m.group(1) if m else method or None, "from": where, "to": to,
                      "switches": int(m.group(2)) if m else None, "lft_blocks": int(m.group(3)) if m else None,
                      "lft_entries": int(m.group(4)) if m else None, "other_lid_entries": int(m.group(5)) if m else None,
                      "command_to_reply_ms": (t_done - t_cmd) * 1e3, "t": (int(t_cmd * 1e9), int(t_done * 1e9))})
        where = to
        time.sleep(1.5)
    sent = finish(snd)["sent"]
    time.sleep(0.5)  # frames still on their way
    got = {h: finish(p)["got"] for h, p in watchers.items()}
    now_on = {vm["name"]: vm["hypervisor"] for vm in vms_of(fab, sm_node).get("vms", [])}
    if now_on.get(moved["name"]) != where:
        problems.append("the SM has %s on %s after the moves, not %s" % (moved["name"], now_on.get(moved["name"]), where))
    # Moves the SM must refuse, saying why: an unknown VM or host, a switch, a full hypervisor.
    full = [h for h in hosts if sum(1 for x in now_on.values() if x == h) >= v.get("vfs", 0)]
    other = next((n for n, h in now_on.items() if h not in full), None)
    bad = ["sm migrate vm99999 to %s" % home, "sm migrate %s to nosuchhost" % moved["name"],
           "sm migrate %s to %s" % (moved["name"], sm_node)]
    if full and other:
        bad.append("sm migrate %s to %s" % (other, full[0]))
    out["refusals"] = {c: answer(fab, sm_node, c)[0] for c in bad}
    for c, said in out["refusals"].items():
        print("fabric: vm: `%s`: %s" % (c, said))

    # Where every frame went.
    arrived = {}  # (lid, seq) -> [hosts]
    order = {}  # (host, lid) -> sequence numbers as received
    for h, frames in got.items():
        for dlid, seq, _ in frames:
            arrived.setdefault((dlid, seq), []).append(h)
            order.setdefault((h, dlid), []).append(seq)
    steady = {"sent": 0, "right_host": 0, "elsewhere": 0, "lost": 0, "twice": 0}
    blank = {"sent": 0, "lost": 0, "twice": 0, "elsewhere": 0, "reordered": 0}
    for mv in moves:
        mv["during"] = {"sent": 0, "at_old": 0, "at_new": 0, "elsewhere": 0, "lost": 0, "twice": 0}
        mv["settling"] = dict(mv["during"])  # sent in the SETTLE_NS after the SM's reply
        mv["other_vms"] = dict(blank)  # the other VMs' frames sent while this move ran
    others = dict(blank)  # ... and while none ran

    # A move's window runs from the command to SETTLE_NS past the SM's reply: every switch has
    # answered its Sets by the reply, and publishes its new tables in the same control-loop round,
    # but a loaded machine can hold a switch's control thread between the two.
    def window(t):
        return next((x for x in moves if x["t"][0] <= t < x["t"][1] + SETTLE_NS), None)

    for vm in targets:
        lid = vm["lid"]
        for seq, t in enumerate(sent[str(lid)]):
            at = arrived.get((lid, seq), [])
            mv = window(t)
            if vm["name"] != moved["name"]:
                o = mv["other_vms"] if mv else others
                o["sent"] += 1
                o["lost"] += not at
                o["twice"] += len(at) > 1
                o["elsewhere"] += any(h != vm["hypervisor"] for h in at)
                continue
            if mv is not None:
                d = mv["during"] if t < mv["t"][1] else mv["settling"]
                d["sent"] += 1
                d["lost"] += not at
                d["twice"] += len(at) > 1
                d["at_old"] += mv["from"] in at
                d["at_new"] += mv["to"] in at
                d["elsewhere"] += any(h not in (mv["from"], mv["to"]) for h in at)
                continue
            done = [x for x in moves if x["t"][1] <= t]
            expect = done[-1]["to"] if done else home
            steady["sent"] += 1
            steady["lost"] += not at
            steady["twice"] += len(at) > 1
            steady["right_host"] += at == [expect]
            steady["elsewhere"] += any(h != expect for h in at)
        if vm["name"] != moved["name"]:
            seqs = order.get((vm["hypervisor"], lid), [])
            for x, y in zip(seqs, seqs[1:]):
                if y < x:  # y overtook x: counted when y was sent
                    mv = window(sent[str(lid)][y])
                    (mv["other_vms"] if mv else others)["reordered"] += 1
    for mv in moves:
        del mv["t"]
    out.update({"moved": moved["name"], "lid": moved["lid"], "sender": sender, "moves": moves,
                "moved_vm_outside_moves": steady, "other_vms": others})
    print("fabric: vm: frames to %s (LID 0x%x) sent while no move ran: %d, %d at the host it ran on, %d elsewhere, "
          "%d lost, %d twice" % (moved["name"], moved["lid"], steady["sent"], steady["right_host"], steady["elsewhere"],
                                 steady["lost"], steady["twice"]))
    # Reordering is counted, not held against a move: under load net_af_packet's queues (fanout
    # by hash, with rollover to the other queue when one is full) reorder a flow by themselves.
    def disturbed(o):
        return o["lost"] + o["twice"] + o["elsewhere"]

    for k, mv in enumerate(moves):
        d, z, o = mv["during"], mv["settling"], mv["other_vms"]
        print("fabric: vm:   sent during move %d (%s, %s -> %s, %s switches, %s LFT blocks, %.1f ms): %d, %d at %s, "
              "%d at %s, %d elsewhere, %d lost; in the %d ms after the reply %d, %d at %s; to the other VMs %d, "
              "%d lost, %d out of order" %
              (k + 1, mv["method"], mv["from"], mv["to"], mv["switches"], mv["lft_blocks"], mv["command_to_reply_ms"],
               d["sent"], d["at_old"], mv["from"], d["at_new"], mv["to"], d["elsewhere"], d["lost"],
               SETTLE_NS // 1_000_000, z["sent"], z["at_old"], mv["from"], o["sent"], o["lost"], o["reordered"]))
        # A full re-route may move the other VMs' routes too (frames on the old path are then
        # overtaken): only ItRC and FTreeMinRC promise to leave them alone.
        if mv["method"] != "full" and disturbed(o):
            problems.append("move %d (%s) disturbed the other VMs' frames: %s" % (k + 1, mv["method"], o))
    print("fabric: vm: frames to the %d other VMs sent while no move ran: %d, %d lost, %d twice, %d reached another "
          "host, %d out of order" % (len(targets) - 1, others["sent"], others["lost"], others["twice"],
                                     others["elsewhere"], others["reordered"]))
    if not steady["sent"] or steady["right_host"] != steady["sent"]:
        problems.append("outside the moves, the moved VM's frames did not all reach the host it ran on alone")
    if not others["sent"] or disturbed(others):
        problems.append("the other VMs' frames were disturbed while no move ran: %s" % others)
    for line in problems:
        print("fabric: vm: PROBLEM: " + line)
    out["problems"] = problems
    return 1 if problems else 0


def main():
    signal.signal(signal.SIGTERM, on_term)
    if len(sys.argv) == 7 and sys.argv[1] == "send":
        send(sys.argv[2], sys.argv[3], int(sys.argv[4]), [int(x) for x in sys.argv[5].split(",")], float(sys.argv[6]))
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "watch":
        watch(sys.argv[2])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
