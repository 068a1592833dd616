#!/usr/bin/env python3
"""Subnet-management frames to the control thread, with idle workers asleep: the real weft on
two net_tap ports, its worker in idle back-off (--idle-sleep-max-us 1000).

The test writes IB-over-Ethernet frames into the first tap's kernel interface with a packet
socket (weft receives them on port 0) and reads what leaves port 1 on the second tap's. Each
frame follows a pause of 0.3 s, long enough for the worker to sleep at the bound:
- a VL15 SMP to the permissive LID is the switch's own: counted punted, taken off the ring by
  the control loop (punts_drained), never forwarded;
- a VL15 SMP to LID 0x12 and a data frame (VL0) to LID 0x12 follow the LFT to port 1, the SMP
  still on VL15.
Then: rx = forwarded - replicas + dropped + punted in `show port stats json` and `show fwd stats
json`; each port has the control thread's TX queue (queue 1: one worker, one TX queue each) and
its counters (net_tap wants as many RX as TX queues: --rxq 2 gives the worker's TX queue and
the control thread's); the worker slept (idle_sleeps), and `show config fwd json` gives the bound.

Exit 77 (skip) when not root or without /dev/net/tun.
"""
import os
import shutil
import struct
import sys
import tempfile
import time

from weft_session import LiveWeft, eal_prefix
from weft_tap import json_line, received, tap_sockets

WEFT = sys.argv[1]
PID = os.getpid()
TAG = "%05d" % (PID % 100000)
IF_IN, IF_OUT = "wtpi" + TAG, "wtpo" + TAG
IBOE = 0x88B5
SLEEP_MAX_US = 1000
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def iboe(vl, dlid, slid, qp=0):
    """Ethernet, LRH (LNH 2), BTH to `qp`, a 256-byte MAD-sized payload, ICRC."""
    rest = struct.pack("!BBHI", 0x64, 0, 0xFFFF, qp) + struct.pack("!I", 1) + bytes(256) + bytes(4)
    words = (8 + len(rest)) // 4
    lrh = struct.pack("!BBHHH", vl << 4, 2, dlid, words, slid)
    return bytes.fromhex("0200000000d0020000000050") + struct.pack("!H", IBOE) + lrh + rest


def iboe_frame(data):
    return data[12:14] == struct.pack("!H", IBOE)


def run():
    tmp = tempfile.mkdtemp(prefix="weft-punt-")
    cmds = os.path.join(tmp, "cmds")
    with open(cmds, "w") as f:
        f.write("lft set 0x12 port 1\n")
    args = [WEFT, "-l", "0-1", "--no-huge", "--no-pci", "-m", "256", "--file-prefix=" + eal_prefix("punt"),
            "--vdev=net_tap0,iface=" + IF_IN, "--vdev=net_tap1,iface=" + IF_OUT, "--",
            "-i", "--nb-cores", "1", "--rxq", "2", "--cmdline-file", cmds, "--idle-sleep-max-us", str(SLEEP_MAX_US)]
    smp = iboe(15, 0xFFFF, 0x0007)
    smp_through = iboe(15, 0x0012, 0x0008)
    data = iboe(0, 0x0012, 0x0009, qp=0x42)
    arrived = {}
    w = LiveWeft()
    w.start(args)
    try:
        sockets = tap_sockets(w, IF_IN, IF_OUT)
        if sockets is None:
            check(False, "weft starts on two net_tap ports")
            return
        tx, rx = sockets
        for name, frame in (("smp", smp), ("smp_through", smp_through), ("data", data)):
            time.sleep(0.3)  # idle: the worker sleeps at the bound
            tx.send(frame)
            arrived[name] = received(rx, 0.5, iboe_frame)
        tx.close()
        rx.close()
        w.proc.stdin.write("show port stats json\nshow fwd stats json\nshow config fwd json\nquit\n")
        w.proc.stdin.flush()
    finally:
        rc, out = w.finish(30)
        shutil.rmtree(tmp, ignore_errors=True)
    check(rc == 0, "weft exits 0 (%s)" % rc)
    check(arrived.get("smp") == [], "the SMP to the permissive LID is not forwarded (%d frames)" % len(arrived.get("smp", [])))
    st = arrived.get("smp_through", [])
    check(len(st) == 1 and st[0][14] >> 4 == 15 and st[0][15:] == smp_through[15:],
          "the SMP to LID 0x12 leaves port 1 by the LFT, on VL15, after an idle pause")
    d = arrived.get("data", [])
    check(len(d) == 1 and d[0][14] >> 4 == 0 and d[0][15:] == data[15:],
          "the data frame to LID 0x12 leaves port 1 on VL0, after an idle pause")

    ps = json_line(out, '"punts_drained"')
    check(ps.get("punted") == 1 and ps.get("punts_drained") == 1,
          "show port stats: one frame punted, one drained by the control loop (%s, %s)" %
          (ps.get("punted"), ps.get("punts_drained")))
    check("punt_ring_full" not in ps.get("drops", {}), "no punt_ring_full drops")
    check(bool(ps) and ps["rx_packets"] == ps["forwarded"] - ps["replicas"] + ps["dropped"] + ps["punted"],
          "show port stats: rx = forwarded - replicas + dropped + punted (%s)" %
          {k: ps.get(k) for k in ("rx_packets", "forwarded", "replicas", "dropped", "punted")})
    ctl = [p.get("control_tx", {}) for p in ps.get("ports", [])]
    check(ctl == [{"queue": 1, "sent": 0, "failed": 0}] * 2,
          "each port has the control thread's TX queue 1, nothing sent on it (%s)" % ctl)
    fs = json_line(out, '"idle_sleeps"')
    lc = fs.get("lcores", [{}])[0]
    check(lc.get("punted") == 1 and lc.get("rx_packets") == lc.get("forwarded", 0) - lc.get("replicas", 0) +
          lc.get("dropped", 0) + lc.get("punted", 0), "show fwd stats: the worker's own figures agree (%s)" % lc)
    check(lc.get("idle_sleeps", 0) > 0 and lc.get("idle_sleep_us", 0) >= SLEEP_MAX_US,
          "the worker slept while idle (%s sleeps, %s us)" % (lc.get("idle_sleeps"), lc.get("idle_sleep_us")))
    cf = json_line(out, '"idle_sleep_max_us"')
    check(cf.get("idle_sleep_max_us") == SLEEP_MAX_US and cf.get("control_tx_queue") == 1,
          "show config fwd json: idle sleep bound and the control TX queue (%s)" %
          {k: cf.get(k) for k in ("idle_sleep_max_us", "control_tx_queue")})


def main():
    if os.geteuid() != 0 or not os.path.exists("/dev/net/tun"):
        print("skip: needs root and /dev/net/tun")
        return 77
    run()
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
